#!/usr/bin/python3
"""cjk_figures.py - figures with Japanese and Chinese titles and labels render with real glyphs.

PNG: the title drawn by gnuplot (pngcairo) is compared with the same text drawn by PIL straight from the Noto CJK
font file: the ink of the two overlaps (IoU) like a rendering of the same glyphs does, and far better than the
rendering of other text or of tofu boxes. The same figure rendered with every CJK font hidden from fontconfig
(what a machine without scripts/install-deps gets) fails that check, so the check can fail.
PDF: a Noto CJK font is embedded. SVG: the font-family names a CJK family. Sixel (libgd, no font fallback): the
title decoded from the sixel image passes the same glyph check. Terminal (gnuplot's dumb): every line fits the 80 columns and the frame stays
straight on the rows that carry CJK labels. Prints 'N passed, N failed'.
usage: cjk_figures.py ATTN_BINARY"""
import os, subprocess, sys, tempfile, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
from refcheck import ATTN, check, finish  # noqa: E402

import numpy as np
from PIL import Image, ImageDraw, ImageFont

JA_TITLE = "自己注意と位置エンコーディング"
ZH_TITLE = "自注意力和位置编码"
PLOT = ("x = torch.arange(10, dtype=torch.float32)\n"
        "d2l.plot(x, torch.sin(x), xlabel='位置（行）', ylabel='値', title='{title}', legend=['正弦'])\n")

NO_CJK_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include>/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><pattern><patelt name="lang"><string>ja</string></patelt></pattern></rejectfont>
  <rejectfont><pattern><patelt name="lang"><string>zh-cn</string></patelt></pattern></rejectfont></selectfont>
</fontconfig>
"""


def run(code, cwd, env_extra=None):
    env = dict(os.environ, **dict({"ATTN_PLOT": "summary"}, **(env_extra or {})))
    env.pop("DISPLAY", None)
    return subprocess.run([ATTN, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


def run_lang(lang, code, cwd, env_extra=None):
    """attn --lang LANG -c CODE: the chapter tools write their figures' text in LANG."""
    env = dict(os.environ, **dict({"ATTN_PLOT": "summary"}, **(env_extra or {})))
    env.pop("DISPLAY", None)
    return subprocess.run([ATTN, "--lang", lang, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


def cjk_font_file():
    r = subprocess.run(["fc-match", "-f", "%{file}", "sans-serif:lang=ja"], capture_output=True, text=True)
    return r.stdout.strip()


def title_ink(png):
    """The ink (dark pixels) of the title: the first inked rows above the plot's frame, cropped to their box; and
    the ink fraction of the whole image."""
    a = np.asarray(Image.open(png).convert("L")) < 128
    frame = np.where(a.sum(1) > a.shape[1] * 0.5)[0]
    top = frame[0] if len(frame) else a.shape[0] // 10
    band = a[:top]
    rows = np.where(band.any(1))[0]
    if not len(rows):
        return band, a.mean()
    end = rows[0]
    while end + 1 < top and band[end + 1].any():      # the first run of inked rows: the title, not a tick label
        end += 1
    band = band[rows[0]:end + 1]
    c = np.where(band.any(0))[0]
    return band[:, c.min():c.max() + 1], a.mean()


def iou_with_reference(crop, text, font_file, latin_file=None):
    """Overlap of the crop with `text` drawn by PIL from the font file, scaled to the crop's box. With latin_file,
    the characters that are not wide are drawn from that font, as fontconfig's fallback does for a figure whose
    font list starts with a Latin font."""
    if crop.shape[0] < 2 or crop.shape[1] < 2:
        return 0.0
    font = ImageFont.truetype(font_file, 64, index=0)
    im = Image.new("L", (64 * (len(text) + 2), 120), 255)
    if latin_file:
        latin, x, draw = ImageFont.truetype(latin_file, 64), 10.0, ImageDraw.Draw(im)
        for ch in text:
            f = font if unicodedata.east_asian_width(ch) in "WF" else latin
            draw.text((x, 90), ch, font=f, fill=0, anchor="ls")     # on one baseline
            x += f.getlength(ch)
    else:
        ImageDraw.Draw(im).text((10, 10), text, font=font, fill=0)
    ref = np.asarray(im) < 128
    r, c = np.where(ref.any(1))[0], np.where(ref.any(0))[0]
    ref = ref[r.min():r.max() + 1, c.min():c.max() + 1]
    scaled = np.asarray(Image.fromarray((ref * 255).astype(np.uint8)).resize((crop.shape[1], crop.shape[0]), Image.BILINEAR)) > 100
    return float((scaled & crop).sum()) / max(1, float((scaled | crop).sum()))


def sixel_ink(data):
    """Decodes a sixel image (DCS q ... ST) and returns its dark pixels as a boolean array."""
    start = data.index("q") + 1
    body = data[start:data.index("\x1b\\", start)]
    i, colours, cur, x, band = 0, {}, (0, 0, 0), 0, 0
    w = h = 0
    m = __import__("re").match(r'"(\d+);(\d+);(\d+);(\d+)', body)
    if m:
        w, h = int(m.group(3)), int(m.group(4))
        i = m.end()
    img = np.zeros((h + 6, w + 1), dtype=bool)
    while i < len(body):
        c = body[i]
        if c == "#":
            j = i + 1
            while j < len(body) and (body[j].isdigit() or body[j] == ";"):
                j += 1
            parts = [int(p) for p in body[i + 1:j].split(";") if p]
            if len(parts) == 5:
                colours[parts[0]] = tuple(parts[2:])
            cur = colours.get(parts[0], (0, 0, 0))
            i = j
            continue
        rep = 1
        if c == "!":
            j = i + 1
            while body[j].isdigit():
                j += 1
            rep, c, i = int(body[i + 1:j]), body[j], j
        if c == "$":
            x = 0
        elif c == "-":
            x, band = 0, band + 1
        elif "?" <= c <= "~":
            bits = ord(c) - 63
            dark = sum(cur) / 3 < 50          # sixel colours are percentages; a later colour paints over
            for r in range(6):
                if bits >> r & 1 and band * 6 + r < img.shape[0]:
                    img[band * 6 + r, x:min(x + rep, img.shape[1])] = dark
            x += rep
        i += 1
    return img


def width(s):
    return sum(0 if c == "\u200b" or unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


with tempfile.TemporaryDirectory() as d:
    r = subprocess.run(["fc-list", ":lang=ja", "family"], capture_output=True, text=True)
    check("a Japanese font is installed (fc-list :lang=ja)", bool(r.stdout.strip()), "run scripts/install-deps (fonts-noto-cjk)")
    r = subprocess.run(["fc-list", ":lang=zh-cn", "family"], capture_output=True, text=True)
    check("a Chinese font is installed (fc-list :lang=zh-cn)", bool(r.stdout.strip()), "run scripts/install-deps (fonts-noto-cjk)")
    font = cjk_font_file()
    check("fontconfig's sans-serif for Japanese is a CJK font", "CJK" in font, font)

    for lang, title in [("ja", JA_TITLE), ("zh", ZH_TITLE)]:
        r = run(PLOT.format(title=title) + f"savefig('{lang}.png')\nsavefig('{lang}.pdf')\nsavefig('{lang}.svg')", d)
        check(f"{lang}: figure saved", r.returncode == 0, r.stderr[-300:])
        crop, ink = title_ink(os.path.join(d, f"{lang}.png"))
        same = iou_with_reference(crop, title, font)
        other = iou_with_reference(crop, "あいうえおかきくけこさしすせそ"[:len(title)], font)
        boxes = iou_with_reference(crop, "□" * len(title), font)
        print(f"{lang} PNG title: IoU {same:.2f} with its own text, {other:.2f} with other text, {boxes:.2f} with boxes; ink {ink:.3f}")
        check(f"{lang}: PNG title drawn with the font's glyphs", same > 0.45 and same > other + 0.2 and same > boxes + 0.2,
              f"IoU {same:.2f} (other text {other:.2f}, boxes {boxes:.2f})")
        check(f"{lang}: PNG mostly white (no giant fallback boxes)", ink < 0.1, f"ink {ink:.3f}")
        pdf = open(os.path.join(d, f"{lang}.pdf"), "rb").read()
        check(f"{lang}: PDF embeds a Noto CJK font", b"NotoSansCJK" in pdf, "no NotoSansCJK FontName in the PDF")
        svg = open(os.path.join(d, f"{lang}.svg"), encoding="utf-8").read()
        check(f"{lang}: SVG holds the title as text", title in svg, "title missing from the SVG")
        families = set(__import__("re").findall(r'font-family="([^"]*)"', svg))
        check(f"{lang}: SVG font-family names a CJK font", families and all("CJK" in f for f in families), str(families))

    # the same figure where fontconfig has no CJK font: the check above must fail on it
    conf = os.path.join(d, "no-cjk.conf")
    open(conf, "w").write(NO_CJK_CONF)
    r = run(PLOT.format(title=JA_TITLE) + "savefig('tofu.png')", d, {"FONTCONFIG_FILE": conf})
    crop, ink = title_ink(os.path.join(d, "tofu.png"))
    same = iou_with_reference(crop, JA_TITLE, font)
    print(f"without CJK fonts: IoU {same:.2f}, ink {ink:.3f}")
    check("without a CJK font the glyph check fails (it can tell)", same < 0.45 or ink > 0.1, f"IoU {same:.2f}, ink {ink:.3f}")

    # sixel (gnuplot's sixelgd: libgd draws from one font file, no fallback): the CJK title must be glyphs too
    r = run(PLOT.format(title=JA_TITLE), d, {"ATTN_PLOT": "sixel", "ATTN_SIXEL": "1"})
    try:
        img = sixel_ink(r.stdout)
        Image.fromarray(((~img) * 255).astype(np.uint8)).save(os.path.join(d, "sixel.png"))
        crop, ink = title_ink(os.path.join(d, "sixel.png"))
        same = iou_with_reference(crop, JA_TITLE, font)
        boxes = iou_with_reference(crop, "□" * len(JA_TITLE), font)
    except (ValueError, IndexError) as e:
        same, boxes, ink = 0.0, 0.0, 1.0
        print(f"sixel output not decoded: {e}: {r.stdout[:80]!r} {r.stderr[-200:]}")
    print(f"sixel title: IoU {same:.2f} with its own text, {boxes:.2f} with boxes; ink {ink:.3f}")
    check("sixel: the Japanese title drawn with the font's glyphs", same > 0.45 and same > boxes + 0.2, f"IoU {same:.2f}, boxes {boxes:.2f}")

    # gnuplot's dumb terminal: one cell per character, so wide characters get a second cell from attn
    r = run(PLOT.format(title=JA_TITLE), d, {"ATTN_PLOT": "terminal", "COLUMNS": "80", "NO_COLOR": "1"})
    lines = r.stdout.replace("\f", "").split("\n")
    text = r.stdout.replace("\u200b", "")
    check("dumb: the Japanese title and labels are drawn", JA_TITLE in text and "位置（行）" in text and "値" in text, r.stdout[:400])
    wide = [l for l in lines if width(l) > 80]
    check("dumb: every line fits 80 columns", not wide, "\n".join(wide[:3]))
    bars = {width(l[:l.index("|")]) for l in lines if "|" in l and "+-" not in l[:12]}
    check("dumb: the left frame is one straight column, also on the ylabel's row", len(bars) == 1, f"frame at columns {sorted(bars)}")

    # attn's own terminal heatmaps: panel titles in Japanese sit over their panels
    r = run("W = torch.softmax(torch.arange(32.).reshape(1, 2, 4, 4) / 7, dim=-1)\n"
            "d2l.show_heatmaps(W, xlabel='キー', ylabel='クエリ', titles=['ヘッド 1', 'ヘッド 2'])",
            d, {"ATTN_PLOT": "terminal", "COLUMNS": "80", "NO_COLOR": "1"})
    lines = r.stdout.split("\n")
    tl = [l for l in lines if "ヘッド 1" in l]
    ticks = [l for l in lines if l.strip().startswith("0   1   2   3")]
    if tl and ticks:
        t1, t2 = width(tl[0][:tl[0].index("ヘッド 1")]), width(tl[0][:tl[0].index("ヘッド 2")])
        k = ticks[0]
        k1 = width(k[:k.index("0")])
        k2 = width(k[:k.index("0", k.index("3"))])
        check("terminal heatmaps: the second title is as far from the first as the second panel from the first",
              t2 - t1 == k2 - k1, f"titles at {t1}, {t2}; panels at {k1}, {k2}\n{r.stdout}")
    else:
        check("terminal heatmaps drawn with their titles", False, r.stdout + r.stderr)
    check("terminal heatmaps: every line fits 80 columns", all(width(l) <= 80 for l in lines), r.stdout)

    # the chapter tools' own figures in the reader's language (issue 26): rotation's title and legend,
    # stack_attention's legend and x label; the Japanese and Chinese as lessons/ja, lessons/zh and docs/glossary.md
    # name them (単位円 / 单位圆, トークンの類似度 / 标记相似度, 層 / 层)
    ROT = "R = rotation(3, 2, plot=True, quiet=True)"
    STACK = "r = stack_attention(layers=6, plot=True, quiet=True)"
    tools = {
        "en": ("R turns each pair by δω = 0.9487 rad", ["unit circle", "(p[i,4], p[i,5]) for i = 0..19", "R: pair i → pair i+3"],
               ["token similarity (mean cosine)", "position signal (spread)"], "layer"),
        "ja": ("R は各組を δω = 0.9487 rad 回転させる", ["単位円", "(p[i,4], p[i,5])、i = 0..19", "R: 組 i → 組 i+3"],
               ["トークンの類似度 (コサインの平均)", "位置の信号 (ばらつき)"], "層"),
        "zh": ("R 把每一对值旋转 δω = 0.9487 rad", ["单位圆", "(p[i,4], p[i,5])，i = 0..19", "R：第 i 对 → 第 i+3 对"],
               ["标记相似度（余弦的平均）", "位置信号（离散程度）"], "层"),
    }

    def legend_columns(text, entries):
        """For each legend entry: (display column of its sample's first cell, of its text) on its row; None if absent."""
        cols = []
        for e in entries:
            row = next((l for l in text.split("\n") if e in l), None)
            if row is None:
                cols.append(None)
                continue
            at = row.index(e)
            before = row[:at].rstrip()
            k = len(before)
            while k and before[k - 1] not in " |":
                k -= 1
            cols.append((width(row[:k]), width(row[:at])))
        return cols

    for lang, (title, rot_legend, stack_legend, xlabel) in tools.items():
        env80 = {"ATTN_PLOT": "terminal", "COLUMNS": "80", "LINES": "24", "NO_COLOR": "1"}
        r = run_lang(lang, ROT, d, env80)
        text = r.stdout.replace("\u200b", "").replace("\f", "")
        missing = [t for t in [title] + rot_legend if t not in text]
        check(f"{lang} rotation at 80x24: title and legend in the reader's language", not missing, f"missing {missing}\n{text}")
        check(f"{lang} rotation at 80x24: every line fits 80 columns", all(width(l) <= 80 for l in text.split("\n")), text)
        cols = legend_columns(text, rot_legend)
        check(f"{lang} rotation at 80x24: the legend's texts start in one column",
              None not in cols and len({c[1] for c in cols}) == 1, f"{cols}\n{text}")
        ylab = next((l for l in text.split("\n") if "y: p[i, 5]" in l), "")
        check(f"{lang} rotation at 80x24: the legend's line samples start under the axis labels (its point centred)",
              None not in cols and ylab and cols[0][0] == cols[2][0] == width(ylab[:ylab.index("y: ")]), f"{cols}\n{text}")
        r = run_lang(lang, STACK, d, env80)
        text = r.stdout.replace("\u200b", "").replace("\f", "")
        missing = [t for t in stack_legend if t not in text]
        check(f"{lang} stack_attention at 80x24: both legend entries drawn in the reader's language", not missing,
              f"missing {missing}\n{text}")
        check(f"{lang} stack_attention at 80x24: the x label {xlabel!r}", any(l.strip() == xlabel for l in text.split("\n")), text)
        check(f"{lang} stack_attention at 80x24: every line fits 80 columns", all(width(l) <= 80 for l in text.split("\n")), text)
        if lang != "en":          # two rows: each entry's text a sample's width and a space from its sample
            cols = legend_columns(text, stack_legend)
            check(f"{lang} stack_attention at 80x24: the legend's texts start in one column",
                  None not in cols and len({c[1] for c in cols}) == 1, f"{cols}\n{text}")
    # the rotation in files: its title (drawn with the CJK font's glyphs in the PNG, its CJK characters against
    # tofu boxes with the same Latin text), legend and the CJK font in SVG and PDF
    latin = subprocess.run(["fc-match", "-f", "%{file}", "DejaVu Sans"], capture_output=True, text=True).stdout.strip()
    for lang in ("ja", "zh"):
        title = tools[lang][0]
        r = run_lang(lang, ROT + f"\nsavefig('rot-{lang}.png')\nsavefig('rot-{lang}.pdf')\nsavefig('rot-{lang}.svg')", d)
        check(f"{lang} rotation: figure saved", r.returncode == 0, r.stderr[-300:])
        svg = open(os.path.join(d, f"rot-{lang}.svg"), encoding="utf-8").read()
        missing = [t for t in [title] + tools[lang][1] if t not in svg]
        check(f"{lang} rotation.svg: title and legend in the reader's language", not missing, f"missing {missing}")
        families = set(__import__("re").findall(r'font-family="([^"]*)"', svg))
        check(f"{lang} rotation.svg: font-family names a CJK font", families and all("CJK" in f for f in families), str(families))
        pdf = open(os.path.join(d, f"rot-{lang}.pdf"), "rb").read()
        check(f"{lang} rotation.pdf: embeds a Noto CJK font", b"NotoSansCJK" in pdf, "no NotoSansCJK FontName in the PDF")
        crop, ink = title_ink(os.path.join(d, f"rot-{lang}.png"))
        same = iou_with_reference(crop, title, font, latin)
        boxes = iou_with_reference(crop, "".join("□" if unicodedata.east_asian_width(c) in "WF" else c for c in title), font, latin)
        print(f"{lang} rotation PNG title: IoU {same:.2f} with its own text, {boxes:.2f} with boxes; ink {ink:.3f}")
        check(f"{lang} rotation.png: the title drawn with the font's glyphs", same > 0.45 and same > boxes + 0.2,
              f"IoU {same:.2f}, boxes {boxes:.2f}")
finish()

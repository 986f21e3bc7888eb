#!/usr/bin/python3
"""Figures as a person sees them, rendered by the real gnuplot and read back (issue 13). For every figure of the
chapter and the lessons (tests/ref/figure_specs.py):
  SVG: a white background over the whole canvas; figsize × 96 pixels; text at matplotlib's size relative to the figure
       (rcParams font.size, titles 1.2×) and data lines at its line width (lines.linewidth); no text past the canvas;
       the legend box crossed by no data and every legend entry intact; heatmaps with square cells, integer tick
       labels in even steps that do not collide, one colour bar right of all panels, a title over each panel.
  PNG: figsize × 200 pixels, white corners, digits 10 pt high for the figure (measured on the pixels).
  the rotation: the circle round (equal axes), arrows from the pair at i to the pair at i + δ (angle δω).
  measure_layers: axes spanning the data, slopes in the legend equal to a least-squares fit made here, the three
       series drawn at the times returned with their fitted lines, log-log axes (no timing is asserted: make bench);
       complexity()'s counts grow with slopes exactly 2 (self-attention) and 1 (RNN, CNN).
  at an 80×24 pty: line plots and heatmaps fit the window (width and rows), legend and labels intact, truecolor
       with COLORTERM=truecolor (cell colours equal matplotlib's colour map), 256 colours otherwise (lightness in
       the map's order, Blues' dark end blue), no colour under NO_COLOR; sixel pictures sized from the terminal's
       cell size (XTWINOPS) with a fallback when it does not answer.
  minus signs: negative ticks as matplotlib's (U+2212) in SVG and at a UTF-8 pty, ASCII '-' in the C locale.
  summaries: the x and y ranges and a hint when attn chose them (a pipe).
'N passed, N failed'.  usage: plot_render.py ATTN_BINARY"""
import math, os, re, struct, subprocess, sys, tempfile, time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, check, finish  # noqa: E402
from figure_specs import FIGURES  # noqa: E402
from termscreen import Screen, run_pty  # noqa: E402

try:
    import matplotlib
    FONT_PT = float(matplotlib.rcParams['font.size'])
    LINE_PT = float(matplotlib.rcParams['lines.linewidth'])
    from matplotlib import colormaps
except ImportError:                     # the book's defaults, if matplotlib is missing
    FONT_PT, LINE_PT, colormaps = 10.0, 1.5, None


def run(code, cwd, env=None, timeout=180):
    """attn --keep-going ...: every statement runs, as at the prompt, so each one's message can be checked."""
    e = dict(os.environ, ATTN_PLOT="none")
    e.pop("DISPLAY", None)
    e.update(env or {})
    return subprocess.run([ATTN, "--keep-going", "-c", code], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=e)


# ---- reading gnuplot's SVG ----

def numbers(s):
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", s)]


def parse_svg(path):
    """width, height, background, texts (x, y, size, anchor, rotated, text), paths (stroke, width, points, group),
    polygons (fill, points) and marker uses (x, y, group), with attributes inherited from the enclosing groups."""
    root = ET.parse(path).getroot()
    out = {"w": float(root.get("width")), "h": float(root.get("height")), "bg": None, "texts": [], "paths": [],
           "polygons": [], "uses": []}

    def walk(el, inh, group):
        tag = el.tag.split("}")[-1]
        a = dict(inh)
        for k in ("stroke", "stroke-width", "font-size", "text-anchor", "fill", "transform"):
            if el.get(k) is not None:
                a[k] = el.get(k)
        if tag == "g" and el.get("id", "").startswith("gnuplot_plot"):
            group = el.get("id")
        if tag == "rect" and out["bg"] is None and el.get("x") == "0" and el.get("y") == "0":
            out["bg"] = (el.get("fill"), float(el.get("width")), float(el.get("height")))
        elif tag == "text":
            tr = numbers(re.search(r"translate\(([^)]*)\)", a.get("transform", "translate(0,0)")).group(1))
            out["texts"].append({"x": tr[0], "y": tr[1], "size": float(a.get("font-size", "0")), "anchor": a.get("text-anchor", "start"),
                                 "rotated": "rotate" in a.get("transform", ""), "text": "".join(el.itertext())})
        elif tag == "path" and el.get("d"):
            pts = numbers(el.get("d"))
            out["paths"].append({"stroke": a.get("stroke", ""), "width": float(a.get("stroke-width", "1")),
                                 "points": list(zip(pts[0::2], pts[1::2])), "group": group, "closed": "Z" in el.get("d")})
        elif tag == "polygon":
            pts = numbers(el.get("points"))
            out["polygons"].append({"fill": el.get("fill", ""), "points": list(zip(pts[0::2], pts[1::2]))})
        elif tag == "use" and group and el.get("transform"):
            tr = numbers(el.get("transform"))
            out["uses"].append({"x": tr[0], "y": tr[1], "group": group})
        for c in el:
            if c.tag.split("}")[-1] != "defs":
                walk(c, a, group)
    walk(root, {}, None)
    return out


def text_box(t, cw=0.62):
    """Estimated extent of a text: DejaVu Sans averages about 0.6 em per character."""
    w = len(t["text"]) * cw * t["size"]
    h = t["size"]
    if t["rotated"]:
        w, h = h, w
    x0 = t["x"] - (w if t["anchor"] == "end" else w / 2 if t["anchor"] == "middle" else 0)
    if t["rotated"]:
        x0 = t["x"] - w
    return (x0, t["y"] - (h / 2 if t["rotated"] else 0.8 * h), x0 + w, t["y"] + (h / 2 if t["rotated"] else 0.25 * h))


def bbox(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def crosses(box, p, q):
    """Does segment p-q pass through the inside of box (x0, y0, x1, y1)? (Liang-Barsky)"""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pp, qq in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pp == 0:
            if qq < 0:
                return False
            continue
        t = qq / pp
        if pp < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def inside(box, pts, pad=0.5):
    x0, y0, x1, y1 = box
    return all(x0 - pad <= x <= x1 + pad and y0 - pad <= y <= y1 + pad for x, y in pts)


KEY_FRAME = "rgb(204, 204, 204)"


def check_svg(spec, svg):
    n, (fw, fh) = spec["name"], spec["figsize"]
    check(f"{n}.svg: figsize {fw}x{fh} in at 96 px/in", abs(svg["w"] - fw * 96) <= 1 and abs(svg["h"] - fh * 96) <= 1, f"{svg['w']}x{svg['h']}")
    bg = svg["bg"]
    check(f"{n}.svg: a white background over the whole figure", bg is not None and bg[0].lower() in ("#ffffff", "white") and bg[1] >= svg["w"] and bg[2] >= svg["h"], str(bg))
    want = FONT_PT / (72 * fw)             # matplotlib: font.size points in a figure fw inches wide
    sizes = sorted({round(t["size"] / svg["w"] / want, 3) for t in svg["texts"] if t["text"].strip()})
    check(f"{n}.svg: text at matplotlib's size for the figure ({FONT_PT:g} pt, titles 1.2x)", sizes and all(abs(s - 1) < 0.03 or abs(s - 1.2) < 0.04 for s in sizes), f"relative sizes {sizes}")
    widths = sorted({round(p["width"] / svg["w"] / (LINE_PT / (72 * fw)), 2) for p in svg["paths"] if p["group"] and p["stroke"] != KEY_FRAME and len(p["points"]) > 2})
    if "heatmap" not in spec:
        check(f"{n}.svg: data lines {LINE_PT:g} pt wide for the figure", widths and all(abs(w - 1) < 0.05 for w in widths), f"relative widths {widths}")
    clipped = [t["text"] for t in svg["texts"] if t["text"].strip() and
               (lambda b: b[0] < -1 or b[1] < -1 or b[2] > svg["w"] + 1 or b[3] > svg["h"] + 1)(text_box(t))]
    check(f"{n}.svg: no text cut at the edges", not clipped, str(clipped))
    texts = [t["text"] for t in svg["texts"]]
    for label in spec.get("legend", []):
        check(f"{n}.svg: legend entry {label!r} intact", label in texts, str(texts[:40]))
    frames = sorted({bbox(p["points"]) for p in svg["paths"] if p["stroke"] == KEY_FRAME and p["closed"]})   # gnuplot strokes it twice
    if spec.get("legend"):
        check(f"{n}.svg: one legend box", len(frames) == 1, str(frames))
    for fr in frames[:1]:
        box = (fr[0] + 1, fr[1] + 1, fr[2] - 1, fr[3] - 1)
        hits = []
        for p in svg["paths"]:
            if not p["group"] or p["stroke"] == KEY_FRAME or inside(fr, p["points"]):
                continue          # the legend's own samples lie inside its box
            for a, b in zip(p["points"], p["points"][1:]):
                if crosses(box, a, b):
                    hits.append((p["group"], a, b))
                    break
        hits += [(u["group"], u["x"], u["y"]) for u in svg["uses"] if crosses(box, (u["x"], u["y"]), (u["x"], u["y"])) and not inside(fr, [(u["x"], u["y"])], -4)]
        check(f"{n}.svg: no data under the legend", not hits, str(hits[:3]))


def check_heatmap_svg(spec, svg):
    n = spec["name"]
    R, C, H, W = spec["heatmap"]
    cells = [bbox(p["points"]) for p in svg["polygons"] if len(p["points"]) >= 4]
    cells = [c for c in cells if c[2] - c[0] > 0.5]
    check(f"{n}.svg: {R * C * H * W} cells drawn", len(cells) >= R * C * H * W, str(len(cells)))
    sq = [abs((c[2] - c[0]) - (c[3] - c[1])) for c in cells[:R * C * H * W]]
    check(f"{n}.svg: square cells", sq and max(sq) < 0.05 * (cells[0][2] - cells[0][0]) + 0.02, f"max |w - h| = {max(sq) if sq else None}")
    grid_right = max(c[2] for c in cells[:R * C * H * W])
    grid_left = min(c[0] for c in cells[:R * C * H * W])
    grid_bottom = max(c[3] for c in cells[:R * C * H * W])
    nums = [t for t in svg["texts"] if re.fullmatch(r"[-\u2212]?\d+(\.\d+)?", t["text"])]
    ticks = [t for t in nums if t["x"] < grid_right]
    check(f"{n}.svg: tick labels are integers", ticks and all(re.fullmatch(r"\d+", t["text"]) for t in ticks), str([t["text"] for t in ticks]))
    xt = sorted((t["x"], int(t["text"])) for t in ticks if t["y"] > grid_bottom)
    yt = sorted((t["y"], int(t["text"])) for t in ticks if t["x"] < grid_left)
    for axis, tt, limit in (("x", xt, W), ("y", yt, H)):
        vals = sorted({v for _, v in tt})
        steps = {b - a for a, b in zip(vals, vals[1:])}
        check(f"{n}.svg: {axis} ticks at even integer steps within the matrix", vals and vals[0] == 0 and len(steps) <= 1 and vals[-1] < limit, str(vals))
    boxes = [text_box(t) for t in ticks]
    overlaps = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
    check(f"{n}.svg: tick labels do not run together", not overlaps, str(overlaps[:2]))
    cb = [t for t in nums if t["x"] > grid_right]
    vals = [float(t["text"].replace("\u2212", "-")) for t in cb]
    check(f"{n}.svg: one colour bar, right of all panels", len(cb) >= 2 and len(vals) == len(set(vals)), str(vals))
    for title in spec.get("titles", []):
        k = sum(1 for t in svg["texts"] if t["text"] == title)
        check(f"{n}.svg: title {title!r} over each of the {R} rows", k == R, str(k))


def png_size(path):
    with open(path, "rb") as f:
        d = f.read(32)
    return struct.unpack(">II", d[16:24])


def png_pixels(path):
    """RGB rows of a PNG (8-bit RGB or RGBA, non-interlaced, as cairo writes them), with the standard library."""
    import zlib
    data = open(path, "rb").read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            bpp = {2: 3, 6: 4}[ctype]
        elif typ == b"IDAT":
            idat += body
        pos += 12 + ln
    raw = zlib.decompress(idat)
    rows, prev, stride = [], bytearray(w * bpp), w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return rows


with tempfile.TemporaryDirectory() as d:
    # ---- every figure to SVG and PNG ----
    for spec in FIGURES:
        n = spec["name"]
        r = run(spec["attn"] + f"\nsavefig('{n}.svg')\nsavefig('{n}.png')", d)
        ok = r.returncode == 0 and os.path.exists(os.path.join(d, n + ".svg"))
        check(f"{n}: rendered by gnuplot without an error", ok and "gnuplot" not in r.stderr, r.stderr[-400:])
        if not ok:
            continue
        svg = parse_svg(os.path.join(d, n + ".svg"))
        check_svg(spec, svg)
        if "heatmap" in spec:
            check_heatmap_svg(spec, svg)
        png = os.path.join(d, n + ".png")
        w, h = png_size(png)
        fw, fh = spec["figsize"]
        check(f"{n}.png: figsize at 200 px/in", (w, h) == (round(fw * 200), round(fh * 200)), f"{w}x{h}")
        px = png_pixels(png)
        corners = {px[0][0], px[0][-1], px[-1][0], px[-1][-1]}
        check(f"{n}.png: white background", corners == {(255, 255, 255)}, str(corners))
        if n == "rotation":
            circle = [p for p in svg["paths"] if p["stroke"].replace(" ", "") == "rgb(127,127,127)" and len(p["points"]) > 50]
            if circle:
                x0, y0, x1, y1 = bbox(circle[0]["points"])
                check("rotation.svg: the unit circle is round (equal axes)", abs((x1 - x0) - (y1 - y0)) < 0.01 * (x1 - x0), f"{x1 - x0:.1f} x {y1 - y0:.1f}")
                cx, cy, rad = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
                frame = sorted({bbox(p["points"]) for p in svg["paths"] if p["stroke"] == KEY_FRAME and p["closed"]})
                shafts = [p for p in svg["paths"] if p["stroke"].replace(" ", "") == "rgb(214,39,40)" and len(p["points"]) == 2
                          and not (frame and inside(frame[0], p["points"]))]
                heads = [q["points"] for q in svg["polygons"] if q["fill"].replace(" ", "") == "rgb(214,39,40)"]
                omega = 1 / 10000 ** (4 / 32)
                angles = []
                for s in shafts:
                    (ax, ay), (bx, by) = s["points"]
                    # the shaft stops at the head: the arrow ends at the head's vertex farthest from the shaft's start
                    near = [h for h in heads if any(abs(x - bx) < 0.5 and abs(y - by) < 0.5 for x, y in h)]
                    if near:
                        bx, by = max(near[0], key=lambda v: (v[0] - ax) ** 2 + (v[1] - ay) ** 2)
                    a0 = math.atan2((ax - cx) / rad, -(ay - cy) / rad)      # (sin iω, cos iω): angle iω from the top
                    a1 = math.atan2((bx - cx) / rad, -(by - cy) / rad)
                    angles.append((a1 - a0) % (2 * math.pi))
                check("rotation.svg: 5 arrows, each from pair i to pair i+3: turned by δω", len(angles) == 5 and all(abs(a - 3 * omega) < 0.02 for a in angles),
                      f"{[round(a, 3) for a in angles]} want {3 * omega:.3f}")
            else:
                check("rotation.svg: the unit circle drawn", False, "no grey circle path")
            marks = [t for t in svg["texts"] if re.fullmatch(r"\d+", t["text"]) and not t["rotated"]]
            check("rotation.svg: the positions are labelled", len(marks) >= 10, str(len(marks)))

    # ---- text size in pixels: digits of a plain figure are 10 pt tall at 200 px per inch ----
    r = run("d2l.plot([0, 1], [0, 1])\nsavefig('plain.png')", d)
    px = png_pixels(os.path.join(d, "plain.png"))
    dark = [[sum(p) < 300 for p in row] for row in px]
    runs = [max((len(m.group(0)) for m in re.finditer("1+", "".join("1" if v else "0" for v in row))), default=0) for row in dark]
    border = max(y for y in range(len(runs)) if runs[y] >= 0.9 * max(runs))    # the bottom frame line
    below = [y for y in range(border + 1, len(dark)) if any(dark[y])]
    bands, start = [], None
    for y in range(border + 1, len(dark) + 1):
        on = y < len(dark) and any(dark[y][: len(dark[0]) * 9 // 10])
        if on and start is None:
            start = y
        if not on and start is not None:
            bands.append((start, y))
            start = None
    digit_h = max((b - a for a, b in bands if b - a > 5), default=0)     # the tick labels (tick marks are shorter)
    em = 10 * 200 / 72
    check("png: tick-label digits 10 pt tall at 200 px per inch (DejaVu digits are 0.73 em)", abs(digit_h / em - 0.729) < 0.09, f"{digit_h} px = {digit_h / em:.3f} em")

    # ---- measure_layers: axes that span the data; the slopes in its legend are a least-squares fit ----
    r = run("plot_target('script')\nr2 = measure_layers(repeats=2, quiet=True, plot=True)\nprint('SLOPES', r2['slopes'])\n"
            "print('DATA', r2['cnn'] + r2['rnn'] + r2['attention'])", d)
    import numpy as np
    m = re.search(r"SLOPES \{'cnn': ([-\d.e]+), 'rnn': ([-\d.e]+), 'attention': ([-\d.e]+)\}", r.stdout)
    data = re.search(r"DATA \[([^\]]*)\]", r.stdout)
    yr = re.search(r"set yrange \[([-\d.e]+):([-\d.e]+)\]", r.stdout)
    if m and data and yr:
        vals = [float(v) for v in data.group(1).split(",")]
        drawn = list(vals)
        for k in range(3):               # the fitted lines are drawn too, from n = 256 to 2048
            lt, b = np.log(vals[6 * k + 2:6 * k + 6]), float(m.group(k + 1))
            lx = np.log([256, 512, 1024, 2048])
            drawn += [math.exp(lt.mean() + b * (x - lx.mean())) for x in (lx[0], lx[-1])]
        lo, hi = math.log10(min(drawn)), math.log10(max(drawn))
        y0, y1 = math.log10(float(yr.group(1))), math.log10(float(yr.group(2)))
        check("measure_layers: the y axis spans what is drawn with 5% margins", abs((lo - y0) - 0.05 * (hi - lo)) < 0.01 * (hi - lo) and abs((y1 - hi) - 0.05 * (hi - lo)) < 0.01 * (hi - lo),
              f"data {lo:.2f}..{hi:.2f} axis {y0:.2f}..{y1:.2f}")
        ns = np.log([64, 128, 256, 512, 1024, 2048])
        for k, kind in enumerate(["cnn", "rnn", "attention"]):
            t = np.log(vals[6 * k:6 * k + 6])
            want = np.polyfit(ns[2:], t[2:], 1)[0]               # fitted from n = 256 on (the larger half)
            legend = re.search(r"title '%s: slope ([-\d.]+)'" % {"cnn": "conv1d", "rnn": "RNN", "attention": "self-attention"}[kind], r.stdout)
            check(f"measure_layers: {kind} slope = least squares over the larger half (NumPy)", abs(float(m.group(k + 1)) - want) < 1e-6 and legend and abs(float(legend.group(1)) - want) < 0.006,
                  f"attn {m.group(k + 1)} legend {legend.group(1) if legend else None} numpy {want:.4f}")
        # what is drawn, whatever the machine measured (timings are `make bench`'s business, never a test's): three
        # measured series with their slopes in the legend, in the book's order, at the ns and times returned; the
        # three fitted lines n = 256..2048 through the fitted points' geometric mean; log-log axes
        titles = re.findall(r"\$S(\d) using 1:2 [^\n]*?(?:title '([^']*)'|notitle)", r.stdout)
        want_titles = [("1", "conv1d: slope %.2f" % float(m.group(1))), ("2", "RNN: slope %.2f" % float(m.group(2))),
                       ("3", "self-attention: slope %.2f" % float(m.group(3))), ("4", ""), ("5", ""), ("6", "fitted n^slope")]
        check("measure_layers: three measured series and their fits, labelled in order", titles == want_titles, f"{titles}")
        check("measure_layers: log-log axes", "set logscale x 10" in r.stdout and "set logscale y 10" in r.stdout
              and "set xlabel 'sequence length n'" in r.stdout and "set ylabel 'seconds per layer'" in r.stdout, r.stdout[:600])
        blocks = {k: [tuple(map(float, ln.split())) for ln in b.strip().split("\n")]
                  for k, b in re.findall(r"\$S(\d) << EOD_attn\n(.*?)EOD_attn", r.stdout, re.S)}
        for k, kind in enumerate(["cnn", "rnn", "attention"]):
            pts, t = blocks.get(str(k + 1), []), vals[6 * k:6 * k + 6]
            check(f"measure_layers: {kind} drawn at the ns and times returned",
                  [p[0] for p in pts] == [64, 128, 256, 512, 1024, 2048] and all(abs(p[1] - v) <= 1e-8 * v for p, v in zip(pts, t)), f"{pts} {t}")
            lt, b, lx = np.log(t[2:]), float(m.group(k + 1)), np.log([256, 512, 1024, 2048])
            fit = [(x, math.exp(lt.mean() + b * (math.log(x) - lx.mean()))) for x in (256, 2048)]
            got = blocks.get(str(k + 4), [])
            check(f"measure_layers: {kind}'s fitted line n^slope through the fitted points (NumPy)",
                  len(got) == 2 and all(g[0] == w[0] and abs(g[1] - w[1]) <= 1e-7 * w[1] for g, w in zip(got, fit)), f"{got} {fit}")
    else:
        check("measure_layers: ran and plotted", False, r.stdout[-500:] + r.stderr[-500:])
    # the slope the measured one is read against: complexity()'s operation counts at the same ns grow exactly as
    # n²d (self-attention, slope 2) and n d², k n d² (RNN, CNN, slope 1) -- the counts, exact on every machine
    ns_fig, counts = [256, 512, 1024, 2048], []
    r = run("\n".join(f"complexity({n}, 64)" for n in ns_fig), d)
    for block in r.stdout.split("CNN vs RNN vs self-attention")[1:]:
        row = {name: int(v.replace(",", "")) for name, v in re.findall(r"^(CNN|RNN|self-attention) +O\([^)]*\) *= ([\d,]+)", block, re.M)}
        counts.append(row)
    if len(counts) == len(ns_fig) and all(len(c) == 3 for c in counts):
        for name, want in (("self-attention", 2.0), ("RNN", 1.0), ("CNN", 1.0)):
            got = np.polyfit(np.log(ns_fig), np.log([c[name] for c in counts]), 1)[0]
            exact = [c[name] for c in counts] == [{"self-attention": n * n * 64, "RNN": n * 64 * 64, "CNN": 3 * n * 64 * 64}[name] for n in ns_fig]
            check(f"complexity(): {name}'s operation count has log-log slope {want:g} over n = 256..2048", exact and abs(got - want) < 1e-9, f"{got} {counts}")
    else:
        check("complexity(): counts printed for n = 256..2048", False, r.stdout[-500:] + r.stderr[-300:])

    # ---- at an 80×24 terminal ----
    # the rotation figure: three legend entries in two rows above the axes and the y label under them (the second
    # key row was drawn over the y label: "0..19s(0o3162 i)")
    for cols in (60, 80, 100):
        out = run_pty("rotation(3, 2, plot=True)", d, cols=cols, env={"ATTN_PLOT": "terminal", "NO_COLOR": "1"})
        text = "\n".join(Screen(cols).feed(out).lines())
        want = ["unit circle", "(p[i,4], p[i,5]) for i = 0..19", "R: pair i \u2192 pair i+3", "p[i, 5] = cos(0.3162 i)",
                "p[i, 4] = sin(0.3162 i)", "R turns each pair by \u03b4\u03c9 = 0.9487 rad"]
        missing = [w for w in want if w not in text]
        check(f"{cols}x24 terminal: the rotation figure's legend entries, labels and title intact", not missing, f"missing {missing}\n{text}")
    # the rotation's unit circle at 80x24 uses the rows it has: the axes were 23x11 characters under a key of two rows,
    # the 20 position labels running together round a circle 11 rows high (issue 26)
    out = run_pty("R = rotation(3, 2, plot=True, quiet=True)", d, cols=80, env={"ATTN_PLOT": "terminal", "NO_COLOR": "1"})
    lines = Screen(80).feed(out).lines()
    tops = [i for i, l in enumerate(lines) if re.match(r"^\s*\+-{10,}\+", l)]
    box = None
    if len(tops) >= 2:
        a, b = tops[0], tops[1]
        left = lines[a].index("+")
        width = lines[a].index("+", left + 1) - left - 1
        inner = [l[left + 1:left + 1 + width] for l in lines[a + 1:b]]
        labels = sorted(int(m) for row in inner for m in re.findall(r"\d+", row))
        box = (width, len(inner), labels)
    check("80x24 terminal: the rotation's circle fills the rows (axes at least 30x15 characters) with its 20 position "
          "labels apart", box is not None and box[0] >= 30 and box[1] >= 15 and box[2] == list(range(20)),
          f"{box}\n" + "\n".join(lines))
    # every legend above the axes whole, with the y label and title beside it (the stacking figure showed only "to" of
    # its two entries at 80 and 100 columns: the key was drawn on the axes' top border)
    extra = [("stacked legend with a y label", "d2l.plot(torch.arange(10), [torch.ones(10), torch.zeros(10)], ylabel='a y label', "
              "legend=['first long legend entry name', 'second long legend entry name'])", ["first long legend entry name", "second long legend entry name", "a y label"]),
             ("stacked legend with a title", "d2l.plot(torch.arange(10), [torch.ones(10), torch.zeros(10)], title='The Title', "
              "legend=['first long legend entry name', 'second long legend entry name'])", ["first long legend entry name", "second long legend entry name", "The Title"])]
    for name, code, want in [(s["name"], s["attn"], s["legend"]) for s in FIGURES if s.get("legend") and "heatmap" not in s] + extra:
        for cols in (60, 80, 100):
            out = run_pty(code, d, cols=cols, env={"ATTN_PLOT": "terminal", "NO_COLOR": "1"})
            lines = Screen(cols).feed(out).lines()
            missing = [w for w in want if not any(w in ln and "+--" not in ln for ln in lines)]
            check(f"{cols}x24 terminal: {name}: legend entries and labels whole, off the border", not missing, f"missing {missing}\n" + "\n".join(lines))
    pe = FIGURES[0]["attn"]
    hm = FIGURES[1]["attn"]
    heads = FIGURES[2]["attn"]
    for env, mode in (({}, "256"), ({"COLORTERM": "truecolor"}, "truecolor"), ({"NO_COLOR": "1"}, "no colour")):
        out = run_pty(pe, d, env=dict(env, ATTN_PLOT="terminal"))
        s = Screen(80).feed(out)
        lines = s.used_lines()
        check(f"80x24 {mode}: the PE plot fits the window", s.width() <= 80 and not s.overflow and len(lines) <= 22, f"{s.width()} cols, {len(lines)} lines")
        text = "\n".join(s.lines())
        missing = [l for l in FIGURES[0]["legend"] + ["Row (position)"] if l not in text]
        check(f"80x24 {mode}: legend and label text intact", not missing, f"missing {missing}\n{text}")
        colours = {c[1] for _, _, c in s.cells() if (c[0] in "*#$%" or "\u2801" <= c[0] <= "\u28ff") and c[1] is not None}
        if mode == "no colour":
            check("80x24 NO_COLOR: no escape sequences", "\x1b[" not in out.replace("\x1b[16t\x1b[14t\x1b[c", ""), repr(out[:200]))
        else:
            check(f"80x24 {mode}: four series in four colours", len(colours) >= 4, str(colours))
            check(f"80x24 {mode}: colour codes of that kind", ("2" if mode == "truecolor" else "5") in s.kinds, str(s.kinds))
        out = run_pty(hm, d, env=dict(env, ATTN_PLOT="terminal"))
        s = Screen(80).feed(out)
        lines = s.used_lines()
        data = [ln for ln in lines if "\u2580" in ln or re.match(r"^[ \d]{3}[ .:=+*%@-]{64}$", ln)]
        check(f"80x24 {mode}: the 60x32 heatmap of P has one line per position, within the columns", len(data) == 60 and s.width() <= 80 and not s.overflow, f"{len(data)} data lines, {s.width()} cols")
        text = "\n".join(s.lines())
        labels = [l for l in ("Row (position)", "Column (encoding dimension)") if l not in text]
        rowlab = [int(m.group(1)) for m in re.finditer(r"^\s*(\d+) ", text, re.M)]
        check(f"80x24 {mode}: heatmap labels and integer row ticks", not labels and rowlab[:2] == [0, 5], f"missing {labels}, rows {rowlab}")
        if mode == "truecolor" and colormaps is not None:
            # columns 30 and 31 of P hold sin(i/10000^(30/32)) ~ 0 and cos(...) ~ 1 on every row: Blues(0.5), Blues(1)
            row = [c for c in s.rows[2]]
            first = next(k for k, c in enumerate(row) if c[0] == "\u2580")
            def rgb(t):
                return tuple(round(255 * v) for v in colormaps["Blues"](t)[:3])
            got = [row[first + 60][1], row[first + 62][1]]
            want = [rgb(0.5), rgb(1.0)]
            got = [((g >> 16) & 255, (g >> 8) & 255, g & 255) for g in got]
            check("80x24 truecolor: cells in matplotlib's Blues", all(max(abs(a - b) for a, b in zip(g, w)) <= 3 for g, w in zip(got, want)), f"{got} want {want}")
        if mode == "256":
            scale = [c[2] for c in s.rows[len(s.rows) - 2] if c[2] is not None]
            def lightness(c):
                return 0.2126 * ((c >> 16) & 255) + 0.7152 * ((c >> 8) & 255) + 0.0722 * (c & 255)
            L = [lightness(c) for c in scale]
            dark = scale[-1] if scale else 0
            check("80x24 256 colours: the scale keeps Blues' order light to dark", len(L) >= 16 and all(b <= a + 1 for a, b in zip(L, L[1:])), str([round(v) for v in L]))
            check("80x24 256 colours: Blues' dark end is blue", (dark & 255) > ((dark >> 8) & 255) and (dark & 255) > (dark >> 16), f"{dark:06x}")
        out = run_pty(heads, d, env=dict(env, ATTN_PLOT="terminal"))
        s = Screen(80).feed(out)
        text = "\n".join(s.lines())
        check(f"80x24 {mode}: 2x5 attention heads fit the window", len(s.used_lines()) <= 22 and s.width() <= 80 and not s.overflow, f"{len(s.used_lines())} lines, {s.width()} cols\n{text}")
        check(f"80x24 {mode}: each head titled in both rows", all(text.count("Head %d" % h) == 2 for h in range(1, 6)), text)
    # in view at the prompt: the statement as typed (attn> and the statement, wrapped at the terminal's width), the
    # whole figure and the next prompt fit in the terminal's rows (lesson 4's heatmap took 22 of 24 rows, so with its
    # statement's two rows and the prompt its ylabel scrolled away); a tall line plot too
    tall = ("d2l.plot(torch.arange(60), torch.sin(torch.arange(60) / 10.0), xlabel='Row (position)', ylabel='a sine', "
            "figsize=(4, 6), legend=['sin(i/10)'])")
    lesson4 = ("P = d2l.PositionalEncoding(32, 0).P[:, :60, :].unsqueeze(0)\n"
               "d2l.show_heatmaps(P, xlabel='Column (encoding dimension)', ylabel='Row (position)', figsize=(3.5, 4), cmap='Blues')")
    for cols, rows in ((80, 24), (100, 30), (80, 40)):
        # (lesson 4's 60-row heatmap is taller than these terminals on purpose: one line per position, it scrolls)
        for name, code, first in (("the attention heads", heads, "Queries"),
                                  ("a tall line plot", tall, "a sine"), ("the rotation", "R = rotation(3, 2, plot=True, quiet=True)", "R turns")):
            out = run_pty(code, d, cols=cols, rows=rows, env={"ATTN_PLOT": "terminal"})
            s = Screen(cols).feed(out)
            used = s.used_lines()
            typed = -(-len("attn> " + code.split("\n")[-1]) // cols)
            check(f"{cols}x{rows}: {name}, its statement ({typed} rows) and the prompt fit the terminal",
                  used and typed + len(used) + 1 <= rows and first in used[0] and s.width() <= cols,
                  f"{len(used)} lines of figure\n" + "\n".join(s.lines()))
    # x ticks a student can read values from: each label centred where its value lies on the axis drawn (the border's
    # ends are the x range attn sends, read from the script target), and the values the lesson discusses labelled
    # (lesson 2's log-log plot labelled only 1000, not n = 256 and 512; the rotation only 0)
    def x_labels(lines):
        """(left, right, [(value, centre column)]) from the bottom border and the row of labels under it."""
        k = max(i for i, ln in enumerate(lines) if re.match(r"^\s*\+-{8,}\+\s*$", ln))
        left, right = lines[k].index("+"), lines[k].rindex("+")
        return left, right, [(float(m.group(0).replace("\u2212", "-")), (m.start() + m.end() - 1) / 2)
                             for m in re.finditer(r"[-\u2212]?\d+(?:\.\d+)?(?:e[-+]?\d+)?", lines[k + 1])]
    for name, code, want, logs in (
            ("a log x axis from 256 to 1024", "d2l.plot([256, 512, 1024], [[1e-4, 3e-4, 1e-3], [2e-4, 4e-4, 9e-4]], xlabel='n', legend=['a', 'b'], xscale='log', yscale='log')", [256, 512, 1024], True),
            ("the rotation", "R = rotation(3, 2, plot=True, quiet=True)", [-1, 0, 1], False),
            ("a log x axis over four decades", "d2l.plot(torch.arange(1, 10001), torch.arange(1, 10001) ** 0.5, xscale='log', xlabel='n')", [1, 10, 100, 1000, 10000], True)):
        sc = run("plot_target('script')\n" + code, d).stdout
        xr = re.search(r"set xrange \[([-\d.e]+):([-\d.e]+)\]", sc)
        for cols in (80, 100):
            lines = Screen(cols).feed(run_pty(code, d, cols=cols, env={"ATTN_PLOT": "terminal", "NO_COLOR": "1"})).lines()
            try:
                left, right, labels = x_labels(lines)
            except ValueError:
                check(f"{cols}x24: {name}: an x axis drawn", False, "\n".join(lines))
                continue
            a, b = float(xr.group(1)), float(xr.group(2))
            f = (lambda v: (math.log10(v) - math.log10(a)) / (math.log10(b) - math.log10(a))) if logs else (lambda v: (v - a) / (b - a))
            off = [(v, c, left + f(v) * (right - left)) for v, c in labels]
            check(f"{cols}x24: {name}: x labels {want} all there", all(any(v == w for v, _ in labels) for w in want), f"labels {labels}\n" + "\n".join(lines))
            check(f"{cols}x24: {name}: every x label where its value is on the axis (within 1.5 columns)",
                  labels and all(abs(c - e) <= 1.5 for v, c, e in off), f"{off}")
    # where the terminal does not say its height (a pipe): lesson 4's heatmap still one line per position, and whole
    r = run(lesson4, d, env={"ATTN_PLOT": "terminal", "NO_COLOR": "1"})
    n = len(r.stdout.rstrip("\n").split("\n"))
    check("a pipe: lesson 4's heatmap has its 60 rows, labels and scale (64 lines)", n == 64 and "Column (encoding dimension)" in r.stdout, f"{n} lines\n{r.stdout}")
    # sixel: sized from the terminal's cell size; a fallback when it does not say
    for ans, want, what in ((b"\x1b[6;20;10t\x1b[4;480;800t\x1b[?62;4;22c", (800, 333), "10x20 cells"),
                            (b"\x1b[6;32;16t\x1b[4;768;1280t\x1b[?62;4c", (1280, 533), "16x32 cells"),
                            (b"\x1b[?62;4;22c", (800, 333), "no cell size: 10x20 assumed")):
        t0 = time.time()
        out = run_pty(pe, d, env={"ATTN_PLOT": "auto"}, answer=ans)
        s = Screen(80).feed(out)
        check(f"sixel at 80x24, {what}: {want[0]}x{want[1]} pixels", s.sixels == [want], f"{s.sixels} in {time.time() - t0:.1f} s")
    out = run_pty(pe, d, env={"ATTN_PLOT": "auto"}, answer=b"")
    s = Screen(80).feed(out)
    check("a terminal that answers nothing: no sixel, the plot in characters", not s.sixels and "Col 6" in "\n".join(s.lines()), "\n".join(s.lines()))

    # ---- docs/figures.md shows every figure, the book's beside attn's (make figures) ----
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    md = open(os.path.join(repo, "docs", "figures.md")).read() if os.path.exists(os.path.join(repo, "docs", "figures.md")) else ""
    for spec in FIGURES:
        n = spec["name"]
        want = [f"{n}-attn.png", f"{n}-term.png"] + ([] if spec.get("book_has_none") else [f"{n}-book.png"])
        missing = [f for f in want if f"figures/{f}" not in md or not os.path.exists(os.path.join(repo, "docs", "figures", f))]
        size = png_size(os.path.join(repo, "docs", "figures", f"{n}-attn.png")) if not missing else None
        fw, fh = spec["figsize"]
        check(f"docs/figures.md: {n}, the book's and attn's (run make figures)", not missing and size == (round(fw * 200), round(fh * 200)), f"missing {missing}, size {size}")

    # ---- six series: the book's fmts in matplotlib's colours, then matplotlib's next default colours ----
    r = run("d2l.plot(torch.arange(10), [torch.arange(10) * k for k in range(1, 7)], legend=['s%d' % k for k in range(1, 7)])\nsavefig('six.svg')", d)
    if os.path.exists(os.path.join(d, "six.svg")):
        svg = parse_svg(os.path.join(d, "six.svg"))
        got = []
        for g in ["gnuplot_plot_%d" % k for k in range(1, 7)]:
            ps = [p for p in svg["paths"] if p["group"] == g and len(p["points"]) > 2]
            got.append(tuple(numbers(ps[0]["stroke"])) if ps else None)
        if colormaps is not None:
            from matplotlib import colors as mcolors
            cycle = [c["color"] for c in matplotlib.rcParams["axes.prop_cycle"]]
            # matplotlib's rule: a fmt without a colour takes the next colour of the cycle; '-' '-' after the book's four
            want = [mcolors.to_rgb(c) for c in (cycle[0], "m", "g", "r", cycle[1], cycle[2])]
            want = [tuple(round(255 * v) for v in c) for c in want]
        else:
            want = [(31, 119, 180), (191, 0, 191), (0, 128, 0), (255, 0, 0), (255, 127, 14), (44, 160, 44)]
        check("six series: the book's fmts in matplotlib's colours, then its next cycle colours", [tuple(int(v) for v in g) if g else None for g in got] == want, f"{got} want {want}")
    else:
        check("six series drawn", False, r.stderr[-300:])

    # ---- panels wider than the terminal are scaled to it, not wrapped ----
    out = run_pty("d2l.show_heatmaps(torch.rand((1, 10, 20, 20)), xlabel='k', ylabel='q', titles=['head %d' % h for h in range(10)])", d, env={"ATTN_PLOT": "terminal"})
    s = Screen(80).feed(out)
    check("80x24: ten 20x20 panels side by side fit in 80 columns and the rows", s.width() <= 80 and not s.overflow and len(s.used_lines()) <= 22,
          f"{s.width()} cols, {len(s.used_lines())} lines")

    # ---- labels are text: control characters from a lesson never reach the terminal ----
    r = run("d2l.show_heatmaps(torch.ones((1, 1, 2, 2)), xlabel='a\\x1b[2Jb', ylabel='c\\x07d', titles=['t\\x1b]0;x\\x07'])\n"
            "d2l.plot([0, 1], [0, 1], xlabel='e\\x1b[31mf', legend=['g\\x1bh'])", d, {"ATTN_PLOT": "terminal", "NO_COLOR": "1"})
    check("labels with escape characters: none reaches the terminal", r.returncode == 0 and "\x1b" not in r.stdout and "\x07" not in r.stdout
          and "a[2Jb" in r.stdout and "e[31mf" in r.stdout, repr(r.stdout[-300:]) + r.stderr[-200:])

    # ---- minus signs: negative tick labels as matplotlib writes them (U+2212 with its default axes.unicode_minus)
    # where the target shows it (SVG, PNG, a UTF-8 terminal), ASCII '-' where it cannot (a terminal in the C locale) ----
    if colormaps is not None:
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        ax.plot([-1, 1], [-1, 1])
        ax.set_xticks([-1, 0, 1])
        fig.canvas.draw()
        book_minus = ax.get_xticklabels()[0].get_text()[0]
        plt.close(fig)
    else:
        book_minus = "\u2212"
    check("matplotlib's tick label for -1 begins with U+2212 (the book's figures)", book_minus == "\u2212", repr(book_minus))
    rot = "R = rotation(3, 2, plot=True, quiet=True)"
    run(rot + "\nsavefig('minus.svg')", d)
    texts = [t["text"] for t in parse_svg(os.path.join(d, "minus.svg"))["texts"]] if os.path.exists(os.path.join(d, "minus.svg")) else []
    check("rotation.svg: the ticks at -1 read '\u22121' as the book's", texts.count(book_minus + "1") == 2, str(texts))
    check("rotation.svg: no tick label with an ASCII '-'", not any(re.fullmatch(r"-\d.*", t) for t in texts), str(texts))
    for lang, want, other in (("C.UTF-8", "\u22121", "-1"), ("C", "-1", "\u22121")):
        out = run_pty(rot, d, env={"ATTN_PLOT": "terminal", "NO_COLOR": "1", "LANG": lang, "LC_ALL": "", "LC_CTYPE": ""})
        text = out if isinstance(out, str) else out.decode("utf-8", "replace")
        axis = [ln for ln in text.split("\n") if re.search(r"^\s*[-\u2212]1\s+0\s+1\s*$", ln.replace("\r", ""))]
        check(f"80x24 LANG={lang}: the rotation's x ticks read {want!r} 0 1", len(axis) == 1 and want in axis[0] and other not in axis[0],
              text[-900:])
        hm = run_pty("d2l.show_heatmaps(torch.arange(-4.0, 4.0).reshape(1, 1, 2, 4), xlabel='k', ylabel='q')", d,
                     env={"ATTN_PLOT": "terminal", "NO_COLOR": "1", "LANG": lang, "LC_ALL": "", "LC_CTYPE": ""})
        hm = hm if isinstance(hm, str) else hm.decode("utf-8", "replace")
        scale = [ln for ln in hm.split("\n") if "3" in ln and "4" in ln and ("-4" in ln or "\u22124" in ln)]
        check(f"80x24 LANG={lang}: the heatmap's colour scale starts at {want[:-1]}4", len(scale) == 1 and want[:-1] + "4 " in scale[0], hm[-600:])

    # ---- summaries ----
    r = subprocess.run([ATTN, "-c", pe], cwd=d, capture_output=True, text=True, env={k: v for k, v in os.environ.items() if k not in ("ATTN_PLOT", "DISPLAY")})
    check("a pipe: the summary says the ranges and how to see the figure",
          "4 lines of 60 points, x 0..59, y -1..1;" in r.stdout and "savefig(" in r.stdout, r.stdout)
    r = run(pe, d, env={"ATTN_PLOT": "summary"})
    check("plot_target('summary'): what the figure holds, no hint", "<figure 1: 4 lines of 60 points; xlabel" in r.stdout and "savefig(" not in r.stdout, r.stdout)

# ---- the two central figures and the colour ramps at a real 80x24 terminal (tmux, TERM=tmux-256color, no display),
# in 256 colours (tmux's default) and with COLORTERM=truecolor; expectations from the formula of P, computed here ----
try:
    from tmux_screen import Screen as Tmux
    import shutil as _sh
    have_tmux = _sh.which("tmux") is not None
except ImportError:
    have_tmux = False


def lstar(c):
    """CIELAB L* of 0xRRGGBB (sRGB, D65)."""
    lin = []
    for sh in (16, 8, 0):
        v = ((c >> sh) & 255) / 255
        lin.append(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


def tmux_figure(lines, colorterm):
    """The screen and scrollback (with colours) of attn at an 80x24 tmux after typing LINES, as a Screen."""
    env = {"TERM": "tmux-256color", "LANG": "C.UTF-8"}
    if colorterm:
        env["COLORTERM"] = "truecolor"
    t = Tmux(f"{ATTN} -q", env)
    try:
        t.wait_for("attn>")
        t.send("plot_target('terminal')")
        for ln in lines:
            t.send(ln)
        end = time.time() + 60
        while time.time() < end and t.text().count("attn>") < len(lines) + 2:
            time.sleep(0.1)
        raw = t.run("capture-pane", "-e", "-p", "-S", "-", "-t", "t")
    finally:
        t.close()
    return Screen(80).feed(raw)


def pe(i, col, d=32):
    """P[i, col] of the book's positional encoding, from its formula."""
    w = i / 10000 ** ((col // 2 * 2) / d)
    return math.sin(w) if col % 2 == 0 else math.cos(w)


def braille_dots(ch):
    """(dx, dy) of the dots of a braille character."""
    b = ord(ch) - 0x2800
    order = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3))
    return [order[k] for k in range(8) if b >> k & 1]


if have_tmux:
    hm_code = ["P = d2l.PositionalEncoding(32, 0).P[0, :60, :].unsqueeze(0).unsqueeze(0)",
               "d2l.show_heatmaps(P, xlabel='Column (encoding dimension)', ylabel='Row (position)', figsize=(3.5, 4), cmap='Blues')"]
    pc_code = ["pe = d2l.PositionalEncoding(32, 0); P = pe.P[:, :60, :]",
               "d2l.plot(torch.arange(60), P[0, :, 6:10].T, xlabel='Row (position)', figsize=(6, 2.5), legend=[\"Col %d\" % d for d in torch.arange(6, 10)])"]
    for colorterm in (False, True):
        mode = "tmux truecolor" if colorterm else "tmux 256 colours"
        s = tmux_figure(hm_code, colorterm)
        rows = [r for r in s.rows if sum(1 for c in r if c[0] == "\u2580") == 64]
        check(f"{mode}: the PE heatmap has one line per position (60 data rows of 32 cells)", len(rows) == 60, f"{len(rows)} rows\n" + "\n".join(s.lines()))
        if len(rows) == 60:
            # Blues: a larger value is darker. Columns 0 and 1 (sin i, cos i): wherever two adjacent positions differ
            # by more than 0.3, the darker cell is the one the formula makes larger
            wrong = []
            for col in (0, 1):
                for i in range(59):
                    a, b = pe(i, col), pe(i + 1, col)
                    if abs(a - b) < 0.3:
                        continue
                    first = next(k for k, c in enumerate(rows[i]) if c[0] == "\u2580")
                    la, lb = lstar(rows[i][first + 2 * col][1]), lstar(rows[i + 1][first + 2 * col][1])
                    if (a > b) != (la < lb):
                        wrong.append((col, i, round(a, 2), round(b, 2), round(la), round(lb)))
            check(f"{mode}: columns 0-1 alternate light and dark row by row as sin i and cos i say", not wrong, str(wrong[:6]))
        text = "\n".join(s.lines())
        check(f"{mode}: the PE heatmap keeps its axis labels and colour bar", all(w in text for w in ("Row (position)", "Column (encoding dimension)", "(Blues)")), text[-600:])
        # the ramps: a 64-value row in each map, L* monotone along it (light to dark, or dark to light for viridis)
        for cmap, down in (("Blues", True), ("Reds", True), ("Greys", True), ("viridis", False), ("magma", False)):
            s = tmux_figure([f"d2l.show_heatmaps(torch.arange(64.).reshape(1, 1, 1, 64), cmap='{cmap}')"], colorterm)
            cells = [c[1] for r in s.rows for c in r if c[0] == "\u2580"]
            L = [lstar(c) for c in cells]
            mono = all((b <= a + 0.5) if down else (b >= a - 0.5) for a, b in zip(L, L[1:]))
            check(f"{mode}: {cmap}'s ramp is monotone in L* ({len(cells)} cells)", len(cells) >= 32 and mono, str([round(v) for v in L]))
        # the Col 6-9 curves: four panels, four colours, each panel's zero crossings where its column's formula has them
        s = tmux_figure(pc_code, colorterm)
        lines = s.lines()
        axis = next((k for k, ln in enumerate(lines) if "\u2514" in ln), None)
        labels = [k for k, ln in enumerate(lines) if re.search(r"Col [6-9]\s*$", ln)]
        check(f"{mode}: the Col 6-9 curves in four panels, labelled in order, above one x axis",
              axis is not None and len(labels) == 4 and [lines[k].split()[-1] for k in labels] == ["6", "7", "8", "9"], "\n".join(lines))
        if axis is not None and len(labels) == 4:
            ph = (labels[1] - labels[0])
            top = axis - 4 * ph
            # x: the tick under label v is at the character column of '┬'; labels under them
            ticks = [x for x, c in enumerate(s.rows[axis]) if c[0] == "\u252c"]
            vals = [(int(m.group()), (m.start() + m.end() - 1) / 2) for m in re.finditer(r"\d+", lines[axis + 1])]
            (v0, c0), (v1, c1) = vals[0], vals[-1]
            colours, got, want = [], [], []
            for p in range(4):
                dots = {}
                grey = set()
                for r in range(ph):
                    for x, c in enumerate(s.rows[top + p * ph + r]):
                        if "\u2801" <= c[0] <= "\u28ff":
                            for dx, dy in braille_dots(c[0]):
                                dots.setdefault(c[1], []).append((2 * x + dx, 4 * r + dy))
                # the zero line: the colour whose dots all lie on one row; the curve: the other colour
                zero_c = [k for k, v in dots.items() if len({y for _, y in v}) == 1 and len(v) > 20]
                curve_c = [k for k in dots if k not in zero_c]
                if len(zero_c) != 1 or len(curve_c) != 1:
                    got.append(None)
                    continue
                colours.append(curve_c[0])
                y0 = dots[zero_c[0]][0][1]
                cols = {}
                for x, y in dots[curve_c[0]]:
                    cols.setdefault(x, []).append(y)
                signs = [(x, 1 if max(ys) < y0 else -1 if min(ys) > y0 else 0) for x, ys in sorted(cols.items())]
                cross, prev = [], None
                for x, sg in signs:
                    if sg and prev and sg != prev[1]:
                        pos = v0 + ((prev[0] + x) / 4 - c0) * (v1 - v0) / (c1 - c0)     # dot columns to positions
                        cross.append(round(pos, 1))
                    if sg:
                        prev = (x, sg)
                got.append(cross)
                f = [pe(i, 6 + p) for i in range(60)]
                want.append([i + 0.5 for i in range(59) if (f[i] > 0) != (f[i + 1] > 0) and abs(f[i]) > 1e-9])
            ok = all(g is not None and len(g) == len(w) and all(abs(a - b) <= 2 for a, b in zip(g, w)) for g, w in zip(got, want))
            check(f"{mode}: each panel's curve crosses zero where its column's formula does (within 2 positions)", ok, f"got {got}\nwant {want}")
            check(f"{mode}: the four curves in four colours", len(set(colours)) == 4, str(colours))
            check(f"{mode}: the curves fit 80x24 (the figure in 20 lines, 79 columns)", axis + 3 - top <= 20 and max(len(ln) for ln in lines[top:axis + 3]) <= 79,
                  f"{axis + 3 - top} lines, {max(len(ln) for ln in lines[top:axis + 3])} columns")
else:
    print("(skipped: the tmux figure checks need tmux)")

finish()

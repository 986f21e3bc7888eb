#!/usr/bin/python3
"""Figures in a gnuplot window (wxt or qt) as a teacher sees them, on an Xvfb display of the test's own, read back
from a screenshot (xwd) and measured against matplotlib:
  dashes: the book's fmts '-', 'm--', 'g-.', 'r:' drawn as horizontal lines: every dash and gap as long as
       matplotlib draws it (rcParams lines.*_pattern in line widths of 1.5 pt, at the window's 144 pixels per inch);
       in lesson 3's figure the legend's samples show the same patterns ('-.' was one long dash, looking solid).
  ATTN_FIGURE_SCALE=1.5: the window 1.5 times figsize x 144 pixels wide (as the X server reports it), its dashes
       1.5 times as long; a value that is not a number from 0.5 to 4 is said and ignored.
  a d2l.ProgressBoard while d2l.Trainer trains: one window, redrawn (not a window per point), said once after the
       statement, showing its last state: the train_loss curve in C0 and val_loss in C1 over the whole x axis.
Skipped, and said so, without Xvfb, xwd or a gnuplot with wxt or qt. 'N passed, N failed'.
usage: plot_window.py ATTN_BINARY"""
import os, re, shutil, signal, struct, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, check, finish  # noqa: E402

try:
    import matplotlib
    RC = matplotlib.rcParams
    PATTERNS = {"--": list(RC["lines.dashed_pattern"]), "-.": list(RC["lines.dashdot_pattern"]), ":": list(RC["lines.dotted_pattern"])}
    LINE_PT = float(RC["lines.linewidth"])
    SCALE_DASHES = bool(RC["lines.scale_dashes"])
except ImportError:                     # matplotlib 3's defaults, if it is missing
    PATTERNS, LINE_PT, SCALE_DASHES = {"--": [3.7, 1.6], "-.": [6.4, 1.6, 1.0, 1.6], ":": [1.0, 1.65]}, 1.5, True
PPI = 144                               # a window's pixels per inch of figsize
# the book's fmts in matplotlib's colours: C0 for '-', then 'm', 'g', 'r'
FMTS = [("-", (31, 119, 180)), ("--", (191, 0, 191)), ("-.", (0, 128, 0)), (":", (255, 0, 0))]
MARK = "ATTN_WINDOW_TEST_%d" % os.getpid()     # every process this test starts carries it in its environment


def window_terminal():
    out = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True).stderr + ""
    return next((t for t in ("wxt", "qt") if re.search(r"^\s+%s\s" % t, out, re.M)), None)


def read_xwd(data):
    """(width, height, pixel(x, y) -> (r, g, b)) of an xwd dump of a TrueColor screen (24 or 32 bits per pixel)."""
    h = struct.unpack(">25I", data[:100])
    size, ncolours, bpp, bpl, width, height = h[0], h[19], h[11] // 8, h[12], h[4], h[5]
    body = data[size + ncolours * 12:]
    lsb = h[7] == 0

    def px(x, y):
        o = y * bpl + x * bpp
        b = body[o:o + bpp]
        v = int.from_bytes(b, "little" if lsb else "big")
        return ((v & h[14]) >> 16, (v & h[15]) >> 8, v & h[16])
    return width, height, px


def coverage(p, rgb):
    """How much of colour rgb over white pixel p holds (0..1), or 0 when p is not a blend of the two."""
    a = [(255 - v) / (255 - c) for v, c in zip(p, rgb) if c < 200]
    if not a or any(abs((255 - (255 - c) * a[0]) - v) > 40 for v, c in zip(p, rgb)):
        return 0.0
    return max(0.0, min(1.0, sum(a) / len(a)))


def runs(values):
    """[(on, length)] of consecutive equal booleans."""
    out = []
    for v in values:
        if out and out[-1][0] == v:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return [tuple(r) for r in out]


class Display:
    def __init__(self):
        self.dir = tempfile.mkdtemp()
        fd = os.open(os.path.join(self.dir, "display"), os.O_WRONLY | os.O_CREAT)
        self.x = subprocess.Popen(["Xvfb", "-displayfd", str(fd), "-screen", "0", "1800x1100x24"], pass_fds=(fd,),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(fd)
        for _ in range(100):
            s = open(os.path.join(self.dir, "display")).read().strip()
            if s:
                break
            time.sleep(0.1)
        self.name = ":" + s if s else None

    def stop_windows(self):
        """Ends the processes this test started (gnuplot and the window each left open): they carry MARK."""
        for p in os.listdir("/proc"):
            if p.isdigit():
                try:
                    env = open("/proc/%s/environ" % p, "rb").read().split(b"\0")
                except OSError:
                    continue
                if (MARK + "=1").encode() in env:
                    try:
                        os.kill(int(p), signal.SIGTERM)
                    except OSError:
                        pass
        time.sleep(0.3)

    def close(self):
        self.stop_windows()
        self.x.terminate()
        self.x.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def figure(self, code, env=None):
        """Runs code with ATTN_PLOT=window; returns (attn's result, screenshot, gnuplot windows' (w, h) per xwininfo)."""
        e = dict(os.environ, DISPLAY=self.name, ATTN_PLOT="window", **{MARK: "1"})
        e.pop("ATTN_FIGURE_SCALE", None)
        e.update(env or {})
        r = subprocess.run([ATTN, "-c", code], env=e, capture_output=True, text=True, timeout=120)
        wins = []
        for _ in range(30):
            time.sleep(0.2)
            tree = subprocess.run(["xwininfo", "-root", "-tree", "-display", self.name], capture_output=True, text=True).stdout
            wins = [(int(w), int(h)) for w, h in re.findall(r'"Gnuplot \(window id : \d+\)".*?\s(\d+)x(\d+)\+', tree)]
            if wins:
                break
        time.sleep(1.0)                       # the window draws itself
        shot = subprocess.run(["xwd", "-root", "-silent", "-display", self.name], capture_output=True).stdout
        self.stop_windows()
        return r, read_xwd(shot), wins


def line_rows(shot, rgb, x0=0, x1=None):
    """Rows y in which colour rgb covers the most pixels between x0 and x1, best first."""
    w, h, px = shot
    x1 = x1 or w
    counts = [(sum(coverage(px(x, y), rgb) > 0.5 for x in range(x0, x1, 2)), y) for y in range(h)]
    return [y for n, y in sorted(counts, reverse=True) if n > 0]


def want_pattern(fmt, scale=1.0):
    """matplotlib's dash pattern for fmt in window pixels: rcParams in line widths (scale_dashes) of LINE_PT."""
    k = LINE_PT if SCALE_DASHES else 1
    return [v * k * PPI * scale / 72 for v in PATTERNS[fmt]]


def measured_pattern(shot, rgb, y):
    """The on/off runs along row y of a horizontal line of colour rgb, between its first and last pixel, without the
    first and last run (cut by the axes)."""
    w, h, px = shot
    on = [coverage(px(x, y), rgb) > 0.5 for x in range(w)]
    xs = [x for x, v in enumerate(on) if v]
    return runs(on[xs[0]:xs[-1] + 1])[1:-1] if xs else []


def compare(rs, want):
    """Do the runs rs repeat the pattern want (on, off, on, off ...), each within 1.5 pixels or 12%?"""
    if len(rs) < 2 * len(want):
        return False
    # align: the first 'on' run that matches the pattern's first dash (a '-.' starts with its long dash)
    for start in range(len(want) + 1):
        seq = rs[start:]
        if not seq or not seq[0][0]:
            continue
        if all(abs(n - want[i % len(want)]) <= max(1.5, 0.12 * want[i % len(want)]) for i, (_, n) in enumerate(seq)):
            return True
    return False


term = window_terminal()
if not (shutil.which("Xvfb") and shutil.which("xwd") and shutil.which("xwininfo") and term):
    print("skipped: needs Xvfb, xwd, xwininfo and a gnuplot with wxt or qt (scripts/install-deps installs them)")
    print("0 passed, 0 failed")
    sys.exit(0)

D = Display()
try:
    if not D.name:
        check("Xvfb started", False, "no display number")
        raise SystemExit
    # ---- the book's four fmts as horizontal lines: dashes as matplotlib draws them ----
    code = ("d2l.plot(torch.arange(60), [torch.zeros(60) + k for k in range(4)], figsize=(6, 2.5), "
            "legend=['a', 'b', 'c', 'd'], ylim=[-1, 4])")
    r, shot, wins = D.figure(code)
    check(f"{term}: the figure is drawn in a window", "in the gnuplot window" in r.stdout and wins, r.stdout + r.stderr)
    for fmt, rgb in FMTS:
        rows = line_rows(shot, rgb)
        rs = measured_pattern(shot, rgb, rows[0]) if rows else []
        if fmt == "-":
            check(f"{term}: '-' is solid", len(rs) == 0 and rows, f"runs {rs[:8]}")
            continue
        want = want_pattern(fmt)
        check(f"{term}: '{fmt}' dashes as matplotlib's ({', '.join('%.1f' % v for v in want)} px at 144 px/in)",
              compare(rs, want), f"runs {rs[:10]}")
    # ---- lesson 3's figure: the legend's samples show their patterns ----
    code = ("pe = d2l.PositionalEncoding(32, 0); P = pe.P[:, :60, :]\n"
            "d2l.plot(torch.arange(60), P[0, :, 6:10].T, xlabel='Row (position)', figsize=(6, 2.5), "
            "legend=['Col %d' % d for d in torch.arange(6, 10)])")
    r, shot, wins = D.figure(code)
    w = wins[0][0] if wins else 864
    for (fmt, rgb), name in zip(FMTS, ["Col 6", "Col 7", "Col 8", "Col 9"]):
        rows = line_rows(shot, rgb, int(0.8 * w), w)         # the legend is right of the axes
        _, _, px = shot
        best = None
        for y in rows[:3]:
            on = [coverage(px(x, y), rgb) > 0.5 for x in range(int(0.8 * w), w)]
            dashes = [n for v, n in runs(on) if v and n > 1]   # a lone pixel is a letter's edge
            if best is None or sum(dashes) > sum(best):
                best = dashes
        best = best or []
        want = 1 if fmt == "-" else 2
        check(f"{term}: the legend's sample of {name} ('{fmt}') shows {'one line' if want == 1 else 'its dashes'}",
              (len(best) == 1) if want == 1 else len(best) >= 2, f"dashes {best}")
    # ---- ATTN_FIGURE_SCALE ----
    code = "d2l.plot(torch.arange(60), [torch.zeros(60) + k for k in range(4)], figsize=(6, 2.5), ylim=[-1, 4])"
    r1, shot1, wins1 = D.figure(code)
    r2, shot2, wins2 = D.figure(code, {"ATTN_FIGURE_SCALE": "1.5"})
    check("ATTN_FIGURE_SCALE=1.5: the window 1.5 x 864 pixels wide, 1.5 x 360 more for the plot (xwininfo)",
          wins1 and wins2 and wins1[0][0] == 864 and wins2[0][0] == 1296 and wins2[0][1] - wins1[0][1] == 540 - 360, f"{wins1} {wins2}")
    rows = line_rows(shot2, FMTS[1][1])
    rs = measured_pattern(shot2, FMTS[1][1], rows[0]) if rows else []
    check("ATTN_FIGURE_SCALE=1.5: '--' dashes 1.5 times as long", compare(rs, want_pattern("--", 1.5)), f"runs {rs[:8]}")
    r3, shot3, wins3 = D.figure(code, {"ATTN_FIGURE_SCALE": "12"})
    check("ATTN_FIGURE_SCALE=12: said on stderr, the window at scale 1",
          "ATTN_FIGURE_SCALE=12 is not a number from 0.5 to 4" in r3.stderr and wins3 and wins3[0][0] == 864, r3.stderr + str(wins3))
    # ---- a board as a model trains: one window, redrawn, its last state ----
    code = ("class Data(d2l.DataModule):\n"
            "    def __init__(self, n=20400, batch_size=10):\n"
            "        super().__init__()\n"
            "        self.save_hyperparameters()\n"
            "        self.X = (torch.arange(2 * n).reshape(n, 2) % 7 - 3) / 4\n"
            "        self.y = self.X @ torch.tensor([[2.], [-3.4]]) + 4.2\n"
            "    def get_dataloader(self, train):\n"
            "        i = slice(0, 20000) if train else slice(20000, None)\n"
            "        return self.get_tensorloader((self.X, self.y), False, i)\n"
            "class Reg(d2l.Module):\n"
            "    def __init__(self, lr):\n"
            "        super().__init__()\n"
            "        self.save_hyperparameters()\n"
            "        self.w = torch.zeros(2, 1, requires_grad=True)\n"
            "        self.b = torch.zeros(1, requires_grad=True)\n"
            "    def forward(self, X):\n"
            "        return X @ self.w + self.b\n"
            "    def loss(self, y_hat, y):\n"
            "        return ((y_hat - y) ** 2 / 2).mean()\n"
            "    def configure_optimizers(self):\n"
            "        return torch.optim.SGD([self.w, self.b], lr=self.lr)\n"
            "m = Reg(0.003)\n"
            "d2l.Trainer(max_epochs=10).fit(m, Data())\n")
    r, shot, wins = D.figure(code)
    check(f"{term}: a training board: one window, said once", r.returncode == 0 and len(wins) == 1 and
          r.stdout.count("in the gnuplot window") == 1 and "legend 'train_loss', 'val_loss'" in r.stdout, r.stdout + r.stderr + str(wins))
    w = wins[0][0] if wins else 504
    for name, rgb in (("train_loss", (31, 119, 180)), ("val_loss", (255, 127, 14))):
        _, _, px = shot
        xs = [x for x in range(w) for y in range(0, 400, 2) if coverage(px(x, y), rgb) > 0.6]
        span = (max(xs) - min(xs)) / w if xs else 0
        check(f"{term}: the board's {name} drawn across the axes in its last state", span > 0.6, f"{span:.2f} of the width")
    e = dict(os.environ, ATTN_FIGURE_SCALE="1.5", ATTN_PLOT="none")
    h = subprocess.run([ATTN, "-c", "help plot"], env=e, capture_output=True, text=True).stdout
    check("help plot names ATTN_FIGURE_SCALE", "ATTN_FIGURE_SCALE" in h, h)
finally:
    D.close()
finish()

#!/usr/bin/python3
"""Plotting against the real gnuplot: every kind of figure rendered to svg, png, pdf and the dumb terminal without
a gnuplot error; labels that try to run commands drawn as text; a killed gnuplot replaced at the next plot; a
missing gnuplot reported once with the install command while everything else works. 'N passed, N failed'.
usage: plot_faults.py ATTN_BINARY"""
import math, os, re, shutil, signal, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, check, finish  # noqa: E402


def run(code, cwd, env_extra=None, timeout=120):
    env = dict(os.environ, **(env_extra or {}))
    env.pop("DISPLAY", None)
    return subprocess.run([ATTN, "--keep-going", "-c", code], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


FIGURES = {
    "pe_columns": """pe = d2l.PositionalEncoding(32, 0); P = pe.P[:, :60, :]
d2l.plot(torch.arange(60), P[0, :, 6:10].T, xlabel='Row (position)', figsize=(6, 2.5), legend=["Col %d" % d for d in torch.arange(6, 10)])""",
    "pe_heatmap": """P = d2l.PositionalEncoding(32, 0).P[0, :60, :].unsqueeze(0).unsqueeze(0)
d2l.show_heatmaps(P, xlabel='Column (encoding dimension)', ylabel='Row (position)', figsize=(3.5, 4), cmap='Blues')""",
    "attention_heads": """a = d2l.MultiHeadAttention(16, 4, 0); _ = a.eval(); X = torch.randn((2, 5, 16)); y = a(X, X, X, torch.tensor([3, 5]))
d2l.show_heatmaps(a.attention.attention_weights.reshape(2, 4, 5, 5), xlabel='Keys', ylabel='Queries', titles=['Head %d' % i for i in range(1, 5)])""",
    "low_frequency_sine": "x = torch.linspace(0, 100, 1000); d2l.plot(x, torch.sin(0.01 * x), xlabel='x', ylabel='sin(0.01 x)', title='Very Low Frequency Sin Wave')",
    "rotation_circle": "R = rotation(3, 2, quiet=True, plot=True)",
    "measured_layers": "r = measure_layers(ns=[32, 64, 128], d=16, repeats=1, quiet=True, plot=True)",
    "stacking": "r = stack_attention(layers=4, quiet=True, plot=True)",
    "log_axes_many_series": "d2l.plot(torch.arange(1, 11), [torch.arange(1, 11) ** k for k in range(1, 7)], xscale='log', yscale='log', legend=['k=%d' % k for k in range(1, 7)])",
}

with tempfile.TemporaryDirectory() as d:
    for name, code in FIGURES.items():
        for ext in ["svg", "png", "pdf"]:
            r = run(code + f"\nsavefig('{name}.{ext}')", d, {"ATTN_PLOT": "summary"})
            path = os.path.join(d, f"{name}.{ext}")
            size = os.path.getsize(path) if os.path.exists(path) else 0
            check(f"{name} -> .{ext}", r.returncode == 0 and size > 1000 and "gnuplot" not in r.stderr, f"rc={r.returncode} size={size} {r.stderr[-300:]}")
        r = run(code, d, {"ATTN_PLOT": "terminal", "COLUMNS": "80"})
        # gnuplot's dumb frame, attn's heatmap scale, or attn's panels of crossing curves (braille dots on a tick axis)
        drawn = "+---" in r.stdout.replace("-+-", "+--") or re.search(r" \((Blues|Reds)\)\n", r.stdout) or \
            ("┤" in r.stdout and re.search("[\u2801-\u28ff]", r.stdout))
        check(f"{name} -> dumb terminal", r.returncode == 0 and r.stdout.count("\n") > 5 and drawn and "gnuplot" not in r.stderr, f"rc={r.returncode} {r.stderr[-300:]} {r.stdout[:200]}")
        r = run(code, d, {"ATTN_PLOT": "terminal", "NO_COLOR": "1"})
        check(f"{name} -> dumb terminal without colour", r.returncode == 0 and "\x1b[" not in r.stdout, r.stderr[-300:])
    # every figure the lessons make, rendered by the real gnuplot: to .svg files and to the dumb terminal
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    lesson_dir = os.path.join(repo, "lessons")
    for name in sorted(f for f in os.listdir(lesson_dir) if f[0].isdigit()):
        text = open(os.path.join(lesson_dir, name)).read().split("\n")
        stmts, figures, in_attn, in_q = [], 0, False, False
        for l in text:
            if l.startswith("```"):
                tag = l[3:].strip()
                if in_attn or in_q:
                    in_attn = in_q = False
                else:
                    in_attn, in_q = tag.startswith("attn"), tag.startswith("question")
                continue
            if in_attn and l.startswith("attn> "):
                stmts.append(l[6:])
            elif in_attn and l.startswith("  ...>"):
                stmts[-1] += "\n" + l[7:]
            elif in_attn and l.startswith("<figure"):
                figures += 1
            elif in_q and l.startswith("answer:") and not any(s.startswith("#answer") for s in stmts[-1:]):
                stmts.append(l[7:].strip())
                in_q = False
        script = os.path.join(d, name + ".py")
        open(script, "w").write("\n".join(s if "\n" not in s else s + "\n" for s in stmts) + "\n")
        figdir = os.path.join(d, name + "-figs")
        os.mkdir(figdir)
        env = dict(os.environ, ATTN_PLOT="files", ATTN_PLOT_DIR=figdir)
        env.pop("DISPLAY", None)
        r = subprocess.run([ATTN, script], capture_output=True, text=True, cwd=d, env=env, timeout=300)
        made = sorted(os.listdir(figdir))
        sizes = [os.path.getsize(os.path.join(figdir, f)) for f in made]
        check(f"{name}: its {figures} figures rendered to .svg by gnuplot", len(made) == figures and all(x > 1000 for x in sizes) and "gnuplot" not in r.stderr,
              f"made {made} sizes {sizes} stderr {r.stderr[-400:]}")
        env["ATTN_PLOT"] = "terminal"
        r = subprocess.run([ATTN, script], capture_output=True, text=True, cwd=d, env=env, timeout=300)
        check(f"{name}: its figures drawn in the terminal without a gnuplot error", "gnuplot" not in r.stderr and (figures == 0 or len(r.stdout) > 200),
              r.stderr[-400:])

    # nothing leaks into the work directory but the requested files
    left = sorted(f for f in os.listdir(d) if ".tmp" in f)
    check("no temporary files left behind", not left, str(left))

    # injection: labels that try to run commands are drawn as text
    evil = ["a'; system(\"touch pwned1\"); b='", "`touch pwned2`", "x\n!touch pwned3", "@pwned4", "a\\' . system('touch pwned5') . '"]
    code = "\n".join(f"d2l.plot([0, 1], [0, 1], xlabel={e!r}, ylabel={e!r}, legend=[{e!r}], title={e!r})\nsavefig('inj{i}.svg')" for i, e in enumerate(evil))
    code += f"\nd2l.show_heatmaps(torch.ones((1, 1, 2, 2)), xlabel={evil[0]!r}, titles=[{evil[1]!r}])\nsavefig('injh.svg')"
    r = run(code, d, {"ATTN_PLOT": "terminal"})
    pwned = [f for f in os.listdir(d) if f.startswith("pwned")]
    check("labels cannot run commands", not pwned and r.returncode == 0, f"{pwned} rc={r.returncode} {r.stderr[-400:]}")
    svg = open(os.path.join(d, "inj1.svg")).read()
    check("a label with backticks is drawn as text", "`touch pwned2`" in svg)
    for bad in ["|touch pwned6.svg", "<x.svg", "../x.svg", "x.gp", "a b.svg", "-x.svg", "x;touch pwned7.svg"]:
        r = run(f"d2l.plot([0, 1], [0, 1])\nsavefig({bad!r})", d, {"ATTN_PLOT": "none"})
        check(f"savefig refuses {bad!r}", r.returncode == 1 and "savefig" in r.stderr and not os.path.exists(os.path.join(d, "pwned6.svg")), r.stderr)

    # a Japanese or Chinese class names its figures in its own script: letters of any script are letters
    for good in ["図1.png", "位置编码.svg", "é.pdf", "लेख.png", "cafe\u0301.svg"]:
        r = run(f"d2l.plot([0, 1], [0, 1])\nsavefig({good!r})", d, {"ATTN_PLOT": "none"})
        path = os.path.join(d, good)
        head = open(path, "rb").read(8) if os.path.exists(path) else b""
        check(f"savefig writes {good!r}", r.returncode == 0 and (head.startswith(b"\x89PNG") or head.startswith(b"%PDF")
                                                                   or head.startswith(b"<?xml")), (r.stderr, head))
    r = run("d2l.plot([0, 1], [0, 1])\nsavefig('a「b.png')", d, {"ATTN_PLOT": "none"})
    check("savefig refuses a punctuation mark of another script, naming it", "(not '「')" in r.stderr, r.stderr)

    # gnuplot's own error is shown next to the statement that caused it, and the session goes on; its warnings are
    # passed on without failing the statement. attn's input no longer makes the real gnuplot fail, so a stand-in
    # answers like gnuplot 5.4 does on a pipe: an error as the echoed command, a caret and "line N: message"
    fake = os.path.join(d, "fakegp")
    os.mkdir(fake)
    with open(os.path.join(fake, "gnuplot"), "w") as g:
        g.write("""#!/usr/bin/python3
import sys
warn = False
for line in sys.stdin:
    if line.startswith('print GPVAL_TERMINALS'):
        sys.stderr.write('dumb svg pngcairo pdfcairo\\n')
    elif line.startswith('print "'):
        sys.stderr.write(line[7:line.rindex('"')] + '\\n')
    elif line.startswith('set xlabel'):
        warn = 'warn' in line
    elif line.startswith('plot ') and not warn:
        sys.stderr.write('\\ngnuplot> ' + line + '                         ^\\n         line 0: invalid expression \\n\\n')
    elif line.startswith('plot '):
        sys.stderr.write('         line 0: warning: something undefined here\\n')
    sys.stderr.flush()
""")
    os.chmod(os.path.join(fake, "gnuplot"), 0o755)
    r = run("x = 1\nd2l.plot([0, 1], [0, 0])\nprint('still here', x)\nd2l.plot([0, 9], xlabel='warn')\nprint('and here')", d,
            {"ATTN_PLOT": "terminal", "PATH": fake + ":" + os.environ["PATH"]})
    check("gnuplot's error shown with the statement", "error: gnuplot: gnuplot> plot" in r.stderr and "invalid expression" in r.stderr
          and "d2l.plot([0, 1], [0, 0])" in r.stderr, r.stderr)
    check("after gnuplot's error the session goes on", "still here 1" in r.stdout and r.returncode == 1, f"rc={r.returncode} {r.stdout[-200:]}")
    check("a gnuplot warning (even one saying 'undefined') is passed on, not an error",
          "gnuplot:          line 0: warning: something undefined here" in r.stdout and "and here" in r.stdout
          and r.stderr.count("error:") == 1, f"{r.stdout!r} {r.stderr!r}")

    # a killed gnuplot: the REPL lives on, says so, and the next plot works with a fresh gnuplot
    p = subprocess.Popen([ATTN, "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=d,
                         env=dict(os.environ, ATTN_PLOT="files", ATTN_PLOT_DIR=d))
    p.stdin.write("d2l.plot([0, 1], [0, 1])\n")
    p.stdin.flush()
    time.sleep(1.5)
    kids = subprocess.run(["pgrep", "-P", str(p.pid), "gnuplot"], capture_output=True, text=True).stdout.split()
    check("one gnuplot runs for the session", len(kids) == 1, str(kids))
    for k in kids:
        os.kill(int(k), signal.SIGKILL)
    time.sleep(0.5)
    p.stdin.write("d2l.plot([0, 1], [1, 0])\nx = 41 + 1\nprint(x)\nd2l.plot([0, 1], [1, 1])\n")
    out, err = p.communicate(timeout=60)
    check("killed gnuplot: the REPL goes on", "42" in out and p.returncode == 0, f"rc={p.returncode} out={out!r} err={err!r}")
    check("killed gnuplot: a fresh one draws the next plots", os.path.exists(os.path.join(d, "figure-2.svg")) and os.path.exists(os.path.join(d, "figure-3.svg")), str(os.listdir(d)))
    check("killed gnuplot: the user is told", "fresh one" in out + err, out + err)

    # gnuplot missing: one clear message, everything else works
    fake = os.path.join(d, "bin")
    os.mkdir(fake)
    r = subprocess.run([ATTN, "--keep-going", "-c", "d2l.plot([0, 1], [0, 1])\nprint(torch.ones(2).sum().item())"], capture_output=True, text=True, cwd=d,
                       env=dict(os.environ, PATH=fake, ATTN_PLOT="terminal"))
    check("no gnuplot: a clear message with the install command", "apt-get install gnuplot" in r.stderr, r.stderr)
    check("no gnuplot: the rest works", "2.0" in r.stdout, r.stdout)

# Edge cases found in review (each hung, crashed gnuplot, failed with gnuplot's words, or wrote a broken file before),
# checked against matplotlib (the book's d2l.plot and show_heatmaps draw with it): its axis limits and colour maps.
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import warnings  # noqa: E402
import xml.dom.minidom  # noqa: E402
from PIL import Image  # noqa: E402
from termscreen import run_pty  # noqa: E402


def mpl_limits(draw):
    fig, ax = plt.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        draw(ax)
        fig.canvas.draw()
    lims = ax.get_xlim(), ax.get_ylim()
    plt.close(fig)
    return lims


def script_ranges(code, d):
    r = run("plot_target('script')\n" + code, d)
    xr = re.findall(r"set xrange \[([^:]+):([^\]]+)\]", r.stdout)
    yr = re.findall(r"set yrange \[([^:]+):([^\]]+)\]", r.stdout)
    return r, [tuple(map(float, xr[0])) if xr else None, tuple(map(float, yr[0])) if yr else None]


def near(a, b, rel=1e-6):
    return a is not None and all(abs(x - y) <= rel * max(1, abs(y)) for x, y in zip(a, b))


def reds(t):
    return tuple(round(255 * c) for c in matplotlib.colormaps["Reds"](t)[:3])


def colour_runs(row):
    """The colours of the runs of equal pixels along a row, leaving out white, black, greys and runs of 1 or 2 pixels."""
    runs, prev, n = [], None, 0
    for p in row + [None]:
        if p == prev:
            n += 1
            continue
        if prev is not None and n > 2 and max(prev) - min(prev) > 3:
            runs.append(prev)
        prev, n = p, 1
    return runs


def svg_text(path):
    """The texts of an svg file, None when it is not well-formed XML."""
    try:
        return [t.firstChild.data for t in xml.dom.minidom.parse(path).getElementsByTagName("text") if t.firstChild]
    except Exception:
        return None


def similar(a, b, tol=6):
    return max(abs(x - y) for x, y in zip(a, b)) <= tol


with tempfile.TemporaryDirectory() as d:
    # axis limits where there is nothing to range over, or only one value, or a log axis with nothing positive
    cases = [("d2l.plot([])", lambda ax: ax.plot([], [])),
             ("d2l.plot([float('nan')] * 3)", lambda ax: ax.plot([float("nan")] * 3)),
             ("d2l.plot([5, 5, 5])", lambda ax: ax.plot([5, 5, 5])),
             ("d2l.plot([1, 2], xlim=(1, 1))", lambda ax: (ax.plot([1, 2]), ax.set_xlim(1, 1))),
             ("d2l.plot([1, 2], xlim=(0, 0))", lambda ax: (ax.plot([1, 2]), ax.set_xlim(0, 0))),
             ("d2l.plot([-1, -2], yscale='log')", lambda ax: (ax.plot([-1, -2]), ax.set_yscale("log"))),
             ("d2l.plot([1, 2], yscale='log', ylim=(0, 0))", lambda ax: (ax.plot([1, 2]), ax.set_yscale("log"), ax.set_ylim(0, 0)))]
    for code, draw in cases:
        r, (xr, yr) = script_ranges(code, d)
        want = mpl_limits(draw)
        check(f"{code}: matplotlib's axis limits {want}", r.returncode == 0 and near(xr, want[0], 1e-4) and near(yr, want[1], 1e-4),
              f"rc={r.returncode} got x {xr} y {yr} {r.stderr[-300:]}")
        for target in ["files", "terminal"]:
            for f in os.listdir(d):
                if f.startswith("figure-"):
                    os.remove(os.path.join(d, f))
            r = run(code, d, {"ATTN_PLOT": target, "ATTN_PLOT_DIR": d})
            check(f"{code} -> {target}: drawn without a gnuplot error", r.returncode == 0 and "gnuplot" not in r.stdout + r.stderr
                  and (target != "files" or os.path.getsize(os.path.join(d, "figure-1.svg")) > 1000), f"rc={r.returncode} {r.stderr[-300:]}")
    # gnuplot 5.4 crashed on character points of a series with no finite point (fixed limits, dumb terminal)
    r = run("d2l.plot([float('nan')] * 3, xlim=(0, 1), ylim=(0, 1))\nd2l.plot([[], [1, 2]], legend=['a', 'b'])", d, {"ATTN_PLOT": "terminal"})
    check("a series without a finite point does not crash gnuplot", r.returncode == 0 and "gnuplot" not in r.stderr and re.search(r"\|b ", r.stdout),
          r.stdout[-300:] + r.stderr[-300:])

    # heatmaps of one column or one row (gnuplot draws images of at least 2 x 2) and larger figures (the tick step
    # came out 0 and the tick loop never ended): drawn in matplotlib's colours, in order
    r = run("d2l.show_heatmaps(torch.tensor([[[[0.], [1.]]]]), figsize=(5, 5))\nsavefig('col.png')", d, {"ATTN_PLOT": "none"}, timeout=60)
    img = Image.open(os.path.join(d, "col.png")).convert("RGB") if r.returncode == 0 else None
    runs = colour_runs([img.getpixel((img.width * 45 // 100, y)) for y in range(img.height)]) if img else []
    check("a one-column heatmap at figsize (5, 5): Reds(0) over Reds(1)", len(runs) == 2 and similar(runs[0], reds(0.0)) and similar(runs[1], reds(1.0)),
          f"rc={r.returncode} {r.stderr[-300:]} runs {runs} want {reds(0.0)} {reds(1.0)}")
    r = run("d2l.show_heatmaps(torch.arange(5.).reshape(1, 1, 1, 5), figsize=(5, 5))\nsavefig('row.png')", d, {"ATTN_PLOT": "none"}, timeout=60)
    img = Image.open(os.path.join(d, "row.png")).convert("RGB") if r.returncode == 0 else None
    runs = colour_runs([img.getpixel((x, img.height // 2)) for x in range(img.width * 85 // 100)]) if img else []
    check("a one-row heatmap: five cells in Reds(k/4) from the left", len(runs) == 5 and all(similar(c, reds(k / 4)) for k, c in enumerate(runs)),
          f"rc={r.returncode} {r.stderr[-300:]} runs {runs}")
    for shape in ["1, 1, 1, 1", "1, 1, 1, 250000", "1, 1, 250000, 1", "2, 2, 500, 1"]:
        try:
            r = run(f"d2l.show_heatmaps(torch.rand({shape}), figsize=(8, 8))\nsavefig('big.svg')\nsavefig('big.png')", d, {"ATTN_PLOT": "none"}, timeout=90)
            ok, why = r.returncode == 0 and "gnuplot" not in r.stdout + r.stderr and svg_text(os.path.join(d, "big.svg")) is not None, f"rc={r.returncode} {r.stderr[-300:]}"
        except subprocess.TimeoutExpired:
            ok, why = False, "still running after 90 s"
        check(f"heatmap of shape ({shape}) at figsize (8, 8) saved as svg and png", ok, why)
    # cells without a finite value (ALiBi's causal -inf) are left empty as matplotlib leaves them: not an error
    r = run("d2l.show_heatmaps(alibi_bias(6, 2).unsqueeze(0))\nsavefig('alibi.png')", d, {"ATTN_PLOT": "none"})
    check("a heatmap with -inf cells is saved without a gnuplot message", r.returncode == 0 and "gnuplot" not in r.stdout + r.stderr, r.stdout + r.stderr)

    # savefig where it cannot write: said plainly, and gnuplot does not draw the picture to the terminal instead
    r = subprocess.run([ATTN, "-c", "d2l.plot([0, 1])\nsavefig('nodir/x.png')\nsavefig('nodir/x.svg')"], cwd=d, capture_output=True, timeout=60,
                       env=dict(os.environ, ATTN_PLOT="none"))
    check("savefig into a missing directory: a clear message, nothing drawn on stdout",
          r.returncode == 1 and b"cannot write there: No such file or directory" in r.stderr and b"PNG" not in r.stdout and b"<svg" not in r.stdout,
          f"{r.stdout[:100]!r} {r.stderr[-300:]!r}")

    # labels with control characters: the svg stays well-formed XML, no C1 control (U+009B is CSI in 8-bit
    # terminals, U+0085) or bidi override (U+202E) reaches it or the terminal; '\x9b' is U+009B, as in Python
    label = "a\\x9bb\\u202ec\\u009bd\\x85e日本"
    r = run(f"d2l.plot([1, 2], xlabel='{label}', legend=['{label}'])\nsavefig('lab.svg')", d, {"ATTN_PLOT": "none"})
    texts = svg_text(os.path.join(d, "lab.svg")) or []
    check("labels with control characters: the svg is well-formed, the text kept", texts.count("abcde日本") == 2, f"{texts} {r.stderr[-200:]}")
    for target in ["summary", "terminal"]:
        r = subprocess.run([ATTN, "-c", f"d2l.plot([1, 2], xlabel='{label}', title='{label}')\nd2l.show_heatmaps(torch.ones(1, 1, 2, 2), xlabel='{label}', titles=['{label}'])"],
                           cwd=d, capture_output=True, timeout=60, env=dict(os.environ, ATTN_PLOT=target))
        bad = [b for b in [b"\x9b", b"\xc2\x9b", "\u202e".encode(), b"\xff"] if b in r.stdout]
        check(f"labels -> {target}: no C1 control, bidi override or stray byte reaches the terminal", r.returncode == 0 and not bad, f"{bad} {r.stderr[-200:]!r}")

    r = subprocess.run([ATTN, "--keep-going", "-c", "d2l.show_heatmaps(torch.ones(1, 1, 2, 2), cmap='\\x1b[2J')\nd2l.plot([1, 2])\nsavefig('\\x1b[2Jx\\x9b.svg')"],
                       cwd=d, capture_output=True, timeout=60, env=dict(os.environ, ATTN_PLOT="none"))
    check("a cmap or file name with escapes is named in the message without sending them",
          b"\x1b" not in r.stderr and b"\x9b" not in r.stderr and r.stderr.count(b"\\x1b[2J") == 4, repr(r.stderr[-600:]))

    # arguments that used to be collected whole before any check (hours, or the memory of the machine)
    for code, want in [("d2l.plot(range(10**12))", "plot Y: more than 1000000 points"),
                       ("d2l.plot(torch.zeros(10**8, 0))", "plot: more than 64 series"),
                       ("d2l.plot(torch.zeros(2, 600000))", "plot: more than 1000000 points in all"),
                       ("d2l.plot([1, 2], legend=range(10**10))", "<figure 1: 1 line of 2 points; legend '0'>"),
                       ("d2l.show_heatmaps(torch.ones(1, 2, 2, 2), titles=range(10**12))", "titles '0', '1'>"),
                       ("rotation(1, 2**62)", "rotation: j must be between 0 and 15")]:
        try:
            r = run(code, d, {"ATTN_PLOT": "summary"}, timeout=30)
            check(f"{code}: answered at once", want in r.stdout + r.stderr and "runtime error" not in r.stderr, r.stdout[-200:] + r.stderr[-300:])
        except subprocess.TimeoutExpired:
            check(f"{code}: answered at once", False, "still running after 30 s")

    # found by tests/ref/plot_fuzz.py: margins around 1e308 on a log axis overflowed to inf (gnuplot: "all points y
    # value undefined"); subnormal data keeps matplotlib's limits
    r, (xr, yr) = script_ranges("d2l.plot([1e308, -1e308, 0], yscale='log')", d)
    check("a log axis at 1e308: a finite range around the data", r.returncode == 0 and yr and math.isfinite(yr[1]) and yr[0] < 1e308 <= yr[1],
          f"{yr} {r.stderr[-300:]}")
    r = run("d2l.plot([1e308, -1e308, 0], yscale='log')\nd2l.plot([1, 2], ylim=(1e308, 1e308), yscale='log')", d, {"ATTN_PLOT": "terminal"})
    check("a log axis at 1e308: drawn without a gnuplot error", r.returncode == 0 and "error" not in r.stderr, r.stderr[-400:])
    r, (xr, yr) = script_ranges("d2l.plot([1e-320, 1e-310], yscale='log')", d)
    want = mpl_limits(lambda ax: (ax.plot([1e-320, 1e-310]), ax.set_yscale("log")))
    check(f"subnormal data on a log axis: matplotlib's limits {want[1]}", r.returncode == 0 and near(yr, want[1], 1e-4), f"{yr} {r.stderr[-300:]}")
    # an argument of the wrong kind is named (the 0-d tensor said only "iteration over a 0-d tensor")
    r = run("d2l.plot([1, 2], fmts=torch.tensor(3.))\nd2l.plot([1, 2], legend=5)\nd2l.show_heatmaps(torch.ones(1, 1, 2, 2), titles=3.5)\n"
            "measure_layers(ns=[2, 'a'])\nmeasure_layers(ns=[8, 4, 8])\nprint('on')", d, {"ATTN_PLOT": "summary"})
    for want in ["fmts must be a string or a list of strings, not Tensor", "legend must be a string or a list of strings, not int",
                 "titles must be a string or a list of strings, not float", "measure_layers: each n in ns must be an integer, not str",
                 "measure_layers: each n once (8 is given twice)"]:
        check(f"a clear message: {want}", want in r.stderr and "on" in r.stdout, r.stderr[-600:])

    # labels made of quotes: gnuplot's scanner misreads a string that starts with '' or holds '' twice, so attn
    # sends each quote on its own ("'"), and every label is drawn as written, in every place a label goes
    quotes = ["'a'", "'", "''", "a''b", "x, ", "it's"]
    code = "\n".join(f"d2l.plot([0, 1], [0, 1], xlabel={q!r}, ylabel={q!r}, legend=[{q!r}], title={q!r})\nsavefig('q{i}.svg')"
                     for i, q in enumerate(quotes))
    code += f"\nd2l.show_heatmaps(torch.ones((1, 2, 2, 2)), xlabel={quotes[0]!r}, titles={quotes[:2]!r})\nsavefig('qh.svg')"
    r = run(code, d, {"ATTN_PLOT": "summary"})
    check("labels made of quotes draw without a gnuplot error", r.returncode == 0 and "gnuplot" not in r.stderr, r.stderr[-400:])
    for i, q in enumerate(quotes):
        texts = svg_text(os.path.join(d, f"q{i}.svg")) or []
        check(f"the label {q!r} is drawn as written (axes, title, legend)", texts.count(q) >= 4, f"{texts}")
    texts = svg_text(os.path.join(d, "qh.svg")) or []
    check("a heatmap's quoted labels and titles are drawn as written", "'a'" in texts and "'" in texts, f"{texts}")

    # a terminal too narrow to draw in gets the one-line summary and says why
    out = run_pty("d2l.plot([1, 2, 3])\nd2l.show_heatmaps(torch.ones(1, 3, 4, 4))", d, cols=12, rows=24, env={"ATTN_PLOT": "terminal"}, attn=ATTN)
    check("a 12-column terminal: summaries, no drawing", out.count("too narrow to draw in") == 2 and "<figure 1: 1 line of 3 points" in out
          and "\u2580" not in out and "+---" not in out, out[-600:])

finish()

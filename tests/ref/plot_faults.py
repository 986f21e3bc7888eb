#!/usr/bin/python3
"""Plotting against the real gnuplot: every kind of figure rendered to svg, png, pdf and the dumb terminal without
a gnuplot error; labels that try to run commands drawn as text; a killed gnuplot replaced at the next plot; a
missing gnuplot reported once with the install command while everything else works. 'N passed, N failed'.
usage: plot_faults.py ATTN_BINARY"""
import os, re, shutil, signal, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, check, finish  # noqa: E402


def run(code, cwd, env_extra=None, timeout=120):
    env = dict(os.environ, **(env_extra or {}))
    env.pop("DISPLAY", None)
    return subprocess.run([ATTN, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


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
        drawn = "+---" in r.stdout.replace("-+-", "+--") or re.search(r" \((Blues|Reds)\)\n", r.stdout)   # gnuplot's dumb frame, or attn's heatmap scale
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

    # gnuplot's own error is shown next to the statement that caused it, and the session goes on
    r = run("x = 1\nd2l.plot([0, 1], [0, 0], yscale='log')\nprint('still here', x)", d, {"ATTN_PLOT": "terminal"})
    check("gnuplot's error shown with the statement", "error: gnuplot: gnuplot> plot" in r.stderr and "all points y value undefined" in r.stderr
          and "d2l.plot([0, 1], [0, 0], yscale='log')" in r.stderr, r.stderr)
    check("after gnuplot's error the session goes on", "still here 1" in r.stdout and r.returncode == 1, f"rc={r.returncode} {r.stdout[-200:]}")

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
    r = subprocess.run([ATTN, "-c", "d2l.plot([0, 1], [0, 1])\nprint(torch.ones(2).sum().item())"], capture_output=True, text=True, cwd=d,
                       env=dict(os.environ, PATH=fake, ATTN_PLOT="terminal"))
    check("no gnuplot: a clear message with the install command", "apt-get install gnuplot" in r.stderr, r.stderr)
    check("no gnuplot: the rest works", "2.0" in r.stdout, r.stdout)

finish()

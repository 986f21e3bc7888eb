#!/usr/bin/python3
"""Randomized arguments for the plot builtins and every figure builtin, as a student or a hostile lesson could write
them: d2l.plot, d2l.show_heatmaps, d2l.ProgressBoard(...).draw, savefig, plot_target, rotation(plot=True), measure_layers(plot=True) and
stack_attention(plot=True) called with values of every kind (None, numbers at the int64 and float extremes, NaN and
inf, strings with control characters, quotes, backticks, CJK and 10 kB, nested and ragged lists, huge ranges, 0-d and
empty tensors, int64/bool/float64 tensors, views: transposes, slices, expand) and drawn to every target: the script,
the summary, the terminal (gnuplot's dumb terminal and attn's own heatmaps) and files. Run under the sanitizer build
too (make test SANITIZE=1).
Each batch of statements must end with the session alive (a last print runs), with no crash, sanitizer report,
gnuplot crash or hang, no file written where nobody asked, no control character in text meant for the reader, and
every error a clear message: at the line and column of its statement (the statement shown under it), naming what
was wrong (the builtin, the argument or gnuplot). Some batches are typed into the REPL at a pseudo-terminal, one
statement at a time: the prompt comes back after each, also after an error.
Fixed seed (ATTN_PLOT_FUZZ_SEED to change it, ATTN_PLOT_FUZZ_BATCHES for more). 'N passed, N failed'.
usage: plot_fuzz.py ATTN_BINARY"""
import os, pty, random, re, select, signal, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, check, finish  # noqa: E402

rng = random.Random(int(os.environ.get("ATTN_PLOT_FUZZ_SEED", "20251122")))

NUMBERS = ["0", "1", "-1", "2", "0.5", "1e308", "-1e308", "5e-324", "9223372036854775807", "-9223372036854775807 - 1",
           "float('nan')", "float('inf')", "-float('inf')", "True", "False", "None", "10**9", "1e9", "-3"]
STRINGS = ["''", "'x'", "'Keys'", "'日本語のラベル'", "'中文'*40", "'a\\'b\"c`d`'", "'$(touch pwned)'", "'`touch pwned`'",
           "'\\x1b[2J\\x07'", "'\\x9b2J'", "'\\xe2\\x80\\xae rtl'", "'\\xff\\xfe'", "'\\xe6\\x97'", "'x\\ny'", "'\\r\\t'", "'x' * 10000",
           "'-'", "'m--'", "'g-.'", "'r:'", "'bo'", "'C9s-'", "'C'", "'log'", "'linear'", "'Reds'", "'Blues_r'", "'viridis'",
           "'nope'", "'_r'", "'@pwned'", "'\\\\'"]
TENSORS = ["torch.tensor(3.)", "torch.zeros(0)", "torch.zeros(0, 3)", "torch.zeros(3, 0)", "torch.arange(10)",
           "torch.arange(10.)", "torch.arange(6.).reshape(2, 3)", "torch.arange(6.).reshape(2, 3).T",
           "torch.arange(12.).reshape(3, 4)[:, ::2]", "torch.tensor([True, False, True])",
           "torch.tensor([1., 2.], dtype=torch.float64)", "torch.tensor([float('nan'), float('inf'), -float('inf')])",
           "torch.tensor([1e38, -1e38])", "torch.ones(1).expand(5)", "torch.ones(1, 1).expand(3, 4)",
           "torch.arange(24.).reshape(2, 3, 4)", "torch.rand(1, 1, 4, 5)", "torch.rand(2, 2, 3, 3)",
           "torch.rand(1, 1, 1, 7)", "torch.rand(1, 1, 7, 1)", "torch.rand(1, 1, 1, 1)", "torch.arange(24.).reshape(1, 2, 3, 4).transpose(2, 3)",
           "torch.zeros(1, 1, 0, 3)", "torch.zeros(0, 1, 2, 2)", "torch.tensor([[[[True, False], [False, True]]]])",
           "torch.arange(4).reshape(1, 1, 2, 2)", "torch.full((1, 1, 2, 2), float('nan'))", "torch.rand(1, 65, 2, 2)",
           "alibi_bias(5, 2).unsqueeze(0)", "torch.tensor([[[[-1e38, 1e38]]]], dtype=torch.float64) * 1e270",
           "torch.rand(3, 1000)", "torch.rand(70, 2)"]
LISTS = ["[]", "[[]]", "[1, 2, 3]", "[1, 'a']", "[[1, 2], [3]]", "[[1, 2], [3, 4]]", "[None]", "[[[1]]]",
         "[torch.ones(2), torch.zeros(2)]", "[torch.ones(2, 2)]", "(1, 2)", "(0, 0)", "(2, 1)", "(1, 1)",
         "(0.1, 100)", "(-1, 10)", "(float('nan'), 1)", "(1e9, 1)", "(0, 0)", "(3, 2)", "(50, 50)", "(0.4, 3)",
         "['a', 'b', 'c']", "['-', 'm--', 'x', 'C0o']", "[1, None, 'x']", "range(5)", "range(10**12)", "range(0)",
         "{'a': 1}", "{}", "[float('nan')] * 3", "[1e308, -1e308]", "list(range(70))", "[[1, 2]] * 70", "lambda x: x"]
POOL = NUMBERS + STRINGS + TENSORS + LISTS
DATA = ["torch.arange(10.)", "torch.sin(torch.arange(20.) / 3)", "torch.arange(6.).reshape(2, 3)", "torch.arange(6.).reshape(2, 3).T",
        "torch.arange(12.).reshape(3, 4)[:, ::2]", "torch.arange(10)", "torch.tensor([True, False, True])", "[1, 2, 3]",
        "[[1, 2, 3], [3, 2, 1]]", "[torch.ones(3), torch.zeros(3)]", "range(1, 4)", "torch.tensor([1., 2., 3.], dtype=torch.float64)",
        "torch.ones(1).expand(3)", "[float('nan'), 1, float('inf')]", "[5, 5, 5]", "[]", "torch.zeros(0)", "torch.tensor(2.)",
        "[1e308, -1e308, 0]", "[-1, 0, 1]", "torch.rand(3, 500)"]
MATRICES = ["torch.rand(1, 1, 4, 5)", "torch.rand(2, 2, 3, 3)", "torch.rand(1, 1, 1, 7)", "torch.rand(1, 1, 7, 1)", "torch.rand(1, 1, 1, 1)",
            "torch.arange(24.).reshape(1, 2, 3, 4).transpose(2, 3)", "torch.tensor([[[[True, False], [False, True]]]])",
            "torch.arange(4).reshape(1, 1, 2, 2)", "torch.full((1, 1, 2, 2), float('nan'))", "alibi_bias(5, 2).unsqueeze(0)",
            "torch.tensor([[[[-1e300, 1e300]]]], dtype=torch.float64) * 1e8", "torch.zeros(1, 1, 3, 3)", "torch.rand(1, 8, 2, 2)",
            "torch.rand(8, 8, 5, 5)", "torch.rand(1, 1, 300, 2)", "torch.ones(1, 1, 1, 1).expand(1, 1, 3, 3)", "torch.rand(1, 1, 1, 5000)"]
GOOD = {
    "xlabel": STRINGS, "ylabel": STRINGS, "title": STRINGS,
    "legend": ["['a', 'b']", "['日本', '中文' * 30, 'x\\ny']", "[]", "'one'", "[str(i) for i in range(70)]", "range(10**12)",
               "['`touch pwned`', \"a'b\"]", "[1, None, torch.ones(2)]"],
    "titles": ["['a', 'b', 'c']", "['頭一', 'x' * 10000]", "'t'", "[]", "range(10**12)", "['$(touch pwned)']"],
    "fmts": ["['-', 'm--', 'g-.', 'r:']", "['bo', 'C9s-', 'x', 'C']", "'r:'", "['', '--C', 'Ccc', '|']", "[1, 2]"],
    "xlim": ["(0, 10)", "(10, 0)", "(1, 1)", "(0, 0)", "(-1e308, 1e308)", "(0.1, 100)", "(-5, 5)", "(1e-300, 1e-299)"],
    "xscale": ["'linear'", "'log'"],
    "figsize": ["(3.5, 2.5)", "(0.6, 0.6)", "(49, 1)", "(1, 49)", "(8, 8)", "(5, 2)"],
    "cmap": ["'Reds'", "'Blues_r'", "'viridis'", "'gray'", "'RdBu'", "'coolwarm_r'"],
    "axes": ["None"],
}
GOOD["ylim"], GOOD["yscale"] = GOOD["xlim"], GOOD["xscale"]
GOOD.update({"ls": ["['-', '--', '-.', ':']", "[]", "['x', '']", "'-'", "None"], "colors": ["['C0', 'C1']", "['m', 'r']", "[]", "None"],
             "display": ["True", "True", "False", "None"]})
BOARD_KW = ["xlabel", "ylabel", "xlim", "ylim", "xscale", "yscale", "ls", "colors", "figsize", "display"]
# the chapter's figure builtins: valid values kept small (a figure in well under a second), edges refused at once
FLAGS = ["True", "False", "None", "1", "0", "'yes'", "[]", "float('nan')"]
GOOD.update({
    "plot": ["True"] * 6 + FLAGS, "quiet": ["True"] * 4 + FLAGS,
    "delta": ["0", "1", "-1", "3", "-3", "59", "-59", "60", "-60", "9223372036854775807", "-9223372036854775807 - 1", "1.5", "True"],
    "j": ["0", "1", "2", "15", "16", "-1", "2047", "9223372036854775807", "'0'"],
    "rot_d": ["2", "3", "8", "32", "4096", "4097", "1", "0", "-2", "2**40"],
    "rot_n": ["2", "3", "60", "1000", "100000", "100001", "1", "0", "-9223372036854775807"],
    "ns": ["[2, 4]", "[4, 8, 16]", "[2, 3, 4, 8, 16, 32]", "(8, 4)", "[4, 4]", "[]", "[2]", "[1, 4]", "[2, 8193]", "[2, 2**62]",
           "[2, -4]", "[2, 'a']", "[2.5, 4]", "list(range(2, 19))", "range(2, 5)", "[True, 4]", "[[2], [4]]", "None"],
    "ml_d": ["1", "2", "8", "0", "2049", "-1", "2**62", "None"],
    "k": ["1", "2", "3", "15", "0", "16", "-3"],
    "repeats": ["1", "1", "2", "0", "16", "-1", "10**18"],
    "layers": ["1", "2", "3", "0", "65", "10**18", "-1"],
    "sa_n": ["2", "3", "10", "1", "1001", "-5"],
    "sa_d": ["2", "4", "8", "1", "1025", "0"],
    "heads": ["1", "2", "4", "0", "-1", "3"],
    "residual": FLAGS, "seed": ["0", "1", "-1", "2**62", "'s'", "None"],
})
VALID = {               # values these builtins accept together (half of the calls draw a figure for sure)
    "plot": ["True"] * 3 + ["False"], "quiet": ["True", "False"], "delta": ["0", "1", "-1", "3", "-3"], "j": ["0", "1", "2", "3"],
    "rot_d": ["8", "32", "4096"], "rot_n": ["60", "1000", "100000"], "ns": ["[2, 4]", "[4, 8, 16]", "[2, 3, 4, 8, 16, 32]", "(8, 4)"],
    "ml_d": ["1", "2", "8"], "k": ["1", "2", "3", "15"], "repeats": ["1", "2"], "layers": ["1", "2", "3"], "sa_n": ["2", "3", "10"],
    "sa_d": ["2", "4", "8"], "heads": ["1", "2"], "residual": ["True", "False"], "seed": ["0", "1", "2**62"],
}
FIGURE_BUILTINS = {      # name: (positional parameters, keyword parameters -> pool)
    "rotation": (["delta", "j"], {"d": "rot_d", "n": "rot_n", "quiet": "quiet", "plot": "plot"}),
    "measure_layers": ([], {"ns": "ns", "d": "ml_d", "k": "k", "repeats": "repeats", "quiet": "quiet", "plot": "plot"}),
    "stack_attention": ([], {"layers": "layers", "n": "sa_n", "d": "sa_d", "heads": "heads", "residual": "residual",
                             "seed": "seed", "quiet": "quiet", "plot": "plot"}),
}
PLOT_KW = ["xlabel", "ylabel", "legend", "xlim", "ylim", "xscale", "yscale", "fmts", "figsize", "title", "axes"]
HEAT_KW = ["xlabel", "ylabel", "titles", "figsize", "cmap"]
FILES = ["'a.svg'", "'b.png'", "'c.pdf'", "'sub/d.svg'", "'nodir/e.png'", "'../f.svg'", "'g.gp'", "'-h.svg'",
         "'i j.svg'", "'k;touch pwned.svg'", "''", "None", "5", "'l' * 300 + '.svg'", "'m.svg\\x00.png'", "'/proc/n.svg'"]
TARGETS = ["'summary'", "'script'"]
GOOD_FILES = {"a.svg", "b.png", "c.pdf", os.path.join("sub", "d.svg")}


def value(good):
    """Mostly a value the argument takes (a good one or an edge), sometimes anything at all."""
    return rng.choice(good) if rng.random() < 0.85 else rng.choice(POOL)


def kwargs(names):
    return [f"{kw}={value(GOOD[kw])}" for kw in rng.sample(names, rng.randint(0, min(5, len(names))))]


def figure_call():
    """Half the calls valid (every value from VALID, plot=True unless drawn otherwise), half with edges."""
    name = rng.choice(sorted(FIGURE_BUILTINS))
    pos, kw = FIGURE_BUILTINS[name]
    valid = rng.random() < 0.5
    if valid:
        args = [rng.choice(VALID[p]) for p in pos]
        args += [f"{key}={rng.choice(VALID[kw[key]])}" for key in rng.sample(sorted(kw), rng.randint(0, len(kw)))]
        if not any(a.startswith("plot=") for a in args):
            args.append("plot=True")
    else:
        args = [value(GOOD[p]) for p in pos[:rng.choice([len(pos)] * 6 + list(range(len(pos) + 1)))]]
        args += [f"{key}={value(GOOD[kw[key]])}" for key in rng.sample(sorted(kw), rng.randint(0, len(kw)))]
    # the defaults of measure_layers take seconds; large n, d and layers at once in stack_attention are slow, not wrong
    small = {"measure_layers": (("ns=", "ns=[2, 4]"), ("repeats=", "repeats=1")),
             "stack_attention": (("n=", "n=4"), ("d=", "d=8"), ("layers=", "layers=2"))}.get(name, ())
    args += [default for key, default in small if not any(a.startswith(key) for a in args)]
    if not valid and rng.random() < 0.1:
        args.append(rng.choice(["x=1", "plot=True, plot=False", "*[1]", "1, 2, 3, 4, 5, 6, 7, 8, 9"]))
    return f"{name}({', '.join(args)})"


def statement():
    k = rng.random()
    if k < 0.2:
        return figure_call()
    if k < 0.55:
        args = [value(DATA)] + ([value(DATA)] if rng.random() < 0.5 else [])
        return "d2l.plot(" + ", ".join(args + kwargs(PLOT_KW)) + ")"
    if k < 0.85:
        return "d2l.show_heatmaps(" + ", ".join([value(MATRICES)] + kwargs(HEAT_KW)) + ")"
    if k < 0.92:
        return f"savefig({rng.choice(FILES)})"
    if k < 0.97:            # d2l.ProgressBoard: a live figure, drawn after the statement in its last state
        board = "d2l.ProgressBoard(" + ", ".join(kwargs(BOARD_KW)) + ")"
        pts = rng.randint(1, 30)
        return (f"[{board}.draw(x=i, y={value(NUMBERS + DATA[-4:-1])}, label={value(STRINGS)}, every_n={value(['1', '2', '3', '0', '-1', '10**18'])})"
                f" for i in range({pts})]")
    return f"plot_target({value(TARGETS)})"


SANITIZER = re.compile(r"runtime error|AddressSanitizer|LeakSanitizer|internal error|stopped unexpectedly|invalid UTF-8")

CALLEES = ("d2l.plot", "d2l.show_heatmaps", "savefig", "plot_target", "[d2l.ProgressBoard", *FIGURE_BUILTINS)


def unclear_errors(err, stmts):
    """The errors on stderr that do not say where (-c:LINE:COL: with that statement under it and a caret inside it)
    or what (the builtin's name, one of its arguments' names, or gnuplot's own message)."""
    problems, lines = [], err.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"-c:(\d+):(\d+): error: (.*)", line)
        if not m:
            if "error" in line and not line.startswith(" "):
                problems.append(f"an error without its place: {line[:200]!r}")
            continue
        n, col, msg = int(m.group(1)), int(m.group(2)), m.group(3)
        if not 1 <= n <= len(stmts):
            problems.append(f"line {n} is no statement: {line[:200]!r}")
            continue
        stmt = stmts[n - 1]
        # the statement and a caret under it, after the message (gnuplot's own message may take several lines)
        at = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("-c:") or
                   (lines[k].startswith("  ") and lines[k].strip() and stmt.startswith(lines[k].strip()))), len(lines))
        shown = lines[at] if at < len(lines) else ""
        caret = lines[at + 1] if at + 1 < len(lines) else ""
        if shown.startswith("-c:") or not shown.strip() or caret.strip() != "^" or not 1 <= col <= len(stmt):
            problems.append(f"not shown where: {line[:200]!r} / {shown[:120]!r} / {caret[:120]!r} for {stmt[:200]!r}")
        callee = next(c for c in CALLEES if stmt.startswith(c + "("))
        names = [callee.split(".")[-1], "draw", "gnuplot", "argument"] + re.findall(r"(\w+)=", stmt) + ["Y", "X", "figure", "file name", "delta", "j", "cmap"]
        if not any(w in msg for w in names) or len(msg) < 12:
            problems.append(f"does not say what: {msg[:200]!r} for {stmt[:200]!r}")
    return problems


def repl_batch(b, stmts, env, d):
    """The statements typed one by one into the REPL at an 80x24 pseudo-terminal."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(d)
        os.execve(ATTN, [ATTN, "-q"], dict(env, TERM="xterm", XDG_STATE_HOME=STATE, COLUMNS="80", LINES="24"))

    def expect(what, timeout=120):
        buf, end = b"", time.time() + timeout
        while time.time() < end and what not in buf:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    buf += os.read(fd, 65536)
                except OSError:
                    break
        return buf
    seen = expect(b"attn> ", 30)
    back = b"attn> " in seen
    for k, stmt in enumerate(stmts):
        if not back:
            break
        os.write(fd, stmt.encode() + b"\r")
        got = expect(b"attn> ")
        back = b"attn> " in got
        seen += got
        check(f"batch {b} (REPL): the prompt comes back after statement {k + 1}", back, f"{stmt[:300]}\n{got[-600:]!r}")
    if back:
        os.write(fd, f"print('ALIVE', {b})\r".encode())
        got = expect(b"attn> ", 30)
        seen += got
        check(f"batch {b} (REPL): the session goes on", f"ALIVE {b}".encode() in got, repr(got[-300:]))
        os.write(fd, b"quit()\r")
    end, done = time.time() + 30, False
    while time.time() < end and not done:
        seen += expect(b"\0", 0.2)
        done = os.waitpid(pid, os.WNOHANG) != (0, 0)
    if not done:
        os.kill(pid, signal.SIGKILL)          # our own child, which did not end
        os.waitpid(pid, 0)
    check(f"batch {b} (REPL): quit() ends the session", done, repr(seen[-300:]) + "\n--- statements:\n" + "\n".join(stmts))
    os.close(fd)
    bad = SANITIZER.search(seen.decode("utf-8", "replace"))
    check(f"batch {b} (REPL): no crash or sanitizer report", not bad, f"{bad.group(0) if bad else ''}\n{seen[-1500:]!r}")


STATE = tempfile.mkdtemp(prefix="attn-plot-fuzz-state-")     # the REPL's history, outside the working directory
with tempfile.TemporaryDirectory() as d:
    os.mkdir(os.path.join(d, "sub"))
    figdir = os.path.join(d, "figs")
    os.mkdir(figdir)
    batches = int(os.environ.get("ATTN_PLOT_FUZZ_BATCHES", "100"))
    for b in range(batches):
        target = ["script", "summary", "terminal", "files"][b % 4]
        stmts = [statement() for _ in range(20)]
        env = dict(os.environ, ATTN_PLOT=target, ATTN_PLOT_DIR=figdir, COLUMNS=str(rng.choice([21, 40, 80, 160, 1000])),
                   LINES=str(rng.choice([6, 24, 60])), ATTN_MEMORY_LIMIT="256M")
        env.pop("DISPLAY", None)
        if rng.random() < 0.5:
            env["NO_COLOR"] = "1"
        if b % 10 == 9:                 # typed at the REPL: the prompt is back after every statement
            repl_batch(b, stmts, env, d)
            continue
        try:
            r = subprocess.run([ATTN, "--keep-going", "-c", "\n".join(stmts + [f"print('ALIVE', {b})"])], cwd=d, capture_output=True, timeout=300, env=env)
        except subprocess.TimeoutExpired:
            check(f"batch {b} ({target}) ends", False, "still running after 300 s:\n" + "\n".join(stmts))
            continue
        out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
        if os.environ.get("ATTN_PLOT_FUZZ_VERBOSE"):
            print(f"--- batch {b} {target} rc={r.returncode}\n" + "\n".join(stmts) + "\n" + err[-3000:])
        check(f"batch {b} ({target}): the session goes on to its last statement", f"ALIVE {b}" in out, err[-800:])
        for problem in unclear_errors(err, stmts):
            check(f"batch {b} ({target}): every error says what and where", False, problem)
        bad = SANITIZER.search(out + err)
        check(f"batch {b} ({target}): no crash, sanitizer report or gnuplot crash", r.returncode in (0, 1) and not bad,
              f"rc={r.returncode} {bad.group(0) if bad else ''}\n{err[-1500:]}\n--- statements:\n" + "\n".join(stmts))
        if target in ("script", "summary"):
            # text for the reader: no escape, no C1 control (as a byte or as U+0080..U+009F), no bidi override
            ctl = re.search(rb"\x1b|\x9b|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]", r.stdout)
            check(f"batch {b} ({target}): no control character in what the reader sees", not ctl, f"{ctl} in {r.stdout[-300:]!r}")
        if target == "script":
            # every command gnuplot would read is one of attn's templates: labels only inside quotes
            for line in out.split("\n"):
                if line.startswith(("set label", "set xlabel", "set ylabel", "set title")):
                    # single-quoted pieces, and "'" joining them (a quote is sent so: gnuplot misreads '' at a start)
                    body = re.sub(r"'(?:[^']|'')*'|\"'\"", "''", line)
                    check(f"batch {b}: a label stays inside its quotes", "`" not in body and "system" not in body and "$(" not in body, line[:200])
        made = sorted(f for f in os.listdir(d) if f not in ("sub", "figs"))
        made += [os.path.join("sub", f) for f in os.listdir(os.path.join(d, "sub"))]
        check(f"batch {b}: only the files savefig was asked for", all(f in GOOD_FILES for f in made), f"{made}")
        check(f"batch {b}: nothing ran a command", not any("pwned" in f for f in made + os.listdir(figdir)), f"{made}")
        check(f"batch {b}: files target writes only figure-N.svg", all(re.fullmatch(r"figure-\d+\.svg", f) for f in os.listdir(figdir)), str(os.listdir(figdir)))
subprocess.run(["rm", "-rf", STATE])
finish()

#!/usr/bin/python3
"""What the chapter's functions and lessons put before a student is documented and fits an 80-column terminal.

 1. help NAME documents every keyword a chapter builtin accepts: the names its declaration (args_bind) and its arg()
    calls accept, read from the C source (src/builtins/d2l_*.c, entries whose section is §11...). Its signature promises
    no keyword the builtin refuses, and the builtin refuses a keyword it does not know (nothing silently ignored).
 2. Every line the chapter's reports print (complexity, receptive_field, measure_layers, binary_vs_sinusoid,
    rotation, stack_attention, learnable_pe, help) is at most 80 display columns, over the range of their arguments.
 3. Every line of lesson prose is at most 80 columns: text outside code blocks, question prompts and hints.

usage: chapter_text.py ATTN_BINARY        prints 'N passed, N failed'
"""
import glob, os, re, subprocess, sys, tempfile, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
from refcheck import ATTN, check, finish  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH = 80


def columns(line):
    """Display columns of a line: East Asian wide and fullwidth characters take 2, combining marks 0."""
    w = 0
    for ch in line:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def c_strings(fragment):
    """The value of adjacent C string literals ("a" "b" -> "ab"), escapes decoded."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', fragment)
    return "".join(bytes(p, "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8") for p in parts)


def builtins_of(path):
    """(functions, entries) of one builtins file: for each builtin function, the keyword names it accepts (its
    keyword lists and the names given to arg()) and whether it binds its declaration (args_bind...); each table entry's name,
    function, signature, help and section."""
    src = open(path, encoding="utf-8").read()
    funcs = {}
    for m in re.finditer(r"^static Value \*(\w+)\(Interp \*I, Args \*a\)\s*\{", src, re.M):
        body = src[m.end():src.find("\n}\n", m.end())]
        names = set()
        for lst in re.findall(r"static const char \*const \w+\[\] = \{([^}]*)\}", body):
            names |= set(re.findall(r'"(\w+)"', lst))
        names |= set(re.findall(r'\barg\(a, \d+, "(\w+)"\)', body))
        funcs[m.group(1)] = (names, "args_bind" in body, "args_bind(" in body)
    entries = []
    lit = r'((?:"(?:[^"\\]|\\.)*"\s*)+)'
    for t in re.finditer(r"const Builtin (\w+)\[\] = \{(.*?)\n\s*\{NULL", src, re.S):
        for e in re.finditer(r'\{"(\w+)", (\w+),\s*' + lit + r",\s*" + lit + r",\s*" + lit + r",\s*(\d)(?:,\s*\"[\w.]*\")?\}", t.group(2)):
            entries.append(dict(table=t.group(1), name=e.group(1), fn=e.group(2), sig=c_strings(e.group(3)),
                                help=c_strings(e.group(4)), section=c_strings(e.group(5))))
    return funcs, entries


def signature_params(sig):
    """Parameter names of "f(a, b=1, c=[1, 2])" and the ones given a default: (['a', 'b', 'c'], {'b', 'c'})."""
    inner = sig[sig.index("(") + 1:sig.rindex(")")]
    params, depth, cur = [], 0, ""
    for ch in inner + ",":
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            if cur.strip():
                params.append(cur.strip())
            cur = ""
        else:
            cur += ch
    names = [p.split("=")[0].strip().lstrip("*") for p in params]
    return names, {p.split("=")[0].strip() for p in params if "=" in p}


def run(code, cwd):
    r = subprocess.run([ATTN, "-q", "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="80"))
    return r.stdout, r.stderr


with tempfile.TemporaryDirectory() as tmp:
    # 1. keywords against help
    chapter = []
    for path in sorted(glob.glob(os.path.join(ROOT, "src/builtins/d2l_*.c"))):
        funcs, entries = builtins_of(path)
        for e in entries:
            if e["section"].startswith("§11"):
                chapter.append((os.path.basename(path), e, funcs.get(e["fn"])))
    check("the chapter's builtins were found in src/builtins/d2l_*.c", len(chapter) >= 15, str(len(chapter)))
    for fname, e, fn in chapter:
        where = f"{fname}: {e['name']}"
        if fn is None:
            check(f"{where}: its function {e['fn']} is read", False, "not found in the file")
            continue
        accepted, checks, binds = fn
        params, defaults = signature_params(e["sig"])
        if binds:
            accepted = set(params)     # args_bind: the signature is the list of keywords the function takes
        missing = sorted(accepted - set(params))
        check(f"{where}: the signature names every keyword it accepts", not missing,
              f"{e['sig']!r} lacks {missing}")
        promised = sorted(defaults - accepted)
        check(f"{where}: every keyword the signature promises is accepted", not promised,
              f"{e['sig']!r} promises {promised}, the function accepts {sorted(accepted)}")
        out, err = run(f"help('{e['name']}')", tmp)
        shown = out.split("\n  [d2l")[0]
        absent = [k for k in sorted(accepted) if not re.search(r"\b%s\b" % re.escape(k), shown)]
        check(f"{where}: help {e['name']} shows every keyword", not err and not absent, f"{absent} {err.strip()}")
        if "methods" in e["table"]:
            continue       # attention.transpose_qkv(X): a method with positional arguments only
        call = e["sig"].split("(")[0]
        out, err = run(f"{call}(__probe__=1)", tmp)
        check(f"{where}: an unknown keyword is refused", f"unexpected keyword argument '__probe__'" in err,
              (out + err).strip()[:200])

    # 2. reports within 80 columns
    reports = []
    for n in [2, 100, 512, 513, 1000000]:
        for d in [1, 64, 512, 100000]:
            for k in [2, 3, 1000]:
                reports.append(f"complexity({n}, {d}, k={k})")
    for n in [1, 5, 12]:
        for k, layers in [(2, 0), (3, 2), (15, 20)]:
            for dil in ["False", "True"]:
                reports.append(f"_ = receptive_field({n}, {k}, {layers}, dilated={dil})")
    reports += ["_ = measure_layers(ns=[2, 8192], d=1, k=15, repeats=1)",
                "_ = measure_layers(ns=[16, 32, 64], d=8, repeats=2)",
                "_ = measure_layers(ns=[64, 128], d=2048, k=1, repeats=1)"]
    for n in [2, 8, 256]:
        for d in [2, 8, 9, 16]:
            reports.append(f"binary_vs_sinusoid({n}, {d})")
    for delta, j, d, n in [(3, 2, 32, 60), (-59, 0, 32, 60), (0, 15, 32, 60), (59, 15, 32, 60),
                           (-9999, 2047, 4096, 10000), (9999, 0, 2, 10000)]:
        reports.append(f"_ = rotation({delta}, {j}, d={d}, n={n})")
    for args in ["layers=6", "layers=6, residual=True", "layers=64, n=2, d=2, heads=1",
                 "layers=3, n=1000, d=8, heads=8, residual=True, seed=123456789"]:
        reports.append(f"_ = stack_attention({args})")
    reports += ["_ = learnable_pe()", "_ = learnable_pe(n=3, d=1, max_len=4096, steps=1, lr=999)",
                "_ = learnable_pe(n=32, d=2, steps=0)", "_ = learnable_pe(n=32, d=256, max_len=4096, steps=1, lr=0.001)",
                "_ = learnable_pe(n=9, d=3, max_len=1000, steps=1000, lr=0.001, seed=123456789)", "help()"]
    reports += [f"help('{e['name']}')" for _, e, _ in chapter]
    for code in reports:
        out, err = run(code, tmp)
        wide = [l for l in out.split("\n") if columns(l) > WIDTH]
        check(f"{code}: every line within {WIDTH} columns", out and not err and not wide,
              err.strip()[:200] if err else f"{len(wide)} wider, e.g. {columns(wide[0]) if wide else 0}: {wide[:1]}")

    # 3. lesson prose within 80 columns
    for path in sorted(glob.glob(os.path.join(ROOT, "lessons/[0-9]*.md"))):
        fence, wide = None, []
        for i, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
            if line.startswith("```"):
                fence = None if fence else (line[3:].strip() or "code")
                continue
            code_line = fence is not None and not fence.startswith("question")
            if fence and fence.startswith("question"):
                code_line = bool(re.match(r"(answer|accept|wrong|forbid|tolerance):", line))
            if not code_line and columns(line) > WIDTH:
                wide.append(f"line {i} ({columns(line)} columns)")
        check(f"{os.path.basename(path)}: prose within {WIDTH} columns", not wide, ", ".join(wide[:5]))

    # 3b. no sentence is broken into a list: a prose line that starts with a list marker ("- ", "+ ", "* ", "1. ")
    # in the middle of a paragraph that is not a list is a list item for Markdown and for attn's wrapping (a
    # translation rewrapped "sin²θ\n+ cos²θ = 1" and the lesson showed a hanging indent), in every language
    for path in sorted(glob.glob(os.path.join(ROOT, "lessons/[0-9]*.md")) + glob.glob(os.path.join(ROOT, "lessons/*/[0-9]*.md"))):
        fence, in_list, prev, broken = None, False, "", []
        for i, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
            if line.startswith("```"):
                fence = None if fence else (line[3:].strip() or "code")
                prev = ""
                continue
            if fence:
                continue
            item = bool(re.match(r"([-+*]|\d+\.) +\S", line))
            if not prev.strip():
                in_list = item
            elif item and not in_list:
                broken.append(f"line {i}: {line[:30]}")
            prev = line
        rel = os.path.relpath(path, ROOT)
        check(f"{rel}: no paragraph line starts like a list item", not broken, ", ".join(broken[:5]))


    # 4. every point of §11.6 that issue 10 lists has its step: (lesson, step id, what the step must say, how many
    # questions it must pose). The phrases are the chapter's own content, so a step that loses it fails here.
    def steps_of(path):
        """{step id: text} of a lesson; the text before the first step is 'intro'."""
        steps, cur = {"intro": []}, "intro"
        for line in open(path, encoding="utf-8").read().split("\n"):
            m = re.match(r"## .*\{#([\w-]+)\}\s*$", line)
            if m:
                cur = m.group(1)
                steps[cur] = []
            steps[cur].append(line)
        return {k: "\n".join(v) for k, v in steps.items()}

    POINTS = [
        ("01", "intro", [r"intra-attention", r"\(11\.6\.1\)"], 0, "the self-attention formula (11.6.1), intra-attention"),
        ("01", "heads", [r"untrained"], 0, "the multi-head heatmap flagged as an untrained layer"),
        ("02", "cnn", [r"O\(knd²\)", r"O\(n/k\)"], 1, "the CNN row derived"),
        ("02", "rnn", [r"O\(nd²\)", r"O\(n\)"], 1, "the RNN row derived"),
        ("02", "attention-row", [r"O\(n²d\)", r"O\(1\)"], 1, "the self-attention row derived"),
        ("02", "measured", [r"measure_layers"], 0, "the measured run"),
        ("03", "formula", [r"\(11\.6\.2\)", r"P_mine"], 2, "the student builds P from (11.6.2)"),
        ("03", "sinusoid", [r"PositionalEncoding", r"torch\.equal\(P, P_mine\)"], 1, "...before meeting the class"),
        ("03", "odd", [r"cosine line that fails"], 0, "odd d: the cosine line fails, as in PyTorch"),
        ("04", "binary", [r"binary"], 1, "lesson 4: binary, with a computed answer"),
        ("04", "periods", [r"period"], 2, "lesson 4: periods of the columns, computed"),
        ("04", "heatmap", [r"heatmap"], 1, "lesson 4: the heatmap, computed"),
        ("05", "identities", [r"cos\(a \+ b\) = cos\(a\) cos\(b\) - sin\(a\) sin\(b\)",
                              r"sin\(a \+ b\) = sin\(a\) cos\(b\) \+ cos\(a\) sin\(b\)"], 0, "the angle-addition identities"),
        ("05", "derivation", [r"never on i", r"\(11\.6\.3\)"], 1, "the derivation step by step"),
        ("05", "check", [r"rotation\(-2, 2\)", r"δ = -"], 1, "negative δ in rotation"),
        ("06", "summary", [r"§11\.6\.4"], 2, "the summary (§11.6.4)"),
        ("06", "stacking", [r"stack_attention"], 1, "exercise 1 posed to the student"),
        ("06", "learnable", [r"learnable_pe", r"r\['start'\]"], 2, "exercise 2 posed, its table trained through a task"),
        ("06", "shaw", [r"relative_position_index"], 1, "exercise 3 posed to the student"),
    ]
    for lesson, step, phrases, questions, what in POINTS:
        path = (glob.glob(os.path.join(ROOT, f"lessons/{lesson}-*.md")) or ["?"])[0]
        text = steps_of(path).get(step, "") if os.path.exists(path) else ""
        missing = [ph for ph in phrases if not re.search(ph, text)]
        asked = text.count("```question")
        check(f"§11.6 point '{what}': lesson {lesson} step {step} has it ({questions}+ questions)",
              text and not missing and asked >= questions,
              f"missing {missing}, {asked} questions" if text else "no such step")

finish()

"""Every lesson as a Jupyter notebook (attn notebook N --lang L), run by nbclient on the attn kernel.

Usage: python3 tests/jupyter_lessons.py ATTN

For every lesson in en, ja and zh:
  1. `attn notebook NAME --lang L` writes JSON that json and nbformat read and validate, on the attn kernel; its code
     cells are the lesson's statements in order and one question cell per question (read from the lesson file here,
     not from attn);
  2. each question cell gets, before the model answer, one cell per `wrong:` line of the lesson; the notebook runs
     headless (nbclient) and passes; every statement's output (stream, result, figure summary, error) is the output
     the lesson file in L shows (the kernel speaks the notebook's language from its first question cell on); every wrong answer ends in WrongAnswer with the lesson's explanation (in L);
  3. forbid: a shortcut that reads a forbidden name for the right value ([answer, NAME][0]) is rejected in the
     notebook with the explanation the terminal lesson gives for the same line (`attn lesson`, jump to the step).
Plus (ATTN_TEST_EDGE_ONLY=1 runs these alone): a hostile lesson (quotes, backslashes, control characters, </script>, HTML, bytes that are not UTF-8) still
gives valid JSON whose Markdown renders as text. The last line is 'N passed, N failed'."""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "ref"))
from refcheck import ATTN, finish  # noqa: E402
from refcheck import check as _check  # noqa: E402


def check(name, ok, detail=""):
    """refcheck's check, returning whether it passed."""
    ok = bool(ok)
    _check(name, ok, detail)
    return ok

TMP = tempfile.mkdtemp(prefix="attn-jupyter-lessons-")
for var, sub in (("JUPYTER_PATH", "share"), ("JUPYTER_DATA_DIR", "data"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                 ("JUPYTER_CONFIG_DIR", "config"), ("IPYTHONDIR", "ipython")):
    os.environ[var] = os.path.join(TMP, sub)
    os.makedirs(os.environ[var], exist_ok=True)
os.environ["JUPYTER_PLATFORM_DIRS"] = "1"
os.environ["XDG_STATE_HOME"] = os.path.join(TMP, "state")     # the terminal lessons' progress
os.environ.pop("DISPLAY", None)
subprocess.run([sys.executable, "-m", "attn_kernel.install", "--dest", os.environ["JUPYTER_PATH"], "--attn", ATTN,
                "--pythonpath", os.path.join(ROOT, "jupyter")], check=True, stdout=subprocess.DEVNULL,
               env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "jupyter")))

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402
from nbclient.exceptions import CellExecutionError  # noqa: E402

LANGS = ("en", "ja", "zh")
LESSONS = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "lessons")) if re.match(r"\d\d-.*\.md$", f))


def arrow(v):
    """(before, after) of ' -> ' outside quotes, as lessons/README.md writes wrong: and forbid: lines."""
    quote, i = None, 0
    while i + 4 <= len(v):
        c = v[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif v[i:i + 4] == " -> ":
            return v[:i].strip(), v[i + 4:].strip()
        i += 1
    return v.strip(), None


def read_lesson(path):
    """The lesson file's items in order: ('run', statement, expected output) and ('question', dict), each with the
    step id it is in."""
    items, step, block, cur, q = [], None, None, None, None
    for line in open(path, encoding="utf-8").read().split("\n"):
        if block is None:
            m = re.match(r"## (.*?)(?:\s*\{#([^}]*)\})?\s*$", line)
            if m and line.startswith("## "):
                step = m.group(2) or m.group(1).strip().lower()
            elif line.startswith("```attn"):
                block = "attn"
            elif line.startswith("```question"):
                block, q = "question", {"answers": [], "wrong": [], "forbid": [], "forbid_why": None, "step": step,
                                        "before": [it[0] for it in items if it[-1] == step or
                                                   (it[0] == "question" and it[1]["step"] == step)]}
            continue
        if line.startswith("```"):
            if block == "question":
                items.append(("question", q))
            block, cur = None, None
            continue
        if block == "attn":
            if line.startswith("attn> "):
                cur = ["run", line[6:], [], step, step]
                items.append(cur)
            elif re.match(r"  \.\.\.>( |$)", line) and cur and not cur[2]:
                cur[1] += "\n" + line[7:]
            elif cur:
                cur[2].append(line)
        else:
            key, _, val = line.partition(":")
            if key == "answer":
                q["answers"].append(val.strip())
            elif key == "hint":
                q.setdefault("hints", []).append(val.strip())
            elif key == "wrong":
                q["wrong"].append(arrow(val))
            elif key == "forbid":
                names, why = arrow(val)
                q["forbid"] += [n.strip() for n in names.split(",")]
                q["forbid_why"] = why or q["forbid_why"]
    return [("run", it[1], "\n".join(it[2]), it[3]) if it[0] == "run" else it for it in items]


def write_notebook(name, lang):
    r = subprocess.run([ATTN, "notebook", name, "--lang", lang], capture_output=True)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def cell_text(cell):
    """What a code cell showed, as the prompt prints it: streams, results, figure summaries, errors."""
    out = []
    for o in cell.get("outputs", []):
        if o.output_type == "stream":
            out.append(o.text)
        elif o.output_type in ("execute_result", "display_data"):
            out.append(o.data.get("text/plain", "") + "\n")
        elif o.output_type == "error":
            out.append("\n".join(o.traceback) + "\n")
    return "".join(out)


NUM = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+")


def same_output(got, want):
    """As attn --check compares: the same text, numbers equal to the precision the lesson writes them with; a figure's
    number is the path's (<figure #: ...>)."""
    got = re.sub(r"<figure \d+:", "<figure #:", got.rstrip("\n"))
    # gnuplot's warnings on drawing a figure are passed on (figure.c); the lesson's summaries draw nothing
    got = re.sub(r"(?m)^gnuplot: .*warning: .*\n?", "", got).rstrip("\n")
    # an inline figure's summary also gives the axes' ranges (", x 0..100, y 0..0.8415"), which the lesson leaves out
    got = re.sub(r", [xy] -?[\d.e+-]+\.\.-?[\d.e+-]+", "", got)
    want = re.sub(r"<figure \d+:", "<figure #:", want.rstrip("\n"))
    if got == want:
        return True
    gt, wt = NUM.split(got), NUM.split(want)
    gn, wn = NUM.findall(got), NUM.findall(want)
    if gt != wt or len(gn) != len(wn):
        return False
    for g, w in zip(gn, wn):
        if "." not in w:
            if g != w:
                return False
            continue
        decimals = len(w.split(".")[1].split("e")[0])
        scale = 10 ** int(w.split("e")[1]) if "e" in w else 1
        if abs(float(g) - float(w)) > 1.01 * 10 ** -decimals * scale:
            return False
    return True


def squeeze(s):
    return re.sub(r"\s+", "", s or "").rstrip(".。")


def error_of(cell):
    for o in cell.get("outputs", []):
        if o.output_type == "error":
            return o.ename, "\n".join(o.traceback)
    return None, ""


def run_notebook(nb, cwd):
    client = NotebookClient(nb, kernel_name="attn", timeout=300, startup_timeout=60,
                            resources={"metadata": {"path": cwd}})
    try:
        client.execute()
        return None
    except CellExecutionError as e:
        return str(e)[:600]


def lesson_notebook(name, lang):
    tag = "%s/%s" % (lang, name)
    rc, data, err = write_notebook(name, lang)
    if not check("%s: attn notebook exits 0 with nothing on stderr" % tag, rc == 0 and not err, err[:300]):
        return
    try:
        json.loads(data.decode("utf-8"))
        nb = nbformat.reads(data.decode("utf-8"), as_version=4)
        nbformat.validate(nb)
        valid = ""
    except Exception as e:  # noqa: BLE001 - any failure to read is the finding
        valid = "%s: %s" % (type(e).__name__, e)
    if not check("%s: valid nbformat 4 JSON" % tag, not valid, valid[:300]):
        return
    check("%s: on the attn kernel" % tag, nb.metadata.get("kernelspec", {}).get("name") == "attn")
    items = read_lesson(os.path.join(ROOT, "lessons", name + ".md"))
    local = os.path.join(ROOT, "lessons", lang, name + ".md") if lang != "en" else None
    local_items = read_lesson(local) if local and os.path.exists(local) else items
    questions = [q for kind, q, *_ in items if kind == "question"]
    local_questions = [q for kind, q, *_ in local_items if kind == "question"]
    local_runs = [it for it in local_items if it[0] == "run"]
    code = [c for c in nb.cells if c.cell_type == "code"]
    want = ["%%question" if it[0] == "question" else it[1] for it in items]
    got = [c.source.split(" ")[0] if c.source.startswith("%%question") else c.source for c in code]
    check("%s: code cells are the lesson's statements and questions, in order" % tag, got == want,
          "first difference: %r" % (next(((g, w) for g, w in zip(got, want) if g != w), (len(got), len(want))),))
    if got != want:
        return
    # the answers filled in, each question preceded by its wrong answers
    cells, wrong_cells, runs, answered, hint_cells, solved = [], [], [], [], [], []
    qi = idx = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            cells.append(cell)
            continue
        kind, *it = items[idx]
        idx += 1
        if kind == "run":
            cells.append(cell)
            # what the lesson in L shows: after the first question cell the kernel speaks the notebook's language
            # (the tables of complexity(), rotation() ... are translated), before it the kernel's (no statement
            # before a lesson's first question prints attn's prose)
            lr = local_runs[len(runs)] if len(runs) < len(local_runs) else None
            runs.append((cell, it[0], lr[2] if lr and lr[1] == it[0] else it[1]))
            continue
        q, lq = questions[qi], local_questions[qi] if qi < len(local_questions) else questions[qi]
        qi += 1
        header = cell.source.split("\n")[0]
        for k, (expr, _) in enumerate(q["wrong"]):
            w = copy.deepcopy(cell)
            w.id = "%s-w%d" % (cell.id, k)
            w.source = header + "\n" + expr
            w.metadata["tags"] = ["raises-exception"]
            # the explanation of the first wrong: line with this value is shown: this line's or an earlier one's
            whys = [lw[1] for lw in lq["wrong"][:k + 1] if lw[1]]
            wrong_cells.append((w, expr, whys))
            cells.append(w)
        if q["forbid"]:
            f = copy.deepcopy(cell)
            f.id = cell.id + "-f"
            ans = q["answers"][0]
            m = re.match(r"(\w+)\s*=\s*(.*)$", ans, re.S)
            shortcut = ("%s = [%s, %s][0]" % (m.group(1), m.group(2), q["forbid"][0]) if m
                        else "[%s, %s][0]" % (ans, q["forbid"][0]))
            f.source = header + "\n" + shortcut
            f.metadata["tags"] = ["raises-exception"]
            FORBIDS.append((tag, name, lang, q, shortcut, f, lq["forbid_why"]))
            cells.append(f)
        if lq.get("hints"):
            h = copy.deepcopy(cell)
            h.id = cell.id + "-h"
            h.source = header + "\nhint"
            hint_cells.append((h, lq["hints"][0]))
            cells.append(h)
        if qi == len(questions):            # the last question: "solution" shows the answer and runs it
            cell.source = header + "\nsolution"
            solved.append((cell, q["answers"][0]))
        else:
            cell.source = header + "\n" + q["answers"][0]
            answered.append(cell)
        cells.append(cell)
    nb.cells = cells
    with tempfile.TemporaryDirectory(prefix="nb-", dir=TMP) as cwd:
        failed = run_notebook(nb, cwd)
    check("%s: runs top to bottom with the model answers (nbclient)" % tag, failed is None, failed)
    bad = [(src, cell_text(c), exp) for c, src, exp in runs if not same_output(cell_text(c), exp)]
    check("%s: %d statements print what the lesson shows" % (tag, len(runs)), not bad,
          "%d differ; first: %r printed %r, the lesson shows %r" % ((len(bad),) + bad[0]) if bad else "")
    wrongs_bad = []
    for w, expr, whys in wrong_cells:
        ename, text = error_of(w)
        own = lq_why = whys[-1] if whys else None
        if ename != "WrongAnswer" or (own and not any(squeeze(y) in squeeze(text) for y in whys)):
            wrongs_bad.append((expr, ename, text[:200], lq_why))
    check("%s: %d wrong answers end in WrongAnswer with the lesson's explanation" % (tag, len(wrong_cells)),
          not wrongs_bad and wrong_cells or not wrong_cells,
          "%d not; first: %r gave %s %r, expected %r" % ((len(wrongs_bad),) + wrongs_bad[0]) if wrongs_bad else "")
    hints_bad = [(cell_text(h)[:200], want) for h, want in hint_cells
                 if error_of(h)[0] or squeeze(want) not in squeeze(cell_text(h))]
    check("%s: 'hint' in %d question cells shows the lesson's first hint" % (tag, len(hint_cells)),
          hint_cells and not hints_bad, hints_bad[:1])
    sol_bad = [(cell_text(c)[:200], a) for c, a in solved if error_of(c)[0] or squeeze(a) not in squeeze(cell_text(c))]
    check("%s: 'solution' shows the model answer and runs it" % tag, solved and not sol_bad, sol_bad[:1])
    right = [c for c in answered if not error_of(c)[0] and re.search(r"^(Right\.|正解です|正确)", cell_text(c), re.M)]
    check("%s: %d model answers are right" % (tag, len(answered)), len(right) == len(answered),
          "; ".join(cell_text(c)[:200] for c in answered if c not in right)[:400])


FORBIDS = []


def terminal_feedback(name, lang, step, before, line):
    """What the terminal lesson says to `line` typed at the question of `step` (attn lesson, jump STEP)."""
    keys = "".join("\n" if kind == "run" else "skip\n" for kind in before)
    r = subprocess.run([ATTN, "lesson", name, "--lang", lang], input="jump %s\n%s%s\nquit\n" % (step, keys, line),
                       capture_output=True, text=True, timeout=120)
    return r.stdout


def forbid_checks():
    for tag, name, lang, q, shortcut, cell, why in FORBIDS:
        ename, text = error_of(cell)
        term = terminal_feedback(name, lang, q["step"], q["before"], shortcut)
        m = re.search(r"^(Not yet: |まだです: |还不对：).*", term, re.M)
        term_line = m.group(0) if m else ""
        check("%s: forbid: %r is rejected in the notebook as at the terminal" % (tag, shortcut),
              ename == "WrongAnswer" and term_line and squeeze(term_line) in squeeze(text)
              and (not why or squeeze(why) in squeeze(text)),
              "notebook %s %r; terminal %r" % (ename, text[:200], term_line[:200]))


def hostile():
    """A lesson with quotes, backslashes, </script>, HTML, Markdown math and entities, and a byte that is not UTF-8 in
    its prose, prompt, hint and code; and one with a control character (which attn refuses in any lesson)."""
    d = os.path.join(TMP, "hostile", "lessons")
    os.makedirs(d, exist_ok=True)
    text = ('# Lesson 1: "Quotes" \\ and </script><script>alert(1)</script>\nSection: §1\n\n'
            'Intro with <b>bold</b> &amp; $x$ and a bad byte @@.\n\n'
            '## Step "one" {#one}\n\nSee `a <tag> in code` and <img src=x onerror=alert(1)>.\n\n'
            'A code span over lines `a\n<div style="color:red">DIV</div>\n` b.\n\n'
            'A picture from elsewhere ![pixel](http://127.0.0.1:9/pixel.png) loads nothing.\n\n'
            '    indented <i>code</i> \\ "q"\n\n'
            '```attn\nattn> s = "</script>\\\\ \\x1b"\nattn> len(s)\n12\n```\n\n'
            '```question\nWhat is 1 + 1 "<b>"?\nanswer: 1 + 1\nhint: <script>\nwrong: 3 -> no "<i>"\n```\n')
    path = os.path.join(d, "01-hostile.md")
    with open(path, "wb") as f:
        f.write(text.encode("utf-8").replace(b"@@", b"\xff\xfe"))
    r = subprocess.run([ATTN, "notebook", "1"], capture_output=True, env=dict(os.environ, ATTN_LESSONS=d))
    raw = r.stdout
    try:
        doc = json.loads(raw.decode("utf-8"))
        nbformat.validate(nbformat.reads(raw.decode("utf-8"), as_version=4))
        ok = ""
    except Exception as e:  # noqa: BLE001
        ok, doc = str(e), None
    check("hostile lesson: valid JSON and nbformat", r.returncode == 0 and not ok, ok or r.stderr[:300])
    if not doc:
        return
    md = "\n".join(c["source"] for c in doc["cells"] if c["cell_type"] == "markdown")
    check("hostile lesson: '</' never appears raw in the file", b"</" not in raw)
    outside = re.sub(r"```.*?```|`[^`]*`", "", md, flags=re.S)
    check("hostile lesson: no HTML tag in the Markdown outside code", not re.search(r"<[A-Za-z/!?]", outside), outside[:400])
    check("hostile lesson: code spans and indented code kept literally",
          "`a <tag> in code`" in md and "indented <i>code</i> \\ \"q\"" in md, md)
    check("hostile lesson: math, entities and backslashes escaped",
          "\\$x\\$" in md and "&amp;amp;" in md and "\\\\ and" in md, md[:300])
    check("hostile lesson: a byte that is not UTF-8 shows as \\xff", "\\\\xff\\\\xfe" in md, md[:300])
    code = [c["source"] for c in doc["cells"] if c["cell_type"] == "code"]
    check("hostile lesson: code cells keep the statement's text", code[0] == 's = "</script>\\\\ \\x1b"', code[:1])
    try:
        from nbconvert import HTMLExporter
    except ImportError:
        return
    html, _ = HTMLExporter().from_notebook_node(nbformat.reads(raw.decode("utf-8"), as_version=4))
    check("hostile lesson: nbconvert's HTML holds none of the lesson's elements",
          "<img src=x" not in html and "<script>alert" not in html and "<b>bold" not in html and "<div style" not in html
          and "src=\"http://127.0.0.1:9/pixel.png" not in html, "")
    check("hostile lesson: a code span over lines is one line (a line of it that starts with <div would be an HTML block)",
          not re.search(r"^\s*<", md, flags=re.M), md)
    with open(path, "wb") as f:
        f.write(text.replace("Intro", "Intro \x1b]0;title\x07").encode("utf-8"))
    r = subprocess.run([ATTN, "notebook", "1"], capture_output=True, env=dict(os.environ, ATTN_LESSONS=d))
    check("hostile lesson: a control character is refused in one line, and no notebook is written",
          r.returncode == 2 and r.stdout == b"" and r.stderr.count(b"\n") == 1 and b"control character" in r.stderr,
          r.stderr[:300])


def bad_headers():
    """A stranger's notebook: a question cell that names a path, a lesson or a step there is not, ends in ValueError
    and reads nothing (lessons are found by name in attn's lesson folder only)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "attn", "display_name": "attn", "language": "python"}
    heads = ["%%question ../../../etc/passwd one 1\n1", "%%question /etc/passwd one 1\n1",
             "%%question 01-self-attention no-such-step 1\n1", "%%question 99-nothing scores 1\n1",
             "%%question 01-self-attention scores 1 --lang fr\n1", "%%question\n1",
             "%%question own.md one 1\n1"]     # a lesson file beside the notebook (lesson_find took NAME.md as a path)
    for h in heads:
        c = nbformat.v4.new_code_cell(h)
        c.metadata["tags"] = ["raises-exception"]
        nb.cells.append(c)
    blank_above = nbformat.v4.new_code_cell("\n\n%%question 01-self-attention scores 1 --lang en\n")
    blank_above.metadata["tags"] = ["raises-exception"]
    nb.cells.append(nbformat.v4.new_code_cell("1 + 1"))
    nb.cells.append(blank_above)
    with tempfile.TemporaryDirectory(prefix="nb-", dir=TMP) as cwd:
        with open(os.path.join(cwd, "own.md"), "w") as f:
            f.write("# Own\nSection: 1\n\n## One {#one}\n\n```question\nWhat is 1?\nanswer: 1\n```\n")
        failed = run_notebook(nb, cwd)
    nb.cells.pop()
    check("a question cell with blank lines above its header is one", error_of(blank_above)[0] == "NoAnswer",
          error_of(blank_above))
    check("bad headers: the notebook runs on", failed is None, failed)
    for c in nb.cells[:-1]:
        ename, text = error_of(c)
        check("bad header %r: ValueError, nothing read" % c.source.split("\n")[0], ename == "ValueError"
              and "root:" not in text, (ename, text[:200]))
    check("bad headers: the kernel lives", cell_text(nb.cells[-1]).strip() == "2", cell_text(nb.cells[-1]))


def own_lesson(sub, name, text):
    """A lesson of the test's own in its own folder (ATTN_LESSONS); the folder."""
    d = os.path.join(TMP, sub, "lessons")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".md"), "w", encoding="utf-8") as f:
        f.write(text)
    return d


def run_with_lessons(nb, d):
    """nb run by nbclient with its kernel finding lessons in d."""
    was = os.environ.get("ATTN_LESSONS")
    os.environ["ATTN_LESSONS"] = d
    try:
        with tempfile.TemporaryDirectory(prefix="nb-", dir=TMP) as cwd:
            return run_notebook(nb, cwd)
    finally:
        if was is None:
            os.environ.pop("ATTN_LESSONS", None)
        else:
            os.environ["ATTN_LESSONS"] = was


def new_nb(sources):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "attn", "display_name": "attn", "language": "python"}
    for src in sources:
        c = nbformat.v4.new_code_cell(src)
        c.metadata["tags"] = ["raises-exception"]
        nb.cells.append(c)
    return nb


def step_id_with_space():
    """{#a b}: a step id the notebook's header could not name (nor `jump` at the terminal): the loader refuses it in
    one line with the file and line, and no notebook is written."""
    d = own_lesson("space-id", "01-space", "# Space\nSection: 1\n\n## One {#a b}\n\n```question\nWhat is 1?\n"
                   "answer: 1\n```\n")
    r = subprocess.run([ATTN, "notebook", "1"], capture_output=True, env=dict(os.environ, ATTN_LESSONS=d))
    err = r.stderr.decode("utf-8", "replace")
    check("step id with a space: refused in one line with file:line, no notebook", r.returncode == 2
          and r.stdout == b"" and err.count("\n") == 1 and "01-space.md:4:" in err and "'a b'" in err, err[:300])
    r = subprocess.run([ATTN, "lesson", "1"], capture_output=True, input=b"", env=dict(os.environ, ATTN_LESSONS=d))
    err = r.stderr.decode("utf-8", "replace")
    check("step id with a space: the terminal lesson refuses it the same way", "01-space.md:4:" in err
          and "'a b'" in err, err[:300])


def long_header_hints():
    """A header over 300 bytes (long lesson and step ids, trailing blanks): hints count on across runs of the cell."""
    lesson, step = "01-" + "l" * 150, "s" * 150
    d = own_lesson("long", lesson, "# Long\nSection: 1\n\n## One {#%s}\n\n```question\nWhat is 1?\nanswer: 1\n"
                   "hint: first hint\nhint: second hint\n```\n" % step)
    header = "%%%%question %s %s 1 --lang en    " % (lesson, step)
    nb = new_nb([header + "\nhint", header + "\nhint"])
    failed = run_with_lessons(nb, d)
    a, b = cell_text(nb.cells[0]), cell_text(nb.cells[1])
    check("a header of %d bytes: the second 'hint' shows hint 2" % len(header), failed is None
          and "Hint 1 of 2: first hint" in a and "Hint 2 of 2: second hint" in b, (failed, a[:200], b[:200]))


def header_numbers():
    """The question number is read with range checks: one past int's range (it wrapped to 1), a huge one, 0, -1,
    1x and 1.5 are ValueErrors that quote what was written."""
    bad = ["4294967297", "99999999999", "0", "-1", "1x", "1.5"]
    nb = new_nb(["%%%%question 01-self-attention scores %s --lang en\n1" % n for n in bad])
    failed = run_with_lessons(nb, os.path.join(ROOT, "lessons"))
    check("header numbers: the notebook runs on", failed is None, failed)
    for n, c in zip(bad, nb.cells):
        ename, text = error_of(c)
        check("header number %s: ValueError quoting it" % n, ename == "ValueError" and n in text, (ename, text[:300]))


def fences_in_prose():
    """``` and ~~~ blocks in the prose: code in the Markdown (unescaped inside), and a fence of the lesson's that
    tries to close the notebook's early (``` inside ~~~, a longer ~~~~) injects no HTML."""
    text = ("# Fences\nSection: 1\n\n## One {#one}\n\nTilde:\n\n~~~python\nif a < b and c & d: pass\n```\n"
            "<img src=x onerror=alert(1)>\n~~~\n\nBack:\n\n```\nx <= y\n~~~~\n<b>bold</b>\n```\n\n"
            "Longer:\n\n~~~~\nq > r\n~~~\n<i>it</i>\n~~~~\n\nAfter <u>u</u>.\n\n"
            "```question\nWhat is 1?\nanswer: 1\n```\n")
    d = own_lesson("fences", "01-fences", text)
    r = subprocess.run([ATTN, "notebook", "1"], capture_output=True, env=dict(os.environ, ATTN_LESSONS=d))
    try:
        raw = r.stdout.decode("utf-8")
        doc = nbformat.reads(raw, as_version=4)
        nbformat.validate(doc)
    except Exception as e:  # noqa: BLE001
        check("fences: a valid notebook", False, "%s %s" % (e, r.stderr[:300]))
        return
    md = "\n".join(c.source for c in doc.cells if c.cell_type == "markdown")
    check("fences: ~~~ content is code, unescaped", "\nif a < b and c & d: pass\n" in md
          and "&lt;" not in md.split("After")[0] and "&amp;" not in md, md)
    check("fences: ``` content is code, unescaped, on its own lines", "\nx <= y\n~~~~\n<b>bold</b>\n" in md, md)
    check("fences: prose after the fences still escaped", "After &lt;u&gt;u&lt;/u&gt;." in md, md)
    try:
        from nbconvert import HTMLExporter
    except ImportError:
        return
    html, _ = HTMLExporter().from_notebook_node(doc)
    check("fences: nbconvert's HTML holds none of the lesson's elements", "<img src=x" not in html
          and "<b>bold" not in html and "<i>it" not in html and "<u>u" not in html, "")
    check("fences: nbconvert shows the code as it is written", "a &lt; b and c &amp;amp; d" not in html
          and ("a &lt; b" in html or "a</span> <span class=\"o\">&lt;</span>" in html), "")


def forbid_through_names():
    """forbid: follows names assigned in earlier cells, as LessonSources does at the terminal: a = Y[0, 2] in one
    cell, then `a` at a question asked without Y, is refused in the notebook as at the terminal; b = 1 + 1, then b,
    is right."""
    d = own_lesson("forbid", "01-forbid", "# Forbid\nSection: 1\n\n## One {#one}\n\n```attn\n"
                   "attn> Y = torch.arange(6).reshape(2, 3)\n```\n\n```question\nWhat is 2, without Y?\n"
                   "answer: 1 + 1\nforbid: Y -> work it out without Y\n```\n")
    header = "%%question 01-forbid one 1 --lang en"
    nb = new_nb(["Y = torch.arange(6).reshape(2, 3)", "a = Y[0, 2]", header + "\na",
                 "def f():\n    return Y[0, 2]", header + "\nf()", "b = 1 + 1", header + "\nb"])
    failed = run_with_lessons(nb, d)
    r = subprocess.run([ATTN, "lesson", "1"], input="\na = Y[0, 2]\na\nquit\n", capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, ATTN_LESSONS=d))
    check("forbid through a name: the terminal refuses it (the reference)", "work it out without Y" in r.stdout,
          r.stdout[-400:])
    for i in (2, 4):
        ename, text = error_of(nb.cells[i])
        check("forbid through a name: %r after %r refused in the notebook" % (nb.cells[i].source.split("\n")[1],
              nb.cells[i - 1].source), ename == "WrongAnswer" and "work it out without Y" in text, (ename, text[:300]))
    check("forbid through a name: b = 1 + 1, then b, is right", error_of(nb.cells[6])[0] is None
          and "Right." in cell_text(nb.cells[6]), (failed, cell_text(nb.cells[6])[:200]))


def edge_cases():
    step_id_with_space()
    long_header_hints()
    header_numbers()
    fences_in_prose()
    forbid_through_names()


def main():
    hostile()
    bad_headers()
    edge_cases()
    for lang in LANGS if not os.environ.get("ATTN_TEST_EDGE_ONLY") else ():
        for name in LESSONS:
            lesson_notebook(name, lang)
    forbid_checks()
    if not os.environ.get("ATTN_KEEP_TEST_FILES"):
        shutil.rmtree(TMP, ignore_errors=True)
    try:
        finish()
    except SystemExit as e:          # nbclient's exit hooks would print after the summary line, which must be last
        sys.stdout.flush()
        os._exit(e.code)


if __name__ == "__main__":
    main()

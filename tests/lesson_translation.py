#!/usr/bin/python3
"""tests/lesson_translation.py - scripts/lesson-translation (status, update, translated) on copies of the lessons
in temporary git repositories (lessons/ itself is never touched).

- update keeps translated text byte for byte (no re-wrapping of Japanese or Chinese paragraphs and prompts) and
  never splits a question's field line (answer:, accept:, wrong:, forbid:, hint:, tolerance:);
- status decides by content (the English each segment was translated from, recorded), not by the order of
  commits: an English paragraph changed in the same commit as its translation, or before a later fix of the
  translation, is reported behind.
One line per failure, then 'N passed, N failed'."""
import difflib, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# the attn that update records a translation's outputs with (the tools' prose in its language): the one under test
ATTN = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "attn")
FIELD = re.compile(r"^(answer|accept|wrong|forbid|hint|tolerance):")
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL lesson_translation: {name}" + (f": {detail}" if detail else ""))


class Repo:
    """A temporary git repository holding a copy of scripts/lesson-translation and the given lesson files."""

    def __init__(self, files):
        self.dir = tempfile.mkdtemp(prefix="attn-lt-")
        os.makedirs(os.path.join(self.dir, "scripts"))
        shutil.copy(os.path.join(ROOT, "scripts", "lesson-translation"), os.path.join(self.dir, "scripts"))
        for rel, text in files.items():
            self.write(rel, text)
        self.git("init", "-q")
        self.commit("start")

    def path(self, rel):
        return os.path.join(self.dir, rel)

    def write(self, rel, text):
        os.makedirs(os.path.dirname(self.path(rel)), exist_ok=True)
        with open(self.path(rel), "w", encoding="utf-8") as f:
            f.write(text)

    def read(self, rel):
        with open(self.path(rel), encoding="utf-8") as f:
            return f.read()

    def git(self, *args):
        subprocess.run(["git", "-C", self.dir, "-c", "user.name=t", "-c", "user.email=t@t"] + list(args),
                       check=True, capture_output=True)

    def commit(self, msg):
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", msg)

    def tool(self, *args):
        r = subprocess.run([sys.executable, self.path("scripts/lesson-translation")] + list(args), cwd=self.dir,
                           capture_output=True, text=True, timeout=120, env=dict(os.environ, ATTN=ATTN))
        return r.returncode, r.stdout + r.stderr

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


EN = """# Lesson 1: A test
Section: §11.6

The first paragraph, in English, long enough to be wrapped at some width if a tool wanted to wrap it.

## The step {#step}

Paragraph A of the step.

```question
What is 1 + 1? Type the expression.
answer: 1 + 1
accept: 2 * 1
hint: Add the two numbers.
wrong: 3 -> that is one too many
forbid: X, Y -> work it out from the numbers in the question alone, without X or Y, as the question says it
tolerance: 1e-4
```

Paragraph B of the step.

Paragraph C of the step.
"""

# hand-wrapped at a width the tool never uses (about 20 columns), and long field lines
JA = """# レッスン 1: テスト
Section: §11.6

最初の段落。ツール
が折り返す幅とは
違う幅で手で折り
返してある。

## ステップ {#step}

ステップの段落 A。

```question
1 + 1 はいくつか?
式を入力せよ。
answer: 1 + 1
accept: 2 * 1
hint: 2つの数を足す。足し算の答えは式で入力する。ここは長いヒントで、72 桁を超える行になっている。
wrong: 3 -> 1つ多すぎます
forbid: X, Y -> X と Y を使わずに、問題の数だけから計算してください。問題がそう言っています。これは 72 桁を超える説明です
tolerance: 1e-4
```

ステップの段落 B。

ステップの段落 C。
"""


def test_update_keeps_translation():
    """update on a current translation: every translated line byte for byte; fields whole."""
    r = Repo({"lessons/01-test.md": EN, "lessons/ja/01-test.md": JA})
    try:
        r.tool("translated", "lessons/ja/01-test.md")
        rc, out = r.tool("update", "lessons/ja/01-test.md")
        got = r.read("lessons/ja/01-test.md")
        check("update of an up-to-date translation leaves it byte-identical", rc == 0 and got == JA,
              out.strip() + " | " + " / ".join(difflib.unified_diff(JA.split("\n"), got.split("\n"), n=0, lineterm=""))[:600])

        # the English changes its prompt, paragraph B, a wrong: expression and the forbidden names: the rest of the
        # translation stays as it was, those segments are marked or take the English's code, no field is split
        en2 = EN.replace("What is 1 + 1?", "What is one plus one?").replace("Paragraph B of", "Paragraph B, changed, of")
        en2 = en2.replace("wrong: 3 ->", "wrong: 1 + 2 ->").replace("forbid: X, Y ->", "forbid: X, Y, Z ->")
        r.write("lessons/01-test.md", en2)
        r.commit("English changed")
        rc, out = r.tool("update", "lessons/ja/01-test.md")
        got = r.read("lessons/ja/01-test.md").split("\n")
        want = JA.split("\n")
        for kept in ("最初の段落。ツール", "が折り返す幅とは", "違う幅で手で折り", "返してある。", "ステップの段落 A。",
                     "ステップの段落 C。", "hint: 2つの数を足す。足し算の答えは式で入力する。ここは長いヒントで、72 桁を超える行になっている。"):
            check(f"after an English change, the unchanged translation line {kept[:12]!r} is kept", kept in got)
        check("a changed wrong: expression is copied, its translated explanation kept",
              "wrong: 1 + 2 -> 1つ多すぎます" in got, "\n".join(l for l in got if l.startswith("wrong")))
        forbid = "forbid: X, Y, Z -> " + JA.split("forbid: X, Y -> ")[1].split("\n")[0]
        check("a forbid: line stays one line: new names, its translated explanation whole", forbid in got,
              "\n".join(l for l in got if "forbid" in l or "72" in l))
        q = got[got.index("```question") + 1:]
        q = q[:q.index("```")]
        prompt = [l for l in q if not FIELD.match(l)]
        check("inside the question, every line is a field or the (marked) prompt",
              prompt == ["[TRANSLATE] What is one plus one? Type the expression."], repr(prompt))
        check("the changed paragraph is marked", "[TRANSLATE] Paragraph B, changed, of the step." in got)
        check("update says how many lines are marked", "2 line(s) marked" in out, out)
    finally:
        r.close()


def test_update_real_lessons():
    """Every lesson's translation, recorded as current, comes out of update with the same text (only blank lines,
    which are the English's layout, may differ) and with each of its field lines whole."""
    files = {}
    for d in ("", "ja", "zh"):
        for f in sorted(os.listdir(os.path.join(ROOT, "lessons", d))):
            if re.match(r"\d\d-.*\.md$", f):
                with open(os.path.join(ROOT, "lessons", d, f), encoding="utf-8") as h:
                    files[os.path.join("lessons", d, f)] = h.read()
    r = Repo(files)
    try:
        for rel in sorted(files):
            if os.path.dirname(rel) == "lessons":
                continue
            r.tool("translated", rel)
            rc, out = r.tool("update", rel)
            before, after = files[rel].split("\n"), r.read(rel).split("\n")
            changed = [l for l in difflib.unified_diff(before, after, n=0, lineterm="")
                       if l[:1] in "+-" and not l.startswith(("+++", "---")) and l[1:].strip()]
            check(f"update {rel}: its text byte for byte", rc == 0 and not changed, (out.strip() + " " + " | ".join(changed[:4]))[:500])
            lost = [l for l in before if FIELD.match(l) and l not in after]
            check(f"update {rel}: every field line whole", not lost, " | ".join(lost[:3])[:300])
    finally:
        r.close()


def status(r, rel="lessons/ja/01-test.md"):
    rc, out = r.tool("status", rel)
    return rc, out


def test_status_same_commit():
    """The English changes in the same commit as (another part of) its translation: still behind."""
    r = Repo({"lessons/01-test.md": EN, "lessons/ja/01-test.md": JA})
    try:
        r.tool("translated", "lessons/ja/01-test.md")
        r.commit("translation recorded")
        rc, out = status(r)
        check("a recorded translation of today's English is up to date", rc == 0 and "up to date" in out, out)

        r.write("lessons/01-test.md", EN.replace("Paragraph B of the step.", "Paragraph B of the step, rewritten."))
        r.write("lessons/ja/01-test.md", JA.replace("ステップの段落 A。", "ステップの段落 A (直した)。"))
        r.commit("English paragraph B and the translation's paragraph A in one commit")
        rc, out = status(r)
        check("same commit: the changed English paragraph is behind (exit 1)", rc == 1 and "Paragraph B of the step, rewritten." in out, out)
        check("same commit: only that paragraph is listed", "1 segment(s)" in out, out)

        # the translator translates it by hand and says so: up to date
        r.write("lessons/ja/01-test.md", r.read("lessons/ja/01-test.md").replace("ステップの段落 B。", "ステップの段落 B (書き直した)。"))
        rc, out = r.tool("translated", "lessons/ja/01-test.md")
        check("translated lists the segment it newly confirms", rc == 0 and "Paragraph B of the step, rewritten." in out, out)
        r.commit("B translated")
        rc, out = status(r)
        check("after translated, up to date", rc == 0 and "up to date" in out, out)

        # the English changes alone; later a commit fixes a typo elsewhere in the translation: still behind
        r.write("lessons/01-test.md", r.read("lessons/01-test.md").replace("Paragraph C of the step.", "Paragraph C, new."))
        r.commit("English paragraph C")
        r.write("lessons/ja/01-test.md", r.read("lessons/ja/01-test.md").replace("最初の段落。", "最初の段落:"))
        r.commit("typo in the translation")
        rc, out = status(r)
        check("a later commit of the translation does not make an earlier English change translated",
              rc == 1 and "Paragraph C, new." in out and "1 segment(s)" in out, out)

        # update marks it; translating the marked text is enough (the record was written by update)
        rc, out = r.tool("update", "lessons/ja/01-test.md")
        text = r.read("lessons/ja/01-test.md")
        check("update marks the segment behind", "[TRANSLATE] Paragraph C, new." in text, out)
        rc, out = status(r)
        check("a marked segment is behind", rc == 1 and "Paragraph C, new." in out, out)
        r.write("lessons/ja/01-test.md", text.replace("[TRANSLATE] Paragraph C, new.", "段落 C、新しい。"))
        rc, out = status(r)
        check("the marked segment translated: up to date", rc == 0 and "up to date" in out, out)
    finally:
        r.close()


def test_status_unrecorded():
    """Without a record, status never says 'up to date'; git history is only a hint, and a commit that changed the
    English with the translation counts as not translated."""
    r = Repo({"lessons/01-test.md": EN, "lessons/ja/01-test.md": JA})
    try:
        rc, out = status(r)
        check("no record: not up to date (exit 1), says how to record", rc == 1 and "no record" in out
              and "translated lessons/ja/01-test.md" in out, out)
        r.write("lessons/01-test.md", EN.replace("Paragraph A of the step.", "Paragraph A, new."))
        r.write("lessons/ja/01-test.md", JA.replace("ステップの段落 C。", "段落 C。"))
        r.commit("both")
        rc, out = status(r)
        check("no record, English and translation in one commit: the English change is listed",
              rc == 1 and "Paragraph A, new." in out and "1 segment(s)" in out, out)
    finally:
        r.close()


for t in (test_update_keeps_translation, test_update_real_lessons, test_status_same_commit, test_status_unrecorded):
    try:
        t()
    except Exception as e:                      # a crash of one test is its failure, the others still run
        check(t.__name__, False, f"{type(e).__name__}: {e}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

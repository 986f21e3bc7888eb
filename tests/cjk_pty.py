#!/usr/bin/python3
"""cjk_pty.py - attn at a real terminal (tmux, 80x24) as a Japanese or Chinese student meets it: Japanese and
Chinese typed at the prompt arrive whole (whatever the locale variables say), the caret under an error after
CJK text stands under the right character on screen, and a lesson is listed and run in Japanese (--lang ja) and
in Chinese (LANG=zh_CN.UTF-8) with its progress shared with English. Screen columns are counted with Python's unicodedata (East
Asian Wide/Fullwidth = 2), independently of attn. Each test starts its own tmux server (its own socket) and stops
only that server. Prints 'N passed, N failed'.
usage: cjk_pty.py ATTN_BINARY"""
import os, re, shutil, subprocess, sys, tempfile, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
from refcheck import ATTN, check, finish  # noqa: E402
from tmux_screen import Screen  # noqa: E402


def width(s):
    return sum(0 if unicodedata.combining(c) or c == "\u200b" else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def caret_case(lang_env, stmt, name):
    s = Screen(f"{ATTN} -q", {"LANG": lang_env})
    try:
        s.wait_for("attn>")
        s.send(stmt)
        t = s.wait_for("^")
        lines = t.split("\n")
        echo = [l for l in lines if l.startswith("attn> ") and name in l]
        check(f"LANG={lang_env}: the statement arrives whole at the prompt", bool(echo) and stmt in echo[0], t[:400])
        shown = [i for i, l in enumerate(lines) if l.startswith("  ") and stmt in l]
        if not shown or shown[0] + 1 >= len(lines) or "^" not in lines[shown[0] + 1]:
            check(f"LANG={lang_env}: a caret under the error", False, t[:600])
            return
        src, caret = lines[shown[0]], lines[shown[0] + 1]
        want = width(src[:src.index(name, src.index(stmt))])
        got = width(caret[:caret.index("^")])
        check(f"LANG={lang_env}: the caret stands under '{name}' (screen column {want})", got == want,
              f"caret at column {got}\n{src}\n{caret}")
    finally:
        s.close()


LESSON = {
    "": """# Lesson 1: Demo
Section: §11.6.1

A tiny lesson.

## Tokens {#tokens}

A tensor of ones.

```attn
attn> X = torch.ones((2, 3))
attn> X.shape
torch.Size([2, 3])
```

## Ask {#ask}

```question
What is the shape of X.T? Type the expression.
answer: X.T.shape
hint: A transpose swaps the two dimensions.
wrong: X.shape -> that is the shape of X itself
```
""",
    "ja": """# レッスン 1: デモ
Section: §11.6.1

小さなレッスン。

## トークン {#tokens}

1 が並んだテンソル。

```attn
attn> X = torch.ones((2, 3))
attn> X.shape
torch.Size([2, 3])
```

## 問題 {#ask}

```question
X.T の形は? 式を入力してください。
answer: X.T.shape
hint: 転置は2つの次元を入れ替える。
wrong: X.shape -> それは X 自身の形です
```
""",
    "zh": """# 第 1 课：演示
Section: §11.6.1

一个很小的课程。

## 标记 {#tokens}

全为 1 的张量。

```attn
attn> X = torch.ones((2, 3))
attn> X.shape
torch.Size([2, 3])
```

## 问题 {#ask}

```question
X.T 的形状是什么？请输入表达式。
answer: X.T.shape
hint: 转置交换两个维度。
wrong: X.shape -> 那是 X 本身的形状
```
""",
}


def lesson_walks():
    d = tempfile.mkdtemp()
    state = tempfile.mkdtemp()
    try:
        for lang, text in LESSON.items():
            os.makedirs(os.path.join(d, lang), exist_ok=True)
            open(os.path.join(d, lang, "01-demo.md"), "w", encoding="utf-8").write(text)
        env = {"ATTN_LESSONS": d, "LANG": "C.UTF-8"}
        # a Japanese student: --lang ja lists and runs the lesson in Japanese
        s = Screen(f"{ATTN} lesson --lang ja", env, state=state)
        t = s.wait_for("0/2 ステップ")
        check("attn lesson --lang ja lists Japanese titles", "レッスン一覧" in t and "  1  デモ" in t and "0/2 ステップ" in t, t[:500])
        s.close()
        s = Screen(f"{ATTN} lesson 1 --lang ja", env, state=state)
        t = s.wait_for("Enter で実行")
        check("ja: step header and instructions in Japanese", "== ステップ 1/2: トークン  [tokens] ==" in t and "1 が並んだテンソル。" in t, t[:600])
        s.send("")
        s.send("")
        t = s.wait_for("問題: X.T の形は?")
        check("ja: Enter runs the statement (output as in English)", "torch.Size([2, 3])" in t, t[-600:])
        s.send("X.shape")
        t = s.wait_for("まだです")
        check("ja: a wrong answer gets its translated explanation", "まだです: それは X 自身の形です。" in t, t[-600:])
        s.send("hint")
        t = s.wait_for("ヒント 1/1")
        check("ja: hint in Japanese (the command stays 'hint')", "ヒント 1/1: 転置は2つの次元を入れ替える。" in t, t[-600:])
        s.send("X.T.shape")
        t = s.wait_for("レッスン完了")
        check("ja: right answer, lesson complete", "正解です。" in t and "レッスン完了: レッスン 1: デモ。" in t, t[-600:])
        s.close()
        # a Chinese student: the language from LANG; progress made in Japanese is the same lesson's progress
        zh = dict(env, LANG="zh_CN.UTF-8")
        s = Screen(f"{ATTN} lesson", zh, state=state)
        t = s.wait_for("已完成")
        check("LANG=zh_CN.UTF-8 attn lesson lists Chinese titles", "课程列表" in t and "  1  演示" in t, t[:500])
        check("progress is kept per lesson whatever the language", "2/2 步 已完成" in t, t[:500])
        s.close()
        s = Screen(f"{ATTN} lesson 1", zh, state=state)
        t = s.wait_for("按 Enter")
        check("zh: step header in Chinese", "第 1 步（共 2 步）：标记" in t and "全为 1 的张量。" in t, t[:600])
        s.send("")
        s.send("")
        s.wait_for("问题：")
        s.send("X.T")
        t = s.wait_for("不评分")
        check("zh: a value of another kind is not graded, said in Chinese", "（不评分：答案应是 2 维的 torch.Size，而这是形状为 3×2 的张量）" in t, t[-600:])
        s.send("X.shape")
        t = s.wait_for("还不对")
        check("zh: a wrong answer gets its translated explanation", "还不对：那是 X 本身的形状。" in t, t[-600:])
        s.send("quit")
        t = s.wait_for("进度已保存")
        check("zh: quit saves progress, said in Chinese", "进度已保存" in t, t[-400:])
        s.close()
        # English again: the same progress, English titles
        s = Screen(f"{ATTN} lesson --lang en", dict(zh), state=state)
        t = s.wait_for("  1  Demo")
        check("--lang en overrides LANG", "Lessons (attn lesson N" in t and "  1  Demo" in t, t[:400])
        s.close()
    finally:
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(state, ignore_errors=True)


def real_lessons():
    """The chapter's own lessons: listed and started in Japanese (--lang ja) and Chinese (LANG=zh_CN.UTF-8)."""
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    env = {"ATTN_LESSONS": os.path.join(repo, "lessons"), "LANG": "C.UTF-8"}
    s = Screen(f"{ATTN} lesson --lang ja", env)
    t = s.wait_for("まとめ")
    check("attn lesson --lang ja lists the six lessons in Japanese",
          all(f"\n  {k}  " in t for k in range(1, 7)) and "  1  自己注意" in t and "ステップ" in t, t)
    wide = [l for l in t.split("\n") if width(l) > 80]
    check("the Japanese lesson list fits 80 columns", not wide, "\n".join(wide))
    s.close()
    s = Screen(f"{ATTN} lesson", dict(env, LANG="zh_CN.UTF-8"))
    t = s.wait_for("§11.6.4")
    check("LANG=zh_CN.UTF-8 attn lesson lists the six lessons in Chinese",
          all(f"\n  {k}  " in t for k in range(1, 7)) and "  1  自注意力" in t and "步" in t, t)
    s.close()
    # a Japanese student in lesson 1: runs the first step, makes the book's classic mistake, asks for a hint
    s = Screen(f"{ATTN} lesson 1", dict(env, LANG="ja_JP.UTF-8"))
    s.wait_for("Enter で実行")
    for _ in range(3):
        s.send("")
    t = s.wait_for("問題: バッチについてのスコア")
    check("ja: lesson 1's first step runs, the question is in Japanese", "torch.Size([1, 4, 3])" in t, t[-800:])
    s.send("scores = torch.bmm(X.transpose(1, 2), X) / math.sqrt(3)")
    t = s.wait_for("まだです")
    check("ja: the transposed scores get the Japanese explanation",
          "まだです: 転置が逆です: Xᵀ X は4個のトークンではなく3個の特徴を比べます。X Xᵀ を使ってください。" in
          re.sub(r"\r?\n *", "", t), t[-800:])     # the runner wraps feedback at 80 columns with a hanging indent
    s.send("hint")
    t = s.wait_for("ヒント 1/2")
    s.send("scores = torch.bmm(X, X.transpose(1, 2)) / math.sqrt(3)")
    t = s.wait_for("正解です")
    check("ja: hint, then the right answer", "ヒント 1/2: torch.bmm は" in t and "正解です。" in t, t[-800:])
    wide = [l for l in t.split("\n") if width(l) > 80]
    check("ja: every line of lesson 1 so far fits 80 columns (prose, feedback and hints wrapped)", not wide, "\n".join(wide))
    s.close()
    s = Screen(f"{ATTN} lesson 2", dict(env, LANG="zh_CN.UTF-8"))
    t = s.wait_for("第 1 步（共")
    check("zh: lesson 2 starts in Chinese", "第 2 课：CNN、RNN 与自注意力的比较" in t and "第 1 步（共" in t, t[:800])
    s.close()


def help_in_languages():
    """help NAME of a chapter function in Japanese and Chinese, wrapped to 80 display columns; English unchanged."""
    for lang, env, want in [("ja", {"LANG": "ja_JP.UTF-8"}, "単位円上の組"), ("zh", {"LC_ALL": "zh_CN.UTF-8"}, "在单位圆上画出"),
                            ("en", {"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "C"}, "The 2×2 matrix R")]:
        e = dict(os.environ, **env)
        r = subprocess.run([ATTN, "-c", "help('rotation')"], capture_output=True, text=True, env=e, timeout=30)
        lines = r.stdout.split("\n")
        check(f"help rotation in {lang}", want in r.stdout and all(width(l) <= 80 for l in lines), r.stdout + r.stderr)
    r = subprocess.run([ATTN, "-c", "s = '日本語のテキスト' + zz"], capture_output=True, text=True, timeout=30)
    check("an error's column counts screen columns (CJK = 2): -c:1:26", r.stderr.startswith("-c:1:26: error:"), r.stderr)
    r = subprocess.run([ATTN, "--lang", "zh", "-c", "help()"], capture_output=True, text=True, timeout=30)
    check("help() overview in Chinese", "本章的函数" in r.stdout and "masked_softmax" in r.stdout, r.stdout[:300])


if not shutil.which("tmux"):
    print("tmux is missing: run scripts/install-deps")
    check("tmux installed", False)
    finish()

caret_case("ja_JP.UTF-8", "s = '日本語のテキスト' + undefined_name", "undefined_name")
caret_case("zh_CN.UTF-8", "print('位置编码：', 自注意力)", "自注意力")
caret_case("C", "x = len('（自己注意）') + zz", "zz")
caret_case("", "label = 'Café 位置' ; y = nope", "nope")
lesson_walks()
real_lessons()
help_in_languages()
finish()

#!/usr/bin/python3
"""lesson_pty.py - a student and a teacher in a lesson at a real terminal (tmux, 80x24), checked on the screen as
they see it:
- Enter on the empty prompt runs the statement shown, and the screen shows it once, where the prompt was ("attn> d =
  32", then its output), never an empty "attn>" line above a second copy; the same for a teacher's Enter that shows
  a question's answer (the second Enter in a row: the first asks); after a teacher's detour the next statement is shown again above the prompt, not dim;
- an answer typed as a Python list or tuple of numbers (lesson 5, step 3: [u, v] where the answer is a tensor) is
  graded as the tensor it stands for: right values are right, in English, Japanese and Chinese; wrong values, the
  usual mistake (a wrong: line) and a list of the wrong length get the feedback a tensor would. The numbers typed
  are computed here with Python's math, from the book's formula (11.6.3), not taken from attn.
Prints 'N passed, N failed'.
usage: lesson_pty.py ATTN_BINARY"""
import math, os, re, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
from refcheck import ATTN, check, finish  # noqa: E402
from tmux_screen import DEADLINE, Screen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {"ATTN_LESSONS": os.path.join(ROOT, "lessons"), "LANG": "C.UTF-8"}

# (11.6.3) for d = 32, j = 2, δ = 3: the cosine column at i + δ is -sin(δω) p_{i,2j} + cos(δω) p_{i,2j+1}
OMEGA = 1 / 10000 ** (2 * 2 / 32)
U, V = -math.sin(3 * OMEGA), math.cos(3 * OMEGA)


def flat(t):
    """The screen's text with the runner's wrapping undone (feedback wraps at 80 columns with a hanging indent)."""
    return re.sub(r"\n +", " ", t)


def wait_flat(s, needle):
    """Waits until NEEDLE is on screen, wrapping undone (the whole sentence, not its first line); the text then."""
    end = time.time() + DEADLINE
    while time.time() < end:
        t = flat(s.text())
        if needle in t:
            return t
        time.sleep(0.1)
    return flat(s.text())


def lines_of(t):
    return [l.rstrip() for l in t.split("\n")]


def once_where_the_prompt_was(t, shown, stmt):
    """After the instruction line SHOWN, the next line is the statement at the prompt, and no empty prompt is left
    between them; the statement at a prompt appears once."""
    ls = lines_of(t)
    if shown not in ls:
        return False
    k = ls.index(shown)
    return k + 1 < len(ls) and ls[k + 1] == "attn> " + stmt and ls.count("attn> " + stmt) == 1


if not shutil.which("tmux"):
    check("tmux is installed (scripts/install-deps)", False)
    finish()

# a student presses Enter on the empty prompt: the statement stands where the prompt was, once
s = Screen(f"{ATTN} lesson 5", ENV)
try:
    s.wait_for("    d = 32")
    s.send("")
    t = s.wait_for("    P = d2l.PositionalEncoding")
    check("student: Enter shows the statement once, at the prompt where Enter was pressed",
          once_where_the_prompt_was(t, "    d = 32", "d = 32") and "attn>\nattn> d = 32" not in t, t[-700:])
    s.send("")
    t = s.wait_for("    j = 2")
    s.send("d + 1")              # a detour, then Enter: the statement after the detour's note, once
    s.wait_for("(a detour")
    s.send("")
    t = s.wait_for("    omega = ")
    check("student: a detour's output, then Enter: the statement once, after the note",
          "33\n(a detour: the step still waits for the statement above; Enter runs it)\nattn> j = 2\n" in t
          and lines_of(t).count("attn> j = 2") == 1, t[-700:])
    s.send("   ")                # white space only is Enter too
    t = s.wait_for("    omega\n")
    check("student: spaces then Enter: the statement once, no empty prompt left",
          once_where_the_prompt_was(t, "    omega = 1 / 10000 ** (2 * j / d)", "omega = 1 / 10000 ** (2 * j / d)"), t[-700:])

    # lesson 5, step 3: [u, v] where the answer is torch.tensor([u, v])
    s.send("jump derivation")
    s.wait_for("(type your answer")
    s.send(f"[{V!r}, {U!r}]")
    want = "Not yet: your answer has the right shape, but every value differs: at [0] it holds 0.5828, expected -0.8126."
    t = wait_flat(s, want)
    check("a list with the values swapped is graded: every value differs, at [0]", want in t, t[-700:])
    s.send(f"({-U!r}, {V!r})")
    want = "Not yet: mind the sign: cos(a + b) = cos a cos b - sin a sin b."
    t = wait_flat(s, want)
    check("a tuple equal to a wrong: line gets its explanation", want in t, t[-700:])
    s.send("[1.0, 2.0, 3.0]")
    want = "(not graded: the answer is a tensor of 2 numbers, and this is a list of 3 items)"
    t = wait_flat(s, want)
    check("a list of 3 numbers where 2 are asked for is not graded, and says why", want in t, t[-700:])
    s.send(f"[{U!r}, {V!r}]")
    t = s.wait_for("== Step 4 of 7")
    check("a list with the right values is right (lesson 5 step 3)", "Right.\n" in t and "== Step 4 of 7" in t, t[-700:])
    # the 2×2 question of step 5, as nested lists of numbers and of 0-d tensors
    s.send("jump check")
    for stmt in ["R2 = rotation(3, 2, plot=True)", "torch.allclose(R2, R)", "R3 = rotation(-2, 2)"]:
        s.wait_for("    " + stmt)
        s.send("")
    s.wait_for("Which matrix moves")
    c, si = math.cos(1.0), math.sin(1.0)
    s.send(f"[[{c!r}, {si!r}], [{-si!r}, {c!r}]]")          # R(+1): the wrong: line's value
    want = "Not yet: δ = +1 moves every pair forward."
    t = wait_flat(s, want)
    check("nested lists equal to a wrong: line get its explanation", want in t, t[-700:])
    s.send(f"[[torch.tensor({c!r}), torch.tensor({-si!r})], [torch.tensor({si!r}), torch.tensor({c!r})]]")
    t = s.wait_for("== Step 6 of 7")
    check("nested lists of 0-d tensors with R(-1)'s values are right", "Right.\n" in t, t[-700:])
finally:
    s.close()

# the same step in Japanese and in Chinese: the same checker, its words translated
for lang, right, wrong in [("ja", "正解です。", "まだです"), ("zh", "正确。", "还不对")]:
    s = Screen(f"{ATTN} lesson 5 --lang {lang}", ENV)
    try:
        s.wait_for("    d = 32")
        s.send("jump derivation")
        s.wait_for("[u, v]")
        s.send(f"[{V!r}, {U!r}]")
        t = s.wait_for(wrong)
        check(f"{lang}: a list with wrong values is graded wrong", wrong in t, t[-500:])
        s.send(f"[{U!r}, {V!r}]")
        t = s.wait_for(right)
        check(f"{lang}: a list with the right values is right (lesson 5 step 3)", right in t, t[-500:])
    finally:
        s.close()

# a student's detour changes a name the lesson uses (lesson 3, step 1): the lesson's statement fails, and the step
# waits for it with a note, instead of going on as if it had run; restart puts the lesson's values back; the
# statement that the lesson shows failing (step 8, the cosine line for odd d) still completes its step
s = Screen(f"{ATTN} lesson 3", ENV)
try:
    for stmt in ["attention = d2l.DotProductAttention(0)", "X = torch.tensor([[[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]])",
                 "Y = attention(X, X, X)"]:
        s.wait_for("    " + stmt)
        s.send("")
    s.wait_for("    Xs = X[:, [2, 1, 0]]")
    s.send("X = torch.ones(1, 3, 4)")             # the detour: X now has 4 features, Y still 2
    s.wait_for("(a detour")
    s.send("")
    s.wait_for("    Ys = attention(Xs, Xs, Xs)")
    s.send("Ys = attention(Xs, Xs, Xs)")          # typed as shown
    s.wait_for("    torch.allclose(Ys, Y[:, [2, 1, 0]])")
    s.send("")
    want = "(this statement runs without an error in the lesson, so a detour may have"
    t = wait_flat(s, want)
    check("student: a lesson statement broken by a detour fails with a note, and the step waits",
          want in t and "error: " in t and "== Step 2 of 9" not in t, t[-900:])
    s.send("")                                    # Enter again: the same failure, still step 1
    time.sleep(0.5)
    t = flat(s.text())
    check("student: Enter again runs it again, and the step still waits", t.count(want) == 2 and "== Step 2" not in t,
          t[-900:])
    s.send("restart")
    for stmt in ["attention = d2l.DotProductAttention(0)", "X = torch.tensor([[[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]])",
                 "Y = attention(X, X, X)", "Xs = X[:, [2, 1, 0]]", "Ys = attention(Xs, Xs, Xs)",
                 "torch.allclose(Ys, Y[:, [2, 1, 0]])"]:
        s.wait_for("    " + stmt)
        s.send("")
    t = s.wait_for("== Step 2 of 9")
    check("student: after restart the step's statements run as the lesson has them, and the step ends",
          "attn> torch.allclose(Ys, Y[:, [2, 1, 0]])\nTrue\n" in t and "== Step 2 of 9" in t, t[-900:])
    s.send("jump odd")
    for stmt in ["num_hiddens, max_len = 5, 3", "P5 = torch.zeros((1, max_len, num_hiddens))", "X5 = torch.arange(",
                 "X5.shape, P5[:, :, 0::2].shape", "P5[:, :, 0::2] = torch.sin(X5)", "P5[:, :, 1::2] = torch.cos(X5)\n"]:
        s.wait_for("    " + stmt)
        s.send("")
    t = s.wait_for("torch.cos(X5[:, :num_hiddens // 2])")
    check("student: a statement the lesson shows failing completes as the lesson shows it",
          "error: cannot assign" in t and t.count(want) == 2, t[-900:])
finally:
    s.close()

# a teacher presses Enter at a question: the first Enter asks (one Enter too many gave the answer away to a class),
# a detour forgets that, and Enter twice in a row shows the answer at that prompt, once, then its value
s = Screen(f"{ATTN} teach 5", ENV)
try:
    s.wait_for("next> d = 32")
    s.send("jump derivation")
    s.wait_for("defined above).")
    s.send("")
    t = s.wait_for("(press Enter again to see the answer)\nattn>")
    time.sleep(0.5)
    t = s.text()
    check("teacher: the first Enter at a question asks, and shows no answer",
          "(press Enter again to see the answer)\nattn>" in t and "0.5828" not in t and "attn> torch.tensor([-math" not in t
          and "defined above).\nattn>" not in t, t[-500:])
    s.send("1 + 1")
    s.wait_for("\n2\n")
    s.send("")
    time.sleep(1)
    t = s.text()
    check("teacher: an Enter after a detour asks again", t.count("(press Enter again to see the answer)") == 2
          and "0.5828" not in t, t[-500:])
    s.send("")
    t = s.wait_for("tensor([-0.8126,  0.5828])")
    answer = "attn> torch.tensor([-math.sin(3 * omega), math.cos(3 * omega)])"
    ls = lines_of(t)
    k = ls.index(answer) if answer in ls else -1
    check("teacher: Enter at a question shows the answer once, where the prompt was",
          k > 0 and ls[k - 1] != "attn>" and ls.count(answer) == 1 and ls[k + 1] == "tensor([-0.8126,  0.5828])", t[-700:])
finally:
    s.close()

# a teacher's detour: the lesson's next statement is shown again after it, just above the prompt, in the terminal's
# normal colours (it was dim, which a projector does not show, and was not shown again after a detour); Enter then
# takes it back and shows it once, as run
s = Screen(f"{ATTN} teach 5", ENV)
try:
    s.wait_for("next> d = 32")
    s.send("1 + 41")
    t = s.wait_for("(detour: Enter runs the next statement)\nnext> d = 32\nattn>")
    check("teacher: after a detour the next statement is shown again, above the prompt",
          "42\n(detour: Enter runs the next statement)\nnext> d = 32\nattn>" in t, t[-500:])
    raw = s.run("capture-pane", "-e", "-p", "-t", "t")
    pend = [l for l in raw.split("\n") if "d = 32" in l]
    check("teacher: the next statement is not dim or faint (SGR 2), on any of its lines",
          pend and not any(re.search(r"\x1b\[([0-9;]*;)?2(;[0-9;]*)?m", l) for l in pend), repr(pend))
    s.send("")
    t = s.wait_for("next> P = d2l.PositionalEncoding")
    ls = lines_of(t)
    check("teacher: Enter after a detour shows the statement once, as run, where the pending one was",
          "(detour: Enter runs the next statement)\nattn> d = 32\nnext> P = d2l" in t and ls.count("attn> d = 32") == 1,
          t[-500:])
    s.send("steps")
    t = s.wait_for("Dot products of positions\nnext> P = d2l")
    check("teacher: after a lesson command (steps) the next statement is shown again too",
          "Dot products of positions\nnext> P = d2l.PositionalEncoding(d, 0).P[0]\nattn>" in t, t[-500:])
finally:
    s.close()

# a teacher's next statement longer than the screen (lesson 1's masked_softmax, 22 lines at 80x24) waits as its first
# line and how many follow; Enter takes both back and shows the whole statement once, as run
s = Screen(f"{ATTN} teach 1", ENV)
try:
    s.wait_for("attn> attention = d2l.DotProductAttention(0)")
    s.send("jump build-masked-softmax")
    s.wait_for("next> valid_len = torch.tensor([2, 3])")
    for _ in range(6):          # three statements and a question (a teacher's Enter shows its answer)
        if "(21 lines more)" in s.text():
            break
        s.send("")
        time.sleep(0.8)
    t = s.wait_for("  ...> (21 lines more)")
    check("teacher: a statement taller than the screen waits as its first line and the count of the rest",
          "next> def masked_softmax(X, valid_lens):\n  ...> (21 lines more)\nattn>" in t, t[-600:])
    s.send("")
    t = s.wait_for("Yours and d2l's agree")
    check("teacher: Enter shows it whole, once, and the pending lines are gone",
          t.count("attn> def masked_softmax(X, valid_lens):") == 1 and "(21 lines more)" not in t
          and "next> def masked_softmax" not in t, t[-900:])
finally:
    s.close()

# a teacher's detour that fails: the error points at the mistake as at the prompt (its caret under the operator),
# and the class's recording replays with --check (the replay printed a caret the class never saw)
rec_dir = tempfile.mkdtemp()
rec = os.path.join(rec_dir, "class.md")
s = Screen(f"{ATTN} teach 1 --record {rec}", ENV)
try:
    s.wait_for("attn> attention = d2l.DotProductAttention(0)")
    s.send("W_typo @ torch.ones(3)")
    s.wait_for("(detour")
    s.send("torch.ones(4, 4) @ torch.ones(3)")
    t = s.wait_for("(4 != 3)")
    time.sleep(0.3)
    t = s.text()
    check("teacher: a detour's error shows its statement with a caret under the operator, as at the prompt",
          "error: matmul: shapes (4, 4) and (3,) cannot be multiplied (4 != 3)\n  torch.ones(4, 4) @ torch.ones(3)\n"
          "                   ^\n" in t, t[-700:])
    s.send("quit")
    for _ in range(50):
        if os.path.exists(rec):
            break
        time.sleep(0.1)
finally:
    s.close()
r = subprocess.run([ATTN, "--check", rec], capture_output=True, text=True, timeout=120, cwd=rec_dir,
                   env=dict(os.environ, ATTN_PLOT="summary"))
check("teacher: the recording with the failed detours replays with --check", r.returncode == 0, r.stdout[-1200:])
shutil.rmtree(rec_dir, ignore_errors=True)

# lesson 7 at a terminal, in English, Japanese and Chinese: a student draws figures in the terminal (a detour), jumps
# to the training step and runs it with Enter; the board's loss and accuracy curves are drawn while the model trains,
# redrawn in place (one legend in the whole scrollback, the figure within the screen's 24 rows), and the step goes on
# to the accuracy, 1/7 as the lesson says (0.1 and within 0.03 of it: PyTorch's numbers, torch_transcript)
for lang, go_on in [("en", "(the figure above: press Enter to go on)"), ("ja", "(上の図を見てください: Enter で先へ進みます)"),
                    ("zh", "（请看上面的图：按 Enter 继续）")]:
    s = Screen(f"{ATTN} lesson 7 --lang {lang}", dict(ENV, TERM="xterm-256color"))
    try:
        s.wait_for("    vocab, d, n, k = 32, 32, 8, 2")
        s.send("plot_target('terminal')")
        s.wait_for("plot_target('terminal')\n")
        s.send("jump train")
        s.wait_for("    def loss_of(model, X):")
        for _ in range(20):                 # Enter runs each statement, up to the training of model_none
            s.send("")
            time.sleep(0.5)
            if "attn> losses_none = train(model_none)" in s.text():
                break
        t = s.wait_for(go_on)
        screen = s.run("capture-pane", "-p", "-t", "t")
        plot = [l for l in screen.split("\n") if re.match(r" *[0-9.]* *[|+]", l)]
        check(f"{lang}: lesson 7's training draws the loss and accuracy curves in the terminal, once, in place",
              t.count("loss +-") == 1 and t.count("accuracy +-") == 1 and re.search(r"^ +step *$", t, re.M)
              and go_on in t, t[-2500:])
        check(f"{lang}: the board fits the 80x24 screen with the statement that drew it",
              "attn> losses_none = train(model_none)" in t and 10 <= len(plot) <= 22
              and all(len(l) <= 80 for l in screen.split("\n")), screen)
        for stmt in ["acc_none = accuracy(model_none, test8)", "round(acc_none, 1)"]:     # the figure's pause, then
            s.send("")                                                                      # the step's two statements
            s.wait_for("    " + stmt)
        s.send("")
        t = s.wait_for("(0.1, True)")
        check(f"{lang}: after the curves the step goes on: the model without positions is at chance, 1/7",
              "(0.1, True)" in t, t[-600:])
    finally:
        s.close()

finish()

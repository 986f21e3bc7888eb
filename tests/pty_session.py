#!/usr/bin/python3
"""attn at a real terminal (a pty): prompts, continuation lines, Ctrl-C during a long loop and at an idle prompt,
Ctrl-D, history kept across sessions, tab completion of names and methods. 'N passed, N failed'.
usage: pty_session.py ATTN_BINARY"""
import os, pty, select, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
import refcheck  # noqa: E402
from refcheck import ATTN, finish  # noqa: E402


def check(name, ok, detail=""):
    """Terminal output holds escape codes: show its tail as a Python literal."""
    refcheck.check("pty: " + name, ok, repr(detail[-600:]))


class Term:
    def __init__(self, state):
        env = dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", ATTN_PLOT="summary", COLUMNS="100")
        env.pop("DISPLAY", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(ATTN, [ATTN, "-q"], env)
        self.buf = b""

    def read(self, until=None, timeout=5.0):
        end = time.time() + timeout
        while time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                self.buf += data
            if until is not None and until.encode() in self.buf:
                break
        return self.buf.decode(errors="replace")

    def prompt(self, timeout=5.0):
        """Waits until the output ends at a fresh prompt (keys sent before it reach a cooked terminal)."""
        end = time.time() + timeout
        while time.time() < end and not self.buf.rstrip(b" ").endswith(b"attn>"):
            self.read(timeout=0.05)

    def send(self, s):
        os.write(self.fd, s.encode())

    def wait(self, timeout=5.0):
        end = time.time() + timeout
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            self.read(timeout=0.05)
        os.kill(self.pid, 9)
        return None


with tempfile.TemporaryDirectory() as state:
    t = Term(state)
    check("prompt", "attn> " in t.read("attn> "), t.buf.decode(errors="replace"))
    t.send("X = torch.ones((2, 3))\r")
    t.read("attn> ", 2)
    t.send("for i in range(2):\r")
    out = t.read("...> ")
    check("continuation prompt for a block", "...> " in out, out)
    t.send("    print(i * 10)\r\r")
    out = t.read("10\r\n", 3)
    check("the block runs after a blank line", "0\r\n" in out and "10\r\n" in out, out)
    t.buf = b""
    # a comment line inside a block does not end it at a terminal; an empty line does (as in Python's REPL)
    t.send("def f(x):\r")
    t.read("...> ")
    for line in ["    # first comment", "    # second comment", "    y = (x +", "         1)", "    return y * 10"]:
        t.buf = b""
        t.send(line + "\r")
        t.read("...> ")
    t.send("\rf(4)\r")
    out = t.read("50\r\n", 3)
    check("comment lines and a bracket continued inside a def", "50\r\n" in out and "error" not in out, out)
    # the book's class pasted in one go, with its empty line and comment lines between the methods
    book = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref", "book",
                             "11.3-attention-scoring-functions.py"), encoding="utf-8").read()
    dpa = next(c for c in book.split("# %%\n") if c.startswith("class DotProductAttention"))
    t.buf = b""
    t.send(dpa.replace("\n", "\r") + "\r")
    t.read("attn> ", 5)
    t.buf = b""
    t.send("DotProductAttention(0.5)\r")
    out = t.read("inplace=False)", 3)
    check("the book's class pasted with empty lines between its methods", "(dropout): Dropout(p=0.5" in out and "error" not in out, out)
    t.buf = b""
    t.send("for i in range(10 ** 8): print('looping') if i == 0 else None\r")
    t.read("looping\r\n", 10)
    time.sleep(0.2)
    t.buf = b""
    t.send("\x03")
    out = t.read("interrupted", 10)
    out = t.read("attn> ", 5)
    check("Ctrl-C stops a long loop and returns to the prompt", "interrupted" in out and "attn> " in out, out)
    t.buf = b""
    t.send("X.sum()\r")
    out = t.read("tensor(6.)", 3)
    check("what was defined before Ctrl-C is kept", "tensor(6.)" in out, out)
    t.buf = b""
    t.send("X.resh\t")
    out = t.read("ape", 3)
    check("tab completes a tensor method", "X.reshape" in out or out.rstrip().endswith("ape"), out)
    t.send("(3, 2).shape\r")
    out = t.read("torch.Size([3, 2])", 3)
    check("the completed line runs", "torch.Size([3, 2])" in out, out)
    t.buf = b""
    t.send("d2l.masked_sof\t")
    out = t.read("tmax", 3)
    check("tab completes a builtin", "masked_softmax" in out or out.rstrip().endswith("tmax"), out)
    t.send("\x15")      # Ctrl-U: clear the line
    t.read(timeout=0.5)
    # Tab completes through attributes of attributes; a misspelled attribute gets "did you mean"
    t.send("mha = d2l.MultiHeadAttention(8, 2, 0.0)\r")
    t.read("attn> ", 3)
    t.send("out = mha(torch.ones((1, 3, 8)), torch.ones((1, 3, 8)), torch.ones((1, 3, 8)), None)\r")
    t.read("attn> ", 3)
    t.buf = b""
    t.send("mha.attention.attention_w\t")
    out = t.read("eights", 3)
    check("tab completes at any depth (mha.attention.<Tab>)", "eights" in out, out)
    t.send(".shape\r")
    out = t.read("torch.Size([2, 3, 3])", 3)
    check("the completed attribute chain runs", "torch.Size([2, 3, 3])" in out, out)
    t.buf = b""
    t.send("mha.atention\r")
    out = t.read("did you mean", 3)
    check("a misspelled attribute: did you mean", "(did you mean 'attention'?)" in out, out)
    # Ctrl-C at a continuation prompt drops the unfinished statement; Ctrl-C never leaves attn
    t.buf = b""
    t.send("for i in range(3):\r")
    t.read("...> ")
    t.buf = b""                  # wait for the prompt after this line, not the one already on screen
    t.send("    print('never', i)\r")
    t.read("...> ")
    t.send("\x03")
    out = t.read("leaves attn", 3)
    check("Ctrl-C at a continuation prompt says how to leave", "Ctrl-D leaves attn" in out, out)
    t.buf = b""
    t.send("6 * 7\r")
    out = t.read("42", 3)
    check("the dropped statement never runs; the next one does", "42" in out and "never" not in out, out)
    t.buf = b""
    t.send("(1 +\r")
    t.read("...> ")
    for _ in range(3):           # each Ctrl-C answered by a fresh prompt before the next key
        t.buf = b""
        t.send("\x03")
        t.read("attn> ", 3)
    t.buf = b""
    t.send("X.sum()\r")
    out = t.read("tensor(6.)", 3)
    check("three Ctrl-C at idle and continuation prompts: attn is still there, X kept", "tensor(6.)" in out and os.waitpid(t.pid, os.WNOHANG)[0] == 0, out)
    t.prompt()
    t.send("\x04")
    code = t.wait(20)      # generous: under ASan with the machine loaded, exiting takes seconds
    check("Ctrl-D leaves cleanly", code == 0, str(code))
    hist = open(os.path.join(state, "attn", "history")).read() if os.path.exists(os.path.join(state, "attn", "history")) else ""
    check("history is kept in $XDG_STATE_HOME/attn/history", "looping" in hist, hist)
    # a second session: the history is there (Up arrow), Ctrl-D leaves
    t = Term(state)
    t.read("attn> ")
    t.buf = b""
    t.send("\x1b[A")
    out = t.read("X.sum()", 3)
    check("history from the last session is recalled with Up", "X.sum()" in out or "reshape" in out, out)
    t.send("\x15\x04")
    code = t.wait()
    check("Ctrl-D leaves cleanly", code == 0, str(code))

# a lesson started from the REPL runs in a session of its own: after it, Tab completes the REPL's names (the
# completer once kept the lesson's freed interpreter: a use after free, issue 12)
with tempfile.TemporaryDirectory() as state:
    os.environ["ATTN_LESSONS"] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lessons")
    t = Term(state)
    t.read("attn> ")
    t.send("myvariable_repl = 41\r")
    t.read("attn> ", 3)
    t.buf = b""
    t.send("lesson 1\r")
    out = t.read("help for lesson commands", 10)
    check("lesson 1 starts from the REPL", "help for lesson commands" in out, out)
    t.send("lesson_var = 5\r")
    t.read("Enter runs it)\r\nattn> ", 5)
    t.buf = b""
    t.send("quit\r")
    out = t.read("attn> ", 10)
    check("quit in the lesson returns to the REPL", "Progress saved" in out and "attn> " in out, out)
    t.buf = b""
    t.send("myvariable_r\t")
    out = t.read("epl", 3)
    check("Tab after the lesson completes the REPL's names", "myvariable_repl" in out or out.rstrip().endswith("epl"), out)
    t.send(" + 1\r")
    out = t.read("42", 3)
    check("the REPL's names are all there after the lesson", "42" in out, out)
    t.buf = b""
    t.send("lesson_v\t\r")
    out = t.read("not defined", 3)
    check("the lesson's names are gone with it", "not defined" in out, out)
    t.send("\x04")
    t.wait()
    del os.environ["ATTN_LESSONS"]

# a terminal that answers the device-attributes query with feature 4 gets sixel pictures; one that does not, text
for answer, want in [(b"\x1b[?62;4;22c", "sixel"), (b"\x1b[?62;22c", "terminal")]:
    with tempfile.TemporaryDirectory() as state:
        env = dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", COLUMNS="80")
        env.pop("DISPLAY", None)
        env.pop("ATTN_PLOT", None)
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(ATTN, [ATTN, "-q"], env)
        t = Term.__new__(Term)
        t.pid, t.fd, t.buf = pid, fd, b""
        t.read("attn> ")
        t.send("d2l.plot([0, 1, 2], [0, 1, 4])\r")
        out = t.read("\x1b[c", 5)
        if "\x1b[c" in out:
            t.send(answer.decode())
        out = t.read("attn> ", 10)
        out = t.read(timeout=1.0)
        got = "sixel" if "\x1bP" in out else "terminal" if "+---" in out.replace("-+-", "+--") or "|" in out else "?"
        check(f"device attributes {answer!r} give {want} plots", got == want, out[-300:])
        t.send("\x04")
        t.wait()

# on a slow link the terminal answers attn's query after attn stopped waiting: the late reply must not land in the
# student's next statement ("62;4;22cprint(1 + 1)", issue 12)
with tempfile.TemporaryDirectory() as state:
    env = dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", COLUMNS="80")
    env.pop("DISPLAY", None)
    env.pop("ATTN_PLOT", None)
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(ATTN, [ATTN, "-q"], env)
    t = Term.__new__(Term)
    t.pid, t.fd, t.buf = pid, fd, b""
    t.read("attn> ")
    t.send("d2l.plot([0, 1, 2], [0, 1, 4])\r")
    t.read("\x1b[c", 5)
    t.buf = b""
    t.read("attn> ", 10)          # attn gave up waiting and drew with characters
    t.buf = b""
    t.send("\x1b[?62;4;22c\x1b[8;24;80t")      # the replies arrive now, as the student starts typing
    t.send("print(1 + 1)\r")
    out = t.read("attn> ", 5)
    # (the terminal itself may echo the reply if it arrives while attn is busy: only what attn runs matters)
    check("a late reply to the terminal query does not reach the next statement",
          "\r\n2\r\n" in out and "62;4;22cprint" not in out.replace("\x1b[?", "") and "error" not in out, out)
    t.buf = b""
    t.send("x = 3\x1b[D\x1b[D\x1b[D\x1b[D4\r")    # arrow keys (ESC [ D) still edit the line: x4 = 3
    t.read("attn> ", 5)
    t.buf = b""
    t.send("x4 * 2\r")
    out = t.read("attn> ", 5)
    check("arrow keys still reach libedit", "\r\n6\r\n" in out, out)
    t.send("\x04")
    t.wait()

finish()

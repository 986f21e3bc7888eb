#!/usr/bin/python3
"""attn at a real terminal (a pty): prompts, continuation lines, Ctrl-C during a long loop and at an idle prompt,
Ctrl-D, history kept across sessions, tab completion of names and methods. 'N passed, N failed'.
usage: pty_session.py ATTN_BINARY"""
import ctypes, fcntl, os, pty, select, signal, struct, sys, tempfile, termios, time, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
import refcheck  # noqa: E402
from refcheck import ATTN, finish  # noqa: E402


def check(name, ok, detail=""):
    """Terminal output holds escape codes: show its tail as a Python literal."""
    refcheck.check("pty: " + name, ok, repr(detail[-600:]))


# How long a wait may take before it counts as a failure. The waits end as soon as what they wait for appears, so a
# generous deadline costs nothing when attn is well: it is there for a loaded machine and the sanitizer build.
DEADLINE = 60


class Term:
    def __init__(self, state, args=("-q",), **settings):
        """attn ARGS (-q) at a pty, its state in STATE, no display; SETTINGS change the environment (None removes)."""
        env = dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", ATTN_PLOT="summary", COLUMNS="100")
        env.pop("DISPLAY", None)
        for k, v in settings.items():
            if v is None:
                env.pop(k, None)
            else:
                env[k] = v
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(ATTN, [ATTN, *args], env)
        self.buf = b""
        self.mark = 0           # where the output stood when the last keys were sent

    def read(self, until=None, timeout=None):
        """Reads until UNTIL appears in what attn wrote after the last keys sent (a prompt already on screen does
        not count), at most DEADLINE seconds; without UNTIL, reads for TIMEOUT seconds. Returns all output since
        buf was last cleared."""
        if until is not None:
            timeout = DEADLINE
        end = time.time() + (timeout if timeout is not None else DEADLINE)
        while time.time() < end:
            if until is not None and until.encode() in self.buf[min(self.mark, len(self.buf)):]:
                break
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                self.buf += data
        return self.buf.decode(errors="replace")

    def prompt(self, at="attn>"):
        """Waits until the output ends at a fresh prompt (AT) and libedit reads the terminal in raw mode."""
        end = time.time() + DEADLINE
        while time.time() < end and not (self.buf[min(self.mark, len(self.buf)):].rstrip(b" ").endswith(at.encode())
                                         and not termios.tcgetattr(self.fd)[3] & termios.ICANON):
            self.read(timeout=0.05)

    def drain(self):
        """Takes what attn wrote so far, without waiting."""
        while select.select([self.fd], [], [], 0)[0]:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.buf += data

    def clear(self):
        """Forgets the output so far: what comes next is read afresh."""
        self.buf = b""
        self.mark = 0

    def send(self, s):
        self.mark = len(self.buf)
        os.write(self.fd, s.encode())

    def leave(self):
        """Ctrl-D at a fresh prompt (in raw mode, so it is not lost); the exit status, or None when attn stayed."""
        self.prompt()
        self.send("\x04")
        return self.wait()

    def wait(self, timeout=DEADLINE):
        end = time.time() + timeout
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            self.read(timeout=0.05)
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        return None


with tempfile.TemporaryDirectory() as state:
    t = Term(state)
    check("prompt", "attn> " in t.read("attn> "), t.buf.decode(errors="replace"))
    t.send("X = torch.ones((2, 3))\r")
    t.read("attn> ")
    t.send("for i in range(2):\r")
    out = t.read("...> ")
    check("continuation prompt for a block", "...> " in out, out)
    t.send("    print(i * 10)\r\r")
    out = t.read("10\r\n")
    check("the block runs after a blank line", "0\r\n" in out and "10\r\n" in out, out)
    t.clear()
    # a comment line inside a block does not end it at a terminal; an empty line does (as in Python's REPL)
    t.send("def f(x):\r")
    t.read("...> ")
    for line in ["    # first comment", "    # second comment", "    y = (x +", "         1)", "    return y * 10"]:
        t.clear()
        t.send(line + "\r")
        t.read("...> ")
    t.send("\rf(4)\r")
    out = t.read("50\r\n")
    check("comment lines and a bracket continued inside a def", "50\r\n" in out and "error" not in out, out)
    # the book's class pasted in one go, with its empty line and comment lines between the methods
    book = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref", "book",
                             "11.3-attention-scoring-functions.py"), encoding="utf-8").read()
    dpa = next(c for c in book.split("# %%\n") if c.startswith("class DotProductAttention"))
    t.clear()
    t.send(dpa.replace("\n", "\r") + "\r")
    t.read("attn> ")
    t.clear()
    t.send("DotProductAttention(0.5)\r")
    out = t.read("inplace=False)")
    check("the book's class pasted with empty lines between its methods", "(dropout): Dropout(p=0.5" in out and "error" not in out, out)
    t.clear()
    t.send("for i in range(10 ** 8): print('looping') if i == 0 else None\r")
    t.read("looping\r\n")
    t.clear()
    t.send("\x03")
    out = t.read("interrupted")
    out = t.read("attn> ")
    check("Ctrl-C stops a long loop and returns to the prompt", "interrupted" in out and "attn> " in out, out)
    t.clear()
    t.send("X.sum()\r")
    out = t.read("tensor(6.)")
    check("what was defined before Ctrl-C is kept", "tensor(6.)" in out, out)
    # timeit runs its statement (parsed once) up to 101 x 1000000 times: Ctrl-C stops it between two runs
    t.clear()
    t.send("n = [0]\r")
    t.prompt()
    t.send("timeit('n[0] += 1', repeat=101, number=1000000)\r")
    t.read(timeout=1.0)
    t.send("\x03")
    out = t.read("interrupted")
    t.prompt()
    t.clear()
    t.send("0 < n[0] < 101000000\r")
    out += t.read("True")
    check("Ctrl-C stops timeit part way and returns to the prompt", "interrupted" in out and "True" in out, out)
    # a walk over a huge range inside one builtin call (no statement boundary to stop at): Ctrl-C still stops it
    t.clear()
    t.send("{-1}.isdisjoint(range(10 ** 15))\r")
    t.read(timeout=1.0)
    t.send("\x03")
    out = t.read("interrupted", timeout=10)
    t.prompt()
    check("Ctrl-C stops a builtin walking range(10 ** 15)", "interrupted" in out, out)
    # the nn layers' own loops: Ctrl-C stops LayerNorm inside its kernel, and nothing is assigned. The input is made
    # first and the layer timed on this machine (its second run: the first pays the page faults of a fresh output),
    # so the Ctrl-C lands inside the kernel however fast the CPU is; a run that ends before the Ctrl-C is sent (a
    # loaded machine's timing is noisy) is tried again sooner, and no Ctrl-C ever reaches the prompt (the note that
    # Ctrl-C drops the line is said once, and a check below needs it)
    rows = 2 ** 16
    took = 0.0
    while took < 0.3 and rows < 2 ** 19:       # a fast machine gets a bigger input, up to 2 GiB
        rows *= 2
        t.clear()
        t.send(f"big = torch.ones({rows}, 1024); ln = nn.LayerNorm(1024); ln_probe = ln(big)\r")
        t.prompt()
        t.clear()
        start = time.time()
        t.send("ln_probe = ln(big)\r")
        t.prompt()
        took = time.time() - start
        t.clear()
        t.send("del ln_probe\r")
        t.prompt()
    check(f"LayerNorm over {rows} x 1024 values takes long enough to interrupt", took >= 0.1, f"{took:.3f} s")
    out, delay = "", took / 3
    for attempt in range(5):
        t.clear()
        t.send("ln_out = ln(big)\r")
        time.sleep(delay)
        t.drain()
        if b"attn> " in t.buf[t.mark:]:            # done before the Ctrl-C: try again, sooner
            t.prompt()
            t.send("del ln_out\r")
            t.prompt()
            delay /= 2
            continue
        t.send("\x03")
        out = t.read("interrupted", timeout=10)
        t.prompt()
        t.clear()
        t.send("'ln_out' in dir()\r")
        out += t.read("attn> ")
        t.prompt()
        break
    check(f"Ctrl-C stops nn.LayerNorm inside its kernel ({took:.2f} s whole, Ctrl-C after {delay:.2f} s)",
          "interrupted" in out and "False" in out, out)
    t.clear()
    t.send("del big\r")
    t.prompt()
    # a dict view compared with a set looks each key up by its stored hash: linear time, so 60000 keys answer at
    # once (it used to walk one inside the other, n * n comparisons, and needed Ctrl-C: review s7 #6)
    t.clear()
    t.send("d = {str(i): i for i in range(60000)}; s = set(d)\r")
    t.prompt()
    t.clear()
    t.send("d.keys() == s, s == d.keys(), len(d.keys() & s)\r")
    out = t.read("60000)", timeout=3)
    t.prompt()
    check("d.keys() == s of 60000 keys answers at once", "(True, True, 60000)" in out, out)
    # Ctrl-C in a try body: its finally runs (Python's KeyboardInterrupt), no except catches it, the REPL goes on
    t.clear()
    t.send("try:\r")
    for line in ["    n = 0", "    while True: n += 1", "except Exception:", "    print('caught by except')", "finally:",
                 "    print('finally ran', n > 0)"]:
        t.read("...> ")
        t.clear()
        t.send(line + "\r")
    t.read("...> ")
    t.send("\r")
    t.read(timeout=1.0)
    t.send("\x03")
    out = t.read("interrupted")
    t.prompt()
    check("Ctrl-C in a try body runs its finally, and except does not catch it",
          "finally ran True" in out and "interrupted" in out and "caught by except" not in out, out)
    t.clear()
    t.send("print('still here', n > 0)\r")
    out = t.read("still here True")
    check("after Ctrl-C through a finally the REPL goes on", "still here True" in out, out)
    # Ctrl-C inside with torch.no_grad(): its __exit__ runs, so grad mode is on again at the prompt (Python's rule)
    t.clear()
    t.send("with torch.no_grad():\r")
    t.read("...> ")
    t.clear()
    t.send("    while True: pass\r")
    t.read("...> ")
    t.send("\r")
    t.read(timeout=1.0)
    t.send("\x03")
    t.read("interrupted")
    t.prompt()
    t.clear()
    t.send("print('grad mode', torch.is_grad_enabled())\r")
    out = t.read("grad mode ")
    out += t.read("attn> ")
    check("Ctrl-C inside with torch.no_grad() restores grad mode", "grad mode True" in out, out)
    t.clear()
    t.send("X.resh\t")
    out = t.read("ape")
    check("tab completes a tensor method", "X.reshape" in out or out.rstrip().endswith("ape"), out)
    t.send("(3, 2).shape\r")
    out = t.read("torch.Size([3, 2])")
    check("the completed line runs", "torch.Size([3, 2])" in out, out)
    t.clear()
    t.send("d2l.masked_sof\t")
    out = t.read("tmax")
    check("tab completes a builtin", "masked_softmax" in out or out.rstrip().endswith("tmax"), out)
    t.send("\x15")      # Ctrl-U: clear the line
    t.read(timeout=0.5)
    # Tab completes through attributes of attributes; a misspelled attribute gets "did you mean"
    t.send("mha = d2l.MultiHeadAttention(8, 2, 0.0)\r")
    t.read("attn> ")
    t.send("out = mha(torch.ones((1, 3, 8)), torch.ones((1, 3, 8)), torch.ones((1, 3, 8)), None)\r")
    t.read("attn> ")
    t.clear()
    t.send("mha.attention.attention_w\t")
    out = t.read("eights")
    check("tab completes at any depth (mha.attention.<Tab>)", "eights" in out, out)
    t.send(".shape\r")
    out = t.read("torch.Size([2, 3, 3])")
    check("the completed attribute chain runs", "torch.Size([2, 3, 3])" in out, out)
    # an iterator shows no attributes: Tab offers none of its hidden state, and dir() agrees; map is lazy at the prompt
    t.clear()
    t.send("m = map(print, ['lazy1', 'lazy2'])\r")
    t.prompt()
    t.clear()
    t.send("m.\t\tsr\t")
    out = t.read(timeout=1.0)
    check("Tab after an iterator's dot offers nothing hidden (no m.src)", "src" not in out and "pos" not in out, out)
    t.send("\x15")
    t.read(timeout=0.3)
    # dir() of a student's object lists object's dunders (__class__ ...), as Python's; Tab after "p." offers its own
    # names only, and dunders once "__" is typed (as Python's rlcompleter)
    t.clear()
    t.send("class Pt:\r    pass\r\r")
    t.prompt()
    t.send("pt = Pt(); pt.valx = 1\r")
    t.prompt()
    t.clear()
    t.send("pt.\t\t")
    out = t.read(timeout=1.0)
    check("Tab after a student's object's dot offers its names, not object's dunders", "valx" in out and "__class__" not in out, out)
    t.send("\x15")
    t.read(timeout=0.3)
    t.clear()
    t.send("pt.__cla\t")
    out = t.read("ss__", timeout=2.0)
    check("Tab after '__' completes a dunder (pt.__class__)", "__class__" in out or out.rstrip().endswith("ss__"), out)
    t.send("\x15")
    t.read(timeout=0.3)
    t.clear()
    t.send("li = iter([5])\r")
    t.prompt()
    t.clear()
    t.send("li.src.app\t\t")
    out = t.read(timeout=1.0)
    t.send("\x15")
    t.read(timeout=0.3)
    t.clear()
    t.send("m.its.cou\t\t")
    out += t.read(timeout=1.0)
    # (a completion would echo the rest of the word: "end", "nt")
    check("Tab does not walk an iterator's hidden state (li.src.<Tab>, m.its.<Tab> offer nothing)",
          "end" not in out and "nt" not in out, out)
    t.send("\x15")
    t.read(timeout=0.3)
    t.clear()
    t.send("dir(m), dir(mha) == sorted(dir(mha)), 'attention' in dir(mha)\r")
    out = t.read("True")
    check("dir(iterator) is empty; dir(mha) is sorted and lists what Tab completes", "([], True, True)" in out, out)
    check("map(print, ...) printed nothing when made", "lazy1" not in out, out)
    t.prompt()
    t.clear()
    t.send("next(m)\r")
    out = t.read("lazy1")
    t.prompt()
    check("next(m) runs print for the first item only", "lazy1" in out and "lazy2" not in out, out)
    t.clear()
    t.send("mha.atention\r")
    out = t.read("did you mean")
    check("a misspelled attribute: did you mean", "(did you mean 'attention'?)" in out, out)
    # Ctrl-C at a continuation prompt drops the unfinished statement; Ctrl-C never leaves attn
    t.clear()
    t.send("for i in range(3):\r")
    t.read("...> ")
    t.clear()                  # wait for the prompt after this line, not the one already on screen
    t.send("    print('never', i)\r")
    t.read("...> ")
    t.send("\x03")
    out = t.read("leaves attn")
    check("Ctrl-C at a continuation prompt says how to leave", "Ctrl-D leaves attn" in out, out)
    t.clear()
    t.send("6 * 7\r")
    out = t.read("42")
    check("the dropped statement never runs; the next one does", "42" in out and "never" not in out, out)
    t.clear()
    t.send("(1 +\r")
    t.read("...> ")
    for _ in range(3):           # each Ctrl-C answered by a fresh prompt before the next key
        t.clear()
        t.send("\x03")
        t.read("attn> ")
    t.clear()
    t.send("X.sum()\r")
    out = t.read("tensor(6.)")
    check("three Ctrl-C at idle and continuation prompts: attn is still there, X kept", "tensor(6.)" in out and os.waitpid(t.pid, os.WNOHANG)[0] == 0, out)
    code = t.leave()
    check("Ctrl-D leaves cleanly", code == 0, str(code))
    hist = open(os.path.join(state, "attn", "history")).read() if os.path.exists(os.path.join(state, "attn", "history")) else ""
    check("history is kept in $XDG_STATE_HOME/attn/history", "looping" in hist, hist)
    # a second session: the history is there (Up arrow), Ctrl-D leaves
    t = Term(state)
    t.read("attn> ")
    t.clear()
    t.send("\x1b[A")
    out = t.read("X.sum()")
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
    t.read("attn> ")
    t.clear()
    t.send("lesson 1\r")
    out = t.read("help for lesson commands")
    check("lesson 1 starts from the REPL", "help for lesson commands" in out, out)
    t.send("lesson_var = 5\r")
    t.read("Enter runs it)\r\nattn> ")
    # Ctrl-C in a lesson stops the statement running (a detour here), says so once, and the step still waits: the
    # lesson's statements run through the one loop (session_feed) as the REPL's do
    t.clear()
    t.send("{-1}.isdisjoint(range(10 ** 15))\r")
    t.read(timeout=1.0)
    t.send("\x03")
    out = t.read("Enter runs it)\r\nattn> ", timeout=10)
    check("Ctrl-C in a lesson stops the statement and the step still waits",
          "interrupted (Ctrl-C)" in out and "(a detour" in out and out.count("interrupted") == 1, out)
    t.clear()
    t.send("lesson_var + 1\r")
    out = t.read("Enter runs it)\r\nattn> ")
    check("...and the lesson goes on with what was defined before", "\r\n6\r\n" in out, out)
    t.clear()
    t.send("quit\r")
    out = t.read("attn> ")
    check("quit in the lesson returns to the REPL", "Progress saved" in out and "attn> " in out, out)
    t.clear()
    t.send("myvariable_r\t")
    out = t.read("epl")
    check("Tab after the lesson completes the REPL's names", "myvariable_repl" in out or out.rstrip().endswith("epl"), out)
    t.send(" + 1\r")
    out = t.read("42")
    check("the REPL's names are all there after the lesson", "42" in out, out)
    t.clear()
    t.send("lesson_v\t\r")
    out = t.read("not defined")
    check("the lesson's names are gone with it", "not defined" in out, out)
    t.leave()
    del os.environ["ATTN_LESSONS"]

# a terminal that answers the device-attributes query with feature 4 gets sixel pictures; one that does not, text
for answer, want in [(b"\x1b[?62;4;22c", "sixel"), (b"\x1b[?62;22c", "terminal")]:
    with tempfile.TemporaryDirectory() as state:
        t = Term(state, COLUMNS="80", ATTN_PLOT=None)
        t.read("attn> ")
        t.send("d2l.plot([0, 1, 2], [0, 1, 4])\r")
        out = t.read("\x1b[c")
        if "\x1b[c" in out:
            t.send(answer.decode())
        out = t.read("attn> ")
        out = t.read(timeout=1.0)
        got = "sixel" if "\x1bP" in out else "terminal" if "+---" in out.replace("-+-", "+--") or "|" in out else "?"
        check(f"device attributes {answer!r} give {want} plots", got == want, out[-300:])
        t.leave()

# on a slow link the terminal answers attn's query after attn stopped waiting: the late reply must not land in the
# student's next statement ("62;4;22cprint(1 + 1)", issue 12)
with tempfile.TemporaryDirectory() as state:
    t = Term(state, COLUMNS="80", ATTN_PLOT=None)
    t.read("attn> ")
    t.send("d2l.plot([0, 1, 2], [0, 1, 4])\r")
    t.read("\x1b[c")
    t.clear()
    t.read("attn> ")          # attn gave up waiting and drew with characters
    t.clear()
    t.send("\x1b[?62;4;22c\x1b[8;24;80t")      # the replies arrive now, as the student starts typing
    t.send("print(1 + 1)\r")
    out = t.read("attn> ")
    # (the terminal itself may echo the reply if it arrives while attn is busy: only what attn runs matters)
    check("a late reply to the terminal query does not reach the next statement",
          "\r\n2\r\n" in out and "62;4;22cprint" not in out.replace("\x1b[?", "") and "error" not in out, out)
    t.clear()
    t.send("x = 3\x1b[D\x1b[D\x1b[D\x1b[D4\r")    # arrow keys (ESC [ D) still edit the line: x4 = 3
    t.read("attn> ")
    t.clear()
    t.send("x4 * 2\r")
    out = t.read("attn> ")
    check("arrow keys still reach libedit", "\r\n6\r\n" in out, out)
    t.leave()

# keys typed while a statement runs reach the terminal in cooked mode: a line typed ahead runs next, and a Ctrl-D
# after it still leaves attn (libedit alone got it as a NUL byte once it made the terminal raw: attn waited for ever)
with tempfile.TemporaryDirectory() as state:
    t = Term(state)
    t.read("attn> ")
    t.prompt()
    t.send("s = 0\rfor i in range(3000000):\r    s += i\r\r")
    t.read("...> \r\n")
    t.send("print(s + 7)\r\x04")
    code = t.wait()
    out = t.read(timeout=0.2)
    check("a line and a Ctrl-D typed while a statement runs: the line runs, then attn leaves",
          code == 0 and str(sum(range(3000000)) + 7) in out, out)

# The same keys at every moment, made exact by stopping attn (ptrace, as strace does) at each system call from the
# Enter that ends the block to the next prompt: the keys "print(s + 7)", Enter, Ctrl-D are typed while attn stands
# still there, and attn goes on only once the terminal holds them. Wherever they land (raw, canonical, in the steps
# between), the line runs after the block and the Ctrl-D leaves. (Before, keys landing after attn took the lines typed
# ahead and before it made the terminal raw kept their Ctrl-D as an end of file that became a NUL byte: attn waited.)
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
libc.ptrace.restype = ctypes.c_long
PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SYSCALL, PTRACE_SETOPTIONS, PTRACE_O_TRACESYSGOOD = 16, 17, 24, 0x4200, 1
PTRACE_GET_SYSCALL_INFO, SYS_POLL, SYS_RESTART = 0x420e, 7, 219           # x86_64's numbers (as the block below)


def syscall_entry(pid):
    """At a system call stop: (number, first three arguments) at an entry, None at an exit."""
    info = ctypes.create_string_buffer(88)
    libc.ptrace(PTRACE_GET_SYSCALL_INFO, pid, ctypes.c_void_p(88), info)
    if info.raw[0] != 1:
        return None
    return struct.unpack_from("<4Q", info.raw, 24)


def keys_at_stop(k):
    """Types the block, stops attn at its K-th system call stop (entry or exit) after the Enter that ends the block,
    types the keys there and lets attn go. Returns (exit status, output, whether the next prompt was already out)."""
    with tempfile.TemporaryDirectory() as state:
        t = Term(state)
        t.prompt()
        for line in ["s = 0", "for i in range(3000):", "    s += i"]:
            t.send(line + "\r")
            t.read("...> " if line != "s = 0" else "attn> ")
        t.prompt("...>")
        if libc.ptrace(PTRACE_ATTACH, t.pid, None, None) != 0:
            os.kill(t.pid, 9)
            os.waitpid(t.pid, 0)
            return None, f"ptrace refused: errno {ctypes.get_errno()}", True
        os.waitpid(t.pid, 0)                                   # the stop of the attach
        libc.ptrace(PTRACE_SETOPTIONS, t.pid, None, ctypes.c_void_p(PTRACE_O_TRACESYSGOOD))
        start, stops, signal_in, drawn, waiting = len(t.buf), 0, 0, False, False
        while True:
            libc.ptrace(PTRACE_SYSCALL, t.pid, None, ctypes.c_void_p(signal_in))
            _, status = os.waitpid(t.pid, 0)
            if not os.WIFSTOPPED(status):
                t.read(timeout=DEADLINE)
                return os.waitstatus_to_exitcode(status), t.buf.decode(errors="replace"), True
            sig = os.WSTOPSIG(status)
            signal_in = 0 if sig in (signal.SIGTRAP | 0x80, signal.SIGSTOP) else sig
            if sig != signal.SIGTRAP | 0x80:
                continue
            if not waiting:
                # the Enter that ends the block is typed once attn waits for a key (its poll of the terminal)
                call = syscall_entry(t.pid)
                if call and (call[0] == SYS_RESTART or call[0] == SYS_POLL and call[3] == 100):
                    waiting = True
                    t.send("\r")
                continue
            if stops == k:
                t.drain()
                drawn = b"attn> " in t.buf[start:]
                slave = os.open(f"/proc/{t.pid}/fd/0", os.O_RDWR | os.O_NOCTTY)
                t.send("print(s + 7)\r\x04")
                end = time.time() + DEADLINE
                while time.time() < end and struct.unpack("i", fcntl.ioctl(slave, termios.FIONREAD, b"\0" * 4))[0] < 13:
                    time.sleep(0.005)
                time.sleep(0.05)                               # the Ctrl-D, received with the line
                os.close(slave)
                libc.ptrace(PTRACE_DETACH, t.pid, None, None)
                code = t.wait()
                t.read(timeout=DEADLINE if code is not None else 0)     # to the end of attn's output
                return code, t.buf.decode(errors="replace"), drawn
            stops += 1


want = str(sum(range(3000)) + 7)
walked, late, skipped = 0, 0, False
for k in range(400):
    code, out, drawn = keys_at_stop(k)
    if code is None and out in ("ptrace refused: errno 1", "ptrace refused: errno 13"):
        # the machine forbids tracing a child (EPERM, EACCES: Yama ptrace_scope 3, a seccomp filter): this walk
        # cannot run here and is reported as skipped, not passed; the typed-ahead checks above still run
        print(f"skipped: the walk over system call stops ({out}: ptrace is not permitted on this machine)")
        skipped = True
        break
    walked += 1
    ok = code == 0 and out.count(want) == 1 and "rror" not in out
    if not ok:
        check(f"keys typed at system call stop {k} after the block's Enter: the line runs, then attn leaves", False,
              f"exit {code}: {out}")
        break
    late = late + 1 if drawn else 0
    if late >= 3:                                              # three stops past the next prompt's drawing: done
        break
if not skipped:
    check(f"keys typed at every system call stop from the block's Enter to the next prompt ({walked} stops): none lost",
          ok and late >= 3, f"walked {walked}, exit {code}: {out}")

# a Japanese or Chinese student's Ctrl-C: attn's own notes (the statement stopped, the line dropped) in their language,
# as the lessons speak it; Python's error messages stay English in every language
for lang, stopped, dropped in [("ja_JP.UTF-8", "中断しました (Ctrl-C): それまでに定義したものはすべて残っています",
                                "Ctrl-C はその行を取り消します。Ctrl-D で attn を終了します"),
                               ("zh_CN.UTF-8", "已中断（Ctrl-C）：之前定义的一切都保留着", "Ctrl-C 丢弃这一行；Ctrl-D 退出 attn")]:
    with tempfile.TemporaryDirectory() as state:
        t = Term(state, LANG=lang, LC_ALL=None, LC_MESSAGES=None)
        t.prompt()
        t.send("for i in range(10 ** 8): print('looping') if i == 0 else None\r")
        t.read("looping\r\n")
        t.clear()
        t.send("\x03")
        out = t.read(stopped)
        check(f"{lang}: Ctrl-C that stops a statement says so in the student's language",
              stopped in out and "interrupted" not in out, out)
        t.prompt()
        t.clear()
        t.send("x = (1 +\x03")
        out = t.read("attn> ")
        check(f"{lang}: Ctrl-C at the prompt says in the student's language what it did",
              dropped in out and "drops the line" not in out, out)
        t.clear()
        t.send("x\r")
        out = t.read("attn> ")
        check(f"{lang}: Python's error messages stay English", "error: name 'x' is not defined" in out, out)
        t.leave()

# Ctrl-D pressed as the prompt appears, before libedit reads the terminal: attn leaves. The moment is made exact with
# flow control: Ctrl-S stops attn's output, so attn waits inside its write of the prompt (seen in /proc as the write
# system call); Ctrl-D comes then, and Ctrl-Q lets the prompt out. A terminal still in canonical mode there took the
# key as an end of file that libedit, once raw, got as a NUL byte: lost, and attn waited for ever.
with tempfile.TemporaryDirectory() as state:
    t = Term(state)
    t.prompt()
    t.send("s = 0\r")
    t.prompt()
    t.send("for i in range(10000000):\r")
    t.read("...> ")
    t.send("    s += i\r")
    t.read("...> ")
    t.send("\r")                  # the loop runs (a second or more) and prints nothing
    t.read("\r\n")
    t.send("\x13")                # Ctrl-S: output stops
    end, syscall = time.time() + DEADLINE, ""
    while time.time() < end and syscall != "1":
        with open(f"/proc/{t.pid}/syscall") as f:
            syscall = f.read().split()[0]
        time.sleep(0.01)
    cooked = bool(termios.tcgetattr(t.fd)[3] & termios.ICANON)
    t.send("\x04\x11")           # Ctrl-D while the prompt is being written, then Ctrl-Q
    code = t.wait(timeout=10)
    check("Ctrl-D pressed while the prompt is drawn leaves attn", syscall == "1" and code == 0,
          f"stopped in system call {syscall}, terminal canonical then: {cooked}, exit {code}")

# the banner a student meets first: within 80 columns in English, Japanese and Chinese (its second line was 97
# wide and broke mid-word), and it names lesson and help
for lang, word in (("C.UTF-8", "lesson lists"), ("ja_JP.UTF-8", "レッスンの一覧"), ("zh_CN.UTF-8", "列出课程")):
    with tempfile.TemporaryDirectory() as state:
        t = Term(state, args=(), LANG=lang, LC_ALL=None, LC_MESSAGES=None)
        t.prompt()
        text = t.buf.decode(errors="replace").replace("\r\n", "\n")
        banner = text.split("attn>")[0].rstrip("\n").split("\n")
        wide = [l for l in banner if sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l) > 80]
        check(f"{lang}: the banner fits 80 columns and names lesson and help", banner and not wide and word in text
              and "help" in text, banner)
        t.leave()

# a teacher at a terminal: the next statement waits above the prompt after a bold "next> ", itself in the terminal's
# normal colours (the class took a statement shown as "attn> ..." for one that had run and printed nothing; dim text
# does not show on a projector); Enter takes back the empty prompt line and that line (ESC [ 2 A, ESC [ J) and shows
# the statement as run, then its output; after a detour the statement waits again above the prompt, and Enter takes
# that back the same way
with tempfile.TemporaryDirectory() as state:
    t = Term(state, args=("teach", "1"), COLUMNS="80")
    stmt = "X = torch.arange(12, dtype=torch.float32).reshape(1, 4, 3) / 10"
    pending = f"\x1b[1mnext> \x1b[0m{stmt}\r\n"
    out = t.read(pending)
    check("teach: the next statement waits after a bold next>, not dim, not as one that ran", pending in out and
          f"attn> {stmt}" not in out and "\x1b[2m" not in out, out[-300:])
    t.prompt()
    t.clear()
    t.send("\r")
    out = t.read("next> \x1b[0mX\r\n")
    check("teach: Enter takes back the prompt line and the next> line, and shows the statement once, as run",
          out.startswith("\r\n\x1b[2A\r\x1b[J") and out.count(f"attn> {stmt}\r\n") == 1, out)
    t.prompt()
    t.clear()
    t.send("X.sum()\r")
    out = t.read("(detour")
    check("teach: a detour runs and says Enter runs the next statement", "tensor(6.6000)" in out, out)
    out = t.read("next> \x1b[0mX\r\n")
    check("teach: after a detour the next statement waits again above the prompt", "statement)\r\n\x1b[1mnext> \x1b[0mX\r\n" in out, out)
    t.prompt()
    t.clear()
    t.send("\r")
    out = t.read("1.1000]]])")
    check("teach: after a detour, Enter takes back the prompt and the next> line, shows the statement, then its output",
          "\x1b[2A\r\x1b[Jattn> X\r\ntensor([[[0.0000" in out, out)
    t.leave()

finish()

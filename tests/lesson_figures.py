#!/usr/bin/python3
"""Figures in guided lessons go where they go at the REPL (issue 10): `attn lesson 3` and `attn teach 3` at a real
terminal (a pty of 80x24, no display) draw the chapter's two figures in the terminal with gnuplot's dumb terminal
(the plot frame and the figure's own title and legend appear, no "<figure ...>" summary); under Xvfb they open a
gnuplot window (checked on a screenshot); through a pipe, the same session shows the one-line summaries.
'N passed, N failed'. Skips the window part (and says so) without Xvfb, xwd or a window-capable gnuplot.
usage: lesson_figures.py ATTN_BINARY"""
import fcntl, os, pty, re, select, shutil, signal, struct, subprocess, sys, tempfile, termios, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
import refcheck  # noqa: E402
from refcheck import ATTN, finish  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# lesson 3's figures: the title of the first, the x label of the second, as lines of the drawing itself
FIG1 = re.compile(r"^ *Very Low Frequency Sin Wave *$", re.M)
FIG2 = re.compile(r"^ *Row \(position\) *$", re.M)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|[\x07\x08\x0c\x0e\x0f]")


def check(name, ok, detail=""):
    refcheck.check("lesson figures: " + name, ok, detail[-1500:] if isinstance(detail, str) else detail)


# The terminal queries attn sends before its first figure, and what a terminal without sixel answers to each. A
# terminal answers in the order it was asked, so all answers go out together in that order: answering the last one
# (device attributes) first would end attn's wait early and leave the other answer for the tty to echo.
QUERIES = re.compile(rb"\x1b\[(?:14t|16t|c)")
ANSWERS = {b"\x1b[14t": b"\x1b[4;384;640t", b"\x1b[16t": b"", b"\x1b[c": b"\x1b[?62;22c"}
# an answer that still arrives late (a loaded machine) is echoed by the tty itself as ^[[...: not attn's output
ECHOED_ANSWER = re.compile(r"\^\[\[\??[0-9;]*[ct]")


def session(args, env, inputs, until, timeout=60, times=1, then=None, cols=80):
    """Runs attn ARGS at a pty of 24 rows and COLS columns, answering the terminal queries as a terminal does;
    sends INPUTS one line at a time, each once attn has answered the previous one with a fresh prompt (output
    after that line, ending in '>', then quiet for 0.3 s), until `until` has appeared `times` times; then calls
    then() (attn still running) and ends it. Returns the output with escape codes removed. Waits for conditions,
    never for a fixed time: TIMEOUT is a deadline for a machine under load, not an expected duration."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execve(ATTN, [ATTN] + args, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    buf = b""
    end = time.time() + timeout
    pending = list(inputs)
    quiet_since = time.time()
    answered = 0            # the queries before this offset of buf are answered
    sent_at = 0             # where the output stood when the last line was sent
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            buf += data
            quiet_since = time.time()
            reply = b""
            for m in QUERIES.finditer(buf, answered):
                reply += ANSWERS[m.group()]
                answered = m.end()
            if reply:
                os.write(fd, reply)
        text = buf.decode(errors="replace")
        if text.count(until) >= times:
            if then:
                then()
            break
        fresh = buf[sent_at:].rstrip()
        if pending and fresh.endswith(b">") and time.time() - quiet_since > 0.3:
            sent_at = len(buf)
            os.write(fd, (pending.pop(0) + "\r").encode())
            quiet_since = time.time()
    else:
        buf += f"\n[the deadline of {timeout} s passed before {until!r} appeared {times} times]\n".encode()
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    return ECHOED_ANSWER.sub("", ANSI.sub("", buf.decode(errors="replace"))).replace("\r\n", "\n")


def figures_lesson_3(env, teacher, until="Lesson complete", times=1, then=None):
    """Walks through lesson 3 with skip (each statement runs, each question shows and runs its answer)."""
    args = ["teach", "3"] if teacher else ["lesson", "3"]
    return session(args, env, ["skip"] * 200, until, 300, times, then)


with tempfile.TemporaryDirectory() as state:
    env = dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", LANG="C.UTF-8")
    for k in ("DISPLAY", "ATTN_PLOT", "LC_ALL", "LC_MESSAGES", "COLUMNS", "LINES"):
        env.pop(k, None)
    for teacher in (False, True):
        mode = "teach 3" if teacher else "lesson 3"
        out = figures_lesson_3(env, teacher)
        check(f"{mode} at a terminal draws the first figure", FIG1.search(out) and "+-----" in out, out)
        check(f"{mode} at a terminal draws the second figure", FIG2.search(out), out)
        check(f"{mode} at a terminal shows no summary instead", "<figure" not in out, out)
        frames = len(re.findall(r"\+-{20,}\+", out))
        # the first figure in gnuplot's frame; the second (Col 6-9, curves that cross) as attn's four panels on one
        # x axis
        check(f"{mode}: the sine's plot frame and the four Col 6-9 panels over one x axis",
              frames >= 2 and "\u2514\u2500" in out and all(f"Col {c}" in out for c in range(6, 10)), f"{frames} frames\n{out}")

    # lesson 4's heatmap of P at 80x24: one line per position (taller than the screen: the top rows are in the
    # terminal's scrollback), and the lesson waits for Enter before its prose scrolls the figure away
    pause = "(the figure above: press Enter to go on)"
    out = session(["lesson", "4"], dict(env, XDG_STATE_HOME=os.path.join(state, "heat")),
                  ["jump heatmap"] + [""] * 6, pause, 120)
    screen = out.rstrip("\n").split("\n")[-24:]
    rows = [l for l in out.split("\n") if l.count("\u2580") == 64]
    check("lesson 4 at 80x24: the heatmap's 60 rows, its label and row 0 drawn, its colour bar on the screen when the lesson pauses",
          pause in out and "Row (position)" in out and len(rows) == 60 and re.search(r"^ 0 \u2580", out, re.M)
          and any("(Blues)" in l for l in screen), f"{len(rows)} rows\n" + "\n".join(screen))
    after = out[out.rfind(pause) + len(pause):].strip() if pause in out else "?"
    check("lesson 4 at 80x24: nothing after the figure but the pause (and its prompt, when it has come)",
          after in ("", "attn>"), out[-400:])

    # prose, questions, hints and feedback wrapped to a narrow terminal (code and tensors are shown as they are)
    out = session(["lesson", "1"], dict(env, XDG_STATE_HOME=os.path.join(state, "narrow")),
                  ["", "", "", "scores = X", "hint", "skip"] + ["skip"] * 200, "Lesson complete", 300, cols=50)
    # (a module's repr lists its children as "  (name): Linear(...)" and closes with ")": output, not prose)
    prose_lines = [l for l in out.split("\n") if l.strip() and not re.match(r"(attn>|  \.\.\.>| {4}|tensor|\s*\[|[A-Za-z_]+\(|torch\.|\s*\(\w+\): |\)$)", l)
                   and "attn> " not in l]
    wide = [l for l in prose_lines if len(l.rstrip()) > 50]
    check("lesson 1 at a 50-column terminal: every line of prose fits", len(prose_lines) > 40 and not wide,
          f"{len(prose_lines)} prose lines; too wide: {wide[:5]}")
    check("lesson 1 at 50 columns: a hint wraps under itself", re.search(r"^Hint 1 of \d: .*\n {13}\S", out, re.M), out)

    # through a pipe the same steps give summaries (replay, --check and pipes are not terminals)
    p = subprocess.run([ATTN, "lesson", "3"], input="skip\n" * 80, capture_output=True, text=True, timeout=300,
                       env=dict(env, XDG_STATE_HOME=os.path.join(state, "pipe")), cwd=ROOT)
    check("through a pipe: summaries", "<figure 1: 1 line of 1000 points" in p.stdout and "<figure 2: 4 lines" in p.stdout,
          p.stdout)

# with a display: a gnuplot window
have_window = shutil.which("Xvfb") and shutil.which("xwd") and re.search(
    r"^\s+(qt|wxt|x11)\s", subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True).stderr +
    subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True).stdout, re.M)
if not have_window:
    print("skipped the window part: needs Xvfb, xwd and a gnuplot with qt, wxt or x11")
else:
    rfd, wfd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-screen", "0", "1024x700x24"], pass_fds=(wfd,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(wfd)
    display = b""
    end = time.time() + 30
    while time.time() < end and not display.endswith(b"\n"):
        r, _, _ = select.select([rfd], [], [], 0.1)
        if r:
            chunk = os.read(rfd, 16)
            if not chunk:
                break
            display += chunk
    os.close(rfd)
    try:
        check("Xvfb started", display.strip() != b"", "no display number")
        with tempfile.TemporaryDirectory() as state:
            env = dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", LANG="C.UTF-8", DISPLAY=":" + display.decode().strip())
            for k in ("ATTN_PLOT", "LC_ALL", "LC_MESSAGES"):
                env.pop(k, None)
            for teacher in (False, True):
                mode = "teach 3" if teacher else "lesson 3"
                seen = []

                def screen_colours():
                    """The screen, grabbed until the window shows a plot (more than 5 colours) or 60 s have passed:
                    gnuplot paints its window after attn has printed, later still on a loaded machine."""
                    end = time.time() + 60
                    while True:
                        shot = subprocess.run(["xwd", "-root", "-silent"], capture_output=True, env=env).stdout
                        header = int.from_bytes(shot[0:4], "big") if len(shot) > 4 else 0
                        body = shot[header + 256 * 12:]
                        colours = len(set(body[i:i + 4] for i in range(0, min(len(body), 4000000), 4)))
                        if colours > 5 or time.time() > end:
                            seen.append(colours)
                            return
                        time.sleep(0.2)
                out = figures_lesson_3(env, teacher, ": in the gnuplot window>", 2, screen_colours)
                check(f"{mode} with a display: both figures in a window",
                      out.count(": in the gnuplot window>") == 2 == out.count("<figure"), out)
                colours = seen[0] if seen else 0
                check(f"{mode} with a display: the window shows the plot ({colours} colours on screen)", colours > 5)
    finally:
        xvfb.terminate()
        xvfb.wait()
finish()

#!/usr/bin/python3
"""A teacher's projector (issue 26): `attn teach 1` at a pty, its figures in gnuplot windows on an Xvfb screen of
1920x1080 of the test's own with a window manager (openbox), ATTN_FIGURE_SCALE=2, and a window standing for the
teacher's terminal (xlogo) holding the keyboard:
  fit:   a heads figure (figsize 7 x 3.7: 2016 pixels wide at scale 2) and the PE heat map (3.5 x 4: 1152 tall)
         each in a window inside the screen, as the X server reports it (xwininfo), title bar included;
  focus: after each plot the keyboard is still the terminal's (xdotool getwindowfocus), not the figure's;
  keys:  'g' and 'l' typed into the figure window (a slip of the teacher's mouse) leave the figure as it was
         (gnuplot's hotkeys would remove the grid and set a log axis): the window's pixels before and after;
  end:   when the class ends (quit), its figure windows close: no stale heat map when the next class begins.
Skipped, and said so, without Xvfb, openbox, xdotool, xwininfo, xwd or a gnuplot with a window terminal.
'N passed, N failed'.  usage: projector.py ATTN_BINARY"""
import fcntl, os, pty, re, select, shutil, signal, struct, subprocess, sys, tempfile, termios, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
import refcheck  # noqa: E402
from refcheck import ATTN, finish  # noqa: E402

W, H = 1920, 1080
HEADS = "d2l.show_heatmaps(torch.rand(1, 8, 10, 10), xlabel='Keys', ylabel='Queries', titles=['Head %d' % i for i in range(8)], figsize=(7, 3.7))"
PE = "d2l.show_heatmaps(torch.rand(1, 1, 60, 32), xlabel='Column (encoding dimension)', ylabel='Row (position)', figsize=(3.5, 4), cmap='Blues')"


def check(name, ok, detail=""):
    if os.environ.get("PROJECTOR_VERBOSE"): print(("ok   " if ok else "FAIL ") + name)
    refcheck.check("projector: " + name, ok, detail[-1500:] if isinstance(detail, str) else detail)


def tool(env, *args):
    return subprocess.run(list(args), capture_output=True, text=True, env=env, timeout=30).stdout


def gnuplot_windows(env):
    """[(id, x, y, w, h)] of the mapped gnuplot figure windows, in root coordinates."""
    out = []
    for line in tool(env, "xwininfo", "-root", "-tree").splitlines():
        m = re.match(r'\s*(0x[0-9a-f]+) "Gnuplot[^"]*":.*?(\d+)x(\d+)[+-]-?\d+[+-]-?\d+\s+\+(-?\d+)\+(-?\d+)', line)
        if m:
            wid = int(m.group(1), 16)
            if "IsViewable" in tool(env, "xwininfo", "-id", str(wid)):
                out.append((wid, int(m.group(4)), int(m.group(5)), int(m.group(2)), int(m.group(3))))
    return out


def frame_top(env, wid):
    """The height of the window manager's title bar above window wid (xwininfo -frame: its frame's top edge)."""
    m = re.search(r"Frame extents: (\d+), (\d+), (\d+), (\d+)", tool(env, "xprop", "-id", str(wid), "_NET_FRAME_EXTENTS")
                  .replace("_NET_FRAME_EXTENTS(CARDINAL) = ", "Frame extents: "))
    return int(m.group(3)) if m else 0


def grab(env, x, y, w, h):
    shot = subprocess.run(["xwd", "-root", "-silent"], capture_output=True, env=env).stdout
    hd = struct.unpack(">25I", shot[:100])
    size, ncol, bpp, bpl = hd[0], hd[19], hd[11] // 8, hd[12]
    body, order = shot[size + ncol * 12:], "little" if hd[7] == 0 else "big"
    return [int.from_bytes(body[o:o + bpp], order) & 0xffffff
            for r in range(h) for o in range((y + r) * bpl + x * bpp, (y + r) * bpl + (x + w) * bpp, bpp)]


class Class:
    """attn ARGS at a pty of 24 x 80; send() types a line once attn has gone quiet at a prompt."""

    def __init__(self, args, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(ATTN, [ATTN] + args, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.buf = b""

    def pump(self, until=None, timeout=60):
        end, quiet = time.time() + timeout, time.time()
        while time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                self.buf += data
                quiet = time.time()
                if b"\x1b[c" in data:
                    os.write(self.fd, b"\x1b[?62;22c")
            text = self.buf.decode(errors="replace")
            if until is not None and until in text:
                return True
            if until is None and self.buf.rstrip().endswith(b">") and time.time() - quiet > 0.5:
                return True
        return False

    def send(self, line, until=None):
        self.pump()
        self.buf = b""
        os.write(self.fd, (line + "\r").encode())
        return self.pump(until)

    def ended(self, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            self.pump(timeout=0.2)
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return True
        os.kill(self.pid, signal.SIGTERM)
        os.waitpid(self.pid, 0)
        return False


needs = ["Xvfb", "openbox", "xdotool", "xwininfo", "xprop", "xwd", "xlogo", "gnuplot"]
terms = subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True, text=True).stderr if shutil.which("gnuplot") else ""
if any(not shutil.which(n) for n in needs) or not re.search(r"^\s+(qt|wxt|x11)\s", terms, re.M):
    print("skipped: needs %s and a gnuplot with qt, wxt or x11 (scripts/install-deps installs them)" % ", ".join(needs))
    print("0 passed, 0 failed")
    sys.exit(0)

rfd, wfd = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-screen", "0", "%dx%dx24" % (W, H)], pass_fds=[wfd],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(wfd)
display = b""
deadline = time.time() + 30
while time.time() < deadline and not display.endswith(b"\n"):
    if select.select([rfd], [], [], 0.1)[0]:
        chunk = os.read(rfd, 16)
        if not chunk:
            break
        display += chunk
os.close(rfd)
started = []
try:
    check("Xvfb started", display.strip() != b"", "no display number")
    state = tempfile.mkdtemp()
    env = dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", LANG="C.UTF-8", DISPLAY=":" + display.decode().strip(),
               ATTN_FIGURE_SCALE="2")
    for k in ("ATTN_PLOT", "LC_ALL", "LC_MESSAGES", "COLUMNS", "LINES"):
        env.pop(k, None)
    wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started.append(wm)
    time.sleep(1)
    term = subprocess.Popen(["xlogo", "-geometry", "600x400+0+0"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started.append(term)
    deadline = time.time() + 20
    tid = ""
    while time.time() < deadline and not tid:
        tid = tool(env, "xdotool", "search", "--sync", "--class", "xlogo").split("\n")[0].strip()
    tool(env, "xdotool", "windowactivate", "--sync", tid)
    check("the terminal's window has the keyboard before the class", tool(env, "xdotool", "getwindowfocus").strip() == tid)

    c = Class(["teach", "1"], env)
    for name, stmt in (("heads figure", HEADS), ("PE heat map", PE)):
        before = {w[0] for w in gnuplot_windows(env)}
        c.send(stmt, ": in the gnuplot window>")
        wins, deadline = [], time.time() + 20
        while time.time() < deadline and not wins:
            time.sleep(0.3)
            wins = gnuplot_windows(env)
        check(f"{name}: drawn in a window", len(wins) == 1, c.buf.decode(errors="replace") + str(wins) + str(before))
        if not wins:
            continue
        time.sleep(1.5)           # the window manager has had its chance to move the focus
        wid, x, y, w, h = wins[0]
        top = frame_top(env, wid)
        check(f"{name}: the window ({w}x{h} at {x},{y}, title bar {top}) is inside the {W}x{H} screen",
              x >= 0 and y - top >= 0 and x + w <= W and y + h <= H, str(wins))
        # the figure fills its window to the right edge: the window manager did not have to cut a larger one down
        edge = grab(env, x + w - 60, y + h // 2, 30, 40)
        white = sum(p == 0xffffff for p in edge)
        check(f"{name}: the figure reaches the window's right edge ({white} of 1200 pixels there are its white)",
              white == 1200)
        focus = tool(env, "xdotool", "getwindowfocus").strip()
        check(f"{name}: the keyboard stays with the terminal (focus {focus}, terminal {tid}, figure {wid})", focus == tid)
        # a key meant for attn lands in the figure window: the figure stays as it was
        shot = grab(env, x, y, w, h)
        tool(env, "xdotool", "windowactivate", "--sync", str(wid))
        tool(env, "xdotool", "key", "--delay", "100", "g", "l", "a")
        time.sleep(1.5)
        changed = sum(a != b for a, b in zip(shot, grab(env, x, y, w, h)))
        check(f"{name}: 'g', 'l' and 'a' typed into the window leave the figure as it was ({changed} pixels changed)", changed == 0)
        tool(env, "xdotool", "windowactivate", "--sync", tid)
    c.send("quit")
    check("the class ends at quit", c.ended())
    # a class that only drew (no keys in its window) and ended: its windows go with it
    wins = gnuplot_windows(env)
    check("the windows are closed before the next class", not wins, str(wins))
    c = Class(["teach", "1"], env)
    c.send(HEADS, ": in the gnuplot window>")
    deadline = time.time() + 20
    while time.time() < deadline and not gnuplot_windows(env):
        time.sleep(0.3)
    c.send("quit")
    check("the next class ends at quit", c.ended())
    deadline, wins = time.time() + 10, gnuplot_windows(env)
    while time.time() < deadline and wins:
        time.sleep(0.3)
        wins = gnuplot_windows(env)
    check("the class's figure windows close when it ends", not wins, str(wins))
    shutil.rmtree(state, ignore_errors=True)
finally:
    for p in started:
        p.terminate()
        p.wait()
    xvfb.terminate()
    xvfb.wait()
finish()

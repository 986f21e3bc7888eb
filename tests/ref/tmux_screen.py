"""tmux_screen.py - attn in a real terminal as a person sees it: a tmux server of its own (its own socket), one
window of 80x24 (or another size) running a command, its screen read back as text. Used by the tests that look at
what a student meets at a terminal (tests/cjk_pty.py, tests/lesson_pty.py). Every server a test starts is stopped
when it exits, whatever failed, and only those."""
import atexit, os, shutil, signal, subprocess, sys, tempfile, time

OPEN = []          # the tmux servers this test started: all stopped at exit, whatever failed
DEADLINE = 60      # seconds a wait may take before it fails: waits end as soon as the text is there


@atexit.register
def stop_all():
    for s in list(OPEN):
        s.close()


def stop_on_signal(signum, frame):
    sys.exit(128 + signum)          # runs stop_all: a killed test leaves no tmux server behind


signal.signal(signal.SIGTERM, stop_on_signal)
signal.signal(signal.SIGHUP, stop_on_signal)


def running(pid):
    """Is PID a live process (an exited one waiting for its parent to collect it is not)?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


class Screen:
    """One tmux server of its own (its socket in a temporary directory of its own, so it never meets the user's
    tmux or another test's) with one 80x24 window running a command."""

    def __init__(self, cmd, env, cols=80, rows=24, state=None):
        self.dir = tempfile.mkdtemp(prefix="attn-tmux-")
        self.sock = os.path.join(self.dir, "socket")
        self.server = 0
        self.own_state = state is None
        self.state = state or tempfile.mkdtemp()
        envs = " ".join(f"{k}='{v}'" for k, v in dict(env, XDG_STATE_HOME=self.state, ATTN_PLOT="summary").items())
        OPEN.append(self)
        # the pane stays after the command ends (a listing), until close() stops this server
        subprocess.run(self.tmux("new-session", "-d", "-x", str(cols), "-y", str(rows), "-s", "t",
                                 f"env {envs} {cmd}; sleep 600"), check=True, env=self.tmux_env())
        pid = self.run("display-message", "-p", "#{pid}").strip()
        self.server = int(pid) if pid.isdigit() else 0

    def tmux(self, *args):
        return ["tmux", "-S", self.sock, "-f", "/dev/null", *args]

    @staticmethod
    def tmux_env():
        env = dict(os.environ)
        env.pop("TMUX", None)       # started inside someone's tmux: still a server of its own
        return env

    def run(self, *args):
        return subprocess.run(self.tmux(*args), capture_output=True, text=True, env=self.tmux_env(), timeout=DEADLINE).stdout

    def send(self, text, enter=True):
        subprocess.run(self.tmux("send-keys", "-t", "t", "-l", text), check=True, env=self.tmux_env(), timeout=DEADLINE)
        if enter:
            subprocess.run(self.tmux("send-keys", "-t", "t", "Enter"), check=True, env=self.tmux_env(), timeout=DEADLINE)

    def text(self):
        """The screen and its scrollback, wrapped lines joined."""
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def wait_for(self, needle, timeout=DEADLINE):
        end = time.time() + timeout
        while time.time() < end:
            t = self.text()
            if needle in t:
                return t
            time.sleep(0.1)
        return self.text()

    def close(self):
        """Stops this server (and the attn in it), only this one; the server's own pid if it does not go."""
        if self in OPEN:
            OPEN.remove(self)
        try:
            subprocess.run(self.tmux("kill-server"), capture_output=True, env=self.tmux_env(), timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            pass
        if self.server:
            end = time.time() + 10
            while time.time() < end and running(self.server):
                time.sleep(0.05)
            if running(self.server):
                try:
                    os.kill(self.server, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.own_state:
            shutil.rmtree(self.state, ignore_errors=True)

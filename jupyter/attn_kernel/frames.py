"""The attn process behind a kernel and the frames it exchanges with it (the format: src/repl/frames.c).

A frame is a header line "KIND LEN [ARG ...]" and exactly LEN bytes after it."""
import os
import shutil
import signal
import subprocess


class AttnDied(Exception):
    """The attn process ended (killed, crashed): its exit status or signal is in the message."""


def attn_binary():
    """The attn the kernel runs: $ATTN_BIN (kernel.json sets it), else attn on PATH."""
    path = os.environ.get("ATTN_BIN") or shutil.which("attn")
    if not path:
        raise RuntimeError("attn_kernel: no attn found (set ATTN_BIN, or put attn on PATH)")
    return path


class AttnProcess:
    """One `attn --frames`: start() it, send() a request, read() its reply frames."""

    def __init__(self, binary=None):
        self.binary = binary or attn_binary()
        self.proc = None
        self.version = ""

    def start(self):
        self.proc = subprocess.Popen([self.binary, "--frames"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     bufsize=0)
        kind, args, _ = self.read()
        if kind != "ready":
            raise AttnDied("attn --frames did not start (it said %r)" % kind)
        self.version = args[0] if args else ""

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def send(self, kind, text, pos=None):
        data = text.encode("utf-8")
        head = "%s %d%s\n" % (kind, len(data), "" if pos is None else " %d" % pos)
        try:
            self.proc.stdin.write(head.encode("ascii") + data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise AttnDied(self.death())

    def _read_exact(self, n):
        chunks, got = [], 0
        while got < n:
            b = self.proc.stdout.read(n - got)
            if not b:
                raise AttnDied(self.death())
            chunks.append(b)
            got += len(b)
        return b"".join(chunks)

    def read(self):
        """The next frame: (kind, [args], payload bytes). AttnDied when attn has gone."""
        line = self.proc.stdout.readline()
        if not line.endswith(b"\n"):
            raise AttnDied(self.death())
        words = line.decode("ascii", "replace").split()
        if len(words) < 2 or not words[1].isdigit():
            raise AttnDied("attn sent something that is not a frame: %r" % line[:80])
        return words[0], words[2:], self._read_exact(int(words[1]))

    def interrupt(self):
        if self.alive():
            os.kill(self.proc.pid, signal.SIGINT)

    def death(self):
        """Why attn is gone, in words."""
        try:
            rc = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "the attn process stopped answering"
        if rc < 0:
            try:
                name = signal.Signals(-rc).name
            except ValueError:
                name = "signal %d" % -rc
            return "the attn process died (%s)" % name
        return "the attn process ended (exit status %d)" % rc

    def stop(self):
        """Ends attn: its input closes (it leaves as at the end of a file), then SIGTERM, then SIGKILL."""
        if not self.proc:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None and self.proc.poll() is None:
                self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=2)
                break
            except subprocess.TimeoutExpired:
                continue
        self.proc.stdout.close()

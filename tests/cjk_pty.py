#!/usr/bin/python3
"""cjk_pty.py - attn at a real terminal (tmux, 80x24) as a Japanese or Chinese student meets it: Japanese and
Chinese typed at the prompt arrive whole (whatever the locale variables say), and the caret under an error after
CJK text stands under the right character on screen. Screen columns are counted with Python's unicodedata (East
Asian Wide/Fullwidth = 2), independently of attn. Each test starts its own tmux server (its own socket) and stops
only that server. Prints 'N passed, N failed'.
usage: cjk_pty.py ATTN_BINARY"""
import os, shutil, subprocess, sys, tempfile, time, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
from refcheck import ATTN, check, finish  # noqa: E402


def width(s):
    return sum(0 if unicodedata.combining(c) or c == "\u200b" else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


class Screen:
    """One tmux server with one 80x24 window running a command."""

    def __init__(self, cmd, env, cols=80, rows=24):
        self.sock = f"attn-i18n-{os.getpid()}-{time.monotonic_ns()}"
        self.state = tempfile.mkdtemp()
        envs = " ".join(f"{k}={v}" for k, v in dict(env, XDG_STATE_HOME=self.state, ATTN_PLOT="summary").items())
        subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", "new-session", "-d", "-x", str(cols), "-y", str(rows),
                        "-s", "t", f"env {envs} {cmd}"], check=True)

    def send(self, text, enter=True):
        subprocess.run(["tmux", "-L", self.sock, "send-keys", "-t", "t", "-l", text], check=True)
        if enter:
            subprocess.run(["tmux", "-L", self.sock, "send-keys", "-t", "t", "Enter"], check=True)

    def text(self):
        return subprocess.run(["tmux", "-L", self.sock, "capture-pane", "-p", "-t", "t"], capture_output=True, text=True).stdout

    def wait_for(self, needle, timeout=10):
        end = time.time() + timeout
        while time.time() < end:
            t = self.text()
            if needle in t:
                return t
            time.sleep(0.1)
        return self.text()

    def close(self):
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True)
        shutil.rmtree(self.state, ignore_errors=True)


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


if not shutil.which("tmux"):
    print("tmux is missing: run scripts/install-deps")
    check("tmux installed", False)
    finish()

caret_case("ja_JP.UTF-8", "s = '日本語のテキスト' + undefined_name", "undefined_name")
caret_case("zh_CN.UTF-8", "print('位置编码：', 自注意力)", "自注意力")
caret_case("C", "x = len('（自己注意）') + zz", "zz")
caret_case("", "label = 'Café 位置' ; y = nope", "nope")
finish()

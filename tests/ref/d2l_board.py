#!/usr/bin/python3
"""d2l.ProgressBoard as a model trains with d2l.Trainer (issue 24): where its curves go and what Ctrl-C leaves.
  files: plot_target('files') writes the board as ONE figure (figure-1.svg, not a figure per point), drawn after
         the statement in its last state: a curve per label with as many points as board.data holds, the legend
         'train_loss' and 'val_loss', the x label 'epoch' and the x axis over [0, max_epochs].
  terminal, at an 80x24 pty: the board redrawn in place while it trains (the cursor goes back up over the rows of
         the last drawing, the same number each time), at most about 10 times a second, its last state drawn; on a
         real terminal (tmux, with its scrollback) the legend appears once: no figure per redraw.
  Ctrl-C at the prompt while fit runs: the REPL stays (its interruption note, then the prompt); the parameters are
         those of exactly trainer.train_batch_idx whole steps (the same steps run again from the start give the
         same tensors, bit for bit): no step was cut in half.
'N passed, N failed'.  usage: d2l_board.py ATTN_BINARY"""
import os, pty, re, select, sys, tempfile, time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, attn, check, finish  # noqa: E402
from termscreen import run_pty  # noqa: E402

# the book's linear regression (§3.4, §3.5) on data made without random numbers, read in order
SETUP = """class SyntheticRegressionData(d2l.DataModule):
    def __init__(self, w, b, noise=0.01, num_train=100, num_val=40, batch_size=10):
        super().__init__()
        self.save_hyperparameters()
        n = num_train + num_val
        self.X = (torch.arange(n * len(w)).reshape(n, len(w)) % 7 - 3) / 4
        noise = ((torch.arange(n) % 5 - 2) * noise).reshape(n, 1)
        self.y = torch.matmul(self.X, w.reshape((-1, 1))) + b + noise
    def get_dataloader(self, train):
        i = slice(0, self.num_train) if train else slice(self.num_train, None)
        return self.get_tensorloader((self.X, self.y), False, i)

class LinearRegressionScratch(d2l.Module):
    def __init__(self, num_inputs, lr, sigma=0.01):
        super().__init__()
        self.save_hyperparameters()
        self.w = torch.full((num_inputs, 1), sigma, requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)
    def forward(self, X):
        return torch.matmul(X, self.w) + self.b
    def loss(self, y_hat, y):
        return ((y_hat - y) ** 2 / 2).mean()
    def configure_optimizers(self):
        return SGD([self.w, self.b], self.lr)

class SGD(d2l.HyperParameters):
    def __init__(self, params, lr):
        self.save_hyperparameters()
    def step(self):
        for param in self.params:
            param -= self.lr * param.grad
    def zero_grad(self):
        for param in self.params:
            if param.grad is not None:
                param.grad.zero_()

class SlowSGD(SGD):
    def step(self):
        self.params[0] -= self.lr * self.params[0].grad
        x = 0
        for i in range(3000000):
            x += 1
        self.params[1] -= self.lr * self.params[1].grad

class SlowScratch(LinearRegressionScratch):
    def configure_optimizers(self):
        return SlowSGD([self.w, self.b], self.lr)

class LinearRegression(d2l.Module):
    def __init__(self, lr):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Linear(2, 1)
        self.net.weight.data.fill_(0.01)
        self.net.bias.data.fill_(0)
        for p in self.parameters():
            p.requires_grad_()
    def loss(self, y_hat, y):
        return ((y_hat - y) ** 2 / 2).mean()

"""


def svg_curves(path):
    """The SVG's data curves: {legend text: number of vertices} (gnuplot draws plot N's curve and its legend entry in
    groups <g id='gnuplot_plot_N'>: the text is the label, the longest path the curve), and all its texts."""
    root = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    labels, vertices, texts = {}, {}, []
    for g in root.iter(ns + "g"):
        gid = g.get("id", "")
        if not re.match(r"gnuplot_plot_\d+$", gid):
            continue
        label = "".join("".join(t.itertext()) for t in g.iter(ns + "text")).strip()
        if label:
            labels[gid] = label
        for p in g.iter(ns + "path"):
            vertices[gid] = max(vertices.get(gid, 0), len(re.findall(r"[ML]", p.get("d", ""))))
    for t in root.iter(ns + "text"):
        texts.append("".join(t.itertext()).strip())
    return {labels.get(k, k): n for k, n in vertices.items()}, texts


def test_files():
    d = tempfile.mkdtemp(prefix="attn-board-")
    out = attn("plot_target('files')\n" + SETUP +
               "data = SyntheticRegressionData(w=torch.tensor([2, -3.4]), b=4.2)\n"
               "model = LinearRegression(lr=0.1)\n"
               "trainer = d2l.Trainer(max_epochs=3)\n"
               "trainer.fit(model, data)\n"
               "print('POINTS', len(model.board.data['train_loss']), len(model.board.data['val_loss']))\n"
               "savefig('board.png')\n", d)
    files = sorted(f for f in os.listdir(d) if f.startswith("figure-"))
    check("files: one figure for the whole training", files == ["figure-1.svg"], f"{files}; output {out!r}")
    check("files: said once where it went", out.count("<figure saved to figure-1.svg>") == 1, out)
    m = re.search(r"POINTS (\d+) (\d+)", out)
    if not files or not m:
        return
    curves, texts = svg_curves(os.path.join(d, files[0]))
    want = {"train_loss": int(m.group(1)), "val_loss": int(m.group(2))}
    check("files: board points as d2l averages them (6 train, 3 val)", want == {"train_loss": 6, "val_loss": 3}, str(want))
    check("files: one curve per label, in the legend", set(curves) == set(want), f"{curves}")
    for k, n in want.items():
        check(f"files: {k} drawn through its {n} points", curves.get(k, 0) == n, f"{curves}")
    check("files: x label 'epoch'", "epoch" in texts, str(texts))
    check("files: x axis over [0, max_epochs]", "0" in texts and "3" in texts, str(texts))
    check("files: savefig writes the board", os.path.getsize(os.path.join(d, "board.png")) > 1000)
    print(f"(board drawn to {d}/board.png)")


def test_terminal():
    long = SETUP.replace("num_train=100, num_val=40", "num_train=20000, num_val=400")
    code = ("plot_target('terminal')\n" + long + "data = SyntheticRegressionData(w=torch.tensor([2, -3.4]), b=4.2)\n"
            "model = LinearRegression(lr=0.01)\ntrainer = d2l.Trainer(max_epochs=40)\n")
    t0 = time.time()
    out = run_pty(code + "trainer.fit(model, data)\nprint('DONE', len(model.board.data['val_loss']))\n", tempfile.gettempdir())
    secs = time.time() - t0
    ups = re.findall(r"\x1b\[(\d+)A\r\x1b\[J", out)
    draws = out.count("\x0c")                # gnuplot's dumb terminal starts each drawing with a form feed
    check("terminal: trained to the end", "DONE 40" in out, out[-300:])
    check("terminal: redrawn in place while training (cursor back up)", len(ups) >= 2, f"{len(ups)} redraws in {secs:.1f} s")
    check("terminal: back up over the same rows each time, within 24", len(set(ups)) == 1 and 0 < int(ups[0]) <= 22, str(set(ups)))
    check("terminal: at most about 10 redraws a second", len(ups) <= secs * 10 + 2, f"{len(ups)} redraws in {secs:.1f} s")
    print(f"(terminal: {len(ups)} redraws in {secs:.1f} s)")
    check("terminal: every drawing but the first went back up over the last", draws >= len(ups) + 1, f"{draws} drawings, {len(ups)} ups")
    last = out[out.rfind("\x1b[J"):] if ups else out
    check("terminal: the last state drawn (legend, epoch axis)", "val_loss" in last and "epoch" in last, last[-400:])


def test_terminal_prints():
    """A line printed while the board trains (an epoch's number) stays: the board is drawn anew below it."""
    code = ("plot_target('terminal')\n" + SETUP.replace("num_train=100, num_val=40", "num_train=20000, num_val=400") +
            "class Loud(d2l.Trainer):\n    def fit_epoch(self):\n        print('EPOCH', self.epoch)\n        super().fit_epoch()\n\n"
            "data = SyntheticRegressionData(w=torch.tensor([2, -3.4]), b=4.2)\n"
            "model = LinearRegression(lr=0.01)\ntrainer = Loud(max_epochs=8)\ntrainer.fit(model, data)\n")
    out = run_pty(code, tempfile.gettempdir())
    epochs = [m.start() for m in re.finditer(r"EPOCH \d", out)]
    bad = [k for k, at in enumerate(epochs[1:], 1) if re.search(r"\x1b\[\d+A", out[at:(out.find("\x0c", at) + 1) or None])]
    check("terminal: every epoch's line printed", len(epochs) == 8, f"{len(epochs)} EPOCH lines")
    check("terminal: no redraw goes back up over a printed line", not bad, f"epochs {bad}")


def test_tmux():
    """The same training in a real terminal (tmux 80x24, with scrollback): one board on the screen at the end."""
    import shutil
    if not shutil.which("tmux"):
        print("(tmux not installed: the real-terminal check is skipped)")
        return
    from tmux_screen import Screen as Tmux
    d = tempfile.mkdtemp(prefix="attn-board-tmux-")
    with open(os.path.join(d, "train.py"), "w") as f:
        f.write("plot_target('terminal')\n" + SETUP.replace("num_train=100, num_val=40", "num_train=4000, num_val=400") +
                "data = SyntheticRegressionData(w=torch.tensor([2, -3.4]), b=4.2)\n"
                "model = LinearRegression(lr=0.01)\ntrainer = d2l.Trainer(max_epochs=40)\n"
                "trainer.fit(model, data)\nprint('DONE', len(model.board.data['val_loss']))\n")
    t = Tmux(f"{ATTN} -q {os.path.join(d, 'train.py')}", {"TERM": "xterm-256color"})
    try:
        text = t.wait_for("DONE 40")
        lines = text.rstrip("\n").split("\n")
        check("tmux: trained to the end", "DONE 40" in text, text[-300:])
        check("tmux: one board on screen and in the scrollback (redrawn in place)",
              text.count("train_loss") == 1 and text.count("val_loss") == 1, text)
        check("tmux: the board within 24 rows", len([l for l in lines if l.strip()]) <= 24, f"{len(lines)} lines")
    finally:
        t.close()


class Repl:
    """attn's REPL at an 80x24 pseudo-terminal, typed into as a person types."""

    def __init__(self, cwd):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(cwd)
            env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "ATTN_PLOT")}
            env.update(ATTN_PLOT="none", XDG_STATE_HOME=cwd, TERM="xterm")
            os.execve(ATTN, [ATTN, "-q"], env)
        import fcntl, struct, termios
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.out = b""

    def read(self, secs):
        end = time.time() + secs
        while time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if r:
                try:
                    d = os.read(self.fd, 65536)
                except OSError:
                    return
                if not d:
                    return
                self.out += d

    def wait_for(self, needle, secs=60):
        end = time.time() + secs
        while time.time() < end and needle.encode() not in self.out:
            self.read(0.1)
        return needle.encode() in self.out

    def type(self, text):
        for line in text.split("\n"):
            os.write(self.fd, line.encode() + b"\r")
            self.read(0.05)

    def close(self):
        try:
            os.write(self.fd, b"quit()\r")
            self.read(1)
        except OSError:
            pass
        for _ in range(50):
            if os.waitpid(self.pid, os.WNOHANG)[0]:
                break
            time.sleep(0.1)
        else:
            os.kill(self.pid, 9)        # the attn this test started, by its pid
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def test_interrupt(scratch):
    """scratch: the book's §3.4 model (self.w, self.b) stepped by its own SGD, a Python loop ('slow': one that
    takes 0.3 s between w's update and b's, so that Ctrl-C lands inside the step); else nn.Linear and
    torch.optim.SGD."""
    make = {"slow": "SlowScratch(2, lr=0.01)", True: "LinearRegressionScratch(2, lr=0.01)"}.get(scratch, "LinearRegression(lr=0.01)")
    params = ("m2.w, model.w), torch.equal(m2.b, model.b)" if scratch else
              "m2.net.weight, model.net.weight), torch.equal(m2.net.bias, model.net.bias)")
    d = tempfile.mkdtemp(prefix="attn-board-int-")
    r = Repl(d)
    try:
        r.wait_for("attn>", 20)
        r.type(SETUP + "data = SyntheticRegressionData(w=torch.tensor([2, -3.4]), b=4.2)\n"
               f"model = {make}\ntrainer = d2l.Trainer(max_epochs=100000)\n")
        r.read(0.5)
        r.out = b""
        r.type("trainer.fit(model, data)")
        r.read(1.5)
        os.write(r.fd, b"\x03")                 # Ctrl-C while it trains
        stopped = r.wait_for("interrupted (Ctrl-C)", 20)
        check("Ctrl-C: fit stops with the interruption note", stopped, r.out[-300:].decode("utf-8", "replace"))
        r.type("k = trainer.train_batch_idx\n"
               f"m2 = {make}\n"
               "opt = m2.configure_optimizers()\n"
               "batches = list(data.train_dataloader())\n"
               "for i in range(k):\n"
               "    X, y = batches[i % len(batches)]\n"
               "    l = m2.loss(m2(X), y)\n"
               "    opt.zero_grad()\n"
               "    with torch.no_grad():\n"
               "        l.backward()\n"
               "        opt.step()\n"
               "\n"
               f"print('SAME', k > 0 or {scratch == 'slow'}, torch.equal({params})\n")
        ok = r.wait_for("SAME ", 60)
        r.read(0.3)
        m = re.search(rb"SAME (\w+) (\w+) (\w+)", r.out)
        check("Ctrl-C: the REPL goes on", ok, r.out[-300:].decode("utf-8", "replace"))
        check(f"Ctrl-C ({'slow step' if scratch == 'slow' else 'scratch' if scratch else 'nn.Linear'}): parameters of whole steps only (k steps again give the same tensors)",
              m is not None and m.groups() == (b"True", b"True", b"True"), m.group(0).decode() if m else "no SAME line")
    finally:
        r.close()


test_files()
test_terminal()
test_terminal_prints()
test_tmux()
for scratch in (False, True, "slow", False, True):      # Ctrl-C lands somewhere else in the step each time
    test_interrupt(scratch)
finish()

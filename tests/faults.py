#!/usr/bin/python3
"""Faults with nothing lost (issue 12): a full disk and `ulimit -f` while saving (for real: a small tmpfs when this
machine lets us mount one, and RLIMIT_FSIZE always), SIGTERM/SIGHUP in the middle of a save, two lesson sessions
and two REPLs at once, hand-edited progress files, a stopped gnuplot, runaway ranges, a closed or full standard
output. Each check says what it simulates and how. 'N passed, N failed'.
usage: faults.py ATTN_BINARY"""
import glob, hashlib, os, pty, resource, select, shutil, signal, subprocess, sys, tempfile, termios, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
import refcheck  # noqa: E402
from refcheck import ATTN, finish  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def check(name, ok, detail=""):
    refcheck.check("faults: " + name, ok, str(detail)[-700:])


def run(args, cwd, env=None, limit_fsize=None, timeout=60, stdin=None):
    """attn --keep-going ...: every statement runs, as at the prompt, so each one's message can be checked."""
    def pre():
        if limit_fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
    e = dict(os.environ, ATTN_PLOT="summary")
    e.update(env or {})
    return subprocess.run([ATTN, "--keep-going"] + args, cwd=cwd, env=e, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=pre, input=stdin)


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest() if os.path.exists(path) else None


def temps(d):
    return [f for f in os.listdir(d) if ".tmp" in f]


def mount_tmpfs(path, size):
    """A tiny file system of its own, filled for real; None when this machine does not let us mount one."""
    os.makedirs(path, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], capture_output=True)
    return path if r.returncode == 0 else None


def umount(path):
    subprocess.run(["umount", path], capture_output=True)


def fill(path):
    """Fills the file system holding path: a file grows until the disk refuses a byte."""
    for chunk in (65536, 4096, 1):
        fd = os.open(os.path.join(path, "filler"), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                os.write(fd, b"\0" * chunk)
        except OSError:
            pass
        os.close(fd)


with tempfile.TemporaryDirectory() as T:
    state = os.path.join(T, "state")
    base_env = {"XDG_STATE_HOME": state}

    # ---- ulimit -f (RLIMIT_FSIZE): every write past the limit fails with EFBIG; attn must say so, keep the old
    # file, leave no temporary file, and go on (SIGXFSZ once killed it mid-save) ----
    d = os.path.join(T, "ulimit")
    os.makedirs(d)
    r = run(["-c", "save('x.npy', torch.ones(10))"], d, base_env)
    good = digest(os.path.join(d, "x.npy"))
    r = run(["-c", "save('x.npy', torch.ones(100000))\nprint('still here')"], d, base_env, limit_fsize=64 * 1024)
    check("ulimit -f: save() reports the limit (RLIMIT_FSIZE 64 KiB, a 400 KB file)",
          "larger than allowed (ulimit -f" in r.stderr, r.stderr)
    check("ulimit -f: attn is not killed and goes on", "still here" in r.stdout and r.returncode == 1, (r.returncode, r.stdout))
    check("ulimit -f: the old x.npy is untouched", digest(os.path.join(d, "x.npy")) == good)
    check("ulimit -f: no temporary file is left", temps(d) == [], temps(d))
    r = run(["-c", "d2l.plot(torch.arange(3.), torch.arange(3.))\nsavefig('f.png')"], d, base_env)
    good = digest(os.path.join(d, "f.png"))
    check("savefig writes a png (for the next check)", good is not None, r.stderr)
    big = "d2l.plot(torch.arange(2000.), torch.sin(torch.arange(2000.)), figsize=(12, 8))\nsavefig('f.png')\nprint('on')"
    r = run(["-c", big], d, base_env, limit_fsize=20 * 1024)
    check("ulimit -f: gnuplot's cut-off png is caught (savefig says so)",
          "savefig" in r.stderr and ("could not write" in r.stderr or "larger than allowed" in r.stderr), r.stderr)
    check("ulimit -f: the good f.png is untouched, attn goes on",
          digest(os.path.join(d, "f.png")) == good and "on" in r.stdout, (r.stdout, r.stderr))
    check("ulimit -f: no temporary figure is left", temps(d) == [], temps(d))

    # ---- a full disk, for real: a 512 KiB tmpfs filled to the last byte ----
    disk = mount_tmpfs(os.path.join(T, "disk"), "512k")
    if not disk:
        print("(a full disk for real is skipped: this machine does not let the tests mount a tmpfs; ulimit -f "
              "above simulates it)")
    else:
        try:
            work = os.path.join(disk, "work")
            os.makedirs(work)
            st = os.path.join(disk, "state")
            env = {"XDG_STATE_HOME": st}
            run(["-c", "d2l.plot(torch.arange(3.), torch.arange(3.))\nsavefig('fig.svg')\nsave('t.npy', torch.ones(4))"], work, env)
            gsvg, gnpy = digest(os.path.join(work, "fig.svg")), digest(os.path.join(work, "t.npy"))
            os.makedirs(os.path.join(st, "attn"), exist_ok=True)
            open(os.path.join(st, "attn", "progress"), "w").write("01-self-attention 2 3\n")
            fill(disk)
            r = run(["-c", "d2l.plot(torch.arange(2000.), torch.arange(2000.))\nsavefig('fig.svg')\n"
                           "save('t.npy', torch.ones(100000))\nprint('on')"], work, env)
            # attn made the temporary file itself, so the folder is writable: it once said "is the directory there and
            # writable?" for the figure gnuplot could not write
            check("full disk: savefig says the disk is full",
                  "savefig('fig.svg'): gnuplot could not write the file: the disk is full (nothing was changed)" in r.stderr
                  and "writable?" not in r.stderr, r.stderr)
            check("full disk: save() says the disk is full", "the disk is full" in r.stderr, r.stderr)
            check("full disk: the good figure and tensor are untouched",
                  digest(os.path.join(work, "fig.svg")) == gsvg and digest(os.path.join(work, "t.npy")) == gnpy)
            check("full disk: no temporary file is left", temps(work) == [], temps(work))
            r = run(["lesson", "1"], work, dict(env, ATTN_LESSONS=os.path.join(REPO, "lessons")), stdin="\nquit\n")
            check("full disk: progress that cannot be saved is reported", "cannot save progress" in r.stderr, r.stderr)
            check("full disk: the progress saved before is kept",
                  open(os.path.join(st, "attn", "progress")).read() == "01-self-attention 2 3\n")
            # a disk with 12 KiB left: gnuplot writes part of a 15 KB png and says nothing; attn once answered
            # "<figure saved to fig.png>" and put the 12 KiB it got over the good figure
            os.remove(os.path.join(disk, "filler"))
            run(["-c", "d2l.plot(torch.arange(3.), torch.arange(3.))\nsavefig('fig.png')"], work, env)
            gpng = digest(os.path.join(work, "fig.png"))
            vfs = os.statvfs(disk)
            with open(os.path.join(disk, "filler"), "wb") as f:
                f.write(b"\0" * (vfs.f_bavail * vfs.f_frsize - 12 * 1024))
            r = run(["-c", "d2l.plot(torch.arange(2000.), torch.sin(torch.arange(2000.)) * torch.arange(2000.), "
                           "figsize=(12, 8))\nsavefig('fig.png')\nprint('on')"], work, env)
            check("12 KiB left: savefig of a bigger png says it could not write the whole file",
                  "could not write the whole file: the disk is full" in r.stderr and "saved" not in r.stdout, (r.stdout, r.stderr))
            check("12 KiB left: the good png is untouched and no temporary file is left",
                  gpng is not None and digest(os.path.join(work, "fig.png")) == gpng and temps(work) == [], temps(work))
        finally:
            umount(disk)

    # ---- a signal in the middle of a save: no temporary file is left behind, the old file stays whole. SIGTERM,
    # SIGHUP and SIGQUIT end attn as the signal does (after removing the temporary file); Ctrl-C (SIGINT) in a script
    # (attn -c, or statements from a pipe) stops the save as an interruption: the script stops there (exit 1), and
    # nothing after it runs. SIGINT and SIGQUIT once killed attn mid-save and left y.npy.tmpPID.0 (24 MB here) ----
    # a small save, then big ones (160 MB: a signal sent when a temporary file is seen lands inside a save)
    code = "X = torch.ones(6000000)\nsave('x.npy', X)\nY = torch.ones(40000000)\nfor i in range(1000): save('x.npy', Y)\nprint('after the loop')"
    whole = (128 + 4 * 6000000, 128 + 4 * 40000000)
    no_core = lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for sig, how in ((signal.SIGTERM, "-c"), (signal.SIGHUP, "-c"), (signal.SIGQUIT, "-c"), (signal.SIGINT, "-c"),
                     (signal.SIGINT, "a pipe"), (signal.SIGQUIT, "a pipe")):
        name = f"{signal.Signals(sig).name} mid-save ({how})"
        d = os.path.join(T, f"sig{int(sig)}-{how[0]}")
        os.makedirs(d)
        args = [ATTN, "-c", code] if how == "-c" else [ATTN]
        p = subprocess.Popen(args, cwd=d, env=dict(os.environ, **base_env), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=no_core)
        if how != "-c":
            p.stdin.write(code.encode() + b"\n")
        p.stdin.close()
        seen = False
        end = time.time() + 20
        while time.time() < end and not seen:
            # a save under way (its temporary file exists) after a first one finished (x.npy is there; asked first:
            # a temporary seen before x.npy could be the first save's, renamed since)
            seen = os.path.exists(os.path.join(d, "x.npy")) and any(".tmp" in f for f in os.listdir(d))
            if not seen:
                time.sleep(0.002)
        p.send_signal(sig)
        p.wait(timeout=20)
        out, err = p.stdout.read(), p.stderr.read()
        check(f"{name}: caught a save under way", seen)
        if sig == signal.SIGINT:
            check(f"{name}: the save stops as an interruption, and the script with it (exit 1, nothing after it ran)",
                  p.returncode == 1 and b"interrupted (Ctrl-C)" in err and b"after the loop" not in out, (p.returncode, err[-300:]))
        else:
            check(f"{name}: attn ends by the signal", p.returncode == -sig, p.returncode)
        check(f"{name}: no temporary file is left", temps(d) == [], temps(d))
        size = os.path.getsize(os.path.join(d, "x.npy")) if os.path.exists(os.path.join(d, "x.npy")) else -1
        check(f"{name}: the old x.npy is whole", size in whole, size)
        shutil.rmtree(d)                 # 160 MB each: not kept until the end

    # ---- load() of what is not a regular file: a FIFO once blocked for ever (no writer), /dev/zero never ends ----
    d = os.path.join(T, "special")
    os.makedirs(d)
    os.mkfifo(os.path.join(d, "fifo.npy"))
    os.symlink("/dev/zero", os.path.join(d, "zero.npy"))
    os.makedirs(os.path.join(d, "dir.npy"))
    try:
        r = run(["-c", "load('fifo.npy')\nload('zero.npy')\nload('dir.npy')\nprint('on')"], d, base_env, timeout=20)
        for f, kind in (("fifo.npy", "a named pipe (FIFO)"), ("zero.npy", "a character device"), ("dir.npy", "a directory")):
            check(f"load('{f}') is refused at once: it is {kind}",
                  f"cannot load '{f}': it is {kind}, not a .npy file (load reads regular files only)" in r.stderr, r.stderr)
        check("...and attn goes on", "on" in r.stdout, r.stdout)
    except subprocess.TimeoutExpired:
        check("load() of a FIFO or /dev/zero answers at once", False, "still running after 20 s")

    # ---- hand-edited progress: blank and comment lines are fine; unreadable lines are kept aside, never over an
    # earlier backup; a lesson file whose name has a space keeps its progress ----
    st = os.path.join(T, "prog")
    os.makedirs(os.path.join(st, "attn"))
    pf = os.path.join(st, "attn", "progress")
    open(pf, "w").write("# my progress\n\n01-self-attention 3 4\n\n")
    env = {"XDG_STATE_HOME": st, "ATTN_LESSONS": os.path.join(REPO, "lessons")}
    r = run(["lesson"], T, env)
    check("a blank or comment line in the progress file does not reset it", "4/" in r.stdout and "started" in r.stdout, r.stdout)
    open(pf, "a").write("this line is damaged\n")
    run(["lesson"], T, env, stdin="")
    run(["lesson", "2"], T, env, stdin="quit\n")
    open(pf, "a").write("damaged again\n")
    run(["lesson", "2"], T, env, stdin="quit\n")
    d1, d2 = pf + ".damaged-1", pf + ".damaged-2"
    check("unreadable lines are kept aside, each time in a new file",
          os.path.exists(d1) and os.path.exists(d2) and "this line is damaged" in open(d1).read()
          and "damaged again" in open(d2).read(), os.listdir(os.path.dirname(pf)))
    check("the other lessons keep their progress", "01-self-attention 3 4" in open(pf).read(), open(pf).read())
    sp = os.path.join(T, "my lessons")
    os.makedirs(sp)
    shutil.copy(os.path.join(REPO, "lessons", "04-absolute-position.md"), os.path.join(sp, "my lesson.md"))
    run(["lesson", os.path.join(sp, "my lesson.md")], T, env, stdin="\n\n\nnext\nquit\n")
    r = run(["lesson", os.path.join(sp, "my lesson.md")], T, env, stdin="quit\n")
    check("a lesson whose file name has a space resumes where it was", "resuming at step 2" in r.stdout, r.stdout[:600])
    check("...and the other lessons' progress survives it", "01-self-attention 3 4" in open(pf).read(), open(pf).read())

    # ---- two lesson sessions at once: both keep their progress (they once lost it 12 times in 20) ----
    st = os.path.join(T, "two")
    env = dict(os.environ, XDG_STATE_HOME=st, ATTN_LESSONS=os.path.join(REPO, "lessons"), ATTN_PLOT="none")
    lost = 0
    for trial in range(20):
        shutil.rmtree(st, ignore_errors=True)
        ps = []
        for lesson in ("2", "4"):
            # each session answers nothing: Enter runs the statements, next leaves each step; ends at end of input
            ps.append(subprocess.Popen([ATTN, "lesson", lesson], env=env, stdin=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for p in ps:
            p.stdin.write(b"next\n" * 3)
            p.stdin.close()
        for p in ps:
            p.wait(timeout=60)
        text = open(os.path.join(st, "attn", "progress")).read() if os.path.exists(os.path.join(st, "attn", "progress")) else ""
        if not ("02-cnn-rnn-self-attention 3 3" in text and "04-absolute-position 3 3" in text):
            lost += 1
    check("two lesson sessions at once: progress of both kept, 20 of 20 times", lost == 0, f"lost {lost} of 20")

    # ---- two REPLs at once, at terminals: both histories are kept ----
    st = os.path.join(T, "hist")

    def repl():
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(ATTN, [ATTN, "-q"], dict(os.environ, XDG_STATE_HOME=st, TERM="xterm", ATTN_PLOT="none"))
        return pid, fd

    def expect(fd, what, timeout=5):
        buf, end = b"", time.time() + timeout
        while time.time() < end and what.encode() not in buf:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    buf += os.read(fd, 4096)
                except OSError:
                    break
        return buf

    def leave(pid, fd, deadline=60):
        """Ctrl-D once libedit reads the terminal in raw mode (it writes its prompt before leaving cooked mode, and a
        Ctrl-D that reaches a cooked terminal unread is lost), then waits for attn to exit; a deadline, not a hang:
        past it this attn (our own child) is killed and the check that follows fails."""
        end = time.time() + deadline
        while time.time() < end:
            try:
                if not termios.tcgetattr(fd)[3] & termios.ICANON:
                    break
            except termios.error:
                break
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    os.read(fd, 4096)
                except OSError:
                    break
        try:
            os.write(fd, b"\x04")
        except OSError:
            pass
        while time.time() < end:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return True
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    os.read(fd, 4096)
                except OSError:
                    pass
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return False

    a, b = repl(), repl()
    expect(a[1], "attn> ")
    expect(b[1], "attn> ")
    for i in range(3):
        os.write(a[1], f"alpha_{i} = {i}\r".encode())
        expect(a[1], "attn> ")
        os.write(b[1], f"beta_{i} = {i}\r".encode())
        expect(b[1], "attn> ")
    for pid, fd in (a, b):
        leave(pid, fd)
    h = open(os.path.join(st, "attn", "history")).read()
    check("two REPLs at once keep both histories", all(f"alpha_{i}" in h and f"beta_{i}" in h for i in range(3)), h)
    # history on a file that cannot grow (RLIMIT_FSIZE at half its size, as a disk with no room left for it): it is
    # never emptied nor cut (libedit's write_history rewrote the whole file and reported success: cut in half here)
    size = os.path.getsize(os.path.join(st, "attn", "history"))
    pid, fd = pty.fork()
    if pid == 0:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size // 2, size // 2))
        os.execve(ATTN, [ATTN, "-q"], dict(os.environ, XDG_STATE_HOME=st, TERM="xterm", ATTN_PLOT="none"))
    expect(fd, "attn> ")
    os.write(fd, b"gamma = 1\r")
    said = expect(fd, "attn> ")
    os.write(fd, b"delta = 2\r")
    said2 = expect(fd, "attn> ")
    leave(pid, fd)
    h2 = open(os.path.join(st, "attn", "history")).read()
    check("history that cannot be written (ulimit -f below its size) is kept whole, never emptied or cut", h2 == h, (len(h), len(h2)))
    # the lines typed meanwhile were dropped in silence: now attn says so once, with why
    check("history that cannot be written is reported once on stderr, with why",
          b"attn: the history cannot be saved in " in said and b"the file would be larger than allowed (ulimit -f)" in said
          and b"the history cannot be saved" not in said2, (said[-300:], said2[-200:]))

    # ---- runaway ranges: refused or stopped, bounded by the memory limit, Ctrl-C works ----
    r = run(["-c", "list(range(10**9))"], T, timeout=20)
    check("list(range(10**9)) is refused at once", "out of memory: 1000000000 more values would not fit" in r.stderr, r.stderr)
    r = run(["-c", "x = [i for i in range(10**9)]"], T, {"ATTN_MEMORY_LIMIT": "100M"}, timeout=60)
    check("a comprehension stops at the memory limit", "out of memory" in r.stderr and "100.0 MiB" in r.stderr, r.stderr)
    # dicts filled from an iterable stop at the limit too (they grew until the machine refused or killed attn)
    for code in ["d = dict.fromkeys(range(10**7))", "d = dict(zip(range(10**7), range(10**7)))",
                 "d = {}\nd.update(zip(range(10**7), range(10**7)))"]:
        r = run(["-c", code], T, {"ATTN_MEMORY_LIMIT": "100M"}, timeout=60)
        check(f"{code!r} stops at the memory limit", "out of memory" in r.stderr and "100.0 MiB" in r.stderr
              and r.returncode == 1, (r.returncode, r.stderr[-300:]))
    # a generator expression is lazy, as Python's: sum/any/max over it hold one item at a time (attn built the list)
    r = run(["-c", "print(sum(x * x for x in range(10**6)), any(x > 5 * 10**5 for x in range(10**6)), "
                   "max(-x for x in range(10**6)))"], T, {"ATTN_MEMORY_LIMIT": "20M"}, timeout=120)
    check("sum/any/max of a generator expression of a million items under ATTN_MEMORY_LIMIT=20M",
          r.stdout.strip() == f"{sum(x * x for x in range(10**6))} True 0" and "out of memory" not in r.stderr,
          (r.stdout[-200:], r.stderr[-300:]))
    loop = ("from torch.utils import data\nl = data.DataLoader(data.TensorDataset(torch.zeros(200000, 1)), 1)\n"
            "n = 0\nfor b in l:\n    n += b[0].numel()\n\nprint(n)\n")
    r = run([], T, {"ATTN_MEMORY_LIMIT": "20M"}, timeout=120, stdin=loop)
    check("a DataLoader reads a batch at a time: 200000 batches under ATTN_MEMORY_LIMIT=20M",
          r.stdout.strip().endswith("200000") and "out of memory" not in r.stderr, (r.stdout[-200:], r.stderr[-300:]))
    # a lesson started at the REPL's prompt shares the REPL's budget (issue 28: it had a full limit of its own, so the
    # two together could hold twice ATTN_MEMORY_LIMIT): the REPL holds 80 MiB of 100M, the lesson's 40 MiB tensor
    # (which fits the limit alone) is refused with attn's message naming what the REPL holds, and the REPL goes on
    d = os.path.join(T, "nested", "lessons")
    os.makedirs(d)
    with open(os.path.join(d, "01-big.md"), "w") as f:
        f.write("# Big\nSection: 1\n\n## One {#one}\n\nA tensor of 40 MiB.\n\n```attn\n"
                "attn> Y = torch.zeros(10 * 1024 * 1024)\nattn> Y.numel()\n10485760\n```\n")
    nested_env = {"ATTN_MEMORY_LIMIT": "100M", "ATTN_LESSONS": d, "XDG_STATE_HOME": os.path.join(T, "nested", "st")}
    alone = run([], T, nested_env, stdin="lesson 1\n\n\nquit\n")
    check("a lesson's 40 MiB tensor fits ATTN_MEMORY_LIMIT=100M alone (the reference for the next check)",
          "10485760" in alone.stdout and "out of" not in alone.stderr + alone.stdout, (alone.stdout[-300:], alone.stderr[-300:]))
    r = run([], T, nested_env, stdin="x = torch.zeros(20 * 1024 * 1024)\nlesson 1\n\nskip\nquit\nprint('after', x.numel())\n")
    said = r.stdout + r.stderr
    want = ("out of tensor memory: the tensors alive now take 0 bytes and this one needs 40.0 MiB more (attn's limit is "
            "100.0 MiB, and the session this one was started from holds 80.0 MiB of it)")
    check("a lesson started at the REPL holding 80 MiB of 100M: its 40 MiB tensor is refused, saying what the REPL holds",
          want in said and "\n10485760" not in r.stdout, said[-600:])
    check("... and the REPL goes on, its tensor kept", "after 20971520" in r.stdout, r.stdout[-300:])
    # resumed at its second step, the lesson rebuilds the first unseen: that 40 MiB tensor is refused there, and the
    # student reads which statement failed, where in the lesson, and why (not only the next step's NameError)
    with open(os.path.join(d, "01-big.md"), "a") as f:
        f.write("\n## Two {#two}\n\nIts size again.\n\n```attn\nattn> Y.shape\ntorch.Size([10485760])\n```\n")
    run([], T, nested_env, stdin="lesson 1\n\n\nquit\n")                  # progress: step 2
    r = run([], T, nested_env, stdin="x = torch.zeros(20 * 1024 * 1024)\nlesson 1\nquit\nprint('after', x.numel())\n")
    said = " ".join((r.stdout + r.stderr).split())
    check("a lesson resumed at the REPL holding 80 MiB: its rebuild's refused tensor is named with file, line and attn's message",
          "the lesson ran `Y = torch.zeros(10 * 1024 * 1024)` (%s, line 9) unseen" % os.path.join(d, "01-big.md") in said
          and " ".join(want.split()) in said and "after 20971520" in r.stdout, said[-800:])
    build = "l = [str(i) for i in range(3 * 10**5)]\n"
    alone = run([], T, nested_env, stdin=build + "print('built', len(l))\n")
    check("300000 strings fit ATTN_MEMORY_LIMIT=100M alone (the reference for the next check)",
          "built 300000" in alone.stdout, alone.stderr[-300:])
    r = run([], T, nested_env, stdin="x = torch.zeros(20 * 1024 * 1024)\nlesson 1\n\n" + build + "quit\n"
                                     "print('after', x.numel())\n")
    said = r.stdout + r.stderr
    check("... in a lesson started at the REPL holding 80 MiB, they are refused, saying what the REPL holds",
          "out of memory: the values alive take" in said and "the session this one was started from holds 80.0 MiB" in said
          and "after 20971520" in r.stdout, said[-600:])
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(ATTN, [ATTN, "-q"], dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", ATTN_PLOT="none"))
    expect(fd, "attn> ")
    os.write(fd, b"sum(range(10**12))\r")
    time.sleep(0.5)
    t0 = time.time()
    os.write(fd, b"\x03")
    out = expect(fd, "attn> ", 10)
    check("sum(range(10**12)) stops at Ctrl-C", b"interrupted" in out and time.time() - t0 < 10, out[-300:])
    leave(pid, fd)

    # ---- issue 25: the memory limit counts what values really hold (string contents, dict and set tables), so the
    # resident size stays near it; every build stops with Python's MemoryError and the session goes on ----
    def peak_mb(prog, limit, rlimit_as=None):
        """attn --keep-going reading prog on a pipe, as at the prompt; then print(a) (a defined first) shows the
        session went on. Returns (peak resident MB from /proc of this attn, stdout, stderr, exit code)."""
        def pre():
            if rlimit_as:
                resource.setrlimit(resource.RLIMIT_AS, (rlimit_as, rlimit_as))
        p = subprocess.Popen([ATTN, "--keep-going"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=dict(os.environ, ATTN_MEMORY_LIMIT=limit, ATTN_PLOT="none"), preexec_fn=pre)
        p.stdin.write(("a = 'kept'\n" + prog + "\nprint('after', a)\n").encode())
        p.stdin.flush()
        out, end = b"", time.time() + 120
        while b"after" not in out and time.time() < end and p.poll() is None:
            if select.select([p.stdout], [], [], 0.1)[0]:
                out += os.read(p.stdout.fileno(), 65536)
        peak = 0
        try:
            for line in open(f"/proc/{p.pid}/status"):
                if line.startswith("VmHWM"):
                    peak = int(line.split()[1]) // 1024
        except OSError:
            pass
        if time.time() >= end:
            p.kill()                      # our own child, past its deadline: the check below fails
        rest, err = p.communicate(timeout=60)
        return peak, (out + rest).decode(errors="replace"), err.decode(errors="replace"), p.returncode

    # (a sanitizer build's resident size is its shadow, redzones and quarantine as much as the values: there only the
    # MemoryError and the session going on are checked)
    asan = b"__asan_init" in open(ATTN, "rb").read()
    for prog in ('x = ["x" * 1000 for i in range(10**6)]', "x = {i: str(i) for i in range(10**7)}",
                 "x = {str(i) for i in range(10**7)}", "x = [str(i) for i in range(10**8)]"):
        peak, out, err, rc = peak_mb(prog, "256M")
        check(f"ATTN_MEMORY_LIMIT=256M: {prog} stops with MemoryError, resident under 1.5x the limit, the session goes on",
              "out of memory" in err and (peak < 384 or asan) and "after kept" in out, (peak, "MB", err[-300:], out[-100:]))
    # malloc itself fails (ulimit -v, RLIMIT_AS 600 MB): Python's MemoryError, not "attn: out of memory" and abort (134)
    if not asan:                          # a sanitizer build maps terabytes of shadow memory: RLIMIT_AS cannot hold it
        prog = ("d = {i: i for i in range(10**8)}\nprint('dict', a)\nl = [str(i) for i in range(10**8)]\nprint('list', a)\n"
                "s = {i for i in range(10**8)}\nprint('set', a)\nx = 'ab' * 10**9\nprint('str', a)\nl = []\n"
                "for i in range(10**8): l.append(i)\n\nprint('append', a)\nsorted(range(10**8, 0, -1))\n"
                "try:\n    d = {i: i for i in range(10**9)}\nexcept MemoryError:\n    print('caught', a)\n    print('handler', a)\n\n")
        peak, out, err, rc = peak_mb(prog, "64G", 600 << 20)
        check("ulimit -v: a dict comprehension (and a list, a set, a string, appends, a sort) past what malloc gives "
              "raises MemoryError and the session goes on, names kept; except MemoryError catches it and its handler runs",
              rc != 134 and err.count("MemoryError") + err.count("out of memory: the machine refused") >= 6
              and all(f"{w} kept" in out for w in ("dict", "list", "set", "str", "append", "caught", "handler"))
              and "after kept" in out,
              (rc, err[-600:], out[-200:]))

    # ---- issue 25: long loops Ctrl-C could not stop ----
    def interrupted(setup, stmt, wait=1.0):
        """At a terminal: setup, then stmt, Ctrl-C after `wait` seconds: back at the prompt with the interrupt's note
        within 2.5 seconds (the statement alone runs 4 to 8 seconds longer here)."""
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(ATTN, [ATTN, "-q"], dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", ATTN_PLOT="none"))
        expect(fd, "attn> ")
        os.write(fd, setup.encode() + b"\r")
        expect(fd, "attn> ", 60)
        os.write(fd, stmt.encode() + b"\r")
        time.sleep(wait)
        t0 = time.time()
        os.write(fd, b"\x03")
        out = expect(fd, "attn> ", 30)
        took = time.time() - t0
        os.write(fd, b"print('alive', len(X))\r")
        out2 = expect(fd, "attn> ", 10)
        leave(pid, fd)
        return b"interrupted" in out and took < 2.5 and b"alive" in out2, (round(took, 1), out[-300:], out2[-100:])

    ok, detail = interrupted("X = torch.rand(2**25)", "v, i = torch.sort(X)")
    check("torch.sort of 2**25 elements stops at Ctrl-C", ok, detail)
    ok, detail = interrupted("X = torch.rand(2**25)", "v, i = torch.sort(X, stable=True)")
    check("torch.sort(stable=True) of 2**25 elements stops at Ctrl-C", ok, detail)
    ok, detail = interrupted("X = torch.rand(2**25)", "v = torch.median(X)")
    check("torch.median of 2**25 elements stops at Ctrl-C", ok, detail)

    # ---- a closed or full standard output ----
    t0 = time.time()
    r = subprocess.run(f"'{ATTN}' -c 'while True: print(1)' | head -1", shell=True, capture_output=True, text=True, timeout=30)
    check("attn -c 'while True: print(1)' | head -1 ends", r.stdout == "1\n", (r.stdout, time.time() - t0))   # timeout=30: a hang fails
    # a reader who leaves (attn ... | head) gets no message, whatever attn was running: the lesson runner once said
    # "attn: cannot write the output (a full disk? a closed pipe?)" (its errno was gone by the end). The reader here
    # closes the pipe at once, so attn's first write finds it closed.
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(T, "gone"), ATTN_LESSONS=os.path.join(REPO, "lessons"), ATTN_PLOT="summary")
    for args in ("lesson 1 < /dev/null", "lesson < /dev/null", "teach 2 < /dev/null", "--replay lessons/01-self-attention.md",
                 "--check tests/e2e/plots.md lessons/01-self-attention.md", "-c 'for i in range(100000): print(i)'",
                 "-c 'help()'", "< tests/e2e/plots.md"):
        cmd = f"'{ATTN}' {args}" if not args.startswith("<") else f"sed -n 's/^attn> //p' {args[2:]} | '{ATTN}'"
        r = subprocess.run(f"{cmd} | (exec 0<&-; sleep 0.3)", shell=True, cwd=REPO, capture_output=True, text=True, timeout=60, env=env)
        check(f"attn {args} | a reader who leaves at once: no message", r.stderr == "", r.stderr[-300:])
    with open("/dev/full", "w") as full:
        p = subprocess.run([ATTN, "-c", "print(1)"], stdout=full, stderr=subprocess.PIPE, text=True)
    check("a full standard output exits non-zero with a message",
          p.returncode == 1 and "cannot write the output: No space left on device" in p.stderr, (p.returncode, p.stderr))

    # ---- a stopped gnuplot never blocks attn: Ctrl-C, then a fresh gnuplot ----
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(ATTN, [ATTN, "-q"], dict(os.environ, XDG_STATE_HOME=state, TERM="xterm", ATTN_PLOT="terminal", COLUMNS="80"))
    expect(fd, "attn> ")
    os.write(fd, b"d2l.plot([0, 1, 2], [0, 1, 4])\r")
    expect(fd, "attn> ", 15)
    kids = subprocess.run(["pgrep", "-P", str(pid), "gnuplot"], capture_output=True, text=True).stdout.split()
    check("a gnuplot was started (to be stopped)", len(kids) == 1, kids)
    if kids:
        os.kill(int(kids[0]), signal.SIGSTOP)
        os.write(fd, b"d2l.plot(torch.arange(30000.), torch.sin(torch.arange(30000.)))\r")   # about 600 KB of commands
        time.sleep(1.5)
        t0 = time.time()
        os.write(fd, b"\x03")
        out = expect(fd, "attn> ", 10)
        check("a stopped gnuplot: Ctrl-C gets the prompt back", b"interrupted while sending the figure to gnuplot" in out
              and time.time() - t0 < 10, out[-400:])
        os.write(fd, b"d2l.plot([0, 1], [1, 0])\r")
        out = expect(fd, "attn> ", 15)
        kids2 = subprocess.run(["pgrep", "-P", str(pid), "gnuplot"], capture_output=True, text=True).stdout.split()
        check("...the stopped one is gone and a fresh one draws", kids2 and kids[0] not in kids2, (kids, kids2, out[-200:]))
    leave(pid, fd)

finish()

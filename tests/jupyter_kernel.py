"""The Jupyter kernel 'attn' (jupyter/attn_kernel around attn --frames), as Jupyter drives it.

Usage: python3 tests/jupyter_kernel.py ATTN

The kernel spec is installed into a temporary JUPYTER_PATH, pointing at ATTN. Then:
  1. jupyter_kernel_test's KernelTests: kernel_info, execution, errors, completion, inspection, is_complete,
     execute_result, display_data with image/svg+xml;
  2. nbclient runs a notebook of the book's §11.6 cells (tests/ref/book) headless: the Col 6-9 plot and the P heat map
     arrive as display_data (SVG and PNG), printed lines and tensors as PyTorch prints them (PyTorch computes the
     expected text when it is installed), figure files only in the kernel's temporary directory;
  3. bad input: a cell that never ends is interrupted, a cell printing 100 MB is cut with a note, a notebook cannot
     write outside its directory, a killed attn gives a dead kernel and restart gives a fresh one (and removes the
     killed one's figure folder, /tmp/attn-kernel-PID-*); a PNG shows at the book's size (metadata width, height).
The last line is 'N passed, N failed'."""
import base64
import glob
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "ref"))
from refcheck import ATTN, check, finish  # noqa: E402

TMP = tempfile.mkdtemp(prefix="attn-jupyter-test-")
for var, sub in (("JUPYTER_PATH", "share"), ("JUPYTER_DATA_DIR", "data"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                 ("JUPYTER_CONFIG_DIR", "config"), ("IPYTHONDIR", "ipython")):
    os.environ[var] = os.path.join(TMP, sub)
    os.makedirs(os.environ[var], exist_ok=True)
os.environ["JUPYTER_PLATFORM_DIRS"] = "1"
subprocess.run([sys.executable, "-m", "attn_kernel.install", "--dest", os.environ["JUPYTER_PATH"], "--attn", ATTN,
                "--pythonpath", os.path.join(ROOT, "jupyter")], check=True, stdout=subprocess.DEVNULL,
               env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "jupyter")))

import jupyter_kernel_test  # noqa: E402
import nbformat  # noqa: E402
from jupyter_client.manager import start_new_kernel  # noqa: E402
from nbclient import NotebookClient  # noqa: E402


class AttnKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "attn"
    language_name = "python"
    file_extension = ".py"
    code_hello_world = "print('hello, world')"
    completion_samples = [{"text": "torch.zeros", "matches": {"torch.zeros", "torch.zeros_like"}},
                          {"text": "d2l.masked_s", "matches": {"d2l.masked_softmax"}}]
    complete_code_samples = ["1", "print('hello, world')", "x = (1,\n 2)", "for i in range(3): print(i)",
                             "for i in range(3):\n    print(i)\n"]
    incomplete_code_samples = ["x = (1,", "for i in range(3):", "class A:\n    def f(self):", "print('a',"]
    invalid_code_samples = ["x = )", "1 +* 2"]
    code_generate_error = "torch.zeros(2) @ torch.zeros(3)"
    code_execute_result = [{"code": "1 + 2", "result": "3"},
                           {"code": "torch.arange(3)", "result": "tensor([0, 1, 2])"},
                           {"code": "x = 5\nprint(x)\nx * 2", "result": "10"}]
    code_display_data = [{"code": "d2l.plot(torch.arange(5.), torch.arange(5.) ** 2)", "mime": "image/svg+xml"},
                         {"code": "d2l.show_heatmaps(torch.eye(4).reshape(1, 1, 4, 4), xlabel='k', ylabel='q')",
                          "mime": "image/png"}]
    code_inspect_sample = "d2l.masked_softmax"


class Recorder(unittest.TextTestResult):
    """Which tests ran to the end and passed (a class whose kernel never started runs none)."""
    passed = set()

    def addSuccess(self, test):
        super().addSuccess(test)
        Recorder.passed.add(test.id().split(".")[-1])


def kernel_test_suite():
    """KernelTests, each test a check: it passed, or why not (a failed subtest, an error, a kernel that never started)."""
    suite = unittest.TestLoader().loadTestsFromTestCase(AttnKernelTests)
    result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0, resultclass=Recorder).run(suite)
    why = "; ".join(tb.strip().splitlines()[-1] for _, tb in result.failures + result.errors)
    skipped = {t.id().split(".")[-1] for t, _ in result.skipped}
    unused = {"test_execute_stderr", "test_history", "test_pager", "test_clear_output"}
    for name in sorted(n for n in dir(AttnKernelTests) if n.startswith("test_") and n not in unused):
        check("kernel_test." + name, name in Recorder.passed and name not in skipped, why or "skipped")


def book_cells():
    text = open(os.path.join(ROOT, "tests/ref/book/11.6-self-attention-and-positional-encoding.py"), encoding="utf-8").read()
    return [c.strip("\n") for c in text.split("# %%\n")[1:]]


def torch_expected():
    """The P[0, :3, 6:10] of (11.6.2) as PyTorch prints it, or None without PyTorch."""
    try:
        import torch
    except ImportError:
        return None
    X = torch.arange(1000, dtype=torch.float32).reshape(-1, 1) / torch.pow(
        10000, torch.arange(0, 32, 2, dtype=torch.float32) / 32)
    P = torch.zeros((1, 1000, 32))
    P[:, :, 0::2] = torch.sin(X)
    P[:, :, 1::2] = torch.cos(X)
    return str(P[0, :3, 6:10])


def outputs_of(cell, kind):
    return [o for o in cell.outputs if o.output_type == kind]


def book_notebook():
    cells = book_cells()
    # after the class cell and P: the printed slice, checked against PyTorch
    extra = "P[0, :3, 6:10]"
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "attn", "display_name": "attn (d2l §11.6)", "language": "python"}
    for i, c in enumerate(cells):
        nb.cells.append(nbformat.v4.new_code_cell(c))
        if i == 3:
            nb.cells.append(nbformat.v4.new_code_cell(extra))
    work = tempfile.mkdtemp(prefix="nb-", dir=TMP)
    NotebookClient(nb, timeout=120, kernel_name="attn", resources={"metadata": {"path": work}}).execute()
    nbformat.write(nb, os.path.join(TMP, "book-11.6.ipynb"))
    by_src = {c.source: c for c in nb.cells}
    plot = by_src[cells[3]]
    disp = outputs_of(plot, "display_data")
    check("book.col6-9 plot is display_data", len(disp) == 1 and "image/svg+xml" in disp[0].data
          and "image/png" in disp[0].data, "outputs: %r" % [o.output_type for o in plot.outputs])
    if disp:
        svg, png = disp[0].data.get("image/svg+xml", ""), disp[0].data.get("image/png", "")
        check("book.col6-9 svg has the legend", all("Col %d" % d in svg for d in range(6, 10)) and svg.rstrip().endswith("</svg>"),
              svg[:200])
        check("book.col6-9 svg is the element alone (renderable inline)", svg.startswith("<svg"), svg[:80])
        raw = base64.b64decode(png) if png else b""
        # figsize (6, 2.5): a PNG of the book's proportions, as savefig draws it
        w, h = (int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")) if raw[:8] == b"\x89PNG\r\n\x1a\n" else (0, 1)
        check("book.col6-9 png is 6 x 2.5", abs(w / h - 6 / 2.5) < 0.05, "%d x %d" % (w, h))
        # shown at the book's size: figsize (6, 2.5) inches at a browser's 96 pixels per inch, as the book's SVG
        size = disp[0].metadata.get("image/png", {})
        check("book.col6-9 png shows at 576 x 240 (metadata width, height)",
              (size.get("width"), size.get("height")) == (576, 240), size)
        check("book.col6-9 text/plain summary", "4 lines of 60 points" in disp[0].data.get("text/plain", ""),
              disp[0].data.get("text/plain"))
    heat = by_src[cells[5]]
    disp = outputs_of(heat, "display_data")
    check("book.heatmap is display_data", len(disp) == 1 and "image/svg+xml" in disp[0].data and "image/png" in disp[0].data,
          "outputs: %r" % [o.output_type for o in heat.outputs])
    binary = "".join(o.text for o in outputs_of(by_src[cells[4]], "stream"))
    want = "".join("%d in binary is %s\n" % (i, format(i, ">03b")) for i in range(8))
    check("book.binary printed as Python prints", binary == want, repr(binary[:200]))
    got = outputs_of(by_src[extra], "execute_result")
    exp = torch_expected()
    if exp is not None:
        check("book.P slice as PyTorch prints it", len(got) == 1 and got[0].data["text/plain"] == exp,
              "got %r, PyTorch %r" % (got[0].data["text/plain"] if got else None, exp))
    else:
        print("(no PyTorch here: the printed slice is compared with nothing)")
    for c in nb.cells:
        check("book.no error in %r" % c.source[:30], not outputs_of(c, "error"),
              "; ".join(o.evalue for o in outputs_of(c, "error")))
    check("book.no figure files in the notebook's directory", os.listdir(work) == [], os.listdir(work))


def run(kc, code, timeout=60):
    """Executes code: (reply content, [iopub messages of it])."""
    msg_id = kc.execute(code)
    msgs = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        m = kc.get_iopub_msg(timeout=max(0.1, deadline - time.time()))
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
        msgs.append(m)
    return reply_to(kc, msg_id), msgs


def reply_to(kc, msg_id, timeout=20):
    """The shell reply to msg_id (an earlier reply, such as start_new_kernel's kernel_info, is passed over)."""
    deadline = time.time() + timeout
    while True:
        reply = kc.get_shell_msg(timeout=max(0.1, deadline - time.time()))
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"]


def attn_child(kernel_pid):
    """The attn --frames process the kernel (which this test started) runs."""
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = open("/proc/%s/stat" % d).read()
            cmd = open("/proc/%s/cmdline" % d, "rb").read().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == kernel_pid and b"--frames" in cmd:
            return int(d)
    return None


def bad_input():
    work = tempfile.mkdtemp(prefix="bad-", dir=TMP)
    km, kc = start_new_kernel(kernel_name="attn", cwd=work)
    try:
        # an error: Python's class, attn's message, the line and the caret; the kernel lives on
        reply, msgs = run(kc, "x = torch.ones(2, 3)\nx @ x")
        check("error.reply", reply["status"] == "error" and reply.get("ename") == "RuntimeError", reply)
        tb = reply.get("traceback", [])
        check("error.caret", len(tb) >= 3 and tb[1].strip() == "x @ x" and tb[2].strip() == "^", tb)
        reply, msgs = run(kc, "x.shape")
        res = [m for m in msgs if m["msg_type"] == "execute_result"]
        check("error.then the session goes on", res and res[0]["content"]["data"]["text/plain"] == "torch.Size([2, 3])", res)
        # a cell that never ends, stopped as Ctrl-C stops it
        msg_id = kc.execute("n = 0\nwhile True:\n    n += 1")
        time.sleep(1.5)
        km.interrupt_kernel()
        t0 = time.time()
        reply = reply_to(kc, msg_id)
        check("interrupt.stops the cell", reply["status"] == "error" and reply.get("ename") == "KeyboardInterrupt"
              and time.time() - t0 < 10, reply)
        time.sleep(0.5)       # ipykernel aborts what is queued just after an error, as for any kernel
        reply, msgs = run(kc, "n > 0")
        res = [m for m in msgs if m["msg_type"] == "execute_result"]
        check("interrupt.what was defined is kept", res and res[0]["content"]["data"]["text/plain"] == "True", msgs)
        # 100 MB printed: cut with a note, and the kernel lives
        t0 = time.time()
        reply, msgs = run(kc, "for i in range(1000000):\n    print('x' * 99)", timeout=300)
        out = "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")
        err = "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream" and m["content"]["name"] == "stderr")
        check("cap.output cut at 10 MB", (10 << 20) - 100 <= len(out) <= 10 << 20, len(out))
        check("cap.a note says so", "cut at 10 MB" in err and "100000000 bytes" in err, err)
        check("cap.few messages", len(msgs) < 2000, "%d iopub messages" % len(msgs))
        reply, msgs = run(kc, "1 + 1")
        check("cap.the kernel lives", reply["status"] == "ok", reply)
        # a stranger's notebook writes only under its own directory, as a lesson does
        outside = tempfile.mkdtemp(prefix="outside-", dir=TMP)
        reply, _ = run(kc, "d2l.plot(torch.arange(3.), torch.arange(3.))\nsavefig('%s/x.svg')" % outside)
        check("policy.no write outside", reply["status"] == "error" and not os.listdir(outside), reply.get("evalue"))
        reply, _ = run(kc, "savefig('mine.svg')\nsave('x.npy', torch.ones(2))")
        check("policy.writes in its directory", reply["status"] == "ok" and sorted(os.listdir(work)) == ["mine.svg", "x.npy"],
              (reply.get("evalue"), os.listdir(work)))
        # completion at the cursor and in the middle of a line; inspection of a name of the student's
        reply = kc.complete("y = x.resh", 10, reply=True, timeout=10)["content"]
        check("complete.attribute", "x.reshape" in reply["matches"] and reply["cursor_start"] == 4, reply)
        reply = kc.complete("é = torch.ze", 12, reply=True, timeout=10)["content"]
        check("complete.characters not bytes", reply["cursor_start"] == 4 and reply["cursor_end"] == 12, reply)
        reply = kc.inspect("torch.zeros((2, 3))", 12, reply=True, timeout=10)["content"]
        check("inspect.after the bracket", reply["found"] and "torch.zeros" in reply["data"]["text/plain"], reply)
        reply = kc.inspect("nothing_here", 3, reply=True, timeout=10)["content"]
        check("inspect.unknown", reply["status"] == "ok" and not reply["found"], reply)
        # a result whose __repr__ raises is Python's error, as the prompt's echo (issue 28), not a placeholder result
        reply, msgs = run(kc, "class A:\n    def __repr__(self):\n        raise ValueError('boom')\nA()")
        res = [m for m in msgs if m["msg_type"] == "execute_result"]
        check("repr.a result's raising __repr__ is the cell's ValueError", reply["status"] == "error"
              and reply.get("ename") == "ValueError" and "boom" in reply.get("evalue", "") and not res, (reply, res))
        reply, msgs = run(kc, "class N:\n    def __repr__(self):\n        return 5\nN()")
        check("repr.a non-string __repr__ is the cell's TypeError", reply["status"] == "error" and reply.get("ename") == "TypeError"
              and "__repr__ returned non-string" in reply.get("evalue", ""), reply)
        # the attn process killed: a dead kernel; restart gives a fresh session
        pid = attn_child(km.provisioner.process.pid)
        check("dead.attn process found", pid is not None, "no child with --frames")
        if pid:
            figdirs = glob.glob("/tmp/attn-kernel-%d-*" % pid)
            check("dead.attn's figure folder is named by its pid", len(figdirs) == 1, figdirs)
            os.kill(pid, signal.SIGKILL)
            reply, msgs = run(kc, "1", timeout=20)
            check("dead.reported", reply["status"] == "error" and "SIGKILL" in reply.get("evalue", ""), reply)
            for _ in range(100):
                if not km.is_alive():
                    break
                time.sleep(0.1)
            check("dead.kernel is dead", not km.is_alive(), "still alive")
            km.restart_kernel(now=True)
            kc.stop_channels()
            kc = km.client()
            kc.start_channels()
            kc.wait_for_ready(timeout=30)
            reply, msgs = run(kc, "x")
            check("dead.restart is a fresh session", reply["status"] == "error" and reply.get("ename") == "NameError", reply)
            reply, msgs = run(kc, "2 * 21")
            res = [m for m in msgs if m["msg_type"] == "execute_result"]
            check("dead.restart works", res and res[0]["content"]["data"]["text/plain"] == "42", msgs)
            check("dead.the killed attn's figure folder is gone after the restart",
                  figdirs and not any(os.path.exists(d) for d in figdirs), figdirs)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def sweep():
    """A kernel that starts removes the figure folders of dead kernels only: a live kernel's folder stays even when its
    pid means nothing to the new one (it runs in another pid namespace, as in a container sharing /tmp: kill(pid, 0)
    says no such process there), and so does a folder of this user's whose name is not one attn makes."""
    live = subprocess.Popen([ATTN, "--frames"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        live.stdout.readline()                      # its "ready" frame: the folder exists
        dirs = glob.glob("/tmp/attn-kernel-%d-*" % live.pid)
        check("sweep.the live kernel has its folder", len(dirs) == 1, dirs)
        free = next(p for p in range(300000, 4000000) if not os.path.exists("/proc/%d" % p))
        mine = "/tmp/attn-kernel-%d-keep-me" % free
        os.makedirs(mine)
        ns = shutil.which("unshare")
        if ns and subprocess.run([ns, "-Urpf", "true"], capture_output=True).returncode == 0:
            subprocess.run([ns, "-Urpf", ATTN, "--frames"], stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
            check("sweep.a kernel in another pid namespace leaves the live kernel's folder", all(os.path.isdir(d) for d in dirs), dirs)
        subprocess.run([ATTN, "--frames"], stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        check("sweep.a folder not named as attn names them stays", os.path.isdir(mine), mine)
        shutil.rmtree(mine, ignore_errors=True)
    finally:
        live.stdin.close()
        live.wait(timeout=30)
    check("sweep.the live kernel removes its own folder at its end", not any(os.path.exists(d) for d in dirs), dirs)


# the terminal's catalogue entries (src/util/i18n_messages.c), written here as the translators wrote them
INTERRUPTED = {"ja": "中断しました (Ctrl-C): それまでに定義したものはすべて残っています",
               "zh": "已中断（Ctrl-C）：之前定义的一切都保留着"}


def notebook_language():
    """A ja or zh lesson notebook on a kernel started in English: from its first question cell on, the kernel speaks
    the notebook's language (issue 28: the language moved into the session and the question cell's statements spoke
    the kernel's): a statement of a question cell stopped by the stop button shows attn's note in that language, so
    do later code cells (help), and so does the fresh session after quit()."""
    for lang in ("ja", "zh"):
        work = tempfile.mkdtemp(prefix="lang-", dir=TMP)
        km, kc = start_new_kernel(kernel_name="attn", cwd=work, env=dict(os.environ, LANG="C.UTF-8", LC_ALL="",
                                                                           LANGUAGE=""))
        try:
            def shown(code):
                _, msgs = run(kc, code)
                return "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream"
                               and m["content"]["name"] == "stdout").strip()

            def terminal(lang):
                return subprocess.run([ATTN, "--lang", lang], input="help(torch.bmm)\n", capture_output=True,
                                      text=True, timeout=60).stdout.strip()
            got, want = shown("help(torch.bmm)"), terminal("en")
            check("%s.before any question cell: the kernel's own language" % lang, want and got == want, got[:200])
            msg_id = kc.execute("%%%%question 01-self-attention scores 1 --lang %s\nn = 0\nwhile True:\n    n += 1" % lang)
            time.sleep(1.5)
            km.interrupt_kernel()
            reply = reply_to(kc, msg_id)
            check("%s.a question cell's statement stopped: attn's note in the notebook's language" % lang,
                  reply.get("ename") == "KeyboardInterrupt" and INTERRUPTED[lang] in reply.get("evalue", ""), reply)
            time.sleep(0.5)       # ipykernel aborts what is queued just after an error
            want = terminal(lang)
            got = shown("help(torch.bmm)")
            check("%s.a later code cell: help as the terminal in %s shows it" % (lang, lang), want and got == want,
                  (got[:200], want[:200]))
            run(kc, "quit()")
            got = shown("help(torch.bmm)")
            check("%s.after quit(): still the notebook's language" % lang, want and got == want, (got[:200], want[:200]))
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


for part in (kernel_test_suite, book_notebook, bad_input, notebook_language, sweep):
    try:
        part()
    except Exception as e:          # a kernel that does not start or dies: that part fails, the others still run
        check(part.__name__ + ".ran", False, "%s: %s" % (type(e).__name__, str(e)[:300]))
sys.stderr.flush()
if not os.environ.get("ATTN_KEEP_TEST_FILES"):
    shutil.rmtree(TMP, ignore_errors=True)
else:
    print("(the notebook and the kernel spec are kept in %s)" % TMP)
try:
    finish()
except SystemExit as e:          # nbclient's exit hooks would print after the summary line, which must be last
    sys.stdout.flush()
    os._exit(e.code)

"""AttnKernel: Jupyter's requests turned into attn's frames and attn's frames into Jupyter's messages.

execute_request -> stream, execute_result, display_data (image/svg+xml, image/png, text/plain), error;
complete_request, inspect_request (Shift-Tab: help for the name under the cursor), is_complete_request;
an interrupt is SIGINT to attn (as Ctrl-C at the prompt); attn dying makes this kernel die too, so Jupyter
shows a dead kernel and a restart starts a fresh attn."""
import base64
import codecs
import os
import signal
import sys
import threading
import time

from ipykernel.kernelbase import Kernel

from . import __version__
from .frames import AttnDied, AttnProcess

STREAM_EVERY = 0.05      # seconds: what attn prints is sent on at most this often (a loop of prints is one message)


PNG_PPI = 200            # attn draws a figure's PNG at 200 pixels per inch (src/plot/script.c), twice matplotlib's 100
CSS_PPI = 96             # a browser's pixels per inch: the book's figures (matplotlib's SVG) show at figsize x 96


def _png_size(png):
    """The width and height at which the PNG shows at the book's size, in CSS pixels, from its IHDR; None when it is
    not a PNG."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 24:
        return None
    w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    return round(w * CSS_PPI / PNG_PPI), round(h * CSS_PPI / PNG_PPI)


def _chars(data, byte_pos):
    """The character offset of byte offset byte_pos in the UTF-8 bytes data (Jupyter counts characters)."""
    return len(data[:byte_pos].decode("utf-8", "replace"))


class AttnKernel(Kernel):
    implementation = "attn"
    implementation_version = __version__
    language = "python"
    language_version = "3"
    language_info = {
        "name": "python",
        "version": "3",
        "mimetype": "text/x-python",
        "file_extension": ".py",
        "codemirror_mode": {"name": "ipython", "version": 3},
        "pygments_lexer": "ipython3",
    }
    banner = ("attn - d2l.ai 11.6 Self-Attention and Positional Encoding, in C; tensors print as PyTorch "
              "prints them. help lists the chapter's functions.")
    help_links = [{"text": "d2l.ai 11.6", "url": "https://d2l.ai/chapter_attention-mechanisms-and-transformers/self-attention-and-positional-encoding.html"}]

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.attn = AttnProcess()
        self.attn.start()

    # ---- execute ----

    def do_execute(self, code, silent, store_history=True, user_expressions=None, allow_stdin=False):
        if not code.strip():
            return self._ok()
        old = signal.signal(signal.SIGINT, lambda s, f: self.attn.interrupt())
        try:
            return self._execute(code, silent)
        except AttnDied as e:
            return self._died(str(e), silent)
        finally:
            signal.signal(signal.SIGINT, old)

    def _ok(self):
        return {"status": "ok", "execution_count": self.execution_count, "payload": [], "user_expressions": {}}

    def _execute(self, code, silent):
        self.attn.send("execute", code)
        streams = {}                     # name -> [incremental decoder, pending text]
        last_sent = [time.monotonic()]
        figure, meta = {}, {}
        error = None

        def flush_streams():
            for name, (dec, parts) in streams.items():
                text = "".join(parts)
                parts.clear()
                if text and not silent:
                    self.send_response(self.iopub_socket, "stream", {"name": name, "text": text})
            last_sent[0] = time.monotonic()

        while True:
            kind, args, data = self.attn.read()
            if kind == "stream":
                name = args[0] if args and args[0] in ("stdout", "stderr") else "stdout"
                entry = streams.setdefault(name, [codecs.getincrementaldecoder("utf-8")("replace"), []])
                entry[1].append(entry[0].decode(data))
                if time.monotonic() - last_sent[0] >= STREAM_EVERY:
                    flush_streams()
                continue
            flush_streams()
            if kind == "figure":
                what = args[0] if args else ""
                if what == "svg":
                    # the <svg> element alone, as IPython's SVG() sends it: no XML declaration or DOCTYPE, which
                    # HTML renderers (nbconvert, JupyterLab's sanitizer) refuse inline
                    svg = data.decode("utf-8", "replace")
                    figure["image/svg+xml"] = svg[svg.find("<svg"):] if "<svg" in svg else svg
                elif what == "png":
                    figure["image/png"] = base64.b64encode(data).decode("ascii")
                    size = _png_size(data)
                    if size:        # drawn at 200 ppi for sharp screens: shown at the size of the book's figure
                        meta["image/png"] = {"width": size[0], "height": size[1]}
                elif what == "text":
                    figure["text/plain"] = "<%s>" % data.decode("utf-8", "replace")
                    if not silent:
                        self.send_response(self.iopub_socket, "display_data", {"data": figure, "metadata": meta})
                    figure, meta = {}, {}
            elif kind == "result":
                if not silent:
                    self.send_response(self.iopub_socket, "execute_result", {
                        "execution_count": self.execution_count,
                        "data": {"text/plain": data.decode("utf-8", "replace")}, "metadata": {}})
            elif kind == "evalue":
                error = {"evalue": data.decode("utf-8", "replace").rstrip("\n")}
            elif kind == "error":
                error = error or {"evalue": ""}
                error["ename"] = args[0] if args else "Exception"
                error["traceback"] = data.decode("utf-8", "replace").rstrip("\n").split("\n")
                if not silent:
                    self.send_response(self.iopub_socket, "error", error)
            elif kind == "done":
                for name, (dec, parts) in streams.items():
                    parts.append(dec.decode(b"", final=True))
                flush_streams()
                if error and "ename" in error:
                    return dict(status="error", execution_count=self.execution_count, **error)
                return self._ok()

    def _died(self, why, silent):
        """attn is gone: the cell fails with why, and this kernel ends so Jupyter shows it as dead (a restart
        starts a fresh attn)."""
        error = {"ename": "DeadKernel", "evalue": why,
                 "traceback": ["%s: the kernel is dead; restart it (Kernel > Restart) for a fresh session" % why]}
        if not silent:
            self.send_response(self.iopub_socket, "error", error)
        self.log.error("attn_kernel: %s", why)
        threading.Timer(0.5, os._exit, (1,)).start()
        return dict(status="error", execution_count=self.execution_count, **error)

    # ---- completion, help, completeness ----

    def _ask(self, kind, code, pos=None):
        """Sends a request and returns its frames before done (attn answers these at once)."""
        try:
            self.attn.send(kind, code, pos)
            frames = []
            while True:
                frame = self.attn.read()
                if frame[0] == "done":
                    return frames
                frames.append(frame)
        except AttnDied as e:
            self._died(str(e), True)
            return []

    def do_complete(self, code, cursor_pos):
        data = code.encode("utf-8")
        pos = len(code[:cursor_pos].encode("utf-8"))
        matches, start, end = [], pos, pos
        for kind, args, payload in self._ask("complete", code, pos):
            if kind == "matches":
                start, end = int(args[0]), int(args[1])
                matches = [m for m in payload.decode("utf-8", "replace").split("\n") if m]
        return {"status": "ok", "matches": matches, "cursor_start": _chars(data, start),
                "cursor_end": _chars(data, end), "metadata": {}}

    def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        pos = len(code[:cursor_pos].encode("utf-8"))
        for kind, args, payload in self._ask("inspect", code, pos):
            if kind == "help" and args and args[0] == "1":
                return {"status": "ok", "found": True, "data": {"text/plain": payload.decode("utf-8", "replace")},
                        "metadata": {}}
        return {"status": "ok", "found": False, "data": {}, "metadata": {}}

    def do_is_complete(self, code):
        for kind, args, payload in self._ask("is_complete", code):
            if kind == "status" and args:
                reply = {"status": args[0]}
                if args[0] == "incomplete":
                    reply["indent"] = payload.decode("utf-8", "replace")
                return reply
        return {"status": "unknown"}

    def do_shutdown(self, restart):
        self.attn.stop()
        return {"status": "ok", "restart": restart}

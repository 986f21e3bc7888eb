"""attn's Jupyter kernel: a thin wrapper (ipykernel's Kernel) around one `attn --frames` process.

The wrapper speaks Jupyter's protocol (ZeroMQ, JSON); attn speaks its own framed format on a pipe
(src/repl/frames.c documents it). Nothing here interprets Python: every cell goes to attn as it was typed."""
__version__ = "0.1.0"

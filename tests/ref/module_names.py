"""Module namespaces against the real modules: every name attn resolves in torch, torch.nn, torch.nn.functional,
math and random (module.name, hasattr, dir) is one python3 with Debian's PyTorch 1.13 has there, and dir(module)
lists exactly what resolves. d2l.torch (not installed here) is checked against its public names, listed below from
d2l-ai/d2l-en's d2l/torch.py, and its aliases against what PyTorch computes. attn's own module holds attn's tools
and none of Python's builtins. Python's AttributeError words where a module lacks a name.

usage: module_names.py ATTN"""
import builtins, collections, json, math, random, subprocess, sys, types

from refcheck import ATTN, check, finish

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("python3-torch not installed")
    print("0 passed, 0 failed")
    sys.exit(0)

# d2l/torch.py's module-level names attn could offer: its aliases (end of the file), what it imports, its functions
# and classes of chapter 11 and the ones it shares with PyTorch's names (a name attn resolves must be here).
D2L = set("""ones_like ones zeros_like zeros tensor arange meshgrid sin sinh cos cosh tanh linspace exp log normal rand
randn matmul int32 int64 float32 concat stack abs eye sigmoid batch_matmul numpy size reshape to reduce_sum argmax
astype transpose reduce_mean expand_dims swapaxes repeat torch nn F np math random time os re sys collections
hashlib inspect shutil tarfile zipfile plt display data transforms torchvision Image defaultdict nn_Module
Module DotProductAttention MultiHeadAttention PositionalEncoding AdditiveAttention AttentionDecoder
TransformerEncoder TransformerEncoderBlock PositionWiseFFN AddNorm Encoder Decoder EncoderDecoder Trainer
DataModule HyperParameters ProgressBoard Timer Accumulator Animator masked_softmax show_heatmaps plot
add_to_class check_shape check_len cpu gpu num_gpus try_gpu try_all_gpus set_axes set_figsize use_svg_display
transpose_qkv transpose_output""".split())

MODULES = {"torch": torch, "torch.nn": torch.nn, "torch.nn.functional": F, "math": math, "random": random,
           "collections": collections}


def public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def run(code):
    r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, timeout=120)
    if r.returncode:
        raise RuntimeError(r.stderr)
    return r.stdout


# What attn lists, and every name worth asking about: attn's names in every module, the real modules' names, and
# the names of attn's builtins that must not answer under the wrong module (print, len, randn, rope ...).
names = {}
for m in list(MODULES) + ["d2l", "attn"]:
    names[m] = json.loads(run(f"import {m if m != 'd2l' else 'd2l'}\nprint(repr(dir({m})).replace(\"'\", '\"'))"))
allnames = set().union(*names.values(), *(public(v) for v in MODULES.values()), D2L, public(builtins),
                       {"print", "len", "ValueError", "randn", "softmax", "rope", "DotProductAttention", "complexity"})
ask = sorted(n for n in allnames if n.isidentifier())
for m in list(MODULES) + ["d2l", "attn"]:
    got = json.loads(run(f"import {m}\nprint(repr([hasattr({m}, n) for n in {ask!r}]).replace('True', 'true').replace('False', 'false'))"))
    resolves = {n for n, h in zip(ask, got) if h}
    check(f"dir({m}) lists exactly the names that resolve", resolves == set(names[m]),
          f"resolve but not listed: {sorted(resolves - set(names[m]))[:10]}, listed but fail: {sorted(set(names[m]) - resolves)[:10]}")
    if m in MODULES:
        real = public(MODULES[m]) | {n for n in ("Tensor", "Size") if m == "torch"}
        # F.scaled_dot_product_attention: PyTorch 2.0's (the chapter's fused attention), newer than Debian's 1.13
        extra = sorted(n for n in resolves if not hasattr(MODULES[m], n) and n != "scaled_dot_product_attention")
        check(f"every name attn resolves in {m} is one PyTorch/Python has there", not extra, f"not in {m}: {extra}")
        check(f"{m}: some names resolve", len(resolves) >= (1 if m != "random" else 0), str(len(resolves)))
    elif m == "d2l":
        extra = sorted(resolves - D2L)
        check("every name attn resolves in d2l is one d2l.torch has", not extra, f"not in d2l.torch: {extra}")
    else:
        py = sorted(resolves & public(builtins))
        check("attn's module holds none of Python's builtins", not py, str(py))
        check("attn's module holds its chapter tools", {"complexity", "rope", "binary_vs_sinusoid", "show_config"} <= resolves,
              str(sorted(resolves)[:20]))

# The examples: names from another module fail with Python's words; PyTorch's names attn lacks say so.
for expr, want in [("math.randn", "module 'math' has no attribute 'randn'"), ("nn.print", "module 'torch.nn' has no attribute 'print'"),
                   ("torch.rope", "module 'torch' has no attribute 'rope'"),
                   ("nn.DotProductAttention", "module 'torch.nn' has no attribute 'DotProductAttention'"),
                   ("math.softmax", "module 'math' has no attribute 'softmax'"),
                   ("torch.fft", "torch.fft is not in attn"), ("d2l.int32", "torch.int32 is not in attn"),
                   ("random.seed", "random.seed is Python's and not in attn")]:
    r = subprocess.run([ATTN, "-c", expr], capture_output=True, text=True, timeout=60)
    check(f"{expr} fails with {want!r}", r.returncode != 0 and want in r.stderr, r.stderr.strip()[:200])

# d2l's aliases compute what they alias (d2l.transpose is x.t(), d2l.concat torch.cat, d2l.size numel ...).
# Printed digits are compared, so the inputs keep them off rounding edges: exp(4) = 54.59815 sits on the edge of its
# 4th decimal (SLEEF prints 54.5982, glibc 54.5981); exp(X / 3) is at least 75 float32 steps from every edge.
X = torch.arange(6.0).reshape(2, 3)
cases = {"d2l.transpose(X)": X.t(), "d2l.concat((X, X))": torch.cat((X, X)), "d2l.reshape(X, (3, 2))": X.reshape((3, 2)),
         "d2l.reduce_sum(X, 0)": X.sum(0), "d2l.reduce_mean(X)": X.mean(), "d2l.expand_dims(X, 0)": X.unsqueeze(0),
         "d2l.batch_matmul(X.unsqueeze(0), X.T.unsqueeze(0))": torch.bmm(X.unsqueeze(0), X.T.unsqueeze(0)),
         "d2l.size(X)": X.numel(), "d2l.argmax(X, 1)": X.argmax(1), "d2l.swapaxes(X, 0, 1)": X.swapaxes(0, 1),
         "d2l.repeat(X, 1, 2)": X.repeat(1, 2), "d2l.astype(X, torch.float64)": X.type(torch.float64),
         "d2l.to(X, torch.float64)": X.to(torch.float64),
         "d2l.zeros(2, 3)": torch.zeros(2, 3), "d2l.exp(X / 3)": torch.exp(X / 3), "d2l.torch.ones(2)": torch.ones(2),
         "d2l.F.softmax(X, dim=1)": F.softmax(X, dim=1), "F.relu(X - 2)": F.relu(X - 2),
         "torch.max(X, dim=1).values": torch.max(X, dim=1).values, "torch.abs(-X)": torch.abs(-X)}
out = run("from d2l import torch as d2l\nX = torch.arange(6.0).reshape(2, 3)\n" +
          "\n".join(f"print(repr({e}))" for e in cases)).split("\n")
k = 0
for e, want in cases.items():
    w = repr(want).split("\n")
    got = out[k:k + len(w)]
    k += len(w)
    check(f"{e} prints as PyTorch's", got == w, f"{got} != {w}")
for e, want in [("math.sqrt(2)", math.sqrt(2)), ("math.floor(2.5)", math.floor(2.5)), ("math.log10(3.0)", math.log10(3.0)),
                ("math.tau", math.tau), ("math.pi", math.pi)]:
    got = run(f"print(repr({e}))").strip()
    check(f"{e} is Python's {want!r}", got == repr(want), got)
finish()

"""nn.Sequential, nn.LayerNorm, nn.Embedding, nn.ReLU, nn.GELU, nn.Softmax and nn.Identity against PyTorch on the same weights and inputs: attn
builds the layers (its own random weights), saves its input and state_dict to .npy files, PyTorch builds the same
layers and loads them; both then print the same expressions (reprs, parameter names and shapes, state_dict keys,
outputs), which must match line for line. Then the mistakes a student makes, with PyTorch's words.

usage: nn_layers.py ATTN"""
import os, subprocess, sys, tempfile

from refcheck import ATTN, check, finish

try:
    import numpy as np
    import torch
    from torch import nn
    import torch.nn.functional as F
except ImportError:
    print("python3-torch not installed")
    print("0 passed, 0 failed")
    sys.exit(0)

BUILD = """net = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4, bias=False), nn.ReLU(), nn.Identity(), nn.Softmax(dim=-1))
inner = nn.Sequential(nn.Linear(4, 4), nn.Sequential(nn.GELU(approximate='tanh'), nn.Identity()), nn.LayerNorm(4))
ln = nn.LayerNorm(4)
ln2 = nn.LayerNorm((3, 4), eps=1e-3)
ln3 = nn.LayerNorm([4], elementwise_affine=False)
emb = nn.Embedding(10, 4, padding_idx=-1)
emb0 = nn.Embedding(6, 3, padding_idx=0)
"""
SAVE = """X = torch.randn(2, 3, 4)
save('X.npy', X)
_ = ln.weight.copy_(torch.randn(4))
_ = ln.bias.copy_(torch.randn(4))
_ = ln2.weight.copy_(torch.rand(3, 4))
for m, name in ((net, 'net'), (inner, 'inner'), (ln, 'ln'), (ln2, 'ln2'), (emb, 'emb')):
    for k, v in m.state_dict().items():
        save(name + '.' + k + '.npy', v)
"""
LOAD = """X = torch.from_numpy(np.load('X.npy'))
for m, name in ((net, 'net'), (inner, 'inner'), (ln, 'ln'), (ln2, 'ln2'), (emb, 'emb')):
    _ = m.load_state_dict({k: torch.from_numpy(np.load(name + '.' + k + '.npy')) for k in m.state_dict()})
"""
PRINT = [
    "net", "inner", "[(k, tuple(p.shape)) for k, p in net.named_parameters()]", "list(net.state_dict())",
    "list(inner.state_dict())", "[k for k, m in net.named_children()]", "len(list(net.modules()))",
    "net(X).detach()", "inner(X).detach()", "nn.ReLU()(X)", "nn.GELU()(X)", "nn.GELU(approximate='tanh')(X)",
    "nn.Softmax(dim=1)(X)", "nn.Softmax(dim=0)(X[0])", "nn.Identity()(X) is X", "nn.Identity(3, k=4)",
    "(nn.ReLU(), nn.GELU(), nn.Softmax(dim=2), nn.Softmax(), nn.Identity())",
    "type(nn.ReLU()), type(nn.GELU()), type(nn.Softmax()), type(nn.Identity()), type(net)",
    "isinstance(net, nn.Module), isinstance(nn.ReLU(), nn.Module)", "net.eval().training, net.train().training",
    "nn.Sequential()(X) is X", "nn.Sequential()",
    "ln", "ln2", "ln3", "emb", "emb0", "list(ln.state_dict())", "list(ln3.state_dict())", "ln3.weight, ln3.bias",
    "[(k, tuple(p.shape)) for k, p in emb.named_parameters()]", "ln(X).detach()", "ln2(X).detach()", "ln3(X)",
    "ln3(X.double())", "emb(torch.tensor([[0, 9, 3], [2, 2, 1]])).detach()", "emb(torch.tensor(4)).detach()",
    "emb.weight[9].detach()", "emb0.weight[0].detach()", "emb0.weight.shape", "emb0.padding_idx, emb.padding_idx",
    "type(ln), type(emb)", "(X + emb(torch.arange(3)).detach()).shape",
]


def program(head, body):
    return head + "".join(f"print(repr(({e})))\n" for e in PRINT)


with tempfile.TemporaryDirectory() as d:
    r = subprocess.run([ATTN, "-c", program(BUILD + SAVE, "")], cwd=d, capture_output=True, text=True, timeout=120)
    check("attn runs the layers", r.returncode == 0, r.stderr[-500:])
    got = r.stdout
    old = os.getcwd()
    os.chdir(d)
    import contextlib, io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(BUILD + LOAD + "".join(f"print(repr(({e})))\n" for e in PRINT), {"torch": torch, "nn": nn, "F": F, "np": np})
    os.chdir(old)
    want = buf.getvalue()
    gl, wl = got.split("\n"), want.split("\n")
    for i, (g, w) in enumerate(zip(gl, wl)):
        check(f"line {i + 1} as PyTorch prints it", g == w, f"attn {g!r} != torch {w!r}")
    check("as many lines as PyTorch", len(gl) == len(wl), f"{len(gl)} != {len(wl)}")

# mistakes: the message says what and where, as PyTorch's
for code, want in [
    ("nn.Sequential(3)", "int is not a Module subclass"),
    ("nn.Sequential(nn.Linear(4, 8), nn.Linear(4, 8))(torch.ones(2, 4))", "Linear: input of shape"),
    ("nn.ReLU()(torch.ones(2), torch.ones(2))", "takes"),
    ("nn.GELU(approximate='fast')", "approximate argument must be either none or tanh"),
    ("nn.Softmax(dim='x')", "must be int or None"),
    ("nn.Embedding(10, 4)(torch.tensor([1.0]))", "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor"),
    ("nn.Embedding(10, 4)(torch.tensor([10]))", "index out of range in self"),
    ("nn.Embedding(10, 4, padding_idx=10)", "Padding_idx must be within num_embeddings"),
    ("nn.LayerNorm(5)(torch.ones(2, 3, 4))", "Given normalized_shape=[5], expected input with shape [*, 5], but got input of size[2, 3, 4]"),
    ("nn.LayerNorm(4)(torch.ones(2, 4, dtype=torch.int64))", "float"),
    ("nn.LayerNorm(4)(torch.ones(2, 4, dtype=torch.float64))", "expected scalar type Double but found Float"),
]:
    r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, timeout=60)
    check(f"{code} fails with {want!r}", r.returncode != 0 and want in r.stderr, r.stderr.strip()[:300])
finish()

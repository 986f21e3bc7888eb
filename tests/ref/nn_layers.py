"""nn.Sequential, nn.LayerNorm, nn.Embedding, nn.ReLU, nn.GELU, nn.Softmax, nn.Identity and nn.MultiheadAttention against PyTorch on the same weights and inputs: attn
builds the layers (its own random weights), saves its input and state_dict to .npy files, PyTorch builds the same
layers and loads them; both then print the same expressions (reprs, parameter names and shapes, state_dict keys,
outputs), which must match line for line. Then the mistakes a student makes, with PyTorch's words.

usage: nn_layers.py ATTN"""
import os, subprocess, sys, tempfile

from refcheck import ATTN, check, close, finish

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
with torch.no_grad():
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
    "nn.Softmax(dim=1)(X)", "nn.Softmax(dim=0)(X[0])", "nn.Softmax()(X)", "nn.Softmax()(X[0])", "nn.Softmax()(X[0, 0])", "nn.Identity()(X) is X", "nn.Identity(3, k=4)",
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

# The same program in attn and PyTorch, printing only what does not depend on the random weights (reprs, names,
# shapes, lengths, the class and words of each error); the outputs must be equal line for line.
SAME = {
    "Sequential as a container": """
inner = nn.Sequential(nn.Linear(3, 3), nn.GELU())
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), inner, nn.Linear(3, 1))
print(net[0]); print(net[-1]); print(net[2]); print(net[-2] is inner, net[True])
print(net[1:]); print(net[::2]); print(net[:-1]); print(net[5:]); print(net[1:][0])
print(len(net), len(net[1:]), len(nn.Sequential()))
for layer in net:
    print(type(layer).__name__)
print(list(net))
print(net.append(nn.Identity()) is net, len(net))
_ = net.append(nn.Sequential(nn.Softmax(dim=-1), nn.Sequential(nn.LayerNorm(3))))
print(net)
print(net.extend([nn.ReLU(), nn.GELU()]) is net, len(net), list(net.state_dict()))
print([k for k, _ in net.named_children()], [k for k, _ in net.named_modules()])
print(net[1:3](torch.ones(2, 3)).shape, nn.Sequential(*list(net)[:2])(torch.ones(4, 2)).shape)
for i, l in enumerate(net):
    if i < 2: print(i, l)
print([type(m).__name__ for m in iter(net)])
for bad in (5, -9, 100):
    try:
        net[bad]
    except IndexError as e:
        print('IndexError', e)
try:
    net['a']
except TypeError as e:
    print('TypeError', e)
try:
    net.append(3)
except TypeError as e:
    print('TypeError', e)
""",
    "error classes": """
for make in (lambda: nn.Dropout(1.5), lambda: nn.Dropout(-0.1), lambda: nn.MultiheadAttention(5, 2)):
    try:
        make()
    except ValueError as e:
        print('ValueError', e)
    except AssertionError as e:
        print('AssertionError', e)
    except RuntimeError as e:
        print('RuntimeError', e)
""",
    "ModuleList": """
layers = nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1)])
print(layers); print(nn.ModuleList()); print(len(layers), len(nn.ModuleList()))
print(layers[0]); print(layers[-1]); print(layers[1:]); print(layers[::2]); print(type(layers[1:]).__name__)
print([type(m).__name__ for m in layers], list(layers)[1])
print(nn.ModuleList(nn.Linear(1, 1) for _ in range(2)))
print(nn.ModuleList((nn.ReLU(), nn.GELU())))
print(nn.ModuleList(nn.Sequential(nn.ReLU(), nn.Identity())))
print(layers.append(nn.Identity()) is layers, len(layers))
print(layers.extend([nn.GELU(), nn.Softmax(dim=0)]) is layers, len(layers))
print(layers.extend(nn.Sequential(nn.Identity())) is layers, len(layers))
print(layers)
print(list(layers.state_dict()), [k for k, _ in layers.named_parameters()])
class Net(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(n)])
        self.out = nn.Linear(4, 2)
    def forward(self, X):
        for layer in self.layers:
            X = torch.relu(layer(X))
        return self.out(X)
net = Net(3)
print(net)
print(list(net.state_dict()))
print([(k, tuple(p.shape)) for k, p in net.named_parameters()], len(list(net.parameters())))
print([k for k, _ in net.named_modules()], len(list(net.children())))
print(net(torch.ones(5, 4)).shape)
for bad in (4, -5):
    try:
        layers[bad + 3]
    except IndexError as e:
        print('IndexError', e)
try:
    nn.ModuleList(3)
except TypeError as e:
    print('TypeError', e)
try:
    nn.ModuleList([nn.ReLU(), 3])
except TypeError as e:
    print('TypeError', e)
try:
    layers.extend(5)
except TypeError as e:
    print('TypeError', e)
""",
    "Embedding padding_idx and indices": """
for p in (0, 3, 4, -1, -5, None):
    e = nn.Embedding(5, 2, padding_idx=p)
    zero = (e.weight.detach() == 0).all(1)
    print(e, e.padding_idx, [i for i in range(5) if bool(zero[i])])
e = nn.Embedding(5, 2, padding_idx=-2)
print(e(torch.tensor([3, 3])).detach(), e.weight.shape)
for bad in ([5], [-1], [[0, 7]], [[-6, 1]]):
    try:
        e(torch.tensor(bad))
    except IndexError as x:
        print('IndexError', x)
""",
    "a stack of blocks as d2l builds it (§11.7; exercise 1 of §11.6)": """
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.ln = nn.LayerNorm(d)
    def forward(self, X):
        Y, _ = self.attn(X, X, X)
        return self.ln(X + Y)
class Encoder(nn.Module):
    def __init__(self, d, n):
        super().__init__()
        self.blks = nn.Sequential()
        for i in range(n):
            self.blks.add_module("block" + str(i), Block(d))
    def forward(self, X):
        self.attention_weights = [None] * len(self.blks)
        for i, blk in enumerate(self.blks):
            X = blk(X)
            self.attention_weights[i] = i
        return X
enc = Encoder(8, 2)
print(enc)
print(len(enc.blks), enc.blks[1] is list(enc.blks)[1], type(enc.blks[-1]).__name__)
print(enc(torch.ones(2, 3, 8)).shape, enc.attention_weights)
print([k for k, _ in enc.named_parameters()])
print(enc.blks[:1])
""",
}
for name, code in SAME.items():
    r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, timeout=120)
    import contextlib, io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(code, {"torch": torch, "nn": nn})
    gl, wl = r.stdout.split("\n"), buf.getvalue().split("\n")
    check(f"{name}: attn runs it", r.returncode == 0, r.stderr.strip()[-400:])
    for i, (g, w) in enumerate(zip(gl, wl)):
        check(f"{name}: line {i + 1} as PyTorch prints it", g == w, f"attn {g!r} != torch {w!r}")
    check(f"{name}: as many lines as PyTorch", len(gl) == len(wl), f"{len(gl)} != {len(wl)}")

# LayerNorm against a float64 reference computed here from the same float32 inputs (NumPy: mean, biased variance,
# (x - mean) / sqrt(var + eps) * weight + bias): every width from 1 to 300 and wider ones up to 1100 (odd, 512,
# 1024 ...), inputs with large means (where float32 moments lose bits), with and without weight and bias; attn's
# float32 and float64 outputs, and PyTorch's, each within
#     |y - ref| <= LN_C * eps * ((|mean|/std + 1) * (1 + |z|) * |weight| + |bias|)       (z the normalised element)
# with eps that of the output's dtype and std = sqrt(var + eps_ln). Why this form: the input is exact, so what is
# lost is in the moments. A mean summed in float32 is off by about eps * (|mean| + std) (mean|x| <= |mean| + std),
# which moves z by eps * (|mean|/std + 1); the deviations from that mean carry the same error into the variance,
# so std moves by the same relative amount and z by |z| times it; weight scales it, and the last multiply-add
# rounds once more (eps * (|z weight| + |bias|)). A stable algorithm (Welford's moments, PyTorch's, or two passes)
# loses that much, linear in |mean|/std; the textbook E[x^2] - E[x]^2 loses (|mean|/std)^2 and fails this bound
# from |mean|/std of about 100 (in NumPy float32: 4.7 at 10, 16 at 100, 584 at 1000; the inputs here go to 1e6).
# LN_C = 16: the moments are sums of up to 1100 terms, in 8 lanes (PyTorch) and blocks, whose rounding errors
# grow like the square root of the steps in a lane (about 12 for 1100 / 8), not like N; measured worst, printed
# below: 1.44 for PyTorch 1.13 (AVX2) and for attn with AVX-512, AVX2, scalar and -DATTN_NO_SIMD.
LN_C = 16
LN_WIDTHS = list(range(1, 301)) + [383, 384, 511, 512, 513, 640, 700, 777, 1000, 1023, 1024, 1025, 1100]


def ln_reference(X, g, b, eps):
    """LayerNorm of the rows of X in float64 (g, b None: no affine), the normalised z, and the bound's scale."""
    X = X.astype(np.float64)
    mean = X.mean(axis=-1, keepdims=True)
    std = np.sqrt(((X - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
    z = (X - mean) / std
    g64 = np.ones(X.shape[-1]) if g is None else g.astype(np.float64)
    b64 = np.zeros(X.shape[-1]) if b is None else b.astype(np.float64)
    scale = (np.abs(mean) / std + 1) * (1 + np.abs(z)) * np.abs(g64) + np.abs(b64)
    return z * g64 + b64, scale


def ln_ratio(got, ref, scale):
    """The largest |got - ref| as a fraction of eps * scale, eps the float epsilon of got's dtype (inf: other dtype,
    NaN or a shape that differs)."""
    got = np.asarray(got)
    if got.shape != ref.shape or got.dtype not in (np.float32, np.float64) or np.isnan(got).any():
        return float("inf")
    return float((np.abs(got.astype(np.float64) - ref) / (np.finfo(got.dtype).eps * scale)).max())


with tempfile.TemporaryDirectory() as d:
    rng = np.random.default_rng(11)
    cases, torch_out = {}, {}
    for N in LN_WIDTHS:
        X = (rng.standard_normal((4, N)) * rng.uniform(0.1, 10) + rng.choice([0.0, rng.uniform(-1e5, 1e5), rng.uniform(-10, 10)])).astype(np.float32)
        g, b = rng.standard_normal(N).astype(np.float32), rng.standard_normal(N).astype(np.float32)
        for name, a in (("x", X), ("g", g), ("b", b)):
            np.save(os.path.join(d, f"{name}{N}.npy"), a)
        cases[N] = (ln_reference(X, g, b, 1e-5), ln_reference(X, None, None, 1e-3), ln_reference(X, None, None, 1e-3))
        ln, plain = nn.LayerNorm(N), nn.LayerNorm(N, eps=1e-3, elementwise_affine=False)
        with torch.no_grad():
            ln.weight.copy_(torch.from_numpy(g))
            ln.bias.copy_(torch.from_numpy(b))
            torch_out[N] = (ln(torch.from_numpy(X)).numpy(), plain(torch.from_numpy(X)).numpy(), plain(torch.from_numpy(X).double()).numpy())
    prog = ("for N in %r:\n    X = load(f'x{N}.npy')\n    ln, plain = nn.LayerNorm(N), nn.LayerNorm(N, eps=1e-3, elementwise_affine=False)\n"
            "    with torch.no_grad():\n        _ = ln.weight.copy_(load(f'g{N}.npy'))\n        _ = ln.bias.copy_(load(f'b{N}.npy'))\n"
            "    save(f'y{N}.npy', ln(X))\n    save(f'p{N}.npy', plain(X))\n    save(f'q{N}.npy', plain(X.double()))\n") % LN_WIDTHS
    r = subprocess.run([ATTN, "-c", prog], cwd=d, capture_output=True, text=True, timeout=300)
    check("attn runs LayerNorm over every width", r.returncode == 0, r.stderr[-400:])
    worst = {}                                   # (who, output) -> (ratio, N)
    differ = total = 0
    for N in LN_WIDTHS:
        if r.returncode:
            break
        for k, (c, (ref, scale)) in enumerate(zip("ypq", cases[N])):
            got, want = np.load(os.path.join(d, f"{c}{N}.npy")), torch_out[N][k]
            for who, out in (("attn", got), ("PyTorch", want)):
                ratio = ln_ratio(out, ref, scale)
                if ratio > worst.get((who, c), (-1.0, 0))[0]:
                    worst[(who, c)] = (ratio, N)
            differ, total = differ + int((got != want).sum()), total + got.size
    names = {"y": "float32 with weight and bias", "p": "float32 without", "q": "float64 without"}
    for who in ("attn", "PyTorch"):
        for c in "ypq":
            ratio, N = worst.get((who, c), (float("inf"), 0))
            print(f"LayerNorm {names[c]}, {who}: worst {ratio:.3g} x eps x scale (width {N}), allowed {LN_C}")
            check(f"LayerNorm {names[c]}: {who} within {LN_C} eps of the float64 reference, scaled by the row's "
                  f"conditioning, at every width", r.returncode == 0 and ratio <= LN_C, f"{ratio:.3g} at width {N}")
    print(f"LayerNorm: {differ} of {total} elements differ from PyTorch's bits (not a check: another kernel may round otherwise)")

# mistakes: the message says what and where, as PyTorch's
for code, want in [
    ("nn.Sequential(3)", "int is not a Module subclass"),
    ("nn.ModuleList([nn.ReLU()])(torch.ones(2))", 'Module [ModuleList] is missing the required "forward" function'),
    ("nn.Sequential(nn.Linear(4, 8), nn.Linear(4, 8))(torch.ones(2, 4))", "mat1 and mat2 shapes cannot be multiplied (2x8 and 4x8)"),
    ("nn.ReLU()(torch.ones(2), torch.ones(2))", "takes"),
    ("nn.GELU(approximate='fast')", "approximate argument must be either none or tanh"),
    ("nn.Softmax(dim='x')", "must be int or None"),
    ("nn.Embedding(10, 4)(torch.tensor([1.0]))", "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor"),
    ("nn.Embedding(10, 4)(torch.tensor([10]))", "index out of range in self"),
    ("nn.Embedding(10, 4, padding_idx=10)", "Padding_idx must be within num_embeddings"),
    ("nn.Embedding(10, 4, padding_idx=-11)", "Padding_idx must be within num_embeddings"),
    ("nn.LayerNorm(5)(torch.ones(2, 3, 4))", "Given normalized_shape=[5], expected input with shape [*, 5], but got input of size[2, 3, 4]"),
    ("nn.LayerNorm(4)(torch.ones(2, 4, dtype=torch.int64))", "float"),
    ("nn.LayerNorm(4)(torch.ones(2, 4, dtype=torch.float64))", "expected scalar type Double but found Float"),
]:
    r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, timeout=60)
    check(f"{code} fails with {want!r}", r.returncode != 0 and want in r.stderr, r.stderr.strip()[:300])

# nn.MultiheadAttention: attn's weights and inputs into PyTorch's module; outputs and weights compared (float32
# sums in another order: 1e-5), reprs and parameter names exactly. Masks bool and float, 2-D and 3-D, batch_first,
# unbatched, bias=False, per-head weights, need_weights=False.
MHA_BUILD = """m1 = nn.MultiheadAttention(8, 2)
m2 = nn.MultiheadAttention(8, 4, batch_first=True)
m3 = nn.MultiheadAttention(6, 3, bias=False)
"""
MHA_CASES = {
    "c1": ("m1", "X1, X1, X1", {}),
    "c2": ("m2", "Q2, K2, K2", {"key_padding_mask": "kpm2", "attn_mask": "am2", "average_attn_weights": "False"}),
    "c3": ("m2", "Q2, K2, V2", {"attn_mask": "fm3"}),
    "c4": ("m1", "U4, U4, U4", {"key_padding_mask": "kpm4"}),
    "c5": ("m3", "X5, X5, X5", {"attn_mask": "am5"}),
    "c6": ("m1", "X1, X1, X1", {"need_weights": "False"}),
    "c7": ("m2", "Q2, K2, K2", {"key_padding_mask": "fk7"}),
}
MHA_INPUTS = """X1 = torch.randn(5, 3, 8)
Q2 = torch.randn(3, 4, 8)
K2 = torch.randn(3, 6, 8)
V2 = torch.randn(3, 6, 8)
kpm2 = torch.tensor([[False] * 6, [False] * 4 + [True] * 2, [False] + [True] * 5])
am2 = torch.triu(torch.ones(4, 6), diagonal=3) > 0
fm3 = torch.randn(12, 4, 6)
U4 = torch.randn(5, 8)
kpm4 = torch.tensor([False, False, True, False, True])
X5 = torch.randn(4, 2, 6)
am5 = torch.zeros(4, 4).masked_fill(torch.triu(torch.ones(4, 4), diagonal=1) > 0, float('-inf'))
fk7 = torch.randn(3, 6)
"""
TENSORS = ["X1", "Q2", "K2", "V2", "kpm2", "am2", "fm3", "U4", "kpm4", "X5", "am5", "fk7"]
MHA_PRINT = ["m1", "m2", "m3", "[(k, tuple(p.shape)) for k, p in m1.named_parameters()]", "list(m3.state_dict())",
             "m2.batch_first, m2.head_dim, m2.num_heads, m2.embed_dim", "type(m1)", "m1.out_proj"]
with tempfile.TemporaryDirectory() as d:
    prog = MHA_BUILD + MHA_INPUTS + "_ = m1.eval()\n_ = m2.eval()\n_ = m3.eval()\n"
    for t in TENSORS:
        prog += f"save('{t}.npy', {t})\n"
    for name in ("m1", "m2", "m3"):
        prog += f"for k, v in {name}.state_dict().items():\n    save('{name}.' + k + '.npy', v)\n"
    for c, (m, args, kw) in MHA_CASES.items():
        kws = "".join(f", {k}={v}" for k, v in kw.items())
        prog += f"o, w = {m}({args}{kws})\nsave('{c}_o.npy', o)\n"
        prog += f"print('{c}', tuple(o.shape), None if w is None else tuple(w.shape))\n"
        prog += f"if w is not None: save('{c}_w.npy', w)\n"
    prog += "".join(f"print(repr(({e})))\n" for e in MHA_PRINT)
    r = subprocess.run([ATTN, "-c", prog], cwd=d, capture_output=True, text=True, timeout=120)
    check("attn runs nn.MultiheadAttention", r.returncode == 0, r.stderr[-800:])
    lines = r.stdout.split("\n")
    ld = lambda n: torch.from_numpy(np.load(os.path.join(d, n + ".npy")))
    mods = {"m1": nn.MultiheadAttention(8, 2), "m2": nn.MultiheadAttention(8, 4, batch_first=True),
            "m3": nn.MultiheadAttention(6, 3, bias=False)}
    for name, mod in mods.items():
        mod.load_state_dict({k: ld(name + "." + k) for k in mod.state_dict()})
        mod.eval()
    env = {t: ld(t) for t in TENSORS}
    env.update(mods)
    env["torch"] = torch
    want_lines = []
    with torch.no_grad():
        for c, (m, args, kw) in MHA_CASES.items():
            kws = "".join(f", {k}={v}" for k, v in kw.items())
            o, w = eval(f"{m}({args}{kws})", env)
            want_lines.append(f"{c} {tuple(o.shape)} {None if w is None else tuple(w.shape)}")
            if r.returncode == 0:
                close(f"{c}: the output as PyTorch's", ld(c + "_o").numpy(), o.numpy(), 1e-5)
                if w is not None:
                    close(f"{c}: the attention weights as PyTorch's", ld(c + "_w").numpy(), w.numpy(), 1e-5)
        for e in MHA_PRINT:
            want_lines.append(repr(eval(e, dict(env, nn=nn))))
    want_lines = "\n".join(want_lines).split("\n")
    for i, w in enumerate(want_lines):
        g = lines[i] if i < len(lines) else None
        check(f"MultiheadAttention line {i + 1} as PyTorch prints it", g == w, f"attn {g!r} != torch {w!r}")

# mistakes: the message says what and where, as PyTorch's
for code, want in [
    ("nn.MultiheadAttention(8, 3)", "embed_dim must be divisible by num_heads"),
    ("m = nn.MultiheadAttention(8, 2)\nm(torch.ones(5, 3, 6), torch.ones(5, 3, 6), torch.ones(5, 3, 6))", "was expecting embedding dimension of 8, but got 6"),
    ("m = nn.MultiheadAttention(8, 2)\nX = torch.ones(5, 3, 8)\nm(X, X, X, attn_mask=torch.ones(4, 5) > 0)", "The shape of the 2D attn_mask is torch.Size([4, 5]), but should be (5, 5)."),
    ("m = nn.MultiheadAttention(8, 2)\nX = torch.ones(5, 3, 8)\nm(X, X, X, key_padding_mask=torch.ones(5, 3) > 0)", "expecting key_padding_mask shape of (3, 5), but got torch.Size([5, 3])"),
    ("m = nn.MultiheadAttention(8, 2)\nm(torch.ones(5, 3, 8), torch.ones(5, 8), torch.ones(5, 8))", "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found 2-D and 2-D tensors respectively"),
    ("m = nn.MultiheadAttention(8, 2)\nm(torch.ones(2, 5, 3, 8), torch.ones(5, 8), torch.ones(5, 8))", "query should be unbatched 2D or batched 3D tensor but received 4-D query tensor"),
    ("m = nn.MultiheadAttention(8, 2)\nX = torch.ones(5, 3, 8)\nm(X, X, X.double())", "float32"),
    ("m = nn.MultiheadAttention(8, 2)\nX = torch.ones(5, 3, 8)\nm(X, X, X, attn_mask=torch.ones(5, 5, dtype=torch.int64))", "only bool and floating types of attn_mask are supported"),
]:
    r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, timeout=60)
    check(f"{code!r} fails with {want!r}", r.returncode != 0 and want in r.stderr, r.stderr.strip()[:300])
finish()

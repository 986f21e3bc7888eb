#!/usr/bin/python3
"""attn's vectorised, fused and threaded kernels against PyTorch, element by element.

attn computes and saves .npy files; PyTorch recomputes the same thing from the same inputs (and attn's weights).
Where PyTorch and attn provably run the same kernels, the bits must be equal: the same vector level (SLEEF's u10
functions and softmax in PyTorch's 8-lane order: attn's AVX2 or AVX-512 against PyTorch's AVX2 capability, attn's
scalar C-library loop against PyTorch's DEFAULT one) for the elementwise functions, softmax and sums, and the same
OpenBLAS core for the products. Elsewhere (another OpenBLAS core, a vector level PyTorch does not share) each check
allows a stated tolerance, TOL_ULPS float32 steps or TOL_ABS absolute, and prints its worst case. attn's fixed-order
double-accumulator loop for products below 64^3 multiply-adds (where PyTorch's bmm adds in float) is always
compared within a few rounding steps. Then every result again with ATTN_THREADS=1, 2 and 3: identical bytes on every
machine (that is a property of attn, not of the machine).
Prints 'N passed, N failed'.

usage: torch_kernels.py ATTN_BINARY
"""
import ctypes, os, platform, re, sys, tempfile
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, attn, check, finish  # noqa: E402

# Off the matching kernels: the worst cases measured between PyTorch and attn on other kernels (issue 25: Haswell
# and Prescott cores, AVX2 without AVX-512, arm64) were 5 ulp on the weights and 1e-6 absolute near 0.
TOL_ULPS, TOL_ABS = 5, 1e-6

# attn's kernels, as attn.show_config() names them. PyTorch is started with the same ones where it can be:
# OpenBLAS reads OPENBLAS_CORETYPE and PyTorch ATEN_CPU_CAPABILITY when they load, and NumPy has loaded OpenBLAS
# already: start again with them set.
config = attn("print(attn.show_config())", ".")
core = [l.split(",")[-2].split()[0] for l in config.splitlines() if "BLAS:" in l and "kernels" in l]
vec = re.search(r"vector math: (.*?) \(1", config)
vec = vec.group(1) if vec else "?"
# PyTorch's capability that computes what attn's vector level computes (8 lanes: AVX-512's 16 reorder softmax);
# PyTorch's DEFAULT is the C library's functions only on x86-64 (on arm64 it is SLEEF's NEON). A capability set
# by whoever runs this is kept (ATEN_CPU_CAPABILITY=avx2 with ATTN_SIMD=scalar tries the tolerances).
capability = {"SLEEF AVX-512": "avx2", "SLEEF AVX2": "avx2"}.get(vec)
# attn's own machine, from its ELF header (an arm64 attn under qemu-user runs beside an x86-64 PyTorch here)
with open(ATTN, "rb") as f:
    attn_x86 = f.read(20)[18:20] == b"\x3e\x00"
if vec == "C library (scalar)" and platform.machine() == "x86_64" and attn_x86:
    capability = "default"
want_env = {"OPENBLAS_CORETYPE": core[0] if core else None,
            "ATEN_CPU_CAPABILITY": os.environ.get("ATEN_CPU_CAPABILITY") or capability}
if any(v and os.environ.get(k) != v for k, v in want_env.items()) and not os.environ.get("TORCH_KERNELS_REEXEC"):
    os.environ.update({k: v for k, v in want_env.items() if v}, TORCH_KERNELS_REEXEC="1")
    os.execv(sys.executable, [sys.executable] + sys.argv)
try:
    import warnings
    warnings.filterwarnings("ignore")
    import torch
    import d2l_book as d2l
except ImportError:
    print("python3-torch not installed")
    sys.exit(0)
torch.set_num_threads(2)


def torch_blas_core():
    """The kernels of the OpenBLAS that this process (PyTorch) has loaded, or None for another BLAS."""
    torch.ones(200, 200) @ torch.ones(200, 200)              # loads the BLAS if PyTorch loads it lazily
    for path in sorted({l.split()[-1] for l in open("/proc/self/maps") if "openblas" in l.lower() and ".so" in l}):
        try:
            f = ctypes.CDLL(path).openblas_get_corename
            f.restype = ctypes.c_char_p
            return f().decode()
        except (OSError, AttributeError):
            continue
    return None


def torch_capability():
    """PyTorch's CPU capability as ATEN_CPU_CAPABILITY names it (its DEFAULT shows as 'NO AVX')."""
    m = re.search(r"CPU capability usage: ([\w ]+)", torch.__config__.show())
    cap = m.group(1).strip().lower() if m else "?"
    return "default" if cap == "no avx" else cap


torch_core, torch_cap = torch_blas_core(), torch_capability()
SAME_VEC = capability is not None and torch_cap == capability       # elementwise functions, softmax, sums
# the products: the same core, and one whose bits do not depend on how many rows a call gets (attn splits a
# product over its threads by rows, OpenBLAS over its own; tensor_matmul.c: SkylakeX's hold, Haswell's do not)
SPLIT_INVARIANT = {"SkylakeX"}
# and attn's products are OpenBLAS's or its own kernel with their bits, not the fixed-order loop (ATTN_GEMM=loop)
SAME_BLAS = bool(core) and torch_core == core[0] and core[0] in SPLIT_INVARIANT and "loop" not in \
    (re.search(r"matrix products: (.*)", config) or re.search("", "")).group(0)
print(f"attn: {vec}, OpenBLAS {core[0] if core else '?'} kernels; PyTorch: capability {torch_cap}, "
      f"OpenBLAS {torch_core} kernels: {'bits' if SAME_VEC else 'tolerance'} for the vector math, "
      f"{'bits' if SAME_BLAS else 'tolerance'} for the products")


def ulps(a, b):
    """Distance in float32 steps between a and b, elementwise."""
    ia = np.asarray(a, dtype=np.float32).view(np.int32).astype(np.int64)
    ib = np.asarray(b, dtype=np.float32).view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return np.abs(ia - ib)


def same_bits(name, got, want):
    """Equal float32 bits everywhere (any NaN equals any NaN)."""
    got, want = np.asarray(got, dtype=np.float32), np.asarray(want, dtype=np.float32)
    if got.shape != want.shape:
        return check(name, False, f"shape {got.shape} != {want.shape}")
    bad = (got != want) & ~(np.isnan(got) & np.isnan(want))
    n = int(bad.sum())
    detail = ""
    if n:
        i = np.argwhere(bad)[0]
        detail = f"{n} of {got.size} differ, first at {tuple(int(x) for x in i)}: attn {got[tuple(i)]!r}, PyTorch {want[tuple(i)]!r}"
    check(name, n == 0, detail)


def near(name, got, want, max_ulps, abs_floor=1e-6, show=False):
    """Within max_ulps float32 steps, or within abs_floor where the values are near 0 (cancellation); NaN where the
    other is NaN, infinities equal. With show, the worst case is printed whether or not it passes."""
    got, want = np.asarray(got, dtype=np.float32), np.asarray(want, dtype=np.float32)
    if got.shape != want.shape:
        return check(name, False, f"shape {got.shape} != {want.shape}")
    nan = np.isnan(got) | np.isnan(want)
    u = np.where(nan, 0, ulps(got, want))
    with np.errstate(invalid="ignore"):
        gap = np.where(nan | (got == want), 0.0, np.abs(got.astype(np.float64) - want))
    bad = ((u > max_ulps) & (gap > abs_floor)) | (np.isnan(got) != np.isnan(want))
    n = int(bad.sum())
    worst = f"worst {int(u.max()) if u.size else 0} ulp, {float(gap.max()) if gap.size else 0.0:.3g} absolute"
    if show:
        print(f"  {name}: {worst} (allowed {max_ulps} ulp or {abs_floor:g})")
    check(name, n == 0, f"{n} of {got.size} differ by more than {max_ulps} ulps and {abs_floor:g} ({worst})")


def agree(name, got, want, exact):
    """Same bits where both run the same kernels (exact), else within TOL_ULPS or TOL_ABS, the worst case printed."""
    if exact:
        same_bits(name, got, want)
    else:
        near(name + f" (within {TOL_ULPS} ulp)", got, want, TOL_ULPS, TOL_ABS, show=True)


def vec_bits(name, got, want):
    agree(name, got, want, SAME_VEC)


def T(a):
    return torch.from_numpy(np.ascontiguousarray(a))


with tempfile.TemporaryDirectory() as d:
    L = lambda f: np.load(os.path.join(d, f))
    rng = np.random.default_rng(14)
    # inputs: ordinary values, wide values (sin/cos of large arguments take SLEEF's long path), and the edges
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 88.72, 88.73, -103.9, -87.3, 1e30, -1e30,
                        3.4e38, 1e5, 125.0, 39000.0, 1.5707964, 3.1415927], dtype=np.float32)
    x = np.concatenate([rng.standard_normal(5000) * 4, rng.uniform(-1e5, 1e5, 3000), special]).astype(np.float32)
    xpos = np.abs(x)
    np.save(os.path.join(d, "x.npy"), x)
    np.save(os.path.join(d, "xpos.npy"), xpos)
    S = (rng.standard_normal((3, 37, 1031)) * 6).astype(np.float32)
    np.save(os.path.join(d, "S.npy"), S)
    Bn = rng.standard_normal((40, 50, 61)).astype(np.float32)       # 122000 elements: threaded loops
    cn = rng.standard_normal((50, 61)).astype(np.float32)
    np.save(os.path.join(d, "B.npy"), Bn)
    np.save(os.path.join(d, "c.npy"), cn)

    # the same program on 1, 2 and 3 threads: everything it saves must match byte for byte
    program = f"""
x = load("x.npy"); xp = load("xpos.npy"); S = load("S.npy")
for name, f in [("exp", torch.exp), ("sin", torch.sin), ("cos", torch.cos), ("tanh", torch.tanh), ("tan", torch.tan), ("atan", torch.atan)]:
    save(name + ".npy", f(x))
save("log.npy", torch.log(xp)); save("log2.npy", torch.log2(xp)); save("log10.npy", torch.log10(xp))
save("asin.npy", torch.asin(x / 1e5)); save("acos.npy", torch.acos(x / 1e5))
save("xT_exp.npy", torch.exp(S.transpose(1, 2)))
for n in [1, 3, 7, 8, 9, 16, 17, 100, 1031]:
    save(f"softmax{{n}}.npy", torch.softmax(S[:, :, :n], dim=-1))
save("msm1.npy", d2l.masked_softmax(S[:, :5, :4], torch.tensor([2, 3, 0])))
save("msm2.npy", d2l.masked_softmax(S[:, :5, :40], torch.tensor([[1, 2, 3, 40, 0], [9, 8, 7, 6, 5], [33, 0, 1, 2, 39]])))
P = d2l.PositionalEncoding(64, 0, max_len=3000).P; save("P.npy", P)
P = d2l.PositionalEncoding(33, 0, max_len=100).P; save("Podd.npy", P)
torch.manual_seed(7)
for tag, (b, n, h, heads, vl) in [("book", (2, 4, 100, 5, [3, 2])), ("mid", (2, 300, 128, 4, [300, 129])),
                                  ("big", (3, 200, 256, 8, None)), ("q2", (2, 70, 64, 2, [[i % 71 for i in range(70)], [70 - i for i in range(70)]]))]:
    X = torch.randn((b, n, h)); Y = torch.randn((b, n + 3, h))
    att = d2l.MultiHeadAttention(h, heads, 0.5); _ = att.eval()
    lens = torch.tensor(vl) if vl is not None else None
    out = att(X, Y, Y, lens)
    save(tag + "_X.npy", X); save(tag + "_Y.npy", Y); save(tag + "_out.npy", out)
    save(tag + "_w.npy", att.attention.attention_weights)
    save(tag + "_Wq.npy", att.W_q.weight); save(tag + "_Wk.npy", att.W_k.weight); save(tag + "_Wv.npy", att.W_v.weight); save(tag + "_Wo.npy", att.W_o.weight)
for dm in (0, 1, 2):
    save(f"softmax_dim{{dm}}.npy", torch.softmax(S[:, :, :37], dim=dm))
save("softmax_dim1_wide.npy", torch.softmax(S[:, :, :64], dim=1))
B = load("B.npy"); c = load("c.npy")
save("bin_add.npy", B + c); save("bin_mul.npy", B * c[:, :1]); save("bin_div.npy", B / 3); save("bin_sub.npy", 1 - B)
save("bin_max.npy", torch.maximum(B, c)); save("bin_gt.npy", B > c); save("bin_where.npy", torch.where(B > 0, B, c * 2))
save("clamp.npy", B.clamp(-0.5, 0.7)); save("sigmoid.npy", torch.sigmoid(B[:, :, :48]))
save("red_sum1.npy", B.sum(1)); save("red_sum.npy", B.sum()); save("red_mean2.npy", B.mean(2)); save("red_max0.npy", torch.max(B, 0)[0])
save("red_sumT.npy", B.transpose(0, 2).sum(0)); save("red_sumS.npy", B[:, ::3].sum()); save("red_rows.npy", torch.softmax(S[:, :, :4], dim=-1).sum(-1))
save("red_argmax.npy", B.argmax(2)); save("red_std.npy", B.std()); save("red_bigsum.npy", torch.ones((700000,)).sum() + B.reshape(-1)[:600000].sum())
dpa = d2l.DotProductAttention(0)
q = torch.randn((4, 100, 64)); k = torch.randn((4, 130, 64)); v = torch.randn((4, 130, 48))
save("dpa_q.npy", q); save("dpa_k.npy", k); save("dpa_v.npy", v)
save("dpa_out.npy", dpa(q, k, v, torch.tensor([130, 1, 64, 100]))); save("dpa_w.npy", dpa.attention_weights)
kt = k.transpose(0, 1).contiguous().transpose(0, 1)
save("dpa_view_out.npy", dpa(q[:, ::2, :], kt, v, None))
G = torch.randn((700, 300)); save("G.npy", G)
save("red_cols.npy", G.sum(0)); save("red_cols_rows.npy", G.sum(1))
xr = torch.randn((300, 400), requires_grad=True); wr = torch.randn((300, 400)); save("xr.npy", xr); save("wr.npy", wr)
(torch.relu(xr) * wr).sum().backward(); save("relu_grad.npy", xr.grad)
xs = torch.randn((200, 3, 97), requires_grad=True); ws = torch.randn((200, 3, 97)); save("xs.npy", xs); save("ws.npy", ws)
(torch.softmax(xs, dim=-1) * ws).sum().backward(); save("softmax_grad.npy", xs.grad)
lin = nn.Linear(300, 70); yl = lin(G); (yl * yl).sum().backward(); save("lin_bgrad.npy", lin.bias.grad)
"""
    outs = {}
    for threads in (1, 2, 3):
        attn(program, d, timeout=300, env={"ATTN_THREADS": str(threads)})
        outs[threads] = {f: open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d))
                         if f.endswith(".npy") and f not in ("x.npy", "xpos.npy", "S.npy", "B.npy", "c.npy")}
    check("every result saved on 1 thread", len(outs[1]) > 40, f"{len(outs[1])} files")
    for threads in (2, 3):
        differ = [f for f in outs[1] if outs[threads].get(f) != outs[1][f]]
        check(f"ATTN_THREADS={threads} gives the same bytes as 1 thread", not differ, f"differ: {differ[:5]}")

    # elementwise: SLEEF u10, the functions PyTorch's AVX2 kernels call
    xt, xpt = T(x), T(xpos)
    for name, f in [("exp", torch.exp), ("sin", torch.sin), ("cos", torch.cos), ("tanh", torch.tanh), ("tan", torch.tan),
                    ("atan", torch.atan)]:
        vec_bits(f"torch.{name} on {x.size} floats", L(name + ".npy"), f(xt))
    for name, f in [("log", torch.log), ("log2", torch.log2), ("log10", torch.log10)]:
        vec_bits(f"torch.{name} on {x.size} floats", L(name + ".npy"), f(xpt))
    vec_bits("torch.asin", L("asin.npy"), torch.asin(xt / 1e5))
    vec_bits("torch.acos", L("acos.npy"), torch.acos(xt / 1e5))
    vec_bits("torch.exp of a transposed view", L("xT_exp.npy"), torch.exp(T(S).transpose(1, 2)))

    # softmax: PyTorch's lane order, exp and reciprocal
    for n in [1, 3, 7, 8, 9, 16, 17, 100, 1031]:
        vec_bits(f"softmax over {n} keys", L(f"softmax{n}.npy"), torch.softmax(T(S)[:, :, :n], dim=-1))
    vec_bits("masked_softmax, one length per batch row", L("msm1.npy"), d2l.masked_softmax(T(S)[:, :5, :4].clone(), torch.tensor([2, 3, 0])))
    vec_bits("masked_softmax, one length per query", L("msm2.npy"),
             d2l.masked_softmax(T(S)[:, :5, :40].clone(), torch.tensor([[1, 2, 3, 40, 0], [9, 8, 7, 6, 5], [33, 0, 1, 2, 39]])))

    for dm in (0, 1, 2):
        vec_bits(f"softmax over dim {dm} of (3, 37, 37)", L(f"softmax_dim{dm}.npy"), torch.softmax(T(S)[:, :, :37], dim=dm))
    vec_bits("softmax over dim 1 of (3, 37, 64)", L("softmax_dim1_wide.npy"), torch.softmax(T(S)[:, :, :64], dim=1))

    # elementwise with broadcasting (strided loops, no copies) and reductions
    Bt, ct = T(Bn), T(cn)
    same_bits("B + c (broadcast)", L("bin_add.npy"), Bt + ct)
    same_bits("B * c[:, :1] (a strided column)", L("bin_mul.npy"), Bt * ct[:, :1])
    same_bits("B / 3", L("bin_div.npy"), Bt / 3)
    same_bits("1 - B", L("bin_sub.npy"), 1 - Bt)
    same_bits("torch.maximum(B, c)", L("bin_max.npy"), torch.maximum(Bt, ct))
    check("B > c", (L("bin_gt.npy") == (Bt > ct).numpy()).all())
    same_bits("torch.where(B > 0, B, c * 2)", L("bin_where.npy"), torch.where(Bt > 0, Bt, ct * 2))
    same_bits("B.clamp(-0.5, 0.7)", L("clamp.npy"), Bt.clamp(-0.5, 0.7))
    vec_bits("torch.sigmoid", L("sigmoid.npy"), torch.sigmoid(Bt[:, :, :48]))
    # float32 sums and means in PyTorch's order (PyTorch on one thread: its threads reorder large sums)
    torch.set_num_threads(1)
    vec_bits("B.sum(1)", L("red_sum1.npy"), Bt.sum(1))
    vec_bits("B.sum()", L("red_sum.npy"), Bt.sum())
    vec_bits("B.mean(2)", L("red_mean2.npy"), Bt.mean(2))
    vec_bits("B.sum(0) of a transposed view", L("red_sumT.npy"), Bt.transpose(0, 2).sum(0))
    vec_bits("B[:, ::3].sum() (a strided view)", L("red_sumS.npy"), Bt[:, ::3].sum())
    vec_bits("softmax rows summed (the lessons' check)", L("red_rows.npy"), torch.softmax(T(S)[:, :, :4], dim=-1).sum(-1))
    torch.set_num_threads(2)
    same_bits("torch.max(B, 0)", L("red_max0.npy"), torch.max(Bt, 0)[0])
    check("B.argmax(2)", (L("red_argmax.npy") == Bt.argmax(2).numpy()).all())
    near("B.std()", L("red_std.npy"), Bt.double().std().float(), 1)
    torch.set_num_threads(1)
    vec_bits("a sum of 700000 ones plus one of 600000 elements", L("red_bigsum.npy"),
             torch.ones((700000,)).sum() + Bt.reshape(-1)[:600000].sum())
    # sums over rows (a bias's grad) and along rows, split over attn's threads by columns and rows
    Gt = T(L("G.npy"))
    vec_bits("G.sum(0) of (700, 300) (column blocks on the threads)", L("red_cols.npy"), Gt.sum(0))
    vec_bits("G.sum(1) of (700, 300) (rows on the threads)", L("red_cols_rows.npy"), Gt.sum(1))
    torch.set_num_threads(2)
    # relu's and softmax's backward on the threads: PyTorch's gradients on the same inputs
    xr = T(L("xr.npy")).requires_grad_()
    (torch.relu(xr) * T(L("wr.npy"))).sum().backward()
    same_bits("relu backward of (300, 400)", L("relu_grad.npy"), xr.grad)
    xs = T(L("xs.npy")).requires_grad_()
    (torch.softmax(xs, dim=-1) * T(L("ws.npy"))).sum().backward()
    near("softmax backward of (200, 3, 97)", L("softmax_grad.npy"), xs.grad, 64, 1e-6)

    # positional encoding (§11.6.3): the book's code, sin and cos of the same float32 X
    vec_bits("PositionalEncoding(64, 0, 3000).P", L("P.npy"), d2l.PositionalEncoding(64, 0, 3000).P)
    Po = L("Podd.npy")
    ref = d2l.PositionalEncoding(34, 0, 100).P[:, :, :33]      # odd d: the book fails; attn's last column is a sine
    Xo = torch.arange(100, dtype=torch.float32).reshape(-1, 1) / torch.pow(10000, torch.arange(0, 33, 2, dtype=torch.float32) / 33)
    vec_bits("PositionalEncoding(33, 0, 100): sines", Po[0, :, 0::2], torch.sin(Xo))
    vec_bits("PositionalEncoding(33, 0, 100): cosines", Po[0, :, 1::2], torch.cos(Xo[:, :16]))

    # multi-head attention (§11.5) with attn's weights: the book's module in PyTorch
    with torch.no_grad():
        for tag, (b, n, h, heads, vl) in [("book", (2, 4, 100, 5, [3, 2])), ("mid", (2, 300, 128, 4, [300, 129])),
                                          ("big", (3, 200, 256, 8, None)),
                                          ("q2", (2, 70, 64, 2, [[i % 71 for i in range(70)], [70 - i for i in range(70)]]))]:
            m = d2l.MultiHeadAttention(h, heads, 0.5)
            m.eval()
            X, Y = T(L(tag + "_X.npy")), T(L(tag + "_Y.npy"))
            lens = torch.tensor(vl) if vl is not None else None
            m(X, Y, Y, lens)
            for nm in "qkvo":
                getattr(m, "W_" + nm).weight.copy_(T(L(f"{tag}_W{nm}.npy")))
            out = m(X, Y, Y, lens)
            if tag in ("book", "q2"):
                # products below 64^3 multiply-adds per head: attn adds in double, PyTorch's bmm in float or in
                # OpenBLAS: a few rounding steps apart
                near(f"MHA {tag}: attention_weights", L(tag + "_w.npy"), m.attention.attention_weights, 4)
                near(f"MHA {tag}: output", L(tag + "_out.npy"), out, 64, 1e-6)
            else:
                agree(f"MHA {tag} {(b, n, h, heads)}: attention_weights", L(tag + "_w.npy"), m.attention.attention_weights, SAME_VEC and SAME_BLAS)
                agree(f"MHA {tag} {(b, n, h, heads)}: output", L(tag + "_out.npy"), out, SAME_VEC and SAME_BLAS)
        dpa = d2l.DotProductAttention(0)
        dpa.eval()
        q, k, v = T(L("dpa_q.npy")), T(L("dpa_k.npy")), T(L("dpa_v.npy"))
        agree("DotProductAttention (4, 100/130, 64/48): output", L("dpa_out.npy"), dpa(q, k, v, torch.tensor([130, 1, 64, 100])), SAME_VEC and SAME_BLAS)
        agree("DotProductAttention: attention_weights", L("dpa_w.npy"), dpa.attention_weights, SAME_VEC and SAME_BLAS)
        agree("DotProductAttention on strided views", L("dpa_view_out.npy"), dpa(q[:, ::2, :], k, v, None), SAME_VEC and SAME_BLAS)

    # what a student sees: float32 sums and means of millions of elements print PyTorch's digits, .item() to the
    # last bit. PyTorch on one thread: on more, its parallel_reduce splits a large sum into one cascade per thread
    # and the last digits follow the thread count (2 threads here: (y * 1000).sum() prints 1975604.7500, one thread
    # 1975603.8750); attn gives the one-thread digits on any number of threads.
    prints = """x = torch.arange(0, 3000000, dtype=torch.float32) * 0.001
y = torch.sin(x)
z = y.reshape(3000, 1000)
for r in [x.sum(), x.mean(), (y * 1000).sum(), z.sum(0)[:4], z.mean(1)[:4], z.t().sum(1)[:3], x.reshape(1000, 3000).sum(1)[-2:]]:
    print(r)
for v in [x.sum().item(), x.mean().item(), y.sum().item(), y.mean().item(), z.sum(0).sum().item(), torch.ones(16777217).sum().item(), torch.ones(20000001).mean().item()]:
    print(v)
"""
    import contextlib, io
    torch.set_num_threads(1)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(prints, {"torch": torch})
    want = buf.getvalue()
    for threads in (1, 2):
        got = attn(prints, d, timeout=120, env={"ATTN_THREADS": str(threads)})
        what = f"sums and means of 3 million float32 (attn on {threads} thread{'s' if threads > 1 else ''})"
        if SAME_VEC:
            diff = [f"attn {a!r}, PyTorch {b!r}" for a, b in zip(got.splitlines(), want.splitlines()) if a != b]
            check(what + " print PyTorch's digits", got == want and len(want.splitlines()) == 14,
                  diff[:2] or f"{len(got.splitlines())} lines")
        else:
            # other lanes or another sin: the same numbers within 1e-5 relative (a float32 sum of n terms in
            # another order is within log2(n) * eps * sum|x| of it; these sums are of one sign or nearly so)
            num = lambda t: [float(v) for v in re.findall(r"-?\d+\.\d*(?:e[-+]\d+)?", t)]
            g, w = num(got), num(want)
            rel = max((abs(a - b) / max(abs(b), 1e-30) for a, b in zip(g, w)), default=0.0)
            print(f"  {what}: worst relative difference {rel:.3g} (allowed 1e-5)")
            check(what + " print PyTorch's numbers within 1e-5 relative", len(g) == len(w) > 14 and rel <= 1e-5,
                  f"{len(g)} numbers against {len(w)}, worst relative {rel:.3g}")
    torch.set_num_threads(2)
finish()

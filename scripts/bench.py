#!/usr/bin/python3
"""The benchmark tables of `make bench`. attn, NumPy and PyTorch do the same work in the same run with the same
number of threads, once on 1 thread and once on every core (THREADS). Each figure is a median of several runs;
ratios are attn's time over the peer's (below 1: attn is faster). The aims of issue 14 come last, as ratios and as
fractions of the machine's measured peaks, and measured again in paired rounds (attn right after PyTorch, several
times), which a busy host disturbs less. Writes the tables to stdout and to build/benchmarks.md.

usage: bench.py THREADS [--quick] [--training]   (--quick: fewer repeats, for trying the script itself;
       --training: the training rows of issue 24 alone)"""
import ctypes, os, platform, statistics, subprocess, sys, time

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else os.cpu_count()
QUICK = "--quick" in sys.argv
TRAINING_ONLY = "--training" in sys.argv
ATTN = os.path.abspath("./attn")
REPS = 3 if QUICK else 5
COUNTS = [1] if THREADS == 1 else [1, THREADS]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ref"))

try:
    import numpy as np
except ImportError:
    np = None
try:
    import warnings
    warnings.filterwarnings("ignore")          # the book's LazyLinear warns that lazy modules are new
    import torch
    import d2l_book
except ImportError:
    torch = None

OUT = open("build/benchmarks.md", "w") if os.path.isdir("build") else None


def out(s=""):
    print(s, flush=True)
    if OUT:
        OUT.write(s + "\n")


def set_peer_threads(n):
    """NumPy and PyTorch on n threads: PyTorch's own pool, and every OpenBLAS loaded in this process (Debian's NumPy
    and PyTorch load two copies, libblas.so.3 and libopenblas, each with its own thread pool)."""
    if torch:
        torch.set_num_threads(n)
    for path in sorted({l.split()[-1] for l in open("/proc/self/maps") if "blas" in l or "lapack" in l}):
        lib = ctypes.CDLL(path)
        if hasattr(lib, "openblas_set_num_threads"):
            lib.openblas_set_num_threads(n)


def median_time(fn, reps=REPS, min_time=0.02):
    """Median over reps of the mean time of fn, each rep repeating fn for at least min_time seconds."""
    fn()                # warm: first-touch allocations, lazy initialisation
    res = []
    for _ in range(reps):
        n, t0 = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            t = time.perf_counter() - t0
            if t >= min_time:
                break
        res.append(t / n)
    return statistics.median(res)


def attn_env(threads):
    return dict(os.environ, ATTN_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))


def attn_time(setup, stmt, threads):
    code = f"{setup}\nprint(timeit({stmt!r}, repeat={REPS}))"
    time.sleep(0.2)     # let the previous peer's threads go idle
    r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, env=attn_env(threads), timeout=900)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    return float(r.stdout.strip().split("\n")[-1])


def process_time(cmd, reps=21, env=None):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, **(env or {})))
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def fmt(x, unit):
    if x is None:
        return "-"
    if unit == "GFLOP/s":
        return f"{x / 1e9:.1f} GFLOP/s"
    if unit == "GB/s":
        return f"{x / 1e9:.1f} GB/s"
    if x < 1e-4:
        return f"{x * 1e6:.2f} µs"      # a statement's fixed cost: 0.000 ms would say nothing
    return f"{x * 1e3:.3f} ms" if x < 1 else f"{x:.3f} s"


def ratio(a, p, unit):
    """attn time / peer time; for speeds (GFLOP/s, GB/s) the peer's speed over attn's, which is the same thing."""
    if not a or not p:
        return None
    return a / p if unit == "s" else p / a


def row(name, a, n=None, t=None, unit="s"):
    rn, rt = ratio(a, n, unit), ratio(a, t, unit)
    out(f"| {name} | {fmt(a, unit)} | {fmt(n, unit)} | {fmt(t, unit)} | {'-' if rn is None else f'{rn:.2f}'} | "
        f"{'-' if rt is None else f'{rt:.2f}'} |")


def table_head():
    out("| measurement | attn | NumPy | PyTorch | attn/NumPy | attn/PyTorch |")
    out("|---|---|---|---|---|---|")


# ---- the peers' code: NumPy's direct equivalents of the book's code ----

def np_pe(max_len, d):
    P = np.zeros((1, max_len, d), dtype=np.float32)
    X = np.arange(max_len, dtype=np.float32).reshape(-1, 1) / np.power(np.float32(10000), np.arange(0, d, 2, dtype=np.float32) / np.float32(d))
    P[:, :, 0::2] = np.sin(X)
    P[:, :, 1::2] = np.cos(X)


def np_softmax(X):
    e = np.exp(X - X.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_masked_softmax(X, valid_lens):
    mask = np.arange(X.shape[-1])[None, None, :] < valid_lens.reshape(X.shape[0], -1, 1)
    return np_softmax(np.where(mask, X, np.float32(-1e6)))


def np_mha(X, W, heads, valid_lens):
    B, T, H = X.shape
    def split(Y):
        return Y.reshape(B, T, heads, H // heads).transpose(0, 2, 1, 3).reshape(B * heads, T, H // heads)
    q, k, v = (split(X @ W[i].T) for i in range(3))
    s = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(H // heads))
    w = np_masked_softmax(s, np.repeat(valid_lens, heads)) if valid_lens is not None else np_softmax(s)
    o = (w @ v).reshape(B, heads, T, H // heads).transpose(0, 2, 1, 3).reshape(B, T, H)
    return o @ W[3].T


def torch_nn_mha(book):
    """torch.nn.MultiheadAttention (batch_first) with the book module's weights. Its biases are zero, not absent:
    PyTorch 1.13's fast path (_native_multi_head_attention, taken in eval mode under no_grad with
    need_weights=False) needs bias tensors, and zero biases compute the book's bias-free layers."""
    h = book.W_q.weight.shape[0]
    m = torch.nn.MultiheadAttention(h, book.num_heads, bias=True, batch_first=True)
    m.eval()
    with torch.no_grad():
        m.in_proj_weight.copy_(torch.cat([book.W_q.weight, book.W_k.weight, book.W_v.weight]))
        m.in_proj_bias.zero_()
        m.out_proj.weight.copy_(book.W_o.weight)
        m.out_proj.bias.zero_()
    return m


MHA_SIZES = [("book size (2, 4, 100), 5 heads", (2, 4, 100, 5), [3, 2]),
             ("batch 8, n 1024, d 512, 8 heads", (8, 1024, 512, 8), None)]
BIG = (8, 1024, 512, 8)
MHA_FLOPS = 2.0 * 8 * 1024 * 512 * 512 * 4 + 2 * 2.0 * 8 * 8 * 1024 * 1024 * 64     # 4 projections + 2 products
EXP_N = 1 << 26                          # 64M floats (256 MiB)
SOFTMAX_SHAPE = (64 * 1024, 1024)        # the big MHA's scores: 64 (batch x heads) x 1024 queries, 1024 keys


ROUNDS = 3 if QUICK else 5


def paired_rounds(T):
    """The aims measured again in ROUNDS rounds, each of them attn (one process, every item) right after PyTorch
    (every item). A host whose other load comes and goes slows both sides of a round alike, so a round's ratio is
    steadier than the ratio of two medians taken minutes apart. Returns {item: [(attn, PyTorch) per round]} in
    seconds; the items: exp, softmax, pe100000, the big MHA (PyTorch: nn.MultiheadAttention) and mm1024 (the
    product the MHA's fraction is taken of)."""
    b, n_, h, heads = BIG
    r_, c_ = SOFTMAX_SHAPE
    Xt = torch.randn(b, n_, h)
    m = d2l_book.MultiHeadAttention(h, heads, 0)
    m.eval()
    with torch.no_grad():
        m(Xt, Xt, Xt, None)              # the book's LazyLinear layers take their shapes
    ref = torch_nn_mha(m)
    At, Et, St = torch.randn(1024, 1024), torch.randn(EXP_N), torch.randn(r_, c_)
    items = [  # (name, attn's set-up, attn's statement, attn's repeats, PyTorch's call, its repeats)
        ("exp", f"E = torch.randn(({EXP_N},))", "torch.exp(E)", 5, lambda: torch.exp(Et), 5),
        ("softmax", f"S = torch.randn(({r_}, {c_}))", "torch.softmax(S, dim=-1)", 5, lambda: torch.softmax(St, dim=-1), 5),
        ("pe100000", "", "d2l.PositionalEncoding(512, 0, max_len=100000)", 5, lambda: d2l_book.PositionalEncoding(512, 0, 100000), 5),
        ("mha", f"_ = torch.set_grad_enabled(False); X = torch.randn(({b}, {n_}, {h})); att = d2l.MultiHeadAttention({h}, {heads}, 0); _ = att.eval(); _ = att(X, X, X, None)",
         "att(X, X, X, None)", 3, lambda: ref(Xt, Xt, Xt, need_weights=False), 3),
        ("mm1024", "A = torch.randn((1024, 1024)); _ = A @ A", "A @ A", 7, lambda: At @ At, 7),
    ]
    code = "\n".join(f"{setup}\nprint(timeit({stmt!r}, repeat={reps}))" for _, setup, stmt, reps, _, _ in items)
    rounds = {name: [] for name, *_ in items}
    for _ in range(ROUNDS):
        with torch.no_grad():
            peer = [median_time(fn, reps=reps) for *_, fn, reps in items]
        time.sleep(0.2)
        r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, env=attn_env(T), timeout=900)
        if r.returncode != 0:
            raise RuntimeError(r.stderr)
        for (name, *_), a, t in zip(items, map(float, r.stdout.split()[-len(items):]), peer):
            rounds[name].append((a, t))
    return rounds


def bench_threads(T, res):
    """One table at T threads; fills res[name] = (attn, numpy, torch) for the aims."""
    set_peer_threads(T)
    out(f"### {T} thread{'s' if T > 1 else ''}")
    out()
    out(f"Load average when this table started: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    out()
    table_head()

    def put(key, name, a, n=None, t=None, unit="s"):
        res[key] = (a, n, t)
        row(name, a, n, t, unit)

    # exp and softmax on large float32 tensors (the elementwise and reduction kernels)
    a = attn_time(f"X = torch.randn(({EXP_N},))", "torch.exp(X)", T)
    n = t = None
    if np:
        Xn = np.random.randn(EXP_N).astype(np.float32)
        n = median_time(lambda: np.exp(Xn))
        del Xn
    if torch:
        Xt = torch.randn(EXP_N)
        t = median_time(lambda: torch.exp(Xt))
        del Xt
    put("exp", f"torch.exp, {EXP_N // (1 << 20)}M float32", a, n, t)
    r_, c_ = SOFTMAX_SHAPE
    a = attn_time(f"S = torch.randn(({r_}, {c_}))", "torch.softmax(S, dim=-1)", T)
    n = t = None
    if np:
        Sn = np.random.randn(r_, c_).astype(np.float32)
        n = median_time(lambda: np_softmax(Sn))
        del Sn
    if torch:
        St = torch.randn(r_, c_)
        t = median_time(lambda: torch.softmax(St, dim=-1))
        del St
    put("softmax", f"softmax over the last dim, ({r_}, {c_})", a, n, t)

    # positional encoding, d = 512 (the book's code in PyTorch)
    for max_len in [1000, 10000, 100000]:
        a = attn_time("", f"d2l.PositionalEncoding(512, 0, max_len={max_len})", T)
        n = median_time(lambda: np_pe(max_len, 512)) if np else None
        t = median_time(lambda: d2l_book.PositionalEncoding(512, 0, max_len)) if torch else None
        put(f"pe{max_len}", f"positional encoding, max_len {max_len}, d 512", a, n, t)
    # the floor under the largest table: its sines and cosines alone, by the 1-ULP functions PyTorch's digits need
    # (SLEEF; NumPy's are others), the same 204.8 MB written
    xs = "torch.arange(100000, dtype=torch.float32).reshape(-1, 1) / torch.pow(10000, torch.arange(0, 512, 2, dtype=torch.float32) / 512)"
    a = attn_time(f"X = {xs}", "(torch.sin(X), torch.cos(X))", T)
    n = t = None
    if np:
        Xn = np.arange(100000, dtype=np.float32).reshape(-1, 1) / np.power(np.float32(10000), np.arange(0, 512, 2, dtype=np.float32) / np.float32(512))
        n = median_time(lambda: (np.sin(Xn), np.cos(Xn)))
        del Xn
    if torch:
        Xt = eval(xs)
        t = median_time(lambda: (torch.sin(Xt), torch.cos(Xt)))
        del Xt
    put("pesincos", "sin and cos of the max_len 100000 encoding's X (100000 × 256) alone: the floor under that row", a, n, t)

    # masked softmax and multi-head attention: the book's size, and batch 8, n 1024, d 512, 8 heads
    for label, (b, n_, h, heads), vl in MHA_SIZES:
        rows_b = b * heads
        a = attn_time(f"S = torch.randn(({rows_b}, {n_}, {n_})); vl = torch.tensor({([n_ // 2] * rows_b)!r})", "d2l.masked_softmax(S, vl)", T)
        nn_ = tt = None
        if np:
            S = np.random.randn(rows_b, n_, n_).astype(np.float32)
            vln = np.array([n_ // 2] * rows_b)
            nn_ = median_time(lambda: np_masked_softmax(S, vln))
        if torch:
            St = torch.randn(rows_b, n_, n_)
            vlt = torch.tensor([n_ // 2] * rows_b)
            tt = median_time(lambda: d2l_book.masked_softmax(St.clone(), vlt))
        put(f"msm{n_}", f"masked softmax, {label}", a, nn_, tt)
        vls = f"torch.tensor({vl!r})" if vl else "None"
        a = attn_time(f"_ = torch.set_grad_enabled(False); X = torch.randn(({b}, {n_}, {h})); att = d2l.MultiHeadAttention({h}, {heads}, 0); _ = att.eval(); vl = {vls}; _ = att(X, X, X, vl)",
                      "att(X, X, X, vl)", T)
        nn_ = tt = tn = None
        if np:
            X = np.random.randn(b, n_, h).astype(np.float32)
            W = np.random.randn(4, h, h).astype(np.float32) / np.sqrt(h)
            vln = np.array(vl) if vl else None
            nn_ = median_time(lambda: np_mha(X, W, heads, vln))
        if torch:
            Xt = torch.randn(b, n_, h)
            m = d2l_book.MultiHeadAttention(h, heads, 0)
            m.eval()
            vlt = torch.tensor(vl) if vl else None
            with torch.no_grad():
                m(Xt, Xt, Xt, vlt)
                tt = median_time(lambda: m(Xt, Xt, Xt, vlt))
                ref = torch_nn_mha(m)
                kpm = torch.arange(n_)[None, :] >= vlt[:, None] if vl else None
                tn = median_time(lambda: ref(Xt, Xt, Xt, key_padding_mask=kpm, need_weights=False))
        put(f"mha{n_}", f"multi-head attention forward, {label} (PyTorch: the book's code)", a, nn_, tt)
        put(f"nnmha{n_}", f"multi-head attention forward, {label} (PyTorch: nn.MultiheadAttention)", a, nn_, tn)
    if torch:
        res["paired"] = paired_rounds(T)

    # the fixed cost of one statement: a tiny elementwise op
    a = attn_time("x = torch.ones((2, 4)); y = torch.ones((2, 4))", "x + y", T)
    n = t = None
    if np:
        xn = np.ones((2, 4), dtype=np.float32)
        n = median_time(lambda: xn + xn)
    if torch:
        xt = torch.ones((2, 4))
        t = median_time(lambda: xt + xt)
    put("tiny", "one tiny op: x + y, (2, 4) float32 (timeit parses the statement once, as Python's)", a, n, t)
    # the same op in a loop, parsed once (as a forward's statements are): the op's own fixed cost, next to Python's
    # loop around NumPy's and PyTorch's
    a = attn_time("x = torch.ones((2, 4)); y = torch.ones((2, 4))", "for i in range(10000): z = x + y", T) / 10000
    n = t = None
    def loop(v):
        for i in range(10000):
            z = v + v    # noqa: F841
    if np:
        n = median_time(lambda: loop(xn)) / 10000
    if torch:
        t = median_time(lambda: loop(xt)) / 10000
    put("tinyloop", "one tiny op in a loop: z = x + y, per iteration (parsed once)", a, n, t)

    # the layers of the complexity measurement (§11.6.2), n 1024, d 64, k 3
    n_, d_ = 1024, 64
    r = subprocess.run([ATTN, "-c", f"r = measure_layers(ns=[{n_}, {2 * n_}], d={d_}, repeats={REPS}, quiet=True)\nprint(r['cnn'][0], r['rnn'][0], r['attention'][0])"],
                       capture_output=True, text=True, timeout=600, env=attn_env(T))
    a_cnn, a_rnn, a_att = map(float, r.stdout.split())
    peers = {"cnn": [None, None], "rnn": [None, None], "attention": [None, None]}
    if np:
        X = np.random.randn(n_, d_).astype(np.float32)
        Wc = np.random.randn(3, d_, d_).astype(np.float32)
        Wh = np.random.randn(d_, d_).astype(np.float32)
        def conv_np():
            Y = X @ Wc[1]
            Y[1:] += X[:-1] @ Wc[0]
            Y[:-1] += X[1:] @ Wc[2]
        def rnn_np():
            H = X @ Wc[0]
            for i in range(1, n_):
                H[i] = np.tanh(H[i] + H[i - 1] @ Wh)
        def att_np():
            S = X @ X.T / np.float32(np.sqrt(d_))
            np_softmax(S) @ X
        peers["cnn"][0], peers["rnn"][0], peers["attention"][0] = median_time(conv_np), median_time(rnn_np), median_time(att_np)
    if torch:
        Xt = torch.randn(n_, d_)
        Wt = torch.randn(d_, d_, 3)
        Wh = torch.randn(d_, d_)
        def conv_t():
            torch.nn.functional.conv1d(Xt.T[None], Wt, padding=1)
        def rnn_t():
            H = Xt @ Wt[:, :, 0]
            for i in range(1, n_):
                H[i] = torch.tanh(H[i] + H[i - 1] @ Wh)
        def att_t():
            torch.softmax(Xt @ Xt.T / d_ ** 0.5, dim=-1) @ Xt
        with torch.no_grad():
            peers["cnn"][1], peers["rnn"][1], peers["attention"][1] = median_time(conv_t), median_time(rnn_t), median_time(att_t)
    # attn's column is what measure_layers reports: one thread, that thread's CPU time (the peers: T threads, wall time)
    put("cnn", f"conv1d layer, n {n_}, d {d_}, k 3 (attn: measure_layers, 1 thread, CPU time)", a_cnn, *peers["cnn"])
    put("rnn", f"RNN layer, n {n_}, d {d_} (sequential; attn: measure_layers, 1 thread, CPU time)", a_rnn, *peers["rnn"])
    put("att", f"self-attention layer, n {n_}, d {d_} (attn: measure_layers, 1 thread, CPU time)", a_att, *peers["attention"])

    # matrix products (NumPy's and PyTorch's: OpenBLAS's sgemm; attn's: OpenBLAS's bits, from attn's kernel where it
    # is the faster, tensor_matmul.c) and the machine's peaks
    for size in [256, 1024, 2048]:
        flops = 2.0 * size ** 3
        a = attn_time(f"A = torch.randn(({size}, {size})); B = torch.randn(({size}, {size}))", "A @ B", T)
        nn_ = tt = None
        if np:
            A = np.random.randn(size, size).astype(np.float32)
            nn_ = flops / median_time(lambda: A @ A)
        if torch:
            At = torch.randn(size, size)
            tt = flops / median_time(lambda: At @ At)
        put(f"mm{size}", f"matmul {size}×{size} (float32)", flops / a, nn_, tt, unit="GFLOP/s")
    peak = float(subprocess.run(["build/peak", str(T)], capture_output=True, text=True).stdout) * 1e9
    put("peak", f"machine single-precision peak, {T} thread{'s' if T > 1 else ''}, 8-wide FMA (AVX2; what OpenBLAS's Haswell kernel uses)", peak, unit="GFLOP/s")
    if os.path.exists("build/peak512"):
        p512 = float(subprocess.run(["build/peak512", str(T)], capture_output=True, text=True).stdout) * 1e9
        put("peak512", f"machine single-precision peak, {T} thread{'s' if T > 1 else ''}, 16-wide FMA (AVX-512)", p512, unit="GFLOP/s")
    bw = float(subprocess.run(["build/peak", "bw", str(T)], capture_output=True, text=True).stdout) * 1e9
    put("bw", f"machine memory write bandwidth, {T} thread{'s' if T > 1 else ''} (memset of 256 MiB)", bw, unit="GB/s")
    if torch:
        training_rows(T, res)
    out()


# ---- training (issue 24): one step of forward, backward and Adam, attn and PyTorch running the same Python ----

TRAIN_CODE = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_training.py")).read()
# the block's matrix products in GFLOP: forward 4 projections (2048 x 256 x 256), the FFN (2048 x 256 x 1024, twice),
# QK^T and AV (64 x 256 x 256 x 32 each); backward twice the forward's, less the three projections' grads of the
# block's input (which does not require grad)
BLOCK_FWD_FLOPS = 2.0 * 2048 * 256 * 256 * 4 + 2 * 2.0 * 2048 * 256 * 1024 + 2 * 2.0 * 64 * 256 * 256 * 32
BLOCK_BWD_FLOPS = 2 * BLOCK_FWD_FLOPS - 3 * 2.0 * 2048 * 256 * 256
RSS_STEPS = 10000


def torch_training(layers):
    """The models of bench_training.py in this process's PyTorch, with LAYERS = layers."""
    g = {}
    exec(compile(f"LAYERS = {layers}\n" + TRAIN_CODE, "bench_training.py", "exec"), g)
    return g


# The block's backward in attn, its matrix products alone: over REPS backward passes (each after its forward), the
# least time attn.gemm_stats() saw spent in float32 products during the pass, and their FLOPs; printed last.
ATTN_BWD_PRODUCTS = f"""
def bwd_products():
    best = None
    for i in range({REPS}):
        loss = fwd_big()
        s0 = attn.gemm_stats()
        loss.backward()
        s1 = attn.gemm_stats()
        opt_b.zero_grad()
        if best is None or s1[0] - s0[0] < best[0]:
            best = (s1[0] - s0[0], s1[1] - s0[1])
    return best

bp = bwd_products()
print(bp[0])
print(bp[1])
"""

PRODUCT_OPS = ("aten::mm", "aten::bmm", "aten::addmm", "aten::baddbmm")


def torch_bwd_products(g):
    """PyTorch's block backward, its matrix products alone: over REPS backward passes (each after its forward), the
    least total CPU time torch's profiler records for its product operators (aten::mm, aten::bmm; what they call
    inside them included, nothing counted twice) during the pass; and their FLOPs, from the operands' shapes."""
    best = None
    for _ in range(REPS):
        loss = g["fwd_big"]()
        with torch.autograd.profiler.profile(record_shapes=True) as prof:
            loss.backward()
        g["opt_b"].zero_grad()
        seconds = flops = 0.0
        for e in prof.function_events:
            if e.name not in PRODUCT_OPS or (e.cpu_parent is not None and e.cpu_parent.name in PRODUCT_OPS):
                continue
            seconds += e.cpu_time_total * 1e-6
            a, b = e.input_shapes[-2], e.input_shapes[-1]      # (.., m, k) and (.., k, n)
            batch = a[0] if len(a) == 3 else 1
            flops += 2.0 * batch * a[-2] * a[-1] * b[-1]
        if best is None or seconds < best[0]:
            best = (seconds, flops)
    return best


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def attn_rss(T, steps=RSS_STEPS):
    """attn's resident set size (kB) after 100 training steps of the small model and after `steps` more: attn reads
    the statements from a pipe and says when each part is done, and its /proc/PID/status is read then."""
    p = subprocess.Popen([ATTN, "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         bufsize=1, env=attn_env(T))
    def run(code):
        p.stdin.write(code + "\nprint('DONE')\n")
        p.stdin.flush()
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError(p.stderr.read())
            if line.strip() == "DONE":
                return rss_kb(p.pid)
    try:
        run("LAYERS = 1\n" + TRAIN_CODE + "\n")
        before = run("for i in range(100):\n    l = step_small()\n")
        after = run(f"for i in range({steps}):\n    l = step_small()\n")
    finally:
        p.stdin.close()
        p.wait(timeout=60)
    return before, after


def training_rows(T, res):
    """One training step of the small model (1 and 2 layers) and of the block, the block's forward and its forward
    with backward, and the 1024 x 1024 product, at T threads: in ROUNDS paired rounds, each of them attn (one
    process, every item) right after PyTorch (every item), as paired_rounds does, so that the host's other load
    slows both sides of a round alike. Then attn's RSS over 10,000 steps of the small model. Fills res[key] with
    (attn, None, PyTorch), each the median over the rounds, and res["train_rounds"][key] with the rounds."""
    items = [("train_small1", "s1", 1), ("train_small2", "s2", 1), ("train_big", "step_big", 0.2),
             ("fwd_big", "fwd_big", 0.2), ("fb_big", "fb_big", 0.2), ("mm1024", "mm", 0.05)]
    code = (f"LAYERS = 2\n{TRAIN_CODE}\ns2 = step_small\nLAYERS = 1\n{TRAIN_CODE}\ns1 = step_small\n"
            "A = torch.randn((1024, 1024))\ndef mm():\n    return A @ A\n\nfor i in range(3):\n    l = s1()\n    l = s2()\n\nstep_big()\n" +
            "".join(f"print(timeit('{fn}()', repeat={REPS}))\n" for _, fn, _ in items) + ATTN_BWD_PRODUCTS)
    g1, g2 = torch_training(1), torch_training(2)
    At = torch.randn(1024, 1024)
    peer = {"s1": g1["step_small"], "s2": g2["step_small"], "step_big": g1["step_big"], "fwd_big": g1["fwd_big"],
            "fb_big": g1["fb_big"], "mm": lambda: At @ At}
    for f in peer.values():
        f()
    rounds = {key: [] for key, _, _ in items}
    rounds["bwd_products"] = []
    for _ in range(ROUNDS):
        t = [median_time(peer[fn], min_time=mt) for _, fn, mt in items]
        time.sleep(0.2)
        r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, env=attn_env(T), timeout=900)
        if r.returncode != 0:
            raise RuntimeError(r.stderr)
        vals = list(map(float, r.stdout.split()[-len(items) - 2:]))
        for (key, _, _), a, tt in zip(items, vals, t):
            rounds[key].append((a, tt))
        rounds["bwd_products"].append(((vals[-2], vals[-1]), torch_bwd_products(g1)))
    res["train_rounds"] = rounds
    labels = {"train_small1": "training step (forward, backward, Adam), lesson 7's model: batch 64, length 8, d 32, 1 layer",
              "train_small2": "training step (forward, backward, Adam), lesson 7's model: batch 64, length 8, d 32, 2 layers",
              "train_big": "training step (forward, backward, Adam), self-attention block (8, 256, 256), 8 heads, LayerNorm, FFN 1024",
              "fwd_big": "forward and loss (recording the graph), the same block",
              "fb_big": "forward, loss, backward, zero_grad, the same block",
              "mm1024": "matmul 1024×1024 (float32), in the same rounds"}
    for key, _, _ in items:
        a = statistics.median(x for x, _ in rounds[key])
        t = statistics.median(y for _, y in rounds[key])
        res[key if key != "mm1024" else "train_mm1024"] = (a, None, t)
        if key == "mm1024":
            row(labels[key], 2.0 * 1024 ** 3 / a, None, 2.0 * 1024 ** 3 / t, unit="GFLOP/s")
        else:
            row(labels[key], a, None, t)
    res["lesson7"] = lesson7_seconds(T)
    out(f"| lesson 7 replayed whole (its five trainings and everything else it runs), CPU seconds, best of 3 | {res['lesson7']:.2f} s | - | - | - | - |")
    before, after = attn_rss(T)
    res["rss"] = (before, after)
    out(f"| attn's resident set size after 100 training steps of lesson 7's model, and after {RSS_STEPS} more | {before / 1024:.1f} MiB, {after / 1024:.1f} MiB | - | - | - | - |")


LESSON7 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lessons", "07-order-learned.md")


def lesson7_seconds(T):
    """The CPU time (user + system, seconds) of `attn --replay` of lesson 7 at T threads, the best of 3 runs: every
    training the lesson runs, with its printing; the issue's aim is under 10 s on one core."""
    best = None
    for _ in range(3):
        before = os.times()
        r = subprocess.run([ATTN, "--replay", LESSON7], capture_output=True, text=True, env=attn_env(T), timeout=600)
        after = os.times()
        if r.returncode != 0:
            raise RuntimeError(r.stderr)
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        best = cpu if best is None else min(best, cpu)
    return best


def training_aims(results):
    """The training aims of issue 24 at each thread count."""
    out("### The training aims of issue 24")
    out()
    heads = " | ".join(f"{T} thread{'s' if T > 1 else ''}" for T in COUNTS)
    out(f"| aim | target | {heads} |")
    out("|---|---|" + "---|" * len(COUNTS))

    def line(name, target, fn):
        cells = []
        for T in COUNTS:
            try:
                cells.append(fn(results[T]))
            except (KeyError, TypeError, ZeroDivisionError, ValueError):
                cells.append("-")
        out(f"| {name} | {target} | " + " | ".join(cells) + " |")

    def paired(key):
        return lambda r: paired_ratio(r["train_rounds"][key])

    def bwd_fraction(r, side):
        """The block's backward (the round's forward+backward less its forward) as a fraction of the round's
        fastest 1024 x 1024 product (attn's or PyTorch's): the lowest of the rounds' backward times."""
        rr = r["train_rounds"]
        best = min(fb[side] - f[side] for fb, f in zip(rr["fb_big"], rr["fwd_big"]))
        peak = 2.0 * 1024 ** 3 / min(min(a, t) for a, t in rr["mm1024"])
        return BLOCK_BWD_FLOPS / best / peak, peak
    line(f"training step, lesson 7's model (1 layer): attn / PyTorch, {ROUNDS} paired rounds, median (lowest-highest)", "≤ 1.0", paired("train_small1"))
    line("training step, lesson 7's model (2 layers): attn / PyTorch, the same", "≤ 1.0", paired("train_small2"))
    line("training step, block (8, 256, 256, 8 heads): attn / PyTorch, the same", "≤ 1.2", paired("train_big"))
    line("block forward and loss: attn / PyTorch, the same", "(reference)", paired("fwd_big"))
    line("block forward, loss and backward: attn / PyTorch, the same", "(reference)", paired("fb_big"))
    line("block backward: its matrix products' FLOPs over the whole backward's time, of the fastest 1024 × 1024 product (a lower bound)", "≥ 60%",
         lambda r: f"{pct(bwd_fraction(r, 0)[0])} of {bwd_fraction(r, 0)[1] / 1e9:.0f} GFLOP/s")
    line("... PyTorch's, the same way", "(reference)", lambda r: pct(bwd_fraction(r, 1)[0]))

    def products_fraction(r, side):
        """The block backward's matrix products alone: their FLOPs over the time spent in them (attn: attn.gemm_stats
        around backward(); PyTorch: its profiler's aten::mm and aten::bmm), the best of the rounds, as a fraction of
        the round's fastest 1024 x 1024 product; and the FLOPs counted, which must be BLOCK_BWD_FLOPS."""
        rr = r["train_rounds"]
        peak = 2.0 * 1024 ** 3 / min(min(a, t) for a, t in rr["mm1024"])
        seconds, flops = min(p[side] for p in rr["bwd_products"])
        return flops / seconds / peak, flops
    line("block backward: its matrix products alone, their FLOPs over the time spent in them, of the same peak "
         "(attn: attn.gemm_stats(); the FLOPs counted)", "≥ 60%",
         lambda r: f"{pct(products_fraction(r, 0)[0])} ({products_fraction(r, 0)[1] / 1e9:.2f} GFLOP)")
    line("... PyTorch's, the same way (its profiler's aten::mm and aten::bmm)", "(reference)",
         lambda r: f"{pct(products_fraction(r, 1)[0])} ({products_fraction(r, 1)[1] / 1e9:.2f} GFLOP)")
    line("lesson 7 replayed whole: CPU seconds (all its trainings)", "< 10 s", lambda r: f"{r['lesson7']:.2f} s")
    line(f"attn's RSS, 100 steps → {RSS_STEPS + 100} steps of lesson 7's model", "flat",
         lambda r: f"{r['rss'][0] / 1024:.1f} → {r['rss'][1] / 1024:.1f} MiB")
    out()


def paired_ratio(rounds):
    """attn / PyTorch: the median of the rounds (the lowest and highest)."""
    xs = sorted(a / t for a, t in rounds)
    return f"{rat(statistics.median(xs))} ({rat(xs[0])}-{rat(xs[-1])})"


def paired_fraction(p):
    """The fastest forward over the fastest 1024 x 1024 product (attn's or PyTorch's) of the rounds: what the machine
    does when nothing else runs (a slow round is the host's other load)."""
    best = min(a for a, _ in p["mha"])
    peak = 2.0 * 1024 ** 3 / min(min(a, t) for a, t in p["mm1024"])
    return f"{pct(MHA_FLOPS / best / peak)} of {peak / 1e9:.0f} GFLOP/s"


def pct(x):
    return "-" if x is None else f"{100 * x:.0f}%"


def rat(x):
    return "-" if x is None else f"{x:.2f}"


def aims(results):
    """The aims of issue 14, each measured on 1 thread and on every core."""
    out("### The aims of issue 14")
    out()
    out("sgemm peak: the fastest float32 matrix product measured in this run at that thread count (1024 × 1024 or "
        "2048 × 2048, by attn, NumPy or PyTorch). Ratios are attn's time over the peer's.")
    out()
    heads = " | ".join(f"{T} thread{'s' if T > 1 else ''}" for T in COUNTS)
    out(f"| aim | target | {heads} |")
    out("|---|---|" + "---|" * len(COUNTS))

    def line(name, target, cells):
        out(f"| {name} | {target} | " + " | ".join(cells) + " |")

    def sgemm_peak(r):
        return max(x for k in ("mm1024", "mm2048") for x in r[k] if x)

    def cell(T, fn):
        try:
            return fn(results[T])
        except (KeyError, TypeError, ZeroDivisionError, ValueError):
            return "-"
    line("MHA forward (8, 1024, 512, 8): attn / nn.MultiheadAttention", "≤ 0.70",
         [cell(T, lambda r: rat(r["nnmha1024"][0] / r["nnmha1024"][2])) for T in COUNTS])
    line("MHA forward (8, 1024, 512, 8): attn's 34.4 GFLOP as a fraction of the sgemm peak", "≥ 75%",
         [cell(T, lambda r: f"{pct(MHA_FLOPS / r['nnmha1024'][0] / sgemm_peak(r))} of {sgemm_peak(r) / 1e9:.0f} GFLOP/s") for T in COUNTS])
    line("MHA forward (8, 1024, 512, 8): nn.MultiheadAttention's fraction of the sgemm peak", "(reference)",
         [cell(T, lambda r: pct(MHA_FLOPS / r["nnmha1024"][2] / sgemm_peak(r))) for T in COUNTS])
    line(f"... in {ROUNDS} paired rounds (attn right after PyTorch): attn / nn.MultiheadAttention, median (lowest-highest)", "≤ 0.70",
         [cell(T, lambda r: paired_ratio(r["paired"]["mha"])) for T in COUNTS])
    line("... in the same rounds: attn's fastest forward as a fraction of the fastest 1024 × 1024 product (attn's or PyTorch's)", "≥ 75%",
         [cell(T, lambda r: paired_fraction(r["paired"])) for T in COUNTS])
    line("... in the same rounds: matmul 1024 × 1024, attn / PyTorch, median (lowest-highest)", "(reference)",
         [cell(T, lambda r: paired_ratio(r["paired"]["mm1024"])) for T in COUNTS])
    line("torch.exp, 64M float32: attn / PyTorch", "≤ 1",
         [cell(T, lambda r: rat(r["exp"][0] / r["exp"][2])) for T in COUNTS])
    line(f"... in {ROUNDS} paired rounds: median (lowest-highest)", "≤ 1",
         [cell(T, lambda r: paired_ratio(r["paired"]["exp"])) for T in COUNTS])
    line("softmax (65536, 1024): attn / PyTorch", "≤ 1",
         [cell(T, lambda r: rat(r["softmax"][0] / r["softmax"][2])) for T in COUNTS])
    line(f"... in {ROUNDS} paired rounds: median (lowest-highest)", "≤ 1",
         [cell(T, lambda r: paired_ratio(r["paired"]["softmax"])) for T in COUNTS])
    line("positional encoding 100000 × 512: attn / PyTorch", "≤ 1",
         [cell(T, lambda r: rat(r["pe100000"][0] / r["pe100000"][2])) for T in COUNTS])
    line(f"... in {ROUNDS} paired rounds: median (lowest-highest)", "≤ 1",
         [cell(T, lambda r: paired_ratio(r["paired"]["pe100000"])) for T in COUNTS])
    line("positional encoding 100000 × 512: attn's table writes as a fraction of the write bandwidth", "near 100%",
         [cell(T, lambda r: pct(100000 * 512 * 4 / r["pe100000"][0] / r["bw"][0])) for T in COUNTS])
    line("... its floor, sin and cos of X alone (PyTorch's 1-ULP functions), as a fraction of the write bandwidth", "(the limit)",
         [cell(T, lambda r: pct(100000 * 512 * 4 / r["pesincos"][0] / r["bw"][0])) for T in COUNTS])
    line("positional encoding 100000 × 512: attn's time over its floor", "(reference)",
         [cell(T, lambda r: rat(r["pe100000"][0] / r["pesincos"][0])) for T in COUNTS])
    line("book-size MHA (2, 4, 100), 5 heads: attn / PyTorch (the book's code)", "≤ 1",
         [cell(T, lambda r: rat(r["mha4"][0] / r["mha4"][2])) for T in COUNTS])
    line("book-size MHA (2, 4, 100), 5 heads: attn / NumPy", "≤ 1",
         [cell(T, lambda r: rat(r["mha4"][0] / r["mha4"][1])) for T in COUNTS])
    line("book-size MHA (2, 4, 100), 5 heads: attn / nn.MultiheadAttention", "(reference)",
         [cell(T, lambda r: rat(r["nnmha4"][0] / r["nnmha4"][2])) for T in COUNTS])
    line("one tiny op x + y: attn / NumPy (a statement's fixed cost, parsed once)", "well under 1",
         [cell(T, lambda r: rat(r["tiny"][0] / r["tiny"][1])) for T in COUNTS])
    line("z = x + y in a loop, parsed once: attn / NumPy (per iteration, Python's loop for NumPy)", "well under 1",
         [cell(T, lambda r: rat(r["tinyloop"][0] / r["tinyloop"][1])) for T in COUNTS])
    out()


out(f"Threads: {' and '.join(str(T) for T in COUNTS)} (attn: ATTN_THREADS; NumPy: OpenBLAS's thread count; "
    "PyTorch: torch.set_num_threads and OpenBLAS's thread count)")
out(f"NumPy: {np.__version__ if np else 'not installed'}; PyTorch: {torch.__version__ if torch else 'not installed'}; "
    f"OpenBLAS kernels for all three: {os.environ.get('OPENBLAS_CORETYPE', 'OpenBLAS own choice')}")
out("attn: " + " ".join(subprocess.run([ATTN, "-c", "print(attn.show_config())"], capture_output=True, text=True).stdout.split()))
out(f"Load average when the run started: {os.getloadavg()[0]:.2f} (1 min), {os.getloadavg()[1]:.2f} (5 min)")
out()
out("Ratios are attn's time over the peer's (below 1: attn is faster); for GFLOP/s rows, the peer's speed over attn's.")
out()

if TRAINING_ONLY:
    results = {}
    for T in COUNTS:
        results[T] = {}
        set_peer_threads(T)
        out(f"### {T} thread{'s' if T > 1 else ''}: training")
        out()
        table_head()
        training_rows(T, results[T])
        out()
    training_aims(results)
    sys.exit(0)

# start-up, lessons and plots do not depend on the thread count
out("### Start-up, lessons, plots")
out()
table_head()
row("start-up: attn -c 'x = 1' (vs python3 -c 'import numpy' / 'import torch')", process_time([ATTN, "-c", "x = 1"]),
    process_time(["/usr/bin/python3", "-c", "import numpy"]) if np else None,
    process_time(["/usr/bin/python3", "-c", "import torch"], reps=7) if torch else None)
row("start-up: attn --version", process_time([ATTN, "--version"]), None, None)
lessons = sorted(f"lessons/{f}" for f in os.listdir("lessons") if f[0].isdigit())
row(f"replay of all {len(lessons)} lessons (attn --check)", process_time([ATTN, "--check"] + lessons, reps=3), None, None)
r = subprocess.run([ATTN, "-c", "x = torch.arange(60); y = torch.sin(x / 10.0)\nd2l.plot(x, y)\nt = timeit(\"d2l.plot(x, y, xlabel='x')\", repeat=%d)\nprint('LATENCY', t)" % REPS],
                   capture_output=True, text=True, env=dict(os.environ, ATTN_PLOT="terminal", COLUMNS="80"), timeout=300)
lat = [l[l.index("LATENCY"):] for l in r.stdout.split("\n") if "LATENCY" in l]
row("plot latency: d2l.plot to gnuplot done drawing (dumb terminal)", float(lat[-1].split()[1]) if lat else None, None, None)
out()

results = {}
for T in COUNTS:
    results[T] = {}
    bench_threads(T, results[T])
aims(results)
if torch:
    training_aims(results)
out(f"Load average when the run ended: {os.getloadavg()[0]:.2f} (1 min), {os.getloadavg()[1]:.2f} (5 min)")
out(f"Machine: {platform.machine()}, {os.cpu_count()} cores, " +
    next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown CPU"))

#!/usr/bin/python3
"""The benchmark table of `make bench`: each figure is the median of several runs; attn, NumPy and PyTorch do the
same work in the same run with the same number of threads; ratios are attn time / peer time (below 1: attn is
faster). Writes the table to stdout and to build/benchmarks.md.  usage: bench.py THREADS [--quick]"""
import os, platform, statistics, subprocess, sys, time

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else os.cpu_count()
QUICK = "--quick" in sys.argv
ATTN = os.path.abspath("./attn")
REPS = 3 if QUICK else 5
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ref"))

try:
    import numpy as np
except ImportError:
    np = None
try:
    import torch
    import d2l_book
    torch.set_num_threads(THREADS)
except ImportError:
    torch = None


def median_time(fn, reps=REPS, min_time=0.02):
    """Median over reps of the mean time of fn, each rep repeating fn for at least min_time seconds."""
    out = []
    for _ in range(reps):
        n, t0 = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            t = time.perf_counter() - t0
            if t >= min_time:
                break
        out.append(t / n)
    return statistics.median(out)


def attn_time(setup, stmt, env=None):
    code = f"{setup}\nprint(timeit({stmt!r}, repeat={REPS}))"
    time.sleep(0.2)     # let the previous peer's threads go idle
    r = subprocess.run([ATTN, "-c", code], capture_output=True, text=True, env=dict(os.environ, **(env or {})), timeout=900)
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


rows = []


def row(name, a, n=None, t=None, unit="s"):
    rows.append((name, a, n, t, unit))
    def f(x):
        if x is None:
            return "-"
        if unit == "GFLOP/s":
            return f"{x / 1e9:.1f} GFLOP/s"
        return f"{x * 1e3:.3f} ms" if x < 1 else f"{x:.3f} s"
    # always attn time / peer time: for speeds that is peer speed / attn speed
    ra = f"{a / n:.2f}" if (a and n and unit == "s") else (f"{n / a:.2f}" if (a and n) else "-")
    rt = f"{a / t:.2f}" if (a and t and unit == "s") else (f"{t / a:.2f}" if (a and t) else "-")
    print(f"| {name} | {f(a)} | {f(n)} | {f(t)} | {ra} | {rt} |", flush=True)


print(f"Threads: {THREADS} (OpenBLAS for attn and NumPy, torch.set_num_threads for PyTorch)")
print(f"NumPy: {np.__version__ if np else 'not installed'}; PyTorch: {torch.__version__ if torch else 'not installed'}")
print()
print("Ratios are attn's time over the peer's (below 1: attn is faster); for GFLOP/s rows, the peer's speed over attn's.")
print()
print("| measurement | attn | NumPy | PyTorch | attn/NumPy | attn/PyTorch |")
print("|---|---|---|---|---|---|")

# start-up
row("start-up: attn -c 'x = 1' (vs python3 -c 'import numpy' / 'import torch')", process_time([ATTN, "-c", "x = 1"]),
    process_time(["/usr/bin/python3", "-c", "import numpy"]) if np else None,
    process_time(["/usr/bin/python3", "-c", "import torch"], reps=7) if torch else None)
row("start-up: attn --version", process_time([ATTN, "--version"]), None, None)

# every lesson replayed (plots as summaries)
lessons = sorted(f"lessons/{f}" for f in os.listdir("lessons") if f[0].isdigit())
row(f"replay of all {len(lessons)} lessons (attn --check)", process_time([ATTN, "--check"] + lessons, reps=3), None, None)

# positional encoding, d = 512
for max_len in [1000, 10000, 100000]:
    a = attn_time("", f"d2l.PositionalEncoding(512, 0, max_len={max_len})")
    n = t = None
    if np:
        def pe_np():
            P = np.zeros((1, max_len, 512), dtype=np.float32)
            X = np.arange(max_len, dtype=np.float32).reshape(-1, 1) / np.power(np.float32(10000), np.arange(0, 512, 2, dtype=np.float32) / np.float32(512))
            P[:, :, 0::2] = np.sin(X)
            P[:, :, 1::2] = np.cos(X)
        n = median_time(pe_np)
    if torch:
        t = median_time(lambda: d2l_book.PositionalEncoding(512, 0, max_len))
    row(f"positional encoding, max_len {max_len}, d 512", a, n, t)


def np_masked_softmax(X, valid_lens):
    mask = np.arange(X.shape[-1])[None, None, :] < valid_lens.reshape(X.shape[0], -1, 1)
    Xm = np.where(mask, X, np.float32(-1e6))
    e = np.exp(Xm - Xm.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_mha(X, W, heads, valid_lens):
    B, T, H = X.shape
    def split(Y):
        return Y.reshape(B, T, heads, H // heads).transpose(0, 2, 1, 3).reshape(B * heads, T, H // heads)
    q, k, v = (split(X @ W[i].T) for i in range(3))
    s = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(H // heads))
    w = np_masked_softmax(s, np.repeat(valid_lens, heads)) if valid_lens is not None else None
    if w is None:
        e = np.exp(s - s.max(-1, keepdims=True))
        w = e / e.sum(-1, keepdims=True)
    o = (w @ v).reshape(B, heads, T, H // heads).transpose(0, 2, 1, 3).reshape(B, T, H)
    return o @ W[3].T


# masked softmax and multi-head attention: the book's size, and batch 8, n 1024, d 512, 8 heads
for label, (b, n_, h, heads), vl in [("book size (2, 4, 100), 5 heads", (2, 4, 100, 5), [3, 2]),
                                       ("batch 8, n 1024, d 512, 8 heads", (8, 1024, 512, 8), None)]:
    rows_b = b * heads
    a = attn_time(f"S = torch.randn(({rows_b}, {n_}, {n_})); vl = torch.tensor({([n_ // 2] * rows_b)!r})", "d2l.masked_softmax(S, vl)")
    nn_ = tt = None
    if np:
        S = np.random.randn(rows_b, n_, n_).astype(np.float32)
        vln = np.array([n_ // 2] * rows_b)
        nn_ = median_time(lambda: np_masked_softmax(S, vln))
    if torch:
        St = torch.randn(rows_b, n_, n_)
        vlt = torch.tensor([n_ // 2] * rows_b)
        tt = median_time(lambda: d2l_book.masked_softmax(St.clone(), vlt))
    row(f"masked softmax, {label}", a, nn_, tt)
    vls = f"torch.tensor({vl!r})" if vl else "None"
    a = attn_time(f"X = torch.randn(({b}, {n_}, {h})); att = d2l.MultiHeadAttention({h}, {heads}, 0); _ = att.eval(); vl = {vls}; _ = att(X, X, X, vl)",
                  "att(X, X, X, vl)")
    nn_ = tt = None
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
    row(f"multi-head attention forward, {label}", a, nn_, tt)

# the layers of the complexity measurement (§11.6.2), n 1024, d 64, k 3
n_, d_ = 1024, 64
r = subprocess.run([ATTN, "-c", f"r = measure_layers(ns=[{n_}, {2 * n_}], d={d_}, repeats={REPS}, quiet=True)\nprint(r['cnn'][0], r['rnn'][0], r['attention'][0])"],
                   capture_output=True, text=True, timeout=600)
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
        for t in range(1, n_):
            H[t] = np.tanh(H[t] + H[t - 1] @ Wh)
    def att_np():
        S = X @ X.T / np.float32(np.sqrt(d_))
        e = np.exp(S - S.max(-1, keepdims=True))
        (e / e.sum(-1, keepdims=True)) @ X
    peers["cnn"][0], peers["rnn"][0], peers["attention"][0] = median_time(conv_np), median_time(rnn_np), median_time(att_np)
if torch:
    Xt = torch.randn(n_, d_)
    Wt = torch.randn(d_, d_, 3)
    Wh = torch.randn(d_, d_)
    def conv_t():
        torch.nn.functional.conv1d(Xt.T[None], Wt, padding=1)
    def rnn_t():
        H = Xt @ Wt[:, :, 0]
        for t in range(1, n_):
            H[t] = torch.tanh(H[t] + H[t - 1] @ Wh)
    def att_t():
        torch.softmax(Xt @ Xt.T / d_ ** 0.5, dim=-1) @ Xt
    with torch.no_grad():
        peers["cnn"][1], peers["rnn"][1], peers["attention"][1] = median_time(conv_t), median_time(rnn_t), median_time(att_t)
row(f"conv1d layer, n {n_}, d {d_}, k 3", a_cnn, *peers["cnn"])
row(f"RNN layer, n {n_}, d {d_} (sequential)", a_rnn, *peers["rnn"])
row(f"self-attention layer, n {n_}, d {d_}", a_att, *peers["attention"])

# matrix products: GFLOP/s next to the machine's measured peak
peak = float(subprocess.run(["build/peak", str(THREADS)], capture_output=True, text=True).stdout)
peak512 = float(subprocess.run(["build/peak512", str(THREADS)], capture_output=True, text=True).stdout) if os.path.exists("build/peak512") else None
for size in [256, 1024]:
    flops = 2.0 * size ** 3
    a = attn_time(f"A = torch.randn(({size}, {size})); B = torch.randn(({size}, {size}))", "A @ B")
    nn_ = tt = None
    if np:
        A = np.random.randn(size, size).astype(np.float32)
        nn_ = median_time(lambda: A @ A)
    if torch:
        At = torch.randn(size, size)
        tt = median_time(lambda: At @ At)
    row(f"matmul {size}×{size} (float32)", flops / a, flops / nn_ if nn_ else None, flops / tt if tt else None, unit="GFLOP/s")
row(f"machine single-precision peak, {THREADS} threads, 8-wide FMA (AVX2; what OpenBLAS's Haswell kernel uses)", peak * 1e9, None, None, unit="GFLOP/s")
if peak512:
    row(f"machine single-precision peak, {THREADS} threads, 16-wide FMA (AVX-512)", peak512 * 1e9, None, None, unit="GFLOP/s")

# plot latency: from d2l.plot to gnuplot having drawn it (dumb terminal, output discarded)
r = subprocess.run([ATTN, "-c", "x = torch.arange(60); y = torch.sin(x / 10.0)\nd2l.plot(x, y)\nt = timeit(\"d2l.plot(x, y, xlabel='x')\", repeat=%d)\nprint('LATENCY', t)" % REPS],
                   capture_output=True, text=True, env=dict(os.environ, ATTN_PLOT="terminal", COLUMNS="80"), timeout=300)
lat = [l[l.index("LATENCY"):] for l in r.stdout.split("\n") if "LATENCY" in l]
row("plot latency: d2l.plot to gnuplot done drawing (dumb terminal)", float(lat[-1].split()[1]) if lat else None, None, None)

print()
print(f"Machine: {platform.machine()}, {os.cpu_count()} cores, " +
      next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown CPU"))

"""Same bytes on every thread count and every OpenBLAS setting of this machine (issue 25).

One program (products of many shapes on both sides of OpenBLAS's small-matrix limit, the fused attention with and
without masks, the book's MultiHeadAttention and PositionalEncoding, reductions, softmax, layer norm, sin/cos/exp) runs
under every ATTN_THREADS from 1 to 4 and every OPENBLAS_CORETYPE a host or user may set here (unset, Haswell,
Prescott, Sandybridge, Zen, SkylakeX, Cooperlake); everything it prints and saves must be the same bytes each time.
attn chooses OpenBLAS's kernels from the CPU itself, so OPENBLAS_CORETYPE must not change a digit. For each lower
vector level (ATTN_SIMD=avx2, scalar) the same holds among its own runs, and printed digits as PyTorch prints them
(4 decimals) agree across every level. The last line is 'N passed, N failed'."""
import hashlib, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, check, finish  # noqa: E402

PROGRAM = r'''
torch.manual_seed(7)
outs = []
for (m, k, n) in [(400, 48, 512), (1000, 1000, 64), (222, 286, 68), (57, 33, 29), (2050, 64, 20), (700, 300, 1)]:
    outs.append((torch.randn(m, k) @ torch.randn(k, n)).reshape(-1))
    outs.append((torch.randn(m, k) @ torch.randn(n, k).T).reshape(-1))
Q = torch.randn(4, 700, 96); K = torch.randn(4, 300, 96); V = torch.randn(4, 300, 40)
att = d2l.DotProductAttention(0.0)
outs.append(att(Q, K, V, torch.tensor([300, 17, 123, 299])).reshape(-1))
outs.append(att.attention_weights.reshape(-1))
outs.append(att(Q, Q, Q[:, :, :40], None).reshape(-1))
mha = d2l.MultiHeadAttention(128, 8, 0.0)
mha.eval()
X = torch.randn(3, 260, 128)
outs.append(mha(X, X, X, torch.tensor([260, 100, 7])).reshape(-1))
pe = d2l.PositionalEncoding(64, 0)
pe.eval()
outs.append(pe(torch.zeros(1, 1000, 64)).reshape(-1))
Y = torch.randn(300, 1000)
outs.append(torch.softmax(Y, dim=-1).reshape(-1))
outs.append(Y.sum(dim=0)); outs.append(Y.sum(dim=1)); outs.append(Y.sum().reshape(1)); outs.append(Y.mean(dim=1))
outs.append(torch.exp(Y).reshape(-1)); outs.append(torch.sin(Y * 30).reshape(-1))
ln = nn.LayerNorm(1000)
outs.append(ln(Y).reshape(-1))
save("out.npy", torch.cat(outs))
print(outs[0][:4])
print(mha(X, X, X, None)[0, :2, :6])
print(att.attention_weights[1, :2, 15:19])
'''

CORES = ["", "Haswell", "Prescott", "Sandybridge", "Zen", "SkylakeX", "Cooperlake"]


def run(env):
    """What the program prints and the bytes it saves, under env (added to a copy of this environment)."""
    with tempfile.TemporaryDirectory() as d:
        e = dict(os.environ)
        e.pop("OPENBLAS_CORETYPE", None)
        e.update(env)
        r = subprocess.run([ATTN, "-c", PROGRAM], cwd=d, capture_output=True, text=True, env=e, timeout=300)
        if r.returncode != 0:
            return None, r.stderr.strip()[-300:]
        with open(os.path.join(d, "out.npy"), "rb") as f:
            return r.stdout, hashlib.sha256(f.read()).hexdigest()


printed_by_level = {}
for simd in ["", "avx2", "scalar"]:
    first = None
    for core in CORES:
        for threads in (1, 2, 3, 4):
            if core not in ("", "Haswell") and threads in (2, 4):
                continue                    # every core on 1 and 3 threads, the host's two on all four counts
            env = {"ATTN_THREADS": str(threads), "ATTN_SIMD": simd}
            if core:
                env["OPENBLAS_CORETYPE"] = core
            out, digest = run(env)
            name = f"ATTN_SIMD={simd or 'unset'} OPENBLAS_CORETYPE={core or 'unset'} ATTN_THREADS={threads}"
            if out is None:
                check(name + " runs", False, digest)
                continue
            if first is None:
                first = (name, out, digest)
                printed_by_level[simd or "cpu"] = out
                check(name + " runs", True)
                continue
            check(name + ": the same bytes as " + first[0], digest == first[2], "the saved results differ")
            check(name + ": prints what " + first[0] + " prints", out == first[1], f"\n{out}\nagainst\n{first[1]}")

# printed digits (4 decimals, as PyTorch prints) are the same at every vector level
levels = list(printed_by_level.items())
for name, out in levels[1:]:
    check(f"ATTN_SIMD={name} prints the digits of {levels[0][0]}", out == levels[0][1], f"\n{out}\nagainst\n{levels[0][1]}")
finish()

#!/usr/bin/python3
"""NumPy as the independent reference: attn computes and saves .npy files, NumPy recomputes the same thing from
the same inputs and compares. Also NumPy writes .npy files that attn must read. Prints 'N passed, N failed'.

usage: numpy_check.py ATTN_BINARY
"""
import os, subprocess, sys, tempfile
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import attn, check, close, finish  # noqa: E402






with tempfile.TemporaryDirectory() as d:
    # 1. The book's positional encoding (§11.6.3), NumPy float32 with the same operations
    attn("""max_len, num_hiddens = 1000, 32
X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
P = torch.zeros((1, max_len, num_hiddens)); P[:, :, 0::2] = torch.sin(X); P[:, :, 1::2] = torch.cos(X)
save("P.npy", P)""", d)
    P = np.load(os.path.join(d, "P.npy"))
    Xn = np.arange(1000, dtype=np.float32).reshape(-1, 1) / np.power(np.float32(10000), np.arange(0, 32, 2, dtype=np.float32) / np.float32(32))
    Pn = np.zeros((1, 1000, 32), dtype=np.float32)
    Pn[:, :, 0::2] = np.sin(Xn)
    Pn[:, :, 1::2] = np.cos(Xn)
    check("P dtype float32", P.dtype == np.float32, str(P.dtype))
    close("P vs NumPy float32 (all 1000 positions)", P, Pn, 1e-5)
    close("P column 8 is sin(i/10)", P[0, :, 8], np.sin(np.arange(1000) / 10.0), 1e-4)
    close("P column 9 is cos(i/10)", P[0, :, 9], np.cos(np.arange(1000) / 10.0), 1e-4)

    # 2. Operations on seeded random inputs: attn saves inputs and results, NumPy recomputes the results
    attn("""torch.manual_seed(0)
A = torch.randn((3, 4, 5)); B = torch.randn((5, 6)); v = torch.randn(5)
save("A.npy", A); save("B.npy", B); save("v.npy", v)
save("matmul.npy", A @ B); save("bmm.npy", torch.bmm(A, A.transpose(1, 2)))
save("softmax.npy", torch.softmax(A, dim=-1)); save("softmax1.npy", torch.softmax(A, dim=1))
save("sum1.npy", A.sum(dim=1)); save("mean.npy", A.mean(dim=(0, 2))); save("max2.npy", A.max(dim=2)[0]); save("argmax.npy", A.argmax(dim=-1))
save("bcast.npy", A * v - 2 / (1 + v ** 2)); save("perm.npy", A.permute(2, 0, 1)); save("slice.npy", A[:, 1:3, ::2])
save("neg.npy", A[-1, -2:, :-1]); save("cat.npy", torch.cat([A, A * 2], dim=1)); save("stack.npy", torch.stack([v, v + 1], dim=1))
save("exp.npy", torch.exp(A)); save("tanh.npy", torch.tanh(A)); save("where.npy", torch.where(A > 0, A, 0.0))
save("rep.npy", torch.repeat_interleave(torch.tensor([3, 2]), 4)); save("cmp.npy", A > v)
C = torch.zeros((3, 4, 5)); C[:, :, 1::2] = A[:, :, 1::2]; C[0, 0] = 9; save("setitem.npy", C)
save("std.npy", A.std(dim=0)); save("var.npy", A.var()); save("tril.npy", torch.tril(A[0]))""", d)
    L = lambda n: np.load(os.path.join(d, n))
    A, B, v = L("A.npy"), L("B.npy"), L("v.npy")
    check("randn mean ~ 0 and std ~ 1 (60 draws)", abs(A.mean()) < 0.5 and 0.6 < A.std() < 1.5, f"{A.mean()} {A.std()}")
    close("A @ B", L("matmul.npy"), A @ B, 1e-5)
    close("bmm(A, A^T)", L("bmm.npy"), A @ A.transpose(0, 2, 1), 1e-5)
    e = np.exp(A - A.max(-1, keepdims=True))
    close("softmax dim=-1", L("softmax.npy"), e / e.sum(-1, keepdims=True), 1e-6)
    e1 = np.exp(A - A.max(1, keepdims=True))
    close("softmax dim=1", L("softmax1.npy"), e1 / e1.sum(1, keepdims=True), 1e-6)
    close("sum dim=1", L("sum1.npy"), A.sum(1), 1e-5)
    close("mean dims (0, 2)", L("mean.npy"), A.mean((0, 2)), 1e-6)
    close("max dim=2", L("max2.npy"), A.max(2), 0)
    close("argmax", L("argmax.npy"), A.argmax(-1), 0)
    check("argmax dtype int64", L("argmax.npy").dtype == np.int64)
    close("broadcast arithmetic", L("bcast.npy"), A * v - np.float32(2) / (np.float32(1) + v ** 2), 1e-5)
    close("permute", L("perm.npy"), A.transpose(2, 0, 1), 0)
    close("slice with step", L("slice.npy"), A[:, 1:3, ::2], 0)
    close("negative indices", L("neg.npy"), A[-1, -2:, :-1], 0)
    close("cat", L("cat.npy"), np.concatenate([A, A * 2], 1), 0)
    close("stack", L("stack.npy"), np.stack([v, v + 1], 1), 1e-6)
    close("exp", L("exp.npy"), np.exp(A), 1e-5)
    close("tanh", L("tanh.npy"), np.tanh(A), 1e-6)
    close("where", L("where.npy"), np.where(A > 0, A, 0), 0)
    close("repeat_interleave", L("rep.npy"), np.repeat([3, 2], 4), 0)
    check("comparison gives bool", L("cmp.npy").dtype == np.bool_ and (L("cmp.npy") == (A > v)).all())
    Cn = np.zeros((3, 4, 5), np.float32)
    Cn[:, :, 1::2] = A[:, :, 1::2]
    Cn[0, 0] = 9
    close("slice assignment", L("setitem.npy"), Cn, 0)
    close("std (unbiased)", L("std.npy"), A.std(0, ddof=1), 1e-5)
    close("var (unbiased)", L("var.npy"), A.var(ddof=1), 1e-5)
    close("tril", L("tril.npy"), np.tril(A[0]), 0)

    # float64 round trip: attn writes <f8 holding the exact doubles, and reads them back unchanged
    attn("""x = torch.tensor([0.1, 1 / 3, 1e-300], dtype=torch.float64); save("d.npy", x)
y = load("d.npy"); save("d2.npy", y * 1)""", d)
    D = L("d.npy")
    check("float64 saves as <f8", D.dtype == np.float64, str(D.dtype))
    check("float64 values exact", (D == np.array([0.1, 1 / 3, 1e-300])).all(), str(D))
    check("float64 load keeps every bit", (L("d2.npy") == D).all() and L("d2.npy").dtype == np.float64)

    # 3. NumPy writes, attn reads (float32, float64, int64, int32, bool, 0-d, empty, 2.0 header)
    arrays = {"f4": np.arange(6, dtype=np.float32).reshape(2, 3) / 4, "f8": np.array([0.1, 0.2]),
              "i8": np.array([[1, -2], [3, 4]], dtype=np.int64), "i4": np.array([5, 6], dtype=np.int32),
              "b1": np.array([True, False]), "zero_d": np.array(2.5, dtype=np.float32),
              "empty": np.zeros((0, 3), dtype=np.float32)}
    for k, a in arrays.items():
        np.save(os.path.join(d, k + ".npy"), a)
    np.lib.format.write_array(open(os.path.join(d, "v2.npy"), "wb"), np.ones(3, np.float32), version=(2, 0))
    out = attn("\n".join(f'x = load("{k}.npy"); print(tuple(x.shape), x.dtype, x.sum().item())' for k in list(arrays) + ["v2"]), d)
    lines = out.strip().split("\n")
    for (k, a), line in zip(list(arrays.items()) + [("v2", np.ones(3))], lines):
        shape, rest = line.split(")", 1)
        dt, total = rest.split()
        want_dt = {"f4": "torch.float32", "f8": "torch.float64", "i8": "torch.int64", "i4": "torch.int64",
                   "b1": "torch.int64", "zero_d": "torch.float32", "empty": "torch.float32", "v2": "torch.float32"}[k]
        got_shape = tuple(int(s) for s in shape.strip("( ").split(",") if s.strip())
        check(f"load {k}.npy shape", got_shape == a.shape, f"{got_shape} != {a.shape}")
        check(f"load {k}.npy sum", abs(float(total) - float(np.sum(a))) < 1e-5, f"{total} != {np.sum(a)}")
        if k != "b1":
            check(f"load {k}.npy dtype", dt == want_dt, f"{dt} != {want_dt}")

finish()

#!/usr/bin/python3
"""The autograd layer's gradients against PyTorch's own on the same inputs: for each case of test_autograd's table,
NumPy writes random float32 inputs and an upstream grad, `test_autograd --ag-check CASE DIR` runs the op and its
backward in attn's C layer, and torch runs the same op and backward; outputs and grads must agree within 1e-5
(relative where larger than 1). Prints one FAIL line per mismatch and 'N passed, N failed' last.

usage: autograd.py TEST_AUTOGRAD_BINARY
"""
import os, subprocess, sys, tempfile
import numpy as np

try:
    import torch
except ImportError:
    print("autograd: python3-torch not installed; skipped")
    print("0 passed, 0 failed")
    sys.exit(0)

BIN = sys.argv[1] if len(sys.argv) > 1 else "build/tests/test_autograd"

# name: (input shapes, positive inputs (for log, sqrt, fractional powers, divisors), torch function of the inputs)
# The arguments (dims, exponents, shapes) and the auxiliary operands (AUX) are those of CASES in
# tests/unit/test_autograd.c.
import torch.nn.functional as F  # noqa: E402
MASK = torch.tensor([[False, True, True, False]])
IDX = torch.tensor([[1, 2, 1], [5, 0, 2]])
TARGET = torch.tensor([1, -100, 3, 1])
TARGET0 = torch.tensor(2)
TARGET3 = torch.tensor([[0, 4, -100], [2, 2, 1]])
TARGET4 = torch.tensor([[[0, 4], [-100, 2], [2, 1]], [[3, 3], [0, 1], [-100, 4]]])
NOISE = torch.tensor([[2., 0, 2, 2], [0, 0, 2, 2], [2, 2, 0, 2]])
ROWS = torch.tensor([False, True, False, False, True, True])
GIDX = torch.tensor([[0, 0], [3, 1], [2, 2]])


def masked_softmax(a):
    X = a * 2
    Xv = X.reshape(-1, a.shape[-1])
    Xv[ROWS] = -1e6
    return torch.softmax(Xv.reshape(a.shape), -1)


def setitem(a, v, view=False):
    Y = a * 3
    if view:
        Y.t()[0] = v
    else:
        Y[1:3] = v
    return Y * a


def masked_fill_inplace(a):
    Z = a * 3
    Z.masked_fill_(MASK, 0.0)
    return Z * a


def inplace_op(op):
    """test_autograd's c_inplace_op: Y = a * 3, then Y.t() *= b, Y.exp_() or Y[1].sigmoid_(); Y * a."""
    def f(a, b=None):
        Y = a * 3
        if op == 0:
            Y.t().mul_(b)
        elif op == 1:
            Y.exp_()
        else:
            Y[1].sigmoid_()
        return Y * a
    return f


def write(op):
    """test_autograd's c_write: Y = a * 3, then Y[:, 1:3].copy_(b), Y.fill_(b) or Y[0].zero_(); Y * a."""
    def f(a, b=None):
        Y = a * 3
        if op == 0:
            Y[:, 1:3].copy_(b)
        elif op == 1:
            Y.fill_(b)
        else:
            Y[0].zero_()
        return Y * a
    return f


AUX = {"masked_softmax": ROWS, "masked_fill_inplace": MASK, "masked_fill": MASK, "embedding": IDX, "embedding_pad": IDX, "cross_entropy": TARGET,
       "cross_entropy_sum": TARGET, "cross_entropy_none": TARGET, "cross_entropy_1d": TARGET0,
       "cross_entropy_3d": TARGET3, "cross_entropy_3d_none": TARGET3, "cross_entropy_4d_sum": TARGET4, "dropout": NOISE, "gather": GIDX, "scatter_add": GIDX, "scatter": GIDX}
CASES = {
    "add": ([(2, 3), (2, 3)], None, lambda a, b: a + b),
    "add_bcast": ([(4, 1, 3), (2, 1)], None, lambda a, b: a + b),
    "sub_bcast": ([(2, 3), (3,)], None, lambda a, b: a - b),
    "mul_bcast": ([(2, 1, 4), (1, 3, 1)], None, lambda a, b: a * b),
    "div_bcast": ([(3, 4), (3, 1)], [False, True], lambda a, b: a / b),
    "mul_scalar": ([(2, 3)], None, lambda a: a * -1.5),
    "rdiv_scalar": ([(2, 3)], [True], lambda a: 2.0 / a),
    "neg": ([(3, 4)], None, lambda a: -a),
    "exp": ([(2, 3, 2)], None, torch.exp),
    "log": ([(3, 4)], [True], torch.log),
    "sqrt": ([(3, 4)], [True], torch.sqrt),
    "sin": ([(3, 4)], None, torch.sin),
    "cos": ([(3, 4)], None, torch.cos),
    "tanh": ([(3, 4)], None, torch.tanh),
    "sigmoid": ([(3, 4)], None, torch.sigmoid),
    "relu": ([(2, 3, 4)], None, torch.relu),
    "abs": ([(3, 4)], None, torch.abs),
    "clamp": ([(3, 4)], None, lambda a: a.clamp(-0.5, 0.5)),
    "clamp_min": ([(3, 4)], None, lambda a: a.clamp(min=0.0)),
    "where": ([(3, 4), (4,)], None, lambda a, b: torch.where(a > 0, a, b)),
    "gelu": ([(3, 4)], None, F.gelu),
    "gelu_tanh": ([(3, 4)], None, lambda a: F.gelu(a, approximate='tanh')),
    "max": ([(3, 4)], None, lambda a: a.max()),
    "min_dim1": ([(3, 4)], None, lambda a: a.min(1)[0]),
    "max_dim0_keep": ([(3, 2, 4)], None, lambda a: a.max(0, keepdim=True)[0]),
    "rsub_scalar": ([(2, 3)], None, lambda a: 1.0 - a),
    "radd_scalar": ([(2, 3)], None, lambda a: 1.5 + a),
    "pow2": ([(3, 4)], None, lambda a: a ** 2.0),
    "pow2_5": ([(3, 4)], [True], lambda a: a ** 2.5),
    "pow_m1": ([(3, 4)], [True], lambda a: a ** -1.0),
    "pow0": ([(5,)], None, lambda a: a ** 0.0),
    "sum": ([(2, 3, 4)], None, lambda a: a.sum()),
    "mean": ([(2, 3, 4)], None, lambda a: a.mean()),
    "sum_dim1": ([(2, 3, 4)], None, lambda a: a.sum(1)),
    "sum_dims02_keep": ([(2, 3, 4)], None, lambda a: a.sum((0, -1), keepdim=True)),
    "mean_dim_last_keep": ([(2, 3, 4)], None, lambda a: a.mean(-1, keepdim=True)),
    "mean_dims20": ([(2, 3, 4)], None, lambda a: a.mean((2, 0))),
    "mm": ([(3, 4), (4, 5)], None, torch.mm),
    "bmm": ([(2, 3, 4), (2, 4, 5)], None, torch.bmm),
    "matmul_3x2": ([(2, 3, 4), (4, 5)], None, torch.matmul),
    "matmul_3x3": ([(2, 3, 4), (2, 4, 5)], None, torch.matmul),
    "matmul_bcast": ([(2, 1, 3, 4), (3, 4, 2)], None, torch.matmul),
    "matmul_2x3": ([(3, 4), (2, 4, 5)], None, torch.matmul),
    "matmul_dot": ([(4,), (4,)], None, torch.matmul),
    "matmul_mv": ([(3, 4), (4,)], None, torch.matmul),
    "matmul_vm": ([(4,), (4, 5)], None, torch.matmul),
    "view": ([(2, 3, 4)], None, lambda a: a.view(6, -1)),
    "reshape": ([(2, 3, 4)], None, lambda a: a.reshape(4, 6)),
    "reshape_copy": ([(3, 4)], None, lambda a: a.transpose(0, 1).reshape(12)),
    "transpose": ([(2, 3, 4)], None, lambda a: a.transpose(1, -1)),
    "permute": ([(2, 3, 4)], None, lambda a: a.permute(2, 0, 1)),
    "expand": ([(3, 1)], None, lambda a: a.expand(2, 3, 4)),
    "unsqueeze": ([(3, 4)], None, lambda a: a.unsqueeze(1)),
    "squeeze_dim": ([(3, 1, 4)], None, lambda a: a.squeeze(1)),
    "squeeze_all": ([(1, 3, 1, 4)], None, lambda a: a.squeeze()),
    "softmax_last": ([(2, 3, 4)], None, lambda a: torch.softmax(a, -1)),
    "softmax_dim0": ([(3, 4)], None, lambda a: torch.softmax(a, 0)),
    "log_softmax": ([(2, 3, 4)], None, lambda a: torch.log_softmax(a, 1)),
    "masked_fill": ([(3, 4)], None, lambda a: a.masked_fill(MASK, -5.0)),
    "cat": ([(2, 3), (2, 1), (2, 2)], None, lambda a, b, c: torch.cat([a, b, c], -1)),
    "cat_dim0": ([(2, 3), (1, 3)], None, lambda a, b: torch.cat([a, b], 0)),
    "stack": ([(2, 3), (2, 3)], None, lambda a, b: torch.stack([a, b], 1)),
    "slice_step": ([(3, 5)], None, lambda a: a[:, 1:5:2]),
    "slice_neg": ([(4, 3)], None, lambda a: a[-3:]),
    "narrow": ([(4, 3)], None, lambda a: a.narrow(0, 1, 2)),
    "select": ([(2, 3, 4)], None, lambda a: a.select(1, -1)),
    "layer_norm": ([(2, 3, 5), (5,), (5,)], None, lambda x, w, b: F.layer_norm(x, (5,), w, b)),
    "layer_norm_2d_plain": ([(2, 3, 4)], None, lambda x: F.layer_norm(x, (3, 4))),
    "layer_norm_wide": ([(3, 40, 24), (24,), (24,)], None, lambda x, w, b: F.layer_norm(x, (24,), w, b)),
    "linear": ([(4, 5), (3, 5), (3,)], None, F.linear),
    "linear_nobias": ([(4, 5), (3, 5)], None, F.linear),
    "linear_3d": ([(2, 3, 5), (4, 5), (4,)], None, F.linear),
    "linear_3d_nobias": ([(2, 3, 5), (4, 5)], None, F.linear),
    "linear_1d": ([(5,), (3, 5), (3,)], None, F.linear),
    "embedding": ([(6, 3)], None, lambda w: F.embedding(IDX, w)),
    "embedding_pad": ([(6, 3)], None, lambda w: F.embedding(IDX, w, padding_idx=2)),
    "cross_entropy": ([(4, 5)], None, lambda x: F.cross_entropy(x, TARGET)),
    "cross_entropy_sum": ([(4, 5)], None, lambda x: F.cross_entropy(x, TARGET, reduction="sum")),
    "cross_entropy_none": ([(4, 5)], None, lambda x: F.cross_entropy(x, TARGET, reduction="none")),
    "cross_entropy_3d": ([(2, 5, 3)], None, lambda x: F.cross_entropy(x, TARGET3)),
    "cross_entropy_3d_none": ([(2, 5, 3)], None, lambda x: F.cross_entropy(x, TARGET3, reduction="none")),
    "cross_entropy_4d_sum": ([(2, 5, 3, 2)], None, lambda x: F.cross_entropy(x, TARGET4, reduction="sum")),
    "cross_entropy_1d": ([(5,)], None, lambda x: F.cross_entropy(x, TARGET0)),
    "mse": ([(3, 4), (3, 4)], None, F.mse_loss),
    "mse_sum": ([(3, 4), (3, 4)], None, lambda x, y: F.mse_loss(x, y, reduction="sum")),
    "mse_none": ([(3, 4), (3, 4)], None, lambda x, y: F.mse_loss(x, y, reduction="none")),
    "dropout": ([(3, 4)], None, lambda x: x * NOISE),
    "masked_softmax": ([(2, 3, 4)], None, masked_softmax),
    "setitem_slice": ([(3, 4), (2, 4)], None, setitem),
    "setitem_view": ([(2, 3), (2,)], None, lambda a, v: setitem(a, v, True)),
    "masked_fill_inplace": ([(3, 4)], None, masked_fill_inplace),
    "mul_inplace_view": ([(2, 3), (3, 2)], None, inplace_op(0)),
    "exp_inplace": ([(2, 3)], None, inplace_op(1)),
    "sigmoid_inplace_view": ([(3, 4)], None, inplace_op(2)),
    "copy_inplace_view": ([(2, 3), (2, 1)], None, write(0)),
    "fill_inplace": ([(2, 3), ()], None, write(1)),
    "zero_inplace_view": ([(2, 3)], None, write(2)),
    "atan": ([(3, 4)], None, torch.atan),
    "asinh": ([(3, 4)], None, torch.asinh),
    "sinh": ([(3, 4)], None, torch.sinh),
    "cosh": ([(3, 4)], None, torch.cosh),
    "erf": ([(3, 4)], None, torch.erf),
    "expm1": ([(3, 4)], None, torch.expm1),
    "exp2": ([(3, 4)], None, torch.exp2),
    "log1p": ([(3, 4)], [True], torch.log1p),
    "log10": ([(3, 4)], [True], torch.log10),
    "rsqrt": ([(3, 4)], [True], torch.rsqrt),
    "silu": ([(3, 4)], None, F.silu),
    "logsigmoid": ([(3, 4)], None, F.logsigmoid),
    "softplus": ([(3, 4)], None, F.softplus),
    "mish": ([(3, 4)], None, F.mish),
    "hardtanh": ([(3, 4)], None, F.hardtanh),
    "var_all": ([(3, 4)], None, torch.var),
    "var_dim1_keep": ([(3, 4)], None, lambda a: a.var(1, keepdim=True)),
    "std_dims_corr0": ([(2, 3, 4)], None, lambda a: a.std((0, 2), unbiased=False)),
    "std_corr2": ([(3, 4)], None, lambda a: torch.std(a, 1, correction=2)),
    "norm2": ([(3, 4)], None, torch.norm),
    "norm2_dim1": ([(3, 4)], None, lambda a: a.norm(dim=1)),
    "norm1": ([(3, 4)], None, lambda a: a.norm(p=1)),
    "norm3_dim0_keep": ([(3, 4)], None, lambda a: a.norm(p=3, dim=0, keepdim=True)),
    "prod": ([(3, 4)], None, torch.prod),
    "prod_dim1": ([(2, 3, 4)], None, lambda a: a.prod(1)),
    "logsumexp": ([(3, 4)], None, lambda a: a.logsumexp(1)),
    "amax_dim0": ([(3, 4)], None, lambda a: a.amax(0)),
    "cumsum": ([(3, 4)], None, lambda a: a.cumsum(1)),
    "flip": ([(3, 4)], None, lambda a: a.flip(1)),
    "tril": ([(3, 4)], None, torch.tril),
    "repeat": ([(2, 3)], None, lambda a: a.repeat(2, 1, 2)),
    "gather": ([(3, 4)], None, lambda a: a.gather(1, GIDX)),
    "maximum": ([(3, 4), (4,)], None, torch.maximum),
    "minimum": ([(3, 4), (3, 4)], None, torch.minimum),
    "add_alpha": ([(3, 4), (4,)], None, lambda a, b: torch.add(a, b, alpha=2.5)),
    "sub_alpha": ([(3, 4), (3, 4)], None, lambda a, b: torch.sub(a, b, alpha=-0.5)),
    "einsum_mm": ([(3, 4), (4, 5)], None, lambda a, b: torch.einsum("ij,jk->ik", a, b)),
    "einsum_bmm": ([(2, 3, 4), (2, 4, 5)], None, lambda a, b: torch.einsum("bij,bjk->bik", a, b)),
    "einsum_rowdot": ([(3, 4), (3, 4)], None, lambda a, b: torch.einsum("ij,ij->i", a, b)),
    "einsum_colsum": ([(3, 4)], None, lambda a: torch.einsum("ij->j", a)),
    "einsum_three": ([(3, 4), (5, 4), (5,)], None, lambda a, b, c: torch.einsum("ij,kj,k->ik", a, b, c)),
    "einsum_implicit": ([(4, 3), (5, 4)], None, lambda a, b: torch.einsum("jb,ij", a, b)),
    "einsum_permute": ([(2, 3, 4)], None, lambda a: torch.einsum("ijk->kij", a)),
    "pow_tensor": ([(3, 4), (4,)], [True, True], lambda a, b: a ** b),
    "atan2": ([(3, 4), (3, 4)], None, torch.atan2),
    "rpow_scalar": ([(3, 4)], None, lambda a: 2.5 ** a),
    "clamp_tensors": ([(3, 4), (3, 4), (4,)], None, lambda x, lo, hi: torch.clamp(x, min=lo, max=hi)),
    "cumprod": ([(3, 4)], None, lambda a: a.cumprod(1)),
    "cumprod_dim0": ([(3, 2, 2)], None, lambda a: torch.cumprod(a, 0)),
    "scatter_add": ([(3, 4), (3, 2)], None, lambda a, b: a.scatter_add(1, GIDX, b)),
    "scatter": ([(3, 4), (3, 2)], None, lambda a, b: a.scatter(1, GIDX, b)),
    "cross": ([(4, 3), (4, 3)], None, lambda a, b: torch.cross(a, b, dim=1)),
    "cross_dim0_bcast": ([(3, 2, 4), (3, 1, 4)], None, lambda a, b: torch.cross(a, b, dim=0)),
    "addmm": ([(5,), (3, 4), (4, 5)], None, lambda s, a, b: torch.addmm(s, a, b, beta=0.5, alpha=2)),
    "addmv": ([(3,), (3, 4), (4,)], None, lambda s, a, b: torch.addmv(s, a, b, beta=0.5)),
    "baddbmm": ([(2, 3, 5), (2, 3, 4), (2, 4, 5)], None, lambda s, a, b: torch.baddbmm(s, a, b, beta=0.5, alpha=-1)),
    "addbmm": ([(3, 5), (2, 3, 4), (2, 4, 5)], None, lambda s, a, b: torch.addbmm(s, a, b, beta=0.5)),
    "chain": ([(3, 4), (5, 4)], None,
              lambda x, y: torch.softmax(x @ y.transpose(0, 1) / 2, -1) * x.exp().sum(1, keepdim=True)),
}

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL autograd: " + what)


def close(a, b):
    """Within 1e-5, relative to the magnitude where it is above 1."""
    if a.shape != b.shape:
        return False, f"shape {a.shape} vs {b.shape}"
    err = np.abs(a.astype(np.float64) - b.astype(np.float64)) / np.maximum(1.0, np.abs(b.astype(np.float64)))
    worst = float(err.max()) if err.size else 0.0
    return worst <= 1e-5, f"max error {worst:.3g}"


listed = subprocess.run([BIN, "--ag-cases"], capture_output=True, text=True)
c_cases = listed.stdout.split()
check(listed.returncode == 0 and sorted(c_cases) == sorted(CASES),
      f"the C table's cases {sorted(set(c_cases) ^ set(CASES))} differ from this script's")
rng = np.random.default_rng(24)
with tempfile.TemporaryDirectory() as tmp:
    for name, (shapes, positive, fn) in CASES.items():
        for trial in range(3):
            d = os.path.join(tmp, f"{name}{trial}")
            os.mkdir(d)
            xs = []
            for i, s in enumerate(shapes):
                if positive and positive[i]:
                    x = rng.uniform(0.5, 1.5, s)
                else:
                    x = rng.uniform(-2, 2, s)
                x = x.astype(np.float32)
                np.save(os.path.join(d, f"in{i}.npy"), x)
                xs.append(torch.tensor(x, requires_grad=True))
            if name in AUX:
                np.save(os.path.join(d, "aux.npy"), AUX[name].numpy())
            y = fn(*xs)
            g = rng.uniform(-1, 1, tuple(y.shape)).astype(np.float32)
            np.save(os.path.join(d, "g.npy"), g)
            y.backward(torch.tensor(g))
            r = subprocess.run([BIN, "--ag-check", name, d], capture_output=True, text=True)
            if r.returncode != 0:
                check(False, f"{name}: the driver failed: {r.stderr.strip()}")
                continue
            ok, why = close(np.load(os.path.join(d, "out.npy")), y.detach().numpy())
            check(ok, f"{name} (trial {trial}): output: {why}")
            for i, x in enumerate(xs):
                ok, why = close(np.load(os.path.join(d, f"grad{i}.npy")), x.grad.numpy())
                check(ok, f"{name} (trial {trial}): grad of input {i}: {why}")
print(f"{passed} passed, {failed} failed")

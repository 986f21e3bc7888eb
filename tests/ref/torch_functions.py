#!/usr/bin/python3
"""Functions checked against PyTorch on random inputs (NumPy writes them, attn computes, PyTorch recomputes):
F.scaled_dot_product_attention against PyTorch 2's documented formula written with PyTorch 1.13 operations (the
Debian version has no fused function), einsum against torch.einsum on many equations, and F.dropout's statistics
(about p of the elements zeroed, the rest scaled by 1/(1-p)). Prints 'N passed, N failed'.

usage: torch_functions.py ATTN_BINARY
"""
import math, re, os, subprocess, sys, tempfile
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, check, close, finish  # noqa: E402

try:
    import torch
except ImportError:
    print("torch_functions: python3-torch is not installed; skipped")
    print("0 passed, 0 failed")
    sys.exit(0)


def sdpa(q, k, v, attn_mask=None, is_causal=False, scale=None):
    """torch.nn.functional.scaled_dot_product_attention as PyTorch 2 documents it (dropout_p = 0)."""
    L, S = q.size(-2), k.size(-2)
    scale_factor = 1 / math.sqrt(q.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=q.dtype)
    if is_causal:
        temp_mask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=0)
        attn_bias.masked_fill_(temp_mask.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias = attn_bias.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_bias + attn_mask
    w = q @ k.transpose(-2, -1) * scale_factor
    w = w + attn_bias
    return torch.softmax(w, dim=-1) @ v


rng = np.random.default_rng(5)
arrays = {
    "q": rng.standard_normal((2, 3, 5, 8)).astype(np.float32),
    "k": rng.standard_normal((2, 3, 7, 8)).astype(np.float32),
    "v": rng.standard_normal((2, 3, 7, 4)).astype(np.float32),
    "bm": rng.random((5, 7)) < 0.7,
    "fm": rng.standard_normal((2, 1, 5, 7)).astype(np.float32),
    "A": rng.standard_normal((3, 4)).astype(np.float32),
    "B": rng.standard_normal((4, 5)).astype(np.float32),
    "C": rng.standard_normal((2, 3, 4)).astype(np.float32),
    "D": rng.standard_normal((2, 4, 3)).astype(np.float32),
    "E": rng.standard_normal((4, 4)).astype(np.float32),
    "v4": rng.standard_normal(4).astype(np.float32),
    "I": rng.integers(-5, 5, (3, 4)).astype(np.int64),
    "J": rng.integers(-5, 5, (4, 2)).astype(np.int64),
}
arrays["bm"][:, 0] = True      # every query sees at least one key (an all -inf row is NaN in both)

SDPA = {
    "plain": ("q, k, v", {}),
    "bool": ("q, k, v, attn_mask=bm", {"attn_mask": "bm"}),
    "float": ("q, k, v, attn_mask=fm", {"attn_mask": "fm"}),
    "causal": ("q, k[:, :, :5], v[:, :, :5], is_causal=True", {"is_causal": True, "short": True}),
    "scale": ("q, k, v, scale=0.5", {"scale": 0.5}),
    "3d": ("q[0], k[0], v[0]", {"first": True}),
}
EINSUM = [
    ("ij,jk->ik", "A, B"), ("ij,jk", "A, B"), ("bij,bjk->bik", "C, D"), ("bij,bjk->ik", "C, D"), ("ii->i", "E"),
    ("ii", "E"), ("ij->ji", "A"), ("i,i->", "v4, v4"), ("i,j->ij", "v4, v4"), ("...j,j->...", "C, v4"),
    ("bij->b", "C"), ("ij,kj->ik", "A, A"), ("ij,jk,kl->il", "A, B, B.T"), ("ij,jk->ik", "I, J"), ("b...,b...->b", "C, C"),
    ("ji", "A"), ("bhqd,bhkd->bhqk", "q, k"),
]

with tempfile.TemporaryDirectory() as d:
    for name, a in arrays.items():
        np.save(os.path.join(d, name + ".npy"), a)
    lines = ["import torch.nn.functional as F"] + [f'{n} = load("{n}.npy")' for n in arrays]
    for name, (call, _) in SDPA.items():
        lines.append(f'save("sdpa_{name}.npy", F.scaled_dot_product_attention({call}))')
    # gradients: the same calls on leaves that require grad, backward of a fixed weighting of the output
    lines.append("qg, kg, vg = q.clone().requires_grad_(), k.clone().requires_grad_(), v.clone().requires_grad_()")
    for name, (call, _) in SDPA.items():
        gcall = re.sub(r"\b([qkv])\b", r"\1g", call)
        lines.append(f"o = F.scaled_dot_product_attention({gcall})\n"
                     f"(o * torch.cos(torch.arange(o.numel(), dtype=torch.float32)).reshape(o.shape)).sum().backward()")
        for t in "qkv":
            lines.append(f'save("sdpag_{name}_{t}.npy", {t}g.grad)\n{t}g.grad = None')
    for i, (eq, ops) in enumerate(EINSUM):
        lines.append(f'save("ein{i}.npy", torch.einsum("{eq}", {ops}))')
    lines.append('torch.manual_seed(3)\nX = torch.ones(200, 100)\nY = F.dropout(X, 0.3)\nsave("drop.npy", Y)')
    lines.append('save("drop_eval.npy", F.dropout(X, 0.3, training=False))')
    with open(os.path.join(d, "calls.py"), "w") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run([ATTN, "calls.py"], cwd=d, capture_output=True, text=True, timeout=300)
    check("attn ran every call", r.returncode == 0, r.stderr.strip()[:400])
    T = {n: torch.from_numpy(a) for n, a in arrays.items()}
    L = lambda n: np.load(os.path.join(d, n))
    for name, (call, _) in SDPA.items():
        q, k, v = T["q"], T["k"], T["v"]
        if name == "plain": want = sdpa(q, k, v)
        elif name == "bool": want = sdpa(q, k, v, attn_mask=T["bm"])
        elif name == "float": want = sdpa(q, k, v, attn_mask=T["fm"])
        elif name == "causal": want = sdpa(q, k[:, :, :5], v[:, :, :5], is_causal=True)
        elif name == "scale": want = sdpa(q, k, v, scale=0.5)
        else: want = sdpa(q[0], k[0], v[0])
        if os.path.exists(os.path.join(d, f"sdpa_{name}.npy")):
            close(f"scaled_dot_product_attention {name}", L(f"sdpa_{name}.npy"), want.numpy(), 2e-6)
        else:
            check(f"scaled_dot_product_attention {name}", False, "attn saved nothing")
    for name, (call, _) in SDPA.items():
        g = {t: T[t].clone().requires_grad_() for t in "qkv"}
        q, k, v = g["q"], g["k"], g["v"]
        if name == "plain": o = sdpa(q, k, v)
        elif name == "bool": o = sdpa(q, k, v, attn_mask=T["bm"])
        elif name == "float": o = sdpa(q, k, v, attn_mask=T["fm"])
        elif name == "causal": o = sdpa(q, k[:, :, :5], v[:, :, :5], is_causal=True)
        elif name == "scale": o = sdpa(q, k, v, scale=0.5)
        else: o = sdpa(q[0], k[0], v[0])
        (o * torch.cos(torch.arange(o.numel(), dtype=torch.float32)).reshape(o.shape)).sum().backward()
        for t in "qkv":
            path = os.path.join(d, f"sdpag_{name}_{t}.npy")
            if os.path.exists(path):
                close(f"scaled_dot_product_attention {name}: the gradient of {t}", L(f"sdpag_{name}_{t}.npy"), g[t].grad.numpy(), 1e-5)
            else:
                check(f"scaled_dot_product_attention {name}: the gradient of {t}", False, "attn saved nothing")
    for i, (eq, ops) in enumerate(EINSUM):
        env = dict(T, torch=torch)
        want = eval(f"torch.einsum('{eq}', {ops})", env)
        path = os.path.join(d, f"ein{i}.npy")
        if not os.path.exists(path):
            check(f"einsum {eq}", False, "attn saved nothing")
            continue
        got = L(f"ein{i}.npy")
        check(f"einsum {eq} dtype", str(got.dtype) == str(want.numpy().dtype), f"{got.dtype} vs {want.numpy().dtype}")
        close(f"einsum {eq}", got, want.numpy(), 2e-5)
    Y = L("drop.npy")
    zeros = float((Y == 0).mean())
    check("F.dropout zeroes about p = 0.3 of 20000 elements", abs(zeros - 0.3) < 0.02, f"{zeros}")
    check("F.dropout scales the kept ones by 1/(1-p)", np.allclose(Y[Y != 0], 1 / 0.7), str(np.unique(Y)))
    check("F.dropout(training=False) is the identity", (L("drop_eval.npy") == 1).all())
# dir(X) is discovery: every name it lists is an attribute PyTorch's tensors have (attn offers nothing PyTorch has
# not), and the methods the chapter uses are there
from refcheck import attn  # noqa: E402
listed = attn("print(' '.join(dir(torch.zeros(2, 2))))", tempfile.gettempdir()).split()
extra = [n for n in listed if n not in set(dir(torch.Tensor))]
check("dir(X) lists only PyTorch's tensor attributes", listed and not extra, f"not PyTorch's: {extra}")
chapter = {"reshape", "transpose", "permute", "softmax", "sum", "bmm", "repeat_interleave", "shape", "T", "unsqueeze"}
check("dir(X) lists the chapter's methods", chapter <= set(listed), f"missing: {sorted(chapter - set(listed))}")
finish()

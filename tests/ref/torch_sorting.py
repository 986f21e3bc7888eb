#!/usr/bin/python3
"""Sorting against PyTorch, ties included: NumPy writes random inputs full of equal values (and NaNs in the float
ones) of many lengths, attn runs sort / argsort / topk / kthvalue / median / mode / max / min on them and saves the
results, and PyTorch runs the same calls on the same inputs. Values and indices must be identical: which of equal
elements comes first is part of PyTorch's answer. Prints 'N passed, N failed'.

usage: torch_sorting.py ATTN_BINARY
"""
import os, subprocess, sys, tempfile
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcheck import ATTN, check, finish  # noqa: E402

try:
    import torch
except ImportError:
    print("torch_sorting: python3-torch is not installed; skipped")
    print("0 passed, 0 failed")
    sys.exit(0)

rng = np.random.default_rng(11)
CASES = []
for n in [1, 2, 3, 5, 7, 15, 16, 17, 20, 33, 64, 65, 100, 129, 200, 700]:
    for kind in ["int", "float", "nan"]:
        if kind == "int":
            a = rng.integers(0, max(2, n // 4), size=(3, n)).astype(np.int64)
        else:
            a = rng.integers(0, max(2, n // 3), size=(3, n)).astype(np.float32) / 2
            if kind == "nan":
                a[rng.random(a.shape) < 0.1] = np.nan
        CASES.append((f"{kind}{n}", a))

CALLS = {
    "sort": "torch.sort(X)", "sortd": "torch.sort(X, descending=True)", "sorts": "torch.sort(X, stable=True)",
    "sort0": "torch.sort(X, dim=0, descending=True)", "argsort": "torch.argsort(X, dim=1)",
    "topk1": "torch.topk(X, 1)", "topk3": "torch.topk(X, min(3, X.shape[1]))",
    "topkl": "torch.topk(X, min(2, X.shape[1]), largest=False)", "topkall": "torch.topk(X, X.shape[1])",
    "kth": "torch.kthvalue(X, (X.shape[1] + 1) // 2)", "kth1": "torch.kthvalue(X, 1, 1, True)",
    "median": "torch.median(X, 1)", "median0": "torch.median(X, dim=0)", "medianall": "torch.median(X)",
    "mode": "torch.mode(X)", "max": "torch.max(X, 1)", "min": "torch.min(X, dim=1, keepdim=True)",
}

with tempfile.TemporaryDirectory() as d:
    lines = []
    for name, a in CASES:
        np.save(os.path.join(d, name + ".npy"), a)
        lines.append(f'X = load("{name}.npy")')
        for cname, call in CALLS.items():
            if name.startswith("nan") and cname == "mode":
                continue      # mode's answer with NaNs depends on comparisons that are all false: not a contract
            lines.append(f"r = {call}")
            if cname in ("argsort", "medianall"):
                lines.append(f'save("{name}_{cname}_v.npy", r)')
            else:
                lines.append(f'save("{name}_{cname}_v.npy", r.values); save("{name}_{cname}_i.npy", r.indices)')
    with open(os.path.join(d, "calls.py"), "w") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run([ATTN, "calls.py"], cwd=d, capture_output=True, text=True, timeout=600)
    check("attn ran every call", r.returncode == 0, r.stderr.strip()[:400])
    for name, a in CASES:
        X = torch.from_numpy(a)
        for cname, call in CALLS.items():
            if name.startswith("nan") and cname == "mode":
                continue
            want = eval(call, {"torch": torch, "X": X, "min": min})
            path = os.path.join(d, f"{name}_{cname}_v.npy")
            if not os.path.exists(path):
                check(f"{cname} on {name}", False, "attn saved no result")
                continue
            got_v = np.load(path)
            if cname not in ("argsort", "medianall"):
                wv, wi = want[0].numpy(), want[1].numpy()
                got_i = np.load(os.path.join(d, f"{name}_{cname}_i.npy"))
                same_v = got_v.shape == wv.shape and np.array_equal(got_v, wv, equal_nan=True)
                same_i = got_i.shape == wi.shape and np.array_equal(got_i, wi)
                check(f"{cname} on {name}", same_v and same_i,
                      f"values {'ok' if same_v else 'differ'}, indices {'ok' if same_i else f'{got_i.ravel()[:12]} vs {wi.ravel()[:12]}'}")
            else:
                wv = want.numpy()
                check(f"{cname} on {name}", got_v.shape == wv.shape and np.array_equal(got_v, wv, equal_nan=True), f"{got_v} vs {wv}")
finish()

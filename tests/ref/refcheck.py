"""Helpers shared by the reference checks: counting checks, comparing arrays, running attn."""
import os, subprocess, sys

import numpy as np

ATTN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./attn")
counts = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    counts["passed" if ok else "failed"] += 1
    if not ok:
        print(f"FAIL {name}: {detail}")


def close(name, got, want, tol=1e-5):
    """Arrays (or tensors) equal in shape and within tol everywhere."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return check(name, False, f"shape {got.shape} != {want.shape}")
    err = float(np.max(np.abs(got - want))) if got.size else 0.0
    check(name, err <= tol, f"max |diff| = {err:g} > {tol:g}")


def attn(code, cwd, timeout=120, env=None):
    """Runs attn -c CODE in cwd and returns its output; raises when a statement failed."""
    r = subprocess.run([ATTN, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       env=dict(os.environ, **(env or {})))
    if r.returncode != 0:
        raise RuntimeError(f"attn failed on {code[:60]!r}: {r.stderr.strip()}")
    return r.stdout


def finish():
    print(f"{counts['passed']} passed, {counts['failed']} failed")
    sys.exit(1 if counts["failed"] else 0)

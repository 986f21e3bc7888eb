#!/usr/bin/python3
"""Python's sets, attn against python3 itself: random programs of set displays (folded constants included), set(),
comprehensions, add/discard/pop/clear/copy/update, | & - ^ and their in-place and method forms, comparisons and
len/in, on ints and tuples of ints (whose hashes, hence orders, CPython fixes; string hashes are randomised). Each
program prints the sets after every step, so the order of iteration, printing and pop() must be CPython's.
Prints 'N passed, N failed' over the programs.

usage: python_sets.py ATTN_BINARY [PROGRAMS]
"""
import random, subprocess, sys, tempfile, os


def program(seed):
    r = random.Random(seed)

    def lit():
        n = r.choice([0, 1, 2, 3, 4, 5, 6, 8, 12, 20])
        big = r.choice([8, 16, 40, 100, 1000, 2 ** 33])
        els = [str(r.randrange(-big, big)) for _ in range(n)]
        if r.random() < 0.3:
            els = [e if r.random() < 0.5 else f"({e}, {r.randrange(5)})" for e in els]
        if n == 0:
            return "set()"
        if r.random() < 0.3:
            return "set([" + ", ".join(els) + "])"
        if r.random() < 0.2:                 # not all constants: CPython builds it without folding
            return "{" + ", ".join(els[:-1] + ["k"]) + "}"
        return "{" + ", ".join(els) + "}"

    lines = ["k = 7"] + [f"{v} = {lit()}" for v in "abc"]
    for _ in range(40):
        x, y = r.choice("abc"), r.choice("abc")
        c, val = r.randrange(14), r.randrange(-50, 50)
        lines.append([
            f"{x}.add({val})", f"{x}.discard({val})", f"print({x}.pop() if {x} else None)",
            f"print({x} | {y}, {x} & {y}, {x} - {y}, {x} ^ {y})", f"{x} |= {y}", f"{x} &= {y}", f"{x} -= {y}",
            f"{x} ^= {y}", f"{x} = {lit()}",
            f"print({x}.union([{val}, {val + 1}]), {x}.intersection(range(-10, 10)), {x}.difference([{val}]), "
            f"{x}.symmetric_difference(range({val % 5})))",
            f"{x} = {{v * {r.randrange(1, 9)} for v in range({r.randrange(30)})}}",
            f"print({x} <= {y}, {x} < {y}, {x} >= {y}, {x} == {y}, len({x}), {val} in {x})",
            f"{x} = {x}.copy(); {x}.update(range({val % 9}), [{val}])",
            f"{x}.clear() if len({x}) > 30 else {x}.difference_update([{val}, {val + 2}])"][c])
        lines.append(f"print({x})")
    return "\n".join(lines) + "\n"


def main():
    attn = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "sets.py")
        for seed in range(n):
            with open(path, "w") as f:
                f.write(program(seed))
            want = subprocess.run([sys.executable, path], capture_output=True, text=True).stdout
            got = subprocess.run([attn, path], capture_output=True, text=True, timeout=60).stdout
            if want == got and want:
                passed += 1
                continue
            failed += 1
            if failed <= 3:
                print(f"FAILED: program {seed}")
                for i, (w, g) in enumerate(zip(want.split("\n"), got.split("\n"))):
                    if w != g:
                        print(f"  output line {i + 1}: python3 {w!r}\n  {' ' * len(str(i + 1))}             attn {g!r}")
                        break
    print(f"{passed} passed, {failed} failed")
    return failed == 0


if __name__ == "__main__":
    sys.exit(0 if main() else 1)

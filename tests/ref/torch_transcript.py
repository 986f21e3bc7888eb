#!/usr/bin/python3
"""Checks golden transcripts against real PyTorch (Debian's python3-torch): every `attn>` step of a transcript
marked `<!-- reference: pytorch -->` is run by Python as at its interactive prompt, and what PyTorch prints must
match the expected output written in the file (numbers to the precision written there, as attn --check does).
So the expected text is PyTorch's, not attn's. Where PyTorch raises, the step's first expected line must be
"error: " and PyTorch's exact message, optionally followed by attn's hint in parentheses (attn's source line and
caret under it follow and are not compared); Python's `KeyError: K` is attn's "key K is not in the dict".

usage: torch_transcript.py [--write] FILE...
  --write   fill the expected output from PyTorch (for a new transcript; review before committing)
Exit status 0 when every step matches; prints 'N passed, N failed' over the steps.
"""
import builtins
import contextlib, io, math, os, re, sys, traceback

try:
    import torch
except ImportError:
    print("torch_transcript: python3-torch is not installed; skipped")
    sys.exit(0)


def parse(path):
    """Steps of every ```attn block; a step is 'checked' when the whole file is marked for PyTorch or its block is
    tagged ```attn pytorch. Lesson question answers become unchecked steps (they define variables)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    whole = "<!-- reference: pytorch -->" in lines
    steps, cur, in_block, other, tagged, question = [], None, False, False, False, False
    fence = 0      # backticks of the open fence: as CommonMark (and attn's mdblock.c), only as many or more close it
    for i, l in enumerate(lines):
        m = re.match(r" {0,3}(`{3,})\s*(.*?)\s*$", l)
        if m and (in_block or other) and len(m.group(1)) >= fence and not m.group(2):
            other = question = in_block = False
            cur = None
            continue
        if m and not (in_block or other):
            lang, fence = m.group(2), len(m.group(1))
            if lang.split()[:1] == ["attn"]:
                in_block, tagged = True, whole or lang.split()[1:2] == ["pytorch"]
            else:
                other, question = True, lang.split()[:1] == ["question"]
            continue
        if other and question and l.startswith("answer:") and not any(s.get("answer") for s in steps[-1:] if s.get("qline") == i):
            steps.append({"input": [l[7:].strip()], "line": i, "expected": [], "first_out": i + 1, "checked": False, "answer": True, "qline": i})
            question = False      # only the first answer: line defines the variables
            continue
        if not in_block:
            continue
        if l.startswith("attn> "):
            cur = {"input": [l[6:]], "line": i, "expected": [], "first_out": i + 1, "checked": tagged}
            steps.append(cur)
        elif (l.startswith("  ...> ") or l == "  ...>") and cur and not cur["expected"]:
            cur["input"].append(l[7:])
            cur["first_out"] = i + 1
        elif cur:
            cur["expected"].append(l)
    return lines, steps


NUM = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def tokens(line):
    out, pos = [], 0
    for m in NUM.finditer(line):
        if m.start() > 0 and (line[m.start() - 1].isalnum() or line[m.start() - 1] == "_"):
            continue
        out += line[pos:m.start()].split()
        s = m.group(0)
        dec = len(s.split(".")[1].split("e")[0].split("E")[0]) if "." in s else 0
        exp = int(re.split("[eE]", s)[1]) if re.search("[eE]", s) else 0
        out.append((float(s), dec, exp))
        pos = m.end()
    out += line[pos:].split()
    return out


def raised_all(actual):
    """The ways attn may word PyTorch's exception when the step raised (the first is written by --write), else
    None. Python's `KeyError: 1` is attn's "key 1 is not in the dict" (or "in the set"); a KeyError that carries a
    message rather than a key (`KeyError: 'pop from an empty set'`) is that message."""
    if not actual.startswith("PYTORCH RAISED: "):
        return None
    line = actual[len("PYTORCH RAISED: "):].strip()
    if line.startswith("KeyError: "):
        key = line[len("KeyError: "):]
        if re.fullmatch(r"'[^']* [^']*'", key):
            return [key[1:-1]]
        return [f"key {key} is not in the {c}" for c in ("dict", "set")]
    cls = line.split(":", 1)[0]
    if re.fullmatch(r"[A-Za-z_]\w*", cls) and not hasattr(builtins, cls):
        return [line]           # the student's exception class: attn prints Python's line, "MyError: x"
    return [line.split(": ", 1)[1] if ": " in line else line]


def raised(actual):
    """PyTorch's exception message when the step raised, else None."""
    msgs = raised_all(actual)
    return msgs[0] if msgs else None


def match(expected, actual):
    msgs = raised_all(actual)
    if msgs is not None:
        # an error step: attn prints "error: <PyTorch's message>" then the line and a caret under it
        first = expected.split("\n", 1)[0]
        return any(first == "error: " + msg or first.startswith("error: " + msg + " (") for msg in msgs)
    e = [l for l in expected.rstrip("\n ").split("\n")] if expected.strip() else []
    a = [l for l in actual.rstrip("\n ").split("\n")] if actual.strip() else []
    if len(e) != len(a):
        return False
    for le, la in zip(e, a):
        te, ta = tokens(le), tokens(la)
        if len(te) != len(ta):
            return False
        for x, y in zip(te, ta):
            if isinstance(x, tuple) and isinstance(y, tuple):
                tol = 10.0 ** (x[2] - x[1]) * 1.0000001
                if abs(x[0] - y[0]) > tol:
                    return False
            elif x != y:
                return False
    return True


def run_steps(steps):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import types
    import d2l_book
    pkg = types.ModuleType("d2l")          # `from d2l import torch as d2l` finds the book's code
    pkg.torch = d2l_book
    sys.modules.setdefault("d2l", pkg)
    sys.modules.setdefault("d2l.torch", d2l_book)
    ns = {"torch": torch, "math": math, "d2l": d2l_book}
    exec("from torch import nn", ns)
    exec("import torch.nn.functional as F", ns)     # attn predefines F as it does nn
    outs = []
    for s in steps:
        src = "\n".join(s["input"]) + "\n"
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            try:
                exec(compile(src, "<attn>", "single"), ns)
            except Exception:
                buf.write("PYTORCH RAISED: " + traceback.format_exc().strip().split("\n")[-1] + "\n")
        # torch.manual_seed(0) at Python's prompt echoes its Generator, at an address that changes every run;
        # attn prints nothing for it (a lesson seeds in its PyTorch blocks too)
        outs.append(re.sub(r"^<torch\._C\.Generator object at 0x[0-9a-f]+>\n", "", buf.getvalue(), flags=re.M))
    return outs


def main(argv):
    write = "--write" in argv
    files = [a for a in argv if a != "--write"]
    passed = failed = 0
    for path in files:
        lines, steps = parse(path)
        if not any(s["checked"] for s in steps):
            continue
        torch.set_printoptions(profile="default")
        outs = run_steps(steps)
        if write:
            # an error keeps the source line and caret written under it before (attn's own, not PyTorch's)
            outs = ["error: " + raised(o) + "\n" + "".join(l + "\n" for l in st["expected"][1:] if st["expected"][:1] and st["expected"][0].startswith("error: "))
                    if raised(o) is not None else o for st, o in zip(steps, outs)]
            starts = {st["first_out"]: (len(st["expected"]), out) for st, out in zip(steps, outs) if st["checked"]}
            new, i = [], 0
            while i < len(lines):
                if i in starts:
                    skip, out = starts.pop(i)
                    new += out.rstrip("\n").split("\n") if out.strip() else []
                    i += skip
                    continue
                new.append(lines[i])
                i += 1
            open(path, "w", encoding="utf-8").write("\n".join(new))
            print(f"{path}: wrote {len(steps)} steps from PyTorch {torch.__version__}")
            continue
        for s, out in zip(steps, outs):
            if not s["checked"]:
                continue
            exp = "\n".join(s["expected"])
            if match(exp, out):
                passed += 1
            else:
                failed += 1
                print(f"FAIL {path}:{s['first_out'] + 1}: PyTorch prints otherwise")
                print(f"--- {path}:{s['first_out'] + 1} (expected in the file)\n+++ PyTorch {torch.__version__}")
                print(" attn> " + " / ".join(s["input"]))
                for l in exp.rstrip("\n").split("\n"):
                    print("-" + l)
                for l in out.rstrip("\n").split("\n"):
                    print("+" + l)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

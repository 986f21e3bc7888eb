#!/usr/bin/python3
"""help_check.py - what `help` promises a student, checked against Python and PyTorch themselves:
 1. `help` fits one 80x24 screen (with the line typed and the next prompt) in English, Japanese and Chinese, so its
    first lines (how to call functions, help NAME, lesson) are not scrolled away; every line within 80 columns.
 2. `help torch`, `help nn`, `help F`, `help d2l`, `help math`, `help python` list names that exist where the
    student would type them: in PyTorch 1.13's torch, torch.nn, torch.nn.functional, in Python's math and builtins
    (d2l's against the book's d2l.torch names the real d2l package has, when it is installed); `help attn` lists no
    name that Python or PyTorch has at top level. `help Tensor` lists names a real tensor has.
 3. Every name a listing shows gives help when typed as listed (`help torch.float32`, `help X.shape`): no listed
    name answers "no help", and a dtype says which one (torch.float is torch.float32, as PyTorch's repr says).
 4. help(f) of a student's def shows the signature inspect.signature gives in Python and its docstring; help(C) of
    a class shows its docstring and its methods' signatures; help(X) is help Tensor, help(torch) is help torch.
usage: help_check.py ATTN_BINARY        prints 'N passed, N failed'
"""
import builtins, inspect, math, os, re, subprocess, sys, unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
from refcheck import ATTN, check, finish  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def columns(line):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def run(script, lang="C.UTF-8"):
    env = dict(os.environ, LANG=lang)
    for k in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        env.pop(k, None)
    r = subprocess.run([ATTN], input=script, capture_output=True, text=True, timeout=120, env=env)
    return r.stdout + r.stderr


def listing(topic):
    """The names `help TOPIC` lists, as typed."""
    out = run(f"help {topic}\n")
    lines = out.split("\n")
    names = lines[1:lines.index("", 1)] if "" in lines[1:] else lines[1:]     # a note may follow a blank line
    return out, [n for l in names for n in l.split()]


# 1. the overview fits a screen
for lang in ("C.UTF-8", "ja_JP.UTF-8", "zh_CN.UTF-8"):
    out = run("help\n", lang).rstrip("\n").split("\n")
    wide = [l for l in out if columns(l) > 80]
    check(f"{lang}: help fits 80x24 with the typed line and the next prompt ({len(out)} lines)", len(out) <= 22,
          "\n".join(out))
    check(f"{lang}: every line of help within 80 columns", not wide, wide[:2])
    check(f"{lang}: help names every module listing",
          all(f"help {t}" in "\n".join(out) for t in ("torch", "nn", "F", "d2l", "math", "python", "Tensor", "training")),
          out[-4:])

# 2. listings name what exists, where the student types it (or in a later PyTorch, for what came after the chapter)
LATER = {"F.scaled_dot_product_attention"}      # PyTorch 2.0
torch_names = set(dir(torch))
nn_names = set(dir(torch.nn))
f_names = set(dir(F))
math_names = set(dir(math))
py_names = set(dir(builtins))
for topic, prefix, real in [("torch", "torch.", torch_names), ("nn", "nn.", nn_names), ("F", "F.", f_names),
                            ("math", "math.", math_names), ("python", "", py_names)]:
    out, names = listing(topic)
    bad = [n for n in names if (not n.startswith(prefix) or n[len(prefix):] not in real) and n not in LATER]
    check(f"help {topic}: lists {len(names)} names, each one {prefix or 'builtins.'}NAME exists in Python/PyTorch",
          len(names) >= 10 and not bad, bad[:10])
    check(f"help {topic}: every line within 80 columns", all(columns(l) <= 80 for l in out.split("\n")), out[:300])
out, names = listing("attn")
check("help attn: attn's own tools, none of them a Python builtin",
      len(names) >= 10 and not [n for n in names if n in py_names], names)
out, names = listing("Tensor")
x = torch.ones(2, 2)
bad = [n for n in names if not n.startswith("X.") or not hasattr(x, n[2:])]
check(f"help Tensor: lists {len(names)} names, each one an attribute or method of a real tensor",
      len(names) >= 100 and not bad, bad[:10])
try:
    import d2l.torch as d2l_real  # noqa: E402
    out, names = listing("d2l")
    bad = [n for n in names if not hasattr(d2l_real, n[4:])]
    check("help d2l: every name exists in the book's d2l.torch", not bad, bad[:10])
except ImportError:
    out, names = listing("d2l")
    check("help d2l: lists the book's d2l functions", {"d2l.plot", "d2l.masked_softmax", "d2l.PositionalEncoding"} <=
          set(names), names[:20])

# help training: where a training loop's pieces are; every name it gives exists in PyTorch (or the book's d2l) and
# has help as written; help d2l points to it after its listing
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref"))
import d2l_book  # noqa: E402
for lang in ("C.UTF-8", "ja_JP.UTF-8", "zh_CN.UTF-8"):
    out = run("help training\n", lang)
    named = sorted(set(re.findall(r"\b(?:torch|nn|F|d2l)\.[A-Za-z_.]*[A-Za-z_]", out)))
    real = {"torch": torch, "nn": torch.nn, "F": F, "d2l": d2l_book}
    missing = []
    for n in named:
        obj = real[n.split(".")[0]]
        for part in n.split(".")[1:]:
            obj = getattr(obj, part, None)
        if obj is None:
            missing.append(n)
    check(f"{lang}: help training names {len(named)} things, each one in PyTorch or the book's d2l",
          len(named) >= 15 and not missing and all(columns(l) <= 80 for l in out.split("\n")), missing or out)
    helped = run("".join(f"help {n}\n" for n in named), lang)
    check(f"{lang}: every name help training gives has its help", "no help for" not in helped,
          re.findall(r"no help for '[^']*'", helped))
out = run("help d2l\n")
check("help d2l: after the names, where training is (d2l.Trainer, help training)",
      "\n\nTraining (§3.2): d2l.Module, d2l.DataModule and d2l.Trainer" in out and "help training" in out, out[-300:])

# 3. every listed name has help, in one run of attn per listing
for topic in ("torch", "nn", "F", "d2l", "math", "python", "attn", "Tensor"):
    _, names = listing(topic)
    out = run("".join(f"help {n}\n" for n in names))
    missing = re.findall(r"no help for '([^']*)'", out)
    check(f"help {topic}: every one of its {len(names)} names gives help as listed", names and not missing, missing[:10])
for typed, real in [("torch.float", torch.float), ("torch.long", torch.long), ("torch.bool", torch.bool),
                    ("d2l.float32", torch.float32)]:
    out = run(f"help {typed}\n")
    check(f"help {typed}: a dtype, {real}", f"A dtype, {real}:" in " ".join(out.split()), out)
out = run("help math.pi\n")
check("help math.pi: the constant's value as Python has it", repr(math.pi) in out, out)
out = run("help torch.print\n")
check("help torch.print: torch has no print, so no help (not Python's print)", "no help for 'torch.print'" in out, out)


# 4. a student's def and class; help(X), help(torch)
def f(x, y=2, *rest, scale=0.5, name="q", **kw):
    """Adds x and y, scaled."""
    return (x + y) * scale


src = '''def f(x, y=2, *rest, scale=0.5, name="q", **kw):
    """Adds x and y, scaled."""
    return (x + y) * scale

class PE(nn.Module):
    """Positional encoding."""
    def __init__(self, num_hiddens, dropout, max_len=1000):
        super().__init__()
    def forward(self, X):
        return X

pe = PE(4, 0)
'''
out = run(src + "help(f)\n")
want = "f" + str(inspect.signature(f))
check("help(f): the signature Python's inspect gives, then the docstring",
      out.split("\n")[:2] == [want, "  " + f.__doc__], (out, want))
out = run(src + "help f\n")
check("help f (the command) is help(f)", out.split("\n")[0] == want, out)
out = run(src + "help(PE)\n")
check("help(PE): the class, its base, docstring and methods",
      out.startswith("class PE(nn.Module)\n  Positional encoding.\n") and
      "    __init__(self, num_hiddens, dropout, max_len=1000)\n" in out and "    forward(self, X)\n" in out, out)
check("help(pe) of an object is its class's help", run(src + "help(pe)\n") == out, run(src + "help(pe)\n"))
x_out = run("X = torch.ones(2)\nhelp(X)\n")
check("help(X) of a tensor is help Tensor", x_out == run("help Tensor\n") and "X.reshape" in x_out, x_out[:200])
check("help(torch) is help torch", run("help(torch)\n") == run("help torch\n"), run("help(torch)\n")[:200])
check("help(nn) is help nn", run("help(nn)\n") == run("help nn\n"), run("help(nn)\n")[:200])
# 5. what a reviewer found: each name explains the function it is where it is typed
for typed, want in [("help('X.sum')", "torch.sum(input"), ("t = torch.ones(2)\nhelp(t.sum)", "torch.sum(input"),
                    ("help('torch.Tensor.reshape')", "X.reshape(*shape)"), ("help('nn.functional.softmax')", "F.softmax(input, dim=None, _stacklevel=3, dtype=None)"),
                    ("help(torch.float)", "A dtype, torch.float32"), ("t = torch.ones(2)\nhelp(t.shape)", "class torch.Size"),
                    ("help random", "What random offers"), ("m = nn.Linear(2, 2)\nhelp(m.parameters)", "parameters(recurse=True)")]:
    out = run(typed + "\n")
    check(f"{typed!r} explains {want!r}", want in " ".join(out.split()) and "error" not in out, out)
out = run("class D(d2l.Module):\n    pass\n\nhelp(D)\n")
check("help of a class on d2l.Module names its base as typed", out.startswith("class D(d2l.Module)"), out)


class M:
    """
    One line.

    Two lines,
      indented.
    """


src_m = 'class M:\n    """\n    One line.\n\n    Two lines,\n      indented.\n    """\n\nhelp(M)\n'
out = run(src_m)
want = "\n".join(("  " + l) if l else "" for l in inspect.cleandoc(M.__doc__).split("\n"))
check("a docstring shows as inspect.cleandoc gives it", "\n" + want + "\n" in out, (out, want))
out = run("X = torch.zeros(262144)\nhelp(X)\n").strip()
r = subprocess.run([ATTN], input="X = torch.zeros(262144)\nhelp(X)\n", capture_output=True, text=True, timeout=60,
                   env=dict(os.environ, ATTN_MEMORY_LIMIT="1M"))
check("help(X) at the memory limit lists a tensor's methods, without a crash", r.returncode == 0 and "X.reshape" in r.stdout,
      (r.returncode, r.stderr[-300:]))
finish()

#!/usr/bin/python3
"""The book's own PyTorch code, pasted verbatim, in attn and in PyTorch (Debian's python3-torch), compared to the
printed digit. tests/ref/book/*.py hold the PyTorch cells of d2l-en's §11.3, §11.5 and §11.6 exactly as the book
prints them (masked_softmax, DotProductAttention, AdditiveAttention, MultiHeadAttention with transpose_qkv and
transpose_output added through @d2l.add_to_class, PositionalEncoding).

How the two runs get the same numbers:
- attn runs each section's file as it is (run A). Random inputs (torch.rand, d2l.normal ...) come from attn's
  generator, so attn runs a second time (run B) on the same code with every random call wrapped in _r(...),
  which saves its tensor and changes nothing else: same seed, same draws, same output (checked), and the draws
  are on disk. PyTorch runs the wrapped code with _r returning attn's draws.
- Weights: after a cell that builds a model, a probe (not the book's code) saves attn's state_dict; PyTorch
  loads it into the book's model, then both print the same expressions in eval mode.
Each statement is echoed as at an interactive prompt on both sides; attn's figure summaries are left out (the
figures are tested elsewhere). Prints 'N passed, N failed'.

usage: book_code.py ATTN_BINARY
"""
import ast, contextlib, io, os, re, subprocess, sys, tempfile, types, warnings
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np

try:
    import torch
    from torch import nn
except ImportError:
    print("book_code: python3-torch is not installed; skipped")
    sys.exit(0)

from refcheck import ATTN, check, finish  # noqa: E402
warnings.filterwarnings("ignore", message="Lazy modules are a new feature")
import d2l_book  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RANDOM = {"rand", "randn", "normal", "randint", "rand_like", "randn_like"}
SEED = 20


NUM = re.compile(r"(?<![\w.])[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def same_print(want, got):
    """The same text, character for character (spaces included), except that each number may differ by one unit
    in the last digit printed: PyTorch's float32 and attn's may round the last digit differently."""
    if want == got:
        return True
    wl, gl = want.split("\n"), got.split("\n")
    if len(wl) != len(gl):
        return False
    for w, g in zip(wl, gl):
        if NUM.sub("#", w) != NUM.sub("#", g):
            return False
        for mw, mg in zip(NUM.finditer(w), NUM.finditer(g)):
            text = mw.group(0)
            mant = re.split("[eE]", text)[0]
            dec = len(mant.split(".")[1]) if "." in mant else 0
            exp = int(re.split("[eE]", text)[1]) if re.search("[eE]", text) else 0
            if abs(float(text) - float(mg.group(0))) > 10.0 ** (exp - dec) * 1.0000001:
                return False
    return True


def cells_of(path):
    """The cells of a book file: the text after each line that is exactly '# %%'."""
    text = open(path, encoding="utf-8").read()
    parts = re.split(r"^# %%\n", text, flags=re.M)
    return parts[1:]


class WrapRandom(ast.NodeTransformer):
    """torch.rand(...) -> _r(torch.rand(...)) for every random draw of torch or d2l."""
    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in RANDOM and isinstance(f.value, ast.Name) and f.value.id in ("torch", "d2l"):
            return ast.Call(func=ast.Name(id="_r", ctx=ast.Load()), args=[node], keywords=[])
        return node


def wrapped(cell):
    return ast.unparse(ast.fix_missing_locations(WrapRandom().visit(ast.parse(cell))))


MARK = "#### cell {}"


def attn_program(cells, probes, wrap):
    """One attn file: a seed, then each cell (wrapped or verbatim) after a marker line, then its probe."""
    out = [f"torch.manual_seed({SEED})"]
    if wrap:
        out.append("_n = [0]\ndef _r(t):\n    save(f'r{_n[0]}.npy', t)\n    _n[0] += 1\n    return t\n")
    for i, c in enumerate(cells):
        out.append(f"print({MARK.format(i)!r})")
        out.append(wrapped(c) if wrap else c)
        if i in probes:
            out.append(f"print({MARK.format(str(i) + ' probe')!r})")
            out.append(probes[i][0] + "\n" + probes[i][2])
    return "\n".join(out) + "\n"


def run_attn(program, d):
    path = os.path.join(d, "book.py")
    open(path, "w", encoding="utf-8").write(program)
    r = subprocess.run([ATTN, path], cwd=d, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, ATTN_PLOT="summary"))
    return r.returncode, r.stdout, r.stderr


def by_cell(output):
    """{marker: text} from an output with marker lines; attn's figure summaries dropped."""
    parts, cur = {}, None
    for line in output.split("\n"):
        if line.startswith("#### cell "):
            cur = line[len("#### cell "):]
            parts[cur] = []
        elif cur is not None and not line.startswith("<figure"):
            parts[cur].append(line)
    return {k: "\n".join(v).rstrip("\n") for k, v in parts.items()}


def d2l_module():
    """d2l for the PyTorch run: the book's code (d2l_book) with its plotting functions drawing nothing."""
    m = types.ModuleType("d2l.torch")
    m.__dict__.update({k: v for k, v in vars(d2l_book).items() if not k.startswith("__")})
    m.plot = m.show_heatmaps = lambda *a, **k: None
    pkg = types.ModuleType("d2l")
    pkg.torch = m
    sys.modules["d2l"], sys.modules["d2l.torch"] = pkg, m
    return m


def run_torch(cells, probes, d):
    """The wrapped cells in PyTorch, each statement echoed as at the prompt; _r hands out attn's draws."""
    d2l_module()
    count = [0]

    def _r(t):
        a = torch.from_numpy(np.load(os.path.join(d, f"r{count[0]}.npy")))
        count[0] += 1
        assert a.shape == t.shape, f"draw {count[0]}: attn {tuple(a.shape)}, PyTorch {tuple(t.shape)}"
        return a.to(t.dtype)

    ns = {"_r": _r, "np": np, "os": os, "DIR": d}
    buf = io.StringIO()

    def run(code):
        for stmt in ast.parse(code).body:
            try:
                exec(compile(ast.Interactive(body=[stmt]), "<book>", "single"), ns)
            except Exception as e:  # noqa: BLE001 - shown as a difference, the run goes on
                print(f"PYTORCH RAISED: {type(e).__name__}: {e}")

    torch.manual_seed(SEED)
    with contextlib.redirect_stdout(buf):
        for i, c in enumerate(cells):
            print(MARK.format(i))
            run(wrapped(c))
            if i in probes:
                print(MARK.format(str(i) + " probe"))
                run(probes[i][1] + "\n" + probes[i][2])
    return buf.getvalue()


# probes: after cell i, (attn: save what PyTorch needs, PyTorch: load it, both: print the same expressions).
# Tensors computed from parameters are printed .detach()ed: PyTorch would add grad_fn=<...>, which attn (without
# autograd) never prints.
SAVE = "for k, v in {m}.state_dict().items():\n    save(k + '.npy', v)\n"
LOAD = ("_ = {m}.load_state_dict({{k: torch.from_numpy(np.load(os.path.join(DIR, k + '.npy'))) "
        "for k in {m}.state_dict()}})\n")
SECTIONS = {
    "11.3": {
        # masked_softmax writes -1e6 into its X through the reshape view, as the book's code does in PyTorch
        1: ("", "", "S = torch.arange(8, dtype=torch.float32).reshape(1, 2, 4)\n"
                    "masked_softmax(S, torch.tensor([3]))\nS\n"),
        # DotProductAttention in eval mode: its weights and output on the replayed inputs
        6: ("", "", "attention.attention_weights\nattention(queries, keys, values, valid_lens)\n"),
        # AdditiveAttention: attn's LazyLinear weights copied into the book's PyTorch model
        9: (SAVE.format(m="attention"), LOAD.format(m="attention"),
            "[k for k in attention.state_dict()]\n"
            "attention(queries, keys, values, valid_lens).detach()\nattention.attention_weights.detach()\n"),
    },
    "11.5": {
        3: (SAVE.format(m="attention"), LOAD.format(m="attention"),
            "attention.eval()\n"
            "[k for k, p in attention.named_parameters()]\n"
            "attention(X, Y, Y, valid_lens)[:, :, :5].detach()\n"
            "attention.attention.attention_weights.detach()\n"
            "attention.transpose_qkv(X).shape, attention.transpose_output(attention.transpose_qkv(X)).shape\n"),
    },
    "11.6": {
        1: (SAVE.format(m="attention"), LOAD.format(m="attention"),
            "attention.eval()\nattention(X, X, X, valid_lens)[:, :, :5].detach()\n"),
        3: ("", "", "pos_encoding\nlist(pos_encoding.state_dict())\npos_encoding.P.shape\n"
                    "pos_encoding.P[0, :4, :8]\npos_encoding.P[0, 999, -4:]\nX.shape, P.shape\nP[0, 50:53, 6:10]\n"),
    },
}

FILES = {"11.3": "11.3-attention-scoring-functions.py", "11.5": "11.5-multihead-attention.py",
         "11.6": "11.6-self-attention-and-positional-encoding.py"}

for sec, fname in FILES.items():
    cells = cells_of(os.path.join(HERE, "book", fname))
    probes = SECTIONS[sec]
    with tempfile.TemporaryDirectory() as d:
        rc_a, out_a, err_a = run_attn(attn_program(cells, probes, wrap=False), d)
        check(f"§{sec}: the book's code runs in attn", rc_a == 0, err_a[-800:])
        rc_b, out_b, err_b = run_attn(attn_program(cells, probes, wrap=True), d)
        check(f"§{sec}: with its random draws saved, attn prints the same", rc_b == 0 and out_a == out_b,
              err_b[-400:] or "the outputs differ")
        out_t = run_torch(cells, probes, d)
        a, t = by_cell(out_a), by_cell(out_t)
        check(f"§{sec}: the same cells ran", sorted(a) == sorted(t), f"{sorted(a)} vs {sorted(t)}")
        for k in sorted(t, key=lambda k: (int(k.split()[0]), k)):
            what = f"§{sec} cell {k}" + (" (a probe, not the book's code)" if "probe" in k else "")
            ok = same_print(t[k], a.get(k, ""))
            check(f"{what}: attn prints what PyTorch prints", ok and "PYTORCH RAISED" not in t[k],
                  f"\n--- PyTorch\n{t[k]}\n+++ attn\n{a.get(k, '')}")

# An error inside the book's method, in a file: the chain of calls down to transpose_qkv, with PyTorch's message.
with tempfile.TemporaryDirectory() as d:
    cells = cells_of(os.path.join(HERE, "book", FILES["11.5"]))
    src = "".join(cells[:3]) + "attention = MultiHeadAttention(100, 7, 0.5)\nattention(torch.ones((2, 4, 100)), torch.ones((2, 6, 100)), torch.ones((2, 6, 100)), None)\n"
    path = os.path.join(d, "mha.py")
    open(path, "w").write(src)
    r = subprocess.run([ATTN, path], cwd=d, capture_output=True, text=True, timeout=60)
    lines = src.split("\n")
    fwd = next(i for i, l in enumerate(lines) if "queries = self.transpose_qkv(self.W_q(queries))" in l) + 1
    tq = next(i for i, l in enumerate(lines) if "X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1)" in l) + 1
    last = len(lines) - 1
    d2l_module()
    ns = {}
    try:
        exec(src, ns)
        torch_msg = None
    except RuntimeError as e:
        torch_msg = str(e)
    err = r.stderr
    check("traceback: attn's message is PyTorch's", torch_msg is not None and f"error: {torch_msg}" in err, f"{torch_msg!r}\n{err}")
    check("traceback: the statement, then forward, then transpose_qkv, with their lines",
          re.search(rf"mha.py:{last}:\d+: error: .*\n.*\n.*\^\n.*mha.py:{fwd}:\d+: in forward\n.*\n.*\^\n.*mha.py:{tq}:\d+: in transpose_qkv\n", err) is not None,
          err)

finish()

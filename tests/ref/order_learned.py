"""Lesson 7's experiment in PyTorch: which positional encoding lets a one-layer
self-attention model learn a task where order decides the answer.

Task: at each position i >= K, output the token that stood K places earlier
(X[i - K]); tokens are uniform over VOCAB. Trained on length N, tested on N and
on longer sequences. Variants: no positional encoding, the sinusoid (d2l's P),
a learned absolute table (exercise 2), learned per-offset key embeddings
(Shaw et al., exercise 3), RoPE.

Run:  /usr/bin/python3 tests/ref/order_learned.py [--steps S] [--threads 1] [--attn build/attn]
Prints, per variant, the training time and the accuracy at each test length; with --attn, then the same for the
lesson's own code (lessons/07-order-learned.md: its classes, train and accuracy) run by attn, for comparison.
The lesson's printed conclusions are checked against PyTorch by the torch_transcript stage (its blocks are
'attn pytorch'); this script is the experiment behind them, the five variants side by side (the lesson's Rotary is RoPE).
"""
import argparse, math, os, re, subprocess, time
import torch
from torch import nn
import torch.nn.functional as F

VOCAB, D, N, K, BATCH, MAXLEN = 32, 32, 8, 2, 64, 32


def sinusoid(max_len, d):
    P = torch.zeros((1, max_len, d))
    X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(
        10000, torch.arange(0, d, 2, dtype=torch.float32) / d)
    P[:, :, 0::2] = torch.sin(X)
    P[:, :, 1::2] = torch.cos(X)
    return P


def rope(X):
    """Rotate pair (2j, 2j+1) of the row at position m by m / 10000^(2j/d)."""
    T, d = X.shape[-2], X.shape[-1]
    ang = torch.arange(T, dtype=torch.float32).reshape(-1, 1) / torch.pow(
        10000, torch.arange(0, d, 2, dtype=torch.float32) / d)
    c, s = torch.cos(ang), torch.sin(ang)
    x0, x1 = X[..., 0::2], X[..., 1::2]
    return torch.stack([x0 * c - x1 * s, x0 * s + x1 * c], dim=-1).reshape(X.shape)


class OrderModel(nn.Module):
    def __init__(self, pos, vocab=VOCAB, d=D, max_len=MAXLEN, clip=4):
        super().__init__()
        self.pos, self.d, self.clip = pos, d, clip
        self.emb = nn.Embedding(vocab, d)
        self.W_q = nn.Linear(d, d, bias=False)
        self.W_k = nn.Linear(d, d, bias=False)
        self.W_v = nn.Linear(d, d, bias=False)
        self.out = nn.Linear(d, vocab)
        if pos == 'sin':
            self.P = sinusoid(max_len, d)
        if pos == 'table':
            self.P = nn.Parameter(torch.randn((1, max_len, d)) * 0.1)
        if pos == 'shaw':
            self.A = nn.Parameter(torch.randn((2 * clip + 1, d)))

    def forward(self, X):
        T = X.shape[1]
        H = self.emb(X)
        if self.pos in ('sin', 'table'):
            H = H + self.P[:, :T]
        Q, Kk, V = self.W_q(H), self.W_k(H), self.W_v(H)
        if self.pos == 'rope':
            Q, Kk = rope(Q), rope(Kk)
        S = Q @ Kk.transpose(1, 2)
        if self.pos == 'shaw':
            i = torch.arange(T)
            idx = (i.reshape(1, -1) - i.reshape(-1, 1)).clamp(-self.clip, self.clip) + self.clip
            S = S + torch.einsum('bid,ijd->bij', Q, self.A[idx])
        A = torch.softmax(S / math.sqrt(self.d), dim=-1)
        return self.out(A @ V)


def batch(T, size=BATCH):
    # T distinct tokens per sequence: a random permutation's first T
    return torch.rand((size, VOCAB)).argsort(dim=1)[:, :T]


def loss_of(model, X):
    logits = model(X)
    return F.cross_entropy(logits[:, K:].reshape(-1, VOCAB), X[:, :-K].reshape(-1))


def accuracy(model, X):
    with torch.no_grad():
        return (model(X)[:, K:].argmax(-1) == X[:, :-K]).float().mean().item()


def train(pos, steps, lr):
    torch.manual_seed(0)
    model = OrderModel(pos)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for step in range(steps):
        loss = loss_of(model, batch(N))
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(loss.item())
    return model, losses


def attn_run(attn, steps, lr):
    """The lesson's definitions run by attn, then each variant trained as the lesson trains it, timed."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = open(os.path.join(root, "lessons", "07-order-learned.md"), encoding="utf-8").read()
    defs = []
    for block in re.findall(r"```attn pytorch\n(.*?)```", text, re.S):
        src = "\n".join(l[6:] if l.startswith("attn> ") else l[7:] for l in block.split("\n")
                        if l.startswith(("attn> ", "  ...>")))
        if src.startswith(("class ", "def ", "vocab")) or "test8, test16 =" in src:
            defs.append(src)
    defs.append(f"""for name, cls in (('none', OrderModel), ('sin', Sinusoid), ('table', Learned), ('shaw', Relative), ('rope', Rotary)):
    torch.manual_seed(0)
    m = cls(vocab, d)
    t = timeit("train(m, steps={steps}, lr={lr})", repeat=1, number=1)
    torch.manual_seed(0)
    m = cls(vocab, d)
    losses = train(m, steps={steps}, lr={lr})
    torch.manual_seed(1)
    test32 = batch(32, 500)
    print(f"attn {{name:6s}} {{t:6.2f}}s  loss {{losses[0]:.3f}} -> {{sum(losses[-20:]) / 20:.3f}}  acc n=8 {{accuracy(m, test8):.3f}}  n=16 {{accuracy(m, test16):.3f}}  n=32 {{accuracy(m, test32):.3f}}")
""")
    r = subprocess.run([attn, "-"], input="\n\n".join(defs) + "\n", capture_output=True, text=True,
                       env=dict(os.environ, ATTN_PLOT="none"))
    print(r.stdout + r.stderr, end="")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--steps', type=int, default=200)
    ap.add_argument('--lr', type=float, default=0.02)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--attn', help="also run the lesson's code in this attn binary (ATTN_THREADS as --threads)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    for pos in ('none', 'sin', 'table', 'shaw', 'rope'):
        t0 = time.perf_counter()
        model, losses = train(pos, a.steps, a.lr)
        dt = time.perf_counter() - t0
        torch.manual_seed(1)
        accs = [accuracy(model, batch(T, 500)) for T in (N, 16, VOCAB)]
        print(f"{pos:6s} {dt:6.2f}s  loss {losses[0]:.3f} -> {sum(losses[-20:]) / 20:.3f}  "
              f"acc n=8 {accs[0]:.3f}  n=16 {accs[1]:.3f}  n=32 {accs[2]:.3f}")
    if a.attn:
        os.environ["ATTN_THREADS"] = str(a.threads)
        attn_run(a.attn, a.steps, a.lr)


if __name__ == '__main__':
    main()

# scripts/bench_training.py - the models of `make bench`'s training rows, run as they are by attn and by PyTorch
# (bench.py prepends LAYERS = 1 or 2). One training step = forward, loss, backward, Adam's step, zero_grad.
#   small: lesson 7's task and model (issue 24): tokens (64, 8) of 32, embedding + learned positions, LAYERS
#          single-head self-attention layers of d 32 with residuals, a linear readout, cross-entropy.
#   big:   one (8, 256, 256), 8-head self-attention block with LayerNorm and a 4x FFN (post-norm), MSE loss.
import math
import torch
from torch import nn
import torch.nn.functional as F

class Order(nn.Module):
    def __init__(self, vocab, d, n, layers):
        super().__init__()
        self.d = d
        self.emb = nn.Embedding(vocab, d)
        self.P = nn.Parameter(torch.randn((1, n, d)) * 0.1)
        self.W = nn.ModuleList([nn.ModuleList([nn.Linear(d, d, bias=False) for _ in range(3)]) for _ in range(layers)])
        self.out = nn.Linear(d, vocab)
    def forward(self, X):
        H = self.emb(X) + self.P[:, :X.shape[1]]
        for Wq, Wk, Wv in self.W:
            S = Wq(H) @ Wk(H).transpose(1, 2) / math.sqrt(self.d)
            H = H + torch.softmax(S, dim=-1) @ Wv(H)
        return self.out(H)

class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.W_q, self.W_k, self.W_v, self.W_o = [nn.Linear(d, d) for _ in range(4)]
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff1, self.ff2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
    def split(self, Y):
        B, T, D = Y.shape
        return Y.reshape(B, T, self.h, D // self.h).transpose(1, 2)
    def forward(self, X):
        B, T, D = X.shape
        Q, K, V = self.split(self.W_q(X)), self.split(self.W_k(X)), self.split(self.W_v(X))
        A = torch.softmax(Q @ K.transpose(2, 3) / math.sqrt(D // self.h), dim=-1) @ V
        X = self.ln1(X + self.W_o(A.transpose(1, 2).reshape(B, T, D)))
        return self.ln2(X + self.ff2(torch.relu(self.ff1(X))))

vocab, n, k = 32, 8, 2
torch.manual_seed(0)
small = Order(vocab, 32, n, LAYERS)
Xs = torch.rand((64, vocab)).argsort(dim=1)[:, :n]
opt_s = torch.optim.Adam(small.parameters(), lr=0.01)
def step_small():
    Y = small(Xs)
    loss = F.cross_entropy(Y[:, k:].reshape(-1, vocab), Xs[:, :-k].reshape(-1))
    loss.backward()
    opt_s.step()
    opt_s.zero_grad()
    return loss

big = Block(256, 8)
Xb = torch.randn((8, 256, 256))
Tb = torch.randn((8, 256, 256))
opt_b = torch.optim.Adam(big.parameters(), lr=0.001)
def fwd_big():
    return F.mse_loss(big(Xb), Tb)
def fb_big():
    loss = fwd_big()
    loss.backward()
    opt_b.zero_grad()
def step_big():
    loss = fwd_big()
    loss.backward()
    opt_b.step()
    opt_b.zero_grad()

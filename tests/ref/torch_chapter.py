#!/usr/bin/python3
"""The chapter's functions against real PyTorch (Debian's python3-torch): the book's own code (d2l/torch.py,
§11.3, §11.5, §11.6, copied below) and torch.nn.MultiheadAttention run on the inputs and weights attn saved, and
must agree with attn's outputs within 1e-5. Prints 'N passed, N failed'.

usage: torch_chapter.py ATTN_BINARY
"""
import math, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np

try:
    import torch
    from torch import nn
except ImportError:
    print("torch_chapter: python3-torch is not installed; skipped")
    sys.exit(0)

from refcheck import attn, check, close, finish  # noqa: E402
from d2l_book import masked_softmax, DotProductAttention, MultiHeadAttention, PositionalEncoding  # noqa: E402



with tempfile.TemporaryDirectory() as d:
    L = lambda n: torch.from_numpy(np.load(os.path.join(d, n)))

    # masked_softmax, 1-D and 2-D valid_lens, and a valid_len of 0 (uniform, not NaN)
    attn("""torch.manual_seed(1)
S = torch.randn((2, 3, 5)); save("S.npy", S)
save("m1.npy", d2l.masked_softmax(S.clone(), torch.tensor([2, 0])))
save("m2.npy", d2l.masked_softmax(S.clone(), torch.tensor([[1, 2, 5], [3, 4, 0]])))
save("m0.npy", d2l.masked_softmax(S.clone(), None))
T = S.clone(); d2l.masked_softmax(T, torch.tensor([2, 0])); save("T.npy", T)""", d)
    S = L("S.npy")
    close("masked_softmax 1-D valid_lens", L("m1.npy"), masked_softmax(S.clone(), torch.tensor([2, 0])))
    close("masked_softmax 2-D valid_lens", L("m2.npy"), masked_softmax(S.clone(), torch.tensor([[1, 2, 5], [3, 4, 0]])))
    close("masked_softmax without valid_lens", L("m0.npy"), masked_softmax(S.clone(), None))
    check("masked weights are exactly 0", (L("m1.npy")[0, :, 2:] == 0).all().item())
    T = S.clone()
    masked_softmax(T, torch.tensor([2, 0]))
    close("masked_softmax writes its mask into X through the reshape view, as the book's code does", L("T.npy"), T)

    # MultiHeadAttention: the book's §11.6.1 example with attn's weights, dropout off (.eval())
    attn("""torch.manual_seed(2)
num_hiddens, num_heads = 100, 5
attention = d2l.MultiHeadAttention(num_hiddens, num_heads, 0.5)
attention.eval()
X = torch.randn((2, 4, num_hiddens)); valid_lens = torch.tensor([3, 2])
Y = attention(X, X, X, valid_lens)
save("X.npy", X); save("Y.npy", Y); save("W.npy", attention.attention.attention_weights)
save("Wq.npy", attention.W_q.weight); save("Wk.npy", attention.W_k.weight); save("Wv.npy", attention.W_v.weight); save("Wo.npy", attention.W_o.weight)
Q = torch.randn((2, 3, 100)); K = torch.randn((2, 6, 100)); save("Q.npy", Q); save("K.npy", K)
save("Y2.npy", attention(Q, K, K, torch.tensor([[1, 4, 6], [2, 2, 5]])))""", d)
    X = L("X.npy")
    m = MultiHeadAttention(100, 5, 0.5)
    m.eval()
    with torch.no_grad():
        m(X, X, X, None)      # materialise the lazy layers, then load attn's weights
        for n in ["q", "k", "v", "o"]:
            getattr(m, "W_" + n).weight.copy_(L(f"W{n}.npy"))
        Y = m(X, X, X, torch.tensor([3, 2]))
        close("MultiHeadAttention output (book's code)", L("Y.npy"), Y)
        close("attention_weights, one per batch row and head", L("W.npy"), m.attention.attention_weights)
        Q, K = L("Q.npy"), L("K.npy")
        close("MultiHeadAttention, cross-attention with 2-D valid_lens", L("Y2.npy"), m(Q, K, K, torch.tensor([[1, 4, 6], [2, 2, 5]])))
        # torch's own nn.MultiheadAttention agrees too (bias off, batch_first, key_padding_mask True = ignore)
        ref = nn.MultiheadAttention(100, 5, bias=False, batch_first=True)
        ref.in_proj_weight.copy_(torch.cat([L("Wq.npy"), L("Wk.npy"), L("Wv.npy")]))
        ref.out_proj.weight.copy_(L("Wo.npy"))
        mask = torch.arange(4)[None, :] >= torch.tensor([3, 2])[:, None]
        out, _ = ref(X, X, X, key_padding_mask=mask)
        close("nn.MultiheadAttention agrees", L("Y.npy"), out)

    # default Linear init is U(-1/sqrt(in), 1/sqrt(in)), as PyTorch's kaiming_uniform(a=sqrt(5))
    Wq = L("Wq.npy")
    check("W_q init within 1/sqrt(100)", Wq.abs().max().item() <= 0.1 + 1e-7 and Wq.abs().max().item() > 0.09,
          str(Wq.abs().max().item()))
    check("W_q init mean ~ 0, var ~ 1/300", abs(Wq.mean().item()) < 0.01 and abs(Wq.var().item() - 1 / 300) < 5e-4)

    # dropout: active in training mode, off after .eval(), on again after .train()
    out = attn("""torch.manual_seed(3)
a = d2l.MultiHeadAttention(8, 2, 0.5); X = torch.ones((1, 3, 8))
y1 = a(X, X, X, None); y2 = a(X, X, X, None)
print(torch.equal(y1, y2))
_ = a.eval(); print(a.training, a.attention.dropout.training)
print(torch.equal(a(X, X, X, None), a(X, X, X, None)))
_ = a.train(); print(a.attention.training)""", d)
    check("dropout on in training, off after eval(), back after train()", out.split() == ["False", "False", "False", "True", "True"], out)

    # PositionalEncoding over all 1000 positions, the book's class in PyTorch float32
    for dim in [32, 512]:
        attn(f"save('P{dim}.npy', d2l.PositionalEncoding({dim}, 0).P)", d)
        close(f"PositionalEncoding({dim}).P, 1000 positions", L(f"P{dim}.npy"), PositionalEncoding(dim, 0).P)
    attn("pe = d2l.PositionalEncoding(32, 0); X = torch.ones((2, 60, 32)); save('PX.npy', pe(X))", d)
    close("PositionalEncoding forward = X + P[:, :T]", L("PX.npy"), torch.ones((2, 60, 32)) + PositionalEncoding(32, 0).P[:, :60, :])

finish()

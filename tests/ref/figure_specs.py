"""Every figure of the chapter and the lessons, as attn draws it and as the book's own code (d2l.plot,
d2l.show_heatmaps) draws the same data: used by the figure tests (tests/ref/plot_render.py) and by `make figures`
(scripts/figures.py, docs/figures.md). Data that attn computes at random or measures (attention weights, timings)
is saved by attn to .npy files in the working directory and read back for the book's version."""
import os

FIGURES = [
    {
        "name": "pe_columns",
        "title": "Columns 6-9 of the positional encoding P (§11.6.3, lesson 3)",
        "attn": """pe = d2l.PositionalEncoding(32, 0); P = pe.P[:, :60, :]
d2l.plot(torch.arange(60), P[0, :, 6:10].T, xlabel='Row (position)', figsize=(6, 2.5), legend=["Col %d" % d for d in torch.arange(6, 10)])""",
        "legend": ["Col 6", "Col 7", "Col 8", "Col 9"],
        "figsize": (6, 2.5),
    },
    {
        "name": "pe_heatmap",
        "title": "The positional encoding P as a heatmap (§11.6.3.1, lesson 4)",
        "attn": """P = d2l.PositionalEncoding(32, 0).P[0, :60, :].unsqueeze(0).unsqueeze(0)
d2l.show_heatmaps(P, xlabel='Column (encoding dimension)', ylabel='Row (position)', figsize=(3.5, 4), cmap='Blues')""",
        "heatmap": (1, 1, 60, 32),
        "figsize": (3.5, 4),
    },
    {
        "name": "attention_heads",
        "title": "Attention weights of 5 heads for 2 sequences (§11.5 / lesson 1)",
        "attn": """torch.manual_seed(0)
attention = d2l.MultiHeadAttention(100, 5, 0.5); _ = attention.eval()
X = torch.randn((2, 4, 100)) * 3
Y = attention(X, X, X, torch.tensor([3, 2]))
W = attention.attention.attention_weights.reshape(2, 5, 4, 4)
save('W.npy', W)
d2l.show_heatmaps(W, xlabel='Keys', ylabel='Queries', titles=['Head %d' % h for h in range(1, 6)], figsize=(7, 3.5))""",
        "heatmap": (2, 5, 4, 4),
        "titles": ["Head %d" % h for h in range(1, 6)],
        "figsize": (7, 3.5),
    },
    {
        "name": "low_frequency_sine",
        "title": "A very low frequency sine (lesson 3)",
        "attn": "x = torch.linspace(0, 100, 1000); d2l.plot(x, torch.sin(0.01 * x), xlabel='x', ylabel='sin(0.01 x)', title='Very Low Frequency Sin Wave', figsize=(5, 3))",
        "figsize": (5, 3),
    },
    {
        "name": "rotation",
        "title": "The rotation of §11.6.3.2: pair i to pair i + δ (lesson 5)",
        "attn": "R = rotation(3, 2, quiet=True, plot=True)",
        "legend": ["unit circle"],
        "figsize": (5, 5.4),
        "book_has_none": True,
    },
    {
        "name": "measure_layers",
        "title": "conv1d, RNN and self-attention layers timed (§11.6.2, lesson 2)",
        "attn": """r = measure_layers(quiet=True, plot=True)
save('n.npy', torch.tensor(r['n'])); save('cnn.npy', torch.tensor(r['cnn'])); save('rnn.npy', torch.tensor(r['rnn'])); save('att.npy', torch.tensor(r['attention']))""",
        "figsize": (6, 3.5),
        "measured": True,
    },
    {
        "name": "stacking",
        "title": "Stacked self-attention layers without residuals (exercise 1, lesson 6)",
        "attn": """r = stack_attention(layers=6, quiet=True, plot=True)
save('cos.npy', torch.tensor(r['cosine'])); save('share.npy', torch.tensor(r['position']))""",
        "legend": ["token similarity (mean cosine)", "position signal (spread)"],
        "figsize": (3.5, 2.5),
    },
]


def book_figure(name, datadir):
    """Draws the book's version of figure `name` with the book's code into the current matplotlib figure (False when
    the book has no such figure)."""
    import numpy as np
    import torch
    import d2l_book
    import d2l_book_plot as d2l

    def load(f):
        return np.load(os.path.join(datadir, f))
    if name == "pe_columns":
        pos_encoding = d2l_book.PositionalEncoding(32, 0)
        P = pos_encoding.P[:, :60, :]
        d2l.plot(torch.arange(60), P[0, :, 6:10].T, xlabel='Row (position)', figsize=(6, 2.5),
                 legend=["Col %d" % d for d in torch.arange(6, 10)])
    elif name == "pe_heatmap":
        P = d2l_book.PositionalEncoding(32, 0).P[0, :60, :].unsqueeze(0).unsqueeze(0)
        d2l.show_heatmaps(P, xlabel='Column (encoding dimension)', ylabel='Row (position)', figsize=(3.5, 4), cmap='Blues')
    elif name == "attention_heads":
        d2l.show_heatmaps(torch.from_numpy(load('W.npy')), xlabel='Keys', ylabel='Queries',
                          titles=['Head %d' % h for h in range(1, 6)], figsize=(7, 3.5))
    elif name == "low_frequency_sine":
        x = torch.linspace(0, 100, 1000)
        d2l.plot(x, torch.sin(0.01 * x), xlabel='x', ylabel='sin(0.01 x)', figsize=(5, 3))
        d2l.plt.title('Very Low Frequency Sin Wave')
    elif name == "measure_layers":
        n = load('n.npy')
        d2l.plot(n, [load('cnn.npy'), load('rnn.npy'), load('att.npy')], xlabel='sequence length n',
                 ylabel='seconds per layer', legend=['conv1d', 'RNN', 'self-attention'], xscale='log', yscale='log',
                 figsize=(6, 3.5))
    elif name == "stacking":
        c = load('cos.npy')
        d2l.plot(list(range(len(c))), [c, load('share.npy')], xlabel='layer',
                 legend=['token similarity (mean cosine)', 'position signal (spread)'])
    else:
        return False
    return True

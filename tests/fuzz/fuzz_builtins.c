/* fuzz_builtins.c - every builtin function and method called with edge-case arguments (issue 12): the bytes pick
 * up to four calls in one fresh session; each call is a function (torch.*, d2l.*, Python's) or a method of a
 * tensor, a string, a list, a dict or one of the chapter's objects, with positional and keyword arguments drawn
 * from a pool of awkward values: 0, negatives, the int64 extremes, nan and inf, empty and 0-d tensors of every
 * dtype, views, huge sizes, None, wrong types. An error message is fine; a crash, a leak, undefined behaviour or
 * an internal error (a raw float* of an int64 tensor) is a finding. */
#include "fuzz_common.h"
#include "builtins.h"
#include "session.h"
#include <ctype.h>
#include <stdio.h>

/* The pool: each an expression evaluated in the fresh session. */
static const char *const pool_src[] = {
    "0", "1", "-1", "2", "3", "5", "-3", "2**31", "-9223372036854775807 - 1", "9223372036854775807", "10**9",
    "10**12", "0.0", "-0.0", "0.5", "-1.5", "1e308", "float('nan')", "float('inf')", "-float('inf')",
    "True", "False", "None", "''", "'a'", "'x.npy'", "'mean'", "'Reds'", "'trunc'",
    "torch.zeros(())", "torch.tensor(3)", "torch.tensor(True)", "torch.tensor(2.5, dtype=torch.float64)",
    "torch.tensor(-7)", "torch.zeros(0)", "torch.zeros(0, 3)", "torch.zeros(2, 0, 3)",
    "torch.arange(6.).reshape(2, 3)", "torch.arange(24.).reshape(2, 3, 4)", "torch.arange(6)",
    "torch.arange(6).reshape(3, 2)", "torch.tensor([True, False, True])", "torch.arange(12.).reshape(3, 4).T",
    "torch.arange(24.).reshape(2, 3, 4)[:, ::2]", "torch.ones(2, 4, 8)", "torch.ones(1, 3, 8)",
    "torch.tensor([[1, 2], [3, 4]], dtype=torch.float64)", "torch.tensor([float('nan'), float('inf'), -1.])",
    "torch.arange(8.).reshape(2, 2, 2)[0]", "torch.tensor([2, 3])", "torch.tensor([[1, 2], [2, 1]])",
    "torch.tensor([-1, 0, 1])",
    "[]", "[1, 2]", "[2, 3]", "(2, 3)", "(2, -1)", "(0,)", "[[1, 2], [3, 4]]", "[1.5, 'a']", "(1, 2, 3, 4, 5, 6, 7, 8, 9)",
    "[torch.ones(2), torch.zeros(2)]", "[torch.ones(2, 3), torch.ones(3, 2)]", "[-1]", "[0, 5]", "(1,)",
    "{}", "{'a': 1}", "range(5)", "range(-3, 3)", "range(10**12)",
    "torch.float32", "torch.int64", "torch.bool", "torch.float64",
    "nn.Linear(3, 2)", "d2l.MultiHeadAttention(8, 2, 0.5)", "d2l.PositionalEncoding(8, 0.1)",
    "d2l.DotProductAttention(0.1)", "nn.Dropout(0.5)", "nn.Linear(8, 8)",
    "lambda *a: 0", "print", "len", "torch", "math",
    /* modules whose attributes a student changed after building them (num_heads = 0 once divided by zero) */
    "(lambda m: (setattr(m, 'num_heads', 0), m)[1])(d2l.MultiHeadAttention(8, 2, 0.5))",
    "(lambda m: (setattr(m, 'num_heads', 3), m)[1])(d2l.MultiHeadAttention(8, 2, 0.0))",
    "(lambda m: (setattr(m, 'weight', nn.Parameter(torch.ones(7, 3))), m)[1])(nn.Linear(3, 2))",
    "(lambda m: (setattr(m, 'bias', nn.Parameter(torch.ones(5))), m)[1])(nn.Linear(8, 8))",
    "(lambda m: (setattr(m, 'out_features', -1), m)[1])(nn.LazyLinear(3))",
    "(lambda m: (setattr(m, 'p', 7), m)[1])(nn.Dropout(0.5))",
    "(lambda m: (setattr(m, 'P', torch.ones(1, 2, 3)), m)[1])(d2l.PositionalEncoding(8, 0.0))",
    "(lambda m: (setattr(m, 'dropout', None), m)[1])(d2l.DotProductAttention(0.1))",
    "(lambda m: (setattr(m, 'W_q', nn.Linear(8, 4)), m)[1])(d2l.MultiHeadAttention(8, 2, 0.0))",
    /* after a forward: the inner attention holds its weights to be computed when read (d2l_attention.c) */
    "(lambda m, X: (m.eval(), m(X, X, X, torch.tensor([3, 1])), m)[2])(d2l.MultiHeadAttention(8, 2, 0.0), torch.ones(2, 4, 8))",
    "(lambda m, X: (m.eval(), m(X, X, X, None), m.attention)[2])(d2l.MultiHeadAttention(8, 2, 0.0), torch.ones(2, 4, 8))",
    /* tensors that require grad: the builtin's result is then wired into the graph after the call (ag_after.c) */
    "torch.arange(6.).reshape(2, 3).requires_grad_()", "torch.tensor([1., -2., 0.], requires_grad=True)",
    "torch.ones(2, 3, 4, dtype=torch.float64, requires_grad=True)", "torch.zeros(0, 3, requires_grad=True)",
    "torch.arange(12.).reshape(3, 4).requires_grad_().T", "[torch.ones(2, requires_grad=True), torch.zeros(2)]",
};
#define NPOOL ((int)(sizeof pool_src / sizeof *pool_src))

/* Keyword names worth trying on any function (besides those its signature names). */
static const char *const common_kw[] = {"dim", "keepdim", "dtype", "size", "out", "axis", "p", "alpha", "k",
                                        "valid_lens", "figsize", "num_heads", "dropout", "bias", "value", NULL};

/* Builtins a fuzzer must not call: they read the terminal, start processes, or measure time by design;
 * learnable_pe trains a model (0.1 s in a release build, 17 s under the fuzzer's sanitizers: past its timeout), its
 * argument checks are tests/e2e/errors.md's. */
static bool skipped(const char *name) {
    static const char *const no[] = {"input", "timeit", "measure_layers", "savefig", "plot_target", "help", "exit",
                                     "quit", "complexity", "learnable_pe", NULL};
    for (int i = 0; no[i]; i++) if (!strcmp(name, no[i])) return true;
    return false;
}

/* The keyword names in a signature string: "masked_softmax(X, valid_lens=None, dim=-1)" -> valid_lens, dim. */
static int signature_kws(const char *sig, char names[][32], int max) {
    int n = 0;
    for (const char *p = sig ? strchr(sig, '(') : NULL; p && *p && n < max; p++) {
        if (*p != '=' || p[1] == '=') continue;
        const char *e = p;
        while (e > sig && (e[-1] == ' ')) e--;
        const char *s = e;
        while (s > sig && (isalnum((unsigned char)s[-1]) || s[-1] == '_')) s--;
        if (e - s > 0 && e - s < 32) { memcpy(names[n], s, (size_t)(e - s)); names[n][e - s] = 0; n++; }
    }
    return n;
}

typedef struct Bytes { const uint8_t *p; size_t n; } Bytes;
static int next(Bytes *b) {
    if (!b->n) return -1;
    b->n--;
    return *b->p++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 256) return 0;
    Session S;
    session_init(&S, "none");
    fuzz_limits(S.I.run.ten);
    S.I.max_loop_iterations = 2000;
    StrBuf out;
    sb_init(&out);
    OutputSink cap;
    interp_push_sink(&S.I, &cap, SINK_CAPTURE, &out);
    Value *pool[NPOOL];
    for (int i = 0; i < NPOOL; i++) {
        char src[200];
        snprintf(src, sizeof src, "p = %s", pool_src[i]);
        pool[i] = NULL;
        if (interp_run(&S.I, src, "pool", 1) == 0) pool[i] = val_incref(interp_lookup(&S.I, "p"));
        else { fprintf(stderr, "fuzz_builtins: pool value '%s' failed: %s\n", pool_src[i], interp_error_msg(&S.I)); abort(); }
    }
    int nf, nm;
    const Builtin *const *fns = builtins_all(&nf);
    const Builtin *const *methods = builtins_all_methods(&nm);
    Bytes b = {data, size};
    for (int call = 0; call < 4; call++) {
        int c0 = next(&b), c1 = next(&b);
        if (c0 < 0 || c1 < 0) break;
        int which = (c0 << 8 | c1);
        Value *fn = NULL;
        const char *sig = NULL;
        const char *name;
        int kind = which % 4;        /* 0-1: a function, 2: a tensor method, 3: a method of another pool value */
        if (kind <= 1) {
            const Builtin *f = fns[(which / 4) % nf];
            name = f->name;
            sig = f->signature;
            if (skipped(name)) continue;
            fn = val_builtin(S.I.run.heap, f);
        } else {
            int self = next(&b);
            if (self < 0) break;
            Value *sv = pool[self % NPOOL];
            const Builtin *m = NULL;
            if (kind == 2 && sv->kind == V_TENSOR) m = methods[(which / 4) % nm];
            else {
                const Builtin *table = sv->kind == V_STR ? bi_str_methods : sv->kind == V_LIST ? bi_list_methods
                                     : sv->kind == V_DICT ? bi_dict_methods : sv->kind == V_OBJECT ? sv->u.obj.cls->methods : NULL;
                int count = 0;
                for (const Builtin *t = table; t && t->name; t++) count++;
                /* an object is also called itself (a module's forward), as often as one of its methods */
                if (sv->kind == V_OBJECT && (which / 4) % (count + 1) == count) {
                    name = sv->u.obj.cls->name;
                    fn = val_incref(sv);
                    goto have_fn;
                }
                if (count) m = &table[(which / 4) % count];
            }
            if (!m || skipped(m->name)) continue;
            name = m->name;
            sig = m->signature;
            fn = val_method(S.I.run.heap, sv, m);
        }
    have_fn:;
        Args a;
        memset(&a, 0, sizeof a);
        Value *pos[6];
        const char *kwn[3];
        Value *kwv[3];
        int np = next(&b);
        np = np < 0 ? 0 : np % 6;
        for (int i = 0; i < np; i++) {
            int k = next(&b);
            pos[i] = pool[(k < 0 ? 0 : k) % NPOOL];
        }
        char sigkw[12][32];
        int nsig = signature_kws(sig, sigkw, 12);
        int nk = next(&b);
        nk = nk < 0 ? 0 : nk % 3;
        for (int i = 0; i < nk; i++) {
            int w = next(&b), k = next(&b);
            if (w < 0 || k < 0) { nk = i; break; }
            int ncommon = 0;
            while (common_kw[ncommon]) ncommon++;
            kwn[i] = w % (nsig + ncommon) < nsig ? sigkw[w % (nsig + ncommon)] : common_kw[w % (nsig + ncommon) - nsig];
            kwv[i] = pool[k % NPOOL];
        }
        /* a keyword repeated is a syntax error in Python: the call never reaches the builtin */
        bool dup = false;
        for (int i = 0; i < nk; i++) for (int j = 0; j < i; j++) if (!strcmp(kwn[i], kwn[j])) dup = true;
        if (!dup) {
            a.pos = pos;
            a.npos = np;
            a.kwnames = kwn;
            a.kwvals = kwv;
            a.nkw = nk;
            ten_interrupted = 0;
            if (getenv("ATTN_FUZZ_DEBUG")) {
                fprintf(stderr, "call %s(", name);
                for (int i = 0; i < np; i++) fprintf(stderr, "%s#%d", i ? ", " : "", i);
                fprintf(stderr, ") %d pos %d kw\n", np, nk);
            }
            Value *r = interp_call(&S.I, fn, &a);
            if (getenv("ATTN_FUZZ_DEBUG")) fprintf(stderr, "  -> %s\n", r ? "value" : interp_error_msg(&S.I));
            if (r) {
                StrBuf rep;
                sb_init(&rep);
                val_repr(&S.I, &rep, r);        /* printing what came back is part of the contract */
                sb_free(&rep);
                val_decref(r);
            }
            interp_clear_error(&S.I);
        }
        val_decref(fn);
        sb_clear(&out);
    }
    for (int i = 0; i < NPOOL; i++) val_decref(pool[i]);
    interp_pop_sink(&S.I, &cap);
    sb_free(&out);
    session_free(&S);
    return 0;
}

/* d2l_after.c - §11.6.5's exercises and what came after them: stacking self-attention layers with positional
 * encoding, relative position representations (Shaw et al. 2018), rotary embeddings (RoPE, Su et al. 2021) and
 * ALiBi (Press et al. 2021); toeplitz_error checks that a score matrix depends only on the offset j - i. The
 * learnable positional encoding (exercise 2) is d2l_learnable.c's. */
#include "builtins_internal.h"
#include "interp.h"
#include "i18n.h"
#include "textwidth.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>



/* max over i, j of |S[..., i, j] - S[..., i+1, j+1]|, skipping infinite entries: 0 when S depends on j - i only;
 * nan when a compared entry is nan (as torch's max of the differences would be), so a nan is never hidden. */
static double toeplitz(const Tensor *S) {
    int64_t r = S->shape[S->ndim - 2], c = S->shape[S->ndim - 1], mats = S->numel / ((r * c != 0) ? r * c : 1);
    double worst = 0;
    for (int64_t m = 0; m < mats; m++)
        for (int64_t i = 0; i + 1 < r; i++)
            for (int64_t j = 0; j + 1 < c; j++) {
                double a = ten_get(S, m * r * c + i * c + j), b = ten_get(S, m * r * c + (i + 1) * c + j + 1);
                if (isnan(a) || isnan(b)) return NAN;
                if (isinf(a) || isinf(b)) { if (a != b) worst = INFINITY; continue; }
                if (fabs(a - b) > worst) worst = fabs(a - b);
            }
    return worst;
}

static Value *bi_toeplitz_error(Interp *I, Args *a) {
    Value *p_[1];                               /* S */
    if (!args_bind(I, a, p_, 1)) return NULL;
    Value *s = p_[0];
    if (!s || s->kind != V_TENSOR || s->u.t->ndim < 2) return rt_error(I, "toeplitz_error(S) needs a matrix (or a batch of matrices)");
    return val_float(I->run.heap, toeplitz(s->u.t));
}

/* relative_position_index(n, k): (n, n) int64 with clip(j - i, -k, k) + k, the row of Shaw's table to use. */
static Tensor *rel_index(TenCtx *c, int64_t n, int64_t k) {
    int64_t sh[2] = {n, n};
    Tensor *t = ten_new_in(c, DT_I64, 2, sh);
    if (!t) return NULL;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            int64_t o = j - i;
            ten_i64(t)[i * n + j] = (o < -k ? -k : o > k ? k : o) + k;
        }
    return t;
}

static Value *bi_rel_index(Interp *I, Args *a) {
    Value *p_[2];                               /* n, k */
    if (!args_bind(I, a, p_, 2)) return NULL;
    int64_t n, k;
    Value *nv = p_[0], *kv = p_[1];
    if (!nv || !kv) return rt_error(I, "relative_position_index(n, k) needs a length n and a clipping distance k");
    if (!arg_int(I, nv, "n", &n) || !arg_int(I, kv, "k", &k)) return NULL;
    if (n < 1 || n > 4096 || k < 0 || k > 4096) return rt_error(I, "relative_position_index: need 1 <= n <= 4096 and 0 <= k <= 4096");
    return rt_tensor_result(I, rel_index(I->run.ten, n, k));
}

/* shaw_bias(q, table): q (n, d), table (2k+1, d) -> (n, n) with q_i · table[clip(j - i, -k, k) + k] / sqrt(d). */
static Value *bi_shaw_bias(Interp *I, Args *a) {
    Value *p_[2];                               /* q, table */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *qv = p_[0], *tv = p_[1];
    if (!qv || !tv || qv->kind != V_TENSOR || tv->kind != V_TENSOR || qv->u.t->ndim != 2 || tv->u.t->ndim != 2)
        return rt_error(I, "shaw_bias(q, table): q of shape (n, d) and a table of shape (2k+1, d)");
    Tensor *q = qv->u.t, *tab = tv->u.t;
    int64_t n = q->shape[0], d = q->shape[1], rows = tab->shape[0];
    if (tab->shape[1] != d || rows % 2 == 0)
        return rt_error(I, "shaw_bias: the table needs 2k+1 rows of d = %lld features (one per clipped offset -k..k)", (long long)d);
    int64_t k = rows / 2;
    Tensor *idx = rel_index(I->run.ten, n, k);
    int64_t sh[2] = {n, n};
    Tensor *B = idx ? ten_new_in(I->run.ten, DT_F32, 2, sh) : NULL;
    if (B)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                double acc = 0;
                int64_t r = ten_i64(idx)[i * n + j];
                for (int64_t c = 0; c < d; c++) acc += ten_get(q, i * d + c) * ten_get(tab, r * d + c);
                ten_f32(B)[i * n + j] = (float)(acc / sqrt((double)d));
            }
    ten_free(idx);
    return rt_tensor_result(I, B);
}

/* rope(X, base=10000): X (..., n, d), d even; the pair (2j, 2j+1) at position m is rotated by m·θ_j,
 * θ_j = base^(-2j/d) (the book's ω_j): x' = x cos - y sin, y' = x sin + y cos (interleaved pairs, as the paper). */
static Value *bi_rope(Interp *I, Args *a) {
    Value *p_[2];                               /* X, base */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *xv = p_[0], *bv = p_[1];
    double base = 10000;
    if (!xv || xv->kind != V_TENSOR || xv->u.t->ndim < 2) return rt_error(I, "rope(X) needs X of shape (..., n, d)");
    if (bv && !arg_double(I, bv, "base", &base)) return NULL;
    Tensor *X = xv->u.t;
    int64_t n = X->shape[X->ndim - 2], d = X->shape[X->ndim - 1];
    if (d % 2) return rt_error(I, "rope: d must be even (it rotates pairs of features), got %lld", (long long)d);
    Tensor *Y = ten_cast(X, DT_F32);
    if (!Y) return rt_tensor_error(I);
    int64_t mats = Y->numel / ((n * d != 0) ? n * d : 1);
    for (int64_t b = 0; b < mats; b++)
        for (int64_t m = 0; m < n; m++)
            for (int64_t j = 0; j < d / 2; j++) {
                double th = (double)m * pow(base, -2.0 * (double)j / (double)d), c = cos(th), s = sin(th);
                float *p = ten_f32(Y) + b * n * d + m * d + 2 * j;
                double x = p[0], y = p[1];
                p[0] = (float)(x * c - y * s);
                p[1] = (float)(x * s + y * c);
            }
    return val_tensor(I->run.heap, Y);
}

/* alibi_slopes(H): 2^(-8h/H), h = 1..H, for H a power of two; otherwise the slopes of the nearest lower power of two
 * p, then every other slope of 2p for the rest (the paper's recipe). */
static Tensor *alibi_slopes(TenCtx *c, int64_t H) {
    Tensor *t = ten_new_in(c, DT_F32, 1, &H);
    if (!t) return NULL;
    int64_t p = 1;
    while (p * 2 <= H) p *= 2;
    int64_t k = 0;
    for (int64_t h = 1; h <= p; h++) ten_f32(t)[k++] = (float)pow(2.0, -8.0 * (double)h / (double)p);
    for (int64_t h = 1; k < H; h += 2) ten_f32(t)[k++] = (float)pow(2.0, -8.0 * (double)h / (double)(2 * p));
    return t;
}

static Value *bi_alibi_slopes(Interp *I, Args *a) {
    Value *hv;
    if (!args_bind(I, a, &hv, 1)) return NULL;
    int64_t H;
    if (!arg_int(I, hv, "num_heads", &H)) return NULL;
    if (H < 1 || H > 1024) return rt_error(I, "alibi_slopes: num_heads must be between 1 and 1024");
    return rt_tensor_result(I, alibi_slopes(I->run.ten, H));
}

/* alibi_bias(n, num_heads, causal=True): (H, n, n) with m_h·(j - i) where j <= i, -inf above the diagonal. */
static Value *bi_alibi_bias(Interp *I, Args *a) {
    Value *p_[3];                               /* n, num_heads, causal */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *nv = p_[0], *hv = p_[1], *cv = p_[2];
    int64_t n, H;
    bool causal = true;
    if (!nv || !hv) return rt_error(I, "alibi_bias(n, num_heads, causal=True) needs n and num_heads");
    if (!arg_int(I, nv, "n", &n) || !arg_int(I, hv, "num_heads", &H) || (cv && !arg_bool(I, cv, "causal", &causal))) return NULL;
    if (n < 1 || n > 4096 || H < 1 || H > 1024) return rt_error(I, "alibi_bias: need 1 <= n <= 4096 and 1 <= num_heads <= 1024");
    Tensor *m = alibi_slopes(I->run.ten, H);
    int64_t sh[3] = {H, n, n};
    Tensor *B = m ? ten_new_in(I->run.ten, DT_F32, 3, sh) : NULL;
    if (B)
        for (int64_t h = 0; h < H; h++)
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j < n; j++)
                    ten_f32(B)[(h * n + i) * n + j] = causal && j > i ? -INFINITY : ten_f32(m)[h] * (float)(j - i);
    ten_free(m);
    return rt_tensor_result(I, B);
}

/* ---- stacking self-attention layers (exercise 1) ---- */

static double mean_pairwise_cosine(const Tensor *X) {   /* X (1, n, d) */
    int64_t n = X->shape[1], d = X->shape[2];
    double total = 0;
    int64_t cnt = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            double dot = 0, ni = 0, nj = 0;
            for (int64_t c = 0; c < d; c++) {
                double x = ten_f32(X)[i * d + c], y = ten_f32(X)[j * d + c];
                dot += x * y; ni += x * x; nj += y * y;
            }
            total += ni > 0 && nj > 0 ? dot / sqrt(ni * nj) : 1;
            cnt++;
        }
    return cnt ? total / (double)cnt : 1;
}

/* Relative spread of the rows of X (1, n, d): sqrt(sum_i |X_i - mean_i X_i|²) / sqrt(sum_i |X_i|²). 0 when every
 * row is the same vector. */
static double relative_spread(const Tensor *X) {
    int64_t n = X->shape[1], d = X->shape[2];
    double dev = 0, tot = 0;
    for (int64_t c = 0; c < d; c++) {
        double mean = 0;
        for (int64_t i = 0; i < n; i++) mean += ten_f32(X)[i * d + c];
        mean /= (double)n;
        for (int64_t i = 0; i < n; i++) {
            double x = ten_f32(X)[i * d + c];
            dev += (x - mean) * (x - mean);
            tot += x * x;
        }
    }
    return tot > 0 ? sqrt(dev / tot) : 0;
}

/* One freshly initialised MultiHeadAttention(d, H, 0) in eval mode applied as self-attention to both inputs (the same
 * weights for both), plus the input when residual. Replaces xs[k] with the outputs; false on error (I has it). */
static bool stack_layer(Interp *I, int64_t d, int64_t H, bool residual, Tensor **xs, int nx) {
    const Builtin *mha = builtins_find("MultiHeadAttention");
    Value *args3[3] = {val_int(I->run.heap, d), val_int(I->run.heap, H), val_float(I->run.heap, 0)};
    Args ca = {args3, 3, NULL, NULL, 0, "MultiHeadAttention", mha};
    Value *layer = mha->fn(I, &ca);
    for (int k = 0; k < 3; k++) val_decref(args3[k]);
    if (!layer) return false;
    val_attr_set(layer, "training", val_bool(I->run.heap, false));
    bool ok = true;
    for (int k = 0; k < nx && ok; k++) {
        Value *xv = val_tensor(I->run.heap, xs[k]);
        Value *cargs[3] = {xv, xv, xv};
        Args la = {cargs, 3, NULL, NULL, 0, "MultiHeadAttention", NULL};
        Value *y = interp_call(I, layer, &la);
        Tensor *out = !y ? NULL : residual ? ten_binary(OP_ADD, y->u.t, false, xs[k], false) : ten_copy(y->u.t);
        val_decref(y);
        xs[k] = NULL;                 /* owned by xv, freed with it */
        val_decref(xv);
        if (!out) { if (!interp_failed(I)) rt_tensor_error(I); ok = false; }
        xs[k] = out;
    }
    val_decref(layer);
    return ok;
}

/* What the stacking run shows, in lang, each clause decided by its own numbers (first and last row of the table). */
static void stack_conclusions(I18nLang lang, StrBuf *o, double cos0, double cosL, double pos0, double posL, int64_t L, bool residual) {
    sb_printf(o, TR(lang, "After %lld %s the token similarity went from %.4f to %.4f"), (long long)L, L == 1 ? TR(lang, "layer") : TR(lang, "layers"), cos0, cosL);
    if (cosL > 0.99) sb_puts(o, TR(lang, ":\nthe tokens have become almost one and the same vector.\n"));
    else if (cosL > cos0 + 0.05) sb_puts(o, TR(lang, ":\nthe tokens grew alike.\n"));
    else sb_puts(o, TR(lang, ":\nthe tokens stayed about as distinct as at the input.\n"));
    /* four decimals, as in the table: below them a float32 spread is rounding noise, whose digits follow the CPU */
    double shown = posL < 0.00005 ? 0.0 : posL;
    sb_printf(o, TR(lang, "The position signal went from %.4f to %.4f (%.2g%% of the input's)"), pos0, shown, pos0 > 0 ? 100 * shown / pos0 : 0.0);
    if (posL < 0.01 * pos0) sb_puts(o, TR(lang, ":\none token at different positions gives the same output: the position is lost.\n"));
    else if (posL < 0.5 * pos0) sb_puts(o, TR(lang, ":\nmuch of the position added at the input is gone.\n"));
    else if (posL < pos0) sb_puts(o, TR(lang, ":\nmost of the position added at the input survives.\n"));
    else sb_puts(o, TR(lang, ":\nthe position added at the input survives in full.\n"));
    if (!residual) sb_puts(o, TR(lang, "Compare with residual=True, as in the Transformer.\n"));
}

/* stack_attention(layers=8, n=10, d=32, heads=4, residual=False, seed=0): two inputs run through the same `layers`
 * freshly initialised MultiHeadAttention layers (eval mode): random tokens plus P, and one random token repeated at
 * every position plus P, whose rows differ by their position only. Per layer: how alike the random tokens have
 * become (mean pairwise cosine) and how much position is left (relative spread of the repeated token's rows).
 * Returns {'cosine': [...], 'position': [...]} (layers + 1 values each, the input first). */
static Value *bi_stack_attention(Interp *I, Args *a) {
    Value *p_[8];                               /* layers, n, d, heads, residual, seed, quiet, plot */
    if (!args_bind(I, a, p_, 8)) return NULL;
    Value *pv = p_[7];
    bool want_plot = false;
    if (pv && !arg_bool(I, pv, "plot", &want_plot)) return NULL;
    int64_t L = 8, n = 10, d = 32, H = 4, seed = 0;
    bool residual = false, quiet = false;
    Value *v;
    if (((v = p_[0]) && !arg_int(I, v, "layers", &L)) || ((v = p_[1]) && !arg_int(I, v, "n", &n)) ||
        ((v = p_[2]) && !arg_int(I, v, "d", &d)) || ((v = p_[3]) && !arg_int(I, v, "heads", &H)) ||
        ((v = p_[4]) && !arg_bool(I, v, "residual", &residual)) || ((v = p_[5]) && !arg_int(I, v, "seed", &seed)) ||
        ((v = p_[6]) && !arg_bool(I, v, "quiet", &quiet)))
        return NULL;
    if (L < 1 || L > 64 || n < 2 || n > 1000 || d < 2 || d > 1024 || H < 1 || d % H)
        return rt_error(I, "stack_attention: need 1 <= layers <= 64, 2 <= n <= 1000, 2 <= d <= 1024 and heads dividing d");
    Rng *g = &I->run.rng;
    rng_seed(g, (uint64_t)seed);
    int64_t sh[3] = {1, n, d}, sh1[3] = {1, 1, d};
    Tensor *X = ten_randn_in(I->run.ten, g, 3, sh), *t = ten_randn_in(I->run.ten, g, 3, sh1), *P = attn_positional_table_in(I->run.ten, n, d);
    Tensor *xs[2] = {X && P ? ten_binary(OP_ADD, X, false, P, false) : NULL, t && P ? ten_binary(OP_ADD, t, false, P, false) : NULL};
    ten_free(X);
    ten_free(t);
    ten_free(P);
    if (!xs[0] || !xs[1]) { ten_free(xs[0]); ten_free(xs[1]); return rt_tensor_error(I); }
    Value *cos_l = val_list(I->run.heap, 0), *pos_l = val_list(I->run.heap, 0);
    StrBuf o;
    sb_init(&o);
    if (!quiet) {
        sb_printf(&o, residual ? TR(I->run.lang, "%lld self-attention layers, d = %lld, %lld heads, with residual connections\n")
                               : TR(I->run.lang, "%lld self-attention layers, d = %lld, %lld heads, without residual connections\n"),
                  (long long)L, (long long)d, (long long)H);
        sb_printf(&o, TR(I->run.lang, "(§11.6.5, exercise 1)\n"
                         "token similarity: mean cosine between %lld random tokens (+ P), 1 = all alike\n"
                         "position signal: spread of one token repeated at %lld positions (+ P), 0 = lost\n"),
                  (long long)n, (long long)n);
        /* the columns right-aligned in display columns over " %5lld   %16.4f   %15.4f" */
        const char *head[3] = {TR(I->run.lang, "layer"), TR(I->run.lang, "token similarity"), TR(I->run.lang, "position signal")};
        const int width[3] = {6, 19, 18};
        for (int k = 0; k < 3; k++) {
            sb_pad(&o, ' ', width[k] - tw_width(head[k]));
            sb_puts(&o, head[k]);
        }
        sb_putc(&o, '\n');
    }
    bool ok = true;
    double cos0 = 0, pos0 = 0, c = 0, ps = 0;
    for (int64_t l = 0; l <= L; l++) {
        c = mean_pairwise_cosine(xs[0]);
        ps = relative_spread(xs[1]);
        if (l == 0) { cos0 = c; pos0 = ps; }
        val_list_append(cos_l, val_float(I->run.heap, c));
        val_list_append(pos_l, val_float(I->run.heap, ps));
        /* both to four decimals: a spread below 1e-4 of the rows' norm is float32 rounding noise after a few layers
         * (5.492e-08 here, 6.624e-08 on arm64), which printed as such would differ from machine to machine */
        if (!quiet) sb_printf(&o, " %5lld   %16.4f   %15.4f\n", (long long)l, c, ps);
        if (l == L || !(ok = stack_layer(I, d, H, residual, xs, 2))) break;
    }
    ten_free(xs[0]);
    ten_free(xs[1]);
    Value *result = NULL;
    if (ok) {
        if (!quiet) {
            stack_conclusions(I->run.lang, &o, cos0, c, pos0, ps, L, residual);
            interp_write(I, sb_str(&o));
        }
        result = val_dict(I->run.heap);
        dict_set(result->u.dict, "cosine", cos_l);
        dict_set(result->u.dict, "position", pos_l);
        if (want_plot) {
            Value *ys = val_list(I->run.heap, 2), *leg = val_list(I->run.heap, 2), *xsv = val_range(I->run.heap, 0, L + 1, 1);
            val_seq_set(ys, 0, val_incref(cos_l));
            val_seq_set(ys, 1, val_incref(pos_l));
            val_seq_set(leg, 0, val_str(I->run.heap, TR(I->run.lang, "token similarity (mean cosine)")));
            val_seq_set(leg, 1, val_str(I->run.heap, TR(I->run.lang, "position signal (spread)")));
            Value *xl = val_str(I->run.heap, TR(I->run.lang, "layer"));
            const char *const pn[] = {"xlabel", "legend", NULL};
            Value *const pvs[] = {xl, leg};
            Value *pr = plot_call(I, xsv, ys, pn, pvs);
            val_decref(pr);
            val_decref(ys); val_decref(leg); val_decref(xsv); val_decref(xl);
            if (interp_failed(I)) { val_decref(result); result = NULL; }
        }
    } else {
        val_decref(cos_l);
        val_decref(pos_l);
    }
    sb_free(&o);
    return result;
}

const Builtin bi_d2l_after[] = {
    {"toeplitz_error", bi_toeplitz_error, "toeplitz_error(S)",
     "max |S[i, j] - S[i+1, j+1]| over a score matrix (or a batch of them): 0 when every score depends only on the "
     "offset j - i, the relative-position property.", "§11.6.5", 0, ""},
    {"relative_position_index", bi_rel_index, "relative_position_index(n, k)",
     "(n, n) matrix of clip(j - i, -k, k) + k: which of Shaw et al.'s 2k+1 learned vectors each query-key pair uses.", "§11.6.5", 0, ""},
    {"shaw_bias", bi_shaw_bias, "shaw_bias(q, table)",
     "Relative position representations (Shaw et al. 2018): q_i · a[clip(j - i, -k, k)] / sqrt(d) for a table of 2k+1 "
     "vectors; added to the content scores q_i · k_j / sqrt(d).", "§11.6.5", 0, ""},
    {"rope", bi_rope, "rope(X, base=10000)",
     "Rotary position embedding (Su et al. 2021): rotates each pair (2j, 2j+1) of X at position m by m·θ_j, "
     "θ_j = base^(-2j/d), the §11.6.3.2 rotation applied to queries and keys, so rope(Q) @ rope(K).T depends only on "
     "the offset.", "§11.6.5", 0, ""},
    {"alibi_slopes", bi_alibi_slopes, "alibi_slopes(num_heads)",
     "ALiBi's per-head slopes (Press et al. 2021): 2^(-8h/H) for h = 1..H (1/2 .. 1/256 for 8 heads).", "§11.6.5", 0, ""},
    {"alibi_bias", bi_alibi_bias, "alibi_bias(n, num_heads, causal=True)",
     "ALiBi's (H, n, n) bias m_h·(j - i) added to the scores instead of a positional encoding (-inf above the diagonal "
     "when causal).", "§11.6.5", 0, ""},
    {"stack_attention", bi_stack_attention,
     "stack_attention(layers=8, n=10, d=32, heads=4, residual=False, seed=0, quiet=False, plot=False)",
     "Exercise 1: runs two inputs through the same stack of freshly initialised self-attention layers "
     "(MultiHeadAttention(d, heads, 0), eval mode; residual=True adds each layer's input to its output): n random "
     "tokens plus P, and one random token repeated at n positions plus P. Prints per layer the token similarity "
     "(mean pairwise cosine of the first) and the position signal (relative spread of the second's rows: 0 when "
     "every position gives the same output), and what they show. seed= chooses the random tokens. Returns "
     "{'cosine': [...], 'position': [...]}; plot=True draws both.", "§11.6.5", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

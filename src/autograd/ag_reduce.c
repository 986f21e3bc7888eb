/* ag_reduce.c - gradients of the reductions with options, recorded around a forward the caller already ran (as
 * ag_extra.c's): std, var, norm (any p > 0, inf and -inf), prod (exact with zeros), logsumexp, amax/amin and median
 * (ties share), cumsum and cumprod along a dim. Formulas from PyTorch's derivatives.yaml. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ag_internal.h"
#include "ag_f64.h"

/* ---- reductions with options ---- */

/* g of a reduction over n->dims (all when nd < 0) given back its reduced dims as size 1 (a view or reshape). */
static Tensor *keep_dims(const AgNode *n, const Tensor *g) {
    if (n->nd < 0) {
        int64_t ones[TEN_MAX_DIMS];
        for (int i = 0; i < n->in_ndim[0]; i++) ones[i] = 1;
        return ten_reshape(g, n->in_ndim[0], ones);
    }
    Tensor *cur = ten_alias(g);
    if (!n->keepdim)
        for (int i = 0; i < n->nd && cur; i++) {
            Tensor *u = ten_unsqueeze(cur, n->dims[i]);
            ten_free(cur);
            cur = u;
        }
    return cur;
}

/* x reduced (sum) over the node's dims, kept as size 1. */
static Tensor *sum_kept(const AgNode *n, const Tensor *x) {
    if (n->nd >= 0) return ag_sum_keep(x, n->dims, n->nd);
    int all[TEN_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) all[i] = i;
    return ag_sum_keep(x, all, x->ndim);
}

/* The product of every element but one, along the last dim of a contiguous float64 (rows, len): prefix * suffix. */
static void prod_others(const double *x, double *out, int64_t rows, int64_t len) {
    for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * len;
        double *o = out + r * len, acc = 1.0;
        for (int64_t i = 0; i < len; i++) { o[i] = acc; acc *= xr[i]; }
        acc = 1.0;
        for (int64_t i = len - 1; i >= 0; i--) { o[i] *= acc; acc *= xr[i]; }
    }
}

/* prod's grad factor: d prod / d x_i over the reduced dims (moved last, flattened), computed without dividing. */
static Tensor *prod_factor(const AgNode *n, const Tensor *x) {
    int perm[TEN_MAX_DIMS], np = 0, nd = x->ndim, inv[TEN_MAX_DIMS];
    bool red[TEN_MAX_DIMS] = {false};
    for (int i = 0; i < (n->nd < 0 ? nd : n->nd); i++) red[n->nd < 0 ? i : n->dims[i]] = true;
    for (int d = 0; d < nd; d++) if (!red[d]) perm[np++] = d;
    int64_t len = 1;
    for (int d = 0; d < nd; d++) if (red[d]) { perm[np++] = d; len *= x->shape[d]; }
    for (int i = 0; i < nd; i++) inv[perm[i]] = i;
    Tensor *p = nd ? ten_permute(x, perm) : ten_alias(x), *pc = f64(p), *o = pc ? ten_new_in(ten_ctx_of(x), DT_F64, pc->ndim, pc->shape) : NULL;
    if (o && len > 0) prod_others(ten_f64(pc), ten_f64(o), o->numel / len, len);
    Tensor *back = o ? (nd ? ten_permute(o, inv) : ten_alias(o)) : NULL;
    return ag_drop(back, p, pc, o);
}

/* norm's grad as PyTorch's norm_backward, from g and the norm kept as size 1 over the reduced dims (p: n->scalar):
 * p = ±inf: sgn(x) g / (how many |x| equal the norm) where they do (or are NaN); p = 1: g sgn(x); p = 2: g x / norm;
 * else g sgn(x) |x|^(p-1) / norm^(p-1), 0 where x is 0 (not 0 * inf for p < 1 ... 2) and where the norm is 0. */
static Tensor *norm_grad(const AgNode *n, const Tensor *x, const Tensor *gk, const Tensor *yk) {
    if (!gk || !yk) return NULL;            /* a failed step before: its error is set */
    double p = n->scalar;
    Tensor *sx = ten_unary(UOP_SIGN, x), *ax = ten_unary(UOP_ABS, x), *r = NULL;
    if (isinf(p)) {
        Tensor *eq = ag_bin(OP_EQ, ax, false, yk, false), *nan = ax ? ten_unary(UOP_ISNAN, ax) : NULL;
        Tensor *m = ag_bin(OP_OR, eq, false, nan, false), *mf = m ? ten_cast(m, gk->dtype) : NULL;
        Tensor *cnt = mf ? sum_kept(n, mf) : NULL, *share = ag_bin(OP_DIV, gk, false, cnt, false);
        Tensor *sm = ag_bin(OP_MUL, sx, false, mf, false);
        r = ag_bin(OP_MUL, share, false, sm, false);
        ag_drop(NULL, eq, nan, m);
        ag_drop(NULL, mf, cnt, share);
        ten_free(sm);
    } else if (p == 1.0) r = ag_bin(OP_MUL, gk, false, sx, false);
    else {
        Tensor *zero = ten_scalar_d_in(ten_ctx_of(gk), 0.0), *num;
        if (p == 2.0) num = ten_alias(x);
        else {
            Tensor *ap = ag_bin_s(OP_POW, ax, p - 1.0), *sp = ag_bin(OP_MUL, sx, false, ap, false), *x0 = ag_bin_s(OP_EQ, x, 0.0);
            num = sp && x0 && zero ? ten_where(x0, zero, true, sp, false) : NULL;
            ag_drop(NULL, ap, sp, x0);
        }
        Tensor *den = p == 2.0 ? ten_alias(yk) : ag_bin_s(OP_POW, yk, p - 1.0);
        Tensor *q = ag_bin(OP_DIV, num, false, den, false), *nz = ag_bin_s(OP_EQ, yk, 0.0);
        Tensor *q0 = nz && q && zero ? ten_where(nz, zero, true, q, false) : NULL;
        r = ag_bin(OP_MUL, gk, false, q0, false);
        ag_drop(NULL, num, den, q);
        ag_drop(NULL, nz, q0, zero);
    }
    ag_drop(NULL, sx, ax, NULL);
    return r;
}

/* What a reduction's backward reads, as PyTorch saves it: x (all but cumsum), the result (not var's nor cumsum's). */
static bool red_saves_x(AgRed k) { return k != AG_R_CUMSUM; }
static bool red_saves_result(AgRed k) { return k != AG_R_CUMSUM && k != AG_R_VAR; }

/* op: the kind (AgRed); saved 0 x, 1 the result (red_saves_*); scalar: var's divisor n - correction, or norm's p. */
static int red_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    AgRed kind = (AgRed)n->op;
    const Tensor *x = red_saves_x(kind) ? ag_saved(n, 0) : NULL, *y = red_saves_result(kind) && x ? ag_saved(n, 1) : NULL;
    if ((red_saves_x(kind) && !x) || (red_saves_result(kind) && !y)) return -1;
    Tensor *gk = keep_dims(n, g), *yk = y ? keep_dims(n, y) : NULL, *r = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL;
    switch (kind) {
    case AG_R_VAR: case AG_R_STD: {     /* var: g 2 (x - mean) / (N - c); std: g (x - mean) / ((N - c) std) */
        Tensor *s = sum_kept(n, x);
        double cnt = 1;
        for (int i = 0; i < n->in_ndim[0]; i++) cnt *= (double)n->in_shape[0][i];
        if (n->nd >= 0) { cnt = 1; for (int i = 0; i < n->nd; i++) cnt *= (double)n->in_shape[0][n->dims[i]]; }
        t1 = ag_bin_s(OP_DIV, s, cnt);
        ten_free(s);
        t2 = ag_bin(OP_SUB, x, false, t1, false);
        if (n->op == AG_R_VAR) t3 = ag_bin_s(OP_MUL, gk, 2.0 / n->scalar);
        else { Tensor *q = ag_bin_s(OP_MUL, yk, n->scalar); t3 = ag_bin(OP_DIV, gk, false, q, false); ten_free(q); }
        r = ag_bin(OP_MUL, t3, false, t2, false);
        break;
    }
    case AG_R_NORM:
        r = norm_grad(n, x, gk, yk);
        break;
    case AG_R_PROD:                     /* g * (the product of the others) */
        t1 = prod_factor(n, x);
        t2 = as_dtype(t1 ? ten_alias(t1) : NULL, g->dtype);
        r = ag_bin(OP_MUL, gk, false, t2, false);
        break;
    case AG_R_LOGSUMEXP:                /* g exp(x - result) */
        t1 = ag_bin(OP_SUB, x, false, yk, false);
        t2 = t1 ? ten_unary(UOP_EXP, t1) : NULL;
        r = ag_bin(OP_MUL, gk, false, t2, false);
        break;
    case AG_R_AMAX: {                   /* g shared evenly among the places equal to the result */
        t1 = ag_bin(OP_EQ, x, false, yk, false);
        t2 = t1 ? ten_cast(t1, g->dtype) : NULL;
        t3 = t2 ? sum_kept(n, t2) : NULL;
        Tensor *share = ag_bin(OP_DIV, gk, false, t3, false);
        r = ag_bin(OP_MUL, share, false, t2, false);
        ten_free(share);
        break;
    }
    case AG_R_CUMSUM: {                 /* the grad's reversed cumulative sum */
        int d = n->dims[0];
        Tensor *f = ten_flip(g, d), *cs = f ? ten_cumsum(f, d) : NULL;
        r = cs ? ten_flip(cs, d) : NULL;
        ag_drop(NULL, f, cs, NULL);
        break;
    }
    }
    ag_drop(NULL, t1, t2, t3);
    ag_drop(NULL, gk, yk, NULL);
    Tensor *full = r && n->op != AG_R_CUMSUM ? ten_expand(r, n->in_ndim[0], n->in_shape[0]) : (r ? ten_alias(r) : NULL);
    Tensor *fc = full ? ten_contiguous(full) : NULL;
    gin[0] = ag_to_input(n, 0, ag_drop(fc, r, full, NULL));
    return ag_done(n, gin);
}

AgVal ag_reduction(AgContext *c, AgRed kind, const char *name, AgVal x, Tensor *out, const int *dims, int nd,
                   bool keepdim, double scalar) {
    if (!out) return AG_FAILED;
    if (nd > TEN_MAX_DIMS) { ten_free(out); ten_fail_in(c->ten, "too many dims (%d)", nd); return AG_FAILED; }
    int d[TEN_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        if ((d[i] = ten_norm_dim_in(ten_ctx_of(out), dims[i], x.t->ndim < 1 ? 1 : x.t->ndim)) < 0) { ten_free(out); return AG_FAILED; }
        for (int j = i; j > 0 && d[j - 1] > d[j]; j--) { int t = d[j]; d[j] = d[j - 1]; d[j - 1] = t; }
    }
    if (x.t->ndim == 0) nd = -1;
    AgNode *n = ag_record(c, name, red_bw, 1, &x);
    if (n) {
        n->op = (int)kind;
        n->nd = nd;
        if (nd > 0) memcpy(n->dims, d, sizeof(int) * (size_t)nd);
        n->keepdim = keepdim;
        n->scalar = scalar;
        if (red_saves_x(kind)) ag_node_save(n, 0, x.t, x.m, false);
        if (red_saves_result(kind)) ag_node_save(n, 1, out, NULL, true);
    }
    return ag_result(out, n);
}

/* ---- cumprod along a dim: CumprodBackward0 ---- */

/* Each row (the dim moved last, contiguous float64): grad_i = sum over j >= i of g_j * prod of x_k for k <= j, k != i,
 * by a running product (no division, so zeros are exact). */
static void cumprod_rows(const double *x, const double *g, double *out, int64_t rows, int64_t len) {
    for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * len, *gr = g + r * len;
        double *o = out + r * len, before = 1.0;          /* the product of x_k for k < i */
        for (int64_t i = 0; i < len; i++) {
            double acc = 0, run = before;
            for (int64_t j = i; j < len; j++) {
                if (j > i) run *= xr[j];
                acc += gr[j] * run;
            }
            o[i] = acc;
            before *= xr[i];
        }
    }
}

/* saved 0 x, 1 the result (unread: saved as PyTorch saves it, so that writing into it fails backward as there);
 * dims[0] the dim. */
static int cumprod_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *x = ag_saved(n, 0);
    if (!x || !ag_saved(n, 1)) return -1;
    int d = n->dims[0], nd = x->ndim;
    if (nd == 0) { gin[0] = ten_alias(g); return ag_done(n, gin); }
    Tensor *xt = ten_transpose(x, d, nd - 1), *gt = ten_transpose(g, d, nd - 1);
    Tensor *xc = f64(xt), *gc = f64(gt), *o = xc ? ten_new_in(ten_ctx_of(g), DT_F64, xc->ndim, xc->shape) : NULL;
    int64_t len = x->shape[d];
    if (o && gc && len > 0) cumprod_rows(ten_f64(xc), ten_f64(gc), ten_f64(o), o->numel / len, len);
    Tensor *back = o && gc ? ten_transpose(o, d, nd - 1) : NULL, *bc = back ? ten_contiguous(back) : NULL;
    ag_drop(NULL, xt, gt, xc);
    ag_drop(NULL, gc, o, back);
    gin[0] = as_dtype(bc, n->in_dtype[0]);
    return ag_done(n, gin);
}

AgVal ag_cumprod(AgContext *c, AgVal x, int dim, Tensor *out) {
    if (!out) return AG_FAILED;
    int d = ten_norm_dim_in(ten_ctx_of(out), dim, x.t->ndim < 1 ? 1 : x.t->ndim);
    if (d < 0) { ten_free(out); return AG_FAILED; }
    AgNode *n = ag_record(c, "CumprodBackward0", cumprod_bw, 1, &x);
    if (n) {
        n->dims[0] = d;
        ag_node_save(n, 0, x.t, x.m, false);
        ag_node_save(n, 1, out, NULL, true);
    }
    return ag_result(out, n);
}

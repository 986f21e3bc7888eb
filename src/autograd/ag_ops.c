/* ag_ops.c - the differentiable ops: forward by the tensor library's kernels, a node when grad mode is on and an
 * input requires grad, and each node's backward (PyTorch's formulas from derivatives.yaml, in the same order). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ag_internal.h"
#include "parallel.h"
#include "vecmath.h"

/* The result of an op: out with a new AgMeta whose grad_fn is n (when n is not NULL). Frees n when out is NULL. */
AgVal ag_result(Tensor *out, AgNode *n) {
    AgVal r = {out, NULL};
    if (!out) { ag_node_unref(n); return r; }
    if (n) r.m = ag_meta_for(n);
    return r;
}

/* A node for an op of nin inputs when one of them requires grad (else NULL), remembering their shapes and dtypes. */
AgNode *ag_record(AgContext *c, const char *name, AgBackwardFn bw, int nin, const AgVal *in) {
    const AgMeta *ms[AG_MAX_IN] = {NULL, NULL, NULL};
    for (int i = 0; i < nin && i < AG_MAX_IN; i++) ms[i] = in[i].t ? in[i].m : NULL;
    if (!ag_should_record(c, nin, ms)) return NULL;
    return ag_record_always(c, name, bw, nin, in);
}

AgNode *ag_record_always(AgContext *c, const char *name, AgBackwardFn bw, int nin, const AgVal *in) {
    const AgMeta *ms[AG_MAX_IN] = {NULL, NULL, NULL};
    for (int i = 0; i < nin && i < AG_MAX_IN; i++) ms[i] = in[i].t ? in[i].m : NULL;
    AgNode *n = ag_node_new(c, name, bw, nin, ms);
    for (int i = 0; i < nin; i++) {
        if (!in[i].t) continue;                 /* an optional input left out (layer_norm's weight) */
        n->in_dtype[i] = in[i].t->dtype;
        n->in_ndim[i] = in[i].t->ndim;
        memcpy(n->in_shape[i], in[i].t->shape, sizeof(int64_t) * (size_t)in[i].t->ndim);
    }
    return n;
}

/* ---- small tensor helpers for the backward formulas (NULL propagates: each frees what it is given to own) ---- */

Tensor *ag_bin(BinOp op, const Tensor *a, bool aw, const Tensor *b, bool bw) {
    if (!a || !b) return NULL;
    return ten_binary(op, a, aw, b, bw);
}

/* a op number, the number a Python scalar (keeps a's dtype). */
Tensor *ag_bin_s(BinOp op, const Tensor *a, double v) {
    if (!a) return NULL;
    Tensor *s = ten_scalar_d_in(ten_ctx_of(a), v);
    Tensor *r = s ? ten_binary(op, a, false, s, true) : NULL;
    ten_free(s);
    return r;
}

/* number op b. */
Tensor *ag_s_bin(BinOp op, double v, const Tensor *b) {
    if (!b) return NULL;
    Tensor *s = ten_scalar_d_in(ten_ctx_of(b), v);
    Tensor *r = s ? ten_binary(op, s, true, b, false) : NULL;
    ten_free(s);
    return r;
}

/* Frees the temporaries of a formula and returns r. */
Tensor *ag_drop(Tensor *r, Tensor *t1, Tensor *t2, Tensor *t3) {
    ten_free(t1);
    ten_free(t2);
    ten_free(t3);
    return r;
}

/* Sum over each dim of `dims` (ascending or not), keeping them as size 1. */
Tensor *ag_sum_keep(const Tensor *g, const int *dims, int nd) {
    Tensor *cur = ten_alias(g);
    for (int i = 0; i < nd && cur; i++) {
        Tensor *s = ten_reduce(RED_SUM, cur, false, dims[i], true);
        ten_free(cur);
        cur = s;
    }
    return cur;
}

/* g (a broadcast result's grad) summed back to shape (ndim) and cast to dtype: PyTorch's sum_to_size. */
Tensor *ag_sum_to(const Tensor *g, int ndim, const int64_t *shape, DType dt) {
    if (!g) return NULL;
    int lead = g->ndim - ndim, dims[TEN_MAX_DIMS], nd = 0;
    for (int d = 0; d < g->ndim; d++)
        if (d < lead || (shape[d - lead] == 1 && g->shape[d] != 1)) dims[nd++] = d;
    Tensor *s = ag_sum_keep(g, dims, nd);
    Tensor *r = s ? ten_reshape(s, ndim, shape) : NULL;
    ten_free(s);
    if (r && r->dtype != dt) {
        Tensor *c = ten_cast(r, dt);
        ten_free(r);
        r = c;
    }
    return r;
}

/* The grad of input i of n from a grad of the output's shape: summed to the input's shape and dtype. */
Tensor *ag_to_input(const AgNode *n, int i, Tensor *g) {
    Tensor *r = ag_sum_to(g, n->in_ndim[i], n->in_shape[i], n->in_dtype[i]);
    ten_free(g);
    return r;
}

/* Checks a backward's results: -1 when a needed grad could not be computed (freeing the others). */
int ag_done(AgNode *n, Tensor **gin) {
    for (int i = 0; i < n->nnext; i++)
        if (ag_needs(n, i) && !gin[i]) {
            for (int k = 0; k < n->nnext; k++) { ten_free(gin[k]); gin[k] = NULL; }
            return -1;
        }
    return 0;
}

/* ---- add, sub, mul, div with broadcasting ---- */

static const char *binary_name(BinOp op) {
    switch (op) {
    case OP_ADD: return "AddBackward0";
    case OP_SUB: return "SubBackward0";
    case OP_MUL: return "MulBackward0";
    default: return "DivBackward0";
    }
}

/* saved[0] = a (when b needs a grad for mul and div), saved[1] = b (when a needs one, or b for div); dims[0..1] the
 * operands' weak flags. */
static int binary_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    bool aw = n->dims[0], bw = n->dims[1];
    const Tensor *a = NULL, *b = NULL;
    if ((n->op == OP_MUL && ag_needs(n, 1)) || (n->op == OP_DIV && ag_needs(n, 1)))
        if (!(a = ag_saved(n, 0))) return -1;
    if ((n->op == OP_MUL && ag_needs(n, 0)) || n->op == OP_DIV)
        if (!(b = ag_saved(n, 1))) return -1;
    switch (n->op) {
    case OP_ADD:
        if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, ten_alias(g));
        if (ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, ten_alias(g));
        break;
    case OP_SUB:
        if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, ten_alias(g));
        if (ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, ten_unary(UOP_NEG, g));
        break;
    case OP_MUL:                                   /* grad * other, grad * self */
        if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, ag_bin(OP_MUL, g, false, b, bw));
        if (ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, ag_bin(OP_MUL, g, false, a, aw));
        break;
    default:                                       /* grad / other, -grad * self / (other * other) */
        if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, ag_bin(OP_DIV, g, false, b, bw));
        if (ag_needs(n, 1)) {
            Tensor *ng = ten_unary(UOP_NEG, g), *t = ag_bin(OP_MUL, ng, false, a, aw), *bb = ag_bin(OP_MUL, b, bw, b, bw);
            gin[1] = ag_to_input(n, 1, ag_drop(ag_bin(OP_DIV, t, false, bb, bw), ng, t, bb));
        }
    }
    return ag_done(n, gin);
}

/* -grad, summed to the input's shape. */
static int rsub_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    gin[0] = ag_to_input(n, 0, ten_unary(UOP_NEG, g));
    return ag_done(n, gin);
}

/* -grad * result * result. saved[0] = the result. */
static int reciprocal_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *r = ag_saved(n, 0);
    if (!r) return -1;
    Tensor *ng = ten_unary(UOP_NEG, g), *rr = ag_bin(OP_MUL, r, false, r, false);
    gin[0] = ag_to_input(n, 0, ag_drop(ag_bin(OP_MUL, ng, false, rr, false), ng, rr, NULL));
    return ag_done(n, gin);
}

AgVal ag_reciprocal(AgContext *c, AgVal x) {
    Tensor *out = ten_map("reciprocal", x.t);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "ReciprocalBackward0", reciprocal_bw, 1, &x);
    if (n) ag_node_save(n, 0, out, NULL, true);
    return ag_result(out, n);
}

/* A Python number on the left, as PyTorch's reflected operators compute it: 1 + x and 2 * x are x + 1 and x * 2,
 * 1 - x is rsub (RsubBackward1, one edge), 2 / x is x.reciprocal() * 2. */
static AgVal reflected(AgContext *c, BinOp op, AgVal a, AgVal b) {
    if (op == OP_ADD || op == OP_MUL) return ag_binary(c, op, b, false, a, true);
    if (op == OP_DIV) {
        AgVal r = ag_reciprocal(c, b);
        if (!r.t) return AG_FAILED;
        AgVal out = ag_binary(c, OP_MUL, r, false, a, true);
        ag_val_free(r);
        return out;
    }
    Tensor *out = ten_binary(OP_SUB, a.t, true, b.t, false);
    if (!out) return AG_FAILED;
    return ag_result(out, ag_record(c, "RsubBackward1", rsub_bw, 1, &b));
}

AgVal ag_binary(AgContext *c, BinOp op, AgVal a, bool a_weak, AgVal b, bool b_weak) {
    if (op != OP_ADD && op != OP_SUB && op != OP_MUL && op != OP_DIV) {
        ten_fail_in(c->ten, "autograd: no derivative for this binary operation");
        return AG_FAILED;
    }
    if (a_weak && !b_weak) return reflected(c, op, a, b);
    Tensor *out = ten_binary(op, a.t, a_weak, b.t, b_weak);
    if (!out) return AG_FAILED;
    AgVal in[2] = {a, b};
    AgNode *n = ag_record(c, binary_name(op), binary_bw, 2, in);
    if (n) {
        n->op = op;
        n->dims[0] = a_weak;
        n->dims[1] = b_weak;
        if ((op == OP_MUL || op == OP_DIV) && ag_needs(n, 1)) ag_node_save(n, 0, a.t, a.m, false);
        if ((op == OP_MUL && ag_needs(n, 0)) || op == OP_DIV) ag_node_save(n, 1, b.t, b.m, false);
    }
    return ag_result(out, n);
}

/* ---- elementwise functions ---- */

static const char *unary_name(UnOp op) {
    switch (op) {
    case UOP_NEG: return "NegBackward0";
    case UOP_EXP: return "ExpBackward0";
    case UOP_LOG: return "LogBackward0";
    case UOP_SQRT: return "SqrtBackward0";
    case UOP_SIN: return "SinBackward0";
    case UOP_COS: return "CosBackward0";
    case UOP_TANH: return "TanhBackward0";
    case UOP_SIGMOID: return "SigmoidBackward0";
    case UOP_RELU: return "ReluBackward0";
    default: return NULL;
    }
}

/* Ops whose formula reads the result (PyTorch saves result) rather than the input. */
static bool saves_result(UnOp op) {
    return op == UOP_EXP || op == UOP_SQRT || op == UOP_TANH || op == UOP_SIGMOID || op == UOP_RELU;
}

/* relu's backward on attn's threads: r[i] = s[i] (the result) > 0 ? g[i] : 0, for i in [begin, end). Without a
 * branch (g's bits kept or cleared by a mask): the signs of a layer's pre-activations are random, and a branch on
 * each one mispredicted half the time (9 ms for the block's 2 million elements, now about 1). */
typedef struct ReluBwJob {
    const float *s, *g;
    float *r;
} ReluBwJob;

static void relu_bw_range(void *ctx, int64_t begin, int64_t end) {
    const ReluBwJob *j = ctx;
    const float *restrict s = j->s, *restrict g = j->g;
    float *restrict r = j->r;
    for (int64_t i = begin; i < end; i++) {
        uint32_t bits;
        memcpy(&bits, &g[i], sizeof bits);
        bits &= 0u - (uint32_t)!(s[i] <= 0);   /* NaN passes the gradient, as threshold_backward */
        memcpy(&r[i], &bits, sizeof bits);
    }
}

/* saved[0]: the input, or the result for saves_result ops. */
static int unary_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *s = NULL;
    if (n->op != UOP_NEG && !(s = ag_saved(n, 0))) return -1;
    Tensor *r = NULL, *t1 = NULL, *t2 = NULL;
    switch ((UnOp)n->op) {
    case UOP_NEG: r = ten_unary(UOP_NEG, g); break;
    case UOP_EXP: r = ag_bin(OP_MUL, g, false, s, false); break;                          /* grad * result */
    case UOP_LOG: r = ag_bin(OP_DIV, g, false, s, false); break;                          /* grad / self */
    case UOP_SQRT: t1 = ag_s_bin(OP_MUL, 2.0, s); r = ag_bin(OP_DIV, g, false, t1, false); break;   /* grad / (2 * result) */
    case UOP_SIN: t1 = ten_unary(UOP_COS, s); r = ag_bin(OP_MUL, g, false, t1, false); break;   /* grad * self.cos() */
    case UOP_COS:                                                                      /* grad * -self.sin() */
        t1 = ten_unary(UOP_SIN, s);
        t2 = t1 ? ten_unary(UOP_NEG, t1) : NULL;
        r = ag_bin(OP_MUL, g, false, t2, false);
        break;
    case UOP_TANH:                                                                     /* grad * (1 - y * y) */
        t1 = ag_bin(OP_MUL, s, false, s, false);
        t2 = ag_s_bin(OP_SUB, 1.0, t1);
        r = ag_bin(OP_MUL, g, false, t2, false);
        break;
    case UOP_SIGMOID: {                                                                /* grad * (1 - y) * y */
        t1 = ag_s_bin(OP_SUB, 1.0, s);
        t2 = ag_bin(OP_MUL, g, false, t1, false);
        r = ag_bin(OP_MUL, t2, false, s, false);
        break;
    }
    case UOP_RELU:                                                                     /* result <= 0 ? 0 : grad */
        if (s->dtype == DT_F32 && g->dtype == DT_F32 && s->contiguous && g->contiguous && ten_same_shape(s, g) &&
            (r = ten_new_uninit_in(ten_ctx_of(g), DT_F32, g->ndim, g->shape))) {
            ReluBwJob j = {ten_f32(s), ten_f32(g), ten_f32(r)};
            par_for(ten_ctx_of(g), r->numel, 1 << 15, relu_bw_range, &j);
            break;
        }
        Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
        t1 = ag_bin_s(OP_LE, s, 0.0);
        r = t1 && zero ? ten_where(t1, zero, true, g, false) : NULL;
        ten_free(zero);
        break;
    default: break;
    }
    gin[0] = ag_to_input(n, 0, ag_drop(r, t1, t2, NULL));
    return ag_done(n, gin);
}

AgVal ag_unary(AgContext *c, UnOp op, AgVal x) {
    const char *name = unary_name(op);
    if (!name) {
        ten_fail_in(c->ten, "autograd: no derivative for this function");
        return AG_FAILED;
    }
    Tensor *out = ten_unary(op, x.t);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, name, unary_bw, 1, &x);
    if (n) {
        n->op = op;
        if (saves_result(op)) ag_node_save(n, 0, out, NULL, true);
        else if (op != UOP_NEG) ag_node_save(n, 0, x.t, x.m, false);
    }
    return ag_result(out, n);
}

/* grad * (p * self ** (p - 1)); zeros for p == 0. saved[0] = x, scalar = p. */
static int pow_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *x = ag_saved(n, 0);
    if (!x) return -1;
    double p = n->scalar;
    if (p == 0.0) gin[0] = ag_to_input(n, 0, ag_bin_s(OP_MUL, g, 0.0));
    else {
        Tensor *xp = ag_bin_s(OP_POW, x, p - 1.0), *t = ag_s_bin(OP_MUL, p, xp);
        gin[0] = ag_to_input(n, 0, ag_drop(ag_bin(OP_MUL, g, false, t, false), xp, t, NULL));
    }
    return ag_done(n, gin);
}

AgVal ag_pow_scalar(AgContext *c, AgVal x, double p) {
    Tensor *out = ag_bin_s(OP_POW, x.t, p);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "PowBackward0", pow_bw, 1, &x);
    if (n) {
        n->scalar = p;
        ag_node_save(n, 0, x.t, x.m, false);
    }
    return ag_result(out, n);
}

/* F.gelu (approximate='none'): grad * (cdf + x * pdf), cdf = (1 + erf(x / sqrt 2)) / 2, pdf = exp(-x^2 / 2) /
 * sqrt(2 pi). saved[0] = x. */
static int gelu_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *x = ag_saved(n, 0);
    if (!x) return -1;
    Tensor *xs = ag_bin_s(OP_MUL, x, 0.70710678118654752440), *e = xs ? ten_map("erf", xs) : NULL;
    Tensor *e1 = ag_bin_s(OP_ADD, e, 1.0), *cdf = ag_bin_s(OP_MUL, e1, 0.5);
    ag_drop(NULL, xs, e, e1);
    Tensor *xx = ag_bin(OP_MUL, x, false, x, false), *h = ag_bin_s(OP_MUL, xx, -0.5), *ex = h ? ten_unary(UOP_EXP, h) : NULL;
    Tensor *pdf = ag_bin_s(OP_MUL, ex, 0.39894228040143267794);
    ag_drop(NULL, xx, h, ex);
    Tensor *xp = ag_bin(OP_MUL, x, false, pdf, false), *d = ag_bin(OP_ADD, cdf, false, xp, false);
    gin[0] = ag_to_input(n, 0, ag_bin(OP_MUL, g, false, d, false));
    ag_drop(NULL, cdf, pdf, xp);
    ten_free(d);
    return ag_done(n, gin);
}

AgVal ag_gelu(AgContext *c, AgVal x) {
    Tensor *out = ten_map("gelu", x.t);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "GeluBackward0", gelu_bw, 1, &x);
    if (n) ag_node_save(n, 0, x.t, x.m, false);
    return ag_result(out, n);
}

/* F.gelu(approximate='tanh'): grad * (0.5 (1 + t) + 0.5 x (1 - t^2) b (1 + 3 k x^2)), t = tanh(b (x + k x^3)),
 * b = sqrt(2 / pi), k = 0.044715 (PyTorch's GeluBackward0 formula), in double per element. saved[0] = x. */
static int gelu_tanh_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *x = ag_saved(n, 0);
    if (!x) return -1;
    Tensor *d = ten_copy(x);               /* written below: never x's own storage */
    if (!d) return -1;
    const double b = 0.79788456080286535588, k = 0.044715;
    for (int64_t i = 0; i < d->numel; i++) {
        double v = ten_get(d, i), t = tanh(b * (v + k * v * v * v));
        ten_set(d, i, 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * b * (1 + 3 * k * v * v));
    }
    gin[0] = ag_to_input(n, 0, ag_bin(OP_MUL, g, false, d, false));
    ten_free(d);
    return ag_done(n, gin);
}

AgVal ag_gelu_tanh(AgContext *c, AgVal x) {
    Tensor *out = ten_map("gelu_tanh", x.t);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "GeluBackward0", gelu_tanh_bw, 1, &x);
    if (n) ag_node_save(n, 0, x.t, x.m, false);
    return ag_result(out, n);
}

/* ---- where, abs, clamp ---- */

/* where(cond, x, y): grad where cond for x, where not for y, each summed to its shape. saved[0] = cond. */
static int where_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *cond = ag_saved(n, 0);
    if (!cond) return -1;
    Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
    if (zero && ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, ten_where(cond, g, false, zero, true));
    if (zero && ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, ten_where(cond, zero, true, g, false));
    ten_free(zero);
    return ag_done(n, gin);
}

AgVal ag_where(AgContext *c, const Tensor *cond, AgVal x, bool x_weak, AgVal y, bool y_weak) {
    if (cond->dtype != DT_BOOL) {
        ten_fail_in(ten_ctx_of(cond), "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                 ten_dtype_word(cond->dtype));
        return AG_FAILED;
    }
    Tensor *out = ten_where(cond, x.t, x_weak, y.t, y_weak);
    if (!out) return AG_FAILED;
    AgVal in[2] = {x, y};
    AgNode *n = ag_record(c, "WhereBackward0", where_bw, 2, in);
    if (n) ag_node_save(n, 0, cond, NULL, false);
    return ag_result(out, n);
}

/* abs: grad * sign(x) (op 0); clamp (op 1): grad where lo <= x <= hi, else 0, a NaN bound being none (scalar = lo,
 * sizes[0] = hi's bits). saved[0] = x. */
static int abs_clamp_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *x = ag_saved(n, 0);
    if (!x) return -1;
    if (n->op == 0) {
        Tensor *sg = ten_unary(UOP_SIGN, x);
        gin[0] = ag_to_input(n, 0, ag_drop(ag_bin(OP_MUL, g, false, sg, false), sg, NULL, NULL));
        return ag_done(n, gin);
    }
    double lo = n->scalar, hi;
    memcpy(&hi, n->sizes, sizeof hi);
    Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
    Tensor *l = isnan(lo) ? NULL : ag_bin_s(OP_GE, x, lo), *h = isnan(hi) ? NULL : ag_bin_s(OP_LE, x, hi);
    Tensor *in = l && h ? ag_bin(OP_AND, l, false, h, false) : l ? ten_alias(l) : h ? ten_alias(h) : NULL;
    Tensor *r = !in ? ten_alias(g) : zero ? ten_where(in, g, false, zero, true) : NULL;
    ag_drop(NULL, l, h, in);
    ten_free(zero);
    gin[0] = ag_to_input(n, 0, r);
    return ag_done(n, gin);
}

AgVal ag_abs(AgContext *c, AgVal x) {
    Tensor *out = ten_unary(UOP_ABS, x.t);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "AbsBackward0", abs_clamp_bw, 1, &x);
    if (n) ag_node_save(n, 0, x.t, x.m, false);
    return ag_result(out, n);
}

AgVal ag_clamp(AgContext *c, AgVal x, double lo, double hi) { return ag_clamp_as(c, x, lo, hi, "ClampBackward1"); }

AgVal ag_clamp_as(AgContext *c, AgVal x, double lo, double hi, const char *node) {
    Tensor *out = ten_clamp(x.t, lo, hi);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, node, abs_clamp_bw, 1, &x);
    if (n) {
        n->op = 1;
        n->scalar = lo;
        n->sizes = malloc(sizeof(int64_t));
        if (!n->sizes) {
            ten_fail_in(c->ten, "out of memory");
            ten_free(out);
            return ag_result(NULL, n);
        }
        memcpy(n->sizes, &hi, sizeof hi);
        ag_node_save(n, 0, x.t, x.m, false);
    }
    return ag_result(out, n);
}

/* ---- max and min ---- */

/* All elements (op 0): grad / count over the places equal to the result (PyTorch's evenly_distribute_backward);
 * saved 0 x, 1 the result. Over a dim (op 1): grad scattered to the saved indices (saved 0, keepdim's shape). */
static int max_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    if (n->op == 0) {
        const Tensor *x = ag_saved(n, 0), *r = x ? ag_saved(n, 1) : NULL;
        if (!r) return -1;
        Tensor *eq = ag_bin(OP_EQ, x, false, r, false), *cnt = eq ? ten_reduce(RED_SUM, eq, true, 0, false) : NULL;
        Tensor *share = cnt ? ag_bin(OP_DIV, g, false, cnt, false) : NULL, *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
        gin[0] = share && zero ? ten_where(eq, share, false, zero, true) : NULL;
        ag_drop(NULL, eq, cnt, share);
        ten_free(zero);
    } else {
        const Tensor *idx = ag_saved(n, 0);
        if (!idx) return -1;
        Tensor *gk = n->keepdim ? ten_alias(g) : ten_unsqueeze(g, n->dims[0]);
        Tensor *z = ten_new_in(ten_ctx_of(g), g->dtype, n->in_ndim[0], n->in_shape[0]);
        gin[0] = gk && z ? ten_scatter(z, n->dims[0], idx, gk, 0) : NULL;
        ag_drop(NULL, gk, z, NULL);
    }
    return ag_done(n, gin);
}

static AgVal extreme(AgContext *c, AgVal x, bool all, int dim, bool keepdim, bool min, Tensor **indices) {
    if (indices) *indices = NULL;
    int d = all ? 0 : ten_norm_dim_in(c->ten, dim, x.t->ndim);
    if (d < 0) return AG_FAILED;
    Tensor *out = ten_reduce(min ? RED_MIN : RED_MAX, x.t, all, d, keepdim), *idx = NULL;
    if (!out) return AG_FAILED;
    if (!all && !(idx = ten_reduce(min ? RED_ARGMIN : RED_ARGMAX, x.t, false, d, true))) {
        ten_free(out);
        return AG_FAILED;
    }
    AgNode *n = ag_record(c, all ? (min ? "MinBackward1" : "MaxBackward1") : (min ? "MinBackward0" : "MaxBackward0"),
                          max_bw, 1, &x);
    if (n) {
        n->op = !all;
        n->dims[0] = d;
        n->keepdim = keepdim;
        if (all) {
            ag_node_save(n, 0, x.t, x.m, false);
            ag_node_save(n, 1, out, NULL, true);
        } else ag_node_save(n, 0, idx, NULL, false);
    }
    if (idx && indices) {
        *indices = keepdim ? ten_alias(idx) : ten_squeeze(idx, d, false);
    }
    ten_free(idx);
    return ag_result(out, n);
}

AgVal ag_max(AgContext *c, AgVal x, bool min) { return extreme(c, x, true, 0, false, min, NULL); }
AgVal ag_max_dim(AgContext *c, AgVal x, int dim, bool keepdim, bool min, Tensor **indices) {
    return extreme(c, x, false, dim, keepdim, min, indices);
}

/* ---- sum and mean ---- */

/* The grad g of a reduction over n->dims (all dims when nd < 0) spread back over the input's shape, divided by
 * n->scalar for mean (1 for sum). */
static int reduce_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    Tensor *cur = ten_alias(g);
    if (n->nd >= 0 && !n->keepdim)
        for (int i = 0; i < n->nd && cur; i++) {           /* dims ascending: each unsqueeze puts one back */
            Tensor *u = ten_unsqueeze(cur, n->dims[i]);
            ten_free(cur);
            cur = u;
        }
    if (n->nd < 0 && cur) {                                /* a 0-dim grad: as many size-1 dims as the input */
        int64_t ones[TEN_MAX_DIMS];
        for (int i = 0; i < n->in_ndim[0]; i++) ones[i] = 1;
        Tensor *u = ten_reshape(cur, n->in_ndim[0], ones);
        ten_free(cur);
        cur = u;
    }
    Tensor *ex = cur ? ten_expand(cur, n->in_ndim[0], n->in_shape[0]) : NULL;
    Tensor *r = ex ? (n->scalar != 1.0 ? ag_bin_s(OP_DIV, ex, n->scalar) : ten_copy(ex)) : NULL;
    gin[0] = ag_to_input(n, 0, ag_drop(r, cur, ex, NULL));
    return ag_done(n, gin);
}

/* Sorted, normalised, distinct dims; -1 with PyTorch's message. */
static int norm_dims(TenCtx *c, const int *dims, int nd, int ndim, int *out) {
    for (int i = 0; i < nd; i++) {
        int d = ten_norm_dim_in(c, dims[i], ndim);
        if (d < 0) return -1;
        for (int j = 0; j < i; j++)
            if (out[j] == d) {
                ten_fail_in(c, "dim %d appears multiple times in the list of dims", d);
                return -1;
            }
        out[i] = d;
    }
    for (int i = 1; i < nd; i++)                    /* insertion sort: nd <= 8 */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) { int t = out[j]; out[j] = out[j - 1]; out[j - 1] = t; }
    return 0;
}

static AgVal reduce(AgContext *c, AgVal x, const int *dims, int nd, bool keepdim, bool mean) {
    int d[TEN_MAX_DIMS];
    if (nd > TEN_MAX_DIMS || (nd >= 0 && norm_dims(c->ten, dims, nd, x.t->ndim, d) < 0)) {
        if (nd > TEN_MAX_DIMS) ten_fail_in(c->ten, "too many dims (%d)", nd);
        return AG_FAILED;
    }
    double count = 1;
    Tensor *out;
    if (nd < 0) {
        out = ten_reduce(mean ? RED_MEAN : RED_SUM, x.t, true, 0, false);
        count = (double)x.t->numel;
    } else {
        Tensor *cur = ten_alias(x.t);
        for (int i = nd - 1; i >= 0 && cur; i--) {          /* descending: the lower dims keep their numbers */
            Tensor *s = ten_reduce(RED_SUM, cur, false, d[i], keepdim);
            count *= (double)x.t->shape[d[i]];
            ten_free(cur);
            cur = s;
        }
        out = mean && cur ? ag_bin_s(OP_DIV, cur, count) : cur;
        if (mean) ten_free(cur);
    }
    if (!out) return AG_FAILED;
    const char *name = nd < 0 ? (mean ? "MeanBackward0" : "SumBackward0") : (mean ? "MeanBackward1" : "SumBackward1");
    AgNode *n = ag_record(c, name, reduce_bw, 1, &x);
    if (n) {
        n->nd = nd;
        if (nd > 0) memcpy(n->dims, d, sizeof(int) * (size_t)nd);
        n->keepdim = keepdim;
        n->scalar = mean ? count : 1.0;
    }
    return ag_result(out, n);
}

AgVal ag_sum(AgContext *c, AgVal x) { return reduce(c, x, NULL, -1, false, false); }
AgVal ag_mean(AgContext *c, AgVal x) { return reduce(c, x, NULL, -1, false, true); }
AgVal ag_sum_dims(AgContext *c, AgVal x, const int *dims, int nd, bool keepdim) {
    return reduce(c, x, dims, nd, keepdim, false);
}
AgVal ag_mean_dims(AgContext *c, AgVal x, const int *dims, int nd, bool keepdim) {
    return reduce(c, x, dims, nd, keepdim, true);
}

/* ---- views and reshapes ---- */

/* Every op that only rearranges elements into a new shape of the same order: the grad reshaped back. */
static int reshape_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    gin[0] = ten_reshape(g, n->in_ndim[0], n->in_shape[0]);
    return ag_done(n, gin);
}

AgVal ag_shape_op(AgContext *c, AgVal x, Tensor *out, const char *name) {
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, name, reshape_bw, 1, &x);
    if (strcmp(name, "UnsafeViewBackward0")) return ag_view_result(out, n, x);     /* _unsafe_view makes no view */
    return ag_result(out, n);
}

AgVal ag_view(AgContext *c, AgVal x, int ndim, const int64_t *shape) {
    return ag_shape_op(c, x, ten_view_shape(x.t, ndim, shape), "ViewBackward0");
}

AgVal ag_unsafe_view(AgContext *c, AgVal x, int ndim, const int64_t *shape) {
    return ag_shape_op(c, x, ten_view_shape(x.t, ndim, shape), "UnsafeViewBackward0");
}

static int clone_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    gin[0] = ten_alias(g);
    return ag_done(n, gin);
}

AgVal ag_reshape(AgContext *c, AgVal x, int ndim, const int64_t *shape) {
    Tensor *r = ten_reshape(x.t, ndim, shape);
    if (!r) return AG_FAILED;
    if (ten_same_storage(r, x.t)) return ag_shape_op(c, x, r, "ReshapeAliasBackward0");
    /* PyTorch 1.13: a reshape that copies is clone (CloneBackward0) then _unsafe_view (UnsafeViewBackward0) */
    ten_free(r);
    AgVal cl = ag_result(ten_contiguous(x.t), ag_record(c, "CloneBackward0", clone_bw, 1, &x));
    if (!cl.t) return AG_FAILED;
    AgVal v = ag_unsafe_view(c, cl, ndim, shape);
    ag_val_free(cl);
    return v;
}

/* dims[0..1]: the transposed pair. */
static int transpose_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    gin[0] = ten_transpose(g, n->dims[0], n->dims[1]);
    return ag_done(n, gin);
}

AgVal ag_transpose(AgContext *c, AgVal x, int d0, int d1) {
    Tensor *out = ten_transpose(x.t, d0, d1);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "TransposeBackward0", transpose_bw, 1, &x);
    if (n) {
        n->dims[0] = ten_norm_dim_in(c->ten, d0, x.t->ndim);
        n->dims[1] = ten_norm_dim_in(c->ten, d1, x.t->ndim);
    }
    return ag_view_result(out, n, x);
}

AgVal ag_t(AgContext *c, AgVal x) {
    if (x.t->ndim > 2) {
        ten_fail_in(c->ten, "t() expects a tensor with <= 2 dimensions, but self is %dD", x.t->ndim);
        return AG_FAILED;
    }
    Tensor *out = x.t->ndim == 2 ? ten_transpose(x.t, 0, 1) : ten_alias(x.t);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "TBackward0", x.t->ndim == 2 ? transpose_bw : clone_bw, 1, &x);
    if (n) {
        n->dims[0] = 0;
        n->dims[1] = 1;
    }
    return ag_view_result(out, n, x);
}

/* dims: the inverse permutation. */
static int permute_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    gin[0] = ten_permute(g, n->dims);
    return ag_done(n, gin);
}

AgVal ag_permute(AgContext *c, AgVal x, const int *dims) {
    Tensor *out = ten_permute(x.t, dims);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "PermuteBackward0", permute_bw, 1, &x);
    if (n)
        for (int i = 0; i < x.t->ndim; i++) n->dims[ten_norm_dim_in(c->ten, dims[i], x.t->ndim)] = i;
    return ag_view_result(out, n, x);
}

/* The grad summed back over the broadcast dims. */
static int expand_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    gin[0] = ag_sum_to(g, n->in_ndim[0], n->in_shape[0], n->in_dtype[0]);
    return ag_done(n, gin);
}

AgVal ag_expand(AgContext *c, AgVal x, int ndim, const int64_t *shape) {
    int64_t sh[TEN_MAX_DIMS];
    if (ndim < x.t->ndim || ndim > TEN_MAX_DIMS) {
        ten_fail_in(c->ten, "expand: the number of sizes provided (%d) must be greater or equal to the number of dimensions in "
                 "the tensor (%d)", ndim, x.t->ndim);
        return AG_FAILED;
    }
    for (int i = 0; i < ndim; i++) {
        int j = i - (ndim - x.t->ndim);
        sh[i] = shape[i] == -1 && j >= 0 ? x.t->shape[j] : shape[i];
    }
    Tensor *out = ten_expand(x.t, ndim, sh);
    if (!out) return AG_FAILED;
    return ag_view_result(out, ag_record(c, "ExpandBackward0", expand_bw, 1, &x), x);
}

AgVal ag_unsqueeze(AgContext *c, AgVal x, int dim) {
    return ag_shape_op(c, x, ten_unsqueeze(x.t, dim), "UnsqueezeBackward0");
}

AgVal ag_squeeze(AgContext *c, AgVal x, int dim, bool all) {
    return ag_shape_op(c, x, ten_squeeze(x.t, dim, all), all ? "SqueezeBackward0" : "SqueezeBackward1");
}

/* ---- softmax, log_softmax, masked_fill ---- */

/* softmax: (grad - (grad * y).sum(dim, keepdim)) * y; log_softmax: grad - exp(y) * grad.sum(dim, keepdim).
 * saved[0] = y (the result); dims[0] = the dim; op 0 softmax, 1 log_softmax. */
/* The same formulas in one pass over rows of the last dim, for contiguous float32 y and g: per row one sum, then
 * the result (the sums in double, then rounded: within float32's rounding of the unfused formula; softmax's by
 * vm_softmax_bw_rows, in eight partial sums, the same order on every CPU). Rows on attn's threads, each row
 * computed alone (the same bits for any thread count). */
typedef struct SoftmaxBwJob {
    const float *y, *g;
    float *r;
    int64_t len;
    bool log;
} SoftmaxBwJob;

static void softmax_bw_range(void *ctx, int64_t begin, int64_t end) {
    const SoftmaxBwJob *J = ctx;
    int64_t len = J->len;
    for (int64_t i = begin; i < end; i++) {
        const float *yr = J->y + i * len, *gr = J->g + i * len;
        float *o = J->r + i * len;
        if (!J->log) {
            vm_softmax_bw_rows(yr, gr, o, end - i, len);       /* the rest of the range at once */
            return;
        }
        double s = 0;
        for (int64_t j = 0; j < len; j++) s += gr[j];
        for (int64_t j = 0; j < len; j++) o[j] = (float)((double)gr[j] - exp((double)yr[j]) * s);
    }
}

/* NULL when not that case. */
static Tensor *softmax_bw_rows(const Tensor *y, const Tensor *g, int d, bool log) {
    if (y->dtype != DT_F32 || g->dtype != DT_F32 || !y->contiguous || !g->contiguous || d != y->ndim - 1 ||
        !ten_same_shape(y, g) || y->numel == 0)
        return NULL;
    Tensor *r = ten_new_uninit_in(ten_ctx_of(y), DT_F32, y->ndim, y->shape);
    if (!r) return NULL;
    int64_t len = y->shape[d];
    SoftmaxBwJob J = {ten_f32(y), ten_f32(g), ten_f32(r), len, log};
    par_for(ten_ctx_of(y), y->numel / len, (1 << 14) / len + 1, softmax_bw_range, &J);
    return r;
}

static int softmax_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *y = ag_saved(n, 0);
    if (!y) return -1;
    int d = n->dims[0];
    Tensor *r = softmax_bw_rows(y, g, d, n->op != 0);
    if (r) {
        gin[0] = ag_to_input(n, 0, r);
        return ag_done(n, gin);
    }
    if (n->op == 0) {
        Tensor *gy = ag_bin(OP_MUL, g, false, y, false), *s = gy ? ag_sum_keep(gy, &d, 1) : NULL;
        Tensor *diff = ag_bin(OP_SUB, g, false, s, false);
        r = ag_drop(ag_bin(OP_MUL, diff, false, y, false), gy, s, diff);
    } else {
        Tensor *s = ag_sum_keep(g, &d, 1), *e = ten_unary(UOP_EXP, y), *es = ag_bin(OP_MUL, e, false, s, false);
        r = ag_drop(ag_bin(OP_SUB, g, false, es, false), s, e, es);
    }
    gin[0] = ag_to_input(n, 0, r);
    return ag_done(n, gin);
}

static AgVal softmax_op(AgContext *c, AgVal x, int dim, bool log) {
    int d = ten_norm_dim_in(c->ten, dim, x.t->ndim);
    if (d < 0) return AG_FAILED;
    Tensor *out = log ? ten_log_softmax(x.t, d) : ten_softmax(x.t, d);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, log ? "LogSoftmaxBackward0" : "SoftmaxBackward0", softmax_bw, 1, &x);
    if (n) {
        n->op = log;
        n->dims[0] = d;
        ag_node_save(n, 0, out, NULL, true);
    }
    return ag_result(out, n);
}

AgVal ag_softmax(AgContext *c, AgVal x, int dim) { return softmax_op(c, x, dim, false); }
AgVal ag_log_softmax(AgContext *c, AgVal x, int dim) { return softmax_op(c, x, dim, true); }

/* grad where the mask is false, 0 where it is true. saved[0] = the mask. */
static int masked_fill_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *mask = ag_saved(n, 0);
    if (!mask) return -1;
    Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
    Tensor *r = zero ? ten_where(mask, zero, true, g, false) : NULL;
    ten_free(zero);
    gin[0] = ag_to_input(n, 0, r);
    return ag_done(n, gin);
}

/* The checks of masked_fill's mask: bool, broadcasting to x's shape. 0 or -1. */
static int mask_fits(const Tensor *x, const Tensor *mask) {
    if (mask->dtype != DT_BOOL) {
        ten_fail_in(ten_ctx_of(mask), "masked_fill_ only supports boolean masks, but got mask with dtype %s", ten_dtype_name(mask->dtype));
        return -1;
    }
    int64_t sh[TEN_MAX_DIMS];
    int nd;
    if (ten_broadcast_shape_in(ten_ctx_of(mask), x->shape, x->ndim, mask->shape, mask->ndim, sh, &nd) < 0) return -1;
    if (nd != x->ndim || memcmp(sh, x->shape, sizeof(int64_t) * (size_t)nd)) {
        char a[128], b[128];
        ten_shape_str(mask->shape, mask->ndim, a, sizeof a);
        ten_shape_str(x->shape, x->ndim, b, sizeof b);
        ten_fail_in(ten_ctx_of(mask), "masked_fill: the mask of shape %s does not broadcast to the tensor's shape %s", a, b);
        return -1;
    }
    return 0;
}

/* MaskedFillBackward1: x's grad g with the masked places 0, the value's the sum of g over them. saved[0] = mask. */
static int masked_fill_value_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *mask = ag_saved(n, 0);
    if (!mask) return -1;
    Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
    if (ag_needs(n, 0)) gin[0] = zero ? ag_to_input(n, 0, ten_where(mask, zero, true, g, false)) : NULL;
    if (ag_needs(n, 1)) gin[1] = zero ? ag_to_input(n, 1, ten_where(mask, g, false, zero, true)) : NULL;
    ten_free(zero);
    return ag_done(n, gin);
}

AgVal ag_masked_fill_tensor(AgContext *c, AgVal x, const Tensor *mask, AgVal value) {
    if (mask_fits(x.t, mask) < 0) return AG_FAILED;
    if (value.t->ndim != 0) {
        ten_fail_in(ten_ctx_of(x.t), "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).",
                    value.t->ndim);
        return AG_FAILED;
    }
    Tensor *v = ten_cast(value.t, x.t->dtype);
    Tensor *out = v ? ten_where(mask, v, false, x.t, false) : NULL;
    ten_free(v);
    if (!out) return AG_FAILED;
    AgVal in[2] = {x, value};
    AgNode *n = ag_record(c, "MaskedFillBackward1", masked_fill_value_bw, 2, in);
    if (n) ag_node_save(n, 0, mask, NULL, false);
    return ag_result(out, n);
}

AgVal ag_masked_fill(AgContext *c, AgVal x, const Tensor *mask, double value) {
    if (mask_fits(x.t, mask) < 0) return AG_FAILED;
    Tensor *v = ten_scalar_d_in(ten_ctx_of(mask), value);
    Tensor *out = v ? ten_where(mask, v, true, x.t, false) : NULL;
    ten_free(v);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "MaskedFillBackward0", masked_fill_bw, 1, &x);
    if (n) ag_node_save(n, 0, mask, NULL, false);
    return ag_result(out, n);
}

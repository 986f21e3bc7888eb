/* test_autograd.c - the autograd layer: every op's gradients against central finite differences in float64, and the
 * engine's semantics (accumulation, retain_graph, in-place checks, no_grad, leaves, edges, names, autograd.grad).
 *
 * With arguments it is the driver of tests/ref/autograd.py instead:  test_autograd --ag-check CASE DIR  reads
 * DIR/in0.npy ... (and DIR/aux.npy: a mask, indices, targets or noise), runs the case CASE of the table below and
 * a backward with the upstream grad DIR/g.npy, and writes DIR/out.npy and DIR/grad0.npy ... for PyTorch to compare. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "autograd.h"
#include "tensor_internal.h"   /* ten_sgemm_own: which kernel computes a product */

/* The tensor context this file's tests make their tensors in and read failures from (the test owns it). */
static TenCtx *test_ctx(void) {
    static TenCtx *c;
    if (!c) c = ten_ctx_new();
    return c;
}
#define TC test_ctx()

/* ---- the cases: one op (or a short chain) on nin inputs, shared by the finite-difference tests and the driver ---- */

typedef struct Case Case;
typedef AgVal (*CaseFn)(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux);
struct Case {
    const char *name;
    CaseFn fn;
    int nin;
    int ndim[3];
    int64_t shape[3][4];
    int positive;           /* inputs in [0.5, 1.5] (log, sqrt, pow, a divisor) instead of [-1, -0.1] u [0.1, 1] */
    int op;                 /* BinOp / UnOp */
    double s;               /* a scalar: pow's exponent, a weak operand */
    int dims[4], nd;
    bool keepdim;
    int64_t to[4];          /* a target shape */
    int nto;
    Tensor *(*aux)(void);   /* the case's non-differentiable operand (mask, indices, target, noise), or NULL */
    int64_t zero_from, zero_to;   /* input 0's elements whose grad is 0 by definition (embedding's padding row) */
    bool torch_only;        /* PyTorch's grad is not the derivative there (scatter's src where an index is written
                             * twice gets the grad at that index, not 0): against PyTorch only (--ag-check) */
};

static AgVal c_binary(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_binary(c, (BinOp)k->op, in[0], false, in[1], false);
}
static AgVal c_binary_scalar(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal s = {ten_scalar_d_in(TC, k->s), NULL};
    AgVal r = ag_binary(c, (BinOp)k->op, in[0], false, s, true);
    ten_free(s.t);
    return r;
}
static AgVal c_scalar_binary(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal s = {ten_scalar_d_in(TC, k->s), NULL};
    AgVal r = ag_binary(c, (BinOp)k->op, s, true, in[0], false);
    ten_free(s.t);
    return r;
}
static AgVal c_gelu(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) { return ag_gelu(c, in[0]); }
static AgVal c_gelu_tanh(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) { return ag_gelu_tanh(c, in[0]); }
static AgVal c_max(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    if (k->nd == 0) return ag_max(c, in[0], k->op);
    Tensor *idx = NULL;
    AgVal r = ag_max_dim(c, in[0], k->dims[0], k->keepdim, k->op, &idx);
    ten_free(idx);
    return r;
}
/* abs (op 0), clamp(-0.5, 0.5) (op 1), clamp(min=0) (op 2), where(x > 0, x, y) (op 3) */
static AgVal c_misc(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    if (k->op == 0) return ag_abs(c, in[0]);
    if (k->op == 1) return ag_clamp(c, in[0], -0.5, 0.5);
    if (k->op == 2) return ag_clamp(c, in[0], 0.0, NAN);
    Tensor *zero = ten_scalar_d_in(TC, 0.0), *pos = ten_binary(OP_GT, in[0].t, false, zero, true);
    AgVal r = ag_where(c, pos, in[0], false, in[1], false);
    ten_free(zero);
    ten_free(pos);
    return r;
}
static AgVal c_unary(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_unary(c, (UnOp)k->op, in[0]);
}
static AgVal c_pow(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_pow_scalar(c, in[0], k->s);
}
static AgVal c_sum(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    if (k->nd == 0) return k->op ? ag_mean(c, in[0]) : ag_sum(c, in[0]);
    return k->op ? ag_mean_dims(c, in[0], k->dims, k->nd, k->keepdim) : ag_sum_dims(c, in[0], k->dims, k->nd, k->keepdim);
}
static AgVal c_mm(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return k->op == 0 ? ag_mm(c, in[0], in[1]) : k->op == 1 ? ag_bmm(c, in[0], in[1]) : ag_matmul(c, in[0], in[1]);
}
static AgVal c_view(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return k->op ? ag_reshape(c, in[0], k->nto, k->to) : ag_view(c, in[0], k->nto, k->to);
}
/* x.transpose(0, 1).reshape(to): the copying reshape (CloneBackward0, UnsafeViewBackward0) */
static AgVal c_t_reshape(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal t = ag_transpose(c, in[0], 0, 1);
    AgVal r = ag_reshape(c, t, k->nto, k->to);
    ag_val_free(t);
    return r;
}
static AgVal c_transpose(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_transpose(c, in[0], k->dims[0], k->dims[1]);
}
static AgVal c_permute(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_permute(c, in[0], k->dims);
}
static AgVal c_expand(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_expand(c, in[0], k->nto, k->to);
}
static AgVal c_unsqueeze(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_unsqueeze(c, in[0], k->dims[0]);
}
static AgVal c_squeeze(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_squeeze(c, in[0], k->dims[0], k->keepdim);
}
static AgVal c_softmax(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return k->op ? ag_log_softmax(c, in[0], k->dims[0]) : ag_softmax(c, in[0], k->dims[0]);
}
static AgVal c_masked_fill(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_masked_fill(c, in[0], aux, k->s);
}
/* softmax(x @ y.T / 2).sum(-1) * x[..., :1]: a chain where one input feeds two paths */
static AgVal c_chain(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal yt = ag_transpose(c, in[1], 0, 1), p = ag_matmul(c, in[0], yt);
    AgVal two = {ten_scalar_d_in(TC, 2.0), NULL};
    AgVal q = ag_binary(c, OP_DIV, p, false, two, true), sm = ag_softmax(c, q, -1);
    AgVal e = ag_unary(c, UOP_EXP, in[0]), s2 = ag_sum_dims(c, e, (int[]){1}, 1, true);
    AgVal r = ag_binary(c, OP_MUL, sm, false, s2, false);
    ag_val_free(yt); ag_val_free(p); ag_val_free(two); ag_val_free(q); ag_val_free(sm); ag_val_free(e); ag_val_free(s2);
    return r;
}

static AgVal c_cat(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return k->op ? ag_stack(c, in, k->nin, k->dims[0]) : ag_cat(c, in, k->nin, k->dims[0]);
}
/* dims[0] the dim; to[0..2] start, stop, step (op 1: narrow(to[0], to[1]); op 2: select(to[0])) */
static AgVal c_slice(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    if (k->op == 1) return ag_narrow(c, in[0], k->dims[0], k->to[0], k->to[1]);
    if (k->op == 2) return ag_select(c, in[0], k->dims[0], k->to[0]);
    return ag_slice(c, in[0], k->dims[0], k->to[0], k->to[1], k->to[2], true, k->to[1] != INT64_MAX);
}
static AgVal c_layer_norm(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal none = {NULL, NULL};
    return ag_layer_norm(c, in[0], k->nd, k->nin > 1 ? in[1] : none, k->nin > 2 ? in[2] : none, 1e-5);
}
static AgVal c_linear(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal none = {NULL, NULL};
    return ag_linear(c, in[0], in[1], k->nin > 2 ? in[2] : none);
}
static AgVal c_embedding(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_embedding(c, in[0], aux, k->op ? k->dims[0] : AG_NO_PADDING);
}
static AgVal c_cross_entropy(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_cross_entropy(c, in[0], aux, -100, (AgReduction)k->op);
}
static AgVal c_mse(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_mse_loss(c, in[0], in[1], (AgReduction)k->op);
}
static AgVal c_dropout(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    return ag_dropout(c, in[0], aux);
}

/* d2l's masked_softmax: X = a * 2; Xv = X.reshape(-1, 4); Xv[aux] = -1e6 (in place through a view of a non-leaf);
 * softmax(Xv.reshape(a.shape), -1). */
static AgVal c_masked_softmax(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal two = {ten_scalar_d_in(TC, 2.0), NULL}, X = ag_binary(c, OP_MUL, in[0], false, two, true);
    AgVal Xv = ag_reshape(c, X, 2, (int64_t[]){-1, in[0].t->shape[in[0].t->ndim - 1]});
    AgVal v = {ten_scalar_d_in(TC, -1e6), NULL}, r = {NULL, NULL};
    IndexItem it = {.kind = IX_TENSOR, .i = 0, .start = 0, .stop = 0, .step = 0, .has_start = false, .has_stop = false,
                    .index = aux};
    if (ag_index_put_(c, Xv.t, &Xv.m, &it, 1, v, true) == 0) {
        AgVal back = ag_reshape(c, Xv, in[0].t->ndim, in[0].t->shape);
        r = ag_softmax(c, back, -1);
        ag_val_free(back);
    }
    ag_val_free(two); ag_val_free(X); ag_val_free(Xv); ag_val_free(v);
    return r;
}
/* Y = a * 3; Y[1:3] = v; Y * a   (op 1: T = Y.t(); T[0] = v; Y * a) */
static AgVal c_setitem(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal three = {ten_scalar_d_in(TC, 3.0), NULL}, Y = ag_binary(c, OP_MUL, in[0], false, three, true), r = {NULL, NULL};
    IndexItem it = {.kind = IX_SLICE, .i = 0, .start = 1, .stop = 3, .step = 1, .has_start = true, .has_stop = true,
                    .index = NULL};
    int ok;
    if (k->op) {
        AgVal T = ag_t(c, Y);
        it.kind = IX_INT;
        it.i = 0;
        ok = ag_index_put_(c, T.t, &T.m, &it, 1, in[1], false);
        ag_val_free(T);
    } else ok = ag_index_put_(c, Y.t, &Y.m, &it, 1, in[1], false);
    if (ok == 0) r = ag_binary(c, OP_MUL, Y, false, in[0], false);
    ag_val_free(three); ag_val_free(Y);
    return r;
}
/* Z = a * 3; Z.masked_fill_(aux, 0); Z * a */
static AgVal c_masked_fill_inplace(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal three = {ten_scalar_d_in(TC, 3.0), NULL}, Z = ag_binary(c, OP_MUL, in[0], false, three, true), r = {NULL, NULL};
    if (ag_masked_fill_(c, Z.t, &Z.m, aux, 0.0) == 0) r = ag_binary(c, OP_MUL, Z, false, in[0], false);
    ag_val_free(three); ag_val_free(Z);
    return r;
}

/* X.op_(...) as the language runs it: the out-of-place op on a copy of X carrying X's metadata, then
 * ag_inplace_assign writes it into X and makes its node X's history. op: 0 X = Y.t() (a view), X *= b (CopySlices
 * around MulBackward0 with b's edge); 1 X = Y itself, X.exp_() (the saved result follows X); 2 X = Y[1] (a view),
 * X.sigmoid_() (the saved result is the view, inside CopySlices). Y = a * 3; the result Y * a. */
static AgVal c_inplace_op(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal three = {ten_scalar_d_in(TC, 3.0), NULL}, Y = ag_binary(c, OP_MUL, in[0], false, three, true), r = {NULL, NULL};
    AgVal X = k->op == 0 ? ag_t(c, Y) : k->op == 2 ? ag_select(c, Y, 0, 1) : (AgVal){ten_alias(Y.t), Y.m ? ag_meta_ref(Y.m) : NULL};
    AgVal copy = {ten_copy(X.t), X.m};
    AgVal out = k->op == 0 ? ag_binary(c, OP_MUL, copy, false, in[1], false)
                           : ag_unary(c, k->op == 1 ? UOP_EXP : UOP_SIGMOID, copy);
    int ok = out.t ? ag_inplace_assign(c, X.t, &X.m, out) : -1;
    if (ok == 0) r = ag_binary(c, OP_MUL, Y, false, in[0], false);
    ten_free(copy.t);
    ag_val_free(out); ag_val_free(X); ag_val_free(three); ag_val_free(Y);
    return r;
}
/* Y = a * 3, then op 0: Y[:, 1:3].copy_(b) (b (2, 1) broadcast: CopyBackwards in CopySlices); 1: Y.fill_(b) (b 0-dim:
 * FillBackward3); 2: Y[0].zero_() (ZeroBackward0 in CopySlices). The result Y * a. */
static AgVal c_write(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    AgVal three = {ten_scalar_d_in(TC, 3.0), NULL}, Y = ag_binary(c, OP_MUL, in[0], false, three, true), r = {NULL, NULL};
    AgVal X = k->op == 0 ? ag_narrow(c, Y, 1, 1, 2) : k->op == 2 ? ag_select(c, Y, 0, 0) : (AgVal){ten_alias(Y.t), NULL};
    AgMeta **xm = k->op == 1 ? &Y.m : &X.m;
    Tensor *zero = ten_scalar_d_in(TC, 0.0);
    int ok = ten_copy_into(X.t, k->op == 2 ? zero : in[1].t);
    if (ok == 0) {
        static const char *const names[] = {"CopyBackwards", "FillBackward3", "ZeroBackward0"};
        ok = ag_write_record(c, X.t, xm, names[k->op], k->op == 2 ? 1 : 2, k->op == 2 ? (AgVal){NULL, NULL} : in[1]);
    }
    if (ok == 0) r = ag_binary(c, OP_MUL, Y, false, in[0], false);
    ten_free(zero);
    ag_val_free(X); ag_val_free(three); ag_val_free(Y);
    return r;
}

/* ---- gradients attached to a forward the case runs itself (ag_extra.c) ---- */

static Tensor *scaled(const Tensor *t, double v) {            /* t * v (v a Python number) */
    Tensor *s = ten_scalar_d_in(TC, v), *r = ten_binary(OP_MUL, t, false, s, true);
    ten_free(s);
    return r;
}

/* op: an AgElem; the forward by the tensor library's kernel of that function. */
static AgVal c_elem(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    static const struct { AgElem kind; const char *map; int uop; } F[] = {
        {AG_E_ATAN, NULL, UOP_ATAN}, {AG_E_ASINH, "asinh", 0}, {AG_E_SINH, "sinh", 0}, {AG_E_COSH, "cosh", 0},
        {AG_E_ERF, "erf", 0}, {AG_E_EXPM1, "expm1", 0}, {AG_E_LOG1P, "log1p", 0}, {AG_E_LOG10, NULL, UOP_LOG10},
        {AG_E_RSQRT, NULL, UOP_RSQRT}, {AG_E_SILU, "silu", 0}, {AG_E_LOGSIGMOID, "logsigmoid", 0},
        {AG_E_SOFTPLUS, "softplus", 0}, {AG_E_MISH, "mish", 0}, {AG_E_HARDTANH, "hardtanh", 0},
        {AG_E_EXP2, "exp2", 0}};
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        if ((int)F[i].kind == k->op) {
            Tensor *out = F[i].map ? ten_map(F[i].map, in[0].t) : ten_unary((UnOp)F[i].uop, in[0].t);
            double p0 = k->op == AG_E_HARDTANH ? -1 : 1, p1 = k->op == AG_E_HARDTANH ? 1 : 20;
            return ag_elementwise(c, (AgElem)k->op, "ElemBackward0", in[0], out, p0, p1);
        }
    return (AgVal){NULL, NULL};
}

/* op: an AgRed over dims[0..nd) (nd 0: every dim); s: var/std's correction, norm's p. */
static AgVal c_red(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    const Tensor *x = in[0].t;
    int nd = k->nd ? k->nd : -1, d = k->dims[0];
    Tensor *out = NULL;
    double scalar = k->s, cnt = 1;
    switch ((AgRed)k->op) {
    case AG_R_VAR: case AG_R_STD:
        out = ten_var(x, k->dims, nd, k->keepdim, k->s, k->op == AG_R_STD);
        if (nd < 0) cnt = (double)x->numel;
        else for (int i = 0; i < nd; i++) cnt *= (double)x->shape[ten_norm_dim_in(TC, k->dims[i], x->ndim)];
        scalar = cnt - k->s;
        break;
    case AG_R_NORM: out = ten_norm(x, k->s, k->dims, nd, k->keepdim); break;
    case AG_R_PROD: out = ten_reduce(RED_PROD, x, nd < 0, d, k->keepdim); break;
    case AG_R_AMAX: out = ten_reduce(RED_MAX, x, nd < 0, d, k->keepdim); break;
    case AG_R_CUMSUM: out = ten_cumsum(x, d); break;
    case AG_R_LOGSUMEXP: {
        Tensor *e = ten_unary(UOP_EXP, x), *su = ten_reduce(RED_SUM, e, false, d, k->keepdim);
        out = ten_unary(UOP_LOG, su);
        ten_free(e);
        ten_free(su);
        break;
    }
    }
    return ag_reduction(c, (AgRed)k->op, "RedBackward0", in[0], out, k->dims, nd, k->keepdim, scalar);
}

/* op 0 flip(dims[0]), 1 tril(s), 2 repeat(to), 3 gather(1, aux): the map is the same op on the positions. */
static Tensor *c_move(const Tensor *x, const Case *k, const Tensor *aux) {
    switch (k->op) {
    case 0: return ten_flip(x, k->dims[0]);
    case 1: return ten_tril(x, (int64_t)k->s, false);
    case 2: return ten_repeat(x, k->to, k->nto);
    default: return ten_gather(x, 1, aux);
    }
}
static AgVal c_map(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    Tensor *ar = ten_arange_in(TC, 1, (double)in[0].t->numel + 1, 1, DT_I64), *pos = ten_reshape(ar, in[0].t->ndim, in[0].t->shape);
    Tensor *mp = c_move(pos, k, aux), *one = ten_scalar_i_in(TC, 1), *map = ten_binary(OP_SUB, mp, false, one, true);     /* 0 (no source) becomes -1 */
    AgVal r = ag_index_map(c, "MapBackward0", c_move(in[0].t, k, aux), map, 1, in);
    ten_free(ar); ten_free(pos); ten_free(mp); ten_free(map); ten_free(one);
    return r;
}

/* op 0 maximum, 1 minimum; 2 add with alpha s, 3 sub with alpha s. */
static AgVal c_pair(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    if (k->op < 2) return ag_maximum(c, in[0], in[1], ten_binary(k->op ? OP_MINIMUM : OP_MAXIMUM, in[0].t, false, in[1].t, false), k->op);
    Tensor *sb = scaled(in[1].t, k->s), *out = ten_binary(k->op == 2 ? OP_ADD : OP_SUB, in[0].t, false, sb, false);
    ten_free(sb);
    return ag_add_alpha(c, in[0], in[1], out, k->s, k->op == 3);
}

static const char *const EQUATIONS[] = {"ij,jk->ik", "bij,bjk->bik", "ij,ij->i", "ij->j", "ij,kj,k->ik", "ijk->kij",
                                        "jb,ij"};
static AgVal c_einsum(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    Tensor *ts[3] = {in[0].t, in[1].t, in[2].t};
    return ag_einsum(c, EQUATIONS[k->op], k->nin, in, ten_einsum_in(TC, EQUATIONS[k->op], ts, k->nin));
}

/* op 0 x ** y, 1 atan2(x, y), both tensors (broadcast); 2 clamp(x, min=y, max=z); 3 s ** x (s a Python number). */
static AgVal c_binfn(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    if (k->op == 3) {
        AgVal s = {ten_scalar_d_in(TC, k->s), NULL};
        AgVal r = ag_binary_fn(c, AG_B_POW, s, true, in[0], false, ten_binary(OP_POW, s.t, true, in[0].t, false));
        ten_free(s.t);
        return r;
    }
    if (k->op == 2) {
        Tensor *lo = ten_binary(OP_MAXIMUM, in[0].t, false, in[1].t, false), *out = ten_binary(OP_MINIMUM, lo, false, in[2].t, false);
        ten_free(lo);
        return ag_clamp_tensors(c, in[0], in[1], in[2], out);
    }
    BinOp op = k->op ? OP_ATAN2 : OP_POW;
    return ag_binary_fn(c, k->op ? AG_B_ATAN2 : AG_B_POW, in[0], false, in[1], false, ten_binary(op, in[0].t, false, in[1].t, false));
}

/* op 0 cumprod(x, dims[0]); 1 scatter_add(x, 1, aux, y); 2 cross(x, y, dims[0]) (forward: the components); 3 scatter(x,
 * 1, aux, y). */
static AgVal c_scan(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    if (k->op == 2) {
        int d = k->dims[0];
        Tensor *comp[3];
        for (int i = 0; i < 3; i++) {
            Tensor *a1 = ten_select(in[0].t, d, (i + 1) % 3), *b2 = ten_select(in[1].t, d, (i + 2) % 3);
            Tensor *a2 = ten_select(in[0].t, d, (i + 2) % 3), *b1 = ten_select(in[1].t, d, (i + 1) % 3);
            Tensor *p = ten_binary(OP_MUL, a1, false, b2, false), *q = ten_binary(OP_MUL, a2, false, b1, false);
            comp[i] = ten_binary(OP_SUB, p, false, q, false);
            ten_free(a1); ten_free(b2); ten_free(a2); ten_free(b1); ten_free(p); ten_free(q);
        }
        Tensor *out = ten_stack_in(TC, comp, 3, d);
        for (int i = 0; i < 3; i++) ten_free(comp[i]);
        return ag_cross(c, in[0], in[1], d, out);
    }
    if (k->op == 0) return ag_cumprod(c, in[0], k->dims[0], ten_cumprod(in[0].t, k->dims[0]));
    bool add = k->op == 1;                  /* op 3: scatter, the same index written twice in a row of aux */
    return ag_scatter(c, in[0], 1, aux, in[1], ten_scatter(in[0].t, 1, aux, in[1].t, add ? 1 : 0), add);
}

/* op: 0 addmm, 1 addmv, 2 baddbmm, 3 addbmm; beta 0.5, alpha s. */
static AgVal c_addmm(AgContext *c, const AgVal *in, const Case *k, const Tensor *aux) {
    Tensor *p = ten_matmul(in[1].t, in[2].t), *ps = k->op == 3 ? ten_reduce(RED_SUM, p, false, 0, false) : ten_alias(p);
    Tensor *a = scaled(ps, k->s), *b = scaled(in[0].t, 0.5), *out = ten_binary(OP_ADD, b, false, a, false);
    ten_free(p); ten_free(ps); ten_free(a); ten_free(b);
    return ag_addmm_family(c, k->op, in[0], in[1], in[2], 0.5, k->s, out);
}

/* The auxiliary operands; tests/ref/autograd.py writes the same values. */
static Tensor *from_i64(int ndim, const int64_t *shape, const int64_t *v) {
    Tensor *t = ten_new_in(TC, DT_I64, ndim, shape);
    memcpy(t->data, v, sizeof(int64_t) * (size_t)t->numel);
    return t;
}
static Tensor *aux_mask(void) {                  /* [[False, True, True, False]] */
    Tensor *t = ten_new_in(TC, DT_BOOL, 2, (int64_t[]){1, 4});
    ten_b8(t)[1] = ten_b8(t)[2] = 1;
    return t;
}
static Tensor *aux_rows(void) {                  /* the rows masked_softmax writes: [F, T, F, F, T, T] */
    Tensor *t = ten_new_in(TC, DT_BOOL, 1, (int64_t[]){6});
    ten_b8(t)[1] = ten_b8(t)[4] = ten_b8(t)[5] = 1;
    return t;
}
static Tensor *aux_idx(void) { return from_i64(2, (int64_t[]){2, 3}, (int64_t[]){1, 2, 1, 5, 0, 2}); }
static Tensor *aux_gidx(void) { return from_i64(2, (int64_t[]){3, 2}, (int64_t[]){0, 0, 3, 1, 2, 2}); }
static Tensor *aux_target(void) { return from_i64(1, (int64_t[]){4}, (int64_t[]){1, -100, 3, 1}); }
static Tensor *aux_target3(void) { return from_i64(2, (int64_t[]){2, 3}, (int64_t[]){0, 4, -100, 2, 2, 1}); }
static Tensor *aux_target4(void) {
    return from_i64(3, (int64_t[]){2, 3, 2}, (int64_t[]){0, 4, -100, 2, 2, 1, 3, 3, 0, 1, -100, 4});
}
static Tensor *aux_target0(void) { return from_i64(0, NULL, (int64_t[]){2}); }
static Tensor *aux_noise(void) {                 /* dropout p = 0.5: kept elements scaled by 2 */
    static const double v[12] = {2, 0, 2, 2, 0, 0, 2, 2, 2, 2, 0, 2};
    Tensor *t = ten_new_in(TC, DT_F64, 2, (int64_t[]){3, 4});
    memcpy(t->data, v, sizeof v);
    return t;
}
static const Case CASES[] = {
    {.name = "add", .fn = c_binary, .nin = 2, .ndim = {2, 2}, .shape = {{2, 3}, {2, 3}}, .op = OP_ADD},
    {.name = "add_bcast", .fn = c_binary, .nin = 2, .ndim = {3, 2}, .shape = {{4, 1, 3}, {2, 1}}, .op = OP_ADD},
    {.name = "sub_bcast", .fn = c_binary, .nin = 2, .ndim = {2, 1}, .shape = {{2, 3}, {3}}, .op = OP_SUB},
    {.name = "mul_bcast", .fn = c_binary, .nin = 2, .ndim = {3, 3}, .shape = {{2, 1, 4}, {1, 3, 1}}, .op = OP_MUL},
    {.name = "div_bcast", .fn = c_binary, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 1}}, .op = OP_DIV,
     .positive = 1},
    {.name = "mul_scalar", .fn = c_binary_scalar, .nin = 1, .ndim = {2}, .shape = {{2, 3}}, .op = OP_MUL, .s = -1.5},
    {.name = "rdiv_scalar", .fn = c_scalar_binary, .nin = 1, .ndim = {2}, .shape = {{2, 3}}, .op = OP_DIV, .s = 2.0,
     .positive = 1},
    {.name = "neg", .fn = c_unary, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = UOP_NEG},
    {.name = "exp", .fn = c_unary, .nin = 1, .ndim = {3}, .shape = {{2, 3, 2}}, .op = UOP_EXP},
    {.name = "log", .fn = c_unary, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = UOP_LOG, .positive = 1},
    {.name = "sqrt", .fn = c_unary, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = UOP_SQRT, .positive = 1},
    {.name = "sin", .fn = c_unary, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = UOP_SIN},
    {.name = "cos", .fn = c_unary, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = UOP_COS},
    {.name = "tanh", .fn = c_unary, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = UOP_TANH},
    {.name = "sigmoid", .fn = c_unary, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = UOP_SIGMOID},
    {.name = "relu", .fn = c_unary, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = UOP_RELU},
    {.name = "abs", .fn = c_misc, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 0},
    {.name = "clamp", .fn = c_misc, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 1},
    {.name = "clamp_min", .fn = c_misc, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 2},
    {.name = "where", .fn = c_misc, .nin = 2, .ndim = {2, 1}, .shape = {{3, 4}, {4}}, .op = 3},
    {.name = "gelu", .fn = c_gelu, .nin = 1, .ndim = {2}, .shape = {{3, 4}}},
    {.name = "gelu_tanh", .fn = c_gelu_tanh, .nin = 1, .ndim = {2}, .shape = {{3, 4}}},
    {.name = "max", .fn = c_max, .nin = 1, .ndim = {2}, .shape = {{3, 4}}},
    {.name = "min_dim1", .fn = c_max, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 1, .dims = {1}, .nd = 1},
    {.name = "max_dim0_keep", .fn = c_max, .nin = 1, .ndim = {3}, .shape = {{3, 2, 4}}, .dims = {0}, .nd = 1,
     .keepdim = true},
    {.name = "rsub_scalar", .fn = c_scalar_binary, .nin = 1, .ndim = {2}, .shape = {{2, 3}}, .op = OP_SUB, .s = 1.0},
    {.name = "radd_scalar", .fn = c_scalar_binary, .nin = 1, .ndim = {2}, .shape = {{2, 3}}, .op = OP_ADD, .s = 1.5},
    {.name = "pow2", .fn = c_pow, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .s = 2.0},
    {.name = "pow2_5", .fn = c_pow, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .s = 2.5, .positive = 1},
    {.name = "pow_m1", .fn = c_pow, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .s = -1.0, .positive = 1},
    {.name = "pow0", .fn = c_pow, .nin = 1, .ndim = {1}, .shape = {{5}}, .s = 0.0},
    {.name = "sum", .fn = c_sum, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}},
    {.name = "mean", .fn = c_sum, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = 1},
    {.name = "sum_dim1", .fn = c_sum, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .dims = {1}, .nd = 1},
    {.name = "sum_dims02_keep", .fn = c_sum, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .dims = {0, -1}, .nd = 2,
     .keepdim = true},
    {.name = "mean_dim_last_keep", .fn = c_sum, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = 1, .dims = {-1},
     .nd = 1, .keepdim = true},
    {.name = "mean_dims20", .fn = c_sum, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = 1, .dims = {2, 0}, .nd = 2},
    {.name = "mm", .fn = c_mm, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {4, 5}}, .op = 0},
    {.name = "bmm", .fn = c_mm, .nin = 2, .ndim = {3, 3}, .shape = {{2, 3, 4}, {2, 4, 5}}, .op = 1},
    {.name = "matmul_3x2", .fn = c_mm, .nin = 2, .ndim = {3, 2}, .shape = {{2, 3, 4}, {4, 5}}, .op = 2},
    {.name = "matmul_3x3", .fn = c_mm, .nin = 2, .ndim = {3, 3}, .shape = {{2, 3, 4}, {2, 4, 5}}, .op = 2},
    {.name = "matmul_bcast", .fn = c_mm, .nin = 2, .ndim = {4, 3}, .shape = {{2, 1, 3, 4}, {3, 4, 2}}, .op = 2},
    {.name = "matmul_2x3", .fn = c_mm, .nin = 2, .ndim = {2, 3}, .shape = {{3, 4}, {2, 4, 5}}, .op = 2},
    {.name = "matmul_dot", .fn = c_mm, .nin = 2, .ndim = {1, 1}, .shape = {{4}, {4}}, .op = 2},
    {.name = "matmul_mv", .fn = c_mm, .nin = 2, .ndim = {2, 1}, .shape = {{3, 4}, {4}}, .op = 2},
    {.name = "matmul_vm", .fn = c_mm, .nin = 2, .ndim = {1, 2}, .shape = {{4}, {4, 5}}, .op = 2},
    {.name = "view", .fn = c_view, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .to = {6, -1}, .nto = 2},
    {.name = "reshape", .fn = c_view, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = 1, .to = {4, 6}, .nto = 2},
    {.name = "reshape_copy", .fn = c_t_reshape, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .to = {12}, .nto = 1},
    {.name = "transpose", .fn = c_transpose, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .dims = {1, -1}},
    {.name = "permute", .fn = c_permute, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .dims = {2, 0, 1}},
    {.name = "expand", .fn = c_expand, .nin = 1, .ndim = {2}, .shape = {{3, 1}}, .to = {2, 3, 4}, .nto = 3},
    {.name = "unsqueeze", .fn = c_unsqueeze, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .dims = {1}},
    {.name = "squeeze_dim", .fn = c_squeeze, .nin = 1, .ndim = {3}, .shape = {{3, 1, 4}}, .dims = {1}},
    {.name = "squeeze_all", .fn = c_squeeze, .nin = 1, .ndim = {4}, .shape = {{1, 3, 1, 4}}, .keepdim = true},
    {.name = "softmax_last", .fn = c_softmax, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .dims = {-1}},
    {.name = "softmax_dim0", .fn = c_softmax, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .dims = {0}},
    {.name = "log_softmax", .fn = c_softmax, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = 1, .dims = {1}},
    {.name = "masked_fill", .fn = c_masked_fill, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .s = -5.0, .aux = aux_mask},
    {.name = "cat", .fn = c_cat, .nin = 3, .ndim = {2, 2, 2}, .shape = {{2, 3}, {2, 1}, {2, 2}}, .dims = {-1}},
    {.name = "cat_dim0", .fn = c_cat, .nin = 2, .ndim = {2, 2}, .shape = {{2, 3}, {1, 3}}, .dims = {0}},
    {.name = "stack", .fn = c_cat, .nin = 2, .ndim = {2, 2}, .shape = {{2, 3}, {2, 3}}, .op = 1, .dims = {1}},
    {.name = "slice_step", .fn = c_slice, .nin = 1, .ndim = {2}, .shape = {{3, 5}}, .dims = {1}, .to = {1, 5, 2}},
    {.name = "slice_neg", .fn = c_slice, .nin = 1, .ndim = {2}, .shape = {{4, 3}}, .dims = {0},
     .to = {-3, INT64_MAX, 1}},
    {.name = "narrow", .fn = c_slice, .nin = 1, .ndim = {2}, .shape = {{4, 3}}, .op = 1, .dims = {0}, .to = {1, 2}},
    {.name = "select", .fn = c_slice, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = 2, .dims = {1}, .to = {-1}},
    {.name = "layer_norm", .fn = c_layer_norm, .nin = 3, .ndim = {3, 1, 1}, .shape = {{2, 3, 5}, {5}, {5}}, .nd = 1},
    {.name = "layer_norm_2d_plain", .fn = c_layer_norm, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .nd = 2},
    /* rows of 24: float32 takes ten_layer_norm_backward's one pass (row sums of 8 lanes), float64 the formula */
    {.name = "layer_norm_wide", .fn = c_layer_norm, .nin = 3, .ndim = {3, 1, 1}, .shape = {{3, 40, 24}, {24}, {24}}, .nd = 1},
    {.name = "linear", .fn = c_linear, .nin = 3, .ndim = {2, 2, 1}, .shape = {{4, 5}, {3, 5}, {3}}},
    {.name = "linear_nobias", .fn = c_linear, .nin = 2, .ndim = {2, 2}, .shape = {{4, 5}, {3, 5}}},
    {.name = "linear_3d", .fn = c_linear, .nin = 3, .ndim = {3, 2, 1}, .shape = {{2, 3, 5}, {4, 5}, {4}}},
    {.name = "linear_3d_nobias", .fn = c_linear, .nin = 2, .ndim = {3, 2}, .shape = {{2, 3, 5}, {4, 5}}},
    {.name = "linear_1d", .fn = c_linear, .nin = 3, .ndim = {1, 2, 1}, .shape = {{5}, {3, 5}, {3}}},
    {.name = "embedding", .fn = c_embedding, .nin = 1, .ndim = {2}, .shape = {{6, 3}}, .aux = aux_idx},
    {.name = "embedding_pad", .fn = c_embedding, .nin = 1, .ndim = {2}, .shape = {{6, 3}}, .op = 1, .dims = {2},
     .aux = aux_idx, .zero_from = 6, .zero_to = 9},
    {.name = "cross_entropy", .fn = c_cross_entropy, .nin = 1, .ndim = {2}, .shape = {{4, 5}}, .op = AG_REDUCE_MEAN,
     .aux = aux_target},
    {.name = "cross_entropy_sum", .fn = c_cross_entropy, .nin = 1, .ndim = {2}, .shape = {{4, 5}},
     .op = AG_REDUCE_SUM, .aux = aux_target},
    {.name = "cross_entropy_none", .fn = c_cross_entropy, .nin = 1, .ndim = {2}, .shape = {{4, 5}},
     .op = AG_REDUCE_NONE, .aux = aux_target},
    {.name = "cross_entropy_3d", .fn = c_cross_entropy, .nin = 1, .ndim = {3}, .shape = {{2, 5, 3}},
     .op = AG_REDUCE_MEAN, .aux = aux_target3},
    {.name = "cross_entropy_3d_none", .fn = c_cross_entropy, .nin = 1, .ndim = {3}, .shape = {{2, 5, 3}},
     .op = AG_REDUCE_NONE, .aux = aux_target3},
    {.name = "cross_entropy_4d_sum", .fn = c_cross_entropy, .nin = 1, .ndim = {4}, .shape = {{2, 5, 3, 2}},
     .op = AG_REDUCE_SUM, .aux = aux_target4},
    {.name = "cross_entropy_1d", .fn = c_cross_entropy, .nin = 1, .ndim = {1}, .shape = {{5}}, .op = AG_REDUCE_MEAN,
     .aux = aux_target0},
    {.name = "mse", .fn = c_mse, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 4}}, .op = AG_REDUCE_MEAN},
    {.name = "mse_sum", .fn = c_mse, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 4}}, .op = AG_REDUCE_SUM},
    {.name = "mse_none", .fn = c_mse, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 4}}, .op = AG_REDUCE_NONE},
    {.name = "dropout", .fn = c_dropout, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .aux = aux_noise},
    {.name = "masked_softmax", .fn = c_masked_softmax, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .aux = aux_rows},
    {.name = "setitem_slice", .fn = c_setitem, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {2, 4}}},
    {.name = "setitem_view", .fn = c_setitem, .nin = 2, .ndim = {2, 1}, .shape = {{2, 3}, {2}}, .op = 1},
    {.name = "masked_fill_inplace", .fn = c_masked_fill_inplace, .nin = 1, .ndim = {2}, .shape = {{3, 4}},
     .aux = aux_mask},
    {.name = "mul_inplace_view", .fn = c_inplace_op, .nin = 2, .ndim = {2, 2}, .shape = {{2, 3}, {3, 2}}, .op = 0},
    {.name = "exp_inplace", .fn = c_inplace_op, .nin = 1, .ndim = {2}, .shape = {{2, 3}}, .op = 1},
    {.name = "sigmoid_inplace_view", .fn = c_inplace_op, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 2},
    {.name = "copy_inplace_view", .fn = c_write, .nin = 2, .ndim = {2, 2}, .shape = {{2, 3}, {2, 1}}, .op = 0},
    {.name = "fill_inplace", .fn = c_write, .nin = 2, .ndim = {2, 0}, .shape = {{2, 3}, {0}}, .op = 1},
    {.name = "zero_inplace_view", .fn = c_write, .nin = 1, .ndim = {2}, .shape = {{2, 3}}, .op = 2},
    {.name = "atan", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_ATAN},
    {.name = "asinh", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_ASINH},
    {.name = "sinh", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_SINH},
    {.name = "cosh", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_COSH},
    {.name = "erf", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_ERF},
    {.name = "expm1", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_EXPM1},
    {.name = "exp2", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_EXP2},
    {.name = "log1p", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_LOG1P, .positive = 1},
    {.name = "log10", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_LOG10, .positive = 1},
    {.name = "rsqrt", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_RSQRT, .positive = 1},
    {.name = "silu", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_SILU},
    {.name = "logsigmoid", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_LOGSIGMOID},
    {.name = "softplus", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_SOFTPLUS},
    {.name = "mish", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_MISH},
    {.name = "hardtanh", .fn = c_elem, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_E_HARDTANH},
    {.name = "var_all", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_VAR, .s = 1},
    {.name = "var_dim1_keep", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_VAR, .s = 1,
     .dims = {1}, .nd = 1, .keepdim = true},
    {.name = "std_dims_corr0", .fn = c_red, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = AG_R_STD, .s = 0,
     .dims = {0, 2}, .nd = 2},
    {.name = "std_corr2", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_STD, .s = 2,
     .dims = {1}, .nd = 1},
    {.name = "norm2", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_NORM, .s = 2},
    {.name = "norm2_dim1", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_NORM, .s = 2,
     .dims = {1}, .nd = 1},
    {.name = "norm1", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_NORM, .s = 1},
    {.name = "norm3_dim0_keep", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_NORM, .s = 3,
     .dims = {0}, .nd = 1, .keepdim = true},
    {.name = "prod", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_PROD},
    {.name = "prod_dim1", .fn = c_red, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = AG_R_PROD, .dims = {1},
     .nd = 1},
    {.name = "logsumexp", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_LOGSUMEXP, .dims = {1},
     .nd = 1},
    {.name = "amax_dim0", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_AMAX, .dims = {0},
     .nd = 1},
    {.name = "cumsum", .fn = c_red, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = AG_R_CUMSUM, .dims = {1},
     .nd = 1},
    {.name = "flip", .fn = c_map, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 0, .dims = {1}},
    {.name = "tril", .fn = c_map, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 1, .s = 0},
    {.name = "repeat", .fn = c_map, .nin = 1, .ndim = {2}, .shape = {{2, 3}}, .op = 2, .to = {2, 1, 2}, .nto = 3},
    {.name = "gather", .fn = c_map, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 3, .aux = aux_gidx},
    {.name = "maximum", .fn = c_pair, .nin = 2, .ndim = {2, 1}, .shape = {{3, 4}, {4}}, .op = 0},
    {.name = "minimum", .fn = c_pair, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 4}}, .op = 1},
    {.name = "add_alpha", .fn = c_pair, .nin = 2, .ndim = {2, 1}, .shape = {{3, 4}, {4}}, .op = 2, .s = 2.5},
    {.name = "sub_alpha", .fn = c_pair, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 4}}, .op = 3, .s = -0.5},
    {.name = "einsum_mm", .fn = c_einsum, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {4, 5}}, .op = 0},
    {.name = "einsum_bmm", .fn = c_einsum, .nin = 2, .ndim = {3, 3}, .shape = {{2, 3, 4}, {2, 4, 5}}, .op = 1},
    {.name = "einsum_rowdot", .fn = c_einsum, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 4}}, .op = 2},
    {.name = "einsum_colsum", .fn = c_einsum, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 3},
    {.name = "einsum_three", .fn = c_einsum, .nin = 3, .ndim = {2, 2, 1}, .shape = {{3, 4}, {5, 4}, {5}}, .op = 4},
    {.name = "einsum_implicit", .fn = c_einsum, .nin = 2, .ndim = {2, 2}, .shape = {{4, 3}, {5, 4}}, .op = 6},
    {.name = "einsum_permute", .fn = c_einsum, .nin = 1, .ndim = {3}, .shape = {{2, 3, 4}}, .op = 5},
    {.name = "pow_tensor", .fn = c_binfn, .nin = 2, .ndim = {2, 1}, .shape = {{3, 4}, {4}}, .op = 0, .positive = 1},
    {.name = "rpow_scalar", .fn = c_binfn, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 3, .s = 2.5},
    {.name = "atan2", .fn = c_binfn, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 4}}, .op = 1},
    {.name = "clamp_tensors", .fn = c_binfn, .nin = 3, .ndim = {2, 2, 1}, .shape = {{3, 4}, {3, 4}, {4}}, .op = 2},
    {.name = "cumprod", .fn = c_scan, .nin = 1, .ndim = {2}, .shape = {{3, 4}}, .op = 0, .dims = {1}},
    {.name = "cumprod_dim0", .fn = c_scan, .nin = 1, .ndim = {3}, .shape = {{3, 2, 2}}, .op = 0, .dims = {0}},
    {.name = "scatter_add", .fn = c_scan, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 2}}, .op = 1,
     .aux = aux_gidx},
    {.name = "scatter", .fn = c_scan, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {3, 2}}, .op = 3, .aux = aux_gidx,
     .torch_only = true},
    {.name = "cross", .fn = c_scan, .nin = 2, .ndim = {2, 2}, .shape = {{4, 3}, {4, 3}}, .op = 2, .dims = {1}},
    {.name = "cross_dim0_bcast", .fn = c_scan, .nin = 2, .ndim = {3, 3}, .shape = {{3, 2, 4}, {3, 1, 4}}, .op = 2,
     .dims = {0}},
    {.name = "addmm", .fn = c_addmm, .nin = 3, .ndim = {1, 2, 2}, .shape = {{5}, {3, 4}, {4, 5}}, .op = 0, .s = 2},
    {.name = "addmv", .fn = c_addmm, .nin = 3, .ndim = {1, 2, 1}, .shape = {{3}, {3, 4}, {4}}, .op = 1, .s = 1},
    {.name = "baddbmm", .fn = c_addmm, .nin = 3, .ndim = {3, 3, 3}, .shape = {{2, 3, 5}, {2, 3, 4}, {2, 4, 5}},
     .op = 2, .s = -1},
    {.name = "addbmm", .fn = c_addmm, .nin = 3, .ndim = {2, 3, 3}, .shape = {{3, 5}, {2, 3, 4}, {2, 4, 5}}, .op = 3,
     .s = 1},
    {.name = "chain", .fn = c_chain, .nin = 2, .ndim = {2, 2}, .shape = {{3, 4}, {5, 4}}},
};
#define NCASES (int)(sizeof CASES / sizeof CASES[0])

static const Case *find_case(const char *name) {
    for (int i = 0; i < NCASES; i++)
        if (!strcmp(CASES[i].name, name)) return &CASES[i];
    return NULL;
}

/* ---- finite differences ---- */

static Tensor *random_input(Rng *g, DType dt, int ndim, const int64_t *shape, int positive) {
    Tensor *t = ten_uniform_in(TC, g, DT_F64, ndim, shape, 0, 1);
    for (int64_t i = 0; i < t->numel; i++) {
        double u = ten_get(t, i);
        if (positive) ten_set(t, i, 0.5 + u);
        else ten_set(t, i, u < 0.5 ? -0.1 - 1.8 * u : 0.1 + 1.8 * (u - 0.5));
    }
    if (dt == DT_F64) return t;
    Tensor *c = ten_cast(t, dt);
    ten_free(t);
    return c;
}

/* L = sum(G * f(inputs)) without recording. */
static double loss(const Case *k, const AgVal *in, const Tensor *G, const Tensor *aux) {
    AgContext c;
    ag_context_init(&c, TC);
    c.grad_enabled = false;
    AgVal y = k->fn(&c, in, k, aux);
    assert_non_null(y.t);
    assert_null(y.m);
    double s = 0;
    for (int64_t i = 0; i < y.t->numel; i++) s += ten_get(G, i) * ten_get(y.t, i);
    ag_val_free(y);
    return s;
}

/* 0 when every grad of case k agrees with finite differences; else prints the first disagreement and returns 1. */
static int check_case(const Case *k, uint64_t seed) {
    int bad = 0;
    Rng g;
    rng_seed(&g, seed);
    AgVal in[3] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    for (int i = 0; i < k->nin; i++) {
        in[i].t = random_input(&g, DT_F64, k->ndim[i], k->shape[i], k->positive && (i == k->nin - 1 || k->op != OP_DIV));
        in[i].m = ag_meta_new(true);
    }
    Tensor *aux = k->aux ? k->aux() : NULL;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal y = k->fn(&c, in, k, aux);
    if (!y.t) fail_msg("%s: %s", k->name, ten_error(TC));
    assert_non_null(y.m);
    Tensor *G = random_input(&g, DT_F64, y.t->ndim, y.t->shape, 0);
    const Tensor *gs[1] = {G};
    if (ag_backward(&c, 1, &y, gs, false) < 0) fail_msg("%s: backward: %s", k->name, ten_error(TC));
    const double eps = 1e-6;
    for (int i = 0; i < k->nin; i++) {
        Tensor *x = in[i].t, *gr = in[i].m->grad;
        if (!gr) fail_msg("%s: input %d got no grad", k->name, i);
        assert_true(ten_same_shape(gr, x));
        assert_int_equal(gr->dtype, DT_F64);
        for (int64_t j = 0; j < x->numel; j++) {
            double v = ten_f64(x)[j];
            ten_f64(x)[j] = v + eps;
            double lp = loss(k, in, G, aux);
            ten_f64(x)[j] = v - eps;
            double lm = loss(k, in, G, aux);
            ten_f64(x)[j] = v;
            double num = (lp - lm) / (2 * eps), ana = ten_get(gr, j);
            if (i == 0 && j >= k->zero_from && j < k->zero_to) num = 0;
            if (fabs(num - ana) > 1e-6 + 1e-5 * fabs(num) && !bad++)
                print_error("FAIL %s: d/d input%d[%lld]: autograd %.10g, finite differences %.10g\n", k->name, i,
                            (long long)j, ana, num);
        }
    }
    ten_free(G);
    ten_free(aux);
    ag_val_free(y);
    for (int i = 0; i < k->nin; i++) ag_val_free(in[i]);
    return bad != 0;
}

/* Every case, on inputs from two seeds; the cases that disagree are each named. */
static void test_gradients_finite_differences(void **state) {
    (void)state;
    int bad = 0;
    for (int i = 0; i < NCASES; i++)
        for (uint64_t s = 0; s < 2 && !CASES[i].torch_only; s++) bad += check_case(&CASES[i], 1000 + 2 * (uint64_t)i + s);
    assert_int_equal(bad, 0);
}

/* ---- the engine ---- */

static AgVal leaf(const double *v, int ndim, const int64_t *shape, bool requires_grad) {
    AgVal x = {ten_new_in(TC, DT_F64, ndim, shape), ag_meta_new(requires_grad)};
    for (int64_t i = 0; i < x.t->numel; i++) ten_f64(x.t)[i] = v[i];
    return x;
}

static void test_leaf_and_names(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal x = leaf((double[]){1, 2, 3}, 1, (int64_t[]){3}, true);
    AgVal w = leaf((double[]){4, 5, 6}, 1, (int64_t[]){3}, false);
    assert_true(ag_is_leaf(x.m));
    assert_null(x.m->grad_fn);
    AgVal two = {ten_scalar_d_in(TC, 2.0), NULL};
    AgVal y = ag_binary(&c, OP_MUL, x, false, two, true);      /* x * 2: MulBackward0, next (AccumulateGrad, None) */
    assert_false(ag_is_leaf(y.m));
    assert_string_equal(ag_node_name(y.m->grad_fn), "MulBackward0");
    assert_int_equal(ag_node_num_next(y.m->grad_fn), 2);
    int nr = -1;
    AgNode *acc = ag_node_next(y.m->grad_fn, 0, &nr);
    assert_non_null(acc);
    assert_int_equal(nr, 0);
    assert_string_equal(ag_node_name(acc), "AccumulateGrad");
    assert_ptr_equal(ag_node_variable(acc), x.m);
    assert_null(ag_node_next(y.m->grad_fn, 1, NULL));
    AgVal z = ag_binary(&c, OP_ADD, y, false, w, false);       /* AddBackward0, next (MulBackward0, None) */
    assert_string_equal(ag_node_name(z.m->grad_fn), "AddBackward0");
    assert_ptr_equal(ag_node_next(z.m->grad_fn, 0, NULL), y.m->grad_fn);
    assert_null(ag_node_next(z.m->grad_fn, 1, NULL));
    AgVal s = ag_sum(&c, z);
    assert_string_equal(ag_node_name(s.m->grad_fn), "SumBackward0");
    /* the same leaf used twice shares one AccumulateGrad */
    AgVal e = ag_binary(&c, OP_MUL, x, false, x, false);
    assert_ptr_equal(ag_node_next(e.m->grad_fn, 0, NULL), ag_node_next(e.m->grad_fn, 1, NULL));
    assert_ptr_equal(ag_node_next(e.m->grad_fn, 0, NULL), acc);
    /* a matmul reads as PyTorch's: UnsafeViewBackward0 <- BmmBackward0 <- ReshapeAliasBackward0 <- ExpandBackward0 */
    AgVal A = {ten_new_in(TC, DT_F64, 3, (int64_t[]){2, 3, 4}), ag_meta_new(true)};
    AgVal B = {ten_new_in(TC, DT_F64, 3, (int64_t[]){2, 4, 5}), ag_meta_new(true)};
    AgVal p = ag_matmul(&c, A, B);
    const char *chain[] = {"UnsafeViewBackward0", "BmmBackward0", "ReshapeAliasBackward0", "ExpandBackward0",
                           "AccumulateGrad"};
    AgNode *n = p.m->grad_fn;
    for (int i = 0; i < 5; i++, n = ag_node_next(n, 0, NULL)) assert_string_equal(ag_node_name(n), chain[i]);
    AgVal A2 = {ten_new_in(TC, DT_F64, 2, (int64_t[]){3, 4}), ag_meta_new(true)};
    AgVal B2 = {ten_new_in(TC, DT_F64, 2, (int64_t[]){4, 5}), ag_meta_new(true)};
    AgVal p2 = ag_matmul(&c, A2, B2);
    assert_string_equal(ag_node_name(p2.m->grad_fn), "MmBackward0");
    AgVal vals[] = {x, w, two, y, z, s, e, A, B, p, A2, B2, p2};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) ag_val_free(vals[i]);
}

/* The name of n and of the first node down each of its edges ("-" for None), as "Name(next, next, ...)". */
static char *node_text(const AgNode *n) {
    static char buf[512];
    size_t k = (size_t)snprintf(buf, sizeof buf, "%s(", ag_node_name(n));
    for (int i = 0; i < ag_node_num_next(n); i++) {
        const AgNode *f = ag_node_next(n, i, NULL);
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i ? ", " : "", f ? ag_node_name(f) : "-");
    }
    snprintf(buf + k, sizeof buf - k, ")");
    return buf;
}

/* grad_fn and next_functions of the other ops, as PyTorch 1.13 prints them (tests/ref/autograd.py's cases). */
/* A Linear layer's weight grad, float32 and large enough for BLAS: computed as PyTorch's mm_mat2_backward does for
 * W.t(), (gᵀ @ x)ᵀ, it has the bits of xᵀ @ g (the same sums), and W.grad comes out as W is laid out. */
static void test_linear_weight_grad(void **state) {
    (void)state;
    Rng g;
    rng_seed(&g, 7);
    AgContext c;
    ag_context_init(&c, TC);
    AgVal x = {ten_uniform_in(TC, &g, DT_F32, 2, (int64_t[]){200, 256}, -1, 1), NULL};
    AgVal W = {ten_uniform_in(TC, &g, DT_F32, 2, (int64_t[]){300, 256}, -1, 1), ag_meta_new(true)};
    AgVal b = {ten_uniform_in(TC, &g, DT_F32, 1, (int64_t[]){300}, -1, 1), ag_meta_new(true)};
    Tensor *G = ten_uniform_in(TC, &g, DT_F32, 2, (int64_t[]){200, 300}, -1, 1);
    AgVal y = ag_linear(&c, x, W, b);
    assert_non_null(y.t);
    const Tensor *gs[1] = {G};
    assert_int_equal(ag_backward(&c, 1, &y, gs, false), 0);
    Tensor *xt = ten_transpose(x.t, 0, 1), *xc = ten_contiguous(xt), *old = ten_matmul(xc, G);   /* (256, 300) */
    Tensor *oldt = ten_transpose(old, 0, 1), *want = ten_contiguous(oldt);
    Tensor *gw = W.m->grad;
    assert_non_null(gw);
    assert_true(gw->contiguous && ten_same_shape(gw, W.t));
    /* the same bits where attn's own kernel computes both products (its sums over k run in one order whatever the
     * shapes); OpenBLAS blocks (300, 256) and (256, 300) products differently, so there within float32 rounding */
    if (ten_sgemm_own(TC, 300, 256, 200, 256, 1.0f) && ten_sgemm_own(TC, 256, 300, 200, 300, 1.0f))
        assert_memory_equal(ten_f32(gw), ten_f32(want), sizeof(float) * (size_t)want->numel);
    else
        for (int64_t i = 0; i < want->numel; i++) {
            double got = ten_f32(gw)[i], ref = ten_f32(want)[i];
            assert_true(fabs(got - ref) <= 1e-5 * (1 + fabs(ref)));
        }
    Tensor *frees[] = {xt, xc, old, oldt, want, G};
    for (size_t i = 0; i < sizeof frees / sizeof *frees; i++) ten_free(frees[i]);
    ag_val_free(x);
    ag_val_free(W);
    ag_val_free(b);
    ag_val_free(y);
}

static void test_more_names(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal x = {ten_new_in(TC, DT_F32, 2, (int64_t[]){4, 5}), ag_meta_new(true)};
    AgVal y = {ten_new_in(TC, DT_F32, 2, (int64_t[]){4, 5}), ag_meta_new(true)}, none = {NULL, NULL};
    AgVal w6 = {ten_new_in(TC, DT_F32, 2, (int64_t[]){6, 5}), ag_meta_new(true)};
    Tensor *target = aux_target(), *idx = aux_idx(), *mask = ten_new_in(TC, DT_BOOL, 2, (int64_t[]){1, 5});
    AgVal xy[2] = {x, y};
    struct { AgVal v; const char *want; } cases[] = {
        {ag_cat(&c, xy, 2, 0), "CatBackward0(AccumulateGrad, AccumulateGrad)"},
        {ag_stack(&c, xy, 2, 1), "StackBackward0(AccumulateGrad, AccumulateGrad)"},
        {ag_slice(&c, x, 1, 0, 4, 2, false, true), "SliceBackward0(AccumulateGrad)"},
        {ag_narrow(&c, x, 0, 1, 2), "SliceBackward0(AccumulateGrad)"},
        {ag_select(&c, x, 0, 1), "SelectBackward0(AccumulateGrad)"},
        {ag_layer_norm(&c, x, 1, none, none, 1e-5), "NativeLayerNormBackward0(AccumulateGrad, -, -)"},
        {ag_embedding(&c, w6, idx, AG_NO_PADDING), "EmbeddingBackward0(AccumulateGrad)"},
        {ag_cross_entropy(&c, x, target, -100, AG_REDUCE_MEAN), "NllLossBackward0(LogSoftmaxBackward0)"},
        {ag_mse_loss(&c, x, y, AG_REDUCE_MEAN), "MseLossBackward0(AccumulateGrad, AccumulateGrad)"},
        {ag_masked_fill(&c, x, mask, 0), "MaskedFillBackward0(AccumulateGrad)"},
        {ag_reshape(&c, x, 1, (int64_t[]){20}), "ReshapeAliasBackward0(AccumulateGrad)"},
        {ag_squeeze(&c, x, 0, true), "SqueezeBackward0(AccumulateGrad)"},
        {ag_pow_scalar(&c, x, 2), "PowBackward0(AccumulateGrad)"},
        {ag_unary(&c, UOP_RELU, x), "ReluBackward0(AccumulateGrad)"},
        {ag_mean_dims(&c, x, (int[]){1}, 1, false), "MeanBackward1(AccumulateGrad)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!cases[i].v.t) fail_msg("%s: %s", cases[i].want, ten_error(TC));
        assert_string_equal(node_text(cases[i].v.m->grad_fn), cases[i].want);
        ag_val_free(cases[i].v);
    }
    /* nn.Linear as PyTorch records it */
    AgVal W = {ten_new_in(TC, DT_F32, 2, (int64_t[]){3, 5}), ag_meta_new(true)};
    AgVal bias = {ten_new_in(TC, DT_F32, 1, (int64_t[]){3}), ag_meta_new(true)};
    AgVal x3 = {ten_new_in(TC, DT_F32, 3, (int64_t[]){2, 4, 5}), NULL}, x1 = {ten_new_in(TC, DT_F32, 1, (int64_t[]){5}), NULL};
    AgVal l2 = ag_linear(&c, x, W, bias), l3 = ag_linear(&c, x3, W, bias), l3n = ag_linear(&c, x3, W, none);
    AgVal l1 = ag_linear(&c, x1, W, bias);
    assert_string_equal(node_text(l2.m->grad_fn), "AddmmBackward0(AccumulateGrad, AccumulateGrad, TBackward0)");
    assert_string_equal(node_text(l3.m->grad_fn), "ViewBackward0(AddmmBackward0)");
    assert_string_equal(node_text(ag_node_next(l3.m->grad_fn, 0, NULL)), "AddmmBackward0(AccumulateGrad, -, TBackward0)");
    assert_string_equal(node_text(l3n.m->grad_fn), "UnsafeViewBackward0(MmBackward0)");
    assert_string_equal(node_text(ag_node_next(l3n.m->grad_fn, 0, NULL)), "MmBackward0(-, TBackward0)");
    assert_string_equal(node_text(l1.m->grad_fn), "AddBackward0(SqueezeBackward3, AccumulateGrad)");
    AgVal lin[] = {W, bias, x3, x1, l2, l3, l3n, l1};
    for (size_t i = 0; i < sizeof lin / sizeof lin[0]; i++) ag_val_free(lin[i]);
    AgVal xc = {ten_new_in(TC, DT_F32, 3, (int64_t[]){2, 5, 3}), ag_meta_new(true)};
    Tensor *t3 = aux_target3();
    AgVal ce3 = ag_cross_entropy(&c, xc, t3, -100, AG_REDUCE_MEAN), ce3n = ag_cross_entropy(&c, xc, t3, -100, 0);
    assert_string_equal(node_text(ce3.m->grad_fn), "NllLoss2DBackward0(ViewBackward0)");
    assert_string_equal(node_text(ce3n.m->grad_fn), "ViewBackward0(NllLoss2DBackward0)");
    ag_val_free(xc);
    ag_val_free(ce3);
    ag_val_free(ce3n);
    ten_free(t3);
    AgVal num = {ten_scalar_d_in(TC, 2.0), NULL};
    AgVal rs = ag_binary(&c, OP_SUB, num, true, x, false), rd = ag_binary(&c, OP_DIV, num, true, x, false);
    AgVal ra = ag_binary(&c, OP_ADD, num, true, x, false), mx = ag_max(&c, x, false);
    Tensor *mi = NULL;
    AgVal md = ag_max_dim(&c, x, 1, false, true, &mi);
    assert_string_equal(node_text(rs.m->grad_fn), "RsubBackward1(AccumulateGrad)");
    assert_string_equal(node_text(rd.m->grad_fn), "MulBackward0(ReciprocalBackward0, -)");
    assert_string_equal(node_text(ra.m->grad_fn), "AddBackward0(AccumulateGrad, -)");
    assert_string_equal(node_text(mx.m->grad_fn), "MaxBackward1(AccumulateGrad)");
    assert_string_equal(node_text(md.m->grad_fn), "MinBackward0(AccumulateGrad)");
    assert_int_equal(mi->ndim, 1);
    Tensor *pos = ten_binary(OP_GT, x.t, false, num.t, true);
    AgVal wh = ag_where(&c, pos, x, false, num, true), ab = ag_abs(&c, x), cl = ag_clamp(&c, x, 0, 1);
    assert_string_equal(node_text(wh.m->grad_fn), "WhereBackward0(AccumulateGrad, -)");
    assert_string_equal(node_text(ab.m->grad_fn), "AbsBackward0(AccumulateGrad)");
    assert_string_equal(node_text(cl.m->grad_fn), "ClampBackward1(AccumulateGrad)");
    ten_free(pos);
    AgVal rvals[] = {num, rs, rd, ra, mx, md, wh, ab, cl};
    for (size_t i = 0; i < sizeof rvals / sizeof rvals[0]; i++) ag_val_free(rvals[i]);
    ten_free(mi);
    AgVal v4 = {ten_new_in(TC, DT_F32, 1, (int64_t[]){5}), ag_meta_new(true)};
    AgVal dot = ag_matmul(&c, v4, v4), mv = ag_matmul(&c, x, v4), vm = ag_matmul(&c, v4, y);
    assert_string_equal(node_text(dot.m->grad_fn), "DotBackward0(AccumulateGrad, AccumulateGrad)");
    assert_string_equal(node_text(mv.m->grad_fn), "MvBackward0(AccumulateGrad, AccumulateGrad)");
    assert_null(vm.t);                      /* (5,) @ (4, 5): the shapes do not fit */
    AgVal yt = ag_t(&c, y), vm2 = ag_matmul(&c, v4, yt);
    assert_string_equal(node_text(vm2.m->grad_fn), "SqueezeBackward3(MmBackward0)");
    assert_string_equal(node_text(ag_node_next(vm2.m->grad_fn, 0, NULL)), "MmBackward0(UnsqueezeBackward0, TBackward0)");
    AgVal vecs[] = {v4, dot, mv, yt, vm2};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) ag_val_free(vecs[i]);
    /* a reshape that copies: UnsafeViewBackward0 <- CloneBackward0 <- TransposeBackward0 */
    AgVal t = ag_transpose(&c, x, 0, 1), r = ag_reshape(&c, t, 1, (int64_t[]){20});
    assert_string_equal(node_text(r.m->grad_fn), "UnsafeViewBackward0(CloneBackward0)");
    assert_string_equal(node_text(ag_node_next(r.m->grad_fn, 0, NULL)), "CloneBackward0(TransposeBackward0)");
    /* the noise of dropout is a constant: MulBackward0 (AccumulateGrad, None) */
    AgVal d = ag_dropout(&c, x, y.t);
    assert_string_equal(node_text(d.m->grad_fn), "MulBackward0(AccumulateGrad, -)");
    /* in-place on a leaf that requires grad is refused, on a non-leaf allowed; detach has no history */
    assert_int_equal(ag_check_inplace(&c, x.m, false), -1);
    assert_string_equal(ten_error(TC), "a leaf Variable that requires grad is being used in an in-place operation.");
    assert_int_equal(ag_check_inplace(&c, x.m, true), -1);
    assert_string_equal(ten_error(TC), "a view of a leaf Variable that requires grad is being used in an in-place "
                                     "operation.");
    assert_int_equal(ag_check_inplace(&c, d.m, false), 0);
    c.grad_enabled = false;
    assert_int_equal(ag_check_inplace(&c, x.m, false), 0);        /* under no_grad: allowed (nn.init does it) */
    AgVal dt = ag_detach(d);
    assert_null(dt.m);
    assert_true(ten_same_storage(dt.t, d.t));
    ag_val_free(dt);
    ag_val_free(d);
    ag_val_free(t);
    ag_val_free(r);
    ten_free(target);
    ten_free(idx);
    ten_free(mask);
    ag_val_free(w6);
    ag_val_free(x);
    ag_val_free(y);
}

static void test_no_grad_records_nothing(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    c.grad_enabled = false;
    AgVal x = leaf((double[]){1, 2}, 1, (int64_t[]){2}, true);
    AgVal y = ag_unary(&c, UOP_EXP, x);
    assert_non_null(y.t);
    assert_null(y.m);
    assert_null(x.m->acc);                   /* not even an AccumulateGrad was made */
    c.grad_enabled = true;                   /* enable_grad: records again */
    AgVal z = ag_unary(&c, UOP_EXP, x);
    assert_non_null(z.m);
    assert_string_equal(ag_node_name(z.m->grad_fn), "ExpBackward0");
    AgVal w = leaf((double[]){1, 2}, 1, (int64_t[]){2}, false);
    AgVal u = ag_unary(&c, UOP_EXP, w);      /* no input requires grad */
    assert_null(u.m);
    ag_val_free(x); ag_val_free(y); ag_val_free(z); ag_val_free(w); ag_val_free(u);
}

static void test_accumulation_and_retain_graph(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal x = leaf((double[]){0.5, -1.0, 2.0}, 1, (int64_t[]){3}, true);
    AgVal e = ag_unary(&c, UOP_EXP, x), y = ag_sum(&c, e);
    assert_int_equal(ag_backward(&c, 1, &y, NULL, true), 0);           /* scalar root: grad 1 */
    for (int i = 0; i < 3; i++) assert_float_equal(ten_f64(x.m->grad)[i], exp(ten_f64(x.t)[i]), 1e-12);
    Tensor *alias = ten_alias(x.m->grad);                               /* as a language value holding x.grad */
    assert_int_equal(ag_backward(&c, 1, &y, NULL, false), 0);          /* retained: a second backward works */
    for (int i = 0; i < 3; i++) assert_float_equal(ten_f64(alias)[i], 2 * exp(ten_f64(x.t)[i]), 1e-12);
    assert_int_equal(ag_backward(&c, 1, &y, NULL, false), -1);         /* freed: PyTorch's message */
    assert_non_null(strstr(ten_error(TC), "Trying to backward through the graph a second time (or directly access "
                                        "saved tensors after they have already been freed)"));
    for (int i = 0; i < 3; i++) assert_float_equal(ten_f64(alias)[i], 2 * exp(ten_f64(x.t)[i]), 1e-12);
    /* a new graph on the same leaf accumulates on top */
    AgVal e2 = ag_unary(&c, UOP_EXP, x), y2 = ag_sum(&c, e2);
    assert_int_equal(ag_backward(&c, 1, &y2, NULL, false), 0);
    for (int i = 0; i < 3; i++) assert_float_equal(ten_f64(x.m->grad)[i], 3 * exp(ten_f64(x.t)[i]), 1e-12);
    ag_zero_grad(x.m);
    assert_null(x.m->grad);
    /* a node that saved nothing may run twice, as in PyTorch (x + x) */
    AgVal a = ag_binary(&c, OP_ADD, x, false, x, false), s = ag_sum(&c, a);
    assert_int_equal(ag_backward(&c, 1, &s, NULL, false), 0);
    assert_int_equal(ag_backward(&c, 1, &s, NULL, false), 0);
    assert_float_equal(ten_f64(x.m->grad)[0], 4.0, 0);
    ten_free(alias);
    AgVal vals[] = {x, e, y, e2, y2, a, s};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) ag_val_free(vals[i]);
}

static void test_root_errors(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal x = leaf((double[]){1, 2, 3}, 1, (int64_t[]){3}, true);
    AgVal e = ag_unary(&c, UOP_EXP, x);
    assert_int_equal(ag_backward(&c, 1, &e, NULL, false), -1);
    assert_string_equal(ten_error(TC), "grad can be implicitly created only for scalar outputs");
    Tensor *g2 = ten_new_in(TC, DT_F64, 1, (int64_t[]){2});
    const Tensor *gs[1] = {g2};
    assert_int_equal(ag_backward(&c, 1, &e, gs, false), -1);
    assert_string_equal(ten_error(TC), "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] "
                                     "has a shape of torch.Size([3]).");
    AgVal w = leaf((double[]){1}, 0, NULL, false);
    assert_int_equal(ag_backward(&c, 1, &w, NULL, false), -1);
    assert_string_equal(ten_error(TC), "element 0 of tensors does not require grad and does not have a grad_fn");
    assert_null(x.m->grad);
    /* a leaf as the root: its own grad */
    AgVal s = leaf((double[]){7}, 0, NULL, true);
    assert_int_equal(ag_backward(&c, 1, &s, NULL, false), 0);
    assert_float_equal(ten_f64(s.m->grad)[0], 1.0, 0);
    assert_int_equal(ag_set_requires_grad(e.m, e.t, false), -1);
    assert_non_null(strstr(ten_error(TC), "you can only change requires_grad flags of leaf variables"));
    Tensor *it = ten_new_in(TC, DT_I64, 1, (int64_t[]){2});
    AgMeta *im = ag_meta_new(false);
    assert_int_equal(ag_set_requires_grad(im, it, true), -1);
    assert_string_equal(ten_error(TC), "only Tensors of floating point dtype can require gradients");
    ten_free(it);
    ag_meta_unref(im);
    ten_free(g2);
    ag_val_free(x); ag_val_free(e); ag_val_free(w); ag_val_free(s);
}

static void test_inplace_modified_saved_tensor(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal x = leaf((double[]){1, 2, 3}, 1, (int64_t[]){3}, true);
    AgVal e = ag_unary(&c, UOP_EXP, x), y = ag_sum(&c, e);
    Tensor *view = ten_narrow(e.t, 0, 1, 1);                    /* a write through a view counts for the storage */
    Tensor *one = ten_scalar_d_in(TC, 1.0);
    assert_int_equal(ten_version(e.t), 0);
    assert_int_equal(ten_copy_into(view, one), 0);
    assert_int_equal(ten_version(e.t), 1);
    assert_int_equal(ag_backward(&c, 1, &y, NULL, false), -1);
    assert_string_equal(ten_error(TC), "one of the variables needed for gradient computation has been modified by an "
                        "inplace operation: [torch.DoubleTensor [3]], which is output 0 of ExpBackward0, is at version "
                        "1; expected version 0 instead. Hint: enable anomaly detection to find the operation that "
                        "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).");
    assert_null(x.m->grad);
    /* a saved input made by another node names that node; index assignment counts once */
    AgVal a = ag_binary(&c, OP_MUL, x, false, x, false);
    AgVal b = ag_binary(&c, OP_MUL, a, false, a, false), s = ag_sum(&c, b);
    IndexItem it = {.kind = IX_INT, .i = 0, .start = 0, .stop = 0, .step = 0, .has_start = false, .has_stop = false,
                    .index = NULL};
    assert_int_equal(ten_index_set(a.t, &it, 1, one), 0);
    assert_int_equal(ten_version(a.t), 1);
    assert_int_equal(ag_backward(&c, 1, &s, NULL, false), -1);
    assert_non_null(strstr(ten_error(TC), "[torch.DoubleTensor [3]], which is output 0 of MulBackward0, is at version 1"));
    ten_free(view);
    ten_free(one);
    AgVal vals[] = {x, e, y, a, b, s};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) ag_val_free(vals[i]);
}

static void test_autograd_grad_and_retain_grad(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal x = leaf((double[]){1, 2, 3}, 1, (int64_t[]){3}, true);
    AgVal u = leaf((double[]){1, 2}, 1, (int64_t[]){2}, true);
    AgVal sq = ag_binary(&c, OP_MUL, x, false, x, false), y = ag_sum(&c, sq);
    AgVal ins[2] = {x, sq};
    Tensor *r[2];
    assert_int_equal(ag_grad(&c, 1, &y, NULL, 2, ins, r, true, false), 0);
    for (int i = 0; i < 3; i++) {
        assert_float_equal(ten_f64(r[0])[i], 2 * (i + 1), 0);
        assert_float_equal(ten_f64(r[1])[i], 1.0, 0);
    }
    assert_null(x.m->grad);                                     /* .grad untouched */
    ten_free(r[0]);
    ten_free(r[1]);
    AgVal ins2[2] = {x, u};
    assert_int_equal(ag_grad(&c, 1, &y, NULL, 2, ins2, r, true, false), -1);
    assert_string_equal(ten_error(TC), "One of the differentiated Tensors appears to not have been used in the graph. "
                                     "Set allow_unused=True if this is the desired behavior.");
    assert_int_equal(ag_grad(&c, 1, &y, NULL, 2, ins2, r, true, true), 0);
    assert_non_null(r[0]);
    assert_null(r[1]);
    ten_free(r[0]);
    /* retain_grad: a non-leaf's .grad fills, and accumulates */
    assert_int_equal(ag_retain_grad(&c, sq.m), 0);
    assert_int_equal(ag_backward(&c, 1, &y, NULL, true), 0);
    assert_int_equal(ag_backward(&c, 1, &y, NULL, false), 0);
    assert_non_null(sq.m->grad);
    assert_float_equal(ten_f64(sq.m->grad)[2], 2.0, 0);
    assert_float_equal(ten_f64(x.m->grad)[2], 12.0, 0);
    AgVal w = leaf((double[]){1}, 0, NULL, false);
    assert_int_equal(ag_retain_grad(&c, w.m), -1);
    assert_string_equal(ten_error(TC), "can't retain_grad on Tensor that has requires_grad=False");
    /* two roots with their grads */
    AgVal e1 = ag_unary(&c, UOP_SIN, x), e2 = ag_unary(&c, UOP_COS, x);
    Tensor *g1 = ten_full_in(TC, DT_F64, 1, (int64_t[]){3}, 2.0), *g2 = ten_full_in(TC, DT_F64, 1, (int64_t[]){3}, -1.0);
    AgVal outs[2] = {e1, e2};
    const Tensor *gs[2] = {g1, g2};
    ag_zero_grad(x.m);
    assert_int_equal(ag_backward(&c, 2, outs, gs, false), 0);
    for (int i = 0; i < 3; i++)
        assert_float_equal(ten_f64(x.m->grad)[i], 2 * cos(i + 1.0) + sin(i + 1.0), 1e-12);
    ten_free(g1);
    ten_free(g2);
    AgVal vals[] = {x, u, sq, y, w, e1, e2};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) ag_val_free(vals[i]);
}

/* Freeing the outputs first, then the leaves (or the other way round) frees the whole graph: the sanitizer build
 * checks there is no leak; and the same graph gives the same bytes. */
static void test_determinism_and_ownership(void **state) {
    (void)state;
    Tensor *first = NULL;
    for (int run = 0; run < 2; run++) {
        AgContext c;
        ag_context_init(&c, TC);
        Rng g;
        rng_seed(&g, 7);
        AgVal a = {random_input(&g, DT_F32, 3, (int64_t[]){4, 8, 16}, 0), ag_meta_new(true)};
        AgVal b = {random_input(&g, DT_F32, 2, (int64_t[]){16, 8}, 0), ag_meta_new(true)};
        AgVal p = ag_matmul(&c, a, b), sm = ag_softmax(&c, p, -1), l = ag_log_softmax(&c, sm, 1);
        AgVal m = ag_mean(&c, l);
        ag_val_free(a);                       /* the graph keeps what it needs */
        assert_int_equal(ag_backward(&c, 1, &m, NULL, false), 0);
        AgMeta *bm = ag_meta_ref(b.m);
        ag_val_free(p); ag_val_free(sm); ag_val_free(l); ag_val_free(m);
        if (!first) first = ten_copy(bm->grad);
        else assert_memory_equal(first->data, bm->grad->data, sizeof(float) * (size_t)first->numel);
        ag_meta_unref(bm);
        ag_val_free(b);
    }
    ten_free(first);
}

/* In-place writes: histories as PyTorch 1.13 prints them, its refusals and its message for a modified saved tensor. */
static void test_inplace_histories(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal a = {ten_new_in(TC, DT_F32, 3, (int64_t[]){2, 3, 4}), ag_meta_new(true)}, two = {ten_scalar_d_in(TC, 2.0), NULL};
    Tensor *rows = aux_rows();
    IndexItem mask = {.kind = IX_TENSOR, .i = 0, .start = 0, .stop = 0, .step = 0, .has_start = false,
                      .has_stop = false, .index = rows};
    /* d2l's masked_softmax: the base gets CopySlices, the view AsStridedBackward0 */
    AgVal X = ag_binary(&c, OP_MUL, a, false, two, true), Xv = ag_reshape(&c, X, 2, (int64_t[]){6, 4});
    AgVal v = {ten_scalar_d_in(TC, -1e6), NULL};
    assert_int_equal(ag_index_put_(&c, Xv.t, &Xv.m, &mask, 1, v, true), 0);
    assert_string_equal(node_text(X.m->grad_fn), "CopySlices(MulBackward0, -)");
    assert_string_equal(node_text(ag_grad_fn(&c, Xv.m)), "AsStridedBackward0(CopySlices)");
    AgVal back = ag_reshape(&c, Xv, 3, a.t->shape), y = ag_softmax(&c, back, -1);
    assert_string_equal(node_text(y.m->grad_fn), "SoftmaxBackward0(ReshapeAliasBackward0)");
    assert_string_equal(node_text(back.m->grad_fn), "ReshapeAliasBackward0(AsStridedBackward0)");
    /* a write into a non-view: CopySlices for a basic index, MaskedFillBackward0 for masked_fill_ */
    AgVal Y = ag_binary(&c, OP_MUL, a, false, two, true), Z = ag_binary(&c, OP_MUL, a, false, two, true);
    IndexItem first = {.kind = IX_INT, .i = 0, .start = 0, .stop = 0, .step = 0, .has_start = false,
                       .has_stop = false, .index = NULL};
    AgVal five = {ten_scalar_d_in(TC, 5.0), NULL};
    assert_int_equal(ag_index_put_(&c, Y.t, &Y.m, &first, 1, five, true), 0);
    assert_string_equal(node_text(Y.m->grad_fn), "CopySlices(MulBackward0, -)");
    Tensor *zmask = ten_new_in(TC, DT_BOOL, 3, a.t->shape);
    assert_int_equal(ag_masked_fill_(&c, Z.t, &Z.m, zmask, 0.0), 0);
    assert_string_equal(node_text(Z.m->grad_fn), "MaskedFillBackward0(MulBackward0)");
    /* refused on a leaf that requires grad and on a view of one; allowed under no_grad */
    assert_int_equal(ag_masked_fill_(&c, a.t, &a.m, zmask, 0.0), -1);
    assert_string_equal(ten_error(TC), "a leaf Variable that requires grad is being used in an in-place operation.");
    AgVal av = ag_select(&c, a, 0, 1);
    assert_int_equal(ag_index_put_(&c, av.t, &av.m, &first, 1, five, true), -1);
    assert_string_equal(ten_error(TC), "a view of a leaf Variable that requires grad is being used in an in-place "
                                     "operation.");
    c.grad_enabled = false;
    assert_int_equal(ag_masked_fill_(&c, a.t, &a.m, zmask, 0.0), 0);
    c.grad_enabled = true;
    /* a plain tensor written with a value that requires grad gets history */
    AgVal P = {ten_new_in(TC, DT_F32, 2, (int64_t[]){3, 4}), NULL};
    AgVal row = ag_select(&c, a, 0, 0);           /* (3, 4), requires grad */
    IndexItem all = {.kind = IX_SLICE, .i = 0, .start = 0, .stop = 0, .step = 1, .has_start = false,
                     .has_stop = false, .index = NULL};
    assert_int_equal(ag_index_put_(&c, P.t, &P.m, &all, 1, row, false), 0);
    assert_non_null(P.m);
    assert_true(P.m->requires_grad);
    assert_string_equal(node_text(P.m->grad_fn), "CopySlices(-, SelectBackward0)");
    /* a saved input written in place: PyTorch names its history now */
    AgVal b = ag_binary(&c, OP_MUL, a, false, two, true), m = ag_binary(&c, OP_MUL, b, false, b, false);
    AgVal s = ag_sum(&c, m), one = {ten_scalar_d_in(TC, 1.0), NULL};
    assert_int_equal(ag_index_put_(&c, b.t, &b.m, &first, 1, one, true), 0);
    assert_int_equal(ag_backward(&c, 1, &s, NULL, false), -1);
    assert_non_null(strstr(ten_error(TC), "[torch.FloatTensor [2, 3, 4]], which is output 0 of "
                                        "torch::autograd::CopySlices, is at version 1; expected version 0 instead."));
    /* M[0] = (M * M)[0]: the value written was made from M, whose MulBackward0 saved M; the graph must still free
     * (a strong reference from the saved slot to M's metadata made a cycle: LeakSanitizer) */
    AgVal M = ag_binary(&c, OP_MUL, a, false, two, true), MM = ag_binary(&c, OP_MUL, M, false, M, false);
    AgVal row0 = ag_select(&c, MM, 0, 0);
    assert_int_equal(ag_index_put_(&c, M.t, &M.m, &first, 1, row0, false), 0);
    assert_string_equal(node_text(M.m->grad_fn), "CopySlices(MulBackward0, SelectBackward0)");
    AgVal all_vals[] = {a, two, X, Xv, v, back, y, Y, Z, five, av, P, row, b, m, s, one, M, MM, row0};
    for (size_t i = 0; i < sizeof all_vals / sizeof all_vals[0]; i++) ag_val_free(all_vals[i]);
    ten_free(rows);
    ten_free(zmask);
}

/* A graph of 300,000 nodes in a chain through the second edge (h = x + h, as an RNN's loop builds it) runs backward
 * and frees without a deep C stack (the recursive free overflowed it). */
static void test_long_chain(void **state) {
    (void)state;
    AgContext c;
    ag_context_init(&c, TC);
    AgVal x = leaf((double[]){0.5}, 0, NULL, true);
    AgVal h = leaf((double[]){0.0}, 0, NULL, false);
    const int n = 300000;
    for (int i = 0; i < n; i++) {
        AgVal next = ag_binary(&c, OP_ADD, x, false, h, false);
        assert_non_null(next.t);
        ag_val_free(h);
        h = next;
    }
    atomic_store(&ten_interrupted, 1);                       /* Ctrl-C: stops between nodes, the graph kept */
    assert_int_equal(ag_backward(&c, 1, &h, NULL, false), -1);
    assert_int_equal(ten_error_kind(TC), TEN_ERR_INTERRUPTED);
    atomic_store(&ten_interrupted, 0);
    assert_int_equal(ag_backward(&c, 1, &h, NULL, false), 0);
    assert_float_equal(ten_f64(x.m->grad)[0], (double)n, 0);
    ag_val_free(h);
    /* h = x * h: each MulBackward0 keeps the metadata of its inputs (for the in-place message), a chain of those */
    h = leaf((double[]){1.0}, 0, NULL, false);
    for (int i = 0; i < n; i++) {
        AgVal next = ag_binary(&c, OP_MUL, x, false, h, false);
        ag_val_free(h);
        h = next;
    }
    ag_val_free(h);
    ag_val_free(x);
}

/* ---- the driver for tests/ref/autograd.py ---- */

static int ag_check(const char *name, const char *dir) {
    const Case *k = find_case(name);
    if (!k) { fprintf(stderr, "ag-check: no case %s\n", name); return 2; }
    char path[4096];
    AgVal in[3] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    int rc = 1;
    for (int i = 0; i < k->nin; i++) {
        snprintf(path, sizeof path, "%s/in%d.npy", dir, i);
        if (!(in[i].t = npy_load_in(TC, path))) goto out;
        in[i].m = ag_meta_new(true);
    }
    snprintf(path, sizeof path, "%s/aux.npy", dir);
    Tensor *aux = k->aux ? npy_load_in(TC, path) : NULL;
    snprintf(path, sizeof path, "%s/g.npy", dir);
    Tensor *G = npy_load_in(TC, path);
    AgContext c;
    ag_context_init(&c, TC);
    AgVal y = G && (aux || !k->aux) ? k->fn(&c, in, k, aux) : (AgVal){NULL, NULL};
    const Tensor *gs[1] = {G};
    if (y.t && ag_backward(&c, 1, &y, gs, false) == 0) {
        snprintf(path, sizeof path, "%s/out.npy", dir);
        rc = npy_save(path, y.t) < 0;
        for (int i = 0; i < k->nin && !rc; i++) {
            snprintf(path, sizeof path, "%s/grad%d.npy", dir, i);
            rc = npy_save(path, in[i].m->grad) < 0;
        }
    }
    ag_val_free(y);
    ten_free(G);
    ten_free(aux);
out:
    if (rc) fprintf(stderr, "ag-check %s: %s\n", name, ten_error(TC));
    for (int i = 0; i < k->nin; i++) ag_val_free(in[i]);
    return rc;
}

int main(int argc, char **argv) {
    if (argc == 4 && !strcmp(argv[1], "--ag-check")) return ag_check(argv[2], argv[3]);
    if (argc == 2 && !strcmp(argv[1], "--ag-cases")) {
        for (int i = 0; i < NCASES; i++) printf("%s\n", CASES[i].name);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gradients_finite_differences),
        cmocka_unit_test(test_leaf_and_names),
        cmocka_unit_test(test_more_names),
        cmocka_unit_test(test_linear_weight_grad),
        cmocka_unit_test(test_no_grad_records_nothing),
        cmocka_unit_test(test_accumulation_and_retain_graph),
        cmocka_unit_test(test_root_errors),
        cmocka_unit_test(test_inplace_modified_saved_tensor),
        cmocka_unit_test(test_autograd_grad_and_retain_grad),
        cmocka_unit_test(test_determinism_and_ownership),
        cmocka_unit_test(test_long_chain),
        cmocka_unit_test(test_inplace_histories),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    ten_release_cache(TC);
    return r;
}

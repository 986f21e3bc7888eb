/* torch_functional.c - more elementwise functions (log1p, expm1, erf, sinh ... and F.silu, F.mish, F.gelu), and
 * torch.nn.functional's hardtanh, softplus, relu, dropout, linear, pad, normalize, one_hot and
 * scaled_dot_product_attention (PyTorch 2's formula: softmax(Q Kᵀ / sqrt(d) + mask) V). */
#include "torch_more_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* log1p, expm1, erf, sinh, ... and torch.nn.functional's gelu, silu, softplus, ...: tag indexes MAP_NAMES. */
static const char *const MAP_NAMES[] = {"log1p", "expm1", "exp2", "erf", "erfc", "sinh", "cosh", "asinh", "acosh", "atanh",
                                        "reciprocal", "trunc", "frac", "silu", "softplus", "mish", "hardtanh", "logsigmoid", "gelu"};
/* inplace=True of F.silu, F.mish, F.hardtanh, F.relu, F.dropout on input xv: -1 refused (the error set: not a
 * tensor; under grad mode PyTorch's refusal for a leaf that requires grad or a view of one, ag_inplace_check), 1
 * when autograd records the write (grad mode on, xv requires grad: inplace_record), 0 to write it plainly. */
static int inplace_mode(Interp *I, Args *a, const Value *xv) {
    if (!xv || xv->kind != V_TENSOR) { rt_error(I, "%s(): inplace=True needs a tensor input", a->fname); return -1; }
    if (!I->run.ag.grad_enabled || !ag_requires_grad(xv->ag)) return 0;
    if (ag_inplace_check(&I->run.ag, xv->ag) < 0) { rt_tensor_error(I); return -1; }
    return 1;
}

/* F.fn(xv, ..., inplace=True) recorded as PyTorch records it: fn run out of place (the call again, inplace False at
 * position inplace_at or as the keyword) on a copy of xv that carries xv's history, recorded as a call is
 * (ag_after_call: SiluBackward0 ...), then written into xv, whose history becomes that node (CopySlices through a
 * view; ag_inplace_assign), as X.op_() is (tensor_methods.c). xv returned (a new reference), or NULL with the error. */
static Value *inplace_record(Interp *I, Args *a, Value *xv, int inplace_at) {
    Tensor *copy = ten_copy(xv->u.t);
    if (!copy) return rt_tensor_error(I);
    Value *xc = val_tensor_ag(I->run.heap, copy, xv->ag ? ag_meta_ref(xv->ag) : NULL), *off = val_bool(I->run.heap, false);
    Value **pos = xmalloc(sizeof(Value *) * (size_t)(a->npos + 1)), **kw = xmalloc(sizeof(Value *) * (size_t)(a->nkw + 1));
    for (int i = 0; i < a->npos; i++) pos[i] = i == 0 && a->pos[i] == xv ? xc : i == inplace_at ? off : a->pos[i];
    for (int k = 0; k < a->nkw; k++)
        kw[k] = !strcmp(a->kwnames[k], "input") && a->kwvals[k] == xv ? xc : !strcmp(a->kwnames[k], "inplace") ? off : a->kwvals[k];
    Args ca = *a;
    ca.pos = pos;
    ca.kwvals = kw;
    Value *r = ag_after_call(I, &ca, NULL, a->fn->fn(I, &ca));
    free(pos);
    free(kw);
    val_decref(off);
    val_decref(xc);
    if (!r) return NULL;
    int rc = r->kind == V_TENSOR ? ag_inplace_assign(&I->run.ag, xv->u.t, &xv->ag, arg_ag(r)) : 0;
    bool tensor = r->kind == V_TENSOR;
    val_decref(r);
    if (!tensor) return rt_error(I, "%s() did not give a tensor", a->fname);
    return rc < 0 ? rt_tensor_error(I) : val_incref(xv);
}

/* r (owned, NULL: the tensor error) written into the tensor xv itself, as PyTorch's in-place functions do: its
 * _version moves and every view sees it; xv returned (a new reference). */
static Value *write_into(Interp *I, Value *xv, Tensor *r) {
    if (!r) return rt_tensor_error(I);
    int rc = ten_copy_into(xv->u.t, r);
    ten_free(r);
    return rc < 0 ? rt_tensor_error(I) : val_incref(xv);
}

static Value *bi_map(Interp *I, Args *a) {
    Value *p_[2] = {NULL, NULL};                /* input, approximate (gelu) or inplace (silu, mish) */
    if (!args_bind(I, a, p_, 2)) return NULL;
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1);
    if (!x) return NULL;
    const char *name = MAP_NAMES[a->fn->tag];
    Value *ap = !strcmp(name, "gelu") ? p_[1] : NULL, *in = p_[0];
    bool exact = !ap || (ap->kind == V_STR && !strcmp(ap->u.str.s, "none"));
    bool tanh_gelu = !exact && ap->kind == V_STR && !strcmp(ap->u.str.s, "tanh");
    if (in && in->kind == V_TENSOR && grad_recording(I, 1, &in) && ((!strcmp(name, "gelu") && (exact || tanh_gelu)) || !strcmp(name, "reciprocal"))) {
        arg_tensor_release(&t1);                          /* GeluBackward0 (either gelu), ReciprocalBackward0 */
        AgContext *c = &I->run.ag;
        return ret_ag(I, name[0] != 'g' ? ag_reciprocal(c, arg_ag(in)) : tanh_gelu ? ag_gelu_tanh(c, arg_ag(in)) : ag_gelu(c, arg_ag(in)));
    }
    if (ap && ap->kind == V_STR && !strcmp(name, "gelu")) {
        if (!strcmp(ap->u.str.s, "tanh")) name = "gelu_tanh";
        else if (strcmp(ap->u.str.s, "none")) { arg_tensor_release(&t1); return rt_error(I, "approximate argument must be either none or tanh."); }
    }
    bool inplace = false;                       /* silu, mish: inplace=True writes the result into input */
    if (!ap && p_[1] && !arg_bool(I, p_[1], "inplace", &inplace)) { arg_tensor_release(&t1); return NULL; }
    if (inplace) {
        arg_tensor_release(&t1);
        int mode = inplace_mode(I, a, in);
        return mode < 0 ? NULL : mode ? inplace_record(I, a, in, 1) : write_into(I, in, ten_map(name, in->u.t));
    }
    Tensor *r = ten_map(name, x);
    arg_tensor_release(&t1);
    return rt_tensor_result(I, r);
}

/* ---- torch.nn.functional ---- */

/* F.hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False): min(max(x, min_val), max_val), NaN kept
 * (HardtanhBackward0 recorded after the call by ag_after.c), or written into input with inplace=True. */
static Value *bi_f_hardtanh(Interp *I, Args *a) {
    Value *p_[4];                               /* input, min_val, max_val, inplace */
    if (!args_bind(I, a, p_, 4)) return NULL;
    double lo, hi;
    bool inplace;
    if (!num_at(I, a, 1, "min_val", -1, &lo) || !num_at(I, a, 2, "max_val", 1, &hi) ||
        !bool_at(I, a, 3, "inplace", false, &inplace)) return NULL;
    if (inplace) {
        int mode = inplace_mode(I, a, p_[0]);
        return mode < 0 ? NULL : mode ? inplace_record(I, a, p_[0], 3) : write_into(I, p_[0], ten_clamp(p_[0]->u.t, lo, hi));
    }
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1);
    if (!x) return NULL;
    Tensor *r = ten_clamp(x, lo, hi);
    arg_tensor_release(&t1);
    return rt_tensor_result(I, r);
}

/* F.softplus(input, beta=1, threshold=20): log(1 + exp(beta*x)) / beta, linear where beta*x > threshold
 * (SoftplusBackward0 recorded after the call by ag_after.c, which reads beta and threshold); floats only, as
 * PyTorch's kernel. */
static Value *bi_f_softplus(Interp *I, Args *a) {
    Value *p_[3];                               /* input, beta, threshold */
    if (!args_bind(I, a, p_, 3)) return NULL;
    double beta, threshold;
    if (!num_at(I, a, 1, "beta", 1, &beta) || !num_at(I, a, 2, "threshold", 20, &threshold)) return NULL;
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1);
    if (!x) return NULL;
    Tensor *r = NULL;
    if (!ten_is_float(x->dtype)) rt_error(I, "\"softplus_cpu\" not implemented for '%s'", ten_dtype_word(x->dtype));
    else r = ten_softplus(x, beta, threshold);
    arg_tensor_release(&t1);
    return !r && interp_failed(I) ? NULL : rt_tensor_result(I, r);
}

/* F.relu(input, inplace=False): torch.relu (ReluBackward0 when recorded), or written into input with inplace=True. */
static Value *bi_f_relu(Interp *I, Args *a) {
    Value *p_[2];                               /* input, inplace */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *in = p_[0];
    bool inplace;
    if (!bool_at(I, a, 1, "inplace", false, &inplace)) return NULL;
    if (inplace) {
        int mode = inplace_mode(I, a, in);
        return mode < 0 ? NULL : mode ? inplace_record(I, a, in, 1) : write_into(I, in, ten_unary(UOP_RELU, in->u.t));
    }
    if (in && in->kind == V_TENSOR && grad_recording(I, 1, &in)) return ret_ag(I, ag_unary(&I->run.ag, UOP_RELU, arg_ag(in)));
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1);
    if (!x) return NULL;
    Tensor *r = ten_unary(UOP_RELU, x);
    arg_tensor_release(&t1);
    return rt_tensor_result(I, r);
}

/* F.dropout(input, p=0.5, training=True): each element zeroed with probability p, the rest scaled by 1/(1-p);
 * with training=False the input itself. attn's generator (torch.manual_seed), not PyTorch's numbers. */
static Value *bi_f_dropout(Interp *I, Args *a) {
    Value *p_[4];                               /* input, p, training, inplace */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *xv = p_[0];
    double p;
    bool training, inplace;
    if (!xv) return rt_error(I, "dropout(input, p=0.5, training=True) needs a tensor");
    if (xv->kind != V_TENSOR) return arg_not_tensor(I, a, xv, "input", ARG_TENSOR);
    if (!num_at(I, a, 1, "p", 0.5, &p) || !bool_at(I, a, 2, "training", true, &training) ||
        !bool_at(I, a, 3, "inplace", false, &inplace)) return NULL;
    if (p < 0 || p > 1) return rt_error(I, "dropout probability has to be between 0 and 1, but got %g", p);
    if (!training || p == 0) return val_incref(xv);
    Tensor *x = xv->u.t;
    if (!ten_is_float(x->dtype)) return rt_error(I, "dropout(): expected a floating point tensor, got %s", ten_dtype_name(x->dtype));
    int mode = inplace ? inplace_mode(I, a, xv) : 0;
    if (mode) return mode < 0 ? NULL : inplace_record(I, a, xv, 3);
    Tensor *r = ten_new_in(I->run.ten, x->dtype, x->ndim, x->shape);
    if (!r) return rt_tensor_error(I);
    Rng *g = &I->run.rng;
    double scale = p >= 1 ? 0 : 1 / (1 - p);
    if (grad_recording(I, 1, &xv)) {
        /* recorded as PyTorch records it: x * noise (the kept elements' scale, zeros elsewhere), MulBackward0 */
        for (int64_t i = 0; i < r->numel; i++) ten_set(r, i, rng_uniform(g) < p ? 0 : scale);
        AgVal y = ag_dropout(&I->run.ag, arg_ag(xv), r);
        ten_free(r);
        return ret_ag(I, y);
    }
    for (int64_t i = 0; i < r->numel; i++) ten_set(r, i, rng_uniform(g) < p ? 0 : ten_get(x, i) * scale);
    return inplace ? write_into(I, xv, r) : val_tensor(I->run.heap, r);
}

/* F.linear(input, weight, bias=None): input @ weight.T + bias. */
static Value *bi_f_linear(Interp *I, Args *a) {
    Value *p_[3];                               /* input, weight, bias */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *xv = p_[0], *wv = p_[1], *bv = p_[2];
    if (!xv || !wv) return rt_error(I, "linear(input, weight, bias=None) needs tensors");
    if (xv->kind != V_TENSOR || wv->kind != V_TENSOR) return arg_not_tensor(I, a, xv->kind != V_TENSOR ? xv : wv, xv->kind != V_TENSOR ? "input" : "weight", ARG_TENSOR);
    Tensor *W = wv->u.t;
    if (W->ndim > 2) return rt_error(I, "linear(): weight must be 1-D or 2-D, got %dD", W->ndim);
    bool has_b = bv && bv->kind != V_NONE;
    if (has_b && bv->kind != V_TENSOR) return arg_not_tensor(I, a, bv, "bias", ARG_TENSOR);
    Value *xwb[3] = {xv, wv, has_b ? bv : NULL};
    if (W->ndim == 2 && grad_recording(I, 3, xwb)) {
        AgVal b = has_b ? arg_ag(bv) : (AgVal){NULL, NULL};
        return ret_ag(I, ag_linear(&I->run.ag, arg_ag(xv), arg_ag(wv), b));
    }
    Tensor *wt = W->ndim == 2 ? ten_transpose(W, 0, 1) : ten_alias(W), *y = wt ? ten_matmul(xv->u.t, wt) : NULL;
    ten_free(wt);
    if (y && bv && bv->kind != V_NONE) {
        if (bv->kind != V_TENSOR) { ten_free(y); return rt_error(I, "linear(): bias must be a tensor"); }
        Tensor *s = ten_binary(OP_ADD, y, false, bv->u.t, false);
        ten_free(y);
        y = s;
    }
    return rt_tensor_result(I, y);
}

/* F.pad(input, pad, mode='constant', value=0): pad = (left, right) for the last dim, then (top, bottom) for the one
 * before, ...; negative amounts crop. */
static Value *bi_f_pad(Interp *I, Args *a) {
    Value *p_[4];                               /* input, pad, mode, value */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *xv = p_[0], *mv = p_[2];
    int64_t pad[2 * TEN_MAX_DIMS];
    int np;
    double value;
    if (!xv) return rt_error(I, "pad(input, pad, mode='constant', value=0) needs a tensor");
    if (xv->kind != V_TENSOR) return arg_not_tensor(I, a, xv, "input", ARG_TENSOR);
    if (mv && mv->kind != V_NONE && (mv->kind != V_STR || strcmp(mv->u.str.s, "constant")))
        return rt_error(I, "F.pad(mode=%s%s%s) is not in attn: only mode='constant' (type help to see what is)",
                        mv->kind == V_STR ? "'" : "", mv->kind == V_STR ? mv->u.str.s : "?", mv->kind == V_STR ? "'" : "");
    if (!p_[1] || !ints_of(I, p_[1], "pad", pad, &np) || !num_at(I, a, 3, "value", 0, &value)) {
        if (!interp_failed(I)) rt_error(I, "pad() missing required argument 'pad'");
        return NULL;
    }
    Tensor *x = xv->u.t;
    if (np % 2) return rt_error(I, "Padding length must be divisible by 2");
    if (np / 2 > x->ndim) return rt_error(I, "Padding length too large");
    int64_t sh[TEN_MAX_DIMS], lo[TEN_MAX_DIMS] = {0};
    memcpy(sh, x->shape, sizeof sh);
    for (int i = 0; i < np / 2; i++) {
        int d = x->ndim - 1 - i;
        sh[d] += pad[2 * i] + pad[2 * i + 1];
        lo[d] = pad[2 * i];
        if (sh[d] < 0) return rt_error(I, "The input size %lld, plus negative padding %lld and %lld resulted in a negative output size, "
                                          "which is invalid. Check dimension %d of your input.", (long long)x->shape[d],
                                       (long long)pad[2 * i], (long long)pad[2 * i + 1], d);
    }
    Tensor *o = ten_full_in(I->run.ten, x->dtype, x->ndim, sh, value);
    if (!o) return rt_tensor_error(I);
    /* the part of x that survives, and where it goes */
    Tensor *src = ten_alias(x), *dst = ten_alias(o);
    for (int d = 0; d < x->ndim && src && dst; d++) {
        int64_t s0 = lo[d] < 0 ? -lo[d] : 0, o0 = lo[d] > 0 ? lo[d] : 0;
        int64_t len = x->shape[d] - s0;
        if (len > sh[d] - o0) len = sh[d] - o0;
        if (len < 0) len = 0;
        Tensor *ns = ten_narrow(src, d, s0, len), *nd = ten_narrow(dst, d, o0, len);
        ten_free(src); ten_free(dst);
        src = ns; dst = nd;
    }
    int rc = src && dst ? ten_copy_into(dst, src) : -1;
    ten_free(src);
    ten_free(dst);
    if (rc < 0) { ten_free(o); return rt_tensor_error(I); }
    return val_tensor(I->run.heap, o);
}

/* F.normalize(input, p=2.0, dim=1, eps=1e-12): input / max(||input||_p along dim, eps). */
static Value *bi_f_normalize(Interp *I, Args *a) {
    Value *p_[4];                               /* input, p, dim, eps */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *xv = p_[0];
    double p, eps;
    int64_t d;
    if (!xv) return rt_error(I, "normalize(input, p=2.0, dim=1, eps=1e-12) needs a tensor");
    if (xv->kind != V_TENSOR) return arg_not_tensor(I, a, xv, "norm", ARG_RECEIVER);     /* F.normalize calls input.norm(...) */
    if (!num_at(I, a, 1, "p", 2, &p) || !int_at(I, a, 2, "dim", 1, &d) || !num_at(I, a, 3, "eps", 1e-12, &eps)) return NULL;
    if (!dim_fits(I, d, xv->u.t->ndim)) return NULL;
    int dim = (int)d;
    Tensor *n = ten_norm(xv->u.t, p, &dim, 1, true), *e = ten_scalar_d_in(I->run.ten, eps);
    Tensor *c = n ? ten_binary(OP_MAXIMUM, n, false, e, true) : NULL, *r = c ? ten_binary(OP_DIV, xv->u.t, false, c, false) : NULL;
    ten_free(n); ten_free(e); ten_free(c);
    return rt_tensor_result(I, r);
}

/* F.one_hot(tensor, num_classes=-1): int64 (..., C) with a 1 at each value. */
static Value *bi_f_one_hot(Interp *I, Args *a) {
    Value *p_[2];                               /* tensor, num_classes */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *xv = p_[0];
    int64_t c;
    if (!xv) return rt_error(I, "one_hot(tensor, num_classes=-1) needs a tensor");
    if (xv->kind != V_TENSOR) return arg_not_tensor(I, a, xv, "input", ARG_TENSOR);
    if (!int_at(I, a, 1, "num_classes", -1, &c)) return NULL;
    Tensor *x = xv->u.t;
    if (x->dtype != DT_I64) return rt_error(I, "one_hot is only applicable to index tensor.");
    int64_t mx = -1;
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t v = ten_get_i64(x, i);
        if (v < 0) return rt_error(I, "Class values must be non-negative.");
        if (v > mx) mx = v;
    }
    if (c == -1) c = mx + 1;
    if (x->numel && mx >= c) return rt_error(I, "Class values must be smaller than num_classes.");
    if (x->ndim >= TEN_MAX_DIMS) return rt_error(I, "tensors have at most %d dimensions", TEN_MAX_DIMS);
    int64_t sh[TEN_MAX_DIMS];
    memcpy(sh, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    sh[x->ndim] = c;
    Tensor *o = ten_new_in(I->run.ten, DT_I64, x->ndim + 1, sh);
    if (!o) return rt_tensor_error(I);
    for (int64_t i = 0; i < x->numel; i++) ten_i64(o)[i * c + ten_get_i64(x, i)] = 1;
    return val_tensor(I->run.heap, o);
}

/* F.scaled_dot_product_attention recorded, by the formula below through the autograd ops (PyTorch 2's math path:
 * matmul, MulBackward0 by the scale, where for a bool or causal mask, AddBackward0 for a float one, softmax, dropout
 * as x * noise, matmul). The arguments are checked by the caller. A new value or NULL with an error set. */
static Value *sdpa_recorded(Interp *I, Args *a, double scale, double p, bool causal) {
    AgContext *c = &I->run.ag;
    Value *qv = arg(a, 0, "query"), *kv = arg(a, 1, "key"), *vv = arg(a, 2, "value"), *mv = arg(a, 3, "attn_mask");
    bool has_mask = mv && mv->kind == V_TENSOR;
    Tensor *Q = qv->u.t, *K = kv->u.t, *sc = ten_scalar_d_in(I->run.ten, scale), *keep = NULL, *ninf = ten_scalar_d_in(I->run.ten, -INFINITY);
    AgVal fail = {NULL, NULL}, kt = ag_transpose(c, arg_ag(kv), -2, -1), s0 = kt.t ? ag_matmul(c, arg_ag(qv), kt) : fail;
    AgVal S = s0.t && sc ? ag_binary(c, OP_MUL, s0, false, (AgVal){sc, NULL}, true) : fail;
    ag_val_free(kt);
    ag_val_free(s0);
    if (causal) {
        int64_t sh[2] = {Q->shape[Q->ndim - 2], K->shape[K->ndim - 2]};
        Tensor *ones = ten_full_in(I->run.ten, DT_BOOL, 2, sh, 1);
        keep = ones ? ten_tril(ones, 0, false) : NULL;
        ten_free(ones);
    } else if (has_mask && mv->u.t->dtype == DT_BOOL) keep = ten_alias(mv->u.t);
    if (S.t && keep && ninf) {
        AgVal m = ag_where(c, keep, S, false, (AgVal){ninf, NULL}, true);
        ag_val_free(S);
        S = m;
    } else if (S.t && has_mask && mv->u.t->dtype != DT_BOOL) {
        AgVal m = ag_binary(c, OP_ADD, S, false, arg_ag(mv), false);
        ag_val_free(S);
        S = m;
    }
    ten_free(keep); ten_free(ninf); ten_free(sc);
    AgVal W = S.t ? ag_softmax(c, S, -1) : fail;
    ag_val_free(S);
    if (W.t && p > 0) {
        Tensor *noise = ten_new_in(I->run.ten, W.t->dtype, W.t->ndim, W.t->shape);
        double k = p >= 1 ? 0 : 1 / (1 - p);
        for (int64_t i = 0; noise && i < noise->numel; i++) ten_set(noise, i, rng_uniform(&I->run.rng) < p ? 0 : k);
        AgVal d = noise ? ag_dropout(c, W, noise) : fail;
        ten_free(noise);
        ag_val_free(W);
        W = d;
    }
    AgVal out = W.t ? ag_matmul(c, W, arg_ag(vv)) : fail;
    ag_val_free(W);
    return ret_ag(I, out);
}

/* F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
 * softmax(Q Kᵀ * scale + bias) V with scale 1/sqrt(d); a bool mask keeps where True (-inf elsewhere), a float mask
 * is added; is_causal keeps j <= i. query (..., L, d), key (..., S, d), value (..., S, v) -> (..., L, v). */
static Value *bi_f_sdpa(Interp *I, Args *a) {
    Value *p_[7];                               /* query, key, value, attn_mask, dropout_p, is_causal, scale */
    if (!args_bind(I, a, p_, 7)) return NULL;
    Value *qv = p_[0], *kv = p_[1], *vv = p_[2], *mv = p_[3];
    double p, scale;
    bool causal;
    if (!qv || !kv || !vv || qv->kind != V_TENSOR || kv->kind != V_TENSOR || vv->kind != V_TENSOR)
        return rt_error(I, "scaled_dot_product_attention(query, key, value, ...) needs three tensors");
    if (!num_at(I, a, 4, "dropout_p", 0, &p) || !bool_at(I, a, 5, "is_causal", false, &causal)) return NULL;
    Tensor *Q = qv->u.t, *K = kv->u.t, *V = vv->u.t;
    if (Q->ndim < 2 || K->ndim < 2 || V->ndim < 2) return rt_error(I, "scaled_dot_product_attention: query, key and value need at least 2 dims");
    if (!num_at(I, a, -1, "scale", 1 / sqrt((double)Q->shape[Q->ndim - 1]), &scale)) return NULL;
    bool has_mask = mv && mv->kind != V_NONE;
    if (has_mask && mv->kind != V_TENSOR) return rt_error(I, "scaled_dot_product_attention: attn_mask must be a tensor");
    if (has_mask && causal) return rt_error(I, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
    if (grad_recording(I, 4, (Value *[]){qv, kv, vv, has_mask ? mv : NULL})) return sdpa_recorded(I, a, scale, p, causal);
    Tensor *kt = ten_transpose(K, -2, -1), *s0 = kt ? ten_matmul(Q, kt) : NULL, *sc = ten_scalar_d_in(I->run.ten, scale);
    Tensor *S = s0 ? ten_binary(OP_MUL, s0, false, sc, true) : NULL;
    ten_free(kt); ten_free(s0); ten_free(sc);
    int64_t L = Q->shape[Q->ndim - 2], Sn = K->shape[K->ndim - 2];
    Tensor *keep = NULL, *bias = NULL;
    if (causal) {
        int64_t sh[2] = {L, Sn};
        Tensor *ones = ten_full_in(I->run.ten, DT_BOOL, 2, sh, 1);
        keep = ones ? ten_tril(ones, 0, false) : NULL;
        ten_free(ones);
    } else if (has_mask && mv->u.t->dtype == DT_BOOL) keep = ten_alias(mv->u.t);
    else if (has_mask) bias = ten_alias(mv->u.t);
    if (S && keep) {
        Tensor *ninf = ten_scalar_d_in(I->run.ten, -INFINITY), *m = ten_where(keep, S, false, ninf, true);
        ten_free(ninf); ten_free(S);
        S = m;
    }
    if (S && bias) { Tensor *m = ten_binary(OP_ADD, S, false, bias, false); ten_free(S); S = m; }
    ten_free(keep); ten_free(bias);
    Tensor *W = S ? ten_softmax(S, -1) : NULL;
    ten_free(S);
    if (W && p > 0) {
        Rng *g = &I->run.rng;
        double k = p >= 1 ? 0 : 1 / (1 - p);
        for (int64_t i = 0; i < W->numel; i++) ten_set(W, i, rng_uniform(g) < p ? 0 : ten_get(W, i) * k);
    }
    Tensor *out = W ? ten_matmul(W, V) : NULL;
    ten_free(W);
    return rt_tensor_result(I, out);
}

#define MAPF(name, module, sig, help, tag) {name, bi_map, sig, help, "", tag, module}
const Builtin bi_torch_functional[] = {
    MAPF("log1p", "torch", "torch.log1p(input)", "log(1 + x), accurate for small x.", 0),
    MAPF("expm1", "torch", "torch.expm1(input)", "exp(x) - 1, accurate for small x.", 1),
    MAPF("exp2", "torch", "torch.exp2(input)", "2 ** x.", 2),
    MAPF("erf", "torch", "torch.erf(input)", "The error function.", 3),
    MAPF("erfc", "torch", "torch.erfc(input)", "1 - erf(x).", 4),
    MAPF("sinh", "torch", "torch.sinh(input)", "Hyperbolic sine.", 5),
    MAPF("cosh", "torch", "torch.cosh(input)", "Hyperbolic cosine.", 6),
    MAPF("asinh", "torch", "torch.asinh(input)", "Inverse hyperbolic sine.", 7),
    MAPF("acosh", "torch", "torch.acosh(input)", "Inverse hyperbolic cosine.", 8),
    MAPF("atanh", "torch", "torch.atanh(input)", "Inverse hyperbolic tangent.", 9),
    MAPF("reciprocal", "torch", "torch.reciprocal(input)", "1 / x.", 10),
    MAPF("trunc", "torch", "torch.trunc(input)", "Rounds toward zero.", 11),
    MAPF("frac", "torch", "torch.frac(input)", "x - trunc(x).", 12),
    MAPF("silu", "F", "F.silu(input, inplace=False)", "x * sigmoid(x).", 13),
    {"softplus", bi_f_softplus, "F.softplus(input, beta=1, threshold=20)",
     "log(1 + exp(beta*x)) / beta, a smooth ReLU (x itself where beta*x > threshold).", "", 0, "F"},
    MAPF("mish", "F", "F.mish(input, inplace=False)", "x * tanh(softplus(x)).", 15),
    {"hardtanh", bi_f_hardtanh, "F.hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False)",
     "x clipped to [min_val, max_val]; inplace=True writes it into input.", "", 0, "F"},
    MAPF("logsigmoid", "F", "F.logsigmoid(input)", "log(sigmoid(x)).", 17),
    MAPF("gelu", "F", "F.gelu(input, *, approximate='none')", "x * Φ(x), the Gaussian error linear unit ('tanh': its tanh approximation).", 18),
    {"relu", bi_f_relu, "F.relu(input, inplace=False)", "max(x, 0) elementwise; inplace=True writes it into input.", "", 0, "F"},
    {"dropout", bi_f_dropout, "F.dropout(input, p=0.5, training=True, inplace=False)",
     "Zeroes each element with probability p and scales the rest by 1/(1-p); training=False returns input.", "§5.6", 0, "F"},
    {"linear", bi_f_linear, "F.linear(input, weight, bias=None)", "input @ weight.T + bias, what nn.Linear computes.", "", 0, "F"},
    {"pad", bi_f_pad, "F.pad(input, pad, mode='constant', value=0)",
     "Pads the last dims: pad=(left, right) for the last, then (top, bottom) for the one before; negative crops.", "", 0, "F"},
    {"normalize", bi_f_normalize, "F.normalize(input, p=2.0, dim=1, eps=1e-12)", "Divides by the p-norm along dim (at least eps).", "", 0, "F"},
    {"one_hot", bi_f_one_hot, "F.one_hot(tensor, num_classes=-1)", "Class indices to one-hot rows of length num_classes.", "", 0, "F"},
    {"scaled_dot_product_attention", bi_f_sdpa,
     "F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None)",
     "softmax(Q Kᵀ / sqrt(d) + mask) V in one call, PyTorch 2's fused attention: a bool attn_mask keeps where True, a "
     "float one is added; is_causal lets position i see only j <= i. The book's DotProductAttention (§11.3).", "", 0, "F"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* ag_nn.c - differentiable network functions: layer_norm, embedding, nll_loss / cross_entropy, mse_loss, dropout. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ag_internal.h"

/* ---- layer_norm ---- */

/* PyTorch's layer_norm_backward with xhat = (x - mean) * rstd over the last k (= dims[0]) dims, N their size:
 *   dx = rstd / N * (N * gxhat - sum(gxhat) - xhat * sum(gxhat * xhat)),  gxhat = g * w (or g)
 *   dw = sum over the other dims of g * xhat,  db = sum over the other dims of g.
 * saved: 0 x, 1 w (when given: op 1), 2 mean, 3 rstd (x's shape with the last k dims 1). */
static int layer_norm_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *x = ag_saved(n, 0), *mean = x ? ag_saved(n, 2) : NULL, *rstd = mean ? ag_saved(n, 3) : NULL;
    const Tensor *w = n->op && rstd ? ag_saved(n, 1) : NULL;
    if (!rstd || (n->op && !w)) return -1;
    int k = n->dims[0], nd = x->ndim, dims[TEN_MAX_DIMS];
    for (int i = 0; i < k; i++) dims[i] = nd - k + i;
    if (k == 1 && (ag_needs(n, 0) || ag_needs(n, 1))) {      /* one pass over the rows, the same bits (tensor.h) */
        Tensor *dx = NULL, *gxhat = NULL;
        int r = ten_layer_norm_backward(x, g, w, mean, rstd, &dx, ag_needs(n, 1) ? &gxhat : NULL);
        if (r < 0) return -1;
        if (r == 0) {
            if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, dx);
            else ten_free(dx);
            if (ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, gxhat);
            if (ag_needs(n, 2)) gin[2] = ag_to_input(n, 2, ten_alias(g));
            return ag_done(n, gin);
        }
    }
    double N = 1;
    for (int i = nd - k; i < nd; i++) N *= (double)x->shape[i];
    Tensor *xm = ag_bin(OP_SUB, x, false, mean, false), *xhat = ag_bin(OP_MUL, xm, false, rstd, false);
    ten_free(xm);
    if (ag_needs(n, 0)) {
        Tensor *gx = w ? ag_bin(OP_MUL, g, false, w, false) : ten_alias(g);
        Tensor *s1 = gx ? ag_sum_keep(gx, dims, k) : NULL;
        Tensor *gxx = ag_bin(OP_MUL, gx, false, xhat, false), *s2 = gxx ? ag_sum_keep(gxx, dims, k) : NULL;
        Tensor *a = ag_bin_s(OP_MUL, gx, N), *b = ag_bin(OP_SUB, a, false, s1, false);
        Tensor *cc = ag_bin(OP_MUL, xhat, false, s2, false), *d = ag_bin(OP_SUB, b, false, cc, false);
        Tensor *r = ag_bin_s(OP_DIV, rstd, N), *dx = ag_bin(OP_MUL, r, false, d, false);
        ag_drop(NULL, gx, s1, gxx);
        ag_drop(NULL, s2, a, b);
        ag_drop(NULL, cc, d, r);
        gin[0] = ag_to_input(n, 0, dx);
    }
    if (ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, ag_bin(OP_MUL, g, false, xhat, false));
    if (ag_needs(n, 2)) gin[2] = ag_to_input(n, 2, ten_alias(g));
    ten_free(xhat);
    return ag_done(n, gin);
}

AgVal ag_layer_norm(AgContext *c, AgVal x, int k, AgVal w, AgVal b, double eps) {
    if (k < 1 || k > x.t->ndim) {
        ten_fail_in(c->ten, "layer_norm: normalized_shape of %d dims for an input of %d", k, x.t->ndim);
        return AG_FAILED;
    }
    const Tensor *wb[2] = {w.t, b.t};
    for (int t = 0; t < 2; t++)
        if (wb[t] && (wb[t]->ndim != k || memcmp(wb[t]->shape, x.t->shape + x.t->ndim - k, sizeof(int64_t) * (size_t)k) ||
                      wb[t]->dtype != x.t->dtype)) {
            ten_fail_in(c->ten, "layer_norm: the %s must have the shape and dtype of the normalized dims", t ? "bias" : "weight");
            return AG_FAILED;
        }
    Tensor *mean = NULL, *rstd = NULL;
    Tensor *out = ten_layer_norm(x.t, k, w.t, b.t, eps, &mean, &rstd);
    if (!out) return AG_FAILED;
    AgVal in[3] = {x, w, b};
    AgNode *n = ag_record(c, "NativeLayerNormBackward0", layer_norm_bw, 3, in);
    if (n) {
        n->dims[0] = k;
        n->op = w.t != NULL;
        ag_node_save(n, 0, x.t, x.m, false);
        if (w.t) ag_node_save(n, 1, w.t, w.m, false);
        ag_node_save(n, 2, mean, NULL, false);
        ag_node_save(n, 3, rstd, NULL, false);
    }
    ten_free(mean);
    ten_free(rstd);
    return ag_result(out, n);
}

/* ---- linear ---- */

/* addmm(b, m1, m2) = b + m1 @ m2 (op 1; edges b, m1, m2) or mm(m1, m2) (op 0; edges m1, m2):
 * db = g summed to b's shape, dm1 = g @ m2^T, dm2 = m1^T @ g (as (gᵀ @ m1)ᵀ when dims[0] is 1). saved 0 m1 (when m2 needs a grad), 1 m2 (when m1 does). */
static int addmm_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    int o = n->op;
    const Tensor *m1 = ag_needs(n, o + 1) ? ag_saved(n, 0) : NULL, *m2 = ag_needs(n, o) ? ag_saved(n, 1) : NULL;
    if ((ag_needs(n, o + 1) && !m1) || (ag_needs(n, o) && !m2)) return -1;
    if (o && ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, ten_alias(g));
    if (ag_needs(n, o)) {
        Tensor *t = ten_transpose(m2, 0, 1);
        gin[o] = t ? ten_matmul(g, t) : NULL;
        ten_free(t);
    }
    if (ag_needs(n, o + 1)) gin[o + 1] = ag_mm_mat2_grad(m1, g, n->dims[0] == 1);
    return ag_done(n, gin);
}

/* x2 (rows, in) @ wt (in, out) (+ b), computed as ten_linear(x2, W, b) computes it; wt is W.t(). */
static AgVal linear_core(AgContext *c, AgVal x2, AgVal wt, const Tensor *W, AgVal b) {
    Tensor *out = ten_linear(x2.t, W, b.t);
    if (!out) return AG_FAILED;
    AgVal in[3] = {b, x2, wt};
    AgNode *n = b.t ? ag_record(c, "AddmmBackward0", addmm_bw, 3, in) : ag_record(c, "MmBackward0", addmm_bw, 2, in + 1);
    if (n) {
        n->op = b.t != NULL;
        n->dims[0] = ag_mm_colmajor(wt.t);     /* m2's layout, for its grad (ag_mm_mat2_grad) */
        if (ag_needs(n, n->op + 1)) ag_node_save(n, 0, x2.t, x2.m, false);
        if (ag_needs(n, n->op)) ag_node_save(n, 1, wt.t, wt.m, false);
    }
    return ag_result(out, n);
}

AgVal ag_linear(AgContext *c, AgVal x, AgVal W, AgVal b) {
    int nd = x.t->ndim;
    if (nd < 1 || W.t->ndim != 2 || x.t->shape[nd - 1] != W.t->shape[1]) {
        ten_fail_in(c->ten, "linear: x (..., in) and W (out, in) are needed");
        return AG_FAILED;
    }
    int64_t in = W.t->shape[1], out = W.t->shape[0], rows = 1, osh[TEN_MAX_DIMS];
    for (int d = 0; d < nd - 1; d++) rows *= x.t->shape[d];
    memcpy(osh, x.t->shape, sizeof(int64_t) * (size_t)nd);
    osh[nd - 1] = out;
    AgVal none = {NULL, NULL}, wt = ag_t(c, W), r = AG_FAILED;
    if (!wt.t) return AG_FAILED;
    if (nd == 2) r = linear_core(c, x, wt, W.t, b);
    else if (nd == 1) {                 /* matmul of a vector: (1, in) @ W.t(), squeezed, then the bias added */
        AgVal xu = ag_unsqueeze(c, x, 0), p = xu.t ? linear_core(c, xu, wt, W.t, none) : AG_FAILED;
        AgVal sq = p.t ? ag_shape_op(c, p, ten_squeeze(p.t, 0, false), "SqueezeBackward3") : AG_FAILED;
        r = sq.t && b.t ? ag_binary(c, OP_ADD, sq, false, b, false) : sq.t ? (AgVal){ten_alias(sq.t), ag_meta_ref(sq.m)}
                                                                       : AG_FAILED;
        ag_val_free(xu);
        ag_val_free(p);
        ag_val_free(sq);
    } else {                            /* folded to (rows, in): addmm and a view back, or mm and an unsafe view */
        int64_t f[2] = {rows, in};
        AgVal x2 = b.t && x.t->contiguous ? ag_view(c, x, 2, f) : ag_reshape(c, x, 2, f);
        AgVal p = x2.t ? linear_core(c, x2, wt, W.t, b) : AG_FAILED;
        r = !p.t ? AG_FAILED : b.t ? ag_view(c, p, nd, osh) : ag_unsafe_view(c, p, nd, osh);
        ag_val_free(x2);
        ag_val_free(p);
    }
    ag_val_free(wt);
    return r;
}

/* ---- embedding ---- */

/* The grad of the (V, D) weight: g's rows (idx.numel of them, D each) added in order into the rows idx names, the
 * row padding_idx (dims[0], -1 none) left zero. saved[0] = the indices. */
static int embedding_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *idx = ag_saved(n, 0);
    if (!idx) return -1;
    int64_t V = n->in_shape[0][0], D = n->in_shape[0][1], pad = n->dims[0];
    Tensor *gw = ten_new_in(ten_ctx_of(g), g->dtype, 2, n->in_shape[0]), *gt = NULL, *it = NULL;
    const Tensor *gc = gw ? ten_as_contiguous(g, &gt) : NULL, *ic = gc ? ten_as_contiguous(idx, &it) : NULL;
    if (ic) {
        for (int64_t i = 0; i < idx->numel; i++) {
            int64_t r = ten_i64(ic)[i];
            if (r == pad || r < 0 || r >= V) continue;
            if (g->dtype == DT_F32)
                for (int64_t j = 0; j < D; j++) ten_f32(gw)[r * D + j] += ten_f32(gc)[i * D + j];
            else
                for (int64_t j = 0; j < D; j++) ten_f64(gw)[r * D + j] += ten_f64(gc)[i * D + j];
        }
    } else {
        ten_free(gw);
        gw = NULL;
    }
    ten_free(gt);
    ten_free(it);
    gin[0] = ag_to_input(n, 0, gw);
    return ag_done(n, gin);
}

AgVal ag_embedding(AgContext *c, AgVal weight, const Tensor *idx, int64_t padding_idx) {
    if (weight.t->ndim != 2 || !ten_is_float(weight.t->dtype)) {
        ten_fail_in(ten_ctx_of(idx), "'weight' must be 2-D float");
        return AG_FAILED;
    }
    if (idx->dtype != DT_I64) {
        ten_fail_in(ten_ctx_of(idx), "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                 "but got %s instead (while checking arguments for embedding)", ten_dtype_name(idx->dtype));
        return AG_FAILED;
    }
    if (idx->ndim + 1 > TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(idx), "embedding: too many index dims"); return AG_FAILED; }
    int64_t V = weight.t->shape[0];
    if (padding_idx != AG_NO_PADDING && (padding_idx < -V || padding_idx >= V)) {
        ten_fail_in(ten_ctx_of(idx), "Padding_idx must be within num_embeddings");
        return AG_FAILED;
    }
    if (padding_idx != AG_NO_PADDING && padding_idx < 0) padding_idx += V;
    int64_t flat = idx->numel, sh[TEN_MAX_DIMS];
    Tensor *fi = ten_reshape(idx, 1, &flat);
    Tensor *rows = fi ? ten_index_select(weight.t, 0, fi) : NULL;
    ten_free(fi);
    memcpy(sh, idx->shape, sizeof(int64_t) * (size_t)idx->ndim);
    sh[idx->ndim] = weight.t->shape[1];
    Tensor *out = rows ? ten_reshape(rows, idx->ndim + 1, sh) : NULL;
    ten_free(rows);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "EmbeddingBackward0", embedding_bw, 1, &weight);
    if (n) {
        n->dims[0] = padding_idx == AG_NO_PADDING ? -1 : (int)padding_idx;
        ag_node_save(n, 0, idx, NULL, false);
    }
    return ag_result(out, n);
}

/* ---- nll_loss and cross_entropy ---- */

/* Rows and the elements per class of logp: (C,) 1 and 1, (N, C) N and 1, (N, C, H, W) N and H * W. */
static void nll_layout(int ndim, const int64_t *shape, int64_t *rows, int64_t *C, int64_t *R) {
    *rows = ndim == 1 ? 1 : shape[0];
    *C = shape[ndim == 1 ? 0 : 1];
    *R = ndim == 4 ? shape[2] * shape[3] : 1;
}

/* d loss / d logp[n, t, r] = -g[n, r] (none) or -g / total_weight (mean) or -g (sum); 0 elsewhere and where the
 * target is ignore_index. saved[0] = target; sizes[0] = ignore_index, op = reduction, scalar = total weight. */
static int nll_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *target = ag_saved(n, 0);
    if (!target) return -1;
    int64_t rows, C, R;
    nll_layout(n->in_ndim[0], n->in_shape[0], &rows, &C, &R);
    Tensor *gl = ten_new_in(ten_ctx_of(g), n->in_dtype[0], n->in_ndim[0], n->in_shape[0]);
    for (int64_t i = 0; gl && i < rows; i++)
        for (int64_t r = 0; r < R; r++) {
            int64_t t = ten_get_i64(target, i * R + r);
            if (t == n->sizes[0]) continue;
            double gi = n->op == AG_REDUCE_NONE ? ten_get(g, i * R + r) : ten_get(g, 0);
            ten_set(gl, (i * C + t) * R + r, n->op == AG_REDUCE_MEAN ? -gi / n->scalar : -gi);
        }
    gin[0] = gl;
    return ag_done(n, gin);
}

AgVal ag_nll_loss(AgContext *c, AgVal logp, const Tensor *target, int64_t ignore_index, AgReduction reduction) {
    int nd = logp.t->ndim;
    if (nd < 1 || nd == 3 || nd > 4 || !ten_is_float(logp.t->dtype)) {
        ten_fail_in(ten_ctx_of(target), "nll_loss: autograd takes an input of shape (C,), (N, C) or (N, C, H, W) (got %d dims)", nd);
        return AG_FAILED;
    }
    if (target->dtype != DT_I64) {
        ten_fail_in(ten_ctx_of(target), "expected scalar type Long but found %s", ten_dtype_word(target->dtype));
        return AG_FAILED;
    }
    int64_t rows, C, R;
    nll_layout(nd, logp.t->shape, &rows, &C, &R);
    bool fits = target->ndim == (nd == 1 ? 0 : nd - 1) && (nd == 1 || target->shape[0] == rows);
    for (int d = 2; fits && d < nd; d++) fits = target->shape[d - 1] == logp.t->shape[d];
    if (!fits) {
        ten_fail_in(ten_ctx_of(target), nd == 1 ? "0D or 1D target tensor expected, multi-target not supported"
                         : "Expected input batch_size (%lld) to match target batch_size (%lld).",
                 (long long)rows, (long long)(target->ndim ? target->shape[0] : 1));
        return AG_FAILED;
    }
    double total = 0, sum = 0;
    Tensor *none = reduction == AG_REDUCE_NONE ? ten_new_in(ten_ctx_of(target), logp.t->dtype, target->ndim, target->shape) : NULL;
    if (reduction == AG_REDUCE_NONE && !none) return AG_FAILED;
    for (int64_t i = 0; i < rows; i++)
        for (int64_t r = 0; r < R; r++) {
            int64_t t = ten_get_i64(target, i * R + r);
            if (t == ignore_index) continue;
            if (t < 0 || t >= C) {
                ten_free(none);
                ten_fail_in(ten_ctx_of(target), "Target %lld is out of bounds.", (long long)t);
                return AG_FAILED;
            }
            double v = -ten_get(logp.t, (i * C + t) * R + r);
            if (none) ten_set(none, i * R + r, v);
            sum += v;
            total += 1;
        }
    Tensor *out = none;
    if (!none) {
        out = ten_new_in(ten_ctx_of(target), logp.t->dtype, 0, NULL);
        if (!out) return AG_FAILED;
        ten_set(out, 0, reduction == AG_REDUCE_MEAN ? sum / total : sum);   /* all ignored: 0/0, NaN as PyTorch */
    }
    AgNode *n = ag_record(c, nd == 4 ? "NllLoss2DBackward0" : "NllLossBackward0", nll_bw, 1, &logp);
    if (n) {
        n->sizes = malloc(sizeof(int64_t));
        if (!n->sizes) {
            ten_fail_in(ten_ctx_of(target), "out of memory");
            ten_free(out);
            return ag_result(NULL, n);
        }
        n->sizes[0] = ignore_index;
        n->op = reduction;
        n->scalar = total;
        ag_node_save(n, 0, target, NULL, false);
    }
    return ag_result(out, n);
}

AgVal ag_cross_entropy(AgContext *c, AgVal x, const Tensor *target, int64_t ignore_index, AgReduction reduction) {
    int nd = x.t->ndim;
    if (nd < 1 || nd > 4) {
        ten_fail_in(ten_ctx_of(target), "cross_entropy: autograd takes an input of 1 to 4 dims (got %d)", nd);
        return AG_FAILED;
    }
    AgVal lp = ag_log_softmax(c, x, nd == 1 ? 0 : 1);
    if (!lp.t) return AG_FAILED;
    if (nd != 3) {
        AgVal r = ag_nll_loss(c, lp, target, ignore_index, reduction);
        ag_val_free(lp);
        return r;
    }
    /* (N, C, d): PyTorch views it as (N, C, d, 1) for nll_loss2d, and a 'none' result back to (N, d) */
    int64_t sh4[4] = {x.t->shape[0], x.t->shape[1], x.t->shape[2], 1}, tsh[3] = {target->ndim ? target->shape[0] : 0,
                                                                                  target->ndim > 1 ? target->shape[1] : 0, 1};
    if (target->ndim != 2) {
        ag_val_free(lp);
        ten_fail_in(ten_ctx_of(target), "Expected target size [%lld, %lld], got a target of %d dims", (long long)sh4[0], (long long)sh4[2],
                 target->ndim);
        return AG_FAILED;
    }
    AgVal lp4 = ag_view(c, lp, 4, sh4);
    Tensor *t3 = ten_reshape(target, 3, tsh);
    AgVal r = lp4.t && t3 ? ag_nll_loss(c, lp4, t3, ignore_index, reduction) : AG_FAILED;
    ten_free(t3);
    ag_val_free(lp4);
    ag_val_free(lp);
    if (r.t && reduction == AG_REDUCE_NONE) {
        AgVal v = ag_view(c, r, 2, target->shape);
        ag_val_free(r);
        r = v;
    }
    return r;
}

/* ---- mse_loss ---- */

/* d/dx = norm * (x - y) * g with norm 2 / numel (mean) or 2; d/dy the negative. saved 0 x, 1 y; op = reduction. */
static int mse_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *x = ag_saved(n, 0), *y = ag_saved(n, 1);
    if (!x || !y) return -1;
    Tensor *d = ag_bin(OP_SUB, x, false, y, false);
    double norm = n->op == AG_REDUCE_MEAN ? 2.0 / n->scalar : 2.0;
    Tensor *dn = ag_s_bin(OP_MUL, norm, d), *gx = ag_bin(OP_MUL, dn, false, g, false);
    ag_drop(NULL, d, dn, NULL);
    if (ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, gx ? ten_unary(UOP_NEG, gx) : NULL);
    if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, gx ? ten_alias(gx) : NULL);
    ten_free(gx);
    return ag_done(n, gin);
}

AgVal ag_mse_loss(AgContext *c, AgVal x, AgVal y, AgReduction reduction) {
    Tensor *d = ten_binary(OP_SUB, x.t, false, y.t, false);
    Tensor *sq = d ? ten_binary(OP_MUL, d, false, d, false) : NULL;
    ten_free(d);
    if (!sq) return AG_FAILED;
    double numel = (double)sq->numel;
    Tensor *out = sq;
    if (reduction != AG_REDUCE_NONE) {
        out = ten_reduce(reduction == AG_REDUCE_MEAN ? RED_MEAN : RED_SUM, sq, true, 0, false);
        ten_free(sq);
        if (!out) return AG_FAILED;
    }
    AgVal in[2] = {x, y};
    AgNode *n = ag_record(c, "MseLossBackward0", mse_bw, 2, in);
    if (n) {
        n->op = reduction;
        n->scalar = numel;
        ag_node_save(n, 0, x.t, x.m, false);
        ag_node_save(n, 1, y.t, y.m, false);
    }
    return ag_result(out, n);
}

AgVal ag_dropout(AgContext *c, AgVal x, const Tensor *noise) {
    AgVal nv = {(Tensor *)noise, NULL};
    return ag_binary(c, OP_MUL, x, false, nv, false);
}

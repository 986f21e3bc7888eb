/* nn_multihead.c - nn.MultiheadAttention, PyTorch's multi-head attention (§11.5) with the three input projections
 * packed in in_proj_weight and the output projection out_proj: its forward, recorded for autograd when grad mode is
 * on, and its constructor. Reprs, parameter names, initialisation and messages are PyTorch 1.13's. */
#include "nn_layers_internal.h"
#include "interp.h"
#include <math.h>
#include <stdlib.h>

/* ---- MultiheadAttention: PyTorch's multi-head attention (§11.5) with packed projections ---- */

/* A float32 copy of t laid out (N, L, E): t is (L, N, E), (N, L, E) when batch_first, or (L, E) unbatched (N = 1). */
static float *nle_copy(const Tensor *t, bool batched, bool batch_first, int64_t N, int64_t L, int64_t E) {
    float *o = xcalloc((size_t)(N * L * E) + 1, sizeof *o);
    for (int64_t n = 0; n < N; n++)
        for (int64_t l = 0; l < L; l++)
            for (int64_t e = 0; e < E; e++) {
                int64_t src = !batched ? l * E + e : batch_first ? (n * L + l) * E + e : (l * N + n) * E + e;
                o[(n * L + l) * E + e] = (float)ten_get(t, src);
            }
    return o;
}

/* x (rows, E) @ W[part]ᵀ + b[part] for part 0 (q), 1 (k) or 2 (v) of in_proj_weight (3E, E) and in_proj_bias, on
 * c's threads. */
static float *in_project(TenCtx *c, const float *x, int64_t rows, int64_t E, const float *W, const float *b, int part) {
    float *y = xcalloc((size_t)(rows * E) + 1, sizeof *y);
    ten_sgemm(c, x, W + part * E * E, y, rows, E, E, true);
    if (b) for (int64_t r = 0; r < rows; r++) for (int64_t e = 0; e < E; e++) y[r * E + e] += b[part * E + e];
    return y;
}

/* What a mask adds to a score: a bool mask -inf where True (not attended), a float mask its value. */
static float mask_term(const Tensor *m, int64_t i) {
    if (m->dtype == DT_BOOL) return ten_get(m, i) != 0 ? -INFINITY : 0.0f;
    return (float)ten_get(m, i);
}

static bool shape_is(const Tensor *t, int nd, int64_t a, int64_t b, int64_t c) {
    int64_t want[3] = {a, b, c};
    if (t->ndim != nd) return false;
    for (int i = 0; i < nd; i++) if (t->shape[i] != want[i]) return false;
    return true;
}

static void shape_text(const Tensor *t, char *out, size_t n) {
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, "torch.Size([");
    for (int i = 0; i < t->ndim; i++) sb_printf(&sb, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    sb_puts(&sb, "])");
    snprintf(out, n, "%s", sb_str(&sb));
    sb_free(&sb);
}

/* ---- MultiheadAttention recorded (grad mode on, an input or a weight requires grad) ---- */

/* An AgVal step of a chain: *cur replaced by next (cur's handles freed); false, and *cur failed, when next failed. */
static bool ag_step(AgVal *cur, AgVal next) {
    ag_val_free(*cur);
    *cur = next;
    return next.t != NULL;
}

/* The additive mask of the scores, (N*H, L, S) float32: attn_mask ((L, S) or (N*H, L, S)) and key_padding_mask
 * ((N, S), or (S,) unbatched), True (bool) as -inf, a float added; as mha_layer_call's kernel reads them. */
static Tensor *mha_mask(TenCtx *c, const Tensor *am, const Tensor *kpm, int64_t N, int64_t H, int64_t L, int64_t S) {
    Tensor *m = ten_new_in(c, DT_F32, 3, (int64_t[]){N * H, L, S});
    for (int64_t n = 0; m && n < N; n++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t l = 0; l < L; l++)
                for (int64_t t = 0; t < S; t++) {
                    float v = 0;
                    if (am) v = mask_term(am, am->ndim == 2 ? l * S + t : ((n * H + h) * L + l) * S + t);
                    if (kpm) v = v + mask_term(kpm, n * S + t);
                    ten_f32(m)[((n * H + h) * L + l) * S + t] = v;
                }
    return m;
}

/* One projection of the packed in_proj, as PyTorch 1.13's _in_projection_packed computes it: x (L, N, E) times
 * rows [i E, (i + 1) E) of W (3E, E) plus that part of b. Then the heads: .contiguous().view(len, N * H, hd)
 * .transpose(0, 1) -> (N * H, len, hd). */
static AgVal mha_in_proj(AgContext *c, AgVal x, AgVal W, AgVal b, int i, int64_t E, int64_t N, int64_t H) {
    AgVal w = ag_narrow(c, W, 0, i * E, E), bb = {NULL, NULL}, r = {NULL, NULL};
    if (w.t && b.t) bb = ag_narrow(c, b, 0, i * E, E);
    if (w.t && (!b.t || bb.t)) r = ag_linear(c, x, w, bb);
    ag_val_free(w);
    ag_val_free(bb);
    int64_t sh[3] = {x.t->shape[0], N * H, E / H};
    if (r.t && ag_step(&r, ag_reshape(c, r, 3, sh))) ag_step(&r, ag_transpose(c, r, 0, 1));
    return r;
}

/* forward(query, key, value, ...) recorded, as F.multi_head_attention_forward in PyTorch 1.13 computes it: the
 * inputs to (len, N, E), the packed projections, q / sqrt(hd), bmm with k's transpose plus the mask (baddbmm),
 * softmax, dropout in training, bmm with v, back to (L * N, E), out_proj (the module, called), view (L, N, E) and
 * the batch_first transpose; the weights (post dropout) viewed (N, H, L, S) and averaged over the heads. The
 * arguments are checked by the caller (shapes, dtypes). A tuple (output, weights or None), or NULL with an error. */
static Value *mha_layer_recorded(Interp *I, Value *self, Value *const *qkv, const Tensor *am, const Tensor *kpm, bool batched, bool bf,
                                 int64_t N, int64_t H, double p, bool drop, bool need, bool average) {
    AgContext *c = &I->run.ag;
    Value *Wv = val_attr_get(self, "in_proj_weight"), *Bv = val_attr_get(self, "in_proj_bias");
    AgVal W = arg_ag(Wv), B = Bv && Bv->kind == V_TENSOR ? arg_ag(Bv) : (AgVal){NULL, NULL};
    int64_t E = W.t->shape[1], hd = E / H, L = 0, S = 0;
    AgVal x[3] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}}, h[3] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}}, sc = {NULL, NULL}, o = {NULL, NULL};
    Tensor *mask = NULL, *sd = ten_scalar_d_in(I->run.ten, sqrt((double)hd));
    Value *r = NULL, *ov = NULL, *y = NULL;
    for (int i = 0; i < 3; i++) {
        AgVal in = arg_ag(qkv[i]);
        x[i] = !batched ? ag_unsqueeze(c, in, 1) : bf ? ag_transpose(c, in, 1, 0) : (AgVal){ten_alias(in.t), in.m ? ag_meta_ref(in.m) : NULL};
        if (!x[i].t || !(h[i] = mha_in_proj(c, x[i], W, B, i, E, N, H)).t) goto out;
    }
    L = x[0].t->shape[0];
    S = x[1].t->shape[0];
    /* (N*H, L, hd) / sqrt(hd) @ (N*H, hd, S) (+ mask) -> softmax -> dropout -> @ (N*H, S, hd) */
    if (!sd || !ag_step(&h[0], ag_binary(c, OP_DIV, h[0], false, (AgVal){sd, NULL}, true))) goto out;
    sc = ag_transpose(c, h[1], -2, -1);
    if (!sc.t || !ag_step(&sc, ag_bmm(c, h[0], sc))) goto out;
    if ((am || kpm) && (!(mask = mha_mask(I->run.ten, am, kpm, N, H, L, S)) || !ag_step(&sc, ag_binary(c, OP_ADD, (AgVal){mask, NULL}, false, sc, false)))) goto out;
    if (!ag_step(&sc, ag_softmax(c, sc, -1))) goto out;
    if (drop) {
        Tensor *noise = ten_new_in(I->run.ten, DT_F32, 3, sc.t->shape);
        float keep = p >= 1 ? 0.0f : (float)(1.0 / (1.0 - p));
        for (int64_t i = 0; noise && i < noise->numel; i++) ten_f32(noise)[i] = rng_uniform(&I->run.rng) < p ? 0.0f : keep;
        bool ok = noise && ag_step(&sc, ag_dropout(c, sc, noise));
        ten_free(noise);
        if (!ok) goto out;
    }
    o = ag_bmm(c, sc, h[2]);
    if (!o.t || !ag_step(&o, ag_transpose(c, o, 0, 1)) || !ag_step(&o, ag_reshape(c, o, 2, (int64_t[]){L * N, E}))) goto out;
    /* out_proj, the module (a student's Linear of another width gives that many columns, as PyTorch) */
    Value *op = val_incref(val_attr_get(self, "out_proj"));
    ov = ret_ag(I, o);
    o = (AgVal){NULL, NULL};
    if (ov) {
        Args a = {&ov, 1, NULL, NULL, 0, NULL, NULL};
        y = interp_call(I, op, &a);
    }
    val_decref(op);
    if (!y) goto out;
    if (y->kind != V_TENSOR || y->u.t->ndim != 2) { rt_error(I, "MultiheadAttention: out_proj must return a (rows, features) tensor"); goto out; }
    o = ag_view(c, arg_ag(y), 3, (int64_t[]){L, N, y->u.t->shape[1]});
    if (!o.t || (!batched && !ag_step(&o, ag_squeeze(c, o, 1, false))) || (batched && bf && !ag_step(&o, ag_transpose(c, o, 1, 0)))) goto out;
    Value *weights = val_none();
    if (need) {
        AgVal w = ag_view(c, sc, 4, (int64_t[]){N, H, L, S});
        if (w.t && average) {
            int d1 = 1;
            Tensor *hs = ten_scalar_d_in(I->run.ten, (double)H);
            if (ag_step(&w, ag_sum_dims(c, w, &d1, 1, false)) && hs) ag_step(&w, ag_binary(c, OP_DIV, w, false, (AgVal){hs, NULL}, true));
            ten_free(hs);
        }
        if (w.t && !batched) ag_step(&w, ag_squeeze(c, w, 0, false));
        val_decref(weights);
        if (!(weights = ret_ag(I, w))) goto out;
    }
    r = val_tuple(I->run.heap, 2);
    val_seq_set(r, 0, ret_ag(I, o));
    val_seq_set(r, 1, weights);
    o = (AgVal){NULL, NULL};
out:
    if (!r && !interp_failed(I)) rt_tensor_error(I);
    for (int i = 0; i < 3; i++) { ag_val_free(x[i]); ag_val_free(h[i]); }
    ag_val_free(sc);
    ag_val_free(o);
    ten_free(mask);
    ten_free(sd);
    val_decref(ov);
    val_decref(y);
    return r;
}

/* mha(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None, average_attn_weights=True):
 * (attn_output, attn_weights). query (L, N, E) [(N, L, E) batch_first, (L, E) unbatched], key and value (S, N, E);
 * output like query; weights (N, L, S) averaged over heads, (N, H, L, S) with average_attn_weights=False, None with
 * need_weights=False. attn_mask (L, S) or (N*H, L, S), key_padding_mask (N, S): bool (True = not attended) or float
 * (added to the scores). As torch.nn.functional.multi_head_attention_forward in PyTorch 1.13. */
static Value *mha_layer_call(Interp *I, Value *self, Args *a) {
    static const Builtin forward = {"forward", NULL, "mha.forward(query, key, value, key_padding_mask=None, need_weights=True, "
                                    "attn_mask=None, average_attn_weights=True)", "", "", 0, "mha"};
    Value *arg_[7];
    if (!args_bind_call(I, a, &forward, "MultiheadAttention", arg_, 7)) return NULL;
    Value *qv = arg_[0], *kv = arg_[1], *vv = arg_[2], *kpmv = arg_[3], *nwv = arg_[4], *amv = arg_[5], *avv = arg_[6];
    const char *names[3] = {"query", "key", "value"};
    Value *qkv[3] = {qv, kv, vv};
    for (int i = 0; i < 3; i++) {
        /* PyTorch's forward reads query.dim(), then key.is_nested and value.is_nested */
        if (qkv[i]->kind != V_TENSOR) return arg_not_tensor(I, a, qkv[i], i ? "is_nested" : "dim", ARG_RECEIVER);
        if (qkv[i]->u.t->dtype != DT_F32)
            return rt_error(I, "MultiheadAttention: %s is %s, but the layer's weights are float32 (use %s.float())",
                            names[i], ten_dtype_name(qkv[i]->u.t->dtype), names[i]);
    }
    bool need = true, average = true, bf = false;
    if (nwv && !arg_bool(I, nwv, "need_weights", &need)) return NULL;
    if (avv && !arg_bool(I, avv, "average_attn_weights", &average)) return NULL;
    Value *bfv = val_attr_get(self, "batch_first");
    bf = bfv && bfv->kind == V_BOOL && bfv->u.b;
    Tensor *q = qv->u.t, *k = kv->u.t, *v = vv->u.t;
    Tensor *am = amv && amv->kind == V_TENSOR ? amv->u.t : NULL, *kpm = kpmv && kpmv->kind == V_TENSOR ? kpmv->u.t : NULL;
    if ((amv && amv->kind != V_NONE && !am) || (kpmv && kpmv->kind != V_NONE && !kpm))
        return rt_raise(I, "TypeError", "MultiheadAttention: %s must be a tensor or None", am || !amv || amv->kind == V_NONE ? "key_padding_mask" : "attn_mask");
    Tensor *W = attr_tensor(self, "in_proj_weight"), *B = attr_tensor(self, "in_proj_bias");
    Value *op = val_attr_get(self, "out_proj");
    int64_t E = 0, H = 0;
    Value *ev = val_attr_get(self, "embed_dim"), *hv = val_attr_get(self, "num_heads");
    if (ev && ev->kind == V_INT) E = ev->u.i;
    if (hv && hv->kind == V_INT) H = hv->u.i;
    if (E <= 0 || H <= 0 || E % H || E > 1 << 14)
        return rt_error(I, "MultiheadAttention: embed_dim and num_heads must be positive integers, embed_dim divisible by num_heads");
    if (!W) return rt_raise(I, "TypeError", "linear(): argument 'weight' (position 2) must be Tensor, not %s",
                            val_attr_get(self, "in_proj_weight") ? val_type_name(val_attr_get(self, "in_proj_weight")) : "NoneType");
    if (W->dtype != DT_F32 || (B && B->dtype != DT_F32)) return rt_error(I, "MultiheadAttention: in_proj_weight and in_proj_bias must be float32");
    if (!op || !val_is_module(op)) return rt_error(I, "MultiheadAttention: out_proj must be a module such as nn.Linear(embed_dim, embed_dim)");
    char s1[96], s2[96];
    if (q->ndim != 2 && q->ndim != 3)
        return rt_error(I, "query should be unbatched 2D or batched 3D tensor but received %d-D query tensor", q->ndim);
    bool batched = q->ndim == 3;
    if (k->ndim != q->ndim || v->ndim != q->ndim)
        return rt_error(I, batched ? "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found %d-D and %d-D tensors respectively"
                                   : "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found %d-D and %d-D tensors respectively",
                        k->ndim, v->ndim);
    int li = batched && bf ? 1 : 0, ni = batched ? (bf ? 0 : 1) : -1;
    int64_t N = batched ? q->shape[ni] : 1, L = q->shape[li], S = k->shape[li], hd = E / H;
    if (q->shape[q->ndim - 1] != E)
        return rt_error(I, "was expecting embedding dimension of %lld, but got %lld", (long long)E, (long long)q->shape[q->ndim - 1]);
    bool kv_same = k->ndim == v->ndim;
    for (int i = 0; i < k->ndim; i++) kv_same = kv_same && k->shape[i] == v->shape[i];
    if (!kv_same) {
        shape_text(k, s1, sizeof s1);
        shape_text(v, s2, sizeof s2);
        return rt_error(I, "key shape %s does not match value shape %s", s1, s2);
    }
    if (k->shape[k->ndim - 1] != E || (batched && k->shape[ni] != N)) {
        shape_text(q, s1, sizeof s1);
        shape_text(k, s2, sizeof s2);
        return rt_error(I, "MultiheadAttention: key and value of shape %s do not fit query %s: they need the batch size and "
                        "the embedding dimension %lld of the query (attn supports kdim = vdim = embed_dim)", s2, s1, (long long)E);
    }
    /* the query's projection, PyTorch's checks and words: F.linear(query, in_proj_weight, in_proj_bias) when query,
     * key and value are one tensor; else with the first E rows (key is value: split([E, 2E])) or the first of
     * chunk(3) */
    bool self_attn = qv == kv && kv == vv;
    int64_t wsh[2] = {W->ndim ? W->shape[0] : 0, W->ndim > 1 ? W->shape[1] : 0}, bsh[1] = {B ? B->numel : 0};
    if (!self_attn && kv == vv && W->ndim >= 1 && wsh[0] != 3 * E)
        return rt_raise(I, "RuntimeError", "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at dimension 0), "
                        "but got split_sizes=[%lld, %lld]", (long long)wsh[0], (long long)E, (long long)(2 * E));
    if (!self_attn) {
        wsh[0] = kv == vv ? E : (wsh[0] + 2) / 3;
        bsh[0] = kv == vv ? E : (bsh[0] + 2) / 3;
    }
    if (!attn_linear_shapes_ok(I, N * L, E, W->ndim, W->ndim == 2 ? wsh : W->shape, B ? 1 : -1, bsh)) return NULL;
    if (W->shape[0] != 3 * E || (B && B->numel != 3 * E)) {
        shape_text(W, s1, sizeof s1);
        return rt_error(I, "MultiheadAttention: in_proj_weight has shape %s; it must be (3*embed_dim, embed_dim) = (%lld, %lld), "
                        "and in_proj_bias (%lld,)", s1, (long long)(3 * E), (long long)E, (long long)(3 * E));
    }
    if (am) {
        if (am->dtype != DT_BOOL && !ten_is_float(am->dtype))
            return rt_error(I, "only bool and floating types of attn_mask are supported");
        if (!(am->ndim == 2 && shape_is(am, 2, L, S, 0)) && !(am->ndim == 3 && shape_is(am, 3, N * H, L, S))) {
            shape_text(am, s1, sizeof s1);
            if (am->ndim == 2) return rt_error(I, "The shape of the 2D attn_mask is %s, but should be (%lld, %lld).", s1, (long long)L, (long long)S);
            if (am->ndim == 3) return rt_error(I, "The shape of the 3D attn_mask is %s, but should be (%lld, %lld, %lld).", s1, (long long)(N * H), (long long)L, (long long)S);
            return rt_error(I, "attn_mask's dimension %d is not supported", am->ndim);
        }
    }
    if (kpm) {
        if (kpm->dtype != DT_BOOL && !ten_is_float(kpm->dtype))
            return rt_error(I, "only bool and floating types of key_padding_mask are supported");
        if (batched ? !shape_is(kpm, 2, N, S, 0) : !shape_is(kpm, 1, S, 0, 0)) {
            shape_text(kpm, s1, sizeof s1);
            if (batched) return rt_error(I, "expecting key_padding_mask shape of (%lld, %lld), but got %s", (long long)N, (long long)S, s1);
            return rt_error(I, "expecting key_padding_mask shape of (%lld,), but got %s", (long long)S, s1);
        }
    }
    double p = 0;
    Value *pv = val_attr_get(self, "dropout");
    if (pv && val_is_number(pv)) p = val_as_double(pv);
    Value *tv = val_attr_get(self, "training");
    bool drop = p > 0 && (!tv || (tv->kind == V_BOOL && tv->u.b));
    Value *ipb = val_attr_get(self, "in_proj_bias"), *opw = val_attr_get(op, "weight"), *opb = val_attr_get(op, "bias");
    Value *rec[7] = {qv, kv, vv, val_attr_get(self, "in_proj_weight"), ipb && ipb->kind == V_TENSOR ? ipb : NULL,
                     opw && opw->kind == V_TENSOR ? opw : NULL, opb && opb->kind == V_TENSOR ? opb : NULL};
    if (grad_recording(I, 7, rec)) return mha_layer_recorded(I, self, qkv, am, kpm, batched, bf, N, H, p, drop, need, average);

    /* the projections, each (N, len, E) */
    Tensor *wt = NULL, *bt = NULL;
    const Tensor *Wc = ten_as_contiguous(W, &wt), *Bc = B ? ten_as_contiguous(B, &bt) : NULL;
    float *xq = nle_copy(q, batched, bf, N, L, E), *xk = nle_copy(k, batched, bf, N, S, E), *xv = nle_copy(v, batched, bf, N, S, E);
    float *Q = in_project(I->run.ten, xq, N * L, E, ten_f32(Wc), Bc ? ten_f32(Bc) : NULL, 0);
    float *K = in_project(I->run.ten, xk, N * S, E, ten_f32(Wc), Bc ? ten_f32(Bc) : NULL, 1);
    float *V = in_project(I->run.ten, xv, N * S, E, ten_f32(Wc), Bc ? ten_f32(Bc) : NULL, 2);
    ten_free(wt);
    ten_free(bt);
    free(xq);
    free(xk);
    free(xv);
    float scale = (float)sqrt((double)hd);
    for (int64_t i = 0; i < N * L * E; i++) Q[i] = Q[i] / scale;       /* PyTorch 1.13: q = q / math.sqrt(head_dim) */

    int64_t osh[3] = {N, L, E};
    Tensor *O = ten_new_in(I->run.ten, DT_F32, 3, osh), *Wts = ten_new_in(I->run.ten, DT_F32, 4, (int64_t[]){N, H, L, S});
    float *qh = xcalloc((size_t)(L * hd) + 1, sizeof(float)), *kh = xcalloc((size_t)(S * hd) + 1, sizeof(float)),
          *vh = xcalloc((size_t)(S * hd) + 1, sizeof(float)), *oh = xcalloc((size_t)(L * hd) + 1, sizeof(float));
    Rng *g = &I->run.rng;
    bool stopped = false;                               /* Ctrl-C: checked once per head */
    for (int64_t n = 0; O && Wts && !stopped && n < N; n++)
        for (int64_t h = 0; h < H && !(stopped = ten_interrupted); h++) {
            for (int64_t l = 0; l < L; l++) for (int64_t j = 0; j < hd; j++) qh[l * hd + j] = Q[(n * L + l) * E + h * hd + j];
            for (int64_t t = 0; t < S; t++) for (int64_t j = 0; j < hd; j++) {
                kh[t * hd + j] = K[(n * S + t) * E + h * hd + j];
                vh[t * hd + j] = V[(n * S + t) * E + h * hd + j];
            }
            float *sc = ten_f32(Wts) + ((n * H + h) * L) * S;          /* (L, S): scores, then weights */
            ten_sgemm(I->run.ten, qh, kh, sc, L, S, hd, true);
            for (int64_t l = 0; l < L && (am || kpm); l++)
                for (int64_t t = 0; t < S; t++) {
                    float m = 0;
                    if (am) m = mask_term(am, am->ndim == 2 ? l * S + t : ((n * H + h) * L + l) * S + t);
                    if (kpm) m = m + mask_term(kpm, n * S + t);
                    sc[l * S + t] = m + sc[l * S + t];
                }
            ten_softmax_rows_f32(sc, L, S);
            if (drop) {
                float keep = p >= 1 ? 0.0f : (float)(1.0 / (1.0 - p));
                for (int64_t i = 0; i < L * S; i++) sc[i] = rng_uniform(g) < p ? 0.0f : sc[i] * keep;
            }
            ten_sgemm(I->run.ten, sc, vh, oh, L, hd, S, false);
            for (int64_t l = 0; l < L; l++) for (int64_t j = 0; j < hd; j++) ten_f32(O)[(n * L + l) * E + h * hd + j] = oh[l * hd + j];
        }
    free(qh); free(kh); free(vh); free(oh);
    free(Q); free(K); free(V);
    if (stopped) { ten_free(O); ten_free(Wts); return rt_interrupt(I); }
    if (!O || !Wts) { ten_free(O); ten_free(Wts); return rt_tensor_error(I); }
    Tensor *y = attn_linear_forward(I, op, O);          /* out_proj, (N, L, E) */
    ten_free(O);
    if (!y) { ten_free(Wts); return interp_failed(I) ? NULL : rt_tensor_error(I); }
    /* back to the query's layout, with out_proj's own width (a student may have given it another out_features:
     * PyTorch then returns that many columns) */
    int64_t Eo = y->shape[y->ndim - 1];
    Tensor *out = batched && !bf ? ten_new_in(I->run.ten, DT_F32, 3, (int64_t[]){L, N, Eo}) : ten_new_in(I->run.ten, DT_F32, batched ? 3 : 2, batched ? y->shape : (int64_t[]){L, Eo});
    if (out)
        for (int64_t n = 0; n < N; n++) for (int64_t l = 0; l < L; l++) for (int64_t e = 0; e < Eo; e++)
            ten_f32(out)[(batched && !bf ? (l * N + n) : (n * L + l)) * Eo + e] = ten_f32(y)[(n * L + l) * Eo + e];
    ten_free(y);
    if (!out) { ten_free(Wts); return rt_tensor_error(I); }
    Value *weights = val_none();
    if (need) {
        Tensor *w = Wts;
        Wts = NULL;
        if (average) {      /* mean over the heads: their sum, in order, divided by H */
            Tensor *m = ten_new_in(I->run.ten, DT_F32, 3, (int64_t[]){N, L, S});
            for (int64_t n = 0; m && n < N; n++)
                for (int64_t i = 0; i < L * S; i++) {
                    float sum = 0;
                    for (int64_t h = 0; h < H; h++) sum += ten_f32(w)[(n * H + h) * L * S + i];
                    ten_f32(m)[n * L * S + i] = sum / (float)H;
                }
            ten_free(w);
            w = m;
        }
        if (w && !batched) {        /* unbatched: no batch dimension */
            Tensor *sq = ten_view_shape(w, w->ndim - 1, w->shape + 1);
            ten_free(w);
            w = sq;
        }
        if (!w) { ten_free(out); return rt_tensor_error(I); }
        val_decref(weights);
        weights = val_tensor(I->run.heap, w);
    }
    ten_free(Wts);
    Value *r = val_tuple(I->run.heap, 2);
    val_seq_set(r, 0, val_tensor(I->run.heap, out));
    val_seq_set(r, 1, weights);
    return r;
}

static const ObjClass MultiheadAttentionClass = {.name = "MultiheadAttention", .call = mha_layer_call, .is_module = true};

/* nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, batch_first=False): in_proj_weight (3E, E)
 * xavier-uniform, in_proj_bias zeros, out_proj a Linear(E, E) with a zero bias, as PyTorch initialises them. */
static Value *bi_multihead(Interp *I, Args *a) {
    Value *in[9];    /* embed_dim, num_heads, dropout, bias, add_bias_kv, add_zero_attn, kdim, vdim, batch_first */
    if (!args_bind(I, a, in, 9)) return NULL;
    Value *ev = in[0], *hv = in[1], *dv = in[2], *bv = in[3], *kvv = in[4], *zv = in[5], *kd = in[6], *vd = in[7], *bfv = in[8];
    int64_t E, H;
    double p = 0;
    bool bias = true, bf = false, flag = false;
    if (!arg_int(I, ev, "embed_dim", &E) || !arg_int(I, hv, "num_heads", &H)) return NULL;
    if (dv && !arg_double(I, dv, "dropout", &p)) return NULL;
    if (bv && !arg_bool(I, bv, "bias", &bias)) return NULL;
    if (bfv && !arg_bool(I, bfv, "batch_first", &bf)) return NULL;
    if ((kvv && (!arg_bool(I, kvv, "add_bias_kv", &flag) || flag)) || (zv && (!arg_bool(I, zv, "add_zero_attn", &flag) || flag)))
        return interp_failed(I) ? NULL : rt_error(I, "MultiheadAttention: add_bias_kv and add_zero_attn are not in attn");
    int64_t kdim = E, vdim = E;
    if ((kd && kd->kind != V_NONE && !arg_int(I, kd, "kdim", &kdim)) || (vd && vd->kind != V_NONE && !arg_int(I, vd, "vdim", &vdim))) return NULL;
    if (kdim != E || vdim != E) return rt_error(I, "MultiheadAttention: kdim and vdim other than embed_dim are not in attn");
    if (E <= 0 || H <= 0) return rt_error(I, "embed_dim and num_heads must be greater than 0, got embed_dim=%lld and num_heads=%lld", (long long)E, (long long)H);
    if (E % H) return rt_raise(I, "AssertionError", "embed_dim must be divisible by num_heads");
    if (E > 1 << 14) return rt_error(I, "MultiheadAttention: embed_dim must be at most 16384, got %lld", (long long)E);
    if (p < 0 || p > 1) return rt_error(I, "dropout probability has to be between 0 and 1, but got %g", p);
    Value *m = new_layer(I, &MultiheadAttentionClass);
    val_attr_set(m, "embed_dim", val_int(I->run.heap, E));
    val_attr_set(m, "kdim", val_int(I->run.heap, E));
    val_attr_set(m, "vdim", val_int(I->run.heap, E));
    val_attr_set(m, "num_heads", val_int(I->run.heap, H));
    val_attr_set(m, "dropout", val_float(I->run.heap, p));
    val_attr_set(m, "batch_first", val_bool(I->run.heap, bf));
    val_attr_set(m, "head_dim", val_int(I->run.heap, E / H));
    double bound = sqrt(6.0 / (double)(E + 3 * E));         /* xavier_uniform_ on (3E, E) */
    Tensor *w = ten_uniform_in(I->run.ten, &I->run.rng, DT_F32, 2, (int64_t[]){3 * E, E}, -bound, bound);
    if (!w) { val_decref(m); return rt_tensor_error(I); }
    val_attr_set(m, "in_proj_weight", parameter(I, w));
    if (bias) {
        Tensor *b = ten_new_in(I->run.ten, DT_F32, 1, (int64_t[]){3 * E});
        if (!b) { val_decref(m); return rt_tensor_error(I); }
        val_attr_set(m, "in_proj_bias", parameter(I, b));
    } else val_attr_set(m, "in_proj_bias", val_none());
    Value *op = attn_out_proj(I, E, bias);
    if (!op) { val_decref(m); return NULL; }
    Tensor *ob = attr_tensor(op, "bias");
    for (int64_t i = 0; ob && i < ob->numel; i++) ten_set(ob, i, 0.0);     /* PyTorch: constant_(out_proj.bias, 0.) */
    val_attr_set(m, "out_proj", op);
    return m;
}

const Builtin bi_nn_multihead[] = {
    {"MultiheadAttention", bi_multihead, "nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False, "
     "kdim=None, vdim=None, batch_first=False)",
     "PyTorch's multi-head attention (§11.5's, with the three input projections packed in one in_proj_weight "
     "(3*embed_dim, embed_dim) and the output projection out_proj). Call it as mha(query, key, value, "
     "key_padding_mask=None, need_weights=True, attn_mask=None, average_attn_weights=True); it returns (output, "
     "weights). Shapes are (length, batch, embed_dim) unless batch_first=True: (batch, length, embed_dim). "
     "Self-attention: mha(X, X, X). attn_mask (L, S): True (or -inf) where a query must not look; "
     "key_padding_mask (batch, S): True at padded keys. weights: (batch, L, S), averaged over heads unless "
     "average_attn_weights=False.", "§11.5", 0, "nn"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

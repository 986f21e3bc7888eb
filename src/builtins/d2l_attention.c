/* d2l_attention.c - the book's attention code as callable objects with the book's names (§11.3, §11.5, §11.6.1):
 * masked_softmax, DotProductAttention and MultiHeadAttention (the Dropout and Linear they hold are nn_linear.c).
 * Semantics follow d2l/torch.py exactly (shared/notes/book-semantics.md): -1e6 masking, scores / sqrt(d) after the
 * product, dropout on the weights, the transpose_qkv head split. */
#include "d2l_attention_internal.h"
#include "interp.h"
#include "ops.h"
#include <math.h>
#include <string.h>


/* ---- masked_softmax (§11.3.2) ---- */

/* valid_lens of the shape masked_softmax takes for a 3-D X: (B,) or (B, Q); false with an error set. */
static bool masked_lens_ok(Interp *I, const Tensor *X, const Tensor *valid_lens) {
    int64_t B = X->shape[0], Q = X->shape[1];
    if ((valid_lens->ndim == 1 && valid_lens->shape[0] == B) || (valid_lens->ndim == 2 && valid_lens->shape[0] == B && valid_lens->shape[1] == Q))
        return true;
    char s[128], v[128];
    ten_shape_str(X->shape, 3, s, sizeof s);
    ten_shape_str(valid_lens->shape, valid_lens->ndim, v, sizeof v);
    rt_error(I, "masked_softmax: valid_lens must have shape (%lld,) (one per batch row) or (%lld, %lld) (one per query) for X of shape %s, got %s",
             (long long)B, (long long)B, (long long)Q, s, v);
    return false;
}

/* X (B, Q, K); valid_lens NULL, (B,) or (B, Q). Keys at index >= valid_len get -1e6 before the softmax, so a
 * valid_len of 0 gives uniform weights (not NaN), as the book's code does. Like the book's code, which masks
 * through X.reshape(-1, K), the -1e6 is written into X itself when that reshape is a view of it. */
Tensor *attn_masked_softmax(Interp *I, Tensor *X, const Tensor *valid_lens) {
    if (X->ndim != 3) {
        char s[128];
        ten_shape_str(X->shape, X->ndim, s, sizeof s);
        rt_error(I, "masked_softmax: X must be 3-D (batch, queries, keys), got shape %s", s);
        return NULL;
    }
    if (!valid_lens) return ten_softmax(X, -1);
    if (!masked_lens_ok(I, X, valid_lens)) return NULL;
    int64_t B = X->shape[0], Q = X->shape[1], K = X->shape[2];
    bool per_batch = valid_lens->ndim == 1;
    /* pass 1: mask through X.reshape(-1, K), a view of X when X's strides allow (the book repeats 1-D valid_lens
     * for every query: repeat_interleave by Q) */
    int64_t rows_k[2] = {-1, K};
    Tensor *masked = X->dtype == DT_F32 ? ten_reshape(X, 2, rows_k) : ten_cast(X, DT_F32);
    if (!masked) return NULL;
    for (int64_t b = 0; b < B; b++)
        for (int64_t q = 0; q < Q; q++) {
            double vl = ten_get(valid_lens, per_batch ? b : b * Q + q);
            for (int64_t k = 0; k < K; k++)
                if ((double)k >= vl) ten_set(masked, (b * Q + q) * K + k, -1e6);
        }
    /* pass 2: softmax over the last axis */
    Tensor *r = ten_softmax(masked, -1), *out = r ? ten_reshape(r, 3, X->shape) : NULL;
    ten_free(masked);
    ten_free(r);
    return out;
}

/* masked_softmax recorded, as the book's code runs in PyTorch: X.reshape(-1, K) (a view of X when it can be), the
 * masked keys set to -1e6 through that view (X[~mask] = value: IndexPutBackward0, and CopySlices on X, whose history
 * is rebased; PyTorch's refusal when X is a leaf that requires grad), then softmax of .reshape(shape):
 * SoftmaxBackward0. X (B, Q, K) borrowed; valid_lens NULL, (B,) or (B, Q). A new AgVal; t NULL with an error set
 * (interp's or the tensor library's: see ag_ret). */
static AgVal ag_masked_softmax(Interp *I, AgVal X, const Tensor *valid_lens) {
    AgContext *c = &I->run.ag;
    AgVal fail = {NULL, NULL};
    if (X.t->ndim != 3) { attn_masked_softmax(I, X.t, valid_lens); return fail; }   /* its message */
    if (!valid_lens) return ag_softmax(c, X, -1);
    if (!masked_lens_ok(I, X.t, valid_lens)) return fail;
    int64_t B = X.t->shape[0], Q = X.t->shape[1], K = X.t->shape[2], rows_k[2] = {-1, K}, msh[2] = {B * Q, K};
    bool per_batch = valid_lens->ndim == 1;
    Tensor *mask = ten_new_in(I->run.ten, DT_BOOL, 2, msh), *minus = ten_scalar_d_in(I->run.ten, -1e6);
    AgVal r = mask && minus ? ag_reshape(c, X, 2, rows_k) : fail, out = fail;
    if (r.t) {
        for (int64_t b = 0; b < B; b++)
            for (int64_t q = 0; q < Q; q++) {
                double vl = ten_get(valid_lens, per_batch ? b : b * Q + q);
                for (int64_t k = 0; k < K; k++) ten_set(mask, (b * Q + q) * K + k, (double)k >= vl);
            }
        IndexItem it = {.kind = IX_TENSOR, .i = 0, .start = 0, .stop = 0, .step = 1, .has_start = false, .has_stop = false, .index = mask};
        if (ag_index_put_(c, r.t, &r.m, &it, 1, (AgVal){minus, NULL}, true) == 0) {
            AgVal s = ag_reshape(c, r, 3, X.t->shape);
            if (s.t) out = ag_softmax(c, s, -1);
            ag_val_free(s);
        }
    }
    ag_val_free(r);
    ten_free(mask);
    ten_free(minus);
    return out;
}

/* An AgVal result as a value: NULL when it failed, with the interpreter's error if one is set, else the tensor
 * library's. */
static Value *ag_ret(Interp *I, AgVal r) {
    if (!r.t && interp_failed(I)) { ag_meta_unref(r.m); return NULL; }
    return ret_ag(I, r);
}

static Value *bi_masked_softmax(Interp *I, Args *a) {
    Value *p_[2];                               /* X, valid_lens */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *x = p_[0], *vl = p_[1];
    if (!x || x->kind != V_TENSOR) return rt_error(I, "masked_softmax(X, valid_lens) needs a 3-D tensor X");
    ArgTensor tmp = {0};
    Tensor *v = NULL;
    if (vl && vl->kind != V_NONE && !(v = arg_tensor(I, a, vl, "dim", ARG_RECEIVER, &tmp))) return NULL;   /* d2l calls valid_lens.dim() */
    if (grad_recording(I, 1, &x)) {
        Value *r = ag_ret(I, ag_masked_softmax(I, arg_ag(x), v));
        arg_tensor_release(&tmp);
        return r;
    }
    Tensor *r = attn_masked_softmax(I, x->u.t, v);
    arg_tensor_release(&tmp);
    if (!r && interp_failed(I)) return NULL;
    return rt_tensor_result(I, r);
}

/* ---- module helpers ---- */

bool training(Value *obj) {
    Value *t = val_attr_get(obj, "training");
    return !t || (t->kind == V_BOOL && t->u.b);
}

/* Positional argument i (or keyword) that must be a tensor. */
Tensor *tensor_arg(Interp *I, const Args *a, Value *v, const char *name) {
    if (!v || v->kind != V_TENSOR) {
        rt_error(I, "%s: %s must be a tensor%s%s", a->fname, name, v ? ", not " : "", v ? val_type_name(v) : "");
        return NULL;
    }
    return v->u.t;
}

/* Calls a child module (named `name` in its parent) on tensors that are not the caller's to give away (each passed
 * as a new handle on the same data) and returns its tensor result (a new handle), or NULL with an error set. This is
 * how a module the student wrote runs inside attn's modules. */
Tensor *call_module(Interp *I, Value *m, const char *name, Tensor *const *in, int n) {
    Value *argv[4];
    for (int i = 0; i < n; i++) argv[i] = in[i] ? val_tensor(I->run.heap, ten_alias(in[i])) : val_none();
    Args a = {argv, n, NULL, NULL, 0, NULL, NULL};
    Value *r = interp_call(I, m, &a);
    for (int i = 0; i < n; i++) val_decref(argv[i]);
    Tensor *t = NULL;
    if (r && r->kind == V_TENSOR) t = ten_alias(r->u.t);
    else if (r) rt_error(I, "its %s returned %s, not a tensor", name, val_type_name(r));
    val_decref(r);
    return t;
}

/* ---- DotProductAttention (§11.3.3) ---- */

/* valid_lens that the fused kernel takes as they are: none, (B,) or (B, Q). Others go the unfused way, whose
 * masked_softmax explains what is wrong with them (as do float64 inputs, which the fused kernel does not take). */
static bool lens_fit(const Tensor *lens, int64_t B, int64_t Q) {
    return !lens || (lens->ndim == 1 && lens->shape[0] == B) || (lens->ndim == 2 && lens->shape[0] == B && lens->shape[1] == Q);
}

/* True when the module's dropout would change the weights: attn's Dropout in training mode with p > 0 (or with a p
 * it must refuse), or a module of the student's (which then runs). */
static bool dropout_active(Value *attention) {
    Value *drop = val_attr_get(attention, "dropout");
    if (!drop || !val_is_module(drop)) return false;
    if (drop->u.obj.cls != &DropoutClass) return true;
    return dropout_p(drop) < 0 || (training(drop) && dropout_p(drop) > 0);
}

/* True when attention is the built-in DotProductAttention with its dropout off (eval() or p = 0). */
static bool dpa_plain(Value *attention);

/* queries (B, Q, d), keys (B, K, d), values (B, K, v) of DotProductAttention; false with an error set. */
static bool dpa_shapes_ok(Interp *I, const Tensor *q, const Tensor *k, const Tensor *v) {
    if (q->ndim != 3 || k->ndim != 3 || v->ndim != 3) {
        rt_error(I, "DotProductAttention: queries, keys and values must be 3-D (batch, steps, features), got %dD, %dD and %dD",
                 q->ndim, k->ndim, v->ndim);
        return false;
    }
    if (q->shape[2] != k->shape[2] || q->shape[0] != k->shape[0] || k->shape[1] != v->shape[1] || k->shape[0] != v->shape[0]) {
        char sq[96], sk[96], sv[96];
        ten_shape_str(q->shape, 3, sq, sizeof sq);
        ten_shape_str(k->shape, 3, sk, sizeof sk);
        ten_shape_str(v->shape, 3, sv, sizeof sv);
        rt_error(I, "DotProductAttention: queries %s and keys %s need the same batch and feature size, and keys and values %s the same batch and steps",
                 sq, sk, sv);
        return false;
    }
    return true;
}

/* m(x) for a child that takes one tensor (a dropout, a projection) on the recorded path (attn's Dropout and Linear
 * record their op; a module of the student's runs). A new reference to a tensor value, or NULL with an error set;
 * m is borrowed and must be held by the caller. */
static Value *call_child(Interp *I, Value *m, const char *name, Value *x) {
    Args a = {&x, 1, NULL, NULL, 0, NULL, NULL};
    Value *r = interp_call(I, m, &a);
    if (r && r->kind != V_TENSOR) {
        rt_error(I, "its %s returned %s, not a tensor", name, val_type_name(r));
        val_decref(r);
        return NULL;
    }
    return r;
}

/* DotProductAttention.forward recorded (§11.3.3), as the book's code runs in PyTorch: scores = bmm(queries,
 * keys.transpose(1, 2)) / math.sqrt(d) (BmmBackward0, DivBackward0), masked_softmax (SoftmaxBackward0), kept in
 * .attention_weights with its history, then bmm(self.dropout(weights), values). A new value or NULL with an error. */
static Value *dot_attention_recorded(Interp *I, Value *self, AgVal q, AgVal k, AgVal v, const Tensor *valid_lens) {
    if (!dpa_shapes_ok(I, q.t, k.t, v.t)) return NULL;
    AgContext *c = &I->run.ag;
    AgVal kt = ag_transpose(c, k, 1, 2), prod = kt.t ? ag_bmm(c, q, kt) : kt, scores = prod;
    Tensor *sd = ten_scalar_d_in(I->run.ten, sqrt((double)q.t->shape[2]));
    ag_val_free(kt);
    if (prod.t) scores = sd ? ag_binary(c, OP_DIV, prod, false, (AgVal){sd, NULL}, true) : (AgVal){NULL, NULL};
    if (prod.t) ag_val_free(prod);
    ten_free(sd);
    Value *w = scores.t ? ag_ret(I, ag_masked_softmax(I, scores, valid_lens)) : ag_ret(I, scores);
    ag_val_free(scores);
    if (!w) return NULL;
    val_attr_set(self, "attention_weights", val_incref(w));
    /* a dropout of the student's may reassign self.dropout: held while it runs */
    Value *drop = val_incref(val_attr_get(self, "dropout"));
    Value *wd = drop && val_is_module(drop) ? call_child(I, drop, "dropout", w) : val_incref(w);
    val_decref(drop);
    val_decref(w);
    if (!wd) return NULL;
    Value *out = ag_ret(I, ag_bmm(c, arg_ag(wd), v));
    val_decref(wd);
    return out;
}

/* queries (B, Q, d), keys (B, K, d), values (B, K, v) -> (B, Q, v); keeps .attention_weights (B, Q, K). */
static Tensor *dot_attention(Interp *I, Value *self, const Tensor *q, const Tensor *k, const Tensor *v, const Tensor *valid_lens) {
    if (!dpa_shapes_ok(I, q, k, v)) return NULL;
    bool active = dropout_active(self);
    if (!active && lens_fit(valid_lens, q->shape[0], q->shape[1]) && q->dtype == DT_F32 && k->dtype == DT_F32 && v->dtype == DT_F32) {
        /* no dropout: the fused kernel, with the same digits (tensor_attention.c) */
        Tensor *w = NULL, *out = ten_attention(q, k, v, valid_lens, 1, &w);
        if (out) val_attr_set(self, "attention_weights", val_tensor(I->run.heap, w));     /* the object owns w now */
        return out;
    }
    double d = (double)q->shape[2];
    /* pass 1: scores = Q Kᵀ (the division by sqrt(d) comes after the product, as in the book) */
    Tensor *kt = ten_transpose(k, 1, 2);
    Tensor *prod = kt ? ten_bmm(q, kt) : NULL;
    ten_free(kt);
    /* scores = Q Kᵀ / math.sqrt(d) as PyTorch divides: an integer product becomes floating point */
    Tensor *sd = prod ? ten_scalar_d_in(I->run.ten, sqrt(d)) : NULL;
    Tensor *scores = sd ? ten_binary(OP_DIV, prod, false, sd, true) : NULL;
    ten_free(prod);
    ten_free(sd);
    if (!scores) return NULL;
    /* pass 2: masked softmax over the keys */
    Tensor *w = attn_masked_softmax(I, scores, valid_lens);
    ten_free(scores);
    if (!w) return NULL;
    val_attr_set(self, "attention_weights", val_tensor(I->run.heap, w));     /* the object owns w now */
    /* pass 3: dropout on the weights (a copy, only when active), then the weighted sum of values; a dropout of the
     * student's may reassign self.attention_weights or self.dropout: w and the module are held while it runs */
    if (!active) return ten_bmm(w, v);
    Value *drop = val_incref(val_attr_get(self, "dropout"));
    Tensor *held = ten_alias(w), *wd = held ? attn_apply_dropout(I, drop, held) : NULL;
    val_decref(drop);
    ten_free(held);
    if (!wd) { if (!interp_failed(I)) rt_tensor_error(I); return NULL; }
    Tensor *out = ten_bmm(wd, v);
    ten_free(wd);
    return out;
}

static Value *dpa_call(Interp *I, Value *self, Args *a) {
    static const Builtin forward = {"forward", NULL, "attention.forward(queries, keys, values, valid_lens=None)", "", "", 0, "attention"};
    Value *qkv[4];                               /* queries, keys, values, valid_lens */
    if (!args_bind_call(I, a, &forward, "DotProductAttention", qkv, 4)) return NULL;
    Tensor *q = tensor_arg(I, a, qkv[0], "queries"), *k = q ? tensor_arg(I, a, qkv[1], "keys") : NULL, *v = k ? tensor_arg(I, a, qkv[2], "values") : NULL;
    if (!v) return NULL;
    Value *vl = qkv[3];
    ArgTensor tmp = {0};
    Tensor *lens = NULL;
    if (vl && vl->kind != V_NONE && !(lens = arg_tensor(I, a, vl, "dim", ARG_RECEIVER, &tmp))) return NULL;   /* masked_softmax: valid_lens.dim() */
    if (grad_recording(I, 3, qkv)) {
        Value *r = dot_attention_recorded(I, self, arg_ag(qkv[0]), arg_ag(qkv[1]), arg_ag(qkv[2]), lens);
        arg_tensor_release(&tmp);
        return r;
    }
    Tensor *r = dot_attention(I, self, q, k, v, lens);
    arg_tensor_release(&tmp);
    if (!r && interp_failed(I)) return NULL;
    return rt_tensor_result(I, r);
}

/* What a MultiHeadAttention forward leaves in its inner attention's .attention_weights instead of the (B*h, Q, K)
 * weights themselves: its projected queries and keys (tensors nobody else holds), a copy of valid_lens and the
 * number of heads. The chapter reads the weights after a forward to draw them (§11.5, §11.6.1); most forwards never
 * read them, and writing them is a pass over B*h*Q*K floats (256 MiB at batch 8, n 1024, 8 heads). */
static const ObjClass PendingWeightsClass = {.name = "attention weights (computed when read)"};

/* .attention_weights: computed now, with the bits the forward would have kept, if the forward put them off. */
static Value *dpa_getattr(Interp *I, Value *self, const char *name) {
    Value *p = val_attr_get(self, name);
    if (p && p->kind == V_OBJECT && p->u.obj.cls == &PendingWeightsClass) {
        Value *q = val_attr_get(p, "queries"), *k = val_attr_get(p, "keys"), *vl = val_attr_get(p, "valid_lens"),
              *h = val_attr_get(p, "num_heads");
        Tensor *w = ten_attention_weights(q->u.t, k->u.t, vl->kind == V_TENSOR ? vl->u.t : NULL, h->u.i);
        if (!w) return rt_tensor_error(I);
        val_attr_set(self, name, val_tensor(I->run.heap, w));        /* releases the pending record */
    }
    return ops_object_getattr(I, self, name);
}

/* Leaves .attention_weights of attention to be computed from q and k (taken over: set to NULL) when read. */
static bool put_off_weights(Interp *I, Value *attention, Tensor **q, Tensor **k, const Tensor *valid_lens, int64_t heads) {
    Tensor *lens = valid_lens ? ten_clone(valid_lens) : NULL;
    if (valid_lens && !lens) { rt_tensor_error(I); return false; }
    Value *p = val_object(I->run.heap, &PendingWeightsClass);
    val_attr_set(p, "queries", val_tensor(I->run.heap, *q));
    val_attr_set(p, "keys", val_tensor(I->run.heap, *k));
    val_attr_set(p, "valid_lens", lens ? val_tensor(I->run.heap, lens) : val_none());
    val_attr_set(p, "num_heads", val_int(I->run.heap, heads));
    *q = *k = NULL;
    val_attr_set(attention, "attention_weights", p);
    return true;
}

static const ObjClass DotProductAttentionClass = {.name = "DotProductAttention", .call = dpa_call, .is_module = true,
                                                  .getattr = dpa_getattr};

static bool dpa_plain(Value *attention) {
    return attention->kind == V_OBJECT && attention->u.obj.cls == &DotProductAttentionClass && !dropout_active(attention);
}

static Value *make_dpa(Interp *I, Value *dropout) {
    Value *d = make_dropout(I, dropout, NULL);
    if (!d) return NULL;
    Value *o = val_object(I->run.heap, &DotProductAttentionClass);
    val_attr_set(o, "training", val_bool(I->run.heap, true));
    val_attr_set(o, "dropout", d);
    val_attr_set(o, "attention_weights", val_none());
    return o;
}

static Value *bi_dot_product_attention(Interp *I, Args *a) {
    Value *p_[1];                               /* dropout */
    if (!args_bind(I, a, p_, 1)) return NULL;
    Value *d = p_[0];
    if (!d) return rt_error(I, "DotProductAttention(dropout) needs a dropout rate, e.g. DotProductAttention(0.5)");
    return make_dpa(I, d);
}

/* ---- MultiHeadAttention (§11.5) ---- */

/* transpose_qkv: (B, T, H) -> (B, T, h, H/h) -> permute (0, 2, 1, 3) -> (B*h, T, H/h). Row b*h + i is head i. */
static Tensor *transpose_qkv(Interp *I, const Tensor *x, int64_t heads) {
    if (x->ndim != 3 || x->shape[2] % heads != 0) {
        rt_error(I, "transpose_qkv: X must be (batch, steps, num_hiddens) with num_hiddens divisible by %lld", (long long)heads);
        return NULL;
    }
    int64_t sh[4] = {x->shape[0], x->shape[1], heads, x->shape[2] / heads};
    Tensor *r = ten_reshape(x, 4, sh);
    int perm[4] = {0, 2, 1, 3};
    Tensor *p = r ? ten_permute(r, perm) : NULL;
    ten_free(r);
    if (!p) return NULL;
    int64_t sh3[3] = {sh[0] * heads, sh[1], sh[3]};
    Tensor *o = ten_reshape(p, 3, sh3);
    ten_free(p);
    return o;
}

/* transpose_output: (B*h, T, d) -> (B, h, T, d) -> permute (0, 2, 1, 3) -> (B, T, h*d). */
static Tensor *transpose_output(Interp *I, const Tensor *x, int64_t heads) {
    if (x->ndim != 3 || x->shape[0] % heads != 0) {
        rt_error(I, "transpose_output: X must be (batch*num_heads, steps, features) with its first dimension divisible by %lld", (long long)heads);
        return NULL;
    }
    int64_t sh[4] = {x->shape[0] / heads, heads, x->shape[1], x->shape[2]};
    Tensor *r = ten_reshape(x, 4, sh);
    int perm[4] = {0, 2, 1, 3};
    Tensor *p = r ? ten_permute(r, perm) : NULL;
    ten_free(r);
    if (!p) return NULL;
    int64_t sh3[3] = {sh[0], sh[2], heads * sh[3]};
    Tensor *o = ten_reshape(p, 3, sh3);
    ten_free(p);
    return o;
}

static bool is_linear(const Value *m) {
    return m->kind == V_OBJECT && (m->u.obj.cls == &LinearClass || m->u.obj.cls == &LazyLinearClass);
}

/* W(x) for a projection of MultiHeadAttention: attn's Linear directly, anything else by calling it (a module of the
 * student's, or a value that is not callable: Python's TypeError). W is borrowed and must be held by the caller. */
static Tensor *project(Interp *I, Value *W, const char *name, const Tensor *x) {
    if (is_linear(W)) return attn_linear_forward(I, W, x);
    Tensor *in = (Tensor *)x;
    return call_module(I, W, name, &in, 1);
}

/* self.<name>(x), the attribute read now, as the book's forward reads it, and held (a new reference) while it runs:
 * a module of the student's may reassign or delete self.<name> itself. *fresh says whether the result is attn's own
 * Linear output (a tensor nobody else holds). NULL with an error set. */
static Tensor *project_attr(Interp *I, Value *self, const char *name, const Tensor *x, bool *fresh) {
    Value *W = ops_getattr(I, self, name);
    if (!W) return NULL;
    if (fresh) *fresh = is_linear(W);
    Tensor *r = project(I, W, name, x);
    val_decref(W);
    return r;
}

/* The module's num_heads as a positive integer, or false with an error: the student may have assigned anything to
 * it (0 divided by zero once, a float out of int64 range was undefined, a string was ignored). */
static bool mha_heads(Interp *I, Value *self, int64_t *heads) {
    Value *v = val_attr_get(self, "num_heads");
    if (!v || !arg_int(I, v, "num_heads", heads)) {
        if (!interp_failed(I)) rt_error(I, "MultiHeadAttention: num_heads is missing");
        return false;
    }
    if (*heads <= 0) {
        rt_error(I, "MultiHeadAttention: num_heads must be positive, not %lld", (long long)*heads);
        return false;
    }
    return true;
}

/* self.num_heads as self.transpose_qkv(P) reads it, now (the book's method reads it on each call), checked against
 * the projection P: false with an error set. The split itself is left to the caller (the fused kernel needs none). */
static bool split_heads(Interp *I, Value *self, const Tensor *P, int64_t *heads) {
    if (!mha_heads(I, self, heads)) return false;
    if (P->ndim != 3) { rt_error(I, "MultiHeadAttention: W_q, W_k and W_v must give 3-D tensors"); return false; }
    if (P->shape[2] % *heads != 0) {
        rt_error(I, "MultiHeadAttention: num_hiddens %lld is not divisible by num_heads %lld", (long long)P->shape[2], (long long)*heads);
        return false;
    }
    return true;
}

/* transpose_qkv (output false) or transpose_output (true) recorded as the book's reshape, permute(0, 2, 1, 3),
 * reshape: ReshapeAliasBackward0, PermuteBackward0, then CloneBackward0 and UnsafeViewBackward0 (PyTorch 1.13's
 * reshape of a permuted tensor). A new value or NULL with an error set. */
static Value *transpose_heads_recorded(Interp *I, AgVal x, int64_t heads, bool output) {
    Tensor *check = output ? transpose_output(I, x.t, heads) : transpose_qkv(I, x.t, heads);     /* its messages */
    if (!check) return NULL;
    AgContext *c = &I->run.ag;
    int64_t sh[4], sh3[3] = {check->shape[0], check->shape[1], check->shape[2]};
    if (output) { sh[0] = x.t->shape[0] / heads; sh[1] = heads; sh[2] = x.t->shape[1]; sh[3] = x.t->shape[2]; }
    else { sh[0] = x.t->shape[0]; sh[1] = x.t->shape[1]; sh[2] = heads; sh[3] = x.t->shape[2] / heads; }
    ten_free(check);
    int perm[4] = {0, 2, 1, 3};
    AgVal r = ag_reshape(c, x, 4, sh), p = r.t ? ag_permute(c, r, perm) : r, o = p.t ? ag_reshape(c, p, 3, sh3) : p;
    if (p.t) ag_val_free(r);
    if (o.t) ag_val_free(p);
    return ag_ret(I, o);
}

/* True when a tensor of module m, or of a module under it (to a depth of 8), requires grad; a LazyLinear's weight
 * that its first input makes is a parameter too (PyTorch's UninitializedParameter requires grad). */
static bool module_requires_grad(Value *m, int depth) {
    if (m->kind == V_OBJECT && m->u.obj.cls == &LazyLinearClass) return true;
    Dict *d = &m->u.obj.attrs;
    for (int i = 0; i < d->n; i++) {
        Value *v = d->vals[i];
        if (v->kind == V_TENSOR && val_requires_grad(v)) return true;
        if (depth < 8 && val_is_module(v) && v != m && module_requires_grad(v, depth + 1)) return true;
    }
    return false;
}

/* self.<name>(x) on the recorded path: the attribute read now and held while it runs. */
static Value *project_recorded(Interp *I, Value *self, const char *name, Value *x) {
    Value *W = ops_getattr(I, self, name);
    if (!W) return NULL;
    Value *r = call_child(I, W, name, x);
    val_decref(W);
    return r;
}

/* MultiHeadAttention.forward recorded (§11.5), line by line as the book's: the projections, transpose_qkv, valid_lens
 * repeated num_heads times, self.attention (DotProductAttention recorded, or the student's module), transpose_output
 * and W_o, each attribute read when the book reads it. q, k, v borrowed; lens NULL or a tensor. */
static Value *mha_recorded(Interp *I, Value *self, Value *q, Value *k, Value *v, const Tensor *lens) {
    Value *pq = NULL, *pk = NULL, *pv = NULL, *tq = NULL, *tk = NULL, *tv = NULL, *inner = NULL, *o = NULL, *oc = NULL, *y = NULL;
    Tensor *rl = NULL;
    int64_t heads;
    if (!(pq = project_recorded(I, self, "W_q", q)) || !split_heads(I, self, pq->u.t, &heads) || !(tq = transpose_heads_recorded(I, arg_ag(pq), heads, false))) goto out;
    if (!(pk = project_recorded(I, self, "W_k", k)) || !split_heads(I, self, pk->u.t, &heads) || !(tk = transpose_heads_recorded(I, arg_ag(pk), heads, false))) goto out;
    if (!(pv = project_recorded(I, self, "W_v", v)) || !split_heads(I, self, pv->u.t, &heads) || !(tv = transpose_heads_recorded(I, arg_ag(pv), heads, false))) goto out;
    if (lens) {
        if (lens->ndim == 0 || lens->shape[0] != q->u.t->shape[0]) {
            char s[96];
            ten_shape_str(lens->shape, lens->ndim, s, sizeof s);
            rt_error(I, "MultiHeadAttention: valid_lens has shape %s; it needs one entry per batch row (%lld)", s, (long long)q->u.t->shape[0]);
            goto out;
        }
        if (!(rl = ten_repeat_interleave(lens, &heads, 1, 0, false))) { rt_tensor_error(I); goto out; }
    }
    if (!(inner = ops_getattr(I, self, "attention"))) goto out;
    if (inner->kind == V_OBJECT && inner->u.obj.cls == &DotProductAttentionClass)
        o = dot_attention_recorded(I, inner, arg_ag(tq), arg_ag(tk), arg_ag(tv), rl);
    else {
        Value *argv[4] = {tq, tk, tv, rl ? val_tensor(I->run.heap, ten_alias(rl)) : val_none()};
        Args a = {argv, 4, NULL, NULL, 0, NULL, NULL};
        o = interp_call(I, inner, &a);
        val_decref(argv[3]);
        if (o && o->kind != V_TENSOR) { rt_error(I, "its attention returned %s, not a tensor", val_type_name(o)); goto out; }
    }
    if (!o || !mha_heads(I, self, &heads) || !(oc = transpose_heads_recorded(I, arg_ag(o), heads, true))) goto out;
    y = project_recorded(I, self, "W_o", oc);
out:
    val_decref(pq); val_decref(pk); val_decref(pv); val_decref(tq); val_decref(tk); val_decref(tv);
    val_decref(inner); val_decref(o); val_decref(oc);
    ten_free(rl);
    return y;
}

/* forward(queries, keys, values, valid_lens) as the book's MultiHeadAttention.forward (§11.5): each attribute
 * (W_q, W_k, W_v, num_heads, attention, W_o) is read when the book's line reads it and held while it is used, so a
 * module of the student's that reassigns the others mid-forward sees Python's order and frees nothing in use. When
 * nothing of the student's runs between the projections and W_o, the heads go through the fused kernel. */
static Value *mha_call(Interp *I, Value *self, Args *a) {
    /* d2l's forward requires valid_lens; attn's own stack_attention (d2l_after.c) calls it with three arguments */
    static const Builtin forward = {"forward", NULL, "attention.forward(queries, keys, values, valid_lens=None)", "", "", 0, "attention"};
    Value *qkv[4];                               /* queries, keys, values, valid_lens */
    if (!args_bind_call(I, a, &forward, "MultiHeadAttention", qkv, 4)) return NULL;
    Tensor *q = tensor_arg(I, a, qkv[0], "queries"), *k = q ? tensor_arg(I, a, qkv[1], "keys") : NULL, *v = k ? tensor_arg(I, a, qkv[2], "values") : NULL;
    if (!v) return NULL;
    Value *vl = qkv[3];
    ArgTensor tmp = {0};
    Tensor *lens = NULL;
    if (vl && vl->kind != V_NONE && vl->kind != V_TENSOR)   /* d2l: torch.repeat_interleave(valid_lens, repeats=num_heads, dim=0) */
        return rt_raise(I, "TypeError", "repeat_interleave() received an invalid combination of arguments - got (%s, dim=int, repeats=int), "
                        "but expected one of:", val_type_name(vl));
    if (vl && vl->kind != V_NONE && !(lens = arg_tensor(I, a, vl, "valid_lens", ARG_TENSOR, &tmp))) return NULL;
    if (I->run.ag.grad_enabled && (grad_recording(I, 3, qkv) || module_requires_grad(self, 0))) {
        Value *r = mha_recorded(I, self, qkv[0], qkv[1], qkv[2], lens);
        arg_tensor_release(&tmp);
        return r;
    }
    Value *inner = NULL;
    Tensor *pq = NULL, *pk = NULL, *pv = NULL, *tq = NULL, *tk = NULL, *tv = NULL, *rl = NULL, *o = NULL, *oc = NULL, *y = NULL;
    bool fresh_q = false, fresh_k = false;
    int64_t hq, hk, hv, heads;
    /* queries, keys, values: (B, T, H) -> projected (B, T, H) -> heads (B*h, T, H/h) */
    if (!(pq = project_attr(I, self, "W_q", q, &fresh_q)) || !split_heads(I, self, pq, &hq)) goto out;
    if (!(pk = project_attr(I, self, "W_k", k, &fresh_k)) || !split_heads(I, self, pk, &hk)) goto out;
    if (!(pv = project_attr(I, self, "W_v", v, NULL)) || !split_heads(I, self, pv, &hv)) goto out;
    heads = hv;                          /* what repeat_interleave reads next: nothing of the student's ran since */
    if (!(inner = ops_getattr(I, self, "attention"))) goto out;
    int64_t H = pq->shape[2];
    if (dpa_plain(inner) && hq == heads && hk == heads && lens_fit(lens, q->shape[0], q->shape[1]) && pk->shape[2] == H &&
        pv->shape[2] == H && pq->dtype == DT_F32 && pk->dtype == DT_F32 && pv->dtype == DT_F32) {
        /* the heads read in place and written in transpose_output's layout by the fused kernel (tensor_attention.c);
         * the weights are computed when read, from the projections, when those are attn's own (fresh) tensors */
        bool later = fresh_q && fresh_k;
        Tensor *w = NULL;
        if (!(oc = ten_attention(pq, pk, pv, lens, heads, later ? NULL : &w))) goto out;
        if (!later) val_attr_set(inner, "attention_weights", val_tensor(I->run.heap, w));
        else if (!put_off_weights(I, inner, &pq, &pk, lens, heads)) goto out;
        y = project_attr(I, self, "W_o", oc, NULL);
        goto out;
    }
    if (!(tq = transpose_qkv(I, pq, hq)) || !(tk = transpose_qkv(I, pk, hk)) || !(tv = transpose_qkv(I, pv, hv))) goto out;
    if (lens) {
        /* valid_lens repeated num_heads times along dim 0 */
        if (lens->ndim == 0 || lens->shape[0] != q->shape[0]) {
            char s[96];
            ten_shape_str(lens->shape, lens->ndim, s, sizeof s);
            rt_error(I, "MultiHeadAttention: valid_lens has shape %s; it needs one entry per batch row (%lld)", s, (long long)q->shape[0]);
            goto out;
        }
        if (!(rl = ten_repeat_interleave(lens, &heads, 1, 0, false))) goto out;
    }
    if (inner->kind == V_OBJECT && inner->u.obj.cls == &DotProductAttentionClass) o = dot_attention(I, inner, tq, tk, tv, rl);
    else o = call_module(I, inner, "attention", (Tensor *const[]){tq, tk, tv, rl}, 4);   /* the student's attention */
    if (!o || !mha_heads(I, self, &heads)) goto out;          /* transpose_output reads num_heads again */
    if (!(oc = transpose_output(I, o, heads))) goto out;
    y = project_attr(I, self, "W_o", oc, NULL);
out:
    val_decref(inner);
    ten_free(pq); ten_free(pk); ten_free(pv); ten_free(tq); ten_free(tk); ten_free(tv);
    ten_free(rl); ten_free(o); ten_free(oc); arg_tensor_release(&tmp);
    if (!y && interp_failed(I)) return NULL;
    return rt_tensor_result(I, y);
}

static Value *m_transpose_qkv(Interp *I, Args *a) {
    Value *x;
    if (!args_bind_method(I, a, "MultiHeadAttention", &x, 1)) return NULL;
    if (x->kind != V_TENSOR) return rt_error(I, "transpose_qkv(X) needs a tensor");
    int64_t heads;
    if (!mha_heads(I, a->pos[0], &heads)) return NULL;
    if (grad_recording(I, 1, &x)) return transpose_heads_recorded(I, arg_ag(x), heads, false);
    return rt_tensor_result(I, transpose_qkv(I, x->u.t, heads));
}

static Value *m_transpose_output(Interp *I, Args *a) {
    Value *x;
    if (!args_bind_method(I, a, "MultiHeadAttention", &x, 1)) return NULL;
    if (x->kind != V_TENSOR) return rt_error(I, "transpose_output(X) needs a tensor");
    int64_t heads;
    if (!mha_heads(I, a->pos[0], &heads)) return NULL;
    if (grad_recording(I, 1, &x)) return transpose_heads_recorded(I, arg_ag(x), heads, true);
    return rt_tensor_result(I, transpose_output(I, x->u.t, heads));
}

static const Builtin mha_methods[] = {
    {"transpose_qkv", m_transpose_qkv, "attention.transpose_qkv(X)", "(B, T, H) -> (B*heads, T, H/heads): the head split.", "§11.5", 0, "attention"},
    {"transpose_output", m_transpose_output, "attention.transpose_output(X)", "Undoes transpose_qkv.", "§11.5", 0, "attention"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const ObjClass MultiHeadAttentionClass = {.name = "MultiHeadAttention", .call = mha_call, .methods = mha_methods, .is_module = true};

static Value *bi_multi_head_attention(Interp *I, Args *a) {
    Value *p_[4];                               /* num_hiddens, num_heads, dropout, bias */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *nh = p_[0], *h = p_[1], *d = p_[2], *b = p_[3];
    if (!nh || !h || !d) return rt_error(I, "MultiHeadAttention(num_hiddens, num_heads, dropout, bias=False), e.g. MultiHeadAttention(100, 5, 0.5)");
    int64_t hidden, heads;
    bool bias = false;
    if (!arg_int(I, nh, "num_hiddens", &hidden) || !arg_int(I, h, "num_heads", &heads)) return NULL;
    if (b && !arg_bool(I, b, "bias", &bias)) return NULL;
    if (heads <= 0 || hidden <= 0) return rt_error(I, "MultiHeadAttention: num_hiddens and num_heads must be positive");
    if (hidden % heads != 0) return rt_error(I, "MultiHeadAttention: num_hiddens (%lld) must be divisible by num_heads (%lld)", (long long)hidden, (long long)heads);
    Value *inner = make_dpa(I, d);
    if (!inner) return NULL;
    Value *o = val_object(I->run.heap, &MultiHeadAttentionClass);
    val_attr_set(o, "training", val_bool(I->run.heap, true));
    val_attr_set(o, "num_heads", val_int(I->run.heap, heads));
    val_attr_set(o, "attention", inner);
    const char *names[] = {"W_q", "W_k", "W_v", "W_o"};
    for (int i = 0; i < 4; i++) {
        Value *w = make_linear(I, 0, hidden, bias, true);     /* NULL past Linear's size limit: the error is set */
        if (!w) { val_decref(o); return NULL; }
        val_attr_set(o, names[i], w);
    }
    return o;
}

static Value *bi_transpose_qkv(Interp *I, Args *a) {
    Value *p_[2];                               /* X, num_heads */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *x = p_[0], *h = p_[1];
    int64_t heads;
    if (!x || x->kind != V_TENSOR || !h || !arg_int(I, h, "num_heads", &heads) || heads <= 0)
        return interp_failed(I) ? NULL : rt_error(I, "%s(X, num_heads) needs a tensor and a positive number of heads", a->fname);
    if (grad_recording(I, 1, &x)) return transpose_heads_recorded(I, arg_ag(x), heads, a->fn->tag != 0);
    return rt_tensor_result(I, a->fn->tag ? transpose_output(I, x->u.t, heads) : transpose_qkv(I, x->u.t, heads));
}

const Builtin bi_d2l_attention[] = {
    {"masked_softmax", bi_masked_softmax, "d2l.masked_softmax(X, valid_lens)",
     "Softmax over the last axis of a 3-D X, where keys at index >= valid_len get -1e6 first (so their weight is 0). "
     "valid_lens has one entry per batch row (repeated for every query) or one per query. As in the book, the -1e6 "
     "is written through X.reshape(-1, n), so a contiguous X itself is changed.", "§11.3.2", 0, "d2l"},
    {"DotProductAttention", bi_dot_product_attention, "d2l.DotProductAttention(dropout)",
     "Scaled dot-product attention: softmax(Q Kᵀ / sqrt(d)) V with masking by valid_lens; the weights are kept in "
     ".attention_weights.", "§11.3.3", 0, "d2l"},
    {"MultiHeadAttention", bi_multi_head_attention, "d2l.MultiHeadAttention(num_hiddens, num_heads, dropout, bias=False)",
     "Multi-head attention: W_q, W_k, W_v project, the heads attend in parallel (attention.attention.attention_weights "
     "holds one matrix per batch row and head), W_o mixes them. Call it as attention(X, X, X, valid_lens) for "
     "self-attention. Dropout is active until .eval().", "§11.5", 0, "d2l"},
    {"transpose_qkv", bi_transpose_qkv, "d2l.transpose_qkv(X, num_heads)", "(B, T, H) -> (B*num_heads, T, H/num_heads).", "§11.5", 0, "d2l"},
    {"transpose_output", bi_transpose_qkv, "d2l.transpose_output(X, num_heads)", "Reverses transpose_qkv.", "§11.5", 1, "d2l"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* d2l_positional.c - the sinusoidal positional encoding of §11.6.3 as the book builds it (float32, a division by
 * 10000^(2j/d)), with a defined answer for odd d, where the book's code fails. */
#include "builtins_internal.h"
#include "interp.h"
#include <math.h>
#include <string.h>

/* P (1, max_len, d): P[0, i, 2j] = sin(i / 10000^(2j/d)), P[0, i, 2j+1] = cos(i / 10000^(2j/d)), computed as the
 * book's lines are (each step in float32, PyTorch's bits) by the threaded kernel in src/tensor/tensor_positional.c.
 * For odd d there are ceil(d/2) sine columns and floor(d/2) cosine columns: the last column is a sine (the book's
 * code stops with a shape mismatch there). */
Tensor *attn_positional_table_in(TenCtx *c, int64_t max_len, int64_t d) { return ten_positional_encoding_in(c, max_len, d); }

/* forward recorded, as the book's X + self.P[:, :X.shape[1], :] then self.dropout (AddBackward0; P's slices
 * SliceBackward0 when P requires grad; attn's Dropout records its MulBackward0 in training). X, P borrowed, shapes
 * checked by the caller. A new value or NULL with an error set. */
static Value *pe_recorded(Interp *I, Value *self, Value *xv, Value *pv) {
    AgContext *c = &I->run.ag;
    AgVal P = arg_ag(pv), s0 = ag_slice(c, P, 0, 0, 0, 1, false, false);
    AgVal s1 = s0.t ? ag_slice(c, s0, 1, 0, xv->u.t->shape[1], 1, false, true) : s0;
    AgVal s2 = s1.t ? ag_slice(c, s1, 2, 0, 0, 1, false, false) : s1;
    AgVal sum = s2.t ? ag_binary(c, OP_ADD, arg_ag(xv), false, s2, false) : s2;
    if (s1.t) ag_val_free(s0);
    if (s2.t) ag_val_free(s1);
    if (sum.t) ag_val_free(s2);
    Value *x = ret_ag(I, sum);
    if (!x) return NULL;
    Value *drop = val_incref(val_attr_get(self, "dropout"));       /* held: a dropout of the student's runs */
    Value *out = x;
    if (drop && val_is_module(drop)) {
        Args a = {&x, 1, NULL, NULL, 0, NULL, NULL};
        out = interp_call(I, drop, &a);
        val_decref(x);
    }
    val_decref(drop);
    return out;
}

/* forward(X): dropout(X + P[:, :T, :]) for X (B, T, d). */
static Value *pe_call(Interp *I, Value *self, Args *a) {
    static const Builtin forward = {"forward", NULL, "pos_encoding.forward(X)", "", "", 0, "pos_encoding"};
    Value *xv;
    if (!args_bind_call(I, a, &forward, "PositionalEncoding", &xv, 1)) return NULL;
    Value *pv = val_attr_get(self, "P");
    if (xv->kind != V_TENSOR) return rt_error(I, "PositionalEncoding: call it on a tensor X of shape (batch, steps, num_hiddens)");
    if (!pv || pv->kind != V_TENSOR || pv->u.t->ndim != 3) return rt_error(I, "PositionalEncoding: its P was replaced by something that is not a (1, max_len, d) tensor");
    Tensor *X = xv->u.t, *P = pv->u.t;
    if (X->ndim != 3 || X->shape[2] != P->shape[2] || X->shape[1] > P->shape[1]) {
        char s[96];
        ten_shape_str(X->shape, X->ndim, s, sizeof s);
        return rt_error(I, "PositionalEncoding: X has shape %s; it must be (batch, steps <= %lld, %lld)", s, (long long)P->shape[1], (long long)P->shape[2]);
    }
    if (grad_recording(I, 2, (Value *[]){xv, pv})) return pe_recorded(I, self, xv, pv);
    IndexItem items[2] = {{.kind = IX_SLICE, .step = 1}, {.kind = IX_SLICE, .stop = X->shape[1], .has_stop = true, .step = 1}};
    Tensor *Pt = ten_index_get(P, items, 2);
    Tensor *sum = Pt ? ten_binary(OP_ADD, X, false, Pt, false) : NULL;
    ten_free(Pt);
    if (!sum) return rt_tensor_error(I);
    Value *drop = val_incref(val_attr_get(self, "dropout"));       /* held: a dropout of the student's runs */
    Tensor *out = attn_apply_dropout(I, drop, sum);
    val_decref(drop);
    ten_free(sum);
    return out ? val_tensor(I->run.heap, out) : NULL;
}

static const ObjClass PositionalEncodingClass = {.name = "PositionalEncoding", .call = pe_call, .is_module = true};

static Value *bi_positional_encoding(Interp *I, Args *a) {
    Value *p_[3];                               /* num_hiddens, dropout, max_len */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *nh = p_[0], *dv = p_[1], *ml = p_[2];
    if (!nh || !dv) return rt_error(I, "PositionalEncoding(num_hiddens, dropout, max_len=1000), e.g. PositionalEncoding(32, 0)");
    int64_t d, max_len = 1000;
    double p;
    if (!arg_int(I, nh, "num_hiddens", &d) || !arg_double(I, dv, "dropout", &p)) return NULL;
    if (ml && !arg_int(I, ml, "max_len", &max_len)) return NULL;
    if (d <= 0) return rt_error(I, "PositionalEncoding: num_hiddens must be positive, got %lld", (long long)d);
    if (max_len <= 0) return rt_error(I, "PositionalEncoding: max_len must be positive, got %lld", (long long)max_len);
    if (p < 0 || p > 1) return rt_error(I, "dropout probability has to be between 0 and 1, but got %g", p);
    Tensor *P = attn_positional_table_in(I->run.ten, max_len, d);
    if (!P) return rt_tensor_error(I);
    Args da = {&dv, 1, NULL, NULL, 0, "Dropout", builtins_find("Dropout")};
    Value *drop = builtins_find("Dropout")->fn(I, &da);
    if (!drop) { ten_free(P); return NULL; }
    Value *o = val_object(I->run.heap, &PositionalEncodingClass);
    val_attr_set(o, "training", val_bool(I->run.heap, true));
    val_attr_set(o, "dropout", drop);
    val_attr_set(o, "P", val_tensor(I->run.heap, P));
    val_attr_set(o, "num_hiddens", val_int(I->run.heap, d));
    return o;
}

const Builtin bi_d2l_positional[] = {
    {"PositionalEncoding", bi_positional_encoding, "d2l.PositionalEncoding(num_hiddens, dropout, max_len=1000)",
     "Sinusoidal positional encoding: .P is (1, max_len, num_hiddens) with P[0, i, 2j] = sin(i / 10000^(2j/d)) and "
     "P[0, i, 2j+1] = cos(...); calling it on X (batch, steps, d) returns dropout(X + P[:, :steps, :]). For an odd "
     "num_hiddens the last column is a sine (the book's code fails there).", "§11.6.3", 0, "d2l"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

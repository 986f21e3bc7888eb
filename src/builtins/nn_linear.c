/* nn_linear.c - nn.Dropout and nn.Linear/LazyLinear as the book's attention code uses them (§11.3, §11.5):
 * dropout on the weights in training mode only, y = x Wᵀ + b with PyTorch's default init, the shape checks of
 * F.linear, and the NonDynamicallyQuantizableLinear out_proj of nn.MultiheadAttention. */
#include "d2l_attention_internal.h"
#include "nn_layers_internal.h"
#include "torch_more_internal.h"
#include "interp.h"
#include <math.h>

static double attr_num(Value *obj, const char *name, double dflt) {
    Value *v = val_attr_get(obj, name);
    return v && val_is_number(v) ? val_as_double(v) : dflt;
}

/* An integer attribute (int or bool), else dflt: never a double cast to int64 (undefined out of range). */
static int64_t attr_int(Value *obj, const char *name, int64_t dflt) {
    Value *v = val_attr_get(obj, name);
    if (v && v->kind == V_INT) return v->u.i;
    if (v && v->kind == V_BOOL) return v->u.b;
    return dflt;
}

/* ---- Dropout ---- */

/* The module's p when it is a probability (the student may have assigned anything to it), else -1. */
double dropout_p(Value *drop) {
    Value *v = val_attr_get(drop, "p");
    double p = v && val_is_number(v) ? val_as_double(v) : -1;
    return p >= 0 && p <= 1 ? p : -1;
}

/* Zeroes each element with probability p and scales the rest by 1/(1-p), in training mode only (a copy); a p that
 * is not a probability is refused (ten_fail) in either mode, as PyTorch does. attn's Dropout only. */
Tensor *attn_dropout_in(TenCtx *c, Rng *g, Value *drop, const Tensor *x) {
    double p = dropout_p(drop);
    if (p < 0) {
        /* PyTorch refuses it in training and eval mode alike */
        Value *v = val_attr_get(drop, "p");
        if (v && val_is_number(v)) ten_fail_in(c, "dropout probability has to be between 0 and 1, but got %g", val_as_double(v));
        else ten_fail_in(c, "Dropout: p must be a number between 0 and 1, not %s", v ? val_type_name(v) : "missing");
        return NULL;
    }
    if (!training(drop) || p <= 0) return ten_copy(x);
    Tensor *r = ten_cast(x, ten_is_float(x->dtype) ? x->dtype : DT_F32);      /* float64 stays float64 */
    if (!r) return NULL;
    float scale = p >= 1 ? 0.0f : (float)(1.0 / (1.0 - p));
    for (int64_t i = 0; i < r->numel; i++) ten_set(r, i, rng_uniform(g) < p ? 0.0 : ten_get(r, i) * scale);
    return r;
}

/* The dropout child of DotProductAttention or PositionalEncoding applied to x (a new tensor): attn's Dropout, a
 * module of the student's (called), or nothing when there is no module there. NULL with an error set. */
Tensor *attn_apply_dropout(Interp *I, Value *drop, Tensor *x) {
    if (!drop || !val_is_module(drop)) return ten_alias(x);
    if (drop->u.obj.cls == &DropoutClass) {
        Tensor *r = attn_dropout_in(I->run.ten, &I->run.rng, drop, x);
        if (!r) rt_tensor_error(I);
        return r;
    }
    return call_module(I, drop, "dropout", &x, 1);
}

static void dropout_extra(StrBuf *out, Value *self) {
    StrBuf p;
    sb_init(&p);
    val_float_repr(&p, attr_num(self, "p", 0));
    Value *ip = val_attr_get(self, "inplace");
    sb_printf(out, "p=%s, inplace=%s", sb_str(&p), ip && ip->kind == V_BOOL && ip->u.b ? "True" : "False");
    sb_free(&p);
}

/* The module's forward: F.dropout(input, p, training, inplace) as PyTorch's. The input itself in eval mode or with
 * p == 0; with inplace=True in training mode, F.dropout's inplace=True (the input written and returned). */
static Value *dropout_call(Interp *I, Value *self, Args *a) {
    Value *xv;
    if (!args_bind_call(I, a, &bi_forward_input, val_type_name(self), &xv, 1)) return NULL;
    if (xv->kind != V_TENSOR) return rt_forward_not_tensor(I, a, xv, "dropout");
    Tensor *x = xv->u.t;
    double p = dropout_p(self);
    if (x && p >= 0 && (!training(self) || p <= 0)) return val_incref(xv);
    Value *ip = val_attr_get(self, "inplace");
    if (x && p >= 0 && ip && ip->kind == V_BOOL && ip->u.b) {
        const Builtin *f = builtins_find("dropout");           /* F.dropout(input, p, True, True) */
        Value *argv[4] = {xv, val_float(I->run.heap, p), val_bool(I->run.heap, true), val_bool(I->run.heap, true)};
        Args fa = {argv, 4, NULL, NULL, 0, "dropout", f};
        Value *r = f->fn(I, &fa);
        for (int i = 1; i < 4; i++) val_decref(argv[i]);
        return r;
    }
    if (x && p >= 0 && ten_is_float(x->dtype) && grad_recording(I, 1, &xv)) {
        if (!training(self) || p <= 0) return val_incref(xv);      /* the input itself, as PyTorch's eval mode */
        /* x * noise (MulBackward0), the noise drawn as attn_dropout_in draws it */
        Tensor *noise = ten_new_in(I->run.ten, x->dtype, x->ndim, x->shape);
        if (!noise) return rt_tensor_error(I);
        float scale = p >= 1 ? 0.0f : (float)(1.0 / (1.0 - p));
        for (int64_t i = 0; i < noise->numel; i++) ten_set(noise, i, rng_uniform(&I->run.rng) < p ? 0.0 : scale);
        AgVal y = ag_dropout(&I->run.ag, arg_ag(xv), noise);
        ten_free(noise);
        return ret_ag(I, y);
    }
    return x ? rt_tensor_result(I, attn_dropout_in(I->run.ten, &I->run.rng, self, x)) : NULL;
}

const ObjClass DropoutClass = {.name = "Dropout", .call = dropout_call, .is_module = true, .extra_repr = dropout_extra};

/* An nn.Dropout of probability pv (NULL: 0), in place when inplace (NULL: False). NULL with the error set. */
Value *make_dropout(Interp *I, Value *pv, Value *inplace) {
    double p = 0;
    bool in = false;
    if (pv && !arg_double(I, pv, "dropout", &p)) return NULL;
    if (inplace && !arg_bool(I, inplace, "inplace", &in)) return NULL;
    if (p < 0 || p > 1) return rt_raise(I, "ValueError", "dropout probability has to be between 0 and 1, but got %g", p);
    Value *d = val_object(I->run.heap, &DropoutClass);
    val_attr_set(d, "p", val_float(I->run.heap, p));
    val_attr_set(d, "training", val_bool(I->run.heap, true));
    val_attr_set(d, "inplace", val_bool(I->run.heap, in));
    return d;
}

static Value *bi_dropout(Interp *I, Args *a) {
    Value *p_[2];                               /* p, inplace */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *pv = p_[0];
    Value *dflt = val_float(I->run.heap, 0.5);
    Value *d = make_dropout(I, pv ? pv : dflt, p_[1]);
    val_decref(dflt);
    return d;
}

/* ---- Linear / LazyLinear: y = x Wᵀ + b, W of shape (out, in) ---- */

/* PyTorch's default: kaiming_uniform_(a=sqrt(5)) gives U(-1/sqrt(in), 1/sqrt(in)); the bias too. A LazyLinear
 * becomes a Linear here, as PyTorch's does after its first input. False, with the error set and lin unchanged, when
 * the weight is past the tensor limits (nn.Linear(10**5, 10**5)). */
static bool linear_init(Interp *I, Value *lin, int64_t in, int64_t out) {
    Rng *g = &I->run.rng;
    int64_t sh[2] = {out, in};
    double bound = in > 0 ? 1.0 / sqrt((double)in) : 0;
    Value *hb = val_attr_get(lin, "has_bias");
    Tensor *w = ten_uniform_in(I->run.ten, g, DT_F32, 2, sh, -bound, bound), *b = NULL;
    if (w && hb && hb->kind == V_BOOL && hb->u.b && !(b = ten_uniform_in(I->run.ten, g, DT_F32, 1, &out, -bound, bound))) { ten_free(w); w = NULL; }
    if (!w) { rt_tensor_error(I); return false; }
    val_attr_set(lin, "in_features", val_int(I->run.heap, in));
    val_attr_set(lin, "weight", parameter(I, w));
    if (b) val_attr_set(lin, "bias", parameter(I, b));
    lin->u.obj.cls = &LinearClass;
    return true;
}

/* F.linear(x, W, b)'s checks as PyTorch 1.13 makes them (addmm on x folded to (rows, in); rows -1: a 1-D x, which
 * PyTorch multiplies as a vector), given the shapes: W (wnd sizes wsh) a matrix (out, in), b (bnd sizes bsh; bnd -1:
 * no bias) (out,) or one value. false with PyTorch's message. */
bool attn_linear_shapes_ok(Interp *I, int64_t rows, int64_t in, int wnd, const int64_t *wsh, int bnd, const int64_t *bsh) {
    if (wnd > 2) { rt_raise(I, "RuntimeError", "t() expects a tensor with <= 2 dimensions, but self is %dD", wnd); return false; }
    if (wnd < 2) { rt_raise(I, "RuntimeError", "mat2 must be a matrix, got %d-D tensor", wnd); return false; }
    int64_t out = wsh[0], bn = 1;
    if (wsh[1] != in) {             /* PyTorch multiplies by W.t(): (in_w x out) */
        rt_raise(I, "RuntimeError", "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)", (long long)(rows < 0 ? 1 : rows),
                 (long long)in, (long long)wsh[1], (long long)out);
        return false;
    }
    for (int i = 0; i < bnd; i++) bn *= bsh[i];
    if (bnd < 0 || bn == 1 || (bnd == 1 && bsh[0] == out)) return true;
    if (bnd == 1 && rows < 0)
        rt_raise(I, "RuntimeError", "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension 0",
                 (long long)out, (long long)bsh[0]);
    else if (bnd == 1)
        rt_raise(I, "RuntimeError", "The expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton dimension 1.  "
                    "Target sizes: [%lld, %lld].  Tensor sizes: [%lld]", (long long)out, (long long)bsh[0], (long long)rows,
                 (long long)out, (long long)bsh[0]);
    else {
        char s[128];
        ten_shape_str(bsh, bnd, s, sizeof s);
        rt_error(I, "Linear: attn adds a bias of shape (out_features,) = (%lld,); this one has shape %s", (long long)out, s);
    }
    return false;
}

/* What attn_linear_forward checks before its product: *Wout and *bout (borrowed from lin; *bout NULL without a bias)
 * for x, or false with the error set. A LazyLinear takes its weight at its first input; a Linear whose weight a
 * student set to something else than a tensor is PyTorch's TypeError (it is not drawn again); weights of another
 * shape are PyTorch's errors (attn_linear_shapes_ok). */
static bool linear_prepare(Interp *I, Value *lin, const Tensor *x, Tensor **Wout, Tensor **bout) {
    if (x->ndim < 1) { rt_raise(I, "RuntimeError", "both arguments to matmul need to be at least 1D, but they are 0D and 2D"); return false; }
    int64_t in = x->shape[x->ndim - 1];
    Tensor *W = attr_tensor(lin, "weight");
    if (!W && lin->u.obj.cls != &LazyLinearClass) {
        Value *wv = val_attr_get(lin, "weight");
        rt_raise(I, "TypeError", "linear(): argument 'weight' (position 2) must be Tensor, not %s", wv ? val_type_name(wv) : "NoneType");
        return false;
    }
    if (!W) {
        int64_t out = attr_int(lin, "out_features", -1);
        if (out < 0 || out > 1 << 20) {
            rt_error(I, "Linear: out_features must be an integer between 0 and 1048576");
            return false;
        }
        if (!linear_init(I, lin, in, out)) return false;
        W = attr_tensor(lin, "weight");
    }
    if (!W) { rt_error(I, "Linear: could not create the weight"); return false; }
    Tensor *b = attr_tensor(lin, "bias");
    if (W->dtype != DT_F32 || (b && b->dtype != DT_F32)) {
        rt_error(I, "Linear: weight and bias must be float32 tensors");
        return false;
    }
    int64_t rows = 1;               /* rows: the leading dimensions (in may be 0, as PyTorch allows) */
    for (int d = 0; d < x->ndim - 1; d++) rows *= x->shape[d];
    if (!attn_linear_shapes_ok(I, x->ndim == 1 ? -1 : rows, in, W->ndim, W->shape, b ? b->ndim : -1, b ? b->shape : NULL)) return false;
    if (x->dtype != W->dtype) {     /* PyTorch multiplies equal dtypes only */
        rt_raise(I, "RuntimeError", "expected scalar type %s but found Float", x->dtype == DT_F64 ? "Double" : x->dtype == DT_I64 ? "Long" : "Bool");
        return false;
    }
    *Wout = W;
    *bout = b;
    return true;
}

/* x (..., in) -> (..., out) by lin's weight and bias (linear_prepare's checks first). NULL with the error set (out of
 * memory: ten_error, as the callers expect). */
Tensor *attn_linear_forward(Interp *I, Value *lin, const Tensor *x) {
    Tensor *W, *b;
    if (!linear_prepare(I, lin, x, &W, &b)) return NULL;
    return ten_linear(x, W, b);
}

static Value *linear_call(Interp *I, Value *self, Args *a) {
    Value *xv;
    if (!args_bind_call(I, a, &bi_forward_input, val_type_name(self), &xv, 1)) return NULL;
    if (xv->kind != V_TENSOR) return rt_forward_not_tensor(I, a, xv, "linear");
    Tensor *x = xv->u.t;
    Tensor *W, *bias;
    if (!linear_prepare(I, self, x, &W, &bias)) return NULL;
    Value *xwb[3] = {arg(a, 0, "input"), val_attr_get(self, "weight"), val_attr_get(self, "bias")};
    if (xwb[0] && xwb[0]->kind == V_TENSOR && xwb[1] && xwb[1]->kind == V_TENSOR && grad_recording(I, 3, xwb)) {
        /* recorded (AddmmBackward0 ...): linear_prepare checked the shapes and made a lazy weight; autograd's forward
         * computes the product once, with ten_linear's digits */
        AgVal b = xwb[2] && xwb[2]->kind == V_TENSOR ? arg_ag(xwb[2]) : (AgVal){NULL, NULL};
        return ret_ag(I, ag_linear(&I->run.ag, arg_ag(xwb[0]), arg_ag(xwb[1]), b));
    }
    return rt_tensor_result(I, ten_linear(x, W, bias));
}

static void linear_extra(StrBuf *out, Value *self) {
    Value *hb = val_attr_get(self, "has_bias");
    sb_printf(out, "in_features=%lld, out_features=%lld, bias=%s", (long long)attr_int(self, "in_features", 0),
              (long long)attr_int(self, "out_features", 0), hb && hb->kind == V_BOOL && hb->u.b ? "True" : "False");
}

const ObjClass LinearClass = {.name = "Linear", .call = linear_call, .is_module = true, .extra_repr = linear_extra};
const ObjClass LazyLinearClass = {.name = "LazyLinear", .call = linear_call, .is_module = true, .extra_repr = linear_extra};

/* A Linear (in, out), or a LazyLinear (out) whose in_features its first input sets. Either size may be 0 (an empty
 * weight; the output is the bias, or empty), as in PyTorch; a negative one is PyTorch's error. */
Value *make_linear(Interp *I, int64_t in, int64_t out, bool bias, bool lazy) {
    if (out < 0 || (!lazy && in < 0))
        return rt_error(I, "Trying to create tensor with negative dimension %lld: [%lld, %lld]", (long long)(out < 0 ? out : in), (long long)out, (long long)in);
    if (out > 1 << 20) return rt_error(I, "Linear: out_features must be between 0 and 1048576, got %lld", (long long)out);
    Value *l = val_object(I->run.heap, lazy ? &LazyLinearClass : &LinearClass);
    val_attr_set(l, "training", val_bool(I->run.heap, true));
    val_attr_set(l, "out_features", val_int(I->run.heap, out));
    val_attr_set(l, "in_features", val_int(I->run.heap, in));
    val_attr_set(l, "has_bias", val_bool(I->run.heap, bias));
    val_attr_set(l, "weight", val_none());
    val_attr_set(l, "bias", val_none());
    if (!lazy && !linear_init(I, l, in, out)) { val_decref(l); return NULL; }
    return l;
}

/* nn.MultiheadAttention's out_proj: a Linear(E, E) that PyTorch names NonDynamicallyQuantizableLinear. */
static const ObjClass OutProjClass = {.name = "NonDynamicallyQuantizableLinear", .call = linear_call, .is_module = true, .extra_repr = linear_extra};

Value *attn_out_proj(Interp *I, int64_t E, bool bias) {
    Value *l = make_linear(I, E, E, bias, false);
    if (l) l->u.obj.cls = &OutProjClass;
    return l;
}

/* nn.Linear(in_features, out_features, bias=True, device=None, dtype=None) and nn.LazyLinear(out_features, bias=True,
 * device=None, dtype=None): PyTorch's factory arguments are taken for the CPU and float32 (what attn makes); more
 * positional arguments are PyTorch's TypeError, counted as Python counts them (self included). */
static Value *bi_linear(Interp *I, Args *a) {
    bool lazy = a->fn->tag == 1;
    Value *p[5];                                 /* [in_features,] out_features, bias, device, dtype */
    if (!args_bind(I, a, p, 5)) return NULL;
    int most = lazy ? 4 : 5;
    Value *dev = p[most - 2], *dtv = p[most - 1];
    if (dev && !arg_device_cpu(I, dev)) return NULL;
    if (dtv && dtv->kind != V_NONE && !(dtv->kind == V_DTYPE && dtv->u.dtype == DT_F32))
        return rt_error(I, "attn's nn.%s makes float32 weights: dtype=%s is not supported (leave dtype out)",
                        lazy ? "LazyLinear" : "Linear", dtv->kind == V_DTYPE ? ten_dtype_name(dtv->u.dtype) : val_type_name(dtv));
    int64_t in = 0, out;
    Value *iv = lazy ? NULL : p[0], *ov = p[lazy ? 0 : 1], *bv = p[lazy ? 1 : 2];
    if (iv && !arg_int(I, iv, "in_features", &in)) return NULL;
    if (!arg_int(I, ov, "out_features", &out)) return NULL;
    if (!lazy && in > 1 << 20) return rt_error(I, "Linear: in_features must be between 0 and 1048576, got %lld", (long long)in);
    bool bias = true;
    if (bv && !arg_bool(I, bv, "bias", &bias)) return NULL;
    return make_linear(I, in, out, bias, lazy);
}

const Builtin bi_nn_linear[] = {
    {"Dropout", bi_dropout, "nn.Dropout(p=0.5, inplace=False)", "Zeroes elements with probability p and scales the rest by 1/(1-p), in training mode only (into the input itself with inplace=True).", "§5.6", 0, "nn"},
    {"Linear", bi_linear, "nn.Linear(in_features, out_features, bias=True, device=None, dtype=None)", "y = x Wᵀ + b, with PyTorch's default initialisation.", "§3.5", 0, "nn"},
    {"LazyLinear", bi_linear, "nn.LazyLinear(out_features, bias=True, device=None, dtype=None)", "A Linear layer whose in_features is set by its first input.", "§6.4", 1, "nn"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

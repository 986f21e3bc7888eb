/* nn_losses.c - the losses training code computes (recorded for backward where autograd has them:
 * ag_cross_entropy, ag_mse_loss): F.cross_entropy and nn.CrossEntropyLoss (class indices, with weight, ignore_index, label_smoothing and reduction, or class
 * probabilities), F.mse_loss and nn.MSELoss. Semantics, checks and messages are PyTorch 1.13's
 * (aten/src/ATen/native/LossNLL.cpp: cross_entropy_loss, nll_loss_nd, nll_loss_forward, nll_loss2d; Loss.cpp:
 * mse_loss). The log-probabilities come from attn's log_softmax kernel (the max subtracted, a double sum of exps);
 * the sums over the batch are in double, the result rounded once to the input's dtype. */
#include "builtins_internal.h"
#include "interp.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef enum { RED_NONE_, RED_MEAN_, RED_SUM_ } Reduction;
_Static_assert((int)RED_NONE_ == (int)AG_REDUCE_NONE && (int)RED_MEAN_ == (int)AG_REDUCE_MEAN && (int)RED_SUM_ == (int)AG_REDUCE_SUM,
               "a Reduction is passed to autograd as an AgReduction");

/* reduction= (and the legacy size_average= / reduce=, as torch.nn._reduction.legacy_get_string): false with
 * PyTorch's ValueError for a value it does not know. */
static bool get_reduction(Interp *I, Value *rv, Value *size_average, Value *reduce, Reduction *out) {
    bool sa_none = !size_average || size_average->kind == V_NONE, r_none = !reduce || reduce->kind == V_NONE;
    if (!sa_none || !r_none) {
        bool sa = true, rd = true, ok = true;
        if (!sa_none) sa = val_truthy(size_average, &ok);
        if (ok && !r_none) rd = val_truthy(reduce, &ok);
        if (!ok) { rt_error(I, "Boolean value of Tensor with more than one value is ambiguous"); return false; }
        *out = !rd ? RED_NONE_ : sa ? RED_MEAN_ : RED_SUM_;
        return true;
    }
    const char *s = rv && rv->kind == V_STR ? rv->u.str.s : rv ? NULL : "mean";
    if (s && !strcmp(s, "none")) *out = RED_NONE_;
    else if (s && !strcmp(s, "mean")) *out = RED_MEAN_;
    else if (s && !strcmp(s, "sum")) *out = RED_SUM_;
    else {
        StrBuf b;
        sb_init(&b);
        if (val_str_of(I, &b, rv)) rt_raise(I, "ValueError", "%s is not a valid value for reduction", sb_str(&b));
        sb_free(&b);
        return false;
    }
    return true;
}

/* A tensor argument of the C++ op `op` at 1-based position pos (optional: None allowed, *out NULL); false with
 * PyTorch's TypeError. */
static bool loss_tensor(Interp *I, const char *op, Value *v, const char *name, int pos, bool optional, const Tensor **out) {
    *out = NULL;
    if (v && v->kind == V_TENSOR) { *out = v->u.t; return true; }
    if (optional && (!v || v->kind == V_NONE)) return true;
    if (!v) { rt_raise(I, "TypeError", "%s() missing 1 required positional argument: '%s'", op, name); return false; }
    rt_raise(I, "TypeError", "%s(): argument '%s' (position %d) must be Tensor, not %s", op, name, pos, val_type_name(v));
    return false;
}

static Value *tensor_or_error(Interp *I, Tensor *t) { return t ? val_tensor(I->run.heap, t) : rt_tensor_error(I); }

/* "[2, 3]": a shape as PyTorch's messages print sizes. */
static void sizes_str(const Tensor *t, char *out, size_t n) {
    size_t k = (size_t)snprintf(out, n, "[");
    for (int i = 0; i < t->ndim && k < n; i++) k += (size_t)snprintf(out + k, n - k, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    if (k < n) snprintf(out + k, n - k, "]");
}

/* The options of one cross-entropy call. */
typedef struct CEOpts {
    const Tensor *weight;        /* (C,) or NULL */
    int64_t ignore_index;
    double smoothing;
    Reduction red;
} CEOpts;

/* The shapes nll_loss_nd accepts for log-probabilities of input's shape (N, C, d1...) or (C,), with PyTorch's
 * checks in its order; *C, *N (batch), *S (the product of d1...) filled. false with the error set. */
static bool nll_shapes_ok(Interp *I, const Tensor *in, const Tensor *tg, int64_t *N, int64_t *C, int64_t *S) {
    char a[128], b[128];
    sizes_str(in, a, sizeof a);
    sizes_str(tg, b, sizeof b);
    if (in->ndim < 1) { rt_error(I, "Expected 1 or more dimensions (got %d)", in->ndim); return false; }
    int64_t tb = tg->ndim ? tg->shape[0] : 0;
    if (in->ndim != 1 && in->shape[0] != tb) {
        rt_raise(I, "ValueError", "Expected input batch_size (%lld) to match target batch_size (%lld).", (long long)in->shape[0], (long long)tb);
        return false;
    }
    if (in->ndim <= 2) {
        if (tg->ndim > 1) { rt_error(I, "0D or 1D target tensor expected, multi-target not supported"); return false; }
        bool no_batch = in->ndim == 1 && tg->ndim == 0;
        if (!no_batch && in->shape[0] != tg->shape[0]) { rt_error(I, "size mismatch (got input: %s, target: %s)", a, b); return false; }
        *N = in->ndim == 1 ? 1 : in->shape[0];
        *C = in->shape[in->ndim == 1 ? 0 : 1];
        *S = 1;
        return true;
    }
    if (in->ndim == 4) {
        if (tg->ndim != 3) { rt_error(I, "only batches of spatial targets supported (3D tensors) but got targets of dimension: %d", tg->ndim); return false; }
        if (tg->shape[1] != in->shape[2] || tg->shape[2] != in->shape[3]) {
            rt_error(I, "size mismatch (got input: %s , target: %s", a, b);
            return false;
        }
    } else {
        bool same = tg->ndim == in->ndim - 1;
        for (int i = 1; same && i < tg->ndim; i++) same = tg->shape[i] == in->shape[i + 1];
        if (!same) {
            char want[128];
            size_t k = (size_t)snprintf(want, sizeof want, "[%lld", (long long)in->shape[0]);
            for (int i = 2; i < in->ndim && k < sizeof want; i++) k += (size_t)snprintf(want + k, sizeof want - k, ", %lld", (long long)in->shape[i]);
            if (k < sizeof want) snprintf(want + k, sizeof want - k, "]");
            rt_error(I, "Expected target size %s, got %s", want, b);
            return false;
        }
    }
    *N = in->shape[0];
    *C = in->shape[1];
    *S = 1;
    for (int i = 2; i < in->ndim; i++) *S *= in->shape[i];
    return true;
}

/* The weight's check (numel C, the input's dtype); prefix "cross_entropy: " for probabilities. */
static bool weight_ok(Interp *I, const Tensor *w, const Tensor *in, int64_t C, const char *prefix) {
    if (!w) return true;
    if (w->numel != C) {
        char s[128];
        sizes_str(w, s, sizeof s);
        rt_error(I, "%sweight tensor should be defined either for all %lld classes or no classes but got weight tensor of shape: %s",
                 prefix, (long long)C, s);
        return false;
    }
    if (w->dtype != in->dtype) {
        rt_error(I, "expected scalar type %s but found %s", ten_dtype_word(in->dtype), ten_dtype_word(w->dtype));
        return false;
    }
    return true;
}

static double weight_of(const Tensor *w, int64_t c) { return w ? ten_get(w, c) : 1.0; }

/* Class indices: target (N, d1...) int64 against lp, the log-probabilities (N, C, d1...) or (C,), contiguous.
 * (lp float64 for a float32 input; the result is of dtype dt, the input's). Per element i: -w[t] lp[t] (0 where t is ignore_index), with smoothing (1-e) times that plus e/C times
 * -sum_c w[c] lp[c]; mean divides the nll part by the sum of w[t] and the smooth part as PyTorch's
 * cross_entropy_loss_label_smoothing does. A new tensor of the input's dtype, or NULL with the error set. */
static Tensor *ce_indices(Interp *I, const Tensor *lp, const Tensor *tg, DType dt, int64_t N, int64_t C, int64_t S, const CEOpts *o) {
    if (tg->dtype != DT_I64) {
        rt_error(I, "expected scalar type Long but found %s", ten_dtype_word(tg->dtype));
        return NULL;
    }
    Tensor *out = o->red == RED_NONE_ ? ten_new_in(I->run.ten, dt, tg->ndim, tg->shape) : ten_new_in(I->run.ten, dt, 0, NULL);
    if (!out) { rt_tensor_error(I); return NULL; }
    double nll = 0, smooth = 0, wsum = 0;
    int64_t kept = 0;
    for (int64_t i = 0; i < N * S; i++) {
        int64_t t = ten_get_i64(tg, i), base = (i / S) * C * S + i % S;
        double li = 0, si = 0;
        if (t != o->ignore_index) {
            if (t < 0 || t >= C) {
                ten_free(out);
                rt_raise(I, "IndexError", "Target %lld is out of bounds.", (long long)t);
                return NULL;
            }
            double w = weight_of(o->weight, t);
            li = -w * ten_get(lp, base + t * S);
            wsum += w;
            kept++;
            if (o->smoothing > 0)
                for (int64_t c = 0; c < C; c++) si -= weight_of(o->weight, c) * ten_get(lp, base + c * S);
        }
        if (o->red == RED_NONE_) ten_set(out, i, (1 - (o->smoothing > 0 ? o->smoothing : 0)) * li + (o->smoothing > 0 ? o->smoothing / (double)C * si : 0));
        nll += li;
        smooth += si;
    }
    if (o->red != RED_NONE_) {
        double e = o->smoothing > 0 ? o->smoothing : 0;
        double v = o->red == RED_SUM_ ? nll : nll / wsum;
        double s = o->red == RED_SUM_ ? smooth : smooth / (o->weight ? wsum : (double)kept);
        ten_set(out, 0, e > 0 ? (1 - e) * v + e / (double)C * s : v);
    }
    return out;
}

/* Class probabilities: target of the input's shape, float; loss per element -sum_c w[c] lp[c] p[c] (p smoothed
 * to p(1-e) + e/C), mean over the N*d1*... elements. */
static Tensor *ce_probs(Interp *I, const Tensor *lp, const Tensor *tg, const Tensor *in, int64_t C, const CEOpts *o) {
    int cd = in->ndim == 1 ? 0 : 1;
    int64_t S = 1, N = in->ndim == 1 ? 1 : in->shape[0];
    for (int i = 2; i < in->ndim; i++) S *= in->shape[i];
    int64_t shape[TEN_MAX_DIMS];
    int nd = 0;
    for (int i = 0; i < in->ndim; i++) if (i != cd) shape[nd++] = in->shape[i];
    DType dt = ten_promote(in->dtype, tg->dtype);
    Tensor *out = o->red == RED_NONE_ ? ten_new_in(I->run.ten, dt, nd, shape) : ten_new_in(I->run.ten, dt, 0, NULL);
    if (!out) { rt_tensor_error(I); return NULL; }
    double e = o->smoothing > 0 ? o->smoothing : 0, total = 0;
    for (int64_t i = 0; i < N * S; i++) {
        int64_t base = (i / S) * C * S + i % S;
        double li = 0;
        for (int64_t c = 0; c < C; c++) {
            double p = ten_get(tg, base + c * S);
            if (e > 0) p = p * (1 - e) + e / (double)C;
            li -= weight_of(o->weight, c) * ten_get(lp, base + c * S) * p;
        }
        if (o->red == RED_NONE_) ten_set(out, i, li);
        total += li;
    }
    if (o->red != RED_NONE_) ten_set(out, 0, o->red == RED_SUM_ ? total : total / (double)(N * S));
    return out;
}

/* F.cross_entropy recorded for backward (NllLossBackward0 <- LogSoftmaxBackward0): class indices without weight or
 * label smoothing. NULL without an error when autograd does not take this call (it then runs without history, and
 * ag_after_call refuses its detached result when the input requires grad). */
static Value *cross_entropy_ag(Interp *I, Value *iv, const Tensor *tg, const CEOpts *o) {
    if (iv->kind != V_TENSOR || !grad_recording(I, 1, &iv) || o->weight || o->smoothing != 0 || tg->dtype != DT_I64) return NULL;
    return ret_ag(I, ag_cross_entropy(&I->run.ag, arg_ag(iv), tg, o->ignore_index, (AgReduction)o->red));
}

/* F.cross_entropy's work once its arguments are read: PyTorch's cross_entropy_loss. */
static Value *cross_entropy(Interp *I, const Tensor *in, const Tensor *tg, const CEOpts *o) {
    bool probs = ten_same_shape(in, tg);
    if (probs) {
        if (!ten_is_float(tg->dtype))
            return rt_error(I, "Expected floating point type for target with class probabilities, got %s", ten_dtype_word(tg->dtype));
        if (o->ignore_index >= 0) return rt_error(I, "ignore_index is not supported for floating point target");
    }
    if (o->smoothing > 0 && o->smoothing > 1) {
        StrBuf b;
        sb_init(&b);
        val_float_repr(&b, o->smoothing);
        const char *s = sb_str(&b);
        size_t n = strlen(s);
        if (n > 2 && !strcmp(s + n - 2, ".0")) b.len -= 2, b.s[b.len] = 0;      /* C++ prints 2.0 as 2 */
        rt_error(I, "label_smoothing must be between 0.0 and 1.0. Got: %s", sb_str(&b));
        sb_free(&b);
        return NULL;
    }
    if (in->ndim == 0 && probs) return rt_raise(I, "IndexError", "Dimension specified as 1 but tensor has no dimensions");
    /* float32 input: its log-probabilities in float64, so the loss is rounded once (not once per element) */
    Tensor *wide = in->dtype == DT_F32 ? ten_cast(in, DT_F64) : NULL;
    if (in->dtype == DT_F32 && !wide) return rt_tensor_error(I);
    Tensor *lp = ten_log_softmax(wide ? wide : in, in->ndim == 1 ? 0 : 1);
    ten_free(wide);
    if (!lp) return ten_error_kind(I->run.ten) == TEN_ERR_INTERRUPTED ? rt_tensor_error(I) : rt_tensor_index_error(I);
    Tensor *r = NULL;
    int64_t N, C = in->shape[in->ndim == 1 ? 0 : 1], S;
    if (probs) {
        if (weight_ok(I, o->weight, in, C, "cross_entropy: ")) r = ce_probs(I, lp, tg, in, C, o);
    } else if (nll_shapes_ok(I, in, tg, &N, &C, &S) && weight_ok(I, o->weight, in, C, "")) {
        r = ce_indices(I, lp, tg, in->dtype, N, C, S, o);
    }
    ten_free(lp);
    return r ? val_tensor(I->run.heap, r) : NULL;
}

/* ignore_index= and label_smoothing= as the C++ binding reads them (an int, not a bool; a number). */
static bool ce_options(Interp *I, Value *w, Value *ii, Value *ls, CEOpts *o) {
    o->ignore_index = -100;
    o->smoothing = 0;
    if (!loss_tensor(I, "cross_entropy_loss", w, "weight", 3, true, &o->weight)) return false;
    if (ii && ii->kind != V_INT) {
        rt_raise(I, "TypeError", "cross_entropy_loss(): argument 'ignore_index' (position 5) must be int, not %s", val_type_name(ii));
        return false;
    }
    if (ii) o->ignore_index = ii->u.i;
    if (ls && !val_is_number(ls)) {
        rt_raise(I, "TypeError", "cross_entropy_loss(): argument 'label_smoothing' (position 6) must be float, not %s", val_type_name(ls));
        return false;
    }
    if (ls) o->smoothing = val_as_double(ls);
    return true;
}

/* F.cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean',
 * label_smoothing=0.0) */
static Value *bi_cross_entropy(Interp *I, Args *a) {
    Value *p_[8];                               /* input, target, weight, size_average, ignore_index, reduce, reduction, label_smoothing */
    if (!args_bind(I, a, p_, 8)) return NULL;
    Value *iv = p_[0], *tv = p_[1];
    if (!iv) return rt_raise(I, "TypeError", "cross_entropy() missing 2 required positional arguments: 'input' and 'target'");
    if (!tv) return rt_raise(I, "TypeError", "cross_entropy() missing 1 required positional argument: 'target'");
    CEOpts o;
    if (!get_reduction(I, p_[6], p_[3], p_[5], &o.red)) return NULL;
    const Tensor *in, *tg;
    if (!loss_tensor(I, "cross_entropy_loss", iv, "input", 1, false, &in) || !loss_tensor(I, "cross_entropy_loss", tv, "target", 2, false, &tg) ||
        !ce_options(I, p_[2], p_[4], p_[7], &o))
        return NULL;
    Value *g = cross_entropy_ag(I, iv, tg, &o);
    if (g || interp_failed(I)) return g;
    return cross_entropy(I, in, tg, &o);
}

/* F.mse_loss(input, target, size_average=None, reduce=None, reduction='mean'): mean (or sum) of (input - target)**2
 * over the broadcast shape, PyTorch's warning on stderr when the shapes differ. */
static Value *mse_loss(Interp *I, Value *iv, Value *tv, Value *size_average, Value *reduce, Value *reduction);

static Value *bi_mse_loss(Interp *I, Args *a) {
    Value *p[5];                                 /* input, target, size_average, reduce, reduction */
    if (!args_bind(I, a, p, 5)) return NULL;
    return mse_loss(I, p[0], p[1], p[2], p[3], p[4]);
}

/* F.mse_loss's work, its arguments bound (NULL: absent); nn.MSELoss's forward calls it too. */
static Value *mse_loss(Interp *I, Value *iv, Value *tv, Value *size_average, Value *reduce, Value *reduction) {
    if (tv->kind != V_TENSOR) return arg_not_tensor(I, NULL, tv, "size", ARG_RECEIVER);
    if (iv->kind != V_TENSOR) return arg_not_tensor(I, NULL, iv, "size", ARG_RECEIVER);
    Reduction red;
    const Tensor *in = iv->u.t, *tg = tv->u.t;
    if (!ten_same_shape(in, tg)) {
        StrBuf s1, s2;       /* torch.Size([2, 1]), as PyTorch's message shows a size */
        sb_init(&s1);
        sb_init(&s2);
        for (int i = 0; i < tg->ndim; i++) sb_printf(&s1, "%s%lld", i ? ", " : "", (long long)tg->shape[i]);
        for (int i = 0; i < in->ndim; i++) sb_printf(&s2, "%s%lld", i ? ", " : "", (long long)in->shape[i]);
        interp_warn(I, NULL, "warning: Using a target size (torch.Size([%s])) that is different to the input size (torch.Size([%s])). "
                    "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
                    sb_str(&s1), sb_str(&s2));
        sb_free(&s1);
        sb_free(&s2);
    }
    if (!get_reduction(I, reduction, size_average, reduce, &red)) return NULL;
    Value *xy[2] = {iv, tv};
    if (grad_recording(I, 2, xy)) return ret_ag(I, ag_mse_loss(&I->run.ag, arg_ag(iv), arg_ag(tv), (AgReduction)red));
    DType dt = ten_promote(in->dtype, tg->dtype);
    int nmax = in->ndim > tg->ndim ? in->ndim : tg->ndim;
    for (int i = 1; i <= nmax; i++) {          /* broadcasting, with PyTorch's message */
        int64_t da = i <= in->ndim ? in->shape[in->ndim - i] : 1, db = i <= tg->ndim ? tg->shape[tg->ndim - i] : 1;
        if (da != db && da != 1 && db != 1)
            return rt_error(I, "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                            (long long)da, (long long)db, nmax - i);
    }
    if (!ten_is_float(dt)) return rt_error(I, "\"mse_cpu\" not implemented for '%s'", ten_dtype_word(dt));
    Tensor *d = ten_binary(OP_SUB, in, false, tg, false), *sq = d ? ten_binary(OP_MUL, d, false, d, false) : NULL;
    ten_free(d);
    if (!sq || red == RED_NONE_) return tensor_or_error(I, sq);
    Tensor *r = ten_reduce(red == RED_SUM_ ? RED_SUM : RED_MEAN, sq, true, 0, false);
    ten_free(sq);
    return tensor_or_error(I, r);
}

/* ---- the modules: nn.CrossEntropyLoss and nn.MSELoss keep their options and call the functions ---- */

/* The declaration of a loss module's forward, as PyTorch's forward(self, input, target). */
static const Builtin loss_forward = {"forward", NULL, "loss.forward(input, target)", "", "", 0, "loss"};

static Value *loss_forward_args(Interp *I, Value *self, Args *a, Value **in, Value **tg) {
    Value *p[2];
    if (!args_bind_call(I, a, &loss_forward, val_type_name(self), p, 2)) return NULL;
    *in = p[0];
    *tg = p[1];
    return self;
}

static Value *ce_call(Interp *I, Value *self, Args *a) {
    Value *iv, *tv;
    if (!loss_forward_args(I, self, a, &iv, &tv)) return NULL;
    CEOpts o;
    const Tensor *in, *tg;
    Value *w = val_attr_get(self, "weight");
    if (!get_reduction(I, val_attr_get(self, "reduction"), NULL, NULL, &o.red)) return NULL;
    if (!loss_tensor(I, "cross_entropy_loss", iv, "input", 1, false, &in) || !loss_tensor(I, "cross_entropy_loss", tv, "target", 2, false, &tg) ||
        !ce_options(I, w, val_attr_get(self, "ignore_index"), val_attr_get(self, "label_smoothing"), &o))
        return NULL;
    Value *g = cross_entropy_ag(I, iv, tg, &o);
    if (g || interp_failed(I)) return g;
    return cross_entropy(I, in, tg, &o);
}

static Value *mse_call(Interp *I, Value *self, Args *a) {
    Value *iv, *tv;
    if (!loss_forward_args(I, self, a, &iv, &tv)) return NULL;
    return mse_loss(I, iv, tv, NULL, NULL, val_attr_get(self, "reduction"));
}

static const ObjClass CrossEntropyLossClass = {.name = "CrossEntropyLoss", .call = ce_call, .is_module = true};
static const ObjClass MSELossClass = {.name = "MSELoss", .call = mse_call, .is_module = true};

static Value *new_loss(Interp *I, const ObjClass *c, Value *reduction) {
    Value *m = val_object(I->run.heap, c);
    val_attr_set(m, "training", val_bool(I->run.heap, true));
    val_attr_set(m, "reduction", reduction ? val_incref(reduction) : val_str(I->run.heap, "mean"));
    return m;
}

/* nn.CrossEntropyLoss(weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean',
 * label_smoothing=0.0): the options are kept as given and checked when it is called, as PyTorch does; weight is a
 * buffer (state_dict lists it). */
static Value *bi_cross_entropy_loss(Interp *I, Args *a) {
    Value *p_[6];                               /* weight, size_average, ignore_index, reduce, reduction, label_smoothing */
    if (!args_bind(I, a, p_, 6)) return NULL;
    Value *w = p_[0], *ii = p_[2], *ls = p_[5], *rv = p_[4];
    Value *sa = p_[1], *rd = p_[3], *red = NULL;
    if ((sa && sa->kind != V_NONE) || (rd && rd->kind != V_NONE)) {
        Reduction r;
        if (!get_reduction(I, NULL, sa, rd, &r)) return NULL;
        red = val_str(I->run.heap, r == RED_NONE_ ? "none" : r == RED_SUM_ ? "sum" : "mean");
    }
    Value *m = new_loss(I, &CrossEntropyLossClass, red ? red : rv);
    val_decref(red);
    if (w && w->kind == V_TENSOR) {
        Value *bufs = val_dict(I->run.heap);
        dict_set(bufs->u.dict, "weight", val_bool(I->run.heap, true));
        val_attr_set(m, "_buffers", bufs);
    }
    val_attr_set(m, "weight", w ? val_incref(w) : val_none());
    val_attr_set(m, "ignore_index", ii ? val_incref(ii) : val_int(I->run.heap, -100));
    val_attr_set(m, "label_smoothing", ls ? val_incref(ls) : val_float(I->run.heap, 0.0));
    return m;
}

/* nn.MSELoss(size_average=None, reduce=None, reduction='mean') */
static Value *bi_mse_loss_layer(Interp *I, Args *a) {
    Value *p_[3];                               /* size_average, reduce, reduction */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *sa = p_[0], *rd = p_[1], *red = NULL;
    if ((sa && sa->kind != V_NONE) || (rd && rd->kind != V_NONE)) {
        Reduction r;
        if (!get_reduction(I, NULL, sa, rd, &r)) return NULL;
        red = val_str(I->run.heap, r == RED_NONE_ ? "none" : r == RED_SUM_ ? "sum" : "mean");
    }
    Value *m = new_loss(I, &MSELossClass, red ? red : p_[2]);
    val_decref(red);
    return m;
}

const Builtin bi_nn_losses[] = {
    {"cross_entropy", bi_cross_entropy,
     "F.cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0)",
     "The classification loss: -log softmax(input)[target], averaged over the batch. input (N, C) scores (logits) "
     "for C classes, target (N,) class indices; or input (N, C, d1, ...) with target (N, d1, ...), e.g. a token per "
     "position; or target of input's shape holding class probabilities. Targets equal to ignore_index are left out "
     "(padding); reduction 'sum' adds, 'none' gives the loss of each element; label_smoothing e mixes e/C of every "
     "class into the target.", "§4.1", 0, "F"},
    {"mse_loss", bi_mse_loss, "F.mse_loss(input, target, size_average=None, reduce=None, reduction='mean')",
     "The mean of (input - target)**2 (reduction 'sum': the sum, 'none': each element): the squared error of "
     "regression. Give both the same shape (they broadcast, with PyTorch's warning).", "§3.1", 0, "F"},
    {"CrossEntropyLoss", bi_cross_entropy_loss,
     "nn.CrossEntropyLoss(weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0)",
     "The classification loss as a module: loss = nn.CrossEntropyLoss(); loss(Y_hat, y) is F.cross_entropy(Y_hat, y) "
     "with the options given here (help F.cross_entropy).", "§4.5", 0, "nn"},
    {"MSELoss", bi_mse_loss_layer, "nn.MSELoss(size_average=None, reduce=None, reduction='mean')",
     "The squared-error loss as a module: nn.MSELoss()(y_hat, y) is F.mse_loss(y_hat, y).", "§3.5", 0, "nn"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

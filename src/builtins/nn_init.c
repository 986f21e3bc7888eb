/* nn_init.c - torch.nn.init (nn.init.xavier_uniform_(W) ...): fill a tensor or parameter in place and return it, as
 * PyTorch 1.13's torch/nn/init.py does (its formulas, checks and messages). The random ones draw from the
 * session's generator (torch.manual_seed seeds it); attn's generator is not PyTorch's mt19937, so the numbers are
 * attn's own, with PyTorch's distributions and bounds:
 *   xavier_uniform_: U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out));  xavier_normal_: N(0, gain^2 * 2 / (fan_in + fan_out))
 *   kaiming_uniform_: U(-b, b), b = gain * sqrt(3 / fan);  kaiming_normal_: N(0, gain^2 / fan)
 * with fan_in = size(1) * receptive field, fan_out = size(0) * receptive field (the receptive field is the product of
 * the sizes after the first two). */
#include "builtins_internal.h"
#include "interp.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The tensor to fill: false with Python's AttributeError (what init.py's first tensor method call raises). */
static bool init_tensor(Interp *I, Value *v, const char *method, Tensor **out) {
    if (v->kind != V_TENSOR) { rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", val_type_name(v), method); return false; }
    *out = v->u.t;
    return true;
}

/* A float argument of tensor.uniform_/normal_ (PyTorch's binding message), default dflt when absent. */
static bool init_number(Interp *I, Value *v, const char *method, const char *name, int pos, double dflt, double *out) {
    *out = dflt;
    if (!v) return true;
    if (!val_is_number(v)) {
        rt_raise(I, "TypeError", "%s(): argument '%s' (position %d) must be float, not %s", method, name, pos, val_type_name(v));
        return false;
    }
    *out = val_as_double(v);
    return true;
}

/* Returns the tensor argument itself (the same object, as init.py returns it). */
static Value *same(Args *a) { return val_incref(arg(a, 0, "tensor")); }

/* Writes U(lo, hi) (normal: N(lo, hi^2)) drawn from the session's generator into t through its strides. */
static bool fill_random(Interp *I, Tensor *t, bool normal, double lo, double hi) {
    if (!ten_is_float(t->dtype)) {
        rt_error(I, "\"%s\" not implemented for '%s'", normal ? "normal_kernel_cpu" : "check_uniform_bounds", ten_dtype_word(t->dtype));
        return false;
    }
    double big = t->dtype == DT_F32 ? FLT_MAX : DBL_MAX;
    const char *word = t->dtype == DT_F32 ? "float" : "double";
    if (!normal && !(lo >= -big && lo <= big)) { rt_error(I, "from is out of bounds for %s", word); return false; }
    if (!normal && !(hi >= -big && hi <= big)) { rt_error(I, "to is out of bounds for %s", word); return false; }
    if (!normal && lo > hi) {
        rt_error(I, "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", lo, hi);
        return false;
    }
    if (normal && hi < 0) { rt_error(I, "normal expects std >= 0.0, but found std %g", hi); return false; }
    Rng *g = &I->run.rng;
    Tensor *r = normal ? ten_normal_in(I->run.ten, g, t->dtype, t->ndim, t->shape, lo, hi) : ten_uniform_in(I->run.ten, g, t->dtype, t->ndim, t->shape, lo, hi);
    bool ok = r && ten_copy_into(t, r) == 0;
    ten_free(r);
    if (!ok) rt_tensor_error(I);
    return ok;
}

/* nn.init.uniform_(tensor, a=0.0, b=1.0) and nn.init.normal_(tensor, mean=0.0, std=1.0) (tag 1) */
static Value *bi_init_uniform(Interp *I, Args *a) {
    bool normal = a->fn->tag == 1;
    Value *p[3];                                 /* tensor, a, b / tensor, mean, std */
    if (!args_bind(I, a, p, 3)) return NULL;
    Tensor *t;
    double lo, hi;
    const char *m = normal ? "normal_" : "uniform_";
    if (!init_tensor(I, p[0], m, &t) || !init_number(I, p[1], m, normal ? "mean" : "from", 1, 0.0, &lo) ||
        !init_number(I, p[2], m, normal ? "std" : "to", 2, 1.0, &hi) || !fill_random(I, t, normal, lo, hi))
        return NULL;
    return same(a);
}

/* Writes the value v into every element of t through its strides (cast to its dtype, as fill_ does; an expanded
 * view writes its shared elements more than once, all with v, as PyTorch allows). */
static void fill_value(Tensor *t, double v) {
    for (int64_t i = 0; i < t->numel; i++) ten_set(t, i, v);
}

/* nn.init.zeros_(tensor), ones_(tensor) (tag 1), constant_(tensor, val) (tag 2) */
static Value *bi_init_constant(Interp *I, Args *a) {
    int tag = a->fn->tag;
    Value *p[2];                                 /* tensor, val (constant_) */
    if (!args_bind(I, a, p, 2)) return NULL;
    Tensor *t;
    if (!init_tensor(I, p[0], tag == 2 ? "fill_" : tag == 1 ? "fill_" : "zero_", &t)) return NULL;
    double v = tag;
    if (tag == 2) {
        Value *val = p[1];
        if (val->kind == V_TENSOR && val->u.t->numel == 1) v = ten_get(val->u.t, 0);
        else if (!val_is_number(val))
            return rt_raise(I, "TypeError", "fill_() received an invalid combination of arguments - got (%s), but expected (Number value)", val_type_name(val));
        else v = val_as_double(val);
    }
    if (t->dtype == DT_I64 && !(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
        return rt_error(I, "value cannot be converted to type int64_t without overflow");
    fill_value(t, v);
    return same(a);
}

/* init.py's _calculate_fan_in_and_fan_out: false with its ValueError below 2 dims. */
static bool fans(Interp *I, const Tensor *t, double *fan_in, double *fan_out) {
    if (t->ndim < 2) {
        rt_raise(I, "ValueError", "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
        return false;
    }
    double rf = 1;
    for (int i = 2; i < t->ndim; i++) rf *= (double)t->shape[i];
    *fan_in = (double)t->shape[1] * rf;
    *fan_out = (double)t->shape[0] * rf;
    return true;
}

/* nn.init.calculate_gain(nonlinearity, param=None)'s value; false with its ValueError. */
static bool gain_of(Interp *I, Value *nl, Value *param, double *out) {
    static const char *const one[] = {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                                      "conv_transpose3d", "sigmoid", NULL};
    StrBuf b;
    sb_init(&b);
    val_str_quiet(I, &b, nl);
    const char *s = nl->kind == V_STR ? nl->u.str.s : "";
    bool ok = true;
    *out = 1;
    for (int i = 0; one[i]; i++) if (!strcmp(s, one[i])) goto done;
    if (!strcmp(s, "tanh")) *out = 5.0 / 3;
    else if (!strcmp(s, "relu")) *out = sqrt(2.0);
    else if (!strcmp(s, "selu")) *out = 3.0 / 4;
    else if (!strcmp(s, "leaky_relu")) {
        double slope = 0.01;
        if (param && param->kind != V_NONE) {
            if (param->kind == V_BOOL || !val_is_number(param)) {
                StrBuf p;
                sb_init(&p);
                if (val_str_of(I, &p, param)) rt_raise(I, "ValueError", "negative_slope %s not a valid number", sb_str(&p));
                sb_free(&p);
                ok = false;
                goto done;
            }
            slope = val_as_double(param);
        }
        *out = sqrt(2.0 / (1 + slope * slope));
    } else {
        rt_raise(I, "ValueError", "Unsupported nonlinearity %s", sb_str(&b));
        ok = false;
    }
done:
    sb_free(&b);
    return ok;
}

/* nn.init.calculate_gain(nonlinearity, param=None) */
static Value *bi_calculate_gain(Interp *I, Args *a) {
    Value *p_[2];                               /* nonlinearity, param */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *nl = p_[0];
    if (!nl) return rt_raise(I, "TypeError", "calculate_gain() missing 1 required positional argument: 'nonlinearity'");
    double g;
    if (!gain_of(I, nl, p_[1], &g)) return NULL;
    return g == 1 ? val_int(I->run.heap, 1) : val_float(I->run.heap, g);          /* init.py returns the int 1 for linear and sigmoid */
}

/* nn.init.xavier_uniform_(tensor, gain=1.0) and xavier_normal_ (tag 1) */
static Value *bi_init_xavier(Interp *I, Args *a) {
    Value *p_[2];                               /* tensor, gain */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *tv = p_[0], *gv = p_[1];
    if (!tv) return rt_raise(I, "TypeError", "%s() missing 1 required positional argument: 'tensor'", a->fname);
    if (tv->kind != V_TENSOR) return arg_not_tensor(I, a, tv, "dim", ARG_RECEIVER);
    double gain = 1, fi, fo;
    if (gv && !val_is_number(gv)) return rt_raise(I, "TypeError", "%s(): gain must be a number, not %s", a->fname, val_type_name(gv));
    if (gv) gain = val_as_double(gv);
    if (!fans(I, tv->u.t, &fi, &fo)) return NULL;
    double std = gain * sqrt(2.0 / (fi + fo));
    bool normal = a->fn->tag == 1;
    return fill_random(I, tv->u.t, normal, normal ? 0 : -sqrt(3.0) * std, normal ? std : sqrt(3.0) * std) ? same(a) : NULL;
}

/* nn.init.kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu') and kaiming_normal_ (tag 1);
 * a tensor without elements is left as it is (PyTorch warns that it is a no-op). */
static Value *bi_init_kaiming(Interp *I, Args *a) {
    Value *p_[4];                               /* tensor, a, mode, nonlinearity */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *tv = p_[0], *av = p_[1], *mv = p_[2], *nv = p_[3];
    if (!tv) return rt_raise(I, "TypeError", "%s() missing 1 required positional argument: 'tensor'", a->fname);
    if (tv->kind != V_TENSOR) return arg_not_tensor(I, a, tv, "shape", ARG_RECEIVER);
    if (tv->u.t->numel == 0) return same(a);
    double fi, fo, gain;
    if (!fans(I, tv->u.t, &fi, &fo)) return NULL;
    const char *mode = mv && mv->kind == V_STR ? mv->u.str.s : mv ? "" : "fan_in";
    if (strcmp(mode, "fan_in") && strcmp(mode, "fan_out")) {
        StrBuf b;
        sb_init(&b);
        if (val_str_of(I, &b, mv)) rt_raise(I, "ValueError", "Mode %s not supported, please use one of ['fan_in', 'fan_out']", sb_str(&b));
        sb_free(&b);
        return NULL;
    }
    Value *leaky = nv ? NULL : val_str(I->run.heap, "leaky_relu"), *zero = av ? NULL : val_int(I->run.heap, 0);
    bool ok = gain_of(I, nv ? nv : leaky, av ? av : zero, &gain);
    val_decref(leaky);
    val_decref(zero);
    if (!ok) return NULL;
    double std = gain / sqrt(!strcmp(mode, "fan_in") ? fi : fo);
    bool normal = a->fn->tag == 1;
    return fill_random(I, tv->u.t, normal, normal ? 0 : -sqrt(3.0) * std, normal ? std : sqrt(3.0) * std) ? same(a) : NULL;
}

const Builtin bi_nn_init[] = {
    {"uniform_", bi_init_uniform, "nn.init.uniform_(tensor, a=0.0, b=1.0)",
     "Fills tensor (a weight, in place) with numbers drawn uniformly from [a, b) and returns it. attn's generator "
     "(torch.manual_seed seeds it) is not PyTorch's: the same distribution, other numbers.", "§5.4", 0, "nn.init"},
    {"normal_", bi_init_uniform, "nn.init.normal_(tensor, mean=0.0, std=1.0)",
     "Fills tensor in place with numbers drawn from N(mean, std^2) and returns it, e.g. nn.init.normal_(W, std=0.01) "
     "as the book initialises weights.", "§5.4", 1, "nn.init"},
    {"zeros_", bi_init_constant, "nn.init.zeros_(tensor)", "Sets every element of tensor to 0, in place; returns it (biases).", "§5.4", 0, "nn.init"},
    {"ones_", bi_init_constant, "nn.init.ones_(tensor)", "Sets every element of tensor to 1, in place; returns it.", "§5.4", 1, "nn.init"},
    {"constant_", bi_init_constant, "nn.init.constant_(tensor, val)", "Sets every element of tensor to val, in place; returns it.", "§5.4", 2, "nn.init"},
    {"xavier_uniform_", bi_init_xavier, "nn.init.xavier_uniform_(tensor, gain=1.0)",
     "Xavier (Glorot) initialisation in place: uniform in [-a, a] with a = gain * sqrt(6 / (fan_in + fan_out)), "
     "fan_in = tensor.shape[1], fan_out = tensor.shape[0] for a Linear weight, so signals keep their variance "
     "through the layer. Returns tensor.", "§5.4", 0, "nn.init"},
    {"xavier_normal_", bi_init_xavier, "nn.init.xavier_normal_(tensor, gain=1.0)",
     "Xavier initialisation in place from N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)). Returns tensor.", "§5.4", 1, "nn.init"},
    {"kaiming_uniform_", bi_init_kaiming, "nn.init.kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')",
     "He initialisation in place: uniform in [-b, b], b = gain * sqrt(3 / fan), fan = fan_in (or fan_out), gain "
     "from calculate_gain(nonlinearity, a). nn.Linear's default weights are kaiming_uniform_(W, a=sqrt(5)).", "§5.4", 0, "nn.init"},
    {"kaiming_normal_", bi_init_kaiming, "nn.init.kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')",
     "He initialisation in place from N(0, std^2), std = gain / sqrt(fan). Returns tensor.", "§5.4", 1, "nn.init"},
    {"calculate_gain", bi_calculate_gain, "nn.init.calculate_gain(nonlinearity, param=None)",
     "The recommended gain for an activation: 1 for linear and sigmoid, 5/3 for tanh, sqrt(2) for relu, "
     "sqrt(2 / (1 + slope^2)) for leaky_relu, 3/4 for selu.", "§5.4", 0, "nn.init"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

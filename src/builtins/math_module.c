/* math_module.c - Python's math module: math.sqrt, math.exp ... on a Python float, whatever the argument. As in
 * CPython, an argument that is not a float is converted first (its __float__): a one-element tensor gives its value
 * (math.sqrt(torch.tensor(4.)) is the float 2.0), a tensor of several elements is PyTorch's ValueError. torch.sqrt
 * is the elementwise one (torch_math.c). */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { M_SQRT, M_EXP, M_LOG, M_LOG2, M_LOG10, M_SIN, M_COS, M_TAN, M_TANH, M_ASIN, M_ACOS, M_ATAN, M_FLOOR, M_CEIL, M_POW };

/* x as CPython's math functions read an argument (PyFloat_AsDouble): a bool, int or float as it is, a one-element
 * tensor's value (Tensor.__float__); false with Python's error (ValueError for a tensor of several elements,
 * TypeError for anything else). */
static bool math_float(Interp *I, const Value *v, double *x) {
    if (val_is_number(v)) { *x = val_as_double(v); return true; }
    if (v->kind == V_TENSOR) {
        if (v->u.t->numel != 1) { rt_raise(I, "ValueError", "only one element tensors can be converted to Python scalars"); return false; }
        *x = ten_get(v->u.t, 0);
        return true;
    }
    rt_raise(I, "TypeError", "must be real number, not %s", val_type_name(v));
    return false;
}

/* A float result, or Python's error for a result out of the domain (nan from a number) or out of range (inf). */
static Value *math_result(Interp *I, double x, double r) {
    if (isnan(r) && !isnan(x)) return rt_raise(I, "ValueError", "math domain error");
    if (isinf(r) && isfinite(x)) return rt_raise(I, "OverflowError", "math range error");
    return val_float(I->run.heap, r);
}

/* math.floor and math.ceil: an int */
static Value *math_round(Interp *I, const Value *v, bool up) {
    if (v->kind == V_INT || v->kind == V_BOOL) return val_int(I->run.heap, v->kind == V_INT ? v->u.i : v->u.b);
    double x;
    if (!math_float(I, v, &x)) return NULL;
    if (isnan(x)) return rt_raise(I, "ValueError", "cannot convert float NaN to integer");
    if (isinf(x)) return rt_raise(I, "OverflowError", "cannot convert float infinity to integer");
    double r = up ? ceil(x) : floor(x);
    if (!(fabs(r) < 9.2e18)) return rt_error(I, "math.%s: %g does not fit in attn's 64-bit integers", up ? "ceil" : "floor", x);
    return val_int(I->run.heap, (int64_t)r);
}

/* math.log(x[, base]): log(x) / log(base), as Python computes it */
static Value *math_log(Interp *I, Args *a) {
    double x, base = 0;
    if (!math_float(I, a->pos[0], &x) || (a->npos > 1 && !math_float(I, a->pos[1], &base))) return NULL;
    if (x <= 0 || (a->npos > 1 && base <= 0)) return rt_raise(I, "ValueError", "math domain error");
    if (a->npos == 1) return val_float(I->run.heap, log(x));
    if (base == 1) return rt_raise(I, "ZeroDivisionError", "float division by zero");
    return val_float(I->run.heap, log(x) / log(base));
}

/* math.pow(x, y): C's pow on floats, with Python's errors */
static Value *math_pow(Interp *I, Args *a) {
    double x, y;
    if (!math_float(I, a->pos[0], &x) || !math_float(I, a->pos[1], &y)) return NULL;
    if (x == 0 && y < 0) return rt_raise(I, "ValueError", "math domain error");
    double r = pow(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y)) return rt_raise(I, "ValueError", "math domain error");
    if (isinf(r) && isfinite(x) && isfinite(y)) return rt_raise(I, "OverflowError", "math range error");
    return val_float(I->run.heap, r);
}

static Value *bi_math(Interp *I, Args *a) {
    int tag = a->fn->tag;
    Value *p[2];                                 /* x / x, base / x, y: CPython's words, module-qualified (argspec.c) */
    if (!args_bind(I, a, p, 2)) return NULL;
    if (tag == M_LOG) return math_log(I, a);
    if (tag == M_POW) return math_pow(I, a);
    if (tag == M_FLOOR || tag == M_CEIL) return math_round(I, a->pos[0], tag == M_CEIL);
    double x, r;
    if (!math_float(I, a->pos[0], &x)) return NULL;
    switch (tag) {
    case M_SQRT: r = x < 0 ? NAN : sqrt(x); break;
    case M_EXP: r = exp(x); break;
    case M_LOG2: r = x <= 0 ? NAN : log2(x); break;
    case M_LOG10: r = x <= 0 ? NAN : log10(x); break;
    case M_SIN: r = isinf(x) ? NAN : sin(x); break;
    case M_COS: r = isinf(x) ? NAN : cos(x); break;
    case M_TAN: r = isinf(x) ? NAN : tan(x); break;
    case M_TANH: r = tanh(x); break;
    case M_ASIN: r = asin(x); break;
    case M_ACOS: r = acos(x); break;
    default: r = atan(x); break;
    }
    return math_result(I, x, r);
}

#define MATH(name, tag, sig, help) {name, bi_math, "math." name sig, help, "", tag, "math"}
/* Found only as math.NAME (builtins_module_attr): the bare names are torch's elementwise functions. */
const Builtin bi_math_module[] = {
    MATH("sqrt", M_SQRT, "(x, /)", "Python's math.sqrt: the square root of a number (or of a one-element tensor's value) as a float."),
    MATH("exp", M_EXP, "(x, /)", "Python's math.exp: e to the power x, a float."),
    MATH("log", M_LOG, "(x, [base=math.e])", "Python's math.log: the natural logarithm of x, or its logarithm to base, a float."),
    MATH("log2", M_LOG2, "(x, /)", "Python's math.log2: the base-2 logarithm of x, a float."),
    MATH("log10", M_LOG10, "(x, /)", "Python's math.log10: the base-10 logarithm of x, a float."),
    MATH("sin", M_SIN, "(x, /)", "Python's math.sin: the sine of x (radians), a float."),
    MATH("cos", M_COS, "(x, /)", "Python's math.cos: the cosine of x (radians), a float."),
    MATH("tan", M_TAN, "(x, /)", "Python's math.tan: the tangent of x (radians), a float."),
    MATH("tanh", M_TANH, "(x, /)", "Python's math.tanh: the hyperbolic tangent of x, a float."),
    MATH("asin", M_ASIN, "(x, /)", "Python's math.asin: the arc sine of x, in radians."),
    MATH("acos", M_ACOS, "(x, /)", "Python's math.acos: the arc cosine of x, in radians."),
    MATH("atan", M_ATAN, "(x, /)", "Python's math.atan: the arc tangent of x, in radians."),
    MATH("floor", M_FLOOR, "(x, /)", "Python's math.floor: the largest integer <= x, an int."),
    MATH("ceil", M_CEIL, "(x, /)", "Python's math.ceil: the smallest integer >= x, an int."),
    MATH("pow", M_POW, "(x, y, /)", "Python's math.pow: x to the power y, as floats."),
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

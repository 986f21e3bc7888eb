/* tensor_misc.c - cumprod, unique, and elementwise functions given as a double -> double map (log1p, erf, gelu,
 * silu, ...): computed in double and rounded once to the result dtype, as the other float kernels are. */
#include "tensor_internal.h"
#include "strbuf.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Running products along dim (bool counts as int64), accumulated in double for floats. */
Tensor *ten_cumprod(const Tensor *t, int dim) {
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return NULL;
    Tensor *o = ten_cast(t, t->dtype == DT_BOOL ? DT_I64 : t->dtype);
    if (!o || o->ndim == 0) return o;
    int64_t n = o->shape[d], inner = 1, outer = 1;
    for (int i = 0; i < d; i++) outer *= o->shape[i];
    for (int i = d + 1; i < o->ndim; i++) inner *= o->shape[i];
    for (int64_t a = 0; a < outer; a++)
        for (int64_t c = 0; c < inner; c++) {
            int64_t base = a * n * inner + c;
            if (o->dtype == DT_I64) {
                uint64_t acc = 1;
                for (int64_t k = 0; k < n; k++) { acc *= (uint64_t)ten_i64(o)[base + k * inner]; ten_i64(o)[base + k * inner] = (int64_t)acc; }
            } else {
                double acc = 1;
                for (int64_t k = 0; k < n; k++) { acc *= ten_get(o, base + k * inner); ten_set(o, base + k * inner, acc); }
            }
        }
    return o;
}

/* An element and where it stands, so that qsort's comparison needs no context: int64 values exactly, others as
 * double. Equal values keep their order by position. */
typedef struct UniqueKey { int64_t i; double d; int64_t at; } UniqueKey;
static int by_int(const void *pa, const void *pb) {
    const UniqueKey *a = pa, *b = pb;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}
static int by_double(const void *pa, const void *pb) {
    const UniqueKey *a = pa, *b = pb;
    double x = a->d, y = b->d;
    bool nx = isnan(x), ny = isnan(y);
    if (nx != ny) return nx ? 1 : -1;           /* NaN last */
    if (!nx && x != y) return x < y ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* Is the i-th element in sorted order equal to the one before it? (NaNs never are, as in PyTorch.) */
static bool same_value(const Tensor *x, const int64_t *order, int64_t i) {
    if (i == 0) return false;
    if (x->dtype == DT_I64) return ten_i64(x)[order[i - 1]] == ten_i64(x)[order[i]];
    return ten_get(x, order[i - 1]) == ten_get(x, order[i]);
}

/* torch.unique(X) of all elements, sorted: the distinct values; inverse (X's shape) and counts when asked. */
Tensor *ten_unique(const Tensor *t, Tensor **inverse, Tensor **counts) {
    Tensor *tmp;
    const Tensor *x = ten_as_contiguous(t, &tmp);
    if (!x) return NULL;
    int64_t n = x->numel;
    int64_t *order = xmalloc(sizeof *order * (size_t)(n ? n : 1));
    UniqueKey *keys = xmalloc(sizeof *keys * (size_t)(n ? n : 1));
    bool ints = x->dtype == DT_I64;
    for (int64_t i = 0; i < n; i++)
        keys[i] = (UniqueKey){.i = ints ? ten_i64(x)[i] : 0, .d = ints ? 0 : ten_get(x, i), .at = i};
    qsort(keys, (size_t)n, sizeof *keys, ints ? by_int : by_double);
    for (int64_t i = 0; i < n; i++) order[i] = keys[i].at;
    free(keys);
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) m += !same_value(x, order, i);
    TenCtx *c = ten_ctx_of(t);
    Tensor *u = ten_new_in(c, x->dtype, 1, &m);
    if (inverse) *inverse = ten_new_in(c, DT_I64, x->ndim, x->shape);
    if (counts) *counts = ten_new_in(c, DT_I64, 1, &m);
    if (!u || (inverse && !*inverse) || (counts && !*counts)) {
        ten_free(u);
        if (inverse) { ten_free(*inverse); *inverse = NULL; }
        if (counts) { ten_free(*counts); *counts = NULL; }
        free(order);
        ten_free(tmp);
        return NULL;
    }
    size_t es = ten_dtype_size(x->dtype);
    int64_t k = -1;
    for (int64_t i = 0; i < n; i++) {
        if (!same_value(x, order, i)) {
            k++;
            memcpy((char *)u->data + k * (int64_t)es, (const char *)x->data + order[i] * (int64_t)es, es);
        }
        if (inverse) ten_i64(*inverse)[order[i]] = k;
        if (counts) ten_i64(*counts)[k]++;
    }
    free(order);
    ten_free(tmp);
    return u;
}

static double gelu_erf(double x) { return 0.5 * x * (1 + erf(x / sqrt(2.0))); }
static double gelu_tanh(double x) { return 0.5 * x * (1 + tanh(sqrt(2.0 / 3.141592653589793) * (x + 0.044715 * x * x * x))); }
static double silu(double x) { return x / (1 + exp(-x)); }
static double softplus(double x) { return x > 20 ? x : log1p(exp(x)); }
static double reciprocal(double x) { return 1 / x; }
static double frac(double x) { return x - trunc(x); }
static double exp2_(double x) { return exp2(x); }
static double sinh_(double x) { return sinh(x); }
static double cosh_(double x) { return cosh(x); }
static double asinh_(double x) { return asinh(x); }
static double acosh_(double x) { return acosh(x); }
static double atanh_(double x) { return atanh(x); }
static double log1p_(double x) { return log1p(x); }
static double expm1_(double x) { return expm1(x); }
static double erf_(double x) { return erf(x); }
static double erfc_(double x) { return erfc(x); }
static double trunc_(double x) { return trunc(x); }
static double mish(double x) { return x * tanh(softplus(x)); }
static double hardtanh(double x) { return x < -1 ? -1 : x > 1 ? 1 : x; }
static double logsigmoid(double x) { return x < 0 ? x - log1p(exp(x)) : -log1p(exp(-x)); }

static const struct { const char *name; double (*fn)(double); bool keeps_int; } MAPS[] = {
    {"gelu", gelu_erf, false}, {"gelu_tanh", gelu_tanh, false}, {"silu", silu, false}, {"softplus", softplus, false},
    {"reciprocal", reciprocal, false}, {"frac", frac, false}, {"exp2", exp2_, false}, {"sinh", sinh_, false},
    {"cosh", cosh_, false}, {"asinh", asinh_, false}, {"acosh", acosh_, false}, {"atanh", atanh_, false},
    {"log1p", log1p_, false}, {"expm1", expm1_, false}, {"erf", erf_, false}, {"erfc", erfc_, false},
    {"trunc", trunc_, true}, {"mish", mish, false}, {"hardtanh", hardtanh, false}, {"logsigmoid", logsigmoid, false},
    {NULL, NULL, false}};

/* F.softplus(t, beta, threshold): log1p(exp(beta*x)) / beta, x itself where beta*x > threshold (PyTorch's
 * softplus kernel); integer input gives the default float dtype, as ten_map. */
Tensor *ten_softplus(const Tensor *t, double beta, double threshold) {
    Tensor *o = ten_new_in(ten_ctx_of(t), ten_is_float(t->dtype) ? t->dtype : ten_ctx_of(t)->default_float, t->ndim, t->shape);
    if (!o) return NULL;
    for (int64_t k = 0; k < o->numel; k++) {
        double x = ten_get(t, k);
        ten_set(o, k, x * beta > threshold ? x : log1p(exp(x * beta)) / beta);
    }
    return o;
}

/* fn(x) elementwise by name (see MAPS); integer input gives the default float dtype (trunc keeps integers). */
Tensor *ten_map(const char *name, const Tensor *t) {
    int i = 0;
    while (MAPS[i].name && strcmp(MAPS[i].name, name)) i++;
    if (!MAPS[i].name) { ten_fail_in(ten_ctx_of(t), "no elementwise function %s", name); return NULL; }
    if (MAPS[i].keeps_int && !ten_is_float(t->dtype)) return ten_cast(t, t->dtype == DT_BOOL ? DT_I64 : t->dtype);
    Tensor *o = ten_new_in(ten_ctx_of(t), ten_is_float(t->dtype) ? t->dtype : ten_ctx_of(t)->default_float, t->ndim, t->shape);
    if (!o) return NULL;
    for (int64_t k = 0; k < o->numel; k++) ten_set(o, k, MAPS[i].fn(ten_get(t, k)));
    return o;
}

/* tensor_reduce.c - reductions over one dim or all, softmax (§11.3 uses it along the last dim), cumsum.
 * A tensor of shape (outer, n, inner) is reduced over n; sums accumulate in double for stable, order-fixed
 * results on every machine. */
#include "tensor_internal.h"
#include <math.h>

static void split_dims(const Tensor *t, int d, int64_t *outer, int64_t *n, int64_t *inner) {
    *outer = 1; *inner = 1; *n = t->ndim ? t->shape[d] : 1;
    for (int i = 0; i < d; i++) *outer *= t->shape[i];
    for (int i = d + 1; i < t->ndim; i++) *inner *= t->shape[i];
}

static DType reduce_dtype(RedOp op, DType in) {
    switch (op) {
    case RED_ARGMAX: case RED_ARGMIN: return DT_I64;
    case RED_MEAN: case RED_STD: case RED_VAR: return in;     /* floats only: ten_reduce refuses the others */
    case RED_ANY: case RED_ALL: return DT_BOOL;
    case RED_SUM: case RED_PROD: return in == DT_BOOL ? DT_I64 : in;
    default: return in;
    }
}

static const char *red_name(RedOp op) {
    static const char *names[] = {"sum", "mean", "max", "min", "argmax", "argmin", "prod", "std", "var", "any", "all"};
    return names[op];
}

static Tensor *reduce_dense(RedOp op, const Tensor *t, bool all, int dim, bool keepdim);

Tensor *ten_reduce(RedOp op, const Tensor *t, bool all, int dim, bool keepdim) {
    if (op == RED_MEAN && !ten_is_float(t->dtype)) {
        ten_fail("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
                 "Got: %s", ten_dtype_word(t->dtype));
        return NULL;
    }
    if ((op == RED_STD || op == RED_VAR) && !ten_is_float(t->dtype)) {
        ten_fail("std and var only support floating point and complex dtypes");
        return NULL;
    }
    Tensor *tmp;
    const Tensor *x = ten_as_contiguous(t, &tmp);
    if (!x) return NULL;
    Tensor *r = reduce_dense(op, x, all, dim, keepdim);
    ten_free(tmp);
    return r;
}

/* The reduction of a contiguous t viewed as (outer, n, inner). */
static Tensor *reduce_dense(RedOp op, const Tensor *t, bool all, int dim, bool keepdim) {
    int d = 0;
    int64_t outer, n, inner;
    int64_t shape[TEN_MAX_DIMS];
    int nd = 0;
    if (all) {
        outer = 1; n = t->numel; inner = 1;
        if (keepdim) { nd = t->ndim; for (int i = 0; i < nd; i++) shape[i] = 1; }
    } else {
        d = ten_norm_dim(dim, t->ndim);
        if (d < 0) return NULL;
        split_dims(t, d, &outer, &n, &inner);
        for (int i = 0; i < t->ndim; i++) {
            if (i == d) { if (keepdim) shape[nd++] = 1; }
            else shape[nd++] = t->shape[i];
        }
    }
    if (n == 0 && (op == RED_MAX || op == RED_MIN || op == RED_ARGMAX || op == RED_ARGMIN)) {
        ten_fail("%s() of an empty tensor: the reduced dimension has size 0", red_name(op));
        return NULL;
    }
    DType odt = reduce_dtype(op, t->dtype);
    Tensor *o = ten_new(odt, nd, shape);
    if (!o) return NULL;
    bool exact_int = !ten_is_float(t->dtype) && (op == RED_SUM || op == RED_PROD);
    for (int64_t a = 0; a < outer; a++) {
        for (int64_t c = 0; c < inner; c++) {
            int64_t base = a * n * inner + c;
            double acc = 0, best = 0;
            int64_t besti = 0, iacc = op == RED_PROD ? 1 : 0;
            if (op == RED_PROD) acc = 1;
            if (op == RED_ALL) acc = 1;
            for (int64_t k = 0; k < n; k++) {
                int64_t idx = base + k * inner;
                double x = ten_get(t, idx);
                switch (op) {
                case RED_SUM: case RED_MEAN: case RED_STD: case RED_VAR:
                    if (exact_int) iacc = (int64_t)((uint64_t)iacc + (uint64_t)(t->dtype == DT_I64 ? ten_i64(t)[idx] : ten_b8(t)[idx]));
                    acc += x; break;
                case RED_PROD:
                    if (exact_int) iacc = (int64_t)((uint64_t)iacc * (uint64_t)(t->dtype == DT_I64 ? ten_i64(t)[idx] : ten_b8(t)[idx]));
                    acc *= x; break;
                case RED_MAX: case RED_ARGMAX:
                    if (k == 0 || x > best || (isnan(x) && !isnan(best))) { best = x; besti = k; }
                    break;
                case RED_MIN: case RED_ARGMIN:
                    if (k == 0 || x < best || (isnan(x) && !isnan(best))) { best = x; besti = k; }
                    break;
                case RED_ANY: if (x != 0) acc = 1; break;
                case RED_ALL: if (x == 0) acc = 0; break;
                }
            }
            int64_t oi = a * inner + c;
            double r = acc;
            if (op == RED_MEAN) r = n ? acc / (double)n : NAN;
            if (op == RED_STD || op == RED_VAR) {
                double mean = acc / (double)n, ss = 0;
                for (int64_t k = 0; k < n; k++) {
                    double x = ten_get(t, base + k * inner) - mean;
                    ss += x * x;
                }
                r = n > 1 ? ss / (double)(n - 1) : NAN;     /* unbiased, as torch.std/var default */
                if (op == RED_STD) r = sqrt(r);
            }
            if (op == RED_MAX || op == RED_MIN) r = best;
            if (op == RED_ARGMAX || op == RED_ARGMIN) { ten_i64(o)[oi] = besti; continue; }
            if (exact_int) { ten_i64(o)[oi] = iacc; continue; }
            if (odt == DT_I64 && (op == RED_MAX || op == RED_MIN)) {
                ten_i64(o)[oi] = ten_i64(t)[base + besti * inner];
                continue;
            }
            ten_set(o, oi, r);
        }
    }
    return o;
}

/* softmax along dim: pass 1 max (subtracted for stability), pass 2 exp and sum, pass 3 normalise. float32 rows
 * take expf and a double sum; float64 rows are computed in double throughout. */
static Tensor *softmax_impl(const Tensor *t, int dim, bool log_form) {
    int d = ten_norm_dim(dim, t->ndim);
    if (d < 0) return NULL;
    if (!ten_is_float(t->dtype)) {
        bool last = d == (t->ndim ? t->ndim - 1 : 0);
        ten_fail("\"%s%s_kernel_impl\" not implemented for '%s'", log_form ? "log_softmax" : "softmax", last ? "_lastdim" : "",
                 ten_dtype_word(t->dtype));
        return NULL;
    }
    Tensor *o = ten_copy(t);
    if (!o) return NULL;
    int64_t outer, n, inner;
    split_dims(o, d, &outer, &n, &inner);
    bool f64 = o->dtype == DT_F64;
    for (int64_t a = 0; a < outer; a++) {
        if (ten_interrupted) { ten_free(o); ten_fail_interrupted(); return NULL; }
        for (int64_t c = 0; c < inner; c++) {
            int64_t base = a * n * inner + c;
            if (f64) {
                double *row = ten_f64(o) + base, mx = -INFINITY, sum = 0;
                for (int64_t k = 0; k < n; k++) if (row[k * inner] > mx) mx = row[k * inner];
                if (isinf(mx) && mx < 0) mx = 0;
                for (int64_t k = 0; k < n; k++) sum += exp(row[k * inner] - mx);
                double ls = log(sum);
                for (int64_t k = 0; k < n; k++) row[k * inner] = log_form ? row[k * inner] - mx - ls : exp(row[k * inner] - mx) / sum;
                continue;
            }
            float *row = ten_f32(o) + base;
            float mx = -INFINITY;
            double sum = 0;
            for (int64_t k = 0; k < n; k++) if (row[k * inner] > mx) mx = row[k * inner];
            if (isinf(mx) && mx < 0) mx = 0;
            if (log_form) {
                for (int64_t k = 0; k < n; k++) sum += exp((double)row[k * inner] - mx);
                double ls = log(sum);
                for (int64_t k = 0; k < n; k++) row[k * inner] = (float)((double)row[k * inner] - mx - ls);
                continue;
            }
            for (int64_t k = 0; k < n; k++) { float e = expf(row[k * inner] - mx); row[k * inner] = e; sum += e; }
            float inv = (float)(1.0 / sum);
            for (int64_t k = 0; k < n; k++) row[k * inner] *= inv;
        }
    }
    return o;
}
Tensor *ten_softmax(const Tensor *t, int dim) { return softmax_impl(t, dim, false); }
Tensor *ten_log_softmax(const Tensor *t, int dim) { return softmax_impl(t, dim, true); }

Tensor *ten_cumsum(const Tensor *t, int dim) {
    int d = ten_norm_dim(dim, t->ndim);
    if (d < 0) return NULL;
    Tensor *o = ten_cast(t, t->dtype == DT_BOOL ? DT_I64 : t->dtype);
    if (!o) return NULL;
    int64_t outer, n, inner;
    split_dims(o, d, &outer, &n, &inner);
    for (int64_t a = 0; a < outer; a++)
        for (int64_t c = 0; c < inner; c++) {
            int64_t base = a * n * inner + c;
            if (o->dtype == DT_I64) {
                int64_t acc = 0;
                for (int64_t k = 0; k < n; k++) { acc += ten_i64(o)[base + k * inner]; ten_i64(o)[base + k * inner] = acc; }
            } else if (o->dtype == DT_F64) {
                double acc = 0;
                for (int64_t k = 0; k < n; k++) { acc += ten_f64(o)[base + k * inner]; ten_f64(o)[base + k * inner] = acc; }
            } else {
                double acc = 0;
                for (int64_t k = 0; k < n; k++) { acc += ten_f32(o)[base + k * inner]; ten_f32(o)[base + k * inner] = (float)acc; }
            }
        }
    return o;
}

/* tensor_numeric.c - numerical functions with options, as PyTorch defines them: var/std with a correction
 * (unbiased=False is correction 0), vector norms of any p, round to a number of decimals, isclose/allclose
 * with equal_nan. Reductions run over any set of dims: those dims are moved last and each row of the
 * (outer, n) result is reduced in double, then stored in the input's float dtype. */
#include "tensor_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* t viewed as rows: the dims in mask moved last, as a contiguous float64 copy (outer, n). out_shape gets the
 * result's shape (reduced dims dropped, or kept as 1 with keepdim). */
typedef struct RowView { Tensor *x; int64_t outer, n; int64_t shape[TEN_MAX_DIMS]; int ndim; } RowView;

static bool row_view(const Tensor *t, const bool *mask, bool keepdim, RowView *r) {
    int perm[TEN_MAX_DIMS], k = 0;
    r->n = 1;
    r->ndim = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (!mask[i]) { perm[k++] = i; r->shape[r->ndim++] = t->shape[i]; }
        else if (keepdim) r->shape[r->ndim++] = 1;
    }
    for (int i = 0; i < t->ndim; i++) if (mask[i]) { perm[k++] = i; r->n *= t->shape[i]; }
    Tensor *p = ten_permute(t, perm), *c = p ? ten_cast(p, DT_F64) : NULL;
    ten_free(p);
    if (!c) return false;
    r->x = c;
    r->outer = r->n ? c->numel / r->n : 1;
    if (!r->n) { r->outer = 1; for (int i = 0; i < t->ndim; i++) if (!mask[i]) r->outer *= t->shape[i]; }
    return true;
}

/* The dims to reduce: dims[0..nd) (negative counts from the end), or all of them when nd < 0. */
static bool dims_mask(const Tensor *t, const int *dims, int nd, bool *mask) {
    for (int i = 0; i < TEN_MAX_DIMS; i++) mask[i] = nd < 0;
    for (int i = 0; i < nd; i++) {
        int d = ten_norm_dim_in(ten_ctx_of(t), dims[i], t->ndim);
        if (d < 0) return false;
        if (t->ndim == 0) continue;
        if (mask[d]) { ten_fail_in(ten_ctx_of(t), "dim %d appears multiple times in the list of dims", d); return false; }
        mask[d] = true;
    }
    return true;
}

static Tensor *row_result(const Tensor *t, const RowView *r) {
    return ten_new_in(ten_ctx_of(t), ten_is_float(t->dtype) ? t->dtype : ten_ctx_of(t)->default_float, r->ndim, r->shape);
}

/* var = sum((x - mean)^2) / max(0, n - correction); std its square root. Two passes in double. */
Tensor *ten_var(const Tensor *t, const int *dims, int nd, bool keepdim, double correction, bool take_sqrt) {
    if (!ten_is_float(t->dtype)) { ten_fail_in(ten_ctx_of(t), "std and var only support floating point and complex dtypes"); return NULL; }
    bool mask[TEN_MAX_DIMS];
    RowView r;
    if (!dims_mask(t, dims, nd, mask) || !row_view(t, mask, keepdim, &r)) return NULL;
    Tensor *o = row_result(t, &r);
    for (int64_t a = 0; o && a < r.outer; a++) {
        const double *row = ten_f64(r.x) + a * r.n;
        double mean = 0, ss = 0;
        for (int64_t k = 0; k < r.n; k++) mean += row[k];
        mean /= (double)r.n;
        for (int64_t k = 0; k < r.n; k++) ss += (row[k] - mean) * (row[k] - mean);
        double div = (double)r.n - correction;
        double v = ss / (div > 0 ? div : 0);
        ten_set(o, a, take_sqrt ? sqrt(v) : v);
    }
    ten_free(r.x);
    return o;
}

/* The p-norm over dims: p = inf max |x|, -inf min |x|, 0 the count of nonzeros, else (sum |x|^p)^(1/p). */
Tensor *ten_norm(const Tensor *t, double p, const int *dims, int nd, bool keepdim) {
    if (!ten_is_float(t->dtype)) {
        ten_fail_in(ten_ctx_of(t), "norm(): input dtype should be either floating point or complex. Got %s instead.",
                 t->dtype == DT_I64 ? "Long" : "Bool");
        return NULL;
    }
    bool mask[TEN_MAX_DIMS];
    RowView r;
    if (!dims_mask(t, dims, nd, mask) || !row_view(t, mask, keepdim, &r)) return NULL;
    Tensor *o = row_result(t, &r);
    for (int64_t a = 0; o && a < r.outer; a++) {
        const double *row = ten_f64(r.x) + a * r.n;
        double acc = isinf(p) ? (p > 0 ? 0 : INFINITY) : 0;
        for (int64_t k = 0; k < r.n; k++) {
            double x = fabs(row[k]);
            if (isnan(x)) { acc = NAN; break; }
            if (isinf(p)) acc = p > 0 ? fmax(acc, x) : fmin(acc, x);
            else if (p == 0) acc += x != 0;
            else if (p == 1) acc += x;
            else if (p == 2) acc += x * x;
            else acc += pow(x, p);
        }
        if (!isinf(p) && p != 0 && p != 1 && !isnan(acc)) acc = p == 2 ? sqrt(acc) : pow(acc, 1.0 / p);
        ten_set(o, a, acc);
    }
    ten_free(r.x);
    return o;
}

/* torch.round(X, decimals=d) (RoundKernel): nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d for
 * d < 0, in the tensor's dtype (float32 arithmetic for float32: 2.675 gives 2.68, as in PyTorch). */
Tensor *ten_round_decimals(const Tensor *t, int64_t decimals) {
    if (!ten_is_float(t->dtype)) {
        ten_fail_in(ten_ctx_of(t), "\"round_cpu\" not implemented for '%s'", t->dtype == DT_I64 ? "Long" : "Bool");
        return NULL;
    }
    Tensor *o = ten_copy(t);
    if (!o) return NULL;
    bool neg = decimals < 0;
    double tp = pow(10.0, (double)(neg ? -decimals : decimals));
    if (o->dtype == DT_F32) {
        float ft = (float)tp, *x = ten_f32(o);
        for (int64_t i = 0; i < o->numel; i++) x[i] = neg ? nearbyintf(x[i] / ft) * ft : nearbyintf(x[i] * ft) / ft;
    } else {
        double *x = ten_f64(o);
        for (int64_t i = 0; i < o->numel; i++) x[i] = neg ? nearbyint(x[i] / tp) * tp : nearbyint(x[i] * tp) / tp;
    }
    return o;
}

/* torch.isclose (TensorCompare.cpp): a == b, or with equal_nan both NaN, or finite |a - b| <= atol + |rtol * b|,
 * the tolerances computed in the tensors' dtype (integers in the default float dtype). */
Tensor *ten_isclose(const Tensor *a, const Tensor *b, double rtol, double atol, bool equal_nan) {
    if (a->dtype != b->dtype) { ten_fail_in(ten_ctx_of(a), "%s did not match %s", ten_dtype_word(a->dtype), ten_dtype_word(b->dtype)); return NULL; }
    if (rtol < 0) { ten_fail_in(ten_ctx_of(a), "rtol must be greater than or equal to zero, but got %g", rtol); return NULL; }
    if (atol < 0) { ten_fail_in(ten_ctx_of(a), "atol must be greater than or equal to zero, but got %g", atol); return NULL; }
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    if (ten_broadcast_shape_in(ten_ctx_of(a), a->shape, a->ndim, b->shape, b->ndim, shape, &nd) < 0) return NULL;
    DType ct = ten_is_float(a->dtype) ? a->dtype : ten_ctx_of(a)->default_float;
    Tensor *x = ten_expand_dense(a, ct, nd, shape), *y = x ? ten_expand_dense(b, ct, nd, shape) : NULL;
    Tensor *o = y ? ten_new_in(ten_ctx_of(a), DT_BOOL, nd, shape) : NULL;
    bool f32 = ct == DT_F32;
    for (int64_t i = 0; o && i < o->numel; i++) {
        double p = ten_get(x, i), q = ten_get(y, i);
        bool close = p == q || (equal_nan && ten_is_float(a->dtype) && isnan(p) && isnan(q));
        if (!close && (rtol != 0 || atol != 0)) {
            double err, allowed;
            if (f32) {
                err = fabsf((float)p - (float)q);
                allowed = (float)atol + fabsf((float)rtol * (float)q);
            } else {
                err = fabs(p - q);
                allowed = atol + fabs(rtol * q);
            }
            close = isfinite(err) && err <= allowed;
        }
        ten_b8(o)[i] = close;
    }
    ten_free(x);
    ten_free(y);
    return o;
}

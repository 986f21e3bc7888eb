/* tensor_gather.c - indexing with index tensors along one dim, as PyTorch's: gather, scatter (with reduce add or
 * multiply), index_select, index_fill, masked_select, nonzero, take. Elements are copied whole (int64 stays exact).
 * For a (2, 3) input and dim 1: gather out[i][j] = in[i][index[i][j]]; scatter out[i][index[i][j]] = src[i][j]. */
#include "tensor_internal.h"
#include <stdio.h>
#include <string.h>

/* Address of the element at multi-index ix of t (any strides). */
static char *at(const Tensor *t, const int64_t *ix) {
    int64_t off = 0;
    for (int d = 0; d < t->ndim; d++) off += ix[d] * t->stride[d];
    return (char *)t->data + off * (int64_t)ten_dtype_size(t->dtype);
}

static bool next_index(int64_t *ix, const int64_t *shape, int nd) {
    for (int d = nd - 1; d >= 0; d--) {
        if (++ix[d] < shape[d]) return true;
        ix[d] = 0;
    }
    return false;
}

/* The index at ix, which gather and scatter take as it is: 0 <= k < len (PyTorch counts no index from the end here). */
static int64_t index_value(const Tensor *index, const int64_t *ix, int64_t len, int dim, bool *ok) {
    int64_t k = *(const int64_t *)at(index, ix);
    if (k < 0 || k >= len) {
        ten_fail_in(ten_ctx_of(index), "index %lld is out of bounds for dimension %d with size %lld", (long long)k, dim, (long long)len);
        *ok = false;
        return 0;
    }
    return k;
}

/* Common checks of gather and scatter: index int64 with t's number of dims, no bigger than t (and src) elsewhere. */
static int check_index(const char *fn, const Tensor *t, int d, const Tensor *index, const Tensor *src) {
    if (index->dtype != DT_I64) { ten_fail_in(ten_ctx_of(t), "%s(): Expected dtype int64 for index", fn); return -1; }
    if (index->ndim != t->ndim && !(index->ndim <= 1 && t->ndim <= 1)) {
        ten_fail_in(ten_ctx_of(t), "Index tensor must have the same number of dimensions as %s tensor", src ? "self" : "input");
        return -1;
    }
    for (int i = 0; i < index->ndim; i++) {
        if (i != d && index->shape[i] > t->shape[i]) {
            char a[96], b[96];
            ten_shape_str(index->shape, index->ndim, a, sizeof a);
            ten_shape_str(t->shape, t->ndim, b, sizeof b);
            ten_fail_in(ten_ctx_of(t), "Size does not match at dimension %d expected index %s to be smaller than self %s apart from dimension %d",
                     i, a, b, d);
            return -1;
        }
        if (src && index->shape[i] > src->shape[i]) {
            ten_fail_in(ten_ctx_of(t), "Size does not match at dimension %d expected index to be smaller than src apart from dimension %d", i, d);
            return -1;
        }
    }
    return 0;
}

Tensor *ten_gather(const Tensor *t, int dim, const Tensor *index) {
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0 || check_index("gather", t, d, index, NULL) < 0) return NULL;
    Tensor *o = ten_new_in(ten_ctx_of(t), t->dtype, index->ndim, index->shape);
    if (!o || o->numel == 0) return o;
    size_t es = ten_dtype_size(t->dtype);
    int64_t ix[TEN_MAX_DIMS] = {0}, src[TEN_MAX_DIMS];
    bool ok = true;
    int64_t len = t->ndim ? t->shape[d] : 1;
    do {
        memcpy(src, ix, sizeof src);
        int64_t k = index_value(index, ix, len, d, &ok);
        if (t->ndim) src[d] = k;
        if (!ok) { ten_free(o); return NULL; }
        memcpy(at(o, ix), at(t, src), es);
    } while (next_index(ix, index->shape, index->ndim));
    return o;
}

/* A copy of t with src (or the value of a 0-dim src, broadcast) written at the positions index gives along dim;
 * reduce 0 replaces, 1 adds, 2 multiplies. */
Tensor *ten_scatter(const Tensor *t, int dim, const Tensor *index, const Tensor *src, int reduce) {
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    bool scalar = src->ndim == 0;
    if (d < 0 || check_index("scatter", t, d, index, scalar ? NULL : src) < 0) return NULL;
    Tensor *o = ten_copy(t);
    Tensor *s = o ? ten_cast(src, t->dtype) : NULL;
    if (!s) { ten_free(o); return NULL; }
    if (index->numel == 0) { ten_free(s); return o; }
    size_t es = ten_dtype_size(t->dtype);
    int64_t ix[TEN_MAX_DIMS] = {0}, dst[TEN_MAX_DIMS], zero[TEN_MAX_DIMS] = {0};
    bool ok = true;
    int64_t len = t->ndim ? t->shape[d] : 1;
    do {
        memcpy(dst, ix, sizeof dst);
        int64_t k = index_value(index, ix, len, d, &ok);
        if (t->ndim) dst[d] = k;
        if (!ok) { ten_free(o); ten_free(s); return NULL; }
        char *p = at(o, dst);
        const char *q = at(s, scalar ? zero : ix);
        if (reduce == 0) { memcpy(p, q, es); continue; }
        if (t->dtype == DT_I64) {
            int64_t a, b;
            memcpy(&a, p, 8);
            memcpy(&b, q, 8);
            a = reduce == 1 ? (int64_t)((uint64_t)a + (uint64_t)b) : (int64_t)((uint64_t)a * (uint64_t)b);
            memcpy(p, &a, 8);
        } else if (t->dtype == DT_F64) {
            double a, b;
            memcpy(&a, p, 8);
            memcpy(&b, q, 8);
            a = reduce == 1 ? a + b : a * b;
            memcpy(p, &a, 8);
        } else if (t->dtype == DT_F32) {
            float a, b;
            memcpy(&a, p, 4);
            memcpy(&b, q, 4);
            a = reduce == 1 ? a + b : a * b;
            memcpy(p, &a, 4);
        } else {
            *p = reduce == 1 ? (*p || *q) : (*p && *q);
        }
    } while (next_index(ix, index->shape, index->ndim));
    ten_free(s);
    return o;
}

Tensor *ten_index_select(const Tensor *t, int dim, const Tensor *index) {
    if (index->ndim > 1) { ten_fail_in(ten_ctx_of(t), "index_select(): Index is supposed to be a vector"); return NULL; }
    if (index->dtype != DT_I64) { ten_fail_in(ten_ctx_of(t), "index_select(): Expected dtype int64 for index"); return NULL; }
    IndexItem items[TEN_MAX_DIMS + 1];
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return NULL;
    if (t->ndim == 0) {
        int64_t one = 1;
        Tensor *v = ten_reshape(t, 1, &one), *r = v ? ten_index_select(v, 0, index) : NULL;
        ten_free(v);
        if (!r) return NULL;
        Tensor *s = ten_reshape(r, index->ndim, index->shape);
        ten_free(r);
        return s;
    }
    for (int i = 0; i < d; i++) items[i] = (IndexItem){.kind = IX_SLICE, .step = 1};
    items[d] = (IndexItem){.kind = IX_TENSOR, .index = index};
    return ten_index_get(t, items, d + 1);
}

Tensor *ten_index_fill(const Tensor *t, int dim, const Tensor *index, const Tensor *value) {
    if (index->ndim > 1) { ten_fail_in(ten_ctx_of(t), "Index has to be a vector/scalar"); return NULL; }
    if (value->ndim != 0) { ten_fail_in(ten_ctx_of(t), "Value of index_fill should be a 0-dim tensor (or a number)"); return NULL; }
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return NULL;
    Tensor *o = ten_copy(t);
    if (!o) return NULL;
    for (int64_t k = 0; k < index->numel; k++) {
        int64_t len = t->ndim ? t->shape[d] : 1, i = ten_get_i64(index, k);
        if (i < -len || i >= len) {
            ten_fail_in(ten_ctx_of(t), "index %lld is out of bounds for dimension %d with size %lld", (long long)i, d, (long long)len);
            ten_free(o);
            return NULL;
        }
        Tensor *row = t->ndim ? ten_select(o, d, i < 0 ? i + len : i) : ten_alias(o);
        int rc = row ? ten_copy_into(row, value) : -1;
        ten_free(row);
        if (rc < 0) { ten_free(o); return NULL; }
    }
    return o;
}

Tensor *ten_masked_select(const Tensor *t, const Tensor *mask) {
    if (mask->dtype != DT_BOOL) { ten_fail_in(ten_ctx_of(t), "masked_select: expected BoolTensor for mask"); return NULL; }
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    if (ten_broadcast_shape_in(ten_ctx_of(t), t->shape, t->ndim, mask->shape, mask->ndim, shape, &nd) < 0) return NULL;
    Tensor *x = ten_expand_dense(t, t->dtype, nd, shape), *m = x ? ten_expand_dense(mask, DT_BOOL, nd, shape) : NULL;
    int64_t n = 0;
    for (int64_t i = 0; m && i < m->numel; i++) n += ten_b8(m)[i] != 0;
    Tensor *o = m ? ten_new_in(ten_ctx_of(t), t->dtype, 1, &n) : NULL;
    size_t es = ten_dtype_size(t->dtype);
    for (int64_t i = 0, k = 0; o && i < m->numel; i++)
        if (ten_b8(m)[i]) memcpy((char *)o->data + (k++) * (int64_t)es, (char *)x->data + i * (int64_t)es, es);
    ten_free(x);
    ten_free(m);
    return o;
}

/* (count, ndim) int64 positions of the nonzero elements in row-major order. */
Tensor *ten_nonzero(const Tensor *t) {
    int64_t n = 0;
    for (int64_t i = 0; i < t->numel; i++) n += ten_get(t, i) != 0;
    int64_t sh[2] = {n, t->ndim};
    Tensor *o = ten_new_in(ten_ctx_of(t), DT_I64, 2, sh);
    if (!o || !n) return o;
    int64_t ix[TEN_MAX_DIMS] = {0}, k = 0;
    for (int64_t i = 0; i < t->numel; i++) {
        if (ten_get(t, i) != 0) for (int d = 0; d < t->ndim; d++) ten_i64(o)[k++] = ix[d];
        next_index(ix, t->shape, t->ndim);
    }
    return o;
}

/* t.flatten()[index], shaped like index. */
Tensor *ten_take(const Tensor *t, const Tensor *index) {
    if (index->dtype != DT_I64) { ten_fail_in(ten_ctx_of(t), "take(): Expected a long tensor for index, but got %s", ten_dtype_name(index->dtype)); return NULL; }
    Tensor *o = ten_new_in(ten_ctx_of(t), t->dtype, index->ndim, index->shape);
    if (!o) return NULL;
    for (int64_t k = 0; k < index->numel; k++) {
        int64_t i = ten_get_i64(index, k);
        if (i < -t->numel || i >= t->numel) {
            ten_fail_in(ten_ctx_of(t), "out of range: tried to access index %lld on a tensor of %lld elements.", (long long)i, (long long)t->numel);
            ten_free(o);
            return NULL;
        }
        if (i < 0) i += t->numel;
        if (t->dtype == DT_I64) ten_i64(o)[k] = ten_get_i64(t, i);
        else ten_set(o, k, ten_get(t, i));
    }
    return o;
}

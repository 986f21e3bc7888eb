/* tensor_shape.c - shape functions that copy: cat/stack, repeat_interleave, repeat, tril/triu, flip. (Views are in
 * tensor_view.c.) */
#include "tensor_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

static DType common_dtype(Tensor *const *ts, int n) {
    DType dt = DT_BOOL;
    for (int i = 0; i < n; i++) dt = ten_promote(dt, ts[i]->dtype);
    return dt;
}

/* A shape as PyTorch's messages write it: [2, 3], [] for a 0-d tensor. */
static void size_list(const int64_t *shape, int ndim, char *out, size_t n) {
    size_t k = (size_t)snprintf(out, n, "[");
    for (int i = 0; i < ndim && k < n; i++) k += (size_t)snprintf(out + k, n - k, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (k < n) snprintf(out + k, n - k, "]");
}

/* PyTorch's legacy rule for cat: a 1-D tensor with no elements (torch.tensor([])) is skipped, whatever the others' shapes */
static bool cat_skipped(const Tensor *t) { return t->ndim == 1 && t->shape[0] == 0; }

/* cat along dim, with PyTorch's checks in its order and words: no 0-d tensor anywhere, then each tensor (but the
 * skipped ones) the same number of dimensions as the first, and the same sizes except in dim (the first size that
 * differs is named). */
Tensor *ten_cat_in(TenCtx *c, Tensor *const *ts, int n, int dim) {
    if (n == 0) { ten_fail_in(c, "torch.cat(): expected a non-empty list of Tensors"); return NULL; }
    for (int i = 0; i < n; i++)
        if (ts[i]->ndim == 0) { ten_fail_in(c, "zero-dimensional tensor (at position %d) cannot be concatenated", i); return NULL; }
    int first = 0;
    while (first < n - 1 && cat_skipped(ts[first])) first++;
    const Tensor *f = ts[first];
    int d = ten_norm_dim_in(c, dim, f->ndim);
    if (d < 0) return NULL;
    int64_t sh[TEN_MAX_DIMS];
    memcpy(sh, f->shape, sizeof sh);
    sh[d] = 0;
    for (int i = 0; i < n; i++) {
        const Tensor *t = ts[i];
        if (cat_skipped(t) && t != f) continue;
        if (t->ndim != f->ndim) {
            ten_fail_in(c, "Tensors must have same number of dimensions: got %d and %d", f->ndim, t->ndim);
            return NULL;
        }
        for (int j = 0; j < f->ndim; j++)
            if (j != d && t->shape[j] != f->shape[j]) {
                ten_fail_in(c, "Sizes of tensors must match except in dimension %d. Expected size %lld but got size %lld for tensor "
                         "number %d in the list.", d, (long long)f->shape[j], (long long)t->shape[j], i);
                return NULL;
            }
        sh[d] += t->shape[d];
    }
    DType dt = common_dtype(ts, n);
    Tensor *o = ten_new_in(ten_ctx_of(f), dt, f->ndim, sh);
    if (!o) return NULL;
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < d; j++) outer *= sh[j];
    for (int j = d + 1; j < f->ndim; j++) inner *= sh[j];
    size_t es = ten_dtype_size(dt);
    int64_t off = 0;
    for (int i = 0; i < n; i++) {
        if (cat_skipped(ts[i]) && ts[i] != f) continue;
        Tensor *ct = ten_cast(ts[i], dt);
        if (!ct) { ten_free(o); return NULL; }
        int64_t blk = ct->shape[d] * inner;
        for (int64_t a = 0; a < outer; a++)
            memcpy((char *)o->data + (size_t)(a * sh[d] * inner + off) * es, (char *)ct->data + (size_t)(a * blk) * es,
                   (size_t)blk * es);
        off += blk;
        ten_free(ct);
    }
    return o;
}

Tensor *ten_stack_in(TenCtx *c, Tensor *const *ts, int n, int dim) {
    if (n == 0) { ten_fail_in(c, "stack expects a non-empty TensorList"); return NULL; }
    for (int i = 1; i < n; i++)
        if (!ten_same_shape(ts[i], ts[0])) {
            char a[128], b[128];
            size_list(ts[0]->shape, ts[0]->ndim, a, sizeof a);
            size_list(ts[i]->shape, ts[i]->ndim, b, sizeof b);
            ten_fail_in(c, "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %d", a, b, i);
            return NULL;
        }
    Tensor **us = xcalloc((size_t)n, sizeof *us);
    Tensor *o = NULL;
    int i;
    for (i = 0; i < n; i++)
        if (!(us[i] = ten_unsqueeze(ts[i], dim))) break;
    if (i == n) o = ten_cat_in(c, us, n, dim < 0 ? dim : dim);
    for (int j = 0; j < i; j++) ten_free(us[j]);
    free(us);
    return o;
}

/* torch.repeat_interleave(t, repeats, dim): element k along dim is repeated repeats[k] times. */
Tensor *ten_repeat_interleave(const Tensor *t, const int64_t *repeats, int64_t nrep, int dim, bool flatten) {
    Tensor *src = flatten ? ten_reshape(t, 1, &t->numel) : ten_copy(t);
    if (src && !src->contiguous) { Tensor *c = ten_copy(src); ten_free(src); src = c; }   /* read as rows below */
    if (!src) return NULL;
    if (src->ndim == 0) { Tensor *s = ten_reshape(src, 1, &src->numel); ten_free(src); src = s; if (!src) return NULL; }
    int d = flatten ? 0 : ten_norm_dim_in(ten_ctx_of(t), dim, src->ndim);
    if (d < 0) { ten_free(src); return NULL; }
    int64_t len = src->shape[d];
    if (nrep != 1 && nrep != len) {
        ten_fail_in(ten_ctx_of(t), "repeat_interleave: repeats must have the same size as input along dim (%lld), but got %lld",
                 (long long)len, (long long)nrep);
        ten_free(src);
        return NULL;
    }
    int64_t total = 0;
    for (int64_t k = 0; k < len; k++) {
        int64_t r = repeats[nrep == 1 ? 0 : k];
        if (r < 0) { ten_fail_in(ten_ctx_of(t), "repeat_interleave: repeats can not be negative"); ten_free(src); return NULL; }
        total += r;
        if (total > ten_ctx_of(src)->limit_numel) { ten_fail_in(ten_ctx_of(t), "repeat_interleave: result is too large"); ten_free(src); return NULL; }
    }
    int64_t sh[TEN_MAX_DIMS];
    memcpy(sh, src->shape, sizeof sh);
    sh[d] = total;
    Tensor *o = ten_new_in(ten_ctx_of(src), src->dtype, src->ndim, sh);
    if (!o) { ten_free(src); return NULL; }
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < d; j++) outer *= sh[j];
    for (int j = d + 1; j < src->ndim; j++) inner *= sh[j];
    size_t es = ten_dtype_size(src->dtype);
    char *dst = o->data;
    for (int64_t a = 0; a < outer; a++)
        for (int64_t k = 0; k < len; k++) {
            int64_t r = repeats[nrep == 1 ? 0 : k];
            const char *row = (const char *)src->data + (size_t)((a * len + k) * inner) * es;
            for (int64_t q = 0; q < r; q++) { memcpy(dst, row, (size_t)inner * es); dst += (size_t)inner * es; }
        }
    ten_free(src);
    return o;
}

/* Tensor.repeat(*reps): tile the tensor. */
Tensor *ten_repeat(const Tensor *t, const int64_t *reps, int nreps) {
    if (nreps < t->ndim) { ten_fail_in(ten_ctx_of(t), "repeat: number of repeat dims can not be smaller than number of tensor dims"); return NULL; }
    int64_t sh[TEN_MAX_DIMS], src_sh[TEN_MAX_DIMS];
    if (nreps > TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(t), "tensors have at most %d dimensions", TEN_MAX_DIMS); return NULL; }
    for (int i = 0; i < nreps; i++) {
        int ti = i - (nreps - t->ndim);
        src_sh[i] = ti < 0 ? 1 : t->shape[ti];
        if (reps[i] < 0) { ten_fail_in(ten_ctx_of(t), "repeat: repeats can not be negative"); return NULL; }
        if (reps[i] > 0 && src_sh[i] > ten_ctx_of(t)->limit_numel / reps[i]) { ten_fail_in(ten_ctx_of(t), "repeat: result is too large"); return NULL; }
        sh[i] = src_sh[i] * reps[i];
    }
    Tensor *o = ten_new_in(ten_ctx_of(t), t->dtype, nreps, sh);
    if (!o) return NULL;
    int64_t idx[TEN_MAX_DIMS] = {0};
    for (int64_t i = 0; i < o->numel; i++) {
        int64_t src = 0;
        for (int j = 0; j < nreps; j++) src = src * src_sh[j] + idx[j] % src_sh[j];
        ten_set(o, i, ten_get(t, src));
        for (int j = nreps - 1; j >= 0; j--) { if (++idx[j] < sh[j]) break; idx[j] = 0; }
    }
    return o;
}

/* tril (upper=false) keeps j <= i + k; triu (upper=true) keeps j >= i + k; over the last two dims. */
Tensor *ten_tril(const Tensor *t, int64_t k, bool upper) {
    if (t->ndim < 2) { ten_fail_in(ten_ctx_of(t), "%s: input tensor must have at least 2 dimensions", upper ? "triu" : "tril"); return NULL; }
    Tensor *o = ten_copy(t);
    if (!o) return NULL;
    int64_t r = t->shape[t->ndim - 2], c = t->shape[t->ndim - 1];
    for (int64_t i = 0; i < o->numel; i++) {
        int64_t row = (i / c) % r, col = i % c;
        bool keep = upper ? col >= row + k : col <= row + k;
        if (!keep) ten_set(o, i, 0);
    }
    return o;
}

/* A copy reversed along dim (through a negative-stride view that never leaves this function). */
Tensor *ten_flip(const Tensor *t, int dim) {
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return NULL;
    int64_t st[TEN_MAX_DIMS], off = t->offset;
    memcpy(st, t->stride, sizeof st);
    if (t->shape[d] > 0) { off += (t->shape[d] - 1) * st[d]; st[d] = -st[d]; }
    Tensor *v = ten_view_of(t, t->ndim, t->shape, st, off);
    Tensor *c = ten_copy(v);
    ten_free(v);
    return c;
}

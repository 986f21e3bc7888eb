/* tensor_view.c - views as PyTorch makes them (aten/src/ATen/native/TensorShape.cpp): a new shape, strides and
 * storage offset over the same storage. reshape, view, permute/transpose, (un)squeeze, expand, select, narrow,
 * diagonal; contiguity; and the one strided copy every write through a view goes by (copy_, index assignment,
 * in-place ops). Strides and offsets count elements. */
#include "tensor_internal.h"
#include "parallel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ten_contiguous_strides(const int64_t *shape, int ndim, int64_t *strides) {
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= shape[i] > 1 ? shape[i] : 1;
    }
}

/* PyTorch's rule: empty tensors are contiguous; otherwise every dim of size > 1 has the row-major stride. */
bool ten_compute_contiguous(const Tensor *t) {
    if (t->numel == 0) return true;
    int64_t expected = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] == 1) continue;
        if (t->stride[i] != expected) return false;
        expected *= t->shape[i];
    }
    return true;
}

bool ten_has_internal_overlap(const Tensor *t) {
    if (t->contiguous) return false;
    for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] > 1 && t->stride[i] == 0) return true;
    return false;
}

Tensor *ten_alias(const Tensor *t) { return ten_view_of(t, t->ndim, t->shape, t->stride, t->offset); }

int ten_set_data(Tensor *dst, const Tensor *src) {
    Tensor *t = ten_alias(src);
    if (!t) return -1;
    Tensor old = *dst;          /* the handles trade contents: dst the new view, t the old one, freed with it */
    *dst = *t;
    *t = old;
    ten_free(t);
    return 0;
}

const Tensor *ten_as_contiguous(const Tensor *t, Tensor **tmp) {
    *tmp = NULL;
    if (t->contiguous) return t;
    *tmp = ten_copy(t);
    return *tmp;
}

Tensor *ten_contiguous(const Tensor *t) { return t->contiguous ? ten_alias(t) : ten_copy(t); }

/* Copies along the last dim with its two strides; element sizes 1, 4 and 8 as whole words. */
static void copy_row(char *d, int64_t ds, const char *s, int64_t ss, int64_t n, size_t es) {
    if (ds == 1 && ss == 1) { memmove(d, s, (size_t)n * es); return; }
    switch (es) {
    case 4: for (int64_t j = 0; j < n; j++) ((float *)d)[j * ds] = ((const float *)s)[j * ss]; break;
    case 8: for (int64_t j = 0; j < n; j++) ((int64_t *)d)[j * ds] = ((const int64_t *)s)[j * ss]; break;
    default: for (int64_t j = 0; j < n; j++) d[j * ds] = s[j * ss]; break;
    }
}

/* rows x cols of 4-byte elements: d[r * cols + c] = s[r + c * sstride] (a transposed source), in 32 x 32 tiles so
 * that both sides stay in cache. */
static void transpose_rows(uint32_t *d, const uint32_t *s, int64_t rows, int64_t cols, int64_t sstride) {
    for (int64_t r0 = 0; r0 < rows; r0 += 32)
        for (int64_t c0 = 0; c0 < cols; c0 += 32) {
            int64_t r1 = r0 + 32 < rows ? r0 + 32 : rows, c1 = c0 + 32 < cols ? c0 + 32 : cols;
            for (int64_t r = r0; r < r1; r++)
                for (int64_t c = c0; c < c1; c++) d[r * cols + c] = s[r + c * sstride];
        }
}

/* The copy of ten_strided_copy split over attn's threads (a copy: the same bytes for any split). */
typedef struct CopyJob {
    Tensor *dst;
    const Tensor *src;
    int64_t block;                      /* elements per item: one matrix (transposed) or one row along the last dim */
} CopyJob;

/* The storage offsets of dst's and src's element number i * J->block (row-major over dst's shape), i.e. of the
 * first element of item i. */
static void item_offsets(const CopyJob *J, int64_t i, int64_t *doff, int64_t *soff) {
    int64_t rem = i * J->block;
    *doff = *soff = 0;
    for (int d = J->dst->ndim - 1; d >= 0; d--) {
        int64_t k = rem % J->dst->shape[d];
        rem /= J->dst->shape[d];
        *doff += k * J->dst->stride[d];
        *soff += k * J->src->stride[d];
    }
}

/* Matrices [begin, end) of a copy_transposed. */
static void transposed_items(void *ctx, int64_t begin, int64_t end) {
    const CopyJob *J = ctx;
    int nd = J->dst->ndim;
    int64_t rows = J->dst->shape[nd - 2], cols = J->dst->shape[nd - 1];
    for (int64_t i = begin; i < end; i++) {
        int64_t doff, soff;
        item_offsets(J, i, &doff, &soff);
        transpose_rows((uint32_t *)J->dst->data + doff, (const uint32_t *)J->src->data + soff, rows, cols, J->src->stride[nd - 1]);
    }
}

/* A contiguous dst from a 4-byte src whose last two dims are transposed (src's next-to-last dim has stride 1):
 * the matrices one by one (spread over the threads), in tiles. false when src is not so. */
static bool copy_transposed(Tensor *dst, const Tensor *src) {
    int nd = dst->ndim;
    if (ten_dtype_size(dst->dtype) != 4 || !dst->contiguous || nd < 2 || src->stride[nd - 2] != 1 ||
        src->stride[nd - 1] < src->shape[nd - 2] || dst->shape[nd - 2] < 8 || dst->shape[nd - 1] < 8)
        return false;
    int64_t per = dst->shape[nd - 2] * dst->shape[nd - 1];
    CopyJob J = {dst, src, per};
    par_for(ten_ctx_of(dst), dst->numel / per, (1 << 16) / per + 1, transposed_items, &J);
    return true;
}

/* Rows [begin, end) along the last dim of the generic copy: the first row's index found by division, the next ones
 * by stepping the index as an odometer. */
static void row_items(void *ctx, int64_t begin, int64_t end) {
    const CopyJob *J = ctx;
    const Tensor *dst = J->dst, *src = J->src;
    int nd = dst->ndim;
    size_t es = ten_dtype_size(dst->dtype);
    int64_t dsi = nd ? dst->stride[nd - 1] : 1, ssi = nd ? src->stride[nd - 1] : 1;
    int64_t idx[TEN_MAX_DIMS] = {0}, doff = 0, soff = 0, rem = begin;
    for (int i = nd - 2; i >= 0; i--) {
        idx[i] = rem % dst->shape[i];
        rem /= dst->shape[i];
        doff += idx[i] * dst->stride[i];
        soff += idx[i] * src->stride[i];
    }
    char *d = dst->data;
    const char *s = src->data;
    for (int64_t r = begin; r < end; r++) {
        copy_row(d + doff * (int64_t)es, dsi, s + soff * (int64_t)es, ssi, J->block, es);
        for (int i = nd - 2; i >= 0; i--) {
            doff += dst->stride[i];
            soff += src->stride[i];
            if (++idx[i] < dst->shape[i]) break;
            doff -= dst->stride[i] * dst->shape[i];
            soff -= src->stride[i] * src->shape[i];
            idx[i] = 0;
        }
    }
}

/* dst's elements from src's (same shape, same dtype), any strides; dst and src share no element unless they are the
 * same view (then nothing is done): ten_copy writes a new tensor, ten_copy_into copies through a buffer otherwise.
 * Large copies are spread over the threads. */
void ten_strided_copy(Tensor *dst, const Tensor *src) {
    if (dst->numel == 0 || dst->data == src->data) {
        bool same = dst->data == src->data;
        for (int i = 0; same && i < dst->ndim; i++) same = dst->stride[i] == src->stride[i] || dst->shape[i] == 1;
        if (dst->numel == 0 || same) return;
    }
    size_t es = ten_dtype_size(dst->dtype);
    if (dst->contiguous && src->contiguous) { memmove(dst->data, src->data, (size_t)dst->numel * es); return; }
    if (dst->data != src->data && copy_transposed(dst, src)) return;
    int nd = dst->ndim;
    int64_t inner = nd ? dst->shape[nd - 1] : 1;
    CopyJob J = {dst, src, inner};
    par_for(ten_ctx_of(dst), dst->numel / inner, (1 << 16) / inner + 1, row_items, &J);
}

/* Storage element range [lo, hi) that t touches (numel > 0). */
static void storage_span(const Tensor *t, int64_t *lo, int64_t *hi) {
    int64_t a = t->offset, b = t->offset;
    for (int i = 0; i < t->ndim; i++) {
        int64_t ext = (t->shape[i] - 1) * t->stride[i];
        if (ext < 0) a += ext; else b += ext;
    }
    *lo = a;
    *hi = b + 1;
}

static bool dense(const Tensor *t) {
    /* non-overlapping and dense: sorted by stride, the strides are the running products of the sizes */
    int order[TEN_MAX_DIMS], n = 0;
    for (int i = 0; i < t->ndim; i++) if (t->shape[i] != 1) order[n++] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && t->stride[order[j]] < t->stride[order[j - 1]]; j--) {
            int x = order[j]; order[j] = order[j - 1]; order[j - 1] = x;
        }
    int64_t expected = 1;
    for (int i = 0; i < n; i++) {
        if (t->stride[order[i]] != expected) return false;
        expected *= t->shape[order[i]];
    }
    return true;
}

int ten_copy_into(Tensor *dst, const Tensor *src) {
    if (ten_has_internal_overlap(dst)) {
        ten_fail_in(ten_ctx_of(dst), "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                 "location. Please clone() the tensor before performing the operation.");
        return -1;
    }
    if (dst->numel == 0) { ten_bump_version(dst); return 0; }
    Tensor *cast = NULL;
    if (src->dtype != dst->dtype) {
        if (!(cast = ten_cast(src, dst->dtype))) return -1;
        src = cast;
    }
    Tensor *ex = ten_expand(src, dst->ndim, dst->shape);
    if (!ex) {
        char a[128], b[128];
        ten_shape_str(src->shape, src->ndim, a, sizeof a);
        ten_shape_str(dst->shape, dst->ndim, b, sizeof b);
        ten_fail_in(ten_ctx_of(dst), "cannot copy a tensor of shape %s into one of shape %s: the shapes do not broadcast", a, b);
        ten_free(cast);
        return -1;
    }
    Tensor *tmp = NULL;
    if (ten_same_storage(ex, dst) && ex->numel > 0) {
        int64_t a0, a1, b0, b1;
        storage_span(dst, &a0, &a1);
        storage_span(ex, &b0, &b1);
        bool identical = a0 == b0 && a1 == b1;
        if (!identical && a0 < b1 && b0 < a1) {
            if (dense(dst) && dense(ex)) {
                ten_fail_in(ten_ctx_of(dst), "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                         "single memory location. Please clone() the tensor before performing the operation.");
                ten_free(ex);
                ten_free(cast);
                return -1;
            }
        }
        /* the same elements in another order, or an overlap too irregular to judge: copy through a buffer */
        bool same_view = identical && dst->offset == ex->offset && !memcmp(dst->stride, ex->stride, sizeof(int64_t) * (size_t)dst->ndim);
        if (!same_view && a0 < b1 && b0 < a1) {
            if (!(tmp = ten_copy(ex))) { ten_free(ex); ten_free(cast); return -1; }
        }
    }
    ten_strided_copy(dst, tmp ? tmp : ex);
    ten_bump_version(dst);
    ten_free(tmp);
    ten_free(ex);
    ten_free(cast);
    return 0;
}

/* PyTorch's canCast: no float into an integer or bool, no integer into bool. */
static bool can_cast(DType from, DType to) {
    if (ten_is_float(from) && !ten_is_float(to)) return false;
    if (from == DT_I64 && to == DT_BOOL) return false;
    return true;
}

int ten_assign_result(Tensor *dst, const Tensor *r) {
    if (!ten_same_shape(dst, r)) {
        char a[160], b[160];
        size_t k = 0, m = 0;
        a[0] = b[0] = 0;
        for (int i = 0; i < dst->ndim; i++) k += (size_t)snprintf(a + k, sizeof a - k, i ? ", %lld" : "%lld", (long long)dst->shape[i]);
        for (int i = 0; i < r->ndim; i++) m += (size_t)snprintf(b + m, sizeof b - m, i ? ", %lld" : "%lld", (long long)r->shape[i]);
        ten_fail_in(ten_ctx_of(dst), "output with shape [%s] doesn't match the broadcast shape [%s]", a, b);
        return -1;
    }
    if (!can_cast(r->dtype, dst->dtype)) {
        ten_fail_in(ten_ctx_of(dst), "result type %s can't be cast to the desired output type %s", ten_dtype_word(r->dtype), ten_dtype_word(dst->dtype));
        return -1;
    }
    return ten_copy_into(dst, r);
}

int ten_norm_dim_in(TenCtx *c, int dim, int ndim) {
    int n = ndim ? ndim : 1;
    if (dim < -n || dim >= n) {
        ten_fail_in(c, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n - 1, dim);
        return -1;
    }
    return dim < 0 ? dim + n : dim;
}

static void list_str(const int64_t *v, int n, char *out, size_t cap) {
    size_t k = (size_t)snprintf(out, cap, "[");
    for (int i = 0; i < n && k < cap; i++) k += (size_t)snprintf(out + k, cap - k, i ? ", %lld" : "%lld", (long long)v[i]);
    if (k < cap) snprintf(out + k, cap - k, "]");
}

/* Fills in a -1 and checks the element count; the message is PyTorch's. */
static int infer_shape(const Tensor *t, int ndim, const int64_t *shape, int64_t *sh) {
    int64_t known = 1;
    int infer = -1;
    if (ndim > TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(t), "tensors have at most %d dimensions", TEN_MAX_DIMS); return -1; }
    for (int i = 0; i < ndim; i++) {
        sh[i] = shape[i];
        if (shape[i] == -1) {
            if (infer >= 0) { ten_fail_in(ten_ctx_of(t), "only one dimension can be inferred"); return -1; }
            infer = i;
        } else if (shape[i] < 0) {
            ten_fail_in(ten_ctx_of(t), "invalid shape dimension %lld", (long long)shape[i]);
            return -1;
        } else if (shape[i] > 0 && known > ten_ctx_of(t)->limit_numel / shape[i] + 1) {
            known = ten_ctx_of(t)->limit_numel + 1;
        } else {
            known *= shape[i];
        }
    }
    if (infer >= 0 && known != 0 && t->numel % known == 0) {
        sh[infer] = t->numel / known;
        return 0;
    }
    if (infer < 0 && known == t->numel) return 0;
    char s[160];
    list_str(shape, ndim, s, sizeof s);
    ten_fail_in(ten_ctx_of(t), "shape '%s' is invalid for input of size %lld", s, (long long)t->numel);
    return -1;
}

/* PyTorch's computeStride (aten/src/ATen/TensorUtils.cpp): the strides that show t's elements in shape sh
 * without moving them, or false. Old dims are split into chunks that are contiguous within themselves; each
 * chunk of the new shape must cover the same number of elements as one old chunk. */
static bool view_strides(const Tensor *t, int nd, const int64_t *sh, int64_t *st) {
    if (t->ndim == 0) { for (int i = 0; i < nd; i++) st[i] = 1; return true; }
    if (t->numel == 0) {
        bool same = nd == t->ndim && !memcmp(sh, t->shape, sizeof(int64_t) * (size_t)nd);
        if (same) { memcpy(st, t->stride, sizeof(int64_t) * (size_t)nd); return true; }
        ten_contiguous_strides(sh, nd, st);
        return true;
    }
    int view_d = nd - 1;
    int64_t chunk_base_stride = t->stride[t->ndim - 1], tensor_numel = 1, view_numel = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        tensor_numel *= t->shape[d];
        if (d == 0 || (t->shape[d - 1] != 1 && t->stride[d - 1] != tensor_numel * chunk_base_stride)) {
            while (view_d >= 0 && (view_numel < tensor_numel || sh[view_d] == 1)) {
                st[view_d] = view_numel * chunk_base_stride;
                view_numel *= sh[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel) return false;
            if (d > 0) {
                chunk_base_stride = t->stride[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

Tensor *ten_view_shape(const Tensor *t, int ndim, const int64_t *shape) {
    int64_t sh[TEN_MAX_DIMS], st[TEN_MAX_DIMS];
    if (infer_shape(t, ndim, shape, sh) < 0) return NULL;
    if (!view_strides(t, ndim, sh, st)) {
        ten_fail_in(ten_ctx_of(t), "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
                 "two contiguous subspaces). Use .reshape(...) instead.");
        return NULL;
    }
    return ten_view_of(t, ndim, sh, st, t->offset);
}

Tensor *ten_reshape(const Tensor *t, int ndim, const int64_t *shape) {
    int64_t sh[TEN_MAX_DIMS], st[TEN_MAX_DIMS];
    if (infer_shape(t, ndim, shape, sh) < 0) return NULL;
    if (view_strides(t, ndim, sh, st)) return ten_view_of(t, ndim, sh, st, t->offset);
    Tensor *c = ten_copy(t);
    if (!c) return NULL;
    Tensor *v = ten_view_shape(c, ndim, sh);
    ten_free(c);
    return v;
}

Tensor *ten_permute(const Tensor *t, const int *dims) {
    int64_t sh[TEN_MAX_DIMS], st[TEN_MAX_DIMS];
    bool seen[TEN_MAX_DIMS] = {false};
    for (int i = 0; i < t->ndim; i++) {
        int d = ten_norm_dim_in(ten_ctx_of(t), dims[i], t->ndim);
        if (d < 0) return NULL;
        if (seen[d]) { ten_fail_in(ten_ctx_of(t), "permute(): duplicate dims are not allowed."); return NULL; }
        seen[d] = true;
        sh[i] = t->shape[d];
        st[i] = t->stride[d];
    }
    return ten_view_of(t, t->ndim, sh, st, t->offset);
}

Tensor *ten_transpose(const Tensor *t, int d0, int d1) {
    if (t->ndim == 0) {
        if (ten_norm_dim_in(ten_ctx_of(t), d0, 0) < 0 || ten_norm_dim_in(ten_ctx_of(t), d1, 0) < 0) return NULL;
        return ten_alias(t);
    }
    int a = ten_norm_dim_in(ten_ctx_of(t), d0, t->ndim), b = a < 0 ? -1 : ten_norm_dim_in(ten_ctx_of(t), d1, t->ndim);
    if (a < 0 || b < 0) return NULL;
    int dims[TEN_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) dims[i] = i;
    dims[a] = b;
    dims[b] = a;
    return ten_permute(t, dims);
}

/* The new dim's stride is what PyTorch gives it: size * stride of the dim it lands before, or 1 at the end. */
Tensor *ten_unsqueeze(const Tensor *t, int dim) {
    if (dim < -(t->ndim + 1) || dim > t->ndim) {
        ten_fail_in(ten_ctx_of(t), "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -(t->ndim + 1), t->ndim, dim);
        return NULL;
    }
    if (t->ndim >= TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(t), "tensors have at most %d dimensions", TEN_MAX_DIMS); return NULL; }
    if (dim < 0) dim += t->ndim + 1;
    int64_t sh[TEN_MAX_DIMS], st[TEN_MAX_DIMS];
    for (int i = 0, j = 0; i <= t->ndim; i++) {
        if (i == dim) {
            sh[i] = 1;
            st[i] = dim < t->ndim ? t->shape[dim] * t->stride[dim] : 1;
        } else {
            sh[i] = t->shape[j];
            st[i] = t->stride[j++];
        }
    }
    return ten_view_of(t, t->ndim + 1, sh, st, t->offset);
}

Tensor *ten_squeeze(const Tensor *t, int dim, bool all) {
    int64_t sh[TEN_MAX_DIMS], st[TEN_MAX_DIMS];
    int nd = 0, d = -1;
    if (!all) {
        d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
        if (d < 0) return NULL;
    }
    for (int i = 0; i < t->ndim; i++) {
        bool drop = t->shape[i] == 1 && (all || i == d);
        if (!drop) { sh[nd] = t->shape[i]; st[nd++] = t->stride[i]; }
    }
    return ten_view_of(t, nd, sh, st, t->offset);
}

Tensor *ten_expand(const Tensor *t, int ndim, const int64_t *shape) {
    if (ndim < t->ndim) {
        char a[160], b[160];
        list_str(t->shape, t->ndim, a, sizeof a);
        list_str(shape, ndim, b, sizeof b);
        ten_fail_in(ten_ctx_of(t), "expand(torch.%sTensor{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the "
                 "number of dimensions in the tensor (%d)", ten_dtype_word(t->dtype), a, b, ndim, t->ndim);
        return NULL;
    }
    if (ndim > TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(t), "tensors have at most %d dimensions", TEN_MAX_DIMS); return NULL; }
    int64_t sh[TEN_MAX_DIMS], st[TEN_MAX_DIMS];
    int lead = ndim - t->ndim;
    for (int i = ndim - 1; i >= 0; i--) {
        int ti = i - lead;
        if (ti < 0) {
            if (shape[i] < 0) {
                ten_fail_in(ten_ctx_of(t), "The expanded size of the tensor (%lld) isn't allowed in a leading, non-existing dimension %d", (long long)shape[i], i);
                return NULL;
            }
            sh[i] = shape[i];
            st[i] = 0;
        } else if (shape[i] == -1 || shape[i] == t->shape[ti]) {
            sh[i] = t->shape[ti];
            st[i] = t->stride[ti];
        } else if (t->shape[ti] == 1 && shape[i] >= 0) {
            sh[i] = shape[i];
            st[i] = 0;
        } else {
            char a[160], b[160];
            list_str(shape, ndim, a, sizeof a);
            list_str(t->shape, t->ndim, b, sizeof b);
            ten_fail_in(ten_ctx_of(t), "The expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton "
                     "dimension %d.  Target sizes: %s.  Tensor sizes: %s", (long long)shape[i], (long long)t->shape[ti], i, a, b);
            return NULL;
        }
    }
    int64_t numel = 1, limit = ten_ctx_of(t)->limit_numel;
    for (int i = 0; i < ndim; i++) {
        if (sh[i] > 0 && numel > limit / sh[i]) {
            ten_fail_in(ten_ctx_of(t), "expand: a tensor of more than %lld elements is too large for attn", (long long)limit);
            return NULL;
        }
        numel *= sh[i];
    }
    return ten_view_of(t, ndim, sh, st, t->offset);
}

Tensor *ten_expand_dense(const Tensor *t, DType dt, int ndim, const int64_t *shape) {
    Tensor *v = ten_expand(t, ndim, shape);
    if (!v) return NULL;
    Tensor *c = ten_cast(v, dt);
    ten_free(v);
    return c;
}

Tensor *ten_select(const Tensor *t, int dim, int64_t index) {
    if (t->ndim == 0) { ten_fail_in(ten_ctx_of(t), "select() cannot be applied to a 0-dim tensor."); return NULL; }
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return NULL;
    int64_t len = t->shape[d];
    if (index < -len || index >= len) {
        char s[160];
        list_str(t->shape, t->ndim, s, sizeof s);
        ten_fail_in(ten_ctx_of(t), "select(): index %lld out of range for tensor of size %s at dimension %d", (long long)index, s, d);
        return NULL;
    }
    if (index < 0) index += len;
    int64_t sh[TEN_MAX_DIMS], st[TEN_MAX_DIMS];
    int nd = 0;
    for (int i = 0; i < t->ndim; i++)
        if (i != d) { sh[nd] = t->shape[i]; st[nd++] = t->stride[i]; }
    return ten_view_of(t, nd, sh, st, t->offset + index * t->stride[d]);
}

Tensor *ten_narrow(const Tensor *t, int dim, int64_t start, int64_t length) {
    if (t->ndim == 0) { ten_fail_in(ten_ctx_of(t), "narrow() cannot be applied to a 0-dim tensor."); return NULL; }
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return NULL;
    int64_t len = t->shape[d];
    if (start < -len || start > len) {
        ten_fail_in(ten_ctx_of(t), "start out of range (expected to be in range of [%lld, %lld], but got %lld)", (long long)-len, (long long)len, (long long)start);
        return NULL;
    }
    if (start < 0) start += len;
    if (length < 0) { ten_fail_in(ten_ctx_of(t), "narrow(): length must be non-negative."); return NULL; }
    if (start > len - length) {
        ten_fail_in(ten_ctx_of(t), "start (%lld) + length (%lld) exceeds dimension size (%lld).", (long long)start, (long long)length, (long long)len);
        return NULL;
    }
    int64_t sh[TEN_MAX_DIMS];
    memcpy(sh, t->shape, sizeof sh);
    sh[d] = length;
    return ten_view_of(t, t->ndim, sh, t->stride, t->offset + (length ? start * t->stride[d] : 0));
}

/* The diagonal of dims dim1 and dim2 (offset > 0 above it), as a new last dim. */
Tensor *ten_diagonal(const Tensor *t, int64_t offset, int dim1, int dim2) {
    if (t->ndim < 2) { ten_fail_in(ten_ctx_of(t), "diagonal dimensions requires ndim larger than 1, got %d", t->ndim); return NULL; }
    int a = ten_norm_dim_in(ten_ctx_of(t), dim1, t->ndim), b = a < 0 ? -1 : ten_norm_dim_in(ten_ctx_of(t), dim2, t->ndim);
    if (a < 0 || b < 0) return NULL;
    if (a == b) { ten_fail_in(ten_ctx_of(t), "diagonal dimensions cannot be identical %d, %d", dim1, dim2); return NULL; }
    int64_t len, off = t->offset;
    if (offset >= 0) {
        len = t->shape[a] < t->shape[b] - offset ? t->shape[a] : t->shape[b] - offset;
        if (len > 0) off += offset * t->stride[b];
    } else {
        len = t->shape[a] + offset < t->shape[b] ? t->shape[a] + offset : t->shape[b];
        if (len > 0) off -= offset * t->stride[a];
    }
    if (len < 0) len = 0;
    int64_t sh[TEN_MAX_DIMS], st[TEN_MAX_DIMS];
    int nd = 0;
    for (int i = 0; i < t->ndim; i++)
        if (i != a && i != b) { sh[nd] = t->shape[i]; st[nd++] = t->stride[i]; }
    sh[nd] = len;
    st[nd++] = t->stride[a] + t->stride[b];
    return ten_view_of(t, nd, sh, st, off);
}

/* TensorIterator's reorder_dimensions: dims sorted from the fastest-moving (smallest stride) of the first operand
 * that decides, ties broken by later operands and then by size; broadcast (stride 0) dims do not decide. */
bool ten_result_perm(const Tensor *const *ops, int nops, int ndim, const int64_t *shape, int *perm) {
    int64_t st[8][TEN_MAX_DIMS];
    int n = nops < 8 ? nops : 8;
    bool all_contig = true;
    for (int k = 0; k < n; k++) {
        const Tensor *t = ops[k];
        int lead = ndim - t->ndim;
        for (int i = 0; i < ndim; i++) {
            int ti = i - lead;
            st[k][i] = ti < 0 || (t->shape[ti] == 1 && shape[i] != 1) ? 0 : t->stride[ti];
        }
        if (!t->contiguous) all_contig = false;
    }
    /* it[] lists dims from the fastest: the identity is it = {ndim-1, ..., 0} */
    int it[TEN_MAX_DIMS];
    for (int i = 0; i < ndim; i++) it[i] = ndim - 1 - i;
    if (!all_contig) {
        for (int i = 1; i < ndim; i++) {
            int d1 = i;
            for (int d0 = i - 1; d0 >= 0; d0--) {
                int cmp = 0, x = it[d0], y = it[d1];
                for (int k = 0; k < n && !cmp; k++) {
                    int64_t s0 = st[k][x], s1 = st[k][y];
                    if (s0 == 0 || s1 == 0) continue;
                    if (s0 < s1) cmp = -1;
                    else if (s0 > s1) cmp = 1;
                    else if (shape[x] > shape[y]) cmp = 1;
                }
                if (cmp > 0) { it[d0] = y; it[d1] = x; d1 = d0; }
                else if (cmp < 0) break;
            }
        }
    }
    bool identity = true;
    for (int i = 0; i < ndim; i++) {
        perm[i] = it[ndim - 1 - i];
        if (perm[i] != i) identity = false;
    }
    return !identity;
}

/* A copy with t's memory order (PyTorch's clone, preserve_format): clone(X.T) has X.T's strides. */
Tensor *ten_clone(const Tensor *t) {
    int perm[TEN_MAX_DIMS];
    if (t->contiguous || !ten_result_perm(&t, 1, t->ndim, t->shape, perm)) return ten_copy(t);
    Tensor *p = ten_permute(t, perm), *c = p ? ten_copy(p) : NULL, *r = NULL;
    if (c) {
        int inv[TEN_MAX_DIMS];
        for (int j = 0; j < t->ndim; j++) inv[perm[j]] = j;
        r = ten_permute(c, inv);
    }
    ten_free(p);
    ten_free(c);
    return r;
}

void ten_set_layout(Tensor *t, Tensor *v) {
    TenStorage *old = t->storage;
    struct TenVersion *old_ver = t->ver;
    *t = *v;
    v->storage = old;             /* v takes t's old references, so freeing v keeps the counts right */
    v->ver = old_ver;
    ten_bump_version(t);          /* an in-place op (X.t_()) counts as a write, as in PyTorch */
    ten_free(v);
}

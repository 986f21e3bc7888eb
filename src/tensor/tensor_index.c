/* tensor_index.c - t[items] on read and on assignment: ints, start:stop:step slices, None, ..., and one tensor
 * index (int64 positions or a bool mask). Basic items make a view sharing t's storage, as in PyTorch (so
 * `x[1].fill_(2)` changes x); a tensor index copies. Assignment writes through the view into t's storage, so
 * `P[:, :, 0::2] = torch.sin(X)` changes P, and `X.reshape(-1, n)[~mask] = v` changes X. */
#include "tensor_internal.h"
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

/* A strided window onto t: shape, strides, and the offset of its first element from t->data (elements). */
typedef struct StridedView {
    int ndim;
    int64_t shape[TEN_MAX_DIMS];
    int64_t stride[TEN_MAX_DIMS];
    int64_t offset;
} StridedView;

static Tensor *view_tensor(const Tensor *t, const StridedView *v) {
    return ten_view_of(t, v->ndim, v->shape, v->stride, t->offset + v->offset);
}

/* Builds the strided view for basic items. A tensor item is kept as a whole dimension (a full slice) and its
 * position in the view is returned in *tdim (-1 when there is none). */
static int build_view(const Tensor *t, const IndexItem *items, int n, StridedView *v, int *tdim, int *titem) {
    const int64_t *st = t->stride;
    int consumed = 0, ellipsis = -1, ntensor = 0;
    for (int i = 0; i < n; i++) {
        switch (items[i].kind) {
        case IX_INT: case IX_SLICE: consumed++; break;
        case IX_TENSOR:
            consumed += items[i].index->dtype == DT_BOOL ? items[i].index->ndim : 1;
            ntensor++;
            break;
        case IX_ELLIPSIS:
            if (ellipsis >= 0) { ten_fail_in(ten_ctx_of(t), "an index can only have a single ellipsis ('...')"); return -1; }
            ellipsis = i;
            break;
        case IX_NEWAXIS: break;
        }
    }
    if (ntensor > 1) { ten_fail_in(ten_ctx_of(t), "attn supports one tensor index at a time; index with one tensor, then again"); return -1; }
    if (consumed > t->ndim) {
        ten_fail_in(ten_ctx_of(t), "too many indices for tensor of dimension %d (got %d)", t->ndim, consumed);
        return -1;
    }
    int d = 0;          /* next source dim */
    v->ndim = 0;
    v->offset = 0;
    *tdim = -1;
    *titem = -1;
    for (int i = 0; i < n; i++) {
        const IndexItem *it = &items[i];
        if (v->ndim >= TEN_MAX_DIMS && it->kind != IX_INT) { ten_fail_in(ten_ctx_of(t), "tensors have at most %d dimensions", TEN_MAX_DIMS); return -1; }
        switch (it->kind) {
        case IX_ELLIPSIS: {
            int fill = t->ndim - consumed;
            for (int k = 0; k < fill; k++, d++) {
                v->shape[v->ndim] = t->shape[d];
                v->stride[v->ndim++] = st[d];
            }
            break;
        }
        case IX_NEWAXIS:    /* PyTorch unsqueezes here: the stride of the source dim that follows, times its size */
            v->shape[v->ndim] = 1;
            v->stride[v->ndim++] = d < t->ndim ? t->shape[d] * st[d] : 1;
            break;
        case IX_INT: {
            int64_t len = t->shape[d], k = it->i;
            if (k < -len || k >= len) {
                ten_fail_in(ten_ctx_of(t), "index %lld is out of bounds for dimension %d with size %lld", (long long)k, d, (long long)len);
                return -1;
            }
            if (k < 0) k += len;
            v->offset += k * st[d];
            d++;
            break;
        }
        case IX_SLICE: {
            int64_t len = t->shape[d], step = it->step;
            if (step <= 0) {
                ten_fail_in(ten_ctx_of(t), step == 0 ? "slice step cannot be zero"
                                   : "step must be greater than zero (PyTorch has no negative steps: use torch.flip)");
                return -1;
            }
            int64_t a = it->has_start ? it->start : 0, b = it->has_stop ? it->stop : len;
            if (a < 0) a += len;
            if (b < 0) b += len;
            if (a < 0) a = 0;
            if (a > len) a = len;
            if (b < 0) b = 0;
            if (b > len) b = len;
            int64_t cnt = b > a ? (b - a + step - 1) / step : 0;
            v->offset += a * st[d];
            v->shape[v->ndim] = cnt;
            v->stride[v->ndim++] = st[d] * step;
            d++;
            break;
        }
        case IX_TENSOR: {
            int k = it->index->dtype == DT_BOOL ? it->index->ndim : 1;
            *tdim = v->ndim;
            *titem = i;
            for (int q = 0; q < k; q++, d++) {
                if (it->index->dtype == DT_BOOL && it->index->shape[q] != t->shape[d]) {
                    ten_fail_in(ten_ctx_of(t), "the shape of the mask [%lld] at index %d does not match the shape of the indexed tensor [%lld] at index %d",
                             (long long)it->index->shape[q], q, (long long)t->shape[d], d);
                    return -1;
                }
                v->shape[v->ndim] = t->shape[d];
                v->stride[v->ndim++] = st[d];
            }
            break;
        }
        }
    }
    if (ellipsis < 0)
        for (; d < t->ndim; d++) {
            if (v->ndim >= TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(t), "tensors have at most %d dimensions", TEN_MAX_DIMS); return -1; }
            v->shape[v->ndim] = t->shape[d];
            v->stride[v->ndim++] = st[d];
        }
    return 0;
}

static Tensor *index_get(const Tensor *t, const IndexItem *items, int n);
static int index_set(Tensor *t, const IndexItem *items, int n, const Tensor *v);

/* items with their index tensors made contiguous (the code below reads them as arrays); tmp[i] freed by the caller. */
static bool dense_items(const IndexItem *items, int n, IndexItem *out, Tensor **tmp) {
    for (int i = 0; i < n; i++) {
        out[i] = items[i];
        tmp[i] = NULL;
        if (items[i].kind == IX_TENSOR && !(out[i].index = ten_as_contiguous(items[i].index, &tmp[i]))) {
            for (int j = 0; j < i; j++) ten_free(tmp[j]);
            return false;
        }
    }
    return true;
}

Tensor *ten_index_get(const Tensor *t, const IndexItem *items, int n) {
    IndexItem d[2 * TEN_MAX_DIMS];
    Tensor *tmp[2 * TEN_MAX_DIMS];
    if (n > 2 * TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(t), "too many indices (%d)", n); return NULL; }
    if (!dense_items(items, n, d, tmp)) return NULL;
    Tensor *r = index_get(t, d, n);
    for (int i = 0; i < n; i++) ten_free(tmp[i]);
    return r;
}

int ten_index_set(Tensor *t, const IndexItem *items, int n, const Tensor *v) {
    IndexItem d[2 * TEN_MAX_DIMS];
    Tensor *tmp[2 * TEN_MAX_DIMS];
    if (n > 2 * TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(t), "too many indices (%d)", n); return -1; }
    if (!dense_items(items, n, d, tmp)) return -1;
    int64_t v0 = ten_version(t);
    int r = index_set(t, d, n, v);
    if (r == 0) ten_version_restore(t, v0 + 1);      /* one operation, one count, however it wrote */
    for (int i = 0; i < n; i++) ten_free(tmp[i]);
    return r;
}

/* Checks int64 positions against len and returns them normalised (caller frees). */
static int64_t *checked_positions(const Tensor *idx, int64_t len, int dim) {
    if (ten_is_float(idx->dtype)) {
        ten_fail_in(ten_ctx_of(idx), "tensors used as indices must be long, int or bool tensors, not float");
        return NULL;
    }
    int64_t *pos = xmalloc(sizeof(int64_t) * (size_t)(idx->numel ? idx->numel : 1));
    for (int64_t i = 0; i < idx->numel; i++) {
        int64_t k = ten_i64(idx)[i];
        if (k < -len || k >= len) {
            ten_fail_in(ten_ctx_of(idx), "index %lld is out of bounds for dimension %d with size %lld", (long long)k, dim, (long long)len);
            free(pos);
            return NULL;
        }
        pos[i] = k < 0 ? k + len : k;
    }
    return pos;
}

static Tensor *index_get(const Tensor *t, const IndexItem *items, int n) {
    StridedView v;
    int tdim, titem;
    if (build_view(t, items, n, &v, &tdim, &titem) < 0) return NULL;
    Tensor *vw = view_tensor(t, &v);
    if (tdim < 0) return vw;
    Tensor *g = ten_copy(vw);
    ten_free(vw);
    if (!g) return NULL;
    const Tensor *ix = items[titem].index;
    if (ix->dtype == DT_BOOL) {
        /* mask over dims [tdim, tdim + mask->ndim) -> one dim of the selected count */
        int64_t outer = 1, inner = 1, m = ix->numel, cnt = 0;
        for (int i = 0; i < tdim; i++) outer *= g->shape[i];
        for (int i = tdim + ix->ndim; i < g->ndim; i++) inner *= g->shape[i];
        for (int64_t i = 0; i < m; i++) cnt += ten_b8(ix)[i] != 0;
        int64_t sh[TEN_MAX_DIMS];
        int nd = 0;
        for (int i = 0; i < tdim; i++) sh[nd++] = g->shape[i];
        sh[nd++] = cnt;
        for (int i = tdim + ix->ndim; i < g->ndim; i++) sh[nd++] = g->shape[i];
        Tensor *o = ten_new_in(ten_ctx_of(g), g->dtype, nd, sh);
        if (o) {
            size_t es = ten_dtype_size(g->dtype);
            char *dst = o->data;
            for (int64_t a = 0; a < outer; a++)
                for (int64_t i = 0; i < m; i++)
                    if (ten_b8(ix)[i]) {
                        memcpy(dst, (char *)g->data + (size_t)((a * m + i) * inner) * es, (size_t)inner * es);
                        dst += (size_t)inner * es;
                    }
        }
        ten_free(g);
        return o;
    }
    int64_t len = g->shape[tdim];
    int64_t *pos = checked_positions(ix, len, tdim);
    if (!pos) { ten_free(g); return NULL; }
    int64_t sh[TEN_MAX_DIMS];
    int nd = 0;
    for (int i = 0; i < tdim; i++) sh[nd++] = g->shape[i];
    for (int i = 0; i < ix->ndim; i++) {
        if (nd >= TEN_MAX_DIMS) { free(pos); ten_free(g); ten_fail_in(ten_ctx_of(t), "tensors have at most %d dimensions", TEN_MAX_DIMS); return NULL; }
        sh[nd++] = ix->shape[i];
    }
    for (int i = tdim + 1; i < g->ndim; i++) {
        if (nd >= TEN_MAX_DIMS) { free(pos); ten_free(g); ten_fail_in(ten_ctx_of(t), "tensors have at most %d dimensions", TEN_MAX_DIMS); return NULL; }
        sh[nd++] = g->shape[i];
    }
    Tensor *o = ten_new_in(ten_ctx_of(g), g->dtype, nd, sh);
    if (o) {
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < tdim; i++) outer *= g->shape[i];
        for (int i = tdim + 1; i < g->ndim; i++) inner *= g->shape[i];
        size_t es = ten_dtype_size(g->dtype);
        char *dst = o->data;
        for (int64_t a = 0; a < outer; a++)
            for (int64_t k = 0; k < ix->numel; k++) {
                memcpy(dst, (char *)g->data + (size_t)((a * len + pos[k]) * inner) * es, (size_t)inner * es);
                dst += (size_t)inner * es;
            }
    }
    free(pos);
    ten_free(g);
    return o;
}

/* t[items] = v. With a tensor index, each selected position is written in turn (the last write wins). */
static int index_set(Tensor *t, const IndexItem *items, int n, const Tensor *v) {
    StridedView view;
    int tdim, titem;
    if (build_view(t, items, n, &view, &tdim, &titem) < 0) return -1;
    if (tdim < 0) {
        Tensor *dst = view_tensor(t, &view), *e = ten_expand(v, view.ndim, view.shape);
        int rc = -1;
        if (!e) {
            char a[128], b[128];
            ten_shape_str(v->shape, v->ndim, a, sizeof a);
            ten_shape_str(view.shape, view.ndim, b, sizeof b);
            ten_fail_in(ten_ctx_of(t), "cannot assign a tensor of shape %s to an indexed region of shape %s", a, b);
        } else {
            rc = ten_copy_into(dst, e);
        }
        ten_free(e);
        ten_free(dst);
        return rc;
    }
    if (ten_has_internal_overlap(t)) {
        ten_fail_in(ten_ctx_of(t), "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                 "location. Please clone() the tensor before performing the operation.");
        return -1;
    }
    /* Tensor index: compute the selected region's shape, broadcast v to it, then write element rows back. */
    Tensor *region = index_get(t, items, n);
    if (!region) return -1;
    Tensor *e = ten_expand_dense(v, t->dtype, region->ndim, region->shape);
    if (!e) {
        char a[128], b[128];
        ten_shape_str(v->shape, v->ndim, a, sizeof a);
        ten_shape_str(region->shape, region->ndim, b, sizeof b);
        ten_fail_in(ten_ctx_of(t), "cannot assign a tensor of shape %s to an indexed region of shape %s", a, b);
        ten_free(region);
        return -1;
    }
    const Tensor *ix = items[titem].index;
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < tdim; i++) outer *= view.shape[i];
    int span = ix->dtype == DT_BOOL ? ix->ndim : 1;
    for (int i = tdim + span; i < view.ndim; i++) inner *= view.shape[i];
    int64_t m = ix->dtype == DT_BOOL ? ix->numel : view.shape[tdim];
    int64_t *pos = NULL;
    if (ix->dtype != DT_BOOL && !(pos = checked_positions(ix, m, tdim))) { ten_free(region); ten_free(e); return -1; }
    /* Walk the view element by element: view element (a, q, r) lives at offset computed from its strides. */
    size_t es = ten_dtype_size(t->dtype);
    const char *src = e->data;
    int64_t nsel = ix->dtype == DT_BOOL ? 0 : ix->numel;
    if (ix->dtype == DT_BOOL) for (int64_t i = 0; i < m; i++) nsel += ten_b8(ix)[i] != 0;
    for (int64_t a = 0; a < outer; a++) {
        for (int64_t s = 0, k = 0; s < nsel; k++) {
            int64_t q;
            if (ix->dtype == DT_BOOL) { if (!ten_b8(ix)[k]) continue; q = k; }
            else q = pos[k];
            for (int64_t r = 0; r < inner; r++) {
                /* decompose (a, q, r) into view indices */
                int64_t flat[3] = {a, q, r}, off = view.offset, rem;
                rem = flat[0];
                for (int i = tdim - 1; i >= 0; i--) { off += (rem % view.shape[i]) * view.stride[i]; rem /= view.shape[i]; }
                rem = flat[1];
                for (int i = tdim + span - 1; i >= tdim; i--) { off += (rem % view.shape[i]) * view.stride[i]; rem /= view.shape[i]; }
                rem = flat[2];
                for (int i = view.ndim - 1; i >= tdim + span; i--) { off += (rem % view.shape[i]) * view.stride[i]; rem /= view.shape[i]; }
                memcpy((char *)t->data + off * (int64_t)es, src, es);
                src += es;
            }
            s++;
        }
    }
    free(pos);
    ten_free(region);
    ten_free(e);
    return 0;
}

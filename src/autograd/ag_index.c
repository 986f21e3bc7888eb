/* ag_index.c - differentiable joins and pieces: cat, stack, slicing (x[a:b:c] along a dim) and select (x[i]). */
#include <stdlib.h>
#include <string.h>
#include "ag_internal.h"

/* ---- cat and stack ---- */

/* sizes[0..n): each input's size along dims[0] (cat), sizes[n..2n): each input's dtype. op 1: stack. */
static int join_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    int d = n->dims[0];
    int64_t off = 0;
    for (int i = 0; i < n->nnext; i++) {
        int64_t len = n->op ? 1 : n->sizes[i];
        if (ag_needs(n, i)) {
            Tensor *p = n->op ? ten_select(g, d, i) : ten_narrow(g, d, off, len);
            if (p && p->dtype != (DType)n->sizes[n->nnext + i]) {
                Tensor *c = ten_cast(p, (DType)n->sizes[n->nnext + i]);
                ten_free(p);
                p = c;
            }
            gin[i] = p;
        }
        off += len;
    }
    return ag_done(n, gin);
}

static AgVal join(AgContext *c, const AgVal *xs, int nx, int dim, bool stack) {
    if (nx < 1) {
        ten_fail_in(c->ten, stack ? "stack expects a non-empty TensorList" : "torch.cat(): expected a non-empty list of Tensors");
        return AG_FAILED;
    }
    Tensor **ts = malloc(sizeof *ts * (size_t)nx);
    const AgMeta **ms = malloc(sizeof *ms * (size_t)nx);
    if (!ts || !ms) { free(ts); free(ms); ten_fail_in(c->ten, "out of memory"); return AG_FAILED; }
    for (int i = 0; i < nx; i++) { ts[i] = xs[i].t; ms[i] = xs[i].m; }
    Tensor *out = stack ? ten_stack_in(c->ten, ts, nx, dim) : ten_cat_in(c->ten, ts, nx, dim);
    AgNode *n = NULL;
    if (out && ag_should_record(c, nx, ms)) {
        n = ag_node_new(c, stack ? "StackBackward0" : "CatBackward0", join_bw, nx, ms);
        n->op = stack;
        n->dims[0] = ten_norm_dim_in(c->ten, dim, stack ? xs[0].t->ndim + 1 : xs[0].t->ndim);
        n->sizes = malloc(sizeof(int64_t) * 2 * (size_t)nx);
        if (!n->sizes || n->dims[0] < 0) {
            ten_free(out);
            out = NULL;
            if (!n->sizes) ten_fail_in(c->ten, "out of memory");
        } else
            for (int i = 0; i < nx; i++) {
                n->sizes[i] = stack ? 1 : xs[i].t->shape[n->dims[0]];
                n->sizes[nx + i] = xs[i].t->dtype;
            }
    }
    free(ts);
    free(ms);
    return ag_result(out, n);
}

AgVal ag_cat(AgContext *c, const AgVal *xs, int n, int dim) { return join(c, xs, n, dim, false); }
AgVal ag_stack(AgContext *c, const AgVal *xs, int n, int dim) { return join(c, xs, n, dim, true); }

/* ---- slicing and select: the grad written into zeros of the input's shape ---- */

/* The items that pick this node's piece: full slices before dims[0], then the slice (sizes: start, stop, step,
 * has_start, has_stop) or the index (op 1: select, scalar = the index). */
static int piece_items(const AgNode *n, IndexItem *it) {
    int d = n->dims[0];
    for (int i = 0; i <= d; i++)
        it[i] = (IndexItem){.kind = IX_SLICE, .i = 0, .start = 0, .stop = 0, .step = 1, .has_start = false,
                            .has_stop = false, .index = NULL};
    if (n->op) {
        it[d].kind = IX_INT;
        it[d].i = (int64_t)n->scalar;
    } else {
        it[d].start = n->sizes[0];
        it[d].stop = n->sizes[1];
        it[d].step = n->sizes[2];
        it[d].has_start = n->sizes[3];
        it[d].has_stop = n->sizes[4];
    }
    return d + 1;
}

static int piece_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    IndexItem it[TEN_MAX_DIMS];
    int k = piece_items(n, it);
    Tensor *z = ten_new_in(ten_ctx_of(g), g->dtype, n->in_ndim[0], n->in_shape[0]);
    if (z && ten_index_set(z, it, k, g) < 0) {
        ten_free(z);
        z = NULL;
    }
    gin[0] = ag_to_input(n, 0, z);
    return ag_done(n, gin);
}

AgVal ag_slice(AgContext *c, AgVal x, int dim, int64_t start, int64_t stop, int64_t step, bool has_start,
               bool has_stop) {
    int d = ten_norm_dim_in(c->ten, dim, x.t->ndim);
    if (d < 0) return AG_FAILED;
    if (x.t->ndim == 0) {
        ten_fail_in(c->ten, "slice() cannot be applied to a 0-dim tensor.");
        return AG_FAILED;
    }
    if (step <= 0) {
        ten_fail_in(c->ten, "slice step must be positive");
        return AG_FAILED;
    }
    AgNode tmp;
    memset(&tmp, 0, sizeof tmp);
    int64_t sz[5] = {start, stop, step, has_start, has_stop};
    tmp.dims[0] = d;
    tmp.sizes = sz;
    IndexItem it[TEN_MAX_DIMS];
    int k = piece_items(&tmp, it);
    Tensor *out = ten_index_get(x.t, it, k);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "SliceBackward0", piece_bw, 1, &x);
    if (n) {
        n->dims[0] = d;
        n->sizes = malloc(sizeof sz);
        if (!n->sizes) {
            ten_fail_in(c->ten, "out of memory");
            ten_free(out);
            return ag_result(NULL, n);
        }
        memcpy(n->sizes, sz, sizeof sz);
    }
    return ag_view_result(out, n, x);
}

AgVal ag_narrow(AgContext *c, AgVal x, int dim, int64_t start, int64_t length) {
    int d = ten_norm_dim_in(c->ten, dim, x.t->ndim);
    if (d < 0) return AG_FAILED;
    int64_t size = x.t->shape[d];
    if (start < -size || start > size) {
        ten_fail_in(c->ten, "start out of range (expected to be in range of [%lld, %lld], but got %lld)", (long long)-size,
                 (long long)size, (long long)start);
        return AG_FAILED;
    }
    if (start < 0) start += size;
    if (length < 0 || start + length > size) {
        ten_fail_in(c->ten, "start (%lld) + length (%lld) exceeds dimension size (%lld).", (long long)start, (long long)length,
                 (long long)size);
        return AG_FAILED;
    }
    return ag_slice(c, x, d, start, start + length, 1, true, true);
}

AgVal ag_select(AgContext *c, AgVal x, int dim, int64_t index) {
    Tensor *out = ten_select(x.t, dim, index);
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "SelectBackward0", piece_bw, 1, &x);
    if (n) {
        n->op = 1;
        n->dims[0] = ten_norm_dim_in(c->ten, dim, x.t->ndim);
        int64_t size = x.t->shape[n->dims[0]];
        n->scalar = (double)(index < 0 ? index + size : index);
    }
    return ag_view_result(out, n, x);
}

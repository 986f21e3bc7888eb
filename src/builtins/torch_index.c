/* torch_index.c - torch's functions of index tensors: gather, scatter, scatter_add, index_select, index_fill,
 * masked_select, nonzero, argwhere, take and count_nonzero, with PyTorch's shapes and messages. */
#include "torch_more_internal.h"
#include "ops.h"
#include <string.h>

/* ---- index tensors ---- */

/* gather(input, dim, index) */
static Value *bi_gather(Interp *I, Args *a) {
    Value *p_[4];                               /* input, dim, index, sparse_grad */
    if (!args_bind(I, a, p_, 4)) return NULL;
    ArgTensor t1 = {0}, t2 = {0}; Tensor *x = tensor_at(I, a, 0, "input", ARG_OVERLOADED, &t1), *ix = x ? tensor_at(I, a, 2, "index", ARG_OVERLOADED, &t2) : NULL;
    int64_t d;
    Tensor *r = ix && int_at(I, a, 1, "dim", 0, &d) && dim_fits(I, d, x->ndim) ? ten_gather(x, (int)d, ix) : NULL;
    arg_tensor_release(&t1);
    arg_tensor_release(&t2);
    return interp_failed(I) ? (ten_free(r), NULL) : rt_tensor_result(I, r);
}

/* scatter(input, dim, index, src or value, reduce=None) (tag 0); scatter_add(input, dim, index, src) (tag 1). */
static Value *bi_scatter(Interp *I, Args *a) {
    Value *p_[6];                               /* input, dim, index, src, value, reduce */
    if (!args_bind(I, a, p_, 6)) return NULL;
    ArgTensor t1 = {0}, t2 = {0}, t3 = {0}; Tensor *x = tensor_at(I, a, 0, "input", ARG_OVERLOADED, &t1), *ix = x ? tensor_at(I, a, 2, "index", ARG_OVERLOADED, &t2) : NULL;
    int64_t d;
    Value *sv = p_[3], *rv = p_[5];
    if (!sv) sv = p_[4];
    int reduce = a->fn->tag == 1 ? 1 : 0;
    Tensor *r = NULL;
    if (ix && int_at(I, a, 1, "dim", 0, &d) && dim_fits(I, d, x->ndim)) {
        if (!sv) rt_error(I, "%s() needs src (a tensor) or value (a number)", a->fname);
        else if (rv && rv->kind != V_NONE && (rv->kind != V_STR || (strcmp(rv->u.str.s, "add") && strcmp(rv->u.str.s, "multiply"))))
            rt_error(I, "reduce argument must be either add or multiply.");
        else {
            if (rv && rv->kind == V_STR) reduce = strcmp(rv->u.str.s, "add") ? 2 : 1;
            /* scatter's value overload takes a number; scatter_add only a tensor */
            Tensor *src = arg_tensor(I, a, sv, "src", ARG_OVERLOADED | (a->fn->tag == 1 ? 0 : ARG_NUMBER), &t3);
            if (src) r = ten_scatter(x, (int)d, ix, src, reduce);
        }
    }
    arg_tensor_release(&t1);
    arg_tensor_release(&t2);
    arg_tensor_release(&t3);
    return interp_failed(I) ? (ten_free(r), NULL) : rt_tensor_result(I, r);
}

/* index_select(input, dim, index) (tag 0), index_fill(input, dim, index, value) (tag 1). */
static Value *bi_index_select(Interp *I, Args *a) {
    Value *p_[4];                               /* input, dim, index (, value) */
    if (!args_bind(I, a, p_, 4)) return NULL;
    ArgTensor t1 = {0}, t2 = {0}; Tensor *x = tensor_at(I, a, 0, "input", ARG_OVERLOADED, &t1), *ix = x ? tensor_at(I, a, 2, "index", ARG_OVERLOADED, &t2) : NULL;
    int64_t d;
    Tensor *r = NULL;
    if (ix && int_at(I, a, 1, "dim", 0, &d) && dim_fits(I, d, x->ndim)) {
        if (a->fn->tag == 0) r = ten_index_select(x, (int)d, ix);
        else {
            Value *vv = p_[3];
            ArgTensor vt;
            Tensor *v = arg_tensor(I, a, vv, "value", ARG_NUMBER | ARG_OVERLOADED, &vt);
            if (v) r = ten_index_fill(x, (int)d, ix, v);
            arg_tensor_release(&vt);
        }
    }
    arg_tensor_release(&t1);
    arg_tensor_release(&t2);
    if (!r && !interp_failed(I) && a->fn->tag == 0) return rt_tensor_index_error(I);     /* PyTorch's IndexError */
    return interp_failed(I) ? (ten_free(r), NULL) : rt_tensor_result(I, r);
}

static Value *bi_masked_select(Interp *I, Args *a) {
    Value *p_[2];                               /* input, mask */
    if (!args_bind(I, a, p_, 2)) return NULL;
    ArgTensor t1 = {0}, t2 = {0}; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1), *m = x ? tensor_at(I, a, 1, "mask", ARG_TENSOR, &t2) : NULL;
    Tensor *r = m ? ten_masked_select(x, m) : NULL;
    arg_tensor_release(&t1);
    arg_tensor_release(&t2);
    return interp_failed(I) ? (ten_free(r), NULL) : rt_tensor_result(I, r);
}

/* The columns of nonzero(X) as a tuple of 1-D tensors (as_tuple=True, and torch.where(cond)). */
Value *torch_nonzero_tuple(Interp *I, const Tensor *x) {
    Tensor *nz = ten_nonzero(x);
    if (!nz) return rt_tensor_error(I);
    int nd = x->ndim ? x->ndim : 1;
    Tensor *cols[TEN_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        Tensor *c = x->ndim ? ten_select(nz, 1, d) : ten_new_in(I->run.ten, DT_I64, 1, (int64_t[]){nz->shape[0]});
        cols[d] = c ? ten_copy(c) : NULL;
        ten_free(c);
        if (!cols[d]) { for (int j = 0; j < d; j++) ten_free(cols[j]); ten_free(nz); return rt_tensor_error(I); }
    }
    ten_free(nz);
    return tuple_of(I, cols, nd);
}

/* nonzero(X, as_tuple=False) (tag 0), argwhere(X) (tag 1) */
static Value *bi_nonzero(Interp *I, Args *a) {
    Value *p_[2] = {NULL, NULL};                /* input, as_tuple (argwhere: input only) */
    if (!args_bind(I, a, p_, 2)) return NULL;
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1);
    bool as_tuple = false;
    if (!x || (p_[1] && p_[1]->kind != V_NONE && !arg_bool(I, p_[1], "as_tuple", &as_tuple))) { arg_tensor_release(&t1); return NULL; }
    Value *r = as_tuple ? torch_nonzero_tuple(I, x) : rt_tensor_result(I, ten_nonzero(x));
    arg_tensor_release(&t1);
    return r;
}

static Value *bi_take(Interp *I, Args *a) {
    Value *p_[2];                               /* input, index */
    if (!args_bind(I, a, p_, 2)) return NULL;
    ArgTensor t1 = {0}, t2 = {0}; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1), *ix = x ? tensor_at(I, a, 1, "index", ARG_TENSOR, &t2) : NULL;
    Tensor *r = ix ? ten_take(x, ix) : NULL;
    arg_tensor_release(&t1);
    arg_tensor_release(&t2);
    return interp_failed(I) ? (ten_free(r), NULL) : rt_tensor_result(I, r);
}

/* Reduces X over dims one at a time, the highest first (a dim given twice is PyTorch's error). */
Tensor *reduce_dims(TenCtx *c, RedOp op, const Tensor *x, const int64_t *dims, int nd, bool keep) {
    int ds[TEN_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        ds[i] = norm_dim64_in(c, dims[i], x->ndim);
        if (ds[i] < 0) return NULL;
        for (int j = 0; j < i; j++)
            if (ds[j] == ds[i]) { ten_fail_in(c, "dim %d appears multiple times in the list of dims", ds[i]); return NULL; }
    }
    for (int i = 0; i < nd; i++) for (int j = i + 1; j < nd; j++) if (ds[j] > ds[i]) { int t = ds[i]; ds[i] = ds[j]; ds[j] = t; }
    Tensor *cur = ten_alias(x);
    for (int i = 0; i < nd && cur; i++) { Tensor *n = ten_reduce(op, cur, false, ds[i], keep); ten_free(cur); cur = n; }
    return cur;
}

/* count_nonzero(X, dim=None) */
static Value *bi_count_nonzero(Interp *I, Args *a) {
    Value *p_[2];                               /* input, dim */
    if (!args_bind(I, a, p_, 2)) return NULL;
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1);
    int64_t dims[2 * TEN_MAX_DIMS];
    int nd;
    if (!x || !ints_of(I, p_[1], "dim", dims, &nd)) { arg_tensor_release(&t1); return NULL; }
    Tensor *z = ten_scalar_i_in(I->run.ten, 0), *ne = ten_binary(OP_NE, x, false, z, true);
    Tensor *r = !ne ? NULL : nd ? reduce_dims(I->run.ten, RED_SUM, ne, dims, nd, false) : ten_reduce(RED_SUM, ne, true, 0, false);
    ten_free(z); ten_free(ne); arg_tensor_release(&t1);
    return rt_tensor_result(I, r);
}

const Builtin bi_torch_index[] = {
    {"gather", bi_gather, "torch.gather(input, dim, index, *, sparse_grad=False)", "Picks along dim at the positions in index: out[i][j] = input[i][index[i][j]] for dim=1.", "", 0, "torch"},
    {"scatter", bi_scatter, "torch.scatter(input, dim, index, src=None, value=None, *, reduce=None)",
     "A copy of input with src (or value=v) written at the positions index gives along dim (gather's opposite).", "", 0, "torch"},
    {"scatter_add", bi_scatter, "torch.scatter_add(input, dim, index, src=None, value=None, *, reduce=None)", "As scatter, adding src into the positions.", "", 1, "torch"},
    {"index_select", bi_index_select, "torch.index_select(input, dim, index)", "The slices at the positions in index (a vector) along dim.", "", 0, "torch"},
    {"index_fill", bi_index_select, "torch.index_fill(input, dim, index, value)", "A copy with the slices at index along dim set to value.", "", 1, "torch"},
    {"masked_select", bi_masked_select, "torch.masked_select(input, mask)", "The elements where mask is True, as a vector.", "", 0, "torch"},
    {"nonzero", bi_nonzero, "torch.nonzero(input, *, as_tuple=False)", "The positions of the nonzero elements: one row (i, j, ...) each.", "", 0, "torch"},
    {"argwhere", bi_nonzero, "torch.argwhere(input)", "Same as nonzero.", "", 1, "torch"},
    {"take", bi_take, "torch.take(input, index)", "input.flatten()[index], shaped like index.", "", 0, "torch"},
    {"count_nonzero", bi_count_nonzero, "torch.count_nonzero(input, dim=None)", "How many elements are not zero (along dim).", "", 0, "torch"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

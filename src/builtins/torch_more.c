/* torch_more.c - the rest of the PyTorch surface a student reaches for in this chapter: einsum, index-tensor
 * functions (gather, scatter, index_select, masked_select, nonzero, take), matrix-product variants (mv, addmm,
 * baddbmm, tensordot), roll, diag, cumprod, logsumexp, amax/amin, unique, meshgrid, cross, tile, hstack/vstack,
 * more elementwise functions, and torch.nn.functional's dropout, linear, pad, normalize, one_hot, gelu, silu and
 * scaled_dot_product_attention (PyTorch 2's formula: softmax(Q Kᵀ / sqrt(d) + mask) V). */
#include "builtins_internal.h"
#include "ops.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static Value *done(Interp *I, Tensor *t) { return t ? val_tensor(I->run.heap, t) : rt_tensor_error(I); }

/* Argument i (or keyword name) as a tensor; Python numbers and lists become tensors (*tmp, freed by the caller). */
static Tensor *tensor_at(Interp *I, Args *a, int i, const char *name, Tensor **tmp) {
    *tmp = NULL;
    Value *v = arg(a, i, name);
    if (!v) { rt_error(I, "%s() missing required argument '%s'", a->fname, name); return NULL; }
    return arg_tensor(I, v, name, tmp);
}

static bool int_at(Interp *I, Args *a, int i, const char *name, int64_t dflt, int64_t *out) {
    Value *v = arg(a, i, name);
    *out = dflt;
    return !v || v->kind == V_NONE || arg_int(I, v, name, out);
}

static bool num_at(Interp *I, Args *a, int i, const char *name, double dflt, double *out) {
    Value *v = arg(a, i, name);
    *out = dflt;
    return !v || v->kind == V_NONE || arg_double(I, v, name, out);
}

static bool bool_at(Interp *I, Args *a, int i, const char *name, bool dflt, bool *out) {
    Value *v = arg(a, i, name);
    *out = dflt;
    return !v || v->kind == V_NONE || arg_bool(I, v, name, out);
}

/* Ints from an int or a tuple/list: n of them into out (at most TEN_MAX_DIMS). */
static bool ints_of(Interp *I, Value *v, const char *what, int64_t *out, int *n) {
    *n = 0;
    if (!v || v->kind == V_NONE) return true;
    if (v->kind == V_TUPLE || v->kind == V_LIST) {
        if (v->u.seq.n > 2 * TEN_MAX_DIMS) { rt_error(I, "too many %s", what); return false; }
        int64_t cnt = v->u.seq.n;             /* read once: a student's __index__ may grow the list */
        if (!arg_ints(I, v->u.seq.items, cnt, what, out)) return false;
        *n = (int)cnt;
        return true;
    }
    *n = 1;
    return arg_int(I, v, what, out);
}

static Value *tuple_of(Interp *I, Tensor **ts, int n) {
    Value *r = val_tuple(I->run.heap, n);
    for (int i = 0; i < n; i++) val_seq_set(r, i, val_tensor(I->run.heap, ts[i]));
    return r;
}

/* ---- einsum ---- */

/* einsum(equation, *operands) or einsum(equation, [operands]) */
static Value *bi_einsum(Interp *I, Args *a) {
    if (a->nkw) return rt_error(I, "einsum() takes no keyword arguments");
    if (a->npos < 2 || a->pos[0]->kind != V_STR) return rt_error(I, "einsum(equation, *operands), e.g. torch.einsum('ij,jk->ik', A, B)");
    Value **items = a->pos + 1;
    int64_t n = a->npos - 1;
    if (n == 1 && (a->pos[1]->kind == V_LIST || a->pos[1]->kind == V_TUPLE)) { items = a->pos[1]->u.seq.items; n = a->pos[1]->u.seq.n; }
    if (n > 8) return rt_error(I, "einsum(): attn takes at most 8 operands");
    Tensor *ops[8];
    for (int64_t i = 0; i < n; i++) {
        if (items[i]->kind != V_TENSOR) return rt_error(I, "einsum(): operand %lld is a %s, not a tensor", (long long)i, val_type_name(items[i]));
        ops[i] = items[i]->u.t;
    }
    return done(I, ten_einsum_in(I->run.ten, a->pos[0]->u.str.s, ops, (int)n));
}

/* ---- index tensors ---- */

/* gather(input, dim, index) */
static Value *bi_gather(Interp *I, Args *a) {
    Value *p_[4];                               /* input, dim, index, sparse_grad */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Tensor *t1, *t2, *x = tensor_at(I, a, 0, "input", &t1), *ix = x ? tensor_at(I, a, 2, "index", &t2) : NULL;
    int64_t d;
    Tensor *r = ix && int_at(I, a, 1, "dim", 0, &d) && dim_fits(I, d, x->ndim) ? ten_gather(x, (int)d, ix) : NULL;
    ten_free(t1);
    if (ix) ten_free(t2);
    return interp_failed(I) ? (ten_free(r), NULL) : done(I, r);
}

/* scatter(input, dim, index, src or value, reduce=None) (tag 0); scatter_add(input, dim, index, src) (tag 1). */
static Value *bi_scatter(Interp *I, Args *a) {
    Value *p_[6];                               /* input, dim, index, src, value, reduce */
    if (!args_bind(I, a, p_, 6)) return NULL;
    Tensor *t1, *t2, *t3 = NULL, *x = tensor_at(I, a, 0, "input", &t1), *ix = x ? tensor_at(I, a, 2, "index", &t2) : NULL;
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
            Tensor *src = val_is_number(sv) ? (t3 = ops_number_tensor_in(I->run.ten, sv)) : arg_tensor(I, sv, "src", &t3);
            if (src) r = ten_scatter(x, (int)d, ix, src, reduce);
        }
    }
    ten_free(t1);
    if (ix) ten_free(t2);
    ten_free(t3);
    return interp_failed(I) ? (ten_free(r), NULL) : done(I, r);
}

/* index_select(input, dim, index) (tag 0), index_fill(input, dim, index, value) (tag 1). */
static Value *bi_index_select(Interp *I, Args *a) {
    Value *p_[4];                               /* input, dim, index (, value) */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Tensor *t1, *t2, *x = tensor_at(I, a, 0, "input", &t1), *ix = x ? tensor_at(I, a, 2, "index", &t2) : NULL;
    int64_t d;
    Tensor *r = NULL;
    if (ix && int_at(I, a, 1, "dim", 0, &d) && dim_fits(I, d, x->ndim)) {
        if (a->fn->tag == 0) r = ten_index_select(x, (int)d, ix);
        else {
            Value *vv = p_[3];
            Tensor *vt = NULL, *v = val_is_number(vv) ? (vt = ops_number_tensor_in(I->run.ten, vv)) : arg_tensor(I, vv, "value", &vt);
            if (v) r = ten_index_fill(x, (int)d, ix, v);
            ten_free(vt);
        }
    }
    ten_free(t1);
    if (ix) ten_free(t2);
    if (!r && !interp_failed(I) && a->fn->tag == 0) return rt_tensor_index_error(I);     /* PyTorch's IndexError */
    return interp_failed(I) ? (ten_free(r), NULL) : done(I, r);
}

static Value *bi_masked_select(Interp *I, Args *a) {
    Value *p_[2];                               /* input, mask */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Tensor *t1, *t2, *x = tensor_at(I, a, 0, "input", &t1), *m = x ? tensor_at(I, a, 1, "mask", &t2) : NULL;
    Tensor *r = m ? ten_masked_select(x, m) : NULL;
    ten_free(t1);
    if (m) ten_free(t2);
    return interp_failed(I) ? (ten_free(r), NULL) : done(I, r);
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
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    bool as_tuple = false;
    if (!x || (p_[1] && p_[1]->kind != V_NONE && !arg_bool(I, p_[1], "as_tuple", &as_tuple))) { ten_free(t1); return NULL; }
    Value *r = as_tuple ? torch_nonzero_tuple(I, x) : done(I, ten_nonzero(x));
    ten_free(t1);
    return r;
}

static Value *bi_take(Interp *I, Args *a) {
    Value *p_[2];                               /* input, index */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Tensor *t1, *t2, *x = tensor_at(I, a, 0, "input", &t1), *ix = x ? tensor_at(I, a, 1, "index", &t2) : NULL;
    Tensor *r = ix ? ten_take(x, ix) : NULL;
    ten_free(t1);
    if (ix) ten_free(t2);
    return interp_failed(I) ? (ten_free(r), NULL) : done(I, r);
}

/* Reduces X over dims one at a time, the highest first (a dim given twice is PyTorch's error). */
static Tensor *reduce_dims(TenCtx *c, RedOp op, const Tensor *x, const int64_t *dims, int nd, bool keep) {
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
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    int64_t dims[2 * TEN_MAX_DIMS];
    int nd;
    if (!x || !ints_of(I, p_[1], "dim", dims, &nd)) { ten_free(t1); return NULL; }
    Tensor *z = ten_scalar_i_in(I->run.ten, 0), *ne = ten_binary(OP_NE, x, false, z, true);
    Tensor *r = !ne ? NULL : nd ? reduce_dims(I->run.ten, RED_SUM, ne, dims, nd, false) : ten_reduce(RED_SUM, ne, true, 0, false);
    ten_free(z); ten_free(ne); ten_free(t1);
    return done(I, r);
}

/* ---- products ---- */

/* beta * input + alpha * product, as addmm/baddbmm/addmv: beta 0 ignores input (NaN included), 1 skips a multiply. */
static Tensor *scaled_sum(TenCtx *c, Tensor *input, Tensor *prod, double beta, double alpha) {
    Tensor *p = prod, *b = NULL, *r;
    if (alpha != 1) { Tensor *s = ten_scalar_d_in(c, alpha); p = ten_binary(OP_MUL, prod, false, s, true); ten_free(s); }
    if (!p) return NULL;
    if (beta == 0) r = p == prod ? ten_copy(p) : p;
    else {
        if (beta != 1) { Tensor *s = ten_scalar_d_in(c, beta); b = ten_binary(OP_MUL, input, false, s, true); ten_free(s); }
        r = (beta == 1 || b) ? ten_binary(OP_ADD, beta == 1 ? input : b, false, p, false) : NULL;
        ten_free(b);
        if (p != prod) ten_free(p);
    }
    return r;
}

/* mv(mat, vec) (tag 0); addmm(input, m1, m2, beta=1, alpha=1) (1); baddbmm(input, b1, b2, ...) (2); addmv (3);
 * addbmm (4): the sum of the batch of products. */
static Value *bi_products(Interp *I, Args *a) {
    Value *p_[5];                               /* input, vec (mv) / input, mat1 or batch1 or mat, mat2 or ..., beta, alpha */
    if (!args_bind(I, a, p_, 5)) return NULL;
    int tag = a->fn->tag;
    if (tag == 0) {
        Tensor *t1, *t2, *m = arg_tensor(I, p_[0], "input", &t1), *v = m ? arg_tensor(I, p_[1], "vec", &t2) : NULL;
        Tensor *r = NULL;
        if (v && (m->ndim != 2 || v->ndim != 1)) rt_error(I, "vector + matrix @ vector expected, got %d, %d, %d", 1, m->ndim, v->ndim);
        else if (v) r = ten_matmul(m, v);
        ten_free(t1);
        if (v) ten_free(t2);
        return interp_failed(I) ? (ten_free(r), NULL) : done(I, r);
    }
    Tensor *t0, *t1 = NULL, *t2 = NULL, *in = arg_tensor(I, p_[0], "input", &t0);
    Tensor *m1 = in ? arg_tensor(I, p_[1], "mat1", &t1) : NULL, *m2 = m1 ? arg_tensor(I, p_[2], "mat2", &t2) : NULL;
    double beta = 1, alpha = 1;
    Tensor *r = NULL;
    if (m2 && (!p_[3] || arg_double(I, p_[3], "beta", &beta)) && (!p_[4] || arg_double(I, p_[4], "alpha", &alpha))) {
        int want1 = tag == 2 || tag == 4 ? 3 : 2, want2 = tag == 3 ? 1 : want1;
        if (m1->ndim != want1 || m2->ndim != want2)
            rt_error(I, "%s() expects %dD and %dD operands, got %dD and %dD", a->fname, want1, want2, m1->ndim, m2->ndim);
        else {
            Tensor *p = tag == 2 || tag == 4 ? ten_bmm(m1, m2) : ten_matmul(m1, m2);
            if (p && tag == 4) { Tensor *s = ten_reduce(RED_SUM, p, false, 0, false); ten_free(p); p = s; }
            r = p ? scaled_sum(I->run.ten, in, p, beta, alpha) : NULL;
            if (r != p) ten_free(p);
        }
    }
    ten_free(t0); ten_free(t1); ten_free(t2);
    return interp_failed(I) ? (ten_free(r), NULL) : done(I, r);
}

/* tensordot(a, b, dims=2): contracts the last `dims` dims of a with the first of b (or the listed pairs). */
static Value *bi_tensordot(Interp *I, Args *a) {
    Value *p_[3];                               /* a, b, dims */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *av = p_[0], *bv = p_[1], *dv = p_[2];
    if (!av || !bv || av->kind != V_TENSOR || bv->kind != V_TENSOR) return rt_error(I, "tensordot(a, b, dims=2) needs two tensors");
    Tensor *A = av->u.t, *B = bv->u.t;
    int64_t da[TEN_MAX_DIMS], db[TEN_MAX_DIMS];
    int n = 0;
    if (dv && (dv->kind == V_LIST || dv->kind == V_TUPLE) && dv->u.seq.n == 2) {
        int n2;
        if (!ints_of(I, dv->u.seq.items[0], "dims", da, &n) || !ints_of(I, dv->u.seq.items[1], "dims", db, &n2)) return NULL;
        if (n != n2) return rt_error(I, "both dimension lists should have same length");
    } else {
        int64_t k = 2;
        if (dv && !arg_int(I, dv, "dims", &k)) return NULL;
        if (k < 0) return rt_error(I, "tensordot expects dims >= 0, but got dims=%lld", (long long)k);
        /* PyTorch contracts A's last k dims with B's first k: the first that does not exist is its error */
        if (k > A->ndim) { norm_dim64_in(I->run.ten, -k, A->ndim); return rt_tensor_error(I); }
        if (k > B->ndim) { norm_dim64_in(I->run.ten, k - 1, B->ndim); return rt_tensor_error(I); }
        n = (int)k;
        for (int i = 0; i < n; i++) { da[i] = A->ndim - n + i; db[i] = i; }
    }
    /* einsum with letters: a's dims a.., b's free dims after them, shared letters for the contracted pairs */
    char ea[TEN_MAX_DIMS + 1], eb[TEN_MAX_DIMS + 1], eo[2 * TEN_MAX_DIMS + 1], eq[64];
    int no = 0;
    for (int i = 0; i < A->ndim; i++) ea[i] = (char)('a' + i);
    for (int i = 0; i < B->ndim; i++) eb[i] = (char)('A' + i);
    for (int i = 0; i < n; i++) {
        int x = norm_dim64_in(I->run.ten, da[i], A->ndim), y = x < 0 ? -1 : norm_dim64_in(I->run.ten, db[i], B->ndim);
        if (x < 0 || y < 0) return rt_tensor_error(I);
        eb[y] = ea[x];
    }
    for (int i = 0; i < A->ndim; i++) { bool c = false; for (int j = 0; j < n; j++) if (norm_dim64_in(I->run.ten, da[j], A->ndim) == i) c = true; if (!c) eo[no++] = ea[i]; }
    for (int i = 0; i < B->ndim; i++) if (eb[i] >= 'A' && eb[i] <= 'Z') eo[no++] = eb[i];
    ea[A->ndim] = eb[B->ndim] = eo[no] = 0;
    snprintf(eq, sizeof eq, "%s,%s->%s", ea, eb, eo);
    Tensor *ops[2] = {A, B};
    return done(I, ten_einsum_in(I->run.ten, eq, ops, 2));
}

/* cross(input, other, dim=None): 3-vectors along dim (the first dim of size 3 when None). */
static Value *bi_cross(Interp *I, Args *a) {
    Value *p_[3];                               /* input, other, dim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *xv = p_[0], *yv = p_[1], *dv = p_[2];
    if (!xv || !yv || xv->kind != V_TENSOR || yv->kind != V_TENSOR) return rt_error(I, "cross(input, other, dim=None) needs two tensors");
    Tensor *x = xv->u.t, *y = yv->u.t;
    int64_t d = -1;
    if (dv && dv->kind != V_NONE) { if (!arg_int(I, dv, "dim", &d)) return NULL; }
    else for (int i = 0; i < x->ndim && d < 0; i++) if (x->shape[i] == 3) d = i;
    if (d < 0 && (!dv || dv->kind == V_NONE)) return rt_error(I, "no dimension of size 3 in input");
    int nd = norm_dim64_in(I->run.ten, d, x->ndim);
    if (nd < 0) return rt_tensor_error(I);
    if (x->shape[nd] != 3 || y->ndim <= nd || y->shape[nd] != 3)
        return rt_error(I, "linalg.cross: inputs dimension %d must have length 3. Got %lld and %lld", nd, (long long)x->shape[nd],
                        (long long)(y->ndim > nd ? y->shape[nd] : 0));
    Tensor *c[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
        Tensor *x1 = ten_select(x, nd, (k + 1) % 3), *y2 = ten_select(y, nd, (k + 2) % 3);
        Tensor *x2 = ten_select(x, nd, (k + 2) % 3), *y1 = ten_select(y, nd, (k + 1) % 3);
        Tensor *p = ten_binary(OP_MUL, x1, false, y2, false), *q = ten_binary(OP_MUL, x2, false, y1, false);
        c[k] = p && q ? ten_binary(OP_SUB, p, false, q, false) : NULL;
        ten_free(x1); ten_free(y2); ten_free(x2); ten_free(y1); ten_free(p); ten_free(q);
    }
    Tensor *r = c[0] && c[1] && c[2] ? ten_stack_in(I->run.ten, c, 3, nd) : NULL;
    for (int k = 0; k < 3; k++) ten_free(c[k]);
    return done(I, r);
}

/* ---- shapes and running values ---- */

/* roll(input, shifts, dims=None): elements shifted along dims, wrapping around; no dims: the flattened tensor. */
static Value *bi_roll(Interp *I, Args *a) {
    Value *p_[3];                               /* input, shifts, dims */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *xv = p_[0];
    if (!xv || xv->kind != V_TENSOR) return rt_error(I, "roll(input, shifts, dims=None) needs a tensor");
    Tensor *x = xv->u.t;
    int64_t sh[2 * TEN_MAX_DIMS], dims[2 * TEN_MAX_DIMS];
    int ns, nd;
    if (!p_[1]) return rt_error(I, "roll() missing required argument 'shifts'");
    if (!ints_of(I, p_[1], "shifts", sh, &ns) || !ints_of(I, p_[2], "dims", dims, &nd)) return NULL;
    if (nd == 0) {
        if (ns != 1) return rt_error(I, "roll(): shifts and dims must align. shifts: %d, dims: 0", ns);
        int64_t n = x->numel;
        Tensor *f = ten_reshape(x, 1, &n);
        int64_t s = n ? ((sh[0] % n) + n) % n : 0;
        Tensor *p1 = f ? ten_narrow(f, 0, n - s, s) : NULL, *p2 = f ? ten_narrow(f, 0, 0, n - s) : NULL;
        Tensor *parts[2] = {p1, p2}, *c = p1 && p2 ? ten_cat_in(I->run.ten, parts, 2, 0) : NULL, *r = c ? ten_reshape(c, x->ndim, x->shape) : NULL;
        ten_free(f); ten_free(p1); ten_free(p2); ten_free(c);
        return done(I, r);
    }
    if (ns != nd) return rt_error(I, "shifts and dimensions must align. shifts: %d, dims:%d", ns, nd);
    Tensor *cur = ten_copy(x);
    for (int i = 0; i < nd && cur; i++) {
        int d = norm_dim64_in(I->run.ten, dims[i], cur->ndim);
        if (d < 0) { ten_free(cur); return rt_tensor_error(I); }
        int64_t n = cur->shape[d], s = n ? ((sh[i] % n) + n) % n : 0;
        Tensor *p1 = ten_narrow(cur, d, n - s, s), *p2 = ten_narrow(cur, d, 0, n - s), *parts[2] = {p1, p2};
        Tensor *next = p1 && p2 ? ten_cat_in(I->run.ten, parts, 2, d) : NULL;
        ten_free(p1); ten_free(p2); ten_free(cur);
        cur = next;
    }
    return done(I, cur);
}

/* diag(input, diagonal=0): a vector becomes a square matrix with it on the diagonal; a matrix gives its diagonal. */
static Value *bi_diag(Interp *I, Args *a) {
    Value *p_[2];                               /* input, diagonal */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *xv = p_[0];
    int64_t k;
    if (!xv || xv->kind != V_TENSOR) return rt_error(I, "diag(input, diagonal=0) needs a tensor");
    if (!int_at(I, a, 1, "diagonal", 0, &k)) return NULL;
    Tensor *x = xv->u.t;
    if (x->ndim == 2) {
        Tensor *dg = ten_diagonal(x, k, 0, 1), *c = dg ? ten_copy(dg) : NULL;
        ten_free(dg);
        return done(I, c);
    }
    if (x->ndim != 1) return rt_error(I, "diag(): Supports 1D or 2D tensors. Got %dD", x->ndim);
    int64_t n = x->shape[0] + (k < 0 ? -k : k), sh[2] = {n, n};
    Tensor *m = ten_new_in(I->run.ten, x->dtype, 2, sh), *dg = m ? ten_diagonal(m, k, 0, 1) : NULL;
    if (dg && ten_copy_into(dg, x) < 0) { ten_free(m); m = NULL; }
    ten_free(dg);
    return done(I, m);
}

static Value *bi_cumprod(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, dtype */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    int64_t d;
    if (!x) return NULL;
    if (!p_[1]) { ten_free(t1); return rt_error(I, "cumprod() missing required argument 'dim'"); }
    if (!int_at(I, a, 1, "dim", 0, &d) || !dim_fits(I, d, x->ndim) || !cast_to_dtype_kw(I, a, &x, &t1)) { ten_free(t1); return NULL; }
    Tensor *r = ten_cumprod(x, (int)d);
    ten_free(t1);
    return done(I, r);
}

/* amax / amin (tag RED_MAX / RED_MIN): over dim (an int or tuple; () or absent: everything); NaN propagates. */
static Value *bi_amax(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, keepdim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    int64_t dims[2 * TEN_MAX_DIMS];
    int nd;
    bool keep;
    if (!x || !ints_of(I, p_[1], "dim", dims, &nd) || !bool_at(I, a, 2, "keepdim", false, &keep)) { ten_free(t1); return NULL; }
    Tensor *r = nd ? reduce_dims(I->run.ten, (RedOp)a->fn->tag, x, dims, nd, keep) : ten_reduce((RedOp)a->fn->tag, x, true, 0, keep);
    ten_free(t1);
    return done(I, r);
}

/* logsumexp(input, dim, keepdim=False): log(sum(exp(x))) computed as PyTorch does, around the max. */
static Value *bi_logsumexp(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, keepdim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    int64_t dims[2 * TEN_MAX_DIMS];
    int nd;
    bool keep;
    if (!x || !ints_of(I, p_[1], "dim", dims, &nd) || !bool_at(I, a, 2, "keepdim", false, &keep)) { ten_free(t1); return NULL; }
    if (!p_[1]) { ten_free(t1); return rt_error(I, "logsumexp() missing required argument 'dim'"); }
    Tensor *xf = ten_is_float(x->dtype) ? ten_alias(x) : ten_cast(x, I->run.ten->default_float);
    /* an empty X has no max: its sum (zeros of the reduced shape) shifts nothing, and log(0) gives PyTorch's -inf */
    Tensor *m = xf ? reduce_dims(I->run.ten, xf->numel ? RED_MAX : RED_SUM, xf, dims, nd, true) : NULL;
    /* maxes that are infinite are replaced by 0 (so inf - inf is not taken) */
    Tensor *inf = ten_unary(UOP_ISINF, m ? m : xf), *zero = ten_scalar_d_in(I->run.ten, 0);
    Tensor *m0 = m && inf ? ten_where(inf, zero, true, m, false) : NULL;
    Tensor *d = m0 ? ten_binary(OP_SUB, xf, false, m0, false) : NULL, *e = d ? ten_unary(UOP_EXP, d) : NULL;
    Tensor *s = e ? reduce_dims(I->run.ten, RED_SUM, e, dims, nd, keep) : NULL, *l = s ? ten_unary(UOP_LOG, s) : NULL;
    Tensor *mk = m0 && !keep ? NULL : NULL, *r = NULL;
    if (l) {
        int64_t sh[TEN_MAX_DIMS];
        for (int i = 0; i < l->ndim; i++) sh[i] = l->shape[i];
        mk = keep ? ten_alias(m0) : ten_reshape(m0, l->ndim, sh);
        r = mk ? ten_binary(OP_ADD, l, false, mk, false) : NULL;
    }
    ten_free(xf); ten_free(m); ten_free(inf); ten_free(zero); ten_free(m0); ten_free(d); ten_free(e); ten_free(s); ten_free(l);
    ten_free(mk); ten_free(t1);
    return done(I, r);
}

/* unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None) */
static Value *bi_unique(Interp *I, Args *a) {
    Value *p_[5];                               /* input, sorted, return_inverse, return_counts, dim */
    if (!args_bind(I, a, p_, 5)) return NULL;
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    bool srt, inv, cnt;
    Value *dv = p_[4];
    if (!x || !bool_at(I, a, -1, "sorted", true, &srt) || !bool_at(I, a, -1, "return_inverse", false, &inv) ||
        !bool_at(I, a, -1, "return_counts", false, &cnt)) { ten_free(t1); return NULL; }
    if (dv && dv->kind != V_NONE) { ten_free(t1); return rt_error(I, "unique(dim=...) is not in attn: type help to see what is"); }
    Tensor *iv = NULL, *ct = NULL, *u = ten_unique(x, inv ? &iv : NULL, cnt ? &ct : NULL);
    ten_free(t1);
    if (!u) return rt_tensor_error(I);
    if (!inv && !cnt) return val_tensor(I->run.heap, u);
    Tensor *parts[3] = {u, iv, ct};
    int n = 1;
    if (inv) parts[n++] = iv;
    if (cnt) parts[n++] = ct;
    return tuple_of(I, parts, n);
}

/* meshgrid(*tensors, indexing='ij'): views of each 1-D input broadcast to the grid ('xy' swaps the first two). */
static Value *bi_meshgrid(Interp *I, Args *a) {
    Value *p_[2];                               /* *tensors (a->pos), indexing */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value **items = a->pos, *iv = p_[1];
    int64_t n = a->npos;
    if (n == 1 && (a->pos[0]->kind == V_LIST || a->pos[0]->kind == V_TUPLE)) { items = a->pos[0]->u.seq.items; n = a->pos[0]->u.seq.n; }
    bool xy = false;
    if (iv && iv->kind != V_NONE) {
        if (iv->kind != V_STR || (strcmp(iv->u.str.s, "ij") && strcmp(iv->u.str.s, "xy")))
            return rt_error(I, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\"");
        xy = !strcmp(iv->u.str.s, "xy");
    }
    if (n < 1 || n > TEN_MAX_DIMS) return rt_error(I, "meshgrid expects a non-empty TensorList of at most %d tensors", TEN_MAX_DIMS);
    int64_t shape[TEN_MAX_DIMS];
    for (int64_t i = 0; i < n; i++) {
        if (items[i]->kind != V_TENSOR || items[i]->u.t->ndim > 1)
            return rt_error(I, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %s", val_type_name(items[i]));
        shape[i] = items[i]->u.t->numel;
    }
    int64_t grid[TEN_MAX_DIMS];
    memcpy(grid, shape, sizeof grid);
    if (xy && n >= 2) { grid[0] = shape[1]; grid[1] = shape[0]; }
    /* the grid's views hold no data of their own, but what reads them (print, +, clone) works on that many
     * elements: the per-tensor limit applies, as to expand (the product saturates: 8 inputs of 10**5 overflow) */
    int64_t cells = 1;
    for (int64_t i = 0; i < n && cells; i++)
        cells = grid[i] && cells > I->run.ten->limit_numel / grid[i] ? I->run.ten->limit_numel + 1 : cells * grid[i];
    if (cells > I->run.ten->limit_numel)
        return rt_error(I, "meshgrid: a grid of more than %lld elements is too large for attn", (long long)I->run.ten->limit_numel);
    Tensor *outs[TEN_MAX_DIMS];
    for (int64_t i = 0; i < n; i++) {
        const Tensor *t = items[i]->u.t;
        int64_t st[TEN_MAX_DIMS] = {0};
        int at = xy && n >= 2 && i < 2 ? (int)(1 - i) : (int)i;
        st[at] = t->ndim ? t->stride[0] : 0;
        outs[i] = ten_view_of(t, (int)n, grid, st, t->offset);
    }
    return tuple_of(I, outs, (int)n);
}

/* tile(input, dims): repeat with 1s in front when dims is shorter than the tensor. */
static Value *bi_tile(Interp *I, Args *a) {
    Value *p_[2];                               /* input, dims */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *xv = p_[0];
    int64_t reps[2 * TEN_MAX_DIMS], full[TEN_MAX_DIMS];
    int n;
    if (!xv || xv->kind != V_TENSOR) return rt_error(I, "tile(input, dims) needs a tensor");
    if (!ints_of(I, p_[1], "dims", reps, &n)) return NULL;
    Tensor *x = xv->u.t;
    int m = n > x->ndim ? n : x->ndim;
    if (m > TEN_MAX_DIMS) return rt_error(I, "tensors have at most %d dimensions", TEN_MAX_DIMS);
    for (int i = 0; i < m; i++) full[i] = i < m - n ? 1 : reps[i - (m - n)];
    return done(I, ten_repeat(x, full, m));
}

/* hstack (tag 0: dim 1, dim 0 for vectors), vstack (1: rows, vectors as rows) */
static Value *bi_hstack(Interp *I, Args *a) {
    Value *p_[1];                               /* tensors */
    if (!args_bind(I, a, p_, 1)) return NULL;
    Value *ts = p_[0];
    if (!ts || (ts->kind != V_LIST && ts->kind != V_TUPLE)) return rt_error(I, "%s() needs a non-empty list of tensors", a->fname);
    if (ts->u.seq.n == 0) return rt_raise(I, "RuntimeError", "%s expects a non-empty TensorList", a->fname);     /* PyTorch's words */
    int n = (int)ts->u.seq.n;
    Tensor **arr = xcalloc((size_t)n, sizeof *arr);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        if (ts->u.seq.items[i]->kind != V_TENSOR) { ok = false; rt_error(I, "%s(): item %d is not a tensor", a->fname, i); break; }
        Tensor *t = ts->u.seq.items[i]->u.t;
        if (a->fn->tag == 1 && t->ndim < 2) {
            int64_t sh[2] = {1, t->numel};
            arr[i] = ten_reshape(t, 2, sh);
        } else arr[i] = ten_alias(t);
        if (!arr[i]) ok = false;
    }
    Tensor *r = NULL;
    if (ok) r = ten_cat_in(I->run.ten, arr, n, a->fn->tag == 1 ? 0 : (arr[0]->ndim == 1 ? 0 : 1));
    for (int i = 0; i < n; i++) ten_free(arr[i]);
    free(arr);
    if (interp_failed(I)) { ten_free(r); return NULL; }
    return done(I, r);
}

/* log1p, expm1, erf, sinh, ... and torch.nn.functional's gelu, silu, softplus, ...: tag indexes MAP_NAMES. */
static const char *const MAP_NAMES[] = {"log1p", "expm1", "exp2", "erf", "erfc", "sinh", "cosh", "asinh", "acosh", "atanh",
                                        "reciprocal", "trunc", "frac", "silu", "softplus", "mish", "hardtanh", "logsigmoid", "gelu"};
/* inplace=True of F.silu, F.mish, F.relu, F.dropout: whether input xv may be written in place. Under grad mode on a
 * tensor that requires grad: PyTorch's refusal for a leaf or a view of one (ag_inplace_check), and attn's own for
 * the rest (the in-place node is not recorded yet). false with the error set. */
static bool inplace_allowed(Interp *I, Args *a, const Value *xv) {
    if (!xv || xv->kind != V_TENSOR) { rt_error(I, "%s(): inplace=True needs a tensor input", a->fname); return false; }
    if (!I->run.ag.grad_enabled || !ag_requires_grad(xv->ag)) return true;
    if (ag_inplace_check(&I->run.ag, xv->ag) < 0) { rt_tensor_error(I); return false; }
    rt_error(I, "F.%s(x, inplace=True) on a tensor that requires grad has no gradient in attn yet: use F.%s(x), "
                "which gives a new tensor", a->fname, a->fname);
    return false;
}

/* r (owned, NULL: the tensor error) written into the tensor xv itself, as PyTorch's in-place functions do: its
 * _version moves and every view sees it; xv returned (a new reference). */
static Value *write_into(Interp *I, Value *xv, Tensor *r) {
    if (!r) return rt_tensor_error(I);
    int rc = ten_copy_into(xv->u.t, r);
    ten_free(r);
    return rc < 0 ? rt_tensor_error(I) : val_incref(xv);
}

static Value *bi_map(Interp *I, Args *a) {
    Value *p_[2] = {NULL, NULL};                /* input, approximate (gelu) or inplace (silu, mish) */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    if (!x) return NULL;
    const char *name = MAP_NAMES[a->fn->tag];
    Value *ap = !strcmp(name, "gelu") ? p_[1] : NULL, *in = p_[0];
    bool exact = !ap || (ap->kind == V_STR && !strcmp(ap->u.str.s, "none"));
    bool tanh_gelu = !exact && ap->kind == V_STR && !strcmp(ap->u.str.s, "tanh");
    if (in && in->kind == V_TENSOR && grad_recording(I, 1, &in) && ((!strcmp(name, "gelu") && (exact || tanh_gelu)) || !strcmp(name, "reciprocal"))) {
        ten_free(t1);                          /* GeluBackward0 (either gelu), ReciprocalBackward0 */
        AgContext *c = &I->run.ag;
        return ret_ag(I, name[0] != 'g' ? ag_reciprocal(c, arg_ag(in)) : tanh_gelu ? ag_gelu_tanh(c, arg_ag(in)) : ag_gelu(c, arg_ag(in)));
    }
    if (ap && ap->kind == V_STR && !strcmp(name, "gelu")) {
        if (!strcmp(ap->u.str.s, "tanh")) name = "gelu_tanh";
        else if (strcmp(ap->u.str.s, "none")) { ten_free(t1); return rt_error(I, "approximate argument must be either none or tanh."); }
    }
    bool inplace = false;                       /* silu, mish: inplace=True writes the result into input */
    if (!ap && p_[1] && !arg_bool(I, p_[1], "inplace", &inplace)) { ten_free(t1); return NULL; }
    if (inplace) { ten_free(t1); return inplace_allowed(I, a, in) ? write_into(I, in, ten_map(name, in->u.t)) : NULL; }
    Tensor *r = ten_map(name, x);
    ten_free(t1);
    return done(I, r);
}

/* ---- torch.nn.functional ---- */

/* F.hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False): min(max(x, min_val), max_val), NaN kept
 * (HardtanhBackward0 recorded after the call by ag_after.c), or written into input with inplace=True. */
static Value *bi_f_hardtanh(Interp *I, Args *a) {
    Value *p_[4];                               /* input, min_val, max_val, inplace */
    if (!args_bind(I, a, p_, 4)) return NULL;
    double lo, hi;
    bool inplace;
    if (!num_at(I, a, 1, "min_val", -1, &lo) || !num_at(I, a, 2, "max_val", 1, &hi) ||
        !bool_at(I, a, 3, "inplace", false, &inplace)) return NULL;
    if (inplace) return inplace_allowed(I, a, p_[0]) ? write_into(I, p_[0], ten_clamp(p_[0]->u.t, lo, hi)) : NULL;
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    if (!x) return NULL;
    Tensor *r = ten_clamp(x, lo, hi);
    ten_free(t1);
    return done(I, r);
}

/* F.softplus(input, beta=1, threshold=20): log(1 + exp(beta*x)) / beta, linear where beta*x > threshold
 * (SoftplusBackward0 recorded after the call by ag_after.c, which reads beta and threshold); floats only, as
 * PyTorch's kernel. */
static Value *bi_f_softplus(Interp *I, Args *a) {
    Value *p_[3];                               /* input, beta, threshold */
    if (!args_bind(I, a, p_, 3)) return NULL;
    double beta, threshold;
    if (!num_at(I, a, 1, "beta", 1, &beta) || !num_at(I, a, 2, "threshold", 20, &threshold)) return NULL;
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    if (!x) return NULL;
    if (!ten_is_float(x->dtype)) {
        ten_free(t1);
        return rt_error(I, "\"softplus_cpu\" not implemented for '%s'", ten_dtype_word(x->dtype));
    }
    Tensor *r = ten_softplus(x, beta, threshold);
    ten_free(t1);
    return done(I, r);
}

/* F.relu(input, inplace=False): torch.relu (ReluBackward0 when recorded), or written into input with inplace=True. */
static Value *bi_f_relu(Interp *I, Args *a) {
    Value *p_[2];                               /* input, inplace */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *in = p_[0];
    bool inplace;
    if (!bool_at(I, a, 1, "inplace", false, &inplace)) return NULL;
    if (inplace) return inplace_allowed(I, a, in) ? write_into(I, in, ten_unary(UOP_RELU, in->u.t)) : NULL;
    if (in && in->kind == V_TENSOR && grad_recording(I, 1, &in)) return ret_ag(I, ag_unary(&I->run.ag, UOP_RELU, arg_ag(in)));
    Tensor *t1, *x = tensor_at(I, a, 0, "input", &t1);
    if (!x) return NULL;
    Tensor *r = ten_unary(UOP_RELU, x);
    ten_free(t1);
    return done(I, r);
}

/* F.dropout(input, p=0.5, training=True): each element zeroed with probability p, the rest scaled by 1/(1-p);
 * with training=False the input itself. attn's generator (torch.manual_seed), not PyTorch's numbers. */
static Value *bi_f_dropout(Interp *I, Args *a) {
    Value *p_[4];                               /* input, p, training, inplace */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *xv = p_[0];
    double p;
    bool training, inplace;
    if (!xv || xv->kind != V_TENSOR) return rt_error(I, "dropout(input, p=0.5, training=True) needs a tensor");
    if (!num_at(I, a, 1, "p", 0.5, &p) || !bool_at(I, a, 2, "training", true, &training) ||
        !bool_at(I, a, 3, "inplace", false, &inplace)) return NULL;
    if (p < 0 || p > 1) return rt_error(I, "dropout probability has to be between 0 and 1, but got %g", p);
    if (!training || p == 0) return val_incref(xv);
    Tensor *x = xv->u.t;
    if (!ten_is_float(x->dtype)) return rt_error(I, "dropout(): expected a floating point tensor, got %s", ten_dtype_name(x->dtype));
    if (inplace && !inplace_allowed(I, a, xv)) return NULL;
    Tensor *r = ten_new_in(I->run.ten, x->dtype, x->ndim, x->shape);
    if (!r) return rt_tensor_error(I);
    Rng *g = &I->run.rng;
    double scale = p >= 1 ? 0 : 1 / (1 - p);
    if (grad_recording(I, 1, &xv)) {
        /* recorded as PyTorch records it: x * noise (the kept elements' scale, zeros elsewhere), MulBackward0 */
        for (int64_t i = 0; i < r->numel; i++) ten_set(r, i, rng_uniform(g) < p ? 0 : scale);
        AgVal y = ag_dropout(&I->run.ag, arg_ag(xv), r);
        ten_free(r);
        return ret_ag(I, y);
    }
    for (int64_t i = 0; i < r->numel; i++) ten_set(r, i, rng_uniform(g) < p ? 0 : ten_get(x, i) * scale);
    return inplace ? write_into(I, xv, r) : val_tensor(I->run.heap, r);
}

/* F.linear(input, weight, bias=None): input @ weight.T + bias. */
static Value *bi_f_linear(Interp *I, Args *a) {
    Value *p_[3];                               /* input, weight, bias */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *xv = p_[0], *wv = p_[1], *bv = p_[2];
    if (!xv || !wv || xv->kind != V_TENSOR || wv->kind != V_TENSOR) return rt_error(I, "linear(input, weight, bias=None) needs tensors");
    Tensor *W = wv->u.t;
    if (W->ndim > 2) return rt_error(I, "linear(): weight must be 1-D or 2-D, got %dD", W->ndim);
    bool has_b = bv && bv->kind != V_NONE;
    if (has_b && bv->kind != V_TENSOR) return rt_error(I, "linear(): bias must be a tensor");
    Value *xwb[3] = {xv, wv, has_b ? bv : NULL};
    if (W->ndim == 2 && grad_recording(I, 3, xwb)) {
        AgVal b = has_b ? arg_ag(bv) : (AgVal){NULL, NULL};
        return ret_ag(I, ag_linear(&I->run.ag, arg_ag(xv), arg_ag(wv), b));
    }
    Tensor *wt = W->ndim == 2 ? ten_transpose(W, 0, 1) : ten_alias(W), *y = wt ? ten_matmul(xv->u.t, wt) : NULL;
    ten_free(wt);
    if (y && bv && bv->kind != V_NONE) {
        if (bv->kind != V_TENSOR) { ten_free(y); return rt_error(I, "linear(): bias must be a tensor"); }
        Tensor *s = ten_binary(OP_ADD, y, false, bv->u.t, false);
        ten_free(y);
        y = s;
    }
    return done(I, y);
}

/* F.pad(input, pad, mode='constant', value=0): pad = (left, right) for the last dim, then (top, bottom) for the one
 * before, ...; negative amounts crop. */
static Value *bi_f_pad(Interp *I, Args *a) {
    Value *p_[4];                               /* input, pad, mode, value */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *xv = p_[0], *mv = p_[2];
    int64_t pad[2 * TEN_MAX_DIMS];
    int np;
    double value;
    if (!xv || xv->kind != V_TENSOR) return rt_error(I, "pad(input, pad, mode='constant', value=0) needs a tensor");
    if (mv && mv->kind != V_NONE && (mv->kind != V_STR || strcmp(mv->u.str.s, "constant")))
        return rt_error(I, "F.pad(mode=%s%s%s) is not in attn: only mode='constant' (type help to see what is)",
                        mv->kind == V_STR ? "'" : "", mv->kind == V_STR ? mv->u.str.s : "?", mv->kind == V_STR ? "'" : "");
    if (!p_[1] || !ints_of(I, p_[1], "pad", pad, &np) || !num_at(I, a, 3, "value", 0, &value)) {
        if (!interp_failed(I)) rt_error(I, "pad() missing required argument 'pad'");
        return NULL;
    }
    Tensor *x = xv->u.t;
    if (np % 2) return rt_error(I, "Padding length must be divisible by 2");
    if (np / 2 > x->ndim) return rt_error(I, "Padding length too large");
    int64_t sh[TEN_MAX_DIMS], lo[TEN_MAX_DIMS] = {0};
    memcpy(sh, x->shape, sizeof sh);
    for (int i = 0; i < np / 2; i++) {
        int d = x->ndim - 1 - i;
        sh[d] += pad[2 * i] + pad[2 * i + 1];
        lo[d] = pad[2 * i];
        if (sh[d] < 0) return rt_error(I, "The input size %lld, plus negative padding %lld and %lld resulted in a negative output size, "
                                          "which is invalid. Check dimension %d of your input.", (long long)x->shape[d],
                                       (long long)pad[2 * i], (long long)pad[2 * i + 1], d);
    }
    Tensor *o = ten_full_in(I->run.ten, x->dtype, x->ndim, sh, value);
    if (!o) return rt_tensor_error(I);
    /* the part of x that survives, and where it goes */
    Tensor *src = ten_alias(x), *dst = ten_alias(o);
    for (int d = 0; d < x->ndim && src && dst; d++) {
        int64_t s0 = lo[d] < 0 ? -lo[d] : 0, o0 = lo[d] > 0 ? lo[d] : 0;
        int64_t len = x->shape[d] - s0;
        if (len > sh[d] - o0) len = sh[d] - o0;
        if (len < 0) len = 0;
        Tensor *ns = ten_narrow(src, d, s0, len), *nd = ten_narrow(dst, d, o0, len);
        ten_free(src); ten_free(dst);
        src = ns; dst = nd;
    }
    int rc = src && dst ? ten_copy_into(dst, src) : -1;
    ten_free(src);
    ten_free(dst);
    if (rc < 0) { ten_free(o); return rt_tensor_error(I); }
    return val_tensor(I->run.heap, o);
}

/* F.normalize(input, p=2.0, dim=1, eps=1e-12): input / max(||input||_p along dim, eps). */
static Value *bi_f_normalize(Interp *I, Args *a) {
    Value *p_[4];                               /* input, p, dim, eps */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *xv = p_[0];
    double p, eps;
    int64_t d;
    if (!xv || xv->kind != V_TENSOR) return rt_error(I, "normalize(input, p=2.0, dim=1, eps=1e-12) needs a tensor");
    if (!num_at(I, a, 1, "p", 2, &p) || !int_at(I, a, 2, "dim", 1, &d) || !num_at(I, a, 3, "eps", 1e-12, &eps)) return NULL;
    if (!dim_fits(I, d, xv->u.t->ndim)) return NULL;
    int dim = (int)d;
    Tensor *n = ten_norm(xv->u.t, p, &dim, 1, true), *e = ten_scalar_d_in(I->run.ten, eps);
    Tensor *c = n ? ten_binary(OP_MAXIMUM, n, false, e, true) : NULL, *r = c ? ten_binary(OP_DIV, xv->u.t, false, c, false) : NULL;
    ten_free(n); ten_free(e); ten_free(c);
    return done(I, r);
}

/* F.one_hot(tensor, num_classes=-1): int64 (..., C) with a 1 at each value. */
static Value *bi_f_one_hot(Interp *I, Args *a) {
    Value *p_[2];                               /* tensor, num_classes */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *xv = p_[0];
    int64_t c;
    if (!xv || xv->kind != V_TENSOR) return rt_error(I, "one_hot(tensor, num_classes=-1) needs a tensor");
    if (!int_at(I, a, 1, "num_classes", -1, &c)) return NULL;
    Tensor *x = xv->u.t;
    if (x->dtype != DT_I64) return rt_error(I, "one_hot is only applicable to index tensor.");
    int64_t mx = -1;
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t v = ten_get_i64(x, i);
        if (v < 0) return rt_error(I, "Class values must be non-negative.");
        if (v > mx) mx = v;
    }
    if (c == -1) c = mx + 1;
    if (x->numel && mx >= c) return rt_error(I, "Class values must be smaller than num_classes.");
    if (x->ndim >= TEN_MAX_DIMS) return rt_error(I, "tensors have at most %d dimensions", TEN_MAX_DIMS);
    int64_t sh[TEN_MAX_DIMS];
    memcpy(sh, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    sh[x->ndim] = c;
    Tensor *o = ten_new_in(I->run.ten, DT_I64, x->ndim + 1, sh);
    if (!o) return rt_tensor_error(I);
    for (int64_t i = 0; i < x->numel; i++) ten_i64(o)[i * c + ten_get_i64(x, i)] = 1;
    return val_tensor(I->run.heap, o);
}

/* F.scaled_dot_product_attention recorded, by the formula below through the autograd ops (PyTorch 2's math path:
 * matmul, MulBackward0 by the scale, where for a bool or causal mask, AddBackward0 for a float one, softmax, dropout
 * as x * noise, matmul). The arguments are checked by the caller. A new value or NULL with an error set. */
static Value *sdpa_recorded(Interp *I, Args *a, double scale, double p, bool causal) {
    AgContext *c = &I->run.ag;
    Value *qv = arg(a, 0, "query"), *kv = arg(a, 1, "key"), *vv = arg(a, 2, "value"), *mv = arg(a, 3, "attn_mask");
    bool has_mask = mv && mv->kind == V_TENSOR;
    Tensor *Q = qv->u.t, *K = kv->u.t, *sc = ten_scalar_d_in(I->run.ten, scale), *keep = NULL, *ninf = ten_scalar_d_in(I->run.ten, -INFINITY);
    AgVal fail = {NULL, NULL}, kt = ag_transpose(c, arg_ag(kv), -2, -1), s0 = kt.t ? ag_matmul(c, arg_ag(qv), kt) : fail;
    AgVal S = s0.t && sc ? ag_binary(c, OP_MUL, s0, false, (AgVal){sc, NULL}, true) : fail;
    ag_val_free(kt);
    ag_val_free(s0);
    if (causal) {
        int64_t sh[2] = {Q->shape[Q->ndim - 2], K->shape[K->ndim - 2]};
        Tensor *ones = ten_full_in(I->run.ten, DT_BOOL, 2, sh, 1);
        keep = ones ? ten_tril(ones, 0, false) : NULL;
        ten_free(ones);
    } else if (has_mask && mv->u.t->dtype == DT_BOOL) keep = ten_alias(mv->u.t);
    if (S.t && keep && ninf) {
        AgVal m = ag_where(c, keep, S, false, (AgVal){ninf, NULL}, true);
        ag_val_free(S);
        S = m;
    } else if (S.t && has_mask && mv->u.t->dtype != DT_BOOL) {
        AgVal m = ag_binary(c, OP_ADD, S, false, arg_ag(mv), false);
        ag_val_free(S);
        S = m;
    }
    ten_free(keep); ten_free(ninf); ten_free(sc);
    AgVal W = S.t ? ag_softmax(c, S, -1) : fail;
    ag_val_free(S);
    if (W.t && p > 0) {
        Tensor *noise = ten_new_in(I->run.ten, W.t->dtype, W.t->ndim, W.t->shape);
        double k = p >= 1 ? 0 : 1 / (1 - p);
        for (int64_t i = 0; noise && i < noise->numel; i++) ten_set(noise, i, rng_uniform(&I->run.rng) < p ? 0 : k);
        AgVal d = noise ? ag_dropout(c, W, noise) : fail;
        ten_free(noise);
        ag_val_free(W);
        W = d;
    }
    AgVal out = W.t ? ag_matmul(c, W, arg_ag(vv)) : fail;
    ag_val_free(W);
    return ret_ag(I, out);
}

/* F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
 * softmax(Q Kᵀ * scale + bias) V with scale 1/sqrt(d); a bool mask keeps where True (-inf elsewhere), a float mask
 * is added; is_causal keeps j <= i. query (..., L, d), key (..., S, d), value (..., S, v) -> (..., L, v). */
static Value *bi_f_sdpa(Interp *I, Args *a) {
    Value *p_[7];                               /* query, key, value, attn_mask, dropout_p, is_causal, scale */
    if (!args_bind(I, a, p_, 7)) return NULL;
    Value *qv = p_[0], *kv = p_[1], *vv = p_[2], *mv = p_[3];
    double p, scale;
    bool causal;
    if (!qv || !kv || !vv || qv->kind != V_TENSOR || kv->kind != V_TENSOR || vv->kind != V_TENSOR)
        return rt_error(I, "scaled_dot_product_attention(query, key, value, ...) needs three tensors");
    if (!num_at(I, a, 4, "dropout_p", 0, &p) || !bool_at(I, a, 5, "is_causal", false, &causal)) return NULL;
    Tensor *Q = qv->u.t, *K = kv->u.t, *V = vv->u.t;
    if (Q->ndim < 2 || K->ndim < 2 || V->ndim < 2) return rt_error(I, "scaled_dot_product_attention: query, key and value need at least 2 dims");
    if (!num_at(I, a, -1, "scale", 1 / sqrt((double)Q->shape[Q->ndim - 1]), &scale)) return NULL;
    bool has_mask = mv && mv->kind != V_NONE;
    if (has_mask && mv->kind != V_TENSOR) return rt_error(I, "scaled_dot_product_attention: attn_mask must be a tensor");
    if (has_mask && causal) return rt_error(I, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
    if (grad_recording(I, 4, (Value *[]){qv, kv, vv, has_mask ? mv : NULL})) return sdpa_recorded(I, a, scale, p, causal);
    Tensor *kt = ten_transpose(K, -2, -1), *s0 = kt ? ten_matmul(Q, kt) : NULL, *sc = ten_scalar_d_in(I->run.ten, scale);
    Tensor *S = s0 ? ten_binary(OP_MUL, s0, false, sc, true) : NULL;
    ten_free(kt); ten_free(s0); ten_free(sc);
    int64_t L = Q->shape[Q->ndim - 2], Sn = K->shape[K->ndim - 2];
    Tensor *keep = NULL, *bias = NULL;
    if (causal) {
        int64_t sh[2] = {L, Sn};
        Tensor *ones = ten_full_in(I->run.ten, DT_BOOL, 2, sh, 1);
        keep = ones ? ten_tril(ones, 0, false) : NULL;
        ten_free(ones);
    } else if (has_mask && mv->u.t->dtype == DT_BOOL) keep = ten_alias(mv->u.t);
    else if (has_mask) bias = ten_alias(mv->u.t);
    if (S && keep) {
        Tensor *ninf = ten_scalar_d_in(I->run.ten, -INFINITY), *m = ten_where(keep, S, false, ninf, true);
        ten_free(ninf); ten_free(S);
        S = m;
    }
    if (S && bias) { Tensor *m = ten_binary(OP_ADD, S, false, bias, false); ten_free(S); S = m; }
    ten_free(keep); ten_free(bias);
    Tensor *W = S ? ten_softmax(S, -1) : NULL;
    ten_free(S);
    if (W && p > 0) {
        Rng *g = &I->run.rng;
        double k = p >= 1 ? 0 : 1 / (1 - p);
        for (int64_t i = 0; i < W->numel; i++) ten_set(W, i, rng_uniform(g) < p ? 0 : ten_get(W, i) * k);
    }
    Tensor *out = W ? ten_matmul(W, V) : NULL;
    ten_free(W);
    return done(I, out);
}

/* is_tensor(x) (tag 0), is_floating_point(x) (tag 1) */
static Value *bi_is_tensor(Interp *I, Args *a) {
    Value *v;                                   /* obj / input */
    if (!args_bind(I, a, &v, 1)) return NULL;
    if (a->fn->tag == 0) return val_bool(I->run.heap, v->kind == V_TENSOR);
    if (v->kind != V_TENSOR) return rt_error(I, "is_floating_point(): argument 'input' must be Tensor, not %s", val_type_name(v));
    return val_bool(I->run.heap, ten_is_float(v->u.t->dtype));
}

#define MAPF(name, module, sig, help, tag) {name, bi_map, sig, help, "", tag, module}
const Builtin bi_torch_more[] = {
    {"is_tensor", bi_is_tensor, "torch.is_tensor(obj)", "True when obj is a tensor.", "", 0, "torch"},
    {"is_floating_point", bi_is_tensor, "torch.is_floating_point(input)", "True when X is float32 or float64.", "", 1, "torch"},
    {"einsum", bi_einsum, "torch.einsum(equation, *operands)",
     "Sums of products named by letters: torch.einsum('bqd,bkd->bqk', Q, K) is Q @ K.transpose(1, 2) per batch. Letters "
     "in the output stay, the others are summed; '...' stands for the unnamed dims.", "", 0, "torch"},
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
    {"mv", bi_products, "torch.mv(input, vec)", "Matrix times vector.", "", 0, "torch"},
    {"addmm", bi_products, "torch.addmm(input, mat1, mat2, *, beta=1, alpha=1)", "beta * input + alpha * (mat1 @ mat2).", "", 1, "torch"},
    {"baddbmm", bi_products, "torch.baddbmm(input, batch1, batch2, *, beta=1, alpha=1)",
     "beta * input + alpha * bmm(batch1, batch2): a batched product added to input (an attention bias, say).", "", 2, "torch"},
    {"addmv", bi_products, "torch.addmv(input, mat, vec, *, beta=1, alpha=1)", "beta * input + alpha * (mat @ vec).", "", 3, "torch"},
    {"addbmm", bi_products, "torch.addbmm(input, batch1, batch2, *, beta=1, alpha=1)", "beta * input + alpha * the sum of the batch of products.", "", 4, "torch"},
    {"tensordot", bi_tensordot, "torch.tensordot(a, b, dims=2)", "Contracts the last dims of a with the first dims of b.", "", 0, "torch"},
    {"cross", bi_cross, "torch.cross(input, other, dim=None)", "Cross product of 3-vectors along dim.", "", 0, "torch"},
    {"roll", bi_roll, "torch.roll(input, shifts, dims=None)", "Shifts elements along dims, those falling off one end coming back at the other.", "", 0, "torch"},
    {"diag", bi_diag, "torch.diag(input, diagonal=0)", "A vector becomes a diagonal matrix; a matrix gives its diagonal (a copy).", "", 0, "torch"},
    {"cumprod", bi_cumprod, "torch.cumprod(input, dim, *, dtype=None)", "Running products along dim.", "", 0, "torch"},
    {"amax", bi_amax, "torch.amax(input, dim=(), keepdim=False)", "Largest values over dim (several dims allowed), without indices.", "", RED_MAX, "torch"},
    {"amin", bi_amax, "torch.amin(input, dim=(), keepdim=False)", "Smallest values over dim, without indices.", "", RED_MIN, "torch"},
    {"logsumexp", bi_logsumexp, "torch.logsumexp(input, dim, keepdim=False)", "log(sum(exp(input))) along dim, computed stably.", "", 0, "torch"},
    {"unique", bi_unique, "torch.unique(input, *, sorted=True, return_inverse=False, return_counts=False, dim=None)",
     "The distinct values, sorted; with return_inverse where each element went, with return_counts how often each came.", "", 0, "torch"},
    {"meshgrid", bi_meshgrid, "torch.meshgrid(*tensors, indexing='ij')", "Grids of coordinates from 1-D tensors (views).", "", 0, "torch"},
    {"tile", bi_tile, "torch.tile(input, dims)", "Repeats the tensor dims times along each dimension.", "", 0, "torch"},
    {"hstack", bi_hstack, "torch.hstack(tensors)", "Joins side by side (along dim 1; vectors end to end).", "", 0, "torch"},
    {"vstack", bi_hstack, "torch.vstack(tensors)", "Joins as rows (vectors become rows).", "", 1, "torch"},
    MAPF("log1p", "torch", "torch.log1p(input)", "log(1 + x), accurate for small x.", 0),
    MAPF("expm1", "torch", "torch.expm1(input)", "exp(x) - 1, accurate for small x.", 1),
    MAPF("exp2", "torch", "torch.exp2(input)", "2 ** x.", 2),
    MAPF("erf", "torch", "torch.erf(input)", "The error function.", 3),
    MAPF("erfc", "torch", "torch.erfc(input)", "1 - erf(x).", 4),
    MAPF("sinh", "torch", "torch.sinh(input)", "Hyperbolic sine.", 5),
    MAPF("cosh", "torch", "torch.cosh(input)", "Hyperbolic cosine.", 6),
    MAPF("asinh", "torch", "torch.asinh(input)", "Inverse hyperbolic sine.", 7),
    MAPF("acosh", "torch", "torch.acosh(input)", "Inverse hyperbolic cosine.", 8),
    MAPF("atanh", "torch", "torch.atanh(input)", "Inverse hyperbolic tangent.", 9),
    MAPF("reciprocal", "torch", "torch.reciprocal(input)", "1 / x.", 10),
    MAPF("trunc", "torch", "torch.trunc(input)", "Rounds toward zero.", 11),
    MAPF("frac", "torch", "torch.frac(input)", "x - trunc(x).", 12),
    MAPF("silu", "F", "F.silu(input, inplace=False)", "x * sigmoid(x).", 13),
    {"softplus", bi_f_softplus, "F.softplus(input, beta=1, threshold=20)",
     "log(1 + exp(beta*x)) / beta, a smooth ReLU (x itself where beta*x > threshold).", "", 0, "F"},
    MAPF("mish", "F", "F.mish(input, inplace=False)", "x * tanh(softplus(x)).", 15),
    {"hardtanh", bi_f_hardtanh, "F.hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False)",
     "x clipped to [min_val, max_val]; inplace=True writes it into input.", "", 0, "F"},
    MAPF("logsigmoid", "F", "F.logsigmoid(input)", "log(sigmoid(x)).", 17),
    MAPF("gelu", "F", "F.gelu(input, *, approximate='none')", "x * Φ(x), the Gaussian error linear unit ('tanh': its tanh approximation).", 18),
    {"relu", bi_f_relu, "F.relu(input, inplace=False)", "max(x, 0) elementwise; inplace=True writes it into input.", "", 0, "F"},
    {"dropout", bi_f_dropout, "F.dropout(input, p=0.5, training=True, inplace=False)",
     "Zeroes each element with probability p and scales the rest by 1/(1-p); training=False returns input.", "§5.6", 0, "F"},
    {"linear", bi_f_linear, "F.linear(input, weight, bias=None)", "input @ weight.T + bias, what nn.Linear computes.", "", 0, "F"},
    {"pad", bi_f_pad, "F.pad(input, pad, mode='constant', value=0)",
     "Pads the last dims: pad=(left, right) for the last, then (top, bottom) for the one before; negative crops.", "", 0, "F"},
    {"normalize", bi_f_normalize, "F.normalize(input, p=2.0, dim=1, eps=1e-12)", "Divides by the p-norm along dim (at least eps).", "", 0, "F"},
    {"one_hot", bi_f_one_hot, "F.one_hot(tensor, num_classes=-1)", "Class indices to one-hot rows of length num_classes.", "", 0, "F"},
    {"scaled_dot_product_attention", bi_f_sdpa,
     "F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None)",
     "softmax(Q Kᵀ / sqrt(d) + mask) V in one call, PyTorch 2's fused attention: a bool attn_mask keeps where True, a "
     "float one is added; is_causal lets position i see only j <= i. The book's DotProductAttention (§11.3).", "", 0, "F"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

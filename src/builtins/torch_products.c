/* torch_products.c - torch's products beyond matmul: einsum, the matrix-product variants (mv, addmm, baddbmm,
 * addmv, addbmm), tensordot and cross. */
#include "torch_more_internal.h"

/* ---- einsum ---- */

/* einsum(equation, *operands) or einsum(equation, [operands]) */
static Value *bi_einsum(Interp *I, Args *a) {
    /* by hand: PyTorch's is def einsum(*args), which counts in its body (its ValueError) and takes no keyword */
    if (a->nkw) return rt_raise(I, "TypeError", "einsum() got an unexpected keyword argument '%s'", a->kwnames[0]);
    if (a->npos < 2)
        return rt_raise(I, "ValueError", "einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list");
    if (a->pos[0]->kind != V_STR) return rt_error(I, "einsum(equation, *operands), e.g. torch.einsum('ij,jk->ik', A, B)");
    Value **items = a->pos + 1;
    int64_t n = a->npos - 1;
    if (n == 1 && (a->pos[1]->kind == V_LIST || a->pos[1]->kind == V_TUPLE)) { items = a->pos[1]->u.seq.items; n = a->pos[1]->u.seq.n; }
    if (n > 8) return rt_error(I, "einsum(): attn takes at most 8 operands");
    Tensor *ops[8];
    for (int64_t i = 0; i < n; i++) {
        if (items[i]->kind != V_TENSOR) return rt_error(I, "einsum(): operand %lld is a %s, not a tensor", (long long)i, val_type_name(items[i]));
        ops[i] = items[i]->u.t;
    }
    return rt_tensor_result(I, ten_einsum_in(I->run.ten, a->pos[0]->u.str.s, ops, (int)n));
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
        ArgTensor t1 = {0}, t2 = {0}; Tensor *m = arg_tensor(I, a, p_[0], "input", ARG_TENSOR, &t1), *v = m ? arg_tensor(I, a, p_[1], "vec", ARG_TENSOR, &t2) : NULL;
        Tensor *r = NULL;
        if (v && (m->ndim != 2 || v->ndim != 1)) rt_error(I, "vector + matrix @ vector expected, got %d, %d, %d", 1, m->ndim, v->ndim);
        else if (v) r = ten_matmul(m, v);
        arg_tensor_release(&t1);
        arg_tensor_release(&t2);
        return interp_failed(I) ? (ten_free(r), NULL) : rt_tensor_result(I, r);
    }
    /* PyTorch's parameter names: addmm(input, mat1, mat2), baddbmm and addbmm (input, batch1, batch2), addmv(input, mat, vec) */
    const char *n1 = tag == 3 ? "mat" : tag == 1 ? "mat1" : "batch1", *n2 = tag == 3 ? "vec" : tag == 1 ? "mat2" : "batch2";
    ArgTensor t0, t1 = {0}, t2 = {0};
    Tensor *in = arg_tensor(I, a, p_[0], "input", ARG_TENSOR, &t0);
    Tensor *m1 = in ? arg_tensor(I, a, p_[1], n1, ARG_TENSOR, &t1) : NULL, *m2 = m1 ? arg_tensor(I, a, p_[2], n2, ARG_TENSOR, &t2) : NULL;
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
    arg_tensor_release(&t0); arg_tensor_release(&t1); arg_tensor_release(&t2);
    return interp_failed(I) ? (ten_free(r), NULL) : rt_tensor_result(I, r);
}

/* tensordot(a, b, dims=2): contracts the last `dims` dims of a with the first of b (or the listed pairs). */
static Value *bi_tensordot(Interp *I, Args *a) {
    Value *p_[3];                               /* a, b, dims */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *av = p_[0], *bv = p_[1], *dv = p_[2];
    if (!av || !bv) return rt_error(I, "tensordot(a, b, dims=2) needs two tensors");
    if (av->kind != V_TENSOR || bv->kind != V_TENSOR) return arg_not_tensor(I, a, av->kind != V_TENSOR ? av : bv, av->kind != V_TENSOR ? "input" : "other", ARG_TENSOR);
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
    return rt_tensor_result(I, ten_einsum_in(I->run.ten, eq, ops, 2));
}

/* cross(input, other, dim=None): 3-vectors along dim (the first dim of size 3 when None). */
static Value *bi_cross(Interp *I, Args *a) {
    Value *p_[3];                               /* input, other, dim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *xv = p_[0], *yv = p_[1], *dv = p_[2];
    if (!xv || !yv) return rt_error(I, "cross(input, other, dim=None) needs two tensors");
    if (xv->kind != V_TENSOR || yv->kind != V_TENSOR) return arg_not_tensor(I, a, xv->kind != V_TENSOR ? xv : yv, xv->kind != V_TENSOR ? "input" : "other", ARG_TENSOR);
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
    return rt_tensor_result(I, r);
}

const Builtin bi_torch_products[] = {
    {"einsum", bi_einsum, "torch.einsum(equation, *operands)",
     "Sums of products named by letters: torch.einsum('bqd,bkd->bqk', Q, K) is Q @ K.transpose(1, 2) per batch. Letters "
     "in the output stay, the others are summed; '...' stands for the unnamed dims.", "", 0, "torch"},
    {"mv", bi_products, "torch.mv(input, vec)", "Matrix times vector.", "", 0, "torch"},
    {"addmm", bi_products, "torch.addmm(input, mat1, mat2, *, beta=1, alpha=1)", "beta * input + alpha * (mat1 @ mat2).", "", 1, "torch"},
    {"baddbmm", bi_products, "torch.baddbmm(input, batch1, batch2, *, beta=1, alpha=1)",
     "beta * input + alpha * bmm(batch1, batch2): a batched product added to input (an attention bias, say).", "", 2, "torch"},
    {"addmv", bi_products, "torch.addmv(input, mat, vec, *, beta=1, alpha=1)", "beta * input + alpha * (mat @ vec).", "", 3, "torch"},
    {"addbmm", bi_products, "torch.addbmm(input, batch1, batch2, *, beta=1, alpha=1)", "beta * input + alpha * the sum of the batch of products.", "", 4, "torch"},
    {"tensordot", bi_tensordot, "torch.tensordot(a, b, dims=2)", "Contracts the last dims of a with the first dims of b.", "", 0, "torch"},
    {"cross", bi_cross, "torch.cross(input, other, dim=None)", "Cross product of 3-vectors along dim.", "", 0, "torch"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* ag_matmul.c - differentiable matrix products: mm, bmm, and torch.matmul composed as ATen composes it (so grad_fn
 * chains read as PyTorch's), vectors included. */
#include <string.h>
#include "ag_internal.h"

bool ag_mm_colmajor(const Tensor *m2) {
    return m2->ndim == 2 && m2->stride[0] == 1 && m2->stride[1] == m2->shape[0] && m2->shape[0] > 1 && m2->shape[1] > 1;
}

Tensor *ag_mm_mat2_grad(const Tensor *m1, const Tensor *g, bool colmajor) {
    colmajor = colmajor && m1->ndim == 2 && g->ndim == 2;
    Tensor *t = colmajor ? ten_transpose(g, 0, 1) : ten_transpose(m1, 0, 1);
    Tensor *p = !t ? NULL : colmajor ? ten_matmul(t, m1) : ten_matmul(t, g);
    ten_free(t);
    if (!colmajor || !p) return p;
    Tensor *r = ten_transpose(p, 0, 1);
    ten_free(p);
    return r;
}

/* mm: grad @ b^T, a^T @ grad; bmm the same over the batch (dims 1 and 2). saved[0] = a, saved[1] = b. */
static int mm_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    int r = n->in_ndim[0] - 2;
    const Tensor *a = ag_needs(n, 1) ? ag_saved(n, 0) : NULL, *b = ag_needs(n, 0) ? ag_saved(n, 1) : NULL;
    if ((ag_needs(n, 1) && !a) || (ag_needs(n, 0) && !b)) return -1;
    if (ag_needs(n, 0)) {
        Tensor *bt = ten_transpose(b, r, r + 1);
        gin[0] = bt ? ten_matmul(g, bt) : NULL;
        ten_free(bt);
    }
    if (ag_needs(n, 1)) {
        if (r == 0) gin[1] = ag_mm_mat2_grad(a, g, n->dims[0] == 1);
        else {
            Tensor *at = ten_transpose(a, r, r + 1);
            gin[1] = at ? ten_matmul(at, g) : NULL;
            ten_free(at);
        }
    }
    return ag_done(n, gin);
}

static AgVal product(AgContext *c, AgVal a, AgVal b, bool batched) {
    Tensor *out;
    if (batched) out = ten_bmm(a.t, b.t);
    else if (a.t->ndim != 2 || b.t->ndim != 2) {
        ten_fail_in(c->ten, "self must be a matrix");
        return AG_FAILED;
    } else out = ten_matmul(a.t, b.t);
    if (!out) return AG_FAILED;
    AgVal in[2] = {a, b};
    AgNode *n = ag_record(c, batched ? "BmmBackward0" : "MmBackward0", mm_bw, 2, in);
    if (n) {
        n->dims[0] = !batched && ag_mm_colmajor(b.t);
        if (ag_needs(n, 1)) ag_node_save(n, 0, a.t, a.m, false);
        if (ag_needs(n, 0)) ag_node_save(n, 1, b.t, b.m, false);
    }
    return ag_result(out, n);
}

AgVal ag_mm(AgContext *c, AgVal a, AgVal b) { return product(c, a, b, false); }
AgVal ag_bmm(AgContext *c, AgVal a, AgVal b) { return product(c, a, b, true); }

/* dot (DotBackward0: g * b, g * a) and mv (MvBackward0: outer(g, b), a^T @ g). op 0 dot, 1 mv; saved 0 a, 1 b. */
static int vector_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *a = ag_needs(n, 1) ? ag_saved(n, 0) : NULL, *b = ag_needs(n, 0) ? ag_saved(n, 1) : NULL;
    if ((ag_needs(n, 1) && !a) || (ag_needs(n, 0) && !b)) return -1;
    if (n->op == 0) {
        if (ag_needs(n, 0)) gin[0] = ag_bin(OP_MUL, g, false, b, false);
        if (ag_needs(n, 1)) gin[1] = ag_bin(OP_MUL, g, false, a, false);
    } else {
        if (ag_needs(n, 0)) {
            Tensor *gc = ten_unsqueeze(g, 1), *br = ten_unsqueeze(b, 0);
            gin[0] = ag_drop(ag_bin(OP_MUL, gc, false, br, false), gc, br, NULL);
        }
        if (ag_needs(n, 1)) {
            Tensor *at = ten_transpose(a, 0, 1);
            gin[1] = at ? ten_matmul(at, g) : NULL;
            ten_free(at);
        }
    }
    return ag_done(n, gin);
}

/* torch.matmul with a 1-D operand: vector @ vector (DotBackward0), matrix @ vector (MvBackward0), vector @ matrix
 * (UnsqueezeBackward0, MmBackward0, SqueezeBackward3), as PyTorch records them; more dims with a vector: refused. */
static AgVal vector_product(AgContext *c, AgVal a, AgVal b) {
    int na = a.t->ndim, nb = b.t->ndim;
    if (na > 2 || nb > 2) {
        ten_fail_in(c->ten, "autograd: matmul of a vector with a %dD tensor is not supported yet", na > 2 ? na : nb);
        return AG_FAILED;
    }
    if (na == 1 && nb == 2) {
        AgVal au = ag_unsqueeze(c, a, 0), p = au.t ? ag_mm(c, au, b) : AG_FAILED;
        AgVal r = p.t ? ag_shape_op(c, p, ten_squeeze(p.t, 0, false), "SqueezeBackward3") : AG_FAILED;
        ag_val_free(au);
        ag_val_free(p);
        return r;
    }
    Tensor *out = ten_matmul(a.t, b.t);
    if (!out) return AG_FAILED;
    AgVal in[2] = {a, b};
    AgNode *n = ag_record(c, na == 1 ? "DotBackward0" : "MvBackward0", vector_bw, 2, in);
    if (n) {
        n->op = na == 2;
        if (ag_needs(n, 1)) ag_node_save(n, 0, a.t, a.m, false);
        if (ag_needs(n, 0)) ag_node_save(n, 1, b.t, b.m, false);
    }
    return ag_result(out, n);
}

/* torch.matmul of operands of 2 or more dims, as ATen's matmul composes it. */
AgVal ag_matmul(AgContext *c, AgVal a, AgVal b) {
    int na = a.t->ndim, nb = b.t->ndim;
    if (na == 0 || nb == 0) {
        ten_fail_in(c->ten, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", na, nb);
        return AG_FAILED;
    }
    if (na == 1 || nb == 1) return vector_product(c, a, b);
    if (a.t->shape[na - 1] != b.t->shape[nb - 2]) {
        ten_fail_in(c->ten, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                 (long long)(a.t->numel / (a.t->shape[na - 1] ? a.t->shape[na - 1] : 1)), (long long)a.t->shape[na - 1],
                 (long long)b.t->shape[nb - 2], (long long)b.t->shape[nb - 1]);
        return AG_FAILED;
    }
    if (na == 2 && nb == 2) return ag_mm(c, a, b);
    int64_t n = a.t->shape[na - 2], k = a.t->shape[na - 1], m = b.t->shape[nb - 1];
    int64_t osh[TEN_MAX_DIMS];
    if (nb == 2) {                  /* fold a's batch into its rows: (.., n, k) -> (N, k) @ (k, m) -> (.., n, m) */
        int64_t f[2] = {-1, k};
        AgVal a2 = ag_reshape(c, a, 2, f);
        if (!a2.t) return AG_FAILED;
        AgVal p = ag_mm(c, a2, b);
        ag_val_free(a2);
        if (!p.t) return AG_FAILED;
        memcpy(osh, a.t->shape, sizeof(int64_t) * (size_t)na);
        osh[na - 1] = m;
        AgVal r = ag_unsafe_view(c, p, na, osh);
        ag_val_free(p);
        return r;
    }
    /* batched: both expanded to the broadcast batch shape, flattened to 3-D, bmm, viewed back */
    int64_t batch[TEN_MAX_DIMS];
    int nbatch;
    if (ten_broadcast_shape_in(c->ten, a.t->shape, na - 2, b.t->shape, nb - 2, batch, &nbatch) < 0) return AG_FAILED;
    int64_t B = 1;
    for (int i = 0; i < nbatch; i++) B *= batch[i];
    int64_t ea[TEN_MAX_DIMS], eb[TEN_MAX_DIMS];
    memcpy(ea, batch, sizeof(int64_t) * (size_t)nbatch);
    memcpy(eb, batch, sizeof(int64_t) * (size_t)nbatch);
    ea[nbatch] = n; ea[nbatch + 1] = k;
    eb[nbatch] = k; eb[nbatch + 1] = m;
    int64_t fa[3] = {B, n, k}, fb[3] = {B, k, m};
    AgVal xa = ag_expand(c, a, nbatch + 2, ea), xb = xa.t ? ag_expand(c, b, nbatch + 2, eb) : AG_FAILED;
    AgVal a3 = xb.t ? ag_reshape(c, xa, 3, fa) : AG_FAILED, b3 = a3.t ? ag_reshape(c, xb, 3, fb) : AG_FAILED;
    AgVal p = b3.t ? ag_bmm(c, a3, b3) : AG_FAILED;
    ag_val_free(xa);
    ag_val_free(xb);
    ag_val_free(a3);
    ag_val_free(b3);
    if (!p.t) return AG_FAILED;
    memcpy(osh, batch, sizeof(int64_t) * (size_t)nbatch);
    osh[nbatch] = n;
    osh[nbatch + 1] = m;
    AgVal r = ag_unsafe_view(c, p, nbatch + 2, osh);
    ag_val_free(p);
    return r;
}


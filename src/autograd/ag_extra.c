/* ag_extra.c - gradients recorded around a forward the caller already ran (the builtin computed `out`; these
 * functions attach PyTorch's node to it): elementwise functions, ops that only move elements (through a position
 * map), maximum/minimum, add/sub with alpha, dtype casts, einsum, the addmm family, pow/atan2 of two tensors, clamp
 * with tensor bounds, scatter and cross. The reductions with options are in ag_reduce.c. Formulas from PyTorch's
 * derivatives.yaml. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ag_internal.h"
#include "ag_f64.h"

/* ag_record, then each input given (t not NULL) saved in the slot of its number (nsaved nin: an absent optional
 * input leaves its slot empty). NULL when nothing is recorded. */
static AgNode *record_saving(AgContext *c, const char *name, AgBackwardFn bw, int nin, const AgVal *in) {
    AgNode *n = ag_record(c, name, bw, nin, in);
    for (int i = 0; n && i < nin; i++) if (in[i].t) ag_node_save(n, i, in[i].t, in[i].m, false);
    if (n) n->nsaved = nin;
    return n;
}

/* Copies len bytes (the node's own parameters: doubles, an equation, a position map) into n->sizes, which the node
 * owns and keeps after backward. false, with the error set, when out of memory. */
static bool keep_bytes(AgNode *n, const void *p, size_t len) {
    n->sizes = malloc(len < sizeof(int64_t) ? sizeof(int64_t) : len);
    if (!n->sizes) { ten_fail_in(n->ten, "out of memory"); return false; }
    memcpy(n->sizes, p, len);
    return true;
}

/* ---- elementwise: d out / d x from x and out, computed in double ---- */

static double dsigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Whether the derivative of `kind` is written in its result y (PyTorch saves the result for these, x for the rest). */
static bool elem_uses_result(AgElem kind) {
    return kind == AG_E_TAN || kind == AG_E_EXP2 || kind == AG_E_EXPM1 || kind == AG_E_RSQRT;
}

/* The derivative of the function `kind` at v: x, or the result y for the kinds elem_uses_result names (p: hardtanh's
 * bounds, softplus's beta and threshold). */
static double elem_deriv(AgElem kind, double v, const double *p) {
    double x = v, y = v;
    switch (kind) {
    case AG_E_ZERO: return 0.0;
    case AG_E_ONE: return 1.0;
    case AG_E_ACOS: return -1.0 / sqrt(1.0 - x * x);
    case AG_E_ASIN: return 1.0 / sqrt(1.0 - x * x);
    case AG_E_ATAN: return 1.0 / (1.0 + x * x);
    case AG_E_ACOSH: return 1.0 / sqrt(x * x - 1.0);
    case AG_E_ASINH: return 1.0 / sqrt(x * x + 1.0);
    case AG_E_ATANH: return 1.0 / (1.0 - x * x);
    case AG_E_COSH: return sinh(x);
    case AG_E_SINH: return cosh(x);
    case AG_E_TAN: return 1.0 + y * y;
    case AG_E_ERF: return 1.12837916709551257390 * exp(-x * x);
    case AG_E_ERFC: return -1.12837916709551257390 * exp(-x * x);
    case AG_E_EXP2: return y * 0.69314718055994530942;
    case AG_E_EXPM1: return y + 1.0;
    case AG_E_LOG10: return 1.0 / (x * 2.30258509299404568402);
    case AG_E_LOG2: return 1.0 / (x * 0.69314718055994530942);
    case AG_E_LOG1P: return 1.0 / (x + 1.0);
    case AG_E_RSQRT: return -0.5 * y * y * y;
    case AG_E_SILU: { double s = dsigmoid(x); return s * (1.0 + x * (1.0 - s)); }
    case AG_E_LOGSIGMOID: return 1.0 - dsigmoid(x);
    case AG_E_SOFTPLUS: return x * p[0] > p[1] ? 1.0 : dsigmoid(x * p[0]);
    case AG_E_MISH: {
        double sp = log1p(exp(x)), t = tanh(sp);
        return t + x * dsigmoid(x) * (1.0 - t * t);
    }
    case AG_E_HARDTANH: return x <= p[0] || x >= p[1] ? 0.0 : 1.0;        /* NaN passes, as hardtanh_backward */
    }
    return 0.0;
}

/* saved 0: x, or the result (elem_uses_result); none for the kinds ZERO and ONE (nor does PyTorch save any, so a
 * second backward through them runs); op the kind; sizes: the two parameters (as doubles). */
static int elem_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    if (n->op == AG_E_ZERO || n->op == AG_E_ONE) {
        gin[0] = ag_to_input(n, 0, n->op == AG_E_ONE ? ten_alias(g) : ag_bin_s(OP_MUL, g, 0.0));
        return ag_done(n, gin);
    }
    const Tensor *vs = ag_saved(n, 0);
    if (!vs) return -1;
    Tensor *v = f64(vs), *d = v ? ten_new_in(ten_ctx_of(g), DT_F64, v->ndim, v->shape) : NULL;
    if (d) {
        double p[2];
        memcpy(p, n->sizes, sizeof p);
        const double *vv = ten_f64(v);
        double *dv = ten_f64(d);
        for (int64_t i = 0; i < d->numel; i++) dv[i] = elem_deriv((AgElem)n->op, vv[i], p);
    }
    Tensor *dd = as_dtype(d, g->dtype);
    gin[0] = ag_to_input(n, 0, ag_drop(ag_bin(OP_MUL, g, false, dd, false), v, dd, NULL));
    return ag_done(n, gin);
}

AgVal ag_elementwise(AgContext *c, AgElem kind, const char *name, AgVal x, Tensor *out, double p0, double p1) {
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, name, elem_bw, 1, &x);
    if (n) {
        n->op = (int)kind;
        double p[2] = {p0, p1};
        if (!keep_bytes(n, p, sizeof p)) { ten_free(out); return ag_result(NULL, n); }
        bool res = elem_uses_result(kind);
        if (kind != AG_E_ZERO && kind != AG_E_ONE) ag_node_save(n, 0, res ? out : x.t, res ? NULL : x.m, res);
    }
    return ag_result(out, n);
}

/* ---- ops that only move elements: out[j] = inputs' element map[j] (flat over the inputs in order), or none ---- */

/* The map: saved 0 (int64, out's shape) when the op's PyTorch node saves an index (a second backward then fails as
 * there), else its g->numel positions in sizes (a node that saves nothing). */
static int map_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *map = n->nsaved ? ag_saved(n, 0) : NULL;
    if (n->nsaved && !map) return -1;
    for (int i = 1; i < n->nsaved; i++)             /* an input kept only for its version (ag_map_save_input) */
        if (!ag_saved(n, i)) return -1;
    Tensor *gc = f64(g), *mc = map ? ten_contiguous(map) : NULL;
    const int64_t *mv = mc ? ten_i64(mc) : map ? NULL : n->sizes;
    int64_t base[AG_MAX_IN + 1] = {0};
    double *acc[AG_MAX_IN] = {NULL};
    Tensor *gd[AG_MAX_IN] = {NULL};
    for (int i = 0; i < n->nnext; i++) {
        gd[i] = ten_new_in(ten_ctx_of(g), DT_F64, n->in_ndim[i], n->in_shape[i]);
        if (gd[i]) acc[i] = ten_f64(gd[i]);
        base[i + 1] = base[i] + (gd[i] ? gd[i]->numel : 0);
    }
    if (gc && mv) {
        const double *gv = ten_f64(gc);
        for (int64_t j = 0; j < gc->numel; j++) {
            int64_t p = mv[j];
            if (p < 0) continue;
            for (int i = 0; i < n->nnext; i++)
                if (p < base[i + 1]) { if (acc[i]) acc[i][p - base[i]] += gv[j]; break; }
        }
    }
    for (int i = 0; i < n->nnext; i++) {
        if (ag_needs(n, i) && gc && mv) gin[i] = as_dtype(gd[i], n->in_dtype[i]);
        else ten_free(gd[i]);
    }
    ag_drop(NULL, gc, mc, NULL);
    return ag_done(n, gin);
}

/* ag_index_map and ag_move_map: saved says which of map_bw's two places keeps the map. */
static AgVal map_node(AgContext *c, const char *name, Tensor *out, const Tensor *map, int nin, const AgVal *ins, bool saved) {
    if (!out) return AG_FAILED;
    if (nin > AG_MAX_IN) { ten_free(out); ten_fail_in(c->ten, "autograd: at most %d inputs here", AG_MAX_IN); return AG_FAILED; }
    AgNode *n = ag_record(c, name, map_bw, nin, ins);
    if (!n) return ag_result(out, NULL);
    if (saved) { ag_node_save(n, 0, map, NULL, false); return ag_result(out, n); }
    Tensor *mc = ten_contiguous(map);
    if (!mc || !keep_bytes(n, ten_i64(mc), sizeof(int64_t) * (size_t)mc->numel)) { ten_free(out); out = NULL; }
    ten_free(mc);
    return ag_result(out, n);
}

AgVal ag_index_map(AgContext *c, const char *name, Tensor *out, const Tensor *map, int nin, const AgVal *ins) {
    return map_node(c, name, out, map, nin, ins, true);
}

AgVal ag_move_map(AgContext *c, const char *name, Tensor *out, const Tensor *map, int nin, const AgVal *ins) {
    return map_node(c, name, out, map, nin, ins, false);
}

void ag_map_save_input(AgVal r, AgVal x) {
    AgNode *n = r.m ? r.m->grad_fn : NULL;
    if (!n || n->backward != map_bw || n->nsaved != 1 || !x.t) return;
    ag_node_save(n, 1, x.t, x.m, false);
}

/* ---- maximum / minimum: the grad to the larger (smaller) input, halved where they tie ---- */

static int maximum_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *a = ag_saved(n, 0), *b = a ? ag_saved(n, 1) : NULL;
    if (!b) return -1;
    Tensor *half = ag_bin_s(OP_MUL, g, 0.5), *eq = ag_bin(OP_EQ, a, false, b, false), *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
    Tensor *gh = eq && half ? ten_where(eq, half, false, g, false) : NULL;
    for (int i = 0; i < 2; i++) {
        if (!ag_needs(n, i) || !gh || !zero) continue;
        /* input i loses where it is smaller (maximum) or larger (minimum) than the other */
        const Tensor *self = i ? b : a, *other = i ? a : b;
        Tensor *lose = ag_bin(n->op ? OP_GT : OP_LT, self, false, other, false);
        gin[i] = ag_to_input(n, i, lose ? ten_where(lose, zero, true, gh, false) : NULL);
        ten_free(lose);
    }
    ag_drop(NULL, half, eq, zero);
    ten_free(gh);
    return ag_done(n, gin);
}

AgVal ag_maximum(AgContext *c, AgVal a, AgVal b, Tensor *out, bool min) {
    if (!out) return AG_FAILED;
    AgVal in[2] = {a, b};
    AgNode *n = record_saving(c, min ? "MinimumBackward0" : "MaximumBackward0", maximum_bw, 2, in);
    if (n) n->op = min;
    return ag_result(out, n);
}

/* ---- add / sub with alpha: AddBackward0 / SubBackward0, b's grad scaled by alpha (negated for sub) ---- */

static int alpha_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, ten_alias(g));
    if (ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, ag_bin_s(OP_MUL, g, n->scalar));
    return ag_done(n, gin);
}

AgVal ag_add_alpha(AgContext *c, AgVal a, AgVal b, Tensor *out, double alpha, bool sub) {
    if (!out) return AG_FAILED;
    AgVal in[2] = {a, b};
    AgNode *n = ag_record(c, sub ? "SubBackward0" : "AddBackward0", alpha_bw, 2, in);
    if (n) n->scalar = sub ? -alpha : alpha;
    return ag_result(out, n);
}

/* ---- dtype casts: ToCopyBackward0, the grad cast back ---- */

static int to_copy_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    gin[0] = ten_cast(g, n->in_dtype[0]);
    return ag_done(n, gin);
}

AgVal ag_to_copy(AgContext *c, AgVal x, Tensor *out) {
    if (!out) return AG_FAILED;
    return ag_result(out, ag_record(c, "ToCopyBackward0", to_copy_bw, 1, &x));
}

/* ---- einsum: the grad of operand k is the einsum of the grad with the other operands into k's labels ---- */

/* sizes holds the equation (a copy, NUL-terminated); saved 0..n-1 the operands (none for one operand: its grad is
 * the grad's einsum alone, and PyTorch's PermuteBackward0 saves nothing). */
static int einsum_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const char *eq = (const char *)n->sizes, *arrow = strstr(eq, "->");
    char labels[AG_MAX_IN][TEN_MAX_DIMS + 1], outl[TEN_MAX_DIMS + 1];
    int nops = n->nnext;
    /* split "ab,bc->ac" into the operands' labels and the output's */
    const char *p = eq;
    for (int k = 0; k < nops; k++) {
        int m = 0;
        while (*p && *p != ',' && p != arrow) { if (*p != ' ' && m < TEN_MAX_DIMS) labels[k][m++] = *p; p++; }
        labels[k][m] = '\0';
        if (*p == ',') p++;
    }
    int mo = 0;
    for (const char *q = arrow + 2; *q; q++) if (*q != ' ' && mo < TEN_MAX_DIMS) outl[mo++] = *q;
    outl[mo] = '\0';
    for (int k = 0; k < nops; k++) {
        if (!ag_needs(n, k)) continue;
        /* k's labels that also appear in the grad or another operand are computed; the rest broadcast back */
        char keep[TEN_MAX_DIMS + 1], sub[64];
        int nk = 0;
        for (const char *l = labels[k]; *l; l++) {
            bool found = strchr(outl, *l) != NULL;
            for (int j = 0; j < nops && !found; j++) if (j != k && strchr(labels[j], *l)) found = true;
            if (found) keep[nk++] = *l;
        }
        keep[nk] = '\0';
        snprintf(sub, sizeof sub, "%s", outl);
        const Tensor *ops[AG_MAX_IN + 1];
        ops[0] = g;
        int no = 1;
        bool bad = false;
        for (int j = 0; j < nops; j++) {
            if (j == k) continue;
            if (!(ops[no++] = ag_saved(n, j))) bad = true;
            size_t len = strlen(sub);
            snprintf(sub + len, sizeof sub - len, ",%s", labels[j]);
        }
        if (bad) return ag_done(n, gin);
        size_t len = strlen(sub);
        snprintf(sub + len, sizeof sub - len, "->%s", keep);
        Tensor *e = ten_einsum_in(ten_ctx_of(g), sub, (Tensor *const *)ops, no);
        /* put back the labels only k had (size 1, then expanded), in k's order */
        int64_t shape1[TEN_MAX_DIMS];
        int ki = 0, nd = (int)strlen(labels[k]);
        for (int i = 0; i < nd; i++) {
            if (ki < nk && labels[k][i] == keep[ki]) { shape1[i] = n->in_shape[k][i]; ki++; }
            else shape1[i] = 1;
        }
        Tensor *rs = e ? ten_reshape(e, nd, shape1) : NULL, *ex = rs ? ten_expand(rs, nd, n->in_shape[k]) : NULL;
        gin[k] = ex ? as_dtype(ten_contiguous(ex), n->in_dtype[k]) : NULL;
        ag_drop(NULL, e, rs, ex);
    }
    return ag_done(n, gin);
}

AgVal ag_einsum(AgContext *c, const char *equation, int nops, const AgVal *ops, Tensor *out) {
    return ag_einsum_as(c, NULL, equation, nops, ops, out);
}

AgVal ag_einsum_as(AgContext *c, const char *name, const char *equation, int nops, const AgVal *ops, Tensor *out) {
    if (!out) return AG_FAILED;
    bool any = false;
    for (int i = 0; i < nops; i++) any = any || ag_requires_grad(ops[i].m);
    if (!any || !c->grad_enabled) return ag_result(out, NULL);
    char explicit_eq[256];
    if (!strstr(equation, "->") && !strchr(equation, '.') && strlen(equation) < 100) {
        /* implicit output: the labels that appear once, in alphabetical order (einsum's rule) */
        int count[128] = {0};
        for (const char *p = equation; *p; p++) if ((unsigned char)*p < 128) count[(unsigned char)*p]++;
        int k = snprintf(explicit_eq, sizeof explicit_eq, "%s->", equation);
        for (int ch = 'A'; ch <= 'z'; ch++)
            if (count[ch] == 1 && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) explicit_eq[k++] = (char)ch;
        explicit_eq[k] = '\0';
        equation = explicit_eq;
    }
    const char *arrow = strstr(equation, "->");
    bool repeated = false;
    for (const char *p = equation; *p && p != arrow; p++)
        if (*p == '.' || (*p != ',' && *p != ' ' && p[1] && strchr(p + 1, *p) && strchr(p + 1, *p) < (strchr(p, ',') ? strchr(p, ',') : arrow))) repeated = true;
    if (!arrow || repeated || nops > AG_MAX_IN) {
        ten_free(out);
        ten_fail_in(c->ten, "torch.einsum has no gradient in attn yet for this equation (an explicit '->' output, no '...' and no "
                 "label twice in one operand, at most %d operands)", AG_MAX_IN);
        return AG_FAILED;
    }
    bool permute = nops == 1 && strlen(arrow + 2) == (size_t)ops[0].t->ndim;
    AgNode *n = ag_record(c, name ? name : permute ? "PermuteBackward0" : "ViewBackward0", einsum_bw, nops, ops);
    if (n) {
        if (!keep_bytes(n, equation, strlen(equation) + 1)) { ten_free(out); return ag_result(NULL, n); }
        for (int i = 0; i < nops && nops > 1; i++) ag_node_save(n, i, ops[i].t, ops[i].m, false);   /* one: a permute */
    }
    return ag_result(out, n);
}

/* ---- addmm (self, m1 (n,k), m2 (k,m)), addmv (self, M, v), baddbmm and addbmm (self, b1 (B,n,k), b2 (B,k,m)):
 * beta * self + alpha * product; self's grad g * beta summed to its shape, the factors' as matmul's ---- */

/* op: 0 addmm, 1 addmv, 2 baddbmm, 3 addbmm; scalar alpha; sizes[0] beta (a double); saved 1, 2 the factors. */
static int addmm_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    double beta;
    memcpy(&beta, n->sizes, sizeof beta);
    const Tensor *m1 = ag_needs(n, 2) ? ag_saved(n, 1) : NULL, *m2 = ag_needs(n, 1) ? ag_saved(n, 2) : NULL;
    if ((ag_needs(n, 2) && !m1) || (ag_needs(n, 1) && !m2)) return -1;
    if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, beta == 1.0 ? ten_alias(g) : ag_bin_s(OP_MUL, g, beta));
    Tensor *gg = n->op == 1 ? ten_unsqueeze(g, 1) : ten_alias(g);     /* addmv: g (n,) as (n, 1) */
    if (ag_needs(n, 1)) {                                              /* g @ m2^T */
        Tensor *m2t = n->op == 1 ? ten_unsqueeze(m2, 0) : ten_transpose(m2, -1, -2);
        Tensor *p = gg && m2t ? ten_matmul(gg, m2t) : NULL;
        gin[1] = ag_to_input(n, 1, ag_drop(ag_bin_s(OP_MUL, p, n->scalar), m2t, p, NULL));
    }
    if (ag_needs(n, 2)) {                                              /* m1^T @ g */
        Tensor *m1t = ten_transpose(m1, -1, -2), *p = gg && m1t ? ten_matmul(m1t, gg) : NULL;
        Tensor *ps = n->op == 1 && p ? ten_squeeze(p, 1, false) : (p ? ten_alias(p) : NULL);
        gin[2] = ag_to_input(n, 2, ag_drop(ag_bin_s(OP_MUL, ps, n->scalar), m1t, p, ps));
    }
    ten_free(gg);
    return ag_done(n, gin);
}

AgVal ag_addmm_family(AgContext *c, int kind, AgVal self, AgVal a, AgVal b, double beta, double alpha, Tensor *out) {
    static const char *const names[] = {"AddmmBackward0", "AddmvBackward0", "BaddbmmBackward0", "AddbmmBackward0"};
    if (!out) return AG_FAILED;
    AgVal in[3] = {self, a, b};
    AgNode *n = ag_record(c, names[kind], addmm_bw, 3, in);
    if (n) {
        n->op = kind;
        n->scalar = alpha;
        if (!keep_bytes(n, &beta, sizeof beta)) { ten_free(out); return ag_result(NULL, n); }
        if (ag_needs(n, 2)) ag_node_save(n, 1, a.t, a.m, false);
        if (ag_needs(n, 1)) ag_node_save(n, 2, b.t, b.m, false);
    }
    return ag_result(out, n);
}

/* ---- a op b elementwise: x ** y and 2 ** y (PowBackward1, a number's edge None), atan2 (Atan2Backward0) ---- */

/* op: AG_B_POW or AG_B_ATAN2; saved 0 a, 1 b, 2 pow's result (atan2 saves none: PyTorch's does not). The grads as derivatives.yaml has them:
 * pow: grad * b * a^(b - 1) (0 where b == 0) and grad * result * log(a) (0 where a == 0 and b >= 0);
 * atan2: grad * b / (a^2 + b^2) and grad * -a / (a^2 + b^2). */
static int binary_fn_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *a = ag_saved(n, 0), *b = a ? ag_saved(n, 1) : NULL, *y = b && n->op == AG_B_POW ? ag_saved(n, 2) : NULL;
    if (!b || (n->op == AG_B_POW && !y)) return -1;
    bool aw = n->dims[0], bw = n->dims[1];
    if (n->op == AG_B_POW) {
        if (ag_needs(n, 0)) {           /* 0 where b == 0 (not 0 * 0^-1, NaN where a is 0 too) */
            Tensor *b1 = ag_bin_s(OP_SUB, b, 1.0), *p = ag_bin(OP_POW, a, aw, b1, bw), *t = ag_bin(OP_MUL, b, bw, p, false);
            Tensor *r = ag_drop(ag_bin(OP_MUL, g, false, t, false), b1, p, t), *b0 = ag_bin_s(OP_EQ, b, 0.0);
            Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0), *rm = r && b0 && zero ? ten_where(b0, zero, true, r, false) : NULL;
            gin[0] = ag_to_input(n, 0, ag_drop(rm, r, b0, zero));
        }
        if (ag_needs(n, 1)) {
            Tensor *la = ten_unary(UOP_LOG, a), *t = ag_bin(OP_MUL, y, false, la, aw), *r = ag_bin(OP_MUL, g, false, t, false);
            Tensor *z = ag_bin_s(OP_EQ, a, 0.0), *nn = ag_bin_s(OP_GE, b, 0.0), *mask = ag_bin(OP_AND, z, false, nn, false);
            Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0), *rm = mask && r && zero ? ten_where(mask, zero, true, r, false) : NULL;
            ag_drop(NULL, la, t, r);
            ag_drop(NULL, z, nn, mask);
            ten_free(zero);
            gin[1] = ag_to_input(n, 1, rm);
        }
    } else {
        Tensor *aa = ag_bin(OP_MUL, a, aw, a, aw), *bb = ag_bin(OP_MUL, b, bw, b, bw), *den = ag_bin(OP_ADD, aa, false, bb, false);
        Tensor *gd = ag_bin(OP_DIV, g, false, den, false);
        if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, ag_bin(OP_MUL, gd, false, b, bw));
        if (ag_needs(n, 1)) {
            Tensor *na = ten_unary(UOP_NEG, a);
            gin[1] = ag_to_input(n, 1, ag_bin(OP_MUL, gd, false, na, aw));
            ten_free(na);
        }
        ag_drop(NULL, aa, bb, den);
        ten_free(gd);
    }
    return ag_done(n, gin);
}

AgVal ag_binary_fn(AgContext *c, AgBinFn kind, AgVal a, bool a_weak, AgVal b, bool b_weak, Tensor *out) {
    if (!out) return AG_FAILED;
    AgVal in[2] = {a, b};
    AgNode *n = record_saving(c, kind == AG_B_ATAN2 ? "Atan2Backward0" : "PowBackward1", binary_fn_bw, 2, in);
    if (!n) return ag_result(out, NULL);
    n->op = (int)kind;
    n->dims[0] = a_weak;
    n->dims[1] = b_weak;
    if (kind == AG_B_POW) ag_node_save(n, 2, out, NULL, true);
    return ag_result(out, n);
}

/* ---- torch.pow(number, e): PowBackward2, one edge (e's): grad * result * log(number), 0 where the number is 0 and
 * e >= 0 (derivatives.yaml's pow_backward_exponent). saved 0 e, 1 the result; the number in `scalar`. ---- */

static int pow_base_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *e = ag_saved(n, 0), *y = e ? ag_saved(n, 1) : NULL;
    if (!y) return -1;
    Tensor *t = ag_bin_s(OP_MUL, y, log(n->scalar)), *r = ag_bin(OP_MUL, g, false, t, false);
    ten_free(t);
    if (n->scalar == 0 && r) {
        Tensor *nn = ag_bin_s(OP_GE, e, 0.0), *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
        Tensor *rm = nn && zero ? ten_where(nn, zero, true, r, false) : NULL;
        ag_drop(NULL, nn, zero, r);
        r = rm;
    }
    gin[0] = ag_to_input(n, 0, r);
    return ag_done(n, gin);
}

AgVal ag_pow_base(AgContext *c, double base, AgVal e, Tensor *out) {
    if (!out) return AG_FAILED;
    AgNode *n = ag_record(c, "PowBackward2", pow_base_bw, 1, &e);
    if (!n) return ag_result(out, NULL);
    n->scalar = base;
    ag_node_save(n, 0, e.t, e.m, false);
    ag_node_save(n, 1, out, NULL, true);
    return ag_result(out, n);
}

/* ---- clamp(x, min=lo, max=hi) with tensor bounds: ClampBackward0, edges (x, lo, hi) ---- */

/* saved 0 x, 1 lo, 2 hi (absent: not given). The result is hi where max(x, lo) > hi (hi's grad there), else lo
 * where x < lo (lo's grad), else x (x's grad): where lo > hi, hi takes it all, as PyTorch's clamp_backward_min_max. */
static int clamp_t_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *x = ag_saved(n, 0), *b1 = NULL, *b2 = NULL;      /* a bound given but modified fails, as x */
    if (!x || (n->nsaved > 1 && n->saved[1].t && !(b1 = ag_saved(n, 1))) || (n->nsaved > 2 && n->saved[2].t && !(b2 = ag_saved(n, 2))))
        return -1;
    const Tensor *lo = n->op == 1 ? NULL : b1, *hi = n->op == 1 ? b1 : b2;     /* op 1: clamp_max, edges (x, hi) */
    int hi_edge = n->op == 1 ? 1 : 2;                  /* (clamp_min has no edge 2: at_hi is NULL there) */
    Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0), *at_hi = NULL, *at_lo = NULL;
    if (hi) {
        Tensor *m = lo ? ag_bin(OP_MAXIMUM, x, false, lo, false) : ten_alias(x);
        at_hi = ag_bin(OP_GT, m, false, hi, false);
        ten_free(m);
    }
    if (lo) {
        Tensor *below = ag_bin(OP_LT, x, false, lo, false), *nh = at_hi ? ten_unary(UOP_NOT, at_hi) : NULL;
        at_lo = nh ? ag_bin(OP_AND, below, false, nh, false) : ten_alias(below);
        ag_drop(NULL, below, nh, NULL);
    }
    Tensor *outside = at_lo && at_hi ? ag_bin(OP_OR, at_lo, false, at_hi, false) : at_lo ? ten_alias(at_lo) : at_hi ? ten_alias(at_hi) : NULL;
    if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, outside ? ten_where(outside, zero, true, g, false) : ten_alias(g));
    if (at_lo && ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, ten_where(at_lo, g, false, zero, true));
    if (at_hi && ag_needs(n, hi_edge)) gin[hi_edge] = ag_to_input(n, hi_edge, ten_where(at_hi, g, false, zero, true));
    ag_drop(NULL, at_lo, at_hi, outside);
    ten_free(zero);
    return ag_done(n, gin);
}

AgVal ag_clamp_tensors(AgContext *c, AgVal x, AgVal lo, AgVal hi, Tensor *out) {
    if (!out) return AG_FAILED;
    AgVal in[3] = {x, lo, hi};
    return ag_result(out, record_saving(c, "ClampBackward0", clamp_t_bw, 3, in));
}

AgVal ag_clamp_bound(AgContext *c, AgVal x, AgVal bound, bool is_max, Tensor *out) {
    if (!out) return AG_FAILED;
    AgVal in[2] = {x, bound};
    AgNode *n = record_saving(c, is_max ? "ClampMaxBackward1" : "ClampMinBackward1", clamp_t_bw, 2, in);
    if (n) n->op = is_max;
    return ag_result(out, n);
}

/* ---- scatter_add(self, dim, index, src) (ScatterAddBackward0) and scatter(self, dim, index, src) (ScatterBackward0):
 * src's grad the grad gathered at index (every src element, repeated indices too, as PyTorch); self's the grad,
 * for scatter with the written places zeroed ---- */

/* saved 0 the index; dims[0] the dim; op 1: scatter (self's grad zero where written). */
static int scatter_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *idx = ag_saved(n, 0);
    if (!idx) return -1;
    if (ag_needs(n, 0)) {
        Tensor *zero = n->op ? ten_scalar_d_in(ten_ctx_of(g), 0.0) : NULL;
        gin[0] = n->op ? (zero ? ten_scatter(g, n->dims[0], idx, zero, 0) : NULL) : ten_alias(g);
        ten_free(zero);
    }
    if (ag_needs(n, 1)) gin[1] = ten_gather(g, n->dims[0], idx);
    return ag_done(n, gin);
}

AgVal ag_scatter(AgContext *c, AgVal self, int dim, const Tensor *index, AgVal src, Tensor *out, bool add) {
    if (!out) return AG_FAILED;
    AgVal in[2] = {self, src};
    AgNode *n = ag_record(c, add ? "ScatterAddBackward0" : "ScatterBackward0", scatter_bw, 2, in);
    if (n) {
        n->op = !add;
        n->dims[0] = ten_norm_dim_in(ten_ctx_of(index), dim, self.t->ndim < 1 ? 1 : self.t->ndim);
        ag_node_save(n, 0, index, NULL, false);
    }
    return ag_result(out, n);
}

/* ---- cross(a, b, dim): LinalgCrossBackward0, a's grad cross(b, g), b's cross(g, a) (summed to their shapes) ---- */

/* u x v along dim d (size 3 there), u and v broadcast: each component by ten_select, stacked back at d. */
static Tensor *cross3(const Tensor *u, const Tensor *v, int d) {
    Tensor *uc[3], *vc[3], *comp[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) { uc[i] = ten_select(u, d, i); vc[i] = ten_select(v, d, i); }
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        Tensor *p = ag_bin(OP_MUL, uc[j], false, vc[k], false), *q = ag_bin(OP_MUL, uc[k], false, vc[j], false);
        comp[i] = ag_bin(OP_SUB, p, false, q, false);
        ten_free(p);
        ten_free(q);
    }
    Tensor *r = comp[0] && comp[1] && comp[2] ? ten_stack_in(ten_ctx_of(u), comp, 3, d) : NULL;
    for (int i = 0; i < 3; i++) { ten_free(uc[i]); ten_free(vc[i]); ten_free(comp[i]); }
    return r;
}

/* saved 0 a, 1 b; dims[0] the dim (of the broadcast result, counted from the end as a negative number). */
static int cross_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *a = ag_saved(n, 0), *b = a ? ag_saved(n, 1) : NULL;
    if (!b) return -1;
    int d = g->ndim + n->dims[0];
    if (ag_needs(n, 0)) gin[0] = ag_to_input(n, 0, cross3(b, g, d));
    if (ag_needs(n, 1)) gin[1] = ag_to_input(n, 1, cross3(g, a, d));
    return ag_done(n, gin);
}

AgVal ag_cross(AgContext *c, AgVal a, AgVal b, int dim, Tensor *out) {
    if (!out) return AG_FAILED;
    int d = ten_norm_dim_in(ten_ctx_of(out), dim, out->ndim);
    if (d < 0) { ten_free(out); return AG_FAILED; }
    AgVal in[2] = {a, b};
    AgNode *n = record_saving(c, "LinalgCrossBackward0", cross_bw, 2, in);
    if (n) n->dims[0] = d - out->ndim;
    return ag_result(out, n);
}

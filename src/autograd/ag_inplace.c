/* ag_inplace.c - views and in-place writes as PyTorch's autograd handles them: a view remembers its base; writing in
 * place through a view gives the base the history CopySlices (the base's old history outside the written region, the
 * op's derivative inside it) and the view AsStridedBackward0 of it; a view whose storage was written since it got
 * its grad_fn gets it rebuilt the same way when next used. */
#include <stdlib.h>
#include <string.h>
#include "ag_internal.h"

/* A tensor's layout in its storage (shape, strides, offset), packed into a node's `sizes`. */
enum { GEOM_LEN = 2 + 2 * TEN_MAX_DIMS };
static void geom_pack(int64_t *dst, const Tensor *t) {
    dst[0] = t->ndim;
    dst[1] = t->offset;
    for (int d = 0; d < t->ndim; d++) {
        dst[2 + d] = t->shape[d];
        dst[2 + TEN_MAX_DIMS + d] = t->stride[d];
    }
}
/* A view of s's storage with the packed layout g. */
static Tensor *geom_view(const Tensor *s, const int64_t *g) {
    return ten_view_of(s, (int)g[0], g + 2, g + 2 + TEN_MAX_DIMS, g[1]);
}
/* One past the last storage element the packed layout reaches. */
static int64_t geom_end(const int64_t *g) {
    int64_t e = g[1];
    for (int d = 0; d < g[0]; d++) {
        if (g[2 + d] == 0) return g[1];
        e += (g[2 + d] - 1) * g[2 + TEN_MAX_DIMS + d];
    }
    return e + 1;
}

/* Zeros as long as both layouts reach, in dt: the storage the grads are laid out in. */
static Tensor *storage_zeros(TenCtx *c, DType dt, const int64_t *a, const int64_t *b) {
    int64_t ea = geom_end(a), eb = geom_end(b), len = ea > eb ? ea : eb;
    return ten_new_in(c, dt, 1, &len);
}

AgVal ag_view_result(Tensor *out, AgNode *n, AgVal x) {
    AgVal r = ag_result(out, n);
    if (!r.m || !x.m || !ten_same_storage(out, x.t)) return r;
    AgMeta *base = x.m->base ? x.m->base : x.m;
    r.m->base = ag_meta_ref(base);
    r.m->view = ten_alias(out);
    r.m->base_view = ten_alias(x.m->base ? x.m->base_view : x.t);
    r.m->version = ten_version(out);
    r.m->multi_view = x.m->multi_view;
    return r;
}

void ag_view_mark(AgVal r, AgVal x, int multi_nr) {
    if (!r.m || !x.m || !ten_same_storage(r.t, x.t) || r.m->base) return;
    AgMeta *base = x.m->base ? x.m->base : x.m;
    r.m->base = ag_meta_ref(base);
    r.m->view = ten_alias(r.t);
    r.m->base_view = ten_alias(x.m->base ? x.m->base_view : x.t);
    r.m->version = ten_version(r.t);
    r.m->multi_view = x.m->multi_view || multi_nr >= 0;
    if (multi_nr >= 0) r.m->output_nr = multi_nr;
}

AgMeta *ag_view_link(const AgContext *c, const Tensor *out, AgMeta **xm, const Tensor *x) {
    if (!ten_same_storage(out, x) || out == x) return NULL;
    if (!*xm) *xm = ag_meta_new(false);
    AgMeta *xmeta = *xm, *m = ag_meta_new(false);
    m->no_grad_view = !c->grad_enabled || xmeta->no_grad_view;     /* PyTorch propagates the creation mode */
    m->base = ag_meta_ref(xmeta->base ? xmeta->base : xmeta);
    m->view = ten_alias(out);
    m->base_view = ten_alias(xmeta->base ? xmeta->base_view : x);
    m->version = ten_version(out);
    m->multi_view = xmeta->multi_view;
    return m;
}

/* ---- AsStridedBackward0: a view's grad into its base's layout; sizes: the view's layout, then the base's ---- */

/* Whether the packed layout reaches one storage element from several places (an expand: a stride 0 over a size > 1). */
static bool geom_overlaps(const int64_t *g) {
    for (int d = 0; d < g[0]; d++)
        if (g[2 + d] > 1 && g[2 + TEN_MAX_DIMS + d] == 0) return true;
    return false;
}

/* g (laid out as the packed layout vg) summed into zeros of storage length len, in float64: where vg reaches one
 * element from several places, their grads add up (PyTorch's as_strided_backward). NULL on failure. */
static Tensor *storage_sum(const Tensor *g, const int64_t *vg, int64_t len) {
    Tensor *s = ten_new_in(ten_ctx_of(g), DT_F64, 1, &len), *gc = s ? ten_cast(g, DT_F64) : NULL;
    if (!gc) { ten_free(s); return NULL; }
    const double *gv = ten_f64(gc);
    double *sv = ten_f64(s);
    int nd = (int)vg[0];
    int64_t idx[TEN_MAX_DIMS] = {0};
    for (int64_t i = 0; i < gc->numel; i++) {
        int64_t off = vg[1];
        for (int d = 0; d < nd; d++) off += idx[d] * vg[2 + TEN_MAX_DIMS + d];
        sv[off] += gv[i];
        for (int d = nd - 1; d >= 0 && ++idx[d] == vg[2 + d]; d--) idx[d] = 0;
    }
    ten_free(gc);
    return s;
}

static int as_strided_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const int64_t *vg = n->sizes, *bg = n->sizes + GEOM_LEN;
    if (geom_overlaps(vg)) {
        int64_t ea = geom_end(vg), eb = geom_end(bg);
        Tensor *s = storage_sum(g, vg, ea > eb ? ea : eb), *b = s ? geom_view(s, bg) : NULL;
        Tensor *bc = b ? ten_cast(b, g->dtype) : NULL;
        gin[0] = bc ? ag_to_input(n, 0, bc) : NULL;
        ten_free(b);
        ten_free(s);
        return ag_done(n, gin);
    }
    Tensor *s = storage_zeros(ten_ctx_of(g), g->dtype, vg, bg), *v = s ? geom_view(s, vg) : NULL, *b = NULL;
    if (v && ten_copy_into(v, g) == 0) b = geom_view(s, bg);
    gin[0] = b ? ag_to_input(n, 0, ten_copy(b)) : NULL;
    ten_free(b);
    ten_free(v);
    ten_free(s);
    return ag_done(n, gin);
}

AgNode *ag_as_strided_node(AgContext *c, AgMeta *m) {
    const AgMeta *ins[1] = {m->base};
    AgNode *n = ag_node_new(c, "AsStridedBackward0", as_strided_bw, 1, ins);
    n->sizes = calloc(2 * GEOM_LEN, sizeof(int64_t));
    if (!n->sizes) abort();
    geom_pack(n->sizes, m->view);
    geom_pack(n->sizes + GEOM_LEN, m->base_view);
    n->in_dtype[0] = m->base_view->dtype;
    n->in_ndim[0] = m->base_view->ndim;
    memcpy(n->in_shape[0], m->base_view->shape, sizeof(int64_t) * (size_t)m->base_view->ndim);
    return n;
}

/* ---- CopySlices: fn (the in-place op's node, its edge 0 the written region's history) inside the region, the
 * base's grad outside it; sizes: the region's layout, then the base's. Edges: 0 the base's old history, i >= 1
 * fn's. ---- */

static int copy_slices_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const int64_t *rg = n->sizes, *bg = n->sizes + GEOM_LEN;
    AgNode *fn = n->fn;
    Tensor *s = storage_zeros(ten_ctx_of(g), g->dtype, rg, bg), *b = s ? geom_view(s, bg) : NULL, *r = NULL, *rc = NULL;
    Tensor **fg = calloc((size_t)fn->nnext, sizeof *fg);
    int rc_ok = -1;
    if (!fg || !b || ten_copy_into(b, g) < 0 || !(r = geom_view(s, rg)) || !(rc = ten_copy(r))) goto out;
    if (fn->backward(fn, rc, fg) < 0) goto out;
    if (fg[0]) {
        if (ten_copy_into(r, fg[0]) < 0) goto out;
    } else {
        Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
        int k = zero ? ten_copy_into(r, zero) : -1;
        ten_free(zero);
        if (k < 0) goto out;
    }
    if (ag_needs(n, 0) && !(gin[0] = ag_to_input(n, 0, ten_copy(b)))) goto out;
    for (int i = 1; i < n->nnext; i++) {
        gin[i] = fg[i];
        fg[i] = NULL;
    }
    rc_ok = 0;
out:
    for (int i = 0; fg && i < fn->nnext; i++) ten_free(fg[i]);
    free(fg);
    ten_free(rc);
    ten_free(r);
    ten_free(b);
    ten_free(s);
    return rc_ok < 0 ? -1 : ag_done(n, gin);
}

/* Sets m's history to fn (a new reference passed in), keeping a retained grad with it. */
static void set_history(AgMeta *m, AgNode *fn, const Tensor *t) {
    if (m->grad_fn && m->grad_fn->retained == m) m->grad_fn->retained = NULL;
    ag_node_unref(m->grad_fn);
    m->grad_fn = fn;
    m->output_nr = 0;
    m->requires_grad = true;
    m->version = ten_version(t);
    if (m->retains_grad) fn->retained = m;
}

/* x (meta m) was written in place; fn is the op's node with edge 0 the history of the region written: x itself
 * (region NULL) or a view of x. Rebases the histories as PyTorch does; fn's reference passes on. */
static void rebase(AgContext *c, Tensor *x, AgMeta *m, AgNode *fn, const Tensor *region) {
    if (!region && !m->base) {
        set_history(m, fn, x);
        return;
    }
    AgMeta *root = m->base ? m->base : m;
    const Tensor *root_t = m->base ? m->base_view : x;
    const AgMeta *ins[1] = {root};
    AgNode *cs = ag_node_new(c, "CopySlices", copy_slices_bw, 1, ins);
    AgEdge *e = realloc(cs->next, sizeof *e * (size_t)fn->nnext);
    if (!e) abort();
    cs->next = e;
    for (int i = 1; i < fn->nnext; i++) {
        e[i].fn = ag_node_ref(fn->next[i].fn);
        e[i].input_nr = fn->next[i].input_nr;
    }
    cs->nnext = fn->nnext;
    cs->fn = fn;
    cs->sizes = calloc(2 * GEOM_LEN, sizeof(int64_t));
    if (!cs->sizes) abort();
    geom_pack(cs->sizes, region ? region : x);
    geom_pack(cs->sizes + GEOM_LEN, root_t);
    cs->in_dtype[0] = root_t->dtype;
    cs->in_ndim[0] = root_t->ndim;
    memcpy(cs->in_shape[0], root_t->shape, sizeof(int64_t) * (size_t)root_t->ndim);
    set_history(root, cs, x);
    if (m != root) {
        m->version = -1;                        /* rebuilt now: AsStridedBackward0 of the new history */
        m->requires_grad = true;                /* (a view of a tensor that did not require grad) */
        ag_grad_fn(c, m);
    }
}

/* Whether an in-place write to m is one PyTorch refuses as a write to one of several views (split, unbind ...). */
static bool multi_refused(const AgContext *c, const AgMeta *m) {
    return m && m->multi_view && !m->no_grad_view && m->base && c->grad_enabled && ag_requires_grad(m);
}

/* PyTorch's refusal of a write to output nr of the node `name` (NULL: m's own grad_fn and output): -1. */
static int multi_refusal(const AgContext *c, const AgMeta *m, const char *name, int nr) {
    static const char multi[] = "This view is the output of a function that returns multiple views. Such functions do "
                                "not allow the output views to be modified inplace. You should replace the inplace "
                                "operation by an out-of-place one.";
    if (!name && !m->grad_fn)           /* PyTorch's words for a view of a tensor that did not require grad then */
        ten_fail_in(c->ten, "A view was created in no_grad mode and is being modified inplace with grad mode enabled. %s", multi);
    else
        ten_fail_in(c->ten, "Output %d of %s is a view and is being modified inplace. %s", name ? nr : m->output_nr,
                    name ? name : m->grad_fn->name, multi);
    return -1;
}

/* PyTorch's refusal of an in-place write that records history into a view made under no_grad: -1. */
static int no_grad_view_refusal(const AgContext *c) {
    ten_fail_in(c->ten, "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given "
                "that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving "
                "both the view and the inplace either both inside the no_grad block (if you don't want the inplace to "
                "be tracked) or both outside (if you want the inplace to be tracked).");
    return -1;
}

int ag_inplace_check(const AgContext *c, const AgMeta *m) {
    if (multi_refused(c, m)) return multi_refusal(c, m, NULL, 0);
    if (m && m->no_grad_view && m->base && c->grad_enabled && ag_requires_grad(m)) return no_grad_view_refusal(c);
    if (m && m->base && ag_check_inplace(c, m->base, true) < 0) return -1;
    return m ? ag_check_inplace(c, m, false) : 0;
}

int ag_inplace_check_write(const AgContext *c, const AgMeta *m, bool records) {
    if (ag_inplace_check(c, m) < 0) return -1;
    /* a view made under no_grad of a tensor that requires no grad, written with a value that does */
    if (records && m && m->no_grad_view && m->base && c->grad_enabled) return no_grad_view_refusal(c);
    return 0;
}

static int index_put_bw(AgNode *n, const Tensor *g, Tensor **gin);

/* The checks before a write, and the AgMeta the write records into (made when x has none and the op records). */
static int prepare(AgContext *c, AgMeta **xm, bool records) {
    if (ag_inplace_check_write(c, *xm, records) < 0) return -1;
    if (records && !*xm) *xm = ag_meta_new(false);
    return 0;
}

/* ---- X.op_(...) and X op= Y: the out-of-place op's node becomes X's history ---- */

int ag_inplace_assign(AgContext *c, Tensor *x, AgMeta **xm, AgVal r) {
    AgNode *fn = r.m ? r.m->grad_fn : NULL;
    if (prepare(c, xm, fn != NULL) < 0 || ten_assign_result(x, r.t) < 0) return -1;
    if (!fn) return 0;
    rebase(c, x, *xm, ag_node_ref(fn), NULL);
    /* what the node saved of its result (exp, sigmoid, relu ...) is x now, at its new version (PyTorch saves the
     * in-place op's output, so a later write to x is caught; on a view, the message names the view's grad_fn) */
    AgMeta *m = *xm;
    for (int i = 0; i < fn->nsaved; i++) {
        AgSaved *s = &fn->saved[i];
        if (!s->is_output || !s->t || !ten_same_storage(s->t, r.t) || s->t->dtype != x->dtype) continue;
        ten_free(s->t);
        s->t = ten_alias(x);
        s->version = ten_version(x);
        if (m->base && m->grad_fn && !s->meta) {
            s->meta = ag_weak_of(m);
            s->view_seq = m->grad_fn->seq;
        }
    }
    return 0;
}

int ag_inplace_layout(AgContext *c, Tensor *x, AgMeta **xm, AgVal r) {
    static const char *const names[][2] = {{"TBackward0", "TBackward1"}, {"TransposeBackward0", "TransposeBackward1"},
                                           {"UnsqueezeBackward0", "UnsqueezeBackward1"},
                                           {"SqueezeBackward0", "SqueezeBackward2"}, {"SqueezeBackward1", "SqueezeBackward3"}};
    AgNode *fn = r.m ? r.m->grad_fn : NULL;
    if (prepare(c, xm, fn != NULL) < 0) return -1;
    if (fn && (*xm)->base) {
        ten_fail_in(c->ten, "an in-place shape change (t_, transpose_, unsqueeze_, squeeze_) of a view that requires grad has no "
                    "gradient in attn yet: use the out-of-place op (x = x.t())");
        return -1;
    }
    Tensor *v = ten_alias(r.t);
    if (!v) return -1;
    ten_set_layout(x, v);
    if (!fn) return 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(fn->name, names[i][0])) fn->name = names[i][1];
    set_history(*xm, ag_node_ref(fn), x);
    return 0;
}

int ag_write_record(AgContext *c, Tensor *x, AgMeta **xm, const char *name, int nin, AgVal v) {
    const AgMeta *ms[2] = {*xm, v.m};
    if (!ag_should_record(c, nin, ms)) return 0;
    if (prepare(c, xm, true) < 0) return -1;
    AgVal in[2] = {{x, *xm}, v};
    AgNode *fn = ag_record_always(c, name, index_put_bw, nin, in);
    fn->op = 1;
    rebase(c, x, *xm, fn, NULL);
    return 0;
}

/* ---- x[items] = v ---- */

static bool basic_items(const IndexItem *items, int n) {
    for (int i = 0; i < n; i++)
        if (items[i].kind == IX_TENSOR) return false;
    return true;
}

/* IndexPutBackward0 (op 0): self's grad is g with the written places zeroed, v's is g at them, summed to v's shape.
 * CopyBackwards (op 1, a basic index: fn is the written view's copy_; also copy_, fill_, zero_): self's grad 0, v's
 * (when there is a v) g summed to v's shape.
 * The items' index tensors are saved (slots 0..). n->nd: the number of items, in `sizes` (kind, i, start, stop, step,
 * has_start, has_stop each) for op 0. */
static int put_items(const AgNode *n, IndexItem *it) {
    int k = n->nd, t = 0;
    for (int i = 0; i < k; i++) {
        const int64_t *s = n->sizes + 7 * i;
        it[i] = (IndexItem){.kind = (IndexKind)s[0], .i = s[1], .start = s[2], .stop = s[3], .step = s[4],
                            .has_start = s[5], .has_stop = s[6], .index = NULL};
        if (it[i].kind == IX_TENSOR) it[i].index = n->saved[t++].t;
    }
    return k;
}

static int index_put_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    IndexItem it[2 * TEN_MAX_DIMS];
    int k = 0;
    if (n->op == 0) {
        for (int i = 0; i < n->nsaved; i++)
            if (!ag_saved(n, i)) return -1;
        k = put_items(n, it);
    }
    if (ag_needs(n, 0)) {
        Tensor *z = ten_scalar_d_in(ten_ctx_of(g), 0.0), *gs = n->op == 0 ? ten_copy(g) : NULL;
        if (n->op == 0 && gs && z && ten_index_set(gs, it, k, z) < 0) { ten_free(gs); gs = NULL; }
        if (n->op == 1 && z) gs = ten_full_in(ten_ctx_of(g), g->dtype, g->ndim, g->shape, 0.0);
        ten_free(z);
        gin[0] = gs;
    }
    if (n->nnext > 1 && ag_needs(n, 1)) {
        Tensor *gv = n->op == 0 ? ten_index_get(g, it, k) : ten_alias(g);
        gin[1] = ag_to_input(n, 1, gv);
    }
    return ag_done(n, gin);
}

int ag_index_put_(AgContext *c, Tensor *x, AgMeta **xm, const IndexItem *items, int n, AgVal v, bool v_weak) {
    const AgMeta *ms[2] = {*xm, v.m};
    bool records = ag_should_record(c, 2, ms);
    if (n > 2 * TEN_MAX_DIMS) { ten_fail_in(ten_ctx_of(x), "too many indices (%d)", n); return -1; }
    bool basic = basic_items(items, n);
    /* x[i] = v on one of several views: PyTorch writes the view x[i] makes, which it names (x[...]: x itself) */
    for (int i = n - 1; basic && multi_refused(c, *xm) && (*xm)->grad_fn && i >= 0; i--) {
        IndexKind k = items[i].kind;
        if (k != IX_ELLIPSIS)
            return multi_refusal(c, *xm, k == IX_INT ? "SelectBackward0" : k == IX_SLICE ? "SliceBackward0" : "UnsqueezeBackward0", 0);
    }
    if (prepare(c, xm, records) < 0) return -1;
    int ntensors = 0;
    for (int i = 0; i < n; i++) ntensors += items[i].kind == IX_TENSOR;
    if (records && ntensors > AG_MAX_SAVED) {
        ten_fail_in(ten_ctx_of(x), "autograd: at most %d index tensors in one assignment", AG_MAX_SAVED);
        return -1;
    }
    /* a basic index writes a view of x (whose old values get no grad: CopyBackwards' self grad is 0) */
    AgVal xv = {x, *xm}, region = {NULL, NULL};
    if (basic && records && !(region.t = ten_index_get(x, items, n))) return -1;
    if (ten_index_set(x, items, n, v.t) < 0) {
        ag_val_free(region);
        return -1;
    }
    if (!records) return 0;
    AgVal in[2] = {basic ? region : xv, v};
    AgNode *fn = ag_record_always(c, basic ? "CopyBackwards" : "IndexPutBackward0", index_put_bw, 2, in);
    fn->op = basic;
    if (!basic) {
        fn->nd = n;
        fn->sizes = calloc((size_t)(7 * n + 1), sizeof(int64_t));
        if (!fn->sizes) abort();
        int t = 0;
        for (int i = 0; i < n; i++) {
            int64_t *s = fn->sizes + 7 * i;
            s[0] = items[i].kind; s[1] = items[i].i; s[2] = items[i].start; s[3] = items[i].stop;
            s[4] = items[i].step; s[5] = items[i].has_start; s[6] = items[i].has_stop;
            if (items[i].kind == IX_TENSOR) ag_node_save(fn, t++, items[i].index, NULL, false);
        }
    }
    (void)v_weak;
    rebase(c, x, *xm, fn, basic ? region.t : NULL);
    ag_val_free(region);
    return 0;
}

/* ---- x.masked_fill_(mask, value) ---- */

/* g where the mask is false, 0 where it is true (the out-of-place op's formula). saved[0] = the mask. */
static int masked_fill_inplace_bw(AgNode *n, const Tensor *g, Tensor **gin) {
    const Tensor *mask = ag_saved(n, 0);
    if (!mask) return -1;
    Tensor *zero = ten_scalar_d_in(ten_ctx_of(g), 0.0);
    gin[0] = zero ? ten_where(mask, zero, true, g, false) : NULL;
    ten_free(zero);
    return ag_done(n, gin);
}

int ag_masked_fill_(AgContext *c, Tensor *x, AgMeta **xm, const Tensor *mask, double value) {
    const AgMeta *ms[1] = {*xm};
    bool records = ag_should_record(c, 1, ms);
    if (prepare(c, xm, records) < 0) return -1;
    if (mask->dtype != DT_BOOL) {
        ten_fail_in(ten_ctx_of(x), "masked_fill_ only supports boolean masks, but got mask with dtype %s", ten_dtype_name(mask->dtype));
        return -1;
    }
    Tensor *v = ten_scalar_d_in(ten_ctx_of(x), value);
    Tensor *r = v ? ten_where(mask, v, true, x, false) : NULL;
    ten_free(v);
    if (!r || !ten_same_shape(r, x)) {
        if (r) ten_fail_in(ten_ctx_of(x), "masked_fill_: the mask does not broadcast to the tensor's shape");
        ten_free(r);
        return -1;
    }
    int k = ten_copy_into(x, r);
    ten_free(r);
    if (k < 0 || !records) return k;
    AgVal in[1] = {{x, *xm}};
    AgNode *fn = ag_record_always(c, "MaskedFillBackward0", masked_fill_inplace_bw, 1, in);
    ag_node_save(fn, 0, mask, NULL, false);
    rebase(c, x, *xm, fn, NULL);
    return 0;
}

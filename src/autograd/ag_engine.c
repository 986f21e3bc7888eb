/* ag_engine.c - variables' metadata, graph nodes and the backward engine (torch.autograd.backward and .grad). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ag_internal.h"

static void *ag_alloc(size_t n) {
    void *p = calloc(1, n);
    if (!p) { fputs("attn: out of memory\n", stderr); abort(); }
    return p;
}

void ag_context_init(AgContext *c, TenCtx *ten) {
    c->ten = ten;
    c->grad_enabled = true;
    c->next_seq = 0;
}

/* ---- variables ---- */

AgMeta *ag_meta_new(bool requires_grad) {
    AgMeta *m = ag_alloc(sizeof *m);
    m->refs = 1;
    m->requires_grad = requires_grad;
    return m;
}

void ag_meta_claim(AgMeta *m, void *v) {
    if (m && !m->handle) m->handle = v;
}
void ag_meta_unclaim(AgMeta *m, const void *v) {
    if (m && m->handle == v) m->handle = NULL;
}
void ag_meta_release(AgMeta *m, const void *v, const Tensor *t, int tag) {
    if (!m || m->handle != v) return;
    m->handle = NULL;
    if (!m->acc || !t) return;
    Tensor *keep = ten_alias(t);
    if (!keep) return;                           /* no memory for the header: .variable says it has no object */
    ten_free(m->acc->var_t);
    m->acc->var_t = keep;
    m->acc->var_tag = tag;
}
Tensor *ag_node_take_variable(AgNode *n, int *tag) {
    Tensor *t = n->var_t;
    if (tag) *tag = n->var_tag;
    n->var_t = NULL;
    return t;
}

AgMeta *ag_meta_ref(AgMeta *m) {
    if (m) m->refs++;
    return m;
}

void ag_val_free(AgVal v) {
    ten_free(v.t);
    ag_meta_unref(v.m);
}

int ag_set_requires_grad(AgMeta *m, const Tensor *t, bool flag) {
    if (!ag_is_leaf(m)) {
        if (flag) return 0;
        ten_fail_in(ten_ctx_of(t), "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
                 "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
        return -1;
    }
    if (flag && !ten_is_float(t->dtype)) {
        ten_fail_in(ten_ctx_of(t), "only Tensors of floating point dtype can require gradients");
        return -1;
    }
    if (flag && m->base && !ag_requires_grad(m->base)) {    /* a view of a plain tensor becomes a root of its own */
        ag_meta_unref(m->base);
        ten_free(m->view);
        ten_free(m->base_view);
        m->base = NULL;
        m->view = m->base_view = NULL;
    }
    m->requires_grad = flag;
    return 0;
}

int ag_check_inplace(const AgContext *c, const AgMeta *m, bool view_of_leaf) {
    if (!c->grad_enabled || !ag_requires_grad(m) || m->grad_fn) return 0;
    ten_fail_in(c->ten, view_of_leaf ? "a view of a leaf Variable that requires grad is being used in an in-place operation."
                          : "a leaf Variable that requires grad is being used in an in-place operation.");
    return -1;
}

AgVal ag_detach(AgVal x) {
    AgVal r = {ten_alias(x.t), NULL};
    return r;
}

int ag_detach_inplace(const AgContext *c, AgMeta *m) {
    if (!m) return 0;
    if (m->base) {
        ten_fail_in(c->ten, "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for "
                    "training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence "
                    "detach_() cannot be called on these gradients. To fix this error, please refer to the "
                    "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.");
        return -1;
    }
    if (m->grad_fn && m->grad_fn->retained == m) m->grad_fn->retained = NULL;
    ag_node_unref(m->grad_fn);
    m->grad_fn = NULL;
    m->output_nr = 0;
    m->requires_grad = false;
    m->retains_grad = false;
    return 0;
}

int ag_retain_grad(const AgContext *c, AgMeta *m) {
    if (!ag_requires_grad(m)) {
        ten_fail_in(c->ten, "can't retain_grad on Tensor that has requires_grad=False");
        return -1;
    }
    if (m->grad_fn) {
        m->retains_grad = true;
        m->grad_fn->retained = m;
    }
    return 0;
}

void ag_zero_grad(AgMeta *m) {
    if (!m) return;
    ten_free(m->grad);
    m->grad = NULL;
}

/* ---- nodes ---- */

typedef struct NodeList { AgNode **v; int n, cap; } NodeList;

static void list_push(NodeList *l, AgNode *n) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 32;
        AgNode **v = realloc(l->v, sizeof *v * (size_t)l->cap);
        if (!v) { fputs("attn: out of memory\n", stderr); abort(); }
        l->v = v;
    }
    l->v[l->n++] = n;
}


AgNode *ag_node_ref(AgNode *n) {
    if (n) n->refs++;
    return n;
}

/* Drops a reference to m; when it was the last, frees m and puts its grad_fn on the worklist when that loses its last
 * reference too (the caller frees the worklist: no recursion however long the graph). */
static void meta_drop(AgMeta *m, NodeList *work) {
    if (!m || --m->refs > 0) return;
    AgNode *fn = m->grad_fn;
    if (fn && fn->retained == m) fn->retained = NULL;
    if (fn && --fn->refs == 0) list_push(work, fn);
    ten_free(m->grad);
    ten_free(m->view);
    ten_free(m->base_view);
    if (m->weak) {
        m->weak->m = NULL;
        ag_weak_unref(m->weak);
    }
    meta_drop(m->base, work);           /* a base is never a view itself: one level */
    free(m);
}

void ag_weak_unref(AgWeak *w) {
    if (w && --w->refs == 0) free(w);
}

AgWeak *ag_weak_of(AgMeta *m) {
    if (!m) return NULL;
    if (!m->weak) {
        m->weak = ag_alloc(sizeof *m->weak);
        m->weak->refs = 1;
        m->weak->m = m;
    }
    m->weak->refs++;
    return m->weak;
}

/* Frees the nodes on the worklist and every node and AgMeta only they kept: a loop, not recursion, so a graph of a
 * million nodes in a chain (an RNN's loop, h = x + h; h = h * h, whose nodes keep their inputs' metadata) frees
 * without a deep C stack. */
static void free_nodes(NodeList *work) {
    while (work->n) {
        AgNode *n = work->v[--work->n];
        for (int i = 0; i < n->nsaved; i++) {
            ten_free(n->saved[i].t);
            ag_weak_unref(n->saved[i].meta);
        }
        ten_free(n->buf);
        ten_free(n->var_t);
        if (n->var) {
            if (n->var->acc == n) n->var->acc = NULL;
            meta_drop(n->var, work);
        }
        for (int i = 0; i < n->nnext; i++) {
            AgNode *f = n->next[i].fn;
            if (f && --f->refs == 0) list_push(work, f);
        }
        if (n->fn && --n->fn->refs == 0) list_push(work, n->fn);
        if (n->shown && --n->shown->refs == 0) list_push(work, n->shown);
        free(n->next);
        free(n->sizes);
        free(n);
    }
    free(work->v);
}

void ag_node_unref(AgNode *n) {
    if (!n || --n->refs > 0) return;
    NodeList work = {0};
    list_push(&work, n);
    free_nodes(&work);
}

void ag_meta_unref(AgMeta *m) {
    NodeList work = {0};
    meta_drop(m, &work);
    free_nodes(&work);
}

const char *ag_node_name(const AgNode *n) { return n->name; }
int ag_node_num_next(const AgNode *n) { return n->nnext; }
AgNode *ag_node_next(const AgNode *n, int i, int *input_nr) {
    if (i < 0 || i >= n->nnext) {
        if (input_nr) *input_nr = 0;
        return NULL;
    }
    if (input_nr) *input_nr = n->next[i].input_nr;
    return ag_node_shown(n->next[i].fn);
}
AgNode *ag_node_shown(AgNode *n) { return n && n->shown ? n->shown : n; }
void *ag_node_handle(const AgNode *n) { return n->handle; }
void ag_node_set_handle(AgNode *n, void *handle) { n->handle = handle; }
AgMeta *ag_node_variable(const AgNode *n) { return n->var; }

/* The leaf's AccumulateGrad node (a new reference), made on first use; it keeps the leaf alive. */
static AgNode *accumulate_node(AgMeta *m) {
    if (m->acc) return ag_node_ref(m->acc);
    AgNode *n = ag_alloc(sizeof *n);
    n->refs = 1;
    n->name = "AccumulateGrad";
    n->seq = UINT64_MAX;            /* PyTorch runs AccumulateGrad as soon as it is ready */
    n->var = ag_meta_ref(m);
    n->capture = -1;
    m->acc = n;
    return n;
}

AgNode *ag_node_new(AgContext *c, const char *name, AgBackwardFn bw, int nin, const AgMeta *const *ins) {
    AgNode *n = ag_alloc(sizeof *n);
    n->refs = 1;
    n->name = name;
    n->backward = bw;
    n->seq = c->next_seq++;
    n->ten = c->ten;
    n->capture = -1;
    n->nnext = nin;
    n->next = ag_alloc(sizeof *n->next * (size_t)(nin ? nin : 1));
    for (int i = 0; i < nin; i++) {
        AgMeta *m = (AgMeta *)ins[i];
        if (!ag_requires_grad(m)) continue;
        AgNode *fn = ag_grad_fn(c, m);
        /* a leaf that requires grad only through its base (ag_requires_grad) has no AccumulateGrad: PyTorch's None */
        n->next[i].fn = fn ? ag_node_ref(fn) : m->requires_grad ? accumulate_node(m) : NULL;
        n->next[i].input_nr = m->grad_fn ? m->output_nr : 0;
    }
    return n;
}

void ag_node_save(AgNode *n, int i, const Tensor *t, const AgMeta *m, bool is_output) {
    AgSaved *s = &n->saved[i];
    if (n->nsaved <= i) n->nsaved = i + 1;
    s->t = ten_alias(t);
    s->version = ten_version(t);
    s->made_by = is_output ? n->name : m && m->grad_fn ? m->grad_fn->name : NULL;
    s->meta = is_output ? NULL : ag_weak_of((AgMeta *)m);
    s->is_output = is_output;
    s->is_view = !is_output && m && m->base;
}

static const char *tensor_type_name(DType d) {
    switch (d) {
    case DT_F32: return "torch.FloatTensor";
    case DT_F64: return "torch.DoubleTensor";
    case DT_I64: return "torch.LongTensor";
    case DT_BOOL: return "torch.BoolTensor";
    }
    return "torch.Tensor";
}

static const char SECOND_TIME[] =
    "Trying to backward through the graph a second time (or directly access saved tensors after they have already "
    "been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). "
    "Specify retain_graph=True if you need to backward through the graph a second time or if you need to access "
    "saved tensors after calling backward.";

const Tensor *ag_saved(AgNode *n, int i) {
    if (n->released) {
        ten_fail_in(n->ten, "%s", SECOND_TIME);
        return NULL;
    }
    AgSaved *s = &n->saved[i];
    int64_t now = ten_version(s->t);
    if (now != s->version) {
        char shape[160], of[96] = "";
        size_t k = 0;
        shape[0] = 0;
        for (int d = 0; d < s->t->ndim; d++)
            k += (size_t)snprintf(shape + k, sizeof shape - k, d ? ", %lld" : "%lld", (long long)s->t->shape[d]);
        /* PyTorch names the saved tensor's grad_fn now: an input's history (a view written since: its rebuilt
         * AsStridedBackward0; C++ nodes print namespaced); for the result of an in-place op on a view, the view's
         * grad_fn after that op while the view still has it; else the node itself */
        const char *by = s->made_by;
        AgMeta *in = s->meta ? s->meta->m : NULL;
        if (in && s->is_output) {
            if (in->grad_fn && in->grad_fn->seq == s->view_seq) by = in->grad_fn->name;
        } else if (s->is_view) {             /* a view written since has its grad_fn rebuilt */
            by = "AsStridedBackward0";
        } else if (in && in->grad_fn) {
            by = in->grad_fn->name;
            if (!strcmp(by, "CopySlices")) by = "torch::autograd::CopySlices";
        }
        if (by) snprintf(of, sizeof of, ", which is output 0 of %s,", by);
        ten_fail_in(n->ten, "one of the variables needed for gradient computation has been modified by an inplace operation: "
                 "[%s [%s]]%s is at version %lld; expected version %lld instead. Hint: enable anomaly detection to "
                 "find the operation that failed to compute its gradient, with "
                 "torch.autograd.set_detect_anomaly(True).",
                 tensor_type_name(s->t->dtype), shape, of, (long long)now, (long long)s->version);
        return NULL;
    }
    return s->t;
}

/* Whether m is a view whose grad_fn is rebuilt now: its storage was written since, and its base requires grad. Not
 * a view made under no_grad (PyTorch refuses to rebuild one, with an error attn does not raise: it stays a leaf
 * whose gradient goes nowhere). */
static bool view_rebuilds(const AgMeta *m) {
    return m->base && m->view && !m->no_grad_view && ag_requires_grad(m->base) && ten_version(m->view) != m->version;
}

const char *ag_grad_fn_name(const AgMeta *m) {
    if (!m) return NULL;
    if (view_rebuilds(m)) return "AsStridedBackward0";
    return m->grad_fn ? m->grad_fn->name : NULL;
}

int ag_view_check(const AgContext *c, const AgMeta *m) {
    if (!m || !m->multi_view || !view_rebuilds(m)) return 0;
    ten_fail_in(c->ten, "Output %d of %s is a view and its base or another view of its base has been modified inplace. This "
                "view is the output of a function that returns multiple views. Such functions do not allow the output views "
                "to be modified inplace. You should replace the inplace operation by an out-of-place one.",
                m->output_nr, m->grad_fn ? m->grad_fn->name : "?");
    return -1;
}

AgNode *ag_grad_fn(AgContext *c, AgMeta *m) {
    if (!m) return NULL;
    if (view_rebuilds(m) && !m->multi_view) {      /* a part of split stays stale: ag_view_check refuses its use */
        AgNode *fresh = ag_as_strided_node(c, m);
        if (m->grad_fn && m->grad_fn->retained == m) m->grad_fn->retained = NULL;
        ag_node_unref(m->grad_fn);
        m->grad_fn = fresh;
        m->requires_grad = true;        /* a view of a tensor that requires grad does (made before it did too) */
        m->output_nr = 0;
        m->version = ten_version(m->view);
        if (m->retains_grad) fresh->retained = m;
    }
    return m->grad_fn;
}

void ag_share_node(AgMeta *m, const AgMeta *first, int output_nr) {
    if (!m || !m->grad_fn || !first || !first->grad_fn || m->grad_fn == first->grad_fn) return;
    AgNode *shown = ag_node_shown(first->grad_fn);
    if (m->grad_fn->shown) ag_node_unref(m->grad_fn->shown);
    m->grad_fn->shown = ag_node_ref(shown);
    m->grad_fn->name = shown->name;
    m->output_nr = output_nr;
}

void ag_name_output(AgMeta *m, const char *name, int output_nr) {
    if (!m || !m->grad_fn) return;
    m->grad_fn->name = name;
    m->output_nr = output_nr;
}

AgMeta *ag_meta_for(AgNode *n) {
    AgMeta *m = ag_meta_new(true);
    m->grad_fn = n;
    m->output_nr = 0;
    return m;
}

bool ag_should_record(const AgContext *c, int nin, const AgMeta *const *ins) {
    if (!c->grad_enabled) return false;
    for (int i = 0; i < nin; i++)
        if (ag_requires_grad(ins[i])) return true;
    return false;
}

/* ---- the engine ---- */

/* Every node reachable from the roots, once, with deps = the number of edges into it from reachable nodes. */
static void collect(AgNode *const *roots, int nroots, NodeList *all) {
    NodeList stack = {0};
    for (int i = 0; i < nroots; i++) {
        if (roots[i]->seen) continue;
        roots[i]->seen = true;
        list_push(all, roots[i]);
        list_push(&stack, roots[i]);
    }
    while (stack.n) {
        AgNode *n = stack.v[--stack.n];
        for (int i = 0; i < n->nnext; i++) {
            AgNode *f = n->next[i].fn;
            if (!f) continue;
            f->deps++;
            if (!f->seen) {
                f->seen = true;
                list_push(all, f);
                list_push(&stack, f);
            }
        }
    }
    free(stack.v);
}

/* *acc += g (g consumed): the first grad is taken as it is, later ones summed in arrival order. */
static int accumulate(Tensor **acc, Tensor *g) {
    if (!*acc) { *acc = g; return 0; }
    Tensor *s = ten_binary(OP_ADD, *acc, false, g, false);
    ten_free(g);
    if (!s) return -1;
    ten_free(*acc);
    *acc = s;
    return 0;
}

/* Adds g into a variable's .grad: a new contiguous copy the first time, else in place (so an alias of .grad held
 * elsewhere sees the sum, as in PyTorch). */
static int accumulate_grad(AgMeta *m, const Tensor *g) {
    if (!m->grad) {
        m->grad = ten_copy(g);
        return m->grad ? 0 : -1;
    }
    Tensor *s = ten_binary(OP_ADD, m->grad, false, g, false);
    if (!s) return -1;
    int r = ten_copy_into(m->grad, s);
    ten_free(s);
    return r;
}

/* accumulate_grad of a leaf's incoming grad *g, which the engine owns: the first time, when nothing else holds its
 * elements, it becomes .grad as it is (PyTorch's AccumulateGrad steals a grad used once), with no copy. */
static int accumulate_leaf(AgMeta *m, Tensor **g) {
    if (!m->grad && ten_sole_owner(*g)) {
        m->grad = *g;
        *g = NULL;
        return 0;
    }
    return accumulate_grad(m, *g);
}

static void shape_text(const Tensor *t, char *out, size_t cap) {
    size_t k = (size_t)snprintf(out, cap, "torch.Size([");
    for (int d = 0; d < t->ndim && k < cap; d++)
        k += (size_t)snprintf(out + k, cap - k, d ? ", %lld" : "%lld", (long long)t->shape[d]);
    if (k < cap) snprintf(out + k, cap - k, "])");
}

/* The grad a root starts with: grads[i] (checked against the output's shape), or ones for one element. */
static Tensor *root_grad(const AgVal *out, const Tensor *g, int i) {
    if (!g) {
        if (out->t->numel != 1) {
            ten_fail_in(ten_ctx_of(out->t), "grad can be implicitly created only for scalar outputs");
            return NULL;
        }
        return ten_full_in(ten_ctx_of(out->t), out->t->dtype, out->t->ndim, out->t->shape, 1.0);
    }
    if (!ten_same_shape(g, out->t)) {
        char a[160], b[160];
        shape_text(g, a, sizeof a);
        shape_text(out->t, b, sizeof b);
        ten_fail_in(ten_ctx_of(g), "Mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a shape of %s.", i, a, i, b);
        return NULL;
    }
    return g->dtype == out->t->dtype ? ten_copy(g) : ten_cast(g, out->t->dtype);
}

/* Runs the graph from the roots. capture NULL: backward (leaves accumulate, retained grads fill); else
 * torch.autograd.grad: nodes marked with capture >= 0 store their output's grad in capture[k] and AccumulateGrad
 * writes nothing. */
static int run(AgContext *c, int nout, const AgVal *outputs, const Tensor *const *grads, bool retain_graph,
               int nin, const AgVal *inputs, Tensor **captured) {
    AgNode **roots = calloc((size_t)(nout ? nout : 1), sizeof *roots);
    if (!roots) { ten_fail_in(c->ten, "out of memory"); return -1; }
    int rc = -1;
    NodeList all = {0}, ready = {0};
    for (int i = 0; i < nout; i++) {
        const AgMeta *m = outputs[i].m;
        if (!ag_requires_grad(m)) {
            ten_fail_in(c->ten, "element %d of tensors does not require grad and does not have a grad_fn", i);
            goto done;
        }
        if (ag_view_check(c, m) < 0) goto done;
        AgNode *fn = ag_grad_fn(c, outputs[i].m);
        roots[i] = fn ? ag_node_ref(fn) : accumulate_node(outputs[i].m);
    }
    collect(roots, nout, &all);
    for (int j = 0; j < nin; j++) {
        AgMeta *m = inputs[j].m;
        if (!ag_requires_grad(m)) {
            ten_fail_in(c->ten, "One of the differentiated Tensors does not require grad");
            goto done;
        }
        AgNode *fn = ag_grad_fn(c, m), *t = fn ? fn : m->acc;
        if (t && t->seen) t->capture = j;
    }
    for (int i = 0; i < nout; i++) {
        Tensor *g = root_grad(&outputs[i], grads ? grads[i] : NULL, i);
        if (!g || accumulate(&roots[i]->buf, g) < 0) goto done;
    }
    for (int i = 0; i < all.n; i++)
        if (all.v[i]->deps == 0) list_push(&ready, all.v[i]);
    while (ready.n) {
        if (atomic_load(&ten_interrupted)) {        /* Ctrl-C: stop between nodes (kernels stop inside theirs) */
            ten_fail_interrupted(c->ten);
            goto done;
        }
        /* the ready node made last runs first (PyTorch's order by sequence number) */
        int best = 0;
        for (int i = 1; i < ready.n; i++)
            if (ready.v[i]->seq > ready.v[best]->seq) best = i;
        AgNode *n = ready.v[best];
        ready.v[best] = ready.v[--ready.n];
        Tensor *g = n->buf;
        if (g && captured && n->capture >= 0 && !(captured[n->capture] = ten_copy(g))) goto done;
        if (g && !captured && n->retained && n->retained->retains_grad && accumulate_grad(n->retained, g) < 0)
            goto done;
        if (g && n->var) {
            if (!captured && accumulate_leaf(n->var, &n->buf) < 0) goto done;
        } else if (g && n->backward) {
            if ((n->released && n->nsaved) || (n->fn && n->fn->released && n->fn->nsaved)) {
                ten_fail_in(c->ten, "%s", SECOND_TIME);
                goto done;
            }
            Tensor **gin = ag_alloc(sizeof *gin * (size_t)(n->nnext ? n->nnext : 1));
            if (n->backward(n, g, gin) < 0) { free(gin); goto done; }
            for (int i = 0; i < n->nnext; i++) {
                AgNode *f = n->next[i].fn;
                if (f && gin[i]) {
                    if (accumulate(&f->buf, gin[i]) < 0) {
                        for (int k = i + 1; k < n->nnext; k++) ten_free(gin[k]);
                        free(gin);
                        goto done;
                    }
                } else ten_free(gin[i]);
            }
            free(gin);
            if (!retain_graph && n->fn) {          /* CopySlices: what its op saved goes too */
                for (int i = 0; i < n->fn->nsaved; i++) {
                    ten_free(n->fn->saved[i].t);
                    n->fn->saved[i].t = NULL;
                    ag_weak_unref(n->fn->saved[i].meta);
                    n->fn->saved[i].meta = NULL;
                }
                n->fn->released = true;
            }
            if (!retain_graph) {
                for (int i = 0; i < n->nsaved; i++) {
                    ten_free(n->saved[i].t);
                    n->saved[i].t = NULL;
                    ag_weak_unref(n->saved[i].meta);
                    n->saved[i].meta = NULL;
                }
                n->released = true;
            }
        }
        ten_free(n->buf);
        n->buf = NULL;
        for (int i = 0; i < n->nnext; i++) {
            AgNode *f = n->next[i].fn;
            if (f && --f->deps == 0) list_push(&ready, f);
        }
    }
    rc = 0;
done:
    for (int i = 0; i < all.n; i++) {
        AgNode *n = all.v[i];
        ten_free(n->buf);
        n->buf = NULL;
        n->deps = 0;
        n->seen = false;
        n->capture = -1;
    }
    for (int i = 0; i < nout; i++) ag_node_unref(roots[i]);
    free(roots);
    free(all.v);
    free(ready.v);
    return rc;
}

int ag_backward(AgContext *c, int nout, const AgVal *outputs, const Tensor *const *grads, bool retain_graph) {
    return run(c, nout, outputs, grads, retain_graph, 0, NULL, NULL);
}

int ag_grad(AgContext *c, int nout, const AgVal *outputs, const Tensor *const *grads, int nin,
            const AgVal *inputs, Tensor **result, bool retain_graph, bool allow_unused) {
    for (int j = 0; j < nin; j++) result[j] = NULL;
    if (run(c, nout, outputs, grads, retain_graph, nin, inputs, result) < 0) {
        for (int j = 0; j < nin; j++) { ten_free(result[j]); result[j] = NULL; }
        return -1;
    }
    for (int j = 0; j < nin && !allow_unused; j++)
        if (!result[j]) {
            for (int k = 0; k < nin; k++) { ten_free(result[k]); result[k] = NULL; }
            ten_fail_in(c->ten, "One of the differentiated Tensors appears to not have been used in the graph. Set "
                     "allow_unused=True if this is the desired behavior.");
            return -1;
        }
    return 0;
}

int ag_backward_inputs(AgContext *c, int nout, const AgVal *outputs, const Tensor *const *grads, int nin,
                       const AgVal *inputs, bool retain_graph) {
    for (int j = 0; j < nin; j++)           /* PyTorch retains the inputs' grads first: its message for one */
        if (!ag_requires_grad(inputs[j].m)) return ag_retain_grad(c, inputs[j].m);
    Tensor **res = calloc((size_t)(nin ? nin : 1), sizeof *res);
    if (!res) { fputs("attn: out of memory\n", stderr); abort(); }
    int rc = ag_grad(c, nout, outputs, grads, nin, inputs, res, retain_graph, true);
    for (int j = 0; j < nin; j++) {
        AgMeta *m = inputs[j].m;
        if (rc == 0 && res[j] && m) {
            if (m->grad_fn) rc = ag_retain_grad(c, m);      /* a non-leaf input keeps its .grad from now on */
            if (rc == 0) rc = accumulate_leaf(m, &res[j]);
        }
        ten_free(res[j]);
    }
    free(res);
    return rc;
}

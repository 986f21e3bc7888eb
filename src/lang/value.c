/* value.c - constructors, reference counting and the cycle collector of values; dicts, dict views, type names and
 * truth. Their text is value_repr.c's, their equality value_eq.c's. */
#include "value.h"
#include "interp.h"
#include "library.h"
#include "textwidth.h"
#include "pyset.h"
#include "tensor.h"
#include "lang_internal.h"
#include <unictype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* The immortal singletons: heap NULL, so val_incref and val_decref never write them (read-only data) */
const Value val_ellipsis_singleton = {.kind = V_ELLIPSIS, .refs = 1};
static const Value none_singleton = {.kind = V_NONE, .refs = 1};

/* Python's NotImplemented: what a student's __eq__, __lt__, __add__ ... return to let the other operand try */
static void notimpl_repr(Interp *I, StrBuf *out, Value *self, int depth) { (void)self; (void)depth; sb_puts(out, "NotImplemented"); }
static int notimpl_setattr(struct Interp *I, Value *self, const char *name, Value *v) {
    (void)self; (void)v;
    rt_raise(I, "AttributeError", "'NotImplementedType' object has no attribute '%s'", name);
    return -1;
}
static const ObjClass notimpl_class = {.name = "NotImplementedType", .repr = notimpl_repr, .setattr = notimpl_setattr};
const Value val_not_implemented = {.kind = V_OBJECT, .refs = 1, .u.obj.cls = &notimpl_class};

/* ---- allocation, freeing without recursion, and the cycle collector ---- */

/* Memory held by a heap's values (their structs, string contents, list items, dict and set tables) as malloc holds
 * it: with the tensors', what the memory limit bounds. */
int64_t val_live_bytes(const ValHeap *h) { return h->bytes; }
void val_account_bytes(ValHeap *h, int64_t delta) { if (h) h->bytes += delta; }

ValHeap *val_heap_new(void) {
    ValHeap *h = xcalloc(1, sizeof *h);
    h->refs = 1;
    return h;
}

/* Frees the structs waiting in h's pool (each one counted in h->refs). */
static void pool_release(ValHeap *h) {
    while (h->pool) {
        Value *v = h->pool;
        h->pool = (Value *)v->u.seq.items;
        free(v);
        h->refs--;
    }
    h->npool = 0;
}

/* One reference of h gone (its owner's, or a value's): freed with the last. */
static void heap_unref(ValHeap *h) {
    if (--h->refs > 0) return;
    free(h->tracked);
    free(h->pending);
    free(h);
}

void val_heap_free(ValHeap *h) {
    if (!h) return;
    h->closed = true;
    h->refs++;                        /* the pool's structs are counted: keep h while they go */
    pool_release(h);
    h->refs--;
    heap_unref(h);
}

/* glibc's malloc: a chunk is the request plus an 8-byte header, rounded up to 16, at least 32 bytes */
int64_t val_heap_bytes(size_t n) {
    size_t c = (n + 8 + 15) & ~(size_t)15;
    return (int64_t)(c < 32 ? 32 : c);
}
#define VALUE_BYTES val_heap_bytes(sizeof(Value))

/* What a string's malloc'ed buffer takes (a buffer from sb_take can be larger than its text) */
static int64_t str_bytes(const Value *v) {
#ifdef __GLIBC__
    return (int64_t)malloc_usable_size(v->u.str.s) + 8;
#else
    return val_heap_bytes(v->u.str.len + 1);
#endif
}

/* A dict's tables: keys, values and hashes (cap each) and the index */
static int64_t dict_bytes(const Dict *d) {
    int64_t b = 0;
    if (d->cap) b += 2 * val_heap_bytes(sizeof(Value *) * (size_t)d->cap) + val_heap_bytes(sizeof(int64_t) * (size_t)d->cap);
    if (d->index) b += val_heap_bytes(sizeof *d->index * (size_t)d->index_cap);
    return b;
}

static bool container_kind(VKind k) {
    return k == V_TUPLE || k == V_LIST || k == V_DICT || k == V_SET || k == V_SLICE || k == V_METHOD || k == V_FUNC ||
           k == V_OBJECT || k == V_CLASS || k == V_DICTVIEW;
}

/* A container the machine has no room to track (mem_exhausted set, MemoryError follows) is left out of the cycle
 * collector's set: freed by its count as any value, only a cycle through it stays. */
static void track(Value *v) {
    ValHeap *h = v->heap;
    if (!container_kind(v->kind) || v->gc_slot) return;
    if (h->ntracked == h->captracked) {
        Value **t = mem_try_realloc(h->tracked, sizeof(Value *) * (h->captracked ? (size_t)h->captracked * 2 : 1024));
        if (!t) return;
        h->tracked = t;
        h->captracked = h->captracked ? h->captracked * 2 : 1024;
    }
    h->tracked[h->ntracked++] = v;
    v->gc_slot = h->ntracked;
    h->since_collect++;
}

static void untrack(Value *v) {
    if (!v->gc_slot) return;
    ValHeap *h = v->heap;
    uint32_t i = v->gc_slot - 1;
    Value *last = h->tracked[--h->ntracked];
    h->tracked[i] = last;
    last->gc_slot = i + 1;
    v->gc_slot = 0;
}

/* Whether v is in h's set (a value of another heap, or an immortal one, is not: it counts as outside) */
static bool is_tracked(const ValHeap *h, const Value *v) {
    return v && v->heap == h && v->gc_slot && v->gc_slot <= h->ntracked && h->tracked[v->gc_slot - 1] == v;
}

/* Freed Value structs wait here for the next val_new (at most VAL_POOL_MAX): a tiny op's result costs no malloc.
 * release() is the one place that gives back. Off in sanitizer builds, so that ASan sees every use after free. */
#define VAL_POOL_MAX 512
#ifdef TEN_CHECKS                     /* a sanitizer build (tensor.h) */
#define VAL_POOLED 0
#else
#define VAL_POOLED 1
#endif

Value *val_new(ValHeap *h, VKind k) {
    if (!h) {                         /* immortal: made once for the program (a class of attn's), never counted */
        Value *v = xcalloc(1, sizeof *v);
        v->kind = k;
        v->refs = 1;
        return v;
    }
    h->bytes += VALUE_BYTES;
    Value *v = h->pool;
    if (VAL_POOLED && v) {
        h->pool = (Value *)v->u.seq.items;
        h->npool--;
        memset(v, 0, sizeof *v);
    } else {
        v = xcalloc(1, sizeof *v);
        h->refs++;                    /* a struct of h's, pooled or alive */
    }
    v->kind = k;
    v->refs = 1;
    v->heap = h;
    if (k == V_OBJECT) v->u.obj.attrs.heap = h;
    track(v);
    return v;
}

static Value *alloc(ValHeap *h, VKind k) { return val_new(h, k); }

Value *val_incref(Value *v) {
    if (v && v->heap) v->refs++;
    return v;
}


void dict_free(Dict *d) {
    val_account_bytes(d->heap, -dict_bytes(d));
    for (int i = 0; i < d->n; i++) { val_decref(d->keys[i]); val_decref(d->vals[i]); }
    if (d->factory) val_decref(d->factory);
    free(d->keys);
    free(d->vals);
    free(d->hashes);
    free(d->index);
    uint32_t version = d->version;
    ValHeap *heap = d->heap;
    memset(d, 0, sizeof *d);
    d->version = version + 1;
    d->heap = heap;
}

static void visit_dict(Dict *d, void (*visit)(Value *, void *), void *ctx) {
    for (int i = 0; i < d->n; i++) { visit(d->keys[i], ctx); visit(d->vals[i], ctx); }
    if (d->factory) visit(d->factory, ctx);
}

void val_children(Value *v, void (*visit)(Value *child, void *ctx), void *ctx) {
    switch (v->kind) {
    case V_TUPLE: case V_LIST:
        for (int64_t i = 0; i < v->u.seq.n; i++) visit(v->u.seq.items[i], ctx);
        break;
    case V_DICTVIEW: visit(v->u.view.dict, ctx); break;
    case V_DICT: visit_dict(v->u.dict, visit, ctx); break;
    case V_SET: pyset_visit(v->u.set, visit, ctx); break;
    case V_SLICE: visit(v->u.slice.start, ctx); visit(v->u.slice.stop, ctx); visit(v->u.slice.step, ctx); break;
    case V_METHOD: visit(v->u.method.self, ctx); visit(v->u.method.func, ctx); visit(v->u.method.klass, ctx); break;
    case V_FUNC:
        for (int i = 0; i < v->u.func->nparams; i++) visit(v->u.func->defaults[i], ctx);
        visit(v->u.func->closure, ctx);
        visit_dict(&v->u.func->attrs, visit, ctx);
        break;
    case V_OBJECT: visit_dict(&v->u.obj.attrs, visit, ctx); visit(v->u.obj.klass, ctx); break;
    case V_CLASS:
        visit_dict(&v->u.cls->attrs, visit, ctx);
        for (int i = 0; i < v->u.cls->nbases; i++) visit(v->u.cls->bases[i], ctx);
        break;
    default: break;
    }
}

/* Frees v itself and releases what it holds (val_decref of a child only queues it while the queue drains). */
static void release(Value *v) {
    ValHeap *h = v->heap;
    switch (v->kind) {
    case V_STR: h->bytes -= str_bytes(v); free(v->u.str.s); break;
    case V_TUPLE: case V_LIST:
        for (int64_t i = 0; i < v->u.seq.n; i++) val_decref(v->u.seq.items[i]);
        free(v->u.seq.items);
        h->bytes -= val_heap_bytes(sizeof(Value *) * (size_t)v->u.seq.cap);
        break;
    case V_DICT: dict_free(v->u.dict); free(v->u.dict); h->bytes -= val_heap_bytes(sizeof(Dict)); break;
    case V_DICTVIEW: val_decref(v->u.view.dict); break;
    case V_SET: pyset_free(v->u.set); free(v->u.set); h->bytes -= val_heap_bytes(sizeof(PySet)); break;
    case V_TENSOR: ag_meta_release(v->ag, v, v->u.t, v->param); ten_free(v->u.t); ag_meta_unref(v->ag); val_decref(v->u.grad_value); break;
    case V_SLICE: val_decref(v->u.slice.start); val_decref(v->u.slice.stop); val_decref(v->u.slice.step); break;
    case V_METHOD: val_decref(v->u.method.self); val_decref(v->u.method.func); val_decref(v->u.method.klass); break;
    case V_FUNC: {
        UserFunc *f = v->u.func;
        for (int i = 0; i < f->nparams; i++) val_decref(f->defaults[i]);
        free(f->defaults);
        free(f->name);
        free(f->src);
        free(f->src_name);
        val_decref(f->closure);
        dict_free(&f->attrs);
        ast_free(f->def);
        free(f);
        break;
    }
    case V_OBJECT:
        dict_free(&v->u.obj.attrs);
        val_decref(v->u.obj.klass);
        if (v->u.obj.priv && v->u.obj.cls->free_priv) v->u.obj.cls->free_priv(v->u.obj.priv);
        break;
    case V_CLASS: {
        ClassInfo *c = v->u.cls;
        dict_free(&c->attrs);
        for (int i = 0; i < c->nbases; i++) val_decref(c->bases[i]);
        free(c->bases);
        free(c->mro);
        free(c->name);
        free(c);
        break;
    }
    default: break;
    }
    untrack(v);
    h->bytes -= VALUE_BYTES;
    if (VAL_POOLED && !h->closed && h->npool < VAL_POOL_MAX) {
        v->kind = V_NONE;
        v->refs = 0;
        v->u.seq.items = (Value **)h->pool;
        h->pool = v;
        h->npool++;
    } else {
        free(v);
        heap_unref(h);                /* its last value gone after its owner: the heap goes too */
    }
}

void val_decref(Value *v) {
    if (!v || !v->heap || --v->refs > 0) return;
    /* a value that holds no values goes at once (a list of ten million numbers needs no queue of ten million); so
     * does a container when the queue cannot grow (the machine is out of memory: recursion, rarely deep, instead) */
    if (!container_kind(v->kind)) { release(v); return; }
    ValHeap *h = v->heap;             /* its queue: a child of another heap drains in that heap's */
    if (h->npending == h->cappending) {
        Value **p = mem_try_realloc(h->pending, sizeof(Value *) * (h->cappending ? h->cappending * 2 : 256));
        if (!p) { release(v); return; }
        h->pending = p;
        h->cappending = h->cappending ? h->cappending * 2 : 256;
    }
    h->pending[h->npending++] = v;
    if (h->draining) return;
    h->draining = true;
    h->refs++;                        /* the queue's last value may be the heap's last: keep it while draining */
    while (h->npending) release(h->pending[--h->npending]);
    h->draining = false;
    heap_unref(h);
}

/* ---- the cycle collector (CPython's): references from outside the tracked set keep a group alive ---- */

typedef struct Gc { const ValHeap *h; int64_t *refs; uint32_t *stack; uint32_t nstack; bool *reachable; } Gc;

static void gc_uncount(Value *c, void *ctx) {
    Gc *g = ctx;
    if (is_tracked(g->h, c)) g->refs[c->gc_slot - 1]--;
}

static void gc_reach(Value *c, void *ctx) {
    Gc *g = ctx;
    if (!is_tracked(g->h, c) || g->reachable[c->gc_slot - 1]) return;
    g->reachable[c->gc_slot - 1] = true;
    g->stack[g->nstack++] = c->gc_slot - 1;
}

/* Drops every reference c holds (the collector breaks a garbage cycle this way before freeing it). */
static void clear_container(Value *v) {
    switch (v->kind) {
    case V_TUPLE: case V_LIST:
        for (int64_t i = 0; i < v->u.seq.n; i++) val_decref(v->u.seq.items[i]);
        v->u.seq.n = 0;
        break;
    case V_DICTVIEW: val_decref(v->u.view.dict); v->u.view.dict = NULL; break;
    case V_DICT: dict_free(v->u.dict); break;
    case V_SET: pyset_free(v->u.set); break;
    case V_SLICE:
        val_decref(v->u.slice.start); val_decref(v->u.slice.stop); val_decref(v->u.slice.step);
        v->u.slice.start = v->u.slice.stop = v->u.slice.step = NULL;
        break;
    case V_METHOD:
        val_decref(v->u.method.self); val_decref(v->u.method.func); val_decref(v->u.method.klass);
        v->u.method.self = v->u.method.func = v->u.method.klass = NULL;
        break;
    case V_FUNC:
        for (int i = 0; i < v->u.func->nparams; i++) { val_decref(v->u.func->defaults[i]); v->u.func->defaults[i] = NULL; }
        val_decref(v->u.func->closure);
        v->u.func->closure = NULL;
        dict_free(&v->u.func->attrs);
        break;
    case V_OBJECT: dict_free(&v->u.obj.attrs); val_decref(v->u.obj.klass); v->u.obj.klass = NULL; break;
    case V_CLASS:
        dict_free(&v->u.cls->attrs);
        for (int i = 0; i < v->u.cls->nbases; i++) val_decref(v->u.cls->bases[i]);
        v->u.cls->nbases = 0;
        v->u.cls->nmro = 0;
        break;
    default: break;
    }
}

int64_t val_containers_since_collect(const ValHeap *h) { return h->since_collect; }

int64_t val_collect_cycles(ValHeap *h) {
    h->since_collect = 0;
    uint32_t n = h->ntracked;
    if (n == 0) return 0;
    Value **tracked = h->tracked;
    Gc g = {h, mem_try_malloc(sizeof(int64_t) * n), mem_try_malloc(sizeof(uint32_t) * n), 0, mem_try_calloc(n, sizeof(bool))};
    if (!g.refs || !g.stack || !g.reachable) {        /* no room to look: the cycles wait for the next collection */
        free(g.refs);
        free(g.stack);
        free(g.reachable);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) g.refs[i] = tracked[i]->refs;
    for (uint32_t i = 0; i < n; i++) val_children(tracked[i], gc_uncount, &g);
    /* referenced from outside the set: alive, and so is everything they hold */
    for (uint32_t i = 0; i < n; i++)
        if (g.refs[i] > 0) { g.reachable[i] = true; g.stack[g.nstack++] = i; }
    while (g.nstack) val_children(tracked[g.stack[--g.nstack]], gc_reach, &g);
    Value **garbage = xmalloc(sizeof(Value *) * n);   /* after the three above are freed: it fits where they were */
    int64_t ng = 0;
    for (uint32_t i = 0; i < n; i++) if (!g.reachable[i]) garbage[ng++] = tracked[i];
    free(g.refs);
    free(g.stack);
    free(g.reachable);
    /* hold every garbage value, break the references between them, then let them go (h with them: its owner may be
     * gone, and the garbage its last values) */
    h->refs++;
    for (int64_t i = 0; i < ng; i++) garbage[i]->refs++;
    for (int64_t i = 0; i < ng; i++) clear_container(garbage[i]);
    for (int64_t i = 0; i < ng; i++) val_decref(garbage[i]);
    free(garbage);
    heap_unref(h);
    return ng;
}

Value *val_none(void) { return (Value *)&none_singleton; }
Value *val_ellipsis(void) { return (Value *)&val_ellipsis_singleton; }
Value *val_notimplemented(void) { return (Value *)&val_not_implemented; }
Value *val_bool(ValHeap *h, bool b) { Value *v = alloc(h, V_BOOL); v->u.b = b; return v; }
Value *val_int(ValHeap *h, int64_t i) { Value *v = alloc(h, V_INT); v->u.i = i; return v; }
Value *val_float(ValHeap *h, double f) { Value *v = alloc(h, V_FLOAT); v->u.f = f; return v; }
int64_t val_utf8_count(const char *s, size_t n) {
    int64_t c = 0;
    uint32_t cp;
    for (size_t i = 0; i < n; c++) i += (unsigned char)s[i] < 0x80 ? 1 : tw_decode(s + i, n - i, &cp);
    return c;
}
Value *val_str_take_chars(ValHeap *h, char *s, size_t n, int64_t chars) {
    Value *v = alloc(h, V_STR);
    v->u.str.s = s;
    v->u.str.len = n;
    v->u.str.chars = chars;
    val_account_bytes(h, str_bytes(v));
    return v;
}
Value *val_str_take_n(ValHeap *h, char *s, size_t n) { return val_str_take_chars(h, s, n, val_utf8_count(s, n)); }
Value *val_strn(ValHeap *h, const char *s, size_t n) { return val_str_take_n(h, xstrndup(s, n), n); }
Value *val_str(ValHeap *h, const char *s) { return val_strn(h, s, strlen(s)); }
Value *val_str_take(ValHeap *h, char *s) { return val_str_take_n(h, s, strlen(s)); }

size_t val_str_offset(const Value *str, int64_t i) {
    if (str->u.str.chars == (int64_t)str->u.str.len) return (size_t)i;      /* ASCII */
    Value *v = (Value *)str;                   /* the hint is a cache: the string itself never changes */
    int64_t k = 0;
    size_t off = 0;
    if (v->u.str.hint_i <= i) { k = v->u.str.hint_i; off = v->u.str.hint_off; }
    uint32_t cp;
    for (; k < i && off < v->u.str.len; k++) off += tw_decode(v->u.str.s + off, v->u.str.len - off, &cp);
    v->u.str.hint_i = k;
    v->u.str.hint_off = off;
    return off;
}

Value *val_str_char(const Value *str, int64_t i) {
    size_t a = val_str_offset(str, i), b = val_str_offset(str, i + 1);
    return val_strn(str->heap, str->u.str.s + a, b - a);
}
Value *val_seq_try(ValHeap *h, VKind k, int64_t n) {
    if (n < 0 || (uint64_t)n > SIZE_MAX / sizeof(Value *)) { mem_exhausted = 1; return NULL; }
    Value **items = mem_try_calloc((size_t)(n ? n : 1), sizeof(Value *));
    if (!items) return NULL;
    Value *v = alloc(h, k);
    v->u.seq.items = items;
    v->u.seq.n = n;
    v->u.seq.cap = n ? n : 1;
    val_account_bytes(h, val_heap_bytes(sizeof(Value *) * (size_t)v->u.seq.cap));
    for (int64_t i = 0; i < n; i++) v->u.seq.items[i] = val_none();
    return v;
}
/* the sizes attn chose: the reserve makes room once, else attn stops (xcalloc's rule) */
static Value *seq(ValHeap *h, VKind k, int64_t n) {
    Value *v = val_seq_try(h, k, n);
    if (!v && !(v = val_seq_try(h, k, n))) { fputs("attn: out of memory\n", stderr); abort(); }
    return v;
}
Value *val_tuple(ValHeap *h, int64_t n) { return seq(h, V_TUPLE, n); }
Value *val_list(ValHeap *h, int64_t n) { return seq(h, V_LIST, n); }
Value *val_size(ValHeap *h, const int64_t *shape, int ndim) {
    Value *v = seq(h, V_TUPLE, ndim);
    v->u.seq.is_size = true;
    for (int i = 0; i < ndim; i++) val_seq_set(v, i, val_int(h, shape[i]));
    return v;
}
Value *val_named_tuple(ValHeap *h, const NamedTuple *type) {
    Value *v = seq(h, V_TUPLE, type->nfields);
    v->u.seq.named = type;
    return v;
}
Value *val_named_field(const Value *v, const char *name) {
    if (v->kind != V_TUPLE || !v->u.seq.named) return NULL;
    for (int i = 0; i < v->u.seq.named->nfields && i < v->u.seq.n; i++)
        if (!strcmp(v->u.seq.named->fields[i], name)) return v->u.seq.items[i];
    return NULL;
}
Value *val_dict(ValHeap *h) {
    Value *v = alloc(h, V_DICT);
    v->u.dict = xcalloc(1, sizeof(Dict));
    v->u.dict->heap = h;
    val_account_bytes(h, val_heap_bytes(sizeof(Dict)));
    return v;
}
Value *val_tensor(ValHeap *h, Tensor *t) {
    if (!t) return NULL;
    Value *v = alloc(h, V_TENSOR);
    v->u.t = t;
    return v;
}
Value *val_tensor_ag(ValHeap *h, Tensor *t, AgMeta *m) {
    if (!t) { ag_meta_unref(m); return NULL; }
    Value *v = val_tensor(h, t);
    v->ag = m;
    return v;
}
bool val_requires_grad(const Value *v) {
    if (v->kind == V_TENSOR) return ag_requires_grad(v->ag);
    if (v->kind == V_LIST || v->kind == V_TUPLE)
        for (int64_t i = 0; i < v->u.seq.n; i++)
            if (v->u.seq.items[i]->kind == V_TENSOR && ag_requires_grad(v->u.seq.items[i]->ag)) return true;
    return false;
}
Value *val_dtype(ValHeap *h, DType d) { Value *v = alloc(h, V_DTYPE); v->u.dtype = d; return v; }
Value *val_range(ValHeap *h, int64_t start, int64_t stop, int64_t step) {
    Value *v = alloc(h, V_RANGE);
    v->u.range.start = start; v->u.range.stop = stop; v->u.range.step = step;
    return v;
}
Value *val_builtin(ValHeap *h, const Builtin *b) { Value *v = alloc(h, V_BUILTIN); v->u.builtin = b; return v; }
Value *val_method(ValHeap *h, Value *self, const Builtin *fn) {
    Value *v = alloc(h, V_METHOD);
    v->u.method.self = val_incref(self);
    v->u.method.fn = fn;
    return v;
}
Value *val_bound(ValHeap *h, Value *self, Value *func, Value *klass) {
    Value *v = alloc(h, V_METHOD);
    v->u.method.self = val_incref(self);
    v->u.method.func = val_incref(func);
    v->u.method.klass = val_incref(klass);
    return v;
}
Value *val_object(ValHeap *h, const ObjClass *cls) { Value *v = alloc(h, V_OBJECT); v->u.obj.cls = cls; return v; }
Value *val_module(ValHeap *h, const char *name) { Value *v = alloc(h, V_MODULE); v->u.module = name; return v; }

void val_seq_set(Value *s, int64_t i, Value *item) {
    val_decref(s->u.seq.items[i]);
    s->u.seq.items[i] = item;
}
/* A capacity for a table of cap entries that is full: twice as large, or (when the machine refuses that) an eighth
 * larger; grow(p, bytes) tries one size. The new capacity, or 0 when neither fits (mem_exhausted is then set). */
static int64_t grown_cap(int64_t cap, size_t each, bool (*grow)(void *ctx, size_t bytes), void *ctx) {
    int64_t tries[2] = {cap * 2, cap + cap / 8 + 1};
    for (int i = 0; i < 2; i++)
        if ((uint64_t)tries[i] <= SIZE_MAX / each / 2 && grow(ctx, each * (size_t)tries[i])) return tries[i];
    return 0;
}

static bool grow_items(void *ctx, size_t bytes) {
    Value *l = ctx, **p = mem_try_realloc(l->u.seq.items, bytes);
    if (p) l->u.seq.items = p;
    return p != NULL;
}

/* When the machine refuses the room (mem_exhausted set, MemoryError at the interpreter's next check), the item is
 * kept out of the list and never freed: a caller may still use it, borrowed. */
void val_list_append(Value *l, Value *item) {
    if (l->u.seq.n == l->u.seq.cap) {
        int64_t cap = grown_cap(l->u.seq.cap, sizeof(Value *), grow_items, l);
        if (!cap) return;
        val_account_bytes(l->heap, val_heap_bytes(sizeof(Value *) * (size_t)cap) - val_heap_bytes(sizeof(Value *) * (size_t)l->u.seq.cap));
        l->u.seq.cap = cap;
    }
    l->u.seq.items[l->u.seq.n++] = item;
}

/* ---- dicts: insertion order in keys/vals/hashes, and an open-addressing index by hash (linear probes) ---- */

static bool key_is(const Value *k, const char *s, size_t n) {
    return k->kind == V_STR && k->u.str.len == n &&
           (n == 0 || (k->u.str.s[0] == s[0] && (n == 1 || !memcmp(k->u.str.s + 1, s + 1, n - 1))));
}

/* Python's hash of a string key (the same as hash(s), pyset_hash): no student code runs */
static int64_t str_key_hash(const char *s, size_t n) {
    Value tmp = {.kind = V_STR, .refs = 1 << 30};
    tmp.u.str.s = (char *)s;
    tmp.u.str.len = n;
    int64_t h;
    bool hashable;
    pyset_hash_quiet(&tmp, &h, &hashable);
    return h;
}

static void index_put(Dict *d, int pos) {
    uint32_t mask = (uint32_t)d->index_cap - 1, h = (uint32_t)(uint64_t)d->hashes[pos] & mask;
    while (d->index[h]) h = (h + 1) & mask;
    d->index[h] = pos + 1;
}

/* (Re)builds the index for the current keys from their stored hashes, or drops it below DICT_INDEX_MIN entries. */
static void index_build(Dict *d) {
    val_account_bytes(d->heap, -dict_bytes(d));
    free(d->index);
    d->index = NULL;
    d->index_cap = 0;
    if (d->n >= DICT_INDEX_MIN) {
        int32_t cap = 16;
        while (cap < 2 * d->n) cap *= 2;
        /* refused: no index (lookups walk the keys), mem_exhausted set; the next insertion tries again */
        if ((d->index = mem_try_calloc((size_t)cap, sizeof *d->index))) {
            d->index_cap = cap;
            for (int i = 0; i < d->n; i++) index_put(d, i);
        }
    }
    val_account_bytes(d->heap, dict_bytes(d));
}

static int find_str(const Dict *d, const char *s, size_t n) {
    int64_t hash = str_key_hash(s, n);
    if (d->index) {
        uint32_t mask = (uint32_t)d->index_cap - 1, h = (uint32_t)(uint64_t)hash & mask;
        for (int32_t p; (p = d->index[h]); h = (h + 1) & mask)
            if (d->hashes[p - 1] == hash && key_is(d->keys[p - 1], s, n)) return p - 1;
        return -1;
    }
    for (int i = 0; i < d->n; i++) if (d->hashes[i] == hash && key_is(d->keys[i], s, n)) return i;
    return -1;
}

/* Whether stored key k (hash equal to key's) is key: identity, then == (a student's __eq__ may run: k is held
 * meanwhile). false when that failed (val_eq: the error set). */
static bool probe_eq(struct Interp *I, const Value *k, const Value *key, bool *eq) {
    if (k == key) return *eq = true;
    if (k->kind == V_STR && key->kind == V_STR) {
        *eq = k->u.str.len == key->u.str.len && !memcmp(k->u.str.s, key->u.str.s, k->u.str.len);
        return true;
    }
    Value *hold = val_incref((Value *)k);
    bool ok = val_eq(I, hold, key, eq);
    val_decref(hold);
    return ok;
}

/* dict_find_hashed's probe, CPython's lookdict: only keys of key's hash are compared; each is held while its comparison
 * runs (student code), and when that code changed the table under it (the index rebuilt or resized, or another key
 * at that place) the probe starts again, so the index *at returned is valid when returned (-1: absent); a key only
 * added meanwhile is not a restart (CPython's: an __eq__ that adds a key at each comparison restarted forever, the
 * dict growing until memory ran out). false when a comparison failed (val_eq: the error set). */
bool dict_probe(struct Interp *I, const Dict *d, const Value *key, int64_t hash, int *at) {
    int restarts = 0;
restart:
    /* an __eq__ that rebuilds the dict at every comparison would restart the probe for ever (CPython's too, but for
     * its allocator reusing the table): a bounded number of restarts, then Python's RuntimeError */
    if (restarts++ > PROBE_RESTARTS) {
        rt_raise(I, "RuntimeError", "dictionary changed during a key's comparison %d times: stopped", PROBE_RESTARTS);
        return false;
    }
    *at = -1;
    const int32_t *index = d->index;
    int32_t index_cap = d->index_cap;
    int i = -1;
    uint32_t mask = d->index ? (uint32_t)d->index_cap - 1 : 0, h = (uint32_t)(uint64_t)hash & mask;
    for (;;) {
        if (d->index) {
            int32_t p = d->index[h];
            if (!p) return true;
            i = p - 1;
            h = (h + 1) & mask;
        } else if (++i >= d->n) return true;
        if (d->hashes[i] != hash) continue;
        const Value *start = d->keys[i];
        bool eq;
        if (!probe_eq(I, start, key, &eq)) return false;
        if (d->index != index || d->index_cap != index_cap || i >= d->n || d->keys[i] != start) goto restart;
        if (eq) { *at = i; return true; }
    }
}

int dict_find_hashed(struct Interp *I, const Dict *d, const Value *key, int64_t hash) {
    int at;
    return dict_probe(I, d, key, hash, &at) ? at : -1;
}

Value *dict_get(Dict *d, const char *key) {
    int i = find_str(d, key, strlen(key));
    return i < 0 ? NULL : d->vals[i];
}

static bool grow_dict(void *ctx, size_t bytes) {
    Dict *d = ctx;
    Value **k = mem_try_realloc(d->keys, bytes);
    if (k) d->keys = k;
    Value **v = k ? mem_try_realloc(d->vals, bytes) : NULL;
    if (v) d->vals = v;
    int64_t *h = v ? mem_try_realloc(d->hashes, bytes) : NULL;
    if (h) d->hashes = h;
    return h != NULL;
}

/* When the machine refuses the room (mem_exhausted set), key and v stay out of the dict and are never freed: a
 * caller may still use them, borrowed. */
void dict_append_hashed(Dict *d, Value *key, Value *v, int64_t hash) {
    if (d->n == d->cap) {
        int64_t before = dict_bytes(d), cap = d->cap ? grown_cap(d->cap, sizeof(Value *), grow_dict, d) : 8;
        if (cap > INT32_MAX / 2) cap = 0;
        if (cap && !d->cap && !grow_dict(d, sizeof(Value *) * (size_t)cap)) cap = 0;
        if (!cap) { mem_exhausted = 1; return; }
        d->cap = (int)cap;
        val_account_bytes(d->heap, dict_bytes(d) - before);
    }
    d->keys[d->n] = key;
    d->vals[d->n] = v;
    d->hashes[d->n++] = hash;
    d->version++;
    if (d->n >= DICT_INDEX_MIN && 2 * d->n > d->index_cap) index_build(d);
    else if (d->index) index_put(d, d->n - 1);
}

void dict_append(Dict *d, Value *key, Value *v) {
    int64_t hash = 0;
    if (key->kind == V_STR) hash = str_key_hash(key->u.str.s, key->u.str.len);
    else {
        bool hashable;
        if (!pyset_hash_quiet(key, &hash, &hashable) || !hashable) hash = 0;   /* callers pass hashable keys; a failure is already set */
    }
    dict_append_hashed(d, key, v, hash);
}

void dict_set(Dict *d, const char *key, Value *v) {
    size_t n = strlen(key);
    int i = find_str(d, key, n);
    if (i >= 0) {
        val_decref(d->vals[i]);
        d->vals[i] = v;
        d->version++;
        return;
    }
    /* the key in the dict's heap; an immortal dict's (a class of attn's that a student adds to) in the value's, so
     * that it goes back there when the entry goes */
    ValHeap *heap = d->heap ? d->heap : val_heap_of(v);
    dict_append(d, val_strn(heap, key, n), v);
}

bool dict_del(Dict *d, const char *key) {
    int i = find_str(d, key, strlen(key));
    if (i < 0) return false;
    dict_del_at(d, i);
    return true;
}

void dict_del_at(Dict *d, int i) {
    Value *k = d->keys[i], *v = d->vals[i];
    memmove(d->keys + i, d->keys + i + 1, sizeof(Value *) * (size_t)(d->n - i - 1));
    memmove(d->vals + i, d->vals + i + 1, sizeof(Value *) * (size_t)(d->n - i - 1));
    memmove(d->hashes + i, d->hashes + i + 1, sizeof(int64_t) * (size_t)(d->n - i - 1));
    d->n--;
    d->version++;
    if (d->index) index_build(d);     /* the places after i moved */
    val_decref(k);                    /* last: freeing them may run nothing, but the dict is whole first */
    val_decref(v);
}
Value *val_attr_get(Value *obj, const char *name) { return dict_get(&obj->u.obj.attrs, name); }
void val_attr_set(Value *obj, const char *name, Value *v) { dict_set(&obj->u.obj.attrs, name, v); }

const char *val_type_name(const Value *v) {
    switch (v->kind) {
    case V_NONE: return "NoneType";
    case V_BOOL: return "bool";
    case V_INT: return "int";
    case V_FLOAT: return "float";
    case V_STR: return "str";
    case V_TUPLE: return v->u.seq.named ? v->u.seq.named->name : v->u.seq.is_size ? "torch.Size" : "tuple";
    case V_LIST: return "list";
    case V_DICTVIEW:                             /* an OrderedDict's (a state_dict's) are odict_keys ... in Python */
        if (v->u.view.dict->kind == V_DICT && v->u.view.dict->u.dict->ordered)
            return v->u.view.which == VIEW_KEYS ? "odict_keys" : v->u.view.which == VIEW_VALUES ? "odict_values" : "odict_items";
        return v->u.view.which == VIEW_KEYS ? "dict_keys" : v->u.view.which == VIEW_VALUES ? "dict_values" : "dict_items";
    case V_SET: return v->u.set->frozen ? "frozenset" : "set";
    case V_DICT: return v->u.dict->ordered ? "collections.OrderedDict" : v->u.dict->default_dict ? "collections.defaultdict" : "dict";
    case V_TENSOR: return "Tensor";
    case V_DTYPE: return "torch.dtype";
    case V_RANGE: return "range";
    case V_SLICE: return "slice";
    case V_ELLIPSIS: return "ellipsis";
    case V_BUILTIN:              /* F.softmax: PyTorch writes it in Python */
        return lib()->type_module(v->u.builtin, NULL) ? "type" : lib()->function_qualname && lib()->function_qualname(NULL, v->u.builtin)
               ? "function" : "builtin_function_or_method";
    case V_METHOD: return v->u.method.func ? "method" : "builtin_function_or_method";
    case V_FUNC: return "function";
    case V_OBJECT: return v->u.obj.klass ? v->u.obj.klass->u.cls->name : v->u.obj.cls->name;
    case V_MODULE: return "module";
    case V_CLASS: return "type";
    }
    return "?";
}

bool val_is_module(const Value *v) {
    return v->kind == V_OBJECT && (v->u.obj.klass ? v->u.obj.klass->u.cls->is_module : v->u.obj.cls->is_module);
}

bool val_is_number(const Value *v) { return v->kind == V_BOOL || v->kind == V_INT || v->kind == V_FLOAT; }
double val_as_double(const Value *v) {
    return v->kind == V_FLOAT ? v->u.f : v->kind == V_INT ? (double)v->u.i : v->kind == V_BOOL ? (double)v->u.b : 0;
}

uint64_t val_range_count(const Value *r) {
    int64_t a = r->u.range.start, b = r->u.range.stop, s = r->u.range.step;
    /* in unsigned arithmetic: b - a and -s can exceed int64 (range(-2**63+1, 2**63-1), step -2**63) */
    if (s > 0 && b > a) return ((uint64_t)b - (uint64_t)a - 1) / (uint64_t)s + 1;
    if (s < 0 && a > b) return ((uint64_t)a - (uint64_t)b - 1) / (0 - (uint64_t)s) + 1;
    return 0;
}

int64_t val_range_at(const Value *r, uint64_t i) {
    /* start + i * step stays inside [start, stop) for i < count: computed modulo 2**64, it is exact */
    return (int64_t)((uint64_t)r->u.range.start + i * (uint64_t)r->u.range.step);
}

bool val_truthy(const Value *v, bool *ok) {
    *ok = true;
    switch (v->kind) {
    case V_NONE: return false;
    case V_BOOL: return v->u.b;
    case V_INT: return v->u.i != 0;
    case V_FLOAT: return v->u.f != 0;
    case V_STR: return v->u.str.len > 0;
    case V_TUPLE: case V_LIST: return v->u.seq.n > 0;
    case V_DICTVIEW: return val_view_len(v) > 0;
    case V_DICT: return v->u.dict->n > 0;
    case V_SET: return v->u.set->used > 0;
    case V_RANGE: {
        const int64_t a = v->u.range.start, b = v->u.range.stop, s = v->u.range.step;
        return s > 0 ? a < b : a > b;
    }
    case V_TENSOR:
        if (v->u.t->numel != 1) { *ok = false; return false; }
        return ten_get(v->u.t, 0) != 0;
    default: return true;
    }
}

Value *val_view_new(Value *dict, DictView which) {
    Value *v = val_new(dict->heap, V_DICTVIEW);
    v->u.view.dict = val_incref(dict);
    v->u.view.which = which;
    return v;
}

int64_t val_view_len(const Value *view) { return view->u.view.dict ? view->u.view.dict->u.dict->n : 0; }

Value *val_view_item(const Value *view, int64_t i) {
    const Dict *d = view->u.view.dict->u.dict;
    if (view->u.view.which == VIEW_KEYS) return val_incref(d->keys[i]);
    if (view->u.view.which == VIEW_VALUES) return val_incref(d->vals[i]);
    Value *t = val_tuple(view->heap, 2);
    val_seq_set(t, 0, val_incref(d->keys[i]));
    val_seq_set(t, 1, val_incref(d->vals[i]));
    return t;
}

bool val_is_set_like(const Value *v) {
    return v->kind == V_SET || (v->kind == V_DICTVIEW && v->u.view.which != VIEW_VALUES);
}

/* dict_keys([1, 2]), dict_values(['a', 'b']), dict_items([(1, 'a'), (2, 'b')]): as CPython's dictview_repr, the
 * items are taken into a list first, then printed (a student's __repr__ that changes the dict changes nothing printed). */

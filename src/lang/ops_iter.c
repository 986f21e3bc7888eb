/* ops_iter.c - iteration: iter(), next(), reversed() and the builtin iterators (sequences, dicts and their views, sets,
 * map, filter, zip, enumerate, generator expressions), a student's __iter__/__next__, and list(x). */
#include "ops.h"
#include "pyset.h"
#include "library.h"
#include "pyformat.h"
#include "pyexc.h"
#include "lang_internal.h"
#include "pyexc.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- iteration ---- */

/* The length of a sequence as it is now (a list grows and shrinks while it is walked; a range longer than 2**63-1
 * counts as 2**63-1, more than any loop may run) and its i-th item (a dict's i-th key, a tensor's i-th row), a new
 * reference; NULL when i is past the end. */
static int64_t seq_len(const Value *s) {
    switch (s->kind) {
    case V_LIST: case V_TUPLE: return s->u.seq.n;
    case V_DICTVIEW: return val_view_len(s);                 /* its dict's length now */
    case V_STR: return s->u.str.chars;
    case V_DICT: return s->u.dict->n;
    case V_SET: return s->u.set->used;
    case V_RANGE: { uint64_t c = val_range_count(s); return c > INT64_MAX ? INT64_MAX : (int64_t)c; }
    case V_TENSOR: return s->u.t->ndim ? s->u.t->shape[0] : 0;
    default: return 0;
    }
}
static Value *seq_item(Interp *I, Value *s, int64_t i) {
    if (i < 0 || i >= seq_len(s)) return NULL;
    switch (s->kind) {
    case V_LIST: case V_TUPLE: return val_incref(s->u.seq.items[i]);
    case V_DICTVIEW: return val_view_item(s, i);
    case V_STR: return val_str_char(s, i);
    case V_RANGE: return val_int(I->run.heap, val_range_at(s, (uint64_t)i));
    case V_DICT: return val_incref(s->u.dict->keys[i]);
    case V_TENSOR: {
        /* PyTorch iterates by unbind: row i is output i of UnbindBackward0, one of several views (written in place
         * under grad mode: refused); attn records it as a select of row i, the same gradient */
        if (ag_records(I, s, NULL)) {
            AgVal r = ag_select(&I->run.ag, (AgVal){s->u.t, s->ag}, 0, i);
            if (r.m) r.m->multi_view = true;
            ag_name_output(r.m, "UnbindBackward0", (int)i);
            return ag_value(I, r);
        }
        IndexItem item = {.kind = IX_INT, .i = i};
        Tensor *row = ten_index_get(s->u.t, &item, 1);
        return row ? val_tensor(I->run.heap, row) : rt_tensor_error(I);
    }
    default: return NULL;
    }
}

#define DICT_CHANGED "dictionary changed size during iteration"
#define SET_CHANGED "Set changed size during iteration"
static int64_t container_size(const Value *s) { return s->kind == V_SET ? s->u.set->used : s->kind == V_DICT ? s->u.dict->n : val_view_len(s); }
static bool sized(const Value *s) { return s->kind == V_DICT || s->kind == V_SET || s->kind == V_DICTVIEW; }

/* Python 3's single-pass iterators, built-in objects whose state lives in hidden attributes (they show none:
 * ops_attr_names lists nothing for them and getattr finds nothing):
 *   iter(x) (list_iterator ...) and reversed(x): "src" (what it walks) and "pos" (the next place, counting down for
 *     reversed); "size" for a dict (its length when the iterator was made: Python's RuntimeError when it changed).
 *     "src" is dropped once exhausted, so it stays exhausted.
 *   map(f, *its), filter(f, it), zip(*its), enumerate(it, start): "fn", "its" (a tuple of the arguments' iterators)
 *     and, for enumerate, "pos" (the next count).
 * Nothing is computed before it is asked for (Python's laziness): map's function runs as its items are consumed,
 * and each step reads one item from each argument, so zip(it, it) pairs neighbours as in Python. */
typedef enum { IK_SEQ, IK_REVERSED, IK_MAP, IK_FILTER, IK_ZIP, IK_ENUMERATE, IK_GETITEM, IK_GENERATOR } IterKind;
static void iterator_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    sb_printf(out, "<%s object at %p>", self->u.obj.cls->name, (void *)self);
}
/* Python's repr of a generator (the address is attn's): a generator expression's, or the one a Python function of
 * PyTorch returns (ops_list_generator: its "qualname", Module.parameters) */
static void generator_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    Value *q = val_attr_get(self, "qualname");
    sb_printf(out, "<generator object %s at %p>", q && q->kind == V_STR ? q->u.str.s : "<genexpr>", (void *)self);
}
static Value *iterator_getattr(Interp *I, Value *self, const char *name) {
    return rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", self->u.obj.cls->name, name);
}
static int iterator_setattr(Interp *I, Value *self, const char *name, Value *v) {
    (void)v;
    rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", self->u.obj.cls->name, name);
    return -1;
}
#define ITERATOR_CLASS(n) {.name = n, .repr = iterator_repr, .getattr = iterator_getattr, .setattr = iterator_setattr}
enum { IC_LIST, IC_TUPLE, IC_STR, IC_USTR, IC_RANGE, IC_DICT, IC_DICT_VALUES, IC_DICT_ITEMS, IC_SET, IC_REVERSED, IC_LIST_REV,
       IC_DICT_REV, IC_DICT_VALUES_REV, IC_DICT_ITEMS_REV, IC_RANGE_REV, IC_MAP, IC_FILTER, IC_ZIP, IC_ENUMERATE, IC_GETITEM, IC_GETITEM_REV, IC_GENERATOR, IC_LIST_GENERATOR, N_ITERATOR_CLASSES };
static const ObjClass iterator_classes[N_ITERATOR_CLASSES] = {
    [IC_LIST] = ITERATOR_CLASS("list_iterator"), [IC_TUPLE] = ITERATOR_CLASS("tuple_iterator"),
    [IC_STR] = ITERATOR_CLASS("str_ascii_iterator"), [IC_USTR] = ITERATOR_CLASS("str_iterator"),
    [IC_RANGE] = ITERATOR_CLASS("range_iterator"),
    [IC_DICT] = ITERATOR_CLASS("dict_keyiterator"), [IC_DICT_VALUES] = ITERATOR_CLASS("dict_valueiterator"),
    [IC_DICT_ITEMS] = ITERATOR_CLASS("dict_itemiterator"), [IC_SET] = ITERATOR_CLASS("set_iterator"), [IC_REVERSED] = ITERATOR_CLASS("reversed"),
    [IC_LIST_REV] = ITERATOR_CLASS("list_reverseiterator"), [IC_DICT_REV] = ITERATOR_CLASS("dict_reversekeyiterator"),
    [IC_DICT_VALUES_REV] = ITERATOR_CLASS("dict_reversevalueiterator"), [IC_DICT_ITEMS_REV] = ITERATOR_CLASS("dict_reverseitemiterator"),
    [IC_RANGE_REV] = ITERATOR_CLASS("range_iterator"), [IC_MAP] = ITERATOR_CLASS("map"),
    [IC_FILTER] = ITERATOR_CLASS("filter"), [IC_ZIP] = ITERATOR_CLASS("zip"), [IC_ENUMERATE] = ITERATOR_CLASS("enumerate"),
    [IC_GETITEM] = ITERATOR_CLASS("iterator"), [IC_GETITEM_REV] = ITERATOR_CLASS("reversed"),
    [IC_GENERATOR] = {.name = "generator", .repr = generator_repr, .getattr = iterator_getattr, .setattr = iterator_setattr},
    [IC_LIST_GENERATOR] = {.name = "generator", .repr = generator_repr, .getattr = iterator_getattr, .setattr = iterator_setattr},
};
static const IterKind iterator_kinds[N_ITERATOR_CLASSES] = {
    [IC_LIST] = IK_SEQ, [IC_TUPLE] = IK_SEQ, [IC_STR] = IK_SEQ, [IC_USTR] = IK_SEQ, [IC_RANGE] = IK_SEQ, [IC_DICT] = IK_SEQ,
    [IC_DICT_VALUES] = IK_SEQ, [IC_DICT_ITEMS] = IK_SEQ, [IC_SET] = IK_SEQ, [IC_REVERSED] = IK_REVERSED, [IC_LIST_REV] = IK_REVERSED,
    [IC_DICT_REV] = IK_REVERSED, [IC_DICT_VALUES_REV] = IK_REVERSED, [IC_DICT_ITEMS_REV] = IK_REVERSED, [IC_RANGE_REV] = IK_REVERSED,
    [IC_MAP] = IK_MAP, [IC_FILTER] = IK_FILTER, [IC_ZIP] = IK_ZIP, [IC_ENUMERATE] = IK_ENUMERATE, [IC_GETITEM] = IK_GETITEM, [IC_GETITEM_REV] = IK_GETITEM,
    [IC_GENERATOR] = IK_GENERATOR, [IC_LIST_GENERATOR] = IK_SEQ,
};

/* Whether v is one of attn's own iterators (above) */
bool builtin_iterator(const Value *v) {
    return v->kind == V_OBJECT && v->u.obj.cls >= iterator_classes && v->u.obj.cls < iterator_classes + N_ITERATOR_CLASSES;
}

bool ops_is_iterator(Interp *I, const Value *v) { return builtin_iterator(v) || class_has_special(I, v, "__next__"); }

/* iter(obj) for an instance of a student's class: its __iter__'s result, which must be an iterator (CPython's
 * TypeError otherwise), else Python's sequence iterator over its __getitem__ (obj[0], obj[1] ... until IndexError). */
static Value *student_iter(Interp *I, Value *obj) {
    if (!class_has_special(I, obj, "__iter__")) {
        Value *it = val_object(I->run.heap, &iterator_classes[IC_GETITEM]);
        val_attr_set(it, "src", val_incref(obj));
        val_attr_set(it, "pos", val_int(I->run.heap, 0));
        return it;
    }
    Value *r = class_call_special(I, obj, "__iter__", NULL, 0);
    if (r && !ops_is_iterator(I, r)) {
        rt_raise(I, "TypeError", "iter() returned non-iterator of type '%s'", val_type_name(r));
        val_decref(r);
        return NULL;
    }
    return r;
}

/* The next item of a student's iterator (its __next__) or of the sequence iterator over a student's __getitem__
 * (forward, or backward from len - 1 for reversed(): IC_GETITEM_REV): NULL at the end (its StopIteration, or the
 * IndexError that ends a __getitem__ walk, is dropped; a backward walk ends below 0) or with the error it raised set. */
static Value *student_next(Interp *I, Value *self, bool getitem) {
    Value *src = getitem ? val_attr_get(self, "src") : self;
    if (!src) return NULL;
    bool back = getitem && self->u.obj.cls == &iterator_classes[IC_GETITEM_REV];
    Value *pos = getitem ? val_attr_get(self, "pos") : NULL, *r;
    if (back && pos->u.i < 0) { dict_del(&self->u.obj.attrs, "src"); return NULL; }
    if (getitem) r = ops_call_special(I, src, "__getitem__", &pos, 1);
    else if (!class_has_special(I, self, "__next__")) return rt_raise(I, "TypeError", "'%s' object is not an iterator", val_type_name(self));
    else r = ops_call_special(I, self, "__next__", NULL, 0);
    if (r) {
        /* the place as it is now (CPython's it_index++): a __getitem__ that stepped this iterator itself replaced
         * (and freed) the pos it was called with */
        if (getitem) { pos = val_attr_get(self, "pos"); val_attr_set(self, "pos", val_int(I->run.heap, (pos && pos->kind == V_INT ? pos->u.i : 0) + (back ? -1 : 1))); }
        return r;
    }
    if (interp_error_kind(I) == ERR_ERROR && (pyexc_matches(I->error.etype, "StopIteration") ||
                                              (getitem && pyexc_matches(I->error.etype, "IndexError")))) {
        interp_clear_error(I);
        if (getitem) dict_del(&self->u.obj.attrs, "src");   /* exhausted stays exhausted */
    }
    return NULL;
}

/* An iterator of class ic walking src from place pos (forward for IK_SEQ classes, backward for the reversed ones). */
static Value *walker(Interp *I, int ic, Value *src, int64_t pos) {
    Value *it = val_object(I->run.heap, &iterator_classes[ic]);
    val_attr_set(it, "src", val_incref(src));
    val_attr_set(it, "pos", val_int(I->run.heap, pos));
    if (sized(src)) val_attr_set(it, "size", val_int(I->run.heap, container_size(src)));
    return it;
}

Value *ops_iter(Interp *I, Value *src) {
    if (builtin_iterator(src)) return val_incref(src);       /* iter(it) is it */
    if (src->kind == V_OBJECT && src->u.obj.cls->iter) return src->u.obj.cls->iter(I, src);
    if (class_has_special(I, src, "__iter__") || class_has_special(I, src, "__getitem__")) return student_iter(I, src);
    if (!ops_is_iterable(I, src)) return rt_raise(I, "TypeError", "'%s' object is not iterable", val_type_name(src));
    if (src->kind == V_TENSOR && src->u.t->ndim == 0) return rt_error(I, "iteration over a 0-d tensor");
    if (src->kind == V_STR) return walker(I, src->u.str.chars == (int64_t)src->u.str.len ? IC_STR : IC_USTR, src, 0);   /* Python's two */
    if (src->kind == V_DICTVIEW)       /* Python's dict_keyiterator, dict_valueiterator, dict_itemiterator */
        return walker(I, src->u.view.which == VIEW_KEYS ? IC_DICT : src->u.view.which == VIEW_VALUES ? IC_DICT_VALUES : IC_DICT_ITEMS, src, 0);
    return walker(I, src->kind == V_LIST ? IC_LIST : src->kind == V_RANGE ? IC_RANGE :
                  src->kind == V_DICT ? IC_DICT : src->kind == V_SET ? IC_SET : IC_TUPLE, src, 0);
}

Value *ops_reversed(Interp *I, Value *src) {
    switch (src->kind) {
    case V_RANGE: return walker(I, IC_RANGE_REV, src, seq_len(src) - 1);     /* Python's type: range_iterator */
    case V_LIST: return walker(I, IC_LIST_REV, src, src->u.seq.n - 1);
    case V_TUPLE: case V_STR: return walker(I, IC_REVERSED, src, seq_len(src) - 1);
    case V_DICT: return walker(I, IC_DICT_REV, src, src->u.dict->n - 1);
    case V_DICTVIEW:
        return walker(I, src->u.view.which == VIEW_KEYS ? IC_DICT_REV : src->u.view.which == VIEW_VALUES ? IC_DICT_VALUES_REV : IC_DICT_ITEMS_REV,
                      src, val_view_len(src) - 1);
    case V_TENSOR: {       /* PyTorch's Tensor.__reversed__ is flip(0): a tensor, not an iterator */
        if (src->u.t->ndim == 0) return val_incref(src);
        Tensor *r = ten_flip(src->u.t, 0);
        return r ? val_tensor(I->run.heap, r) : rt_tensor_error(I);
    }
    default:
        /* a student's class: its __reversed__, else Python's reversed sequence iterator over __len__ and __getitem__ */
        if (class_has_special(I, src, "__reversed__")) return ops_call_special(I, src, "__reversed__", NULL, 0);
        if (class_has_special(I, src, "__getitem__")) {          /* len() raises without __len__, as Python */
            Value *nv = ops_len(I, src);
            if (!nv) return NULL;
            Value *it = val_object(I->run.heap, &iterator_classes[IC_GETITEM_REV]);
            val_attr_set(it, "src", val_incref(src));
            val_attr_set(it, "pos", val_int(I->run.heap, nv->kind == V_INT ? nv->u.i - 1 : -1));
            val_decref(nv);
            return it;
        }
        return rt_raise(I, "TypeError", "'%s' object is not reversible", val_type_name(src));
    }
}

Value *ops_lazy_iterator(Interp *I, const char *kind, Value *fn, Value *const *args, int nargs, int64_t start) {
    Value *its = val_tuple(I->run.heap, nargs);
    for (int i = 0; i < nargs; i++) {
        Value *it = ops_iter(I, args[i]);
        if (!it) { val_decref(its); return NULL; }
        val_seq_set(its, i, it);
    }
    int ic = !strcmp(kind, "map") ? IC_MAP : !strcmp(kind, "filter") ? IC_FILTER : !strcmp(kind, "zip") ? IC_ZIP : IC_ENUMERATE;
    Value *self = val_object(I->run.heap, &iterator_classes[ic]);
    if (fn) val_attr_set(self, "fn", val_incref(fn));
    val_attr_set(self, "its", its);
    if (ic == IC_ENUMERATE) val_attr_set(self, "pos", val_int(I->run.heap, start));
    return self;
}

Value *ops_generator(Value *fn, Value *first, int nclauses) {
    Value *its = val_list(fn->heap, 0);
    val_list_append(its, first);
    for (int i = 1; i < nclauses; i++) val_list_append(its, val_none());
    Value *self = val_object(fn->heap, &iterator_classes[IC_GENERATOR]);
    val_attr_set(self, "fn", fn);
    val_attr_set(self, "its", its);
    val_attr_set(self, "env", val_dict(fn->heap));
    val_attr_set(self, "level", val_int(fn->heap, 0));
    return self;
}

Value *ops_list_generator(Value *list, const char *qualname) {
    Value *self = val_object(list->heap, &iterator_classes[IC_LIST_GENERATOR]);
    val_attr_set(self, "src", list);
    val_attr_set(self, "pos", val_int(list->heap, 0));
    val_attr_set(self, "qualname", val_str(list->heap, qualname));
    return self;
}

/* Row i of a tensor that records, walked by iter(x): PyTorch unbinds x once per walk, so every row's grad_fn is the
 * same UnbindBackward0; attn records a node per row and shows row 0's (kept by the walker) for the others. */
static void share_unbind(Value *self, Value *row, int64_t i) {
    if (row->kind != V_TENSOR || !row->ag || !row->ag->grad_fn) return;
    if (i == 0) { val_attr_set(self, " row0", val_incref(row)); return; }
    Value *row0 = val_attr_get(self, " row0");
    if (row0 && row0->kind == V_TENSOR) ag_share_node(row->ag, row0->ag, (int)i);
}

/* The next item of a walker (iter(x), reversed(x)); NULL at the end or with the dict's RuntimeError. */
static Value *walker_next(Interp *I, Value *self, bool forward) {
    Value *src = val_attr_get(self, "src"), *pos = val_attr_get(self, "pos"), *size = val_attr_get(self, "size");
    if (!src) return NULL;
    if (size && size->u.i != container_size(src)) {
        val_attr_set(self, "size", val_int(I->run.heap, -1));            /* stays broken, as Python's */
        return rt_raise(I, "RuntimeError", src->kind == V_SET ? SET_CHANGED : DICT_CHANGED);
    }
    /* a set: pos is the slot to look from, and pyset_next moves it past the element it finds */
    int64_t i = pos->u.i, next = src->kind == V_SET ? i : forward ? i + 1 : i - 1;
    Value *e = src->kind == V_SET ? val_incref(pyset_next(src, &next)) : seq_item(I, src, i);
    if (e && forward && src->kind == V_TENSOR) share_unbind(self, e, i);
    if (e) val_attr_set(self, "pos", val_int(I->run.heap, next));
    else if (!interp_failed(I)) dict_del(&self->u.obj.attrs, "src");
    return e;
}

/* NULL, and the StopIteration a function called by map or filter raised dropped: Python's map.__next__ passes it on,
 * so the loop or list() consuming the map ends there, as at the map's end. Any other error stays set. */
static Value *stop_iteration_ends(Interp *I) {
    if (interp_error_kind(I) == ERR_ERROR && pyexc_matches(I->error.etype, "StopIteration")) interp_clear_error(I);
    return NULL;
}

/* The next item of map, filter, zip or enumerate: one item from each of "its" (the arguments' iterators). */
static Value *combined_next(Interp *I, Value *self, IterKind kind) {
    Value *its = val_attr_get(self, "its"), *fn = val_attr_get(self, "fn");
    int n = (int)its->u.seq.n;
    if (n == 0) return NULL;                                /* zip() is empty */
    for (;;) {                                              /* filter: until an item passes */
        Value *t = val_tuple(I->run.heap, n);
        for (int i = 0; i < n; i++) {
            Value *e = ops_iterator_next(I, its->u.seq.items[i]);
            if (!e) { val_decref(t); return NULL; }
            val_seq_set(t, i, e);
        }
        switch (kind) {
        case IK_ZIP: return t;
        case IK_ENUMERATE: {
            Value *pos = val_attr_get(self, "pos"), *r = val_tuple(I->run.heap, 2);
            val_seq_set(r, 0, val_incref(pos));
            val_seq_set(r, 1, val_incref(t->u.seq.items[0]));
            val_decref(t);
            val_attr_set(self, "pos", val_int(I->run.heap, pos->u.i + 1));
            return r;
        }
        case IK_MAP: {
            Args fa = {t->u.seq.items, n, NULL, NULL, 0, NULL, NULL};
            Value *r = interp_call(I, fn, &fa);
            val_decref(t);
            return r ? r : stop_iteration_ends(I);
        }
        default: {                                          /* IK_FILTER: fn None keeps the true items */
            Value *x = t->u.seq.items[0], *r = fn->kind == V_NONE ? val_incref(x) : NULL;
            if (!r) {
                Args fa = {&x, 1, NULL, NULL, 0, NULL, NULL};
                r = interp_call(I, fn, &fa);
            }
            bool keep = false, ok = r && interp_truth(I, r, &keep);
            val_decref(r);
            Value *out = ok && keep ? val_incref(x) : NULL;
            val_decref(t);
            if (!ok) return stop_iteration_ends(I);
            if (out) return out;
            if (ten_interrupted) return rt_interrupt(I);
        }
        }
    }
}

Value *ops_iterator_next(Interp *I, Value *self) {
    if (!builtin_iterator(self)) return student_next(I, self, false);
    IterKind kind = iterator_kinds[self->u.obj.cls - iterator_classes];
    if (kind == IK_GETITEM) return student_next(I, self, true);
    if (kind == IK_SEQ || kind == IK_REVERSED) return walker_next(I, self, kind == IK_SEQ);
    /* map(f, map(f, ...)) nested deeper than calls may be: Python's RecursionError, not a C stack overflow */
    if (I->call_depth >= INTERP_MAX_CALL_DEPTH) return rt_raise(I, "RecursionError", "maximum recursion depth exceeded");
    I->call_depth++;
    Value *e = kind == IK_GENERATOR ? interp_genexpr_next(I, self) : combined_next(I, self, kind);
    I->call_depth--;
    return e;
}

bool ops_is_iterable(Interp *I, const Value *v) {
    switch (v->kind) {
    case V_RANGE: case V_LIST: case V_TUPLE: case V_STR: case V_DICT: case V_SET: case V_TENSOR: case V_DICTVIEW: return true;
    case V_OBJECT: return builtin_iterator(v) || v->u.obj.cls->iter || class_has_special(I, v, "__iter__") || class_has_special(I, v, "__getitem__");
    default: return false;
    }
}

bool ops_iter_begin(Interp *I, Value *v, Iter *it) {
    it->I = I;
    it->src = NULL;
    it->row0 = NULL;
    it->i = 0;
    if (!ops_is_iterable(I, v)) {
        rt_raise(I, "TypeError", "'%s' object is not iterable", val_type_name(v));
        return false;
    }
    if (v->kind == V_TENSOR && v->u.t->ndim == 0) { rt_error(I, "iteration over a 0-d tensor"); return false; }
    it->n = v->kind == V_OBJECT ? INT64_MAX : seq_len(v);      /* an iterator: as long as it gives items */
    it->src = v->kind == V_OBJECT && !builtin_iterator(v) ? ops_iter(I, v) : val_incref(v);   /* a container's iterator */
    if (!it->src) return false;
    return true;
}

Value *ops_iter_next(Iter *it) {
    Value *s = it->src;
    if (!s) return NULL;
    if (ten_interrupted) return rt_interrupt(it->I);          /* Ctrl-C stops any walk, set(range(10**15)) too */
    if (s->kind == V_OBJECT) return ops_iterator_next(it->I, s);
    if ((s->kind == V_DICT || s->kind == V_DICTVIEW) && container_size(s) != it->n)
        return rt_raise(it->I, "RuntimeError", DICT_CHANGED);
    if (s->kind == V_SET) {                                    /* it->i: the next slot of the table */
        if (s->u.set->used != it->n) return rt_raise(it->I, "RuntimeError", SET_CHANGED);
        return val_incref(pyset_next(s, &it->i));
    }
    if (s->kind != V_LIST && it->i >= it->n) return NULL;      /* a list: to its length now, as Python's */
    Value *e = seq_item(it->I, s, it->i);
    if (e && s->kind == V_TENSOR && e->ag && e->ag->grad_fn) {      /* one UnbindBackward0 per walk, as PyTorch's */
        if (it->i == 0) { val_decref(it->row0); it->row0 = val_incref(e); }
        else if (it->row0) ag_share_node(e->ag, it->row0->ag, (int)it->i);
    }
    if (e) it->i++;
    return e;
}

void ops_iter_end(Iter *it) {
    val_decref(it->src);
    it->src = NULL;
    val_decref(it->row0);
    it->row0 = NULL;
}

int ops_list_extend(Interp *I, Value *l, Value *v) {
    if (v->kind == V_LIST || v->kind == V_TUPLE) {         /* Python's fast path: the length before, so L += L doubles */
        int64_t n = v->u.seq.n;
        if (!interp_bytes_ok(I, n * (int64_t)sizeof(Value *))) return -1;
        for (int64_t i = 0; i < n; i++) val_list_append(l, val_incref(v->u.seq.items[i]));    /* items: read again */
        return 0;
    }
    /* list(range(10**9)): refused at once when it cannot fit the memory limit, never grown until killed */
    if (v->kind == V_RANGE) {
        uint64_t n = val_range_count(v);
        if (!interp_memory_ok(I, n > INT64_MAX ? INT64_MAX : (int64_t)n)) return -1;
    }
    Iter it;
    if (!ops_iter_begin(I, v, &it)) return -1;
    Value *e;
    int rc = 0;
    /* an iterator object (a student's __next__ or __getitem__ walk, map of a student's function) runs code at each
     * item, as a loop body: the loop limit stops one that never ends, as it stops sum() and a for loop */
    bool walks = it.src && it.src->kind == V_OBJECT;
    for (int64_t k = 0; (e = ops_iter_next(&it)); k++) {
        val_list_append(l, e);
        if (walks && k >= I->max_loop_iterations) {
            rt_error(I, "the iterator gave %lld items: stopped (does it ever end?)", I->max_loop_iterations);
            rc = -1;
            break;
        }
        if (((k & 4095) == 4095 || mem_exhausted) && (ten_interrupted || !interp_memory_ok(I, 4096))) {
            if (ten_interrupted) rt_interrupt(I);
            rc = -1;
            break;
        }
    }
    ops_iter_end(&it);
    if (interp_failed(I)) rc = -1;                              /* the iterator failed (a map's function) */
    return rc;
}

Value *ops_to_list(Interp *I, Value *v) {
    Value *l = val_list(I->run.heap, 0);
    if (ops_list_extend(I, l, v) == 0) return l;
    val_decref(l);
    return NULL;
}

/* value_eq.c - equality of values (val_eq): Python's == for numbers, strings, sequences, dicts, sets and dict views,
 * nested to a depth limit, with a student's __eq__ where an instance takes part. Hashing is set.c's (pyset_hash). */
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
#include <malloc.h>

#define EQ_MAX_DEPTH 1000     /* comparisons nested deeper than this (or containers holding themselves): RecursionError */

/* lv: how many eq_depth calls are under way. With an interpreter it is I->eq_level, counted across a student's
 * __eq__ that compares again (its == starts a new val_eq inside the outer one), as CPython's recursion limit counts
 * nested comparisons (Python's "maximum recursion depth exceeded in comparison"); each interpreter has its own.
 * Without one (no student code can run) it is val_eq's own count over the containers it walks; a set or a dict
 * lookup inside (pyset_equal, dict_probe) starts its val_eq(NULL, ...) at 0 again. */

static bool eq_depth(struct Interp *I, int *lv, const Value *a, const Value *b, bool *eq);

/* A comparison that cannot finish (nesting too deep, Ctrl-C, a dict changing size under its view): with an
 * interpreter, that error is set on it (etype NULL: the interruption) and false returned; without one (val_eq(NULL, ...))
 * the values count as unequal (*eq false) and true is returned. */
static bool eq_stop(struct Interp *I, const char *etype, const char *msg, bool *eq) {
    *eq = false;
    if (!I) return true;
    if (!etype) rt_interrupt(I);
    else rt_raise(I, etype, "%s", msg);
    return false;
}

/* Items of containers: the same object is equal to itself, as Python's containers compare (so a list holding
 * itself equals itself, and [nan] == [nan] for the same nan). Both items are held while they are compared: a
 * student's __eq__ may empty the containers they came from (CPython's list_richcompare holds them too). */
static bool item_eq(struct Interp *I, int *lv, const Value *x, const Value *y, bool *eq) {
    if (x == y) return *eq = true;
    Value *hx = val_incref((Value *)x), *hy = val_incref((Value *)y);
    bool ok = eq_depth(I, lv, hx, hy, eq);
    val_decref(hx);
    val_decref(hy);
    return ok;
}

/* dict == dict (CPython's dict_equal): each key of a looked up in b (dict_probe: restarted when a student's
 * __eq__ changes b), the values compared; a's key and value are held meanwhile, and a's size re-read each step. */
static bool dict_eq(struct Interp *I, int *lv, const Dict *a, const Dict *b, bool *eq) {
    *eq = a->n == b->n;
    for (int i = 0; *eq && i < a->n; i++) {
        if (a->ordered && b->ordered && i >= b->n) {
            *eq = false;
            return true;
        }
        Value *k = val_incref(a->keys[i]), *v = val_incref(a->vals[i]);
        int64_t hash = a->hashes[i];
        bool ok;
        if (a->ordered && b->ordered) {     /* OrderedDicts: the order is part of the value */
            ok = item_eq(I, lv, k, b->keys[i], eq);
            if (ok && *eq && i >= b->n) *eq = false;                  /* b shrank meanwhile */
            else if (ok && *eq) ok = item_eq(I, lv, v, b->vals[i], eq);
        } else {
            int j;
            ok = dict_probe(I, b, k, hash, &j);
            if (ok && j < 0) *eq = false;
            else if (ok) ok = item_eq(I, lv, v, b->vals[j], eq);
        }
        val_decref(k);
        val_decref(v);
        if (!ok) return false;
    }
    return true;                               /* CPython's dict_equal: no size check after the walk */
}

/* x in b, where b is a set or a keys or items view, as CPython's `x in b`: x hashed afresh (its __hash__ runs), then
 * looked up by that hash (an items view: x's key in the dict, then the values compared). true with *has; false
 * when a student's __hash__ or a comparison failed (the error set, as val_eq), or, with I, when x (its key) is
 * unhashable (Python's TypeError: {'a': [1]}.items() == {('a', 1)} raises). */
static bool set_like_has(struct Interp *I, int *lv, const Value *b, const Value *x, bool *has) {
    int64_t h;
    bool items = b->kind == V_DICTVIEW && b->u.view.which == VIEW_ITEMS, hashable = true;
    const Value *key = x;
    *has = false;
    if (items) {
        if (x->kind != V_TUPLE || x->u.seq.n != 2) return true;
        key = x->u.seq.items[0];
    }
    if (I && !pyset_hash(I, key, &h)) return false;     /* unhashable: Python's TypeError, as `x in s` raises */
    if (!I && !pyset_hash_quiet(key, &h, &hashable)) return false;
    if (!I && !hashable) return true;
    if (b->kind == V_SET) {
        int r = pyset_contains_hashed(I, b, key, h);
        *has = r == 1;
        return r >= 0;
    }
    if (!b->u.view.dict) return true;
    const Dict *d = b->u.view.dict->u.dict;
    int j;
    if (!dict_probe(I, d, key, h, &j)) return false;
    *has = j >= 0;
    if (j < 0 || !items) return true;
    return item_eq(I, lv, d->vals[j], x->u.seq.items[1], has);
}

static int64_t set_like_len(const Value *v) { return v->kind == V_SET ? v->u.set->used : val_view_len(v); }

/* == when a or b is a dict view: keys and items views equal a set (or view) of the same elements; a values view
 * only itself; never a list. As CPython's dictview_richcompare: the view's elements (a's when both are views) are
 * each looked up in the other side, so it takes linear time. Each element is held while it is looked up; a dict
 * that changes size meanwhile is Python's RuntimeError; Ctrl-C stops the walk. */
static bool view_eq(struct Interp *I, int *lv, const Value *a, const Value *b, bool *eq) {
    *eq = a == b;
    if (!val_is_set_like(a) || !val_is_set_like(b)) return true;
    *eq = false;
    if (set_like_len(a) != set_like_len(b)) return true;
    const Value *view = a->kind == V_DICTVIEW ? a : b, *other = view == a ? b : a;
    if (!view->u.view.dict) return true;
    Value *hold_view = val_incref((Value *)view), *hold_other = val_incref((Value *)other);
    const Dict *d = view->u.view.dict->u.dict;
    int n = d->n;
    bool ok = true;
    *eq = true;
    for (int i = 0; ok && *eq && i < d->n; i++) {
        if (ten_interrupted) { ok = eq_stop(I, NULL, NULL, eq); break; }
        Value *x = val_view_item(view, i);
        ok = set_like_has(I, lv, other, x, eq);
        val_decref(x);
        if (ok && d->n != n) ok = eq_stop(I, "RuntimeError", "dictionary changed size during iteration", eq);
    }
    val_decref(hold_view);
    val_decref(hold_other);
    return ok;
}

static bool eq_body(struct Interp *I, int *lv, const Value *a, const Value *b, bool *eq);

/* eq_body, counted: values nested deeper than EQ_MAX_DEPTH (or holding themselves) are Python's RecursionError,
 * and Ctrl-C stops a long comparison (eq_stop). */
static bool eq_depth(struct Interp *I, int *lv, const Value *a, const Value *b, bool *eq) {
    if (*lv >= EQ_MAX_DEPTH)
        return eq_stop(I, "RecursionError", "maximum recursion depth exceeded in comparison (the values are nested too deep, or hold themselves)", eq);
    if (ten_interrupted) return eq_stop(I, NULL, NULL, eq);
    ++*lv;
    bool ok = eq_body(I, lv, a, b, eq);
    --*lv;
    return ok;
}

static bool eq_body(struct Interp *I, int *lv, const Value *a, const Value *b, bool *eq) {
    *eq = false;
    if (class_is_instance(a) || class_is_instance(b)) return class_eq(I, a, b, eq);   /* a's __eq__ first, else identity */
    if (a->kind == V_OBJECT && a->u.obj.cls->eq_as) return eq_depth(I, lv, a->u.obj.cls->eq_as((Value *)a), b, eq);
    if (b->kind == V_OBJECT && b->u.obj.cls->eq_as) return eq_depth(I, lv, a, b->u.obj.cls->eq_as((Value *)b), eq);
    if (val_is_number(a) && val_is_number(b)) {
        if (a->kind != V_FLOAT && b->kind != V_FLOAT) {
            int64_t x = a->kind == V_INT ? a->u.i : a->u.b, y = b->kind == V_INT ? b->u.i : b->u.b;
            *eq = x == y;
        } else *eq = val_as_double(a) == val_as_double(b);
        return true;
    }
    if (a->kind == V_DICTVIEW || b->kind == V_DICTVIEW) return view_eq(I, lv, a, b, eq);
    if ((a->kind == V_TUPLE || a->kind == V_LIST) && a->kind == b->kind) {
        if (a->u.seq.n != b->u.seq.n) return true;
        for (int64_t i = 0; i < a->u.seq.n && i < b->u.seq.n; i++) {     /* the lengths may change meanwhile */
            if (!item_eq(I, lv, a->u.seq.items[i], b->u.seq.items[i], eq)) return false;
            if (!*eq) return true;
        }
        *eq = a->u.seq.n == b->u.seq.n;
        return true;
    }
    if (a->kind != b->kind) return true;
    switch (a->kind) {
    case V_NONE: *eq = true; return true;
    case V_DICT: return dict_eq(I, lv, a->u.dict, b->u.dict, eq);
    case V_SET: return pyset_equal(I, a, b, eq);
    case V_STR: *eq = a->u.str.len == b->u.str.len && !memcmp(a->u.str.s, b->u.str.s, a->u.str.len); return true;
    case V_DTYPE: *eq = a->u.dtype == b->u.dtype; return true;
    case V_RANGE: {          /* Python's: the same sequence (every empty range is equal, a 1-long one has no step) */
        uint64_t n = val_range_count(a);
        *eq = n == val_range_count(b) &&
              (n == 0 || (a->u.range.start == b->u.range.start && (n == 1 || a->u.range.step == b->u.range.step)));
        return true;
    }
    case V_BUILTIN: *eq = a->u.builtin == b->u.builtin; return true;
    case V_OBJECT:
        /* attn's value-like objects (torch.device) are equal when they print the same */
        if (a != b && !a->u.obj.klass && a->u.obj.cls == b->u.obj.cls && a->u.obj.cls->str) {
            StrBuf x, y;
            sb_init(&x);
            sb_init(&y);
            a->u.obj.cls->str(I, &x, (Value *)a);
            b->u.obj.cls->str(I, &y, (Value *)b);
            *eq = !strcmp(sb_str(&x), sb_str(&y));
            sb_free(&x);
            sb_free(&y);
            return true;
        }
        *eq = a == b;
        return true;
    default: *eq = a == b; return true;
    }
}

bool val_eq(struct Interp *I, const Value *a, const Value *b, bool *eq) {
    int own = 0;
    return eq_depth(I, I ? &I->eq_level : &own, a, b, eq);
}

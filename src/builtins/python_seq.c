/* python_seq.c - the methods of Python's list, dict and set (self is pos[0]), the sort behind list.sort and
 * sorted, dict.fromkeys, and the method tables of Python's types (str.join, list.append called on the type). */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "pyset.h"
#include "pyexc.h"
#include <stdlib.h>
#include <string.h>


/* ---- sorting: a natural merge sort (the runs the data has, then merged in pairs): stable, n log n comparisons,
 * n - 1 on data already in order or in reverse order ---- */

typedef struct SortCtx {
    Interp *I;
    Value **keys;          /* keys[i]: item i's key (borrowed) */
    bool failed;           /* a comparison raised or Ctrl-C came: no more comparisons, the error is set */
} SortCtx;

/* keys[a] < keys[b], with Python's <: numbers and strings of one kind directly, the rest through the language's
 * comparison (a student's __lt__ too). false once the sort failed. */
static bool sort_less(SortCtx *c, int64_t a, int64_t b) {
    if (c->failed) return false;
    if (ten_interrupted) { rt_interrupt(c->I); c->failed = true; return false; }
    const Value *x = c->keys[a], *y = c->keys[b];
    if (x->kind == V_INT && y->kind == V_INT) return x->u.i < y->u.i;
    if (x->kind == V_FLOAT && y->kind == V_FLOAT) return x->u.f < y->u.f;
    if (x->kind == V_STR && y->kind == V_STR) {              /* UTF-8 bytes order as code points do */
        size_t n = x->u.str.len < y->u.str.len ? x->u.str.len : y->u.str.len;
        int r = memcmp(x->u.str.s, y->u.str.s, n);
        return r < 0 || (r == 0 && x->u.str.len < y->u.str.len);
    }
    Value *r = ops_compare(c->I, AOP_LT, c->keys[a], c->keys[b]);
    if (!r) { c->failed = true; return false; }
    bool ok = false, t = false, tensor = r->kind == V_TENSOR;
    if (tensor) t = val_truthy(r, &ok);
    else ok = interp_truth(c->I, r, &t);                      /* a student's __lt__ may return an object with __bool__ */
    val_decref(r);
    if (tensor && !ok) rt_error(c->I, "cannot sort tensors with more than one element");
    if (!ok) { c->failed = true; return false; }
    return t;
}

static void reverse_idx(int64_t *p, int64_t lo, int64_t hi) {
    for (hi--; lo < hi; lo++, hi--) { int64_t t = p[lo]; p[lo] = p[hi]; p[hi] = t; }
}

/* The runs of perm, each ascending (a strictly descending one is reversed, which keeps equal items in order):
 * their starts into starts[], with n at the end. The number of runs. */
static int64_t find_runs(SortCtx *c, int64_t *perm, int64_t n, int64_t *starts) {
    int64_t nruns = 0;
    for (int64_t i = 0; i < n;) {
        int64_t j = i + 1;
        if (j < n && sort_less(c, perm[j++], perm[i])) {
            while (j < n && sort_less(c, perm[j], perm[j - 1])) j++;
            reverse_idx(perm, i, j);
        } else {
            while (j < n && !sort_less(c, perm[j], perm[j - 1])) j++;
        }
        starts[nruns++] = i;
        i = j;
    }
    starts[nruns] = n;
    return nruns;
}

/* Merges the ascending runs perm[lo, mid) and perm[mid, hi) (tmp holds mid - lo indices); an item of the second
 * run goes first only when it is less, so equal items keep their order. Whole even when the sort failed. */
static void merge_runs(SortCtx *c, int64_t *perm, int64_t lo, int64_t mid, int64_t hi, int64_t *tmp) {
    if (!sort_less(c, perm[mid], perm[mid - 1])) return;         /* already in order */
    memcpy(tmp, perm + lo, sizeof *tmp * (size_t)(mid - lo));
    int64_t i = 0, na = mid - lo, j = mid, k = lo;
    while (i < na && j < hi) perm[k++] = sort_less(c, perm[j], tmp[i]) ? perm[j++] : tmp[i++];
    while (i < na) perm[k++] = tmp[i++];
}

/* perm (0 ... n-1 in some order) sorted stably by keys[]: false with the error set (perm is then still a
 * permutation) */
static bool merge_sort(SortCtx *c, int64_t *perm, int64_t n, int64_t *tmp, int64_t *starts) {
    int64_t nruns = find_runs(c, perm, n, starts);
    while (nruns > 1 && !c->failed) {                 /* runs 0+1, 2+3, ...: the starts of every other run go */
        int64_t m = 0;
        for (int64_t r = 0; r < nruns; r += 2) {
            if (r + 1 < nruns) merge_runs(c, perm, starts[r], starts[r + 1], starts[r + 2], tmp);
            starts[m++] = starts[r];
        }
        starts[m] = n;
        nruns = m;
    }
    return !c->failed;
}

/* Sorts the list l in place by key(item) (the items themselves when key is None), as Python's list.sort and
 * sorted: stable; reverse=True reverses, sorts and reverses again, so equal items keep their order; only < is
 * used. Ctrl-C stops it. false with the error set (a key or comparison raised, Ctrl-C, no memory): l is then left
 * as it was. */
bool sort_items(Interp *I, Value *l, Value *key, bool reverse) {
    int64_t n = l->u.seq.n;
    if (n < 2 && (!key || key->kind == V_NONE)) return true;
    Value *keys = val_seq_try(I->run.heap, V_LIST, n);
    int64_t *perm = mem_try_malloc(sizeof(int64_t) * (size_t)(n ? n : 1)), *tmp = mem_try_malloc(sizeof(int64_t) * (size_t)(n ? n : 1)),
            *starts = mem_try_malloc(sizeof(int64_t) * (size_t)(n + 1));
    bool ok = keys && perm && tmp && starts;
    if (!ok) interp_bytes_ok(I, 0);                                  /* the machine refused: MemoryError */
    for (int64_t i = 0; ok && i < n; i++) {
        Value *k = ten_interrupted ? rt_interrupt(I) : key_of(I, key, l->u.seq.items[i]);
        if (!k) ok = false;
        else val_seq_set(keys, i, k);
        perm[i] = reverse ? n - 1 - i : i;
    }
    SortCtx c = {I, keys ? keys->u.seq.items : NULL, false};
    if (ok && (ok = merge_sort(&c, perm, n, tmp, starts))) {
        if (reverse) reverse_idx(perm, 0, n);
        /* the sorted order replaces l's items (perm's indices are into the items l had: tmp holds them meanwhile) */
        _Static_assert(sizeof(Value *) <= sizeof(int64_t), "tmp holds the items");
        Value **items = (Value **)tmp;
        for (int64_t i = 0; i < n; i++) items[i] = l->u.seq.items[perm[i]];
        memcpy(l->u.seq.items, items, sizeof(Value *) * (size_t)n);
    }
    val_decref(keys);
    free(perm);
    free(tmp);
    free(starts);
    return ok;
}


/* L.insert(i, x), L.remove(x), L.reverse(), L.sort(key=None, reverse=False), L.copy(), L.clear(): Python's. */
static Value *list_insert(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Value *l = a->pos[0];
    int64_t i, n = l->u.seq.n;
    if (!arg_int(I, a->pos[1], "insert index", &i)) return NULL;
    if (n >= 50000000) return rt_error(I, "the list is too long");
    if (i < 0) i = i + n < 0 ? 0 : i + n;                   /* clamped, as Python's */
    if (i > n) i = n;
    val_list_append(l, val_incref(a->pos[2]));
    Value *x = l->u.seq.items[n];
    memmove(l->u.seq.items + i + 1, l->u.seq.items + i, sizeof(Value *) * (size_t)(n - i));
    l->u.seq.items[i] = x;
    return val_none();
}

static Value *list_remove(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 1)) return NULL;
    Value *l = a->pos[0];
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *x = val_incref(l->u.seq.items[i]);           /* held: a student's __eq__ may empty the list */
        bool eq = true, ok = x == a->pos[1] || val_eq(I, x, a->pos[1], &eq);
        val_decref(x);
        if (!ok) return NULL;                               /* a student's __eq__ raised, or Ctrl-C, or too deep */
        if (!eq) continue;
        if (i >= l->u.seq.n) return val_none();             /* the list shrank meanwhile: CPython removes nothing */
        Value *place = val_int(I->run.heap, i);
        int rc = ops_del_index(I, l, place);                  /* the path del L[i] takes */
        val_decref(place);
        return rc < 0 ? NULL : val_none();
    }
    return rt_raise(I, "ValueError", "list.remove(x): x not in list");
}

static Value *list_reverse_copy_clear(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    Value *l = a->pos[0];
    int64_t n = l->u.seq.n;
    if (a->fn->tag == 1) {                                  /* copy: a shallow copy */
        if (!interp_bytes_ok(I, n * (int64_t)sizeof(Value *))) return NULL;
        Value *c = val_seq_try(I->run.heap, V_LIST, n);       /* refused by the machine: MemoryError, as L[:] */
        if (!c) { interp_bytes_ok(I, 0); return NULL; }
        for (int64_t i = 0; i < n; i++) val_seq_set(c, i, val_incref(l->u.seq.items[i]));
        return c;
    }
    if (a->fn->tag == 2) {                                  /* clear */
        Value *slice = val_new(I->run.heap, V_SLICE);                    /* del L[:], the one path that removes items */
        slice->u.slice.start = val_none();
        slice->u.slice.stop = val_none();
        slice->u.slice.step = val_none();
        int rc = ops_del_index(I, l, slice);
        val_decref(slice);
        return rc < 0 ? NULL : val_none();
    }
    for (int64_t i = 0, j = n - 1; i < j; i++, j--) {       /* reverse, in place */
        Value *t = l->u.seq.items[i];
        l->u.seq.items[i] = l->u.seq.items[j];
        l->u.seq.items[j] = t;
    }
    return val_none();
}

/* Exchanges the items (and their storage) of two lists. */
static void swap_items(Value *x, Value *y) {
    Value **items = x->u.seq.items;
    int64_t n = x->u.seq.n, cap = x->u.seq.cap;
    x->u.seq.items = y->u.seq.items; x->u.seq.n = y->u.seq.n; x->u.seq.cap = y->u.seq.cap;
    y->u.seq.items = items; y->u.seq.n = n; y->u.seq.cap = cap;
}

static Value *list_sort(Interp *I, Args *a) {
    Value *p[2];                                 /* key, reverse: keyword-only */
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Value *rev = p[1], *key = p[0];
    bool reverse = false;
    if (rev && !arg_bool(I, rev, "reverse", &reverse)) return NULL;
    /* As CPython's list.sort: the list is empty while it sorts, so a key or __lt__ that reads or changes it sees
     * no items and cannot pull them from under the sort; what it added is dropped, with Python's ValueError. */
    Value *l = a->pos[0], *held = val_list(I->run.heap, 0);
    swap_items(l, held);
    bool ok = sort_items(I, held, key, reverse);
    bool changed = l->u.seq.n != 0;
    swap_items(l, held);
    val_decref(held);
    if (ok && changed) return rt_raise(I, "ValueError", "list modified during sort");
    return ok ? val_none() : NULL;
}

/* d.pop(key[, default]), d.setdefault(key, default=None), d.update(other, **kw), d.copy(), d.clear(): Python's. */
static Value *dict_pop(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Value *d = a->pos[0], *key = a->pos[1];
    int i;
    if (!ops_dict_find(I, d->u.dict, key, &i)) return NULL;
    if (i < 0) return a->npos == 3 ? val_incref(a->pos[2]) : ops_key_error(I, key);
    Value *v = val_incref(d->u.dict->vals[i]);              /* i is valid: no student code ran since the probe */
    dict_del_at(d->u.dict, i);
    return v;
}

/* d.popitem(): the last (key, value) pair, removed (LIFO, Python's) */
static Value *dict_popitem(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    Dict *d = a->pos[0]->u.dict;
    if (d->n == 0) return rt_raise(I, "KeyError", "popitem(): dictionary is empty");
    Value *t = val_tuple(I->run.heap, 2);
    val_seq_set(t, 0, val_incref(d->keys[d->n - 1]));
    val_seq_set(t, 1, val_incref(d->vals[d->n - 1]));
    dict_del_at(d, d->n - 1);
    return t;
}

static Value *dict_setdefault(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Value *d = a->pos[0], *key = a->pos[1];
    int64_t hash;
    int i;
    if (!ops_dict_find_hash(I, d->u.dict, key, &hash, &i)) return NULL;
    if (i >= 0) return val_incref(d->u.dict->vals[i]);
    Value *def = a->npos == 3 ? val_incref(a->pos[2]) : val_none();
    dict_append_hashed(d->u.dict, val_incref(key), val_incref(def), hash);   /* absent: no student code ran since */
    return def;                                              /* Python's: the default itself */
}

static Value *dict_update(Interp *I, Args *a) {
    Value *p[1];                                 /* other; **kwargs: CPython counts only the positional ones */
    if (!args_bind_method(I, a, "dict", p, 1)) return NULL;
    if (a->npos == 2 && !dict_fill(I, a->pos[0], a->pos[1])) return NULL;
    for (int k = 0; k < a->nkw; k++) dict_set(a->pos[0]->u.dict, a->kwnames[k], val_incref(a->kwvals[k]));
    return val_none();
}

static Value *dict_copy_clear(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    Value *d = a->pos[0];
    if (a->fn->tag == 0) {                                  /* copy: a shallow copy */
        Value *c = val_dict(I->run.heap);
        c->u.dict->ordered = d->u.dict->ordered;
        c->u.dict->default_dict = d->u.dict->default_dict;        /* a defaultdict's copy is one, with its factory */
        if (d->u.dict->factory) c->u.dict->factory = val_incref(d->u.dict->factory);
        return dict_fill(I, c, d) ? c : (val_decref(c), NULL);
    }
    while (d->u.dict->n) dict_del_at(d->u.dict, d->u.dict->n - 1);
    return val_none();
}

static Value *list_append(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 1)) return NULL;
    if ((a->pos[0]->u.seq.n & 1023) == 1023 && !interp_memory_ok(I, 1024)) return NULL;    /* never past the limit */
    val_list_append(a->pos[0], val_incref(a->pos[1]));
    return val_none();
}

static Value *list_extend(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 1)) return NULL;
    return ops_list_extend(I, a->pos[0], a->pos[1]) < 0 ? NULL : val_none();
}

static Value *list_pop(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 1)) return NULL;
    Value *l = a->pos[0];
    int64_t i = l->u.seq.n - 1;
    if (a->npos > 1 && !arg_int(I, a->pos[1], "pop index", &i)) return NULL;
    if (i < 0) i += l->u.seq.n;
    if (l->u.seq.n == 0 || i < 0 || i >= l->u.seq.n) return rt_raise(I, "IndexError", l->u.seq.n ? "pop index out of range" : "pop from empty list");
    Value *v = l->u.seq.items[i];
    memmove(l->u.seq.items + i, l->u.seq.items + i + 1, sizeof(Value *) * (size_t)(l->u.seq.n - i - 1));
    l->u.seq.n--;
    return v;
}

static Value *list_index(Interp *I, Args *a) {
    Value *p[3];                                 /* value, start, stop (index) */
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 3)) return NULL;
    if (p[1] || p[2]) return rt_error(I, "%s.index(value, start, stop) is not supported in attn: index a slice of it", val_type_name(a->pos[0]));
    Value *l = a->pos[0];
    int64_t cnt = 0;
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *x = val_incref(l->u.seq.items[i]);           /* held: a student's __eq__ may empty the list */
        bool eq = true, ok = x == a->pos[1] || val_eq(I, x, a->pos[1], &eq);     /* Python's: the same object, or == */
        val_decref(x);
        if (!ok) return NULL;                               /* a student's __eq__ raised, or Ctrl-C, or too deep */
        if (eq) {
            if (a->fn->tag == 0) return val_int(I->run.heap, i);
            cnt++;
        }
    }
    if (a->fn->tag == 1) return val_int(I->run.heap, cnt);
    if (l->kind == V_TUPLE) return rt_raise(I, "ValueError", "tuple.index(x): x not in tuple");
    StrBuf b;                                                /* Python's "3 is not in list" */
    sb_init(&b);
    if (!val_repr(I, &b, a->pos[1])) {       /* CPython's %R that fails: a ValueError without arguments, not its error */
        sb_free(&b);
        if (interp_error_kind(I) != ERR_ERROR) return NULL;   /* Ctrl-C, quit */
        sb_init(&b);
        sb_puts(&b, interp_error_msg(I));
        interp_clear_error(I);
        rt_raise(I, "ValueError", "the value is not in the list (its __repr__ failed: %s)", sb_str(&b));
        sb_free(&b);
        pyexc_set_arg(I, NULL);
        return NULL;
    }
    if (b.len > 200) { sb_free(&b); return rt_error(I, "the value is not in the list"); }
    Value *r = rt_raise(I, "ValueError", "%s is not in list", sb_str(&b));
    sb_free(&b);
    return r;
}

static Value *size_numel(Interp *I, Args *a) {
    int64_t n = 1;
    for (int64_t i = 0; i < a->pos[0]->u.seq.n; i++) {
        int64_t d;
        if (!arg_int(I, a->pos[0]->u.seq.items[i], "a dimension", &d)) return NULL;
        n *= d;
    }
    return val_int(I->run.heap, n);
}

/* d.keys(), d.values(), d.items(): live views (val_view_new, value.h) */
static Value *dict_keys_values(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    return val_view_new(a->pos[0], a->fn->tag == 0 ? VIEW_KEYS : a->fn->tag == 1 ? VIEW_VALUES : VIEW_ITEMS);
}

static Value *dict_get_m(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Dict *d = a->pos[0]->u.dict;
    int i;
    if (!ops_dict_find(I, d, a->pos[1], &i)) return NULL;
    if (i >= 0) return val_incref(d->vals[i]);
    return a->npos > 2 ? val_incref(a->pos[2]) : val_none();
}

/* The set methods, Python's (pyset.h keeps CPython's order). set_arity binds a method's arguments by its
 * declaration (s.add(x, /), s.union(*others)). */
static bool set_arity(Interp *I, Args *a) {
    Value *p[1];                                 /* x / other / the first of *others */
    return args_bind_method(I, a, val_type_name(a->pos[0]), p, 1);
}

/* s.add(x), s.remove(x) (Python's KeyError when x is not there), s.discard(x) */
static Value *set_add_remove(Interp *I, Args *a) {
    if (!set_arity(I, a)) return NULL;
    Value *s = a->pos[0], *x = a->pos[1];
    if (a->fn->tag == 0) return pyset_add(I, s, x) < 0 ? NULL : val_none();
    int r = pyset_discard(I, s, x);
    if (r < 0) return NULL;
    if (r == 0 && a->fn->tag == 1) {
        StrBuf k;
        sb_init(&k);
        val_repr_quiet(I, &k, x);
        rt_raise(I, "KeyError", "key %s is not in the set", sb_str(&k));
        sb_free(&k);
        pyexc_set_arg(I, x);
        return NULL;
    }
    return val_none();
}

/* s.pop(), s.clear(), s.copy() */
static Value *set_pop_clear_copy(Interp *I, Args *a) {
    if (!set_arity(I, a)) return NULL;
    Value *s = a->pos[0];
    if (a->fn->tag == 0) return pyset_pop(I, s);
    if (a->fn->tag == 1) { pyset_clear(s); return val_none(); }
    return s->u.set->frozen ? val_incref(s) : pyset_from(I, s);          /* a frozenset's copy is itself */
}

/* s.union(*others), s.intersection(*others), s.difference(*others), s.symmetric_difference(other): a new set;
 * s.update(*others) ... s.symmetric_difference_update(other): s changed. Tag: the operator (AOP_BITOR ...), + 100
 * for the _update forms. */
static Value *set_combine(Interp *I, Args *a) {
    int aop = a->fn->tag % 100;
    bool update = a->fn->tag >= 100;
    if (!set_arity(I, a)) return NULL;
    Value *s = a->pos[0];
    if (update) {
        for (int i = 1; i < a->npos; i++) if (pyset_op_update(I, aop, s, a->pos[i]) < 0) return NULL;
        return val_none();
    }
    Value *r = a->npos == 1 || aop == AOP_BITOR ? pyset_from(I, s) : pyset_op(I, aop, s, a->pos[1]);
    for (int i = aop == AOP_BITOR ? 1 : 2; r && i < a->npos; i++) {
        if (aop == AOP_BITOR && a->pos[i] == s) continue;
        if (aop == AOP_BITAND) {                            /* each intersection a new set, as CPython's */
            Value *n = pyset_op(I, aop, r, a->pos[i]);
            val_decref(r);
            r = n;
        } else if (pyset_op_update(I, aop, r, a->pos[i]) < 0) { val_decref(r); r = NULL; }
    }
    if (r) r->u.set->frozen = s->u.set->frozen;            /* frozenset.union(...) is a frozenset */
    return r;
}

/* s.isdisjoint(t) of two sets as CPython's set_isdisjoint: the smaller one (t when as large) walked slot by slot with
 * its stored hashes, each looked up in the other; a student's __eq__ that changes either set ends or shortens the
 * walk, never a RuntimeError. */
static Value *set_isdisjoint(Interp *I, Value *s, Value *t) {
    Value *big = t->u.set->used > s->u.set->used ? t : s, *small = big == s ? t : s;
    val_incref(big);
    val_incref(small);
    bool result = true, ok = true;
    int64_t pos = 0;
    for (Value *e; (e = pyset_next(small, &pos));) {
        if (ten_interrupted) { rt_interrupt(I); ok = false; break; }
        val_incref(e);
        int in = pyset_contains_hashed(I, big, e, small->u.set->table[pos - 1].hash);
        val_decref(e);
        if (in < 0) { ok = false; break; }
        if (in) { result = false; break; }
    }
    val_decref(small);
    val_decref(big);
    return ok ? val_bool(I->run.heap, result) : NULL;
}

/* s.issubset(other), s.issuperset(other), s.isdisjoint(other): other any iterable */
static Value *set_relation(Interp *I, Args *a) {
    if (!set_arity(I, a)) return NULL;
    Value *s = a->pos[0], *o = a->pos[1];
    if (a->fn->tag == 0) {
        Value *t = o->kind == V_SET ? val_incref(o) : pyset_from(I, o);
        if (!t) return NULL;
        int r = pyset_subset(I, s, t);
        val_decref(t);
        return r < 0 ? NULL : val_bool(I->run.heap, r == 1);
    }
    if (a->fn->tag == 2 && o->kind == V_SET) return set_isdisjoint(I, s, o);
    Iter it;                                                /* superset: each of o in s; disjoint: none of o in s */
    if (!ops_iter_begin(I, o, &it)) return NULL;
    Value *e;
    bool result = true;
    while (result && (e = ops_iter_next(&it))) {
        int in = pyset_contains(I, s, e);
        val_decref(e);
        if (in < 0) break;
        if (in == (a->fn->tag == 2)) result = false;
    }
    ops_iter_end(&it);
    return interp_failed(I) ? NULL : val_bool(I->run.heap, result);
}

/* view.isdisjoint(other) of a keys or items view (CPython's dictviews_isdisjoint): true when no item of other, any
 * iterable, is in the view. */
static Value *view_isdisjoint(Interp *I, Args *a) {
    Value *other;
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), &other, 1)) return NULL;
    Iter it;
    if (!ops_iter_begin(I, other, &it)) return NULL;
    bool disjoint = true;
    for (Value *e; disjoint && (e = ops_iter_next(&it));) {
        Value *in = ops_compare(I, AOP_IN, e, a->pos[0]);
        val_decref(e);
        if (!in) break;
        disjoint = !in->u.b;
        val_decref(in);
    }
    ops_iter_end(&it);
    return interp_failed(I) ? NULL : val_bool(I->run.heap, disjoint);
}

const Builtin bi_view_methods[] = {
    {"isdisjoint", view_isdisjoint, "d.keys().isdisjoint(other, /)", "True when no item of other is in the view.", "", 0, "d.keys()"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* dict.fromkeys(iterable, value=None): a new dict, each item a key with value (the same object for all, Python's) */
static Value *dict_fromkeys(Interp *I, Args *a) {
    Value *p[2];                                 /* iterable, value */
    if (!args_bind_call(I, a, a->fn, "dict", p, 2)) return NULL;
    Value *d = val_dict(I->run.heap), *value = p[1] ? val_incref(p[1]) : val_none(), *e;
    Iter it;
    if (!ops_iter_begin(I, p[0], &it)) { val_decref(d); val_decref(value); return NULL; }
    int rc = 0;
    for (int64_t k = 1; rc == 0 && (e = ops_iter_next(&it)); k++) {
        rc = ops_set_index(I, d, e, value);
        val_decref(e);
        /* dict.fromkeys(range(10**9)): the memory limit and Ctrl-C stop it, as they stop list() (ops_to_list) */
        if (((k & 4095) == 0 || mem_exhausted) && rc == 0 && (ten_interrupted || !interp_memory_ok(I, 4096))) {
            if (ten_interrupted) rt_interrupt(I);
            rc = -1;
        }
    }
    ops_iter_end(&it);
    val_decref(value);
    if (rc < 0 || interp_failed(I)) { val_decref(d); return NULL; }
    return d;
}

const Builtin bi_dict_fromkeys = {"fromkeys", dict_fromkeys, "dict.fromkeys(iterable, value=None, /)",
                                  "A new dict with each item of iterable as a key, every key with value.", "", 0, "dict"};

/* The method tables of Python's types, and the kind of value each serves */
static const struct { const char *type; const Builtin *table; VKind kind; } type_tables[] = {
    {"str", bi_str_methods, V_STR}, {"list", bi_list_methods, V_LIST}, {"dict", bi_dict_methods, V_DICT},
    {"set", bi_set_methods, V_SET}, {"frozenset", bi_set_methods, V_SET},
};

const Builtin *builtins_type_method(const Builtin *type, const char *name) {
    if (!builtins_type_module(type, NULL)) return NULL;
    if (!strcmp(type->name, "dict") && !strcmp(name, "fromkeys")) return &bi_dict_fromkeys;
    for (size_t i = 0; i < sizeof type_tables / sizeof type_tables[0]; i++) {
        if (strcmp(type->name, type_tables[i].type)) continue;
        for (const Builtin *m = type_tables[i].table; m->name; m++)
            if (!strcmp(m->name, name) && strcmp(name, "numel") && !(!strcmp(type->name, "frozenset") && builtins_set_method_changes(m)))
                return m;
    }
    return NULL;
}

bool builtins_unbound_ok(Interp *I, const Builtin *m, const Args *a) {
    enum { NT = sizeof type_tables / sizeof type_tables[0] };
    for (size_t i = 0; i < NT; i++) {
        const Builtin *t = type_tables[i].table, *end;     /* end: the table's NULL entry */
        for (end = t; end->name; end++) {}
        if (m < t || m >= end) continue;
        const Value *self = a->npos ? a->pos[0] : NULL;
        bool frozen_bad = self && self->kind == V_SET && self->u.set->frozen && builtins_set_method_changes(m);
        if (self && self->kind == type_tables[i].kind && !frozen_bad) return true;
        if (!self) rt_raise(I, "TypeError", "unbound method %s.%s() needs an argument", type_tables[i].type, m->name);
        else rt_raise(I, "TypeError", "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", m->name, type_tables[i].type, val_type_name(self));
        return false;
    }
    return true;
}

bool builtins_set_method_changes(const Builtin *m) {
    return m->fn == set_add_remove || (m->fn == set_pop_clear_copy && m->tag < 2) || (m->fn == set_combine && m->tag >= 100);
}

const Builtin bi_set_methods[] = {
    {"add", set_add_remove, "s.add(x, /)", "Puts x in the set.", "", 0, "s"},
    {"remove", set_add_remove, "s.remove(x, /)", "Takes x out of the set (an error when it is not there).", "", 1, "s"},
    {"discard", set_add_remove, "s.discard(x, /)", "Takes x out of the set when it is there.", "", 2, "s"},
    {"pop", set_pop_clear_copy, "s.pop()", "Removes and returns an element (an error when the set is empty).", "", 0, "s"},
    {"clear", set_pop_clear_copy, "s.clear()", "Removes every element.", "", 1, "s"},
    {"copy", set_pop_clear_copy, "s.copy()", "A shallow copy of the set.", "", 2, "s"},
    {"union", set_combine, "s.union(*others)", "A new set: the elements of s and of the others (s | t).", "", AOP_BITOR, "s"},
    {"intersection", set_combine, "s.intersection(*others)", "A new set: the elements of s that are in every other (s & t).", "", AOP_BITAND, "s"},
    {"difference", set_combine, "s.difference(*others)", "A new set: the elements of s that are in no other (s - t).", "", AOP_SUB, "s"},
    {"symmetric_difference", set_combine, "s.symmetric_difference(other, /)", "A new set: the elements in exactly one of s and other (s ^ t).", "", AOP_BITXOR, "s"},
    {"update", set_combine, "s.update(*others)", "Adds the elements of the others (s |= t).", "", 100 + AOP_BITOR, "s"},
    {"intersection_update", set_combine, "s.intersection_update(*others)", "Keeps only the elements in every other (s &= t).", "", 100 + AOP_BITAND, "s"},
    {"difference_update", set_combine, "s.difference_update(*others)", "Removes the elements of the others (s -= t).", "", 100 + AOP_SUB, "s"},
    {"symmetric_difference_update", set_combine, "s.symmetric_difference_update(other, /)", "Keeps the elements in exactly one of s and other (s ^= t).", "", 100 + AOP_BITXOR, "s"},
    {"issubset", set_relation, "s.issubset(other, /)", "True when every element of s is in other (s <= t).", "", 0, "s"},
    {"issuperset", set_relation, "s.issuperset(other, /)", "True when every element of other is in s (s >= t).", "", 1, "s"},
    {"isdisjoint", set_relation, "s.isdisjoint(other, /)", "True when s and other have no element in common.", "", 2, "s"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin bi_list_methods[] = {
    {"append", list_append, "L.append(object, /)", "Adds x at the end.", "", 0, "L"},
    {"extend", list_extend, "L.extend(iterable, /)", "Adds every item at the end.", "", 0, "L"},
    {"pop", list_pop, "L.pop(index=-1, /)", "Removes and returns item i.", "", 0, "L"},
    {"insert", list_insert, "L.insert(index, object, /)", "Puts x before item i.", "", 0, "L"},
    {"remove", list_remove, "L.remove(value, /)", "Removes the first item equal to x.", "", 0, "L"},
    {"reverse", list_reverse_copy_clear, "L.reverse()", "Reverses the list in place.", "", 0, "L"},
    {"copy", list_reverse_copy_clear, "L.copy()", "A shallow copy of the list.", "", 1, "L"},
    {"clear", list_reverse_copy_clear, "L.clear()", "Removes every item.", "", 2, "L"},
    {"sort", list_sort, "L.sort(*, key=None, reverse=False)", "Sorts the list in place (stable).", "", 0, "L"},
    {"index", list_index, "L.index(value, start=0, stop=None, /)", "Position of the first x.", "", 0, "L"},
    {"count", list_index, "L.count(value, /)", "How many items equal x.", "", 1, "L"},
    {"numel", size_numel, "size.numel()", "Product of the dimensions.", "", 0, "size"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin bi_dict_methods[] = {
    {"keys", dict_keys_values, "d.keys()", "The keys (a dict_keys view: iterate it, len, in, | & - ^ with sets; list(d.keys()) for a list).", "", 0, "d"},
    {"values", dict_keys_values, "d.values()", "The values (a dict_values view: iterate it; list(d.values()) for a list).", "", 1, "d"},
    {"items", dict_keys_values, "d.items()", "The (key, value) pairs (a dict_items view: iterate it, | & - ^ with sets of pairs).", "", 2, "d"},
    {"pop", dict_pop, "d.pop(key, default=None, /)", "Removes key and returns its value (default when it is missing).", "", 0, "d"},
    {"popitem", dict_popitem, "d.popitem()", "Removes the last entry added and returns it as a (key, value) pair.", "", 0, "d"},
    {"setdefault", dict_setdefault, "d.setdefault(key, default=None, /)", "d[key], set to default first when it is missing.", "", 0, "d"},
    {"update", dict_update, "d.update(other=(), /, **kwargs)", "Adds the entries of another dict, of (key, value) pairs, or key=value.", "", 0, "d"},
    {"copy", dict_copy_clear, "d.copy()", "A shallow copy of the dict.", "", 0, "d"},
    {"clear", dict_copy_clear, "d.clear()", "Removes every entry.", "", 1, "d"},
    {"get", dict_get_m, "d.get(key, default=None, /)", "The value for key, or default.", "", 0, "d"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* set.c - Python's set: CPython 3.11's Objects/setobject.c table (linear probes of 9, then perturbed jumps; resize
 * when 3/5 full; removed keys leave dummies), and its hashes for numbers and tuples (Python/pyhash.c,
 * Objects/tupleobject.c), so that {3, 1, 2} prints {1, 2, 3} and set.pop() takes what CPython's takes. */
#include "pyset.h"
#include "ops.h"
#include "ast.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

Value pyset_dummy = {.kind = V_NONE, .refs = 1 << 30};

#define SET_MINSIZE 8
#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5
#define HASH_BITS 61
#define HASH_MODULUS (((uint64_t)1 << HASH_BITS) - 1)
#define HASH_INF 314159

Value *pyset_new(void) {
    Value *v = val_new(V_SET);
    v->u.set = xcalloc(1, sizeof(PySet));
    v->u.set->table = xcalloc(SET_MINSIZE, sizeof(SetEntry));
    v->u.set->mask = SET_MINSIZE - 1;
    return v;
}

void pyset_free(PySet *t) {
    for (int64_t i = 0; i <= t->mask; i++)
        if (t->table[i].key && t->table[i].key != &pyset_dummy) val_decref(t->table[i].key);
    free(t->table);
    t->table = NULL;
    t->fill = t->used = 0;
    t->mask = -1;
}

void pyset_visit(PySet *t, void (*visit)(Value *, void *), void *ctx) {
    for (int64_t i = 0; i <= t->mask; i++)
        if (t->table[i].key && t->table[i].key != &pyset_dummy) visit(t->table[i].key, ctx);
}

Value *pyset_next(const Value *s, int64_t *pos) {
    const PySet *t = s->u.set;
    for (int64_t i = *pos; i <= t->mask; i++)
        if (t->table[i].key && t->table[i].key != &pyset_dummy) { *pos = i + 1; return t->table[i].key; }
    *pos = t->mask + 1;
    return NULL;
}

/* ---- hashes: CPython's for numbers and tuples (so the order of their sets is CPython's) ---- */

static int64_t hash_int(int64_t v) {
    uint64_t a = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    int64_t h = (int64_t)(a % HASH_MODULUS);
    if (v < 0) h = -h;
    return h == -1 ? -2 : h;
}

/* _Py_HashDouble: an integral float hashes as the int; nan by identity in CPython (here: a constant, nan != nan) */
static int64_t hash_double(double v) {
    if (isinf(v)) return v > 0 ? HASH_INF : -HASH_INF;
    if (isnan(v)) return 0;
    int e;
    double m = frexp(v, &e);
    int sign = 1;
    if (m < 0) { sign = -1; m = -m; }
    uint64_t x = 0;
    while (m) {
        x = ((x << 28) & HASH_MODULUS) | x >> (HASH_BITS - 28);
        m *= 268435456.0;
        e -= 28;
        uint64_t y = (uint64_t)m;
        m -= (double)y;
        x += y;
        if (x >= HASH_MODULUS) x -= HASH_MODULUS;
    }
    e = e >= 0 ? e % HASH_BITS : HASH_BITS - 1 - ((-1 - e) % HASH_BITS);
    x = ((x << e) & HASH_MODULUS) | x >> (HASH_BITS - e);
    x = x * (uint64_t)(int64_t)sign;
    if (x == (uint64_t)-1) x = (uint64_t)-2;
    return (int64_t)x;
}

static int64_t hash_bytes(const char *s, size_t n) {        /* CPython randomises str hashes: any good hash is Python's */
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h == (uint64_t)-1 ? -2 : (int64_t)h;
}

static int64_t hash_pointer(const void *p) {                 /* CPython's _Py_HashPointer: the address rotated by 4 */
    uint64_t y = (uint64_t)(uintptr_t)p;
    y = (y >> 4) | (y << 60);
    return y == (uint64_t)-1 ? -2 : (int64_t)y;
}

/* Whether v is compared by identity (as Python's objects without __eq__): tensors, functions, objects, classes */
static bool by_identity(VKind k) {
    return k == V_TENSOR || k == V_FUNC || k == V_METHOD || k == V_OBJECT || k == V_CLASS;
}

#define HASH_NONE 0xFCA86420

/* tuplehash of CPython 3.11 (xxHash's lanes) over the hashes of n items */
static int64_t lanes_hash(const int64_t *lane, int64_t n) {
    const uint64_t P1 = 11400714785074694791ull, P2 = 14029467366897019727ull, P5 = 2870177450012600261ull;
    uint64_t acc = P5;
    for (int64_t i = 0; i < n; i++) {
        acc += (uint64_t)lane[i] * P2;
        acc = (acc << 31) | (acc >> 33);
        acc *= P1;
    }
    acc += (uint64_t)n ^ (P5 ^ 3527539ull);
    return acc == (uint64_t)-1 ? 1546275796 : (int64_t)acc;
}

/* The hash of v, or the value that makes it unhashable (a list, dict or set, maybe inside a tuple). */
static const Value *hash_of(const Value *v, int64_t *out, int depth) {
    switch (v->kind) {
    case V_BOOL: *out = v->u.b; return NULL;
    case V_INT: *out = hash_int(v->u.i); return NULL;
    case V_FLOAT: *out = hash_double(v->u.f); return NULL;
    case V_STR: *out = hash_bytes(v->u.str.s, v->u.str.len); return NULL;
    case V_NONE: *out = HASH_NONE; return NULL;
    case V_ELLIPSIS: *out = 0xFCA86421; return NULL;
    case V_DTYPE: *out = 0x5EED0000 + v->u.dtype; return NULL;
    case V_BUILTIN: *out = hash_pointer(v->u.builtin); return NULL;
    case V_MODULE: *out = hash_bytes(v->u.module, strlen(v->u.module)); return NULL;
    case V_RANGE: {          /* CPython's: the hash of (len, start, step), None for what an empty or 1-long range
                              * does not use (equal ranges hash alike) */
        uint64_t n = val_range_count(v);
        int64_t lane[3] = {hash_int(n > INT64_MAX ? INT64_MAX : (int64_t)n), n ? hash_int(v->u.range.start) : HASH_NONE,
                           n > 1 ? hash_int(v->u.range.step) : HASH_NONE};
        *out = lanes_hash(lane, 3);
        return NULL;
    }
    case V_TUPLE: {
        if (depth > 1000) return v;
        int64_t stack[16] = {0}, *lane = v->u.seq.n <= 16 ? stack : xmalloc(sizeof(int64_t) * (size_t)v->u.seq.n);
        for (int64_t i = 0; i < v->u.seq.n; i++) {
            const Value *bad = hash_of(v->u.seq.items[i], &lane[i], depth + 1);
            if (bad) {
                if (lane != stack) free(lane);
                return bad;
            }
        }
        *out = lanes_hash(lane, v->u.seq.n);
        if (lane != stack) free(lane);
        return NULL;
    }
    default:
        if (by_identity(v->kind)) { *out = hash_pointer(v); return NULL; }
        return v;            /* list, dict, set, slice */
    }
}

bool pyset_hash(Interp *I, const Value *v, int64_t *hash) {
    const Value *bad = hash_of(v, hash, 0);
    if (bad) rt_raise(I, "TypeError", "unhashable type: '%s'", val_type_name(bad));
    if (*hash == -1) *hash = -2;        /* -1 marks a removed element's slot (CPython's hashes are never -1) */
    return !bad;
}

/* Python's == of two hashable keys with the same hash */
static bool key_eq(const Value *a, const Value *b) {
    if (a == b) return true;
    if (by_identity(a->kind) || by_identity(b->kind)) return false;
    if (a->kind != b->kind && !(val_is_number(a) && val_is_number(b))) return false;
    switch (a->kind) {
    case V_BUILTIN: return a->u.builtin == b->u.builtin;
    case V_MODULE: return !strcmp(a->u.module, b->u.module);
    case V_NONE: case V_ELLIPSIS: return true;
    default: return val_compare_eq(a, b) == 1;
    }
}

/* ---- the table (setobject.c) ---- */

/* The slot holding key, or the empty slot where a search for it ends (key NULL there). */
static SetEntry *lookkey(PySet *so, const Value *key, int64_t hash) {
    size_t mask = (size_t)so->mask, i = (size_t)hash & mask, perturb = (size_t)hash;
    for (;;) {
        SetEntry *entry = &so->table[i];
        int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        do {
            if (entry->hash == 0 && entry->key == NULL) return entry;
            if (entry->hash == hash && entry->key != &pyset_dummy && key_eq(entry->key, key)) return entry;
            entry++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

static void insert_clean(SetEntry *table, size_t mask, Value *key, int64_t hash) {
    size_t perturb = (size_t)hash, i = (size_t)hash & mask;
    SetEntry *entry;
    for (;;) {
        entry = &table[i];
        if (entry->key == NULL) goto found;
        if (i + LINEAR_PROBES <= mask)
            for (int j = 0; j < LINEAR_PROBES; j++) {
                entry++;
                if (entry->key == NULL) goto found;
            }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
found:
    entry->key = key;
    entry->hash = hash;
}

/* set_table_resize: the smallest power of two above minused, the live keys reinserted in slot order */
static void table_resize(PySet *so, int64_t minused) {
    int64_t newsize = SET_MINSIZE;
    while (newsize <= minused) newsize <<= 1;
    if (newsize == so->mask + 1 && newsize == SET_MINSIZE && so->fill == so->used) return;   /* CPython's small table */
    SetEntry *old = so->table;
    int64_t oldmask = so->mask;
    so->table = xcalloc((size_t)newsize, sizeof(SetEntry));
    so->mask = newsize - 1;
    so->fill = so->used;
    for (int64_t i = 0; i <= oldmask; i++)
        if (old[i].key && old[i].key != &pyset_dummy) insert_clean(so->table, (size_t)so->mask, old[i].key, old[i].hash);
    free(old);
}

/* set_add_entry: takes a reference to key when it goes in */
static void add_entry(PySet *so, Value *key, int64_t hash) {
    size_t mask = (size_t)so->mask, i = (size_t)hash & mask, perturb = (size_t)hash;
    SetEntry *freeslot = NULL, *entry;
    for (;;) {
        entry = &so->table[i];
        int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        do {
            if (entry->hash == 0 && entry->key == NULL) goto unused;
            if (entry->hash == hash && key_eq(entry->key, key)) return;         /* there already */
            if (entry->hash == -1) freeslot = entry;                             /* the last dummy seen, as 3.11 */
            entry++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
unused:
    if (freeslot) {
        so->used++;
        freeslot->key = val_incref(key);
        freeslot->hash = hash;
        return;
    }
    so->fill++;
    so->used++;
    entry->key = val_incref(key);
    entry->hash = hash;
    if ((size_t)so->fill * 5 < mask * 3) return;
    table_resize(so, so->used > 50000 ? so->used * 2 : so->used * 4);
}

static bool discard_entry(PySet *so, const Value *key, int64_t hash) {
    SetEntry *e = lookkey(so, key, hash);
    if (!e->key) return false;
    Value *old = e->key;
    e->key = &pyset_dummy;
    e->hash = -1;
    so->used--;
    val_decref(old);
    return true;
}

int pyset_add(Interp *I, Value *s, Value *key) {
    int64_t h;
    if (!pyset_hash(I, key, &h)) return -1;
    add_entry(s->u.set, key, h);
    return 0;
}

int pyset_contains(Interp *I, Value *s, const Value *key) {
    int64_t h;
    if (!pyset_hash(I, key, &h)) return -1;
    return lookkey(s->u.set, key, h)->key != NULL;
}

int pyset_discard(Interp *I, Value *s, const Value *key) {
    int64_t h;
    if (!pyset_hash(I, key, &h)) return -1;
    return discard_entry(s->u.set, key, h);
}

void pyset_clear(Value *s) {
    PySet *so = s->u.set;
    int64_t finger = so->finger;
    pyset_free(so);
    so->table = xcalloc(SET_MINSIZE, sizeof(SetEntry));
    so->mask = SET_MINSIZE - 1;
    so->finger = finger;
}

Value *pyset_pop(Interp *I, Value *s) {
    PySet *so = s->u.set;
    if (so->used == 0) return rt_raise(I, "KeyError", "pop from an empty set");
    SetEntry *entry = so->table + (so->finger & so->mask), *limit = so->table + so->mask;
    while (entry->key == NULL || entry->key == &pyset_dummy)
        if (++entry > limit) entry = so->table;
    Value *key = entry->key;
    entry->key = &pyset_dummy;
    entry->hash = -1;
    so->used--;
    so->finger = entry - so->table + 1;
    return key;
}

/* set_merge: the elements of set o into so */
static void merge(PySet *so, const PySet *o) {
    if (so == o || o->used == 0) return;
    if ((so->fill + o->used) * 5 >= so->mask * 3) table_resize(so, (so->used + o->used) * 2);
    if (so->fill == 0 && so->mask == o->mask && o->fill == o->used) {     /* the same table: copied as it is */
        for (int64_t i = 0; i <= o->mask; i++)
            if (o->table[i].key) { so->table[i].key = val_incref(o->table[i].key); so->table[i].hash = o->table[i].hash; }
        so->fill = so->used = o->used;
        return;
    }
    if (so->fill == 0) {
        so->fill = so->used = o->used;
        for (int64_t i = 0; i <= o->mask; i++)
            if (o->table[i].key && o->table[i].key != &pyset_dummy)
                insert_clean(so->table, (size_t)so->mask, val_incref(o->table[i].key), o->table[i].hash);
        return;
    }
    for (int64_t i = 0; i <= o->mask; i++)
        if (o->table[i].key && o->table[i].key != &pyset_dummy) add_entry(so, o->table[i].key, o->table[i].hash);
}

int pyset_update(Interp *I, Value *s, Value *src) {
    PySet *so = s->u.set;
    if (src->kind == V_SET) { merge(so, src->u.set); return 0; }
    if (src->kind == V_DICT) {            /* one resize first, then the keys in the dict's order */
        const Dict *d = src->u.dict;
        if ((so->fill + d->n) * 5 >= so->mask * 3) table_resize(so, (so->used + d->n) * 2);
        for (int i = 0; i < d->n; i++) if (pyset_add(I, s, d->keys[i]) < 0) return -1;
        return 0;
    }
    Iter it;
    if (!ops_iter_begin(I, src, &it)) return -1;
    Value *e;
    int rc = 0;
    for (int64_t k = 1; rc == 0 && (e = ops_iter_next(&it)); k++) {
        rc = pyset_add(I, s, e);
        val_decref(e);
        if ((k & 4095) == 0 && rc == 0 && !interp_memory_ok(I, 4096)) rc = -1;   /* set(range(10**15)): refused */
    }
    ops_iter_end(&it);
    return rc == 0 && !interp_failed(I) ? 0 : -1;
}

Value *pyset_from(Interp *I, Value *src) {
    Value *s = pyset_new();
    if (src && pyset_update(I, s, src) < 0) { val_decref(s); return NULL; }
    return s;
}

/* set(o) for the methods that accept any iterable: o itself (a new reference) when it is a set */
static Value *as_set(Interp *I, Value *o) { return o->kind == V_SET ? val_incref(o) : pyset_from(I, o); }

static Value *intersection(Interp *I, Value *a, Value *b) {
    if (a == b) return pyset_from(I, a);
    Value *r = pyset_new();
    if (b->kind == V_SET) {                  /* walks the smaller, looks up in the larger */
        Value *big = a, *small = b;
        if (b->u.set->used > a->u.set->used) { big = b; small = a; }
        for (int64_t i = 0; i <= small->u.set->mask; i++) {
            SetEntry *e = &small->u.set->table[i];
            if (e->key && e->key != &pyset_dummy && lookkey(big->u.set, e->key, e->hash)->key) add_entry(r->u.set, e->key, e->hash);
        }
        return r;
    }
    Iter it;
    if (!ops_iter_begin(I, b, &it)) { val_decref(r); return NULL; }
    Value *e;
    int rc = 0;
    while (rc == 0 && (e = ops_iter_next(&it))) {
        int64_t h;
        if (!pyset_hash(I, e, &h)) rc = -1;
        else if (lookkey(a->u.set, e, h)->key) add_entry(r->u.set, e, h);
        val_decref(e);
    }
    ops_iter_end(&it);
    if (rc < 0 || interp_failed(I)) { val_decref(r); return NULL; }
    return r;
}

/* set_difference_update_internal: removes b's elements from s, then drops the dummies when they are many */
static int difference_update(Interp *I, Value *s, Value *b) {
    PySet *so = s->u.set;
    if (s == b) { pyset_clear(s); return 0; }
    if (b->kind == V_SET) {
        for (int64_t i = 0; i <= b->u.set->mask; i++) {
            SetEntry *e = &b->u.set->table[i];
            if (e->key && e->key != &pyset_dummy) discard_entry(so, e->key, e->hash);
        }
    } else {
        Iter it;
        if (!ops_iter_begin(I, b, &it)) return -1;
        Value *e;
        int rc = 0;
        while (rc == 0 && (e = ops_iter_next(&it))) {
            rc = pyset_discard(I, s, e) < 0 ? -1 : 0;
            val_decref(e);
        }
        ops_iter_end(&it);
        if (rc < 0 || interp_failed(I)) return -1;
    }
    if (so->fill - so->used > so->mask / 4) table_resize(so, so->used > 50000 ? so->used * 2 : so->used * 4);
    return 0;
}

static Value *difference(Interp *I, Value *a, Value *b) {
    int64_t bn = b->kind == V_SET ? b->u.set->used : b->kind == V_DICT ? b->u.dict->n : -1;
    if (bn < 0 || (a->u.set->used >> 2) > bn) {          /* set_copy_and_difference */
        Value *r = pyset_from(I, a);
        if (difference_update(I, r, b) < 0) { val_decref(r); return NULL; }
        return r;
    }
    Value *r = pyset_new();
    for (int64_t i = 0; i <= a->u.set->mask; i++) {
        SetEntry *e = &a->u.set->table[i];
        if (!e->key || e->key == &pyset_dummy) continue;
        bool in = b->kind == V_SET ? lookkey(b->u.set, e->key, e->hash)->key != NULL : dict_find(b->u.dict, e->key) >= 0;
        if (!in) add_entry(r->u.set, e->key, e->hash);
    }
    return r;
}

/* set_symmetric_difference_update: each element of b is removed from s when there, else added */
static int symmetric_update(Interp *I, Value *s, Value *b) {
    if (s == b) { pyset_clear(s); return 0; }
    Value *o = as_set(I, b);
    if (!o) return -1;
    for (int64_t i = 0; i <= o->u.set->mask; i++) {
        SetEntry *e = &o->u.set->table[i];
        if (e->key && e->key != &pyset_dummy && !discard_entry(s->u.set, e->key, e->hash)) add_entry(s->u.set, e->key, e->hash);
    }
    val_decref(o);
    return 0;
}

Value *pyset_op(Interp *I, int aop, Value *a, Value *b) {
    switch (aop) {
    case AOP_BITOR: {
        Value *r = pyset_from(I, a);
        if (a != b && pyset_update(I, r, b) < 0) { val_decref(r); return NULL; }
        return r;
    }
    case AOP_BITAND: return intersection(I, a, b);
    case AOP_SUB: return difference(I, a, b);
    default: {                                             /* ^: set(b), then a's elements toggled in */
        Value *r = pyset_from(I, b);
        if (r && symmetric_update(I, r, a) < 0) { val_decref(r); return NULL; }
        return r;
    }
    }
}

int pyset_op_update(Interp *I, int aop, Value *a, Value *b) {
    switch (aop) {
    case AOP_BITOR: return pyset_update(I, a, b);
    case AOP_SUB: return difference_update(I, a, b);
    case AOP_BITXOR: return symmetric_update(I, a, b);
    default: {                                             /* &=: the intersection's table becomes a's */
        Value *r = intersection(I, a, b);
        if (!r) return -1;
        PySet tmp = *a->u.set;                            /* set_swap_bodies: a keeps its pop finger */
        *a->u.set = *r->u.set;
        *r->u.set = tmp;
        a->u.set->finger = tmp.finger;
        val_decref(r);
        return 0;
    }
    }
}

int pyset_subset(Interp *I, Value *a, Value *b) {
    (void)I;
    if (a->u.set->used > b->u.set->used) return 0;
    for (int64_t i = 0; i <= a->u.set->mask; i++) {
        SetEntry *e = &a->u.set->table[i];
        if (e->key && e->key != &pyset_dummy && !lookkey(b->u.set, e->key, e->hash)->key) return 0;
    }
    return 1;
}

bool pyset_equal(const Value *a, const Value *b) {
    return a->u.set->used == b->u.set->used && pyset_subset(NULL, (Value *)a, (Value *)b) == 1;
}

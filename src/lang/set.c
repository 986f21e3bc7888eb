/* set.c - Python's set: CPython 3.11's Objects/setobject.c table (linear probes of 9, then perturbed jumps; resize
 * when 3/5 full; removed keys leave dummies), and its hashes for numbers and tuples (Python/pyhash.c,
 * Objects/tupleobject.c), so that {3, 1, 2} prints {1, 2, 3} and set.pop() takes what CPython's takes. */
#include "pyset.h"
#include "lang_internal.h"
#include "ops.h"
#include "ast.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The key a removed element leaves in its slot: compared by address only, never written (nor its refs counted), so
 * read-only; DUMMY is its address as the table's key type. */
static const Value pyset_dummy = {.kind = V_NONE, .refs = 1 << 30};
#define DUMMY ((Value *)&pyset_dummy)

#define SET_MINSIZE 8
#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5
#define HASH_BITS 61
#define HASH_MODULUS (((uint64_t)1 << HASH_BITS) - 1)
#define HASH_INF 314159

/* What a table of n entries takes from the heap (val_live_bytes counts it) */
static int64_t table_bytes(int64_t n) { return n > 0 ? val_heap_bytes(sizeof(SetEntry) * (size_t)n) : 0; }

Value *pyset_new(ValHeap *heap) {
    Value *v = val_new(heap, V_SET);
    v->u.set = xcalloc(1, sizeof(PySet));
    v->u.set->heap = heap;
    v->u.set->table = xcalloc(SET_MINSIZE, sizeof(SetEntry));
    v->u.set->mask = SET_MINSIZE - 1;
    val_account_bytes(heap, val_heap_bytes(sizeof(PySet)) + table_bytes(SET_MINSIZE));
    return v;
}

void pyset_free(PySet *t) {
    for (int64_t i = 0; i <= t->mask; i++)
        if (t->table[i].key && t->table[i].key != DUMMY) val_decref(t->table[i].key);
    if (t->table) val_account_bytes(t->heap, -table_bytes(t->mask + 1));
    free(t->table);
    t->table = NULL;
    t->fill = t->used = 0;
    t->mask = -1;
}

void pyset_visit(PySet *t, void (*visit)(Value *, void *), void *ctx) {
    for (int64_t i = 0; i <= t->mask; i++)
        if (t->table[i].key && t->table[i].key != DUMMY) visit(t->table[i].key, ctx);
}

Value *pyset_next(const Value *s, int64_t *pos) {
    const PySet *t = s->u.set;
    for (int64_t i = *pos; i <= t->mask; i++)
        if (t->table[i].key && t->table[i].key != DUMMY) { *pos = i + 1; return t->table[i].key; }
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

/* CPython 3.11's frozenset_hash: the elements' hashes shuffled and xor-ed (any order gives the same), then mixed
 * with the size. Also what `{1} in s` looks a set up as (set_contains_key's frozenset of it). */
static uint64_t shuffle_bits(uint64_t h) { return ((h ^ 89869747ull) ^ (h << 16)) * 3644798167ull; }
static int64_t frozen_hash(const PySet *so) {
    uint64_t hash = 0;
    for (int64_t i = 0; i <= so->mask; i++)
        if (so->table[i].key && so->table[i].key != DUMMY) hash ^= shuffle_bits((uint64_t)so->table[i].hash);
    hash ^= ((uint64_t)so->used + 1) * 1927868237ull;
    hash ^= (hash >> 11) ^ (hash >> 25);
    hash = hash * 69069u + 907133923ull;
    if (hash == (uint64_t)-1) hash = 590923713ull;
    return (int64_t)hash;
}

static const Value hash_failed = {.kind = V_NONE, .refs = 1 << 30};   /* hash_of: a student's __hash__ raised */
static const Value hash_deep = {.kind = V_NONE, .refs = 1 << 30};   /* hash_of: tuples nested too deep to hash */

/* The hash of v, or the value that makes it unhashable (a list, dict or set, maybe inside a tuple; an instance whose
 * class defines __eq__ without __hash__), or &hash_failed when a student's __hash__ raised, or &hash_deep for tuples
 * nested deeper than 1000 (Python's RecursionError). */
static const Value *hash_of(Interp *I, const Value *v, int64_t *out, int depth) {
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
        if (depth > 1000) return &hash_deep;
        int64_t stack[16] = {0}, *lane = v->u.seq.n <= 16 ? stack : xmalloc(sizeof(int64_t) * (size_t)v->u.seq.n);
        for (int64_t i = 0; i < v->u.seq.n; i++) {
            const Value *bad = hash_of(I, v->u.seq.items[i], &lane[i], depth + 1);
            if (bad) {
                if (lane != stack) free(lane);
                return bad;
            }
        }
        *out = lanes_hash(lane, v->u.seq.n);
        if (lane != stack) free(lane);
        return NULL;
    }
    case V_SET:
        if (!v->u.set->frozen) return v;
        *out = frozen_hash(v->u.set);
        return NULL;
    case V_OBJECT: {
        ClassHash how;
        if (!class_hash(I, v, &how, out)) return &hash_failed;      /* a student's __hash__ raised */
        if (how == CLASS_UNHASHABLE) return v;                  /* __eq__ alone, or __hash__ = None */
        if (how == CLASS_HASH_IDENTITY) *out = hash_pointer(v);
        return NULL;
    }
    case V_DICTVIEW:         /* keys and items views are unhashable (as sets); a values view hashes as an object */
        if (v->u.view.which != VIEW_VALUES) return v;
        *out = hash_pointer(v);
        return NULL;
    default:
        if (by_identity(v->kind)) { *out = hash_pointer(v); return NULL; }
        return v;            /* list, dict, set, slice */
    }
}

bool pyset_hash_quiet(const Value *v, int64_t *hash, bool *hashable) {
    const Value *bad = hash_of(NULL, v, hash, 0);
    *hashable = !bad;
    if (bad) return bad != &hash_failed;
    if (*hash == -1) *hash = -2;
    return true;
}

bool pyset_hash(Interp *I, const Value *v, int64_t *hash) {
    const Value *bad = hash_of(I, v, hash, 0);
    if (bad == &hash_failed) return false;
    if (bad == &hash_deep) { rt_raise(I, "RecursionError", "maximum recursion depth exceeded while calling a Python object"); return false; }
    if (bad) { rt_raise(I, "TypeError", "unhashable type: '%s'", val_type_name(bad)); return false; }
    if (*hash == -1) *hash = -2;        /* -1 marks a removed element's slot (CPython's hashes are never -1) */
    return true;
}

/* Python's == of two hashable keys with the same hash (a, the key in the table, first, as CPython compares): true
 * with *eq, false when it failed (val_eq: a student's __eq__ raised; with I, also keys nested too deep, Ctrl-C). The
 * set functions below pass I on: NULL only for == of two sets under val_eq(NULL, ...). */
static bool key_eq(Interp *I, const Value *a, const Value *b, bool *eq) {
    *eq = a == b;
    if (*eq) return true;
    if (class_is_instance(a) || class_is_instance(b)) return class_eq(I, a, b, eq);
    if (by_identity(a->kind) || by_identity(b->kind)) return true;
    if (a->kind != b->kind && !(val_is_number(a) && val_is_number(b))) return true;
    switch (a->kind) {
    case V_BUILTIN: *eq = a->u.builtin == b->u.builtin; return true;
    case V_MODULE: *eq = !strcmp(a->u.module, b->u.module); return true;
    case V_NONE: case V_ELLIPSIS: *eq = true; return true;
    default: return val_eq(I, a, b, eq);
    }
}

/* key_eq of the key in *entry and key, while the student's __eq__ may change so: the entry's key is held for the
 * call, and *changed says whether so's table (or that slot) changed meanwhile, so the search must start again
 * (CPython's set_lookkey). */
static bool entry_eq(Interp *I, PySet *so, SetEntry *entry, const Value *key, bool *eq, bool *changed) {
    SetEntry *table = so->table;
    int64_t mask = so->mask;
    Value *start = val_incref(entry->key);
    bool ok = key_eq(I, start, key, eq);
    *changed = so->table != table || so->mask != mask || entry->key != start;
    val_decref(start);
    return ok;
}

/* ---- the table (setobject.c) ---- */

/* Whether a search may start (again): an __eq__ that rebuilds the set at every comparison would restart it for ever
 * (CPython's too, but for its allocator reusing the table): after PROBE_RESTARTS, Python's RuntimeError. */
static bool restarts_ok(Interp *I, int *restarts) {
    if ((*restarts)++ <= PROBE_RESTARTS) return true;
    rt_raise(I, "RuntimeError", "Set changed during an element's comparison %d times: stopped", PROBE_RESTARTS);
    return false;
}

/* The slot holding key, or the empty slot where a search for it ends (key NULL there); NULL when a student's __eq__
 * raised (the error is set). */
static SetEntry *lookkey(Interp *I, PySet *so, const Value *key, int64_t hash) {
    int restarts = 0;
restart:;
    if (!restarts_ok(I, &restarts)) return NULL;
    size_t mask = (size_t)so->mask, i = (size_t)hash & mask, perturb = (size_t)hash;
    for (;;) {
        SetEntry *entry = &so->table[i];
        int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        do {
            if (entry->hash == 0 && entry->key == NULL) return entry;
            if (entry->hash == hash && entry->key != DUMMY) {
                bool changed, eq;
                if (!entry_eq(I, so, entry, key, &eq, &changed)) return NULL;
                if (changed) goto restart;
                if (eq) return entry;
            }
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

/* set_table_resize: the smallest power of two above minused, the live keys reinserted in slot order. When the
 * machine refuses the new table, the old one stays (it has room yet: a resize comes at 3/5 full) and mem_exhausted
 * is set, for the interpreter's MemoryError. */
static void table_resize(PySet *so, int64_t minused) {
    int64_t newsize = SET_MINSIZE;
    while (newsize <= minused) newsize <<= 1;
    if (newsize == so->mask + 1 && newsize == SET_MINSIZE && so->fill == so->used) return;   /* CPython's small table */
    SetEntry *old = so->table, *table = mem_try_calloc((size_t)newsize, sizeof(SetEntry));
    if (!table) return;
    int64_t oldmask = so->mask;
    val_account_bytes(so->heap, table_bytes(newsize) - table_bytes(oldmask + 1));
    so->table = table;
    so->mask = newsize - 1;
    so->fill = so->used;
    for (int64_t i = 0; i <= oldmask; i++)
        if (old[i].key && old[i].key != DUMMY) insert_clean(so->table, (size_t)so->mask, old[i].key, old[i].hash);
    free(old);
}

/* Whether key is in so: 1, 0, or -1 when a comparison failed (key_eq: the error set) */
static int has_key(Interp *I, PySet *so, const Value *key, int64_t hash) {
    SetEntry *e = lookkey(I, so, key, hash);
    return e ? e->key != NULL : -1;
}

/* set_add_entry: takes a reference to key when it goes in; 0, or -1 when a comparison failed */
static int add_entry(Interp *I, PySet *so, Value *key, int64_t hash) {
    int restarts = 0;
restart:;
    if (!restarts_ok(I, &restarts)) return -1;
    size_t mask = (size_t)so->mask, i = (size_t)hash & mask, perturb = (size_t)hash;
    SetEntry *freeslot = NULL, *entry;
    for (;;) {
        entry = &so->table[i];
        int probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
        do {
            if (entry->hash == 0 && entry->key == NULL) goto unused;
            if (entry->hash == hash && entry->key != DUMMY) {
                bool changed, eq;
                if (!entry_eq(I, so, entry, key, &eq, &changed)) return -1;
                if (changed) goto restart;
                if (eq) return 0;                                                 /* there already */
            }
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
        return 0;
    }
    so->fill++;
    so->used++;
    entry->key = val_incref(key);
    entry->hash = hash;
    if ((size_t)so->fill * 5 < mask * 3) return 0;
    table_resize(so, so->used > 50000 ? so->used * 2 : so->used * 4);
    return 0;
}

/* 1 removed, 0 absent, -1 when a comparison failed */
static int discard_entry(Interp *I, PySet *so, const Value *key, int64_t hash) {
    SetEntry *e = lookkey(I, so, key, hash);
    if (!e) return -1;
    if (!e->key) return 0;
    Value *old = e->key;
    e->key = DUMMY;
    e->hash = -1;
    so->used--;
    val_decref(old);
    return 1;
}

int pyset_add(Interp *I, Value *s, Value *key) {
    int64_t h;
    if (!pyset_hash(I, key, &h)) return -1;
    return add_entry(I, s->u.set, key, h);
}

/* The hash a key is looked up by: a set is looked up as the frozenset of its elements (CPython's set_contains_key:
 * {1} in {2} is False, {1} in {frozenset({1})} True). */
static bool lookup_hash(Interp *I, const Value *key, int64_t *h) {
    if (key->kind == V_SET && !key->u.set->frozen) { *h = frozen_hash(key->u.set); if (*h == -1) *h = -2; return true; }
    return pyset_hash(I, key, h);
}

int pyset_contains_hashed(Interp *I, const Value *s, const Value *key, int64_t hash) { return has_key(I, s->u.set, key, hash); }

int pyset_contains(Interp *I, Value *s, const Value *key) {
    int64_t h;
    if (!lookup_hash(I, key, &h)) return -1;
    return has_key(I, s->u.set, key, h);
}

int pyset_discard(Interp *I, Value *s, const Value *key) {
    int64_t h;
    if (!lookup_hash(I, key, &h)) return -1;
    return discard_entry(I, s->u.set, key, h);
}

void pyset_clear(Value *s) {
    PySet *so = s->u.set;
    int64_t finger = so->finger;
    pyset_free(so);
    so->table = xcalloc(SET_MINSIZE, sizeof(SetEntry));
    val_account_bytes(so->heap, table_bytes(SET_MINSIZE));
    so->mask = SET_MINSIZE - 1;
    so->finger = finger;
}

Value *pyset_pop(Interp *I, Value *s) {
    PySet *so = s->u.set;
    if (so->used == 0) return rt_raise(I, "KeyError", "pop from an empty set");
    SetEntry *entry = so->table + (so->finger & so->mask), *limit = so->table + so->mask;
    while (entry->key == NULL || entry->key == DUMMY)
        if (++entry > limit) entry = so->table;
    Value *key = entry->key;
    entry->key = DUMMY;
    entry->hash = -1;
    so->used--;
    so->finger = entry - so->table + 1;
    return key;
}

/* Calls fn(so, key, hash) for each element of set o, holding the element meanwhile (a student's __eq__ may change
 * o), until fn returns a negative number: 0 or that number. */
static int each_entry(Interp *I, PySet *so, PySet *o, int (*fn)(Interp *, PySet *, Value *, int64_t, void *), void *ctx) {
    for (int64_t i = 0; i <= o->mask; i++) {
        SetEntry *e = &o->table[i];
        if (!e->key || e->key == DUMMY) continue;
        Value *key = val_incref(e->key);
        int rc = fn(I, so, key, e->hash, ctx);
        val_decref(key);
        if (rc < 0) return rc;
    }
    return 0;
}

static int add_fn(Interp *I, PySet *so, Value *key, int64_t hash, void *ctx) { (void)ctx; return add_entry(I, so, key, hash); }

/* set_merge: the elements of set o into so; 0 or -1 */
static int merge(Interp *I, PySet *so, PySet *o) {
    if (so == o || o->used == 0) return 0;
    if ((so->fill + o->used) * 5 >= so->mask * 3) table_resize(so, (so->used + o->used) * 2);
    if (so->fill == 0 && so->mask == o->mask && o->fill == o->used) {     /* the same table: copied as it is */
        for (int64_t i = 0; i <= o->mask; i++)
            if (o->table[i].key) { so->table[i].key = val_incref(o->table[i].key); so->table[i].hash = o->table[i].hash; }
        so->fill = so->used = o->used;
        return 0;
    }
    if (so->fill == 0) {
        so->fill = so->used = o->used;
        for (int64_t i = 0; i <= o->mask; i++)
            if (o->table[i].key && o->table[i].key != DUMMY)
                insert_clean(so->table, (size_t)so->mask, val_incref(o->table[i].key), o->table[i].hash);
        return 0;
    }
    return each_entry(I, so, o, add_fn, NULL);
}

int pyset_update(Interp *I, Value *s, Value *src) {
    PySet *so = s->u.set;
    if (src->kind == V_SET) return merge(I, so, src->u.set);
    if (src->kind == V_DICT) {            /* one resize first, then the keys in the dict's order */
        const Dict *d = src->u.dict;
        if ((so->fill + d->n) * 5 >= so->mask * 3) table_resize(so, (so->used + d->n) * 2);
        for (int i = 0; i < d->n; i++) {       /* the stored hashes, as CPython's; held: an __eq__ may change the dict */
            Value *key = val_incref(d->keys[i]);
            int rc = add_entry(I, so, key, d->hashes[i]);
            val_decref(key);
            if (rc < 0) return -1;
        }
        return 0;
    }
    Iter it;
    if (!ops_iter_begin(I, src, &it)) return -1;
    Value *e;
    int rc = 0;
    for (int64_t k = 1; rc == 0 && (e = ops_iter_next(&it)); k++) {
        rc = pyset_add(I, s, e);
        val_decref(e);
        if (((k & 4095) == 0 || mem_exhausted) && rc == 0 && !interp_memory_ok(I, 4096)) rc = -1;   /* set(range(10**15)): refused */
    }
    ops_iter_end(&it);
    return rc == 0 && !interp_failed(I) ? 0 : -1;
}

Value *pyset_from(Interp *I, Value *src) {
    Value *s = pyset_new(I->run.heap);
    if (src && pyset_update(I, s, src) < 0) { val_decref(s); return NULL; }
    return s;
}

Value *pyset_frozen(Interp *I, Value *src) {
    if (src && src->kind == V_SET && src->u.set->frozen) return val_incref(src);
    Value *s = pyset_from(I, src);
    if (s) s->u.set->frozen = true;
    return s;
}

/* set(o) for the methods that accept any iterable: o itself (a new reference) when it is a set */
static Value *as_set(Interp *I, Value *o) { return o->kind == V_SET ? val_incref(o) : pyset_from(I, o); }

/* adds key to the set ctx when it is in so (each_entry's fn) */
static int add_if_in(Interp *I, PySet *so, Value *key, int64_t hash, void *ctx) {
    int in = has_key(I, so, key, hash);
    return in <= 0 ? in : add_entry(I, ctx, key, hash);
}

/* adds key to the set ctx when it is not in so */
static int add_if_not_in(Interp *I, PySet *so, Value *key, int64_t hash, void *ctx) {
    int in = has_key(I, so, key, hash);
    return in != 0 ? (in < 0 ? -1 : 0) : add_entry(I, ctx, key, hash);
}

static int discard_fn(Interp *I, PySet *so, Value *key, int64_t hash, void *ctx) {
    (void)ctx;
    return discard_entry(I, so, key, hash) < 0 ? -1 : 0;
}

/* removes key from so when there, else adds it */
static int toggle_fn(Interp *I, PySet *so, Value *key, int64_t hash, void *ctx) {
    (void)ctx;
    int r = discard_entry(I, so, key, hash);
    return r != 0 ? (r < 0 ? -1 : 0) : add_entry(I, so, key, hash);
}

/* -1 when key is not in so (each_entry stops), 0 when it is, -2 when a comparison failed */
static int in_fn(Interp *I, PySet *so, Value *key, int64_t hash, void *ctx) {
    (void)ctx;
    int in = has_key(I, so, key, hash);
    return in < 0 ? -2 : in ? 0 : -1;
}

static Value *intersection(Interp *I, Value *a, Value *b) {
    if (a == b) return pyset_from(I, a);
    Value *r = pyset_new(I->run.heap);
    if (b->kind == V_SET) {                  /* walks the smaller, looks up in the larger */
        Value *big = a, *small = b;
        if (b->u.set->used > a->u.set->used) { big = b; small = a; }
        if (each_entry(I, big->u.set, small->u.set, add_if_in, r->u.set) < 0) { val_decref(r); return NULL; }
        return r;
    }
    Iter it;
    if (!ops_iter_begin(I, b, &it)) { val_decref(r); return NULL; }
    Value *e;
    int rc = 0;
    while (rc == 0 && (e = ops_iter_next(&it))) {
        int64_t h;
        if (!pyset_hash(I, e, &h)) rc = -1;
        else rc = add_if_in(I, a->u.set, e, h, r->u.set);
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
        if (each_entry(I, so, b->u.set, discard_fn, NULL) < 0) return -1;
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
    Value *r = pyset_new(I->run.heap);
    int rc = 0;
    if (b->kind == V_SET) rc = each_entry(I, b->u.set, a->u.set, add_if_not_in, r->u.set);
    else
        for (int64_t i = 0; rc == 0 && i <= a->u.set->mask; i++) {
            SetEntry *e = &a->u.set->table[i];
            if (!e->key || e->key == DUMMY) continue;
            Value *key = val_incref(e->key);
            int64_t hash = e->hash;
            if (dict_find_hashed(I, b->u.dict, key, hash) < 0) rc = interp_failed(I) ? -1 : add_entry(I, r->u.set, key, hash);
            val_decref(key);
        }
    if (rc < 0) { val_decref(r); return NULL; }
    return r;
}

/* set_symmetric_difference_update: each element of b is removed from s when there, else added */
static int symmetric_update(Interp *I, Value *s, Value *b) {
    if (s == b) { pyset_clear(s); return 0; }
    Value *o = as_set(I, b);
    if (!o) return -1;
    int rc = each_entry(I, s->u.set, o->u.set, toggle_fn, NULL);
    val_decref(o);
    return rc < 0 ? -1 : 0;
}

static Value *set_op(Interp *I, int aop, Value *a, Value *b);

Value *pyset_op(Interp *I, int aop, Value *a, Value *b) {
    Value *r = set_op(I, aop, a, b);
    if (r) r->u.set->frozen = a->u.set->frozen;           /* the left operand's type, as Python's */
    return r;
}

static Value *set_op(Interp *I, int aop, Value *a, Value *b) {
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
    if (a->u.set->used > b->u.set->used) return 0;
    int rc = each_entry(I, b->u.set, a->u.set, in_fn, NULL);
    return rc == 0 ? 1 : rc == -1 ? 0 : -1;
}

bool pyset_equal(Interp *I, const Value *a, const Value *b, bool *eq) {
    *eq = false;
    if (a->u.set->used != b->u.set->used) return true;
    int r = pyset_subset(I, (Value *)a, (Value *)b);
    *eq = r == 1;
    return r >= 0;
}

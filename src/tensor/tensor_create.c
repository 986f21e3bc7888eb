/* tensor_create.c - storage and allocation, creation, element access, copies and casts, errors. */
#include "tensor_internal.h"
#include "strbuf.h"
#include "attnerr.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

atomic_int ten_interrupted = 0;

bool ten_parse_bytes(const char *s, int64_t *bytes) {
    char *end;
    double v = strtod(s, &end);
    double unit = *end == 'K' || *end == 'k' ? 1024.0 : *end == 'M' || *end == 'm' ? 1048576.0
                : *end == 'G' || *end == 'g' ? 1073741824.0 : *end == 0 ? 1.0 : 0.0;
    if (*end) end++;
    if (end == s || *end || unit == 0 || !(v * unit >= 1024) || v * unit > 9e18) return false;
    *bytes = (int64_t)(v * unit);
    return true;
}

TenCtx *ten_ctx_new(void) {
    TenCtx *c = xmalloc(sizeof *c);
    *c = (TenCtx)TEN_CTX_INIT;
    const char *e = getenv("ATTN_MEMORY_LIMIT");   /* the front end has refused a bad one (exit 2) */
    int64_t limit;
    if (e && *e && ten_parse_bytes(e, &limit)) c->limit_bytes = limit;
    return c;
}

static void pool_release(TenCtx *c);

/* One reference of c gone (its owner's or a storage's): freed with the last. */
static void ctx_unref(TenCtx *c) {
    if (--c->refs == 0) free(c);
}

void ten_ctx_free(TenCtx *c) {
    if (!c) return;
    pool_release(c);
    c->closed = true;
    ctx_unref(c);
}

int64_t ten_live_bytes(const TenCtx *c) { return c->live_bytes; }

void ten_ctx_nest(TenCtx *c, const TenCtx *outer, int64_t outer_values) {
    c->limit_bytes = outer->limit_bytes;
    c->held_outside = outer->held_outside + outer->live_bytes + (outer_values > 0 ? outer_values : 0);
}

int64_t ten_room(const TenCtx *c) {
    int64_t room = c->limit_bytes - c->held_outside - c->live_bytes;
    return room > 0 ? room : 0;
}

void ten_limit_note(const TenCtx *c, char *out, size_t n) {
    char lim[32], held[32];
    ten_bytes_str(c->limit_bytes, lim, sizeof lim);
    ten_bytes_str(c->held_outside, held, sizeof held);
    if (c->held_outside > 0) snprintf(out, n, "attn's limit is %s, and the session this one was started from holds %s of it",
                                      lim, held);
    else snprintf(out, n, "attn's limit is %s", lim);
}

const char *ten_error(const TenCtx *c) { return err_msg(&c->err); }
TenErrKind ten_error_kind(const TenCtx *c) { return c->err.kind == ERR_INTERRUPT ? TEN_ERR_INTERRUPTED : TEN_ERR_FAILED; }
void ten_fail_in(TenCtx *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_setv(&c->err, fmt, ap);
    va_end(ap);
    if (strlen(c->err.msg) >= TEN_ERR_MAX) c->err.msg[TEN_ERR_MAX - 1] = 0;
}
void ten_fail_interrupted(TenCtx *c) { err_set_kind(&c->err, ERR_INTERRUPT, "interrupted"); }

void ten_bytes_str(int64_t bytes, char *out, size_t n) {
    static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4) { v /= 1024; u++; }
    if (u == 0) snprintf(out, n, "%lld bytes", (long long)bytes);
    else snprintf(out, n, v < 10 ? "%.2f %s" : "%.1f %s", v, units[u]);
}

void ten_shape_str(const int64_t *shape, int ndim, char *out, size_t n) {
    size_t k = 0;
    k += (size_t)snprintf(out + k, n - k, "(");
    for (int i = 0; i < ndim && k < n; i++)
        k += (size_t)snprintf(out + k, n - k, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (k < n) k += (size_t)snprintf(out + k, n - k, ndim == 1 ? ",)" : ")");
}

const char *ten_dtype_name(DType d) {
    switch (d) {
    case DT_F32: return "torch.float32";
    case DT_F64: return "torch.float64";
    case DT_I64: return "torch.int64";
    case DT_BOOL: return "torch.bool";
    }
    return "?";
}
const char *ten_dtype_word(DType d) {
    return d == DT_F32 ? "Float" : d == DT_F64 ? "Double" : d == DT_I64 ? "Long" : "Bool";
}
size_t ten_dtype_size(DType d) { return d == DT_F32 ? 4 : d == DT_BOOL ? 1 : 8; }

static int dtype_rank(DType d) { return d == DT_BOOL ? 0 : d == DT_I64 ? 1 : d == DT_F32 ? 2 : 3; }
DType ten_promote(DType a, DType b) { return dtype_rank(a) >= dtype_rank(b) ? a : b; }

/* Large buffers are kept for reuse after ten_free (as PyTorch's caching allocator does): a fresh 256 MB buffer
 * costs more in page faults than the kernel that fills it. Exact sizes only, a few slots, bounded in total. */
#define CACHE_MIN_BYTES ((size_t)1 << 20)
#define CACHE_MAX_BYTES ((size_t)3 << 30)

static void *data_alloc(TenCtx *c, size_t bytes, bool zero) {
    if (bytes >= CACHE_MIN_BYTES)
        for (int i = 0; i < TEN_CACHE_SLOTS; i++)
            if (c->pool.cache[i].p && c->pool.cache[i].bytes == bytes) {
                void *p = c->pool.cache[i].p;
                c->pool.cache[i].p = NULL;
                c->pool.cached_bytes -= bytes;
                if (zero) memset(p, 0, bytes);
                return p;
            }
    return zero ? calloc(bytes, 1) : malloc(bytes);
}

/* Frees p, or keeps it in c's cache for the next buffer of its size (not once c's owner has let go). */
static void data_free(TenCtx *c, void *p, size_t bytes) {
    if (!p) return;
    if (!c->closed && bytes >= CACHE_MIN_BYTES && bytes <= CACHE_MAX_BYTES) {
        TenCacheSlot *cache = c->pool.cache;
        int slot = -1;
        for (int i = 0; i < TEN_CACHE_SLOTS && slot < 0; i++) if (!cache[i].p) slot = i;
        /* full: drop the oldest-looking (slot 0) and shift */
        if (slot < 0) { free(cache[0].p); c->pool.cached_bytes -= cache[0].bytes; memmove(cache, cache + 1, sizeof cache[0] * (TEN_CACHE_SLOTS - 1)); slot = TEN_CACHE_SLOTS - 1; cache[slot].p = NULL; }
        while (c->pool.cached_bytes + bytes > CACHE_MAX_BYTES) {
            int big = -1;
            for (int i = 0; i < TEN_CACHE_SLOTS; i++) if (cache[i].p && (big < 0 || cache[i].bytes > cache[big].bytes)) big = i;
            if (big < 0) break;
            free(cache[big].p);
            c->pool.cached_bytes -= cache[big].bytes;
            cache[big].p = NULL;
        }
        cache[slot].p = p;
        cache[slot].bytes = bytes;
        c->pool.cached_bytes += bytes;
        return;
    }
    free(p);
}


/* The shared buffer behind a tensor and its views. Its bytes are what ten_live_bytes counts. */
struct TenStorage {
    int refs;                 /* views alive on it */
    int64_t bytes;
    void *base;               /* small storages: their own inline bytes (SmallStorage) */
    TenCtx *ctx;              /* the context it was made in: counts its bytes, keeps its memory for reuse */
    int64_t version;          /* writes in place so far (ten_version): what autograd's saved tensors check */
};

/* A write counter of a tensor's own (x.data) and of the views made of it; the rest count in their storage. */
struct TenVersion {
    int refs;                 /* handles using it */
    int64_t version;
};

/* ---- free lists for small tensors ----
 * A statement's fixed cost: `x + y` at (2, 4) spent a third of its time in malloc/free for the result's handle,
 * storage and data. Handles (Tensor) and small storages, whose data of at most SMALL_BYTES sits right after their
 * header, are kept on free lists for the next tensor instead (at most POOL_MAX of each, so a freed million-element
 * list gives its memory back). new_tensor/ten_view_of take from them and ten_free gives back, to the storage's
 * context (TenCtx.pool): the one path. The allocator belongs to the main thread (parallel.h), so the lists need no
 * lock. Off in sanitizer builds, so that ASan still sees every use after free. */
#define SMALL_BYTES 64
#define POOL_MAX 256
typedef struct SmallStorage {
    TenStorage h;
    _Alignas(16) unsigned char data[SMALL_BYTES];
} SmallStorage;
typedef union PoolItem { union PoolItem *next; Tensor t; SmallStorage s; } PoolItem;
#ifdef TEN_CHECKS
#define POOLED 0
#else
#define POOLED 1
#endif

static void *pool_take(void **list, int *n, size_t bytes) {
    PoolItem *p = *list;
    if (!POOLED || !p) return xmalloc(bytes);
    *list = p->next;
    (*n)--;
    return p;
}

/* Keeps p on the list of c (a free list of c->pool), or frees it once c's owner has let go. */
static void pool_give(TenCtx *c, void **list, int *n, void *p) {
    if (!POOLED || c->closed || *n >= POOL_MAX) { free(p); return; }
    PoolItem *it = p;
    it->next = *list;
    *list = it;
    (*n)++;
}

static void pool_drain(void **list, int *n) {
    while (*list) { PoolItem *p = *list; *list = p->next; free(p); }
    *n = 0;
}

/* Frees every buffer, handle and small storage c keeps for reuse. */
static void pool_release(TenCtx *c) {
    for (int i = 0; i < TEN_CACHE_SLOTS; i++) { free(c->pool.cache[i].p); c->pool.cache[i].p = NULL; }
    c->pool.cached_bytes = 0;
    pool_drain(&c->pool.handles, &c->pool.nhandles);
    pool_drain(&c->pool.small, &c->pool.nsmall);
}

void ten_release_cache(TenCtx *c) { pool_release(c); }

static Tensor *handle_new(TenCtx *c) {
    Tensor *t = pool_take(&c->pool.handles, &c->pool.nhandles, sizeof(Tensor));
    memset(t, 0, sizeof *t);
    return t;
}

static Tensor *new_tensor(TenCtx *c, DType dt, int ndim, const int64_t *shape, bool zero);

Tensor *ten_new_in(TenCtx *c, DType dt, int ndim, const int64_t *shape) { return new_tensor(c, dt, ndim, shape, true); }
Tensor *ten_new_uninit_in(TenCtx *c, DType dt, int ndim, const int64_t *shape) {
    return new_tensor(c, dt, ndim, shape, false);
}

TenCtx *ten_ctx_of(const Tensor *t) { return t->storage->ctx; }

/* Allocates a tensor in c, counted against c's limits; NULL with the error in c (ten_error). */
static Tensor *new_tensor(TenCtx *c, DType dt, int ndim, const int64_t *shape, bool zero) {
    if (ndim < 0 || ndim > TEN_MAX_DIMS) {
        ten_fail_in(c, "tensors have at most %d dimensions, not %d", TEN_MAX_DIMS, ndim);
        return NULL;
    }
    /* the product of the sizes, and of the nonzero ones (the strides: (2**40, 2**40, 0) holds nothing, but its
     * strides would overflow), both saturating past the limit */
    int64_t numel = 1, span = 1;
    bool empty = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            ten_fail_in(c, "negative dimension %lld in a shape", (long long)shape[i]);
            return NULL;
        }
        if (shape[i] == 0) empty = true;
        else if (span > c->limit_numel / shape[i]) span = c->limit_numel + 1;
        else span *= shape[i];
    }
    numel = empty ? 0 : span;
    if (span > c->limit_numel) {
        char s[160];
        ten_shape_str(shape, ndim, s, sizeof s);
        ten_fail_in(c, "a tensor of shape %s is too large: attn holds at most %lld elements per tensor", s,
                 (long long)c->limit_numel);
        return NULL;
    }
    int64_t bytes = (numel ? numel : 1) * (int64_t)ten_dtype_size(dt);
    if (bytes > ten_room(c)) {
        char live[32], need[32], lim[160];
        ten_bytes_str(c->live_bytes, live, sizeof live);
        ten_bytes_str(bytes, need, sizeof need);
        ten_limit_note(c, lim, sizeof lim);
        ten_fail_in(c, "out of tensor memory: the tensors alive now take %s and this one needs %s more (%s): "
                 "delete some (del NAME) or use smaller sizes", live, need, lim);
        return NULL;
    }
    TenStorage *st;
    void *data;
    if (bytes <= SMALL_BYTES) {
        SmallStorage *ss = pool_take(&c->pool.small, &c->pool.nsmall, sizeof(SmallStorage));
        if (zero) memset(ss->data, 0, (size_t)bytes);
        st = &ss->h;
        data = ss->data;
    } else {
        data = data_alloc(c, (size_t)bytes, zero);
        if (!data) {
            ten_fail_in(c, "not enough memory for %lld elements", (long long)numel);
            return NULL;
        }
        st = xmalloc(sizeof *st);
    }
    st->refs = 1;
    st->bytes = bytes;
    st->base = data;
    st->version = 0;
    st->ctx = c;
    c->refs++;
    Tensor *t = handle_new(c);
    t->dtype = dt;
    t->ndim = ndim;
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        t->shape[i] = shape[i];
        t->stride[i] = s;
        s *= shape[i] > 1 ? shape[i] : 1;
    }
    t->numel = numel;
    t->contiguous = true;
    t->storage = st;
    t->data = data;
    c->live_bytes += bytes;
    return t;
}

/* A new handle on t's storage (internal: ten_view_of fills in the layout). */
Tensor *ten_view_of(const Tensor *t, int ndim, const int64_t *shape, const int64_t *stride, int64_t offset) {
    Tensor *v = handle_new(t->storage->ctx);
    v->dtype = t->dtype;
    v->ndim = ndim;
    v->numel = 1;
    for (int i = 0; i < ndim; i++) {
        v->shape[i] = shape[i];
        v->stride[i] = stride[i];
        v->numel *= shape[i];
    }
    v->offset = offset;
    v->storage = t->storage;
    v->storage->refs++;
    v->ver = t->ver;
    if (v->ver) v->ver->refs++;
    v->data = (char *)t->storage->base + offset * (int64_t)ten_dtype_size(t->dtype);
    v->contiguous = ten_compute_contiguous(v);
    return v;
}

bool ten_same_storage(const Tensor *a, const Tensor *b) { return a->storage == b->storage; }

static int64_t *version_of(const Tensor *t) { return t->ver ? &t->ver->version : &t->storage->version; }
int64_t ten_version(const Tensor *t) { return *version_of(t); }
void ten_bump_version(Tensor *t) { (*version_of(t))++; }
void ten_version_restore(Tensor *t, int64_t v) { *version_of(t) = v; }

Tensor *ten_alias_new_version(const Tensor *t) {
    Tensor *a = ten_alias(t);
    if (!a) return NULL;
    if (a->ver) a->ver->refs--;               /* a had taken a reference on t's counter: drop it */
    a->ver = xmalloc(sizeof *a->ver);
    a->ver->refs = 1;
    a->ver->version = 0;
    return a;
}

/* Gives the handle back, and with the storage's last view its bytes, to the context the storage was made in. */
bool ten_sole_owner(const Tensor *t) {
    return t->storage && t->storage->refs == 1 && !t->ver && t->contiguous && t->offset == 0 &&
           t->storage->bytes == t->numel * (int64_t)ten_dtype_size(t->dtype);
}

void ten_free(Tensor *t) {
    if (!t) return;
    TenStorage *st = t->storage;
    if (t->ver && --t->ver->refs == 0) free(t->ver);
    TenCtx *c = st->ctx;
    pool_give(c, &c->pool.handles, &c->pool.nhandles, t);
    if (--st->refs == 0) {
        c->live_bytes -= st->bytes;
        if (st->bytes <= SMALL_BYTES) pool_give(c, &c->pool.small, &c->pool.nsmall, st);
        else {
            data_free(c, st->base, (size_t)st->bytes);
            free(st);
        }
        ctx_unref(c);
    }
}

#ifdef TEN_CHECKS
void ten_check_contiguous(const Tensor *t, const char *fn) {
    if (t->contiguous) return;
    err_print("attn: internal error: %s() of a non-contiguous tensor (take it through ten_as_contiguous)\n", fn);
    abort();
}
void ten_check_dtype(const Tensor *t, int dt, const char *fn) {
    if ((int)t->dtype == dt) return;
    err_print("attn: internal error: %s() of a %s tensor (convert it at the builtin boundary: arg_tensor_as)\n",
              fn, ten_dtype_name(t->dtype));
    abort();
}
#endif

Tensor *ten_scalar_f_in(TenCtx *c, float v) {
    Tensor *t = ten_new_in(c, DT_F32, 0, NULL);
    if (t) ten_f32(t)[0] = v;
    return t;
}
Tensor *ten_scalar_d_in(TenCtx *c, double v) {
    Tensor *t = ten_new_in(c, DT_F64, 0, NULL);
    if (t) ten_f64(t)[0] = v;
    return t;
}
Tensor *ten_scalar_i_in(TenCtx *c, int64_t v) {
    Tensor *t = ten_new_in(c, DT_I64, 0, NULL);
    if (t) ten_i64(t)[0] = v;
    return t;
}

/* Storage element (relative to data) of row-major element i. */
static inline int64_t elem_offset(const Tensor *t, int64_t i) {
    if (t->contiguous) return i;
    int64_t off = 0;
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d];
        off += (i % n) * t->stride[d];
        i /= n;
    }
    return off;
}

double ten_get(const Tensor *t, int64_t i) {
    int64_t k = elem_offset(t, i);
    switch (t->dtype) {
    case DT_F32: return ((const float *)t->data)[k];
    case DT_F64: return ((const double *)t->data)[k];
    case DT_I64: return (double)((const int64_t *)t->data)[k];
    case DT_BOOL: return ((const uint8_t *)t->data)[k];
    }
    return 0;
}
int64_t ten_get_i64(const Tensor *t, int64_t i) {
    int64_t k = elem_offset(t, i);
    switch (t->dtype) {
    case DT_F32: return (int64_t)((const float *)t->data)[k];
    case DT_F64: return (int64_t)((const double *)t->data)[k];
    case DT_I64: return ((const int64_t *)t->data)[k];
    case DT_BOOL: return ((const uint8_t *)t->data)[k];
    }
    return 0;
}
void ten_set(Tensor *t, int64_t i, double v) {
    int64_t k = elem_offset(t, i);
    switch (t->dtype) {
    case DT_F32: ((float *)t->data)[k] = (float)v; break;
    case DT_F64: ((double *)t->data)[k] = v; break;
    case DT_I64: ((int64_t *)t->data)[k] = (int64_t)v; break;
    case DT_BOOL: ((uint8_t *)t->data)[k] = v != 0; break;
    }
}

Tensor *ten_full_in(TenCtx *c, DType dt, int ndim, const int64_t *shape, double v) {
    Tensor *t = ten_new_in(c, dt, ndim, shape);
    if (!t || v == 0) return t;
    for (int64_t i = 0; i < t->numel; i++) ten_set(t, i, v);
    return t;
}

/* torch.arange: ceil((stop - start) / step) values start + i*step, computed in double, then stored. */
Tensor *ten_arange_in(TenCtx *c, double start, double stop, double step, DType dt) {
    if (step == 0 || !isfinite(start) || !isfinite(stop) || !isfinite(step)) {
        ten_fail_in(c, step == 0 ? "arange: step must be nonzero" : "arange: start, end and step must be finite");
        return NULL;
    }
    double n = ceil((stop - start) / step);
    if (n < 0) n = 0;
    if (n > (double)c->limit_numel) {
        ten_fail_in(c, "arange(%g, %g, %g) would have %.0f elements: attn holds at most %lld per tensor", start, stop,
                 step, n, (long long)c->limit_numel);
        return NULL;
    }
    int64_t len = (int64_t)n;
    Tensor *t = ten_new_in(c, dt, 1, &len);
    if (!t) return NULL;
    for (int64_t i = 0; i < len; i++) ten_set(t, i, start + (double)i * step);
    return t;
}

/* torch.linspace as PyTorch's CPU kernel (RangeFactoriesKernel.cpp) computes it, in the result dtype: step =
 * (end - start) / (steps - 1); the first half counts up from start, the second half down from end, so both
 * ends are exact. (PyTorch's vectorised loop rounds a few elements of long float32 ranges differently, by an ulp.) */
Tensor *ten_linspace_in(TenCtx *c, double start, double stop, int64_t steps, DType dt) {
    if (steps < 0) { ten_fail_in(c, "number of steps must be non-negative"); return NULL; }
    Tensor *t = ten_new_in(c, dt, 1, &steps);
    if (!t || steps == 0) return t;
    if (steps == 1) { ten_set(t, 0, start); return t; }      /* PyTorch fills start (linspace_out) */
    int64_t half = steps / 2;
    if (dt == DT_F32) {
        float a = (float)start, b = (float)stop, step = steps > 1 ? (b - a) / (float)(steps - 1) : 0;
        for (int64_t i = 0; i < steps; i++) ten_f32(t)[i] = i < half ? a + step * (float)i : b - step * (float)(steps - 1 - i);
        return t;
    }
    double step = steps > 1 ? (stop - start) / (double)(steps - 1) : 0;
    for (int64_t i = 0; i < steps; i++)
        ten_set(t, i, i < half ? start + step * (double)i : stop - step * (double)(steps - 1 - i));
    return t;
}

/* t[i] = v; an int64 t gets INT64_MIN for a v beyond its range (x86's cvttsd2si, what PyTorch prints), not C's
 * undefined conversion. */
static void logspace_put(Tensor *t, int64_t i, double v) {
    if (t->dtype == DT_I64 && !(v > -0x1p63 && v < 0x1p63)) ten_i64(t)[i] = INT64_MIN;
    else ten_set(t, i, v);
}

/* logspace(start, stop, steps, base): base ** linspace(start, stop, steps), computed as PyTorch 1.13's CPU kernel
 * (RangeFactories.cpp) does so the digits match: float dtypes round start and stop to the dtype, step in double,
 * the first half counted up from start and the second down from stop, base ** x in double (int64: truncated);
 * steps == 1 is base ** start. A new 1-dim tensor, or NULL with c's error. */
Tensor *ten_logspace_in(TenCtx *c, double start, double stop, int64_t steps, double base, DType dt) {
    if (steps < 0) { ten_fail_in(c, "number of steps must be non-negative"); return NULL; }
    Tensor *t = ten_new_in(c, dt, 1, &steps);
    if (!t || steps == 0) return t;
    if (steps == 1) { logspace_put(t, 0, pow(base, start)); return t; }
    int64_t half = steps / 2;
    double a0 = start, a1 = stop;                 /* start.to<scalar_t>() */
    if (dt == DT_F32) { a0 = (float)start; a1 = (float)stop; }
    if (dt == DT_I64) { a0 = (double)(int64_t)start; a1 = (double)(int64_t)stop; }
    double step = (dt == DT_F32 ? (double)((float)a1 - (float)a0) : a1 - a0) / (double)(steps - 1);
    for (int64_t i = 0; i < steps; i++)
        logspace_put(t, i, pow(base, i < half ? a0 + step * (double)i : a1 - step * (double)(steps - i - 1)));
    return t;
}

Tensor *ten_eye_in(TenCtx *c, int64_t n, int64_t m, DType dt) {
    int64_t sh[2] = {n, m};
    Tensor *t = ten_new_in(c, dt, 2, sh);
    if (!t) return NULL;
    for (int64_t i = 0; i < n && i < m; i++) ten_set(t, i * m + i, 1);
    return t;
}

Tensor *ten_copy(const Tensor *t) {
    Tensor *c = ten_new_uninit_in(ten_ctx_of(t), t->dtype, t->ndim, t->shape);
    if (!c) return NULL;
    ten_strided_copy(c, t);
    return c;
}

/* float -> int64 truncates toward zero like PyTorch; NaN and out-of-range values become 0 instead of UB. */
static int64_t f_to_i64(double v) {
    if (!(v > -9.2e18 && v < 9.2e18)) return 0;
    return (int64_t)v;
}

Tensor *ten_cast(const Tensor *t, DType dt) {
    if (dt == t->dtype) return ten_copy(t);
    Tensor *tmp;
    const Tensor *s = ten_as_contiguous(t, &tmp);
    if (!s) return NULL;
    Tensor *c = ten_new_uninit_in(ten_ctx_of(t), dt, t->ndim, t->shape);
    if (!c) { ten_free(tmp); return NULL; }
    int64_t n = t->numel;
    if (dt == DT_I64 && ten_is_float(s->dtype)) {
        for (int64_t i = 0; i < n; i++) ten_i64(c)[i] = f_to_i64(ten_get(s, i));
    } else if (dt == DT_BOOL) {
        for (int64_t i = 0; i < n; i++) ten_b8(c)[i] = ten_get(s, i) != 0;
    } else {
        for (int64_t i = 0; i < n; i++) ten_set(c, i, ten_get(s, i));
    }
    ten_free(tmp);
    return c;
}

bool ten_same_shape(const Tensor *a, const Tensor *b) {
    if (a->ndim != b->ndim) return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i]) return false;
    return true;
}

/* tensor_reduce.c - reductions over one dim or all, softmax (§11.3 uses it along the last dim), cumsum.
 *
 * Reductions read their input through its strides (no contiguous copy) and compute each result element in a fixed
 * order: float32 sums and means in PyTorch's own order (sum_f32_pytorch), other sums and products in double from
 * the first element to the last, so results are the same on every machine and for any thread count. Results are spread over the threads; a reduction to one value (X.sum())
 * cuts its input into fixed blocks of REDUCE_BLOCK elements, reduces them on the threads and combines the blocks
 * in order. softmax follows PyTorch's order and functions (vecmath.c), so its digits are PyTorch's. */
#include "tensor_internal.h"
#include "parallel.h"
#include "vecmath.h"
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define REDUCE_BLOCK ((int64_t)1 << 18)

static void split_dims(const Tensor *t, int d, int64_t *outer, int64_t *n, int64_t *inner) {
    *outer = 1; *inner = 1; *n = t->ndim ? t->shape[d] : 1;
    for (int i = 0; i < d; i++) *outer *= t->shape[i];
    for (int i = d + 1; i < t->ndim; i++) *inner *= t->shape[i];
}

static DType reduce_dtype(RedOp op, DType in) {
    switch (op) {
    case RED_ARGMAX: case RED_ARGMIN: return DT_I64;
    case RED_MEAN: case RED_STD: case RED_VAR: return in;     /* floats only: ten_reduce refuses the others */
    case RED_ANY: case RED_ALL: return DT_BOOL;
    case RED_SUM: case RED_PROD: return in == DT_BOOL ? DT_I64 : in;
    default: return in;
    }
}

static const char *red_name(RedOp op) {
    static const char *names[] = {"sum", "mean", "max", "min", "argmax", "argmin", "prod", "std", "var", "any", "all"};
    return names[op];
}

/* A strided walk: dims (outermost first) with their strides, enumerated in row-major order. */
typedef struct Walk {
    int nd;
    int64_t shape[TEN_MAX_DIMS], stride[TEN_MAX_DIMS];
    int64_t n;                                       /* product of shape */
} Walk;

/* The walk over t's dims selected by keep (keep[i] == want), merged where contiguous in t. */
static void walk_of(const Tensor *t, const bool *keep, bool want, Walk *w) {
    w->nd = 0;
    w->n = 1;
    for (int i = 0; i < t->ndim; i++) {
        if (keep[i] != want || t->shape[i] == 1) continue;
        if (w->nd && w->stride[w->nd - 1] == t->stride[i] * t->shape[i]) {
            w->shape[w->nd - 1] *= t->shape[i];
            w->stride[w->nd - 1] = t->stride[i];
        } else {
            w->shape[w->nd] = t->shape[i];
            w->stride[w->nd] = t->stride[i];
            w->nd++;
        }
        w->n *= t->shape[i];
    }
}

/* Storage offset (in elements, from t->data) of the walk's k-th position. */
static int64_t walk_offset(const Walk *w, int64_t k) {
    int64_t off = 0;
    for (int d = w->nd - 1; d >= 0; d--) { off += (k % w->shape[d]) * w->stride[d]; k /= w->shape[d]; }
    return off;
}

/* What one reduction has seen so far. */
typedef struct Acc {
    double sum, prod, best;
    int64_t besti, isum, iprod, count;
    bool any, all;
} Acc;

static void acc_init(Acc *a) { *a = (Acc){.prod = 1, .iprod = 1, .all = true, .besti = -1}; }

typedef struct RedJob {
    RedOp op;
    const Tensor *t;
    Walk out, red;                                   /* kept positions (one per result), reduced positions */
} RedJob;

static inline double elem(const Tensor *t, int64_t off) {
    switch (t->dtype) {
    case DT_F32: return ((const float *)t->data)[off];
    case DT_F64: return ((const double *)t->data)[off];
    case DT_I64: return (double)((const int64_t *)t->data)[off];
    default: return ((const uint8_t *)t->data)[off];
    }
}
static inline int64_t elem_i(const Tensor *t, int64_t off) {
    return t->dtype == DT_I64 ? ((const int64_t *)t->data)[off] : t->dtype == DT_BOOL ? ((const uint8_t *)t->data)[off] : 0;
}

/* Accumulates reduced positions [k0, k1) from base (an offset of the result's position) into a. mean is used by
 * std/var's second pass (sum of squared deviations into a->sum). */
static void acc_range(const RedJob *J, int64_t base, int64_t k0, int64_t k1, Acc *a, bool squares, double mean) {
    const Tensor *t = J->t;
    const Walk *w = &J->red;
    RedOp op = J->op;
    int64_t inner_n = w->nd ? w->shape[w->nd - 1] : 1, inner_s = w->nd ? w->stride[w->nd - 1] : 0;
    for (int64_t k = k0; k < k1;) {
        int64_t j0 = k % inner_n, len = inner_n - j0 < k1 - k ? inner_n - j0 : k1 - k;
        int64_t off = base + walk_offset(w, k);
        for (int64_t j = 0; j < len; j++, off += inner_s) {
            double x = elem(t, off);
            int64_t pos = k + j;
            if (squares) { double dx = x - mean; a->sum += dx * dx; continue; }
            switch (op) {
            case RED_SUM: case RED_MEAN: case RED_STD: case RED_VAR:
                a->sum += x;
                if (!ten_is_float(t->dtype)) a->isum = (int64_t)((uint64_t)a->isum + (uint64_t)elem_i(t, off));
                break;
            case RED_PROD:
                a->prod *= x;
                if (!ten_is_float(t->dtype)) a->iprod = (int64_t)((uint64_t)a->iprod * (uint64_t)elem_i(t, off));
                break;
            case RED_MAX: case RED_ARGMAX:
                if (a->besti < 0 || x > a->best || (isnan(x) && !isnan(a->best))) { a->best = x; a->besti = pos; }
                break;
            case RED_MIN: case RED_ARGMIN:
                if (a->besti < 0 || x < a->best || (isnan(x) && !isnan(a->best))) { a->best = x; a->besti = pos; }
                break;
            case RED_ANY: if (x != 0) a->any = true; break;
            case RED_ALL: if (x == 0) a->all = false; break;
            }
        }
        a->count += len;
        k += len;
    }
}

/* b (the later block) into a (the earlier), as one sequential pass over both would have left it. */
static void acc_merge(RedOp op, Acc *a, const Acc *b) {
    a->sum += b->sum;
    a->prod *= b->prod;
    a->isum = (int64_t)((uint64_t)a->isum + (uint64_t)b->isum);
    a->iprod = (int64_t)((uint64_t)a->iprod * (uint64_t)b->iprod);
    a->any = a->any || b->any;
    a->all = a->all && b->all;
    a->count += b->count;
    if (b->besti >= 0) {
        bool better = op == RED_MAX || op == RED_ARGMAX ? b->best > a->best : b->best < a->best;
        if (a->besti < 0 || better || (isnan(b->best) && !isnan(a->best))) { a->best = b->best; a->besti = b->besti; }
    }
}

/* Writes the result of position o from its accumulator (and, for std/var, the squares in sq). */
static void acc_store(const RedJob *J, Tensor *out, int64_t o, const Acc *a, const Acc *sq, int64_t base) {
    RedOp op = J->op;
    const Tensor *t = J->t;
    int64_t n = J->red.n;
    bool exact_int = !ten_is_float(t->dtype) && (op == RED_SUM || op == RED_PROD);
    double r = a->sum;
    switch (op) {
    case RED_ARGMAX: case RED_ARGMIN: ((int64_t *)out->data)[o] = a->besti; return;
    case RED_MEAN: r = n ? a->sum / (double)n : NAN; break;
    case RED_STD: case RED_VAR:
        r = n > 1 ? sq->sum / (double)(n - 1) : NAN;       /* unbiased, as torch.std/var default */
        if (op == RED_STD) r = sqrt(r);
        break;
    case RED_PROD: r = a->prod; break;
    case RED_MAX: case RED_MIN:
        if (!ten_is_float(t->dtype)) {                     /* the element itself, exactly */
            int64_t v = elem_i(t, base + walk_offset(&J->red, a->besti));
            if (out->dtype == DT_I64) ((int64_t *)out->data)[o] = v;
            else ((uint8_t *)out->data)[o] = v != 0;
            return;
        }
        r = a->best;
        break;
    case RED_ANY: r = a->any; break;
    case RED_ALL: r = a->all; break;
    default: break;
    }
    if (exact_int) { ((int64_t *)out->data)[o] = op == RED_PROD ? a->iprod : a->isum; return; }
    switch (out->dtype) {
    case DT_F32: ((float *)out->data)[o] = (float)r; break;
    case DT_F64: ((double *)out->data)[o] = r; break;
    case DT_I64: ((int64_t *)out->data)[o] = (int64_t)r; break;
    default: ((uint8_t *)out->data)[o] = r != 0; break;
    }
}

typedef struct RedRun {
    const RedJob *J;
    Tensor *out;
    Acc *blocks;                  /* one-result reductions: one accumulator per block */
    bool squares;
    double mean;
} RedRun;

/* Results [begin, end), each reduced from first to last element. */
static void red_results(void *ctx, int64_t begin, int64_t end) {
    RedRun *R = ctx;
    const RedJob *J = R->J;
    for (int64_t o = begin; o < end && !ten_interrupted; o++) {
        int64_t base = walk_offset(&J->out, o);
        Acc a, sq;
        acc_init(&a);
        acc_range(J, base, 0, J->red.n, &a, false, 0);
        acc_init(&sq);
        if (J->op == RED_STD || J->op == RED_VAR) acc_range(J, base, 0, J->red.n, &sq, true, a.sum / (double)J->red.n);
        acc_store(J, R->out, o, &a, &sq, base);
    }
}

/* Blocks [begin, end) of the one result's input. */
static void red_blocks(void *ctx, int64_t begin, int64_t end) {
    RedRun *R = ctx;
    for (int64_t b = begin; b < end && !ten_interrupted; b++) {
        int64_t k0 = b * REDUCE_BLOCK, k1 = k0 + REDUCE_BLOCK < R->J->red.n ? k0 + REDUCE_BLOCK : R->J->red.n;
        acc_init(&R->blocks[b]);
        acc_range(R->J, 0, k0, k1, &R->blocks[b], R->squares, R->mean);
    }
}

/* ---- float32 sums in PyTorch's order (aten/src/ATen/native/cpu/SumKernel.cpp: cascade_sum) ----
 *
 * PyTorch adds float32 in float32, in an order that depends on the layout: it walks the reduced dim innermost
 * (the reduced dims by the input's strides, then the kept dims, last one innermost), merges dims it can, and sums a
 * run in chunks of at least 16 whose sums cascade through four levels (multi_row_sum), four interleaved partial sums
 * at a time (row_sum), eight lanes at a time where the run is contiguous. The same order here gives PyTorch's bits,
 * and the digits it prints (1.0000 when the weights of a softmax row add up to 0.99999994, 1. when to exactly 1).
 * This is PyTorch on one thread; its threads split large reductions elsewhere, and their digits then depend on its
 * thread count, as attn's never do. */

static int64_t ceil_log2(int64_t x) { return x <= 1 ? 0 : 64 - __builtin_clzll((uint64_t)(x - 1)); }

/* nrows (<= 4) sums of W (1 or 8) lanes: element (i, k, l) at x[i*row_stride + k*col_stride + l], i < size. */
static void multi_row_sum(const float *x, int64_t row_stride, int64_t col_stride, int64_t size, int nrows, int W,
                          float out[4][8]) {
    enum { LEVELS = 4 };
    int64_t level_power = ceil_log2(size) / LEVELS;
    if (level_power < 4) level_power = 4;
    int64_t level_step = (int64_t)1 << level_power, level_mask = level_step - 1;
    float acc[LEVELS][4][8];
    memset(acc, 0, sizeof acc);
    int64_t i = 0;
    for (; i + level_step <= size;) {
        for (int64_t j = 0; j < level_step; j++, i++)
            for (int k = 0; k < nrows; k++)
                for (int l = 0; l < W; l++) acc[0][k][l] += x[i * row_stride + k * col_stride + l];
        for (int j = 1; j < LEVELS; j++) {
            for (int k = 0; k < nrows; k++)
                for (int l = 0; l < W; l++) { acc[j][k][l] += acc[j - 1][k][l]; acc[j - 1][k][l] = 0; }
            if ((i & (level_mask << (j * level_power))) != 0) break;
        }
    }
    for (; i < size; i++)
        for (int k = 0; k < nrows; k++)
            for (int l = 0; l < W; l++) acc[0][k][l] += x[i * row_stride + k * col_stride + l];
    for (int j = 1; j < LEVELS; j++)
        for (int k = 0; k < nrows; k++)
            for (int l = 0; l < W; l++) acc[0][k][l] += acc[j][k][l];
    for (int k = 0; k < nrows; k++)
        for (int l = 0; l < W; l++) out[k][l] = acc[0][k][l];
}

/* row_sum: the run (size elements of W lanes, stride apart) as (-1, 4), four cascaded partial sums, the leftover
 * into the first, then the four added up. */
static void row_sum(const float *x, int64_t stride, int64_t size, int W, float out[8]) {
    float part[4][8];
    int64_t size_ilp = size / 4;
    multi_row_sum(x, 4 * stride, stride, size_ilp, 4, W, part);
    for (int64_t i = size_ilp * 4; i < size; i++)
        for (int l = 0; l < W; l++) part[0][l] += x[i * stride + l];
    for (int k = 1; k < 4; k++)
        for (int l = 0; l < W; l++) part[0][l] += part[k][l];
    for (int l = 0; l < W; l++) out[l] = part[0][l];
}

/* One loop2d call of cascade_sum: dim 0 (size0, input stride s0) is reduced; dim 1 (size1, s1) has output stride
 * o1 (0 when it is reduced too). Adds each sum into out[j * o1]. Strides in elements. */
typedef struct CascadeJob {
    const float *x;
    int64_t size0, s0, size1, s1, o1;
    float *out;
} CascadeJob;

/* Contiguous inner reduction: sums j in [begin, end), each a whole row. */
static void cascade_inner(void *ctx, int64_t begin, int64_t end) {
    const CascadeJob *c = ctx;
    float r[8];
    int64_t vec_size = c->size0 / 8;
    for (int64_t j = begin; j < end; j++) {
        const float *row = c->x + j * c->s1;
        row_sum(row, 8, vec_size, 8, r);
        float final_acc = 0;
        for (int64_t k = vec_size * 8; k < c->size0; k++) final_acc += row[k];
        for (int l = 0; l < 8; l++) final_acc += r[l];
        c->out[j * c->o1] += final_acc;
    }
}

/* Contiguous outer reduction: items [begin, end), item i < size1 / 32 the 32 columns from 32 i (four 8-lane sums side
 * by side), the item after them the columns left (8 at a time, then one at a time): each column summed as one pass
 * over all columns sums it, whichever item holds it. */
static void cascade_outer(void *ctx, int64_t begin, int64_t end) {
    const CascadeJob *c = ctx;
    float v[4][8], r[8];
    int64_t full = c->size1 / 32;
    for (int64_t i = begin; i < end; i++) {
        if (i < full) {
            int64_t j = 32 * i;
            multi_row_sum(c->x + j, c->s0, 8, c->size0, 4, 8, v);
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 8; l++) c->out[(j + 8 * k + l) * c->o1] += v[k][l];
            continue;
        }
        int64_t j = 32 * full;
        for (; j + 8 <= c->size1; j += 8) {
            row_sum(c->x + j, c->s0, c->size0, 8, r);
            for (int l = 0; l < 8; l++) c->out[(j + l) * c->o1] += r[l];
        }
        for (; j < c->size1; j++) { row_sum(c->x + j, c->s0, c->size0, 1, r); c->out[j * c->o1] += r[0]; }
    }
}

/* The contiguous cases run on attn's threads when each result has its own place (o1 != 0), split over results (never
 * over the summed dim), so every sum has the same bits for any thread count: a bias's grad (a (rows, out) grad summed
 * over its rows) and layer norm's row sums. */
static void cascade_2d(TenCtx *ctx, const float *x, int64_t size0, int64_t s0, int64_t size1, int64_t s1, float *out, int64_t o1) {
    float v[4][8], r[8];
    if (size0 == 0 || size1 == 0) return;                         /* an empty sum adds nothing (and no work to split) */
    CascadeJob c = {x, size0, s0, size1, s1, o1, out};
    if (s0 == 1 && size0 >= 8) {                                   /* contiguous inner reduction */
        if (o1 != 0) par_for(ctx, size1, (1 << 15) / size0 + 1, cascade_inner, &c);
        else cascade_inner(&c, 0, size1);
    } else if (s1 == 1 && size1 >= 8) {                            /* contiguous outer reduction */
        int64_t items = size1 / 32 + (size1 % 32 != 0);
        if (o1 != 0) par_for(ctx, items, (1 << 15) / (32 * size0) + 1, cascade_outer, &c);
        else cascade_outer(&c, 0, items);
    } else if (s0 < s1) {                                          /* scalar inner */
        for (int64_t j = 0; j < size1; j++) { row_sum(x + j * s1, s0, size0, 1, r); out[j * o1] += r[0]; }
    } else {                                                       /* scalar outer */
        int64_t j = 0;
        for (; j + 3 < size1; j += 4) {
            multi_row_sum(x + j * s1, s0, s1, size0, 4, 1, v);
            for (int k = 0; k < 4; k++) out[(j + k) * o1] += v[k][0];
        }
        for (; j < size1; j++) { row_sum(x + j * s1, s0, size0, 1, r); out[j * o1] += r[0]; }
    }
}

/* One contiguous float32 row's sum (n elements) in PyTorch's order: what x.sum(-1) gives that row. */
float ten_sum_row_f32(const float *x, int64_t n) {
    float out = 0;
    if (n >= 8) {
        CascadeJob c = {x, n, 1, 1, 0, 1, &out};
        cascade_inner(&c, 0, 1);
    } else {
        float r[8];
        row_sum(x, 1, n, 1, r);
        out += r[0];
    }
    return out;
}

/* sum (or mean: the float32 sum divided by the count) of float32 t over the dims flagged in reduced, into the
 * contiguous float32 o, in PyTorch's order (above). */
static void sum_f32_pytorch(const Tensor *t, const bool *reduced, bool mean, Tensor *o) {
    /* the result's strides over t's dims: 0 for reduced dims, row-major over the kept ones */
    int64_t ostride[TEN_MAX_DIMS], st = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        ostride[i] = reduced[i] ? 0 : st;
        if (!reduced[i]) st *= t->shape[i];
    }
    /* TensorIterator's order: reduced dims first (by the input's strides), then kept dims (by the result's) */
    int order[TEN_MAX_DIMS], n = 0;
    for (int i = t->ndim - 1; i >= 0; i--) if (t->shape[i] != 1) order[n++] = i;
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0; b--) {
            int x = order[b - 1], y = order[b];
            bool swap;
            if (reduced[x] != reduced[y]) swap = reduced[y];
            else if (reduced[x]) swap = t->stride[x] > t->stride[y] || (t->stride[x] == t->stride[y] && t->shape[x] > t->shape[y]);
            else swap = ostride[x] > ostride[y];
            if (!swap) break;
            order[b - 1] = y; order[b] = x;
        }
    /* merge dims that both operands step through as one */
    int64_t sz[TEN_MAX_DIMS], is[TEN_MAX_DIMS], os[TEN_MAX_DIMS];
    int m = 0;
    for (int a = 0; a < n; a++) {
        int i = order[a];
        if (m && is[m - 1] * sz[m - 1] == t->stride[i] && os[m - 1] * sz[m - 1] == ostride[i]) { sz[m - 1] *= t->shape[i]; continue; }
        sz[m] = t->shape[i]; is[m] = t->stride[i]; os[m] = ostride[i]; m++;
    }
    float *out = ten_f32(o);
    memset(out, 0, sizeof(float) * (size_t)o->numel);
    const float *x = t->data;
    if (m == 0) { out[0] += x[0]; }
    else if (m == 1 && os[0] != 0) {                               /* nothing reduced (a dim of size 1) */
        for (int64_t j = 0; j < sz[0]; j++) out[j * os[0]] += x[j * is[0]];
    } else {
        /* the dims beyond the first two, iterated outside, each call adding into the result */
        int64_t size1 = m > 1 ? sz[1] : 1, s1 = m > 1 ? is[1] : 0, o1 = m > 1 ? os[1] : 0, outer = 1;
        for (int a = 2; a < m; a++) outer *= sz[a];
        for (int64_t c = 0; c < outer; c++) {
            int64_t rem = c, xoff = 0, ooff = 0;
            for (int a = 2; a < m; a++) { int64_t k = rem % sz[a]; rem /= sz[a]; xoff += k * is[a]; ooff += k * os[a]; }
            if (os[0] != 0)                                        /* PyTorch swaps so the reduced dim comes first */
                cascade_2d(ten_ctx_of(t), x + xoff, size1, s1, sz[0], is[0], out + ooff, os[0]);
            else
                cascade_2d(ten_ctx_of(t), x + xoff, sz[0], is[0], size1, s1, out + ooff, o1);
        }
    }
    if (mean) {
        int64_t cnt = 1;
        for (int i = 0; i < t->ndim; i++) if (reduced[i]) cnt *= t->shape[i];
        for (int64_t j = 0; j < o->numel; j++) out[j] /= (float)cnt;
    }
}

Tensor *ten_reduce(RedOp op, const Tensor *t, bool all, int dim, bool keepdim) {
    if (op == RED_MEAN && !ten_is_float(t->dtype)) {
        ten_fail_in(ten_ctx_of(t), "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
                 "Got: %s", ten_dtype_word(t->dtype));
        return NULL;
    }
    if ((op == RED_STD || op == RED_VAR) && !ten_is_float(t->dtype)) {
        ten_fail_in(ten_ctx_of(t), "std and var only support floating point and complex dtypes");
        return NULL;
    }
    int64_t shape[TEN_MAX_DIMS];
    int nd = 0, d = 0;
    bool reduced[TEN_MAX_DIMS] = {false};
    if (all) {
        for (int i = 0; i < t->ndim; i++) reduced[i] = true;
        if (keepdim) { nd = t->ndim; for (int i = 0; i < nd; i++) shape[i] = 1; }
    } else {
        d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
        if (d < 0) return NULL;
        if (t->ndim) reduced[d] = true;
        for (int i = 0; i < t->ndim; i++) {
            if (i == d) { if (keepdim) shape[nd++] = 1; }
            else shape[nd++] = t->shape[i];
        }
    }
    RedJob J = {.op = op, .t = t};
    walk_of(t, reduced, false, &J.out);
    walk_of(t, reduced, true, &J.red);
    int64_t n = J.red.n;
    if (n == 0 && (op == RED_MAX || op == RED_MIN || op == RED_ARGMAX || op == RED_ARGMIN)) {
        ten_fail_in(ten_ctx_of(t), "%s() of an empty tensor: the reduced dimension has size 0", red_name(op));
        return NULL;
    }
    Tensor *o = ten_new_in(ten_ctx_of(t), reduce_dtype(op, t->dtype), nd, shape);
    if (!o || o->numel == 0) return o;
    if (t->dtype == DT_F32 && (op == RED_SUM || op == RED_MEAN)) {
        sum_f32_pytorch(t, reduced, op == RED_MEAN, o);
        return o;
    }
    RedRun R = {&J, o, NULL, false, 0};
    if (o->numel == 1 && n >= 2 * REDUCE_BLOCK) {
        /* one result from many elements: fixed blocks on the threads, combined in order */
        int64_t nb = (n + REDUCE_BLOCK - 1) / REDUCE_BLOCK;
        R.blocks = malloc(sizeof(Acc) * (size_t)nb);
        if (!R.blocks) { ten_free(o); ten_fail_in(ten_ctx_of(t), "out of memory for a reduction"); return NULL; }
        par_for(ten_ctx_of(t), nb, 1, red_blocks, &R);
        Acc a = R.blocks[0], sq;
        for (int64_t b = 1; b < nb; b++) acc_merge(op, &a, &R.blocks[b]);
        acc_init(&sq);
        if (op == RED_STD || op == RED_VAR) {
            R.squares = true;
            R.mean = a.sum / (double)n;
            par_for(ten_ctx_of(t), nb, 1, red_blocks, &R);
            sq = R.blocks[0];
            for (int64_t b = 1; b < nb; b++) acc_merge(op, &sq, &R.blocks[b]);
        }
        acc_store(&J, o, 0, &a, &sq, 0);
        free(R.blocks);
    } else {
        int64_t per = n > 0 ? n : 1;
        par_for(ten_ctx_of(t), o->numel, per >= 32768 ? 1 : 32768 / per, red_results, &R);
    }
    if (ten_interrupted) { ten_free(o); ten_fail_interrupted(ten_ctx_of(t)); return NULL; }
    return o;
}

/* ---- softmax ---- */

typedef struct SoftmaxJob {
    const Tensor *t;
    float *out;                   /* contiguous, t's shape */
    int64_t n, inner;             /* along dim; elements after it */
    Walk rows;                    /* the positions of every (outer, inner) start, row-major */
    int64_t step;                 /* stride of dim in t */
    bool log_form;                /* float64 only: log_softmax */
    atomic_int failed;            /* a thread found no memory for its buffer */
} SoftmaxJob;

/* The last dim: PyTorch's _vec_softmax_lastdim. Rows of stride 1 are read where they lie and written to the output
 * four at a time by vm_softmax_rows_to (max of four rows at once, exp and sum in one pass: the same operations in the
 * same order as vm_softmax_row), or one at a time where four are not evenly spaced in t; a row of another stride is
 * read into a buffer first. */
static void softmax_rows(void *ctx, int64_t begin, int64_t end) {
    SoftmaxJob *J = ctx;
    const float *x = J->t->data;
    if (J->step == 1) {
        for (int64_t r = begin; r < end && !ten_interrupted; r += 4) {
            int64_t k = end - r < 4 ? end - r : 4, off[4];
            for (int64_t i = 0; i < k; i++) off[i] = walk_offset(&J->rows, r + i);
            int64_t ld = k > 1 ? off[1] - off[0] : J->n;
            bool even = true;
            for (int64_t i = 2; i < k; i++) even = even && off[i] - off[i - 1] == ld;
            if (even) vm_softmax_rows_to(x + off[0], ld, J->out + r * J->n, J->n, k, J->n);
            else
                for (int64_t i = 0; i < k; i++) vm_softmax_rows_to(x + off[i], J->n, J->out + (r + i) * J->n, J->n, 1, J->n);
        }
        return;
    }
    float *buf = malloc(sizeof(float) * (size_t)J->n);
    if (!buf) { atomic_store(&J->failed, 1); return; }
    for (int64_t r = begin; r < end && !ten_interrupted; r++) {
        const float *row = x + walk_offset(&J->rows, r);
        for (int64_t k = 0; k < J->n; k++) buf[k] = row[k * J->step];
        vm_softmax_row(buf, J->out + r * J->n, J->n);
    }
    free(buf);
}

/* Another dim: PyTorch's _vec_softmax, which runs 8 inner positions side by side: per position, the maximum and the
 * float sum go in order along dim, and each exp is divided by the sum. The last inner_size % 8 positions of each
 * outer index are PyTorch's scalar tail: the same, with the C library's expf in place of SLEEF's. */
static void softmax_cols(void *ctx, int64_t begin, int64_t end) {
    SoftmaxJob *J = ctx;
    const float *x = J->t->data;
    int64_t vec_end = J->inner - J->inner % 8;
    float *e = malloc(sizeof(float) * (size_t)(J->n ? J->n : 1));
    if (!e) { atomic_store(&J->failed, 1); return; }
    for (int64_t r = begin; r < end && !ten_interrupted; r++) {      /* r = outer * inner + i */
        const float *col = x + walk_offset(&J->rows, r);
        int64_t outer = r / J->inner, i = r % J->inner;
        float *y = J->out + outer * J->n * J->inner + i;
        float m = col[0];
        for (int64_t k = 1; k < J->n; k++) {          /* vec::maximum (NaN wins) in the lanes, std::max in the tail */
            float v = col[k * J->step];
            m = i < vec_end ? (isnan(m) || isnan(v) ? NAN : v > m ? v : m) : (m < v ? v : m);
        }
        for (int64_t k = 0; k < J->n; k++) e[k] = col[k * J->step] - m;
        if (i < vec_end) {
            vm_map(VM_EXP, e, e, J->n);
            float s = 0;
            for (int64_t k = 0; k < J->n; k++) s += e[k];
            for (int64_t k = 0; k < J->n; k++) y[k * J->inner] = e[k] / s;
        } else {
            float s = 0;
            for (int64_t k = 0; k < J->n; k++) { e[k] = expf(e[k]); s += e[k]; }
            for (int64_t k = 0; k < J->n; k++) y[k * J->inner] = e[k] / s;
        }
    }
    free(e);
}

/* log_softmax: max subtracted for stability, the log of a double sum of exps. */
static void log_softmax_cols(void *ctx, int64_t begin, int64_t end) {
    SoftmaxJob *J = ctx;
    const float *x = J->t->data;
    for (int64_t r = begin; r < end && !ten_interrupted; r++) {
        const float *col = x + walk_offset(&J->rows, r);
        int64_t outer = r / J->inner, i = r % J->inner;
        float *y = J->out + outer * J->n * J->inner + i;
        float mx = -INFINITY;
        double sum = 0;
        for (int64_t k = 0; k < J->n; k++) if (col[k * J->step] > mx) mx = col[k * J->step];
        if (isinf(mx) && mx < 0) mx = 0;
        for (int64_t k = 0; k < J->n; k++) sum += exp((double)col[k * J->step] - mx);
        double ls = log(sum);
        for (int64_t k = 0; k < J->n; k++) y[k * J->inner] = (float)((double)col[k * J->step] - mx - ls);
    }
}

/* float64: in double throughout (max, exp, a double sum; softmax divides by it). */
static void softmax_f64(void *ctx, int64_t begin, int64_t end) {
    SoftmaxJob *J = ctx;
    const double *x = J->t->data;
    double *out = (double *)(void *)J->out;
    for (int64_t r = begin; r < end && !ten_interrupted; r++) {
        const double *col = x + walk_offset(&J->rows, r);
        int64_t outer = r / J->inner, i = r % J->inner;
        double *y = out + outer * J->n * J->inner + i, mx = -INFINITY, sum = 0;
        for (int64_t k = 0; k < J->n; k++) if (col[k * J->step] > mx) mx = col[k * J->step];
        if (isinf(mx) && mx < 0) mx = 0;
        for (int64_t k = 0; k < J->n; k++) sum += exp(col[k * J->step] - mx);
        double ls = log(sum);
        for (int64_t k = 0; k < J->n; k++)
            y[k * J->inner] = J->log_form ? col[k * J->step] - mx - ls : exp(col[k * J->step] - mx) / sum;
    }
}

static Tensor *softmax_impl(const Tensor *t, int dim, bool log_form) {
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return NULL;
    if (!ten_is_float(t->dtype)) {
        bool last = d == (t->ndim ? t->ndim - 1 : 0);
        ten_fail_in(ten_ctx_of(t), "\"%s%s_kernel_impl\" not implemented for '%s'", log_form ? "log_softmax" : "softmax", last ? "_lastdim" : "",
                 ten_dtype_word(t->dtype));
        return NULL;
    }
    const Tensor *x = t;
    Tensor *o = ten_new_uninit_in(ten_ctx_of(t), t->dtype, t->ndim, t->shape);
    if (!o) return NULL;
    SoftmaxJob J = {.t = x, .out = (float *)o->data, .log_form = log_form};
    int64_t outer;
    split_dims(x, d, &outer, &J.n, &J.inner);
    J.step = x->ndim ? x->stride[d] : 1;
    /* the rows walk: every dim but d, in order (not merged across d, whose positions it skips) */
    J.rows.nd = 0;
    J.rows.n = 1;
    for (int i = 0; i < x->ndim; i++) {
        if (i == d) continue;
        J.rows.shape[J.rows.nd] = x->shape[i];
        J.rows.stride[J.rows.nd++] = x->stride[i];
        J.rows.n *= x->shape[i];
    }
    int64_t nrows = outer * J.inner;
    if (o->numel) {
        vm_level();
        int64_t grain = J.n >= 4096 ? 1 : 4096 / (J.n ? J.n : 1);
        ParFn fn = x->dtype == DT_F64 ? softmax_f64 : log_form ? log_softmax_cols : J.inner == 1 ? softmax_rows : softmax_cols;
        par_for(ten_ctx_of(t), nrows, grain, fn, &J);
    }
    if (ten_interrupted) { ten_free(o); ten_fail_interrupted(ten_ctx_of(t)); return NULL; }
    if (atomic_load(&J.failed)) { ten_free(o); ten_fail_in(ten_ctx_of(t), "out of memory for a row of softmax"); return NULL; }
    return o;
}
Tensor *ten_softmax(const Tensor *t, int dim) { return softmax_impl(t, dim, false); }
void ten_softmax_rows_f32(float *x, int64_t rows, int64_t n) { vm_softmax_rows(x, rows, n, n); }
Tensor *ten_log_softmax(const Tensor *t, int dim) { return softmax_impl(t, dim, true); }

Tensor *ten_cumsum(const Tensor *t, int dim) {
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return NULL;
    Tensor *o = ten_cast(t, t->dtype == DT_BOOL ? DT_I64 : t->dtype);
    if (!o) return NULL;
    int64_t outer, n, inner;
    split_dims(o, d, &outer, &n, &inner);
    for (int64_t a = 0; a < outer; a++)
        for (int64_t c = 0; c < inner; c++) {
            int64_t base = a * n * inner + c;
            if (o->dtype == DT_I64) {
                int64_t acc = 0;
                for (int64_t k = 0; k < n; k++) { acc += ten_i64(o)[base + k * inner]; ten_i64(o)[base + k * inner] = acc; }
            } else if (o->dtype == DT_F64) {
                double acc = 0;
                for (int64_t k = 0; k < n; k++) { acc += ten_f64(o)[base + k * inner]; ten_f64(o)[base + k * inner] = acc; }
            } else {
                double acc = 0;
                for (int64_t k = 0; k < n; k++) { acc += ten_f32(o)[base + k * inner]; ten_f32(o)[base + k * inner] = (float)acc; }
            }
        }
    return o;
}

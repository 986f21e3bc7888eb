/* tensor_elementwise.c - unary, binary and ternary elementwise kernels with NumPy/PyTorch broadcasting.
 *
 * One strided loop engine serves every op: the result is allocated in the memory order PyTorch's TensorIterator
 * gives it (so exp(X.T) has X.T's strides), the operands are read through their own strides (a broadcast dim has
 * stride 0: nothing is copied to the full shape), dims that are contiguous in every operand are merged, and the
 * innermost run goes to one typed loop per op. Large results are split into ranges over the worker threads
 * (parallel.h); each element is computed from its inputs alone, so the bits do not depend on the thread count.
 *
 * Digits as PyTorch's: + - * / and comparisons are IEEE float32 operations; exp, log, sin, cos, tanh ... are
 * SLEEF's 1.0-ULP functions via vecmath.c, grouped 8 elements at a time from the start of the result as PyTorch
 * groups them; the rarer float ops (floor division, remainder, pow, atan2) are computed in double and rounded once.
 * Operands of another dtype than the op computes in are converted first (a copy of their own shape only). */
#include "tensor_internal.h"
#include "parallel.h"
#include "vecmath.h"
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

int ten_broadcast_shape_in(TenCtx *c, const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *nout) {
    int n = na > nb ? na : nb;
    for (int i = 0; i < n; i++) {
        int64_t da = i < n - na ? 1 : a[i - (n - na)];
        int64_t db = i < n - nb ? 1 : b[i - (n - nb)];
        if (da != db && da != 1 && db != 1) {
            char sa[128], sb[128];
            ten_shape_str(a, na, sa, sizeof sa);
            ten_shape_str(b, nb, sb, sizeof sb);
            ten_fail_in(c, "shapes %s and %s cannot be broadcast: dimension %d is %lld in one and %lld in the other",
                     sa, sb, i - n, (long long)da, (long long)db);
            return -1;
        }
        out[i] = da == 1 ? db : da;
    }
    *nout = n;
    return 0;
}

/* ---- the loop engine ---- */

#define EW_OPS 4                 /* the result and up to three operands */
#define EW_GROUP 16              /* ranges handed to threads start at multiples of this (SLEEF's lane groups) */
#define EW_GRAIN 32768           /* elements below which one thread does it all (PyTorch's GRAIN_SIZE) */

enum { EW_OK, EW_OVERFLOW, EW_ZERODIV, EW_NEGPOW, EW_INTERRUPTED };

typedef struct EwLoop EwLoop;
/* Computes n elements of the innermost run: p[k] points at operand k's first element (p[0] the result), s[k] is
 * its stride in elements. Returns EW_OK or an error code. */
typedef int (*EwInner)(const EwLoop *L, char *const *p, const int64_t *s, int64_t n);

struct EwLoop {
    int nops, nd;                                   /* operands (result first); dims after merging */
    int64_t shape[TEN_MAX_DIMS];                    /* outermost first */
    int64_t stride[EW_OPS][TEN_MAX_DIMS];           /* elements */
    char *base[EW_OPS];
    size_t esize[EW_OPS];
    int64_t numel;
    EwInner inner;
    int op;                                         /* BinOp or UnOp, for the inner loop */
    float lo, hi;                                   /* clamp bounds (NAN: none) */
    double dlo, dhi;
    atomic_int status;
};

/* Elements [e0, e1) of the result, in the result's memory order. */
static void ew_range(EwLoop *L, int64_t e0, int64_t e1) {
    int nd = L->nd;
    int64_t idx[TEN_MAX_DIMS], rem = e0;
    for (int d = nd - 1; d >= 0; d--) { idx[d] = rem % L->shape[d]; rem /= L->shape[d]; }
    char *p[EW_OPS];
    int64_t s[EW_OPS];
    for (int k = 0; k < L->nops; k++) {
        int64_t off = 0;
        for (int d = 0; d < nd; d++) off += idx[d] * L->stride[k][d];
        p[k] = L->base[k] + off * (int64_t)L->esize[k];
        s[k] = L->stride[k][nd - 1];
    }
    for (int64_t e = e0; e < e1;) {
        if (ten_interrupted) { atomic_store(&L->status, EW_INTERRUPTED); return; }
        int64_t n = L->shape[nd - 1] - idx[nd - 1];
        if (n > e1 - e) n = e1 - e;
        int st = L->inner(L, p, s, n);
        if (st != EW_OK) { atomic_store(&L->status, st); return; }
        e += n;
        /* advance the multi-index by n (the inner dim wraps to the next row at most once per run) */
        idx[nd - 1] += n;
        for (int k = 0; k < L->nops; k++) p[k] += n * s[k] * (int64_t)L->esize[k];
        for (int d = nd - 1; d > 0 && idx[d] == L->shape[d]; d--) {
            idx[d] = 0;
            idx[d - 1]++;
            for (int k = 0; k < L->nops; k++)
                p[k] += (L->stride[k][d - 1] - L->shape[d] * L->stride[k][d]) * (int64_t)L->esize[k];
        }
    }
}

static void ew_units(void *ctx, int64_t begin, int64_t end) {
    EwLoop *L = ctx;
    int64_t e1 = end * EW_GROUP < L->numel ? end * EW_GROUP : L->numel;
    ew_range(L, begin * EW_GROUP, e1);
}

/* Runs the loop (threaded when large) and turns its status into a message. 0 on success. */
static int ew_run(TenCtx *c, EwLoop *L) {
    if (L->numel == 0) return 0;
    atomic_store(&L->status, EW_OK);
    vm_level();                                     /* the vector code is chosen before the threads start */
    if (L->numel < EW_GRAIN) ew_range(L, 0, L->numel);
    else par_for(c, (L->numel + EW_GROUP - 1) / EW_GROUP, EW_GRAIN / EW_GROUP, ew_units, L);
    switch (atomic_load(&L->status)) {
    case EW_OK: return 0;
    case EW_OVERFLOW: ten_fail_in(c, "integer overflow: the result does not fit in int64"); break;
    case EW_ZERODIV: ten_fail_in(c, "ZeroDivisionError"); break;
    case EW_NEGPOW: ten_fail_in(c, "integers to negative integer powers are not allowed"); break;
    default: ten_fail_interrupted(c); break;
    }
    return -1;
}

/* A new result of shape (nd, shape) laid out in the memory order PyTorch gives a result of these operands. */
static Tensor *ew_result(DType dt, const Tensor *const *ins, int nin, int nd, const int64_t *shape) {
    int perm[TEN_MAX_DIMS];
    bool contig = true;
    for (int k = 0; k < nin; k++) contig = contig && ins[k]->contiguous;
    if (contig || !ten_result_perm(ins, nin, nd, shape, perm)) return ten_new_uninit_in(ten_ctx_of(ins[0]), dt, nd, shape);
    int64_t psh[TEN_MAX_DIMS];
    int inv[TEN_MAX_DIMS];
    for (int j = 0; j < nd; j++) { psh[j] = shape[perm[j]]; inv[perm[j]] = j; }
    Tensor *c = ten_new_uninit_in(ten_ctx_of(ins[0]), dt, nd, psh);
    Tensor *r = c ? ten_permute(c, inv) : NULL;
    ten_free(c);
    return r;
}

/* Fills L's dims and strides: the result's dims sorted from its largest stride to its smallest (its memory order),
 * each operand broadcast to the result's shape (stride 0 where it has size 1 or lacks the dim), then neighbouring
 * dims merged where every operand steps through them as through one. */
static void ew_build(EwLoop *L, Tensor *out, const Tensor *const *ins, int nin, EwInner inner) {
    int nd = out->ndim, order[TEN_MAX_DIMS];
    L->nops = nin + 1;
    L->numel = out->numel;
    L->inner = inner;
    /* every operand contiguous and of the result's shape (the common case, and a tiny op's fixed cost): one run */
    bool flat = out->contiguous;
    for (int k = 0; k < nin && flat; k++)
        flat = ins[k]->contiguous && ins[k]->ndim == nd && !memcmp(ins[k]->shape, out->shape, sizeof(int64_t) * (size_t)nd);
    if (flat) {
        L->nd = 1;
        L->shape[0] = out->numel;
        for (int k = 0; k < L->nops; k++) {
            const Tensor *t = k ? ins[k - 1] : out;
            L->stride[k][0] = 1;
            L->base[k] = t->data;
            L->esize[k] = ten_dtype_size(t->dtype);
        }
        return;
    }
    for (int i = 0; i < nd; i++) order[i] = i;
    for (int i = 1; i < nd; i++)                    /* insertion sort by the result's stride, largest first */
        for (int j = i; j > 0 && out->stride[order[j]] > out->stride[order[j - 1]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    const Tensor *all[EW_OPS] = {out, ins[0], nin > 1 ? ins[1] : NULL, nin > 2 ? ins[2] : NULL};
    int m = 0;
    for (int i = 0; i < nd; i++) {
        int d = order[i];
        if (out->shape[d] == 1) continue;
        L->shape[m] = out->shape[d];
        for (int k = 0; k < L->nops; k++) {
            const Tensor *t = all[k];
            int td = d - (nd - t->ndim);
            L->stride[k][m] = td < 0 || t->shape[td] == 1 ? 0 : t->stride[td];
        }
        m++;
    }
    if (m == 0) {                                   /* a single element */
        L->shape[0] = 1;
        for (int k = 0; k < L->nops; k++) L->stride[k][0] = 0;
        m = 1;
    }
    int w = 0;                                      /* merge dim i into the run kept at w */
    for (int i = 1; i < m; i++) {
        bool merge = true;
        for (int k = 0; k < L->nops && merge; k++) merge = L->stride[k][w] == L->stride[k][i] * L->shape[i];
        if (merge) {
            L->shape[w] *= L->shape[i];
            for (int k = 0; k < L->nops; k++) L->stride[k][w] = L->stride[k][i];
        } else {
            w++;
            L->shape[w] = L->shape[i];
            for (int k = 0; k < L->nops; k++) L->stride[k][w] = L->stride[k][i];
        }
    }
    L->nd = w + 1;
    for (int k = 0; k < L->nops; k++) {
        L->base[k] = all[k]->data;
        L->esize[k] = ten_dtype_size(all[k]->dtype);
    }
}

/* t in dtype dt: t itself, or a converted copy of t's own shape in *tmp. */
static const Tensor *as_dtype(const Tensor *t, DType dt, Tensor **tmp) {
    *tmp = NULL;
    if (t->dtype == dt) return t;
    return (*tmp = ten_cast(t, dt));
}

/* ---- binary ops ---- */

static bool is_cmp(BinOp op) { return op >= OP_EQ && op <= OP_GE; }

/* PyTorch's combine_categories: the lower-priority group counts only when it is of a higher kind. -1: none. */
static int combine(int higher, int lower) {
    if (higher < 0) return lower;
    if (ten_is_float((DType)higher)) return higher;
    if (lower < 0) return higher;
    if (higher == DT_BOOL || ten_is_float((DType)lower)) return ten_promote((DType)higher, (DType)lower);
    return higher;
}

static int add_to(int group, DType d) { return group < 0 ? (int)d : (int)ten_promote((DType)group, d); }

DType ten_result_type(const Tensor *a, bool aw, const Tensor *b, bool bw) {
    int dim = -1, zero = -1, wrapped = -1;
    const Tensor *ts[2] = {a, b};
    bool weak[2] = {aw, bw};
    DType dflt = ten_ctx_of(aw && !bw ? b : a)->default_float;     /* a tensor operand's context's */
    for (int k = 0; k < 2; k++) {
        DType d = ts[k]->dtype;
        if (weak[k]) wrapped = add_to(wrapped, ten_is_float(d) ? dflt : d);
        else if (ts[k]->ndim == 0) zero = add_to(zero, d);
        else dim = add_to(dim, d);
    }
    return (DType)combine(dim, combine(zero, wrapped));
}

/* The dtype the op computes in: the result type, or the default float for true division of integers. */
static DType result_compute_dtype(BinOp op, const Tensor *a, bool aw, const Tensor *b, bool bw) {
    DType r = ten_result_type(a, aw, b, bw);
    if ((op == OP_DIV || op == OP_ATAN2) && !ten_is_float(r)) return ten_ctx_of(aw && !bw ? b : a)->default_float;
    return r;
}

/* One loop per float op and float dtype. The contiguous and scalar-operand cases get their own plain loops, which
 * the compiler vectorises; IEEE arithmetic in the dtype either way. */
#define FLOAT_BINARY(name, T, expr)                                                                            \
    static int name(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {                            \
        (void)L;                                                                                               \
        T *o = (T *)p[0];                                                                                      \
        const T *x = (const T *)p[1], *y = (const T *)p[2];                                                    \
        if (s[0] == 1 && s[1] == 1 && s[2] == 1)                                                               \
            for (int64_t i = 0; i < n; i++) { T a = x[i], b = y[i]; o[i] = (expr); }                          \
        else if (s[0] == 1 && s[1] == 1 && s[2] == 0) {                                                        \
            T b = y[0];                                                                                        \
            for (int64_t i = 0; i < n; i++) { T a = x[i]; o[i] = (expr); }                                    \
        } else if (s[0] == 1 && s[1] == 0 && s[2] == 1) {                                                      \
            T a = x[0];                                                                                        \
            for (int64_t i = 0; i < n; i++) { T b = y[i]; o[i] = (expr); }                                    \
        } else                                                                                                 \
            for (int64_t i = 0; i < n; i++) { T a = x[i * s[1]], b = y[i * s[2]]; o[i * s[0]] = (expr); }     \
        return EW_OK;                                                                                          \
    }
#define FLOAT_BINARY_BOTH(name, expr) FLOAT_BINARY(f_##name, float, expr) FLOAT_BINARY(d_##name, double, expr)
FLOAT_BINARY_BOTH(add, a + b)
FLOAT_BINARY_BOTH(sub, a - b)
FLOAT_BINARY_BOTH(mul, a * b)
FLOAT_BINARY_BOTH(div, a / b)
FLOAT_BINARY_BOTH(max, isnan(a) || isnan(b) ? (a + b) : a > b ? a : b)
FLOAT_BINARY_BOTH(min, isnan(a) || isnan(b) ? (a + b) : a < b ? a : b)

/* Comparisons of floats: a bool result. */
#define FLOAT_TO_BOOL(name, T, expr)                                                                           \
    static int name(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {                            \
        (void)L;                                                                                               \
        uint8_t *o = (uint8_t *)p[0];                                                                          \
        const T *x = (const T *)p[1], *y = (const T *)p[2];                                                    \
        for (int64_t i = 0; i < n; i++) { T a = x[i * s[1]], b = y[i * s[2]]; o[i * s[0]] = (expr); }         \
        return EW_OK;                                                                                          \
    }
#define FLOAT_TO_BOOL_BOTH(name, expr) FLOAT_TO_BOOL(f_##name, float, expr) FLOAT_TO_BOOL(d_##name, double, expr)
FLOAT_TO_BOOL_BOTH(eq, a == b)
FLOAT_TO_BOOL_BOTH(ne, a != b)
FLOAT_TO_BOOL_BOTH(lt, a < b)
FLOAT_TO_BOOL_BOTH(le, a <= b)
FLOAT_TO_BOOL_BOTH(gt, a > b)
FLOAT_TO_BOOL_BOTH(ge, a >= b)

static double floor_mod(double x, double y) {
    double r = fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return r;
}

/* PyTorch's div_floor_floating (BinaryOpsKernel.cpp), in the result dtype: float32 arithmetic for float32. */
static double div_floor(double a, double b, bool f32) {
    if (b == 0) return f32 ? (double)((float)a / (float)b) : a / b;
    if (f32) {
        float fa = (float)a, fb = (float)b, mod = fmodf(fa, fb), div = (fa - mod) / fb;
        if (mod != 0 && (fb < 0) != (mod < 0)) div -= 1.0f;
        if (div == 0) return copysignf(0.0f, fa / fb);
        float fl = floorf(div);
        if (div - fl > 0.5f) fl += 1.0f;
        return fl;
    }
    double mod = fmod(a, b), div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= 1.0;
    if (div == 0) return copysign(0.0, a / b);
    double fl = floor(div);
    if (div - fl > 0.5) fl += 1.0;
    return fl;
}

/* The rarer float ops, in double and rounded once to the dtype (floor and trunc division in the dtype's own
 * arithmetic, as PyTorch). */
static double other_op(BinOp op, double a, double b, bool f32) {
    switch (op) {
    case OP_FLOORDIV: return div_floor(a, b, f32);
    case OP_DIV_TRUNC: return f32 ? (double)truncf((float)a / (float)b) : trunc(a / b);
    case OP_MOD: return b == 0 ? NAN : floor_mod(a, b);
    case OP_POW: return pow(a, b);
    case OP_ATAN2: return atan2(a, b);
    case OP_AND: return (a != 0) && (b != 0);
    case OP_OR: return (a != 0) || (b != 0);
    case OP_XOR: return (a != 0) != (b != 0);
    default: return 0;
    }
}

static int f_other(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    float *o = (float *)p[0];
    const float *x = (const float *)p[1], *y = (const float *)p[2];
    for (int64_t i = 0; i < n; i++) o[i * s[0]] = (float)other_op((BinOp)L->op, x[i * s[1]], y[i * s[2]], true);
    return EW_OK;
}

static int d_other(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    double *o = (double *)p[0];
    const double *x = (const double *)p[1], *y = (const double *)p[2];
    for (int64_t i = 0; i < n; i++) o[i * s[0]] = other_op((BinOp)L->op, x[i * s[1]], y[i * s[2]], false);
    return EW_OK;
}

/* int64 operands; an int64 or bool result. Overflow is an error, as attn has always made it. */
static int i_binary(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    BinOp op = (BinOp)L->op;
    const int64_t *x = (const int64_t *)p[1], *y = (const int64_t *)p[2];
    bool to_bool = L->esize[0] == 1;
    for (int64_t i = 0; i < n; i++) {
        int64_t a = x[i * s[1]], b = y[i * s[2]], r = 0;
        switch (op) {
        case OP_ADD: if (__builtin_add_overflow(a, b, &r)) return EW_OVERFLOW; break;
        case OP_SUB: if (__builtin_sub_overflow(a, b, &r)) return EW_OVERFLOW; break;
        case OP_MUL: if (__builtin_mul_overflow(a, b, &r)) return EW_OVERFLOW; break;
        case OP_FLOORDIV:
        case OP_DIV_TRUNC:
        case OP_MOD:
            if (b == 0) return EW_ZERODIV;
            if (a == INT64_MIN && b == -1) return EW_OVERFLOW;
            r = op == OP_FLOORDIV ? a / b - ((a % b != 0) && ((a < 0) != (b < 0))) : op == OP_DIV_TRUNC ? a / b : a % b;
            if (op == OP_MOD && r != 0 && ((r < 0) != (b < 0))) r += b;
            break;
        case OP_POW: {
            if (b < 0) return EW_NEGPOW;
            int64_t base = a, e = b;
            r = 1;
            while (e) {
                if ((e & 1) && __builtin_mul_overflow(r, base, &r)) return EW_OVERFLOW;
                e >>= 1;
                if (e && __builtin_mul_overflow(base, base, &base)) return EW_OVERFLOW;
            }
            break;
        }
        case OP_EQ: r = a == b; break;
        case OP_NE: r = a != b; break;
        case OP_LT: r = a < b; break;
        case OP_LE: r = a <= b; break;
        case OP_GT: r = a > b; break;
        case OP_GE: r = a >= b; break;
        case OP_AND: r = a & b; break;
        case OP_OR: r = a | b; break;
        case OP_XOR: r = a ^ b; break;
        case OP_MAXIMUM: r = a > b ? a : b; break;
        case OP_MINIMUM: r = a < b ? a : b; break;
        case OP_DIV: case OP_ATAN2: break;     /* never: these compute in float */
        }
        if (to_bool) ((uint8_t *)p[0])[i * s[0]] = r != 0;
        else ((int64_t *)p[0])[i * s[0]] = r;
    }
    return EW_OK;
}

static EwInner float_binary_loop(BinOp op, bool f64) {
    switch (op) {
    case OP_ADD: return f64 ? d_add : f_add;
    case OP_SUB: return f64 ? d_sub : f_sub;
    case OP_MUL: return f64 ? d_mul : f_mul;
    case OP_DIV: return f64 ? d_div : f_div;
    case OP_MAXIMUM: return f64 ? d_max : f_max;
    case OP_MINIMUM: return f64 ? d_min : f_min;
    case OP_EQ: return f64 ? d_eq : f_eq;
    case OP_NE: return f64 ? d_ne : f_ne;
    case OP_LT: return f64 ? d_lt : f_lt;
    case OP_LE: return f64 ? d_le : f_le;
    case OP_GT: return f64 ? d_gt : f_gt;
    case OP_GE: return f64 ? d_ge : f_ge;
    default: return f64 ? d_other : f_other;
    }
}

/* a op b with broadcasting; see tensor.h for the dtype rule. */
Tensor *ten_binary(BinOp op, const Tensor *a, bool aw, const Tensor *b, bool bw) {
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    if (ten_broadcast_shape_in(ten_ctx_of(a), a->shape, a->ndim, b->shape, b->ndim, shape, &nd) < 0) return NULL;
    DType cdt = result_compute_dtype(op, a, aw, b, bw);
    DType kdt = ten_is_float(cdt) ? cdt : DT_I64;  /* bools compute as int64 */
    DType odt = is_cmp(op) ? DT_BOOL : cdt;
    Tensor *ta, *tb;
    const Tensor *xa = as_dtype(a, kdt, &ta), *xb = as_dtype(b, kdt, &tb);
    const Tensor *ins[2] = {xa, xb};
    Tensor *o = xa && xb ? ew_result(odt, ins, 2, nd, shape) : NULL;
    if (o) {
        EwLoop L;
        ew_build(&L, o, ins, 2, ten_is_float(kdt) ? float_binary_loop(op, kdt == DT_F64) : i_binary);
        L.op = op;
        if (ew_run(ten_ctx_of(o), &L) < 0) { ten_free(o); o = NULL; }
    }
    ten_free(ta);
    ten_free(tb);
    return o;
}

/* ---- unary ops ---- */

static bool unary_keeps_int(UnOp op) {
    return op == UOP_NEG || op == UOP_ABS || op == UOP_RELU || op == UOP_FLOOR || op == UOP_CEIL ||
           op == UOP_ROUND || op == UOP_SIGN || op == UOP_SQUARE;
}
static bool unary_to_bool(UnOp op) { return op == UOP_NOT || op == UOP_ISNAN || op == UOP_ISINF || op == UOP_ISFINITE; }

static int vm_op(UnOp op) {
    switch (op) {
    case UOP_EXP: return VM_EXP;
    case UOP_LOG: return VM_LOG;
    case UOP_SIN: return VM_SIN;
    case UOP_COS: return VM_COS;
    case UOP_TAN: return VM_TAN;
    case UOP_TANH: return VM_TANH;
    case UOP_LOG2: return VM_LOG2;
    case UOP_LOG10: return VM_LOG10;
    case UOP_ASIN: return VM_ASIN;
    case UOP_ACOS: return VM_ACOS;
    case UOP_ATAN: return VM_ATAN;
    default: return -1;
    }
}

/* SLEEF's functions over a run: straight into the result when both are contiguous, else through a buffer. */
static int f_vecmath(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    VmOp f = (VmOp)vm_op((UnOp)L->op);
    float *o = (float *)p[0];
    const float *x = (const float *)p[1];
    if (s[0] == 1 && s[1] == 1) {
        vm_map(f, x, o, n);
        return EW_OK;
    }
    float buf[2048];
    for (int64_t i0 = 0; i0 < n; i0 += 2048) {
        int64_t m = n - i0 < 2048 ? n - i0 : 2048;
        for (int64_t i = 0; i < m; i++) buf[i] = x[(i0 + i) * s[1]];
        vm_map(f, buf, buf, m);
        for (int64_t i = 0; i < m; i++) o[(i0 + i) * s[0]] = buf[i];
    }
    return EW_OK;
}

/* sigmoid as PyTorch's vector code: 1 / (1 + exp(-x)), exp from SLEEF. */
static int f_sigmoid(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    (void)L;
    float *o = (float *)p[0];
    const float *x = (const float *)p[1];
    float buf[2048];
    for (int64_t i0 = 0; i0 < n; i0 += 2048) {
        int64_t m = n - i0 < 2048 ? n - i0 : 2048;
        for (int64_t i = 0; i < m; i++) buf[i] = -x[(i0 + i) * s[1]];
        vm_map(VM_EXP, buf, buf, m);
        for (int64_t i = 0; i < m; i++) o[(i0 + i) * s[0]] = 1.0f / (1.0f + buf[i]);
    }
    return EW_OK;
}

#define FLOAT_UNARY(name, expr)                                                                                \
    static int name(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {                            \
        (void)L;                                                                                               \
        float *o = (float *)p[0];                                                                              \
        const float *x = (const float *)p[1];                                                                  \
        if (s[0] == 1 && s[1] == 1)                                                                            \
            for (int64_t i = 0; i < n; i++) { float a = x[i]; o[i] = (expr); }                                \
        else                                                                                                   \
            for (int64_t i = 0; i < n; i++) { float a = x[i * s[1]]; o[i * s[0]] = (expr); }                  \
        return EW_OK;                                                                                          \
    }
FLOAT_UNARY(f_neg, -a)
FLOAT_UNARY(f_abs, fabsf(a))
FLOAT_UNARY(f_sqrt, sqrtf(a))
FLOAT_UNARY(f_rsqrt, 1.0f / sqrtf(a))
FLOAT_UNARY(f_relu, a > 0 ? a : (isnan(a) ? a : 0.0f))
FLOAT_UNARY(f_floor, floorf(a))
FLOAT_UNARY(f_ceil, ceilf(a))
FLOAT_UNARY(f_round, nearbyintf(a))                 /* half to even, as Python and PyTorch round */
FLOAT_UNARY(f_sign, a > 0 ? 1.0f : a < 0 ? -1.0f : 0.0f)     /* NaN and -0 give 0, as PyTorch */
FLOAT_UNARY(f_square, a * a)

/* float64: the C library's double functions, one element at a time. */
static double sigmoid_d(double x) { return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x)); }
static double rsqrt_d(double x) { return 1 / sqrt(x); }
static double relu_d(double x) { return x > 0 ? x : isnan(x) ? x : 0; }
static double sign_d(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
static double square_d(double x) { return x * x; }
static double neg_d(double x) { return -x; }

static double (*double_fn(UnOp op))(double) {
    switch (op) {
    case UOP_NEG: return neg_d;
    case UOP_ABS: return fabs;
    case UOP_SIN: return sin;
    case UOP_COS: return cos;
    case UOP_TAN: return tan;
    case UOP_EXP: return exp;
    case UOP_LOG: return log;
    case UOP_LOG2: return log2;
    case UOP_LOG10: return log10;
    case UOP_SQRT: return sqrt;
    case UOP_RSQRT: return rsqrt_d;
    case UOP_TANH: return tanh;
    case UOP_RELU: return relu_d;
    case UOP_SIGMOID: return sigmoid_d;
    case UOP_FLOOR: return floor;
    case UOP_CEIL: return ceil;
    case UOP_ROUND: return nearbyint;
    case UOP_SIGN: return sign_d;
    case UOP_SQUARE: return square_d;
    case UOP_ASIN: return asin;
    case UOP_ACOS: return acos;
    case UOP_ATAN: return atan;
    default: return NULL;
    }
}

static int d_unary(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    double (*f)(double) = double_fn((UnOp)L->op);
    double *o = (double *)p[0];
    const double *x = (const double *)p[1];
    for (int64_t i = 0; i < n; i++) o[i * s[0]] = f(x[i * s[1]]);
    return EW_OK;
}

static int d_test(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    uint8_t *o = (uint8_t *)p[0];
    const double *x = (const double *)p[1];
    for (int64_t i = 0; i < n; i++) {
        double a = x[i * s[1]];
        switch ((UnOp)L->op) {
        case UOP_NOT: o[i * s[0]] = a == 0; break;
        case UOP_ISNAN: o[i * s[0]] = isnan(a) != 0; break;
        case UOP_ISINF: o[i * s[0]] = isinf(a) != 0; break;
        default: o[i * s[0]] = isfinite(a) != 0; break;
        }
    }
    return EW_OK;
}

#define FLOAT_TEST(name, expr)                                                                                 \
    static int name(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {                            \
        (void)L;                                                                                               \
        uint8_t *o = (uint8_t *)p[0];                                                                          \
        const float *x = (const float *)p[1];                                                                  \
        for (int64_t i = 0; i < n; i++) { float a = x[i * s[1]]; o[i * s[0]] = (expr); }                     \
        return EW_OK;                                                                                          \
    }
FLOAT_TEST(f_not, a == 0)
FLOAT_TEST(f_isnan, isnan(a) != 0)
FLOAT_TEST(f_isinf, isinf(a) != 0)
FLOAT_TEST(f_isfinite, isfinite(a) != 0)

/* int64 (or bool, which arrives as int64) in, int64 or bool out. */
static int i_unary(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    UnOp op = (UnOp)L->op;
    const int64_t *x = (const int64_t *)p[1];
    bool to_bool = L->esize[0] == 1;
    for (int64_t i = 0; i < n; i++) {
        int64_t a = x[i * s[1]], r = a;
        switch (op) {
        case UOP_NEG: if (a == INT64_MIN) return EW_OVERFLOW; r = -a; break;
        case UOP_ABS: if (a == INT64_MIN) return EW_OVERFLOW; r = a < 0 ? -a : a; break;
        case UOP_RELU: r = a > 0 ? a : 0; break;
        case UOP_SIGN: r = (a > 0) - (a < 0); break;
        case UOP_SQUARE: if (__builtin_mul_overflow(a, a, &r)) return EW_OVERFLOW; break;
        case UOP_NOT: r = to_bool ? a == 0 : ~a; break;
        case UOP_ISNAN: case UOP_ISINF: r = 0; break;
        case UOP_ISFINITE: r = 1; break;
        default: break;                            /* floor, ceil, round of an integer */
        }
        if (to_bool) ((uint8_t *)p[0])[i * s[0]] = r != 0;
        else ((int64_t *)p[0])[i * s[0]] = r;
    }
    return EW_OK;
}

static EwInner float_unary_loop(UnOp op) {
    if (vm_op(op) >= 0) return f_vecmath;
    switch (op) {
    case UOP_NEG: return f_neg;
    case UOP_ABS: return f_abs;
    case UOP_SQRT: return f_sqrt;
    case UOP_RSQRT: return f_rsqrt;
    case UOP_RELU: return f_relu;
    case UOP_SIGMOID: return f_sigmoid;
    case UOP_FLOOR: return f_floor;
    case UOP_CEIL: return f_ceil;
    case UOP_ROUND: return f_round;
    case UOP_SIGN: return f_sign;
    case UOP_SQUARE: return f_square;
    case UOP_NOT: return f_not;
    case UOP_ISNAN: return f_isnan;
    case UOP_ISINF: return f_isinf;
    default: return f_isfinite;
    }
}

Tensor *ten_unary(UnOp op, const Tensor *a) {
    bool to_bool = unary_to_bool(op);
    DType odt = to_bool ? DT_BOOL : ten_is_float(a->dtype) ? a->dtype : unary_keeps_int(op) ? DT_I64 : ten_ctx_of(a)->default_float;
    if (op == UOP_NOT && a->dtype == DT_I64) odt = DT_I64;   /* ~x on integers is bitwise */
    /* the dtype the loop reads: the float dtype of the input or result, else int64 (bools as int64) */
    DType kdt = ten_is_float(a->dtype) ? a->dtype : ten_is_float(odt) ? odt : DT_I64;
    Tensor *ta;
    const Tensor *x = as_dtype(a, kdt, &ta);
    Tensor *o = x ? ew_result(odt, &x, 1, a->ndim, a->shape) : NULL;
    if (o) {
        EwLoop L;
        EwInner inner = kdt == DT_F32 ? float_unary_loop(op) : kdt == DT_F64 ? (to_bool ? d_test : d_unary) : i_unary;
        ew_build(&L, o, &x, 1, inner);
        L.op = op;
        if (ew_run(ten_ctx_of(o), &L) < 0) { ten_free(o); o = NULL; }
    }
    ten_free(ta);
    return o;
}

/* ---- clamp and where ---- */

/* PyTorch's float clamp: NaN stays NaN, bounds are float32. */
static int f_clamp(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    float *o = (float *)p[0];
    const float *x = (const float *)p[1];
    float lo = L->lo, hi = L->hi;
    bool has_lo = !isnan(lo), has_hi = !isnan(hi);
    for (int64_t i = 0; i < n; i++) {
        float a = x[i * s[1]];
        if (!isnan(a)) {
            if (has_lo && a < lo) a = lo;
            if (has_hi && a > hi) a = hi;
        }
        o[i * s[0]] = a;
    }
    return EW_OK;
}

static int d_clamp(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    double *o = (double *)p[0];
    const double *x = (const double *)p[1];
    double lo = L->dlo, hi = L->dhi;
    for (int64_t i = 0; i < n; i++) {
        double a = x[i * s[1]];
        if (!isnan(a)) {
            if (!isnan(lo) && a < lo) a = lo;
            if (!isnan(hi) && a > hi) a = hi;
        }
        o[i * s[0]] = a;
    }
    return EW_OK;
}

Tensor *ten_clamp(const Tensor *a, double lo, double hi) {
    if (!ten_is_float(a->dtype)) {
        /* integers keep their dtype; bounds compared in double and the result rounded back */
        Tensor *o = ten_copy(a);
        if (!o) return NULL;
        for (int64_t i = 0; i < o->numel; i++) {
            double x = ten_get(o, i);
            if (!isnan(lo) && x < lo) x = lo;
            if (!isnan(hi) && x > hi) x = hi;
            ten_set(o, i, x);
        }
        return o;
    }
    Tensor *o = ew_result(a->dtype, &a, 1, a->ndim, a->shape);
    if (!o) return NULL;
    EwLoop L;
    ew_build(&L, o, &a, 1, a->dtype == DT_F64 ? d_clamp : f_clamp);
    L.lo = (float)lo;
    L.hi = (float)hi;
    L.dlo = lo;
    L.dhi = hi;
    if (ew_run(ten_ctx_of(o), &L) < 0) { ten_free(o); return NULL; }
    return o;
}

/* cond (bool) ? x : y, all three of one element size. */
static int where_loop(const EwLoop *L, char *const *p, const int64_t *s, int64_t n) {
    const uint8_t *c = (const uint8_t *)p[1];
    size_t es = L->esize[0];
    for (int64_t i = 0; i < n; i++) {
        const char *src = c[i * s[1]] ? p[2] + i * s[2] * (int64_t)es : p[3] + i * s[3] * (int64_t)es;
        memcpy(p[0] + i * s[0] * (int64_t)es, src, es);
    }
    return EW_OK;
}

Tensor *ten_where(const Tensor *cond, const Tensor *a, bool aw, const Tensor *b, bool bw) {
    int64_t s1[TEN_MAX_DIMS], s2[TEN_MAX_DIMS];
    int n1, n2;
    if (ten_broadcast_shape_in(ten_ctx_of(cond), cond->shape, cond->ndim, a->shape, a->ndim, s1, &n1) < 0) return NULL;
    if (ten_broadcast_shape_in(ten_ctx_of(cond), s1, n1, b->shape, b->ndim, s2, &n2) < 0) return NULL;
    DType dt = ten_result_type(a, aw, b, bw);
    Tensor *tc, *ta, *tb;
    const Tensor *c = as_dtype(cond, DT_BOOL, &tc), *x = as_dtype(a, dt, &ta), *y = as_dtype(b, dt, &tb);
    const Tensor *ins[3] = {c, x, y};
    Tensor *o = c && x && y ? ew_result(dt, ins, 3, n2, s2) : NULL;
    if (o) {
        EwLoop L;
        ew_build(&L, o, ins, 3, where_loop);
        if (ew_run(ten_ctx_of(o), &L) < 0) { ten_free(o); o = NULL; }
    }
    ten_free(tc); ten_free(ta); ten_free(tb);
    return o;
}

/* tensor_elementwise.c - unary and binary elementwise kernels with NumPy/PyTorch broadcasting.
 * Operands are broadcast to the result shape first, then one flat loop runs per op. Float results are computed
 * in double and rounded once to float32: for + - * / and sqrt this is exactly float32 arithmetic. */
#include "tensor_internal.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

int ten_broadcast_shape(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *nout) {
    int n = na > nb ? na : nb;
    for (int i = 0; i < n; i++) {
        int64_t da = i < n - na ? 1 : a[i - (n - na)];
        int64_t db = i < n - nb ? 1 : b[i - (n - nb)];
        if (da != db && da != 1 && db != 1) {
            char sa[128], sb[128];
            ten_shape_str(a, na, sa, sizeof sa);
            ten_shape_str(b, nb, sb, sizeof sb);
            ten_fail("shapes %s and %s cannot be broadcast: dimension %d is %lld in one and %lld in the other",
                     sa, sb, i - n, (long long)da, (long long)db);
            return -1;
        }
        out[i] = da == 1 ? db : da;
    }
    *nout = n;
    return 0;
}

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
    for (int k = 0; k < 2; k++) {
        DType d = ts[k]->dtype;
        if (weak[k]) wrapped = add_to(wrapped, ten_is_float(d) ? ten_default_float : d);
        else if (ts[k]->ndim == 0) zero = add_to(zero, d);
        else dim = add_to(dim, d);
    }
    return (DType)combine(dim, combine(zero, wrapped));
}

/* The dtype the op computes in: the result type, or the default float for true division of integers. */
static DType result_compute_dtype(BinOp op, const Tensor *a, bool aw, const Tensor *b, bool bw) {
    DType r = ten_result_type(a, aw, b, bw);
    if ((op == OP_DIV || op == OP_ATAN2) && !ten_is_float(r)) return ten_default_float;
    return r;
}

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

static int float_kernel(BinOp op, const double *x, const double *y, Tensor *o, int64_t n) {
    bool f32 = o->dtype == DT_F32;
    for (int64_t i = 0; i < n; i++) {
        double a = x[i], b = y[i], r = 0;
        switch (op) {
        case OP_ADD: r = a + b; break;
        case OP_SUB: r = a - b; break;
        case OP_MUL: r = a * b; break;
        case OP_DIV: r = a / b; break;
        case OP_FLOORDIV: r = div_floor(a, b, f32); break;
        case OP_DIV_TRUNC: r = f32 ? (double)truncf((float)a / (float)b) : trunc(a / b); break;
        case OP_MOD: r = b == 0 ? NAN : floor_mod(a, b); break;
        case OP_POW: r = pow(a, b); break;
        case OP_EQ: r = a == b; break;
        case OP_NE: r = a != b; break;
        case OP_LT: r = a < b; break;
        case OP_LE: r = a <= b; break;
        case OP_GT: r = a > b; break;
        case OP_GE: r = a >= b; break;
        case OP_AND: r = (a != 0) && (b != 0); break;
        case OP_OR: r = (a != 0) || (b != 0); break;
        case OP_XOR: r = (a != 0) != (b != 0); break;
        case OP_MAXIMUM: r = isnan(a) || isnan(b) ? NAN : (a > b ? a : b); break;
        case OP_MINIMUM: r = isnan(a) || isnan(b) ? NAN : (a < b ? a : b); break;
        case OP_ATAN2: r = atan2(a, b); break;
        }
        ten_set(o, i, r);
    }
    return 0;
}

static int int_kernel(BinOp op, const int64_t *x, const int64_t *y, Tensor *o, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        int64_t a = x[i], b = y[i], r = 0;
        switch (op) {
        case OP_ADD: if (__builtin_add_overflow(a, b, &r)) goto overflow; break;
        case OP_SUB: if (__builtin_sub_overflow(a, b, &r)) goto overflow; break;
        case OP_MUL: if (__builtin_mul_overflow(a, b, &r)) goto overflow; break;
        case OP_FLOORDIV:
        case OP_DIV_TRUNC:
        case OP_MOD:
            if (b == 0) { ten_fail("ZeroDivisionError"); return -1; }
            if (a == INT64_MIN && b == -1) goto overflow;
            r = op == OP_FLOORDIV ? a / b - ((a % b != 0) && ((a < 0) != (b < 0))) : op == OP_DIV_TRUNC ? a / b : a % b;
            if (op == OP_MOD && r != 0 && ((r < 0) != (b < 0))) r += b;
            break;
        case OP_POW: {
            if (b < 0) { ten_fail("integers to negative integer powers are not allowed"); return -1; }
            int64_t base = a, e = b;
            r = 1;
            while (e) {
                if (e & 1) { if (__builtin_mul_overflow(r, base, &r)) goto overflow; }
                e >>= 1;
                if (e && __builtin_mul_overflow(base, base, &base)) goto overflow;
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
        case OP_DIV: case OP_ATAN2: r = 0; break;  /* never: these compute in float */
        }
        if (o->dtype == DT_I64) ten_i64(o)[i] = r;
        else ten_b8(o)[i] = r != 0;
    }
    return 0;
overflow:
    ten_fail("integer overflow: the result does not fit in int64");
    return -1;
}

/* a op b with broadcasting into a new row-major result. */
static Tensor *binary_rowmajor(BinOp op, const Tensor *a, bool aw, const Tensor *b, bool bw) {
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    if (ten_broadcast_shape(a->shape, a->ndim, b->shape, b->ndim, shape, &nd) < 0) return NULL;
    DType cdt = result_compute_dtype(op, a, aw, b, bw);
    DType odt = is_cmp(op) ? DT_BOOL : cdt;
    Tensor *o = ten_new_uninit(odt, nd, shape);
    if (!o) return NULL;
    Tensor *ea = NULL, *eb = NULL;
    const Tensor *xa = a, *xb = b;
    DType kdt = ten_is_float(cdt) ? cdt : DT_I64;
    if (!ten_same_shape(a, o) || a->dtype != kdt || !a->contiguous) {
        if (!(ea = ten_expand_dense(a, kdt, nd, shape))) goto fail;
        xa = ea;
    }
    if (!ten_same_shape(b, o) || b->dtype != kdt || !b->contiguous) {
        if (!(eb = ten_expand_dense(b, kdt, nd, shape))) goto fail;
        xb = eb;
    }
    int64_t n = o->numel;
    if (cdt == DT_F64) {
        float_kernel(op, ten_f64(xa), ten_f64(xb), o, n);
    } else if (cdt == DT_F32) {
        const float *fa = ten_f32(xa), *fb = ten_f32(xb);
        /* The common ops on float32 run as plain float loops (identical results, no double buffers). */
        if (odt == DT_F32 && (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV)) {
            float *fo = ten_f32(o);
            switch (op) {
            case OP_ADD: for (int64_t i = 0; i < n; i++) fo[i] = fa[i] + fb[i]; break;
            case OP_SUB: for (int64_t i = 0; i < n; i++) fo[i] = fa[i] - fb[i]; break;
            case OP_MUL: for (int64_t i = 0; i < n; i++) fo[i] = fa[i] * fb[i]; break;
            default: for (int64_t i = 0; i < n; i++) fo[i] = fa[i] / fb[i]; break;
            }
        } else {
            const int64_t chunk = 4096;
            double x[4096], y[4096];
            for (int64_t s = 0; s < n; s += chunk) {
                int64_t m = n - s < chunk ? n - s : chunk;
                for (int64_t i = 0; i < m; i++) { x[i] = fa[s + i]; y[i] = fb[s + i]; }
                Tensor view = *o;
                view.data = (char *)o->data + s * (int64_t)ten_dtype_size(odt);
                float_kernel(op, x, y, &view, m);
            }
        }
    } else {
        if (int_kernel(op, ten_i64(xa), ten_i64(xb), o, n) < 0) goto fail;
    }
    ten_free(ea);
    ten_free(eb);
    return o;
fail:
    ten_free(ea);
    ten_free(eb);
    ten_free(o);
    return NULL;
}

/* Runs a row-major kernel over operands viewed in the memory order PyTorch gives the result, so that exp(X.T) or
 * X.T + 1 has X.T's strides as in PyTorch; then views the result back in the logical order. */
static Tensor *in_result_order(const Tensor *const *ops, int n, int nd, const int64_t *shape,
                               Tensor *(*kernel)(const Tensor *const *xs, const void *arg), const void *arg) {
    int perm[TEN_MAX_DIMS];
    if (!ten_result_perm(ops, n, nd, shape, perm)) return kernel(ops, arg);
    Tensor *xs[3] = {NULL, NULL, NULL}, *r = NULL;
    int i;
    for (i = 0; i < n; i++) {
        Tensor *e = ten_expand(ops[i], nd, shape);
        xs[i] = e ? ten_permute(e, perm) : NULL;
        ten_free(e);
        if (!xs[i]) break;
    }
    if (i == n) {
        Tensor *rp = kernel((const Tensor *const *)xs, arg);
        if (rp) {
            int inv[TEN_MAX_DIMS];
            for (int j = 0; j < nd; j++) inv[perm[j]] = j;
            r = ten_permute(rp, inv);
            ten_free(rp);
        }
    }
    for (int j = 0; j < n; j++) ten_free(xs[j]);
    return r;
}

typedef struct BinArgs { BinOp op; bool aw, bw; } BinArgs;
static Tensor *binary_kernel(const Tensor *const *xs, const void *arg) {
    const BinArgs *b = arg;
    return binary_rowmajor(b->op, xs[0], b->aw, xs[1], b->bw);
}

/* a op b with broadcasting; see tensor.h for the dtype rule. */
Tensor *ten_binary(BinOp op, const Tensor *a, bool aw, const Tensor *b, bool bw) {
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    if (ten_broadcast_shape(a->shape, a->ndim, b->shape, b->ndim, shape, &nd) < 0) return NULL;
    const Tensor *ops[2] = {a, b};
    BinArgs args = {op, aw, bw};
    if (a->contiguous && b->contiguous) return binary_rowmajor(op, a, aw, b, bw);
    return in_result_order(ops, 2, nd, shape, binary_kernel, &args);
}

static double sigmoid(double x) { return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x)); }
/* Python/PyTorch round half to even. */
static double round_half_even(double x) { return nearbyint(x); }

static Tensor *unary_rowmajor(UnOp op, const Tensor *a);
static Tensor *unary_kernel(const Tensor *const *xs, const void *arg) {
    const Tensor *tmp_in;
    Tensor *tmp;
    if (!(tmp_in = ten_as_contiguous(xs[0], &tmp))) return NULL;
    Tensor *r = unary_rowmajor(*(const UnOp *)arg, tmp_in);
    ten_free(tmp);
    return r;
}

Tensor *ten_unary(UnOp op, const Tensor *a) {
    if (a->contiguous) return unary_rowmajor(op, a);
    return in_result_order(&a, 1, a->ndim, a->shape, unary_kernel, &op);
}

/* op over a contiguous a into a new row-major result. */
static Tensor *unary_rowmajor(UnOp op, const Tensor *a) {
    bool keeps_int = op == UOP_NEG || op == UOP_ABS || op == UOP_RELU || op == UOP_FLOOR || op == UOP_CEIL ||
                     op == UOP_ROUND || op == UOP_SIGN || op == UOP_SQUARE;
    bool to_bool = op == UOP_NOT || op == UOP_ISNAN || op == UOP_ISINF || op == UOP_ISFINITE;
    DType odt = to_bool ? DT_BOOL : ten_is_float(a->dtype) ? a->dtype : keeps_int ? DT_I64 : ten_default_float;
    if (op == UOP_NOT && a->dtype == DT_I64) odt = DT_I64;   /* ~x on integers is bitwise */
    Tensor *o = ten_new(odt, a->ndim, a->shape);
    if (!o) return NULL;
    int64_t n = a->numel;
    if (odt == DT_I64) {
        for (int64_t i = 0; i < n; i++) {
            int64_t x = a->dtype == DT_I64 ? ten_i64(a)[i] : ten_b8(a)[i], r = x;
            switch (op) {
            case UOP_NEG: if (x == INT64_MIN) goto overflow; r = -x; break;
            case UOP_ABS: if (x == INT64_MIN) goto overflow; r = x < 0 ? -x : x; break;
            case UOP_RELU: r = x > 0 ? x : 0; break;
            case UOP_SIGN: r = (x > 0) - (x < 0); break;
            case UOP_SQUARE: if (__builtin_mul_overflow(x, x, &r)) goto overflow; break;
            case UOP_NOT: r = ~x; break;
            default: break;   /* floor, ceil, round of an integer */
            }
            ten_i64(o)[i] = r;
        }
        return o;
    }
    for (int64_t i = 0; i < n; i++) {
        double x = ten_get(a, i), r = 0;
        switch (op) {
        case UOP_NEG: r = -x; break;
        case UOP_ABS: r = fabs(x); break;
        case UOP_SIN: r = sin(x); break;
        case UOP_COS: r = cos(x); break;
        case UOP_TAN: r = tan(x); break;
        case UOP_EXP: r = exp(x); break;
        case UOP_LOG: r = log(x); break;
        case UOP_LOG2: r = log2(x); break;
        case UOP_LOG10: r = log10(x); break;
        case UOP_SQRT: r = sqrt(x); break;
        case UOP_RSQRT: r = 1 / sqrt(x); break;
        case UOP_TANH: r = tanh(x); break;
        case UOP_RELU: r = x > 0 ? x : 0; break;
        case UOP_SIGMOID: r = sigmoid(x); break;
        case UOP_FLOOR: r = floor(x); break;
        case UOP_CEIL: r = ceil(x); break;
        case UOP_ROUND: r = round_half_even(x); break;
        case UOP_SIGN: r = x > 0 ? 1 : x < 0 ? -1 : 0; break;
        case UOP_SQUARE: r = x * x; break;
        case UOP_ASIN: r = asin(x); break;
        case UOP_ACOS: r = acos(x); break;
        case UOP_ATAN: r = atan(x); break;
        case UOP_NOT: r = x == 0; break;
        case UOP_ISNAN: r = isnan(x); break;
        case UOP_ISINF: r = isinf(x); break;
        case UOP_ISFINITE: r = isfinite(x); break;
        }
        ten_set(o, i, r);
    }
    return o;
overflow:
    ten_free(o);
    ten_fail("integer overflow: the result does not fit in int64");
    return NULL;
}

Tensor *ten_clamp(const Tensor *a, double lo, double hi) {
    Tensor *o = ten_copy(a);     /* contiguous */
    if (!o) return NULL;
    for (int64_t i = 0; i < o->numel; i++) {
        double x = ten_get(o, i);
        if (isnan(x)) continue;
        if (!isnan(lo) && x < lo) x = lo;
        if (!isnan(hi) && x > hi) x = hi;
        ten_set(o, i, x);
    }
    return o;
}

Tensor *ten_where(const Tensor *cond, const Tensor *a, bool aw, const Tensor *b, bool bw) {
    int64_t s1[TEN_MAX_DIMS], s2[TEN_MAX_DIMS];
    int n1, n2;
    if (ten_broadcast_shape(cond->shape, cond->ndim, a->shape, a->ndim, s1, &n1) < 0) return NULL;
    if (ten_broadcast_shape(s1, n1, b->shape, b->ndim, s2, &n2) < 0) return NULL;
    DType dt = ten_result_type(a, aw, b, bw);
    Tensor *c = ten_expand_dense(cond, DT_BOOL, n2, s2), *x = ten_expand_dense(a, a->dtype, n2, s2),
           *y = ten_expand_dense(b, b->dtype, n2, s2);
    Tensor *o = (c && x && y) ? ten_new(dt, n2, s2) : NULL;
    if (o)
        for (int64_t i = 0; i < o->numel; i++) ten_set(o, i, ten_get(c, i) != 0 ? ten_get(x, i) : ten_get(y, i));
    ten_free(c); ten_free(x); ten_free(y);
    return o;
}

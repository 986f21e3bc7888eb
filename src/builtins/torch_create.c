/* torch_create.c - making tensors: tensor, zeros, ones, full, arange, linspace, eye, rand, randn, normal,
 * randint, *_like, manual_seed, and set_printoptions. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include <math.h>
#include <string.h>

/* dtype=torch.float32 (or absent). */
bool get_dtype(Interp *I, Args *a, bool *has, DType *dt) {
    Value *d = arg(a, -1, "dtype");
    *has = d && d->kind != V_NONE;
    if (!*has) return true;
    if (d->kind != V_DTYPE) { rt_error(I, "dtype must be a torch dtype such as torch.float32, not %s", val_type_name(d)); return false; }
    *dt = d->u.dtype;
    return true;
}


static Value *bi_tensor(Interp *I, Args *a) {
    Value *p[4];                                 /* data, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 4)) return NULL;
    Value *data = p[0];
    bool has;
    DType dt = I->run.ten->default_float;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    /* torch.as_tensor(X) with X's dtype is X itself, as in PyTorch (torch.tensor copies) */
    if (a->fn->tag == 1 && data->kind == V_TENSOR && (!has || dt == data->u.t->dtype)) return val_incref(data);
    Tensor *t = interp_to_tensor(I, data, has, dt);
    return t ? val_tensor(I->run.heap, t) : (interp_failed(I) ? NULL : rt_tensor_error(I));
}

/* torch.Size(iterable=(), /): a torch.Size of the ints (or one-element integer tensors) an iterable gives; what calling
 * the class torch.Size does (class_call through ClassInfo.make). */
static Value *bi_size(Interp *I, Args *a) {
    Args b = *a;                                 /* torch.Size is a tuple: bound by tuple's declaration, its words */
    b.fname = NULL;
    Value *src;
    if (!args_bind_call(I, &b, builtins_find("tuple"), NULL, &src, 1)) return NULL;
    if (!src) return val_size(I->run.heap, NULL, 0);
    Value *l = ops_to_list(I, src);
    if (!l) return NULL;
    int64_t shape[TEN_MAX_DIMS];
    Value *r = NULL;
    if (l->u.seq.n > TEN_MAX_DIMS) {
        rt_raise(I, "ValueError", "torch.Size() of %lld sizes: attn's tensors have at most %d dimensions", (long long)l->u.seq.n, TEN_MAX_DIMS);
        goto out;
    }
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *v = l->u.seq.items[i];
        bool is_int = v->kind == V_INT || (v->kind == V_TENSOR && v->u.t->numel == 1 && v->u.t->dtype == DT_I64);
        if (!is_int) {
            rt_raise(I, "TypeError", "torch.Size() takes an iterable of 'int' (item %lld is '%s')", (long long)i, val_type_name(v));
            goto out;
        }
        if (!arg_int(I, v, "a size", &shape[i])) goto out;
    }
    r = val_size(I->run.heap, shape, (int)l->u.seq.n);
out:
    val_decref(l);
    return r;
}

const Builtin torch_size_builtin = {"Size", bi_size, "torch.Size(iterable=(), /)",
    "The shape type of tensors: torch.Size([2, 3]) == torch.zeros(2, 3).shape.", "", 0, "torch"};

/* zeros / ones / empty: tag 0 zeros, 1 ones */
static Value *bi_fill_shape(Interp *I, Args *a) {
    Value *p[4];                                 /* *size, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 4)) return NULL;
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    if (!arg_shape(I, a, 0, shape, &nd)) return NULL;
    if (!p[0]) return rt_error(I, "%s() needs a shape, e.g. %s((2, 3))", a->fname, a->fname);
    bool has;
    DType dt = I->run.ten->default_float;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    return rt_tensor_result(I, ten_full_in(I->run.ten, dt, nd, shape, a->fn->tag == 1 ? 1 : 0));
}

static Value *bi_full(Interp *I, Args *a) {
    Value *p[5];                                 /* size, fill_value, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 5)) return NULL;
    Value *sz = p[0], *fv = p[1];
    if (sz->kind != V_TUPLE && sz->kind != V_LIST) return rt_error(I, "full(): size must be a tuple, e.g. full((2, 3), 7.0)");
    Args sa = {&sz, 1, NULL, NULL, 0, "full", NULL};
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    if (!arg_shape(I, &sa, 0, shape, &nd)) return NULL;
    double v;
    if (!arg_double(I, fv, "fill_value", &v)) return NULL;
    bool has;
    DType dt = fv->kind == V_FLOAT ? I->run.ten->default_float : fv->kind == V_BOOL ? DT_BOOL : DT_I64;
    if (fv->kind == V_TENSOR) dt = fv->u.t->dtype;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    return rt_tensor_result(I, ten_full_in(I->run.ten, dt, nd, shape, v));
}

/* zeros_like / ones_like / rand_like / randn_like / empty_like: tag 0, 1, 2, 3 (empty_like is zeros here) */
static Value *bi_like(Interp *I, Args *a) {
    Value *p[4];                                 /* input, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 4)) return NULL;
    Value *x = p[0];
    if (x->kind != V_TENSOR) return arg_not_tensor(I, a, x, "input", ARG_TENSOR);
    bool has;
    DType dt = x->u.t->dtype;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    const Tensor *t = x->u.t;
    if (a->fn->tag >= 2 && !ten_is_float(dt))
        return rt_error(I, "\"%s\" not implemented for '%s'", a->fn->tag == 2 ? "check_uniform_bounds" : "normal_kernel_cpu",
                        dt == DT_I64 ? "Long" : "Bool");
    switch (a->fn->tag) {
    case 2: return rt_tensor_result(I, ten_uniform_in(I->run.ten, &I->run.rng, dt, t->ndim, t->shape, 0, 1));
    case 3: return rt_tensor_result(I, ten_normal_in(I->run.ten, &I->run.rng, dt, t->ndim, t->shape, 0, 1));
    default: return rt_tensor_result(I, ten_full_in(I->run.ten, dt, t->ndim, t->shape, a->fn->tag));
    }
}

static Value *bi_full_like(Interp *I, Args *a) {
    Value *p[5];                                 /* input, fill_value, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 5)) return NULL;
    Value *x = p[0], *fv = p[1];
    if (x->kind != V_TENSOR) return arg_not_tensor(I, a, x, "input", ARG_TENSOR);
    double v;
    if (!arg_double(I, fv, "fill_value", &v)) return NULL;
    bool has;
    DType dt = x->u.t->dtype;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    return rt_tensor_result(I, ten_full_in(I->run.ten, dt, x->u.t->ndim, x->u.t->shape, v));
}

/* arange(end) / arange(start, end, step=1): int64 unless a bound is a float or dtype says otherwise. */
/* arange(start, end, step) over int64 bounds beyond 2**53, counted in integers: in doubles the last digits are lost,
 * and arange(2**62, 2**62 + 3) was empty. The caller has checked that step is nonzero and points from start to end. */
static Tensor *arange_i64(TenCtx *c, int64_t start, int64_t end, int64_t step) {
    uint64_t span = step > 0 ? (uint64_t)end - (uint64_t)start : (uint64_t)start - (uint64_t)end;
    uint64_t by = step > 0 ? (uint64_t)step : (uint64_t)0 - (uint64_t)step;
    uint64_t n = (span - 1) / by + 1;
    int64_t sh[1] = {n > (uint64_t)c->limit_numel ? c->limit_numel + 1 : (int64_t)n};
    Tensor *t = ten_new_in(c, DT_I64, 1, sh);
    for (int64_t i = 0; t && i < sh[0]; i++) ten_i64(t)[i] = (int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)step);
    return t;
}

static Value *bi_arange(Interp *I, Args *a) {
    Value *p[6], *v[3] = {NULL, NULL, NULL};    /* start, end, step / end */
    int form = args_bind_form(I, a, p, 6);
    if (form < 0) return NULL;
    if (form == 1) v[1] = p[0];
    else { v[0] = p[0]; v[1] = p[1]; v[2] = p[2]; }
    double x[3] = {0, 0, 1};
    bool any_float = false;
    for (int i = 0; i < 3; i++) {
        if (!v[i]) continue;
        if (!arg_double(I, v[i], i == 0 ? "start" : i == 1 ? "end" : "step", &x[i])) return NULL;
        if (v[i]->kind == V_FLOAT || (v[i]->kind == V_TENSOR && ten_is_float(v[i]->u.t->dtype))) any_float = true;
    }
    bool has;
    DType dt = any_float ? I->run.ten->default_float : DT_I64;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    if (dt == DT_BOOL) return rt_error(I, "arange() does not make bool tensors");
    int64_t k[3] = {0, 0, 1};
    bool exact = !any_float && dt == DT_I64;
    for (int i = 0; exact && i < 3; i++) {
        if (v[i] && (v[i]->kind != V_INT || !arg_int(I, v[i], "bound", &k[i]))) exact = false;
    }
    bool big = fabs(x[0]) > 9007199254740992.0 || fabs(x[1]) > 9007199254740992.0 || fabs(x[2]) > 9007199254740992.0;
    if (exact && big && k[2] != 0 && (k[2] > 0 ? k[1] > k[0] : k[1] < k[0])) return rt_tensor_result(I, arange_i64(I->run.ten, k[0], k[1], k[2]));
    return rt_tensor_result(I, ten_arange_in(I->run.ten, x[0], x[1], x[2], dt));
}

static Value *bi_linspace(Interp *I, Args *a) {
    Value *p[6];                                 /* start, end, steps, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 6)) return NULL;
    Value *s = p[0], *e = p[1], *n = p[2];
    double x0, x1;
    int64_t steps;
    if (!arg_double(I, s, "start", &x0) || !arg_double(I, e, "end", &x1) || !arg_int(I, n, "steps", &steps)) return NULL;
    bool has;
    DType dt = I->run.ten->default_float;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    return rt_tensor_result(I, ten_linspace_in(I->run.ten, x0, x1, steps, dt));
}

static Value *bi_eye(Interp *I, Args *a) {
    Value *p[5];                                 /* n, m, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 5)) return NULL;
    Value *n = p[0], *m = p[1];
    int64_t rows, cols;
    if (!arg_int(I, n, "n", &rows)) return NULL;
    cols = rows;
    if (m && !arg_int(I, m, "m", &cols)) return NULL;
    if (rows < 0 || cols < 0) return rt_error(I, "eye(): sizes must be non-negative");
    bool has;
    DType dt = I->run.ten->default_float;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    return rt_tensor_result(I, ten_eye_in(I->run.ten, rows, cols, dt));
}

/* A float dtype for random numbers (float32 or float64); PyTorch's message for the others. */
static bool random_dtype(Interp *I, Args *a, DType *dt, bool normal) {
    bool has;
    *dt = I->run.ten->default_float;
    if (!get_dtype(I, a, &has, dt)) return false;
    if (!ten_is_float(*dt)) {
        rt_error(I, "\"%s\" not implemented for '%s'", normal ? "normal_kernel_cpu" : "check_uniform_bounds", *dt == DT_I64 ? "Long" : "Bool");
        return false;
    }
    return true;
}

/* rand / randn: tag 0 uniform, 1 normal */
static Value *bi_rand(Interp *I, Args *a) {
    Value *p[4];                                 /* *size, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 4)) return NULL;
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    DType dt;
    if (!arg_shape(I, a, 0, shape, &nd) || !random_dtype(I, a, &dt, a->fn->tag == 1)) return NULL;
    return rt_tensor_result(I, a->fn->tag ? ten_normal_in(I->run.ten, &I->run.rng, dt, nd, shape, 0, 1) : ten_uniform_in(I->run.ten, &I->run.rng, dt, nd, shape, 0, 1));
}

static Value *bi_normal(Interp *I, Args *a) {
    Value *p[6];                                 /* mean, std, size, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 6)) return NULL;
    Value *m = p[0], *s = p[1], *sz = p[2];
    double mean = 0, std = 1;
    if (m && !arg_double(I, m, "mean", &mean)) return NULL;
    if (s && !arg_double(I, s, "std", &std)) return NULL;
    if (std < 0) return rt_error(I, "normal(): std must be >= 0, got %g", std);
    if (!sz) return rt_error(I, "normal(mean, std, size) needs a size, e.g. torch.normal(0, 1, (2, 3))");
    Args sa = {&sz, 1, NULL, NULL, 0, "normal", NULL};
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    DType dt;
    if (!arg_shape(I, &sa, 0, shape, &nd) || !random_dtype(I, a, &dt, true)) return NULL;
    return rt_tensor_result(I, ten_normal_in(I->run.ten, &I->run.rng, dt, nd, shape, mean, std));
}

/* Integers lo + (a draw mod (hi - lo)) into a new tensor of the shape, cast to dt: what randint and randint_like
 * draw (the caller has checked lo < hi). */
static Value *randint_fill(Interp *I, int ndim, const int64_t *shape, int64_t lo, int64_t hi, DType dt) {
    Tensor *t = ten_new_in(I->run.ten, DT_I64, ndim, shape);
    if (!t) return rt_tensor_error(I);
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    for (int64_t i = 0; i < t->numel; i++) ten_i64(t)[i] = (int64_t)((uint64_t)lo + rng_next(&I->run.rng) % span);
    if (dt == DT_I64) return val_tensor(I->run.heap, t);
    Tensor *c = ten_cast(t, dt);
    ten_free(t);
    return rt_tensor_result(I, c);
}

static Value *bi_randint(Interp *I, Args *a) {
    Value *p[6];                                 /* low, high, size, dtype, device, requires_grad / high, size, ... */
    int form = args_bind_form(I, a, p, 6);
    if (form < 0) return NULL;
    bool has;
    DType dt = DT_I64;                           /* integers, in any dtype asked for (float32: requires_grad=True) */
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    int64_t lo = 0, hi;
    Value *sz = p[form == 0 ? 2 : 1];
    if ((form == 0 && !arg_int(I, p[0], "low", &lo)) || !arg_int(I, p[form == 0 ? 1 : 0], "high", &hi)) return NULL;
    if (hi <= lo) return rt_error(I, "randint(): high (%lld) must be greater than low (%lld)", (long long)hi, (long long)lo);
    Args sa = {&sz, 1, NULL, NULL, 0, "randint", NULL};
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    if (!arg_shape(I, &sa, 0, shape, &nd)) return NULL;
    return randint_fill(I, nd, shape, lo, hi, dt);
}

/* torch.randint_like(input, high) / (input, low, high): randint's integers in input's shape and (unless dtype=)
 * dtype, PyTorch's errors for low >= high and for a bool tensor asked for more than 0 and 1. */
static Value *bi_randint_like(Interp *I, Args *a) {
    Value *p[7];                                 /* input, low, high, ... / input, high, ... */
    int form = args_bind_form(I, a, p, 7);
    if (form < 0) return NULL;
    Value *x = p[0], *l = form == 0 ? p[1] : NULL, *h = p[form == 0 ? 2 : 1];
    if (x->kind != V_TENSOR) return rt_raise(I, "TypeError", "randint_like(): argument 'input' (position 1) must be Tensor, not %s", val_type_name(x));
    int64_t lo = 0, hi;
    if ((l && !arg_int(I, l, "low", &lo)) || !arg_int(I, h, "high", &hi)) return NULL;
    bool has;
    DType dt = x->u.t->dtype;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    if (lo >= hi)
        return rt_error(I, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld", (long long)lo, (long long)hi);
    if (dt == DT_BOOL && (lo < 0 || hi > 2)) return rt_error(I, "to - 1 is out of bounds for bool");
    return randint_fill(I, x->u.t->ndim, x->u.t->shape, lo, hi, dt);
}

/* torch.randperm(n, *, generator=None, dtype=torch.int64): 0 .. n-1 in an order drawn from attn's generator, the one
 * function a shuffling DataLoader draws its order from too (ten_randperm_in). */
static Value *bi_randperm(Interp *I, Args *a) {
    Value *p[5];                                 /* n, generator, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 5)) return NULL;
    if (p[0]->kind != V_INT && p[0]->kind != V_BOOL && !(p[0]->kind == V_TENSOR && p[0]->u.t->numel == 1 && !ten_is_float(p[0]->u.t->dtype)))
        return rt_raise(I, "TypeError", "randperm(): argument 'n' (position 1) must be int, not %s", val_type_name(p[0]));
    if (p[1] && p[1]->kind != V_NONE)
        return rt_error(I, "randperm(generator=...) is not in attn: it has one generator, seeded by torch.manual_seed");
    int64_t n;
    if (!arg_int(I, p[0], "n", &n)) return NULL;
    bool has;
    DType dt = DT_I64;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    if (dt == DT_BOOL) return rt_error(I, "\"randperm\" not implemented for 'Bool'");
    Tensor *t = ten_randperm_in(I->run.ten, &I->run.rng, n);
    if (!t || dt == DT_I64) return rt_tensor_result(I, t);
    Tensor *c = ten_cast(t, dt);
    ten_free(t);
    return rt_tensor_result(I, c);
}

/* torch.scalar_tensor(s, *, dtype=None): a 0-dim tensor of the number s, the default float dtype unless dtype=. */
static Value *bi_scalar_tensor(Interp *I, Args *a) {
    Value *p[4];                                 /* s, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 4)) return NULL;
    Value *s = p[0];
    if (!val_is_number(s) && !(s->kind == V_TENSOR && s->u.t->numel == 1))
        return rt_raise(I, "TypeError", "scalar_tensor(): argument 's' (position 1) must be Number, not %s", val_type_name(s));
    double v;
    if (!arg_double(I, s, "s", &v)) return NULL;
    bool has;
    DType dt = I->run.ten->default_float;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    return rt_tensor_result(I, ten_full_in(I->run.ten, dt, 0, NULL, v));
}

/* torch.logspace(start, end, steps, base=10.0, *, dtype=None): base ** linspace(start, end, steps), digits as
 * PyTorch's CPU kernel gives them (ten_logspace_in). */
static Value *bi_logspace(Interp *I, Args *a) {
    Value *p[7];                                 /* start, end, steps, base, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 7)) return NULL;
    double x0, x1, base = 10.0;
    int64_t steps;
    if (!arg_double(I, p[0], "start", &x0) || !arg_double(I, p[1], "end", &x1) || !arg_int(I, p[2], "steps", &steps)) return NULL;
    if (p[3] && !arg_double(I, p[3], "base", &base)) return NULL;
    bool has;
    DType dt = I->run.ten->default_float;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    if (dt == DT_BOOL) return rt_error(I, "\"logspace_cpu\" not implemented for 'Bool'");
    return rt_tensor_result(I, ten_logspace_in(I->run.ten, x0, x1, steps, base, dt));
}

/* torch.set_default_dtype(d): what Python floats and float creation functions become; float32 or float64. */
static Value *bi_set_default_dtype(Interp *I, Args *a) {
    Value *d;
    if (!args_bind(I, a, &d, 1)) return NULL;
    if (d->kind != V_DTYPE) return rt_error(I, "set_default_dtype(d) needs a dtype, e.g. torch.float64");
    if (!ten_is_float(d->u.dtype)) return rt_error(I, "only floating-point types are supported as the default type");
    I->run.ten->default_float = d->u.dtype;
    return val_none();
}

static Value *bi_get_default_dtype(Interp *I, Args *a) {
    if (!args_bind(I, a, NULL, 0)) return NULL;
    return val_dtype(I->run.heap, I->run.ten->default_float);
}

static Value *bi_manual_seed(Interp *I, Args *a) {
    Value *s;
    if (!args_bind(I, a, &s, 1)) return NULL;
    int64_t seed;
    if (!arg_int(I, s, "seed", &seed)) return NULL;
    rng_seed(&I->run.rng, (uint64_t)seed);
    return val_none();
}

/* torch.set_num_threads(n): attn's threads for kernels and products (ATTN_THREADS sets the starting count). */
static Value *bi_set_num_threads(Interp *I, Args *a) {
    Value *v;
    if (!args_bind(I, a, &v, 1)) return NULL;
    int64_t n;
    if (!arg_int(I, v, "int", &n)) return NULL;
    if (n < 1) return rt_error(I, "set_num_threads: the number of threads must be positive, got %lld", (long long)n);
    ten_set_threads(I->run.ten, n > 256 ? 256 : (int)n);
    return val_none();
}

static Value *bi_get_num_threads(Interp *I, Args *a) {
    if (!args_bind(I, a, NULL, 0)) return NULL;
    return val_int(I->run.heap, ten_threads(I->run.ten));
}

/* show_config(): what the kernels run on, as torch.__config__.show() tells for PyTorch. */
static Value *bi_show_config(Interp *I, Args *a) {
    if (!args_bind(I, a, NULL, 0)) return NULL;
    char blas[256];
    ten_blas_describe(blas, sizeof blas);
    StrBuf o;
    sb_init(&o);
    sb_printf(&o, "attn %s\n  threads: %d (ATTN_THREADS, torch.set_num_threads)\n"
                  "  vector math: %s (1.0-ULP functions, as PyTorch; ATTN_SIMD)\n"
                  "  matrix products: %s (ATTN_GEMM)\n  BLAS: %s\n",
              ATTN_VERSION, ten_threads(I->run.ten), ten_vecmath_name(), ten_gemm_describe(I->run.ten), blas);
    Value *r = val_str(I->run.heap, sb_str(&o));
    sb_free(&o);
    return r;
}

/* attn.gemm_stats(): (seconds, FLOPs) of the float32 matrix products since the session began (ten_gemm_stats). */
static Value *bi_gemm_stats(Interp *I, Args *a) {
    if (!args_bind(I, a, NULL, 0)) return NULL;
    double seconds, flops;
    ten_gemm_stats(I->run.ten, &seconds, &flops);
    Value *r = val_tuple(I->run.heap, 2);
    val_seq_set(r, 0, val_float(I->run.heap, seconds));
    val_seq_set(r, 1, val_float(I->run.heap, flops));
    return r;
}

static Value *bi_set_printoptions(Interp *I, Args *a) {
    Value *p[6];                 /* precision, threshold, edgeitems, linewidth, sci_mode, profile */
    if (!args_bind(I, a, p, 6)) return NULL;
    PrintOptions *po = &I->run.print;
    Value *prof = p[5];
    if (prof) {
        if (prof->kind != V_STR) return rt_error(I, "profile must be 'default', 'short' or 'full'");
        if (!strcmp(prof->u.str.s, "default")) *po = (PrintOptions){4, 1000, 3, 80, -1};
        else if (!strcmp(prof->u.str.s, "short")) *po = (PrintOptions){2, 1000, 2, 80, -1};
        else if (!strcmp(prof->u.str.s, "full")) *po = (PrintOptions){4, 1000000, 3, 80, -1};
        else return rt_error(I, "profile must be 'default', 'short' or 'full'");
    }
    const char *names[] = {"precision", "threshold", "edgeitems", "linewidth"};
    int *fields[] = {&po->precision, &po->threshold, &po->edgeitems, &po->linewidth};
    int64_t lo[] = {0, 0, 0, 10}, hi[] = {30, 100000000, 1000, 10000};
    for (int i = 0; i < 4; i++) {
        Value *v = p[i];
        if (!v || v->kind == V_NONE) continue;
        int64_t x;
        if (!arg_int(I, v, names[i], &x)) return NULL;
        if (x < lo[i] || x > hi[i]) return rt_error(I, "%s must be between %lld and %lld", names[i], (long long)lo[i], (long long)hi[i]);
        *fields[i] = (int)x;
    }
    Value *sci = p[4];
    if (sci) {
        if (sci->kind == V_NONE) po->sci_mode = -1;
        else { bool b; if (!arg_bool(I, sci, "sci_mode", &b)) return NULL; po->sci_mode = b; }
    }
    return val_none();
}

const Builtin bi_torch_create[] = {
    {"tensor", bi_tensor, "torch.tensor(data, *, dtype=None, device=None, requires_grad=False)",
     "A tensor from a number or nested lists: integers give int64 (torch.tensor([3, 2])), floats give float32.", "§2.1", 0, "torch"},
    {"as_tensor", bi_tensor, "torch.as_tensor(data, *, dtype=None, device=None, requires_grad=False)",
     "Like torch.tensor, but a tensor of the same dtype is not copied: the result shares its memory.", "§2.1", 1, "torch"},
    {"zeros", bi_fill_shape, "torch.zeros(*size, dtype=torch.float32, device=None, requires_grad=False)", "A tensor of zeros: torch.zeros((1, 1000, 32)).", "§2.1", 0, "torch"},
    {"ones", bi_fill_shape, "torch.ones(*size, dtype=torch.float32, device=None, requires_grad=False)", "A tensor of ones: torch.ones((2, 4, 100)).", "§2.1", 1, "torch"},
    {"empty", bi_fill_shape, "torch.empty(*size, dtype=None, device=None, requires_grad=False)", "A new tensor (attn fills it with zeros).", "§2.1", 0, "torch"},
    {"full", bi_full, "torch.full(size, fill_value, *, dtype=None, device=None, requires_grad=False)", "A tensor filled with one value.", "§2.1", 0, "torch"},
    {"zeros_like", bi_like, "torch.zeros_like(input, *, dtype=None, device=None, requires_grad=False)", "Zeros of X's shape and dtype.", "§2.1", 0, "torch"},
    {"ones_like", bi_like, "torch.ones_like(input, *, dtype=None, device=None, requires_grad=False)", "Ones of X's shape and dtype.", "§2.1", 1, "torch"},
    {"rand_like", bi_like, "torch.rand_like(input, *, dtype=None, device=None, requires_grad=False)", "Uniform [0, 1) numbers of X's shape.", "§2.1", 2, "torch"},
    {"randn_like", bi_like, "torch.randn_like(input, *, dtype=None, device=None, requires_grad=False)", "Standard normal numbers of X's shape.", "§2.1", 3, "torch"},
    {"empty_like", bi_like, "torch.empty_like(input, *, dtype=None, device=None, requires_grad=False)",
     "A new tensor of X's shape and dtype (attn fills it with zeros).", "§2.1", 0, "torch"},
    {"randint_like", bi_randint_like, "torch.randint_like(input, low, high, *, dtype=None, device=None, requires_grad=False, memory_format=None) / "
     "torch.randint_like(input, high, *, dtype=None, device=None, requires_grad=False, memory_format=None)",
     "Random integers in [low, high) in X's shape and dtype, drawn as torch.randint draws them.", "§2.1", 0, "torch"},
    {"full_like", bi_full_like, "torch.full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False)", "X's shape filled with v.", "§2.1", 0, "torch"},
    {"arange", bi_arange, "torch.arange(start, end, step=1, *, dtype=None, device=None, requires_grad=False) / "
     "torch.arange(end, *, dtype=None, device=None, requires_grad=False)",
     "start, start+step, ... below end: int64 for integer bounds, float32 with dtype=torch.float32 or float bounds.", "§2.1", 0, "torch"},
    {"linspace", bi_linspace, "torch.linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False)", "steps evenly spaced values from start to end.", "§2.1", 0, "torch"},
    {"logspace", bi_logspace, "torch.logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False)",
     "steps values from base**start to base**end, evenly spaced in the exponent: torch.logspace(0, 2, 3) is 1, 10, 100.",
     "§2.1", 0, "torch"},
    {"scalar_tensor", bi_scalar_tensor, "torch.scalar_tensor(s, *, dtype=None, device=None, requires_grad=False)",
     "A 0-dim tensor of the number s, float32 (the default dtype) unless dtype= says otherwise.", "§2.1", 0, "torch"},
    {"eye", bi_eye, "torch.eye(n, m=n, *, dtype=None, device=None, requires_grad=False)", "Identity matrix.", "§2.1", 0, "torch"},
    {"rand", bi_rand, "torch.rand(*size, dtype=None, device=None, requires_grad=False)", "Uniform numbers in [0, 1) from the seeded generator (torch.manual_seed).", "§2.1", 0, "torch"},
    {"randn", bi_rand, "torch.randn(*size, dtype=None, device=None, requires_grad=False)", "Standard normal numbers from the seeded generator.", "§2.1", 1, "torch"},
    {"normal", bi_normal, "torch.normal(mean=0.0, std=1.0, size=None, *, dtype=None, device=None, requires_grad=False)", "Normal numbers with the given mean and std.", "§2.1", 0, "torch"},
    {"randint", bi_randint, "torch.randint(low, high, size, *, dtype=torch.int64, device=None, requires_grad=False) / "
     "torch.randint(high, size, *, dtype=torch.int64, device=None, requires_grad=False)", "Random integers in [low, high).", "§2.1", 0, "torch"},
    {"randperm", bi_randperm, "torch.randperm(n, *, generator=None, dtype=torch.int64, device=None, requires_grad=False)",
     "0 .. n-1 in a random order from the seeded generator (Fisher-Yates); a shuffling DataLoader draws its order the "
     "same way. The same seed gives the same permutation on every machine, not PyTorch's.", "§2.1", 0, "torch"},
    {"manual_seed", bi_manual_seed, "torch.manual_seed(seed)",
     "Seeds attn's generator: the same seed gives the same numbers on every machine (not PyTorch's numbers).", "", 0, "torch"},
    {"set_default_dtype", bi_set_default_dtype, "torch.set_default_dtype(d)",
     "Makes Python floats and new float tensors float64 (or float32 again): torch.set_default_dtype(torch.float64).", "", 0, "torch"},
    {"get_default_dtype", bi_get_default_dtype, "torch.get_default_dtype(/)", "The dtype of new float tensors: torch.float32 unless set.", "", 0, "torch"},
    {"set_num_threads", bi_set_num_threads, "torch.set_num_threads(int, /)",
     "How many threads attn's kernels and matrix products use (default: every core, or ATTN_THREADS). Results are "
     "the same for any number.", "", 0, "torch"},
    {"get_num_threads", bi_get_num_threads, "torch.get_num_threads(/)", "The number of threads attn's kernels use.", "", 0, "torch"},
    {"show_config", bi_show_config, "attn.show_config()",
     "What attn computes with: its threads, the vector math library (SLEEF) and the path of matrix products, each "
     "chosen once. The results are the same bytes for every thread count and OpenBLAS core. Environment variables "
     "choose others: ATTN_THREADS=n, ATTN_SIMD=scalar|avx2|avx512 (a lower vector level), ATTN_GEMM=openblas (never "
     "attn's own kernel) or loop (attn's fixed-order loop: the same products on every machine).", "", 0, "attn"},
    {"gemm_stats", bi_gemm_stats, "attn.gemm_stats()",
     "(seconds, FLOPs): the wall time of the float32 matrix products (matmul, @, bmm, Linear layers, their backward) "
     "since the session began, and their floating-point operations (2·m·n·k each). Their difference over a stretch of "
     "code rates its products: FLOPs / seconds.", "", 0, "attn"},
    {"set_printoptions", bi_set_printoptions, "torch.set_printoptions(precision=4, *, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None, profile=None)",
     "How tensors print, as in PyTorch.", "", 0, "torch"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* tensor.h - strided tensors of float32, float64, int64 and bool (prefix ten_), with PyTorch's view semantics.
 *
 * The value library knows nothing of the language or the terminal. Functions that can fail return NULL (or -1)
 * and leave a message in ten_error(); nothing here exits. Shapes in comments are written (B, T, D) as in the book.
 *
 * Layout (as PyTorch's): a Tensor is a view onto a reference-counted TenStorage. Element (i0, ..., in-1) lives at
 * storage element  offset + i0*stride[0] + ... + in-1*stride[n-1]  (strides and offset count elements, not bytes;
 * a stride may be 0 after expand). Views (slices, select, transpose, permute, unsqueeze/squeeze, expand, view,
 * reshape when the strides allow) share the storage, so writing through one shows in the others. `data` points at
 * element (0, ..., 0). A tensor is contiguous when it is row-major and dense (dims of size 1 ignored, as PyTorch
 * decides); only then may a kernel read data[i] as element i: kernels take their input through
 * ten_as_contiguous (free when it already is), and ten_f32/ten_i64/ten_b8 assert contiguity in sanitizer builds.
 * ten_get/ten_set take the row-major element number and follow the strides, so they are right for any tensor.
 */
#ifndef ATTN_TENSOR_H
#define ATTN_TENSOR_H
#include "attnerr.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define TEN_MAX_DIMS 8

typedef enum { DT_F32 = 0, DT_I64 = 1, DT_BOOL = 2, DT_F64 = 3 } DType;
static inline bool ten_is_float(DType d) { return d == DT_F32 || d == DT_F64; }
typedef enum { TEN_ERR_FAILED = 1, TEN_ERR_INTERRUPTED } TenErrKind;
#define TEN_ERR_MAX 512             /* a tensor error's message is cut there (the messages tests pin were made so) */

/* ---- the library's context (tensor_create.c) ----
 * Everything one run of the library changes: its last error, its limits, its default dtype, the bytes its tensors
 * hold and the buffers kept for their reuse, its thread count and product switches. A session owns one
 * (RunContext.ten, made by ten_ctx_new), so two sessions in one process (unit tests, the notebook kernel, a lesson
 * inside the REPL) never see each other's error, limits or dtype. Factories without a tensor input take it (the _in
 * names: ten_new_in, ten_scalar_d_in ...); kernels make their results in their input's context (ten_ctx_of), read its
 * default dtype and fail there; par_for and ten_sgemm take it too (its threads, BLAS threshold, attention block),
 * from the input tensor in a kernel and from I->run.ten in a builtin. Each storage keeps the context it was made in
 * alive and gives its bytes back to that one when it is freed. Tensor unit tests and fuzz targets own one: there is
 * no process-wide context.
 * What stays process-wide: the worker pool, OpenBLAS's handle, the CPU's vector level and cache size, ATTN_GEMM,
 * and ten_interrupted (a signal handler sets it). */
#define TEN_CACHE_SLOTS 32
typedef struct TenCacheSlot { void *p; size_t bytes; } TenCacheSlot;    /* a buffer kept for reuse */
typedef struct TenCtx {
    AttnError err;                  /* ten_error(), ten_error_kind(): the last failure, in the record the layers above
                                     * use (attnerr.h); its message cut at TEN_ERR_MAX - 1 bytes */
    int64_t limit_numel;            /* elements per tensor: 2^28 (1 GiB of float32); tests and fuzzers lower it */
    int64_t limit_bytes;            /* all this context's live tensors together: 6 GiB, or $ATTN_MEMORY_LIMIT */
    int64_t live_bytes;             /* ten_live_bytes(): the storages made in this context and alive */
    int64_t held_outside;           /* of limit_bytes, what the sessions this one runs inside hold (ten_ctx_nest):
                                     * 0 for a session of its own */
    DType default_float;            /* torch.set_default_dtype: what Python floats and float factories become */
    int threads;                    /* torch.set_num_threads; 0 until asked (then ATTN_THREADS, else the cores) */
    bool own_gemm;                  /* ten_set_own_gemm: vm_blas_gemm may stand in for OpenBLAS (tensor_internal.h) */
    int64_t blas_threshold;         /* ten_set_blas_threshold: m*n*k at or above which products use BLAS */
    int64_t attention_block;        /* ten_set_attention_block: queries per block, forced by a test (0: cache size) */
    double gemm_seconds, gemm_flops;    /* ten_gemm_stats: wall time in float32 matmul/linear products, their FLOPs */
    int refs;                       /* its owner and each storage made in it; freed at 0 (ten_ctx_free) */
    bool closed;                    /* the owner let go: nothing more is kept for reuse */
    struct {                        /* tensor_create.c's free lists and buffer cache, not for callers */
        void *handles, *small;      /* free Tensor handles and small storages */
        int nhandles, nsmall;
        TenCacheSlot cache[TEN_CACHE_SLOTS];
        size_t cached_bytes;
    } pool;
} TenCtx;
/* A new context: no error, float32, the default limits, limit_bytes from $ATTN_MEMORY_LIMIT when that is a size
 * (ten_parse_bytes; so a nested session keeps it); the caller owns it (ten_ctx_free) and may lower its limits (tests,
 * fuzz targets). */
TenCtx *ten_ctx_new(void);
/* "512M", "2G", "64k" or a number of bytes, from 1 KiB to 9e18: true with *bytes set; false when s is not one. */
bool ten_parse_bytes(const char *s, int64_t *bytes);
/* The owner lets go: the kept buffers are freed now, the context when its last storage goes. NULL is ignored. */
void ten_ctx_free(TenCtx *c);
int64_t ten_live_bytes(const TenCtx *c);        /* c->live_bytes */
/* c serves a run nested in the one outer serves (a lesson started at the REPL's prompt): both draw on one budget, so
 * c takes outer's limit_bytes and counts against it, besides its own tensors, what the outer run holds now:
 * outer's live tensors, outer_values (the bytes of the outer run's values, which this library does not see) and what
 * runs around outer hold. The outer run is paused while c's runs (it holds the same until c is freed). */
void ten_ctx_nest(TenCtx *c, const TenCtx *outer, int64_t outer_values);
/* The bytes c's tensors may still take: limit_bytes less held_outside and live_bytes (never below 0). */
int64_t ten_room(const TenCtx *c);
/* "attn's limit is 100.0 MiB" into out and, for a nested run (ten_ctx_nest), ", and the session this one was started
 * from holds 80.0 MiB of it": the words every out-of-memory message of c (tensors and the interpreter's values) ends
 * with. */
void ten_limit_note(const TenCtx *c, char *out, size_t n);

/* PyTorch's promote_types for two dtypes (bool < int64 < float32 < float64). */
DType ten_promote(DType a, DType b);

typedef struct TenStorage TenStorage;      /* a shared buffer: reference count and bytes (tensor_create.c) */

typedef struct Tensor {
    DType dtype;
    int ndim;
    int64_t shape[TEN_MAX_DIMS];    /* (d0, ..., d[ndim-1]) */
    int64_t stride[TEN_MAX_DIMS];   /* storage elements between neighbours along each dim; 0 when expanded */
    int64_t offset;                 /* storage element of (0, ..., 0): PyTorch's storage_offset() */
    int64_t numel;
    bool contiguous;                /* row-major and dense: data[i] is element i (set by every constructor) */
    TenStorage *storage;            /* shared by all views of it; counted once in ten_live_bytes */
    struct TenVersion *ver;         /* the write counter it shares with its views: NULL, the storage's; its own
                                     * for an alias made by ten_alias_new_version (x.data) and the views of that */
    void *data;                     /* float*, int64_t* or uint8_t* at element (0, ..., 0); never NULL */
} Tensor;

/* Sanitizer builds check that raw element pointers are only taken of contiguous tensors of that dtype (a float*
 * of an int64 tensor reads garbage: convert at the builtin boundary, arg_tensor_as). */
#if defined(__SANITIZE_ADDRESS__)
#define TEN_CHECKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEN_CHECKS 1
#endif
#endif
#ifdef TEN_CHECKS
void ten_check_contiguous(const Tensor *t, const char *fn);   /* aborts with a message naming fn */
void ten_check_dtype(const Tensor *t, int dt, const char *fn);  /* the same for a dtype other than dt */
#define TEN_ASSERT_CONTIG(t, fn) ten_check_contiguous(t, fn)
#define TEN_ASSERT_DTYPE(t, dt, fn) ten_check_dtype(t, dt, fn)
#else
#define TEN_ASSERT_CONTIG(t, fn) ((void)0)
#define TEN_ASSERT_DTYPE(t, dt, fn) ((void)0)
#endif

/* ---- errors ----
 * Like errno, per context: a failing function leaves its message (and kind) in a context: a kernel in its input's
 * (ten_ctx_of), a factory in the one it was given, a builtin in its session's (I->run.ten). The language takes it
 * over at one boundary (rt_tensor_error reads I->run.ten), so one session's failure never shows in another's. */
const char *ten_error(const TenCtx *c);      /* message of c's last failure */
TenErrKind ten_error_kind(const TenCtx *c);  /* what kind of failure it was */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void ten_fail_in(TenCtx *c, const char *fmt, ...);  /* set c's message (used by kernels and callers alike) */
void ten_fail_interrupted(TenCtx *c);         /* a kernel saw ten_interrupted (Ctrl-C) and stopped */
void ten_shape_str(const int64_t *shape, int ndim, char *out, size_t n);
void ten_bytes_str(int64_t bytes, char *out, size_t n);                 /* "512 bytes", "1.50 MiB", "6.00 GiB" */   /* "(2, 3)" */
const char *ten_dtype_name(DType d);          /* "torch.float32" ... */
const char *ten_dtype_word(DType d);          /* PyTorch's scalar type name in messages: "Float", "Double", "Long" */
size_t ten_dtype_size(DType d);

/* ---- creation (tensor_create.c) ---- */
/* The context t was made in (its storage's): a kernel's result and its failure go there and it takes its settings
 * (ggml's tensors know their context the same way); factories without a tensor input take theirs (the _in names). */
TenCtx *ten_ctx_of(const Tensor *t);
/* A tensor in context c (its limits, its byte count); NULL with a message when the shape is invalid or too large. */
Tensor *ten_new_in(TenCtx *c, DType dt, int ndim, const int64_t *shape);          /* zero-filled */
Tensor *ten_new_uninit_in(TenCtx *c, DType dt, int ndim, const int64_t *shape);   /* every element to be written */
void ten_release_cache(TenCtx *c);                     /* frees the buffers c keeps for reuse */
Tensor *ten_scalar_f_in(TenCtx *c, float v);
Tensor *ten_scalar_d_in(TenCtx *c, double v);                                      /* a 0-dim float64 */
Tensor *ten_scalar_i_in(TenCtx *c, int64_t v);
Tensor *ten_full_in(TenCtx *c, DType dt, int ndim, const int64_t *shape, double v);
Tensor *ten_arange_in(TenCtx *c, double start, double stop, double step, DType dt);
Tensor *ten_eye_in(TenCtx *c, int64_t n, int64_t m, DType dt);
Tensor *ten_linspace_in(TenCtx *c, double start, double stop, int64_t steps, DType dt);
Tensor *ten_logspace_in(TenCtx *c, double start, double stop, int64_t steps, double base, DType dt);
Tensor *ten_copy(const Tensor *t);                                   /* a contiguous copy */
Tensor *ten_cast(const Tensor *t, DType dt);                         /* always a new contiguous tensor */
void ten_free(Tensor *t);                                            /* the view; the storage with its last view */
/* Whether t is the only view of its storage, covers all of it in row-major order and has no write counter of its own
 * (no alias shares its elements: a holder may keep it as its own, as PyTorch's AccumulateGrad steals a grad). */
bool ten_sole_owner(const Tensor *t);
bool ten_same_shape(const Tensor *a, const Tensor *b);
/* Element i (row-major over the shape, whatever the strides) as double / int64, and store. */
double ten_get(const Tensor *t, int64_t i);
int64_t ten_get_i64(const Tensor *t, int64_t i);                     /* exact for int64 */
void ten_set(Tensor *t, int64_t i, double v);
/* Raw element arrays of a contiguous tensor (checked in sanitizer builds). */
static inline float *ten_f32(const Tensor *t) { TEN_ASSERT_CONTIG(t, "ten_f32"); TEN_ASSERT_DTYPE(t, DT_F32, "ten_f32"); return (float *)t->data; }
static inline double *ten_f64(const Tensor *t) { TEN_ASSERT_CONTIG(t, "ten_f64"); TEN_ASSERT_DTYPE(t, DT_F64, "ten_f64"); return (double *)t->data; }
static inline int64_t *ten_i64(const Tensor *t) { TEN_ASSERT_CONTIG(t, "ten_i64"); TEN_ASSERT_DTYPE(t, DT_I64, "ten_i64"); return (int64_t *)t->data; }
static inline uint8_t *ten_b8(const Tensor *t) { TEN_ASSERT_CONTIG(t, "ten_b8"); TEN_ASSERT_DTYPE(t, DT_BOOL, "ten_b8"); return (uint8_t *)t->data; }

/* ---- views (tensor_view.c): every result shares t's storage ---- */
/* A view of t's storage with the given shape, strides and storage offset (PyTorch's as_strided); no checks. */
Tensor *ten_view_of(const Tensor *t, int ndim, const int64_t *shape, const int64_t *stride, int64_t offset);
Tensor *ten_alias(const Tensor *t);                                  /* the same view, a new handle (detach) */
/* PyTorch's set_data (X.data = T): dst becomes a view of src's storage, dtype, shape and strides, and gives up its
 * own; dst stays the same handle, so a caller holding it across student code holds a whole tensor (not freed
 * memory), whose shape may have changed. 0, or -1 with a message (no memory for a handle). */
int ten_set_data(Tensor *dst, const Tensor *src);
/* t itself when contiguous, else a contiguous copy in *tmp (which the caller frees; NULL when not needed).
 * NULL only when the copy fails. The one way kernels get input they may read as data[i]. */
const Tensor *ten_as_contiguous(const Tensor *t, Tensor **tmp);
/* t as a contiguous tensor: an alias when it already is (shares storage), else a copy (Tensor.contiguous()). */
Tensor *ten_contiguous(const Tensor *t);
bool ten_compute_contiguous(const Tensor *t);                        /* PyTorch's is_contiguous() rule */
bool ten_same_storage(const Tensor *a, const Tensor *b);
/* The storage's write counter (PyTorch's t._version), shared by every view of the storage: 0 when made, one more
 * for each in-place operation of this library (ten_copy_into, ten_assign_result, ten_index_set, ten_set_layout).
 * ten_set is an element store for filling new tensors and does not count: a caller that writes an existing tensor
 * element by element or through its data pointer calls ten_bump_version once for the operation. Autograd compares
 * it with the version it saved, to refuse a backward through a tensor modified in place. */
int64_t ten_version(const Tensor *t);
void ten_bump_version(Tensor *t);
/* PyTorch's x.data: the same view of t's storage (a write through one shows in the other) with a write counter of
 * its own, starting at 0, which the views made of it share: writing it does not move t's version, so a backward
 * that saved t still runs. A new handle (ten_free); NULL with a message when out of memory. */
Tensor *ten_alias_new_version(const Tensor *t);
Tensor *ten_clone(const Tensor *t);                                  /* a copy keeping t's memory order (X.clone()) */
/* t takes v's layout and storage in place (X.t_(), X.unsqueeze_(0)); v is consumed. */
void ten_set_layout(Tensor *t, Tensor *v);
/* Writes src (broadcast to dst's shape, cast to dst's dtype) into dst through its strides: dst.copy_(src).
 * Fails when dst has elements sharing memory (an expanded view) or src does not broadcast. 0 on success. */
int ten_copy_into(Tensor *dst, const Tensor *src);
/* dst = the values of a result of an in-place op: PyTorch's checks (same shape as dst, castable dtype). */
int ten_assign_result(Tensor *dst, const Tensor *result);
Tensor *ten_select(const Tensor *t, int dim, int64_t index);        /* t[..., index, ...]: one dim fewer */
Tensor *ten_narrow(const Tensor *t, int dim, int64_t start, int64_t length);
Tensor *ten_diagonal(const Tensor *t, int64_t offset, int dim1, int dim2);
/* t.view(shape): one entry may be -1; fails with PyTorch's message when the strides do not allow it. */
Tensor *ten_view_shape(const Tensor *t, int ndim, const int64_t *shape);

/* ---- random numbers (rng.c): a seeded generator; each session owns one (torch's default generator) ---- */
typedef struct Rng {
    uint64_t s[4];            /* xoshiro256** state */
    int have_spare;           /* Box-Muller's second value is waiting */
    double spare;
} Rng;
void rng_seed(Rng *g, uint64_t seed);
uint64_t rng_next(Rng *g);
double rng_uniform(Rng *g);                   /* [0, 1) with 53 random bits */
double rng_normal(Rng *g);
Tensor *ten_rand_in(TenCtx *c, Rng *g, int ndim, const int64_t *shape);                    /* U[0,1), float32 */
Tensor *ten_randn_in(TenCtx *c, Rng *g, int ndim, const int64_t *shape);                   /* N(0,1), float32 */
/* dt float32 or float64 */
Tensor *ten_uniform_in(TenCtx *c, Rng *g, DType dt, int ndim, const int64_t *shape, double lo, double hi);
Tensor *ten_normal_in(TenCtx *c, Rng *g, DType dt, int ndim, const int64_t *shape, double mean, double std);
Tensor *ten_randperm_in(TenCtx *c, Rng *g, int64_t n);        /* 0..n-1 shuffled, int64 (torch.randperm, DataLoader) */

/* ---- elementwise with NumPy/PyTorch broadcasting (tensor_elementwise.c) ---- */
typedef enum {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_AND, OP_OR, OP_XOR, OP_MAXIMUM, OP_MINIMUM, OP_ATAN2,
    OP_DIV_TRUNC                /* div(rounding_mode='trunc'); OP_FLOORDIV is div(rounding_mode='floor'), x // y */
} BinOp;
typedef enum {
    UOP_NEG, UOP_ABS, UOP_SIN, UOP_COS, UOP_TAN, UOP_EXP, UOP_LOG, UOP_SQRT, UOP_TANH, UOP_RELU,
    UOP_SIGMOID, UOP_FLOOR, UOP_CEIL, UOP_ROUND, UOP_NOT, UOP_ISNAN, UOP_ISINF, UOP_ISFINITE, UOP_SIGN,
    UOP_LOG2, UOP_LOG10, UOP_RSQRT, UOP_SQUARE, UOP_ASIN, UOP_ACOS, UOP_ATAN
} UnOp;
/* Result shape of broadcasting a and b; -1 with a message in c naming both shapes when they do not broadcast. */
int ten_broadcast_shape_in(TenCtx *c, const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *nout);
/* PyTorch's result_type: tensors with dimensions decide first, then 0-dim tensors, then Python numbers (weak), a
 * later group only when it is of a higher kind (bool < integer < float); a weak float takes the default dtype.
 * int64 tensor + 0.5 -> float32, float32 tensor + float64 0-dim -> float32, float64 tensor + 2.5 -> float64. */
DType ten_result_type(const Tensor *a, bool a_weak, const Tensor *b, bool b_weak);
/* a op b. Python numbers are passed as 0-dim tensors (float64 or int64) with *_weak set. */
Tensor *ten_binary(BinOp op, const Tensor *a, bool a_weak, const Tensor *b, bool b_weak);
Tensor *ten_unary(UnOp op, const Tensor *a);
Tensor *ten_clamp(const Tensor *a, double lo, double hi);            /* NAN bound = none */
Tensor *ten_where(const Tensor *cond, const Tensor *a, bool a_weak, const Tensor *b, bool b_weak);   /* weak: as ten_binary */
/* t broadcast to shape: a view whose expanded dims have stride 0 (Tensor.expand). */
Tensor *ten_expand(const Tensor *t, int ndim, const int64_t *shape);

/* ---- reductions (tensor_reduce.c) ---- */
typedef enum { RED_SUM, RED_MEAN, RED_MAX, RED_MIN, RED_ARGMAX, RED_ARGMIN, RED_PROD, RED_STD, RED_VAR,
               RED_ANY, RED_ALL } RedOp;
/* Reduce over dim (negative counts from the end), or over everything when all is true. */
Tensor *ten_reduce(RedOp op, const Tensor *t, bool all, int dim, bool keepdim);
Tensor *ten_softmax(const Tensor *t, int dim);
Tensor *ten_log_softmax(const Tensor *t, int dim);
Tensor *ten_cumsum(const Tensor *t, int dim);
int ten_norm_dim_in(TenCtx *c, int dim, int ndim);           /* -1 with a message in c when out of range */

/* ---- shapes (tensor_shape.c) ---- */
/* A view when the strides allow (always for a contiguous t), else a contiguous copy: PyTorch's reshape. */
Tensor *ten_reshape(const Tensor *t, int ndim, const int64_t *shape);   /* one entry may be -1 */
Tensor *ten_permute(const Tensor *t, const int *dims);                   /* view */
Tensor *ten_transpose(const Tensor *t, int d0, int d1);                  /* view */
Tensor *ten_unsqueeze(const Tensor *t, int dim);                         /* view */
Tensor *ten_squeeze(const Tensor *t, int dim, bool all);                 /* view */
/* cat and stack of n tensors: the result in ts[0]'s context; a failure (n == 0 has no input) is reported in c. */
Tensor *ten_cat_in(TenCtx *c, Tensor *const *ts, int n, int dim);
Tensor *ten_stack_in(TenCtx *c, Tensor *const *ts, int n, int dim);
/* repeats: one count for every element along dim (nrep == 1 means the same count for all). dim < -99: flatten. */
Tensor *ten_repeat_interleave(const Tensor *t, const int64_t *repeats, int64_t nrep, int dim, bool flatten);
Tensor *ten_repeat(const Tensor *t, const int64_t *reps, int nreps);
Tensor *ten_tril(const Tensor *t, int64_t k, bool upper);
Tensor *ten_flip(const Tensor *t, int dim);

/* ---- tensor_misc.c ---- */
Tensor *ten_cumprod(const Tensor *t, int dim);
/* torch.unique of all elements, sorted; *inverse (t's shape) and *counts filled when not NULL. */
Tensor *ten_unique(const Tensor *t, Tensor **inverse, Tensor **counts);
/* An elementwise function by name: gelu, gelu_tanh, silu, softplus, reciprocal, frac, exp2, sinh, cosh, asinh,
 * acosh, atanh, log1p, expm1, erf, erfc, trunc, mish, hardtanh, logsigmoid. */
Tensor *ten_map(const char *name, const Tensor *t);
/* log1p(exp(beta*x)) / beta, x where beta*x > threshold: F.softplus(t, beta, threshold). */
Tensor *ten_softplus(const Tensor *t, double beta, double threshold);

/* torch.einsum (tensor_einsum.c): "ij,jk->ik", implicit output, "...", repeated labels (diagonals). The result in
 * ops[0]'s context; failures (a bad equation, no operands) in c. */
Tensor *ten_einsum_in(TenCtx *c, const char *equation, Tensor *const *ops, int nops);

/* ---- indexing with index tensors along a dim (tensor_gather.c); index tensors are int64 ---- */
Tensor *ten_gather(const Tensor *t, int dim, const Tensor *index);         /* out[i][j] = t[i][index[i][j]] (dim 1) */
/* t with src (or a 0-dim src broadcast) written where index points along dim; reduce 0 set, 1 add, 2 multiply. */
Tensor *ten_scatter(const Tensor *t, int dim, const Tensor *index, const Tensor *src, int reduce);
Tensor *ten_index_select(const Tensor *t, int dim, const Tensor *index);   /* index a vector */
Tensor *ten_index_fill(const Tensor *t, int dim, const Tensor *index, const Tensor *value);
Tensor *ten_masked_select(const Tensor *t, const Tensor *mask);            /* 1-D, mask broadcast */
Tensor *ten_nonzero(const Tensor *t);                                       /* (count, ndim) int64 */
Tensor *ten_take(const Tensor *t, const Tensor *index);

/* ---- numerical functions with options (tensor_numeric.c); dims[0..nd), or every dim when nd < 0 ---- */
/* var (std with take_sqrt): sum((x - mean)^2) / max(0, n - correction); correction 1 is torch's unbiased default. */
Tensor *ten_var(const Tensor *t, const int *dims, int nd, bool keepdim, double correction, bool take_sqrt);
/* The vector p-norm (inf, -inf, 0, 1, 2 or any p) over dims, in the input's float dtype. */
Tensor *ten_norm(const Tensor *t, double p, const int *dims, int nd, bool keepdim);
Tensor *ten_round_decimals(const Tensor *t, int64_t decimals);     /* torch.round(X, decimals=d) */
/* torch.isclose: bool tensor of a == b or |a - b| <= atol + |rtol * b| (equal_nan: NaN == NaN). Same dtypes only. */
Tensor *ten_isclose(const Tensor *a, const Tensor *b, double rtol, double atol, bool equal_nan);

/* F.layer_norm over the last k dims of x (float32 or float64), PyTorch 1.13's CPU kernel to the bit
 * (tensor_layernorm.c): y = (x - mean) * rstd * w + b per row, rstd = 1 / sqrt(biased var + eps); w and b (the last
 * k dims' shape, x's dtype) may be NULL. *mean and *rstd (when not NULL): x's shape with the last k dims 1. */
Tensor *ten_layer_norm(const Tensor *x, int k, const Tensor *w, const Tensor *b, double eps, Tensor **mean,
                       Tensor **rstd);
/* layer_norm's backward over the last dim of float32 x (rows, N) for the grad g of its result, from the forward's
 * mean and rstd (one per row) and w (N,) or NULL: dx = rstd / N * (N * gx - sum(gx) - xhat * sum(gx * xhat)) with
 * gx = g * w and xhat = (x - mean) * rstd, each step rounded to float32 as the unfused formula's tensors are (the row
 * sums in PyTorch's order: t.sum(-1)), so its bits are those of that formula; and, when gxhat is wanted, g * xhat
 * (for w's grad). Rows on attn's threads. 0: new tensors of x's shape in *dx and *gxhat (when not NULL); -1 with a
 * message when memory runs out or Ctrl-C stopped it; 1 for a case it does not take (not float32, N above 4096, g not
 * contiguous): the caller composes the formula then. */
int ten_layer_norm_backward(const Tensor *x, const Tensor *g, const Tensor *w, const Tensor *mean, const Tensor *rstd,
                            Tensor **dx, Tensor **gxhat);

/* ---- sorting along a dim (tensor_sort.c), with PyTorch's order among equal values ---- */
/* values and indices (int64) are new tensors; -1 with a message (k out of range, empty dim). */
int ten_sort(const Tensor *t, int dim, bool descending, bool stable, Tensor **values, Tensor **indices);
int ten_topk(const Tensor *t, int64_t k, int dim, bool largest, bool sorted, Tensor **values, Tensor **indices);
int ten_kthvalue(const Tensor *t, int64_t k, int dim, bool keepdim, Tensor **values, Tensor **indices);
int ten_median_dim(const Tensor *t, int dim, bool keepdim, Tensor **values, Tensor **indices);
int ten_mode(const Tensor *t, int dim, bool keepdim, Tensor **values, Tensor **indices);
Tensor *ten_median_all(const Tensor *t);                          /* torch.median(X): lower median, NaN if any */

/* ---- matrix products (tensor_matmul.c) ---- */
Tensor *ten_matmul(const Tensor *a, const Tensor *b);     /* torch.matmul: 1-D, 2-D and batched broadcasting */
Tensor *ten_bmm(const Tensor *a, const Tensor *b);        /* (B, n, k) @ (B, k, m) -> (B, n, m) */
/* F.linear's arithmetic (nn.Linear's digits): x (..., in) @ W (out, in)^T + b; b (out,), one value or NULL; float32
 * (ten_sgemm) or float64. */
Tensor *ten_linear(const Tensor *x, const Tensor *W, const Tensor *b);
/* C (m, n) = A (m, k) @ B (k, n), row-major float32; BLAS for large products (c's blas_threshold), a fixed-order
 * loop for small ones, on c's threads. A builtin passes its session's context (I->run.ten), a kernel its input's. */
void ten_sgemm(TenCtx *c, const float *A, const float *B, float *C, int64_t m, int64_t n, int64_t k, bool bt);
/* Softmax of each of `rows` contiguous float32 rows of n, in place, as torch.softmax(dim=-1) computes it (PyTorch's
 * order, SLEEF's exp): for timing layers (measure_layers) without a tensor around the buffer. */
void ten_softmax_rows_f32(float *x, int64_t rows, int64_t n);
/* c's m*n*k at or above which ten_sgemm uses BLAS; flops < 0 restores the default. */
void ten_set_blas_threshold(TenCtx *c, int64_t flops);

/* ---- attention forward (tensor_attention.c), §11.3.3 and §11.5 ---- */
/* softmax(Q Kᵀ / sqrt(d), masked to -1e6 where key >= valid_len) V for every batch row and head, fused and threaded.
 * q (B, Q, h*d), k (B, K, h*d), v (B, K, h*dv); head j of row b uses columns j*d .. (j+1)*d - 1 (MultiHeadAttention's
 * transpose_qkv, without the copy). valid_lens NULL, (B,) or (B, Q), shared by the heads of a row. Returns
 * (B, Q, h*dv) as transpose_output lays it out; *weights (B*h, Q, K) when weights is not NULL. Same digits as the
 * book's unfused code. */
Tensor *ten_attention(const Tensor *q, const Tensor *k, const Tensor *v, const Tensor *valid_lens, int64_t heads,
                      Tensor **weights);
/* Only the weights (B*h, Q, K) of ten_attention(q, k, any v, valid_lens, heads), the same bits: what a module that
 * put off keeping its attention_weights computes when they are read. */
Tensor *ten_attention_weights(const Tensor *q, const Tensor *k, const Tensor *valid_lens, int64_t heads);

/* The sinusoidal positional encoding P (1, max_len, d) of §11.6.3 (tensor_positional.c): P[0, i, 2j] =
 * sin(i / 10000^(2j/d)), P[0, i, 2j+1] = cos(...), with the book's float32 steps and PyTorch's bits. */
Tensor *ten_positional_encoding_in(TenCtx *c, int64_t max_len, int64_t d);

/* ---- the machine: threads (parallel.c), vector math (vecmath.c), BLAS (tensor_matmul.c) ---- */
/* c's thread count for every kernel and product on its tensors: ATTN_THREADS, else the cores (torch.set_num_threads). */
int ten_threads(TenCtx *c);
void ten_set_threads(TenCtx *c, int n);       /* clamped to 1..256 */
const char *ten_vecmath_name(void);           /* "SLEEF AVX-512", "SLEEF AVX2" or "C library (scalar)" */
void ten_blas_describe(char *out, size_t n);  /* OpenBLAS's version and kernels (loads it) */
const char *ten_gemm_describe(const TenCtx *c);  /* the path c's float32 products take (ATTN_GEMM; loads OpenBLAS) */
/* The wall time (seconds) c's float32 products of ten_matmul and ten_linear have taken since c was made, copies of
 * their operands included, and their FLOPs (2 m n k each): what `make bench` divides to rate a backward's products. */
void ten_gemm_stats(const TenCtx *c, double *seconds, double *flops);

/* ---- indexing (tensor_index.c) ---- */
typedef enum { IX_INT, IX_SLICE, IX_NEWAXIS, IX_ELLIPSIS, IX_TENSOR } IndexKind;
typedef struct IndexItem {
    IndexKind kind;
    int64_t i;                          /* IX_INT */
    int64_t start, stop, step;          /* IX_SLICE */
    bool has_start, has_stop;
    const Tensor *index;                /* IX_TENSOR: int64 indices or a bool mask (borrowed) */
} IndexItem;
/* t[items]: a view for basic items (ints, slices, None, ...), a copy with a tensor index, as in PyTorch. */
Tensor *ten_index_get(const Tensor *t, const IndexItem *items, int n);
/* t[items] = v (v broadcast to the indexed shape and cast to t's dtype), written through t's strides. */
int ten_index_set(Tensor *t, const IndexItem *items, int n, const Tensor *v);

/* ---- printing like PyTorch (tensor_print.c) ---- */
typedef struct PrintOptions {
    int precision;      /* 4 */
    int threshold;      /* 1000: more elements than this are summarised */
    int edgeitems;      /* 3 */
    int linewidth;      /* 80 */
    int sci_mode;       /* -1 auto, 0 never, 1 always */
} PrintOptions;
extern const PrintOptions ten_print_defaults;  /* PyTorch's: precision 4, threshold 1000, edgeitems 3, 80 */
struct StrBuf;
/* Appends repr(t) exactly as torch prints it: "tensor([[0.0000, 1.0000], ...])". Never "-0.0000". po: the
 * session's options (torch.set_printoptions); NULL for PyTorch's defaults. */
void ten_repr(struct StrBuf *out, const Tensor *t, const PrintOptions *po);
/* The same text without the "tensor(" prefix and the ")" (what print(t.numpy()) would resemble). */
void ten_format_body(struct StrBuf *out, const Tensor *t, int indent, const PrintOptions *po);

/* ---- optimizer steps (tensor_optim.c): torch.optim's single-tensor updates, PyTorch 1.13's arithmetic op by op ----
 * p (the parameter), g (its grad) and the state buffers: contiguous tensors of one float dtype and one shape, each
 * written in place (its version bumped). 0, or -1 with ten_error() set when they are not such tensors. */
typedef struct TenSgdOpts { double lr, momentum, dampening, weight_decay; bool nesterov, maximize; } TenSgdOpts;
/* SGD: buf the momentum buffer (NULL when momentum is 0), first: buf holds nothing yet (it becomes the grad). */
int ten_sgd_step(Tensor *p, const Tensor *g, Tensor *buf, bool first, const TenSgdOpts *o);
/* step: the step count including this one (bias corrections 1 - beta**step); decoupled: AdamW's weight decay. */
typedef struct TenAdamOpts { double lr, beta1, beta2, eps, weight_decay, step; bool decoupled, maximize; } TenAdamOpts;
/* Adam and AdamW: m exp_avg, v exp_avg_sq, mx max_exp_avg_sq (NULL without amsgrad). */
int ten_adam_step(Tensor *p, const Tensor *g, Tensor *m, Tensor *v, Tensor *mx, const TenAdamOpts *o);

/* ---- NumPy .npy files (npy.c) ---- */
/* Writes float32 (<f4), float64 (<f8), int64 (<i8) or bool (|b1), C order (any view), atomically (temp + rename). */
int npy_save(const char *path, const Tensor *t);
/* Reads <f4, <f8 (float64, as NumPy), <i8, <i4 (to int64), |b1; C order only. Errors name the file and the problem. */
Tensor *npy_load_in(TenCtx *c, const char *path);
Tensor *npy_parse_in(TenCtx *c, const unsigned char *buf, size_t len);   /* the same from memory (fuzzing, tests) */

/* Ctrl-C: the SIGINT handler sets it; kernels poll it between rows, on any worker thread, and stop with
 * ten_fail_interrupted(). A lock-free atomic (C11 7.17.5: safe in a signal handler and between threads, where a
 * volatile int is neither). */
extern atomic_int ten_interrupted;
#endif

/* tensor_matmul.c - matrix products. Small products use a fixed-order loop with a double accumulator (the
 * same digits on every machine); large ones go to OpenBLAS's sgemm, split by rows over attn's threads, or, where
 * OpenBLAS runs its SkylakeX kernels, to attn's own kernel with the same bits (vecmath.h: vm_blas_gemm). */
#include "tensor_internal.h"
#include "parallel.h"
#include "vecmath.h"
#include <cblas.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* OpenBLAS is loaded on the first large product, not at start-up (loading costs more than the rest of attn's
 * start-up together). Without it, products use the loop below (slower, same digits).
 *
 * OpenBLAS always runs on one thread here: attn's threads split a product by rows instead (ten_sgemm_ld). OpenBLAS's
 * own threads split it differently for different thread counts, and then its digits change with the thread count
 * (measured: 37589 of the 64000 elements of (1000, 1000) @ (1000, 64) differ between 1 and 2 threads); rows computed
 * by separate one-thread calls are bit for bit the rows of one call. One thread count (par_threads) rules both.
 *
 * Which kernels: attn chooses them from the CPU's instruction sets, capped by ATTN_SIMD (wanted_core), whatever
 * OPENBLAS_CORETYPE says: a host or a user sets that variable for other programs (hosts set Haswell on CPUs that
 * OpenBLAS 0.3.21 does not know, which it would give its Prescott kernels, 4x slower), and attn's digits must not
 * change with it. Every kernel chosen runs only instructions the CPU has. */
typedef void (*sgemm_fn)(const enum CBLAS_ORDER, const enum CBLAS_TRANSPOSE, const enum CBLAS_TRANSPOSE, const blasint,
                         const blasint, const blasint, const float, const float *, const blasint, const float *,
                         const blasint, const float, float *, const blasint);
static sgemm_fn blas_sgemm;
static char *(*blas_corename)(void);    /* openblas_get_corename; NULL for another BLAS */
static char *(*blas_config)(void);      /* openblas_get_config */
static int blas_state;                  /* 0 not tried, 1 loaded, -1 not available */
static bool blas_skylakex;              /* the loaded OpenBLAS runs its SkylakeX kernels (set with blas_state) */

/* ATTN_GEMM, read once: "auto" (the default: attn's AVX-512 kernel where it gives OpenBLAS's bits, else OpenBLAS,
 * small products in the fixed-order loop), "openblas" (never attn's own kernel) or "loop" (every float32 product
 * in the fixed-order loop: the same products on every machine, slower). */
typedef enum { GEMM_AUTO, GEMM_OPENBLAS, GEMM_LOOP } GemmMode;
static GemmMode gemm_mode(void) {
    static int mode = -1;
    if (mode < 0) {
        const char *e = getenv("ATTN_GEMM");
        mode = GEMM_AUTO;
        if (e && !strcmp(e, "openblas")) mode = GEMM_OPENBLAS;
        else if (e && !strcmp(e, "loop")) mode = GEMM_LOOP;
        else if (e && *e && strcmp(e, "auto"))
            err_print("attn: ATTN_GEMM=%s is not auto, openblas or loop; using auto\n", e);
    }
    return (GemmMode)mode;
}

/* OpenBLAS's kernels for this CPU and vector level (vm_level: ATTN_SIMD can lower it), one entry per level:
 * AVX-512 (F, CD, BW, DQ, VL) SkylakeX, whose bits vm_blas_gemm also gives; AVX2 and FMA Haswell; below that the
 * best SSE/AVX kernels the CPU runs. NULL (OpenBLAS chooses) off x86-64. */
static const char *wanted_core(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    int level = vm_level();
    if (level == 2 && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        return "SkylakeX";
    if (level >= 1) return "Haswell";
    if (__builtin_cpu_supports("avx")) return "Sandybridge";
    if (__builtin_cpu_supports("sse4.2")) return "Nehalem";
    return "Prescott";
#else
    return NULL;
#endif
}

/* Sets name=value for the duration of a dlopen (keep is false: the caller's value is put back by env_restore);
 * with keep, only when the user has not set it. *saved holds what to put back (NULL: unset it). */
static bool env_push(const char *name, const char *value, bool keep, char **saved) {
    const char *cur = getenv(name);
    *saved = NULL;
    if (!value || (keep && cur && *cur)) return false;
    if (cur && !(*saved = strdup(cur))) return false;
    return setenv(name, value, 1) == 0;
}
static void env_restore(const char *name, bool pushed, char *saved) {
    if (pushed) {
        if (saved) setenv(name, saved, 1);
        else unsetenv(name);
    }
    free(saved);
}

static sgemm_fn load_blas(void) {
    if (blas_state) return blas_sgemm;
    char *core_saved, *threads_saved;
    bool core_set = env_push("OPENBLAS_CORETYPE", wanted_core(), false, &core_saved);
    bool threads_set = env_push("OPENBLAS_NUM_THREADS", "1", true, &threads_saved);  /* no thread pool to start */
    const char *names[] = {"libopenblas.so.0", "libopenblas.so", "libcblas.so.3", "libblas.so.3", NULL};
    for (int i = 0; names[i] && !blas_sgemm; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!h) continue;
        *(void **)&blas_sgemm = dlsym(h, "cblas_sgemm");
        if (!blas_sgemm) { dlclose(h); continue; }
        void (*set_threads)(int);
        *(void **)&set_threads = dlsym(h, "openblas_set_num_threads");
        if (set_threads) set_threads(1);
        *(void **)&blas_corename = dlsym(h, "openblas_get_corename");
        *(void **)&blas_config = dlsym(h, "openblas_get_config");
    }
    env_restore("OPENBLAS_CORETYPE", core_set, core_saved);
    env_restore("OPENBLAS_NUM_THREADS", threads_set, threads_saved);
    blas_skylakex = blas_sgemm && blas_corename && strcmp(blas_corename(), "SkylakeX") == 0;
    blas_state = blas_sgemm ? 1 : -1;
    if (!blas_sgemm) err_print("attn: OpenBLAS was not found (sudo apt-get install libopenblas0): large matrix products use attn's own, slower loop\n");
    return blas_sgemm;
}

/* "OpenBLAS 0.3.21 ..., SkylakeX kernels", or why there is none; loads OpenBLAS. */
void ten_blas_describe(char *out, size_t n) {
    if (!load_blas()) snprintf(out, n, "none found (products use attn's own loop)");
    else if (!blas_config || !blas_corename) snprintf(out, n, "a CBLAS without OpenBLAS's queries");
    else {
        /* "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ...": the name and version are what a student needs */
        const char *cfg = blas_config(), *sp = strchr(cfg, ' ');
        int len = sp && strchr(sp + 1, ' ') ? (int)(strchr(sp + 1, ' ') - cfg) : (int)strlen(cfg);
        snprintf(out, n, "%.*s, %s kernels, 1 thread per call", len, cfg, blas_corename());
    }
}

bool ten_blas_is_skylakex(void) { return blas_skylakex; }

/* Which path float32 products take (show_config), as chosen by the CPU, the OpenBLAS core and ATTN_GEMM. */
const char *ten_gemm_describe(const TenCtx *c) {
    if (gemm_mode() == GEMM_LOOP) return "attn's fixed-order loop";
    if (!load_blas()) return "attn's fixed-order loop (no BLAS)";
    if (ten_own_gemm(c, 0)) return "attn's AVX-512 kernel (OpenBLAS's SkylakeX bits)";
    return "OpenBLAS above 64^3";
}

void ten_set_own_gemm(TenCtx *c, bool on) { c->own_gemm = on; }


/* OpenBLAS 0.3.21's interface/gemm.c sends a call with M*N*K <= 100^3 to its small-matrix kernels (another order
 * of additions), larger ones to its normal path, whose bits vm_blas_gemm gives. */
bool ten_blas_normal_path(int64_t m, int64_t n, int64_t k) { return (double)m * (double)n * (double)k > 1e6; }

bool ten_own_gemm(const TenCtx *c, int64_t ldb) {
    return c->own_gemm && gemm_mode() == GEMM_AUTO && vm_level() == 2 && blas_skylakex && ldb < (1 << 26);
}

/* Where vm_blas_gemm is faster than OpenBLAS, measured on one thread: 10-20% with B (in, out) of a Linear layer of
 * 512 or attention's (1024, 64), about even at 1024 x 1024, 10% slower at 2048 x 2048. So B up to 4 MiB packed. */
bool ten_sgemm_own(const TenCtx *c, int64_t m, int64_t n, int64_t k, int64_t ldb, float alpha) {
    return ten_own_gemm(c, ldb) && alpha != 0.0f && ten_blas_normal_path(m, n, k) && vm_blas_packed_size(n, k) <= (1 << 20);
}

/* c's m*n*k at or above which BLAS is used; flops < 0 restores the default. */
void ten_set_blas_threshold(TenCtx *c, int64_t flops) { c->blas_threshold = flops < 0 ? TEN_BLAS_THRESHOLD : flops; }

/* Whether a product of this size goes to OpenBLAS (loading it now, on the calling thread, when it does). */
bool ten_sgemm_wants_blas(const TenCtx *c, int64_t m, int64_t n, int64_t k) {
    if (gemm_mode() == GEMM_LOOP || m * n * k < c->blas_threshold || m >= INT32_MAX || n >= INT32_MAX || k >= INT32_MAX) return false;
    if (par_in_parallel()) return blas_state == 1;      /* workers never load it (the main thread did, or not) */
    return load_blas() != NULL;
}

/* Where a product may be split. OpenBLAS gives a row of C the same bits in a call for a block of rows as in the call
 * for all rows only when the block starts at a multiple of its kernel's unroll (12 rows for Haswell and Zen, 8 for
 * Nehalem, 2 or 4 for the SSE cores; 1 for SkylakeX and Sandybridge) and when the block stays on the same path as
 * the whole (SkylakeX and Cooperlake send a product of at most 100^3 multiply-adds to other kernels, with other
 * bits). Measured over every core Debian's OpenBLAS 0.3.21 has on x86-64 (tests/unit/test_determinism.c repeats
 * the check for the core that is loaded): blocks of a multiple of 48 rows, each above 100^3, keep every row's bits.
 * TEN_GEMM_SPLIT_ROWS (tensor_internal.h) is the least common multiple of the unrolls (16 and 12 included, for
 * ARMv8's cores). */

typedef struct GemmJob {
    const float *A, *B;
    float *C;
    int64_t lda, ldb, ldc, n, k;
    bool at, bt;                        /* A stored (k, m), B stored (n, k) */
    float alpha;
    int64_t m;
    int64_t unit, units;                /* gemm_rows: rows per unit (a multiple of TEN_GEMM_SPLIT_ROWS), m / unit units */
    float *Bp;                          /* B packed for vm_blas_gemm, or NULL: OpenBLAS computes the rows */
    const float *bias;                  /* NULL, or (n,) added to each row of C once computed (ten_linear) */
    int64_t nbias;                      /* bias's length: n, or 1 (one value for every column) */
} GemmJob;

/* Rows [r0, r1) of C += bias, after their product (while they are still in the cache): C's bits are those of the
 * product rounded, then the bias added, as a separate pass would give. */
static void add_bias(float *C, int64_t ldc, int64_t r0, int64_t r1, int64_t n, const float *bias, int64_t nbias) {
    for (int64_t r = r0; r < r1; r++) {
        float *restrict c = C + r * ldc;
        if (nbias == 1)
            for (int64_t j = 0; j < n; j++) c[j] += bias[0];
        else
            for (int64_t j = 0; j < n; j++) c[j] += bias[j];
    }
}

/* Units [begin, end) of g->unit rows of C by one OpenBLAS call; the last unit also takes the rows after it (m %
 * unit), so every call starts at a multiple of TEN_GEMM_SPLIT_ROWS and has at least g->unit rows. Row-major C = A B is
 * column-major Cᵀ = Bᵀ Aᵀ: the call is made in that column-major form (as PyTorch's sgemm_ calls are), which also
 * keeps OpenBLAS off its separate small-matrix path for row-major calls. */
static void gemm_rows(void *ctx, int64_t begin, int64_t end) {
    const GemmJob *g = ctx;
    int64_t r0 = begin * g->unit, r1 = end == g->units ? g->m : end * g->unit;
    blas_sgemm(CblasColMajor, g->bt ? CblasTrans : CblasNoTrans, g->at ? CblasTrans : CblasNoTrans, (int)g->n,
               (int)(r1 - r0), (int)g->k, g->alpha, g->B, (int)g->ldb, g->A + (g->at ? r0 : r0 * g->lda), (int)g->lda,
               0.0f, g->C + r0 * g->ldc, (int)g->ldc);
    if (g->bias) add_bias(g->C, g->ldc, r0, r1, g->n, g->bias, g->nbias);
}

/* Rows per block (tensor_internal.h): a multiple of TEN_GEMM_SPLIT_ROWS and, when the whole product is on OpenBLAS's
 * normal path, enough rows that each block is too; m itself for a product on the small-matrix path (SkylakeX's small
 * kernels give a row other bits in a block of another size) or too short to split. */
int64_t ten_sgemm_split_rows(int64_t m, int64_t n, int64_t k) {
    if (!ten_blas_normal_path(m, n, k)) return m;
    int64_t need = (int64_t)(1e6 / ((double)n * (double)k)) + 1;          /* rows with more than 100^3 */
    int64_t unit = (need + TEN_GEMM_SPLIT_ROWS - 1) / TEN_GEMM_SPLIT_ROWS * TEN_GEMM_SPLIT_ROWS;
    return unit < m ? unit : m;
}

/* Panels [begin, end) (32 columns each) of B into g->Bp. */
static void pack_panels(void *ctx, int64_t begin, int64_t end) {
    const GemmJob *g = ctx;
    vm_blas_pack_b(g->B, g->ldb, g->bt, g->n, g->k, g->Bp, begin * 32, end * 32 < g->n ? end * 32 : g->n);
}

/* Tiles [begin, end) of 12 rows of C by vm_blas_gemm: OpenBLAS's bits for the whole product's rows, whichever
 * tiles a thread takes. */
static void gemm_tiles(void *ctx, int64_t begin, int64_t end) {
    const GemmJob *g = ctx;
    int64_t r0 = begin * 12, r1 = end * 12 < g->m ? end * 12 : g->m;
    vm_blas_gemm_at(g->A + (g->at ? r0 : r0 * g->lda), g->lda, g->at, g->Bp, g->C + r0 * g->ldc, g->ldc, r1 - r0, g->n,
                    g->k, g->alpha);
    if (g->bias) add_bias(g->C, g->ldc, r0, r1, g->n, g->bias, g->nbias);
}

/* The fixed-order loop (A read transposed when at: only where ten_sgemm_tt had no memory for its copy): every C[i][j] adds A[i][p] * B[p][j] for p = 0, 1, ... in double (each product of two
 * floats is exact in double) and rounds once. The additions of one row run for all j side by side, so the loop
 * over j vectorises (with AVX2, vm_small_gemm_avx2 runs the same sums in blocks); without it B is first copied as
 * (k, n) rows when it is transposed or strided. */
static void small_gemm(const float *A, int64_t lda, bool at, const float *B, int64_t ldb, float *C, int64_t ldc,
                       int64_t m, int64_t n, int64_t k, bool bt, float alpha) {
#if defined(__x86_64__) && !defined(ATTN_NO_SIMD)
    if (vm_level() >= 1 && !at) {
        if (bt && m * (k + n) < n * k) {
            /* few rows of A against many of B (a Linear layer on a few tokens): C transposed = B @ A transposed, the
             * same products added in the same order, A (the smaller one) read as the transposed operand */
            float *Ct = malloc(sizeof(float) * (size_t)(n * m));
            bool done = Ct && vm_small_gemm_avx2(B, ldb, A, lda, true, Ct, m, n, m, k, alpha);
            if (done)
                for (int64_t i = 0; i < m; i++)
                    for (int64_t j = 0; j < n; j++) C[i * ldc + j] = Ct[j * m + i];
            free(Ct);
            if (done) return;
        } else if (vm_small_gemm_avx2(A, lda, B, ldb, bt, C, ldc, m, n, k, alpha)) return;
    }
#endif
    double acc_stack[256];
    float *Bk = NULL;
    double *acc = n <= 256 ? acc_stack : malloc(sizeof(double) * (size_t)n);
    if (bt || ldb != n) {
        Bk = malloc(sizeof(float) * (size_t)(k * n));
        if (Bk && bt)                     /* B's rows read in order, written as columns of Bk */
            for (int64_t j = 0; j < n; j++)
                for (int64_t p = 0; p < k; p++) Bk[p * n + j] = B[j * ldb + p];
        else if (Bk)
            for (int64_t p = 0; p < k; p++) memcpy(Bk + p * n, B + p * ldb, sizeof(float) * (size_t)n);
    }
#define A_AT(i, p) (at ? A[(p) * lda + (i)] : A[(i) * lda + (p)])
    if (!acc || ((bt || ldb != n) && !Bk)) {
        /* no memory for the buffers: the same sums one element at a time */
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double a1 = 0;
                for (int64_t p = 0; p < k; p++) a1 += (double)A_AT(i, p) * (bt ? B[j * ldb + p] : B[p * ldb + j]);
                C[i * ldc + j] = (float)a1 * alpha;
            }
    } else {
        const float *Bp = Bk ? Bk : B;
        for (int64_t i = 0; i < m; i++) {
            for (int64_t j = 0; j < n; j++) acc[j] = 0;
            for (int64_t p = 0; p < k; p++) {
                double a = A_AT(i, p);
                const float *b = Bp + p * n;
                for (int64_t j = 0; j < n; j++) acc[j] += a * (double)b[j];
            }
            for (int64_t j = 0; j < n; j++) C[i * ldc + j] = (float)acc[j] * alpha;
        }
    }
#undef A_AT
    free(Bk);
    if (acc != acc_stack) free(acc);
}

static void sgemm_bias(TenCtx *c, const float *A, int64_t lda, bool at, const float *B, int64_t ldb, bool bt, float *C,
                       int64_t ldc, int64_t m, int64_t n, int64_t k, bool blas, float alpha, const float *bias,
                       int64_t nbias);

/* C = alpha * (A @ B) (or A @ Bᵀ when bt) with row strides lda, ldb, ldc: OpenBLAS's bits when blas (from
 * vm_blas_gemm when ten_sgemm_own, else OpenBLAS; rows spread over attn's threads unless already inside a parallel
 * loop), else a fixed-order loop with a double accumulator (the
 * same digits on every machine), its float32 sum times alpha. */
void ten_sgemm_ld(TenCtx *c, const float *A, int64_t lda, const float *B, int64_t ldb, float *C, int64_t ldc,
                  int64_t m, int64_t n, int64_t k, bool bt, bool blas, float alpha) {
    ten_sgemm_tt(c, A, lda, false, B, ldb, bt, C, ldc, m, n, k, blas, alpha);
}

/* ten_sgemm_ld with A read transposed when at (tensor_internal.h): OpenBLAS's transB in its column-major call, a
 * transposing copy of each tile's slice in vm_blas_gemm, and one copy of A as (m, k) for the fixed-order loop. */
void ten_sgemm_tt(TenCtx *c, const float *A, int64_t lda, bool at, const float *B, int64_t ldb, bool bt, float *C,
                  int64_t ldc, int64_t m, int64_t n, int64_t k, bool blas, float alpha) {
    sgemm_bias(c, A, lda, at, B, ldb, bt, C, ldc, m, n, k, blas, alpha, NULL, 0);
}

/* ten_sgemm_tt, then C += bias (n,) (or one value, nbias 1) row by row as each block of rows is done; bias NULL:
 * none. */
static void sgemm_bias(TenCtx *c, const float *A, int64_t lda, bool at, const float *B, int64_t ldb, bool bt, float *C,
                       int64_t ldc, int64_t m, int64_t n, int64_t k, bool blas, float alpha, const float *bias,
                       int64_t nbias) {
    if (m == 0 || n == 0) return;
    if (k == 0) {                           /* an empty sum: zeros (BLAS would also insist on lda >= 1) */
        for (int64_t i = 0; i < m; i++) memset(C + i * ldc, 0, sizeof(float) * (size_t)n);
        if (bias) add_bias(C, ldc, 0, m, n, bias, nbias);
        return;
    }
    if (blas && blas_sgemm) {
        GemmJob g = {A, B, C, lda, ldb, ldc, n, k, at, bt, alpha, m, 0, 0, NULL, bias, nbias};
        /* OpenBLAS's SkylakeX bits from vm_blas_gemm where it is faster: B packed once, its panels spread over the
         * threads, then ranges of 12-row tiles of about 1 MFLOP, taken by whichever thread is free (B is not
         * packed again per range); without memory for the packed B, OpenBLAS itself */
        if (ten_sgemm_own(c, m, n, k, ldb, alpha) && (g.Bp = malloc(sizeof(float) * (size_t)vm_blas_packed_size(n, k)))) {
            int64_t panels = (n + 31) / 32, tiles = (m + 11) / 12, per_tile = 24 * n * k;
            par_for(c, panels, (1 << 16) / (32 * k) + 1, pack_panels, &g);
            /* a second thread when each gets about 4 MFLOP; then ranges of about 1 MFLOP, so that a thread slowed
             * by another program leaves the other at most that much to wait for */
            int64_t worth = per_tile >= (1 << 22) ? 1 : (1 << 22) / per_tile + 1;
            par_for_chunks(c, tiles, tiles < 2 * worth ? tiles : (worth + 3) / 4, gemm_tiles, &g);
            free(g.Bp);
            return;
        }
        /* units of whole split blocks (ten_sgemm_split_rows), so that the bits are the one call's for any thread count */
        g.unit = ten_sgemm_split_rows(m, n, k);
        g.units = m / g.unit;
        int64_t per_unit = 2 * n * k * g.unit;
        /* a block is worth a thread at about 4 MFLOP; below about 256 MFLOP, one block per thread: smaller blocks
         * each pack B again and give OpenBLAS short panels (a 256 x 256 product on two threads ran at half the
         * speed of one block per thread) */
        int64_t grain = per_unit >= (1 << 22) ? 1 : (1 << 22) / per_unit + 1;
        int threads = par_in_parallel() ? 1 : par_threads(c);
        int64_t per_thread = (g.units + threads - 1) / threads;
        if (m * 2 * n * k < ((int64_t)1 << 28) && per_thread > grain) grain = per_thread;
        par_for(c, g.units, grain, gemm_rows, &g);
        return;
    }
    float *Ac = at ? malloc(sizeof(float) * (size_t)(m * k)) : NULL;
    if (Ac)                                 /* A as (m, k) rows: Aᵀ's rows read in order, written as columns */
        for (int64_t p = 0; p < k; p++)
            for (int64_t i = 0; i < m; i++) Ac[i * k + p] = A[p * lda + i];
    small_gemm(Ac ? Ac : A, Ac ? k : lda, Ac ? false : at, B, ldb, C, ldc, m, n, k, bt, alpha);
    free(Ac);
    if (bias) add_bias(C, ldc, 0, m, n, bias, nbias);
}

/* C (m, n) = A (m, k) @ B (k, n), or A @ B^T with B stored (n, k) when bt. Row-major, no aliasing. */
void ten_sgemm(TenCtx *c, const float *A, const float *B, float *C, int64_t m, int64_t n, int64_t k, bool bt) {
    ten_sgemm_ld(c, A, k, B, bt ? k : n, C, n, m, n, k, bt, ten_sgemm_wants_blas(c, m, n, k), 1.0f);
}

static void int_gemm(const int64_t *A, const int64_t *B, int64_t *C, int64_t m, int64_t n, int64_t k) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            uint64_t acc = 0;
            for (int64_t p = 0; p < k; p++) acc += (uint64_t)A[i * k + p] * (uint64_t)B[p * n + j];
            C[i * n + j] = (int64_t)acc;
        }
}

/* float64: C (m, n) = A (m, k) @ B (k, n) in double, a fixed-order loop. */
static void dgemm_loop(const double *A, const double *B, double *C, int64_t m, int64_t n, int64_t k) {
    for (int64_t i = 0; i < m; i++) {
        double *c = C + i * n;
        for (int64_t j = 0; j < n; j++) c[j] = 0;
        for (int64_t p = 0; p < k; p++) {
            double x = A[i * k + p];
            const double *b = B + p * n;
            for (int64_t j = 0; j < n; j++) c[j] += x * b[j];
        }
    }
}

/* Whether t (batch..., r, c) lies densely in memory from t->data as (batch..., r, c) (*trans false) or as
 * (batch..., c, r) transposed in its last two dims (*trans true): the layouts sgemm reads in place. */
static bool dense_matrices(const Tensor *t, int64_t r, int64_t c, bool *trans) {
    int nd = t->ndim;
    *trans = false;
    if (t->contiguous) return true;
    if (!(t->stride[nd - 2] == 1 || r == 1) || !(t->stride[nd - 1] == r || c == 1)) return false;
    int64_t expect = r * c;
    for (int i = nd - 3; i >= 0; i--) {
        if (t->stride[i] != expect && t->shape[i] != 1) return false;
        expect *= t->shape[i];
    }
    *trans = true;
    return true;
}

static Tensor *mismatch(const Tensor *a, const Tensor *b, const char *what) {
    char sa[128], sb[128];
    ten_shape_str(a->shape, a->ndim, sa, sizeof sa);
    ten_shape_str(b->shape, b->ndim, sb, sizeof sb);
    ten_fail_in(ten_ctx_of(a), "%s: shapes %s and %s cannot be multiplied (%lld != %lld)", what, sa, sb,
             (long long)a->shape[a->ndim - 1], (long long)b->shape[b->ndim >= 2 ? b->ndim - 2 : 0]);
    return NULL;
}

/* A batch of products C[i] (m, n) = A[i] @ B[i], each operand dense (A[i] (m, k), or stored (k, m) when at; B[i]
 * (k, n), or stored (n, k) when bt), one after another in memory. */
typedef struct BatchJob {
    TenCtx *c;                          /* the operands' context: its threads and product switches */
    const float *A, *B;
    float *C;
    int64_t m, n, k;
    bool at, bt, blas;
} BatchJob;

static void batch_range(void *ctx, int64_t begin, int64_t end) {
    const BatchJob *j = ctx;
    for (int64_t i = begin; i < end && !ten_interrupted; i++)
        ten_sgemm_tt(j->c, j->A + i * j->m * j->k, j->at ? j->m : j->k, j->at, j->B + i * j->k * j->n, j->bt ? j->k : j->n,
                     j->bt, j->C + i * j->m * j->n, j->n, j->m, j->n, j->k, j->blas, 1.0f);
}

/* The products of a batch: spread over the threads a few whole products at a time (about 4 MFLOP or more each) when
 * each product is small (attention's heads: (256, 32) @ (32, 256) is 4 MFLOP, too little to split by rows), else
 * one after another, each split by rows. Either way every product has the bits of one call (ten_sgemm_ld). */
static void batch_products(const BatchJob *j, int64_t batch) {
    double flops = 2.0 * (double)j->m * (double)j->n * (double)j->k;
    if (batch > 1 && flops < (double)(1 << 26)) par_for(j->c, batch, (int64_t)((1 << 22) / (flops + 1)) + 1, batch_range, (void *)j);
    else batch_range((void *)j, 0, batch);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ten_gemm_stats(const TenCtx *c, double *seconds, double *flops) {
    *seconds = c->gemm_seconds;
    *flops = c->gemm_flops;
}

/* Adds a float32 product's time since t0 and its FLOPs to c's counters (ten_gemm_stats); not from the pool's
 * workers (their products are inside one that the calling thread counts). */
static void count_gemm(TenCtx *c, double t0, double flops) {
    if (par_in_parallel()) return;
    c->gemm_seconds += now_seconds() - t0;
    c->gemm_flops += flops;
}

static Tensor *matmul(const Tensor *a, const Tensor *b);

/* torch.matmul (below), its float32 products counted in ten_gemm_stats. */
Tensor *ten_matmul(const Tensor *a, const Tensor *b) {
    if (a->dtype != DT_F32 || b->dtype != DT_F32 || a->ndim == 0 || b->ndim == 0) return matmul(a, b);
    double t0 = now_seconds();
    Tensor *o = matmul(a, b);
    /* each result element is one k-long dot product: 2·k FLOPs (2·batch·m·n·k in all; no division, so an empty
     * result counts 0) */
    if (o) count_gemm(ten_ctx_of(a), t0, 2.0 * (double)o->numel * (double)a->shape[a->ndim - 1]);
    return o;
}

/* torch.matmul. 1-D operands get a dimension added and removed again; batch dims broadcast. */
static Tensor *matmul(const Tensor *a, const Tensor *b) {
    if (a->ndim == 0 || b->ndim == 0) {
        ten_fail_in(ten_ctx_of(a), "both arguments to matmul need to be at least 1D, but they are %dD and %dD", a->ndim, b->ndim);
        return NULL;
    }
    bool a1 = a->ndim == 1, b1 = b->ndim == 1;
    int64_t m = a1 ? 1 : a->shape[a->ndim - 2], k = a->shape[a->ndim - 1];
    int64_t kb = b1 ? b->shape[0] : b->shape[b->ndim - 2], n = b1 ? 1 : b->shape[b->ndim - 1];
    if (k != kb) return mismatch(a, b, "matmul");
    int nba = a->ndim > 2 ? a->ndim - 2 : 0, nbb = b->ndim > 2 ? b->ndim - 2 : 0;
    int64_t bsh[TEN_MAX_DIMS];
    int nb;
    if (ten_broadcast_shape_in(ten_ctx_of(a), a->shape, nba, b->shape, nbb, bsh, &nb) < 0) return NULL;
    int64_t batch = 1;
    for (int i = 0; i < nb; i++) batch *= bsh[i];
    /* PyTorch multiplies only equal dtypes (no promotion) and no bools */
    if (a->dtype != b->dtype) {
        if (a1 && b1)
            ten_fail_in(ten_ctx_of(a), "dot : expected both vectors to have same dtype, but found %s and %s", ten_dtype_word(a->dtype), ten_dtype_word(b->dtype));
        else
            ten_fail_in(ten_ctx_of(a), "expected scalar type %s but found %s", ten_dtype_word(a->dtype), ten_dtype_word(b->dtype));
        return NULL;
    }
    if (a->dtype == DT_BOOL) { ten_fail_in(ten_ctx_of(a), "\"addmm_impl_cpu_\" not implemented for 'Bool'"); return NULL; }
    DType dt = a->dtype;
    /* fast path: float32 operands of at least 2 dims whose batch dims are equal (no broadcasting, no copies) */
    if (dt == DT_F32 && a->dtype == DT_F32 && b->dtype == DT_F32 && !a1 && !b1 && nba == nbb && a->contiguous && b->contiguous &&
        memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)nba) == 0) {
        int64_t osh[TEN_MAX_DIMS];
        memcpy(osh, a->shape, sizeof(int64_t) * (size_t)nba);
        osh[nba] = m;
        osh[nba + 1] = n;
        Tensor *o = ten_new_uninit_in(ten_ctx_of(a), DT_F32, nba + 2, osh);
        if (!o) return NULL;
        BatchJob j = {ten_ctx_of(a), ten_f32(a), ten_f32(b), ten_f32(o), m, n, k, false, false,
                      ten_sgemm_wants_blas(ten_ctx_of(a), m, n, k)};
        batch_products(&j, batch);
        if (ten_interrupted) { ten_free(o); ten_fail_interrupted(ten_ctx_of(a)); return NULL; }
        return o;
    }
    /* float32 with equal batch dims: each operand read in place when it is a contiguous (batch..., rows, cols) or a
     * contiguous (batch..., cols, rows) transposed (sgemm's transA and transB: a backward's x.transpose(-2, -1) costs
     * no copy), else one contiguous copy of it */
    bool at, bt;
    if (dt == DT_F32 && !a1 && !b1 && nba == nbb && memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)nba) == 0) {
        Tensor *ac = dense_matrices(a, m, k, &at) ? ten_alias(a) : ten_contiguous(a);
        Tensor *bc = !ac ? NULL : dense_matrices(b, k, n, &bt) ? ten_alias(b) : ten_contiguous(b), *o = NULL;
        int64_t osh[TEN_MAX_DIMS];
        memcpy(osh, a->shape, sizeof(int64_t) * (size_t)nba);
        osh[nba] = m;
        osh[nba + 1] = n;
        if (bc) o = ten_new_uninit_in(ten_ctx_of(a), DT_F32, nba + 2, osh);
        if (o) {
            BatchJob j = {ten_ctx_of(a), (const float *)ac->data, (const float *)bc->data, ten_f32(o), m, n, k, at, bt,
                          ten_sgemm_wants_blas(ten_ctx_of(a), m, n, k)};
            batch_products(&j, batch);
            if (ten_interrupted) { ten_free(o); o = NULL; ten_fail_interrupted(ten_ctx_of(a)); }
        }
        ten_free(ac);
        ten_free(bc);
        return o;
    }
    /* Expand operands to (batch..., m, k) and (batch..., k, n). */
    int64_t ash[TEN_MAX_DIMS], bsh2[TEN_MAX_DIMS];
    memcpy(ash, bsh, sizeof(int64_t) * (size_t)nb);
    memcpy(bsh2, bsh, sizeof(int64_t) * (size_t)nb);
    ash[nb] = m; ash[nb + 1] = k;
    bsh2[nb] = k; bsh2[nb + 1] = n;
    Tensor *ra = NULL, *rb = NULL, *ea = NULL, *eb = NULL, *o = NULL;
    int64_t a2[2] = {m, k}, b2[2] = {k, n};
    ra = a1 ? ten_view_of(a, 2, a2, (int64_t[]){0, a->stride[0]}, a->offset) : ten_alias(a);
    rb = b1 ? ten_view_of(b, 2, b2, (int64_t[]){b->stride[0], 0}, b->offset) : ten_alias(b);
    /* dense (batch..., m, k) and (batch..., k, n) operands */
    ea = ten_expand_dense(ra, dt, nb + 2, ash);
    eb = ea ? ten_expand_dense(rb, dt, nb + 2, bsh2) : NULL;
    if (!ea || !eb) goto done;
    int64_t osh[TEN_MAX_DIMS];
    int ond = 0;
    for (int i = 0; i < nb; i++) osh[ond++] = bsh[i];
    if (!a1) osh[ond++] = m;
    if (!b1) osh[ond++] = n;
    o = ten_new_in(ten_ctx_of(a), dt, ond, osh);
    if (!o) goto done;
    for (int64_t i = 0; i < batch; i++) {
        if (ten_interrupted) { ten_free(o); o = NULL; ten_fail_interrupted(ten_ctx_of(a)); goto done; }
        if (dt == DT_F32)
            ten_sgemm(ten_ctx_of(a), ten_f32(ea) + i * m * k, ten_f32(eb) + i * k * n, ten_f32(o) + i * m * n, m, n, k, false);
        else if (dt == DT_F64) dgemm_loop(ten_f64(ea) + i * m * k, ten_f64(eb) + i * k * n, ten_f64(o) + i * m * n, m, n, k);
        else int_gemm(ten_i64(ea) + i * m * k, ten_i64(eb) + i * k * n, ten_i64(o) + i * m * n, m, n, k);
    }
done:
    ten_free(ra); ten_free(rb); ten_free(ea); ten_free(eb);
    return o;
}

/* torch.bmm: strictly 3-D, equal batch sizes. (B, n, k) @ (B, k, m) -> (B, n, m) */
Tensor *ten_bmm(const Tensor *a, const Tensor *b) {
    if (a->ndim != 3 || b->ndim != 3) {
        ten_fail_in(ten_ctx_of(a), "bmm expects 3-D tensors (batch, n, k) and (batch, k, m), got %dD and %dD", a->ndim, b->ndim);
        return NULL;
    }
    if (a->shape[0] != b->shape[0]) {
        char sa[128], sb[128];
        ten_shape_str(a->shape, 3, sa, sizeof sa);
        ten_shape_str(b->shape, 3, sb, sizeof sb);
        ten_fail_in(ten_ctx_of(a), "bmm: batch sizes differ: %s and %s", sa, sb);
        return NULL;
    }
    if (a->shape[2] != b->shape[1]) return mismatch(a, b, "bmm");
    return ten_matmul(a, b);
}

/* F.linear's arithmetic: x (..., in) @ W (out, in)^T + b, every operand any layout (a copy only of a view that is
 * not contiguous); b (out,), one value, or NULL. float32 by ten_sgemm (nn.Linear's digits); float64 by ten_matmul. */
Tensor *ten_linear(const Tensor *x, const Tensor *W, const Tensor *b) {
    DType dt = x->dtype;
    if (x->ndim < 1 || W->ndim != 2 || x->shape[x->ndim - 1] != W->shape[1] || !ten_is_float(dt) || W->dtype != dt ||
        (b && (b->dtype != dt || (b->numel != 1 && b->numel != W->shape[0])))) {
        ten_fail_in(ten_ctx_of(x), "linear: x (..., in), W (out, in) and b (out,) of one float dtype are needed");
        return NULL;
    }
    if (dt == DT_F64) {
        Tensor *wt = ten_transpose(W, 0, 1), *p = wt ? matmul(x, wt) : NULL;
        ten_free(wt);
        if (!p || !b) return p;
        Tensor *r = ten_binary(OP_ADD, p, false, b, false);
        ten_free(p);
        return r;
    }
    int64_t in = W->shape[1], out = W->shape[0], rows = 1;   /* rows: the leading dimensions (in may be 0) */
    for (int d = 0; d < x->ndim - 1; d++) rows *= x->shape[d];
    double t0 = now_seconds();
    Tensor *xf = NULL, *wt = NULL, *bt = NULL;
    const Tensor *xd = ten_as_contiguous(x, &xf);
    const Tensor *Wd = ten_as_contiguous(W, &wt);
    const Tensor *bd = b ? ten_as_contiguous(b, &bt) : NULL;
    Tensor *y = NULL;
    int64_t sh[TEN_MAX_DIMS];
    memcpy(sh, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    sh[x->ndim - 1] = out;
    /* ten_sgemm writes every element of y (zeros for in = 0): no zeroing pass first */
    if (xd && Wd && (!b || bd) && (y = ten_new_uninit_in(ten_ctx_of(x), DT_F32, x->ndim, sh))) {
        /* b (out,), or one value for every output (PyTorch broadcasts it), added to each block of rows of y as soon
         * as the product has them */
        sgemm_bias(ten_ctx_of(x), ten_f32(xd), in, false, ten_f32(Wd), in, true, ten_f32(y), out, rows, out, in,
                   ten_sgemm_wants_blas(ten_ctx_of(x), rows, out, in), 1.0f, bd ? ten_f32(bd) : NULL, bd ? bd->numel : 0);
        count_gemm(ten_ctx_of(x), t0, 2.0 * (double)rows * (double)out * (double)in);
    }
    ten_free(xf);
    ten_free(wt);
    ten_free(bt);
    return y;
}

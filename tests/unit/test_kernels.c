/* test_kernels.c - the machinery under the fast kernels: the thread pool hands out every item exactly once for any
 * thread count and grain; SLEEF's 16-wide functions give the bits of the 8-wide ones PyTorch calls (on a CPU with
 * AVX-512); softmax rows sum to 1 and match PyTorch's order on hand-made rows; the fused attention equals the
 * unfused product, softmax and product for 1 and 3 threads (bit for bit where the products are provably the same
 * kernel, else within a stated k*eps bound); attention's own AVX-512 products add up in OpenBLAS's SkylakeX order
 * (a scalar loop in that order, and OpenBLAS itself where it runs those kernels). The file builds on any CPU: the
 * AVX-512 kernels are called only where vecmath.c compiles them. PyTorch itself is the reference in
 * tests/ref/torch_kernels.py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "tensor.h"
#include "parallel.h"
#include "vecmath.h"
#include "tensor_internal.h"

/* The tensor context this file's tests make their tensors in and read failures from (the test owns it). */
static TenCtx *test_ctx(void) {
    static TenCtx *c;
    if (!c) c = ten_ctx_new();
    return c;
}
#define TC test_ctx()

typedef struct Count { atomic_int *seen; int64_t n, chunk; atomic_int bad; } Count;

static void mark(void *ctx, int64_t begin, int64_t end) {
    Count *c = ctx;
    for (int64_t i = begin; i < end; i++) atomic_fetch_add(&c->seen[i], 1);
}

/* mark for par_for_chunks: a range is exactly one chunk (the last one shorter), or everything on one thread */
static void mark_chunk(void *ctx, int64_t begin, int64_t end) {
    Count *c = ctx;
    if (!(begin == 0 && end == c->n) &&
        (begin % c->chunk || end - begin != (c->n - begin < c->chunk ? c->n - begin : c->chunk)))
        atomic_fetch_add(&c->bad, 1);            /* counted here, asserted on the main thread */
    mark(ctx, begin, end);
}

static void test_par_for_covers_once(void **state) {
    (void)state;
    int64_t sizes[] = {0, 1, 2, 7, 64, 1000, 100003};
    int64_t grains[] = {1, 3, 16, 5000};
    for (int threads = 1; threads <= 4; threads++) {
        par_set_threads(TC, threads);
        assert_int_equal(par_threads(TC), threads);
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (size_t g = 0; g < sizeof grains / sizeof *grains; g++) {
                int64_t n = sizes[s];
                atomic_int *seen = calloc((size_t)(n ? n : 1), sizeof(atomic_int));
                Count c = {seen, n, grains[g], 0};
                par_for(TC, n, grains[g], mark, &c);
                for (int64_t i = 0; i < n; i++) assert_int_equal(atomic_load(&seen[i]), 1);
                par_for_chunks(TC, n, grains[g], mark_chunk, &c);
                for (int64_t i = 0; i < n; i++) assert_int_equal(atomic_load(&seen[i]), 2);
                assert_int_equal(atomic_load(&c.bad), 0);
                free(seen);
            }
    }
    par_set_threads(TC, 0);
    assert_int_equal(par_threads(TC), 1);          /* clamped */
    par_set_threads(TC, 2);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t next_u32(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* Any bit pattern, or a value of mixed magnitude (small, near 125, large): sin and cos change branch at 125. */
static float sample(uint32_t r) {
    float f;
    switch (r % 4) {
    case 0: memcpy(&f, &r, 4); return f;
    case 1: return (float)(int32_t)(r >> 8) / 65536.0f;
    case 2: return 120.0f + (float)(r >> 20) / 100.0f;
    default: return (float)(r >> 4) / 7.0f;
    }
}

static void test_vecmath_widths_agree(void **state) {
    (void)state;
    if (vm_level() < 2) { vm_force_level(-1); skip(); }
    enum { N = 1 << 16 };
    float *x = malloc(sizeof(float) * N), *a = malloc(sizeof(float) * N), *b = malloc(sizeof(float) * N);
    VmOp ops[] = {VM_EXP, VM_LOG, VM_TANH, VM_SIN, VM_COS};
    for (int round = 0; round < 16; round++) {
        for (int i = 0; i < N; i++) x[i] = sample(next_u32());
        for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
            vm_force_level(2);
            vm_map(ops[o], x, a, N - round);         /* a tail of every length */
            vm_force_level(1);
            vm_map(ops[o], x, b, N - round);
            for (int i = 0; i < N - round; i++)
                if (memcmp(&a[i], &b[i], 4) != 0 && !(isnan(a[i]) && isnan(b[i])))
                    fail_msg("op %d at %d: x %a: 16-wide %a, 8-wide %a", (int)ops[o], i, (double)x[i], (double)a[i], (double)b[i]);
        }
    }
    vm_force_level(-1);
    free(x); free(a); free(b);
}

static void test_softmax_row(void **state) {
    (void)state;
    float x[37], y[37];
    for (int n = 1; n <= 37; n++) {
        for (int i = 0; i < n; i++) x[i] = (float)((i * 7919) % 23) - 11.0f;
        vm_softmax_row(x, y, n);
        double s = 0;
        for (int i = 0; i < n; i++) { assert_true(y[i] > 0 && y[i] <= 1); s += y[i]; }
        assert_true(fabs(s - 1) < 1e-6);
    }
    /* masked entries (-1e6) get exactly 0; a row of equal values exactly 1/n when 1/n is exact */
    float m[4] = {1, 2, -1e6f, -1e6f}, w[4];
    vm_softmax_row(m, w, 4);
    assert_true(w[2] == 0 && w[3] == 0);
    float e[8] = {3, 3, 3, 3, 3, 3, 3, 3};
    vm_softmax_row(e, w, 4);
    assert_true(w[0] == 0.25f && w[3] == 0.25f);
}

/* vm_softmax_rows with AVX-512 (shift, exp and sum in one pass) gives the bits of the AVX2 passes, which follow
 * PyTorch's order: rows of every length around the vector widths, 1 to 7 rows (the 4-row groups and the rest),
 * values of all magnitudes with -1e6 masks, infinities and NaNs among them. */
static void test_softmax_widths_agree(void **state) {
    (void)state;
    if (vm_level() < 2) skip();
    enum { MAXN = 1030, ROWS = 7 };
    float *x = malloc(sizeof(float) * MAXN * ROWS), *a = malloc(sizeof(float) * MAXN * ROWS), *b = malloc(sizeof(float) * MAXN * ROWS);
    for (int64_t n = 8; n <= MAXN; n += n < 70 ? 1 : 137) {
        for (int64_t i = 0; i < n * ROWS; i++) {
            uint32_t r = next_u32();
            x[i] = r % 97 == 0 ? -1e6f : r % 389 == 0 ? INFINITY : r % 1543 == 0 ? NAN : r % 3 == 0 ? sample(r) * 1e-3f
                 : (float)((int)(r % 20001) - 10000) / 977.0f;
        }
        for (int64_t rows = 1; rows <= ROWS; rows++) {
            memcpy(a, x, sizeof(float) * (size_t)(n * rows));
            memcpy(b, x, sizeof(float) * (size_t)(n * rows));
            vm_force_level(2);
            vm_softmax_rows(a, rows, n, n);
            vm_force_level(1);
            vm_softmax_rows(b, rows, n, n);
            for (int64_t i = 0; i < n * rows; i++)
                if (memcmp(&a[i], &b[i], 4) != 0 && !(isnan(a[i]) && isnan(b[i])))
                    fail_msg("n %lld, %lld rows: element %lld: AVX-512 %a, AVX2 %a", (long long)n, (long long)rows,
                             (long long)i, (double)a[i], (double)b[i]);
        }
    }
    vm_force_level(-1);
    free(x); free(a); free(b);
}

/* vm_softmax_rows_to (softmax reading rows where they lie, as torch.softmax over the last dim of a strided view does)
 * gives the bits of vm_softmax_rows on a copy, at every vector level: rows ldx apart (a gap after each row, written
 * with a sentinel that must not be read into any result) into rows ldy apart, 1 to 7 rows, lengths around the widths,
 * with the same hostile values as above. */
static void test_softmax_rows_to_agrees(void **state) {
    (void)state;
    enum { MAXN = 300, ROWS = 7, GAP = 5 };
    float *x = malloc(sizeof(float) * (MAXN + GAP) * ROWS), *a = malloc(sizeof(float) * MAXN * ROWS);
    float *y = malloc(sizeof(float) * (MAXN + GAP) * ROWS);
    int top = vm_level();
    for (int level = 0; level <= top; level++)
        for (int64_t n = 1; n <= MAXN; n += n < 40 ? 1 : 37) {
            int64_t ldx = n + GAP, ldy = n + 2;
            for (int64_t i = 0; i < ldx * ROWS; i++) {
                uint32_t r = next_u32();
                x[i] = i % ldx >= n ? 1e30f : r % 97 == 0 ? -1e6f : r % 389 == 0 ? INFINITY : r % 1543 == 0 ? NAN
                     : r % 3 == 0 ? sample(r) * 1e-3f : (float)((int)(r % 20001) - 10000) / 977.0f;
            }
            for (int64_t rows = 1; rows <= ROWS; rows++) {
                for (int64_t r = 0; r < rows; r++) memcpy(a + r * n, x + r * ldx, sizeof(float) * (size_t)n);
                vm_force_level(level);
                vm_softmax_rows(a, rows, n, n);
                vm_softmax_rows_to(x, ldx, y, ldy, rows, n);
                for (int64_t r = 0; r < rows; r++)
                    for (int64_t i = 0; i < n; i++)
                        if (memcmp(&a[r * n + i], &y[r * ldy + i], 4) != 0 && !(isnan(a[r * n + i]) && isnan(y[r * ldy + i])))
                            fail_msg("level %d, n %lld, %lld rows: row %lld element %lld: in place %a, from the source %a", level,
                                     (long long)n, (long long)rows, (long long)r, (long long)i, (double)a[r * n + i],
                                     (double)y[r * ldy + i]);
            }
        }
    vm_force_level(-1);
    free(x); free(a); free(y);
}

/* vm_softmax_bw_rows against its definition worked here element by element (eight partial double sums, j into sum
 * j % 8, combined ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)); then (g - s) * y in double, rounded once), the
 * same bits at every vector level: lengths around the widths (tails of 1 to 7), 1 to 5 rows, values of all
 * magnitudes, large terms among small ones. A sum in one chain (the loop before) gives other bits for some of them. */
static void test_softmax_bw_rows_order(void **state) {
    (void)state;
    enum { MAXN = 300, ROWS = 5 };
    float *y = malloc(sizeof(float) * MAXN * ROWS), *g = malloc(sizeof(float) * MAXN * ROWS);
    float *r = malloc(sizeof(float) * MAXN * ROWS);
    int top = vm_level();
    bool chain_differs = false;
    for (int64_t n = 1; n <= MAXN; n += n < 40 ? 1 : 37) {
        for (int64_t i = 0; i < n * ROWS; i++) {
            uint32_t u = next_u32(), v = next_u32();
            y[i] = (float)(u % 10007) / 10007.0f * (u % 5 == 0 ? 1e-6f : 1.0f);
            /* terms near 1e12 among small ones: the sum's rounding in double reaches the small elements' results */
            g[i] = v % 4 == 0 ? (float)((int)(v % 20001) - 10000) * 1e8f : v % 3 == 0 ? sample(v) * 1e3f
                 : (float)((int)(v % 20001) - 10000) / 977.0f;
        }
        for (int64_t row = 0; row < ROWS && n > 1; row++) {      /* a last term that all but cancels the sum */
            double t = 0;
            for (int64_t j = 0; j < n - 1; j++) t += (double)g[row * n + j] * y[row * n + j];
            y[row * n + n - 1] = 1;
            g[row * n + n - 1] = (float)-t;
        }
        for (int level = 0; level <= top; level++) {
            vm_force_level(level);
            vm_softmax_bw_rows(y, g, r, ROWS, n);
            for (int64_t row = 0; row < ROWS; row++) {
                const float *yr = y + row * n, *gr = g + row * n;
                double p[8] = {0, 0, 0, 0, 0, 0, 0, 0}, chain = 0;
                for (int64_t j = 0; j < n; j++) {
                    p[j % 8] += (double)gr[j] * yr[j];
                    chain += (double)gr[j] * yr[j];
                }
                double s = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
                for (int64_t j = 0; j < n; j++) {
                    float want = (float)(((double)gr[j] - s) * yr[j]);
                    chain_differs |= want != (float)(((double)gr[j] - chain) * yr[j]);
                    if (memcmp(&want, &r[row * n + j], 4) != 0)
                        fail_msg("level %d, n %lld, row %lld, element %lld: %a, the definition %a", level, (long long)n,
                                 (long long)row, (long long)j, (double)r[row * n + j], (double)want);
                }
            }
        }
    }
    assert_true(chain_differs);
    vm_force_level(-1);
    free(y); free(g); free(r);
}

/* The fused attention against its definition, computed here step by step with the same products. */
/* The small products (below the BLAS threshold) add each C[i][j] in double over p = 0, 1, ... and round once: the
 * definition, worked here one element at a time, must give the same bits at every vector width (scalar, AVX2's
 * 4 x 8 blocks, AVX-512's 8 x 8 blocks), for every shape left over at the blocks' edges, B plain or transposed. */
static void test_small_gemm_is_the_definition(void **state) {
    (void)state;
    const int64_t dims[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 33, 40};
    const int nd = (int)(sizeof dims / sizeof *dims);
    ten_set_blas_threshold(TC, INT64_MAX);
    float *A = malloc(sizeof(float) * 40 * 40), *B = malloc(sizeof(float) * 40 * 40);
    float *C = malloc(sizeof(float) * 40 * 40), *R = malloc(sizeof(float) * 40 * 40);
    for (int i = 0; i < 1600; i++) {
        A[i] = (float)(((int)(next_u32() % 2001) - 1000) * ldexp(1.0, (int)(next_u32() % 20) - 14));
        B[i] = (float)(((int)(next_u32() % 2001) - 1000) * ldexp(1.0, (int)(next_u32() % 20) - 14));
    }
    for (int level = 0; level <= 2; level++) {
        vm_force_level(level);
        for (int a = 0; a < nd; a++)
            for (int b = 0; b < nd; b++)
                for (int c = 0; c < nd; c += 3)
                    for (int bt = 0; bt <= 1; bt++) {
                        int64_t m = dims[a], n = dims[b], k = dims[c];
                        for (int64_t i = 0; i < m; i++)
                            for (int64_t j = 0; j < n; j++) {
                                double acc = 0;
                                for (int64_t p = 0; p < k; p++) acc += (double)A[i * k + p] * (bt ? B[j * k + p] : B[p * n + j]);
                                R[i * n + j] = (float)acc;
                            }
                        ten_sgemm(TC, A, B, C, m, n, k, bt);
                        if (memcmp(C, R, sizeof(float) * (size_t)(m * n)) != 0)
                            fail_msg("level %d: (%lld x %lld) @ (%lld x %lld)%s differs from the definition", level,
                                     (long long)m, (long long)k, (long long)k, (long long)n, bt ? " transposed" : "");
                    }
    }
    vm_force_level(-1);
    ten_set_blas_threshold(TC, -1);
    free(A); free(B); free(C); free(R);
}

static void test_attention_matches_definition(void **state) {
    (void)state;
    int64_t qs[3] = {2, 70, 24}, ks[3] = {2, 90, 24}, vs[3] = {2, 90, 12};
    Rng g;
    rng_seed(&g, 3);
    Tensor *q = ten_randn_in(TC, &g, 3, qs), *k = ten_randn_in(TC, &g, 3, ks), *v = ten_randn_in(TC, &g, 3, vs);
    int64_t two = 2;
    Tensor *lens = ten_new_in(TC, DT_I64, 1, &two);
    ten_i64(lens)[0] = 90;
    ten_i64(lens)[1] = 33;
    for (int threads = 1; threads <= 3; threads += 2) {
        par_set_threads(TC, threads);
        for (int64_t heads = 1; heads <= 3; heads += 2) {
            Tensor *w = NULL, *out = ten_attention(q, k, v, lens, heads, &w);
            assert_non_null(out);
            assert_non_null(w);
            int64_t d = 24 / heads, dv = 12 / heads;
            for (int64_t b = 0; b < 2; b++)
                for (int64_t h = 0; h < heads; h++) {
                    /* scores of head h: (70, 90), masked and normalised as the book does */
                    float S[70 * 90];
                    for (int64_t i = 0; i < 70; i++)
                        for (int64_t j = 0; j < 90; j++) {
                            double acc = 0;
                            for (int64_t p = 0; p < d; p++)
                                acc += (double)ten_f32(q)[(b * 70 + i) * 24 + h * d + p] * ten_f32(k)[(b * 90 + j) * 24 + h * d + p];
                            S[i * 90 + j] = j < ten_i64(lens)[b] ? (float)acc / sqrtf((float)d) : -1e6f;
                        }
                    for (int64_t i = 0; i < 70; i++) vm_softmax_row(S + i * 90, S + i * 90, 90);
                    const float *W = ten_f32(w) + (b * heads + h) * 70 * 90;
                    assert_memory_equal(S, W, sizeof S);
                    /* the weights alone (what a forward that put them off computes when they are read) */
                    Tensor *wo = ten_attention_weights(q, k, lens, heads);
                    assert_non_null(wo);
                    assert_memory_equal(S, ten_f32(wo) + (b * heads + h) * 70 * 90, sizeof S);
                    ten_free(wo);
                    for (int64_t i = 0; i < 70; i++)
                        for (int64_t c = 0; c < dv; c++) {
                            double acc = 0;
                            for (int64_t j = 0; j < 90; j++) acc += (double)S[i * 90 + j] * ten_f32(v)[(b * 90 + j) * 12 + h * dv + c];
                            assert_true((float)acc == ten_f32(out)[(b * 70 + i) * 12 + h * dv + c]);
                        }
                }
            ten_free(out);
            ten_free(w);
        }
    }
    par_set_threads(TC, 2);
    ten_free(q); ten_free(k); ten_free(v); ten_free(lens);
}

/* OpenBLAS 0.3.21's SkylakeX sgemm, element by element (driver/level3/level3.c, sgemm_kernel_16x4_skylakex_3.c):
 * k in blocks (448 while at least 896 are left; over 448, two halves rounded up to 16; else the rest), each block
 * summed from +0 by one fma per p in order, then C = fma(alpha, block sum, C) from C = +0. */
static float blas_order(const float *A, int64_t lda, const float *B, int64_t ldb, bool bt, int64_t i, int64_t j,
                        int64_t k, float alpha) {
    float c = 0.0f;
    for (int64_t ls = 0, kc; ls < k; ls += kc) {
        int64_t rem = k - ls;
        kc = rem >= 896 ? 448 : rem > 448 ? (rem / 2 + 15) / 16 * 16 : rem;
        float acc = 0.0f;
        for (int64_t p = ls; p < ls + kc; p++) acc = fmaf(A[i * lda + p], bt ? B[j * ldb + p] : B[p * ldb + j], acc);
        c = fmaf(alpha, acc, c);
    }
    return c;
}

/* Values of mixed sign and magnitude, some exact zeros (a product -0 added to +0 must give +0, as in OpenBLAS). */
static float gemm_sample(void) {
    uint32_t r = next_u32();
    if (r % 11 == 0) return (r >> 8) % 2 ? 0.0f : -0.0f;
    return (float)(((int)(r % 2001) - 1000) * ldexp(1.0, (int)((r >> 12) % 16) - 12)) * 1.1f;
}

/* vm_blas_gemm (attention's products, §11.3.3), its AVX-512 kernel and its portable loop, is the scalar loop above bit
 * for bit, for every shape at the edges of its 12 x 32 tiles and of OpenBLAS's k blocks, B plain or transposed, rows
 * strided. */
static void test_blas_gemm_order(void **state) {
    (void)state;
    const int64_t ms[] = {1, 12, 13, 26}, ns[] = {1, 31, 32, 33, 64}, ks[] = {1, 3, 64, 448, 449, 500, 897, 2000};
    const float alphas[] = {1.0f, 0.125f, -0.5f};   /* alpha < 0: C = fma(alpha, +0, +0) must stay +0 */
    enum { LD = 2010 };
    float *A = malloc(sizeof(float) * 26 * LD), *B = malloc(sizeof(float) * 2000 * 70);
    float *C = malloc(sizeof(float) * 26 * 70), *Bp = malloc(sizeof(float) * (size_t)vm_blas_packed_size(64, 2000));
    for (int i = 0; i < 26 * LD; i++) A[i] = gemm_sample();
    for (int i = 0; i < 2000 * 70; i++) B[i] = gemm_sample();
    /* the AVX-512 kernel where the CPU has it (level 2), and the portable loop of vm_blas_gemm (level 0) */
    for (int lv = 2; lv >= 0; lv -= 2) {
    vm_force_level(lv);
    if (vm_level() != lv) continue;
    int shapes = 0;
    for (size_t a = 0; a < sizeof ms / sizeof *ms; a++)
        for (size_t b = 0; b < sizeof ns / sizeof *ns; b++)
            for (size_t c = 0; c < sizeof ks / sizeof *ks; c++)
                for (int bt = 0; bt <= 1; bt++) {
                    int64_t m = ms[a], n = ns[b], k = ks[c], ldb = bt ? k + 1 : n + 3;
                    float alpha = alphas[shapes++ % 3];
                    vm_blas_pack_b(B, ldb, bt, n, k, Bp, 0, n);
                    vm_blas_gemm(A, LD, Bp, C, 70, m, n, k, alpha);
                    for (int64_t i = 0; i < m; i++)
                        for (int64_t j = 0; j < n; j++) {
                            float r = blas_order(A, LD, B, ldb, bt, i, j, k, alpha);
                            if (memcmp(&r, &C[i * 70 + j], 4) != 0)
                                fail_msg("level %d: (%lld x %lld) @ (%lld x %lld)%s, alpha %g: C[%lld][%lld] is %a, OpenBLAS's order %a",
                                         lv, (long long)m, (long long)k, (long long)k, (long long)n, bt ? " transposed" : "",
                                         (double)alpha, (long long)i, (long long)j, (double)C[i * 70 + j], (double)r);
                        }
                }
    /* A's rows 1 KiB apart (its tiles then copied first) and B wider than the kernel's chunk of a 448 k block */
    for (int bt = 0; bt <= 1; bt++) {
        int64_t m = 25, n = 600, k = 897, lda = 1024, ldb = bt ? k : n;
        float *A2 = malloc(sizeof(float) * (size_t)(m * lda)), *B2 = malloc(sizeof(float) * (size_t)(n * k));
        float *C2 = malloc(sizeof(float) * (size_t)(m * n)), *Bp2 = malloc(sizeof(float) * (size_t)vm_blas_packed_size(n, k));
        for (int64_t i = 0; i < m * lda; i++) A2[i] = gemm_sample();
        for (int64_t i = 0; i < n * k; i++) B2[i] = gemm_sample();
        vm_blas_pack_b(B2, ldb, bt, n, k, Bp2, 0, 320);         /* in two column ranges, as threads pack */
        vm_blas_pack_b(B2, ldb, bt, n, k, Bp2, 320, n);
        vm_blas_gemm(A2, lda, Bp2, C2, n, m, n, k, 1.0f);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                float r = blas_order(A2, lda, B2, ldb, bt, i, j, k, 1.0f);
                if (memcmp(&r, &C2[i * n + j], 4) != 0)
                    fail_msg("level %d: (25 x 897) @ (897 x 600)%s: C[%lld][%lld] is %a, OpenBLAS's order %a", lv,
                             bt ? " transposed" : "", (long long)i, (long long)j, (double)C2[i * n + j], (double)r);
            }
        free(A2); free(B2); free(C2); free(Bp2);
    }
    }
    vm_force_level(-1);
    free(A); free(B); free(C); free(Bp);
}

/* The same kernel against OpenBLAS itself, where OpenBLAS runs its SkylakeX kernels: attention's shapes and ragged
 * ones, all on OpenBLAS's normal path (m * n * k > 100^3; below, it has small-matrix kernels of another order). */
static void test_blas_gemm_is_openblas(void **state) {
    (void)state;
#if !defined(__x86_64__) || defined(ATTN_NO_SIMD)
    skip();                             /* the AVX-512 kernel is compiled only there (vecmath.c: HAVE_X86_SIMD) */
#else
    if (vm_level() < 2) skip();
    if (!ten_sgemm_wants_blas(TC, 1000, 1000, 1000) || !ten_blas_is_skylakex()) {
        char what[256];
        ten_blas_describe(what, sizeof what);
        print_message("skipped: OpenBLAS's SkylakeX kernels are not what runs here (%s)\n", what);
        skip();
    }
    struct { int64_t m, n, k; bool bt; float alpha; } cases[] = {
        {264, 1024, 64, true, 0.125f}, {264, 64, 1024, false, 1.0f}, {232, 1024, 64, true, 0.125f},
        {13, 64, 2000, false, 1.0f}, {100, 33, 897, true, 1.0f}, {30, 100, 449, false, 0.3f}, {47, 77, 896, true, 1.0f},
        {25, 40, 1100, false, 1.0f}, {120, 97, 100, true, 0.125f}, {1100, 1000, 1, false, -0.5f}, {1000, 1100, 2, true, -0.5f},
    };
    par_set_threads(TC, 1);                 /* one OpenBLAS call for the whole product */
    ten_set_own_gemm(TC, false);            /* ten_sgemm_ld calls OpenBLAS itself */
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int64_t m = cases[c].m, n = cases[c].n, k = cases[c].k, lda = k + 5, ldb = cases[c].bt ? k + 2 : n + 7;
        float *A = malloc(sizeof(float) * (size_t)(m * lda)), *B = malloc(sizeof(float) * (size_t)(cases[c].bt ? n * ldb : k * ldb));
        float *C = malloc(sizeof(float) * (size_t)(m * n)), *R = malloc(sizeof(float) * (size_t)(m * n));
        float *Bp = malloc(sizeof(float) * (size_t)vm_blas_packed_size(n, k));
        for (int64_t i = 0; i < m * lda; i++) A[i] = gemm_sample();
        for (int64_t i = 0; i < (cases[c].bt ? n * ldb : k * ldb); i++) B[i] = gemm_sample();
        ten_sgemm_ld(TC, A, lda, B, ldb, R, n, m, n, k, cases[c].bt, true, cases[c].alpha);
#if defined(__x86_64__) && !defined(ATTN_NO_SIMD)     /* the AVX-512 kernel exists only on x86-64 */
        vm_blas_pack_b_avx512(B, ldb, cases[c].bt, n, k, Bp, 0, n);
        vm_blas_gemm_avx512(A, lda, false, Bp, C, n, m, n, k, cases[c].alpha);
#else
        memcpy(C, R, sizeof(float) * (size_t)(m * n));  /* not reached: vm_level() < 2 skipped above */
#endif
        for (int64_t i = 0; i < m * n; i++)
            if (memcmp(&C[i], &R[i], 4) != 0)
                fail_msg("(%lld x %lld) @ (%lld x %lld)%s: element %lld is %a, OpenBLAS %a", (long long)m, (long long)k,
                         (long long)k, (long long)n, cases[c].bt ? " transposed" : "", (long long)i, (double)C[i], (double)R[i]);
        free(A); free(B); free(C); free(R); free(Bp);
    }
    ten_set_own_gemm(TC, true);
    par_set_threads(TC, 2);
#endif
}

/* Every float32 product OpenBLAS computes on its normal path (matmul, bmm, Linear layers) comes from attn's kernel
 * with OpenBLAS's bits: ten_sgemm_ld against one OpenBLAS call for the whole product, on 1 and 2 threads (the
 * threads' tiles and the packing split over them), with rows of A, B and C strided or a multiple of 1 KiB apart (A's
 * tiles then copied), B wider than the kernel's 1 MiB chunks, products of one or two rows and of k 1 or 2. */
static void test_sgemm_is_openblas(void **state) {
    (void)state;
    if (vm_level() < 2) skip();
    if (!ten_sgemm_wants_blas(TC, 1000, 1000, 1000) || !ten_blas_is_skylakex()) skip();
    struct { int64_t m, n, k, lda, ldb, ldc; bool bt; float alpha; bool own; } cases[] = {
        {1024, 1024, 1024, 1024, 1024, 1024, false, 1.0f, true}, {300, 512, 512, 512, 512, 512, true, 1.0f, true},
        {250, 1100, 900, 903, 1101, 1110, false, 0.125f, true}, {37, 1000, 1000, 1000, 1004, 1000, true, -0.5f, true},
        {1, 1700, 600, 600, 1700, 1700, false, 1.0f, true}, {2, 1400, 700, 704, 704, 1400, true, 1.0f, true},
        {1100, 1000, 1, 1, 1000, 1000, false, 1.0f, true}, {1000, 1100, 2, 2, 2, 1100, true, 1.0f, true},
        {777, 65, 2049, 2049, 65, 65, false, 1.0f, true}, {101, 101, 101, 101, 101, 101, true, 1.0f, true},
        {100, 2100, 600, 600, 2100, 2100, false, 1.0f, false},      /* B too large: OpenBLAS itself */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int64_t m = cases[c].m, n = cases[c].n, k = cases[c].k, lda = cases[c].lda, ldb = cases[c].ldb, ldc = cases[c].ldc;
        int64_t nb = cases[c].bt ? n * ldb : k * ldb;
        assert_true(ten_blas_normal_path(m, n, k));
        assert_int_equal(ten_sgemm_own(TC, m, n, k, ldb, cases[c].alpha), cases[c].own);
        float *A = malloc(sizeof(float) * (size_t)(m * lda)), *B = malloc(sizeof(float) * (size_t)nb);
        float *C = malloc(sizeof(float) * (size_t)(m * ldc)), *R = malloc(sizeof(float) * (size_t)(m * ldc));
        for (int64_t i = 0; i < m * lda; i++) A[i] = gemm_sample();
        for (int64_t i = 0; i < nb; i++) B[i] = gemm_sample();
        for (int64_t i = 0; i < m * ldc; i++) C[i] = R[i] = 7.0f;     /* what lies between the rows stays */
        par_set_threads(TC, 1);
        ten_set_own_gemm(TC, false);
        ten_sgemm_ld(TC, A, lda, B, ldb, R, ldc, m, n, k, cases[c].bt, true, cases[c].alpha);
        ten_set_own_gemm(TC, true);
        for (int threads = 1; threads <= 2; threads++) {
            par_set_threads(TC, threads);
            ten_sgemm_ld(TC, A, lda, B, ldb, C, ldc, m, n, k, cases[c].bt, true, cases[c].alpha);
            for (int64_t i = 0; i < m * ldc; i++)
                if (memcmp(&C[i], &R[i], 4) != 0)
                    fail_msg("%d thread(s): (%lld x %lld) @ (%lld x %lld)%s: C[%lld][%lld] is %a, OpenBLAS %a", threads,
                             (long long)m, (long long)k, (long long)k, (long long)n, cases[c].bt ? " transposed" : "",
                             (long long)(i / ldc), (long long)(i % ldc), (double)C[i], (double)R[i]);
        }
        free(A); free(B); free(C); free(R);
    }
    par_set_threads(TC, 2);
}

/* sgemm's transA (a weight gradient's xᵀ @ g, a backward's Qᵀ @ g read in place): ten_sgemm_tt with A given as Aᵀ
 * stored (k, m) has, bit for bit, the product of A copied as (m, k) rows, on every path: attn's AVX-512 kernel
 * (tiles of fewer than 12 rows, k blocks past 448, 1 and 2 threads), OpenBLAS itself, the fixed-order loop, and
 * vm_blas_gemm_at's portable loop. */
static void test_sgemm_reads_a_transposed(void **state) {
    (void)state;
    struct { int64_t m, n, k; bool bt; float alpha; } cases[] = {
        {256, 256, 2048, false, 1.0f}, {256, 1024, 2048, false, 1.0f}, {32, 256, 256, false, 1.0f},
        {37, 90, 1000, true, 0.5f}, {13, 64, 2000, false, 1.0f}, {300, 7, 500, true, 1.0f}, {5, 6, 7, false, 1.0f},
        {100, 100, 101, false, 1.0f}, {1100, 40, 3, true, -0.5f},
    };
    bool blas = ten_sgemm_wants_blas(TC, 1000, 1000, 1000);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int64_t m = cases[c].m, n = cases[c].n, k = cases[c].k, ldat = m + 3, ldb = cases[c].bt ? k + 2 : n + 1;
        int64_t nb = cases[c].bt ? n * ldb : k * ldb;
        float *At = malloc(sizeof(float) * (size_t)(k * ldat)), *A = malloc(sizeof(float) * (size_t)(m * k));
        float *B = malloc(sizeof(float) * (size_t)nb), *C = malloc(sizeof(float) * (size_t)(m * n));
        float *R = malloc(sizeof(float) * (size_t)(m * n));
        for (int64_t i = 0; i < k * ldat; i++) At[i] = gemm_sample();
        for (int64_t i = 0; i < m; i++)
            for (int64_t p = 0; p < k; p++) A[i * k + p] = At[p * ldat + i];
        for (int64_t i = 0; i < nb; i++) B[i] = gemm_sample();
        /* path 0: the fixed-order loop; 1: OpenBLAS (attn's kernel off); 2: attn's kernel where it runs */
        for (int path = 0; path < 3; path++) {
            if (path > 0 && !blas) continue;
            bool use = path > 0;
            ten_set_own_gemm(TC, path == 2);
            for (int threads = 1; threads <= 2; threads++) {
                par_set_threads(TC, threads);
                ten_sgemm_ld(TC, A, k, B, ldb, R, n, m, n, k, cases[c].bt, use, cases[c].alpha);
                ten_sgemm_tt(TC, At, ldat, true, B, ldb, cases[c].bt, C, n, m, n, k, use, cases[c].alpha);
                for (int64_t i = 0; i < m * n; i++)
                    if (memcmp(&C[i], &R[i], 4) != 0)
                        fail_msg("path %d, %d thread(s): (%lld x %lld)ᵀ @ (%lld x %lld)%s: C[%lld][%lld] is %a, A copied %a",
                                 path, threads, (long long)k, (long long)m, (long long)k, (long long)n,
                                 cases[c].bt ? "ᵀ" : "", (long long)(i / n), (long long)(i % n), (double)C[i], (double)R[i]);
            }
        }
        ten_set_own_gemm(TC, true);
        /* vm_blas_gemm_at at each vector level it has (the AVX-512 kernel, the portable loop) */
        float *Bp = malloc(sizeof(float) * (size_t)vm_blas_packed_size(n, k));
        int top = vm_level();
        vm_blas_pack_b(B, ldb, cases[c].bt, n, k, Bp, 0, n);
        for (int level = top; level >= 0; level -= 2) {
            vm_force_level(level);
            vm_blas_gemm(A, k, Bp, R, n, m, n, k, cases[c].alpha);
            vm_blas_gemm_at(At, ldat, true, Bp, C, n, m, n, k, cases[c].alpha);
            for (int64_t i = 0; i < m * n; i++)
                if (memcmp(&C[i], &R[i], 4) != 0)
                    fail_msg("vm_blas_gemm_at, level %d, case %zu: element %lld is %a, A copied %a", level, c, (long long)i,
                             (double)C[i], (double)R[i]);
        }
        vm_force_level(-1);
        free(At); free(A); free(B); free(C); free(R); free(Bp);
    }
    par_set_threads(TC, 2);
}

/* a and b hold the same floats, bit for bit, a NaN matching any NaN */
static void assert_same_floats(const float *a, const float *b, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], 4) != 0 && !(isnan(a[i]) && isnan(b[i])))
            fail_msg("element %lld: %a, expected %a", (long long)i, (double)a[i], (double)b[i]);
}

/* ten_matmul of views: a first operand transposed in its last two dims (read in place, transA), a second one
 * transposed or narrowed (copied), against the product of contiguous copies, bit for bit, small (the fixed-order
 * loop) and large (BLAS or attn's kernel), on 1 and 2 threads. */
/* ten_gemm_stats (attn.gemm_stats, make bench's rate of a backward's products) counts 2 m n k FLOPs for each float32
 * product of ten_matmul and ten_linear, batched (the batch times), with a vector (n 1), and nothing for float64;
 * its seconds grow with each product. */
static void test_gemm_stats_count(void **state) {
    (void)state;
    TenCtx *c = ten_ctx_new();
    double s0, f0, s1, f1;
    ten_gemm_stats(c, &s0, &f0);
    assert_true(s0 == 0 && f0 == 0);
    Tensor *a = ten_new_in(c, DT_F32, 3, (int64_t[]){4, 30, 20}), *b = ten_new_in(c, DT_F32, 3, (int64_t[]){4, 20, 10});
    Tensor *W = ten_new_in(c, DT_F32, 2, (int64_t[]){7, 20}), *v = ten_new_in(c, DT_F32, 1, (int64_t[]){20});
    Tensor *d = ten_new_in(c, DT_F64, 2, (int64_t[]){5, 5});
    Tensor *r[4] = {ten_matmul(a, b), ten_linear(a, W, NULL), ten_matmul(a, v), ten_matmul(d, d)};
    ten_gemm_stats(c, &s1, &f1);
    assert_true(f1 == 2.0 * (4 * 30 * 10 * 20 + 4 * 30 * 7 * 20 + 4 * 30 * 20));
    assert_true(s1 > 0);
    /* an empty result (n = 0) counts nothing, and no division by its zero width (fuzz autograd, UBSan) */
    Tensor *e = ten_new_in(c, DT_F32, 2, (int64_t[]){20, 0}), *re = ten_matmul(a, e);
    assert_non_null(re);
    assert_int_equal(re->numel, 0);
    ten_gemm_stats(c, &s0, &f0);
    assert_true(f0 == f1);
    ten_free(re); ten_free(e);
    for (int i = 0; i < 4; i++) ten_free(r[i]);
    ten_free(a); ten_free(b); ten_free(W); ten_free(v); ten_free(d);
    ten_ctx_free(c);
}

static void test_matmul_reads_views(void **state) {
    (void)state;
    int64_t sizes[][4] = {{3, 60, 40, 50}, {2, 200, 300, 100}, {1, 256, 2048, 256}};
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        int64_t B = sizes[c][0], m = sizes[c][1], k = sizes[c][2], n = sizes[c][3];
        Tensor *as = ten_new_in(TC, DT_F32, 3, (int64_t[]){B, k, m}), *bw = ten_new_in(TC, DT_F32, 3, (int64_t[]){B, k, n + 9});
        Tensor *bs = ten_new_in(TC, DT_F32, 3, (int64_t[]){B, n, k});
        for (int64_t i = 0; i < as->numel; i++) ten_f32(as)[i] = gemm_sample();
        for (int64_t i = 0; i < bw->numel; i++) ten_f32(bw)[i] = gemm_sample();
        for (int64_t i = 0; i < bs->numel; i++) ten_f32(bs)[i] = gemm_sample();
        Tensor *a = ten_transpose(as, 1, 2), *bn = ten_narrow(bw, 2, 3, n), *bt = ten_transpose(bs, 1, 2);
        Tensor *ac = ten_contiguous(a), *bnc = ten_contiguous(bn), *btc = ten_contiguous(bt);
        for (int threads = 1; threads <= 2; threads++) {
            par_set_threads(TC, threads);
            Tensor *r1 = ten_matmul(a, bn), *e1 = ten_matmul(ac, bnc), *r2 = ten_matmul(a, bt), *e2 = ten_matmul(ac, btc);
            assert_non_null(r1);
            assert_non_null(r2);
            assert_same_floats(ten_f32(r1), ten_f32(e1), r1->numel);
            assert_same_floats(ten_f32(r2), ten_f32(e2), r2->numel);
            ten_free(r1); ten_free(e1); ten_free(r2); ten_free(e2);
        }
        ten_free(a); ten_free(bn); ten_free(bt); ten_free(ac); ten_free(bnc); ten_free(btc);
        ten_free(as); ten_free(bw); ten_free(bs);
    }
    par_set_threads(TC, 2);
}


/* Both within bound of each other elementwise: |a - b| <= bound[i], a NaN matching only a NaN and an infinity
 * only itself (where the reference is not finite the bits must agree). */
static double worst_of_bound;              /* the largest |a - b| / bound assert_close_floats has seen */
static void assert_close_floats(const float *a, const float *b, const double *bound, int64_t n, const char *what) {
    for (int64_t i = 0; i < n; i++) {
        double r = fabs((double)a[i] - b[i]) / bound[i];
        if (r > worst_of_bound) worst_of_bound = r;
        if (isnan(a[i]) || isnan(b[i]) || isinf(b[i]) || isinf(a[i])) {
            if (memcmp(&a[i], &b[i], 4) != 0 && !(isnan(a[i]) && isnan(b[i])))
                fail_msg("%s element %lld: %a, expected %a", what, (long long)i, (double)a[i], (double)b[i]);
        } else if (fabs((double)a[i] - b[i]) > bound[i])
            fail_msg("%s element %lld: %a, expected %a within %g", what, (long long)i, (double)a[i], (double)b[i], bound[i]);
    }
}

/* How far the fused attention may be from the unfused computation when their products are not the same kernel
 * calls (OpenBLAS's Haswell, Prescott ... kernels give other bits for other row splits; u = 2^-24, eps = 2u):
 *  - a float32 dot product of length k computed in any order is within k*u*sum|a_p b_p| of the exact one (to first
 *    order), so two such computations are within k*eps*sum|a_p b_p| of each other. For the scores
 *    s_ij = q_i.k_j / sd: ds_ij <= d*eps*sum_p|q_ip k_jp| / sd + eps*|s_ij| (the division rounds on each side);
 *  - softmax: scores perturbed by at most D over a row change each weight w_j by a factor within exp(+-2D), and
 *    each side's exp, sum of n positive terms and division add (n + 3)*u relative: dw_j <= w_j*(2.01*D + (n+3)*eps);
 *  - out = W V over nk keys: dout <= sum_j |dw_j||v_j| + nk*eps*sum_j |w_j v_j|.
 * Each bound is the reference's (first order), doubled for the second-order terms and the perturbed side's sums. */
static void attention_bounds(const float *Q, int64_t ldq, const float *K, int64_t ldk, const float *V, int64_t ldv,
                             const float *S, const float *W, int64_t nq, int64_t nk, int64_t valid, int64_t d, int64_t dv,
                             float sd, double *bw, double *bo) {
    const double eps = FLT_EPSILON;
    for (int64_t i = 0; i < nq; i++) {
        double D = 0;                       /* the largest score perturbation of row i (masked scores are exact) */
        for (int64_t j = 0; j < valid; j++) {
            double abs_dot = 0;
            for (int64_t p = 0; p < d; p++) abs_dot += fabs((double)Q[i * ldq + p] * K[j * ldk + p]);
            double ds = d * eps * abs_dot / sd + eps * fabs((double)S[i * nk + j]);
            if (ds > D) D = ds;
        }
        double rel = 2.01 * D + (double)(nk + 3) * eps;
        for (int64_t j = 0; j < nk; j++) bw[i * nk + j] = 2 * fabs((double)W[i * nk + j]) * rel;
        for (int64_t c = 0; c < dv; c++) {
            double acc = 0;
            for (int64_t j = 0; j < nk; j++) acc += fabs((double)W[i * nk + j] * V[j * ldv + c]) * (rel + (double)nk * eps);
            bo[i * dv + c] = 2 * acc;
        }
    }
}

/* Attention large enough for OpenBLAS (and so, on AVX-512 with SkylakeX kernels, for the own products) equals the
 * unfused computation: the two products by ten_sgemm_ld (OpenBLAS), the division, the mask and the softmax in
 * between; d = 48 (the division after the product) and d = 64 (the scale inside it), with and without valid_lens,
 * for 1 and 2 threads. Bit for bit where the products are provably the same (attn's own kernel with OpenBLAS's
 * SkylakeX bits, whose rows do not depend on the split); with other kernels within the bounds above. */
static void test_large_attention_is_unfused(void **state) {
    (void)state;
    enum { B = 2, NQ = 301, NK = 512 };          /* NK a multiple of 256: the scores rows padded apart */
    for (int dd = 48; dd <= 64; dd += 16) {
        int64_t heads = 2, d = dd, dv = 40, qs[3] = {B, NQ, heads * d}, ks[3] = {B, NK, heads * d}, vs[3] = {B, NK, heads * dv};
        Rng g;
        rng_seed(&g, (uint64_t)dd);
        Tensor *q = ten_randn_in(TC, &g, 3, qs), *k = ten_randn_in(TC, &g, 3, ks), *v = ten_randn_in(TC, &g, 3, vs);
        ten_f32(q)[5 * heads * d + 3] = NAN;                      /* a row of NaN scores, one of infinities */
        ten_f32(q)[(NQ + 17) * heads * d + d] = INFINITY;
        int64_t two = B;
        Tensor *lens = ten_new_in(TC, DT_I64, 1, &two);
        ten_i64(lens)[0] = 313;
        ten_i64(lens)[1] = NK;
        float *S = malloc(sizeof(float) * NQ * NK), *O = malloc(sizeof(float) * NQ * (size_t)dv);
        float *Sc = malloc(sizeof(float) * NQ * NK);
        double *bw = malloc(sizeof(double) * NQ * NK), *bo = malloc(sizeof(double) * NQ * (size_t)dv);
        /* the same bits where the products are attn's own kernel with OpenBLAS's SkylakeX bits (tensor_matmul.c) */
        bool exact = ten_own_gemm(TC, heads * d) && ten_own_gemm(TC, heads * dv);
        float sd = sqrtf((float)d), alpha = d == 64 ? 0.125f : 1.0f;
        bool blas_s = ten_sgemm_wants_blas(TC, NQ, NK, d), blas_o = ten_sgemm_wants_blas(TC, NQ, dv, NK);
        assert_true(blas_s && blas_o);                   /* otherwise this would test the small products again */
        for (int masked = 0; masked <= 1; masked++)
            for (int threads = 1; threads <= 2; threads++) {
                par_set_threads(TC, threads);
                Tensor *w = NULL, *out = ten_attention(q, k, v, masked ? lens : NULL, heads, &w);
                assert_non_null(out);
                assert_non_null(w);
                Tensor *wo = ten_attention_weights(q, k, masked ? lens : NULL, heads);
                assert_non_null(wo);
                for (int64_t b = 0; b < B; b++)
                    for (int64_t h = 0; h < heads; h++) {
                        int64_t valid = masked ? ten_i64(lens)[b] : NK;
                        ten_set_own_gemm(TC, false);             /* the reference products: OpenBLAS itself */
                        ten_sgemm_ld(TC, ten_f32(q) + b * NQ * heads * d + h * d, heads * d, ten_f32(k) + b * NK * heads * d + h * d,
                                     heads * d, S, NK, NQ, NK, d, true, blas_s, alpha);
                        for (int64_t i = 0; i < NQ; i++)
                            for (int64_t j = 0; j < NK; j++)
                                S[i * NK + j] = j >= valid ? -1e6f : alpha == 1.0f ? S[i * NK + j] / sd : S[i * NK + j];
                        memcpy(Sc, S, sizeof(float) * NQ * NK);          /* the scores, for the bounds */
                        for (int64_t i = 0; i < NQ; i++) vm_softmax_row(S + i * NK, S + i * NK, NK);
                        ten_sgemm_ld(TC, S, NK, ten_f32(v) + b * NK * heads * dv + h * dv, heads * dv, O, dv, NQ, dv, NK, false, blas_o, 1.0f);
                        ten_set_own_gemm(TC, true);
                        const float *W = ten_f32(w) + (b * heads + h) * NQ * NK, *WO = ten_f32(wo) + (b * heads + h) * NQ * NK;
                        if (exact) {
                            assert_same_floats(W, S, NQ * NK);
                            assert_same_floats(WO, S, NQ * NK);
                            for (int64_t i = 0; i < NQ; i++)
                                assert_same_floats(ten_f32(out) + (b * NQ + i) * heads * dv + h * dv, O + i * dv, dv);
                            continue;
                        }
                        attention_bounds(ten_f32(q) + b * NQ * heads * d + h * d, heads * d, ten_f32(k) + b * NK * heads * d + h * d,
                                         heads * d, ten_f32(v) + b * NK * heads * dv + h * dv, heads * dv, Sc, S, NQ, NK, valid,
                                         d, dv, sd, bw, bo);
                        assert_close_floats(W, S, bw, NQ * NK, "weights");
                        assert_close_floats(WO, S, bw, NQ * NK, "weights alone");
                        for (int64_t i = 0; i < NQ; i++)
                            assert_close_floats(ten_f32(out) + (b * NQ + i) * heads * dv + h * dv, O + i * dv, bo + i * dv, dv, "output");
                    }
                ten_free(out); ten_free(w); ten_free(wo);
            }
        par_set_threads(TC, 2);
        if (!exact)
            print_message("d = %d: other kernels than OpenBLAS's SkylakeX; the largest difference is %.3g of its bound\n",
                          dd, worst_of_bound);
        free(S); free(O); free(Sc); free(bw); free(bo);
        ten_free(q); ten_free(k); ten_free(v); ten_free(lens);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_par_for_covers_once),
        cmocka_unit_test(test_vecmath_widths_agree),
        cmocka_unit_test(test_softmax_row),
        cmocka_unit_test(test_softmax_widths_agree),
        cmocka_unit_test(test_softmax_rows_to_agrees),
        cmocka_unit_test(test_softmax_bw_rows_order),
        cmocka_unit_test(test_small_gemm_is_the_definition),
        cmocka_unit_test(test_attention_matches_definition),
        cmocka_unit_test(test_blas_gemm_order),
        cmocka_unit_test(test_blas_gemm_is_openblas),
        cmocka_unit_test(test_sgemm_is_openblas),
        cmocka_unit_test(test_sgemm_reads_a_transposed),
        cmocka_unit_test(test_matmul_reads_views),
        cmocka_unit_test(test_gemm_stats_count),
        cmocka_unit_test(test_large_attention_is_unfused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

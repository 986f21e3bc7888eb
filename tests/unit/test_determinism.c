/* test_determinism.c - the same bytes for every thread count, block size and kernel setting of one machine (issue
 * 25). Whatever OpenBLAS core is loaded (run this binary with OPENBLAS_CORETYPE=Haswell, Prescott, Nehalem, Zen ...,
 * and with ATTN_SIMD=scalar or avx2), and whatever path a product takes (attn's own AVX-512 kernel, OpenBLAS, the
 * fixed-order loop):
 *   - a matrix product split over 2, 3 or 4 threads has the bits of the one-thread call (one OpenBLAS call for all
 *     rows), over random shapes on both sides of OpenBLAS's small-matrix limit;
 *   - the fused attention has the bits of the book's unfused computation (the whole product, the division, the
 *     mask, softmax, the whole second product) for every thread count and for blocks of 16 to 1000 queries;
 *   - the printed digits of a softmax, a product and attention do not depend on the thread count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <time.h>
#include <stdio.h>
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

static uint64_t lcg = 12345;
static int64_t pick(int64_t lo, int64_t hi) {             /* uniform in [lo, hi] */
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (int64_t)((lcg >> 33) % (uint64_t)(hi - lo + 1));
}
static float *randf(int64_t n) {
    float *x = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) x[i] = (float)pick(-1000000, 1000000) / 1000000.0f;
    return x;
}

/* Where two float arrays differ bitwise: the first index, or -1. */
static int64_t first_difference(const float *a, const float *b, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        if (memcmp(a + i, b + i, sizeof(float)) != 0) return i;
    return -1;
}

static void note_config(void) {
    char blas[256];
    ten_blas_describe(blas, sizeof blas);
    print_message("kernels: %s; vector math %s\n", blas, vm_backend());
}

/* C = A @ B (or A @ Bᵀ) on 2, 3 and 4 threads is the one-thread C, bit for bit, for random shapes from 1 to 900 rows,
 * on OpenBLAS's small and normal paths and attn's own kernel (ten_set_own_gemm switches it off for a second pass). */
static void test_products_same_bits_any_threads(void **state) {
    (void)state;
    note_config();
    for (int own = 1; own >= 0; own--) {
        ten_set_own_gemm(TC, own);
        for (int trial = 0; trial < 60; trial++) {
            int64_t m = pick(1, 900), n = pick(1, 400), k = pick(1, trial % 3 ? 300 : 1200);
            bool bt = pick(0, 1);
            float *A = randf(m * k), *B = randf(k * n), *C1 = malloc(sizeof(float) * (size_t)(m * n)),
                  *Cn = malloc(sizeof(float) * (size_t)(m * n));
            bool blas = ten_sgemm_wants_blas(TC, m, n, k);
            par_set_threads(TC, 1);
            ten_sgemm_ld(TC, A, k, B, bt ? k : n, C1, n, m, n, k, bt, blas, 1.0f);
            for (int t = 2; t <= 4; t++) {
                par_set_threads(TC, t);
                memset(Cn, 0xff, sizeof(float) * (size_t)(m * n));
                ten_sgemm_ld(TC, A, k, B, bt ? k : n, Cn, n, m, n, k, bt, blas, 1.0f);
                int64_t at = first_difference(C1, Cn, m * n);
                if (at >= 0)
                    fail_msg("(%lld, %lld) @ (%lld, %lld)%s on %d threads differs from 1 thread at row %lld (own kernel %s)",
                             (long long)m, (long long)k, (long long)k, (long long)n, bt ? "ᵀ" : "", t,
                             (long long)(at / n), own ? "on" : "off");
            }
            free(A); free(B); free(C1); free(Cn);
        }
    }
    ten_set_own_gemm(TC, true);
    par_set_threads(TC, 2);
}

/* The fused attention against the book's unfused steps on the whole (nq, nk) products, for shapes where the fused
 * kernel splits the queries into blocks (and where it does not), blocks forced from 16 to 1000 queries, 1 to 3
 * threads, with and without valid_lens. */
static void test_attention_same_bits_any_block(void **state) {
    (void)state;
    static const int64_t shapes[][5] = {        /* B, nq, nk, d, dv (one head, and two heads) */
        {1, 700, 100, 32, 24}, {2, 301, 512, 48, 40}, {1, 1000, 64, 16, 16}, {1, 97, 33, 8, 8}, {1, 2050, 20, 64, 64},
    };
    static const int64_t blocks[] = {0, 16, 48, 100, 333, 1000};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int64_t heads = 1; heads <= 2; heads++) {
            int64_t B = shapes[s][0], nq = shapes[s][1], nk = shapes[s][2], d = shapes[s][3], dv = shapes[s][4];
            int64_t qs[3] = {B, nq, heads * d}, ks[3] = {B, nk, heads * d}, vs[3] = {B, nk, heads * dv}, two = B;
            Rng g;
            rng_seed(&g, (uint64_t)(s * 10 + (size_t)heads));
            Tensor *q = ten_randn_in(TC, &g, 3, qs), *k = ten_randn_in(TC, &g, 3, ks), *v = ten_randn_in(TC, &g, 3, vs);
            Tensor *lens = ten_new_in(TC, DT_I64, 1, &two);
            for (int64_t b = 0; b < B; b++) ten_i64(lens)[b] = nk - 3 - b;
            float *S = malloc(sizeof(float) * (size_t)(nq * nk)), *O = malloc(sizeof(float) * (size_t)(nq * dv));
            float sd = sqrtf((float)d);
            int e;
            float alpha = frexpf(sd, &e) == 0.5f ? 1.0f / sd : 1.0f;
            bool blas_s = ten_sgemm_wants_blas(TC, nq, nk, d), blas_o = ten_sgemm_wants_blas(TC, nq, dv, nk);
            for (int masked = 0; masked <= 1; masked++)
                for (size_t bi = 0; bi < sizeof blocks / sizeof *blocks; bi++)
                    for (int threads = 1; threads <= 3; threads++) {
                        par_set_threads(TC, threads);
                        ten_set_attention_block(TC, blocks[bi]);
                        Tensor *w = NULL, *out = ten_attention(q, k, v, masked ? lens : NULL, heads, &w);
                        assert_non_null(out);
                        assert_non_null(w);
                        par_set_threads(TC, 1);
                        for (int64_t b = 0; b < B; b++)
                            for (int64_t h = 0; h < heads; h++) {
                                int64_t valid = masked ? ten_i64(lens)[b] : nk;
                                ten_sgemm_ld(TC, ten_f32(q) + b * nq * heads * d + h * d, heads * d,
                                             ten_f32(k) + b * nk * heads * d + h * d, heads * d, S, nk, nq, nk, d, true, blas_s, alpha);
                                for (int64_t i = 0; i < nq * nk; i++)
                                    S[i] = i % nk >= valid ? -1e6f : alpha == 1.0f ? S[i] / sd : S[i];
                                for (int64_t i = 0; i < nq; i++) vm_softmax_row(S + i * nk, S + i * nk, nk);
                                ten_sgemm_ld(TC, S, nk, ten_f32(v) + b * nk * heads * dv + h * dv, heads * dv, O, dv, nq, dv, nk,
                                             false, blas_o, 1.0f);
                                int64_t at = first_difference(ten_f32(w) + (b * heads + h) * nq * nk, S, nq * nk);
                                if (at >= 0)
                                    fail_msg("attention weights (B %lld, nq %lld, nk %lld, d %lld, %lld heads) with blocks "
                                             "of %lld on %d threads%s differ from the unfused ones at query %lld",
                                             (long long)B, (long long)nq, (long long)nk, (long long)d, (long long)heads,
                                             (long long)blocks[bi], threads, masked ? ", masked," : "", (long long)(at / nk));
                                for (int64_t i = 0; i < nq; i++) {
                                    at = first_difference(ten_f32(out) + (b * nq + i) * heads * dv + h * dv, O + i * dv, dv);
                                    if (at >= 0)
                                        fail_msg("attention output (B %lld, nq %lld, nk %lld, d %lld, %lld heads) with blocks "
                                                 "of %lld on %d threads differs from the unfused one at query %lld",
                                                 (long long)B, (long long)nq, (long long)nk, (long long)d, (long long)heads,
                                                 (long long)blocks[bi], threads, (long long)i);
                                }
                            }
                        ten_free(out);
                        ten_free(w);
                    }
            ten_set_attention_block(TC, 0);
            free(S); free(O);
            ten_free(q); ten_free(k); ten_free(v); ten_free(lens);
        }
    par_set_threads(TC, 2);
}

/* The split rule itself: blocks are multiples of TEN_GEMM_SPLIT_ROWS and, for a product on OpenBLAS's normal path,
 * each block is on it too (more than 100^3 multiply-adds); a product on the small path is not split. */
static void test_split_rows_rule(void **state) {
    (void)state;
    for (int trial = 0; trial < 2000; trial++) {
        int64_t m = pick(1, 5000), n = pick(1, 2000), k = pick(1, 2000);
        int64_t r = ten_sgemm_split_rows(m, n, k);
        assert_true(r >= 1 && r <= m);
        if (r == m) continue;
        assert_int_equal(r % TEN_GEMM_SPLIT_ROWS, 0);
        assert_true(ten_blas_normal_path(m, n, k));
        assert_true(ten_blas_normal_path(r, n, k));
    }
    assert_int_equal(ten_sgemm_split_rows(100, 100, 100), 100);          /* 100^3: the small path, one call */
}

/* Ctrl-C while the workers run: another thread sets the flag (as the SIGINT handler does) during a long attention
 * on 2 threads; the kernel stops with the interrupted error or finishes, and nothing else happens. Under
 * ThreadSanitizer (make tsan) this is where a plain int flag is a data race. */
static void *press_ctrl_c(void *arg) {
    (void)arg;
    nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    ten_interrupted = 1;
    return NULL;
}

static void test_interrupt_reaches_workers(void **state) {
    (void)state;
    int64_t qs[3] = {8, 2048, 256};
    Rng g;
    rng_seed(&g, 5);
    Tensor *q = ten_randn_in(TC, &g, 3, qs);
    par_set_threads(TC, 2);
    int stopped = 0;
    for (int round = 0; round < 20 && !stopped; round++) {
        pthread_t t;
        ten_interrupted = 0;
        assert_int_equal(pthread_create(&t, NULL, press_ctrl_c, NULL), 0);
        for (int i = 0; i < 50 && !stopped; i++) {
            Tensor *w = ten_attention_weights(q, q, NULL, 4);
            if (!w) stopped = 1;
            ten_free(w);
        }
        pthread_join(t, NULL);
    }
    ten_interrupted = 0;
    assert_true(stopped);                        /* the flag set on another thread stopped a kernel */
    Tensor *w = ten_attention_weights(q, q, NULL, 4);
    assert_non_null(w);                          /* and the next one runs */
    ten_free(w);
    ten_free(q);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_rows_rule),
        cmocka_unit_test(test_products_same_bits_any_threads),
        cmocka_unit_test(test_attention_same_bits_any_block),
        cmocka_unit_test(test_interrupt_reaches_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

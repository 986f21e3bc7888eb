/* test_kernels.c - the machinery under the fast kernels: the thread pool hands out every item exactly once for any
 * thread count and grain; SLEEF's 16-wide functions give the bits of the 8-wide ones PyTorch calls (on a CPU with
 * AVX-512); softmax rows sum to 1 and match PyTorch's order on hand-made rows; the fused attention equals the
 * unfused product, softmax and product for 1 and 3 threads. PyTorch itself is the reference in
 * tests/ref/torch_kernels.py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "tensor.h"
#include "parallel.h"
#include "vecmath.h"

typedef struct Count { atomic_int *seen; int64_t n; } Count;

static void mark(void *ctx, int64_t begin, int64_t end) {
    Count *c = ctx;
    for (int64_t i = begin; i < end; i++) atomic_fetch_add(&c->seen[i], 1);
}

static void test_par_for_covers_once(void **state) {
    (void)state;
    int64_t sizes[] = {0, 1, 2, 7, 64, 1000, 100003};
    int64_t grains[] = {1, 3, 16, 5000};
    for (int threads = 1; threads <= 4; threads++) {
        par_set_threads(threads);
        assert_int_equal(par_threads(), threads);
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (size_t g = 0; g < sizeof grains / sizeof *grains; g++) {
                int64_t n = sizes[s];
                atomic_int *seen = calloc((size_t)(n ? n : 1), sizeof(atomic_int));
                Count c = {seen, n};
                par_for(n, grains[g], mark, &c);
                for (int64_t i = 0; i < n; i++) assert_int_equal(atomic_load(&seen[i]), 1);
                free(seen);
            }
    }
    par_set_threads(0);
    assert_int_equal(par_threads(), 1);          /* clamped */
    par_set_threads(2);
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

/* The fused attention against its definition, computed here step by step with the same products. */
/* The small products (below the BLAS threshold) add each C[i][j] in double over p = 0, 1, ... and round once: the
 * definition, worked here one element at a time, must give the same bits at every vector width (scalar, AVX2's
 * 4 x 8 blocks, AVX-512's 8 x 8 blocks), for every shape left over at the blocks' edges, B plain or transposed. */
static void test_small_gemm_is_the_definition(void **state) {
    (void)state;
    const int64_t dims[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 33, 40};
    const int nd = (int)(sizeof dims / sizeof *dims);
    ten_set_blas_threshold(INT64_MAX);
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
                        ten_sgemm(A, B, C, m, n, k, bt);
                        if (memcmp(C, R, sizeof(float) * (size_t)(m * n)) != 0)
                            fail_msg("level %d: (%lld x %lld) @ (%lld x %lld)%s differs from the definition", level,
                                     (long long)m, (long long)k, (long long)k, (long long)n, bt ? " transposed" : "");
                    }
    }
    vm_force_level(-1);
    ten_set_blas_threshold(-1);
    free(A); free(B); free(C); free(R);
}

static void test_attention_matches_definition(void **state) {
    (void)state;
    int64_t qs[3] = {2, 70, 24}, ks[3] = {2, 90, 24}, vs[3] = {2, 90, 12};
    Rng g;
    rng_seed(&g, 3);
    Tensor *q = ten_randn(&g, 3, qs), *k = ten_randn(&g, 3, ks), *v = ten_randn(&g, 3, vs);
    int64_t two = 2;
    Tensor *lens = ten_new(DT_I64, 1, &two);
    ten_i64(lens)[0] = 90;
    ten_i64(lens)[1] = 33;
    for (int threads = 1; threads <= 3; threads += 2) {
        par_set_threads(threads);
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
    par_set_threads(2);
    ten_free(q); ten_free(k); ten_free(v); ten_free(lens);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_par_for_covers_once),
        cmocka_unit_test(test_vecmath_widths_agree),
        cmocka_unit_test(test_softmax_row),
        cmocka_unit_test(test_small_gemm_is_the_definition),
        cmocka_unit_test(test_attention_matches_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

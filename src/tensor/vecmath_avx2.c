/* vecmath_avx2.c - the 8-wide SLEEF loops of vecmath.c, compiled with -mavx2 -mfma (the Makefile does so on x86-64
 * only) and called only when the CPU has both: the functions PyTorch's AVX2 kernels call, 1.0-ULP variants. */
#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#include "vecmath.h"
#include <immintrin.h>
#include <sleef.h>
#include <stdlib.h>

/* n is a multiple of 8. (A switch of loops, not a function pointer: sleef.h declares the functions with a
 * const-qualified return type, which clang will not take for a plain pointer.) */
void vm_map_avx2(VmOp op, const float *x, float *y, int64_t n) {
#define LOOP(f) for (int64_t i = 0; i < n; i += 8) _mm256_storeu_ps(y + i, f(_mm256_loadu_ps(x + i))); break
    switch (op) {
    case VM_EXP: LOOP(Sleef_expf8_u10avx2);
    case VM_LOG: LOOP(Sleef_logf8_u10avx2);
    case VM_SIN: LOOP(Sleef_sinf8_u10avx2);
    case VM_COS: LOOP(Sleef_cosf8_u10avx2);
    case VM_TANH: LOOP(Sleef_tanhf8_u10avx2);
    case VM_TAN: LOOP(Sleef_tanf8_u10avx2);
    case VM_LOG2: LOOP(Sleef_log2f8_u10avx2);
    case VM_LOG10: LOOP(Sleef_log10f8_u10avx2);
    case VM_ASIN: LOOP(Sleef_asinf8_u10avx2);
    case VM_ACOS: LOOP(Sleef_acosf8_u10avx2);
    case VM_ATAN: LOOP(Sleef_atanf8_u10avx2);
    case VM_COUNT: break;
    }
#undef LOOP
}

/* PyTorch's vec::reduce_all of n >= 8 floats with vec::maximum (NaN wins) or +: lane j takes elements j, j+8, ...
 * (a last partial vector updates only its lanes: Vectorized::set), then the lanes meet as PyTorch's AVX2
 * vec_reduce_all does: halves (permute2f128), pairs (shuffle 0x4E), neighbours (shuffle 0xB1). */
float vm_reduce8_avx2(const float *x, int64_t n, int is_max) {
    __m256 acc = _mm256_loadu_ps(x);
    int64_t d = 8;
#define COMBINE(a, b) (is_max ? _mm256_or_ps(_mm256_max_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q)) : _mm256_add_ps(a, b))
    for (; d + 8 <= n; d += 8) acc = COMBINE(acc, _mm256_loadu_ps(x + d));
    if (d < n) {
        float tail[8] = {0};
        for (int64_t j = 0; d + j < n; j++) tail[j] = x[d + j];
        __m256 c = COMBINE(acc, _mm256_loadu_ps(tail));
        const int keep[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        __m256i lanes = _mm256_loadu_si256((const __m256i *)keep);
        __m256 take = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n - d)), lanes));
        acc = _mm256_blendv_ps(acc, c, take);
    }
    acc = COMBINE(acc, _mm256_permute2f128_ps(acc, acc, 0x1));
    acc = COMBINE(acc, _mm256_shuffle_ps(acc, acc, 0x4E));
    acc = COMBINE(acc, _mm256_shuffle_ps(acc, acc, 0xB1));
#undef COMBINE
    return _mm256_cvtss_f32(acc);
}

/* The same for four rows of n >= 8 at once (rows stride apart): four independent chains, so the additions of one
 * row wait less for each other; each row is still added up exactly as vm_reduce8_avx2 would. */
void vm_reduce8x4_avx2(const float *x, int64_t stride, int64_t n, int is_max, float out[4]) {
#define COMBINE(a, b) (is_max ? _mm256_or_ps(_mm256_max_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q)) : _mm256_add_ps(a, b))
    __m256 a0 = _mm256_loadu_ps(x), a1 = _mm256_loadu_ps(x + stride), a2 = _mm256_loadu_ps(x + 2 * stride),
           a3 = _mm256_loadu_ps(x + 3 * stride);
    int64_t d = 8;
    for (; d + 8 <= n; d += 8) {
        a0 = COMBINE(a0, _mm256_loadu_ps(x + d));
        a1 = COMBINE(a1, _mm256_loadu_ps(x + stride + d));
        a2 = COMBINE(a2, _mm256_loadu_ps(x + 2 * stride + d));
        a3 = COMBINE(a3, _mm256_loadu_ps(x + 3 * stride + d));
    }
    __m256 acc[4] = {a0, a1, a2, a3};
    for (int r = 0; r < 4; r++) {
        if (d < n) {
            float tail[8] = {0};
            for (int64_t j = 0; d + j < n; j++) tail[j] = x[r * stride + d + j];
            __m256 c = COMBINE(acc[r], _mm256_loadu_ps(tail));
            const int keep[8] = {0, 1, 2, 3, 4, 5, 6, 7};
            __m256i lanes = _mm256_loadu_si256((const __m256i *)keep);
            __m256 take = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n - d)), lanes));
            acc[r] = _mm256_blendv_ps(acc[r], c, take);
        }
        acc[r] = COMBINE(acc[r], _mm256_permute2f128_ps(acc[r], acc[r], 0x1));
        acc[r] = COMBINE(acc[r], _mm256_shuffle_ps(acc[r], acc[r], 0x4E));
        acc[r] = COMBINE(acc[r], _mm256_shuffle_ps(acc[r], acc[r], 0xB1));
        out[r] = _mm256_cvtss_f32(acc[r]);
    }
#undef COMBINE
}

/* y[i] = x[i] - m for i < n (float subtraction, as PyTorch's (x - Vec(max)) before exp). */
void vm_sub_avx2(const float *x, float m, float *y, int64_t n) {
    __m256 vm = _mm256_set1_ps(m);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_sub_ps(_mm256_loadu_ps(x + i), vm));
    for (; i < n; i++) y[i] = x[i] - m;
}

/* y[i] *= s for i < n. */
void vm_scale_avx2(float *y, float s, int64_t n) {
    __m256 vs = _mm256_set1_ps(s);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(y + i), vs));
    for (; i < n; i++) y[i] *= s;
}

/* dst[i] = src[i] for i < n with streaming stores: the copy goes to memory without first reading dst's lines into
 * the cache (the attention weights, written once and read later, if ever). */
void vm_stream_copy_avx2(float *dst, const float *src, int64_t n) {
    int64_t i = 0;
    while (i < n && ((uintptr_t)(dst + i) & 31) != 0) { dst[i] = src[i]; i++; }
    for (; i + 8 <= n; i += 8) _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
    for (; i < n; i++) dst[i] = src[i];
    _mm_sfence();
}

/* n floats to doubles (exact). */
static void to_double(const float *x, double *y, int64_t n) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, _mm256_cvtps_pd(_mm_loadu_ps(x + i)));
    for (; i < n; i++) y[i] = x[i];
}

/* Columns [j, n) of one row of the product below, from its double copies (a: the row's k values). */
static void small_gemm_row(const double *a, const double *Bd, float *c, int64_t j, int64_t n, int64_t k, float alpha) {
    for (; j + 4 <= n; j += 4) {
        __m256d c0 = _mm256_setzero_pd();
        for (int64_t p = 0; p < k; p++) c0 = _mm256_fmadd_pd(_mm256_broadcast_sd(a + p), _mm256_loadu_pd(Bd + p * n + j), c0);
        _mm_storeu_ps(c + j, _mm_mul_ps(_mm256_cvtpd_ps(c0), _mm_set1_ps(alpha)));
    }
    for (; j < n; j++) {
        double acc = 0;
        for (int64_t p = 0; p < k; p++) acc += a[p] * Bd[p * n + j];
        c[j] = (float)acc * alpha;
    }
}

/* Columns [j, n) of 4 rows of the product below, from double copies (a: the rows' k values each, rows k apart). */
static void small_gemm_rows4(const double *a0, const double *Bd, float *c0, int64_t ldc, int64_t j, int64_t n, int64_t k,
                             float alpha) {
    const double *a1 = a0 + k, *a2 = a1 + k, *a3 = a2 + k;
    float *c1 = c0 + ldc, *c2 = c1 + ldc, *c3 = c2 + ldc;
    const __m128 s = _mm_set1_ps(alpha);
    for (; j + 8 <= n; j += 8) {
        __m256d s00 = _mm256_setzero_pd(), s01 = s00, s10 = s00, s11 = s00, s20 = s00, s21 = s00, s30 = s00, s31 = s00;
        const double *b = Bd + j;
        for (int64_t p = 0; p < k; p++, b += n) {
            __m256d b0 = _mm256_loadu_pd(b), b1 = _mm256_loadu_pd(b + 4);
            __m256d x = _mm256_broadcast_sd(a0 + p);
            s00 = _mm256_fmadd_pd(x, b0, s00);
            s01 = _mm256_fmadd_pd(x, b1, s01);
            x = _mm256_broadcast_sd(a1 + p);
            s10 = _mm256_fmadd_pd(x, b0, s10);
            s11 = _mm256_fmadd_pd(x, b1, s11);
            x = _mm256_broadcast_sd(a2 + p);
            s20 = _mm256_fmadd_pd(x, b0, s20);
            s21 = _mm256_fmadd_pd(x, b1, s21);
            x = _mm256_broadcast_sd(a3 + p);
            s30 = _mm256_fmadd_pd(x, b0, s30);
            s31 = _mm256_fmadd_pd(x, b1, s31);
        }
#define PUT(c, lo, hi) _mm_storeu_ps(c + j, _mm_mul_ps(_mm256_cvtpd_ps(lo), s)); \
                       _mm_storeu_ps(c + j + 4, _mm_mul_ps(_mm256_cvtpd_ps(hi), s))
        PUT(c0, s00, s01); PUT(c1, s10, s11); PUT(c2, s20, s21); PUT(c3, s30, s31);
#undef PUT
    }
    for (; j + 4 <= n; j += 4) {
        __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
        for (int64_t p = 0; p < k; p++) {
            __m256d b0 = _mm256_loadu_pd(Bd + p * n + j);
            s0 = _mm256_fmadd_pd(_mm256_broadcast_sd(a0 + p), b0, s0);
            s1 = _mm256_fmadd_pd(_mm256_broadcast_sd(a1 + p), b0, s1);
            s2 = _mm256_fmadd_pd(_mm256_broadcast_sd(a2 + p), b0, s2);
            s3 = _mm256_fmadd_pd(_mm256_broadcast_sd(a3 + p), b0, s3);
        }
        _mm_storeu_ps(c0 + j, _mm_mul_ps(_mm256_cvtpd_ps(s0), s));
        _mm_storeu_ps(c1 + j, _mm_mul_ps(_mm256_cvtpd_ps(s1), s));
        _mm_storeu_ps(c2 + j, _mm_mul_ps(_mm256_cvtpd_ps(s2), s));
        _mm_storeu_ps(c3 + j, _mm_mul_ps(_mm256_cvtpd_ps(s3), s));
    }
    for (; j < n; j++) {
        double t0 = 0, t1 = 0, t2 = 0, t3 = 0;
        for (int64_t p = 0; p < k; p++) {
            double b = Bd[p * n + j];
            t0 += a0[p] * b;
            t1 += a1[p] * b;
            t2 += a2[p] * b;
            t3 += a3[p] * b;
        }
        c0[j] = (float)t0 * alpha;
        c1[j] = (float)t1 * alpha;
        c2[j] = (float)t2 * alpha;
        c3[j] = (float)t3 * alpha;
    }
}

/* The fixed-order small product of tensor_matmul.c: C[i][j] = alpha * (float)(sum over p = 0, 1, ... of
 * A[i][p] * B[p][j], added in double), B read as (k, n) rows ldb apart, or (n, k) rows when bt. Each product of two
 * floats is exact in double, so an FMA adds it exactly as a multiply and an add would, and every sum runs over p in
 * order: the digits are those of the scalar loop, whatever the vector width. Returns false when there is no memory
 * for the double copies (nothing is written then).
 * Speed: B, and A eight rows at a time (a copy that stays in L1), are first turned into doubles, so the loops only
 * load, broadcast from memory and multiply; blocks of 8 rows by 8 columns with AVX-512 (vecmath_avx512.c), else of
 * 4 rows by 8 columns, keep 8 sums going side by side (an FMA waits about 4 cycles for its previous sum and two issue
 * per cycle), so the FMA units stay busy even when C has only a few columns (a Linear layer on the book's (2, 4, 100)
 * input, computed transposed). */
bool vm_small_gemm_avx2(const float *A, int64_t lda, const float *B, int64_t ldb, bool bt, float *C, int64_t ldc,
                        int64_t m, int64_t n, int64_t k, float alpha) {
    double *Ad = malloc(sizeof(double) * (size_t)(8 * k)), *Bd = malloc(sizeof(double) * (size_t)(k * n));
    if (!Ad || !Bd) {
        free(Ad);
        free(Bd);
        return false;
    }
    if (bt)                          /* B stored (n, k): its rows become Bd's columns */
        for (int64_t j = 0; j < n; j++)
            for (int64_t p = 0; p < k; p++) Bd[p * n + j] = B[j * ldb + p];
    else
        for (int64_t p = 0; p < k; p++) to_double(B + p * ldb, Bd + p * n, n);
    bool wide = vm_level() >= 2 && n >= 8;
    for (int64_t i = 0; i < m; i += 8) {
        int64_t rows = m - i < 8 ? m - i : 8, r = 0, j0 = 0;
        for (int64_t q = 0; q < rows; q++) to_double(A + (i + q) * lda, Ad + q * k, k);
        float *c = C + i * ldc;
        if (wide && rows == 8) {          /* columns before j0 by the AVX-512 blocks */
            j0 = n - n % 8;
            vm_small_gemm_block8_avx512(Ad, Bd, c, ldc, n, j0, k, alpha);
        }
        for (; r + 4 <= rows; r += 4) small_gemm_rows4(Ad + r * k, Bd, c + r * ldc, ldc, j0, n, k, alpha);
        for (; r < rows; r++) small_gemm_row(Ad + r * k, Bd, c + r * ldc, j0, n, k, alpha);
    }
    free(Ad);
    free(Bd);
    return true;
}

/* n is a multiple of 8. */
void vm_pow_avx2(const float *x, const float *y, float *z, int64_t n) {
    for (int64_t i = 0; i < n; i += 8) _mm256_storeu_ps(z + i, Sleef_powf8_u10avx2(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
}
#else
typedef int vecmath_avx2_unused;     /* ISO C: a translation unit needs one declaration */
#endif

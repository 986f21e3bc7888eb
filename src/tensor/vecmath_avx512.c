/* vecmath_avx512.c - the 16-wide SLEEF loops of vecmath.c, compiled with -mavx512f -mfma (the Makefile does so on
 * x86-64 only) and called only when the CPU has AVX-512F, for the functions whose 16-wide use gives the bits of the
 * 8-wide functions PyTorch calls (vecmath.h). */
#if defined(__x86_64__) && defined(__AVX512F__)
#include "vecmath.h"
#include <immintrin.h>
#include <sleef.h>

/* sin or cos 16 at a time with the bits of 8 at a time. SLEEF reduces the argument of a whole vector the slow, exact
 * way when any lane has |x| >= 125 (vecmath.h): 16 lanes give the 8-lane bits when both halves are alike (all small,
 * or both with a large lane); a vector whose halves differ goes as two 8-lane halves. (Compared with the 8-lane
 * functions on 20 million random vectors of mixed magnitudes: no difference.) */
static void sincos_like_avx2(VmOp op, const float *x, float *y, int64_t n) {
    const __m512 lim = _mm512_set1_ps(125.0f);
    for (int64_t i = 0; i < n; i += 16) {
        __m512 v = _mm512_loadu_ps(x + i);
        __mmask16 small = _mm512_cmp_ps_mask(_mm512_abs_ps(v), lim, _CMP_LT_OQ);
        if (((small & 0xff) == 0xff) == ((small >> 8) == 0xff)) {
            _mm512_storeu_ps(y + i, op == VM_SIN ? Sleef_sinf16_u10avx512f(v) : Sleef_cosf16_u10avx512f(v));
        } else {
            __m256 lo = _mm256_loadu_ps(x + i), hi = _mm256_loadu_ps(x + i + 8);
            _mm256_storeu_ps(y + i, op == VM_SIN ? Sleef_sinf8_u10avx2(lo) : Sleef_cosf8_u10avx2(lo));
            _mm256_storeu_ps(y + i + 8, op == VM_SIN ? Sleef_sinf8_u10avx2(hi) : Sleef_cosf8_u10avx2(hi));
        }
    }
}

/* n is a multiple of 16; op is VM_EXP, VM_LOG, VM_TANH, VM_SIN or VM_COS. */
void vm_map_avx512(VmOp op, const float *x, float *y, int64_t n) {
#define LOOP(f) for (int64_t i = 0; i < n; i += 16) _mm512_storeu_ps(y + i, f(_mm512_loadu_ps(x + i))); break
    switch (op) {
    case VM_EXP: LOOP(Sleef_expf16_u10avx512f);
    case VM_LOG: LOOP(Sleef_logf16_u10avx512f);
    case VM_TANH: LOOP(Sleef_tanhf16_u10avx512f);
    case VM_SIN: case VM_COS: sincos_like_avx2(op, x, y, n); break;
    default: break;
    }
#undef LOOP
}

/* Columns [0, ncols) (a multiple of 8) of 8 rows of vm_small_gemm_avx2's product, from its double copies Ad (8, k)
 * and Bd (k, n): 8 sums of 8 doubles side by side, each added over p in order as the scalar loop adds it. */
void vm_small_gemm_block8_avx512(const double *Ad, const double *Bd, float *C, int64_t ldc, int64_t n, int64_t ncols,
                                 int64_t k, float alpha) {
    const __m256 s = _mm256_set1_ps(alpha);
    const double *a = Ad;
    for (int64_t j = 0; j < ncols; j += 8) {
        __m512d c0 = _mm512_setzero_pd(), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
        const double *b = Bd + j;
        for (int64_t p = 0; p < k; p++, b += n) {
            __m512d bv = _mm512_loadu_pd(b);
            c0 = _mm512_fmadd_pd(_mm512_set1_pd(a[p]), bv, c0);
            c1 = _mm512_fmadd_pd(_mm512_set1_pd(a[k + p]), bv, c1);
            c2 = _mm512_fmadd_pd(_mm512_set1_pd(a[2 * k + p]), bv, c2);
            c3 = _mm512_fmadd_pd(_mm512_set1_pd(a[3 * k + p]), bv, c3);
            c4 = _mm512_fmadd_pd(_mm512_set1_pd(a[4 * k + p]), bv, c4);
            c5 = _mm512_fmadd_pd(_mm512_set1_pd(a[5 * k + p]), bv, c5);
            c6 = _mm512_fmadd_pd(_mm512_set1_pd(a[6 * k + p]), bv, c6);
            c7 = _mm512_fmadd_pd(_mm512_set1_pd(a[7 * k + p]), bv, c7);
        }
        float *c = C + j;
        _mm256_storeu_ps(c, _mm256_mul_ps(_mm512_cvtpd_ps(c0), s));
        _mm256_storeu_ps(c + ldc, _mm256_mul_ps(_mm512_cvtpd_ps(c1), s));
        _mm256_storeu_ps(c + 2 * ldc, _mm256_mul_ps(_mm512_cvtpd_ps(c2), s));
        _mm256_storeu_ps(c + 3 * ldc, _mm256_mul_ps(_mm512_cvtpd_ps(c3), s));
        _mm256_storeu_ps(c + 4 * ldc, _mm256_mul_ps(_mm512_cvtpd_ps(c4), s));
        _mm256_storeu_ps(c + 5 * ldc, _mm256_mul_ps(_mm512_cvtpd_ps(c5), s));
        _mm256_storeu_ps(c + 6 * ldc, _mm256_mul_ps(_mm512_cvtpd_ps(c6), s));
        _mm256_storeu_ps(c + 7 * ldc, _mm256_mul_ps(_mm512_cvtpd_ps(c7), s));
    }
}

#else
typedef int vecmath_avx512_unused;   /* ISO C: a translation unit needs one declaration */
#endif

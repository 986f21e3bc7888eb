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

#else
typedef int vecmath_avx512_unused;   /* ISO C: a translation unit needs one declaration */
#endif

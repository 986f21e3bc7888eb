/* vecmath_avx2.c - the 8-wide SLEEF loops of vecmath.c, compiled with -mavx2 -mfma (the Makefile does so on x86-64
 * only) and called only when the CPU has both: the functions PyTorch's AVX2 kernels call, 1.0-ULP variants. */
#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#include "vecmath.h"
#include <immintrin.h>
#include <sleef.h>

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

/* n is a multiple of 8. */
void vm_pow_avx2(const float *x, const float *y, float *z, int64_t n) {
    for (int64_t i = 0; i < n; i += 8) _mm256_storeu_ps(z + i, Sleef_powf8_u10avx2(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
}
#else
typedef int vecmath_avx2_unused;     /* ISO C: a translation unit needs one declaration */
#endif

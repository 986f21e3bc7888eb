/* vecmath.c - float32 math over arrays with PyTorch's digits (vecmath.h): picks SLEEF's AVX-512 or AVX2 loops or the
 * C library's float functions once, as PyTorch picks its CPU capability, and computes the softmax of a row in the
 * order PyTorch's vectorised kernel adds it up. */
#include "vecmath.h"
#include "tensor.h"
#include "attnerr.h"
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && !defined(ATTN_NO_SIMD)
#define HAVE_X86_SIMD 1
#endif

static int level = -1;           /* -1 not chosen; 0 scalar; 1 AVX2 + FMA; 2 AVX-512F (and AVX2 + FMA) */

static int cpu_level(void) {
#ifdef HAVE_X86_SIMD
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return 0;
    return __builtin_cpu_supports("avx512f") ? 2 : 1;
#else
    return 0;
#endif
}

/* The level the CPU allows, capped by ATTN_SIMD (scalar, avx2 or avx512: tests and users force a lower path; a
 * higher one than the CPU has is not taken). An unknown value is ignored with a note on stderr. */
static int env_level(int top) {
    const char *e = getenv("ATTN_SIMD");
    if (!e || !*e) return top;
    int want = !strcmp(e, "scalar") || !strcmp(e, "none") ? 0 : !strcmp(e, "avx2") ? 1 : !strcmp(e, "avx512") ? 2 : -1;
    if (want < 0) {
        err_print("attn: ATTN_SIMD=%s is not scalar, avx2 or avx512; using what the CPU has\n", e);
        return top;
    }
    return want < top ? want : top;
}

int vm_level(void) {
    if (level < 0) level = env_level(cpu_level());
    return level;
}

void vm_force_level(int l) {
    int top = env_level(cpu_level());
    level = l < 0 ? top : l > top ? top : l;
}

const char *vm_backend(void) {
    static const char *names[] = {"C library (scalar)", "SLEEF AVX2", "SLEEF AVX-512"};
    return names[vm_level()];
}
const char *ten_vecmath_name(void) { return vm_backend(); }

/* PyTorch's fallback without AVX2 (its DEFAULT capability): the C library's float function, element by element. */
static float scalar_op(VmOp op, float x) {
    switch (op) {
    case VM_EXP: return expf(x);
    case VM_LOG: return logf(x);
    case VM_SIN: return sinf(x);
    case VM_COS: return cosf(x);
    case VM_TANH: return tanhf(x);
    case VM_TAN: return tanf(x);
    case VM_LOG2: return log2f(x);
    case VM_LOG10: return log10f(x);
    case VM_ASIN: return asinf(x);
    case VM_ACOS: return acosf(x);
    case VM_ATAN: return atanf(x);
    case VM_COUNT: break;
    }
    return x;
}

void vm_map(VmOp op, const float *x, float *y, int64_t n) {
    int l = vm_level();
#ifdef HAVE_X86_SIMD
    if (l >= 1) {
        int w = l == 2 && op <= VM_COS ? 16 : 8;
        void (*loop)(VmOp, const float *, float *, int64_t) = w == 16 ? vm_map_avx512 : vm_map_avx2;
        int64_t body = n - n % w;
        loop(op, x, y, body);
        if (body < n) {
            /* the last few through a zero-padded vector, as PyTorch's Vectorized::loadu(ptr, count) does */
            float buf[16] = {0};
            memcpy(buf, x + body, sizeof(float) * (size_t)(n - body));
            loop(op, buf, buf, w);
            memcpy(y + body, buf, sizeof(float) * (size_t)(n - body));
        }
        return;
    }
#endif
    (void)l;
    for (int64_t i = 0; i < n; i++) y[i] = scalar_op(op, x[i]);
}

void vm_pow(const float *x, const float *y, float *z, int64_t n) {
#ifdef HAVE_X86_SIMD
    if (vm_level() >= 1) {
        int64_t body = n - n % 8;
        vm_pow_avx2(x, y, z, body);
        if (body < n) {
            float bx[8] = {0}, by[8] = {0};
            memcpy(bx, x + body, sizeof(float) * (size_t)(n - body));
            memcpy(by, y + body, sizeof(float) * (size_t)(n - body));
            vm_pow_avx2(bx, by, bx, 8);
            memcpy(z + body, bx, sizeof(float) * (size_t)(n - body));
        }
        return;
    }
#endif
    for (int64_t i = 0; i < n; i++) z[i] = powf(x[i], y[i]);
}

/* ---- softmax of one row, in PyTorch's order ---- */

/* Both combine NaN into NaN, as vec::maximum does. */
static inline float max_nan(float a, float b) { return isnan(a) || isnan(b) ? NAN : a > b ? a : b; }

/* vec::reduce_all over n floats with 8 lanes (Vectorized<float> has 8 lanes on AVX2 and in the DEFAULT build):
 * lane j accumulates elements j, j + 8, j + 16 ... in order (the last partial vector only updates its lanes). Then
 * PyTorch's AVX2 build combines the lanes as a tree (halves, quarters, neighbours), its DEFAULT build one after
 * another from lane 0; rows shorter than 8 always combine their n elements in order. */
static float reduce8(const float *x, int64_t n, bool is_max) {
#ifdef HAVE_X86_SIMD
    if (n >= 8 && vm_level() >= 1) return vm_reduce8_avx2(x, n, is_max);
#endif
    float acc[8] = {0};
    int64_t lanes = n < 8 ? n : 8;
    for (int j = 0; j < lanes; j++) acc[j] = x[j];
    int64_t d = 8;
    if (n >= 8) {
        for (; d + 8 <= n; d += 8)
            for (int j = 0; j < 8; j++) acc[j] = is_max ? max_nan(acc[j], x[d + j]) : acc[j] + x[d + j];
        for (int j = 0; d + j < n; j++) acc[j] = is_max ? max_nan(acc[j], x[d + j]) : acc[j] + x[d + j];
    }
    if (n < 8 || vm_level() == 0) {
        float r = acc[0];
        for (int j = 1; j < lanes; j++) r = is_max ? max_nan(r, acc[j]) : r + acc[j];
        return r;
    }
    /* a full vector: halves, then quarters, then neighbours (PyTorch's AVX2 vec_reduce_all: permute, shuffle, shuffle) */
    for (int half = 4; half >= 1; half /= 2)
        for (int j = 0; j < half; j++) acc[j] = is_max ? max_nan(acc[j], acc[j + half]) : acc[j] + acc[j + half];
    return acc[0];
}

void vm_softmax_row(const float *x, float *y, int64_t n) {
    if (n <= 0) return;
    /* pass 1: the row's maximum, subtracted so that exp cannot overflow */
    float m = reduce8(x, n, true);
    /* pass 2: e = exp(x - m) */
    for (int64_t i = 0; i < n; i++) y[i] = x[i] - m;
    vm_map(VM_EXP, y, y, n);
    /* pass 3: s = sum of e, and y = e * (1 / s) (a product with the reciprocal, as PyTorch does) */
    float inv = 1 / reduce8(y, n, false);
    for (int64_t i = 0; i < n; i++) y[i] *= inv;
}

void vm_softmax_rows_to(const float *x, int64_t ldx, float *y, int64_t ldy, int64_t rows, int64_t n) {
    int64_t r = 0;
#ifdef HAVE_X86_SIMD
    if (n >= 8 && vm_level() == 2) {
        vm_softmax_rows_avx512(x, ldx, y, ldy, rows, n);
        return;
    }
    if (n >= 8 && vm_level() >= 1) {
        for (; r + 4 <= rows; r += 4) {
            const float *a = x + r * ldx;
            float *b = y + r * ldy, m[4], s[4];
            vm_reduce8x4_avx2(a, ldx, n, 1, m);
            for (int k = 0; k < 4; k++) vm_sub_avx2(a + k * ldx, m[k], b + k * ldy, n);
            for (int k = 0; k < 4; k++) vm_map(VM_EXP, b + k * ldy, b + k * ldy, n);   /* exp has no lane dependence */
            vm_reduce8x4_avx2(b, ldy, n, 0, s);
            for (int k = 0; k < 4; k++) vm_scale_avx2(b + k * ldy, 1 / s[k], n);
        }
    }
#endif
    for (; r < rows; r++) vm_softmax_row(x + r * ldx, y + r * ldy, n);
}

void vm_softmax_bw_rows(const float *y, const float *g, float *r, int64_t rows, int64_t n) {
#ifdef HAVE_X86_SIMD
    if (vm_level() == 2) {
        vm_softmax_bw_rows_avx512(y, g, r, rows, n);
        return;
    }
#endif
    for (int64_t i = 0; i < rows; i++) {
        const float *yr = y + i * n, *gr = g + i * n;
        float *o = r + i * n;
        double p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int64_t j = 0; j < n; j++) p[j % 8] += (double)gr[j] * yr[j];
        double s = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
        for (int64_t j = 0; j < n; j++) o[j] = (float)(((double)gr[j] - s) * yr[j]);
    }
}

void vm_softmax_rows(float *x, int64_t rows, int64_t n, int64_t ld) { vm_softmax_rows_to(x, ld, x, ld, rows, n); }

void vm_stream_copy(float *dst, const float *src, int64_t n) {
#ifdef HAVE_X86_SIMD
    if (vm_level() >= 1) { vm_stream_copy_avx2(dst, src, n); return; }
#endif
    memcpy(dst, src, sizeof(float) * (size_t)n);
}

/* driver/level3/level3.c of OpenBLAS 0.3.21 with SkylakeX's sgemm GEMM_Q 448 and GEMM_UNROLL_M 16: a whole block of
 * 448 while at least two are left, the rest in one block, or two halves rounded up to 16 when it is over 448. */
int64_t vm_blas_kblock(int64_t rem) {     /* at most 448 */
    if (rem >= 2 * 448) return 448;
    if (rem > 448) return (rem / 2 + 15) / 16 * 16;
    return rem;
}

int64_t vm_blas_packed_size(int64_t n, int64_t k) { return (n + 31) / 32 * 32 * k; }

int64_t vm_blas_packed_at(int64_t n, int64_t k, int64_t p, int64_t j) {
    int64_t ls = 0, kc = vm_blas_kblock(k);
    while (p >= ls + kc) {
        ls += kc;
        kc = vm_blas_kblock(k - ls);
    }
    return ls * ((n + 31) / 32 * 32) + (j / 32) * 32 * kc + (p - ls) * 32 + j % 32;
}

/* The portable entry points of the large products (vecmath.h): the AVX-512 kernel where it is compiled in and the
 * CPU has it, else the same sums in the same order, one element at a time (a build without SIMD, such as the
 * fuzzers', never chooses this path: ten_own_gemm asks vm_level() first). */
void vm_blas_pack_b(const float *B, int64_t ldb, bool bt, int64_t n, int64_t k, float *Bp, int64_t c0, int64_t c1) {
#ifdef HAVE_X86_SIMD
    if (vm_level() == 2) { vm_blas_pack_b_avx512(B, ldb, bt, n, k, Bp, c0, c1); return; }
#endif
    for (int64_t p = 0; p < k; p++)
        for (int64_t j = c0; j < (c1 + 31) / 32 * 32; j++)
            Bp[vm_blas_packed_at(n, k, p, j)] = j >= n ? 0.0f : bt ? B[j * ldb + p] : B[p * ldb + j];
}

void vm_blas_gemm(const float *A, int64_t lda, const float *Bp, float *C, int64_t ldc, int64_t m, int64_t n, int64_t k,
                  float alpha) {
    vm_blas_gemm_at(A, lda, false, Bp, C, ldc, m, n, k, alpha);
}

void vm_blas_gemm_at(const float *A, int64_t lda, bool at, const float *Bp, float *C, int64_t ldc, int64_t m, int64_t n,
                     int64_t k, float alpha) {
#ifdef HAVE_X86_SIMD
    if (vm_level() == 2) { vm_blas_gemm_avx512(A, lda, at, Bp, C, ldc, m, n, k, alpha); return; }
#endif
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float c = 0.0f;
            for (int64_t ls = 0, kc; ls < k; ls += kc) {
                kc = vm_blas_kblock(k - ls);
                float acc = 0.0f;
                for (int64_t p = ls; p < ls + kc; p++)
                    acc = fmaf(at ? A[p * lda + i] : A[i * lda + p], Bp[vm_blas_packed_at(n, k, p, j)], acc);
                c = fmaf(alpha, acc, c);
            }
            C[i * ldc + j] = c;
        }
}

/* vecmath.h - float32 math over arrays with PyTorch's digits (prefix vm_), for the tensor kernels only.
 *
 * PyTorch computes exp, log, sin, cos, tanh ... of float32 tensors on CPU with SLEEF's 1.0-ULP functions
 * (Sleef_expf8_u10 and friends in aten/src/ATen/cpu/vec/vec256/vec256_float.h), on 8 floats at a time when the
 * CPU has AVX2 and FMA, and with the C library's float functions (expf ...) otherwise. attn calls the same
 * functions of the same library (Debian's libsleef, which Debian's PyTorch links too), so it prints the same
 * digits.
 *
 * Which lanes share a vector matters: SLEEF's sin, cos and tan take a slower, more exact argument reduction for a
 * whole vector when any of its lanes is large (|x| > 125 for float sin), so a lane's last bit depends on its
 * neighbours. PyTorch groups a contiguous tensor's elements 8 at a time from element 0; vm_map groups its array
 * the same way (the caller passes arrays that start at such a boundary to get PyTorch's bits), and a zero-padded
 * vector takes the last few, as PyTorch's vec::map does. Where the CPU has AVX-512, exp, log and tanh (which have
 * no whole-vector branch) run 16 at a time, and sin and cos too where both 8-lane halves take the same branch
 * (vecmath_avx512.c): for every one of the 2^32 float inputs the 16-wide functions give the 8-wide bits (checked
 * exhaustively once), and tests/ref/torch_kernels.py compares with PyTorch on every run.
 */
#ifndef ATTN_VECMATH_H
#define ATTN_VECMATH_H
#include <stdbool.h>
#include <stdint.h>

typedef enum {
    VM_EXP, VM_LOG, VM_TANH, VM_SIN, VM_COS,                  /* 16-wide where the CPU has AVX-512 */
    VM_TAN, VM_LOG2, VM_LOG10, VM_ASIN, VM_ACOS, VM_ATAN,     /* 8-wide (AVX2) at most */
    VM_COUNT
} VmOp;

/* y[i] = op(x[i]) for i < n. x and y may be the same array. */
void vm_map(VmOp op, const float *x, float *y, int64_t n);
/* z[i] = pow(x[i], y[i]) (PyTorch's Sleef_powf8_u10; 8-wide at most, since a two-argument function cannot be
 * checked over all inputs). */
void vm_pow(const float *x, const float *y, float *z, int64_t n);
/* The book's softmax of one row as PyTorch computes it (_vec_softmax_lastdim): m = max over 8 lanes, e = exp(x - m),
 * s = sum of e over 8 lanes, y = e * (1 / s). x and y may be the same array. */
void vm_softmax_row(const float *x, float *y, int64_t n);
/* dst[i] = src[i], bypassing the cache where the CPU can (a result written once that stays out of the way). */
void vm_stream_copy(float *dst, const float *src, int64_t n);
/* vm_softmax_row for each of `rows` rows of n at x, ld apart (in place): the same bits, rows interleaved. */
void vm_softmax_rows(float *x, int64_t rows, int64_t n, int64_t ld);
/* vm_softmax_row for each of `rows` rows of n: rows of x ldx apart into rows of y ldy apart (x == y with ldx == ldy
 * is vm_softmax_rows; otherwise they must not overlap). The same bits, without a copy of x first. */
void vm_softmax_rows_to(const float *x, int64_t ldx, float *y, int64_t ldy, int64_t rows, int64_t n);
/* Softmax's backward for each of `rows` contiguous rows of n: r = (g - s) * y with s = sum of g * y, in double and
 * rounded once to float. The sum in a fixed order on every CPU: eight partial sums, element j into sum j % 8 in
 * order, then ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) (each product of two floats is exact in double). */
void vm_softmax_bw_rows(const float *y, const float *g, float *r, int64_t rows, int64_t n);
/* Which implementation runs on this CPU: "SLEEF AVX-512", "SLEEF AVX2" or "C library (scalar)". */
const char *vm_backend(void);
/* Forces a narrower implementation (0 scalar, 1 AVX2, 2 AVX-512; never wider than the CPU has): for tests. */
void vm_force_level(int level);
int vm_level(void);

/* The SIMD loops (vecmath_avx2.c, vecmath_avx512.c; compiled only for x86-64): n is a multiple of the width. */
void vm_map_avx2(VmOp op, const float *x, float *y, int64_t n);
void vm_map_avx512(VmOp op, const float *x, float *y, int64_t n);
void vm_pow_avx2(const float *x, const float *y, float *z, int64_t n);
float vm_reduce8_avx2(const float *x, int64_t n, int is_max);          /* n >= 8 */
void vm_reduce8x4_avx2(const float *x, int64_t stride, int64_t n, int is_max, float out[4]);
void vm_sub_avx2(const float *x, float m, float *y, int64_t n);
void vm_stream_copy_avx2(float *dst, const float *src, int64_t n);
bool vm_small_gemm_avx2(const float *A, int64_t lda, const float *B, int64_t ldb, bool bt, float *C, int64_t ldc,
                        int64_t m, int64_t n, int64_t k, float alpha);
void vm_small_gemm_block8_avx512(const double *Ad, const double *Bd, float *C, int64_t ldc, int64_t n, int64_t ncols,
                                 int64_t k, float alpha);
void vm_scale_avx2(float *y, float s, int64_t n);
/* vm_softmax_bw_rows with AVX-512: the same bits. */
void vm_softmax_bw_rows_avx512(const float *y, const float *g, float *r, int64_t rows, int64_t n);
/* vm_softmax_rows_to for n >= 8 with AVX-512: the same bits; the shift, exp and sum in one pass over a row. */
void vm_softmax_rows_avx512(const float *x, int64_t ldx, float *y, int64_t ldy, int64_t rows, int64_t n);

/* The large float32 products (attention's, §11.3.3, Linear layers', matmul's: tensor_matmul.c) with the bits of
 * OpenBLAS 0.3.21's SkylakeX sgemm on its normal path (attn's column-major call with M*N*K > 100^3; below that
 * OpenBLAS takes its small-matrix kernels):
 *   C (m, n) = alpha * A (m, k) · B, B given packed by vm_blas_pack_b, rows of A and C lda and ldc apart.
 * Each C element is summed as OpenBLAS sums it: k in the blocks vm_blas_kblock gives; within a block one float
 * accumulator, +0 first, acc = fma(a_p, b_p, acc) for p in order; after each block C = fma(alpha, acc, C) from
 * C = +0 (sgemm_beta). tests/unit/test_kernels.c checks this against a scalar loop in that order and OpenBLAS.
 * vm_blas_gemm_avx512 needs AVX-512F (vm_level() == 2). */
int64_t vm_blas_kblock(int64_t rem);           /* the length of the next k block when rem are left */
int64_t vm_blas_packed_size(int64_t n, int64_t k);   /* floats of B packed */
/* Where B's element (p, j) is in B packed: per k block (starting at ls, kc long), the block at ls * npad (n rounded
 * up to 32), in it panels of 32 columns kc * 32 apart, each k-major (32 floats per p), the last panel padded with
 * zeros. A k block's panels lie side by side, in the order the kernel reads them. */
int64_t vm_blas_packed_at(int64_t n, int64_t k, int64_t p, int64_t j);
/* Columns [c0, c1) of B (k, n) with rows ldb apart, or when bt B stored (n, k) (B's rows ldb apart), packed as
 * vm_blas_packed_at says; c0 a multiple of 32, c1 one or n (the whole of B is 0, n). The rows of B that are read
 * have at least k floats, or n when not bt: B's row stride times 16 must fit in an int. */
void vm_blas_pack_b_avx512(const float *B, int64_t ldb, bool bt, int64_t n, int64_t k, float *Bp, int64_t c0, int64_t c1);
/* The same two on any build: the AVX-512 code where it is compiled in and the CPU has it, else a scalar loop with
 * the same sums in the same order. */
void vm_blas_pack_b(const float *B, int64_t ldb, bool bt, int64_t n, int64_t k, float *Bp, int64_t c0, int64_t c1);
void vm_blas_gemm(const float *A, int64_t lda, const float *Bp, float *C, int64_t ldc, int64_t m, int64_t n, int64_t k,
                  float alpha);
/* vm_blas_gemm_at: the same with A given transposed when at: A's element (i, p) at A[p * lda + i] (Aᵀ stored (k, m)),
 * the same sums in the same order (the bits of OpenBLAS's call with that operand transposed). */
void vm_blas_gemm_at(const float *A, int64_t lda, bool at, const float *Bp, float *C, int64_t ldc, int64_t m, int64_t n,
                     int64_t k, float alpha);
void vm_blas_gemm_avx512(const float *A, int64_t lda, bool at, const float *Bp, float *C, int64_t ldc, int64_t m,
                         int64_t n, int64_t k, float alpha);
#endif

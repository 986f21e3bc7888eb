/* vecmath_avx512.c - the 16-wide SLEEF loops of vecmath.c, compiled with -mavx512f -mfma (the Makefile does so on
 * x86-64 only) and called only when the CPU has AVX-512F, for the functions whose 16-wide use gives the bits of the
 * 8-wide functions PyTorch calls (vecmath.h). */
#if defined(__x86_64__) && defined(__AVX512F__)
#include <stdlib.h>
#include <string.h>
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

/* ---- softmax over the keys (§11.3.2, the book's masked_softmax) in PyTorch's order ---- */

/* y = e = exp(x - m) over a row of n >= 8 (x == y in place) and its sum added up as vm_reduce8_avx2 adds: 8 lanes, lane j
 * taking elements j, j + 8, ... in order (the last partial vector only in its lanes), then halves, quarters,
 * neighbours. exp runs 16 at a time (the bits of 8 at a time, vecmath.h); the sum takes each half in turn. */
static float exp_sum_row(const float *x, float *y, float m, int64_t n) {
    const __m512 vm = _mm512_set1_ps(m);
    const __m256i lanes = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    __m256 acc = _mm256_setzero_ps();
    for (int64_t i = 0; i < n; i += 16) {
        int64_t cnt = n - i < 16 ? n - i : 16;
        __mmask16 k = cnt == 16 ? 0xffff : (__mmask16)((1u << cnt) - 1);
        __m512 e = Sleef_expf16_u10avx512f(_mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), vm));
        _mm512_mask_storeu_ps(y + i, k, e);
        __m256 lo = _mm512_castps512_ps256(e), hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(e), 1));
        if (i == 0) {
            acc = lo;                                       /* n >= 8: the first 8 elements start the lanes */
        } else if (cnt >= 8) {
            acc = _mm256_add_ps(acc, lo);
        } else {
            __m256 take = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)cnt), lanes));
            acc = _mm256_blendv_ps(acc, _mm256_add_ps(acc, lo), take);
        }
        if (cnt == 16) {
            acc = _mm256_add_ps(acc, hi);
        } else if (cnt > 8) {
            __m256 take = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)(cnt - 8)), lanes));
            acc = _mm256_blendv_ps(acc, _mm256_add_ps(acc, hi), take);
        }
    }
    acc = _mm256_add_ps(acc, _mm256_permute2f128_ps(acc, acc, 0x1));
    acc = _mm256_add_ps(acc, _mm256_shuffle_ps(acc, acc, 0x4E));
    acc = _mm256_add_ps(acc, _mm256_shuffle_ps(acc, acc, 0xB1));
    return _mm256_cvtss_f32(acc);
}

/* Eight double lanes hold the eight partial sums (an FMA adds the exact product, as the scalar loop's add does); a
 * row's last n % 8 elements are added to their sums one by one. */
void vm_softmax_bw_rows_avx512(const float *y, const float *g, float *r, int64_t rows, int64_t n) {
    int64_t n8 = n - n % 8;
    for (int64_t i = 0; i < rows; i++) {
        const float *yr = y + i * n, *gr = g + i * n;
        float *o = r + i * n;
        __m512d acc = _mm512_setzero_pd();
        int64_t j = 0;
        for (; j < n8; j += 8)
            acc = _mm512_fmadd_pd(_mm512_cvtps_pd(_mm256_loadu_ps(gr + j)), _mm512_cvtps_pd(_mm256_loadu_ps(yr + j)), acc);
        double p[8];
        _mm512_storeu_pd(p, acc);
        for (; j < n; j++) p[j % 8] += (double)gr[j] * yr[j];
        double sum = ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
        const __m512d s = _mm512_set1_pd(sum);
        for (j = 0; j < n8; j += 8) {
            __m512d d = _mm512_sub_pd(_mm512_cvtps_pd(_mm256_loadu_ps(gr + j)), s);
            _mm256_storeu_ps(o + j, _mm512_cvtpd_ps(_mm512_mul_pd(d, _mm512_cvtps_pd(_mm256_loadu_ps(yr + j)))));
        }
        for (; j < n; j++) o[j] = (float)(((double)gr[j] - sum) * yr[j]);
    }
}

void vm_softmax_rows_avx512(const float *x, int64_t ldx, float *y, int64_t ldy, int64_t rows, int64_t n) {
    int64_t r = 0;
    float m[4];
    for (; r < rows; r++) {
        const float *src = x + r * ldx;
        float *row = y + r * ldy;
        if (r % 4 == 0) {
            if (r + 4 <= rows) vm_reduce8x4_avx2(src, ldx, n, 1, m);     /* the maxima of four rows at once */
            else for (int64_t j = 0; j < 4 && r + j < rows; j++) m[j] = vm_reduce8_avx2(src + j * ldx, n, 1);
        }
        float inv = 1 / exp_sum_row(src, row, m[r % 4], n);
        const __m512 vi = _mm512_set1_ps(inv);
        int64_t i = 0;
        for (; i + 16 <= n; i += 16) _mm512_storeu_ps(row + i, _mm512_mul_ps(_mm512_loadu_ps(row + i), vi));
        for (; i < n; i++) row[i] *= inv;
    }
}

/* ---- the two products of attention (§11.3.3: scores Q Kᵀ (rows, d)·(nk, d)ᵀ; output weights·V (rows, nk)·(nk, dv))
 * with the bits of OpenBLAS 0.3.21's SkylakeX sgemm (vecmath.h: vm_blas_gemm_avx512) ---- */

/* The masks of a panel's two 16-column halves when nr (any number, 32 or more meaning all) of its columns exist. */
static inline void panel_masks(int64_t nr, __mmask16 *m0, __mmask16 *m1) {
    *m0 = nr >= 16 ? 0xffff : (__mmask16)((1u << nr) - 1);
    *m1 = nr >= 32 ? 0xffff : nr <= 16 ? 0 : (__mmask16)((1u << (nr - 16)) - 1);
}

/* r[i] (row i of a 16 x 16 block) becomes column i: unpacks, then shuffles within and across the 128-bit lanes. */
static inline void transpose16(__m512 r[16]) {
    __m512 t[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
        r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int i = 0; i < 4; i++) {
        t[i] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0x88);
        t[i + 4] = _mm512_shuffle_f32x4(r[i], r[i + 4], 0xDD);
        t[i + 8] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0x88);
        t[i + 12] = _mm512_shuffle_f32x4(r[i + 8], r[i + 12], 0xDD);
    }
    for (int i = 0; i < 8; i++) {
        r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
        r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
    }
}

/* Columns [c0, c1) of B (k, n), or of Bᵀ stored (n, k) when bt (Kᵀ of a head, a Linear layer's weight), into the
 * layout of vecmath.h: per k block, panels of 32 columns, each k-major. */
void vm_blas_pack_b_avx512(const float *B, int64_t ldb, bool bt, int64_t n, int64_t k, float *Bp, int64_t c0, int64_t c1) {
    const int64_t npad = (n + 31) / 32 * 32;
    for (int64_t ls = 0, kc; ls < k; ls += kc) {
        kc = vm_blas_kblock(k - ls);
        float *block = Bp + ls * npad;
        if (bt) {
            /* column p of a panel is element p of 32 rows of B: 16 rows x 16 elements at a time are read along the
             * rows and transposed in registers (the missing rows and the elements past the block read as zeros) */
            for (int64_t j0 = c0; j0 < c1; j0 += 32) {
                float *panel = block + j0 * kc;
                for (int half = 0; half < 2; half++) {
                    int64_t nrows = n - j0 - 16 * half;
                    const float *b = B + (j0 + 16 * half) * ldb + ls;
                    for (int64_t p0 = 0; p0 < kc; p0 += 16) {
                        __m512 r[16];
                        int64_t np = kc - p0 < 16 ? kc - p0 : 16;
                        __mmask16 pm = np == 16 ? 0xffff : (__mmask16)((1u << np) - 1);
                        for (int i = 0; i < 16; i++)
                            r[i] = i < nrows ? _mm512_maskz_loadu_ps(pm, b + i * ldb + p0) : _mm512_setzero_ps();
                        transpose16(r);
                        for (int64_t i = 0; i < np; i++) _mm512_storeu_ps(panel + (p0 + i) * 32 + 16 * half, r[i]);
                    }
                }
            }
        } else {
            /* row by row of B, each row's 32-column pieces to their panels */
            for (int64_t p = 0; p < kc; p++) {
                const float *row = B + (ls + p) * ldb;
                for (int64_t j0 = c0; j0 < c1; j0 += 32) {
                    __mmask16 m0, m1;
                    panel_masks(n - j0, &m0, &m1);
                    float *dst = block + j0 * kc + p * 32;
                    _mm512_storeu_ps(dst, _mm512_maskz_loadu_ps(m0, row + j0));
                    _mm512_storeu_ps(dst + 16, _mm512_maskz_loadu_ps(m1, row + j0 + 16));
                }
            }
        }
    }
}

/* how far ahead (in floats) the packed panel is fetched into L1: 32 steps (4 KiB) ahead of the FMAs */
#define PF_B 1024

/* A tile of C: 12 rows [mr of them stored] x 32 columns [masks m0, m1 for the two halves], over kc steps of A's
 * 12 rows a (12, kc), lda apart (or, when kmaj, a packed k-major: step p's 12 values at a + 12 p), and the packed
 * panel b (kc, 32). Each element has one accumulator, +0 to begin
 * with, and adds a[p] * b[p] by one FMA per step in order, as sgemm_kernel_16x4_skylakex_3.c does (vpxorq, vfmadd231ps); then
 * C = alpha * acc + C in one rounding (its vfmadd213ps), C being +0 for the first block (sgemm_beta's zeros). */
static inline __attribute__((always_inline)) void
tile12x32(const float *a, int64_t lda, bool kmaj, const float *b, int64_t kc, float *c, int64_t ldc, float alpha,
          bool first, int mr, __mmask16 m0, __mmask16 m1) {
    const __m512 z = _mm512_setzero_ps();
    /* rows 0-2 from a0, 3-5 from a3, ...: four pointers and the stride address all twelve */
    const float *a0 = a, *a3 = a + 3 * lda, *a6 = a + 6 * lda, *a9 = a + 9 * lda;
#define ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define DECL(i) __m512 c##i##a = z, c##i##b = z;
    ROWS(DECL)
    /* the tile of C, read and written after the loop, is fetched meanwhile (a row of C can be far from the last) */
#define PFC(i) if (i < mr) { _mm_prefetch((const char *)(c + i * ldc), _MM_HINT_T0); _mm_prefetch((const char *)(c + i * ldc + 16), _MM_HINT_T0); }
    ROWS(PFC)
    for (int64_t p = 0; p < kc; p++, b += 32) {
        __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
        _mm_prefetch((const char *)(b + PF_B), _MM_HINT_T0);
        _mm_prefetch((const char *)(b + PF_B + 16), _MM_HINT_T0);
#define AROW(i) (kmaj ? a[p * 12 + (i)] : ((i) / 3 == 0 ? a0 : (i) / 3 == 1 ? a3 : (i) / 3 == 2 ? a6 : a9)[p + ((i) % 3) * lda])
#define STEP(i) { __m512 ai = _mm512_set1_ps(AROW(i)); c##i##a = _mm512_fmadd_ps(ai, b0, c##i##a); c##i##b = _mm512_fmadd_ps(ai, b1, c##i##b); }
        ROWS(STEP)
    }
    const __m512 al = _mm512_set1_ps(alpha);
#define SAVE(i) if (i < mr) {                                                                             \
        float *ci = c + i * ldc;                                                                          \
        __m512 t0 = first ? z : _mm512_maskz_loadu_ps(m0, ci), t1 = first ? z : _mm512_maskz_loadu_ps(m1, ci + 16); \
        _mm512_mask_storeu_ps(ci, m0, _mm512_fmadd_ps(al, c##i##a, t0));                                  \
        _mm512_mask_storeu_ps(ci + 16, m1, _mm512_fmadd_ps(al, c##i##b, t1));                             \
    }
    ROWS(SAVE)
#undef ROWS
#undef DECL
#undef STEP
#undef SAVE
#undef AROW
#undef PFC
}

/* C (m, n) = alpha * A (m, k) · B, B packed: scores (rows, nk) = Q (rows, d) · Kᵀ, out (rows, dv) = weights
 * (rows, nk) · V, a Linear layer's x (rows, in) · Wᵀ, any large matmul. Tiles of 12 rows x 32 columns; each element
 * takes OpenBLAS's k blocks in order (vecmath.h). A k block of B is used in chunks of columns that stay in L2
 * (about 1 MiB) while every 12-row tile of A passes over them, its slice of A (12 x kc) staying in L1. */
/* A tile's slice of Aᵀ stored (k, m) (A read transposed: a weight gradient's layer input, a backward's Qᵀ), rows
 * [i0, i0 + mr) and steps [ls, ls + kc), packed k-major into ap: step p's 12 values (zeros past mr) at ap + 12 p,
 * one masked load of a row of Aᵀ each, the layout tile12x32 reads when kmaj. */
static void pack_at(const float *A, int64_t lda, int64_t i0, int mr, int64_t ls, int64_t kc, float *ap) {
    __mmask16 rm = (__mmask16)((1u << mr) - 1);
    const float *a = A + ls * lda + i0;
    for (int64_t p = 0; p < kc; p++) {
        _mm_prefetch((const char *)(a + (p + 8) * lda), _MM_HINT_T0);
        _mm512_mask_storeu_ps(ap + p * 12, 0x0fff, _mm512_maskz_loadu_ps(rm, a + p * lda));
    }
}

/* Every tile's slice of Aᵀ stored (k, m), steps [ls, ls + kc), packed as pack_at packs one, tile t's at
 * ap + 12 kc t: Aᵀ's rows read in order (a row of Aᵀ meets every tile; pack_at's 12 floats per row a whole row
 * apart would miss L1 at every step when the rows are a multiple of 1 KiB apart). */
static void pack_at_all(const float *A, int64_t lda, int64_t m, int64_t ls, int64_t kc, float *ap) {
    for (int64_t p = 0; p < kc; p++) {
        const float *row = A + (ls + p) * lda;
        for (int64_t i0 = 0; i0 < m; i0 += 12) {
            __mmask16 rm = m - i0 >= 12 ? 0x0fff : (__mmask16)((1u << (m - i0)) - 1);
            _mm512_mask_storeu_ps(ap + i0 * kc + p * 12, 0x0fff, _mm512_maskz_loadu_ps(rm, row + i0));
        }
    }
}

void vm_blas_gemm_avx512(const float *A, int64_t lda, bool at, const float *Bp, float *C, int64_t ldc, int64_t m,
                         int64_t n, int64_t k, float alpha) {
    _Alignas(64) float Ap[12 * 448 + 16];               /* a tile's slice of A when copied (kc <= 448) */
    const int64_t npad = (n + 31) / 32 * 32;
    /* A read transposed, more than one tile: all tiles' slices packed at once per k block (else one by one) */
    float *Apk = at && m > 12 ? malloc(sizeof(float) * (size_t)((m + 11) / 12 * 12 * 448 + 16)) : NULL;
    for (int64_t ls = 0, kc; ls < k; ls += kc) {
        kc = vm_blas_kblock(k - ls);
        if (Apk) pack_at_all(A, lda, m, ls, kc, Apk);
        int64_t nc = (262144 / kc) / 32 * 32;             /* a chunk of B's block: about 1 MiB */
        if (nc < 32) nc = 32;
        for (int64_t jc = 0; jc < n; jc += nc) {
            int64_t jend = n - jc < nc ? n : jc + nc;
            for (int64_t i0 = 0; i0 < m; i0 += 12) {
                int mr = m - i0 < 12 ? (int)(m - i0) : 12;
                /* the tile's slice of A (12, kc) is read in place, or copied to Ap (zeros below the last rows, never
                 * stored) when there are fewer than 12 rows or A's rows are a multiple of 1 KiB apart: 12 rows read
                 * in place would then share a few of L1's sets with the panel streaming through; A read transposed
                 * is always packed, k-major (pack_at_all, pack_at: rows of Aᵀ copied, no transposing) */
                const float *a = A + i0 * lda + ls;
                int64_t la = lda;
                if (at) {
                    if (Apk) a = Apk + i0 * kc;
                    else { pack_at(A, lda, i0, mr, ls, kc, Ap); a = Ap; }
                    la = 12;
                } else if (mr < 12 || lda % 256 == 0) {
                    for (int i = 0; i < 12; i++)
                        if (i < mr) memcpy(Ap + i * kc, a + i * lda, sizeof(float) * (size_t)kc);
                        else memset(Ap + i * kc, 0, sizeof(float) * (size_t)kc);
                    a = Ap;
                    la = kc;
                }
                for (int64_t j0 = jc; j0 < jend; j0 += 32) {
                    __mmask16 m0, m1;
                    panel_masks(n - j0, &m0, &m1);
                    if (at)
                        tile12x32(a, la, true, Bp + ls * npad + j0 * kc, kc, C + i0 * ldc + j0, ldc, alpha, ls == 0, mr, m0, m1);
                    else
                        tile12x32(a, la, false, Bp + ls * npad + j0 * kc, kc, C + i0 * ldc + j0, ldc, alpha, ls == 0, mr, m0, m1);
                }
            }
        }
    }
    free(Apk);
}

#else
typedef int vecmath_avx512_unused;   /* ISO C: a translation unit needs one declaration */
#endif

/* tensor_layernorm.c - F.layer_norm's forward: PyTorch 1.13's CPU kernel to the bit, with each row's mean and rstd
 * (what its backward needs). */
#include <math.h>
#include <string.h>
#include "tensor.h"

/* PyTorch 1.13's LayerNorm on the CPU, to the bit (aten/src/ATen/native/cpu/moments_utils.h, RowwiseMoments, and
 * layer_norm_kernel.cpp, as built for AVX2: a vector holds 8 floats or 4 doubles; that is what Debian's build runs,
 * and machines without AVX-512 kernels). Measured against it: equal bits at every width 1..1100, float32 and float64
 * (tests/ref/nn_layers.py). One template, LN_KERNEL(T, SUF, LANES, FMA, SQRT), makes the float and double versions:
 *
 * ln_add_moments_SUF: one Welford merge (AddMoments): (m0, m1, m2) += (m0_add, m1_add, m2_add), m2 the sum of squared
 *   deviations; every lane of a vector is merged with the same count m0.
 * ln_row_moments_SUF: x (N) -> mean and biased variance. Lane l takes x[LANES*k + l], 16 vectors a chunk by Welford's
 *   update; the chunks are merged pairwise up a cascade (at most 64 levels); the tail past the last full vector is
 *   added one by one, then the lanes are merged into it.
 * ln_forward_SUF: x (rows, N) -> y (rows, N): y = (x * rstd + (-rstd * mean)) * w + b, rstd = 1 / sqrt(var + eps), the
 *   two multiply-adds fused as GCC fuses PyTorch's AVX2 kernel (the moments are not: found by measuring the four
 *   combinations); w, b NULL: 1 and 0; each row's mean and rstd stored when mean_out, rstd_out are not NULL. false
 *   when Ctrl-C stopped it. */
enum { LN_CHUNK = 16 };
#define LN_KERNEL(T, SUF, LANES, FMA, SQRT)                                                                            \
    static void ln_add_moments_##SUF(int64_t m0_add, T m1_add, T m2_add, int64_t m0, T *m1, T *m2) {                  \
        int64_t n = m0 + m0_add;                                                                                       \
        T c = n == 0 ? (T)0 : (T)m0_add / (T)n, delta = m1_add - *m1;                                                  \
        *m1 += c * delta;                                                                                              \
        *m2 += m2_add + delta * delta * c * (T)m0;                                                                     \
    }                                                                                                                  \
    static void ln_add_lanes_##SUF(int64_t m0_add, const T *m1_add, const T *m2_add, int64_t *m0, T *m1, T *m2) {     \
        for (int l = 0; l < LANES; l++) ln_add_moments_##SUF(m0_add, m1_add[l], m2_add[l], *m0, &m1[l], &m2[l]);      \
        *m0 += m0_add;                                                                                                 \
    }                                                                                                                  \
    static void ln_row_moments_##SUF(const T *x, int64_t N, T *mean, T *var) {                                         \
        int64_t n = N / LANES, m = (n + LN_CHUNK - 1) / LN_CHUNK, depth = 0;                                           \
        while (depth < 63 && ((int64_t)1 << depth) < m) depth++;                                                       \
        int64_t c0[64] = {0};                                                                                          \
        T c1[64][LANES] = {{0}}, c2[64][LANES] = {{0}};                                                                \
        for (int64_t i = 0; i < m; i++) {                                                                              \
            const T *xp = x + i * LN_CHUNK * LANES;                                                                    \
            int64_t k = n - i * LN_CHUNK < LN_CHUNK ? n - i * LN_CHUNK : LN_CHUNK;                                     \
            T m1[LANES] = {0}, m2[LANES] = {0};                                                                        \
            for (int64_t j = 0; j < k; j++)                                                                            \
                for (int l = 0; l < LANES; l++) {                                                                      \
                    T v = xp[j * LANES + l], d = v - m1[l];                                                            \
                    m1[l] += d * ((T)1 / (T)(j + 1));                                                                  \
                    m2[l] += d * (v - m1[l]);                                                                          \
                }                                                                                                      \
            ln_add_lanes_##SUF(k, m1, m2, &c0[0], c1[0], c2[0]);                                                       \
            for (int64_t j = 1, mask = i + 1; j < depth && (mask & 1) == 0; j++, mask >>= 1) {                         \
                ln_add_lanes_##SUF(c0[j - 1], c1[j - 1], c2[j - 1], &c0[j], c1[j], c2[j]);                             \
                c0[j - 1] = 0;                                                                                         \
                memset(c1[j - 1], 0, sizeof c1[0]);                                                                    \
                memset(c2[j - 1], 0, sizeof c2[0]);                                                                    \
            }                                                                                                          \
        }                                                                                                              \
        for (int64_t i = 1; i < depth; i++) ln_add_lanes_##SUF(c0[i], c1[i], c2[i], &c0[0], c1[0], c2[0]);             \
        int64_t k = 0;                                                                                                 \
        T m1 = 0, m2 = 0;                                                                                              \
        for (int64_t i = n * LANES; i < N; i++) {                                                                      \
            T d = x[i] - m1;                                                                                           \
            k++;                                                                                                       \
            m1 += d / (T)k;                                                                                            \
            m2 += d * (x[i] - m1);                                                                                     \
        }                                                                                                              \
        for (int l = 0; l < LANES; l++) {                                                                              \
            ln_add_moments_##SUF(n, c1[0][l], c2[0][l], k, &m1, &m2);                                                  \
            k += n;                                                                                                    \
        }                                                                                                              \
        *mean = m1;                                                                                                    \
        *var = m2 / (T)N;                                                                                              \
    }                                                                                                                  \
    static bool ln_forward_##SUF(const T *x, const T *w, const T *b, T *y, int64_t rows, int64_t N, T eps,             \
                                 T *mean_out, T *rstd_out) {                                                           \
        for (int64_t r = 0; r < rows; r++) {                                                                           \
            if (ten_interrupted) return false;                                                                         \
            T mean, var;                                                                                               \
            ln_row_moments_##SUF(x + r * N, N, &mean, &var);                                                           \
            T rstd = (T)1 / SQRT(var + eps), shift = -rstd * mean;                                                     \
            if (mean_out) mean_out[r] = mean;                                                                          \
            if (rstd_out) rstd_out[r] = rstd;                                                                          \
            for (int64_t j = 0; j < N; j++) {                                                                          \
                T v = FMA(x[r * N + j], rstd, shift);                                                                  \
                y[r * N + j] = w ? FMA(v, w[j], b ? b[j] : (T)0) : b ? v + b[j] : v;                                   \
            }                                                                                                          \
        }                                                                                                              \
        return true;                                                                                                   \
    }
LN_KERNEL(float, f32, 8, fmaf, sqrtf)
LN_KERNEL(double, f64, 4, fma, sqrt)

Tensor *ten_layer_norm(const Tensor *x, int k, const Tensor *w, const Tensor *b, double eps, Tensor **mean,
                       Tensor **rstd) {
    if (mean) *mean = NULL;
    if (rstd) *rstd = NULL;
    if (!ten_is_float(x->dtype) || k < 1 || k > x->ndim) {
        ten_fail_in(ten_ctx_of(x), "layer_norm: a float tensor of at least %d dims is needed", k);
        return NULL;
    }
    int64_t M = 1;
    for (int i = x->ndim - k; i < x->ndim; i++) M *= x->shape[i];
    int64_t rows = M ? x->numel / M : 0;
    int64_t rshape[TEN_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) rshape[i] = i < x->ndim - k ? x->shape[i] : 1;
    Tensor *y = ten_new_uninit_in(ten_ctx_of(x), x->dtype, x->ndim, x->shape);
    Tensor *mt = mean && y ? ten_new_uninit_in(ten_ctx_of(x), x->dtype, x->ndim, rshape) : NULL;
    Tensor *rt = rstd && y ? ten_new_uninit_in(ten_ctx_of(x), x->dtype, x->ndim, rshape) : NULL;
    Tensor *xt = NULL, *wt = NULL, *bt = NULL;
    const Tensor *xc = ten_as_contiguous(x, &xt), *wc = w ? ten_as_contiguous(w, &wt) : NULL;
    const Tensor *bc = b ? ten_as_contiguous(b, &bt) : NULL;
    bool ok = y && (!mean || mt) && (!rstd || rt) && xc && (!w || wc) && (!b || bc), finished = false;
    if (ok && x->dtype == DT_F32)
        finished = ln_forward_f32(ten_f32(xc), wc ? ten_f32(wc) : NULL, bc ? ten_f32(bc) : NULL, ten_f32(y), rows, M,
                                  (float)eps, mt ? ten_f32(mt) : NULL, rt ? ten_f32(rt) : NULL);
    else if (ok)
        finished = ln_forward_f64(ten_f64(xc), wc ? ten_f64(wc) : NULL, bc ? ten_f64(bc) : NULL, ten_f64(y), rows, M, eps,
                                  mt ? ten_f64(mt) : NULL, rt ? ten_f64(rt) : NULL);
    ten_free(xt);
    ten_free(wt);
    ten_free(bt);
    if (!finished) {
        if (ok) ten_fail_interrupted(ten_ctx_of(x));
        ten_free(y);
        ten_free(mt);
        ten_free(rt);
        return NULL;
    }
    if (mean) *mean = mt;
    if (rstd) *rstd = rt;
    return y;
}

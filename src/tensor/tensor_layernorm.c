/* tensor_layernorm.c - F.layer_norm's forward: PyTorch 1.13's CPU kernel to the bit, with each row's mean and rstd
 * (what its backward needs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tensor.h"
#include "tensor_internal.h"
#include "parallel.h"

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
    static void ln_forward_##SUF(const T *x, const T *w, const T *b, T *y, int64_t r0, int64_t rows, int64_t N, T eps, \
                                 T *mean_out, T *rstd_out) {                                                           \
        for (int64_t r = r0; r < rows; r++) {                                                                          \
            if (ten_interrupted) return;                                                                               \
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
    }
LN_KERNEL(float, f32, 8, fmaf, sqrtf)
LN_KERNEL(double, f64, 4, fma, sqrt)

/* The forward's rows [begin, end) on attn's threads (each row computed alone: the same bits for any thread count). */
typedef struct LnJob {
    const void *x, *w, *b;
    void *y, *mean, *rstd;
    int64_t N;
    double eps;
    bool f32;
} LnJob;

static void ln_rows(void *ctx, int64_t begin, int64_t end) {
    const LnJob *J = ctx;
    if (J->f32)
        ln_forward_f32(J->x, J->w, J->b, J->y, begin, end, J->N, (float)J->eps, J->mean, J->rstd);
    else
        ln_forward_f64(J->x, J->w, J->b, J->y, begin, end, J->N, J->eps, J->mean, J->rstd);
}

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
    if (ok) {
        LnJob J = {xc->data, wc ? wc->data : NULL, bc ? bc->data : NULL, y->data, mt ? mt->data : NULL,
                   rt ? rt->data : NULL, M, eps, x->dtype == DT_F32};
        par_for(ten_ctx_of(x), rows, (1 << 14) / (M ? M : 1) + 1, ln_rows, &J);
        finished = !ten_interrupted;
    }
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

/* ---- the backward (ten_layer_norm_backward, tensor.h) ---- */

typedef struct LnBwJob {
    const float *x, *g, *w, *mean, *rstd;
    float *dx, *gxhat;
    int64_t N;
} LnBwJob;

/* Rows [begin, end): per row, xhat and gx into the row's place in dx (scratch), their two row sums, then dx; the same
 * float32 steps as layer_norm_bw's tensors (ag_nn.c) take. */
static void ln_bw_rows(void *ctx, int64_t begin, int64_t end) {
    const LnBwJob *J = ctx;
    int64_t N = J->N;
    float xh[4096], p[4096];
    float fN = (float)N;
    for (int64_t r = begin; r < end && !ten_interrupted; r++) {
        const float *x = J->x + r * N, *g = J->g + r * N;
        float *dx = J->dx + r * N, mean = J->mean[r], rstd = J->rstd[r];
        for (int64_t j = 0; j < N; j++) {
            float xm = x[j] - mean;
            xh[j] = xm * rstd;                                   /* xhat = (x - mean) * rstd */
            dx[j] = J->w ? g[j] * J->w[j] : g[j];                /* gx = g * w */
            p[j] = dx[j] * xh[j];                                /* gx * xhat */
        }
        float s1 = ten_sum_row_f32(dx, N), s2 = ten_sum_row_f32(p, N);
        float rn = rstd / fN;
        for (int64_t j = 0; j < N; j++) {
            float a = dx[j] * fN, b = a - s1, cc = xh[j] * s2, d = b - cc;
            dx[j] = rn * d;
        }
        if (J->gxhat)
            for (int64_t j = 0; j < N; j++) J->gxhat[r * N + j] = g[j] * xh[j];
    }
}

int ten_layer_norm_backward(const Tensor *x, const Tensor *g, const Tensor *w, const Tensor *mean, const Tensor *rstd,
                            Tensor **dx, Tensor **gxhat) {
    *dx = NULL;
    if (gxhat) *gxhat = NULL;
    int64_t N = x->ndim ? x->shape[x->ndim - 1] : 0;
    if (x->dtype != DT_F32 || g->dtype != DT_F32 || !g->contiguous || (w && (w->dtype != DT_F32 || w->numel != N)) ||
        N < 1 || N > 4096 || mean->dtype != DT_F32 || rstd->dtype != DT_F32 || !ten_same_shape(x, g) ||
        mean->numel != x->numel / N || rstd->numel != mean->numel)
        return 1;
    Tensor *tx = NULL, *tg = NULL, *tw = NULL, *tm = NULL, *tr = NULL;
    const Tensor *xc = ten_as_contiguous(x, &tx), *gc = xc ? ten_as_contiguous(g, &tg) : NULL;
    const Tensor *wc = !gc || !w ? NULL : ten_as_contiguous(w, &tw);
    const Tensor *mc = gc && (!w || wc) ? ten_as_contiguous(mean, &tm) : NULL, *rc = mc ? ten_as_contiguous(rstd, &tr) : NULL;
    Tensor *d = rc ? ten_new_uninit_in(ten_ctx_of(x), DT_F32, x->ndim, x->shape) : NULL;
    Tensor *gx = d && gxhat ? ten_new_uninit_in(ten_ctx_of(x), DT_F32, x->ndim, x->shape) : NULL;
    int status = -1;
    if (d && (!gxhat || gx)) {
        LnBwJob J = {ten_f32(xc), ten_f32(gc), wc ? ten_f32(wc) : NULL, ten_f32(mc), ten_f32(rc), ten_f32(d),
                     gx ? ten_f32(gx) : NULL, N};
        par_for(ten_ctx_of(x), x->numel / N, (1 << 14) / N + 1, ln_bw_rows, &J);
        if (ten_interrupted) ten_fail_interrupted(ten_ctx_of(x));
        else status = 0;
    }
    ten_free(tx); ten_free(tg); ten_free(tw); ten_free(tm); ten_free(tr);
    if (status < 0) { ten_free(d); ten_free(gx); return -1; }
    *dx = d;
    if (gxhat) *gxhat = gx;
    return 0;
}

/* tensor_optim.c - the update rules of torch.optim's SGD, Adam and AdamW (PyTorch 1.13, torch/optim/sgd.py, adam.py,
 * adamw.py: the single-tensor path, foreach=False), element by element in the parameter's dtype, repeating PyTorch's
 * kernels operation by operation so that float32 results are the same bits:
 *   Tensor.add(b, alpha=s)        fma(b, s, a)          (ATen's vec::fmadd; its scalar tail is contracted the same way)
 *   addcmul_(t1, t2, value=s)     fma(s * t1, t2, self)
 *   addcdiv_(t1, t2, value=s)     self + (s * t1) / t2
 *   x / python_float              x / (T)python_float
 *   mul_(s), sqrt()               one rounding each
 * and Python's own numbers (1 - beta**step, lr / bias_correction1, sqrt(bias_correction2)) in double, as Python
 * computes them. That is PyTorch on a CPU with FMA (its AVX2 and AVX512 kernels); with ATEN_CPU_CAPABILITY=default
 * it rounds the product of add(alpha=) first, and the last bits differ. Checked against PyTorch in
 * tests/unit/test_optim.c (hand-picked elements where fusing matters) and tests/e2e/optim.md (100 steps). */
#include "tensor.h"
#include <math.h>

/* ---- the update rules, one element at a time, in the parameter's dtype T ----
 * Each function walks n contiguous elements; p is the parameter, g its grad, the others the state buffers. */
#define OPTIM_KERNELS(T, SUF, FMA, SQRT)                                                                              \
    /* sgd: d = (maximize ? -g : g); d = fma(p, wd, d); buf = first ? d : fma(d, 1-damp, buf*mom);                   \
     * d = nesterov ? fma(buf, mom, d) : buf; p = fma(d, -lr, p). buf NULL: momentum 0. */                          \
    static void sgd_##SUF(int64_t n, T *p, const T *g, T *buf, bool first, double lr, double mom, double damp,        \
                          double wd, bool nesterov, bool maximize) {                                                 \
        T a_wd = (T)wd, a_damp = (T)(1.0 - damp), a_mom = (T)mom, a_lr = (T)(-lr);                                   \
        for (int64_t i = 0; i < n; i++) {                                                                            \
            T d = maximize ? -g[i] : g[i];                                                                           \
            if (wd != 0) d = FMA(p[i], a_wd, d);                                                                     \
            if (buf) {                                                                                               \
                if (first) buf[i] = d;                                                                               \
                else { T b = buf[i] * a_mom; buf[i] = FMA(d, a_damp, b); }                                           \
                d = nesterov ? FMA(buf[i], a_mom, d) : buf[i];                                                       \
            }                                                                                                        \
            p[i] = FMA(d, a_lr, p[i]);                                                                               \
        }                                                                                                            \
    }                                                                                                                \
    /* adam / adamw (decoupled: p *= 1 - lr*wd first, else g = fma(p, wd, g)); mx NULL without amsgrad. */           \
    static void adam_##SUF(int64_t n, T *p, const T *g, T *m, T *v, T *mx, double lr, double b1, double b2,          \
                           double eps, double wd, bool decoupled, bool maximize, double step) {                      \
        double bc1 = 1 - pow(b1, step), bc2 = 1 - pow(b2, step), step_size = lr / bc1, bc2s = sqrt(bc2);             \
        T a_b1 = (T)b1, a_1b1 = (T)(1 - b1), a_b2 = (T)b2, a_1b2 = (T)(1 - b2), a_bc2s = (T)bc2s, a_eps = (T)eps;     \
        T a_step = (T)(-step_size), a_decay = (T)(1 - lr * wd), a_wd = (T)wd;                                        \
        for (int64_t i = 0; i < n; i++) {                                                                            \
            T gi = maximize ? -g[i] : g[i];                                                                          \
            if (decoupled) p[i] = p[i] * a_decay;                                                                    \
            else if (wd != 0) gi = FMA(p[i], a_wd, gi);                                                              \
            T mb = m[i] * a_b1;                                                                                      \
            m[i] = FMA(gi, a_1b1, mb);                                                                               \
            T vb = v[i] * a_b2, sg = a_1b2 * gi;                                                                     \
            v[i] = FMA(sg, gi, vb);                                                                                  \
            T s = v[i];                                                                                              \
            if (mx) {                                                                                                \
                mx[i] = isnan(mx[i]) || isnan(v[i]) ? (T)NAN : mx[i] > v[i] ? mx[i] : v[i];                          \
                s = mx[i];                                                                                           \
            }                                                                                                        \
            T den = SQRT(s) / a_bc2s;                                                                                \
            den = den + a_eps;                                                                                       \
            T num = a_step * m[i];                                                                                   \
            p[i] = p[i] + num / den;                                                                                 \
        }                                                                                                            \
    }
OPTIM_KERNELS(float, f32, fmaf, sqrtf)
OPTIM_KERNELS(double, f64, fma, sqrt)

/* p, g and each non-NULL buffer: contiguous, of p's float dtype and shape. */
static bool same_kind(const Tensor *p, const Tensor *const *ts, int n) {
    if (!p->contiguous || (p->dtype != DT_F32 && p->dtype != DT_F64)) return false;
    for (int i = 0; i < n; i++)
        if (ts[i] && (!ts[i]->contiguous || ts[i]->dtype != p->dtype || !ten_same_shape(ts[i], p))) return false;
    return true;
}

int ten_sgd_step(Tensor *p, const Tensor *g, Tensor *buf, bool first, const TenSgdOpts *o) {
    const Tensor *ts[2] = {g, buf};
    if (!g || !same_kind(p, ts, 2)) { ten_fail_in(ten_ctx_of(p), "sgd step: the parameter, its grad and momentum buffer must be contiguous float tensors of one shape and dtype"); return -1; }
    if (p->dtype == DT_F64) sgd_f64(p->numel, ten_f64(p), ten_f64(g), buf ? ten_f64(buf) : NULL, first, o->lr, o->momentum, o->dampening, o->weight_decay, o->nesterov, o->maximize);
    else sgd_f32(p->numel, ten_f32(p), ten_f32(g), buf ? ten_f32(buf) : NULL, first, o->lr, o->momentum, o->dampening, o->weight_decay, o->nesterov, o->maximize);
    ten_bump_version(p);
    if (buf) ten_bump_version(buf);
    return 0;
}

int ten_adam_step(Tensor *p, const Tensor *g, Tensor *m, Tensor *v, Tensor *mx, const TenAdamOpts *o) {
    const Tensor *ts[4] = {g, m, v, mx};
    if (!g || !m || !v || !same_kind(p, ts, 4)) { ten_fail_in(ten_ctx_of(p), "adam step: the parameter, its grad and state must be contiguous float tensors of one shape and dtype"); return -1; }
    if (p->dtype == DT_F64)
        adam_f64(p->numel, ten_f64(p), ten_f64(g), ten_f64(m), ten_f64(v), mx ? ten_f64(mx) : NULL, o->lr, o->beta1, o->beta2, o->eps, o->weight_decay, o->decoupled, o->maximize, o->step);
    else
        adam_f32(p->numel, ten_f32(p), ten_f32(g), ten_f32(m), ten_f32(v), mx ? ten_f32(mx) : NULL, o->lr, o->beta1, o->beta2, o->eps, o->weight_decay, o->decoupled, o->maximize, o->step);
    ten_bump_version(p);
    ten_bump_version(m);
    ten_bump_version(v);
    if (mx) ten_bump_version(mx);
    return 0;
}

/* tensor_positional.c - the sinusoidal positional encoding table of §11.6.3, computed as the book's code computes it
 * in PyTorch, one row per position, rows spread over the threads:
 *
 *   X = arange(max_len, float32).reshape(-1, 1) / pow(10000, arange(0, d, 2, float32) / d)      (max_len, ceil(d/2))
 *   P[0, :, 0::2] = sin(X);  P[0, :, 1::2] = cos(X)                                             (1, max_len, d)
 *
 * pow, sin and cos are SLEEF's 1.0-ULP functions as in PyTorch (vecmath.c), each division a float32 division, so
 * the table has PyTorch's bits. For odd d the last column is a sine (the book's code stops with a shape error).
 * X is never stored: each thread computes a span of it, its sines and cosines, and writes them into P. */
#include "tensor_internal.h"
#include "parallel.h"
#include "vecmath.h"
#include <stdatomic.h>
#include <stdlib.h>

typedef struct PeJob {
    float *P;                    /* (max_len, d) */
    const float *denom;          /* (nfreq,): 10000^(2j/d) */
    int64_t d, nfreq, n;         /* n = max_len * nfreq: the elements of X */
    atomic_int failed;
} PeJob;

#define PE_GROUP 8               /* PyTorch's vector of X: elements 8g .. 8g+7 of X in row-major order */
#define PE_SPAN 4096             /* X elements computed at a time (a multiple of PE_GROUP) */

/* Groups [begin, end) of X, i.e. elements [8 begin, 8 end): X itself in row-major order, as PyTorch lays it out and
 * vectorises it, so that sin and cos see the same lanes together as in PyTorch (vecmath.h says why that matters). */
static void pe_groups(void *ctx, int64_t begin, int64_t end) {
    PeJob *J = ctx;
    float *x = malloc(sizeof(float) * 3 * PE_SPAN);
    if (!x) { atomic_store(&J->failed, 1); return; }
    float *s = x + PE_SPAN, *c = s + PE_SPAN;
    int64_t ncos = J->d / 2;
    for (int64_t e0 = begin * PE_GROUP; e0 < end * PE_GROUP && e0 < J->n; e0 += PE_SPAN) {
        if (ten_interrupted) { atomic_store(&J->failed, 2); break; }
        int64_t m = J->n - e0 < PE_SPAN ? J->n - e0 : PE_SPAN;
        if (m > end * PE_GROUP - e0) m = end * PE_GROUP - e0;
        /* pass 1: X = position / denom (a float32 division, as the book divides), row segment by row segment */
        for (int64_t t = 0; t < m;) {
            int64_t i = (e0 + t) / J->nfreq, j0 = (e0 + t) % J->nfreq, len = J->nfreq - j0 < m - t ? J->nfreq - j0 : m - t;
            float fi = (float)i;
            for (int64_t j = 0; j < len; j++) x[t + j] = fi / J->denom[j0 + j];
            t += len;
        }
        /* pass 2: sin(X) and cos(X) */
        vm_map(VM_SIN, x, s, m);
        vm_map(VM_COS, x, c, m);
        /* pass 3: into P, sines in the even columns and cosines in the odd ones */
        for (int64_t t = 0; t < m;) {
            int64_t i = (e0 + t) / J->nfreq, j0 = (e0 + t) % J->nfreq, len = J->nfreq - j0 < m - t ? J->nfreq - j0 : m - t;
            float *row = J->P + i * J->d + 2 * j0;
            int64_t pairs = j0 + len <= ncos ? len : ncos - j0 > 0 ? ncos - j0 : 0;
            for (int64_t j = 0; j < pairs; j++) { row[2 * j] = s[t + j]; row[2 * j + 1] = c[t + j]; }
            if (pairs < len) row[2 * pairs] = s[t + pairs];      /* odd d: the last column, a sine */
            t += len;
        }
    }
    free(x);
}

Tensor *ten_positional_encoding_in(TenCtx *c, int64_t max_len, int64_t d) {
    int64_t sh[3] = {1, max_len, d};
    Tensor *P = ten_new_uninit_in(c, DT_F32, 3, sh);
    if (!P) return NULL;
    int64_t nfreq = (d + 1) / 2;
    float *buf = malloc(sizeof(float) * (size_t)(2 * nfreq + 1));
    if (!buf) { ten_free(P); ten_fail_in(c, "out of memory for the positional encoding"); return NULL; }
    float *denom = buf, *base = buf + nfreq;
    for (int64_t j = 0; j < nfreq; j++) {
        denom[j] = (float)(2 * j) / (float)d;              /* arange(0, d, 2, float32) / d */
        base[j] = 10000.0f;
    }
    vm_pow(base, denom, denom, nfreq);                     /* torch.pow(10000, ...) */
    PeJob J = {.P = ten_f32(P), .denom = denom, .d = d, .nfreq = nfreq, .n = max_len * nfreq};
    vm_level();                                            /* choose the vector code before the threads start */
    par_for(c, (J.n + PE_GROUP - 1) / PE_GROUP, 4096, pe_groups, &J);
    free(buf);
    if (atomic_load(&J.failed)) {
        if (atomic_load(&J.failed) == 2) ten_fail_interrupted(c);
        else ten_fail_in(c, "out of memory for the positional encoding");
        ten_free(P);
        return NULL;
    }
    return P;
}

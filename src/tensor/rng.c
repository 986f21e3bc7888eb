/* rng.c - a seeded generator: xoshiro256** seeded through splitmix64. Its state is the caller's (each session
 * owns one). The same seed gives the same numbers on every machine (not the same numbers as PyTorch's mt19937). */
#include "tensor.h"
#include <math.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
void rng_seed(Rng *g, uint64_t seed) {
    for (int i = 0; i < 4; i++) g->s[i] = splitmix64(&seed);
    g->have_spare = 0;
    g->spare = 0;
}
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
uint64_t rng_next(Rng *g) {
    uint64_t *s = g->s;
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}
double rng_uniform(Rng *g) { return (double)(rng_next(g) >> 11) * 0x1.0p-53; }
/* Box-Muller with the second value kept for the next call. */
double rng_normal(Rng *g) {
    if (g->have_spare) { g->have_spare = 0; return g->spare; }
    double u1, u2;
    do u1 = rng_uniform(g); while (u1 <= 0);
    u2 = rng_uniform(g);
    double r = sqrt(-2 * log(u1)), th = 6.283185307179586 * u2;
    g->spare = r * sin(th);
    g->have_spare = 1;
    return r * cos(th);
}
Tensor *ten_uniform_in(TenCtx *c, Rng *g, DType dt, int ndim, const int64_t *shape, double lo, double hi) {
    Tensor *t = ten_new_in(c, dt, ndim, shape);
    if (!t) return NULL;
    for (int64_t i = 0; i < t->numel; i++) {
        double u = lo + (hi - lo) * rng_uniform(g);
        if (dt == DT_F64) { ten_f64(t)[i] = u < hi || !(hi > lo) ? u : nextafter(hi, lo); continue; }
        float v = (float)u;
        if (v >= (float)hi && hi > lo) v = nextafterf((float)hi, (float)lo);  /* keep [lo, hi) after rounding */
        ten_f32(t)[i] = v;
    }
    return t;
}
Tensor *ten_normal_in(TenCtx *c, Rng *g, DType dt, int ndim, const int64_t *shape, double mean, double std) {
    Tensor *t = ten_new_in(c, dt, ndim, shape);
    if (!t) return NULL;
    for (int64_t i = 0; i < t->numel; i++) ten_set(t, i, mean + std * rng_normal(g));
    return t;
}
Tensor *ten_rand_in(TenCtx *c, Rng *g, int ndim, const int64_t *shape) { return ten_uniform_in(c, g, DT_F32, ndim, shape, 0, 1); }
Tensor *ten_randn_in(TenCtx *c, Rng *g, int ndim, const int64_t *shape) { return ten_normal_in(c, g, DT_F32, ndim, shape, 0, 1); }

/* randperm(n): 0 .. n-1 in a random order from g, an int64 tensor of shape (n), or NULL with c's error (n < 0 is
 * PyTorch's negative-dimension error). Fisher-Yates from the top: position i (n-1 down to 1) swaps with a j drawn
 * uniformly from 0..i. torch.randperm and a shuffling DataLoader both draw their orders here, so one seed gives both
 * the same permutation (attn's generator is not PyTorch's mt19937, so the numbers differ from PyTorch's). */
Tensor *ten_randperm_in(TenCtx *c, Rng *g, int64_t n) {
    if (n < 0) { ten_fail_in(c, "Trying to create tensor with negative dimension %lld: [%lld]", (long long)n, (long long)n); return NULL; }
    Tensor *t = ten_new_in(c, DT_I64, 1, &n);
    if (!t) return NULL;
    int64_t *o = ten_i64(t);
    for (int64_t i = 0; i < n; i++) o[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(rng_uniform(g) * (double)(i + 1)), x = o[i];
        o[i] = o[j];
        o[j] = x;
    }
    return t;
}

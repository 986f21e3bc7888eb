/* rng.c - the session's seeded generator: xoshiro256** seeded through splitmix64.
 * The same seed gives the same numbers on every machine (not the same numbers as PyTorch's mt19937). */
#include "tensor.h"
#include <math.h>

static uint64_t rng_s[4] = {0x9E3779B97F4A7C15ull, 0xBF58476D1CE4E5B9ull, 0x94D049BB133111EBull, 0x2545F4914F6CDD1Dull};
static int rng_have_spare;
static double rng_spare;

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
void rng_seed(uint64_t seed) {
    for (int i = 0; i < 4; i++) rng_s[i] = splitmix64(&seed);
    rng_have_spare = 0;
}
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
uint64_t rng_next(void) {
    uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
    rng_s[2] ^= rng_s[0]; rng_s[3] ^= rng_s[1]; rng_s[1] ^= rng_s[2]; rng_s[0] ^= rng_s[3];
    rng_s[2] ^= t; rng_s[3] = rotl(rng_s[3], 45);
    return r;
}
double rng_uniform(void) { return (double)(rng_next() >> 11) * 0x1.0p-53; }
/* Box-Muller with the second value kept for the next call. */
double rng_normal(void) {
    if (rng_have_spare) { rng_have_spare = 0; return rng_spare; }
    double u1, u2;
    do u1 = rng_uniform(); while (u1 <= 0);
    u2 = rng_uniform();
    double r = sqrt(-2 * log(u1)), th = 6.283185307179586 * u2;
    rng_spare = r * sin(th);
    rng_have_spare = 1;
    return r * cos(th);
}
Tensor *ten_uniform(int ndim, const int64_t *shape, double lo, double hi) {
    Tensor *t = ten_new(DT_F32, ndim, shape);
    if (!t) return NULL;
    for (int64_t i = 0; i < t->numel; i++) {
        float v = (float)(lo + (hi - lo) * rng_uniform());
        if (v >= (float)hi && hi > lo) v = nextafterf((float)hi, (float)lo);  /* keep [lo, hi) after rounding */
        ten_f32(t)[i] = v;
    }
    return t;
}
Tensor *ten_normal(int ndim, const int64_t *shape, double mean, double std) {
    Tensor *t = ten_new(DT_F32, ndim, shape);
    if (!t) return NULL;
    for (int64_t i = 0; i < t->numel; i++) ten_f32(t)[i] = (float)(mean + std * rng_normal());
    return t;
}
Tensor *ten_rand(int ndim, const int64_t *shape) { return ten_uniform(ndim, shape, 0, 1); }
Tensor *ten_randn(int ndim, const int64_t *shape) { return ten_normal(ndim, shape, 0, 1); }

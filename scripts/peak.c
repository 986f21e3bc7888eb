/* peak.c - what this machine can do at most, measured, for `make bench`:
 *   peak [THREADS]      single-precision GFLOP/s: independent fused multiply-adds on VEC-wide float vectors held in
 *                       registers (no memory traffic), one thread per core. Built by scripts/bench with -mavx2 -mfma
 *                       (VEC 8) and, where the CPU has it, -mavx512f (VEC 16).
 *   peak bw [THREADS]   memory write bandwidth in GB/s: THREADS threads each store to their share of a 256 MiB buffer
 *                       that is already mapped (the best of 5 passes); what a fill such as the positional encoding's
 *                       table can reach at most. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef VEC
#define VEC 8
#endif
typedef float v8 __attribute__((vector_size(VEC * 4)));
#define ACC 12
#define ITERS 50000000L
#define BW_BYTES (256L << 20)

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *work(void *arg) {
    v8 acc[ACC], x, y;
    for (int j = 0; j < VEC; j++) { x[j] = 1.0f; y[j] = 0.999999f; }
    for (int i = 0; i < ACC; i++) acc[i] = x * (float)(i + 1);
    for (long it = 0; it < ITERS; it++)
        for (int i = 0; i < ACC; i++) acc[i] = acc[i] * y + x;
    float s = 0;
    for (int i = 0; i < ACC; i++) for (int j = 0; j < VEC; j++) s += acc[i][j];
    *(float *)arg = s;
    return NULL;
}

typedef struct { char *p; size_t n; } Span;

static void *fill(void *arg) {
    Span *s = arg;
    memset(s->p, 1, s->n);
    return NULL;
}

static double bandwidth(int threads) {
    char *buf = malloc(BW_BYTES);
    if (!buf) return 0;
    memset(buf, 0, BW_BYTES);                          /* map every page first: measure stores, not page faults */
    pthread_t t[64];
    Span s[64];
    double best = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_s();
        for (int i = 0; i < threads; i++) {
            s[i].p = buf + BW_BYTES / threads * i;
            s[i].n = BW_BYTES / threads;
            pthread_create(&t[i], NULL, fill, &s[i]);
        }
        for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
        double gbs = BW_BYTES / (now_s() - t0) / 1e9;
        if (gbs > best) best = gbs;
    }
    free(buf);
    return best;
}

int main(int argc, char **argv) {
    int bw = argc > 1 && strcmp(argv[1], "bw") == 0;
    const char *n = argc > 1 + bw ? argv[1 + bw] : NULL;
    int threads = n ? atoi(n) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    if (bw) {
        printf("%.2f\n", bandwidth(threads));
        return 0;
    }
    pthread_t t[64];
    float sink[64];
    double t0 = now_s();
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, work, &sink[i]);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    double dt = now_s() - t0;
    double flops = 2.0 * VEC * ACC * (double)ITERS * threads;
    printf("%.1f\n", flops / dt / 1e9 + 0 * sink[0]);
    return 0;
}

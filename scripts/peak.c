/* peak.c - the machine's single-precision peak, measured: independent fused multiply-adds on 8-wide float vectors
 * held in registers (no memory traffic), one thread per core. Prints GFLOP/s. Built by scripts/bench with
 * -mavx2 -mfma when the CPU has them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#ifndef VEC
#define VEC 8
#endif
typedef float v8 __attribute__((vector_size(VEC * 4)));
#define ACC 12
#define ITERS 50000000L

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

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    pthread_t t[64];
    float sink[64];
    double t0 = now_s();
    for (int i = 0; i < threads && i < 64; i++) pthread_create(&t[i], NULL, work, &sink[i]);
    for (int i = 0; i < threads && i < 64; i++) pthread_join(t[i], NULL);
    double dt = now_s() - t0;
    double flops = 2.0 * VEC * ACC * (double)ITERS * threads;
    printf("%.1f\n", flops / dt / 1e9 + 0 * sink[0]);
    return 0;
}

/* parallel.c - the worker threads behind par_for (see parallel.h): a pool of par_threads(c) - 1 pthreads that sleep
 * on a condition variable between loops, and take ranges of items from a shared counter while a loop runs (so a
 * core busy with another program slows a loop by its share of the work, not by half of it); a worker that wakes
 * only after the caller has handed out every item stays out of the loop, so the caller never waits for a worker
 * that has not started. */
#define _GNU_SOURCE                         /* sched_getaffinity, CPU_COUNT */
#include "parallel.h"
#include "tensor.h"
#include "attnerr.h"
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The pool: one loop at a time, run by the thread that called par_for and up to nthreads - 1 workers. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    pthread_t tid[PAR_MAX_THREADS];
    int started;                            /* workers created so far */
    uint64_t generation;                    /* bumped for each loop; workers wait for a new one */
    int want;                               /* workers (by index) that may take part in this loop */
    int running;                            /* workers that joined this loop and are still in it */
    bool closed;                            /* the caller has finished its share: no worker joins any more */
    bool quit;
    ParFn fn;
    void *ctx;
    int64_t n, chunk;
    atomic_int_fast64_t next;               /* first item not yet handed out */
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static _Thread_local bool in_parallel;

bool par_in_parallel(void) { return in_parallel; }

/* Cores this process may run on (taskset and cgroup cpusets included). */
static int core_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* c's thread count (TenCtx.threads), set from ATTN_THREADS or the cores when first asked. */
int par_threads(TenCtx *c) {
    if (c->threads) return c->threads;
    int n = core_count();
    const char *env = getenv("ATTN_THREADS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v >= 1 && v <= PAR_MAX_THREADS) n = (int)v;
        else err_print("attn: ATTN_THREADS=%s is not a thread count from 1 to %d; using %d (the cores)\n", env, PAR_MAX_THREADS, n);
    }
    c->threads = n > PAR_MAX_THREADS ? PAR_MAX_THREADS : n;
    return c->threads;
}

void par_set_threads(TenCtx *c, int n) {
    c->threads = n < 1 ? 1 : n > PAR_MAX_THREADS ? PAR_MAX_THREADS : n;
}

int ten_threads(TenCtx *c) { return par_threads(c); }
void ten_set_threads(TenCtx *c, int n) { par_set_threads(c, n); }

/* Takes ranges until none are left. */
static void run_chunks(void) {
    for (;;) {
        int64_t b = atomic_fetch_add(&pool.next, pool.chunk);
        if (b >= pool.n) return;
        int64_t e = b + pool.chunk < pool.n ? b + pool.chunk : pool.n;
        pool.fn(pool.ctx, b, e);
    }
}

static void *worker(void *arg) {
    int index = (int)(intptr_t)arg;
    uint64_t seen = 0;
    in_parallel = true;
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        while (pool.generation == seen && !pool.quit) pthread_cond_wait(&pool.wake, &pool.mu);
        if (pool.quit) break;
        seen = pool.generation;
        /* a worker that wakes after the caller has run out of items (its core was busy) stays out */
        if (index >= pool.want || pool.closed) continue;
        pool.running++;
        pthread_mutex_unlock(&pool.mu);
        run_chunks();
        pthread_mutex_lock(&pool.mu);
        if (--pool.running == 0 && pool.closed) pthread_cond_signal(&pool.done);
    }
    pthread_mutex_unlock(&pool.mu);
    return NULL;
}

/* At exit: wake the workers, let them end and join them (no thread left running into the libraries' destructors). */
static void pool_stop(void) {
    pthread_mutex_lock(&pool.mu);
    pool.quit = true;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.mu);
    for (int i = 0; i < pool.started; i++) pthread_join(pool.tid[i], NULL);
    pool.started = 0;
}

/* Starts workers up to count (under pool.mu). Workers block every signal: Ctrl-C and SIGPIPE reach the main thread. */
static void pool_grow(int count) {
    if (pool.started == 0 && count > 0) atexit(pool_stop);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (pool.started < count) {
        if (pthread_create(&pool.tid[pool.started], NULL, worker, (void *)(intptr_t)pool.started) != 0) break;
        pool.started++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Runs fn over [0, n) in ranges of chunk items on up to `threads` threads (2 or more; the caller checked). */
static void run_pool(int64_t n, int64_t chunk, int threads, ParFn fn, void *ctx) {
    pthread_mutex_lock(&pool.mu);
    pool_grow(threads - 1);
    pool.fn = fn;
    pool.ctx = ctx;
    pool.n = n;
    pool.chunk = chunk;
    atomic_store(&pool.next, 0);
    pool.want = threads - 1 < pool.started ? threads - 1 : pool.started;
    pool.running = 0;
    pool.closed = false;
    pool.generation++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.mu);
    in_parallel = true;
    run_chunks();
    in_parallel = false;
    /* every item is handed out: wait only for the workers that joined (one that has not woken yet never will
     * for this loop, so a core taken by another program does not hold the loop up) */
    pthread_mutex_lock(&pool.mu);
    pool.closed = true;
    while (pool.running > 0) pthread_cond_wait(&pool.done, &pool.mu);
    pthread_mutex_unlock(&pool.mu);
}

/* A nested loop runs on the thread that asks, before c's count is read (workers never write c). */
void par_for(TenCtx *c, int64_t n, int64_t grain, ParFn fn, void *ctx) {
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    int threads = in_parallel ? 1 : par_threads(c);
    if (threads > n / grain) threads = (int)(n / grain);
    if (threads < 2) {
        fn(ctx, 0, n);
        return;
    }
    /* about four ranges per thread, none smaller than grain */
    int64_t chunk = (n + 4 * threads - 1) / (4 * threads);
    run_pool(n, chunk < grain ? grain : chunk, threads, fn, ctx);
}

void par_for_chunks(TenCtx *c, int64_t n, int64_t chunk, ParFn fn, void *ctx) {
    if (n <= 0) return;
    if (chunk < 1) chunk = 1;
    int threads = in_parallel ? 1 : par_threads(c);
    int64_t ranges = (n + chunk - 1) / chunk;
    if (threads > ranges) threads = (int)ranges;
    if (threads < 2) {
        fn(ctx, 0, n);
        return;
    }
    run_pool(n, chunk, threads, fn, ctx);
}

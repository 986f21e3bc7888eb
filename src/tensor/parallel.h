/* parallel.h - attn's worker threads (prefix par_), for the tensor kernels only.
 *
 * One thread count serves everything that runs in parallel: attn's own kernels and OpenBLAS's products (which
 * tensor_matmul.c splits by rows over these threads, each row block one single-threaded OpenBLAS call). It is the
 * context's the loop is given (TenCtx.threads, tensor.h: a kernel passes its input's, ten_ctx_of; a builtin its
 * session's, I->run.ten): ATTN_THREADS when that is set, else the number of cores attn may run on;
 * torch.set_num_threads(n) changes it for that session (ten_set_threads). The pool itself is the process's: its
 * workers start on the first parallel loop, not at start-up, and serve every context.
 *
 * Same bits for any thread count: par_for hands out ranges of items, and a kernel must compute each item from its
 * inputs alone, whatever range it falls in (a reduction fixes its own blocks and adds them in block order).
 * Code run by par_for must not allocate or free tensors, set ten_fail or touch interpreter state: the allocator
 * and the error buffer belong to the main thread. It may call ten_sgemm_ld (OpenBLAS runs on one thread always).
 */
#ifndef ATTN_PARALLEL_H
#define ATTN_PARALLEL_H
#include <stdbool.h>
#include <stdint.h>

typedef struct TenCtx TenCtx;
#define PAR_MAX_THREADS 256

/* fn(arg, begin, end) computes items [begin, end). */
typedef void (*ParFn)(void *arg, int64_t begin, int64_t end);

/* c's thread count (set from ATTN_THREADS or the cores the first time c is asked, on the main thread). */
int par_threads(TenCtx *c);
void par_set_threads(TenCtx *c, int n);       /* clamped to 1..PAR_MAX_THREADS */
/* Runs fn over items [0, n) on up to c's thread count: in the calling thread alone when n < 2 * grain, the thread
 * count is 1 or the caller is already inside a parallel loop; else in ranges of at least grain items spread over
 * the workers and the calling thread. Returns when every item is done. */
void par_for(TenCtx *c, int64_t n, int64_t grain, ParFn fn, void *arg);
/* par_for with ranges of exactly chunk items (the last one shorter), taken by whichever thread is free: for loops
 * whose items cost about the same and gain nothing from long ranges, where par_for's four ranges per thread would
 * leave one thread idle for up to a range's time when another program slows the other. */
void par_for_chunks(TenCtx *c, int64_t n, int64_t chunk, ParFn fn, void *arg);
bool par_in_parallel(void);                   /* true in code run by par_for on more than one thread */
#endif

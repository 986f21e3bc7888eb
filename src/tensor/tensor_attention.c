/* tensor_attention.c - scaled dot-product attention forward in one pass per block of queries (§11.3.3, §11.5):
 *
 *   scores  = Q Kᵀ / sqrt(d)                       (the division after the product, as the book's code)
 *   scores[k >= valid_len] = -1e6                   (masked_softmax, §11.3.2: a fully masked row gets uniform weights)
 *   weights = softmax(scores) over the keys
 *   out     = weights V
 *
 * The book computes each line over the whole batch: a (B*h, Q, K) score tensor goes to memory and back three times.
 * Here a block of queries of one head goes through all four steps while its scores stay in cache, and the heads and
 * blocks are spread over the worker threads. Every number is computed as the book's code computes it in PyTorch:
 * the same products (the same BLAS calls, split by rows only), the same division, and softmax in PyTorch's order
 * (vecmath.c), so the digits are the unfused ones for any thread count. Where OpenBLAS would run its SkylakeX
 * kernels (a CPU with AVX-512), the two products are attn's own (vm_blas_gemm, AVX-512), with OpenBLAS's bits: Kᵀ and V
 * of a head are packed once for all its blocks, no zeroing pass before the product, and no packing of the scores.
 *
 * Multi-head attention (§11.5) reads its heads in place: with heads = h, q (B, Q, h*d) holds head j of batch row b
 * in columns j*d .. (j+1)*d - 1, which is what transpose_qkv would copy out as item b*h + j; out (B, Q, h*dv) is
 * written in the layout transpose_output would give. The weights, when asked for, are (B*h, Q, K) as in the book.
 */
#include "tensor_internal.h"
#include "parallel.h"
#include "vecmath.h"
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A matrix per (batch row, head) inside a 3-D float32 tensor whose last dim is contiguous. */
typedef struct HeadMat {
    const float *base;
    int64_t bstride, rstride, hcols;    /* between batch rows, between rows; columns per head */
} HeadMat;

typedef struct AttnJob {
    TenCtx *ctx;                         /* q's context: its threads and product switches */
    HeadMat q, k, v;
    float *out;                          /* (B, Q, heads * dv), contiguous */
    float *weights;                      /* (B * heads, Q, K) or NULL */
    const int64_t *valid;                /* (B, Q): keys that take part (k < valid), or NULL */
    int64_t heads, nq, nk, d, dv;
    int64_t block;                       /* queries per block */
    int64_t lds;                         /* floats between rows of a block's scores */
    int64_t nblocks;                     /* blocks per head */
    float sd;                            /* sqrt(d) in float32, as PyTorch divides by it */
    float alpha;                         /* 1/sd when that is a power of two (multiplying is then dividing), else 1 */
    bool blas_s, blas_o;                 /* the two products' BLAS decision, made for the unsplit product */
    bool own_s, own_o;                   /* ... and vm_blas_gemm gives OpenBLAS's bits (its SkylakeX normal path) */
    int64_t units, group;                /* (item, block) units, taken group units at a time */
    atomic_llong next;                   /* the first unit no thread has taken yet */
    atomic_int failed;                   /* a worker could not get its scratch buffer, or Ctrl-C */
} AttnJob;

static const float *head_ptr(const HeadMat *m, int64_t b, int64_t h) { return m->base + b * m->bstride + h * m->hcols; }

/* One worker: takes runs of J->group units until none is left (unit u is block u % nblocks of head item
 * u / nblocks, item = b * heads + h). A thread that comes late, or runs slowly on a core it shares, takes fewer runs:
 * the threads finish together whatever else the machine runs. */
static void attn_units(void *ctx, int64_t begin, int64_t end) {
    AttnJob *J = ctx;
    (void)begin; (void)end;
    /* the scores of a block live in a buffer of the thread's own that stays in its L2; with the own kernels, Kᵀ and
     * V of the head packed (once for all the blocks of a head this thread computes) */
    int64_t nks = (J->nq - (J->nblocks - 1) * J->block) * J->lds, nkp = J->own_s ? vm_blas_packed_size(J->nk, J->d) : 0;
    int64_t nvp = J->own_o && J->out ? vm_blas_packed_size(J->dv, J->nk) : 0;
    float *scratch = malloc(sizeof(float) * (size_t)(nks + nkp + nvp));
    if (!scratch) {
        atomic_store(&J->failed, 1);
        return;
    }
    float *Kp = scratch + nks, *Vp = Kp + nkp;
    int64_t k_item = -1, v_item = -1;                                  /* whose Kᵀ and V are in Kp and Vp */
    for (int64_t u = 0, u1 = 0; !atomic_load(&J->failed); u++) {
        if (u == u1) {                                                  /* the next run of units */
            u = atomic_fetch_add(&J->next, J->group);
            if (u >= J->units) break;
            u1 = u + J->group < J->units ? u + J->group : J->units;
        }
        if (ten_interrupted) { atomic_store(&J->failed, 2); break; }
        int64_t item = u / J->nblocks, b = item / J->heads, h = item % J->heads;
        /* the last block of a head also takes the rows after it (nq % block): every block starts at a multiple of
         * block and has at least block rows, as ten_sgemm_split_rows asks */
        int64_t q0 = (u % J->nblocks) * J->block, rows = u % J->nblocks == J->nblocks - 1 ? J->nq - q0 : J->block;
        const float *Q = head_ptr(&J->q, b, h) + q0 * J->q.rstride;     /* (rows, d) */
        const float *K = head_ptr(&J->k, b, h);                         /* (nk, d) */
        const float *V = J->out ? head_ptr(&J->v, b, h) : NULL;         /* (nk, dv) */
        float *S = scratch;                                                 /* (rows, nk), rows lds apart */
        float *O = J->out ? J->out + (b * J->nq + q0) * J->heads * J->dv + h * J->dv : NULL;   /* (rows, dv), row stride heads*dv */
        /* pass 1: S = Q Kᵀ, scaled by 1/sqrt(d) in the product when that is exactly the division (d = 4^k) */
        if (J->own_s) {
            if (k_item != item) vm_blas_pack_b(K, J->k.rstride, true, J->nk, J->d, Kp, 0, J->nk);
            k_item = item;
            vm_blas_gemm(Q, J->q.rstride, Kp, S, J->lds, rows, J->nk, J->d, J->alpha);
        } else {
            ten_sgemm_ld(J->ctx, Q, J->q.rstride, K, J->k.rstride, S, J->lds, rows, J->nk, J->d, true, J->blas_s, J->alpha);
        }
        /* pass 2: scale (unless done) and mask each row, then softmax the rows (max subtracted for stability) */
        for (int64_t r = 0; r < rows; r++) {
            float *row = S + r * J->lds;
            int64_t valid = J->valid ? J->valid[b * J->nq + q0 + r] : J->nk;
            if (J->alpha == 1.0f)
                for (int64_t k = 0; k < valid; k++) row[k] /= J->sd;
            for (int64_t k = valid; k < J->nk; k++) row[k] = -1e6f;
        }
        vm_softmax_rows(S, rows, J->nk, J->lds);
        if (J->weights) {
            float *W = J->weights + (item * J->nq + q0) * J->nk;
            for (int64_t r = 0; r < rows; r++) vm_stream_copy(W + r * J->nk, S + r * J->lds, J->nk);
        }
        /* pass 3: O = S V (not when only the weights are asked for) */
        if (J->out && J->own_o) {
            if (v_item != item) vm_blas_pack_b(V, J->v.rstride, false, J->dv, J->nk, Vp, 0, J->dv);
            v_item = item;
            vm_blas_gemm(S, J->lds, Vp, O, J->heads * J->dv, rows, J->dv, J->nk, 1.0f);
        } else if (J->out) {
            ten_sgemm_ld(J->ctx, S, J->lds, V, J->v.rstride, O, J->heads * J->dv, rows, J->dv, J->nk, false, J->blas_o, 1.0f);
        }
    }
    free(scratch);
}

/* Half of a core's L2 in floats (sysconf; 1 MiB's worth where the C library cannot tell): a property of the CPU,
 * read once under pthread_once (attention is planned from any thread). */
static int64_t floats;
static pthread_once_t floats_once = PTHREAD_ONCE_INIT;

static void read_l2(void) {
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    floats = (l2 >= 65536 && l2 <= (64L << 20) ? l2 : 2L << 20) / 8;
}

static int64_t half_l2_floats(void) {
    pthread_once(&floats_once, read_l2);
    return floats;
}

/* c's queries per block, set by a test (0: from the cache size). */
void ten_set_attention_block(TenCtx *c, int64_t rows) { c->attention_block = rows > 0 ? rows : 0; }

/* x as a float32 tensor whose last dim has stride 1 and rows at least as far apart as they are long (what BLAS
 * reads): x itself, or a contiguous copy in *tmp. */
static const Tensor *rows_readable(const Tensor *x, Tensor **tmp) {
    *tmp = NULL;
    if (x->dtype == DT_F32 && x->stride[2] == 1 && x->stride[1] >= x->shape[2] && x->stride[0] >= 0) return x;
    if (x->dtype != DT_F32) return (*tmp = ten_cast(x, DT_F32));
    return ten_as_contiguous(x, tmp);
}

/* valid_lens (B,) or (B, Q), any dtype -> the count of keys each (b, q) attends to: k takes part when k < valid_len
 * (the book's mask arange(K) < valid_len), so a length of 2.5 lets keys 0, 1 and 2 in, and NaN none. */
static int64_t *valid_counts(const Tensor *lens, int64_t B, int64_t Q, int64_t K) {
    int64_t *c = malloc(sizeof(int64_t) * (size_t)(B * Q));
    if (!c) { ten_fail_in(ten_ctx_of(lens), "out of memory for the valid lengths"); return NULL; }
    for (int64_t b = 0; b < B; b++)
        for (int64_t q = 0; q < Q; q++) {
            double vl = ten_get(lens, lens->ndim == 1 ? b : b * Q + q);
            c[b * Q + q] = !(vl > 0) ? 0 : vl >= (double)K ? K : (int64_t)ceil(vl);
        }
    return c;
}

/* The forward of ten_attention, or with v and out_p NULL only the weights (weights then not NULL). What fails
 * comes back NULL, with the tensor library's error set. */
static void attention_run(const Tensor *q, const Tensor *k, const Tensor *v, const Tensor *valid_lens, int64_t heads,
                          Tensor **out_p, Tensor **weights) {
    if (weights) *weights = NULL;
    if (out_p) *out_p = NULL;
    if (q->ndim != 3 || k->ndim != 3 || (v && v->ndim != 3) || heads < 1 || q->shape[2] % heads || k->shape[2] % heads ||
        (v && v->shape[2] % heads) || q->shape[2] != k->shape[2] || q->shape[0] != k->shape[0] ||
        (v && (k->shape[0] != v->shape[0] || k->shape[1] != v->shape[1]))) {
        ten_fail_in(ten_ctx_of(q), "attention: queries (B, Q, h*d), keys (B, K, h*d) and values (B, K, h*dv) do not fit together");
        return;
    }
    int64_t B = q->shape[0], nq = q->shape[1], nk = k->shape[1];
    if (valid_lens && !((valid_lens->ndim == 1 && valid_lens->shape[0] == B) ||
                        (valid_lens->ndim == 2 && valid_lens->shape[0] == B && valid_lens->shape[1] == nq))) {
        ten_fail_in(ten_ctx_of(q), "attention: valid_lens must be (B,) or (B, Q)");
        return;
    }
    Tensor *tq, *tk, *tv = NULL, *out = NULL, *w = NULL;
    const Tensor *Q = rows_readable(q, &tq), *K = rows_readable(k, &tk), *V = v ? rows_readable(v, &tv) : NULL;
    int64_t *valid = NULL;
    bool ok = false;
    AttnJob J = {.ctx = ten_ctx_of(q), .heads = heads, .nq = nq, .nk = nk, .d = q->shape[2] / heads,
                 .dv = v ? v->shape[2] / heads : 0};
    if (!Q || !K || (v && !V)) goto done;
    if (valid_lens && !(valid = valid_counts(valid_lens, B, nq, nk))) goto done;
    /* data is element (0, 0, 0) of each view; the strides say where the rest is */
    J.q = (HeadMat){(const float *)Q->data, Q->stride[0], Q->stride[1], J.d};
    J.k = (HeadMat){(const float *)K->data, K->stride[0], K->stride[1], J.d};
    if (V) J.v = (HeadMat){(const float *)V->data, V->stride[0], V->stride[1], J.dv};
    J.valid = valid;
    int64_t wsh[3] = {B * heads, nq, nk};
    if (v) {
        int64_t osh[3] = {B, nq, v->shape[2]};
        if (!(out = ten_new_uninit_in(ten_ctx_of(q), DT_F32, 3, osh))) goto done;
    }
    if (weights && !(w = ten_new_uninit_in(ten_ctx_of(q), DT_F32, 3, wsh))) goto done;
    ok = true;
    if (B * heads * nq == 0) goto done;              /* nothing to compute */
    J.out = out ? ten_f32(out) : NULL;
    J.weights = w ? ten_f32(w) : NULL;
    J.sd = (float)sqrt((double)J.d);
    int e;
    J.alpha = frexpf(J.sd, &e) == 0.5f ? 1.0f / J.sd : 1.0f;
    J.blas_s = ten_sgemm_wants_blas(J.ctx, nq, nk, J.d);
    J.blas_o = ten_sgemm_wants_blas(J.ctx, nq, J.dv, nk);
    /* OpenBLAS's SkylakeX products are computed here, faster, with its bits (vecmath.h), on a CPU with AVX-512, when
     * the unsplit product is on OpenBLAS's normal path (vm_blas_gemm gives those bits for any block of rows) */
    bool own = ten_own_gemm(J.ctx, K->stride[1]) && (!V || ten_own_gemm(J.ctx, V->stride[1]));
    J.own_s = own && J.blas_s && ten_blas_normal_path(nq, nk, J.d);
    J.own_o = own && J.blas_o && out && ten_blas_normal_path(nq, J.dv, nk);
    /* blocks of queries whose scores fill about half of a core's L2 (the packed Kᵀ and V and the rows of Q take the
     * rest): larger blocks would spill the scores to L3 between the product and the softmax; the packing is per
     * head, not per block. The bits do not depend on the size (tests force others: ten_set_attention_block). */
    int64_t forced_block = J.ctx->attention_block;
    J.block = forced_block ? forced_block : half_l2_floats() / (nk ? nk : 1);
    if (J.block < 16) J.block = 16;
    /* a product OpenBLAS computes is split only where its rows keep the bits of the unsplit call (tensor_internal.h) */
    int64_t split = 1;
    if (J.blas_s && !J.own_s) split = ten_sgemm_split_rows(nq, nk, J.d);
    if (out && J.blas_o && !J.own_o) {
        int64_t so = ten_sgemm_split_rows(nq, J.dv, nk);
        split = so > split ? so : split;
    }
    if (split > 1) {
        if (J.block < split) J.block = split;
        J.block = (J.block + TEN_GEMM_SPLIT_ROWS - 1) / TEN_GEMM_SPLIT_ROWS * TEN_GEMM_SPLIT_ROWS;
    }
    if (J.block > nq) J.block = nq;
    J.nblocks = nq / J.block;
    /* rows of scores a multiple of 1 KiB apart share few cache sets (the 12 rows the kernel reads at once would
     * evict each other): 64 bytes more between them */
    J.lds = nk % 256 == 0 ? nk + 16 : nk;
    if (split == 1 && (J.own_s || J.own_o)) {
        /* about the same number of blocks, each a whole number of the kernel's 12-row tiles */
        J.block = ((nq + J.nblocks - 1) / J.nblocks + 11) / 12 * 12;
        if (J.block > nq) J.block = nq;
        J.nblocks = nq / J.block;
    }
    /* runs of units of about 4 MFLOP or more (a head's blocks together, where its Kᵀ and V are packed once), about
     * 8 runs per thread; a second thread only when each gets about 4 MFLOP */
    int64_t flops = 2 * J.block * nk * (J.d + J.dv), threads = par_threads(J.ctx);
    J.units = B * heads * J.nblocks;
    J.group = J.units / (8 * threads);
    if (J.group > J.nblocks) J.group = J.nblocks;
    if (J.group * flops < (1 << 22)) J.group = (1 << 22) / (flops + 1) + 1;
    if (J.group > J.units) J.group = J.units;
    int64_t workers = (J.units + J.group - 1) / J.group;
    atomic_init(&J.next, 0);
    par_for(J.ctx, workers < threads ? workers : threads, 1, attn_units, &J);
    if (atomic_load(&J.failed)) {
        if (atomic_load(&J.failed) == 2) ten_fail_interrupted(ten_ctx_of(q));
        else ten_fail_in(ten_ctx_of(q), "attention: out of memory for a block of scores");
        ok = false;
    }
done:
    ten_free(tq); ten_free(tk); ten_free(tv);
    free(valid);
    if (!ok) {
        ten_free(out);
        ten_free(w);
        out = w = NULL;
    }
    if (out_p) *out_p = out;
    if (weights) *weights = w;
}

Tensor *ten_attention(const Tensor *q, const Tensor *k, const Tensor *v, const Tensor *valid_lens, int64_t heads,
                      Tensor **weights) {
    Tensor *out = NULL;
    attention_run(q, k, v, valid_lens, heads, &out, weights);
    return out;
}

Tensor *ten_attention_weights(const Tensor *q, const Tensor *k, const Tensor *valid_lens, int64_t heads) {
    Tensor *w = NULL;
    attention_run(q, k, NULL, valid_lens, heads, NULL, &w);
    return w;
}

/* tensor_internal.h - helpers shared by the tensor kernels only. */
#ifndef ATTN_TENSOR_INTERNAL_H
#define ATTN_TENSOR_INTERNAL_H
#include "tensor.h"

/* A new context's settings (tensor.h's TenCtx): no error, PyTorch's float32, 2^28 elements per tensor and 6 GiB in
 * all, threads from ATTN_THREADS or the cores when first asked, products through BLAS from 64^3 on. */
#define TEN_BLAS_THRESHOLD (64 * 64 * 64)
#define TEN_CTX_INIT {.err = {.kind = ERR_NONE, .msg = ""}, .limit_numel = (int64_t)1 << 28, \
                      .limit_bytes = (int64_t)6 << 30, .live_bytes = 0, .held_outside = 0, .default_float = DT_F32, .threads = 0, \
                      .own_gemm = true, .blas_threshold = TEN_BLAS_THRESHOLD, .attention_block = 0, \
                      .gemm_seconds = 0, .gemm_flops = 0, .refs = 1, \
                      .closed = false, .pool = {.handles = NULL, .small = NULL, .nhandles = 0, .nsmall = 0, \
                      .cache = {{NULL, 0}}, .cached_bytes = 0}}

/* Row-major strides of a dense tensor of this shape (PyTorch's: a dim of size 0 or 1 counts as 1). */
void ten_contiguous_strides(const int64_t *shape, int ndim, int64_t *strides);
/* dst[...] = src[...] element by element: same shape and dtype, any strides on either side (dst must not
 * overlap itself; src may be dst itself). */
void ten_strided_copy(Tensor *dst, const Tensor *src);
/* One contiguous float32 row of n summed in PyTorch's order, as t.sum(-1) sums it (tensor_reduce.c). */
float ten_sum_row_f32(const float *x, int64_t n);
/* A contiguous tensor of dtype dt holding t broadcast to shape: the operand form the copying kernels use. */
Tensor *ten_expand_dense(const Tensor *t, DType dt, int ndim, const int64_t *shape);
/* The memory order PyTorch's TensorIterator gives an elementwise result over operands ops (each broadcast to
 * shape): perm[0] is the outermost dim. Returns false when that order is plain row-major (perm is identity). */
bool ten_result_perm(const Tensor *const *ops, int nops, int ndim, const int64_t *shape, int *perm);
/* True when some element of t is reachable through two indices (an expanded view): it cannot be written. */
bool ten_has_internal_overlap(const Tensor *t);
/* Matrix products with row strides (tensor_matmul.c): C (m, n) = alpha * A (m, k) @ B, B (k, n) or, when bt, B stored
 * (n, k), on c's threads. blas: from ten_sgemm_wants_blas(c, m, n, k) of the whole product (so a product split into row blocks keeps
 * the digits of the unsplit one); OpenBLAS then, else attn's fixed-order loop. Safe inside par_for. */
bool ten_sgemm_wants_blas(const TenCtx *c, int64_t m, int64_t n, int64_t k);
void ten_sgemm_ld(TenCtx *c, const float *A, int64_t lda, const float *B, int64_t ldb, float *C, int64_t ldc,
                  int64_t m, int64_t n, int64_t k, bool bt, bool blas, float alpha);
/* The same with A given transposed when at: A's element (i, p) at A[p * lda + i] (Aᵀ stored (k, m), as sgemm's
 * transA). The sums are those of A copied first (OpenBLAS's and vm_blas_gemm's order does not depend on layout). */
void ten_sgemm_tt(TenCtx *c, const float *A, int64_t lda, bool at, const float *B, int64_t ldb, bool bt, float *C, int64_t ldc,
                  int64_t m, int64_t n, int64_t k, bool blas, float alpha);
/* Whether the OpenBLAS that was loaded runs its SkylakeX kernels (false before it is loaded, or for another BLAS):
 * then vm_blas_gemm_avx512 (vecmath.h) gives its bits. */
bool ten_blas_is_skylakex(void);
/* Whether OpenBLAS computes a product of this size on its normal path (not its small-matrix kernels). */
bool ten_blas_normal_path(int64_t m, int64_t n, int64_t k);
/* A product of m rows computed by OpenBLAS in blocks of rows has the bits of one call for all m rows when every
 * block starts at a multiple of TEN_GEMM_SPLIT_ROWS (the last one ending at m) and has at least
 * ten_sgemm_split_rows(m, n, k) rows (a multiple of TEN_GEMM_SPLIT_ROWS, or m itself: then it may not be split). */
#define TEN_GEMM_SPLIT_ROWS 48
int64_t ten_sgemm_split_rows(int64_t m, int64_t n, int64_t k);
/* Tests: the fused attention's queries per block on c's tensors (rounded as the kernel needs); 0 sizes them from the
 * cache again. */
void ten_set_attention_block(TenCtx *c, int64_t rows);
/* Whether the products OpenBLAS would compute on its normal path come from vm_blas_gemm instead, with the same bits:
 * a CPU with AVX-512, OpenBLAS running its SkylakeX kernels, B's row stride ldb small enough for the packing's
 * gathers, and not switched off in c by ten_set_own_gemm(c, false) (the tests compare the two). */
bool ten_own_gemm(const TenCtx *c, int64_t ldb);
void ten_set_own_gemm(TenCtx *c, bool on);
/* Whether ten_sgemm_ld(..., blas true, alpha) computes this product with vm_blas_gemm: ten_own_gemm, OpenBLAS's
 * normal path, and B small enough that the kernel is the faster one. */
bool ten_sgemm_own(const TenCtx *c, int64_t m, int64_t n, int64_t k, int64_t ldb, float alpha);
/* Sets the storage's write counter back to v (an operation made of several counted writes counts once). */
void ten_version_restore(Tensor *t, int64_t v);
#endif

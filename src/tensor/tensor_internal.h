/* tensor_internal.h - helpers shared by the tensor kernels only. */
#ifndef ATTN_TENSOR_INTERNAL_H
#define ATTN_TENSOR_INTERNAL_H
#include "tensor.h"

/* A strided window onto a tensor's buffer (element units). */
typedef struct StridedView {
    int ndim;
    int64_t shape[TEN_MAX_DIMS];
    int64_t stride[TEN_MAX_DIMS];
    int64_t offset;
} StridedView;

void ten_contiguous_strides(const Tensor *t, int64_t *strides);
/* New contiguous tensor holding the elements of v over src's buffer. */
Tensor *ten_gather_view(const Tensor *src, const StridedView *v);
/* Writes val (already of v's shape and src's dtype, contiguous) through v into dst. */
void ten_scatter_view(Tensor *dst, const StridedView *v, const Tensor *val);
#endif

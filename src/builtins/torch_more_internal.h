/* torch_more_internal.h - the argument readers torch_more.c, torch_index.c, torch_products.c and torch_functional.c
 * share (a tensor argument by PyTorch's rule, ints, numbers, bools), and torch_index.c's reduce_dims. */
#ifndef ATTN_TORCH_MORE_INTERNAL_H
#define ATTN_TORCH_MORE_INTERNAL_H
#include "builtins_internal.h"

/* torch_more.c: argument i (or keyword name), a parameter PyTorch declares Tensor, taken as accept says (arg_tensor),
 * into *held, which the caller releases once (arg_tensor_release); NULL with the error when absent. */
Tensor *tensor_at(Interp *I, Args *a, int i, const char *name, unsigned accept, ArgTensor *held);
/* Argument i (or keyword name) as an int, a float, a bool: dflt when absent or None; false with an error set. */
bool int_at(Interp *I, Args *a, int i, const char *name, int64_t dflt, int64_t *out);
bool num_at(Interp *I, Args *a, int i, const char *name, double dflt, double *out);
bool bool_at(Interp *I, Args *a, int i, const char *name, bool dflt, bool *out);
/* Ints from an int or a tuple/list: n of them into out (at most TEN_MAX_DIMS). */
bool ints_of(Interp *I, Value *v, const char *what, int64_t *out, int *n);
/* A tuple of the n tensors ts (taken). */
Value *tuple_of(Interp *I, Tensor **ts, int n);
/* torch_index.c: X reduced over dims one at a time, the highest first (a dim given twice is PyTorch's error). */
Tensor *reduce_dims(TenCtx *c, RedOp op, const Tensor *x, const int64_t *dims, int nd, bool keep);
#endif

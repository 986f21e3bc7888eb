/* d2l_attention_internal.h - what d2l_attention.c (the book's attention modules) and nn_linear.c (the Dropout and
 * Linear they hold) share with each other only. */
#ifndef ATTN_D2L_ATTENTION_INTERNAL_H
#define ATTN_D2L_ATTENTION_INTERNAL_H
#include "builtins_internal.h"

/* d2l_attention.c: whether module obj is in training mode (no training attribute: true). */
bool training(Value *obj);
/* Argument v (named name in a's function) that must be a tensor: borrowed, or NULL with an error set. */
Tensor *tensor_arg(Interp *I, const Args *a, Value *v, const char *name);
/* A child module m (named name in its parent) called on the n tensors in (each passed as a new handle): its tensor
 * result (a new handle), or NULL with an error set. */
Tensor *call_module(Interp *I, Value *m, const char *name, Tensor *const *in, int n);

/* nn_linear.c: the classes of attn's nn.Dropout, nn.Linear and nn.LazyLinear objects. */
extern const ObjClass DropoutClass, LinearClass, LazyLinearClass;
/* A Dropout module's p when it is a probability, else -1. */
double dropout_p(Value *drop);
/* A new nn.Dropout of probability pv (NULL: 0), in place when inplace (NULL: False); NULL with the error set. */
Value *make_dropout(Interp *I, Value *pv, Value *inplace);
/* A new Linear (in, out), or a LazyLinear (out) when lazy; NULL with PyTorch's error for a negative size. */
Value *make_linear(Interp *I, int64_t in, int64_t out, bool bias, bool lazy);
#endif

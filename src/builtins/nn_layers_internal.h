/* nn_layers_internal.h - what nn_layers.c shares with nn_multihead.c and nn_linear.c (d2l_attention.c has static
 * helpers of the same names, so these stay out of builtins_internal.h). */
#ifndef ATTN_NN_LAYERS_INTERNAL_H
#define ATTN_NN_LAYERS_INTERNAL_H
#include "builtins_internal.h"

/* A new parameter holding t (a leaf that requires grad, as PyTorch's nn.Parameter); NULL when t is. */
Value *parameter(Interp *I, Tensor *t);
/* The tensor attribute name of obj (borrowed), NULL when it is missing or not a tensor. */
Tensor *attr_tensor(Value *obj, const char *name);
/* A new layer object of class c, in training mode. */
Value *new_layer(Interp *I, const ObjClass *c);
#endif

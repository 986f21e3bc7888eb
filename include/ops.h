/* ops.h - Python/PyTorch semantics of operators, indexing, attributes and iteration on values (prefix ops_).
 * All return new references, or NULL with the interpreter's error set. */
#ifndef ATTN_OPS_H
#define ATTN_OPS_H
#include "interp.h"

Value *ops_binary(Interp *I, int aop, Value *a, Value *b);
/* A Python number (bool, int, float) as a 0-dim tensor of bool, int64 or float64 holding it exactly; pass it to
 * ten_binary as weak (PyTorch's wrapped number). */
Tensor *ops_number_tensor(const Value *v);
Value *ops_inplace(Interp *I, int aop, Value *a, Value *b);    /* a op= b: in place for tensors */
Value *ops_unary(Interp *I, int aop, Value *a);
Value *ops_compare(Interp *I, int aop, Value *a, Value *b);
Value *ops_index(Interp *I, Value *obj, Value *index);
int ops_set_index(Interp *I, Value *obj, Value *index, Value *v);
Value *ops_getattr(Interp *I, Value *obj, const char *name);
/* A built-in object's own attribute lookup (its attributes, then its methods, else an AttributeError): what an
 * ObjClass getattr hook falls back to. */
Value *ops_object_getattr(Interp *I, Value *obj, const char *name);
/* Every attribute name obj offers (data attributes and methods), each passed once or more to add(ctx, name): what
 * Tab completes after "obj." and what an attribute error's "did you mean" picks from. */
void ops_attr_names(const Value *obj, void (*add)(void *ctx, const char *name), void *ctx);
int ops_setattr(Interp *I, Value *obj, const char *name, Value *v);
Value *ops_len(Interp *I, Value *v);
/* A 0-dim (or one-element) tensor as a Python number; other values returned as they are (new reference). */
Value *ops_item(Value *v);

/* Iteration over lists, tuples, strings, ranges, dict keys and tensors (along dim 0). */
typedef struct Iter { Value *src; int64_t i, n; } Iter;
bool ops_iter_begin(Interp *I, Value *v, Iter *it);
Value *ops_iter_next(Iter *it);          /* NULL at the end */
void ops_iter_end(Iter *it);
/* Collects an iterable into a new list. */
Value *ops_to_list(Interp *I, Value *v);
#endif

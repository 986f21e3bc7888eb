/* ops.h - Python/PyTorch semantics of operators, indexing, attributes and iteration on values (prefix ops_).
 * All return new references, or NULL with the interpreter's error set. */
#ifndef ATTN_OPS_H
#define ATTN_OPS_H
#include "interp.h"

Value *ops_binary(Interp *I, int aop, Value *a, Value *b);
/* A Python number (bool, int, float) as a 0-dim tensor of bool, int64 or float64 holding it exactly; pass it to
 * ten_binary as weak (PyTorch's wrapped number). */
Tensor *ops_number_tensor_in(TenCtx *c, const Value *v);
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
 * dir(obj) lists, Tab completes after "obj." and an attribute error's "did you mean" picks from, with what I added
 * to d2l's open classes (I NULL: none). 0; with I and run_dir, for an instance of a student's class that defines
 * __dir__, the names it returns instead, as Python's dir() (1), or -1 when it raised or gave no iterable of strings
 * (the error set on I). run_dir false (completion, suggestions, help): no student code runs, attn's names are listed. */
int ops_attr_names(Interp *I, const Value *obj, bool run_dir, void (*add)(void *ctx, const char *name), void *ctx);
/* obj.name when obj shows it (ops_attr_names lists it) and holds it as a value, read without running anything
 * (no getattr hook): what completion of "a.b.<Tab>" walks. Borrowed; NULL otherwise (an iterator's hidden state). */
Value *ops_attr_peek(Value *obj, const char *name);
int ops_setattr(Interp *I, Value *obj, const char *name, Value *v);
/* del obj[index] (a list item, a dict entry of any key) and del obj.name (an attribute of an instance of the
 * student's classes, or of the class): 0, or -1 with Python's error (key/attribute missing) or a refusal. */
int ops_del_index(Interp *I, Value *obj, Value *index);
int ops_delattr(Interp *I, Value *obj, const char *name);
Value *ops_len(Interp *I, Value *v);
/* A 0-dim (or one-element) tensor as a Python number; other values returned as they are (new reference). */
Value *ops_item(Value *v);

/* Iteration over lists, tuples, strings, ranges, dict keys, tensors (along dim 0) and the iterators below.
 * ops_iter_next gives the next item (a new reference), or NULL at the end or on an error: the caller tells them
 * apart with interp_failed(I) (a map's function failed, a dict changed size: Python's RuntimeError). A list is
 * walked to its length at each step (items appended meanwhile are seen, as in Python). */
typedef struct Iter {
    Interp *I;
    Value *src;
    int64_t i, n;
    Value *row0;            /* a tensor that records: its row 0 (owned), whose grad_fn the other rows show (ops_iter.c) */
} Iter;
/* Whether v is of a kind that can be iterated (a 0-d tensor is, and fails with its own message, as in PyTorch). I:
 * the interpreter whose additions to d2l's open classes count (a student's __iter__ added with @d2l.add_to_class),
 * as in ops_is_iterator and ops_has_special; NULL: none. */
bool ops_is_iterable(Interp *I, const Value *v);
bool ops_iter_begin(Interp *I, Value *v, Iter *it);
Value *ops_iter_next(Iter *it);
void ops_iter_end(Iter *it);
/* Python 3's single-pass iterators, lazy as Python's. ops_iter: iter(src) (src itself when it is an iterator
 * already); ops_reversed: reversed(src) (a tensor gives src.flip(0), as PyTorch's); ops_lazy_iterator: kind "map"
 * (fn(*one item of each arg)), "filter" (the items of args[0] for which fn, or the item itself when fn is None, is
 * true), "zip" (tuples of one item of each arg) or "enumerate" ((start + k, item)); fn runs only as items are
 * consumed. All NULL with Python's error when an argument is not iterable. ops_iterator_next: the next item of an
 * iterator (new reference), NULL when exhausted or with an error set (interp_failed). */
bool ops_is_iterator(Interp *I, const Value *v);
Value *ops_iter(Interp *I, Value *src);
Value *ops_reversed(Interp *I, Value *src);
Value *ops_lazy_iterator(Interp *I, const char *kind, Value *fn, Value *const *args, int nargs, int64_t start);
/* A generator expression's generator: fn its <genexpr> function (stolen), first the first clause's iterator (stolen),
 * nclauses its for clauses. Its items come from interp_genexpr_next as they are asked for. */
Value *ops_generator(Value *fn, Value *first, int nclauses);
/* The generator a Python function of PyTorch returns (module.parameters(): <generator object Module.parameters at
 * 0x...>, qualname that function's), yielding list's items (a list, stolen), computed already: single-pass, no len. */
Value *ops_list_generator(Value *list, const char *qualname);
Value *ops_iterator_next(Interp *I, Value *it);
/* A special method of a student's class, for builtins that honour one (abs: __abs__, int: __int__ ...):
 * ops_has_special says whether v is an instance of a student's class that defines name; ops_call_special calls
 * v.name(*args) (n at most 2), a new reference or NULL with the error set. */
bool ops_has_special(Interp *I, const Value *v, const char *name);
Value *ops_call_special(Interp *I, Value *v, const char *name, Value *const *args, int n);
/* Collects an iterable into a new list. */
Value *ops_to_list(Interp *I, Value *v);
/* Appends the items of iterable v to list l as Python's list.extend: a list or tuple (l itself too) by its length
 * before, anything else item by item as it is walked, so an iterator that reads or clears l sees what was added
 * so far, and on an error (0 success, -1 with the error set) the items added stay. Memory limit, loop limit and
 * Ctrl-C stop it as they stop list(). */
int ops_list_extend(Interp *I, Value *l, Value *v);
/* The place of key in dict d (dict_find_hashed): true with *at (-1 when absent); false with Python's error when key is
 * unhashable (d[[1]]: "unhashable type: 'list'") or a student's __hash__/__eq__ raised. The place is valid when
 * returned (dict_find_hashed restarts when a student's __eq__ changes d); running more student code may change d again. */
bool ops_dict_find(Interp *I, Dict *d, const Value *key, int *at);
/* The same, giving key's hash (computed once: a student's __hash__ runs once) for ops_dict_store. */
bool ops_dict_find_hash(Interp *I, Dict *d, const Value *key, int64_t *hash, int *at);
/* d[key] = v with key's hash known (no __hash__ runs; v and key are held by d): 0, or -1 when a student's __eq__
 * raised (the error is set). */
int ops_dict_store(Interp *I, Dict *d, Value *key, Value *v, int64_t hash);
/* Python's KeyError for a key missing from a dict ("key 5 is not in the dict"); NULL. */
Value *ops_key_error(Interp *I, const Value *key);
#endif

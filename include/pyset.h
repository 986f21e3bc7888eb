/* pyset.h - Python's set (prefix pyset_): a V_SET value holds a PySet (value.h), CPython 3.11's table, so that a
 * set iterates, prints and pops in the order CPython's does wherever that order is deterministic (ints, floats,
 * tuples of them; CPython randomises string hashes, so there any order is Python's). Elements must be hashable as
 * in Python: lists, dicts and sets are refused with Python's "unhashable type: 'list'". Functions that take an
 * Interp report errors through it: 0/1 or a new reference, -1/NULL with the error set. */
#ifndef ATTN_PYSET_H
#define ATTN_PYSET_H
#include "interp.h"


Value *pyset_new(ValHeap *heap);            /* set(), made in heap */
/* Python's hash(v) (CPython's for ints, floats, bools and tuples; by identity for tensors, functions, objects and
 * classes); false with Python's TypeError for an unhashable value. */
bool pyset_hash(Interp *I, const Value *v, int64_t *hash);
/* The same without an interpreter: true with *hashable (and *hash when it is: no error set when not); false for an
 * instance of a student's class with a __hash__ (no interpreter to run it on; no error set). */
bool pyset_hash_quiet(const Value *v, int64_t *hash, bool *hashable);
int pyset_add(Interp *I, Value *s, Value *key);              /* s.add(key): 0 or -1 */
int pyset_contains(Interp *I, Value *s, const Value *key);   /* key in s: 1, 0, or -1 (unhashable key) */
/* key in s with key's hash known: 1, 0, or -1 when a comparison failed (val_eq(I, ...): the error is set) */
int pyset_contains_hashed(Interp *I, const Value *s, const Value *key, int64_t hash);
int pyset_discard(Interp *I, Value *s, const Value *key);    /* s.discard(key): 1 removed, 0 absent, -1 */
Value *pyset_pop(Interp *I, Value *s);                       /* s.pop(): Python's KeyError words when empty */
void pyset_clear(Value *s);
/* s |= the items of any iterable (a set, a dict's keys, a list ...), in CPython's order of insertion */
int pyset_update(Interp *I, Value *s, Value *iterable);
/* set(iterable) (iterable NULL: set()) */
Value *pyset_from(Interp *I, Value *iterable);
/* frozenset(iterable) (NULL: frozenset()); a frozenset given is returned itself, as CPython does */
Value *pyset_frozen(Interp *I, Value *iterable);
/* The operators | & - ^ (aop AOP_BITOR ...) and the methods union, intersection, difference and
 * symmetric_difference: a is a set or frozenset, b any iterable (the operators check that b is a set first). The
 * result has a's type, as Python's: frozenset({1}) | {2} is a frozenset, {2} | frozenset({1}) a set. */
Value *pyset_op(Interp *I, int aop, Value *a, Value *b);
/* a |= b, a &= b, a -= b, a ^= b in place (CPython's set_ior ...); 0 or -1. a is not a frozenset (fs |= t makes
 * a new frozenset: pyset_op). */
int pyset_op_update(Interp *I, int aop, Value *a, Value *b);
/* a <= b (every element of set a is in set b): 1, 0 or -1 (a student's __eq__ raised) */
int pyset_subset(Interp *I, Value *a, Value *b);
/* Walks the slots from *pos on: the next element (borrowed) and *pos past it; NULL at the end. */
Value *pyset_next(const Value *s, int64_t *pos);

/* value.c: freeing, the cycle collector's children, equality */
void pyset_free(PySet *t);
void pyset_visit(PySet *t, void (*visit)(Value *child, void *ctx), void *ctx);
/* == of two sets: true with *eq; false when a comparison failed (val_eq(I, ...): the error is set) */
bool pyset_equal(Interp *I, const Value *a, const Value *b, bool *eq);
#endif

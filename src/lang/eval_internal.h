/* eval_internal.h - what eval.c (expressions) gives exec.c (statements), prefix ev_; nothing else uses it. */
#ifndef ATTN_EVAL_INTERNAL_H
#define ATTN_EVAL_INTERNAL_H
#include "interp.h"

/* An expression's value: a new reference, NULL with an error set (with its position). */
Value *ev_eval(Interp *I, Node *n);
/* Binds v (borrowed) to a target: a name, x.attr, x[index], or a tuple/list of targets; 0, or -1 with an error set. */
int ev_assign(Interp *I, Node *target, Value *v);
/* Gives the pending error the position of node n, unless a deeper node already gave one; NULL. */
Value *ev_at(Interp *I, Node *n);
/* Binds name in the current scope (the globals outside a function); takes v (a new reference). */
void ev_set_name(Interp *I, const char *name, Value *v);
/* "name 'Q' is not defined" with the closest defined name, if one is close; NULL. */
Value *ev_name_error(Interp *I, const char *name);
/* The truth of v as a condition (if, while, and, or, not ...) at where: true with *out, false with the error set. */
bool ev_truthy(Interp *I, Value *v, Node *where, bool *out);
/* One level on the depth counter for node n (each eval and exec counts one while it runs; the caller gives it back
 * with I->depth-- when true); false with Python's RecursionError. */
bool ev_deeper(Interp *I, Node *n);

#endif

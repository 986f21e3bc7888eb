/* eval_internal.h - what eval.c (expressions) gives exec.c (statements); nothing else uses it. */
#ifndef ATTN_EVAL_INTERNAL_H
#define ATTN_EVAL_INTERNAL_H
#include "interp.h"

Value *eval(Interp *I, Node *n);                    /* an expression: new reference, NULL with an error set (with its position) */
int assign(Interp *I, Node *target, Value *v);      /* binds v (borrowed) to a name, x.attr, x[i] or a tuple of targets */
Value *at(Interp *I, Node *n);                      /* gives the pending error n's position (unless a deeper node did); NULL */
void set_name(Interp *I, const char *name, Value *v);   /* binds name in the current scope (v: a new reference, taken) */
Value *name_error(Interp *I, const char *name);     /* "name 'Q' is not defined", with the closest defined name; NULL */
bool truthy(Interp *I, Value *v, Node *where, bool *out);   /* the truth of v for an if or while at where; false on error */
/* One level on the depth counter for a node (each eval and exec counts one while it runs); false with RecursionError
 * (the caller gives the level back with I->depth-- when true). */
bool deeper(Interp *I, Node *n);

#endif

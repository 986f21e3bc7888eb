/* lang_internal.h - what the evaluator's files (eval.c, call.c) share; nothing outside src/lang uses it. */
#ifndef ATTN_LANG_INTERNAL_H
#define ATTN_LANG_INTERNAL_H
#include "interp.h"

/* eval.c: one node, with the interpreter's scopes and signals. */
Value *interp_eval(Interp *I, Node *n);                 /* an expression: new reference, NULL with an error set */
int interp_exec_body(Interp *I, Node *body);             /* a block of statements: 0, or -1 with an error set */
int interp_assign(Interp *I, Node *target, Value *v);    /* binds v (borrowed) to a target; 0 or -1 */

/* call.c */
Value *eval_call(Interp *I, Node *n);                    /* an N_CALL node */
Value *make_function(Interp *I, Node *def, const char *name);   /* def or lambda: its defaults evaluated now */
/* eval.c: "did you mean": offer names one by one; best is the closest within 2 edits (NULL when none is). */
typedef struct Suggest { const char *want, *best; int bestd; } Suggest;
void suggest_init(Suggest *s, const char *want);
void suggest_offer(void *s, const char *name);           /* fits ops_attr_names' callback */
#endif

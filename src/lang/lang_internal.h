/* lang_internal.h - what the files of src/lang share among themselves; nothing outside src/lang uses it. */
#ifndef ATTN_LANG_INTERNAL_H
#define ATTN_LANG_INTERNAL_H
#include "interp.h"

/* value.c, set.c: how many times one dict or set search starts again after a student's __eq__ changed the table
 * under it, before it stops with a RuntimeError (an __eq__ that rebuilds the table at each comparison never ends). */
#define PROBE_RESTARTS 1000

/* eval.c: one node, with the interpreter's scopes and signals. */
Value *interp_eval(Interp *I, Node *n);                 /* an expression: new reference, NULL with an error set */
int interp_exec_body(Interp *I, Node *body);             /* a block of statements: 0, or -1 with an error set */
int interp_assign(Interp *I, Node *target, Value *v);    /* binds v (borrowed) to a target; 0 or -1 */

/* eval.c: a scope's lifetime. scope_close releases the variables (cycles a closure makes with the scope it
 * captured are freed by the cycle collector, val_collect_cycles). */
void scope_open(ValHeap *heap, Scope *s, Scope *parent, bool is_class);
void scope_close(Scope *s);

/* call.c */
Value *eval_call(Interp *I, Node *n);                    /* an N_CALL node */
Value *make_function(Interp *I, Node *def, const char *name);
Value *interp_genexpr_next(Interp *I, Value *gen);       /* eval.c: a generator expression's next item (ops.c calls it) */   /* def or lambda: its defaults evaluated now */
/* eval.c: "did you mean": offer names one by one; best is the closest within 2 edits (NULL when none is). */
typedef struct Suggest { const char *want, *best; int bestd; } Suggest;
void suggest_init(Suggest *s, const char *want);
void suggest_offer(void *s, const char *name);           /* fits ops_attr_names' callback */

/* ops.c: "<what> has no attribute 'name'", with the closest of obj's attribute names when one is close */
Value *ops_no_attribute(Interp *I, const Value *obj, const char *what, const char *name);

/* classes.c: the class statement, instances, attributes of classes and objects */
Value *class_create(Interp *I, Node *n);                 /* runs a class body; the new class, NULL with an error set */
Value *class_call(Interp *I, Value *cls, Args *a);       /* an instance, after its __init__ */
Value *class_getattr(Interp *I, Value *cls, const char *name);
int class_setattr(Interp *I, Value *cls, const char *name, Value *v);
/* a == b where a or b is an instance of a student's class (class_is_instance), as class_richcompare's ==: true
 * with *eq the truth of what __eq__ returned (identity when neither class defines it); false when it raised or
 * returned an ambiguous tensor, the error set on I. */
bool class_eq(Interp *I, const Value *a, const Value *b, bool *eq);
/* Whether v is an instance of a student's class (whose special methods take part in operators). */
bool class_is_instance(const Value *v);
/* a OP b (==, !=, <, <=, >, >=) where a or b is an instance of a student's class, as CPython's do_richcompare: b's
 * reflected method first when b's class is a proper subclass of a's, then a's method, then b's reflected one (a < b
 * tries b.__gt__(a)); a missing method or one returning NotImplemented passes on; != defaults to the inverse of
 * __eq__; at the end == and != compare identity and orderings raise TypeError. The result as the method returned
 * it (new reference), NULL with the error set. */
Value *class_richcompare(Interp *I, int aop, const Value *a, const Value *b);
/* a OP b (+, -, *, /, //, %, **, @, &, |, ^, <<, >>) where a or b is such an instance, as CPython's binary_op1:
 * __add__, then the other's __radd__ (first when its class is a subclass overriding it; never for two of the same
 * class); inplace (a += b) tries __iadd__ first. NULL with Python's TypeError when every one is NotImplemented. */
Value *class_binary(Interp *I, int aop, const Value *a, const Value *b, bool inplace);
Value *class_unary(Interp *I, int aop, const Value *a);       /* -a, +a, ~a: __neg__, __pos__, __invert__ */
/* How an instance of a student's class hashes: by its __hash__, by identity (its class defines neither __eq__ nor
 * __hash__), or not at all (__eq__ without __hash__, or __hash__ = None: Python's "unhashable type"). */
typedef enum { CLASS_HASH_METHOD, CLASS_HASH_IDENTITY, CLASS_UNHASHABLE } ClassHash;
/* hash(v) for such an instance: true with *kind, and *h when its __hash__ gave it; false when __hash__ raised or
 * returned no int (the error set on I). */
bool class_hash(Interp *I, const Value *v, ClassHash *kind, int64_t *h);
/* The truth of an instance of a student's class, as CPython's PyObject_IsTrue: its __bool__ (which must return a
 * bool: TypeError otherwise), else its __len__ (ValueError when negative, TypeError when not an int). true with
 * *defined (false when v is no such instance or its class defines neither) and, when defined, *out; false when it
 * raised (the error set on I). */
bool class_truth(Interp *I, const Value *v, bool *defined, bool *out);
/* len(v) for an instance of a student's class: true with *defined (false when its class defines no __len__) and,
 * when defined, *n from its __len__ (CPython's errors for a negative or non-int result); false when it raised (the
 * error set on I). */
bool class_len(Interp *I, const Value *v, bool *defined, int64_t *n);
/* Whether v is an instance of a student's class whose MRO defines the method name (a def): __getitem__, __iter__ ...
 * (what I added to an open class of attn's in that MRO counts: class_find) */
bool class_has_special(Interp *I, const Value *v, const char *name);
/* I's additions to cls (Interp.added), when cls is an open class of attn's (ClassInfo.open: d2l.Module, d2l.Trainer
 * ...): its namespace of what I set on cls (made, empty, when make and there is none yet); NULL when I is NULL, cls
 * is no open class of attn's, or I added nothing to it and !make. Borrowed: the interpreter's until interp_free
 * lets go of all of them (class_added_free). */
typedef struct ClassAdded ClassAdded;
Dict *class_added(Interp *I, const Value *cls, bool make);
void class_added_free(Interp *I);
/* v.name(*args) (n at most 2) for such a method: its result (new reference), NULL with the error set on I
 * (also when the class defines no such method, or I is NULL). v and the arguments are held while it runs. */
Value *class_call_special(Interp *I, const Value *v, const char *name, Value *const *args, int n);
/* v as an index through a student's __index__ (list[v], range(v), any integer argument): 1 with *out, 0 when v is
 * no instance of a class that defines it, -1 when it raised or returned no int (CPython's TypeError; the error set). */
int class_index(Interp *I, const Value *v, int64_t *out);
/* obj.name = v for any object, with nn.Module's rules when obj is a module; 0 or -1 with an error set */
int object_setattr(Interp *I, Value *obj, const char *name, Value *v);
/* value.c: dict_find_hashed's probe (value_eq.c compares dicts with it): the index of key among the keys of its
 * hash in *at (-1: absent); false when a comparison failed (the error set). */
bool dict_probe(struct Interp *I, const Dict *d, const Value *key, int64_t hash, int *at);

/* ops.c: autograd's part in operators, shared with ops_index.c and ops_attr.c. ag_records: whether an operation on
 * a (and b, may be NULL) records history (grad mode on, one of them requires grad); ag_value: a recorded result as a
 * value (NULL with the tensor error set when r has no tensor); ag_refuse: the refusal of an operation autograd cannot
 * differentiate yet (NULL, the error set). */
bool ag_records(Interp *I, const Value *a, const Value *b);
Value *ag_value(Interp *I, AgVal r);
Value *ag_refuse(Interp *I, const char *what);
/* ops_iter.c: whether v is one of attn's own iterators (ops_attr.c lists their names) */
bool builtin_iterator(const Value *v);

/* interp.c: frees an error record's traceback frames (eval.c's try drops a replaced error's) */
void frames_free(Error *e);

/* classes.c: calls what class_find found on obj's class (a builtin method, or a def bound to obj) with a; classes_ops.c
 * runs special methods through it. New reference, NULL with the error set. */
Value *call_found(Interp *I, Value *obj, const Found *f, Args *a);

/* classes.c: isinstance(v, ci) for one class or type ci (a V_CLASS or a V_BUILTIN type) */
bool class_isinstance(Interp *I, Value *v, Value *ci);

/* unbound.c: a method of an attn type read through the type (torch.Tensor.sum, nn.Module.parameters), called with the
 * instance first: fn bound to it as obj.name binds it. owner: the type (a V_CLASS or V_BUILTIN, held); qualname:
 * Python's __qualname__; c_owner: for a method PyTorch or Python writes in C, the type its descriptor names
 * ("torch._C._TensorBase", "str"), else NULL (a Python function). A new reference. */
Value *unbound_new(Interp *I, Value *owner, const Builtin *fn, const char *qualname, const char *c_owner);
/* type.name through the library's unbound_method: a new reference, or NULL without an error when type has no such
 * method */
Value *unbound_of_type(Interp *I, Value *type, const char *name);

#endif

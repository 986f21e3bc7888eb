/* pyexc.h - Python's exceptions (prefix pyexc_): the classes attn raises (ValueError, TypeError, KeyError,
 * IndexError, RuntimeError, RecursionError, NotImplementedError, ZeroDivisionError, OverflowError, NameError, AttributeError,
 * AssertionError, their bases Exception, ArithmeticError,
 * LookupError and BaseException), exception objects (e.args, str(e), repr(e)) and how try/except matches them.
 * An error in the one error channel (interp.h) carries its class name in Error.etype ("" when the failure has no
 * Python class of its own: it is caught as an Exception) and, when a raise statement made it, the object raised. */
#ifndef ATTN_PYEXC_H
#define ATTN_PYEXC_H
#include "interp.h"

/* ValueError(*args) ...: the builtin that every exception class is (its name is the class's) */
Value *pyexc_construct(Interp *I, Args *a);
/* Whether v is an exception class (the builtin ValueError ...): its name, else NULL */
const char *pyexc_class_name(const Value *v);
/* Whether v is an exception object: its class name (for an instance of a student's exception class, the name of
 * the nearest builtin class it derives from: "Exception" for class MyError(Exception)), else NULL */
const char *pyexc_object_name(const Value *v);
/* The class a student's exception class derives from when it names the builtin `name` as a base: a V_CLASS twin
 * of that builtin (borrowed, made once), with Python's hierarchy above it; NULL for an unknown name. */
Value *pyexc_class(const char *name);
void pyexc_classes_open(void);                   /* makes them: once, from classes_open */
/* Whether cls (a V_CLASS) derives from an exception class: the nearest builtin one's name, else NULL */
const char *pyexc_class_base(const Value *cls);
/* repr(e): ValueError('no'), MyError('x', 2); its arguments' reprs run on I as a repr hook's parts (val_repr_part) */
struct Interp;
void pyexc_repr(struct Interp *I, StrBuf *out, const Value *e);
/* A new exception object of class name (one of the names above; "Exception" for an unknown one) with one
 * argument msg (none when msg is NULL) */
Value *pyexc_new(ValHeap *heap, const char *name, const char *msg);
/* Gives the pending error that attn raised in its own words (rt_raise: "key 5 is not in the dict") the object
 * Python would raise, of its class with args (arg,), so that `except KeyError as e` sees e.args[0] and str(e) as
 * in Python (KeyError(5): '5') while an uncaught one still shows attn's words; arg NULL: no arguments (str(e) is
 * '', as a bare `raise NotImplementedError`). Nothing when no such error is pending or it already has its object. */
void pyexc_set_arg(Interp *I, const Value *arg);
/* Whether class raised is handler or derives from it ("" raised: an Exception) */
bool pyexc_matches(const char *raised, const char *handler);
/* str(e): its one argument as str() shows it, repr of the tuple for several, "" for none (KeyError: repr); as
 * pyexc_repr */
void pyexc_str(struct Interp *I, StrBuf *out, const Value *e);
#endif

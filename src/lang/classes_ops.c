/* classes_ops.c - operators on instances of a student's class, as CPython runs their special methods: __eq__ and
 * __hash__, rich comparisons (do_richcompare), arithmetic and its reflected and in-place forms (binary_op1), unary
 * operators, and truth (__bool__, __len__). */
#include "lang_internal.h"
#include "pyexc.h"
#include "library.h"
#include "ops.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- __eq__ and __hash__ ---- */

/* Whether v is an instance of a student's class whose MRO defines name (a def, or None for __hash__ = None). */
static bool user_special(Interp *I, const Value *v, const char *name, Found *f) {
    if (v->kind != V_OBJECT || !v->u.obj.klass || !v->u.obj.klass->u.cls->user) return false;
    return class_find(I, v->u.obj.klass, name, NULL, f) && !f->b && (f->v->kind == V_FUNC || f->v->kind == V_NONE);
}

/* Calls obj's special method (found as f) with the arguments on I; the result, NULL with the error set on I (also
 * when I has an error pending already, or none is given: no student code runs then). */
static Value *call_special(Interp *I, Value *obj, const Found *f, Value *arg) {
    if (!I || interp_failed(I)) return NULL;
    Args a = {&arg, arg ? 1 : 0, NULL, NULL, 0, NULL, NULL};
    return call_found(I, obj, f, &a);
}

bool class_is_instance(const Value *v) {
    return v->kind == V_OBJECT && v->u.obj.klass && v->u.obj.klass->u.cls->user;
}

/* Whether b's class is a proper subclass of a's (both the student's): b's reflected method then goes first. */
static bool proper_subclass(const Value *b, const Value *a) {
    if (!class_is_instance(a) || !class_is_instance(b) || a->u.obj.klass == b->u.obj.klass) return false;
    ClassInfo *cb = b->u.obj.klass->u.cls;
    for (int i = 0; i < cb->nmro; i++) if (cb->mro[i] == a->u.obj.klass) return true;
    return false;
}

/* self.name(other) when self is an instance of a student's class that defines name: its result (new reference);
 * NotImplemented when self does not define it (or is no such instance); NULL when it raised (the error is set on
 * I). Both operands are held while the method runs. */
static Value *try_special(Interp *I, const Value *self, const char *name, const Value *other) {
    Found f = {0};
    if (!user_special(I, self, name, &f) || f.v->kind != V_FUNC) return val_notimplemented();
    Value *hold_self = val_incref((Value *)self), *hold_other = val_incref((Value *)other);
    Value *r = call_special(I, hold_self, &f, hold_other);
    val_decref(hold_self);
    val_decref(hold_other);
    return r;
}

/* The function v's class defines as name, NULL when none (or v is no instance of a student's class). */
static const Value *special_fn(Interp *I, const Value *v, const char *name) {
    Found f = {0};
    return user_special(I, v, name, &f) && f.v->kind == V_FUNC ? f.v : NULL;
}

bool class_has_special(Interp *I, const Value *v, const char *name) { return special_fn(I, v, name) != NULL; }

Value *class_call_special(Interp *I, const Value *v, const char *name, Value *const *args, int n) {
    Found f = {0};
    if (!user_special(I, v, name, &f) || f.v->kind != V_FUNC) return NULL;
    if (!I || interp_failed(I)) return NULL;
    Value *hold[3] = {NULL, NULL, NULL};
    for (int i = 0; i < n && i < 2; i++) hold[i] = val_incref(args[i]);
    hold[2] = val_incref((Value *)v);
    Args a = {hold, n < 2 ? n : 2, NULL, NULL, 0, NULL, NULL};
    Value *r = call_found(I, hold[2], &f, &a);
    for (int i = 0; i < 3; i++) val_decref(hold[i]);
    return r;
}

int class_index(Interp *I, const Value *v, int64_t *out) {
    if (!class_has_special(I, v, "__index__")) return 0;
    Value *r = class_call_special(I, v, "__index__", NULL, 0);
    if (!r) return -1;
    bool ok = r->kind == V_INT || r->kind == V_BOOL;
    if (ok) *out = r->kind == V_INT ? r->u.i : r->u.b;
    else rt_raise(I, "TypeError", "__index__ returned non-int (type %s)", val_type_name(r));
    val_decref(r);
    return ok ? 1 : -1;
}

/* ---- rich comparisons (CPython's do_richcompare) ---- */

static const char *const cmp_names[] = {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"};   /* by aop - AOP_EQ */
static const int cmp_reflected[] = {0, 1, 4, 5, 2, 3};         /* a < b is b > a ... */

static bool result_truth(Interp *I, const Value *r, const char *who, bool *t);

/* self's method for comparison k (aop - AOP_EQ), with object's __ne__ when the class defines none: the inverse of
 * __eq__'s truth unless that is NotImplemented. New reference, NotImplemented, or NULL with the error set. */
static Value *side_compare(Interp *I, const Value *self, int k, const Value *other) {
    if (k != 1 || special_fn(I, self, "__ne__")) return try_special(I, self, cmp_names[k], other);
    Value *r = try_special(I, self, "__eq__", other);
    if (!r || r == &val_not_implemented) return r;
    bool t = false, ok = result_truth(I, r, NULL, &t);
    val_decref(r);
    return ok ? val_bool(I->run.heap, !t) : NULL;
}

Value *class_richcompare(Interp *I, int aop, const Value *a, const Value *b) {
    int k = aop - AOP_EQ;
    bool reflected_first = proper_subclass(b, a);
    Value *r;
    if (reflected_first) {
        r = side_compare(I, b, cmp_reflected[k], a);
        if (r != &val_not_implemented) return r;
        val_decref(r);
    }
    r = side_compare(I, a, k, b);
    if (r != &val_not_implemented) return r;
    val_decref(r);
    if (!reflected_first) {
        r = side_compare(I, b, cmp_reflected[k], a);
        if (r != &val_not_implemented) return r;
        val_decref(r);
    }
    if (k == 0 || k == 1) return val_bool(I->run.heap, (a == b) == (k == 0));       /* == and != fall back to identity */
    return rt_raise(I, "TypeError", "'%s' not supported between instances of '%s' and '%s'", ast_op_symbol(aop),
                    val_type_name(a), val_type_name(b));
}

bool class_eq(Interp *I, const Value *a, const Value *b, bool *eq) {
    const Value *self = class_is_instance(a) ? a : b;
    if (!I) { *eq = a == b; return true; }      /* no interpreter to run __eq__ on: identity */
    Value *r = class_richcompare(I, AOP_EQ, a, b);
    if (!r) return false;
    char who[96];
    snprintf(who, sizeof who, "%s.__eq__", self->u.obj.klass->u.cls->name);
    bool ok = result_truth(I, r, who, eq);
    val_decref(r);
    return ok;
}

/* ---- arithmetic (CPython's binary_op1) ---- */

static const char *const bin_names[][3] = {      /* by aop: the method, the reflected one, the in-place one */
    [AOP_ADD] = {"__add__", "__radd__", "__iadd__"}, [AOP_SUB] = {"__sub__", "__rsub__", "__isub__"},
    [AOP_MUL] = {"__mul__", "__rmul__", "__imul__"}, [AOP_DIV] = {"__truediv__", "__rtruediv__", "__itruediv__"},
    [AOP_FLOORDIV] = {"__floordiv__", "__rfloordiv__", "__ifloordiv__"}, [AOP_MOD] = {"__mod__", "__rmod__", "__imod__"},
    [AOP_POW] = {"__pow__", "__rpow__", "__ipow__"}, [AOP_MATMUL] = {"__matmul__", "__rmatmul__", "__imatmul__"},
    [AOP_BITAND] = {"__and__", "__rand__", "__iand__"}, [AOP_BITOR] = {"__or__", "__ror__", "__ior__"},
    [AOP_BITXOR] = {"__xor__", "__rxor__", "__ixor__"}, [AOP_LSHIFT] = {"__lshift__", "__rlshift__", "__ilshift__"},
    [AOP_RSHIFT] = {"__rshift__", "__rrshift__", "__irshift__"}};

static bool is_sequence(const Value *v) { return v->kind == V_STR || v->kind == V_LIST || v->kind == V_TUPLE; }

/* s * k or k * s where neither side's __mul__/__rmul__ answered: CPython's sq_repeat, k through its __index__
 * ("ab" * I(2) is "abab"); without one, Python's "can't multiply sequence by non-int". */
static Value *repeat_by_index(Interp *I, const Value *a, const Value *b, bool inplace) {
    const Value *seq = is_sequence(a) ? a : is_sequence(b) ? b : NULL, *k = seq == a ? b : a;
    if (!seq) return rt_raise(I, "TypeError", "unsupported operand type(s) for *%s: '%s' and '%s'", inplace ? "=" : "", val_type_name(a), val_type_name(b));
    int64_t n;
    int got = class_index(I, k, &n);
    if (got < 0) return NULL;
    if (!got) return rt_raise(I, "TypeError", "can't multiply sequence by non-int of type '%s'", val_type_name(k));
    Value *kv = val_int(I->run.heap, n);
    Value *r = ops_binary(I, AOP_MUL, (Value *)seq, kv);
    val_decref(kv);
    return r;
}

Value *class_binary(Interp *I, int aop, const Value *a, const Value *b, bool inplace) {
    const char *fwd = bin_names[aop][0], *rev = bin_names[aop][1];
    Value *r;
    if (inplace) {
        r = try_special(I, a, bin_names[aop][2], b);
        if (r != &val_not_implemented) return r;
        val_decref(r);
    }
    /* b's reflected method first when b's class is a subclass of a's that overrides it */
    bool other_type = !class_is_instance(a) || !class_is_instance(b) || a->u.obj.klass != b->u.obj.klass;
    bool reflected_first = proper_subclass(b, a) && special_fn(I, b, rev) && special_fn(I, b, rev) != special_fn(I, a, rev);
    if (reflected_first) {
        r = try_special(I, b, rev, a);
        if (r != &val_not_implemented) return r;
        val_decref(r);
    }
    r = try_special(I, a, fwd, b);
    if (r != &val_not_implemented) return r;
    val_decref(r);
    if (other_type && !reflected_first) {
        r = try_special(I, b, rev, a);
        if (r != &val_not_implemented) return r;
        val_decref(r);
    }
    if (aop == AOP_MUL) return repeat_by_index(I, a, b, inplace);
    return rt_raise(I, "TypeError", "unsupported operand type(s) for %s%s: '%s' and '%s'", ast_op_symbol(aop),
                    inplace ? "=" : aop == AOP_POW ? " or pow()" : "", val_type_name(a), val_type_name(b));
}

Value *class_unary(Interp *I, int aop, const Value *a) {
    const char *name = aop == AOP_NEG ? "__neg__" : aop == AOP_POS ? "__pos__" : "__invert__";
    Value *r = try_special(I, a, name, NULL);
    if (r != &val_not_implemented) return r;
    val_decref(r);
    return rt_raise(I, "TypeError", "bad operand type for unary %s: '%s'", ast_op_symbol(aop), val_type_name(a));
}

bool class_hash(Interp *I, const Value *v, ClassHash *kind, int64_t *h) {
    Found f = {0};
    *kind = CLASS_HASH_IDENTITY;
    if (!user_special(I, v, "__hash__", &f)) return true;
    *kind = CLASS_UNHASHABLE;
    if (f.v->kind == V_NONE) return true;
    *kind = CLASS_HASH_METHOD;
    Value *hold = val_incref((Value *)v);
    Value *r = call_special(I, hold, &f, NULL);
    val_decref(hold);
    if (!r) return false;
    if (r->kind != V_INT && r->kind != V_BOOL) {
        rt_raise(I, "TypeError", "__hash__ method should return an integer");
        val_decref(r);
        return false;
    }
    *h = r->kind == V_INT ? r->u.i : r->u.b;  /* Python keeps an int that fits a hash as it is, but -1 */
    if (*h == -1) *h = -2;
    val_decref(r);
    return true;
}

/* What a __len__ returned as a length, with CPython's errors (a negative int, or no int). */
static bool len_result(Interp *I, const Value *r, int64_t *n) {
    if (r->kind != V_INT && r->kind != V_BOOL) {
        rt_raise(I, "TypeError", "'%s' object cannot be interpreted as an integer", val_type_name(r));
        return false;
    }
    *n = r->kind == V_INT ? r->u.i : r->u.b;
    if (*n < 0) { rt_raise(I, "ValueError", "__len__() should return >= 0"); return false; }
    return true;
}

bool class_truth(Interp *I, const Value *v, bool *defined, bool *out) {
    Found f = {0};
    *defined = false;
    if (!class_is_instance(v)) return true;
    const bool b = user_special(I, v, "__bool__", &f);
    if (!b && !user_special(I, v, "__len__", &f)) return true;
    if (f.v->kind == V_NONE) return true;
    *defined = true;
    Value *hold = val_incref((Value *)v);
    Value *r = call_special(I, hold, &f, NULL);
    val_decref(hold);
    if (!r) return false;
    bool ok = false;
    if (b) {
        if (r->kind == V_BOOL) { *out = r->u.b; ok = true; }
        else rt_raise(I, "TypeError", "__bool__ should return bool, returned %s", val_type_name(r));
    } else {
        int64_t n;
        if ((ok = len_result(I, r, &n))) *out = n != 0;
    }
    val_decref(r);
    return ok;
}

bool class_len(Interp *I, const Value *v, bool *defined, int64_t *n) {
    Found f = {0};
    *defined = false;
    if (!class_is_instance(v) || !user_special(I, v, "__len__", &f) || f.v->kind == V_NONE) return true;
    *defined = true;
    Value *hold = val_incref((Value *)v);
    Value *r = call_special(I, hold, &f, NULL);
    val_decref(hold);
    if (!r) return false;
    bool ok = len_result(I, r, n);
    val_decref(r);
    return ok;
}

/* The truth of what a student's comparison method returned (CPython's PyObject_IsTrue on it): a student's object's
 * __bool__/__len__ runs (and may raise), a tensor of one value gives it; true with *t, false with the error set
 * (several values: RuntimeError, ambiguous). who: what that message names (NULL: PyTorch's words). */
static bool result_truth(Interp *I, const Value *r, const char *who, bool *t) {
    bool defined;
    if (!class_truth(I, r, &defined, t)) return false;
    if (defined) return true;
    bool ok;
    *t = val_truthy(r, &ok);
    if (!ok && who) rt_raise(I, "RuntimeError", "%s returned a tensor of several values: its truth is ambiguous (use .all() or .any())", who);
    if (!ok && !who) rt_raise(I, "RuntimeError", "Boolean value of Tensor with more than one value is ambiguous");
    return ok;
}

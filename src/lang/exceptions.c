/* exceptions.c - Python's exception classes and objects, for raise and try/except (pyexc.h). A student's exception
 * class (class MyError(ValueError): ...) derives from a V_CLASS twin of the builtin (pyexc_class); its instances
 * are the student's objects, which pyexc_object_name names by their nearest builtin base, so that an error raised
 * with one is caught by except ValueError / except Exception, and by except MyError through its class. */
#include "pyexc.h"
#include <string.h>

/* The classes and their bases, Python's hierarchy (BaseException at the root): one list, expanded twice below. */
#define EXC_CLASSES(X) \
    X("BaseException", NULL) X("Exception", "BaseException") X("ArithmeticError", "Exception") \
    X("ZeroDivisionError", "ArithmeticError") X("OverflowError", "ArithmeticError") X("LookupError", "Exception") \
    X("KeyError", "LookupError") X("IndexError", "LookupError") X("ValueError", "Exception") X("TypeError", "Exception") \
    X("RuntimeError", "Exception") X("RecursionError", "RuntimeError") X("NotImplementedError", "RuntimeError") \
    X("NameError", "Exception") X("AttributeError", "Exception") X("AssertionError", "Exception") \
    X("MemoryError", "Exception") X("StopIteration", "Exception")
#define EXC_ENTRY(name, base) {name, base},
static const struct { const char *name, *base; } classes[] = {EXC_CLASSES(EXC_ENTRY)};
#define NCLASSES (int)(sizeof classes / sizeof classes[0])

static int class_index(const char *name) {
    for (int i = 0; i < NCLASSES; i++) if (!strcmp(classes[i].name, name)) return i;
    return -1;
}

void pyexc_str(Interp *I, StrBuf *out, const Value *e) {
    const Value *args = val_attr_get((Value *)e, "args");
    if (!args || args->kind != V_TUPLE || args->u.seq.n == 0) return;
    if (args->u.seq.n > 1) { val_repr_part(I, out, args, 0); return; }
    const char *name = pyexc_object_name(e);
    if (name && pyexc_matches(name, "KeyError")) val_repr_part(I, out, args->u.seq.items[0], 0);    /* KeyError('k'): 'k' */
    else val_str_part(I, out, args->u.seq.items[0]);
}

void pyexc_repr(Interp *I, StrBuf *out, const Value *self) {
    const Value *args = val_attr_get((Value *)self, "args");
    sb_puts(out, self->u.obj.klass ? self->u.obj.klass->u.cls->name : self->u.obj.cls->name);
    if (args && args->kind == V_TUPLE && args->u.seq.n == 1) {      /* ValueError('no'), not ValueError(('no',)) */
        sb_putc(out, '(');
        if (!val_repr_part(I, out, args->u.seq.items[0], 1)) return;
        sb_putc(out, ')');
    } else if (args && args->kind == V_TUPLE && args->u.seq.n) val_repr_part(I, out, args, 0);
    else sb_puts(out, "()");
}

static void exc_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    pyexc_repr(I, out, self);
}

static void exc_str(Interp *I, StrBuf *out, Value *self) { pyexc_str(I, out, self); }

/* The ObjClass of each exception's objects: constant, as the classes list */
#define EXC_OBJCLASS(n, base) {.name = n, .repr = exc_repr, .str = exc_str},
static const ObjClass objclasses[] = {EXC_CLASSES(EXC_OBJCLASS)};

static const ObjClass *objclass_of(int i) { return &objclasses[i]; }

const char *pyexc_class_name(const Value *v) {
    if (v->kind != V_BUILTIN || v->u.builtin->fn != pyexc_construct) return NULL;
    return v->u.builtin->name;
}

/* The V_CLASS twins of the builtin classes, which a student's class derives from: static types of the process as
 * object is (classes.c), all made by pyexc_classes_open (classes_open, under builtins_open's pthread_once) and never
 * written afterwards; NULL before. */
static Value *exc_classes[NCLASSES];

/* BaseException.__init__(self, *args): self.args, as Python keeps them */
static Value *m_exc_init(Interp *I, Args *a) {
    /* E.__init__(...) called through the class hands self over: it must be an exception object, as Python checks */
    if (a->npos < 1) return rt_raise(I, "TypeError", "descriptor '__init__' of 'BaseException' object needs an argument");
    if (!pyexc_object_name(a->pos[0]))
        return rt_raise(I, "TypeError", "descriptor '__init__' requires a 'BaseException' object but received a '%s'", val_type_name(a->pos[0]));
    /* by hand: an exception class's __init__ is shared by every class and named by self's (no declaration of its own) */
    if (a->nkw) return rt_raise(I, "TypeError", "%s() takes no keyword arguments", val_type_name(a->pos[0]));
    Value *args = val_tuple(I->run.heap, a->npos - 1);
    for (int k = 1; k < a->npos; k++) val_seq_set(args, k - 1, val_incref(a->pos[k]));
    val_attr_set(a->pos[0], "args", args);
    return val_none();
}

static const Builtin exc_methods[] = {
    {"__init__", m_exc_init, "BaseException.__init__(self, *args)", "Keeps the arguments in self.args (str(e) shows them).", "", 0, "BaseException"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

void pyexc_classes_open(void) {
    for (int i = 0; i < NCLASSES; i++) {         /* a base comes before the classes derived from it in the list */
        Value *base = classes[i].base ? exc_classes[class_index(classes[i].base)] : NULL;
        exc_classes[i] = class_new_builtin(classes[i].name, "builtins", base, i == 0 ? exc_methods : NULL, false);
        exc_classes[i]->u.cls->immutable = true;     /* ValueError.x = 1 is Python's TypeError */
    }
}

Value *pyexc_class(const char *name) {
    int i = class_index(name);
    return i < 0 ? NULL : exc_classes[i];
}

const char *pyexc_class_base(const Value *cls) {
    if (cls->kind != V_CLASS) return NULL;
    for (int k = 0; k < cls->u.cls->nmro; k++)
        for (int i = 0; i < NCLASSES; i++)
            if (exc_classes[i] && cls->u.cls->mro[k] == exc_classes[i]) return classes[i].name;
    return NULL;
}

const char *pyexc_object_name(const Value *v) {
    if (v->kind != V_OBJECT) return NULL;
    if (v->u.obj.klass) return pyexc_class_base(v->u.obj.klass);
    for (int i = 0; i < NCLASSES; i++) if (v->u.obj.cls == &objclasses[i]) return classes[i].name;
    return NULL;
}

static Value *exc_object(int i, Value *args) {
    Value *e = val_object(args->heap, objclass_of(i));
    val_attr_set(e, "args", args);
    val_attr_set(e, "__cause__", val_none());           /* raise ... from sets it */
    return e;
}

Value *pyexc_new(ValHeap *heap, const char *name, const char *msg) {
    int i = class_index(name);
    if (i < 0) i = class_index("Exception");
    if (msg && !*msg) msg = NULL;                  /* raised without words (a bare assert): args is () */
    Value *args = val_tuple(heap, msg ? 1 : 0);
    if (msg) val_seq_set(args, 0, val_str(heap, msg));
    return exc_object(i, args);
}

void pyexc_set_arg(Interp *I, const Value *arg) {
    int i = class_index(I->error.etype);
    if (I->error.kind != ERR_ERROR || I->error.exc || i < 0) return;
    Value *args = val_tuple(I->run.heap, arg ? 1 : 0);
    if (arg) val_seq_set(args, 0, val_incref((Value *)arg));
    I->error.exc = exc_object(i, args);
}

Value *pyexc_construct(Interp *I, Args *a) {
    Value *p[1];                                 /* declared "ValueError(*args)": named by the call (a->fname) */
    if (!args_bind(I, a, p, 1)) return NULL;
    int i = class_index(a->fn->name);
    Value *args = val_tuple(I->run.heap, a->npos);
    for (int k = 0; k < a->npos; k++) val_seq_set(args, k, val_incref(a->pos[k]));
    return exc_object(i < 0 ? 0 : i, args);
}

bool pyexc_matches(const char *raised, const char *handler) {
    int i = class_index(raised[0] ? raised : "Exception");
    while (i >= 0) {
        if (!strcmp(classes[i].name, handler)) return true;
        i = classes[i].base ? class_index(classes[i].base) : -1;
    }
    return false;
}

/* exceptions.c - Python's exception classes and objects, for raise and try/except (pyexc.h). */
#include "pyexc.h"
#include <string.h>

/* The classes and their bases, Python's hierarchy (BaseException at the root). */
static const struct { const char *name, *base; } classes[] = {
    {"BaseException", NULL}, {"Exception", "BaseException"}, {"ArithmeticError", "Exception"},
    {"ZeroDivisionError", "ArithmeticError"}, {"LookupError", "Exception"}, {"KeyError", "LookupError"},
    {"IndexError", "LookupError"}, {"ValueError", "Exception"}, {"TypeError", "Exception"},
    {"RuntimeError", "Exception"}, {"NameError", "Exception"}, {"AttributeError", "Exception"},
};
#define NCLASSES (int)(sizeof classes / sizeof classes[0])

static int class_index(const char *name) {
    for (int i = 0; i < NCLASSES; i++) if (!strcmp(classes[i].name, name)) return i;
    return -1;
}

void pyexc_str(StrBuf *out, const Value *e) {
    const Value *args = val_attr_get((Value *)e, "args");
    if (!args || args->kind != V_TUPLE || args->u.seq.n == 0) return;
    if (args->u.seq.n > 1) { val_repr(out, args); return; }
    if (!strcmp(e->u.obj.cls->name, "KeyError")) val_repr(out, args->u.seq.items[0]);    /* KeyError('k'): 'k' */
    else val_str_of(out, args->u.seq.items[0]);
}

static void exc_repr(StrBuf *out, Value *self, int depth) {
    (void)depth;
    const Value *args = val_attr_get(self, "args");
    sb_puts(out, self->u.obj.cls->name);
    if (args && args->kind == V_TUPLE && args->u.seq.n == 1) {      /* ValueError('no'), not ValueError(('no',)) */
        sb_putc(out, '(');
        val_repr(out, args->u.seq.items[0]);
        sb_putc(out, ')');
    } else if (args && args->kind == V_TUPLE && args->u.seq.n) val_repr(out, args);
    else sb_puts(out, "()");
}

static void exc_str(StrBuf *out, Value *self) { pyexc_str(out, self); }

static ObjClass objclasses[NCLASSES];

static const ObjClass *objclass_of(int i) {
    if (!objclasses[i].name) {
        objclasses[i].name = classes[i].name;
        objclasses[i].repr = exc_repr;
        objclasses[i].str = exc_str;
    }
    return &objclasses[i];
}

const char *pyexc_class_name(const Value *v) {
    if (v->kind != V_BUILTIN || v->u.builtin->fn != pyexc_construct) return NULL;
    return v->u.builtin->name;
}

const char *pyexc_object_name(const Value *v) {
    if (v->kind != V_OBJECT || v->u.obj.klass) return NULL;
    for (int i = 0; i < NCLASSES; i++) if (v->u.obj.cls == &objclasses[i]) return classes[i].name;
    return NULL;
}

static Value *exc_object(int i, Value *args) {
    Value *e = val_object(objclass_of(i));
    val_attr_set(e, "args", args);
    return e;
}

Value *pyexc_new(const char *name, const char *msg) {
    int i = class_index(name);
    if (i < 0) i = class_index("Exception");
    Value *args = val_tuple(msg ? 1 : 0);
    if (msg) val_seq_set(args, 0, val_str(msg));
    return exc_object(i, args);
}

Value *pyexc_construct(Interp *I, Args *a) {
    if (a->nkw) return rt_raise(I, "TypeError", "%s() takes no keyword arguments", a->fname);
    int i = class_index(a->fn->name);
    Value *args = val_tuple(a->npos);
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

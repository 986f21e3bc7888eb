/* unbound.c - a method of attn's own types read through the type: torch.Tensor.sum, str.upper, nn.Linear.forward,
 * nn.Module.parameters, torch.optim.SGD.step. Python gives a method descriptor for a method written in C (<method
 * 'sum' of 'torch._C._TensorBase' objects>) and a plain function for one PyTorch writes in Python (<function
 * Module.parameters at 0x...>); either is called with the instance first. attn's binds its table entry to that
 * instance as obj.name does (val_method) and calls the bound method, so its arguments are checked in one place. */
#include "lang_internal.h"
#include "library.h"
#include "ops.h"
#include <stdlib.h>
#include <string.h>

/* An unbound method's C state (u.obj.priv): the method, the type whose instances it takes (owned), and Python's
 * __qualname__ ("_TensorBase.sum", "Module.parameters") with, for a C method, the type its descriptor names. */
typedef struct Unbound {
    const Builtin *fn;
    Value *owner;            /* a V_CLASS (torch.Tensor, nn.Module) or a V_BUILTIN type (str, nn.Linear) */
    char *qualname;
    char *c_owner;           /* "torch._C._TensorBase", "str"; NULL for a Python function */
    bool slot;               /* a special method of a Python type (BaseException.__init__): a slot wrapper */
} Unbound;

static void unbound_free(void *priv) {
    Unbound *u = priv;
    val_decref(u->owner);
    free(u->qualname);
    free(u->c_owner);
    free(u);
}

/* <method 'sum' of 'torch._C._TensorBase' objects>, <function Module.parameters at 0x...> (the object's address) */
static void unbound_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)I;
    (void)depth;
    const Unbound *u = self->u.obj.priv;
    if (u->c_owner) sb_printf(out, "<%s '%s' of '%s' objects>", u->slot ? "slot wrapper" : "method", u->fn->name, u->c_owner);
    else sb_printf(out, "<function %s at %p>", u->qualname, (void *)self);
}

static Value *unbound_getattr(Interp *I, Value *self, const char *name) {
    const Unbound *u = self->u.obj.priv;
    if (!strcmp(name, "__name__")) return val_str(I->run.heap, u->fn->name);
    if (!strcmp(name, "__qualname__")) return val_str(I->run.heap, u->qualname);
    if (!strcmp(name, "__objclass__") && u->c_owner) return val_incref(u->owner);
    return ops_object_getattr(I, self, name);
}

/* T.name(obj, *args, **kw): obj.name(*args, **kw) when obj is a T (Python's TypeError otherwise) */
static Value *unbound_call(Interp *I, Value *self, Args *a) {
    const Unbound *u = self->u.obj.priv;
    if (a->npos < 1) {
        if (u->slot) return rt_raise(I, "TypeError", "descriptor '%s' of '%s' object needs an argument", u->fn->name, u->c_owner);
        if (u->c_owner) return rt_raise(I, "TypeError", "unbound method %s() needs an argument", u->qualname);
        return rt_raise(I, "TypeError", "%s() missing 1 required positional argument: 'self'", u->qualname);
    }
    Value *obj = a->pos[0];
    if (!class_isinstance(I, obj, u->owner)) {
        if (u->slot)
            return rt_raise(I, "TypeError", "descriptor '%s' requires a '%s' object but received a '%s'", u->fn->name, u->c_owner,
                            val_type_name(obj));
        if (u->c_owner)
            return rt_raise(I, "TypeError", "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", u->fn->name,
                            u->c_owner, val_type_name(obj));
        return rt_raise(I, "TypeError", "%s() takes its own class's objects first in attn, not a '%s'", u->qualname, val_type_name(obj));
    }
    Value *m = val_method(I->run.heap, obj, u->fn);
    Args rest = *a;
    rest.pos++;
    rest.npos--;
    Value *r = interp_call(I, m, &rest);
    val_decref(m);
    return r;
}

static const ObjClass MethodDescriptorClass = {.name = "method_descriptor", .call = unbound_call, .repr = unbound_repr,
                                               .getattr = unbound_getattr, .free_priv = unbound_free};
static const ObjClass FunctionClass = {.name = "function", .call = unbound_call, .repr = unbound_repr,
                                       .getattr = unbound_getattr, .free_priv = unbound_free};

Value *unbound_new(Interp *I, Value *owner, const Builtin *fn, const char *qualname, const char *c_owner) {
    Value *v = val_object(I->run.heap, c_owner ? &MethodDescriptorClass : &FunctionClass);
    Unbound *u = xcalloc(1, sizeof *u);
    u->fn = fn;
    u->owner = val_incref(owner);
    u->qualname = xstrdup(qualname);
    u->c_owner = c_owner ? xstrdup(c_owner) : NULL;
    size_t n = strlen(fn->name);     /* Python's types' special methods; torch.Tensor's are methods (its __add__) */
    u->slot = c_owner && strcmp(c_owner, "torch._C._TensorBase") && n > 4 && !strncmp(fn->name, "__", 2) && !strcmp(fn->name + n - 2, "__");
    v->u.obj.priv = u;
    return v;
}

Value *unbound_of_type(Interp *I, Value *type, const char *name) {
    StrBuf q;
    sb_init(&q);
    const char *c_owner = NULL;
    const Builtin *fn = lib()->unbound_method ? lib()->unbound_method(type, name, &q, &c_owner) : NULL;
    Value *v = fn ? unbound_new(I, type, fn, sb_str(&q), c_owner) : NULL;
    sb_free(&q);
    return v;
}

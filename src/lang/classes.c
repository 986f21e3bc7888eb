/* classes.c - the class statement and what classes and their instances do, as Python does it for the book's code:
 * the C3 method resolution order, instances made by calling the class (then __init__), attribute lookup (a
 * property, the instance's own attributes, then the classes in MRO order, whose methods bind to the instance),
 * super(), property, staticmethod and classmethod. An instance of a class derived from nn.Module is a module: it
 * is called through forward, prints as PyTorch prints a module tree, and its attributes obey nn.Module's rules.
 * Operators on instances (__eq__, __add__, ...) are classes_ops.c's. */
#include "lang_internal.h"
#include "pyexc.h"
#include "library.h"
#include "ops.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ObjClass PropertyClass, StaticMethodClass, ClassMethodClass, SuperClass;
static int plain_setattr(Interp *I, Value *obj, const char *name, Value *v);
const ObjClass UserObjectClass;

/* ---- building classes ---- */

static Value *new_class(ValHeap *heap, const char *name, const char *module_name) {
    Value *v = val_new(heap, V_CLASS);
    v->u.cls = xcalloc(1, sizeof(ClassInfo));
    v->u.cls->attrs.heap = heap;
    v->u.cls->name = xstrdup(name);
    v->u.cls->module_name = module_name;
    return v;
}

/* C3 linearisation: the class, then a merge of its bases' MROs and the list of bases. false when no consistent
 * order exists (class C(A, B) where B must come before A). */
static bool c3_mro(Value *cls) {
    ClassInfo *c = cls->u.cls;
    int nl = c->nbases + 1, total = 1;
    Value ***lists = xcalloc((size_t)nl, sizeof *lists);
    int *len = xcalloc((size_t)nl, sizeof *len), *pos = xcalloc((size_t)nl, sizeof *pos);
    for (int i = 0; i < c->nbases; i++) {
        lists[i] = c->bases[i]->u.cls->mro;
        len[i] = c->bases[i]->u.cls->nmro;
        total += len[i];
    }
    lists[c->nbases] = c->bases;
    len[c->nbases] = c->nbases;
    c->mro = xcalloc((size_t)total, sizeof(Value *));
    c->mro[c->nmro++] = cls;
    bool ok = true;
    for (;;) {
        Value *head = NULL;
        bool any = false;
        for (int i = 0; i < nl && !head; i++) {
            if (pos[i] >= len[i]) continue;
            any = true;
            Value *cand = lists[i][pos[i]];
            bool in_tail = false;
            for (int j = 0; j < nl && !in_tail; j++)
                for (int k = pos[j] + 1; k < len[j]; k++) if (lists[j][k] == cand) { in_tail = true; break; }
            if (!in_tail) head = cand;
        }
        if (!any) break;
        if (!head) { ok = false; break; }
        c->mro[c->nmro++] = head;
        for (int i = 0; i < nl; i++) if (pos[i] < len[i] && lists[i][pos[i]] == head) pos[i]++;
    }
    free(lists);
    free(len);
    free(pos);
    return ok;
}

/* Python's object: CPython's model, a static type of the process, not a per-interpreter one (values cross
 * interpreters: a lesson begun at the prompt, an answer checked in its own interpreter, and type(x) == torch.Tensor
 * and isinstance must hold across them). Made by classes_open under builtins_open's pthread_once, before any
 * interpreter exists; immortal and never written afterwards (class_setattr refuses, as Python's object.x = 1). */
static Value *object_class;

static Value *m_object_init(Interp *I, Args *a) {
    /* by hand: CPython names the student's class, not object.__init__, in this error */
    if (a->npos > 1 || a->nkw > 0) return rt_raise(I, "TypeError", "%s() takes no arguments", val_type_name(a->pos[0]));
    return val_none();
}

/* object.__setattr__(self, name, value): what super().__setattr__(name, value) reaches from a student's __setattr__ */
static Value *m_object_setattr(Interp *I, Args *a) {
    /* by hand: CPython's slot wrapper counts keywords with the arguments and names no function */
    if (a->npos != 3 || a->nkw) return rt_raise(I, "TypeError", "expected 2 arguments, got %d", a->npos - 1 + a->nkw);
    if (a->pos[1]->kind != V_STR) return rt_raise(I, "TypeError", "attribute name must be string, not '%s'", val_type_name(a->pos[1]));
    Value *self = a->pos[0];
    int rc = class_is_instance(self) ? plain_setattr(I, self, a->pos[1]->u.str.s, a->pos[2]) : ops_setattr(I, self, a->pos[1]->u.str.s, a->pos[2]);
    return rc < 0 ? NULL : val_none();
}

static const Builtin object_methods[] = {
    {"__init__", m_object_init, "object.__init__(self)", "Does nothing.", "", 0, "object"},
    {"__setattr__", m_object_setattr, "object.__setattr__(self, name, value)", "Sets the attribute as plain assignment does.", "", 0, "object"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

void classes_open(void) {
    object_class = new_class(NULL, "object", "builtins");
    object_class->u.cls->methods = object_methods;
    object_class->u.cls->immutable = true;
    c3_mro(object_class);
    pyexc_classes_open();
}

Value *class_object(void) { return object_class; }

Value *class_new_builtin(const char *name, const char *module_name, Value *base, const Builtin *methods, bool is_module) {
    Value *v = new_class(NULL, name, module_name);   /* immortal: made once for the program */
    ClassInfo *c = v->u.cls;
    c->bases = xmalloc(sizeof(Value *));
    c->bases[0] = val_incref(base ? base : class_object());
    c->nbases = 1;
    c->methods = methods;
    c->is_module = is_module;
    c3_mro(v);
    return v;
}

Value *class_new_transient(ValHeap *heap, const char *name, const char *module_name) {
    Value *v = new_class(heap, name, module_name);
    v->u.cls->bases = xmalloc(sizeof(Value *));
    v->u.cls->bases[0] = val_incref(class_object());
    v->u.cls->nbases = 1;
    c3_mro(v);
    return v;
}

bool class_is_subclass(const Value *c, const Value *base) {
    for (int i = 0; i < c->u.cls->nmro; i++) if (c->u.cls->mro[i] == base) return true;
    return false;
}

/* ---- lookup ---- */

static const Builtin *find_builtin(const Builtin *t, const char *name) {
    for (; t && t->name; t++) if (!strcmp(t->name, name)) return t;
    return NULL;
}

/* ---- what an interpreter adds to attn's open classes ---- */

/* One interpreter's additions to one of attn's open classes (d2l.Module, d2l.Trainer ...: ClassInfo.open), as
 * Python's: each interpreter imports its own d2l, so what @d2l.add_to_class(d2l.Trainer) or d2l.Module.flag = None
 * puts there is that interpreter's alone. The classes themselves are static, shared by every interpreter of the
 * process (registry.c's builtin_classes_open) and never written; Interp.added holds one of these per class an
 * interpreter added to, read before the class's own namespace. */
struct ClassAdded {
    Value *cls;              /* the open class (immortal: borrowed) */
    Dict attrs;              /* what this interpreter set on it, its values and keys in the interpreter's heap */
};

Dict *class_added(Interp *I, const Value *cls, bool make) {
    if (!I || cls->kind != V_CLASS || !cls->u.cls->open || cls->u.cls->user) return NULL;
    for (int i = 0; i < I->nadded; i++) if (I->added[i].cls == cls) return &I->added[i].attrs;
    if (!make) return NULL;
    I->added = xrealloc(I->added, (size_t)(I->nadded + 1) * sizeof *I->added);
    ClassAdded *a = &I->added[I->nadded++];
    memset(a, 0, sizeof *a);
    a->cls = (Value *)cls;
    a->attrs.heap = I->run.heap;
    return &a->attrs;
}

void class_added_free(Interp *I) {
    for (int i = 0; i < I->nadded; i++) dict_free(&I->added[i].attrs);
    free(I->added);
    I->added = NULL;
    I->nadded = 0;
}

/* Finds name in the classes of cls's MRO after `after` (from the start when NULL): what I added to the class (an
 * open one of attn's: class_added), else a value of its namespace, else a method of one of attn's classes. *where
 * is the class it was found in. Borrowed. I NULL: the classes' own namespaces only. */
bool class_find(Interp *I, Value *cls, const char *name, Value *after, Found *out) {
    ClassInfo *c = cls->u.cls;
    int i = 0;
    if (after) {
        while (i < c->nmro && c->mro[i] != after) i++;
        i++;
    }
    for (; i < c->nmro; i++) {
        ClassInfo *k = c->mro[i]->u.cls;
        Dict *added = class_added(I, c->mro[i], false);
        Value *v = added ? dict_get(added, name) : NULL;
        if (!v) v = dict_get(&k->attrs, name);
        const Builtin *b = v ? NULL : find_builtin(k->methods, name);
        if (v || b) { out->v = v; out->b = b; out->where = c->mro[i]; return true; }
    }
    return false;
}

/* What a name found in a class means when read through obj (an instance) or through the class (obj NULL). */
static Value *bind(Interp *I, Value *obj, Value *cls, const Found *f) {
    if (f->b && obj) return val_method(I->run.heap, obj, f->b);
    if (f->b) {          /* nn.Module.parameters: a function (PyTorch writes the class in Python); a C type's descriptor */
        const ClassInfo *w = f->where->u.cls;
        StrBuf q;
        sb_init(&q);
        sb_printf(&q, "%s.%s", w->name, f->b->name);
        Value *u = unbound_new(I, f->where, f->b, sb_str(&q), w->immutable ? w->name : NULL);
        sb_free(&q);
        return u;
    }
    Value *v = f->v;
    if (v->kind == V_FUNC) return obj ? val_bound(I->run.heap, obj, v, f->where) : val_incref(v);
    if (v->kind == V_OBJECT && v->u.obj.cls == &StaticMethodClass) return val_incref(val_attr_get(v, "__func__"));
    if (v->kind == V_OBJECT && v->u.obj.cls == &ClassMethodClass) return val_bound(I->run.heap, cls, val_attr_get(v, "__func__"), f->where);
    if (v->kind == V_OBJECT && v->u.obj.cls == &PropertyClass && obj) {
        Value *get = val_attr_get(v, "fget");
        if (!get || get->kind == V_NONE) return rt_error(I, "property of '%s' object has no getter", val_type_name(obj));
        Args a = {&obj, 1, NULL, NULL, 0, NULL, NULL};
        return interp_call(I, get, &a);
    }
    return val_incref(v);
}

static bool is_property(const Found *f) {
    return f->v && f->v->kind == V_OBJECT && f->v->u.obj.cls == &PropertyClass;
}

/* obj.name for an instance of a student's class: a property first, then the instance's attributes, then the
 * classes (methods bound to obj). */
/* obj.__getattr__(name) of a student's class, when it defines one and name is no special name; NULL with
 * *tried false otherwise. */
static Value *student_getattr(Interp *I, Value *obj, const char *name, bool *tried) {
    *tried = strncmp(name, "__", 2) && class_has_special(I, obj, "__getattr__");
    if (!*tried) return NULL;
    Value *nv = val_str(I->run.heap, name), *r = class_call_special(I, obj, "__getattr__", &nv, 1);
    val_decref(nv);
    return r;
}

static Value *instance_getattr(Interp *I, Value *obj, const char *name) {
    Value *cls = obj->u.obj.klass;
    Found f = {0};
    bool in_class = class_find(I, cls, name, NULL, &f), tried;
    if (in_class && is_property(&f)) {
        Value *r = bind(I, obj, cls, &f);
        /* a property that raised AttributeError: Python's __getattr__ answers then too */
        if (r || interp_error_kind(I) != ERR_ERROR || !pyexc_matches(I->error.etype, "AttributeError") ||
            strncmp(name, "__", 2) == 0 || !class_has_special(I, obj, "__getattr__")) return r;
        interp_clear_error(I);
        return student_getattr(I, obj, name, &tried);
    }
    Value *own = val_attr_get(obj, name);
    if (own) return val_incref(own);
    if (in_class) return bind(I, obj, cls, &f);
    if (!strcmp(name, "__class__")) return val_incref(cls);
    if (!strcmp(name, "__dict__")) {
        Value *d = val_dict(I->run.heap);
        for (int i = 0; i < obj->u.obj.attrs.n; i++) dict_set(d->u.dict, obj->u.obj.attrs.keys[i]->u.str.s, val_incref(obj->u.obj.attrs.vals[i]));
        return d;
    }
    /* a student's __getattr__(name) answers for what is not found (not for special names: attn looks those up on
     * the class, as Python does) */
    Value *r = student_getattr(I, obj, name, &tried);
    if (tried) return r;
    char what[160];
    snprintf(what, sizeof what, "'%s' object", cls->u.cls->name);
    return ops_no_attribute(I, obj, what, name);
}

/* Assignment to an attribute of any object, with nn.Module's rules for modules: a module or a Parameter only after
 * Module.__init__() ran, a child module replaced only by a module or None, a parameter only by a Parameter or None;
 * a module assigned under a name that held something else is registered last, as PyTorch's _modules are. */
int object_setattr(Interp *I, Value *obj, const char *name, Value *v) {
    if (val_is_module(obj)) {
        Value *old = val_attr_get(obj, name);
        bool ready = val_attr_get(obj, "training") != NULL;
        if (val_is_module(v) && !ready) { rt_error(I, "cannot assign module before Module.__init__() call (call super().__init__() first)"); return -1; }
        if (v->kind == V_TENSOR && v->param && !ready) { rt_error(I, "cannot assign parameters before Module.__init__() call (call super().__init__() first)"); return -1; }
        if (old && val_is_module(old) && !val_is_module(v) && v->kind != V_NONE) {
            rt_error(I, "cannot assign '%s' as child module '%s' (torch.nn.Module or None expected)", val_type_name(v), name);
            return -1;
        }
        if (old && old->kind == V_TENSOR && old->param && !(v->kind == V_TENSOR && v->param) && v->kind != V_NONE) {
            rt_error(I, "cannot assign '%s' as parameter '%s' (torch.nn.Parameter or None expected: use "
                        "nn.Parameter(...), or change its values in place, e.g. %s.copy_(...))", v->kind == V_TENSOR ? "torch.FloatTensor" : val_type_name(v), name, name);
            return -1;
        }
        if (old && val_is_module(v) && !val_is_module(old)) dict_del(&obj->u.obj.attrs, name);
    }
    val_attr_set(obj, name, val_incref(v));
    return 0;
}

/* obj.name = v as object.__setattr__ does it: a property's setter, else the object's attribute (object_setattr). */
static int plain_setattr(Interp *I, Value *obj, const char *name, Value *v) {
    Found f = {0};
    if (class_find(I, obj->u.obj.klass, name, NULL, &f) && is_property(&f)) {
        Value *set = val_attr_get(f.v, "fset");
        if (!set || set->kind == V_NONE) { rt_error(I, "property '%s' of '%s' object has no setter", name, val_type_name(obj)); return -1; }
        Value *argv[2] = {obj, v};
        Args a = {argv, 2, NULL, NULL, 0, NULL, NULL};
        Value *r = interp_call(I, set, &a);
        val_decref(r);
        return r ? 0 : -1;
    }
    return object_setattr(I, obj, name, v);
}

/* obj.name = v: a student's __setattr__(name, v) when its class defines one, else plain_setattr. */
static int instance_setattr(Interp *I, Value *obj, const char *name, Value *v) {
    if (!class_has_special(I, obj, "__setattr__")) return plain_setattr(I, obj, name, v);
    Value *args[2] = {val_str(I->run.heap, name), v}, *r = class_call_special(I, obj, "__setattr__", args, 2);
    val_decref(args[0]);
    val_decref(r);
    return r ? 0 : -1;
}

/* C.name: the namespace of C and its bases (functions unbound), and the class's own facts. */
Value *class_getattr(Interp *I, Value *cls, const char *name) {
    ClassInfo *c = cls->u.cls;
    Found f = {0};
    if (class_find(I, cls, name, NULL, &f)) return bind(I, NULL, cls, &f);
    if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__")) return val_str(I->run.heap, c->name);
    if (!strcmp(name, "__module__")) return val_str(I->run.heap, c->module_name);
    if (!strcmp(name, "__doc__")) return val_none();
    if (!strcmp(name, "__mro__") || !strcmp(name, "__bases__")) {
        bool mro = !strcmp(name, "__mro__");
        int n = mro ? c->nmro : c->nbases;
        Value *t = val_tuple(I->run.heap, n);
        for (int i = 0; i < n; i++) val_seq_set(t, i, val_incref(mro ? c->mro[i] : c->bases[i]));
        return t;
    }
    Value *m = unbound_of_type(I, cls, name);       /* torch.Tensor.sum: the methods of attn's values */
    if (m) return m;
    char what[160];
    snprintf(what, sizeof what, "type object '%s'", c->name);
    return ops_no_attribute(I, cls, what, name);
}

/* cls.name = v: the student's classes take it in their namespace, d2l's open ones in I's additions to them
 * (class_added: the other interpreters do not see it); attn's other classes are static, shared by every interpreter
 * of the process (registry.c's builtin_classes_open), so they refuse: with Python's TypeError where Python refuses
 * too (int.x = 1), else with attn's reason (Python lets a program change torch.Tensor). */
int class_setattr(Interp *I, Value *cls, const char *name, Value *v) {
    const ClassInfo *c = cls->u.cls;
    if (!c->user && !c->open && c->immutable) {
        bool bare = !strcmp(c->module_name, "builtins");
        rt_raise(I, "TypeError", "cannot set '%s' attribute of immutable type '%s%s%s'", name, bare ? "" : c->module_name, bare ? "" : ".", c->name);
        return -1;
    }
    if (!c->user && !c->open) {
        rt_error(I, "cannot set attribute '%s' of class %s.%s: attn's built-in classes keep their attributes (set it on a subclass instead)",
                 name, c->module_name, c->name);
        return -1;
    }
    Dict *d = c->user ? &cls->u.cls->attrs : class_added(I, cls, true);
    dict_set(d, name, val_incref(v));
    return 0;
}

/* ---- instances ---- */

Value *call_found(Interp *I, Value *obj, const Found *f, Args *a) {
    if (f->b) {
        Value b = {.kind = V_BUILTIN, .refs = 1, .u.builtin = f->b};
        return interp_call_method(I, &b, obj, f->where, a);
    }
    Value *fn = bind(I, obj, obj->u.obj.klass, f);
    if (!fn) return NULL;
    Value *r = interp_call(I, fn, a);
    val_decref(fn);
    return r;
}

/* Calling a class makes an instance and runs __init__ on it. */
Value *class_call(Interp *I, Value *cls, Args *a) {
    const ClassInfo *c = cls->u.cls;
    if (c->make) {
        Args b = *a;
        b.fname = c->make->name;
        return c->make->fn(I, &b);
    }
    if (c->no_new) return rt_raise(I, "TypeError", "cannot create '%s%s%s' instances", strcmp(c->module_name, "builtins") ? c->module_name : "",
                                   strcmp(c->module_name, "builtins") ? "." : "", c->name);
    /* attn's other classes of values made only by its functions (torch.Tensor, torch.return_types.max, NoneType):
     * a call would make an empty object of the class; the student's, d2l's, the modules', object and the exceptions
     * are made here */
    if (!c->user && !c->open && !c->is_module && !c->methods && cls != class_object() && !pyexc_class_base(cls))
        return rt_error(I, "calling %s.%s is not in attn: its objects come from the functions that return them", c->module_name, c->name);
    Value *obj = val_object(I->run.heap, &UserObjectClass);
    obj->u.obj.klass = val_incref(cls);
    if (pyexc_class_base(cls)) {             /* an exception: args are the arguments, whatever __init__ does (Python) */
        Value *args = val_tuple(I->run.heap, a->npos);
        for (int k = 0; k < a->npos; k++) val_seq_set(args, k, val_incref(a->pos[k]));
        val_attr_set(obj, "args", args);
        val_attr_set(obj, "__cause__", val_none());
    }
    Found f = {0};
    if (class_find(I, cls, "__init__", NULL, &f)) {
        Value *r = call_found(I, obj, &f, a);
        if (!r) { val_decref(obj); return NULL; }
        bool none = r->kind == V_NONE;
        if (!none) rt_error(I, "__init__() should return None, not '%s'", val_type_name(r));
        val_decref(r);
        if (!none) { val_decref(obj); return NULL; }
    }
    return obj;
}

/* Calling an instance: its __call__ when its class defines one, else a module's forward. */
static Value *instance_call(Interp *I, Value *obj, Args *a) {
    Value *cls = obj->u.obj.klass;
    Found f = {0};
    if (class_find(I, cls, "__call__", NULL, &f) && !f.b) return call_found(I, obj, &f, a);
    if (cls->u.cls->is_module) {
        if (!val_attr_get(obj, "training"))
            return rt_raise(I, "AttributeError", "'%s' object has no attribute '_modules': its __init__ did not call super().__init__()", cls->u.cls->name);
        if (class_find(I, cls, "forward", NULL, &f)) return call_found(I, obj, &f, a);
    }
    return rt_raise(I, "TypeError", "'%s' object is not callable", cls->u.cls->name);
}


/* Runs a method named name of obj's class on I for repr/str: its string, or NULL when there is none, or when it
 * failed (or returned a non-string: Python's TypeError) while I's repr_raises is set (the error left set there,
 * repr_failed set: the repr under way stops), or when an earlier one failed so and its error is still set (one that
 * student code caught since, in an error message's repr, stops nothing: Python's), or when there is no I to run it
 * on. Otherwise a failure gives a placeholder string and no error is left. as: the method Python names in its
 * TypeError ("__str__" when str() falls back on __repr__, as CPython's object_str does). */
static Value *repr_method_as(Interp *I, Value *obj, const char *name, const char *as) {
    Value *cls = obj->u.obj.klass;
    Found f = {0};
    if (!I || interp_failed(I) || !class_find(I, cls, name, NULL, &f) || f.b) return NULL;
    Args a = {0};
    Value *r = call_found(I, obj, &f, &a);
    if (r && r->kind != V_STR) {
        rt_raise(I, "TypeError", "%s returned non-string (type %s)", as, val_type_name(r));
        val_decref(r);
        r = NULL;
    }
    if (!r && I->repr_raises) { I->repr_failed = true; return NULL; }
    if (!r) {
        StrBuf b;
        sb_init(&b);
        sb_printf(&b, "<%s object: its %s failed: %s>", cls->u.cls->name, name, interp_error_msg(I));
        r = val_str(I->run.heap, sb_str(&b));
        sb_free(&b);
        if (interp_error_kind(I) == ERR_ERROR) interp_clear_error(I);
    }
    return r;
}

static Value *repr_method(Interp *I, Value *obj, const char *name) { return repr_method_as(I, obj, name, name); }

/* Whether a repr under way on I has stopped: a student's __repr__/__str__ raised (repr_method) and its error is set */
static bool repr_stopped(const Interp *I) { return I && I->repr_failed && interp_failed(I); }

/* repr(obj), or str(obj) of a class with no __str__ (as: "__str__", for the TypeError of a non-string) */
static void instance_repr_as(Interp *I, StrBuf *out, Value *obj, int depth, const char *as) {
    Value *r = repr_method_as(I, obj, "__repr__", as);
    if (r) { sb_putn(out, r->u.str.s, r->u.str.len); val_decref(r); return; }
    if (repr_stopped(I)) return;
    if (pyexc_class_base(obj->u.obj.klass)) { pyexc_repr(I, out, obj); return; }      /* MyError('x') */
    ClassInfo *c = obj->u.obj.klass->u.cls;
    if (c->is_module) {
        Value *extra = repr_method(I, obj, "extra_repr");
        if (repr_stopped(I)) return;
        val_module_repr(I, out, obj, extra ? extra->u.str.s : NULL, depth);
        val_decref(extra);
        return;
    }
    sb_printf(out, "<%s.%s object at %p>", c->module_name, c->name, (void *)obj);
}

static void instance_repr(Interp *I, StrBuf *out, Value *obj, int depth) { instance_repr_as(I, out, obj, depth, "__repr__"); }

static void instance_str(Interp *I, StrBuf *out, Value *obj) {
    Value *r = repr_method(I, obj, "__str__");
    if (r) { sb_putn(out, r->u.str.s, r->u.str.len); val_decref(r); return; }
    if (repr_stopped(I)) return;
    if (pyexc_class_base(obj->u.obj.klass)) { pyexc_str(I, out, obj); return; }   /* BaseException.__str__: 'x' */
    instance_repr_as(I, out, obj, 0, "__str__");
}


const ObjClass UserObjectClass = {.name = "object", .call = instance_call, .repr = instance_repr, .str = instance_str,
                                  .getattr = instance_getattr, .setattr = instance_setattr};

/* ---- the class statement ---- */

/* Runs the body of `class Name(bases): body` in a namespace of its own and makes the class (a new reference), or
 * NULL with an error set. The class statement binds the name only after this succeeds. */
Value *class_create(Interp *I, Node *n) {
    Node *bases_n = n->kids[0], *body = n->kids[1];
    Value *cls = new_class(I->run.heap, n->str, "__main__");
    ClassInfo *c = cls->u.cls;
    c->user = true;
    for (int i = 0; i < bases_n->nkids; i++) {
        Node *bn = bases_n->kids[i];
        if (bn->kind == N_KWARG || bn->kind == N_STAR || bn->kind == N_DSTAR) {
            rt_error(I, "attn's classes take base classes only (no metaclass or keywords)");
            interp_error_at(I, bn->line, bn->col);
            val_decref(cls);
            return NULL;
        }
        Value *b = interp_eval(I, bn);
        if (!b) { val_decref(cls); return NULL; }
        if (pyexc_class_name(b)) {               /* class MyError(ValueError): the builtin's class twin */
            Value *twin = val_incref(pyexc_class(pyexc_class_name(b)));
            val_decref(b);
            b = twin;
        }
        if (b->kind != V_CLASS) {
            if (b->kind == V_BUILTIN) {
                char home[32];
                lib()->home(b->u.builtin, home, sizeof home);
                rt_error(I, "attn cannot derive a class from its built-in %s%s%s; derive from nn.Module (as the book "
                            "does), and keep one inside if you need it", home, home[0] ? "." : "", b->u.builtin->name);
            }
            else rt_error(I, "a base class must be a class, not %s", val_type_name(b));
            interp_error_at(I, bn->line, bn->col);
            val_decref(b);
            val_decref(cls);
            return NULL;
        }
        for (int j = 0; j < c->nbases; j++)
            if (c->bases[j] == b) {
                rt_error(I, "duplicate base class %s", b->u.cls->name);
                interp_error_at(I, bn->line, bn->col);
                val_decref(b);
                val_decref(cls);
                return NULL;
            }
        c->bases = xrealloc(c->bases, sizeof(Value *) * (size_t)(c->nbases + 1));
        c->bases[c->nbases++] = b;
        c->is_module |= b->u.cls->is_module;
    }
    if (c->nbases == 0) {
        c->bases = xmalloc(sizeof(Value *));
        c->bases[c->nbases++] = val_incref(class_object());
    }
    if (!c3_mro(cls)) {
        rt_error(I, "Cannot create a consistent method resolution order (MRO) for bases of %s", c->name);
        interp_error_at(I, n->line, n->col);
        val_decref(cls);
        return NULL;
    }
    /* the body runs in the class namespace; its functions see the globals, not this namespace (as in Python) */
    Scope sc;
    Scope *saved = I->scope;
    scope_open(I->run.heap, &sc, saved, true);
    I->scope = &sc;
    bool has_doc = body->nkids && body->kids[0]->kind == N_EXPR_STMT && body->kids[0]->kids[0]->kind == N_STR;
    if (has_doc)            /* the docstring is the namespace's first name, as Python's __doc__ */
        dict_set(sc.vars, "__doc__", val_strn(I->run.heap, body->kids[0]->kids[0]->str, body->kids[0]->kids[0]->slen));
    int rc = interp_exec_body(I, body);
    I->scope = saved;
    if (rc == 0 && I->signal) { rt_error(I, "'return' outside a function"); interp_error_at(I, n->line, n->col); rc = -1; I->signal = 0; }
    if (rc == 0) {      /* the namespace becomes the class's */
        c->attrs = *sc.vars;
        memset(sc.vars, 0, sizeof *sc.vars);
        /* Python: a class that defines __eq__ and not __hash__ has __hash__ = None (its instances are unhashable) */
        if (dict_get(&c->attrs, "__eq__") && !dict_get(&c->attrs, "__hash__")) dict_set(&c->attrs, "__hash__", val_none());
    }
    scope_close(&sc);
    if (rc < 0) { val_decref(cls); return NULL; }
    return cls;
}

/* ---- super, property, staticmethod, classmethod ---- */

static Value *super_getattr(Interp *I, Value *sup, const char *name) {
    Value *this = val_attr_get(sup, "__thisclass__"), *self = val_attr_get(sup, "__self__");
    Value *cls = self->kind == V_CLASS ? self : self->u.obj.klass;
    Found f = {0};
    if (class_find(I, cls, name, this, &f)) return bind(I, self->kind == V_CLASS ? NULL : self, cls, &f);
    return rt_raise(I, "AttributeError", "'super' object has no attribute '%s'", name);
}

static void super_repr(Interp *I, StrBuf *out, Value *sup, int indent) {
    (void)indent;
    sb_printf(out, "<super: <class '%s'>, <%s object>>", val_attr_get(sup, "__thisclass__")->u.cls->name,
              val_type_name(val_attr_get(sup, "__self__")));
}

static const ObjClass SuperClass = {.name = "super", .repr = super_repr, .getattr = super_getattr};

/* super() in a method: the class the method was found in and its first argument; super(Cls, self) names them. */
static Value *bi_super(Interp *I, Args *a) {
    Value *p_[2];                               /* type, object_or_type (the second form's) */
    if (args_bind_form(I, a, p_, 2) < 0) return NULL;
    Value *cls, *self;
    if (a->npos == 0) {
        Frame *fr = I->frame;
        if (!fr) return rt_error(I, "super(): no arguments (super() without arguments works inside a method)");
        if (!fr->klass) return rt_error(I, "super(): this function was not called as a method of a class; write super(ClassName, self)");
        Node *params = fr->func->u.func->def->kids[0];
        self = params->nkids && params->kids[0]->str ? dict_get(fr->scope->vars, params->kids[0]->str) : NULL;
        if (!self) return rt_error(I, "super(): no arguments");
        cls = fr->klass;
    } else {
        if (a->npos != 2) return rt_error(I, "super() takes a class and an instance: super(ClassName, self)");
        cls = a->pos[0];
        self = a->pos[1];
        if (cls->kind != V_CLASS) return rt_error(I, "super() argument 1 must be a type, not %s", val_type_name(cls));
    }
    Value *scls = self->kind == V_CLASS ? self : self->kind == V_OBJECT ? self->u.obj.klass : NULL;
    if (!scls || !class_is_subclass(scls, cls))
        return rt_error(I, "super(type, obj): obj must be an instance or subtype of type");
    Value *s = val_object(I->run.heap, &SuperClass);
    val_attr_set(s, "__thisclass__", val_incref(cls));
    val_attr_set(s, "__self__", val_incref(self));
    return s;
}

static Value *wrapper(Interp *I, Args *a, const ObjClass *kind) {
    Value *f;                                   /* "staticmethod(function, /)": CPython's words for its count */
    if (!args_bind(I, a, &f, 1)) return NULL;
    Value *w = val_object(I->run.heap, kind);
    val_attr_set(w, "__func__", val_incref(f));
    return w;
}

static Value *bi_staticmethod(Interp *I, Args *a) { return wrapper(I, a, &StaticMethodClass); }
static Value *bi_classmethod(Interp *I, Args *a) { return wrapper(I, a, &ClassMethodClass); }

static Value *make_property(Interp *I, Value *fget, Value *fset) {
    Value *p = val_object(I->run.heap, &PropertyClass);
    val_attr_set(p, "fget", val_incref(fget));
    val_attr_set(p, "fset", val_incref(fset));
    return p;
}

static Value *bi_property(Interp *I, Args *a) {
    Value *p_[2];                               /* fget, fset (attn has no fdel, doc: a third argument is too many) */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *none = val_none(), *get = p_[0], *set = p_[1];
    Value *p = make_property(I, get ? get : none, set ? set : none);
    val_decref(none);
    return p;
}

/* @x.setter / @x.getter: a copy of the property with that function. */
static Value *m_property_with(Interp *I, Args *a) {
    Value *f;                                    /* "prop.setter(f, /)": CPython's METH_O words, property.setter() */
    if (!args_bind_method(I, a, "property", &f, 1)) return NULL;
    Value *p = a->pos[0];
    bool set = a->fn->tag == 1;
    return make_property(I, set ? val_attr_get(p, "fget") : a->pos[1], set ? a->pos[1] : val_attr_get(p, "fset"));
}

const Builtin bi_property_methods[] = {
    {"getter", m_property_with, "prop.getter(f, /)", "The property with getter f.", "", 0, "prop"},
    {"setter", m_property_with, "prop.setter(f, /)", "The property with setter f (@x.setter above def x(self, v)).", "", 1, "prop"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static void wrapper_repr(Interp *I, StrBuf *out, Value *w, int indent) {
    (void)indent;
    sb_printf(out, "<%s object at %p>", w->u.obj.cls->name, (void *)w);
}

static const ObjClass PropertyClass = {.name = "property", .repr = wrapper_repr, .methods = bi_property_methods};
static const ObjClass StaticMethodClass = {.name = "staticmethod", .repr = wrapper_repr};
static const ObjClass ClassMethodClass = {.name = "classmethod", .repr = wrapper_repr};

/* ---- isinstance and friends ---- */

/* Is v an instance of classinfo: a class (the student's, object, nn.Module), one of Python's types (int, float,
 * str, bool, list, tuple, dict), an attn object's constructor (nn.Linear), or a tuple of these? */
static bool is_instance(Interp *I, Value *v, Value *ci) {
    if (ci->kind == V_TUPLE) {
        for (int64_t i = 0; i < ci->u.seq.n; i++) if (is_instance(I, v, ci->u.seq.items[i])) return true;
        return false;
    }
    if (ci->kind == V_CLASS) {
        if (ci == class_object()) return true;
        Value *vc = lib()->value_class(v);          /* torch.Tensor, torch.Size, ...: the value's own class */
        val_decref(vc);
        if (vc && vc == ci) return true;
        if (v->kind == V_OBJECT && v->u.obj.klass) return class_is_subclass(v->u.obj.klass, ci);
        if (v->kind == V_OBJECT && v->u.obj.cls->base) {      /* TensorDataset is a Dataset */
            Value *base = v->u.obj.cls->base();
            bool sub = base && class_is_subclass(base, ci);
            val_decref(base);
            if (sub) return true;
        }
        if (ci->u.cls->is_module && !ci->u.cls->user && ci->u.cls->nbases == 1 && ci->u.cls->bases[0] == class_object())
            return val_is_module(v);         /* nn.Module itself: attn's built-in modules are modules too */
        return false;
    }
    if (ci->kind == V_BUILTIN) {             /* int, map, nn.Linear ...: what type(v) answers, and a bool is an int */
        const char *t = ci->u.builtin->name;
        if (v->kind == V_OBJECT && !v->u.obj.klass && !strcmp(v->u.obj.cls->name, t)) return true;
        const char *exc = pyexc_object_name(v);
        if (exc && pyexc_class_name(ci)) return pyexc_matches(exc, t);     /* a KeyError is a LookupError */
        Value *vt = lib()->type_of(I->run.heap, v);
        bool same = vt && vt->kind == V_BUILTIN && vt->u.builtin == ci->u.builtin;
        val_decref(vt);
        bool python_type = lib()->type_module(ci->u.builtin, NULL);
        /* subclasses of Python's types: bool of int, torch.Size and named tuples of tuple, OrderedDict of dict */
        if (same || (python_type && ((v->kind == V_BOOL && !strcmp(t, "int")) || (v->kind == V_TUPLE && !strcmp(t, "tuple")) ||
                                     (v->kind == V_DICT && !strcmp(t, "dict"))))) return true;
        /* type: classes, and Python's types attn calls as functions */
        return !strcmp(t, "type") && python_type &&
               (v->kind == V_CLASS || (v->kind == V_BUILTIN && lib()->type_module(v->u.builtin, NULL)));
    }
    return false;
}

bool class_isinstance(Interp *I, Value *v, Value *ci) { return is_instance(I, v, ci); }

static bool valid_classinfo(Value *ci) {
    if (ci->kind == V_TUPLE) {
        for (int64_t i = 0; i < ci->u.seq.n; i++) if (!valid_classinfo(ci->u.seq.items[i])) return false;
        return true;
    }
    return ci->kind == V_CLASS || ci->kind == V_BUILTIN;
}

static Value *bi_isinstance(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind(I, a, p, 2)) return NULL;
    if (!valid_classinfo(a->pos[1])) return rt_raise(I, "TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union");
    return val_bool(I->run.heap, is_instance(I, a->pos[0], a->pos[1]));
}

static Value *bi_issubclass(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind(I, a, p, 2)) return NULL;
    if (pyexc_class_name(a->pos[0]) && pyexc_class_name(a->pos[1]))     /* issubclass(KeyError, LookupError) */
        return val_bool(I->run.heap, pyexc_matches(pyexc_class_name(a->pos[0]), pyexc_class_name(a->pos[1])));
    if (a->pos[0]->kind != V_CLASS) return rt_error(I, "issubclass(cls, base): cls must be a class");
    if (pyexc_class_name(a->pos[1])) {       /* issubclass(MyError, Exception) */
        const char *base = pyexc_class_base(a->pos[0]);
        return val_bool(I->run.heap, base && pyexc_matches(base, pyexc_class_name(a->pos[1])));
    }
    if (a->pos[1]->kind != V_CLASS) return rt_error(I, "issubclass() arg 2 must be a class");
    return val_bool(I->run.heap, class_is_subclass(a->pos[0], a->pos[1]));
}

/* getattr(obj, name[, default]) and hasattr(obj, name): a missing attribute is an error, or the default. */
static Value *bi_getattr(Interp *I, Args *a) {
    Value *p[3];
    if (args_bind_form(I, a, p, 3) < 0) return NULL;
    bool has = a->fn->tag == 1;
    if (a->pos[1]->kind != V_STR) return rt_raise(I, "TypeError", "attribute name must be string, not '%s'", val_type_name(a->pos[1]));
    Value *r = ops_getattr(I, a->pos[0], a->pos[1]->u.str.s);
    if (r) { if (has) { val_decref(r); return val_bool(I->run.heap, true); } return r; }
    if (interp_error_kind(I) != ERR_ERROR || (!has && a->npos < 3)) return NULL;
    /* only an AttributeError means "no such attribute" (Python's): a student's __getattr__ or property that raised
     * ValueError propagates (attn's own unnamed errors count as missing attributes) */
    if (I->error.etype[0] && !pyexc_matches(I->error.etype, "AttributeError")) return NULL;
    interp_clear_error(I);
    return has ? val_bool(I->run.heap, false) : val_incref(a->pos[2]);
}

static Value *bi_setattr(Interp *I, Args *a) {
    Value *p[3];
    if (!args_bind(I, a, p, 3)) return NULL;
    if (a->pos[1]->kind != V_STR) return rt_raise(I, "TypeError", "attribute name must be string, not '%s'", val_type_name(a->pos[1]));
    return ops_setattr(I, a->pos[0], a->pos[1]->u.str.s, a->pos[2]) < 0 ? NULL : val_none();
}

static Value *bi_callable(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    Value *v = a->pos[0];
    bool c = v->kind == V_BUILTIN || v->kind == V_METHOD || v->kind == V_FUNC || v->kind == V_CLASS;
    if (v->kind == V_OBJECT) {
        Found f = {0};
        c = v->u.obj.klass ? (class_find(I, v->u.obj.klass, "__call__", NULL, &f) && !f.b) || v->u.obj.klass->u.cls->is_module
                           : v->u.obj.cls->call != NULL;
    }
    return val_bool(I->run.heap, c);
}

const Builtin bi_classes[] = {
    {"super", bi_super, "super() / super(type, object_or_type=None, /)",
     "Inside a method: the next class in the method resolution order, e.g. super().__init__() runs nn.Module's "
     "__init__ in a class derived from nn.Module.", "", 0, ""},
    {"isinstance", bi_isinstance, "isinstance(obj, class_or_tuple, /)", "True when obj is an instance of cls (or of a tuple of classes).", "", 0, ""},
    {"issubclass", bi_issubclass, "issubclass(cls, class_or_tuple, /)", "True when cls derives from base.", "", 0, ""},
    {"getattr", bi_getattr, "getattr(object, name, /) / getattr(object, name, default, /)", "obj.name for a name in a string; default when it is missing.", "", 0, ""},
    {"hasattr", bi_getattr, "hasattr(obj, name, /)", "True when obj.name exists.", "", 1, ""},
    {"setattr", bi_setattr, "setattr(obj, name, value, /)", "obj.name = value for a name in a string.", "", 0, ""},
    {"callable", bi_callable, "callable(obj, /)", "True when obj can be called.", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin bi_decorators[] = {
    {"property", bi_property, "property(fget=None, fset=None)", "Makes a method read like an attribute: @property above def x(self).", "", 0, ""},
    {"staticmethod", bi_staticmethod, "staticmethod(function, /)", "A function in a class that takes no self.", "", 0, ""},
    {"classmethod", bi_classmethod, "classmethod(function, /)", "A method that receives the class (cls) instead of an instance.", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* ops_attr.c - x.name, x.name = v, del x.name and the names dir() lists, for each kind of value: a tensor's data
 * attributes, modules' and builtins' tables, a class's mappingproxy, students' objects; "did you mean" on a miss. */
#include "ops.h"
#include "pyset.h"
#include "library.h"
#include "pyformat.h"
#include "pyexc.h"
#include "lang_internal.h"
#include "pyexc.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- attributes ---- */


/* The data attributes of a tensor, in tensor_attr's order. */
static const char *const tensor_attrs[] = {"shape", "dtype", "ndim", "T", "mT", "data", "device", "requires_grad", "grad", "grad_fn", "is_leaf", "is_cuda", NULL};

/* x._base: the tensor x is a view of (PyTorch's: the root, never itself a view), the same object while one stands for
 * it, or a new one sharing its storage; None for a tensor that is no view. attn knows the base of a view made under
 * grad mode or of a tensor that requires grad (ag_view_link), not of one made under no_grad of a plain tensor. */
static Value *tensor_base(Interp *I, Value *obj) {
    AgMeta *b = obj->ag ? obj->ag->base : NULL;
    if (!b || !obj->ag->base_view) return val_none();
    Value *h = ag_meta_handle(b);
    if (h) return val_incref(h);
    Tensor *t = ten_alias(obj->ag->base_view);
    if (!t) return rt_tensor_error(I);
    Value *v = val_tensor_ag(I->run.heap, t, ag_meta_ref(b));
    ag_meta_claim(b, v);
    return v;
}
static Value *tensor_attr(Interp *I, Value *obj, const char *name) {
    Tensor *t = obj->u.t;
    if (!strcmp(name, "shape")) return val_size(I->run.heap, t->shape, t->ndim);
    if (!strcmp(name, "dtype")) return val_dtype(I->run.heap, t->dtype);
    if (!strcmp(name, "ndim")) return val_int(I->run.heap, t->ndim);
    if (!strcmp(name, "T") || !strcmp(name, "mT")) {
        if (!strcmp(name, "mT") && t->ndim < 2) return rt_error(I, "tensor.mT is only for tensors of 2 or more dimensions");
        if (ag_records(I, obj, NULL)) {               /* mT: TransposeBackward0; T: PermuteBackward0, as PyTorch */
            if (!strcmp(name, "mT")) return ag_value(I, ag_transpose(&I->run.ag, (AgVal){t, obj->ag}, -2, -1));
            int dims[TEN_MAX_DIMS];
            for (int i = 0; i < t->ndim; i++) dims[i] = t->ndim - 1 - i;
            return ag_value(I, ag_permute(&I->run.ag, (AgVal){t, obj->ag}, dims));
        }
        Tensor *r;
        if (!strcmp(name, "mT")) r = ten_transpose(t, -2, -1);
        else {
            int dims[TEN_MAX_DIMS];
            for (int i = 0; i < t->ndim; i++) dims[i] = t->ndim - 1 - i;
            r = ten_permute(t, dims);
        }
        if (!r) return rt_tensor_error(I);
        Value *v = val_tensor(I->run.heap, r);
        v->ag = ag_view_link(&I->run.ag, r, &obj->ag, t);     /* a view: its _base, as z.t()'s */
        ag_meta_claim(obj->ag, obj);
        return v;
    }
    if (!strcmp(name, "data")) {                   /* detached, with a version counter of its own (PyTorch) */
        Tensor *d = ten_alias_new_version(t);
        return d ? val_tensor(I->run.heap, d) : rt_tensor_error(I);
    }
    if (!strcmp(name, "_version")) return val_int(I->run.heap, ten_version(t));    /* the storage's in-place write count */
    if (!strcmp(name, "_base")) return tensor_base(I, obj);
    if (!strcmp(name, "device")) return lib()->module_attr(I->run.heap, "torch", "cpu_device");
    Value *ag = lib()->tensor_attr(I, obj, name);
    if (ag || interp_failed(I)) return ag;
    if (!strcmp(name, "is_cuda")) return val_bool(I->run.heap, false);
    const Builtin *m = lib()->find_method(name);
    if (m) return val_method(I->run.heap, obj, m);
    static const char *const autograd[] = {"register_hook", NULL};
    for (int i = 0; autograd[i]; i++)
        if (!strcmp(name, autograd[i]))
            return rt_error(I, "X.%s is not in attn yet (its autograd has no hooks)", name);
    if (!strcmp(name, "cuda")) return rt_error(I, "attn runs on the CPU only: there is no GPU (.cuda() is not available)");
    char buf[256];
    const char *why = lib()->missing("Tensor", name, buf, sizeof buf);
    if (why) return rt_error(I, "%s", why);
    return ops_no_attribute(I, obj, "'Tensor' object", name);
}

static const Builtin *find_in(const Builtin *tbl, const char *name) {
    for (; tbl && tbl->name; tbl++) if (!strcmp(tbl->name, name)) return tbl;
    return NULL;
}


static void table_names(const Builtin *tbl, void (*add)(void *, const char *), void *ctx) {
    for (const Builtin *b = tbl; b && b->name; b++) add(ctx, b->name);
}

/* d.keys().mapping: Python's mappingproxy, a read-only view of the dict (held as its hidden attribute "dict"): it prints
 * as mappingproxy({...}) (str() as the dict), indexes, has len and in, iterates the keys, and has the dict's keys, values, items, get and
 * copy; item assignment is Python's TypeError. */
static const char *const proxy_methods[] = {"keys", "values", "items", "get", "copy", NULL};
static void proxy_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    sb_puts(out, "mappingproxy(");
    if (val_repr_part(I, out, val_attr_get(self, "dict"), depth + 1)) sb_putc(out, ')');
}
static void proxy_str(Interp *I, StrBuf *out, Value *self) { val_str_part(I, out, val_attr_get(self, "dict")); }     /* str(): the dict's */
static Value *proxy_getattr(Interp *I, Value *self, const char *name) {
    for (int i = 0; proxy_methods[i]; i++)
        if (!strcmp(name, proxy_methods[i])) return val_method(I->run.heap, val_attr_get(self, "dict"), find_in(lib()->dict_methods, name));
    return rt_raise(I, "AttributeError", "'mappingproxy' object has no attribute '%s'", name);
}
static int proxy_setattr(Interp *I, Value *self, const char *name, Value *v) {
    (void)self;
    (void)v;
    rt_raise(I, "AttributeError", "'mappingproxy' object has no attribute '%s'", name);
    return -1;
}
static Value *proxy_getitem(Interp *I, Value *self, Value *index) { return ops_index(I, val_attr_get(self, "dict"), index); }
static int64_t proxy_len(Value *self) { return val_attr_get(self, "dict")->u.dict->n; }
static Value *proxy_iter(Interp *I, Value *self) { return ops_iter(I, val_attr_get(self, "dict")); }
static Value *proxy_dict(Value *self) { return val_attr_get(self, "dict"); }      /* m == d: the dict's == (Python's) */
static const ObjClass mappingproxy_class = {.name = "mappingproxy", .repr = proxy_repr, .str = proxy_str, .getattr = proxy_getattr,
                                            .setattr = proxy_setattr, .getitem = proxy_getitem, .len = proxy_len, .iter = proxy_iter,
                                            .eq_as = proxy_dict};

/* The names a student's __dir__ gives (Python's dir() on an instance whose class defines one), each passed to add:
 * 1, or -1 with the error set on I (it raised, returned no iterable, or an item that is no string). */
static int student_dir(Interp *I, const Value *obj, void (*add)(void *ctx, const char *name), void *ctx) {
    Value *r = class_call_special(I, obj, "__dir__", NULL, 0);
    if (!r) return -1;
    Value *l = ops_to_list(I, r);
    val_decref(r);
    if (!l) return -1;
    for (int64_t i = 0; i < l->u.seq.n; i++)
        if (l->u.seq.items[i]->kind != V_STR) {
            rt_raise(I, "TypeError", "dir(): __dir__ returned a %s among its names; attn lists names as strings",
                     val_type_name(l->u.seq.items[i]));
            val_decref(l);
            return -1;
        }
    for (int64_t i = 0; i < l->u.seq.n; i++) add(ctx, l->u.seq.items[i]->u.str.s);
    val_decref(l);
    return 1;
}

static void attr_names(Interp *I, const Value *obj, void (*add)(void *ctx, const char *name), void *ctx);

int ops_attr_names(Interp *I, const Value *obj, bool run_dir, void (*add)(void *ctx, const char *name), void *ctx) {
    if (I && run_dir && class_is_instance(obj) && class_has_special(I, obj, "__dir__")) return student_dir(I, obj, add, ctx);
    attr_names(I, obj, add, ctx);
    return 0;
}

/* What dir() of a class statement's class lists besides its own names (Python 3.11): dir(object), and the
 * __dict__, __module__ and __weakref__ the class statement adds. */
static const char *const object_names[] = {
    "__class__", "__delattr__", "__dict__", "__dir__", "__doc__", "__eq__", "__format__", "__ge__", "__getattribute__",
    "__getstate__", "__gt__", "__hash__", "__init__", "__init_subclass__", "__le__", "__lt__", "__module__", "__ne__",
    "__new__", "__reduce__", "__reduce_ex__", "__repr__", "__setattr__", "__sizeof__", "__str__", "__subclasshook__",
    "__weakref__", NULL};

static void attr_names(Interp *I, const Value *obj, void (*add)(void *ctx, const char *name), void *ctx) {
    int n;
    switch (obj->kind) {
    case V_TENSOR: {
        for (int i = 0; tensor_attrs[i]; i++) add(ctx, tensor_attrs[i]);
        const Builtin *const *ms = lib()->all_methods(&n);
        for (int i = 0; i < n; i++) add(ctx, ms[i]->name);
        for (int i = 0; lib()->tensor_method_aliases[i]; i++) add(ctx, lib()->tensor_method_aliases[i]);
        break;
    }
    case V_MODULE: lib()->module_names(obj->u.module, add, ctx); break;
    case V_OBJECT:
        if (builtin_iterator(obj)) break;
        if (obj->u.obj.cls == &mappingproxy_class) { for (int i = 0; proxy_methods[i]; i++) add(ctx, proxy_methods[i]); break; }
        for (int i = 0; i < obj->u.obj.attrs.n; i++) add(ctx, obj->u.obj.attrs.keys[i]->u.str.s);
        table_names(obj->u.obj.cls->methods, add, ctx);
        if (obj->u.obj.klass) attr_names(I, obj->u.obj.klass, add, ctx);
        else if (obj->u.obj.cls->is_module) table_names(lib()->module_methods, add, ctx);
        break;
    case V_CLASS:       /* the names of the class and its bases: I's additions, methods, class attributes, attn's
                         * methods, object's (a name twice is dir()'s to drop: it sorts and dedups) */
        for (int i = 0; object_names[i]; i++) add(ctx, object_names[i]);
        for (int k = 0; k < obj->u.cls->nmro; k++) {
            const ClassInfo *c = obj->u.cls->mro[k]->u.cls;
            const Dict *added = class_added(I, obj->u.cls->mro[k], false);
            for (int i = 0; added && i < added->n; i++) add(ctx, added->keys[i]->u.str.s);
            for (int i = 0; i < c->attrs.n; i++) add(ctx, c->attrs.keys[i]->u.str.s);
            table_names(c->methods, add, ctx);
        }
        break;
    case V_STR: table_names(lib()->str_methods, add, ctx); break;
    case V_FUNC: for (int i = 0; i < obj->u.func->attrs.n; i++) add(ctx, obj->u.func->attrs.keys[i]->u.str.s); break;
    case V_LIST: table_names(lib()->list_methods, add, ctx); break;
    case V_DICTVIEW:
        add(ctx, "mapping");
        if (val_is_set_like(obj)) table_names(lib()->view_methods, add, ctx);
        break;
    case V_DICT: table_names(lib()->dict_methods, add, ctx); break;
    case V_SET: table_names(lib()->set_methods, add, ctx); break;
    case V_BUILTIN: {       /* dir(set), dir(str) ...: the methods of the type's values */
        const char *t = obj->u.builtin->name;
        if (!lib()->type_module(obj->u.builtin, NULL)) break;
        const Builtin *m = !strcmp(t, "str") ? lib()->str_methods : !strcmp(t, "list") ? lib()->list_methods :
                           !strcmp(t, "dict") ? lib()->dict_methods : !strcmp(t, "set") ? lib()->set_methods : NULL;
        for (; m && m->name; m++) if (strcmp(m->name, "numel")) add(ctx, m->name);     /* numel: torch.Size's */
        break;
    }
    case V_TUPLE:
        add(ctx, "index");
        add(ctx, "count");
        if (obj->u.seq.is_size) add(ctx, "numel");
        for (int i = 0; obj->u.seq.named && i < obj->u.seq.named->nfields; i++) add(ctx, obj->u.seq.named->fields[i]);
        break;
    default: break;
    }
}

struct peek { const char *want; bool found; };
static void peek_offer(void *ctx, const char *name) {
    struct peek *p = ctx;
    if (!strcmp(p->want, name)) p->found = true;
}
Value *ops_attr_peek(Value *obj, const char *name) {
    if (obj->kind != V_OBJECT) return NULL;
    struct peek p = {name, false};
    ops_attr_names(NULL, obj, false, peek_offer, &p);
    return p.found ? val_attr_get(obj, name) : NULL;
}

/* "'Tensor' object has no attribute 'sofmax' (did you mean 'softmax'?)": `what` is how the message names obj. */
Value *ops_no_attribute(Interp *I, const Value *obj, const char *what, const char *name) {
    char buf[256];
    const char *why = val_is_module(obj) ? lib()->missing("Module", name, buf, sizeof buf) : NULL;
    if (why) return rt_error(I, "%s", why);             /* lin.register_forward_hook: PyTorch's, not attn's */
    Suggest sg;
    suggest_init(&sg, name);
    ops_attr_names(I, obj, false, suggest_offer, &sg);   /* no student code: it failed already */
    const char *tail = obj->kind == V_MODULE ? " (type help to see what attn has)" : "";
    if (obj->kind == V_DICT && !obj->u.dict->n && find_in(lib()->set_methods, name))      /* s = {} then s.add(x) */
        tail = " ({} is an empty dict: an empty set is set())";
    if (sg.best) rt_raise(I, "AttributeError", "%s has no attribute '%s' (did you mean '%s'?)", what, name, sg.best);
    else rt_raise(I, "AttributeError", "%s has no attribute '%s'%s", what, name, tail);
    if (sg.best || *tail) {                      /* except AttributeError as e: Python's words, without attn's hint */
        StrBuf words;
        sb_init(&words);
        sb_printf(&words, "%s has no attribute '%s'", what, name);
        Value *w = val_str(I->run.heap, sb_str(&words));
        pyexc_set_arg(I, w);
        val_decref(w);
        sb_free(&words);
    }
    return NULL;
}

Value *ops_object_getattr(Interp *I, Value *obj, const char *name) {
    Value *v = val_attr_get(obj, name);
    if (v) return val_incref(v);
    const Builtin *m = find_in(obj->u.obj.cls->methods, name);
    if (!m && obj->u.obj.cls->is_module) m = find_in(lib()->module_methods, name);
    if (m) return val_method(I->run.heap, obj, m);
    char what[160];
    snprintf(what, sizeof what, "'%s' object", obj->u.obj.cls->name);
    return ops_no_attribute(I, obj, what, name);
}

Value *ops_getattr(Interp *I, Value *obj, const char *name) {
    /* x.__class__ is type(x) for every value that no class statement made (a student's instance asks its class,
     * which may define __class__ itself) */
    if (!strcmp(name, "__class__") && !(obj->kind == V_OBJECT && obj->u.obj.klass)) return lib()->type_of(I->run.heap, obj);
    switch (obj->kind) {
    case V_TENSOR: return tensor_attr(I, obj, name);
    case V_MODULE: {
        Value *c = lib()->module_attr(I->run.heap, obj->u.module, name);
        if (c) return c;
        char buf[256];
        const char *why = lib()->missing(obj->u.module, name, buf, sizeof buf);
        if (why) return rt_error(I, "%s", why);
        char what[160];
        snprintf(what, sizeof what, "module '%s'", obj->u.module);
        return ops_no_attribute(I, obj, what, name);
    }
    case V_OBJECT:
        if (obj->u.obj.cls->getattr) return obj->u.obj.cls->getattr(I, obj, name);
        return ops_object_getattr(I, obj, name);
    case V_CLASS: return class_getattr(I, obj, name);
    case V_STR: { const Builtin *m = find_in(lib()->str_methods, name); if (m) return val_method(I->run.heap, obj, m); break; }
    case V_LIST: {
        const Builtin *m = find_in(lib()->list_methods, name);
        if (m) return val_method(I->run.heap, obj, m);
        break;
    }
    case V_DICTVIEW: {      /* keys and items views: isdisjoint; every view: mapping */
        const Builtin *m = val_is_set_like(obj) ? find_in(lib()->view_methods, name) : NULL;
        if (m) return val_method(I->run.heap, obj, m);
        if (!strcmp(name, "mapping") && obj->u.view.dict) {
            Value *proxy = val_object(I->run.heap, &mappingproxy_class);
            val_attr_set(proxy, "dict", val_incref(obj->u.view.dict));
            return proxy;
        }
        break;
    }
    case V_DICT: {
        const Builtin *m = find_in(lib()->dict_methods, name);
        if (m) return val_method(I->run.heap, obj, m);
        if (!strcmp(name, "fromkeys")) return val_builtin(I->run.heap, lib()->dict_fromkeys);
        break;
    }
    case V_SET: {       /* a frozenset has the methods that do not change it */
        const Builtin *m = find_in(lib()->set_methods, name);
        if (m && !(obj->u.set->frozen && lib()->set_method_changes(m))) return val_method(I->run.heap, obj, m);
        break;
    }
    case V_TUPLE:
        if (val_named_field(obj, name)) return val_incref(val_named_field(obj, name));
        if (obj->u.seq.is_size && !strcmp(name, "numel")) {
            const Builtin *m = find_in(lib()->list_methods, "numel");
            if (m) return val_method(I->run.heap, obj, m);
        }
        { const Builtin *m = find_in(lib()->list_methods, name); if (m && (!strcmp(name, "index") || !strcmp(name, "count"))) return val_method(I->run.heap, obj, m); }
        break;
    case V_DTYPE:
        if (!strcmp(name, "is_floating_point")) return val_bool(I->run.heap, ten_is_float(obj->u.dtype));
        break;
    case V_SLICE: {         /* s.start, s.stop, s.step: what a student's __getitem__ reads of obj[a:b:c] */
        Value *part = !strcmp(name, "start") ? obj->u.slice.start : !strcmp(name, "stop") ? obj->u.slice.stop
                    : !strcmp(name, "step") ? obj->u.slice.step : NULL;
        if (part) return val_incref(part);
        if (!strcmp(name, "start") || !strcmp(name, "stop") || !strcmp(name, "step")) return val_none();
        break;
    }
    case V_FLOAT:
        if (!strcmp(name, "is_integer")) return val_bool(I->run.heap, obj->u.f == floor(obj->u.f));
        break;
    case V_FUNC: {
        if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__")) return val_str(I->run.heap, obj->u.func->name);
        if (!strcmp(name, "__doc__")) {
            Node *body = obj->u.func->def->kids[1];
            if (obj->u.func->def->kind == N_DEF && body->nkids && body->kids[0]->kind == N_EXPR_STMT && body->kids[0]->kids[0]->kind == N_STR)
                return val_strn(I->run.heap, body->kids[0]->kids[0]->str, body->kids[0]->kids[0]->slen);
            return val_none();
        }
        Value *own = dict_get(&obj->u.func->attrs, name);      /* f.x = 1 earlier */
        if (own) return val_incref(own);
        break;
    }
    case V_METHOD:
        if (!strcmp(name, "__self__")) return val_incref(obj->u.method.self);
        if (!strcmp(name, "__func__") && obj->u.method.func) return val_incref(obj->u.method.func);
        if (!strcmp(name, "__name__")) return val_str(I->run.heap, obj->u.method.func ? obj->u.method.func->u.func->name : obj->u.method.fn->name);
        break;
    case V_BUILTIN: {
        if (lib()->type_method(obj->u.builtin, name) == lib()->dict_fromkeys) return val_builtin(I->run.heap, lib()->dict_fromkeys);
        Value *m = unbound_of_type(I, obj, name);  /* str.upper, set.union, nn.Linear.forward, torch.optim.SGD.step */
        if (m) return m;
        if (!strcmp(name, "__name__")) return val_str(I->run.heap, obj->u.builtin->name);
        if (!strcmp(name, "__doc__")) return val_str(I->run.heap, obj->u.builtin->help);
        const char *module = NULL;                  /* a type's: int.__module__ 'builtins', OrderedDict's 'collections' */
        if (lib()->type_module(obj->u.builtin, &module) && module) {
            if (!strcmp(name, "__qualname__")) return val_str(I->run.heap, obj->u.builtin->name);
            if (!strcmp(name, "__module__")) return val_str(I->run.heap, module);
        }
        break;
    }
    default: break;
    }
    char what[160];
    snprintf(what, sizeof what, "'%s' object", val_type_name(obj));
    return ops_no_attribute(I, obj, what, name);
}

int ops_setattr(Interp *I, Value *obj, const char *name, Value *v) {
    if (obj->kind == V_OBJECT) {
        if (obj->u.obj.cls->setattr) return obj->u.obj.cls->setattr(I, obj, name, v);
        return object_setattr(I, obj, name, v);
    }
    if (obj->kind == V_CLASS) return class_setattr(I, obj, name, v);
    if (obj->kind == V_FUNC && !strcmp(name, "__name__") && v->kind == V_STR) {
        free(obj->u.func->name);
        obj->u.func->name = xstrdup(v->u.str.s);
        return 0;
    }
    if (obj->kind == V_TENSOR) {
        int rc = lib()->tensor_setattr(I, obj, name, v);
        if (rc <= 0) return rc;
    }
    if (obj->kind == V_BUILTIN && !strcmp(val_type_name(obj), "type"))     /* int.x = 1 */
        rt_raise(I, "TypeError", "cannot set '%s' attribute of immutable type '%s'", name, obj->u.builtin->name);
    else if (obj->kind == V_FUNC && strncmp(name, "__", 2)) {     /* f.x = 1: Python's function attributes */
        dict_set(&obj->u.func->attrs, name, val_incref(v));
        return 0;
    }
    else if (obj->kind == V_FUNC || obj->kind == V_TENSOR)   /* Python allows these; attn keeps no such attributes */
        rt_raise(I, "AttributeError", "cannot set attribute '%s' of a %s", name, val_type_name(obj));
    else rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", val_type_name(obj), name);
    return -1;
}

int ops_delattr(Interp *I, Value *obj, const char *name) {
    char what[160];
    Dict *d = NULL;
    if (obj->kind == V_OBJECT && obj->u.obj.klass) {
        d = &obj->u.obj.attrs;
        snprintf(what, sizeof what, "'%s' object", val_type_name(obj));
    } else if (obj->kind == V_FUNC) {
        d = &obj->u.func->attrs;
        snprintf(what, sizeof what, "'function' object");
    } else if (obj->kind == V_CLASS && (obj->u.cls->user || obj->u.cls->open)) {   /* d2l's: what I added to it */
        d = obj->u.cls->user ? &obj->u.cls->attrs : class_added(I, obj, true);
        snprintf(what, sizeof what, "type object '%s'", obj->u.cls->name);
    }
    if (obj->kind == V_OBJECT && obj->u.obj.cls == &mappingproxy_class) return proxy_setattr(I, obj, name, NULL);
    if (!d) {
        rt_raise(I, "AttributeError", "cannot delete attribute '%s' of %s%s: attn's built-in %s keep their attributes (assign a new value instead)",
                 name, obj->kind == V_MODULE ? "module " : "a ", obj->kind == V_MODULE ? obj->u.module : val_type_name(obj),
                 obj->kind == V_MODULE ? "modules" : "objects");
        return -1;
    }
    if (dict_del(d, name)) return 0;
    ops_no_attribute(I, obj, what, name);
    return -1;
}

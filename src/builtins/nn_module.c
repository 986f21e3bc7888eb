/* nn_module.c - what every nn.Module has, for attn's built-in modules (nn.Linear, d2l.MultiHeadAttention ...)
 * and the student's classes derived from nn.Module or d2l.Module alike: __init__, eval()/train() reaching every
 * submodule, parameters()/named_parameters()/state_dict() in PyTorch's order, load_state_dict, to(device) and the
 * module walks; the classes nn.Module and d2l.Module themselves; nn.Parameter, torch.device and d2l.add_to_class.
 * attn runs on the CPU: a device other than the CPU is refused with a message, everything that is a no-op there
 * works. (Autograd at the prompt, requires_grad= and torch.no_grad(), is autograd_builtins.c's.) */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "pyexc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- walking a module tree (PyTorch's orders) ---- */

static bool is_param(const Value *v) { return v->kind == V_TENSOR && v->param; }

/* Module.__init__: what PyTorch's sets up; here the training flag (True), which also marks the module ready. */
static Value *m_module_init(Interp *I, Args *a) {
    Value *none;
    if (!args_bind_method(I, a, "Module", &none, 1)) return NULL;
    Value *self = a->pos[0];
    if (!val_attr_get(self, "training")) val_attr_set(self, "training", val_bool(I->run.heap, true));
    return val_none();
}

/* The modules a walk has visited: each module is walked once, as PyTorch's named_modules() memo does, so a
 * module that holds itself (m.me = m) or one shared by two parents is not walked forever or twice. */
typedef struct Seen { const Value **v; int n; } Seen;

static bool seen_before(Seen *s, const Value *m) {
    for (int i = 0; i < s->n; i++) if (s->v[i] == m) return true;
    s->v = xrealloc(s->v, sizeof *s->v * (size_t)(s->n + 1));
    s->v[s->n++] = m;
    return false;
}

static void set_training(Value *m, bool on, Seen *seen) {
    if (seen_before(seen, m)) return;
    val_attr_set(m, "training", val_bool(m->heap, on));
    Dict *d = &m->u.obj.attrs;
    for (int i = 0; i < d->n; i++) if (val_is_module(d->vals[i])) set_training(d->vals[i], on, seen);
}

/* .train(mode=True) and .eval(): the flag of the module and of every submodule; returns the module. */
static Value *m_train(Interp *I, Args *a) {
    Value *p[1];                                 /* mode (train only) */
    if (!args_bind_method(I, a, "Module", p, 1)) return NULL;
    bool on = a->fn->tag == 1;
    Value *mode = p[0];
    if (mode && !arg_bool(I, mode, "train(): mode", &on)) return NULL;
    Seen seen = {0};
    set_training(a->pos[0], on, &seen);
    free(seen.v);
    return val_incref(a->pos[0]);
}

/* What a walk lists: parameters (named_parameters), parameters then persistent buffers (state_dict,
 * load_state_dict), or buffers (named_buffers). */
typedef enum { WALK_PARAMS, WALK_STATE, WALK_BUFFERS } WalkWhat;

/* The buffers register_buffer() recorded: a dict of name -> persistent (kept in the module's attributes). */
static Dict *buffers_of(Value *m) {
    Value *b = val_attr_get(m, "_buffers");
    return b && b->kind == V_DICT ? b->u.dict : NULL;
}

/* Appends (name, value) for the module's own parameters and buffers, then its submodules' (prefix "child."), as
 * named_parameters(), state_dict() and named_buffers() list them; dedup skips a tensor already listed (shared
 * weights appear once). */
static void walk_params(Value *m, const char *prefix, Value *out, bool dedup, WalkWhat what, Seen *seen) {
    if (seen_before(seen, m)) return;
    Dict *d = &m->u.obj.attrs, *bufs = buffers_of(m);
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < d->n; i++) {
            Value *v = d->vals[i], *buf = bufs && v->kind == V_TENSOR ? dict_get(bufs, d->keys[i]->u.str.s) : NULL;
            bool take = (pass == 0 && what != WALK_BUFFERS && is_param(v)) ||
                        (pass == 1 && buf && (what == WALK_BUFFERS || (what == WALK_STATE && buf->kind == V_BOOL && buf->u.b)));
            StrBuf name;
            sb_init(&name);
            sb_printf(&name, "%s%s", prefix, d->keys[i]->u.str.s);
            if (take) {
                bool listed = false;
                for (int64_t k = 0; dedup && k < out->u.seq.n && !listed; k++) listed = out->u.seq.items[k]->u.seq.items[1] == v;
                if (!listed) {
                    Value *pair = val_tuple(out->heap, 2);
                    val_seq_set(pair, 0, val_str(out->heap, sb_str(&name)));
                    val_seq_set(pair, 1, val_incref(v));
                    val_list_append(out, pair);
                }
            } else if (pass == 2 && val_is_module(v)) {
                sb_putc(&name, '.');
                walk_params(v, sb_str(&name), out, dedup, what, seen);
            }
            sb_free(&name);
        }
}

static Value *named_params(Value *m, bool dedup, WalkWhat what) {
    Value *l = val_list(m->heap, 0);
    Seen seen = {0};
    walk_params(m, "", l, dedup, what, &seen);
    free(seen.v);
    return l;
}

/* .register_buffer(name, tensor, persistent=True): a tensor of the module that is not a parameter (the positional
 * table of many PositionalEncoding versions): an attribute, listed by state_dict() after the parameters unless
 * persistent=False, and by named_buffers(). */
static Value *m_register_buffer(Interp *I, Args *a) {
    Value *p[3];
    if (!args_bind_method(I, a, "Module", p, 3)) return NULL;
    Value *self = a->pos[0], *name = p[0], *t = p[1], *pv = p[2];
    bool persistent = true;
    if (pv && !arg_bool(I, pv, "persistent", &persistent)) return NULL;
    if (!val_attr_get(self, "training")) return rt_error(I, "cannot assign buffer before Module.__init__() call");
    if (name->kind != V_STR) return rt_error(I, "buffer name should be a string. Got %s", val_type_name(name));
    if (strchr(name->u.str.s, '.')) return rt_error(I, "buffer name can't contain \".\"");
    if (!*name->u.str.s) return rt_error(I, "buffer name can't be empty string \"\"");
    if (t->kind != V_TENSOR && t->kind != V_NONE)
        return rt_error(I, "cannot assign '%s' object to buffer '%s' (torch Tensor or None required)", val_type_name(t), name->u.str.s);
    Dict *bufs = buffers_of(self);
    if (val_attr_get(self, name->u.str.s) && !(bufs && dict_get(bufs, name->u.str.s)))
        return rt_error(I, "attribute '%s' already exists", name->u.str.s);
    if (!bufs) {
        val_attr_set(self, "_buffers", val_dict(I->run.heap));
        bufs = buffers_of(self);
    }
    dict_set(bufs, name->u.str.s, val_bool(I->run.heap, persistent));
    val_attr_set(self, name->u.str.s, val_incref(t));
    return val_none();
}

/* What module.parameters(), buffers(), children(), modules() and their named_ forms return: a generator of the items
 * of l (stolen), <generator object Module.parameters at 0x...>, as PyTorch's Python methods are generators. */
static Value *module_generator(Args *a, Value *l) {
    char q[64];
    snprintf(q, sizeof q, "Module.%s", a->fn->name);
    return ops_list_generator(l, q);
}

/* .buffers() / .named_buffers(): the buffers, the module's own first, then its submodules'. */
static Value *m_buffers(Interp *I, Args *a) {
    Value *p[2];                                 /* recurse / prefix, recurse: attn lists every buffer */
    if (!args_bind_method(I, a, "Module", p, 2)) return NULL;
    if (p[0] || p[1]) return rt_error(I, "%s() takes no arguments in attn", a->fname);
    Value *l = named_params(a->pos[0], true, WALK_BUFFERS);
    if (a->fn->tag != 1)
        for (int64_t i = 0; i < l->u.seq.n; i++) val_seq_set(l, i, val_incref(l->u.seq.items[i]->u.seq.items[1]));
    return module_generator(a, l);
}

/* .parameters() and .named_parameters(): (name, parameter) pairs; a generator, as PyTorch's. */
static Value *m_parameters(Interp *I, Args *a) {
    Value *p[2];                                 /* recurse / prefix, recurse */
    if (!args_bind_method(I, a, "Module", p, 2)) return NULL;
    if (a->fn->tag == 1 && p[0]) return rt_error(I, "named_parameters(prefix=...) is not supported in attn");
    Value *l = named_params(a->pos[0], true, WALK_PARAMS);
    if (a->fn->tag != 1)
        for (int64_t i = 0; i < l->u.seq.n; i++) val_seq_set(l, i, val_incref(l->u.seq.items[i]->u.seq.items[1]));
    return module_generator(a, l);
}

/* module.zero_grad(set_to_none=False), PyTorch 1.13's: every parameter of the module and its submodules that has a
 * .grad gets it filled with zeros in place (or set to None). Returns None. */
static Value *m_zero_grad(Interp *I, Args *a) {
    Value *sn;
    if (!args_bind_method(I, a, "Module", &sn, 1)) return NULL;
    bool none = false;
    if (sn && !arg_bool(I, sn, "set_to_none", &none)) return NULL;
    Value *l = named_params(a->pos[0], true, WALK_PARAMS);
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *p = l->u.seq.items[i]->u.seq.items[1];
        if (!p->ag || !p->ag->grad) continue;
        if (none) { ag_zero_grad(p->ag); continue; }
        Tensor *z = ten_new_in(I->run.ten, p->ag->grad->dtype, p->ag->grad->ndim, p->ag->grad->shape);
        if (!z || ten_copy_into(p->ag->grad, z) < 0) { ten_free(z); val_decref(l); return rt_tensor_error(I); }
        ten_free(z);
    }
    val_decref(l);
    return val_none();
}

/* module.requires_grad_(requires_grad=True): sets requires_grad on every parameter of the module and its
 * submodules, as PyTorch's; returns the module. */
static Value *m_requires_grad_(Interp *I, Args *a) {
    Value *f;
    if (!args_bind_method(I, a, "Module", &f, 1)) return NULL;
    bool on = true;
    if (f && !arg_bool(I, f, "requires_grad", &on)) return NULL;
    Value *l = named_params(a->pos[0], true, WALK_PARAMS);
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *p = l->u.seq.items[i]->u.seq.items[1];
        if (!p->ag) p->ag = ag_meta_new(false);
        if (ag_set_requires_grad(p->ag, p->u.t, on) < 0) { val_decref(l); return rt_tensor_error(I); }
    }
    val_decref(l);
    return val_incref(a->pos[0]);
}

/* .state_dict(): an OrderedDict of every parameter by its dotted name, each detached as in PyTorch: a plain tensor
 * (not a Parameter) on the parameter's memory, so writing into it changes the module. */
static Value *m_state_dict(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "Module", NULL, 0)) return NULL;
    Value *l = named_params(a->pos[0], false, WALK_STATE), *d = val_dict(I->run.heap);
    d->u.dict->ordered = true;
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *pair = l->u.seq.items[i];
        Tensor *t = ten_alias(pair->u.seq.items[1]->u.t);
        if (!t) { val_decref(l); val_decref(d); return rt_tensor_error(I); }
        dict_append(d->u.dict, val_incref(pair->u.seq.items[0]), val_tensor(I->run.heap, t));
    }
    val_decref(l);
    return d;
}

static void all_keys_matched(Interp *I, StrBuf *out, Value *self, int indent) { (void)self; (void)indent; sb_puts(out, "<All keys matched successfully>"); }
static const ObjClass KeysMatchedClass = {.name = "_IncompatibleKeys", .repr = all_keys_matched};

/* .load_state_dict(state_dict, strict=True): copies each tensor into the parameter of that name, shapes checked;
 * with strict, missing and unexpected keys are an error listing them, as in PyTorch. */
static Value *m_load_state_dict(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, "Module", p, 2)) return NULL;
    Value *sd = p[0], *sv = p[1];
    bool strict = true;
    if (!sd || sd->kind != V_DICT) return rt_error(I, "load_state_dict(state_dict): state_dict must be a dict such as another module's state_dict()");
    if (sv && !arg_bool(I, sv, "strict", &strict)) return NULL;
    Value *self = a->pos[0], *mine = named_params(self, false, WALK_STATE);
    StrBuf missing, unexpected;
    sb_init(&missing);
    sb_init(&unexpected);
    Value *r = NULL;
    for (int64_t i = 0; i < mine->u.seq.n; i++) {
        const char *name = mine->u.seq.items[i]->u.seq.items[0]->u.str.s;
        if (!dict_get(sd->u.dict, name)) sb_printf(&missing, "%s\"%s\"", missing.len ? ", " : "", name);
    }
    for (int i = 0; i < sd->u.dict->n; i++) {
        Value *k = sd->u.dict->keys[i];
        bool known = false;
        for (int64_t j = 0; k->kind == V_STR && j < mine->u.seq.n && !known; j++) known = !strcmp(mine->u.seq.items[j]->u.seq.items[0]->u.str.s, k->u.str.s);
        if (!known) { sb_puts(&unexpected, unexpected.len ? ", " : ""); val_repr_quiet(I, &unexpected, k); }
    }
    if (strict && (missing.len || unexpected.len)) {
        rt_error(I, "Error(s) in loading state_dict for %s:%s%s%s%s", val_type_name(self),
                 missing.len ? "\n\tMissing key(s) in state_dict: " : "", sb_str(&missing),
                 unexpected.len ? "\n\tUnexpected key(s) in state_dict: " : "", sb_str(&unexpected));
        goto out;
    }
    for (int64_t i = 0; i < mine->u.seq.n; i++) {
        Value *pair = mine->u.seq.items[i], *src = dict_get(sd->u.dict, pair->u.seq.items[0]->u.str.s);
        if (!src) continue;
        Tensor *dst = pair->u.seq.items[1]->u.t;
        if (src->kind != V_TENSOR || !ten_same_shape(src->u.t, dst)) {
            char want[96], got[96] = "not a tensor";
            ten_shape_str(dst->shape, dst->ndim, want, sizeof want);
            if (src->kind == V_TENSOR) ten_shape_str(src->u.t->shape, src->u.t->ndim, got, sizeof got);
            rt_error(I, "Error(s) in loading state_dict for %s:\n\tsize mismatch for %s: copying a param with shape %s from "
                        "checkpoint, the shape in current model is %s.", val_type_name(self), pair->u.seq.items[0]->u.str.s, got, want);
            goto out;
        }
        if (ten_index_set(dst, NULL, 0, src->u.t) < 0) { rt_tensor_error(I); goto out; }
    }
    r = val_object(I->run.heap, &KeysMatchedClass);
out:
    sb_free(&missing);
    sb_free(&unexpected);
    val_decref(mine);
    return r;
}

/* .to(device), .to(dtype), .cpu(): attn's modules live on the CPU in float32, so these return the module. */
static Value *m_to(Interp *I, Args *a) {
    Value *p[3];                                 /* device, dtype, non_blocking: .to(torch.float32) fills the first */
    if (!args_bind_method(I, a, "Module", p, 3)) return NULL;
    for (int i = 0; i < 3; i++) {
        Value *v = p[i];
        if (!v || v->kind == V_BOOL) continue;
        if (v->kind == V_DTYPE) {
            if (v->u.dtype != DT_F32) return rt_error(I, "attn's modules compute in float32 only: .to(%s) is not supported", ten_dtype_name(v->u.dtype));
        } else if (i == 1) return rt_error(I, "attn's modules compute in float32 only");
        else if (!arg_device_cpu(I, v)) return NULL;
    }
    return val_incref(a->pos[0]);
}

/* module.float() / .double() / .half(): tag is the dtype asked for (-1 float16). attn's parameters are float32, so
 * .float() is the module itself (as PyTorch's returns self) and the others are refused in one line. */
static Value *m_cast_module(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "Module", NULL, 0)) return NULL;
    if (a->fn->tag == DT_F32) return val_incref(a->pos[0]);
    return rt_error(I, "attn's modules compute in float32 only: .%s() is not supported (attn has no %s)", a->fn->name,
                    a->fn->tag == DT_F64 ? "float64 parameters" : "float16");
}

static Value *m_cuda(Interp *I, Args *a) { return rt_error(I, "attn runs on the CPU only: there is no GPU (.cuda() is not available)"); }

/* .children() / .named_children() and .modules() / .named_modules() (the module itself first, then depth first). */
static void walk_modules(Value *m, const char *prefix, Value *out, bool recurse, Seen *seen) {
    Dict *d = &m->u.obj.attrs;
    for (int i = 0; i < d->n; i++) {
        if (!val_is_module(d->vals[i]) || (recurse && seen_before(seen, d->vals[i]))) continue;
        StrBuf name;
        sb_init(&name);
        sb_printf(&name, "%s%s", prefix, d->keys[i]->u.str.s);
        Value *pair = val_tuple(out->heap, 2);
        val_seq_set(pair, 0, val_str(out->heap, sb_str(&name)));
        val_seq_set(pair, 1, val_incref(d->vals[i]));
        val_list_append(out, pair);
        if (recurse) { sb_putc(&name, '.'); walk_modules(d->vals[i], sb_str(&name), out, true, seen); }
        sb_free(&name);
    }
}

static Value *m_children(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "Module", NULL, 0)) return NULL;
    bool all = a->fn->tag >= 2, named = a->fn->tag % 2 == 1;
    Value *l = val_list(I->run.heap, 0);
    if (all) {
        Value *self = val_tuple(I->run.heap, 2);
        val_seq_set(self, 0, val_str(I->run.heap, ""));
        val_seq_set(self, 1, val_incref(a->pos[0]));
        val_list_append(l, self);
    }
    Seen seen = {0};
    seen_before(&seen, a->pos[0]);
    walk_modules(a->pos[0], "", l, all, &seen);
    free(seen.v);
    if (!named)
        for (int64_t i = 0; i < l->u.seq.n; i++) val_seq_set(l, i, val_incref(l->u.seq.items[i]->u.seq.items[1]));
    return module_generator(a, l);
}

/* .apply(fn): fn on every submodule (children first) and then on the module. fn is the student's and may reassign
 * any module's children: each module visited is held (a reference in seen, released by m_apply) from its visit to
 * the end, as PyTorch's children() generators hold them, so none is freed while its loop runs or mistaken for a
 * new module at its address. */
static bool apply_fn(Interp *I, Value *m, Value *fn, Seen *seen) {
    if (seen_before(seen, m)) return true;
    val_incref(m);
    for (int i = 0; i < m->u.obj.attrs.n; i++)
        if (val_is_module(m->u.obj.attrs.vals[i]) && !apply_fn(I, m->u.obj.attrs.vals[i], fn, seen)) return false;
    Args one = {&m, 1, NULL, NULL, 0, NULL, NULL};
    Value *r = interp_call(I, fn, &one);
    val_decref(r);
    return r != NULL;
}

/* .apply(fn): returns the module. */
static Value *m_apply(Interp *I, Args *a) {
    Value *fn;
    if (!args_bind_method(I, a, "Module", &fn, 1)) return NULL;
    Seen seen = {0};
    bool ok = apply_fn(I, a->pos[0], fn, &seen);
    for (int i = 0; i < seen.n; i++) val_decref((Value *)seen.v[i]);      /* held by apply_fn */
    free(seen.v);
    return ok ? val_incref(a->pos[0]) : NULL;
}

static Value *m_add_module(Interp *I, Args *a) {
    Value *p[2];                                 /* name, module */
    if (!args_bind_method(I, a, "Module", p, 2)) return NULL;
    if (p[0]->kind != V_STR) return rt_raise(I, "TypeError", "module name should be a string. Got %s", val_type_name(p[0]));
    if (!val_is_module(p[1]) && p[1]->kind != V_NONE) return rt_raise(I, "TypeError", "%s is not a Module subclass", val_type_name(p[1]));
    return ops_setattr(I, a->pos[0], p[0]->u.str.s, p[1]) < 0 ? NULL : val_none();
}

/* module.forward(*inputs): what calling one of attn's modules computes (nn.Linear(3, 2).forward(x) is its call, as
 * PyTorch's forward is); a student's module class that defines no forward has PyTorch's NotImplementedError. */
static Value *m_forward(Interp *I, Args *a) {
    Value *self = a->pos[0];
    if (self->kind == V_OBJECT && !self->u.obj.klass && self->u.obj.cls->call) {
        Args b = {a->pos + 1, a->npos - 1, a->kwnames, a->kwvals, a->nkw, "forward", NULL};
        return self->u.obj.cls->call(I, self, &b);
    }
    return rt_raise(I, "NotImplementedError", "Module [%s] is missing the required \"forward\" function", val_type_name(self));
}

/* ---- forward hooks: PyTorch's register_forward_hook and register_forward_pre_hook ---- */

/* handle.remove(): takes its hook out of the module's dict (again: nothing, as PyTorch's) */
static Value *m_handle_remove(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "RemovableHandle", NULL, 0)) return NULL;
    Value *d = val_attr_get(a->pos[0], "hooks_dict_ref"), *id = val_attr_get(a->pos[0], "id");
    int at;
    if (d && d->kind == V_DICT && id && ops_dict_find(I, d->u.dict, id, &at) && at >= 0) dict_del_at(d->u.dict, at);
    return interp_failed(I) ? NULL : val_none();
}
static const Builtin handle_methods[] = {
    {"remove", m_handle_remove, "handle.remove()", "Takes the hook out of its module: it runs no more.", "", 0, "handle"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};
static void handle_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)I;
    (void)depth;
    sb_printf(out, "<torch.utils.hooks.RemovableHandle object at %p>", (void *)self);
}
static const ObjClass RemovableHandleClass = {.name = "RemovableHandle", .repr = handle_repr, .methods = handle_methods};

/* module.register_forward_hook(hook), register_forward_pre_hook(hook) (tag 1): hook goes last into the module's
 * attribute _forward_hooks (_forward_pre_hooks), an OrderedDict as PyTorch's, keyed by the handle's id (the dict's version
 * then: never the key of an earlier hook, so a stale handle removes nothing else), which call.c runs around each
 * call of the module; the handle (hooks_dict_ref, id) that remove()s it. */
static Value *m_register_hook(Interp *I, Args *a) {
    Value *hook;
    if (!args_bind_method(I, a, "Module", &hook, 1)) return NULL;
    Value *m = a->pos[0], *d = val_attr_get(m, a->fn->tag ? "_forward_pre_hooks" : "_forward_hooks");
    if (!d || d->kind != V_DICT) {
        d = val_dict(I->run.heap);
        d->u.dict->ordered = true;                   /* an OrderedDict, as PyTorch's */
        val_attr_set(m, a->fn->tag ? "_forward_pre_hooks" : "_forward_hooks", d);
    }
    int64_t id = d->u.dict->version;
    dict_append(d->u.dict, val_int(I->run.heap, id), val_incref(hook));
    Value *h = val_object(I->run.heap, &RemovableHandleClass);
    val_attr_set(h, "hooks_dict_ref", val_incref(d));
    val_attr_set(h, "id", val_int(I->run.heap, id));
    return h;
}

/* The methods of every module; nn.Module's class namespace for the student's classes. */
const Builtin bi_module_methods[] = {
    {"register_forward_hook", m_register_hook, "module.register_forward_hook(hook)",
     "hook(module, input, output) runs after each call of the module (input: the tuple of its arguments); what it "
     "returns other than None is the call's output. Returns a handle: handle.remove() takes the hook out.", "", 0, "module"},
    {"register_forward_pre_hook", m_register_hook, "module.register_forward_pre_hook(hook)",
     "hook(module, input) runs before each call of the module; what it returns other than None replaces the "
     "arguments (a tuple, or one value). Returns a handle: handle.remove() takes the hook out.", "", 1, "module"},
    {"__init__", m_module_init, "nn.Module.__init__(self)", "Makes self a module (call it first: super().__init__()).", "", 0, "nn.Module"},
    {"forward", m_forward, "module.forward(*inputs)", "What calling the module computes (module(x) calls module.forward(x)); every module class defines it.", "", 0, "module"},
    {"eval", m_train, "module.eval()", "Evaluation mode for the module and every submodule: dropout off (as after .eval() in PyTorch).", "", 0, "module"},
    {"train", m_train, "module.train(mode=True)", "Training mode: dropout on (modules start in training mode).", "", 1, "module"},
    {"zero_grad", m_zero_grad, "module.zero_grad(set_to_none=False)", "Every parameter's .grad (submodules' too) filled with zeros (set_to_none=True: set to None).", "", 0, "module"},
    {"requires_grad_", m_requires_grad_, "module.requires_grad_(requires_grad=True)", "Sets requires_grad on every parameter of the module and its submodules; returns the module (False freezes it).", "", 0, "module"},
    {"parameters", m_parameters, "module.parameters(recurse=True)", "The module's parameters (weights), its own first, then its submodules'.", "", 0, "module"},
    {"named_parameters", m_parameters, "module.named_parameters(prefix='', recurse=True)", "(name, parameter) pairs such as ('W_q.weight', ...).", "", 1, "module"},
    {"state_dict", m_state_dict, "module.state_dict()", "Every parameter (then buffer) by its dotted name, in an OrderedDict.", "", 0, "module"},
    {"load_state_dict", m_load_state_dict, "module.load_state_dict(state_dict, strict=True)",
     "Copies the tensors of a state_dict into the parameters of the same names.", "", 0, "module"},
    {"to", m_to, "module.to(device=None, dtype=None, non_blocking=False)", "attn's modules are on the CPU already: returns the module (a GPU is refused).", "", 0, "module"},
    {"cpu", m_to, "module.cpu()", "Returns the module (it is on the CPU).", "", 0, "module"},
    {"float", m_cast_module, "module.float()", "Returns the module: its parameters are float32 already.", "", DT_F32, "module"},
    {"double", m_cast_module, "module.double()", "Not available: attn's modules compute in float32 only.", "", DT_F64, "module"},
    {"half", m_cast_module, "module.half()", "Not available: attn has no float16.", "", -1, "module"},
    {"cuda", m_cuda, "module.cuda()", "Not available: attn has no GPU.", "", 0, "module"},
    {"children", m_children, "module.children()", "The direct submodules, in the order they were assigned.", "", 0, "module"},
    {"named_children", m_children, "module.named_children()", "(name, submodule) pairs.", "", 1, "module"},
    {"modules", m_children, "module.modules()", "The module and all its submodules, depth first.", "", 2, "module"},
    {"named_modules", m_children, "module.named_modules()", "(dotted name, module) pairs, the module itself as ''.", "", 3, "module"},
    {"apply", m_apply, "module.apply(fn)", "Calls fn on every submodule and then on the module.", "", 0, "module"},
    {"register_buffer", m_register_buffer, "module.register_buffer(name, tensor, persistent=True)",
     "A tensor of the module that is not a parameter: an attribute, and in state_dict() unless persistent=False.", "", 0, "module"},
    {"buffers", m_buffers, "module.buffers(recurse=True)", "The tensors given to register_buffer, the module's own first.", "", 0, "module"},
    {"named_buffers", m_buffers, "module.named_buffers(prefix='', recurse=True)", "(name, buffer) pairs such as ('P', ...).", "", 1, "module"},
    {"add_module", m_add_module, "module.add_module(name, module)", "Same as setattr(module, name, submodule).", "", 0, "module"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* ---- d2l.Module (d2l/torch.py: Module(nn.Module, HyperParameters)) ---- */

/* save_hyperparameters(ignore=[]): the caller's arguments become attributes (and self.hparams), except self and
 * names starting with '_'. The caller is the running method: its local variables. */
Value *d2l_save_hyperparameters(Interp *I, Args *a) {
    Value *ignore, *self = a->npos ? a->pos[0] : NULL;
    if (!args_bind_method(I, a, "HyperParameters", &ignore, 1)) return NULL;
    if (ignore && ignore->kind != V_LIST && ignore->kind != V_TUPLE) return rt_error(I, "save_hyperparameters(ignore=[...]) takes a list of names");
    if (!I->scope) return rt_error(I, "save_hyperparameters() is called inside __init__");
    Value *hp = val_dict(I->run.heap);
    Dict *vars = I->scope->vars;
    for (int i = 0; i < vars->n; i++) {
        const char *k = vars->keys[i]->u.str.s;
        bool skip = k[0] == '_' || vars->vals[i] == self;
        for (int64_t j = 0; ignore && j < ignore->u.seq.n && !skip; j++)
            skip = ignore->u.seq.items[j]->kind == V_STR && !strcmp(ignore->u.seq.items[j]->u.str.s, k);
        if (skip) continue;
        dict_set(hp->u.dict, k, val_incref(vars->vals[i]));
        if (ops_setattr(I, self, k, vars->vals[i]) < 0) { val_decref(hp); return NULL; }
    }
    int rc = ops_setattr(I, self, "hparams", hp);
    val_decref(hp);
    return rc < 0 ? NULL : val_none();
}

/* d2l.Module.__init__(plot_train_per_epoch=2, plot_valid_per_epoch=1): nn.Module's, then the hyperparameters. */
static Value *m_d2l_module_init(Interp *I, Args *a) {
    Value *p[2];                                 /* plot_train_per_epoch, plot_valid_per_epoch */
    if (!args_bind_method(I, a, "Module", p, 2)) return NULL;
    Value *self = a->pos[0];
    if (!val_attr_get(self, "training")) val_attr_set(self, "training", val_bool(I->run.heap, true));
    const char *names[2] = {"plot_train_per_epoch", "plot_valid_per_epoch"};
    int64_t dflt[2] = {2, 1};
    Value *hp = val_dict(I->run.heap);
    for (int i = 0; i < 2; i++) {
        Value *val = p[i] ? val_incref(p[i]) : val_int(I->run.heap, dflt[i]);
        dict_set(hp->u.dict, names[i], val_incref(val));
        val_attr_set(self, names[i], val);
    }
    val_attr_set(self, "hparams", hp);
    Value *board = interp_call(I, d2l_progress_board_class(), &(Args){NULL, 0, NULL, NULL, 0, "ProgressBoard", NULL});
    if (!board) return NULL;
    int rc = ops_setattr(I, self, "board", board);          /* self.board = ProgressBoard() */
    val_decref(board);
    return rc < 0 ? NULL : val_none();
}

/* self.name(*pos, **kw), looked up on self so that the student's method runs; a new reference or NULL. */
static Value *call_own(Interp *I, Value *self, const char *name, Value **pos, int npos, const char **kwn, Value **kwv, int nkw) {
    Value *f = ops_getattr(I, self, name);
    if (!f) return NULL;
    Args a = {pos, npos, kwn, kwv, nkw, name, NULL};
    Value *r = interp_call(I, f, &a);
    val_decref(f);
    return r;
}

/* loss(y_hat, y): d2l's raises NotImplementedError: a subclass defines it (§3.4: ((y_hat - y) ** 2 / 2).mean()). */
static Value *m_d2l_loss(Interp *I, Args *a) {
    Value *r = rt_raise(I, "NotImplementedError", "NotImplementedError (%s defines no loss(self, y_hat, y))", val_type_name(a->pos[0]));
    pyexc_set_arg(I, NULL);
    return r;
}

/* forward(X): self.net(X), after d2l's assert hasattr(self, 'net'), 'Neural network is defined'. */
static Value *m_d2l_forward(Interp *I, Args *a) {
    Value *self = a->pos[0], *net = ops_attr_peek(self, "net");
    if (!net) return rt_raise(I, "AssertionError", "Neural network is defined");
    Args b = {a->pos + 1, a->npos - 1, a->kwnames, a->kwvals, a->nkw, "net", NULL};
    return interp_call(I, net, &b);
}

/* obj.name as a number, obj = self.trainer when of_trainer (read anew each time, as d2l's self.trainer.name: the
 * code of a property before may have replaced it); false with the error set. */
static bool trainer_number(Interp *I, Value *self, bool of_trainer, const char *name, double *out) {
    Value *obj = of_trainer ? ops_getattr(I, self, "trainer") : val_incref(self);
    Value *v = obj ? ops_getattr(I, obj, name) : NULL;
    bool ok = v && arg_double(I, v, name, out);
    val_decref(v);
    val_decref(obj);
    return ok;
}

/* plot(key, value, train), as d2l's: the board's xlabel 'epoch'; a training point at x = train_batch_idx /
 * num_train_batches averaged over num_train_batches / plot_train_per_epoch points, a validation point at x = epoch
 * + 1 over num_val_batches / plot_valid_per_epoch; drawn as 'train_KEY' or 'val_KEY'. */
static Value *m_d2l_plot(Interp *I, Args *a) {
    Value *p[3];
    if (!args_bind_method(I, a, "Module", p, 3)) return NULL;
    Value *self = a->pos[0], *key = p[0], *value = p[1], *tv = p[2];
    bool train;
    if (!interp_truth(I, tv, &train)) return NULL;
    if (!ops_attr_peek(self, "trainer")) return rt_raise(I, "AssertionError", "Trainer is not inited");
    Value *board = ops_getattr(I, self, "board");
    if (!board) return NULL;
    Value *r = NULL, *xv = NULL, *label = NULL, *nv = NULL, *y = NULL;
    double idx, nb, per, n;
    {
        Value *xl = val_str(I->run.heap, "epoch");
        int rc = ops_setattr(I, board, "xlabel", xl);
        val_decref(xl);
        if (rc < 0) goto out;
    }
    if (!trainer_number(I, self, true, train ? "train_batch_idx" : "epoch", &idx) ||
        !trainer_number(I, self, true, train ? "num_train_batches" : "num_val_batches", &nb) ||
        !trainer_number(I, self, false, train ? "plot_train_per_epoch" : "plot_valid_per_epoch", &per))
        goto out;
    if (train && nb == 0) { rt_raise(I, "ZeroDivisionError", "division by zero"); goto out; }
    if (per == 0) { rt_raise(I, "ZeroDivisionError", "division by zero"); goto out; }
    xv = train ? val_float(I->run.heap, idx / nb) : val_int(I->run.heap, (int64_t)idx + 1);
    n = nb / per;
    nv = val_int(I->run.heap, (int64_t)n);
    {
        StrBuf l;
        sb_init(&l);
        sb_puts(&l, train ? "train_" : "val_");
        if (!val_str_of(I, &l, key)) { sb_free(&l); goto out; }      /* 'train_' + str(key), as d2l's f-string */
        label = val_str(I->run.heap, sb_str(&l));
        sb_free(&l);
    }
    if (value->kind == V_TENSOR) {              /* d2l.numpy(value): the number, detached */
        Tensor *c = ten_copy(value->u.t);
        if (!c) { rt_tensor_error(I); goto out; }
        y = val_tensor(I->run.heap, c);
    } else y = val_incref(value);
    {
        Value *pos[3] = {xv, y, label}, *kwv[1] = {nv};
        const char *kwn[1] = {"every_n"};
        val_decref(board);                      /* self.board.draw(...): self.board read anew, as d2l's line does */
        board = ops_getattr(I, self, "board");
        if (board) r = call_own(I, board, "draw", pos, 3, kwn, kwv, 1);
    }
out:
    val_decref(board);
    val_decref(xv);
    val_decref(label);
    val_decref(nv);
    val_decref(y);
    return r;
}

/* training_step(batch): l = self.loss(self(*batch[:-1]), batch[-1]); self.plot('loss', l, train=True); l.
 * validation_step (tag 1): the same with train=False, returning None. */
static Value *m_d2l_step(Interp *I, Args *a) {
    Value *batch;
    if (!args_bind_method(I, a, "Module", &batch, 1)) return NULL;
    Value *self = a->pos[0], *items = ops_to_list(I, batch);
    if (!items) return NULL;
    int64_t n = items->u.seq.n;
    if (n == 0) { val_decref(items); return rt_raise(I, "IndexError", "list index out of range"); }
    Args call = {items->u.seq.items, (int)n - 1, NULL, NULL, 0, "forward", NULL};
    Value *y_hat = interp_call(I, self, &call), *l = NULL;
    if (y_hat) {
        Value *pos[2] = {y_hat, items->u.seq.items[n - 1]};
        l = call_own(I, self, "loss", pos, 2, NULL, NULL, 0);
    }
    val_decref(y_hat);
    if (l) {
        Value *key = val_str(I->run.heap, "loss"), *tr = val_bool(I->run.heap, a->fn->tag == 0), *pos[2] = {key, l}, *kwv[1] = {tr};
        const char *kwn[1] = {"train"};
        Value *r = call_own(I, self, "plot", pos, 2, kwn, kwv, 1);
        val_decref(key);
        val_decref(tr);
        if (!r) { val_decref(l); l = NULL; }
        val_decref(r);
    }
    val_decref(items);
    if (l && a->fn->tag == 1) { val_decref(l); return val_none(); }
    return l;
}

/* configure_optimizers(): torch.optim.SGD(self.parameters(), lr=self.lr), torch.optim looked up when called. */
static Value *m_d2l_configure_optimizers(Interp *I, Args *a) {
    Value *self = a->pos[0], *sgd = builtins_module_attr(I->run.heap, "torch.optim", "SGD"), *r = NULL;
    if (!sgd) return rt_error(I, "configure_optimizers: attn has no torch.optim.SGD yet: define configure_optimizers(self) in your "
                                 "class, returning an object with zero_grad() and step() (the book's own SGD of §3.4)");
    Value *params = call_own(I, self, "parameters", NULL, 0, NULL, NULL, 0), *lr = params ? ops_getattr(I, self, "lr") : NULL;
    if (lr) {
        const char *kwn[1] = {"lr"};
        Value *kwv[1] = {lr};
        Args b = {&params, 1, kwn, kwv, 1, "SGD", NULL};
        r = interp_call(I, sgd, &b);
    }
    val_decref(params);
    val_decref(lr);
    val_decref(sgd);
    return r;
}

/* apply_init(inputs, init=None): self.forward(*inputs), then self.net.apply(init) when init is given. */
static Value *m_d2l_apply_init(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, "Module", p, 2)) return NULL;
    Value *self = a->pos[0], *inputs = p[0], *init = p[1];
    Value *items = ops_to_list(I, inputs);
    if (!items) return NULL;
    Value *r = call_own(I, self, "forward", items->u.seq.items, (int)items->u.seq.n, NULL, NULL, 0);
    val_decref(items);
    if (!r) return NULL;
    val_decref(r);
    if (!init || init->kind == V_NONE) return val_none();
    Value *net = ops_getattr(I, self, "net");
    if (!net) return NULL;
    r = call_own(I, net, "apply", &init, 1, NULL, NULL, 0);
    val_decref(net);
    if (!r) return NULL;
    val_decref(r);
    return val_none();
}

static const Builtin d2l_module_methods[] = {
    {"__init__", m_d2l_module_init, "d2l.Module.__init__(self, plot_train_per_epoch=2, plot_valid_per_epoch=1)",
     "nn.Module's __init__ plus the book's hyperparameters.", "", 0, "d2l.Module"},
    {"save_hyperparameters", d2l_save_hyperparameters, "self.save_hyperparameters(ignore=[])",
     "Stores the arguments of the running __init__ as attributes of self.", "", 0, "self"},
    {"loss", m_d2l_loss, "self.loss(y_hat, y)", "The loss of predictions y_hat against labels y: each model class defines it.", "§3.2", 0, "self"},
    {"forward", m_d2l_forward, "self.forward(X)", "self.net(X) (a model that keeps its layers in self.net).", "§3.2", 0, "self"},
    {"plot", m_d2l_plot, "self.plot(key, value, train)",
     "Draws value on self.board as 'train_KEY' (x: the epoch fraction so far) or 'val_KEY' (x: the epoch).", "§3.2", 0, "self"},
    {"training_step", m_d2l_step, "self.training_step(batch)",
     "l = self.loss(self(*batch[:-1]), batch[-1]), plotted as train_loss; returns l.", "§3.2", 0, "self"},
    {"validation_step", m_d2l_step, "self.validation_step(batch)",
     "The loss of a validation batch, plotted as val_loss.", "§3.2", 1, "self"},
    {"configure_optimizers", m_d2l_configure_optimizers, "self.configure_optimizers()",
     "torch.optim.SGD(self.parameters(), lr=self.lr): what Trainer.fit steps with.", "§3.2", 0, "self"},
    {"apply_init", m_d2l_apply_init, "self.apply_init(inputs, init=None)",
     "Runs forward once on inputs (so lazy layers get their sizes), then self.net.apply(init).", "§6.4", 0, "self"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* nn.Module and d2l.Module: static classes of the process (builtin_classes_open says why), made by
 * nn_module_classes_open under builtins_open's pthread_once and never reassigned. */
static Value *nn_module_class, *d2l_module_class;

void nn_module_classes_open(void) {
    nn_module_class = class_new_builtin("Module", "torch.nn.modules.module", NULL, bi_module_methods, true);
    d2l_module_class = class_new_builtin("Module", "d2l.torch", nn_module_class, d2l_module_methods, true);
    d2l_module_class->u.cls->open = true;              /* @d2l.add_to_class(d2l.Module), as the book does */
}

static Value *module_class(bool d2l) { return d2l ? d2l_module_class : nn_module_class; }

/* ---- torch.device ---- */

static void device_repr(Interp *I, StrBuf *out, Value *self, int indent) { (void)self; (void)indent; sb_puts(out, "device(type='cpu')"); }
static void device_str(Interp *I, StrBuf *out, Value *self) { (void)self; sb_puts(out, "cpu"); }
static Value *device_getattr(Interp *I, Value *self, const char *name) {
    if (!strcmp(name, "type")) return val_str(I->run.heap, "cpu");
    if (!strcmp(name, "index")) return val_none();
    return rt_error(I, "'torch.device' object has no attribute '%s'", name);
}
static const ObjClass DeviceClass = {.name = "torch.device", .repr = device_repr, .str = device_str, .getattr = device_getattr};

bool arg_device_cpu(Interp *I, Value *v) {
    if (v->kind == V_NONE || (v->kind == V_OBJECT && v->u.obj.cls == &DeviceClass)) return true;
    if (v->kind == V_STR) {
        const char *s = v->u.str.s;
        if (!strcmp(s, "cpu") || !strncmp(s, "cpu:", 4)) return true;
        if (!strncmp(s, "cuda", 4) || !strcmp(s, "mps") || !strcmp(s, "xla") || !strncmp(s, "xpu", 3)) {
            rt_error(I, "attn runs on the CPU only: there is no GPU ('%s'); leave device out, or use 'cpu'", s);
            return false;
        }
        rt_error(I, "Expected one of cpu, cuda, ... device type at start of device string: %s", s);
        return false;
    }
    rt_error(I, "a device must be 'cpu' or torch.device('cpu'), not %s", val_type_name(v));
    return false;
}

static Value *device_value(ValHeap *heap) { return val_object(heap, &DeviceClass); }

static Value *bi_device(Interp *I, Args *a) {
    Value *p[2];                                 /* type, index */
    if (!args_bind(I, a, p, 2)) return NULL;
    Value *t = p[0];
    if (t->kind != V_STR && !(t->kind == V_OBJECT && t->u.obj.cls == &DeviceClass)) return rt_error(I, "device() takes a string such as 'cpu'");
    return arg_device_cpu(I, t) ? device_value(I->run.heap) : NULL;
}

/* Checked for every builtin call: device= names the CPU (requires_grad= is applied after it: ag_after_call). */
bool args_device_check(Interp *I, Args *a) {
    const char *fn = a->fn ? a->fn->name : "";
    if (!strcmp(fn, "cuda")) { rt_error(I, "attn runs on the CPU only: there is no GPU (.cuda() is not available)"); return false; }
    if (!strcmp(fn, "to"))          /* X.to('cuda'), X.to(torch.device(...)): the device among the positionals */
        for (int i = 0; i < a->npos; i++)
            if ((a->pos[i]->kind == V_STR || (a->pos[i]->kind == V_OBJECT && a->pos[i]->u.obj.cls == &DeviceClass)) &&
                !arg_device_cpu(I, a->pos[i]))
                return false;
    for (int k = 0; k < a->nkw; k++) {
        if (!strcmp(a->kwnames[k], "device") && !arg_device_cpu(I, a->kwvals[k])) return false;
    }
    return true;
}

/* ---- nn.Parameter, torch.no_grad(), d2l.add_to_class ---- */

/* nn.Parameter(data=None, requires_grad=True): a leaf sharing data's elements (its storage, shape, strides and
 * dtype, as PyTorch's data.detach()), or an empty float32 tensor without data; requires_grad needs a float dtype
 * (PyTorch's message). A new reference, or NULL with the error set. */
static Value *bi_parameter(Interp *I, Args *a) {
    Value *p_[2];                               /* data, requires_grad */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *d = p_[0], *rg = p_[1];
    bool on = true;
    if (rg && !arg_bool(I, rg, "requires_grad", &on)) return NULL;
    if (d && d->kind != V_TENSOR) return arg_not_tensor(I, a, d, "detach", ARG_RECEIVER);
    if (d && on && !ten_is_float(d->u.t->dtype)) return rt_error(I, "Only Tensors of floating point and complex dtype can require gradients");
    Tensor *t = d ? ten_alias(d->u.t) : ten_new_in(I->run.ten, DT_F32, 1, (int64_t[]){0});
    if (!t) return rt_tensor_error(I);
    Value *p = val_tensor_ag(I->run.heap, t, ag_meta_new(on));      /* a leaf; requires grad unless requires_grad=False */
    p->param = true;
    ag_meta_claim(p->ag, p);
    return p;
}

/* d2l.add_to_class(Class) returns a decorator that sets its function as an attribute of Class (d2l/torch.py:
 * setattr(Class, obj.__name__, obj)); the decorated name is then bound to None, as in Python. On d2l's own classes
 * (d2l.Trainer ...) the function goes into the calling interpreter's additions (class_setattr), seen by it alone. */
static Value *add_to_class_call(Interp *I, Value *self, Args *a) {
    static const Builtin wrapper = {"add_to_class.<locals>.wrapper", NULL, "wrapper(obj)", "", "", 0, NULL};   /* d2l's */
    Args b = *a;
    b.fname = NULL;
    Value *fn;
    if (!args_bind_call(I, &b, &wrapper, NULL, &fn, 1)) return NULL;
    Value *cls = val_incref(val_attr_get(self, "Class"));     /* held: __name__ may run code */
    Value *name = ops_getattr(I, fn, "__name__");
    int rc = !name ? -1 : name->kind == V_STR ? ops_setattr(I, cls, name->u.str.s, fn) : (rt_error(I, "add_to_class: the function has no name"), -1);
    val_decref(name);
    val_decref(cls);
    return rc < 0 ? NULL : val_none();
}
static const ObjClass AddToClassClass = {.name = "function", .call = add_to_class_call};

static Value *bi_add_to_class(Interp *I, Args *a) {
    Value *p_[1];                               /* Class */
    if (!args_bind(I, a, p_, 1)) return NULL;
    Value *cls = p_[0];
    if (!cls) return rt_error(I, "add_to_class(Class) needs the class to add the function to");
    if (cls->kind == V_BUILTIN)
        return rt_error(I, "add_to_class: %s is attn's built-in; methods can be added to classes you define (class %s(nn.Module): ...)",
                        cls->u.builtin->name, cls->u.builtin->name);
    if (cls->kind != V_CLASS) return rt_error(I, "add_to_class(Class): Class must be a class, not %s", val_type_name(cls));
    Value *w = val_object(I->run.heap, &AddToClassClass);
    val_attr_set(w, "Class", val_incref(cls));
    return w;
}

/* Names that mean different things in different modules (nn.Module and d2l.Module), or that are not functions. */
Value *nn_module_attr(ValHeap *heap, const char *module, const char *name) {
    if (!strcmp(name, "Module") && (!strcmp(module, "torch.nn") || !strcmp(module, "d2l")))
        return val_incref(module_class(!strcmp(module, "d2l")));
    if (!strcmp(name, "cpu_device")) return device_value(heap);
    return NULL;
}

const Builtin bi_nn_module[] = {
    {"Parameter", bi_parameter, "nn.Parameter(data=None, requires_grad=True)",
     "A tensor that is a weight of a module: named_parameters() and state_dict() list it. It shares its data's elements and dtype, and requires grad (a float dtype) unless requires_grad=False.", "", 0, "nn"},
    {"device", bi_device, "torch.device(type, index=None)", "torch.device('cpu'): the CPU, where attn computes (there is no GPU).", "", 0, "torch"},
    {"add_to_class", bi_add_to_class, "d2l.add_to_class(Class)",
     "Decorator: @d2l.add_to_class(C) above def f(self, ...) makes f a method of class C (the book uses it in §11.5).", "§11.5", 0, "d2l"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* d2l_core.c - d2l helpers used across the chapter (check_shape) and the methods every module object has
 * (.eval(), .train(), .parameters()). The chapter's functions are in d2l_attention.c and d2l_positional.c. */
#include "builtins_internal.h"
#include "interp.h"
#include <string.h>

/* d2l.check_shape(a, shape): the book's assertion, with the book's message. */
static Value *bi_check_shape(Interp *I, Args *a) {
    static const char *const kw[] = {"a", "shape", NULL};
    if (!args_check(I, a, 2, kw)) return NULL;
    Value *x = arg(a, 0, "a"), *shape = arg(a, 1, "shape");
    if (!x || !shape) return rt_error(I, "check_shape(a, shape) needs a tensor and a shape");
    if (x->kind != V_TENSOR) return rt_error(I, "check_shape(): a must be a tensor, not %s", val_type_name(x));
    if (shape->kind != V_TUPLE && shape->kind != V_LIST) return rt_error(I, "check_shape(): shape must be a tuple such as (2, 4, 100)");
    Value *actual = val_size(x->u.t->shape, x->u.t->ndim);
    Value *want = val_size(x->u.t->shape, 0);
    bool eq = shape->u.seq.n == x->u.t->ndim;
    for (int64_t i = 0; eq && i < shape->u.seq.n; i++) {
        Value *d = shape->u.seq.items[i];
        eq = d->kind == V_INT && d->u.i == x->u.t->shape[i];
    }
    Value *r = NULL;
    if (eq) r = val_none();
    else {
        StrBuf as, ws;
        sb_init(&as);
        sb_init(&ws);
        val_repr(&as, actual);
        val_repr(&ws, shape);
        rt_error(I, "AssertionError: tensor's shape %s != expected shape %s", sb_str(&as), sb_str(&ws));
        sb_free(&as);
        sb_free(&ws);
    }
    val_decref(actual);
    val_decref(want);
    return r;
}

/* Every module object carries "training" (True until .eval()), and child modules as attributes. */
static void set_training(Value *obj, bool on) {
    val_attr_set(obj, "training", val_bool(on));
    Dict *d = &obj->u.obj.attrs;
    for (int i = 0; i < d->n; i++)
        if (d->vals[i]->kind == V_OBJECT && strcmp(d->keys[i]->u.str.s, "training") != 0) set_training(d->vals[i], on);
}

static Value *m_eval(Interp *I, Args *a) { set_training(a->pos[0], a->fn->tag == 1); return val_incref(a->pos[0]); }

static void collect_params(Value *obj, Value *out) {
    Dict *d = &obj->u.obj.attrs;
    for (int i = 0; i < d->n; i++) {
        Value *v = d->vals[i];
        const char *k = d->keys[i]->u.str.s;
        if (v->kind == V_OBJECT) collect_params(v, out);
        else if (v->kind == V_TENSOR && (!strcmp(k, "weight") || !strcmp(k, "bias") || !strcmp(k, "P_learned") || !strcmp(k, "table")))
            val_list_append(out, val_incref(v));
    }
}

static Value *m_parameters(Interp *I, Args *a) {
    Value *l = val_list(0);
    collect_params(a->pos[0], l);
    return l;
}

const Builtin bi_module_methods[] = {
    {"eval", m_eval, "module.eval()", "Evaluation mode: dropout off (as after .eval() in PyTorch).", "", 0},
    {"train", m_eval, "module.train()", "Training mode: dropout on (modules start in training mode).", "", 1},
    {"parameters", m_parameters, "module.parameters()", "The module's weight tensors, as a list.", "", 0},
    {NULL, NULL, NULL, NULL, NULL, 0}};

const Builtin bi_d2l[] = {
    {"check_shape", bi_check_shape, "d2l.check_shape(a, shape)",
     "Stops with \"tensor's shape ... != expected shape ...\" unless a.shape equals shape (§11.6.1 uses it).", "§11.6.1", 0},
    {NULL, NULL, NULL, NULL, NULL, 0}};

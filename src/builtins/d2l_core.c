/* d2l_core.c - d2l helpers used across the chapter (check_shape). The chapter's functions are in d2l_attention.c
 * and d2l_positional.c; what every module has (.eval(), .parameters() ...) is in nn_module.c. */
#include "builtins_internal.h"
#include "interp.h"
#include <string.h>

/* d2l.check_shape(a, shape): the book's assertion, with the book's message. */
static Value *bi_check_shape(Interp *I, Args *a) {
    Value *p_[2];                               /* a, shape */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *x = p_[0], *shape = p_[1];
    if (!x || !shape) return rt_error(I, "check_shape(a, shape) needs a tensor and a shape");
    if (x->kind != V_TENSOR) return rt_error(I, "check_shape(): a must be a tensor, not %s", val_type_name(x));
    if (shape->kind != V_TUPLE && shape->kind != V_LIST) return rt_error(I, "check_shape(): shape must be a tuple such as (2, 4, 100)");
    Value *actual = val_size(I->run.heap, x->u.t->shape, x->u.t->ndim);
    Value *want = val_size(I->run.heap, x->u.t->shape, 0);
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
        if (val_repr(I, &as, actual) && val_repr(I, &ws, shape)) rt_raise(I, "AssertionError", "tensor's shape %s != expected shape %s", sb_str(&as), sb_str(&ws));
        sb_free(&as);
        sb_free(&ws);
    }
    val_decref(actual);
    val_decref(want);
    return r;
}

const Builtin bi_d2l[] = {
    {"check_shape", bi_check_shape, "d2l.check_shape(a, shape)",
     "Stops with \"tensor's shape ... != expected shape ...\" unless a.shape equals shape (§11.6.1 uses it).", "§11.6.1", 0, "d2l"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

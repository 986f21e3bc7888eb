/* torch_optim.c - torch.optim.SGD, Adam and AdamW, and torch.nn.utils.clip_grad_norm_, as PyTorch 1.13 has them
 * (torch/optim/sgd.py, adam.py, adamw.py: the single-tensor path, foreach=False; torch/nn/utils/clip_grad.py).
 *
 * An optimizer is an object with PyTorch's attributes: param_groups (a list of dicts a student reads and changes:
 * g['lr'] = 0.01 takes effect at the next step, as each step reads its group's options anew), defaults (a dict) and
 * state (a dict keyed by parameter: momentum_buffer; step, exp_avg, exp_avg_sq, max_exp_avg_sq). step() writes the
 * parameters in place (their version counters move, as an in-place op's) and records no graph.
 *
 * The arithmetic is the tensor library's (ten_sgd_step, ten_adam_step in tensor_optim.c): PyTorch's, op by op, so
 * float32 parameters come out bit for bit as PyTorch's; tests/e2e/optim.md checks 100 steps of each optimizer.
 */
#include "builtins_internal.h"
#include "autograd.h"
#include "interp.h"
#include "ops.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { OPT_SGD, OPT_ADAM, OPT_ADAMW } OptKind;

static void optim_repr(Interp *I, StrBuf *out, Value *self, int depth);
static const Builtin optim_methods[6];
static const ObjClass SGDClass = {.name = "SGD", .repr = optim_repr, .methods = optim_methods};
static const ObjClass AdamClass = {.name = "Adam", .repr = optim_repr, .methods = optim_methods};
static const ObjClass AdamWClass = {.name = "AdamW", .repr = optim_repr, .methods = optim_methods};

static OptKind optim_kind(const Value *self) {
    const ObjClass *c = self->u.obj.cls;
    return c == &SGDClass ? OPT_SGD : c == &AdamClass ? OPT_ADAM : OPT_ADAMW;
}


/* ---- construction ---- */

/* PyTorch's torch.typename of a tensor: torch.FloatTensor ... */
static const char *tensor_typename(const Tensor *t) {
    return t->dtype == DT_F32 ? "torch.FloatTensor" : t->dtype == DT_F64 ? "torch.DoubleTensor"
         : t->dtype == DT_I64 ? "torch.LongTensor" : "torch.BoolTensor";
}

/* str(v) of a number or anything else, into a new string the caller frees. */
static char *value_text(Interp *I, const Value *v) {
    StrBuf b;
    sb_init(&b);
    val_repr_quiet(I, &b, v);
    char *s = xstrdup(sb_str(&b));
    sb_free(&b);
    return s;
}

/* ValueError("Invalid NAME: v") unless 0 <= v (and v < 1 for a beta). A value that is not a number: Python's
 * TypeError of the comparison SGD makes (v < 0.0, sgd set) or Adam's (0.0 <= v). */
static bool check_range(Interp *I, Value *v, const char *what, bool below_one, bool sgd) {
    if (!v) return true;
    if (!val_is_number(v)) {
        if (sgd) rt_raise(I, "TypeError", "'<' not supported between instances of '%s' and 'float'", val_type_name(v));
        else rt_raise(I, "TypeError", "'<=' not supported between instances of 'float' and '%s'", val_type_name(v));
        return false;
    }
    double x = val_as_double(v);
    if (0.0 <= x && (!below_one || x < 1.0)) return true;
    char *s = value_text(I, v);
    rt_raise(I, "ValueError", "Invalid %s: %s", what, s);
    free(s);
    return false;
}

/* Optimizer.add_param_group(group): group['params'] becomes a list of leaf tensors (a tensor alone is a list of
 * one), every default missing from the group is set (required ones raise), and no parameter may be in two groups.
 * group is a dict (held by the caller); false with PyTorch's error. */
static bool add_group(Interp *I, Value *self, Value *group) {
    if (group->kind != V_DICT) { rt_raise(I, "AssertionError", "param group must be a dict"); return false; }
    Dict *g = group->u.dict;
    Value *ps = dict_get(g, "params");
    if (!ps) {
        Value *k = val_str(I->run.heap, "params");
        ops_key_error(I, k);
        val_decref(k);
        return false;
    }
    Value *list;
    if (ps->kind == V_TENSOR) { list = val_list(I->run.heap, 0); val_list_append(list, val_incref(ps)); }
    else if (ps->kind == V_SET) {
        rt_raise(I, "TypeError", "optimizer parameters need to be organized in ordered collections, but the ordering of "
                 "tensors in sets will change between runs. Please use a list instead.");
        return false;
    } else {
        val_incref(ps);                    /* a student's iterator may replace group['params'] while it runs */
        list = ops_to_list(I, ps);
        val_decref(ps);
        if (!list) return false;
    }
    dict_set(g, "params", list);
    for (int64_t i = 0; i < list->u.seq.n; i++) {
        Value *p = list->u.seq.items[i];
        if (p->kind != V_TENSOR) {
            rt_raise(I, "TypeError", "optimizer can only optimize Tensors, but one of the params is %s", val_type_name(p));
            return false;
        }
        if (!ag_is_leaf(p->ag) && !p->ag->retains_grad) { rt_raise(I, "ValueError", "can't optimize a non-leaf Tensor"); return false; }
    }
    /* read after the student's iterator ran (it may have replaced them); no student code runs from here on */
    Value *defaults = val_attr_get(self, "defaults"), *groups = val_attr_get(self, "param_groups");
    if (!defaults || defaults->kind != V_DICT) {       /* PyTorch's errors: self.defaults.items(), for g in self.param_groups */
        rt_raise(I, "AttributeError", "'%s' object has no attribute 'items'", defaults ? val_type_name(defaults) : "NoneType");
        return false;
    }
    if (!groups || groups->kind != V_LIST) {
        rt_raise(I, "TypeError", "'%s' object is not iterable", groups ? val_type_name(groups) : "NoneType");
        return false;
    }
    Dict *d = defaults->u.dict;
    for (int k = 0; k < d->n; k++) {
        if (d->keys[k]->kind != V_STR) continue;       /* not an option PyTorch's optimizers read */
        const char *name = d->keys[k]->u.str.s;
        if (dict_get(g, name)) continue;
        if (d->vals[k]->kind == V_STR && !strcmp(d->vals[k]->u.str.s, "<required parameter>")) {
            rt_raise(I, "ValueError", "parameter group didn't specify a value of required optimization parameter %s", name);
            return false;
        }
        dict_set(g, name, val_incref(d->vals[k]));
    }
    for (int64_t j = 0; j < groups->u.seq.n; j++) {
        Value *gj = groups->u.seq.items[j], *other = gj->kind == V_DICT ? dict_get(gj->u.dict, "params") : NULL;
        for (int64_t a = 0; other && other->kind == V_LIST && a < other->u.seq.n; a++)
            for (int64_t b = 0; b < list->u.seq.n; b++)
                if (other->u.seq.items[a] == list->u.seq.items[b]) {
                    rt_raise(I, "ValueError", "some parameters appear in more than one parameter group");
                    return false;
                }
    }
    val_list_append(groups, val_incref(group));
    return true;
}

/* Optimizer.__init__(params, defaults): params a tensor (refused), or an iterable of tensors (one group) or of
 * dicts (one group each). defaults: a new dict, stolen. A new optimizer of class cls, or NULL with the error set. */
static Value *optim_new(Interp *I, const ObjClass *cls, Value *params, Value *defaults) {
    if (params->kind == V_TENSOR) {
        val_decref(defaults);
        return rt_raise(I, "TypeError", "params argument given to the optimizer should be an iterable of Tensors or dicts, but got %s",
                        tensor_typename(params->u.t));
    }
    Value *items = ops_to_list(I, params);
    if (!items) { val_decref(defaults); return NULL; }
    if (items->u.seq.n == 0) {
        val_decref(items);
        val_decref(defaults);
        return rt_raise(I, "ValueError", "optimizer got an empty parameter list");
    }
    Value *opt = val_object(I->run.heap, cls);
    val_attr_set(opt, "defaults", defaults);
    Value *state = val_dict(I->run.heap);
    state->u.dict->default_dict = true;        /* PyTorch's defaultdict(dict): opt.state[p] of a new p is {} */
    val_attr_set(opt, "state", state);
    val_attr_set(opt, "param_groups", val_list(I->run.heap, 0));
    bool ok = true;
    if (items->u.seq.items[0]->kind != V_DICT) {
        Value *g = val_dict(I->run.heap);
        dict_set(g->u.dict, "params", val_incref(items));
        ok = add_group(I, opt, g);
        val_decref(g);
    } else {
        for (int64_t i = 0; ok && i < items->u.seq.n; i++) ok = add_group(I, opt, items->u.seq.items[i]);
    }
    val_decref(items);
    if (!ok) { val_decref(opt); return NULL; }
    return opt;
}

/* The argument v (bound by args_bind; NULL when not given), else the default made by dflt. */
static Value *opt_or(Value *v, Value *dflt) {
    if (v) { val_decref(dflt); return val_incref(v); }
    return dflt;
}

/* torch.optim.SGD, its arguments bound by its declaration (SGD.__init__'s TypeErrors). */
static Value *bi_sgd(Interp *I, Args *a) {
    Value *p[9];                                 /* params, lr, momentum, dampening, weight_decay, nesterov, maximize, foreach, differentiable */
    if (!args_bind(I, a, p, 9)) return NULL;
    Value *params = p[0], *lr = p[1];
    if (lr && !check_range(I, lr, "learning rate", false, true)) return NULL;
    if (!check_range(I, p[2], "momentum value", false, true) || !check_range(I, p[4], "weight_decay value", false, true))
        return NULL;
    Value *d = val_dict(I->run.heap);
    Dict *dd = d->u.dict;
    dict_set(dd, "lr", lr ? val_incref(lr) : val_str(I->run.heap, "<required parameter>"));
    dict_set(dd, "momentum", opt_or(p[2], val_int(I->run.heap, 0)));
    dict_set(dd, "dampening", opt_or(p[3], val_int(I->run.heap, 0)));
    dict_set(dd, "weight_decay", opt_or(p[4], val_int(I->run.heap, 0)));
    dict_set(dd, "nesterov", opt_or(p[5], val_bool(I->run.heap, false)));
    dict_set(dd, "maximize", opt_or(p[6], val_bool(I->run.heap, false)));
    dict_set(dd, "foreach", opt_or(p[7], val_none()));
    dict_set(dd, "differentiable", opt_or(p[8], val_bool(I->run.heap, false)));
    bool nest = false;
    if (!val_truthy(dict_get(dd, "nesterov"), &nest)) nest = false;
    if (nest && (val_as_double(dict_get(dd, "momentum")) <= 0 || val_as_double(dict_get(dd, "dampening")) != 0)) {
        val_decref(d);
        return rt_raise(I, "ValueError", "Nesterov momentum requires a momentum and zero dampening");
    }
    return optim_new(I, &SGDClass, params, d);
}

/* torch.optim.Adam and AdamW (tag 1: weight_decay=0.01, no differentiable or fused), their arguments bound by their
 * declarations (the keyword-only parameters in PyTorch's order, which differs). */
static Value *bi_adam(Interp *I, Args *a) {
    bool w = a->fn->tag == 1;
    Value *p[11];                                /* the declaration's parameters; the keyword-only ones in its order */
    if (!args_bind(I, a, p, 11)) return NULL;
    Value *params = p[0], *betas = p[2];
    if (!check_range(I, p[1], "learning rate", false, false) || !check_range(I, p[3], "epsilon value", false, false))
        return NULL;
    if (betas) {
        if (betas->kind != V_TUPLE && betas->kind != V_LIST) return rt_raise(I, "TypeError", "'%s' object is not subscriptable", val_type_name(betas));
        if (betas->u.seq.n < 2) return rt_raise(I, "IndexError", "%s index out of range", val_type_name(betas));
        if (betas->u.seq.n > 2) return rt_raise(I, "ValueError", "too many values to unpack (expected 2)");
        if (!check_range(I, betas->u.seq.items[0], "beta parameter at index 0", true, false) ||
            !check_range(I, betas->u.seq.items[1], "beta parameter at index 1", true, false))
            return NULL;
    }
    if (!check_range(I, p[4], "weight_decay value", false, false)) return NULL;
    Value *d = val_dict(I->run.heap), *b = val_tuple(I->run.heap, 2);
    val_seq_set(b, 0, val_float(I->run.heap, 0.9));
    val_seq_set(b, 1, val_float(I->run.heap, 0.999));
    Dict *dd = d->u.dict;
    dict_set(dd, "lr", opt_or(p[1], val_float(I->run.heap, 1e-3)));
    dict_set(dd, "betas", opt_or(p[2], b));
    dict_set(dd, "eps", opt_or(p[3], val_float(I->run.heap, 1e-8)));
    dict_set(dd, "weight_decay", opt_or(p[4], w ? val_float(I->run.heap, 1e-2) : val_int(I->run.heap, 0)));
    dict_set(dd, "amsgrad", opt_or(p[5], val_bool(I->run.heap, false)));
    if (w) {
        dict_set(dd, "foreach", opt_or(p[7], val_none()));
        dict_set(dd, "maximize", opt_or(p[6], val_bool(I->run.heap, false)));
        dict_set(dd, "capturable", opt_or(p[8], val_bool(I->run.heap, false)));
    } else {
        dict_set(dd, "maximize", opt_or(p[7], val_bool(I->run.heap, false)));
        dict_set(dd, "foreach", opt_or(p[6], val_none()));
        dict_set(dd, "capturable", opt_or(p[8], val_bool(I->run.heap, false)));
        dict_set(dd, "differentiable", opt_or(p[9], val_bool(I->run.heap, false)));
        dict_set(dd, "fused", opt_or(p[10], val_bool(I->run.heap, false)));
    }
    static const char *const off[] = {"capturable", "differentiable", "fused", NULL};
    for (int i = 0; off[i]; i++) {
        Value *v = dict_get(dd, off[i]);
        bool on = false;
        if (v && val_truthy(v, &on) && on) {
            val_decref(d);
            return rt_error(I, "%s(%s=True) is not in attn: it runs on the CPU, one tensor at a time", w ? "AdamW" : "Adam", off[i]);
        }
    }
    return optim_new(I, w ? &AdamWClass : &AdamClass, params, d);
}

/* ---- step ---- */

/* A number option of a group: false with an error naming it when it is missing or not a number. */
static bool group_num(Interp *I, Dict *g, const char *name, double *out) {
    Value *v = dict_get(g, name);
    if (!v || !val_is_number(v)) { rt_raise(I, "TypeError", "param group's '%s' must be a number, not %s", name, v ? val_type_name(v) : "missing"); return false; }
    *out = val_as_double(v);
    return true;
}

static bool group_flag(Interp *I, Dict *g, const char *name, bool *out) {
    Value *v = dict_get(g, name);
    *out = false;
    return !v || arg_bool(I, v, name, out);
}

/* self.state[p]: a new reference to the dict of p's state (made empty on first use), NULL with the error set. The
 * lookup may run a student's __eq__ (a key of theirs in self.state), which may replace self.state: held while it runs. */
static Value *param_state(Interp *I, Value *self, Value *p) {
    Value *st = val_incref(val_attr_get(self, "state")), *s = NULL;
    int at;
    if (!st || st->kind != V_DICT) rt_error(I, "the optimizer's state is not a dict");
    else if (ops_dict_find(I, st->u.dict, p, &at)) {
        if (at < 0) {
            s = val_dict(I->run.heap);
            dict_append(st->u.dict, val_incref(p), val_incref(s));
        } else if (st->u.dict->vals[at]->kind != V_DICT) rt_error(I, "optimizer.state[p] must be a dict");
        else s = val_incref(st->u.dict->vals[at]);
    }
    val_decref(st);
    return s;
}

/* A state buffer name of st shaped as p (a zeros tensor of p's shape and dtype made when absent and make is set;
 * NULL without make when absent). Borrowed tensor; *bad set with the error when it is not such a tensor. */
static Tensor *state_buffer(Interp *I, Value *st, const char *name, const Tensor *p, bool make, bool *bad) {
    Value *v = dict_get(st->u.dict, name);
    if ((!v || v->kind == V_NONE) && make) {
        Tensor *z = ten_new_in(I->run.ten, p->dtype, p->ndim, p->shape);
        if (!z) { rt_tensor_error(I); *bad = true; return NULL; }
        dict_set(st->u.dict, name, val_tensor(I->run.heap, z));
        return z;
    }
    if (!v || v->kind == V_NONE) return NULL;
    if (v->kind != V_TENSOR || !v->u.t->contiguous || v->u.t->dtype != p->dtype || !ten_same_shape(v->u.t, p)) {
        rt_error(I, "optimizer.state[p]['%s'] must be a contiguous tensor of the parameter's shape and dtype", name);
        *bad = true;
        return NULL;
    }
    return v->u.t;
}

/* One parameter's update, made ready by prepare_update and done by apply_update. A step runs in three passes: (A)
 * each parameter with a grad and its state dict, the only part that can run student code (a __eq__ of a key of theirs
 * in self.state), both held; (B) each update prepared: options read, grad checked and made contiguous, state buffers
 * made, a strided parameter copied: everything that can fail (a bad option or state, the memory limit); (C) the
 * updates, which cannot fail and do not look at the interrupt flag. So an error leaves every parameter as it was, and
 * a Ctrl-C during a step is seen after it (every parameter updated), never between two parameters. */
typedef struct Update {
    Value *p, *st;                  /* held (pass A) */
    Tensor *grad;                   /* p.grad as pass A found it (a new handle, owned): PyTorch's step takes the grad
                                     * before it looks up the state, and updates with it */
    Tensor *work;                   /* p's tensor, or a contiguous copy of it (owned) to write back */
    const Tensor *g;                /* the grad, contiguous: p's own or gtmp */
    Tensor *gtmp;                   /* owned contiguous copy of a strided grad, or NULL */
    Tensor *buf, *m, *v, *mx, *step;   /* state buffers (borrowed from st; no student code runs after pass A) */
    bool first;                     /* SGD: the momentum buffer is new (it becomes the grad) */
    TenSgdOpts sgd;
    TenAdamOpts adam;
} Update;

/* Pass B for u (p and st set): options of group g read, buffers made; 0 or -1 with the error set. */
static int prepare_update(Interp *I, OptKind kind, Dict *g, Update *u) {
    Tensor *p = u->p->u.t;
    const Tensor *grad = u->grad;
    bool bad = false;
    double lr, wd;
    if (!grad || !ten_is_float(p->dtype) || grad->dtype != p->dtype || !ten_same_shape(grad, p)) {
        rt_error(I, "a parameter's grad must have its shape and dtype (a float tensor)");
        return -1;
    }
    if (!group_num(I, g, "lr", &lr) || !group_num(I, g, "weight_decay", &wd)) return -1;
    if (kind == OPT_SGD) {
        double mom, damp;
        bool nest, maxi;
        if (!group_num(I, g, "momentum", &mom) || !group_num(I, g, "dampening", &damp) || !group_flag(I, g, "nesterov", &nest) ||
            !group_flag(I, g, "maximize", &maxi))
            return -1;
        u->buf = state_buffer(I, u->st, "momentum_buffer", p, false, &bad);
        if (bad) return -1;
        u->first = mom != 0 && !u->buf;
        if (u->first && !(u->buf = state_buffer(I, u->st, "momentum_buffer", p, true, &bad))) return -1;
        if (mom == 0) { u->buf = NULL; dict_set(u->st->u.dict, "momentum_buffer", val_none()); }
        u->sgd = (TenSgdOpts){.lr = lr, .momentum = mom, .dampening = damp, .weight_decay = wd, .nesterov = nest, .maximize = maxi};
    } else {
        Value *betas = dict_get(g, "betas");
        double eps, b1, b2;
        bool ams, maxi;
        if (!betas || (betas->kind != V_TUPLE && betas->kind != V_LIST) || betas->u.seq.n != 2 || !val_is_number(betas->u.seq.items[0]) ||
            !val_is_number(betas->u.seq.items[1])) {
            rt_raise(I, "TypeError", "param group's 'betas' must be a pair of numbers");
            return -1;
        }
        b1 = val_as_double(betas->u.seq.items[0]);
        b2 = val_as_double(betas->u.seq.items[1]);
        if (!group_num(I, g, "eps", &eps) || !group_flag(I, g, "amsgrad", &ams) || !group_flag(I, g, "maximize", &maxi)) return -1;
        if (!dict_get(u->st->u.dict, "step")) dict_set(u->st->u.dict, "step", val_tensor(I->run.heap, ten_scalar_f_in(I->run.ten, 0.0f)));
        Value *sv = dict_get(u->st->u.dict, "step");
        if (sv->kind != V_TENSOR || sv->u.t->numel != 1 || sv->u.t->dtype != DT_F32 || !sv->u.t->contiguous) {
            rt_error(I, "optimizer.state[p]['step'] must be a one-element float32 tensor");
            return -1;
        }
        u->step = sv->u.t;
        u->m = state_buffer(I, u->st, "exp_avg", p, true, &bad);
        u->v = u->m ? state_buffer(I, u->st, "exp_avg_sq", p, true, &bad) : NULL;
        u->mx = u->v && ams ? state_buffer(I, u->st, "max_exp_avg_sq", p, true, &bad) : NULL;
        if (bad || !u->m || !u->v || (ams && !u->mx)) return -1;
        u->adam = (TenAdamOpts){.lr = lr, .beta1 = b1, .beta2 = b2, .eps = eps, .weight_decay = wd, .step = 0,
                                .decoupled = kind == OPT_ADAMW, .maximize = maxi};
    }
    if (!(u->g = ten_as_contiguous(grad, &u->gtmp))) { rt_tensor_error(I); return -1; }
    if (!(u->work = p->contiguous ? p : ten_copy(p))) { rt_tensor_error(I); return -1; }
    /* a strided p written with its own values: refused here (internal overlap) while nothing has changed */
    if (u->work != p && ten_copy_into(p, u->work) < 0) { rt_tensor_error(I); return -1; }
    return 0;
}

/* Pass C for a prepared u: the update rule on u->work, then a strided parameter written back. Pass B made the checks
 * that could fail here (and none of these loops looks at the interrupt flag); 0, or -1 with the error set. */
static int apply_update(Interp *I, OptKind kind, Update *u) {
    int rc;
    if (kind == OPT_SGD) rc = ten_sgd_step(u->work, u->g, u->buf, u->first, &u->sgd);
    else {
        float *stepp = ten_f32(u->step);
        *stepp = *stepp + 1.0f;                  /* step_t += 1, in float32 */
        ten_bump_version(u->step);
        u->adam.step = *stepp;
        rc = ten_adam_step(u->work, u->g, u->m, u->v, u->mx, &u->adam);
    }
    if (rc < 0) { rt_tensor_error(I); return -1; }
    Tensor *p = u->p->u.t;
    if (u->work != p && ten_copy_into(p, u->work) < 0) { rt_tensor_error(I); return -1; }   /* checked in pass B */
    return 0;
}

static void update_free(Update *u) {
    if (u->work && u->work != u->p->u.t) ten_free(u->work);
    ten_free(u->gtmp);
    ten_free(u->grad);
    val_decref(u->st);
    val_decref(u->p);
}

/* optimizer.step(closure=None): the closure (when given) runs with grad mode on and its loss is returned; then
 * every parameter whose .grad is not None is updated by its group's options, as under torch.no_grad(), in the three
 * passes of struct Update. */
static Value *m_step(Interp *I, Args *a) {
    Value *closure, *loss = NULL;                /* step is the class's own: SGD.step */
    if (!args_bind_method(I, a, a->npos ? val_type_name(a->pos[0]) : "Optimizer", &closure, 1)) return NULL;
    Value *self = a->pos[0];
    if (closure && closure->kind != V_NONE) {
        bool was = I->run.ag.grad_enabled;
        I->run.ag.grad_enabled = true;
        Args b = {NULL, 0, NULL, NULL, 0, "closure", NULL};
        loss = interp_call(I, closure, &b);
        I->run.ag.grad_enabled = was;
        if (!loss) return NULL;
    }
    OptKind kind = optim_kind(self);
    Value *groups = val_attr_get(self, "param_groups");
    if (!groups || groups->kind != V_LIST) {
        val_decref(loss);
        return rt_raise(I, "TypeError", "'%s' object is not iterable", groups ? val_type_name(groups) : "NoneType");
    }
    /* pass A: the groups (held), and in each the parameters with a grad and their state (held) */
    val_incref(groups);
    int64_t ngroups = groups->u.seq.n, n = 0, cap = 0;
    Value **gs = xcalloc((size_t)(ngroups ? ngroups : 1), sizeof *gs);
    int64_t *first_of = xcalloc((size_t)ngroups + 1, sizeof *first_of);    /* group gi: updates [first_of[gi], first_of[gi+1]) */
    Update *us = NULL;
    int rc = 0;
    for (int64_t gi = 0; gi < ngroups; gi++) gs[gi] = val_incref(groups->u.seq.items[gi]);
    for (int64_t gi = 0; rc == 0 && gi < ngroups; gi++) {
        first_of[gi] = n;
        Value *ps = gs[gi]->kind == V_DICT ? val_incref(dict_get(gs[gi]->u.dict, "params")) : NULL;
        if (!ps || ps->kind != V_LIST) { rt_error(I, "optimizer.param_groups[%lld] must be a dict with a list of 'params'", (long long)gi); rc = -1; }
        for (int64_t i = 0; rc == 0 && i < ps->u.seq.n; i++) {
            Value *p = ps->u.seq.items[i];
            if (p->kind != V_TENSOR) { rt_raise(I, "AttributeError", "'%s' object has no attribute 'grad'", val_type_name(p)); rc = -1; break; }
            if (!p->ag || !p->ag->grad) continue;
            if (n == cap) { cap = cap ? 2 * cap : 8; us = xrealloc(us, (size_t)cap * sizeof *us); }
            us[n] = (Update){.p = val_incref(p), .grad = ten_alias(p->ag->grad)};
            us[n].st = us[n].grad ? param_state(I, self, p) : NULL;
            n++;
            if (!us[n - 1].grad) rt_tensor_error(I);
            if (!us[n - 1].grad || !us[n - 1].st) rc = -1;
        }
        val_decref(ps);
    }
    /* pass B: no student code runs from here on */
    for (int64_t gi = 0; rc == 0 && gi < ngroups; gi++) {
        int64_t end = gi + 1 < ngroups ? first_of[gi + 1] : n;
        for (int64_t k = first_of[gi]; rc == 0 && k < end; k++) rc = prepare_update(I, kind, gs[gi]->u.dict, &us[k]);
    }
    /* pass C */
    for (int64_t k = 0; rc == 0 && k < n; k++)
        if (us[k].work) rc = apply_update(I, kind, &us[k]);
    for (int64_t k = 0; k < n; k++) update_free(&us[k]);
    free(us);
    for (int64_t gi = 0; gi < ngroups; gi++) val_decref(gs[gi]);
    free(gs);
    free(first_of);
    val_decref(groups);
    if (rc < 0) { val_decref(loss); return NULL; }
    return loss ? loss : val_none();
}

/* optimizer.zero_grad(set_to_none=False): every parameter's .grad filled with zeros in place (or set to None). */
static Value *m_zero_grad(Interp *I, Args *a) {
    Value *sn;
    if (!args_bind_method(I, a, "Optimizer", &sn, 1)) return NULL;
    bool none = false;
    Value *groups = val_attr_get(a->pos[0], "param_groups");
    if (sn && !arg_bool(I, sn, "set_to_none", &none)) return NULL;
    if (!groups || groups->kind != V_LIST) return rt_raise(I, "TypeError", "'%s' object is not iterable", groups ? val_type_name(groups) : "NoneType");
    for (int64_t gi = 0; gi < groups->u.seq.n; gi++) {
        Value *gv = groups->u.seq.items[gi], *ps = gv->kind == V_DICT ? dict_get(gv->u.dict, "params") : NULL;
        for (int64_t i = 0; ps && ps->kind == V_LIST && i < ps->u.seq.n; i++) {
            Value *p = ps->u.seq.items[i];
            if (p->kind != V_TENSOR || !p->ag || !p->ag->grad) continue;
            if (none) { ag_zero_grad(p->ag); continue; }
            Tensor *z = ten_new_in(I->run.ten, p->ag->grad->dtype, p->ag->grad->ndim, p->ag->grad->shape);
            if (!z || ten_copy_into(p->ag->grad, z) < 0) { ten_free(z); return rt_tensor_error(I); }
            ten_free(z);
        }
    }
    return val_none();
}

static Value *m_add_param_group(Interp *I, Args *a) {
    Value *g;
    if (!args_bind_method(I, a, "Optimizer", &g, 1)) return NULL;
    return add_group(I, a->pos[0], g) ? val_none() : NULL;
}

/* ---- state_dict and load_state_dict (torch/optim/optimizer.py) ---- */

/* A list of dicts each with a list 'params' (borrowed v), else NULL with an error naming what. */
static Value *group_list(Interp *I, Value *v, const char *what) {
    if (!v || (v->kind != V_LIST && v->kind != V_TUPLE)) {
        rt_raise(I, "TypeError", "%s must be a list of dicts, not %s", what, v ? val_type_name(v) : "NoneType");
        return NULL;
    }
    for (int64_t gi = 0; gi < v->u.seq.n; gi++) {
        Value *g = v->u.seq.items[gi], *ps = g->kind == V_DICT ? dict_get(g->u.dict, "params") : NULL;
        if (!ps || (ps->kind != V_LIST && ps->kind != V_TUPLE)) {
            rt_raise(I, "TypeError", "%s[%lld] must be a dict with a list of 'params'", what, (long long)gi);
            return NULL;
        }
    }
    return v;
}

/* The index of parameter p among the parameters of every group in order (PyTorch's param_mappings), or -1. */
static int64_t param_index(Value *groups, const Value *p) {
    int64_t index = 0;
    for (int64_t gi = 0; gi < groups->u.seq.n; gi++) {
        Value *ps = dict_get(groups->u.seq.items[gi]->u.dict, "params");
        for (int64_t i = 0; i < ps->u.seq.n; i++, index++)
            if (ps->u.seq.items[i] == p) return index;
    }
    return -1;
}

/* A new dict with the entries of d (their hashes kept) but the key skip (NULL: none). */
static Value *dict_copy_but(Dict *d, const char *skip) {
    Value *r = val_dict(d->heap);
    for (int k = 0; k < d->n; k++) {
        if (skip && d->keys[k]->kind == V_STR && !strcmp(d->keys[k]->u.str.s, skip)) continue;
        dict_append_hashed(r->u.dict, val_incref(d->keys[k]), val_incref(d->vals[k]), d->hashes[k]);
    }
    return r;
}

/* optimizer.state_dict(): {'state': {index: the parameter's state dict (the same dict)}, in the state's order, and
 * 'param_groups': each group's options with 'params' last, as the parameters' indices}. No student code runs. */
static Value *m_state_dict(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "Optimizer", NULL, 0)) return NULL;
    Value *self = a->pos[0], *groups = group_list(I, val_attr_get(self, "param_groups"), "optimizer.param_groups");
    Value *st = val_attr_get(self, "state");
    if (!groups) return NULL;
    if (!st || st->kind != V_DICT) return rt_error(I, "the optimizer's state is not a dict");
    Value *packed = val_list(I->run.heap, 0);
    int64_t index = 0;
    for (int64_t gi = 0; gi < groups->u.seq.n; gi++) {
        Dict *g = groups->u.seq.items[gi]->u.dict;
        Value *pg = dict_copy_but(g, "params"), *ids = val_list(I->run.heap, 0), *ps = dict_get(g, "params");
        for (int64_t i = 0; i < ps->u.seq.n; i++) val_list_append(ids, val_int(I->run.heap, index++));
        dict_set(pg->u.dict, "params", ids);
        val_list_append(packed, pg);
    }
    Value *state = val_dict(I->run.heap);
    Dict *sd = st->u.dict;
    for (int k = 0; k < sd->n; k++) {
        Value *key = sd->keys[k];
        int64_t at = key->kind == V_TENSOR ? param_index(groups, key) : -1;
        if (at >= 0) dict_append(state->u.dict, val_int(I->run.heap, at), val_incref(sd->vals[k]));
        else dict_append_hashed(state->u.dict, val_incref(key), val_incref(sd->vals[k]), sd->hashes[k]);
    }
    Value *r = val_dict(I->run.heap);
    dict_set(r->u.dict, "state", state);
    dict_set(r->u.dict, "param_groups", packed);
    return r;
}

/* A saved state value for parameter p, as load_state_dict's deepcopy and _cast make it: a tensor copied (to p's
 * dtype when p is a float tensor, but 'step'), a dict entry by entry, anything else the same value. NULL when a
 * copy fails (the error set). */
static Value *cast_state(Interp *I, const Value *p, Value *v, const char *key) {
    if (v->kind == V_TENSOR) {
        bool to_p = !(key && !strcmp(key, "step")) && ten_is_float(p->u.t->dtype) && ten_is_float(v->u.t->dtype);
        Tensor *t = to_p ? ten_cast(v->u.t, p->u.t->dtype) : ten_copy(v->u.t);
        return t ? val_tensor(I->run.heap, t) : rt_tensor_error(I);
    }
    if (v->kind != V_DICT) return val_incref(v);
    Value *r = val_dict(I->run.heap);
    Dict *d = v->u.dict;
    for (int k = 0; k < d->n; k++) {
        Value *c = cast_state(I, p, d->vals[k], d->keys[k]->kind == V_STR ? d->keys[k]->u.str.s : NULL);
        if (!c) { val_decref(r); return NULL; }
        dict_append_hashed(r->u.dict, val_incref(d->keys[k]), c, d->hashes[k]);
    }
    return r;
}

/* The options PyTorch's __setstate__ sets on a loaded group when the saved one lacks them. */
static void group_setdefaults(OptKind kind, Dict *g) {
    static const char *const sgd[] = {"nesterov", "maximize", "foreach", "differentiable", NULL};
    static const char *const adam[] = {"amsgrad", "maximize", "foreach", "capturable", "differentiable", "fused", NULL};
    static const char *const adamw[] = {"amsgrad", "maximize", "foreach", "capturable", NULL};
    const char *const *names = kind == OPT_SGD ? sgd : kind == OPT_ADAM ? adam : adamw;
    for (int i = 0; names[i]; i++)
        if (!dict_get(g, names[i])) dict_set(g, names[i], strcmp(names[i], "foreach") ? val_bool(g->heap, false) : val_none());
}

/* The parameter a saved state key stands for: an int k, the k-th of the saved groups' parameters, is the parameter
 * at the same place in the optimizer's groups (PyTorch's id_map); NULL for another key (kept as it is). */
static Value *saved_param(Value *saved, Value *groups, const Value *key) {
    if (key->kind != V_INT) return NULL;
    for (int64_t gi = 0; gi < saved->u.seq.n; gi++) {
        Value *sp = dict_get(saved->u.seq.items[gi]->u.dict, "params"), *ps = dict_get(groups->u.seq.items[gi]->u.dict, "params");
        for (int64_t i = 0; i < sp->u.seq.n; i++)
            if (sp->u.seq.items[i]->kind == V_INT && sp->u.seq.items[i]->u.i == key->u.i) return ps->u.seq.items[i];
    }
    return NULL;
}

/* optimizer.load_state_dict(state_dict): PyTorch's checks (the number of groups, each group's number of
 * parameters), then the state rebuilt keyed by this optimizer's parameters (a copy, cast to each one's dtype) and the
 * groups replaced by the saved options with this optimizer's parameters. Nothing changes when a check fails. */
static Value *m_load_state_dict(Interp *I, Args *a) {
    Value *sdv;
    if (!args_bind_method(I, a, "Optimizer", &sdv, 1)) return NULL;
    Value *self = a->pos[0];
    if (sdv->kind != V_DICT) return rt_raise(I, "TypeError", "load_state_dict() expects the dict state_dict() made, not %s", val_type_name(sdv));
    Value *groups = group_list(I, val_attr_get(self, "param_groups"), "optimizer.param_groups");
    if (!groups) return NULL;
    Value *saved = dict_get(sdv->u.dict, "param_groups");
    if (!saved) { Value *k = val_str(I->run.heap, "param_groups"); ops_key_error(I, k); val_decref(k); return NULL; }
    if (!group_list(I, saved, "state_dict['param_groups']")) return NULL;
    if (saved->u.seq.n != groups->u.seq.n) return rt_raise(I, "ValueError", "loaded state dict has a different number of parameter groups");
    for (int64_t gi = 0; gi < groups->u.seq.n; gi++)
        if (dict_get(saved->u.seq.items[gi]->u.dict, "params")->u.seq.n != dict_get(groups->u.seq.items[gi]->u.dict, "params")->u.seq.n)
            return rt_raise(I, "ValueError", "loaded state dict contains a parameter group that doesn't match the size of optimizer's group");
    Value *sst = dict_get(sdv->u.dict, "state");
    if (!sst) { Value *k = val_str(I->run.heap, "state"); ops_key_error(I, k); val_decref(k); return NULL; }
    if (sst->kind != V_DICT) return rt_raise(I, "TypeError", "state_dict['state'] must be a dict, not %s", val_type_name(sst));
    OptKind kind = optim_kind(self);
    /* held: a key of the student's in the saved state runs their __hash__ / __eq__, which may change any of these */
    Value *state = val_dict(I->run.heap), *hold = val_incref(saved), *holds = val_incref(sst), *mine = val_incref(groups);
    state->u.dict->default_dict = true;
    Dict *sd = sst->u.dict;
    bool ok = true;
    for (int k = 0; ok && k < sd->n; k++) {
        Value *p = saved_param(saved, groups, sd->keys[k]);
        Value *v = p ? cast_state(I, p, sd->vals[k], NULL) : val_incref(sd->vals[k]);
        if (!v) { ok = false; break; }
        if (p && kind != OPT_SGD && v->kind == V_DICT) {      /* Adam's __setstate__: a number step becomes a tensor */
            Value *step = dict_get(v->u.dict, "step");
            if (step && val_is_number(step)) dict_set(v->u.dict, "step", val_tensor(I->run.heap, ten_scalar_f_in(I->run.ten, (float)val_as_double(step))));
        }
        int64_t h;
        int at;
        Value *key = val_incref(p ? p : sd->keys[k]);
        ok = ops_dict_find_hash(I, state->u.dict, key, &h, &at) && ops_dict_store(I, state->u.dict, key, v, h) == 0;
        val_decref(key);
        val_decref(v);
    }
    Value *list = val_list(I->run.heap, 0);
    for (int64_t gi = 0; ok && gi < groups->u.seq.n; gi++) {
        Value *ng = dict_copy_but(saved->u.seq.items[gi]->u.dict, NULL);
        dict_set(ng->u.dict, "params", val_incref(dict_get(groups->u.seq.items[gi]->u.dict, "params")));
        group_setdefaults(kind, ng->u.dict);
        val_list_append(list, ng);
    }
    if (ok) {
        val_attr_set(self, "state", state);
        val_attr_set(self, "param_groups", list);
    } else {
        val_decref(state);
        val_decref(list);
    }
    val_decref(hold);
    val_decref(holds);
    val_decref(mine);
    return ok ? val_none() : NULL;
}

/* One group's options but params, as Optimizer.__repr__ prints them: its keys sorted (taken, held, before any value
 * prints), then each key's value looked up as it prints, so a student's __repr__ of a value that changes the group
 * is seen as in PyTorch (a key it removed: KeyError). g is held by the caller. False when it stopped on an error. */
static bool group_repr(Interp *I, StrBuf *out, Dict *g, int depth) {
    int n = g->n;
    Value **keys = xcalloc((size_t)(n ? n : 1), sizeof *keys);
    for (int i = 0; i < n; i++) keys[i] = val_incref(g->keys[i]);
    for (int i = 1; i < n; i++)            /* insertion sort by key (a handful of string keys) */
        for (int j = i; j > 0 && keys[j]->kind == V_STR && keys[j - 1]->kind == V_STR && strcmp(keys[j]->u.str.s, keys[j - 1]->u.str.s) < 0; j--) {
            Value *t = keys[j]; keys[j] = keys[j - 1]; keys[j - 1] = t;
        }
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        Value *k = keys[i];
        if (k->kind == V_STR && !strcmp(k->u.str.s, "params")) continue;
        int at;
        if (ops_dict_find(I, g, k, &at) && at < 0) ops_key_error(I, k);   /* a key the student's code removed */
        if (at < 0) {                      /* stopped, with the error in a raising repr (val_repr), quietly else */
            if (I->repr_raises) I->repr_failed = true;
            else interp_clear_error(I);
            ok = false;
            break;
        }
        Value *v = val_incref(g->vals[at]);
        sb_puts(out, "    ");
        if (k->kind == V_STR) sb_puts(out, k->u.str.s); else ok = val_repr_part(I, out, k, depth + 1);
        if (ok) sb_puts(out, ": ");
        if (ok && v->kind == V_STR) sb_puts(out, v->u.str.s); else if (ok) ok = val_repr_part(I, out, v, depth + 1);
        if (ok) sb_puts(out, "\n");
        val_decref(v);
    }
    for (int i = 0; i < n; i++) val_decref(keys[i]);
    free(keys);
    return ok;
}

/* PyTorch's Optimizer.__repr__: the class name, then each group's options. The list and each group are held while
 * they print (a student's __repr__ runs). */
static void optim_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    sb_printf(out, "%s (", self->u.obj.cls->name);
    Value *groups = val_incref(val_attr_get(self, "param_groups"));
    bool ok = true;
    for (int64_t gi = 0; ok && groups && groups->kind == V_LIST && gi < groups->u.seq.n; gi++) {
        sb_printf(out, "\nParameter Group %lld\n", (long long)gi);
        Value *gv = val_incref(groups->u.seq.items[gi]);
        if (gv->kind == V_DICT) ok = group_repr(I, out, gv->u.dict, depth);
        val_decref(gv);
    }
    val_decref(groups);
    if (ok) sb_puts(out, ")");
}

static const Builtin optim_methods[6] = {
    {"step", m_step, "optimizer.step(closure=None)",
     "One update of every parameter that has a .grad, by the rule and options of its group (under no_grad).", "", 0, "optimizer"},
    {"zero_grad", m_zero_grad, "optimizer.zero_grad(set_to_none=False)",
     "Zeroes every parameter's .grad in place (set_to_none=True: sets it to None), before the next backward.", "", 0, "optimizer"},
    {"add_param_group", m_add_param_group, "optimizer.add_param_group(param_group)",
     "Adds a dict {'params': [...], 'lr': ...} as a new group; missing options take the defaults.", "", 0, "optimizer"},
    {"state_dict", m_state_dict, "optimizer.state_dict()",
     "{'state': {0: {...}, ...}, 'param_groups': [{'lr': ..., 'params': [0, 1, ...]}]}: the state of each parameter "
     "keyed by its index in the groups (the same dicts as optimizer.state), and the groups' options with the "
     "parameters as their indices, as PyTorch saves an optimizer (torch.save(opt.state_dict(), ...)).", "", 0, "optimizer"},
    {"load_state_dict", m_load_state_dict, "optimizer.load_state_dict(state_dict)",
     "Takes the options and a copy of the state saved by state_dict() (the parameters matched by their index, "
     "group by group, the buffers cast to each parameter's dtype), so that training goes on as it would have.", "", 0, "optimizer"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin *torch_optim_methods(void) { return optim_methods; }

/* ---- torch.nn.utils.clip_grad_norm_ ---- */

/* clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False): the norm of all grads together
 * (a 0-dim tensor of the first grad's dtype: the norm of the per-grad norms), and every grad multiplied in place by
 * min(max_norm / (total + 1e-6), 1), as 1.13 does (it multiplies by 1 too). The norms are attn's torch.norm (the
 * same bits as PyTorch's for norm_type 2, 1 and inf on the tensors tested; other orders within a few ulps). */
static Value *bi_clip_grad_norm(Interp *I, Args *a) {
    Value *p_[4];                               /* parameters, max_norm, norm_type, error_if_nonfinite */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Value *pv = p_[0], *mv = p_[1], *nv = p_[2], *ev = p_[3];
    if (!pv || !mv) return rt_raise(I, "TypeError", "clip_grad_norm_() missing required positional arguments: 'parameters' and 'max_norm'");
    for (int i = 0; i < 2; i++) {
        Value *v = i ? nv : mv;
        if (!v || val_is_number(v)) continue;
        if (v->kind != V_STR) return rt_raise(I, "TypeError", "float() argument must be a string or a number, not '%s'", val_type_name(v));
        if (!strcmp(v->u.str.s, "inf")) { if (i) nv = NULL; else mv = NULL; continue; }
        return rt_raise(I, "ValueError", "could not convert string to float: '%s'", v->u.str.s);
    }
    bool err = false;
    if (ev && !arg_bool(I, ev, "error_if_nonfinite", &err)) return NULL;
    double max_norm = mv ? val_as_double(mv) : INFINITY, nt = nv ? val_as_double(nv) : p_[2] ? INFINITY : 2.0;
    Value *list;
    if (pv->kind == V_TENSOR) { list = val_list(I->run.heap, 0); val_list_append(list, val_incref(pv)); }
    else if (!(list = ops_to_list(I, pv))) return NULL;
    int n = 0;
    Tensor **grads = xcalloc((size_t)(list->u.seq.n ? list->u.seq.n : 1), sizeof *grads);
    for (int64_t i = 0; i < list->u.seq.n; i++) {
        Value *p = list->u.seq.items[i];
        if (p->kind != V_TENSOR) { free(grads); val_decref(list); return rt_raise(I, "AttributeError", "'%s' object has no attribute 'grad'", val_type_name(p)); }
        if (p->ag && p->ag->grad) grads[n++] = p->ag->grad;
    }
    Value *r = NULL;
    if (n == 0) { r = val_tensor(I->run.heap, ten_scalar_f_in(I->run.ten, 0.0f)); goto out; }
    DType dt = grads[0]->dtype;
    Tensor **norms = xcalloc((size_t)n, sizeof *norms), *stack = NULL, *tn = NULL;
    bool ok = true;
    for (int k = 0; ok && k < n; k++) {
        if (grads[k]->dtype != dt || !ten_is_float(dt)) { rt_error(I, "clip_grad_norm_: the grads must be float tensors of one dtype"); ok = false; break; }
        ok = (norms[k] = ten_norm(grads[k], nt, NULL, -1, false)) != NULL;     /* torch.norm(g.detach(), norm_type) */
    }
    if (ok) ok = (stack = ten_stack_in(I->run.ten, norms, n, 0)) && (tn = ten_norm(stack, nt, NULL, -1, false));   /* of the stacked norms */
    if (!ok && !interp_failed(I)) rt_tensor_error(I);
    double total = tn ? (dt == DT_F32 ? (double)ten_f32(tn)[0] : ten_f64(tn)[0]) : 0;
    for (int k = 0; k < n; k++) ten_free(norms[k]);
    free(norms);
    ten_free(stack);
    ten_free(tn);
    if (!ok) goto out;
    if (err && !isfinite(total)) {
        rt_error(I, "The total norm of order %s for gradients from `parameters` is non-finite, so it cannot be clipped. To "
                 "disable this error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`",
                 nt == 2.0 ? "2.0" : isinf(nt) ? "inf" : "p");
        goto out;
    }
    for (int k = 0; k < n; k++) {
        Tensor *g = grads[k], *tmp = NULL;
        if (dt == DT_F32) {
            float sum = (float)total + (float)1e-6, coef = (float)max_norm / sum;
            coef = coef > 1.0f ? 1.0f : coef;
            if (g->dtype != DT_F32 || !g->contiguous) { tmp = ten_copy(g); if (!tmp) { rt_tensor_error(I); goto out; } }
            float *x = ten_f32(tmp ? tmp : g);
            for (int64_t i = 0; i < g->numel; i++) x[i] = x[i] * coef;
        } else {
            double coef = max_norm / (total + 1e-6);
            coef = coef > 1.0 ? 1.0 : coef;
            if (g->dtype != DT_F64 || !g->contiguous) { tmp = ten_copy(g); if (!tmp) { rt_tensor_error(I); goto out; } }
            double *x = ten_f64(tmp ? tmp : g);
            for (int64_t i = 0; i < g->numel; i++) x[i] = x[i] * coef;
        }
        if (tmp) { int rc = ten_copy_into(g, tmp); ten_free(tmp); if (rc < 0) { rt_tensor_error(I); goto out; } }
        else ten_bump_version(g);
    }
    r = val_tensor(I->run.heap, dt == DT_F32 ? ten_scalar_f_in(I->run.ten, (float)total) : ten_scalar_d_in(I->run.ten, total));
out:
    free(grads);
    val_decref(list);
    return r;
}

const Builtin bi_torch_optim[] = {
    {"SGD", bi_sgd, "torch.optim.SGD(params, lr=required, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False, foreach=None, differentiable=False)",
     "Stochastic gradient descent: step() moves each parameter p by -lr * p.grad, with weight_decay adding "
     "weight_decay * p to the grad, and momentum keeping a buffer b = momentum * b + (1 - dampening) * grad that "
     "replaces the grad (nesterov: grad + momentum * b). PyTorch 1.13's rule to the bit. params: model.parameters(), "
     "a list of tensors, or a list of dicts (param groups with their own lr ...); opt.param_groups[0]['lr'] = 0.01 "
     "changes the rate from the next step. The loop: loss.backward(); opt.step(); opt.zero_grad(). (d2l §12.4)", "", 0, "torch.optim"},
    {"Adam", bi_adam, "torch.optim.Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False, *, foreach=None, maximize=False, capturable=False, differentiable=False, fused=False)",
     "Adam (Kingma and Ba, 2015): each parameter keeps running means of its grad (m, betas[0]) and of its squared "
     "grad (v, betas[1]), and steps by -lr * m_hat / (sqrt(v_hat) + eps), the means corrected for their start at 0 "
     "(bias correction 1 - beta**t). weight_decay adds weight_decay * p to the grad (an L2 penalty); amsgrad divides "
     "by the largest v so far. opt.state[p] holds step, exp_avg and exp_avg_sq. PyTorch 1.13's arithmetic, so float32 "
     "parameters come out bit for bit as PyTorch's. The optimizer of the book's Transformer chapters (§11.7). (d2l §12.10)", "", 0, "torch.optim"},
    {"AdamW", bi_adam, "torch.optim.AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, *, maximize=False, foreach=None, capturable=False)",
     "Adam with decoupled weight decay (Loshchilov and Hutter): each step first multiplies the parameter by "
     "1 - lr * weight_decay, then takes Adam's step from the grad alone. PyTorch 1.13's arithmetic. (d2l §12.10)", "", 1, "torch.optim"},
    {"clip_grad_norm_", bi_clip_grad_norm, "torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False)",
     "Scales the grads of the parameters in place so that their norm, taken together as one vector, is at most "
     "max_norm (each grad times max_norm / (norm + 1e-6) when the norm is larger), and returns the norm before "
     "clipping as a tensor. Keeps one large gradient from throwing training off (d2l's Trainer gradient_clip_val, d2l §9.5).", "", 0, "torch.nn.utils"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

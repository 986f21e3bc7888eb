/* call.c - calls: argument lists, builtins, bound methods, objects, user functions (def and lambda); argument
 * helpers for builtins; nested lists to tensors as torch.tensor infers them. */
#include "lang_internal.h"
#include "builtins.h"
#include "ops.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>


static void args_free(Args *a) {
    for (int i = 0; i < a->npos; i++) val_decref(a->pos[i]);
    for (int i = 0; i < a->nkw; i++) val_decref(a->kwvals[i]);
    free(a->pos);
    free(a->kwnames);
    free(a->kwvals);
}

static void push_pos(Args *a, Value *v) {
    a->pos = xrealloc(a->pos, sizeof(Value *) * (size_t)(a->npos + 1));
    a->pos[a->npos++] = v;
}

/* The name a call is known by, for messages: "zeros", "attention". */
static const char *call_name(Value *fn) {
    switch (fn->kind) {
    case V_BUILTIN: return fn->u.builtin->name;
    case V_METHOD: return fn->u.method.fn->name;
    case V_FUNC: return fn->u.func->name;
    case V_OBJECT: return fn->u.obj.cls->name;
    default: return "?";
    }
}

static Value *call_user(Interp *I, Value *fn, Args *a) {
    UserFunc *f = fn->u.func;
    Node *params = f->def->kids[0];
    if (a->npos > f->nparams) return rt_error(I, "%s() takes %d positional arguments but %d were given", f->name, f->nparams, a->npos);
    if (I->call_depth >= INTERP_MAX_CALL_DEPTH) return rt_error(I, "maximum recursion depth (%d) exceeded", INTERP_MAX_CALL_DEPTH);
    Scope sc = {{0}, NULL};
    for (int i = 0; i < f->nparams; i++) {
        const char *pname = params->kids[i]->str;
        Value *v = i < a->npos ? a->pos[i] : NULL;
        for (int k = 0; k < a->nkw; k++)
            if (!strcmp(a->kwnames[k], pname)) {
                if (v) { dict_free(&sc.vars); return rt_error(I, "%s() got multiple values for argument '%s'", f->name, pname); }
                v = a->kwvals[k];
            }
        if (!v) v = f->defaults[i];
        if (!v) { dict_free(&sc.vars); return rt_error(I, "%s() missing required argument '%s'", f->name, pname); }
        dict_set(&sc.vars, pname, val_incref(v));
    }
    for (int k = 0; k < a->nkw; k++) {
        bool known = false;
        for (int i = 0; i < f->nparams; i++) if (!strcmp(a->kwnames[k], params->kids[i]->str)) known = true;
        if (!known) { dict_free(&sc.vars); return rt_error(I, "%s() got an unexpected keyword argument '%s'", f->name, a->kwnames[k]); }
    }
    Scope *saved = I->scope;
    int saved_loop = I->loop_depth;
    I->scope = &sc;
    I->loop_depth = 0;
    I->call_depth++;
    Value *result = NULL;
    Node *body = f->def->kids[1];
    if (f->def->kind == N_LAMBDA) {
        result = interp_eval(I, body);
    } else if (interp_exec_body(I, body) == 0) {
        result = I->signal == SIG_RETURN && I->ret ? val_incref(I->ret) : val_none();
    }
    val_decref(I->ret);
    I->ret = NULL;
    I->signal = 0;
    I->call_depth--;
    I->loop_depth = saved_loop;
    I->scope = saved;
    dict_free(&sc.vars);
    return result;
}

Value *interp_call(Interp *I, Value *fn, Args *a) {
    a->fname = call_name(fn);
    switch (fn->kind) {
    case V_BUILTIN: a->fn = fn->u.builtin; return fn->u.builtin->fn(I, a);
    case V_METHOD: {
        Args b = *a;
        Value **pos = xmalloc(sizeof(Value *) * (size_t)(a->npos + 1));
        pos[0] = fn->u.method.self;
        if (a->npos) memcpy(pos + 1, a->pos, sizeof(Value *) * (size_t)a->npos);
        b.pos = pos;
        b.npos = a->npos + 1;
        b.fn = fn->u.method.fn;
        Value *r = fn->u.method.fn->fn(I, &b);
        free(pos);
        return r;
    }
    case V_FUNC: return call_user(I, fn, a);
    case V_OBJECT:
        if (fn->u.obj.cls->call) return fn->u.obj.cls->call(I, fn, a);
        return rt_error(I, "'%s' object is not callable", fn->u.obj.cls->name);
    case V_DTYPE: return rt_error(I, "'torch.dtype' object is not callable (to convert, use X.to(%s) or X.type(%s))",
                                  ten_dtype_name(fn->u.dtype), ten_dtype_name(fn->u.dtype));
    default: return rt_error(I, "'%s' object is not callable", val_type_name(fn));
    }
}

Value *eval_call(Interp *I, Node *n) {
    Value *fn = interp_eval(I, n->kids[0]);
    if (!fn) return NULL;
    Args a;
    memset(&a, 0, sizeof a);
    for (int i = 1; i < n->nkids; i++) {
        Node *k = n->kids[i];
        if (k->kind == N_KWARG) {
            Value *v = interp_eval(I, k->kids[0]);
            if (!v) goto fail;
            for (int j = 0; j < a.nkw; j++)
                if (!strcmp(a.kwnames[j], k->str)) {
                    val_decref(v);
                    rt_error(I, "keyword argument repeated: %s", k->str);
                    interp_error_at(I, k->line, k->col);
                    goto fail;
                }
            a.kwnames = xrealloc(a.kwnames, sizeof(char *) * (size_t)(a.nkw + 1));
            a.kwvals = xrealloc(a.kwvals, sizeof(Value *) * (size_t)(a.nkw + 1));
            a.kwnames[a.nkw] = k->str;
            a.kwvals[a.nkw++] = v;
        } else if (k->kind == N_STAR) {
            Value *v = interp_eval(I, k->kids[0]);
            if (!v) goto fail;
            Value *items = ops_to_list(I, v);
            val_decref(v);
            if (!items) { interp_error_at(I, k->line, k->col); goto fail; }
            for (int64_t j = 0; j < items->u.seq.n && a.npos < 10000; j++) push_pos(&a, val_incref(items->u.seq.items[j]));
            val_decref(items);
        } else {
            if (a.nkw > 0) {
                rt_error(I, "positional argument follows keyword argument");
                interp_error_at(I, k->line, k->col);
                goto fail;
            }
            Value *v = interp_eval(I, k);
            if (!v) goto fail;
            push_pos(&a, v);
        }
    }
    Value *r = interp_call(I, fn, &a);
    if (!r && !interp_failed(I)) rt_error(I, "%s() failed", call_name(fn));
    if (!r) interp_error_at(I, n->kids[0]->line, n->kids[0]->col);
    args_free(&a);
    val_decref(fn);
    return r;
fail:
    args_free(&a);
    val_decref(fn);
    return NULL;
}

Value *make_function(Interp *I, Node *def, const char *name) {
    Node *params = def->kids[0];
    UserFunc *f = xcalloc(1, sizeof *f);
    f->name = xstrdup(name);
    f->nparams = params->nkids;
    f->defaults = xcalloc((size_t)(f->nparams ? f->nparams : 1), sizeof(Value *));
    for (int i = 0; i < params->nkids; i++) {
        if (params->kids[i]->kind != N_KWARG) continue;
        f->defaults[i] = interp_eval(I, params->kids[i]->kids[0]);
        if (!f->defaults[i]) {
            for (int j = 0; j < i; j++) val_decref(f->defaults[j]);
            free(f->defaults);
            free(f->name);
            free(f);
            return NULL;
        }
    }
    f->def = ast_clone(def);
    Value *v = xcalloc(1, sizeof *v);
    v->kind = V_FUNC;
    v->refs = 1;
    v->u.func = f;
    return v;
}

/* ---- argument helpers ---- */

Value *arg(Args *a, int i, const char *name) {
    if (i >= 0 && i < a->npos) return a->pos[i];
    if (name)
        for (int k = 0; k < a->nkw; k++)
            if (!strcmp(a->kwnames[k], name)) return a->kwvals[k];
    return NULL;
}

bool args_check(Interp *I, Args *a, int maxpos, const char *const *kwnames) {
    if (maxpos >= 0 && a->npos > maxpos) {
        rt_error(I, "%s() takes at most %d positional argument%s but %d were given", a->fname, maxpos, maxpos == 1 ? "" : "s", a->npos);
        return false;
    }
    for (int k = 0; k < a->nkw; k++) {
        bool ok = false;
        for (int j = 0; kwnames && kwnames[j]; j++) {
            if (!strcmp(kwnames[j], a->kwnames[k])) {
                ok = true;
                /* the same parameter given by position and by keyword */
                if (j < a->npos && j < maxpos) {
                    rt_error(I, "%s() got multiple values for argument '%s'", a->fname, a->kwnames[k]);
                    return false;
                }
            }
        }
        if (!ok) {
            rt_error(I, "%s() got an unexpected keyword argument '%s'", a->fname, a->kwnames[k]);
            return false;
        }
    }
    return true;
}

bool arg_int(Interp *I, Value *v, const char *what, int64_t *out) {
    if (v->kind == V_INT) { *out = v->u.i; return true; }
    if (v->kind == V_BOOL) { *out = v->u.b; return true; }
    if (v->kind == V_TENSOR && v->u.t->numel == 1 && !ten_is_float(v->u.t->dtype)) { *out = ten_get_i64(v->u.t, 0); return true; }
    rt_error(I, "%s must be an integer, not %s", what, val_type_name(v));
    return false;
}

bool arg_double(Interp *I, Value *v, const char *what, double *out) {
    if (val_is_number(v)) { *out = val_as_double(v); return true; }
    if (v->kind == V_TENSOR && v->u.t->numel == 1) { *out = ten_get(v->u.t, 0); return true; }
    rt_error(I, "%s must be a number, not %s", what, val_type_name(v));
    return false;
}

bool arg_bool(Interp *I, Value *v, const char *what, bool *out) {
    if (v->kind == V_BOOL) { *out = v->u.b; return true; }
    if (v->kind == V_INT) { *out = v->u.i != 0; return true; }
    rt_error(I, "%s must be True or False, not %s", what, val_type_name(v));
    return false;
}

/* ---- nested lists to tensors ---- */

typedef struct Nest { int64_t shape[TEN_MAX_DIMS]; int ndim; bool any_float, any_f64, any_int, any_bool; int64_t count; } Nest;

static bool nest_scan(Interp *I, Value *v, int depth, Nest *ns) {
    if (v->kind == V_LIST || v->kind == V_TUPLE) {
        if (depth >= TEN_MAX_DIMS) { rt_error(I, "a nested list deeper than %d levels cannot be a tensor", TEN_MAX_DIMS); return false; }
        if (depth == ns->ndim) { ns->shape[depth] = v->u.seq.n; ns->ndim = depth + 1; }
        else if (depth > ns->ndim || ns->shape[depth] != v->u.seq.n) {
            rt_error(I, "the nested lists have different lengths at depth %d (%lld vs %lld): a tensor needs a rectangular shape",
                     depth, (long long)(depth < ns->ndim ? ns->shape[depth] : -1), (long long)v->u.seq.n);
            return false;
        }
        for (int64_t i = 0; i < v->u.seq.n; i++) if (!nest_scan(I, v->u.seq.items[i], depth + 1, ns)) return false;
        return true;
    }
    if (v->kind == V_TENSOR) {
        if (v->u.t->ndim != 0) {
            rt_error(I, "a list of multi-element tensors cannot become a tensor this way: use torch.stack(list)");
            return false;
        }
    } else if (!val_is_number(v)) {
        rt_error(I, "a tensor can only hold numbers, not %s", val_type_name(v));
        return false;
    }
    if (depth != ns->ndim) { rt_error(I, "the nested lists mix numbers and lists at depth %d", depth); return false; }
    if (v->kind == V_TENSOR && v->u.t->dtype == DT_F64) ns->any_f64 = true;
    if (v->kind == V_FLOAT || (v->kind == V_TENSOR && ten_is_float(v->u.t->dtype))) ns->any_float = true;
    else if (v->kind == V_INT || (v->kind == V_TENSOR && v->u.t->dtype == DT_I64)) ns->any_int = true;
    else ns->any_bool = true;
    if (++ns->count > TEN_MAX_NUMEL) { rt_error(I, "the list is too large to become a tensor"); return false; }
    return true;
}

static void nest_fill(Value *v, Tensor *t, int64_t *k) {
    if (v->kind == V_LIST || v->kind == V_TUPLE) {
        for (int64_t i = 0; i < v->u.seq.n; i++) nest_fill(v->u.seq.items[i], t, k);
        return;
    }
    if (v->kind == V_INT && t->dtype == DT_I64) ten_i64(t)[(*k)++] = v->u.i;
    else if (v->kind == V_TENSOR) ten_set(t, (*k)++, ten_get(v->u.t, 0));
    else ten_set(t, (*k)++, val_as_double(v));
}

Tensor *interp_to_tensor(Interp *I, Value *v, bool has_dtype, DType dt) {
    if (v->kind == V_TENSOR) return has_dtype ? ten_cast(v->u.t, dt) : ten_copy(v->u.t);
    Nest ns;
    memset(&ns, 0, sizeof ns);
    if (!nest_scan(I, v, 0, &ns)) return NULL;
    /* Python floats give the default dtype (float32), a float64 tensor element float64; an empty list is float */
    DType inferred = ns.any_f64 ? DT_F64 : ns.any_float ? ten_default_float : ns.any_int ? DT_I64 : ns.any_bool ? DT_BOOL : ten_default_float;
    Tensor *t = ten_new(has_dtype ? dt : inferred, ns.ndim, ns.shape);
    if (!t) { rt_tensor_error(I); return NULL; }
    int64_t k = 0;
    nest_fill(v, t, &k);
    return t;
}

Tensor *arg_tensor(Interp *I, Value *v, const char *what, Tensor **tmp) {
    *tmp = NULL;
    if (v->kind == V_TENSOR) return v->u.t;
    if (val_is_number(v) || v->kind == V_LIST || v->kind == V_TUPLE) {
        *tmp = interp_to_tensor(I, v, false, ten_default_float);
        if (!*tmp) {
            rt_error_prefix(I, "%s", what);
            return NULL;
        }
        return *tmp;
    }
    rt_error(I, "%s must be a tensor, not %s", what, val_type_name(v));
    return NULL;
}

bool arg_shape(Interp *I, Args *a, int first, int64_t *shape, int *ndim) {
    *ndim = 0;
    Value *v = arg(a, first, "size");
    if (!v) {
        /* size given as keyword "size" only, or no shape at all: a 0-d tensor */
        return true;
    }
    int64_t n;
    Value **src;
    if ((v->kind == V_TUPLE || v->kind == V_LIST) && first < a->npos && a->npos == first + 1) { src = v->u.seq.items; n = v->u.seq.n; }
    else if (v->kind == V_TUPLE || v->kind == V_LIST) { src = v->u.seq.items; n = v->u.seq.n; }
    else { src = a->pos + first; n = a->npos - first; }
    if (n > TEN_MAX_DIMS) { rt_error(I, "tensors have at most %d dimensions, not %lld", TEN_MAX_DIMS, (long long)n); return false; }
    for (int64_t i = 0; i < n; i++) {
        int64_t d;
        if (!arg_int(I, src[i], "each dimension of a shape", &d)) return false;
        if (d < 0) { rt_error(I, "negative dimension %lld in the shape", (long long)d); return false; }
        shape[i] = d;
    }
    *ndim = (int)n;
    return true;
}

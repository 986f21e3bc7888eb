/* call.c - calls: argument lists, builtins, bound methods, objects, user functions (def and lambda); argument
 * helpers for builtins; nested lists to tensors as torch.tensor infers them. */
#include "lang_internal.h"
#include "library.h"
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

#define MAX_CALL_ARGS 1000000      /* f(*xs): more positional arguments than this is refused, never cut */

static void push_pos(Args *a, Value *v) {
    if ((a->npos & (a->npos - 1)) == 0)      /* capacity doubles at each power of two */
        a->pos = xrealloc(a->pos, sizeof(Value *) * (size_t)(a->npos ? 2 * a->npos : 1));
    a->pos[a->npos++] = v;
}

/* The name a call is known by, for messages: "zeros", "attention". */
static const char *call_name(Value *fn) {
    switch (fn->kind) {
    case V_BUILTIN: return fn->u.builtin->name;
    case V_METHOD: return fn->u.method.func ? fn->u.method.func->u.func->name : fn->u.method.fn->name;
    case V_FUNC: return fn->u.func->name;
    case V_OBJECT: return val_type_name(fn);
    case V_CLASS: return fn->u.cls->name;
    default: return "?";
    }
}

static const char *plural(int n) { return n == 1 ? "" : "s"; }

/* Binds the arguments of a call to f's parameters in vars, as Python does: positionals in order (the rest into
 * *args), keywords by name (the rest into **kwargs), then defaults. false with an error set. */
static bool bind_args(Interp *I, UserFunc *f, Args *a, Dict *vars) {
    Node *params = f->def->kids[0];
    int np = f->nparams, npos_params = 0, star = -1, dstar = -1;
    for (int i = 0; i < np; i++) {
        NodeKind k = params->kids[i]->kind;
        if (k == N_STAR) star = i;
        else if (k == N_DSTAR) dstar = i;
        else if (star < 0) npos_params++;
    }
    Value **bound = xcalloc((size_t)(np ? np : 1), sizeof *bound);   /* borrowed */
    Value *rest = NULL, *extra_kw = NULL;
    bool ok = false;
    if (a->npos > npos_params && (star < 0 || !params->kids[star]->str)) {
        int need = 0;
        for (int i = 0; i < npos_params; i++) need += params->kids[i]->kind == N_NAME;
        if (need == npos_params) rt_raise(I, "TypeError", "%s() takes %d positional argument%s but %d %s given", f->name, npos_params, plural(npos_params), a->npos, a->npos == 1 ? "was" : "were");
        else rt_raise(I, "TypeError", "%s() takes from %d to %d positional arguments but %d %s given", f->name, need, npos_params, a->npos, a->npos == 1 ? "was" : "were");
        goto out;
    }
    for (int i = 0; i < a->npos && i < npos_params; i++) bound[i] = a->pos[i];
    if (star >= 0 && params->kids[star]->str) {
        int64_t n = a->npos > npos_params ? a->npos - npos_params : 0;
        rest = val_tuple(I->run.heap, n);
        for (int64_t j = 0; j < n; j++) val_seq_set(rest, j, val_incref(a->pos[npos_params + j]));
    }
    if (dstar >= 0) extra_kw = val_dict(I->run.heap);
    for (int k = 0; k < a->nkw; k++) {
        int idx = -1;
        for (int i = 0; i < np && idx < 0; i++) {
            Node *pn = params->kids[i];
            if ((pn->kind == N_NAME || pn->kind == N_KWARG) && !strcmp(pn->str, a->kwnames[k])) idx = i;
        }
        if (idx >= 0) {
            if (bound[idx]) { rt_raise(I, "TypeError", "%s() got multiple values for argument '%s'", f->name, a->kwnames[k]); goto out; }
            bound[idx] = a->kwvals[k];
        } else if (extra_kw) {
            dict_set(extra_kw->u.dict, a->kwnames[k], val_incref(a->kwvals[k]));
        } else {
            rt_raise(I, "TypeError", "%s() got an unexpected keyword argument '%s'", f->name, a->kwnames[k]);
            goto out;
        }
    }
    for (int i = 0; i < np; i++) {
        Node *pn = params->kids[i];
        if (pn->kind == N_STAR || pn->kind == N_DSTAR) continue;
        if (!bound[i]) bound[i] = f->defaults[i];
        if (!bound[i]) {
            int missing = 0;
            for (int j = i; j < np; j++) missing += (params->kids[j]->kind == N_NAME) && !bound[j] && (star < 0 || j < star) == (star < 0 || i < star);
            rt_raise(I, "TypeError", "%s() missing %d required %s argument%s: '%s'%s", f->name, missing,
                     star >= 0 && i > star ? "keyword-only" : "positional", plural(missing), pn->str, missing > 1 ? " and more" : "");
            goto out;
        }
    }
    for (int i = 0; i < np; i++) {
        Node *pn = params->kids[i];
        if (pn->kind == N_STAR) { if (pn->str) dict_set(vars, pn->str, val_incref(rest)); }
        else if (pn->kind == N_DSTAR) dict_set(vars, pn->str, val_incref(extra_kw));
        else dict_set(vars, pn->str, val_incref(bound[i]));
    }
    ok = true;
out:
    free(bound);
    val_decref(rest);
    val_decref(extra_kw);
    return ok;
}

/* Runs a user function. klass is the class its method was found in (for super()), NULL otherwise. While it runs,
 * the interpreter's source is the function's own, so an error inside points at the function's line; an error
 * leaving it adds a frame to the traceback and then takes the position of the call. */
static Value *call_user(Interp *I, Value *fn, Value *klass, Args *a) {
    UserFunc *f = fn->u.func;
    if (I->call_depth >= INTERP_MAX_CALL_DEPTH) return rt_raise(I, "RecursionError", "maximum recursion depth exceeded");
    /* the enclosing functions' variables (a closure), outermost last, then this call's own */
    int nc = f->closure ? (int)f->closure->u.seq.n : 0;
    Scope *outer = nc ? xcalloc((size_t)nc, sizeof *outer) : NULL;
    for (int i = nc - 1; i >= 0; i--) {
        outer[i].env = f->closure->u.seq.items[i];
        outer[i].vars = outer[i].env->u.dict;
        outer[i].parent = i + 1 < nc ? &outer[i + 1] : NULL;
    }
    Scope sc;
    scope_open(I->run.heap, &sc, nc ? &outer[0] : NULL, false);
    if (!bind_args(I, f, a, sc.vars)) { scope_close(&sc); free(outer); return NULL; }
    Frame fr = {fn, klass, &sc, I->frame};
    Scope *saved = I->scope;
    const char *saved_src = I->src, *saved_name = I->src_name;
    int saved_loop = I->loop_depth, saved_first = I->src_first_line;
    I->scope = &sc;
    I->frame = &fr;
    I->loop_depth = 0;
    I->call_depth++;
    if (f->src) { I->src = f->src; I->src_name = f->src_name; I->src_first_line = f->src_first_line; }
    Value *result = NULL;
    Node *body = f->def->kids[1];
    if (f->def->kind == N_LAMBDA) {
        result = interp_eval(I, body);
    } else if (interp_exec_body(I, body) == 0) {
        result = I->signal == SIG_RETURN && I->ret ? val_incref(I->ret) : val_none();
    }
    if (!result && I->error.kind == ERR_ERROR && I->error.line > 0) {
        /* the error happened on a line of this function: that line becomes a frame of the traceback */
        Error *e = &I->error;
        int line = f->src_name ? e->line : e->line - f->chunk_first_line + 1;
        interp_error_add_frame(I, f->src_name, line, e->col, f->name, e->text[0] ? e->text : NULL);
        e->line = e->col = 0;
        e->text[0] = 0;
        e->file[0] = 0;
    }
    val_decref(I->ret);
    I->ret = NULL;
    I->signal = 0;
    I->call_depth--;
    I->loop_depth = saved_loop;
    I->scope = saved;
    I->frame = fr.parent;
    I->src = saved_src;
    I->src_name = saved_name;
    I->src_first_line = saved_first;
    scope_close(&sc);
    free(outer);
    return result;
}

/* Calls fn with self put before the arguments (a bound method). */
static Value *call_with_self(Interp *I, Value *fn, Value *self, Value *klass, Args *a) {
    Args b = *a;
    Value **pos = xmalloc(sizeof(Value *) * (size_t)(a->npos + 1));
    pos[0] = self;
    if (a->npos) memcpy(pos + 1, a->pos, sizeof(Value *) * (size_t)a->npos);
    b.pos = pos;
    b.npos = a->npos + 1;
    Value *r;
    if (fn->kind == V_FUNC) r = call_user(I, fn, klass, &b);
    else {
        const Args *outer = I->method_args;
        b.fn = fn->u.builtin;
        I->method_args = &b;
        r = args_check(I, &b, true) ? fn->u.builtin->fn(I, &b) : NULL;
        I->method_args = outer;
    }
    free(pos);
    return r;
}

/* Whether fn is one of attn's PyTorch functions, tensor methods or layers (not Python's builtins nor d2l's). */
static bool is_torch(const Value *fn) {
    if (fn->kind == V_OBJECT) return !fn->u.obj.klass && fn->u.obj.cls->is_module;
    if (fn->kind == V_METHOD) return !fn->u.method.func && fn->u.method.self->kind == V_TENSOR;
    if (fn->kind != V_BUILTIN) return false;
    const char *m = fn->u.builtin->module ? fn->u.builtin->module : "";
    return !strcmp(m, "torch") || !strncmp(m, "torch.", 6) || !strcmp(m, "nn") || !strncmp(m, "nn.", 3) || !strcmp(m, "F");
}

static Value *call_any(Interp *I, Value *fn, Args *a);

/* Before an in-place method of a tensor (X.add_(1), X.zero_()): under grad mode, PyTorch's refusal on a leaf that
 * requires grad or a view of one (the methods record their gradient themselves, or refuse). */
static bool tensor_inplace_ok(Interp *I, const Builtin *m, Value *self) {
    if (self->kind != V_TENSOR || !I->run.ag.grad_enabled || !ag_requires_grad(self->ag)) return true;
    size_t n = strlen(m->name);
    if (n < 2 || m->name[n - 1] != '_' || m->name[0] == '_' || !strcmp(m->name, "requires_grad_") || !strcmp(m->name, "detach_"))
        return true;
    if (ag_inplace_check(&I->run.ag, self->ag) < 0) { rt_tensor_error(I); return false; }
    return true;
}

Value *interp_call(Interp *I, Value *fn, Args *a) {
    /* fn is held while it runs, as Python's frame holds its function: the caller may have it borrowed (a child
     * module, a property's getter, a key function) and the code it runs may drop every other reference to it */
    val_incref(fn);
    /* and so are its arguments, as Python's caller holds what it passes: a builtin may pass what it borrowed (a
     * module's attribute: nn.Flatten's start_dim), and the callee's conversion of one (an __index__) may run code
     * that drops another. The arrays are not changed by the callee. */
    int npos = a->npos, nkw = a->nkw;
    for (int i = 0; i < npos; i++) val_incref(a->pos[i]);
    for (int k = 0; k < nkw; k++) val_incref(a->kwvals[k]);
    Value *r = call_any(I, fn, a);
    for (int i = 0; i < npos; i++) val_decref(a->pos[i]);
    for (int k = 0; k < nkw; k++) val_decref(a->kwvals[k]);
    /* an allocation the machine refused meanwhile (an append that could not grow the list): Python's MemoryError */
    if (r && mem_exhausted) { val_decref(r); r = NULL; interp_memory_ok(I, 0); }
    /* what PyTorch refuses is its RuntimeError unless a class was given (IndexError, TypeError ...) */
    if (!r && I->error.kind == ERR_ERROR && !I->error.etype[0] && !I->error.exc && is_torch(fn))
        snprintf(I->error.etype, sizeof I->error.etype, "RuntimeError");
    val_decref(fn);
    return r;
}

/* Calls an object (fn's class has a call): a student's __call__ or module, or one of attn's modules. */
static Value *call_object(Interp *I, Value *fn, Args *a) {
    if (fn->u.obj.klass) return fn->u.obj.cls->call(I, fn, a);    /* a student's __call__: call_user counts it */
    /* an attn module (nn.Sequential ...) can hold itself: its calls count toward the recursion limit too */
    if (I->call_depth >= INTERP_MAX_CALL_DEPTH) return rt_raise(I, "RecursionError", "maximum recursion depth exceeded");
    I->call_depth++;
    Value *r = fn->u.obj.cls->call(I, fn, a);
    I->call_depth--;
    /* a layer with no gradient yet refuses an input that requires grad */
    return fn->u.obj.cls->is_module ? lib()->after_call(I, a, NULL, r) : r;
}

/* A module's hooks of one kind (its attribute _forward_hooks or _forward_pre_hooks: register_forward_hook's dict),
 * borrowed; NULL when it has none. */
static Value *module_hooks(Value *m, const char *which) {
    Value *d = val_attr_get(m, which);
    return d && d->kind == V_DICT && d->u.dict->n ? d : NULL;
}

/* Runs each hook of the list hooks (a snapshot: a hook may remove itself) with argv, whose last item is *cur; a result
 * other than None replaces *cur (owned; as_args: a non-tuple becomes the one argument) there. false with the error set. */
static bool run_hooks(Interp *I, Value *hooks, Value **argv, int argc, Value **cur, bool as_args) {
    for (int64_t i = 0; i < hooks->u.seq.n; i++) {
        Args ha = {argv, argc, NULL, NULL, 0, NULL, NULL};
        Value *r = interp_call(I, hooks->u.seq.items[i], &ha);
        if (!r) return false;
        if (r->kind == V_NONE) { val_decref(r); continue; }
        if (as_args && r->kind != V_TUPLE) {
            Value *t = val_tuple(I->run.heap, 1);
            val_seq_set(t, 0, r);
            r = t;
        }
        val_decref(*cur);
        *cur = r;
        argv[argc - 1] = *cur;     /* the next hook sees it: the input of (module, input), the output of (module, input, output) */
    }
    return true;
}

static Value *hook_list(Interp *I, Value *m, const char *which) {
    Value *d = module_hooks(m, which), *l = val_list(I->run.heap, d ? d->u.dict->n : 0);
    for (int i = 0; d && i < d->u.dict->n; i++) val_seq_set(l, i, val_incref(d->u.dict->vals[i]));
    return l;
}

/* module(*args) with hooks, as PyTorch's Module._call_impl: each forward pre-hook(module, args), whose result other
 * than None replaces args (a tuple, else the one argument); the call on those args; each forward hook(module, args,
 * output), whose result other than None replaces the output. */
static Value *call_hooked(Interp *I, Value *fn, Args *a) {
    Value *args = val_tuple(I->run.heap, a->npos), *out = NULL;
    for (int i = 0; i < a->npos; i++) val_seq_set(args, i, val_incref(a->pos[i]));
    Value *pre = hook_list(I, fn, "_forward_pre_hooks"), *post = hook_list(I, fn, "_forward_hooks");
    Value *argv[3] = {fn, args, NULL};
    if (run_hooks(I, pre, argv, 2, &args, true)) {
        Args b = *a;
        b.pos = args->u.seq.items;
        b.npos = (int)args->u.seq.n;
        out = call_object(I, fn, &b);
        argv[1] = args;
        argv[2] = out;
        if (out && !run_hooks(I, post, argv, 3, &out, false)) { val_decref(out); out = NULL; }
    }
    val_decref(pre);
    val_decref(post);
    val_decref(args);
    return out;
}

static Value *call_any(Interp *I, Value *fn, Args *a) {
    a->fname = call_name(fn);
    switch (fn->kind) {
    case V_BUILTIN:
        a->fn = fn->u.builtin;
        if (!lib()->before_call(I, a) || !lib()->unbound_ok(I, fn->u.builtin, a) || !args_check(I, a, false)) return NULL;
        return lib()->after_call(I, a, NULL, fn->u.builtin->fn(I, a));
    case V_METHOD: {
        if (fn->u.method.func) return call_with_self(I, fn->u.method.func, fn->u.method.self, fn->u.method.klass, a);
        Value b = {.kind = V_BUILTIN, .refs = 1, .u.builtin = fn->u.method.fn};
        a->fn = fn->u.method.fn;
        if (!lib()->before_call(I, a) || !tensor_inplace_ok(I, fn->u.method.fn, fn->u.method.self)) return NULL;
        return lib()->after_call(I, a, fn->u.method.self, call_with_self(I, &b, fn->u.method.self, NULL, a));
    }
    case V_FUNC: return call_user(I, fn, NULL, a);
    case V_CLASS: return class_call(I, fn, a);
    case V_OBJECT:
        if (!fn->u.obj.cls->call) return rt_raise(I, "TypeError", "'%s' object is not callable", val_type_name(fn));
        if (val_is_module(fn) && (module_hooks(fn, "_forward_pre_hooks") || module_hooks(fn, "_forward_hooks")))
            return call_hooked(I, fn, a);
        return call_object(I, fn, a);
    case V_DTYPE: return rt_raise(I, "TypeError", "'torch.dtype' object is not callable (to convert, use X.to(%s) or X.type(%s))",
                                  ten_dtype_name(fn->u.dtype), ten_dtype_name(fn->u.dtype));
    default: return rt_raise(I, "TypeError", "'%s' object is not callable", val_type_name(fn));
    }
}

/* Calls fn with self before the arguments: a method found in klass (for super()), or an attn builtin method. */
Value *interp_call_method(Interp *I, Value *fn, Value *self, Value *klass, Args *a) {
    a->fname = call_name(fn);
    return call_with_self(I, fn, self, klass, a);
}

Value *eval_call(Interp *I, Node *n) {
    Value *fn = interp_eval(I, n->kids[0]);
    if (!fn) return NULL;
    Args a;
    memset(&a, 0, sizeof a);
    Value **kwsources = NULL;        /* the keys of **dicts that name keyword arguments, held: a callee may clear the dict */
    int nkwsources = 0;
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
        } else if (k->kind == N_DSTAR) {
            Value *v = interp_eval(I, k->kids[0]);
            if (!v) goto fail;
            if (v->kind != V_DICT) {
                rt_raise(I, "TypeError", "argument after ** must be a dict, not %s", val_type_name(v));
                val_decref(v);
                interp_error_at(I, k->line, k->col);
                goto fail;
            }
            Dict *d = v->u.dict;
            for (int j = 0; j < d->n; j++) {
                if (d->keys[j]->kind != V_STR) { rt_raise(I, "TypeError", "keywords must be strings"); break; }
                const char *name = d->keys[j]->u.str.s;
                bool dup = false;
                for (int m = 0; m < a.nkw; m++) dup |= !strcmp(a.kwnames[m], name);
                if (dup) { rt_raise(I, "TypeError", "%s() got multiple values for keyword argument '%s'", call_name(fn), name); break; }
                a.kwnames = xrealloc(a.kwnames, sizeof(char *) * (size_t)(a.nkw + 1));
                a.kwvals = xrealloc(a.kwvals, sizeof(Value *) * (size_t)(a.nkw + 1));
                a.kwnames[a.nkw] = name;
                a.kwvals[a.nkw++] = val_incref(d->vals[j]);
                kwsources = xrealloc(kwsources, sizeof(Value *) * (size_t)(nkwsources + 1));
                kwsources[nkwsources++] = val_incref(d->keys[j]);   /* keeps the name alive until the call returns */
            }
            val_decref(v);
            if (interp_failed(I)) { interp_error_at(I, k->line, k->col); goto fail; }
        } else if (k->kind == N_STAR) {
            Value *v = interp_eval(I, k->kids[0]);
            if (!v) goto fail;
            Value *items = ops_to_list(I, v);
            val_decref(v);
            if (!items) { interp_error_at(I, k->line, k->col); goto fail; }
            if (items->u.seq.n > MAX_CALL_ARGS - a.npos) {
                rt_error(I, "too many arguments: the * argument gives %lld (attn passes at most %d to one call)",
                         (long long)items->u.seq.n, MAX_CALL_ARGS);
                val_decref(items);
                interp_error_at(I, k->line, k->col);
                goto fail;
            }
            for (int64_t j = 0; j < items->u.seq.n; j++) push_pos(&a, val_incref(items->u.seq.items[j]));
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
    for (int i = 0; i < nkwsources; i++) val_decref(kwsources[i]);
    free(kwsources);
    val_decref(fn);
    return r;
fail:
    args_free(&a);
    for (int i = 0; i < nkwsources; i++) val_decref(kwsources[i]);
    free(kwsources);
    val_decref(fn);
    return NULL;
}

static int last_line(const Node *n) {
    int m = n ? n->line : 0;
    for (int i = 0; n && i < n->nkids; i++) { int k = last_line(n->kids[i]); if (k > m) m = k; }
    return m;
}

/* Copies lines [first, last] of the running source into f, for the carets of errors inside f. */
static void keep_source(Interp *I, UserFunc *f, int first, int last) {
    f->src_name = I->src_name ? xstrdup(I->src_name) : NULL;
    f->chunk_first_line = I->src_first_line;
    if (!I->src || first < I->src_first_line) return;
    const char *p = I->src;
    for (int l = I->src_first_line; l < first && p; l++) { p = strchr(p, '\n'); if (p) p++; }
    if (!p) return;
    const char *e = p;
    for (int l = first; l <= last && e; l++) { e = strchr(e, '\n'); if (e && l < last) e++; }
    size_t n = e ? (size_t)(e - p) : strlen(p);
    f->src = xstrndup(p, n);
    f->src_first_line = first;
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
    /* the function keeps its parameters and body (not its decorators, which have run) */
    f->def = ast_new(def->kind, def->line, def->col);
    f->def->str = def->str ? xstrdup(def->str) : NULL;
    ast_add(f->def, ast_clone(def->kids[0]));
    ast_add(f->def, ast_clone(def->kids[1]));
    keep_source(I, f, def->line, last_line(def));
    /* a function defined inside functions keeps their variables (not a class body's, as in Python) */
    int nc = 0;
    for (Scope *s = I->scope; s; s = s->parent) nc += !s->is_class;
    if (nc) {
        f->closure = val_tuple(I->run.heap, nc);
        int k = 0;
        for (Scope *s = I->scope; s; s = s->parent) if (!s->is_class) val_seq_set(f->closure, k++, val_incref(s->env));
    }
    Value *v = val_new(I->run.heap, V_FUNC);
    v->u.func = f;
    f->attrs.heap = v->heap;
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

bool arg_int(Interp *I, Value *v, const char *what, int64_t *out) {
    if (v->kind == V_INT) { *out = v->u.i; return true; }
    if (v->kind == V_BOOL) { *out = v->u.b; return true; }
    if (v->kind == V_TENSOR && v->u.t->numel == 1 && !ten_is_float(v->u.t->dtype)) { *out = ten_get_i64(v->u.t, 0); return true; }
    int r = class_index(I, v, out);
    if (r) return r > 0;
    rt_raise(I, "TypeError", "%s must be an integer, not %s", what, val_type_name(v));
    return false;
}

bool arg_double(Interp *I, Value *v, const char *what, double *out) {
    if (val_is_number(v)) { *out = val_as_double(v); return true; }
    if (v->kind == V_TENSOR && v->u.t->numel == 1) { *out = ten_get(v->u.t, 0); return true; }
    rt_raise(I, "TypeError", "%s must be a number, not %s", what, val_type_name(v));
    return false;
}

bool arg_bool(Interp *I, Value *v, const char *what, bool *out) {
    if (v->kind == V_BOOL) { *out = v->u.b; return true; }
    if (v->kind == V_INT) { *out = v->u.i != 0; return true; }
    rt_raise(I, "TypeError", "%s must be True or False, not %s", what, val_type_name(v));
    return false;
}

/* ---- nested lists to tensors ---- */

typedef struct Nest { int64_t shape[TEN_MAX_DIMS]; int ndim; bool any_float, any_f64, any_int, any_bool; int64_t count; } Nest;

static bool nest_scan(Interp *I, Value *v, int depth, Nest *ns) {
    if (v->kind == V_LIST || v->kind == V_TUPLE) {
        if (depth >= TEN_MAX_DIMS) { rt_error(I, "a nested list deeper than %d levels cannot be a tensor", TEN_MAX_DIMS); return false; }
        if (depth == ns->ndim && ns->count) {      /* numbers were met at this depth already: [1, [2, 3]] */
            rt_error(I, "the nested lists mix numbers and lists at depth %d", depth);
            return false;
        }
        if (depth == ns->ndim) { ns->shape[depth] = v->u.seq.n; ns->ndim = depth + 1; }
        else if (depth > ns->ndim || ns->shape[depth] != v->u.seq.n) {
            rt_raise(I, "ValueError", "the nested lists have different lengths at depth %d (%lld vs %lld): a tensor needs a rectangular shape",
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
    } else if (!val_is_number(v)) {          /* PyTorch's three answers, by where the value stands */
        if (v->kind == V_STR && depth == 0) rt_raise(I, "TypeError", "new(): invalid data type 'str'");
        else if (v->kind == V_STR) rt_raise(I, "ValueError", "too many dimensions 'str'");
        else rt_raise(I, "RuntimeError", "Could not infer dtype of %s", val_type_name(v));
        return false;
    }
    if (depth != ns->ndim) { rt_error(I, "the nested lists mix numbers and lists at depth %d", depth); return false; }
    if (v->kind == V_TENSOR && v->u.t->dtype == DT_F64) ns->any_f64 = true;
    if (v->kind == V_FLOAT || (v->kind == V_TENSOR && ten_is_float(v->u.t->dtype))) ns->any_float = true;
    else if (v->kind == V_INT || (v->kind == V_TENSOR && v->u.t->dtype == DT_I64)) ns->any_int = true;
    else ns->any_bool = true;
    if (++ns->count > I->run.ten->limit_numel) { rt_error(I, "the list is too large to become a tensor"); return false; }
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
    DType inferred = ns.any_f64 ? DT_F64 : ns.any_float ? I->run.ten->default_float : ns.any_int ? DT_I64 : ns.any_bool ? DT_BOOL : I->run.ten->default_float;
    Tensor *t = ten_new_in(I->run.ten, has_dtype ? dt : inferred, ns.ndim, ns.shape);
    if (!t) { rt_tensor_error(I); return NULL; }
    int64_t k = 0;
    nest_fill(v, t, &k);
    return t;
}

/* Python's name of v's type as PyTorch's argument parser writes it (tensors are "Tensor"). */
static const char *torch_type_name(const Value *v) { return v->kind == V_NONE ? "NoneType" : val_type_name(v); }

/* The name PyTorch's argument parser gives a function whose Python name differs (F.logsigmoid is ATen's log_sigmoid,
 * torch.unique calls _unique2). */
static const char *aten_name(const char *fname) {
    static const char *const names[][2] = {{"logsigmoid", "log_sigmoid"}, {"unique", "_unique2"}};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) if (!strcmp(fname, names[k][0])) return names[k][1];
    return fname;
}

Value *arg_not_tensor(Interp *I, Args *a, Value *v, const char *name, unsigned accept) {
    if (accept & ARG_RECEIVER) return rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", torch_type_name(v), name);
    if (a && (accept & ARG_OVERLOADED)) return arg_no_overload(I, a);
    int pos = -1;
    for (int k = 0; a && k < a->npos && pos < 0; k++) if (a->pos[k] == v) pos = k;
    const char *tn = torch_type_name(v);
    if (!a) return rt_raise(I, "TypeError", "%s must be a tensor, not %s", name, tn);
    if (pos < 0) return rt_raise(I, "TypeError", "%s(): argument '%s' must be Tensor, not %s", aten_name(a->fname), name, tn);
    return rt_raise(I, "TypeError", "%s(): argument '%s' (position %d) must be Tensor, not %s", aten_name(a->fname), name,
                    I->method_args == a ? pos : pos + 1, tn);
}

Value *arg_no_overload(Interp *I, Args *a) {
    StrBuf b;
    sb_init(&b);
    for (int k = I->method_args == a ? 1 : 0; k < a->npos; k++)
        sb_printf(&b, "%s%s", b.len ? ", " : "", torch_type_name(a->pos[k]));
    bool no_pos = b.len == 0;
    /* the keywords in the order of their names, as PyTorch's message lists them; after keywords alone PyTorch's
     * list ends with ", " */
    for (int done = 0; done < a->nkw; done++) {
        int next = -1;
        for (int k = 0; k < a->nkw; k++) {
            int rank = 0;
            for (int j = 0; j < a->nkw; j++) rank += strcmp(a->kwnames[j], a->kwnames[k]) < 0;
            if (rank == done) next = k;
        }
        if (next >= 0) sb_printf(&b, "%s%s=%s", b.len ? ", " : "", a->kwnames[next], torch_type_name(a->kwvals[next]));
    }
    if (no_pos && a->nkw) sb_puts(&b, ", ");
    rt_raise(I, "TypeError", "%s() received an invalid combination of arguments - got (%s), but expected one of:", a->fname, sb_str(&b));
    sb_free(&b);
    return NULL;
}

Tensor *arg_tensor(Interp *I, Args *a, Value *v, const char *name, unsigned accept, ArgTensor *out) {
    *out = (ArgTensor){.t = NULL, .own = NULL, .weak = false};
    if (v->kind == V_TENSOR) return out->t = v->u.t;
    if (val_is_number(v) && (accept & ARG_NUMBER)) {
        out->weak = true;
        if (!(out->t = out->own = ops_number_tensor_in(I->run.ten, v))) rt_tensor_error(I);
        return out->t;
    }
    arg_not_tensor(I, a, v, name, accept);
    return NULL;
}

Tensor *arg_tensor_as(Interp *I, Args *a, Value *v, const char *name, unsigned accept, DType dt, ArgTensor *out) {
    if (!arg_tensor(I, a, v, name, accept, out) || (out->t->dtype == dt && out->t->contiguous)) return out->t;
    Tensor *c = ten_cast(out->t, dt);
    arg_tensor_release(out);
    out->t = out->own = c;
    if (!c) rt_tensor_error(I);
    return c;
}

void arg_tensor_release(ArgTensor *t) {
    ten_free(t->own);
    *t = (ArgTensor){.t = NULL, .own = NULL, .weak = false};
}

bool arg_ints(Interp *I, Value *const *items, int64_t n, const char *what, int64_t *out) {
    Value **held = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *held);
    for (int64_t i = 0; i < n; i++) held[i] = val_incref(items[i]);
    bool ok = true;
    for (int64_t i = 0; i < n && ok; i++) ok = arg_int(I, held[i], what, &out[i]);
    for (int64_t i = 0; i < n; i++) val_decref(held[i]);
    free(held);
    return ok;
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
    if ((v->kind == V_TUPLE || v->kind == V_LIST) && first + 1 < a->npos) {
        /* zeros((2, 3), 4): PyTorch refuses the 4 (TypeError); it must not be dropped without a word */
        rt_raise(I, "TypeError", "%s(): a shape given as a %s is the only positional argument (got %d): %s((2, 3)) or %s(2, 3)",
                 a->fname, val_type_name(v), a->npos - first, a->fname, a->fname);
        return false;
    }
    if (v->kind == V_TUPLE || v->kind == V_LIST) { src = v->u.seq.items; n = v->u.seq.n; }
    else { src = a->pos + first; n = a->npos - first; }
    if (n > TEN_MAX_DIMS) { rt_error(I, "tensors have at most %d dimensions, not %lld", TEN_MAX_DIMS, (long long)n); return false; }
    if (!arg_ints(I, src, n, "each dimension of a shape", shape)) return false;
    for (int64_t i = 0; i < n; i++)
        if (shape[i] < 0) { rt_raise(I, "RuntimeError", "negative dimension %lld in the shape", (long long)shape[i]); return false; }
    *ndim = (int)n;
    return true;
}

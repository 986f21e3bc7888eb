/* eval.c - the tree-walking evaluator's expressions: names and scopes, assignment, displays and comprehensions,
 * generator expressions, f-strings, operators and calls, errors given their positions. Statements are exec.c's (it
 * shares the helpers in eval_internal.h); the error record, its format and the output sinks are interp.c's. */
#include "lang_internal.h"
#include "eval_internal.h"
#include "library.h"
#include "ops.h"
#include "pyset.h"
#include "pyexc.h"
#include "parser.h"
#include "pyformat.h"
#include "textwidth.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Gives the pending error the position of node n, unless a deeper node already gave one. */
Value *ev_at(Interp *I, Node *n) {
    if (n) interp_error_at(I, n->line, n->col);
    return NULL;
}
/* ---- names ---- */

void scope_open(ValHeap *heap, Scope *s, Scope *parent, bool is_class) {
    s->env = val_dict(heap);
    s->vars = s->env->u.dict;
    s->is_class = is_class;
    s->parent = parent;
}

void scope_close(Scope *s) {
    /* a nested def bound here holds this scope's variables, which hold it: the cycle collector frees them once
     * nothing else refers to them (a returned closure that calls itself keeps working) */
    val_decref(s->env);
    s->env = NULL;
    s->vars = NULL;
}

Value *interp_lookup(Interp *I, const char *name) {
    for (Scope *s = I->scope; s; s = s->parent) {
        Value *v = dict_get(s->vars, name);
        if (v) return v;
    }
    return dict_get(&I->globals, name);
}

void interp_set_global(Interp *I, const char *name, Value *v) { dict_set(&I->globals, name, v); }

void ev_set_name(Interp *I, const char *name, Value *v) {
    if (I->scope) dict_set(I->scope->vars, name, v);
    else dict_set(&I->globals, name, v);
}

static int edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 30 || lb > 30) return 99;
    int d[31][31];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

void suggest_init(Suggest *s, const char *want) {
    s->want = want;
    s->best = NULL;
    s->bestd = 3;
}

void suggest_offer(void *ctx, const char *name) {
    Suggest *s = ctx;
    if (strlen(s->want) < 2 || !strcmp(name, s->want)) return;
    int d = edit_distance(s->want, name);
    if (d < s->bestd) { s->bestd = d; s->best = name; }
}

/* "name 'Q' is not defined" with the closest defined name, if one is close. */
Value *ev_name_error(Interp *I, const char *name) {
    if (!strcmp(name, "np") || !strcmp(name, "numpy"))
        return rt_raise(I, "NameError", "name '%s' is not defined (NumPy is not available in attn: use torch, e.g. torch.tensor, torch.arange)", name);
    const char *why = lib()->refused(name);
    if (why) return rt_error(I, "%s() is not available in attn: %s", name, why);
    Suggest sg;
    suggest_init(&sg, name);
    Dict *ds[2] = {&I->globals, I->scope ? I->scope->vars : NULL};
    for (int k = 0; k < 2; k++)
        for (int i = 0; ds[k] && i < ds[k]->n; i++) suggest_offer(&sg, ds[k]->keys[i]->u.str.s);
    int n;
    const Builtin *const *all = lib()->all(&n);
    for (int i = 0; i < n; i++) suggest_offer(&sg, all[i]->name);
    if (sg.best) {
        /* a builtin that lives in a module is suggested with it: torch.zeros */
        const Builtin *b = interp_lookup(I, sg.best) ? NULL : lib()->find(sg.best);
        char home[32] = "";
        if (b) lib()->home(b, home, sizeof home);
        return rt_raise(I, "NameError", "name '%s' is not defined (did you mean '%s%s%s'?)", name, home, home[0] ? "." : "", sg.best);
    }
    return rt_raise(I, "NameError", "name '%s' is not defined", name);
}

static Value *lookup_name(Interp *I, Node *n) {
    Value *v = interp_lookup(I, n->str);
    if (v) return val_incref(v);
    /* bare names: Python's builtins (float() before torch.float) and attn's own tools; torch.zeros, nn.Linear and
     * d2l.MultiHeadAttention only with their module, as in PyTorch (so a failed `class MultiHeadAttention` leaves
     * nothing that answers to the name) */
    const Builtin *b = lib()->find(n->str);
    if (b && lib()->is_bare(b)) return val_builtin(I->run.heap, b);
    if (b) {
        char home[32];
        lib()->home(b, home, sizeof home);
        rt_raise(I, "NameError", "name '%s' is not defined (attn's built-in one is %s.%s)", n->str, home, n->str);
        return ev_at(I, n);
    }
    if (!strcmp(n->str, "NotImplemented")) return val_notimplemented();
    if (!strcmp(n->str, "object")) return val_incref(class_object());   /* class D(object), object.__setattr__(self, n, v) */
    Value *c = lib()->constant(I->run.heap, n->str);
    if (c) return c;
    ev_name_error(I, n->str);
    return ev_at(I, n);
}

/* ---- assignment ---- */


/* The items a, b = v unpacks: all of them for a starred target, else at most limit (CPython reads one past the
 * targets and stops there, so a, b = endless_iterator() is a ValueError, not a walk without end). A new list or NULL
 * with the error set. */
static Value *unpack_items(Interp *I, Value *v, int64_t limit) {
    if (limit < 0 || v->kind != V_OBJECT) return ops_to_list(I, v);
    Iter it;
    if (!ops_iter_begin(I, v, &it)) return NULL;
    Value *items = val_list(I->run.heap, 0), *e = NULL;
    while (items->u.seq.n < limit && (e = ops_iter_next(&it))) val_list_append(items, e);
    ops_iter_end(&it);
    if (interp_failed(I)) { val_decref(items); return NULL; }
    return items;
}

static int unpack(Interp *I, Node *target, Value *v) {
    int nt = target->nkids, star = -1;
    for (int i = 0; i < nt; i++) if (target->kids[i]->kind == N_STAR) star = i;
    Value *items = ops_is_iterable(I, v) ? unpack_items(I, v, star < 0 ? nt + 1 : -1) : NULL;
    if (!items) {
        if (!interp_failed(I)) rt_raise(I, "TypeError", "cannot unpack non-iterable %s object", val_type_name(v));   /* Python's words for a, b = 1 */
        ev_at(I, target);
        return -1;
    }
    int64_t n = items->u.seq.n;
    if ((star < 0 && n != nt) || (star >= 0 && n < nt - 1)) {
        val_decref(items);
        if (n > nt) rt_raise(I, "ValueError", "too many values to unpack (expected %d)", nt);     /* Python 3.11's words */
        else rt_raise(I, "ValueError", star >= 0 ? "not enough values to unpack (expected at least %d, got %lld)"
                                                 : "not enough values to unpack (expected %d, got %lld)", star >= 0 ? nt - 1 : nt, (long long)n);
        ev_at(I, target);
        return -1;
    }
    int rc = 0;
    int64_t k = 0;
    for (int i = 0; i < nt && rc == 0; i++) {
        if (i == star) {
            int64_t cnt = n - (nt - 1);
            Value *rest = val_list(I->run.heap, cnt);
            for (int64_t j = 0; j < cnt; j++) val_seq_set(rest, j, val_incref(items->u.seq.items[k++]));
            rc = ev_assign(I, target->kids[i]->kids[0], rest);
            val_decref(rest);
        } else {
            rc = ev_assign(I, target->kids[i], items->u.seq.items[k++]);
        }
    }
    val_decref(items);
    return rc;
}

/* Binds v (borrowed) to a target: a name, x.attr, x[index], or a tuple/list of targets. */
int ev_assign(Interp *I, Node *target, Value *v) {
    switch (target->kind) {
    case N_NAME: ev_set_name(I, target->str, val_incref(v)); return 0;
    case N_TUPLE: case N_LIST: return unpack(I, target, v);
    case N_ATTR: {
        Value *obj = ev_eval(I, target->kids[0]);
        if (!obj) return -1;
        int rc = ops_setattr(I, obj, target->str, v);
        val_decref(obj);
        if (rc < 0) ev_at(I, target);
        return rc;
    }
    case N_INDEX: {
        Value *obj = ev_eval(I, target->kids[0]);
        if (!obj) return -1;
        Value *ix = ev_eval(I, target->kids[1]);
        if (!ix) { val_decref(obj); return -1; }
        int rc = ops_set_index(I, obj, ix, v);
        val_decref(obj);
        val_decref(ix);
        if (rc < 0) ev_at(I, target);
        return rc;
    }
    default:
        rt_error(I, "cannot assign to this expression");
        ev_at(I, target);
        return -1;
    }
}

/* ---- expressions ---- */

static Value *eval_seq(Interp *I, Node *n, bool list) {
    Value *r = list ? val_list(I->run.heap, 0) : val_tuple(I->run.heap, 0);
    for (int i = 0; i < n->nkids; i++) {
        Node *k = n->kids[i];
        if (k->kind == N_STAR) {
            Value *src = ev_eval(I, k->kids[0]);
            Value *items = src ? ops_to_list(I, src) : NULL;
            val_decref(src);
            if (!items) { val_decref(r); return ev_at(I, k); }
            for (int64_t j = 0; j < items->u.seq.n; j++) val_list_append(r, val_incref(items->u.seq.items[j]));
            val_decref(items);
            continue;
        }
        Value *v = ev_eval(I, k);
        if (!v) { val_decref(r); return NULL; }
        val_list_append(r, v);
    }
    return r;
}

/* [elt for t in it if c ...]: runs in its own scope, so the loop variable does not leak (as in Python 3). */
static int comp_run(Interp *I, Node *lc, int clause, Value *out, int64_t *count) {
    if (clause == lc->nkids && lc->op == 'd') {        /* {key: value for ...} */
        Value *k = ev_eval(I, lc->kids[0]);
        Value *v = k ? ev_eval(I, lc->kids[1]) : NULL;
        int rc = v ? ops_set_index(I, out, k, v) : -1;
        val_decref(k);
        val_decref(v);
        if (rc < 0) ev_at(I, lc->kids[0]);
        return rc < 0 ? -1 : 0;
    }
    if (clause == lc->nkids) {
        Value *v = ev_eval(I, lc->kids[0]);
        if (!v) return -1;
        if (lc->op == 's') {                           /* {x for ...} */
            int rc = pyset_add(I, out, v);
            val_decref(v);
            if (rc < 0) ev_at(I, lc->kids[0]);
            return rc;
        }
        val_list_append(out, v);
        return 0;
    }
    Node *cf = lc->kids[clause];
    Value *src = ev_eval(I, cf->kids[1]);
    if (!src) return -1;
    Iter it;
    bool ok = ops_iter_begin(I, src, &it);
    val_decref(src);
    if (!ok) { ev_at(I, cf->kids[1]); return -1; }
    Value *e;
    int rc = 0;
    while (rc == 0 && (e = ops_iter_next(&it))) {
        if (ten_interrupted) { rt_interrupt(I); rc = -1; val_decref(e); break; }
        if (++*count > I->max_loop_iterations) { rt_error(I, "the comprehension ran %lld iterations: stopped", I->max_loop_iterations); rc = -1; val_decref(e); break; }
        if (((*count & 1023) == 0 || mem_exhausted) && !interp_memory_ok(I, 1024)) { ev_at(I, cf); rc = -1; val_decref(e); break; }
        rc = ev_assign(I, cf->kids[0], e);
        val_decref(e);
        bool pass = true;
        for (int i = 2; rc == 0 && pass && i < cf->nkids; i++) {
            Value *c = ev_eval(I, cf->kids[i]);
            if (!c) { rc = -1; break; }
            const bool ok2 = interp_truth(I, c, &pass);      /* a student's __bool__/__len__ */
            val_decref(c);
            if (!ok2) { ev_at(I, cf->kids[i]); rc = -1; }
        }
        if (rc == 0 && pass) rc = comp_run(I, lc, clause + 1, out, count);
    }
    if (rc == 0 && interp_failed(I)) { ev_at(I, cf->kids[1]); rc = -1; }     /* the iterator failed */
    ops_iter_end(&it);
    return rc;
}

/* Whether CPython's compiler folds n to a constant (a literal, or an operator or tuple of literals). */
static bool folds_to_constant(const Node *n) {
    switch (n->kind) {
    case N_INT: case N_FLOAT: case N_STR: case N_NONE: case N_TRUE: case N_FALSE: case N_ELLIPSIS: return true;
    case N_UNARY: return folds_to_constant(n->kids[0]);
    case N_BINARY: return folds_to_constant(n->kids[0]) && folds_to_constant(n->kids[1]);
    case N_TUPLE:
        for (int i = 0; i < n->nkids; i++) if (!folds_to_constant(n->kids[i])) return false;
        return true;
    default: return false;
    }
}

/* {**m} in a dict display: m's entries set into d in m's order (a later key replaces an earlier one, as in Python);
 * m must be a dict ("'int' object is not a mapping" otherwise). -1 with the error set and located at ds. */
static int dict_merge_display(Interp *I, Value *d, Node *ds) {
    Value *m = ev_eval(I, ds->kids[0]);
    if (!m) { ev_at(I, ds); return -1; }
    if (m->kind != V_DICT) {
        rt_raise(I, "TypeError", "'%s' object is not a mapping", val_type_name(m));
        val_decref(m);
        ev_at(I, ds);
        return -1;
    }
    int rc = 0;
    for (int j = 0; rc == 0 && j < m->u.dict->n; j++) {
        Value *k = val_incref(m->u.dict->keys[j]), *v = val_incref(m->u.dict->vals[j]);  /* a key's __eq__ may change m */
        rc = ops_set_index(I, d, k, v);
        val_decref(k);
        val_decref(v);
    }
    val_decref(m);
    if (rc < 0) ev_at(I, ds);
    return rc < 0 ? -1 : 0;
}

/* {a, b, c}: the elements added in order, as CPython's BUILD_SET. Three or more constants CPython compiles to a
 * frozenset constant (built in order, then rebuilt from its own order when the code's constants are merged) that
 * an empty set is updated from: the same steps here, so the set's table, hence its order, is CPython's. */
static Value *eval_set_display(Interp *I, Node *n) {
    Value *s = pyset_new(I->run.heap);
    for (int i = 0; i < n->nkids; i++) {
        if (n->kids[i]->kind == N_STAR) {              /* {*it}: it's items added in order */
            Value *src = ev_eval(I, n->kids[i]->kids[0]);
            Value *items = src ? ops_to_list(I, src) : NULL;
            val_decref(src);
            int rc = items ? 0 : -1;
            for (int64_t j = 0; rc == 0 && j < items->u.seq.n; j++) rc = pyset_add(I, s, items->u.seq.items[j]);
            val_decref(items);
            if (rc < 0) { val_decref(s); return ev_at(I, n->kids[i]); }
            continue;
        }
        Value *v = ev_eval(I, n->kids[i]);
        int rc = v ? pyset_add(I, s, v) : -1;
        val_decref(v);
        if (rc < 0) { val_decref(s); return ev_at(I, n->kids[i]); }
    }
    bool folded = n->nkids > 2;
    for (int i = 0; folded && i < n->nkids; i++) folded = folds_to_constant(n->kids[i]);
    if (folded) {
        Value *order = ops_to_list(I, s), *merged = pyset_from(I, order), *r = pyset_from(I, merged);
        val_decref(order);
        val_decref(merged);
        val_decref(s);
        s = r;
    }
    return s;
}

static Value *eval_listcomp(Interp *I, Node *n) {
    Scope sc;
    scope_open(I->run.heap, &sc, I->scope, false);
    I->scope = &sc;
    Value *out = n->op == 'd' ? val_dict(I->run.heap) : n->op == 's' ? pyset_new(I->run.heap) : val_list(I->run.heap, 0);
    int64_t count = 0;
    int rc = comp_run(I, n, n->op == 'd' ? 2 : 1, out, &count);
    I->scope = sc.parent;
    scope_close(&sc);
    if (rc < 0) { val_decref(out); return NULL; }
    return out;
}

/* (elt for t in it if c ...): Python's generator, lazy. The first iterable's iterator is made now, in this scope
 * (as Python does); the rest runs as items are asked for (interp_genexpr_next), in a function-like value that keeps
 * a copy of the expression and the enclosing functions' variables (make_function's closure). */
static Value *eval_genexpr(Interp *I, Node *n) {
    Node *cf = n->kids[1];
    Value *src = ev_eval(I, cf->kids[1]);
    if (!src) return NULL;
    Value *it = ops_iter(I, src);
    val_decref(src);
    if (!it) return ev_at(I, cf->kids[1]);
    Node *lam = ast_new(N_LAMBDA, n->line, n->col);
    ast_add(lam, ast_new(N_TUPLE, n->line, n->col));     /* no parameters */
    ast_add(lam, n);
    Value *fn = make_function(I, lam, "<genexpr>");     /* copies the tree: n stays the caller's */
    lam->nkids = 1;
    ast_free(lam);
    if (!fn) { val_decref(it); return NULL; }
    return ops_generator(fn, it, n->nkids - 1);
}

/* One step of generator expression gen (ops_generator's state: "fn" the <genexpr> function, "its" one iterator per
 * for clause (None until reached), "env" its loop variables, "level" the innermost clause running): the next item,
 * or NULL at the end (the generator then stays finished) or with the error set (it is finished too, as Python's).
 * It runs in its own scope over the enclosing functions' variables, its errors located in its own source. */
Value *interp_genexpr_next(Interp *I, Value *gen) {
    Value *fnv = val_attr_get(gen, "fn"), *its = val_attr_get(gen, "its"), *env = val_attr_get(gen, "env");
    Value *lv = val_attr_get(gen, "level");
    if (!fnv || !its || !env || !lv) return NULL;
    if (val_attr_get(gen, "running")) return rt_raise(I, "ValueError", "generator already executing");
    val_incref(gen);
    val_attr_set(gen, "running", val_bool(I->run.heap, true));
    UserFunc *f = fnv->u.func;
    Node *lc = f->def->kids[1];
    int nclauses = lc->nkids - 1, nc = f->closure ? (int)f->closure->u.seq.n : 0;
    Scope *outer = nc ? xcalloc((size_t)nc, sizeof *outer) : NULL;
    for (int i = nc - 1; i >= 0; i--) {
        outer[i].env = f->closure->u.seq.items[i];
        outer[i].vars = outer[i].env->u.dict;
        outer[i].parent = i + 1 < nc ? &outer[i + 1] : NULL;
    }
    Scope sc = {.vars = env->u.dict, .env = env, .is_class = false, .parent = nc ? &outer[0] : NULL};
    Scope *saved = I->scope;
    const char *saved_src = I->src, *saved_name = I->src_name;
    int saved_first = I->src_first_line;
    I->scope = &sc;
    if (f->src) { I->src = f->src; I->src_name = f->src_name; I->src_first_line = f->src_first_line; }
    int level = (int)lv->u.i;
    Value *result = NULL;
    bool failed = false;
    while (level >= 0 && !failed) {
        if (ten_interrupted) { rt_interrupt(I); failed = true; break; }
        Node *cf = lc->kids[1 + level];
        Value *it = its->u.seq.items[level];
        if (it->kind == V_NONE) {                        /* an inner clause reached: its iterable evaluated now */
            Value *src = ev_eval(I, cf->kids[1]);
            it = src ? ops_iter(I, src) : NULL;
            val_decref(src);
            if (!it) { ev_at(I, cf->kids[1]); failed = true; break; }
            val_seq_set(its, level, it);
        }
        Value *e = ops_iterator_next(I, it);
        if (!e) {
            if (interp_failed(I)) { ev_at(I, cf->kids[1]); failed = true; break; }
            val_seq_set(its, level, val_none());
            level--;
            continue;
        }
        int rc = ev_assign(I, cf->kids[0], e);
        val_decref(e);
        bool pass = rc == 0;
        failed = rc < 0;
        for (int i = 2; pass && !failed && i < cf->nkids; i++) {
            Value *c = ev_eval(I, cf->kids[i]);
            if (!c) { failed = true; break; }
            bool ok = interp_truth(I, c, &pass);      /* a student's __bool__/__len__ */
            val_decref(c);
            if (!ok) { ev_at(I, cf->kids[i]); failed = true; }
        }
        if (failed || !pass) continue;
        if (level + 1 < nclauses) { level++; continue; }
        if (!(result = ev_eval(I, lc->kids[0]))) failed = true;
        break;
    }
    if (failed && I->error.kind == ERR_ERROR && pyexc_matches(I->error.etype, "StopIteration")) {
        /* raised by the item, a condition or an inner iterable (an iterator's own end is no error): PEP 479 */
        snprintf(I->error.etype, sizeof I->error.etype, "RuntimeError");
        snprintf(I->error.msg, sizeof I->error.msg, "generator raised StopIteration");
        I->error.raised_len = 0;
        val_decref(I->error.exc);
        I->error.exc = pyexc_new(I->run.heap, "RuntimeError", "generator raised StopIteration");
    }
    if (failed && I->error.kind == ERR_ERROR && I->error.line > 0) {      /* a traceback frame, as a function's */
        Error *er = &I->error;
        int line = f->src_name ? er->line : er->line - f->chunk_first_line + 1;
        interp_error_add_frame(I, f->src_name, line, er->col, f->name, er->text[0] ? er->text : NULL);
        er->line = er->col = 0;
        er->text[0] = 0;
    }
    I->scope = saved;
    I->src = saved_src;
    I->src_name = saved_name;
    I->src_first_line = saved_first;
    free(outer);
    dict_del(&gen->u.obj.attrs, "running");
    if (failed || level < 0) dict_del(&gen->u.obj.attrs, "its");       /* finished: later next() gives nothing */
    else val_attr_set(gen, "level", val_int(I->run.heap, level));
    val_decref(gen);
    return result;
}

static Value *eval_fstring(Interp *I, Node *n) {
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < n->nkids; i++) {
        Node *k = n->kids[i];
        if (k->kind == N_STR) { sb_putn(&b, k->str, k->slen); continue; }
        Value *v = ev_eval(I, k->kids[0]);
        if (!v) { sb_free(&b); return NULL; }
        const char *spec = k->str ? k->str : "";
        Value *dyn = NULL;                      /* a spec with {fields}: formatted first, as Python does */
        if (k->nkids > 1 && !(dyn = eval_fstring(I, k->kids[1]))) { val_decref(v); sb_free(&b); return NULL; }
        if (dyn) spec = dyn->u.str.s;
        bool ok = true;
        if (k->op == 'r' || k->op == 'a') {
            StrBuf r;
            sb_init(&r);
            ok = k->op == 'a' ? val_ascii(I, &r, v) : val_repr(I, &r, v);
            Value *s = val_str(I->run.heap, sb_str(&r));
            sb_free(&r);
            ok = ok && pyfmt_format(I, &b, s, spec);
            val_decref(s);
        } else if (k->op == 's') {
            StrBuf r;
            sb_init(&r);
            ok = val_str_of(I, &r, v);
            Value *s = val_str(I->run.heap, sb_str(&r));
            sb_free(&r);
            ok = ok && pyfmt_format(I, &b, s, spec);
            val_decref(s);
        } else {
            ok = pyfmt_format(I, &b, v, spec);
        }
        val_decref(dyn);
        val_decref(v);
        if (!ok) { sb_free(&b); return ev_at(I, k->kids[0]); }
    }
    Value *r = val_strn(I->run.heap, sb_str(&b), b.len);
    sb_free(&b);
    return r;
}

/* hint: the ambiguity error says what to use instead (at a statement's if or while; bool() gives PyTorch's words) */
static bool truth(Interp *I, Value *v, bool *out, bool hint) {
    bool defined, ok;
    if (!class_truth(I, v, &defined, out)) return false;
    if (defined) return true;
    *out = val_truthy(v, &ok);
    if (!ok) rt_raise(I, "RuntimeError", "Boolean value of Tensor with more than one value is ambiguous%s", hint ? " (use .any() or .all())" : "");
    return ok;
}

bool interp_truth(Interp *I, Value *v, bool *out) { return truth(I, v, out, false); }

bool ev_truthy(Interp *I, Value *v, Node *where, bool *out) {
    if (truth(I, v, out, true)) return true;
    ev_at(I, where);
    return false;
}


/* The evaluator's count on the one depth counter (ast.h): each eval and exec of a node counts one level while it
 * runs, so nesting from the statement's tree and from calls into functions (whose bodies are trees too) together
 * stay within what the C stack holds. false with Python's RecursionError. */
bool ev_deeper(Interp *I, Node *n) {
    if (I->depth >= INTERP_MAX_DEPTH) {
        rt_raise(I, "RecursionError", "maximum recursion depth exceeded (expressions and calls nested more than %d levels deep)", INTERP_MAX_DEPTH);
        ev_at(I, n);
        return false;
    }
    I->depth++;
    return true;
}

static Value *eval_node(Interp *I, Node *n);

Value *ev_eval(Interp *I, Node *n) {
    if (!ev_deeper(I, n)) return NULL;
    Value *v = eval_node(I, n);
    I->depth--;
    return v;
}

static Value *eval_node(Interp *I, Node *n) {
    switch (n->kind) {
    case N_INT: return val_int(I->run.heap, n->ival);
    case N_FLOAT: return val_float(I->run.heap, n->fval);
    case N_STR: return val_strn(I->run.heap, n->str, n->slen);
    case N_FSTR: return eval_fstring(I, n);
    case N_NONE: return val_none();
    case N_TRUE: return val_bool(I->run.heap, true);
    case N_FALSE: return val_bool(I->run.heap, false);
    case N_ELLIPSIS: return val_ellipsis();
    case N_NAME: return lookup_name(I, n);
    case N_TUPLE: case N_LIST: {
        Value *r = eval_seq(I, n, n->kind == N_LIST);
        if (r && n->kind == N_TUPLE) r->kind = V_TUPLE;
        return r;
    }
    case N_DICT: {
        if (n->op == 's') return eval_set_display(I, n);
        Value *d = val_dict(I->run.heap);
        for (int i = 0; i + 1 < n->nkids; i += 2) {
            if (n->kids[i]->kind == N_DSTAR && dict_merge_display(I, d, n->kids[i]) < 0) {
                val_decref(d);
                return NULL;
            }
            if (n->kids[i]->kind == N_DSTAR) continue;
            Value *k = ev_eval(I, n->kids[i]);
            Value *v = k ? ev_eval(I, n->kids[i + 1]) : NULL;
            int rc = v ? ops_set_index(I, d, k, v) : -1;
            val_decref(k);
            val_decref(v);
            if (rc < 0) { val_decref(d); return ev_at(I, n->kids[i]); }
        }
        return d;
    }
    case N_LISTCOMP: return n->op == 'g' ? eval_genexpr(I, n) : eval_listcomp(I, n);
    case N_SLICE: {
        Value *s = val_new(I->run.heap, V_SLICE);
        Value **parts[3] = {&s->u.slice.start, &s->u.slice.stop, &s->u.slice.step};
        for (int i = 0; i < 3; i++) {
            if (!n->kids[i]) { *parts[i] = val_none(); continue; }
            *parts[i] = ev_eval(I, n->kids[i]);
            if (!*parts[i]) {
                for (int j = i + 1; j < 3; j++) *parts[j] = val_none();
                *parts[i] = val_none();
                val_decref(s);
                return NULL;
            }
        }
        return s;
    }
    case N_UNARY: {
        Value *a = ev_eval(I, n->kids[0]);
        if (!a) return NULL;
        Value *r = ops_unary(I, n->op, a);
        val_decref(a);
        return r ? r : ev_at(I, n);
    }
    case N_NOT: {
        Value *a = ev_eval(I, n->kids[0]);
        if (!a) return NULL;
        if (a->kind == V_TENSOR && a->u.t->numel != 1) {
            val_decref(a);
            rt_raise(I, "RuntimeError", "Boolean value of Tensor with more than one value is ambiguous (for elementwise not, use ~X or torch.logical_not)");
            return ev_at(I, n);
        }
        bool t;
        bool ok = ev_truthy(I, a, n, &t);
        val_decref(a);
        return ok ? val_bool(I->run.heap, !t) : NULL;
    }
    case N_BINARY: {
        Value *a = ev_eval(I, n->kids[0]);
        if (!a) return NULL;
        Value *b = ev_eval(I, n->kids[1]);
        if (!b) { val_decref(a); return NULL; }
        Value *r = ops_binary(I, n->op, a, b);
        val_decref(a);
        val_decref(b);
        return r ? r : ev_at(I, n);
    }
    case N_COMPARE: {
        Value *left = ev_eval(I, n->kids[0]);
        if (!left) return NULL;
        Value *result = NULL;
        for (int i = 1; i < n->nkids; i++) {
            int op = (int)((n->ival >> (8 * (i - 1))) & 0xff);
            Value *right = ev_eval(I, n->kids[i]);
            if (!right) { val_decref(left); val_decref(result); return NULL; }
            Value *r = ops_compare(I, op, left, right);
            val_decref(left);
            left = right;
            if (!r) { val_decref(left); val_decref(result); return ev_at(I, n); }
            val_decref(result);
            result = r;
            if (i + 1 < n->nkids) {
                bool t;
                if (!ev_truthy(I, r, n, &t)) { val_decref(left); val_decref(result); return NULL; }
                if (!t) break;
            }
        }
        val_decref(left);
        return result;
    }
    case N_AND: case N_OR: {
        Value *a = ev_eval(I, n->kids[0]);
        if (!a) return NULL;
        bool t;
        if (!ev_truthy(I, a, n, &t)) { val_decref(a); return NULL; }
        if ((n->kind == N_AND && !t) || (n->kind == N_OR && t)) return a;
        val_decref(a);
        return ev_eval(I, n->kids[1]);
    }
    case N_IFEXP: {
        Value *c = ev_eval(I, n->kids[0]);
        if (!c) return NULL;
        bool t;
        bool ok = ev_truthy(I, c, n, &t);
        val_decref(c);
        if (!ok) return NULL;
        return ev_eval(I, n->kids[t ? 1 : 2]);
    }
    case N_CALL: return eval_call(I, n);
    case N_ATTR: {
        Value *obj = ev_eval(I, n->kids[0]);
        if (!obj) return NULL;
        Value *r = ops_getattr(I, obj, n->str);
        val_decref(obj);
        return r ? r : ev_at(I, n);
    }
    case N_INDEX: {
        Value *obj = ev_eval(I, n->kids[0]);
        if (!obj) return NULL;
        Value *ix = ev_eval(I, n->kids[1]);
        if (!ix) { val_decref(obj); return NULL; }
        Value *r = ops_index(I, obj, ix);
        val_decref(obj);
        val_decref(ix);
        return r ? r : ev_at(I, n);
    }
    case N_LAMBDA: return make_function(I, n, "<lambda>");
    case N_STAR:
        rt_error(I, "'*' unpacking is only allowed in calls, lists, tuples and assignments");
        return ev_at(I, n);
    case N_KWARG:
        rt_error(I, "keyword argument outside a call");
        return ev_at(I, n);
    default:
        rt_error(I, "this statement cannot be used as a value");
        return ev_at(I, n);
    }
}

Value *interp_eval(Interp *I, Node *n) { return ev_eval(I, n); }
int interp_assign(Interp *I, Node *target, Value *v) { return ev_assign(I, target, v); }

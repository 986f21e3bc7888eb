/* exec.c - the statements of the tree-walking evaluator: blocks, for and while, def, with, import, raise and try, the
 * echo of an expression statement; and a run of a parsed tree (interp_run) with the interpreter state it saves and
 * gives back. Expressions, names and assignment are eval.c's; statements use them, never the other way round. */
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

static int exec(Interp *I, Node *n);

/* ---- statements ---- */

static int exec_block(Interp *I, Node *n) {
    for (int i = 0; i < n->nkids; i++) {
        if (exec(I, n->kids[i]) < 0) return -1;
        if (I->signal) return 0;
    }
    return 0;
}

static int exec_for(Interp *I, Node *n) {
    Value *src = ev_eval(I, n->kids[1]);
    if (!src) return -1;
    Iter it;
    bool ok = ops_iter_begin(I, src, &it);
    val_decref(src);
    if (!ok) { ev_at(I, n->kids[1]); return -1; }
    Value *e;
    int rc = 0;
    int64_t count = 0;
    I->loop_depth++;
    while ((e = ops_iter_next(&it))) {
        if (ten_interrupted) { val_decref(e); rt_interrupt(I); ev_at(I, n); rc = -1; break; }
        if (++count > I->max_loop_iterations) { val_decref(e); rt_error(I, "the loop ran %lld iterations: stopped", I->max_loop_iterations); ev_at(I, n); rc = -1; break; }
        if (((count & 1023) == 0 || mem_exhausted) && !interp_memory_ok(I, 1024)) { val_decref(e); ev_at(I, n); rc = -1; break; }
        rc = ev_assign(I, n->kids[0], e);
        val_decref(e);
        if (rc < 0) break;
        rc = exec(I, n->kids[2]);
        if (rc < 0) break;
        if (I->signal == SIG_BREAK) { I->signal = 0; break; }
        if (I->signal == SIG_CONTINUE) I->signal = 0;
        if (I->signal == SIG_RETURN) break;
    }
    I->loop_depth--;
    if (rc == 0 && interp_failed(I)) { ev_at(I, n); rc = -1; }     /* the iterator failed: a map's function, a dict resized */
    ops_iter_end(&it);
    return rc;
}

static int exec_while(Interp *I, Node *n) {
    int64_t count = 0;
    I->loop_depth++;
    int rc = 0;
    for (;;) {
        if (ten_interrupted) { rt_interrupt(I); ev_at(I, n); rc = -1; break; }
        if (++count > I->max_loop_iterations) { rt_error(I, "the loop ran %lld iterations: stopped (is its condition ever false?)", I->max_loop_iterations); ev_at(I, n); rc = -1; break; }
        if (((count & 1023) == 0 || mem_exhausted) && !interp_memory_ok(I, 1024)) { ev_at(I, n); rc = -1; break; }
        Value *c = ev_eval(I, n->kids[0]);
        if (!c) { rc = -1; break; }
        bool t;
        bool ok = ev_truthy(I, c, n->kids[0], &t);
        val_decref(c);
        if (!ok) { rc = -1; break; }
        if (!t) break;
        if (exec(I, n->kids[1]) < 0) { rc = -1; break; }
        if (I->signal == SIG_BREAK) { I->signal = 0; break; }
        if (I->signal == SIG_CONTINUE) I->signal = 0;
        if (I->signal == SIG_RETURN) break;
    }
    I->loop_depth--;
    return rc;
}

/* def and class, with their decorators: the decorator expressions are evaluated first, the function or class is
 * made, the decorators are applied from the innermost (the last written) out, and the name is bound to the result.
 * When anything fails, nothing is bound (an earlier definition of the name stays, as in Python). */
static int exec_definition(Interp *I, Node *n) {
    Node *decos = n->nkids > 2 ? n->kids[2] : NULL;
    int nd = decos ? decos->nkids : 0;
    Value **fns = xcalloc((size_t)(nd ? nd : 1), sizeof *fns);
    Value *v = NULL;
    int i;
    for (i = 0; i < nd; i++) if (!(fns[i] = ev_eval(I, decos->kids[i]))) break;
    if (i == nd) v = n->kind == N_DEF ? make_function(I, n, n->str) : class_create(I, n);
    for (i = nd - 1; v && i >= 0; i--) {
        Args a = {&v, 1, NULL, NULL, 0, NULL, NULL};
        Value *r = interp_call(I, fns[i], &a);
        if (!r) ev_at(I, decos->kids[i]);
        val_decref(v);
        v = r;
    }
    for (i = 0; i < nd; i++) val_decref(fns[i]);
    free(fns);
    if (!v) return -1;
    ev_set_name(I, n->str, v);
    return 0;
}

/* with CTX [as target]: body. Runs CTX.__enter__() (its result bound to target), the body, then CTX.__exit__(None,
 * None, None) when the body finished or failed. attn's context managers: torch.no_grad(), enable_grad(), set_grad_enabled(). */
static int exec_with(Interp *I, Node *n) {
    Value *ctx = ev_eval(I, n->kids[0]);
    if (!ctx) return -1;
    Value *enter = ops_getattr(I, ctx, "__enter__");
    Value *exit_fn = enter ? ops_getattr(I, ctx, "__exit__") : NULL;
    if (!exit_fn) {
        val_decref(enter);
        if (interp_error_kind(I) != ERR_ERROR) { val_decref(ctx); return -1; }
        interp_clear_error(I);
        rt_error(I, "'%s' object does not support the context manager protocol (with works with torch.no_grad())", val_type_name(ctx));
        val_decref(ctx);
        ev_at(I, n->kids[0]);
        return -1;
    }
    Args none = {0};
    Value *entered = interp_call(I, enter, &none);
    int rc = entered ? 0 : -1;
    if (rc == 0 && n->kids[1]) rc = ev_assign(I, n->kids[1], entered);
    if (rc == 0) rc = exec(I, n->kids[2]);
    if (entered) {
        /* __exit__ runs whether the body finished or failed (Python's rule: torch.no_grad() restores grad mode after
         * an error or a Ctrl-C too); the body's error, set aside meanwhile, is the one reported unless __exit__
         * fails itself. attn passes None for the exception's type, value and traceback. */
        Error pending = I->error;
        if (rc != 0) memset(&I->error, 0, sizeof I->error);
        Value *nones[3] = {val_none(), val_none(), val_none()};
        Args a = {nones, 3, NULL, NULL, 0, NULL, NULL};
        Value *r = interp_call(I, exit_fn, &a);
        if (rc != 0) {
            if (r) I->error = pending;                       /* the body's error goes on */
            else { Error mine = I->error; I->error = pending; interp_clear_error(I); I->error = mine; ev_at(I, n->kids[0]); }
        } else if (!r) { ev_at(I, n->kids[0]); rc = -1; }
        val_decref(r);
        for (int i = 0; i < 3; i++) val_decref(nones[i]);
    } else ev_at(I, n->kids[0]);
    val_decref(entered);
    val_decref(enter);
    val_decref(exit_fn);
    val_decref(ctx);
    return rc;
}

/* The module an import names, or NULL with an error that says what attn has instead. */
static Value *import_module(Interp *I, Node *at_node, const char *path) {
    Value *m = lib()->import(I->run.heap, path);
    if (m) return m;
    char why[320];
    lib()->no_module(path, why, sizeof why);
    rt_error(I, "%s", why);
    ev_at(I, at_node);
    return NULL;
}

/* import a.b.c [as x]: binds x to a.b.c, or a to module a without 'as' (as Python does);
 * from a.b import x [as y]: binds y to a.b.x (a submodule, a function, a class or a constant). */
static int exec_import(Interp *I, Node *n) {
    if (n->op == 0) {
        for (int i = 0; i < n->nkids; i++) {
            Node *it = n->kids[i];
            Value *m = import_module(I, it, it->str);
            if (!m) return -1;
            if (it->nkids) { ev_set_name(I, it->kids[0]->str, m); continue; }
            val_decref(m);
            char top[64];
            snprintf(top, sizeof top, "%.*s", (int)strcspn(it->str, "."), it->str);
            if (!(m = import_module(I, it, top))) return -1;
            ev_set_name(I, top, m);
        }
        return 0;
    }
    Value *m = import_module(I, n->kids[0], n->kids[0]->str);
    if (!m) return -1;
    for (int i = 1; i < n->nkids; i++) {
        Node *it = n->kids[i];
        if (!strcmp(it->str, "*")) {
            rt_error(I, "'from %s import *' is not supported: import the names you use", n->kids[0]->str);
            ev_at(I, it);
            val_decref(m);
            return -1;
        }
        char sub[256];          /* from d2l import torch: the submodule d2l.torch first, as Python imports it */
        snprintf(sub, sizeof sub, "%s.%s", n->kids[0]->str, it->str);
        Value *v = lib()->import(I->run.heap, sub);
        if (!v) v = lib()->module_attr(I->run.heap, m->u.module, it->str);
        if (!v) {
            rt_error(I, "cannot import name '%s' from '%s' (attn does not have it)", it->str, m->u.module);
            ev_at(I, it);
            val_decref(m);
            return -1;
        }
        ev_set_name(I, it->nkids ? it->kids[0]->str : it->str, v);
    }
    val_decref(m);
    return 0;
}

static bool echo(Interp *I, Value *v) {
    if (v->kind == V_NONE) return true;
    StrBuf b;
    sb_init(&b);
    if (!val_repr(I, &b, v)) { sb_free(&b); return false; }     /* a student's __repr__ raised: Python's error */
    sb_putc(&b, '\n');
    bool ok = interp_write(I, sb_str(&b));
    sb_free(&b);
    return ok;
}

/* An exception class raised or given as a cause (ValueError, the student's MyError) made an object, as Python
 * calls it with no arguments; anything else is returned as it is. Steals x; NULL with the error set. */
static Value *exception_instance(Interp *I, Value *x) {
    if (!pyexc_class_name(x) && !(x->kind == V_CLASS && pyexc_class_base(x))) return x;
    Args none = {NULL, 0, NULL, NULL, 0, NULL, NULL};
    Value *e = interp_call(I, x, &none);
    val_decref(x);
    return e;
}

/* str(e) appended to out, or Python's "<exception str() failed>" when a __str__/__repr__ it runs raises (that
 * error is dropped, as the traceback printer drops it). */
static void exception_str(Interp *I, StrBuf *out, Value *e) {
    bool raises = I->repr_raises, failed = I->repr_failed;
    I->repr_raises = true;
    I->repr_failed = false;
    StrBuf m;
    sb_init(&m);
    val_str_part(I, &m, e);                                  /* a student's __str__ too */
    bool bad = I->repr_failed && interp_failed(I);
    I->repr_raises = raises;
    I->repr_failed = failed;
    if (bad && interp_error_kind(I) == ERR_ERROR) interp_clear_error(I);
    if (bad) sb_puts(out, "<exception str() failed>");
    else if (m.len) sb_putn(out, m.s, m.len);
    sb_free(&m);
}

/* Python's last traceback line of exception e: "MyError: x", "MyError" when str(e) is empty */
static void exception_line(Interp *I, StrBuf *out, Value *e) {
    StrBuf msg;
    sb_init(&msg);
    exception_str(I, &msg, e);
    sb_puts(out, val_type_name(e));
    if (msg.len) sb_printf(out, ": %s", sb_str(&msg));
    sb_free(&msg);
}

/* attn's one-line message of a raised exception x: str(x) for Python's own classes (the class name when that is
 * empty), Python's "MyError: x" for the student's classes, and " (raised from ValueError: y)" when x.__cause__ is
 * an exception. */
static void raised_message(Interp *I, StrBuf *msg, Value *x) {
    size_t start = msg->len;
    if (x->u.obj.klass) exception_line(I, msg, x);
    else exception_str(I, msg, x);
    if (msg->len == start) sb_puts(msg, val_type_name(x));
    Value *cause = val_attr_get(x, "__cause__");
    if (cause && cause->kind != V_NONE && pyexc_object_name(cause)) {
        sb_puts(msg, " (raised from ");
        exception_line(I, msg, cause);
        sb_putc(msg, ')');
    }
}

/* raise [x] [from y]: x an exception object or class (ValueError('no'), ValueError, the student's MyError('x')); a
 * bare raise re-raises the exception being handled. attn's errors are one line: the message is str(x) for Python's
 * own classes (or the class name when that is empty), Python's "MyError: x" for the student's classes; with from,
 * y becomes x.__cause__ and the line ends "(raised from ZeroDivisionError: division by zero)". */
static int exec_raise(Interp *I, Node *n) {
    Value *x = n->nkids ? ev_eval(I, n->kids[0]) : val_incref(I->handling);
    if (!x) {
        if (!n->nkids) rt_raise(I, "RuntimeError", "No active exception to reraise");
        ev_at(I, n);
        return -1;
    }
    if (!(x = exception_instance(I, x))) { ev_at(I, n); return -1; }
    const char *name = pyexc_object_name(x);
    if (!name) {
        rt_raise(I, "TypeError", "exceptions must derive from BaseException");
        val_decref(x);
        ev_at(I, n);
        return -1;
    }
    Value *cause = NULL;
    if (n->nkids > 1) {
        cause = ev_eval(I, n->kids[1]);
        if (cause) cause = exception_instance(I, cause);
        if (!cause) { val_decref(x); ev_at(I, n); return -1; }
        if (cause->kind != V_NONE && !pyexc_object_name(cause)) {
            rt_raise(I, "TypeError", "exception causes must derive from BaseException");
            val_decref(cause);
            val_decref(x);
            ev_at(I, n);
            return -1;
        }
        val_attr_set(x, "__cause__", val_incref(cause));
    }
    val_decref(cause);
    if (I->error.kind == ERR_NONE) {
        rt_raise(I, name, "%s", val_type_name(x));          /* formatted when it is read: interp_error_msg */
        I->error.exc = x;
        I->error.raised_len = (int)strlen(I->error.msg);
    } else val_decref(x);
    ev_at(I, n);
    return -1;
}

const char *interp_error_msg(Interp *I) {
    Error pending = I->error;
    int len = (int)strlen(pending.msg);
    if (pending.kind != ERR_ERROR || !pending.exc || pending.raised_len <= 0 || pending.raised_len > len) return I->error.msg;
    memset(&I->error, 0, sizeof I->error);                  /* the student's __str__ runs with no error pending */
    StrBuf msg;
    sb_init(&msg);
    raised_message(I, &msg, pending.exc);
    interp_clear_error(I);                                   /* anything it left (Ctrl-C) goes: the raise is reported */
    I->error = pending;
    int keep = len - pending.raised_len;                     /* a prefix added since (rt_error_prefix) stays */
    snprintf(I->error.msg + keep, sizeof I->error.msg - (size_t)keep, "%s", sb_str(&msg));
    I->error.raised_len = 0;                                 /* formatted once, as Python prints it once */
    sb_free(&msg);
    return I->error.msg;
}

/* Whether the pending error is one the handler's class expression (a class or a tuple of them) names; -1 when the
 * expression fails or names something else (Python's TypeError). */
static int handler_matches(Interp *I, Node *type) {
    if (!type) return 1;                                     /* a bare except */
    char etype[sizeof I->error.etype];
    memcpy(etype, I->error.etype, sizeof etype);
    Error pending = I->error;                                /* evaluating the class must not see the error */
    memset(&I->error, 0, sizeof I->error);
    Value *cls = ev_eval(I, type);
    int r = -1;
    if (cls) {
        Value *one[1] = {cls};
        Value **items = cls->kind == V_TUPLE ? cls->u.seq.items : one;
        int64_t n = cls->kind == V_TUPLE ? cls->u.seq.n : 1;
        r = 0;
        for (int64_t i = 0; i < n && r == 0; i++) {
            const char *h = pyexc_class_name(items[i]);
            Value *c = items[i];
            if (!h && c->kind == V_CLASS && pyexc_class_base(c)) {
                if (!c->u.cls->user) h = c->u.cls->name;       /* a builtin's twin (MyError.__bases__[0]) */
                else {                                           /* the student's class: the raised object's */
                    Value *x = pending.exc;
                    r = x && x->kind == V_OBJECT && x->u.obj.klass && class_is_subclass(x->u.obj.klass, c);
                    continue;
                }
            }
            if (!h) {
                r = -1;
                rt_raise(I, "TypeError", "catching classes that do not inherit from BaseException is not allowed");
                ev_at(I, type);
            } else if (pyexc_matches(etype, h)) r = 1;
        }
        val_decref(cls);
    }
    if (r < 0) {                                             /* the new error replaces the pending one */
        frames_free(&pending);
        val_decref(pending.exc);
    } else I->error = pending;
    return r;
}

/* try/except/else/finally. Only mistakes (ERR_ERROR) are caught: Ctrl-C and quit() pass every except clause, bare
 * ones too, so an interrupted loop always stops. A finally block runs after the body, a handler or else; a return,
 * break or error of its own replaces what was pending, as in Python. Ctrl-C runs the finally blocks it passes
 * (Python's KeyboardInterrupt), with the interrupt flag down meanwhile, and then goes on stopping the statement
 * whatever the block did (a second Ctrl-C stops the block); quit() skips them. */
static int exec_try(Interp *I, Node *n) {
    Node *handlers = n->kids[1], *alt = n->kids[2], *fin = n->kids[3];
    int rc = exec(I, n->kids[0]);
    /* a refused allocation is the MemoryError recorded now, and what was being built is freed: the handler and the
     * finally block run with the reserve taken again */
    if (rc < 0 && mem_exhausted) mem_reserve_renew();
    if (rc < 0 && I->error.kind == ERR_ERROR) {
        for (int i = 0; i < handlers->nkids; i++) {
            Node *h = handlers->kids[i];
            int m = handler_matches(I, h->kids[0]);
            if (m < 0) break;
            if (m == 0) continue;
            Value *e = I->error.exc ? val_incref(I->error.exc) : pyexc_new(I->run.heap, I->error.etype[0] ? I->error.etype : "Exception", I->error.msg);
            interp_clear_error(I);
            Value *saved = I->handling;
            I->handling = e;
            rc = 0;
            if (h->str) {
                Node name = {.kind = N_NAME, .line = h->line, .col = h->col, .str = h->str};
                rc = ev_assign(I, &name, e);
            }
            if (rc == 0) rc = exec(I, h->kids[1]);
            I->handling = saved;
            if (h->str) {                                    /* Python deletes the name after the handler */
                if (I->scope) dict_del(I->scope->vars, h->str);
                else dict_del(&I->globals, h->str);
            }
            val_decref(e);
            break;
        }
    } else if (rc == 0 && !I->signal && alt) rc = exec(I, alt);
    bool interrupted = rc < 0 && I->error.kind == ERR_INTERRUPT;
    if (!fin || (rc < 0 && I->error.kind != ERR_ERROR && !interrupted)) return rc;
    Error pending = I->error;                                /* the error, return or break waits for the finally */
    int signal = I->signal;
    Value *ret = I->ret;
    memset(&I->error, 0, sizeof I->error);
    I->signal = 0;
    I->ret = NULL;
    if (interrupted) ten_interrupted = 0;
    int frc = exec(I, fin);
    if (interrupted) {                                       /* the interrupt goes on, whatever the block did */
        ten_interrupted = 1;
        interp_clear_error(I);
        I->signal = 0;
        val_decref(I->ret);
        I->ret = NULL;
        frc = 0;
    }
    if (frc < 0 || I->signal) {                              /* the finally block's own outcome wins */
        frames_free(&pending);
        val_decref(pending.exc);
        val_decref(ret);
        return frc;
    }
    I->error = pending;
    I->signal = signal;
    I->ret = ret;
    return rc;
}

/* t op= v as Python runs it: the target's object (and its subscript) are evaluated once, then the current value is
 * read from them, v is evaluated, the in-place operation (__iadd__ first, then __add__) runs, and the result is
 * stored back into the same object and key. An error at any step stops there, leaving what was already done. */
static int exec_augassign(Interp *I, Node *n) {
    Node *t = n->kids[0];
    Value *obj = NULL, *ix = NULL, *cur = NULL;
    if (t->kind == N_ATTR || t->kind == N_INDEX) {
        obj = ev_eval(I, t->kids[0]);
        if (!obj) return -1;
        if (t->kind == N_INDEX && !(ix = ev_eval(I, t->kids[1]))) { val_decref(obj); return -1; }
        cur = t->kind == N_ATTR ? ops_getattr(I, obj, t->str) : ops_index(I, obj, ix);
        if (!cur) ev_at(I, t);
    } else cur = ev_eval(I, t);
    Value *rhs = cur ? ev_eval(I, n->kids[1]) : NULL;
    Value *r = rhs ? ops_inplace(I, n->op, cur, rhs) : NULL;
    if (rhs && !r) ev_at(I, n);
    int rc = -1;
    if (r) {
        if (!obj) rc = ev_assign(I, t, r);
        else {
            rc = t->kind == N_ATTR ? ops_setattr(I, obj, t->str, r) : ops_set_index(I, obj, ix, r);
            if (rc < 0) ev_at(I, t);
        }
    }
    val_decref(r);
    val_decref(rhs);
    val_decref(cur);
    val_decref(ix);
    val_decref(obj);
    return rc;
}

static int exec_node(Interp *I, Node *n);

static int exec(Interp *I, Node *n) {
    if (!ev_deeper(I, n)) return -1;
    int rc = exec_node(I, n);
    I->depth--;
    return rc;
}

static int exec_node(Interp *I, Node *n) {
    if (mem_exhausted && !interp_memory_ok(I, 0)) { ev_at(I, n); return -1; }     /* an allocation failed: MemoryError */
    switch (n->kind) {
    case N_BLOCK: return exec_block(I, n);
    case N_EXPR_STMT: {
        Value *v = ev_eval(I, n->kids[0]);
        if (!v) return -1;
        bool top = !I->scope && I->call_depth == I->base_call_depth;
        if (top && I->loop_depth && !I->echo_blocks) top = false;       /* a script's loop shows nothing */
        if (top) {
            val_decref(I->last_value);
            I->last_value = val_incref(v);
        }
        if (top && I->echo_values && n->op != 1 && !echo(I, v)) { val_decref(v); return -1; }
        val_decref(v);
        return 0;
    }
    case N_ASSIGN: {
        Value *v = ev_eval(I, n->kids[n->nkids - 1]);
        if (!v) return -1;
        int rc = 0;
        for (int i = 0; i < n->nkids - 1 && rc == 0; i++) rc = ev_assign(I, n->kids[i], v);
        val_decref(v);
        return rc;
    }
    case N_AUGASSIGN: return exec_augassign(I, n);
    case N_FOR: return exec_for(I, n);
    case N_WHILE: return exec_while(I, n);
    case N_IF: {
        Value *c = ev_eval(I, n->kids[0]);
        if (!c) return -1;
        bool t;
        bool ok = ev_truthy(I, c, n->kids[0], &t);
        val_decref(c);
        if (!ok) return -1;
        if (t) return exec(I, n->kids[1]);
        if (n->nkids > 2) return exec(I, n->kids[2]);
        return 0;
    }
    case N_DEF: case N_CLASS: return exec_definition(I, n);
    case N_WITH: return exec_with(I, n);
    case N_TRY: return exec_try(I, n);
    case N_RAISE: return exec_raise(I, n);
    case N_RETURN:
        if (I->call_depth == I->base_call_depth) { rt_error(I, "'return' outside a function"); ev_at(I, n); return -1; }
        val_decref(I->ret);
        I->ret = n->nkids ? ev_eval(I, n->kids[0]) : val_none();
        if (!I->ret) return -1;
        I->signal = SIG_RETURN;
        return 0;
    case N_BREAK: case N_CONTINUE:
        if (I->loop_depth == 0) { rt_error(I, "'%s' outside a loop", n->kind == N_BREAK ? "break" : "continue"); ev_at(I, n); return -1; }
        I->signal = n->kind == N_BREAK ? SIG_BREAK : SIG_CONTINUE;
        return 0;
    case N_PASS: return 0;
    case N_IMPORT: return exec_import(I, n);
    case N_DEL: {
        Node *t = n->kids[0];
        Node *one[1] = {t};
        Node **targets = t->kind == N_TUPLE ? t->kids : one;
        int nt = t->kind == N_TUPLE ? t->nkids : 1;
        for (int i = 0; i < nt; i++) {
            Node *x = targets[i];
            if (x->kind == N_NAME) {
                bool ok = I->scope ? dict_del(I->scope->vars, x->str) : dict_del(&I->globals, x->str);
                if (!ok) { ev_name_error(I, x->str); ev_at(I, x); return -1; }
            } else if (x->kind == N_INDEX || x->kind == N_ATTR) {
                Value *obj = ev_eval(I, x->kids[0]);
                if (!obj) return -1;
                int rc = -1;
                if (x->kind == N_ATTR) rc = ops_delattr(I, obj, x->str);
                else {
                    Value *ix = ev_eval(I, x->kids[1]);
                    if (ix) rc = ops_del_index(I, obj, ix);
                    val_decref(ix);
                }
                val_decref(obj);
                if (rc < 0) { ev_at(I, x); return -1; }
            } else {
                rt_error(I, "cannot delete this expression (del takes names, items x[i] and attributes x.name)");
                ev_at(I, x);
                return -1;
            }
        }
        return 0;
    }
    default:
        rt_error(I, "unsupported statement");
        ev_at(I, n);
        return -1;
    }
}

/* Runs the statements of a parsed block with the signal state of a function body. Used by call.c. */
int interp_exec_body(Interp *I, Node *body) { return exec(I, body); }

/* What a run changes in I, saved so that a run nested in a statement (timeit, an answer check) gives it back. */
typedef struct RunState {
    const char *src, *src_name;
    int src_first_line;
    Scope *scope;
    int loop_depth, call_depth, base_call_depth, signal;
    Value *ret;
    Frame *frame;
} RunState;

int interp_run_tree(Interp *I, Node *tree, const char *src, const char *src_name, int first_line) {
    RunState saved = {I->src, I->src_name, I->src_first_line, I->scope, I->loop_depth, I->call_depth,
                      I->base_call_depth, I->signal, I->ret, I->frame};
    interp_clear_error(I);
    I->src = src;
    I->src_name = src_name;
    I->src_first_line = first_line;
    /* a nested run starts at top level; the call depth keeps counting, so recursion through timeit is bounded */
    I->scope = NULL;
    I->frame = NULL;
    I->loop_depth = 0;
    I->base_call_depth = I->call_depth;
    I->ret = NULL;
    int rc = 0;
    for (int i = 0; i < tree->nkids; i++) {
        I->signal = 0;
        if (ten_interrupted) { rt_interrupt(I); rc = -1; break; }
        if (exec(I, tree->kids[i]) < 0) { rc = -1; break; }
    }
    val_decref(I->ret);
    I->src = saved.src;
    I->src_name = saved.src_name;
    I->src_first_line = saved.src_first_line;
    I->scope = saved.scope;
    I->frame = saved.frame;
    I->loop_depth = saved.loop_depth;
    I->call_depth = saved.call_depth;
    I->base_call_depth = saved.base_call_depth;
    I->signal = saved.signal;
    I->ret = saved.ret;
    return rc;
}

/* Sets the pending error to pr's syntax error, placed in src (the caller's source and position stay as they were). */
static void parse_error(Interp *I, const ParseResult *pr, const char *src, const char *src_name, int first_line) {
    const char *keep_src = I->src, *keep_name = I->src_name;
    int keep_first = I->src_first_line;
    I->src = src;
    I->src_name = src_name;
    I->src_first_line = first_line;
    rt_error(I, "%s", pr->msg);
    interp_error_at(I, pr->line, pr->col);
    I->src = keep_src;
    I->src_name = keep_name;
    I->src_first_line = keep_first;
}

int interp_run_parsed(Interp *I, ParseResult *parsed, const char *src, const char *src_name, int first_line) {
    Node *tree = parsed->tree;
    parsed->tree = NULL;
    interp_clear_error(I);
    if (!tree) {
        parse_error(I, parsed, src, src_name, first_line);
        return -1;
    }
    int rc = interp_run_tree(I, tree, src, src_name, first_line);
    ast_free(tree);
    return rc;
}

Node *interp_parse(Interp *I, const char *src, const char *src_name, int first_line) {
    interp_clear_error(I);
    size_t n = strlen(src);
    if (n > INTERP_MAX_LINE) {
        rt_error(I, "the statement is too long (%zu characters; attn reads at most %d)", n, INTERP_MAX_LINE);
        return NULL;
    }
    ParseResult pr = parse_program_at(src, first_line, I->depth);
    if (!pr.tree) parse_error(I, &pr, src, src_name, first_line);
    return pr.tree;
}

int interp_run(Interp *I, const char *src, const char *src_name, int first_line) {
    Node *tree = interp_parse(I, src, src_name, first_line);
    if (!tree) return -1;
    int rc = interp_run_tree(I, tree, src, src_name, first_line);
    ast_free(tree);
    return rc;
}

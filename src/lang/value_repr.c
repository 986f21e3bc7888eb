/* value_repr.c - the text of values: repr, str and ascii (val_repr, val_str_of, val_ascii), as Python prints them:
 * floats in the shortest round-trip form, strings quoted, containers that hold themselves as [...], a student's
 * __repr__ and __str__ run (and their errors raised). */
#include "value.h"
#include "interp.h"
#include "library.h"
#include "textwidth.h"
#include "pyset.h"
#include "tensor.h"
#include "lang_internal.h"
#include <unictype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>

void val_float_repr(StrBuf *out, double f) {
    if (isnan(f)) { sb_puts(out, "nan"); return; }
    if (isinf(f)) { sb_puts(out, f > 0 ? "inf" : "-inf"); return; }
    char buf[64];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, f);
        if (strtod(buf, NULL) == f) break;
    }
    /* buf holds d.ddde±XX with prec significant digits; lay it out as Python's repr does */
    char digits[32];
    int nd = 0;
    const char *p = buf;
    bool neg = *p == '-';
    if (neg) p++;
    for (; *p && *p != 'e'; p++) if (*p != '.') digits[nd++] = *p;
    digits[nd] = 0;
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = 0;
    if (neg) sb_putc(out, '-');
    if (exp10 < -4 || exp10 >= 16) {
        sb_putc(out, digits[0]);
        if (nd > 1) { sb_putc(out, '.'); sb_puts(out, digits + 1); }
        sb_printf(out, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    } else if (exp10 < 0) {
        sb_puts(out, "0.");
        sb_pad(out, '0', -exp10 - 1);
        sb_puts(out, digits);
    } else {
        for (int i = 0; i <= exp10; i++) sb_putc(out, i < nd ? digits[i] : '0');
        sb_putc(out, '.');
        if (exp10 + 1 < nd) sb_puts(out, digits + exp10 + 1);
        else sb_putc(out, '0');
    }
}

static void str_repr(StrBuf *out, const char *s, size_t n) {
    bool has_sq = memchr(s, '\'', n) != NULL, has_dq = memchr(s, '"', n) != NULL;
    char q = has_sq && !has_dq ? '"' : '\'';
    sb_putc(out, q);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == (unsigned char)q || c == '\\') { sb_putc(out, '\\'); sb_putc(out, (char)c); }
        else if (c == '\n') sb_puts(out, "\\n");
        else if (c == '\t') sb_puts(out, "\\t");
        else if (c == '\r') sb_puts(out, "\\r");
        else if (c < 32 || c == 127) sb_printf(out, "\\x%02x", c);
        else if (c < 0x80) sb_putc(out, (char)c);
        else {                   /* as Python: a character that is not printable (U+3000, U+200B ...) as its escape */
            uint32_t cp;
            size_t len = tw_decode(s + i, n - i, &cp);
            bool bad = cp == 0xFFFD && len == 1;                    /* a byte that is not UTF-8 */
            if (bad) sb_printf(out, "\\x%02x", c);
            else if (uc_is_general_category(cp, UC_CATEGORY_C) || uc_is_general_category(cp, UC_CATEGORY_Z))
                sb_printf(out, cp < 0x100 ? "\\x%02x" : cp < 0x10000 ? "\\u%04x" : "\\U%08x", (unsigned)cp);
            else sb_putn(out, s + i, len);
            i += len - 1;
        }
    }
    sb_putc(out, q);
}

static void repr_depth(Interp *I, StrBuf *out, const Value *v, int depth);

/* A method of attn's (fn) bound to self, as Python prints it: <bound method Tensor.backward of tensor(...)> for one
 * PyTorch writes in Python, <built-in method sum of Tensor object at 0x...> (self's address) for one it writes in C. */
static void method_repr(Interp *I, StrBuf *out, const Value *v, int depth) {
    Value *self = v->u.method.self;
    StrBuf q;
    sb_init(&q);
    if (lib()->method_qualname && lib()->method_qualname(&q, self, v->u.method.fn)) {
        sb_printf(out, "<bound method %s of ", sb_str(&q));
        repr_depth(I, out, self, depth + 1);
        sb_putc(out, '>');
    } else {
        /* a node's type is its own class: SumBackward0 */
        Value *c = self->kind == V_OBJECT && !self->u.obj.klass && self->u.obj.cls->type ? self->u.obj.cls->type(self) : NULL;
        sb_printf(out, "<built-in method %s of %s object at %p>", v->u.method.fn->name,
                  c && c->kind == V_CLASS ? c->u.cls->name : self->kind == V_TENSOR && self->param ? "Parameter" : val_type_name(self), (void *)self);
        val_decref(c);
    }
    sb_free(&q);
}
static void view_repr(Interp *I, StrBuf *out, const Value *v, int depth) {
    int64_t n = val_view_len(v);
    Value *items = val_list(I->run.heap, n);
    for (int64_t i = 0; i < n; i++) val_seq_set(items, i, val_view_item(v, i));
    sb_printf(out, "%s(", val_type_name(v));
    repr_depth(I, out, items, depth + 1);
    sb_putc(out, ')');
    val_decref(items);
}

static void seq_repr(Interp *I, StrBuf *out, const Value *v, int depth) {
    bool tuple = v->kind == V_TUPLE;
    if (tuple && v->u.seq.named) {      /* as PyTorch's structseq: one field per line */
        sb_printf(out, "%s(", v->u.seq.named->name);
        for (int64_t i = 0; i < v->u.seq.n; i++) {
            sb_printf(out, "%s\n%s=", i ? "," : "", v->u.seq.named->fields[i]);
            repr_depth(I, out, v->u.seq.items[i], depth + 1);
        }
        sb_putc(out, ')');
        return;
    }
    if (v->u.seq.is_size) sb_puts(out, "torch.Size([");
    else sb_putc(out, tuple ? '(' : '[');
    for (int64_t i = 0; i < v->u.seq.n; i++) {
        if (i) sb_puts(out, ", ");
        Value *item = val_incref(v->u.seq.items[i]);     /* a student's __repr__ may change the list meanwhile */
        repr_depth(I, out, item, depth + 1);
        val_decref(item);
    }
    if (v->u.seq.is_size) { sb_puts(out, "])"); return; }
    if (tuple && v->u.seq.n == 1) sb_putc(out, ',');
    sb_putc(out, tuple ? ')' : ']');
}

static void obj_repr_generic(StrBuf *out, const Value *v) { sb_printf(out, "%s()", v->u.obj.cls->name); }

/* PyTorch's _addindent(s, 2): every line after the first indented by two spaces. */
static void add_indented(StrBuf *out, const char *s) {
    for (; *s; s++) {
        sb_putc(out, *s);
        if (*s == '\n') sb_puts(out, "  ");
    }
}

/* PyTorch's Module.__repr__: "Name(extra)" on one line without children, else one "(name): child" line per
 * submodule, in the order they were assigned, each indented by two spaces. */
void val_module_repr(Interp *I, StrBuf *out, const Value *v, const char *extra, int depth) {
    const Dict *d = &v->u.obj.attrs;
    sb_printf(out, "%s(", val_type_name(v));
    bool children = false;
    for (int i = 0; i < d->n && !children; i++) children = val_is_module(d->vals[i]);
    if (!children) {
        if (extra && strchr(extra, '\n')) { sb_puts(out, "\n  "); add_indented(out, extra); sb_putc(out, '\n'); }
        else if (extra) sb_puts(out, extra);
        sb_putc(out, ')');
        return;
    }
    if (extra && *extra) { sb_puts(out, "\n  "); add_indented(out, extra); }
    /* the children are taken (held) first: a student's __repr__ of one may add or delete v's attributes */
    int n = 0;
    Value **kids = xcalloc((size_t)d->n * 2, sizeof *kids);
    for (int i = 0; i < d->n; i++)
        if (val_is_module(d->vals[i])) { kids[2 * n] = val_incref(d->keys[i]); kids[2 * n + 1] = val_incref(d->vals[i]); n++; }
    for (int i = 0; i < n; i++) {
        StrBuf child;
        sb_init(&child);
        repr_depth(I, &child, kids[2 * i + 1], depth + 1);      /* a module that contains itself stops at the depth limit */
        sb_printf(out, "\n  (%s): ", kids[2 * i]->u.str.s);
        add_indented(out, sb_str(&child));
        sb_free(&child);
    }
    for (int i = 0; i < 2 * n; i++) val_decref(kids[i]);
    free(kids);
    sb_puts(out, "\n)");
}

static void object_repr(Interp *I, StrBuf *out, const Value *v, int depth) {
    const ObjClass *c = v->u.obj.cls;
    if (c->repr) { c->repr(I, out, (Value *)v, depth); return; }
    if (!c->is_module) { obj_repr_generic(out, v); return; }
    StrBuf extra;
    sb_init(&extra);
    if (c->extra_repr) c->extra_repr(&extra, (Value *)v);
    val_module_repr(I, out, v, sb_str(&extra), depth);
    sb_free(&extra);
}

/* The print options a tensor prints with: I's (torch.set_printoptions changes them), PyTorch's defaults without one. */
static const PrintOptions *print_options(const Interp *I) { return I ? &I->run.print : &ten_print_defaults; }

/* A tensor prints as PyTorch prints it: a parameter with "Parameter containing:" above it, and the autograd state
 * before the closing parenthesis: ", grad_fn=<MulBackward0>" for a result with history, ", requires_grad=True" for
 * a leaf that requires grad (a parameter always shows it). */
static void tensor_value_repr(Interp *I, StrBuf *out, const Value *v) {
    /* a part of split / unbind whose base was written in place since: PyTorch's repr reads grad_fn, which raises */
    if (I && I->repr_raises && ag_view_check(&I->run.ag, v->ag) < 0) {
        (void)rt_tensor_error(I);
        I->repr_failed = true;
        return;
    }
    const char *name = ag_grad_fn_name(v->ag);     /* a view written since: AsStridedBackward0, as PyTorch */
    if (!v->param && !name && !ag_requires_grad(v->ag)) { ten_repr(out, v->u.t, print_options(I)); return; }
    StrBuf t;
    sb_init(&t);
    ten_repr(&t, v->u.t, print_options(I));
    if (v->param) sb_puts(out, "Parameter containing:\n");
    if (t.len && t.s[t.len - 1] == ')' && (name || ag_requires_grad(v->ag))) {
        /* torch/_tensor_str.py's _add_suffixes: the suffix goes on a line of its own, under "tensor(", when it would
         * pass the line width; it counts the last line 2 longer than it is, unless that line is a suffix it wrapped */
        char suffix[96];
        if (name) snprintf(suffix, sizeof suffix, "grad_fn=<%s>", name);
        else snprintf(suffix, sizeof suffix, "requires_grad=True");
        size_t body = t.len - 1, start = body;
        while (start > 0 && t.s[start - 1] != '\n') start--;
        int64_t last = (int64_t)(body - start);
        const PrintOptions *po = print_options(I);
        bool wrapped = start > 0 && body - start > 7 && !strncmp(t.s + start, "       ", 7) && t.s[start + 7] != ' ' && t.s[start + 7] != '[';
        if (!wrapped) last += 2;
        sb_putn(out, t.s, body);
        if (last + (int64_t)strlen(suffix) + 2 > (po ? po->linewidth : 80)) sb_printf(out, ",\n       %s)", suffix);
        else sb_printf(out, ", %s)", suffix);
    } else sb_puts(out, sb_str(&t));
    sb_free(&t);
}

/* The containers I is printing right now, outermost first (as Python's Py_ReprEnter; Interp.repr_active): one met
 * again is printed as [...], (...) or {...}, so a list that holds itself prints [[...]]. Only Python's containers
 * guard so; an object (a module holding itself, a student's __repr__ that calls repr(self)) recurses until the depth
 * limit raises RecursionError, as in Python. Without an interpreter only the depth limit stops a value. */
static bool repr_enter(Interp *I, StrBuf *out, const Value *v) {
    bool container = v->kind == V_LIST || v->kind == V_TUPLE || v->kind == V_DICT || v->kind == V_DICTVIEW;
    if (!container || !I) return true;
    for (int i = 0; i < I->repr_nactive; i++)
        if (I->repr_active[i] == v) {
            /* as CPython: an OrderedDict is "...", a defaultdict its prefix again around the dict's "{...}" */
            if (v->kind == V_DICT && v->u.dict->ordered) sb_puts(out, "...");
            else if (v->kind == V_DICT && v->u.dict->default_dict) {
                sb_puts(out, "defaultdict(");
                if (v->u.dict->factory) repr_depth(I, out, v->u.dict->factory, 1);
                else sb_puts(out, "<class 'dict'>");
                sb_puts(out, ", {...})");
            } else sb_puts(out, v->kind == V_LIST ? "[...]" : v->kind == V_DICT ? "{...}" : v->kind == V_TUPLE ? "(...)" : "...");
            return false;
        }
    if (I->repr_nactive == (int)(sizeof I->repr_active / sizeof *I->repr_active)) { sb_puts(out, "..."); return false; }
    I->repr_active[I->repr_nactive++] = v;
    return true;
}

static void repr_leave(Interp *I, const Value *v) {
    if (I && I->repr_nactive > 0 && I->repr_active[I->repr_nactive - 1] == v) I->repr_nactive--;
}

static void repr_one(Interp *I, StrBuf *out, const Value *v, int depth);

static bool repr_failed_now(const Interp *I);

/* v's repr at nesting depth: past VAL_REPR_MAX_DEPTH, Python's RecursionError in a raising repr (val_repr), "..."
 * in a quiet one (attn's own messages) or without an interpreter; nothing once the repr under way has stopped. */
static void repr_depth(Interp *I, StrBuf *out, const Value *v, int depth) {
    if (repr_failed_now(I)) return;
    if (depth > VAL_REPR_MAX_DEPTH) {
        if (I && I->repr_raises) {
            rt_raise(I, "RecursionError", "maximum recursion depth exceeded while getting the repr of an object");
            I->repr_failed = true;
        } else sb_puts(out, "...");
        return;
    }
    if (!repr_enter(I, out, v)) return;
    /* v is held while it is shown: the caller may have it borrowed (an exception's args, a module's attribute) and
     * an item's __repr__ may drop every other reference to it */
    val_incref((Value *)v);
    repr_one(I, out, v, depth);
    repr_leave(I, v);
    val_decref((Value *)v);
}

/* The items of a dict, "k: v, ..." (or "(k, v), ..." for an OrderedDict), as CPython's dict_repr: each key and value
 * held while printed and the length read again after each (a student's __repr__ that clears the dict ends the list,
 * and frees nothing being printed). */
static void dict_items_repr(Interp *I, StrBuf *out, const Dict *d, int depth, bool pairs) {
    for (int i = 0; i < d->n; i++) {
        Value *k = val_incref(d->keys[i]), *x = val_incref(d->vals[i]);
        if (i) sb_puts(out, ", ");
        if (pairs) sb_putc(out, '(');
        repr_depth(I, out, k, depth + 1);
        sb_puts(out, pairs ? ", " : ": ");
        repr_depth(I, out, x, depth + 1);
        if (pairs) sb_putc(out, ')');
        val_decref(k);
        val_decref(x);
    }
}

static void repr_one(Interp *I, StrBuf *out, const Value *v, int depth) {
    switch (v->kind) {
    case V_NONE: sb_puts(out, "None"); break;
    case V_BOOL: sb_puts(out, v->u.b ? "True" : "False"); break;
    case V_INT: sb_printf(out, "%lld", (long long)v->u.i); break;
    case V_FLOAT: val_float_repr(out, v->u.f); break;
    case V_STR: str_repr(out, v->u.str.s, v->u.str.len); break;
    case V_TUPLE: case V_LIST: seq_repr(I, out, v, depth); break;
    case V_DICTVIEW: view_repr(I, out, v, depth); break;
    case V_DICT:
        if (v->u.dict->ordered) {
            /* OrderedDict([('W_q.weight', tensor(...)), ...]) */
            sb_puts(out, "OrderedDict(");
            bool any = v->u.dict->n > 0;
            if (any) sb_putc(out, '[');
            dict_items_repr(I, out, v->u.dict, depth, true);
            if (any) sb_putc(out, ']');
            sb_putc(out, ')');
            break;
        }
        if (v->u.dict->default_dict) {          /* defaultdict(<class 'list'>, {...}), defaultdict(None, {}) */
            sb_puts(out, "defaultdict(");
            if (v->u.dict->factory) repr_depth(I, out, v->u.dict->factory, depth + 1);
            else sb_puts(out, "<class 'dict'>");
            sb_puts(out, ", ");
        }
        sb_putc(out, '{');
        dict_items_repr(I, out, v->u.dict, depth, false);
        sb_putc(out, '}');
        if (v->u.dict->default_dict) sb_putc(out, ')');
        break;
    case V_SET: {       /* {1, 2}; an empty set is set() ({} is a dict); frozenset({1, 2}), frozenset() */
        if (v->u.set->frozen) sb_puts(out, v->u.set->used ? "frozenset(" : "frozenset()");
        if (!v->u.set->used) { if (!v->u.set->frozen) sb_puts(out, "set()"); break; }
        /* as CPython's set_repr: the elements taken into a list first (a student's __repr__ that changes the set
         * changes nothing printed, and frees no element being printed) */
        Value *items = val_list(I->run.heap, 0);
        int64_t pos = 0;
        for (const Value *k; (k = pyset_next(v, &pos));) val_list_append(items, val_incref((Value *)k));
        bool frozen = v->u.set->frozen;
        sb_putc(out, '{');
        for (int64_t i = 0; i < items->u.seq.n; i++) {
            if (i) sb_puts(out, ", ");
            repr_depth(I, out, items->u.seq.items[i], depth + 1);
        }
        sb_puts(out, frozen ? "})" : "}");
        val_decref(items);
        break;
    }
    case V_TENSOR: tensor_value_repr(I, out, v); break;
    case V_DTYPE: sb_puts(out, ten_dtype_name(v->u.dtype)); break;
    case V_RANGE:
        if (v->u.range.step == 1) sb_printf(out, "range(%lld, %lld)", (long long)v->u.range.start, (long long)v->u.range.stop);
        else sb_printf(out, "range(%lld, %lld, %lld)", (long long)v->u.range.start, (long long)v->u.range.stop, (long long)v->u.range.step);
        break;
    case V_SLICE:
        sb_puts(out, "slice(");
        repr_depth(I, out, v->u.slice.start, depth + 1);
        sb_puts(out, ", ");
        repr_depth(I, out, v->u.slice.stop, depth + 1);
        sb_puts(out, ", ");
        repr_depth(I, out, v->u.slice.step, depth + 1);
        sb_putc(out, ')');
        break;
    case V_ELLIPSIS: sb_puts(out, "Ellipsis"); break;
    case V_BUILTIN: {
        const char *module;
        StrBuf q;
        sb_init(&q);
        if (!lib()->type_module(v->u.builtin, &module) && lib()->function_qualname && lib()->function_qualname(&q, v->u.builtin))
            sb_printf(out, "<function %s at %p>", sb_str(&q), (const void *)v);          /* PyTorch's Python ones */
        else if (!lib()->type_module(v->u.builtin, &module)) sb_printf(out, "<built-in function %s>", v->u.builtin->name);
        else if (!strcmp(module, "builtins")) sb_printf(out, "<class '%s'>", v->u.builtin->name);   /* Python's types */
        else sb_printf(out, "<class '%s.%s'>", module, v->u.builtin->name);
        sb_free(&q);
        break;
    }
    case V_METHOD:
        if (v->u.method.func) {
            sb_printf(out, "<bound method %s.%s of ", v->u.method.klass ? v->u.method.klass->u.cls->name : val_type_name(v->u.method.self),
                      v->u.method.func->u.func->name);
            repr_depth(I, out, v->u.method.self, depth + 1);
            sb_putc(out, '>');
        } else method_repr(I, out, v, depth);
        break;
    case V_FUNC: sb_printf(out, "<function %s>", v->u.func->name); break;
    case V_OBJECT: object_repr(I, out, v, depth); break;
    case V_MODULE: sb_printf(out, "<module '%s' (built in to attn)>", v->u.module); break;
    case V_CLASS:
        if (!strcmp(v->u.cls->module_name, "builtins")) sb_printf(out, "<class '%s'>", v->u.cls->name);   /* Python's own */
        else sb_printf(out, "<class '%s.%s'>", v->u.cls->module_name, v->u.cls->name);
        break;
    }
}

/* Whether the repr under way on I has stopped: a student's __repr__/__str__ raised in a raising repr (see repr_raises in
 * interp.h) and its error is still set. Without an interpreter no student code runs, so nothing stops. */
static bool repr_failed_now(const Interp *I) { return I && I->repr_failed && interp_failed(I); }

static void ascii_of(Interp *I, StrBuf *out, const Value *v) {
    StrBuf r;
    sb_init(&r);
    repr_depth(I, &r, v, 0);
    for (size_t i = 0; i < r.len;) {
        uint32_t c;
        size_t k = tw_decode(r.s + i, r.len - i, &c);
        if (k == 0) { k = 1; c = (unsigned char)r.s[i]; }
        if (c < 0x80) sb_putc(out, (char)c);
        else if (c < 0x100) sb_printf(out, "\\x%02x", (unsigned)c);
        else if (c < 0x10000) sb_printf(out, "\\u%04x", (unsigned)c);
        else sb_printf(out, "\\U%08x", (unsigned)c);
        i += k;
    }
    sb_free(&r);
}

static void str_of(Interp *I, StrBuf *out, const Value *v) {
    if (v->kind == V_STR) sb_putn(out, v->u.str.s, v->u.str.len);
    else if (v->kind == V_OBJECT && v->u.obj.cls->str) {
        val_incref((Value *)v);                       /* held, as in repr_depth */
        v->u.obj.cls->str(I, out, (Value *)v);
        val_decref((Value *)v);
    }
    else repr_depth(I, out, v, 0);
}

/* repr (as 'r'), str ('s') or ascii ('a') of v in the mode raises (see repr_raises in interp.h): true, or false when it
 * stopped on a student's error (left set on I). The caller's mode and state come back after (a repr inside a
 * student's __repr__ nests). */
static bool text_as(Interp *I, StrBuf *out, const Value *v, char as, bool raises) {
    if (!I) { if (as == 'r') repr_depth(NULL, out, v, 0); else if (as == 's') str_of(NULL, out, v); else ascii_of(NULL, out, v); return true; }
    bool outer_raises = I->repr_raises, failed = I->repr_failed;
    I->repr_raises = raises;
    I->repr_failed = false;
    if (as == 'r') repr_depth(I, out, v, 0);
    else if (as == 's') str_of(I, out, v);
    else ascii_of(I, out, v);
    bool ok = !repr_failed_now(I);     /* failed, unless the student's code caught it since */
    I->repr_raises = outer_raises;
    I->repr_failed = failed;
    return ok;
}
bool val_repr(Interp *I, StrBuf *out, const Value *v) { return text_as(I, out, v, 'r', true); }
bool val_str_of(Interp *I, StrBuf *out, const Value *v) { return text_as(I, out, v, 's', true); }
bool val_ascii(Interp *I, StrBuf *out, const Value *v) { return text_as(I, out, v, 'a', true); }
void val_repr_quiet(Interp *I, StrBuf *out, const Value *v) { text_as(I, out, v, 'r', false); }
void val_str_quiet(Interp *I, StrBuf *out, const Value *v) { text_as(I, out, v, 's', false); }

bool val_repr_part(Interp *I, StrBuf *out, const Value *v, int depth) {
    repr_depth(I, out, v, depth);
    return !repr_failed_now(I);
}
bool val_str_part(Interp *I, StrBuf *out, const Value *v) {
    str_of(I, out, v);
    return !repr_failed_now(I);
}

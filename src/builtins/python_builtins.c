/* python_builtins.c - Python's own functions that the book's lines use: print, range, len, int, float, str,
 * list, tuple, enumerate, zip, sum, min, max, abs, round, sorted, format, repr; and str/list/dict methods. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "pyformat.h"
#include "pyset.h"
#include "pyexc.h"
#include "textwidth.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <unictype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static Value *bi_print(Interp *I, Args *a) {
    Value *p[5];                                 /* *values, sep, end, file, flush */
    if (!args_bind(I, a, p, 5)) return NULL;
    Value *sep = p[1], *end = p[2];
    if (sep && sep->kind != V_STR && sep->kind != V_NONE) return rt_raise(I, "TypeError", "sep must be None or a string, not %s", val_type_name(sep));
    if (end && end->kind != V_STR && end->kind != V_NONE) return rt_raise(I, "TypeError", "end must be None or a string, not %s", val_type_name(end));
    Value *file = p[3];
    if (file && file->kind != V_NONE)
        return rt_error(I, "print(file=...) is not supported: attn prints to the screen (use save(...) to write a tensor to a file)");
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < a->npos; i++) {
        if (i) sb_puts(&b, sep && sep->kind == V_STR ? sep->u.str.s : " ");
        size_t before = b.len;
        if (!val_str_of(I, &b, a->pos[i])) {      /* a student's __str__ raised: what came before it is printed, as Python's */
            b.len = before;
            if (b.s) b.s[before] = 0;
            interp_write(I, sb_str(&b));
            sb_free(&b);
            return NULL;
        }
    }
    sb_puts(&b, end && end->kind == V_STR ? end->u.str.s : "\n");
    bool ok = interp_write(I, sb_str(&b));
    sb_free(&b);
    return ok ? val_none() : NULL;
}

static Value *bi_range(Interp *I, Args *a) {
    Value *p[3];
    if (args_bind_form(I, a, p, 3) < 0) return NULL;
    int64_t v[3] = {0, 0, 1};
    for (int i = 0; i < a->npos; i++)
        if (!arg_int(I, a->pos[i], "range() argument", &v[i])) return NULL;
    if (a->npos == 1) return val_range(I->run.heap, 0, v[0], 1);
    if (v[2] == 0) return rt_raise(I, "ValueError", "range() arg 3 must not be zero");
    return val_range(I->run.heap, v[0], v[1], a->npos == 3 ? v[2] : 1);
}

static Value *bi_len(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    return ops_len(I, a->pos[0]);
}

/* int(x) or float(x) of an instance of a student's class, as Python's: its __int__ (__float__), else its __index__,
 * whose result must be an int (a float for __float__): CPython's TypeError otherwise. NULL with *done false when the
 * class defines neither. */
static Value *number_special(Interp *I, Value *v, bool to_float, bool *done) {
    const char *name = to_float ? "__float__" : "__int__";
    *done = true;
    if (!ops_has_special(v, name)) name = "__index__";
    if (!ops_has_special(v, name)) { *done = false; return NULL; }
    Value *r = ops_call_special(I, v, name, NULL, 0);
    bool ok = r && (strcmp(name, "__float__") ? r->kind == V_INT : r->kind == V_FLOAT);
    if (r && !ok) {
        if (strcmp(name, "__float__")) rt_raise(I, "TypeError", "%s returned non-int (type %s)", name, val_type_name(r));
        else rt_raise(I, "TypeError", "%s.__float__ returned non-float (type %s)", val_type_name(v), val_type_name(r));   /* CPython's words */
        val_decref(r);
        return NULL;
    }
    if (r && to_float && r->kind == V_INT) { Value *f = val_float(I->run.heap, (double)r->u.i); val_decref(r); return f; }
    return r;
}

static Value *bi_int(Interp *I, Args *a) {
    Value *p[2];                                 /* x, base */
    if (!args_bind(I, a, p, 2)) return NULL;
    if (!p[0]) return p[1] ? rt_raise(I, "TypeError", "int() missing string argument") : val_int(I->run.heap, 0);
    bool done;
    Value *special = a->npos == 1 ? number_special(I, a->pos[0], false, &done) : NULL;
    if (special || (a->npos == 1 && done)) return special;
    Value *v = ops_item(a->pos[0]);
    Value *r = NULL;
    if (v->kind == V_INT) r = val_incref(v);
    else if (v->kind == V_BOOL) r = val_int(I->run.heap, v->u.b);
    else if (v->kind == V_FLOAT) {
        if (!isfinite(v->u.f)) r = rt_raise(I, isnan(v->u.f) ? "ValueError" : "OverflowError", "cannot convert float %s to integer", isnan(v->u.f) ? "NaN" : "infinity");
        else if (fabs(v->u.f) >= 9.2e18) r = rt_error(I, "integer overflow: %g does not fit in 64 bits", v->u.f);
        else r = val_int(I->run.heap, (int64_t)v->u.f);
    } else if (v->kind == V_STR) {
        int64_t base = 10;
        if (p[1] && !arg_int(I, p[1], "base", &base)) { val_decref(v); return NULL; }
        char *end;
        const char *s = v->u.str.s;
        while (*s == ' ') s++;
        if (base != 0 && (base < 2 || base > 36)) { val_decref(v); return rt_raise(I, "ValueError", "int() base must be >= 2 and <= 36, or 0"); }
        errno = 0;
        long long x = strtoll(s, &end, (int)base);
        bool range = errno == ERANGE;
        while (*end == ' ' || *end == '\n') end++;
        if (end == s || *end) r = rt_raise(I, "ValueError", "invalid literal for int() with base %lld: '%s'", (long long)base, v->u.str.s);
        else if (range) r = rt_error(I, "int('%s'): the number does not fit in attn's 64-bit integers (-2**63 to 2**63-1)", v->u.str.s);
        else r = val_int(I->run.heap, x);
    } else if (v->kind == V_TENSOR) r = rt_raise(I, "ValueError", "only one element tensors can be converted to Python scalars");
    else r = rt_raise(I, "TypeError", "int() argument must be a string or a number, not '%s'", val_type_name(v));
    val_decref(v);
    return r;
}

static Value *bi_float(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    if (a->npos == 0) return val_float(I->run.heap, 0);
    bool done;
    Value *special = number_special(I, a->pos[0], true, &done);
    if (special || done) return special;
    Value *v = ops_item(a->pos[0]);
    Value *r;
    if (val_is_number(v)) r = val_float(I->run.heap, val_as_double(v));
    else if (v->kind == V_STR) {
        char *end;
        double x = strtod(v->u.str.s, &end);
        while (*end == ' ' || *end == '\n') end++;
        if (end == v->u.str.s || *end) r = rt_raise(I, "ValueError", "could not convert string to float: '%s'", v->u.str.s);
        else r = val_float(I->run.heap, x);
    } else if (v->kind == V_TENSOR) r = rt_raise(I, "ValueError", "only one element tensors can be converted to Python scalars");
    else r = rt_raise(I, "TypeError", "float() argument must be a string or a real number, not '%s'", val_type_name(v));
    val_decref(v);
    return r;
}

static Value *bi_bool(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    if (a->npos == 0) return val_bool(I->run.heap, false);
    bool t;
    return interp_truth(I, a->pos[0], &t) ? val_bool(I->run.heap, t) : NULL;
}

static Value *bi_str(Interp *I, Args *a) {
    Value *p[1];                                 /* object: str(object=5) as Python's */
    if (!args_bind(I, a, p, 1)) return NULL;
    if (!p[0]) return val_str(I->run.heap, "");
    StrBuf b;
    sb_init(&b);
    if (!val_str_of(I, &b, p[0])) { sb_free(&b); return NULL; }
    return val_str_take(I->run.heap, sb_take(&b));
}

static Value *bi_repr(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    StrBuf b;
    sb_init(&b);
    if (!val_repr(I, &b, a->pos[0])) { sb_free(&b); return NULL; }
    return val_str_take(I->run.heap, sb_take(&b));
}

/* ascii(x): repr(x) with every non-ASCII character escaped as Python escapes it (\\xe9, \\u65e5, \\U0001f600) */
static Value *bi_ascii(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    StrBuf b;
    sb_init(&b);
    if (!val_ascii(I, &b, a->pos[0])) { sb_free(&b); return NULL; }
    return val_str_take(I->run.heap, sb_take(&b));
}

/* hash(x): Python's (CPython's for numbers, strings are hashed but not randomised, a class's __hash__ when it has
 * one); TypeError for an unhashable value */
static Value *bi_hash(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    int64_t h;
    return pyset_hash(I, a->pos[0], &h) ? val_int(I->run.heap, h) : NULL;
}

static Value *bi_list(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    if (a->npos == 0) return val_list(I->run.heap, 0);
    return ops_to_list(I, a->pos[0]);
}

static Value *bi_tuple(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    if (a->npos == 0) return val_tuple(I->run.heap, 0);
    Value *l = ops_to_list(I, a->pos[0]);
    if (l) l->kind = V_TUPLE;
    return l;
}

/* Puts the entries of src into the dict d, as d[key] = value stores them (ops_set_index): src is a dict, or an
 * iterable of (key, value) pairs (Python's dict(src) and d.update(src)). false with Python's error. */
static bool dict_fill(Interp *I, Value *d, Value *src) {
    if (src->kind == V_DICT) {
        for (int k = 0; k < src->u.dict->n; k++) {    /* src's hashes, as CPython's; held: an __eq__ may change src */
            Value *key = val_incref(src->u.dict->keys[k]), *v = val_incref(src->u.dict->vals[k]);
            int rc = ops_dict_store(I, d->u.dict, key, v, src->u.dict->hashes[k]);
            val_decref(key);
            val_decref(v);
            if (rc < 0) return false;
        }
        return true;
    }
    Iter it;
    if (!ops_iter_begin(I, src, &it)) return false;
    Value *e;
    for (int64_t k = 0; (e = ops_iter_next(&it)); k++) {
        Value *pair = ops_is_iterable(e) ? ops_to_list(I, e) : NULL;
        if (!pair && !interp_failed(I)) rt_raise(I, "TypeError", "cannot convert dictionary update sequence element #%lld to a sequence", (long long)k);
        else if (pair && pair->u.seq.n != 2)
            rt_raise(I, "ValueError", "dictionary update sequence element #%lld has length %lld; 2 is required", (long long)k, (long long)pair->u.seq.n);
        else if (pair) ops_set_index(I, d, pair->u.seq.items[0], pair->u.seq.items[1]);
        val_decref(pair);
        val_decref(e);
        if (interp_failed(I)) break;
    }
    ops_iter_end(&it);
    return !interp_failed(I);
}

/* dict(), dict(mapping), dict(iterable of (key, value) pairs), each with keyword entries after: Python's. */
static Value *bi_dict(Interp *I, Args *a) {
    /* by hand: dict takes any keyword (a declaration names its parameters), and CPython counts only positional ones */
    if (a->npos > 1) return rt_raise(I, "TypeError", "dict expected at most 1 argument, got %d", a->npos);
    Value *d = val_dict(I->run.heap);
    if (a->npos == 1 && !dict_fill(I, d, a->pos[0])) { val_decref(d); return NULL; }
    for (int k = 0; k < a->nkw; k++) dict_set(d->u.dict, a->kwnames[k], val_incref(a->kwvals[k]));
    return d;
}

/* collections.OrderedDict(pairs, key=value, ...): dict()'s entries in a dict that prints and compares as an
 * OrderedDict (what a module's state_dict() is). */
static Value *bi_ordered_dict(Interp *I, Args *a) {
    if (a->npos > 1) return rt_raise(I, "TypeError", "expected at most 1 arguments, got %d", a->npos);   /* CPython's words, unnamed */
    Value *d = bi_dict(I, a);
    if (d) d->u.dict->ordered = true;
    return d;
}

/* collections.defaultdict(default_factory=None, pairs, key=value, ...): a dict whose d[k] of a missing k stores and
 * returns default_factory() (None: KeyError, as a dict); Python's TypeError for a factory that cannot be called. */
static Value *bi_defaultdict(Interp *I, Args *a) {
    Value *f = a->npos ? a->pos[0] : NULL;
    if (f && f->kind != V_NONE && f->kind != V_BUILTIN && f->kind != V_METHOD && f->kind != V_FUNC && f->kind != V_CLASS &&
        f->kind != V_OBJECT)
        return rt_raise(I, "TypeError", "first argument must be callable or None");
    if (a->npos > 2) return rt_raise(I, "TypeError", "dict expected at most 1 argument, got %d", a->npos - 1);   /* dict's count */
    Args rest = *a;
    if (a->npos) { rest.pos++; rest.npos--; }
    Value *d = bi_dict(I, &rest);
    if (!d) return NULL;
    d->u.dict->default_dict = true;
    d->u.dict->factory = f ? val_incref(f) : val_none();
    return d;
}

/* enumerate, zip, map, filter, reversed and iter: Python 3's lazy single-pass iterators (ops_lazy_iterator): nothing
 * is read from the arguments, and no function runs, until the items are consumed. */
static Value *bi_enumerate(Interp *I, Args *a) {
    Value *p_[2];                               /* iterable, start */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *src = p_[0], *st = p_[1];
    if (!src) return rt_error(I, "enumerate() needs an iterable");
    int64_t start = 0;
    if (st && !arg_int(I, st, "start", &start)) return NULL;
    return ops_lazy_iterator(I, "enumerate", NULL, &src, 1, start);
}

static Value *bi_zip(Interp *I, Args *a) {
    Value *p[2];                                 /* *iterables, strict */
    if (!args_bind(I, a, p, 2)) return NULL;
    bool strict = false;
    if (p[1] && !interp_truth(I, p[1], &strict)) return NULL;
    if (strict) return rt_error(I, "zip(strict=True) is not supported in attn: compare the lengths first");
    return ops_lazy_iterator(I, "zip", NULL, a->pos, a->npos, 0);
}

/* key(x) for min, max and sorted: x itself (a new reference) when there is no key; NULL with an error set. */
static Value *key_of(Interp *I, Value *key, Value *x) {
    if (!key || key->kind == V_NONE) return val_incref(x);
    Value *argv[1] = {x};
    Args ka = {argv, 1, NULL, NULL, 0, NULL, NULL};
    return interp_call(I, key, &ka);
}

/* min's and max's keywords (key, default) into kw[0], kw[1], checked by hand: CPython's min and max parse their
 * arguments themselves, in their own words ("min expected at least 1 argument, got 0", "Cannot specify a default
 * ..."), which are not Argument Clinic's. false with the TypeError raised. */
static bool minmax_args(Interp *I, Args *a, Value **kw) {
    kw[0] = kw[1] = NULL;
    if (a->npos == 0) {
        rt_raise(I, "TypeError", "%s expected at least 1 argument, got 0", a->fname);
        return false;
    }
    for (int k = 0; k < a->nkw; k++) {
        int j = !strcmp(a->kwnames[k], "key") ? 0 : !strcmp(a->kwnames[k], "default") ? 1 : -1;
        if (j < 0) {
            rt_raise(I, "TypeError", "'%s' is an invalid keyword argument for %s()", a->kwnames[k], a->fname);
            return false;
        }
        kw[j] = a->kwvals[k];
    }
    if (kw[1] && a->npos > 1) {
        rt_raise(I, "TypeError", "Cannot specify a default for %s() with multiple positional arguments", a->fname);
        return false;
    }
    return true;
}

/* sum/min/max of an iterable, as Python's: a tensor is iterated over its first dimension like any sequence (sum(T)
 * of a (2, 3) T is 0 + T[0] + T[1], a (3,) tensor), never torch's reduction. min and max compare key(item) when a
 * key is given, and keep the first of equal items, as Python does; a comparison of rows of several values raises
 * PyTorch's "Boolean value of Tensor with more than one value is ambiguous". */
static Value *fold(Interp *I, Args *a, int which) {
    Value *b[2];                                 /* sum: iterable, start; min and max: key, default */
    if (which == 0 ? !args_bind(I, a, b, 2) : !minmax_args(I, a, b)) return NULL;
    Value *l;
    if (which != 0 && a->npos > 1) {          /* max(a, b, c) */
        l = val_list(I->run.heap, a->npos);
        for (int i = 0; i < a->npos; i++) val_seq_set(l, i, val_incref(a->pos[i]));
    } else l = val_incref(a->pos[0]);
    /* the items one at a time (sum(range(10**12)) never builds a list): Ctrl-C and the loop limit stop it */
    Iter it;
    if (!ops_iter_begin(I, l, &it)) { val_decref(l); return NULL; }
    Value *acc = NULL, *x, *key = which == 0 ? NULL : b[0], *kacc = NULL;
    if (which == 0) {
        Value *st = b[1];
        if (st && st->kind == V_STR) { ops_iter_end(&it); val_decref(l); return rt_raise(I, "TypeError", "sum() can't sum strings [use ''.join(seq) instead]"); }
        acc = st ? val_incref(st) : val_int(I->run.heap, 0);
    }
    bool failed = false;
    for (int64_t i = 0; !failed && (x = ops_iter_next(&it)); i++) {
        if (ten_interrupted || i >= I->max_loop_iterations) {
            if (ten_interrupted) rt_interrupt(I);
            else rt_error(I, "%s() went through %lld items: stopped", a->fname, I->max_loop_iterations);
            failed = true;
        } else if (!acc) {
            acc = val_incref(x);
            if (which != 0 && !(kacc = key_of(I, key, x))) failed = true;
        } else if (which == 0) {
            Value *r = ops_binary(I, AOP_ADD, acc, x);
            val_decref(acc);
            acc = r;
            failed = !r;
        } else {
            Value *kx = key_of(I, key, x);
            Value *c = kx ? ops_compare(I, which == 1 ? AOP_LT : AOP_GT, kx, kacc) : NULL;
            bool t = false, ok = c && interp_truth(I, c, &t);  /* a student's __lt__ may return an object with __bool__ */
            val_decref(c);
            if (!ok) failed = true;
            else if (t) { val_decref(acc); acc = val_incref(x); val_decref(kacc); kacc = val_incref(kx); }
            val_decref(kx);
        }
        val_decref(x);
    }
    val_decref(kacc);
    if (failed || interp_failed(I)) {
        val_decref(acc);
        ops_iter_end(&it);
        val_decref(l);
        return NULL;
    }
    ops_iter_end(&it);
    val_decref(l);
    if (!acc) {
        Value *def = which == 0 ? NULL : b[1];
        if (def) return val_incref(def);
        return rt_raise(I, "ValueError", "%s() arg is an empty sequence", a->fname);
    }
    return acc;
}
static Value *bi_sum(Interp *I, Args *a) { return fold(I, a, 0); }
static Value *bi_min(Interp *I, Args *a) { return fold(I, a, 1); }
static Value *bi_max(Interp *I, Args *a) { return fold(I, a, 2); }

static Value *bi_abs(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    Value *v = a->pos[0];
    if (v->kind == V_TENSOR && grad_recording(I, 1, &v)) return ret_ag(I, ag_abs(&I->run.ag, arg_ag(v)));
    if (v->kind == V_TENSOR) { Tensor *r = ten_unary(UOP_ABS, v->u.t); return r ? val_tensor(I->run.heap, r) : rt_tensor_error(I); }
    if (v->kind == V_FLOAT) return val_float(I->run.heap, fabs(v->u.f));
    if (v->kind == V_INT) { if (v->u.i == INT64_MIN) return rt_error(I, "integer overflow"); return val_int(I->run.heap, v->u.i < 0 ? -v->u.i : v->u.i); }
    if (v->kind == V_BOOL) return val_int(I->run.heap, v->u.b);
    if (ops_has_special(v, "__abs__")) return ops_call_special(I, v, "__abs__", NULL, 0);
    return rt_raise(I, "TypeError", "bad operand type for abs(): '%s'", val_type_name(v));
}

static Value *bi_round(Interp *I, Args *a) {
    Value *b[2];                                 /* number, ndigits / input, decimals: the same slots */
    /* round() with nothing: Python's form says what is missing ('number'), not the last form (args_bind_form's) */
    int form = a->npos || a->nkw ? args_bind_form(I, a, b, 2) : args_bind(I, a, b, 2) ? 0 : -1;
    if (form < 0) return NULL;
    Value *v = b[0], *nd = b[1];
    if (v->kind == V_TENSOR) return torch_round(I, v, nd);
    if (form == 1 && (nd || a->npos == 0))       /* torch.round's keywords are for a tensor: Python's words otherwise */
        return rt_raise(I, "TypeError", "'%s' is an invalid keyword argument for round()", nd ? "decimals" : "input");
    if (!val_is_number(v)) return rt_raise(I, "TypeError", "type %s doesn't define __round__ method", val_type_name(v));
    if (!nd || nd->kind == V_NONE) {
        if (v->kind != V_FLOAT) return val_int(I->run.heap, v->kind == V_INT ? v->u.i : v->u.b);
        if (!isfinite(v->u.f)) return isnan(v->u.f) ? rt_raise(I, "ValueError", "cannot convert float NaN to integer")
                                                    : rt_raise(I, "OverflowError", "cannot convert float infinity to integer");
        double r = nearbyint(v->u.f);
        if (fabs(r) >= 9.2e18) return rt_error(I, "integer overflow: round(%g) does not fit in 64 bits", v->u.f);   /* as int(x) */
        return val_int(I->run.heap, (int64_t)r);
    }
    int64_t digits;
    if (!arg_int(I, nd, "ndigits", &digits)) return NULL;
    if (v->kind != V_FLOAT) return val_incref(v);
    if (digits > 300 || digits < -300) return val_float(I->run.heap, v->u.f);
    /* round through decimal text, as Python does, so round(2.675, 2) is 2.67 */
    char buf[400];
    if (digits >= 0) { snprintf(buf, sizeof buf, "%.*f", (int)digits, v->u.f); return val_float(I->run.heap, strtod(buf, NULL)); }
    double p = pow(10, (double)-digits);
    return val_float(I->run.heap, nearbyint(v->u.f / p) * p);
}

/* ---- sorting: a natural merge sort (the runs the data has, then merged in pairs): stable, n log n comparisons,
 * n - 1 on data already in order or in reverse order ---- */

typedef struct SortCtx {
    Interp *I;
    Value **keys;          /* keys[i]: item i's key (borrowed) */
    bool failed;           /* a comparison raised or Ctrl-C came: no more comparisons, the error is set */
} SortCtx;

/* keys[a] < keys[b], with Python's <: numbers and strings of one kind directly, the rest through the language's
 * comparison (a student's __lt__ too). false once the sort failed. */
static bool sort_less(SortCtx *c, int64_t a, int64_t b) {
    if (c->failed) return false;
    if (ten_interrupted) { rt_interrupt(c->I); c->failed = true; return false; }
    const Value *x = c->keys[a], *y = c->keys[b];
    if (x->kind == V_INT && y->kind == V_INT) return x->u.i < y->u.i;
    if (x->kind == V_FLOAT && y->kind == V_FLOAT) return x->u.f < y->u.f;
    if (x->kind == V_STR && y->kind == V_STR) {              /* UTF-8 bytes order as code points do */
        size_t n = x->u.str.len < y->u.str.len ? x->u.str.len : y->u.str.len;
        int r = memcmp(x->u.str.s, y->u.str.s, n);
        return r < 0 || (r == 0 && x->u.str.len < y->u.str.len);
    }
    Value *r = ops_compare(c->I, AOP_LT, c->keys[a], c->keys[b]);
    if (!r) { c->failed = true; return false; }
    bool ok = false, t = false, tensor = r->kind == V_TENSOR;
    if (tensor) t = val_truthy(r, &ok);
    else ok = interp_truth(c->I, r, &t);                      /* a student's __lt__ may return an object with __bool__ */
    val_decref(r);
    if (tensor && !ok) rt_error(c->I, "cannot sort tensors with more than one element");
    if (!ok) { c->failed = true; return false; }
    return t;
}

static void reverse_idx(int64_t *p, int64_t lo, int64_t hi) {
    for (hi--; lo < hi; lo++, hi--) { int64_t t = p[lo]; p[lo] = p[hi]; p[hi] = t; }
}

/* The runs of perm, each ascending (a strictly descending one is reversed, which keeps equal items in order):
 * their starts into starts[], with n at the end. The number of runs. */
static int64_t find_runs(SortCtx *c, int64_t *perm, int64_t n, int64_t *starts) {
    int64_t nruns = 0;
    for (int64_t i = 0; i < n;) {
        int64_t j = i + 1;
        if (j < n && sort_less(c, perm[j++], perm[i])) {
            while (j < n && sort_less(c, perm[j], perm[j - 1])) j++;
            reverse_idx(perm, i, j);
        } else {
            while (j < n && !sort_less(c, perm[j], perm[j - 1])) j++;
        }
        starts[nruns++] = i;
        i = j;
    }
    starts[nruns] = n;
    return nruns;
}

/* Merges the ascending runs perm[lo, mid) and perm[mid, hi) (tmp holds mid - lo indices); an item of the second
 * run goes first only when it is less, so equal items keep their order. Whole even when the sort failed. */
static void merge_runs(SortCtx *c, int64_t *perm, int64_t lo, int64_t mid, int64_t hi, int64_t *tmp) {
    if (!sort_less(c, perm[mid], perm[mid - 1])) return;         /* already in order */
    memcpy(tmp, perm + lo, sizeof *tmp * (size_t)(mid - lo));
    int64_t i = 0, na = mid - lo, j = mid, k = lo;
    while (i < na && j < hi) perm[k++] = sort_less(c, perm[j], tmp[i]) ? perm[j++] : tmp[i++];
    while (i < na) perm[k++] = tmp[i++];
}

/* perm (0 ... n-1 in some order) sorted stably by keys[]: false with the error set (perm is then still a
 * permutation) */
static bool merge_sort(SortCtx *c, int64_t *perm, int64_t n, int64_t *tmp, int64_t *starts) {
    int64_t nruns = find_runs(c, perm, n, starts);
    while (nruns > 1 && !c->failed) {                 /* runs 0+1, 2+3, ...: the starts of every other run go */
        int64_t m = 0;
        for (int64_t r = 0; r < nruns; r += 2) {
            if (r + 1 < nruns) merge_runs(c, perm, starts[r], starts[r + 1], starts[r + 2], tmp);
            starts[m++] = starts[r];
        }
        starts[m] = n;
        nruns = m;
    }
    return !c->failed;
}

/* Sorts the list l in place by key(item) (the items themselves when key is None), as Python's list.sort and
 * sorted: stable; reverse=True reverses, sorts and reverses again, so equal items keep their order; only < is
 * used. Ctrl-C stops it. false with the error set (a key or comparison raised, Ctrl-C, no memory): l is then left
 * as it was. */
static bool sort_items(Interp *I, Value *l, Value *key, bool reverse) {
    int64_t n = l->u.seq.n;
    if (n < 2 && (!key || key->kind == V_NONE)) return true;
    Value *keys = val_seq_try(I->run.heap, V_LIST, n);
    int64_t *perm = mem_try_malloc(sizeof(int64_t) * (size_t)(n ? n : 1)), *tmp = mem_try_malloc(sizeof(int64_t) * (size_t)(n ? n : 1)),
            *starts = mem_try_malloc(sizeof(int64_t) * (size_t)(n + 1));
    bool ok = keys && perm && tmp && starts;
    if (!ok) interp_bytes_ok(I, 0);                                  /* the machine refused: MemoryError */
    for (int64_t i = 0; ok && i < n; i++) {
        Value *k = ten_interrupted ? rt_interrupt(I) : key_of(I, key, l->u.seq.items[i]);
        if (!k) ok = false;
        else val_seq_set(keys, i, k);
        perm[i] = reverse ? n - 1 - i : i;
    }
    SortCtx c = {I, keys ? keys->u.seq.items : NULL, false};
    if (ok && (ok = merge_sort(&c, perm, n, tmp, starts))) {
        if (reverse) reverse_idx(perm, 0, n);
        /* the sorted order replaces l's items (perm's indices are into the items l had: tmp holds them meanwhile) */
        _Static_assert(sizeof(Value *) <= sizeof(int64_t), "tmp holds the items");
        Value **items = (Value **)tmp;
        for (int64_t i = 0; i < n; i++) items[i] = l->u.seq.items[perm[i]];
        memcpy(l->u.seq.items, items, sizeof(Value *) * (size_t)n);
    }
    val_decref(keys);
    free(perm);
    free(tmp);
    free(starts);
    return ok;
}

/* sorted(iterable, key=None, reverse=False), Python's: a new sorted list. */
static Value *bi_sorted(Interp *I, Args *a) {
    /* checked by hand: CPython counts sorted's positional arguments in its own words and hands the keywords to
     * list.sort, which names itself in the error ("'foo' is an invalid keyword argument for sort()") */
    if (a->npos != 1) return rt_raise(I, "TypeError", "sorted expected 1 argument, got %d", a->npos);
    Value *rev = NULL, *key = NULL;
    for (int k = 0; k < a->nkw; k++) {
        if (!strcmp(a->kwnames[k], "key")) key = a->kwvals[k];
        else if (!strcmp(a->kwnames[k], "reverse")) rev = a->kwvals[k];
        else return rt_raise(I, "TypeError", "'%s' is an invalid keyword argument for sort()", a->kwnames[k]);
    }
    bool reverse = false;
    if (rev && !arg_bool(I, rev, "reverse", &reverse)) return NULL;
    Value *l = ops_to_list(I, a->pos[0]);
    if (l && !sort_items(I, l, key, reverse)) { val_decref(l); l = NULL; }
    return l;
}

static Value *bi_reversed(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    return ops_reversed(I, a->pos[0]);
}

static Value *bi_map(Interp *I, Args *a) {
    /* by hand: CPython words a short map() in words of its own, not the count cpython_check gives */
    if (!a->nkw && a->npos < 2) return rt_raise(I, "TypeError", "map() must have at least two arguments. (map(function, iterable, ...))");
    Value *p[3];                                 /* function, iterable, *iterables */
    if (!args_bind(I, a, p, 3)) return NULL;
    return ops_lazy_iterator(I, "map", a->pos[0], a->pos + 1, a->npos - 1, 0);
}

static Value *bi_filter(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind(I, a, p, 2)) return NULL;
    return ops_lazy_iterator(I, "filter", a->pos[0], a->pos + 1, 1, 0);
}

static Value *bi_iter(Interp *I, Args *a) {
    Value *p[2];
    int form = args_bind_form(I, a, p, 2);
    if (form < 0) return NULL;
    if (form == 1) return rt_error(I, "iter(callable, sentinel) is not supported in attn: use iter(iterable)");
    return ops_iter(I, a->pos[0]);
}

static Value *bi_next(Interp *I, Args *a) {
    Value *p[2];
    if (args_bind_form(I, a, p, 2) < 0) return NULL;
    if (!ops_is_iterator(a->pos[0]))
        return rt_raise(I, "TypeError", "'%s' object is not an iterator", val_type_name(a->pos[0]));
    Value *e = ops_iterator_next(I, a->pos[0]);
    if (e || interp_failed(I)) return e;
    if (a->npos == 2) return val_incref(a->pos[1]);
    rt_raise(I, "StopIteration", "StopIteration (the iterator is exhausted: next(it, default) gives default instead)");
    if (!I->error.exc) I->error.exc = pyexc_new(I->run.heap, "StopIteration", NULL);       /* Python's StopIteration(): args () */
    return NULL;
}

/* dir() and dir(x), Python's: the names defined where it runs (the session's variables at the prompt, the running
 * function's own inside one), or every attribute and method x offers (ops_attr_names: what Tab completes after "x."); sorted as
 * Python sorts them, each once. attn's own names (torch, nn, d2l, print ...) are not variables, so dir() shows only
 * the student's: help lists attn's. */
static void dir_add(void *ctx, const char *name) { Value *l = ctx; val_list_append(l, val_str(l->heap, name)); }
static int by_text(const void *x, const void *y) {
    return strcmp((*(Value *const *)x)->u.str.s, (*(Value *const *)y)->u.str.s);
}
static Value *bi_dir(Interp *I, Args *a) {
    Value *p[1];
    if (args_bind_form(I, a, p, 1) < 0) return NULL;
    Value *l = val_list(I->run.heap, 0);
    int from = 0;      /* 1: the names a student's __dir__ gave, kept as given (duplicates too), sorted */
    if (a->npos == 1) {
        if ((from = ops_attr_names(I, a->pos[0], dir_add, l)) < 0) { val_decref(l); return NULL; }
    } else if (I->scope && I->scope->is_class) {      /* in a class body: its namespace so far, as Python's */
        dir_add(l, "__module__");
        dir_add(l, "__qualname__");
        for (int i = 0; i < I->scope->vars->n; i++) dir_add(l, I->scope->vars->keys[i]->u.str.s);
    } else {
        const Dict *vars = I->frame ? I->frame->scope->vars : &I->globals;   /* a comprehension's own names are not shown */
        for (int i = 0; i < vars->n; i++) dir_add(l, vars->keys[i]->u.str.s);
    }
    qsort(l->u.seq.items, (size_t)l->u.seq.n, sizeof(Value *), by_text);
    int64_t k = 0;
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *x = l->u.seq.items[i];
        if (from == 0 && k && !strcmp(l->u.seq.items[k - 1]->u.str.s, x->u.str.s)) val_decref(x);   /* __dir__'s stay */
        else l->u.seq.items[k++] = x;
    }
    l->u.seq.n = k;
    return l;
}

/* divmod(a, b) = (a // b, a % b) for Python numbers; PyTorch has no divmod for tensors, and neither has attn. */
static Value *bi_divmod(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind(I, a, p, 2)) return NULL;
    Value *x = a->pos[0], *y = a->pos[1];
    if (!val_is_number(x) || !val_is_number(y))
        return rt_raise(I, "TypeError", "unsupported operand type(s) for divmod(): '%s' and '%s'%s", val_type_name(x), val_type_name(y),
                        x->kind == V_TENSOR || y->kind == V_TENSOR ? " (for tensors: torch.div(a, b, rounding_mode='floor') and torch.remainder(a, b))" : "");
    if (val_as_double(y) == 0)
        return rt_raise(I, "ZeroDivisionError", "%s", x->kind == V_FLOAT || y->kind == V_FLOAT ? "float divmod() (a division by zero)" : "integer division or modulo by zero");
    Value *q = ops_binary(I, AOP_FLOORDIV, x, y), *r = q ? ops_binary(I, AOP_MOD, x, y) : NULL;
    if (!r) { val_decref(q); return NULL; }
    Value *t = val_tuple(I->run.heap, 2);
    val_seq_set(t, 0, q);
    val_seq_set(t, 1, r);
    return t;
}

static Value *bi_format(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind(I, a, p, 2)) return NULL;
    Value *spec = a->npos > 1 ? a->pos[1] : NULL;
    if (spec && spec->kind != V_STR) return rt_error(I, "format() argument 2 must be str, not %s", val_type_name(spec));
    StrBuf b;
    sb_init(&b);
    if (!pyfmt_format(I, &b, a->pos[0], spec ? spec->u.str.s : "")) { sb_free(&b); return NULL; }
    return val_str_take(I->run.heap, sb_take(&b));
}

static Value *bi_type(Interp *I, Args *a) {
    /* by hand: CPython counts type()'s two forms as "1 or 3 arguments"; attn has only the first */
    if (a->npos != 1 && a->npos != 3) return rt_raise(I, "TypeError", "type() takes 1 or 3 arguments");
    if (a->nkw) return rt_raise(I, "TypeError", "type() takes no keyword arguments");
    if (a->npos == 3) return rt_error(I, "type(name, bases, dict) is not in attn: write a class statement");
    Value *t = builtins_type_of(I->run.heap, a->pos[0]);
    return t ? t : rt_error(I, "type(): too many kinds of values for attn to name");
}

static Value *bi_assert(Interp *I, Args *a) {
    if (a->npos < 1) return rt_error(I, "assert needs a condition: assert x > 0, 'message'");
    bool t;
    if (!interp_truth(I, a->pos[0], &t)) return NULL;        /* a student's __bool__/__len__, a tensor's one value */
    if (t) return val_none();
    if (a->npos > 1) {
        StrBuf b;
        sb_init(&b);
        val_str_quiet(I, &b, a->pos[1]);
        rt_raise(I, "AssertionError", "%s", sb_str(&b));
        sb_free(&b);
        return NULL;
    }
    return rt_raise(I, "AssertionError", "%s", "");
}

/* Python's any/all: a tensor is iterated over its first dimension like any sequence, and each row's truth taken
 * (a row of several values raises PyTorch's "Boolean value ... is ambiguous"); the result is a bool. */
static Value *any_all(Interp *I, Args *a, bool all) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    /* one item at a time, stopping at the first that decides (a generator is left there, as Python leaves it) */
    Iter it;
    if (!ops_iter_begin(I, a->pos[0], &it)) return NULL;
    bool result = all, failed = false;
    Value *x;
    while ((x = ops_iter_next(&it))) {
        bool t = false;
        if (ten_interrupted) { rt_interrupt(I); failed = true; }
        else if (!interp_truth(I, x, &t)) failed = true;
        val_decref(x);
        if (failed || t != all) { result = !all; break; }
    }
    ops_iter_end(&it);
    if (failed || interp_failed(I)) return NULL;
    return val_bool(I->run.heap, result);
}
static Value *bi_any(Interp *I, Args *a) { return any_all(I, a, false); }
static Value *bi_all(Interp *I, Args *a) { return any_all(I, a, true); }

/* chr(i) and ord(c): Unicode code points, as Python's (attn's strings are UTF-8 text: chr(26085) is '日'). */
static Value *bi_chr_ord(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    if (a->fn->tag == 0) {
        int64_t c;
        if (!arg_int(I, a->pos[0], "chr() argument", &c)) return NULL;
        if (c < 0 || c > 0x10FFFF) return rt_raise(I, "ValueError", "chr() arg not in range(0x110000)");
        if (c >= 0xD800 && c <= 0xDFFF) return rt_error(I, "chr(%lld) is a UTF-16 surrogate, which attn's UTF-8 strings cannot hold", (long long)c);
        char s[5] = {0};
        if (c < 0x80) s[0] = (char)c;
        else if (c < 0x800) { s[0] = (char)(0xC0 | c >> 6); s[1] = (char)(0x80 | (c & 0x3F)); }
        else if (c < 0x10000) { s[0] = (char)(0xE0 | c >> 12); s[1] = (char)(0x80 | (c >> 6 & 0x3F)); s[2] = (char)(0x80 | (c & 0x3F)); }
        else { s[0] = (char)(0xF0 | c >> 18); s[1] = (char)(0x80 | (c >> 12 & 0x3F)); s[2] = (char)(0x80 | (c >> 6 & 0x3F)); s[3] = (char)(0x80 | (c & 0x3F)); }
        return val_strn(I->run.heap, s, c ? strlen(s) : 1);
    }
    Value *v = a->pos[0];
    if (v->kind != V_STR) return rt_raise(I, "TypeError", "ord() expected string of length 1, but %s found", val_type_name(v));
    if (v->u.str.chars != 1) return rt_raise(I, "TypeError", "ord() expected a character, but string of length %lld found", (long long)v->u.str.chars);
    uint32_t cp;
    tw_decode(v->u.str.s, v->u.str.len, &cp);
    return val_int(I->run.heap, v->u.str.len == 1 ? (unsigned char)v->u.str.s[0] : cp);
}

static Value *bi_bin_hex(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    int64_t v;
    if (!arg_int(I, a->pos[0], "the argument", &v)) return NULL;
    Value *spec = val_str(I->run.heap, a->fn->tag == 0 ? "#b" : a->fn->tag == 1 ? "#x" : "#o");
    StrBuf b;
    sb_init(&b);
    Value *iv = val_int(I->run.heap, v);
    pyfmt_format(I, &b, iv, spec->u.str.s);
    val_decref(iv);
    val_decref(spec);
    return val_str_take(I->run.heap, sb_take(&b));
}

static Value *bi_pow(Interp *I, Args *a) {
    Value *p[3];                                 /* base, exp, mod */
    if (!args_bind(I, a, p, 3)) return NULL;
    if (p[2] && p[2]->kind != V_NONE) return rt_error(I, "pow(base, exp, mod) is not supported in attn: use (base ** exp) %% mod");
    return ops_binary(I, AOP_POW, p[0], p[1]);
}

/* ---- str, list and dict methods (self is pos[0]) ---- */

static Value *str_join(Interp *I, Args *a) {
    Value *p_[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p_, 1)) return NULL;
    Value *l = ops_to_list(I, a->pos[1]);
    if (!l) return NULL;
    /* pass 1: the length (and Python's TypeError for an item that is not a string); pass 2: one buffer filled, Ctrl-C
     * checked; a result past the memory limit is MemoryError before it is built */
    const Value *sep = a->pos[0];
    int64_t n = l->u.seq.n, len = n > 1 ? (n - 1) * (int64_t)sep->u.str.len : 0, chars = n > 1 ? (n - 1) * sep->u.str.chars : 0;
    for (int64_t i = 0; i < n; i++) {
        Value *x = l->u.seq.items[i];
        if (x->kind != V_STR) {
            rt_raise(I, "TypeError", "sequence item %lld: expected str instance, %s found", (long long)i, val_type_name(x));
            val_decref(l);           /* after the message: it names x, which l holds */
            return NULL;
        }
        len += (int64_t)x->u.str.len;
        chars += x->u.str.chars;
    }
    char *r = interp_bytes_ok(I, len + 1) ? mem_try_malloc((size_t)len + 1) : NULL;
    if (!r) { interp_bytes_ok(I, len + 1); val_decref(l); return NULL; }
    size_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 65535) == 65535 && ten_interrupted) { free(r); val_decref(l); return rt_interrupt(I); }
        const Value *x = l->u.seq.items[i];
        if (i) { memcpy(r + at, sep->u.str.s, sep->u.str.len); at += sep->u.str.len; }
        memcpy(r + at, x->u.str.s, x->u.str.len);
        at += x->u.str.len;
    }
    r[at] = 0;
    val_decref(l);
    return val_str_take_chars(I->run.heap, r, at, chars);
}

/* str.format's numbering: which fields have been seen, automatic ({}) or manual ({0}); Python refuses a mix. */
typedef struct FormatState {
    int next;                           /* the next automatic field's index */
    int mode;                           /* 0 none yet, 1 automatic, 2 manual */
    Value *mapping;                     /* str.format_map's mapping (named fields are its keys), else NULL */
} FormatState;

/* The value of a replacement field's name [f, e): an argument by position ("", "0") or keyword ("name"), then any
 * ".attr" and "[index]" (digits: an int, else a str key), as Python's str.format finds it. A new reference, or NULL
 * with the error set. */
static Value *format_field(Interp *I, Args *a, const char *f, const char *e, FormatState *st) {
    const char *n = f;
    while (n < e && *n != '.' && *n != '[') n++;
    Value *v = NULL;
    bool digits = n > f;
    for (const char *c = f; c < n; c++) digits = digits && isdigit((unsigned char)*c);
    if ((n == f || digits) && st->mapping) return rt_raise(I, "ValueError", "Format string contains positional fields");
    if (n == f || digits) {
        int mode = n == f ? 1 : 2;
        if (st->mode && st->mode != mode)
            return rt_raise(I, "ValueError", mode == 1 ? "cannot switch from manual field specification to automatic field numbering"
                                                      : "cannot switch from automatic field numbering to manual field specification");
        st->mode = mode;
        long k = n == f ? st->next++ : (n - f > 9 ? -1 : strtol(f, NULL, 10));
        if (k < 0 || k + 1 >= a->npos)
            return rt_raise(I, "IndexError", "Replacement index %ld out of range for positional args tuple", k < 0 ? (long)INT_MAX : k);
        v = val_incref(a->pos[k + 1]);
    } else {
        char name[128];
        if ((size_t)(n - f) >= sizeof name) return rt_raise(I, "KeyError", "format field name too long");
        memcpy(name, f, (size_t)(n - f));
        name[n - f] = 0;
        if (st->mapping) {                  /* format_map: mapping[name], its own KeyError (or __missing__) */
            Value *key = val_str(I->run.heap, name);
            v = ops_index(I, st->mapping, key);
            val_decref(key);
            if (!v) return NULL;
            goto attrs;
        }
        Value *kv = arg(a, -1, name);
        if (!kv) {
            rt_raise(I, "KeyError", "format(): the string has {%s} but no argument %s=... was given", name, name);
            Value *key = val_str(I->run.heap, name);
            pyexc_set_arg(I, key);              /* e.args[0] is the name, as Python's KeyError('x') */
            val_decref(key);
            return NULL;
        }
        v = val_incref(kv);
    }
attrs:
    while (n < e) {
        const char *p = n + 1, *q = p;
        Value *next;
        if (*n == '.') {
            while (q < e && *q != '.' && *q != '[') q++;
            if (q == p) { val_decref(v); return rt_raise(I, "ValueError", "Empty attribute in format string"); }
            char *attr = xstrndup(p, (size_t)(q - p));
            next = ops_getattr(I, v, attr);
            free(attr);
            n = q;
        } else {
            while (q < e && *q != ']') q++;
            if (q >= e) { val_decref(v); return rt_raise(I, "ValueError", "Missing ']' in format string"); }
            if (q == p) { val_decref(v); return rt_raise(I, "ValueError", "Empty attribute in format string"); }
            bool num = true;
            for (const char *c = p; c < q; c++) num = num && isdigit((unsigned char)*c);
            Value *key = num && q - p < 18 ? val_int(I->run.heap, strtoll(p, NULL, 10)) : val_strn(I->run.heap, p, (size_t)(q - p));
            next = ops_index(I, v, key);
            val_decref(key);
            n = q + 1;
            if (n < e && *n != '.' && *n != '[') { val_decref(v); val_decref(next); return rt_raise(I, "ValueError", "Only '.' or '[' may follow ']' in format field specifier"); }
        }
        val_decref(v);
        if (!(v = next)) return NULL;
    }
    return v;
}

/* The format string [s, end) with its {fields} filled from a (depth 0), or a field's spec with {fields} of its own
 * (depth 1: Python allows no deeper), appended to out. False with the error set. */
static bool format_fill(Interp *I, Args *a, const char *s, const char *end, int depth, FormatState *st, StrBuf *out) {
    for (const char *p = s; p < end; p++) {
        if (*p == '{' && p + 1 < end && p[1] == '{') { sb_putc(out, '{'); p++; continue; }
        if (*p == '}' && p + 1 < end && p[1] == '}') { sb_putc(out, '}'); p++; continue; }
        if (*p == '}') { rt_raise(I, "ValueError", "Single '}' encountered in format string"); return false; }
        if (*p != '{') { sb_putc(out, *p); continue; }
        if (depth > 1) { rt_raise(I, "ValueError", "Max string recursion exceeded"); return false; }
        /* the field: name up to '!' or ':' (brackets may hold either), then the spec to its matching '}' */
        const char *f = p + 1, *q = f;
        while (q < end && *q != '}' && *q != '!' && *q != ':') {
            if (*q == '[') while (q < end && *q != ']') q++;
            if (q < end) q++;
        }
        if (q >= end) { rt_raise(I, "ValueError", f >= end ? "Single '{' encountered in format string" : "expected '}' before end of string"); return false; }
        const char *name_end = q;
        int conv = 0;
        if (*q == '!') {
            if (q + 1 >= end || !strchr("rsa", q[1])) { rt_raise(I, "ValueError", "Unknown conversion specifier %c", q + 1 < end ? q[1] : '?'); return false; }
            conv = q[1];
            q += 2;
            if (q >= end || (*q != ':' && *q != '}')) { rt_raise(I, "ValueError", "expected ':' after conversion specifier"); return false; }
        }
        const char *spec0 = q, *spec1 = q;
        if (*q == ':') {
            spec0 = ++q;
            int nest = 0;
            while (q < end && (*q != '}' || nest > 0)) { if (*q == '{') nest++; else if (*q == '}') nest--; q++; }
            if (q >= end) { rt_raise(I, "ValueError", "expected '}' before end of string"); return false; }
            spec1 = q;
        }
        Value *v = format_field(I, a, f, name_end, st);
        if (!v) return false;
        StrBuf spec;
        sb_init(&spec);
        bool ok = format_fill(I, a, spec0, spec1, depth + 1, st, &spec);
        if (ok && conv) {                       /* !r, !a: repr; !s: str; then the spec applies to that string */
            StrBuf r;
            sb_init(&r);
            bool shown = conv == 's' ? val_str_of(I, &r, v) : conv == 'a' ? val_ascii(I, &r, v) : val_repr(I, &r, v);
            val_decref(v);
            v = val_str_take(I->run.heap, sb_take(&r));
            ok = shown;
        }
        ok = ok && pyfmt_format(I, out, v, sb_str(&spec));
        sb_free(&spec);
        val_decref(v);
        if (!ok) return false;
        p = q;
    }
    return true;
}

/* "{} and {:.2f}".format(a, b), "{0[1]} {p.x!r:>{w}}".format(...): Python's str.format. */
static Value *str_format(Interp *I, Args *a) {
    const Value *fmt = a->pos[0];
    FormatState st = {.next = 0, .mode = 0, .mapping = NULL};
    if (a->fn->tag) {                       /* s.format_map(mapping): exactly one argument, fields looked up in it */
        if (!args_bind_method(I, a, "str", &st.mapping, 1)) return NULL;
    }
    StrBuf b;
    sb_init(&b);
    if (!format_fill(I, a, fmt->u.str.s, fmt->u.str.s + fmt->u.str.len, 0, &st, &b)) { sb_free(&b); return NULL; }
    return val_str_take(I->run.heap, sb_take(&b));
}

/* The length of the line break at s (s < e), 0 when there is none: Python's str.splitlines breaks at \n, \r, \r\n,
 * \v, \f, \x1c-\x1e, \x85, U+2028 and U+2029 (UTF-8 here). */
static size_t line_break_len(const char *s, const char *e) {
    unsigned char c = (unsigned char)*s;
    if (c == '\r') return s + 1 < e && s[1] == '\n' ? 2 : 1;
    if (c == '\n' || c == '\v' || c == '\f' || (c >= 0x1c && c <= 0x1e)) return 1;
    if (c == 0xc2 && s + 1 < e && (unsigned char)s[1] == 0x85) return 2;
    if (c == 0xe2 && s + 2 < e && (unsigned char)s[1] == 0x80 && ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9)) return 3;
    return 0;
}

/* s.splitlines(keepends=False): the lines of s, their breaks kept when keepends is true; no empty last line. */
static Value *str_splitlines(Interp *I, Args *a) {
    Value *keep;
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), &keep, 1)) return NULL;
    bool ok = true, keepends = keep && val_truthy(keep, &ok);
    const char *s = a->pos[0]->u.str.s, *e = s + a->pos[0]->u.str.len;
    Value *l = val_list(I->run.heap, 0);
    while (s < e) {
        const char *q = s;
        size_t br = 0;
        while (q < e && !(br = line_break_len(q, e))) q++;
        val_list_append(l, val_strn(I->run.heap, s, (size_t)(q - s) + (keepends ? br : 0)));
        s = q + br;
    }
    return l;
}

static Value *str_case(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    Value *r = val_strn(I->run.heap, a->pos[0]->u.str.s, a->pos[0]->u.str.len);
    for (char *p = r->u.str.s; *p; p++) *p = (char)(a->fn->tag ? (*p >= 'a' && *p <= 'z' ? *p - 32 : *p) : (*p >= 'A' && *p <= 'Z' ? *p + 32 : *p));
    return r;
}

static Value *str_strip(Interp *I, Args *a) {
    const char *s = a->pos[0]->u.str.s, *e = s + a->pos[0]->u.str.len;
    while (s < e && strchr(" \t\n\r", *s)) s++;
    while (e > s && strchr(" \t\n\r", e[-1])) e--;
    return val_strn(I->run.heap, s, (size_t)(e - s));
}

static Value *str_split(Interp *I, Args *a) {
    Value *sep = a->npos > 1 ? a->pos[1] : NULL;
    if (sep && sep->kind != V_STR && sep->kind != V_NONE) return rt_raise(I, "TypeError", "must be str or None, not %s", val_type_name(sep));
    if (sep && sep->kind == V_STR && sep->u.str.len == 0) return rt_raise(I, "ValueError", "empty separator");
    Value *l = val_list(I->run.heap, 0);
    const char *s = a->pos[0]->u.str.s;
    if (!sep || sep->kind == V_NONE) {
        while (*s) {
            while (*s && strchr(" \t\n\r", *s)) s++;
            if (!*s) break;
            const char *e = s;
            while (*e && !strchr(" \t\n\r", *e)) e++;
            val_list_append(l, val_strn(I->run.heap, s, (size_t)(e - s)));
            s = e;
        }
        return l;
    }
    for (;;) {
        const char *e = strstr(s, sep->u.str.s);
        if (!e) { val_list_append(l, val_str(I->run.heap, s)); break; }
        val_list_append(l, val_strn(I->run.heap, s, (size_t)(e - s)));
        s = e + sep->u.str.len;
    }
    return l;
}

/* s.replace(old, new): Python's, every old replaced; an empty old matches before each character and at the end
 * ('ab'.replace('', '-') is '-a-b-'). The result's length is checked first, as for s * n. */
static Value *str_replace(Interp *I, Args *a) {
    Value *p_[3];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p_, 3)) return NULL;
    if (p_[2]) return rt_error(I, "replace(old, new, count) is not supported in attn: it replaces every old");
    if (a->pos[1]->kind != V_STR || a->pos[2]->kind != V_STR) return rt_raise(I, "TypeError", "replace() takes two strings");
    const Value *str = a->pos[0], *old = a->pos[1], *rep = a->pos[2];
    int64_t hits = old->u.str.len ? 0 : val_utf8_count(str->u.str.s, str->u.str.len) + 1;
    for (const char *e = str->u.str.s; old->u.str.len && (e = strstr(e, old->u.str.s)); e += old->u.str.len) hits++;
    if ((double)str->u.str.len + (double)hits * ((double)rep->u.str.len - (double)old->u.str.len) > 100000000)
        return rt_error(I, "the string would be too long");
    StrBuf b;
    sb_init(&b);
    if (!old->u.str.len) {
        for (int64_t i = 0; i < hits; i++) {
            sb_putn(&b, rep->u.str.s, rep->u.str.len);
            if (i + 1 < hits) {
                size_t at = val_str_offset(str, i), next = val_str_offset(str, i + 1);
                sb_putn(&b, str->u.str.s + at, next - at);
            }
        }
        size_t n = b.len;
        return val_str_take_n(I->run.heap, sb_take(&b), n);
    }
    const char *s = str->u.str.s;
    for (;;) {
        const char *e = strstr(s, old->u.str.s);
        if (!e) { sb_puts(&b, s); break; }
        sb_putn(&b, s, (size_t)(e - s));
        sb_putn(&b, rep->u.str.s, rep->u.str.len);
        s = e + old->u.str.len;
    }
    return val_str_take(I->run.heap, sb_take(&b));
}

/* s.startswith(prefix[, start[, end]]) / s.endswith(suffix[, start[, end]]), the prefix a string or a tuple of
 * strings (any of them): Python's, with CPython's tailmatch indices (start and end in characters, None for the ends,
 * negative from the end; end clamped to len(s), start not: "abc".startswith("", 4) is False). */
static Value *str_startswith(Interp *I, Args *a) {
    /* CPython parses these with PyArg_ParseTuple: its own words, not Argument Clinic's */
    if (a->nkw) return rt_raise(I, "TypeError", "str.%s() takes no keyword arguments", a->fname);
    if (a->npos < 2 || a->npos > 4)
        return rt_raise(I, "TypeError", "%s() takes at %s (%d given)", a->fname, a->npos < 2 ? "least 1 argument" : "most 3 arguments", a->npos - 1);
    const Value *s = a->pos[0], *p = a->pos[1];
    bool tuple = p->kind == V_TUPLE && !p->u.seq.is_size && !p->u.seq.named;
    if (p->kind != V_STR && !tuple)
        return rt_raise(I, "TypeError", "%s first arg must be str or a tuple of str, not %s", a->fname, val_type_name(p));
    int64_t n = s->u.str.chars, lim[2] = {0, n};
    for (int k = 0; k < 2; k++) {
        Value *v = a->npos > 2 + k ? a->pos[2 + k] : NULL;
        if (!v || v->kind == V_NONE) continue;
        if (v->kind != V_INT && v->kind != V_BOOL)
            return rt_raise(I, "TypeError", "slice indices must be integers or None or have an __index__ method");
        int64_t x = v->kind == V_INT ? v->u.i : v->u.b;
        if (x < 0) x = x + n < 0 ? 0 : x + n;
        if (k == 1 && x > n) x = n;
        lim[k] = x;
    }
    for (int64_t k = 0; k < (tuple ? p->u.seq.n : 1); k++) {
        const Value *x = tuple ? p->u.seq.items[k] : p;
        if (x->kind != V_STR)
            return rt_error(I, "tuple for %s must only contain str, not %s", a->fname, val_type_name(x));
        int64_t m = x->u.str.chars;
        if (lim[1] - m < lim[0]) continue;
        int64_t at = a->fn->tag == 0 ? lim[0] : lim[1] - m;           /* where x must start, in characters */
        size_t off = val_str_offset(s, at), end = val_str_offset(s, at + m);
        if (end - off == x->u.str.len && !memcmp(s->u.str.s + off, x->u.str.s, x->u.str.len)) return val_bool(I->run.heap, true);
    }
    return val_bool(I->run.heap, false);
}

/* s.isdigit(), isalpha, isalnum, isdecimal, isnumeric, isspace, isupper, islower: Python's, by the Unicode
 * properties CPython reads (libunistring's tables of the same Unicode: 'é'.isalpha(), '日本'.isalpha() and
 * '２'.isdigit() are True). False for ''. Tag: 0 digit, 1 alpha, 2 alnum, 3 space, 4 upper, 5 lower, 6 decimal,
 * 7 numeric. */
static bool py_isspace(uint32_t c) {       /* CPython's _PyUnicode_IsWhitespace: bidi WS, B, S or category Zs */
    return (c >= 0x9 && c <= 0xd) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}
/* The CJK ideographs with a numeric value in Unihan (kPrimaryNumeric, kAccountingNumeric, kOtherNumeric: 一, 二, 三,
 * 十, 百, 千, 万, 零 ...), which CPython counts as numeric and libunistring's tables leave out: the 73 of Unicode 14
 * (Python 3.11), sorted. */
static const uint32_t unihan_numeric[] = {
    0x3405, 0x3483, 0x382A, 0x3B4D, 0x4E00, 0x4E03, 0x4E07, 0x4E09, 0x4E5D, 0x4E8C, 0x4E94, 0x4E96, 0x4EBF, 0x4EC0,
    0x4EDF, 0x4EE8, 0x4F0D, 0x4F70, 0x5104, 0x5146, 0x5169, 0x516B, 0x516D, 0x5341, 0x5343, 0x5344, 0x5345, 0x534C,
    0x53C1, 0x53C2, 0x53C3, 0x53C4, 0x56DB, 0x58F1, 0x58F9, 0x5E7A, 0x5EFE, 0x5EFF, 0x5F0C, 0x5F0D, 0x5F0E, 0x5F10,
    0x62FE, 0x634C, 0x67D2, 0x6F06, 0x7396, 0x767E, 0x8086, 0x842C, 0x8CAE, 0x8CB3, 0x8D30, 0x9621, 0x9646, 0x964C,
    0x9678, 0x96F6, 0x20001, 0x20064, 0x200E2, 0x20121, 0x2092A, 0x20983, 0x2098C, 0x2099C, 0x20AEA, 0x20AFD,
    0x20B19, 0x22390, 0x22998, 0x23B1B, 0x2626D};

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool py_isnumeric(uint32_t c) {
    uc_fraction_t f = uc_numeric_value(c);
    if (!(f.numerator == 0 && f.denominator == 0)) return true;
    return bsearch(&c, unihan_numeric, sizeof unihan_numeric / sizeof *unihan_numeric, sizeof *unihan_numeric, cmp_u32) != NULL;
}
static Value *str_predicate(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "str", NULL, 0)) return NULL;
    const Value *s = a->pos[0];
    int tag = a->fn->tag;
    bool cased = false;
    for (size_t off = 0; off < s->u.str.len;) {
        uint32_t c;
        off += tw_decode(s->u.str.s + off, s->u.str.len - off, &c);
        bool up = uc_is_property_uppercase(c), low = uc_is_property_lowercase(c), title = uc_is_general_category(c, UC_CATEGORY_Lt);
        bool alpha = uc_is_general_category(c, UC_CATEGORY_L), decimal = uc_decimal_value(c) >= 0;
        bool digit = decimal || uc_digit_value(c) >= 0;
        switch (tag) {
        case 0: if (!digit) return val_bool(I->run.heap, false); break;
        case 1: if (!alpha) return val_bool(I->run.heap, false); break;
        case 2: if (!alpha && !digit && !py_isnumeric(c)) return val_bool(I->run.heap, false); break;
        case 3: if (!py_isspace(c)) return val_bool(I->run.heap, false); break;
        case 4: if (low || title) return val_bool(I->run.heap, false); cased |= up; break;       /* isupper: cased, none lower */
        case 5: if (up || title) return val_bool(I->run.heap, false); cased |= low; break;
        case 6: if (!decimal) return val_bool(I->run.heap, false); break;
        default: if (!py_isnumeric(c)) return val_bool(I->run.heap, false); break;
        }
    }
    return val_bool(I->run.heap, s->u.str.len > 0 && (tag < 4 || tag > 5 || cased));
}

/* A start/end pair of str.find and friends (character places, None for the ends, negative from the end, clamped as
 * a slice is) as byte offsets of s. */
static bool str_span(Interp *I, Args *a, const Value *s, size_t *from, size_t *to) {
    int64_t n = s->u.str.chars, lim[2] = {0, n};
    for (int k = 0; k < 2; k++) {
        Value *v = a->npos > 2 + k ? a->pos[2 + k] : NULL;
        if (!v || v->kind == V_NONE) continue;
        if (!arg_int(I, v, k ? "end" : "start", &lim[k])) return false;
        if (lim[k] < 0) lim[k] = lim[k] + n < 0 ? 0 : lim[k] + n;
        if (lim[k] > n) lim[k] = n;
    }
    *from = val_str_offset(s, lim[0]);
    *to = lim[1] < lim[0] ? *from : val_str_offset(s, lim[1]);
    return lim[1] >= lim[0];
}

/* s.find(sub[, start[, end]]), rfind, index, rindex and count, Python's: places are characters, not bytes. */
static Value *str_search(Interp *I, Args *a) {
    enum { FIND, RFIND, INDEX, RINDEX, COUNT } op = a->fn->tag;
    /* CPython parses these with PyArg_ParseTuple: its own words, not Argument Clinic's */
    if (a->nkw) return rt_raise(I, "TypeError", "str.%s() takes no keyword arguments", a->fname);
    if (a->npos < 2 || a->npos > 4)
        return rt_raise(I, "TypeError", "%s() takes at %s (%d given)", a->fname, a->npos < 2 ? "least 1 argument" : "most 3 arguments", a->npos - 1);
    const Value *s = a->pos[0], *sub = a->pos[1];
    if (sub->kind != V_STR) return rt_raise(I, "TypeError", "must be str, not %s", val_type_name(sub));
    size_t from, to, m = sub->u.str.len;
    bool fits = str_span(I, a, s, &from, &to);
    if (interp_failed(I)) return NULL;
    if (op == COUNT) {
        if (!fits) return val_int(I->run.heap, 0);
        if (!m) return val_int(I->run.heap, val_utf8_count(s->u.str.s + from, to - from) + 1);
        int64_t c = 0;
        for (size_t i = from; i + m <= to;) {
            if (!memcmp(s->u.str.s + i, sub->u.str.s, m)) { c++; i += m; } else i++;
        }
        return val_int(I->run.heap, c);
    }
    int64_t found = -1;
    for (size_t i = from; fits && i + m <= to; i++) {
        if (memcmp(s->u.str.s + i, sub->u.str.s, m)) continue;
        found = (int64_t)i;
        if (op == FIND || op == INDEX) break;
    }
    if (found < 0 && (op == INDEX || op == RINDEX)) return rt_raise(I, "ValueError", "substring not found");
    return val_int(I->run.heap, found < 0 ? -1 : val_utf8_count(s->u.str.s, (size_t)found));
}

/* s.ljust(width[, fillchar]), rjust and center, Python's: widths count characters. */
static Value *str_justify(Interp *I, Args *a) {
    Value *p_[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p_, 2)) return NULL;
    const Value *s = a->pos[0], *fill = a->npos > 2 ? a->pos[2] : NULL;
    int64_t width;
    if (!arg_int(I, a->pos[1], "width", &width)) return NULL;
    if (fill && (fill->kind != V_STR || fill->u.str.chars != 1))
        return rt_error(I, "The fill character must be exactly one character long");
    if (width > 100000000) return rt_error(I, "the string would be too long");
    int64_t marg = width - s->u.str.chars;
    if (marg <= 0) return val_incref(a->pos[0]);
    int64_t left = a->fn->tag == 0 ? 0 : a->fn->tag == 1 ? marg : marg / 2 + (marg & width & 1);   /* CPython's centre */
    const char *f = fill ? fill->u.str.s : " ";
    size_t fl = fill ? fill->u.str.len : 1;
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0; i < left; i++) sb_putn(&b, f, fl);
    sb_putn(&b, s->u.str.s, s->u.str.len);
    for (int64_t i = left; i < marg; i++) sb_putn(&b, f, fl);
    size_t n = b.len;
    return val_str_take_n(I->run.heap, sb_take(&b), n);
}

/* L.insert(i, x), L.remove(x), L.reverse(), L.sort(key=None, reverse=False), L.copy(), L.clear(): Python's. */
static Value *list_insert(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Value *l = a->pos[0];
    int64_t i, n = l->u.seq.n;
    if (!arg_int(I, a->pos[1], "insert index", &i)) return NULL;
    if (n >= 50000000) return rt_error(I, "the list is too long");
    if (i < 0) i = i + n < 0 ? 0 : i + n;                   /* clamped, as Python's */
    if (i > n) i = n;
    val_list_append(l, val_incref(a->pos[2]));
    Value *x = l->u.seq.items[n];
    memmove(l->u.seq.items + i + 1, l->u.seq.items + i, sizeof(Value *) * (size_t)(n - i));
    l->u.seq.items[i] = x;
    return val_none();
}

static Value *list_remove(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 1)) return NULL;
    Value *l = a->pos[0];
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *x = val_incref(l->u.seq.items[i]);           /* held: a student's __eq__ may empty the list */
        bool eq = true, ok = x == a->pos[1] || val_eq(I, x, a->pos[1], &eq);
        val_decref(x);
        if (!ok) return NULL;                               /* a student's __eq__ raised, or Ctrl-C, or too deep */
        if (!eq) continue;
        if (i >= l->u.seq.n) return val_none();             /* the list shrank meanwhile: CPython removes nothing */
        Value *place = val_int(I->run.heap, i);
        int rc = ops_del_index(I, l, place);                  /* the path del L[i] takes */
        val_decref(place);
        return rc < 0 ? NULL : val_none();
    }
    return rt_raise(I, "ValueError", "list.remove(x): x not in list");
}

static Value *list_reverse_copy_clear(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    Value *l = a->pos[0];
    int64_t n = l->u.seq.n;
    if (a->fn->tag == 1) {                                  /* copy: a shallow copy */
        Value *c = val_list(I->run.heap, n);
        for (int64_t i = 0; i < n; i++) val_seq_set(c, i, val_incref(l->u.seq.items[i]));
        return c;
    }
    if (a->fn->tag == 2) {                                  /* clear */
        Value *slice = val_new(I->run.heap, V_SLICE);                    /* del L[:], the one path that removes items */
        slice->u.slice.start = val_none();
        slice->u.slice.stop = val_none();
        slice->u.slice.step = val_none();
        int rc = ops_del_index(I, l, slice);
        val_decref(slice);
        return rc < 0 ? NULL : val_none();
    }
    for (int64_t i = 0, j = n - 1; i < j; i++, j--) {       /* reverse, in place */
        Value *t = l->u.seq.items[i];
        l->u.seq.items[i] = l->u.seq.items[j];
        l->u.seq.items[j] = t;
    }
    return val_none();
}

/* Exchanges the items (and their storage) of two lists. */
static void swap_items(Value *x, Value *y) {
    Value **items = x->u.seq.items;
    int64_t n = x->u.seq.n, cap = x->u.seq.cap;
    x->u.seq.items = y->u.seq.items; x->u.seq.n = y->u.seq.n; x->u.seq.cap = y->u.seq.cap;
    y->u.seq.items = items; y->u.seq.n = n; y->u.seq.cap = cap;
}

static Value *list_sort(Interp *I, Args *a) {
    Value *p[2];                                 /* key, reverse: keyword-only */
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Value *rev = p[1], *key = p[0];
    bool reverse = false;
    if (rev && !arg_bool(I, rev, "reverse", &reverse)) return NULL;
    /* As CPython's list.sort: the list is empty while it sorts, so a key or __lt__ that reads or changes it sees
     * no items and cannot pull them from under the sort; what it added is dropped, with Python's ValueError. */
    Value *l = a->pos[0], *held = val_list(I->run.heap, 0);
    swap_items(l, held);
    bool ok = sort_items(I, held, key, reverse);
    bool changed = l->u.seq.n != 0;
    swap_items(l, held);
    val_decref(held);
    if (ok && changed) return rt_raise(I, "ValueError", "list modified during sort");
    return ok ? val_none() : NULL;
}

/* d.pop(key[, default]), d.setdefault(key, default=None), d.update(other, **kw), d.copy(), d.clear(): Python's. */
static Value *dict_pop(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Value *d = a->pos[0], *key = a->pos[1];
    int i;
    if (!ops_dict_find(I, d->u.dict, key, &i)) return NULL;
    if (i < 0) return a->npos == 3 ? val_incref(a->pos[2]) : ops_key_error(I, key);
    Value *v = val_incref(d->u.dict->vals[i]);              /* i is valid: no student code ran since the probe */
    dict_del_at(d->u.dict, i);
    return v;
}

/* d.popitem(): the last (key, value) pair, removed (LIFO, Python's) */
static Value *dict_popitem(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    Dict *d = a->pos[0]->u.dict;
    if (d->n == 0) return rt_raise(I, "KeyError", "popitem(): dictionary is empty");
    Value *t = val_tuple(I->run.heap, 2);
    val_seq_set(t, 0, val_incref(d->keys[d->n - 1]));
    val_seq_set(t, 1, val_incref(d->vals[d->n - 1]));
    dict_del_at(d, d->n - 1);
    return t;
}

static Value *dict_setdefault(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Value *d = a->pos[0], *key = a->pos[1];
    int64_t hash;
    int i;
    if (!ops_dict_find_hash(I, d->u.dict, key, &hash, &i)) return NULL;
    if (i >= 0) return val_incref(d->u.dict->vals[i]);
    Value *def = a->npos == 3 ? val_incref(a->pos[2]) : val_none();
    dict_append_hashed(d->u.dict, val_incref(key), val_incref(def), hash);   /* absent: no student code ran since */
    return def;                                              /* Python's: the default itself */
}

static Value *dict_update(Interp *I, Args *a) {
    /* by hand: update takes any keyword (a declaration names its parameters), and CPython counts only positional ones */
    if (a->npos > 2) return rt_raise(I, "TypeError", "update expected at most 1 argument, got %d", a->npos - 1);
    if (a->npos == 2 && !dict_fill(I, a->pos[0], a->pos[1])) return NULL;
    for (int k = 0; k < a->nkw; k++) dict_set(a->pos[0]->u.dict, a->kwnames[k], val_incref(a->kwvals[k]));
    return val_none();
}

static Value *dict_copy_clear(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    Value *d = a->pos[0];
    if (a->fn->tag == 0) {                                  /* copy: a shallow copy */
        Value *c = val_dict(I->run.heap);
        c->u.dict->ordered = d->u.dict->ordered;
        c->u.dict->default_dict = d->u.dict->default_dict;        /* a defaultdict's copy is one, with its factory */
        if (d->u.dict->factory) c->u.dict->factory = val_incref(d->u.dict->factory);
        return dict_fill(I, c, d) ? c : (val_decref(c), NULL);
    }
    while (d->u.dict->n) dict_del_at(d->u.dict, d->u.dict->n - 1);
    return val_none();
}

static Value *list_append(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 1)) return NULL;
    if ((a->pos[0]->u.seq.n & 1023) == 1023 && !interp_memory_ok(I, 1024)) return NULL;    /* never past the limit */
    val_list_append(a->pos[0], val_incref(a->pos[1]));
    return val_none();
}

static Value *list_extend(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 1)) return NULL;
    Value *l = ops_to_list(I, a->pos[1]);
    if (!l) return NULL;
    if (!interp_bytes_ok(I, l->u.seq.n * (int64_t)sizeof(Value *))) { val_decref(l); return NULL; }   /* L.extend(L) ... */
    for (int64_t i = 0; i < l->u.seq.n; i++) val_list_append(a->pos[0], val_incref(l->u.seq.items[i]));
    val_decref(l);
    return val_none();
}

static Value *list_pop(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 1)) return NULL;
    Value *l = a->pos[0];
    int64_t i = l->u.seq.n - 1;
    if (a->npos > 1 && !arg_int(I, a->pos[1], "pop index", &i)) return NULL;
    if (i < 0) i += l->u.seq.n;
    if (l->u.seq.n == 0 || i < 0 || i >= l->u.seq.n) return rt_raise(I, "IndexError", l->u.seq.n ? "pop index out of range" : "pop from empty list");
    Value *v = l->u.seq.items[i];
    memmove(l->u.seq.items + i, l->u.seq.items + i + 1, sizeof(Value *) * (size_t)(l->u.seq.n - i - 1));
    l->u.seq.n--;
    return v;
}

static Value *list_index(Interp *I, Args *a) {
    Value *p[3];                                 /* value, start, stop (index) */
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 3)) return NULL;
    if (p[1] || p[2]) return rt_error(I, "%s.index(value, start, stop) is not supported in attn: index a slice of it", val_type_name(a->pos[0]));
    Value *l = a->pos[0];
    int64_t cnt = 0;
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *x = val_incref(l->u.seq.items[i]);           /* held: a student's __eq__ may empty the list */
        bool eq = true, ok = x == a->pos[1] || val_eq(I, x, a->pos[1], &eq);     /* Python's: the same object, or == */
        val_decref(x);
        if (!ok) return NULL;                               /* a student's __eq__ raised, or Ctrl-C, or too deep */
        if (eq) {
            if (a->fn->tag == 0) return val_int(I->run.heap, i);
            cnt++;
        }
    }
    if (a->fn->tag == 1) return val_int(I->run.heap, cnt);
    if (l->kind == V_TUPLE) return rt_raise(I, "ValueError", "tuple.index(x): x not in tuple");
    StrBuf b;                                                /* Python's "3 is not in list" */
    sb_init(&b);
    if (!val_repr(I, &b, a->pos[1])) {       /* CPython's %R that fails: a ValueError without arguments, not its error */
        sb_free(&b);
        if (interp_error_kind(I) != ERR_ERROR) return NULL;   /* Ctrl-C, quit */
        sb_init(&b);
        sb_puts(&b, interp_error_msg(I));
        interp_clear_error(I);
        rt_raise(I, "ValueError", "the value is not in the list (its __repr__ failed: %s)", sb_str(&b));
        sb_free(&b);
        pyexc_set_arg(I, NULL);
        return NULL;
    }
    if (b.len > 200) { sb_free(&b); return rt_error(I, "the value is not in the list"); }
    Value *r = rt_raise(I, "ValueError", "%s is not in list", sb_str(&b));
    sb_free(&b);
    return r;
}

static Value *size_numel(Interp *I, Args *a) {
    int64_t n = 1;
    for (int64_t i = 0; i < a->pos[0]->u.seq.n; i++) {
        int64_t d;
        if (!arg_int(I, a->pos[0]->u.seq.items[i], "a dimension", &d)) return NULL;
        n *= d;
    }
    return val_int(I->run.heap, n);
}

/* d.keys(), d.values(), d.items(): live views (val_view_new, value.h) */
static Value *dict_keys_values(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    return val_view_new(a->pos[0], a->fn->tag == 0 ? VIEW_KEYS : a->fn->tag == 1 ? VIEW_VALUES : VIEW_ITEMS);
}

static Value *dict_get_m(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p, 2)) return NULL;
    Dict *d = a->pos[0]->u.dict;
    int i;
    if (!ops_dict_find(I, d, a->pos[1], &i)) return NULL;
    if (i >= 0) return val_incref(d->vals[i]);
    return a->npos > 2 ? val_incref(a->pos[2]) : val_none();
}

/* set(iterable) and the set methods, Python's (pyset.h keeps CPython's order). set_arity binds a method's arguments
 * by its declaration (s.add(x, /), s.union(*others)). */
static Value *bi_set(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    return pyset_from(I, a->npos ? a->pos[0] : NULL);
}

/* frozenset(iterable) */
static Value *bi_frozenset(Interp *I, Args *a) {
    Value *p[1];
    if (!args_bind(I, a, p, 1)) return NULL;
    return pyset_frozen(I, a->npos ? a->pos[0] : NULL);
}

static bool set_arity(Interp *I, Args *a) {
    Value *p[1];                                 /* x / other / the first of *others */
    return args_bind_method(I, a, val_type_name(a->pos[0]), p, 1);
}

/* s.add(x), s.remove(x) (Python's KeyError when x is not there), s.discard(x) */
static Value *set_add_remove(Interp *I, Args *a) {
    if (!set_arity(I, a)) return NULL;
    Value *s = a->pos[0], *x = a->pos[1];
    if (a->fn->tag == 0) return pyset_add(I, s, x) < 0 ? NULL : val_none();
    int r = pyset_discard(I, s, x);
    if (r < 0) return NULL;
    if (r == 0 && a->fn->tag == 1) {
        StrBuf k;
        sb_init(&k);
        val_repr_quiet(I, &k, x);
        rt_raise(I, "KeyError", "key %s is not in the set", sb_str(&k));
        sb_free(&k);
        pyexc_set_arg(I, x);
        return NULL;
    }
    return val_none();
}

/* s.pop(), s.clear(), s.copy() */
static Value *set_pop_clear_copy(Interp *I, Args *a) {
    if (!set_arity(I, a)) return NULL;
    Value *s = a->pos[0];
    if (a->fn->tag == 0) return pyset_pop(I, s);
    if (a->fn->tag == 1) { pyset_clear(s); return val_none(); }
    return s->u.set->frozen ? val_incref(s) : pyset_from(I, s);          /* a frozenset's copy is itself */
}

/* s.union(*others), s.intersection(*others), s.difference(*others), s.symmetric_difference(other): a new set;
 * s.update(*others) ... s.symmetric_difference_update(other): s changed. Tag: the operator (AOP_BITOR ...), + 100
 * for the _update forms. */
static Value *set_combine(Interp *I, Args *a) {
    int aop = a->fn->tag % 100;
    bool update = a->fn->tag >= 100;
    if (!set_arity(I, a)) return NULL;
    Value *s = a->pos[0];
    if (update) {
        for (int i = 1; i < a->npos; i++) if (pyset_op_update(I, aop, s, a->pos[i]) < 0) return NULL;
        return val_none();
    }
    Value *r = a->npos == 1 || aop == AOP_BITOR ? pyset_from(I, s) : pyset_op(I, aop, s, a->pos[1]);
    for (int i = aop == AOP_BITOR ? 1 : 2; r && i < a->npos; i++) {
        if (aop == AOP_BITOR && a->pos[i] == s) continue;
        if (aop == AOP_BITAND) {                            /* each intersection a new set, as CPython's */
            Value *n = pyset_op(I, aop, r, a->pos[i]);
            val_decref(r);
            r = n;
        } else if (pyset_op_update(I, aop, r, a->pos[i]) < 0) { val_decref(r); r = NULL; }
    }
    if (r) r->u.set->frozen = s->u.set->frozen;            /* frozenset.union(...) is a frozenset */
    return r;
}

/* s.issubset(other), s.issuperset(other), s.isdisjoint(other): other any iterable */
static Value *set_relation(Interp *I, Args *a) {
    if (!set_arity(I, a)) return NULL;
    Value *s = a->pos[0], *o = a->pos[1];
    if (a->fn->tag == 0) {
        Value *t = o->kind == V_SET ? val_incref(o) : pyset_from(I, o);
        if (!t) return NULL;
        int r = pyset_subset(I, s, t);
        val_decref(t);
        return r < 0 ? NULL : val_bool(I->run.heap, r == 1);
    }
    Iter it;                                                /* superset: each of o in s; disjoint: none of o in s */
    if (!ops_iter_begin(I, o, &it)) return NULL;
    Value *e;
    bool result = true;
    while (result && (e = ops_iter_next(&it))) {
        int in = pyset_contains(I, s, e);
        val_decref(e);
        if (in < 0) break;
        if (in == (a->fn->tag == 2)) result = false;
    }
    ops_iter_end(&it);
    return interp_failed(I) ? NULL : val_bool(I->run.heap, result);
}

/* view.isdisjoint(other) of a keys or items view (CPython's dictviews_isdisjoint): true when no item of other, any
 * iterable, is in the view. */
static Value *view_isdisjoint(Interp *I, Args *a) {
    Value *other;
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), &other, 1)) return NULL;
    Iter it;
    if (!ops_iter_begin(I, other, &it)) return NULL;
    bool disjoint = true;
    for (Value *e; disjoint && (e = ops_iter_next(&it));) {
        Value *in = ops_compare(I, AOP_IN, e, a->pos[0]);
        val_decref(e);
        if (!in) break;
        disjoint = !in->u.b;
        val_decref(in);
    }
    ops_iter_end(&it);
    return interp_failed(I) ? NULL : val_bool(I->run.heap, disjoint);
}

const Builtin bi_view_methods[] = {
    {"isdisjoint", view_isdisjoint, "d.keys().isdisjoint(other, /)", "True when no item of other is in the view.", "", 0, "d.keys()"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* dict.fromkeys(iterable, value=None): a new dict, each item a key with value (the same object for all, Python's) */
static Value *dict_fromkeys(Interp *I, Args *a) {
    Value *p[2];                                 /* iterable, value */
    if (!args_bind_call(I, a, a->fn, "dict", p, 2)) return NULL;
    Value *d = val_dict(I->run.heap), *value = p[1] ? val_incref(p[1]) : val_none(), *e;
    Iter it;
    if (!ops_iter_begin(I, p[0], &it)) { val_decref(d); val_decref(value); return NULL; }
    int rc = 0;
    while (rc == 0 && (e = ops_iter_next(&it))) {
        rc = ops_set_index(I, d, e, value);
        val_decref(e);
    }
    ops_iter_end(&it);
    val_decref(value);
    if (rc < 0 || interp_failed(I)) { val_decref(d); return NULL; }
    return d;
}

const Builtin bi_dict_fromkeys = {"fromkeys", dict_fromkeys, "dict.fromkeys(iterable, value=None, /)",
                                  "A new dict with each item of iterable as a key, every key with value.", "", 0, "dict"};

/* The method tables of Python's types, and the kind of value each serves */
static const struct { const char *type; const Builtin *table; VKind kind; } type_tables[] = {
    {"str", bi_str_methods, V_STR}, {"list", bi_list_methods, V_LIST}, {"dict", bi_dict_methods, V_DICT},
    {"set", bi_set_methods, V_SET}, {"frozenset", bi_set_methods, V_SET},
};

const Builtin *builtins_type_method(const Builtin *type, const char *name) {
    if (!builtins_type_module(type, NULL)) return NULL;
    if (!strcmp(type->name, "dict") && !strcmp(name, "fromkeys")) return &bi_dict_fromkeys;
    for (size_t i = 0; i < sizeof type_tables / sizeof type_tables[0]; i++) {
        if (strcmp(type->name, type_tables[i].type)) continue;
        for (const Builtin *m = type_tables[i].table; m->name; m++)
            if (!strcmp(m->name, name) && strcmp(name, "numel") && !(!strcmp(type->name, "frozenset") && builtins_set_method_changes(m)))
                return m;
    }
    return NULL;
}

bool builtins_unbound_ok(Interp *I, const Builtin *m, const Args *a) {
    enum { NT = sizeof type_tables / sizeof type_tables[0] };
    static const Builtin *ends[NT];                         /* where each table ends (its NULL entry), found once */
    for (size_t i = 0; i < NT; i++) {
        const Builtin *t = type_tables[i].table;
        if (!ends[i]) for (ends[i] = t; ends[i]->name; ends[i]++) {}
        if (m < t || m >= ends[i]) continue;
        const Value *self = a->npos ? a->pos[0] : NULL;
        bool frozen_bad = self && self->kind == V_SET && self->u.set->frozen && builtins_set_method_changes(m);
        if (self && self->kind == type_tables[i].kind && !frozen_bad) return true;
        if (!self) rt_raise(I, "TypeError", "unbound method %s.%s() needs an argument", type_tables[i].type, m->name);
        else rt_raise(I, "TypeError", "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", m->name, type_tables[i].type, val_type_name(self));
        return false;
    }
    return true;
}

bool builtins_set_method_changes(const Builtin *m) {
    return m->fn == set_add_remove || (m->fn == set_pop_clear_copy && m->tag < 2) || (m->fn == set_combine && m->tag >= 100);
}

const Builtin bi_set_methods[] = {
    {"add", set_add_remove, "s.add(x, /)", "Puts x in the set.", "", 0, "s"},
    {"remove", set_add_remove, "s.remove(x, /)", "Takes x out of the set (an error when it is not there).", "", 1, "s"},
    {"discard", set_add_remove, "s.discard(x, /)", "Takes x out of the set when it is there.", "", 2, "s"},
    {"pop", set_pop_clear_copy, "s.pop()", "Removes and returns an element (an error when the set is empty).", "", 0, "s"},
    {"clear", set_pop_clear_copy, "s.clear()", "Removes every element.", "", 1, "s"},
    {"copy", set_pop_clear_copy, "s.copy()", "A shallow copy of the set.", "", 2, "s"},
    {"union", set_combine, "s.union(*others)", "A new set: the elements of s and of the others (s | t).", "", AOP_BITOR, "s"},
    {"intersection", set_combine, "s.intersection(*others)", "A new set: the elements of s that are in every other (s & t).", "", AOP_BITAND, "s"},
    {"difference", set_combine, "s.difference(*others)", "A new set: the elements of s that are in no other (s - t).", "", AOP_SUB, "s"},
    {"symmetric_difference", set_combine, "s.symmetric_difference(other, /)", "A new set: the elements in exactly one of s and other (s ^ t).", "", AOP_BITXOR, "s"},
    {"update", set_combine, "s.update(*others)", "Adds the elements of the others (s |= t).", "", 100 + AOP_BITOR, "s"},
    {"intersection_update", set_combine, "s.intersection_update(*others)", "Keeps only the elements in every other (s &= t).", "", 100 + AOP_BITAND, "s"},
    {"difference_update", set_combine, "s.difference_update(*others)", "Removes the elements of the others (s -= t).", "", 100 + AOP_SUB, "s"},
    {"symmetric_difference_update", set_combine, "s.symmetric_difference_update(other, /)", "Keeps the elements in exactly one of s and other (s ^= t).", "", 100 + AOP_BITXOR, "s"},
    {"issubset", set_relation, "s.issubset(other, /)", "True when every element of s is in other (s <= t).", "", 0, "s"},
    {"issuperset", set_relation, "s.issuperset(other, /)", "True when every element of other is in s (s >= t).", "", 1, "s"},
    {"isdisjoint", set_relation, "s.isdisjoint(other, /)", "True when s and other have no element in common.", "", 2, "s"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin bi_str_methods[] = {
    {"join", str_join, "sep.join(iterable, /)", "Joins strings with sep between them.", "", 0, "sep"},
    {"format", str_format, "s.format(*args)", "Fills {} fields, as Python does.", "", 0, "s"},
    {"format_map", str_format, "s.format_map(mapping, /)", "Fills {name} fields with mapping[name], as Python does.", "", 1, "s"},
    {"splitlines", str_splitlines, "s.splitlines(keepends=False)", "The lines of s (without their line breaks unless keepends).", "", 0, "s"},
    {"lower", str_case, "s.lower()", "Lower case.", "", 0, "s"},
    {"upper", str_case, "s.upper()", "Upper case.", "", 1, "s"},
    {"strip", str_strip, "s.strip()", "Without surrounding white space.", "", 0, "s"},
    {"split", str_split, "s.split(sep=None)", "Splits into a list of strings.", "", 0, "s"},
    {"find", str_search, "s.find(sub, start=None, end=None, /)", "The place of the first sub in s (in characters), -1 when there is none.", "", 0, "s"},
    {"rfind", str_search, "s.rfind(sub, start=None, end=None, /)", "The place of the last sub in s, -1 when there is none.", "", 1, "s"},
    {"index", str_search, "s.index(sub, start=None, end=None, /)", "As s.find, but an error when sub is not there.", "", 2, "s"},
    {"rindex", str_search, "s.rindex(sub, start=None, end=None, /)", "As s.rfind, but an error when sub is not there.", "", 3, "s"},
    {"count", str_search, "s.count(sub, start=None, end=None, /)", "How many times sub occurs in s, without overlaps.", "", 4, "s"},
    {"ljust", str_justify, "s.ljust(width, fillchar=' ', /)", "s followed by fillchar up to width characters.", "", 0, "s"},
    {"rjust", str_justify, "s.rjust(width, fillchar=' ', /)", "s after fillchar up to width characters.", "", 1, "s"},
    {"center", str_justify, "s.center(width, fillchar=' ', /)", "s centred in width characters.", "", 2, "s"},
    {"replace", str_replace, "s.replace(old, new, count=-1, /)", "Replaces every old by new.", "", 0, "s"},
    {"startswith", str_startswith, "s.startswith(prefix, start=None, end=None, /)", "True when s[start:end] starts with prefix (or with one of a tuple of prefixes).", "", 0, "s"},
    {"endswith", str_startswith, "s.endswith(suffix, start=None, end=None, /)", "True when s[start:end] ends with suffix (or with one of a tuple of suffixes).", "", 1, "s"},
    {"isdigit", str_predicate, "s.isdigit()", "True when s is not empty and every character is a digit.", "", 0, "s"},
    {"isalpha", str_predicate, "s.isalpha()", "True when s is not empty and every character is a letter (of any script).", "", 1, "s"},
    {"isalnum", str_predicate, "s.isalnum()", "True when s is not empty and every character is a letter or a number.", "", 2, "s"},
    {"isspace", str_predicate, "s.isspace()", "True when s is not empty and every character is white space.", "", 3, "s"},
    {"isupper", str_predicate, "s.isupper()", "True when s has cased letters and all of them are upper case.", "", 4, "s"},
    {"islower", str_predicate, "s.islower()", "True when s has cased letters and all of them are lower case.", "", 5, "s"},
    {"isdecimal", str_predicate, "s.isdecimal()", "True when s is not empty and every character is a decimal digit.", "", 6, "s"},
    {"isnumeric", str_predicate, "s.isnumeric()", "True when s is not empty and every character is numeric (digits, fractions, numerals).", "", 7, "s"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin bi_list_methods[] = {
    {"append", list_append, "L.append(object, /)", "Adds x at the end.", "", 0, "L"},
    {"extend", list_extend, "L.extend(iterable, /)", "Adds every item at the end.", "", 0, "L"},
    {"pop", list_pop, "L.pop(index=-1, /)", "Removes and returns item i.", "", 0, "L"},
    {"insert", list_insert, "L.insert(index, object, /)", "Puts x before item i.", "", 0, "L"},
    {"remove", list_remove, "L.remove(value, /)", "Removes the first item equal to x.", "", 0, "L"},
    {"reverse", list_reverse_copy_clear, "L.reverse()", "Reverses the list in place.", "", 0, "L"},
    {"copy", list_reverse_copy_clear, "L.copy()", "A shallow copy of the list.", "", 1, "L"},
    {"clear", list_reverse_copy_clear, "L.clear()", "Removes every item.", "", 2, "L"},
    {"sort", list_sort, "L.sort(*, key=None, reverse=False)", "Sorts the list in place (stable).", "", 0, "L"},
    {"index", list_index, "L.index(value, start=0, stop=None, /)", "Position of the first x.", "", 0, "L"},
    {"count", list_index, "L.count(value, /)", "How many items equal x.", "", 1, "L"},
    {"numel", size_numel, "size.numel()", "Product of the dimensions.", "", 0, "size"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin bi_dict_methods[] = {
    {"keys", dict_keys_values, "d.keys()", "The keys (a dict_keys view: iterate it, len, in, | & - ^ with sets; list(d.keys()) for a list).", "", 0, "d"},
    {"values", dict_keys_values, "d.values()", "The values (a dict_values view: iterate it; list(d.values()) for a list).", "", 1, "d"},
    {"items", dict_keys_values, "d.items()", "The (key, value) pairs (a dict_items view: iterate it, | & - ^ with sets of pairs).", "", 2, "d"},
    {"pop", dict_pop, "d.pop(key, default=None, /)", "Removes key and returns its value (default when it is missing).", "", 0, "d"},
    {"popitem", dict_popitem, "d.popitem()", "Removes the last entry added and returns it as a (key, value) pair.", "", 0, "d"},
    {"setdefault", dict_setdefault, "d.setdefault(key, default=None, /)", "d[key], set to default first when it is missing.", "", 0, "d"},
    {"update", dict_update, "d.update(other, key=value, ...)", "Adds the entries of another dict, of (key, value) pairs, or key=value.", "", 0, "d"},
    {"copy", dict_copy_clear, "d.copy()", "A shallow copy of the dict.", "", 0, "d"},
    {"clear", dict_copy_clear, "d.clear()", "Removes every entry.", "", 1, "d"},
    {"get", dict_get_m, "d.get(key, default=None, /)", "The value for key, or default.", "", 0, "d"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* slice(stop) / slice(start, stop, step=None): the object a[start:stop:step] indexes with (any values, as
 * Python's), e.g. d2l's get_dataloader: slice(0, self.num_train). */
static Value *bi_slice(Interp *I, Args *a) {
    Value *p[3];
    if (args_bind_form(I, a, p, 3) < 0) return NULL;
    Value *s = val_new(I->run.heap, V_SLICE);
    Value **parts[3] = {&s->u.slice.start, &s->u.slice.stop, &s->u.slice.step};
    for (int i = 0; i < 3; i++) *parts[i] = val_none();
    if (a->npos == 1) { val_decref(s->u.slice.stop); s->u.slice.stop = val_incref(a->pos[0]); return s; }
    for (int i = 0; i < a->npos; i++) { val_decref(*parts[i]); *parts[i] = val_incref(a->pos[i]); }
    return s;
}

const Builtin bi_python[] = {
    {"print", bi_print, "print(*values, sep=' ', end='\\n', file=None, flush=False)", "Prints values separated by sep.", "", 0, ""},
    {"range", bi_range, "range(stop, /) / range(start, stop, step=1, /)", "The integers start, start+step, ... below stop.", "", 0, ""},
    {"len", bi_len, "len(obj, /)", "Length of a list, tuple, string, or a tensor's first dimension.", "", 0, ""},
    {"int", bi_int, "int(x=0, /, base=10)", "An integer from a number, a string or a one-element tensor.", "", 0, ""},
    {"float", bi_float, "float(x=0, /)", "A float from a number, a string or a one-element tensor.", "", 0, ""},
    {"bool", bi_bool, "bool(x=False, /)", "Truth value.", "", 0, ""},
    {"str", bi_str, "str(object='')", "Text of x, as print shows it.", "", 0, ""},
    {"repr", bi_repr, "repr(obj, /)", "Text of x, as the prompt shows it.", "", 0, ""},
    {"ascii", bi_ascii, "ascii(obj, /)", "repr(x) with every non-ASCII character escaped (\\xe9, \\u65e5).", "", 0, ""},
    {"hash", bi_hash, "hash(obj, /)", "The hash of x (equal values hash alike); TypeError for a list, dict or set.", "", 0, ""},
    {"list", bi_list, "list(iterable=(), /)", "A list of the items.", "", 0, ""},
    {"tuple", bi_tuple, "tuple(iterable=(), /)", "A tuple of the items.", "", 0, ""},
    {"OrderedDict", bi_ordered_dict, "collections.OrderedDict(pairs, key=value, ...)",
     "A dict that prints as OrderedDict([(key, value), ...]) and whose == also compares the order (a state_dict() is one).",
     "", 0, "collections"},
    {"defaultdict", bi_defaultdict, "collections.defaultdict(default_factory=None, pairs, key=value, ...)",
     "A dict where d[k] of a missing key stores and returns default_factory(): defaultdict(list), defaultdict(int).",
     "", 0, "collections"},
    {"dict", bi_dict, "dict(pairs, key=value, ...)", "A dictionary: from (key, value) pairs such as zip(keys, values), another dict, or key=value.", "", 0, ""},
    {"set", bi_set, "set(iterable=(), /)", "A set of the items: each once, in no particular order ({1, 2} writes one; {} is an empty dict).", "", 0, ""},
    {"frozenset", bi_frozenset, "frozenset(iterable=(), /)", "A set that never changes: hashable, so it can be an element of a set or a dict key.", "", 0, ""},
    {"enumerate", bi_enumerate, "enumerate(iterable, start=0)", "An iterator of (index, item) pairs.", "", 0, ""},
    {"zip", bi_zip, "zip(*iterables, strict=False)", "An iterator of tuples of items taken in step.", "", 0, ""},
    {"sum", bi_sum, "sum(iterable, /, start=0)", "Sum of the items, start + item0 + item1 ...; a tensor's items are its rows (dim 0), as in Python: use torch.sum(X) for all its elements.", "", 0, ""},
    {"min", bi_min, "min(iterable, *, key=None, default) / min(arg1, arg2, *args, key=None)", "Smallest item.", "", 0, ""},
    {"max", bi_max, "max(iterable, *, key=None, default) / max(arg1, arg2, *args, key=None)", "Largest item.", "", 0, ""},
    {"abs", bi_abs, "abs(x, /)", "Absolute value (elementwise for tensors).", "", 0, ""},
    {"round", bi_round, "round(number, ndigits=None) / torch.round(input, *, decimals=0)",
     "Rounds half to even, as Python does; for a tensor, decimals=d rounds to d decimals as torch.round.", "", 0, ""},
    {"slice", bi_slice, "slice(stop, /) / slice(start, stop, step=None, /)",
     "What X[start:stop:step] indexes with, as a value: X[slice(0, 3)] is X[0:3].", "", 0, ""},
    {"sorted", bi_sorted, "sorted(iterable, /, *, key=None, reverse=False)", "A sorted list (by key(item) when a key is given).", "", 0, ""},
    {"map", bi_map, "map(function, iterable, /, *iterables)", "An iterator of function(item) (items taken in step from each iterable): function runs as the items are asked for.", "", 0, ""},
    {"filter", bi_filter, "filter(function, iterable, /)", "An iterator of the items for which function(item) is true.", "", 0, ""},
    {"iter", bi_iter, "iter(iterable, /) / iter(callable, sentinel, /)", "An iterator over the items: next(it) gives them one by one.", "", 0, ""},
    {"next", bi_next, "next(iterator, /) / next(iterator, default, /)", "The iterator's next item; default (or an error) when it is exhausted.", "", 0, ""},
    {"divmod", bi_divmod, "divmod(x, y, /)", "(a // b, a % b) for numbers.", "", 0, ""},
    {"reversed", bi_reversed, "reversed(sequence, /)", "An iterator of the items in reverse order (of a tensor: X.flip(0), as in PyTorch).", "", 0, ""},
    {"format", bi_format, "format(value, format_spec='', /)", "Formats a value with a spec such as '>03b' or '.4f'.", "", 0, ""},
    {"dir", bi_dir, "dir() / dir(object, /)", "dir(): the names you defined, sorted. dir(x): everything x offers, its attributes "
     "and methods (for a tensor, every method attn has), as x.<Tab> completes them.", "", 0, ""},
    {"type", bi_type, "type(x)", "The class of x: type(1) is int, type(X) is torch.Tensor.", "", 0, ""},
    {"any", bi_any, "any(iterable, /)", "True if any item is true.", "", 0, ""},
    {"all", bi_all, "all(iterable, /)", "True if every item is true.", "", 0, ""},
    {"chr", bi_chr_ord, "chr(i, /)", "The character with code i.", "", 0, ""},
    {"ord", bi_chr_ord, "ord(c, /)", "The code of character c.", "", 1, ""},
    {"bin", bi_bin_hex, "bin(number, /)", "Binary text of an integer: bin(5) is '0b101'.", "§11.6.3.1", 0, ""},
    {"hex", bi_bin_hex, "hex(number, /)", "Hexadecimal text of an integer.", "", 1, ""},
    {"oct", bi_bin_hex, "oct(number, /)", "Octal text of an integer.", "", 2, ""},
    {"pow", bi_pow, "pow(base, exp, mod=None)", "base ** exp.", "", 0, ""},
    {"BaseException", pyexc_construct, "BaseException(message)", "Python's BaseException: raise BaseException('...') stops with it; except BaseException: catches it (and its subclasses).", "", 0, ""},
    {"Exception", pyexc_construct, "Exception(message)", "Python's Exception: raise Exception('...') stops with it; except Exception: catches it (and its subclasses).", "", 0, ""},
    {"ArithmeticError", pyexc_construct, "ArithmeticError(message)", "Python's ArithmeticError: raise ArithmeticError('...') stops with it; except ArithmeticError: catches it (and its subclasses).", "", 0, ""},
    {"ZeroDivisionError", pyexc_construct, "ZeroDivisionError(message)", "Python's ZeroDivisionError: raise ZeroDivisionError('...') stops with it; except ZeroDivisionError: catches it (and its subclasses).", "", 0, ""},
    {"LookupError", pyexc_construct, "LookupError(message)", "Python's LookupError: raise LookupError('...') stops with it; except LookupError: catches it (and its subclasses).", "", 0, ""},
    {"KeyError", pyexc_construct, "KeyError(message)", "Python's KeyError: raise KeyError('...') stops with it; except KeyError: catches it (and its subclasses).", "", 0, ""},
    {"IndexError", pyexc_construct, "IndexError(message)", "Python's IndexError: raise IndexError('...') stops with it; except IndexError: catches it (and its subclasses).", "", 0, ""},
    {"ValueError", pyexc_construct, "ValueError(message)", "Python's ValueError: raise ValueError('...') stops with it; except ValueError: catches it (and its subclasses).", "", 0, ""},
    {"TypeError", pyexc_construct, "TypeError(message)", "Python's TypeError: raise TypeError('...') stops with it; except TypeError: catches it (and its subclasses).", "", 0, ""},
    {"RuntimeError", pyexc_construct, "RuntimeError(message)", "Python's RuntimeError: raise RuntimeError('...') stops with it; except RuntimeError: catches it (and its subclasses).", "", 0, ""},
    {"OverflowError", pyexc_construct, "OverflowError(message)", "Python's OverflowError (an ArithmeticError): a result too large for a float, as math.exp(1000).", "", 0, ""},
    {"RecursionError", pyexc_construct, "RecursionError(message)", "Python's RecursionError (a RuntimeError): a function that calls itself too deeply, or == nested too deep.", "", 0, ""},
    {"NameError", pyexc_construct, "NameError(message)", "Python's NameError: raise NameError('...') stops with it; except NameError: catches it (and its subclasses).", "", 0, ""},
    {"NotImplementedError", pyexc_construct, "NotImplementedError(message)", "Python's NotImplementedError (a RuntimeError): a method a subclass must write, as d2l's Module.forward before it is defined.", "", 0, ""},
    {"AssertionError", pyexc_construct, "AssertionError(message)", "Python's AssertionError: what a failed assert raises, and nn.MultiheadAttention(5, 2) (embed_dim not divisible by num_heads).", "", 0, ""},
    {"AttributeError", pyexc_construct, "AttributeError(message)", "Python's AttributeError: raise AttributeError('...') stops with it; except AttributeError: catches it (and its subclasses).", "", 0, ""},
    {"MemoryError", pyexc_construct, "MemoryError(message)", "Python's MemoryError: a value that would not fit in attn's memory limit (ATTN_MEMORY_LIMIT) or in the machine's memory; what was defined before is kept.", "", 0, ""},
    {"StopIteration", pyexc_construct, "StopIteration(value)", "Python's StopIteration: what a class's __next__ raises when its iterator is exhausted (for, list() and next() stop there); next(it) raises it at the end.", "", 0, ""},
    {"__assert__", bi_assert, "assert cond, message", "Stops with an error when cond is false.", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

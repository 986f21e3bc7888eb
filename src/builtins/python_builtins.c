/* python_builtins.c - Python's own functions that the book's lines use: print, range, len, int, float, str,
 * list, tuple, dict, set, enumerate, zip, sum, min, max, abs, round, sorted, format, repr and the rest of bi_python.
 * Their methods are python_str.c (str) and python_seq.c (list, dict, set). */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "pyformat.h"
#include "pyset.h"
#include "pyexc.h"
#include "textwidth.h"
#include <errno.h>
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
    if (!ops_has_special(I, v, name)) name = "__index__";
    if (!ops_has_special(I, v, name)) { *done = false; return NULL; }
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
bool dict_fill(Interp *I, Value *d, Value *src) {
    if (src->kind == V_DICT) {
        for (int k = 0, n = src->u.dict->n; k < src->u.dict->n; k++) {    /* src's hashes, as CPython's; held: an
                                                                                * __eq__ may change src */
            Value *key = val_incref(src->u.dict->keys[k]), *v = val_incref(src->u.dict->vals[k]);
            int rc = ops_dict_store(I, d->u.dict, key, v, src->u.dict->hashes[k]);
            val_decref(key);
            val_decref(v);
            if (rc < 0) return false;
            /* an entry added to src, or src cleared: CPython's dict_merge sees its entry count change */
            if (src->u.dict->n > n || (n && !src->u.dict->n)) { rt_raise(I, "RuntimeError", "dict mutated during update"); return false; }
            n = src->u.dict->n;
        }
        return true;
    }
    Iter it;
    if (!ops_iter_begin(I, src, &it)) return false;
    Value *e;
    for (int64_t k = 0; (e = ops_iter_next(&it)); k++) {
        Value *pair = ops_is_iterable(I, e) ? ops_to_list(I, e) : NULL;
        if (!pair && !interp_failed(I)) rt_raise(I, "TypeError", "cannot convert dictionary update sequence element #%lld to a sequence", (long long)k);
        else if (pair && pair->u.seq.n != 2)
            rt_raise(I, "ValueError", "dictionary update sequence element #%lld has length %lld; 2 is required", (long long)k, (long long)pair->u.seq.n);
        else if (pair) ops_set_index(I, d, pair->u.seq.items[0], pair->u.seq.items[1]);
        val_decref(pair);
        val_decref(e);
        /* dict(zip(range(10**9), ...)): the memory limit and Ctrl-C stop it, as they stop list() (ops_to_list) */
        if (((k & 4095) == 4095 || mem_exhausted) && !interp_failed(I) && (ten_interrupted || !interp_memory_ok(I, 4096))) {
            if (ten_interrupted) rt_interrupt(I);
        }
        if (interp_failed(I)) break;
    }
    ops_iter_end(&it);
    return !interp_failed(I);
}

/* dict(), dict(mapping), dict(iterable of (key, value) pairs), each with keyword entries after: Python's (a->npos at
 * most 1: the callers counted, each in its words). */
static Value *dict_from(Interp *I, Args *a) {
    Value *d = val_dict(I->run.heap);
    if (a->npos == 1 && !dict_fill(I, d, a->pos[0])) { val_decref(d); return NULL; }
    for (int k = 0; k < a->nkw; k++) dict_set(d->u.dict, a->kwnames[k], val_incref(a->kwvals[k]));
    return d;
}

static Value *bi_dict(Interp *I, Args *a) {
    Value *p[1];                                 /* pairs; **kwargs: CPython counts only the positional ones */
    return args_bind(I, a, p, 1) ? dict_from(I, a) : NULL;
}

/* collections.OrderedDict(pairs, key=value, ...): dict()'s entries in a dict that prints and compares as an
 * OrderedDict (what a module's state_dict() is). */
static Value *bi_ordered_dict(Interp *I, Args *a) {
    if (a->npos > 1) return rt_raise(I, "TypeError", "expected at most 1 arguments, got %d", a->npos);   /* CPython's words, unnamed */
    Value *d = dict_from(I, a);
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
    Value *d = dict_from(I, &rest);
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
Value *key_of(Interp *I, Value *key, Value *x) {
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
    if (ops_has_special(I, v, "__abs__")) return ops_call_special(I, v, "__abs__", NULL, 0);
    return rt_raise(I, "TypeError", "bad operand type for abs(): '%s'", val_type_name(v));
}

static Value *bi_round(Interp *I, Args *a) {
    Value *b[2];                                 /* number, ndigits */
    if (!args_bind(I, a, b, 2)) return NULL;
    Value *v = b[0], *nd = b[1];
    /* PyTorch 1.13's Tensor has no __round__ (torch.round and X.round are torch's) */
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

/* sorted(iterable, /, *, key=None, reverse=False), Python's: a new sorted list. As CPython's, the positional
 * argument is counted by sorted's declaration ("sorted expected 1 argument, got 0") and the keywords are bound by
 * list.sort's, whose words name sort ("'foo' is an invalid keyword argument for sort()"). */
static Value *bi_sorted(Interp *I, Args *a) {
    Value *p[3];
    Args pos = *a, kw = *a;
    pos.nkw = 0;
    kw.npos = 0;
    const Builtin *sort = bi_list_methods;
    while (strcmp(sort->name, "sort")) sort++;
    if (!args_bind(I, &pos, p, 3) || !args_bind_call(I, &kw, sort, "list", p + 1, 2)) return NULL;
    Value *key = p[1], *rev = p[2];
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
    if (!ops_is_iterator(I, a->pos[0]))
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
        if ((from = ops_attr_names(I, a->pos[0], true, dir_add, l)) < 0) { val_decref(l); return NULL; }
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
    Value *p[3];                                 /* two forms: CPython's "type() takes 1 or 3 arguments" */
    int form = args_bind_form(I, a, p, 3);
    if (form < 0) return NULL;
    if (form == 1) return rt_error(I, "type(name, bases, dict) is not in attn: write a class statement");
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

/* set(iterable), Python's (pyset.h keeps CPython's order). */
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
    {"dict", bi_dict, "dict(pairs=(), /, **kwargs)", "A dictionary: from (key, value) pairs such as zip(keys, values), another dict, or key=value.", "", 0, ""},
    {"set", bi_set, "set(iterable=(), /)", "A set of the items: each once, in no particular order ({1, 2} writes one; {} is an empty dict).", "", 0, ""},
    {"frozenset", bi_frozenset, "frozenset(iterable=(), /)", "A set that never changes: hashable, so it can be an element of a set or a dict key.", "", 0, ""},
    {"enumerate", bi_enumerate, "enumerate(iterable, start=0)", "An iterator of (index, item) pairs.", "", 0, ""},
    {"zip", bi_zip, "zip(*iterables, strict=False)", "An iterator of tuples of items taken in step.", "", 0, ""},
    {"sum", bi_sum, "sum(iterable, /, start=0)", "Sum of the items, start + item0 + item1 ...; a tensor's items are its rows (dim 0), as in Python: use torch.sum(X) for all its elements.", "", 0, ""},
    {"min", bi_min, "min(iterable, *, key=None, default) / min(arg1, arg2, *args, key=None)", "Smallest item.", "", 0, ""},
    {"max", bi_max, "max(iterable, *, key=None, default) / max(arg1, arg2, *args, key=None)", "Largest item.", "", 0, ""},
    {"abs", bi_abs, "abs(x, /)", "Absolute value (elementwise for tensors).", "", 0, ""},
    {"round", bi_round, "round(number, ndigits=None)", "Rounds half to even, as Python does (a tensor: torch.round).", "", 0, ""},
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
    {"type", bi_type, "type(x, /) / type(name, bases, dict, /)", "The class of x: type(1) is int, type(X) is torch.Tensor (attn has not the second form: write a class statement).", "", 0, ""},
    {"any", bi_any, "any(iterable, /)", "True if any item is true.", "", 0, ""},
    {"all", bi_all, "all(iterable, /)", "True if every item is true.", "", 0, ""},
    {"chr", bi_chr_ord, "chr(i, /)", "The character with code i.", "", 0, ""},
    {"ord", bi_chr_ord, "ord(c, /)", "The code of character c.", "", 1, ""},
    {"bin", bi_bin_hex, "bin(number, /)", "Binary text of an integer: bin(5) is '0b101'.", "§11.6.3.1", 0, ""},
    {"hex", bi_bin_hex, "hex(number, /)", "Hexadecimal text of an integer.", "", 1, ""},
    {"oct", bi_bin_hex, "oct(number, /)", "Octal text of an integer.", "", 2, ""},
    {"pow", bi_pow, "pow(base, exp, mod=None)", "base ** exp.", "", 0, ""},
    {"BaseException", pyexc_construct, "BaseException(*args)", "Python's BaseException: raise BaseException('...') stops with it; except BaseException: catches it (and its subclasses).", "", 0, ""},
    {"Exception", pyexc_construct, "Exception(*args)", "Python's Exception: raise Exception('...') stops with it; except Exception: catches it (and its subclasses).", "", 0, ""},
    {"ArithmeticError", pyexc_construct, "ArithmeticError(*args)", "Python's ArithmeticError: raise ArithmeticError('...') stops with it; except ArithmeticError: catches it (and its subclasses).", "", 0, ""},
    {"ZeroDivisionError", pyexc_construct, "ZeroDivisionError(*args)", "Python's ZeroDivisionError: raise ZeroDivisionError('...') stops with it; except ZeroDivisionError: catches it (and its subclasses).", "", 0, ""},
    {"LookupError", pyexc_construct, "LookupError(*args)", "Python's LookupError: raise LookupError('...') stops with it; except LookupError: catches it (and its subclasses).", "", 0, ""},
    {"KeyError", pyexc_construct, "KeyError(*args)", "Python's KeyError: raise KeyError('...') stops with it; except KeyError: catches it (and its subclasses).", "", 0, ""},
    {"IndexError", pyexc_construct, "IndexError(*args)", "Python's IndexError: raise IndexError('...') stops with it; except IndexError: catches it (and its subclasses).", "", 0, ""},
    {"ValueError", pyexc_construct, "ValueError(*args)", "Python's ValueError: raise ValueError('...') stops with it; except ValueError: catches it (and its subclasses).", "", 0, ""},
    {"TypeError", pyexc_construct, "TypeError(*args)", "Python's TypeError: raise TypeError('...') stops with it; except TypeError: catches it (and its subclasses).", "", 0, ""},
    {"RuntimeError", pyexc_construct, "RuntimeError(*args)", "Python's RuntimeError: raise RuntimeError('...') stops with it; except RuntimeError: catches it (and its subclasses).", "", 0, ""},
    {"OverflowError", pyexc_construct, "OverflowError(*args)", "Python's OverflowError (an ArithmeticError): a result too large for a float, as math.exp(1000).", "", 0, ""},
    {"RecursionError", pyexc_construct, "RecursionError(*args)", "Python's RecursionError (a RuntimeError): a function that calls itself too deeply, or == nested too deep.", "", 0, ""},
    {"NameError", pyexc_construct, "NameError(*args)", "Python's NameError: raise NameError('...') stops with it; except NameError: catches it (and its subclasses).", "", 0, ""},
    {"NotImplementedError", pyexc_construct, "NotImplementedError(*args)", "Python's NotImplementedError (a RuntimeError): a method a subclass must write, as d2l's Module.forward before it is defined.", "", 0, ""},
    {"AssertionError", pyexc_construct, "AssertionError(*args)", "Python's AssertionError: what a failed assert raises, and nn.MultiheadAttention(5, 2) (embed_dim not divisible by num_heads).", "", 0, ""},
    {"AttributeError", pyexc_construct, "AttributeError(*args)", "Python's AttributeError: raise AttributeError('...') stops with it; except AttributeError: catches it (and its subclasses).", "", 0, ""},
    {"MemoryError", pyexc_construct, "MemoryError(*args)", "Python's MemoryError: a value that would not fit in attn's memory limit (ATTN_MEMORY_LIMIT) or in the machine's memory; what was defined before is kept.", "", 0, ""},
    {"StopIteration", pyexc_construct, "StopIteration(*args)", "Python's StopIteration: what a class's __next__ raises when its iterator is exhausted (for, list() and next() stop there); next(it) raises it at the end.", "", 0, ""},
    {"__assert__", bi_assert, "assert cond, message", "Stops with an error when cond is false.", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

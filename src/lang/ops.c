/* ops.c - what + - * / ** @, comparisons, x[i], x.name and iteration mean for each kind of value: Python's rules
 * for numbers, strings and sequences, PyTorch's for tensors (a Python number next to a tensor is "weak"). */
#include "ops.h"
#include "pyset.h"
#include "library.h"
#include "pyformat.h"
#include "pyexc.h"
#include "lang_internal.h"
#include "pyexc.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static BinOp tensor_op(int aop, bool *ok) {
    *ok = true;
    switch (aop) {
    case AOP_ADD: return OP_ADD;
    case AOP_SUB: return OP_SUB;
    case AOP_MUL: return OP_MUL;
    case AOP_DIV: return OP_DIV;
    case AOP_FLOORDIV: return OP_FLOORDIV;
    case AOP_MOD: return OP_MOD;
    case AOP_POW: return OP_POW;
    case AOP_BITAND: return OP_AND;
    case AOP_BITOR: return OP_OR;
    case AOP_BITXOR: return OP_XOR;
    case AOP_EQ: return OP_EQ;
    case AOP_NE: return OP_NE;
    case AOP_LT: return OP_LT;
    case AOP_LE: return OP_LE;
    case AOP_GT: return OP_GT;
    case AOP_GE: return OP_GE;
    default: *ok = false; return OP_ADD;
    }
}

Tensor *ops_number_tensor_in(TenCtx *c, const Value *v) {
    if (v->kind == V_FLOAT) return ten_scalar_d_in(c, v->u.f);     /* exact; the result dtype decides the rounding */
    if (v->kind == V_BOOL) { Tensor *t = ten_new_in(c, DT_BOOL, 0, NULL); if (t) ten_b8(t)[0] = v->u.b; return t; }
    return ten_scalar_i_in(c, v->u.i);
}

static Value *contains(Interp *I, Value *container, Value *x);
static bool builtin_iterator(const Value *v);

/* ---- autograd: the operators on tensors that require grad ---- */

/* Does an operation on a (and b, may be NULL) record history: grad mode is on and one of them requires grad. */
static bool ag_records(Interp *I, const Value *a, const Value *b) {
    return I->run.ag.grad_enabled && ((a->kind == V_TENSOR && ag_requires_grad(a->ag)) ||
                                      (b && b->kind == V_TENSOR && ag_requires_grad(b->ag)));
}
static Value *ag_value(Interp *I, AgVal r) {
    if (!r.t) { ag_meta_unref(r.m); return rt_tensor_error(I); }
    return val_tensor_ag(r.t, r.m);
}
/* The refusal of an operation autograd cannot differentiate yet (never a result silently detached). */
static Value *ag_refuse(Interp *I, const char *what) {
    return rt_error(I, "%s has no gradient in attn yet: an input requires grad (under torch.no_grad(), or on "
                       "x.detach(), it runs)", what);
}

/* a op b recorded for backward: ta, tb are the operands as tensors (a number's 0-dim tensor when *w). */
static Value *ag_tensor_binary(Interp *I, int aop, Value *a, Tensor *ta, bool aw, Value *b, Tensor *tb, bool bw) {
    AgContext *c = &I->run.ag;
    AgVal x = {ta, aw ? NULL : a->ag}, y = {tb, bw ? NULL : b->ag};
    char what[64];
    if (ag_view_check(c, x.m) < 0 || ag_view_check(c, y.m) < 0) return rt_tensor_error(I);   /* a stale part of split */
    switch (aop) {
    case AOP_ADD: return ag_value(I, ag_binary(c, OP_ADD, x, aw, y, bw));
    case AOP_SUB: return ag_value(I, ag_binary(c, OP_SUB, x, aw, y, bw));
    case AOP_MUL: return ag_value(I, ag_binary(c, OP_MUL, x, aw, y, bw));
    case AOP_DIV: return ag_value(I, ag_binary(c, OP_DIV, x, aw, y, bw));
    case AOP_MATMUL: return ag_value(I, ag_matmul(c, x, y));
    case AOP_POW:
        if (bw && !aw && b->kind != V_BOOL) return ag_value(I, ag_pow_scalar(c, x, b->kind == V_FLOAT ? b->u.f : (double)b->u.i));
        return ag_value(I, ag_binary_fn(c, AG_B_POW, x, aw, y, bw, ten_binary(OP_POW, ta, aw, tb, bw)));
    default:
        snprintf(what, sizeof what, "the operator %s", ast_op_symbol(aop));
        return ag_refuse(I, what);
    }
}

static Value *tensor_binary(Interp *I, int aop, Value *a, Value *b) {
    bool aw = a->kind != V_TENSOR, bw = b->kind != V_TENSOR;
    Value *other = aw ? a : b;
    if (!val_is_number(other) && other->kind != V_TENSOR) {
        /* Python's words, and what usually went wrong: a method named without its call (X.norm), or a list */
        bool callable = other->kind == V_BUILTIN || other->kind == V_METHOD || other->kind == V_FUNC;
        bool seq = other->kind == V_LIST || other->kind == V_TUPLE;
        return rt_raise(I, "TypeError", "unsupported operand type(s) for %s: '%s' and '%s'%s%s%s", ast_op_symbol(aop),
                        val_type_name(a), val_type_name(b),
                        callable ? " (a function or method: to use its result, call it with parentheses, as in X.norm())"
                                 : seq ? " (make the " : "",
                        seq ? val_type_name(other) : "", seq ? " a tensor with torch.tensor(...))" : "");
    }
    Tensor *ta = aw ? ops_number_tensor_in(I->run.ten, a) : a->u.t, *tb = bw ? ops_number_tensor_in(I->run.ten, b) : b->u.t;
    Tensor *r = NULL;
    bool cmp = aop == AOP_EQ || aop == AOP_NE || aop == AOP_LT || aop == AOP_LE || aop == AOP_GT || aop == AOP_GE;
    if (ta && tb && !cmp && ag_records(I, a, b) && !(aop == AOP_MATMUL && (aw || bw))) {
        Value *v = ag_tensor_binary(I, aop, a, ta, aw, b, tb, bw);
        if (aw) ten_free(ta);
        if (bw) ten_free(tb);
        return v;
    }
    if (!ta || !tb) rt_tensor_error(I);           /* even a 0-d tensor is refused at the memory limit */
    else if (aop == AOP_MATMUL) {
        if (aw || bw) rt_error(I, "matmul '@' needs two tensors, not a tensor and a %s", val_type_name(other));
        else r = ten_matmul(ta, tb);
    } else {
        bool ok;
        BinOp op = tensor_op(aop, &ok);
        if (!ok) rt_error(I, "operator %s is not supported for tensors", ast_op_symbol(aop));
        else r = ten_binary(op, ta, aw, tb, bw);
    }
    if (aw) ten_free(ta);
    if (bw) ten_free(tb);
    if (interp_failed(I)) { ten_free(r); return NULL; }
    if (!r) return rt_tensor_error(I);
    return val_tensor(r);
}

static Value *int_binary(Interp *I, int aop, int64_t x, int64_t y) {
    int64_t r;
    switch (aop) {
    case AOP_ADD: if (__builtin_add_overflow(x, y, &r)) goto overflow; return val_int(r);
    case AOP_SUB: if (__builtin_sub_overflow(x, y, &r)) goto overflow; return val_int(r);
    case AOP_MUL: if (__builtin_mul_overflow(x, y, &r)) goto overflow; return val_int(r);
    case AOP_DIV:
        if (y == 0) return rt_raise(I, "ZeroDivisionError", "division by zero");
        return val_float((double)x / (double)y);
    case AOP_FLOORDIV: case AOP_MOD: {
        if (y == 0) return rt_raise(I, "ZeroDivisionError", aop == AOP_MOD ? "integer modulo by zero" : "integer division or modulo by zero");
        if (x == INT64_MIN && y == -1) goto overflow;
        int64_t q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) { q--; m += y; }
        return val_int(aop == AOP_FLOORDIV ? q : m);
    }
    case AOP_POW: {
        if (y < 0 && x == 0) return rt_raise(I, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        if (y < 0) return val_float(pow((double)x, (double)y));
        int64_t base = x, e = y;
        r = 1;
        while (e) {
            if ((e & 1) && __builtin_mul_overflow(r, base, &r)) goto overflow;
            e >>= 1;
            if (e && __builtin_mul_overflow(base, base, &base)) goto overflow;
        }
        return val_int(r);
    }
    case AOP_BITAND: return val_int(x & y);
    case AOP_BITOR: return val_int(x | y);
    case AOP_BITXOR: return val_int(x ^ y);
    case AOP_LSHIFT:
        if (y < 0) return rt_raise(I, "ValueError", "negative shift count");
        if (y >= 63 || (x != 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y)))) goto overflow;
        return val_int((int64_t)((uint64_t)x << y));
    case AOP_RSHIFT:
        if (y < 0) return rt_raise(I, "ValueError", "negative shift count");
        return val_int(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
    default: return rt_raise(I, "TypeError", "unsupported operand type(s) for %s: 'int' and 'int'", ast_op_symbol(aop));
    }
overflow:
    return rt_error(I, "integer overflow: attn's integers are 64-bit");
}

/* Python's float // and % (CPython's float_divmod): q = floor(x / y) computed from fmod, so 1 // 0.1 is 9.0 as in
 * Python (not floor(10.0)); m has y's sign, and is 0.0 with y's sign when exact. y != 0. */
static void float_divmod(double x, double y, double *q, double *m) {
    double mod = fmod(x, y), div = (x - mod) / y;
    if (mod != 0) {
        if ((y < 0) != (mod < 0)) { mod += y; div -= 1.0; }
    } else mod = copysign(0.0, y);
    double fl;
    if (div != 0) { fl = floor(div); if (div - fl > 0.5) fl += 1.0; }
    else fl = copysign(0.0, x / y);
    *q = fl;
    *m = mod;
}


static Value *float_binary(Interp *I, int aop, double x, double y) {
    switch (aop) {
    case AOP_ADD: return val_float(x + y);
    case AOP_SUB: return val_float(x - y);
    case AOP_MUL: return val_float(x * y);
    case AOP_DIV: if (y == 0) return rt_raise(I, "ZeroDivisionError", "float division by zero"); return val_float(x / y);
    case AOP_FLOORDIV: case AOP_MOD: {
        if (y == 0) return rt_raise(I, "ZeroDivisionError", aop == AOP_MOD ? "float modulo" : "float floor division by zero");
        double q, m;
        float_divmod(x, y, &q, &m);
        return val_float(aop == AOP_MOD ? m : q);
    }
    case AOP_POW:
        if (x < 0 && y != floor(y)) return rt_error(I, "a negative number to a fractional power is complex: not supported");
        if (x == 0 && y < 0) return rt_raise(I, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        if (isfinite(x) && isfinite(y) && isinf(pow(x, y))) return rt_raise(I, "OverflowError", "(34, 'Numerical result out of range')");
        return val_float(pow(x, y));
    default: return rt_raise(I, "TypeError", "unsupported operand type(s) for %s: 'float'", ast_op_symbol(aop));
    }
}

/* A machine that refused the memory (mem_exhausted): Python's MemoryError */
static Value *refused(Interp *I) {
    interp_bytes_ok(I, 0);
    return NULL;
}

static Value *seq_concat(Interp *I, Value *a, Value *b) {
    int64_t n = a->u.seq.n + b->u.seq.n;
    if (!interp_bytes_ok(I, n * (int64_t)sizeof(Value *))) return NULL;
    Value *r = val_seq_try(a->kind, n);
    if (!r) return refused(I);
    for (int64_t i = 0; i < a->u.seq.n; i++) val_seq_set(r, i, val_incref(a->u.seq.items[i]));
    for (int64_t i = 0; i < b->u.seq.n; i++) val_seq_set(r, a->u.seq.n + i, val_incref(b->u.seq.items[i]));
    return r;
}

#define REPEAT_CHUNK ((int64_t)1 << 22)      /* bytes or items between two looks at Ctrl-C */

/* s * k for a string: one buffer, filled by doubling what is already there; Ctrl-C stops it */
static Value *str_repeat(Interp *I, Value *s, int64_t k) {
    int64_t len = (int64_t)s->u.str.len;
    if (k > (INT64_MAX - 1) / len || !interp_bytes_ok(I, len * k + 1)) return NULL;
    char *r = mem_try_malloc((size_t)(len * k + 1));
    if (!r) return refused(I);
    int64_t total = len * k, done = len;
    memcpy(r, s->u.str.s, (size_t)len);
    while (done < total) {
        if (ten_interrupted) { free(r); return rt_interrupt(I); }
        int64_t n = done < total - done ? done : total - done;
        if (n > REPEAT_CHUNK) n = REPEAT_CHUNK;
        memcpy(r + done, r, (size_t)n);
        done += n;
    }
    r[total] = 0;
    return val_str_take_chars(r, (size_t)total, s->u.str.chars * k);
}

/* s * k (k * s), Python's: empty at once when s is empty or k <= 0; MemoryError before anything is built when the
 * result would pass attn's memory limit (or the machine's); Ctrl-C stops a long one. */
static Value *seq_repeat(Interp *I, Value *s, int64_t k) {
    int64_t len = s->kind == V_STR ? (int64_t)s->u.str.len : s->u.seq.n;
    if (k <= 0 || len == 0) return s->kind == V_STR ? val_strn("", 0) : s->kind == V_LIST ? val_list(0) : val_tuple(0);
    if (s->kind == V_STR) return str_repeat(I, s, k);
    if (k > INT64_MAX / (int64_t)sizeof(Value *) / len || !interp_bytes_ok(I, len * k * (int64_t)sizeof(Value *))) return NULL;
    Value *r = val_seq_try(s->kind, len * k);
    if (!r) return refused(I);
    Value **out = r->u.seq.items;
    for (int64_t i = 0; i < len * k; i++) {
        if ((i & (REPEAT_CHUNK - 1)) == REPEAT_CHUNK - 1 && ten_interrupted) { val_decref(r); return rt_interrupt(I); }
        val_decref(out[i]);                                 /* the None val_seq_try put there */
        out[i] = val_incref(s->u.seq.items[i % len]);
    }
    return r;
}

/* ---- set operators on dict views (CPython 3.11's dictviews_or, dictviews_sub, dictviews_xor, _PyDictView_Intersect) ---- */

static bool set_view(const Value *v) { return v->kind == V_DICTVIEW && val_is_set_like(v); }

/* x in a keys or items view: 1, 0, -1 with the error set */
static int view_has(Interp *I, Value *view, Value *x) {
    Value *r = contains(I, view, x);
    if (!r) return -1;
    int has = r->u.b;
    val_decref(r);
    return has;
}

/* a & b where a or b is a keys or items view: when the other side is a set at least as large, set.intersection(view)
 * (each of the view's elements hashed and looked up); otherwise the smaller side walked and each element looked up
 * in the view, then added to the result (hashed again, as CPython's PySet_Add). */
static Value *view_intersect(Interp *I, Value *self, Value *other) {
    if (!set_view(self)) { Value *t = self; self = other; other = t; }
    int64_t len_self = val_view_len(self);
    if (other->kind == V_SET && !other->u.set->frozen && len_self <= other->u.set->used) return pyset_op(I, AOP_BITAND, other, self);
    if (set_view(other) && val_view_len(other) > len_self) { Value *t = self; self = other; other = t; }
    Value *r = pyset_new();
    Iter it;
    if (!ops_iter_begin(I, other, &it)) { val_decref(r); return NULL; }
    int rc = 0;
    for (Value *e; rc == 0 && (e = ops_iter_next(&it));) {
        rc = view_has(I, self, e);
        if (rc == 1) rc = pyset_add(I, r, e);
        val_decref(e);
    }
    ops_iter_end(&it);
    if (rc < 0 || interp_failed(I)) { val_decref(r); return NULL; }
    return r;
}

/* a | b, a - b, a ^ b, a & b where a or b is a keys or items view: & by view_intersect; the others set(a) (a keys
 * view's set made from its dict, with the hashes stored there) updated in place by b, any iterable. */
static Value *view_set_op(Interp *I, int aop, Value *a, Value *b) {
    if (aop == AOP_BITAND) return view_intersect(I, a, b);
    Value *r = pyset_from(I, a->kind == V_DICTVIEW && a->u.view.which == VIEW_KEYS && a->u.view.dict ? a->u.view.dict : a);
    if (r && pyset_op_update(I, aop, r, b) < 0) { val_decref(r); return NULL; }
    return r;
}

static const char *aop_forward_name(int aop) {
    return aop == AOP_BITOR ? "__or__" : aop == AOP_BITAND ? "__and__" : aop == AOP_SUB ? "__sub__" : "__xor__";
}

Value *ops_binary(Interp *I, int aop, Value *a, Value *b) {
    if (aop == AOP_MOD && a->kind == V_STR) return pyfmt_percent(I, a, b);
    bool set_op = aop == AOP_BITOR || aop == AOP_BITAND || aop == AOP_SUB || aop == AOP_BITXOR;
    /* a view's operator runs first and takes any iterable, raising "'O' object is not iterable" otherwise (no
     * __ror__ runs: CPython's dictviews_or); with a view on the right, a student's __or__ comes first */
    if (set_op && set_view(a)) return view_set_op(I, aop, a, b);
    if (set_op && set_view(b) && !(class_is_instance(a) && class_has_special(a, aop_forward_name(aop))))
        return view_set_op(I, aop, a, b);
    if (class_is_instance(a) || class_is_instance(b)) return class_binary(I, aop, a, b, false);
    if (a->kind == V_TENSOR || b->kind == V_TENSOR) return tensor_binary(I, aop, a, b);
    if (a->kind == V_SET || b->kind == V_SET) {
        if (a->kind == V_SET && b->kind == V_SET && (aop == AOP_BITOR || aop == AOP_BITAND || aop == AOP_SUB || aop == AOP_BITXOR))
            return pyset_op(I, aop, a, b);
        return rt_raise(I, "TypeError", "unsupported operand type(s) for %s: '%s' and '%s'%s", ast_op_symbol(aop), val_type_name(a), val_type_name(b),
                        aop == AOP_ADD && a->kind == V_SET && b->kind == V_SET ? " (the union of two sets is s | t)" : "");
    }
    if (val_is_number(a) && val_is_number(b)) {
        if (a->kind != V_FLOAT && b->kind != V_FLOAT)
            return int_binary(I, aop, a->kind == V_INT ? a->u.i : a->u.b, b->kind == V_INT ? b->u.i : b->u.b);
        return float_binary(I, aop, val_as_double(a), val_as_double(b));
    }
    if (aop == AOP_ADD && a->kind == V_STR && b->kind == V_STR) {
        if (!interp_bytes_ok(I, (int64_t)(a->u.str.len + b->u.str.len + 1))) return NULL;
        char *s = mem_try_malloc(a->u.str.len + b->u.str.len + 1);
        if (!s) return refused(I);
        memcpy(s, a->u.str.s, a->u.str.len);
        memcpy(s + a->u.str.len, b->u.str.s, b->u.str.len);
        s[a->u.str.len + b->u.str.len] = 0;
        return val_str_take_n(s, a->u.str.len + b->u.str.len);
    }
    if (aop == AOP_ADD && (a->kind == V_LIST || a->kind == V_TUPLE) && a->kind == b->kind && !a->u.seq.is_size)
        return seq_concat(I, a, b);
    if (aop == AOP_MUL && (a->kind == V_STR || a->kind == V_LIST || a->kind == V_TUPLE) && (b->kind == V_INT || b->kind == V_BOOL))
        return seq_repeat(I, a, b->kind == V_INT ? b->u.i : b->u.b);
    if (aop == AOP_MUL && (b->kind == V_STR || b->kind == V_LIST || b->kind == V_TUPLE) && (a->kind == V_INT || a->kind == V_BOOL))
        return seq_repeat(I, b, a->kind == V_INT ? a->u.i : a->u.b);
    if (aop == AOP_MOD && a->kind == V_STR) return pyfmt_percent(I, a, b);
    if (aop == AOP_ADD && (a->kind == V_LIST || a->kind == V_STR || (a->kind == V_TUPLE && !a->u.seq.is_size && !a->u.seq.named)))   /* [2] + d.keys() */
        return rt_raise(I, "TypeError", "can only concatenate %s (not \"%s\") to %s", val_type_name(a), val_type_name(b), val_type_name(a));
    bool seq_a = a->kind == V_STR || a->kind == V_LIST || a->kind == V_TUPLE;
    if (aop == AOP_MUL && (seq_a || b->kind == V_STR || b->kind == V_LIST || b->kind == V_TUPLE))      /* [1] * 2.0 */
        return rt_raise(I, "TypeError", "can't multiply sequence by non-int of type '%s'", val_type_name(seq_a ? b : a));
    return rt_raise(I, "TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", ast_op_symbol(aop), val_type_name(a), val_type_name(b));
}

/* l += b as Python's list.__iadd__: l extended in place (names bound to l see it) with the items of any iterable b
 * (a tuple, a range, a string, a dict's keys, l itself); TypeError when b is not iterable. l, new reference, or NULL. */
static Value *list_iadd(Interp *I, Value *l, Value *b) {
    Value *items = ops_to_list(I, b);           /* a new list, so l += l adds l's items once */
    if (!items) return NULL;
    if (!interp_bytes_ok(I, items->u.seq.n * (int64_t)sizeof(Value *))) { val_decref(items); return NULL; }
    for (int64_t i = 0; i < items->u.seq.n; i++) val_list_append(l, val_incref(items->u.seq.items[i]));
    val_decref(items);
    return val_incref(l);
}

/* a op= b: for a tensor, PyTorch's in-place operator (x += 1 writes into x's storage, so views of x see it; the
 * result must keep x's shape and dtype). A list is extended in place (list_iadd) and a set updated, as Python's;
 * everything else rebinds. */
Value *ops_inplace(Interp *I, int aop, Value *a, Value *b) {
    if (a->kind == V_SET && b->kind == V_SET && !a->u.set->frozen && (aop == AOP_BITOR || aop == AOP_BITAND || aop == AOP_SUB || aop == AOP_BITXOR))
        return pyset_op_update(I, aop, a, b) < 0 ? NULL : val_incref(a);      /* s |= t changes s, as Python's */
    if (class_is_instance(a)) return class_binary(I, aop, a, b, true);
    if (a->kind == V_DICTVIEW && !(set_view(a) && (aop == AOP_BITOR || aop == AOP_BITAND || aop == AOP_SUB || aop == AOP_BITXOR)))
        return rt_raise(I, "TypeError", "unsupported operand type(s) for %s=: '%s' and '%s'", ast_op_symbol(aop), val_type_name(a), val_type_name(b));
    if (a->kind == V_LIST && aop == AOP_ADD) return list_iadd(I, a, b);
    if (a->kind != V_TENSOR || aop == AOP_MATMUL) return ops_binary(I, aop, a, b);
    bool records = I->run.ag.grad_enabled && (ag_requires_grad(a->ag) || (b->kind == V_TENSOR && ag_requires_grad(b->ag)));
    Value *r;
    if (records) {
        /* recorded as PyTorch's x.add_(y): the op on a copy of x carrying x's history (so what it saves of x keeps
         * x's old values), whose node becomes x's history (ag_inplace_assign) */
        if (ag_inplace_check(&I->run.ag, a->ag) < 0) return rt_tensor_error(I);
        Tensor *copy = ten_copy(a->u.t);
        if (!copy) return rt_tensor_error(I);
        Value *ac = val_tensor_ag(copy, a->ag ? ag_meta_ref(a->ag) : NULL);
        r = ops_binary(I, aop, ac, b);
        val_decref(ac);
    } else r = ops_binary(I, aop, a, b);
    if (!r) return NULL;
    if (r->kind != V_TENSOR) { val_decref(r); return rt_error(I, "%s=: the result is not a tensor", ast_op_symbol(aop)); }
    int rc = records ? ag_inplace_assign(&I->run.ag, a->u.t, &a->ag, (AgVal){r->u.t, r->ag}) : ten_assign_result(a->u.t, r->u.t);
    val_decref(r);
    if (rc < 0) return rt_tensor_error(I);
    return val_incref(a);
}

Value *ops_unary(Interp *I, int aop, Value *a) {
    if (class_is_instance(a)) return class_unary(I, aop, a);
    if (a->kind == V_TENSOR) {
        if (aop == AOP_POS) return val_incref(a);
        if (aop == AOP_INVERT && ten_is_float(a->u.t->dtype)) return rt_error(I, "~ (bitwise not) is only for integer and bool tensors");
        if (aop == AOP_NEG && ag_records(I, a, NULL) && ag_view_check(&I->run.ag, a->ag) < 0) return rt_tensor_error(I);
        if (aop == AOP_NEG && ag_records(I, a, NULL)) return ag_value(I, ag_unary(&I->run.ag, UOP_NEG, (AgVal){a->u.t, a->ag}));
        Tensor *r = ten_unary(aop == AOP_NEG ? UOP_NEG : UOP_NOT, a->u.t);
        return r ? val_tensor(r) : rt_tensor_error(I);
    }
    if (a->kind == V_INT || a->kind == V_BOOL) {
        int64_t x = a->kind == V_INT ? a->u.i : a->u.b;
        if (aop == AOP_NEG) { if (x == INT64_MIN) return rt_error(I, "integer overflow"); return val_int(-x); }
        if (aop == AOP_POS) return val_int(x);
        return val_int(~x);
    }
    if (a->kind == V_FLOAT && aop != AOP_INVERT) return val_float(aop == AOP_NEG ? -a->u.f : a->u.f);
    return rt_raise(I, "TypeError", "bad operand type for unary %s: '%s'", ast_op_symbol(aop), val_type_name(a));
}

static int cmp3(double x, double y) { return x < y ? -1 : x > y ? 1 : 0; }

bool ops_dict_find_hash(Interp *I, Dict *d, const Value *key, int64_t *hash, int *at) {
    *at = -1;
    if (!pyset_hash(I, key, hash)) return false;
    *at = dict_find_hashed(I, d, key, *hash);
    return *at >= 0 || !interp_failed(I);
}

bool ops_dict_find(Interp *I, Dict *d, const Value *key, int *at) {
    int64_t h;
    return ops_dict_find_hash(I, d, key, &h, at);
}

int ops_dict_store(Interp *I, Dict *d, Value *key, Value *v, int64_t hash) {
    int i = dict_find_hashed(I, d, key, hash);
    if (i < 0 && interp_failed(I)) return -1;
    if (i < 0) {
        dict_append_hashed(d, val_incref(key), val_incref(v), hash);
        return 0;
    }
    Value *old = d->vals[i];
    d->vals[i] = val_incref(v);
    d->version++;
    val_decref(old);
    return 0;
}

static Value *contains(Interp *I, Value *container, Value *x) {
    if (container->kind == V_STR) {
        if (x->kind != V_STR) return rt_raise(I, "TypeError", "'in <string>' requires string as left operand, not %s", val_type_name(x));
        return val_bool(strstr(container->u.str.s, x->u.str.s) != NULL);
    }
    if (container->kind == V_DICTVIEW && !container->u.view.dict) return val_bool(false);
    if (container->kind == V_DICT || (container->kind == V_DICTVIEW && container->u.view.which == VIEW_KEYS)) {
        Dict *d = container->kind == V_DICT ? container->u.dict : container->u.view.dict->u.dict;
        int i;
        return ops_dict_find(I, d, x, &i) ? val_bool(i >= 0) : NULL;
    }
    if (container->kind == V_DICTVIEW && container->u.view.which == VIEW_ITEMS) {   /* (k, v) in d.items(): k, then v == d[k] */
        if (x->kind != V_TUPLE || x->u.seq.n != 2) return val_bool(false);
        Dict *d = container->u.view.dict->u.dict;
        int i;
        if (!ops_dict_find(I, d, x->u.seq.items[0], &i)) return NULL;
        if (i < 0) return val_bool(false);
        Value *stored = val_incref(d->vals[i]), *want = val_incref(x->u.seq.items[1]);
        bool eq = true, ok = stored == want || val_eq(I, stored, want, &eq);
        val_decref(stored);
        val_decref(want);
        return ok ? val_bool(eq) : NULL;
    }
    if (container->kind == V_SET) {
        int r = pyset_contains(I, container, x);
        return r < 0 ? NULL : val_bool(r);
    }
    if (container->kind == V_TENSOR) {
        Value *s = ops_item(x);
        if (!val_is_number(s)) { val_decref(s); return rt_error(I, "'in' on a tensor needs a number on the left"); }
        double v = val_as_double(s);
        val_decref(s);
        for (int64_t i = 0; i < container->u.t->numel; i++) if (ten_get(container->u.t, i) == v) return val_bool(true);
        return val_bool(false);
    }
    if (class_has_special(container, "__contains__")) {     /* a student's x in obj: the truth of its __contains__ */
        Value *r = class_call_special(I, container, "__contains__", &x, 1);
        bool t = false, ok = r && interp_truth(I, r, &t);
        val_decref(r);
        return ok ? val_bool(t) : NULL;
    }
    if (!ops_is_iterable(container)) return rt_raise(I, "TypeError", "argument of type '%s' is not iterable", val_type_name(container));
    Iter it;
    if (!ops_iter_begin(I, container, &it)) return NULL;
    Value *e;
    bool found = false;
    while (!found && (e = ops_iter_next(&it))) {
        bool eq = true, ok = e == x || val_eq(I, e, x, &eq);          /* Python's: the same object, or == */
        val_decref(e);
        if (!ok) break;
        found = eq;
    }
    ops_iter_end(&it);
    return interp_failed(I) ? NULL : val_bool(found);
}

/* Whether every element of x (a set or a keys or items view) is in y: 1, 0, -1 with the error set. */
static int all_contained_in(Interp *I, Value *x, Value *y) {
    Iter it;
    if (!ops_iter_begin(I, x, &it)) return -1;
    int rc = 1;
    for (Value *e; rc == 1 && (e = ops_iter_next(&it));) {
        rc = view_has(I, y, e);
        val_decref(e);
    }
    ops_iter_end(&it);
    return interp_failed(I) ? -1 : rc;
}

/* a < b, a <= b, a > b, a >= b where a or b is a dict view (CPython 3.11's dictview_richcompare): keys and items views
 * order as sets against sets and each other (a <= b: a's elements all in b); a values view, or any other value,
 * is Python's TypeError. */
static Value *view_order(Interp *I, int aop, Value *a, Value *b) {
    if (!val_is_set_like(a) || !val_is_set_like(b))
        return rt_raise(I, "TypeError", "'%s' not supported between instances of '%s' and '%s'", ast_op_symbol(aop), val_type_name(a), val_type_name(b));
    Value *ha = val_incref(a), *hb = val_incref(b);
    int64_t la = a->kind == V_SET ? a->u.set->used : val_view_len(a), lb = b->kind == V_SET ? b->u.set->used : val_view_len(b);
    bool sizes = aop == AOP_LT ? la < lb : aop == AOP_LE ? la <= lb : aop == AOP_GT ? la > lb : la >= lb;
    int rc = !sizes ? 0 : aop == AOP_LT || aop == AOP_LE ? all_contained_in(I, a, b) : all_contained_in(I, b, a);
    val_decref(ha);
    val_decref(hb);
    return rc < 0 ? NULL : val_bool(rc == 1);
}

Value *ops_compare(Interp *I, int aop, Value *a, Value *b) {
    switch (aop) {
    case AOP_IS: case AOP_ISNOT: {
        /* identity; attn makes None, booleans, modules and builtins as values on demand, so those compare by what
         * they are (nn is torch.nn, F.softmax is torch.softmax) */
        bool same = a == b || (a->kind == b->kind && (a->kind == V_NONE || (a->kind == V_BOOL && a->u.b == b->u.b) ||
                    (a->kind == V_MODULE && !strcmp(a->u.module, b->u.module)) || (a->kind == V_BUILTIN && a->u.builtin == b->u.builtin)));
        return val_bool(aop == AOP_IS ? same : !same);
    }
    case AOP_IN: return contains(I, b, a);
    case AOP_NOTIN: {
        Value *r = contains(I, b, a);
        if (!r) return NULL;
        bool v = !r->u.b;
        val_decref(r);
        return val_bool(v);
    }
    default: break;
    }
    if (class_is_instance(a) || class_is_instance(b)) return class_richcompare(I, aop, a, b);
    if (a->kind == V_TENSOR || b->kind == V_TENSOR) {
        if ((aop == AOP_EQ || aop == AOP_NE) && !(val_is_number(a) || a->kind == V_TENSOR) ) return val_bool(aop == AOP_NE);
        if ((aop == AOP_EQ || aop == AOP_NE) && !(val_is_number(b) || b->kind == V_TENSOR)) return val_bool(aop == AOP_NE);
        return tensor_binary(I, aop, a, b);
    }
    if ((a->kind == V_DICTVIEW || b->kind == V_DICTVIEW) && aop != AOP_EQ && aop != AOP_NE) return view_order(I, aop, a, b);
    if (a->kind == V_SET && b->kind == V_SET && aop != AOP_EQ && aop != AOP_NE) {     /* subset and superset */
        Value *x = aop == AOP_LT || aop == AOP_LE ? a : b, *y = x == a ? b : a;
        int sub = pyset_subset(I, x, y);
        if (sub < 0) return NULL;
        bool strict = aop == AOP_LT || aop == AOP_GT;
        return val_bool(sub == 1 && (!strict || x->u.set->used < y->u.set->used));
    }
    if (aop == AOP_EQ || aop == AOP_NE) {
        bool eq;
        if (!val_eq(I, a, b, &eq)) return NULL;            /* a student's __eq__ raised, Ctrl-C, too deep */
        return val_bool(eq == (aop == AOP_EQ));
    }
    int c;
    if (val_is_number(a) && val_is_number(b)) {
        if (a->kind != V_FLOAT && b->kind != V_FLOAT) {
            int64_t x = a->kind == V_INT ? a->u.i : a->u.b, y = b->kind == V_INT ? b->u.i : b->u.b;
            c = x < y ? -1 : x > y;
        } else {
            double x = val_as_double(a), y = val_as_double(b);
            if (isnan(x) || isnan(y)) return val_bool(false);
            c = cmp3(x, y);
        }
    } else if (a->kind == V_STR && b->kind == V_STR) {
        c = strcmp(a->u.str.s, b->u.str.s);
    } else if ((a->kind == V_LIST || a->kind == V_TUPLE) && a->kind == b->kind) {
        int64_t i;
        bool eq = true;
        for (i = 0; i < a->u.seq.n && i < b->u.seq.n; i++) {      /* a student's __eq__ may shrink them */
            Value *x = val_incref(a->u.seq.items[i]), *y = val_incref(b->u.seq.items[i]);
            bool ok = x == y || val_eq(I, x, y, &eq);
            val_decref(x);
            val_decref(y);
            if (!ok) return NULL;                             /* a student's __eq__ raised, Ctrl-C, too deep */
            if (!eq) break;
        }
        if (i >= a->u.seq.n || i >= b->u.seq.n) c = a->u.seq.n < b->u.seq.n ? -1 : a->u.seq.n > b->u.seq.n;
        else {
            static int depth;          /* [[[...]]] < [[[...]]]: one level of C stack per level of nesting */
            if (depth > 1000) return rt_raise(I, "RecursionError", "maximum recursion depth exceeded in comparison");
            depth++;
            Value *x = val_incref(a->u.seq.items[i]), *y = val_incref(b->u.seq.items[i]);
            Value *r = ops_compare(I, aop, x, y);
            val_decref(x);
            val_decref(y);
            depth--;
            return r;
        }
    } else {
        if (a->kind == V_SET || b->kind == V_SET)            /* Python's words */
            return rt_raise(I, "TypeError", "'%s' not supported between instances of '%s' and '%s'", ast_op_symbol(aop), val_type_name(a), val_type_name(b));
        return rt_raise(I, "TypeError", "'%s' not supported between instances of '%s' and '%s'", ast_op_symbol(aop), val_type_name(a), val_type_name(b));
    }
    switch (aop) {
    case AOP_LT: return val_bool(c < 0);
    case AOP_LE: return val_bool(c <= 0);
    case AOP_GT: return val_bool(c > 0);
    default: return val_bool(c >= 0);
    }
}

Value *ops_item(Value *v) {
    if (v->kind == V_TENSOR && v->u.t->numel == 1) {
        if (ten_is_float(v->u.t->dtype)) return val_float(ten_get(v->u.t, 0));
        if (v->u.t->dtype == DT_BOOL) return val_bool(ten_get(v->u.t, 0) != 0);
        return val_int(ten_i64(v->u.t)[0]);
    }
    return val_incref(v);
}

/* ---- indexing ---- */

static bool index_int(Interp *I, Value *v, int64_t *out) {
    if (v->kind == V_INT) { *out = v->u.i; return true; }
    if (v->kind == V_BOOL) { *out = v->u.b; return true; }
    if (v->kind == V_TENSOR && v->u.t->ndim == 0 && !ten_is_float(v->u.t->dtype)) { *out = ten_get_i64(v->u.t, 0); return true; }
    int r = class_index(I, v, out);
    if (r) return r > 0;
    rt_raise(I, "TypeError", "indices must be integers or slices, not %s", val_type_name(v));
    return false;
}

/* The place of item `index` in a list, tuple or string seq of length len (a negative index counts from the end):
 * for reading it (assign false) or for x[i] = v and del x[i] (assign true). false with Python's TypeError for an
 * index that is not an integer, or its IndexError ("list assignment index out of range") and where the index fell. */
static bool seq_place(Interp *I, const Value *seq, Value *index, bool assign, int64_t *place) {
    int64_t i, len = seq->kind == V_STR ? seq->u.str.chars : seq->u.seq.n;
    const char *type = seq->kind == V_STR ? "string" : val_type_name(seq);
    if (index->kind == V_INT) i = index->u.i;
    else if (index->kind == V_BOOL) i = index->u.b;
    else if (index->kind == V_TENSOR && index->u.t->ndim == 0 && !ten_is_float(index->u.t->dtype)) i = ten_get_i64(index->u.t, 0);
    else if (class_is_instance(index) && class_has_special(index, "__index__")) {
        if (class_index(I, index, &i) < 0) return false;
    } else {
        if (seq->kind == V_STR) rt_raise(I, "TypeError", "string indices must be integers, not '%s'", val_type_name(index));
        else rt_raise(I, "TypeError", "%s indices must be integers or slices, not %s%s", type, val_type_name(index),
                      index->kind == V_TUPLE ? " (a list of lists is indexed L[i][j]; a tensor T[i, j])" : "");
        return false;
    }
    if (i < -len || i >= len) {
        rt_raise(I, "IndexError", "%s%s index out of range (index %lld, length %lld)", type, assign ? " assignment" : "", (long long)i, (long long)len);
        char words[64];                          /* what except IndexError as e sees: Python's words alone */
        snprintf(words, sizeof words, "%s%s index out of range", type, assign ? " assignment" : "");
        Value *w = val_str(words);
        pyexc_set_arg(I, w);
        val_decref(w);
        return false;
    }
    *place = i < 0 ? i + len : i;
    return true;
}

static bool slice_part(Interp *I, Value *v, int64_t *out, bool *has) {
    *has = v && v->kind != V_NONE;
    if (!*has) return true;
    return index_int(I, v, out);
}

/* Converts one Python index value to an IndexItem; tensors made from lists go to *tmp (caller frees). */
static bool to_item(Interp *I, Value *v, IndexItem *it, Tensor **tmp) {
    memset(it, 0, sizeof *it);
    if (v->kind == V_SLICE) {
        it->kind = IX_SLICE;
        it->step = 1;
        bool has_step;
        if (!slice_part(I, v->u.slice.start, &it->start, &it->has_start)) return false;
        if (!slice_part(I, v->u.slice.stop, &it->stop, &it->has_stop)) return false;
        if (!slice_part(I, v->u.slice.step, &it->step, &has_step)) return false;
        if (!has_step) it->step = 1;
        return true;
    }
    if (v->kind == V_NONE) { it->kind = IX_NEWAXIS; return true; }
    if (v->kind == V_ELLIPSIS) { it->kind = IX_ELLIPSIS; return true; }
    if (v->kind == V_INT) { it->kind = IX_INT; it->i = v->u.i; return true; }
    if (v->kind == V_TENSOR) {
        if (v->u.t->ndim == 0 && v->u.t->dtype == DT_I64) { it->kind = IX_INT; it->i = ten_i64(v->u.t)[0]; return true; }
        if (ten_is_float(v->u.t->dtype)) { rt_error(I, "tensors used as indices must be long, int or bool tensors, not float"); return false; }
        it->kind = IX_TENSOR;
        it->index = v->u.t;
        return true;
    }
    if (v->kind == V_LIST) {
        *tmp = interp_to_tensor(I, v, false, DT_I64);
        if (!*tmp) return false;
        if (ten_is_float((*tmp)->dtype)) { rt_error(I, "index lists must hold integers or bools"); return false; }
        it->kind = IX_TENSOR;
        it->index = *tmp;
        return true;
    }
    if (v->kind == V_BOOL) { rt_error(I, "indexing a tensor with True/False is not supported: use a bool tensor"); return false; }
    if (class_is_instance(v) && class_has_special(v, "__index__")) {      /* t[I(2)]: its __index__, as PyTorch's */
        it->kind = IX_INT;
        return class_index(I, v, &it->i) > 0;
    }
    rt_error(I, "a tensor index must be an int, a slice, None, ..., or a tensor, not %s", val_type_name(v));
    return false;
}

static int tensor_items(Interp *I, Value *index, IndexItem *items, Tensor **tmps) {
    Value *one = index;
    Value **parts = &one;
    int64_t n = 1;
    if (index->kind == V_TUPLE) { parts = index->u.seq.items; n = index->u.seq.n; }
    if (n > 2 * TEN_MAX_DIMS) { rt_error(I, "too many indices (%lld)", (long long)n); return -1; }
    for (int64_t i = 0; i < n; i++)
        if (!to_item(I, parts[i], &items[i], &tmps[i])) return -1;
    return (int)n;
}

/* The items a slice picks from a sequence of len items, as Python's slice.indices: the first *a, then every *step-th,
 * *cnt of them. false with an error set. */
static bool slice_span(Interp *I, int64_t len, Value *sl, int64_t *start, int64_t *stepp, int64_t *cntp) {
    int64_t a, b, step = 1;
    bool ha, hb, hs;
    if (!slice_part(I, sl->u.slice.start, &a, &ha) || !slice_part(I, sl->u.slice.stop, &b, &hb) ||
        !slice_part(I, sl->u.slice.step, &step, &hs))
        return false;
    if (!hs) step = 1;
    if (step == 0) { rt_raise(I, "ValueError", "slice step cannot be zero"); return false; }
    if (!ha) a = step > 0 ? 0 : len - 1;
    else { if (a < 0) a += len; if (a < 0) a = step > 0 ? 0 : -1; if (a >= len) a = step > 0 ? len : len - 1; }
    if (!hb) b = step > 0 ? len : -1;
    else { if (b < 0) b += len; if (b < 0) b = step > 0 ? 0 : -1; if (b >= len) b = step > 0 ? len : len - 1; }
    int64_t cnt = 0;
    if (step > 0 && b > a) cnt = (b - a + step - 1) / step;
    if (step < 0 && a > b) cnt = (a - b - step - 1) / (-step);
    *start = a;
    *stepp = step;
    *cntp = cnt;
    return true;
}

static Value *seq_slice(Interp *I, Value *obj, Value *sl) {
    int64_t len = obj->kind == V_STR ? obj->u.str.chars : obj->u.seq.n;
    int64_t a, step, cnt;
    if (!slice_span(I, len, sl, &a, &step, &cnt)) return NULL;
    if (obj->kind == V_STR && step == 1) {            /* characters, not bytes: 'ζ日本'[1:] is '日本' */
        size_t from = val_str_offset(obj, a), to = val_str_offset(obj, a + cnt);
        return val_strn(obj->u.str.s + from, to - from);
    }
    if (obj->kind == V_STR) {
        StrBuf b;
        sb_init(&b);
        for (int64_t i = 0; i < cnt; i++) {
            size_t from = val_str_offset(obj, a + i * step), to = val_str_offset(obj, a + i * step + 1);
            sb_putn(&b, obj->u.str.s + from, to - from);
        }
        size_t n = b.len;
        return val_str_take_n(sb_take(&b), n);
    }
    Value *r = obj->kind == V_LIST ? val_list(cnt) : val_tuple(cnt);
    for (int64_t i = 0; i < cnt; i++) val_seq_set(r, i, val_incref(obj->u.seq.items[a + i * step]));
    return r;
}

/* Python's KeyError for a dict lookup, in attn's words: "key 5 is not in the dict" (the key as repr shows it). */
Value *ops_key_error(Interp *I, const Value *key) {
    StrBuf k;
    sb_init(&k);
    val_repr_quiet(I, &k, key);            /* Python's KeyError shows the key later: its __repr__ raises nothing here */
    Value *r = rt_raise(I, "KeyError", "key %s is not in the dict", sb_str(&k));
    sb_free(&k);
    pyexc_set_arg(I, key);                 /* except KeyError as e: e.args[0] is the key, str(e) its repr */
    return r;
}

/* x[items] with an index tensor (PyTorch's advanced indexing): IndexBackward0, whose grad goes back to the places
 * the same indexing of x's element numbers picks (ag_index_map). */
static Value *ag_index_advanced(Interp *I, Value *obj, const IndexItem *items, int n) {
    const Tensor *x = obj->u.t;
    Tensor *out = ten_index_get(x, items, n);
    if (!out) return rt_tensor_index_error(I);
    Tensor *ar = ten_arange_in(I->run.ten, 0, (double)x->numel, 1, DT_I64), *pos = ar ? ten_reshape(ar, x->ndim, x->shape) : NULL;
    Tensor *map = pos ? ten_index_get(pos, items, n) : NULL;
    ten_free(ar);
    ten_free(pos);
    if (!map) { ten_free(out); return rt_tensor_index_error(I); }
    AgVal in = {obj->u.t, obj->ag}, r = ag_index_map(&I->run.ag, "IndexBackward0", out, map, 1, &in);
    ten_free(map);
    return ag_value(I, r);
}

/* x[items] recorded for backward: ints (SelectBackward0), slices (SliceBackward0) and None (UnsqueezeBackward0) one
 * dimension after another, as PyTorch records them, ... skipping dims; with an index tensor, IndexBackward0. */
static Value *ag_index_read(Interp *I, Value *obj, const IndexItem *items, int n) {
    if (ag_view_check(&I->run.ag, obj->ag) < 0) return rt_tensor_error(I);       /* a stale part of split */
    for (int i = 0; i < n; i++)
        if (items[i].kind == IX_TENSOR) return ag_index_advanced(I, obj, items, n);
    AgContext *c = &I->run.ag;
    AgVal cur = {obj->u.t, obj->ag};
    bool owned = false;
    int d = 0;
    for (int i = 0; i < n; i++) {
        AgVal next;
        if (items[i].kind == IX_ELLIPSIS) {          /* the dims the items after it do not take */
            int later = 0;
            for (int j = i + 1; j < n; j++) later += items[j].kind == IX_INT || items[j].kind == IX_SLICE;
            if (cur.t->ndim - later > d) d = cur.t->ndim - later;
            continue;
        }
        if (items[i].kind == IX_NEWAXIS) {
            next = ag_unsqueeze(c, cur, d++);
        } else if (items[i].kind == IX_INT) {
            if (d >= cur.t->ndim) { if (owned) ag_val_free(cur); return rt_raise(I, "IndexError", "too many indices for tensor of dimension %d", obj->u.t->ndim); }
            next = ag_select(c, cur, d, items[i].i);
        } else if (items[i].kind == IX_SLICE) {
            if (d >= cur.t->ndim) { if (owned) ag_val_free(cur); return rt_raise(I, "IndexError", "too many indices for tensor of dimension %d", obj->u.t->ndim); }
            next = ag_slice(c, cur, d++, items[i].start, items[i].stop, items[i].step, items[i].has_start, items[i].has_stop);
        } else {
            if (owned) ag_val_free(cur);
            return ag_refuse(I, "this indexing");
        }
        if (owned) ag_val_free(cur);
        if (!next.t) { ag_meta_unref(next.m); return rt_tensor_index_error(I); }
        cur = next;
        owned = true;
    }
    if (!owned) return val_incref(obj);
    return val_tensor_ag(cur.t, cur.m);
}

Value *ops_index(Interp *I, Value *obj, Value *index) {
    switch (obj->kind) {
    case V_TENSOR: {
        IndexItem items[2 * TEN_MAX_DIMS];
        Tensor *tmps[2 * TEN_MAX_DIMS] = {0};
        int n = tensor_items(I, index, items, tmps);
        if (n >= 0 && ag_records(I, obj, NULL)) {
            Value *v = ag_index_read(I, obj, items, n);
            for (int i = 0; i < 2 * TEN_MAX_DIMS; i++) ten_free(tmps[i]);
            return v;
        }
        Tensor *r = n < 0 ? NULL : ten_index_get(obj->u.t, items, n);
        for (int i = 0; i < 2 * TEN_MAX_DIMS; i++) ten_free(tmps[i]);
        if (n < 0) return NULL;
        if (!r) return rt_tensor_index_error(I);
        /* a view (z[0]) knows its base, for an in-place op that records later (ag_view_link) */
        return val_tensor_ag(r, ag_view_link(&I->run.ag, r, &obj->ag, obj->u.t));
    }
    case V_DICTVIEW:                                        /* Python 3's views are not lists: list(d.keys())[0] */
        return rt_raise(I, "TypeError", "'%s' object is not subscriptable (list(d.%s())[i] indexes a list of them)", val_type_name(obj),
                        obj->u.view.which == VIEW_KEYS ? "keys" : obj->u.view.which == VIEW_VALUES ? "values" : "items");
    case V_LIST: case V_TUPLE: case V_STR: {
        if (index->kind == V_SLICE) return seq_slice(I, obj, index);
        int64_t i;
        if (!seq_place(I, obj, index, false, &i)) return NULL;
        if (obj->kind == V_STR) return val_str_char(obj, i);
        return val_incref(obj->u.seq.items[i]);
    }
    case V_RANGE: {
        int64_t i;
        if (!index_int(I, index, &i)) return NULL;
        uint64_t n = val_range_count(obj);
        uint64_t k = i >= 0 ? (uint64_t)i : n - (0 - (uint64_t)i);     /* -i may be 2**63 */
        if ((i >= 0 && k >= n) || (i < 0 && (0 - (uint64_t)i) > n)) return rt_raise(I, "IndexError", "range object index out of range");
        return val_int(val_range_at(obj, k));
    }
    case V_DICT: {
        int i;
        int64_t h;
        if (!ops_dict_find_hash(I, obj->u.dict, index, &h, &i)) return NULL;
        Value *factory = obj->u.dict->factory;
        if (i < 0 && obj->u.dict->default_dict && (!factory || factory->kind != V_NONE)) {
            /* defaultdict: the missing key gets default_factory() ({} for an optimizer's state), as __missing__ */
            val_incref(obj);                               /* the factory may drop every other reference */
            val_incref(index);
            Value *fresh = factory ? val_incref(factory) : NULL;
            if (factory) {
                Args fa = {NULL, 0, NULL, NULL, 0, NULL, NULL};
                Value *made = interp_call(I, factory, &fa);
                val_decref(fresh);
                fresh = made;
            } else fresh = val_dict();
            if (fresh && ops_dict_store(I, obj->u.dict, index, fresh, h) < 0) { val_decref(fresh); fresh = NULL; }
            val_decref(index);
            val_decref(obj);
            return fresh;
        }
        return i >= 0 ? val_incref(obj->u.dict->vals[i]) : ops_key_error(I, index);
    }
    default:
        if (obj->kind == V_OBJECT && obj->u.obj.cls->getitem) return obj->u.obj.cls->getitem(I, obj, index);
        if (class_has_special(obj, "__getitem__")) return class_call_special(I, obj, "__getitem__", &index, 1);
        Found f = {0};
        if (obj->kind == V_OBJECT && obj->u.obj.klass && class_find(obj->u.obj.klass, "__getitem__", NULL, &f) && f.b) {
            Value *args[2] = {obj, index};              /* a built-in base's (torch's Dataset: NotImplementedError) */
            Args a = {args, 2, NULL, NULL, 0, "__getitem__", f.b};
            return f.b->fn(I, &a);
        }
        return rt_raise(I, "TypeError", "'%s' object is not subscriptable", val_type_name(obj));
    }
}

/* x[a:b] = iterable (Python's list slice assignment): with step 1 the slice is replaced by the items, however many;
 * with another step there must be as many items as the slice picks. The items are read before the list changes, so
 * x[:] = x and x[1:] = reversed(x) work as in Python. */
static int list_set_slice(Interp *I, Value *obj, Value *sl, Value *v) {
    int64_t a, step, cnt, n = obj->u.seq.n;
    if (!slice_span(I, n, sl, &a, &step, &cnt)) return -1;
    if (!ops_is_iterable(v)) {                                   /* Python's words for x[0:1] = 5 */
        rt_raise(I, "TypeError", step == 1 ? "can only assign an iterable" : "must assign iterable to extended slice");
        return -1;
    }
    Value *src = ops_to_list(I, v);
    if (!src) return -1;
    int64_t m = src->u.seq.n;
    if (step != 1) {
        if (m != cnt) {
            rt_raise(I, "ValueError", "attempt to assign sequence of size %lld to extended slice of size %lld", (long long)m, (long long)cnt);
            val_decref(src);
            return -1;
        }
        for (int64_t k = 0; k < cnt; k++) val_seq_set(obj, a + k * step, val_incref(src->u.seq.items[k]));
        val_decref(src);
        return 0;
    }
    /* step 1: items [a, a + cnt) give way to src's m items (cnt is 0 when the stop is before the start: an insertion) */
    Value *nl = val_list(0);
    for (int64_t i = 0; i < a; i++) val_list_append(nl, val_incref(obj->u.seq.items[i]));
    for (int64_t k = 0; k < m; k++) val_list_append(nl, val_incref(src->u.seq.items[k]));
    for (int64_t i = a + cnt; i < n; i++) val_list_append(nl, val_incref(obj->u.seq.items[i]));
    Value **items = obj->u.seq.items;            /* obj takes nl's items; nl, released, takes the old ones along */
    int64_t on = obj->u.seq.n, ocap = obj->u.seq.cap;
    obj->u.seq.items = nl->u.seq.items;
    obj->u.seq.n = nl->u.seq.n;
    obj->u.seq.cap = nl->u.seq.cap;
    nl->u.seq.items = items;
    nl->u.seq.n = on;
    nl->u.seq.cap = ocap;
    val_decref(nl);
    val_decref(src);
    return 0;
}

int ops_set_index(Interp *I, Value *obj, Value *index, Value *v) {
    if (obj->kind == V_TENSOR) {
        IndexItem items[2 * TEN_MAX_DIMS];
        Tensor *tmps[2 * TEN_MAX_DIMS] = {0};
        Tensor *tv = NULL;
        int rc = -1;
        int n = tensor_items(I, index, items, tmps);
        if (n >= 0) {
            Tensor *src = val_is_number(v) ? (tv = ops_number_tensor_in(I->run.ten, v)) : arg_tensor(I, v, "the assigned value", &tv);
            bool basic = true;
            for (int i = 0; i < n; i++) basic = basic && items[i].kind != IX_TENSOR;
            if (src && basic && ag_check_inplace(&I->run.ag, obj->ag, true) < 0) {
                rt_tensor_error(I);                  /* PyTorch writes x[0] through a view: "a view of a leaf ..." */
            } else if (src && (obj->ag || (v->kind == V_TENSOR && v->ag))) {
                /* autograd's write: refused on a leaf that requires grad, history rebased (CopySlices) */
                AgVal av = {src, v->kind == V_TENSOR ? v->ag : NULL};
                rc = ag_index_put_(&I->run.ag, obj->u.t, &obj->ag, items, n, av, v->kind != V_TENSOR);
                if (rc < 0) rt_tensor_index_error(I);
            } else if (src) {
                rc = ten_index_set(obj->u.t, items, n, src);
                if (rc < 0) rt_tensor_index_error(I);
            } else if (!interp_failed(I)) rt_tensor_error(I);
        }
        for (int i = 0; i < 2 * TEN_MAX_DIMS; i++) ten_free(tmps[i]);
        ten_free(tv);
        return rc;
    }
    if (obj->kind == V_LIST && index->kind == V_SLICE) return list_set_slice(I, obj, index, v);
    if (obj->kind == V_LIST) {
        int64_t i;
        if (!seq_place(I, obj, index, true, &i)) return -1;
        val_seq_set(obj, i, val_incref(v));
        return 0;
    }
    if (obj->kind == V_DICT) {
        int64_t hash;
        if (!pyset_hash(I, index, &hash)) return -1;          /* Python's "unhashable type: 'list'" */
        return ops_dict_store(I, obj->u.dict, index, v, hash);
    }
    if (class_has_special(obj, "__setitem__")) {             /* a student's obj[index] = v */
        Value *args[2] = {index, v}, *r = class_call_special(I, obj, "__setitem__", args, 2);
        val_decref(r);
        return r ? 0 : -1;
    }
    rt_raise(I, "TypeError", "'%s' object does not support item assignment", val_type_name(obj));
    return -1;
}

/* ---- attributes ---- */


/* The data attributes of a tensor, in tensor_attr's order. */
static const char *const tensor_attrs[] = {"shape", "dtype", "ndim", "T", "mT", "data", "device", "requires_grad", "grad", "grad_fn", "is_leaf", "is_cuda", NULL};

static Value *tensor_attr(Interp *I, Value *obj, const char *name) {
    Tensor *t = obj->u.t;
    if (!strcmp(name, "shape")) return val_size(t->shape, t->ndim);
    if (!strcmp(name, "dtype")) return val_dtype(t->dtype);
    if (!strcmp(name, "ndim")) return val_int(t->ndim);
    if (!strcmp(name, "T") || !strcmp(name, "mT")) {
        if (!strcmp(name, "mT") && t->ndim < 2) return rt_error(I, "tensor.mT is only for tensors of 2 or more dimensions");
        if (ag_records(I, obj, NULL)) {               /* mT: TransposeBackward0; T: PermuteBackward0, as PyTorch */
            if (!strcmp(name, "mT")) return ag_value(I, ag_transpose(&I->run.ag, (AgVal){t, obj->ag}, -2, -1));
            int dims[TEN_MAX_DIMS];
            for (int i = 0; i < t->ndim; i++) dims[i] = t->ndim - 1 - i;
            return ag_value(I, ag_permute(&I->run.ag, (AgVal){t, obj->ag}, dims));
        }
        Tensor *r;
        if (!strcmp(name, "mT")) r = ten_transpose(t, -2, -1);
        else {
            int dims[TEN_MAX_DIMS];
            for (int i = 0; i < t->ndim; i++) dims[i] = t->ndim - 1 - i;
            r = ten_permute(t, dims);
        }
        return r ? val_tensor(r) : rt_tensor_error(I);
    }
    if (!strcmp(name, "data")) {                   /* detached, with a version counter of its own (PyTorch) */
        Tensor *d = ten_alias_new_version(t);
        return d ? val_tensor(d) : rt_tensor_error(I);
    }
    if (!strcmp(name, "_version")) return val_int(ten_version(t));    /* the storage's in-place write count */
    if (!strcmp(name, "device")) return lib()->module_attr("torch", "cpu_device");
    Value *ag = lib()->tensor_attr(I, obj, name);
    if (ag || interp_failed(I)) return ag;
    if (!strcmp(name, "is_cuda")) return val_bool(false);
    const Builtin *m = lib()->find_method(name);
    if (m) return val_method(obj, m);
    static const char *const autograd[] = {"register_hook", NULL};
    for (int i = 0; autograd[i]; i++)
        if (!strcmp(name, autograd[i]))
            return rt_error(I, "X.%s is not in attn yet (its autograd has no hooks)", name);
    if (!strcmp(name, "cuda")) return rt_error(I, "attn runs on the CPU only: there is no GPU (.cuda() is not available)");
    const char *why = lib()->missing("Tensor", name);
    if (why) return rt_error(I, "%s", why);
    return ops_no_attribute(I, obj, "'Tensor' object", name);
}

static const Builtin *find_in(const Builtin *tbl, const char *name) {
    for (; tbl && tbl->name; tbl++) if (!strcmp(tbl->name, name)) return tbl;
    return NULL;
}


static void table_names(const Builtin *tbl, void (*add)(void *, const char *), void *ctx) {
    for (const Builtin *b = tbl; b && b->name; b++) add(ctx, b->name);
}

/* d.keys().mapping: Python's mappingproxy, a read-only view of the dict (held as its hidden attribute "dict"): it prints
 * as mappingproxy({...}) (str() as the dict), indexes, has len and in, iterates the keys, and has the dict's keys, values, items, get and
 * copy; item assignment is Python's TypeError. */
static const char *const proxy_methods[] = {"keys", "values", "items", "get", "copy", NULL};
static void proxy_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    sb_puts(out, "mappingproxy(");
    if (val_repr_part(I, out, val_attr_get(self, "dict"), depth + 1)) sb_putc(out, ')');
}
static void proxy_str(Interp *I, StrBuf *out, Value *self) { val_str_part(I, out, val_attr_get(self, "dict")); }     /* str(): the dict's */
static Value *proxy_getattr(Interp *I, Value *self, const char *name) {
    for (int i = 0; proxy_methods[i]; i++)
        if (!strcmp(name, proxy_methods[i])) return val_method(val_attr_get(self, "dict"), find_in(lib()->dict_methods, name));
    return rt_raise(I, "AttributeError", "'mappingproxy' object has no attribute '%s'", name);
}
static int proxy_setattr(Interp *I, Value *self, const char *name, Value *v) {
    (void)self;
    (void)v;
    rt_raise(I, "AttributeError", "'mappingproxy' object has no attribute '%s'", name);
    return -1;
}
static Value *proxy_getitem(Interp *I, Value *self, Value *index) { return ops_index(I, val_attr_get(self, "dict"), index); }
static int64_t proxy_len(Value *self) { return val_attr_get(self, "dict")->u.dict->n; }
static Value *proxy_iter(Interp *I, Value *self) { return ops_iter(I, val_attr_get(self, "dict")); }
static Value *proxy_dict(Value *self) { return val_attr_get(self, "dict"); }      /* m == d: the dict's == (Python's) */
static const ObjClass mappingproxy_class = {.name = "mappingproxy", .repr = proxy_repr, .str = proxy_str, .getattr = proxy_getattr,
                                            .setattr = proxy_setattr, .getitem = proxy_getitem, .len = proxy_len, .iter = proxy_iter,
                                            .eq_as = proxy_dict};

/* The names a student's __dir__ gives (Python's dir() on an instance whose class defines one), each passed to add:
 * 1, or -1 with the error set on I (it raised, returned no iterable, or an item that is no string). */
static int student_dir(Interp *I, const Value *obj, void (*add)(void *ctx, const char *name), void *ctx) {
    Value *r = class_call_special(I, obj, "__dir__", NULL, 0);
    if (!r) return -1;
    Value *l = ops_to_list(I, r);
    val_decref(r);
    if (!l) return -1;
    for (int64_t i = 0; i < l->u.seq.n; i++)
        if (l->u.seq.items[i]->kind != V_STR) {
            rt_raise(I, "TypeError", "dir(): __dir__ returned a %s among its names; attn lists names as strings",
                     val_type_name(l->u.seq.items[i]));
            val_decref(l);
            return -1;
        }
    for (int64_t i = 0; i < l->u.seq.n; i++) add(ctx, l->u.seq.items[i]->u.str.s);
    val_decref(l);
    return 1;
}

static void attr_names(const Value *obj, void (*add)(void *ctx, const char *name), void *ctx);

int ops_attr_names(Interp *I, const Value *obj, void (*add)(void *ctx, const char *name), void *ctx) {
    if (I && class_is_instance(obj) && class_has_special(obj, "__dir__")) return student_dir(I, obj, add, ctx);
    attr_names(obj, add, ctx);
    return 0;
}

/* What dir() of a class statement's class lists besides its own names (Python 3.11): dir(object), and the
 * __dict__, __module__ and __weakref__ the class statement adds. */
static const char *const object_names[] = {
    "__class__", "__delattr__", "__dict__", "__dir__", "__doc__", "__eq__", "__format__", "__ge__", "__getattribute__",
    "__getstate__", "__gt__", "__hash__", "__init__", "__init_subclass__", "__le__", "__lt__", "__module__", "__ne__",
    "__new__", "__reduce__", "__reduce_ex__", "__repr__", "__setattr__", "__sizeof__", "__str__", "__subclasshook__",
    "__weakref__", NULL};

static void attr_names(const Value *obj, void (*add)(void *ctx, const char *name), void *ctx) {
    int n;
    switch (obj->kind) {
    case V_TENSOR: {
        for (int i = 0; tensor_attrs[i]; i++) add(ctx, tensor_attrs[i]);
        const Builtin *const *ms = lib()->all_methods(&n);
        for (int i = 0; i < n; i++) add(ctx, ms[i]->name);
        for (int i = 0; lib()->tensor_method_aliases[i]; i++) add(ctx, lib()->tensor_method_aliases[i]);
        break;
    }
    case V_MODULE: lib()->module_names(obj->u.module, add, ctx); break;
    case V_OBJECT:
        if (builtin_iterator(obj)) break;
        if (obj->u.obj.cls == &mappingproxy_class) { for (int i = 0; proxy_methods[i]; i++) add(ctx, proxy_methods[i]); break; }
        for (int i = 0; i < obj->u.obj.attrs.n; i++) add(ctx, obj->u.obj.attrs.keys[i]->u.str.s);
        table_names(obj->u.obj.cls->methods, add, ctx);
        if (obj->u.obj.klass) attr_names(obj->u.obj.klass, add, ctx);
        else if (obj->u.obj.cls->is_module) table_names(lib()->module_methods, add, ctx);
        break;
    case V_CLASS:       /* the names of the class and its bases: methods, class attributes, attn's methods, object's */
        for (int i = 0; object_names[i]; i++) add(ctx, object_names[i]);
        for (int k = 0; k < obj->u.cls->nmro; k++) {
            const ClassInfo *c = obj->u.cls->mro[k]->u.cls;
            for (int i = 0; i < c->attrs.n; i++) add(ctx, c->attrs.keys[i]->u.str.s);
            table_names(c->methods, add, ctx);
        }
        break;
    case V_STR: table_names(lib()->str_methods, add, ctx); break;
    case V_FUNC: for (int i = 0; i < obj->u.func->attrs.n; i++) add(ctx, obj->u.func->attrs.keys[i]->u.str.s); break;
    case V_LIST: table_names(lib()->list_methods, add, ctx); break;
    case V_DICTVIEW:
        add(ctx, "mapping");
        if (val_is_set_like(obj)) table_names(lib()->view_methods, add, ctx);
        break;
    case V_DICT: table_names(lib()->dict_methods, add, ctx); break;
    case V_SET: table_names(lib()->set_methods, add, ctx); break;
    case V_BUILTIN: {       /* dir(set), dir(str) ...: the methods of the type's values */
        const char *t = obj->u.builtin->name;
        if (!lib()->type_module(obj->u.builtin, NULL)) break;
        const Builtin *m = !strcmp(t, "str") ? lib()->str_methods : !strcmp(t, "list") ? lib()->list_methods :
                           !strcmp(t, "dict") ? lib()->dict_methods : !strcmp(t, "set") ? lib()->set_methods : NULL;
        for (; m && m->name; m++) if (strcmp(m->name, "numel")) add(ctx, m->name);     /* numel: torch.Size's */
        break;
    }
    case V_TUPLE:
        add(ctx, "index");
        add(ctx, "count");
        if (obj->u.seq.is_size) add(ctx, "numel");
        for (int i = 0; obj->u.seq.named && i < obj->u.seq.named->nfields; i++) add(ctx, obj->u.seq.named->fields[i]);
        break;
    default: break;
    }
}

struct peek { const char *want; bool found; };
static void peek_offer(void *ctx, const char *name) {
    struct peek *p = ctx;
    if (!strcmp(p->want, name)) p->found = true;
}
Value *ops_attr_peek(Value *obj, const char *name) {
    if (obj->kind != V_OBJECT) return NULL;
    struct peek p = {name, false};
    ops_attr_names(NULL, obj, peek_offer, &p);
    return p.found ? val_attr_get(obj, name) : NULL;
}

/* "'Tensor' object has no attribute 'sofmax' (did you mean 'softmax'?)": `what` is how the message names obj. */
Value *ops_no_attribute(Interp *I, const Value *obj, const char *what, const char *name) {
    Suggest sg;
    suggest_init(&sg, name);
    ops_attr_names(NULL, obj, suggest_offer, &sg);
    const char *tail = obj->kind == V_MODULE ? " (type help to see what attn has)" : "";
    if (obj->kind == V_DICT && !obj->u.dict->n && find_in(lib()->set_methods, name))      /* s = {} then s.add(x) */
        tail = " ({} is an empty dict: an empty set is set())";
    if (sg.best) rt_raise(I, "AttributeError", "%s has no attribute '%s' (did you mean '%s'?)", what, name, sg.best);
    else rt_raise(I, "AttributeError", "%s has no attribute '%s'%s", what, name, tail);
    if (sg.best || *tail) {                      /* except AttributeError as e: Python's words, without attn's hint */
        StrBuf words;
        sb_init(&words);
        sb_printf(&words, "%s has no attribute '%s'", what, name);
        Value *w = val_str(sb_str(&words));
        pyexc_set_arg(I, w);
        val_decref(w);
        sb_free(&words);
    }
    return NULL;
}

Value *ops_object_getattr(Interp *I, Value *obj, const char *name) {
    Value *v = val_attr_get(obj, name);
    if (v) return val_incref(v);
    const Builtin *m = find_in(obj->u.obj.cls->methods, name);
    if (!m && obj->u.obj.cls->is_module) m = find_in(lib()->module_methods, name);
    if (m) return val_method(obj, m);
    char what[160];
    snprintf(what, sizeof what, "'%s' object", obj->u.obj.cls->name);
    return ops_no_attribute(I, obj, what, name);
}

Value *ops_getattr(Interp *I, Value *obj, const char *name) {
    switch (obj->kind) {
    case V_TENSOR: return tensor_attr(I, obj, name);
    case V_MODULE: {
        Value *c = lib()->module_attr(obj->u.module, name);
        if (c) return c;
        const char *why = lib()->missing(obj->u.module, name);
        if (why) return rt_error(I, "%s", why);
        char what[160];
        snprintf(what, sizeof what, "module '%s'", obj->u.module);
        return ops_no_attribute(I, obj, what, name);
    }
    case V_OBJECT:
        if (obj->u.obj.cls->getattr) return obj->u.obj.cls->getattr(I, obj, name);
        return ops_object_getattr(I, obj, name);
    case V_CLASS: return class_getattr(I, obj, name);
    case V_STR: { const Builtin *m = find_in(lib()->str_methods, name); if (m) return val_method(obj, m); break; }
    case V_LIST: {
        const Builtin *m = find_in(lib()->list_methods, name);
        if (m) return val_method(obj, m);
        break;
    }
    case V_DICTVIEW: {      /* keys and items views: isdisjoint; every view: mapping */
        const Builtin *m = val_is_set_like(obj) ? find_in(lib()->view_methods, name) : NULL;
        if (m) return val_method(obj, m);
        if (!strcmp(name, "mapping") && obj->u.view.dict) {
            Value *proxy = val_object(&mappingproxy_class);
            val_attr_set(proxy, "dict", val_incref(obj->u.view.dict));
            return proxy;
        }
        break;
    }
    case V_DICT: {
        const Builtin *m = find_in(lib()->dict_methods, name);
        if (m) return val_method(obj, m);
        if (!strcmp(name, "fromkeys")) return val_builtin(lib()->dict_fromkeys);
        break;
    }
    case V_SET: {       /* a frozenset has the methods that do not change it */
        const Builtin *m = find_in(lib()->set_methods, name);
        if (m && !(obj->u.set->frozen && lib()->set_method_changes(m))) return val_method(obj, m);
        break;
    }
    case V_TUPLE:
        if (val_named_field(obj, name)) return val_incref(val_named_field(obj, name));
        if (obj->u.seq.is_size && !strcmp(name, "numel")) {
            const Builtin *m = find_in(lib()->list_methods, "numel");
            if (m) return val_method(obj, m);
        }
        { const Builtin *m = find_in(lib()->list_methods, name); if (m && (!strcmp(name, "index") || !strcmp(name, "count"))) return val_method(obj, m); }
        break;
    case V_DTYPE:
        if (!strcmp(name, "is_floating_point")) return val_bool(ten_is_float(obj->u.dtype));
        break;
    case V_SLICE: {         /* s.start, s.stop, s.step: what a student's __getitem__ reads of obj[a:b:c] */
        Value *part = !strcmp(name, "start") ? obj->u.slice.start : !strcmp(name, "stop") ? obj->u.slice.stop
                    : !strcmp(name, "step") ? obj->u.slice.step : NULL;
        if (part) return val_incref(part);
        if (!strcmp(name, "start") || !strcmp(name, "stop") || !strcmp(name, "step")) return val_none();
        break;
    }
    case V_FLOAT:
        if (!strcmp(name, "is_integer")) return val_bool(obj->u.f == floor(obj->u.f));
        break;
    case V_FUNC: {
        if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__")) return val_str(obj->u.func->name);
        if (!strcmp(name, "__doc__")) {
            Node *body = obj->u.func->def->kids[1];
            if (obj->u.func->def->kind == N_DEF && body->nkids && body->kids[0]->kind == N_EXPR_STMT && body->kids[0]->kids[0]->kind == N_STR)
                return val_strn(body->kids[0]->kids[0]->str, body->kids[0]->kids[0]->slen);
            return val_none();
        }
        Value *own = dict_get(&obj->u.func->attrs, name);      /* f.x = 1 earlier */
        if (own) return val_incref(own);
        break;
    }
    case V_METHOD:
        if (!strcmp(name, "__self__")) return val_incref(obj->u.method.self);
        if (!strcmp(name, "__func__") && obj->u.method.func) return val_incref(obj->u.method.func);
        if (!strcmp(name, "__name__")) return val_str(obj->u.method.func ? obj->u.method.func->u.func->name : obj->u.method.fn->name);
        break;
    case V_BUILTIN: {
        const Builtin *m = lib()->type_method(obj->u.builtin, name);      /* str.upper, set.union, dict.fromkeys */
        if (m) return val_builtin(m);
        if (!strcmp(name, "__name__")) return val_str(obj->u.builtin->name);
        if (!strcmp(name, "__doc__")) return val_str(obj->u.builtin->help);
        const char *module = NULL;                  /* a type's: int.__module__ 'builtins', OrderedDict's 'collections' */
        if (lib()->type_module(obj->u.builtin, &module) && module) {
            if (!strcmp(name, "__qualname__")) return val_str(obj->u.builtin->name);
            if (!strcmp(name, "__module__")) return val_str(module);
        }
        break;
    }
    default: break;
    }
    char what[160];
    snprintf(what, sizeof what, "'%s' object", val_type_name(obj));
    return ops_no_attribute(I, obj, what, name);
}

int ops_setattr(Interp *I, Value *obj, const char *name, Value *v) {
    if (obj->kind == V_OBJECT) {
        if (obj->u.obj.cls->setattr) return obj->u.obj.cls->setattr(I, obj, name, v);
        return object_setattr(I, obj, name, v);
    }
    if (obj->kind == V_CLASS) return class_setattr(I, obj, name, v);
    if (obj->kind == V_FUNC && !strcmp(name, "__name__") && v->kind == V_STR) {
        free(obj->u.func->name);
        obj->u.func->name = xstrdup(v->u.str.s);
        return 0;
    }
    if (obj->kind == V_TENSOR) {
        int rc = lib()->tensor_setattr(I, obj, name, v);
        if (rc <= 0) return rc;
    }
    if (obj->kind == V_BUILTIN && !strcmp(val_type_name(obj), "type"))     /* int.x = 1 */
        rt_raise(I, "TypeError", "cannot set '%s' attribute of immutable type '%s'", name, obj->u.builtin->name);
    else if (obj->kind == V_FUNC && strncmp(name, "__", 2)) {     /* f.x = 1: Python's function attributes */
        dict_set(&obj->u.func->attrs, name, val_incref(v));
        return 0;
    }
    else if (obj->kind == V_FUNC || obj->kind == V_TENSOR)   /* Python allows these; attn keeps no such attributes */
        rt_raise(I, "AttributeError", "cannot set attribute '%s' of a %s", name, val_type_name(obj));
    else rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", val_type_name(obj), name);
    return -1;
}

int ops_del_index(Interp *I, Value *obj, Value *index) {
    if (obj->kind == V_LIST && index->kind != V_SLICE) {
        int64_t k, len = obj->u.seq.n;
        if (!seq_place(I, obj, index, true, &k)) return -1;      /* the place x[i] = v assigns */
        Value *gone = obj->u.seq.items[k];
        memmove(obj->u.seq.items + k, obj->u.seq.items + k + 1, sizeof(Value *) * (size_t)(len - k - 1));
        obj->u.seq.n--;
        val_decref(gone);
        return 0;
    }
    if (obj->kind == V_LIST && index->kind == V_SLICE) {
        int64_t a, step, cnt, n = obj->u.seq.n, w = 0;
        if (!slice_span(I, n, index, &a, &step, &cnt)) return -1;
        if (step < 0) { a += (cnt - 1) * step; step = -step; }     /* the same items, first to last */
        Value **it = obj->u.seq.items, **gone = xmalloc(sizeof(Value *) * (size_t)(cnt ? cnt : 1));
        for (int64_t i = 0, k = 0; i < n; i++) {
            if (k < cnt && i == a + k * step) gone[k++] = it[i];
            else it[w++] = it[i];
        }
        obj->u.seq.n = w;
        for (int64_t k = 0; k < cnt; k++) val_decref(gone[k]);
        free(gone);
        return 0;
    }
    if (obj->kind == V_DICT) {
        int i;
        if (!ops_dict_find(I, obj->u.dict, index, &i)) return -1;
        if (i < 0) { ops_key_error(I, index); return -1; }
        dict_del_at(obj->u.dict, i);
        return 0;
    }
    if (obj->kind == V_TENSOR) rt_error(I, "cannot delete elements of a tensor (a tensor's shape is fixed: index the part to keep, e.g. X[1:])");
    else if (class_has_special(obj, "__delitem__")) {          /* a student's del obj[index] */
        Value *r = class_call_special(I, obj, "__delitem__", &index, 1);
        val_decref(r);
        return r ? 0 : -1;
    }
    else rt_raise(I, "TypeError", "'%s' object doesn't support item deletion", val_type_name(obj));
    return -1;
}

int ops_delattr(Interp *I, Value *obj, const char *name) {
    char what[160];
    Dict *d = NULL;
    if (obj->kind == V_OBJECT && obj->u.obj.klass) {
        d = &obj->u.obj.attrs;
        snprintf(what, sizeof what, "'%s' object", val_type_name(obj));
    } else if (obj->kind == V_FUNC) {
        d = &obj->u.func->attrs;
        snprintf(what, sizeof what, "'function' object");
    } else if (obj->kind == V_CLASS && obj->u.cls->user) {
        d = &obj->u.cls->attrs;
        snprintf(what, sizeof what, "type object '%s'", obj->u.cls->name);
    }
    if (obj->kind == V_OBJECT && obj->u.obj.cls == &mappingproxy_class) return proxy_setattr(I, obj, name, NULL);
    if (!d) {
        rt_raise(I, "AttributeError", "cannot delete attribute '%s' of %s%s: attn's built-in %s keep their attributes (assign a new value instead)",
                 name, obj->kind == V_MODULE ? "module " : "a ", obj->kind == V_MODULE ? obj->u.module : val_type_name(obj),
                 obj->kind == V_MODULE ? "modules" : "objects");
        return -1;
    }
    if (dict_del(d, name)) return 0;
    ops_no_attribute(I, obj, what, name);
    return -1;
}

Value *ops_len(Interp *I, Value *v) {
    switch (v->kind) {
    case V_STR: return val_int(v->u.str.chars);
    case V_LIST: case V_TUPLE: return val_int(v->u.seq.n);
    case V_DICTVIEW: return val_int(val_view_len(v));
    case V_DICT: return val_int(v->u.dict->n);
    case V_SET: return val_int(v->u.set->used);
    case V_RANGE: {
        uint64_t n = val_range_count(v);
        if (n > INT64_MAX) return rt_error(I, "len() of a range of %llu values: more than attn's integers hold (2**63-1)", (unsigned long long)n);
        return val_int((int64_t)n);
    }
    case V_TENSOR:
        if (v->u.t->ndim == 0) return rt_error(I, "len() of a 0-d tensor");
        return val_int(v->u.t->shape[0]);
    default: {
        if (v->kind == V_OBJECT && v->u.obj.cls->len) return val_int(v->u.obj.cls->len(v));
        int64_t n;
        bool defined;
        if (!class_len(I, v, &defined, &n)) return NULL;    /* a student's __len__ raised */
        if (defined) return val_int(n);
        return rt_raise(I, "TypeError", "object of type '%s' has no len()", val_type_name(v));
    }
    }
}

/* ---- iteration ---- */

/* The length of a sequence as it is now (a list grows and shrinks while it is walked; a range longer than 2**63-1
 * counts as 2**63-1, more than any loop may run) and its i-th item (a dict's i-th key, a tensor's i-th row), a new
 * reference; NULL when i is past the end. */
static int64_t seq_len(const Value *s) {
    switch (s->kind) {
    case V_LIST: case V_TUPLE: return s->u.seq.n;
    case V_DICTVIEW: return val_view_len(s);                 /* its dict's length now */
    case V_STR: return s->u.str.chars;
    case V_DICT: return s->u.dict->n;
    case V_SET: return s->u.set->used;
    case V_RANGE: { uint64_t c = val_range_count(s); return c > INT64_MAX ? INT64_MAX : (int64_t)c; }
    case V_TENSOR: return s->u.t->ndim ? s->u.t->shape[0] : 0;
    default: return 0;
    }
}
static Value *seq_item(Interp *I, Value *s, int64_t i) {
    if (i < 0 || i >= seq_len(s)) return NULL;
    switch (s->kind) {
    case V_LIST: case V_TUPLE: return val_incref(s->u.seq.items[i]);
    case V_DICTVIEW: return val_view_item(s, i);
    case V_STR: return val_str_char(s, i);
    case V_RANGE: return val_int(val_range_at(s, (uint64_t)i));
    case V_DICT: return val_incref(s->u.dict->keys[i]);
    case V_TENSOR: {
        /* PyTorch iterates by unbind (UnbindBackward0), which attn's autograd has not got: refused, never detached */
        if (ag_records(I, s, NULL)) return ag_refuse(I, "iterating over a tensor (for row in X, a, b = X)");
        IndexItem item = {.kind = IX_INT, .i = i};
        Tensor *row = ten_index_get(s->u.t, &item, 1);
        return row ? val_tensor(row) : rt_tensor_error(I);
    }
    default: return NULL;
    }
}

#define DICT_CHANGED "dictionary changed size during iteration"
#define SET_CHANGED "Set changed size during iteration"
static int64_t container_size(const Value *s) { return s->kind == V_SET ? s->u.set->used : s->kind == V_DICT ? s->u.dict->n : val_view_len(s); }
static bool sized(const Value *s) { return s->kind == V_DICT || s->kind == V_SET || s->kind == V_DICTVIEW; }

/* Python 3's single-pass iterators, built-in objects whose state lives in hidden attributes (they show none:
 * ops_attr_names lists nothing for them and getattr finds nothing):
 *   iter(x) (list_iterator ...) and reversed(x): "src" (what it walks) and "pos" (the next place, counting down for
 *     reversed); "size" for a dict (its length when the iterator was made: Python's RuntimeError when it changed).
 *     "src" is dropped once exhausted, so it stays exhausted.
 *   map(f, *its), filter(f, it), zip(*its), enumerate(it, start): "fn", "its" (a tuple of the arguments' iterators)
 *     and, for enumerate, "pos" (the next count).
 * Nothing is computed before it is asked for (Python's laziness): map's function runs as its items are consumed,
 * and each step reads one item from each argument, so zip(it, it) pairs neighbours as in Python. */
typedef enum { IK_SEQ, IK_REVERSED, IK_MAP, IK_FILTER, IK_ZIP, IK_ENUMERATE, IK_GETITEM, IK_GENERATOR } IterKind;
static void iterator_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    sb_printf(out, "<%s object at %p>", self->u.obj.cls->name, (void *)self);
}
/* Python's repr of a generator expression's generator (the address is attn's) */
static void generator_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    sb_printf(out, "<generator object <genexpr> at %p>", (void *)self);
}
static Value *iterator_getattr(Interp *I, Value *self, const char *name) {
    return rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", self->u.obj.cls->name, name);
}
static int iterator_setattr(Interp *I, Value *self, const char *name, Value *v) {
    (void)v;
    rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", self->u.obj.cls->name, name);
    return -1;
}
#define ITERATOR_CLASS(n) {.name = n, .repr = iterator_repr, .getattr = iterator_getattr, .setattr = iterator_setattr}
enum { IC_LIST, IC_TUPLE, IC_STR, IC_USTR, IC_RANGE, IC_DICT, IC_DICT_VALUES, IC_DICT_ITEMS, IC_SET, IC_REVERSED, IC_LIST_REV,
       IC_DICT_REV, IC_DICT_VALUES_REV, IC_DICT_ITEMS_REV, IC_RANGE_REV, IC_MAP, IC_FILTER, IC_ZIP, IC_ENUMERATE, IC_GETITEM, IC_GETITEM_REV, IC_GENERATOR, N_ITERATOR_CLASSES };
static const ObjClass iterator_classes[N_ITERATOR_CLASSES] = {
    [IC_LIST] = ITERATOR_CLASS("list_iterator"), [IC_TUPLE] = ITERATOR_CLASS("tuple_iterator"),
    [IC_STR] = ITERATOR_CLASS("str_ascii_iterator"), [IC_USTR] = ITERATOR_CLASS("str_iterator"),
    [IC_RANGE] = ITERATOR_CLASS("range_iterator"),
    [IC_DICT] = ITERATOR_CLASS("dict_keyiterator"), [IC_DICT_VALUES] = ITERATOR_CLASS("dict_valueiterator"),
    [IC_DICT_ITEMS] = ITERATOR_CLASS("dict_itemiterator"), [IC_SET] = ITERATOR_CLASS("set_iterator"), [IC_REVERSED] = ITERATOR_CLASS("reversed"),
    [IC_LIST_REV] = ITERATOR_CLASS("list_reverseiterator"), [IC_DICT_REV] = ITERATOR_CLASS("dict_reversekeyiterator"),
    [IC_DICT_VALUES_REV] = ITERATOR_CLASS("dict_reversevalueiterator"), [IC_DICT_ITEMS_REV] = ITERATOR_CLASS("dict_reverseitemiterator"),
    [IC_RANGE_REV] = ITERATOR_CLASS("range_iterator"), [IC_MAP] = ITERATOR_CLASS("map"),
    [IC_FILTER] = ITERATOR_CLASS("filter"), [IC_ZIP] = ITERATOR_CLASS("zip"), [IC_ENUMERATE] = ITERATOR_CLASS("enumerate"),
    [IC_GETITEM] = ITERATOR_CLASS("iterator"), [IC_GETITEM_REV] = ITERATOR_CLASS("reversed"),
    [IC_GENERATOR] = {.name = "generator", .repr = generator_repr, .getattr = iterator_getattr, .setattr = iterator_setattr},
};
static const IterKind iterator_kinds[N_ITERATOR_CLASSES] = {
    [IC_LIST] = IK_SEQ, [IC_TUPLE] = IK_SEQ, [IC_STR] = IK_SEQ, [IC_USTR] = IK_SEQ, [IC_RANGE] = IK_SEQ, [IC_DICT] = IK_SEQ,
    [IC_DICT_VALUES] = IK_SEQ, [IC_DICT_ITEMS] = IK_SEQ, [IC_SET] = IK_SEQ, [IC_REVERSED] = IK_REVERSED, [IC_LIST_REV] = IK_REVERSED,
    [IC_DICT_REV] = IK_REVERSED, [IC_DICT_VALUES_REV] = IK_REVERSED, [IC_DICT_ITEMS_REV] = IK_REVERSED, [IC_RANGE_REV] = IK_REVERSED,
    [IC_MAP] = IK_MAP, [IC_FILTER] = IK_FILTER, [IC_ZIP] = IK_ZIP, [IC_ENUMERATE] = IK_ENUMERATE, [IC_GETITEM] = IK_GETITEM, [IC_GETITEM_REV] = IK_GETITEM,
    [IC_GENERATOR] = IK_GENERATOR,
};

/* Whether v is one of attn's own iterators (above) */
static bool builtin_iterator(const Value *v) {
    return v->kind == V_OBJECT && v->u.obj.cls >= iterator_classes && v->u.obj.cls < iterator_classes + N_ITERATOR_CLASSES;
}

bool ops_is_iterator(const Value *v) { return builtin_iterator(v) || class_has_special(v, "__next__"); }

/* iter(obj) for an instance of a student's class: its __iter__'s result, which must be an iterator (CPython's
 * TypeError otherwise), else Python's sequence iterator over its __getitem__ (obj[0], obj[1] ... until IndexError). */
static Value *student_iter(Interp *I, Value *obj) {
    if (!class_has_special(obj, "__iter__")) {
        Value *it = val_object(&iterator_classes[IC_GETITEM]);
        val_attr_set(it, "src", val_incref(obj));
        val_attr_set(it, "pos", val_int(0));
        return it;
    }
    Value *r = class_call_special(I, obj, "__iter__", NULL, 0);
    if (r && !ops_is_iterator(r)) {
        rt_raise(I, "TypeError", "iter() returned non-iterator of type '%s'", val_type_name(r));
        val_decref(r);
        return NULL;
    }
    return r;
}

/* The next item of a student's iterator (its __next__) or of the sequence iterator over a student's __getitem__
 * (forward, or backward from len - 1 for reversed(): IC_GETITEM_REV): NULL at the end (its StopIteration, or the
 * IndexError that ends a __getitem__ walk, is dropped; a backward walk ends below 0) or with the error it raised set. */
static Value *student_next(Interp *I, Value *self, bool getitem) {
    Value *src = getitem ? val_attr_get(self, "src") : self;
    if (!src) return NULL;
    bool back = getitem && self->u.obj.cls == &iterator_classes[IC_GETITEM_REV];
    Value *pos = getitem ? val_attr_get(self, "pos") : NULL, *r;
    if (back && pos->u.i < 0) { dict_del(&self->u.obj.attrs, "src"); return NULL; }
    if (getitem) r = ops_call_special(I, src, "__getitem__", &pos, 1);
    else if (!class_has_special(self, "__next__")) return rt_raise(I, "TypeError", "'%s' object is not an iterator", val_type_name(self));
    else r = ops_call_special(I, self, "__next__", NULL, 0);
    if (r) {
        /* the place as it is now (CPython's it_index++): a __getitem__ that stepped this iterator itself replaced
         * (and freed) the pos it was called with */
        if (getitem) { pos = val_attr_get(self, "pos"); val_attr_set(self, "pos", val_int((pos && pos->kind == V_INT ? pos->u.i : 0) + (back ? -1 : 1))); }
        return r;
    }
    if (interp_error_kind(I) == ERR_ERROR && (pyexc_matches(I->error.etype, "StopIteration") ||
                                              (getitem && pyexc_matches(I->error.etype, "IndexError")))) {
        interp_clear_error(I);
        if (getitem) dict_del(&self->u.obj.attrs, "src");   /* exhausted stays exhausted */
    }
    return NULL;
}

/* An iterator of class ic walking src from place pos (forward for IK_SEQ classes, backward for the reversed ones). */
static Value *walker(int ic, Value *src, int64_t pos) {
    Value *it = val_object(&iterator_classes[ic]);
    val_attr_set(it, "src", val_incref(src));
    val_attr_set(it, "pos", val_int(pos));
    if (sized(src)) val_attr_set(it, "size", val_int(container_size(src)));
    return it;
}

Value *ops_iter(Interp *I, Value *src) {
    if (builtin_iterator(src)) return val_incref(src);       /* iter(it) is it */
    if (src->kind == V_OBJECT && src->u.obj.cls->iter) return src->u.obj.cls->iter(I, src);
    if (class_has_special(src, "__iter__") || class_has_special(src, "__getitem__")) return student_iter(I, src);
    if (!ops_is_iterable(src)) return rt_raise(I, "TypeError", "'%s' object is not iterable", val_type_name(src));
    if (src->kind == V_TENSOR && src->u.t->ndim == 0) return rt_error(I, "iteration over a 0-d tensor");
    if (src->kind == V_STR) return walker(src->u.str.chars == (int64_t)src->u.str.len ? IC_STR : IC_USTR, src, 0);   /* Python's two */
    if (src->kind == V_DICTVIEW)       /* Python's dict_keyiterator, dict_valueiterator, dict_itemiterator */
        return walker(src->u.view.which == VIEW_KEYS ? IC_DICT : src->u.view.which == VIEW_VALUES ? IC_DICT_VALUES : IC_DICT_ITEMS, src, 0);
    return walker(src->kind == V_LIST ? IC_LIST : src->kind == V_RANGE ? IC_RANGE :
                  src->kind == V_DICT ? IC_DICT : src->kind == V_SET ? IC_SET : IC_TUPLE, src, 0);
}

Value *ops_reversed(Interp *I, Value *src) {
    switch (src->kind) {
    case V_RANGE: return walker(IC_RANGE_REV, src, seq_len(src) - 1);     /* Python's type: range_iterator */
    case V_LIST: return walker(IC_LIST_REV, src, src->u.seq.n - 1);
    case V_TUPLE: case V_STR: return walker(IC_REVERSED, src, seq_len(src) - 1);
    case V_DICT: return walker(IC_DICT_REV, src, src->u.dict->n - 1);
    case V_DICTVIEW:
        return walker(src->u.view.which == VIEW_KEYS ? IC_DICT_REV : src->u.view.which == VIEW_VALUES ? IC_DICT_VALUES_REV : IC_DICT_ITEMS_REV,
                      src, val_view_len(src) - 1);
    case V_TENSOR: {       /* PyTorch's Tensor.__reversed__ is flip(0): a tensor, not an iterator */
        if (src->u.t->ndim == 0) return val_incref(src);
        Tensor *r = ten_flip(src->u.t, 0);
        return r ? val_tensor(r) : rt_tensor_error(I);
    }
    default:
        /* a student's class: its __reversed__, else Python's reversed sequence iterator over __len__ and __getitem__ */
        if (class_has_special(src, "__reversed__")) return ops_call_special(I, src, "__reversed__", NULL, 0);
        if (class_has_special(src, "__getitem__")) {          /* len() raises without __len__, as Python */
            Value *nv = ops_len(I, src);
            if (!nv) return NULL;
            Value *it = val_object(&iterator_classes[IC_GETITEM_REV]);
            val_attr_set(it, "src", val_incref(src));
            val_attr_set(it, "pos", val_int(nv->kind == V_INT ? nv->u.i - 1 : -1));
            val_decref(nv);
            return it;
        }
        return rt_raise(I, "TypeError", "'%s' object is not reversible", val_type_name(src));
    }
}

Value *ops_lazy_iterator(Interp *I, const char *kind, Value *fn, Value *const *args, int nargs, int64_t start) {
    Value *its = val_tuple(nargs);
    for (int i = 0; i < nargs; i++) {
        Value *it = ops_iter(I, args[i]);
        if (!it) { val_decref(its); return NULL; }
        val_seq_set(its, i, it);
    }
    int ic = !strcmp(kind, "map") ? IC_MAP : !strcmp(kind, "filter") ? IC_FILTER : !strcmp(kind, "zip") ? IC_ZIP : IC_ENUMERATE;
    Value *self = val_object(&iterator_classes[ic]);
    if (fn) val_attr_set(self, "fn", val_incref(fn));
    val_attr_set(self, "its", its);
    if (ic == IC_ENUMERATE) val_attr_set(self, "pos", val_int(start));
    return self;
}

Value *ops_generator(Value *fn, Value *first, int nclauses) {
    Value *its = val_list(0);
    val_list_append(its, first);
    for (int i = 1; i < nclauses; i++) val_list_append(its, val_none());
    Value *self = val_object(&iterator_classes[IC_GENERATOR]);
    val_attr_set(self, "fn", fn);
    val_attr_set(self, "its", its);
    val_attr_set(self, "env", val_dict());
    val_attr_set(self, "level", val_int(0));
    return self;
}

/* The next item of a walker (iter(x), reversed(x)); NULL at the end or with the dict's RuntimeError. */
static Value *walker_next(Interp *I, Value *self, bool forward) {
    Value *src = val_attr_get(self, "src"), *pos = val_attr_get(self, "pos"), *size = val_attr_get(self, "size");
    if (!src) return NULL;
    if (size && size->u.i != container_size(src)) {
        val_attr_set(self, "size", val_int(-1));            /* stays broken, as Python's */
        return rt_raise(I, "RuntimeError", src->kind == V_SET ? SET_CHANGED : DICT_CHANGED);
    }
    /* a set: pos is the slot to look from, and pyset_next moves it past the element it finds */
    int64_t i = pos->u.i, next = src->kind == V_SET ? i : forward ? i + 1 : i - 1;
    Value *e = src->kind == V_SET ? val_incref(pyset_next(src, &next)) : seq_item(I, src, i);
    if (e) val_attr_set(self, "pos", val_int(next));
    else if (!interp_failed(I)) dict_del(&self->u.obj.attrs, "src");
    return e;
}

/* NULL, and the StopIteration a function called by map or filter raised dropped: Python's map.__next__ passes it on,
 * so the loop or list() consuming the map ends there, as at the map's end. Any other error stays set. */
static Value *stop_iteration_ends(Interp *I) {
    if (interp_error_kind(I) == ERR_ERROR && pyexc_matches(I->error.etype, "StopIteration")) interp_clear_error(I);
    return NULL;
}

/* The next item of map, filter, zip or enumerate: one item from each of "its" (the arguments' iterators). */
static Value *combined_next(Interp *I, Value *self, IterKind kind) {
    Value *its = val_attr_get(self, "its"), *fn = val_attr_get(self, "fn");
    int n = (int)its->u.seq.n;
    if (n == 0) return NULL;                                /* zip() is empty */
    for (;;) {                                              /* filter: until an item passes */
        Value *t = val_tuple(n);
        for (int i = 0; i < n; i++) {
            Value *e = ops_iterator_next(I, its->u.seq.items[i]);
            if (!e) { val_decref(t); return NULL; }
            val_seq_set(t, i, e);
        }
        switch (kind) {
        case IK_ZIP: return t;
        case IK_ENUMERATE: {
            Value *pos = val_attr_get(self, "pos"), *r = val_tuple(2);
            val_seq_set(r, 0, val_incref(pos));
            val_seq_set(r, 1, val_incref(t->u.seq.items[0]));
            val_decref(t);
            val_attr_set(self, "pos", val_int(pos->u.i + 1));
            return r;
        }
        case IK_MAP: {
            Args fa = {t->u.seq.items, n, NULL, NULL, 0, NULL, NULL};
            Value *r = interp_call(I, fn, &fa);
            val_decref(t);
            return r ? r : stop_iteration_ends(I);
        }
        default: {                                          /* IK_FILTER: fn None keeps the true items */
            Value *x = t->u.seq.items[0], *r = fn->kind == V_NONE ? val_incref(x) : NULL;
            if (!r) {
                Args fa = {&x, 1, NULL, NULL, 0, NULL, NULL};
                r = interp_call(I, fn, &fa);
            }
            bool keep = false, ok = r && interp_truth(I, r, &keep);
            val_decref(r);
            Value *out = ok && keep ? val_incref(x) : NULL;
            val_decref(t);
            if (!ok) return stop_iteration_ends(I);
            if (out) return out;
            if (ten_interrupted) return rt_interrupt(I);
        }
        }
    }
}

Value *ops_iterator_next(Interp *I, Value *self) {
    if (!builtin_iterator(self)) return student_next(I, self, false);
    IterKind kind = iterator_kinds[self->u.obj.cls - iterator_classes];
    if (kind == IK_GETITEM) return student_next(I, self, true);
    if (kind == IK_SEQ || kind == IK_REVERSED) return walker_next(I, self, kind == IK_SEQ);
    /* map(f, map(f, ...)) nested deeper than calls may be: Python's RecursionError, not a C stack overflow */
    if (I->call_depth >= INTERP_MAX_CALL_DEPTH) return rt_raise(I, "RecursionError", "maximum recursion depth exceeded");
    I->call_depth++;
    Value *e = kind == IK_GENERATOR ? interp_genexpr_next(I, self) : combined_next(I, self, kind);
    I->call_depth--;
    return e;
}

bool ops_is_iterable(const Value *v) {
    switch (v->kind) {
    case V_RANGE: case V_LIST: case V_TUPLE: case V_STR: case V_DICT: case V_SET: case V_TENSOR: case V_DICTVIEW: return true;
    case V_OBJECT: return builtin_iterator(v) || v->u.obj.cls->iter || class_has_special(v, "__iter__") || class_has_special(v, "__getitem__");
    default: return false;
    }
}

bool ops_iter_begin(Interp *I, Value *v, Iter *it) {
    it->I = I;
    it->src = NULL;
    it->i = 0;
    if (!ops_is_iterable(v)) {
        rt_raise(I, "TypeError", "'%s' object is not iterable", val_type_name(v));
        return false;
    }
    if (v->kind == V_TENSOR && v->u.t->ndim == 0) { rt_error(I, "iteration over a 0-d tensor"); return false; }
    it->n = v->kind == V_OBJECT ? INT64_MAX : seq_len(v);      /* an iterator: as long as it gives items */
    it->src = v->kind == V_OBJECT && !builtin_iterator(v) ? ops_iter(I, v) : val_incref(v);   /* a container's iterator */
    if (!it->src) return false;
    return true;
}

Value *ops_iter_next(Iter *it) {
    Value *s = it->src;
    if (!s) return NULL;
    if (ten_interrupted) return rt_interrupt(it->I);          /* Ctrl-C stops any walk, set(range(10**15)) too */
    if (s->kind == V_OBJECT) return ops_iterator_next(it->I, s);
    if ((s->kind == V_DICT || s->kind == V_DICTVIEW) && container_size(s) != it->n)
        return rt_raise(it->I, "RuntimeError", DICT_CHANGED);
    if (s->kind == V_SET) {                                    /* it->i: the next slot of the table */
        if (s->u.set->used != it->n) return rt_raise(it->I, "RuntimeError", SET_CHANGED);
        return val_incref(pyset_next(s, &it->i));
    }
    if (s->kind != V_LIST && it->i >= it->n) return NULL;      /* a list: to its length now, as Python's */
    Value *e = seq_item(it->I, s, it->i);
    if (e) it->i++;
    return e;
}

void ops_iter_end(Iter *it) {
    val_decref(it->src);
    it->src = NULL;
}

bool ops_has_special(const Value *v, const char *name) { return class_has_special(v, name); }

Value *ops_call_special(Interp *I, Value *v, const char *name, Value *const *args, int n) {
    Value *r = class_call_special(I, v, name, args, n);
    if (!r && !interp_failed(I)) rt_raise(I, "TypeError", "'%s' object has no method %s", val_type_name(v), name);
    return r;
}

Value *ops_to_list(Interp *I, Value *v) {
    /* list(range(10**9)): refused at once when it cannot fit the memory limit, never grown until killed */
    if (v->kind == V_RANGE) {
        uint64_t n = val_range_count(v);
        if (!interp_memory_ok(I, n > INT64_MAX ? INT64_MAX : (int64_t)n)) return NULL;
    }
    Iter it;
    if (!ops_iter_begin(I, v, &it)) return NULL;
    Value *l = val_list(0), *e;
    /* an iterator object (a student's __next__ or __getitem__ walk, map of a student's function) runs code at each
     * item, as a loop body: the loop limit stops one that never ends, as it stops sum() and a for loop */
    bool walks = it.src && it.src->kind == V_OBJECT;
    for (int64_t k = 0; (e = ops_iter_next(&it)); k++) {
        val_list_append(l, e);
        if (walks && k >= I->max_loop_iterations) {
            rt_error(I, "the iterator gave %lld items: stopped (does it ever end?)", I->max_loop_iterations);
            val_decref(l);
            l = NULL;
            break;
        }
        if (((k & 4095) == 4095 || mem_exhausted) && (ten_interrupted || !interp_memory_ok(I, 4096))) {
            if (ten_interrupted) rt_interrupt(I);
            val_decref(l);
            l = NULL;
            break;
        }
    }
    ops_iter_end(&it);
    if (l && interp_failed(I)) { val_decref(l); l = NULL; }      /* the iterator failed (a map's function) */
    return l;
}

/* ops.c - what + - * / ** @, comparisons and "in" mean for each kind of value: Python's rules for numbers, strings and
 * sequences, PyTorch's for tensors (a Python number next to a tensor is "weak"). Indexing is ops_index.c's,
 * attributes ops_attr.c's, iteration ops_iter.c's. */
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

/* ---- autograd: the operators on tensors that require grad ---- */

/* Does an operation on a (and b, may be NULL) record history: grad mode is on and one of them requires grad. */
bool ag_records(Interp *I, const Value *a, const Value *b) {
    return I->run.ag.grad_enabled && ((a->kind == V_TENSOR && ag_requires_grad(a->ag)) ||
                                      (b && b->kind == V_TENSOR && ag_requires_grad(b->ag)));
}
Value *ag_value(Interp *I, AgVal r) {
    if (!r.t) { ag_meta_unref(r.m); return rt_tensor_error(I); }
    return val_tensor_ag(I->run.heap, r.t, r.m);
}
/* The refusal of an operation autograd cannot differentiate yet (never a result silently detached). */
Value *ag_refuse(Interp *I, const char *what) {
    return rt_error(I, "%s has no gradient in attn yet: an input requires grad (under torch.no_grad(), or on "
                       "x.detach(), it runs)", what);
}

/* a op b recorded for backward: ta, tb are the operands as tensors (a number's 0-dim tensor when *w). */
static Value *ag_tensor_binary(Interp *I, int aop, Value *a, Tensor *ta, bool aw, Value *b, Tensor *tb, bool bw) {
    AgContext *c = &I->run.ag;
    AgVal x = {ta, aw ? NULL : a->ag}, y = {tb, bw ? NULL : b->ag};
    char what[64];
    if (ag_view_check(c, x.m) < 0 || ag_view_check(c, y.m) < 0) return rt_tensor_error(I);   /* a stale part of split */
    if (!aw) ag_meta_claim(a->ag, a);           /* the operands stand for their metadata (x._base, .variable) */
    if (!bw) ag_meta_claim(b->ag, b);
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
    return val_tensor(I->run.heap, r);
}

static Value *int_binary(Interp *I, int aop, int64_t x, int64_t y) {
    int64_t r;
    switch (aop) {
    case AOP_ADD: if (__builtin_add_overflow(x, y, &r)) goto overflow; return val_int(I->run.heap, r);
    case AOP_SUB: if (__builtin_sub_overflow(x, y, &r)) goto overflow; return val_int(I->run.heap, r);
    case AOP_MUL: if (__builtin_mul_overflow(x, y, &r)) goto overflow; return val_int(I->run.heap, r);
    case AOP_DIV:
        if (y == 0) return rt_raise(I, "ZeroDivisionError", "division by zero");
        return val_float(I->run.heap, (double)x / (double)y);
    case AOP_FLOORDIV: case AOP_MOD: {
        if (y == 0) return rt_raise(I, "ZeroDivisionError", aop == AOP_MOD ? "integer modulo by zero" : "integer division or modulo by zero");
        if (x == INT64_MIN && y == -1) goto overflow;
        int64_t q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) { q--; m += y; }
        return val_int(I->run.heap, aop == AOP_FLOORDIV ? q : m);
    }
    case AOP_POW: {
        if (y < 0 && x == 0) return rt_raise(I, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        if (y < 0) return val_float(I->run.heap, pow((double)x, (double)y));
        int64_t base = x, e = y;
        r = 1;
        while (e) {
            if ((e & 1) && __builtin_mul_overflow(r, base, &r)) goto overflow;
            e >>= 1;
            if (e && __builtin_mul_overflow(base, base, &base)) goto overflow;
        }
        return val_int(I->run.heap, r);
    }
    case AOP_BITAND: return val_int(I->run.heap, x & y);
    case AOP_BITOR: return val_int(I->run.heap, x | y);
    case AOP_BITXOR: return val_int(I->run.heap, x ^ y);
    case AOP_LSHIFT:
        if (y < 0) return rt_raise(I, "ValueError", "negative shift count");
        if (y >= 63 || (x != 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y)))) goto overflow;
        return val_int(I->run.heap, (int64_t)((uint64_t)x << y));
    case AOP_RSHIFT:
        if (y < 0) return rt_raise(I, "ValueError", "negative shift count");
        return val_int(I->run.heap, y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
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
    case AOP_ADD: return val_float(I->run.heap, x + y);
    case AOP_SUB: return val_float(I->run.heap, x - y);
    case AOP_MUL: return val_float(I->run.heap, x * y);
    case AOP_DIV: if (y == 0) return rt_raise(I, "ZeroDivisionError", "float division by zero"); return val_float(I->run.heap, x / y);
    case AOP_FLOORDIV: case AOP_MOD: {
        if (y == 0) return rt_raise(I, "ZeroDivisionError", aop == AOP_MOD ? "float modulo" : "float floor division by zero");
        double q, m;
        float_divmod(x, y, &q, &m);
        return val_float(I->run.heap, aop == AOP_MOD ? m : q);
    }
    case AOP_POW:
        if (x < 0 && y != floor(y)) return rt_error(I, "a negative number to a fractional power is complex: not supported");
        if (x == 0 && y < 0) return rt_raise(I, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        if (isfinite(x) && isfinite(y) && isinf(pow(x, y))) return rt_raise(I, "OverflowError", "(34, 'Numerical result out of range')");
        return val_float(I->run.heap, pow(x, y));
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
    Value *r = val_seq_try(I->run.heap, a->kind, n);
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
    return val_str_take_chars(I->run.heap, r, (size_t)total, s->u.str.chars * k);
}

/* s * k (k * s), Python's: empty at once when s is empty or k <= 0; MemoryError before anything is built when the
 * result would pass attn's memory limit (or the machine's); Ctrl-C stops a long one. */
static Value *seq_repeat(Interp *I, Value *s, int64_t k) {
    int64_t len = s->kind == V_STR ? (int64_t)s->u.str.len : s->u.seq.n;
    if (k <= 0 || len == 0) return s->kind == V_STR ? val_strn(I->run.heap, "", 0) : s->kind == V_LIST ? val_list(I->run.heap, 0) : val_tuple(I->run.heap, 0);
    if (s->kind == V_STR) return str_repeat(I, s, k);
    if (k > INT64_MAX / (int64_t)sizeof(Value *) / len || !interp_bytes_ok(I, len * k * (int64_t)sizeof(Value *))) return NULL;
    Value *r = val_seq_try(I->run.heap, s->kind, len * k);
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
    Value *r = pyset_new(I->run.heap);
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
    if (set_op && set_view(b) && !(class_is_instance(a) && class_has_special(I, a, aop_forward_name(aop))))
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
        return val_str_take_n(I->run.heap, s, a->u.str.len + b->u.str.len);
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

/* a op= b: for a tensor, PyTorch's in-place operator (x += 1 writes into x's storage, so views of x see it; the
 * result must keep x's shape and dtype). A list is extended in place (ops_list_extend) and a set updated, as Python's;
 * everything else rebinds. */
Value *ops_inplace(Interp *I, int aop, Value *a, Value *b) {
    if (a->kind == V_SET && b->kind == V_SET && !a->u.set->frozen && (aop == AOP_BITOR || aop == AOP_BITAND || aop == AOP_SUB || aop == AOP_BITXOR))
        return pyset_op_update(I, aop, a, b) < 0 ? NULL : val_incref(a);      /* s |= t changes s, as Python's */
    if (class_is_instance(a)) return class_binary(I, aop, a, b, true);
    if (a->kind == V_DICTVIEW && !(set_view(a) && (aop == AOP_BITOR || aop == AOP_BITAND || aop == AOP_SUB || aop == AOP_BITXOR)))
        return rt_raise(I, "TypeError", "unsupported operand type(s) for %s=: '%s' and '%s'", ast_op_symbol(aop), val_type_name(a), val_type_name(b));
    if (a->kind == V_LIST && aop == AOP_ADD) return ops_list_extend(I, a, b) < 0 ? NULL : val_incref(a);   /* list.__iadd__ */
    if (a->kind != V_TENSOR || aop == AOP_MATMUL) return ops_binary(I, aop, a, b);
    bool records = I->run.ag.grad_enabled && (ag_requires_grad(a->ag) || (b->kind == V_TENSOR && ag_requires_grad(b->ag)));
    Value *r;
    if (records) {
        /* recorded as PyTorch's x.add_(y): the op on a copy of x carrying x's history (so what it saves of x keeps
         * x's old values), whose node becomes x's history (ag_inplace_assign) */
        if (ag_inplace_check(&I->run.ag, a->ag) < 0) return rt_tensor_error(I);
        Tensor *copy = ten_copy(a->u.t);
        if (!copy) return rt_tensor_error(I);
        Value *ac = val_tensor_ag(I->run.heap, copy, a->ag ? ag_meta_ref(a->ag) : NULL);
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
        return r ? val_tensor(I->run.heap, r) : rt_tensor_error(I);
    }
    if (a->kind == V_INT || a->kind == V_BOOL) {
        int64_t x = a->kind == V_INT ? a->u.i : a->u.b;
        if (aop == AOP_NEG) { if (x == INT64_MIN) return rt_error(I, "integer overflow"); return val_int(I->run.heap, -x); }
        if (aop == AOP_POS) return val_int(I->run.heap, x);
        return val_int(I->run.heap, ~x);
    }
    if (a->kind == V_FLOAT && aop != AOP_INVERT) return val_float(I->run.heap, aop == AOP_NEG ? -a->u.f : a->u.f);
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
        return val_bool(I->run.heap, strstr(container->u.str.s, x->u.str.s) != NULL);
    }
    if (container->kind == V_DICTVIEW && !container->u.view.dict) return val_bool(I->run.heap, false);
    if (container->kind == V_DICT || (container->kind == V_DICTVIEW && container->u.view.which == VIEW_KEYS)) {
        Dict *d = container->kind == V_DICT ? container->u.dict : container->u.view.dict->u.dict;
        int i;
        return ops_dict_find(I, d, x, &i) ? val_bool(I->run.heap, i >= 0) : NULL;
    }
    if (container->kind == V_DICTVIEW && container->u.view.which == VIEW_ITEMS) {   /* (k, v) in d.items(): k, then v == d[k] */
        if (x->kind != V_TUPLE || x->u.seq.n != 2) return val_bool(I->run.heap, false);
        Dict *d = container->u.view.dict->u.dict;
        int i;
        if (!ops_dict_find(I, d, x->u.seq.items[0], &i)) return NULL;
        if (i < 0) return val_bool(I->run.heap, false);
        Value *stored = val_incref(d->vals[i]), *want = val_incref(x->u.seq.items[1]);
        bool eq = true, ok = stored == want || val_eq(I, stored, want, &eq);
        val_decref(stored);
        val_decref(want);
        return ok ? val_bool(I->run.heap, eq) : NULL;
    }
    if (container->kind == V_SET) {
        int r = pyset_contains(I, container, x);
        return r < 0 ? NULL : val_bool(I->run.heap, r);
    }
    if (container->kind == V_TENSOR) {
        Value *s = ops_item(x);
        if (!val_is_number(s)) { val_decref(s); return rt_error(I, "'in' on a tensor needs a number on the left"); }
        double v = val_as_double(s);
        val_decref(s);
        for (int64_t i = 0; i < container->u.t->numel; i++) if (ten_get(container->u.t, i) == v) return val_bool(I->run.heap, true);
        return val_bool(I->run.heap, false);
    }
    if (class_has_special(I, container, "__contains__")) {     /* a student's x in obj: the truth of its __contains__ */
        Value *r = class_call_special(I, container, "__contains__", &x, 1);
        bool t = false, ok = r && interp_truth(I, r, &t);
        val_decref(r);
        return ok ? val_bool(I->run.heap, t) : NULL;
    }
    if (!ops_is_iterable(I, container)) return rt_raise(I, "TypeError", "argument of type '%s' is not iterable", val_type_name(container));
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
    return interp_failed(I) ? NULL : val_bool(I->run.heap, found);
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
    return rc < 0 ? NULL : val_bool(I->run.heap, rc == 1);
}

Value *ops_compare(Interp *I, int aop, Value *a, Value *b) {
    switch (aop) {
    case AOP_IS: case AOP_ISNOT: {
        /* identity; attn makes None, booleans, modules and builtins as values on demand, so those compare by what
         * they are (nn is torch.nn, F.softmax is torch.softmax) */
        bool same = a == b || (a->kind == b->kind && (a->kind == V_NONE || (a->kind == V_BOOL && a->u.b == b->u.b) ||
                    (a->kind == V_MODULE && !strcmp(a->u.module, b->u.module)) || (a->kind == V_BUILTIN && a->u.builtin == b->u.builtin)));
        return val_bool(I->run.heap, aop == AOP_IS ? same : !same);
    }
    case AOP_IN: return contains(I, b, a);
    case AOP_NOTIN: {
        Value *r = contains(I, b, a);
        if (!r) return NULL;
        bool v = !r->u.b;
        val_decref(r);
        return val_bool(I->run.heap, v);
    }
    default: break;
    }
    if (class_is_instance(a) || class_is_instance(b)) return class_richcompare(I, aop, a, b);
    if (a->kind == V_TENSOR || b->kind == V_TENSOR) {
        if ((aop == AOP_EQ || aop == AOP_NE) && !(val_is_number(a) || a->kind == V_TENSOR) ) return val_bool(I->run.heap, aop == AOP_NE);
        if ((aop == AOP_EQ || aop == AOP_NE) && !(val_is_number(b) || b->kind == V_TENSOR)) return val_bool(I->run.heap, aop == AOP_NE);
        return tensor_binary(I, aop, a, b);
    }
    if ((a->kind == V_DICTVIEW || b->kind == V_DICTVIEW) && aop != AOP_EQ && aop != AOP_NE) return view_order(I, aop, a, b);
    if (a->kind == V_SET && b->kind == V_SET && aop != AOP_EQ && aop != AOP_NE) {     /* subset and superset */
        Value *x = aop == AOP_LT || aop == AOP_LE ? a : b, *y = x == a ? b : a;
        int sub = pyset_subset(I, x, y);
        if (sub < 0) return NULL;
        bool strict = aop == AOP_LT || aop == AOP_GT;
        return val_bool(I->run.heap, sub == 1 && (!strict || x->u.set->used < y->u.set->used));
    }
    if (aop == AOP_EQ || aop == AOP_NE) {
        bool eq;
        if (!val_eq(I, a, b, &eq)) return NULL;            /* a student's __eq__ raised, Ctrl-C, too deep */
        return val_bool(I->run.heap, eq == (aop == AOP_EQ));
    }
    int c;
    if (val_is_number(a) && val_is_number(b)) {
        if (a->kind != V_FLOAT && b->kind != V_FLOAT) {
            int64_t x = a->kind == V_INT ? a->u.i : a->u.b, y = b->kind == V_INT ? b->u.i : b->u.b;
            c = x < y ? -1 : x > y;
        } else {
            double x = val_as_double(a), y = val_as_double(b);
            if (isnan(x) || isnan(y)) return val_bool(I->run.heap, false);
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
            /* [[[...]]] < [[[...]]]: one level of C stack per level of nesting, counted on the interpreter's one
             * depth counter (eval's), so nesting inside deep calls is bounded by the same limit */
            if (I->depth >= INTERP_MAX_DEPTH) return rt_raise(I, "RecursionError", "maximum recursion depth exceeded in comparison");
            I->depth++;
            Value *x = val_incref(a->u.seq.items[i]), *y = val_incref(b->u.seq.items[i]);
            Value *r = ops_compare(I, aop, x, y);
            val_decref(x);
            val_decref(y);
            I->depth--;
            return r;
        }
    } else {
        if (a->kind == V_SET || b->kind == V_SET)            /* Python's words */
            return rt_raise(I, "TypeError", "'%s' not supported between instances of '%s' and '%s'", ast_op_symbol(aop), val_type_name(a), val_type_name(b));
        return rt_raise(I, "TypeError", "'%s' not supported between instances of '%s' and '%s'", ast_op_symbol(aop), val_type_name(a), val_type_name(b));
    }
    switch (aop) {
    case AOP_LT: return val_bool(I->run.heap, c < 0);
    case AOP_LE: return val_bool(I->run.heap, c <= 0);
    case AOP_GT: return val_bool(I->run.heap, c > 0);
    default: return val_bool(I->run.heap, c >= 0);
    }
}

Value *ops_item(Value *v) {
    if (v->kind == V_TENSOR && v->u.t->numel == 1) {
        if (ten_is_float(v->u.t->dtype)) return val_float(v->heap, ten_get(v->u.t, 0));
        if (v->u.t->dtype == DT_BOOL) return val_bool(v->heap, ten_get(v->u.t, 0) != 0);
        return val_int(v->heap, ten_i64(v->u.t)[0]);
    }
    return val_incref(v);
}

Value *ops_len(Interp *I, Value *v) {
    switch (v->kind) {
    case V_STR: return val_int(I->run.heap, v->u.str.chars);
    case V_LIST: case V_TUPLE: return val_int(I->run.heap, v->u.seq.n);
    case V_DICTVIEW: return val_int(I->run.heap, val_view_len(v));
    case V_DICT: return val_int(I->run.heap, v->u.dict->n);
    case V_SET: return val_int(I->run.heap, v->u.set->used);
    case V_RANGE: {
        uint64_t n = val_range_count(v);
        if (n > INT64_MAX) return rt_error(I, "len() of a range of %llu values: more than attn's integers hold (2**63-1)", (unsigned long long)n);
        return val_int(I->run.heap, (int64_t)n);
    }
    case V_TENSOR:
        if (v->u.t->ndim == 0) return rt_error(I, "len() of a 0-d tensor");
        return val_int(I->run.heap, v->u.t->shape[0]);
    default: {
        if (v->kind == V_OBJECT && v->u.obj.cls->len) return val_int(I->run.heap, v->u.obj.cls->len(v));
        int64_t n;
        bool defined;
        if (!class_len(I, v, &defined, &n)) return NULL;    /* a student's __len__ raised */
        if (defined) return val_int(I->run.heap, n);
        return rt_raise(I, "TypeError", "object of type '%s' has no len()", val_type_name(v));
    }
    }
}

bool ops_has_special(Interp *I, const Value *v, const char *name) { return class_has_special(I, v, name); }

Value *ops_call_special(Interp *I, Value *v, const char *name, Value *const *args, int n) {
    Value *r = class_call_special(I, v, name, args, n);
    if (!r && !interp_failed(I)) rt_raise(I, "TypeError", "'%s' object has no method %s", val_type_name(v), name);
    return r;
}


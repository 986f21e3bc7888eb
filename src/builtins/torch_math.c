/* torch_math.c - elementwise functions, matrix products, reductions, softmax and comparisons of torch. Each
 * function takes the tensor first, so the same C function serves torch.f(X, ...) and the method X.f(...). */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



/* The tensor argument `input` (position 0): a tensor only, as PyTorch declares it, refused in the words accept says
 * (ARG_OVERLOADED for a call more than one of its declarations could take), into *held, which the caller releases. */
static Tensor *input_tensor(Interp *I, Args *a, unsigned accept, ArgTensor *held) {
    *held = (ArgTensor){.t = NULL, .own = NULL, .weak = false};
    Value *x = arg(a, 0, "input");
    if (!x) { rt_error(I, "%s() missing its tensor argument", a->fname); return NULL; }
    return arg_tensor(I, a, x, "input", accept, held);
}

/* sin, cos, exp, ... : tag is the UnOp. */
static Value *bi_unary(Interp *I, Args *a) {
    Value *in;
    if (!args_bind(I, a, &in, 1)) return NULL;
    if (in && in->kind == V_TENSOR && grad_recording(I, 1, &in)) {
        switch ((UnOp)a->fn->tag) {
        case UOP_NEG: case UOP_EXP: case UOP_LOG: case UOP_SQRT: case UOP_SIN: case UOP_COS: case UOP_TANH:
        case UOP_SIGMOID: case UOP_RELU:
            return ret_ag(I, ag_unary(&I->run.ag, (UnOp)a->fn->tag, arg_ag(in)));
        case UOP_ABS: return ret_ag(I, ag_abs(&I->run.ag, arg_ag(in)));
        default: break;                 /* the others: refused after the call (ag_after_call) */
        }
    }
    ArgTensor tmp; Tensor *x = input_tensor(I, a, ARG_TENSOR, &tmp);
    if (!x) return NULL;
    Tensor *r = ten_unary((UnOp)a->fn->tag, x);
    arg_tensor_release(&tmp);
    return rt_tensor_result(I, r);
}

/* What operand pos (0 input, 1 other) of the binary op takes, as PyTorch 1.13 declares it: add, sub, mul and div
 * allow Python numbers (weak) on either side; remainder and floor_divide too, with Scalar overloads; the comparisons
 * a number as other only; maximum, minimum, atan2 and the logical ops a tensor only. No op takes a list. */
static unsigned operand_accept(BinOp op, int pos, bool rounding) {
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: return ARG_NUMBER;
    case OP_DIV: return ARG_NUMBER | (rounding ? ARG_OVERLOADED : 0);
    case OP_MOD: case OP_FLOORDIV: return ARG_NUMBER | ARG_OVERLOADED;
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: return ARG_OVERLOADED | (pos ? ARG_NUMBER : 0);
    default: return ARG_TENSOR;
    }
}

/* x + alpha * y (tag OP_ADD) or x - alpha * y: PyTorch computes it in the result dtype with one rounding (a fused
 * multiply-add); integer tensors take only an integer alpha and stay integers. */
static Tensor *add_alpha(Interp *I, BinOp op, Tensor *X, bool xw, Tensor *Y, bool yw, Value *alpha) {
    DType rt = ten_result_type(X, xw, Y, yw);
    if (!val_is_number(alpha)) { rt_error(I, "alpha must be a number, not %s", val_type_name(alpha)); return NULL; }
    if (!ten_is_float(rt) && alpha->kind == V_FLOAT) {
        rt_error(I, "For integral input tensors, argument alpha must not be a floating point number.");
        return NULL;
    }
    if (rt == DT_BOOL && alpha->kind == V_INT && alpha->u.i != 0 && alpha->u.i != 1) {
        rt_error(I, "Boolean alpha only supported for Boolean results.");
        return NULL;
    }
    Tensor *s = ops_number_tensor_in(I->run.ten, alpha), *r = NULL;
    if (!s) {
        rt_tensor_error(I);
        return NULL;
    }
    if (!ten_is_float(rt)) {
        Tensor *scaled = ten_binary(OP_MUL, Y, yw, s, true);
        r = scaled ? ten_binary(op, X, xw, scaled, yw) : NULL;
        ten_free(scaled);
    } else {
        /* in float64, where alpha * y of float32 values is exact, then rounded once to the result dtype */
        Tensor *x64 = ten_cast(X, DT_F64), *y64 = ten_cast(Y, DT_F64);
        Tensor *p = x64 && y64 ? ten_binary(OP_MUL, y64, false, s, true) : NULL;
        Tensor *r64 = p ? ten_binary(op, x64, false, p, false) : NULL;
        r = r64 ? ten_cast(r64, rt) : NULL;
        ten_free(x64); ten_free(y64); ten_free(p); ten_free(r64);
    }
    ten_free(s);
    return r;
}

/* div(x, y, rounding_mode='trunc' or 'floor'): the quotient rounded toward zero or down, in the result dtype (ints
 * stay ints, unlike plain division). */
static Tensor *div_rounding(Interp *I, Tensor *X, bool xw, Tensor *Y, bool yw, Value *mode) {
    if (mode->kind != V_STR || (strcmp(mode->u.str.s, "trunc") && strcmp(mode->u.str.s, "floor"))) {
        StrBuf b;
        sb_init(&b);
        val_repr_quiet(I, &b, mode);
        rt_error(I, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found %s", sb_str(&b));
        sb_free(&b);
        return NULL;
    }
    return ten_binary(strcmp(mode->u.str.s, "trunc") ? OP_FLOORDIV : OP_DIV_TRUNC, X, xw, Y, yw);
}

/* add, sub, mul, div, maximum, ... : tag is the BinOp. Python numbers stay weak, as in PyTorch. */
static Value *bi_binary(Interp *I, Args *a) {
    Value *p[3];                 /* input, other, and alpha (add, sub) or rounding_mode (div), as the entry declares */
    if (!args_bind(I, a, p, 3)) return NULL;
    Value *x = p[0], *y = p[1];
    Value *alpha = a->fn->tag == OP_ADD || a->fn->tag == OP_SUB ? p[2] : NULL, *mode = a->fn->tag == OP_DIV ? p[2] : NULL;
    BinOp op = (BinOp)a->fn->tag;
    bool rounding = mode && mode->kind != V_NONE;
    ArgTensor tx = {0}, ty = {0};
    Tensor *X = arg_tensor(I, a, x, "input", operand_accept(op, 0, rounding), &tx);
    Tensor *Y = X ? arg_tensor(I, a, y, "other", operand_accept(op, 1, rounding), &ty) : NULL;
    bool xw = tx.weak, yw = ty.weak;
    Tensor *r = NULL;
    Value *xy[2] = {x, y};
    if (X && Y && !alpha && (!mode || mode->kind == V_NONE) && (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_DIV) &&
        grad_recording(I, 2, xy)) {            /* torch.add / X.mul ...: recorded as the operators are */
        AgVal r2 = ag_binary(&I->run.ag, op, (AgVal){X, x->kind == V_TENSOR ? x->ag : NULL}, xw,
                             (AgVal){Y, y->kind == V_TENSOR ? y->ag : NULL}, yw);
        arg_tensor_release(&tx);
        arg_tensor_release(&ty);
        return ret_ag(I, r2);
    }
    if (X && Y) {
        if (alpha) r = add_alpha(I, (BinOp)a->fn->tag, X, xw, Y, yw, alpha);
        else if (mode && mode->kind != V_NONE) r = div_rounding(I, X, xw, Y, yw, mode);
        else r = ten_binary((BinOp)a->fn->tag, X, xw, Y, yw);
    }
    arg_tensor_release(&tx);
    arg_tensor_release(&ty);
    if (interp_failed(I)) { ten_free(r); return NULL; }
    return rt_tensor_result(I, r);
}

/* matmul / mm / bmm / dot / outer: tag 0 matmul, 1 mm, 2 bmm, 3 dot, 4 outer */
static Value *bi_matmul(Interp *I, Args *a) {
    Value *p[2];                 /* input and other, mat2 (mm, bmm) or vec2 (outer), as the entry declares */
    if (!args_bind(I, a, p, 2)) return NULL;
    Value *x = p[0], *y = p[1];
    if (x->kind != V_TENSOR || y->kind != V_TENSOR) {       /* PyTorch's names: mm's and bmm's mat2, dot's tensor, outer's vec2 */
        static const char *const other[] = {"other", "mat2", "mat2", "tensor", "vec2"};
        return arg_not_tensor(I, a, x->kind != V_TENSOR ? x : y, x->kind != V_TENSOR ? "input" : other[a->fn->tag], ARG_TENSOR);
    }
    Tensor *X = x->u.t, *Y = y->u.t;
    Value *xy[2] = {x, y};
    if (grad_recording(I, 2, xy) && (a->fn->tag == 0 || a->fn->tag == 1 || a->fn->tag == 2)) {
        if (a->fn->tag == 1 && (X->ndim != 2 || Y->ndim != 2)) return rt_error(I, "mm() needs two 2-D matrices, got %dD and %dD (use matmul or bmm)", X->ndim, Y->ndim);
        AgContext *c = &I->run.ag;
        return ret_ag(I, a->fn->tag == 0 ? ag_matmul(c, arg_ag(x), arg_ag(y)) : a->fn->tag == 1 ? ag_mm(c, arg_ag(x), arg_ag(y))
                                                                                               : ag_bmm(c, arg_ag(x), arg_ag(y)));
    }
    switch (a->fn->tag) {
    case 1:
        if (X->ndim != 2 || Y->ndim != 2) return rt_error(I, "mm() needs two 2-D matrices, got %dD and %dD (use matmul or bmm)", X->ndim, Y->ndim);
        return rt_tensor_result(I, ten_matmul(X, Y));
    case 2: return rt_tensor_result(I, ten_bmm(X, Y));
    case 3:
        if (X->ndim != 1 || Y->ndim != 1) return rt_error(I, "dot() needs two 1-D tensors, got %dD and %dD", X->ndim, Y->ndim);
        return rt_tensor_result(I, ten_matmul(X, Y));
    case 4: {
        if (X->ndim != 1 || Y->ndim != 1) return rt_error(I, "outer() needs two 1-D tensors");
        int64_t c[2] = {X->shape[0], 1}, r[2] = {1, Y->shape[0]};
        Tensor *xc = ten_reshape(X, 2, c), *yr = ten_reshape(Y, 2, r);
        Tensor *o = xc && yr ? ten_binary(OP_MUL, xc, false, yr, false) : NULL;
        ten_free(xc);
        ten_free(yr);
        return rt_tensor_result(I, o);
    }
    default: return rt_tensor_result(I, ten_matmul(X, Y));
    }
}

/* A dim= for a tensor of ndim dims, as an int (the kernels check its range). */
static bool get_dim(Interp *I, Value *d, int ndim, int *out) {
    int64_t x;
    if (!arg_int(I, d, "dim", &x) || !dim_fits(I, x, ndim)) return false;
    *out = (int)x;
    return true;
}

bool cast_to_dtype_kw(Interp *I, Args *a, Tensor **x, ArgTensor *held) {
    bool has;
    DType dt;
    if (!get_dtype(I, a, &has, &dt)) { arg_tensor_release(held); return false; }
    if (!has || dt == (*x)->dtype) return true;
    Tensor *c = ten_cast(*x, dt);
    arg_tensor_release(held);
    held->t = held->own = *x = c;
    if (!c) { rt_tensor_error(I); return false; }
    return true;
}

/* sum, mean, max, min, argmax, argmin, prod, std, var, any, all over dim (an int or a tuple) or everything. */
/* x.sum() / x.mean() over everything or over dim (an int or a tuple), recorded for backward. */
static Value *ag_reduce(Interp *I, Args *a, Value *in, Value *dim, Value *kd, bool mean) {
    bool keep = false;
    if (kd && !arg_bool(I, kd, "keepdim", &keep)) return NULL;
    AgContext *c = &I->run.ag;
    if (!dim || dim->kind == V_NONE) return ret_ag(I, mean ? ag_mean(c, arg_ag(in)) : ag_sum(c, arg_ag(in)));
    int dims[TEN_MAX_DIMS], nd = 0, ndim = in->u.t->ndim;
    if (dim->kind == V_TUPLE || dim->kind == V_LIST) {
        for (int64_t i = 0; i < dim->u.seq.n; i++) {
            if (nd >= TEN_MAX_DIMS) return rt_error(I, "%s(): too many dims", a->fname);
            if (!get_dim(I, dim->u.seq.items[i], ndim, &dims[nd++])) return NULL;
        }
    } else if (!get_dim(I, dim, ndim, &dims[nd++])) return NULL;
    return ret_ag(I, mean ? ag_mean_dims(c, arg_ag(in), dims, nd, keep) : ag_sum_dims(c, arg_ag(in), dims, nd, keep));
}

static Value *bi_reduce(Interp *I, Args *a);

/* The torch.X reduction whose declaration binds op's arguments; NULL when the table has none. (Python's sum, min,
 * max, any, all never come here: they iterate over a tensor's rows, as Python does.) */
static const Builtin *reduce_decl(RedOp op) {
    for (const Builtin *b = bi_torch_math; b->name; b++)
        if (b->fn == bi_reduce && b->tag == (int)op) return b;
    return NULL;
}

/* torch.sum/mean/max/...(X) over dim= or everything */
static Value *torch_reduce_dispatch(Interp *I, Args *a, RedOp op) {
    Value *p[5];                                 /* input, dim, keepdim, dtype, axis (dim's NumPy name) */
    const Builtin *decl = a->fn && a->fn->fn == bi_reduce ? a->fn : reduce_decl(op);
    if (!decl) return rt_error(I, "%s(): attn has no declaration of this reduction", a->fname ? a->fname : "reduce");
    if (!args_bind_call(I, a, decl, NULL, p, 5)) return NULL;
    Value *in0 = p[0], *dim = p[1] ? p[1] : p[4], *kd = p[2];
    if ((op == RED_SUM || op == RED_MEAN) && in0->kind == V_TENSOR && !p[3] && grad_recording(I, 1, &in0))
        return ag_reduce(I, a, in0, dim, kd, op == RED_MEAN);
    if ((op == RED_MAX || op == RED_MIN) && in0->kind == V_TENSOR && grad_recording(I, 1, &in0)) {
        Value *dv = dim;
        bool keep = false;
        if (!dv || dv->kind == V_NONE) return ret_ag(I, ag_max(&I->run.ag, arg_ag(in0), op == RED_MIN));     /* MaxBackward1 */
        if (dv->kind == V_INT) {                 /* MaxBackward0 on the values; the indices need no grad */
            int d;
            if ((kd && !arg_bool(I, kd, "keepdim", &keep)) || !get_dim(I, dv, in0->u.t->ndim, &d)) return NULL;
            Tensor *idx = NULL;
            AgVal r = ag_max_dim(&I->run.ag, arg_ag(in0), d, keep, op == RED_MIN, &idx);
            if (!r.t) { ten_free(idx); return ret_ag(I, r); }
            Value *pair = torch_return_pair(I->run.heap, op == RED_MAX ? "max" : "min", r.t, idx);
            pair->u.seq.items[0]->ag = r.m;
            return pair;
        }
    }
    ArgTensor tmp; Tensor *x = input_tensor(I, a, a->npos + a->nkw > 1 ? ARG_OVERLOADED : ARG_TENSOR, &tmp);
    if (!x) return NULL;
    if (!cast_to_dtype_kw(I, a, &x, &tmp)) return NULL;
    bool keep = false;
    if (kd && !arg_bool(I, kd, "keepdim", &keep)) { arg_tensor_release(&tmp); return NULL; }
    /* torch.max(X, Y) with two tensors is the elementwise maximum */
    if ((op == RED_MAX || op == RED_MIN) && dim && dim->kind == V_TENSOR) {
        Tensor *r = ten_binary(op == RED_MAX ? OP_MAXIMUM : OP_MINIMUM, x, false, dim->u.t, false);
        arg_tensor_release(&tmp);
        return rt_tensor_result(I, r);
    }
    Tensor *r = NULL;
    if (!dim || dim->kind == V_NONE) {
        r = ten_reduce(op, x, true, 0, false);
    } else if (dim->kind == V_TUPLE || dim->kind == V_LIST) {
        /* several dims: reduce the highest first so the others keep their numbers */
        int dims[TEN_MAX_DIMS], nd = 0;
        for (int64_t i = 0; i < dim->u.seq.n && nd < TEN_MAX_DIMS; i++) {
            int d;
            if (!get_dim(I, dim->u.seq.items[i], x->ndim, &d)) { arg_tensor_release(&tmp); return NULL; }
            d = ten_norm_dim_in(I->run.ten, d, x->ndim);
            if (d < 0) { arg_tensor_release(&tmp); return rt_tensor_error(I); }
            dims[nd++] = d;
        }
        if (op != RED_SUM && op != RED_MEAN && op != RED_PROD) { arg_tensor_release(&tmp); return rt_error(I, "%s() takes one dim, not a tuple", a->fname); }
        if (op == RED_MEAN && !ten_is_float(x->dtype)) { arg_tensor_release(&tmp); ten_reduce(RED_MEAN, x, true, 0, false); return rt_tensor_error(I); }
        for (int i = 0; i < nd; i++) for (int j = i + 1; j < nd; j++) if (dims[j] > dims[i]) { int t = dims[i]; dims[i] = dims[j]; dims[j] = t; }
        Tensor *cur = ten_copy(x);
        int64_t count = 1;
        for (int i = 0; i < nd && cur; i++) {
            count *= x->shape[dims[i]];
            Tensor *next = ten_reduce(op == RED_MEAN ? RED_SUM : op, cur, false, dims[i], keep);
            ten_free(cur);
            cur = next;
        }
        if (cur && op == RED_MEAN) {
            Tensor *c = ten_scalar_i_in(I->run.ten, count);
            r = c ? ten_binary(OP_DIV, cur, false, c, true) : NULL;
            ten_free(c);
            ten_free(cur);
        } else r = cur;
    } else {
        int d;
        if (!get_dim(I, dim, x->ndim, &d)) { arg_tensor_release(&tmp); return NULL; }
        r = ten_reduce(op, x, false, d, keep);
        if (r && (op == RED_MAX || op == RED_MIN)) {
            /* max/min over a dim return torch.return_types.max(values, indices), as torch does */
            Tensor *idx = ten_reduce(op == RED_MAX ? RED_ARGMAX : RED_ARGMIN, x, false, d, keep);
            arg_tensor_release(&tmp);
            if (!idx) { ten_free(r); return rt_tensor_error(I); }
            return torch_return_pair(I->run.heap, op == RED_MAX ? "max" : "min", r, idx);
        }
    }
    arg_tensor_release(&tmp);
    return rt_tensor_result(I, r);
}

static Value *bi_reduce(Interp *I, Args *a) { return torch_reduce_dispatch(I, a, (RedOp)a->fn->tag); }

/* softmax / log_softmax / cumsum along dim: tag 0, 1, 2 (torch.X and X.x); F.softmax / F.log_softmax: tag 3, 4.
 * The declarations are PyTorch 1.13's: torch.softmax(input, dim, dtype=None) takes dtype by position,
 * F.softmax(input, dim=None, _stacklevel=3, dtype=None) too (a missing dim is PyTorch's _get_softmax_dim: 0 for
 * 0-, 1- and 3-D input, else 1, with its warning), and torch.cumsum(input, dim, *, dtype=None) by keyword only. */
static Value *bi_softmax(Interp *I, Args *a) {
    bool f = a->fn->tag >= 3;
    int op = a->fn->tag % 3;
    Value *p[4] = {NULL, NULL, NULL, NULL};      /* input, dim, dtype; F's: input, dim, _stacklevel, dtype */
    if (!args_bind(I, a, p, f ? 4 : 3)) return NULL;
    Value *dtv = p[f ? 3 : 2], *in = p[0];
    bool has_dt = dtv && dtv->kind != V_NONE;
    if (has_dt && dtv->kind != V_DTYPE) return rt_error(I, "dtype must be a torch dtype such as torch.float32, not %s", val_type_name(dtv));
    /* F.softmax is Python calling input.dim() (no dim given), then input.softmax(dim): a list has no such method */
    const char *recv = !p[1] || p[1]->kind == V_NONE ? "dim" : op == 0 ? "softmax" : "log_softmax";
    ArgTensor tmp;
    Tensor *x = f ? arg_tensor(I, a, in, recv, ARG_RECEIVER, &tmp) : input_tensor(I, a, ARG_OVERLOADED, &tmp);
    if (!x) return NULL;
    int d;
    if (f && (!p[1] || p[1]->kind == V_NONE)) {
        d = x->ndim == 0 || x->ndim == 1 || x->ndim == 3 ? 0 : 1;
        interp_warn(I, op == 0 ? "F.softmax dim" : "F.log_softmax dim", "UserWarning: Implicit dimension choice for %s has been deprecated. Change the call to include "
                    "dim=X as an argument.", op == 0 ? "softmax" : "log_softmax");
    } else if (!get_dim(I, p[1], x->ndim, &d)) { arg_tensor_release(&tmp); return NULL; }
    if (op != 2 && in->kind == V_TENSOR && !has_dt && grad_recording(I, 1, &in)) {
        arg_tensor_release(&tmp);
        return ret_ag(I, op == 0 ? ag_softmax(&I->run.ag, arg_ag(in), d) : ag_log_softmax(&I->run.ag, arg_ag(in), d));
    }
    if (has_dt && dtv->u.dtype != x->dtype) {
        Tensor *c = ten_cast(x, dtv->u.dtype);
        arg_tensor_release(&tmp);
        tmp.t = tmp.own = x = c;
        if (!c) return rt_tensor_error(I);
    }
    Tensor *r = op == 0 ? ten_softmax(x, d) : op == 1 ? ten_log_softmax(x, d) : ten_cumsum(x, d);
    arg_tensor_release(&tmp);
    return rt_tensor_result(I, r);
}

/* clamp(X, min=None, max=None): min(max(X, min), max), bounds numbers or tensors (broadcast); the result dtype
 * is PyTorch's result type (an int tensor clamped to 0.5 becomes float); NaN stays NaN. */
/* tag 0: clamp/clip; 1: clamp_min(X, min); 2: clamp_max(X, max) (the one bound required, a number or a tensor). */
static Value *bi_clamp(Interp *I, Args *a) {
    Value *p[3];                                 /* input, min, max / input, min (clamp_min) / input, max (clamp_max) */
    if (!args_bind(I, a, p, 3)) return NULL;
    int tag = a->fn->tag;
    Value *lo = tag == 2 ? NULL : p[1], *hi = tag == 1 ? NULL : p[tag ? 1 : 2];
    if (tag && (tag == 1 ? lo : hi)->kind == V_NONE)
        return rt_raise(I, "TypeError", "%s(): argument '%s' must be Tensor or Number, not NoneType", a->fn->name, tag == 1 ? "min" : "max");
    ArgTensor tmp; Tensor *x = input_tensor(I, a, ARG_OVERLOADED, &tmp);
    if (!x) return NULL;
    bool has_lo = lo && lo->kind != V_NONE, has_hi = hi && hi->kind != V_NONE;
    if (!has_lo && !has_hi) { arg_tensor_release(&tmp); return rt_error(I, "torch.clamp: At least one of 'min' or 'max' must not be None"); }
    Value *in = p[0];
    if (in->kind == V_TENSOR && (!has_lo || val_is_number(lo)) && (!has_hi || val_is_number(hi)) && grad_recording(I, 1, &in)) {
        arg_tensor_release(&tmp);                         /* ClampBackward1 (ClampMin/MaxBackward0): number bounds (NAN: none) */
        const char *node = tag == 1 ? "ClampMinBackward0" : tag == 2 ? "ClampMaxBackward0" : "ClampBackward1";
        return ret_ag(I, ag_clamp_as(&I->run.ag, arg_ag(in), has_lo ? val_as_double(lo) : NAN, has_hi ? val_as_double(hi) : NAN, node));
    }
    Tensor *cur = ten_alias(x), *r = cur;
    Value *bounds[2] = {has_lo ? lo : NULL, has_hi ? hi : NULL};
    for (int k = 0; k < 2 && r; k++) {
        if (!bounds[k]) continue;
        ArgTensor bt;                            /* clamp is declared with Scalar and with Tensor bounds */
        Tensor *b = arg_tensor(I, a, bounds[k], k ? "max" : "min", ARG_NUMBER | ARG_OVERLOADED, &bt);
        r = b ? ten_binary(k ? OP_MINIMUM : OP_MAXIMUM, cur, false, b, bt.weak) : NULL;
        arg_tensor_release(&bt);
        ten_free(cur);
        cur = r;
    }
    arg_tensor_release(&tmp);
    if (interp_failed(I)) { ten_free(r); return NULL; }
    return rt_tensor_result(I, r);
}

static Value *bi_where(Interp *I, Args *a) {
    Value *p[3];                 /* condition, input, other */
    if (!args_bind(I, a, p, 3)) return NULL;
    Value *c = p[0], *x = p[1], *y = p[2];
    if (!x && !y) {                              /* where(cond): nonzero(cond, as_tuple=True) */
        if (c->kind != V_TENSOR) return arg_not_tensor(I, a, c, "condition", ARG_TENSOR);
        return torch_nonzero_tuple(I, c->u.t);
    }
    if (!x || !y) return rt_error(I, "where(condition, x, y) needs three arguments");
    ArgTensor t1 = {0}, t2 = {0}, t3 = {0};
    if (c->kind == V_TENSOR && c->u.t->dtype != DT_BOOL)
        return rt_raise(I, "RuntimeError", "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                        c->u.t->dtype == DT_F32 ? "Float" : c->u.t->dtype == DT_F64 ? "Double" : "Long");
    /* where is declared with a Scalar input, other or both: numbers (weak), never a list */
    Tensor *C = arg_tensor(I, a, c, "condition", ARG_OVERLOADED, &t1);
    Tensor *X = C ? arg_tensor(I, a, x, "input", ARG_NUMBER | ARG_OVERLOADED, &t2) : NULL;
    Tensor *Y = X ? arg_tensor(I, a, y, "other", ARG_NUMBER | ARG_OVERLOADED, &t3) : NULL;
    bool xw = t2.weak, yw = t3.weak;
    Value *xy[2] = {x, y};
    if (Y && C->dtype == DT_BOOL && grad_recording(I, 2, xy)) {       /* WhereBackward0 */
        AgVal r = ag_where(&I->run.ag, C, (AgVal){X, x->kind == V_TENSOR ? x->ag : NULL}, xw,
                           (AgVal){Y, y->kind == V_TENSOR ? y->ag : NULL}, yw);
        arg_tensor_release(&t1); arg_tensor_release(&t2); arg_tensor_release(&t3);
        return ret_ag(I, r);
    }
    Tensor *r = Y ? ten_where(C, X, xw, Y, yw) : NULL;
    arg_tensor_release(&t1); arg_tensor_release(&t2); arg_tensor_release(&t3);
    if (!r && interp_failed(I)) return NULL;
    return rt_tensor_result(I, r);
}

/* masked_fill(X, mask, value): X where mask is False, value where True. */
static Value *bi_masked_fill(Interp *I, Args *a) {
    Value *p[3];                 /* input, mask, value */
    if (!args_bind(I, a, p, 3)) return NULL;
    Value *x = p[0], *m = p[1], *v = p[2];
    if (x->kind != V_TENSOR || m->kind != V_TENSOR) return arg_no_overload(I, a);      /* declared with a Scalar and a Tensor value */
    if (m->u.t->dtype != DT_BOOL) return rt_error(I, "masked_fill(): the mask must be a bool tensor (e.g. X > 0), not %s", ten_dtype_name(m->u.t->dtype));
    Value *xv[2] = {x, v};
    if (v->kind == V_TENSOR && grad_recording(I, 2, xv))   /* a tensor value: MaskedFillBackward1, its grad too */
        return ret_ag(I, ag_masked_fill_tensor(&I->run.ag, arg_ag(x), m->u.t, arg_ag(v)));
    double val;
    if (!arg_double(I, v, "value", &val)) return NULL;
    if (grad_recording(I, 1, &x)) return ret_ag(I, ag_masked_fill(&I->run.ag, arg_ag(x), m->u.t, val));
    Tensor *s = ten_new_in(I->run.ten, x->u.t->dtype, 0, NULL);
    ten_set(s, 0, val);
    Tensor *r = ten_where(m->u.t, s, true, x->u.t, false);     /* s has X's dtype: the result keeps it */
    ten_free(s);
    if (r && r->ndim != x->u.t->ndim) {
        char sa[128], sb[128];
        ten_shape_str(x->u.t->shape, x->u.t->ndim, sa, sizeof sa);
        ten_shape_str(m->u.t->shape, m->u.t->ndim, sb, sizeof sb);
        ten_free(r);
        return rt_error(I, "masked_fill(): the mask %s must broadcast to the tensor's shape %s", sb, sa);
    }
    return rt_tensor_result(I, r);
}

/* allclose / isclose (tag 0 / 1): a == b or |a - b| <= atol + rtol*|b|; equal_nan=True counts NaN == NaN. */
static Value *bi_close(Interp *I, Args *a) {
    Value *p[5];                 /* input, other, rtol, atol, equal_nan */
    if (!args_bind(I, a, p, 5)) return NULL;
    Value *x = p[0], *y = p[1], *rv = p[2], *av = p[3], *ev = p[4];
    double rtol = 1e-5, atol = 1e-8;
    bool equal_nan = false;
    if ((rv && !arg_double(I, rv, "rtol", &rtol)) || (av && !arg_double(I, av, "atol", &atol)) || (ev && !arg_bool(I, ev, "equal_nan", &equal_nan)))
        return NULL;
    ArgTensor t1 = {0}, t2 = {0};
    Tensor *X = arg_tensor(I, a, x, "input", ARG_TENSOR, &t1), *Y = X ? arg_tensor(I, a, y, "other", ARG_TENSOR, &t2) : NULL;
    Tensor *c = Y ? ten_isclose(X, Y, rtol, atol, equal_nan) : NULL;
    arg_tensor_release(&t1);
    arg_tensor_release(&t2);
    if (!c) return interp_failed(I) ? NULL : rt_tensor_error(I);
    if (a->fn->tag == 1) return val_tensor(I->run.heap, c);
    bool all = true;
    for (int64_t i = 0; i < c->numel && all; i++) all = ten_b8(c)[i] != 0;
    ten_free(c);
    return val_bool(I->run.heap, all);
}

static Value *bi_equal(Interp *I, Args *a) {
    Value *x = arg(a, 0, "input"), *y = arg(a, 1, "other");
    if (!x || !y) return rt_error(I, "equal(X, Y) needs two tensors");
    if (x->kind != V_TENSOR || y->kind != V_TENSOR) return arg_not_tensor(I, a, x->kind != V_TENSOR ? x : y, x->kind != V_TENSOR ? "input" : "other", ARG_TENSOR);
    if (!ten_same_shape(x->u.t, y->u.t)) return val_bool(I->run.heap, false);
    for (int64_t i = 0; i < x->u.t->numel; i++) if (ten_get(x->u.t, i) != ten_get(y->u.t, i)) return val_bool(I->run.heap, false);
    return val_bool(I->run.heap, true);
}

/* dim= as one int or a tuple/list of ints: dims[] and *nd (-1 when absent or None: every dim). */
static bool dims_arg(Interp *I, Value *dv, int ndim, int *dims, int *nd) {
    *nd = -1;
    if (!dv || dv->kind == V_NONE) return true;
    Value *one[1] = {dv};
    Value **items = one;
    int64_t n = 1;
    if (dv->kind == V_TUPLE || dv->kind == V_LIST) { items = dv->u.seq.items; n = dv->u.seq.n; }
    if (n > TEN_MAX_DIMS) { rt_error(I, "too many dims (%lld)", (long long)n); return false; }
    for (int64_t i = 0; i < n; i++) if (!get_dim(I, items[i], ndim, &dims[i])) return false;
    *nd = (int)n;
    return true;
}

/* norm(X, p='fro', dim=None, keepdim=False, dtype=None): p a number, inf or -inf, or 'fro' (the 2-norm). */
static Value *bi_norm(Interp *I, Args *a) {
    Value *p_[5];                               /* input, p, dim, keepdim, dtype */
    if (!args_bind(I, a, p_, 5)) return NULL;
    ArgTensor tmp;                              /* torch.norm is Python calling input.dim() first */
    Tensor *x = arg_tensor(I, a, p_[0], "dim", ARG_RECEIVER, &tmp);
    if (!x) return NULL;
    if (!cast_to_dtype_kw(I, a, &x, &tmp)) return NULL;
    Value *pv = p_[1], *kd = p_[3];
    double p = 2;
    bool keep = false;
    int dims[TEN_MAX_DIMS], nd;
    if (pv && pv->kind == V_STR) {
        if (!strcmp(pv->u.str.s, "nuc")) { arg_tensor_release(&tmp); return rt_error(I, "norm(p='nuc'), the nuclear norm, needs singular values: attn has no SVD (type help to see what it has)"); }
        if (strcmp(pv->u.str.s, "fro")) { arg_tensor_release(&tmp); return rt_error(I, "norm(): p must be a number, inf, -inf or 'fro', not '%s'", pv->u.str.s); }
    } else if (pv && pv->kind != V_NONE && !arg_double(I, pv, "p", &p)) { arg_tensor_release(&tmp); return NULL; }
    if ((kd && !arg_bool(I, kd, "keepdim", &keep)) || !dims_arg(I, p_[2], x->ndim, dims, &nd)) { arg_tensor_release(&tmp); return NULL; }
    Tensor *r = ten_norm(x, p, dims, nd, keep);
    arg_tensor_release(&tmp);
    return rt_tensor_result(I, r);
}

/* std / var (tag RED_STD / RED_VAR): std(X, dim=None, unbiased=True, keepdim=False, *, correction=None);
 * unbiased=False is correction=0 (divide by n), the default 1 divides by n - 1. std(X, False) works too.
 * std_mean / var_mean (tag + 100): the pair (std or var, mean). */
static Value *bi_std_var(Interp *I, Args *a) {
    Value *p_[6];                               /* input, dim, unbiased, keepdim, correction, axis */
    if (!args_bind(I, a, p_, 6)) return NULL;
    ArgTensor tmp; Tensor *x = input_tensor(I, a, a->npos + a->nkw > 1 ? ARG_OVERLOADED : ARG_TENSOR, &tmp);
    if (!x) return NULL;
    bool with_mean = a->fn->tag >= 100, take_sqrt = a->fn->tag % 100 == RED_STD;
    Value *dv = p_[1], *uv = p_[2], *kd = p_[3], *cv = p_[4];
    if (!dv) dv = p_[5];
    if (dv && dv->kind == V_BOOL && a->npos == 2) { uv = dv; dv = NULL; }    /* std(X, False) */
    bool unbiased = true, keep = false;
    double correction = 1;
    int dims[TEN_MAX_DIMS], nd;
    if ((uv && uv->kind != V_NONE && !arg_bool(I, uv, "unbiased", &unbiased)) || (kd && !arg_bool(I, kd, "keepdim", &keep)) ||
        !dims_arg(I, dv, x->ndim, dims, &nd)) { arg_tensor_release(&tmp); return NULL; }
    if (uv && uv->kind != V_NONE && cv && cv->kind != V_NONE) {
        arg_tensor_release(&tmp);
        return rt_error(I, "%s(): give unbiased or correction, not both", a->fname);
    }
    correction = unbiased ? 1 : 0;
    if (cv && cv->kind != V_NONE && !arg_double(I, cv, "correction", &correction)) { arg_tensor_release(&tmp); return NULL; }
    Tensor *r = ten_var(x, dims, nd, keep, correction, take_sqrt);
    if (!r || !with_mean) { arg_tensor_release(&tmp); return rt_tensor_result(I, r); }
    Tensor *m = NULL;
    if (nd < 0) m = ten_reduce(RED_MEAN, x, true, 0, keep);
    else {
        /* the mean over the same dims, highest first */
        Tensor *cur = ten_alias(x);
        int sorted[TEN_MAX_DIMS];
        for (int i = 0; i < nd; i++) sorted[i] = ten_norm_dim_in(I->run.ten, dims[i], x->ndim);
        for (int i = 0; i < nd; i++) for (int j = i + 1; j < nd; j++) if (sorted[j] > sorted[i]) { int t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t; }
        for (int i = 0; i < nd && cur; i++) { Tensor *nx = ten_reduce(RED_MEAN, cur, false, sorted[i], keep); ten_free(cur); cur = nx; }
        m = cur;
    }
    arg_tensor_release(&tmp);
    if (!m) { ten_free(r); return rt_tensor_error(I); }
    Value *t = val_tuple(I->run.heap, 2);
    val_seq_set(t, 0, val_tensor(I->run.heap, r));
    val_seq_set(t, 1, val_tensor(I->run.heap, m));
    return t;
}

/* torch.round(X, decimals=0): half to even; with decimals, PyTorch's scaled rounding. Also round(X, n). */
Value *torch_round(Interp *I, Value *x, Value *dv) {
    int64_t d = 0;
    if (dv && dv->kind != V_NONE && !arg_int(I, dv, "decimals", &d)) return NULL;
    if (!dv || dv->kind == V_NONE) return rt_tensor_result(I, ten_unary(UOP_ROUND, x->u.t));
    return rt_tensor_result(I, ten_round_decimals(x->u.t, d));
}

/* torch.round(input, *, decimals=0), torch's own: a tensor only (Python's round is another function). */
static Value *bi_torch_round(Interp *I, Args *a) {
    Value *p[2];                                 /* input, decimals */
    if (!args_bind(I, a, p, 2)) return NULL;
    if (p[0]->kind != V_TENSOR) return arg_not_tensor(I, a, p[0], "input", ARG_TENSOR);
    return torch_round(I, p[0], p[1]);
}

/* torch.range(start, end, step=1): start, start+step, ... up to and including end (deprecated in PyTorch in favour
 * of arange, which stops before end; float32 unless dtype says otherwise). */
static Value *bi_range_incl(Interp *I, Args *a) {
    Value *p[6];                                 /* start, end, step, dtype, device, requires_grad */
    if (!args_bind(I, a, p, 6)) return NULL;
    Value *sv = p[0], *ev = p[1], *stv = p[2];
    double s0, e0, st = 1;
    if (!arg_double(I, sv, "start", &s0) || !arg_double(I, ev, "end", &e0) || (stv && !arg_double(I, stv, "step", &st))) return NULL;
    if (st == 0) return rt_error(I, "step must be nonzero");
    if ((st > 0 && e0 < s0) || (st < 0 && e0 > s0)) return rt_error(I, "upper bound and larger bound inconsistent with step sign");
    bool has;
    DType dt = I->run.ten->default_float;
    if (!get_dtype(I, a, &has, &dt)) return NULL;
    double n = floor((e0 - s0) / st) + 1;
    if (n > (double)I->run.ten->limit_numel) return rt_error(I, "range(): %.0f elements is too many for attn", n);
    int64_t len = (int64_t)n;
    Tensor *t = ten_new_in(I->run.ten, dt, 1, &len);
    if (!t) return rt_tensor_error(I);
    for (int64_t i = 0; i < len; i++) ten_set(t, i, s0 + (double)i * st);
    /* PyTorch warns (a UserWarning on stderr, once): attn says the same once per run, outside lessons and
     * transcripts */
    interp_warn(I, "torch.range", "warning: torch.range is deprecated and will be removed in a future release because its "
                "behavior is\ninconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
                "in\n[start, end).");
    return val_tensor(I->run.heap, t);
}

#define UN(name, op, help) {name, bi_unary, "torch." name "(input)", help, "", op, "torch"}
#define BIN(name, op, help) BINK(name, op, "", help)
#define BINK(name, op, kw, help) {name, bi_binary, "torch." name "(input, other" kw ")", help, "", op, "torch"}
#define RED(name, op, help) {name, bi_reduce, "torch." name "(input, dim=None, keepdim=False, *, dtype=None, axis=None)", help, "", op, "torch"}

const Builtin bi_torch_math[] = {
    UN("sin", UOP_SIN, "Elementwise sine (§11.6.3: the even columns of P)."),
    UN("cos", UOP_COS, "Elementwise cosine (§11.6.3: the odd columns of P)."),
    UN("tan", UOP_TAN, "Elementwise tangent."),
    UN("exp", UOP_EXP, "Elementwise e**x."),
    UN("abs", UOP_ABS, "Elementwise |x|."),
    {"round", bi_torch_round, "torch.round(input, *, decimals=0)",
     "Rounds half to even; decimals=d rounds to d decimals (PyTorch's scaled rounding).", "", 0, "torch"},
    UN("log", UOP_LOG, "Elementwise natural logarithm."),
    UN("log2", UOP_LOG2, "Elementwise base-2 logarithm."),
    UN("log10", UOP_LOG10, "Elementwise base-10 logarithm."),
    UN("sqrt", UOP_SQRT, "Elementwise square root."),
    UN("rsqrt", UOP_RSQRT, "Elementwise 1/sqrt(x)."),
    UN("tanh", UOP_TANH, "Elementwise tanh."),
    UN("relu", UOP_RELU, "max(x, 0) elementwise."),
    UN("sigmoid", UOP_SIGMOID, "1 / (1 + e**-x) elementwise."),
    UN("floor", UOP_FLOOR, "Elementwise floor."),
    UN("ceil", UOP_CEIL, "Elementwise ceiling."),
    UN("neg", UOP_NEG, "Elementwise -x."),
    UN("sign", UOP_SIGN, "Elementwise sign: -1, 0 or 1."),
    UN("square", UOP_SQUARE, "Elementwise x*x."),
    UN("asin", UOP_ASIN, "Elementwise arcsine."),
    UN("acos", UOP_ACOS, "Elementwise arccosine."),
    UN("atan", UOP_ATAN, "Elementwise arctangent."),
    UN("isnan", UOP_ISNAN, "True where x is NaN."),
    UN("isinf", UOP_ISINF, "True where x is infinite."),
    UN("isfinite", UOP_ISFINITE, "True where x is finite."),
    UN("logical_not", UOP_NOT, "Elementwise not."),
    BINK("add", OP_ADD, ", *, alpha=1", "X + Y (alpha scales Y)."),
    BINK("sub", OP_SUB, ", *, alpha=1", "X - Y."),
    BIN("mul", OP_MUL, "X * Y elementwise."),
    BINK("div", OP_DIV, ", *, rounding_mode=None", "X / Y elementwise."),
    BIN("maximum", OP_MAXIMUM, "Elementwise larger of X and Y."),
    BIN("minimum", OP_MINIMUM, "Elementwise smaller of X and Y."),
    BIN("atan2", OP_ATAN2, "Elementwise angle of the point (Y=X, X=Y): atan2(y, x)."),
    BIN("eq", OP_EQ, "X == Y elementwise."),
    BIN("ne", OP_NE, "X != Y elementwise."),
    BIN("lt", OP_LT, "X < Y elementwise."),
    BIN("le", OP_LE, "X <= Y elementwise."),
    BIN("gt", OP_GT, "X > Y elementwise."),
    BIN("ge", OP_GE, "X >= Y elementwise."),
    BIN("logical_and", OP_AND, "Elementwise and."),
    BIN("logical_or", OP_OR, "Elementwise or."),
    BIN("remainder", OP_MOD, "Python-style X % Y elementwise."),
    BIN("floor_divide", OP_FLOORDIV, "X // Y elementwise."),
    RED("sum", RED_SUM, "Sum of all elements, or along dim."),
    RED("mean", RED_MEAN, "Mean of all elements, or along dim."),
    RED("max", RED_MAX, "Largest element; along dim torch.return_types.max(values=..., indices=...) (unpack it or "
        "read .values); max(X, Y) is elementwise."),
    RED("min", RED_MIN, "Smallest element; along dim torch.return_types.min(values=..., indices=...)."),
    RED("argmax", RED_ARGMAX, "Index of the largest element (flattened, or along dim)."),
    RED("argmin", RED_ARGMIN, "Index of the smallest element."),
    RED("prod", RED_PROD, "Product of the elements."),
    {"std", bi_std_var, "torch.std(input, dim=None, unbiased=True, keepdim=False, *, correction=None, axis=None)",
     "Standard deviation: sqrt(sum((x - mean)^2) / (n - 1)) by default; unbiased=False (correction=0) divides by n.", "", RED_STD, "torch"},
    {"var", bi_std_var, "torch.var(input, dim=None, unbiased=True, keepdim=False, *, correction=None, axis=None)",
     "Variance: sum((x - mean)^2) / (n - 1) by default; unbiased=False (correction=0) divides by n.", "", RED_VAR, "torch"},
    {"std_mean", bi_std_var, "torch.std_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None, axis=None)", "The pair (std, mean).", "", 100 + RED_STD, "torch"},
    {"var_mean", bi_std_var, "torch.var_mean(input, dim=None, unbiased=True, keepdim=False, *, correction=None, axis=None)", "The pair (var, mean).", "", 100 + RED_VAR, "torch"},
    RED("any", RED_ANY, "True if any element is nonzero."),
    RED("all", RED_ALL, "True if every element is nonzero."),
    {"matmul", bi_matmul, "torch.matmul(input, other)", "Matrix product with broadcasting of batch dims; X @ Y.", "§2.3", 0, "torch"},
    {"mm", bi_matmul, "torch.mm(input, mat2)", "Product of two 2-D matrices.", "§2.3", 1, "torch"},
    {"bmm", bi_matmul, "torch.bmm(input, mat2)", "Batched matrix product: (b, n, k) @ (b, k, m) -> (b, n, m) (§11.3 uses it for Q Kᵀ).", "§11.3", 2, "torch"},
    {"dot", bi_matmul, "torch.dot(input, other)", "Dot product of two vectors.", "§2.3", 3, "torch"},
    {"outer", bi_matmul, "torch.outer(input, vec2)", "Outer product of two vectors.", "§2.3", 4, "torch"},
    {"softmax", bi_softmax, "torch.softmax(input, dim, dtype=None)", "exp(X) / sum(exp(X)) along dim: each slice sums to 1.", "§11.3", 0, "torch"},
    {"log_softmax", bi_softmax, "torch.log_softmax(input, dim, dtype=None)", "log of softmax along dim.", "", 1, "torch"},
    {"softmax", bi_softmax, "F.softmax(input, dim=None, _stacklevel=3, dtype=None)", "torch.softmax: exp(X) / sum(exp(X)) along dim.", "§11.3", 3, "F"},
    {"log_softmax", bi_softmax, "F.log_softmax(input, dim=None, _stacklevel=3, dtype=None)", "torch.log_softmax: log of softmax along dim.", "", 4, "F"},
    {"cumsum", bi_softmax, "torch.cumsum(input, dim, *, dtype=None)", "Running sums along dim.", "", 2, "torch"},
    {"clamp", bi_clamp, "torch.clamp(input, min=None, max=None)",
     "Limits values to [min, max]; min and max may be numbers or tensors (broadcast).", "", 0, "torch"},
    {"clip", bi_clamp, "torch.clip(input, min=None, max=None)", "Same as clamp.", "", 0, "torch"},
    {"clamp_min", bi_clamp, "torch.clamp_min(input, min)", "X with every value below min raised to min (a number or a tensor, broadcast).", "", 1, "torch"},
    {"clamp_max", bi_clamp, "torch.clamp_max(input, max)", "X with every value above max lowered to max (a number or a tensor, broadcast).", "", 2, "torch"},
    {"where", bi_where, "torch.where(condition, input=None, other=None)", "X where condition is true, else Y.", "", 0, "torch"},
    {"masked_fill", bi_masked_fill, "torch.masked_fill(input, mask, value)", "X with value where mask is True (§11.3's masking uses -1e6).", "§11.3", 0, "torch"},
    {"allclose", bi_close, "torch.allclose(input, other, rtol=1e-5, atol=1e-8, equal_nan=False)",
     "True when every |x - y| <= atol + rtol*|y| (equal_nan=True: NaN counts as equal to NaN).", "", 0, "torch"},
    {"isclose", bi_close, "torch.isclose(input, other, rtol=1e-5, atol=1e-8, equal_nan=False)", "Elementwise closeness, as a bool tensor.", "", 1, "torch"},
    {"equal", bi_equal, "torch.equal(input, other)", "True when shapes and every value are equal.", "", 0, "torch"},
    {"norm", bi_norm, "torch.norm(input, p='fro', dim=None, keepdim=False, *, dtype=None)",
     "The p-norm: (sum |x|^p)^(1/p); p=2 (or 'fro') the Euclidean length, 1 the sum of |x|, inf the largest |x|, "
     "-inf the smallest, 0 the number of nonzeros. Over everything or over dim.", "", 0, "torch"},

    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* torch functions whose names Python's builtins take when bare (range): found as torch.NAME only. */
/* torch.pow(input, exponent): input ** exponent, as the operator; a Python number's power of a tensor that requires
 * grad records PyTorch's pow.Scalar overload (PowBackward2, no edge for the number; Python's pow(2.0, x) and
 * 2.0 ** x call x.__rpow__, PowBackward1). */
static Value *bi_torch_pow(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind(I, a, p, 2)) return NULL;
    Value *x = p[0], *y = p[1];
    /* declared pow(Tensor, Tensor), pow(Scalar, Tensor), pow(Tensor, Scalar): a list, None or two numbers fit none */
    bool xt = x->kind == V_TENSOR, yt = y->kind == V_TENSOR;
    if (!(xt || val_is_number(x)) || !(yt || val_is_number(y)) || (!xt && !yt)) return arg_no_overload(I, a);
    if ((x->kind == V_INT || x->kind == V_FLOAT) && y->kind == V_TENSOR && grad_recording(I, 2, p)) {
        Tensor *tx = ops_number_tensor_in(I->run.ten, x), *r = tx ? ten_binary(OP_POW, tx, true, y->u.t, false) : NULL;
        ten_free(tx);
        if (!r) return rt_tensor_error(I);
        return ret_ag(I, ag_pow_base(&I->run.ag, x->kind == V_INT ? (double)x->u.i : x->u.f, arg_ag(y), r));
    }
    return ops_binary(I, AOP_POW, x, y);
}

const Builtin bi_torch_only[] = {
    {"pow", bi_torch_pow, "torch.pow(input, exponent)", "input ** exponent elementwise (a tensor or a number each).", "", 0, "torch"},
    {"range", bi_range_incl, "torch.range(start, end, step=1, *, dtype=None, device=None, requires_grad=False)",
     "start, start+step, ... up to AND including end (deprecated in PyTorch: torch.arange stops before end).", "", 0, "torch"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

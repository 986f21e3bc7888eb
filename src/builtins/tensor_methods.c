/* tensor_methods.c - methods that exist only on tensors (X.item(), X.float(), X.size(1), X.to(...)). Methods that
 * mirror a torch function (X.reshape, X.sum, X.softmax ...) are the same builtin with X as the first argument:
 * see builtins_find_method. */
#include "builtins_internal.h"
#include <stdlib.h>
#include "interp.h"
#include "ops.h"
#include <stdint.h>
#include <math.h>
#include <string.h>

static Tensor *self(Args *a) { return a->pos[0]->u.t; }

static Value *m_item(Interp *I, Args *a) {
    if (self(a)->numel != 1)
        return rt_raise(I, "ValueError", "a Tensor with %lld elements cannot be converted to a Python number (item() needs exactly one)", (long long)self(a)->numel);
    return ops_item(a->pos[0]);
}

static Value *tolist_rec(ValHeap *heap, const Tensor *t, int dim, int64_t base) {
    if (dim == t->ndim) {
        if (ten_is_float(t->dtype)) return val_float(heap, ten_get(t, base));
        if (t->dtype == DT_BOOL) return val_bool(heap, ten_get(t, base) != 0);
        return val_int(heap, ten_get_i64(t, base));
    }
    int64_t inner = 1;
    for (int i = dim + 1; i < t->ndim; i++) inner *= t->shape[i];
    Value *l = val_list(heap, t->shape[dim]);
    for (int64_t i = 0; i < t->shape[dim]; i++) val_seq_set(l, i, tolist_rec(heap, t, dim + 1, base + i * inner));
    return l;
}

static Value *m_tolist(Interp *I, Args *a) {
    if (self(a)->numel > 10000000) return rt_error(I, "tolist(): the tensor is too large to become a list");
    if (!interp_memory_ok(I, self(a)->numel)) return NULL;
    return tolist_rec(I->run.heap, self(a), 0, 0);
}


/* X.cpu(): X itself. X.detach(), X.numpy(): a new tensor on the same storage, as in PyTorch. */
static Value *m_same(Interp *I, Args *a) { return val_incref(a->pos[0]); }
static Value *m_alias(Interp *I, Args *a) { return rt_tensor_result(I, ten_alias(self(a))); }
/* X.numpy(): X's elements shared (attn's tensors stand in for arrays); PyTorch's refusal when X requires grad. */
static Value *m_numpy(Interp *I, Args *a) {
    if (val_requires_grad(a->pos[0]))
        return rt_raise(I, "RuntimeError", "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
    return m_alias(I, a);
}
static Value *m_clone(Interp *I, Args *a) { return rt_tensor_result(I, ten_clone(self(a))); }

/* X itself when contiguous, else a contiguous copy. */
static Value *m_contiguous(Interp *I, Args *a) {
    if (self(a)->contiguous) return val_incref(a->pos[0]);
    return rt_tensor_result(I, ten_copy(self(a)));
}
static Value *m_is_contiguous(Interp *I, Args *a) { return val_bool(I->run.heap, self(a)->contiguous); }

/* X.stride() -> a tuple of element strides; X.stride(d) -> one. */
static Value *m_stride(Interp *I, Args *a) {
    Tensor *t = self(a);
    Value *d = arg(a, 1, "dim");
    if (!d || d->kind == V_NONE) {
        Value *r = val_tuple(I->run.heap, t->ndim);
        for (int i = 0; i < t->ndim; i++) val_seq_set(r, i, val_int(I->run.heap, t->stride[i]));
        return r;
    }
    int64_t k;
    if (!arg_int(I, d, "dim", &k)) return NULL;
    if (!t->ndim) return rt_raise(I, "IndexError", "Dimension specified as %lld but tensor has no dimensions", (long long)k);
    int nd = norm_dim64_in(I->run.ten, k, t->ndim);
    if (nd < 0) return rt_tensor_error(I);
    return val_int(I->run.heap, t->stride[nd]);
}
static Value *m_storage_offset(Interp *I, Args *a) { return val_int(I->run.heap, self(a)->offset); }
/* The address of the first element: equal for two views that start at the same element, as in PyTorch. */
static Value *m_data_ptr(Interp *I, Args *a) { return val_int(I->run.heap, (int64_t)(intptr_t)self(a)->data); }

/* float / long / int / bool: tag is the dtype. X itself when it already has it (x.float() is x). */
static Value *m_cast(Interp *I, Args *a) {
    if (self(a)->dtype == (DType)a->fn->tag) return val_incref(a->pos[0]);
    return rt_tensor_result(I, ten_cast(self(a), (DType)a->fn->tag));
}

/* X.to(dtype), X.to(other) (other's dtype), X.to(device), X.to(device, dtype), each followed by non_blocking and copy
 * (positional or keyword), dtype= and device= as keywords (the device, checked for every call, is the CPU); X.type(dtype,
 * non_blocking), and X.type() the legacy name. X itself when the dtype does not change and copy is not True, as in
 * PyTorch; a new tensor otherwise. */
static Value *m_to(Interp *I, Args *a) {
    Value *p_[4];                                /* the forms' parameters: read below by kind, as PyTorch's overloads */
    bool type = !strcmp(a->fn->name, "type");
    if (args_bind_form(I, a, p_, 4) < 0) return NULL;
    if (type && a->npos == 1 && !arg(a, -1, "dtype")) {        /* X.type(): 'torch.FloatTensor' */
        DType t = self(a)->dtype;
        return val_str(I->run.heap, t == DT_F32 ? "torch.FloatTensor" : t == DT_F64 ? "torch.DoubleTensor" : t == DT_I64 ? "torch.LongTensor" : "torch.BoolTensor");
    }
    Value *dt = arg(a, -1, "dtype"), *flags[2] = {arg(a, -1, "non_blocking"), arg(a, -1, "copy")};
    Value *tname = type ? arg(a, 1, "dtype") : NULL;             /* X.type('torch.DoubleTensor'): a type's name */
    if (tname && tname->kind == V_STR) {
        static const char *const NAMES[] = {"torch.FloatTensor", "torch.LongTensor", "torch.BoolTensor", "torch.DoubleTensor"};
        int k = 0;                               /* NAMES[k] is the tensor type of DType k */
        while (k < 4 && strcmp(NAMES[k], tname->u.str.s)) k++;
        if (k == 4) return rt_raise(I, "ValueError", "invalid type: '%s' (attn has %s, %s, %s and %s)", tname->u.str.s,
                                    NAMES[0], NAMES[3], NAMES[1], NAMES[2]);
        if (self(a)->dtype == (DType)k) return val_incref(a->pos[0]);
        return rt_tensor_result(I, ten_cast(self(a), (DType)k));
    }
    int nflags = 0;                              /* the positional non_blocking, copy after the dtype / device / other */
    for (int i = 1; i < a->npos; i++) {
        Value *p = a->pos[i];
        if (nflags == 0 && (p->kind == V_DTYPE || p->kind == V_TENSOR)) {
            if (dt) return rt_error(I, "%s() got the dtype twice", a->fname);
            dt = p;
        } else if (nflags == 0 && (p->kind == V_STR || (p->kind == V_OBJECT && !strcmp(val_type_name(p), "torch.device")))) {
            if (i > 1) return rt_error(I, "%s() takes the device before the dtype", a->fname);
        } else if (p->kind == V_BOOL && i > 1 && nflags < 2) flags[nflags++] = p;
        else return rt_error(I, "%s() takes a dtype, a tensor or a device, then non_blocking and copy (True or False), not %s",
                             a->fname, val_type_name(p));
    }
    for (int k = 0; k < 2; k++)
        if (flags[k] && flags[k]->kind != V_BOOL)
            return rt_raise(I, "TypeError", "%s(): %s must be True or False, not %s", a->fname, k ? "copy" : "non_blocking",
                            val_type_name(flags[k]));
    if (dt && dt->kind != V_DTYPE && dt->kind != V_TENSOR && dt->kind != V_NONE)
        return rt_error(I, "%s(): dtype must be a torch.dtype such as torch.float64, not %s", a->fname, val_type_name(dt));
    DType want = !dt || dt->kind == V_NONE ? self(a)->dtype : dt->kind == V_DTYPE ? dt->u.dtype : dt->u.t->dtype;
    bool copy = flags[1] && flags[1]->u.b;
    if (want == self(a)->dtype && !copy) return val_incref(a->pos[0]);    /* nothing changes: X itself, as PyTorch */
    return rt_tensor_result(I, want == self(a)->dtype ? ten_clone(self(a)) : ten_cast(self(a), want));
}

static Value *m_size(Interp *I, Args *a) {
    Value *d = arg(a, 1, "dim");
    Tensor *t = self(a);
    if (!d) return val_size(I->run.heap, t->shape, t->ndim);
    int64_t k;
    if (!arg_int(I, d, "dim", &k)) return NULL;
    if (!t->ndim) return rt_raise(I, "IndexError", "Dimension specified as %lld but tensor has no dimensions", (long long)k);
    int nd = norm_dim64_in(I->run.ten, k, t->ndim);
    if (nd < 0) return rt_tensor_error(I);
    return val_int(I->run.heap, t->shape[nd]);
}

static Value *m_dim(Interp *I, Args *a) { return val_int(I->run.heap, self(a)->ndim); }

static Value *m_expand(Interp *I, Args *a) {
    Tensor *t = self(a);
    int64_t sh[TEN_MAX_DIMS];
    Value **items = a->pos + 1;
    int64_t n = a->npos - 1;
    if (n == 1 && (a->pos[1]->kind == V_TUPLE || a->pos[1]->kind == V_LIST)) { items = a->pos[1]->u.seq.items; n = a->pos[1]->u.seq.n; }
    if (n > TEN_MAX_DIMS) return rt_error(I, "tensors have at most %d dimensions", TEN_MAX_DIMS);
    if (!arg_ints(I, items, n, "a size", sh)) return NULL;
    if (grad_recording(I, 1, a->pos)) return ret_ag(I, ag_expand(&I->run.ag, arg_ag(a->pos[0]), (int)n, sh));   /* ExpandBackward0 */
    return rt_tensor_result(I, ten_expand(t, (int)n, sh));
}

static Value *m_repeat(Interp *I, Args *a) {
    int64_t reps[TEN_MAX_DIMS];
    Value **items = a->pos + 1;
    int64_t n = a->npos - 1;
    if (n == 1 && (a->pos[1]->kind == V_TUPLE || a->pos[1]->kind == V_LIST)) { items = a->pos[1]->u.seq.items; n = a->pos[1]->u.seq.n; }
    if (n > TEN_MAX_DIMS) return rt_error(I, "repeat(): too many dimensions");
    if (!arg_ints(I, items, n, "a repeat count", reps)) return NULL;
    Tensor *r = ten_repeat(self(a), reps, (int)n);
    return r ? val_tensor(I->run.heap, r) : rt_tensor_error(I);
}

/* Whether autograd records this call: grad mode on, and X or an argument (positional or keyword) requires grad. */
static bool call_records(Interp *I, Args *a) {
    return grad_recording(I, a->npos, a->pos) || grad_recording(I, a->nkw, a->kwvals);
}

/* In-place fill_(v), zero_() and copy_(src): write into X's storage (through its strides), as in PyTorch. */
static Value *m_fill(Interp *I, Args *a) {
    Value *v = a->fn->tag == 0 ? arg(a, 1, "value") : a->fn->tag == 2 ? arg(a, 1, "src") : NULL;
    if (a->fn->tag != 1 && !v) return rt_error(I, "%s needs a value", a->fn->signature);
    if (a->fn->tag == 0 && v->kind == V_TENSOR && v->u.t->ndim != 0)
        return rt_error(I, "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", v->u.t->ndim);
    if (a->fn->tag == 0 && self(a)->dtype == DT_I64 && v->kind == V_FLOAT && !(fabs(v->u.f) < 9223372036854775808.0))
        return rt_raise(I, "RuntimeError", "value cannot be converted to type int64_t without overflow");   /* nan, inf, 1e19 */
    ArgTensor held = {0};
    Tensor *src;
    if (!v) src = held.own = ten_scalar_i_in(I->run.ten, 0);
    /* a number exact (1/3 into a float64 tensor) or a tensor: fill_(value) is declared Scalar / Tensor, copy_(other) Tensor */
    else if (!(src = arg_tensor(I, a, v, a->fn->tag == 0 ? "value" : "other", ARG_NUMBER | (a->fn->tag == 0 ? ARG_OVERLOADED : 0), &held)))
        return NULL;
    if (!src) return rt_tensor_error(I);
    Value *x = a->pos[0];
    bool records = call_records(I, a), tv = v && v->kind == V_TENSOR;
    int rc = records ? ag_inplace_check_write(&I->run.ag, x->ag, true) : 0;
    if (rc == 0) rc = ten_copy_into(self(a), src);
    arg_tensor_release(&held);
    if (rc == 0 && records) {               /* ZeroBackward0, FillBackward2 (a number) / 3 (a tensor), CopyBackwards */
        int tag = a->fn->tag;
        const char *node = tag == 1 ? "ZeroBackward0" : tag == 2 ? "CopyBackwards" : tv ? "FillBackward3" : "FillBackward2";
        AgVal av = {tv ? v->u.t : NULL, tv ? v->ag : NULL};
        rc = ag_write_record(&I->run.ag, x->u.t, &x->ag, node, tag == 2 || tv ? 2 : 1, av);
    }
    if (rc < 0) return rt_tensor_error(I);
    return val_incref(x);
}

static Value *m_view_as(Interp *I, Args *a) {
    Value *other;                                /* "X.view_as(other)": PyTorch's words for a missing or extra one */
    if (!args_bind(I, a, &other, 1)) return NULL;
    if (other->kind != V_TENSOR)
        return rt_raise(I, "TypeError", "%s(): argument 'other' (position 1) must be Tensor, not %s", a->fn->name, val_type_name(other));
    Tensor *o = other->u.t;
    Tensor *r = a->fn->tag == 0 ? ten_view_shape(self(a), o->ndim, o->shape) : ten_expand(self(a), o->ndim, o->shape);
    return rt_tensor_result(I, r);
}

/* X.op_(...): the out-of-place op (the method without '_') computed, then written into X's storage. PyTorch's
 * rules: the result must keep X's shape and be castable to X's dtype (no float into an int tensor). */
static Value *call_base(Interp *I, Args *a, Value *self_for_grad) {
    char base[64];
    size_t n = strlen(a->fn->name);
    const Builtin *b = NULL;
    if (n >= 2 && n < sizeof base) {
        memcpy(base, a->fn->name, n - 1);
        base[n - 1] = 0;
        b = builtins_find_method(base);
    }
    if (!b) return rt_error(I, "%s: no such in-place method", a->fn->name);
    Args ba = *a;
    ba.fn = b;
    const Args *outer = I->method_args;
    if (outer == a) I->method_args = &ba;    /* still the method's arguments: X.add_([1.]) names position 1 */
    Value *r = b->fn(I, &ba);
    I->method_args = outer;
    if (r && self_for_grad) {               /* recorded as the method call X.op(...) is (self apart) */
        Args oa = ba;
        oa.pos = ba.pos + 1;
        oa.npos = ba.npos - 1;
        r = ag_after_call(I, &oa, self_for_grad, r);
    }
    if (r && r->kind != V_TENSOR) { val_decref(r); return rt_error(I, "%s() did not give a tensor", base); }
    return r;
}

/* X.op_(...) when autograd records it (grad mode on, X or an argument requires grad): the out-of-place op run on a
 * copy of X that carries X's history (what its node saves of X keeps X's old values, as PyTorch saves the original
 * self), recorded as a call is (ag_after_call), then written into X, whose history becomes that node: X.add_(Y) is
 * AddBackward0, through a view CopySlices (ag_inplace_assign). */
static Value *inplace_recorded(Interp *I, Args *a) {
    Value *x = a->pos[0];
    if (ag_inplace_check(&I->run.ag, x->ag) < 0) return rt_tensor_error(I);
    Tensor *copy = ten_copy(x->u.t);
    if (!copy) return rt_tensor_error(I);
    Value *xc = val_tensor_ag(I->run.heap, copy, x->ag ? ag_meta_ref(x->ag) : NULL);
    Value **pos = xmalloc(sizeof(Value *) * (size_t)a->npos);
    memcpy(pos, a->pos, sizeof(Value *) * (size_t)a->npos);
    pos[0] = xc;
    Args ca = *a;
    ca.pos = pos;
    const Args *outer = I->method_args;
    if (outer == a) I->method_args = &ca;
    Value *r = call_base(I, &ca, xc);
    I->method_args = outer;
    free(pos);
    val_decref(xc);
    if (!r) return NULL;
    int rc = ag_inplace_assign(&I->run.ag, x->u.t, &x->ag, arg_ag(r));
    val_decref(r);
    if (rc < 0) return rt_tensor_error(I);
    return val_incref(x);
}

static Value *m_inplace(Interp *I, Args *a) {
    Value *x = a->pos[0];
    bool records = call_records(I, a);
    Value *fill = !strcmp(a->fn->name, "masked_fill_") ? arg(a, 2, "value") : NULL;
    if (records && !(fill && val_is_number(fill) && ag_requires_grad(x->ag))) return inplace_recorded(I, a);
    if (fill && I->run.ag.grad_enabled && ag_requires_grad(x->ag)) {
        /* autograd's masked_fill_: MaskedFillBackward0, or CopySlices through a view */
        Value *p_[2];                            /* mask, value ("X.masked_fill_(mask, value)") */
        if (!args_bind(I, a, p_, 2)) return NULL;
        Value *m = p_[0], *v = p_[1];
        double val;
        if (m->kind != V_TENSOR || m->u.t->dtype != DT_BOOL) return rt_error(I, "masked_fill_(mask, value) needs a bool mask and a value");
        if (!arg_double(I, v, "value", &val)) return NULL;
        if (ag_masked_fill_(&I->run.ag, x->u.t, &x->ag, m->u.t, val) < 0) return rt_tensor_error(I);
        return val_incref(x);
    }
    Value *r = call_base(I, a, NULL);
    if (!r) return NULL;
    int rc = ten_assign_result(self(a), r->u.t);
    val_decref(r);
    if (rc < 0) return rt_tensor_error(I);
    return val_incref(a->pos[0]);
}

/* X.t_(), X.transpose_(0, 1), X.unsqueeze_(0), X.squeeze_(): X itself takes the view's shape and strides. */
static Value *m_reshape_inplace(Interp *I, Args *a) {
    if (call_records(I, a)) {                   /* TBackward1 ... (ag_inplace_layout) */
        Value *x = a->pos[0];
        if (ag_inplace_check(&I->run.ag, x->ag) < 0) return rt_tensor_error(I);
        Value *r = call_base(I, a, x);
        if (!r) return NULL;
        int rc = ag_inplace_layout(&I->run.ag, x->u.t, &x->ag, arg_ag(r));
        val_decref(r);
        return rc < 0 ? rt_tensor_error(I) : val_incref(x);
    }
    Value *r = call_base(I, a, NULL);
    if (!r) return NULL;
    ten_set_layout(self(a), ten_alias(r->u.t));
    val_decref(r);
    return val_incref(a->pos[0]);
}

static Value *m_element_size(Interp *I, Args *a) { return val_int(I->run.heap, (int64_t)ten_dtype_size(self(a)->dtype)); }

/* X.new_zeros(size) / new_ones (tag 1) / new_full(size, v) (2) / new_empty (3) / new_tensor(data) (4): X's dtype
 * unless dtype= says otherwise. */
static Value *m_new(Interp *I, Args *a) {
    Value *p_[5];                                /* size (data), [fill_value,] dtype, device, requires_grad */
    if (!args_bind(I, a, p_, 5)) return NULL;
    int tag = a->fn->tag;
    Args b = *a;                                 /* the arguments after X, which arg() and arg_shape read */
    b.pos = a->pos + 1;
    b.npos = a->npos - 1;
    bool has;
    DType dt = self(a)->dtype;
    if (!get_dtype(I, &b, &has, &dt)) return NULL;
    if (tag == 4) {
        Value *data = p_[0];
        Tensor *t = interp_to_tensor(I, data, true, dt);
        return t ? val_tensor(I->run.heap, t) : (interp_failed(I) ? NULL : rt_tensor_error(I));
    }
    int64_t shape[TEN_MAX_DIMS];
    int nd;
    double v = tag == 1 ? 1 : 0;
    if (tag == 2) {
        Value *sz = p_[0], *fv = p_[1];
        Args sa = {&sz, 1, NULL, NULL, 0, a->fname, NULL};
        if (!arg_shape(I, &sa, 0, shape, &nd) || !arg_double(I, fv, "fill_value", &v)) return NULL;
    } else if (!arg_shape(I, &b, 0, shape, &nd)) return NULL;
    return rt_tensor_result(I, ten_full_in(I->run.ten, dt, nd, shape, v));
}

static Value *m_is_floating_point(Interp *I, Args *a) { return val_bool(I->run.heap, ten_is_float(self(a)->dtype)); }

#define INPLACE(name, sig, help) {name, m_inplace, sig, help " In place: X changes, and so does every view of it.", "", 0, "X"}
const Builtin bi_tensor_methods[] = {
    {"item", m_item, "X.item(/)", "The single value of a one-element tensor, as a Python number.", "", 0, "X"},
    {"tolist", m_tolist, "X.tolist(/)", "The tensor as nested Python lists.", "", 0, "X"},
    {"numpy", m_numpy, "X.numpy()", "In attn tensors stand in for NumPy arrays: X's elements, shared (save(\"x.npy\", X) to use NumPy).", "", 0, "X"},
    {"detach", m_alias, "X.detach()", "A tensor sharing X's elements, without autograd history.", "", 0, "X"},
    {"contiguous", m_contiguous, "X.contiguous()",
     "X itself when its elements are in row-major order, else a copy that is: what .view() needs after a transpose.", "", 0, "X"},
    {"is_contiguous", m_is_contiguous, "X.is_contiguous()",
     "True when X's elements lie in memory in row-major order with no gaps. A transpose or a strided slice is a view "
     "that is not: X.T.is_contiguous() is False for a matrix.", "", 0, "X"},
    {"stride", m_stride, "X.stride(dim=None)",
     "How many elements to step in memory to move one index along each dimension: (4, 1) for a contiguous (3, 4) "
     "tensor, (1, 4) for its transpose.", "", 0, "X"},
    {"storage_offset", m_storage_offset, "X.storage_offset(/)", "Where X's first element lies in the memory it shares with other views.", "", 0, "X"},
    {"data_ptr", m_data_ptr, "X.data_ptr(/)", "The address of X's first element: equal for views that start at the same element.", "", 0, "X"},
    {"cpu", m_same, "X.cpu()", "X (attn runs on the CPU).", "", 0, "X"},
    {"clone", m_clone, "X.clone()", "A copy of X with its own memory (in X's memory order, as PyTorch keeps it).", "", 0, "X"},
    {"float", m_cast, "X.float()", "X as float32 (X itself when it already is).", "", DT_F32, "X"},
    {"double", m_cast, "X.double()", "X as float64 (X itself when it already is).", "", DT_F64, "X"},
    {"long", m_cast, "X.long()", "X as int64, floats truncated toward zero (X itself when it already is).", "", DT_I64, "X"},
    {"int", m_cast, "X.int()", "An integer copy (int64 in attn).", "", DT_I64, "X"},
    {"bool", m_cast, "X.bool()", "X as bool: nonzero is True (X itself when it already is).", "", DT_BOOL, "X"},
    {"to", m_to, "X.to(dtype, non_blocking=False, copy=False) / X.to(device=None, dtype=None, non_blocking=False, copy=False) / X.to(other, non_blocking=False, copy=False)", "X with another dtype (X itself when nothing changes); devices other than the CPU are ignored.", "", 0, "X"},
    {"type", m_to, "X.type(dtype=None, non_blocking=False)", "X with another dtype, given as a torch.dtype or a type's name ('torch.DoubleTensor'); X itself when it already has it.", "", 0, "X"},
    {"size", m_size, "X.size(dim=None)", "The shape (torch.Size), or one dimension.", "", 0, "X"},
    {"dim", m_dim, "X.dim(/)", "Number of dimensions.", "", 0, "X"},
    {"ndimension", m_dim, "X.ndimension(/)", "Number of dimensions.", "", 0, "X"},
    {"expand", m_expand, "X.expand(*sizes)",
     "A view of X broadcast to a larger shape (-1 keeps a dimension): no copy, the repeated elements share memory.", "", 0, "X"},
    {"repeat", m_repeat, "X.repeat(*reps)", "Tiles X reps times along each dimension (a copy).", "", 0, "X"},
    {"fill_", m_fill, "X.fill_(v)", "Sets every element of X to v, in place (through a view, in the tensor it views).", "", 0, "X"},
    {"zero_", m_fill, "X.zero_(/)", "Sets every element of X to 0, in place.", "", 1, "X"},
    {"copy_", m_fill, "X.copy_(src, non_blocking=False)", "Writes src (broadcast, cast to X's dtype) into X, in place.", "", 2, "X"},
    {"view_as", m_view_as, "X.view_as(other)", "X viewed with other's shape (as X.view(other.shape)).", "", 0, "X"},
    {"expand_as", m_view_as, "X.expand_as(other)", "X broadcast to other's shape, as a view.", "", 1, "X"},
    {"element_size", m_element_size, "X.element_size(/)", "Bytes per element: 4 for float32, 8 for float64 and int64, 1 for bool.", "", 0, "X"},
    {"new_zeros", m_new, "X.new_zeros(*size, dtype=None, device=None, requires_grad=False)", "Zeros of X's dtype.", "", 0, "X"},
    {"new_ones", m_new, "X.new_ones(*size, dtype=None, device=None, requires_grad=False)", "Ones of X's dtype.", "", 1, "X"},
    {"new_full", m_new, "X.new_full(size, fill_value, *, dtype=None, device=None, requires_grad=False)", "A tensor of X's dtype filled with fill_value.", "", 2, "X"},
    {"new_empty", m_new, "X.new_empty(*size, dtype=None, device=None, requires_grad=False)", "A new tensor of X's dtype (attn fills it with zeros).", "", 3, "X"},
    {"new_tensor", m_new, "X.new_tensor(data, *, dtype=None, device=None, requires_grad=False)", "A tensor of X's dtype from data.", "", 4, "X"},
    {"is_floating_point", m_is_floating_point, "X.is_floating_point(/)", "True for float32 and float64.", "", 0, "X"},
    INPLACE("add_", "X.add_(Y, alpha=1)", "X += alpha * Y."),
    INPLACE("sub_", "X.sub_(Y, alpha=1)", "X -= alpha * Y."),
    INPLACE("mul_", "X.mul_(Y)", "X *= Y."),
    INPLACE("div_", "X.div_(Y)", "X /= Y (an integer X cannot hold the float result: PyTorch refuses too)."),
    INPLACE("pow_", "X.pow_(Y)", "X = X ** Y."),
    INPLACE("remainder_", "X.remainder_(Y)", "X = X % Y."),
    INPLACE("floor_divide_", "X.floor_divide_(Y)", "X = X // Y."),
    INPLACE("clamp_", "X.clamp_(min=None, max=None)", "Limits X to [min, max]."),
    INPLACE("clip_", "X.clip_(min=None, max=None)", "Limits X to [min, max]."),
    INPLACE("clamp_min_", "X.clamp_min_(min)", "Raises the values of X below min to min."),
    INPLACE("clamp_max_", "X.clamp_max_(max)", "Lowers the values of X above max to max."),
    INPLACE("masked_fill_", "X.masked_fill_(mask, value)", "Sets X to value where mask is True (§11.3 masks scores this way)."),
    INPLACE("neg_", "X.neg_(/)", "X = -X."),
    INPLACE("abs_", "X.abs_(/)", "X = |X|."),
    INPLACE("exp_", "X.exp_(/)", "X = e**X."),
    INPLACE("log_", "X.log_(/)", "X = log(X)."),
    INPLACE("sqrt_", "X.sqrt_(/)", "X = sqrt(X)."),
    INPLACE("rsqrt_", "X.rsqrt_(/)", "X = 1/sqrt(X)."),
    INPLACE("sin_", "X.sin_(/)", "X = sin(X)."),
    INPLACE("cos_", "X.cos_(/)", "X = cos(X)."),
    INPLACE("tanh_", "X.tanh_(/)", "X = tanh(X)."),
    INPLACE("sigmoid_", "X.sigmoid_(/)", "X = sigmoid(X)."),
    INPLACE("relu_", "X.relu_(/)", "X = max(X, 0)."),
    INPLACE("floor_", "X.floor_(/)", "X = floor(X)."),
    INPLACE("ceil_", "X.ceil_(/)", "X = ceil(X)."),
    INPLACE("round_", "X.round_()", "X rounded half to even."),
    INPLACE("sign_", "X.sign_(/)", "X = sign(X)."),
    INPLACE("square_", "X.square_(/)", "X = X * X."),
    INPLACE("tril_", "X.tril_(diagonal=0)", "Zeroes X above the diagonal."),
    INPLACE("scatter_", "X.scatter_(dim, index, src)", "Writes src into X at the positions index gives along dim."),
    INPLACE("scatter_add_", "X.scatter_add_(dim, index, src)", "Adds src into X at the positions index gives along dim."),
    INPLACE("index_fill_", "X.index_fill_(dim, index, value)", "Sets the slices at index along dim to value."),
    INPLACE("cumsum_", "X.cumsum_(dim)", "Running sums along dim."),
    INPLACE("cumprod_", "X.cumprod_(dim)", "Running products along dim."),
    INPLACE("reciprocal_", "X.reciprocal_(/)", "X = 1 / X."),
    INPLACE("trunc_", "X.trunc_(/)", "Rounds X toward zero."),
    INPLACE("triu_", "X.triu_(diagonal=0)", "Zeroes X below the diagonal."),
    INPLACE("logical_not_", "X.logical_not_(/)", "X = not X."),
    {"t_", m_reshape_inplace, "X.t_(/)", "Transposes X itself (its shape and strides change; no element moves).", "", 0, "X"},
    {"transpose_", m_reshape_inplace, "X.transpose_(dim0, dim1)", "Swaps two dimensions of X itself.", "", 0, "X"},
    {"unsqueeze_", m_reshape_inplace, "X.unsqueeze_(dim)", "Inserts a dimension of size 1 into X itself.", "", 0, "X"},
    {"squeeze_", m_reshape_inplace, "X.squeeze_(dim=None)", "Removes dimensions of size 1 from X itself.", "", 0, "X"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* torch functions that are also methods, with X as their first argument */
const char *const tensor_method_aliases[] = {
    "reshape", "transpose", "select", "narrow", "diagonal", "unbind", "split", "chunk", "movedim", "moveaxis",
    "swapaxes", "swapdims", "unflatten", "gather", "scatter", "scatter_add", "index_select", "index_fill",
    "masked_select", "nonzero", "argwhere", "take", "count_nonzero", "roll", "diag", "cumprod", "amax", "amin", "logsumexp",
    "unique", "tile", "cross", "mv", "addmm", "baddbmm", "addmv", "addbmm", "log1p", "expm1", "exp2", "erf", "erfc", "sinh",
    "cosh", "asinh", "acosh", "atanh", "reciprocal", "trunc", "frac", "sort", "argsort", "msort", "topk", "kthvalue", "median", "mode", "permute", "unsqueeze", "squeeze", "flatten", "repeat_interleave", "tril", "triu",
    "flip", "numel", "t", "sin", "cos", "tan", "exp", "log", "log2", "log10", "sqrt", "rsqrt", "tanh", "relu",
    "sigmoid", "floor", "ceil", "round", "neg", "sign", "square", "abs", "asin", "acos", "atan", "isnan", "isinf",
    "isfinite", "logical_not", "add", "sub", "mul", "div", "pow", "maximum", "minimum", "eq", "ne", "lt", "le", "gt",
    "ge", "logical_and", "logical_or", "remainder", "sum", "mean", "max", "min", "argmax", "argmin", "prod", "std",
    "var", "any", "all", "matmul", "mm", "bmm", "dot", "softmax", "log_softmax", "cumsum", "clamp", "clip", "clamp_min", "clamp_max",
    "masked_fill", "allclose", "isclose", "equal", "norm", "atan2", "outer", "floor_divide", NULL};

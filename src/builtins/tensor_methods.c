/* tensor_methods.c - methods that exist only on tensors (X.item(), X.float(), X.size(1), X.to(...)). Methods that
 * mirror a torch function (X.reshape, X.sum, X.softmax ...) are the same builtin with X as the first argument:
 * see builtins_find_method. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include <string.h>

static Tensor *self(Args *a) { return a->pos[0]->u.t; }

static Value *m_item(Interp *I, Args *a) {
    if (self(a)->numel != 1)
        return rt_error(I, "a Tensor with %lld elements cannot be converted to a Python number (item() needs exactly one)", (long long)self(a)->numel);
    return ops_item(a->pos[0]);
}

static Value *tolist_rec(const Tensor *t, int dim, int64_t base) {
    if (dim == t->ndim) {
        if (t->dtype == DT_F32) return val_float(ten_get(t, base));
        if (t->dtype == DT_BOOL) return val_bool(ten_get(t, base) != 0);
        return val_int(ten_i64(t)[base]);
    }
    int64_t inner = 1;
    for (int i = dim + 1; i < t->ndim; i++) inner *= t->shape[i];
    Value *l = val_list(t->shape[dim]);
    for (int64_t i = 0; i < t->shape[dim]; i++) val_seq_set(l, i, tolist_rec(t, dim + 1, base + i * inner));
    return l;
}

static Value *m_tolist(Interp *I, Args *a) {
    if (self(a)->numel > 10000000) return rt_error(I, "tolist(): the tensor is too large to become a list");
    return tolist_rec(self(a), 0, 0);
}

static Value *m_same(Interp *I, Args *a) { return val_incref(a->pos[0]); }
static Value *m_clone(Interp *I, Args *a) {
    Tensor *t = ten_copy(self(a));
    return t ? val_tensor(t) : rt_tensor_error(I);
}

/* float / long / int / bool: tag is the dtype */
static Value *m_cast(Interp *I, Args *a) {
    Tensor *t = ten_cast(self(a), (DType)a->fn->tag);
    return t ? val_tensor(t) : rt_tensor_error(I);
}

/* X.to(dtype) / X.to('cpu') / X.type(dtype) */
static Value *m_to(Interp *I, Args *a) {
    Value *d = arg(a, 1, "dtype");
    if (!d) d = arg(a, -1, "device");
    if (!d) return rt_error(I, "%s() needs a dtype or a device", a->fname);
    if (d->kind == V_STR) return val_incref(a->pos[0]);          /* devices: attn has only the CPU */
    Value *dt = arg(a, 1, "dtype");
    if (dt && dt->kind == V_DTYPE) {
        Tensor *t = ten_cast(self(a), dt->u.dtype);
        return t ? val_tensor(t) : rt_tensor_error(I);
    }
    if (dt && dt->kind == V_TENSOR) {
        Tensor *t = ten_cast(self(a), dt->u.t->dtype);
        return t ? val_tensor(t) : rt_tensor_error(I);
    }
    return val_incref(a->pos[0]);
}

static Value *m_size(Interp *I, Args *a) {
    Value *d = arg(a, 1, "dim");
    Tensor *t = self(a);
    if (!d) return val_size(t->shape, t->ndim);
    int64_t k;
    if (!arg_int(I, d, "dim", &k)) return NULL;
    int nd = ten_norm_dim((int)k, t->ndim);
    if (nd < 0) return rt_tensor_error(I);
    return val_int(t->ndim ? t->shape[nd] : 1);
}

static Value *m_dim(Interp *I, Args *a) { return val_int(self(a)->ndim); }

static Value *m_expand(Interp *I, Args *a) {
    Tensor *t = self(a);
    int64_t sh[TEN_MAX_DIMS];
    Value **items = a->pos + 1;
    int64_t n = a->npos - 1;
    if (n == 1 && (a->pos[1]->kind == V_TUPLE || a->pos[1]->kind == V_LIST)) { items = a->pos[1]->u.seq.items; n = a->pos[1]->u.seq.n; }
    if (n > TEN_MAX_DIMS || n < t->ndim) return rt_error(I, "expand(): give at least %d sizes", t->ndim);
    for (int64_t i = 0; i < n; i++) {
        if (!arg_int(I, items[i], "a size", &sh[i])) return NULL;
        int64_t ti = i - (n - t->ndim);
        if (sh[i] == -1 && ti >= 0) sh[i] = t->shape[ti];
    }
    Tensor *r = ten_expand(t, (int)n, sh);
    return r ? val_tensor(r) : rt_tensor_error(I);
}

static Value *m_repeat(Interp *I, Args *a) {
    int64_t reps[TEN_MAX_DIMS];
    Value **items = a->pos + 1;
    int64_t n = a->npos - 1;
    if (n == 1 && (a->pos[1]->kind == V_TUPLE || a->pos[1]->kind == V_LIST)) { items = a->pos[1]->u.seq.items; n = a->pos[1]->u.seq.n; }
    if (n > TEN_MAX_DIMS) return rt_error(I, "repeat(): too many dimensions");
    for (int64_t i = 0; i < n; i++) if (!arg_int(I, items[i], "a repeat count", &reps[i])) return NULL;
    Tensor *r = ten_repeat(self(a), reps, (int)n);
    return r ? val_tensor(r) : rt_tensor_error(I);
}

/* In-place fill_(v) and zero_(): change X itself, as in PyTorch. */
static Value *m_fill(Interp *I, Args *a) {
    double v = 0;
    if (a->fn->tag == 0) {
        if (a->npos < 2) return rt_error(I, "fill_(value) needs a value");
        if (!arg_double(I, a->pos[1], "value", &v)) return NULL;
    }
    Tensor *t = self(a);
    for (int64_t i = 0; i < t->numel; i++) ten_set(t, i, v);
    return val_incref(a->pos[0]);
}

static Value *m_view_as(Interp *I, Args *a) {
    if (a->npos < 2 || a->pos[1]->kind != V_TENSOR) return rt_error(I, "%s() needs a tensor", a->fname);
    Tensor *o = a->pos[1]->u.t;
    Tensor *r = a->fn->tag == 0 ? ten_reshape(self(a), o->ndim, o->shape) : ten_expand(self(a), o->ndim, o->shape);
    return r ? val_tensor(r) : rt_tensor_error(I);
}

static Value *m_is_floating_point(Interp *I, Args *a) { return val_bool(self(a)->dtype == DT_F32); }

const Builtin bi_tensor_methods[] = {
    {"item", m_item, "X.item()", "The single value of a one-element tensor, as a Python number.", "", 0},
    {"tolist", m_tolist, "X.tolist()", "The tensor as nested Python lists.", "", 0},
    {"numpy", m_same, "X.numpy()", "In attn tensors stand in for NumPy arrays: returns X (save(\"x.npy\", X) to use NumPy).", "", 0},
    {"detach", m_same, "X.detach()", "X (attn has no autograd).", "", 0},
    {"contiguous", m_same, "X.contiguous()", "X (attn tensors are always contiguous).", "", 0},
    {"cpu", m_same, "X.cpu()", "X (attn runs on the CPU).", "", 0},
    {"clone", m_clone, "X.clone()", "A copy of X.", "", 0},
    {"float", m_cast, "X.float()", "A float32 copy.", "", DT_F32},
    {"long", m_cast, "X.long()", "An int64 copy (floats truncate toward zero).", "", DT_I64},
    {"int", m_cast, "X.int()", "An integer copy (int64 in attn).", "", DT_I64},
    {"bool", m_cast, "X.bool()", "A bool copy (nonzero is True).", "", DT_BOOL},
    {"to", m_to, "X.to(dtype) / X.to(device)", "A copy with another dtype; devices other than the CPU are ignored.", "", 0},
    {"type", m_to, "X.type(dtype)", "A copy with another dtype.", "", 0},
    {"size", m_size, "X.size(dim=None)", "The shape (torch.Size), or one dimension.", "", 0},
    {"dim", m_dim, "X.dim()", "Number of dimensions.", "", 0},
    {"ndimension", m_dim, "X.ndimension()", "Number of dimensions.", "", 0},
    {"expand", m_expand, "X.expand(*sizes)", "Broadcasts X to a larger shape (-1 keeps a dimension).", "", 0},
    {"repeat", m_repeat, "X.repeat(*reps)", "Tiles X reps times along each dimension.", "", 0},
    {"fill_", m_fill, "X.fill_(v)", "Sets every element of X to v (in place).", "", 0},
    {"zero_", m_fill, "X.zero_()", "Sets every element of X to 0 (in place).", "", 1},
    {"view_as", m_view_as, "X.view_as(Y)", "X reshaped to Y's shape.", "", 0},
    {"expand_as", m_view_as, "X.expand_as(Y)", "X broadcast to Y's shape.", "", 1},
    {"is_floating_point", m_is_floating_point, "X.is_floating_point()", "True for float32.", "", 0},
    {NULL, NULL, NULL, NULL, NULL, 0}};

/* torch functions that are also methods, with X as their first argument */
const char *const tensor_method_aliases[] = {
    "reshape", "view", "transpose", "permute", "unsqueeze", "squeeze", "flatten", "repeat_interleave", "tril", "triu",
    "flip", "numel", "t", "sin", "cos", "tan", "exp", "log", "log2", "log10", "sqrt", "rsqrt", "tanh", "relu",
    "sigmoid", "floor", "ceil", "round", "neg", "sign", "square", "abs", "asin", "acos", "atan", "isnan", "isinf",
    "isfinite", "logical_not", "add", "sub", "mul", "div", "pow", "maximum", "minimum", "eq", "ne", "lt", "le", "gt",
    "ge", "logical_and", "logical_or", "remainder", "sum", "mean", "max", "min", "argmax", "argmin", "prod", "std",
    "var", "any", "all", "matmul", "mm", "bmm", "dot", "softmax", "log_softmax", "cumsum", "clamp", "clip",
    "masked_fill", "allclose", "isclose", "equal", "norm", "atan2", "outer", "floor_divide", NULL};

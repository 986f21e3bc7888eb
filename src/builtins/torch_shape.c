/* torch_shape.c - reshaping and joining: reshape/view, transpose, permute, (un)squeeze, flatten, cat, stack,
 * repeat_interleave (§11.3 repeats valid_lens with it), tril/triu, flip. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include <stdlib.h>
#include <string.h>

static Value *done(Interp *I, Tensor *t) { return t ? val_tensor(t) : rt_tensor_error(I); }

static Tensor *self_tensor(Interp *I, Args *a) {
    Value *x = arg(a, 0, "input");
    if (!x || x->kind != V_TENSOR) { rt_error(I, "%s() needs a tensor as its first argument", a->fname); return NULL; }
    return x->u.t;
}

/* Ints from args[first...] or one tuple/list/torch.Size there; -1 allowed when allow_neg. */
static bool int_list(Interp *I, Args *a, int first, const char *kwname, int64_t *out, int *n, bool allow_neg) {
    Value *v = arg(a, first, kwname);
    *n = 0;
    if (!v) return true;
    Value **items;
    int64_t cnt;
    if ((v->kind == V_TUPLE || v->kind == V_LIST)) { items = v->u.seq.items; cnt = v->u.seq.n; }
    else { items = a->pos + first; cnt = a->npos - first; if (first >= a->npos) { items = &v; cnt = 1; } }
    if (cnt > TEN_MAX_DIMS) { rt_error(I, "tensors have at most %d dimensions", TEN_MAX_DIMS); return false; }
    for (int64_t i = 0; i < cnt; i++) {
        if (!arg_int(I, items[i], "a dimension", &out[i])) return false;
        if (!allow_neg && out[i] < 0) { rt_error(I, "negative value %lld", (long long)out[i]); return false; }
    }
    *n = (int)cnt;
    return true;
}

static Value *bi_reshape(Interp *I, Args *a) {
    static const char *const kw[] = {"input", "shape", NULL};
    if (!args_check(I, a, -1, kw)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t sh[TEN_MAX_DIMS];
    int n;
    if (!int_list(I, a, 1, "shape", sh, &n, true)) return NULL;
    if (!arg(a, 1, "shape")) return rt_error(I, "%s() needs a shape, e.g. X.%s(-1, 1)", a->fname, a->fname);
    return done(I, ten_reshape(x, n, sh));
}

static Value *bi_transpose(Interp *I, Args *a) {
    static const char *const kw[] = {"input", "dim0", "dim1", NULL};
    if (!args_check(I, a, 3, kw)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    Value *d0 = arg(a, 1, "dim0"), *d1 = arg(a, 2, "dim1");
    if (!d0 || !d1) return rt_error(I, "transpose(X, dim0, dim1) needs two dims, e.g. X.transpose(1, 2)");
    int64_t a0, a1;
    if (!arg_int(I, d0, "dim0", &a0) || !arg_int(I, d1, "dim1", &a1)) return NULL;
    return done(I, ten_transpose(x, (int)a0, (int)a1));
}

static Value *bi_t(Interp *I, Args *a) {
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    if (x->ndim > 2) return rt_error(I, "t() expects a tensor with <= 2 dimensions, but it has %d (use transpose)", x->ndim);
    return done(I, x->ndim < 2 ? ten_copy(x) : ten_transpose(x, 0, 1));
}

static Value *bi_permute(Interp *I, Args *a) {
    static const char *const kw[] = {"input", "dims", NULL};
    if (!args_check(I, a, -1, kw)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t d[TEN_MAX_DIMS];
    int n;
    if (!int_list(I, a, 1, "dims", d, &n, true)) return NULL;
    if (n != x->ndim) return rt_error(I, "permute(): the number of dims (%d) must equal the tensor's dimensions (%d)", n, x->ndim);
    int dims[TEN_MAX_DIMS];
    for (int i = 0; i < n; i++) dims[i] = (int)d[i];
    return done(I, ten_permute(x, dims));
}

/* unsqueeze(X, dim) / squeeze(X, dim=None): tag 0 / 1 */
static Value *bi_squeeze(Interp *I, Args *a) {
    static const char *const kw[] = {"input", "dim", NULL};
    if (!args_check(I, a, 2, kw)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    Value *dv = arg(a, 1, "dim");
    int64_t d = 0;
    if (dv && dv->kind != V_NONE && !arg_int(I, dv, "dim", &d)) return NULL;
    if (a->fn->tag == 0) {
        if (!dv) return rt_error(I, "unsqueeze() needs a dim, e.g. X.unsqueeze(0)");
        return done(I, ten_unsqueeze(x, (int)d));
    }
    return done(I, ten_squeeze(x, (int)d, !dv || dv->kind == V_NONE));
}

static Value *bi_flatten(Interp *I, Args *a) {
    static const char *const kw[] = {"input", "start_dim", "end_dim", NULL};
    if (!args_check(I, a, 3, kw)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t s = 0, e = -1;
    Value *sv = arg(a, 1, "start_dim"), *ev = arg(a, 2, "end_dim");
    if ((sv && !arg_int(I, sv, "start_dim", &s)) || (ev && !arg_int(I, ev, "end_dim", &e))) return NULL;
    if (x->ndim == 0) return done(I, ten_reshape(x, 1, &x->numel));
    int sd = ten_norm_dim((int)s, x->ndim), ed = sd < 0 ? -1 : ten_norm_dim((int)e, x->ndim);
    if (sd < 0 || ed < 0) return rt_tensor_error(I);
    if (sd > ed) return rt_error(I, "flatten(): start_dim cannot come after end_dim");
    int64_t sh[TEN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < sd; i++) sh[n++] = x->shape[i];
    int64_t m = 1;
    for (int i = sd; i <= ed; i++) m *= x->shape[i];
    sh[n++] = m;
    for (int i = ed + 1; i < x->ndim; i++) sh[n++] = x->shape[i];
    return done(I, ten_reshape(x, n, sh));
}

/* cat / stack: tag 0 / 1 */
static Value *bi_cat(Interp *I, Args *a) {
    static const char *const kw[] = {"tensors", "dim", "axis", NULL};
    if (!args_check(I, a, 2, kw)) return NULL;
    Value *ts = arg(a, 0, "tensors"), *dv = arg(a, 1, "dim");
    if (!dv) dv = arg(a, -1, "axis");
    if (!ts || (ts->kind != V_LIST && ts->kind != V_TUPLE)) return rt_error(I, "%s() needs a list or tuple of tensors, e.g. torch.%s((X, Y), dim=0)", a->fname, a->fname);
    int64_t d = 0;
    if (dv && !arg_int(I, dv, "dim", &d)) return NULL;
    int n = (int)ts->u.seq.n;
    Tensor **arr = xcalloc((size_t)(n ? n : 1), sizeof(Tensor *));
    for (int i = 0; i < n; i++) {
        if (ts->u.seq.items[i]->kind != V_TENSOR) { free(arr); return rt_error(I, "%s(): item %d is a %s, not a tensor", a->fname, i, val_type_name(ts->u.seq.items[i])); }
        arr[i] = ts->u.seq.items[i]->u.t;
    }
    Tensor *r = a->fn->tag ? ten_stack(arr, n, (int)d) : ten_cat(arr, n, (int)d);
    free(arr);
    return done(I, r);
}

/* repeat_interleave(X, repeats, dim=None): repeats is an int or a tensor of counts. */
static Value *bi_repeat_interleave(Interp *I, Args *a) {
    static const char *const kw[] = {"input", "repeats", "dim", NULL};
    if (!args_check(I, a, 3, kw)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    Value *rv = arg(a, 1, "repeats"), *dv = arg(a, 2, "dim");
    if (!rv) return rt_error(I, "repeat_interleave(X, repeats, dim=None) needs repeats");
    int64_t d = 0;
    bool flat = !dv || dv->kind == V_NONE;
    if (!flat && !arg_int(I, dv, "dim", &d)) return NULL;
    Tensor *r;
    if (rv->kind == V_TENSOR && rv->u.t->ndim > 0) {
        if (rv->u.t->dtype == DT_F32) return rt_error(I, "repeat_interleave(): repeats must be integers");
        r = ten_repeat_interleave(x, ten_i64(rv->u.t), rv->u.t->numel, (int)d, flat);
    } else {
        int64_t k;
        if (!arg_int(I, rv, "repeats", &k)) return NULL;
        r = ten_repeat_interleave(x, &k, 1, (int)d, flat);
    }
    return done(I, r);
}

/* tril / triu: tag 0 / 1 */
static Value *bi_tril(Interp *I, Args *a) {
    static const char *const kw[] = {"input", "diagonal", NULL};
    if (!args_check(I, a, 2, kw)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t k = 0;
    Value *kv = arg(a, 1, "diagonal");
    if (kv && !arg_int(I, kv, "diagonal", &k)) return NULL;
    return done(I, ten_tril(x, k, a->fn->tag == 1));
}

static Value *bi_flip(Interp *I, Args *a) {
    static const char *const kw[] = {"input", "dims", NULL};
    if (!args_check(I, a, -1, kw)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t d[TEN_MAX_DIMS];
    int n;
    if (!int_list(I, a, 1, "dims", d, &n, true)) return NULL;
    Tensor *cur = ten_copy(x);
    for (int i = 0; i < n && cur; i++) {
        Tensor *nx = ten_flip(cur, (int)d[i]);
        ten_free(cur);
        cur = nx;
    }
    return done(I, cur);
}

static Value *bi_numel(Interp *I, Args *a) {
    Tensor *x = self_tensor(I, a);
    return x ? val_int(x->numel) : NULL;
}

const Builtin bi_torch_shape[] = {
    {"reshape", bi_reshape, "torch.reshape(X, shape) / X.reshape(*shape)", "Same elements, new shape; one dim may be -1.", "§2.1", 0},
    {"transpose", bi_transpose, "torch.transpose(X, dim0, dim1)", "Swaps two dimensions.", "§2.3", 0},
    {"permute", bi_permute, "torch.permute(X, dims)", "Reorders dimensions (§11.5's transpose_qkv uses (0, 2, 1, 3)).", "§11.5", 0},
    {"unsqueeze", bi_squeeze, "torch.unsqueeze(X, dim)", "Inserts a dimension of size 1 at dim.", "§2.1", 0},
    {"squeeze", bi_squeeze, "torch.squeeze(X, dim=None)", "Removes dimensions of size 1.", "§2.1", 1},
    {"flatten", bi_flatten, "torch.flatten(X, start_dim=0, end_dim=-1)", "Merges dimensions into one.", "", 0},
    {"cat", bi_cat, "torch.cat(tensors, dim=0)", "Joins tensors along an existing dimension.", "§2.1", 0},
    {"concat", bi_cat, "torch.concat(tensors, dim=0)", "Same as cat.", "", 0},
    {"stack", bi_cat, "torch.stack(tensors, dim=0)", "Joins same-shaped tensors along a new dimension.", "", 1},
    {"repeat_interleave", bi_repeat_interleave, "torch.repeat_interleave(X, repeats, dim=None)",
     "Repeats each element: §11.3 repeats valid_lens for every query this way.", "§11.3", 0},
    {"tril", bi_tril, "torch.tril(X, diagonal=0)", "Keeps the lower triangle (a causal mask).", "", 0},
    {"triu", bi_tril, "torch.triu(X, diagonal=0)", "Keeps the upper triangle.", "", 1},
    {"flip", bi_flip, "torch.flip(X, dims)", "Reverses the order along dims.", "", 0},
    {"numel", bi_numel, "torch.numel(X)", "Number of elements.", "", 0},
    {"t", bi_t, "torch.t(X)", "Transpose of a matrix.", "", 0},
    {NULL, NULL, NULL, NULL, NULL, 0}};

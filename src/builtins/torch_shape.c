/* torch_shape.c - reshaping and joining: reshape/view, transpose, permute, (un)squeeze, flatten, cat, stack,
 * repeat_interleave (§11.3 repeats valid_lens with it), tril/triu, flip. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>


static Tensor *self_tensor(Interp *I, Args *a) {
    Value *x = arg(a, 0, "input");
    if (!x) { rt_error(I, "%s() needs a tensor as its first argument", a->fname); return NULL; }
    if (x->kind != V_TENSOR) { arg_not_tensor(I, a, x, "input", ARG_TENSOR); return NULL; }
    return x->u.t;
}

int norm_dim64_in(TenCtx *c, int64_t d, int ndim) {
    int n = ndim ? ndim : 1;
    if (d < -n || d >= n) {
        ten_fail_in(c, "Dimension out of range (expected to be in range of [%d, %d], but got %lld)", -n, n - 1, (long long)d);
        return -1;
    }
    return (int)(d < 0 ? d + n : d);
}

bool dim_fits(Interp *I, int64_t d, int n) {
    if (d >= -(int64_t)INT_MAX && d <= INT_MAX) return true;
    norm_dim64_in(I->run.ten, d, n);
    rt_tensor_error(I);
    return false;
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
    if (!arg_ints(I, items, cnt, "a dimension", out)) return false;
    for (int64_t i = 0; i < cnt; i++)
        if (!allow_neg && out[i] < 0) { rt_error(I, "negative value %lld", (long long)out[i]); return false; }
    *n = (int)cnt;
    return true;
}

/* reshape (tag 0): a view when the strides allow, else a copy. view (tag 1): a view or an error. */
/* The tensor value a shape function works on (X in X.view(...) or torch.reshape(X, ...)), when autograd records the
 * operation on it; else NULL. */
static Value *ag_self(Interp *I, Args *a) {
    Value *v = arg(a, 0, "input");
    return v && v->kind == V_TENSOR && grad_recording(I, 1, &v) ? v : NULL;
}

static Value *bi_reshape(Interp *I, Args *a) {
    Value *p_[2];                               /* input, shape ("torch.reshape(input, shape) / X.reshape(*shape)") */
    if (args_bind_form(I, a, p_, 2) < 0) return NULL;      /* X.view(*size): its one form */
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t sh[TEN_MAX_DIMS];
    int n;
    const char *kwname = a->fn->tag ? "size" : "shape";
    if (a->fn->tag && arg(a, 1, "size") && arg(a, 1, "size")->kind == V_DTYPE)
        return rt_error(I, "view(dtype) is not in attn: use X.to(dtype) for a converted copy");
    if (!int_list(I, a, 1, kwname, sh, &n, true)) return NULL;
    if (!arg(a, 1, kwname)) return rt_error(I, "%s() needs a shape, e.g. X.%s(-1, 1)", a->fname, a->fname);
    Value *g = ag_self(I, a);
    if (g) return ret_ag(I, a->fn->tag ? ag_view(&I->run.ag, arg_ag(g), n, sh) : ag_reshape(&I->run.ag, arg_ag(g), n, sh));
    return rt_tensor_result(I, a->fn->tag ? ten_view_shape(x, n, sh) : ten_reshape(x, n, sh));
}

static Value *bi_transpose(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim0, dim1 (swapaxes: axis0, axis1) */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    Value *d0 = p_[1], *d1 = p_[2];
    int64_t a0, a1;
    if (!arg_int(I, d0, "dim0", &a0) || !arg_int(I, d1, "dim1", &a1) || !dim_fits(I, a0, x->ndim) || !dim_fits(I, a1, x->ndim)) return NULL;
    Value *g = ag_self(I, a);
    if (g) return ret_ag(I, ag_transpose(&I->run.ag, arg_ag(g), (int)a0, (int)a1));
    return rt_tensor_result(I, ten_transpose(x, (int)a0, (int)a1));
}

static Value *bi_t(Interp *I, Args *a) {
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    if (x->ndim > 2) return rt_error(I, "%s() expects a tensor with <= 2 dimensions, but self is %dD", a->fname, x->ndim);
    Value *g = ag_self(I, a);
    if (g) return ret_ag(I, ag_t(&I->run.ag, arg_ag(g)));
    return rt_tensor_result(I, x->ndim < 2 ? ten_alias(x) : ten_transpose(x, 0, 1));
}

static Value *bi_permute(Interp *I, Args *a) {
    Value *p_[2];                               /* input, dims ("torch.permute(input, dims) / X.permute(*dims)") */
    if (args_bind_form(I, a, p_, 2) < 0) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t d[TEN_MAX_DIMS];
    int n;
    if (!int_list(I, a, 1, "dims", d, &n, true)) return NULL;
    if (n != x->ndim) return rt_raise(I, "RuntimeError", "permute(): the number of dims (%d) must equal the tensor's dimensions (%d)", n, x->ndim);
    int dims[TEN_MAX_DIMS];
    for (int i = 0; i < n; i++) { if (!dim_fits(I, d[i], x->ndim)) return NULL; dims[i] = (int)d[i]; }
    Value *g = ag_self(I, a);
    if (g) return ret_ag(I, ag_permute(&I->run.ag, arg_ag(g), dims));
    return rt_tensor_result(I, ten_permute(x, dims));
}

/* unsqueeze(X, dim) / squeeze(X, dim=None): tag 0 / 1 */
static Value *bi_squeeze(Interp *I, Args *a) {
    Value *p_[2];                               /* input, dim */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    Value *dv = p_[1];
    int64_t d = 0;
    if (dv && dv->kind != V_NONE && (!arg_int(I, dv, "dim", &d) || !dim_fits(I, d, x->ndim + (a->fn->tag == 0)))) return NULL;
    Value *g = ag_self(I, a);
    if (a->fn->tag == 0) {
        if (!dv) return rt_error(I, "unsqueeze() needs a dim, e.g. X.unsqueeze(0)");
        if (g) return ret_ag(I, ag_unsqueeze(&I->run.ag, arg_ag(g), (int)d));
        return rt_tensor_result(I, ten_unsqueeze(x, (int)d));
    }
    if (g) return ret_ag(I, ag_squeeze(&I->run.ag, arg_ag(g), (int)d, !dv || dv->kind == V_NONE));
    return rt_tensor_result(I, ten_squeeze(x, (int)d, !dv || dv->kind == V_NONE));
}

static Value *bi_flatten(Interp *I, Args *a) {
    Value *p_[3];                               /* input, start_dim, end_dim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t s = 0, e = -1;
    Value *sv = p_[1], *ev = p_[2];
    if ((sv && !arg_int(I, sv, "start_dim", &s)) || (ev && !arg_int(I, ev, "end_dim", &e))) return NULL;
    if (x->ndim == 0) return rt_tensor_result(I, ten_reshape(x, 1, &x->numel));
    int sd = norm_dim64_in(I->run.ten, s, x->ndim), ed = sd < 0 ? -1 : norm_dim64_in(I->run.ten, e, x->ndim);
    if (sd < 0 || ed < 0) return rt_tensor_error(I);
    if (sd > ed) return rt_error(I, "flatten() has invalid args: start_dim cannot come after end_dim");
    if (sd == ed) return val_incref(p_[0]);     /* X itself, as in PyTorch */
    int64_t sh[TEN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < sd; i++) sh[n++] = x->shape[i];
    int64_t m = 1;
    for (int i = sd; i <= ed; i++) m *= x->shape[i];
    sh[n++] = m;
    for (int i = ed + 1; i < x->ndim; i++) sh[n++] = x->shape[i];
    Value *g = ag_self(I, a);
    if (g) return ret_ag(I, ag_reshape(&I->run.ag, arg_ag(g), n, sh));     /* flatten is reshape in PyTorch */
    return rt_tensor_result(I, ten_reshape(x, n, sh));
}

/* cat / stack: tag 0 / 1 */
static Value *bi_cat(Interp *I, Args *a) {
    Value *p_[2];                               /* tensors, dim (or axis: "torch.cat(tensors, dim=0) / torch.cat(tensors, axis=0)") */
    if (args_bind_form(I, a, p_, 2) < 0) return NULL;
    Value *ts = p_[0], *dv = p_[1];
    if (!ts || (ts->kind != V_LIST && ts->kind != V_TUPLE)) return rt_error(I, "%s() needs a list or tuple of tensors, e.g. torch.%s((X, Y), dim=0)", a->fname, a->fname);
    int64_t d = 0;
    if (dv && !arg_int(I, dv, "dim", &d)) return NULL;
    int n = (int)ts->u.seq.n;
    Tensor **arr = xcalloc((size_t)(n ? n : 1), sizeof(Tensor *));
    for (int i = 0; i < n; i++) {
        if (ts->u.seq.items[i]->kind != V_TENSOR) { free(arr); return rt_error(I, "%s(): item %d is a %s, not a tensor", a->fname, i, val_type_name(ts->u.seq.items[i])); }
        arr[i] = ts->u.seq.items[i]->u.t;
    }
    if (n && I->run.ag.grad_enabled && val_requires_grad(ts)) {
        free(arr);
        if (!dim_fits(I, d, ts->u.seq.items[0]->u.t->ndim + (a->fn->tag != 0))) return NULL;
        AgVal *xs = xcalloc((size_t)n, sizeof(AgVal));
        for (int i = 0; i < n; i++) xs[i] = arg_ag(ts->u.seq.items[i]);
        AgVal r = a->fn->tag ? ag_stack(&I->run.ag, xs, n, (int)d) : ag_cat(&I->run.ag, xs, n, (int)d);
        free(xs);
        return ret_ag(I, r);
    }
    Tensor *r = n && !dim_fits(I, d, arr[0]->ndim + (a->fn->tag != 0)) ? NULL : a->fn->tag ? ten_stack_in(I->run.ten, arr, n, (int)d) : ten_cat_in(I->run.ten, arr, n, (int)d);
    if (!r && interp_failed(I)) { free(arr); return NULL; }
    free(arr);
    return rt_tensor_result(I, r);
}

/* repeat_interleave(X, repeats, dim=None): repeats is an int or a tensor of counts. */
static Value *bi_repeat_interleave(Interp *I, Args *a) {
    Value *p_[3];                               /* input, repeats, dim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    Value *rv = p_[1], *dv = p_[2];
    if (!rv) return rt_error(I, "repeat_interleave(X, repeats, dim=None) needs repeats");
    int64_t d = 0;
    bool flat = !dv || dv->kind == V_NONE;
    if (!flat && (!arg_int(I, dv, "dim", &d) || !dim_fits(I, d, x->ndim))) return NULL;
    Tensor *r;
    if (rv->kind == V_TENSOR && rv->u.t->ndim > 0) {
        if (rv->u.t->dtype != DT_I64) return rt_error(I, "repeat_interleave(): repeats must be an int64 tensor");
        Tensor *tmp;
        const Tensor *reps = ten_as_contiguous(rv->u.t, &tmp);
        r = reps ? ten_repeat_interleave(x, ten_i64(reps), reps->numel, (int)d, flat) : NULL;
        ten_free(tmp);
    } else {
        int64_t k;
        if (!arg_int(I, rv, "repeats", &k)) return NULL;
        r = ten_repeat_interleave(x, &k, 1, (int)d, flat);
    }
    return rt_tensor_result(I, r);
}

/* tril / triu: tag 0 / 1 */
static Value *bi_tril(Interp *I, Args *a) {
    Value *p_[2];                               /* input, diagonal */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t k = 0;
    Value *kv = p_[1];
    if (kv && !arg_int(I, kv, "diagonal", &k)) return NULL;
    return rt_tensor_result(I, ten_tril(x, k, a->fn->tag == 1));
}

static Value *bi_flip(Interp *I, Args *a) {
    Value *p_[2];                               /* input, dims ("torch.flip(input, dims) / X.flip(*dims)") */
    if (args_bind_form(I, a, p_, 2) < 0) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    int64_t d[TEN_MAX_DIMS];
    int n;
    if (!int_list(I, a, 1, "dims", d, &n, true)) return NULL;
    for (int i = 0; i < n; i++) if (!dim_fits(I, d[i], x->ndim)) return NULL;
    Tensor *cur = ten_copy(x);
    for (int i = 0; i < n && cur; i++) {
        Tensor *nx = ten_flip(cur, (int)d[i]);
        ten_free(cur);
        cur = nx;
    }
    return rt_tensor_result(I, cur);
}

static bool dim_arg(Interp *I, Args *a, int i, const char *name, int64_t dflt, int64_t *out) {
    Value *v = arg(a, i, name);
    *out = dflt;
    if (!v) return true;
    return arg_int(I, v, name, out);
}

/* A tuple of the n tensors ts (taken over); NULL with the tensor error when one of them could not be made (all are
 * then freed). */
static Value *tuple_of(Interp *I, Tensor **ts, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        if (!ts[i]) {
            for (int64_t j = 0; j < n; j++) ten_free(ts[j]);
            return rt_tensor_error(I);
        }
    Value *r = val_tuple(I->run.heap, n);
    for (int64_t i = 0; i < n; i++) val_seq_set(r, i, val_tensor(I->run.heap, ts[i]));
    return r;
}

/* select(X, dim, index): X[..., index, ...], a view with one dim fewer. */
static Value *bi_select(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, index */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *x = self_tensor(I, a);
    int64_t d, k;
    if (!x) return NULL;
    if (!p_[1] || !p_[2]) return rt_error(I, "select(X, dim, index) needs a dim and an index");
    if (!dim_arg(I, a, 1, "dim", 0, &d) || !dim_arg(I, a, 2, "index", 0, &k) || !dim_fits(I, d, x->ndim)) return NULL;
    Value *g = ag_self(I, a);
    if (g) return ret_ag(I, ag_select(&I->run.ag, arg_ag(g), (int)d, k));
    return rt_tensor_result(I, ten_select(x, (int)d, k));
}

/* narrow(X, dim, start, length): X[..., start:start+length, ...], a view. */
static Value *bi_narrow(Interp *I, Args *a) {
    Value *p_[4];                               /* input, dim, start, length */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Tensor *x = self_tensor(I, a);
    int64_t d, s, n;
    if (!x) return NULL;
    if (!p_[1] || !p_[2] || !p_[3]) return rt_error(I, "narrow(X, dim, start, length) needs all three");
    if (!dim_arg(I, a, 1, "dim", 0, &d) || !dim_arg(I, a, 2, "start", 0, &s) || !dim_arg(I, a, 3, "length", 0, &n) || !dim_fits(I, d, x->ndim)) return NULL;
    Value *g = ag_self(I, a);
    if (g) return ret_ag(I, ag_narrow(&I->run.ag, arg_ag(g), (int)d, s, n));
    return rt_tensor_result(I, ten_narrow(x, (int)d, s, n));
}

/* diagonal(X, offset=0, dim1=0, dim2=1): a view of the diagonal as the last dim. */
static Value *bi_diagonal(Interp *I, Args *a) {
    Value *p_[4];                               /* input, offset, dim1, dim2 */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Tensor *x = self_tensor(I, a);
    int64_t off, d1, d2;
    if (!x) return NULL;
    if (!dim_arg(I, a, 1, "offset", 0, &off) || !dim_arg(I, a, 2, "dim1", 0, &d1) || !dim_arg(I, a, 3, "dim2", 1, &d2) || !dim_fits(I, d1, x->ndim) || !dim_fits(I, d2, x->ndim)) return NULL;
    return rt_tensor_result(I, ten_diagonal(x, off, (int)d1, (int)d2));
}

/* unbind(X, dim=0): the tuple of X.select(dim, i), all views. */
static Value *bi_unbind(Interp *I, Args *a) {
    Value *p_[2];                               /* input, dim */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Tensor *x = self_tensor(I, a);
    int64_t d;
    if (!x || !dim_arg(I, a, 1, "dim", 0, &d)) return NULL;
    if (x->ndim == 0) return rt_error(I, "Dimension specified as 0 but tensor has no dimensions");
    int nd = norm_dim64_in(I->run.ten, d, x->ndim);
    if (nd < 0) return rt_tensor_error(I);
    int64_t n = x->shape[nd];
    Tensor **ts = xcalloc((size_t)(n ? n : 1), sizeof *ts);
    for (int64_t i = 0; i < n; i++) ts[i] = ten_select(x, nd, i);
    Value *r = tuple_of(I, ts, n);
    free(ts);
    return r;
}

/* Views of X along dim of the given lengths (they sum to the dim's size). */
static Value *split_sizes(Interp *I, Tensor *x, int d, const int64_t *sizes, int64_t n) {
    Tensor **ts = xcalloc((size_t)(n ? n : 1), sizeof *ts);
    int64_t start = 0;
    for (int64_t i = 0; i < n; i++) {
        ts[i] = ten_narrow(x, d, start, sizes[i]);
        start += sizes[i];
    }
    Value *r = tuple_of(I, ts, n);
    free(ts);
    return r;
}

/* split(X, size_or_sizes, dim=0): pieces of `size` (the last may be shorter) or of the listed sizes; chunk(X,
 * chunks, dim=0): pieces of ceil(len / chunks), so there may be fewer than chunks. All views. */
static Value *bi_split(Interp *I, Args *a) {
    Value *p_[3];                               /* tensor (chunk: input), split_size_or_sections (chunks), dim */
    bool chunk = a->fn->tag == 1;
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *xv = p_[0], *sv = p_[1];
    if (xv->kind != V_TENSOR) return arg_not_tensor(I, a, xv, chunk ? "input" : "split", chunk ? ARG_TENSOR : ARG_RECEIVER);   /* torch.split calls tensor.split */
    Tensor *x = xv->u.t;
    int64_t d = 0, k = 0, n = 0, *sizes = NULL;
    if (p_[2] && !arg_int(I, p_[2], "dim", &d)) return NULL;
    /* the sizes are converted before X is measured: an __index__ may change X (X.data = ...) */
    bool listed = !chunk && (sv->kind == V_LIST || sv->kind == V_TUPLE);
    if (listed) {
        n = sv->u.seq.n;
        sizes = xcalloc((size_t)(n ? n : 1), sizeof *sizes);
        if (!arg_ints(I, sv->u.seq.items, n, "a split size", sizes)) { free(sizes); return NULL; }
    } else if (!arg_int(I, sv, chunk ? "chunks" : "split_size", &k)) return NULL;
    if (x->ndim == 0) { free(sizes); return rt_error(I, "%s expects at least a 1-dimensional tensor", a->fname); }
    int nd = norm_dim64_in(I->run.ten, d, x->ndim);
    if (nd < 0) { free(sizes); return rt_tensor_error(I); }
    int64_t len = x->shape[nd];
    if (listed) {
        int64_t sum = 0;
        for (int64_t i = 0; i < n; i++) {
            if (sizes[i] < 0) {
                rt_error(I, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%lld", (long long)sizes[i]);
                free(sizes);
                return NULL;
            }
            sum += sizes[i];
        }
        if (sum != len) {
            StrBuf b;
            sb_init(&b);
            for (int64_t i = 0; i < n; i++) sb_printf(&b, i ? ", %lld" : "%lld", (long long)sizes[i]);
            rt_error(I, "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at dimension %d), but got split_sizes=[%s]",
                     (long long)len, nd, sb_str(&b));
            sb_free(&b);
            free(sizes);
            return NULL;
        }
        Value *r = split_sizes(I, x, nd, sizes, n);
        free(sizes);
        return r;
    }
    if (chunk && k <= 0) return rt_raise(I, "RuntimeError", "chunk expects `chunks` to be greater than 0, got: %lld", (long long)k);
    if (!chunk && k < 0) return rt_error(I, "split expects split_size be non-negative, but got split_size=%lld", (long long)k);
    int64_t size = chunk ? (len + k - 1) / k : k;
    if (size == 0 && len > 0) return rt_raise(I, "RuntimeError", "split_size can only be 0 if dimension size is 0, but got dimension size of %lld", (long long)len);
    n = size ? (len + size - 1) / size : 1;
    if (n == 0) n = 1;
    sizes = xcalloc((size_t)n, sizeof *sizes);
    for (int64_t i = 0; i < n; i++) sizes[i] = i < n - 1 ? size : len - size * (n - 1);
    Value *r = split_sizes(I, x, nd, sizes, n);
    free(sizes);
    return r;
}

/* movedim(X, source, destination): the dims in source go to the positions in destination, the others keep
 * their order; swapaxes(X, a, b) is transpose. */
static Value *bi_movedim(Interp *I, Args *a) {
    Value *p_[3];                               /* input, source, destination */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *x = self_tensor(I, a);
    if (!x) return NULL;
    Value *sv = p_[1], *dv = p_[2];
    if (!sv || !dv) return rt_error(I, "movedim(X, source, destination) needs both");
    Args sa = {&sv, 1, NULL, NULL, 0, a->fname, NULL}, da = {&dv, 1, NULL, NULL, 0, a->fname, NULL};
    int64_t src[TEN_MAX_DIMS], dst[TEN_MAX_DIMS];
    int ns, ndst;
    if (!int_list(I, &sa, 0, "source", src, &ns, true) || !int_list(I, &da, 0, "destination", dst, &ndst, true)) return NULL;
    if (ns != ndst)
        return rt_error(I, "movedim: Invalid source or destination dims: source (%d dims) should contain the same number of dims as destination (%d dims)", ns, ndst);
    int perm[TEN_MAX_DIMS], n = x->ndim;
    bool used_src[TEN_MAX_DIMS] = {false}, used_dst[TEN_MAX_DIMS] = {false};
    for (int i = 0; i < n; i++) perm[i] = -1;
    for (int i = 0; i < ns; i++) {
        int s0 = norm_dim64_in(I->run.ten, src[i], n), d0 = s0 < 0 ? -1 : norm_dim64_in(I->run.ten, dst[i], n);
        if (s0 < 0 || d0 < 0) return rt_tensor_error(I);
        if (used_src[s0] || used_dst[d0]) return rt_error(I, "movedim: repeated dim in `source` or `destination`");
        used_src[s0] = used_dst[d0] = true;
        perm[d0] = s0;
    }
    for (int i = 0, s0 = 0; i < n; i++) {
        if (perm[i] >= 0) continue;
        while (used_src[s0]) s0++;
        perm[i] = s0++;
    }
    return rt_tensor_result(I, ten_permute(x, perm));
}

/* unflatten(X, dim, sizes): dim viewed as several (one size may be -1). */
static Value *bi_unflatten(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, sizes */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *x = self_tensor(I, a);
    int64_t d;
    if (!x) return NULL;
    Value *sv = p_[2];
    if (!p_[1] || !sv) return rt_error(I, "unflatten(X, dim, sizes) needs a dim and sizes");
    if (!dim_arg(I, a, 1, "dim", 0, &d)) return NULL;
    int nd = norm_dim64_in(I->run.ten, d, x->ndim);
    if (nd < 0) return rt_tensor_error(I);
    Args sa = {&sv, 1, NULL, NULL, 0, a->fname, NULL};
    int64_t sizes[TEN_MAX_DIMS], sh[TEN_MAX_DIMS];
    int ns;
    if (!int_list(I, &sa, 0, "sizes", sizes, &ns, true)) return NULL;
    if (ns == 0) return rt_error(I, "unflatten: sizes must be non-empty");
    if (x->ndim - 1 + ns > TEN_MAX_DIMS) return rt_error(I, "tensors have at most %d dimensions", TEN_MAX_DIMS);
    int64_t prod = 1, infer = -1;
    for (int i = 0; i < ns; i++) { if (sizes[i] == -1) infer = i; else prod *= sizes[i]; }
    if (infer >= 0 ? (prod == 0 || x->shape[nd] % prod) : prod != x->shape[nd]) {
        StrBuf b;
        sb_init(&b);
        for (int i = 0; i < ns; i++) sb_printf(&b, i ? ", %lld" : "%lld", (long long)sizes[i]);
        rt_error(I, "unflatten: Provided sizes [%s] don't multiply up to the size of dim %d (%lld) in the input tensor", sb_str(&b), nd, (long long)x->shape[nd]);
        sb_free(&b);
        return NULL;
    }
    int k = 0;
    for (int i = 0; i < nd; i++) sh[k++] = x->shape[i];
    for (int i = 0; i < ns; i++) sh[k++] = sizes[i];
    for (int i = nd + 1; i < x->ndim; i++) sh[k++] = x->shape[i];
    return rt_tensor_result(I, ten_view_shape(x, k, sh));
}

static Value *bi_numel(Interp *I, Args *a) {
    Tensor *x = self_tensor(I, a);
    return x ? val_int(I->run.heap, x->numel) : NULL;
}

/* Tensor methods that are not torch functions. */
const Builtin bi_torch_shape_methods[] = {
    {"nelement", bi_numel, "X.nelement(/)", "Number of elements (as X.numel()).", "", 0, "X"},
    {"view", bi_reshape, "X.view(*size)",
     "X with a new shape, sharing its elements: a view, never a copy. Fails when X's strides do not allow it (after a "
     "transpose, say): then use X.contiguous().view(...) or X.reshape(...).", "", 1, "X"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin bi_torch_shape[] = {
    {"reshape", bi_reshape, "torch.reshape(input, shape) / X.reshape(*shape)",
     "Same elements, new shape; one dim may be -1. A view of X when its strides allow (always when X is contiguous), "
     "else a copy, exactly as PyTorch decides: writing into the result may or may not change X.", "§2.1", 0, "torch"},
    {"transpose", bi_transpose, "torch.transpose(input, dim0, dim1)",
     "Swaps two dimensions: a view (no element moves; X.transpose(0, 1).is_contiguous() is False for a matrix).", "§2.3", 0, "torch"},
    {"permute", bi_permute, "torch.permute(input, dims) / X.permute(*dims)",
     "Reorders dimensions, as a view (§11.5's transpose_qkv uses (0, 2, 1, 3), then reshape copies).", "§11.5", 0, "torch"},
    {"unsqueeze", bi_squeeze, "torch.unsqueeze(input, dim)", "Inserts a dimension of size 1 at dim (a view).", "§2.1", 0, "torch"},
    {"squeeze", bi_squeeze, "torch.squeeze(input, dim=None)", "Removes dimensions of size 1 (a view).", "§2.1", 1, "torch"},
    {"flatten", bi_flatten, "torch.flatten(input, start_dim=0, end_dim=-1)", "Merges dimensions into one (as reshape: a view when it can be).", "", 0, "torch"},
    {"cat", bi_cat, "torch.cat(tensors, dim=0) / torch.cat(tensors, axis=0)", "Joins tensors along an existing dimension.", "§2.1", 0, "torch"},
    {"concat", bi_cat, "torch.concat(tensors, dim=0) / torch.concat(tensors, axis=0)", "Same as cat.", "", 0, "torch"},
    {"stack", bi_cat, "torch.stack(tensors, dim=0) / torch.stack(tensors, axis=0)", "Joins same-shaped tensors along a new dimension.", "", 1, "torch"},
    {"repeat_interleave", bi_repeat_interleave, "torch.repeat_interleave(input, repeats, dim=None)",
     "Repeats each element: §11.3 repeats valid_lens for every query this way.", "§11.3", 0, "torch"},
    {"tril", bi_tril, "torch.tril(input, diagonal=0)", "Keeps the lower triangle (a causal mask).", "", 0, "torch"},
    {"triu", bi_tril, "torch.triu(input, diagonal=0)", "Keeps the upper triangle.", "", 1, "torch"},
    {"flip", bi_flip, "torch.flip(input, dims) / X.flip(*dims)", "Reverses the order along dims.", "", 0, "torch"},
    {"numel", bi_numel, "torch.numel(input)", "Number of elements.", "", 0, "torch"},
    {"t", bi_t, "torch.t(input)", "Transpose of a matrix, as a view (no element moves).", "", 0, "torch"},
    {"select", bi_select, "torch.select(input, dim, index)", "X[..., index, ...] along dim: a view with one dimension fewer.", "", 0, "torch"},
    {"narrow", bi_narrow, "torch.narrow(input, dim, start, length)", "X[..., start:start+length, ...] along dim, as a view.", "", 0, "torch"},
    {"diagonal", bi_diagonal, "torch.diagonal(input, offset=0, dim1=0, dim2=1)", "The diagonal (offset > 0: above it) as a view.", "", 0, "torch"},
    {"unbind", bi_unbind, "torch.unbind(input, dim=0)", "The slices along dim, as a tuple of views.", "", 0, "torch"},
    {"split", bi_split, "torch.split(tensor, split_size_or_sections, dim=0)", "Pieces of X along dim, of one size (the last may be shorter) or of the listed sizes: a tuple of views.", "", 0, "torch"},
    {"chunk", bi_split, "torch.chunk(input, chunks, dim=0)", "X cut into `chunks` pieces of ceil(len/chunks) along dim (maybe fewer): a tuple of views.", "", 1, "torch"},
    {"movedim", bi_movedim, "torch.movedim(input, source, destination)", "Moves dims to new positions (the others keep their order): a view.", "", 0, "torch"},
    {"moveaxis", bi_movedim, "torch.moveaxis(input, source, destination)", "Same as movedim.", "", 0, "torch"},
    {"swapaxes", bi_transpose, "torch.swapaxes(input, axis0, axis1)", "Same as transpose.", "", 0, "torch"},
    {"swapdims", bi_transpose, "torch.swapdims(input, dim0, dim1)", "Same as transpose.", "", 0, "torch"},
    {"unflatten", bi_unflatten, "torch.unflatten(input, dim, sizes)", "Splits dim into several of the given sizes (one may be -1): a view.", "", 0, "torch"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

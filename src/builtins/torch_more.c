/* torch_more.c - torch's functions that rearrange and accumulate a tensor: roll, diag, cumprod, amax/amin,
 * logsumexp, unique, meshgrid, tile, hstack/vstack; is_tensor and is_floating_point; and the argument readers
 * (torch_more_internal.h) that torch_index.c, torch_products.c and torch_functional.c share with it. */
#include "torch_more_internal.h"
#include "ops.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>


Tensor *tensor_at(Interp *I, Args *a, int i, const char *name, unsigned accept, ArgTensor *held) {
    *held = (ArgTensor){.t = NULL, .own = NULL, .weak = false};
    Value *v = arg(a, i, name);
    if (!v) { rt_error(I, "%s() missing required argument '%s'", a->fname, name); return NULL; }
    return arg_tensor(I, a, v, name, accept, held);
}

bool int_at(Interp *I, Args *a, int i, const char *name, int64_t dflt, int64_t *out) {
    Value *v = arg(a, i, name);
    *out = dflt;
    return !v || v->kind == V_NONE || arg_int(I, v, name, out);
}

bool num_at(Interp *I, Args *a, int i, const char *name, double dflt, double *out) {
    Value *v = arg(a, i, name);
    *out = dflt;
    return !v || v->kind == V_NONE || arg_double(I, v, name, out);
}

bool bool_at(Interp *I, Args *a, int i, const char *name, bool dflt, bool *out) {
    Value *v = arg(a, i, name);
    *out = dflt;
    return !v || v->kind == V_NONE || arg_bool(I, v, name, out);
}

/* Ints from an int or a tuple/list: n of them into out (at most TEN_MAX_DIMS). */
bool ints_of(Interp *I, Value *v, const char *what, int64_t *out, int *n) {
    *n = 0;
    if (!v || v->kind == V_NONE) return true;
    if (v->kind == V_TUPLE || v->kind == V_LIST) {
        if (v->u.seq.n > 2 * TEN_MAX_DIMS) { rt_error(I, "too many %s", what); return false; }
        int64_t cnt = v->u.seq.n;             /* read once: a student's __index__ may grow the list */
        if (!arg_ints(I, v->u.seq.items, cnt, what, out)) return false;
        *n = (int)cnt;
        return true;
    }
    *n = 1;
    return arg_int(I, v, what, out);
}

Value *tuple_of(Interp *I, Tensor **ts, int n) {
    for (int i = 0; i < n; i++)             /* one could not be made: all are freed, the tensor error raised */
        if (!ts[i]) {
            for (int j = 0; j < n; j++) ten_free(ts[j]);
            return rt_tensor_error(I);
        }
    Value *r = val_tuple(I->run.heap, n);
    for (int i = 0; i < n; i++) val_seq_set(r, i, val_tensor(I->run.heap, ts[i]));
    return r;
}

/* ---- shapes and running values ---- */

/* roll(input, shifts, dims=None): elements shifted along dims, wrapping around; no dims: the flattened tensor. */
static Value *bi_roll(Interp *I, Args *a) {
    Value *p_[3];                               /* input, shifts, dims */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *xv = p_[0];
    if (!xv) return rt_error(I, "roll(input, shifts, dims=None) needs a tensor");
    if (xv->kind != V_TENSOR) return arg_not_tensor(I, a, xv, "input", ARG_TENSOR);
    Tensor *x = xv->u.t;
    int64_t sh[2 * TEN_MAX_DIMS], dims[2 * TEN_MAX_DIMS];
    int ns, nd;
    if (!p_[1]) return rt_error(I, "roll() missing required argument 'shifts'");
    if (!ints_of(I, p_[1], "shifts", sh, &ns) || !ints_of(I, p_[2], "dims", dims, &nd)) return NULL;
    if (nd == 0) {
        if (ns != 1) return rt_error(I, "roll(): shifts and dims must align. shifts: %d, dims: 0", ns);
        int64_t n = x->numel;
        Tensor *f = ten_reshape(x, 1, &n);
        int64_t s = n ? ((sh[0] % n) + n) % n : 0;
        Tensor *p1 = f ? ten_narrow(f, 0, n - s, s) : NULL, *p2 = f ? ten_narrow(f, 0, 0, n - s) : NULL;
        Tensor *parts[2] = {p1, p2}, *c = p1 && p2 ? ten_cat_in(I->run.ten, parts, 2, 0) : NULL, *r = c ? ten_reshape(c, x->ndim, x->shape) : NULL;
        ten_free(f); ten_free(p1); ten_free(p2); ten_free(c);
        return rt_tensor_result(I, r);
    }
    if (ns != nd) return rt_error(I, "shifts and dimensions must align. shifts: %d, dims:%d", ns, nd);
    Tensor *cur = ten_copy(x);
    for (int i = 0; i < nd && cur; i++) {
        int d = norm_dim64_in(I->run.ten, dims[i], cur->ndim);
        if (d < 0) { ten_free(cur); return rt_tensor_error(I); }
        int64_t n = cur->shape[d], s = n ? ((sh[i] % n) + n) % n : 0;
        Tensor *p1 = ten_narrow(cur, d, n - s, s), *p2 = ten_narrow(cur, d, 0, n - s), *parts[2] = {p1, p2};
        Tensor *next = p1 && p2 ? ten_cat_in(I->run.ten, parts, 2, d) : NULL;
        ten_free(p1); ten_free(p2); ten_free(cur);
        cur = next;
    }
    return rt_tensor_result(I, cur);
}

/* diag(input, diagonal=0): a vector becomes a square matrix with it on the diagonal; a matrix gives its diagonal. */
static Value *bi_diag(Interp *I, Args *a) {
    Value *p_[2];                               /* input, diagonal */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *xv = p_[0];
    int64_t k;
    if (!xv) return rt_error(I, "diag(input, diagonal=0) needs a tensor");
    if (xv->kind != V_TENSOR) return arg_not_tensor(I, a, xv, "input", ARG_TENSOR);
    if (!int_at(I, a, 1, "diagonal", 0, &k)) return NULL;
    Tensor *x = xv->u.t;
    if (x->ndim == 2) {
        Tensor *dg = ten_diagonal(x, k, 0, 1), *c = dg ? ten_copy(dg) : NULL;
        ten_free(dg);
        return rt_tensor_result(I, c);
    }
    if (x->ndim != 1) return rt_error(I, "diag(): Supports 1D or 2D tensors. Got %dD", x->ndim);
    int64_t n = x->shape[0] + (k < 0 ? -k : k), sh[2] = {n, n};
    Tensor *m = ten_new_in(I->run.ten, x->dtype, 2, sh), *dg = m ? ten_diagonal(m, k, 0, 1) : NULL;
    if (dg && ten_copy_into(dg, x) < 0) { ten_free(m); m = NULL; }
    ten_free(dg);
    return rt_tensor_result(I, m);
}

static Value *bi_cumprod(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, dtype */
    if (!args_bind(I, a, p_, 3)) return NULL;
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_OVERLOADED, &t1);
    int64_t d;
    if (!x) return NULL;
    if (!p_[1]) { arg_tensor_release(&t1); return rt_error(I, "cumprod() missing required argument 'dim'"); }
    if (!int_at(I, a, 1, "dim", 0, &d) || !dim_fits(I, d, x->ndim) || !cast_to_dtype_kw(I, a, &x, &t1)) { arg_tensor_release(&t1); return NULL; }
    Tensor *r = ten_cumprod(x, (int)d);
    arg_tensor_release(&t1);
    return rt_tensor_result(I, r);
}

/* amax / amin (tag RED_MAX / RED_MIN): over dim (an int or tuple; () or absent: everything); NaN propagates. */
static Value *bi_amax(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, keepdim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1);
    int64_t dims[2 * TEN_MAX_DIMS];
    int nd;
    bool keep;
    if (!x || !ints_of(I, p_[1], "dim", dims, &nd) || !bool_at(I, a, 2, "keepdim", false, &keep)) { arg_tensor_release(&t1); return NULL; }
    Tensor *r = nd ? reduce_dims(I->run.ten, (RedOp)a->fn->tag, x, dims, nd, keep) : ten_reduce((RedOp)a->fn->tag, x, true, 0, keep);
    arg_tensor_release(&t1);
    return rt_tensor_result(I, r);
}

/* logsumexp(input, dim, keepdim=False): log(sum(exp(x))) computed as PyTorch does, around the max. */
static Value *bi_logsumexp(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, keepdim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_OVERLOADED, &t1);
    int64_t dims[2 * TEN_MAX_DIMS];
    int nd;
    bool keep;
    if (!x || !ints_of(I, p_[1], "dim", dims, &nd) || !bool_at(I, a, 2, "keepdim", false, &keep)) { arg_tensor_release(&t1); return NULL; }
    if (!p_[1]) { arg_tensor_release(&t1); return rt_error(I, "logsumexp() missing required argument 'dim'"); }
    Tensor *xf = ten_is_float(x->dtype) ? ten_alias(x) : ten_cast(x, I->run.ten->default_float);
    /* an empty X has no max: its sum (zeros of the reduced shape) shifts nothing, and log(0) gives PyTorch's -inf */
    Tensor *m = xf ? reduce_dims(I->run.ten, xf->numel ? RED_MAX : RED_SUM, xf, dims, nd, true) : NULL;
    /* maxes that are infinite are replaced by 0 (so inf - inf is not taken) */
    Tensor *inf = ten_unary(UOP_ISINF, m ? m : xf), *zero = ten_scalar_d_in(I->run.ten, 0);
    Tensor *m0 = m && inf ? ten_where(inf, zero, true, m, false) : NULL;
    Tensor *d = m0 ? ten_binary(OP_SUB, xf, false, m0, false) : NULL, *e = d ? ten_unary(UOP_EXP, d) : NULL;
    Tensor *s = e ? reduce_dims(I->run.ten, RED_SUM, e, dims, nd, keep) : NULL, *l = s ? ten_unary(UOP_LOG, s) : NULL;
    Tensor *mk = m0 && !keep ? NULL : NULL, *r = NULL;
    if (l) {
        int64_t sh[TEN_MAX_DIMS];
        for (int i = 0; i < l->ndim; i++) sh[i] = l->shape[i];
        mk = keep ? ten_alias(m0) : ten_reshape(m0, l->ndim, sh);
        r = mk ? ten_binary(OP_ADD, l, false, mk, false) : NULL;
    }
    ten_free(xf); ten_free(m); ten_free(inf); ten_free(zero); ten_free(m0); ten_free(d); ten_free(e); ten_free(s); ten_free(l);
    ten_free(mk); arg_tensor_release(&t1);
    return rt_tensor_result(I, r);
}

/* unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None) */
static Value *bi_unique(Interp *I, Args *a) {
    Value *p_[5];                               /* input, sorted, return_inverse, return_counts, dim */
    if (!args_bind(I, a, p_, 5)) return NULL;
    ArgTensor t1; Tensor *x = tensor_at(I, a, 0, "input", ARG_TENSOR, &t1);
    bool srt, inv, cnt;
    Value *dv = p_[4];
    if (!x || !bool_at(I, a, -1, "sorted", true, &srt) || !bool_at(I, a, -1, "return_inverse", false, &inv) ||
        !bool_at(I, a, -1, "return_counts", false, &cnt)) { arg_tensor_release(&t1); return NULL; }
    if (dv && dv->kind != V_NONE) { arg_tensor_release(&t1); return rt_error(I, "unique(dim=...) is not in attn: type help to see what is"); }
    Tensor *iv = NULL, *ct = NULL, *u = ten_unique(x, inv ? &iv : NULL, cnt ? &ct : NULL);
    arg_tensor_release(&t1);
    if (!u) return rt_tensor_error(I);
    if (!inv && !cnt) return val_tensor(I->run.heap, u);
    Tensor *parts[3] = {u, iv, ct};
    int n = 1;
    if (inv) parts[n++] = iv;
    if (cnt) parts[n++] = ct;
    return tuple_of(I, parts, n);
}

/* meshgrid(*tensors, indexing='ij'): views of each 1-D input broadcast to the grid ('xy' swaps the first two). */
static Value *bi_meshgrid(Interp *I, Args *a) {
    Value *p_[2];                               /* *tensors (a->pos), indexing */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value **items = a->pos, *iv = p_[1];
    int64_t n = a->npos;
    if (n == 1 && (a->pos[0]->kind == V_LIST || a->pos[0]->kind == V_TUPLE)) { items = a->pos[0]->u.seq.items; n = a->pos[0]->u.seq.n; }
    bool xy = false;
    if (iv && iv->kind != V_NONE) {
        if (iv->kind != V_STR || (strcmp(iv->u.str.s, "ij") && strcmp(iv->u.str.s, "xy")))
            return rt_error(I, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\"");
        xy = !strcmp(iv->u.str.s, "xy");
    }
    if (n < 1 || n > TEN_MAX_DIMS) return rt_error(I, "meshgrid expects a non-empty TensorList of at most %d tensors", TEN_MAX_DIMS);
    int64_t shape[TEN_MAX_DIMS];
    for (int64_t i = 0; i < n; i++) {
        if (items[i]->kind != V_TENSOR || items[i]->u.t->ndim > 1)
            return rt_error(I, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %s", val_type_name(items[i]));
        shape[i] = items[i]->u.t->numel;
    }
    int64_t grid[TEN_MAX_DIMS];
    memcpy(grid, shape, sizeof grid);
    if (xy && n >= 2) { grid[0] = shape[1]; grid[1] = shape[0]; }
    /* the grid's views hold no data of their own, but what reads them (print, +, clone) works on that many
     * elements: the per-tensor limit applies, as to expand (the product saturates: 8 inputs of 10**5 overflow) */
    int64_t cells = 1;
    for (int64_t i = 0; i < n && cells; i++)
        cells = grid[i] && cells > I->run.ten->limit_numel / grid[i] ? I->run.ten->limit_numel + 1 : cells * grid[i];
    if (cells > I->run.ten->limit_numel)
        return rt_error(I, "meshgrid: a grid of more than %lld elements is too large for attn", (long long)I->run.ten->limit_numel);
    Tensor *outs[TEN_MAX_DIMS];
    for (int64_t i = 0; i < n; i++) {
        const Tensor *t = items[i]->u.t;
        int64_t st[TEN_MAX_DIMS] = {0};
        int at = xy && n >= 2 && i < 2 ? (int)(1 - i) : (int)i;
        st[at] = t->ndim ? t->stride[0] : 0;
        outs[i] = ten_view_of(t, (int)n, grid, st, t->offset);
    }
    return tuple_of(I, outs, (int)n);
}

/* tile(input, dims): repeat with 1s in front when dims is shorter than the tensor. */
static Value *bi_tile(Interp *I, Args *a) {
    Value *p_[2];                               /* input, dims */
    if (!args_bind(I, a, p_, 2)) return NULL;
    Value *xv = p_[0];
    int64_t reps[2 * TEN_MAX_DIMS], full[TEN_MAX_DIMS];
    int n;
    if (!xv) return rt_error(I, "tile(input, dims) needs a tensor");
    if (xv->kind != V_TENSOR) return arg_not_tensor(I, a, xv, "input", ARG_TENSOR);
    if (!ints_of(I, p_[1], "dims", reps, &n)) return NULL;
    Tensor *x = xv->u.t;
    int m = n > x->ndim ? n : x->ndim;
    if (m > TEN_MAX_DIMS) return rt_error(I, "tensors have at most %d dimensions", TEN_MAX_DIMS);
    for (int i = 0; i < m; i++) full[i] = i < m - n ? 1 : reps[i - (m - n)];
    return rt_tensor_result(I, ten_repeat(x, full, m));
}

/* hstack (tag 0: dim 1, dim 0 for vectors), vstack (1: rows, vectors as rows) */
static Value *bi_hstack(Interp *I, Args *a) {
    Value *p_[1];                               /* tensors */
    if (!args_bind(I, a, p_, 1)) return NULL;
    Value *ts = p_[0];
    if (!ts || (ts->kind != V_LIST && ts->kind != V_TUPLE)) return rt_error(I, "%s() needs a non-empty list of tensors", a->fname);
    if (ts->u.seq.n == 0) return rt_raise(I, "RuntimeError", "%s expects a non-empty TensorList", a->fname);     /* PyTorch's words */
    int n = (int)ts->u.seq.n;
    Tensor **arr = xcalloc((size_t)n, sizeof *arr);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        if (ts->u.seq.items[i]->kind != V_TENSOR) { ok = false; rt_error(I, "%s(): item %d is not a tensor", a->fname, i); break; }
        Tensor *t = ts->u.seq.items[i]->u.t;
        if (a->fn->tag == 1 && t->ndim < 2) {
            int64_t sh[2] = {1, t->numel};
            arr[i] = ten_reshape(t, 2, sh);
        } else arr[i] = ten_alias(t);
        if (!arr[i]) ok = false;
    }
    Tensor *r = NULL;
    if (ok) r = ten_cat_in(I->run.ten, arr, n, a->fn->tag == 1 ? 0 : (arr[0]->ndim == 1 ? 0 : 1));
    for (int i = 0; i < n; i++) ten_free(arr[i]);
    free(arr);
    if (interp_failed(I)) { ten_free(r); return NULL; }
    return rt_tensor_result(I, r);
}

/* is_tensor(x) (tag 0), is_floating_point(x) (tag 1) */
static Value *bi_is_tensor(Interp *I, Args *a) {
    Value *v;                                   /* obj / input */
    if (!args_bind(I, a, &v, 1)) return NULL;
    if (a->fn->tag == 0) return val_bool(I->run.heap, v->kind == V_TENSOR);
    if (v->kind != V_TENSOR) return arg_not_tensor(I, a, v, "input", ARG_TENSOR);
    return val_bool(I->run.heap, ten_is_float(v->u.t->dtype));
}

const Builtin bi_torch_more[] = {
    {"is_tensor", bi_is_tensor, "torch.is_tensor(obj)", "True when obj is a tensor.", "", 0, "torch"},
    {"is_floating_point", bi_is_tensor, "torch.is_floating_point(input)", "True when X is float32 or float64.", "", 1, "torch"},
    {"roll", bi_roll, "torch.roll(input, shifts, dims=None)", "Shifts elements along dims, those falling off one end coming back at the other.", "", 0, "torch"},
    {"diag", bi_diag, "torch.diag(input, diagonal=0)", "A vector becomes a diagonal matrix; a matrix gives its diagonal (a copy).", "", 0, "torch"},
    {"cumprod", bi_cumprod, "torch.cumprod(input, dim, *, dtype=None)", "Running products along dim.", "", 0, "torch"},
    {"amax", bi_amax, "torch.amax(input, dim=(), keepdim=False)", "Largest values over dim (several dims allowed), without indices.", "", RED_MAX, "torch"},
    {"amin", bi_amax, "torch.amin(input, dim=(), keepdim=False)", "Smallest values over dim, without indices.", "", RED_MIN, "torch"},
    {"logsumexp", bi_logsumexp, "torch.logsumexp(input, dim, keepdim=False)", "log(sum(exp(input))) along dim, computed stably.", "", 0, "torch"},
    {"unique", bi_unique, "torch.unique(input, *, sorted=True, return_inverse=False, return_counts=False, dim=None)",
     "The distinct values, sorted; with return_inverse where each element went, with return_counts how often each came.", "", 0, "torch"},
    {"meshgrid", bi_meshgrid, "torch.meshgrid(*tensors, indexing='ij')", "Grids of coordinates from 1-D tensors (views).", "", 0, "torch"},
    {"tile", bi_tile, "torch.tile(input, dims)", "Repeats the tensor dims times along each dimension.", "", 0, "torch"},
    {"hstack", bi_hstack, "torch.hstack(tensors)", "Joins side by side (along dim 1; vectors end to end).", "", 0, "torch"},
    {"vstack", bi_hstack, "torch.vstack(tensors)", "Joins as rows (vectors become rows).", "", 1, "torch"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

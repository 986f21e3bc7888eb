/* torch_sort.c - sort, argsort, msort, topk, kthvalue, median, mode, and PyTorch's torch.return_types: a
 * (values, indices) pair that prints as torch.return_types.max(values=..., indices=...), unpacks as a tuple and
 * has .values and .indices (also for max/min along a dim, in torch_math.c). */
#include "builtins_internal.h"
#include <string.h>

static const char *const VI[] = {"values", "indices", NULL};
static const NamedTuple RT[] = {
    {"torch.return_types.max", VI, 2}, {"torch.return_types.min", VI, 2}, {"torch.return_types.sort", VI, 2},
    {"torch.return_types.topk", VI, 2}, {"torch.return_types.kthvalue", VI, 2}, {"torch.return_types.median", VI, 2},
    {"torch.return_types.mode", VI, 2}, {"torch.return_types.cummax", VI, 2}, {"torch.return_types.cummin", VI, 2},
    {NULL, NULL, 0}};

Value *torch_return_pair(ValHeap *heap, const char *kind, Tensor *values, Tensor *indices) {
    const NamedTuple *type = &RT[0];
    char full[64];
    snprintf(full, sizeof full, "torch.return_types.%s", kind);
    for (const NamedTuple *t = RT; t->name; t++) if (!strcmp(t->name, full)) type = t;
    Value *r = val_named_tuple(heap, type);
    val_seq_set(r, 0, val_tensor(heap, values));
    val_seq_set(r, 1, val_tensor(heap, indices));
    return r;
}

static Tensor *self_tensor(Interp *I, Args *a) {
    Value *x = arg(a, 0, "input");
    if (!x) { rt_error(I, "%s() needs a tensor as its first argument", a->fname); return NULL; }
    if (x->kind != V_TENSOR) { arg_not_tensor(I, a, x, "input", ARG_TENSOR); return NULL; }
    return x->u.t;
}

static bool opt_int(Interp *I, Args *a, int i, const char *name, int64_t *out) {
    Value *v = arg(a, i, name);
    return !v || v->kind == V_NONE || arg_int(I, v, name, out);
}

static bool opt_bool(Interp *I, Args *a, int i, const char *name, bool *out) {
    Value *v = arg(a, i, name);
    return !v || v->kind == V_NONE || arg_bool(I, v, name, out);
}

static Value *pair_or_error(Interp *I, int rc, const char *kind, Tensor *v, Tensor *ix) {
    if (rc < 0) return rt_tensor_error(I);
    return torch_return_pair(I->run.heap, kind, v, ix);
}

/* sort(input, dim=-1, descending=False, *, stable=False) / argsort (tag 1, indices only) / msort (tag 2: dim 0, values). */
static Value *bi_sort(Interp *I, Args *a) {
    Value *p[4] = {NULL, NULL, NULL, NULL};     /* input, dim, descending, stable (msort: input only) */
    if (!args_bind(I, a, p, 4)) return NULL;
    Tensor *x = self_tensor(I, a);
    int64_t dim = a->fn->tag == 2 ? 0 : -1;
    bool desc = false, stable = false;
    if (!x || !opt_int(I, a, 1, "dim", &dim) || !opt_bool(I, a, 2, "descending", &desc) || !opt_bool(I, a, -1, "stable", &stable))
        return NULL;
    Tensor *v, *ix;
    if (!dim_fits(I, dim, x->ndim)) return NULL;
    if (x->ndim == 0) {      /* a 0-dim tensor sorts to itself, index 0 */
        if (norm_dim64_in(I->run.ten, dim, 0) < 0) return rt_tensor_error(I);
        v = ten_copy(x);
        ix = ten_new_in(I->run.ten, DT_I64, 0, NULL);
    } else if (ten_sort(x, (int)dim, desc, stable, &v, &ix) < 0) {
        return rt_tensor_error(I);
    }
    if (a->fn->tag == 1) { ten_free(v); return val_tensor(I->run.heap, ix); }
    if (a->fn->tag == 2) { ten_free(ix); return val_tensor(I->run.heap, v); }
    return torch_return_pair(I->run.heap, "sort", v, ix);
}

/* topk(X, k, dim=-1, largest=True, sorted=True) */
static Value *bi_topk(Interp *I, Args *a) {
    Value *p_[5];                               /* input, k, dim, largest, sorted */
    if (!args_bind(I, a, p_, 5)) return NULL;
    Tensor *x = self_tensor(I, a);
    int64_t k = 0, dim = -1;
    bool largest = true, sorted = true;
    if (!x) return NULL;
    if (!p_[1]) return rt_error(I, "topk(X, k) needs k, how many of the largest to keep");
    if (!opt_int(I, a, 1, "k", &k) || !opt_int(I, a, 2, "dim", &dim) || !opt_bool(I, a, 3, "largest", &largest) ||
        !opt_bool(I, a, 4, "sorted", &sorted))
        return NULL;
    if (x->ndim == 0) {
        if (norm_dim64_in(I->run.ten, dim, 0) < 0) return rt_tensor_error(I);
        if (k < 0 || k > 1) return rt_error(I, "selected index k out of range");
        return torch_return_pair(I->run.heap, "topk", ten_copy(x), ten_new_in(I->run.ten, DT_I64, 0, NULL));
    }
    Tensor *v, *ix;
    if (!dim_fits(I, dim, x->ndim)) return NULL;
    int rc = ten_topk(x, k, (int)dim, largest, sorted, &v, &ix);
    return pair_or_error(I, rc, "topk", v, ix);
}

/* kthvalue(X, k, dim=-1, keepdim=False): the k-th smallest. */
static Value *bi_kthvalue(Interp *I, Args *a) {
    Value *p_[4];                               /* input, k, dim, keepdim */
    if (!args_bind(I, a, p_, 4)) return NULL;
    Tensor *x = self_tensor(I, a);
    int64_t k = 0, dim = -1;
    bool keep = false;
    if (!x) return NULL;
    if (!p_[1]) return rt_error(I, "kthvalue(X, k) needs k (1 is the smallest)");
    if (!opt_int(I, a, 1, "k", &k) || !opt_int(I, a, 2, "dim", &dim) || !opt_bool(I, a, 3, "keepdim", &keep)) return NULL;
    Tensor *v, *ix;
    if (!dim_fits(I, dim, x->ndim)) return NULL;
    int rc = ten_kthvalue(x, k, (int)dim, keep, &v, &ix);
    return pair_or_error(I, rc, "kthvalue", v, ix);
}

/* median(X): the lower median of everything (a tensor); median(X, dim, keepdim=False): (values, indices).
 * mode(X, dim=-1, keepdim=False) (tag 1): the most frequent value. */
static Value *bi_median(Interp *I, Args *a) {
    Value *p_[3];                               /* input, dim, keepdim */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Tensor *x = self_tensor(I, a);
    bool mode = a->fn->tag == 1, keep = false;
    Value *dv = p_[1];
    int64_t dim = -1;
    if (!x || !opt_int(I, a, 1, "dim", &dim) || !opt_bool(I, a, 2, "keepdim", &keep)) return NULL;
    if (!mode && (!dv || dv->kind == V_NONE)) {
        Tensor *r = ten_median_all(x);
        return r ? val_tensor(I->run.heap, r) : rt_tensor_error(I);
    }
    Tensor *v, *ix;
    if (x->ndim == 0) {
        if (norm_dim64_in(I->run.ten, dim, 0) < 0) return rt_tensor_error(I);
        return torch_return_pair(I->run.heap, mode ? "mode" : "median", ten_copy(x), ten_new_in(I->run.ten, DT_I64, 0, NULL));
    }
    if (!dim_fits(I, dim, x->ndim)) return NULL;
    int rc = mode ? ten_mode(x, (int)dim, keep, &v, &ix) : ten_median_dim(x, (int)dim, keep, &v, &ix);
    return pair_or_error(I, rc, mode ? "mode" : "median", v, ix);
}

const Builtin bi_torch_sort[] = {
    {"sort", bi_sort, "torch.sort(input, dim=-1, descending=False, *, stable=False)",
     "X sorted along dim, with where each value came from: torch.return_types.sort(values=..., indices=...). "
     "Unpack it (v, i = X.sort()) or read .values and .indices. NaN sorts as the largest value.", "", 0, "torch"},
    {"argsort", bi_sort, "torch.argsort(input, dim=-1, descending=False, *, stable=False)",
     "The positions that sort X along dim: X.sort().indices.", "", 1, "torch"},
    {"msort", bi_sort, "torch.msort(input)", "X sorted along dim 0: the values of X.sort(dim=0).", "", 2, "torch"},
    {"topk", bi_topk, "torch.topk(input, k, dim=-1, largest=True, sorted=True)",
     "The k largest values along dim (smallest with largest=False) and their positions: "
     "torch.return_types.topk(values=..., indices=...).", "", 0, "torch"},
    {"kthvalue", bi_kthvalue, "torch.kthvalue(input, k, dim=-1, keepdim=False)",
     "The k-th smallest value along dim (k = 1 is the smallest) and its position.", "", 0, "torch"},
    {"median", bi_median, "torch.median(input, dim=None, keepdim=False)",
     "The median (the lower of the two middle values for an even count). With dim: values and indices along it.", "", 0, "torch"},
    {"mode", bi_median, "torch.mode(input, dim=-1, keepdim=False)", "The most frequent value along dim and a position of it.", "", 1, "torch"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* ag_after.c - the builtins whose gradient is recorded after their call: their forward ran unrecorded, and
 * ag_after_call hands the detached result here, which attaches PyTorch's node (autograd.h, ag_extra.c) from the
 * call's arguments. Ops that only move elements get theirs from a position map: the same builtin run again on
 * tensors that hold their own element numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtins_internal.h"
#include "autograd.h"

#define AG_INPUTS 3                     /* inputs a position map follows (autograd.h: ag_index_map) */
#define AG_NONE ((AgVal){NULL, NULL})   /* no tensor: a failed step, or an optional input left out */

/* A call's arguments with the tensor first: self for a method, else the first positional. */
typedef struct { Interp *I; Args *a; Value *self; } Call;

static Value *arg_at(const Call *c, int i, const char *kw) {
    for (int k = 0; kw && k < c->a->nkw; k++) if (!strcmp(c->a->kwnames[k], kw)) return c->a->kwvals[k];
    if (c->self) { if (i == 0) return c->self; i--; }
    return i < c->a->npos ? c->a->pos[i] : NULL;
}
static bool is_num(const Value *v) { return v && (v->kind == V_INT || v->kind == V_FLOAT || v->kind == V_BOOL); }
static double num_or(const Value *v, double d) { return is_num(v) ? val_as_double(v) : d; }
static bool is_tensor(const Value *v) { return v && v->kind == V_TENSOR; }

/* dims from an int, a tuple/list of ints, or None/absent (nd -1: every dim). false when not ints. */
static bool read_dims(const Value *v, int *dims, int *nd) {
    *nd = -1;
    if (!v || v->kind == V_NONE) return true;
    if (v->kind == V_INT) { dims[0] = (int)v->u.i; *nd = 1; return true; }
    if (v->kind != V_TUPLE && v->kind != V_LIST) return false;
    if (v->u.seq.n > TEN_MAX_DIMS) return false;
    for (int64_t i = 0; i < v->u.seq.n; i++) {
        if (v->u.seq.items[i]->kind != V_INT) return false;
        dims[i] = (int)v->u.seq.items[i]->u.i;
    }
    *nd = v->u.seq.n ? (int)v->u.seq.n : -1;
    return true;
}

/* Gives the tensor value r the history of res (an AgVal whose t is an alias of r's tensor): 1, or -1 when res failed
 * (its error set). */
static int adopt(Value *r, AgVal res) {
    if (!res.t) { ag_meta_unref(res.m); return -1; }
    ag_meta_unclaim(r->ag, r);
    ag_meta_unref(r->ag);
    r->ag = res.m;
    ten_free(res.t);
    return 1;
}
static Tensor *out_of(Value *r) { return ten_alias(r->u.t); }
/* r takes res whole, tensor and history (res was computed anew through the ag_* ops, not on out_of(r)): 1, or -1
 * when res failed (its error set). */
static int replace_with(Value *r, AgVal res) {
    if (!res.t) return -1;
    ag_meta_unclaim(r->ag, r);
    ag_meta_unref(r->ag);
    r->ag = res.m;
    ten_free(r->u.t);
    r->u.t = res.t;
    return 1;
}

/* ---- elementwise functions ---- */
typedef struct { const char *name, *node; AgElem kind; } ElemRow;
static const ElemRow ELEMS[] = {
    {"acos", "AcosBackward0", AG_E_ACOS}, {"asin", "AsinBackward0", AG_E_ASIN}, {"atan", "AtanBackward0", AG_E_ATAN},
    {"acosh", "AcoshBackward0", AG_E_ACOSH}, {"asinh", "AsinhBackward0", AG_E_ASINH},
    {"atanh", "AtanhBackward0", AG_E_ATANH}, {"cosh", "CoshBackward0", AG_E_COSH}, {"sinh", "SinhBackward0", AG_E_SINH},
    {"tan", "TanBackward0", AG_E_TAN}, {"erf", "ErfBackward0", AG_E_ERF}, {"erfc", "ErfcBackward0", AG_E_ERFC},
    {"exp2", "Exp2Backward0", AG_E_EXP2}, {"expm1", "Expm1Backward0", AG_E_EXPM1},
    {"log10", "Log10Backward0", AG_E_LOG10}, {"log2", "Log2Backward0", AG_E_LOG2},
    {"log1p", "Log1PBackward0", AG_E_LOG1P}, {"rsqrt", "RsqrtBackward0", AG_E_RSQRT},
    {"ceil", "CeilBackward0", AG_E_ZERO}, {"floor", "FloorBackward0", AG_E_ZERO}, {"round", "RoundBackward0", AG_E_ZERO},
    {"trunc", "TruncBackward0", AG_E_ZERO}, {"sign", "SignBackward0", AG_E_ZERO}, {"frac", "FracBackward0", AG_E_ONE},
    {"remainder", "RemainderBackward0", AG_E_ONE}, {"silu", "SiluBackward0", AG_E_SILU},
    {"logsigmoid", "LogSigmoidBackward0", AG_E_LOGSIGMOID}, {"softplus", "SoftplusBackward0", AG_E_SOFTPLUS},
    {"mish", "MishBackward0", AG_E_MISH}, {"hardtanh", "HardtanhBackward0", AG_E_HARDTANH}, {NULL, NULL, AG_E_ZERO}};

static int elementwise(const Call *c, const ElemRow *row, Value *r) {
    Value *x = arg_at(c, 0, "input");
    if (!is_tensor(x) || r->kind != V_TENSOR) return 0;
    if (!strcmp(row->name, "remainder") && !is_num(arg_at(c, 1, "other"))) return 0;
    if (!strcmp(row->name, "round") && arg_at(c, 1, "decimals")) return 0;
    double p0 = 0, p1 = 0;
    if (!strcmp(row->name, "hardtanh")) { p0 = num_or(arg_at(c, 1, "min_val"), -1); p1 = num_or(arg_at(c, 2, "max_val"), 1); }
    if (!strcmp(row->name, "softplus")) { p0 = num_or(arg_at(c, 1, "beta"), 1); p1 = num_or(arg_at(c, 2, "threshold"), 20); }
    return adopt(r, ag_elementwise(&c->I->run.ag, row->kind, row->node, arg_ag(x), out_of(r), p0, p1));
}

/* ---- reductions ---- */

/* std / var (input, dim, unbiased, keepdim, *, correction); std_mean / var_mean give (std, mean). */
static int var_std(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input"), *d1 = arg_at(c, 1, "dim");
    bool sq = name[0] == 's', pair = strstr(name, "_mean") != NULL;
    int dims[TEN_MAX_DIMS], nd;
    double corr = 1;
    int next = 2;
    if (d1 && d1->kind == V_BOOL && !arg_at(c, 99, "dim")) { corr = d1->u.b ? 1 : 0; d1 = NULL; next = 2; }
    else {
        Value *ub = arg_at(c, 2, "unbiased");
        if (ub && ub->kind == V_BOOL) corr = ub->u.b ? 1 : 0;
        next = 3;
    }
    Value *kd = arg_at(c, next, "keepdim"), *cr = arg_at(c, 99, "correction");
    if (cr && is_num(cr)) corr = val_as_double(cr);
    if (!is_tensor(x) || !read_dims(d1, dims, &nd)) return 0;
    bool keep = kd && kd->kind == V_BOOL && kd->u.b;
    Value *rv = pair ? (r->kind == V_TUPLE && r->u.seq.n == 2 ? r->u.seq.items[0] : NULL) : r;
    if (!rv || rv->kind != V_TENSOR) return 0;
    double cnt = 1;
    if (nd < 0) cnt = (double)x->u.t->numel;
    else for (int i = 0; i < nd; i++) { int d = ten_norm_dim_in(c->I->run.ten, dims[i], x->u.t->ndim); if (d < 0) return 0; cnt *= (double)x->u.t->shape[d]; }
    const char *node = pair ? (sq ? "StdMeanBackward0" : "VarMeanBackward0") : (sq ? "StdBackward0" : "VarBackward0");
    AgContext *ag = &c->I->run.ag;
    if (adopt(rv, ag_reduction(ag, sq ? AG_R_STD : AG_R_VAR, node, arg_ag(x), out_of(rv), dims, nd, keep, cnt - corr)) < 0)
        return -1;
    if (pair) {                         /* the mean, with x.mean(dims)'s backward */
        Value *mv = r->u.seq.items[1];
        AgVal m = nd < 0 ? ag_mean(ag, arg_ag(x)) : ag_mean_dims(ag, arg_ag(x), dims, nd, keep);
        if (!m.t) return -1;
        ag_share_node(m.m, rv->ag, 1);  /* one node of two outputs in PyTorch */
        if (mv->kind == V_TENSOR) { ag_meta_unclaim(mv->ag, mv); ag_meta_unref(mv->ag); mv->ag = m.m; ten_free(m.t); }
        else ag_val_free(m);
    }
    return 1;
}

static int reduction(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input");
    if (!is_tensor(x)) return 0;
    int dims[TEN_MAX_DIMS], nd = -1;
    AgRed kind;
    const char *node;
    double scalar = 0;
    Value *dv, *kd;
    Value *rv = r;
    if (!strcmp(name, "norm")) {
        Value *p = arg_at(c, 1, "p");
        scalar = !p || p->kind == V_NONE || p->kind == V_STR ? 2 : num_or(p, NAN);
        if (p && p->kind == V_STR && strcmp(p->u.str.s, "fro")) return 0;
        if (!(scalar > 0) && !isinf(scalar)) return 0;     /* p 0 (PyTorch: no grad at all), p < 0, NaN */
        dv = arg_at(c, 2, "dim");
        kd = arg_at(c, 3, "keepdim");
        kind = AG_R_NORM;
        node = "NormBackward1";
    } else if (!strcmp(name, "prod") || !strcmp(name, "logsumexp") || !strcmp(name, "cumsum")) {
        dv = arg_at(c, 1, "dim");
        kd = arg_at(c, 2, "keepdim");
        kind = name[0] == 'p' ? AG_R_PROD : name[0] == 'l' ? AG_R_LOGSUMEXP : AG_R_CUMSUM;
        node = name[0] == 'p' ? (dv && dv->kind != V_NONE ? "ProdBackward1" : "ProdBackward0")
             : name[0] == 'l' ? "LogsumexpBackward0" : "CumsumBackward0";
        if (kind == AG_R_CUMSUM) kd = NULL;
    } else if (!strcmp(name, "amax") || !strcmp(name, "amin")) {
        dv = arg_at(c, 1, "dim");
        kd = arg_at(c, 2, "keepdim");
        kind = AG_R_AMAX;
        node = name[2] == 'a' ? "AmaxBackward0" : "AminBackward0";
    } else if (!strcmp(name, "median") && !arg_at(c, 1, "dim") && r->kind == V_TENSOR) {
        dv = NULL;
        kd = NULL;
        kind = AG_R_AMAX;                /* PyTorch's evenly_distribute_backward: ties share */
        node = "MedianBackward0";
    } else return 0;
    if (!read_dims(dv, dims, &nd)) return 0;
    if (rv->kind != V_TENSOR) return 0;
    bool keep = kd && kd->kind == V_BOOL && kd->u.b;
    if (kind == AG_R_CUMSUM && nd != 1) return 0;
    return adopt(rv, ag_reduction(&c->I->run.ag, kind, node, arg_ag(x), out_of(rv), dims, nd, keep, scalar));
}

/* ---- ops that only move elements: the same builtin run on position tensors ---- */
/* index: PyTorch's node saves an index or mask (a second backward through it fails); the others save nothing. */
typedef struct { const char *name, *node; bool index; } MoveRow;

/* Whether PyTorch's result of the move op is a view of its first input: 0 no, 1 a view, 2 one of several views. */
static int move_view(const char *name) {
    static const char *const one[] = {"diagonal", "movedim", "moveaxis", "unflatten", "view_as", "expand_as", NULL};
    static const char *const several[] = {"split", "chunk", "unbind", NULL};
    for (int i = 0; several[i]; i++) if (!strcmp(name, several[i])) return 2;
    for (int i = 0; one[i]; i++) if (!strcmp(name, one[i])) return 1;
    return 0;
}
static const MoveRow MOVES[] = {
    {"flip", "FlipBackward0", false}, {"roll", "RollBackward0", false}, {"repeat", "RepeatBackward0", false},
    {"tile", "RepeatBackward0", false}, {"tril", "TrilBackward0", false}, {"triu", "TriuBackward0", false},
    {"pad", "ConstantPadNdBackward0", false}, {"gather", "GatherBackward0", true},
    {"index_select", "IndexSelectBackward0", true}, {"repeat_interleave", "IndexSelectBackward0", true},
    {"masked_select", "MaskedSelectBackward0", true}, {"take", "TakeBackward0", true}, {"diag", "DiagBackward0", false},
    {"diagonal", "DiagonalBackward0", false}, {"movedim", "PermuteBackward0", false},
    {"moveaxis", "PermuteBackward0", false}, {"unflatten", "ViewBackward0", false}, {"clone", "CloneBackward0", false},
    {"contiguous", "CloneBackward0", false}, {"expand_as", "ExpandBackward0", false}, {"view_as", "ViewBackward0", false},
    {"chunk", "SplitBackward0", false}, {"split", "SplitBackward0", false}, {"unbind", "UnbindBackward0", false},
    {"hstack", "CatBackward0", false}, {"vstack", "CatBackward0", false}, {"index_fill", "IndexFillBackward0", true},
    {"scatter", "ScatterBackward0", true}, {"meshgrid", "ExpandBackward0", true}, {NULL, NULL, false}};

#define POS_BASE 1099511627776.0        /* 2^40: positions are stored as POS_BASE + p, exact in float64 */

/* A float64 tensor of t's shape holding POS_BASE + base + i (or zeros: no position) as a value. */
static Value *position_value(Interp *I, TenCtx *c, const Tensor *t, int64_t base, bool mark) {
    Tensor *p = ten_new_in(c, DT_F64, t->ndim, t->shape);
    if (!p) return NULL;
    if (mark) for (int64_t i = 0; i < p->numel; i++) ten_f64(p)[i] = POS_BASE + (double)(base + i);
    return val_tensor(I->run.heap, p);
}

/* The float tensors among the call's arguments (one level into lists), at most 3: where they are in the rerun's
 * copied arguments (in_kw: a keyword slot, borrowed from the caller, not released with the copies) and the
 * tensors themselves, owned here (the rerun can run a student's __index__, which may drop the caller's lists). */
typedef struct {
    Value **slot[AG_INPUTS + 1];
    bool in_kw[AG_INPUTS + 1];
    Value *orig[AG_INPUTS + 1];
    int64_t lo[AG_INPUTS + 1];              /* input i's positions: lo[i] .. lo[i + 1] (set by the rerun) */
    int n;
} Inputs;
static bool collect(Inputs *in, Value **slot, bool in_kw) {
    Value *v = *slot;
    if (v->kind == V_TENSOR && ten_is_float(v->u.t->dtype)) {
        if (in->n >= AG_INPUTS) return false;
        in->slot[in->n] = slot;
        in->in_kw[in->n] = in_kw;
        in->orig[in->n++] = val_incref(v);
    } else if (v->kind == V_LIST || v->kind == V_TUPLE) {
        for (int64_t i = 0; i < v->u.seq.n; i++) {
            Value *it = v->u.seq.items[i];
            if (it->kind == V_TENSOR && !collect(in, &v->u.seq.items[i], in_kw)) return false;
        }
    }
    return true;
}

/* The position map of one result element (float64 positions) as int64 flat positions, -1 for none. */
static Tensor *decode(TenCtx *c, const Tensor *pos, int64_t total) {
    Tensor *pc = ten_cast(pos, DT_F64), *m = pc ? ten_new_in(c, DT_I64, pc->ndim, pc->shape) : NULL;
    if (m)
        for (int64_t i = 0; i < m->numel; i++) {
            double v = ten_f64(pc)[i] - POS_BASE;
            ten_i64(m)[i] = v >= 0 && v < (double)total && v == floor(v) ? (int64_t)v : -1;
        }
    ten_free(pc);
    return m;
}

/* The call run again (grad mode off) with each float tensor input swapped for position_value's tensor: what it
 * returns (a new reference), or NULL when the rerun failed (its error left for the caller to clear or keep) or no
 * float tensor was found. in gets the inputs (owned: release with val_decref) and their positions. */
static Value *rerun_on_positions(const Call *c, Inputs *in) {
    Interp *I = c->I;
    Args *a = c->a;
    /* the arguments with self first, copied so that the float tensors can be swapped; lists copied one level too */
    int n = a->npos + (c->self ? 1 : 0), k0 = 0;
    Value **pos = xmalloc(sizeof(Value *) * (size_t)(n + 1)), **kw = xmalloc(sizeof(Value *) * (size_t)(a->nkw + 1));
    if (c->self) pos[k0++] = c->self;
    for (int i = 0; i < a->npos; i++) pos[k0 + i] = a->pos[i];
    for (int i = 0; i < a->nkw; i++) kw[i] = a->kwvals[i];
    for (int i = 0; i < n; i++)
        if (pos[i]->kind == V_LIST || pos[i]->kind == V_TUPLE) {
            Value *cp = pos[i]->kind == V_LIST ? val_list(I->run.heap, pos[i]->u.seq.n) : val_tuple(I->run.heap, pos[i]->u.seq.n);
            for (int64_t j = 0; j < pos[i]->u.seq.n; j++) val_seq_set(cp, j, val_incref(pos[i]->u.seq.items[j]));
            pos[i] = cp;
        } else val_incref(pos[i]);
    bool ok = true;
    for (int i = 0; i < n && ok; i++) ok = collect(in, &pos[i], false);
    for (int i = 0; i < a->nkw && ok; i++)
        if (kw[i]->kind == V_TENSOR) ok = collect(in, &kw[i], true);     /* not into the caller's own lists */
    Value *maps = NULL;
    in->lo[0] = 0;
    for (int i = 0; ok && i < in->n; i++) {
        Value *pv = position_value(I, I->run.ten, in->orig[i]->u.t, in->lo[i], ag_requires_grad(in->orig[i]->ag));
        in->lo[i + 1] = in->lo[i] + in->orig[i]->u.t->numel;
        if (!pv) { ok = false; break; }
        if (!in->in_kw[i]) val_decref(*in->slot[i]);
        *in->slot[i] = pv;
    }
    if (ok && in->n > 0) {
        Args b = *a;
        b.pos = pos;
        b.npos = n;
        b.kwvals = kw;
        bool grad = I->run.ag.grad_enabled;
        I->run.ag.grad_enabled = false;
        maps = a->fn->fn(I, &b);
        I->run.ag.grad_enabled = grad;
    }
    /* kw slots swapped: release the position values there; positional ones are released with pos */
    for (int i = 0; i < a->nkw; i++) if (kw[i] != a->kwvals[i]) val_decref(kw[i]);
    for (int i = 0; i < n; i++) val_decref(pos[i]);
    free(pos);
    free(kw);
    return maps;
}

/* The node's name for this call: the row's, or the overload PyTorch records (split by sizes, scatter / index_fill
 * with a number or a tensor value). */
static const char *move_node(const Call *c, const MoveRow *row) {
    if (!strcmp(row->name, "split")) {
        Value *s = arg_at(c, 1, "split_size_or_sections");
        if (s && (s->kind == V_LIST || s->kind == V_TUPLE)) return "SplitWithSizesBackward0";
    }
    if (!strcmp(row->name, "scatter") && is_num(arg_at(c, 3, "value"))) return "ScatterBackward1";    /* a number */
    if (!strcmp(row->name, "index_fill") && is_tensor(arg_at(c, 3, "value"))) return "IndexFillBackward1";
    return row->node;
}

/* Each tensor of the result r (one, or a tuple/list of them as split gives) takes its node from the position map
 * at the same place in maps: 1, 0 when the two do not match (refused), -1 on failure. */
static int attach_maps(const Call *c, const MoveRow *row, Value *r, const Value *maps, const Inputs *in) {
    AgVal ins[AG_INPUTS];
    for (int i = 0; i < in->n; i++) ins[i] = arg_ag(in->orig[i]);
    /* view_as / expand_as read only the other tensor's shape: PyTorch gives it no edge. Every other input keeps its
     * edge, also when no element comes from it (an empty result or input: its grad is zeros, as PyTorch's). */
    int nin = !strcmp(row->name, "view_as") || !strcmp(row->name, "expand_as") ? 1 : in->n;
    const char *node = move_node(c, row);
    int view = move_view(row->name);
    int64_t nres = r->kind == V_TENSOR ? 1 : r->kind == V_TUPLE || r->kind == V_LIST ? r->u.seq.n : 0;
    for (int64_t j = 0; j < nres; j++) {
        Value *rv = r->kind == V_TENSOR ? r : r->u.seq.items[j];
        const Value *mv = maps->kind == V_TENSOR ? maps : (maps->kind == r->kind && j < maps->u.seq.n ? maps->u.seq.items[j] : NULL);
        if (rv->kind != V_TENSOR || !mv || mv->kind != V_TENSOR) return 0;
        Tensor *map = decode(c->I->run.ten, mv->u.t, in->lo[in->n]);
        if (!map) return -1;
        AgContext *ag = &c->I->run.ag;
        AgVal res = row->index ? ag_index_map(ag, node, out_of(rv), map, nin, ins)
                               : ag_move_map(ag, node, out_of(rv), map, nin, ins);
        ten_free(map);
        if (view) ag_view_mark(res, ins[0], view == 2 ? (int)j : -1);       /* PyTorch's result is a view */
        if (view == 2 && j > 0 && r->u.seq.items[0]->kind == V_TENSOR)          /* one SplitBackward0 for all parts */
            ag_share_node(res.m, r->u.seq.items[0]->ag, (int)j);
        if (!strcmp(row->name, "gather") || !strcmp(row->name, "masked_select") || !strcmp(row->name, "take"))
            ag_map_save_input(res, ins[0]);             /* PyTorch's node saves self */
        if (adopt(rv, res) < 0) return -1;
    }
    return 1;
}

static int moves(const Call *c, const MoveRow *row, Value *r) {
    if (!strcmp(row->name, "contiguous") && c->self && ten_compute_contiguous(c->self->u.t) && r->kind == V_TENSOR) {
        ag_meta_unclaim(r->ag, r);
        ag_meta_unref(r->ag);           /* PyTorch returns self: the same history */
        r->ag = ag_meta_ref(c->self->ag);
        return 1;
    }
    Inputs in = {.n = 0};
    Value *maps = rerun_on_positions(c, &in);
    int rc = maps ? attach_maps(c, row, r, maps, &in) : 0;   /* the rerun failed: refused as before */
    val_decref(maps);
    for (int i = 0; i < in.n; i++) val_decref(in.orig[i]);
    return rc;
}

/* ---- ops that pick elements by value and say where (sort, topk, kthvalue, median over a dim, mode, msort) ---- */

static int picks(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input");
    if (!is_tensor(x) || x->u.t->ndim == 0) return 0;
    const Tensor *xt = x->u.t;
    Value *vals = r, *idxv = NULL;
    Tensor *idx = NULL, *own = NULL;
    int dim = -1;
    bool keep = true;
    const char *node;
    if (!strcmp(name, "msort")) {
        Tensor *v = NULL;
        if (ten_sort(xt, 0, false, false, &v, &own) < 0) return -1;
        ten_free(v);
        idx = own;
        dim = 0;
        node = "SortBackward0";
    } else {
        if (r->kind != V_TUPLE || r->u.seq.n != 2) return 0;
        vals = r->u.seq.items[0];
        idxv = r->u.seq.items[1];
        if (idxv->kind != V_TENSOR) return 0;
        idx = idxv->u.t;
        Value *dv;
        if (!strcmp(name, "sort")) {          /* stable= given: ATen's sort.stable overload, SortBackward1 */
            dv = arg_at(c, 1, "dim");
            node = arg_at(c, 99, "stable") ? "SortBackward1" : "SortBackward0";
        }
        else if (!strcmp(name, "topk")) { dv = arg_at(c, 2, "dim"); node = "TopkBackward0"; }
        else {
            int at = !strcmp(name, "kthvalue") ? 2 : 1;
            dv = arg_at(c, at, "dim");
            Value *kd = arg_at(c, at + 1, "keepdim");
            keep = kd && kd->kind == V_BOOL && kd->u.b;
            node = name[0] == 'k' ? "KthvalueBackward0" : name[1] == 'e' ? "MedianBackward1" : "ModeBackward0";
        }
        if (dv && dv->kind == V_INT) dim = (int)dv->u.i;
        else if (dv && dv->kind != V_NONE) return 0;
    }
    if (vals->kind != V_TENSOR) { ten_free(own); return 0; }
    int d = ten_norm_dim_in(c->I->run.ten, dim, xt->ndim);
    Tensor *pos = ten_arange_in(c->I->run.ten, 0, (double)xt->numel, 1, DT_I64), *p2 = pos ? ten_reshape(pos, xt->ndim, xt->shape) : NULL;
    Tensor *ik = d < 0 ? NULL : keep ? ten_alias(idx) : ten_unsqueeze(idx, d);
    Tensor *g = p2 && ik ? ten_gather(p2, d, ik) : NULL;
    Tensor *map = g ? ten_reshape(g, vals->u.t->ndim, vals->u.t->shape) : NULL;
    ten_free(pos); ten_free(p2); ten_free(ik); ten_free(g); ten_free(own);
    if (!map) return -1;
    AgVal in = arg_ag(x);
    int rc = adopt(vals, ag_index_map(&c->I->run.ag, node, out_of(vals), map, 1, &in));
    ten_free(map);
    return rc;
}

/* F.normalize(x, p=2, dim=1, eps=1e-12): x / x.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(x). */
static int normalize(const Call *c, const char *name, Value *r) {
    AgContext *ag = &c->I->run.ag;
    Value *x = arg_at(c, 0, "input");
    double p = num_or(arg_at(c, 1, "p"), 2), eps = num_or(arg_at(c, 3, "eps"), 1e-12);
    Value *dv = arg_at(c, 2, "dim");
    int dim = dv && dv->kind == V_INT ? (int)dv->u.i : 1;
    if (!is_tensor(x) || r->kind != V_TENSOR || !(p > 0) || (dv && dv->kind != V_INT)) return 0;
    AgVal xv = arg_ag(x);
    AgVal nrm = ag_reduction(ag, AG_R_NORM, "NormBackward1", xv, ten_norm(xv.t, p, &dim, 1, true), &dim, 1, true, p);
    AgVal cl = nrm.t ? ag_clamp(ag, nrm, eps, NAN) : AG_NONE;
    AgVal ex = cl.t ? ag_expand(ag, cl, xv.t->ndim, xv.t->shape) : AG_NONE;
    AgVal res = ex.t ? ag_binary(ag, OP_DIV, xv, false, ex, false) : AG_NONE;
    ag_val_free(nrm); ag_val_free(cl); ag_val_free(ex);
    return replace_with(r, res);
}

/* ---- the rest, op by op ---- */

/* torch.maximum / minimum (a, b), and max / min (a, b) with a tensor b. */
static int maximum(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input"), *y = arg_at(c, 1, "other");
    if (!is_tensor(x) || !is_tensor(y) || r->kind != V_TENSOR) return 0;
    return adopt(r, ag_maximum(&c->I->run.ag, arg_ag(x), arg_ag(y), out_of(r), !strcmp(name, "minimum") || !strcmp(name, "min")));
}

/* torch.pow(a, b) / atan2(a, b) with b a tensor (a a tensor too). */
static int binary_fn(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input"), *y = arg_at(c, 1, name[0] == 'p' ? "exponent" : "other");
    if (!is_tensor(x) || !is_tensor(y) || r->kind != V_TENSOR) return 0;
    AgBinFn kind = name[0] == 'p' ? AG_B_POW : AG_B_ATAN2;
    return adopt(r, ag_binary_fn(&c->I->run.ag, kind, arg_ag(x), false, arg_ag(y), false, out_of(r)));
}

/* torch.clamp / clip (x, min, max) with a tensor bound (the other a tensor or absent). */
static int clamp_tensors(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input"), *lo = arg_at(c, 1, "min"), *hi = arg_at(c, 2, "max");
    if (lo && lo->kind == V_NONE) lo = NULL;
    if (hi && hi->kind == V_NONE) hi = NULL;
    if (!is_tensor(x) || r->kind != V_TENSOR || (lo && !is_tensor(lo)) || (hi && !is_tensor(hi)) || (!lo && !hi)) return 0;
    AgVal none = {NULL, NULL};
    return adopt(r, ag_clamp_tensors(&c->I->run.ag, arg_ag(x), lo ? arg_ag(lo) : none, hi ? arg_ag(hi) : none, out_of(r)));
}

/* torch.clamp_min(x, min) / clamp_max(x, max) with a tensor bound. */
static int clamp_bound(const Call *c, const char *name, Value *r) {
    bool is_max = !strcmp(name, "clamp_max");
    Value *x = arg_at(c, 0, "input"), *b = arg_at(c, 1, is_max ? "max" : "min");
    if (!is_tensor(x) || r->kind != V_TENSOR || !b || !is_tensor(b)) return 0;
    return adopt(r, ag_clamp_bound(&c->I->run.ag, arg_ag(x), arg_ag(b), is_max, out_of(r)));
}

/* scatter_add / scatter (self, dim, index, src) with a tensor src, cumprod(x, dim), and sum(x, dim, keepdim, dtype=)
 * to another dtype (recorded as x.to(dtype).sum(...): ToCopyBackward0 under SumBackward). */
static int more_ops(const Call *c, const char *name, Value *r) {
    AgContext *ag = &c->I->run.ag;
    Value *x = arg_at(c, 0, "input"), *dv = arg_at(c, 1, "dim");
    if (!is_tensor(x) || r->kind != V_TENSOR) return 0;
    if (!strcmp(name, "scatter_add") || !strcmp(name, "scatter")) {
        Value *idx = arg_at(c, 2, "index"), *src = arg_at(c, 3, "src");
        if (!dv || dv->kind != V_INT || !is_tensor(idx) || !is_tensor(src) || arg_at(c, 99, "reduce")) return 0;
        bool add = name[7] == '_';
        return adopt(r, ag_scatter(ag, arg_ag(x), (int)dv->u.i, idx->u.t, arg_ag(src), out_of(r), add));
    }
    if (!strcmp(name, "cumprod")) {
        if (!dv || dv->kind != V_INT) return 0;
        return adopt(r, ag_cumprod(ag, arg_ag(x), (int)dv->u.i, out_of(r)));
    }
    Value *dt = arg_at(c, 99, "dtype"), *kd = arg_at(c, 2, "keepdim");
    int dims[TEN_MAX_DIMS], nd;
    if (!dt || dt->kind != V_DTYPE || !ten_is_float(dt->u.dtype) || !read_dims(dv, dims, &nd)) return 0;
    AgVal cast = ag_to_copy(ag, arg_ag(x), ten_cast(x->u.t, dt->u.dtype));
    if (!cast.t) return -1;
    AgVal res = nd < 0 ? ag_sum(ag, cast) : ag_sum_dims(ag, cast, dims, nd, kd && kd->kind == V_BOOL && kd->u.b);
    ag_val_free(cast);
    return replace_with(r, res);
}

/* torch.add / sub (a, b, alpha=). */
static int add_alpha(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input"), *y = arg_at(c, 1, "other"), *al = arg_at(c, 99, "alpha");
    if (!is_tensor(x) || !is_tensor(y) || !is_num(al) || r->kind != V_TENSOR) return 0;
    return adopt(r, ag_add_alpha(&c->I->run.ag, arg_ag(x), arg_ag(y), out_of(r), val_as_double(al), name[0] == 's'));
}

/* x.to(dtype) / double() / float() / type(dtype): ToCopyBackward0 to another dtype, x itself otherwise. */
static int to_copy(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input");
    if (!is_tensor(x) || r->kind != V_TENSOR || !ten_is_float(r->u.t->dtype)) return 0;
    if (r->u.t->dtype == x->u.t->dtype && ten_same_storage(r->u.t, x->u.t)) {
        ag_meta_unclaim(r->ag, r);
        ag_meta_unref(r->ag);
        r->ag = ag_meta_ref(x->ag);
        return 1;
    }
    return adopt(r, ag_to_copy(&c->I->run.ag, arg_ag(x), out_of(r)));
}

/* torch.einsum(equation, *operands) or (equation, [operands]). */
static int einsum(const Call *c, const char *name, Value *r) {
    Args *a = c->a;
    if (a->npos < 2 || a->pos[0]->kind != V_STR || r->kind != V_TENSOR) return 0;
    Value *const *ops = a->pos + 1;
    int n = a->npos - 1;
    if (n == 1 && (a->pos[1]->kind == V_LIST || a->pos[1]->kind == V_TUPLE)) { ops = a->pos[1]->u.seq.items; n = (int)a->pos[1]->u.seq.n; }
    if (n > AG_INPUTS) n = AG_INPUTS + 1;
    AgVal in[AG_INPUTS + 1];
    for (int i = 0; i < n && i <= AG_INPUTS; i++) {
        if (ops[i]->kind != V_TENSOR) return 0;
        in[i] = arg_ag(ops[i]);
    }
    return adopt(r, ag_einsum(&c->I->run.ag, a->pos[0]->u.str.s, n, in, out_of(r)));
}

/* torch.tensordot(a, b, dims): the einsum its forward is (a's dims a.., b's A.., the contracted pairs sharing a's
 * letter; a's free dims then b's), recorded as PyTorch's ReshapeAliasBackward0. */
static int tensordot(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "a"), *y = arg_at(c, 1, "b"), *dv = arg_at(c, 2, "dims");
    if (!is_tensor(x) || !is_tensor(y) || r->kind != V_TENSOR) return 0;
    int na = x->u.t->ndim, nb = y->u.t->ndim, da[TEN_MAX_DIMS], db[TEN_MAX_DIMS], n;
    if (dv && (dv->kind == V_LIST || dv->kind == V_TUPLE) && dv->u.seq.n == 2) {
        int n2;
        if (!read_dims(dv->u.seq.items[0], da, &n) || !read_dims(dv->u.seq.items[1], db, &n2) || n != n2) return 0;
        if (n < 0) n = 0;
    } else {
        n = dv && dv->kind == V_INT ? (int)dv->u.i : 2;
        if (dv && dv->kind != V_INT) return 0;
        for (int i = 0; i < n; i++) { da[i] = na - n + i; db[i] = i; }
    }
    char ea[TEN_MAX_DIMS + 1] = {0}, eb[TEN_MAX_DIMS + 1] = {0}, eq[64];
    bool contracted_a[TEN_MAX_DIMS] = {false}, contracted_b[TEN_MAX_DIMS] = {false};
    for (int i = 0; i < na; i++) ea[i] = (char)('a' + i);
    for (int i = 0; i < nb; i++) eb[i] = (char)('A' + i);
    for (int i = 0; i < n; i++) {
        int p = ten_norm_dim_in(c->I->run.ten, da[i], na), q = ten_norm_dim_in(c->I->run.ten, db[i], nb);
        if (p < 0 || q < 0) return 0;
        eb[q] = ea[p];
        contracted_a[p] = contracted_b[q] = true;
    }
    int k = snprintf(eq, sizeof eq, "%s,%s->", ea, eb);
    for (int i = 0; i < na; i++) if (!contracted_a[i]) eq[k++] = ea[i];
    for (int i = 0; i < nb; i++) if (!contracted_b[i]) eq[k++] = eb[i];
    eq[k] = '\0';
    AgVal in[2] = {arg_ag(x), arg_ag(y)};
    return adopt(r, ag_einsum_as(&c->I->run.ag, "ReshapeAliasBackward0", eq, 2, in, out_of(r)));
}

/* torch.cross(a, b, dim=None): dim None is a's first dim of size 3, as attn's forward takes it. */
static int cross(const Call *c, const char *name, Value *r) {
    Value *x = arg_at(c, 0, "input"), *y = arg_at(c, 1, "other"), *dv = arg_at(c, 2, "dim");
    if (!is_tensor(x) || !is_tensor(y) || r->kind != V_TENSOR) return 0;
    const Tensor *xt = x->u.t;
    int dim = -1;
    if (dv && dv->kind == V_INT) dim = (int)dv->u.i;
    else if (dv && dv->kind != V_NONE) return 0;
    else for (int i = xt->ndim - 1; i >= 0; i--) if (xt->shape[i] == 3) dim = i;
    if (dim >= 0) dim += r->u.t->ndim - xt->ndim;           /* x's dim in the (broadcast) result's numbering */
    return adopt(r, ag_cross(&c->I->run.ag, arg_ag(x), arg_ag(y), dim, out_of(r)));
}

/* addmm / addmv / baddbmm / addbmm (input, a, b, *, beta=1, alpha=1): AddmmBackward0 ... by kind 0 .. 3. */
static int addmm(const Call *c, const char *name, Value *r) {
    int kind = !strcmp(name, "addmm") ? 0 : !strcmp(name, "addmv") ? 1 : !strcmp(name, "baddbmm") ? 2 : 3;
    Value *s = arg_at(c, 0, "input"), *x = arg_at(c, 1, NULL), *y = arg_at(c, 2, NULL);
    if (!is_tensor(s) || !is_tensor(x) || !is_tensor(y) || r->kind != V_TENSOR) return 0;
    double beta = num_or(arg_at(c, 99, "beta"), 1), alpha = num_or(arg_at(c, 99, "alpha"), 1);
    return adopt(r, ag_addmm_family(&c->I->run.ag, kind, arg_ag(s), arg_ag(x), arg_ag(y), beta, alpha, out_of(r)));
}

/* A result made again by recorded ops: mv and dot (matmul's nodes), outer (v.reshape(-1, 1) * w), square (x ** 2). */
static int remade(const Call *c, const char *name, Value *r) {
    AgContext *ag = &c->I->run.ag;
    Value *x = arg_at(c, 0, "input"), *y = arg_at(c, 1, NULL);
    if (!is_tensor(x) || r->kind != V_TENSOR) return 0;
    AgVal res;
    if (!strcmp(name, "square")) res = ag_pow_scalar(ag, arg_ag(x), 2.0);
    else if (!is_tensor(y)) return 0;
    else if (strcmp(name, "outer")) res = ag_matmul(ag, arg_ag(x), arg_ag(y));
    else {
        AgVal col = ag_reshape(ag, arg_ag(x), 2, (int64_t[]){-1, 1});
        if (!col.t) return -1;
        res = ag_binary(ag, OP_MUL, col, false, arg_ag(y), false);
        ag_val_free(col);
    }
    return replace_with(r, res);
}

/* median(): over all elements (one tensor) as a reduction whose ties share; median(dim) by the index it gives. */
static int median(const Call *c, const char *name, Value *r) {
    return r->kind == V_TENSOR ? reduction(c, name, r) : picks(c, name, r);
}

/* scatter with a tensor src by its own node (src's grad gathered, repeated indices too); with a number, by
 * positions. */
static int scatter(const Call *c, const char *name, Value *r) {
    int rc = is_tensor(arg_at(c, 3, "src")) ? more_ops(c, name, r) : 0;
    for (const MoveRow *m = MOVES; !rc && m->name; m++) if (!strcmp(m->name, name)) return moves(c, m, r);
    return rc;
}

/* The builtins wired here besides the ELEMS and MOVES rows, each to the function that reads its arguments. */
typedef int (*Wire)(const Call *c, const char *name, Value *r);
static const struct { const char *name; Wire wire; } WIRES[] = {
    {"scatter", scatter}, {"std", var_std}, {"var", var_std}, {"std_mean", var_std}, {"var_mean", var_std},
    {"norm", reduction}, {"prod", reduction}, {"logsumexp", reduction}, {"cumsum", reduction}, {"amax", reduction},
    {"amin", reduction}, {"median", median}, {"maximum", maximum}, {"minimum", maximum}, {"max", maximum},
    {"min", maximum}, {"add", add_alpha}, {"sub", add_alpha}, {"pow", binary_fn}, {"atan2", binary_fn},
    {"scatter_add", more_ops}, {"cumprod", more_ops}, {"sum", more_ops}, {"clamp", clamp_tensors},
    {"clip", clamp_tensors}, {"clamp_min", clamp_bound}, {"clamp_max", clamp_bound}, {"to", to_copy},
    {"double", to_copy}, {"float", to_copy}, {"type", to_copy}, {"einsum", einsum}, {"tensordot", tensordot},
    {"cross", cross}, {"normalize", normalize}, {"sort", picks}, {"msort", picks}, {"topk", picks},
    {"kthvalue", picks}, {"mode", picks}, {"addmm", addmm}, {"addmv", addmm}, {"baddbmm", addmm},
    {"addbmm", addmm}, {"mv", remade}, {"dot", remade}, {"outer", remade}, {"square", remade}, {NULL, NULL}};

int ag_after_wire(Interp *I, Args *a, Value *self, Value *r, const char *name) {
    Call c = {I, a, self};
    for (int k = 0; WIRES[k].name; k++) if (!strcmp(WIRES[k].name, name)) return WIRES[k].wire(&c, name, r);
    for (const ElemRow *e = ELEMS; e->name; e++) if (!strcmp(e->name, name)) return elementwise(&c, e, r);
    for (const MoveRow *m = MOVES; m->name; m++) if (!strcmp(m->name, name)) return moves(&c, m, r);
    return 0;
}

/* d2l_train.c - the book's training scaffolding (d2l/torch.py, §3.2 "Object-Oriented Design for Implementation"):
 * d2l.HyperParameters, d2l.ProgressBoard and d2l.Trainer, written as d2l writes them. Every call from one method to
 * another goes through the object (self.fit_epoch(), model.training_step(...)), so a student's subclass or
 * @d2l.add_to_class(d2l.Trainer) replaces a method as in the book (§3.4 defines prepare_batch and fit_epoch so).
 * The board's curves stream to the live gnuplot as the model trains (plot_live: one figure per board, redrawn at
 * most ten times a second, its last state drawn after the statement). d2l.Module's methods are nn_module.c's. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "plot.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* obj.name(*pos, **kw) looked up on the object (so an override runs); a new reference or NULL with the error. */
static Value *call_attr(Interp *I, Value *obj, const char *name, Value **pos, int npos, const char **kwn, Value **kwv, int nkw) {
    Value *f = ops_getattr(I, obj, name);
    if (!f) return NULL;
    Args a = {pos, npos, kwn, kwv, nkw, name, NULL};
    Value *r = interp_call(I, f, &a);
    val_decref(f);
    return r;
}

/* Sets obj.name = v (v stolen); false with the error set. */
static bool set_attr(Interp *I, Value *obj, const char *name, Value *v) {
    int rc = ops_setattr(I, obj, name, v);
    val_decref(v);
    return rc == 0;
}

/* obj.name as a number (int(...) or float(...) of an attribute); false with the error set. */
static bool attr_double(Interp *I, Value *obj, const char *name, double *out) {
    Value *v = ops_getattr(I, obj, name);
    if (!v) return false;
    bool ok = arg_double(I, v, name, out);
    val_decref(v);
    return ok;
}

/* Records the arguments of a builtin __init__ as save_hyperparameters() does: each parameter of its declaration
 * (signature), by its name there, gets its argument or its default (made by dflt(heap, i), a new reference), and
 * self.hparams holds them all. */
static bool save_args(Interp *I, Value *self, Value *const *args, const char *signature, Value *(*dflt)(ValHeap *heap, int i)) {
    Value *hp = val_dict(I->run.heap);
    char name[64];
    for (int i = 0; args_param_name(signature, i, name, sizeof name); i++) {
        Value *v = args[i], *val = v ? val_incref(v) : dflt(I->run.heap, i);
        dict_set(hp->u.dict, name, val_incref(val));
        if (!set_attr(I, self, name, val)) { val_decref(hp); return false; }
    }
    return set_attr(I, self, "hparams", hp);
}

/* ---- d2l.HyperParameters ---- */

static const Builtin hyperparameters_methods[] = {
    {"save_hyperparameters", d2l_save_hyperparameters, "self.save_hyperparameters(ignore=[])",
     "Stores the arguments of the running __init__ as attributes of self (and self.hparams).", "§3.2", 0, "self"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* d2l.HyperParameters, d2l.ProgressBoard and d2l.Trainer: static classes of the process as nn.Module
 * (builtin_classes_open says why), made by d2l_train_classes_open under builtins_open's pthread_once. */
static Value *hyperparameters_class, *progress_board_class, *trainer_class;

/* The class cls (made now) opened to @d2l.add_to_class, as d2l's classes are. */
static Value *opened(Value *cls) {
    cls->u.cls->open = true;
    return cls;
}

Value *d2l_hyperparameters_class(void) { return hyperparameters_class; }

/* ---- d2l.ProgressBoard ---- */

static Value *str_list(ValHeap *heap, const char *const *s) {
    Value *l = val_list(heap, 0);
    for (; *s; s++) val_list_append(l, val_str(heap, *s));
    return l;
}

static Value *board_default(ValHeap *heap, int i) {
    static const char *const ls[] = {"-", "--", "-.", ":", NULL}, *const colors[] = {"C0", "C1", "C2", "C3", NULL};
    switch (i) {
    case 4: case 5: return val_str(heap, "linear");
    case 6: return str_list(heap, ls);
    case 7: return str_list(heap, colors);
    case 10: {
        Value *t = val_tuple(heap, 2);
        val_seq_set(t, 0, val_float(heap, 3.5));
        val_seq_set(t, 1, val_float(heap, 2.5));
        return t;
    }
    case 11: return val_bool(heap, true);
    default: return val_none();
    }
}

/* ProgressBoard.__init__(xlabel=None, ylabel=None, xlim=None, ylim=None, xscale='linear', yscale='linear',
 * ls=['-', '--', '-.', ':'], colors=['C0', 'C1', 'C2', 'C3'], fig=None, axes=None, figsize=(3.5, 2.5), display=True) */
static Value *m_board_init(Interp *I, Args *a) {
    Value *p[12];                                /* the declaration's parameters, in its order */
    if (!args_bind_method(I, a, "ProgressBoard", p, 12)) return NULL;
    return save_args(I, a->pos[0], p, a->fn->signature, board_default) ? val_none() : NULL;
}

/* A number of the board: an int, a float or a tensor of one value (the book hands it d2l.numpy(loss)). */
static bool board_number(Interp *I, Value *v, const char *what, double *out) {
    if (v->kind == V_TENSOR) {
        if (v->u.t->numel != 1) { rt_error(I, "ProgressBoard.draw: %s must be one number, not a tensor of %lld values", what, (long long)v->u.t->numel); return false; }
        *out = ten_get(v->u.t, 0);
        return true;
    }
    return arg_double(I, v, what, out);
}

/* The dict attribute name of the board (raw_points, data), made when missing as d2l's hasattr check does. */
static Dict *board_dict(Value *self, const char *name) {
    Value *d = val_attr_get(self, name);
    if (!d || d->kind != V_DICT) { d = val_dict(self->heap); val_attr_set(self, name, d); }
    return d->u.dict;
}

/* str(v) of a board option, NULL for None or a missing one (caller frees). */
static char *board_text(Interp *I, Value *self, const char *name) {
    Value *v = val_attr_get(self, name);
    if (!v || v->kind == V_NONE) return NULL;
    StrBuf b;
    sb_init(&b);
    val_str_quiet(I, &b, v);
    return sb_take(&b);
}

/* A (lo, hi) option (xlim, ylim, figsize) into r; false when it is not a pair of numbers (left as it was). */
static bool board_pair(Value *self, const char *name, double r[2]) {
    Value *v = val_attr_get(self, name);
    if (!v || (v->kind != V_LIST && v->kind != V_TUPLE) || v->u.seq.n != 2) return false;
    if (!val_is_number(v->u.seq.items[0]) || !val_is_number(v->u.seq.items[1])) return false;
    r[0] = val_as_double(v->u.seq.items[0]);
    r[1] = val_as_double(v->u.seq.items[1]);
    return true;
}

/* The i-th string of the board's list option name ("" when it has fewer). */
static const char *board_item(Value *self, const char *name, int i) {
    Value *v = val_attr_get(self, name);
    if (!v || (v->kind != V_LIST && v->kind != V_TUPLE) || i >= v->u.seq.n || v->u.seq.items[i]->kind != V_STR) return NULL;
    return v->u.seq.items[i]->u.str.s;
}

/* The board as a figure, as d2l's draw() lays it out: a line per label zipped with ls and colors (so at most as
 * many lines as both have), the label in the legend, xlim/ylim when set, the labels and scales, figsize. */
static Figure *board_figure(Interp *I, Value *self) {
    double fs[2] = {3.5, 2.5};
    if (!board_pair(self, "figsize", fs) || !(fs[0] > 0.5 && fs[0] < 50) || !(fs[1] > 0.5 && fs[1] < 50)) fs[0] = 3.5, fs[1] = 2.5;
    Figure *f = plot_figure_new(FIG_LINES, fs[0], fs[1]);
    board_dict(self, "data");
    Value *held = val_incref(val_attr_get(self, "data"));   /* a label's __str__ (below) may replace board.data */
    Dict *data = held->u.dict;
    for (int i = 0; i < data->n; i++) {
        const char *ls = board_item(self, "ls", i), *colour = board_item(self, "colors", i);
        if (!ls || !colour || data->vals[i]->kind != V_LIST) break;          /* zip() stops at the shortest */
        Value *pts = data->vals[i];
        int64_t n = pts->u.seq.n;
        double *x = xmalloc(sizeof(double) * (size_t)(n ? n : 1)), *y = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
        for (int64_t k = 0; k < n; k++) {
            Value *p = pts->u.seq.items[k];
            x[k] = p->kind == V_TUPLE && p->u.seq.n == 2 && val_is_number(p->u.seq.items[0]) ? val_as_double(p->u.seq.items[0]) : NAN;
            y[k] = p->kind == V_TUPLE && p->u.seq.n == 2 && val_is_number(p->u.seq.items[1]) ? val_as_double(p->u.seq.items[1]) : NAN;
        }
        char fmt[16];
        snprintf(fmt, sizeof fmt, "%.3s%.4s", colour, ls);
        StrBuf label;
        sb_init(&label);
        val_str_quiet(I, &label, data->keys[i]);
        plot_add_series(f, x, y, n, fmt, sb_str(&label));
        sb_free(&label);
    }
    val_decref(held);
    double r[2];
    if (board_pair(self, "xlim", r) && isfinite(r[0]) && isfinite(r[1])) { f->xlim[0] = r[0]; f->xlim[1] = r[1]; }
    if (board_pair(self, "ylim", r) && isfinite(r[0]) && isfinite(r[1])) { f->ylim[0] = r[0]; f->ylim[1] = r[1]; }
    f->xlabel = board_text(I, self, "xlabel");
    f->ylabel = board_text(I, self, "ylabel");
    char *xs = board_text(I, self, "xscale"), *ys = board_text(I, self, "yscale");
    f->logx = xs && !strcmp(xs, "log");
    f->logy = ys && !strcmp(ys, "log");
    free(xs);
    free(ys);
    return f;
}

/* draw(x, y, label, every_n=1), as d2l's: the point joins label's raw points; when every_n of them are there, their
 * mean (x and y) becomes a point of the line, they are cleared, and the board is shown (when display is true). */
static Value *m_board_draw(Interp *I, Args *a) {
    Value *args[4];
    if (!args_bind_method(I, a, "ProgressBoard", args, 4)) return NULL;
    Value *self = a->pos[0], *xv = args[0], *yv = args[1], *label = args[2], *nv = args[3];
    double x, y;
    int64_t every_n = 1;
    if (!board_number(I, xv, "x", &x) || !board_number(I, yv, "y", &y) || (nv && !arg_int(I, nv, "every_n", &every_n))) return NULL;
    if (label->kind != V_STR) return rt_error(I, "ProgressBoard.draw: label must be a string such as 'train_loss'");
    Dict *raw = board_dict(self, "raw_points"), *data = board_dict(self, "data");
    Value *points = dict_get(raw, label->u.str.s), *line = dict_get(data, label->u.str.s);
    if (!points || points->kind != V_LIST) { points = val_list(I->run.heap, 0); dict_set(raw, label->u.str.s, points); }
    if (!line || line->kind != V_LIST) { line = val_list(I->run.heap, 0); dict_set(data, label->u.str.s, line); }
    Value *p = val_tuple(I->run.heap, 2);
    val_seq_set(p, 0, val_float(I->run.heap, x));
    val_seq_set(p, 1, val_float(I->run.heap, y));
    val_list_append(points, p);
    if (points->u.seq.n != every_n) return val_none();
    double sx = 0, sy = 0;
    int64_t n = points->u.seq.n;
    for (int64_t k = 0; k < n; k++) {         /* raw_points is the student's to change: each item checked */
        Value *q = points->u.seq.items[k];
        if ((q->kind != V_TUPLE && q->kind != V_LIST) || q->u.seq.n != 2 || !val_is_number(q->u.seq.items[0]) ||
            !val_is_number(q->u.seq.items[1]))
            return rt_error(I, "ProgressBoard.draw: raw_points[%s] holds %s, not an (x, y) point", label->u.str.s, val_type_name(q));
        sx += val_as_double(q->u.seq.items[0]);
        sy += val_as_double(q->u.seq.items[1]);
    }
    Value *m = val_tuple(I->run.heap, 2);
    val_seq_set(m, 0, val_float(I->run.heap, sx / (double)n));
    val_seq_set(m, 1, val_float(I->run.heap, sy / (double)n));
    val_list_append(line, m);
    dict_set(raw, label->u.str.s, val_list(I->run.heap, 0));      /* points.clear() */
    Value *disp = val_attr_get(self, "display");
    bool show = true;
    if (disp && !interp_truth(I, disp, &show)) return NULL;
    if (!show) return val_none();
    Figure *f = board_figure(I, self);
    if (f->nseries == 0) { plot_figure_free(f); return val_none(); }    /* ls or colors empty: no line to draw */
    Value *num = val_attr_get(self, "_figure");
    int number = num && num->kind == V_INT ? (int)num->u.i : 0;
    Value *r = builtins_show_live(I, f, &number);
    val_attr_set(self, "_figure", val_int(I->run.heap, number));
    return r;
}

static const Builtin board_methods[] = {
    {"__init__", m_board_init, "d2l.ProgressBoard(xlabel=None, ylabel=None, xlim=None, ylim=None, xscale='linear', yscale='linear', "
                               "ls=['-', '--', '-.', ':'], colors=['C0', 'C1', 'C2', 'C3'], fig=None, axes=None, figsize=(3.5, 2.5), display=True)",
     "The board that plots data points in animation: its options become attributes.", "§3.2", 0, "d2l"},
    {"draw", m_board_draw, "board.draw(x, y, label, every_n=1)",
     "Adds the point (x, y) to the line `label`; every every_n points their mean is drawn, and the figure redrawn.", "§3.2", 0, "board"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

Value *d2l_progress_board_class(void) { return progress_board_class; }

/* ---- d2l.Trainer ---- */

static Value *trainer_default(ValHeap *heap, int i) { (void)i; return val_int(heap, 0); }

/* Trainer.__init__(max_epochs, num_gpus=0, gradient_clip_val=0): the hyperparameters, and self.gpus, the GPUs
 * among the first num_gpus that there are: none here (attn computes on the CPU), as d2l on a machine without one. */
static Value *m_trainer_init(Interp *I, Args *a) {
    Value *p[3];                                 /* max_epochs, num_gpus, gradient_clip_val */
    if (!args_bind_method(I, a, "Trainer", p, 3)) return NULL;
    if (!save_args(I, a->pos[0], p, a->fn->signature, trainer_default)) return NULL;
    return set_attr(I, a->pos[0], "gpus", val_list(I->run.heap, 0)) ? val_none() : NULL;
}

/* prepare_data(data): the loaders and how many batches each has (0 validation batches without a loader). */
static Value *m_prepare_data(Interp *I, Args *a) {
    Value *self = a->pos[0], *data;
    if (!args_bind_method(I, a, "Trainer", &data, 1)) return NULL;
    Value *tr = call_attr(I, data, "train_dataloader", NULL, 0, NULL, NULL, 0);
    if (!tr || !set_attr(I, self, "train_dataloader", val_incref(tr))) { val_decref(tr); return NULL; }
    Value *va = call_attr(I, data, "val_dataloader", NULL, 0, NULL, NULL, 0);
    if (!va || !set_attr(I, self, "val_dataloader", val_incref(va))) { val_decref(tr); val_decref(va); return NULL; }
    Value *nt = ops_len(I, tr), *nv = va->kind == V_NONE ? val_int(I->run.heap, 0) : ops_len(I, va);
    val_decref(tr);
    val_decref(va);
    if (!nt || !nv) { val_decref(nt); val_decref(nv); return NULL; }
    bool ok = set_attr(I, self, "num_train_batches", nt) && set_attr(I, self, "num_val_batches", nv);
    return ok ? val_none() : NULL;
}

/* prepare_model(model): model.trainer = self, the board's x axis over the epochs, self.model = model. */
static Value *m_prepare_model(Interp *I, Args *a) {
    Value *self = a->pos[0], *model;
    if (!args_bind_method(I, a, "Trainer", &model, 1)) return NULL;
    if (!set_attr(I, model, "trainer", val_incref(self))) return NULL;
    Value *board = ops_getattr(I, model, "board"), *me = ops_getattr(I, self, "max_epochs");
    bool ok = board && me;
    if (ok) {
        Value *xlim = val_list(I->run.heap, 2);
        val_seq_set(xlim, 0, val_int(I->run.heap, 0));
        val_seq_set(xlim, 1, val_incref(me));
        ok = set_attr(I, board, "xlim", xlim);
    }
    val_decref(board);
    val_decref(me);
    return ok && set_attr(I, self, "model", val_incref(model)) ? val_none() : NULL;
}

/* prepare_batch(batch): the batch as it is (no GPU to move it to). */
static Value *m_prepare_batch(Interp *I, Args *a) {
    Value *batch;
    return args_bind_method(I, a, "Trainer", &batch, 1) ? val_incref(batch) : NULL;
}

/* fit(model, data): prepare_data, prepare_model, self.optim = model.configure_optimizers(), the counters at 0,
 * then fit_epoch() for each epoch (self.epoch); Ctrl-C stops it between steps (fit_epoch). */
static Value *m_fit(Interp *I, Args *a) {
    Value *p[2];
    if (!args_bind_method(I, a, "Trainer", p, 2)) return NULL;
    Value *self = a->pos[0], *model = p[0], *data = p[1];
    Value *r = call_attr(I, self, "prepare_data", &data, 1, NULL, NULL, 0);
    if (!r) return NULL;
    val_decref(r);
    if (!(r = call_attr(I, self, "prepare_model", &model, 1, NULL, NULL, 0))) return NULL;
    val_decref(r);
    Value *opt = call_attr(I, model, "configure_optimizers", NULL, 0, NULL, NULL, 0);
    if (!opt || !set_attr(I, self, "optim", opt)) return NULL;
    double epochs;
    if (!set_attr(I, self, "epoch", val_int(I->run.heap, 0)) || !set_attr(I, self, "train_batch_idx", val_int(I->run.heap, 0)) ||
        !set_attr(I, self, "val_batch_idx", val_int(I->run.heap, 0)) || !attr_double(I, self, "max_epochs", &epochs))
        return NULL;
    for (int64_t e = 0; e < (int64_t)epochs; e++) {
        if (ten_interrupted) return rt_interrupt(I);
        if (!set_attr(I, self, "epoch", val_int(I->run.heap, e))) return NULL;
        if (!(r = call_attr(I, self, "fit_epoch", NULL, 0, NULL, NULL, 0))) return NULL;
        val_decref(r);
    }
    return val_none();
}

/* self.name += 1 */
static bool count_up(Interp *I, Value *self, const char *name) {
    double v;
    return attr_double(I, self, name, &v) && set_attr(I, self, name, val_int(I->run.heap, (int64_t)v + 1));
}

/* A copy of every parameter of model (model.parameters(), and the tensors requiring grad that are its attributes, as
 * §3.4's self.w and self.b), taken before optim.step(): a Ctrl-C inside a student's step (its loop over the
 * parameters) puts them all back, so the model is as the last whole step left it. */
typedef struct Snapshot { Value *params; Tensor **copies; int64_t n; } Snapshot;

static bool snapshot_take(Interp *I, Value *model, Snapshot *s) {
    memset(s, 0, sizeof *s);
    Value *ps = call_attr(I, model, "parameters", NULL, 0, NULL, NULL, 0);
    if (!ps) return false;
    Value *l = ops_to_list(I, ps);
    val_decref(ps);
    if (!l) return false;
    if (model->kind == V_OBJECT)
        for (int i = 0; i < model->u.obj.attrs.n; i++) {
            Value *v = model->u.obj.attrs.vals[i];
            bool listed = !(v->kind == V_TENSOR && ag_requires_grad(v->ag));
            for (int64_t k = 0; k < l->u.seq.n && !listed; k++) listed = l->u.seq.items[k] == v;
            if (!listed) val_list_append(l, val_incref(v));
        }
    s->params = l;
    s->n = l->u.seq.n;
    s->copies = xcalloc((size_t)(s->n ? s->n : 1), sizeof *s->copies);
    for (int64_t i = 0; i < s->n; i++)
        if (l->u.seq.items[i]->kind == V_TENSOR) s->copies[i] = ten_copy(l->u.seq.items[i]->u.t);
    return true;
}

static void snapshot_free(Snapshot *s, bool restore) {
    int stopped = restore ? atomic_exchange(&ten_interrupted, 0) : 0;     /* the copies back must not stop half way */
    for (int64_t i = 0; i < s->n; i++) {
        if (restore && s->copies[i]) ten_copy_into(s->params->u.seq.items[i]->u.t, s->copies[i]);
        ten_free(s->copies[i]);
    }
    if (stopped) atomic_store(&ten_interrupted, stopped);
    free(s->copies);
    val_decref(s->params);
}

/* One training step of fit_epoch, as d2l's: loss = model.training_step(prepare_batch(batch)); optim.zero_grad();
 * under torch.no_grad(): loss.backward(), clip_gradients when gradient_clip_val > 0, optim.step(). */
static bool train_step(Interp *I, Value *self, Value *model, Value *optim, Value *batch, double clip) {
    Value *b = call_attr(I, self, "prepare_batch", &batch, 1, NULL, NULL, 0);
    if (!b) return false;
    Value *loss = call_attr(I, model, "training_step", &b, 1, NULL, NULL, 0), *r;
    val_decref(b);
    if (!loss) return false;
    if (!(r = call_attr(I, optim, "zero_grad", NULL, 0, NULL, NULL, 0))) { val_decref(loss); return false; }
    val_decref(r);
    bool grad_was = I->run.ag.grad_enabled, ok = false;
    I->run.ag.grad_enabled = false;
    Snapshot snap = {0};
    if ((r = call_attr(I, loss, "backward", NULL, 0, NULL, NULL, 0))) {
        val_decref(r);
        Value *args[2] = {val_float(I->run.heap, clip), model};
        r = clip > 0 ? call_attr(I, self, "clip_gradients", args, 2, NULL, NULL, 0) : val_none();
        val_decref(args[0]);
        if (r) {
            val_decref(r);
            int stopped = atomic_exchange(&ten_interrupted, 0);    /* a Ctrl-C now waits until the copy is taken */
            bool taken = snapshot_take(I, model, &snap);
            if (stopped) atomic_store(&ten_interrupted, stopped);
            r = taken ? call_attr(I, optim, "step", NULL, 0, NULL, NULL, 0) : NULL;
            if (taken) snapshot_free(&snap, !r && interp_error_kind(I) == ERR_INTERRUPT);
        }
        ok = r != NULL && !interp_failed(I);
        val_decref(r);
    }
    I->run.ag.grad_enabled = grad_was;
    val_decref(loss);
    return ok;
}

/* Calls model.train() or model.eval(). */
static bool set_mode(Interp *I, Value *model, const char *mode) {
    Value *r = call_attr(I, model, mode, NULL, 0, NULL, NULL, 0);
    val_decref(r);
    return r != NULL;
}

/* Walks loader, running one train_step (train) or validation_step under no_grad per batch, counting idx_name. A
 * Ctrl-C is taken before a step starts: the model as the last step left it. */
static bool epoch_pass(Interp *I, Value *self, Value *model, Value *loader, bool train, double clip) {
    Value *optim = train ? ops_getattr(I, self, "optim") : NULL;
    if (train && !optim) return false;
    Iter it;
    if (!ops_iter_begin(I, loader, &it)) { val_decref(optim); return false; }
    bool ok = true;
    for (Value *batch; ok && (batch = ops_iter_next(&it));) {
        if (ten_interrupted) { rt_interrupt(I); ok = false; }
        else if (train) ok = train_step(I, self, model, optim, batch, clip);
        else {
            bool grad_was = I->run.ag.grad_enabled;
            I->run.ag.grad_enabled = false;
            Value *b = call_attr(I, self, "prepare_batch", &batch, 1, NULL, NULL, 0);
            Value *r = b ? call_attr(I, model, "validation_step", &b, 1, NULL, NULL, 0) : NULL;
            I->run.ag.grad_enabled = grad_was;
            val_decref(b);
            ok = r != NULL;
            val_decref(r);
        }
        val_decref(batch);
        if (ok) ok = count_up(I, self, train ? "train_batch_idx" : "val_batch_idx");
    }
    ops_iter_end(&it);
    val_decref(optim);
    return ok && !interp_failed(I);
}

/* fit_epoch(): model.train() and a step per training batch; then, when there is a validation loader, model.eval()
 * and validation_step per batch under torch.no_grad(). The model is left in eval mode, as d2l leaves it. */
static Value *m_fit_epoch(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "Trainer", NULL, 0)) return NULL;
    Value *self = a->pos[0], *model = ops_getattr(I, self, "model"), *tl = NULL, *vl = NULL;
    double clip;
    bool ok = model && attr_double(I, self, "gradient_clip_val", &clip) && set_mode(I, model, "train") &&
              (tl = ops_getattr(I, self, "train_dataloader")) && epoch_pass(I, self, model, tl, true, clip) &&
              (vl = ops_getattr(I, self, "val_dataloader"));
    if (ok && vl->kind != V_NONE) ok = set_mode(I, model, "eval") && epoch_pass(I, self, model, vl, false, clip);
    val_decref(model);
    val_decref(tl);
    val_decref(vl);
    return ok ? val_none() : NULL;
}

/* clip_gradients(grad_clip_val, model), as d2l's in float32: norm = sqrt(sum of torch.sum(p.grad ** 2) over the
 * parameters that require grad); when norm > grad_clip_val every p.grad is multiplied by grad_clip_val / norm. */
static Value *m_clip_gradients(Interp *I, Args *a) {
    Value *args[2];
    if (!args_bind_method(I, a, "Trainer", args, 2)) return NULL;
    Value *cv = args[0], *model = args[1];
    double clip;
    if (!arg_double(I, cv, "grad_clip_val", &clip)) return NULL;
    Value *ps = call_attr(I, model, "parameters", NULL, 0, NULL, NULL, 0), *l = ps ? ops_to_list(I, ps) : NULL;
    val_decref(ps);
    if (!l) return NULL;
    int64_t n = l->u.seq.n, k = 0;
    Value **grads = xcalloc((size_t)(n ? n : 1), sizeof *grads);
    float total = 0;
    Value *r = val_none();
    for (int64_t i = 0; i < n && r; i++) {
        Value *p = l->u.seq.items[i];
        Value *rg = p->kind == V_TENSOR ? ops_getattr(I, p, "requires_grad") : NULL;
        bool on = false;
        if (rg && !interp_truth(I, rg, &on)) { val_decref(rg); r = NULL; break; }
        val_decref(rg);
        if (!on) continue;
        Value *g = ops_getattr(I, p, "grad");
        if (!g) { r = NULL; break; }
        if (g->kind != V_TENSOR) {
            val_decref(g);
            r = rt_raise(I, "TypeError", "unsupported operand type(s) for ** or pow(): 'NoneType' and 'int'");
            break;
        }
        grads[k++] = g;
        Tensor *sq = ten_binary(OP_MUL, g->u.t, false, g->u.t, false), *s = sq ? ten_reduce(RED_SUM, sq, true, 0, false) : NULL;
        if (s) total = total + (float)ten_get(s, 0);
        ten_free(sq);
        ten_free(s);
        if (!s) r = rt_tensor_error(I);
    }
    if (r && k == 0)            /* d2l's torch.sqrt(sum(...)) of no parameters is torch.sqrt(0) */
        r = rt_raise(I, "TypeError", "sqrt(): argument 'input' (position 1) must be Tensor, not int");
    float norm = sqrtf(total);
    if (r && norm > clip) {
        float factor = (float)clip / norm;
        Tensor *f = ten_full_in(I->run.ten, DT_F32, 0, NULL, factor);
        for (int64_t i = 0; i < k && r; i++) {
            Tensor *m = f ? ten_binary(OP_MUL, grads[i]->u.t, false, f, true) : NULL;
            if (!m || ten_copy_into(grads[i]->u.t, m) < 0) r = rt_tensor_error(I);
            ten_free(m);
        }
        ten_free(f);
    }
    for (int64_t i = 0; i < k; i++) val_decref(grads[i]);
    free(grads);
    val_decref(l);
    return r;
}

static const Builtin trainer_methods[] = {
    {"__init__", m_trainer_init, "d2l.Trainer(max_epochs, num_gpus=0, gradient_clip_val=0)",
     "Trains a d2l.Module on a d2l.DataModule: trainer.fit(model, data).", "§3.2", 0, "d2l"},
    {"prepare_data", m_prepare_data, "trainer.prepare_data(data)",
     "self.train_dataloader, self.val_dataloader and their numbers of batches, from the DataModule.", "§3.2", 0, "trainer"},
    {"prepare_model", m_prepare_model, "trainer.prepare_model(model)",
     "model.trainer = self, the board's xlim [0, max_epochs], self.model = model.", "§3.2", 0, "trainer"},
    {"prepare_batch", m_prepare_batch, "trainer.prepare_batch(batch)", "The batch as the model gets it (here: as it is).", "§3.4", 0, "trainer"},
    {"fit", m_fit, "trainer.fit(model, data)",
     "Trains: prepare_data, prepare_model, self.optim = model.configure_optimizers(), then fit_epoch() max_epochs "
     "times. Ctrl-C stops between two steps, the parameters as the last step left them.", "§3.2", 0, "trainer"},
    {"fit_epoch", m_fit_epoch, "trainer.fit_epoch()",
     "One epoch: per training batch, loss = model.training_step(batch), optim.zero_grad(), then under torch.no_grad() "
     "loss.backward(), clip_gradients, optim.step(); then model.validation_step per validation batch.", "§3.4", 0, "trainer"},
    {"clip_gradients", m_clip_gradients, "trainer.clip_gradients(grad_clip_val, model)",
     "Scales every parameter's .grad so that their joint norm is at most grad_clip_val.", "§9.5", 0, "trainer"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

Value *d2l_trainer_class(void) { return trainer_class; }

void d2l_train_classes_open(void) {
    hyperparameters_class = opened(class_new_builtin("HyperParameters", "d2l.torch", NULL, hyperparameters_methods, false));
    progress_board_class = opened(class_new_builtin("ProgressBoard", "d2l.torch", hyperparameters_class, board_methods, false));
    trainer_class = opened(class_new_builtin("Trainer", "d2l.torch", hyperparameters_class, trainer_methods, false));
}

/* d2l.HyperParameters, d2l.ProgressBoard and d2l.Trainer; a new reference or NULL. */
Value *d2l_train_attr(const char *module, const char *name) {
    if (strcmp(module, "d2l")) return NULL;
    if (!strcmp(name, "HyperParameters")) return val_incref(d2l_hyperparameters_class());
    if (!strcmp(name, "ProgressBoard")) return val_incref(d2l_progress_board_class());
    if (!strcmp(name, "Trainer")) return val_incref(d2l_trainer_class());
    return NULL;
}

/* plot_builtins.c - the book's plotting helpers with the book's arguments: d2l.plot (§2.4 / used in §11.6.3) and
 * d2l.show_heatmaps (§11.1, used in §11.6.3.1), plus savefig and plot_target. They turn values into a Figure (data:
 * series, matrices, labels, figsize) and hand it to plot_show through show(), the one place that decides whether
 * this output is a terminal. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "plot.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SERIES 64
#define MAX_POINTS 1000000
#define MAX_CELLS 1000000

typedef struct Series { double *x, *y; int64_t n; } Series;

static bool is_tty_out(void) { return isatty(1) != 0; }

/* The first items of an iterable as a new list, without collecting the rest (a range(10**12) or a tensor of 10**8
 * rows is not walked): at most max of them, or NULL with "WHAT: more than MAX NOUN" when there are more and cut is
 * false. */
static Value *first_items(Interp *I, Value *v, int64_t max, bool cut, const char *what, const char *noun) {
    Iter it;
    if (!ops_iter_begin(I, v, &it)) return NULL;
    if (it.n > max && !cut) { ops_iter_end(&it); return rt_error(I, "%s: more than %lld %s", what, (long long)max, noun); }
    Value *l = val_list(I->run.heap, 0), *e;
    for (int64_t k = 0; k < max && (e = ops_iter_next(&it)); k++) val_list_append(l, e);
    ops_iter_end(&it);
    if (interp_failed(I)) { val_decref(l); return NULL; }
    return l;
}

/* A 1-D sequence of numbers (tensor or list) as doubles; NULL with an error otherwise. */
static double *to_numbers(Interp *I, Value *v, int64_t *n, const char *what) {
    if (v->kind == V_TENSOR) {
        if (v->u.t->ndim > 1) { rt_error(I, "%s: expected a 1-D sequence, got a %d-D tensor", what, v->u.t->ndim); return NULL; }
        *n = v->u.t->numel;
        if (*n > MAX_POINTS) { rt_error(I, "%s: more than %d points", what, MAX_POINTS); return NULL; }
        double *d = xmalloc(sizeof(double) * (size_t)(*n ? *n : 1));
        for (int64_t i = 0; i < *n; i++) d[i] = ten_get(v->u.t, i);
        return d;
    }
    if (v->kind == V_LIST || v->kind == V_TUPLE || v->kind == V_RANGE) {
        Value *l = first_items(I, v, MAX_POINTS, false, what, "points");
        if (!l) return NULL;
        *n = l->u.seq.n;
        double *d = xmalloc(sizeof(double) * (size_t)(*n ? *n : 1));
        for (int64_t i = 0; i < *n; i++) {
            Value *e = ops_item(l->u.seq.items[i]);
            bool ok = val_is_number(e);
            d[i] = ok ? val_as_double(e) : 0;
            val_decref(e);
            if (!ok) { free(d); val_decref(l); rt_error(I, "%s: item %lld is not a number", what, (long long)i); return NULL; }
        }
        val_decref(l);
        return d;
    }
    rt_error(I, "%s: expected a tensor or a list of numbers, not %s", what, val_type_name(v));
    return NULL;
}

/* The book's has_one_axis: a 1-D tensor, or a list whose first item is not itself a sequence. */
static bool one_axis(Value *v) {
    if (v->kind == V_TENSOR) return v->u.t->ndim <= 1;
    if (v->kind == V_RANGE) return true;
    if ((v->kind == V_LIST || v->kind == V_TUPLE) && v->u.seq.n > 0) {
        Value *f = v->u.seq.items[0];
        return !(f->kind == V_LIST || f->kind == V_TUPLE || (f->kind == V_TENSOR && f->u.t->ndim >= 1));
    }
    return v->kind == V_LIST || v->kind == V_TUPLE;
}

/* Splits X into its series: [X] for one axis, rows of a 2-D tensor, items of a list. Returns a list value. */
static Value *series_list(Interp *I, Value *v) {
    if (one_axis(v)) { Value *l = val_list(I->run.heap, 1); val_seq_set(l, 0, val_incref(v)); return l; }
    if (v->kind == V_TENSOR && v->u.t->ndim > 2) return rt_error(I, "plot: a %d-D tensor cannot be plotted; give 1-D series or a 2-D tensor (one series per row)", v->u.t->ndim);
    return first_items(I, v, MAX_SERIES, false, "plot", "series");
}

/* Legend entries, fmts or titles as strings: a string is one; of a sequence only the first 64 (no figure has more
 * series or panel columns) are read, as the book's zip would use only as many as there are lines. */
static bool str_list(Interp *I, Value *v, const char *what, char ***out, int *n) {
    *out = NULL;
    *n = 0;
    if (!v || v->kind == V_NONE) return true;
    if (v->kind == V_STR) { *out = xcalloc(1, sizeof(char *)); (*out)[0] = xstrdup(v->u.str.s); *n = 1; return true; }
    if (!(v->kind == V_LIST || v->kind == V_TUPLE || v->kind == V_RANGE || v->kind == V_DICT ||
          (v->kind == V_TENSOR && v->u.t->ndim > 0))) {     /* named here: "iteration over a 0-d tensor" says not which */
        rt_error(I, "%s must be a string or a list of strings, not %s", what, val_type_name(v));
        return false;
    }
    Value *l = first_items(I, v, MAX_SERIES, true, what, "");
    if (!l) return false;
    *out = xcalloc((size_t)(l->u.seq.n ? l->u.seq.n : 1), sizeof(char *));
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *e = l->u.seq.items[i];
        StrBuf b;
        sb_init(&b);
        if (!val_str_of(I, &b, e)) { sb_free(&b); val_decref(l); return false; }   /* str(x) raised: matplotlib's error */
        (*out)[(*n)++] = sb_take(&b);
    }
    val_decref(l);
    return true;
}

static void free_strs(char **s, int n) {
    for (int i = 0; i < n; i++) free(s[i]);
    free(s);
}

static bool pair(Interp *I, Value *v, const char *what, double *a, double *b) {
    if (!v || v->kind == V_NONE) return true;
    if ((v->kind != V_LIST && v->kind != V_TUPLE) || v->u.seq.n != 2) { rt_error(I, "%s must be a pair such as (0, 10)", what); return false; }
    if (!arg_double(I, v->u.seq.items[0], what, a) || !arg_double(I, v->u.seq.items[1], what, b)) return false;
    if (!isfinite(*a) || !isfinite(*b)) { rt_error(I, "%s must hold finite numbers", what); return false; }
    return true;
}

/* Writes what the user sees of the figure just shown (a drawing, a window's note, a summary); a transcript being
 * kept (a recording sink, teach --record) gets the figure's summary line instead, as a replay with plot_target('summary')
 * prints it. */
static void write_figure(Interp *I, const char *shown) {
    const Figure *f = I->run.plot.last;
    StrBuf rec;
    sb_init(&rec);
    if (f) {
        sb_putc(&rec, '<');
        plot_summary(f, false, &rec);
        sb_puts(&rec, ">\n");
    }
    interp_write_figure(I, shown, f ? sb_str(&rec) : NULL);
    sb_free(&rec);
}

/* Shows fig where figures go: the terminal (or a window) only when stdout is one and the output is not being
 * captured (transcripts, --check, a lesson's silent runs); a lesson at a terminal is not captured, so its figures
 * are drawn as at the prompt. Takes ownership of fig. */
static Value *show(Interp *I, Figure *fig) {
    StrBuf out;
    sb_init(&out);
    AttnError err;
    bool ok = plot_show(&I->run.plot, fig, &out, is_tty_out() && !interp_captured(I), &err);
    write_figure(I, sb_str(&out));
    sb_free(&out);
    if (!ok) return rt_attn_error(I, &err);
    return val_none();
}

Value *builtins_show_figure(Interp *I, Figure *fig) { return show(I, fig); }

/* A live figure (d2l.ProgressBoard) drawn or kept for later (plot_live); a recording gets nothing now: the figure's
 * summary line when builtins_flush_live shows its last state, so a replay prints that one line too. */
Value *builtins_show_live(Interp *I, Figure *fig, int *number) {
    StrBuf out;
    sb_init(&out);
    AttnError err;
    Plot *P = &I->run.plot;
    if (I->streamed != P->live_mark) P->live_rows = 0;      /* printed below the board: it is drawn anew under that */
    bool ok = plot_live(P, fig, number, is_tty_out() && !interp_captured(I), &out, &err);
    interp_write_figure(I, sb_str(&out), NULL);
    P->live_mark = I->streamed;
    sb_free(&out);
    if (!ok) return rt_attn_error(I, &err);
    return val_none();
}

bool builtins_flush_live(Interp *I) {
    Plot *P = &I->run.plot;
    if (!P->live_dirty && !P->live_pending) return true;
    StrBuf out;
    sb_init(&out);
    AttnError err;
    if (I->streamed != P->live_mark) P->live_rows = 0;
    bool was_live = P->live_dirty;
    int stopped = atomic_exchange(&ten_interrupted, 0);      /* a Ctrl-C that stopped the training: draw where it got */
    bool ok = plot_live_flush(P, is_tty_out() && !interp_captured(I), &out, &err);
    if (stopped) atomic_store(&ten_interrupted, stopped);
    if (was_live) write_figure(I, sb_str(&out));
    sb_free(&out);
    P->live_rows = 0;       /* the prompt and the next statement come below it: a later drawing starts anew */
    if (!ok) {
        StrBuf m;
        sb_init(&m);
        sb_printf(&m, "attn: the board (figure %d) could not be drawn in its last state: %s\n", P->live_number, err_msg(&err));
        interp_write_error(I, sb_str(&m));
        sb_free(&m);
    }
    return ok;
}

/* d2l.plot(X, Y=None, xlabel=None, ylabel=None, legend=[], xlim=None, ylim=None, xscale='linear',
 *          yscale='linear', fmts=('-', 'm--', 'g-.', 'r:'), figsize=(3.5, 2.5)) */
static Value *bi_plot(Interp *I, Args *a) {
    Value *p[13];             /* X, Y, xlabel, ylabel, legend, xlim, ylim, xscale, yscale, fmts, figsize, axes, title */
    if (!args_bind(I, a, p, 13)) return NULL;
    Value *X = p[0], *Y = p[1];
    Value *xs = series_list(I, X);
    if (!xs) return NULL;
    Value *ys = NULL;
    if (!Y || Y->kind == V_NONE) { ys = xs; xs = NULL; }
    else if (!(ys = series_list(I, Y))) { val_decref(xs); return NULL; }
    int64_t nx = xs ? xs->u.seq.n : 0, ny = ys->u.seq.n;
    if (ny == 0 || ny > MAX_SERIES) { val_decref(xs); val_decref(ys); return rt_error(I, "plot: give between 1 and %d series", MAX_SERIES); }
    if (xs && nx != ny && nx != 1) {
        val_decref(xs); val_decref(ys);
        return rt_error(I, "plot: %lld x series for %lld y series (give one X for all, or one per Y)", (long long)nx, (long long)ny);
    }
    Series s[MAX_SERIES];
    memset(s, 0, sizeof s);
    bool ok = true;
    int64_t total = 0;      /* points of all series: gnuplot draws a million in seconds, 64 million never */
    for (int64_t i = 0; i < ny && ok; i++) {
        s[i].y = to_numbers(I, ys->u.seq.items[i], &s[i].n, "plot Y");
        if (!s[i].y) { ok = false; break; }
        if ((total += s[i].n) > MAX_POINTS) { rt_error(I, "plot: more than %d points in all", MAX_POINTS); ok = false; break; }
        if (xs) {
            int64_t n2;
            s[i].x = to_numbers(I, xs->u.seq.items[nx == 1 ? 0 : i], &n2, "plot X");
            if (!s[i].x) { ok = false; break; }
            if (n2 != s[i].n) { rt_error(I, "plot: X has %lld points but Y series %lld has %lld", (long long)n2, (long long)i, (long long)s[i].n); ok = false; }
        }
    }
    val_decref(xs);
    val_decref(ys);
    char **legend = NULL, **fmts = NULL, *xl = NULL, *yl = NULL, *title = NULL;
    int nleg = 0, nfmt = 0;
    double x0 = NAN, x1 = NAN, y0 = NAN, y1 = NAN, fw = 3.5, fh = 2.5;
    Value *v;
    const char *xscale = "linear", *yscale = "linear";
    if (ok) ok = str_list(I, p[4], "legend", &legend, &nleg) && str_list(I, p[9], "fmts", &fmts, &nfmt);
    if (ok) ok = pair(I, p[5], "xlim", &x0, &x1) && pair(I, p[6], "ylim", &y0, &y1) && pair(I, p[10], "figsize", &fw, &fh);
    if (ok && (!(fw > 0.5 && fw < 50) || !(fh > 0.5 && fh < 50))) { rt_error(I, "figsize must be (width, height) in inches, each between 0.5 and 50"); ok = false; }
    for (int k = 0; ok && k < 2; k++) {
        v = p[k ? 8 : 7];
        if (!v || v->kind == V_NONE) continue;
        if (v->kind != V_STR || (strcmp(v->u.str.s, "linear") && strcmp(v->u.str.s, "log"))) { rt_error(I, "%s must be 'linear' or 'log'", k ? "yscale" : "xscale"); ok = false; break; }
        if (k) yscale = v->u.str.s; else xscale = v->u.str.s;
    }
    if (ok) {
        int slot[3] = {2, 3, 12};                /* xlabel, ylabel, title */
        char **dst[3] = {&xl, &yl, &title};
        for (int k = 0; k < 3; k++) {
            v = p[slot[k]];
            if (!v || v->kind == V_NONE) continue;
            StrBuf b;
            sb_init(&b);
            if (!val_str_of(I, &b, v)) { sb_free(&b); ok = false; break; }     /* matplotlib's str(label) raised */
            *dst[k] = sb_take(&b);
        }
    }
    Value *r = NULL;
    if (ok) {
        /* the book's fmts for the first four series; after them (the book's zip would drop them) solid lines in
         * matplotlib's next default colours */
        static const char *book_fmts[] = {"-", "m--", "g-.", "r:"};
        Figure *f = plot_figure_new(FIG_LINES, fw, fh);
        for (int64_t i = 0; i < ny; i++) {
            const char *fmt = nfmt ? (i < nfmt ? fmts[i] : "-") : i < 4 ? book_fmts[i] : "-";
            plot_add_series(f, s[i].x, s[i].y, s[i].n, fmt, i < nleg ? legend[i] : NULL);
            s[i].x = s[i].y = NULL;
        }
        f->xlabel = xl; f->ylabel = yl; f->title = title;
        xl = yl = title = NULL;
        f->xlim[0] = x0; f->xlim[1] = x1; f->ylim[0] = y0; f->ylim[1] = y1;
        f->logx = !strcmp(xscale, "log");
        f->logy = !strcmp(yscale, "log");
        r = show(I, f);
    }
    for (int64_t i = 0; i < MAX_SERIES; i++) { free(s[i].x); free(s[i].y); }
    free_strs(legend, nleg);
    free_strs(fmts, nfmt);
    free(xl); free(yl); free(title);
    return r;
}

/* d2l.show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'): matrices is 4-D
 * (rows of plots, columns of plots, height, width); xlabel on the last row, ylabel on the first column. */
static Value *bi_show_heatmaps(Interp *I, Args *a) {
    Value *p[6];                                 /* matrices, xlabel, ylabel, titles, figsize, cmap */
    if (!args_bind(I, a, p, 6)) return NULL;
    Value *mv = p[0];
    if (mv->kind != V_TENSOR) return rt_error(I, "show_heatmaps(matrices, xlabel, ylabel, ...) needs a tensor");
    Tensor *M = mv->u.t;
    if (M->ndim != 4) {
        char s[96];
        ten_shape_str(M->shape, M->ndim, s, sizeof s);
        return rt_error(I, "show_heatmaps: matrices must be 4-D (rows of plots, columns of plots, height, width), got %s: "
                           "for one matrix use M.unsqueeze(0).unsqueeze(0)", s);
    }
    int64_t R = M->shape[0], C = M->shape[1], H = M->shape[2], W = M->shape[3];
    if (R < 1 || C < 1 || R > 64 || C > 64 || R * C > 64 || H < 1 || W < 1 || H > 250000 || W > 250000 || H * W > 250000 ||
        M->numel > MAX_CELLS)      /* each bound first, so that no product overflows */
        return rt_error(I, "show_heatmaps: between 1 and 64 plots of at most 250000 cells each, %d cells in all", MAX_CELLS);
    char **titles = NULL, *xl = NULL, *yl = NULL;
    int ntit = 0;
    double fw = 2.5, fh = 2.5;
    const char *cmap = "Reds";
    Value *v;
    if (!str_list(I, p[3], "titles", &titles, &ntit) || !pair(I, p[4], "figsize", &fw, &fh)) { free_strs(titles, ntit); return NULL; }
    while (ntit > C) free(titles[--ntit]);         /* one title per column of plots */
    if ((v = p[5]) && v->kind != V_NONE) {
        if (v->kind != V_STR) { free_strs(titles, ntit); return rt_error(I, "cmap must be a colormap name such as 'Reds' or 'Blues'"); }
        cmap = v->u.str.s;
    }
    if (!(fw > 0.5 && fw < 50) || !(fh > 0.5 && fh < 50)) { free_strs(titles, ntit); return rt_error(I, "figsize must be (width, height) in inches, each between 0.5 and 50"); }
    for (int k = 0; k < 2; k++) {
        v = p[k + 1];
        if (!v || v->kind == V_NONE) continue;
        StrBuf b;
        sb_init(&b);
        if (!val_str_of(I, &b, v)) {       /* matplotlib's str(label) raised */
            sb_free(&b);
            free_strs(titles, ntit);
            free(xl);
            return NULL;
        }
        if (k) yl = sb_take(&b); else xl = sb_take(&b);
    }
    if (!plot_cmap_valid(cmap)) {
        free_strs(titles, ntit);
        free(xl);
        free(yl);
        StrBuf b;                                      /* as Python shows a string: escapes visible, never sent */
        sb_init(&b);
        val_repr_quiet(I, &b, p[5]);
        rt_error(I, "show_heatmaps: unknown cmap %s (attn has %s)", sb_str(&b), plot_cmap_names());
        sb_free(&b);
        return NULL;
    }
    double *vals = xmalloc(sizeof(double) * (size_t)M->numel);
    for (int64_t i = 0; i < M->numel; i++) vals[i] = ten_get(M, i);
    Figure *f = plot_figure_new(FIG_HEATMAPS, fw, fh);
    plot_set_matrices(f, R, C, H, W, vals);
    f->cmap = xstrdup(cmap);
    f->xlabel = xl;
    f->ylabel = yl;
    f->titles = titles;
    f->ntitles = ntit;
    return show(I, f);
}

static Value *bi_savefig(Interp *I, Args *a) {
    Value *p = arg(a, 0, "fname");
    if (!p || p->kind != V_STR) return rt_error(I, "savefig(\"name.svg\") needs a file name ending in .svg, .png or .pdf");
    if (strlen(p->u.str.s) != p->u.str.len) return rt_error(I, "savefig: the file name has a NUL character");
    StrBuf out;
    sb_init(&out);
    AttnError err;
    bool ok = plot_savefig(&I->run.plot, p->u.str.s, &out, &err);
    interp_write(I, sb_str(&out));
    sb_free(&out);
    if (!ok) return rt_attn_error(I, &err);
    return val_none();
}

static Value *bi_plot_target(Interp *I, Args *a) {
    Value *t = arg(a, 0, "target");
    if (!t) return val_str(I->run.heap, plot_target_name(plot_target(&I->run.plot)));
    if (t->kind != V_STR || !plot_set_target(&I->run.plot, t->u.str.s))
        return rt_error(I, "plot_target: choose auto, window, terminal, sixel, files, summary, script or none");
    return val_none();
}

const Builtin bi_plot_table[] = {
    {"plot", bi_plot, "d2l.plot(X, Y=None, xlabel=None, ylabel=None, legend=[], xlim=None, ylim=None, xscale='linear', yscale='linear', fmts=('-', 'm--', 'g-.', 'r:'), figsize=(3.5, 2.5), axes=None, *, title=None)",
     "Plots Y against X as the book's d2l.plot does: a 2-D tensor gives one line per row (§11.6.3 plots P[0, :, 6:10].T "
     "against torch.arange(60)). Type help plot for where figures go.", "§2.4", 0, "d2l"},
    {"show_heatmaps", bi_show_heatmaps, "d2l.show_heatmaps(matrices, xlabel=None, ylabel=None, titles=None, figsize=(2.5, 2.5), cmap='Reds')",
     "Heatmaps of a 4-D tensor (rows of plots, columns of plots, height, width): §11.6.3.1 shows P this way with "
     "cmap='Blues'; attention weights are shown per head.", "§11.1", 0, "d2l"},
    {"savefig", bi_savefig, "savefig(\"name.svg\")", "Writes the last figure to an .svg, .png or .pdf file.", "", 0, ""},
    {"plot_target", bi_plot_target, "plot_target(\"terminal\")",
     "Where figures go: auto, window, terminal, sixel, files, summary, script or none (help plot explains).", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* For the chapter's own functions: plots Y (a list of series or a 2-D tensor) against X with keyword options
 * given as NULL-terminated name/value pairs (values are borrowed). */
Value *plot_call(Interp *I, Value *X, Value *Y, const char *const *names, Value *const *vals) {
    Value *pos[2] = {X, Y};
    int nkw = 0;
    while (names[nkw]) nkw++;
    Args a = {pos, 2, (const char **)names, (Value **)vals, nkw, "plot", builtins_find("plot")};   /* d2l.plot's entry */
    return bi_plot(I, &a);
}

/* plot_builtins.c - the book's plotting helpers with the book's arguments: d2l.plot (§2.4 / used in §11.6.3) and
 * d2l.show_heatmaps (§11.1, used in §11.6.3.1), plus savefig and plot_target. They turn values into a Figure of
 * deterministic gnuplot text (numbers as %.9g, strings through plot_quote) and hand it to plot_show. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "plot.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EOD "EOD_attn"
#define MAX_SERIES 64
#define MAX_POINTS 1000000

typedef struct Series { double *x, *y; int64_t n; bool has_x; } Series;

static const char *tab10[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static bool is_tty_out(void) { return isatty(1) != 0; }

static void num(StrBuf *o, double v) {
    if (!isfinite(v)) { sb_puts(o, "NaN"); return; }
    sb_printf(o, "%.9g", v == 0 ? 0.0 : v);
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
        Value *l = ops_to_list(I, v);
        if (!l) return NULL;
        *n = l->u.seq.n;
        if (*n > MAX_POINTS) { val_decref(l); rt_error(I, "%s: more than %d points", what, MAX_POINTS); return NULL; }
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
    if (one_axis(v)) { Value *l = val_list(1); val_seq_set(l, 0, val_incref(v)); return l; }
    if (v->kind == V_TENSOR && v->u.t->ndim > 2) return rt_error(I, "plot: a %d-D tensor cannot be plotted; give 1-D series or a 2-D tensor (one series per row)", v->u.t->ndim);
    return ops_to_list(I, v);
}

static bool str_list(Interp *I, Value *v, const char *what, char ***out, int *n) {
    *out = NULL;
    *n = 0;
    if (!v || v->kind == V_NONE) return true;
    if (v->kind == V_STR) { *out = xcalloc(1, sizeof(char *)); (*out)[0] = xstrdup(v->u.str.s); *n = 1; return true; }
    Value *l = ops_to_list(I, v);
    if (!l) return false;
    *out = xcalloc((size_t)(l->u.seq.n ? l->u.seq.n : 1), sizeof(char *));
    for (int64_t i = 0; i < l->u.seq.n; i++) {
        Value *e = l->u.seq.items[i];
        StrBuf b;
        sb_init(&b);
        val_str_of(&b, e);
        (*out)[(*n)++] = sb_take(&b);
    }
    val_decref(l);
    (void)I; (void)what;
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

/* matplotlib fmt ('-', 'm--', 'g-.', 'r:', 'bo') -> gnuplot style. */
static void style_of(StrBuf *o, const char *fmt, int idx) {
    const char *color = tab10[idx % 10];
    static const struct { char c; const char *rgb; } colors[] = {{'b', "#1f77b4"}, {'g', "#2ca02c"}, {'r', "#d62728"},
        {'c', "#17becf"}, {'m', "#bf00bf"}, {'y', "#bfbf00"}, {'k', "#000000"}, {'w', "#ffffff"}};
    int dt = 0, pt = -1;
    for (const char *p = fmt ? fmt : "-"; *p; p++) {
        for (size_t k = 0; k < sizeof colors / sizeof *colors; k++) if (*p == colors[k].c) color = colors[k].rgb;
        if (p[0] == '-' && p[1] == '-') { dt = 2; p++; }
        else if (p[0] == '-' && p[1] == '.') { dt = 4; p++; }
        else if (*p == '-') dt = 1;
        else if (*p == ':') dt = 3;
        else if (*p == 'o') pt = 7;
        else if (*p == '.') pt = 0;
        else if (*p == 'x') pt = 2;
        else if (*p == '+') pt = 1;
        else if (*p == 's') pt = 5;
        else if (*p == '^') pt = 9;
        else if (*p == '*') pt = 3;
    }
    if (dt == 0 && pt < 0) dt = 1;
    if (dt && pt >= 0) sb_printf(o, "with linespoints lw 2 dt %d pt %d", dt, pt);
    else if (dt) sb_printf(o, "with lines lw 2 dt %d", dt);
    else sb_printf(o, "with points pt %d", pt);
    sb_printf(o, " lc rgb '%s'", color);
}

static void figure_init(Figure *f, double w, double h) {
    sb_init(&f->body);
    sb_init(&f->summary);
    f->width_in = w;
    f->height_in = h;
    f->is_heatmap = false;
    sb_puts(&f->body, "reset\nundefine $*\nset encoding utf8\n");
}

static Value *show(Interp *I, Figure *fig) {
    Figure *heap = xmalloc(sizeof *heap);
    *heap = *fig;
    StrBuf out;
    sb_init(&out);
    char err[1200];
    bool ok = plot_show(heap, &out, is_tty_out() && !I->capture, err, sizeof err);
    interp_write(I, sb_str(&out));
    sb_free(&out);
    if (!ok) return rt_error(I, "%s", err);
    return val_none();
}

/* d2l.plot(X, Y=None, xlabel=None, ylabel=None, legend=[], xlim=None, ylim=None, xscale='linear',
 *          yscale='linear', fmts=('-', 'm--', 'g-.', 'r:'), figsize=(3.5, 2.5)) */
static Value *bi_plot(Interp *I, Args *a) {
    static const char *const kw[] = {"X", "Y", "xlabel", "ylabel", "legend", "xlim", "ylim", "xscale", "yscale", "fmts",
                                     "figsize", "title", "axes", NULL};
    if (!args_check(I, a, 11, kw)) return NULL;
    Value *X = arg(a, 0, "X"), *Y = arg(a, 1, "Y");
    if (!X) return rt_error(I, "plot(X, Y=None, ...) needs something to plot, e.g. d2l.plot(torch.arange(10), torch.arange(10) ** 2)");
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
    for (int64_t i = 0; i < ny && ok; i++) {
        s[i].y = to_numbers(I, ys->u.seq.items[i], &s[i].n, "plot Y");
        if (!s[i].y) { ok = false; break; }
        if (xs) {
            int64_t n2;
            s[i].x = to_numbers(I, xs->u.seq.items[nx == 1 ? 0 : i], &n2, "plot X");
            if (!s[i].x) { ok = false; break; }
            s[i].has_x = true;
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
    if (ok) ok = str_list(I, arg(a, 4, "legend"), "legend", &legend, &nleg) && str_list(I, arg(a, 9, "fmts"), "fmts", &fmts, &nfmt);
    if (ok) ok = pair(I, arg(a, 5, "xlim"), "xlim", &x0, &x1) && pair(I, arg(a, 6, "ylim"), "ylim", &y0, &y1) &&
                 pair(I, arg(a, 10, "figsize"), "figsize", &fw, &fh);
    if (ok && (!(fw > 0.5 && fw < 50) || !(fh > 0.5 && fh < 50))) { rt_error(I, "figsize must be (width, height) in inches, each between 0.5 and 50"); ok = false; }
    for (int k = 0; ok && k < 2; k++) {
        v = arg(a, k ? 8 : 7, k ? "yscale" : "xscale");
        if (!v || v->kind == V_NONE) continue;
        if (v->kind != V_STR || (strcmp(v->u.str.s, "linear") && strcmp(v->u.str.s, "log"))) { rt_error(I, "%s must be 'linear' or 'log'", k ? "yscale" : "xscale"); ok = false; break; }
        if (k) yscale = v->u.str.s; else xscale = v->u.str.s;
    }
    if (ok) {
        const char *names[3] = {"xlabel", "ylabel", "title"};
        int pos[3] = {2, 3, -1};
        char **dst[3] = {&xl, &yl, &title};
        for (int k = 0; k < 3; k++) {
            v = arg(a, pos[k], names[k]);
            if (!v || v->kind == V_NONE) continue;
            StrBuf b;
            sb_init(&b);
            val_str_of(&b, v);
            *dst[k] = sb_take(&b);
        }
    }
    Value *r = NULL;
    if (ok) {
        Figure f;
        figure_init(&f, fw, fh);
        StrBuf *o = &f.body;
        sb_puts(o, "set grid\nset key noenhanced\nset format x \"%g\"\nset format y \"%g\"\n");
        if (!nleg) sb_puts(o, "unset key\n");
        if (xl) { sb_puts(o, "set xlabel "); plot_quote(o, xl); sb_puts(o, " noenhanced\n"); }
        if (yl) { sb_puts(o, "set ylabel "); plot_quote(o, yl); sb_puts(o, " noenhanced\n"); }
        if (title) { sb_puts(o, "set title "); plot_quote(o, title); sb_puts(o, " noenhanced\n"); }
        if (!isnan(x0)) { sb_puts(o, "set xrange ["); num(o, x0); sb_putc(o, ':'); num(o, x1); sb_puts(o, "]\n"); }
        if (!isnan(y0)) { sb_puts(o, "set yrange ["); num(o, y0); sb_putc(o, ':'); num(o, y1); sb_puts(o, "]\n"); }
        if (!strcmp(xscale, "log")) sb_puts(o, "set logscale x\n");
        if (!strcmp(yscale, "log")) sb_puts(o, "set logscale y\n");
        for (int64_t i = 0; i < ny; i++) {
            sb_printf(o, "$S%lld << " EOD "\n", (long long)(i + 1));
            for (int64_t p = 0; p < s[i].n; p++) {
                num(o, s[i].has_x ? s[i].x[p] : (double)p);
                sb_putc(o, ' ');
                num(o, s[i].y[p]);
                sb_putc(o, '\n');
            }
            sb_puts(o, EOD "\n");
        }
        sb_puts(o, "plot ");
        static const char *book_fmts[] = {"-", "m--", "g-.", "r:"};
        for (int64_t i = 0; i < ny; i++) {
            if (i) sb_puts(o, ", \\\n     ");
            sb_printf(o, "$S%lld using 1:2 ", (long long)(i + 1));
            style_of(o, nfmt ? fmts[i % nfmt] : book_fmts[i % 4], (int)i);
            if (i < nleg) { sb_puts(o, " title "); plot_quote(o, legend[i]); }
            else sb_puts(o, " notitle");
        }
        sb_putc(o, '\n');
        StrBuf *sm = &f.summary;
        int64_t npts = s[0].n;
        bool same = true;
        for (int64_t i = 1; i < ny; i++) if (s[i].n != npts) same = false;
        sb_printf(sm, "figure %d: %lld line%s", plot_figure_count() + 1, (long long)ny, ny == 1 ? "" : "s");
        if (same) sb_printf(sm, " of %lld points", (long long)npts);
        if (xl) sb_printf(sm, "; xlabel '%s'", xl);
        if (yl) sb_printf(sm, "; ylabel '%s'", yl);
        if (title) sb_printf(sm, "; title '%s'", title);
        if (nleg) {
            sb_puts(sm, "; legend ");
            for (int i = 0; i < nleg; i++) sb_printf(sm, i ? ", '%s'" : "'%s'", legend[i]);
        }
        if (strcmp(xscale, "linear") || strcmp(yscale, "linear")) sb_printf(sm, "; %s-%s axes", xscale, yscale);
        r = show(I, &f);
    }
    for (int64_t i = 0; i < MAX_SERIES; i++) { free(s[i].x); free(s[i].y); }
    free_strs(legend, nleg);
    free_strs(fmts, nfmt);
    free(xl); free(yl); free(title);
    return r;
}

/* matplotlib's colormaps, light to dark, as stops (position, 0xRRGGBB): for gnuplot and for the terminal */
typedef struct Cmap { const char *name; int n; double pos[5]; unsigned rgb[5]; } Cmap;
static const Cmap cmaps[] = {
    {"Reds", 5, {0, 0.25, 0.5, 0.75, 1}, {0xfff5f0, 0xfcbba1, 0xfb6a4a, 0xcb181d, 0x67000d}},
    {"Blues", 5, {0, 0.25, 0.5, 0.75, 1}, {0xf7fbff, 0xc6dbef, 0x6baed6, 0x2171b5, 0x08306b}},
    {"Greens", 5, {0, 0.25, 0.5, 0.75, 1}, {0xf7fcf5, 0xc7e9c0, 0x74c476, 0x238b45, 0x00441b}},
    {"Greys", 3, {0, 0.5, 1}, {0xffffff, 0x969696, 0x000000}},
    {"Oranges", 3, {0, 0.5, 1}, {0xfff5eb, 0xfd8d3c, 0x7f2704}},
    {"Purples", 3, {0, 0.5, 1}, {0xfcfbfd, 0x9e9ac8, 0x3f007d}},
    {"viridis", 5, {0, 0.25, 0.5, 0.75, 1}, {0x440154, 0x3b528b, 0x21918c, 0x5ec962, 0xfde725}},
    {"RdBu", 5, {0, 0.25, 0.5, 0.75, 1}, {0x67001f, 0xd6604d, 0xf7f7f7, 0x4393c3, 0x053061}},
    {"coolwarm", 3, {0, 0.5, 1}, {0x3b4cc0, 0xdddddd, 0xb40426}}};

static const Cmap *find_cmap(const char *name) {
    for (size_t i = 0; i < sizeof cmaps / sizeof *cmaps; i++) if (!strcmp(name, cmaps[i].name)) return &cmaps[i];
    return NULL;
}

static void palette(StrBuf *o, const Cmap *c) {
    sb_puts(o, "set palette defined (");
    for (int i = 0; i < c->n; i++) sb_printf(o, i ? ", %g '#%06x'" : "%g '#%06x'", c->pos[i], c->rgb[i]);
    sb_puts(o, ")\n");
}

/* The colour of t in [0, 1] as an xterm-256 colour (the 6×6×6 cube). */
static int xterm256(const Cmap *c, double t) {
    int k = 0;
    while (k + 2 < c->n && t > c->pos[k + 1]) k++;
    double f = c->pos[k + 1] > c->pos[k] ? (t - c->pos[k]) / (c->pos[k + 1] - c->pos[k]) : 0;
    if (f < 0) f = 0;
    if (f > 1) f = 1;
    int rgb[3];
    for (int ch = 0; ch < 3; ch++) {
        int a = (int)(c->rgb[k] >> (16 - 8 * ch)) & 255, b = (int)(c->rgb[k + 1] >> (16 - 8 * ch)) & 255;
        rgb[ch] = (int)(a + (b - a) * f + 0.5);
    }
    int q[3];
    for (int ch = 0; ch < 3; ch++) q[ch] = rgb[ch] < 48 ? 0 : rgb[ch] < 115 ? 1 : (rgb[ch] - 35) / 40;
    return 16 + 36 * q[0] + 6 * q[1] + q[2];
}

/* Heatmaps drawn by attn itself in the terminal (gnuplot's dumb terminal cannot fit several panels): each cell two
 * characters wide, coloured with the colormap, or shade characters light to dark without colour. */
static void heatmaps_text(StrBuf *o, const Tensor *M, const Cmap *cm, double lo, double hi, char **titles, int ntit,
                          const char *xl, const char *yl, bool colour) {
    static const char shades[] = " .:-=+*%@";
    int64_t R = M->shape[0], C = M->shape[1], H = M->shape[2], W = M->shape[3];
    int cellw = W > 40 ? 1 : 2;
    if (yl) sb_printf(o, "%s\n", yl);
    for (int64_t r = 0; r < R; r++) {
        sb_puts(o, "     ");
        for (int64_t c = 0; c < C; c++) {
            char t[64] = "";
            if (c < ntit) snprintf(t, sizeof t, "%.*s", (int)(W * cellw), titles[c]);
            sb_printf(o, "%-*s  ", (int)(W * cellw), t);
        }
        sb_putc(o, '\n');
        for (int64_t i = 0; i < H; i++) {
            sb_printf(o, "%4lld ", (long long)i);
            for (int64_t c = 0; c < C; c++) {
                for (int64_t j = 0; j < W; j++) {
                    double x = ten_get(M, ((r * C + c) * H + i) * W + j);
                    double t = isfinite(x) ? (x - lo) / (hi - lo) : 0;
                    if (colour) sb_printf(o, "\x1b[48;5;%dm%*s", xterm256(cm, t), cellw, "");
                    else {
                        int s = (int)(t * 8.999);
                        sb_pad(o, shades[s < 0 ? 0 : s > 8 ? 8 : s], cellw);
                    }
                }
                if (colour) sb_puts(o, "\x1b[0m");
                sb_puts(o, "  ");
            }
            sb_putc(o, '\n');
        }
    }
    if (xl) sb_printf(o, "     %s\n", xl);
    sb_puts(o, "     scale: ");
    num(o, lo);
    sb_putc(o, ' ');
    for (int k = 0; k <= 16; k++) {
        if (colour) sb_printf(o, "\x1b[48;5;%dm \x1b[0m", xterm256(cm, k / 16.0));
        else sb_putc(o, shades[k * 8 / 16]);
    }
    sb_putc(o, ' ');
    num(o, hi);
    sb_putc(o, '\n');
}

/* d2l.show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'): matrices is 4-D
 * (rows of plots, columns of plots, height, width); xlabel on the last row, ylabel on the first column. */
static Value *bi_show_heatmaps(Interp *I, Args *a) {
    static const char *const kw[] = {"matrices", "xlabel", "ylabel", "titles", "figsize", "cmap", NULL};
    if (!args_check(I, a, 6, kw)) return NULL;
    Value *mv = arg(a, 0, "matrices");
    if (!mv || mv->kind != V_TENSOR) return rt_error(I, "show_heatmaps(matrices, xlabel, ylabel, ...) needs a tensor");
    Tensor *M = mv->u.t;
    if (M->ndim != 4) {
        char s[96];
        ten_shape_str(M->shape, M->ndim, s, sizeof s);
        return rt_error(I, "show_heatmaps: matrices must be 4-D (rows of plots, columns of plots, height, width), got %s: "
                           "for one matrix use M.unsqueeze(0).unsqueeze(0)", s);
    }
    int64_t R = M->shape[0], C = M->shape[1], H = M->shape[2], W = M->shape[3];
    if (R * C > 64 || R * C == 0 || H == 0 || W == 0 || H * W > 250000) return rt_error(I, "show_heatmaps: between 1 and 64 plots of at most 250000 cells each");
    char **titles = NULL, *xl = NULL, *yl = NULL;
    int ntit = 0;
    double fw = 2.5, fh = 2.5;
    const char *cmap = "Reds";
    Value *v;
    if (!str_list(I, arg(a, 3, "titles"), "titles", &titles, &ntit) || !pair(I, arg(a, 4, "figsize"), "figsize", &fw, &fh)) { free_strs(titles, ntit); return NULL; }
    if ((v = arg(a, 5, "cmap")) && v->kind != V_NONE) {
        if (v->kind != V_STR) { free_strs(titles, ntit); return rt_error(I, "cmap must be a colormap name such as 'Reds' or 'Blues'"); }
        cmap = v->u.str.s;
    }
    if (!(fw > 0.5 && fw < 50) || !(fh > 0.5 && fh < 50)) { free_strs(titles, ntit); return rt_error(I, "figsize must be (width, height) in inches, each between 0.5 and 50"); }
    for (int k = 0; k < 2; k++) {
        v = arg(a, k + 1, k ? "ylabel" : "xlabel");
        if (!v || v->kind == V_NONE) continue;
        StrBuf b;
        sb_init(&b);
        val_str_of(&b, v);
        if (k) yl = sb_take(&b); else xl = sb_take(&b);
    }
    Figure f;
    figure_init(&f, fw, fh);
    f.is_heatmap = true;
    StrBuf *o = &f.body;
    const Cmap *cm = find_cmap(cmap);
    if (cm) palette(o, cm);
    else {
        sb_free(&f.body);
        sb_free(&f.summary);
        free_strs(titles, ntit);
        free(xl);
        free(yl);
        return rt_error(I, "show_heatmaps: unknown cmap '%s' (attn has Reds, Blues, Greens, Greys, Oranges, Purples, viridis, RdBu, coolwarm)", cmap);
    }
    /* in a terminal without colour, cells are drawn as characters from light to dark */
    static const char shades[] = " .:-=+*%@";
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t i = 0; i < M->numel; i++) { double x = ten_get(M, i); if (isfinite(x)) { if (x < lo) lo = x; if (x > hi) hi = x; } }
    if (!(hi > lo)) { hi = lo + 1; if (!isfinite(lo)) { lo = 0; hi = 1; } }
    sb_puts(o, "set key noenhanced\nunset key\nset tics out nomirror\n");
    sb_printf(o, "set xrange [-0.5:%lld.5]\nset yrange [%lld.5:-0.5]\nset cbrange [", (long long)(W - 1), (long long)(H - 1));
    num(o, lo);
    sb_putc(o, ':');
    num(o, hi);
    sb_puts(o, "]\n");
    for (int64_t r = 0; r < R; r++)
        for (int64_t c = 0; c < C; c++) {
            int64_t base = (r * C + c) * H * W;
            sb_printf(o, "$H%lld_%lld << " EOD "\n", (long long)r, (long long)c);
            for (int64_t i = 0; i < H; i++) {
                for (int64_t j = 0; j < W; j++) { if (j) sb_putc(o, ' '); num(o, ten_get(M, base + i * W + j)); }
                sb_putc(o, '\n');
            }
            sb_puts(o, EOD "\n");
            sb_printf(o, "$C%lld_%lld << " EOD "\n", (long long)r, (long long)c);
            for (int64_t i = 0; i < H; i++)
                for (int64_t j = 0; j < W; j++) {
                    double x = ten_get(M, base + i * W + j);
                    int s = isfinite(x) ? (int)((x - lo) / (hi - lo) * 8.999) : 0;
                    sb_printf(o, "%lld %lld \"%c\"\n", (long long)j, (long long)i, shades[s < 0 ? 0 : s > 8 ? 8 : s]);
                }
            sb_puts(o, EOD "\n");
        }
    if (R * C > 1) sb_printf(o, "set multiplot layout %lld,%lld\n", (long long)R, (long long)C);
    for (int64_t r = 0; r < R; r++)
        for (int64_t c = 0; c < C; c++) {
            if (c < ntit) { sb_puts(o, "set title "); plot_quote(o, titles[c]); sb_puts(o, " noenhanced\n"); }
            else sb_puts(o, "unset title\n");
            if (xl && r == R - 1) { sb_puts(o, "set xlabel "); plot_quote(o, xl); sb_puts(o, " noenhanced\n"); } else sb_puts(o, "unset xlabel\n");
            if (yl && c == 0) { sb_puts(o, "set ylabel "); plot_quote(o, yl); sb_puts(o, " noenhanced\n"); } else sb_puts(o, "unset ylabel\n");
            sb_printf(o, "if (exists(\"ATTN_MONO\") && ATTN_MONO) { plot $C%lld_%lld using 1:2:3 with labels notitle } "
                         "else { plot $H%lld_%lld matrix with image notitle }\n",
                      (long long)r, (long long)c, (long long)r, (long long)c);
        }
    if (R * C > 1) sb_puts(o, "unset multiplot\n");
    sb_printf(&f.summary, "figure %d: heatmap", plot_figure_count() + 1);
    if (R * C > 1) sb_printf(&f.summary, "s %lld×%lld", (long long)R, (long long)C);
    sb_printf(&f.summary, " of %lld×%lld values from ", (long long)H, (long long)W);
    StrBuf nb;
    sb_init(&nb);
    num(&nb, lo);
    sb_puts(&nb, " to ");
    num(&nb, hi);
    sb_puts(&f.summary, sb_str(&nb));
    sb_free(&nb);
    sb_printf(&f.summary, "; cmap %s", cmap);
    if (xl) sb_printf(&f.summary, "; xlabel '%s'", xl);
    if (yl) sb_printf(&f.summary, "; ylabel '%s'", yl);
    for (int i = 0; i < ntit; i++) sb_printf(&f.summary, i ? ", '%s'" : "; titles '%s'", titles[i]);
    Value *r;
    if (plot_resolved_target(is_tty_out() && !I->capture) == PT_TERMINAL) {
        StrBuf txt;
        sb_init(&txt);
        const char *nc = getenv("NO_COLOR");
        heatmaps_text(&txt, M, cm, lo, hi, titles, ntit, xl, yl, !(nc && *nc));
        Figure *heap = xmalloc(sizeof *heap);
        *heap = f;
        plot_keep(heap);
        interp_write(I, sb_str(&txt));
        sb_free(&txt);
        r = val_none();
    } else r = show(I, &f);
    free_strs(titles, ntit);
    free(xl);
    free(yl);
    return r;
}

static Value *bi_savefig(Interp *I, Args *a) {
    Value *p = arg(a, 0, "fname");
    if (!p || p->kind != V_STR) return rt_error(I, "savefig(\"name.svg\") needs a file name ending in .svg, .png or .pdf");
    if (strlen(p->u.str.s) != p->u.str.len) return rt_error(I, "savefig: the file name has a NUL character");
    StrBuf out;
    sb_init(&out);
    char err[1200];
    bool ok = plot_savefig(p->u.str.s, &out, err, sizeof err);
    interp_write(I, sb_str(&out));
    sb_free(&out);
    if (!ok) return rt_error(I, "%s", err);
    return val_none();
}

static Value *bi_plot_target(Interp *I, Args *a) {
    Value *t = arg(a, 0, "target");
    if (!t) return val_str(plot_target_name(plot_target()));
    if (t->kind != V_STR || !plot_set_target(t->u.str.s))
        return rt_error(I, "plot_target: choose auto, window, terminal, sixel, files, summary, script or none");
    return val_none();
}

const Builtin bi_plot_table[] = {
    {"plot", bi_plot, "d2l.plot(X, Y=None, xlabel=None, ylabel=None, legend=[], xlim=None, ylim=None, xscale='linear', yscale='linear', fmts=('-', 'm--', 'g-.', 'r:'), figsize=(3.5, 2.5))",
     "Plots Y against X as the book's d2l.plot does: a 2-D tensor gives one line per row (§11.6.3 plots P[0, :, 6:10].T "
     "against torch.arange(60)). Type help plot for where figures go.", "§2.4", 0},
    {"show_heatmaps", bi_show_heatmaps, "d2l.show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds')",
     "Heatmaps of a 4-D tensor (rows of plots, columns of plots, height, width): §11.6.3.1 shows P this way with "
     "cmap='Blues'; attention weights are shown per head.", "§11.1", 0},
    {"savefig", bi_savefig, "savefig(\"name.svg\")", "Writes the last figure to an .svg, .png or .pdf file.", "", 0},
    {"plot_target", bi_plot_target, "plot_target(\"terminal\")",
     "Where figures go: auto, window, terminal, sixel, files, summary, script or none (help plot explains).", "", 0},
    {NULL, NULL, NULL, NULL, NULL, 0}};

/* For the chapter's own functions: plots Y (a list of series or a 2-D tensor) against X with keyword options
 * given as NULL-terminated name/value pairs (values are borrowed). */
Value *plot_call(Interp *I, Value *X, Value *Y, const char *const *names, Value *const *vals) {
    Value *pos[2] = {X, Y};
    int nkw = 0;
    while (names[nkw]) nkw++;
    Args a = {pos, 2, (const char **)names, (Value **)vals, nkw, "plot", NULL};
    return bi_plot(I, &a);
}

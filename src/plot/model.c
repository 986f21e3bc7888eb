/* model.c - the Figure as data: built by the builtins (d2l.plot, show_heatmaps, the chapter's figures), freed, and
 * described in one line for pipes and replays (what it holds, its x and y ranges). */
#include "plot_internal.h"
#include "textwidth.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Figure *plot_figure_new(FigureKind kind, double width_in, double height_in) {
    Figure *f = xcalloc(1, sizeof *f);
    f->kind = kind;
    f->width_in = width_in;
    f->height_in = height_in;
    f->xlim[0] = f->xlim[1] = f->ylim[0] = f->ylim[1] = NAN;
    return f;
}

void plot_figure_free(Figure *f) {
    if (!f) return;
    for (int i = 0; i < f->nseries; i++) { free(f->series[i].x); free(f->series[i].y); free(f->series[i].label); }
    free(f->series);
    free(f->arrows);
    free(f->arrow_label);
    free(f->marks);
    free(f->values);
    for (int i = 0; i < f->ntitles; i++) free(f->titles[i]);
    free(f->titles);
    free(f->xlabel); free(f->ylabel); free(f->title); free(f->cmap);
    free(f);
}

PlotSeries *plot_add_series(Figure *f, double *x, double *y, int64_t n, const char *fmt, const char *label) {
    f->series = xrealloc(f->series, sizeof *f->series * (size_t)(f->nseries + 1));
    PlotSeries *s = &f->series[f->nseries++];
    s->x = x;
    s->y = y;
    s->n = n;
    s->label = label ? xstrdup(label) : NULL;
    snprintf(s->fmt, sizeof s->fmt, "%s", fmt ? fmt : "-");
    return s;
}

void plot_add_arrow(Figure *f, double x0, double y0, double x1, double y1) {
    f->arrows = xrealloc(f->arrows, sizeof *f->arrows * (size_t)(f->narrows + 1));
    f->arrows[f->narrows++] = (PlotArrow){x0, y0, x1, y1};
}

void plot_add_mark(Figure *f, double x, double y, const char *text) {
    f->marks = xrealloc(f->marks, sizeof *f->marks * (size_t)(f->nmarks + 1));
    PlotMark *m = &f->marks[f->nmarks++];
    m->x = x;
    m->y = y;
    size_t k = 0;
    for (const char *p = text; *p && k + 1 < sizeof m->text; p++)
        if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || strchr("=+-.", *p)) m->text[k++] = *p;
    m->text[k] = 0;
}

/* Text out of s that is not plain UTF-8 text, in place: control characters (C0, DEL, C1 both as bytes and as
 * U+0080..U+009F), bidirectional overrides, bytes that are not UTF-8. A label is text, never a terminal escape, a
 * gnuplot line break, a reordering of what the reader sees, nor a byte that makes an SVG file unreadable. */
static void clean(char *s) {
    if (!s) return;
    char *w = s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t c;
        size_t k = tw_decode(s + i, n - i, &c);
        bool invalid = c == 0xFFFD && k == 1;
        bool control = c < 0x20 || (c >= 0x7F && c <= 0x9F);
        bool bidi = (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
        if (!invalid && !control && !bidi) { memmove(w, s + i, k); w += k; }
        i += k;
    }
    *w = 0;
}

void plot_figure_clean_text(Figure *f) {
    clean(f->xlabel); clean(f->ylabel); clean(f->title); clean(f->arrow_label);
    for (int i = 0; i < f->nseries; i++) clean(f->series[i].label);
    for (int i = 0; i < f->ntitles; i++) clean(f->titles[i]);
}

void plot_set_matrices(Figure *f, int64_t rows, int64_t cols, int64_t h, int64_t w, double *values) {
    free(f->values);
    f->rows = rows; f->cols = cols; f->h = h; f->w = w;
    f->values = values;
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t i = 0; i < rows * cols * h * w; i++)
        if (isfinite(values[i])) { if (values[i] < lo) lo = values[i]; if (values[i] > hi) hi = values[i]; }
    if (!isfinite(lo)) { lo = 0; hi = 1; }
    else if (!(hi > lo)) hi = lo + 1;
    f->lo = lo;
    f->hi = hi;
}

static void num(StrBuf *o, double v, int digits) { sb_printf(o, "%.*g", digits, v == 0 ? 0.0 : v); }

/* The smallest and largest value over every series' x (axis 0) or y (axis 1) of the points with both coordinates
 * finite; false when there is none (on a log axis only positive values count, as gnuplot draws only those). */
static bool data_range(const Figure *f, int axis, double *lo, double *hi) {
    bool logs = axis ? f->logy : f->logx;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int s = 0; s < f->nseries; s++)
        for (int64_t i = 0; i < f->series[s].n; i++) {
            double x = f->series[s].x ? f->series[s].x[i] : (double)i, y = f->series[s].y[i], v = axis ? y : x;
            if (!isfinite(x) || !isfinite(y) || (logs && v <= 0)) continue;     /* as matplotlib ranges */
            if (v < *lo) *lo = v;
            if (v > *hi) *hi = v;
        }
    return *lo <= *hi;
}

void plot_summary(const Figure *f, bool ranges, StrBuf *o) {
    sb_printf(o, "figure %d: ", f->number);
    if (f->kind == FIG_HEATMAPS) {
        sb_puts(o, "heatmap");
        if (f->rows * f->cols > 1) sb_printf(o, "s %lld×%lld", (long long)f->rows, (long long)f->cols);
        sb_printf(o, " of %lld×%lld values from ", (long long)f->h, (long long)f->w);
        num(o, f->lo, 9);
        sb_puts(o, " to ");
        num(o, f->hi, 9);
        sb_printf(o, "; cmap %s", f->cmap);
    } else {
        sb_printf(o, "%d line%s", f->nseries, f->nseries == 1 ? "" : "s");
        bool same = f->nseries > 0;
        for (int i = 1; i < f->nseries; i++) if (f->series[i].n != f->series[0].n) same = false;
        if (same) sb_printf(o, " of %lld points", (long long)f->series[0].n);
        for (int axis = 0; ranges && axis < 2; axis++) {
            double lo, hi;
            const double *lim = axis ? f->ylim : f->xlim;
            if (!isnan(lim[0])) { lo = lim[0]; hi = lim[1]; }
            else if (!data_range(f, axis, &lo, &hi)) continue;
            sb_puts(o, axis ? ", y " : ", x ");
            num(o, lo, 4);
            sb_puts(o, "..");
            num(o, hi, 4);
        }
        if (f->narrows) sb_printf(o, ", %d arrows", f->narrows);
    }
    if (f->xlabel) sb_printf(o, "; xlabel '%s'", f->xlabel);
    if (f->ylabel) sb_printf(o, "; ylabel '%s'", f->ylabel);
    if (f->title) sb_printf(o, "; title '%s'", f->title);
    for (int i = 0; i < f->ntitles; i++) sb_printf(o, i ? ", '%s'" : "; titles '%s'", f->titles[i]);
    bool any = false;
    for (int i = 0; i < f->nseries; i++)
        if (f->series[i].label) { sb_printf(o, any ? ", '%s'" : "; legend '%s'", f->series[i].label); any = true; }
    if (f->narrows && f->arrow_label) sb_printf(o, any ? ", '%s'" : "; legend '%s'", f->arrow_label);
    if (f->kind == FIG_LINES && (f->logx || f->logy)) sb_printf(o, "; %s-%s axes", f->logx ? "log" : "linear", f->logy ? "log" : "linear");
}

/* script_heatmap.c - d2l.show_heatmaps as gnuplot commands (plot_script in script.c calls it for a FIG_HEATMAPS
 * figure): panels laid out by hand, square cells, integer ticks, titles per panel and one colour bar for the grid,
 * in the book's colour map. */
#include "plot_internal.h"
#include "i18n.h"
#include "textwidth.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void label_first_y(StrBuf *o, const Canvas *cv, const char *text, double x, double yfirst) {
    sb_puts(o, "set label ");
    plot_quote(o, text);
    sb_printf(o, " at screen %.5f, first %.6g right noenhanced\n", x / cv->width, yfirst);
}
/* ---- heatmaps (d2l.show_heatmaps) ---- */

static void palette(StrBuf *o, const char *name) {
    bool rev;
    const Cmap *c = cmap_find(name, &rev);
    if (!c) return;
    sb_puts(o, "set palette defined (");
    for (int i = 0; i < c->n; i++) sb_printf(o, i ? ", %d '#%06x'" : "%d '#%06x'", i, c->rgb[rev ? c->n - 1 - i : i]);
    sb_puts(o, ")\n");
}

static int digits(int64_t v) { int n = 1; while (v >= 10) { v /= 10; n++; } return n; }

/* Samples of a matrix side of n values in the image gnuplot draws: gnuplot draws only images of at least 2 × 2 (a
 * single row or column is written twice), and cairo none wider than 32767 pixels (more than 4096 values are averaged
 * down, as matplotlib resamples an image to the pixels it has). */
static int64_t image_samples(int64_t n) { return n == 1 ? 2 : n > 4096 ? 4096 : n; }

/* Sample (i, j) of the hr × wr image of the h × w matrix m: the mean of the finite values in its block, or the one
 * value it repeats; NaN (drawn empty, as matplotlib draws NaN and ±inf) when there is none. */
static double image_sample(const double *m, int64_t h, int64_t w, int64_t hr, int64_t wr, int64_t i, int64_t j) {
    int64_t i0 = i * h / hr, i1 = (i + 1) * h / hr, j0 = j * w / wr, j1 = (j + 1) * w / wr;
    if (i1 <= i0) i1 = i0 + 1;
    if (j1 <= j0) j1 = j0 + 1;
    double sum = 0;
    int64_t n = 0;
    for (int64_t a = i0; a < i1; a++)
        for (int64_t b = j0; b < j1; b++)
            if (isfinite(m[a * w + b])) { sum += m[a * w + b]; n++; }
    return n ? sum / (double)n : NAN;
}

/* One panel's place in screen fractions and its ticks. */
static void panel_margins(StrBuf *o, double x0, double x1, double y0, double y1, const Canvas *cv) {
    sb_printf(o, "set lmargin at screen %.5f\nset rmargin at screen %.5f\nset bmargin at screen %.5f\nset tmargin at screen %.5f\n",
              x0 / cv->width, x1 / cv->width, y0 / cv->height, y1 / cv->height);
}

/* The layout in canvas units (em = 10 pt), matplotlib's: ticks 0.35 em out, tick labels 0.35 em beyond them, axis
 * labels 0.4 em beyond those; titles (12 pt) above each panel; the colour bar right of the grid, 0.6 of its height
 * (the book's shrink=0.6); panels as large as fits with square cells, the whole centred. Tick marks come from
 * gnuplot; every text is a label placed here. */
void heatmaps_script(const Figure *f, const Canvas *cv, StrBuf *o) {
    double em = 10 * pt(cv), cw = 0.62 * em, W = cv->width, H = cv->height;
    int64_t R = f->rows, C = f->cols, h = f->h, w = f->w;
    bool titled = f->ntitles > 0;
    double cbstep = nice_step(f->hi - f->lo, 4, false);
    char b1[40], b2[40];
    int cbch = snprintf(b1, sizeof b1, "%g", ceil(f->lo / cbstep) * cbstep), k2 = snprintf(b2, sizeof b2, "%g", floor(f->hi / cbstep) * cbstep);
    if (k2 > cbch) cbch = k2;
    if (cbch < 3) cbch = 3;
    if (!isfinite(cbstep)) cbch = 8;                              /* gnuplot's "-1e+308" */
    double ytw = digits(h - 1) * cw;                              /* y tick labels' width */
    double left = 0.7 * em + ytw + (f->ylabel ? 1.7 * em : 0) + 0.3 * em;
    double bottom = 1.9 * em + (f->xlabel ? 1.6 * em : 0) + 0.2 * em, top = (titled ? 2.0 : 0.5) * em;
    double hgap = 0.7 * em, vgap = (titled ? 2.1 : 0.7) * em;
    double cbgap = 0.9 * em, cbw = 0.7 * em, right = cbgap + cbw + 1.2 * em + cbch * cw + 0.6 * em;
    double aw = W - left - right - (double)(C - 1) * hgap, ah = H - top - bottom - (double)(R - 1) * vgap;
    double pw = aw / (double)C, ph = pw * (double)h / (double)w;
    if (ph * (double)R > ah) { ph = ah / (double)R; pw = ph * (double)w / (double)h; }
    if (pw < 1) pw = 1;
    if (ph < 1) ph = 1;
    double gw = (double)C * pw + (double)(C - 1) * hgap, gh = (double)R * ph + (double)(R - 1) * vgap;
    double gx = left + (W - left - right - gw) / 2, gy = bottom + (H - top - bottom - gh) / 2;   /* grid's lower left */
    int xmax = (int)(pw / (digits(w - 1) * cw + 1.2 * em)), ymax = (int)(ph / (2.4 * em));
    int64_t xs = (int64_t)nice_step((double)w, xmax < 1 ? 1 : xmax, true), ys = (int64_t)nice_step((double)h, ymax < 1 ? 1 : ymax, true);
    palette(o, f->cmap);
    sb_puts(o, "unset key\nset tics out nomirror scale 0.6 front textcolor rgb '#000000'\nset border 15 lw 0.8 lc rgb '#000000'\n"
               "set format x ''\nset format y ''\n");
    sb_printf(o, "set xrange [-0.5:%lld.5]\nset yrange [%lld.5:-0.5]\nset cbrange [", (long long)(w - 1), (long long)(h - 1));
    gp_num(o, f->lo);
    sb_putc(o, ':');
    gp_num(o, f->hi);
    sb_printf(o, "]\nset xtics 0,%lld,%lld\nset ytics 0,%lld,%lld\n", (long long)xs, (long long)(w - 1), (long long)ys, (long long)(h - 1));
    /* at most 4 ticks on the colour bar (0.6 of the grid's height), fewer when it is short; none chosen here for
     * values from -1e308 to 1e308 (gnuplot's) */
    int cbmax = (int)(0.6 * gh / (1.6 * em));
    cbstep = nice_step(f->hi - f->lo, cbmax < 1 ? 1 : cbmax > 4 ? 4 : cbmax, false);
    if (isfinite(cbstep)) sb_printf(o, "set cbtics %g\n", cbstep);
    sb_puts(o, "set format cb '%g'\nset mcbtics 1\n");
    /* the image gnuplot draws: hr × wr samples, each at (sample index) * step + offset in matrix coordinates */
    int64_t hr = image_samples(h), wr = image_samples(w);
    char ux[64] = "1", uy[64] = "2", use[160] = "";
    if (wr != w) snprintf(ux, sizeof ux, "($1*%.17g%+.17g)", (double)w / (double)wr, 0.5 * (double)w / (double)wr - 0.5);
    if (hr != h) snprintf(uy, sizeof uy, "($2*%.17g%+.17g)", (double)h / (double)hr, 0.5 * (double)h / (double)hr - 0.5);
    if (wr != w || hr != h) snprintf(use, sizeof use, " using %s:%s:3", ux, uy);
    for (int64_t r = 0; r < R; r++)
        for (int64_t c = 0; c < C; c++) {
            sb_printf(o, "$H%lld_%lld << " EOD "\n", (long long)r, (long long)c);
            const double *m = f->values + (r * C + c) * h * w;
            for (int64_t i = 0; i < hr; i++) {
                for (int64_t j = 0; j < wr; j++) { if (j) sb_putc(o, ' '); gp_num(o, image_sample(m, h, w, hr, wr, i, j)); }
                sb_putc(o, '\n');
            }
            sb_puts(o, EOD "\n");
        }
    sb_puts(o, "set multiplot\n");
    for (int64_t r = 0; r < R; r++)
        for (int64_t c = 0; c < C; c++) {
            double x0 = gx + (double)c * (pw + hgap), y1 = gy + gh - (double)r * (ph + vgap), y0 = y1 - ph;
            panel_margins(o, x0, x0 + pw, y0, y1, cv);
            sb_puts(o, "unset label\n");
            char t[32];
            if (r == R - 1) {
                for (int64_t k = 0; k < w; k += xs) {
                    snprintf(t, sizeof t, "%lld", (long long)k);
                    label_at(o, cv, t, "first", (double)k, y0 - 1.2 * em, "center", 1);
                }
                if (f->xlabel) label_at(o, cv, f->xlabel, NULL, x0 + pw / 2, y0 - 2.8 * em, "center", 1);
            }
            if (c == 0) {
                for (int64_t k = 0; k < h; k += ys) {
                    snprintf(t, sizeof t, "%lld", (long long)k);
                    label_first_y(o, cv, t, x0 - 0.7 * em, (double)k);
                }
                if (f->ylabel) label_at(o, cv, f->ylabel, NULL, x0 - 0.7 * em - ytw - 1.0 * em, y0 + ph / 2, "center rotate by 90", 1);
            }
            if (c < f->ntitles) label_at(o, cv, f->titles[c], NULL, x0 + pw / 2, y1 + 1.0 * em, "center", 1.2);
            if (r == R - 1 && c == C - 1) {
                double cbh = 0.6 * gh, cby = gy + (gh - cbh) / 2;
                sb_printf(o, "set colorbox user origin screen %.5f,%.5f size screen %.5f,%.5f border\n",
                          (gx + gw + cbgap) / W, cby / H, cbw / W, cbh / H);
            } else sb_puts(o, "unset colorbox\n");
            /* svg: crisp polygons (gnuplot marks them crispEdges) up to 20000 cells; larger ones as an embedded
             * image, which savefig marks to be drawn with square pixels */
            sb_printf(o, "plot $H%lld_%lld matrix%s with image%s notitle\n", (long long)r, (long long)c, use,
                      cv->kind == CV_SVG && R * C * h * w <= 20000 ? " pixels" : "");
        }
    sb_puts(o, "unset multiplot\n");
}

/* textlines.c - line plots whose curves cross each other, drawn by attn itself in the terminal as stacked panels: one
 * per series, on one shared x axis, each with the same y range, its y ticks at the left, a dotted zero line, its
 * legend entry at the right and its curve in its own colour. The book's Col 6-9 figure drawn by gnuplot's dumb
 * terminal put four sines over one another in 10 rows, where which one oscillates faster could not be seen; apart,
 * each panel shows its own period. Curves are braille dots (2 × 4 dots per character): four times the rows of
 * gnuplot's characters. Used only where the output is UTF-8; elsewhere gnuplot's dumb drawing stays. */
#include "plot_internal.h"
#include "textwidth.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MAX_PANELS = 6, MIN_ROWS = 3, MAX_ROWS = 6 };

bool plot_utf8_output(void) {
    const char *v = NULL;
    const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (int i = 0; i < 3 && !(v && *v); i++) v = getenv(names[i]);
    if (!v || !*v) return false;
    const char *dot = strchr(v, '.');
    return dot && (!strncasecmp(dot + 1, "utf-8", 5) || !strncasecmp(dot + 1, "utf8", 4));
}

void plot_number_text(StrBuf *o, const char *num, bool utf8) {
    for (const char *p = num; *p; p++)
        if (*p == '-' && utf8) sb_puts(o, "\xe2\x88\x92");     /* − */
        else sb_putc(o, *p);
}

void plot_tick_text(StrBuf *o, double v, bool utf8) {
    char t[40];
    snprintf(t, sizeof t, "%g", v == 0 ? 0.0 : v);
    plot_number_text(o, t, utf8);
}

/* Sign changes of a - b along two series with the same x values (false when their x values differ). */
static bool crossings(const PlotSeries *a, const PlotSeries *b, int *count) {
    if (a->n != b->n) return false;
    int prev = 0;
    for (int64_t i = 0; i < a->n; i++) {
        double xa = a->x ? a->x[i] : (double)i, xb = b->x ? b->x[i] : (double)i;
        if (xa != xb) return false;
        double d = a->y[i] - b->y[i];
        int s = d > 0 ? 1 : d < 0 ? -1 : 0;
        if (s && prev && s != prev) (*count)++;
        if (s) prev = s;
    }
    return true;
}

/* Rows every panel gets: the terminal's rows less the fixed lines, shared out, from MIN_ROWS to MAX_ROWS. */
static int fixed_lines(const Figure *f) { return (f->title ? 1 : 0) + (f->ylabel ? 1 : 0) + 2 + (f->xlabel ? 1 : 0); }

bool plot_text_panels_fit(const Figure *f, const Canvas *cv) {
    if (f->kind != FIG_LINES || f->nseries < 2 || f->nseries > MAX_PANELS || f->logx || f->logy || f->equal_axes ||
        f->narrows || f->nmarks || !plot_utf8_output())
        return false;
    if ((cv->height - fixed_lines(f)) / f->nseries < MIN_ROWS || cv->width < 40) return false;
    for (int s = 0; s < f->nseries; s++)
        if (f->series[s].n < 8) return false;
    /* the curves cross each other at least once per curve: drawn over one another they tangle */
    int count = 0;
    for (int a = 0; a < f->nseries; a++)
        for (int b = a + 1; b < f->nseries; b++)
            if (!crossings(&f->series[a], &f->series[b], &count)) return false;
    return count >= f->nseries;
}

/* The smallest of 1, 2, 5 × 10^k that leaves at most max steps over span. */
static double nice(double span, int max) {
    if (max < 1) max = 1;
    double p = pow(10, floor(log10(span / max)));
    for (;; p *= 10)
        for (int k = 0; k < 3; k++) {
            double s = p * (k == 0 ? 1 : k == 1 ? 2 : 5);
            if (span / s <= max + 1e-9) return s;
        }
}

static void colour(StrBuf *o, unsigned rgb, ColourMode mode) {
    if (mode == COLOUR_TRUE) sb_printf(o, "\x1b[38;2;%u;%u;%um", rgb >> 16, (rgb >> 8) & 255, rgb & 255);
    else if (mode == COLOUR_256) sb_printf(o, "\x1b[38;5;%dm", cmap_xterm256(rgb));
}

static void reset(StrBuf *o, ColourMode mode) { if (mode != COLOUR_NONE) sb_puts(o, "\x1b[0m"); }

static void braille(StrBuf *o, unsigned bits) {
    unsigned cp = 0x2800 + bits;
    sb_putc(o, (char)(0xe0 | (cp >> 12)));
    sb_putc(o, (char)(0x80 | ((cp >> 6) & 63)));
    sb_putc(o, (char)(0x80 | (cp & 63)));
}

/* The bit of dot (dx, dy) in a braille character (dx 0..1 across, dy 0..3 down). */
static unsigned dot_bit(int dx, int dy) {
    static const unsigned bits[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    return bits[dy][dx];
}

typedef struct Grid { int w, h; unsigned char *cells; } Grid;     /* w × h characters of braille bits */

static void set_dot(Grid *g, long x, long y) {
    if (x < 0 || y < 0 || x >= 2L * g->w || y >= 4L * g->h) return;
    g->cells[(y / 4) * g->w + x / 2] |= (unsigned char)dot_bit((int)(x % 2), (int)(y % 4));
}

/* Series s as connected dots: x over xr to dots 0..2w-1, y over yr to dots 4h-1..0; NaN breaks the line. */
static void draw_series(Grid *g, const PlotSeries *S, const double xr[2], const double yr[2]) {
    double W = 2.0 * g->w - 1, H = 4.0 * g->h - 1, px = NAN, py = NAN;
    for (int64_t i = 0; i < S->n; i++) {
        double x = S->x ? S->x[i] : (double)i, y = S->y[i];
        if (!isfinite(x) || !isfinite(y)) { px = py = NAN; continue; }
        double cx = (x - xr[0]) / (xr[1] - xr[0]) * W, cy = (yr[1] - y) / (yr[1] - yr[0]) * H;
        if (isnan(px)) set_dot(g, lround(cx), lround(cy));
        else {
            double dx = cx - px, dy = cy - py;
            int n = (int)fmin(4096, ceil(fmax(fabs(dx), fabs(dy))));
            for (int k = 1; k <= n; k++) set_dot(g, lround(px + dx * k / n), lround(py + dy * k / n));
        }
        px = cx;
        py = cy;
    }
}

void plot_text_panels(const Figure *f, const Canvas *cv, StrBuf *o) {
    int n = f->nseries, ph = (cv->height - fixed_lines(f)) / n;
    if (ph > MAX_ROWS) ph = MAX_ROWS;
    double xr[2], yr[2];
    plot_axis_range(f, 0, xr);
    plot_axis_range(f, 1, yr);
    /* y ticks: nice values inside the range, at most one per two rows, one label per text row */
    double ys = nice(yr[1] - yr[0], ph / 2 + 1 > 2 ? ph / 2 + 1 : 2);
    int tick_row[16], ntick = 0;
    double tick_v[16];
    for (double v = ceil(yr[0] / ys) * ys; v <= yr[1] + 1e-9 * ys && ntick < 16; v += ys) {
        int r = (int)lround((yr[1] - v) / (yr[1] - yr[0]) * (4.0 * ph - 1)) / 4;
        if (ntick && tick_row[ntick - 1] == r) continue;
        tick_row[ntick] = r;
        tick_v[ntick++] = fabs(v) < 1e-9 * ys ? 0 : v;
    }
    int gutter = 1;
    for (int k = 0; k < ntick; k++) {
        StrBuf t;
        sb_init(&t);
        plot_tick_text(&t, tick_v[k], true);
        int w = tw_width(sb_str(&t));
        if (w + 1 > gutter) gutter = w + 1;
        sb_free(&t);
    }
    int legend = 0;
    for (int s = 0; s < n; s++)
        if (f->series[s].label && tw_width(f->series[s].label) + 2 > legend) legend = tw_width(f->series[s].label) + 2;
    int room = cv->width - 1;                  /* the last column wraps in some terminals */
    if (legend > room / 3) legend = room / 3;
    int pw = room - gutter - 1 - legend;
    if (pw > 120) pw = 120;
    /* zero line: the dot row of y = 0, when it is inside */
    long zero = 0 > yr[0] && 0 < yr[1] ? lround(yr[1] / (yr[1] - yr[0]) * (4.0 * ph - 1)) : -1;
    Grid g = {pw, ph, calloc((size_t)pw * (size_t)ph, 1)};
    Grid z = {pw, ph, calloc((size_t)pw * (size_t)ph, 1)};
    if (!g.cells || !z.cells) { free(g.cells); free(z.cells); return; }
    for (long x = 0; zero >= 0 && x < 2L * pw; x += 2) set_dot(&z, x, zero);
    if (f->title) {
        int lw = tw_width(f->title), at = gutter + 1 + (pw > lw ? (pw - lw) / 2 : 0);
        sb_pad(o, ' ', at);
        sb_puts(o, f->title);
        sb_putc(o, '\n');
    }
    if (f->ylabel) { sb_puts(o, f->ylabel); sb_putc(o, '\n'); }
    for (int s = 0; s < n; s++) {
        memset(g.cells, 0, (size_t)pw * (size_t)ph);
        draw_series(&g, &f->series[s], xr, yr);
        unsigned rgb = plot_series_rgb(f, s);
        for (int r = 0; r < ph; r++) {
            int k = 0;
            while (k < ntick && tick_row[k] != r) k++;
            StrBuf t;
            sb_init(&t);
            if (k < ntick) plot_tick_text(&t, tick_v[k], true);
            sb_pad(o, ' ', gutter - 1 - tw_width(sb_str(&t)));
            sb_puts(o, sb_str(&t));
            sb_free(&t);
            sb_puts(o, k < ntick ? "\xe2\x94\xa4" : "\xe2\x94\x82");      /* ┤ at a tick, else │ */
            int shown = 0;                      /* 0 nothing, 1 the zero line's grey, 2 the curve's colour */
            for (int x = 0; x < pw; x++) {
                unsigned c = g.cells[r * pw + x], zb = z.cells[r * pw + x];
                int want = c ? 2 : zb ? 1 : 0;
                if (want && want != shown) {
                    if (want == 2) colour(o, rgb, cv->colour);
                    else colour(o, 0xb0b0b0, cv->colour);
                    shown = want;
                }
                if (c || zb) braille(o, c ? c : zb);
                else sb_putc(o, ' ');
            }
            if (r == (ph - 1) / 2 && f->series[s].label) {
                if (shown != 2) colour(o, rgb, cv->colour);
                sb_puts(o, "  ");
                StrBuf lab;
                sb_init(&lab);
                sb_puts(&lab, f->series[s].label);
                /* cut to the legend's room, whole characters */
                const char *p = sb_str(&lab);
                int used = 0;
                for (size_t i = 0, len = strlen(p); i < len;) {
                    uint32_t cp;
                    size_t b = tw_decode(p + i, len - i, &cp);
                    if (used + tw_char_width(cp) > legend - 2) break;
                    sb_putn(o, p + i, b);
                    used += tw_char_width(cp);
                    i += b;
                }
                sb_free(&lab);
                shown = 2;
            }
            if (shown) reset(o, cv->colour);
            sb_putc(o, '\n');
        }
    }
    /* the x axis: └───┬───, tick labels centred under their ticks */
    double xs = nice(xr[1] - xr[0], pw / 8 > 1 ? pw / 8 : 1);
    char *axis = malloc((size_t)pw + 1), *labels = malloc((size_t)pw + 1);
    if (!axis || !labels) { free(axis); free(labels); free(g.cells); free(z.cells); return; }
    memset(axis, 0, (size_t)pw + 1);
    memset(labels, ' ', (size_t)pw);
    labels[pw] = 0;
    for (double v = ceil(xr[0] / xs) * xs; v <= xr[1] + 1e-9 * xs; v += xs) {
        long col = lround((v - xr[0]) / (xr[1] - xr[0]) * (2.0 * pw - 1)) / 2;
        if (col < 0 || col >= pw) continue;
        axis[col] = 1;
        char t[40];
        snprintf(t, sizeof t, "%g", fabs(v) < 1e-9 * xs ? 0.0 : v);
        int len = (int)strlen(t);
        long at = col - (len - 1) / 2;
        if (at < 0 || at + len > pw) continue;
        bool clear = true;
        for (long i = at - 1; i <= at + len && clear; i++)
            if (i >= 0 && i < pw && labels[i] != ' ') clear = false;
        if (clear) memcpy(labels + at, t, (size_t)len);
    }
    sb_pad(o, ' ', gutter - 1);
    sb_puts(o, "\xe2\x94\x94");                                    /* └ */
    for (int x = 0; x < pw; x++) sb_puts(o, axis[x] ? "\xe2\x94\xac" : "\xe2\x94\x80");   /* ┬ ─ */
    sb_putc(o, '\n');
    sb_pad(o, ' ', gutter);
    /* the labels, each '-' as U+2212 */
    for (const char *p = labels + 0; *p; p++) {
        if (*p == '-') sb_puts(o, "\xe2\x88\x92");
        else sb_putc(o, *p);
    }
    while (o->len && o->s[o->len - 1] == ' ') o->len--;
    o->s[o->len] = 0;
    sb_putc(o, '\n');
    if (f->xlabel) {
        int lw = tw_width(f->xlabel), at = gutter + (pw > lw ? (pw - lw) / 2 : 0);
        sb_pad(o, ' ', at);
        sb_puts(o, f->xlabel);
        sb_putc(o, '\n');
    }
    free(axis);
    free(labels);
    free(g.cells);
    free(z.cells);
}

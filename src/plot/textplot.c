/* textplot.c - show_heatmaps drawn by attn itself in the terminal (gnuplot's dumb terminal cannot fit several
 * panels, nor colour cells): each character is two pixels, the upper half block '▀' in the top pixel's colour over
 * the bottom pixel's, so cells stay square; without colour, one shade character per pixel (two per cell across).
 * The panels are scaled to fit the terminal: enlarged by a whole number when small, averaged down when large; a
 * matrix taller than the terminal but no wider gets one line per row and scrolls (P's 60 positions, one per line).
 * Rows and columns are labelled with integer ticks, each panel with its title, and one colour scale serves all. */
#include "plot_internal.h"
#include <math.h>
#include "textwidth.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char shades[] = " .:-=+*%@";

typedef struct Layout {
    int tw, tp;            /* a panel's size: characters across, pixels down */
    int lines;             /* text lines per panel */
    int gutter;            /* row tick labels left of the panels */
    int xstep, ystep;      /* tick steps in matrix rows and columns */
    bool colour, titled;
    bool tall;             /* one text line per matrix row, taller than the terminal */
} Layout;

/* The most matrix rows drawn one per line (a few screens); more are averaged down to fit the terminal. */
#define TALL_LINES 120

static int digits(int64_t v) { int n = 1; while (v >= 10) { v /= 10; n++; } return n; }

/* The smallest of 1, 2, 5, 10, 20, 50 ... that leaves at most max ticks over n values. */
static int int_step(int64_t n, int max) {
    if (max < 1) max = 1;
    for (int64_t p = 1;; p *= 10)
        for (int k = 0; k < 3; k++) {
            int64_t s = p * (k == 0 ? 1 : k == 1 ? 2 : 5);
            if ((n + s - 1) / s <= max || s > n) return (int)s;
        }
}

static Layout layout(const Figure *f, const Canvas *cv) {
    Layout L;
    L.colour = cv->colour != COLOUR_NONE;
    L.titled = f->ntitles > 0;
    int64_t R = f->rows, C = f->cols, h = f->h, w = f->w;
    L.gutter = digits(h - 1) + 1;
    /* fixed lines: y label, column ticks, x label, colour scale; a title line per panel row or a gap between rows */
    int fixed = (f->ylabel ? 1 : 0) + 1 + (f->xlabel ? 1 : 0) + 1 + (L.titled ? (int)R : (int)R - 1);
    int budget = cv->height - fixed;           /* cv->height: the lines the whole figure may take */
    double per_row = (double)budget / (double)R;
    if (per_row < 1) per_row = 1;
    double across = (double)(cv->width - 1 - L.gutter - 2 * (C - 1)) / (double)C;
    if (across < 1) across = 1;
    /* scales in characters per matrix column (sx) and per matrix row in half lines (sy): characters are about twice
     * as tall as wide, so sx = sy draws square cells. Both whole and equal when the matrix fits (at most 4); a
     * direction that must shrink is averaged down, and the other then keeps one character per value when it fits
     * and cells stay within 2:1, so no column (a sine of its own in P) is blended into its neighbour without need. */
    double fx = fmin(across / (double)w, 4), fy = fmin(2 * per_row / (double)h, 4), sx, sy;
    /* taller than the terminal but no wider: one line per matrix row (the figure scrolls), rather than rows averaged
     * into each other (P's 60 positions in 32 half-block rows turned its alternating sin/cos columns into noise) */
    L.tall = fy < 1 && fx >= 1 && (double)h * (double)R <= TALL_LINES;
    if (L.tall) {
        sy = 2;
        sx = fx >= 2 ? 2 : 1;                  /* square cells when two characters per column fit */
    } else if (fx >= 1 && fy >= 1) sx = sy = floor(fmin(fx, fy));
    else {                                     /* cells at most twice as long one way as the other */
        sx = fx < 1 ? fx : 1;
        sy = fy < 1 ? fy : 1;
        if (sx > 2 * sy) sx = 2 * sy;
        if (sy > 2 * sx) sy = 2 * sx;
    }
    double vpx = L.colour ? 2 : 1;             /* pixels per text line */
    L.tw = (int)fmax(1, floor((double)w * sx + 1e-9));
    L.tp = (int)fmax(1, floor((double)h * sy * vpx / 2 + 1e-9));
    L.lines = (int)ceil(L.tp / vpx);
    L.xstep = int_step(w, L.tw / (digits(w - 1) + 1));
    L.ystep = int_step(h, L.tall ? L.lines / 5 : L.lines / 2 > 0 ? L.lines / 2 : 1);
    return L;
}

/* The value at pixel (py, px) of panel m (h × w): the mean of the cells whose centres fall in the pixel, or the
 * cell under the pixel's centre when it is smaller than a cell. */
static double pixel(const double *m, int64_t h, int64_t w, const Layout *L, int py, int px) {
    double r0 = (double)py * (double)h / L->tp, r1 = (double)(py + 1) * (double)h / L->tp;
    double c0 = (double)px * (double)w / L->tw, c1 = (double)(px + 1) * (double)w / L->tw;
    double sum = 0;
    int n = 0;
    for (int64_t i = (int64_t)ceil(r0 - 0.5); i + 0.5 < r1 && i < h; i++)
        for (int64_t j = (int64_t)ceil(c0 - 0.5); j + 0.5 < c1 && j < w; j++)
            if (i >= 0 && j >= 0 && isfinite(m[i * w + j])) { sum += m[i * w + j]; n++; }
    if (n) return sum / n;
    int64_t i = (int64_t)((r0 + r1) / 2), j = (int64_t)((c0 + c1) / 2);
    if (i >= h) i = h - 1;
    if (j >= w) j = w - 1;
    return m[i * w + j];
}

/* The escape code for the map's colour at t as foreground or background: 24-bit, or the map's 256-colour ramp. */
static void colour_code(StrBuf *o, bool fg, const Cmap *cm, bool rev, double t, ColourMode mode) {
    unsigned rgb = cmap_rgb(cm, rev, t);
    if (mode == COLOUR_TRUE) sb_printf(o, "\x1b[%d;2;%u;%u;%um", fg ? 38 : 48, rgb >> 16, (rgb >> 8) & 255, rgb & 255);
    else sb_printf(o, "\x1b[%d;5;%dm", fg ? 38 : 48, cmap_xterm256_at(cm, rev, t));
}

static double unit(const Figure *f, double v) { return isfinite(v) ? (v - f->lo) / (f->hi - f->lo) : 0; }

/* Text s cut to at most n display columns (a CJK character takes two; one that would pass n is left out); returns
 * the columns written. */
static int cut_text(StrBuf *o, const char *s, int n) {
    int used = 0;
    size_t len = s ? strlen(s) : 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = tw_decode(s + i, len - i, &cp);
        int w = tw_char_width(cp);
        if (used + w > n) break;
        sb_putn(o, s + i, k);
        used += w;
        i += k;
    }
    return used;
}

/* Text s cut or padded to exactly n display columns. */
static void fit_text(StrBuf *o, const char *s, int n) { sb_pad(o, ' ', n - cut_text(o, s, n)); }

static void panel_line(StrBuf *o, const Figure *f, const Layout *L, const Cmap *cm, bool rev, ColourMode mode,
                       const double *m, int line) {
    for (int x = 0; x < L->tw; x++) {
        if (!L->colour) {
            int s = (int)(unit(f, pixel(m, f->h, f->w, L, line, x)) * 8.999);
            sb_putc(o, shades[s < 0 ? 0 : s > 8 ? 8 : s]);
            continue;
        }
        int top = 2 * line, bot = top + 1;
        colour_code(o, true, cm, rev, unit(f, pixel(m, f->h, f->w, L, top, x)), mode);
        if (bot < L->tp) colour_code(o, false, cm, rev, unit(f, pixel(m, f->h, f->w, L, bot, x)), mode);
        else sb_puts(o, "\x1b[49m");
        sb_puts(o, "\xe2\x96\x80");     /* ▀ */
    }
    if (L->colour) sb_puts(o, "\x1b[0m");
}

/* The row label for text line `line`: the first multiple of ystep among the matrix rows it shows. */
static void row_label(StrBuf *o, const Figure *f, const Layout *L, int line) {
    double vpx = L->colour ? 2 : 1;
    int64_t r0 = (int64_t)ceil(line * vpx * (double)f->h / L->tp - 1e-9), r1 = (int64_t)ceil((line + 1) * vpx * (double)f->h / L->tp - 1e-9);
    int64_t k = (r0 + L->ystep - 1) / L->ystep * L->ystep;
    if (k < r1 && k < f->h) sb_printf(o, "%*lld ", L->gutter - 1, (long long)k);
    else sb_pad(o, ' ', L->gutter);
}

void plot_text_heatmaps(const Figure *f, const Canvas *cv, StrBuf *o) {
    Layout L = layout(f, cv);
    bool rev;
    const Cmap *cm = cmap_find(f->cmap, &rev);
    int64_t R = f->rows, C = f->cols;
    int room = cv->width - 1;                  /* columns a line may take (the last one wraps in some terminals) */
    if (f->ylabel) { cut_text(o, f->ylabel, room); sb_putc(o, '\n'); }
    for (int64_t r = 0; r < R; r++) {
        if (L.titled) {
            sb_pad(o, ' ', L.gutter);
            for (int64_t c = 0; c < C; c++) {     /* a title may use one column of the gap after its panel */
                if (c) sb_puts(o, " ");
                fit_text(o, c < f->ntitles ? f->titles[c] : "", c < C - 1 ? L.tw + 1 : L.tw);
            }
            sb_putc(o, '\n');
        } else if (r) sb_putc(o, '\n');
        for (int line = 0; line < L.lines; line++) {
            row_label(o, f, &L, line);
            for (int64_t c = 0; c < C; c++) {
                if (c) sb_puts(o, "  ");
                panel_line(o, f, &L, cm, rev, cv->colour, f->values + (r * C + c) * f->h * f->w, line);
            }
            sb_putc(o, '\n');
        }
    }
    /* column ticks under every panel: a label starts at the character showing that column */
    sb_pad(o, ' ', L.gutter);
    for (int64_t c = 0; c < C; c++) {
        if (c) sb_puts(o, "  ");
        char row[1024];
        int n = L.tw < (int)sizeof row - 1 ? L.tw : (int)sizeof row - 1;
        memset(row, ' ', (size_t)n);
        row[n] = 0;
        for (int64_t k = 0; k < f->w; k += L.xstep) {
            int x = (int)floor(((double)k + 0.5) * L.tw / (double)f->w);
            char lab[24];
            int len = snprintf(lab, sizeof lab, "%lld", (long long)k);
            if (x + len > n) x = n - len;
            if (x < 0 || (x > 0 && row[x - 1] != ' ')) continue;
            memcpy(row + x, lab, (size_t)len);
        }
        sb_puts(o, row);
    }
    sb_putc(o, '\n');
    if (f->xlabel) {
        int gw = (int)C * L.tw + 2 * ((int)C - 1), lw = tw_width(f->xlabel), at = L.gutter + (gw > lw ? (gw - lw) / 2 : 0);
        if (at + lw > room) at = room - lw > 0 ? room - lw : 0;
        sb_pad(o, ' ', at);
        cut_text(o, f->xlabel, room - at);
        sb_putc(o, '\n');
    }
    /* the colour scale, shared by all panels */
    char num[32];          /* its ends as the ticks: a minus sign U+2212 where the terminal shows UTF-8 */
    StrBuf lob, hib;
    sb_init(&lob);
    sb_init(&hib);
    snprintf(num, sizeof num, "%.4g", f->lo == 0 ? 0.0 : f->lo);
    plot_number_text(&lob, num, plot_utf8_output());
    snprintf(num, sizeof num, "%.4g", f->hi == 0 ? 0.0 : f->hi);
    plot_number_text(&hib, num, plot_utf8_output());
    const char *lo = sb_str(&lob), *hi = sb_str(&hib);
    /* "lo <24 cells> hi  (cmap)": fewer cells in a narrow terminal, then without the map's name, then hi on a line
     * of its own */
    int ends = L.gutter + tw_width(lo) + 1 + 1 + tw_width(hi), name = 3 + (int)strlen(f->cmap) + 1;
    bool named = ends + 4 + name <= room, split = ends + 1 > room;
    int bar = split ? room - L.gutter - tw_width(lo) - 1 : room - ends - (named ? name : 0);
    if (bar > 24) bar = 24;
    if (bar < 1) bar = 1;
    sb_pad(o, ' ', L.gutter);
    sb_printf(o, "%s ", lo);
    for (int k = 0; k < bar; k++) {
        double t = (k + 0.5) / bar;
        if (L.colour) { colour_code(o, false, cm, rev, t, cv->colour); sb_putc(o, ' '); }
        else sb_putc(o, shades[(int)(t * 8.999)]);
    }
    if (L.colour) sb_puts(o, "\x1b[0m");
    if (split) { sb_putc(o, '\n'); sb_pad(o, ' ', L.gutter); sb_printf(o, "%s\n", hi); }
    else if (named) sb_printf(o, " %s  (%s)\n", hi, f->cmap);
    else sb_printf(o, " %s\n", hi);
    sb_free(&lob);
    sb_free(&hib);
}

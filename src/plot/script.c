/* script.c - a Figure as gnuplot commands for one canvas, in the book's style: matplotlib's defaults (10 pt DejaVu
 * Sans, 1.5 pt lines, 0.8 pt axes and a #b0b0b0 grid behind the data, ticks out, 5% margins around the data, a white
 * background, the book's fmts in matplotlib's colours), scaled by the canvas's pixels per inch so that a PNG, an SVG,
 * a window or a sixel picture all keep the figure's proportions. The legend goes to the first corner the data
 * leaves empty (matplotlib's loc='best' order), else outside the axes: it never covers data. Heatmaps are laid out
 * by hand (script_heatmap.c): square cells, integer ticks, titles per panel, one colour bar for the grid as
 * show_heatmaps draws it. */
#include "plot_internal.h"
#include "i18n.h"
#include "textwidth.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define FONT "DejaVu Sans"

void gp_num(StrBuf *o, double v) {
    if (!isfinite(v)) { sb_puts(o, "NaN"); return; }
    sb_printf(o, "%.9g", v == 0 ? 0.0 : v);
}

/* ---- canvases ---- */

Canvas plot_file_canvas(const Figure *f, const char *ext) {
    Canvas cv = {CV_SVG, 0, 0, 96, COLOUR_TRUE, NULL, -1, -1, false, I18N_EN};       /* svg: CSS pixels, 96 per inch */
    if (ext && !strcmp(ext, ".png")) { cv.kind = CV_PNG; cv.ppi = 200; }   /* twice matplotlib's 100 dpi */
    else if (ext && !strcmp(ext, ".pdf")) { cv.kind = CV_PDF; cv.ppi = 72; }
    cv.width = (int)lround(f->width_in * cv.ppi);
    cv.height = (int)lround(f->height_in * cv.ppi);
    return cv;
}

static bool is_dumb(const Canvas *cv) { return cv->kind == CV_DUMB; }
/* One point of the figure in canvas units (pixels; points for pdf). */
double pt(const Canvas *cv) { return cv->ppi / 72; }

/* 10 pt of the figure as a gnuplot font size: svg font sizes are pixels, cairo and gd take points at 96 pixels per
 * inch, pdf points. */
static double base_font(const Canvas *cv) { return cv->kind == CV_SVG ? 10 * pt(cv) : cv->kind == CV_PDF ? 10 : 10 * cv->ppi / 96; }

static bool wide(const char *s) {
    for (size_t i = 0, n = s ? strlen(s) : 0; i < n;) {
        uint32_t cp;
        i += tw_decode(s + i, n - i, &cp);
        if (tw_char_width(cp) == 2) return true;
    }
    return false;
}

/* Does any text of the figure hold a wide (CJK) character? */
static bool has_wide_text(const Figure *f) {
    if (wide(f->xlabel) || wide(f->ylabel) || wide(f->title) || wide(f->arrow_label)) return true;
    for (int i = 0; i < f->nseries; i++) if (wide(f->series[i].label)) return true;
    for (int i = 0; i < f->ntitles; i++) if (wide(f->titles[i])) return true;
    return false;
}

/* The font family for the gd canvas (sixel): gd draws from one font file with no fallback, so labels in Japanese
 * or Chinese need a CJK family (which has Latin letters too); cairo and svg fall back by themselves. */
static const char *gd_family(const Figure *f, I18nLang lang) {
    if (!has_wide_text(f)) return FONT;
    return lang == I18N_ZH ? "Noto Sans CJK SC" : "Noto Sans CJK JP";
}

/* A class's window takes no keys: each of gnuplot's builtin hotkeys (g the grid, l a log axis, a autoscale ...) bound
 * to a command that does nothing, so a key meant for attn that lands in the window leaves the projected figure as
 * it is ('q' closes the window only with ctrl, the x11 terminal's ctrlq). */
static void window_keys_off(StrBuf *o) {
    static const char *const keys[] = {"a", "b", "e", "g", "h", "i", "l", "L", "m", "r", "V", "v", "1", "2", "5", "6",
                                       "7", "n", "p", "u", "+", "=", "-", "Right", "Up", "Left", "Down", "<", ">",
                                       "Escape"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) sb_printf(o, "bind '%s' ' '\n", keys[i]);
}

static void terminal_line(const Canvas *cv, const char *gd_font, StrBuf *o) {
    /* pdfcairo's lw 1 is 0.5 pt */
    double font = base_font(cv), lw = pt(cv);
    const char *style = "butt background '#ffffff' noenhanced";
    switch (cv->kind) {
    case CV_SVG:
        /* svg names its fonts itself: CJK families after DejaVu, for labels in Japanese and Chinese */
        sb_printf(o, "set terminal svg size %d,%d font '" FONT ", Noto Sans CJK JP, Noto Sans CJK SC, sans-serif,%.3g' linewidth %.3g %s\n",
                  cv->width, cv->height, font, lw, style);
        break;
    case CV_PNG:
        sb_printf(o, "set terminal pngcairo size %d,%d font '" FONT ",%.3g' linewidth %.3g %s\n", cv->width, cv->height, font, lw, style);
        break;
    case CV_PDF:
        sb_printf(o, "set terminal pdfcairo size %.3fin,%.3fin font '" FONT ",10' linewidth 2 %s\n", cv->width / 72.0, cv->height / 72.0, style);
        break;
    case CV_SIXEL:      /* drawn by cairo first (gd has no dash patterns, no antialiasing), then sent as sixel */
        sb_printf(o, "set terminal pngcairo size %d,%d font '" FONT ",%.3g' linewidth %.3g %s\n", cv->width, cv->height, font, lw, style);
        break;
    case CV_WINDOW:
        if (!strcmp(cv->window, "x11")) sb_printf(o, "set terminal x11 size %d,%d %s noenhanced", cv->width, cv->height,
                                                  cv->teaching ? "nopersist noraise ctrlq" : "persist");
        else sb_printf(o, "set terminal %s size %d,%d font '" FONT ",%.3g' linewidth %.3g %s %s", cv->window, cv->width,
                       cv->height, font, lw, cv->teaching ? "nopersist noraise ctrl" : "persist", style);
        if (cv->x >= 0 && cv->y >= 0) sb_printf(o, " position %d,%d", cv->x, cv->y);
        sb_putc(o, '\n');
        if (cv->teaching) window_keys_off(o);
        break;
    case CV_DUMB:
        sb_printf(o, "set terminal dumb size %d,%d nofeed %s noenhanced\n", cv->width, cv->height,
                  cv->colour == COLOUR_NONE ? "mono" : cv->colour == COLOUR_TRUE ? "ansirgb" : "ansi256");
        break;
    }
}

static void text_cmd(StrBuf *o, const char *what, const char *s) {
    if (!s) { sb_printf(o, "unset %s\n", what); return; }
    sb_printf(o, "set %s ", what);
    plot_quote(o, s);
    sb_puts(o, " noenhanced\n");
}

/* Columns s takes as the reader sees it: a CJK character is as wide as two Latin ones. */
static int text_width(const char *s) { return tw_width(s); }

/* Columns gnuplot's dumb terminal reckons s takes when it sizes a key: its estimate counts a CJK character as two
 * and the zero-width space that tw_cells puts after it as one more, so a wide character counts three (the text
 * itself is drawn in text_width(s) columns). */
static int dumb_estimate(const char *s) {
    int w = 0;
    for (size_t i = 0, n = s ? strlen(s) : 0; i < n;) {
        uint32_t cp;
        i += tw_decode(s + i, n - i, &cp);
        int cw = tw_char_width(cp);
        w += cw == 2 ? 3 : cw;
    }
    return w;
}

/* ---- styles: matplotlib's fmt strings ---- */

static const unsigned tab10[10] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf};

typedef struct Style { unsigned rgb; int dash; char marker; } Style;   /* dash: 0 none, 1 '-', 2 '--', 3 '-.', 4 ':' */

/* A fmt ('-', 'm--', 'g-.', 'r:', 'bo', 'C1s-'): colour, marker and line style in any order. Without a colour
 * the series takes the next colour of matplotlib's default cycle (*cycle counts those), as matplotlib does. */
static Style parse_fmt(const char *fmt, int *cycle) {
    static const char base[] = "bgrcmykw";
    static const unsigned base_rgb[] = {0x0000ff, 0x008000, 0xff0000, 0x00bfbf, 0xbf00bf, 0xbfbf00, 0x000000, 0xffffff};
    Style st = {0, 0, 0};
    bool coloured = false;
    for (const char *p = fmt; *p; p++) {
        if (*p == 'C' && p[1] >= '0' && p[1] <= '9') { st.rgb = tab10[p[1] - '0']; coloured = true; p++; }
        else if (strchr(base, *p)) { st.rgb = base_rgb[strchr(base, *p) - base]; coloured = true; }
        else if (p[0] == '-' && (p[1] == '-' || p[1] == '.')) { st.dash = p[1] == '-' ? 2 : 3; p++; }
        else if (*p == '-') st.dash = 1;
        else if (*p == ':') st.dash = 4;
        else if (strchr(".,ov^<>sDdpHh*+x|_1234", *p)) st.marker = *p;
    }
    if (!st.dash && !st.marker) st.dash = 1;
    if (!coloured) st.rgb = tab10[(*cycle)++ % 10];
    return st;
}

/* gnuplot point type and size for a matplotlib marker: 6 pt across ('.' a third of that). gnuplot's svg draws
 * point size 1 about 8.7 line widths across, cairo about 8.5 pixels whatever the line width. */
static void marker(StrBuf *o, char m, const Canvas *cv) {
    int type = 7;
    double ps = 1;
    switch (m) {
    case 's': type = 5; ps = 0.8; break;
    case '^': case '>': type = 9; break;
    case 'v': case '<': type = 11; break;
    case 'D': case 'd': type = 13; ps = 0.9; break;
    case 'x': case '1': case '2': case '3': case '4': type = 2; ps = 0.8; break;
    case '+': case '|': case '_': type = 1; break;
    case '*': type = 3; break;
    case '.': case ',': ps = 0.4; break;
    default: break;
    }
    double six = cv->kind == CV_SVG ? 6 / 8.7 : cv->kind == CV_PDF ? 0.7 : 6 * pt(cv) / 8.5;
    sb_printf(o, " pt %d ps %.3g", type, ps * six);
}

/* The dumb terminal draws every coloured line with '+': each series also gets a character of its own at its
 * points (the same ones gnuplot uses without colour), so series stay apart without colour too. A series without a
 * finite point is drawn as a line only: gnuplot 5.4 crashes on character points when none is defined. */
static void dumb_style(StrBuf *o, Style st, int index, bool drawable) {
    static const char chars[] = "*#$%@&=~";
    if (!drawable) { sb_printf(o, "with lines lc rgb '#%06x'", st.rgb); return; }
    char c = st.marker ? st.marker : chars[index % 8];
    if (c == '.' || c == ',' || c == '\'' || c == '\\') c = 'o';
    sb_printf(o, "with %s lc rgb '#%06x' pt '%c'", st.dash ? "linespoints" : "points", st.rgb, c);
}

/* matplotlib's dash patterns are in line widths ('--' 3.7 1.6, '-.' 6.4 1.6 1 1.6, ':' 1 1.65); the factor that
 * turns one line width into what the canvas's `dt (...)` takes. Each gnuplot terminal reads dash lengths its own
 * way (gnuplot 5.4's sources, measured on its output): svg in pixels; pngcairo (png, sixel) in 0.25 line widths;
 * wxt and qt in 0.55 line widths; pdfcairo in 0.55 of its line width, which is half of what `lw` says; x11 in whole
 * pixels (it takes no terminal linewidth, so its lines are thinner: their dashes keep matplotlib's lengths). */
static double dash_unit(const Canvas *cv) {
    switch (cv->kind) {
    case CV_SVG: return 1.5 * pt(cv);
    case CV_PDF: return 2;
    case CV_WINDOW: return !strcmp(cv->window, "x11") ? 1.5 * pt(cv) : 1 / 0.55;
    default: return 4;
    }
}

static void style(StrBuf *o, Style st, const Canvas *cv, int index, bool drawable) {
    if (is_dumb(cv)) { dumb_style(o, st, index, drawable); return; }
    sb_printf(o, "with %s lc rgb '#%06x'", st.dash && st.marker ? "linespoints" : st.dash ? "lines" : "points", st.rgb);
    if (st.dash) {
        sb_puts(o, " lw 1.5");
        static const double dt[5][4] = {{0}, {0}, {3.7, 1.6}, {6.4, 1.6, 1, 1.6}, {1, 1.65}};
        double u = dash_unit(cv);
        bool x11 = cv->kind == CV_WINDOW && !strcmp(cv->window, "x11");
        if (st.dash == 1) sb_puts(o, " dt solid");
        else {
            sb_puts(o, " dt (");
            for (int k = 0; k < 4 && dt[st.dash][k] > 0; k++) {
                double v = dt[st.dash][k] * u;
                if (x11) v = fmin(fmax(round(v), 1), 26);      /* x11 takes whole pixels, 1 to 26 */
                sb_printf(o, k ? ",%.3g" : "%.3g", v);
            }
            sb_putc(o, ')');
        }
    }
    if (st.marker) marker(o, st.marker, cv);
}

/* ---- axes ---- */

/* matplotlib's interval around a single value v (log10 of it on a log axis): the decades around it on a log axis,
 * else 5% of |v| each way (0.05 around 0). */
static void widen(double v, bool logs, double *lo, double *hi) {
    if (logs) { *lo = floor(v) == v ? v - 1 : floor(v); *hi = ceil(v) == v ? v + 1 : ceil(v); }
    else if (v == 0) { *lo = -0.05; *hi = 0.05; }
    else { *lo = v - 0.05 * fabs(v); *hi = v + 0.05 * fabs(v); }
}

/* The axis range matplotlib would show: the data with 5% margins, or the limits given. As matplotlib: a point with a
 * NaN or infinite coordinate is left out, a log axis ranges over positive values only (1 to 10 when there is none)
 * and ignores a non-positive limit, a single value is widened (widen), no data at all gives -0.055..0.055. */
/* r within what a double holds (a log axis: above 0): the 5% margins around 1e308 would overflow to inf. */
static void clamp_range(double r[2], bool logs) {
    for (int e = 0; e < 2; e++) r[e] = fmin(fmax(r[e], logs ? DBL_TRUE_MIN : -DBL_MAX), DBL_MAX);
}

static bool axis_range(const Figure *f, int axis, double r[2]) {
    const double *lim = axis ? f->ylim : f->xlim;
    bool logs = axis ? f->logy : f->logx;
    bool given[2] = {!isnan(lim[0]) && (!logs || lim[0] > 0), !isnan(lim[1]) && (!logs || lim[1] > 0)};
    if (given[0] && given[1]) {
        r[0] = lim[0];
        r[1] = lim[1];
        if (r[0] == r[1]) {
            widen(logs ? log10(r[0]) : r[0], logs, &r[0], &r[1]);
            if (logs) { r[0] = pow(10, r[0]); r[1] = pow(10, r[1]); }
            clamp_range(r, logs);
        }
        return true;
    }
    double lo = INFINITY, hi = -INFINITY;
#define TAKE(v) do { double v_ = (v); if (isfinite(v_) && (!logs || v_ > 0)) { if (v_ < lo) lo = v_; if (v_ > hi) hi = v_; } } while (0)
    for (int s = 0; s < f->nseries; s++)
        for (int64_t i = 0; i < f->series[s].n; i++) {
            double x = f->series[s].x ? f->series[s].x[i] : (double)i, y = f->series[s].y[i];
            if (isfinite(x) && isfinite(y)) TAKE(axis ? y : x);
        }
    for (int a = 0; a < f->narrows; a++) { TAKE(axis ? f->arrows[a].y0 : f->arrows[a].x0); TAKE(axis ? f->arrows[a].y1 : f->arrows[a].x1); }
#undef TAKE
    if (!(lo <= hi)) { lo = logs ? 1 : 0; hi = logs ? 10 : 0; }
    if (logs) { lo = log10(lo); hi = log10(hi); }
    if (lo == hi) widen(lo, logs, &lo, &hi);
    double pad = isfinite(hi - lo) ? 0.05 * (hi - lo) : 0.05 * hi - 0.05 * lo;    /* data from -1e308 to 1e308 */
    r[0] = fmax(lo - pad, -DBL_MAX);
    r[1] = fmin(hi + pad, DBL_MAX);
    if (logs) { r[0] = pow(10, r[0]); r[1] = pow(10, r[1]); }
    clamp_range(r, logs);
    if (given[0]) r[0] = lim[0];
    if (given[1]) r[1] = lim[1];
    return true;
}

/* A step of 1, 2 or 5 times a power of ten (2.5 too unless integers) giving at most max_ticks ticks over span. */
double nice_step(double span, int max_ticks, bool integer) {
    if (max_ticks < 1) max_ticks = 1;
    double raw = span / max_ticks, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
    if (!isfinite(raw)) return NAN;                /* a span beyond the doubles: gnuplot chooses its own ticks */
    if (integer && raw <= 1) return 1;             /* never below 1: a step of 0 would never reach the end */
    static const double m[] = {1, 2, 2.5, 5, 10};
    for (int i = 0; i < 5; i++) {
        if (integer && m[i] == 2.5) continue;
        double s = m[i] * p;
        if (integer && s < 1) continue;
        if (s >= raw * (1 - 1e-9)) return s;
    }
    return 10 * p;
}

/* The longest tick label gnuplot will print on an axis over r (about five ticks; powers of ten on a log axis). */
static int tick_chars(const double r[2], bool logs) {
    char b[40];
    int n = 1;
    double lo = fmin(r[0], r[1]), hi = fmax(r[0], r[1]);                  /* limits may be inverted */
    if (!(isfinite(lo) && isfinite(hi) && hi > lo) || (logs && !(lo > 0))) return 4;   /* no range: a guess */
    if (logs) {
        for (double e = floor(log10(lo)); e <= ceil(log10(hi)) && e < 400; e++) {
            int k = snprintf(b, sizeof b, "%g", pow(10, e));
            if (k > n) n = k;
        }
        return n;
    }
    double step = nice_step(hi - lo, 10, false);          /* gnuplot may choose finer ticks than five */
    int count = 0;
    for (double v = ceil(lo / step) * step; v <= hi && step > 0 && count < 100; v += step, count++) {
        int k = snprintf(b, sizeof b, "%g", fabs(v) < step * 1e-9 ? 0.0 : v);
        if (k > n) n = k;
    }
    return n;
}

/* A text label at screen position (x, y) in canvas units, centred on it vertically: gnuplot centres labels the same
 * way on every terminal, unlike its tick labels and axis labels, so the layout below is the same in every output.
 * how: "center", "right", "center rotate by 90"; font_scale 1 for 10 pt. */
void label_at(StrBuf *o, const Canvas *cv, const char *text, const char *xcoord, double x, double y,
                     const char *how, double font_scale) {
    sb_puts(o, "set label ");
    plot_quote(o, text);
    if (xcoord) sb_printf(o, " at first %.6g, screen %.5f %s", x, y / cv->height, how);
    else sb_printf(o, " at screen %.5f, screen %.5f %s", x / cv->width, y / cv->height, how);
    if (font_scale != 1) sb_printf(o, " font '," "%.3g'", font_scale * base_font(cv));
    sb_puts(o, " noenhanced\n");
}

/* ---- where the legend goes ---- */

typedef struct Box { double x0, y0, x1, y1; } Box;    /* in graph fractions, 0..1 inside the axes */

/* Does the segment (x0,y0)-(x1,y1) cross box b? (Liang-Barsky clipping) */
static bool crosses(Box b, double x0, double y0, double x1, double y1) {
    double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
    double p[4] = {-dx, dx, -dy, dy}, q[4] = {x0 - b.x0, b.x1 - x0, y0 - b.y0, b.y1 - y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) { if (q[i] < 0) return false; continue; }
        double t = q[i] / p[i];
        if (p[i] < 0) { if (t > t1) return false; if (t > t0) t0 = t; }
        else { if (t < t0) return false; if (t < t1) t1 = t; }
    }
    return true;
}

static double to_graph(double v, const double r[2], bool logs) {
    if (logs) return v > 0 ? (log10(v) - log10(r[0])) / (log10(r[1]) - log10(r[0])) : NAN;
    return (v - r[0]) / (r[1] - r[0]);
}

/* Everything drawn in box b: line segments, markers, arrows and marks (widened by a line's half width). */
static bool box_hits_data(const Figure *f, Box b, const double xr[2], const double yr[2], double mx, double my) {
    Box w = {b.x0 - mx, b.y0 - my, b.x1 + mx, b.y1 + my};
    for (int s = 0; s < f->nseries; s++) {
        const PlotSeries *S = &f->series[s];
        double px = NAN, py = NAN;
        for (int64_t i = 0; i < S->n; i++) {
            double gx = to_graph(S->x ? S->x[i] : (double)i, xr, f->logx), gy = to_graph(S->y[i], yr, f->logy);
            if (isfinite(gx) && isfinite(gy)) {
                if (crosses(w, gx, gy, gx, gy)) return true;
                if (isfinite(px) && crosses(w, px, py, gx, gy)) return true;
            }
            px = gx;
            py = gy;
        }
    }
    for (int a = 0; a < f->narrows; a++) {
        const PlotArrow *A = &f->arrows[a];
        if (crosses(w, to_graph(A->x0, xr, f->logx), to_graph(A->y0, yr, f->logy), to_graph(A->x1, xr, f->logx), to_graph(A->y1, yr, f->logy)))
            return true;
    }
    for (int k = 0; k < f->nmarks; k++) {
        double gx = to_graph(f->marks[k].x, xr, f->logx), gy = to_graph(f->marks[k].y, yr, f->logy);
        if (isfinite(gx) && isfinite(gy) && crosses((Box){w.x0 - 3 * mx, w.y0 - 2 * my, w.x1 + mx, w.y1 + 2 * my}, gx, gy, gx, gy)) return true;
    }
    return false;
}

/* The key command: inside, in the first empty corner of upper right, upper left, lower left, lower right, upper
 * centre, lower centre (plot area and key size estimated from the font); else outside, right of wide axes and
 * below tall ones. */
/* How many legend entries, and the longest one's width in characters (width: text_width, or dumb_estimate for
 * what gnuplot's dumb terminal sizes its key by). */
static int key_entries_by(const Figure *f, int *len, int (*width)(const char *)) {
    int n = 0;
    *len = 0;
    for (int s = 0; s < f->nseries; s++)
        if (f->series[s].label) { n++; if (width(f->series[s].label) > *len) *len = width(f->series[s].label); }
    if (f->narrows && f->arrow_label) { n++; if (width(f->arrow_label) > *len) *len = width(f->arrow_label); }
    return n;
}

static int key_entries(const Figure *f, int *len) { return key_entries_by(f, len, text_width); }

/* Does the dumb terminal's key put its samples left of left-aligned text? When an entry holds a CJK character:
 * gnuplot right-aligns an entry by its estimate (dumb_estimate), not by the columns the text takes, so CJK entries
 * of different lengths ended at different columns, each a different distance from its sample. */
static bool dumb_left_key(const Figure *f) {
    for (int s = 0; s < f->nseries; s++) if (wide(f->series[s].label)) return true;
    return f->narrows && wide(f->arrow_label);
}

/* matplotlib's legend: sample left of the text, a light frame over a white background */
static const char *key_look(const Figure *f, const Canvas *cv) {
    if (is_dumb(cv)) return dumb_left_key(f) ? "reverse Left samplen 3 nobox" : "noreverse Right samplen 3 nobox";
    return "reverse Left samplen 2 spacing 1.15 opaque box lc rgb '#cccccc' lw 0.8 width 0.5";
}

/* The axes' size in canvas units, estimated from the font: the figure less tick labels, axis labels and title. */
static void axes_size(const Figure *f, const Canvas *cv, const double xr[2], const double yr[2], bool ranged, double *pw, double *ph) {
    bool dumb = is_dumb(cv);
    double cw = dumb ? 1 : 0.6 * 10 * pt(cv), lh = dumb ? 1 : 1.25 * 10 * pt(cv);
    double left = (tick_chars(yr, f->logy) + 2) * cw + (f->ylabel && !dumb ? 1.6 * lh : 0), right = 2 * cw;
    double bottom = (dumb ? 2 : 1.6) * lh + (f->xlabel ? 1.2 * lh : 0), top = (f->title ? 2 : 1) * lh + (dumb && f->ylabel ? 1 : 0);
    *pw = cv->width - left - right;
    *ph = cv->height - top - bottom;
    if (f->equal_axes && ranged) {
        /* a character is about half as wide as its row is tall: the dumb terminal's rows count twice */
        double aspect = (yr[1] - yr[0]) / (xr[1] - xr[0]), rows = dumb ? 2 : 1;
        if (*ph * rows > *pw * aspect) *ph = *pw * aspect / rows; else *pw = *ph * rows / aspect;
    }
}

/* The longest "%g" label of the multiples of step within lo..hi. */
static int step_label_chars(double lo, double hi, double step) {
    char b[40];
    int n = 1, count = 0;
    for (double v = ceil(lo / step) * step; v <= hi * (1 + 1e-12) + step * 1e-9 && count < 100; v += step, count++) {
        int k = snprintf(b, sizeof b, "%g", fabs(v) < step * 1e-9 ? 0.0 : v);
        if (k > n) n = k;
    }
    return n;
}

/* The dumb terminal's x tick step on a linear axis of pw columns over r: the smallest nice step (at most 9 ticks)
 * whose labels stand at least two columns apart. (One label per 8 columns labelled only 0 on the rotation's narrow
 * axes from -1.1 to 1.1, where -1, 0 and 1 fit.) */
static double dumb_x_step(const double r[2], double pw) {
    double lo = fmin(r[0], r[1]), hi = fmax(r[0], r[1]), span = hi - lo;
    for (int n = 9; n >= 2; n--) {
        double s = nice_step(span, n, false);
        if (!isfinite(s) || s <= 0) return s;
        if (pw * s / span >= step_label_chars(lo, hi, s) + 2) return s;
    }
    return nice_step(span, 1, false);
}

/* Does a tick label at each of the n values v fit on the dumb terminal's log axis of len characters over r: columns
 * (x: each label's "%g" width plus 2 between neighbours) or rows (y: a row between labels)? How many lie in r. */
static int log_ticks_fit(const double *v, int n, const double r[2], double len, bool x, bool *fits) {
    double lo = log10(fmin(r[0], r[1])), hi = log10(fmax(r[0], r[1]));
    double prev = NAN;
    int prev_w = 0, in = 0;
    char b[40];
    *fits = true;
    for (int i = 0; i < n; i++) {
        if (!(v[i] > 0) || log10(v[i]) < lo - 1e-12 || log10(v[i]) > hi + 1e-12) continue;
        double pos = (log10(v[i]) - lo) / (hi - lo) * len;
        int w = snprintf(b, sizeof b, "%g", v[i]);
        if (isfinite(prev) && pos - prev < (x ? (prev_w + w) / 2.0 + 2 : 2)) *fits = false;
        prev = pos;
        prev_w = w;
        in++;
    }
    return in;
}

/* Ticks on a log axis of the dumb terminal. gnuplot labels only powers of ten, so an axis over a decade or less
 * shows one label or none (lesson 2's n = 256, 512, 1024: only 1000). The first that labels at least 3 values
 * without running together, else the one that labels the most: on x the values the series are drawn at (when they
 * share at most 12), then powers of ten, 1-2-5 times them, 1 to 9 times them; on y the last three. Set only when it
 * is not gnuplot's own powers of ten. */
static void dumb_log_ticks(const Figure *f, int axis, const double r[2], double len, StrBuf *o) {
    enum { MAXV = 64 };
    double sets[4][MAXV];
    int nset[4] = {0, 0, 0, 0};
    if (axis == 0)            /* the x values drawn, when few */
        for (int s = 0; s < f->nseries && nset[0] <= 12; s++)
            for (int64_t i = 0; i < f->series[s].n && nset[0] <= 12; i++) {
                double x = f->series[s].x ? f->series[s].x[i] : (double)i;
                bool seen = !(x > 0) || !isfinite(f->series[s].y[i]);
                for (int k = 0; k < nset[0] && !seen; k++) seen = sets[0][k] == x;
                if (!seen) sets[0][nset[0]++] = x;
            }
    if (nset[0] > 12) nset[0] = 0;
    for (int k = 0; k < nset[0]; k++)          /* in order, for the fit */
        for (int j = k + 1; j < nset[0]; j++)
            if (sets[0][j] < sets[0][k]) { double t = sets[0][k]; sets[0][k] = sets[0][j]; sets[0][j] = t; }
    static const double mult[3][10] = {{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
    static const int nmult[3] = {1, 3, 9};
    double e0 = floor(log10(fmin(r[0], r[1]))), e1 = ceil(log10(fmax(r[0], r[1])));
    for (int m = 0; m < 3; m++)
        for (double e = e0; e <= e1 && nset[m + 1] + nmult[m] <= MAXV; e++)
            for (int k = 0; k < nmult[m]; k++) sets[m + 1][nset[m + 1]++] = mult[m][k] * pow(10, e);
    int best = -1, best_in = 0;
    for (int c = axis == 0 ? 0 : 1; c < 4; c++) {
        bool fits;
        int in = log_ticks_fit(sets[c], nset[c], r, len, axis == 0, &fits);
        if (!fits) continue;
        if (in >= 3) { best = c; break; }
        if (in > best_in) { best = c; best_in = in; }
    }
    if (best < 0 || best == 1) return;         /* none fits, or gnuplot's own */
    sb_printf(o, "set %ctics (", axis ? 'y' : 'x');
    int first = 1;
    for (int k = 0; k < nset[best]; k++) {
        double v = sets[best][k];
        if (!(v >= fmin(r[0], r[1]) * (1 - 1e-12) && v <= fmax(r[0], r[1]) * (1 + 1e-12))) continue;
        sb_puts(o, first ? "" : ", ");
        gp_num(o, v);
        first = 0;
    }
    sb_puts(o, ")\n");
}

/* Tick steps on linear axes as matplotlib's MaxNLocator chooses them: at most one tick per 3 font sizes across
 * (2 up), at most 9, steps of 1, 2, 2.5 or 5 times a power of ten. gnuplot puts ticks at the step's multiples. */
static void ticks(const Figure *f, const Canvas *cv, const double xr[2], const double yr[2], bool ranged, StrBuf *o) {
    double pw, ph;
    axes_size(f, cv, xr, yr, ranged, &pw, &ph);
    double em = is_dumb(cv) ? 1 : 10 * pt(cv);
    int nx = (int)(pw / (is_dumb(cv) ? 8 : 3 * em)), ny = (int)(ph / (is_dumb(cv) ? 2 : 2 * em));
    if (nx > 9) nx = 9;
    if (ny > 9) ny = 9;
    double xs = nice_step(fabs(xr[1] - xr[0]), nx < 2 ? 2 : nx, false), ys = nice_step(fabs(yr[1] - yr[0]), ny < 2 ? 2 : ny, false);
    if (is_dumb(cv) && ranged) xs = dumb_x_step(xr, pw);
    if (!f->logx && ranged && isfinite(xs)) sb_printf(o, "set xtics %.6g\n", xs);     /* limits may be inverted */
    if (!f->logy && ranged && isfinite(ys)) sb_printf(o, "set ytics %.6g\n", ys);
    if (is_dumb(cv) && ranged && f->logx) dumb_log_ticks(f, 0, xr, pw, o);
    if (is_dumb(cv) && ranged && f->logy) dumb_log_ticks(f, 1, yr, ph, o);
}

/* Places the key; returns how many text rows it takes above the axes on the dumb terminal (0: none there). */
static int place_key(const Figure *f, const Canvas *cv, const double xr[2], const double yr[2], bool ranged, StrBuf *o) {
    bool dumb = is_dumb(cv);
    /* on the dumb terminal gnuplot lays the key out by its estimate: a CJK legend of 24 columns took two rows
     * where one was kept, and the second entry was lost under the border */
    int len, n = key_entries_by(f, &len, dumb ? dumb_estimate : text_width);
    if (!n) { sb_puts(o, "unset key\n"); return 0; }
    const char *look = key_look(f, cv);
    double cw = dumb ? 1 : 0.6 * 10 * pt(cv), lh = dumb ? 1 : 1.25 * 10 * pt(cv), pw, ph;
    axes_size(f, cv, xr, yr, ranged, &pw, &ph);
    /* gnuplot's key: (len + 5.8) characters of 0.68 em across and 1.725 em per entry (measured on its svg) */
    double kw = dumb ? (len + 11) * cw : (len + 6) * 0.68 * 10 * pt(cv), kh = dumb ? (n + 1) * lh : (n * 1.75 + 0.2) * 10 * pt(cv);
    if (ranged && pw > 0 && ph > 0 && kw < 0.6 * pw && kh < 0.8 * ph) {
        double fw = kw / pw, fh = kh / ph, px = (dumb ? 1.5 : 0.6) * cw / pw, py = (dumb ? 0.5 : 0.6) * cw / ph;
        static const char *where[] = {"top right", "top left", "bottom left", "bottom right", "top center", "bottom center"};
        Box boxes[6] = {{1 - px - fw, 1 - py - fh, 1 - px, 1 - py}, {px, 1 - py - fh, px + fw, 1 - py}, {px, py, px + fw, py + fh},
                        {1 - px - fw, py, 1 - px, py + fh}, {0.5 - fw / 2, 1 - py - fh, 0.5 + fw / 2, 1 - py}, {0.5 - fw / 2, py, 0.5 + fw / 2, py + fh}};
        /* a line is 1.5 pt wide; a character cell is half a cell each way */
        double mx = dumb ? 0.5 / pw : 2 * pt(cv) / pw, my = dumb ? 0.5 / ph : 2 * pt(cv) / ph;
        for (int c = 0; c < 6; c++)
            if (!box_hits_data(f, boxes[c], xr, yr, mx, my)) { sb_printf(o, "set key inside %s %s\n", where[c], look); return 0; }
    }
    /* right of wide axes when the key takes at most a third of the width; else above them (gnuplot would put a key
     * below over the x label), in as many columns as fit */
    bool right_ok = kw <= cv->width / 3.0 && (dumb || f->width_in >= 1.3 * f->height_in);
    if (right_ok) {
        sb_printf(o, "set key outside right top vertical %s\n", look);
        return 0;
    }
    sb_printf(o, "set key outside top center horizontal %s\n", look);
    if (!dumb) return 0;
    int per_row = (int)(cv->width / ((len + 9) * cw));      /* entries of about len + 9 characters side by side */
    if (per_row < 1) per_row = 1;
    return (n + per_row - 1) / per_row;
}

/* ---- line plots (d2l.plot) ---- */

/* Equal axes on a pixel canvas (circles stay round): the axes placed by hand with equal units, at the top; the axis
 * labels as labels (gnuplot's own placement differs between terminals) and the legend under them: nothing overlaps
 * and nothing is cut. */
static void equal_layout(const Figure *f, const Canvas *cv, const double xr[2], const double yr[2], StrBuf *o) {
    double em = 10 * pt(cv), cw = 0.62 * em, W = cv->width, H = cv->height;
    int len, n = key_entries(f, &len);
    int ych = tick_chars(yr, f->logy);
    double left = 0.7 * em + ych * cw + (f->ylabel ? 1.7 * em : 0) + 0.3 * em, right = 1.2 * em;
    double top = (f->title ? 2.4 : 0.8) * em, below = 2.3 * em + (f->xlabel ? 1.4 * em : 0);
    double keyh = n ? (n * 1.45 + 1.0) * em : 0;
    double aw = W - left - right, ah = H - top - below - keyh - 0.3 * em;
    double xs = xr[1] - xr[0], ys = yr[1] - yr[0];
    double pw = aw, ph = pw * ys / xs;
    if (ph > ah) { ph = ah; pw = ph * xs / ys; }
    double x0 = left + (aw - pw) / 2, y1 = H - top, y0 = y1 - ph;
    sb_printf(o, "set lmargin at screen %.5f\nset rmargin at screen %.5f\nset bmargin at screen %.5f\nset tmargin at screen %.5f\n",
              x0 / W, (x0 + pw) / W, y0 / H, y1 / H);
    sb_puts(o, "unset xlabel\nunset ylabel\n");
    /* the title as a label too: gnuplot's svg left out a title above axes placed by screen margins (the rotation's
     * svg had none, in any language) */
    if (f->title) {
        sb_puts(o, "unset title\n");
        label_at(o, cv, f->title, NULL, x0 + pw / 2, y1 + 1.2 * em, "center", 1.2);
    }
    if (f->xlabel) label_at(o, cv, f->xlabel, NULL, x0 + pw / 2, y0 - 2.9 * em, "center", 1);
    if (f->ylabel) label_at(o, cv, f->ylabel, NULL, x0 - 0.7 * em - ych * cw - 1.0 * em, y0 + ph / 2, "center rotate by 90", 1);
    if (n) sb_printf(o, "set key at screen %.5f, screen %.5f center top vertical %s\n", (x0 + pw / 2) / W, (y0 - below - 0.2 * em) / H, key_look(f, cv));
    else sb_puts(o, "unset key\n");
}

/* Equal axes on the dumb terminal (the rotation's unit circle): the axes take every row but the tick labels', at
 * the left, two columns per row so that a circle stays round; the title, the axis labels (as "x: ...", "y: ...") and
 * the legend go in a column to their right. A key above and the labels' rows left the circle 23×11 characters at
 * 80×24, its position labels running together. false (and nothing written) when that column does not fit beside
 * axes at least 10 rows high: the caller's layout then stands. */
static bool dumb_equal_layout(const Figure *f, const Canvas *cv, const double xr[2], const double yr[2], StrBuf *o) {
    int len, n = key_entries(f, &len);
    int textw = n ? len + 7 : 0;                  /* an entry: its sample (6 columns), a space and its text */
    const char *texts[3] = {f->title, f->xlabel, f->ylabel};
    for (int k = 0; k < 3; k++)
        if (texts[k] && text_width(texts[k]) + (k ? 3 : 0) > textw) textw = text_width(texts[k]) + (k ? 3 : 0);
    int left = tick_chars(yr, f->logy) + 4, rows = cv->height - 3;   /* borders and the x tick labels' row */
    double per_row = 2 * fabs(xr[1] - xr[0]) / fabs(yr[1] - yr[0]);  /* columns per row of y span: round circles */
    int boxw = (int)lround(rows * per_row);
    /* the column starts at left + boxw + 3 and takes textw: text beyond the last column gnuplot moves left, out of
     * line with the rest (the rotation's widest legend entry stood a column left of the others) */
    if (left + boxw + 3 + textw > cv->width) {    /* narrower axes, fewer rows */
        boxw = cv->width - left - 3 - textw;
        rows = (int)floor(boxw / per_row);
        boxw = (int)lround(rows * per_row);
    }
    if (rows < 10) return false;
    int col = left + boxw + 3, top = rows + 2;    /* the text column; the axes' top border, counted from the bottom */
    /* y ticks outside the border: inside, "-+" beside a position label at the left read as a minus ("-16") */
    sb_printf(o, "unset xlabel\nunset title\nunset label 1\nunset label 2\nunset grid\nset ytics out\n");
    sb_printf(o, "set lmargin %d\nset rmargin %d\nset tmargin %d\nset bmargin 1\n", left, cv->width - left - boxw - 2,
              cv->height - rows - 3);
    int row = top;
    for (int k = 0; k < 3; k++) {
        if (!texts[k]) continue;
        sb_printf(o, "set label %d ", 3 + k);
        if (k) {
            StrBuf t;
            sb_init(&t);
            sb_printf(&t, "%s: %s", k == 1 ? "x" : "y", texts[k]);
            plot_quote(o, sb_str(&t));
            sb_free(&t);
        } else plot_quote(o, texts[k]);
        sb_printf(o, " at character %d, character %d left noenhanced\n", col, row);
        row -= k ? 1 : 2;
    }
    /* the key's samples start one column right of where it is put: at col - 1 they start under the labels */
    if (n) sb_printf(o, "set key at character %d, character %d left top vertical reverse Left samplen 3 nobox\n", col - 1, row);
    else sb_puts(o, "unset key\n");
    return true;
}

/* The dumb terminal's rows above the axes (its tmargin) for a key of key_rows rows there (0: none). gnuplot leaves
 * the top row empty (a y label's figure puts its title there) and draws an outside key from the row below it; then
 * come the y label's row just above the axes, and `set title`'s row (figures without a y label) under the key. With
 * no key, a y label keeps a row for its offset. Fewer rows put the key over the label or the border (only "to" of
 * the stacking figure's two entries showed at 80 columns). */
static int dumb_top_rows(const Figure *f, int key_rows) {
    if (!key_rows) return (f->title ? 1 : 0) + (f->ylabel ? 2 : 0);
    return 1 + key_rows + (f->ylabel || f->title ? 1 : 0);
}

/* A legend entry's title, quoted; after a space when gnuplot draws it right after its sample (the dumb terminal's
 * reversed key leaves no gap: "******unit circle"). */
static void key_title(StrBuf *o, const char *label, bool spaced) {
    if (!spaced) { plot_quote(o, label); return; }
    StrBuf t;
    sb_init(&t);
    sb_printf(&t, " %s", label);
    plot_quote(o, sb_str(&t));
    sb_free(&t);
}

static void lines_script(const Figure *f, const Canvas *cv, StrBuf *o) {
    bool dumb = is_dumb(cv);
    if (dumb) sb_puts(o, "set tics nomirror\nset grid back\n");
    else
        sb_puts(o, "set border 15 lw 0.8 lc rgb '#000000'\nset tics out nomirror scale 0.6 textcolor rgb '#000000'\n"
                   "set grid back lt 1 lw 0.8 lc rgb '#b0b0b0'\n");
    sb_puts(o, "set format x '%g'\nset format y '%g'\n");
    text_cmd(o, "xlabel", f->xlabel);
    if (dumb && f->ylabel) {
        /* the dumb terminal cannot turn text: the y label goes above the axes at the left, the title (if any) on
         * the top line, as labels so that gnuplot does not put them on one line */
        sb_puts(o, "set label 1 ");
        plot_quote(o, f->ylabel);
        sb_puts(o, " at graph 0, graph 1 left offset -4,1 noenhanced\n");
        if (f->title) {
            sb_puts(o, "set label 2 ");
            plot_quote(o, f->title);
            sb_puts(o, " at screen 0.5, screen 1 center offset 0,-0.4 noenhanced\n");
        }
    } else text_cmd(o, "ylabel", f->ylabel);
    if (f->title && dumb && f->ylabel) sb_puts(o, "unset title\n");
    else if (f->title && !dumb) {
        sb_puts(o, "set title ");
        plot_quote(o, f->title);
        sb_printf(o, " font ',%.3g' noenhanced\n", 1.2 * base_font(cv));     /* matplotlib's titles are 12 pt */
    } else text_cmd(o, "title", f->title);
    double xr[2] = {NAN, NAN}, yr[2] = {NAN, NAN};
    bool hx = axis_range(f, 0, xr), hy = axis_range(f, 1, yr);
    if (hx) { sb_puts(o, "set xrange ["); gp_num(o, xr[0]); sb_putc(o, ':'); gp_num(o, xr[1]); sb_puts(o, "]\n"); }
    if (hy) { sb_puts(o, "set yrange ["); gp_num(o, yr[0]); sb_putc(o, ':'); gp_num(o, yr[1]); sb_puts(o, "]\n"); }
    if (f->logx) sb_puts(o, "set logscale x 10\n");
    if (f->logy) sb_puts(o, "set logscale y 10\n");
    ticks(f, cv, xr, yr, hx && hy, o);
    /* a space after each sample where the dumb terminal's key puts it left of the text: the equal axes' legend
     * beside them, a legend in Japanese or Chinese */
    bool key_column = dumb && dumb_left_key(f);
    if (f->equal_axes && !dumb && hx && hy) equal_layout(f, cv, xr, yr, o);
    else if (f->equal_axes && dumb && hx && hy && dumb_equal_layout(f, cv, xr, yr, o)) key_column = true;
    else {
        if (f->equal_axes) sb_puts(o, "set size ratio -1\n");
        int key_rows = place_key(f, cv, xr, yr, hx && hy, o);
        if (dumb && (f->ylabel || key_rows)) sb_printf(o, "set tmargin %d\n", dumb_top_rows(f, key_rows));
    }
    for (int s = 0; s < f->nseries; s++) {
        const PlotSeries *S = &f->series[s];
        sb_printf(o, "$S%d << " EOD "\n", s + 1);
        if (S->n == 0) sb_puts(o, "NaN NaN\n");     /* an empty series draws nothing, without gnuplot's warning */
        for (int64_t p = 0; p < S->n; p++) {
            gp_num(o, S->x ? S->x[p] : (double)p);
            sb_putc(o, ' ');
            gp_num(o, S->y[p]);
            sb_putc(o, '\n');
        }
        sb_puts(o, EOD "\n");
    }
    if (f->narrows) {
        sb_puts(o, "$A << " EOD "\n");
        for (int a = 0; a < f->narrows; a++) {
            const PlotArrow *A = &f->arrows[a];
            gp_num(o, A->x0); sb_putc(o, ' '); gp_num(o, A->y0); sb_putc(o, ' ');
            gp_num(o, A->x1 - A->x0); sb_putc(o, ' '); gp_num(o, A->y1 - A->y0); sb_putc(o, '\n');
        }
        sb_puts(o, EOD "\n");
    }
    if (f->nmarks) {
        sb_puts(o, "$M << " EOD "\n");
        for (int k = 0; k < f->nmarks; k++) {
            gp_num(o, f->marks[k].x); sb_putc(o, ' '); gp_num(o, f->marks[k].y);
            sb_printf(o, " \"%s\"\n", f->marks[k].text);
        }
        sb_puts(o, EOD "\n");
    }
    sb_puts(o, "plot ");
    int cycle = 0;
    for (int s = 0; s < f->nseries; s++) {
        if (s) sb_puts(o, ", \\\n     ");
        const PlotSeries *S = &f->series[s];
        bool drawable = false;
        for (int64_t p = 0; p < S->n && !drawable; p++) drawable = isfinite(S->y[p]) && (!S->x || isfinite(S->x[p]));
        sb_printf(o, "$S%d using 1:2 ", s + 1);
        style(o, parse_fmt(S->fmt, &cycle), cv, s, drawable);
        if (f->series[s].label) { sb_puts(o, " title "); key_title(o, f->series[s].label, key_column); }
        else sb_puts(o, " notitle");
    }
    if (f->narrows) {
        Style st = parse_fmt(f->arrow_fmt[0] ? f->arrow_fmt : "r", &cycle);
        sb_printf(o, ", \\\n     $A using 1:2:3:4 with vectors head filled size char 0.9,22 lw 1.5 lc rgb '#%06x'", st.rgb);
        if (f->arrow_label) { sb_puts(o, " title "); key_title(o, f->arrow_label, key_column); }
        else sb_puts(o, " notitle");
    }
    if (f->nmarks) sb_puts(o, ", \\\n     $M using 1:2:3 with labels center tc rgb '#000000' notitle");
    sb_putc(o, '\n');
}


/* Whether the target shows U+2212, the minus sign of the book's (matplotlib's) tick labels: cairo's and svg's fonts
 * (DejaVu Sans) and the qt and wxt windows do; the x11 window's core fonts may not; the dumb terminal's characters
 * only where the terminal reads UTF-8. Elsewhere the ticks keep ASCII '-'. */
static bool shows_minus_sign(const Canvas *cv) {
    switch (cv->kind) {
    case CV_WINDOW: return strcmp(cv->window, "x11") != 0;
    case CV_DUMB: return plot_utf8_output();
    default: return true;
    }
}

void plot_script(const Figure *fig, const Canvas *cv, const char *output, StrBuf *out) {
    terminal_line(cv, gd_family(fig, cv->lang), out);
    /* through /dev/null: should the file fail to open, gnuplot draws nowhere rather than where its output went */
    if (output && *output) { sb_puts(out, "set output '/dev/null'\nset output "); plot_quote(out, output); sb_putc(out, '\n'); }
    else if (output) sb_puts(out, "set output\n");
    sb_puts(out, "reset\nundefine $*\nset encoding utf8\n");
    if (shows_minus_sign(cv)) sb_puts(out, "set minussign\n");     /* tick labels: "−1" (gprintf's %g only) */
    if (fig->kind == FIG_HEATMAPS) heatmaps_script(fig, cv, out);
    else lines_script(fig, cv, out);
    if (cv->kind == CV_SIXEL && output && *output) {
        /* the picture cairo drew, pixel for pixel, to the terminal as sixel */
        sb_printf(out, "unset output\nset terminal sixelgd truecolor size %d,%d background '#ffffff' noenhanced\nset output\nreset\n"
                       "unset border\nunset tics\nunset key\nset lmargin at screen 0\nset rmargin at screen 1\n"
                       "set bmargin at screen 0\nset tmargin at screen 1\nset xrange [-0.5:%d.5]\nset yrange [-0.5:%d.5]\nplot ",
                  cv->width, cv->height, cv->width - 1, cv->height - 1);
        plot_quote(out, output);
        sb_puts(out, " binary filetype=png with rgbimage notitle\n");
    }
}

bool plot_axis_range(const Figure *f, int axis, double r[2]) { return axis_range(f, axis, r); }

unsigned plot_series_rgb(const Figure *f, int s) {
    int cycle = 0;
    Style st = {0, 0, 0};
    for (int k = 0; k <= s && k < f->nseries; k++) st = parse_fmt(f->series[k].fmt, &cycle);
    return st.rgb;
}

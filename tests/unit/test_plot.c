/* test_plot.c - the figure renderers on hostile figures: attn's terminal heatmaps (textplot.c) on every terminal size
 * from 21 to 1000 columns and 6 to 300 rows, and gnuplot scripts (script.c) for every canvas, of random figures (one
 * value, 64 panels, 250000-value rows and columns, NaN, ±inf, ±1e308, constant data, empty series, log axes with
 * nothing positive, inverted and equal limits, CJK and damaged UTF-8 labels). Under `make test SANITIZE=1` any
 * out-of-bounds access is a failure; here: every script ends (no tick loop without end), every text heatmap line fits
 * the terminal, and labels lose what is not plain text. Cases worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/plot/plot_internal.h"
#include "textwidth.h"

static uint64_t seed = 88172645463325252ULL;
static unsigned rnd(void) { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; return (unsigned)seed; }

static const char *const labels[] = {"x", "Keys", "日本語のラベル", "中文标题很长很长很长很长很长很长很长很长很长很长很长很长很长很长很长很长很长",
                                     "a\xe6\x97", "\xe6", "", "Column (encoding dimension)", "éèà", "x'y\"z`w\\"};
static char *label(void) { unsigned k = rnd() % 12; return k < 10 ? strdup(labels[k]) : NULL; }

static Figure *random_heatmaps(void) {
    Figure *f = plot_figure_new(FIG_HEATMAPS, 0.5 + rnd() % 4950 / 100.0, 0.5 + rnd() % 4950 / 100.0);
    int64_t R = 1 + rnd() % 8, C = 1 + rnd() % 8, h, w;
    switch (rnd() % 4) {
    case 0: h = 1 + rnd() % 3; w = 1 + rnd() % 3; break;
    case 1: h = 1 + rnd() % 100; w = 1 + rnd() % 100; break;
    case 2: h = 1; w = 1 + rnd() % 250000; break;
    default: h = 1 + rnd() % 250000; w = 1;
    }
    if (R * C * h * w > 1000000) R = C = 1;
    double *v = malloc(sizeof(double) * (size_t)(R * C * h * w));
    int mode = rnd() % 5;
    for (int64_t i = 0; i < R * C * h * w; i++)
        v[i] = mode == 0 ? 0 : mode == 1 ? (rnd() % 7 == 0 ? NAN : rnd() % 7 == 0 ? -INFINITY : (double)(rnd() % 100))
             : mode == 2 ? (i % 2 ? 1e308 : -1e308) : mode == 3 ? NAN : sin((double)i);
    plot_set_matrices(f, R, C, h, w, v);
    static const char *const maps[] = {"Reds", "Blues_r", "viridis", "gray", "RdBu_r"};
    f->cmap = strdup(maps[rnd() % 5]);
    f->ntitles = (int)(rnd() % 10);
    f->titles = calloc((size_t)f->ntitles + 1, sizeof(char *));
    for (int i = 0; i < f->ntitles; i++) if (!(f->titles[i] = label())) f->titles[i] = strdup("t");
    return f;
}

static Figure *random_lines(void) {
    Figure *f = plot_figure_new(FIG_LINES, 0.5 + rnd() % 4950 / 100.0, 0.5 + rnd() % 4950 / 100.0);
    int ns = 1 + (int)(rnd() % 6);
    for (int s = 0; s < ns; s++) {
        int64_t n = rnd() % 4 == 0 ? 0 : rnd() % 4 == 0 ? 1 : (int64_t)(rnd() % 300);
        double *x = rnd() % 2 ? malloc(sizeof(double) * (size_t)(n + 1)) : NULL, *y = malloc(sizeof(double) * (size_t)(n + 1));
        int mode = rnd() % 6;
        for (int64_t i = 0; i < n; i++) {
            if (x) x[i] = mode == 0 ? 5 : mode == 1 ? (double)i * 1e300 : mode == 2 ? -(double)i : (double)i;
            y[i] = mode == 0 ? 5 : mode == 3 ? NAN : mode == 4 ? (i % 2 ? 1e308 : -1e308) : mode == 5 ? -1.0 : sin((double)i);
        }
        static const char *const fmts[] = {"-", "m--", "g-.", "r:", "bo", "C9s-", "x", "", "C", "--C"};
        char *l = label();
        plot_add_series(f, x, y, n, fmts[rnd() % 10], l);
        free(l);
    }
    f->logx = rnd() % 4 == 0;
    f->logy = rnd() % 4 == 0;
    if (rnd() % 4 == 0) { f->xlim[0] = (double)(rnd() % 10) - 5; f->xlim[1] = (double)(rnd() % 10) - 5; }
    if (rnd() % 4 == 0) { f->ylim[0] = -1e308; f->ylim[1] = 1e308; }
    f->equal_axes = rnd() % 5 == 0;
    for (int a = 0, na = (int)(rnd() % 3); a < na; a++) plot_add_arrow(f, sin(a), cos(a), sin(a + 1), cos(a + 1));
    if (rnd() % 2) plot_add_mark(f, 0.5, 0.5, "12=ab+-.;'\"x");
    f->arrow_label = label();
    return f;
}

/* The widest line of text drawn for the terminal, in display columns (colour escapes left out). */
static int widest_line(const char *s, int *lines) {
    int widest = 0;
    *lines = 0;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        StrBuf l;
        sb_init(&l);
        for (size_t i = 0; i < n; i++) {
            if (s[i] == 0x1b) { while (i < n && s[i] != 'm') i++; continue; }
            sb_putc(&l, s[i]);
        }
        int w = tw_width(sb_str(&l));
        if (w > widest) widest = w;
        sb_free(&l);
        (*lines)++;
        s += n + (e ? 1 : 0);
    }
    return widest;
}

static void test_random_figures(void **state) {
    (void)state;
    static const char *const exts[] = {".svg", ".png", ".pdf"};
    for (int it = 0; it < 400; it++) {
        bool heat = rnd() % 2;
        Figure *f = heat ? random_heatmaps() : random_lines();
        f->xlabel = label();
        f->ylabel = label();
        f->title = label();
        plot_figure_clean_text(f);
        StrBuf o;
        sb_init(&o);
        int k = (int)(rnd() % 3);
        if (k == 0) {
            Canvas cv = plot_file_canvas(f, exts[rnd() % 3]);
            plot_script(f, &cv, "out.svg", &o);
            assert_non_null(strstr(sb_str(&o), heat ? "unset multiplot\n" : "plot "));
        } else if (k == 1 && !heat) {
            Canvas cv = {CV_DUMB, 21 + (int)(rnd() % 140), 8 + (int)(rnd() % 100), 0, (ColourMode)(rnd() % 3), NULL, -1, -1, false, I18N_EN};
            plot_script(f, &cv, "", &o);
            assert_non_null(strstr(sb_str(&o), "plot "));
        } else if (heat) {
            Canvas cv = {CV_DUMB, 21 + (int)(rnd() % 980), 6 + (int)(rnd() % 295), 0, (ColourMode)(rnd() % 3), NULL, -1, -1, false, I18N_EN};
            plot_text_heatmaps(f, &cv, &o);
            int lines, widest = widest_line(sb_str(&o), &lines);
            /* within the terminal whenever the panels can be one character wide each */
            int gutter = 1 + (f->h > 10 ? (int)floor(log10((double)(f->h - 1))) + 1 : 1);
            if (gutter + (int)f->cols * 3 - 2 <= cv.width - 1 && widest > cv.width - 1)
                fail_msg("figure %d: a line of %d columns in a terminal of %d (%lld x %lld panels of %lld x %lld)", it, widest, cv.width,
                         (long long)f->rows, (long long)f->cols, (long long)f->h, (long long)f->w);
        } else {
            Canvas cv = {CV_SIXEL, 0, 0, 30 + rnd() % 2000, COLOUR_TRUE, NULL, -1, -1, false, I18N_EN};
            cv.width = (int)lround(f->width_in * cv.ppi);
            cv.height = (int)lround(f->height_in * cv.ppi);
            plot_script(f, &cv, "/tmp/x.png", &o);
        }
        StrBuf s;
        sb_init(&s);
        plot_summary(f, true, &s);
        sb_free(&s);
        sb_free(&o);
        plot_figure_free(f);
    }
}

/* One value in a big figure: the tick step was 0.1 rounded down to 0, and the tick loop never ended. */
static void test_one_value_big_figure(void **state) {
    (void)state;
    Figure *f = plot_figure_new(FIG_HEATMAPS, 50, 50);
    double *v = malloc(sizeof(double));
    v[0] = 3;
    plot_set_matrices(f, 1, 1, 1, 1, v);
    f->cmap = strdup("Reds");
    Canvas cv = plot_file_canvas(f, ".png");
    StrBuf o;
    sb_init(&o);
    plot_script(f, &cv, "x.png", &o);
    assert_non_null(strstr(sb_str(&o), "set xtics 0,1,0\nset ytics 0,1,0\n"));
    /* gnuplot draws images of at least 2 x 2: the value written twice each way, at half the spacing */
    assert_non_null(strstr(sb_str(&o), "$H0_0 << EOD_attn\n3 3\n3 3\nEOD_attn\n"));
    assert_non_null(strstr(sb_str(&o), "matrix using ($1*0.5-0.25):($2*0.5-0.25):3 with image"));
    sb_free(&o);
    plot_figure_free(f);
}

/* 250000 values in a row: averaged down to 4096 samples of about 61 values (cairo draws no image wider than 32767). */
static void test_long_row(void **state) {
    (void)state;
    Figure *f = plot_figure_new(FIG_HEATMAPS, 3, 3);
    double *v = malloc(sizeof(double) * 250000);
    for (int i = 0; i < 250000; i++) v[i] = i;
    plot_set_matrices(f, 1, 1, 1, 250000, v);
    f->cmap = strdup("Reds");
    Canvas cv = plot_file_canvas(f, ".svg");
    StrBuf o;
    sb_init(&o);
    plot_script(f, &cv, "x.svg", &o);
    const char *d = strstr(sb_str(&o), "$H0_0 << EOD_attn\n");
    assert_non_null(d);
    /* the first sample is the mean of values 0..61 (250000 * 1 / 4096 = 61.03: values 0 to 60, mean 30) */
    assert_true(!strncmp(d + strlen("$H0_0 << EOD_attn\n"), "30 ", 3));
    int rows = 0, cols = 1;
    for (const char *p = d + strlen("$H0_0 << EOD_attn\n"); strncmp(p, "EOD_attn", 8); p++) {
        if (*p == '\n') rows++;
        if (*p == ' ' && rows == 0) cols++;
    }
    assert_int_equal(rows, 2);
    assert_int_equal(cols, 4096);
    /* sample j at (j + 0.5) * 250000 / 4096 - 0.5 */
    assert_non_null(strstr(sb_str(&o), "matrix using ($1*61.03515625+30.017578125):($2*0.5-0.25):3 with image"));
    sb_free(&o);
    plot_figure_free(f);
}

/* Labels keep their text and lose what is not plain text. */
static void test_clean_labels(void **state) {
    (void)state;
    Figure *f = plot_figure_new(FIG_LINES, 3.5, 2.5);
    f->xlabel = strdup("a\x1b[31mb\tc\n\x7f" "d");                      /* C0 and DEL */
    f->ylabel = strdup("e\x9b" "2Jf\xc2\x9b" "g\xc2\x85h");             /* C1 as a byte and as U+009B, U+0085 */
    f->title = strdup("i\xe2\x80\xaej\xe2\x81\xa6k\xe2\x80\x8fl");      /* U+202E, U+2066, U+200F */
    f->arrow_label = strdup("m\xffn\xe6\x97o\xe6\x97\xa5\xc3\xa9\xef\xbf\xbdp");  /* damaged UTF-8; 日, é, U+FFFD kept */
    plot_add_series(f, NULL, calloc(1, sizeof(double)), 0, "-", "q\xed\xa0\x80r");   /* a surrogate */
    plot_figure_clean_text(f);
    assert_string_equal(f->xlabel, "a[31mbcd");
    assert_string_equal(f->ylabel, "e2Jfgh");
    assert_string_equal(f->title, "ijkl");
    assert_string_equal(f->arrow_label, "mno\xe6\x97\xa5\xc3\xa9\xef\xbf\xbdp");
    assert_string_equal(f->series[0].label, "qr");
    plot_figure_free(f);
}

/* A text heatmap in a narrow terminal: labels and the colour scale cut to it, CJK never cut in half. */
static void test_narrow_text_heatmap(void **state) {
    (void)state;
    Figure *f = plot_figure_new(FIG_HEATMAPS, 2.5, 2.5);
    double *v = malloc(sizeof(double) * 4);
    v[0] = -1e308; v[1] = 1e308; v[2] = 0; v[3] = 1;
    plot_set_matrices(f, 1, 1, 2, 2, v);
    f->cmap = strdup("Blues_r");
    f->xlabel = strdup("日本語のラベルです日本語のラベルです");      /* 36 columns */
    f->ylabel = strdup("Queries and keys and values");
    Canvas cv = {CV_DUMB, 21, 24, 0, COLOUR_NONE, NULL, -1, -1, false, I18N_EN};
    StrBuf o;
    sb_init(&o);
    plot_text_heatmaps(f, &cv, &o);
    int lines, widest = widest_line(sb_str(&o), &lines);
    assert_true(widest <= 20);
    assert_non_null(strstr(sb_str(&o), "Queries and keys and\n"));
    assert_non_null(strstr(sb_str(&o), "日本語のラベルです日\n"));   /* 20 columns: 10 characters */
    /* the scale without the map's name: "-1e+308 " (8) + 1 to 24 cells + " 1e+308" (7) in 20 - 2 columns */
    assert_non_null(strstr(sb_str(&o), " 1e+308\n"));
    assert_null(strstr(sb_str(&o), "(Blues_r)"));
    sb_free(&o);
    plot_figure_free(f);
}

/* Negative tick labels as the book's matplotlib writes them (U+2212) where the target shows it: gnuplot is told so
 * (set minussign) for files and the qt/wxt windows, for its dumb terminal only under a UTF-8 locale, never for the
 * x11 window; attn's own heatmap scale the same way. */
static void test_minus_sign(void **state) {
    (void)state;
    Figure *f = plot_figure_new(FIG_LINES, 3.5, 2.5);
    double *x = malloc(2 * sizeof(double)), *y = malloc(2 * sizeof(double));
    x[0] = -1; x[1] = 1; y[0] = -2; y[1] = 2;
    plot_add_series(f, x, y, 2, "-", NULL);
    unsetenv("LC_ALL");
    unsetenv("LC_CTYPE");
    static const struct { CanvasKind kind; const char *window, *lang; bool minus; } cases[] = {
        {CV_SVG, NULL, "C", true}, {CV_PNG, NULL, "C", true}, {CV_PDF, NULL, "C", true}, {CV_WINDOW, "qt", "C", true},
        {CV_WINDOW, "x11", "C.UTF-8", false}, {CV_DUMB, NULL, "C.UTF-8", true}, {CV_DUMB, NULL, "en_US.utf8", true},
        {CV_DUMB, NULL, "C", false}, {CV_DUMB, NULL, "ja_JP.eucJP", false}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        setenv("LANG", cases[i].lang, 1);
        Canvas cv = {cases[i].kind, 80, 24, 96, COLOUR_NONE, cases[i].window, -1, -1, false, I18N_EN};
        StrBuf o;
        sb_init(&o);
        plot_script(f, &cv, "x", &o);
        if (!strstr(sb_str(&o), "\nset minussign\n") != !cases[i].minus) fail_msg("case %zu (LANG=%s): %s", i, cases[i].lang, sb_str(&o));
        sb_free(&o);
    }
    plot_figure_free(f);
    Figure *h = plot_figure_new(FIG_HEATMAPS, 2.5, 2.5);
    double *v = malloc(sizeof(double) * 4);
    v[0] = -1; v[1] = 0; v[2] = 0.5; v[3] = 1;
    plot_set_matrices(h, 1, 1, 2, 2, v);
    h->cmap = strdup("Blues");
    Canvas tv = {CV_DUMB, 60, 24, 0, COLOUR_NONE, NULL, -1, -1, false, I18N_EN};
    for (int utf8 = 0; utf8 < 2; utf8++) {
        setenv("LANG", utf8 ? "C.UTF-8" : "C", 1);
        StrBuf o;
        sb_init(&o);
        plot_text_heatmaps(h, &tv, &o);
        assert_non_null(strstr(sb_str(&o), utf8 ? "\xe2\x88\x92" "1 " : " -1 "));
        if (utf8) assert_null(strstr(sb_str(&o), "-1"));
        sb_free(&o);
    }
    setenv("LANG", "C.UTF-8", 1);
    plot_figure_free(h);
}

/* A line figure of one series 0, 1, ..., n-1 (a board that has drawn n points). */
static Figure *board(int64_t n) {
    Figure *f = plot_figure_new(FIG_LINES, 3.5, 2.5);
    double *y = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) y[i] = (double)i;
    plot_add_series(f, NULL, y, n, "C0-", "train_loss");
    return f;
}

/* plot_live (a d2l.ProgressBoard): one figure number however often it is drawn; to a text target (summary) nothing
 * until plot_live_flush, which shows the last state once; a new board takes the next number. */
static void test_live_figure(void **state) {
    (void)state;
    Plot P;
    plot_init(&P);
    plot_set_target(&P, "summary");
    StrBuf out;
    sb_init(&out);
    AttnError err;
    int number = 0;
    for (int64_t n = 1; n <= 50; n++) assert_true(plot_live(&P, board(n), &number, false, &out, &err));
    assert_int_equal(number, 1);
    assert_int_equal(plot_figure_count(&P), 1);
    assert_int_equal((int)out.len, 0);                                 /* nothing shown while it trains */
    assert_true(plot_live_flush(&P, false, &out, &err));
    assert_string_equal(sb_str(&out), "<figure 1: 1 line of 50 points; legend 'train_loss'>\n");
    sb_free(&out);
    sb_init(&out);
    assert_true(plot_live_flush(&P, false, &out, &err));    /* drawn already: nothing more */
    assert_int_equal((int)out.len, 0);
    int other = 0;
    assert_true(plot_live(&P, board(3), &other, false, &out, &err));
    assert_int_equal(other, 2);
    assert_true(plot_live_flush(&P, false, &out, &err));
    assert_string_equal(sb_str(&out), "<figure 2: 1 line of 3 points; legend 'train_loss'>\n");
    sb_free(&out);
    plot_free(&P);
}

/* cmap.c's tables are generated at build time (scripts/gen-cmap-tables): recomputing them from the maps gives the
 * committed ones bit for bit, so the 256-colour heatmaps draw as when cmap.c computed them at run time; and
 * cmap_xterm256_at reads them (Blues from near white to navy, Blues_r the other way). */
static void test_cmap_tables_generated(void **state) {
    (void)state;
    CmapTables *t = calloc(1, sizeof *t);
    CmapScratch *s = calloc(1, sizeof *s);
    assert_non_null(t);
    assert_non_null(s);
    assert_int_equal(cmap_tables_compute(t, s), CMAP_NMAPS);
    const CmapTables *g = cmap_tables();
    assert_memory_equal(t->lab, g->lab, sizeof t->lab);
    assert_memory_equal(t->lstar, g->lstar, sizeof t->lstar);
    assert_memory_equal(t->ramps, g->ramps, sizeof t->ramps);
    bool rev;
    const Cmap *blues = cmap_find("Blues", &rev);
    assert_non_null(blues);
    for (int k = 0; k < CMAP_RAMP; k++) {
        double at = (double)k / (CMAP_RAMP - 1);
        assert_int_equal(cmap_xterm256_at(blues, false, at), t->ramps[1][k]);
        assert_int_equal(cmap_xterm256_at(blues, true, at), t->ramps[1][CMAP_RAMP - 1 - k]);
    }
    assert_int_equal(cmap_xterm256(0xffffff), 231);     /* the cube's white; greys 232..255 stop at 238 */
    assert_int_equal(cmap_xterm256(0x000000), 16);
    free(t);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cmap_tables_generated),
        cmocka_unit_test(test_live_figure),
        cmocka_unit_test(test_random_figures),
        cmocka_unit_test(test_one_value_big_figure),
        cmocka_unit_test(test_long_row),
        cmocka_unit_test(test_clean_labels),
        cmocka_unit_test(test_narrow_text_heatmap),
        cmocka_unit_test(test_minus_sign),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

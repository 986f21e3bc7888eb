/* d2l_relative.c - §11.6.3.1 absolute position (binary vs sinusoid) and §11.6.3.2 relative position: the 2×2
 * rotation that maps (p_{i,2j}, p_{i,2j+1}) to (p_{i+δ,2j}, p_{i+δ,2j+1}) for every i. */
#include "builtins_internal.h"
#include "interp.h"
#include "plot.h"
#include "i18n.h"
#include "textwidth.h"
#include <math.h>
#include <string.h>


/* binary_vs_sinusoid(n=8, d=8): the binary digits of 0..n-1 beside the columns of P, highest frequency first. */
static Value *bi_binary_vs_sinusoid(Interp *I, Args *a) {
    Value *p_[2];                               /* n, d */
    if (!args_bind(I, a, p_, 2)) return NULL;
    int64_t n = 8, d = 8;
    Value *nv = p_[0], *dv = p_[1];
    if ((nv && !arg_int(I, nv, "n", &n)) || (dv && !arg_int(I, dv, "d", &d))) return NULL;
    if (n < 2 || n > 256 || d < 2 || d > 16) return rt_error(I, "binary_vs_sinusoid: need 2 <= n <= 256 and 2 <= d <= 16 (to fit on the screen)");
    int bits = 0;
    while ((1LL << bits) < n) bits++;
    Tensor *P = attn_positional_table_in(I->run.ten, n, d);
    if (!P) return rt_tensor_error(I);
    /* d <= 8: every column; beyond, only the sine columns (8 at most), so that a row fits 80 columns */
    bool sines_only = d > 8;
    int64_t shown = sines_only ? (d + 1) / 2 : d;
    StrBuf o;
    sb_init(&o);
    sb_printf(&o, TR(I->run.lang, "Positions 0..%lld in binary beside the rows of P for d = %lld (§11.6.3.1):\n"
                     "the lowest bit flips every row, the next every 2 rows, then every 4, ...\n"), (long long)(n - 1), (long long)d);
    if (sines_only) sb_puts(&o, TR(I->run.lang, "(the sine columns 0, 2, 4, ... only, to fit the screen)\n"));
    const char *bin = TR(I->run.lang, "binary");                 /* right-aligned over the bits, in display columns */
    sb_printf(&o, "%4s  ", "i");
    sb_pad(&o, ' ', (bits < 6 ? 6 : bits) - tw_width(bin));
    sb_printf(&o, "%s  ", bin);
    for (int64_t s = 0; s < shown; s++) {
        int64_t c = sines_only ? 2 * s : s;
        char h[24];
        snprintf(h, sizeof h, "%s%lld", c % 2 ? "cos" : "sin", (long long)(c / 2));
        sb_printf(&o, "%8s", h);
    }
    sb_putc(&o, '\n');
    for (int64_t i = 0; i < n; i++) {
        char b[80];
        for (int k = 0; k < bits; k++) b[k] = (char)('0' + ((i >> (bits - 1 - k)) & 1));
        b[bits] = 0;
        sb_printf(&o, "%4lld  %*s  ", (long long)i, bits < 6 ? 6 : bits, b);
        for (int64_t s = 0; s < shown; s++) {
            int64_t c = sines_only ? 2 * s : s;
            sb_printf(&o, "%8.4f", (double)ten_f32(P)[i * d + c] + 0.0);
        }
        sb_putc(&o, '\n');
    }
    sb_puts(&o, TR(I->run.lang, "The bits change more slowly from right to left, the columns of P from left to\n"
                   "right: the pair of columns 2j, 2j+1 turns by omega_j = 1/10000^(2j/d) radians\n"
                   "per position.\n"));
    interp_write(I, sb_str(&o));
    sb_free(&o);
    ten_free(P);
    return val_none();
}

/* The rotation's figure (§11.6.3.2): the pairs (p_{i,2j}, p_{i,2j+1}) = (sin iω, cos iω) on the unit circle for one
 * turn of positions (at most 40), each labelled with its i where they do not crowd; and arrows from the pair at i
 * to the pair at i + δ for a few i spread round the circle: the same turn by δω wherever it starts. Square axes
 * with room for the labels, so the circle is round and nothing is cut. */
static Value *rotation_figure(Interp *I, int64_t delta, int64_t j, int64_t n, double w) {
    int64_t m = (int64_t)ceil(2 * M_PI / w - 1e-9);
    if (m > 40) m = 40;
    if (m > n) m = n;
    Figure *f = plot_figure_new(FIG_LINES, 5, 5.4);
    double *cx = xmalloc(sizeof(double) * 121), *cy = xmalloc(sizeof(double) * 121);
    for (int k = 0; k <= 120; k++) { cx[k] = cos(k * M_PI / 60); cy[k] = sin(k * M_PI / 60); }
    plot_add_series(f, cx, cy, 121, "C7-", TR(I->run.lang, "unit circle"));
    double *px = xmalloc(sizeof(double) * (size_t)m), *py = xmalloc(sizeof(double) * (size_t)m);
    for (int64_t i = 0; i < m; i++) { px[i] = sin((double)i * w); py[i] = cos((double)i * w); }
    char lab[96];
    snprintf(lab, sizeof lab, TR(I->run.lang, "(p[i,%lld], p[i,%lld]) for i = 0..%lld"), (long long)(2 * j), (long long)(2 * j + 1), (long long)(m - 1));
    plot_add_series(f, px, py, m, "C0o", lab);
    /* labels at least 0.3 rad apart, pushed out from the circle */
    int64_t every = (int64_t)ceil(0.3 / w);
    if (every < 1) every = 1;
    for (int64_t i = 0; i < m; i += every) {
        char t[24];
        snprintf(t, sizeof t, "%lld", (long long)i);
        plot_add_mark(f, 1.13 * sin((double)i * w), 1.13 * cos((double)i * w), t);
    }
    /* arrows from i to i + delta, at most 6, spread over the positions that have both ends */
    int64_t lo = delta < 0 ? -delta : 0, hi = delta < 0 ? n - 1 : n - 1 - delta;   /* i in [lo, hi] */
    if (hi > lo + m - 1) hi = lo + m - 1;
    int64_t adelta = delta < 0 ? -delta : delta, step = (hi - lo) / 5;
    if (step < adelta + 1) step = adelta + 1;        /* arrows that do not touch */
    for (int64_t i = lo; i <= hi; i += step) {
        double a = (double)i * w, b = (double)(i + delta) * w;
        /* stop short of the point so the head does not hide it */
        plot_add_arrow(f, 0.97 * sin(a), 0.97 * cos(a), 0.97 * sin(b), 0.97 * cos(b));
    }
    snprintf(lab, sizeof lab, TR(I->run.lang, "R: pair i → pair i%+lld"), (long long)delta);
    f->arrow_label = xstrdup(lab);
    snprintf(f->arrow_fmt, sizeof f->arrow_fmt, "C3");
    snprintf(lab, sizeof lab, TR(I->run.lang, "R turns each pair by δω = %.4g rad"), (double)delta * w);
    f->title = xstrdup(lab);
    snprintf(lab, sizeof lab, "p[i, %lld] = sin(%.4g i)", (long long)(2 * j), w);
    f->xlabel = xstrdup(lab);
    snprintf(lab, sizeof lab, "p[i, %lld] = cos(%.4g i)", (long long)(2 * j + 1), w);
    f->ylabel = xstrdup(lab);
    f->xlim[0] = f->ylim[0] = -1.32;
    f->xlim[1] = f->ylim[1] = 1.32;
    f->equal_axes = true;
    return builtins_show_figure(I, f);
}

/* rotation(delta, j, d=32, n=60): the matrix of (11.6.3), checked on every position. Returns the 2×2 matrix. */
static Value *bi_rotation(Interp *I, Args *a) {
    Value *p_[6];                               /* delta, j, d, n, quiet, plot */
    if (!args_bind(I, a, p_, 6)) return NULL;
    Value *pv = p_[5];
    bool want_plot = false;
    if (pv && !arg_bool(I, pv, "plot", &want_plot)) return NULL;
    Value *dv = p_[0], *jv = p_[1], *ddv = p_[2], *nv = p_[3], *qv = p_[4];
    if (!dv || !jv) return rt_error(I, "rotation(delta, j, d=32, n=60): an offset delta and a frequency index j");
    int64_t delta, j, d = 32, n = 60;
    bool quiet = false;
    if (!arg_int(I, dv, "delta", &delta) || !arg_int(I, jv, "j", &j) || (ddv && !arg_int(I, ddv, "d", &d)) ||
        (nv && !arg_int(I, nv, "n", &n)) || (qv && !arg_bool(I, qv, "quiet", &quiet)))
        return NULL;
    if (d < 2 || d > 4096) return rt_error(I, "rotation: d must be between 2 and 4096");
    if (j < 0 || j >= d / 2) return rt_error(I, "rotation: j must be between 0 and %lld for d = %lld (columns 2j and 2j+1 must exist)", (long long)(d / 2 - 1), (long long)d);
    if (n < 2 || n > 100000) return rt_error(I, "rotation: n must be between 2 and 100000");
    if (delta <= -n || delta >= n) return rt_error(I, "rotation: delta must be between -(n - 1) and n - 1 (n = %lld)", (long long)n);
    /* the positions i with both i and i + delta in 0..n-1 (delta < 0 moves every pair back) */
    int64_t i_lo = delta < 0 ? -delta : 0, i_hi = delta < 0 ? n - 1 : n - 1 - delta;
    double w = 1.0 / pow(10000.0, (double)(2 * j) / (double)d), c = cos(delta * w), s = sin(delta * w);
    int64_t sh[2] = {2, 2};
    Tensor *R = ten_new_in(I->run.ten, DT_F32, 2, sh);
    if (!R) return rt_tensor_error(I);
    ten_f32(R)[0] = (float)c; ten_f32(R)[1] = (float)s; ten_f32(R)[2] = (float)-s; ten_f32(R)[3] = (float)c;
    /* apply R to the pair at every position i (in double, so the check shows the identity, not float32 noise) */
    double worst = 0;
    for (int64_t i = i_lo; i <= i_hi; i++) {
        double x = sin(i * w), y = cos(i * w);
        double rx = c * x + s * y, ry = -s * x + c * y;
        double ex = sin((i + delta) * w), ey = cos((i + delta) * w);
        double e = fmax(fabs(rx - ex), fabs(ry - ey));
        if (e > worst) worst = e;
    }
    /* the same check on the float32 table the book builds (PositionalEncoding(d, 0).P) */
    Tensor *P = attn_positional_table_in(I->run.ten, n, d);
    if (!P) { ten_free(R); return rt_tensor_error(I); }
    double worst32 = 0;
    for (int64_t i = i_lo; i <= i_hi; i++) {
        float x = ten_f32(P)[i * d + 2 * j], y = ten_f32(P)[i * d + 2 * j + 1];
        float rx = ten_f32(R)[0] * x + ten_f32(R)[1] * y, ry = ten_f32(R)[2] * x + ten_f32(R)[3] * y;
        double e = fmax(fabs(rx - ten_f32(P)[(i + delta) * d + 2 * j]), fabs(ry - ten_f32(P)[(i + delta) * d + 2 * j + 1]));
        if (e > worst32) worst32 = e;
    }
    ten_free(P);
    if (!quiet) {
        StrBuf o, r;
        sb_init(&o);
        sb_init(&r);
        ten_repr(&r, R, &I->run.print);
        char at[32];                              /* "i+3", "i-3" or "i" */
        if (delta) snprintf(at, sizeof at, "i%+lld", (long long)delta);
        else snprintf(at, sizeof at, "i");
        sb_printf(&o, "omega_%lld = 1/10000^(2*%lld/%lld) = %.6g (§11.6.3.2)\n", (long long)j, (long long)j, (long long)d, w);
        sb_printf(&o, TR(I->run.lang, "delta = %lld: R turns every pair by delta*omega = %.6g rad\n"), (long long)delta, delta * w);
        sb_printf(&o, "R = [[cos δω, sin δω], [-sin δω, cos δω]] =\n%s\n", sb_str(&r));
        char head[160];
        snprintf(head, sizeof head, TR(I->run.lang, "R @ (p[i,%lld], p[i,%lld]) against (p[%s,%lld], p[%s,%lld])"), (long long)(2 * j),
                 (long long)(2 * j + 1), at, (long long)(2 * j), at, (long long)(2 * j + 1));
        sb_printf(&o, TR(I->run.lang, "%s%sfor i = %lld..%lld:\n"), head, tw_width(head) > 58 ? "\n  " : " ", (long long)i_lo, (long long)i_hi);
        sb_printf(&o, TR(I->run.lang, "  largest difference %.1e in float64 (rounding: exact arithmetic gives 0),\n"), worst);
        sb_printf(&o, TR(I->run.lang, "  %.1e on the float32 table P of PositionalEncoding(%lld, 0).\n"), worst32, (long long)d);
        sb_puts(&o, TR(I->run.lang, "The same R works at every position: it depends on delta and j, never on i.\n"));
        interp_write(I, sb_str(&o));
        sb_free(&o);
        sb_free(&r);
    }
    if (want_plot) {
        Value *r = rotation_figure(I, delta, j, n, w);
        val_decref(r);
        if (interp_failed(I)) { ten_free(R); return NULL; }
    }
    return val_tensor(I->run.heap, R);
}

const Builtin bi_d2l_relative[] = {
    {"binary_vs_sinusoid", bi_binary_vs_sinusoid, "binary_vs_sinusoid(n=8, d=8)",
     "The binary digits of 0..n-1 beside the rows of P (d = 2..16; for d > 8 only the sine columns): the bits change "
     "more slowly from right to left, the columns of P from left to right.", "§11.6.3.1", 0, ""},
    {"rotation", bi_rotation, "rotation(delta, j, d=32, n=60, quiet=False, plot=False)",
     "The 2×2 matrix R = [[cos δω_j, sin δω_j], [-sin δω_j, cos δω_j]] of (11.6.3), ω_j = 1/10000^(2j/d): applied to "
     "(p_{i,2j}, p_{i,2j+1}) it gives (p_{i+δ,2j}, p_{i+δ,2j+1}) for every i, with delta between -(n-1) and n-1 "
     "(a negative delta moves every pair back). Prints the largest difference over the positions 0..n-1 of the "
     "table (quiet=True prints nothing) and returns R. plot=True draws the pairs on the unit circle and where R "
     "turns them.", "§11.6.3.2", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

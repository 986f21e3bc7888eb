/* d2l_complexity.c - §11.6.2 "Comparing CNNs, RNNs, and Self-Attention": the table with concrete operation counts,
 * maximum path lengths computed on the real layered dependency graph (contiguous and dilated kernels), the
 * receptive-field figure, and a measurement of real conv1d, RNN and self-attention layers with log-log slopes. */
#include "builtins_internal.h"
#include "interp.h"
#include "plot.h"
#include "i18n.h"
#include "textwidth.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>


/* v with thousands separators ("78,643,200"), or in e-notation from 10^10 so the table keeps to 80 columns. */
static void count_str(char *buf, size_t size, double v) {
    if (v >= 1e10) { snprintf(buf, size, "%.3e", v); return; }
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", v);
    size_t n = strlen(digits), k = 0;
    for (size_t i = 0; i < n && k + 2 < size; i++) {
        if (i && (n - i) % 3 == 0) buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = 0;
}

/* The unit after a count n: one (TR(I->run.lang, "layer")) when n is 1, else many (TR(I->run.lang, "layers")). */
static const char *unit(int64_t n, const char *one, const char *many) { return n == 1 ? one : many; }

/* Reach sets as bitsets: row p holds the inputs that output p depends on (n rows of W 64-bit words). */
typedef struct Reach { int64_t n, W; uint64_t *bits; } Reach;

static Reach reach_new(int64_t n) {
    Reach r = {n, (n + 63) / 64, NULL};
    r.bits = xcalloc((size_t)(n * r.W), sizeof(uint64_t));
    for (int64_t p = 0; p < n; p++) r.bits[p * r.W + p / 64] |= (uint64_t)1 << (p % 64);
    return r;
}

/* One more layer of kernel k with dilation dil (a contiguous window centred on p, same padding). */
static void reach_layer(Reach *r, int64_t k, int64_t dil) {
    uint64_t *next = xcalloc((size_t)(r->n * r->W), sizeof(uint64_t));
    for (int64_t p = 0; p < r->n; p++)
        for (int64_t t = 0; t < k; t++) {
            int64_t src = p + (t - (k - 1) / 2) * dil;
            if (src < 0 || src >= r->n) continue;
            for (int64_t w = 0; w < r->W; w++) next[p * r->W + w] |= r->bits[src * r->W + w];
        }
    free(r->bits);
    r->bits = next;
}

static bool reach_has(const Reach *r, int64_t p, int64_t i) { return (r->bits[p * r->W + i / 64] >> (i % 64)) & 1; }

/* Receptive fields after `layers` layers (dilation k^(l-1) at layer l when dilated), as an n×n byte matrix. */
static unsigned char *receptive_fields(int64_t n, int64_t k, int64_t layers, bool dilated) {
    Reach r = reach_new(n);
    int64_t dil = 1;
    for (int64_t l = 0; l < layers; l++) {
        reach_layer(&r, k, dil);
        if (dilated && dil < n) dil *= k;
    }
    unsigned char *m = xcalloc((size_t)(n * n), 1);
    for (int64_t p = 0; p < n; p++)
        for (int64_t i = 0; i < n; i++) m[p * n + i] = reach_has(&r, p, i);
    free(r.bits);
    return m;
}

/* Fewest layers after which some output depends on both x_1 and x_n (the two farthest tokens), growing the
 * reach sets one layer at a time on the real graph. */
static int64_t graph_path_length(int64_t n, int64_t k, bool dilated) {
    if (n <= 1) return 0;
    Reach r = reach_new(n);
    int64_t dil = 1, L = -1;
    for (int64_t l = 1; l <= n && L < 0; l++) {
        reach_layer(&r, k, dil);
        if (dilated && dil < n) dil *= k;
        for (int64_t p = 0; p < n; p++)
            if (reach_has(&r, p, 0) && reach_has(&r, p, n - 1)) { L = l; break; }
        if (ten_interrupted) break;
    }
    free(r.bits);
    return L;
}

static Value *bi_path_length(Interp *I, Args *a) {
    Value *p_[3];                               /* n, k, dilated */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *nv = p_[0], *kv = p_[1], *dv = p_[2];
    int64_t n, k = 3;
    bool dil = false;
    if (!nv) return rt_error(I, "path_length(n, k=3, dilated=False) needs n");
    if (!arg_int(I, nv, "n", &n) || (kv && !arg_int(I, kv, "k", &k)) || (dv && !arg_bool(I, dv, "dilated", &dil))) return NULL;
    if (n < 1 || n > 1024) return rt_error(I, "path_length: n must be between 1 and 1024 (the graph has n² edges per layer)");
    if (k < 2 || k > 1000) return rt_error(I, "path_length: the kernel size k must be between 2 and 1000");
    return val_int(I->run.heap, graph_path_length(n, k, dil));
}

/* complexity(n, d, k=3): the chapter's table for these numbers, each O(...) evaluated, with the conclusions that
 * follow from them. Every line fits 80 columns for every n, d and k accepted. */
static Value *bi_complexity(Interp *I, Args *a) {
    Value *p_[3];                               /* n, d, k */
    if (!args_bind(I, a, p_, 3)) return NULL;
    Value *nv = p_[0], *dv = p_[1], *kv = p_[2];
    if (!nv || !dv) return rt_error(I, "complexity(n, d, k=3): n tokens of d dimensions, kernel size k");
    int64_t n, d, k = 3;
    if (!arg_int(I, nv, "n", &n) || !arg_int(I, dv, "d", &d) || (kv && !arg_int(I, kv, "k", &k))) return NULL;
    if (n < 2 || d < 1 || k < 2 || n > 1000000 || d > 100000 || k > 1000)
        return rt_error(I, "complexity: need 2 <= n <= 1000000, 1 <= d <= 100000 and 2 <= k <= 1000");
    double cnn = (double)k * n * d * d, rnn = (double)n * d * d, sa = (double)n * n * d;
    int64_t cnn_path = (n - 1 + k - 2) / (k - 1);
    int64_t dil_path = (int64_t)ceil(log((double)n) / log((double)k) - 1e-12);
    bool graph = n <= 512;
    int64_t g_cont = graph ? graph_path_length(n, k, false) : -1, g_dil = graph ? graph_path_length(n, k, true) : -1;
    char c[3][32], seq[32], path[2][48];
    count_str(c[0], sizeof c[0], cnn);
    count_str(c[1], sizeof c[1], rnn);
    count_str(c[2], sizeof c[2], sa);
    snprintf(seq, sizeof seq, "O(n) = %lld", (long long)n);
    snprintf(path[0], sizeof path[0], "O(n/k): %lld %s", (long long)cnn_path, unit(cnn_path, TR(I->run.lang, "layer"), TR(I->run.lang, "layers")));
    snprintf(path[1], sizeof path[1], "O(n) = %lld %s", (long long)(n - 1), unit(n - 1, TR(I->run.lang, "step"), TR(I->run.lang, "steps")));
    StrBuf o;
    sb_init(&o);
    sb_printf(&o, TR(I->run.lang, "CNN vs RNN vs self-attention, n = %lld, d = %lld, k = %lld (§11.6.2)\n\n"),
              (long long)n, (long long)d, (long long)k);
    /* the columns in display columns, so that Japanese and Chinese headings stand over their columns too */
    sb_pad(&o, ' ', 16);
    tw_pad(&o, TR(I->run.lang, "computational complexity"), 25);
    tw_pad(&o, TR(I->run.lang, "sequential ops"), 17);
    sb_printf(&o, "%s\n", TR(I->run.lang, "maximum path length"));
    sb_printf(&o, "CNN             O(knd²) = %-13s  %-15s  %s\n", c[0], "O(1) = 1", path[0]);
    sb_printf(&o, "RNN             O(nd²)  = %-13s  %-15s  %s\n", c[1], seq, path[1]);
    tw_pad(&o, TR(I->run.lang, "self-attention"), 16);
    sb_printf(&o, "O(n²d)  = %-13s  %-15s  %s\n\n", c[2], "O(1) = 1", "O(1) = 1");
    const char *cheapest = sa <= rnn && sa <= cnn ? TR(I->run.lang, "self-attention") : rnn <= cnn ? TR(I->run.lang, "the RNN") : TR(I->run.lang, "the CNN");
    sb_printf(&o, TR(I->run.lang, "Cheapest per layer: %s.\n"), cheapest);
    if (n < d) sb_printf(&o, TR(I->run.lang, "Self-attention costs less than the RNN: n < d (%lld < %lld), so n²d < nd².\n"), (long long)n, (long long)d);
    else if (n == d) sb_printf(&o, TR(I->run.lang, "Self-attention and the RNN cost the same: n = d = %lld, so n²d = nd².\n"), (long long)d);
    else sb_printf(&o, TR(I->run.lang, "Self-attention costs more than the RNN: n > d (%lld > %lld), so n²d > nd².\n"), (long long)n, (long long)d);
    sb_printf(&o, TR(I->run.lang, "CNN path from x1 to x%lld:\n"), (long long)n);
    sb_printf(&o, TR(I->run.lang, "  contiguous kernels: ceil((n-1)/(k-1)) = %lld %s"), (long long)cnn_path, unit(cnn_path, TR(I->run.lang, "layer"), TR(I->run.lang, "layers")));
    if (graph) sb_printf(&o, TR(I->run.lang, " (graph: %lld)"), (long long)g_cont);
    sb_puts(&o, ", O(n/k);\n");
    sb_printf(&o, TR(I->run.lang, "  dilated (1, k, k², ...): ceil(log_k n) = %lld %s"), (long long)dil_path, unit(dil_path, TR(I->run.lang, "layer"), TR(I->run.lang, "layers")));
    if (graph) sb_printf(&o, TR(I->run.lang, " (graph: %lld)"), (long long)g_dil);
    sb_puts(&o, ", O(log_k n).\n");
    interp_write(I, sb_str(&o));
    sb_free(&o);
    return val_none();
}

/* receptive_field(n=5, k=3, layers=2, dilated=False): which inputs reach which outputs (the chapter's figure). */
static Value *bi_receptive_field(Interp *I, Args *a) {
    Value *p_[4];                               /* n, k, layers, dilated */
    if (!args_bind(I, a, p_, 4)) return NULL;
    int64_t n = 5, k = 3, L = 2;
    bool dil = false;
    Value *nv = p_[0], *kv = p_[1], *lv = p_[2], *dv = p_[3];
    if ((nv && !arg_int(I, nv, "n", &n)) || (kv && !arg_int(I, kv, "k", &k)) || (lv && !arg_int(I, lv, "layers", &L)) ||
        (dv && !arg_bool(I, dv, "dilated", &dil)))
        return NULL;
    if (n < 1 || n > 12) return rt_error(I, "receptive_field: n must be between 1 and 12 (to fit 80 columns)");
    if (k < 2 || k > 15 || L < 0 || L > 20) return rt_error(I, "receptive_field: need 2 <= k <= 15 and 0 <= layers <= 20");
    unsigned char *rf = receptive_fields(n, k, L, dil);
    StrBuf o;
    sb_init(&o);
    sb_printf(&o, TR(I->run.lang, "Inputs reaching each output after %lld %s of kernel %lld (same padding), n = %lld:\n"),
              (long long)L, unit(L, TR(I->run.lang, "layer"), TR(I->run.lang, "layers")), (long long)k, (long long)n);
    if (dil) sb_puts(&o, TR(I->run.lang, "(dilated: dilation 1, k, k², ... at layers 1, 2, 3, ...)\n"));
    sb_puts(&o, "     ");
    for (int64_t i = 0; i < n; i++) {
        char h[24];
        snprintf(h, sizeof h, "x%lld", (long long)(i + 1));
        sb_printf(&o, "%4s", h);
    }
    sb_putc(&o, '\n');
    Tensor *m = NULL;
    int64_t sh[2] = {n, n};
    m = ten_new_in(I->run.ten, DT_BOOL, 2, sh);
    for (int64_t p = 0; p < n; p++) {
        char yl[24];
        snprintf(yl, sizeof yl, "y%lld", (long long)(p + 1));
        sb_printf(&o, "  %-3s", yl);
        for (int64_t i = 0; i < n; i++) {
            sb_puts(&o, rf[p * n + i] ? "   #" : "   .");
            ten_b8(m)[p * n + i] = rf[p * n + i];
        }
        if (rf[p * n] && rf[p * n + n - 1]) sb_printf(&o, TR(I->run.lang, "  <- x1 and x%lld meet here"), (long long)n);
        sb_putc(&o, '\n');
    }
    free(rf);
    interp_write(I, sb_str(&o));
    sb_free(&o);
    return val_tensor(I->run.heap, m);
}

/* ---- the measurement ---- */

/* CPU seconds used by the calling thread: the layers run on this one thread, and on a busy machine the time other
 * programs hold the core is not the layer's cost (wall time would count it, more at some sizes than at others). */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* conv1d: X (n, d), W (k, d, d) -> Y (n, d), Y[p] = sum_t X[p + t - k/2] W[t] (same padding). One GEMM per tap. */
static void conv1d_layer(TenCtx *c, const float *X, const float *W, float *Y, float *tmp, int64_t n, int64_t d, int64_t k) {
    memset(Y, 0, sizeof(float) * (size_t)(n * d));
    for (int64_t t = 0; t < k; t++) {
        int64_t off = t - (k - 1) / 2, lo = off < 0 ? -off : 0, hi = off > 0 ? n - off : n;
        if (hi <= lo) continue;
        ten_sgemm(c, X + (lo + off) * d, W + t * d * d, tmp, hi - lo, d, d, false);
        for (int64_t i = 0; i < (hi - lo) * d; i++) Y[lo * d + i] += tmp[i];
    }
}

/* RNN: h_t = tanh(x_t W_x + h_{t-1} W_h): n sequential steps, each a d×d product that cannot start early. */
static void rnn_layer(TenCtx *c, const float *X, const float *Wx, const float *Wh, float *H, float *tmp, int64_t n, int64_t d) {
    ten_sgemm(c, X, Wx, H, n, d, d, false);        /* the input part for all steps at once */
    for (int64_t t = 1; t < n; t++) {
        ten_sgemm(c, H + (t - 1) * d, Wh, tmp, 1, d, d, false);
        for (int64_t j = 0; j < d; j++) H[t * d + j] = tanhf(H[t * d + j] + tmp[j]);
    }
}

/* self-attention: Q = K = V = X (n, d); softmax(X Xᵀ / sqrt(d)) X: two n×n×d products. */
static void attention_layer(TenCtx *c, const float *X, float *S, float *Y, int64_t n, int64_t d) {
    ten_sgemm(c, X, X, S, n, n, d, true);
    float sc = (float)sqrt((double)d);
    for (int64_t i = 0; i < n * n; i++) S[i] /= sc;
    ten_softmax_rows_f32(S, n, n);                 /* vectorised, as torch.softmax: the layer's real cost */
    ten_sgemm(c, S, X, Y, n, d, n, false);
}

static double slope(const double *x, const double *y, int m) {
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    for (int i = 0; i < m; i++) { mx += log(x[i]); my += log(y[i]); }
    mx /= m;
    my /= m;
    for (int i = 0; i < m; i++) { sxy += (log(x[i]) - mx) * (log(y[i]) - my); sxx += (log(x[i]) - mx) * (log(x[i]) - mx); }
    return sxx > 0 ? sxy / sxx : 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_int64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* measure_layers' figure: the times on log-log axes (axes spanning the data), each kind with its fitted power law
 * drawn as a thin line over the sizes it was fitted on, and the slopes in the legend: what the printed slopes say
 * is what the reader sees. */
static Value *measure_figure(Interp *I, const double *x, double t[3][16], int m, int first, Value *slopes) {
    static const char *key[3] = {"cnn", "rnn", "attention"};
    const char *label[3] = {"conv1d", "RNN", TR(I->run.lang, "self-attention")};   /* the figure's text in the reader's language */
    static const char *fmt[3] = {"C0o-", "C2s-", "C3^-"}, *fit_fmt[3] = {"C0--", "C2--", "C3--"};
    Figure *f = plot_figure_new(FIG_LINES, 6, 3.5);
    for (int kind = 0; kind < 3; kind++) {
        double *xs = xmalloc(sizeof(double) * (size_t)m), *ys = xmalloc(sizeof(double) * (size_t)m);
        memcpy(xs, x, sizeof(double) * (size_t)m);
        memcpy(ys, t[kind], sizeof(double) * (size_t)m);
        char l[80];
        double b = val_as_double(dict_get(slopes->u.dict, key[kind]));
        snprintf(l, sizeof l, TR(I->run.lang, "%s: slope %.2f"), label[kind], b);
        plot_add_series(f, xs, ys, m, fmt[kind], l);
    }
    for (int kind = 0; kind < 3; kind++) {
        /* time = c n^b through the fitted points' geometric mean */
        double b = val_as_double(dict_get(slopes->u.dict, key[kind])), lx = 0, ly = 0;
        for (int i = first; i < m; i++) { lx += log(x[i]); ly += log(t[kind][i]); }
        lx /= m - first;
        ly /= m - first;
        double *xs = xmalloc(sizeof(double) * 2), *ys = xmalloc(sizeof(double) * 2);
        xs[0] = x[first]; xs[1] = x[m - 1];
        for (int e = 0; e < 2; e++) ys[e] = exp(ly + b * (log(xs[e]) - lx));
        plot_add_series(f, xs, ys, 2, fit_fmt[kind], kind == 2 ? TR(I->run.lang, "fitted n^slope") : NULL);
    }
    f->xlabel = xstrdup(TR(I->run.lang, "sequence length n"));
    f->ylabel = xstrdup(TR(I->run.lang, "seconds per layer"));
    f->logx = f->logy = true;
    return builtins_show_figure(I, f);
}

/* Times one layer kind at one n in this thread's CPU time: after one run to warm up (caches), the fastest of
 * `repeats` runs, each repeated until it lasts >= 10 ms. The fastest, not the median: on a shared machine other work
 * only ever adds time (cache misses, a core shared with a sibling), so the minimum is the steadiest estimate of the
 * layer's own cost. */
static double time_layer(TenCtx *c, Rng *g, int kind, int64_t n, int64_t d, int64_t k, int repeats) {
    int64_t sx[2] = {n, d}, sw[3] = {k, d, d}, sdd[2] = {d, d};
    Tensor *X = ten_randn_in(c, g, 2, sx), *W = ten_randn_in(c, g, 3, sw), *Wh = ten_randn_in(c, g, 2, sdd);
    float *Y = xcalloc((size_t)(n * d), sizeof(float)), *tmp = xcalloc((size_t)(n * (n > d ? n : d)), sizeof(float));
    double times[16];
    if (repeats > 15) repeats = 15;
    for (int r = -1; r < repeats; r++) {           /* r = -1: the warm-up, not kept */
        int reps = 0;
        double t0 = cpu_s(), t1;
        do {
            if (kind == 0) conv1d_layer(c, ten_f32(X), ten_f32(W), Y, tmp, n, d, k);
            else if (kind == 1) rnn_layer(c, ten_f32(X), ten_f32(W), ten_f32(Wh), Y, tmp, n, d);
            else attention_layer(c, ten_f32(X), tmp, Y, n, d);
            reps++;
            t1 = cpu_s();
        } while (t1 - t0 < (r < 0 ? 0 : 0.01) && !ten_interrupted);
        if (r >= 0) times[r] = (t1 - t0) / reps;
    }
    qsort(times, (size_t)repeats, sizeof(double), cmp_double);
    ten_free(X); ten_free(W); ten_free(Wh);
    free(Y); free(tmp);
    return times[0];
}

/* What the measured times say, each sentence decided by the numbers themselves (times t[kind][i] in seconds at
 * ns[i], kinds conv1d, RNN, self-attention; slopes fitted on log-log axes for n >= fit_from), so that the text agrees with the
 * table above it on every machine and every run. Lines fit 80 columns. */
static void measured_conclusions(I18nLang lang, StrBuf *o, const int64_t *ns, int m, double t[3][16], const double *slopes, int64_t fit_from,
                                 int64_t d) {
    double span = (double)ns[m - 1] / (double)ns[0];
    char g[5][32];                                   /* growth ratios: 3 significant digits, whole numbers from 100 */
    double gv[5] = {t[0][m - 1] / t[0][0], t[1][m - 1] / t[1][0], t[2][m - 1] / t[2][0], span, span * span};
    for (int k = 0; k < 5; k++) snprintf(g[k], sizeof g[k], gv[k] >= 100 ? "%.0f" : "%.3g", gv[k]);
    sb_printf(o, TR(lang, "From n = %lld to %lld (%sx): conv1d took %sx as long, the RNN %sx,\n"
                    "self-attention %sx. Linear cost predicts %sx, quadratic %sx.\n"),
              (long long)ns[0], (long long)ns[m - 1], g[3], g[0], g[1], g[2], g[3], g[4]);
    sb_printf(o, TR(lang, "Log-log slopes (time ~ n^slope), fitted for n >= %lld: conv1d %.2f, RNN %.2f,\n"
                    "self-attention %.2f.\n"), (long long)fit_from, slopes[0], slopes[1], slopes[2]);
    /* what n²d operations predict is a slope of 2: say whether this run's slope is near it, and if not, so */
    if (slopes[2] > slopes[0] && slopes[2] > slopes[1] && fabs(slopes[2] - 2) <= 0.3)
        sb_puts(o, TR(lang, "Self-attention's slope is the largest and near 2: its time grows as n², as its\n"
                      "n²d operations predict.\n"));
    else if (slopes[2] > slopes[0] && slopes[2] > slopes[1] && slopes[2] < 2)
        sb_printf(o, TR(lang, "Self-attention's slope is the largest, but %.2f is below the 2 that its n²d\n"
                        "operations predict: at these n, costs that grow more slowly still weigh on its\n"
                        "time (or the machine was busy). Try larger ns, or repeats=7.\n"), slopes[2]);
    else if (slopes[2] > slopes[0] && slopes[2] > slopes[1])
        sb_printf(o, TR(lang, "Self-attention's slope is the largest, and %.2f is above the 2 that its n²d\n"
                        "operations predict: at the larger n its n×n scores no longer fit in the\n"
                        "processor's caches (or the machine was busy).\n"), slopes[2]);
    else
        sb_puts(o, TR(lang, "Self-attention's slope is not the largest here: at these sizes other costs hide\n"
                      "its n²d operations (or the machine was busy). Try larger ns, or repeats=7.\n"));
    int switches = 0, first = -1;
    for (int i = 1; i < m; i++)
        if ((t[2][i] > t[1][i]) != (t[2][i - 1] > t[1][i - 1])) { switches++; if (first < 0) first = i; }
    if (switches == 0)
        sb_puts(o, t[2][0] > t[1][0] ? TR(lang, "Self-attention was slower than the RNN at every n measured.\n")
                                     : TR(lang, "Self-attention was faster than the RNN at every n measured.\n"));
    else if (switches == 1)
        sb_printf(o, t[2][0] > t[1][0] ? TR(lang, "Self-attention was slower than the RNN up to n = %lld and faster from n = %lld.\n")
                                       : TR(lang, "Self-attention was faster than the RNN up to n = %lld and slower from n = %lld.\n"),
                  (long long)ns[first - 1], (long long)ns[first]);
    else
        sb_puts(o, TR(lang, "Self-attention and the RNN swapped places more than once: their times are close\n"
                      "here, or the measurement is noisy.\n"));
    sb_printf(o, TR(lang, "Counting operations (n²d against nd²), self-attention overtakes the RNN at\n"
                    "n = d = %lld"), (long long)d);
    /* compare with the measured crossing: from faster to slower between ns[first - 1] and ns[first] */
    bool rising = t[2][0] <= t[1][0];        /* faster at the smallest n */
    if (switches == 1 && rising && ns[first - 1] >= d)
        sb_puts(o, TR(lang, ". Measured, it did so later: the RNN's n steps run one after\n"
                      "another as small vector-by-matrix products, which use this one core less\n"
                      "well than self-attention's few large matrix products.\n"));
    else if (switches == 0 && rising && ns[m - 1] > d)
        sb_printf(o, TR(lang, ". Measured, not even at n = %lld: the RNN's n steps run one\n"
                        "after another as small vector-by-matrix products, which use this one core\n"
                        "less well than self-attention's few large matrix products.\n"), (long long)ns[m - 1]);
    else if (switches == 1 && rising && ns[first] < d)
        sb_printf(o, TR(lang, ". Measured, it was slower already at n = %lld.\n"), (long long)ns[first]);
    else if (switches == 0 && !rising && ns[0] < d)
        sb_printf(o, TR(lang, ". Measured, it was slower already at n = %lld.\n"), (long long)ns[0]);
    else if (switches == 1 && rising)
        sb_printf(o, TR(lang, ", and the measured crossing,\nbetween n = %lld and %lld, agrees.\n"), (long long)ns[first - 1], (long long)ns[first]);
    else sb_puts(o, TR(lang, ".\n"));
}

/* measure_layers(ns=[64, 128, 256, 512, 1024, 2048], d=64, k=3, repeats=5): a table of times and the slopes fitted
 * over the larger half of the sizes; returns {'n': [...], 'cnn': [...], 'rnn': [...], 'attention': [...],
 * 'slopes': {...}, 'fit_from': n} (seconds). */
static Value *bi_measure_layers(Interp *I, Args *a) {
    Value *p_[6];                               /* ns, d, k, repeats, quiet, plot */
    if (!args_bind(I, a, p_, 6)) return NULL;
    Value *pv = p_[5];
    bool want_plot = false;
    if (pv && !arg_bool(I, pv, "plot", &want_plot)) return NULL;
    int64_t ns[16] = {64, 128, 256, 512, 1024, 2048}, m = 6, d = 64, k = 3, reps = 5;
    bool quiet = false;
    Value *nv = p_[0], *dv = p_[1], *kv = p_[2], *rv = p_[3], *qv = p_[4];
    if (nv) {
        if (nv->kind != V_LIST && nv->kind != V_TUPLE) return rt_error(I, "measure_layers: ns must be a list of sequence lengths");
        if (nv->u.seq.n < 2 || nv->u.seq.n > 16) return rt_error(I, "measure_layers: give 2 to 16 sequence lengths");
        m = nv->u.seq.n;
        if (!arg_ints(I, nv->u.seq.items, m, "measure_layers: each n in ns", ns)) return NULL;
        for (int64_t i = 0; i < m; i++) {
            if (ns[i] < 2 || ns[i] > 8192) return rt_error(I, "measure_layers: each n must be between 2 and 8192");
        }
    }
    if ((dv && !arg_int(I, dv, "d", &d)) || (kv && !arg_int(I, kv, "k", &k)) || (rv && !arg_int(I, rv, "repeats", &reps)) ||
        (qv && !arg_bool(I, qv, "quiet", &quiet)))
        return NULL;
    if (d < 1 || d > 2048 || k < 1 || k > 15 || reps < 1 || reps > 15) return rt_error(I, "measure_layers: need 1 <= d <= 2048, 1 <= k <= 15, 1 <= repeats <= 15");
    double t[3][16], x[16];
    const char *names[3] = {"cnn", "rnn", "attention"};
    StrBuf o;
    sb_init(&o);
    if (!quiet) {
        sb_printf(&o, TR(I->run.lang, "Measured here: one layer of each, d = %lld, k = %lld, one thread's CPU time,\n"
                         "the fastest of %lld %s (§11.6.2)\n"), (long long)d, (long long)k, (long long)reps, unit(reps, TR(I->run.lang, "run"), TR(I->run.lang, "runs")));
        const char *sa_head = TR(I->run.lang, "self-attention (s)");       /* right-aligned in display columns */
        sb_puts(&o, "       n      conv1d (s)         RNN (s)");
        sb_pad(&o, ' ', 3 + 19 - tw_width(sa_head));
        sb_printf(&o, "%s\n", sa_head);
    }
    qsort(ns, (size_t)m, sizeof *ns, cmp_int64);
    for (int64_t i = 1; i < m; i++)                /* a slope needs different lengths: [64, 64] would fit one point */
        if (ns[i] == ns[i - 1]) { sb_free(&o); return rt_error(I, "measure_layers: each n once (%lld is given twice)", (long long)ns[i]); }
    /* the slopes are fitted where the leading term dominates: over the larger half of the sizes (all of two or three) */
    int first = m >= 4 ? (int)(m - 1) / 2 : 0;
    ten_set_blas_threshold(I->run.ten, 0); /* every product through BLAS, so all sizes are timed the same way */
    int threads = ten_threads(I->run.ten);
    ten_set_threads(I->run.ten, 1);        /* one core: threads that start only above some size would bend the slopes */
    for (int64_t i = 0; i < m; i++) {
        x[i] = (double)ns[i];
        for (int kind = 0; kind < 3; kind++) t[kind][i] = time_layer(I->run.ten, &I->run.rng, kind, ns[i], d, k, (int)reps);
        if (ten_interrupted) {
            ten_set_blas_threshold(I->run.ten, -1);
            ten_set_threads(I->run.ten, threads);
            sb_free(&o);
            return rt_interrupt(I);
        }
        if (!quiet) sb_printf(&o, "%8lld  %14.3e  %14.3e  %19.3e\n", (long long)ns[i], t[0][i], t[1][i], t[2][i]);
    }
    ten_set_blas_threshold(I->run.ten, -1);
    ten_set_threads(I->run.ten, threads);
    Value *r = val_dict(I->run.heap), *sl = val_dict(I->run.heap), *nl = val_list(I->run.heap, m);
    for (int64_t i = 0; i < m; i++) val_seq_set(nl, i, val_int(I->run.heap, ns[i]));
    dict_set(r->u.dict, "n", nl);
    for (int kind = 0; kind < 3; kind++) {
        Value *l = val_list(I->run.heap, m);
        for (int64_t i = 0; i < m; i++) val_seq_set(l, i, val_float(I->run.heap, t[kind][i]));
        dict_set(r->u.dict, names[kind], l);
        dict_set(sl->u.dict, names[kind], val_float(I->run.heap, slope(x + first, t[kind] + first, (int)m - first)));
    }
    if (!quiet) {
        double slopes[3];
        for (int kind = 0; kind < 3; kind++) slopes[kind] = val_as_double(dict_get(sl->u.dict, names[kind]));
        measured_conclusions(I->run.lang, &o, ns, (int)m, t, slopes, ns[first], d);
        interp_write(I, sb_str(&o));
    }
    sb_free(&o);
    dict_set(r->u.dict, "slopes", sl);
    dict_set(r->u.dict, "fit_from", val_int(I->run.heap, ns[first]));
    if (want_plot) {
        Value *pr = measure_figure(I, x, t, (int)m, first, sl);
        val_decref(pr);
        if (interp_failed(I)) { val_decref(r); return NULL; }
    }
    return r;
}

const Builtin bi_d2l_complexity[] = {
    {"complexity", bi_complexity, "complexity(n, d, k=3)",
     "The chapter's table for n tokens of d dimensions (2 <= n <= 10^6): computational complexity, with each O(...) "
     "evaluated, sequential operations and maximum path length of a CNN (kernel k), an RNN and self-attention; "
     "which is cheapest and whether self-attention costs more than the RNN (n against d).", "§11.6.2", 0, ""},
    {"path_length", bi_path_length, "path_length(n, k=3, dilated=False)",
     "Maximum path length of a stack of convolutions, computed on the layered dependency graph: the fewest layers "
     "after which x1 and xn reach a common output. Contiguous kernels give ceil((n-1)/(k-1)) (the book's O(n/k)), "
     "dilated ones ceil(log_k n).", "§11.6.2", 0, ""},
    {"receptive_field", bi_receptive_field, "receptive_field(n=5, k=3, layers=2, dilated=False)",
     "Draws which inputs reach which outputs after some layers of convolution (the chapter's figure: x1 and x5 meet "
     "after two layers of kernel 3), n up to 12, and returns the n×n reach matrix.", "§11.6.2", 0, ""},
    {"measure_layers", bi_measure_layers,
     "measure_layers(ns=[64, 128, 256, 512, 1024, 2048], d=64, k=3, repeats=5, quiet=False, plot=False)",
     "Times real conv1d, RNN and self-attention layers written in C on this machine (one thread's CPU time, the "
     "fastest of `repeats` runs), fits the log-log slope of time against n over the larger half of the sizes, and says what the times show: how "
     "fast each grew, and where self-attention became slower than the RNN compared with n = d. Returns a dict with "
     "the times, the slopes and fit_from (the smallest n in the fit); quiet=True prints nothing, plot=True draws "
     "them on log-log axes with the fitted lines.", "§11.6.2", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* cmap.c - matplotlib's colour maps, sampled at evenly spaced stops (the ColorBrewer maps exactly: matplotlib
 * builds them from these 9 or 11 colours; the others at 17 stops), and the perceptual match of a colour in the
 * xterm 256-colour palette (OKLab distance over the 6×6×6 cube and the grey ramp). */
#include "plot_internal.h"
#include <math.h>
#include <string.h>

static const Cmap maps[] = {
    {"Reds", 9, {0xfff5f0, 0xfee0d2, 0xfcbba1, 0xfc9272, 0xfb694a, 0xee3a2c, 0xca181d, 0xa30f15, 0x67000d}},
    {"Blues", 9, {0xf7fbff, 0xdeebf7, 0xc6dbef, 0x9dcae1, 0x6aaed6, 0x4191c6, 0x2070b4, 0x08509b, 0x08306b}},
    {"Greens", 9, {0xf7fcf5, 0xe5f5e0, 0xc7e9c0, 0xa0d99b, 0x73c476, 0x40aa5d, 0x228a44, 0x006c2c, 0x00441b}},
    {"Greys", 9, {0xffffff, 0xf0f0f0, 0xd9d9d9, 0xbdbdbd, 0x959595, 0x727272, 0x515151, 0x242424, 0x000000}},
    {"Oranges", 9, {0xfff5eb, 0xfee6ce, 0xfdd0a2, 0xfdae6a, 0xfd8c3b, 0xf16813, 0xd84801, 0xa53603, 0x7f2704}},
    {"Purples", 9, {0xfcfbfd, 0xefedf5, 0xdadaeb, 0xbcbddc, 0x9e9ac8, 0x807cba, 0x6950a3, 0x53268f, 0x3f007d}},
    {"YlOrRd", 9, {0xffffcc, 0xffeda0, 0xfed976, 0xfeb24c, 0xfd8c3c, 0xfc4d2a, 0xe2191c, 0xbb0026, 0x800026}},
    {"RdBu", 11, {0x67001f, 0xb1182b, 0xd6604d, 0xf3a481, 0xfddbc7, 0xf6f7f7, 0xd1e5f0, 0x90c4dd, 0x4393c3, 0x2065ab, 0x053061}},
    {"viridis", 17, {0x440154, 0x48186a, 0x472d7b, 0x424086, 0x3b528b, 0x33638d, 0x2c728e, 0x26828e, 0x21918c, 0x1fa088,
                     0x28ae80, 0x3fbc73, 0x5ec962, 0x84d44b, 0xaddc30, 0xd8e219, 0xfde725}},
    {"magma", 17, {0x000004, 0x0a0822, 0x1d1147, 0x36106b, 0x51127c, 0x6a1c81, 0x832681, 0x9c2e7f, 0xb73779, 0xd0416f,
                   0xe75263, 0xf56b5c, 0xfc8961, 0xfea772, 0xfec488, 0xfde2a3, 0xfcfdbf}},
    {"plasma", 17, {0x0d0887, 0x310597, 0x4c02a1, 0x6600a7, 0x7e03a8, 0x9511a1, 0xaa2395, 0xbc3587, 0xcc4778, 0xda5a6a,
                    0xe66c5c, 0xf0804e, 0xf89540, 0xfdac33, 0xfdc527, 0xf8df25, 0xf0f921}},
    {"coolwarm", 17, {0x3b4cc0, 0x4e68d8, 0x6282ea, 0x779af7, 0x8db0fe, 0xa3c2fe, 0xb9d0f9, 0xccd9ed, 0xdddcdc, 0xecd3c5,
                      0xf5c4ac, 0xf7b093, 0xf4987a, 0xeb7d62, 0xdd5f4b, 0xca3b37, 0xb40426}},
    {"gray", 2, {0x000000, 0xffffff}},
};

const char *plot_cmap_names(void) {
    return "Reds, Blues, Greens, Greys, Oranges, Purples, YlOrRd, RdBu, viridis, magma, plasma, coolwarm, gray, "
           "each also reversed with _r (Blues_r)";
}

const Cmap *cmap_find(const char *name, bool *reversed) {
    size_t n = strlen(name);
    *reversed = n > 2 && !strcmp(name + n - 2, "_r");
    if (*reversed) n -= 2;
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        if (strlen(maps[i].name) == n && !strncmp(name, maps[i].name, n)) return &maps[i];
    return NULL;
}

bool plot_cmap_valid(const char *name) {
    bool r;
    return cmap_find(name, &r) != NULL;
}

unsigned cmap_rgb(const Cmap *c, bool reversed, double t) {
    if (!(t >= 0)) t = 0;      /* NaN too */
    if (t > 1) t = 1;
    if (reversed) t = 1 - t;
    double p = t * (c->n - 1);
    int k = (int)p;
    if (k >= c->n - 1) k = c->n - 2;
    double f = p - k;
    unsigned out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        double a = (c->rgb[k] >> sh) & 255, b = (c->rgb[k + 1] >> sh) & 255;
        out |= (unsigned)(a + (b - a) * f + 0.5) << sh;
    }
    return out;
}

/* sRGB 0xRRGGBB -> OKLab (Ottosson 2020): perceptually even, and unlike CIELAB it keeps blues blue, so Blues'
 * dark end stays navy instead of turning purple or teal. */
static void oklab(unsigned rgb, double out[3]) {
    double c[3];
    for (int i = 0; i < 3; i++) {
        double v = ((rgb >> (16 - 8 * i)) & 255) / 255.0;
        c[i] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    double l = cbrt(0.4122214708 * c[0] + 0.5363325363 * c[1] + 0.0514459929 * c[2]);
    double m = cbrt(0.2119034982 * c[0] + 0.6806995451 * c[1] + 0.1073969566 * c[2]);
    double s = cbrt(0.0883024619 * c[0] + 0.2817188376 * c[1] + 0.6299787005 * c[2]);
    out[0] = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
    out[1] = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
    out[2] = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
}

/* The xterm palette's colour n (16..255): the cube levels 0, 95, 135, 175, 215, 255 and greys 8, 18, ..., 238. */
static unsigned xterm_rgb(int n) {
    static const int level[6] = {0, 95, 135, 175, 215, 255};
    if (n >= 232) { unsigned g = (unsigned)(8 + 10 * (n - 232)); return g << 16 | g << 8 | g; }
    n -= 16;
    return (unsigned)level[n / 36] << 16 | (unsigned)level[n / 6 % 6] << 8 | (unsigned)level[n % 6];
}

/* CIELAB's L* (0 black .. 100 white) of sRGB 0xRRGGBB: lightness as the eye orders it, from the luminance Y. */
static double lstar(unsigned rgb) {
    double c[3];
    for (int i = 0; i < 3; i++) {
        double v = ((rgb >> (16 - 8 * i)) & 255) / 255.0;
        c[i] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    double y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    return y > 216.0 / 24389 ? 116 * cbrt(y) - 16 : y * 24389.0 / 27;
}

#define NMAPS (sizeof maps / sizeof *maps)

/* The tables below are pure functions of the constants above, computed at build time: cmap_tables.h is written by
 * scripts/gen-cmap-tables from cmap_tables_compute, and test_plot recomputes them and compares (cmap_tables). */
#ifdef CMAP_BOOTSTRAP
static const CmapTables generated;     /* the generator's own build: the tables are what it computes */
#else
#include "cmap_tables.h"
#endif
_Static_assert(sizeof generated.ramps / sizeof *generated.ramps == NMAPS, "cmap_tables.h has one ramp per map: run scripts/gen-cmap-tables");

const CmapTables *cmap_tables(void) { return &generated; }

/* The palette's colours 16..255 in OKLab (lab) and their L* (lstar). */
static void palette_compute(CmapTables *t) {
    for (int n = 16; n < 256; n++) {
        oklab(xterm_rgb(n), t->lab[n - 16]);
        t->lstar[n - 16] = lstar(xterm_rgb(n));
    }
}

int cmap_xterm256(unsigned rgb) {
    const double (*table)[3] = generated.lab;
    double want[3], best = INFINITY;
    int pick = 16;
    oklab(rgb, want);
    for (int n = 0; n < 240; n++) {
        double dl = table[n][0] - want[0], da = table[n][1] - want[1], db = table[n][2] - want[2];
        double d = dl * dl + da * da + db * db;
        if (d < best) { best = d; pick = n + 16; }
    }
    return pick;
}

/* The weight of a change of hue or colourfulness from one sample's colour to the next: the palette has few colours
 * near a map's, and a ramp that hops between them (cyan, slate, blue in Blues) draws stripes that are not in the
 * data. */
#define HUE_STEP 3.0

/* The map's CMAP_RAMP samples as xterm colours: the sequence nearest to the map (least sum of squared OKLab
 * distances) among those whose L* goes the way the map's own L* goes from each sample to the next (up, down, or
 * either where it is flat), so a light-to-dark map stays light to dark (the nearest colour of each sample alone ran
 * Blues from white through greys, teal and slate to navy). Dynamic programming over the 240 cube and grey colours,
 * with the palette of t and the caller's scratch s. */
static void ramp_compute(const Cmap *c, const CmapTables *t, CmapScratch *s, int out[CMAP_RAMP]) {
    enum { RAMP = CMAP_RAMP };
    const double (*table)[3] = t->lab, *table_l = t->lstar;
    double want[3], lr[RAMP];
    for (int k = 0; k < RAMP; k++) lr[k] = lstar(cmap_rgb(c, false, (double)k / (RAMP - 1)));
    for (int k = 0; k < RAMP; k++) {
        oklab(cmap_rgb(c, false, (double)k / (RAMP - 1)), want);
        double dir = k ? lr[k] - lr[k - 1] : 0;
        for (int j = 0; j < 240; j++) {
            double d0 = table[j][0] - want[0], d1 = table[j][1] - want[1], d2 = table[j][2] - want[2], best = 0;
            int from = 0;
            if (k) {
                best = INFINITY;
                for (int i = 0; i < 240; i++) {
                    bool ok = fabs(dir) < 0.05 || (dir > 0 ? table_l[j] >= table_l[i] : table_l[j] <= table_l[i]);
                    double da = table[j][1] - table[i][1], db = table[j][2] - table[i][2];
                    double via = s->cost[k - 1][i] + HUE_STEP * (da * da + db * db);
                    if (ok && via < best) { best = via; from = i; }
                }
            }
            s->cost[k][j] = best + d0 * d0 + d1 * d1 + d2 * d2;
            s->back[k][j] = (unsigned char)from;
        }
    }
    int j = 0;
    for (int i = 1; i < 240; i++)
        if (s->cost[RAMP - 1][i] < s->cost[RAMP - 1][j]) j = i;
    for (int k = RAMP - 1; k >= 0; k--) {
        out[k] = j + 16;
        j = s->back[k][j];
    }
}

int cmap_tables_compute(CmapTables *t, CmapScratch *s) {
    palette_compute(t);
    for (size_t m = 0; m < NMAPS; m++) ramp_compute(&maps[m], t, s, t->ramps[m]);
    return (int)NMAPS;
}

int cmap_xterm256_at(const Cmap *c, bool reversed, double t) {
    size_t m = (size_t)(c - maps);
    if (m >= NMAPS) return cmap_xterm256(cmap_rgb(c, reversed, t));
    if (!(t >= 0)) t = 0;      /* NaN too */
    if (t > 1) t = 1;
    if (reversed) t = 1 - t;
    return generated.ramps[m][(int)lround(t * (CMAP_RAMP - 1))];
}

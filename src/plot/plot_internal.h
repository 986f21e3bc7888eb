/* plot_internal.h - what the files of src/plot/ share: the canvas a figure is drawn on (script.c turns a Figure
 * into gnuplot commands for it), attn's own terminal drawing (textplot.c) and matplotlib's colour maps (cmap.c). */
#ifndef ATTN_PLOT_INTERNAL_H
#define ATTN_PLOT_INTERNAL_H
#include "plot.h"

typedef enum { CV_SVG, CV_PNG, CV_PDF, CV_WINDOW, CV_SIXEL, CV_DUMB } CanvasKind;
typedef enum { COLOUR_NONE, COLOUR_256, COLOUR_TRUE } ColourMode;

/* Where a figure is drawn. Pixel canvases keep the book's proportions at any size: the figure is figsize × ppi
 * pixels, text 10 pt and lines 1.5 pt at that many pixels per inch (matplotlib's defaults). The dumb canvas and
 * attn's text heatmaps count characters instead. */
typedef struct Canvas {
    CanvasKind kind;
    int width, height;        /* pixels; characters for CV_DUMB and text heatmaps */
    double ppi;               /* pixels per inch of figsize (pixel canvases) */
    ColourMode colour;        /* CV_DUMB and text heatmaps */
    const char *window;       /* CV_WINDOW: "qt", "wxt" or "x11" */
    int x, y;                 /* CV_WINDOW: where its top left corner goes on the screen; -1: where gnuplot puts it */
    bool teaching;            /* CV_WINDOW: a projector's window: no hotkeys, never raised, closed with the class */
    I18nLang lang;            /* the session's language (Plot.lang): which CJK family gd draws wide labels in */
} Canvas;

/* script.c: the whole gnuplot input for fig on cv: the terminal, then `set output` to the file output ("" for
 * gnuplot's standard output, NULL for no output line at all, as the script target prints it), then the figure.
 * For CV_SIXEL, output is a temporary .png: cairo draws there, then gnuplot sends that picture as sixel to its
 * standard output. */
void plot_script(const Figure *fig, const Canvas *cv, const char *output, StrBuf *out);
/* The canvas of a file by extension (.svg, .png, .pdf) at the figure's size. */
Canvas plot_file_canvas(const Figure *fig, const char *ext);

/* script.c: the range attn gives an axis (0 x, 1 y: the limits asked for, else the data with 5% margins), false
 * when it leaves the choice to gnuplot; and the colour of series s (its fmt's, else matplotlib's cycle). */
bool plot_axis_range(const Figure *f, int axis, double r[2]);
unsigned plot_series_rgb(const Figure *f, int s);

/* textlines.c: line plots whose curves cross each other, drawn by attn as stacked panels (one per series, a shared
 * x axis) with braille dots; plot_text_panels_fit says whether a figure is one of them and fits cv. */
bool plot_text_panels_fit(const Figure *fig, const Canvas *cv);
void plot_text_panels(const Figure *fig, const Canvas *cv, StrBuf *out);
/* Does the terminal show UTF-8 (the locale's LC_ALL, LC_CTYPE or LANG, the first one set, names UTF-8)? */
bool plot_utf8_output(void);
/* A tick value as text: %g, its minus sign U+2212 as matplotlib's when utf8. */
void plot_tick_text(StrBuf *out, double v, bool utf8);
/* A number already formatted (num), appended with each '-' as U+2212 when utf8, as it is. */
void plot_number_text(StrBuf *out, const char *num, bool utf8);

/* textplot.c: heatmaps drawn with coloured half blocks (or shade characters without colour), fitted into
 * cv->width × cv->height characters: averaged down when larger, cells enlarged when small; labelled rows and
 * columns, panel titles, one shared colour scale. */
void plot_text_heatmaps(const Figure *fig, const Canvas *cv, StrBuf *out);

/* model.c: drops control characters from every text of the figure (labels, titles, legend), in place. */
void plot_figure_clean_text(Figure *f);

/* cmap.c: matplotlib's colour maps as stops; the colour at t in [0, 1] as 0xRRGGBB. */
typedef struct Cmap { const char *name; int n; unsigned rgb[17]; } Cmap;
const Cmap *cmap_find(const char *name, bool *reversed);
unsigned cmap_rgb(const Cmap *c, bool reversed, double t);
/* The xterm-256 colour (16..255) nearest to rgb in OKLab, so the 256-colour terminal keeps the map's lightness. */
int cmap_xterm256(unsigned rgb);
/* The xterm-256 colour for the map at t: the nearest that keeps the map's order of lightness (L* monotone where the
 * map's is), so a 256-colour terminal shows a light-to-dark ramp as one. */
int cmap_xterm256_at(const Cmap *c, bool reversed, double t);
/* What cmap_xterm256 and cmap_xterm256_at read, computed from the maps and the palette at build time
 * (scripts/gen-cmap-tables writes src/plot/cmap_tables.h): the palette's colours 16..255 in OKLab and their L*,
 * and each map's CMAP_RAMP samples as xterm colours. CMAP_NMAPS is the number of maps (cmap.c asserts it). */
enum { CMAP_RAMP = 65, CMAP_NMAPS = 13 };
typedef struct CmapTables { double lab[240][3]; double lstar[240]; int ramps[CMAP_NMAPS][CMAP_RAMP]; } CmapTables;
/* The ramp search's scratch (125 KB: the caller's, off the stack). */
typedef struct CmapScratch { double cost[CMAP_RAMP][240]; unsigned char back[CMAP_RAMP][240]; } CmapScratch;
const CmapTables *cmap_tables(void);                       /* the generated tables */
int cmap_tables_compute(CmapTables *t, CmapScratch *s);    /* computes them into t; returns the number of maps */

/* xwin.c: the X server asked directly (libX11 loaded when first needed; NULL / false / 0 without it or a display).
 * The screen's size in pixels; the window that has the keyboard focus (0: none); xwin_keep_focus gives the focus
 * back to `keep` when a window manager moves it to a figure window within ms milliseconds. */
XWin *xwin_open(void);
void xwin_close(XWin *x);
bool xwin_screen_size(XWin *x, int *w, int *h);
unsigned long xwin_focus(XWin *x);
void xwin_keep_focus(XWin *x, unsigned long keep, int ms);
/* script.c's helpers that script_heatmap.c shares: the name of the inline data blocks; gp_num writes v as gnuplot reads
 * it (NaN when not finite); pt is one point of the figure in canvas units; nice_step a step of 1, 2 or 5 times a power
 * of ten giving at most max_ticks ticks over span; label_at a text label at screen position (x, y) in canvas units. */
#define EOD "EOD_attn"
void gp_num(StrBuf *o, double v);
double pt(const Canvas *cv);
double nice_step(double span, int max_ticks, bool integer);
void label_at(StrBuf *o, const Canvas *cv, const char *text, const char *xcoord, double x, double y,
              const char *how, double font_scale);
/* script_heatmap.c: the commands of a heatmaps figure (d2l.show_heatmaps) on cv */
void heatmaps_script(const Figure *f, const Canvas *cv, StrBuf *o);

#endif

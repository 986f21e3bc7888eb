/* plot.h - figures drawn by one live gnuplot (prefix plot_). A figure is gnuplot command text built only from fixed
 * templates, numbers and quoted strings (plot_quote): no text from a user or a lesson is ever a command. The
 * renderer adds the terminal for where the figure goes: a window, the terminal itself (dumb/sixel), files, or
 * nowhere (a one-line summary, or the full script for golden tests). */
#ifndef ATTN_PLOT_H
#define ATTN_PLOT_H
#include "strbuf.h"
#include <stdbool.h>

typedef enum {
    PT_AUTO,        /* window with a display, else the terminal at a tty, else summary */
    PT_WINDOW,      /* qt, wxt or x11 */
    PT_TERMINAL,    /* gnuplot's dumb terminal, sized to the terminal, coloured unless NO_COLOR */
    PT_SIXEL,       /* sixelgd, for terminals that show sixel images */
    PT_FILES,       /* every figure to an .svg file in $ATTN_PLOT_DIR (default: the current directory) */
    PT_SUMMARY,     /* a one-line description only */
    PT_SCRIPT,      /* the gnuplot commands, printed (deterministic: used by golden tests) */
    PT_NONE         /* nothing at all */
} PlotTarget;

typedef struct Figure {
    StrBuf body;          /* datablocks and commands, without terminal or output */
    StrBuf summary;       /* "figure 1: 4 lines of 60 points; xlabel 'Row (position)'" */
    double width_in, height_in;
    bool is_heatmap;
} Figure;

/* Where figures go: from $ATTN_PLOT at start, from plot_target("...") later. */
void plot_init_from_env(void);
bool plot_set_target(const char *name);             /* false for an unknown name */
PlotTarget plot_target(void);                        /* as set (may be PT_AUTO) */
PlotTarget plot_resolved_target(bool tty);           /* PT_AUTO decided for this session */
const char *plot_target_name(PlotTarget t);
void plot_describe(StrBuf *out, bool tty);           /* for `help plot` */

/* Appends s to out as a gnuplot single-quoted string: quotes doubled, control characters dropped. */
void plot_quote(StrBuf *out, const char *s);
/* A file name savefig accepts: letters, digits, . _ - / only, no "..", no leading '-', ending .svg .png or .pdf. */
bool plot_safe_filename(const char *name, char *why, size_t whylen);

/* Shows a figure where figures go (and keeps it as the last figure for savefig). Text meant for the user (summary,
 * script, messages) is appended to out; gnuplot's dumb/sixel drawing goes to the terminal directly. Returns false
 * with a message in err when gnuplot failed or is missing. Takes ownership of fig. */
bool plot_show(Figure *fig, StrBuf *out, bool tty, char *err, size_t errlen);
/* Keeps fig as the last figure (for savefig) without drawing it: the caller drew it. Takes ownership. */
void plot_keep(Figure *fig);
/* Renders the last figure to a file (svg, png or pdf by extension), atomically. */
bool plot_savefig(const char *path, StrBuf *out, char *err, size_t errlen);
int plot_figure_count(void);
void plot_reset(void);                               /* figure numbers start again at 1; no last figure */

/* The gnuplot process (gnuplot.c). */
bool gp_available(void);                             /* gnuplot found on PATH */
/* Sends commands, waits for gnuplot to finish them; gnuplot's messages go to *messages (caller frees). */
bool gp_run(const char *commands, char **messages, char *err, size_t errlen);
bool gp_has_terminal(const char *name);              /* from GPVAL_TERMINALS */
void gp_shutdown(void);
int gp_pid(void);                                    /* for tests: 0 when not running */
#endif

/* plot.h - figures drawn by one live gnuplot (prefix plot_). A Figure is data: the book's series or matrices with
 * their labels and figsize in inches. Where it is shown decides how it is drawn: the renderer (src/plot/) turns it
 * into gnuplot commands for that canvas (a window, the terminal itself as characters or sixel, a file) with the
 * book's proportions (10 pt text, 1.5 pt lines, matplotlib's colours), or attn draws it itself (heatmaps in the
 * terminal), or describes it in one line. Commands are built only from fixed templates, numbers and quoted strings
 * (plot_quote): no text from a user or a lesson is ever a command. */
#ifndef ATTN_PLOT_H
#define ATTN_PLOT_H
#include "strbuf.h"
#include "attnerr.h"
#include "i18n.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum {
    PT_AUTO,        /* window with a display, else the terminal at a tty, else summary */
    PT_WINDOW,      /* qt, wxt or x11 */
    PT_TERMINAL,    /* gnuplot's dumb terminal, sized to the terminal, coloured unless NO_COLOR */
    PT_SIXEL,       /* sixelgd, for terminals that show sixel images */
    PT_FILES,       /* every figure to an .svg file in $ATTN_PLOT_DIR (default: the current directory) */
    PT_SUMMARY,     /* a one-line description only */
    PT_SCRIPT,      /* the gnuplot commands, printed (deterministic: used by golden tests) */
    PT_NONE,        /* nothing at all */
    PT_INLINE       /* what auto means in a Jupyter kernel (attn --frames): SVG and PNG handed to Plot.inline_out; not a
                     * name plot_target() or ATTN_PLOT accept */
} PlotTarget;

typedef enum { FIG_LINES, FIG_HEATMAPS } FigureKind;

/* One line of d2l.plot: n points (x NULL means 0, 1, ..., n-1), drawn with a matplotlib format string. */
typedef struct PlotSeries {
    double *x, *y;        /* owned; n values each */
    int64_t n;
    char *label;          /* legend entry (owned), NULL for none */
    char fmt[16];         /* '-', 'm--', 'g-.', 'r:', 'bo', 'C1-' ... */
} PlotSeries;

/* An arrow in data coordinates (the rotation figure: from the pair at i to the pair at i + delta). */
typedef struct PlotArrow { double x0, y0, x1, y1; } PlotArrow;
/* A short mark beside a point (letters, digits, '=', '+', '-', '.' only: it is data, never a command). */
typedef struct PlotMark { double x, y; char text[12]; } PlotMark;

typedef struct Figure {
    FigureKind kind;
    int number;                    /* figure N, given when it is shown */
    double width_in, height_in;    /* figsize */
    char *xlabel, *ylabel, *title; /* owned, NULL when absent */
    /* FIG_LINES */
    PlotSeries *series;            /* nseries of them */
    int nseries;
    PlotArrow *arrows;             /* narrows of them, drawn with arrow_fmt's colour, in the legend as arrow_label */
    int narrows;
    char arrow_fmt[16];
    char *arrow_label;             /* owned, NULL for none */
    PlotMark *marks;               /* nmarks of them */
    int nmarks;
    double xlim[2], ylim[2];       /* NaN when automatic */
    bool logx, logy;
    bool equal_axes;               /* one unit is as long on x as on y (circles stay round) */
    /* FIG_HEATMAPS: rows × cols panels of h × w values, (rows, cols, h, w) row-major, as show_heatmaps' matrices */
    int64_t rows, cols, h, w;
    double *values;                /* owned */
    double lo, hi;                 /* the colour range: smallest and largest finite value (lo < hi) */
    char *cmap;                    /* a colour map plot_cmap_valid accepts */
    char **titles;                 /* ntitles panel titles, one per column as the book does */
    int ntitles;
} Figure;

/* Figures: an empty one of a kind and size (free with plot_figure_free), and the pieces the builtins add. */
Figure *plot_figure_new(FigureKind kind, double width_in, double height_in);
void plot_figure_free(Figure *f);
/* Adds a series; takes x (may be NULL) and y, copies fmt and label (label may be NULL). */
PlotSeries *plot_add_series(Figure *f, double *x, double *y, int64_t n, const char *fmt, const char *label);
void plot_add_arrow(Figure *f, double x0, double y0, double x1, double y1);
void plot_add_mark(Figure *f, double x, double y, const char *text);
/* Sets the heatmap values (takes ownership) and their colour range. */
void plot_set_matrices(Figure *f, int64_t rows, int64_t cols, int64_t h, int64_t w, double *values);
/* The one-line description: "figure 2: 4 lines of 60 points, x 0..59, y -1..1; xlabel 'Row (position)'". The x and
 * y ranges only when asked: they stand in for a figure the reader cannot see, but a golden transcript of measured
 * data (lesson 2's timings) must not depend on them. */
void plot_summary(const Figure *f, bool ranges, StrBuf *out);

/* matplotlib colour maps attn knows (Reds, Blues, viridis ... and each with _r reversed). */
bool plot_cmap_valid(const char *name);
const char *plot_cmap_names(void);                   /* for messages: "Reds, Blues, ..." */

typedef struct Gnuplot Gnuplot;        /* one gnuplot process (gnuplot.c) */

/* Where a Jupyter kernel (attn --frames) takes its figures: each one is drawn by gnuplot as savefig draws it, into
 * files in dir (the kernel's own temporary directory: these are attn's files, not the notebook's, and are removed
 * at once), then handed over as bytes with the figure's summary line. show must not keep the buffers. */
typedef struct PlotInline {
    const char *dir;
    void (*show)(void *ctx, int number, const StrBuf *svg, const StrBuf *png, const char *summary);
    void *ctx;
} PlotInline;

/* The plotting state of one session: where figures go, how many were shown, the last one (for savefig), and the
 * live gnuplot that draws them. Owned by the Session; nothing about plots lives outside it. */
typedef struct XWin XWin;
/* What the terminal said about itself when this session first asked (figure.c's terminal_ask): whether it draws
 * sixel images, its character cell and text area in pixels (0: not said). */
typedef struct TermInfo { bool asked, sixel; int cell_w, cell_h, area_w, area_h; } TermInfo;
typedef struct Plot {
    PlotTarget target;    /* as set (may be PT_AUTO) */
    int figures;          /* figures shown so far: numbers in summaries and file names */
    Figure *last;         /* the last figure, for savefig (owned), NULL before the first */
    bool hinted;          /* the "output is not a terminal" hint was given */
    struct FilePolicy *files;           /* where figure files may be written (the session's; NULL: anywhere) */
    Gnuplot *gp;          /* started at the first plot that needs it, NULL until then (owned) */
    bool replay;          /* a transcript's replay: targets that draw (auto, window, terminal, sixel) are asked, not used */
    PlotTarget asked;     /* ... the last one asked, which plot_target() answers */
    const PlotInline *inline_out;    /* a Jupyter kernel's: auto shows figures inline (NULL elsewhere; not owned) */
    bool teaching;        /* a class (attn teach): windows fit the screen, take no keys, close when the class ends */
    struct XWin *x;       /* the X display asked about screen size and focus (teaching; NULL until then, owned) */
    unsigned long window_id;    /* the X window (x11) or the gnuplot (wxt, qt) of the last figure; 0: none yet */
    /* the live figure (a d2l.ProgressBoard as it trains: plot_live) */
    Figure *live_pending;       /* its newest state, not drawn yet (owned), NULL when drawn */
    int live_number;            /* its figure number, 0: none yet */
    int live_rows;              /* terminal rows its last drawing took, the cursor on the row after them; 0 when
                                 * something else was drawn since (then it is drawn anew below) */
    bool live_announced;        /* its window's note was printed */
    bool live_dirty;            /* plot_live was called since the last plot_live_flush */
    uint64_t live_mark;         /* the caller's count of its writes after the last drawing (Interp.streamed): the
                                 * caller sets live_rows to 0 when more was written since */
    double live_drawn_at;       /* when it was last drawn (monotonic seconds) */
    double live_cost;           /* how long that drawing took (seconds): the next waits 9 times as long, at least */
    TermInfo term;              /* the terminal's answers, asked at the first figure that needs them */
    I18nLang lang;              /* the session's language (RunContext.lang): gd's CJK font for labels in it */
} Plot;

/* Where figures go: from $ATTN_PLOT (plot_init), from plot_target("...") later. */
void plot_init(Plot *P);                             /* target from $ATTN_PLOT, no gnuplot yet */
void plot_free(Plot *P);                             /* quits its gnuplot (windows opened with persist stay) */
bool plot_env_check(void);                           /* false, with a message, when $ATTN_PLOT names no target */
bool plot_set_target(Plot *P, const char *name);     /* false for an unknown name */
/* A replay's plots (transcripts, --check): figures stay one-line summaries whatever target a recorded class asked
 * for (a class's plot_target('window') must not open a window or draw in the replay's output, nor its
 * plot_target('files') write files where the replay runs: its figures print the line the class recorded for each);
 * the targets that print text (summary, script, none) still apply. */
void plot_replay(Plot *P);
PlotTarget plot_target(const Plot *P);               /* as set (may be PT_AUTO) */
PlotTarget plot_resolved_target(Plot *P, bool tty);  /* PT_AUTO decided for this session */
const char *plot_target_name(PlotTarget t);
void plot_describe(Plot *P, StrBuf *out, bool tty);  /* for `help plot` */

/* Appends s to out as a gnuplot string expression: the text between quotes in single-quoted pieces, each ' as "'"
 * ('a'."'".'b'; gnuplot's scanner misreads a doubled '' at the start of a string or twice in a row), control
 * characters dropped. Never a backtick inside double quotes, so nothing in s runs. */
void plot_quote(StrBuf *out, const char *s);
/* A file name savefig accepts: letters and digits (of any script: 図1.png), . _ - / only, no "..", no leading '-',
 * ending .svg .png or .pdf. */
bool plot_safe_filename(const char *name, AttnError *why);

/* Shows a figure where figures go (and keeps it as the last figure for savefig). Text meant for the user (summary,
 * script, messages, attn's own terminal heatmaps) is appended to out; gnuplot's dumb/sixel drawing goes to the
 * terminal directly. Returns false with a message in err when gnuplot failed or is missing. Takes ownership of fig. */
bool plot_show(Plot *P, Figure *fig, StrBuf *out, bool tty, AttnError *err);
/* Renders the last figure to a file (svg, png or pdf by extension), atomically. */
bool plot_savefig(Plot *P, const char *path, StrBuf *out, AttnError *err);
int plot_figure_count(const Plot *P);
/* A live figure, redrawn as it changes (d2l.ProgressBoard while a model trains): *number is its figure number (0 for
 * a new one: the next number is taken and stored there). It is drawn at most every PLOT_LIVE_INTERVAL seconds (and
 * spends at most a tenth of the time drawing: 9 times its last drawing's time passes before the next), in a
 * window over its last drawing, in the terminal back over its last rows (when nothing was shown since); newer states
 * in between wait as pending, and so does every state for the text targets (summary, script, files, inline, sixel),
 * which show only the last one: plot_live_flush draws what is pending (after each statement). Takes ownership of
 * fig; false with err set as plot_show. */
#define PLOT_LIVE_INTERVAL 0.1
bool plot_live(Plot *P, Figure *fig, int *number, bool tty, StrBuf *out, AttnError *err);
bool plot_live_flush(Plot *P, bool tty, StrBuf *out, AttnError *err);
void plot_reset(Plot *P);                            /* figure numbers start again at 1; no last figure */
/* Figure numbers go on from n + 1 (n: an earlier plot_figure_count): figures drawn for no one to see (a lesson's
 * silent re-runs) leave the numbers as the class saw them. */
void plot_rewind(Plot *P, int n);

/* The gnuplot process (gnuplot.c). A Gnuplot is created empty; the process starts at the first gp_run. */
bool gp_available(void);                             /* gnuplot found on PATH */
Gnuplot *gp_new(void);
void gp_free(Gnuplot *g);                            /* quit, wait a moment, then stop it */
/* Sends commands, waits for gnuplot to finish them; gnuplot's messages go to *messages (caller frees); *restarted
 * when the gnuplot of the last call had stopped (killed, its window's process gone) and a fresh one drew this. */
bool gp_run(Gnuplot *g, const char *commands, char **messages, bool *restarted, AttnError *err);
bool gp_has_terminal(Gnuplot *g, const char *name);  /* from GPVAL_TERMINALS */
int gp_pid(const Gnuplot *g);                        /* for tests: 0 when not running */
#endif

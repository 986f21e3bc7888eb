/* figure.c - where figures go, and the canvas each place gives a figure: a window, the terminal (gnuplot's dumb
 * terminal for line plots, attn's own drawing for heatmaps, sized to the terminal, truecolor when COLORTERM says so,
 * no colour under NO_COLOR; sixel pictures sized from the terminal's cell size), .svg files, a one-line summary or
 * the script. Also the last figure, kept for savefig(), and the quoting every string goes through. */
#include "plot_internal.h"
#include "textwidth.h"
#include "files.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <unictype.h>


static const char *names[] = {"auto", "window", "terminal", "sixel", "files", "summary", "script", "none", "inline"};

const char *plot_target_name(PlotTarget t) { return names[t]; }

static bool target_named(const char *name, PlotTarget *t) {
    for (int i = 0; i < (int)PT_INLINE; i++)           /* inline is the kernel's auto, never asked for by name */
        if (!strcmp(name, names[i])) { *t = (PlotTarget)i; return true; }
    return false;
}

bool plot_set_target(Plot *P, const char *name) {
    PlotTarget t;
    if (!target_named(name, &t)) return false;
    P->asked = t;
    if (!P->replay || (t != PT_AUTO && t != PT_WINDOW && t != PT_TERMINAL && t != PT_SIXEL && t != PT_FILES)) P->target = t;
    else P->target = PT_SUMMARY;
    return true;
}

void plot_replay(Plot *P) {
    P->replay = true;
    P->asked = PT_SUMMARY;          /* what plot_target() answers until a statement asks: the same on every machine */
    P->target = PT_SUMMARY;
}

/* $ATTN_FIGURE_SCALE as a number from 0.5 to 4 in *scale; false when it is set to anything else (unset or empty:
 * true, and 1). */
static bool scale_env(double *scale) {
    const char *e = getenv("ATTN_FIGURE_SCALE");
    char *end;
    *scale = 1;
    if (!e || !*e) return true;
    double v = strtod(e, &end);
    if (*end || !(v >= 0.5 && v <= 4)) return false;
    *scale = v;
    return true;
}

/* How much larger than figsize × 144 pixels a window draws its figures: $ATTN_FIGURE_SCALE (a projector), else 1. */
static double figure_scale(void) {
    double s;
    return scale_env(&s) ? s : 1;
}

bool plot_env_check(void) {
    const char *e = getenv("ATTN_PLOT");
    PlotTarget t;
    double s;
    bool ok = true;
    if (e && *e && !target_named(e, &t)) {
        err_print("attn: ATTN_PLOT=%s is not a plot target (auto, window, terminal, sixel, files, summary, script, none)\n", e);
        ok = false;
    }
    if (!scale_env(&s)) {
        err_print("attn: ATTN_FIGURE_SCALE=%s is not a number from 0.5 to 4: window figures are drawn at scale 1\n", getenv("ATTN_FIGURE_SCALE"));
        ok = false;
    }
    return ok;
}

void plot_init(Plot *P) {
    memset(P, 0, sizeof *P);
    P->target = PT_AUTO;
    const char *e = getenv("ATTN_PLOT");
    if (e && *e) target_named(e, &P->target);
}

void plot_free(Plot *P) {
    plot_figure_free(P->last);
    plot_figure_free(P->live_pending);
    gp_free(P->gp);             /* a class's windows (drawn nopersist) close with it */
    xwin_close(P->x);
    memset(P, 0, sizeof *P);
}

/* The session's gnuplot (created on first use; the process itself starts at the first command). */
static Gnuplot *gnuplot(Plot *P) {
    if (!P->gp) P->gp = gp_new();
    return P->gp;
}

PlotTarget plot_target(const Plot *P) { return P->replay ? P->asked : P->target; }
int plot_figure_count(const Plot *P) { return P->figures; }
void plot_rewind(Plot *P, int n) { if (n >= 0 && n <= P->figures) P->figures = n; }

void plot_reset(Plot *P) {
    P->figures = 0;
    plot_figure_free(P->last);
    P->last = NULL;
    plot_figure_free(P->live_pending);
    P->live_pending = NULL;
    P->live_number = P->live_rows = 0;
}

static bool has_display(void) {
    const char *d = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    return (d && *d) || (w && *w);
}

/* What the terminal says about itself, asked once: its primary device attributes (ESC [ c: feature 4 means it draws
 * sixel images), its character cell and text area in pixels (XTWINOPS: ESC [ 16 t answers ESC [ 6 ; h ; w t, and
 * ESC [ 14 t answers ESC [ 4 ; h ; w t). All three questions go out together; terminals answer in order, and every
 * terminal answers the last one, so reading stops at that answer, or after 300 ms. Kept in the session's plot state
 * (P->term), asked once per session. */
static void parse_replies(TermInfo *term, const char *buf) {
    for (const char *p = buf; (p = strstr(p, "\x1b[")); ) {
        p += 2;
        if (*p == '?') {
            /* \x1b[?62;4;22c : the attributes are numbers separated by ';' */
            for (p++; *p && *p != 'c';) {
                long v = strtol(p, (char **)&p, 10);
                if (v == 4) term->sixel = true;
                if (*p == ';') p++;
                else if (*p != 'c') break;
            }
            continue;
        }
        long a = strtol(p, (char **)&p, 10), hgt = 0, wid = 0;
        if (*p == ';') hgt = strtol(p + 1, (char **)&p, 10);
        if (*p == ';') wid = strtol(p + 1, (char **)&p, 10);
        if (*p != 't' || hgt <= 0 || wid <= 0 || hgt > 100000 || wid > 100000) continue;
        if (a == 6) { term->cell_h = (int)hgt; term->cell_w = (int)wid; }
        if (a == 4) { term->area_h = (int)hgt; term->area_w = (int)wid; }
    }
}

static void terminal_ask(TermInfo *term) {
    if (term->asked) return;
    term->asked = true;
    if (!isatty(0) || !isatty(1)) return;
    struct termios saved, raw;
    if (tcgetattr(0, &saved) != 0) return;
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(0, TCSANOW, &raw) != 0) return;
    static const char ask[] = "\x1b[16t\x1b[14t\x1b[c";
    if (write(1, ask, sizeof ask - 1) == (ssize_t)(sizeof ask - 1)) {
        char buf[256];
        size_t n = 0;
        for (int waited = 0; waited < 300 && n < sizeof buf - 1;) {
            struct pollfd pfd = {0, POLLIN, 0};
            if (poll(&pfd, 1, 20) > 0) {
                ssize_t r = read(0, buf + n, sizeof buf - 1 - n);
                if (r <= 0) break;
                n += (size_t)r;
                buf[n] = 0;
                const char *da = strstr(buf, "\x1b[?");
                if (da && strchr(da, 'c')) break;
            } else waited += 20;
        }
        buf[n] = 0;
        parse_replies(term, buf);
    }
    tcsetattr(0, TCSANOW, &saved);
}

static bool terminal_has_sixel(TermInfo *term) {
    const char *force = getenv("ATTN_SIXEL");
    if (force && *force) return *force == '1';
    terminal_ask(term);
    return term->sixel;
}

PlotTarget plot_resolved_target(Plot *P, bool tty) {
    if (P->target != PT_AUTO) return P->target;
    if (P->inline_out) return PT_INLINE;
    if (!tty) return PT_SUMMARY;
    if (has_display() && gp_available() &&
        (gp_has_terminal(gnuplot(P), "qt") || gp_has_terminal(gnuplot(P), "wxt") || gp_has_terminal(gnuplot(P), "x11")))
        return PT_WINDOW;
    if (terminal_has_sixel(&P->term) && gp_available() && gp_has_terminal(gnuplot(P), "sixelgd")) return PT_SIXEL;
    return PT_TERMINAL;
}

void plot_describe(Plot *P, StrBuf *out, bool tty) {
    sb_puts(out,
            "Plots are drawn by one gnuplot that attn starts at the first plot.\n"
            "  d2l.plot(X, Y, xlabel=, ylabel=, legend=, xlim=, ylim=, xscale=, yscale=,\n"
            "           fmts=, figsize=)\n"
            "  d2l.show_heatmaps(matrices, xlabel=, ylabel=, titles=, figsize=, cmap='Reds')\n"
            "  savefig(\"name.svg\")   writes the last figure (.svg, .png or .pdf)\n"
            "Where they go: plot_target(\"NAME\") or the environment variable ATTN_PLOT=NAME,\n"
            "with NAME one of\n"
            "  auto      a window when there is a display; else sixel pictures when the\n"
            "            terminal shows them, else the terminal itself; and a one-line\n"
            "            summary when the output is not a terminal\n"
            "  window    a gnuplot window (qt, wxt or x11), figsize x 144 pixels; larger\n"
            "            for a projector with ATTN_FIGURE_SCALE=1.5 (0.5 to 4, default 1)\n"
            "  terminal  drawn with characters, sized to the terminal: works over SSH.\n"
            "            Colours: 24-bit when COLORTERM=truecolor, else the 256 nearest;\n"
            "            none when NO_COLOR is set. Heatmaps taller than the terminal\n"
            "            get a line per row; crossing curves a panel each\n"
            "  sixel     a picture in terminals that show sixel images (xterm -ti vt340,\n"
            "            mlterm, foot, WezTerm), as wide as the terminal (its cell size\n"
            "            is asked, 10x20 pixels assumed if it does not say)\n"
            "  files     each figure saved as figure-N.svg in $ATTN_PLOT_DIR (default:\n"
            "            the current directory)\n"
            "  summary   one line that says what the figure holds (with its x and y\n"
            "            ranges when attn chose it)\n"
            "  script    the gnuplot commands themselves\n"
            "  none      nothing\n");
    PlotTarget t = plot_resolved_target(P, tty);
    sb_printf(out, "Now: %s", plot_target_name(P->target));
    if (P->target == PT_AUTO) sb_printf(out, " (here that means %s)", plot_target_name(t));
    sb_printf(out, "; gnuplot %s.\n", gp_available() ? "is installed" : "is NOT installed (sudo apt-get install gnuplot-nox)");
}

void plot_quote(StrBuf *out, const char *s) {
    bool open = false, any = false;             /* open: inside a single-quoted piece */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 32 || *p == 127) continue;       /* a newline would end the command */
        if (*p == '\'') {
            if (open) sb_putc(out, '\'');
            sb_puts(out, any ? ".\"'\"" : "\"'\"");
            open = false;
        } else {
            if (!open) { sb_puts(out, any ? ".'" : "'"); open = true; }
            sb_putc(out, (char)*p);
        }
        any = true;
    }
    if (open) sb_putc(out, '\'');
    else if (!any) sb_puts(out, "''");
}

/* s for a message: control characters, C1 codes and bytes that are not UTF-8 as \xHH (what the user typed, never a
 * terminal escape). */
static void visible(StrBuf *out, const char *s) { tw_visible(out, s, strlen(s), false); }

bool plot_safe_filename(const char *name, AttnError *why) {
    size_t n = strlen(name);
    const char *ext = strrchr(name, '.');
    if (n == 0 || n > 200) { err_set(why, "the file name must have 1 to 200 characters"); return false; }
    if (name[0] == '-' || name[0] == '|' || name[0] == '<') { err_set(why, "the file name cannot start with '%c'", name[0]); return false; }
    /* letters and digits of any script (図1.png, 位置编码.svg), and . _ - / */
    for (const char *p = name; *p;) {
        uint32_t cp;
        size_t len = tw_decode(p, strlen(p), &cp);
        bool ok = (cp < 0x80 && (isalnum((unsigned char)*p) || strchr("._-/", *p))) ||
                  (cp >= 0x80 && cp != 0xFFFD && (uc_is_general_category(cp, UC_CATEGORY_L) ||
                                                  uc_is_general_category(cp, UC_CATEGORY_N) ||
                                                  uc_is_general_category(cp, UC_CATEGORY_M)));   /* लेख, café */
        if (!ok) {
            char c[8] = {0};
            memcpy(c, p, len);      /* the whole character ('「', not a byte of it) */
            StrBuf b;
            sb_init(&b);
            visible(&b, c);
            err_set(why, "the file name may only hold letters, digits, '.', '_', '-' and '/' (not '%s')",
                     sb_str(&b));
            sb_free(&b);
            return false;
        }
        p += len;
    }
    if (strstr(name, "..")) { err_set(why, "the file name cannot contain '..'"); return false; }
    if (!ext || (strcmp(ext, ".svg") && strcmp(ext, ".png") && strcmp(ext, ".pdf"))) {
        err_set(why, "the file name must end in .svg, .png or .pdf");
        return false;
    }
    return true;
}

/* The terminal's columns and rows (80 × 24, or $COLUMNS × $LINES, when it does not say); *known when the terminal
 * itself gave its rows (TIOCGWINSZ). */
static void term_size(TermInfo *term, int *cols, int *rows, bool *known) {
    struct winsize ws;
    *cols = 80;
    *rows = 24;
    *known = false;
    if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) {
        *cols = ws.ws_col;
        if (ws.ws_row > 5) { *rows = ws.ws_row; *known = true; }
        if (!term->cell_w && ws.ws_xpixel > 0 && ws.ws_ypixel > 0) {    /* some terminals fill these in */
            term->cell_w = ws.ws_xpixel / ws.ws_col;
            term->cell_h = ws.ws_ypixel / (ws.ws_row ? ws.ws_row : 1);
        }
        return;
    }
    const char *c = getenv("COLUMNS"), *l = getenv("LINES");
    if (c && atoi(c) > 20) *cols = atoi(c);
    if (l && atoi(l) > 5) *rows = atoi(l);
}

/* Columns of a terminal known to be narrower than 21 (nothing can be drawn in it), else 0. */
static int too_narrow(void) {
    struct winsize ws;
    return ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_col <= 20 ? ws.ws_col : 0;
}

static ColourMode colour_mode(void) {
    const char *nc = getenv("NO_COLOR"), *ct = getenv("COLORTERM");
    if (nc && *nc) return COLOUR_NONE;
    if (ct && (!strcmp(ct, "truecolor") || !strcmp(ct, "24bit"))) return COLOUR_TRUE;
    return COLOUR_256;
}

/* Rows a figure drawn with characters may take in a terminal of `rows` rows: in view with the statement above it
 * (two rows when it wraps) and the prompt after it when the terminal gave its height; where it did not (not a
 * terminal), two rows less, as before. */
static int figure_rows(int rows, bool known) { return rows - (known ? 4 : 2); }

/* A class's window on a projector: no larger than the screen (the scale asked for is lowered until the figure
 * and the window manager's title bar fit), at the screen's top right corner, away from the terminal the teacher
 * types in (usually at the left or filling the screen). Without an X display to ask, the canvas stays as it is. */
static void window_fit(Plot *P, const Figure *f, Canvas *cv) {
    int sw, sh;
    if (!P->x) P->x = xwin_open();
    if (!xwin_screen_size(P->x, &sw, &sh)) return;
    const int margin = 8, title_bar = 40, toolbar = strcmp(cv->window, "x11") ? 40 : 0;   /* wxt's and qt's buttons */
    double fit = fmin((sw - 2.0 * margin) / f->width_in, (sh - 2.0 * margin - title_bar - toolbar) / f->height_in);
    if (fit < cv->ppi) cv->ppi = fit;
    cv->x = sw - margin - (int)lround(f->width_in * cv->ppi);
    cv->y = margin;
    if (cv->x < margin) cv->x = margin;
}

/* The canvas of a screen target. The dumb terminal and attn's text heatmaps get the terminal's columns and the
 * rows figure_rows leaves (at most 160 columns; a line plot keeps about the figure's shape); a window gets 1.5 times 96 pixels per inch of
 * figsize, times $ATTN_FIGURE_SCALE; a sixel picture as many as fit in the terminal's width and rows, given its cell size (asked with
 * XTWINOPS; 10×20 when it does not say), with text at most 1.5 times the terminal's own. */
static Canvas screen_canvas(Plot *P, PlotTarget t, const Figure *f) {
    Canvas cv = {CV_DUMB, 80, 24, 0, colour_mode(), NULL, -1, -1, false, P->lang};
    int cols, rows;
    bool known;
    term_size(&P->term, &cols, &rows, &known);
    if (t == PT_WINDOW) {
        cv.kind = CV_WINDOW;
        cv.window = gp_has_terminal(gnuplot(P), "qt") ? "qt" : gp_has_terminal(gnuplot(P), "wxt") ? "wxt" : "x11";
        cv.ppi = 144 * figure_scale();
        cv.x = cv.y = -1;
        cv.teaching = P->teaching;
        if (P->teaching) window_fit(P, f, &cv);
    } else if (t == PT_SIXEL) {
        terminal_ask(&P->term);
        cv.kind = CV_SIXEL;
        int cw = P->term.cell_w > 0 ? P->term.cell_w : P->term.area_w > 0 ? P->term.area_w / cols : 10;
        int ch = P->term.cell_h > 0 ? P->term.cell_h : P->term.area_h > 0 ? P->term.area_h / rows : 20;
        if (cw < 4 || cw > 100) cw = 10;
        if (ch < 8 || ch > 200) ch = 20;
        double aw = (double)cols * cw, ah = (double)(rows > 4 ? rows - 3 : rows) * ch;
        if (P->term.area_w > 0 && P->term.area_w < aw) aw = P->term.area_w;
        cv.ppi = fmin(fmin(aw / f->width_in, ah / f->height_in), 10.8 * ch);
        cv.ppi = fmin(cv.ppi, 4096 / fmax(f->width_in, f->height_in));   /* whatever size the terminal claims */
        if (cv.ppi < 30) cv.ppi = 30;
    } else {
        if (cols > 160) cols = 160;
        int avail = figure_rows(rows, known);
        cv.width = cols;
        cv.height = avail;
        if (f->kind == FIG_LINES && !plot_text_panels_fit(f, &cv)) {
            int r = (int)(cols * f->height_in / f->width_in / 2.2);
            if (r < 12) r = 12;
            if (r > avail) r = avail;
            if (r < 8) r = 8;
            cv.height = r;
        }
        return cv;
    }
    cv.width = (int)lround(f->width_in * cv.ppi);
    cv.height = (int)lround(f->height_in * cv.ppi);
    return cv;
}

/* What a line of gnuplot's messages is: gnuplot reports every message read from a pipe as "line N: text"
 * (int_error, after the command it echoes and a caret, or alone) or "line N: warning: text" (int_warn). 2 for an
 * error; 0 for a blank line or the warning attn causes on purpose (heatmap cells without a finite value are left
 * empty, as matplotlib leaves them); 1 for anything else worth passing on (gnuplot's warnings). */
static int message_kind(const char *line) {
    for (const char *p = line; (p = strstr(p, "line ")); p++) {
        const char *q = p + 5;
        if (*q < '0' || *q > '9') continue;
        while (*q >= '0' && *q <= '9') q++;
        if (q[0] != ':' || q[1] != ' ') continue;
        if (strncmp(q + 2, "warning:", 8)) return 2;
        return strstr(q, "matrix contains missing or undefined values") ? 0 : 1;
    }
    return line[strspn(line, " ")] ? 1 : 0;
}

static bool send(Plot *P, const char *script, StrBuf *out, AttnError *err) {
    char *msgs = NULL;
    bool restarted;
    fflush(stdout);
    if (!gp_run(gnuplot(P), script, &msgs, &restarted, err)) return false;
    /* a note about attn's surroundings, not output of the statement: on stderr, so a class's recording (which
     * keeps the statement's output) replays without it */
    if (restarted) err_print("attn: gnuplot had stopped; a fresh one was started\n");
    int worst = 0;
    StrBuf shown;
    sb_init(&shown);
    for (char *line = msgs; line && *line;) {
        char *end = strchr(line, '\n');
        if (end) *end = 0;
        int k = message_kind(line);
        if (k > worst) worst = k;
        if (k == 1) { sb_puts(&shown, line); sb_putc(&shown, '\n'); }
        if (end) *end = '\n';
        line = end ? end + 1 : line + strlen(line);
    }
    if (worst == 2) {           /* the whole of it: the command gnuplot echoed, its caret, the message */
        const char *m = msgs;
        while (*m == '\n' || *m == ' ') m++;
        err_set(err, "gnuplot: %s", m);
        size_t n = err ? strlen(err->msg) : 0;
        while (n && err->msg[n - 1] == '\n') err->msg[--n] = 0;
    } else if (worst == 1) {
        sb_puts(out, "gnuplot: ");
        sb_puts(out, sb_str(&shown));
    }
    sb_free(&shown);
    free(msgs);
    return worst < 2;
}

static bool show_inline(Plot *P, const Figure *fig, StrBuf *out, AttnError *err);

/* After a class's figure went to a window: the keyboard stays with `focus` (the teacher's terminal), which a window
 * manager takes from it when gnuplot maps a new window (watched for a second) or raises it (a moment). */
static void keep_focus(Plot *P, const char *window, unsigned long focus) {
    unsigned long id = 0;
    char *msgs = NULL;
    bool restarted;
    if (!strcmp(window, "x11") && gp_run(gnuplot(P), "print GPVAL_TERM_WINDOWID", &msgs, &restarted, NULL))
        id = strtoul(msgs, NULL, 10);
    free(msgs);
    if (!id) id = (unsigned long)gp_pid(P->gp);       /* wxt and qt do not say: one window per gnuplot */
    bool fresh = id != P->window_id;
    P->window_id = id;
    xwin_keep_focus(P->x, focus, fresh ? 1000 : 200);
}

/* Draws fig (numbered already, kept by the caller) on a screen target t (window, terminal, sixel): the drawing goes to
 * the terminal (gnuplot's) or into out (attn's own). *rows: the terminal rows the drawing takes, ending with the
 * cursor on the row after it (0 for a window or sixel), so that a live figure can go back over it. */
static bool show_on_screen(Plot *P, Figure *fig, PlotTarget t, StrBuf *out, AttnError *err, int *rows) {
    *rows = 0;
    int narrow = t == PT_TERMINAL || t == PT_SIXEL ? too_narrow() : 0;
    if (narrow) {
        sb_putc(out, '<');
        plot_summary(fig, true, out);
        sb_printf(out, ">\n(a terminal of %d columns is too narrow to draw in: savefig('figure.png') writes the figure to a file)\n", narrow);
        return true;
    }
    Canvas cv = screen_canvas(P, t, fig);
    StrBuf s;
    sb_init(&s);
    size_t before = out->len;
    if (t == PT_TERMINAL && (fig->kind == FIG_HEATMAPS || plot_text_panels_fit(fig, &cv))) {
        if (fig->kind == FIG_HEATMAPS) plot_text_heatmaps(fig, &cv, out);     /* attn draws these itself: several panels, faithful colour */
        else plot_text_panels(fig, &cv, out);                             /* curves that cross each other: a panel each */
        for (size_t i = before; i < out->len; i++) *rows += out->s[i] == '\n';
        sb_free(&s);
        return true;
    }
    if (t == PT_SIXEL) {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "/tmp/attn-sixel-XXXXXX.png");
        int fd = mkstemps(tmp, 4);
        if (fd < 0) { err_set(err, "cannot draw a sixel picture: no temporary file in /tmp (%s)", strerror(errno)); sb_free(&s); return false; }
        close(fd);
        plot_script(fig, &cv, tmp, &s);
        bool ok = send(P, sb_str(&s), out, err);
        remove(tmp);
        sb_free(&s);
        return ok;
    }
    if (t == PT_TERMINAL) {     /* one cell per character there: wide (CJK) characters get a second, empty one */
        StrBuf script;
        sb_init(&script);
        plot_script(fig, &cv, "", &script);
        tw_cells(&s, sb_str(&script));
        sb_free(&script);
    } else plot_script(fig, &cv, "", &s);
    unsigned long focus = t == PT_WINDOW && P->teaching ? xwin_focus(P->x) : 0;
    bool ok = send(P, sb_str(&s), out, err);
    sb_free(&s);
    if (ok && focus) keep_focus(P, cv.window, focus);
    /* gnuplot's dumb terminal ends its last row without a newline: what attn prints next (the prompt, a lesson's
     * next line) would follow on that row, beside the figure on a terminal wider than it */
    if (ok && t == PT_TERMINAL) { sb_putc(out, '\n'); *rows = cv.height; }
    if (ok && t == PT_WINDOW) {
        sb_putc(out, '<');
        plot_summary(fig, false, out);
        sb_puts(out, ": in the gnuplot window>\n");
    }
    return ok;
}

/* The text targets (none, inline, summary, script, files) of plot_show and of a live figure's last drawing; false
 * (nothing done) for the screen targets. *ok: whether it worked. */
static bool show_as_text(Plot *P, Figure *fig, PlotTarget t, StrBuf *out, AttnError *err, bool *ok) {
    *ok = true;
    switch (t) {
    case PT_NONE: return true;
    case PT_INLINE: *ok = show_inline(P, fig, out, err); return true;
    case PT_SUMMARY:
        /* chosen by attn because the output is not a terminal: the ranges and, once, how to see the figure;
         * asked for (transcripts, lessons replayed as tests): what the figure holds */
        sb_putc(out, '<');
        plot_summary(fig, P->target == PT_AUTO, out);
        sb_puts(out, ">\n");
        if (P->target == PT_AUTO && !P->hinted) {
            P->hinted = true;
            sb_puts(out, "(the output is not a terminal, so figures show as this line: savefig('figure.png') writes the last "
                         "one to a file, plot_target('files') saves each one)\n");
        }
        return true;
    case PT_SCRIPT: {
        sb_puts(out, "# ");
        plot_summary(fig, true, out);
        sb_putc(out, '\n');
        Canvas cv = plot_file_canvas(fig, ".svg");
        cv.lang = P->lang;
        plot_script(fig, &cv, NULL, out);
        return true;
    }
    case PT_FILES: {
        const char *dir = getenv("ATTN_PLOT_DIR");
        char path[600];
        snprintf(path, sizeof path, "%s%sfigure-%d.svg", dir && *dir ? dir : "", dir && *dir ? "/" : "", fig->number);
        *ok = plot_savefig(P, path, out, err);
        return true;
    }
    default: return false;
    }
}

bool plot_show(Plot *P, Figure *fig, StrBuf *out, bool tty, AttnError *err) {
    plot_figure_clean_text(fig);
    fig->number = ++P->figures;
    plot_figure_free(P->last);
    P->last = fig;
    P->live_rows = 0;           /* a live figure drawn before is not the last thing on the screen any more */
    PlotTarget t = plot_resolved_target(P, tty);
    bool ok;
    if (show_as_text(P, fig, t, out, err, &ok)) return ok;
    int rows;
    return show_on_screen(P, fig, t, out, err, &rows);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Draws the live figure fig (its number set) on a screen target: in a window, over its last drawing; in the
 * terminal, back up over the rows of its last drawing when that is still the last thing shown, then drawn again. */
static bool live_draw(Plot *P, Figure *fig, PlotTarget t, StrBuf *out, AttnError *err) {
    if (t == PT_TERMINAL && P->live_rows > 0 && P->live_number == fig->number) {
        fprintf(stdout, "\x1b[%dA\r\x1b[J", P->live_rows);      /* up to its first row, the rest of the screen cleared */
        fflush(stdout);
    }
    StrBuf note;
    sb_init(&note);
    int rows;
    double t0 = now_seconds();
    bool ok = show_on_screen(P, fig, t, t == PT_WINDOW ? &note : out, err, &rows);
    sb_free(&note);             /* a window's note is said once, of the last state (plot_live_flush) */
    P->live_rows = rows;
    P->live_drawn_at = now_seconds();
    P->live_cost = P->live_drawn_at - t0;
    return ok;
}

bool plot_live(Plot *P, Figure *fig, int *number, bool tty, StrBuf *out, AttnError *err) {
    plot_figure_clean_text(fig);
    if (*number <= 0 || *number > P->figures) {       /* a new board, or one from before plot_reset */
        *number = ++P->figures;
        P->live_rows = 0;
        P->live_announced = false;
    } else if (P->live_number != *number) {
        P->live_rows = 0;
        P->live_announced = false;
    }
    fig->number = *number;
    P->live_number = *number;
    P->live_dirty = true;
    plot_figure_free(P->live_pending);
    P->live_pending = NULL;
    PlotTarget t = plot_resolved_target(P, tty);
    bool screen = t == PT_WINDOW || t == PT_TERMINAL;
    /* at most 10 drawings a second, and drawing at most a tenth of the time (gnuplot draws while training waits) */
    if (!screen || now_seconds() - P->live_drawn_at < fmax(PLOT_LIVE_INTERVAL, 9 * P->live_cost)) {
        P->live_pending = fig;          /* drawn by plot_live_flush, or by a later call when its time has come */
        return true;
    }
    plot_figure_free(P->last);
    P->last = fig;                  /* savefig() writes the board as it is drawn */
    return live_draw(P, fig, t, out, err);
}

bool plot_live_flush(Plot *P, bool tty, StrBuf *out, AttnError *err) {
    Figure *fig = P->live_pending;
    bool dirty = P->live_dirty;
    P->live_dirty = false;
    if (!fig) {
        if (dirty && !P->live_announced && P->last && plot_resolved_target(P, tty) == PT_WINDOW) {
            P->live_announced = true;
            sb_putc(out, '<');
            plot_summary(P->last, false, out);
            sb_puts(out, ": in the gnuplot window>\n");
        }
        return true;
    }
    P->live_pending = NULL;
    plot_figure_free(P->last);
    P->last = fig;                  /* savefig() writes the board as it ended */
    PlotTarget t = plot_resolved_target(P, tty);
    bool ok;
    if (show_as_text(P, fig, t, out, err, &ok)) return ok;
    if (t == PT_SIXEL && P->live_rows) P->live_rows = 0;
    ok = live_draw(P, fig, t, out, err);
    if (ok && t == PT_WINDOW && !P->live_announced) {
        P->live_announced = true;
        sb_putc(out, '<');
        plot_summary(fig, false, out);
        sb_puts(out, ": in the gnuplot window>\n");
    }
    return ok;
}

/* gnuplot's svg embeds a heatmap as a small PNG stretched over the axes, which viewers smooth into a blur: mark
 * each image to be drawn with square pixels, as the book's heatmaps are. */
static void svg_crisp_images(StrBuf *svg) {
    const char *key = "preserveAspectRatio='none'", *s = sb_str(svg), *p;
    if (!strstr(s, key)) return;
    StrBuf out;
    sb_init(&out);
    while ((p = strstr(s, key))) {
        sb_putn(&out, s, (size_t)(p - s) + strlen(key));
        sb_puts(&out, " style='image-rendering:optimizeSpeed;image-rendering:pixelated'");
        s = p + strlen(key);
    }
    sb_puts(&out, s);
    sb_free(svg);
    *svg = out;
}

/* Did gnuplot write the whole file? Its own write errors (a full disk) go unreported, so the end of the file is
 * checked: an svg ends with </svg>, a png with its IEND chunk, a pdf with %%EOF. */
static bool file_complete(const StrBuf *b, const char *ext) {
    const char *s = b->s;
    size_t n = b->len;
    if (!s || n < 16) return false;
    if (!strcmp(ext, ".svg")) {
        size_t k = n;
        while (k > 0 && (s[k - 1] == '\n' || s[k - 1] == ' ' || s[k - 1] == '\r')) k--;
        return k >= 6 && !memcmp(s + k - 6, "</svg>", 6);
    }
    if (!strcmp(ext, ".png")) return n >= 12 && !memcmp(s + n - 12, "\0\0\0\0IEND\xae\x42\x60\x82", 12);
    for (size_t k = n > 40 ? n - 40 : 0; k + 5 <= n; k++)
        if (!memcmp(s + k, "%%EOF", 5)) return true;
    return false;
}

static bool read_file(const char *path, StrBuf *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_putn(out, buf, n);
    bool ok = !ferror(f);
    fclose(f);
    return ok;
}

/* Why gnuplot could not write (all of) the temporary file tmp that attn made, so the directory is there and
 * writable: a full disk, a quota or ulimit -f, found by writing 64 KiB to it ourselves ("the disk is full"); NULL
 * when that write works (gnuplot failed for a reason of its own). tmp is removed afterwards anyway. */
static const char *why_not_written(const char *tmp) {
    int fd = open(tmp, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return NULL;
    static const char zeros[65536];
    ssize_t k = write(fd, zeros, sizeof zeros);
    int e = k < 0 ? errno : k < (ssize_t)sizeof zeros ? ENOSPC : 0;     /* a short write: the disk filled up */
    if (k >= 0 && k < (ssize_t)sizeof zeros) {                          /* ask again for the real reason */
        ssize_t k2 = write(fd, zeros, sizeof zeros);
        if (k2 < 0) e = errno;
    }
    if (!e && fsync(fd) != 0 && errno != EINVAL) e = errno;             /* a quota may be charged at the flush */
    close(fd);
    return file_space_error(e);
}

/* Draws fig with gnuplot as savefig does (the file canvas of ext: .svg, .png or .pdf) into the file tmp, which it
 * creates (never following a link planted there) and removes, and reads it whole into data. shown: what the file is
 * called in messages ("savefig('x.svg')"). false with err set when the file could not be made or gnuplot did not write all of it. */
static bool render_file(Plot *P, const Figure *fig, const char *tmp, const char *ext, const char *shown, StrBuf *data,
                        StrBuf *out, AttnError *err) {
    /* made here first: a directory that is not there or not writable is said plainly (gnuplot, failing to open the
     * file, would draw to where its output went before), and a link planted under the temporary name is not followed */
    file_temp_add(tmp);             /* before open(): a SIGTERM just after it removes the file too */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 && errno == EEXIST && unlink(tmp) == 0) fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        int e = errno;
        file_temp_remove(tmp);
        if (file_space_error(e)) err_set(err, "%s: could not write the file: %s (nothing was changed)", shown, file_space_error(e));
        else err_set(err, "%s: cannot write there: %s", shown, strerror(e));
        return false;
    }
    close(fd);
    StrBuf s;
    sb_init(&s);
    Canvas cv = plot_file_canvas(fig, ext);
    cv.lang = P->lang;
    plot_script(fig, &cv, tmp, &s);
    sb_puts(&s, "unset output\n");
    bool ok = send(P, sb_str(&s), out, err);
    sb_free(&s);
    /* attn made the temporary file, so the folder is there and writable: a file gnuplot left empty or cut short
     * says why (the disk is full), else that gnuplot failed */
    if (ok && !(read_file(tmp, data) && data->len > 0)) {
        const char *cause = why_not_written(tmp);
        err_set(err, "%s: gnuplot could not write the file: %s (nothing was changed)", shown,
                 cause ? cause : "it wrote nothing");
        ok = false;
    } else if (ok && !file_complete(data, ext)) {
        const char *cause = why_not_written(tmp);
        err_set(err, "%s: gnuplot could not write the whole file: %s (nothing was changed)", shown,
                 cause ? cause : "it stopped part way");
        ok = false;
    }
    remove(tmp);
    file_temp_remove(tmp);
    if (ok && !strcmp(ext, ".svg")) svg_crisp_images(data);
    return ok;
}

/* A figure shown inline by a Jupyter kernel: SVG and PNG drawn in the kernel's directory, handed to its show(). */
static bool show_inline(Plot *P, const Figure *fig, StrBuf *out, AttnError *err) {
    const PlotInline *in = P->inline_out;
    StrBuf svg, png, summary;
    sb_init(&svg);
    sb_init(&png);
    sb_init(&summary);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s/figure-%d.svg", in->dir, fig->number);
    bool ok = render_file(P, fig, tmp, ".svg", "the figure's SVG", &svg, out, err);
    snprintf(tmp, sizeof tmp, "%s/figure-%d.png", in->dir, fig->number);
    if (ok) ok = render_file(P, fig, tmp, ".png", "the figure's PNG", &png, out, err);
    plot_summary(fig, true, &summary);
    if (ok) in->show(in->ctx, fig->number, &svg, &png, sb_str(&summary));
    sb_free(&svg);
    sb_free(&png);
    sb_free(&summary);
    return ok;
}

bool plot_savefig(Plot *P, const char *path, StrBuf *out, AttnError *err) {
    AttnError why;
    const Figure *last = P->last;
    if (!last) { err_set(err, "savefig: there is no figure yet (draw one with d2l.plot or d2l.show_heatmaps)"); return false; }
    if (!plot_safe_filename(path, &why)) {
        StrBuf b;
        sb_init(&b);
        visible(&b, path);
        err_set(err, "savefig('%s'): %s", sb_str(&b), err_msg(&why));
        sb_free(&b);
        return false;
    }
    if (!file_may_write(P->files, path, &why)) { err_set(err, "savefig('%s'): %s", path, err_msg(&why)); return false; }
    if (!file_write_wanted(P->files)) { sb_printf(out, "<figure saved to %s>\n", path); return true; }   /* a dry replay */
    char tmp[700];
    const char *ext = strrchr(path, '.');
    snprintf(tmp, sizeof tmp, "%.*s.tmp%ld%s", (int)(ext - path), path, (long)getpid(), ext);
    StrBuf data, shown;
    sb_init(&data);
    sb_init(&shown);
    sb_printf(&shown, "savefig('%s')", path);
    bool ok = render_file(P, last, tmp, ext, sb_str(&shown), &data, out, err);
    sb_free(&shown);
    if (ok && !file_write_atomic(path, data.s, data.len, &why)) {
        err_set(err, "savefig: %s", err_msg(&why));
        ok = false;
    }
    sb_free(&data);
    if (ok) sb_printf(out, "<figure saved to %s>\n", path);
    return ok;
}

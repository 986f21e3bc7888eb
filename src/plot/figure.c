/* figure.c - where figures go, and how a figure becomes gnuplot input for that place: a window, the terminal
 * (dumb, sized to it, coloured unless NO_COLOR; sixel when asked), .svg files, a one-line summary or the script.
 * Also the last figure, kept for savefig(), and the quoting every string goes through. */
#include "plot.h"
#include "textwidth.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static PlotTarget target = PT_AUTO;
static Figure *last;
static int figures;

static const char *names[] = {"auto", "window", "terminal", "sixel", "files", "summary", "script", "none"};

const char *plot_target_name(PlotTarget t) { return names[t]; }

bool plot_set_target(const char *name) {
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (!strcmp(name, names[i])) { target = (PlotTarget)i; return true; }
    return false;
}

void plot_init_from_env(void) {
    const char *e = getenv("ATTN_PLOT");
    if (e && *e && !plot_set_target(e)) fprintf(stderr, "attn: ATTN_PLOT=%s is not a plot target (auto, window, terminal, sixel, files, summary, script, none)\n", e);
}

PlotTarget plot_target(void) { return target; }
int plot_figure_count(void) { return figures; }

void plot_reset(void) {
    figures = 0;
    if (last) { sb_free(&last->body); sb_free(&last->summary); free(last); last = NULL; }
}

static bool has_display(void) {
    const char *d = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    return (d && *d) || (w && *w);
}

/* Does the terminal draw sixel images? Asks it for its primary device attributes (ESC [ c): a reply that lists
 * feature 4 is a sixel terminal (xterm -ti vt340, mlterm, foot, WezTerm ...). Asked once, with a 200 ms limit. */
static bool terminal_has_sixel(void) {
    static int answer = -1;
    if (answer >= 0) return answer;
    answer = 0;
    const char *force = getenv("ATTN_SIXEL");
    if (force) return (answer = *force == '1');
    if (!isatty(0) || !isatty(1)) return false;
    struct termios saved, raw;
    if (tcgetattr(0, &saved) != 0) return false;
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(0, TCSANOW, &raw) != 0) return false;
    if (write(1, "\x1b[c", 3) == 3) {
        char buf[128];
        size_t n = 0;
        for (int waited = 0; waited < 200 && n < sizeof buf - 1;) {
            struct pollfd pfd = {0, POLLIN, 0};
            if (poll(&pfd, 1, 20) > 0) {
                ssize_t r = read(0, buf + n, sizeof buf - 1 - n);
                if (r <= 0) break;
                n += (size_t)r;
                buf[n] = 0;
                if (memchr(buf, 'c', n) && strstr(buf, "\x1b[?")) break;
            } else waited += 20;
        }
        buf[n] = 0;
        const char *p = strstr(buf, "\x1b[?");
        if (p) {
            /* \x1b[?62;4;22c : the attributes are numbers separated by ';' */
            for (p += 3; *p && *p != 'c';) {
                long v = strtol(p, (char **)&p, 10);
                if (v == 4) answer = 1;
                if (*p == ';') p++;
                else if (*p != 'c') break;
            }
        }
    }
    tcsetattr(0, TCSANOW, &saved);
    return answer;
}

PlotTarget plot_resolved_target(bool tty) {
    if (target != PT_AUTO) return target;
    if (!tty) return PT_SUMMARY;
    if (has_display() && gp_available() && (gp_has_terminal("qt") || gp_has_terminal("wxt") || gp_has_terminal("x11"))) return PT_WINDOW;
    if (terminal_has_sixel() && gp_available() && gp_has_terminal("sixelgd")) return PT_SIXEL;
    return PT_TERMINAL;
}

void plot_describe(StrBuf *out, bool tty) {
    sb_puts(out,
            "Plots are drawn by one gnuplot that attn starts at the first plot.\n"
            "  d2l.plot(X, Y, xlabel=, ylabel=, legend=, xlim=, ylim=, xscale=, yscale=, fmts=, figsize=)\n"
            "  d2l.show_heatmaps(matrices, xlabel=, ylabel=, titles=, figsize=, cmap='Reds')\n"
            "  savefig(\"name.svg\")   writes the last figure (.svg, .png or .pdf)\n"
            "Where they go: plot_target(\"NAME\") or the environment variable ATTN_PLOT=NAME, with NAME one of\n"
            "  auto      a window when there is a display; else sixel pictures when the terminal shows them, else\n"
            "            the terminal itself; and a one-line summary when the output is not a terminal\n"
            "  window    a gnuplot window (qt, wxt or x11)\n"
            "  terminal  drawn with characters in the terminal (coloured unless NO_COLOR is set): works over SSH\n"
            "  sixel     a picture in terminals that show sixel images (xterm -ti vt340, mlterm, foot, WezTerm)\n"
            "  files     each figure saved as figure-N.svg in $ATTN_PLOT_DIR (default: the current directory)\n"
            "  summary   one line that says what the figure holds\n"
            "  script    the gnuplot commands themselves\n"
            "  none      nothing\n");
    PlotTarget t = plot_resolved_target(tty);
    sb_printf(out, "Now: %s", plot_target_name(target));
    if (target == PT_AUTO) sb_printf(out, " (here that means %s)", plot_target_name(t));
    sb_printf(out, "; gnuplot %s.\n", gp_available() ? "is installed" : "is NOT installed (sudo apt-get install gnuplot-nox)");
}

void plot_quote(StrBuf *out, const char *s) {
    sb_putc(out, '\'');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\'') sb_puts(out, "''");
        else if (*p < 32 || *p == 127) continue;       /* a newline would end the command */
        else sb_putc(out, (char)*p);
    }
    sb_putc(out, '\'');
}

bool plot_safe_filename(const char *name, char *why, size_t whylen) {
    size_t n = strlen(name);
    const char *ext = strrchr(name, '.');
    if (n == 0 || n > 200) { snprintf(why, whylen, "the file name must have 1 to 200 characters"); return false; }
    if (name[0] == '-' || name[0] == '|' || name[0] == '<') { snprintf(why, whylen, "the file name cannot start with '%c'", name[0]); return false; }
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("._-/", *p)) {
            snprintf(why, whylen, "the file name may only hold letters, digits, '.', '_', '-' and '/' (not '%c')", *p);
            return false;
        }
    if (strstr(name, "..")) { snprintf(why, whylen, "the file name cannot contain '..'"); return false; }
    if (!ext || (strcmp(ext, ".svg") && strcmp(ext, ".png") && strcmp(ext, ".pdf"))) {
        snprintf(why, whylen, "the file name must end in .svg, .png or .pdf");
        return false;
    }
    return true;
}

static void term_size(int *cols, int *rows) {
    struct winsize ws;
    *cols = 80;
    *rows = 24;
    if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) { *cols = ws.ws_col; *rows = ws.ws_row; }
    else {
        const char *c = getenv("COLUMNS");
        if (c && atoi(c) > 20) *cols = atoi(c);
    }
}

/* The terminal line for a target (px: 100 pixels per inch of figsize, as matplotlib's default dpi). */
static void terminal_line(StrBuf *o, PlotTarget t, const Figure *f, const char *file_ext) {
    if (t != PT_TERMINAL) sb_puts(o, "ATTN_MONO = 0\n");
    int w = (int)(f->width_in * 100 + 0.5), h = (int)(f->height_in * 100 + 0.5);
    if (w < 100) w = 100;
    if (h < 80) h = 80;
    if (file_ext) {
        if (!strcmp(file_ext, ".png")) sb_printf(o, "set terminal pngcairo size %d,%d noenhanced\n", w * 2, h * 2);
        else if (!strcmp(file_ext, ".pdf")) sb_printf(o, "set terminal pdfcairo size %.2fin,%.2fin noenhanced\n", f->width_in, f->height_in);
        else sb_printf(o, "set terminal svg size %d,%d noenhanced\n", w * 2, h * 2);
        return;
    }
    switch (t) {
    case PT_WINDOW: {
        const char *win = gp_has_terminal("qt") ? "qt" : gp_has_terminal("wxt") ? "wxt" : "x11";
        sb_printf(o, "set terminal %s size %d,%d persist noenhanced\n", win, w * 2, h * 2);
        break;
    }
    case PT_SIXEL: sb_printf(o, "set terminal sixelgd size %d,%d noenhanced\n", w * 2, h * 2); break;
    default: {
        int cols, rows;
        term_size(&cols, &rows);
        if (cols > 120) cols = 120;
        int r = (int)(cols * f->height_in / f->width_in / 2.2);
        if (r < 12) r = 12;
        if (r > rows - 2 && rows > 14) r = rows - 2;
        const char *nc = getenv("NO_COLOR");
        bool mono = nc && *nc;
        sb_printf(o, "set terminal dumb size %d,%d %s\nATTN_MONO = %d\n", cols, r, mono ? "mono" : "ansi256", mono);
        return;
        break;
    }
    }
}

static bool send(const char *script, StrBuf *out, char *err, size_t errlen) {
    char *msgs = NULL;
    fflush(stdout);
    if (!gp_run(script, &msgs, err, errlen)) return false;
    bool ok = true;
    if (msgs && *msgs) {
        /* gnuplot echoes a failing line with a caret and "line N: message": that is an error; other lines warn */
        if (strstr(msgs, "line ") && (strstr(msgs, "error") || strstr(msgs, "invalid") || strstr(msgs, "unexpected") ||
                                      strstr(msgs, "undefined") || strstr(msgs, "expected") || strstr(msgs, "Cannot") ||
                                      strstr(msgs, "cannot"))) {
            const char *m = msgs;
            while (*m == '\n' || *m == ' ') m++;
            snprintf(err, errlen, "gnuplot: %s", m);
            size_t n = strlen(err);
            while (n && err[n - 1] == '\n') err[--n] = 0;
            ok = false;
        } else {
            sb_puts(out, "gnuplot: ");
            sb_puts(out, msgs);
        }
    }
    free(msgs);
    return ok;
}

void plot_keep(Figure *fig) {
    figures++;
    if (last) { sb_free(&last->body); sb_free(&last->summary); free(last); }
    last = fig;
}

bool plot_show(Figure *fig, StrBuf *out, bool tty, char *err, size_t errlen) {
    plot_keep(fig);
    PlotTarget t = plot_resolved_target(tty);
    switch (t) {
    case PT_NONE: return true;
    case PT_SUMMARY: sb_printf(out, "<%s>\n", sb_str(&fig->summary)); return true;
    case PT_SCRIPT: sb_printf(out, "# %s\n%s", sb_str(&fig->summary), sb_str(&fig->body)); return true;
    case PT_FILES: {
        const char *dir = getenv("ATTN_PLOT_DIR");
        char path[600];
        snprintf(path, sizeof path, "%s%sfigure-%d.svg", dir && *dir ? dir : "", dir && *dir ? "/" : "", figures);
        if (!plot_savefig(path, out, err, errlen)) return false;
        return true;
    }
    default: break;
    }
    StrBuf s;
    sb_init(&s);
    terminal_line(&s, t, fig, NULL);
    sb_puts(&s, "set output\n");
    if (t == PT_TERMINAL) {     /* one cell per character there: wide (CJK) characters get a second, empty one */
        sb_puts(&s, "set encoding utf8\n");
        tw_cells(&s, sb_str(&fig->body));
    } else sb_puts(&s, sb_str(&fig->body));
    bool ok = send(sb_str(&s), out, err, errlen);
    sb_free(&s);
    if (ok && t == PT_WINDOW) sb_printf(out, "<%s: in the gnuplot window>\n", sb_str(&fig->summary));
    return ok;
}

bool plot_savefig(const char *path, StrBuf *out, char *err, size_t errlen) {
    char why[200];
    if (!last) { snprintf(err, errlen, "savefig: there is no figure yet (draw one with d2l.plot or d2l.show_heatmaps)"); return false; }
    if (!plot_safe_filename(path, why, sizeof why)) { snprintf(err, errlen, "savefig('%s'): %s", path, why); return false; }
    char tmp[700];
    const char *ext = strrchr(path, '.');
    snprintf(tmp, sizeof tmp, "%.*s.tmp%ld%s", (int)(ext - path), path, (long)getpid(), ext);
    StrBuf s;
    sb_init(&s);
    terminal_line(&s, PT_FILES, last, ext);
    sb_puts(&s, "set output ");
    plot_quote(&s, tmp);
    sb_putc(&s, '\n');
    sb_puts(&s, sb_str(&last->body));
    sb_puts(&s, "unset output\n");
    bool ok = send(sb_str(&s), out, err, errlen);
    sb_free(&s);
    if (!ok) { remove(tmp); return false; }
    FILE *f = fopen(tmp, "rb");
    long size = -1;
    if (f) { fseek(f, 0, SEEK_END); size = ftell(f); fclose(f); }
    if (size <= 0) {
        remove(tmp);
        snprintf(err, errlen, "savefig('%s'): gnuplot could not write the file (is the directory there and writable?)", path);
        return false;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, errlen, "savefig('%s'): %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    sb_printf(out, "<figure saved to %s>\n", path);
    return true;
}

/* guide_screen.c - what the student of a guided lesson reads: prose wrapped to the terminal, the runner's messages
 * and feedback, statements echoed as typed at the prompt, a teacher's pending statement, and the prompt line taken
 * back after an Enter. A lesson is a stranger's file, so control characters in any of it are shown as \xHH. */
#include "guide.h"
#include "i18n.h"
#include "textwidth.h"
#include "transcript.h"
#include "strbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define PROSE_MAX_WIDTH 100     /* prose lines on a wide terminal stay readable */

/* The runner's one sink for text: prose, messages, and what statements printed. A lesson is a stranger's file, so
 * control characters in any of it (a student's value in a message, an error) are shown as \xHH (tw_visible), never
 * sent to the terminal; the runner's own terminal codes go through guide_term() instead. */
void guide_out(const char *s) {
    size_t n = strlen(s);
    if (tw_has_controls(s, n, true)) {
        StrBuf b;
        sb_init(&b);
        tw_visible(&b, s, n, true);
        fputs(sb_str(&b), stdout);
        sb_free(&b);
    } else fputs(s, stdout);
    fflush(stdout);
}

void guide_outf(const char *fmt, ...) {
    StrBuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    guide_out(sb_str(&b));
    sb_free(&b);
}

/* The runner's own terminal codes (bold text, taking back a prompt line), written as they are. */
void guide_term(const char *codes) { fputs(codes, stdout); fflush(stdout); }

/* Prose for the student, wrapped to the terminal (80 columns when the output is not one). */
void guide_prose(LessonRun *S, const char *text) {
    StrBuf b;
    sb_init(&b);
    while (*text == '\n') { sb_putc(&b, '\n'); text++; }
    tw_wrap(&b, text, S->width, "");
    guide_out(sb_str(&b));
    sb_free(&b);
}

/* "attn: " and a message about the lesson's own files (a recording or progress that could not be saved) on the
 * session's error stream, after what the lesson printed: the interpreter's one path for errors. */
void guide_file_trouble(LessonRun *S, const char *what, const char *why) {
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "attn: %s%s\n", what, why);
    interp_write_error(&S->sess.I, sb_str(&b));
    sb_free(&b);
}

/* A message of the runner, formatted and wrapped like prose. */
void guide_say(LessonRun *S, const char *fmt, ...) {
    StrBuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    guide_prose(S, sb_str(&b));
    sb_free(&b);
}

int guide_prose_width(bool tty) {
    struct winsize ws;
    if (!tty || ioctl(1, TIOCGWINSZ, &ws) != 0 || ws.ws_col < 20) return 80;
    return ws.ws_col > PROSE_MAX_WIDTH ? PROSE_MAX_WIDTH : ws.ws_col;
}

/* Prints text, each line after prefix. */
void guide_indent_print(const char *prefix, const char *text) {
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        guide_outf("%s%.*s\n", prefix, (int)n, p);
        p = e ? e + 1 : p + n;
    }
}

/* A statement as it looks typed at the prompt: its block's lines after the REPL's continuation prompt. */
void guide_echo_statement(const char *stmt) {
    StrBuf b;
    sb_init(&b);
    tr_put_input(&b, stmt);
    guide_out(sb_str(&b));
    sb_free(&b);
}

/* The terminal's columns and rows (80 × 24 when it does not say). */
static void screen_size(size_t *cols, size_t *rows) {
    struct winsize ws;
    bool known = ioctl(1, TIOCGWINSZ, &ws) == 0;
    *cols = known && ws.ws_col > 0 ? ws.ws_col : 80;
    *rows = known && ws.ws_row > 1 ? ws.ws_row : 24;
}

/* A teacher's next statement at a terminal, before it runs: after a bold "next> ", so the class does not take it for

 * one that ran and printed nothing; the statement itself in the terminal's normal colours (dim or faint text cannot
 * be read on a projector). Returns the rows it took (Enter takes them back and shows it as run). */
size_t guide_show_pending(const char *stmt) {
    size_t cols, height, all = 0, lines = 0;
    screen_size(&cols, &height);
    for (const char *p = stmt, *e; ; p = e + 1, lines++) {         /* the rows the whole statement takes */
        e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p), w = 7 + (size_t)tw_width_n(p, n);
        all += (w + cols - 1) / cols;
        if (!e) break;
    }
    bool whole = all + 4 <= height;     /* a long class or def: its first line and how many follow */
    size_t rows = 0;
    for (const char *p = stmt, *e; ; p = e + 1) {
        e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *prefix = p == stmt ? "next> " : "  ...> ";
        size_t w = strlen(prefix) + (size_t)tw_width_n(p, n);
        rows += w ? (w + cols - 1) / cols : 1;
        guide_term("\033[1m");
        guide_out(prefix);
        guide_term("\033[0m");
        guide_outf("%.*s\n", (int)n, p);
        if (!e) break;
        if (!whole) {
            guide_term("\033[1m");
            guide_out("  ...> ");
            guide_term("\033[0m");
            guide_outf("(%zu lines more)\n", lines);
            rows++;
            break;
        }
    }
    return rows;
}

/* At a terminal: takes back the prompt line where Enter was just pressed on an empty line (or white space, `typed`),
 * so that what is shown next (the statement as if typed at that prompt, and its output) stands in its place, and
 * the screen shows the statement once, as at the REPL. Without a terminal there is no prompt to take back. */
void guide_erase_blank_prompt(LessonRun *S, const char *typed, size_t above) {
    if (!S->tty) return;
    size_t cols, height;
    screen_size(&cols, &height);
    size_t w = strlen("attn> ") + strlen(typed);         /* white space: one column a byte */
    size_t rows = w ? (w + cols - 1) / cols : 1;          /* the rows it took (a full row does not wrap yet) */
    rows += above;                                        /* and `above` rows more (a teacher's pending statement) */
    if (rows > height - 1) rows = height - 1;             /* taller than the screen: what scrolled away stays */
    char codes[64];
    snprintf(codes, sizeof codes, "\033[%zuA\r\033[J", rows);
    guide_term(codes);
}

/* Shows a line of feedback and puts it in the recording. */
void guide_feedback(LessonRun *S, const char *text) {
    guide_prose(S, text);
    guide_rec_prose(S, "%s", text);
}

/* Feedback whose text wraps under itself after a prefix ("Hint 1 of 2: ", "Not yet: "): fmt (translated) ends with
 * the text's %s, after the prefix's own conversions, whose arguments follow `text` (TR("Hint %d of %d: %s\n"),
 * text, 1, 2). Laid out by tw_wrap_hanging; recorded as prose. */
void guide_feedback_text(LessonRun *S, const char *fmt, const char *text, ...) {
    const char *at = strstr(fmt, "%s");
    size_t n = at ? (size_t)(at - fmt) : strlen(fmt);
    char *pfmt = xstrndup(fmt, n);
    StrBuf prefix, body, shown;
    sb_init(&prefix);
    sb_init(&body);
    sb_init(&shown);
    va_list ap;
    va_start(ap, text);
    sb_vprintf(&prefix, pfmt, ap);
    va_end(ap);
    sb_puts(&body, text);
    if (at) sb_puts(&body, at + 2);
    while (body.len && body.s[body.len - 1] == '\n') body.s[--body.len] = 0;
    tw_wrap_hanging(&shown, sb_str(&prefix), sb_str(&body), S->width);
    guide_out(sb_str(&shown));
    guide_rec_prose(S, "%s%s", sb_str(&prefix), sb_str(&body));
    free(pfmt);
    sb_free(&prefix);
    sb_free(&body);
    sb_free(&shown);
}

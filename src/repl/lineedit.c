/* lineedit.c - libedit at a terminal: line editing, history kept in $XDG_STATE_HOME/attn/history (each line
 * appended under a lock, so two attn at once keep both their histories, and a full disk never empties it), and tab
 * completion of variables, builtins, tensor methods and object attributes. */
#include "repl.h"
#include "builtins.h"
#include "strbuf.h"
#include "files.h"
#include "ops.h"
#include "i18n.h"
#include <editline/readline.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

static char history_path[4096];

/* The sessions lines are typed into (lineedit_init), outermost first: the REPL's, then a lesson's started at its
 * prompt. editline calls the completer with no context of ours, so the front end keeps them here. */
#define LINEEDIT_MAX_NEST 8
static Session *typing[LINEEDIT_MAX_NEST];
static int users;      /* sessions using line editing now (a lesson started from the REPL is the second) */

static Session *typing_session(void) {
    int k = users < LINEEDIT_MAX_NEST ? users : LINEEDIT_MAX_NEST;
    return k > 0 ? typing[k - 1] : NULL;
}

/* The candidates of the completion under way (complete.c finds them). */
static char **candidates;
static int ncand;

static void free_candidates(void) {
    for (int i = 0; i < ncand; i++) free(candidates[i]);
    free(candidates);
    candidates = NULL;
    ncand = 0;
}

static char *generator(const char *text, int state) {
    static int idx;
    if (state == 0) {
        free_candidates();
        ncand = repl_completions(typing_session(), text, &candidates);
        idx = 0;
    }
    if (idx < ncand) return strdup(candidates[idx++]);
    return NULL;
}

static char **complete(const char *text, int start, int end) {
    (void)start;
    (void)end;
    rl_attempted_completion_over = 1;
    rl_completion_append_character = '\0';     /* names are followed by '(' or '.', not a space */
    return rl_completion_matches(text, generator);
}

static void on_sigint(int sig) {
    (void)sig;
    ten_interrupted = 1;
}

/* libedit reads multibyte characters (Japanese, Chinese, é) only under a UTF-8 LC_CTYPE: the user's locale when it
 * is a UTF-8 one that is installed, else C.UTF-8 (a ja_JP.UTF-8 that is set but not generated, or plain C).
 * Only LC_CTYPE changes: numbers still print and parse with '.'. */
static void utf8_input(void) {
    const char *l = setlocale(LC_CTYPE, "");
    const char *cs = l ? nl_langinfo(CODESET) : "";
    if (!l || strcmp(cs, "UTF-8") != 0) setlocale(LC_CTYPE, "C.UTF-8");
}

/* Bytes read ahead of libedit (a CSI sequence looked at and found to be a key, not a terminal's reply). */
static unsigned char ahead[64];
static int nahead;

/* Whole lines (and an end of file) typed while a statement ran, taken from the terminal in canonical mode before
 * libedit reads it raw (typed_ahead). */
static unsigned char early[4096];
static size_t nearly, early_pos;
static bool early_eof;

/* One byte from fd: -1 at the end of input, -2 when Ctrl-C was pressed, -3 when nothing came within timeout_ms
 * (timeout_ms < 0: wait as long as it takes). Bytes read ahead come first, then lines typed ahead. */
static int read_byte(int fd, int timeout_ms) {
    if (nahead) {
        int c = ahead[0];
        memmove(ahead, ahead + 1, (size_t)--nahead);
        return c;
    }
    if (early_pos < nearly) return early[early_pos++];
    nearly = early_pos = 0;
    if (early_eof) { early_eof = false; return -1; }
    for (int waited = 0;;) {
        if (ten_interrupted) return -2;
        struct pollfd pfd = {fd, POLLIN, 0};
        int r = poll(&pfd, 1, timeout_ms >= 0 && timeout_ms < 100 ? timeout_ms : 100);
        if (r < 0 && errno != EINTR) return -1;
        if (r <= 0) {
            if (timeout_ms >= 0 && (waited += 100) >= timeout_ms) return -3;
            continue;
        }
        unsigned char c;
        ssize_t n = read(fd, &c, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        return c;
    }
}

/* After an ESC: is what follows a terminal's answer to a query attn sent (device attributes "ESC [ ? 62 ; 4 c",
 * or a size report "ESC [ 4 ; 600 ; 800 t")? Those are dropped: a reply that arrives late (a slow link) must not
 * land in the student's next statement as "62;4;22c". Anything else (arrow keys: ESC [ A) is kept, in order. */
static bool drop_terminal_reply(int fd) {
    unsigned char seq[48];
    int n = 0, c = read_byte(fd, 50);
    if (c < 0) return false;
    seq[n++] = (unsigned char)c;
    if (c == '[') {
        while (n < (int)sizeof seq) {
            if ((c = read_byte(fd, 50)) < 0) break;
            seq[n++] = (unsigned char)c;
            if (c >= 0x40 && c <= 0x7e) break;               /* the final byte */
        }
        bool params = true;
        for (int i = 1; i < n - 1; i++) params = params && (isdigit(seq[i]) || seq[i] == ';' || seq[i] == '?');
        char fin = (char)seq[n - 1];
        if (n >= 3 && params && ((fin == 'c' && seq[1] == '?') || (fin == 't' && seq[1] != '?'))) return true;
    }
    memmove(ahead + n, ahead, (size_t)nahead);               /* give the bytes back, before any read ahead */
    memcpy(ahead, seq, (size_t)n);
    nahead += n;
    return false;
}

/* libedit's input function: one character (a whole UTF-8 sequence, as a code point) from the terminal, or -1 (EOF
 * to libedit) as soon as Ctrl-C has been pressed. libedit alone may miss a SIGINT that arrives just before it
 * waits, and then goes on reading; polling the flag while waiting means a Ctrl-C is never lost or late.
 * Replies of the terminal to attn's queries are dropped here (drop_terminal_reply). */
static int getc_or_interrupt(FILE *in) {
    int fd = fileno(in);
    for (;;) {
        int c = read_byte(fd, -1);
        if (c < 0) return -1;
        if (c == 0x1b && !nahead && drop_terminal_reply(fd)) continue;
        int need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (need == 1) return c;
        int cp = c & (0x3F >> (need - 1));
        for (int i = 1; i < need; i++) {
            int b = read_byte(fd, -1);
            if (b < 0) return -1;
            if ((b & 0xC0) != 0x80) return 0xFFFD;               /* a broken sequence: the replacement character */
            cp = (cp << 6) | (b & 0x3F);
        }
        return cp;
    }
}

void lineedit_init(Session *S) {
    if (users < LINEEDIT_MAX_NEST) typing[users] = S;
    if (users++ > 0) return;
    utf8_input();
    rl_readline_name = "attn";
    rl_getc_function = getc_or_interrupt;
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = repl_word_breaks;
    rl_completion_append_character = '\0';
    using_history();      /* starts libedit (rl_initialize) now, while the terminal is canonical and echoes: libedit
                           * takes these modes as the ones to restore after each line, and would turn editing off
                           * if it first looked at the first prompt, where keys_raw_before_prompt turned echo off */
    stifle_history(2000);
    char state[FILE_STATE_DIR_MAX];
    const char *dir = file_state_dir(state);
    if (*dir) {
        snprintf(history_path, sizeof history_path, "%s/history", dir);
        read_history(history_path);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

/* Takes what was typed at the terminal while a statement ran, with the terminal in canonical mode: whole lines go to
 * libedit first, in order, and an end of file (a Ctrl-D the terminal took as one) is kept after them. */
static void typed_ahead(int fd) {
    if (early_pos < nearly || early_eof) return;
    nearly = early_pos = 0;
    while (nearly < sizeof early) {
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, 0) != 1 || !(pfd.revents & POLLIN)) return;    /* no whole line, no end of file */
        ssize_t n = read(fd, early + nearly, sizeof early - nearly);
        if (n < 0) return;
        if (n == 0) { early_eof = true; return; }
        nearly += (size_t)n;
    }
}

/* Takes the terminal out of canonical mode (and echo) before the prompt is drawn, so that a key pressed at any moment
 * is read once, in order; true when it did, with the modes it found in *saved. A canonical terminal keeps a Ctrl-D
 * as an end-of-file mark that only a canonical read() sees. After each line the mode changes three times (libedit's
 * cooked mode, then the raw mode readline() found on entry, then *saved, put back by lineedit_read): a Ctrl-D typed
 * just after Enter became a NUL byte, read and dropped with the line typed before it, and attn did not leave. So
 * Ctrl-D stays an ordinary key (the byte 4, libedit's end of file) from step 1 until *saved is back:
 *   1. still canonical: VEOF disabled, and no echo (libedit echoes what it reads);
 *   2. the lines and any end of file typed before step 1, while a statement ran, are taken (typed_ahead);
 *   3. raw, VEOF still disabled: libedit derives the cooked mode it sets after the line from this one.
 * libedit draws its prompt before it makes the terminal raw itself: a Ctrl-D pressed then is the byte 4 too.
 * A terminal that does not echo (libedit does not edit there) only has step 2. */
static bool keys_raw_before_prompt(int fd, struct termios *saved) {
    if (tcgetattr(fd, saved) != 0 || !(saved->c_lflag & ICANON)) return false;
    struct termios t = *saved;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
    t.c_cc[VEOF] = _POSIX_VDISABLE;
    bool quiet = (saved->c_lflag & ECHO) && tcsetattr(fd, TCSANOW, &t) == 0;
    typed_ahead(fd);
    if (!quiet) return false;
    t.c_lflag &= ~(tcflag_t)ICANON;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSANOW, &t) == 0) return true;
    tcsetattr(fd, TCSANOW, saved);
    return false;
}

bool lineedit_input_pending(void) {
    if (nahead || early_pos < nearly || early_eof) return true;
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

char *lineedit_read(const char *prompt, bool *interrupted) {
    static bool told;
    *interrupted = false;
    /* A Ctrl-C pressed since the last line was read (while attn parsed it, or after a statement finished) counts as
     * pressed at this prompt: it is never lost. One that stopped a statement was taken by session_run. */
    if (!ten_interrupted) {
        struct termios saved;
        bool raw = keys_raw_before_prompt(fileno(stdin), &saved);
        char *l = readline(prompt);
        struct termios now;      /* readline() ends by restoring the raw mode it found: the user's modes come back */
        if (raw && tcgetattr(fileno(stdin), &now) == 0 && !(now.c_lflag & ICANON)) tcsetattr(fileno(stdin), TCSANOW, &saved);
        if (!ten_interrupted) return l;               /* a line, or Ctrl-D */
        free(l);                                      /* what was typed before Ctrl-C */
    } else {
        fputs(prompt, stdout);
    }
    /* Ctrl-C at the prompt: the line (and the statement it continued) is dropped; attn never leaves on Ctrl-C */
    ten_interrupted = 0;
    *interrupted = true;
    Session *S = typing_session();
    fputs(told ? "\n" : TR(S ? S->I.run.lang : I18N_EN, "\n(Ctrl-C drops the line; Ctrl-D leaves attn)\n"), stdout);
    fflush(stdout);
    told = true;
    return NULL;
}

#define HISTORY_KEEP 2000

/* A line as libedit's history file holds it (strvis with VIS_WHITE): white space and control characters as \ooo,
 * a backslash doubled; other bytes (UTF-8 text) as they are. */
static void history_encode(StrBuf *b, const char *line) {
    for (const unsigned char *p = (const unsigned char *)line; *p; p++) {
        if (*p == '\\') sb_puts(b, "\\\\");
        else if (*p <= ' ' || *p == 127) sb_printf(b, "\\%03o", *p);
        else sb_putc(b, (char)*p);
    }
    sb_putc(b, '\n');
}

/* A line that could not be kept in the history file (errno e): said once a session on stderr, so the student knows
 * that what they type now will not come back with the arrow keys next time. */
static void history_lost(int e) {
    static bool said;
    if (said) return;
    said = true;
    const char *why = file_space_error(e);
    fprintf(stderr, "attn: the history cannot be saved in %s (%s): what you type now is not kept for the next "
                    "session\n", history_path, why ? why : e == ETIMEDOUT ? "another attn holds its lock" : strerror(e));
    fflush(stderr);
}

/* Appends one line to the history file under its lock. A write that fails (a full disk) is taken back, so the file
 * stays as it was, and said once (history_lost); past twice HISTORY_KEEP lines the file is rewritten with the last
 * HISTORY_KEEP (safely). */
static void history_append(const char *line) {
    int lock = file_lock(history_path, 2000);
    if (lock < 0) { history_lost(errno); return; }
    int fd = open(history_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) history_lost(errno);
    if (fd >= 0) {
        struct stat st;
        off_t size = fstat(fd, &st) == 0 ? st.st_size : 0;
        StrBuf b;
        sb_init(&b);
        if (size == 0) sb_puts(&b, "_HiStOrY_V2_\n");
        history_encode(&b, line);
        const char *p = b.s;
        size_t n = b.len;
        bool ok = true;
        while (n > 0) {
            ssize_t k = write(fd, p, n);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) { ok = false; history_lost(k < 0 ? errno : EIO); break; }
            p += k;
            n -= (size_t)k;
        }
        if (!ok && ftruncate(fd, size) != 0) { /* nothing more can be done: the line is what is lost */ }
        close(fd);
        sb_free(&b);
        if (ok && size > 128 * 1024) {
            /* long: keep the last HISTORY_KEEP lines of the file (every session's), written whole or not at all */
            StrBuf all;
            sb_init(&all);
            FILE *f = fopen(history_path, "r");
            char buf[65536];
            size_t r;
            while (f && (r = fread(buf, 1, sizeof buf, f)) > 0) sb_putn(&all, buf, r);
            if (f) fclose(f);
            int lines = 0;
            const char *start = all.s ? all.s + all.len : NULL;
            int total = 0;
            for (size_t i = 0; i < all.len; i++) total += all.s[i] == '\n';
            while (total > 2 * HISTORY_KEEP && start && start > all.s && lines <= HISTORY_KEEP) { start--; if (*start == '\n') lines++; }
            if (total > 2 * HISTORY_KEEP && start && lines > HISTORY_KEEP) {
                StrBuf out;
                sb_init(&out);
                sb_puts(&out, "_HiStOrY_V2_");
                sb_puts(&out, start);
                file_write_atomic(history_path, out.s, out.len, NULL);   /* best effort: the old history stays */
                sb_free(&out);
            }
            sb_free(&all);
        }
    }
    file_unlock(lock);
}

void lineedit_add_history(const char *line) {
    add_history(line);
    if (*history_path) history_append(line);
}

void lineedit_shutdown(Session *S) {
    (void)S;               /* the innermost: sessions nest */
    if (users > 0 && --users > 0) return;
    free_candidates();
}

const LineEditor lineedit_terminal = {
    .init = lineedit_init, .read = lineedit_read, .input_pending = lineedit_input_pending,
    .add_history = lineedit_add_history, .shutdown = lineedit_shutdown};

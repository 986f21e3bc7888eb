/* frames.c - attn --frames: the structured mode a Jupyter kernel drives (jupyter/attn_kernel). Cells come in on
 * standard input and the replies go out on standard output as frames: nothing is a prompt to scrape, and the C core
 * knows no ZeroMQ and no JSON (the Python wrapper speaks those).
 *
 * A frame is one header line, then exactly LEN bytes of payload (UTF-8 text, or a PNG's bytes), nothing after:
 *
 *     KIND LEN [ARG ...]\n<LEN bytes>
 *
 * KIND and each ARG are words without spaces; LEN is a decimal count of bytes.
 *
 * Requests (standard input), one at a time; each is answered by frames and then by exactly one `done`:
 *     execute LEN              a cell: statements, blocks, classes, run as one; a syntax error anywhere and nothing
 *                              runs, as Python compiles a cell
 *     complete LEN POS         code and the cursor in it (a byte offset)
 *     inspect LEN POS          the same: help for the name under (or just before) the cursor
 *     is_complete LEN          code typed so far: run it, or read another line (jupyter console)
 * Replies (standard output):
 *     ready 0 VERSION          once, at start
 *     stream LEN stdout        what the cell prints, in pieces as it prints
 *     figure LEN svg N         figure N as SVG, then as PNG (figure LEN png N), as savefig draws them
 *     figure LEN text N        ... and its one-line summary: figure N is whole
 *     result LEN               the value of the cell's last bare expression, as the prompt prints it
 *     evalue LEN               an error's message alone, followed by
 *     error LEN ENAME          the error as the prompt shows it (message, line, caret, calls); ENAME is Python's
 *                              class (ValueError ...), Exception when attn's has none, KeyboardInterrupt for SIGINT
 *     matches LEN START END    completions, one a line: each replaces the bytes START..END of the code
 *     help LEN FOUND           inspect's text; FOUND is 1 when the name is known, else 0 (and no text)
 *     status LEN STATUS        is_complete: complete, incomplete or invalid; the payload is the next line's indent
 *     done 0 STATUS            the request is answered: ok, error, interrupted or quit (execute), ok (others)
 *
 * Standard output carries the frames alone: anything else writing to file descriptor 1 (a child process) lands on
 * standard error. SIGINT stops the running cell as Ctrl-C does at the prompt, and attn goes on. What one cell prints
 * past ATTN_FRAMES_CAP bytes (default 10 MB) is dropped, and the cell's output ends with a note that says so.
 * quit() ends the session: a fresh one starts, as a restart would. Figures are drawn in a temporary directory of
 * this process, /tmp/attn-kernel-PID-XXXXXX (removed at the end; one left by a killed attn is removed by the next
 * kernel that starts), never in the notebook's. A cell whose first line is "%%question LESSON STEP K --lang LL" is
 * a lesson notebook's question (attn notebook N): its statements are graded as the terminal lesson grades them, and
 * from then on the kernel speaks LL, the notebook's language. Files a cell writes (save, savefig) follow a lesson's
 * policy: a notebook is a stranger's file, so only under the directory attn started in, or under --allow-write DIR. */
#define _GNU_SOURCE                 /* fopencookie: the cell's output stream, framed as it is written */
#include "repl.h"
#include "files.h"
#include "help.h"
#include "plot.h"
#include "lesson.h"
#include "i18n.h"
#include "textwidth.h"
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_REQUEST (16 << 20)      /* bytes in one request: a cell larger than this is refused */

typedef struct Frames {
    const SessionConfig *cfg;    /* the front end's language and --allow-write folder, for the kernel's session */
    FILE *out;              /* the frames (a copy of the original standard output) */
    FILE *cell_out;         /* the cell's print() and echoes: written as stream frames */
    long long cap;          /* bytes a cell may print */
    long long printed;      /* bytes this cell printed (also those dropped) */
    bool error_sent;        /* this request has sent an error */
    bool syntax;            /* the statement running is the cell's syntax error */
    char dir[64];           /* the temporary directory figures are drawn in: /tmp/attn-kernel-PID-XXXXXX */
    char *question;         /* the last question cell's run, as "LESSON STEP K": its hints and misses count on */
    int hints, misses;      /* hints shown and wrong answers at that question */
    bool reminded;          /* "(stuck? type hint)" said once */
    char **ran;             /* every statement run in the session, in order (a solution's marked, ran_own) */
    bool *ran_own;
    int nran, capran;
    LessonSources *src;     /* during a question cell: where its lesson's names came from (question_sources) */
    bool lesson_own;        /* the statements running are the lesson's (a solution), not the student's */
    bool nb_lang_known;     /* a question cell has said which language its notebook is in (--lang): */
    I18nLang nb_lang;       /* that one, the session's from then on, also after quit() (notebook_language) */
    PlotInline plots;
    Session S;
} Frames;

/* One frame: header "kind LEN args" and the payload. A wrapper that has gone (the pipe closed) ends attn. */
static void frame(Frames *F, const char *kind, const char *args, const void *data, size_t n) {
    fprintf(F->out, "%s %zu%s%s\n", kind, n, args && *args ? " " : "", args ? args : "");
    if (n) fwrite(data, 1, n, F->out);
    if (fflush(F->out) != 0 || ferror(F->out)) {
        rmdir(F->dir);
        _exit(1);
    }
}

static void frame_text(Frames *F, const char *kind, const char *args, const char *text) {
    frame(F, kind, args, text, strlen(text));
}

/* The cell's output stream: each write is a stream frame until the cap; what comes after is counted, not sent. */
static ssize_t cell_write(void *ctx, const char *buf, size_t n) {
    Frames *F = ctx;
    long long room = F->cap - F->printed;
    size_t k = room <= 0 ? 0 : (long long)n < room ? n : (size_t)room;
    if (k) frame(F, "stream", "stdout", buf, k);
    F->printed += (long long)n;
    return (ssize_t)n;
}

/* A figure of the running cell (plot.h's PlotInline): what the cell printed before it goes first. */
static void show_figure(void *ctx, int number, const StrBuf *svg, const StrBuf *png, const char *summary) {
    Frames *F = ctx;
    fflush(F->cell_out);
    char args[32];
    snprintf(args, sizeof args, "svg %d", number);
    frame(F, "figure", args, svg->s, svg->len);
    snprintf(args, sizeof args, "png %d", number);
    frame(F, "figure", args, png->s, png->len);
    snprintf(args, sizeof args, "text %d", number);
    frame_text(F, "figure", args, summary);
}

/* session_run's errors (Session.on_error): the message, then the error as the prompt shows it. */
static void send_error(Session *S, const Error *e, const char *shown) {
    Frames *F = S->on_error_ctx;
    fflush(F->cell_out);
    const char *ename = e->kind == ERR_INTERRUPT ? "KeyboardInterrupt" : e->etype[0] ? e->etype
                      : F->syntax ? "SyntaxError" : "Exception";
    char word[40];
    size_t k = 0;
    for (const char *p = ename; *p && k + 1 < sizeof word; p++) if (!isspace((unsigned char)*p)) word[k++] = *p;
    word[k] = 0;
    frame_text(F, "evalue", NULL, e->kind == ERR_INTERRUPT ? shown : e->msg);
    frame_text(F, "error", word, shown);
    F->error_sent = true;
}

/* A fresh session for the kernel: the REPL's word-commands (help, help NAME), a lesson's file policy, figures inline. */
static void session_start(Frames *F) {
    session_init(&F->S, NULL);
    session_configure(&F->S, F->cfg);
    F->S.commands = session_commands;
    F->S.I.out = F->cell_out;
    F->S.I.echo_values = false;              /* the last bare expression is the cell's result, sent apart */
    F->S.on_error = send_error;
    F->S.on_error_ctx = F;
    F->S.I.run.plot.inline_out = &F->plots;
    file_policy_restrict(&F->S.I.run.files, "a notebook", NULL, F->cfg->allow_write);   /* only under the kernel's folder */
    if (F->nb_lang_known) session_set_lang(&F->S, F->nb_lang);
}

/* A lesson notebook is written in one language (attn notebook N --lang LL), and its student reads that one: a
 * question cell's header names it, and from then on everything the kernel says is in it: the question's feedback,
 * but also what the statements of that cell and of every later code cell print of attn's own (help, the chapter's
 * tables, a Ctrl-C's note), as the terminal lesson in that language would. Cells run before the first question cell
 * speak the kernel's language (--lang, the locale): the kernel cannot know the notebook's before it is told. */
static void notebook_language(Frames *F, I18nLang lang) {
    F->nb_lang_known = true;
    F->nb_lang = lang;
    session_set_lang(&F->S, lang);
}

static void session_end(Frames *F) {
    session_free(&F->S);
    for (int i = 0; i < F->nran; i++) free(F->ran[i]);
    free(F->ran);
    free(F->ran_own);
    F->ran = NULL;
    F->ran_own = NULL;
    F->nran = F->capran = 0;
}

/* Notes statement st, about to run: kept in F->ran for question_sources, and noted in the question cell's
 * LessonSources when one is open. */
static void note_statement(Frames *F, const Statement *st) {
    if (!st->parsed || !st->parse.tree) return;
    if (F->nran == F->capran) {
        F->capran = F->capran ? 2 * F->capran : 64;
        F->ran = xrealloc(F->ran, sizeof *F->ran * (size_t)F->capran);
        F->ran_own = xrealloc(F->ran_own, sizeof *F->ran_own * (size_t)F->capran);
    }
    F->ran[F->nran] = xstrdup(st->text);
    F->ran_own[F->nran++] = F->lesson_own;
    if (F->src) lesson_sources_note(F->src, st->parse.tree, !F->lesson_own);
}

static bool same_statement(const char *a, const char *b) {
    size_t na = strlen(a), nb = strlen(b);
    while (na && isspace((unsigned char)a[na - 1])) na--;
    while (nb && isspace((unsigned char)b[nb - 1])) nb--;
    return na == nb && !memcmp(a, b, na);
}

/* Where the names of the session came from, for a question of lesson l, as the terminal lesson would have noted them:
 * every statement run so far, in any cell, replayed in order; one that is a statement of l's own (a code cell of
 * its notebook as written, or a solution) counts as the lesson's, the others as typed by the student. The kernel
 * learns which lesson it is only at a question cell, hence the replay. */
static LessonSources *question_sources(const Frames *F, const Lesson *l) {
    LessonSources *src = lesson_sources_new();
    for (int i = 0; i < F->nran; i++) {
        bool own = F->ran_own[i];
        for (int s = 0; s < l->nsteps && !own; s++)
            for (int k = 0; k < l->steps[s].nitems && !own; k++)
                own = l->steps[s].items[k].kind == ITEM_RUN && same_statement(l->steps[s].items[k].text, F->ran[i]);
        ParseResult p = parse_program(F->ran[i], 1);
        lesson_sources_note(src, p.tree, !own);
        ast_free(p.tree);
    }
    return src;
}

/* Does the statement end with a bare expression whose value the cell shows (not one silenced by a ';')? */
static bool shows_value(const Statement *st) {
    const Node *t = st->parsed ? st->parse.tree : NULL;
    if (!t || t->kind != N_BLOCK || t->nkids == 0) return false;
    const Node *last = t->kids[t->nkids - 1];
    return last->kind == N_EXPR_STMT && last->op != 1;
}

/* A cell's statements as session_feed runs them: each noted before it runs (note_statement), as the terminal lesson
 * notes what is typed, and the last one's bare expression shown as the cell's result. */
typedef struct CellFeed {
    SessionSource src;      /* first: the feed's hooks get it */
    Frames *F;
    bool only_first;        /* run one statement (a syntax error's, or a question cell's line) */
    bool shows;             /* the statement running ends with a bare expression to show (decided before it runs) */
} CellFeed;

static StrBuf *cell_before(SessionSource *src, Statement *st) {
    CellFeed *c = (CellFeed *)src;
    Interp *I = &c->F->S.I;
    c->shows = src->pos == src->nlist && !c->only_first && shows_value(st);
    val_decref(I->last_value);
    I->last_value = NULL;
    note_statement(c->F, st);
    return NULL;
}

static bool cell_after(SessionSource *src, Statement *st, RunStatus *rs) {
    (void)st;
    CellFeed *c = (CellFeed *)src;
    Frames *F = c->F;
    Interp *I = &F->S.I;
    fflush(F->cell_out);
    if (*rs == RUN_OK && c->shows && I->last_value && I->last_value->kind != V_NONE) {
        StrBuf b;
        sb_init(&b);
        if (val_repr(I, &b, I->last_value)) frame(F, "result", NULL, b.s, b.len);
        else {          /* a student's __repr__ raised: Python's error, as the prompt's echo shows it */
            sb_clear(&b);
            interp_format_error(I, &b);
            send_error(&F->S, &I->error, sb_str(&b));
            interp_clear_error(I);
            *rs = RUN_ERROR;
        }
        sb_free(&b);
    }
    return !c->only_first;
}

/* Runs the cell's statements from c->src (until one fails) with the cell's hooks; the status of the last that ran. */
static RunStatus feed_cell(Frames *F, CellFeed *c, bool only_first) {
    c->F = F;
    c->only_first = only_first;
    c->src.before = cell_before;
    c->src.after = cell_after;
    c->src.stale_interrupt = false;          /* a Ctrl-C during the cell stops the statement it comes in */
    c->src.check_output = false;             /* the cell's output is the frames' (cell_out) */
    F->syntax = c->src.syntax;
    session_feed(&F->S, &c->src);
    F->syntax = false;
    return c->src.last;
}

/* A cell's statements, read as a file's are (blocks, classes, blank lines inside them), as Python compiles a cell:
 * a syntax error anywhere is the one statement to run (c->src.syntax). */
static void read_cell(Frames *F, const char *src, CellFeed *c) {
    LineReader r;
    reader_init_text(&r, src);
    session_source_script(&c->src, &F->S, &r, NULL);
    reader_free(&r);
}

/* Runs src as a cell: checked for syntax errors first, as Python compiles a cell, then run. */
static RunStatus run_cell(Frames *F, const char *src) {
    CellFeed c;
    read_cell(F, src, &c);
    RunStatus rs = feed_cell(F, &c, c.src.syntax);
    session_source_free(&c.src);
    return rs;
}

/* Runs the one statement st (a question cell's; borrowed), as any cell's. */
static RunStatus run_one_statement(Frames *F, Statement *st, bool syntax) {
    CellFeed c;
    session_source_statements(&c.src, st, 1);
    c.src.syntax = syntax;
    RunStatus rs = feed_cell(F, &c, syntax);
    session_source_free(&c.src);
    return rs;
}

/* The cell's end: a note when its output was cut, a fresh session after quit(), and `done`. */
static void cell_done(Frames *F, RunStatus rs) {
    if (F->printed > F->cap) {
        char note[200];
        snprintf(note, sizeof note, "\n[attn: the output was cut at %lld MB; the cell printed %lld bytes in all]\n",
                 F->cap >> 20, F->printed);
        frame_text(F, "stream", "stderr", note);
    }
    if (rs == RUN_QUIT) {                    /* quit(): a fresh session, as a restart gives */
        session_end(F);
        session_start(F);
        frame_text(F, "stream", "stderr", "[attn: quit() ended the session: a fresh one has started]\n");
    }
    frame_text(F, "done", rs == RUN_QUIT ? "quit" : rs == RUN_INTERRUPT ? "interrupted" : rs != RUN_OK || F->error_sent ? "error" : "ok", "");
}

/* An error of the question cell's own (not the code's): ENAME and the text, as the prompt would show it. */
static void cell_error(Frames *F, const char *ename, const char *text) {
    fflush(F->cell_out);
    StrBuf shown;
    sb_init(&shown);
    tw_visible(&shown, text, strlen(text), true);
    while (shown.len && shown.s[shown.len - 1] == '\n') shown.s[--shown.len] = 0;
    frame_text(F, "evalue", NULL, sb_str(&shown));
    frame_text(F, "error", ename, sb_str(&shown));
    F->error_sent = true;
    sb_free(&shown);
}

/* Text of the lesson's (a hint, an explanation, the model answer) on the cell's output: fmt (translated) with its
 * arguments, control characters shown as \xHH, as the terminal lesson shows them (a lesson is a stranger's file). */
static void say(Frames *F, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Frames *F, const char *fmt, ...) {
    StrBuf b, v;
    sb_init(&b);
    sb_init(&v);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    tw_visible(&v, b.s ? b.s : "", b.len, true);
    fputs(sb_str(&v), F->cell_out);
    sb_free(&b);
    sb_free(&v);
}

/* A statement of a question cell, run as any cell's (lesson_take's run). */
typedef struct { Frames *F; Statement *st; } CellLine;
static RunStatus run_cell_line(void *ctx) {
    CellLine *c = ctx;
    return run_one_statement(c->F, c->st, false);
}

/* "hint", "solution" or "skip" typed alone on a line of a question cell, as at the terminal lesson; else NULL. */
static const char *cell_command(const Statement *st) {
    static const char *const words[] = {"hint", "solution", "skip"};
    const char *s = st->text;
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (n == strlen(words[i]) && !strncmp(s, words[i], n)) return words[i];
    return NULL;
}

/* A question cell of a lesson notebook (attn notebook N): its first line names the question (lesson_cell_open);
 * the rest runs as a cell, each statement taken by the terminal lesson's checker (lesson_take), so an answer gets
 * the lesson's checks, forbid: and wrong: explanations. "hint" shows the next hint, "solution" (or "skip") the
 * answer, run. The cell passes when an answer is right (or the solution ran) or it only asked for a hint; a wrong
 * answer ends it with the error WrongAnswer ("Not yet: ..."), a cell with no answer with NoAnswer, so that running
 * the notebook top to bottom stops at a question not yet answered, as the terminal lesson waits. Hints given and
 * misses are counted per question across runs of its cell; the notebook's language is the session's from here on
 * (notebook_language), so the feedback and what the cell's statements print agree. */
static void question_cell(Frames *F, const char *src) {
    const char *nl = strchr(src, '\n');
    char *header = xstrndup(src, nl ? (size_t)(nl - src) : strlen(src));
    LessonCell c;
    AttnError err;
    if (!lesson_cell_open(F->S.I.run.lang, header, &c, &err)) {
        cell_error(F, "ValueError", err_msg(&err));
        free(header);
        cell_done(F, RUN_ERROR);
        return;
    }
    free(header);
    notebook_language(F, c.lang);
    StrBuf key;             /* the question itself, whatever blanks or --lang its header has */
    sb_init(&key);
    sb_printf(&key, "%s %s %d", c.l->id, c.step->id, c.k);
    if (!F->question || strcmp(F->question, sb_str(&key)) != 0) {
        free(F->question);
        F->question = sb_take(&key);
        F->hints = F->misses = 0;
        F->reminded = false;
    }
    sb_free(&key);
    const LessonQuestion *q = c.q;
    Interp *I = &F->S.I;
    F->src = question_sources(F, c.l);
    LessonExpect *e = lesson_expect(I, q, c.lang);
    if (!e) {
        StrBuf why;
        sb_init(&why);
        lesson_error_take(I, &why);
        say(F, TR(c.lang, "(the lesson's own answer fails here: %s; type skip)\n"), sb_str(&why));
        sb_free(&why);
    }
    CellFeed cell;
    read_cell(F, nl ? nl + 1 : "", &cell);
    Statement *sts = cell.src.list;
    int n = cell.src.nlist, bad = cell.src.syntax ? cell.src.bad : -1;
    RunStatus rs = RUN_OK;
    bool right = false, asked = false, answered = false;
    StrBuf why, fb;
    sb_init(&why);
    sb_init(&fb);
    for (int i = 0; i < n && rs == RUN_OK; i++) {
        const char *word = bad >= 0 ? NULL : cell_command(&sts[i]);
        if (word && !right && !strcmp(word, "hint")) {
            asked = true;
            if (F->hints < q->nhints) {
                say(F, TR(c.lang, "Hint %d of %d: %s\n"), F->hints + 1, q->nhints, q->hints[F->hints]);
                F->hints++;
            } else say(F, "%s", TR(c.lang, "No more hints: type solution to see the answer.\n"));
            continue;
        }
        if (word && !right && strcmp(word, "hint") != 0) {
            say(F, TR(c.lang, "The answer: %s\n"), q->answer);
            F->lesson_own = true;
            rs = run_cell(F, q->answer);
            F->lesson_own = false;
            right = true;
            continue;
        }
        if (bad >= 0 && i < bad) continue;           /* a syntax error anywhere: only it runs, as in any cell */
        if (bad >= 0 || right || !sts[i].parsed || !sts[i].parse.tree || sts[i].parse.tree->nkids == 0) {
            rs = run_one_statement(F, &sts[i], bad >= 0);
            if (bad >= 0) break;
            continue;
        }
        answered = true;
        CellLine cl = {F, &sts[i]};
        sb_clear(&fb);
        LessonGrade g = lesson_take(I, q, e, sts[i].text, sts[i].parse.tree, F->src, run_cell_line, &cl, &rs, &fb);
        fflush(F->cell_out);
        if (g == GRADE_RIGHT) { say(F, "%s", TR(c.lang, "Right.\n")); right = true; }
        else if (g == GRADE_WRONG) { sb_clear(&why); sb_puts(&why, sb_str(&fb)); }
        else if (fb.len) say(F, "%s", sb_str(&fb));
    }
    fflush(F->cell_out);
    if (rs == RUN_OK && !right && why.len) {
        StrBuf b;
        sb_init(&b);
        sb_printf(&b, TR(c.lang, "Not yet: %s.\n"), sb_str(&why));
        if (++F->misses >= 2 && !F->reminded) {
            F->reminded = true;
            sb_puts(&b, F->hints < q->nhints ? TR(c.lang, "(stuck? type hint)\n") : TR(c.lang, "(type solution to see the answer)\n"));
        }
        cell_error(F, "WrongAnswer", sb_str(&b));
        sb_free(&b);
    } else if (rs == RUN_OK && !right && !asked && !F->error_sent)
        cell_error(F, "NoAnswer", answered ? TR(c.lang, "(type an answer, or hint)\n")
                                           : TR(c.lang, "(type your answer; hint, solution or skip if you are stuck)\n"));
    sb_free(&why);
    sb_free(&fb);
    session_source_free(&cell.src);
    lesson_sources_free(F->src);
    F->src = NULL;
    lesson_expect_free(e);
    lesson_cell_close(&c);
    cell_done(F, rs);
}

/* execute: a cell (a lesson notebook's question cell when it starts with its header line). */
static void execute(Frames *F, const char *src) {
    ten_interrupted = 0;                     /* a SIGINT meant for the cell before stops nothing here */
    F->printed = 0;
    F->error_sent = false;
    const char *start = src;
    while (*start == ' ' || *start == '\t' || *start == '\n' || *start == '\r') start++;   /* blank lines above it */
    if (!strncmp(start, LESSON_CELL_MAGIC, strlen(LESSON_CELL_MAGIC))) { question_cell(F, start); return; }
    cell_done(F, run_cell(F, src));
}

/* Bytes that may be part of a name under the cursor: letters, digits, '_', '.' and any byte of a UTF-8 letter. */
static bool name_byte(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || (unsigned char)c >= 0x80; }

static void complete(Frames *F, const char *code, size_t pos) {
    size_t start = pos;
    while (start > 0 && !strchr(repl_word_breaks, code[start - 1])) start--;
    char *word = xstrndup(code + start, pos - start);
    char **m = NULL;
    int n = repl_completions(&F->S, word, &m);
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < n; i++) {
        sb_puts(&b, m[i]);
        sb_putc(&b, '\n');
        free(m[i]);
    }
    free(m);
    free(word);
    char args[48];
    snprintf(args, sizeof args, "%zu %zu", start, pos);
    frame(F, "matches", args, b.s, b.len);
    sb_free(&b);
}

/* inspect: help for the name at the cursor, or just before it ("torch.zeros(" with the cursor after the bracket). */
static void inspect(Frames *F, const char *code, size_t pos) {
    size_t len = strlen(code);
    if (pos > 0 && pos <= len && (pos == len || !name_byte(code[pos])) && code[pos - 1] == '(') pos--;
    size_t a = pos, b = pos;
    while (a > 0 && name_byte(code[a - 1])) a--;
    while (b < len && name_byte(code[b])) b++;
    while (a < b && code[a] == '.') a++;
    while (b > a && code[b - 1] == '.') b--;
    StrBuf out;
    sb_init(&out);
    bool found = false;
    if (b > a && !isdigit((unsigned char)code[a])) {
        char *name = xstrndup(code + a, b - a);
        Interp *I = &F->S.I;
        Value *named = strchr(name, '.') ? NULL : interp_lookup(I, name);
        Value *word = named ? NULL : val_str(I->run.heap, name);
        found = help_value(I, &out, named ? named : word);
        if (word) val_decref(word);
        free(name);
    }
    if (!found) out.len = 0;
    frame(F, "help", found ? "1" : "0", out.s, found ? out.len : 0);
    sb_free(&out);
}

/* One request's header: "kind LEN [POS]". false at the end of input or on a header that is not one. */
static bool read_header(char *kind, size_t kindlen, size_t *len, size_t *pos) {
    char line[256];
    if (!fgets(line, sizeof line, stdin)) return false;
    char k[32];
    unsigned long long l = 0, p = 0;
    int got = sscanf(line, "%31s %llu %llu", k, &l, &p);
    if (got < 2) return false;
    snprintf(kind, kindlen, "%s", k);
    *len = (size_t)l;
    *pos = (size_t)p;
    return true;
}

static void on_sigint(int sig) {
    (void)sig;
    ten_interrupted = 1;
}

/* Frames on standard output only: a copy of it for them, and descriptor 1 pointed at standard error. */
static bool take_stdout(Frames *F) {
    fflush(stdout);
    int fd = dup(1);
    if (fd < 0 || dup2(2, 1) < 0) return false;
    F->out = fdopen(fd, "w");
    return F->out != NULL;
}

static long long cap_from_env(void) {
    const char *e = getenv("ATTN_FRAMES_CAP");
    long long v = e && *e ? atoll(e) : 0;
    return v > 0 ? v : 10LL << 20;
}

#define KERNEL_DIR_PREFIX "/tmp/attn-kernel-"

/* Whether name is KERNEL_DIR_PREFIX's base, a pid, '-' and mkdtemp's six letters or digits; *pid the pid. */
static bool kernel_dir_name(const char *name, long *pid) {
    const char *base = strrchr(KERNEL_DIR_PREFIX, '/') + 1;
    size_t blen = strlen(base);
    if (strncmp(name, base, blen) != 0) return false;
    char *end;
    *pid = strtol(name + blen, &end, 10);
    if (end == name + blen || *end != '-' || *pid <= 0) return false;
    size_t k = 0;
    while (isalnum((unsigned char)end[1 + k])) k++;
    return k == 6 && !end[1 + k];
}

/* Figure folders of kernels that are gone: /tmp/attn-kernel-PID-XXXXXX of this user whose attn (PID) runs no more
 * (killed before it could remove it; at its normal end attn removes its own). Their files and the folder are
 * removed, through descriptors (no symbolic link is followed). Another user's folder, a live process's, and a name
 * not made as attn makes them are left alone. A live kernel holds a lock on its folder (repl_frames): one whose pid
 * means nothing here (another pid namespace sharing /tmp, a container) keeps its folder too. */
static void sweep_dead_dirs(void) {
    DIR *tmp = opendir("/tmp");
    if (!tmp) return;
    struct dirent *e;
    while ((e = readdir(tmp))) {
        long pid;
        if (!kernel_dir_name(e->d_name, &pid) || pid == (long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;      /* alive, or another user's (EPERM) */
        int fd = openat(dirfd(tmp), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st;
        if (fstat(fd, &st) != 0 || st.st_uid != getuid() || flock(fd, LOCK_EX | LOCK_NB) != 0) { close(fd); continue; }
        DIR *in = fdopendir(fd);
        if (!in) { close(fd); continue; }
        struct dirent *f;
        while ((f = readdir(in)))
            if (strcmp(f->d_name, ".") != 0 && strcmp(f->d_name, "..") != 0) unlinkat(dirfd(in), f->d_name, 0);
        closedir(in);
        unlinkat(dirfd(tmp), e->d_name, AT_REMOVEDIR);
    }
    closedir(tmp);
}

int repl_frames(const char *version, const SessionConfig *cfg) {
    static Frames F;
    F.cfg = cfg;
    if (!take_stdout(&F)) { perror("attn --frames"); return 2; }
    sweep_dead_dirs();
    snprintf(F.dir, sizeof F.dir, "%s%ld-XXXXXX", KERNEL_DIR_PREFIX, (long)getpid());
    if (!mkdtemp(F.dir)) { perror("attn --frames: a temporary directory"); return 2; }
    int lock = open(F.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);      /* held to the end: sweep_dead_dirs leaves it */
    if (lock >= 0) flock(lock, LOCK_EX);
    F.plots = (PlotInline){F.dir, show_figure, &F};
    F.cap = cap_from_env();
    cookie_io_functions_t io = {NULL, cell_write, NULL, NULL};
    F.cell_out = fopencookie(&F, "w", io);
    if (!F.cell_out) { perror("attn --frames"); rmdir(F.dir); if (lock >= 0) close(lock); return 2; }
    setvbuf(F.cell_out, NULL, _IOLBF, 1 << 16);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    session_start(&F);
    frame_text(&F, "ready", version, "");
    char kind[32];
    size_t len, pos;
    while (read_header(kind, sizeof kind, &len, &pos)) {
        if (len > MAX_REQUEST) {
            frame_text(&F, "evalue", NULL, "the request is too large");
            frame_text(&F, "error", "ValueError", "error: the cell is larger than 16 MB: attn did not run it\n");
            frame_text(&F, "done", "error", "");
            /* its bytes are skipped, so the next header is read where it starts */
            for (size_t i = 0; i < len && getchar() != EOF; i++) {}
            continue;
        }
        char *body = xmalloc(len + 1);
        size_t got = fread(body, 1, len, stdin);
        body[got] = 0;
        if (got < len) { free(body); break; }
        if (strlen(body) != len) {           /* a NUL byte inside: the code ends there, as a C string does */
            len = strlen(body);
        }
        if (pos > len) pos = len;
        if (!strcmp(kind, "execute")) execute(&F, body);
        else if (!strcmp(kind, "complete")) { complete(&F, body, pos); frame_text(&F, "done", "ok", ""); }
        else if (!strcmp(kind, "inspect")) { inspect(&F, body, pos); frame_text(&F, "done", "ok", ""); }
        else if (!strcmp(kind, "is_complete")) {
            char indent[64];
            const char *status = reader_completeness(body, indent, sizeof indent);
            frame_text(&F, "status", status, indent);
            frame_text(&F, "done", "ok", "");
        } else {
            frame_text(&F, "evalue", NULL, "unknown request");
            frame_text(&F, "error", "ValueError", "error: attn --frames knows execute, complete, inspect and is_complete\n");
            frame_text(&F, "done", "error", "");
        }
        free(body);
    }
    session_end(&F);
    free(F.question);
    fclose(F.cell_out);
    rmdir(F.dir);
    if (lock >= 0) close(lock);
    return 0;
}

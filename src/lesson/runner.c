/* runner.c - guided sessions. A student goes step by step: reads the prose, types each statement (or presses Enter
 * to run it), answers questions checked by value, asks for hints, skips, goes back, jumps, restarts; progress is
 * saved after every step and when input ends. A teacher steps through at their own pace with free detours at the
 * prompt, and can record the session as a transcript that --check replays.
 * Output goes where it goes at the prompt: at a terminal straight to it (figures drawn in a window, as sixel or
 * in the terminal itself), elsewhere through a buffer (figures as their one-line summaries). Whatever path the
 * student takes, the lesson's variables are what the lesson expects: `next` runs the rest of the step silently,
 * and back, jump, restart and resume run the lesson's statements before the target step again (rebuild). */
#include "lesson.h"
#include "lesson_translation.h"
#include "i18n.h"
#include "textwidth.h"
#include "transcript.h"
#include "help.h"
#include "plot.h"
#include "session.h"
#include "reader.h"
#include "strbuf.h"
#include "files.h"
#include "mdblock.h"
#include "parser.h"
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define PROSE_MAX_WIDTH 100     /* prose lines on a wide terminal stay readable */

/* One guided run: its own Session (interpreter, generator, plots), pushed over the caller's while it runs. */
typedef struct LessonRun {
    Session sess;
    LineReader r;
    Lesson *l;
    bool tty, teacher;
    bool in_repl;           /* started by `lesson N` inside the REPL (its hints say lesson N), not from the shell */
    bool selfcheck;         /* $ATTN_LESSON_SELFCHECK: a lesson statement printing what the lesson does not say is reported */
    bool as_shown;          /* the last lesson statement run printed what the lesson shows */
    int width;              /* columns prose is wrapped to */
    StrBuf record;          /* the recorded transcript (teacher --record) */
    bool recording, in_block;   /* in_block: the recording has an open ```attn block */
    bool block_silent;      /* ... an ```attn silent one: statements the class did not see (a jump's rebuild) */
    const char *record_path;
    bool record_tried;      /* the recording was saved (or tried) at least once ... */
    size_t record_tried_len;    /* ... when it was this long (a quit saves nothing new: no second write or message) */
    bool record_trouble;    /* the last save failed and said so: the next failure is not said again */
    bool measured;          /* the current step times something: its answers' values differ at every run */
    LessonSources *src;     /* where the student's names came from (forbid: sees through a = Y[0, 2]) */
} LessonRun;

typedef enum { SHOWN, SILENT } Shown;
/* How a run goes into the recording: as a statement with its output (compared by --check), or as the answer of a
 * question (run by --check, its output not compared: a measured time differs at every run). */
typedef enum { AS_STATEMENT, AS_ANSWER } Recorded;

/* The runner's one sink for text: prose, messages, and what statements printed. A lesson is a stranger's file, so
 * control characters in any of it (a student's value in a message, an error) are shown as \xHH (tw_visible), never
 * sent to the terminal; the runner's own terminal codes go through term() instead. */
static void out(const char *s) {
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

static void outf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void outf(const char *fmt, ...) {
    StrBuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    out(sb_str(&b));
    sb_free(&b);
}

/* The runner's own terminal codes (bold text, taking back a prompt line), written as they are. */
static void term(const char *codes) { fputs(codes, stdout); fflush(stdout); }

/* Prose for the student, wrapped to the terminal (80 columns when the output is not one). */
static void prose(LessonRun *S, const char *text) {
    StrBuf b;
    sb_init(&b);
    while (*text == '\n') { sb_putc(&b, '\n'); text++; }
    tw_wrap(&b, text, S->width, "");
    out(sb_str(&b));
    sb_free(&b);
}

/* A message of the runner, formatted and wrapped like prose. */
/* "attn: " and a message about the lesson's own files (a recording or progress that could not be saved) on the
 * session's error stream, after what the lesson printed: the interpreter's one path for errors. */
static void file_trouble(LessonRun *S, const char *what, const char *why) {
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "attn: %s%s\n", what, why);
    interp_write_error(&S->sess.I, sb_str(&b));
    sb_free(&b);
}

static void say(LessonRun *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(LessonRun *S, const char *fmt, ...) {
    StrBuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    prose(S, sb_str(&b));
    sb_free(&b);
}

static int prose_width(bool tty) {
    struct winsize ws;
    if (!tty || ioctl(1, TIOCGWINSZ, &ws) != 0 || ws.ws_col < 20) return 80;
    return ws.ws_col > PROSE_MAX_WIDTH ? PROSE_MAX_WIDTH : ws.ws_col;
}

static char *norm(const char *s) {
    StrBuf b;
    sb_init(&b);
    for (const char *p = s; *p; p++) if (!isspace((unsigned char)*p)) sb_putc(&b, *p == '"' ? '\'' : *p);
    return sb_take(&b);
}

/* The name a statement defines when it is a def or a class statement, else NULL (borrowed from the tree). */
static const char *defined_name(const Node *tree) {
    if (!tree || tree->nkids != 1 || !tree->kids[0]) return NULL;
    const Node *d = tree->kids[0];
    return d->kind == N_DEF || d->kind == N_CLASS ? d->str : NULL;
}

/* Whether what the student typed (a) is the lesson's statement (b): the same text once spaces and quotes are set
 * aside, or the same code (ast_same_code: comments, layout and docstrings aside). When it is not, but both define
 * the same function or class, *own (if given) is set to that name: the student wrote their own version. */
static bool same_statement(const char *a, const char *b, char **own) {
    if (own) *own = NULL;
    char *x = norm(a), *y = norm(b);
    bool r = !strcmp(x, y);
    free(x);
    free(y);
    if (r) return true;
    ParseResult pa = parse_program(a, 1), pb = parse_program(b, 1);
    r = pa.tree && pb.tree && ast_same_code(pa.tree, pb.tree);
    const char *na = defined_name(pa.tree), *nb = defined_name(pb.tree);
    if (!r && own && na && nb && !strcmp(na, nb)) *own = xstrdup(na);
    ast_free(pa.tree);
    ast_free(pb.tree);
    return r;
}

/* Line n (from 1) of text, without its indentation, into o. */
static void line_of(StrBuf *o, const char *text, int n) {
    const char *p = text;
    for (int k = 1; k < n && p; k++) { p = strchr(p, '\n'); if (p) p++; }
    if (!p) return;
    while (*p == ' ' || *p == '\t') p++;
    sb_putn(o, p, strcspn(p, "\n"));
}

/* Where the student's def or class (mine) first differs from the book's (book), as a sentence naming both lines:
 * "(your DotProductAttention is not the book's: your line 12, `...`, differs from the book's `...`; ...)". */
static void own_version_note(LessonRun *S, const char *name, const char *mine, const char *book) {
    ParseResult pa = parse_program(mine, 1), pb = parse_program(book, 1);
    const Node *da = pa.tree, *db = pb.tree;
    if (pa.tree && pb.tree && ast_first_difference(pa.tree, pb.tree, &da, &db) && da && db && da->line > 0 && db->line > 0) {
        StrBuf a, b;
        sb_init(&a);
        sb_init(&b);
        line_of(&a, mine, da->line);
        line_of(&b, book, db->line);
        say(S, TR("(your %s is not the book's: your line %d, `%s`, differs from the book's `%s`; the step still waits: "
                  "Enter runs the book's %s, which replaces yours)\n"), name, da->line, sb_str(&a), sb_str(&b), name);
        sb_free(&a);
        sb_free(&b);
    } else {
        say(S, TR("(your %s is not the book's, so the step still waits: Enter runs the book's %s, which replaces yours)\n"),
            name, name);
    }
    ast_free(pa.tree);
    ast_free(pb.tree);
}

/* ---- the recording (teach --record): a transcript that reads as the class went ---- */

/* The fences of attn blocks are written as FENCE and become backticks when the recording is saved: as many as it
 * takes for an output line of ``` to stay inside its block (mdblock.h). */
#define FENCE "\x01\x02" "fence" "\x02\x01"

static void rec_close_block(LessonRun *S) {
    if (S->in_block) sb_puts(&S->record, FENCE "\n\n");
    S->in_block = false;
}

/* A paragraph of prose in the recording (a comment for --check). */
static void rec_prose(LessonRun *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rec_prose(LessonRun *S, const char *fmt, ...) {
    if (!S->recording) return;
    rec_close_block(S);
    StrBuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    const char *t = sb_str(&b);
    while (*t == '\n') t++;
    sb_puts(&S->record, t);
    sb_free(&b);
    while (S->record.len && S->record.s[S->record.len - 1] == '\n') S->record.s[--S->record.len] = 0;
    sb_puts(&S->record, "\n\n");
}

/* A statement and what it printed, as a transcript step; a silent one (the class did not see it: a rebuild, the
 * rest of a step after `next`) in an ```attn silent block, whose figures --check does not count either (transcript.h). */
static void rec_statement(LessonRun *S, const char *stmt, const char *printed, bool silent) {
    if (!S->recording) return;
    if (S->in_block && S->block_silent != silent) rec_close_block(S);
    if (!S->in_block) sb_puts(&S->record, silent ? FENCE "attn silent\n" : FENCE "attn\n");
    S->in_block = true;
    S->block_silent = silent;
    tr_put_input(&S->record, stmt);
    sb_puts(&S->record, printed);
}

/* A question's answer as the class saw it: a ```question block with the answer and, after `printed:`, what it
 * printed, which --check compares as it compares a statement's output (numbers within their printed digits). */
static void rec_answer(LessonRun *S, const char *answer, const char *printed, bool silent) {
    if (!S->recording) return;
    rec_close_block(S);
    sb_printf(&S->record, FENCE "question\nanswer: %s\n", answer);
    /* a time: run, not compared; an answer the class did not see: run, not compared, its figures not counted */
    if (S->measured || silent) { sb_puts(&S->record, FENCE "\n\n"); return; }
    sb_puts(&S->record, "printed:\n");
    sb_puts(&S->record, printed);
    if (*printed && printed[strlen(printed) - 1] != '\n') sb_putc(&S->record, '\n');
    sb_puts(&S->record, FENCE "\n\n");
}

/* Writes the recording (whole, atomically) when it changed since the last save; a failure is said once, until a
 * save succeeds again. */
static void save_record(LessonRun *S) {
    if (!S->recording) return;
    if (S->record_tried && S->record_tried_len == S->record.len) return;
    S->record_tried = true;
    S->record_tried_len = S->record.len;
    StrBuf b, body;
    sb_init(&b);
    sb_init(&body);
    sb_puts(&body, sb_str(&S->record));
    if (S->in_block) sb_puts(&body, FENCE "\n");
    int n = md_fence_len_for(sb_str(&body));
    sb_printf(&b, LESSON_RECORDING_TITLE "%s\n\n", S->l->title);
    if (i18n_get() != I18N_EN) {             /* --check replays it in the language the tools spoke in class */
        sb_printf(&b, TR_LANG_LINE, i18n_code(i18n_get()));
        sb_puts(&b, "\n\n");
    }
    for (const char *p = sb_str(&body), *q; *p; p = q + strlen(FENCE)) {
        q = strstr(p, FENCE);
        if (!q) { sb_puts(&b, p); break; }
        sb_putn(&b, p, (size_t)(q - p));
        sb_pad(&b, '`', n);
    }
    AttnError err;        /* written whole or not at all (a full disk keeps the last recording) */
    bool saved = file_write_atomic(S->record_path, b.s, b.len, &err);
    if (!saved && !S->record_trouble) file_trouble(S, "the recording: ", err_msg(&err));
    S->record_trouble = !saved;
    sb_free(&b);
    sb_free(&body);
}

/* ---- running statements ---- */

/* "<figure 3: ...>" -> "<figure #: ...>": figure numbers depend on the path through the lesson. */
static char *figures_unnumbered(const char *s) {
    StrBuf b;
    sb_init(&b);
    for (const char *p = s; *p;) {
        if (!strncmp(p, "<figure ", 8) && isdigit((unsigned char)p[8])) {
            sb_puts(&b, "<figure #");
            p += 8;
            while (isdigit((unsigned char)*p)) p++;
        } else sb_putc(&b, *p++);
    }
    return sb_take(&b);
}

/* Whether lesson statement `it` printed what the lesson file shows (figure numbers aside: they depend on the path).
 * The self-check ($ATTN_LESSON_SELFCHECK=1, used by the random walks of tests/walk_lessons.py) reports a difference
 * on stderr: a lesson statement must print what the lesson file says, whatever path led to it. */
static bool printed_as_shown(LessonRun *S, const LessonItem *it, const char *printed) {
    char *want = figures_unnumbered(it->expected ? it->expected : ""), *got = figures_unnumbered(printed);
    bool same = tr_match(want, got);
    /* a lesson in another language than the tools speak (the English one, shown because its translation drifted):
     * what they say differs, what they compute may not */
    if (!same && lesson_language(S->l->path) != i18n_get()) same = lesson_same_but_prose(want, got);
    if (!same && S->selfcheck)
        err_print("attn: lesson self-check: %s:%d: `%s` printed\n%s(the lesson says)\n%s", S->l->path, it->line,
                  it->text, got, want);
    free(want);
    free(got);
    return same;
}

/* Runs stmt as at the prompt (parsed: the reader's parse of stmt, or NULL). SHOWN: its output is shown where
 * output goes (at a terminal straight to it, so that figures are drawn where they are drawn at the prompt);
 * SILENT: its output is thrown away (figures as summaries). Either way it is recorded, and `it` (a lesson
 * statement) is self-checked. RUN_OK, RUN_ERROR / RUN_INTERRUPT (the message is shown when SHOWN), RUN_QUIT. */
static RunStatus run_as_at(LessonRun *S, const char *stmt, ParseResult *parsed, int first_line, Shown how,
                           const LessonItem *it, Recorded as) {
    StrBuf printed, sink;          /* printed: what it printed, as a transcript has it (figures as summaries) */
    sb_init(&printed);
    sb_init(&sink);
    Interp *I = &S->sess.I;
    OutputSink cap, rec;           /* the recording over the capture: it sees what the capture takes */
    if (how == SILENT || !S->tty) interp_push_sink(I, &cap, SINK_CAPTURE, &sink);
    interp_push_sink(I, &rec, SINK_RECORDING, &printed);
    /* a silent run's figures go nowhere (no window, no file, no number): the recording still gets their lines */
    Plot *P = &S->sess.I.run.plot;
    int figures = plot_figure_count(P);
    PlotTarget target = P->target;
    if (how == SILENT) P->target = PT_NONE;
    RunStatus rs = session_run(&S->sess, stmt, parsed, NULL, first_line);
    fflush(stdout);
    interp_pop_sink(I, &rec);
    if (how == SILENT || !S->tty) interp_pop_sink(I, &cap);
    if (how == SILENT) {
        plot_rewind(P, figures);         /* numbers follow the figures the class saw */
        if (P->target == PT_NONE) P->target = target;       /* unless the statement chose a target itself */
    }
    if (how == SHOWN && !S->tty) out(sb_str(&sink));
    if (as == AS_ANSWER) rec_answer(S, stmt, sb_str(&printed), how == SILENT);
    else rec_statement(S, stmt, sb_str(&printed), how == SILENT);
    if (it) S->as_shown = printed_as_shown(S, it, sb_str(&printed));
    sb_free(&printed);
    sb_free(&sink);
    return rs;
}

/* Notes what statement stmt (parsed: its parse, or NULL) assigns, before it runs: typed by the student, or the
 * lesson's own (lesson_sources_note). */
static void note_sources(LessonRun *S, const char *stmt, const ParseResult *parsed, bool typed) {
    if (parsed && parsed->tree) { lesson_sources_note(S->src, parsed->tree, typed); return; }
    ParseResult own = parse_program(stmt, 1);
    lesson_sources_note(S->src, own.tree, typed);
    ast_free(own.tree);
}

static RunStatus run_as(LessonRun *S, const char *stmt, ParseResult *parsed, Shown how, const LessonItem *it, Recorded as) {
    note_sources(S, stmt, parsed, false);
    return run_as_at(S, stmt, parsed, 1, how, it, as);
}

static RunStatus run(LessonRun *S, const char *stmt, ParseResult *parsed, Shown how, const LessonItem *it) {
    return run_as(S, stmt, parsed, how, it, AS_STATEMENT);
}

/* Whether step st times something (measure_layers, timeit): what its answers print differs at every run. */
static bool step_measures(const LessonStep *st) {
    for (int k = 0; k < st->nitems; k++)
        if (st->items[k].kind == ITEM_RUN && (strstr(st->items[k].text, "measure_layers(") || strstr(st->items[k].text, "timeit(")))
            return true;
    return false;
}

/* Runs the items of step s from item k on: statements and model answers, without a word (`next`, rebuild). */
static void run_rest(LessonRun *S, int s, int k) {
    S->measured = step_measures(&S->l->steps[s]);
    for (; k < S->l->steps[s].nitems; k++) {
        const LessonItem *it = &S->l->steps[s].items[k];
        if (it->kind == ITEM_RUN) run(S, it->text, NULL, SILENT, it);
        else if (it->kind == ITEM_QUESTION) run_as(S, it->q->answer, NULL, SILENT, NULL, AS_ANSWER);
    }
}

/* Puts the lesson where a student who went straight to step `to` has it: the generator seeded as at the start,
 * then every statement and model answer of the steps before `to` run silently. The student's own names stay;
 * the recording gets these statements too, so that it replays. */
static void rebuild(LessonRun *S, int to) {
    rec_prose(S, TR("(The lesson's statements before step %d run again, so that its variables are as the lesson left them.)\n"), to + 1);
    run(S, "torch.manual_seed(0)", NULL, SILENT, NULL);
    for (int s = 0; s < to; s++) run_rest(S, s, 0);
}

/* Saves where the student is (or the teacher's recording). False, with a message, when it could not be saved. */
static bool save(LessonRun *S, int step, int done) {
    AttnError err;
    if (S->teacher) { save_record(S); return true; }
    char *key = lesson_progress_key(S->l);
    bool ok = progress_set(key, step, done, &err);
    free(key);
    if (!ok) { file_trouble(S, "", err_msg(&err)); return false; }
    return true;
}

static void show_step_header(LessonRun *S, int s) {
    LessonStep *st = &S->l->steps[s];
    say(S, TR("\n== Step %d of %d: %s  [%s] ==\n"), s + 1, S->l->nsteps, st->title, st->id);
    StrBuf h;               /* the recording's heading in the class's language, as the screen's */
    sb_init(&h);
    sb_printf(&h, TR("Step %d of %d: %s"), s + 1, S->l->nsteps, st->title);
    rec_prose(S, "## %s", sb_str(&h));
    sb_free(&h);
}

static void lesson_help(LessonRun *S) {
    say(S, "%s", S->teacher ? TR("Teaching: Enter runs the next statement; anything else you type runs as a detour.\n")
                            : TR("In a lesson: type the statement shown (or press Enter to run it), or any other statement to try something.\n"));
    out(TR("  hint      a hint for the current question\n"
           "  solution  show and run the answer\n"
           "  skip      run this statement or answer, and go on\n"
           "  next      go on to the next step\n"
           "  back      go back one step\n"
           "  jump ID   go to a step, by id or number (steps lists them)\n"
           "  restart   this step again from its start\n"
           "  steps     list the steps\n"
           "  quit      leave (progress is saved; Ctrl-D too)\n"));
}

typedef enum { ACT_NONE, ACT_NEXT, ACT_SKIP, ACT_BACK, ACT_JUMP, ACT_RESTART, ACT_QUIT, ACT_HINT, ACT_SOLUTION, ACT_HANDLED } Action;

static Action lesson_command(LessonRun *S, const char *line, int *jump_to) {
    char w[64] = {0}, a1[128] = {0};
    int n = sscanf(line, " %63s %127s", w, a1);
    if (n < 1) return ACT_NONE;
    /* a word that names a variable the student defined is code, not a command */
    if (interp_lookup(&S->sess.I, w) && n == 1) return ACT_NONE;
    char extra[8];
    if (sscanf(line, " %*s %*s %7s", extra) == 1) return ACT_NONE;
    if (!strcmp(w, "next")) return n == 1 ? ACT_NEXT : ACT_NONE;
    if (!strcmp(w, "skip")) return n == 1 ? ACT_SKIP : ACT_NONE;
    if (!strcmp(w, "back")) return n == 1 ? ACT_BACK : ACT_NONE;
    if (!strcmp(w, "restart")) return n == 1 ? ACT_RESTART : ACT_NONE;
    if (!strcmp(w, "quit") || !strcmp(w, "exit")) return n == 1 ? ACT_QUIT : ACT_NONE;
    if (!strcmp(w, "hint")) return n == 1 ? ACT_HINT : ACT_NONE;
    if (!strcmp(w, "solution")) return n == 1 ? ACT_SOLUTION : ACT_NONE;
    if (!strcmp(w, "lesson") && n <= 2) { say(S, "%s", TR("(you are in a lesson already: quit it first, then start another)\n")); return ACT_HANDLED; }
    if (!strcmp(w, "steps") && n == 1) {
        for (int i = 0; i < S->l->nsteps; i++) outf("  %2d  %-24s %s\n", i + 1, S->l->steps[i].id, S->l->steps[i].title);
        return ACT_HANDLED;
    }
    if (!strcmp(w, "help") && n == 1) { lesson_help(S); return ACT_HANDLED; }
    if (!strcmp(w, "jump") && n == 1) { say(S, "%s", TR("(jump needs a step: jump 3, or jump and a step's id; type steps to list them)\n")); return ACT_HANDLED; }
    if (!strcmp(w, "jump") && n == 2) {
        char *end;
        long k = strtol(a1, &end, 10);
        for (int i = 0; i < S->l->nsteps; i++)
            if ((!*end && k == i + 1) || !strcmp(S->l->steps[i].id, a1)) { *jump_to = i; return ACT_JUMP; }
        say(S, TR("no step '%s' (type steps to list them)\n"), a1);
        return ACT_HANDLED;
    }
    return ACT_NONE;
}

static void indent_print(const char *prefix, const char *text) {
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        outf("%s%.*s\n", prefix, (int)n, p);
        p = e ? e + 1 : p + n;
    }
}

/* A statement as it looks typed at the prompt: its block's lines after the REPL's continuation prompt. */
static void echo_statement(const char *stmt) {
    StrBuf b;
    sb_init(&b);
    tr_put_input(&b, stmt);
    out(sb_str(&b));
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
static size_t show_pending(const char *stmt) {
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
        term("\033[1m");
        out(prefix);
        term("\033[0m");
        outf("%.*s\n", (int)n, p);
        if (!e) break;
        if (!whole) {
            term("\033[1m");
            out("  ...> ");
            term("\033[0m");
            outf("(%zu lines more)\n", lines);
            rows++;
            break;
        }
    }
    return rows;
}

/* At a terminal: takes back the prompt line where Enter was just pressed on an empty line (or white space, `typed`),
 * so that what is shown next (the statement as if typed at that prompt, and its output) stands in its place, and
 * the screen shows the statement once, as at the REPL. Without a terminal there is no prompt to take back. */
static void erase_blank_prompt(LessonRun *S, const char *typed, size_t above) {
    if (!S->tty) return;
    size_t cols, height;
    screen_size(&cols, &height);
    size_t w = strlen("attn> ") + strlen(typed);         /* white space: one column a byte */
    size_t rows = w ? (w + cols - 1) / cols : 1;          /* the rows it took (a full row does not wrap yet) */
    rows += above;                                        /* and `above` rows more (a teacher's pending statement) */
    if (rows > height - 1) rows = height - 1;             /* taller than the screen: what scrolled away stays */
    char codes[64];
    snprintf(codes, sizeof codes, "\033[%zuA\r\033[J", rows);
    term(codes);
}

/* The next statement typed in the session, read into *in (its text is returned, owned by *in; NULL at the end of
 * input); *blank when it is an empty line. A line with content goes into the history at a terminal. */
static char *next_input(LessonRun *S, Statement *in, bool *blank) {
    if (ferror(stdout) || !reader_read_statement(&S->r, in)) return NULL;   /* no one reads what comes next */
    const char *t = in->text;
    while (*t == ' ' || *t == '\t') t++;
    *blank = !*t;
    if (!*blank && S->r.editor) S->r.editor->add_history(in->text);
    return in->text;
}

/* Runs what the student typed, with the reader's parse (whose lines count from the statement's first line: an
 * error's caret lands under the statement, as at the prompt); `it` when it is the lesson's statement itself. */
static RunStatus run_input(LessonRun *S, Statement *in, const LessonItem *it) {
    note_sources(S, in->text, in->parsed ? &in->parse : NULL, it == NULL);
    return run_as_at(S, in->text, in->parsed ? &in->parse : NULL, in->parsed ? in->first_line : 1, SHOWN, it, AS_STATEMENT);
}

/* After the lesson's statement `it` ran with status rs: true when it is done. A failure the lesson does not show
 * (a detour changed a name the statement uses) or a Ctrl-C is not: the student is told, and the step waits. Output
 * other than the lesson's is done, with a note that says why it may differ. */
static bool statement_done(LessonRun *S, const LessonItem *it, RunStatus rs) {
    if (rs == RUN_OK && !S->as_shown)       /* done, but the student should know why the page says otherwise */
        say(S, "%s", TR("(this printed something else than the lesson shows: a detour may have changed a name it uses, "
                        "or drawn random numbers; restart runs this step again with the lesson's values)\n"));
    if (rs == RUN_OK || rs == RUN_QUIT || (rs == RUN_ERROR && lesson_item_shows_error(it))) return true;
    say(S, "%s", rs == RUN_INTERRUPT ? TR("(interrupted: the step still waits for this statement; Enter runs it again)\n")
                 : TR("(this statement runs without an error in the lesson, so a detour may have changed a name it "
                      "uses: restart runs this step again with the lesson's values; skip goes on without it)\n"));
    return false;
}

/* After a lesson statement that drew a figure in the terminal (no display: the figure is text, or a sixel picture,
 * as tall as the screen allows): waits for Enter before the prose and the next statement scroll its top away. What
 * is typed instead runs as at the prompt (a lesson command acts: quit, back, jump ...; next and skip go on).
 * ACT_NONE to go on. */
static Action figure_pause(LessonRun *S, int figures_before, int *jump_to) {
    Plot *P = &S->sess.I.run.plot;
    PlotTarget t = plot_resolved_target(P, S->tty);
    if (!S->tty || plot_figure_count(P) == figures_before || (t != PT_TERMINAL && t != PT_SIXEL)) return ACT_NONE;
    say(S, "%s", TR("(the figure above: press Enter to go on)\n"));
    for (;;) {
        bool blank;
        Statement in;
        char *line = next_input(S, &in, &blank);
        if (!line) return ACT_QUIT;
        Action a = blank ? ACT_NONE : lesson_command(S, line, jump_to);
        if (blank || (a != ACT_NONE && a != ACT_HANDLED && a != ACT_HINT && a != ACT_SOLUTION)) {
            statement_free(&in);
            return a == ACT_SKIP || a == ACT_NEXT ? ACT_NONE : a;      /* the statement has run: both go on */
        }
        if (a == ACT_HINT || a == ACT_SOLUTION) say(S, "%s", TR("(the figure above: press Enter to go on)\n"));
        if (a == ACT_NONE && run_input(S, &in, NULL) == RUN_QUIT) { statement_free(&in); return ACT_QUIT; }
        statement_free(&in);
    }
}

/* Waits for the student to run the lesson statement `it`. Returns an action that leaves the step, or ACT_NONE when
 * it has run (without an error, or with the one the lesson shows). */
static Action do_run(LessonRun *S, const LessonItem *it, int *jump_to) {
    const char *stmt = it->text;
    size_t pending = 0;         /* rows of a teacher's "next>" statement just above the prompt */
    unsigned pending_at = S->r.prompts;     /* the reader's prompt count when it was shown */
    if (S->teacher && S->tty) pending = show_pending(stmt);
    else if (S->teacher) echo_statement(stmt);
    else {
        say(S, "%s", S->tty ? TR("Type this, or press Enter to run it:\n") : TR("Type this, or an empty line to run it:\n"));
        indent_print("    ", stmt);
    }
    for (;;) {
        bool blank;
        Statement in;
        unsigned prompts = S->r.prompts;
        char *line = next_input(S, &in, &blank);
        if (!line) return ACT_QUIT;
        Action a = blank ? ACT_SKIP : lesson_command(S, line, jump_to);
        if (a == ACT_SKIP) {
            /* Enter at a terminal: the empty prompt line is erased, so the screen shows the statement once, followed
             * by its output, as at the REPL. A teacher's class saw it just above the prompt (shown again after a
             * detour; after a Ctrl-C it is not there); a student sees it where the prompt was. */
            bool shown_above = S->teacher && pending && prompts == pending_at && S->r.prompts == prompts + 1;
            if (blank) erase_blank_prompt(S, in.text, shown_above ? pending : 0);   /* "next>": shown as run */
            statement_free(&in);
            if (!S->teacher || !blank || S->tty) echo_statement(stmt);
            int figures = plot_figure_count(&S->sess.I.run.plot);
            RunStatus rs = run(S, stmt, NULL, SHOWN, it);
            if (rs == RUN_QUIT) return ACT_QUIT;
            if (!blank || statement_done(S, it, rs)) return figure_pause(S, figures, jump_to);   /* a typed skip goes on, failed or not */
            continue;
        }
        if (a == ACT_HINT || a == ACT_SOLUTION) say(S, "%s", TR("(this step shows a statement to run: press Enter to run it)\n"));
        if (a == ACT_HINT || a == ACT_SOLUTION || a == ACT_HANDLED) {       /* steps, help ...: said, the step waits */
            statement_free(&in);
            if (S->teacher && S->tty) { pending = show_pending(stmt); pending_at = S->r.prompts; }
            continue;
        }
        if (a != ACT_NONE) { statement_free(&in); return a; }
        char *own;
        bool same = same_statement(line, stmt, &own);
        int figures = plot_figure_count(&S->sess.I.run.plot);
        char *typed = own ? xstrdup(line) : NULL;     /* line is the statement's own text, freed with it */
        RunStatus rs = run_input(S, &in, same ? it : NULL);
        statement_free(&in);
        if (rs == RUN_QUIT) { free(own); free(typed); return ACT_QUIT; }        /* quit() leaves, as quit does */
        if (same && statement_done(S, it, rs)) return figure_pause(S, figures, jump_to);
        if (same) continue;
        if (own && !S->teacher) own_version_note(S, own, typed, stmt);
        else say(S, "%s", S->teacher ? TR("(detour: Enter runs the next statement)\n") : TR("(a detour: the step still waits for the statement above; Enter runs it)\n"));
        free(own);
        free(typed);
        if (S->teacher && S->tty) { pending = show_pending(stmt); pending_at = S->r.prompts; }   /* what comes next */
    }
}

/* Shows a line of feedback and puts it in the recording. */
static void feedback(LessonRun *S, const char *text) {
    prose(S, text);
    rec_prose(S, "%s", text);
}

/* Feedback whose text wraps under itself after a prefix ("Hint 1 of 2: ", "Not yet: "): fmt (translated) ends with
 * the text's %s, after the prefix's own conversions, whose arguments follow `text` (TR("Hint %d of %d: %s\n"),
 * text, 1, 2). Laid out by tw_wrap_hanging; recorded as prose. */
static void feedback_text(LessonRun *S, const char *fmt, const char *text, ...) {
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
    out(sb_str(&shown));
    rec_prose(S, "%s%s", sb_str(&prefix), sb_str(&body));
    free(pfmt);
    sb_free(&prefix);
    sb_free(&body);
    sb_free(&shown);
}

/* A line the student typed at a question, run as at the prompt (lesson_take's run). */
typedef struct { LessonRun *S; Statement *in; } TypedLine;
static RunStatus run_typed(void *ctx) {
    TypedLine *t = ctx;
    return run_input(t->S, t->in, NULL);
}

/* A question: every line runs as at the prompt; only answers are graded (lesson_grade). Hints come when asked,
 * with one reminder after repeated misses. The teacher's Enter shows and runs the answer; at a terminal only the
 * second Enter in a row does (the first says so): one Enter too many must not give the answer away to the class. */
static Action do_question(LessonRun *S, LessonQuestion *q, int *jump_to) {
    StrBuf p;
    sb_init(&p);
    sb_printf(&p, TR("\nQuestion: %s\n"), q->prompt);
    prose(S, sb_str(&p));
    rec_prose(S, "%s", sb_str(&p));
    sb_free(&p);
    if (!S->teacher) say(S, "%s", TR("(type your answer; hint, solution or skip if you are stuck)\n"));
    LessonExpect *e = lesson_expect(&S->sess.I, q);
    if (!e) {
        StrBuf err;
        sb_init(&err);
        lesson_error_take(&S->sess.I, &err);
        say(S, TR("(the lesson's own answer fails here: %s; type skip)\n"), sb_str(&err));
        sb_free(&err);
    }
    int hints = 0, wrong = 0;
    bool reminded = false, asked = false;     /* asked: the teacher's last line was an Enter that asked to confirm */
    Action act = ACT_NONE;
    for (;;) {
        bool blank;
        Statement in;
        char *line = next_input(S, &in, &blank);
        if (!line) { act = ACT_QUIT; break; }
        if (blank && !S->teacher) { statement_free(&in); say(S, "%s", TR("(type an answer, or hint)\n")); continue; }
        if (blank && S->tty && !asked) {
            erase_blank_prompt(S, in.text, 0);
            statement_free(&in);
            say(S, "%s", TR("(press Enter again to see the answer)\n"));
            asked = true;
            continue;
        }
        asked = false;
        Action a = blank ? ACT_SOLUTION : lesson_command(S, line, jump_to);
        if (a == ACT_HANDLED) { statement_free(&in); continue; }
        if (a == ACT_HINT) {
            statement_free(&in);
            if (hints < q->nhints) feedback_text(S, TR("Hint %d of %d: %s\n"), q->hints[hints], hints + 1, q->nhints), hints++;
            else say(S, "%s", TR("No more hints: type solution to see the answer.\n"));
            continue;
        }
        if (a == ACT_SOLUTION || a == ACT_SKIP) {
            if (blank) erase_blank_prompt(S, in.text, 0);      /* a teacher's Enter: the answer shown at that prompt */
            statement_free(&in);
            if (!S->teacher) feedback_text(S, TR("The answer: %s\n"), q->answer);
            echo_statement(q->answer);
            if (run_as(S, q->answer, NULL, SHOWN, NULL, AS_ANSWER) == RUN_QUIT) act = ACT_QUIT;
            break;
        }
        if (a != ACT_NONE) { statement_free(&in); act = a; break; }
        ParseResult own = {0};          /* the parse, when the reader did not make one */
        if (!in.parsed) own = parse_program(line, 1);
        Node *tree = in.parsed ? in.parse.tree : own.tree;
        StrBuf fb;
        sb_init(&fb);
        TypedLine tl = {S, &in};
        RunStatus rs;
        LessonGrade g = lesson_take(&S->sess.I, q, e, line, tree, S->src, run_typed, &tl, &rs, &fb);
        ast_free(own.tree);
        statement_free(&in);
        if (rs == RUN_QUIT) { sb_free(&fb); act = ACT_QUIT; break; }      /* quit() leaves, as quit does */
        if (g == GRADE_RIGHT) { feedback(S, TR("Right.\n")); sb_free(&fb); break; }
        if (g != GRADE_WRONG) { if (fb.len) say(S, "%s", sb_str(&fb)); sb_free(&fb); continue; }
        feedback_text(S, TR("Not yet: %s.\n"), sb_str(&fb));
        sb_free(&fb);
        if (++wrong >= 2 && !reminded && !S->teacher) {
            reminded = true;
            say(S, "%s", hints < q->nhints ? TR("(stuck? type hint)\n") : TR("(type solution to see the answer)\n"));
        }
    }
    lesson_expect_free(e);
    return act;
}

/* After the last step: what is typed still runs, with the lesson's variables, until quit, Ctrl-D or the end of
 * input. A class's detours are recorded (the class discusses the last figure, tries another value); a student stays
 * at the prompt with what the lesson defined. `note` is the line that says so. back and jump go back into the lesson
 * (ACT_BACK, or ACT_JUMP with *jump_to); ACT_QUIT when the session ends. */
static Action epilogue(LessonRun *S, const char *note, int *jump_to) {
    say(S, "%s", note);
    for (;;) {
        bool blank;
        Statement in;
        char *line = next_input(S, &in, &blank);
        if (!line) return ACT_QUIT;
        Action a = blank ? ACT_NONE : lesson_command(S, line, jump_to);
        if (blank && !S->teacher) { statement_free(&in); continue; }      /* Enter at a prompt: nothing to run */
        if (a == ACT_BACK || a == ACT_JUMP || a == ACT_QUIT) { statement_free(&in); return a; }
        if (blank || a != ACT_NONE) {      /* Enter, or a lesson command: there is no step left */
            if (a != ACT_HANDLED) say(S, "%s", note);
            statement_free(&in);
            continue;
        }
        RunStatus rs = run_input(S, &in, NULL);
        statement_free(&in);
        if (rs == RUN_QUIT) return ACT_QUIT;
    }
}

/* "Lesson complete", the next lesson's command for where the student is, and the epilogue. Returns what ended the
 * epilogue (ACT_BACK, ACT_JUMP with *jump_to, or ACT_QUIT). */
static Action lesson_complete(LessonRun *S, int *jump_to) {
    Lesson *l = S->l;
    StrBuf done_msg;
    sb_init(&done_msg);
    sb_printf(&done_msg, TR("\nLesson complete: %s.\n"), l->title);
    prose(S, sb_str(&done_msg));        /* the next command on a line of its own, never broken */
    sb_clear(&done_msg);
    int n;
    char **all = lesson_list(&n);
    int me = -1;
    for (int i = 0; i < n; i++) {
        const char *b = strrchr(all[i], '/');
        b = b ? b + 1 : all[i];
        if (!strncmp(b, l->id, strlen(l->id))) me = i;
    }
    if (me >= 0 && me + 1 < n)
        sb_printf(&done_msg, S->teacher ? TR("Next: attn teach %d\n") : S->in_repl ? TR("Next: lesson %d\n") : TR("Next: attn lesson %d\n"), me + 2);
    else sb_puts(&done_msg, TR("That was the last lesson.\n"));
    prose(S, sb_str(&done_msg));
    sb_free(&done_msg);
    for (int i = 0; i < n; i++) free(all[i]);
    free(all);
    if (S->teacher) return epilogue(S, TR("(the lesson is over: what you type still runs; quit ends the class)\n"), jump_to);
    return epilogue(S, S->in_repl ? TR("(the lesson's variables are still defined: what you type runs as at the prompt; quit goes back to "
                                       "your own session)\n")
                                  : TR("(the lesson's variables are still defined: what you type runs as at the prompt; quit or "
                                       "Ctrl-D leaves)\n"), jump_to);
}

/* The lesson from step *at on, step by step, until its last step is done (true) or the student or class leaves
 * (false: progress saved); *at and *done_p (the steps done so far) are where it ended. */
static bool walk_steps(LessonRun *S, int *at, int *done_p, const char *which) {
    int step = *at, done = *done_p;
    while (step < S->l->nsteps) {
        show_step_header(S, step);
        LessonStep *st = &S->l->steps[step];
        S->measured = step_measures(st);
        Action act = ACT_NONE;
        int jump_to = -1, k;
        for (k = 0; k < st->nitems && act == ACT_NONE; k++) {
            LessonItem *it = &st->items[k];
            if (it->kind == ITEM_PROSE) {
                bool before_question = k + 1 < st->nitems && st->items[k + 1].kind == ITEM_QUESTION;
                /* a question starts with its own blank line, and so does the next step's heading */
                if (*it->text) { out("\n"); prose(S, it->text); if (!before_question && k + 1 < st->nitems) out("\n"); }
            }
            else if (it->kind == ITEM_RUN) {
                if (k > 0 && st->items[k - 1].kind == ITEM_QUESTION && !S->teacher) out("\n");   /* after "Right." */
                act = do_run(S, it, &jump_to);
            }
            else act = do_question(S, it->q, &jump_to);
        }
        if (act == ACT_QUIT) {
            if (S->teacher) save(S, step, done);
            else if (save(S, step, done))
                say(S, S->in_repl ? TR("\nProgress saved: lesson %s resumes here.\n") : TR("\nProgress saved: attn lesson %s resumes here.\n"), which);
            else say(S, "%s", TR("\nProgress could not be saved (see the message above).\n"));
            *at = step;
            *done_p = done;
            return false;
        }
        if (act == ACT_NEXT) run_rest(S, step, k - 1);      /* the rest of the step, so later steps find its variables */
        if (act == ACT_BACK || act == ACT_RESTART || act == ACT_JUMP) {
            int to = act == ACT_JUMP ? jump_to : act == ACT_BACK && step > 0 ? step - 1 : step;
            if (act == ACT_BACK && step == 0) say(S, "%s", TR("(this is the first step: it starts again)\n"));
            rebuild(S, to);
            step = to;
            save(S, step, done);
            continue;
        }
        step++;
        if (step > done) done = step;
        save(S, step < S->l->nsteps ? step : 0, done);
    }
    *at = step;
    *done_p = done;
    return true;
}

static int session(const char *which, bool teacher, const char *record, const LineEditor *tty, bool in_repl) {
    Lesson *l = lesson_open(which);
    if (!l) return 2;
    LessonRun *S = xcalloc(1, sizeof *S);
    session_init(&S->sess, NULL);
    session_stranger(&S->sess, "a lesson", l->path);     /* a stranger's file: its own folder, no raw escapes */
    S->sess.commands = session_commands;
    S->sess.lesson = S;
    session_push(&S->sess);
    S->l = l;
    S->tty = tty != NULL;
    S->teacher = teacher;
    S->in_repl = in_repl;
    S->sess.I.run.plot.teaching = teacher;     /* a projector's windows: fitted, keyless, closed when the class ends */
    S->width = prose_width(S->tty);
    const char *sc = getenv("ATTN_LESSON_SELFCHECK");
    S->selfcheck = sc && *sc && strcmp(sc, "0") != 0;
    S->recording = record != NULL;
    S->record_path = record;
    sb_init(&S->record);
    S->src = lesson_sources_new();
    reader_init_file(&S->r, stdin, tty);
    S->r.keep_blank = true;
    if (tty) tty->init();
    rec_prose(S, "%s", TR("(Every lesson starts with the random generator seeded with 0.)\n"));
    run(S, "torch.manual_seed(0)", NULL, SILENT, NULL);
    char *key = lesson_progress_key(l);
    int done = 0, step = teacher ? 0 : progress_get(key, &done);
    free(key);
    if (step >= l->nsteps) step = 0;
    say(S, "%s", l->title);
    if (l->section) say(S, "d2l.ai %s", l->section);
    if (l->intro && step == 0) { out("\n"); prose(S, l->intro); }
    if (step > 0) say(S, TR("\nWelcome back: resuming at step %d of %d (type steps to list them, jump 1 to start over).\n"), step + 1, l->nsteps);
    else if (!teacher && done >= l->nsteps) say(S, "\n%s", TR("(You finished this lesson before: it starts again at step 1; attn lesson lists the others.)\n"));
    if (step > 0) rebuild(S, step);
    say(S, "%s", teacher ? TR("(teaching mode: Enter runs the next statement; type help for commands)\n") : TR("(type help for lesson commands)\n"));
    int rc = 0;
    for (;;) {
        if (!walk_steps(S, &step, &done, which)) break;        /* quit */
        int jump_to = -1;
        Action end = lesson_complete(S, &jump_to);
        if (end != ACT_BACK && end != ACT_JUMP) break;
        step = end == ACT_JUMP ? jump_to : l->nsteps - 1;     /* back into the lesson: its variables as it left them */
        rebuild(S, step);
        save(S, step, done);
    }
    if (S->recording) save_record(S);
    if (tty) tty->shutdown();
    reader_free(&S->r);
    session_free(&S->sess);      /* pops it: the caller's session (the REPL's) is current again */
    sb_free(&S->record);
    lesson_sources_free(S->src);
    lesson_free(l);
    free(S);
    return rc;
}

int lesson_run_student(const char *which, const LineEditor *tty, bool in_repl) { return session(which, false, NULL, tty, in_repl); }
int lesson_run_teacher(const char *which, const char *record, const LineEditor *tty) { return session(which, true, record, tty, false); }

/* The title as the list shows it: without a leading "Lesson 3: " ("レッスン 3: ", "第 3 课："), which the number
 * column already says, so a row with its progress fits 80 columns. */
static const char *list_title(const char *title, int num) {
    char digits[16];
    snprintf(digits, sizeof digits, "%d", num);
    const char *colon = strstr(title, ": "), *wide = strstr(title, "\xef\xbc\x9a");     /* ：*/
    const char *end = colon && (!wide || colon < wide) ? colon + 2 : wide ? wide + 3 : NULL;
    if (!end || end - title > 24 || !*end) return title;
    const char *d = strstr(title, digits);
    return d && d < end ? end : title;
}

int lesson_list_command(void) {
    int n;
    char **all = lesson_list(&n);
    if (!n) {
        err_print("%s", TR("attn: no lessons found (looked in $ATTN_LESSONS and the installed share/attn/lessons)\n"));
        if (lesson_dir_note()) err_print("%s", lesson_dir_note());
        return 2;
    }
    out(TR("Lessons (attn lesson N starts or resumes one):\n"));
    outf(TR("(from %s)\n"), lesson_dir());
    Lesson **ls = xcalloc((size_t)n, sizeof *ls);
    AttnError *errs = xcalloc((size_t)n, sizeof *errs);
    int title_w = 0;        /* the widest title: the section column starts after it, in every language */
    for (int i = 0; i < n; i++) {
        ls[i] = lesson_load_localized(all[i], &errs[i]);
        if (ls[i] && tw_width(list_title(ls[i]->title, i + 1)) > title_w) title_w = tw_width(list_title(ls[i]->title, i + 1));
    }
    for (int i = 0; i < n; i++) {
        Lesson *l = ls[i];
        if (!l) { outf(TR("  %d  (cannot read: %s)\n"), i + 1, err_msg(&errs[i])); free(all[i]); continue; }
        int done = 0;
        char *key = lesson_progress_key(l);
        progress_get(key, &done);
        free(key);
        const char *mark = done >= l->nsteps ? TR("done") : done > 0 ? TR("started") : "";
        char sec[24] = "";
        if (l->section) snprintf(sec, sizeof sec, "%.*s", (int)strcspn(l->section, " "), l->section);
        StrBuf row;     /* columns padded by display width: Japanese and Chinese titles are 2 columns a character */
        sb_init(&row);
        sb_printf(&row, "  %d  ", i + 1);
        tw_pad(&row, list_title(l->title, i + 1), title_w);
        sb_puts(&row, "  ");
        tw_pad(&row, sec, 10);
        sb_putc(&row, ' ');
        sb_printf(&row, TR("%d/%d steps"), done > l->nsteps ? l->nsteps : done, l->nsteps);
        if (*mark) sb_printf(&row, " %s", mark);
        sb_putc(&row, '\n');
        out(sb_str(&row));
        sb_free(&row);
        lesson_free(l);
        free(all[i]);
    }
    free(all);
    free(ls);
    free(errs);
    if (lesson_dir_note()) out(lesson_dir_note());
    return 0;
}

/* guide_feed.c - the guided lesson's statements on the one loop (session_feed): what the student types at the
 * prompt, the lesson's statement or model answer that Enter, skip or solution runs, and the lesson's statements run
 * silently (a rebuild, the rest of a step after next). The dialogue (runner.c) chooses what runs and acts on what it
 * came to; here each run gets the lesson's sinks (straight to a terminal, through a buffer elsewhere, thrown away
 * when silent, recorded always), its figures kept out of sight when silent, its names noted (sources.c), and it is
 * recorded and self-checked. Running it, a Ctrl-C, cycle collection, its error and a failed write are session_feed's. */
#include "guide.h"
#include "lesson_translation.h"
#include "i18n.h"
#include "transcript.h"
#include "parser.h"
#include "plot.h"
#include "strbuf.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (!same && lesson_language(S->l->path) != S->sess.I.run.lang) same = lesson_same_but_prose(want, got);
    if (!same && S->selfcheck)
        err_print("attn: lesson self-check: %s:%d: `%s` printed\n%s(the lesson says)\n%s", S->l->path, it->line,
                  it->text, got, want);
    free(want);
    free(got);
    return same;
}

/* Notes what statement stmt (parsed: its parse, or NULL) assigns, before it runs: typed by the student, or the
 * lesson's own (lesson_sources_note). */
static void note_sources(LessonRun *S, const char *stmt, const ParseResult *parsed, bool typed) {
    if (parsed && parsed->tree) { lesson_sources_note(S->src, parsed->tree, typed); return; }
    ParseResult own = parse_program(stmt, 1);
    lesson_sources_note(S->src, own.tree, typed);
    ast_free(own.tree);
}

bool guide_step_measures(const LessonStep *st) {
    for (int k = 0; k < st->nitems; k++)
        if (st->items[k].kind == ITEM_RUN && (strstr(st->items[k].text, "measure_layers(") || strstr(st->items[k].text, "timeit(")))
            return true;
    return false;
}

char *guide_next_input(LessonRun *S, Statement *in, bool *blank) {
    if (ferror(stdout) || !reader_read_statement(&S->r, in)) return NULL;   /* no one reads what comes next */
    const char *t = in->text;
    while (*t == ' ' || *t == '\t') t++;
    *blank = !*t;
    if (!*blank && S->r.editor) S->r.editor->add_history(in->text);
    return in->text;
}

/* A lesson statement run unseen (a rebuild, the rest of a step after next) failed where the lesson shows it run: the
 * memory limit (a lesson started at a REPL that holds most of it), a file gone. The steps after it would miss what it
 * defines, with an error that names something else ("name 'Y' is not defined"), so the student reads which
 * statement, where in the lesson file, and its error as it showed (shown: what it printed): the first of a run only,
 * as those after it may fail for its sake. */
static void unseen_failed(LessonRun *S, const LessonItem *it, const char *shown) {
    char *first = xstrndup(it->text, strcspn(it->text, "\n"));
    guide_say(S, TR(S->sess.I.run.lang, "(the lesson ran `%s` (%s, line %d) unseen, to define what later steps use, "
                                         "and it failed:)\n"), first, S->l->path, it->line);
    guide_out(shown);
    free(first);
}

/* ---- the source ---- */

static Statement *feed_next(SessionSource *src) {
    LessonFeed *f = (LessonFeed *)src;
    statement_free(&f->st);
    return f->choose(f) ? &f->st : NULL;
}

/* Before the chosen statement runs: its names noted, then its output where the lesson's output goes. SHOWN: at a
 * terminal straight to it (figures drawn where the prompt draws them), elsewhere captured to be written after it
 * (figures as summaries); SILENT: captured and thrown away, its figures going nowhere (no window, no file, no
 * number). The recording sits over the capture: it sees what the capture takes. */
static StrBuf *feed_before(SessionSource *src, Statement *st) {
    LessonFeed *f = (LessonFeed *)src;
    LessonRun *S = f->S;
    Interp *I = &S->sess.I;
    note_sources(S, st->text, st->parsed ? &st->parse : NULL, f->typed);
    sb_init(&f->printed);
    sb_init(&f->sink);
    if (f->how == SILENT || !S->tty) interp_push_sink(I, &f->cap, SINK_CAPTURE, &f->sink);
    interp_push_sink(I, &f->rec, SINK_RECORDING, &f->printed);
    Plot *P = &I->run.plot;
    f->figures = plot_figure_count(P);
    f->target = P->target;
    if (f->how == SILENT) P->target = PT_NONE;
    return NULL;
}

/* After it ran (session_feed flushed what it printed): the sinks popped, what was captured for a SHOWN run written,
 * the run recorded and a lesson statement self-checked; then the dialogue's ran. */
static bool feed_after(SessionSource *src, Statement *st, RunStatus *rs) {
    LessonFeed *f = (LessonFeed *)src;
    LessonRun *S = f->S;
    Interp *I = &S->sess.I;
    interp_pop_sink(I, &f->rec);
    if (f->how == SILENT || !S->tty) interp_pop_sink(I, &f->cap);
    if (f->how == SILENT) {
        Plot *P = &I->run.plot;
        plot_rewind(P, f->figures);         /* numbers follow the figures the class saw */
        if (P->target == PT_NONE) P->target = f->target;       /* unless the statement chose a target itself */
    }
    if (f->how == SHOWN && !S->tty) guide_out(sb_str(&f->sink));
    if (f->as == AS_ANSWER) guide_rec_answer(S, st->text, sb_str(&f->printed), f->how == SILENT);
    else guide_rec_statement(S, st->text, sb_str(&f->printed), f->how == SILENT);
    if (f->it) S->as_shown = printed_as_shown(S, f->it, sb_str(&f->printed));
    if (f->how == SILENT && *rs == RUN_ERROR && f->it && !S->as_shown && !f->unseen_failed) {
        unseen_failed(S, f->it, sb_str(&f->printed));
        f->unseen_failed = true;
    }
    sb_free(&f->printed);
    sb_free(&f->sink);
    return f->ran ? f->ran(f, rs) : true;
}

void guide_feed_init(LessonFeed *f, LessonRun *S, bool (*choose)(LessonFeed *), bool (*ran)(LessonFeed *, RunStatus *),
                     void *ctx) {
    memset(f, 0, sizeof *f);
    f->src.next = feed_next;
    f->src.before = feed_before;
    f->src.after = feed_after;
    f->src.last = RUN_OK;
    f->src.stale_interrupt = !S->r.editor;     /* as session_source_reader: at a terminal the reader cleared it */
    f->src.check_output = true;
    f->S = S;
    f->choose = choose;
    f->ran = ran;
    f->ctx = ctx;
}

void guide_feed_typed(LessonFeed *f, Statement *in, const LessonItem *it) {
    f->st = *in;
    memset(in, 0, sizeof *in);
    if (!f->st.parsed) f->st.first_line = 1;   /* an error's caret counts from the statement's first line */
    f->how = SHOWN;
    f->as = AS_STATEMENT;
    f->it = it;
    f->typed = it == NULL;
}

void guide_feed_lesson(LessonFeed *f, const char *text, Shown how, const LessonItem *it, Recorded as) {
    f->st = (Statement){.text = xstrdup(text), .first_line = 1, .parsed = false, .parse = {0}};
    f->how = how;
    f->as = as;
    f->it = it;
    f->typed = false;
}

void guide_feed_run(LessonFeed *f) {
    session_feed(&f->S->sess, &f->src);
    statement_free(&f->st);
}

/* ---- the lesson's statements, run silently ---- */

typedef struct {
    bool seed;          /* torch.manual_seed(0) still to run */
    int s, k, to;       /* the next item: item k of step s; the walk ends before step `to` */
    bool entered;       /* step s's measured is set */
} SilentWalk;

static bool silent_choose(LessonFeed *f) {
    SilentWalk *w = f->ctx;
    LessonRun *S = f->S;
    if (w->seed) {
        w->seed = false;
        guide_feed_lesson(f, "torch.manual_seed(0)", SILENT, NULL, AS_STATEMENT);
        return true;
    }
    while (w->s < w->to) {
        const LessonStep *st = &S->l->steps[w->s];
        if (!w->entered) { S->measured = guide_step_measures(st); w->entered = true; }
        if (w->k >= st->nitems) { w->s++; w->k = 0; w->entered = false; continue; }
        const LessonItem *it = &st->items[w->k++];
        if (it->kind == ITEM_RUN) { guide_feed_lesson(f, it->text, SILENT, it, AS_STATEMENT); return true; }
        if (it->kind == ITEM_QUESTION) { guide_feed_lesson(f, it->q->answer, SILENT, NULL, AS_ANSWER); return true; }
    }
    return false;
}

/* A silent statement's status is nobody's: what failed or quit, the walk goes on past it. */
static bool silent_ran(LessonFeed *f, RunStatus *rs) {
    (void)f;
    *rs = RUN_OK;
    return true;
}

void guide_run_silently(LessonRun *S, bool seed, int from_step, int from_item, int to_step) {
    SilentWalk w = {.seed = seed, .s = from_step, .k = from_item, .to = to_step, .entered = false};
    LessonFeed f;
    guide_feed_init(&f, S, silent_choose, silent_ran, &w);
    f.src.stale_interrupt = false;      /* a Ctrl-C during a rebuild stops the statement it lands in, as it always has */
    guide_feed_run(&f);
}

/* runner.c - the guided lesson's dialogue. A student goes step by step: reads the prose, types each statement (or
 * presses Enter to run it), answers questions checked by value, asks for hints, skips, goes back, jumps, restarts;
 * progress is saved after every step and when input ends. A teacher steps through at their own pace with free
 * detours at the prompt, and can record the session as a transcript that --check replays.
 * Every wait at the prompt is one session_feed (guide_feed.c) whose source is the dialogue: its choose half reads
 * what is typed and acts on the lesson's words, its ran half acts on what a statement came to. Whatever path the
 * student takes, the lesson's variables are what the lesson expects: `next` runs the rest of the step silently, and
 * back, jump, restart and resume run the lesson's statements before the target step again (rebuild). */
#include "guide.h"
#include "lesson_translation.h"
#include "i18n.h"
#include "parser.h"
#include "plot.h"
#include "strbuf.h"
#include "files.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        guide_say(S, TR(S->sess.I.run.lang, "(your %s is not the book's: your line %d, `%s`, differs from the book's `%s`; the step still waits: "
                  "Enter runs the book's %s, which replaces yours)\n"), name, da->line, sb_str(&a), sb_str(&b), name);
        sb_free(&a);
        sb_free(&b);
    } else {
        guide_say(S, TR(S->sess.I.run.lang, "(your %s is not the book's, so the step still waits: Enter runs the book's %s, which replaces yours)\n"),
            name, name);
    }
    ast_free(pa.tree);
    ast_free(pb.tree);
}

/* Saves where the student is (or the teacher's recording). False, with a message, when it could not be saved. */
static bool save(LessonRun *S, int step, int done) {
    AttnError err;
    if (S->teacher) { guide_save_record(S); return true; }
    char *key = lesson_progress_key(S->l);
    bool ok = progress_set(key, step, done, &err);
    free(key);
    if (!ok) { guide_file_trouble(S, "", err_msg(&err)); return false; }
    return true;
}

static void show_step_header(LessonRun *S, int s) {
    LessonStep *st = &S->l->steps[s];
    guide_say(S, TR(S->sess.I.run.lang, "\n== Step %d of %d: %s  [%s] ==\n"), s + 1, S->l->nsteps, st->title, st->id);
    StrBuf h;               /* the recording's heading in the class's language, as the screen's */
    sb_init(&h);
    sb_printf(&h, TR(S->sess.I.run.lang, "Step %d of %d: %s"), s + 1, S->l->nsteps, st->title);
    guide_rec_prose(S, "## %s", sb_str(&h));
    sb_free(&h);
}

static void lesson_help(LessonRun *S) {
    guide_say(S, "%s", S->teacher ? TR(S->sess.I.run.lang, "Teaching: Enter runs the next statement; anything else you type runs as a detour.\n")
                            : TR(S->sess.I.run.lang, "In a lesson: type the statement shown (or press Enter to run it), or any other statement to try something.\n"));
    guide_out(TR(S->sess.I.run.lang, "  hint      a hint for the current question\n"
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
    if (!strcmp(w, "lesson") && n <= 2) { guide_say(S, "%s", TR(S->sess.I.run.lang, "(you are in a lesson already: quit it first, then start another)\n")); return ACT_HANDLED; }
    if (!strcmp(w, "steps") && n == 1) {
        for (int i = 0; i < S->l->nsteps; i++) guide_outf("  %2d  %-24s %s\n", i + 1, S->l->steps[i].id, S->l->steps[i].title);
        return ACT_HANDLED;
    }
    if (!strcmp(w, "help") && n == 1) { lesson_help(S); return ACT_HANDLED; }
    if (!strcmp(w, "jump") && n == 1) { guide_say(S, "%s", TR(S->sess.I.run.lang, "(jump needs a step: jump 3, or jump and a step's id; type steps to list them)\n")); return ACT_HANDLED; }
    if (!strcmp(w, "jump") && n == 2) {
        char *end;
        long k = strtol(a1, &end, 10);
        for (int i = 0; i < S->l->nsteps; i++)
            if ((!*end && k == i + 1) || !strcmp(S->l->steps[i].id, a1)) { *jump_to = i; return ACT_JUMP; }
        guide_say(S, TR(S->sess.I.run.lang, "no step '%s' (type steps to list them)\n"), a1);
        return ACT_HANDLED;
    }
    return ACT_NONE;
}

/* After the lesson's statement `it` ran with status rs: true when it is done. A failure the lesson does not show
 * (a detour changed a name the statement uses) or a Ctrl-C is not: the student is told, and the step waits. Output
 * other than the lesson's is done, with a note that says why it may differ. */
static bool statement_done(LessonRun *S, const LessonItem *it, RunStatus rs) {
    if (rs == RUN_OK && !S->as_shown)       /* done, but the student should know why the page says otherwise */
        guide_say(S, "%s", TR(S->sess.I.run.lang, "(this printed something else than the lesson shows: a detour may have changed a name it uses, "
                        "or drawn random numbers; restart runs this step again with the lesson's values)\n"));
    if (rs == RUN_OK || rs == RUN_QUIT || (rs == RUN_ERROR && lesson_item_shows_error(it))) return true;
    guide_say(S, "%s", rs == RUN_INTERRUPT ? TR(S->sess.I.run.lang, "(interrupted: the step still waits for this statement; Enter runs it again)\n")
                 : TR(S->sess.I.run.lang, "(this statement runs without an error in the lesson, so a detour may have changed a name it "
                      "uses: restart runs this step again with the lesson's values; skip goes on without it)\n"));
    return false;
}

/* Puts the lesson where a student who went straight to step `to` has it: the generator seeded as at the start,
 * then every statement and model answer of the steps before `to` run silently. The student's own names stay;
 * the recording gets these statements too, so that it replays. */
static void rebuild(LessonRun *S, int to) {
    guide_rec_prose(S, TR(S->sess.I.run.lang, "(The lesson's statements before step %d run again, so that its variables are as the lesson left them.)\n"), to + 1);
    guide_run_silently(S, true, 0, 0, to);
}

/* ---- after a figure drawn in the terminal: Enter goes on ---- */

typedef struct {
    LessonRun *S;
    int *jump_to;
    Action act;
} PauseWait;

static bool pause_choose(LessonFeed *f) {
    PauseWait *w = f->ctx;
    LessonRun *S = w->S;
    for (;;) {
        bool blank;
        Statement in;
        char *line = guide_next_input(S, &in, &blank);
        if (!line) { w->act = ACT_QUIT; return false; }
        Action a = blank ? ACT_NONE : lesson_command(S, line, w->jump_to);
        if (blank || (a != ACT_NONE && a != ACT_HANDLED && a != ACT_HINT && a != ACT_SOLUTION)) {
            statement_free(&in);
            w->act = a == ACT_SKIP || a == ACT_NEXT ? ACT_NONE : a;      /* the statement has run: both go on */
            return false;
        }
        if (a == ACT_HINT || a == ACT_SOLUTION) guide_say(S, "%s", TR(S->sess.I.run.lang, "(the figure above: press Enter to go on)\n"));
        if (a == ACT_NONE) { guide_feed_typed(f, &in, NULL); return true; }
        statement_free(&in);
    }
}

/* A statement typed at a prompt that is not waiting for one (under a figure, after the last step): quit() leaves. */
static bool detour_ran(LessonFeed *f, RunStatus *rs) {
    (void)f;
    return *rs != RUN_QUIT;
}

/* After a lesson statement that drew a figure in the terminal (no display: the figure is text, or a sixel picture,
 * as tall as the screen allows): waits for Enter before the prose and the next statement scroll its top away. What
 * is typed instead runs as at the prompt (a lesson command acts: quit, back, jump ...; next and skip go on).
 * ACT_NONE to go on. */
static Action figure_pause(LessonRun *S, int figures_before, int *jump_to) {
    Plot *P = &S->sess.I.run.plot;
    PlotTarget t = plot_resolved_target(P, S->tty);
    if (!S->tty || plot_figure_count(P) == figures_before || (t != PT_TERMINAL && t != PT_SIXEL)) return ACT_NONE;
    guide_say(S, "%s", TR(S->sess.I.run.lang, "(the figure above: press Enter to go on)\n"));
    PauseWait w = {S, jump_to, ACT_NONE};
    LessonFeed f;
    guide_feed_init(&f, S, pause_choose, detour_ran, &w);
    guide_feed_run(&f);
    return f.src.last == RUN_QUIT ? ACT_QUIT : w.act;
}

/* ---- a lesson statement to run ---- */

typedef struct {
    LessonRun *S;
    const LessonItem *it;
    int *jump_to;
    size_t pending;         /* rows of a teacher's "next>" statement just above the prompt */
    unsigned pending_at;    /* the reader's prompt count when it was shown */
    bool lesson;            /* what runs is the lesson's statement (Enter, or skip typed) ... */
    bool blank;             /* ... after an Enter */
    bool same;              /* what the student typed is the lesson's statement */
    char *own, *typed;      /* the student's own version of the lesson's def or class, and their text */
    int figures;            /* the figures before it ran */
    bool done;              /* the lesson's statement has run */
    Action act;
} RunWait;

static bool run_choose(LessonFeed *f) {
    RunWait *w = f->ctx;
    LessonRun *S = w->S;
    const char *stmt = w->it->text;
    for (;;) {
        bool blank;
        Statement in;
        unsigned prompts = S->r.prompts;
        char *line = guide_next_input(S, &in, &blank);
        if (!line) { w->act = ACT_QUIT; return false; }
        Action a = blank ? ACT_SKIP : lesson_command(S, line, w->jump_to);
        if (a == ACT_SKIP) {
            /* Enter at a terminal: the empty prompt line is erased, so the screen shows the statement once, followed
             * by its output, as at the REPL. A teacher's class saw it just above the prompt (shown again after a
             * detour; after a Ctrl-C it is not there); a student sees it where the prompt was. */
            bool shown_above = S->teacher && w->pending && prompts == w->pending_at && S->r.prompts == prompts + 1;
            if (blank) guide_erase_blank_prompt(S, in.text, shown_above ? w->pending : 0);   /* "next>": shown as run */
            statement_free(&in);
            if (!S->teacher || !blank || S->tty) guide_echo_statement(stmt);
            w->figures = plot_figure_count(&S->sess.I.run.plot);
            w->lesson = true;
            w->blank = blank;
            guide_feed_lesson(f, stmt, SHOWN, w->it, AS_STATEMENT);
            return true;
        }
        if (a == ACT_HINT || a == ACT_SOLUTION) guide_say(S, "%s", TR(S->sess.I.run.lang, "(this step shows a statement to run: press Enter to run it)\n"));
        if (a == ACT_HINT || a == ACT_SOLUTION || a == ACT_HANDLED) {       /* steps, help ...: said, the step waits */
            statement_free(&in);
            if (S->teacher && S->tty) { w->pending = guide_show_pending(stmt); w->pending_at = S->r.prompts; }
            continue;
        }
        if (a != ACT_NONE) { statement_free(&in); w->act = a; return false; }
        w->lesson = false;
        w->same = same_statement(line, stmt, &w->own);
        w->figures = plot_figure_count(&S->sess.I.run.plot);
        w->typed = w->own ? xstrdup(line) : NULL;     /* line is the statement's own text, freed with it */
        guide_feed_typed(f, &in, w->same ? w->it : NULL);
        return true;
    }
}

static bool run_ran(LessonFeed *f, RunStatus *rs) {
    RunWait *w = f->ctx;
    LessonRun *S = w->S;
    if (*rs == RUN_QUIT) { w->act = ACT_QUIT; return false; }         /* quit() leaves, as quit does */
    if (w->lesson) {
        w->done = !w->blank || statement_done(S, w->it, *rs);   /* a typed skip goes on, failed or not */
        return !w->done;
    }
    if (w->same && statement_done(S, w->it, *rs)) { w->done = true; return false; }
    if (w->same) return true;
    if (w->own && !S->teacher) own_version_note(S, w->own, w->typed, w->it->text);
    else guide_say(S, "%s", S->teacher ? TR(S->sess.I.run.lang, "(detour: Enter runs the next statement)\n") : TR(S->sess.I.run.lang, "(a detour: the step still waits for the statement above; Enter runs it)\n"));
    free(w->own);
    free(w->typed);
    w->own = w->typed = NULL;
    if (S->teacher && S->tty) { w->pending = guide_show_pending(w->it->text); w->pending_at = S->r.prompts; }   /* what comes next */
    return true;
}

/* Waits for the student to run the lesson statement `it`. Returns an action that leaves the step, or ACT_NONE when
 * it has run (without an error, or with the one the lesson shows). */
static Action do_run(LessonRun *S, const LessonItem *it, int *jump_to) {
    RunWait w = {.S = S, .it = it, .jump_to = jump_to, .pending = 0, .pending_at = S->r.prompts, .lesson = false,
                 .blank = false, .same = false, .own = NULL, .typed = NULL, .figures = 0, .done = false, .act = ACT_NONE};
    if (S->teacher && S->tty) w.pending = guide_show_pending(it->text);
    else if (S->teacher) guide_echo_statement(it->text);
    else {
        guide_say(S, "%s", S->tty ? TR(S->sess.I.run.lang, "Type this, or press Enter to run it:\n") : TR(S->sess.I.run.lang, "Type this, or an empty line to run it:\n"));
        guide_indent_print("    ", it->text);
    }
    LessonFeed f;
    guide_feed_init(&f, S, run_choose, run_ran, &w);
    guide_feed_run(&f);
    free(w.own);
    free(w.typed);
    if (w.act == ACT_QUIT) return ACT_QUIT;
    return w.done ? figure_pause(S, w.figures, jump_to) : w.act;
}

/* ---- a question ---- */

typedef struct {
    LessonRun *S;
    LessonQuestion *q;
    LessonExpect *e;
    int *jump_to;
    int hints, wrong;
    bool reminded, asked;   /* asked: the teacher's last line was an Enter that asked to confirm */
    bool answer;            /* what runs is the lesson's answer (solution, skip, a teacher's Enter) */
    ParseResult own;        /* the parse of what was typed, when the reader did not make one */
    LessonTaking *taking;   /* what was typed, taken as an answer (lesson_take_begin) */
    Action act;
} QuestionWait;

static bool question_choose(LessonFeed *f) {
    QuestionWait *w = f->ctx;
    LessonRun *S = w->S;
    LessonQuestion *q = w->q;
    for (;;) {
        bool blank;
        Statement in;
        char *line = guide_next_input(S, &in, &blank);
        if (!line) { w->act = ACT_QUIT; return false; }
        if (blank && !S->teacher) { statement_free(&in); guide_say(S, "%s", TR(S->sess.I.run.lang, "(type an answer, or hint)\n")); continue; }
        if (blank && S->tty && !w->asked) {
            guide_erase_blank_prompt(S, in.text, 0);
            statement_free(&in);
            guide_say(S, "%s", TR(S->sess.I.run.lang, "(press Enter again to see the answer)\n"));
            w->asked = true;
            continue;
        }
        w->asked = false;
        Action a = blank ? ACT_SOLUTION : lesson_command(S, line, w->jump_to);
        if (a == ACT_HANDLED) { statement_free(&in); continue; }
        if (a == ACT_HINT) {
            statement_free(&in);
            if (w->hints < q->nhints) guide_feedback_text(S, TR(S->sess.I.run.lang, "Hint %d of %d: %s\n"), q->hints[w->hints], w->hints + 1, q->nhints), w->hints++;
            else guide_say(S, "%s", TR(S->sess.I.run.lang, "No more hints: type solution to see the answer.\n"));
            continue;
        }
        if (a == ACT_SOLUTION || a == ACT_SKIP) {
            if (blank) guide_erase_blank_prompt(S, in.text, 0);      /* a teacher's Enter: the answer shown at that prompt */
            statement_free(&in);
            if (!S->teacher) guide_feedback_text(S, TR(S->sess.I.run.lang, "The answer: %s\n"), q->answer);
            guide_echo_statement(q->answer);
            w->answer = true;
            guide_feed_lesson(f, q->answer, SHOWN, NULL, AS_ANSWER);
            return true;
        }
        if (a != ACT_NONE) { statement_free(&in); w->act = a; return false; }
        w->answer = false;
        w->own = (ParseResult){0};
        if (!in.parsed) w->own = parse_program(line, 1);
        Node *tree = in.parsed ? in.parse.tree : w->own.tree;
        w->taking = lesson_take_begin(&S->sess.I, q, w->e, line, tree, S->src);
        guide_feed_typed(f, &in, NULL);
        return true;
    }
}

static bool question_ran(LessonFeed *f, RunStatus *rs) {
    QuestionWait *w = f->ctx;
    LessonRun *S = w->S;
    LessonQuestion *q = w->q;
    if (w->answer) {        /* the answer shown: the question is done */
        if (*rs == RUN_QUIT) w->act = ACT_QUIT;
        return false;
    }
    StrBuf fb;
    sb_init(&fb);
    LessonGrade g = lesson_take_end(w->taking, *rs, &fb);
    w->taking = NULL;
    ast_free(w->own.tree);
    w->own.tree = NULL;
    if (*rs == RUN_QUIT) { sb_free(&fb); w->act = ACT_QUIT; return false; }      /* quit() leaves, as quit does */
    if (g == GRADE_RIGHT) { guide_feedback(S, TR(S->sess.I.run.lang, "Right.\n")); sb_free(&fb); return false; }
    if (g != GRADE_WRONG) { if (fb.len) guide_say(S, "%s", sb_str(&fb)); sb_free(&fb); return true; }
    guide_feedback_text(S, TR(S->sess.I.run.lang, "Not yet: %s.\n"), sb_str(&fb));
    sb_free(&fb);
    if (++w->wrong >= 2 && !w->reminded && !S->teacher) {
        w->reminded = true;
        guide_say(S, "%s", w->hints < q->nhints ? TR(S->sess.I.run.lang, "(stuck? type hint)\n") : TR(S->sess.I.run.lang, "(type solution to see the answer)\n"));
    }
    return true;
}

/* A question: every line runs as at the prompt; only answers are graded (lesson_take). Hints come when asked,
 * with one reminder after repeated misses. The teacher's Enter shows and runs the answer; at a terminal only the
 * second Enter in a row does (the first says so): one Enter too many must not give the answer away to the class. */
static Action do_question(LessonRun *S, LessonQuestion *q, int *jump_to) {
    StrBuf p;
    sb_init(&p);
    sb_printf(&p, TR(S->sess.I.run.lang, "\nQuestion: %s\n"), q->prompt);
    guide_prose(S, sb_str(&p));
    guide_rec_prose(S, "%s", sb_str(&p));
    sb_free(&p);
    if (!S->teacher) guide_say(S, "%s", TR(S->sess.I.run.lang, "(type your answer; hint, solution or skip if you are stuck)\n"));
    LessonExpect *e = lesson_expect(&S->sess.I, q, S->sess.I.run.lang);
    if (!e) {
        StrBuf err;
        sb_init(&err);
        lesson_error_take(&S->sess.I, &err);
        guide_say(S, TR(S->sess.I.run.lang, "(the lesson's own answer fails here: %s; type skip)\n"), sb_str(&err));
        sb_free(&err);
    }
    QuestionWait w = {.S = S, .q = q, .e = e, .jump_to = jump_to, .hints = 0, .wrong = 0, .reminded = false,
                      .asked = false, .answer = false, .own = {0}, .taking = NULL, .act = ACT_NONE};
    LessonFeed f;
    guide_feed_init(&f, S, question_choose, question_ran, &w);
    guide_feed_run(&f);
    lesson_expect_free(e);
    return w.act;
}

/* ---- after the last step ---- */

typedef struct {
    LessonRun *S;
    const char *note;
    int *jump_to;
    Action act;
} EpilogueWait;

static bool epilogue_choose(LessonFeed *f) {
    EpilogueWait *w = f->ctx;
    LessonRun *S = w->S;
    for (;;) {
        bool blank;
        Statement in;
        char *line = guide_next_input(S, &in, &blank);
        if (!line) { w->act = ACT_QUIT; return false; }
        Action a = blank ? ACT_NONE : lesson_command(S, line, w->jump_to);
        if (blank && !S->teacher) { statement_free(&in); continue; }      /* Enter at a prompt: nothing to run */
        if (a == ACT_BACK || a == ACT_JUMP || a == ACT_QUIT) { statement_free(&in); w->act = a; return false; }
        if (blank || a != ACT_NONE) {      /* Enter, or a lesson command: there is no step left */
            if (a != ACT_HANDLED) guide_say(S, "%s", w->note);
            statement_free(&in);
            continue;
        }
        guide_feed_typed(f, &in, NULL);
        return true;
    }
}

/* After the last step: what is typed still runs, with the lesson's variables, until quit, Ctrl-D or the end of
 * input. A class's detours are recorded (the class discusses the last figure, tries another value); a student stays
 * at the prompt with what the lesson defined. `note` is the line that says so. back and jump go back into the lesson
 * (ACT_BACK, or ACT_JUMP with *jump_to); ACT_QUIT when the session ends. */
static Action epilogue(LessonRun *S, const char *note, int *jump_to) {
    guide_say(S, "%s", note);
    EpilogueWait w = {S, note, jump_to, ACT_QUIT};
    LessonFeed f;
    guide_feed_init(&f, S, epilogue_choose, detour_ran, &w);
    guide_feed_run(&f);
    return f.src.last == RUN_QUIT ? ACT_QUIT : w.act;
}

/* "Lesson complete", the next lesson's command for where the student is, and the epilogue. Returns what ended the
 * epilogue (ACT_BACK, ACT_JUMP with *jump_to, or ACT_QUIT). */
static Action lesson_complete(LessonRun *S, int *jump_to) {
    Lesson *l = S->l;
    StrBuf done_msg;
    sb_init(&done_msg);
    sb_printf(&done_msg, TR(S->sess.I.run.lang, "\nLesson complete: %s.\n"), l->title);
    guide_prose(S, sb_str(&done_msg));        /* the next command on a line of its own, never broken */
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
        sb_printf(&done_msg, S->teacher ? TR(S->sess.I.run.lang, "Next: attn teach %d\n") : S->in_repl ? TR(S->sess.I.run.lang, "Next: lesson %d\n") : TR(S->sess.I.run.lang, "Next: attn lesson %d\n"), me + 2);
    else sb_puts(&done_msg, TR(S->sess.I.run.lang, "That was the last lesson.\n"));
    guide_prose(S, sb_str(&done_msg));
    sb_free(&done_msg);
    for (int i = 0; i < n; i++) free(all[i]);
    free(all);
    if (S->teacher) return epilogue(S, TR(S->sess.I.run.lang, "(the lesson is over: what you type still runs; quit ends the class)\n"), jump_to);
    return epilogue(S, S->in_repl ? TR(S->sess.I.run.lang, "(the lesson's variables are still defined: what you type runs as at the prompt; quit goes back to "
                                       "your own session)\n")
                                  : TR(S->sess.I.run.lang, "(the lesson's variables are still defined: what you type runs as at the prompt; quit or "
                                       "Ctrl-D leaves)\n"), jump_to);
}

/* The lesson from step *at on, step by step, until its last step is done (true) or the student or class leaves
 * (false: progress saved); *at and *done_p (the steps done so far) are where it ended. */
static bool walk_steps(LessonRun *S, int *at, int *done_p, const char *which) {
    int step = *at, done = *done_p;
    while (step < S->l->nsteps) {
        show_step_header(S, step);
        LessonStep *st = &S->l->steps[step];
        S->measured = guide_step_measures(st);
        Action act = ACT_NONE;
        int jump_to = -1, k;
        for (k = 0; k < st->nitems && act == ACT_NONE; k++) {
            LessonItem *it = &st->items[k];
            if (it->kind == ITEM_PROSE) {
                bool before_question = k + 1 < st->nitems && st->items[k + 1].kind == ITEM_QUESTION;
                /* a question starts with its own blank line, and so does the next step's heading */
                if (*it->text) { guide_out("\n"); guide_prose(S, it->text); if (!before_question && k + 1 < st->nitems) guide_out("\n"); }
            }
            else if (it->kind == ITEM_RUN) {
                if (k > 0 && st->items[k - 1].kind == ITEM_QUESTION && !S->teacher) guide_out("\n");   /* after "Right." */
                act = do_run(S, it, &jump_to);
            }
            else act = do_question(S, it->q, &jump_to);
        }
        if (act == ACT_QUIT) {
            if (S->teacher) save(S, step, done);
            else if (save(S, step, done))
                guide_say(S, S->in_repl ? TR(S->sess.I.run.lang, "\nProgress saved: lesson %s resumes here.\n") : TR(S->sess.I.run.lang, "\nProgress saved: attn lesson %s resumes here.\n"), which);
            else guide_say(S, "%s", TR(S->sess.I.run.lang, "\nProgress could not be saved (see the message above).\n"));
            *at = step;
            *done_p = done;
            return false;
        }
        if (act == ACT_NEXT) guide_run_silently(S, false, step, k - 1, step + 1);      /* the rest of the step, so later steps find its variables */
        if (act == ACT_BACK || act == ACT_RESTART || act == ACT_JUMP) {
            int to = act == ACT_JUMP ? jump_to : act == ACT_BACK && step > 0 ? step - 1 : step;
            if (act == ACT_BACK && step == 0) guide_say(S, "%s", TR(S->sess.I.run.lang, "(this is the first step: it starts again)\n"));
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

/* One guided session of lesson `which` (a student's, or a teacher's recorded to `record` when not NULL), in its own
 * Session pushed over the caller's: from the step its progress says (a teacher from the first), through the
 * epilogue, until quit or the end of input. Returns the exit status (2: no such lesson). */
static int session(const SessionConfig *cfg, const char *which, bool teacher, const char *record, const LineEditor *tty,
                   Session *outer) {
    Lesson *l = lesson_open(cfg->lang, which);
    if (!l) return 2;
    bool in_repl = outer != NULL;
    LessonRun *S = xcalloc(1, sizeof *S);
    session_init(&S->sess, NULL);
    session_configure(&S->sess, cfg);
    session_stranger(&S->sess, "a lesson", l->path);     /* a stranger's file: its own folder, no raw escapes */
    S->sess.commands = session_commands;
    S->sess.lesson = S;
    /* started at the REPL's prompt: the REPL's memory budget, less what it holds, and its terminal */
    if (outer) session_nest(&S->sess, outer);
    S->l = l;
    S->tty = tty != NULL;
    S->teacher = teacher;
    S->in_repl = in_repl;
    S->sess.I.run.plot.teaching = teacher;     /* a projector's windows: fitted, keyless, closed when the class ends */
    S->width = guide_prose_width(S->tty);
    const char *sc = getenv("ATTN_LESSON_SELFCHECK");
    S->selfcheck = sc && *sc && strcmp(sc, "0") != 0;
    S->recording = record != NULL;
    S->record_path = record;
    sb_init(&S->record);
    S->src = lesson_sources_new();
    reader_init_file(&S->r, stdin, tty);
    S->r.keep_blank = true;
    if (tty) tty->init(&S->sess);        /* the student types into the lesson's session now: its names complete */
    guide_rec_prose(S, "%s", TR(S->sess.I.run.lang, "(Every lesson starts with the random generator seeded with 0.)\n"));
    guide_run_silently(S, true, 0, 0, 0);
    char *key = lesson_progress_key(l);
    int done = 0, step = teacher ? 0 : progress_get(key, &done);
    free(key);
    if (step >= l->nsteps) step = 0;
    guide_say(S, "%s", l->title);
    if (l->section) guide_say(S, "d2l.ai %s", l->section);
    if (l->intro && step == 0) { guide_out("\n"); guide_prose(S, l->intro); }
    if (step > 0) guide_say(S, TR(S->sess.I.run.lang, "\nWelcome back: resuming at step %d of %d (type steps to list them, jump 1 to start over).\n"), step + 1, l->nsteps);
    else if (!teacher && done >= l->nsteps) guide_say(S, "\n%s", TR(S->sess.I.run.lang, "(You finished this lesson before: it starts again at step 1; attn lesson lists the others.)\n"));
    if (step > 0) rebuild(S, step);
    guide_say(S, "%s", teacher ? TR(S->sess.I.run.lang, "(teaching mode: Enter runs the next statement; type help for commands)\n") : TR(S->sess.I.run.lang, "(type help for lesson commands)\n"));
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
    if (S->recording) guide_save_record(S);
    if (tty) tty->shutdown(&S->sess);
    reader_free(&S->r);
    session_free(&S->sess);
    sb_free(&S->record);
    lesson_sources_free(S->src);
    lesson_free(l);
    free(S);
    return rc;
}

int lesson_run_student(const SessionConfig *cfg, const char *which, const LineEditor *tty, Session *outer) {
    return session(cfg, which, false, NULL, tty, outer);
}
int lesson_run_teacher(const SessionConfig *cfg, const char *which, const char *record, const LineEditor *tty) {
    return session(cfg, which, true, record, tty, NULL);
}

/* lesson.h - lessons: Markdown files that read like the chapter and script guided sessions (prefix lesson_).
 * Format (lessons/README.md): "# Title", a "Section: §..." line, "## Step title {#id}" per step; prose; ```attn
 * blocks (inputs and expected output, as transcripts); ```question blocks (prompt, answer:, accept:, hint:,
 * wrong:, forbid:, tolerance:). */
#ifndef ATTN_LESSON_H
#define ATTN_LESSON_H
#include "interp.h"
#include "attnerr.h"
#include "session.h"
#include "i18n.h"
#include <stdio.h>
#include "reader.h"
#include <stdbool.h>

typedef struct LessonQuestion {
    char *prompt;            /* what the student is asked */
    char *answer;            /* the model answer: an expression, or "name = expression" */
    char **alts;             /* further answer: lines: other right answers with other values */
    int nalts;
    char **accept;           /* other right answers (each must pass) */
    int naccept;
    char **wrong;            /* known wrong answers (each must be rejected: the soundness check) */
    char **wrong_why;        /* per wrong answer: what the student is told when theirs equals it (NULL: the usual) */
    int nwrong;
    char **forbid;           /* names an answer may not read (forbid: Y, P_mine): the question asks for the work */
    int nforbid;
    char *forbid_why;        /* what the student is told when an answer reads one (NULL: the usual sentence) */
    char **hints;            /* the ladder, mildest first */
    int nhints;
    char *name;              /* the name the answers assign ("scores = ..."), NULL when they are expressions */
    double tol;              /* absolute tolerance for values (default 1e-4) */
    int line;
} LessonQuestion;

typedef enum { ITEM_PROSE, ITEM_RUN, ITEM_QUESTION } LessonItemKind;

typedef struct LessonItem {
    LessonItemKind kind;
    char *text;              /* prose, or the statement to run */
    char *expected;          /* ITEM_RUN: expected output */
    LessonQuestion *q;       /* ITEM_QUESTION */
    int line;
} LessonItem;

typedef struct LessonStep {
    char *id, *title;
    LessonItem *items;
    int nitems;
    int line;
} LessonStep;

typedef struct Lesson {
    char *path, *title, *section, *id;   /* id: the file name without directory and .md */
    char *intro;                         /* prose before the first step */
    LessonStep *steps;
    int nsteps;
} Lesson;

/* Parses a lesson; NULL with "file:line: message" in err for a malformed one. */
Lesson *lesson_load(const char *path, AttnError *err);
void lesson_free(Lesson *l);

/* Answers (lessons/README.md): when the answer: lines assign a name, a line that assigns that name is an answer;
 * otherwise a line that is one expression whose value could be the answer (a single number when one is asked for, a
 * tensor of the answer's shape, a sequence, or a known wrong value) is one. Every other line is the student looking
 * around: it runs as at the prompt and is not graded. */
typedef struct LessonExpect LessonExpect;
typedef enum { GRADE_NOT_ANSWER, GRADE_RIGHT, GRADE_WRONG, GRADE_FAILED } LessonGrade;

/* The values of q's answer: and wrong: lines in I's present state, computed without output and without changing
 * any variable; the feedback on answers graded against them is in lang (the session's, I->run.lang; a notebook's
 * question cell gives its notebook's, which the kernel's session need not speak). NULL, with the model answer's
 * error pending on I (lesson_error_take), when an answer fails (a broken lesson). */
LessonExpect *lesson_expect(Interp *I, const LessonQuestion *q, I18nLang lang);
/* The error pending on I after lesson_expect or lesson_try failed, as the student is shown it (control characters
 * visible: a stranger's lesson), appended to out; the error is cleared. */
void lesson_error_take(Interp *I, StrBuf *out);
void lesson_expect_free(LessonExpect *e);
/* One attempt at a question, taken before the student's statement runs: its parse (borrowed, may be NULL) and a
 * copy of every tensor the model answer reads, so that grading can tell what the statement used (forbid:), which
 * name it set, and whether it changed one of the lesson's tensors in place (d2l.masked_softmax(S, ...) writes into
 * S). lesson_attempt_free restores nothing: lesson_grade puts a tensor changed in place back. */
typedef struct LessonAttempt LessonAttempt;
typedef struct LessonSources LessonSources;
/* `src` (may be NULL; borrowed until lesson_attempt_free): where the student's names came from (below), so that an
 * answer that reads a name computed from a forbidden one reads that one. */
LessonAttempt *lesson_attempt_begin(Interp *I, const LessonQuestion *q, Node *tree, const LessonSources *src);
void lesson_attempt_free(LessonAttempt *a);
/* Where the values of a student's names came from (sources.c): lesson_sources_note takes each statement before it
 * runs, typed (the student's: the names it assigns remember the names their values were computed from, followed
 * back through earlier assignments) or not (the lesson's: the names it assigns forget theirs).
 * lesson_sources_reach: the first of names[0..n) that the value of `name` was computed from, or NULL. */
LessonSources *lesson_sources_new(void);
void lesson_sources_free(LessonSources *src);
void lesson_sources_note(LessonSources *src, const Node *tree, bool typed);
const char *lesson_sources_reach(const LessonSources *src, const char *name, char *const *names, int n);
/* Grades the statement that has just run in I without an error (I->last_value holds its value when it is an
 * expression); `answers` is lesson_answers' verdict on it, taken before it ran; `a` (may be NULL) the attempt begun
 * before it ran. GRADE_RIGHT leaves the lesson's value of q->name defined. GRADE_WRONG writes why to fb ("your
 * answer is a 2x2x4 tensor, expected a single number", the wrong: line's explanation, the forbid: line's, or a
 * diagnosis: a tensor of the lesson's changed in place, a variable changed by a detour); GRADE_NOT_ANSWER may write
 * a note there ("not graded: the answer is a single number ...", the right value under another name, a tuple that
 * checks one's work). */
LessonGrade lesson_grade(Interp *I, const LessonQuestion *q, const LessonExpect *e, bool answers, LessonAttempt *a,
                         StrBuf *fb);
/* Is the parsed statement (tree, as the reader made it) an answer to q: an assignment to the name q asks for, or,
 * when q asks for a value, one expression? Decided before it runs, from the one parse. lesson_line_answers parses
 * line for it. Everything else a student types runs as at the prompt, ungraded. */
bool lesson_answers(const LessonQuestion *q, Node *tree);
bool lesson_line_answers(const LessonQuestion *q, const char *line);
/* When q asks for a value and line assigns one name (n = 64, ratio = a / b), that name (owned): the student named
 * their answer, and the value it holds after the line ran is graded as if typed alone. NULL otherwise. */
char *lesson_answer_name(const LessonQuestion *q, const char *line);
/* Runs line silently in I, then grades it; GRADE_FAILED with the error pending on I (lesson_error_take) when it
 * does not run. */
LessonGrade lesson_try(Interp *I, const LessonQuestion *q, const LessonExpect *e, const char *line, StrBuf *fb);

/* One statement typed while q is open, taken as the terminal lesson and a lesson notebook take it (one checker for
 * both): whether it answers is decided from its parse (tree, borrowed) and its text (line) before it runs, an
 * attempt is begun (src: where the student's names came from, for forbid:; may be NULL), run(ctx) runs it (showing its output as the caller shows output; *rs is its status), and it is
 * graded in I. Returns GRADE_FAILED when it did not run (or e is NULL: the lesson's own answer fails), GRADE_RIGHT
 * (fb empty; the lesson's value of q->name stays defined), GRADE_WRONG with why in fb (the caller writes "Not yet:
 * %s."; no full stop of its own), or GRADE_NOT_ANSWER with a note to show in fb as it is, or nothing. */
LessonGrade lesson_take(Interp *I, const LessonQuestion *q, const LessonExpect *e, const char *line, Node *tree,
                        const LessonSources *src, RunStatus (*run)(void *ctx), void *ctx, RunStatus *rs, StrBuf *fb);
/* lesson_take in two halves, for a caller whose statement runs in between (the terminal lesson runs it on
 * session_feed): lesson_take_begin before it runs (what it answers, the attempt begun), lesson_take_end after, with
 * its status; lesson_take_end grades as lesson_take does and frees the taking. */
typedef struct LessonTaking LessonTaking;
LessonTaking *lesson_take_begin(Interp *I, const LessonQuestion *q, const LessonExpect *e, const char *line, Node *tree,
                                const LessonSources *src);
LessonGrade lesson_take_end(LessonTaking *t, RunStatus rs, StrBuf *fb);

/* attn notebook N: lesson `which` (as lesson_find takes it) in language lang as an nbformat 4 notebook on the
 * attn kernel, written to out (src/lesson/notebook.c). Returns the exit status (2: no such lesson, 1: a write
 * failed). */
int lesson_notebook_write(I18nLang lang, const char *which, FILE *out);
/* A notebook's question cell starts with the line "%%question LESSON STEP K --lang LL": question K (1-based) of
 * step STEP of lesson LESSON (a lesson's name, never a path), in language LL; words of any length, K a whole number
 * 1..9999. lesson_cell_open loads that lesson and finds the question; false with why in err (in lang, the kernel's).
 * lesson_cell_close frees what it loaded. */
#define LESSON_CELL_MAGIC "%%question"
typedef struct LessonCell {
    Lesson *l;                   /* owned */
    LessonQuestion *q;           /* in l */
    const LessonStep *step;      /* in l: the step q is in */
    int k;                       /* q is the step's question k (1-based) */
    I18nLang lang;               /* the notebook's language (--lang LL; English without one): the question's */
} LessonCell;
bool lesson_cell_open(I18nLang lang, const char *header, LessonCell *c, AttnError *err);
void lesson_cell_close(LessonCell *c);
/* Whether the lesson shows statement it failing (an error line in its expected output). */
bool lesson_item_shows_error(const LessonItem *it);

/* Where lessons live: $ATTN_LESSONS, the installed share/attn/lessons, or the checkout attn was built in (never a
 * ./lessons that happens to be in the current directory). Lists NN-*.md sorted. */
char **lesson_list(int *n);
#define LESSON_DIR_MAX 4200
const char *lesson_dir(char dir[LESSON_DIR_MAX]);   /* the folder lesson_list reads, in dir or $ATTN_LESSONS (NULL when none) */
const char *lesson_dir_note(void);         /* a line for the list when ./lessons is there but not used, else NULL */
char *lesson_progress_key(const Lesson *l);   /* the name its progress is kept under (caller frees) */
/* Finds lesson N (1-based) or a path or a name. Caller frees. NULL when none. */
char *lesson_find(const char *which);

/* Progress in $XDG_STATE_HOME/attn/progress (atomic writes). */
int progress_get(const char *lesson_id, int *done_steps);      /* returns the step to resume at (0-based) */
bool progress_set(const char *lesson_id, int step, int done_steps, AttnError *err);

/* The guided session for a student (interactive or from a pipe), and the teaching mode. Return exit status. After
 * the last step both stay at the prompt with the lesson's variables until quit; outer: the REPL's session when
 * started by `lesson N` at its prompt (the lesson's session is pushed over it, and the hints name `lesson N`), NULL
 * from the command line (`attn lesson N`). cfg: the front end's language and --allow-write folder, which the
 * lesson's session takes. tty: the terminal's line editor (the front end's) when standard input and output are a
 * terminal, else NULL. */
int lesson_run_student(const SessionConfig *cfg, const char *which, const LineEditor *tty, Session *outer);
int lesson_run_teacher(const SessionConfig *cfg, const char *which, const char *record_path, const LineEditor *tty);
/* `attn lesson` alone: the lessons found and the student's progress, in lang. */
int lesson_list_command(I18nLang lang);
/* Question q of step st where a replay of the lesson (--check, --replay: a lesson compiled to a transcript) has come
 * to it: the soundness check in I's present state (names in its text defined, the model answer and every answer:
 * and accept: line right, every wrong: line and the trivial answers rejected), each problem a line of report
 * ("path:line: step 'id': ..."); then its model answer runs unseen, so the statements after it see what it defines.
 * Returns the problems found. */
int lesson_replay_question(Interp *I, const char *path, const LessonStep *st, const LessonQuestion *q, StrBuf *report);
/* The first line of a teach --record recording: "# Recorded class: TITLE". A recording is a transcript (its
 * ```question blocks hold the answers shown in class: run, their output not compared), not a lesson. */
#define LESSON_RECORDING_TITLE "# Recorded class: "
/* True when the file holds ```question blocks or lives under lessons/ (a lesson rather than a plain transcript),
 * and is not a recording. */
bool lesson_is_lesson_file(const char *path);
#endif

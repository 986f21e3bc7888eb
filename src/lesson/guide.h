/* guide.h - what the files of the guided lesson share inside src/lesson (prefix guide_): runner.c is the dialogue
 * (steps, the student's words, questions, where the lesson goes next), guide_feed.c runs its statements on the one
 * loop (session_feed), guide_record.c keeps a teacher's recording, guide_screen.c writes what the student reads.
 * One LessonRun is one guided session; everything here takes it and none of it outlives it. */
#ifndef ATTN_GUIDE_H
#define ATTN_GUIDE_H
#include "lesson.h"
#include "session.h"
#include "reader.h"
#include "strbuf.h"
#include <stdbool.h>
#include <stddef.h>

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

/* ---- guide_feed.c: the lesson's statements on session_feed ---- */

/* One wait of the dialogue at the prompt (for the lesson's statement, an answer, Enter under a figure, the prompt
 * after the last step), or a walk through the lesson's own statements run silently, as a source of session_feed.
 * The dialogue gives two halves of its loop: choose reads what the student types (guide_next_input), acts on the
 * lesson's words, and sets the statement to run (guide_feed_typed or guide_feed_lesson), or returns false to end
 * the wait; ran acts on what it came to and returns false to end the wait (*rs as session_feed's after). */
typedef struct LessonFeed LessonFeed;
struct LessonFeed {
    SessionSource src;      /* first member: session_feed's */
    LessonRun *S;
    bool (*choose)(LessonFeed *f);
    bool (*ran)(LessonFeed *f, RunStatus *rs);
    void *ctx;              /* the dialogue's state for this wait */
    /* the statement chosen, and how it runs */
    Statement st;           /* owned: what the student typed, or a copy of the lesson's text */
    Shown how;
    Recorded as;
    const LessonItem *it;   /* the lesson statement it is (self-checked and its as_shown noted), NULL for none */
    bool typed;             /* the student's own: the names it assigns remember their sources (lesson_sources_note) */
    /* while it runs */
    StrBuf printed, sink;   /* printed: what it printed, as a transcript has it (figures as summaries) */
    OutputSink cap, rec;
    int figures;
    PlotTarget target;
    bool unseen_failed;     /* a lesson statement run unseen has failed and been reported: the rest, which may fail
                             * for want of its names, are not */
};
/* A wait at the prompt in S: statements typed there run as at the prompt, and as session_source_reader's do: a Ctrl-C
 * still pending when one starts is dropped when the input is not a terminal (the line editor clears it before
 * reading a line). */
void guide_feed_init(LessonFeed *f, LessonRun *S, bool (*choose)(LessonFeed *), bool (*ran)(LessonFeed *, RunStatus *),
                     void *ctx);
/* choose's two ways to set the statement: what the student typed (*in taken over; it: when it is the lesson's
 * statement itself), shown and recorded as a statement; or a text of the lesson (copied), run as `how` says. */
void guide_feed_typed(LessonFeed *f, Statement *in, const LessonItem *it);
void guide_feed_lesson(LessonFeed *f, const char *text, Shown how, const LessonItem *it, Recorded as);
/* Runs the wait (session_feed) until choose or ran ends it, the input ends, or a statement quits. */
void guide_feed_run(LessonFeed *f);
/* Runs silently, as a student who went straight on has them run: torch.manual_seed(0) first when `seed`, then the
 * statements and model answers of step from_step from item from_item on, and of every step after it before to_step. */
void guide_run_silently(LessonRun *S, bool seed, int from_step, int from_item, int to_step);
/* The next statement typed in the session, read into *in (its text is returned, owned by *in; NULL at the end of
 * input or when no one reads the output); *blank when it is an empty line. A line with content goes into the
 * history at a terminal. */
char *guide_next_input(LessonRun *S, Statement *in, bool *blank);
/* Whether step st times something (measure_layers, timeit): what its answers print differs at every run. */
bool guide_step_measures(const LessonStep *st);

/* ---- guide_record.c: the recording (teach --record) ---- */
void guide_rec_prose(LessonRun *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void guide_rec_statement(LessonRun *S, const char *stmt, const char *printed, bool silent);
void guide_rec_answer(LessonRun *S, const char *answer, const char *printed, bool silent);
void guide_save_record(LessonRun *S);

/* ---- guide_screen.c: what the student reads ---- */
void guide_out(const char *s);
void guide_outf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void guide_term(const char *codes);
void guide_prose(LessonRun *S, const char *text);
void guide_say(LessonRun *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void guide_file_trouble(LessonRun *S, const char *what, const char *why);
int guide_prose_width(bool tty);
void guide_indent_print(const char *prefix, const char *text);
void guide_echo_statement(const char *stmt);
size_t guide_show_pending(const char *stmt);
void guide_erase_blank_prompt(LessonRun *S, const char *typed, size_t above);
void guide_feedback(LessonRun *S, const char *text);
void guide_feedback_text(LessonRun *S, const char *fmt, const char *text, ...);
#endif

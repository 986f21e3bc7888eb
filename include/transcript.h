/* transcript.h - golden transcripts (prefix tr_). A transcript is Markdown: prose, and ```attn fenced blocks in
 * which "attn> " lines are input ("  ...> " continues one) and the other lines are the output expected from it
 * (read by mdblock.h, the same reader as lessons'). Numbers are compared to the precision written in the expected
 * text: 0.1769 accepts 0.1768..0.1770. A recorded class (attn teach --record) also has ```question blocks (an answer
 * and what it printed) and ```attn silent blocks (statements the class did not see: compared, but their figures take
 * no numbers); its replay runs from the recording's folder and writes no file (FilePolicy.dry). */
#ifndef ATTN_TRANSCRIPT_H
#define ATTN_TRANSCRIPT_H
#include "interp.h"
#include "session.h"
#include "attnerr.h"
#include "i18n.h"
#include <stdbool.h>

typedef struct TrStep {
    char *input;            /* the statement, continuation lines joined with '\n' */
    int line;               /* line of its "attn> " in the file */
    char *expected;         /* expected output (may be "") */
    int expected_line;      /* first line of the expected output */
    int end_line;           /* line after the last expected line */
    bool silent;            /* a lesson question's model answer: run, but its output is not compared */
    bool unseen;            /* in an ```attn silent block (a recorded class's statements no one saw: a jump's
                             * rebuild): compared, but its figures take no numbers, as in the class */
    int block;              /* index of its ```attn block in blocks (-1 for a question's answer, a lesson's step) */
    /* A lesson compiled to a transcript (tr_open): the question this step is (its input the model answer), checked
     * where it stands (lesson_replay_question), what it "prints" the check's report ("" when it is sound); NULL for a
     * statement. */
    const struct LessonQuestion *question;
    const struct LessonStep *lesson_step;   /* a lesson's: the step of the lesson it is in; NULL for a transcript's */
} TrStep;

/* An ```attn block: where its fences are, so --update can lengthen them when an output holds a line of ```. */
typedef struct TrBlock {
    int open_line, close_line;
    int fence_len;
} TrBlock;

typedef struct Transcript {
    char *path;
    char *text;             /* the whole file */
    TrStep *steps;
    int nsteps;
    TrBlock *blocks;
    int nblocks;
    /* A lesson compiled to a transcript (owned): its statements are steps (the output the lesson shows expected), its
     * questions steps too (above); NULL for a transcript file. */
    struct Lesson *lesson;
} Transcript;

/* Appends a statement as a transcript's input lines (and as it looks typed at the prompt): "attn> " before its
 * first line, "  ...> " before the others ("  ...>" before an empty one). */
void tr_put_input(StrBuf *b, const char *input);
/* Loads and splits a transcript; NULL with a message "file:line: ..." in err. */
Transcript *tr_load(const char *path, AttnError *err);
Transcript *tr_parse(const char *path, const char *text, AttnError *err);
void tr_free(Transcript *t);
/* What --check and --replay run: the transcript at path, or, for a lesson file (lesson_is_lesson_file), the lesson
 * compiled to one, so that one checker serves transcripts, lessons and recorded classes. NULL with a message in err. */
Transcript *tr_open(const char *path, AttnError *err);

/* A transcript's language, set by a line "<!-- lang: ja -->" (ja, zh or en) before its first block, as a class
 * recorded in Japanese or Chinese starts (teach --record): its steps run in that language, whose prose the chapter's
 * tools printed. Without one, English, whatever the reader's language: a transcript replays the same anywhere. A
 * lesson's is the language it is written in (lesson_language): its expected outputs hold the tools' prose in it. */
#define TR_LANG_LINE "<!-- lang: %s -->"
I18nLang tr_language(const Transcript *t);

/* Runs every step in a fresh session of its own language (tr_language(t)), with cfg's --allow-write folder (the
 * front end's; the reader's language stays the caller's, nothing is switched); outputs[i] receives what step i
 * printed (caller frees each). quit() ends the run: later steps print nothing. */
void tr_run(const SessionConfig *cfg, Transcript *t, char **outputs);

/* True when actual matches expected: text equal once runs of spaces are folded, numbers with decimals or an
 * exponent equal to the precision written in expected (0.1769 accepts 0.1768..0.1770), integers exactly. */
bool tr_match(const char *expected, const char *actual);
/* The one checker's verdict on a step (--check of a transcript, of a lesson, of a recorded class): true when actual
 * matches expected (tr_match); otherwise false, and the difference appended to d as a unified diff hunk at
 * path:line: "--- path:line (expected)", "+++ path:line (actual)", "@@ -line,N +line,M @@", the statement (" attn> "
 * input, or "(multi-line statement)"), then the expected lines with '-', the actual ones with '+'. */
bool tr_check_step(StrBuf *d, const char *path, int line, const char *input, const char *expected, const char *actual);

/* Command line actions; return the exit status. --check and --replay of a lesson (tr_open): "N steps and questions
 * ok" or "N of M steps and questions differ", a question's problems as its report lines; --replay prints each
 * lesson step's heading "## title {#id}" and its statements as "attn> " and the text, and is 1 when a question is
 * unsound. */
int tr_replay(const SessionConfig *cfg, const char *path);
int tr_check(const SessionConfig *cfg, const char *path, bool quiet);
int tr_update(const SessionConfig *cfg, const char *path);
#endif

/* session.h - one run of attn (prefix session_): the REPL, a lesson, a teaching session, a transcript replay.
 *
 * A Session owns everything that belongs to one run and would otherwise be a global: the interpreter (names,
 * errors, output), the random generator, the print options, the plots (target, figures, the gnuplot process), the
 * word-commands its prompt understands, and the lesson being run. Sessions nest: `lesson 2` typed at the REPL,
 * or a transcript replayed by a test, pushes a fresh session over the current one and pops it at the end, so
 * nothing of the inner run leaks into the outer one (and the completer never sees a freed interpreter).
 *
 * Every statement of every kind of run goes through session_run(): a word-command, or code that the reader has
 * already parsed (the tree is handed over, never parsed twice).
 */
#ifndef ATTN_SESSION_H
#define ATTN_SESSION_H
#include "interp.h"
#include "plot.h"
#include "files.h"
#include "tensor.h"
#include <stdbool.h>

typedef struct Session Session;

/* What running one statement came to. */
typedef enum {
    RUN_OK = 0,
    RUN_ERROR,        /* it failed; the message went to the output (capture or stderr) */
    RUN_INTERRUPT,    /* Ctrl-C stopped it; the notice went to the output */
    RUN_QUIT          /* quit, exit, quit() or exit(): the run should end (nothing printed) */
} RunStatus;

/* A word typed at the prompt that is not code: `help`, `help NAME`, `quit`, `lesson 2`. The table is the
 * session's (main gives the REPL's, lessons and transcripts give theirs), so the language and the REPL need not
 * know the lesson runner. */
typedef struct SessionCommand {
    const char *word;
    int args;                                          /* 0: the word alone; 1: an optional argument; 2: required */
    RunStatus (*run)(Session *S, const char *arg);     /* arg: NULL when none */
} SessionCommand;

struct Session {
    Interp I;                        /* the interpreter: globals, the error record, where output goes, and the run's
                                      * generator, print options, default dtype, plots and write policy (I.run) */
    const SessionCommand *commands;  /* NULL-word terminated; NULL for none */
    void *lesson;                    /* the lesson being run (the lesson module's), NULL otherwise */
    /* A Jupyter kernel's (attn --frames), NULL elsewhere: an error or interruption is handed here instead of being
     * written out, as the pending record (its kind, Python's class, message, place) and its text as the prompt
     * shows it (the message, the line, the caret, the calls). */
    void (*on_error)(Session *S, const Error *e, const char *shown);
    void *on_error_ctx;
    Session *below;                  /* the session this one was pushed over, NULL for the outermost */
    int running;                     /* runs of student code under way in S (session_run, session_run_unseen) */
};

/* A fresh session: empty interpreter, generator seeded with 0, PyTorch's print options, plot target from
 * $ATTN_PLOT (or `plot_target` when not NULL), no commands. */
void session_init(Session *S, const char *plot_target);
/* Frees what it owns (its gnuplot quits; windows opened with persist stay). Pops it first if it is current. */
void session_free(Session *S);

/* S runs a stranger's file (who: "a lesson", "a transcript"; source: its path): it writes only into the file's
 * folder (or --allow-write's) and never over a file it did not make (files.h), and what it prints and its errors show
 * control characters as \xHH (interp.h) instead of sending them to the terminal: a lesson cannot set the window's
 * title or write the clipboard (OSC 52). The student's own REPL is not restricted: their print('\x1b[31m') colours. */
void session_stranger(Session *S, const char *who, const char *source);

/* Makes S the current session (for the completer, signal-time code, and values printing) over the current one. */
void session_push(Session *S);
/* Back to the session S was pushed over. S must be the current one. */
void session_pop(Session *S);
/* The current session; NULL before any was pushed. */
Session *session_current(void);
/* The session an interpreter belongs to (I->session), else the current one, else a process-wide default: never
 * NULL, so a bare Interp (unit tests) still has a generator and print options. */
Session *session_of(Interp *I);

/* Runs one statement as the prompt does: a word of S->commands, else code. parsed: the reader's parse of src
 * (its tree is taken over; NULL to parse here). Output goes down S->I's sinks to S->I.out (interp_push_sink); an
 * error's message (or the interruption notice) to S->on_error when set, else down the sinks, else to stderr. The error
 * is cleared afterwards, and so is a Ctrl-C that stopped it. */
RunStatus session_run(Session *S, const char *src, ParseResult *parsed, const char *src_name, int first_line);
/* Runs src as session_run does (a word-command, else code), what it prints and its error appended to out instead of
 * going on down the sinks: a transcript's step, a lesson's statement replayed. */
RunStatus session_run_into(Session *S, const char *src, StrBuf *out);
/* Runs src as code (never a word-command) as session_run does, unseen: its output captured and dropped, no value
 * echoed, S->I.last_value the value of a last bare expression (a lesson's answer checked). When it fails the error
 * stays pending in S->I.error for the caller to read and clear (RUN_ERROR, RUN_INTERRUPT, RUN_QUIT for quit()). */
RunStatus session_run_unseen(Session *S, const char *src);
/* The prompt's word-commands every session understands: help, help NAME, quit, exit (NULL-word terminated). */
extern const SessionCommand session_commands[];
RunStatus session_cmd_help(Session *S, const char *arg);     /* help, help NAME: as help(NAME) */
RunStatus session_cmd_quit(Session *S, const char *arg);     /* quit, exit: RUN_QUIT */
/* The word-command src names, or NULL; *arg receives its argument (caller frees, NULL when none). */
const SessionCommand *session_command(const Session *S, const char *src, char **arg);
#endif

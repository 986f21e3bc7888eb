/* session.h - one run of attn (prefix session_): the REPL, a lesson, a teaching session, a transcript replay.
 *
 * A Session owns everything that belongs to one run and would otherwise be a global: the interpreter (names,
 * errors, output), the random generator, the print options, the plots (target, figures, the gnuplot process), the
 * word-commands its prompt understands, its language, and the lesson being run. Sessions nest: `lesson 2` typed at
 * the REPL, or a transcript replayed by a test, runs in a fresh session of its own and frees it at the end, so
 * nothing of the inner run leaks into the outer one. There is no "current session": whoever types into one hands it
 * to the line editor (LineEditor.init), whose completer completes its names.
 *
 * Every statement of every kind of run goes through session_run(): a word-command, or code that the reader has
 * already parsed (the tree is handed over, never parsed twice). Every run of many statements (the terminal, a pipe,
 * a file, attn -c, a Jupyter cell, a transcript's or a lesson's steps, the guided lesson at the prompt) is one loop,
 * session_feed() over a SessionSource; the guided lesson's source is its dialogue (src/lesson/guide_feed.c), which
 * reads the lesson's words between statements and chooses what runs.
 */
#ifndef ATTN_SESSION_H
#define ATTN_SESSION_H
#include "interp.h"
#include "plot.h"
#include "files.h"
#include "tensor.h"
#include "reader.h"
#include <stdbool.h>

typedef struct Session Session;

/* What a session takes from the command line that started attn: main.c fills one (--lang or the locale,
 * --allow-write) and hands it to every session it starts, directly or through a lesson, a transcript or a notebook
 * kernel, which gives theirs the language they are read in. No session reads a process-wide setting. */
typedef struct SessionConfig {
    I18nLang lang;               /* the language of its messages (RunContext.lang) */
    const char *allow_write;     /* --allow-write's folder (not owned; the front end's), NULL when not given: a
                                  * stranger's file (session_stranger) may write there too */
} SessionConfig;

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
    SessionConfig config;            /* the front end's options (session_configure) */
    int running;                     /* runs of student code under way in S (session_run, session_run_unseen) */
    int64_t gc_every;                /* containers made between two collections of cycles (ATTN_GC_EVERY) */
};

/* A fresh session: empty interpreter, generator seeded with 0, PyTorch's print options, plot target from
 * $ATTN_PLOT (or `plot_target` when not NULL), no commands, the language of the locale variables and no
 * --allow-write folder (session_configure gives it the front end's). */
void session_init(Session *S, const char *plot_target);
/* Gives S the front end's options (copied; allow_write stays the caller's string): its language and the folder a
 * stranger's file may write to besides its own. */
void session_configure(Session *S, const SessionConfig *cfg);
/* S's messages, and the fonts of its figures, in lang (a transcript's or a notebook's own language). */
void session_set_lang(Session *S, I18nLang lang);
/* S runs inside outer, which waits for it (a lesson started at outer's prompt): one memory budget serves both, so
 * what outer holds now (its tensors and values) counts against S's limit (ten_ctx_nest), and a MemoryError in S says
 * how much of the limit outer holds. S also takes what belongs to the machine and the student, not to the run:
 * outer's terminal (its answers are not asked again) and the thread count torch.set_num_threads gave outer (process-
 * wide in PyTorch). What a lesson's output depends on stays S's own, as a fresh run has it: the generator seeded
 * with 0, PyTorch's print options, float32 as the default dtype, grad mode on; the language and --allow-write folder
 * come from the front end (SessionConfig) to both. */
void session_nest(Session *S, const Session *outer);
/* Frees what it owns (its gnuplot quits; windows opened with persist stay). */
void session_free(Session *S);

/* S runs a stranger's file (who: "a lesson", "a transcript"; source: its path): it writes only into the file's
 * folder (or --allow-write's) and never over a file it did not make (files.h), and what it prints and its errors show
 * control characters as \xHH (interp.h) instead of sending them to the terminal: a lesson cannot set the window's
 * title or write the clipboard (OSC 52). The student's own REPL is not restricted: their print('\x1b[31m') colours. */
void session_stranger(Session *S, const char *who, const char *source);


/* Runs one statement as the prompt does: a word of S->commands, else code. parsed: the reader's parse of src
 * (its tree is taken over; NULL to parse here). Output goes down S->I's sinks to S->I.out (interp_push_sink); an
 * error's message (or the interruption notice) to S->on_error when set, else down the sinks, else to stderr. The error
 * is cleared afterwards, and so is a Ctrl-C that stopped it. */
RunStatus session_run(Session *S, const char *src, ParseResult *parsed, const char *src_name, int first_line);
/* Runs src as code (never a word-command) as session_run does, unseen: its output captured and dropped, no value
 * echoed, S->I.last_value the value of a last bare expression (a lesson's answer checked). When it fails the error
 * stays pending in S->I.error for the caller to read and clear (RUN_ERROR, RUN_INTERRUPT, RUN_QUIT for quit()). */
RunStatus session_run_unseen(Session *S, const char *src);
/* Where a run's statements come from (session_feed): a terminal, a pipe or a file (session_source_reader), attn -c
 * or a file run as Python runs a script, or a Jupyter cell (session_source_script), or a list of statements (a
 * transcript's steps: session_source_list). A front end that has to act before or after each statement embeds the
 * source as the first member of its own struct and sets the hooks. */
typedef struct SessionSource SessionSource;
struct SessionSource {
    /* The next statement (its text, first line and the reader's parse), the source's until the next call; NULL at the
     * end. session_run takes its tree over. */
    Statement *(*next)(SessionSource *src);
    /* Optional, before st runs: a buffer its output (and its error) is appended to, or NULL: down S->I's sinks. */
    StrBuf *(*before)(SessionSource *src, Statement *st);
    /* Optional: runs st its own way instead of session_run (a lesson's question in a replay: checked, its model answer
     * run unseen), its output going where before said, and returns true with its status in *rs; false: session_run. */
    bool (*run)(SessionSource *src, Session *S, Statement *st, RunStatus *rs);
    /* Optional, after st ran: may change *rs (a result that failed to show); false ends the feed. */
    bool (*after)(SessionSource *src, Statement *st, RunStatus *rs);
    const char *name;        /* the source's name in error messages ("-c", a file, "<stdin>"); NULL for none */
    bool stop_at_error;      /* a script: its first failure ends the feed, as Python's does */
    bool stale_interrupt;    /* not typed at a terminal: a Ctrl-C pending before a statement starts is not for it */
    bool check_output;       /* S->I.out is flushed after each statement; a failed write ends the feed */
    /* the reader's, or the list's */
    LineReader *reader;
    Statement cur;           /* the reader's statement being run */
    Statement *list;
    int nlist, pos;
    bool borrowed;           /* list is the caller's: neither freed nor emptied here */
    bool syntax;             /* a script with a syntax error: only that statement runs (it reports the error) */
    int bad;                 /* which one that is */
    /* what the feed came to */
    int failures;            /* statements that failed (quit is no failure) */
    RunStatus last;          /* the status of the last statement run (RUN_OK when none ran) */
};

/* Statements as r reads them, blank ones skipped; at a terminal each goes into the line editor's history. The
 * feed goes on after an error unless stop_at_error is set. */
void session_source_reader(SessionSource *src, LineReader *r, const char *name, bool stop_at_error);
/* A script as Python runs one (a FILE, attn -c, a Jupyter cell): every statement of r is read first, and a syntax
 * error anywhere (not a word-command of S) is the one statement run; else they run until the first that fails. */
void session_source_script(SessionSource *src, Session *S, LineReader *r, const char *name);
/* The statements texts[0..n) (copied; parsed when they run, each as line 1), run whatever fails before. */
void session_source_texts(SessionSource *src, char *const *texts, int n);
/* The caller's statements sts[0..n) (borrowed: their trees are taken over as they run, the rest stays the caller's),
 * run until the first that fails. */
void session_source_statements(SessionSource *src, Statement *sts, int n);
/* Frees the statements the source holds (a borrowed list stays the caller's). */
void session_source_free(SessionSource *src);
/* The one loop: runs the statements of src in S one after another (session_run each: word-commands, cycle
 * collection, errors reported to S->on_error or down the sinks) until the end, quit, or, with stop_at_error, the
 * first failure; a stale Ctrl-C is dropped before each. Returns src->failures. */
int session_feed(Session *S, SessionSource *src);

/* The prompt's word-commands every session understands: help, help NAME, quit, exit (NULL-word terminated). */
extern const SessionCommand session_commands[];
RunStatus session_cmd_help(Session *S, const char *arg);     /* help, help NAME: as help(NAME) */
RunStatus session_cmd_quit(Session *S, const char *arg);     /* quit, exit: RUN_QUIT */
/* The word-command src names, or NULL; *arg receives its argument (caller frees, NULL when none). */
const SessionCommand *session_command(const Session *S, const char *src, char **arg);
#endif

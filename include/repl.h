/* repl.h - reading statements from a terminal, a pipe or a file, and running them (prefix repl_). */
#ifndef ATTN_REPL_H
#define ATTN_REPL_H
#include "session.h"
#include "reader.h"
#include "parser.h"
#include <stdbool.h>
#include <stdio.h>

/* Runs st in S (session_run with the reader's parse). */
RunStatus repl_run_statement(Session *S, Statement *st, const char *src_name);

/* Runs statements until the end of input or quit, or, with stop_at_error (a script: a file, attn -c, a pipe), until
 * the first that fails, as Python runs a script. Returns the number of statements that failed. */
int repl_run(Session *S, LineReader *r, const char *src_name, bool stop_at_error);
/* A script as Python runs one (a FILE, attn -c): every statement is read first, and a syntax error anywhere is
 * reported before anything runs; else the statements run until the first that fails. Returns the failures (0 or 1). */
int repl_run_script(Session *S, LineReader *r, const char *src_name);


/* attn --frames (frames.c): cells on standard input, framed replies on standard output, for the Jupyter kernel.
 * Returns the exit status. */
int repl_frames(const char *version);

/* completion (complete.c), at the prompt and in a Jupyter kernel */
extern const char repl_word_breaks[];          /* a word to complete starts after the last of these before the cursor */
/* Every name that completes text ("ma", "X.res", "torch.nn.Li"), in the order the prompt lists them: after "a.b."
 * the attributes of what a.b names in the current session, else its names, attn's functions, modules and keywords.
 * Returns how many; *out (each string and the array) is the caller's to free, NULL when none. */
int repl_completions(const char *text, char ***out);

/* line editing (lineedit.c): completion looks at the current session's names */
extern const LineEditor lineedit_terminal;     /* the functions below, for a reader or a lesson at a terminal */
void lineedit_init(void);
/* The next line typed (caller frees); NULL at Ctrl-D, or after Ctrl-C with *interrupted set (the line typed so far is
 * dropped, attn goes on). */
char *lineedit_read(const char *prompt, bool *interrupted);
/* Is more input already waiting at the terminal? After a paste it is (libedit reads a byte at a time, so the rest
 * of the pasted text is still to be read); after a person pressed Enter on an empty line it is not. */
bool lineedit_input_pending(void);
void lineedit_add_history(const char *line);
void lineedit_shutdown(void);
#endif

/* repl.h - the front end (prefix repl_): the Jupyter frames, completion and line editing; main.c feeds the terminal,
 * a pipe, a file and attn -c to the session (session_feed). */
#ifndef ATTN_REPL_H
#define ATTN_REPL_H
#include "session.h"
#include "reader.h"
#include "parser.h"
#include <stdbool.h>
#include <stdio.h>

/* attn --frames (frames.c): cells on standard input, framed replies on standard output, for the Jupyter kernel.
 * Returns the exit status. */
int repl_frames(const char *version, const SessionConfig *cfg);

/* completion (complete.c), at the prompt and in a Jupyter kernel */
extern const char repl_word_breaks[];          /* a word to complete starts after the last of these before the cursor */
/* Every name that completes text ("ma", "X.res", "torch.nn.Li"), in the order the prompt lists them: after "a.b."
 * the attributes of what a.b names in session S (NULL: none), else its names, attn's functions, modules and
 * keywords. Returns how many; *out (each string and the array) is the caller's to free, NULL when none. */
int repl_completions(Session *S, const char *text, char ***out);

/* line editing (lineedit.c): completion looks at the names of the session lines are typed into */
extern const LineEditor lineedit_terminal;     /* the functions below, for a reader or a lesson at a terminal */
/* Lines are typed into S from now until lineedit_shutdown(S) (a lesson's session inside the REPL's: they nest, the
 * innermost is completed and its language speaks). */
void lineedit_init(Session *S);
/* The next line typed (caller frees); NULL at Ctrl-D, or after Ctrl-C with *interrupted set (the line typed so far is
 * dropped, attn goes on). */
char *lineedit_read(const char *prompt, bool *interrupted);
/* Is more input already waiting at the terminal? After a paste it is (libedit reads a byte at a time, so the rest
 * of the pasted text is still to be read); after a person pressed Enter on an empty line it is not. */
bool lineedit_input_pending(void);
void lineedit_add_history(const char *line);
void lineedit_shutdown(Session *S);
#endif

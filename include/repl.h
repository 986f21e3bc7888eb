/* repl.h - reading statements from a terminal, a pipe or a file, and running them (prefix repl_). */
#ifndef ATTN_REPL_H
#define ATTN_REPL_H
#include "session.h"
#include "parser.h"
#include <stdbool.h>
#include <stdio.h>

typedef struct LineReader {
    bool interactive;        /* libedit at a terminal */
    FILE *in;                /* when not interactive */
    const char *text;        /* or lines from a string (attn -c) */
    size_t text_pos;
    char *pushback;          /* a line read ahead and given back */
    int lineno;              /* number of the last line read */
    bool show_prompts;
    bool keep_blank;         /* return blank lines (in lessons, an empty line means "run it") */
    bool interrupted;        /* the last line read at the terminal ended with Ctrl-C */
    unsigned prompts;        /* prompts shown at the terminal so far */
} LineReader;

void reader_init_file(LineReader *r, FILE *in, bool interactive);
void reader_init_text(LineReader *r, const char *text);
/* The next line without its newline (caller frees), or NULL at the end. */
char *reader_line(LineReader *r, bool continuation);
void reader_unread(LineReader *r, char *line);
void reader_free(LineReader *r);

/* One statement as the reader found it: its text and the parse it made to know the statement was complete, so
 * the statement is never parsed twice. */
typedef struct Statement {
    char *text;              /* lines joined with '\n' (owned) */
    int first_line;          /* the number of its first line */
    bool parsed;             /* parse holds the parse of text (a tree, or a syntax error) */
    ParseResult parse;       /* its tree is owned until handed to session_run */
} Statement;

/* Reads one whole statement: more lines while brackets are open, and the indented body of for/if/while/def.
 * false at the end of input. Ctrl-C at a terminal drops the statement typed so far and starts a new one. */
bool repl_read_statement(LineReader *r, Statement *st);
void statement_free(Statement *st);
/* Runs st in S (session_run with the reader's parse). */
RunStatus repl_run_statement(Session *S, Statement *st, const char *src_name);

/* Runs statements until the end of input or quit, or, with stop_at_error (a script: a file, attn -c, a pipe), until
 * the first that fails, as Python runs a script. Returns the number of statements that failed. */
int repl_run(Session *S, LineReader *r, const char *src_name, bool stop_at_error);
/* A script as Python runs one (a FILE, attn -c): every statement is read first, and a syntax error anywhere is
 * reported before anything runs; else the statements run until the first that fails. Returns the failures (0 or 1). */
int repl_run_script(Session *S, LineReader *r, const char *src_name);

/* For jupyter console (is_complete_request): "complete" when text runs as it stands (a block ends with an empty
 * line, as at the prompt), "incomplete" when more lines are needed (indent: what the next line starts with), or
 * "invalid" for a syntax error. */
const char *repl_completeness(const char *text, char *indent, size_t n);

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

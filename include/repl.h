/* repl.h - reading statements from a terminal, a pipe or a file, and running them (prefix repl_). */
#ifndef ATTN_REPL_H
#define ATTN_REPL_H
#include "interp.h"
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
} LineReader;

void reader_init_file(LineReader *r, FILE *in, bool interactive);
void reader_init_text(LineReader *r, const char *text);
/* The next line without its newline (caller frees), or NULL at the end. */
char *reader_line(LineReader *r, bool continuation);
void reader_unread(LineReader *r, char *line);
void reader_free(LineReader *r);

/* Reads one whole statement: more lines while brackets are open, and the indented body of for/if/while/def.
 * Returns NULL at the end of input; *first_line is the number of its first line. Ctrl-C at a terminal drops the
 * statement typed so far and starts a new one. */
char *repl_read_statement(LineReader *r, int *first_line);

/* Runs statements until the end of input. Returns the number of statements that failed. */
int repl_run(Interp *I, LineReader *r, const char *src_name);
/* True when src is a REPL command (help, quit, lesson ...) rather than code; runs it. *quit set on quit. */
bool repl_command(Interp *I, const char *line, bool *quit);

/* line editing (lineedit.c) */
void lineedit_init(Interp *I);
/* The next line typed (caller frees); NULL at Ctrl-D, or after Ctrl-C with *interrupted set (the line typed so far is
 * dropped, attn goes on). */
char *lineedit_read(const char *prompt, bool *interrupted);
void lineedit_add_history(const char *line);
void lineedit_shutdown(void);
#endif

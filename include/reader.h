/* reader.h - lines to statements (prefix reader_), from a terminal, a pipe, a file or a string: what the REPL, the
 * lesson runner and the Jupyter frames read their statements with. At a terminal the lines come from the front
 * end's line editor (a LineEditor it hands in: libedit, src/repl/lineedit.c), so the reader knows no terminal. */
#ifndef ATTN_READER_H
#define ATTN_READER_H
#include "parser.h"
#include <stdbool.h>
#include <stdio.h>

struct Session;

/* A terminal's line editor, as the front end gives it. init and shutdown bracket the lines typed into session S
 * (a lesson's inside the REPL's: they nest): its completer completes S's names, its notes are in S's language. */
typedef struct LineEditor {
    void (*init)(struct Session *S);                          /* before the first line */
    /* The next line typed (caller frees); NULL at Ctrl-D, or after Ctrl-C with *interrupted set. */
    char *(*read)(const char *prompt, bool *interrupted);
    bool (*input_pending)(void);                              /* more input already waiting (a paste) */
    void (*add_history)(const char *line);
    void (*shutdown)(struct Session *S);                      /* after the last line */
} LineEditor;

typedef struct LineReader {
    const LineEditor *editor;    /* at a terminal: the line editor the lines come from; NULL elsewhere */
    FILE *in;                /* when not at a terminal */
    const char *text;        /* or lines from a string (attn -c) */
    size_t text_pos;
    char *pushback;          /* a line read ahead and given back */
    int lineno;              /* number of the last line read */
    bool show_prompts;
    bool keep_blank;         /* return blank lines (in lessons, an empty line means "run it") */
    bool interrupted;        /* the last line read at the terminal ended with Ctrl-C */
    unsigned prompts;        /* prompts shown at the terminal so far */
} LineReader;

/* Lines from in, or, when editor is not NULL (at a terminal), from the editor with prompts. */
void reader_init_file(LineReader *r, FILE *in, const LineEditor *editor);
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
bool reader_read_statement(LineReader *r, Statement *st);
void statement_free(Statement *st);

/* For jupyter console (is_complete_request): "complete" when text runs as it stands (a block ends with an empty
 * line, as at the prompt), "incomplete" when more lines are needed (indent: what the next line starts with), or
 * "invalid" for a syntax error. */
const char *reader_completeness(const char *text, char *indent, size_t n);
#endif

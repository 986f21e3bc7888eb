/* repl.c - the read-run-print loop shared by the terminal, pipes, files and attn -c. At a terminal it shows
 * prompts and keeps going after errors; elsewhere it prints only what the statements print (no prompts, no
 * escape codes), and a script (a file, attn -c, a pipe) stops at its first error, as Python's does. Also the word-commands every session has. */
#include "repl.h"
#include "help.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RunStatus repl_cmd_help(Session *S, const char *arg) {
    StrBuf b;
    sb_init(&b);
    if (!arg) help_overview(&b);
    else if (!help_for(&b, arg)) sb_printf(&b, "no help for '%s': type help to list everything\n", arg);
    interp_write(&S->I, sb_str(&b));
    sb_free(&b);
    return RUN_OK;
}

RunStatus repl_cmd_quit(Session *S, const char *arg) {
    (void)S;
    (void)arg;
    return RUN_QUIT;
}

const SessionCommand repl_commands[] = {
    {"help", 1, repl_cmd_help},
    {"quit", 0, repl_cmd_quit},
    {"exit", 0, repl_cmd_quit},
    {NULL, 0, NULL}};

RunStatus repl_run_statement(Session *S, Statement *st, const char *src_name) {
    return session_run(S, st->text, st->parsed ? &st->parse : NULL, src_name, st->first_line);
}

static bool blank(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return !*s;
}

int repl_run(Session *S, LineReader *r, const char *src_name, bool stop_at_error) {
    int failures = 0;
    for (;;) {
        Statement st;
        if (!repl_read_statement(r, &st)) break;
        if (blank(st.text)) { statement_free(&st); continue; }
        if (r->interactive) lineedit_add_history(st.text);
        /* at a terminal the flag was cleared before the line was read: a Ctrl-C pressed since stops this statement */
        if (!r->interactive) ten_interrupted = 0;
        RunStatus rs = repl_run_statement(S, &st, src_name);
        statement_free(&st);
        errno = 0;
        if (fflush(S->I.out) != 0 && !S->I.output_errno) {      /* what it printed could not be written */
            S->I.output_errno = errno ? errno : EIO;
            rs = RUN_QUIT;
        }
        if (rs == RUN_QUIT) break;
        if (rs != RUN_OK) failures++;
        if (rs != RUN_OK && stop_at_error) break;           /* a script stops at its first error, as Python's */
    }
    return failures;
}

/* repl.c - the read-run-print loop shared by the terminal, pipes, files and attn -c. At a terminal it shows
 * prompts and keeps going after errors; elsewhere it prints only what the statements print (no prompts, no
 * escape codes), and a script (a file, attn -c, a pipe) stops at its first error, as Python's does. */
#include "repl.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RunStatus repl_run_statement(Session *S, Statement *st, const char *src_name) {
    return session_run(S, st->text, st->parsed ? &st->parse : NULL, src_name, st->first_line);
}

static bool blank(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return !*s;
}

/* Runs one statement read from r (and frees it): RUN_QUIT also when what it printed could not be written. */
static RunStatus run_one(Session *S, LineReader *r, Statement *st, const char *src_name) {
    if (r->editor) r->editor->add_history(st->text);
    /* at a terminal the flag was cleared before the line was read: a Ctrl-C pressed since stops this statement */
    if (!r->editor) ten_interrupted = 0;
    RunStatus rs = repl_run_statement(S, st, src_name);
    statement_free(st);
    errno = 0;
    if (fflush(S->I.out) != 0 && !S->I.output_errno) {      /* what it printed could not be written */
        S->I.output_errno = errno ? errno : EIO;
        rs = RUN_QUIT;
    }
    return rs;
}

int repl_run(Session *S, LineReader *r, const char *src_name, bool stop_at_error) {
    int failures = 0;
    for (;;) {
        Statement st;
        if (!reader_read_statement(r, &st)) break;
        if (blank(st.text)) { statement_free(&st); continue; }
        RunStatus rs = run_one(S, r, &st, src_name);
        if (rs == RUN_QUIT) break;
        if (rs != RUN_OK) failures++;
        if (rs != RUN_OK && stop_at_error) break;           /* a script stops at its first error, as Python's */
    }
    return failures;
}

int repl_run_script(Session *S, LineReader *r, const char *src_name) {
    Statement *sts = NULL;
    int n = 0, cap = 0;
    Statement st;
    while (reader_read_statement(r, &st)) {
        if (blank(st.text)) { statement_free(&st); continue; }
        if (n == cap) { cap = cap ? 2 * cap : 64; sts = xrealloc(sts, sizeof *sts * (size_t)cap); }
        sts[n++] = st;
    }
    /* Python compiles the whole script first: a syntax error anywhere is the one thing reported, nothing runs */
    int first = 0;
    bool syntax = false;
    for (int i = 0; i < n && !syntax; i++) {
        char *arg = NULL;
        if (sts[i].parsed && !sts[i].parse.tree && !session_command(S, sts[i].text, &arg)) { first = i; syntax = true; }
        free(arg);
    }
    int failures = 0, i = first;
    for (; i < n; i++) {
        RunStatus rs = run_one(S, r, &sts[i], src_name);
        if (rs != RUN_OK && rs != RUN_QUIT) failures++;
        if (rs != RUN_OK || syntax) { i++; break; }
    }
    for (int k = 0; k < n; k++) if (k < first || k >= i) statement_free(&sts[k]);
    free(sts);
    return failures;
}

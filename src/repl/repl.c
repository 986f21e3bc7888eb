/* repl.c - the read-run-print loop shared by the terminal, pipes, files and attn -c. At a terminal it shows
 * prompts and keeps going after errors; elsewhere it prints only what the statements print (no prompts, no
 * escape codes) and counts failures for the exit status. */
#include "repl.h"
#include "help.h"
#include "lesson.h"
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_ws(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

bool repl_command(Interp *I, const char *line, bool *quit) {
    const char *s = skip_ws(line);
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if ((n == 4 && !strncmp(s, "quit", 4)) || (n == 4 && !strncmp(s, "exit", 4))) { *quit = true; return true; }
    if ((n == 6 && !strncmp(s, "lesson", 6)) || (n > 7 && !strncmp(s, "lesson ", 7))) {
        if (I->capture) return false;           /* not inside transcripts */
        char which[128] = {0};
        if (n > 7) snprintf(which, sizeof which, "%.*s", (int)(n - 7), s + 7);
        fflush(stdout);
        if (!which[0]) lesson_list_command();
        else lesson_run_student(which, isatty(0) && isatty(1));
        return true;
    }
    if (n == 4 && !strncmp(s, "help", 4)) {
        StrBuf b;
        sb_init(&b);
        help_overview(&b);
        interp_write(I, sb_str(&b));
        sb_free(&b);
        return true;
    }
    if (n > 5 && !strncmp(s, "help ", 5)) {
        char name[128];
        const char *w = skip_ws(s + 5);
        size_t k = n - (size_t)(w - s);
        if (k == 0 || k >= sizeof name || strpbrk(w, "()=,[]'\"")) return false;
        memcpy(name, w, k);
        name[k] = 0;
        StrBuf b;
        sb_init(&b);
        if (!help_for(&b, name)) sb_printf(&b, "no help for '%s': type help to list everything\n", name);
        interp_write(I, sb_str(&b));
        sb_free(&b);
        return true;
    }
    return false;
}

static void report_error(Interp *I) {
    StrBuf b;
    sb_init(&b);
    interp_format_error(I, &b);
    fflush(stdout);
    if (I->capture) sb_puts(I->capture, sb_str(&b));
    else fputs(sb_str(&b), stderr);
    fflush(stderr);
    sb_free(&b);
}

int repl_run(Interp *I, LineReader *r, const char *src_name) {
    int failures = 0;
    for (;;) {
        int first = 0;
        char *stmt = repl_read_statement(r, &first);
        if (!stmt) break;
        if (!*skip_ws(stmt)) { free(stmt); continue; }
        if (r->interactive) lineedit_add_history(stmt);
        bool quit = false;
        if (repl_command(I, stmt, &quit)) {
            free(stmt);
            if (quit) break;
            continue;
        }
        /* at a terminal the flag was cleared before the line was read: a Ctrl-C pressed since stops this statement */
        if (!r->interactive) ten_interrupted = 0;
        int rc = interp_run(I, stmt, src_name, first);
        if (rc < 0 && interp_error_kind(I) == ERR_QUIT) { free(stmt); interp_clear_error(I); break; }
        if (rc < 0) {
            report_error(I);
            failures++;
        }
        ten_interrupted = 0;
        fflush(stdout);
        free(stmt);
    }
    return failures;
}

/* session.c - making and freeing sessions, running one statement of any kind of run, and the word-commands every session
 * understands (see session.h). */
#include "session.h"
#include "parser.h"
#include "builtins.h"
#include "help.h"
#include "i18n.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Containers created between two collections of reference cycles (ATTN_GC_EVERY overrides it, for tests): read
 * from the environment when the session is made. */
static int64_t gc_threshold(void) {
    const char *e = getenv("ATTN_GC_EVERY");
    int64_t t = e && *e ? atoll(e) : 20000;
    return t < 0 ? 0 : t;
}

void session_init(Session *S, const char *plot_target) {
    memset(S, 0, sizeof *S);
    builtins_open();
    interp_init(&S->I);
    S->I.session = S;
    S->gc_every = gc_threshold();
    if (plot_target) plot_set_target(&S->I.run.plot, plot_target);
    S->config.lang = S->I.run.lang;
}

void session_configure(Session *S, const SessionConfig *cfg) {
    S->config = *cfg;
    session_set_lang(S, cfg->lang);
}

void session_set_lang(Session *S, I18nLang lang) {
    S->I.run.lang = S->I.run.plot.lang = (unsigned)lang < I18N_NLANGS ? lang : I18N_EN;
}

void session_nest(Session *S, const Session *outer) {
    ten_ctx_nest(S->I.run.ten, outer->I.run.ten, val_live_bytes(outer->I.run.heap));
    if (outer->I.run.ten->threads > 0) ten_set_threads(S->I.run.ten, outer->I.run.ten->threads);   /* the machine's */
    S->I.run.plot.term = outer->I.run.plot.term;
}

void session_stranger(Session *S, const char *who, const char *source) {
    file_policy_restrict(&S->I.run.files, who, source, S->config.allow_write);
    S->I.escape_controls = true;
}

void session_free(Session *S) {
    file_policy_free(&S->I.run.files);
    interp_free(&S->I);            /* collects its heap's cycles: what its names held in cycles goes with it */
    plot_free(&S->I.run.plot);
}




static bool is_word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

const SessionCommand *session_command(const Session *S, const char *src, char **arg) {
    *arg = NULL;
    if (!S->commands) return NULL;
    const char *s = src;
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    size_t w = 0;
    while (w < n && is_word_char(s[w])) w++;
    if (w == 0) return NULL;
    for (const SessionCommand *c = S->commands; c->word; c++) {
        if (strlen(c->word) != w || strncmp(s, c->word, w) != 0) continue;
        if (w == n) {
            if (c->args == 2) return NULL;
            /* a bare word that names one of the student's variables is code: `help = 3; help` shows 3 */
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)w, s);
            if (interp_lookup((Interp *)&S->I, name)) return NULL;
            return c;
        }
        if (c->args == 0 || (s[w] != ' ' && s[w] != '\t')) return NULL;
        const char *a = s + w;
        while (*a == ' ' || *a == '\t') a++;
        size_t an = n - (size_t)(a - s);
        /* `help(x)` or `help x = 1` is code, not a command with an argument */
        for (size_t i = 0; i < an; i++) if (strchr("()=,[]'\"", a[i])) return NULL;
        *arg = xstrndup(a, an);
        return c;
    }
    return NULL;
}

/* A Ctrl-C's note (rt_interrupt's message, src/lang/eval.c) in the student's language: it is attn's, not Python's. */
static const char *interrupt_note(I18nLang lang, const char *msg) {
    if (strcmp(msg, "interrupted (Ctrl-C): everything defined before is kept") != 0) return msg;
    return TR(lang, "interrupted (Ctrl-C): everything defined before is kept");
}

/* Runs src as code (parsed: its parse, taken over, or NULL), the error left pending; 0 when it ran, -1 when it failed.
 * The one place student code starts from a session: the memory reserve renewed, and cycles collected when the
 * outermost run of S ends (S->running counts the runs under way: a run nested in another, an answer checked while
 * a statement runs, must not free what the outer one's C code still points to). */
static int run_code(Session *S, const char *src, ParseResult *parsed, const char *src_name, int first_line) {
    Interp *I = &S->I;
    mem_reserve_renew();          /* a MemoryError reported before has let its values go: the reserve is taken again */
    S->running++;
    int rc = parsed ? interp_run_parsed(I, parsed, src, src_name, first_line) : interp_run(I, src, src_name, first_line);
    S->running--;
    if (S->running == 0) builtins_flush_live(I);     /* a board's last state, drawn after the statement that trained */
    /* between statements every live value is held by a counted reference: cycles can be collected safely */
    if (S->running == 0 && val_containers_since_collect(S->I.run.heap) > S->gc_every) val_collect_cycles(S->I.run.heap);
    return rc;
}

/* What a failed run's pending error comes to. */
static RunStatus status_of(ErrKind kind) {
    return kind == ERR_QUIT ? RUN_QUIT : kind == ERR_INTERRUPT ? RUN_INTERRUPT : RUN_ERROR;
}

RunStatus session_run_unseen(Session *S, const char *src) {
    Interp *I = &S->I;
    StrBuf sink;
    OutputSink cap;
    sb_init(&sink);
    interp_push_sink(I, &cap, SINK_CAPTURE, &sink);
    bool echo = I->echo_values;
    I->echo_values = false;
    val_decref(I->last_value);
    I->last_value = NULL;
    int rc = run_code(S, src, NULL, NULL, 1);
    I->echo_values = echo;
    interp_pop_sink(I, &cap);
    sb_free(&sink);
    if (rc == 0) return RUN_OK;
    ten_interrupted = 0;          /* the run has stopped: a Ctrl-C has nothing more to stop (as session_run) */
    return status_of(interp_error_kind(I));
}

RunStatus session_run(Session *S, const char *src, ParseResult *parsed, const char *src_name, int first_line) {
    char *arg;
    const SessionCommand *c = session_command(S, src, &arg);
    if (c) {
        if (parsed) { ast_free(parsed->tree); parsed->tree = NULL; }
        RunStatus st = c->run(S, arg);
        free(arg);
        return st;
    }
    Interp *I = &S->I;
    if (run_code(S, src, parsed, src_name, first_line) == 0) return RUN_OK;
    ErrKind kind = interp_error_kind(I);
    if (kind == ERR_QUIT) { interp_clear_error(I); return RUN_QUIT; }
    StrBuf b;
    sb_init(&b);
    if (kind == ERR_INTERRUPT) sb_printf(&b, "%s\n", interrupt_note(S->I.run.lang, interp_error_msg(I)));
    else interp_format_error(I, &b);
    if (S->on_error) {                                   /* the Jupyter kernel's frames (src/repl/frames.c) */
        interp_write_recordings(I, sb_str(&b));
        S->on_error(S, &I->error, sb_str(&b));
    } else {
        interp_write_error(I, sb_str(&b));
    }
    sb_free(&b);
    interp_clear_error(I);
    /* the statement has stopped: a Ctrl-C has nothing more to stop (one pressed after a statement that ran to its end
     * stays pending: the prompt takes it) */
    ten_interrupted = 0;
    return status_of(kind);
}

/* ---- the one loop ---- */

static bool blank_statement(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return !*s;
}

static Statement *next_from_reader(SessionSource *src) {
    statement_free(&src->cur);
    for (;;) {
        if (!reader_read_statement(src->reader, &src->cur)) return NULL;
        if (!blank_statement(src->cur.text)) break;
        statement_free(&src->cur);
    }
    if (src->reader->editor) src->reader->editor->add_history(src->cur.text);
    return &src->cur;
}

/* The next of the list (an owned list lets the one before go), or, for a script with a syntax error, that one alone. */
static Statement *next_from_list(SessionSource *src) {
    if (!src->borrowed && src->pos > 0) statement_free(&src->list[src->pos - 1]);
    if (src->pos >= src->nlist || (src->syntax && src->pos > src->bad)) return NULL;   /* nothing after a syntax error */
    return &src->list[src->pos++];
}

static void source_init(SessionSource *src, const char *name) {
    memset(src, 0, sizeof *src);
    src->name = name;
    src->last = RUN_OK;
}

void session_source_reader(SessionSource *src, LineReader *r, const char *name, bool stop_at_error) {
    source_init(src, name);
    src->next = next_from_reader;
    src->reader = r;
    src->stop_at_error = stop_at_error;
    /* at a terminal the flag was cleared before the line was read: a Ctrl-C pressed since stops the statement */
    src->stale_interrupt = !r->editor;
    src->check_output = true;
}

static void list_add(SessionSource *src, Statement *st, int *cap) {
    if (src->nlist == *cap) { *cap = *cap ? 2 * *cap : 16; src->list = xrealloc(src->list, sizeof *src->list * (size_t)*cap); }
    src->list[src->nlist++] = *st;
}

void session_source_script(SessionSource *src, Session *S, LineReader *r, const char *name) {
    source_init(src, name);
    src->next = next_from_list;
    src->stop_at_error = true;
    src->stale_interrupt = true;
    src->check_output = true;
    Statement st;
    int cap = 0;
    while (reader_read_statement(r, &st)) {
        if (blank_statement(st.text)) { statement_free(&st); continue; }
        list_add(src, &st, &cap);
    }
    /* Python compiles the whole script first: a syntax error anywhere is the one thing reported, nothing runs */
    for (int i = 0; i < src->nlist && !src->syntax; i++) {
        char *arg = NULL;
        Statement *s = &src->list[i];
        if (s->parsed && !s->parse.tree && !session_command(S, s->text, &arg)) {
            src->syntax = true;
            for (int k = 0; k < i; k++) statement_free(&src->list[k]);
            src->pos = src->bad = i;
        }
        free(arg);
    }
}

void session_source_texts(SessionSource *src, char *const *texts, int n) {
    source_init(src, NULL);
    src->next = next_from_list;
    int cap = 0;
    for (int i = 0; i < n; i++) {
        Statement st = {.text = xstrdup(texts[i]), .first_line = 1, .parsed = false, .parse = {0}};
        list_add(src, &st, &cap);
    }
}

void session_source_statements(SessionSource *src, Statement *sts, int n) {
    source_init(src, NULL);
    src->next = next_from_list;
    src->list = sts;
    src->nlist = n;
    src->borrowed = true;
    src->stop_at_error = true;
}

void session_source_free(SessionSource *src) {
    statement_free(&src->cur);
    if (!src->borrowed) {
        for (int i = 0; i < src->nlist; i++) statement_free(&src->list[i]);
        free(src->list);
    }
    src->list = NULL;
    src->nlist = src->pos = 0;
}

int session_feed(Session *S, SessionSource *src) {
    Statement *st;
    while ((st = src->next(src))) {
        StrBuf *into = src->before ? src->before(src, st) : NULL;
        if (src->stale_interrupt) ten_interrupted = 0;
        OutputSink cap;
        if (into) interp_push_sink(&S->I, &cap, SINK_CAPTURE, into);
        RunStatus rs;
        if (!src->run || !src->run(src, S, st, &rs))
            rs = session_run(S, st->text, st->parsed ? &st->parse : NULL, src->name, st->first_line);
        if (into) interp_pop_sink(&S->I, &cap);
        errno = 0;
        if (src->check_output && fflush(S->I.out) != 0 && !S->I.output_errno) {   /* what it printed could not be written */
            S->I.output_errno = errno ? errno : EIO;
            rs = RUN_QUIT;
        }
        bool go_on = src->after ? src->after(src, st, &rs) : true;
        src->last = rs;
        if (rs == RUN_QUIT) break;
        if (rs != RUN_OK) src->failures++;
        if (!go_on || (rs != RUN_OK && src->stop_at_error)) break;
    }
    return src->failures;
}

/* ---- the word-commands every session understands ---- */

RunStatus session_cmd_help(Session *S, const char *arg) {
    StrBuf b;
    sb_init(&b);
    Value *named = arg ? interp_lookup(&S->I, arg) : NULL;      /* help X: the student's X, as help(X) */
    Value *word = arg && !named ? val_str(S->I.run.heap, arg) : NULL;
    if (!arg) help_overview(S->I.run.lang, &b);
    else if (!help_value(&S->I, &b, named ? named : word)) sb_printf(&b, "no help for '%s': type help to list everything\n", arg);
    if (word) val_decref(word);
    interp_write(&S->I, sb_str(&b));
    sb_free(&b);
    return RUN_OK;
}

RunStatus session_cmd_quit(Session *S, const char *arg) {
    (void)S;
    (void)arg;
    return RUN_QUIT;
}

const SessionCommand session_commands[] = {
    {"help", 1, session_cmd_help},
    {"quit", 0, session_cmd_quit},
    {"exit", 0, session_cmd_quit},
    {NULL, 0, NULL}};

/* interp.c - the interpreter's record of what went wrong and where its output goes: init and free, the error record
 * (rt_error, rt_raise, positions and frames) and its format with carets, the memory limit's checks, output sinks,
 * warnings. The evaluator is eval.c. */
#include "lang_internal.h"
#include "library.h"
#include "ops.h"
#include "pyset.h"
#include "pyexc.h"
#include "parser.h"
#include "pyformat.h"
#include "textwidth.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOOP_ITERATIONS 100000000LL   /* a loop this long is almost surely a mistake: stop it */

void interp_init(Interp *I) {
    memset(I, 0, sizeof *I);
    I->out = stdout;
    I->echo_values = true;
    I->echo_blocks = true;
    I->max_loop_iterations = MAX_LOOP_ITERATIONS;
    rng_seed(&I->run.rng, 0);
    I->run.print = ten_print_defaults;
    I->run.ten = ten_ctx_new();
    I->run.heap = val_heap_new();
    I->globals.heap = I->warned.heap = I->run.heap;
    ag_context_init(&I->run.ag, I->run.ten);
    plot_init(&I->run.plot);
    I->run.plot.files = &I->run.files;
    I->run.lang = I->run.plot.lang = i18n_from_env();    /* as attn starts without --lang; session_set_lang changes it */
}

void interp_free(Interp *I) {
    interp_clear_error(I);
    dict_free(&I->globals);
    dict_free(&I->warned);
    class_added_free(I);               /* what it added to d2l's classes goes with it (the classes stay) */
    val_decref(I->ret);
    I->ret = NULL;
    val_decref(I->last_value);
    I->last_value = NULL;
    val_collect_cycles(I->run.heap);   /* what its names held in cycles (a nested def that calls itself) goes with it */
    val_heap_free(I->run.heap);        /* freed with the last value made in it (one a lesson handed to the REPL) */
    I->run.heap = NULL;
    ten_ctx_free(I->run.ten);          /* freed with the last tensor made in it */
    I->run.ten = NULL;
    args_specs_free(I->argspecs);
    I->argspecs = NULL;
}

/* ---- the error record ---- */

static void error_set(Interp *I, ErrKind kind, const char *fmt, va_list ap) {
    if (I->error.kind != ERR_NONE) return;          /* the first failure is the one reported */
    vsnprintf(I->error.msg, sizeof I->error.msg, fmt, ap);
    I->error.kind = kind;
    I->error.etype[0] = 0;
    I->error.line = I->error.col = 0;
    I->error.file[0] = I->error.text[0] = 0;
}

static void error_setf(Interp *I, ErrKind kind, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_set(I, kind, fmt, ap);
    va_end(ap);
}

Value *rt_error(Interp *I, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_set(I, ERR_ERROR, fmt, ap);
    va_end(ap);
    return NULL;
}

Value *rt_raise(Interp *I, const char *etype, const char *fmt, ...) {
    if (I->error.kind != ERR_NONE) return NULL;
    va_list ap;
    va_start(ap, fmt);
    error_set(I, ERR_ERROR, fmt, ap);
    va_end(ap);
    snprintf(I->error.etype, sizeof I->error.etype, "%s", etype);
    return NULL;
}

Value *rt_interrupt(Interp *I) {
    error_setf(I, ERR_INTERRUPT, "interrupted (Ctrl-C): everything defined before is kept");
    return NULL;
}

Value *rt_quit(Interp *I) {
    error_setf(I, ERR_QUIT, "quit");
    return NULL;
}

/* MemoryError for a failed allocation (mem_exhausted): what the machine refused, not attn's limit */
static bool machine_refused(Interp *I) {
    rt_raise(I, "MemoryError", "out of memory: the machine refused attn more memory (ulimit -v, or all of it is in "
                               "use): delete some values (del NAME), or build fewer");
    return false;
}

bool interp_bytes_ok(Interp *I, int64_t bytes) {
    if (mem_exhausted) return machine_refused(I);
    int64_t vals = val_live_bytes(I->run.heap), tens = I->run.ten->live_bytes;
    int64_t limit = I->run.ten->limit_bytes - I->run.ten->held_outside;
    if (bytes >= 0 && bytes <= limit - vals - tens) return true;
    char need[32], v[32], t[32], lim[160];
    ten_bytes_str(bytes < 0 ? INT64_MAX : bytes, need, sizeof need);
    ten_bytes_str(vals, v, sizeof v);
    ten_bytes_str(tens, t, sizeof t);
    ten_limit_note(I->run.ten, lim, sizeof lim);
    rt_raise(I, "MemoryError", "out of memory: %s more would not fit (values alive take %s, tensors %s; %s)",
             need, v, t, lim);
    return false;
}

bool interp_memory_ok(Interp *I, int64_t more) {
    if (mem_exhausted) return machine_refused(I);
    int64_t vals = val_live_bytes(I->run.heap), tens = I->run.ten->live_bytes;
    int64_t limit = I->run.ten->limit_bytes - I->run.ten->held_outside;
    if (more <= (limit - vals - tens) / 64) return true;
    char v[32], t[32], lim[160];
    ten_bytes_str(vals, v, sizeof v);
    ten_bytes_str(tens, t, sizeof t);
    ten_limit_note(I->run.ten, lim, sizeof lim);
    if (more > 1000000) {
        rt_raise(I, "MemoryError", "out of memory: %lld more values would not fit (values alive take %s, tensors %s; %s)",
                 (long long)more, v, t, lim);
    } else {
        rt_raise(I, "MemoryError", "out of memory: the values alive take %s and the tensors %s (%s): delete some "
                    "(del NAME), or build fewer values", v, t, lim);
    }
    return false;
}

Value *rt_tensor_error(Interp *I) {
    if (ten_error_kind(I->run.ten) == TEN_ERR_INTERRUPTED) return rt_interrupt(I);
    /* PyTorch's classes: IndexError for a dim out of range (TORCH_CHECK_INDEX), RuntimeError for the others */
    bool dim = !strncmp(ten_error(I->run.ten), "Dimension out of range", 22);
    return rt_raise(I, dim ? "IndexError" : "RuntimeError", "%s", ten_error(I->run.ten));
}

Value *rt_attn_error(Interp *I, const AttnError *e) { return rt_error(I, "%s", err_msg(e)); }

Value *rt_tensor_index_error(Interp *I) {
    const char *m = ten_error(I->run.ten);
    if (ten_error_kind(I->run.ten) != TEN_ERR_INTERRUPTED && (!strncmp(m, "index ", 6) || !strncmp(m, "too many indices", 16)))
        return rt_raise(I, "IndexError", "%s", m);
    return rt_tensor_error(I);
}

Value *rt_error_prefix(Interp *I, const char *fmt, ...) {
    if (I->error.kind != ERR_ERROR) return NULL;
    StrBuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    sb_puts(&b, ": ");
    sb_puts(&b, I->error.msg);
    size_t n = b.len < sizeof I->error.msg ? b.len : sizeof I->error.msg - 1;
    memcpy(I->error.msg, b.s, n);
    I->error.msg[n] = 0;
    sb_free(&b);
    return NULL;
}

void frames_free(Error *e) {
    for (int i = 0; i < e->nframes; i++) { free(e->frames[i].file); free(e->frames[i].func); free(e->frames[i].text); }
    free(e->frames);
    e->frames = NULL;
    e->nframes = 0;
}

void interp_clear_error(Interp *I) {
    /* every field is set only while kind is not ERR_NONE, so a clear record needs no memset (run per statement) */
    if (I->error.kind == ERR_NONE && !I->error.frames) return;
    frames_free(&I->error);
    val_decref(I->error.exc);
    memset(&I->error, 0, sizeof I->error);
}

/* Finds line `line` of the current source text (1-based relative to its first line). */
static void source_line(const char *src, int rel, const char **start, int *len) {
    const char *p = src;
    for (int l = 1; l < rel && p; l++) { p = strchr(p, '\n'); if (p) p++; }
    if (!p || rel < 1) { *start = ""; *len = 0; return; }
    const char *e = strchr(p, '\n');
    *start = p;
    *len = e ? (int)(e - p) : (int)strlen(p);
}

void interp_error_at(Interp *I, int line, int col) {
    Error *e = &I->error;
    if (e->kind == ERR_NONE || e->line != 0 || line <= 0) return;
    e->line = line;
    e->col = col;
    snprintf(e->file, sizeof e->file, "%s", I->src_name ? I->src_name : "");
    e->text[0] = 0;
    if (I->src) {
        const char *ls;
        int len;
        source_line(I->src, line - I->src_first_line + 1, &ls, &len);
        if (len > 0 && (size_t)len < sizeof e->text) snprintf(e->text, sizeof e->text, "%.*s", len, ls);
    }
}

void interp_error_add_frame(Interp *I, const char *file, int line, int col, const char *func, const char *text) {
    Error *e = &I->error;
    if (e->kind == ERR_NONE || e->nframes >= ERR_MAX_FRAMES) return;
    e->frames = xrealloc(e->frames, sizeof *e->frames * (size_t)(e->nframes + 1));
    ErrFrame *f = &e->frames[e->nframes++];
    f->file = file ? xstrdup(file) : NULL;
    f->line = line;
    f->col = col;
    f->func = func ? xstrdup(func) : NULL;
    f->text = text ? xstrdup(text) : NULL;
}


void interp_push_sink(Interp *I, OutputSink *s, SinkKind kind, StrBuf *buf) {
    s->kind = kind;
    s->buf = buf;
    s->below = I->sinks;
    I->sinks = s;
}

void interp_pop_sink(Interp *I, OutputSink *s) {
    for (const OutputSink *k = I->sinks; k; k = k->below)
        if (k == s) { I->sinks = s->below; return; }
}

bool interp_captured(const Interp *I) {
    for (const OutputSink *k = I->sinks; k; k = k->below) if (k->kind == SINK_CAPTURE) return true;
    return false;
}

void interp_write_recordings(Interp *I, const char *s) {
    for (OutputSink *k = I->sinks; k && k->kind == SINK_RECORDING; k = k->below) sb_puts(k->buf, s);
}

/* s (and, to a recording, rec when not NULL) down the sinks: true when a capture took it, false when it goes on to
 * the stream. */
static bool to_sinks(Interp *I, const char *s, const char *rec) {
    for (OutputSink *k = I->sinks; k; k = k->below) {
        if (k->kind == SINK_CAPTURE) { sb_puts(k->buf, s); return true; }
        if (rec) sb_puts(k->buf, rec);
    }
    return false;
}

/* s to the stream; false (and the run stopped) when it cannot be written. */
static bool to_stream(Interp *I, const char *s) {
    errno = 0;
    if (*s) I->streamed++;
    if (fputs(s, I->out) != EOF && !ferror(I->out)) return true;
    if (!I->output_errno) I->output_errno = errno ? errno : EIO;
    rt_quit(I);               /* nobody can read what comes next: stop, as the end of input would */
    return false;
}

bool interp_write_raw(Interp *I, const char *s) { return to_sinks(I, s, s) || to_stream(I, s); }

bool interp_write_figure(Interp *I, const char *shown, const char *recorded) {
    return to_sinks(I, shown, recorded) || to_stream(I, shown);
}

/* s as a stranger's run shows it: NULL when it goes out unchanged, else the escaped copy in *b (the caller frees). */
static const char *shown(Interp *I, const char *s, StrBuf *b) {
    size_t n = strlen(s);
    if (!I->escape_controls || !tw_has_controls(s, n, true)) return NULL;
    sb_init(b);
    tw_visible(b, s, n, true);
    return sb_str(b);
}

/* The one sink of a run's output: print, echoed values, help, warnings (figures: interp_write_figure). */
bool interp_write(Interp *I, const char *s) {
    StrBuf b;
    const char *t = shown(I, s, &b);
    if (!t) return interp_write_raw(I, s);
    bool ok = interp_write_raw(I, t);
    sb_free(&b);
    return ok;
}

void interp_write_error(Interp *I, const char *s) {
    StrBuf b;
    const char *t = shown(I, s, &b);
    /* a recording keeps errors as a transcript shows them */
    if (!to_sinks(I, t ? t : s, t ? t : s)) {
        I->streamed++;
        fflush(I->out);
        fputs(t ? t : s, stderr);
        fflush(stderr);
    }
    if (t) sb_free(&b);
}

void interp_warn(Interp *I, const char *once, const char *fmt, ...) {
    if (interp_captured(I) || (once && dict_get(&I->warned, once))) return;
    if (once) dict_set(&I->warned, once, val_bool(I->run.heap, true));
    StrBuf b, v;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    sb_putc(&b, '\n');
    const char *t = shown(I, sb_str(&b), &v);
    fflush(I->out);
    fputs(t ? t : sb_str(&b), stderr);
    fflush(stderr);
    if (t) sb_free(&v);
    sb_free(&b);
}

/* The column of byte col (1-based) of text as the reader counts it on screen (a CJK character is 2), as gcc's
 * display columns; col itself when the text is unknown. */
static int screen_col(const char *text, int col) {
    if (!text || !*text || col < 1) return col;
    size_t len = strlen(text), upto = (size_t)(col - 1);
    return tw_width_n(text, upto < len ? upto : len) + 1;
}

/* "  text\n  ^" under column col (1-based), by display columns (CJK is 2 wide). */
static void caret_lines(StrBuf *out, const char *text, int col) {
    size_t len = strlen(text);
    sb_puts(out, "  ");
    sb_puts(out, text);
    sb_puts(out, "\n  ");
    size_t upto = col > 1 ? (size_t)(col - 1) : 0;
    tw_caret_pad(out, text, upto < len ? upto : len);
    sb_puts(out, "^\n");
}

/* The message, the statement's line with a caret, then the call chain from the statement down to the line where
 * the error happened, as a short Python traceback read top to bottom ("in forward, line 3:" at the prompt, where a
 * line counts from the start of the definition's statement; "file:line:col: in forward" in a file). */
void interp_format_error(Interp *I, StrBuf *out) {
    const Error *e = &I->error;
    if (e->kind == ERR_NONE || e->kind == ERR_QUIT) return;
    interp_error_msg(I);                                     /* a raised exception's message, formatted now */
    if (e->kind == ERR_INTERRUPT) { sb_printf(out, "%s\n", e->msg); return; }
    if (e->line > 0 && e->file[0]) sb_printf(out, "%s:%d:%d: ", e->file, e->line, screen_col(e->text, e->col));
    if (!strcmp(e->etype, "AssertionError"))    /* a failed assert's own words do not say that it failed: as Python */
        sb_printf(out, "error: AssertionError%s%s\n", e->msg[0] ? ": " : "", e->msg);
    else
        sb_printf(out, "error: %s\n", e->msg);
    if (e->line > 0 && e->text[0]) caret_lines(out, e->text, e->col);
    for (int i = e->nframes - 1; i >= 0; i--) {
        const ErrFrame *f = &e->frames[i];
        if (f->file) sb_printf(out, "%s:%d:%d: in %s\n", f->file, f->line, screen_col(f->text, f->col), f->func ? f->func : "?");
        else sb_printf(out, "in %s, line %d:\n", f->func ? f->func : "?", f->line);
        int lead = f->text ? (int)strspn(f->text, " \t") : 0;      /* shown without its indentation, as Python does */
        if (lead >= f->col) lead = 0;
        if (f->text) caret_lines(out, f->text + lead, f->col - lead);
    }
}

/* attnerr.h - one error record (prefix err_), the same from the bottom up: the file helpers (util), the tensor library's
 * context (TenCtx.err), plotting and the lesson layer fill it; the language turns it into the student's error in one
 * place (rt_attn_error, interp.h), and the session writes it to its error output (interp_write_error).
 * A function that can fail takes an AttnError * (last argument), returns false or NULL on failure and leaves the
 * message there; on success it leaves the record alone. Messages are plain text without "attn: " or a newline: the
 * place that shows them adds those. */
#ifndef ATTN_ATTNERR_H
#define ATTN_ATTNERR_H
#include <stdarg.h>

/* What happened: the interpreter's error record (interp.h, ErrKind) uses the same kinds. */
typedef enum {
    ERR_NONE = 0,       /* nothing failed (a fresh or cleared record) */
    ERR_ERROR,          /* a mistake: reported, and the session goes on */
    ERR_QUIT,           /* quit() or exit(): the run ends without a message (the interpreter's only) */
    ERR_INTERRUPT       /* Ctrl-C stopped it: reported as an interruption */
} AttnErrKind;

#define ERR_MSG_MAX 1200   /* the longest message kept (with its NUL): a 1,024-byte path and its reason */
typedef struct AttnError {
    AttnErrKind kind;
    char msg[ERR_MSG_MAX]; /* NUL-terminated; "" when kind is ERR_NONE */
} AttnError;

/* Sets e (NULL: nothing) to kind ERR_ERROR and the printf-formatted message, cut at ERR_MSG_MAX - 1 bytes. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void err_set(AttnError *e, const char *fmt, ...);
void err_setv(AttnError *e, const char *fmt, va_list ap);
/* As err_set with the kind given (ERR_INTERRUPT for a stop by Ctrl-C). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void err_set_kind(AttnError *e, AttnErrKind kind, const char *fmt, ...);
void err_clear(AttnError *e);                  /* back to ERR_NONE and "" */
const char *err_msg(const AttnError *e);       /* the message; "" for NULL or a cleared record */

/* ---- attn's own messages outside a statement ----
 * What has no session to go to (a start-up setting, a lesson or transcript that cannot be read, a progress file set
 * aside, a lesson's self-check) goes to stderr through these two, the one place below the prompt that writes there;
 * inside a run the session's error output (interp_write_error, interp_warn) takes it instead. */
void err_report(const AttnError *e);           /* "attn: <message>\n" */
/* fmt and its arguments as they are (the text carries its own "attn: " and newline, often through TR()). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
void err_print(const char *fmt, ...);
#endif

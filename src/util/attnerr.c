/* attnerr.c - the one error record (attnerr.h). */
#include "attnerr.h"
#include <stdio.h>

void err_setv(AttnError *e, const char *fmt, va_list ap) {
    if (!e) return;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    e->kind = ERR_ERROR;
}

void err_set(AttnError *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_setv(e, fmt, ap);
    va_end(ap);
}

void err_set_kind(AttnError *e, AttnErrKind kind, const char *fmt, ...) {
    if (!e) return;
    va_list ap;
    va_start(ap, fmt);
    err_setv(e, fmt, ap);
    va_end(ap);
    e->kind = kind;
}

void err_clear(AttnError *e) {
    if (!e) return;
    e->kind = ERR_NONE;
    e->msg[0] = 0;
}

const char *err_msg(const AttnError *e) { return e ? e->msg : ""; }

void err_report(const AttnError *e) { err_print("attn: %s\n", err_msg(e)); }

void err_print(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

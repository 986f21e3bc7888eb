/* strbuf.c - growable strings and checked allocation. */
#include "strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The emergency reserve: a block held from start-up and given back when malloc first fails, so that the small
 * allocations that follow (the error message, the values that unwind) succeed and the session survives. */
#define MEM_RESERVE_BYTES ((size_t)32 << 20)
static void *mem_reserve;
volatile int mem_exhausted;

bool mem_reserve_renew(void) {
    mem_exhausted = 0;
    /* what is left may be less than the whole reserve (the values the student kept): as much of it as there is */
    for (size_t n = MEM_RESERVE_BYTES; !mem_reserve && n >= ((size_t)256 << 10); n /= 4) mem_reserve = malloc(n);
    return mem_reserve != NULL;
}

/* A failed allocation: the reserve goes (the next ones can succeed), mem_exhausted tells the interpreter. */
static void mem_failed(void) {
    mem_exhausted = 1;
    free(mem_reserve);
    mem_reserve = NULL;
}

void *mem_try_malloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) mem_failed();
    return p;
}
void *mem_try_calloc(size_t n, size_t m) {
    void *p = calloc(n ? n : 1, m ? m : 1);
    if (!p) mem_failed();
    return p;
}
void *mem_try_realloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) mem_failed();
    return q;
}

static _Noreturn void out_of_memory(void) {
    fputs("attn: out of memory\n", stderr);
    abort();
}
/* The x-family tries twice: once more after the reserve is given back; only then does attn stop. */
void *xmalloc(size_t n) {
    void *p = mem_try_malloc(n);
    if (!p && !(p = mem_try_malloc(n))) out_of_memory();
    return p;
}
void *xcalloc(size_t n, size_t m) {
    void *p = mem_try_calloc(n, m);
    if (!p && !(p = mem_try_calloc(n, m))) out_of_memory();
    return p;
}
void *xrealloc(void *p, size_t n) {
    void *q = mem_try_realloc(p, n);
    if (!q && !(q = mem_try_realloc(p, n))) out_of_memory();
    return q;
}
char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }
char *xstrndup(const char *s, size_t n) {
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void sb_init(StrBuf *b) { b->s = NULL; b->len = b->cap = 0; }
void sb_free(StrBuf *b) { free(b->s); sb_init(b); }
void sb_clear(StrBuf *b) { b->len = 0; if (b->s) b->s[0] = 0; }

static void sb_grow(StrBuf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    b->s = xrealloc(b->s, cap);
    b->cap = cap;
}
void sb_putn(StrBuf *b, const char *s, size_t n) {
    sb_grow(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}
void sb_putc(StrBuf *b, char c) { sb_putn(b, &c, 1); }
void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }
void sb_pad(StrBuf *b, char c, long n) {
    if (n <= 0) return;
    sb_grow(b, (size_t)n);
    memset(b->s + b->len, c, (size_t)n);
    b->len += (size_t)n;
    b->s[b->len] = 0;
}
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return;
    sb_grow(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}
void sb_printf(StrBuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}
char *sb_take(StrBuf *b) {
    char *s = b->s ? b->s : xstrdup("");
    sb_init(b);
    return s;
}
const char *sb_str(const StrBuf *b) { return b->s ? b->s : ""; }

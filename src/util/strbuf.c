/* strbuf.c - growable strings and checked allocation. */
#include "strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) { fputs("attn: out of memory\n", stderr); abort(); }
    return p;
}
void *xcalloc(size_t n, size_t m) {
    void *p = calloc(n ? n : 1, m ? m : 1);
    if (!p) { fputs("attn: out of memory\n", stderr); abort(); }
    return p;
}
void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) { fputs("attn: out of memory\n", stderr); abort(); }
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

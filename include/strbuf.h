/* strbuf.h - growable NUL-terminated strings (prefix sb_). */
#ifndef ATTN_STRBUF_H
#define ATTN_STRBUF_H
#include <stddef.h>
#include <stdarg.h>

typedef struct StrBuf {
    char *s;      /* always NUL-terminated once anything was added */
    size_t len;
    size_t cap;
} StrBuf;

void sb_init(StrBuf *b);
void sb_free(StrBuf *b);
void sb_clear(StrBuf *b);
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_pad(StrBuf *b, char c, long n);           /* n copies of c (n <= 0: nothing) */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void sb_printf(StrBuf *b, const char *fmt, ...);
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
/* Returns the string (caller owns it) and leaves b empty. Never NULL. */
char *sb_take(StrBuf *b);
const char *sb_str(const StrBuf *b);              /* "" when empty */

/* xmalloc family: abort with a message on allocation failure (only for small, bounded allocations;
 * tensor data goes through ten_alloc, which reports failure instead). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
#endif

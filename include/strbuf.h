/* strbuf.h - growable NUL-terminated strings (prefix sb_). */
#ifndef ATTN_STRBUF_H
#define ATTN_STRBUF_H
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>

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

/* xmalloc family: for small, bounded allocations. When malloc fails, the emergency reserve is given back and the
 * allocation tried again (mem_exhausted is then set, and the interpreter raises MemoryError at its next check); attn
 * stops with "attn: out of memory" only when that fails too. Tensor data goes through ten_alloc, which reports. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* mem_try_*: malloc, calloc, realloc that return NULL on failure (with mem_exhausted set and the reserve given
 * back): for what a program can make as large as it likes (a list's items, a dict's table, a string). */
void *mem_try_malloc(size_t n);
void *mem_try_calloc(size_t n, size_t m);
void *mem_try_realloc(void *p, size_t n);
extern volatile int mem_exhausted;  /* an allocation failed since the last mem_reserve_renew */
/* Clears mem_exhausted and takes the reserve again (at start-up, and before each statement at the prompt): true
 * when it is held. */
bool mem_reserve_renew(void);
#endif

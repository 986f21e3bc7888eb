/* pyformat.h - Python's format() mini-language and printf-style '%' formatting (prefix pyfmt_). */
#ifndef ATTN_PYFORMAT_H
#define ATTN_PYFORMAT_H
#include "interp.h"

/* Appends format(v, spec) to out, e.g. spec ">03b" for f'{i:>03b}'. false with an error set on a bad spec. */
bool pyfmt_format(Interp *I, StrBuf *out, Value *v, const char *spec);
/* fmt % args, e.g. "Col %d" % d. Returns a new string value or NULL with an error. */
Value *pyfmt_percent(Interp *I, Value *fmt, Value *args);
#endif

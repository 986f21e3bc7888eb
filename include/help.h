/* help.h - help texts (prefix help_). */
#ifndef ATTN_HELP_H
#define ATTN_HELP_H
#include "i18n.h"
#include "strbuf.h"
#include <stdbool.h>
struct Interp;
struct Value;
/* One of attn's functions or Tensor methods, by name (I: whose plot target the plotting functions' help describes). */
bool help_for(struct Interp *I, StrBuf *out, const char *name);
/* help(x) and `help NAME`: a topic word (torch, nn, F, d2l, math, python, Tensor), a module, a tensor, a student's
 * function, class or object, or one of attn's functions; false when there is nothing to say. */
bool help_value(struct Interp *I, StrBuf *out, struct Value *v);
void help_overview(I18nLang lang, StrBuf *out);   /* `help` alone, in lang */
#endif

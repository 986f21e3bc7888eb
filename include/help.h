/* help.h - help texts (prefix help_). */
#ifndef ATTN_HELP_H
#define ATTN_HELP_H
#include "strbuf.h"
#include <stdbool.h>
bool help_for(StrBuf *out, const char *name);
void help_overview(StrBuf *out);
#endif

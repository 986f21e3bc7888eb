/* textfile.h - reading a whole text file with a size limit (prefix textfile_). */
#ifndef ATTN_TEXTFILE_H
#define ATTN_TEXTFILE_H
#include "attnerr.h"
#include <stddef.h>
/* The file's text (caller frees), or NULL with "path: reason" in err: missing, unreadable, larger than max_bytes,
 * or holding a NUL byte (not a text file). */
char *textfile_read(const char *path, size_t max_bytes, AttnError *err);
#endif

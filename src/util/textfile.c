/* textfile.c - whole text files for transcripts and lessons. */
#include "textfile.h"
#include "strbuf.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

char *textfile_read(const char *path, size_t max_bytes, AttnError *err) {
    FILE *f = fopen(path, "rb");
    if (!f) { err_set(err, "%s: cannot open: %s", path, strerror(errno)); return NULL; }
    StrBuf b;
    sb_init(&b);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (b.len + n > max_bytes) {
            fclose(f);
            sb_free(&b);
            err_set(err, "%s: larger than %zu MiB", path, max_bytes >> 20);
            return NULL;
        }
        sb_putn(&b, buf, n);
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) { sb_free(&b); err_set(err, "%s: cannot read", path); return NULL; }
    if (memchr(sb_str(&b), 0, b.len)) { sb_free(&b); err_set(err, "%s: has a NUL byte (not a text file)", path); return NULL; }
    return sb_take(&b);
}

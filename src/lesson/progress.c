/* progress.c - where each student is in each lesson: $XDG_STATE_HOME/attn/progress, one line per lesson
 * "lesson-id step done", written to a temporary file and renamed, so a crash never leaves half a file. A damaged
 * file is set aside (progress.damaged) with a message, never a crash. */
#include "lesson.h"
#include "strbuf.h"
#include "files.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static bool progress_path(char *out, size_t n) {
    const char *dir = file_state_dir();
    if (!*dir) return false;
    snprintf(out, n, "%s/progress", dir);
    return true;
}

/* Reads every line; a line that is not "id step done" makes the whole file damaged. */
static bool read_all(StrBuf *content, bool *damaged) {
    char path[4200];
    *damaged = false;
    if (!progress_path(path, sizeof path)) return false;
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char id[256];
        int step, done;
        char extra;
        if (sscanf(line, "%255s %d %d %c", id, &step, &done, &extra) != 3 || step < 0 || done < 0 || step > 100000) { *damaged = true; break; }
        sb_puts(content, line);
        if (line[strlen(line) - 1] != '\n') sb_putc(content, '\n');
    }
    fclose(f);
    if (*damaged) {
        char bad[4300];
        snprintf(bad, sizeof bad, "%s.damaged", path);
        rename(path, bad);
        fprintf(stderr, "attn: the progress file %s was damaged; it was moved to %s and progress starts afresh\n", path, bad);
        sb_clear(content);
    }
    return true;
}

int progress_get(const char *lesson_id, int *done_steps) {
    StrBuf c;
    sb_init(&c);
    bool damaged;
    *done_steps = 0;
    int step = 0;
    if (read_all(&c, &damaged)) {
        const char *p = sb_str(&c);
        while (*p) {
            char id[256];
            int s, d;
            if (sscanf(p, "%255s %d %d", id, &s, &d) == 3 && !strcmp(id, lesson_id)) { step = s; *done_steps = d; }
            p = strchr(p, '\n');
            if (!p) break;
            p++;
        }
    }
    sb_free(&c);
    return step;
}

bool progress_set(const char *lesson_id, int step, int done_steps, char *err, size_t errlen) {
    char path[4200], tmp[4300];
    if (!progress_path(path, sizeof path)) { snprintf(err, errlen, "no home directory: progress is not saved"); return false; }
    StrBuf c, out;
    sb_init(&c);
    sb_init(&out);
    bool damaged;
    read_all(&c, &damaged);
    const char *p = sb_str(&c);
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char id[256];
        if (sscanf(p, "%255s", id) == 1 && strcmp(id, lesson_id) != 0) { sb_putn(&out, p, n); sb_putc(&out, '\n'); }
        p = e ? e + 1 : p + n;
    }
    sb_printf(&out, "%s %d %d\n", lesson_id, step, done_steps);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    bool ok = f && fwrite(out.s, 1, out.len, f) == out.len;
    if (f) ok = (fflush(f) == 0) && ok, ok = (fsync(fileno(f)) == 0) && ok, ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
        snprintf(err, errlen, "cannot save progress to %s: %s (what was saved before is kept)", path, strerror(errno));
        remove(tmp);
    }
    sb_free(&c);
    sb_free(&out);
    return ok;
}

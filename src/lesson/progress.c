/* progress.c - where each student is in each lesson: $XDG_STATE_HOME/attn/progress, one line per lesson,
 * "KEY STEP DONE" (KEY: the lesson's file name, or the path of a lesson from elsewhere; a space is written %20 and
 * a % as %25). Blank lines and # comments are allowed (a hand-edited file). A line that cannot be read is kept
 * aside in a new progress.damaged-N file (never one written before) with a message, and the other lessons keep
 * their progress. Saving takes a lock, reads the file again and changes only this lesson's line (two sessions at
 * once both keep theirs; DONE only grows), then writes it safely (files.h): a full disk changes nothing. */
#include "lesson.h"
#include "strbuf.h"
#include "files.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_WAIT_MS 5000

typedef struct Entry { char *key; int step, done; } Entry;
typedef struct Progress { Entry *e; int n; StrBuf bad; } Progress;

static bool progress_path(char *out, size_t n) {
    char state[FILE_STATE_DIR_MAX];
    const char *dir = file_state_dir(state);
    if (!*dir) return false;
    snprintf(out, n, "%s/progress", dir);
    return true;
}

static void encode(StrBuf *b, const char *key) {
    for (const char *p = key; *p; p++) {
        if (*p == ' ') sb_puts(b, "%20");
        else if (*p == '%') sb_puts(b, "%25");
        else if (*p == '\t') sb_puts(b, "%09");
        else if (*p == '\n') sb_puts(b, "%0A");
        else sb_putc(b, *p);
    }
}

static char *decode(const char *s, size_t n) {
    StrBuf b;
    sb_init(&b);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n) {
            char hex[3] = {s[i + 1], s[i + 2], 0};
            char *end;
            long c = strtol(hex, &end, 16);
            if (!*end && c > 0) { sb_putc(&b, (char)c); i += 2; continue; }
        }
        sb_putc(&b, s[i]);
    }
    return sb_take(&b);
}

static void progress_free(Progress *p) {
    for (int i = 0; i < p->n; i++) free(p->e[i].key);
    free(p->e);
    sb_free(&p->bad);
    memset(p, 0, sizeof *p);
}

static Entry *find(Progress *p, const char *key) {
    for (int i = 0; i < p->n; i++) if (!strcmp(p->e[i].key, key)) return &p->e[i];
    return NULL;
}

/* One line: "KEY STEP DONE". false when it is not one. */
static bool parse_line(const char *l, size_t n, Entry *out) {
    const char *sp = memchr(l, ' ', n);
    if (!sp || sp == l) return false;
    char rest[64];
    size_t rn = n - (size_t)(sp - l);
    if (rn >= sizeof rest) return false;
    memcpy(rest, sp, rn);
    rest[rn] = 0;
    int step, done;
    char extra;
    if (sscanf(rest, " %d %d %c", &step, &done, &extra) != 2 || step < 0 || done < 0 || step > 100000 || done > 100000) return false;
    out->key = decode(l, (size_t)(sp - l));
    out->step = step;
    out->done = done;
    return true;
}

/* Reads the file (missing: empty). Lines that cannot be read go to p->bad. */
static void read_progress(const char *path, Progress *p) {
    memset(p, 0, sizeof *p);
    sb_init(&p->bad);
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
        const char *s = line;
        while (n && (*s == ' ' || *s == '\t')) { s++; n--; }
        if (n == 0 || *s == '#') continue;
        Entry e;
        if (!parse_line(s, n, &e)) { sb_putn(&p->bad, s, n); sb_putc(&p->bad, '\n'); continue; }
        Entry *old = find(p, e.key);
        if (old) { old->step = e.step; if (e.done > old->done) old->done = e.done; free(e.key); continue; }
        p->e = xrealloc(p->e, sizeof(Entry) * (size_t)(p->n + 1));
        p->e[p->n++] = e;
    }
    fclose(f);
}

/* Keeps unreadable lines in progress.damaged-N, a name not used before; says so once. */
static void set_aside(const char *path, Progress *p) {
    if (!p->bad.len) return;
    char name[4300];
    AttnError err;
    for (int k = 1; k < 1000; k++) {
        snprintf(name, sizeof name, "%s.damaged-%d", path, k);
        struct stat st;
        if (stat(name, &st) != 0) break;
    }
    if (file_write_atomic(name, p->bad.s, p->bad.len, &err))
        err_print("attn: lines of %s that could not be read were moved to %s; the other lessons keep their progress\n", path, name);
    else
        err_print("attn: lines of %s could not be read and could not be kept aside (%s)\n", path, err_msg(&err));
}

int progress_get(const char *lesson_id, int *done_steps) {
    char path[4200];
    *done_steps = 0;
    if (!progress_path(path, sizeof path)) return 0;
    Progress p;
    read_progress(path, &p);
    Entry *e = find(&p, lesson_id);
    int step = e ? e->step : 0;
    if (e) *done_steps = e->done;
    progress_free(&p);
    return step;
}

bool progress_set(const char *lesson_id, int step, int done_steps, AttnError *err) {
    char path[4200];
    if (!progress_path(path, sizeof path)) { err_set(err, "no home directory: progress is not saved"); return false; }
    int lock = file_lock(path, LOCK_WAIT_MS);
    if (lock < 0) {
        if (errno == ETIMEDOUT) err_set(err, "cannot save progress to %s: another attn held it for %d s (what was saved before is kept)", path, LOCK_WAIT_MS / 1000);
        else err_set(err, "cannot save progress to %s: %s (what was saved before is kept)", path, strerror(errno));
        return false;
    }
    Progress p;
    read_progress(path, &p);            /* again, under the lock: another session may have saved since */
    set_aside(path, &p);
    Entry *e = find(&p, lesson_id);
    if (!e) {
        p.e = xrealloc(p.e, sizeof(Entry) * (size_t)(p.n + 1));
        e = &p.e[p.n++];
        e->key = xstrdup(lesson_id);
        e->done = 0;
    }
    e->step = step;
    if (done_steps > e->done) e->done = done_steps;
    StrBuf out;
    sb_init(&out);
    for (int i = 0; i < p.n; i++) {
        encode(&out, p.e[i].key);
        sb_printf(&out, " %d %d\n", p.e[i].step, p.e[i].done);
    }
    AttnError why;
    bool ok = file_write_atomic(path, out.s ? out.s : "", out.len, &why);
    if (!ok) err_set(err, "cannot save progress: %s (what was saved before is kept)", err_msg(&why));
    file_unlock(lock);
    sb_free(&out);
    progress_free(&p);
    return ok;
}

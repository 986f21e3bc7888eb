/* locate.c - where lessons live (lesson_dir), listing and finding them (lesson_list, lesson_find), and the name a
 * lesson's progress is kept under. */
#include "lesson.h"
#include "lesson_internal.h"
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- finding lessons ---- */

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where the lessons are: $ATTN_LESSONS when set (asked for explicitly), else the installed ones next to the binary
 * (PREFIX/bin/attn -> PREFIX/share/attn/lessons), else those of the checkout attn was built in (attn or build/attn
 * beside lessons/). A ./lessons folder in the current directory is never taken silently: a stranger's folder
 * would replace the real lessons and share their progress. The path is $ATTN_LESSONS's text or written into dir
 * (the caller's); NULL when none is found. */
const char *lesson_dir(char dir[LESSON_DIR_MAX]) {
    const char *e = getenv("ATTN_LESSONS");
    if (e && *e) return e;
    char exe[4000];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = 0;
    static const char *const rel[] = {"/../share/attn/lessons", "/lessons", "/../lessons"};
    for (int i = 0; i < 3; i++) {
        snprintf(dir, LESSON_DIR_MAX, "%s%s", exe, rel[i]);
        char real[LESSON_DIR_MAX];
        if (is_dir(dir)) {
            if (realpath(dir, real)) snprintf(dir, LESSON_DIR_MAX, "%s", real);
            return dir;
        }
    }
    return NULL;
}

/* A line for the lesson list when ./lessons exists but is not the folder in use (NULL otherwise). */
const char *lesson_dir_note(void) {
    char buf[LESSON_DIR_MAX], here[LESSON_DIR_MAX], used[LESSON_DIR_MAX];
    const char *d = lesson_dir(buf);
    if (!is_dir("lessons") || !realpath("lessons", here)) return NULL;
    if (d && realpath(d, used) && !strcmp(here, used)) return NULL;
    return "(./lessons here is not used: attn lesson ./lessons/NAME.md runs one of it, and "
           "ATTN_LESSONS=./lessons lists them; its progress is kept apart)\n";
}

/* The name a lesson's progress is kept under: the file name for the lessons in lesson_dir() (and their
 * translations in lesson_dir()/ja, /zh: one lesson whatever the language), the whole path for any other file (a
 * downloaded 01-self-attention.md does not share the real lesson's progress). */
char *lesson_progress_key(const Lesson *l) {
    char buf[LESSON_DIR_MAX], real[4200], dreal[4200];
    const char *d = lesson_dir(buf);
    if (!realpath(l->path, real)) return xstrdup(l->id);
    if (d && realpath(d, dreal)) {
        size_t n = strlen(dreal);
        const char *rest = real + n;
        if (!strncmp(real, dreal, n) && *rest == '/') {
            const char *sub = strchr(rest + 1, '/');
            if (!sub) return xstrdup(l->id);
            bool lang = sub - rest - 1 >= 2 && sub - rest - 1 <= 3 && !strchr(sub + 1, '/');
            for (const char *c = rest + 1; lang && c < sub; c++) lang = *c >= 'a' && *c <= 'z';
            if (lang) return xstrdup(l->id);
        }
    }
    return xstrdup(real);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **lesson_list(int *n) {
    *n = 0;
    char buf[LESSON_DIR_MAX];
    const char *dir = lesson_dir(buf);
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) return NULL;
    char **out = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".md") || !isdigit((unsigned char)e->d_name[0])) continue;
        out = xrealloc(out, sizeof(char *) * (size_t)(*n + 1));
        char path[4600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        out[(*n)++] = xstrdup(path);
    }
    closedir(d);
    if (*n) qsort(out, (size_t)*n, sizeof(char *), cmp_str);
    return out;
}

char *lesson_find(const char *which) {
    struct stat st;
    if (strchr(which, '/') || (strlen(which) > 3 && !strcmp(which + strlen(which) - 3, ".md")))
        return stat(which, &st) == 0 ? xstrdup(which) : NULL;
    int n;
    char **all = lesson_list(&n);
    char *found = NULL;
    char *end;
    long k = strtol(which, &end, 10);
    for (int i = 0; i < n; i++) {
        const char *base = strrchr(all[i], '/');
        base = base ? base + 1 : all[i];
        bool numeric = *which && !*end;
        if (!found && (numeric ? k == i + 1 : (!strncmp(base, which, strlen(which)) || strstr(base, which) != NULL))) found = xstrdup(all[i]);
        free(all[i]);
    }
    free(all);
    return found;
}

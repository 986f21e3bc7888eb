/* files.c - the state directory, writing files without losing anything, the write policy of lessons and
 * transcripts, and locks (see files.h). */
#include "files.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *file_state_dir(char dir[FILE_STATE_DIR_MAX]) {
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg == '/') snprintf(dir, FILE_STATE_DIR_MAX, "%s/attn", xdg);
    else if (home && *home) snprintf(dir, FILE_STATE_DIR_MAX, "%s/.local/state/attn", home);
    else return "";
    /* mkdir -p */
    char tmp[FILE_STATE_DIR_MAX];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') { *p = 0; mkdir(tmp, 0700); *p = '/'; }
    mkdir(tmp, 0700);      /* when this fails, writing there fails too, and says why */
    return dir;
}

/* ---- temporary files in flight, removed by the signal handler ---- */

#define TEMP_SLOTS 16
static char temps[TEMP_SLOTS][4200];
static volatile sig_atomic_t temp_used[TEMP_SLOTS];

void file_temp_add(const char *path) {
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (!temp_used[i]) {
            snprintf(temps[i], sizeof temps[i], "%s", path);
            temp_used[i] = 1;
            return;
        }
}

void file_temp_remove(const char *path) {
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (temp_used[i] && !strcmp(temps[i], path)) temp_used[i] = 0;
}

/* The flag of the stoppable save under way (file_begin_stoppable), NULL when none: a SIGINT sets it instead of killing. */
static _Atomic(atomic_int *) sigint_flag;       /* lock-free: read in the signal handler */

static void on_fatal_signal(int sig) {
    atomic_int *flag = sigint_flag;
    if (sig == SIGINT && flag && !*flag) {           /* the save stops at its next chunk and cleans up */
        *flag = 1;
        return;
    }
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (temp_used[i]) unlink(temps[i]);          /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

void file_signals_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGQUIT, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);      /* at the prompt lineedit takes SIGINT over (a flag that stops the statement) */
    signal(SIGXFSZ, SIG_IGN);          /* past ulimit -f a write fails with EFBIG, which is reported */
}

/* ---- the writer ---- */

const char *file_space_error(int e) {
    return e == ENOSPC ? "the disk is full" : e == EDQUOT ? "over the disk quota"
         : e == EFBIG ? "the file would be larger than allowed (ulimit -f)" : NULL;
}

static void say(AttnError *err, const char *path, int e) {
    if (e == EINTR) err_set_kind(err, ERR_INTERRUPT, "interrupted (Ctrl-C) while writing %s: nothing was changed", path);
    else if (file_space_error(e)) err_set(err, "cannot write %s: %s (nothing was changed)", path, file_space_error(e));
    else err_set(err, "cannot write %s: %s (nothing was changed)", path, strerror(e));
}

bool file_begin_stoppable(FileWriter *w, const char *path, atomic_int *flag, AttnError *err) {
    sigint_flag = flag;          /* before the temporary file exists: a SIGINT from now on stops this save */
    bool ok = file_begin(w, path, err);
    if (ok) w->stop = flag;
    else sigint_flag = NULL;
    return ok;
}

bool file_begin(FileWriter *w, const char *path, AttnError *err) {
    memset(w, 0, sizeof *w);
    w->fd = -1;
    if (strlen(path) >= sizeof w->path - 1) { err_set(err, "cannot write %.80s...: the path is too long", path); return false; }
    snprintf(w->path, sizeof w->path, "%s", path);
    for (int attempt = 0; attempt < 100 && w->fd < 0; attempt++) {
        snprintf(w->tmp, sizeof w->tmp, "%s.tmp%ld.%d", path, (long)getpid(), attempt);
        /* known to the signal handler before it exists: a SIGTERM just after open() still removes it (the name
         * holds our pid, so unlinking it when open() did not create it removes nobody else's file) */
        file_temp_add(w->tmp);
        w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (w->fd < 0) {
            int e = errno;
            file_temp_remove(w->tmp);
            errno = e;
            if (e != EEXIST) break;
        }
    }
    if (w->fd < 0) { say(err, path, errno); w->tmp[0] = 0; return false; }
    return true;
}

#define PUT_CHUNK (4u << 20)      /* a Ctrl-C is seen between two chunks: within a few milliseconds */

void file_put(FileWriter *w, const void *data, size_t n) {
    const char *p = data;
    while (n > 0 && !w->err && w->fd >= 0) {
        if (w->stop && *w->stop) { w->err = EINTR; break; }
        ssize_t k = write(w->fd, p, n < PUT_CHUNK ? n : PUT_CHUNK);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) { w->err = k < 0 ? errno : EIO; break; }
        p += k;
        n -= (size_t)k;
    }
}

void file_abort(FileWriter *w) {
    if (w->stop) sigint_flag = NULL;
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    if (w->tmp[0]) { unlink(w->tmp); file_temp_remove(w->tmp); }
    w->tmp[0] = 0;
}

bool file_commit(FileWriter *w, AttnError *err) {
    if (!w->err && w->stop && *w->stop) w->err = EINTR;
    if (!w->err && fsync(w->fd) != 0 && errno != EINVAL) w->err = errno;
    if (close(w->fd) != 0 && !w->err) w->err = errno;
    w->fd = -1;
    if (!w->err && rename(w->tmp, w->path) != 0) w->err = errno;
    if (w->err) {
        say(err, w->path, w->err);
        file_abort(w);
        return false;
    }
    if (w->stop) sigint_flag = NULL;
    file_temp_remove(w->tmp);
    w->tmp[0] = 0;
    return true;
}

bool file_write_atomic(const char *path, const void *data, size_t n, AttnError *err) {
    FileWriter w;
    if (!file_begin(&w, path, err)) return false;
    file_put(&w, data, n);
    return file_commit(&w, err);
}

/* ---- the write policy ---- */

void file_policy_restrict(FilePolicy *p, const char *who, const char *source, const char *allow_dir) {
    file_policy_free(p);
    memset(p, 0, sizeof *p);
    p->restricted = true;
    p->who = who;
    char areal[PATH_MAX];
    if (allow_dir && *allow_dir)
        snprintf(p->allowed, sizeof p->allowed, "%s", realpath(allow_dir, areal) ? areal : allow_dir);
    char real[PATH_MAX];
    if (source && realpath(source, real)) {
        char *slash = strrchr(real, '/');
        if (slash == real) real[1] = 0;
        else if (slash) *slash = 0;
        snprintf(p->root, sizeof p->root, "%s", real);
    } else if (!getcwd(p->root, sizeof p->root)) snprintf(p->root, sizeof p->root, "/nonexistent");
}

void file_policy_free(FilePolicy *p) {
    for (int i = 0; i < p->nmade; i++) free(p->made[i]);
    free(p->made);
    p->made = NULL;
    p->nmade = 0;
}

/* Whether the resolved directory `real` is the folder `root` or lies under it. */
static bool under(const char *root, const char *real) {
    size_t rn = strlen(root);
    return rn && !strncmp(real, root, rn) && (real[rn] == 0 || real[rn] == '/' || (rn == 1 && root[0] == '/'));
}

static bool under_root(const FilePolicy *p, const char *real) {
    return under(p->root, real) || (p->allowed[0] && under(p->allowed, real));
}

/* Whether the run made the file at the resolved path `real` itself (it may write it again); when `add`, it is
 * remembered as made. */
static bool made_here(FilePolicy *p, const char *real, bool add) {
    for (int i = 0; i < p->nmade; i++)
        if (!strcmp(p->made[i], real)) return true;
    if (!add) return false;
    char **m = realloc(p->made, sizeof *m * (size_t)(p->nmade + 1));
    char *copy = strdup(real);
    if (!m || !copy) { free(copy); if (m) p->made = m; return false; }
    p->made = m;
    p->made[p->nmade++] = copy;
    return true;
}

bool file_may_write(FilePolicy *p, const char *path, AttnError *err) {
    if (!p || (!p->restricted && !p->frozen)) return true;
    const char *who = p->who ? p->who : "a lesson";
    if (p->frozen) {
        err_set(err, "%s may not write files while an answer is checked (%s was not written)", who, path);
        return false;
    }
    /* the directory the file would land in, with every symbolic link and .. resolved */
    char dir[4096], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : path;
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    bool named = *base && strcmp(base, ".") && strcmp(base, "..");
    /* a folder that does not exist is named as missing, but only inside the root: outside it the answer is the
     * policy's, whether or not the folder exists (a lesson learns nothing about the rest of the disk) */
    struct stat ds;
    if (named && stat(dir, &ds) != 0 && errno == ENOENT) {
        char near[4096], nreal[PATH_MAX];
        snprintf(near, sizeof near, "%s", dir);
        for (char *cut; (cut = strrchr(near, '/')) && cut > near && stat(near, &ds) != 0;) *cut = 0;
        if (!strchr(near, '/') && stat(near, &ds) != 0) snprintf(near, sizeof near, ".");     /* "figs/a": from "." */
        if (near[0] == '/' && stat(near, &ds) != 0) snprintf(near, sizeof near, "/");
        if (realpath(near, nreal) && under_root(p, nreal) && !strstr(dir, "..")) {
            err_set(err, "there is no directory %s (make it first: a file is written only into one that exists)", dir);
            return false;
        }
    }
    bool inside = named && realpath(dir, real) && under_root(p, real);
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    if (inside && exists && S_ISLNK(st.st_mode)) inside = false;   /* a link in the root that points elsewhere */
    if (!inside) {
        if (p->allowed[0])
            err_set(err, "%s may write only into its own folder %s or into %s (--allow-write), not to %s", who,
                     p->root, p->allowed, path);
        else
            err_set(err, "%s may write only into its own folder %s, not to %s (to let it write into another "
                                  "folder, start attn with --allow-write DIR)", who, p->root, path);
        return false;
    }
    size_t rn = strlen(real);
    if (rn + 1 + strlen(base) >= sizeof real) { err_set(err, "cannot write %.80s...: the path is too long", path); return false; }
    real[rn] = '/';
    snprintf(real + rn + 1, sizeof real - rn - 1, "%s", base);
    if (exists && !p->dry && !made_here(p, real, false)) {
        err_set(err, "%s never replaces a file it did not make: %s is there already and was left as it was "
                              "(to let %s write it, move that file away first)", who, path, who);
        return false;
    }
    if (!exists) made_here(p, real, true);
    return true;
}

bool file_write_wanted(const FilePolicy *p) { return !p || !p->dry; }

/* ---- locks ---- */

int file_lock(const char *path, int timeout_ms) {
    char lp[4200];
    snprintf(lp, sizeof lp, "%s.lock", path);
    int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    for (int waited = 0;; waited += 10) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
        if (errno != EWOULDBLOCK && errno != EINTR) break;
        if (waited >= timeout_ms) { errno = ETIMEDOUT; break; }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    int e = errno;
    close(fd);
    errno = e;
    return -1;
}

void file_unlock(int fd) {
    if (fd < 0) return;
    flock(fd, LOCK_UN);
    close(fd);
}

/* gnuplot.c - one live gnuplot per session (shared/notes/gnuplot.md): started on the first plot with fork + exec,
 * fed through a pipe; its stderr read back up to a `print` marker after every batch, so we know it finished and
 * what it complained about. If it dies (EPIPE, EOF, waitpid) attn says so and starts a fresh one next time. */
#define _GNU_SOURCE
#include "plot.h"
#include "tensor.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GP_TIMEOUT_MS 15000

struct Gnuplot {
    pid_t pid;            /* 0 when not running */
    int in, err;          /* its stdin (commands) and stderr (messages and sync markers); -1 when closed */
    unsigned sync_no;     /* the last sync marker sent */
    char *terminals;      /* GPVAL_TERMINALS of the running gnuplot */
    StrBuf pending;       /* what gnuplot wrote to stderr while attn was still sending (read_until reads it first) */
};

Gnuplot *gp_new(void) {
    Gnuplot *g = xcalloc(1, sizeof *g);
    g->in = g->err = -1;
    return g;
}

static char *find_on_path(const char *prog) {
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/bin:/bin";
    char buf[4096];
    for (const char *p = path; *p;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 0 && n < sizeof buf - 64) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, prog);
            if (access(buf, X_OK) == 0) return xstrdup(buf);
        }
        p = e ? e + 1 : p + n;
    }
    return NULL;
}

bool gp_available(void) {
    char *p = find_on_path("gnuplot");
    free(p);
    return p != NULL;
}

int gp_pid(const Gnuplot *g) { return g ? (int)g->pid : 0; }

static void gp_close(Gnuplot *g) {
    sb_clear(&g->pending);
    if (g->in >= 0) close(g->in);
    if (g->err >= 0) close(g->err);
    g->in = g->err = -1;
    if (g->pid > 0) {
        kill(g->pid, SIGTERM);
        for (int i = 0; i < 50; i++) {
            if (waitpid(g->pid, NULL, WNOHANG) == g->pid) { g->pid = 0; break; }
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
        if (g->pid > 0) { kill(g->pid, SIGKILL); waitpid(g->pid, NULL, 0); }
    }
    g->pid = 0;
}

void gp_free(Gnuplot *g) {
    if (!g) return;
    /* quit, then give gnuplot a moment to exit by itself: a window opened with `persist` stays on screen */
    if (g->in >= 0) { ssize_t w = write(g->in, "quit\n", 5); (void)w; close(g->in); g->in = -1; }
    for (int i = 0; g->pid > 0 && i < 100; i++) {
        if (waitpid(g->pid, NULL, WNOHANG) == g->pid) { g->pid = 0; break; }
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    gp_close(g);
    free(g->terminals);
    sb_free(&g->pending);
    free(g);
}

typedef enum { SENT, DIED, STUCK } SendResult;

/* Sends n bytes to gnuplot without ever blocking: gnuplot's stderr is drained meanwhile (it may answer while it
 * reads, and would block on a full pipe while attn blocks on its), Ctrl-C stops it, and a gnuplot that takes
 * nothing for GP_TIMEOUT_MS (stopped with Ctrl-Z, hung) is given up: STUCK with a message in err. DIED: it is
 * gone (EPIPE). */
static SendResult write_all(Gnuplot *g, const char *s, size_t n, AttnError *err) {
    int fl = fcntl(g->in, F_GETFL);
    if (fl >= 0 && !(fl & O_NONBLOCK)) fcntl(g->in, F_SETFL, fl | O_NONBLOCK);
    int idle = 0;
    while (n > 0) {
        if (ten_interrupted) {
            err_set_kind(err, ERR_INTERRUPT, "interrupted while sending the figure to gnuplot: it was stopped, a fresh one starts at the next plot");
            return STUCK;
        }
        struct pollfd pfd[2] = {{g->in, POLLOUT, 0}, {g->err, POLLIN, 0}};
        int r = poll(pfd, 2, 100);
        if (r < 0 && errno != EINTR) return DIED;
        if (r <= 0) {
            if ((idle += 100) >= GP_TIMEOUT_MS) {
                err_set(err, "gnuplot took nothing for %d s (is it stopped?): it was stopped, a fresh one starts at the next plot",
                         GP_TIMEOUT_MS / 1000);
                return STUCK;
            }
            continue;
        }
        if (pfd[1].revents & POLLIN) {
            char buf[4096];
            ssize_t k = read(g->err, buf, sizeof buf);
            if (k > 0 && g->pending.len < (1 << 20)) sb_putn(&g->pending, buf, (size_t)k);
        }
        if (pfd[0].revents & (POLLERR | POLLHUP)) return DIED;
        if (!(pfd[0].revents & POLLOUT)) continue;
        ssize_t w = write(g->in, s, n);
        if (w < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return DIED;
        }
        idle = 0;
        s += w;
        n -= (size_t)w;
    }
    return SENT;
}

/* Reads gnuplot's stderr until the line `marker`; what came before goes to *msgs. */
/* Takes the lines of buf[0..n): true at the marker line (what follows it is dropped). */
static bool take_lines(const char *buf, size_t n, const char *marker, StrBuf *line, StrBuf *msgs) {
    for (size_t i = 0; i < n; i++) {
        if (buf[i] != '\n') { if (line->len < 65536) sb_putc(line, buf[i]); continue; }
        if (!strcmp(sb_str(line), marker)) return true;
        /* gnuplot's answer to attn's own "set encoding utf8" in a locale that is not UTF-8 (LANG=C): attn uses no
         * degree sign, so the warning says nothing to the student */
        bool own = strstr(sb_str(line), "iconv failed to convert degree sign") != NULL;
        if (!own && msgs->len < 65536) { sb_puts(msgs, sb_str(line)); sb_putc(msgs, '\n'); }
        sb_clear(line);
    }
    return false;
}

static bool read_until(Gnuplot *g, const char *marker, StrBuf *msgs, AttnError *err) {
    StrBuf line;
    sb_init(&line);
    int waited = 0;
    bool found = take_lines(g->pending.s ? g->pending.s : "", g->pending.len, marker, &line, msgs);
    sb_clear(&g->pending);
    if (found) { sb_free(&line); return true; }
    for (;;) {
        struct pollfd pfd = {g->err, POLLIN, 0};
        int r = poll(&pfd, 1, 100);
        if (r < 0 && errno == EINTR) continue;
        if (ten_interrupted) {
            err_set_kind(err, ERR_INTERRUPT, "interrupted while gnuplot was drawing: it was stopped, a fresh one starts at the next plot");
            sb_free(&line);
            return false;
        }
        if (r == 0) {
            waited += 100;
            if (waited >= GP_TIMEOUT_MS) {
                err_set(err, "gnuplot did not answer within %d s: it was stopped, a fresh one starts at the next plot", GP_TIMEOUT_MS / 1000);
                sb_free(&line);
                return false;
            }
            continue;
        }
        char buf[4096];
        ssize_t n = read(g->err, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            err_set(err, "gnuplot stopped unexpectedly%s%s", msgs->len ? ": " : "", msgs->len ? sb_str(msgs) : "");
            sb_free(&line);
            return false;
        }
        if (take_lines(buf, (size_t)n, marker, &line, msgs)) { sb_free(&line); return true; }
    }
}

static bool gp_start(Gnuplot *g, AttnError *err) {
    char *exe = find_on_path("gnuplot");
    if (!exe) {
        err_set(err, "gnuplot is not installed, so attn cannot draw: install it with 'sudo apt-get install gnuplot-nox' "
                              "(or gnuplot-qt for windows). Everything else in attn keeps working.");
        return false;
    }
    int in[2], er[2];
    if (pipe(in) < 0) { free(exe); err_set(err, "cannot start gnuplot: %s", strerror(errno)); return false; }
    if (pipe(er) < 0) { close(in[0]); close(in[1]); free(exe); err_set(err, "cannot start gnuplot: %s", strerror(errno)); return false; }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]); close(in[1]); close(er[0]); close(er[1]);
        free(exe);
        err_set(err, "cannot start gnuplot: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(er[1], 2);
        close(in[0]); close(in[1]); close(er[0]); close(er[1]);
        signal(SIGINT, SIG_IGN);       /* Ctrl-C is for attn; gnuplot keeps its window */
        signal(SIGPIPE, SIG_DFL);
        execl(exe, "gnuplot", (char *)NULL);
        _exit(127);
    }
    free(exe);
    close(in[0]);
    close(er[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(er[0], F_SETFD, FD_CLOEXEC);
    g->pid = pid;
    g->in = in[1];
    g->err = er[0];
    /* learn which terminals this gnuplot has */
    StrBuf msgs;
    sb_init(&msgs);
    char cmd[128], marker[64];
    snprintf(marker, sizeof marker, "ATTN_SYNC_%u", ++g->sync_no);
    snprintf(cmd, sizeof cmd, "print GPVAL_TERMINALS\nprint \"%s\"\n", marker);
    SendResult sr = write_all(g, cmd, strlen(cmd), err);
    if (sr == DIED) err_set(err, "gnuplot stopped as it started");
    if (sr != SENT || !read_until(g, marker, &msgs, err)) {
        sb_free(&msgs);
        gp_close(g);
        return false;
    }
    free(g->terminals);
    g->terminals = sb_take(&msgs);
    return true;
}

bool gp_has_terminal(Gnuplot *g, const char *name) {
    if (g->pid <= 0 && !gp_start(g, NULL)) return false;
    if (!g->terminals) return false;
    size_t n = strlen(name);
    for (const char *p = g->terminals; (p = strstr(p, name)); p += n)
        if ((p == g->terminals || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || p[n] == 0)) return true;
    return false;
}

bool gp_run(Gnuplot *g, const char *commands, char **messages, bool *restarted_out, AttnError *err) {
    *messages = NULL;
    *restarted_out = false;
    bool restarted = false;
    if (g->pid > 0 && waitpid(g->pid, NULL, WNOHANG) == g->pid) {      /* it died since the last plot (killed?) */
        g->pid = 0;
        gp_close(g);
        restarted = true;
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        if (g->pid <= 0) {
            if (!gp_start(g, err)) return false;
            restarted = restarted || attempt > 0;
        }
        char marker[64], tail[96];
        snprintf(marker, sizeof marker, "ATTN_SYNC_%u", ++g->sync_no);
        snprintf(tail, sizeof tail, "\nprint \"%s\"\n", marker);
        StrBuf msgs;
        sb_init(&msgs);
        SendResult sr = write_all(g, commands, strlen(commands), err);
        if (sr == SENT) sr = write_all(g, tail, strlen(tail), err);
        if (sr == STUCK) {
            sb_free(&msgs);
            gp_close(g);
            return false;
        }
        if (sr == SENT) {
            if (read_until(g, marker, &msgs, err)) {
                *messages = sb_take(&msgs);
                *restarted_out = restarted;
                return true;
            }
            sb_free(&msgs);
            gp_close(g);
            return false;
        }
        /* EPIPE: gnuplot died (killed?). Start a fresh one and send the figure again, once. */
        sb_free(&msgs);
        gp_close(g);
    }
    err_set(err, "gnuplot stopped and could not be restarted");
    return false;
}

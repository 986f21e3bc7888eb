/* main.c - command line: the REPL, attn FILE, attn -c STATEMENTS, --help, --version. */
#include "repl.h"
#include "files.h"
#include "transcript.h"
#include "plot.h"
#include "lesson.h"
#include "i18n.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ATTN_VERSION
#define ATTN_VERSION "dev"
#endif

/* Whether standard output is a pipe whose reader has left (attn ... | head): poll says POLLERR for it. */
static bool reader_left(void) {
    struct pollfd p = {.fd = 1, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/* The exit status once everything is written: a standard output that could not be written (a full disk, a
 * closed pipe) makes it 1, with a message unless the reader simply left (attn ... | head, as Python's
 * `python3 x.py | head` says nothing of it either). */
static int output_status(int status, int err) {
    errno = 0;
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    if (failed && !err) err = errno ? errno : reader_left() ? EPIPE : -1;   /* -1: it failed earlier, the reason is gone */
    if (!err) return status;
    if (err == -1) fputs("attn: cannot write the output (a full disk? a closed pipe?)\n", stderr);
    else if (err != EPIPE) fprintf(stderr, "attn: cannot write the output: %s\n", strerror(err));
    return 1;
}

/* `lesson` and `lesson N` at the REPL: a lesson runs in a session of its own, pushed over the REPL's. */
static RunStatus cmd_lesson(Session *S, const char *which) {
    fflush(stdout);
    if (!which) lesson_list_command(S->config.lang);
    else lesson_run_student(&S->config, which, isatty(0) && isatty(1) ? &lineedit_terminal : NULL, S);
    return RUN_OK;
}

/* attn --install-kernel: the Jupyter kernel spec 'attn' for this user, running this attn binary. The wrapper package
 * (jupyter/attn_kernel) is found beside the binary as the lessons are: PREFIX/share/attn/jupyter when installed, else
 * the checkout's jupyter/ (attn or build/attn); its installer (python3 -m attn_kernel.install) writes the spec. */
static int install_kernel(void) {
    char exe[4000], dir[4200], probe[4300];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) { fputs("attn: --install-kernel: cannot tell where this attn is (/proc/self/exe)\n", stderr); return 1; }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    static const char *const rel[] = {"/../share/attn/jupyter", "/jupyter", "/../jupyter"};
    bool found = false;
    for (int i = 0; i < 3 && slash && !found; i++) {
        snprintf(dir, sizeof dir, "%.*s%s", (int)(slash - exe), exe, rel[i]);
        snprintf(probe, sizeof probe, "%s/attn_kernel/kernel.py", dir);
        found = access(probe, R_OK) == 0;
    }
    char real[4200];
    if (!found || !realpath(dir, real)) {
        fputs("attn: --install-kernel: the kernel's Python package (attn_kernel) is not beside this attn: install "
              "with make install, or run attn from its checkout\n", stderr);
        return 1;
    }
    char *argv[] = {"/usr/bin/python3", "-m", "attn_kernel.install", "--user", "--attn", exe, "--pythonpath", real, NULL};
    fflush(stdout);
    setenv("PYTHONPATH", real, 1);
    execv(argv[0], argv);
    fprintf(stderr, "attn: --install-kernel: cannot run %s: %s (apt-get install python3-ipykernel)\n", argv[0], strerror(errno));
    return 1;
}

/* The REPL's word-commands: every session's, and lessons. */
static const SessionCommand main_commands[] = {
    {"help", 1, session_cmd_help},
    {"quit", 0, session_cmd_quit},
    {"exit", 0, session_cmd_quit},
    {"lesson", 1, cmd_lesson},
    {NULL, 0, NULL}};

static void usage(FILE *f) {
    fputs("usage: attn [options] [FILE]\n"
          "\n"
          "An interactive tutorial for d2l.ai section 11.6, Self-Attention and Positional\n"
          "Encoding. Type the book's PyTorch lines; tensors print as PyTorch prints them.\n"
          "\n"
          "  attn                start the REPL (at a terminal: line editing, history and\n"
          "                      tab completion)\n"
          "  attn FILE           run the statements in FILE ('-' reads standard input);\n"
          "                      as Python does, it stops at the first error\n"
          "  attn -c STATEMENTS  run STATEMENTS and exit (the first error stops them)\n"
          "  --keep-going        a FILE, -c or a pipe goes on after an error, as the prompt\n"
          "                      does\n"
          "  attn lesson         list the lessons with your progress\n"
          "  attn lesson N       start or resume lesson N (a guided session)\n"
          "  attn teach N [--record FILE]\n"
          "                      teaching mode: step through lesson N at your pace, detours\n"
          "                      allowed; --record writes the class as a transcript that\n"
          "                      --check replays\n"
          "  attn notebook N     write lesson N as a Jupyter notebook on the attn kernel\n"
          "                      to standard output (attn notebook 3 > lesson3.ipynb)\n"
          "  --frames            the structured mode the Jupyter kernel drives: cells and\n"
          "                      replies framed on standard input and output\n"
          "  --install-kernel    install the Jupyter kernel 'attn' for this user, running\n"
          "                      this attn (~/.local/share/jupyter/kernels/attn)\n"
          "  --replay FILE       run a transcript or lesson without a terminal and print it\n"
          "  --check FILE...     compare transcripts with their expected output (a diff on\n"
          "                      difference)\n"
          "  --update FILE...    rewrite the expected output of transcripts (review it!)\n"
          "  --allow-write DIR   let lessons and transcripts write new files (save,\n"
          "                      savefig) into DIR too; without it they write only into\n"
          "                      their own folder, and never over a file they did not make\n"
          "  --lang ja|zh|en     the language of lessons and their messages (default: from\n"
          "                      LC_ALL, LC_MESSAGES or LANG, e.g. LANG=ja_JP.UTF-8; else\n"
          "                      English)\n"
          "  -q, --quiet         no banner at start-up\n"
          "  -h, --help          show this help and exit\n"
          "  -V, --version       show the version and exit\n"
          "\n"
          "Exit status: 0 when every statement ran, 1 when one failed, 2 for a usage error.\n"
          "Inside attn, help shows the chapter's functions and where the others are listed\n"
          "(help torch, help nn, help Tensor ...); help NAME explains one of them.\n",
          f);
}

/* Takes --lang VALUE / --lang=VALUE and --allow-write DIR out of argv (they may stand anywhere, also after
 * `lesson N`) into cfg, whose language is the locale's without --lang. Returns false, with a message, for a missing
 * or unknown value. */
static bool take_lang_option(int *argc, char **argv, SessionConfig *cfg) {
    cfg->lang = i18n_from_env();
    cfg->allow_write = NULL;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "--allow-write")) {       /* taken out here too: it may stand anywhere */
            struct stat st;
            if (i + 1 >= *argc) { fputs("attn: --allow-write needs a directory\n", stderr); return false; }
            if (stat(argv[i + 1], &st) != 0 || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "attn: --allow-write %s: not a directory\n", argv[i + 1]);
                return false;
            }
            cfg->allow_write = argv[++i];       /* argv lives as long as attn: every session reads it there */
            continue;
        }
        if (!strcmp(argv[i], "--lang")) {
            if (i + 1 >= *argc) { fputs("attn: --lang needs a language: ja, zh or en\n", stderr); return false; }
            v = argv[++i];
        } else if (!strncmp(argv[i], "--lang=", 7)) v = argv[i] + 7;
        else { argv[out++] = argv[i]; continue; }
        I18nLang l;
        if (!i18n_parse_option(v, &l)) { fprintf(stderr, "attn: --lang takes ja, zh or en (not '%s')\n", v); return false; }
        cfg->lang = l;
    }
    *argc = out;
    argv[out] = NULL;
    return true;
}

/* $ATTN_MEMORY_LIMIT ("512M", "2G", bytes without a suffix): how much all tensors together may hold, instead of
 * the default 6 GiB (a smaller machine, or a test of what happens at the limit). Checked once at start-up: false
 * with a message when bad; every session's tensor context reads it when it is made (ten_ctx_new). */
static bool memory_limit_from_env(void) {
    const char *e = getenv("ATTN_MEMORY_LIMIT");
    if (!e || !*e) return true;
    int64_t bytes;
    if (!ten_parse_bytes(e, &bytes)) {
        fprintf(stderr, "attn: ATTN_MEMORY_LIMIT=%s is not a size (write it like 512M or 2G)\n", e);
        return false;
    }
    return true;
}

int main(int argc, char **argv) {
    const char *code = NULL, *file = NULL;
    bool quiet = false, keep_going = false;
    if (!memory_limit_from_env()) return 2;
    file_signals_install();
    SessionConfig cfg;          /* what every session takes from the command line: --lang, --allow-write */
    if (!take_lang_option(&argc, argv, &cfg)) return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        if (!strcmp(a, "-V") || !strcmp(a, "--version")) { printf("attn %s\n", ATTN_VERSION); return 0; }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) { quiet = true; continue; }
        if (!strcmp(a, "--keep-going")) { keep_going = true; continue; }
        if (!strcmp(a, "--install-kernel")) return install_kernel();
        if (!strcmp(a, "--frames")) {
            if (i + 1 < argc) { fprintf(stderr, "attn: --frames takes no FILE ('%s')\n", argv[i + 1]); return 2; }
            return repl_frames(ATTN_VERSION, &cfg);
        }
        if (!strcmp(a, "--replay") || !strcmp(a, "--check") || !strcmp(a, "--update")) {
            if (i + 1 >= argc) { fprintf(stderr, "attn: %s needs a FILE\n", a); return 2; }
            signal(SIGPIPE, SIG_IGN);
            int worst = 0;
            for (int k = i + 1; k < argc; k++) {
                /* a lesson is compiled to a transcript for --check and --replay (tr_open); --update rewrites a file's text */
                int rc = !strcmp(a, "--replay") ? tr_replay(&cfg, argv[k]) : !strcmp(a, "--check") ? tr_check(&cfg, argv[k], false)
                                                                 : tr_update(&cfg, argv[k]);
                if (rc > worst) worst = rc;
            }
            return output_status(worst, 0);
        }
        if (!strcmp(a, "notebook")) {
            if (i + 1 >= argc) { fputs("attn: notebook needs a lesson: attn notebook N > lessonN.ipynb\n", stderr); return 2; }
            if (i + 2 < argc) { fprintf(stderr, "attn: unexpected '%s' after notebook %s\n", argv[i + 2], argv[i + 1]); return 2; }
            return lesson_notebook_write(cfg.lang, argv[i + 1], stdout);
        }
        if (!strcmp(a, "lesson") || !strcmp(a, "teach")) {
            bool teach = !strcmp(a, "teach");
            const char *which = NULL, *record = NULL;
            for (int k = i + 1; k < argc; k++) {
                if (!strcmp(argv[k], "--record")) {
                    if (k + 1 >= argc) { fputs("attn: --record needs a FILE\n", stderr); return 2; }
                    record = argv[++k];
                } else if (!which) which = argv[k];
                else { fprintf(stderr, "attn: unexpected '%s' after %s %s\n", argv[k], a, which); return 2; }
            }
            if (record && !teach) { fputs("attn: --record is for teaching mode: attn teach N --record FILE\n", stderr); return 2; }
            struct stat rst;        /* a recording never replaces a file: the last class's, or anything else */
            if (record && lstat(record, &rst) == 0) {
                fprintf(stderr, "attn: --record %s: that file is there already and a recording never replaces a file; "
                                "choose another name (attn teach %s --record class-2.md) or move it away first\n",
                        record, which ? which : "N");
                return 2;
            }
            signal(SIGPIPE, SIG_IGN);
            plot_env_check();
            if (!which) {
                if (teach) { fputs("attn: teach needs a lesson: attn teach N [--record FILE]\n", stderr); return 2; }
                return output_status(lesson_list_command(cfg.lang), 0);
            }
            const LineEditor *tty = isatty(0) && isatty(1) ? &lineedit_terminal : NULL;
            return output_status(teach ? lesson_run_teacher(&cfg, which, record, tty) : lesson_run_student(&cfg, which, tty, NULL), 0);
        }
        if (!strcmp(a, "-c")) {
            if (i + 1 >= argc) { fputs("attn: -c needs statements, e.g. attn -c 'print(1 + 1)'\n", stderr); return 2; }
            code = argv[++i];
            continue;
        }
        if (a[0] == '-' && a[1]) { fprintf(stderr, "attn: unknown option '%s' (attn --help lists them)\n", a); return 2; }
        if (file) { fprintf(stderr, "attn: only one FILE can be given ('%s' and '%s')\n", file, a); return 2; }
        file = a;
    }
    signal(SIGPIPE, SIG_IGN);
    plot_env_check();
    Session S;
    session_init(&S, NULL);
    session_configure(&S, &cfg);
    S.commands = main_commands;
    LineReader r;
    SessionSource src;            /* the one loop's source: -c, a FILE, a pipe or the terminal */
    FILE *f = NULL;
    bool tty = false;
    S.I.echo_blocks = !code && !(file && strcmp(file, "-") != 0) && isatty(0);   /* only the prompt shows loops' values */
    if (code) {
        reader_init_text(&r, code);
        if (keep_going) session_source_reader(&src, &r, "-c", false);
        else session_source_script(&src, &S, &r, "-c");
    } else if (file && strcmp(file, "-") != 0) {
        f = fopen(file, "r");
        if (!f) { perror(file); session_free(&S); return 2; }
        reader_init_file(&r, f, NULL);
        if (keep_going) session_source_reader(&src, &r, file, false);
        else session_source_script(&src, &S, &r, file);
    } else {
        tty = !file && isatty(0) && isatty(1);
        reader_init_file(&r, stdin, tty ? &lineedit_terminal : NULL);
        if (tty) {
            lineedit_init(&S);
            if (!quiet)
                printf("attn %s - d2l.ai 11.6 Self-Attention and Positional Encoding\n%s", ATTN_VERSION,
                       TR(S.I.run.lang, "Type the book's lines (torch.zeros, d2l.masked_softmax ...). lesson lists the\n"
                          "lessons, help the functions; Ctrl-D leaves.\n"));
        }
        session_source_reader(&src, &r, tty ? NULL : "<stdin>", !keep_going && !isatty(0));   /* typed at a terminal: go on */
    }
    int failures = session_feed(&S, &src);
    session_source_free(&src);
    if (f) fclose(f);
    if (tty) {
        lineedit_shutdown(&S);
        putchar('\n');
        failures = 0;
    }
    reader_free(&r);
    int out_err = S.I.output_errno;
    session_free(&S);
    return output_status(failures ? 1 : 0, out_err);
}

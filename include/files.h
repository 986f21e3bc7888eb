/* files.h - the user's files (prefix file_): where attn keeps its state, writing a file so that nothing is lost,
 * where a lesson or a transcript may write, and locks for files two attn processes share. */
#ifndef ATTN_FILES_H
#define ATTN_FILES_H
#include "attnerr.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* $XDG_STATE_HOME/attn (default ~/.local/state/attn), created if missing, written into the caller's dir and
 * returned; "" when there is no home. */
#define FILE_STATE_DIR_MAX 4096
const char *file_state_dir(char dir[FILE_STATE_DIR_MAX]);

/* ---- writing without losing anything ----
 * A file is written to a temporary name beside it (registered, so a SIGTERM or SIGHUP removes it), every write
 * checked (a full disk, ulimit -f), flushed to the disk, and only then renamed over the old file: on any failure
 * the old file is untouched and the message says why ("No space left on device"). */
typedef struct FileWriter {
    char path[4096], tmp[4200];
    int fd;
    int err;              /* the first errno seen (0 when none) */
    atomic_int *stop;     /* file_begin_stoppable: a nonzero *stop (Ctrl-C) stops the writing; NULL: to its end */
} FileWriter;
bool file_begin(FileWriter *w, const char *path, AttnError *err);
void file_put(FileWriter *w, const void *data, size_t n);      /* errors are remembered for file_commit */
bool file_commit(FileWriter *w, AttnError *err);     /* false: nothing changed, err says why (kind ERR_INTERRUPT after a Ctrl-C) */
void file_abort(FileWriter *w);
/* file_begin for a write Ctrl-C may stop (a save of a gigabyte takes seconds): from before the temporary file exists
 * until w is committed or aborted, a SIGINT that would kill attn (a script) sets *flag instead, and file_put stops at
 * its next chunk once *flag is set; file_commit then fails with EINTR and removes the temporary file, the old file
 * untouched. (At the prompt SIGINT sets the flag anyway.) */
bool file_begin_stoppable(FileWriter *w, const char *path, atomic_int *flag, AttnError *err);
/* What a failed write with errno e means, for a message: "the disk is full", "over the disk quota", "the file would
 * be larger than allowed (ulimit -f)"; NULL for any other error. */
const char *file_space_error(int e);
bool file_write_atomic(const char *path, const void *data, size_t n, AttnError *err);

/* A temporary file written by someone else (gnuplot's savefig output): removed if attn is killed meanwhile. */
void file_temp_add(const char *path);
void file_temp_remove(const char *path);     /* forget it (after renaming it, or removing it) */
/* SIGTERM, SIGHUP, SIGQUIT and SIGINT (where nothing else catches it: a script) remove the temporary files in flight
 * and then end attn as the signal does (a SIGINT during a save that file_stop_on made stoppable stops the save
 * instead); SIGXFSZ (ulimit -f) becomes a write error (EFBIG) reported like a full disk, instead of killing attn
 * mid-save. */
void file_signals_install(void);

/* ---- where a lesson or a transcript may write ----
 * The student's own statements may write anywhere they can. A lesson or transcript (a stranger's file) writes only
 * into the folder the file is in, or one the user names with --allow-write DIR; it never replaces a file that it did
 * not make itself in this run (the student's thesis.pdf beside the lesson stays); and it writes nothing at all while
 * a question's answers are checked. */
typedef struct FilePolicy {
    bool restricted;      /* writes only under root (or the --allow-write folder), new files only */
    bool frozen;          /* no writes (an answer check is running) */
    bool dry;             /* a recorded class's replay: a write the rule allows is not made (the class made it; the
                           * replay writes nothing) but reported as made, and a file that is there may be "replaced" */
    char root[4096];      /* the resolved folder of the lesson or transcript */
    char allowed[4096];   /* the resolved --allow-write folder it may write into too, "" when none (the front end's
                           * option, copied in by file_policy_restrict) */
    const char *who;      /* "a lesson", "a transcript": for messages */
    char **made;          /* the resolved paths this run may write again: files that were not there when it first
                           * wrote them (owned) */
    int nmade;
} FilePolicy;
/* Restricts p to the folder of `source` (the lesson or transcript file; "." when it has none) and the folder
 * allow_dir (--allow-write DIR from the command line; NULL or "" for none). */
void file_policy_restrict(FilePolicy *p, const char *who, const char *source, const char *allow_dir);
void file_policy_free(FilePolicy *p);
/* May the run governed by p (NULL: no limits) create or replace path? false with a message for the student (what,
 * where, and how to allow it). true for a file that is not there yet also remembers it as the run's own. */
bool file_may_write(FilePolicy *p, const char *path, AttnError *err);
/* After file_may_write said yes: false when the write is to be left out (a dry replay), and the writer reports it as
 * done without writing. */
bool file_write_wanted(const FilePolicy *p);

/* ---- locks ----
 * An exclusive lock on path + ".lock" (created), waited for at most timeout_ms: two attn sessions read, merge and
 * write a shared file (progress, history) one after the other. -1 when it could not be had (errno: ETIMEDOUT when
 * another process held it all that time, else why the lock file could not be made). */
int file_lock(const char *path, int timeout_ms);
void file_unlock(int fd);
#endif

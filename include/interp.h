/* interp.h - the evaluator (prefix interp_). It knows nothing of the terminal: output goes to a sink, errors come
 * back as values with a message and a position, and what was defined before an error is kept. */
#ifndef ATTN_INTERP_H
#define ATTN_INTERP_H
#include "value.h"
#include "ast.h"
#include <stdio.h>

#define INTERP_MAX_CALL_DEPTH 200
#define INTERP_MAX_LINE 100000          /* characters in one statement */

typedef struct Args {
    Value **pos;
    int npos;
    const char **kwnames;
    Value **kwvals;
    int nkw;
    const char *fname;      /* for messages */
    const Builtin *fn;      /* the builtin being called (its tag), NULL for other callables */
} Args;

typedef struct Scope {
    Dict vars;
    struct Scope *parent;
} Scope;

typedef struct Interp {
    Dict globals;
    Scope *scope;                /* innermost function/comprehension scope, NULL at top level */
    /* the current error */
    bool has_err;
    char err[1024];
    int err_line, err_col;       /* 0 when unknown */
    /* output */
    StrBuf *capture;             /* when set, print() and echoes go here instead of stdout */
    FILE *out;
    bool echo_values;            /* print the value of a bare expression at top level */
    int call_depth;
    long long max_loop_iterations;   /* a loop or comprehension longer than this stops with an error */
    int loop_depth;
    /* control flow signals */
    int signal;                  /* 0, SIG_BREAK, SIG_CONTINUE, SIG_RETURN */
    Value *ret;
    /* the statement text being run, for carets */
    const char *src;
    const char *src_name;        /* NULL for the prompt */
    int src_first_line;          /* the line number of src's first line */
    /* what the last statement printed as a value, for lessons (borrowed until the next statement) */
    Value *last_value;
    void *lesson;                /* lesson state, owned by the lesson module */
} Interp;

enum { SIG_NONE = 0, SIG_BREAK, SIG_CONTINUE, SIG_RETURN };

void interp_init(Interp *I);
void interp_free(Interp *I);

/* Runs one chunk of source (one or more statements). Returns 0 on success; -1 on an error, which is printed by
 * interp_print_error. What was defined before the error stays defined. */
int interp_run(Interp *I, const char *src, const char *src_name, int first_line);
/* Formats the current error: "file:line:col: error: msg" or, at the prompt, the line with a caret under it. */
void interp_format_error(Interp *I, StrBuf *out);
void interp_clear_error(Interp *I);

/* Sets the error (when none is set yet) and returns NULL, for one-line returns in builtins. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
Value *rt_error(Interp *I, const char *fmt, ...);
Value *rt_tensor_error(Interp *I);              /* the error left by the tensor library */

void interp_write(Interp *I, const char *s);    /* to the capture buffer or the output stream */

/* Calls any callable value with positional and keyword arguments. */
Value *interp_call(Interp *I, Value *fn, Args *a);
Value *interp_lookup(Interp *I, const char *name);   /* borrowed; NULL when undefined */
void interp_set_global(Interp *I, const char *name, Value *v);   /* steals v */

/* Argument helpers for builtins. arg(I, a, i, "name") finds positional i or keyword name (borrowed, NULL when
 * absent). args_check rejects unknown keywords and too many positionals with a message naming the function. */
Value *arg(Args *a, int i, const char *name);
bool args_check(Interp *I, Args *a, int maxpos, const char *const *kwnames);
bool arg_int(Interp *I, Value *v, const char *what, int64_t *out);
bool arg_double(Interp *I, Value *v, const char *what, double *out);
bool arg_bool(Interp *I, Value *v, const char *what, bool *out);
/* A tensor from a tensor, a number, or a nested list of numbers (borrowed into *tmp when converted). */
Tensor *arg_tensor(Interp *I, Value *v, const char *what, Tensor **tmp);
/* A shape from ints, a tuple/list of ints or a torch.Size: zeros(2, 3) and zeros((2, 3)) alike. */
bool arg_shape(Interp *I, Args *a, int first, int64_t *shape, int *ndim);

/* Converts a nested list of numbers (or a number) to a tensor, inferring dtype as torch.tensor does. */
Tensor *interp_to_tensor(Interp *I, Value *v, bool has_dtype, DType dt);
#endif

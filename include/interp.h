/* interp.h - the evaluator (prefix interp_). It knows nothing of the terminal: output goes to a sink, errors come
 * back as values with a message and a position, and what was defined before an error is kept.
 *
 * A worked example: run statements from C, read what they printed and what they left (test_lang runs this code,
 * test_header_example):
 *
 *     Session S;
 *     session_init(&S, "none");                      // session.h: the libraries (torch, nn, d2l ...), no plots
 *     StrBuf out;
 *     sb_init(&out);
 *     OutputSink cap;
 *     interp_push_sink(&S.I, &cap, SINK_CAPTURE, &out);    // what the statements print goes to out
 *     int rc = interp_run(&S.I, "X = torch.ones(2, 3)\nprint(X.sum())", "<c>", 1);
 *     interp_pop_sink(&S.I, &cap);
 *     if (rc < 0) {                                  // the error as the prompt shows it, then cleared
 *         StrBuf e;
 *         sb_init(&e);
 *         interp_format_error(&S.I, &e);
 *         fputs(sb_str(&e), stderr);
 *         sb_free(&e);
 *         interp_clear_error(&S.I);
 *     }
 *     Value *X = interp_lookup(&S.I, "X");           // borrowed: val_incref it to keep it past the next run
 *     printf("%s%lld\n", sb_str(&out), (long long)X->u.t->numel);   // tensor(6.) then 6
 *     sb_free(&out);
 *     session_free(&S);
 */
#ifndef ATTN_INTERP_H
#define ATTN_INTERP_H
#include "value.h"
#include "ast.h"
#include "parser.h"
#include "tensor.h"
#include "plot.h"
#include "files.h"
#include "attnerr.h"
#include "autograd.h"
#include "i18n.h"
#include <stdio.h>

struct Session;

/* What one run owns that the libraries use: torch's generator, print options, the tensor library's context
 * (error, limits, default dtype, threads), the plots, where files may be written. The interpreter holds it (I->run), so the builtins reach it without knowing the session.
 * interp_init makes it; whoever owns the interpreter frees its plot and files (session_free). */
typedef struct RunContext {
    Rng rng;                         /* torch's default generator: manual_seed, rand, randn, dropout, init */
    PrintOptions print;              /* torch.set_printoptions */
    TenCtx *ten;                     /* the tensor library's context (tensor.h): its error, limits, default dtype
                                      * (torch.set_default_dtype), memory, threads; builtins make
                                      * tensors in it, fail in it (rt_tensor_error reads it) and pass it to
                                      * ten_sgemm and par_for (its thread count and product switches) */
    Plot plot;                       /* plot target, figure numbers, the last figure, the gnuplot process */
    FilePolicy files;                /* where save(), savefig() and figure files may go: anywhere for the student's
                                      * own REPL, under one directory for lessons and transcripts (files.h) */
    AgContext ag;                    /* grad mode (torch.no_grad ...) and the order of recorded nodes (autograd.h) */
    I18nLang lang;                   /* the language its messages are in (TR(I->run.lang, ...)): the front end's
                                      * (--lang, the locale), a transcript's or a notebook's own; set with
                                      * session_set_lang, which gives it to the plots too (Plot.lang) */
    ValHeap *heap;                   /* its values (value.h): every constructor takes it; the cycle collector walks
                                      * its set, the memory limit reads its live bytes. interp_free collects its
                                      * cycles and lets go of it (freed with the last value made in it) */
} RunContext;

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

/* The variables of a running function, comprehension or class body. They live in a dict value (env) that
 * functions defined inside share, so a nested def or lambda sees the enclosing function's variables as they are
 * when it runs (Python's closures). Lookups walk parent scopes, then the globals. */
typedef struct Scope {
    Dict *vars;                  /* env's dict */
    Value *env;                  /* a V_DICT, owned by the scope while it runs */
    bool is_class;               /* a class body: its names are not visible inside its methods */
    struct Scope *parent;
} Scope;

/* One running call of a user function (call.c keeps it on the C stack): super() finds its class and self here. */
typedef struct Frame {
    Value *func;                 /* the V_FUNC running (borrowed) */
    Value *klass;                /* the class its method was found in, for super(); NULL for a plain call */
    Scope *scope;                /* its local variables */
    struct Frame *parent;
} Frame;

/* ---- the one error channel ----
 * Every failure in the language, a builtin or the tensor library ends up here, as one record with a kind. A
 * builtin reports with rt_error(I, fmt, ...) and returns NULL; the evaluator adds where it happened; the caller of
 * interp_run formats it with interp_format_error. quit() and Ctrl-C travel the same path with their own kinds, so
 * no message text is ever compared to find out what happened. The kinds are attnerr.h's, the error record of
 * the layers below (files, plotting, lessons): ERR_NONE, ERR_ERROR, ERR_QUIT (quit() or exit(): the run ends without
 * a message), ERR_INTERRUPT (Ctrl-C: reported as an interruption; what was defined before is kept). */
typedef AttnErrKind ErrKind;

/* One entry of the call chain, for tracebacks ("File "f.py", line 3, in attention"). The evaluator appends a
 * frame as an error leaves a user function (innermost first); file and func are owned copies. */
typedef struct ErrFrame {
    char *file;                  /* NULL at the prompt */
    int line, col;               /* 0 when unknown */
    char *func;                  /* NULL at top level */
    char *text;                  /* that source line, for the caret (may be NULL) */
} ErrFrame;

#define ERR_MAX_FRAMES 64

typedef struct Error {
    ErrKind kind;
    char msg[1024];
    char file[256];              /* where: "" at the prompt */
    int line, col;               /* 0 when unknown */
    char text[400];              /* the source line at line (for the caret), "" when unknown */
    ErrFrame *frames;            /* the call chain below the statement, innermost first (owned) */
    int nframes;
    char etype[32];              /* ERR_ERROR: Python's class of the error ("KeyError"), "" when it has none (pyexc.h) */
    struct Value *exc;           /* the exception object a raise statement raised (owned), NULL otherwise */
    int raised_len;              /* > 0: the length of the placeholder (exc's class name) a raise statement wrote at
                                  * the end of msg (after any prefix added since), which interp_error_msg replaces by
                                  * exc's message when it is first read; 0 otherwise */
} Error;

/* Where a run's output goes, as a stack over the interpreter's stream (I->out): a CAPTURE takes what is written
 * (print, echoes, errors) into its buffer, and nothing below it sees it (a transcript step, an answer checked
 * unseen, timeit's repeats); a RECORDING keeps a copy as a transcript shows it (a figure as its summary line) and
 * passes it on (teach --record, a lesson's self-check). The caller owns the node (on its C stack) and pops it
 * before returning, on every path: interp_push_sink / interp_pop_sink. */
typedef enum { SINK_CAPTURE, SINK_RECORDING } SinkKind;
typedef struct OutputSink {
    SinkKind kind;
    StrBuf *buf;
    struct OutputSink *below;
} OutputSink;

typedef struct Interp {
    Dict globals;
    Scope *scope;                /* innermost function/comprehension scope, NULL at top level */
    Frame *frame;                /* the innermost running user function, NULL at top level */
    Error error;                 /* the pending error (kind ERR_NONE when none) */
    /* output: the sinks pushed over `out` (interp_push_sink), top first; NULL: straight to out */
    struct OutputSink *sinks;
    FILE *out;
    Dict warned;                 /* the keys of the one-time warnings interp_warn gave */
    int output_errno;            /* why writing to out failed (EPIPE: the reader left; ENOSPC), 0 while it works */
    uint64_t streamed;           /* writes that reached out or stderr (not a capture): a live figure redrawn in place
                                  * in the terminal knows from it whether anything was printed below it */
    bool escape_controls;        /* a stranger's file runs (a lesson, a transcript): control characters in what it
                                  * prints and in its errors are written as \xHH (tw_visible), never sent raw */
    bool echo_values;            /* print the value of a bare expression at top level */
    bool echo_blocks;            /* and inside a typed loop, as Python's prompt does (true); a script shows top
                                  * level ones only (attn FILE, -c, a pipe: false) */
    int call_depth;
    const Args *method_args;     /* the arguments of the builtin method running now, its receiver first (call.c's
                                  * call_with_self): PyTorch counts a method's argument positions after it */
    int depth;                   /* eval and exec levels running now: the C stack's counter, bounded by AST_MAX_DEPTH */
    int eq_level;                /* val_eq's nesting now (value_eq.c), across a student's __eq__ that compares again */
    int base_call_depth;         /* call_depth where the running chunk started (top level of a nested run) */
    long long max_loop_iterations;   /* a loop or comprehension longer than this stops with an error */
    struct ArgSpecs *argspecs;       /* argspec.c: each builtin's parameters, read from its signature at its first
                                      * call and kept (args_bind) */
    /* what this interpreter added to attn's open classes (@d2l.add_to_class(d2l.Trainer), d2l.Module.flag = None):
     * per class, its own namespace, read before the class's (classes.c's class_added); the classes are the process's,
     * the additions this interpreter's alone, as in Python, and freed with it (interp_free) */
    struct ClassAdded *added;
    int nadded;
    int loop_depth;
    /* control flow signals */
    int signal;                  /* 0, SIG_BREAK, SIG_CONTINUE, SIG_RETURN */
    Value *ret;
    Value *handling;             /* the exception an except clause is handling (borrowed), for a bare raise */
    /* the statement text being run, for carets */
    const char *src;
    const char *src_name;        /* NULL for the prompt */
    int src_first_line;          /* the line number of src's first line */
    /* what the last statement printed as a value, for lessons (borrowed until the next statement) */
    Value *last_value;
    struct Session *session;     /* the session that owns this interpreter */
    RunContext run;              /* the run's generator, print options, tensor context, plots and write policy */
    /* the repr under way (value.h): in val_repr and its kin repr_raises is set, so a student's __repr__/__str__ that
     * raises leaves its error set and repr_failed true (no more student code runs in that repr); in val_repr_quiet
     * (an error message, help) its failure prints as a placeholder and the error is dropped */
    bool repr_raises, repr_failed;
    const Value *repr_active[VAL_REPR_MAX_DEPTH + 1];   /* the containers being printed now, outermost first ([...]) */
    int repr_nactive;
} Interp;

enum { SIG_NONE = 0, SIG_BREAK, SIG_CONTINUE, SIG_RETURN };

void interp_init(Interp *I);
void interp_free(Interp *I);

/* Runs one chunk of source (one or more statements). Returns 0 on success; -1 when it stopped with an error, a
 * quit or an interrupt (interp_error says which). What was defined before the error stays defined. May be called
 * from inside a running statement (timeit, answer checks): the caller's source and position are restored. */
int interp_run(Interp *I, const char *src, const char *src_name, int first_line);
/* The same for src already parsed (by the reader, with first_line): takes ownership of pr->tree; a syntax error
 * in pr is reported as interp_run would. */
int interp_run_parsed(Interp *I, ParseResult *pr, const char *src, const char *src_name, int first_line);
/* Parses src as interp_run does (the same length limit and syntax errors, placed in src_name at first_line): the
 * tree (an N_BLOCK, the caller's to ast_free) or NULL with the error pending. */
Node *interp_parse(Interp *I, const char *src, const char *src_name, int first_line);
/* Runs a tree from interp_parse as interp_run runs its source (src: its text, for carets). The tree stays the
 * caller's and unchanged (a def or class inside copies what it keeps), so it can run again: timeit parses once. */
int interp_run_tree(Interp *I, Node *tree, const char *src, const char *src_name, int first_line);
/* Formats the pending error: "file:line:col: error: msg" or, at the prompt, the line with a caret under it.
 * ERR_QUIT formats as nothing; ERR_INTERRUPT as the interruption notice. */
void interp_format_error(Interp *I, StrBuf *out);
void interp_clear_error(Interp *I);
static inline bool interp_failed(const Interp *I) { return I->error.kind != ERR_NONE; }
static inline ErrKind interp_error_kind(const Interp *I) { return I->error.kind; }
/* The pending error's message. An exception a raise statement raised is formatted here, when first read (str(e),
 * a student's __str__ too), as Python formats it when it prints it, not when it is raised. */
const char *interp_error_msg(Interp *I);

/* Sets the error (when none is pending) and returns NULL, for one-line returns in builtins. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
Value *rt_error(Interp *I, const char *fmt, ...);
/* rt_error with Python's class of the error ("ValueError", "TypeError" ...: pyexc.h), which except clauses match */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
Value *rt_raise(Interp *I, const char *etype, const char *fmt, ...);
/* Python's truth of v (if v:, bool(v), any, all, filter): a student's __bool__, else its __len__, else the value's own
 * (a tensor of one value); false with the error set (a tensor of more values is ambiguous, or the method raised). */
bool interp_truth(Interp *I, Value *v, bool *out);
Value *rt_interrupt(Interp *I);                 /* Ctrl-C was pressed: stop this statement */
Value *rt_quit(Interp *I);                      /* quit() / exit() */
/* Would `more` further values (about 64 bytes each) with the live values and tensors pass the memory limit
 * (I->run.ten->limit_bytes)? false with Python's MemoryError set: a list that grows without end stops with a message
 * instead of an out-of-memory kill. Also false when an allocation failed since the statement began
 * (mem_exhausted: the machine, or ulimit -v, refused memory). */
bool interp_memory_ok(Interp *I, int64_t more);
/* The same for `bytes` more bytes (a string or list about to be built at once): false with MemoryError set. */
bool interp_bytes_ok(Interp *I, int64_t bytes);
/* The boundary where the tensor library's failure (ten_error(I->run.ten), ten_error_kind) becomes the interpreter's
 * error: every builtin that calls a ten_* function which failed returns rt_tensor_error(I). */
Value *rt_tensor_error(Interp *I);
/* The boundary where the layers below (files, plotting: an AttnError, attnerr.h) hand their failure to the
 * interpreter: e's message as the pending error (an ERR_INTERRUPT too: the message says what Ctrl-C stopped and that
 * nothing was lost, so the student sees it whole). Returns NULL. */
Value *rt_attn_error(Interp *I, const AttnError *e);
/* The same where a tensor is indexed (X[i], X[i] = v, index_select): an index out of range is PyTorch's IndexError. */
Value *rt_tensor_index_error(Interp *I);
/* Puts "prefix: " before the pending message of an ERR_ERROR (quit and interrupts pass unchanged): for a builtin
 * that ran something on the user's behalf, e.g. "timeit: the statement failed: ...". Returns NULL. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
Value *rt_error_prefix(Interp *I, const char *fmt, ...);
/* Gives the pending error a position (line, col of the running source) unless it has one. */
void interp_error_at(Interp *I, int line, int col);
/* Appends a frame to the pending error's call chain (for tracebacks). */
void interp_error_add_frame(Interp *I, const char *file, int line, int col, const char *func, const char *text);

/* To the capture buffer or the output stream. false when the stream cannot be written (a closed pipe, a full disk):
 * then I->output_errno says why and the run is stopped as by quit() (the caller returns its failure). */
bool interp_write(Interp *I, const char *s);
/* The same for attn's own drawing (a figure in the terminal, sixel): never escaped (its labels were cleaned when the
 * figure was made, plot.h). */
bool interp_write_raw(Interp *I, const char *s);
/* An error's message (or the interruption notice), formatted: to the sinks as interp_write, else (no capture) to
 * stderr after what was printed; escaped as interp_write escapes. */
void interp_write_error(Interp *I, const char *s);
/* A warning the user must see, as Python's warnings module shows one on stderr: the text (printf's fmt, one line or
 * more; a newline is added) on the error stream after what the run printed so far, control characters shown
 * visibly in a stranger's file; nothing while the output is captured (a transcript step, an answer checked unseen:
 * their output is compared with what PyTorch prints on stdout). once: a key given once per interpreter (Python's
 * default filter shows a warning once), NULL: every time. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void interp_warn(Interp *I, const char *once, const char *fmt, ...);
/* A figure just shown: `shown` (the drawing, a window's note, the summary) as interp_write_raw writes it, except that a
 * recording gets `recorded` instead (the figure's summary line; NULL: nothing). false as interp_write_raw. */
bool interp_write_figure(Interp *I, const char *shown, const char *recorded);
/* s to the recordings only (down to the first capture): what the prompt shows of an error handed elsewhere
 * (Session.on_error, a Jupyter kernel's frames). */
void interp_write_recordings(Interp *I, const char *s);
/* Pushes sink s (the caller's, alive until popped) of that kind over buf: output goes there until interp_pop_sink. */
void interp_push_sink(Interp *I, OutputSink *s, SinkKind kind, StrBuf *buf);
/* Pops s and whatever a caller forgot above it: the output goes where it went before s was pushed. A sink not on
 * the stack (popped already) changes nothing. */
void interp_pop_sink(Interp *I, OutputSink *s);
/* Whether what is written now is captured (some CAPTURE on the stack): it reaches no terminal, so one-time warnings
 * and drawings for the terminal wait. */
bool interp_captured(const Interp *I);

/* Calls any callable value with positional and keyword arguments. */
Value *interp_call(Interp *I, Value *fn, Args *a);
/* Calls a function or builtin fn as a method: self goes before the arguments; klass is the class fn was found in
 * (super() inside it starts after klass), NULL when unknown. */
Value *interp_call_method(Interp *I, Value *fn, Value *self, Value *klass, Args *a);
Value *interp_lookup(Interp *I, const char *name);   /* borrowed; NULL when undefined */
void interp_set_global(Interp *I, const char *name, Value *v);   /* steals v */

/* Argument helpers for builtins. arg(I, a, i, "name") finds positional i or keyword name (borrowed, NULL when
 * absent); the arguments are checked against the builtin's declaration first, by args_bind and its siblings. */
Value *arg(Args *a, int i, const char *name);
/* The arguments of the builtin a->fn bound by its one declaration, its signature (argspec.c): out[i] is the argument
 * of the i-th named parameter (borrowed; NULL when absent and it has a default; for *name, the first of the
 * positional arguments it takes, a->pos from there on). Python's TypeErrors otherwise: too many positional
 * arguments, an unexpected keyword, multiple values for one, a missing required argument. nout >= the number of
 * named parameters. So a body writes no keyword list:
 *     Value *p[2];                              // "torch.full_like(input, fill_value, *, dtype=None)"
 *     if (!args_bind(I, a, p, 3)) return NULL;
 */
#define ARGS_MAX_PARAMS 16
#define ARGS_MAX_FORMS 4
bool args_bind(Interp *I, Args *a, Value **out, int nout);
/* The same for an overloaded declaration, forms separated by " / " ("range(stop, /) / range(start, stop, step=1, /)"):
 * binds the first form the arguments fit and returns its index (out holds that form's parameters), else raises the
 * TypeError (argspec.c says which) and returns -1. nout >= the named parameters of every form. */
int args_bind_form(Interp *I, Args *a, Value **out, int nout);
/* The same for a method of a Python class whose a->pos[0] is self (not a parameter of the declaration, which is
 * written on the receiver: "module.train(mode=True)"): out[i] is the i-th parameter after self; the TypeErrors are a
 * Python method's, qualified by owner, the class that defines it ("Module.train() takes from 1 to 2 positional
 * arguments but 3 were given"). */
bool args_bind_method(Interp *I, Args *a, const char *owner, Value **out, int nout);
/* The same for a call whose self is not among the arguments (a module's forward, ObjClass.call): a bound by decl, a
 * declaration of its own ("module.forward(input)", in no table), with a method's words for owner.forward. */
bool args_bind_call(Interp *I, Args *a, const Builtin *decl, const char *owner, Value **out, int nout);
/* The one check of every call of a torch or F function and Tensor method (call.c, before its body runs): the
 * arguments must fit one form of its declaration, else PyTorch's TypeError ("exp() takes 1 positional argument but 2
 * were given", "_TensorBase.dim() takes no arguments (1 given)", "... received an invalid combination of arguments")
 * and false. method: a->pos[0] is X of X.NAME(...) (I->method_args == a). Other builtins pass unchecked. */
bool args_check(Interp *I, Args *a, bool method);
/* The number of named parameters of a signature, -1 when it cannot be read (test_lang checks every builtin's). */
int args_param_count(const char *signature);
/* The name of the i-th named parameter of a signature's first form into out (n bytes): d2l's save_hyperparameters
 * names the attributes it sets by it. false when there is none or it does not fit. */
bool args_param_name(const char *signature, int i, char *out, size_t n);
void args_specs_free(struct ArgSpecs *s);            /* interp_free's: the parameters args_bind kept */
bool arg_int(Interp *I, Value *v, const char *what, int64_t *out);
/* n ints from items (a list's or tuple's items, or positional arguments) into out, each as arg_int reads it. The
 * items are held first: a student's __index__ may clear or refill the list they came from. */
bool arg_ints(Interp *I, Value *const *items, int64_t n, const char *what, int64_t *out);
bool arg_double(Interp *I, Value *v, const char *what, double *out);
bool arg_bool(Interp *I, Value *v, const char *what, bool *out);
/* A tensor argument of a builtin: t to read; own the tensor made for it when the argument was converted (NULL when t
 * is the argument's own); weak when it was a Python number (PyTorch's wrapped number: it does not promote a tensor's
 * dtype). A builtin releases it once (arg_tensor_release), after its last use of t; a zeroed one releases nothing. */
typedef struct ArgTensor { Tensor *t, *own; bool weak; } ArgTensor;
/* What a parameter PyTorch declares Tensor takes besides a tensor, as its python_arg_parser reads it: nothing
 * (ARG_TENSOR: exp, matmul, maximum ...), a Python number where the declaration has a Scalar overload or allows
 * numbers (ARG_NUMBER: add's, where's, eq's other). No Tensor parameter of PyTorch takes a list (torch.tensor and
 * torch.stack read theirs as data and sequences, interp_to_tensor). */
enum { ARG_TENSOR = 0, ARG_NUMBER = 1,
       ARG_OVERLOADED = 2,   /* refused in the words of an overloaded declaration (arg_no_overload) */
       ARG_RECEIVER = 4 };   /* PyTorch's Python code calls a method of it (F.softmax: input.softmax(dim)): refused
                              * as Python's AttributeError, "'list' object has no attribute 'softmax'" (name is the
                              * method's) */
/* v, argument `name` of the call a (NULL for a value no call passed: the assigned value), as a tensor into *out by
 * accept: out->t, or NULL with PyTorch's TypeError (arg_not_tensor) or the conversion's error, *out zeroed. */
Tensor *arg_tensor(Interp *I, Args *a, Value *v, const char *name, unsigned accept, ArgTensor *out);
/* The same as a contiguous tensor of dtype dt (converted as X.to(dt) does, into out->own, when it is not one): the
 * boundary for code that reads raw float* / int64_t* (ten_f32, ten_i64 abort on another dtype in sanitizer builds). */
Tensor *arg_tensor_as(Interp *I, Args *a, Value *v, const char *name, unsigned accept, DType dt, ArgTensor *out);
void arg_tensor_release(ArgTensor *t);
/* PyTorch's refusal of v given where a Tensor is declared, in the words accept says: the TypeError "exp(): argument
 * 'input' (position 1) must be Tensor, not list" (the position counts a method's arguments after its tensor, and is
 * left out for a keyword), arg_no_overload's, or ARG_RECEIVER's AttributeError; NULL. What a builtin that reads its
 * tensor argument in place (no conversion) returns for anything else. */
Value *arg_not_tensor(Interp *I, Args *a, Value *v, const char *name, unsigned accept);
/* The same for a function PyTorch declares several ways (where, fill_, index_select): "fill_() received an invalid
 * combination of arguments - got (list), but expected one of:" (the argument types, a method's after its tensor). */
Value *arg_no_overload(Interp *I, Args *a);
/* A shape from ints, a tuple/list of ints or a torch.Size: zeros(2, 3) and zeros((2, 3)) alike. */
bool arg_shape(Interp *I, Args *a, int first, int64_t *shape, int *ndim);

/* ---- classes (classes.c) ---- */
/* Where a name was found in a class's method resolution order: a value of a class namespace (v) or a method of
 * one of attn's classes (b), in class `where`. Borrowed. */
typedef struct Found { Value *v; const Builtin *b; Value *where; } Found;
/* name in cls's MRO (after: start after that class): I's additions to an open class of attn's first (Interp.added),
 * then the class's namespace, then its C methods; I NULL reads the classes' own only. */
bool class_find(Interp *I, Value *cls, const char *name, Value *after, Found *out);
bool class_is_subclass(const Value *cls, const Value *base);
Value *class_object(void);                       /* Python's object (borrowed: lives as long as the program) */
/* Makes object and the exception classes: once, from lib_open (under builtins_open's pthread_once). */
void classes_open(void);
/* One of attn's classes (nn.Module, d2l.Module, the exception classes): methods written in C; made once for the
 * program, immortal (value.h); a new reference. */
Value *class_new_builtin(const char *name, const char *module_name, Value *base, const Builtin *methods, bool is_module);
/* A class of heap's, derived from object, with no methods: what type(x) returns for a kind of value no static class
 * names (registry.c's class_names); a new reference. */
Value *class_new_transient(ValHeap *heap, const char *name, const char *module_name);

/* Converts a nested list of numbers (or a number) to a tensor, inferring dtype as torch.tensor does. */
Tensor *interp_to_tensor(Interp *I, Value *v, bool has_dtype, DType dt);
#endif

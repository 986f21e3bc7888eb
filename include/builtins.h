/* builtins.h - the one table of functions a student can call (prefix builtins_). Python's own (print, range,
 * len...), torch's (zeros, arange, softmax...), d2l's and the chapter's; tensor methods in a second table. The
 * language finds them by name through the Library record builtins_open hands it (library.h); `torch.`, `d2l.`,
 * `nn.`, `F.` and `math.` prefixes all reach the same table, and only Python's builtins and attn's own tools answer
 * to a bare name. */
#ifndef ATTN_BUILTINS_H
#define ATTN_BUILTINS_H
#include "value.h"
#include "library.h"

/* Opens the libraries into the language (lib_open, library.h): session_init calls it; once is enough. */
void builtins_open(void);
const Builtin *builtins_find(const char *name);          /* functions */
const Builtin *builtins_find_method(const char *name);   /* Tensor methods: X.reshape(...) */
/* Named constants and modules: torch.float32, math.pi, torch (the module) ... New reference or NULL. */
Value *builtins_constant(ValHeap *heap, const char *name);
bool builtins_is_module(const char *name);               /* a module name usable without an import (torch, nn, F ...) */
/* The module at a dotted path as an import names it ("torch.nn.functional", "d2l.torch"); NULL for an unknown one. */
Value *builtins_import(ValHeap *heap, const char *path);
/* Why `import path` fails: "attn has no module 'x' (it has torch, torch.nn, ...)", the modules it has, into out. */
void builtins_no_module(const char *path, char *out, size_t n);
/* module.name for a module value; new reference or NULL. */
Value *builtins_module_attr(ValHeap *heap, const char *module, const char *name);
/* After a statement: the last state of a live figure (a d2l.ProgressBoard that trained) drawn where figures go, if
 * it is not drawn yet (plot_live_flush). false when drawing failed (its message written as an error). */
struct Interp;
bool builtins_flush_live(struct Interp *I);
/* Calls add(ctx, name) for every name builtins_module_attr resolves in the module, once each: dir(module). */
void builtins_module_names(const char *module, void (*add)(void *ctx, const char *name), void *ctx);
/* Does b answer to its bare name (print, len, complexity), or only with its module (torch.zeros, d2l.X)? */
bool builtins_is_bare(const Builtin *b);
/* Is b a decorator (@property, @staticmethod, @classmethod): an entry of bi_decorators, not a function to list? */
bool builtins_is_decorator(const Builtin *b);
void builtins_home(const Builtin *b, char *out, size_t n);   /* "d2l" for d2l.MultiHeadAttention, "" for bare ones */
/* Why a name of PyTorch's that attn does not have is missing: module "torch", "torch.nn", "torch.nn.functional"
 * or "Tensor" (methods). "torch.int32 is not in attn: ... (use torch.int64)", "torch.fft is not in attn: type help
 * to see what is"; NULL for a name PyTorch does not have either (a typo). The message is a
 * constant or written into msg (cap bytes). */
const char *builtins_missing(const char *module, const char *name, char *msg, size_t cap);
/* Why a Python builtin attn leaves out on purpose (open, eval, input ...) is missing: what to use instead; NULL for
 * other names. */
const char *builtins_refused(const char *name);
/* type(v) for a value that is not an instance of a class statement: torch.Tensor, torch.Size, torch.dtype,
 * torch.return_types.max, int, float, ..., the class of one of attn's objects (list_iterator, SumBackward0) as a
 * class value (new reference); NULL for other kinds and for objects whose type is a builtin (nn.Linear). */
Value *builtins_value_class(const Value *v);
/* Is b a class in Python (int, map, type, nn.Linear, d2l.MultiHeadAttention ...: attn calls them as functions)?
 * Then *module (when module is not NULL) is Python's module of the class ("builtins", "torch.nn.modules.linear"):
 * it prints as <class 'int'>, <class 'torch.nn.modules.linear.Linear'>. */
bool builtins_type_module(const Builtin *b, const char **module);
/* type(v), a new reference: the student's class of an instance; the builtin itself for Python's types and attn's
 * constructors (so type(1) is int, type(nn.Linear(2, 3)) is nn.Linear); else a class value (torch.Tensor,
 * function, builtin_function_or_method, NoneType ...). */
Value *builtins_type_of(ValHeap *heap, const Value *v);
/* Every function name (sorted, for completion and help); count in *n. */
const Builtin *const *builtins_all(int *n);
const Builtin *const *builtins_all_methods(int *n);

/* Methods of str, list, dict and modules (ops.c looks them up for x.method). */
extern const Builtin bi_str_methods[], bi_list_methods[], bi_dict_methods[], bi_set_methods[], bi_module_methods[];
extern const Builtin bi_view_methods[];                  /* of keys and items views: isdisjoint */
/* Whether a method of bi_set_methods changes its set (add, pop, update ...: a frozenset has not got them) */
bool builtins_set_method_changes(const Builtin *m);
/* str.upper, set.union, dict.fromkeys ...: the method name of the Python type `type` (the builtins str, list, dict,
 * set, frozenset), to be called with the object first (set.add(s, 1)); NULL when there is none. */
const Builtin *builtins_type_method(const Builtin *type, const char *name);
/* Before a method of a Python type is called unbound (str.upper(x)): whether x is of that type; false with Python's
 * TypeError ("descriptor 'upper' for 'str' objects doesn't apply to a 'int' object"). True for other builtins. */
bool builtins_unbound_ok(struct Interp *I, const Builtin *m, const struct Args *a);
extern const Builtin bi_dict_fromkeys;                   /* dict.fromkeys(iterable, value=None) */
/* Other names tensor methods answer to (completion lists them). NULL-terminated. */
extern const char *const tensor_method_aliases[];

/* Tables contributed by each builtins file (NULL-name terminated). */
extern const Builtin bi_python[], bi_torch_create[], bi_torch_math[], bi_torch_shape[], bi_torch_shape_methods[], bi_torch_sort[], bi_torch_only[], bi_torch_more[], bi_torch_index[], bi_torch_products[], bi_torch_functional[], bi_tensor_methods[],
    bi_io[], bi_d2l[], bi_nn_module[], bi_nn_layers[], bi_nn_multihead[], bi_help_table[], bi_d2l_attention[], bi_nn_linear[], bi_d2l_positional[], bi_d2l_complexity[], bi_d2l_relative[], bi_d2l_after[], bi_d2l_learnable[], bi_plot_table[], bi_timeit_table[], bi_nn_losses[], bi_nn_init[], bi_torch_data[], bi_torch_optim[], bi_autograd[], bi_autograd_methods[];
extern const Builtin bi_math_module[];                   /* math.sqrt ...: only through the module math */
#endif

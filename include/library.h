/* library.h - how the builtin libraries open themselves into the language (prefix lib_), as Lua's linit.c: the
 * language names no library. At start-up the libraries (python, torch, nn, F, d2l, math, attn: src/builtins,
 * builtins_open) hand lib_open one Library record: the hooks through which the evaluator finds a bare name, a
 * module's attribute, a tensor's method and a value's type, and the method tables of Python's own types. Nothing
 * here is called before lib_open (session_init opens them; a program that runs the interpreter without a session
 * calls builtins_open first).
 *
 * One record for the process: which libraries are linked into the program is a fact of the program, not of a run,
 * and val_type_name (which needs no interpreter: a type's name runs no student code) needs it. The record itself is const. */
#ifndef ATTN_LIBRARY_H
#define ATTN_LIBRARY_H
#include "value.h"

typedef struct Library {
    /* names */
    const Builtin *(*find)(const char *name);                  /* a function by name (bare or not), NULL if none */
    const Builtin *(*find_method)(const char *name);           /* a Tensor method: X.reshape(...), NULL if none */
    const Builtin *const *(*all)(int *n);                      /* every function, sorted by name (suggestions) */
    const Builtin *const *(*all_methods)(int *n);              /* every Tensor method, sorted by name */
    const char *const *tensor_method_aliases;                  /* other names Tensor methods answer to (NULL-ended) */
    /* Does b answer to its bare name (print, len, complexity), or only with its module (torch.zeros, d2l.X)? */
    bool (*is_bare)(const Builtin *b);
    void (*home)(const Builtin *b, char *out, size_t n);       /* "d2l" for d2l.MultiHeadAttention, "" for bare ones */
    /* modules (what they make, they make in heap: the asking interpreter's) */
    /* A named constant (float32, pi: what torch.float32 and math.pi name) or a module usable without an import
     * (torch, nn, F): new reference or NULL. */
    Value *(*constant)(ValHeap *heap, const char *name);
    Value *(*import)(ValHeap *heap, const char *path);         /* the module an import names ("torch.nn"), or NULL */
    void (*no_module)(const char *path, char *out, size_t n);  /* why importing path fails: what there is instead */
    Value *(*module_attr)(ValHeap *heap, const char *module, const char *name);   /* module.name: new reference or NULL */
    /* Calls add(ctx, name) once for every name module_attr resolves in the module: dir(module). */
    void (*module_names)(const char *module, void (*add)(void *ctx, const char *name), void *ctx);
    /* Why PyTorch's module.name is not in attn (module "torch", "torch.nn", "torch.nn.functional", "Tensor"), or
     * NULL for a name PyTorch has not either. The text is a constant or written into msg (cap bytes). */
    const char *(*missing)(const char *module, const char *name, char *msg, size_t cap);
    /* Why a Python builtin attn leaves out on purpose (open, eval ...) is missing: what to use instead, or NULL. */
    const char *(*refused)(const char *name);
    /* calls */
    /* Before every call of a builtin or a builtin method: the arguments all the libraries refuse alike (device= not
     * the CPU, requires_grad=True, .cuda()); false with the error set. */
    bool (*before_call)(struct Interp *I, struct Args *a);
    /* After it, with its result r (owned; NULL when it failed) and self for a method (else NULL): r, or NULL with the
     * error set (r released): requires_grad=True applied to a new tensor, and an operation with no gradient refused
     * when an input requires grad under grad mode. */
    Value *(*after_call)(struct Interp *I, struct Args *a, Value *self, Value *r);
    /* Does PyTorch refuse a call of b (a torch or F function, or a Tensor method when method) with nargs arguments
     * (positional and keyword; a method's after its tensor) that fits none of its forms as "received an invalid
     * combination of arguments" (it declares b several ways, and no form or several take that many)? */
    bool (*overloaded)(const Builtin *b, bool method, int nargs);
    /* A tensor's autograd attributes (requires_grad, grad, grad_fn, is_leaf): a new reference, or NULL without an
     * error when name is none of them; and their assignment: 0, -1 with the error set, 1 when name is none. */
    Value *(*tensor_attr)(struct Interp *I, Value *x, const char *name);
    int (*tensor_setattr)(struct Interp *I, Value *x, const char *name, Value *v);
    /* types */
    Value *(*value_class)(const Value *v);                     /* torch.Tensor, int ...: new reference or NULL */
    /* Is b a class in Python (int, nn.Linear)? Then *module (if module is not NULL) is its Python module. */
    bool (*type_module)(const Builtin *b, const char **module);
    /* Is b one of Python's own functions or types (print, len, range, isinstance: the python table and the language's
     * own)? Then its argument errors are CPython's C words (argspec.c). */
    bool (*python_own)(const Builtin *b);
    Value *(*type_of)(ValHeap *heap, const Value *v);          /* type(v): new reference */
    /* Methods of Python's types (str.upper, set.union, dict.fromkeys): type's method name, or NULL. */
    const Builtin *(*type_method)(const Builtin *type, const char *name);
    /* How attn's method fn bound to self prints: true with the qualified name of the Python function PyTorch has for
     * it written to out ("Tensor.backward", "Module.parameters": <bound method Q of self>), false with nothing
     * written for one PyTorch writes in C (x.sum, [].append: <built-in method sum of Tensor object at 0x...>). */
    bool (*method_qualname)(StrBuf *out, const Value *self, const Builtin *fn);
    /* A method of one of attn's types read through the type (a V_CLASS: torch.Tensor; a V_BUILTIN: str, nn.Linear,
     * torch.optim.SGD), NULL when it has none named name. Writes Python's __qualname__ to qualname ("Module.forward",
     * "_TensorBase.sum") and sets *c_owner, for a method written in C, to the type its descriptor names
     * ("torch._C._TensorBase", "str"; a static string), else to NULL. */
    const Builtin *(*unbound_method)(const Value *type, const char *name, StrBuf *qualname, const char **c_owner);
    /* Is b a function PyTorch writes in Python (F.softmax, torch.autograd.grad, nn.init.zeros_: it prints as
     * <function softmax at 0x...>, its type is function)? Then its __qualname__ is written to out (NULL: not wanted). */
    bool (*function_qualname)(StrBuf *out, const Builtin *b);
    /* Before an unbound method of a Python type runs (str.upper(x)): is x of that type? False with TypeError set. */
    bool (*unbound_ok)(struct Interp *I, const Builtin *m, const struct Args *a);
    bool (*set_method_changes)(const Builtin *m);              /* set.add, set.pop ...: a frozenset has not got them */
    /* methods of str, list, dict, set and nn.Module objects (NULL-name terminated), and dict.fromkeys */
    const Builtin *str_methods, *list_methods, *dict_methods, *set_methods, *view_methods, *module_methods;
    const Builtin *dict_fromkeys;
    /* the library's own data, built when it opened (registry.c: its sorted name tables), or NULL */
    const struct LibData *data;
} Library;

/* Opens lib into the language; the first call wins (the record is kept, not copied: it must live as long as the
 * program). */
void lib_open(const Library *lib);
/* The opened libraries; aborts with a message when none were opened (a program that forgot builtins_open). */
const Library *lib(void);
/* The opened libraries, or NULL when none are open yet. */
const Library *lib_opened(void);

/* The language's own builtins (classes.c: super, isinstance, getattr, property ...), which the python library lists
 * among its functions. NULL-name terminated. */
extern const Builtin bi_classes[];
/* The decorators among them (property, staticmethod, classmethod): declared by being in this table, which the
 * registry asks (builtins_is_decorator), never by their signature's text. NULL-name terminated. */
extern const Builtin bi_decorators[];
/* property's methods (getter, setter): Python's own, so their argument errors are CPython's. NULL-name terminated. */
extern const Builtin bi_property_methods[];
#endif

/* value.h - values of attn's language (prefix val_): Python numbers, strings, tuples, lists, dicts, tensors,
 * torch.Size, dtypes, functions and objects such as d2l.MultiHeadAttention. Reference counted: every function
 * that returns a Value* returns a new reference; val_decref releases one. */
#ifndef ATTN_VALUE_H
#define ATTN_VALUE_H
#include "tensor.h"
#include "strbuf.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum {
    V_NONE, V_BOOL, V_INT, V_FLOAT, V_STR, V_TUPLE, V_LIST, V_DICT, V_TENSOR, V_DTYPE, V_RANGE, V_SLICE,
    V_ELLIPSIS, V_BUILTIN, V_METHOD, V_FUNC, V_OBJECT, V_MODULE
} VKind;

struct Value;
struct Interp;
struct Args;
struct Node;

typedef struct Value *(*BuiltinFn)(struct Interp *I, struct Args *a);

/* A function of the chapter or of Python/PyTorch, registered in one table (builtins.c). */
typedef struct Builtin {
    const char *name;
    BuiltinFn fn;
    const char *signature;   /* "masked_softmax(X, valid_lens)" */
    const char *help;        /* one paragraph for students */
    const char *section;     /* "§11.3" or "" */
    int tag;                 /* selects the operation when one C function serves a family (sin, cos, ...) */
} Builtin;

/* Class of a built-in object (Linear, MultiHeadAttention, PositionalEncoding ...). */
typedef struct ObjClass {
    const char *name;
    struct Value *(*call)(struct Interp *I, struct Value *self, struct Args *a);   /* NULL: not callable */
    void (*repr)(StrBuf *out, struct Value *self, int indent);                     /* NULL: generic */
    const Builtin *methods;                                                          /* NULL-terminated */
} ObjClass;

typedef struct Dict {
    struct Value **keys;     /* V_STR keys for attributes; any hashable-by-equality value for dicts */
    struct Value **vals;
    int n, cap;
} Dict;

typedef struct UserFunc {
    char *name;
    struct Node *def;        /* N_DEF or N_LAMBDA (owned: a copy of the tree is kept by the interpreter) */
    struct Value **defaults; /* one per parameter, NULL when none */
    int nparams;
} UserFunc;

typedef struct Value {
    VKind kind;
    int refs;
    union {
        bool b;
        int64_t i;
        double f;
        struct { char *s; size_t len; } str;
        struct { struct Value **items; int64_t n, cap; bool is_size; } seq;     /* V_TUPLE (is_size: torch.Size), V_LIST */
        Dict *dict;
        Tensor *t;
        DType dtype;
        struct { int64_t start, stop, step; } range;
        struct { struct Value *start, *stop, *step; } slice;
        const Builtin *builtin;
        struct { struct Value *self; const Builtin *fn; } method;
        UserFunc *func;
        struct { const ObjClass *cls; Dict attrs; } obj;
        const char *module;
    } u;
} Value;

Value *val_incref(Value *v);
void val_decref(Value *v);

Value *val_none(void);
Value *val_bool(bool b);
Value *val_int(int64_t i);
Value *val_float(double f);
Value *val_str(const char *s);
Value *val_strn(const char *s, size_t n);
Value *val_str_take(char *s);                  /* takes ownership of a malloc'ed string */
Value *val_tuple(int64_t n);                   /* n items, all None until set with val_seq_set */
Value *val_list(int64_t n);
Value *val_size(const int64_t *shape, int ndim);   /* torch.Size */
Value *val_dict(void);
Value *val_tensor(Tensor *t);                  /* takes ownership of t; NULL t gives NULL */
Value *val_dtype(DType d);
Value *val_range(int64_t start, int64_t stop, int64_t step);
Value *val_builtin(const Builtin *b);
Value *val_method(Value *self, const Builtin *fn);
Value *val_object(const ObjClass *cls);
Value *val_module(const char *name);
extern Value val_ellipsis_singleton;

void val_seq_set(Value *seq, int64_t i, Value *item);   /* steals item */
void val_list_append(Value *list, Value *item);         /* steals item */

/* Attribute dictionaries of objects (keys are names). */
Value *val_attr_get(Value *obj, const char *name);      /* borrowed, NULL when absent */
void val_attr_set(Value *obj, const char *name, Value *v);   /* steals v */
void dict_free(Dict *d);
Value *dict_get(Dict *d, const char *key);              /* borrowed */
void dict_set(Dict *d, const char *key, Value *v);      /* steals v */
void dict_append(Dict *d, Value *key, Value *v);        /* a key known to be new; steals both */
bool dict_del(Dict *d, const char *key);

const char *val_type_name(const Value *v);               /* Python's name: 'int', 'Tensor', 'list' ... */
bool val_is_number(const Value *v);                      /* bool, int or float */
double val_as_double(const Value *v);                    /* for numbers */
bool val_truthy(const Value *v, bool *ok);               /* ok=false for an ambiguous tensor */

/* repr() and str() of any value. Tensors print with the print options of the running session
 * (val_print_options, defined by the session module: torch.set_printoptions changes them). */
const PrintOptions *val_print_options(void);
void val_repr(StrBuf *out, const Value *v);
void val_str_of(StrBuf *out, const Value *v);
/* Python's repr of a float: shortest text that reads back the same (0.1, 1e-06, 1e+16, inf, nan). */
void val_float_repr(StrBuf *out, double f);
bool val_equal(const Value *a, const Value *b);          /* Python ==, for non-tensors */
#endif

/* value.h - values of attn's language (prefix val_): Python numbers, strings, tuples, lists, dicts, tensors,
 * torch.Size, dtypes, functions, classes (the student's and attn's nn.Module/d2l.Module) and objects: built-in
 * ones such as d2l.MultiHeadAttention and instances of the student's classes. Reference counted: every function
 * that returns a Value* returns a new reference; val_decref releases one. */
#ifndef ATTN_VALUE_H
#define ATTN_VALUE_H
#include "tensor.h"
#include "strbuf.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum {
    V_NONE, V_BOOL, V_INT, V_FLOAT, V_STR, V_TUPLE, V_LIST, V_DICT, V_TENSOR, V_DTYPE, V_RANGE, V_SLICE,
    V_ELLIPSIS, V_BUILTIN, V_METHOD, V_FUNC, V_OBJECT, V_MODULE, V_CLASS, V_SET, V_DICTVIEW
} VKind;

/* Which view of its dict a V_DICTVIEW is: d.keys(), d.values() or d.items(). */
typedef enum { VIEW_KEYS, VIEW_VALUES, VIEW_ITEMS } DictView;

struct Value;
struct ValHeap;
struct Interp;
struct Args;
struct Node;
struct AgMeta;

typedef struct Value *(*BuiltinFn)(struct Interp *I, struct Args *a);

/* A function of the chapter or of Python/PyTorch, registered in one table (builtins.c). */
typedef struct Builtin {
    const char *name;
    BuiltinFn fn;
    const char *signature;   /* "masked_softmax(X, valid_lens)" */
    const char *help;        /* one paragraph for students */
    const char *section;     /* "§11.3" or "" */
    int tag;                 /* selects the operation when one C function serves a family (sin, cos, ...) */
    /* The module the name lives in, as the signature spells it: "torch" (torch.zeros), "nn", "F", "nn.init", "d2l",
     * "attn"; "" for a name that answers bare (print, complexity); for a method, its receiver as the signature names
     * it ("X" for X.reshape). Declared with the entry, never
     * parsed out of the signature (test_lang test_builtin_modules checks the signature starts with module.name). */
    const char *module;
} Builtin;

/* Class of a built-in object (Linear, MultiHeadAttention, PositionalEncoding, torch.device ...) and the one
 * ObjClass shared by instances of the student's classes (classes.c), whose behaviour comes from their V_CLASS. */
typedef struct ObjClass {
    const char *name;
    struct Value *(*call)(struct Interp *I, struct Value *self, struct Args *a);   /* NULL: not callable */
    /* repr(self) (NULL: PyTorch's module repr for modules, else Name()): its parts through val_repr_part, so that a
     * student's __repr__ that raises inside stops it (in val_repr) or shows as a placeholder (val_repr_quiet) */
    void (*repr)(struct Interp *I, StrBuf *out, struct Value *self, int depth);
    const Builtin *methods;                                        /* NULL-terminated */
    bool is_module;          /* an nn.Module: its module attributes are children (repr, eval/train, parameters) */
    void (*extra_repr)(StrBuf *out, struct Value *self);           /* modules: the text in Name(...), as PyTorch's */
    void (*str)(struct Interp *I, StrBuf *out, struct Value *self);   /* str() when it differs from repr() (as repr) */
    /* attribute access when it is not "the object's attributes, then its methods" (NULL: that); new reference */
    struct Value *(*getattr)(struct Interp *I, struct Value *self, const char *name);
    int (*setattr)(struct Interp *I, struct Value *self, const char *name, struct Value *v);   /* 0 or -1 */
    /* a container (nn.Sequential, nn.ModuleList); NULL: not one. self[index] (new reference or NULL with the error
     * set), len(self), and iter(self) (a new iterator, as ops_iter returns) */
    struct Value *(*getitem)(struct Interp *I, struct Value *self, struct Value *index);
    int64_t (*len)(struct Value *self);
    struct Value *(*iter)(struct Interp *I, struct Value *self);
    void (*free_priv)(void *priv);   /* releases an object's C state (u.obj.priv) when it is freed; NULL: none */
    /* the value self compares as with == and != (mappingproxy: its dict; borrowed); NULL: by identity or str */
    struct Value *(*eq_as)(struct Value *self);
    /* the class an instance is also an instance of, as PyTorch's base (TensorDataset: Dataset); new reference; NULL:
     * none */
    struct Value *(*base)(void);
    /* the class type(self) is when the name above does not say it (a grad_fn: SumBackward0, AccumulateGrad, one
     * class per kind of node, as PyTorch's); a new reference; NULL: the class of that name */
    struct Value *(*type)(struct Value *self);
} ObjClass;

/* Keys and values in insertion order (Python's). Read keys/vals/hashes/n freely; change the keys only through
 * dict_set, dict_append, dict_del, dict_del_at and dict_free, which keep the index and bump version. Each key's hash
 * (Python's, pyset_hash) is stored with it, as CPython's entries hold theirs: a student's __hash__ runs once, when
 * its key is inserted, never when the dict grows or other keys are looked up; a lookup compares only keys of the
 * same hash. From DICT_INDEX_MIN entries on, an open-addressing index by those hashes finds a key in constant time. */
#define DICT_INDEX_MIN 8
typedef struct Dict {
    struct Value **keys;     /* V_STR keys for attributes; any hashable value for dicts */
    struct Value **vals;
    int64_t *hashes;         /* hashes[i] is keys[i]'s hash, computed when it was inserted */
    int n, cap;
    bool ordered;            /* a collections.OrderedDict (a module's state_dict()): printed as PyTorch prints it */
    bool default_dict;       /* a collections.defaultdict: d[k] of a missing k inserts and returns factory() (an
                              * optimizer's state, factory NULL: a new {}); printed as defaultdict(<class 'dict'>, {...}) */
    struct Value *factory;   /* owned: a defaultdict's default_factory (None: missing keys raise KeyError); NULL: dict */
    uint32_t version;        /* changes with every insertion, removal or value replaced (views follow it) */
    int32_t index_cap;       /* a power of two, at least twice the entries (beside version: no padding) */
    int32_t *index;          /* NULL below DICT_INDEX_MIN entries; else index_cap slots: 1 + a key's place */
    struct ValHeap *heap;    /* the heap its tables are counted in and its string keys made in (set where it is made:
                              * val_dict, val_object, a class's or a function's, an interpreter's globals; NULL in an
                              * immortal value: dict_set makes keys in the value's heap); kept by dict_free */
} Dict;

/* A tuple type with named fields, as PyTorch's torch.return_types.max (values, indices): a V_TUPLE whose
 * seq.named points at one of these; it indexes, unpacks and compares as a tuple, and X.values works. */
typedef struct NamedTuple {
    const char *name;                /* "torch.return_types.max": its repr and type name */
    const char *const *fields;       /* {"values", "indices", NULL} */
    int nfields;
} NamedTuple;

/* A def or lambda. It keeps the source lines it was written in, so an error inside it can show its own line. */
typedef struct UserFunc {
    char *name;
    struct Node *def;        /* N_DEF or N_LAMBDA (owned: a copy of the tree is kept by the interpreter) */
    struct Value **defaults; /* one per parameter, NULL when none */
    int nparams;
    char *src;               /* the lines of the definition (owned), for error carets */
    int src_first_line;      /* the line number of src's first line */
    int chunk_first_line;    /* the first line of the statement that defined it (prompt line numbers count from it) */
    char *src_name;          /* the file it was defined in, NULL at the prompt (owned) */
    struct Value *closure;   /* a tuple of the enclosing functions' variable dicts, innermost first; NULL at top level */
    Dict attrs;              /* f.x = 1: the function's own attributes (Python's f.__dict__), empty until set */
} UserFunc;

/* A class: the student's (class statement) or one of attn's (object, nn.Module, d2l.Module). */
typedef struct ClassInfo {
    char *name;
    struct Value **bases;    /* V_CLASS values, owned; none for object */
    int nbases;
    struct Value **mro;      /* the method resolution order (C3), this class first; borrowed (bases keep them) */
    int nmro;
    Dict attrs;              /* the class namespace in definition order: methods, class attributes, __doc__ */
    const Builtin *methods;  /* attn's classes: their methods, written in C (NULL-terminated); NULL for the student's */
    const Builtin *make;     /* a class of attn's values whose call makes one (torch.Size(iterable)); else NULL */
    bool is_module;          /* derives from nn.Module: instances are modules */
    const char *module_name; /* "__main__" for the student's classes; "torch.nn" / "d2l" for attn's */
    bool user;               /* made by a class statement: its methods are Python code, run on the caller's interpreter */
    bool open;               /* one of attn's classes the student may add to, as d2l's own classes take
                              * @d2l.add_to_class(d2l.Trainer) (d2l.Module, d2l.Trainer ...): what an interpreter
                              * adds is its own (Interp.added, read before attrs), attrs stays empty */
    bool immutable;          /* a class Python makes in C (int, torch.Size, ValueError, object): cls.x = v raises
                              * Python's TypeError; attn's other built-in classes (torch.Tensor, nn.Module), which
                              * Python would let a program change, attn refuses with its own words */
    bool no_new;             /* a C type Python cannot call (SumBackward0, list_iterator, torch.dtype): calling it
                              * raises Python's TypeError "cannot create 'X' instances" */
} ClassInfo;

/* A Python set: CPython 3.11's open-addressing table (Objects/setobject.c), with its probing, resizing and
 * dummies, so that a set of ints iterates and prints in CPython's order. Slots in table order are the iteration
 * order; key NULL is a slot never used, key == set.c's dummy one whose key was removed (its hash is -1). Change it
 * only through pyset.h. */
typedef struct SetEntry { struct Value *key; int64_t hash; } SetEntry;
typedef struct PySet {
    SetEntry *table;         /* mask + 1 slots, a power of two, at least 8 */
    int64_t mask, fill, used;   /* fill: used + dummies */
    int64_t finger;          /* where set.pop() looks next */
    bool frozen;             /* a frozenset: never changed after it is made, hashable */
    struct ValHeap *heap;    /* the heap its table is counted in (its value's) */
} PySet;

typedef struct Value {
    VKind kind;
    int refs;                /* not counted for an immortal value (heap NULL): None, Ellipsis, NotImplemented */
    struct ValHeap *heap;    /* the heap it was made in, which it goes back to (val_decref); NULL: immortal */
    struct AgMeta *ag;       /* V_TENSOR: its autograd state (autograd.h; owned), NULL: none (no grad, no history) */
    uint32_t gc_slot;        /* containers: 1 + its index among the values the cycle collector tracks; 0 otherwise */
    bool param;              /* V_TENSOR: an nn.Parameter (a module's weight or bias): prints as PyTorch prints one */
    /* (in this order, with Dict's version and index_cap side by side, a Value is as large as before it carried its
     * heap: 128 bytes on x86_64) */
    union {
        bool b;
        int64_t i;
        double f;
        /* UTF-8 text: len bytes, chars code points (Python's len; chars == len for ASCII); hint_i/hint_off remember
         * where the last character looked up starts, so walking a string is linear */
        struct { char *s; size_t len; int64_t chars, hint_i; size_t hint_off; } str;
        /* V_TUPLE (is_size: torch.Size; named: a named tuple) and V_LIST */
        struct { struct Value **items; int64_t n, cap; bool is_size; const NamedTuple *named; } seq;
        /* V_DICTVIEW: which view of the V_DICT dict (owned; NULL only while the cycle collector frees it) */
        struct { struct Value *dict; DictView which; } view;
        Dict *dict;
        PySet *set;
        /* V_TENSOR: the tensor t, and grad_value, the value x.grad gave last (owned; NULL: none yet): given again
         * while it still shows x's .grad, so that x.grad is x.grad, as in PyTorch */
        struct { Tensor *t; struct Value *grad_value; };
        DType dtype;
        struct { int64_t start, stop, step; } range;
        struct { struct Value *start, *stop, *step; } slice;
        const Builtin *builtin;
        /* a bound method: a builtin (fn) or a user function (func, found in class klass, for super()) */
        struct { struct Value *self; const Builtin *fn; struct Value *func, *klass; } method;
        UserFunc *func;
        /* klass: the V_CLASS of an instance of a student's class (owned), NULL for attn's built-in objects */
        /* priv: C state of one of attn's objects (a grad_fn's node), released by cls->free_priv; holds no values */
        struct { const ObjClass *cls; Dict attrs; struct Value *klass; void *priv; } obj;
        const char *module;
        ClassInfo *cls;
    } u;
} Value;

/* The values of one interpreter (as Lua's global_State): its pool of freed Value structs, the cycle collector's set
 * of live containers, the queue of values being freed and the bytes its values hold (the memory limit's share of
 * values). Each value points at its heap and goes back to it when freed, from whichever interpreter's code lets go
 * of it; a value made in one session may live in another (a lesson's result kept at the REPL). Fields are
 * value.c's. */
typedef struct ValHeap {
    struct Value *pool;       /* freed structs waiting for the next val_new, linked through u.seq.items */
    int npool;
    struct Value **tracked;   /* every container alive: the cycle collector's set (gc_slot is 1 + the index) */
    uint32_t ntracked, captracked;
    int64_t since_collect;    /* containers made since the last collection */
    struct Value **pending;   /* values whose last reference went, waiting to be released */
    size_t npending, cappending;
    bool draining;
    int64_t bytes;            /* val_live_bytes */
    int64_t refs;             /* its owner (until val_heap_free) and each live value: freed at 0 */
    bool closed;              /* the owner let go: no pool kept */
} ValHeap;
/* A new heap; its owner (the interpreter, interp_init) lets go with val_heap_free. */
ValHeap *val_heap_new(void);
/* The owner lets go: the pool is freed now, the heap itself when its last value goes (at once when none is left).
 * Collect its cycles first (val_collect_cycles). NULL is ignored. */
void val_heap_free(ValHeap *h);
/* The heap v was made in; NULL for an immortal value. */
static inline ValHeap *val_heap_of(const struct Value *v) { return v ? v->heap : NULL; }

/* New reference; an immortal value (None, Ellipsis, NotImplemented, a value on the C stack) is never written. */
Value *val_incref(Value *v);
/* Releases one reference; the last one frees the value into its heap and releases what it holds, without
 * recursion (a list of a million nested lists is freed in constant stack). */
void val_decref(Value *v);
/* A new value of kind k with one reference, every field zero, made in heap h: the one constructor, so containers
 * are tracked. h NULL makes an immortal value (never counted, freed or collected): a class of attn's made once for
 * the program (object, nn.Module, the exception classes); what it holds stays until the program ends. Every constructor takes the heap first (builtins pass I->run.heap; code that holds a value and no
 * interpreter passes that value's, val_heap_of). */
Value *val_new(ValHeap *h, VKind k);
/* Bytes held by h's live values (their structs, string contents, list item arrays, dict and set tables), as malloc
 * holds them (its rounding and header included): with the tensor context's live bytes, what the memory limit bounds. */
int64_t val_live_bytes(const ValHeap *h);
/* What a malloc'ed block of n bytes takes from the heap; val_account_bytes adds (or, negative, takes back) bytes
 * held by a value's own tables (set.c's, or a kind added later) to h (NULL: none), which must be taken back when
 * they are freed. */
int64_t val_heap_bytes(size_t n);
void val_account_bytes(ValHeap *h, int64_t delta);
/* Values that hold references to values (lists, dicts, objects, functions...): what each one holds is listed by
 * val_children, the one place the cycle collector and freeing learn it. A new container kind goes there. */
void val_children(Value *v, void (*visit)(Value *child, void *ctx), void *ctx);
/* Frees every group of h's containers that only reference each other (l.append(l), a nested def that refers to
 * itself): CPython's algorithm, over h's set alone (a reference from another heap's value keeps a container alive).
 * Safe whenever every live value is referenced from a counted reference (between statements). Returns how many
 * values were freed. */
int64_t val_collect_cycles(ValHeap *h);
/* h's containers created since its last collection (the session collects when this grows large). */
int64_t val_containers_since_collect(const ValHeap *h);

Value *val_none(void);
Value *val_bool(ValHeap *h, bool b);
Value *val_int(ValHeap *h, int64_t i);
Value *val_float(ValHeap *h, double f);
Value *val_str(ValHeap *h, const char *s);
Value *val_strn(ValHeap *h, const char *s, size_t n);
Value *val_str_take(ValHeap *h, char *s);                  /* takes ownership of a malloc'ed string */
Value *val_str_take_n(ValHeap *h, char *s, size_t n);      /* the same, n bytes long */
Value *val_str_take_chars(ValHeap *h, char *s, size_t n, int64_t chars);   /* the same, its code points already counted */
/* Code points in n bytes of UTF-8 (a byte that does not start a valid sequence counts as one, as tw_decode reads
 * it): Python's len() of that text. */
int64_t val_utf8_count(const char *s, size_t n);
/* Where code point i (0 ... chars) of a string starts, in bytes; and code point i as a new string (Python's s[i]). */
size_t val_str_offset(const Value *str, int64_t i);
Value *val_str_char(const Value *str, int64_t i);
Value *val_tuple(ValHeap *h, int64_t n);                   /* n items, all None until set with val_seq_set */
Value *val_list(ValHeap *h, int64_t n);
/* A list or tuple (k) of n items, all None, or NULL when the machine refuses the memory (mem_exhausted is set):
 * for a size the program chose (a repetition, a concatenation). */
Value *val_seq_try(ValHeap *h, VKind k, int64_t n);
Value *val_size(ValHeap *h, const int64_t *shape, int ndim);   /* torch.Size */
Value *val_named_tuple(ValHeap *h, const NamedTuple *type);    /* type->nfields items, all None until set with val_seq_set */
Value *val_named_field(const Value *v, const char *name);   /* borrowed; NULL when v has no such field */
/* d.keys(), d.values(), d.items(): live views of the dict d, as Python's (a dict changed afterwards shows through
 * them), of their own kind V_DICTVIEW: no list operations (indexing, +, item assignment are Python's TypeError).
 * len, in, ==, iteration (Python's RuntimeError when the dict's size changes meanwhile), reversed() and printing
 * (dict_keys([1, 2])) read the dict itself; keys and items views combine with sets (| & - ^ == < <= > >= and
 * isdisjoint) as Python's do; a values view equals only itself. */
Value *val_view_new(Value *dict, DictView which);         /* a view of the V_DICT dict (held) */
int64_t val_view_len(const Value *view);                   /* len(view): the dict's length now */
Value *val_view_item(const Value *view, int64_t i);        /* the i-th key, value or (key, value) now (new ref) */
bool val_is_set_like(const Value *v);                    /* a set, frozenset, or keys/items view */
Value *val_dict(ValHeap *h);
Value *val_tensor(ValHeap *h, Tensor *t);                  /* takes ownership of t; NULL t gives NULL */
/* The same with its autograd state m (owned too, may be NULL); NULL t gives NULL and releases m. */
Value *val_tensor_ag(ValHeap *h, Tensor *t, struct AgMeta *m);
/* Does v (any value) hold a tensor that requires grad: a tensor, or a list/tuple of them (torch.cat's argument)? */
bool val_requires_grad(const Value *v);
Value *val_dtype(ValHeap *h, DType d);
Value *val_range(ValHeap *h, int64_t start, int64_t stop, int64_t step);
Value *val_builtin(ValHeap *h, const Builtin *b);
Value *val_method(ValHeap *h, Value *self, const Builtin *fn);
Value *val_bound(ValHeap *h, Value *self, Value *func, Value *klass);   /* a user function bound to self (klass may be NULL) */
Value *val_object(ValHeap *h, const ObjClass *cls);
Value *val_module(ValHeap *h, const char *name);            /* name is kept, not copied: a string that lives forever */
/* The immortal singletons (as CPython 3.12's): const, never written (val_incref and val_decref skip them); compare
 * with ==. val_none, val_ellipsis and val_notimplemented give a reference (nothing to release, val_decref is free). */
extern const Value val_ellipsis_singleton;
extern const Value val_not_implemented;        /* NotImplemented */
Value *val_ellipsis(void);
Value *val_notimplemented(void);

void val_seq_set(Value *seq, int64_t i, Value *item);   /* steals item */
void val_list_append(Value *list, Value *item);         /* steals item */

/* Attribute dictionaries of objects (keys are names). */
Value *val_attr_get(Value *obj, const char *name);      /* borrowed, NULL when absent */
void val_attr_set(Value *obj, const char *name, Value *v);   /* steals v */
void dict_free(Dict *d);
Value *dict_get(Dict *d, const char *key);              /* borrowed */
/* The place of key in d, key's hash known (compared as Python's ==: keys of that hash by val_eq(I, ...), I may be
 * NULL), or -1: absent, or a comparison failed (the error set: callers check interp_failed; ops_dict_find wraps it
 * with a status). */
int dict_find_hashed(struct Interp *I, const Dict *d, const struct Value *key, int64_t hash);
void dict_set(Dict *d, const char *key, Value *v);      /* steals v */
void dict_append(Dict *d, Value *key, Value *v);        /* a key known to be new, hashed here; steals both */
void dict_append_hashed(Dict *d, Value *key, Value *v, int64_t hash);   /* the same, with key's hash known */
bool dict_del(Dict *d, const char *key);
void dict_del_at(Dict *d, int i);                        /* removes the i-th entry (a place from ops_dict_find) */

const char *val_type_name(const Value *v);               /* Python's name: 'int', 'Tensor', 'list' ... */
bool val_is_module(const Value *v);                      /* an nn.Module object: built in or the student's */
bool val_is_number(const Value *v);                      /* bool, int or float */
double val_as_double(const Value *v);                    /* for numbers */
bool val_truthy(const Value *v, bool *ok);               /* ok=false for an ambiguous tensor */
/* The number of values in a range (exact: a range may hold more than 2**63 values), and its i-th value. */
uint64_t val_range_count(const Value *r);
int64_t val_range_at(const Value *r, uint64_t i);

/* repr() and str() of any value. Tensors print with the interpreter's print options (I->run.print:
 * torch.set_printoptions changes them), PyTorch's defaults when I is NULL. */
/* Python's repr(v), str(v) and ascii(v) (ascii: repr with every non-ASCII character escaped as Python escapes it,
 * \\xe9, \\u65e5, \\U0001f600), for print, str(), repr(), f-strings, format, % and the prompt's echo: true, or false
 * when a student's __repr__ or __str__ (run on I) raised or returned a non-string (Python's TypeError), its error set
 * on I, as Python raises it (out then holds part of the text). I NULL: no student code runs (an instance of a
 * student's class prints as object.__repr__ prints it). Values nested deeper than VAL_REPR_MAX_DEPTH raise Python's
 * RecursionError (as CPython's recursion limit). */
#define VAL_REPR_MAX_DEPTH 1000
bool val_repr(struct Interp *I, StrBuf *out, const Value *v);
bool val_str_of(struct Interp *I, StrBuf *out, const Value *v);
bool val_ascii(struct Interp *I, StrBuf *out, const Value *v);
/* The same for attn's own text about a value (an error message, help, a lesson's feedback): a student's
 * __repr__/__str__ that fails shows as a placeholder ("<A object: its __repr__ failed: ...>") and its error is dropped
 * (Python's KeyError shows its key only when it is printed). */
void val_repr_quiet(struct Interp *I, StrBuf *out, const Value *v);
void val_str_quiet(struct Interp *I, StrBuf *out, const Value *v);
/* For an ObjClass's repr and str hooks printing their parts: v's repr (depth: the nesting of the value being printed;
 * deep or circular values stop at a limit) or str in the mode of the repr under way; false when it stopped (the
 * hook returns then, printing nothing more). */
bool val_repr_part(struct Interp *I, StrBuf *out, const Value *v, int depth);
bool val_str_part(struct Interp *I, StrBuf *out, const Value *v);
/* PyTorch's module repr of v with extra (the text of extra_repr, may be NULL) and v's submodules as children;
 * depth is the nesting of the value being printed (deep or circular values stop at a limit). */
void val_module_repr(struct Interp *I, StrBuf *out, const Value *v, const char *extra, int depth);
/* Python's repr of a float: shortest text that reads back the same (0.1, 1e-06, 1e+16, inf, nan). */
void val_float_repr(StrBuf *out, double f);
/* Python's a == b, for non-tensors: true with *eq, or false with the error set on I, as Python raises it: a
 * student's __eq__ that raised (it runs on I), values nested too deep to compare (RecursionError), Ctrl-C, or a dict
 * that changes size while its view is compared (RuntimeError). Without I no student code runs (instances of a
 * student's class compare by identity) and those three count as unequal. */
bool val_eq(struct Interp *I, const Value *a, const Value *b, bool *eq);
#endif

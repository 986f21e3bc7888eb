/* registry.c - one sorted table of every builtin, the Tensor method table, and named constants. */
#include "builtins_internal.h"
#include "ops.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Entry { const Builtin *b; int order; } Entry;

static int by_name(const void *a, const void *b) {
    const Entry *x = a, *y = b;
    int c = strcmp(x->b->name, y->b->name);
    return c ? c : x->order - y->order;
}

/* All entries sorted by name; where two tables define a name, the one registered first wins (Python's max before
 * torch's: it hands tensors on to torch's). */
static void collect(const Builtin *const *tables, int ntables, const Builtin ***out, int *n) {
    int cap = 0;
    for (int t = 0; t < ntables; t++) for (const Builtin *b = tables[t]; b->name; b++) cap++;
    Entry *all = xcalloc((size_t)(cap ? cap : 1), sizeof(Entry));
    int k = 0;
    for (int t = 0; t < ntables; t++)
        for (const Builtin *b = tables[t]; b->name; b++, k++) all[k] = (Entry){b, k};
    qsort(all, (size_t)cap, sizeof(Entry), by_name);
    *out = xcalloc((size_t)(cap ? cap : 1), sizeof(Builtin *));
    *n = 0;
    for (int i = 0; i < cap; i++)
        if (i == 0 || strcmp(all[i].b->name, all[i - 1].b->name) != 0) (*out)[(*n)++] = all[i].b;
    free(all);
}

/* Every table of functions, in the order that decides which one a bare name means. */
static const Builtin *const fn_tables[] = {bi_python, bi_classes, bi_decorators, bi_autograd, bi_nn_module, bi_torch_create, bi_torch_math, bi_torch_shape, bi_torch_sort, bi_torch_more, bi_torch_index, bi_torch_products, bi_torch_functional, bi_io, bi_d2l, bi_help_table, bi_d2l_attention, bi_nn_linear, bi_d2l_positional, bi_d2l_complexity, bi_d2l_relative, bi_d2l_after, bi_d2l_learnable, bi_plot_table, bi_timeit_table, bi_nn_layers, bi_nn_multihead, bi_nn_losses, bi_nn_init, bi_torch_data, bi_torch_optim, bi_torch_only};
#define N_FN_TABLES (int)(sizeof fn_tables / sizeof *fn_tables)

/* The name tables derived from the constant tables above, built once by builtins_open and kept in the Library
 * record it opens (library.h: the record lives as long as the program), read-only after: no file-scope state here.
 * fns: every bare-or-module function by name (bi_torch_only left out: never bare); methods: the Tensor methods;
 * aliases: the torch function each of tensor_method_aliases names (X.sum() is torch.sum(X)), by name. */
struct LibData {
    const Builtin **fns, **methods, **aliases;
    int n_fns, n_methods, n_aliases;
};

static const Builtin *homed(const char *home, const char *name);
static const Builtin *find(const Builtin *const *tbl, int n, const char *name);

/* The aliases' table: each name of tensor_method_aliases with the torch function it calls (torch's, never Python's
 * sum: X.sum() is torch.sum(X)), else the bare function of that name; names with neither are left out. */
static void collect_aliases(struct LibData *d) {
    int cap = 0;
    while (tensor_method_aliases[cap]) cap++;
    Entry *all = xcalloc((size_t)(cap ? cap : 1), sizeof(Entry));
    int k = 0;
    for (int i = 0; i < cap; i++) {
        const Builtin *t = homed("torch", tensor_method_aliases[i]);
        if (!t) t = find(d->fns, d->n_fns, tensor_method_aliases[i]);
        if (t && !strcmp(t->name, tensor_method_aliases[i])) { all[k] = (Entry){t, k}; k++; }
    }
    qsort(all, (size_t)k, sizeof(Entry), by_name);
    d->aliases = xcalloc((size_t)(k ? k : 1), sizeof(Builtin *));
    for (int i = 0; i < k; i++)
        if (i == 0 || strcmp(all[i].b->name, all[i - 1].b->name) != 0) d->aliases[d->n_aliases++] = all[i].b;
    free(all);
}

static struct LibData *libdata_new(void) {
    struct LibData *d = xcalloc(1, sizeof *d);
    collect(fn_tables, N_FN_TABLES - 1, &d->fns, &d->n_fns);      /* bi_torch_only: never bare */
    const Builtin *methods[] = {bi_autograd_methods, bi_tensor_methods, bi_torch_shape_methods};
    collect(methods, 3, &d->methods, &d->n_methods);
    collect_aliases(d);
    return d;
}

/* The opened record's tables (opening the libraries first when nothing is open: unit tests call builtins_all). */
static const struct LibData *libdata(void) {
    if (!lib_opened()) builtins_open();
    const struct LibData *d = lib()->data;
    if (!d) {
        fputs("attn: internal error: another library than builtins_open's was opened\n", stderr);
        abort();
    }
    return d;
}

static const Builtin *find(const Builtin *const *tbl, int n, const char *name) {
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(tbl[mid]->name, name);
        if (c == 0) return tbl[mid];
        if (c < 0) lo = mid + 1; else hi = mid - 1;
    }
    return NULL;
}

const Builtin *builtins_find(const char *name) { const struct LibData *d = libdata(); return find(d->fns, d->n_fns, name); }

/* X.name: a method of the tensor table, or a torch function that takes X first (X.sum(dim=1) is torch.sum(X, 1)):
 * two binary searches. */
const Builtin *builtins_find_method(const char *name) {
    const struct LibData *d = libdata();
    const Builtin *m = find(d->methods, d->n_methods, name);
    return m ? m : find(d->aliases, d->n_aliases, name);
}
const Builtin *const *builtins_all(int *n) { const struct LibData *d = libdata(); *n = d->n_fns; return d->fns; }
const Builtin *const *builtins_all_methods(int *n) { const struct LibData *d = libdata(); *n = d->n_methods; return d->methods; }

/* The modules attn has built in: the names a student types (import torch.nn.functional as F) and the module each
 * is (its name as Python prints it). The bare names (torch, nn, F, d2l, math) are there without an import. */
static const struct { const char *path, *module; bool bare; } modules[] = {
    {"torch", "torch", true}, {"nn", "torch.nn", true}, {"torch.nn", "torch.nn", false},
    {"F", "torch.nn.functional", true}, {"torch.nn.functional", "torch.nn.functional", false},
    {"torch.nn.init", "torch.nn.init", false}, {"torch.utils", "torch.utils", false},
    {"torch.utils.data", "torch.utils.data", false}, {"torch.autograd", "torch.autograd", false},
    {"torch.optim", "torch.optim", false}, {"torch.nn.utils", "torch.nn.utils", false},
    {"d2l", "d2l", true}, {"d2l.torch", "d2l", false}, {"math", "math", true}, {"attn", "attn", true},
    {"random", "random", true}, {"collections", "collections", false}};

static Value *module_named(ValHeap *heap, const char *path, bool bare_only) {
    for (size_t i = 0; i < sizeof modules / sizeof *modules; i++)
        if (!strcmp(modules[i].path, path) && (modules[i].bare || !bare_only)) return val_module(heap, modules[i].module);
    return NULL;
}

Value *builtins_import(ValHeap *heap, const char *path) { return module_named(heap, path, false); }

/* Why `import path` fails, into out (n bytes): NumPy's absence said plainly, else the modules attn has, read from the
 * table above (each Python module once, by its own name: not the nn, F and d2l.torch aliases). */
void builtins_no_module(const char *path, char *out, size_t n) {
    size_t top = strcspn(path, ".");
    if (!strncmp(path, "numpy", top) && top == 5) {
        snprintf(out, n, "NumPy is not available in attn: attn's arrays are torch tensors (torch.tensor, torch.arange, "
                         "torch.zeros ...), and d2l.plot draws them");
        return;
    }
    StrBuf b;
    sb_init(&b);
    size_t count = 0, k = 0;
    for (size_t i = 0; i < sizeof modules / sizeof *modules; i++) count += !strcmp(modules[i].path, modules[i].module);
    for (size_t i = 0; i < sizeof modules / sizeof *modules; i++) {
        if (strcmp(modules[i].path, modules[i].module)) continue;
        sb_puts(&b, k == 0 ? "" : k + 1 == count ? " and " : ", ");
        sb_puts(&b, modules[i].path);
        k++;
    }
    snprintf(out, n, "attn has no module '%s' (it has %s)", path, sb_str(&b));
    sb_free(&b);
}

bool builtins_is_module(const char *name) {
    for (size_t i = 0; i < sizeof modules / sizeof *modules; i++)     /* module_named's test, no value made */
        if (!strcmp(modules[i].path, name) && modules[i].bare) return true;
    return false;
}

/* A name typed without a module: Python's builtins and attn's own chapter tools answer to it; a function that lives
 * in a module in PyTorch (torch.zeros, nn.Linear, d2l.MultiHeadAttention) does not. The entry's module field says
 * which ("" for bare). */
bool builtins_is_bare(const Builtin *b) { return !b->module || !b->module[0]; }

/* Python's own functions, types and their methods: the entries of bi_python, bi_classes (the language's isinstance,
 * getattr ...), Python's math module, property's methods, the str, list, dict, set and view methods, and dict.fromkeys. */
static bool builtins_python_own(const Builtin *b) {
    if (b == &bi_dict_fromkeys) return true;
    for (const Builtin *t = bi_python; t->name; t++) if (b == t) return true;
    for (const Builtin *t = bi_classes; t->name; t++) if (b == t) return true;
    for (const Builtin *t = bi_decorators; t->name; t++) if (b == t) return true;
    for (const Builtin *t = bi_math_module; t->name; t++) if (b == t) return true;
    for (const Builtin *t = bi_property_methods; t->name; t++) if (b == t) return true;
    const Builtin *const methods[] = {bi_str_methods, bi_list_methods, bi_dict_methods, bi_set_methods, bi_view_methods};
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
        for (const Builtin *t = methods[k]; t->name; t++) if (b == t) return true;
    return false;
}

bool builtins_is_decorator(const Builtin *b) {
    for (const Builtin *d = bi_decorators; d->name; d++) if (b == d) return true;
    return false;
}

/* "d2l" for d2l.MultiHeadAttention, "nn.init" for nn.init.zeros_: the entry's module field ("" for bare ones). */
void builtins_home(const Builtin *b, char *out, size_t n) { snprintf(out, n, "%s", b->module ? b->module : ""); }

static int by_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static bool listed(const char *const *names, const char *name) {
    size_t n = 0;
    while (names[n]) n++;
    return bsearch(&name, names, n, sizeof *names, by_str) != NULL;
}

/* The function `name` whose signature puts it in `home` ("torch" for torch.max(X), "" for print and complexity),
 * from any table: torch.max is torch's even where the bare max is Python's. */
static const Builtin *homed(const char *home, const char *name) {
    char h[64];
    for (int t = 0; t < N_FN_TABLES; t++)
        for (const Builtin *b = fn_tables[t]; b->name; b++) {
            if (strcmp(b->name, name)) continue;
            builtins_home(b, h, sizeof h);
            if (!strcmp(h, home)) return b;
        }
    return NULL;
}

/* attn's own bare tools (complexity, rope, savefig, timeit ...): bare functions that are not Python's builtins.
 * They also live in the module attn (attn.complexity), as attn.show_config does. */
static const Builtin *attn_tool(const char *name) {
    const Builtin *b = homed("", name);
    return b && b->name[0] != '_' && !listed(python_names_builtins, name) && !builtins_is_decorator(b) ? b : NULL;
}

/* math.NAME: Python's math function (math_module.c), NULL when attn has none of that name. */
static const Builtin *math_function(const char *name) {
    for (const Builtin *b = bi_math_module; b->name; b++) if (!strcmp(b->name, name)) return b;
    return NULL;
}

/* d2l.torch's aliases (d2l/torch.py, "Alias defined in config.ini"): d2l.NAME is torch.TORCH, or, with method set,
 * the method x.TORCH(...) called as d2l.NAME(x, ...). */
static const struct { const char *name, *torch; bool method; } d2l_aliases[] = {
    {"ones_like", "ones_like", false}, {"ones", "ones", false}, {"zeros_like", "zeros_like", false},
    {"zeros", "zeros", false}, {"tensor", "tensor", false}, {"arange", "arange", false}, {"meshgrid", "meshgrid", false},
    {"sin", "sin", false}, {"sinh", "sinh", false}, {"cos", "cos", false}, {"cosh", "cosh", false},
    {"tanh", "tanh", false}, {"linspace", "linspace", false}, {"exp", "exp", false}, {"log", "log", false},
    {"normal", "normal", false}, {"rand", "rand", false}, {"randn", "randn", false}, {"matmul", "matmul", false},
    {"concat", "cat", false}, {"stack", "stack", false}, {"abs", "abs", false}, {"eye", "eye", false},
    {"sigmoid", "sigmoid", false}, {"batch_matmul", "bmm", false},
    {"numpy", "numpy", true}, {"size", "numel", true}, {"reshape", "reshape", true}, {"to", "to", true},
    {"reduce_sum", "sum", true}, {"argmax", "argmax", true}, {"astype", "type", true}, {"transpose", "t", true},
    {"reduce_mean", "mean", true}, {"expand_dims", "unsqueeze", true}, {"swapaxes", "swapaxes", true},
    {"repeat", "repeat", true}};

/* The method d2l.NAME calls (reduce_sum: sum), from d2l_aliases; NULL when d2l.NAME is not a method alias. */
static const char *d2l_alias_method(const char *name) {
    for (size_t i = 0; i < sizeof d2l_aliases / sizeof *d2l_aliases; i++)
        if (d2l_aliases[i].method && !strcmp(d2l_aliases[i].name, name)) return d2l_aliases[i].torch;
    return NULL;
}

/* d2l.reduce_sum(x, *args, **kwargs) and the other method aliases: d2l.torch defines each as a lambda that calls
 * x's method (x.sum(*args, **kwargs)), so x may be anything that has the method, and anything else is Python's
 * AttributeError ("<lambda>() missing 1 required positional argument: 'x'" without x). The method's name is the
 * alias's entry in d2l_aliases. */
static Value *bi_d2l_method_alias(Interp *I, Args *a) {
    Args la = *a;                                /* declared "d2l.NAME(x, *args, **kwargs)", named as d2l's lambda */
    la.fname = "<lambda>";
    Value *p[2];
    if (!args_bind(I, &la, p, 2)) return NULL;
    const char *method = d2l_alias_method(a->fn->name);
    if (!method) return rt_error(I, "d2l.%s is not one of d2l.torch's method aliases", a->fn->name);
    Value *m = ops_getattr(I, a->pos[0], method);
    if (!m) return NULL;
    Args b = *a;
    b.pos = a->pos + 1;
    b.npos = a->npos - 1;
    b.fname = a->fn->name;
    b.fn = NULL;
    Value *r = interp_call(I, m, &b);
    val_decref(m);
    return r;
}

#define D2L_METHOD(alias, method) \
    {alias, bi_d2l_method_alias, "d2l." alias "(x, *args, **kwargs)", "d2l.torch's alias: x." method "(*args, **kwargs).", "", 0, "d2l"}
static const Builtin d2l_method_builtins[] = {
    D2L_METHOD("numpy", "numpy"), D2L_METHOD("size", "numel"), D2L_METHOD("reshape", "reshape"),
    D2L_METHOD("to", "to"), D2L_METHOD("reduce_sum", "sum"), D2L_METHOD("argmax", "argmax"),
    D2L_METHOD("astype", "type"), D2L_METHOD("transpose", "t"), D2L_METHOD("reduce_mean", "mean"),
    D2L_METHOD("expand_dims", "unsqueeze"), D2L_METHOD("swapaxes", "swapaxes"), D2L_METHOD("repeat", "repeat")};

/* The modules a module holds as attributes: torch.nn, nn.functional, and what d2l.torch imports. */
static const struct { const char *module, *name, *is; } submodules[] = {
    {"torch", "nn", "torch.nn"}, {"torch.nn", "functional", "torch.nn.functional"}, {"torch.nn", "init", "torch.nn.init"},
    {"torch", "utils", "torch.utils"}, {"torch", "autograd", "torch.autograd"}, {"torch.utils", "data", "torch.utils.data"},
    {"torch", "optim", "torch.optim"}, {"torch.nn", "utils", "torch.nn.utils"},
    {"d2l", "torch", "torch"}, {"d2l", "nn", "torch.nn"}, {"d2l", "F", "torch.nn.functional"},
    {"d2l", "math", "math"}, {"d2l", "random", "random"}, {"d2l", "data", "torch.utils.data"}};

static Value *dtype_or_constant(ValHeap *heap, const char *name) {
    Value *v = builtins_constant(heap, name);
    if (v && v->kind == V_MODULE) { val_decref(v); v = NULL; }
    return v;
}

static Value *cached_class(ValHeap *heap, const char *module, const char *name);
static const char *missing_dtype(const char *name);

/* module.name, as the real module has it (PyTorch 1.13, d2l.torch, Python's math): the names whose home is the module
 * (their signature says torch.zeros, nn.Linear, F.gelu, d2l.plot, attn.show_config), the module's submodules,
 * constants and classes, and a few names the real module shares with another (F.softmax is torch.softmax, d2l.zeros
 * is torch.zeros, math.sqrt is attn's sqrt). NULL where the real module has no such name or attn lacks it. */
Value *builtins_module_attr(ValHeap *heap, const char *module, const char *name) {
    Value *v = nn_module_attr(heap, module, name);
    if (v) return v;
    if (!strcmp(module, "d2l") && !strcmp(name, "DataModule")) return d2l_data_module_class();
    if ((v = d2l_train_attr(module, name))) return v;
    if (!strcmp(module, "torch.utils.data") && !strcmp(name, "Dataset")) return torch_dataset_class();
    for (size_t i = 0; i < sizeof submodules / sizeof *submodules; i++)
        if (!strcmp(submodules[i].module, module) && !strcmp(submodules[i].name, name)) return val_module(heap, submodules[i].is);
    const Builtin *b = NULL;
    if (!strcmp(module, "torch")) {
        if ((v = dtype_or_constant(heap, name))) return v;
        if (!strcmp(name, "Tensor") || !strcmp(name, "Size")) return cached_class(heap, "torch", name);
        b = homed("torch", name);
        if (!b && listed(torch_names_torch, name) && !missing_dtype(name)) {        /* torch.max, torch.abs: Python's bare ones hand tensors on */
            b = homed("", name);
            if (b && attn_tool(name)) b = NULL;
        }
    } else if (!strcmp(module, "torch.nn")) {
        b = homed("nn", name);
    } else if (!strcmp(module, "torch.nn.functional")) {
        b = homed("F", name);
        if (!b && listed(torch_names_functional, name)) b = homed("torch", name);
    } else if (!strcmp(module, "torch.nn.init")) {
        b = homed("nn.init", name);
    } else if (!strcmp(module, "torch.autograd")) {
        b = homed("torch.autograd", name);
        if (!b && (!strcmp(name, "no_grad") || !strcmp(name, "enable_grad") || !strcmp(name, "set_grad_enabled"))) b = homed("torch", name);
    } else if (!strcmp(module, "torch.utils.data")) {
        b = homed("torch.utils.data", name);
    } else if (!strcmp(module, "torch.optim") || !strcmp(module, "torch.nn.utils")) {
        b = homed(module, name);
    } else if (!strcmp(module, "d2l")) {
        b = homed("d2l", name);
        for (size_t i = 0; !b && i < sizeof d2l_aliases / sizeof *d2l_aliases; i++)
            if (!strcmp(d2l_aliases[i].name, name)) {
                if (!d2l_aliases[i].method) return builtins_module_attr(heap, "torch", d2l_aliases[i].torch);
                for (size_t k = 0; k < sizeof d2l_method_builtins / sizeof *d2l_method_builtins; k++)
                    if (!strcmp(d2l_method_builtins[k].name, name)) b = &d2l_method_builtins[k];
            }
        if (!b && (!strcmp(name, "float32") || !strcmp(name, "int64"))) return dtype_or_constant(heap, name);
    } else if (!strcmp(module, "math")) {
        if (!strcmp(name, "tau")) return val_float(heap, 6.28318530717958647692);
        if (!strcmp(name, "pi") || !strcmp(name, "e") || !strcmp(name, "inf") || !strcmp(name, "nan")) return dtype_or_constant(heap, name);
        b = math_function(name);
    } else if (!strcmp(module, "collections")) {
        b = homed("collections", name);
    } else if (!strcmp(module, "attn")) {
        b = homed("attn", name);
        if (!b) b = attn_tool(name);
    }
    return b ? val_builtin(heap, b) : NULL;
}

/* Every name builtins_module_attr resolves for the module, each offered once (dir(torch), Tab after "torch."). */
void builtins_module_names(const char *module, void (*add)(void *ctx, const char *name), void *ctx) {
    static const char *const extra[] = {"float32", "float", "float64", "double", "int64", "long", "bool", "pi", "e",
        "inf", "nan", "tau", "Tensor", "Size", "Module", "DataModule", "Dataset", "HyperParameters", "ProgressBoard",
        "Trainer", NULL};
    int n = 0, cap = 0;
    while (extra[cap]) cap++;
    for (int t = 0; t < N_FN_TABLES; t++) for (const Builtin *b = fn_tables[t]; b->name; b++) cap++;
    const char **names = xcalloc((size_t)cap, sizeof *names);
    for (int t = 0; t < N_FN_TABLES; t++) for (const Builtin *b = fn_tables[t]; b->name; b++) names[n++] = b->name;
    for (int i = 0; extra[i]; i++) names[n++] = extra[i];
    qsort(names, (size_t)n, sizeof *names, by_str);
    ValHeap *heap = val_heap_new();   /* what is made only to see that it exists goes here (a class made once stays) */
    for (int i = 0; i < n; i++) {
        if (i && !strcmp(names[i], names[i - 1])) continue;
        Value *v = builtins_module_attr(heap, module, names[i]);
        if (v) add(ctx, names[i]);
        val_decref(v);
    }
    for (size_t i = 0; i < sizeof submodules / sizeof *submodules; i++)
        if (!strcmp(submodules[i].module, module)) add(ctx, submodules[i].name);
    for (size_t i = 0; !strcmp(module, "d2l") && i < sizeof d2l_aliases / sizeof *d2l_aliases; i++) {
        Value *v = builtins_module_attr(heap, module, d2l_aliases[i].name);
        if (v && !homed("", d2l_aliases[i].name) && !homed("torch", d2l_aliases[i].name)) add(ctx, d2l_aliases[i].name);
        val_decref(v);
    }
    val_heap_free(heap);
    free(names);
}

Value *builtins_constant(ValHeap *heap, const char *name) {
    static const struct { const char *name; DType dt; } dtypes[] = {
        {"float32", DT_F32}, {"float", DT_F32}, {"float64", DT_F64}, {"double", DT_F64}, {"int64", DT_I64},
        {"long", DT_I64}, {"bool", DT_BOOL}};
    for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
        if (!strcmp(name, dtypes[i].name)) return val_dtype(heap, dtypes[i].dt);
    if (!strcmp(name, "pi")) return val_float(heap, 3.14159265358979323846);
    if (!strcmp(name, "e")) return val_float(heap, 2.71828182845904523536);
    if (!strcmp(name, "inf")) return val_float(heap, INFINITY);
    if (!strcmp(name, "nan")) return val_float(heap, NAN);
    return module_named(heap, name, true);
}

/* Names from torch a student may reach for that attn does not have, each with what to do instead. */
static const struct { const char *name, *why; } missing[] = {
    {"float16", "torch.float16 is not in attn: tensors are float32, float64, int64 or bool (use torch.float32)"},
    {"half", "torch.half (float16) is not in attn: tensors are float32, float64, int64 or bool (use torch.float32)"},
    {"bfloat16", "torch.bfloat16 is not in attn: tensors are float32, float64, int64 or bool (use torch.float32)"},
    {"int32", "torch.int32 is not in attn: integer tensors are int64 (use torch.int64)"},
    {"int", "torch.int (int32) is not in attn: integer tensors are int64 (use torch.int64 or torch.long)"},
    {"int16", "torch.int16 is not in attn: integer tensors are int64 (use torch.int64)"},
    {"short", "torch.short (int16) is not in attn: integer tensors are int64 (use torch.int64)"},
    {"int8", "torch.int8 is not in attn: integer tensors are int64 (use torch.int64)"},
    {"uint8", "torch.uint8 is not in attn: integer tensors are int64, masks are torch.bool"},
    {"complex64", "complex tensors are not in attn: tensors are float32, float64, int64 or bool"},
    {"complex128", "complex tensors are not in attn: tensors are float32, float64, int64 or bool"},
    {"cfloat", "complex tensors are not in attn: tensors are float32, float64, int64 or bool"},
    {"cdouble", "complex tensors are not in attn: tensors are float32, float64, int64 or bool"},
    {NULL, NULL}};

/* torch.int32 and the other dtypes attn refuses: what to do instead, or NULL. */
static const char *missing_dtype(const char *name) {
    for (int i = 0; missing[i].name; i++)
        if (!strcmp(missing[i].name, name)) return missing[i].why;
    return NULL;
}

/* Python's builtins that attn leaves out on purpose (a lesson file is untrusted: it must not read or write files, or
 * run text as code), each with what to use instead. */
static const char *const refused_builtins[][2] = {
    {"open", "it opens no files. Tensors go to and from NumPy files with save(\"x.npy\", X) and "
             "X = load(\"x.npy\"), figures to images with savefig(\"fig.png\")"},
    {"input", "a statement cannot stop to read the keyboard. Set the value in a line of its own, e.g. n = 5"},
    {"eval", "it does not run text as code. Type the expression itself"},
    {"exec", "it does not run text as code. Type the statements themselves"},
    {"compile", "it does not run text as code. Type the statements themselves"},
    {"__import__", "use an import statement: import torch, from torch import nn, from d2l import torch as d2l"},
    {"globals", "type a name at the prompt to see its value (Tab lists the names defined)"},
    {"locals", "type a name at the prompt to see its value (Tab lists the names defined)"},
    {"vars", "obj.__dict__ shows the attributes of an object of your class; type a name to see its value"},
};

const char *builtins_refused(const char *name) {
    for (size_t i = 0; i < sizeof refused_builtins / sizeof refused_builtins[0]; i++)
        if (!strcmp(name, refused_builtins[i][0])) return refused_builtins[i][1];
    return NULL;
}

const char *builtins_missing(const char *module, const char *name, char *msg, size_t cap) {
    bool d2l = !strcmp(module, "d2l");
    if (d2l && !strcmp(name, "int32")) module = "torch";             /* d2l.int32 = torch.int32 */
    if (!strcmp(module, "torch") && missing_dtype(name)) return missing_dtype(name);
    if (!strcmp(module, "random") && listed(python_names_random, name)) {
        snprintf(msg, cap, "random.%s is Python's and not in attn: torch.manual_seed(0) seeds attn's random "
                 "numbers, torch.rand, torch.randn and torch.randint draw them", name);
        return msg;
    }
    if (!strcmp(module, "math") && listed(python_names_math, name)) {
        if (homed("torch", name)) snprintf(msg, cap, "math.%s is not in attn: torch.%s works on tensors", name, name);
        else snprintf(msg, cap, "math.%s is not in attn: type help to see what is", name);
        return msg;
    }
    const char *const *names = !strcmp(module, "torch") ? torch_names_torch
                             : !strcmp(module, "Tensor") ? torch_names_tensor
                             : !strcmp(module, "torch.nn.functional") ? torch_names_functional
                             : !strcmp(module, "torch.nn") ? torch_names_nn
                             : !strcmp(module, "Module") ? torch_names_module
                             : !strcmp(module, "torch.autograd") ? torch_names_autograd : NULL;
    if (!names || !listed(names, name)) return NULL;
    snprintf(msg, cap, "%s.%s is not in attn: type help to see what is", module, name);
    return msg;
}

/* The class objects of the values that no class statement made: torch.Tensor, torch.Size, int, ... and the
 * classes of attn's own objects (grad_fn, list_iterator, ...), which type(x) returns. One immortal class per
 * qualified name, so type(x) == torch.Tensor and isinstance(x, torch.Tensor) compare one value, in every
 * interpreter of the process (builtin_classes_open says why they are the process's). The names are every one that
 * builtins_value_class and builtins_type_of can ask for (val_type_name's kinds, the return types, the ObjClass
 * names); a name missing here gets a class of its own interpreter's heap at each type(), which prints the same but
 * compares unequal: add it here. All but the few that PyTorch writes in Python (python_classes) are C types in
 * Python, whose attributes a program cannot set (ClassInfo.immutable). */
static const struct { const char *module, *name; } class_names[] = {
    {"torch", "Tensor"}, {"torch", "Size"}, {"torch", "dtype"},
    {"torch.return_types", "cummax"}, {"torch.return_types", "cummin"}, {"torch.return_types", "kthvalue"},
    {"torch.return_types", "max"}, {"torch.return_types", "median"}, {"torch.return_types", "min"},
    {"torch.return_types", "mode"}, {"torch.return_types", "sort"}, {"torch.return_types", "topk"},
    {"collections", "OrderedDict"}, {"collections", "defaultdict"},
    {"builtins", "NoneType"}, {"builtins", "bool"}, {"builtins", "int"}, {"builtins", "float"}, {"builtins", "str"},
    {"builtins", "tuple"}, {"builtins", "list"}, {"builtins", "dict"}, {"builtins", "set"}, {"builtins", "frozenset"},
    {"builtins", "range"}, {"builtins", "slice"}, {"builtins", "dict_keys"}, {"builtins", "dict_values"},
    {"builtins", "dict_items"}, {"builtins", "odict_keys"}, {"builtins", "odict_values"}, {"builtins", "odict_items"},
    {"builtins", "ellipsis"}, {"builtins", "builtin_function_or_method"},
    {"builtins", "method"}, {"builtins", "function"}, {"builtins", "module"}, {"builtins", "type"},
    {"builtins", "object"}, {"builtins", "NotImplementedType"}, {"builtins", "mappingproxy"}, {"builtins", "super"},
    {"builtins", "property"}, {"builtins", "staticmethod"}, {"builtins", "classmethod"}, {"builtins", "grad_fn"},
    {"builtins", "grad_mode"}, {"builtins", "_IncompatibleKeys"}, {"builtins", "_SingleProcessDataLoaderIter"},
    {"builtins", "NonDynamicallyQuantizableLinear"}, {"builtins", "attention weights (computed when read)"},
    {"builtins", "list_iterator"}, {"builtins", "tuple_iterator"}, {"builtins", "str_ascii_iterator"},
    {"builtins", "str_iterator"}, {"builtins", "range_iterator"}, {"builtins", "dict_keyiterator"},
    {"builtins", "dict_valueiterator"}, {"builtins", "dict_itemiterator"}, {"builtins", "set_iterator"},
    {"builtins", "reversed"}, {"builtins", "list_reverseiterator"}, {"builtins", "dict_reversekeyiterator"},
    {"builtins", "dict_reversevalueiterator"}, {"builtins", "dict_reverseitemiterator"}, {"builtins", "map"},
    {"builtins", "filter"}, {"builtins", "zip"}, {"builtins", "enumerate"}, {"builtins", "iterator"},
    {"builtins", "generator"}, {"builtins", "method_descriptor"},
};
#define N_CLASS_NAMES (sizeof class_names / sizeof *class_names)
static const char *const python_classes[] = {"Tensor", "_IncompatibleKeys", "_SingleProcessDataLoaderIter",
                                             "NonDynamicallyQuantizableLinear", "grad_mode", "attention weights (computed when read)"};
/* The C types of class_names that Python cannot call: "cannot create 'list_iterator' instances" (ClassInfo.no_new) */
static const char *const no_new_classes[] = {
    "dtype", "builtin_function_or_method", "dict_keys", "dict_values", "dict_items", "odict_keys", "odict_values",
    "odict_items", "list_iterator", "tuple_iterator", "str_ascii_iterator", "str_iterator", "range_iterator",
    "dict_keyiterator", "dict_valueiterator", "dict_itemiterator", "set_iterator", "list_reverseiterator",
    "dict_reversekeyiterator", "dict_reversevalueiterator", "dict_reverseitemiterator", "generator", "method_descriptor"};
/* class_names' classes: written by value_classes_open, under builtins_open's pthread_once, and never again */
static Value *value_classes[N_CLASS_NAMES];

static void value_classes_open(void) {
    for (size_t i = 0; i < N_CLASS_NAMES; i++) {
        value_classes[i] = class_new_builtin(class_names[i].name, class_names[i].module, NULL, NULL, false);
        value_classes[i]->u.cls->immutable = true;
        for (size_t k = 0; k < sizeof python_classes / sizeof *python_classes; k++)
            if (!strcmp(python_classes[k], class_names[i].name)) value_classes[i]->u.cls->immutable = false;
        if (!strcmp(class_names[i].module, "torch") && !strcmp(class_names[i].name, "Size")) value_classes[i]->u.cls->make = &torch_size_builtin;
        for (size_t k = 0; k < sizeof no_new_classes / sizeof *no_new_classes; k++)
            if (!strcmp(no_new_classes[k], class_names[i].name)) value_classes[i]->u.cls->no_new = true;
    }
}

/* The class named module.name: class_names' (new reference), else a class of heap's (see class_names; NULL when
 * heap is NULL). */
static Value *cached_class(ValHeap *heap, const char *module, const char *name) {
    for (size_t i = 0; i < N_CLASS_NAMES; i++)
        if (!strcmp(class_names[i].name, name) && !strcmp(class_names[i].module, module)) return val_incref(value_classes[i]);
    return heap ? class_new_transient(heap, name, module) : NULL;
}

/* The class of a value that is not an instance of a class statement: torch.Tensor, torch.Size, torch.dtype,
 * torch.return_types.max ..., Python's int, float, str, ... (module "builtins"), and that of attn's objects named in
 * class_names or by their ObjClass's type (so isinstance(it, type(it)) holds, as type(it) is that class). */
Value *builtins_value_class(const Value *v) {
    const char *module = "builtins", *name = val_type_name(v);
    switch (v->kind) {
    case V_TENSOR: module = "torch"; name = "Tensor"; break;
    case V_DTYPE: module = "torch"; name = "dtype"; break;
    case V_TUPLE:
        if (v->u.seq.is_size) { module = "torch"; name = "Size"; }
        else if (v->u.seq.named) { module = "torch.return_types"; name = strrchr(v->u.seq.named->name, '.') + 1; }
        break;
    case V_DICT:                                 /* val_type_name's "collections.OrderedDict" is the class's repr */
        if (v->u.dict->ordered || v->u.dict->default_dict) { module = "collections"; name = strchr(name, '.') + 1; }
        break;
    case V_NONE: case V_BOOL: case V_INT: case V_FLOAT: case V_STR: case V_LIST: case V_SET: case V_RANGE: case V_SLICE:
    case V_DICTVIEW: break;
    case V_OBJECT:                               /* attn's objects: list_iterator, grad_mode, SumBackward0 ... */
        if (v->u.obj.klass) return NULL;
        if (v->u.obj.cls->type) {                /* a class (SumBackward0), not a builtin (torch.no_grad) */
            Value *c = v->u.obj.cls->type((Value *)v);
            if (c && c->kind == V_CLASS) return c;
            val_decref(c);
            return NULL;
        }
        name = v->u.obj.cls->name;
        break;
    default: return NULL;
    }
    return cached_class(NULL, module, name);       /* NULL for a name not in class_names (nn.Linear's: a builtin) */
}

/* The builtins that are classes in Python (Python's types, which attn calls as functions, and the constructors of
 * attn's objects): the builtin's name and home, Python's module of the class, and the name of the ObjClass of
 * what it makes (NULL: the same as the builtin's). */
static const struct { const char *name, *home, *module, *objclass; } type_builtins[] = {
    {"bool", "", "builtins", NULL}, {"int", "", "builtins", NULL}, {"float", "", "builtins", NULL},
    {"str", "", "builtins", NULL}, {"list", "", "builtins", NULL}, {"tuple", "", "builtins", NULL},
    {"dict", "", "builtins", NULL}, {"set", "", "builtins", NULL}, {"frozenset", "", "builtins", NULL}, {"range", "", "builtins", NULL}, {"slice", "", "builtins", NULL}, {"map", "", "builtins", NULL},
    {"filter", "", "builtins", NULL}, {"zip", "", "builtins", NULL}, {"enumerate", "", "builtins", NULL},
    {"reversed", "", "builtins", NULL}, {"type", "", "builtins", NULL}, {"super", "", "builtins", NULL},
    {"property", "", "builtins", NULL}, {"staticmethod", "", "builtins", NULL}, {"classmethod", "", "builtins", NULL},
    {"BaseException", "", "builtins", NULL}, {"Exception", "", "builtins", NULL}, {"ArithmeticError", "", "builtins", NULL}, {"ZeroDivisionError", "", "builtins", NULL}, {"OverflowError", "", "builtins", NULL}, {"LookupError", "", "builtins", NULL}, {"KeyError", "", "builtins", NULL}, {"IndexError", "", "builtins", NULL}, {"ValueError", "", "builtins", NULL}, {"TypeError", "", "builtins", NULL}, {"RuntimeError", "", "builtins", NULL}, {"RecursionError", "", "builtins", NULL}, {"NameError", "", "builtins", NULL}, {"AttributeError", "", "builtins", NULL}, {"NotImplementedError", "", "builtins", NULL}, {"AssertionError", "", "builtins", NULL}, {"MemoryError", "", "builtins", NULL}, {"StopIteration", "", "builtins", NULL},
    {"Linear", "nn", "torch.nn.modules.linear", NULL}, {"LazyLinear", "nn", "torch.nn.modules.linear", NULL},
    {"Dropout", "nn", "torch.nn.modules.dropout", NULL}, {"ReLU", "nn", "torch.nn.modules.activation", NULL},
    {"GELU", "nn", "torch.nn.modules.activation", NULL}, {"Softmax", "nn", "torch.nn.modules.activation", NULL},
    {"Identity", "nn", "torch.nn.modules.linear", NULL}, {"Flatten", "nn", "torch.nn.modules.flatten", NULL}, {"Sequential", "nn", "torch.nn.modules.container", NULL},
    {"ModuleList", "nn", "torch.nn.modules.container", NULL},
    {"LayerNorm", "nn", "torch.nn.modules.normalization", NULL}, {"Embedding", "nn", "torch.nn.modules.sparse", NULL},
    {"MultiheadAttention", "nn", "torch.nn.modules.activation", NULL}, {"DotProductAttention", "d2l", "d2l.torch", NULL},
    {"MultiHeadAttention", "d2l", "d2l.torch", NULL}, {"PositionalEncoding", "d2l", "d2l.torch", NULL},
    {"Tanh", "nn", "torch.nn.modules.activation", NULL}, {"Sigmoid", "nn", "torch.nn.modules.activation", NULL},
    {"CrossEntropyLoss", "nn", "torch.nn.modules.loss", NULL}, {"MSELoss", "nn", "torch.nn.modules.loss", NULL},
    {"TensorDataset", "torch.utils.data", "torch.utils.data.dataset", NULL},
    {"DataLoader", "torch.utils.data", "torch.utils.data.dataloader", NULL},
    {"SGD", "torch.optim", "torch.optim.sgd", NULL}, {"Adam", "torch.optim", "torch.optim.adam", NULL},
    {"AdamW", "torch.optim", "torch.optim.adamw", NULL},
    {"OrderedDict", "collections", "collections", "collections.OrderedDict"},
    {"defaultdict", "collections", "collections", "collections.defaultdict"},
    {"device", "torch", "torch", "torch.device"}, {"no_grad", "torch", "torch.autograd.grad_mode", NULL},
    {"enable_grad", "torch", "torch.autograd.grad_mode", NULL}, {"set_grad_enabled", "torch", "torch.autograd.grad_mode", NULL},
    {"Parameter", "nn", "torch.nn.parameter", NULL},
};
#define N_TYPE_BUILTINS (int)(sizeof type_builtins / sizeof type_builtins[0])

static int type_builtin_index(const Builtin *b) {
    char home[64];
    builtins_home(b, home, sizeof home);
    for (int i = 0; i < N_TYPE_BUILTINS; i++)
        if (!strcmp(type_builtins[i].name, b->name) && !strcmp(type_builtins[i].home, home)) return i;
    return -1;
}

bool builtins_type_module(const Builtin *b, const char **module) {
    int i = type_builtin_index(b);
    if (i >= 0 && module) *module = type_builtins[i].module;
    return i >= 0;
}

Value *builtins_type_of(ValHeap *heap, const Value *v) {
    if (v->kind == V_OBJECT && v->u.obj.klass) return val_incref(v->u.obj.klass);
    if (v->kind == V_OBJECT && v->u.obj.cls->type) return v->u.obj.cls->type((Value *)v);
    const Builtin *param = v->kind == V_TENSOR && v->param ? homed("nn", "Parameter") : NULL;
    if (param) return val_builtin(heap, param);              /* a module's weight: nn.Parameter, a Tensor too */
    const char *name = v->kind == V_CLASS || (v->kind == V_BUILTIN && builtins_type_module(v->u.builtin, NULL)) ? "type"
                     : v->kind == V_OBJECT ? v->u.obj.cls->name : val_type_name(v);
    for (int i = 0; i < N_TYPE_BUILTINS; i++) {
        const char *made = type_builtins[i].objclass ? type_builtins[i].objclass : type_builtins[i].name;
        if (strcmp(made, name) || (v->kind != V_OBJECT && v->kind != V_DICT && type_builtins[i].home[0])) continue;
        const Builtin *b = builtins_find(type_builtins[i].name);
        if (b && type_builtin_index(b) == i) return val_builtin(heap, b);
    }
    Value *c = builtins_value_class(v);          /* torch.Tensor, torch.Size ... */
    return c ? c : cached_class(heap, "builtins", name);      /* function, builtin_function_or_method, NoneType ... */
}

/* Tensor methods that torch/_tensor.py writes in Python (PyTorch 1.13): they print as bound methods. */
static const char *const tensor_python_methods[] = {
    "__array__", "__array_wrap__", "__contains__", "__deepcopy__", "__dir__", "__floordiv__", "__format__", "__hash__",
    "__iter__", "__len__", "__rdiv__", "__reduce_ex__", "__repr__", "__reversed__", "__rfloordiv__", "__rlshift__",
    "__rmatmul__", "__rmod__", "__rpow__", "__rrshift__", "__rsub__", "__setstate__", "align_to", "backward", "eig",
    "is_shared", "istft", "lstsq", "lu", "norm", "refine_names", "register_hook", "reinforce", "rename", "rename_",
    "resize", "resize_as", "share_memory_", "solve", "split", "stft", "storage", "storage_type", "to_sparse_coo",
    "unflatten", "unique", "unique_consecutive", NULL};

static bool in_table(const Builtin *t, const Builtin *fn) {
    for (; t && t->name; t++) if (t == fn) return true;
    return false;
}

/* The __qualname__ of the Python function PyTorch has for method fn of attn's class cls ("Linear", "SGD"): a
 * module's own forward and extra_repr are its class's, the rest of a module's (own false: not in its class's own
 * table) nn.Module's; an optimizer of attn's (optim) has Optimizer's but step (SGD's and Adam's are wrapped by a
 * decorator, AdamW's its own). */
static void python_qualname(StrBuf *out, const char *cls, bool module, bool own, bool optim, const Builtin *fn) {
    if (module && !own && strcmp(fn->name, "forward") && strcmp(fn->name, "extra_repr")) cls = "Module";
    if (optim && (!strcmp(cls, "SGD") || !strcmp(cls, "Adam") || !strcmp(cls, "AdamW"))) {
        if (!strcmp(fn->name, "step") && strcmp(cls, "AdamW")) { sb_puts(out, "_use_grad_for_differentiable.<locals>._use_grad"); return; }
        if (strcmp(fn->name, "step")) cls = "Optimizer";
    }
    sb_printf(out, "%s.%s", cls, fn->name);
}

/* library.h's method_qualname: the Python function PyTorch has for fn on self, as its __qualname__. A tensor's are
 * those of tensor_python_methods; every object of attn whose type PyTorch writes in Python (a module, an optimizer, a
 * DataLoader, the student's class) has Python methods: a module's own (forward, extra_repr) are its class's, the
 * rest nn.Module's; an optimizer's are Optimizer's but step (SGD's and Adam's are wrapped by a decorator, AdamW's its
 * own). The objects PyTorch makes in C (a grad_fn node, an iterator) and Python's types have built-in methods. */
static bool builtins_method_qualname(StrBuf *out, const Value *self, const Builtin *fn) {
    if (self->kind == V_TENSOR) {
        for (const char *const *n = tensor_python_methods; *n; n++)
            if (!strcmp(*n, fn->name)) { sb_printf(out, "Tensor.%s", fn->name); return true; }
        return false;
    }
    if (self->kind != V_OBJECT) return false;
    const ObjClass *c = self->u.obj.cls;
    const char *cls = self->u.obj.klass ? self->u.obj.klass->u.cls->name : c->name;
    if (!self->u.obj.klass && c->type) {                     /* SumBackward0 (C), torch.no_grad (Python) */
        Value *t = c->type((Value *)self);
        bool python = t && t->kind == V_BUILTIN;
        if (python) cls = t->u.builtin->name;
        val_decref(t);
        if (!python) return false;
    } else if (!self->u.obj.klass) {
        if (cached_class(NULL, "builtins", c->name)) {       /* list_iterator ... : C types but the few in Python */
            bool python = false;
            for (size_t k = 0; k < sizeof python_classes / sizeof *python_classes; k++)
                if (!strcmp(python_classes[k], c->name)) python = true;
            if (!python) return false;
        }
    }
    python_qualname(out, cls, val_is_module(self), in_table(c->methods, fn), !self->u.obj.klass, fn);
    return true;
}

/* library.h's function_qualname: b's Python module (from its home, through modules[]) and name looked up in
 * torch_python_functions (scripts/gen-torch-names: inspect.isfunction in the installed PyTorch). */
static bool builtins_function_qualname(StrBuf *out, const Builtin *b) {
    char home[64];
    builtins_home(b, home, sizeof home);
    const char *module = !strcmp(home, "nn.init") ? "torch.nn.init" : NULL;
    for (size_t i = 0; !module && i < sizeof modules / sizeof *modules; i++)
        if (!strcmp(modules[i].path, home)) module = modules[i].module;
    if (!module || strncmp(module, "torch", 5)) return false;
    size_t m = strlen(module), n = strlen(b->name);
    for (const char *const *e = torch_python_functions; *e; e++)
        if (!strncmp(*e, module, m) && (*e)[m] == '.' && !strncmp(*e + m + 1, b->name, n) && (*e)[m + 1 + n] == ' ') {
            if (out) sb_puts(out, *e + m + n + 2);
            return true;
        }
    return false;
}

/* library.h's unbound_method: torch.Tensor's methods (the tensor table: X.sum's), the methods of Python's types
 * (builtins_type_method), nn.Module's of attn's module classes (nn.Linear.forward: their own tables are not reached
 * from the constructor) and an optimizer's (torch.optim.SGD.step), with the names method_qualname gives them bound. */
static const Builtin *builtins_unbound_method(const Value *type, const char *name, StrBuf *q, const char **c_owner) {
    *c_owner = NULL;
    if (type->kind == V_CLASS) {
        Value *tensor = cached_class(NULL, "torch", "Tensor");
        val_decref(tensor);                          /* immortal: compared only */
        const Builtin *m = type == tensor ? builtins_find_method(name) : NULL;
        if (!m) return NULL;
        bool python = false;
        for (const char *const *n = tensor_python_methods; *n; n++) python = python || !strcmp(*n, name);
        sb_printf(q, "%s.%s", python ? "Tensor" : "_TensorBase", name);
        if (!python) *c_owner = "torch._C._TensorBase";
        return m;
    }
    if (type->kind != V_BUILTIN) return NULL;
    const Builtin *t = type->u.builtin, *m = builtins_type_method(t, name);
    if (m) {
        sb_printf(q, "%s.%s", t->name, name);
        *c_owner = t->name;
        return m;
    }
    int i = type_builtin_index(t);
    if (i < 0) return NULL;
    bool module = (!strcmp(type_builtins[i].home, "nn") && strcmp(t->name, "Parameter")) || !strcmp(type_builtins[i].home, "d2l");
    bool optim = !strcmp(type_builtins[i].home, "torch.optim");
    const Builtin *table = module ? bi_module_methods : optim ? torch_optim_methods() : NULL;
    for (m = table; m && m->name && strcmp(m->name, name); m++) {}
    if (!m || !m->name) return NULL;
    python_qualname(q, t->name, module, false, optim, m);
    return m;
}

static int by_overload_name(const void *key, const void *entry) {
    return strcmp(key, ((const TorchOverload *)entry)->name);
}

/* Library.overloaded: b's row of torch_overloads (a binary search by name; F.logsigmoid is PyTorch's log_sigmoid). */
static bool builtins_overloaded(const Builtin *b, bool method, int nargs) {
    size_t n = 0;
    while (torch_overloads[n].name) n++;
    const TorchOverload *o = bsearch(b->name, torch_overloads, n, sizeof *o, by_overload_name);
    if (!o || nargs < 0 || nargs >= 16) return false;
    unsigned bits = method ? o->method : b->module && !strcmp(b->module, "F") ? o->functional : o->fn;
    return (bits >> nargs) & 1;
}

/* The libraries as the language sees them (library.h). */
static const Library builtins_library = {
    .find = builtins_find, .find_method = builtins_find_method, .all = builtins_all,
    .all_methods = builtins_all_methods, .tensor_method_aliases = tensor_method_aliases,
    .is_bare = builtins_is_bare, .home = builtins_home,
    .constant = builtins_constant, .import = builtins_import, .no_module = builtins_no_module,
    .module_attr = builtins_module_attr,
    .module_names = builtins_module_names, .missing = builtins_missing, .refused = builtins_refused,
    .before_call = args_device_check, .after_call = ag_after_call, .overloaded = builtins_overloaded, .tensor_attr = ag_tensor_attr,
    .tensor_setattr = ag_tensor_setattr,
    .value_class = builtins_value_class, .type_module = builtins_type_module, .python_own = builtins_python_own, .type_of = builtins_type_of,
    .type_method = builtins_type_method, .unbound_method = builtins_unbound_method, .function_qualname = builtins_function_qualname, .method_qualname = builtins_method_qualname, .unbound_ok = builtins_unbound_ok,
    .set_method_changes = builtins_set_method_changes,
    .str_methods = bi_str_methods, .list_methods = bi_list_methods, .dict_methods = bi_dict_methods,
    .set_methods = bi_set_methods, .view_methods = bi_view_methods, .module_methods = bi_module_methods, .dict_fromkeys = &bi_dict_fromkeys};

/* The builtin classes: CPython's model, not Lua's per-state registry. They are static, immortal objects of the
 * process, made here all together before any interpreter runs, and never written afterwards: values cross
 * interpreters (a lesson begun at the prompt, an answer checked in an interpreter of its own), and type(x) ==
 * torch.Tensor, isinstance and except ValueError must hold across them, which one class object per name gives
 * without a translation between type tables. class_setattr refuses to write them, as Python's int.x = 1. */
static void builtin_classes_open(void) {
    nn_module_classes_open();
    d2l_train_classes_open();
    torch_data_classes_open();
    value_classes_open();
}

/* The record, a copy of builtins_library that carries the name tables, and the classes: made once for the program
 * (as lib_open keeps its record). lib_open makes the language's own classes (object, the exceptions) first. */
static void open_once(void) {
    Library *l = xcalloc(1, sizeof *l);
    *l = builtins_library;
    l->data = libdata_new();
    lib_open(l);
    builtin_classes_open();
}

/* Opens the libraries: once for the process, whichever thread asks first (the others wait under pthread_once). */
void builtins_open(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, open_once);
}

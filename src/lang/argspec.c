/* argspec.c - a builtin's arguments bound from its one declaration, the signature string of its Builtin entry
 * (prefix args_), as Python's Argument Clinic binds from its declaration: the signature help prints is also the
 * list of parameters, so the keyword names are written once. The grammar is Python's:
 *
 *   signature -> form { " / " form }
 *   form      -> [receiver.][module.]name ( [param {, param}] )
 *   param     -> name [= default] | / | * | *name | **name | name[, param...] | [param...]
 *
 * A method's declaration is written on its receiver ("module.train(mode=True)") or as Python writes it, self first
 * ("d2l.DataModule.__init__(self, root='../data')"): a first parameter named self is the receiver, not a parameter.
 * A tensor's method is written on X ("X.view(*size)", "torch.reshape(input, shape) / X.reshape(*shape)"): args_bind
 * and args_bind_form bind such a form to the arguments after a->pos[0], X, and count no X in its errors, as
 * PyTorch's C++ parser does ("new_full() takes 2 positional arguments but 3 were given", "new_full() missing 1
 * required positional arguments: "fill_value"").
 *
 * `/` ends the positional-only parameters, `*` starts the keyword-only ones, `*name` takes the remaining positional
 * arguments (and, as PyTorch's `size`, the keyword `name`), `**name` lets other keywords through (the body reads
 * them with arg()). A default's text is not read: only whether there is one.
 *
 * Python's help writes some C functions with their optional parameters in brackets, and the declaration may too: a
 * bracket right after a name, "s.find(sub[, start[, end]])", is PyArg_ParseTuple's (its words count by the bare name,
 * "find() takes at least 1 argument (0 given)"); a bracketed group, "math.log(x, [base=math.e])", is Argument
 * Clinic's optional group ("math.log requires 1 to 2 arguments"). Both are positional-only. A function of one of
 * Python's own modules other than builtins is named with its module in CPython's words ("math.sqrt() takes exactly
 * one argument (0 given)").
 *
 * A tensor method written with a lone `/`, "X.detach(/)", is one of PyTorch's C methods that takes nothing
 * (METH_NOARGS): bound by args_bind_method on "_TensorBase", it gets CPython's words, "_TensorBase.detach() takes no
 * arguments (1 given)".
 *
 * Overloads are several forms, as help shows them: "range(stop, /) / range(start, stop, step=1, /)". args_bind binds
 * the first form only; args_bind_form tries the forms in order and says which one bound (the body's slots are that
 * form's parameters); when none binds, the error is that of the last form that takes as many positional arguments
 * as were given (else of the form that takes the most): "torch.arange(start, end, step=1, *, ...) /
 * torch.arange(end, *, ...)" says arange() misses "end", or takes 3 positional arguments but 4 were given; for
 * Python's own functions the count of all the forms together ("range expected at most 3 arguments, got 4").
 *
 * The words of the TypeErrors follow what the declaration declares:
 *  - a class of PyTorch or d2l (nn.LayerNorm): Python's words for its __init__, counting self;
 *  - a method of a Python class (args_bind_method: nn.Module's train, d2l's Module.plot), declared on its receiver
 *    ("module.train(mode=True)", self not written): Python's words for a method, qualified by the class that defines
 *    it and counting self, "Module.train() takes from 1 to 2 positional arguments but 3 were given";
 *    A module's forward (ObjClass.call, self not among the arguments) binds the same way from a declaration of its
 *    own (args_bind_call: "module.forward(input)", a Builtin that is in no table), "ReLU.forward() takes 2
 *    positional arguments but 3 were given";
 *  - torch.X (module "torch"): PyTorch's C++ wording of a missing argument;
 *  - Python's own functions and types (Library.python_own: the python table and the language's own), every
 *    parameter positional-only (a `/` after the last one, as Python's help writes len(obj, /)): CPython's C-level
 *    words, "len() takes no keyword arguments", "len() takes exactly one argument (2 given)" for a function of one
 *    required parameter (METH_O), otherwise "divmod expected 2 arguments, got 1", "range expected at least 1
 *    argument, got 0"; those that take keywords (pow(base, exp, mod=None), print(*values, sep=' ', ...)): Argument
 *    Clinic's, "pow() missing required argument 'exp' (pos 2)", "'foo' is an invalid keyword argument for print()",
 *    "int() takes at most 2 arguments (3 given)";
 *  - anything else: a Python function's words. */
#include "interp.h"
#include "library.h"
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One parameter of a signature: its name (a slice of the signature text) and how it binds. */
typedef struct Param {
    const char *name;
    int len;
    bool has_default, posonly, kwonly, varargs, varkw;
} Param;

/* One form of a declaration. */
typedef struct Params {
    Param p[ARGS_MAX_PARAMS];
    int n;                 /* named parameters, in order (slots of args_bind's out) */
    int npositional;       /* how many of them a positional argument can fill (before *, *name) */
    int nrequired;         /* how many of those have no default */
    int varargs;           /* the slot of *name, or -1 */
    bool varkw;            /* **name: unknown keywords pass */
    bool all_posonly;      /* every named parameter before `/` and no keyword-only one (or no parameter at all) */
    bool slash;            /* the form writes a `/` */
    bool receiver;         /* a tensor method's form, "X.view(*size)": a function's a->pos[0] is X, no parameter */
    bool tuple_brackets;   /* "s.find(sub[, start[, end]])": optional parameters in brackets after a name, as Python's
                            * help writes a C function parsed by PyArg_ParseTuple (its words: parsetuple_count) */
    bool group;            /* "math.log(x, [base=math.e])": an optional group, Argument Clinic's (its words too) */
} Params;

/* A builtin's declaration: its forms and the wording of its errors. */
typedef struct Spec {
    Params form[ARGS_MAX_FORMS];
    int nforms;
    bool is_class;         /* the builtin is a class of PyTorch's or d2l's (its errors are its __init__'s) */
    bool is_type;          /* one of Python's own types (list, float, reversed): words its count as "expected" */
    bool torch_style;      /* a C++ function of torch (PyTorch's wording of a missing argument) */
    bool cpython;          /* one of Python's own, positional-only: CPython's C words (cpython_check) */
    bool clinic;           /* one of Python's own that takes keywords: Argument Clinic's words (bind_form) */
    bool python_own;       /* one of Python's own functions, types or methods (list.append): Library.python_own */
} Spec;

/* The end of the parameter starting at s: the next comma or closing parenthesis outside brackets and quotes, or
 * the '[' of an optional part right after the parameter's name ("sub[, start[, end]]"). */
static const char *param_end(const char *s) {
    const char *start = s;
    int depth = 0;
    for (; *s; s++) {
        if (*s == '\'' || *s == '"') {
            char q = *s++;
            while (*s && *s != q) s++;
            if (!*s) return s;
        } else if (*s == '[' && depth == 0 && s > start && (s[-1] == '_' || isalnum((unsigned char)s[-1]))) {
            return s;                            /* "sub[, start]": the optional marker after a name, not a default */
        } else if (*s == '(' || *s == '[' || *s == '{') depth++;
        else if ((*s == ')' || *s == ']' || *s == '}') && depth-- == 0) return s;
        else if (*s == ',' && depth == 0) return s;
    }
    return s;
}

/* Parses the parameters of the form starting at sig into ps; the text after the form's closing parenthesis, or
 * NULL when sig has no parenthesis or more than ARGS_MAX_PARAMS parameters (a declaration attn's own tests catch:
 * test_lang test_args_bind parses every builtin's). */
static const char *params_parse(const char *sig, Params *ps) {
    memset(ps, 0, sizeof *ps);
    ps->varargs = -1;
    const char *s = strchr(sig, '(');
    while (s && s[1] == ')' && s[2] == '.') s = strchr(s + 2, '(');   /* a receiver that is a call: "d.keys().isdisjoint(" */
    if (!s) return NULL;
    bool kwonly = false, slash_last = false, seen_any = false, optional = false;
    for (s++; *s && *s != ')'; seen_any = true) {
        while (*s == ' ' || *s == '[' || *s == ']' || (optional && *s == ',')) {
            if (*s == '[') {                     /* "sub[, start": PyArg_ParseTuple's; ", [base": a Clinic group */
                if (s[-1] == ' ' || s[-1] == '(') ps->group = true; else ps->tuple_brackets = true;
                optional = true;
            }
            s++;
        }
        if (*s == ')') break;
        const char *end = param_end(s);
        int stars = 0;
        while (s[stars] == '*') stars++;
        const char *name = s + stars;
        int len = 0;
        while (name + len < end && name[len] != '=' && name[len] != ':' && name[len] != ' ' && name[len] != ']') len++;
        slash_last = false;
        if (stars == 0 && len == 1 && name[0] == '/') {
            for (int i = 0; i < ps->n; i++) ps->p[i].posonly = true;
            slash_last = true;
        } else if (stars == 1 && len == 0) {
            kwonly = true;
        } else if (ps->n == 0 && !seen_any && stars == 0 && len == 4 && !strncmp(name, "self", 4)) {
            /* a method written as Python writes it (d2l.DataModule.__init__(self, root=...)): self is the receiver */
        } else if (len > 0) {
            if (ps->n == ARGS_MAX_PARAMS) return NULL;
            Param *p = &ps->p[ps->n];
            *p = (Param){.name = name, .len = len, .has_default = optional || memchr(name, '=', (size_t)(end - name)) != NULL,
                         .posonly = false, .kwonly = kwonly && stars == 0, .varargs = stars == 1, .varkw = stars == 2};
            if (p->varargs) { ps->varargs = ps->n; kwonly = true; }
            if (p->varkw) ps->varkw = true;
            else {
                if (!kwonly || p->varargs) {
                    ps->npositional += !p->varargs;
                    ps->nrequired += !p->varargs && !p->has_default;
                }
                ps->n++;
            }
        }
        s = *end == ',' ? end + 1 : end;
    }
    if (*s != ')') return NULL;
    if (optional)                                /* the bracketed forms are positional-only, as their C functions */
        for (int i = 0; i < ps->n; i++) ps->p[i].posonly = !ps->p[i].varargs;
    /* every parameter positional-only: len(obj, /), map(f, it, /, *its), dict(pairs=(), /, **kwargs) (its keywords
     * pass, CPython counts the positional ones) */
    ps->all_posonly = true;
    for (int i = 0; i < ps->n; i++) ps->all_posonly = ps->all_posonly && (ps->p[i].posonly || ps->p[i].varargs);
    ps->slash = slash_last;
    ps->receiver = !strncmp(sig, "X.", 2);
    return s + 1;
}

/* Parses every form of sig into sp (forms separated by " / " after a closing parenthesis); false as params_parse. */
static bool spec_parse(const char *sig, Spec *sp) {
    sp->nforms = 0;
    for (const char *s = sig;;) {
        if (sp->nforms == ARGS_MAX_FORMS) return false;
        s = params_parse(s, &sp->form[sp->nforms]);
        if (!s) return false;
        sp->nforms++;
        if (strncmp(s, " / ", 3)) return true;
        s += 3;
    }
}

/* The declarations of each builtin an interpreter has called, parsed once: an open-addressing table keyed by the
 * Builtin's address (entries live as long as the program). Per interpreter, so no file-scope state. */
struct ArgSpecs {
    const Builtin **keys;
    Spec *vals;
    size_t cap, n;
};

static size_t spec_slot(const struct ArgSpecs *s, const Builtin *b) {
    size_t i = (size_t)(((uintptr_t)b >> 3) * 2654435761u) & (s->cap - 1);
    while (s->keys[i] && s->keys[i] != b) i = (i + 1) & (s->cap - 1);
    return i;
}

/* b's declaration (kept in I->argspecs), or NULL when its signature cannot be read. */
static const Spec *spec_of(Interp *I, const Builtin *b) {
    struct ArgSpecs *s = I->argspecs;
    if (!s) s = I->argspecs = xcalloc(1, sizeof *s);
    if (s->cap) {
        size_t i = spec_slot(s, b);
        if (s->keys[i]) return &s->vals[i];
    }
    Spec sp;
    if (!spec_parse(b->signature, &sp)) return NULL;
    const char *cls_module = NULL;               /* Python's own types (enumerate) word their errors as functions */
    bool type = lib()->type_module(b, &cls_module);
    sp.is_class = type && strcmp(cls_module, "builtins") != 0;
    sp.is_type = type && !sp.is_class;
    sp.torch_style = b->module && !strcmp(b->module, "torch");   /* F.X are Python functions in PyTorch */
    bool own = lib()->python_own && lib()->python_own(b);
    /* a tensor method declared "X.detach(/)" is a C method of PyTorch's _TensorBase (METH_NOARGS): CPython's words */
    own = own || (sp.nforms == 1 && sp.form[0].receiver && sp.form[0].slash && sp.form[0].n == 0);
    sp.cpython = own;
    for (int f = 0; f < sp.nforms; f++) sp.cpython = sp.cpython && sp.form[f].all_posonly;
    sp.clinic = own && !sp.cpython;
    sp.python_own = own;
    if (2 * (s->n + 1) > s->cap) {               /* grow to keep the table at most half full */
        struct ArgSpecs old = *s;
        s->cap = old.cap ? 2 * old.cap : 64;
        s->keys = xcalloc(s->cap, sizeof *s->keys);
        s->vals = xcalloc(s->cap, sizeof *s->vals);
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i]) {
                size_t j = spec_slot(s, old.keys[i]);
                s->keys[j] = old.keys[i];
                s->vals[j] = old.vals[i];
            }
        free(old.keys);
        free(old.vals);
    }
    size_t i = spec_slot(s, b);
    s->keys[i] = b;
    s->vals[i] = sp;
    s->n++;
    return &s->vals[i];
}

void args_specs_free(struct ArgSpecs *s) {
    if (!s) return;
    free(s->keys);
    free(s->vals);
    free(s);
}

int args_param_count(const char *signature) {
    Spec sp;
    if (!spec_parse(signature, &sp)) return -1;
    int n = 0;
    for (int f = 0; f < sp.nforms; f++) n = sp.form[f].n > n ? sp.form[f].n : n;
    return n;
}

bool args_param_name(const char *signature, int i, char *out, size_t n) {
    Params ps;
    if (!params_parse(signature, &ps) || i < 0 || i >= ps.n || (size_t)ps.p[i].len >= n) return false;
    memcpy(out, ps.p[i].name, (size_t)ps.p[i].len);
    out[ps.p[i].len] = 0;
    return true;
}

static bool param_is(const Param *p, const char *name) { return (int)strlen(name) == p->len && !strncmp(p->name, name, (size_t)p->len); }

/* Python's TypeError for the required parameters no argument filled: "f() missing 1 required positional argument:
 * 'x'", "... 2 required positional arguments: 'a' and 'b'", "... 3 ...: 'a', 'b', and 'c'"; for PyTorch's C++
 * functions (torch.X: torch_style) PyTorch's own wording, "tensor() missing 1 required positional arguments:
 * "data"". */
static bool missing_error(Interp *I, const char *fname, const Params *ps, Value *const *out, bool kwonly, bool torch_style) {
    int k = 0, n = 0;
    for (int i = 0; i < ps->n; i++) n += !out[i] && !ps->p[i].has_default && !ps->p[i].varargs && ps->p[i].kwonly == kwonly;
    if (!n) return true;
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < ps->n; i++) {
        if (out[i] || ps->p[i].has_default || ps->p[i].varargs || ps->p[i].kwonly != kwonly) continue;
        const char *q = torch_style ? "\"" : "'";
        sb_printf(&b, "%s%s%.*s%s", k == 0 ? "" : k + 1 < n ? ", " : n == 2 ? " and " : ", and ", q, ps->p[i].len, ps->p[i].name, q);
        k++;
    }
    rt_raise(I, "TypeError", "%s() missing %d required %s argument%s: %s", fname, n, kwonly ? "keyword-only" : "positional",
             n == 1 && !torch_style ? "" : "s", sb_str(&b));
    sb_free(&b);
    return false;
}

/* Too many positional arguments, in Python's words: "zeros_() takes 1 positional argument but 2 were given",
 * "uniform_() takes from 1 to 3 positional arguments but 4 were given"; for a class's __init__ or a method
 * (self_counted) self is counted, "LayerNorm.__init__() takes from 2 to 4 positional arguments but 5 were given";
 * PyTorch's C++ functions (torch_style) name only the most they take, "full_like() takes 2 positional arguments but
 * 3 were given". */
static void too_many_error(Interp *I, const char *fname, const Params *ps, int given, bool self_counted, bool torch_style) {
    int lo = self_counted, hi = ps->npositional + self_counted;
    for (int i = 0; i < ps->npositional; i++) lo += !ps->p[i].has_default;
    given += self_counted;
    if (torch_style) {                           /* PyTorch's min_args: every required parameter, keyword-only too */
        lo = 0;
        for (int i = 0; i < ps->n; i++) lo += !ps->p[i].has_default && !ps->p[i].varargs;
    }
    if (lo == hi)
        rt_raise(I, "TypeError", "%s() takes %d positional argument%s but %d %s given", fname, hi, hi == 1 ? "" : "s", given,
                 given == 1 ? "was" : "were");
    else
        rt_raise(I, "TypeError", "%s() takes from %d to %d positional arguments but %d were given", fname, lo, hi, given);
}

/* CPython's own check of a C function's arguments (the declaration's forms are all positional-only): keywords are
 * refused, then the count over all the forms (a type of two forms of fixed counts counts first: "type() takes 1 or
 * 3 arguments"). false with the TypeError raised when the arguments do not fit. */
static bool cpython_check(Interp *I, const char *fname, const char *bare, const Spec *sp, int nforms, const Args *a) {
    int lo = ARGS_MAX_PARAMS, hi = 0;
    bool varkw = false, brackets = false, group = false;
    for (int f = 0; f < nforms; f++) {
        if (sp->form[f].nrequired < lo) lo = sp->form[f].nrequired;
        if (sp->form[f].npositional > hi) hi = sp->form[f].npositional;
        if (sp->form[f].varargs >= 0) hi = INT32_MAX;
        varkw = varkw || sp->form[f].varkw;
        brackets = brackets || sp->form[f].tuple_brackets;
        group = group || sp->form[f].group;
    }
    bool two_counts = nforms == 2 && sp->is_type;   /* type(object, /) / type(name, bases, dict, /): its count first */
    for (int f = 0; f < nforms; f++)
        two_counts = two_counts && sp->form[f].varargs < 0 && sp->form[f].nrequired == sp->form[f].npositional;
    if (two_counts && a->npos != sp->form[0].npositional && a->npos != sp->form[1].npositional) {
        rt_raise(I, "TypeError", "%s() takes %d or %d arguments", fname, sp->form[0].npositional, sp->form[1].npositional);
        return false;
    }
    if (a->nkw && !varkw) {                      /* dict(pairs, /, **kwargs) takes them; a Clinic group names it bare */
        rt_raise(I, "TypeError", "%s() takes no keyword arguments", group ? bare : fname);
        return false;
    }
    if (a->npos >= lo && a->npos <= hi) return true;
    if (brackets)                                /* PyArg_ParseTuple's count, by the bare name: str.find */
        rt_raise(I, "TypeError", "%s() takes %s %d argument%s (%d given)", bare, lo == hi ? "exactly" : a->npos < lo ? "at least" : "at most",
                 a->npos < lo ? lo : hi, (a->npos < lo ? lo : hi) == 1 ? "" : "s", a->npos);
    else if (group)                              /* Argument Clinic's optional group: "math.log requires 1 to 2 arguments" */
        rt_raise(I, "TypeError", "%s requires %d to %d arguments", fname, lo, hi);
    else if (lo == 1 && hi == 1 && !sp->is_type)      /* METH_O: len, abs, repr, hash, list.append */
        rt_raise(I, "TypeError", "%s() takes exactly one argument (%d given)", fname, a->npos);
    else if (hi == 0)                            /* METH_NOARGS: list.copy */
        rt_raise(I, "TypeError", "%s() takes no arguments (%d given)", fname, a->npos);
    else {                                       /* Argument Clinic's count, by the bare name: "insert expected ..." */
        int n = a->npos < lo ? lo : hi;
        rt_raise(I, "TypeError", "%s expected %s%d argument%s, got %d", bare, lo == hi ? "" : a->npos < lo ? "at least " : "at most ",
                 n, n == 1 ? "" : "s", a->npos);
    }
    return false;
}

/* Argument Clinic's words for a missing argument of one of Python's own functions that take keywords: the first
 * one, "pow() missing required argument 'exp' (pos 2)"; a positional-only one is counted, "sum() takes at least 1
 * positional argument (0 given)". false (raised) when one is missing; npos: the positional arguments given. */
static bool clinic_missing(Interp *I, const char *fname, const Params *ps, Value *const *out, bool is_type, int npos) {
    for (int i = 0; i < ps->n; i++)
        if (!out[i] && !ps->p[i].has_default && !ps->p[i].varargs) {
            int minpos = 0;
            while (minpos < ps->n && ps->p[minpos].posonly && !ps->p[minpos].has_default) minpos++;
            if (ps->p[i].posonly)
                rt_raise(I, "TypeError", "%s() takes %s %d positional argument%s (%d given)", fname,
                         minpos < ps->npositional ? "at least" : "exactly", minpos, minpos == 1 ? "" : "s", npos);
            else if (is_type)                         /* a type's own constructor (enumerate) names no position */
                rt_raise(I, "TypeError", "%s() missing required argument '%.*s'", fname, ps->p[i].len, ps->p[i].name);
            else
                rt_raise(I, "TypeError", "%s() missing required argument '%.*s' (pos %d)", fname, ps->p[i].len, ps->p[i].name, i + 1);
            return false;
        }
    return true;
}

/* Binds a to form ps into out (nout slots, cleared first); raise: whether a failure raises its TypeError (false
 * when another form is tried next); w: the words of its errors (self_counted: Python's for a class's __init__ or a
 * method, self counted; torch_style: PyTorch's C++ words for a missing argument; clinic: CPython's Argument
 * Clinic's, is_type: for one of Python's types). */
typedef struct Words {
    bool self_counted, torch_style, clinic, is_type;
    bool x_first;          /* a->pos[0] is a tensor method's X (not taken off by args_bind_method) */
    bool x_method;         /* a->pos[0] is X of a method call (X.addmm(...)): PyTorch counts no X in its errors */
} Words;

static bool bind_form(Interp *I, const char *fname, const Params *ps, Args *a, Value **out, int nout, bool raise, const Words *w) {
    Args after_x;                                /* a tensor method's arguments after X */
    if (ps->receiver && w->x_first && a->npos > 0) {
        after_x = *a;
        after_x.pos++;
        after_x.npos--;
        a = &after_x;
    }
    bool self_counted = w->self_counted, torch_style = w->torch_style, clinic = w->clinic;
    for (int i = 0; i < nout; i++) out[i] = NULL;
    if (clinic && ps->varargs < 0 && !ps->varkw && (a->npos > ps->npositional || a->npos + a->nkw > ps->n)) {
        if (raise && a->npos + a->nkw > ps->n)   /* Argument Clinic counts every argument first */
            rt_raise(I, "TypeError", "%s() takes %s %d argument%s (%d given)", fname, ps->nrequired == ps->n ? "exactly" : "at most",
                     ps->n, ps->n == 1 ? "" : "s", a->npos + a->nkw);
        else if (raise && ps->npositional == 0)  /* then the positional ones: list.sort(*, key=None, reverse=False) */
            rt_raise(I, "TypeError", "%s() takes no positional arguments", fname);
        else if (raise)
            rt_raise(I, "TypeError", "%s() takes %s %d positional argument%s (%d given)", fname,
                     ps->nrequired == ps->npositional ? "exactly" : "at most", ps->npositional, ps->npositional == 1 ? "" : "s", a->npos);
        return false;
    }
    if (a->npos > ps->npositional && ps->varargs < 0) {
        if (raise && w->x_method && !ps->receiver) {   /* X.addmm(...) bound to torch.addmm(input, ...): X not counted */
            Params less = *ps;
            memmove(less.p, less.p + 1, sizeof *less.p * (size_t)(--less.n));
            less.npositional--;
            too_many_error(I, fname, &less, a->npos - 1, false, true);
        } else if (raise) too_many_error(I, fname, ps, a->npos, self_counted, torch_style);
        return false;
    }
    for (int i = 0; i < a->npos && i < ps->n && (i < ps->npositional || i == ps->varargs); i++) out[i] = a->pos[i];
    for (int k = 0; k < a->nkw; k++) {
        int j = 0;
        while (j < ps->n && (ps->p[j].posonly || !param_is(&ps->p[j], a->kwnames[k]))) j++;
        if (j == ps->n) {
            if (ps->varkw) continue;
            if (raise && clinic) rt_raise(I, "TypeError", "'%s' is an invalid keyword argument for %s()", a->kwnames[k], fname);
            else if (raise) rt_raise(I, "TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[k]);
            return false;
        }
        if (out[j]) {
            if (raise && clinic)
                rt_raise(I, "TypeError", "argument for %s() given by name ('%s') and position (%d)", fname, a->kwnames[k], j + 1);
            else if (raise) rt_raise(I, "TypeError", "%s() got multiple values for argument '%s'", fname, a->kwnames[k]);
            return false;
        }
        out[j] = a->kwvals[k];
    }
    if (!raise) {
        for (int i = 0; i < ps->n; i++)
            if (!out[i] && !ps->p[i].has_default && !ps->p[i].varargs) return false;
        return true;
    }
    if (clinic) return clinic_missing(I, fname, ps, out, w->is_type, a->npos);
    bool cpp_words = torch_style || a == &after_x;   /* a tensor method's missing argument in PyTorch's C++ words */
    if (torch_style && ps->n > 0 && param_is(&ps->p[0], "input") && out[0] && out[0]->kind != V_TENSOR && a->npos > 0
        && a->pos[0] == out[0] && !w->x_method) {
        /* PyTorch's parser checks each argument's type in order before it finds a later one missing: torch.matmul([1.])
         * is about its input, not the missing other */
        for (int i = 1; i < ps->n; i++)
            if (!out[i] && !ps->p[i].has_default && !ps->p[i].varargs) {
                arg_not_tensor(I, a, out[0], "input", ARG_TENSOR);
                return false;
            }
    }
    return missing_error(I, fname, ps, out, false, cpp_words) && missing_error(I, fname, ps, out, true, cpp_words);
}

/* Which form's TypeError an overloaded call that fits none gets: the last form that takes that many positional
 * arguments (its missing or unexpected argument is the news), else the form that takes the most. */
static int error_form(const Spec *sp, int nforms, int npos) {
    int most = 0;
    for (int f = nforms - 1; f >= 0; f--) {
        const Params *ps = &sp->form[f];
        if (npos - ps->receiver <= ps->npositional || ps->varargs >= 0) return f;
        if (ps->npositional > sp->form[most].npositional) most = f;
    }
    return most;
}

/* Does CPython count this form's positional arguments first, in its own words (_PyArg_CheckPositional), before it
 * parses the keyword-only ones? "sorted(iterable, /, *, key=None, reverse=False)": every positional parameter
 * positional-only and required, and keyword-only ones after. */
static bool counts_positional_first(const Params *ps) {
    bool kwonly = false;
    for (int i = 0; i < ps->n; i++) {
        if (i < ps->npositional && !ps->p[i].posonly) return false;
        kwonly = kwonly || ps->p[i].kwonly;
    }
    return kwonly && ps->npositional > 0 && ps->nrequired == ps->npositional && ps->varargs < 0;
}

/* PyTorch's print_error for a declaration of several forms that none fits: the form whose count of parameters
 * (min_args, every required one, to max_args, all of them) holds the number of arguments given, when that is one
 * form, raises its own error (*which); otherwise "received an invalid combination of arguments" (false). */
static bool torch_plausible(const Spec *sp, int nforms, const Args *a, bool x_method, int *which) {
    int given = a->npos + a->nkw, found = -1, count = 0;
    for (int f = 0; f < nforms; f++) {
        const Params *ps = &sp->form[f];
        int lo = 0, hi = ps->n;
        for (int i = 0; i < ps->n; i++) lo += !ps->p[i].has_default && !ps->p[i].varargs;
        int g = given - ((ps->receiver || x_method) && a->npos > 0);   /* X is not among PyTorch's arguments */
        if ((g >= lo && g <= hi) || ps->varargs >= 0) { found = f; count++; }
    }
    if (count != 1) return false;
    *which = found;
    return true;
}

/* The binding of every args_bind*: the first form only (all_forms false) or each in turn; owner: the class that
 * defines the method, NULL for a function; self_first: a->pos[0] is self, bound to no parameter. */
static int bind(Interp *I, Args *a, Value **out, int nout, bool all_forms, const char *owner, bool self_first, bool x_method) {
    const char *fname = a->fname ? a->fname : a->fn ? a->fn->name : "function";
    const Spec *sp = a->fn ? spec_of(I, a->fn) : NULL;
    if (self_first && a->npos < 1) {
        rt_error(I, "%s(): called without its object", fname);
        return -1;
    }
    Args shifted = *a;                           /* a method's arguments after self */
    char qual[96];                               /* Python's words name a method by its qualified name */
    if (owner && a->fn) {
        if (self_first) {
            shifted.pos++;
            shifted.npos--;
        }
        snprintf(qual, sizeof qual, "%s.%s", owner, a->fn->name);
        fname = sp && sp->clinic && sp->python_own ? a->fn->name : qual;   /* Clinic names a method bare: splitlines() */
        a = &shifted;
    }
    int nforms = sp ? all_forms ? sp->nforms : 1 : 0;
    for (int f = 0; f < nforms && sp; f++)
        if (sp->form[f].n > nout) sp = NULL;
    if (!sp) {
        rt_error(I, "%s(): attn cannot read the parameters of its declaration", fname);
        return -1;
    }
    char init[96];
    bool qualified = sp->python_own && !owner && !sp->is_class && !sp->is_type && !sp->form[0].receiver && a->fn->module
                     && a->fn->module[0];
    if (qualified) {                             /* a C function of a module other than builtins: math.sqrt() */
        snprintf(init, sizeof init, "%s.%s", a->fn->module, a->fn->name);
        fname = init;
    } else if (sp->is_class && !owner) {                /* a class's parameters are its __init__'s: LayerNorm.__init__() */
        snprintf(init, sizeof init, "%s.__init__", a->fn->name);
        fname = init;
    }
    Words w = {.self_counted = (sp->is_class || owner) && !sp->python_own, .torch_style = sp->torch_style && !owner, .clinic = sp->clinic,
               .is_type = sp->is_type, .x_first = !self_first, .x_method = x_method};
    if (sp->cpython && (!owner || sp->python_own) && !cpython_check(I, fname, owner || qualified ? a->fn->name : fname, sp, nforms, a)) return -1;
    if (sp->clinic && nforms == 1 && counts_positional_first(&sp->form[0]) && a->npos != sp->form[0].npositional) {
        int n = sp->form[0].npositional;         /* "sorted expected 1 argument, got 0" */
        rt_raise(I, "TypeError", "%s expected %d argument%s, got %d", owner ? a->fn->name : fname, n, n == 1 ? "" : "s", a->npos);
        return -1;
    }
    for (int f = 0; f + 1 < nforms; f++)
        if (bind_form(I, fname, &sp->form[f], a, out, nout, false, &w)) return f;
    int last = nforms - 1;
    if (nforms > 1 && !bind_form(I, fname, &sp->form[last], a, out, nout, false, &w)) {
        if (sp->torch_style && !torch_plausible(sp, nforms, a, x_method, &last)) {
            arg_no_overload(I, a);
            return -1;
        }
        if (!sp->torch_style) last = error_form(sp, nforms, a->npos);
    }
    return bind_form(I, fname, &sp->form[last], a, out, nout, true, &w) ? last : -1;
}

bool args_bind(Interp *I, Args *a, Value **out, int nout) { return bind(I, a, out, nout, false, NULL, false, false) >= 0; }

int args_bind_form(Interp *I, Args *a, Value **out, int nout) { return bind(I, a, out, nout, true, NULL, false, false); }

bool args_bind_method(Interp *I, Args *a, const char *owner, Value **out, int nout) {
    return bind(I, a, out, nout, false, owner, true, false) >= 0;
}

bool args_bind_call(Interp *I, Args *a, const Builtin *decl, const char *owner, Value **out, int nout) {
    Args b = *a;
    b.fn = decl;
    return bind(I, &b, out, nout, false, owner, false, false) >= 0;
}

/* Does the tensor method X.NAME take nothing after X, as PyTorch's C methods of one Tensor parameter (METH_NOARGS)?
 * Declared "X.dim(/)", or called as a method through a torch function of the input alone ("torch.exp(input)"). */
static bool takes_nothing(const Spec *sp, bool method) {
    if (sp->nforms != 1) return false;
    const Params *ps = &sp->form[0];
    if (ps->receiver) return ps->slash && ps->n == 0;
    return method && ps->n == 1 && ps->npositional == 1 && !ps->varkw && param_is(&ps->p[0], "input");
}

/* Does some form of sp take a's arguments by count and keyword name (missing arguments aside: the body says which
 * is missing after it checked the types of those given, as PyTorch's parser does)? */
static bool some_form_takes(const Spec *sp, const Args *a, bool method) {
    for (int f = 0; f < sp->nforms; f++) {
        const Params *ps = &sp->form[f];
        int npos = a->npos - (ps->receiver && (method || a->npos > 0));
        bool ok = npos <= ps->npositional || ps->varargs >= 0;
        for (int k = 0; ok && k < a->nkw; k++) {
            int j = 0;
            while (j < ps->n && (ps->p[j].posonly || !param_is(&ps->p[j], a->kwnames[k]))) j++;
            ok = ps->varkw || (j < ps->n && (j >= npos || j == ps->varargs || j >= ps->npositional));
        }
        if (ok) return true;
    }
    return false;
}

/* PyTorch's Tensor methods written in Python (torch/_tensor.py): their bodies bind them with Python's words. */
static bool python_tensor_method(const char *name) {
    static const char *const names[] = {"backward", "norm", "split", "unflatten", "unique", "register_hook"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) if (!strcmp(names[i], name)) return true;
    return false;
}

bool args_check(Interp *I, Args *a, bool method) {
    const Builtin *b = a->fn;
    if (!b || !b->module || (strcmp(b->module, "torch") && strcmp(b->module, "F") && strcmp(b->module, "X"))) return true;
    if (method && python_tensor_method(b->name)) return true;
    const Spec *sp = spec_of(I, b);
    if (!sp) return true;                        /* a declaration attn cannot read: the body's own checks */
    const Params *p0 = &sp->form[0];
    if (!method && sp->nforms == 1 && !p0->receiver && p0->slash && !strcmp(b->module, "torch") && p0->n <= 1) {
        /* a C function of torch's own module declared positional-only, "torch.get_default_dtype(/)" (METH_NOARGS) or
         * "torch.set_num_threads(int, /)" (METH_O): CPython's words, qualified by the module */
        if (a->nkw) rt_raise(I, "TypeError", "torch.%s() takes no keyword arguments", b->name);
        else if (p0->n == 0 && a->npos) rt_raise(I, "TypeError", "torch.%s() takes no arguments (%d given)", b->name, a->npos);
        else if (p0->n == 1 && a->npos != 1)
            rt_raise(I, "TypeError", "torch.%s() takes exactly one argument (%d given)", b->name, a->npos);
        else return true;
        return false;
    }
    int nargs = a->npos - (method || (p0->receiver && a->npos > 0)) + a->nkw;
    Value *out[ARGS_MAX_PARAMS];
    if (lib()->overloaded && lib()->overloaded(b, method || sp->form[0].receiver, nargs)) {
        /* PyTorch declares it several ways and none or several take nargs: any call that fits no form of attn's is
         * its "invalid combination", a missing argument too */
        for (int f = 0; f < sp->nforms; f++)
            if (bind_form(I, b->name, &sp->form[f], a, out, ARGS_MAX_PARAMS, false,
                          &(Words){.self_counted = false, .torch_style = true, .clinic = false, .is_type = false,
                                   .x_first = true, .x_method = method}))
                return true;
        arg_no_overload(I, a);
        return false;
    }
    if (!takes_nothing(sp, method) && (sp->nforms == 1 || !sp->torch_style) && some_form_takes(sp, a, method)) return true;
    if (takes_nothing(sp, method)) {
        int given = a->npos - (method || sp->form[0].receiver);
        if (a->nkw) rt_raise(I, "TypeError", "_TensorBase.%s() takes no keyword arguments", b->name);
        else if (given > 0) rt_raise(I, "TypeError", "_TensorBase.%s() takes no arguments (%d given)", b->name, given);
        return !a->nkw && given <= 0;
    }
    const char *fname = a->fname;
    a->fname = b->name;
    bool ok = bind(I, a, out, ARGS_MAX_PARAMS, true, NULL, false, method) >= 0;
    a->fname = fname;
    return ok;
}

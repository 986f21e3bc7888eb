/* argspec.c - a builtin's arguments bound from its one declaration, the signature string of its Builtin entry
 * (prefix args_), as Python's Argument Clinic binds from its declaration: the signature help prints is also the
 * list of parameters, so the keyword names are written once. The grammar is Python's:
 *
 *   signature -> [module.]name ( [param {, param}] )
 *   param     -> name [= default] | / | * | *name | **name
 *
 * `/` ends the positional-only parameters, `*` starts the keyword-only ones, `*name` takes the remaining positional
 * arguments (and, as PyTorch's `size`, the keyword `name`), `**name` lets other keywords through (the body reads
 * them with arg()). A default's text is not read: only whether there is one. */
#include "interp.h"
#include "library.h"
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

typedef struct Params {
    Param p[ARGS_MAX_PARAMS];
    int n;                 /* named parameters, in order (slots of args_bind's out) */
    int npositional;       /* how many of them a positional argument can fill (before *, *name) */
    int varargs;           /* the slot of *name, or -1 */
    bool varkw;            /* **name: unknown keywords pass */
    bool is_class;         /* the builtin is a class of PyTorch's or d2l's (its errors are its __init__'s) */
    bool torch_style;      /* a C++ function of torch (PyTorch's wording of a missing argument) */
} Params;

/* The end of the parameter starting at s: the next comma or closing parenthesis outside brackets and quotes. */
static const char *param_end(const char *s) {
    int depth = 0;
    for (; *s; s++) {
        if (*s == '\'' || *s == '"') {
            char q = *s++;
            while (*s && *s != q) s++;
            if (!*s) return s;
        } else if (*s == '(' || *s == '[' || *s == '{') depth++;
        else if ((*s == ')' || *s == ']' || *s == '}') && depth-- == 0) return s;
        else if (*s == ',' && depth == 0) return s;
    }
    return s;
}

/* Parses the parameters of sig into ps; false when sig has no parenthesis or more than ARGS_MAX_PARAMS of them (a
 * declaration attn's own tests catch: test_lang test_args_bind parses every builtin's). */
static bool params_parse(const char *sig, Params *ps) {
    memset(ps, 0, sizeof *ps);
    ps->varargs = -1;
    const char *s = strchr(sig, '(');
    if (!s) return false;
    bool kwonly = false;
    for (s++; *s && *s != ')';) {
        while (*s == ' ') s++;
        const char *end = param_end(s);
        int stars = 0;
        while (s[stars] == '*') stars++;
        const char *name = s + stars;
        int len = 0;
        while (name + len < end && name[len] != '=' && name[len] != ':' && name[len] != ' ') len++;
        if (stars == 0 && len == 1 && name[0] == '/') {
            for (int i = 0; i < ps->n; i++) ps->p[i].posonly = true;
        } else if (stars == 1 && len == 0) {
            kwonly = true;
        } else if (len > 0) {
            if (ps->n == ARGS_MAX_PARAMS) return false;
            Param *p = &ps->p[ps->n];
            *p = (Param){.name = name, .len = len, .has_default = memchr(name, '=', (size_t)(end - name)) != NULL,
                         .posonly = false, .kwonly = kwonly && stars == 0, .varargs = stars == 1, .varkw = stars == 2};
            if (p->varargs) { ps->varargs = ps->n; kwonly = true; }
            if (p->varkw) ps->varkw = true;
            else { if (!kwonly || p->varargs) ps->npositional += !p->varargs; ps->n++; }
        }
        s = *end == ',' ? end + 1 : end;
    }
    return true;
}

/* The parameters of each builtin an interpreter has called, parsed once: an open-addressing table keyed by the
 * Builtin's address (entries live as long as the program). Per interpreter, so no file-scope state. */
struct ArgSpecs {
    const Builtin **keys;
    Params *vals;
    size_t cap, n;
};

static size_t spec_slot(const struct ArgSpecs *s, const Builtin *b) {
    size_t i = (size_t)(((uintptr_t)b >> 3) * 2654435761u) & (s->cap - 1);
    while (s->keys[i] && s->keys[i] != b) i = (i + 1) & (s->cap - 1);
    return i;
}

/* b's parameters (kept in I->argspecs), or NULL when its signature cannot be read. */
static const Params *params_of(Interp *I, const Builtin *b) {
    struct ArgSpecs *s = I->argspecs;
    if (!s) s = I->argspecs = xcalloc(1, sizeof *s);
    if (s->cap) {
        size_t i = spec_slot(s, b);
        if (s->keys[i]) return &s->vals[i];
    }
    Params ps;
    if (!params_parse(b->signature, &ps)) return NULL;
    const char *cls_module = NULL;               /* Python's own types (enumerate) word their errors as functions */
    ps.is_class = lib()->type_module(b, &cls_module) && strcmp(cls_module, "builtins") != 0;
    ps.torch_style = b->module && !strcmp(b->module, "torch");   /* F.X are Python functions in PyTorch */
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
    s->vals[i] = ps;
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
    Params ps;
    return params_parse(signature, &ps) ? ps.n : -1;
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

/* Too many positional arguments. For a class (nn.LayerNorm, d2l.PositionalEncoding) Python's own words, which count
 * self: "LayerNorm.__init__() takes from 2 to 4 positional arguments but 5 were given"; for a function the words
 * attn's tests pin: "zeros_like() takes at most 1 positional argument but 2 were given". */
static void too_many_error(Interp *I, const char *fname, const Params *ps, int given, bool is_class) {
    if (!is_class) {
        rt_raise(I, "TypeError", "%s() takes at most %d positional argument%s but %d were given", fname, ps->npositional,
                 ps->npositional == 1 ? "" : "s", given);
        return;
    }
    int lo = 1, hi = ps->npositional + 1;
    for (int i = 0; i < ps->npositional; i++) lo += !ps->p[i].has_default;
    given++;
    if (lo == hi)
        rt_raise(I, "TypeError", "%s() takes %d positional argument%s but %d %s given", fname, hi, hi == 1 ? "" : "s", given,
                 given == 1 ? "was" : "were");
    else
        rt_raise(I, "TypeError", "%s() takes from %d to %d positional arguments but %d were given", fname, lo, hi, given);
}

bool args_bind(Interp *I, Args *a, Value **out, int nout) {
    const char *fname = a->fname ? a->fname : a->fn ? a->fn->name : "function";
    const Params *pp = a->fn ? params_of(I, a->fn) : NULL;
    if (!pp || pp->n > nout) {
        rt_error(I, "%s(): attn cannot read the parameters of its declaration", fname);
        return false;
    }
    const Params *ps = pp;
    bool is_class = ps->is_class;
    char init[96];
    if (is_class) {                              /* a class's parameters are its __init__'s: LayerNorm.__init__() */
        snprintf(init, sizeof init, "%s.__init__", a->fn->name);
        fname = init;
    }
    for (int i = 0; i < nout; i++) out[i] = NULL;
    if (a->npos > ps->npositional && ps->varargs < 0) {
        too_many_error(I, fname, ps, a->npos, is_class);
        return false;
    }
    for (int i = 0; i < a->npos && i < ps->n && (i < ps->npositional || i == ps->varargs); i++) out[i] = a->pos[i];
    for (int k = 0; k < a->nkw; k++) {
        int j = 0;
        while (j < ps->n && (ps->p[j].posonly || !param_is(&ps->p[j], a->kwnames[k]))) j++;
        if (j == ps->n) {
            if (ps->varkw) continue;
            rt_raise(I, "TypeError", "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[k]);
            return false;
        }
        if (out[j]) {
            rt_raise(I, "TypeError", "%s() got multiple values for argument '%s'", fname, a->kwnames[k]);
            return false;
        }
        out[j] = a->kwvals[k];
    }
    bool torch_style = ps->torch_style;
    return missing_error(I, fname, ps, out, false, torch_style) && missing_error(I, fname, ps, out, true, torch_style);
}

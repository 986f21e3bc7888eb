/* complete.c - what Tab completes, at the prompt (lineedit.c) and in a Jupyter kernel (frames.c): the names of the
 * current session, attn's functions, modules and keywords, and after "a.b." the attributes of what a.b names. Nothing
 * runs to find them (a property is never called). */
#include "repl.h"
#include "builtins.h"
#include "strbuf.h"
#include "ops.h"
#include <stdlib.h>
#include <string.h>

const char repl_word_breaks[] = " \t\n\"\\'`@$><=;|&{([,+-*/%";

static const char *keywords[] = {"for", "in", "if", "else", "elif", "while", "def", "return", "print", "range",
                                 "lambda", "True", "False", "None", "and", "or", "not", NULL};

/* Candidates for the word being completed: after "obj." the attributes of obj, else every name. */
static char **candidates;
static int ncand, capcand;      /* filled by repl_completions, then handed to its caller */

static void add_cand(const char *prefix, const char *name, const char *text) {
    size_t pl = strlen(prefix);
    char buf[512];
    snprintf(buf, sizeof buf, "%s%s", prefix, name);
    if (strncmp(buf, text, strlen(text)) != 0) return;
    (void)pl;
    for (int i = 0; i < ncand; i++) if (!strcmp(candidates[i], buf)) return;
    if (ncand == capcand) { capcand = capcand ? capcand * 2 : 64; candidates = xrealloc(candidates, sizeof(char *) * (size_t)capcand); }
    candidates[ncand++] = xstrdup(buf);
}


/* The value "a.b.c" names, looked up without running anything: a variable or a module, then attributes of objects
 * (attention.attention) and submodules (torch.nn). A new reference, or NULL. */
static Value *resolve_chain(Interp *I, const char *chain) {
    char part[256];
    size_t k = strcspn(chain, ".");
    if (k >= sizeof part) return NULL;
    memcpy(part, chain, k);
    part[k] = 0;
    if (!I) return NULL;                 /* no session being typed into: nothing to look in, no heap to make values in */
    Value *v = interp_lookup(I, part);
    if (v) v = val_incref(v);
    else if ((v = builtins_constant(I->run.heap, part)) && v->kind != V_MODULE) { val_decref(v); v = NULL; }   /* torch, nn, F ... */
    while (v && chain[k] == '.') {
        chain += k + 1;
        k = strcspn(chain, ".");
        if (k >= sizeof part) { val_decref(v); return NULL; }
        memcpy(part, chain, k);
        part[k] = 0;
        Value *next = NULL;
        if ((next = ops_attr_peek(v, part))) next = val_incref(next);       /* what dir(v) shows, nothing hidden */
        else if (v->kind == V_MODULE && (next = builtins_module_attr(I->run.heap, v->u.module, part)) && next->kind != V_MODULE) {
            val_decref(next);        /* torch.nn is a module to complete in; torch.zeros is not */
            next = NULL;
        }
        val_decref(v);
        v = next;
    }
    return v;
}

static const char *completing_prefix, *completing_text;

static void add_attr(void *ctx, const char *name) {
    (void)ctx;
    /* as Python's rlcompleter: "x." offers no _names, "x._" no __names (dir() lists object's dunders too) */
    const char *typed = completing_text + strlen(completing_prefix);
    if (name[0] == '_' && typed[0] != '_') return;
    if (name[0] == '_' && name[1] == '_' && typed[1] != '_' && typed[0]) return;
    add_cand(completing_prefix, name, completing_text);
}

/* Candidates for `text` (into candidates, which must be empty): after "a.b." the attributes of what a.b names (any depth), else every name. */
static void build_candidates(Interp *I, const char *text) {
    int n;
    const char *dot = strrchr(text, '.');
    if (dot) {
        char obj[512];
        size_t k = (size_t)(dot - text);
        if (k >= sizeof obj - 1) return;
        memcpy(obj, text, k);
        obj[k] = 0;
        Value *v = resolve_chain(I, obj);
        if (!v) return;
        obj[k] = '.';
        obj[k + 1] = 0;
        completing_prefix = obj;
        completing_text = text;
        ops_attr_names(I, v, false, add_attr, NULL);      /* a Tab press runs no student code */
        val_decref(v);
        return;
    }
    if (I) {
        Dict *g = &I->globals;
        for (int i = 0; i < g->n; i++) add_cand("", g->keys[i]->u.str.s, text);
    }
    const Builtin *const *all = builtins_all(&n);
    for (int i = 0; i < n; i++) if (all[i]->name[0] != '_' && builtins_is_bare(all[i])) add_cand("", all[i]->name, text);
    const char *mods[] = {"torch", "d2l", "nn", "math", NULL};
    for (int i = 0; mods[i]; i++) add_cand("", mods[i], text);
    for (int i = 0; keywords[i]; i++) add_cand("", keywords[i], text);
}

int repl_completions(Session *S, const char *text, char ***out) {
    candidates = NULL;
    ncand = capcand = 0;
    build_candidates(S ? &S->I : NULL, text);
    *out = candidates;
    int n = ncand;
    candidates = NULL;
    ncand = capcand = 0;
    return n;
}

/* ast.c - syntax tree nodes. */
#include "ast.h"
#include "strbuf.h"
#include <stdlib.h>
#include <string.h>

Node *ast_new(NodeKind k, int line, int col) {
    Node *n = xcalloc(1, sizeof *n);
    n->kind = k;
    n->line = line;
    n->col = col;
    return n;
}

void ast_add(Node *p, Node *kid) {
    p->kids = xrealloc(p->kids, sizeof(Node *) * (size_t)(p->nkids + 1));
    p->kids[p->nkids++] = kid;
    if (kid && kid->height + 1 > p->height) p->height = kid->height + 1;
}

void ast_free(Node *n) {
    if (!n) return;
    for (int i = 0; i < n->nkids; i++) ast_free(n->kids[i]);
    free(n->kids);
    free(n->str);
    free(n);
}

const char *ast_op_symbol(int op) {
    static const char *s[] = {"+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>", "-", "+", "~",
                              "==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"};
    return op >= 0 && op < (int)(sizeof s / sizeof *s) ? s[op] : "?";
}

Node *ast_clone(const Node *n) {
    if (!n) return NULL;
    Node *c = ast_new(n->kind, n->line, n->col);
    c->op = n->op;
    c->ival = n->ival;
    c->fval = n->fval;
    if (n->str) {
        c->str = xmalloc(n->slen + strlen(n->str) + 1);
        size_t len = n->slen > strlen(n->str) ? n->slen : strlen(n->str);
        memcpy(c->str, n->str, len + 1);
        c->slen = n->slen;
    }
    for (int i = 0; i < n->nkids; i++) ast_add(c, ast_clone(n->kids[i]));
    return c;
}

/* A def's or class's docstring: the string statement its body opens with, or NULL. */
static const Node *docstring_of(const Node *n) {
    if ((n->kind != N_DEF && n->kind != N_CLASS) || n->nkids < 2 || !n->kids[1] || !n->kids[1]->nkids) return NULL;
    const Node *first = n->kids[1]->kids[0];
    return first && first->kind == N_EXPR_STMT && first->nkids && first->kids[0] && first->kids[0]->kind == N_STR ? first : NULL;
}

static size_t str_len(const Node *n) { return n->slen > strlen(n->str) ? n->slen : strlen(n->str); }

static bool same(const Node *a, const Node *b, const Node *skip_a, const Node *skip_b);

/* The kids of a and b, the docstring statements skip_a / skip_b left out. */
static bool same_kids(const Node *a, const Node *b, const Node *skip_a, const Node *skip_b) {
    int i = 0, j = 0;
    for (;;) {
        while (i < a->nkids && skip_a && a->kids[i] == skip_a) i++;
        while (j < b->nkids && skip_b && b->kids[j] == skip_b) j++;
        if (i == a->nkids || j == b->nkids) return i == a->nkids && j == b->nkids;
        if (!same(a->kids[i], b->kids[j], NULL, NULL)) return false;
        i++, j++;
    }
}

/* d2l.zeros and torch.zeros: the Japanese and Chinese editions write d2l.zeros, d2l.arange ... where the English
 * one writes torch.: the same function (d2l's torch.py binds them to torch's). */
static bool d2l_alias(const Node *a, const Node *b) {
    static const char *const names[] = {"zeros", "ones", "arange", "tensor", "sin", "cos", "exp", "log", "matmul",
                                        "float32", "int32", "concat", "stack", "reshape", "eye", "linspace", "tanh", NULL};
    if (a->kind != N_ATTR || b->kind != N_ATTR || !a->str || !b->str || strcmp(a->str, b->str)) return false;
    if (a->nkids != 1 || b->nkids != 1 || !a->kids[0] || !b->kids[0]) return false;
    const Node *x = a->kids[0], *y = b->kids[0];
    if (x->kind != N_NAME || y->kind != N_NAME || !x->str || !y->str) return false;
    bool mods = (!strcmp(x->str, "d2l") || !strcmp(x->str, "torch")) && (!strcmp(y->str, "d2l") || !strcmp(y->str, "torch"));
    for (int i = 0; mods && names[i]; i++) if (!strcmp(a->str, names[i])) return true;
    return false;
}

static bool same(const Node *a, const Node *b, const Node *skip_a, const Node *skip_b) {
    if (!a || !b) return a == b;
    if (d2l_alias(a, b)) return true;
    if (a->kind != b->kind || a->op != b->op || a->ival != b->ival || a->fval != b->fval) return false;
    if (!a->str != !b->str) return false;
    if (a->str && (str_len(a) != str_len(b) || memcmp(a->str, b->str, str_len(a)))) return false;
    if (a->kind == N_DEF || a->kind == N_CLASS) {       /* the body's docstring, if any, is left out */
        if (a->nkids != b->nkids) return false;
        for (int k = 0; k < a->nkids; k++) {
            bool body = k == 1 && a->kids[1] && b->kids[1];
            if (body ? !same_kids(a->kids[1], b->kids[1], docstring_of(a), docstring_of(b))
                     : !same(a->kids[k], b->kids[k], NULL, NULL)) return false;
        }
        return true;
    }
    return same_kids(a, b, skip_a, skip_b);
}

bool ast_same_code(const Node *a, const Node *b) { return same(a, b, NULL, NULL); }

/* The first pair of kids of a and b (leaving out skip_a / skip_b, a body's docstring statement) that differ, into
 * *da and *db; true when there is one or when one has more kids than the other (then *da, *db stay a and b). */
static bool kids_differ(const Node *a, const Node *b, const Node *skip_a, const Node *skip_b, const Node **da, const Node **db) {
    int i = 0, j = 0;
    for (;;) {
        while (i < a->nkids && skip_a && a->kids[i] == skip_a) i++;
        while (j < b->nkids && skip_b && b->kids[j] == skip_b) j++;
        if (i == a->nkids || j == b->nkids) return i != a->nkids || j != b->nkids;
        if (ast_first_difference(a->kids[i], b->kids[j], da, db)) return true;
        i++, j++;
    }
}

bool ast_first_difference(const Node *a, const Node *b, const Node **da, const Node **db) {
    if (same(a, b, NULL, NULL)) return false;
    if (a) *da = a;         /* a missing part: the enclosing node stays */
    if (b) *db = b;
    if (!a || !b || a->kind != b->kind || a->op != b->op || a->ival != b->ival || a->fval != b->fval) return true;
    if (!a->str != !b->str || (a->str && strcmp(a->str, b->str))) return true;
    if ((a->kind == N_DEF || a->kind == N_CLASS) && a->nkids == b->nkids) {     /* the body without its docstring */
        for (int k = 0; k < a->nkids; k++) {
            bool body = k == 1 && a->kids[1] && b->kids[1];
            if (body ? kids_differ(a->kids[1], b->kids[1], docstring_of(a), docstring_of(b), da, db)
                     : ast_first_difference(a->kids[k], b->kids[k], da, db)) return true;
        }
        *da = a;
        *db = b;
        return true;
    }
    if (kids_differ(a, b, NULL, NULL, da, db)) return true;
    *da = a;
    *db = b;
    return true;
}

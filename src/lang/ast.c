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

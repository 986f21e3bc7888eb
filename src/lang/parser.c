/* parser.c - recursive descent with one precedence table for binary operators (as Lua's lparser.c).
 *
 *   program    -> { stmt } EOF
 *   stmt       -> for | while | if | def | class | decorated | with | simple { ';' simple } [';'] NEWLINE
 *   with       -> 'with' test ['as' target] { ',' test ['as' target] } ':' suite
 *   decorated  -> { '@' test NEWLINE } (def | class)
 *   simple     -> pass | break | continue | return [testlist] | import ... | from ... | del targets
 *               | testlist [ augop testlist | { '=' testlist } ]
 *   suite      -> simple_stmts | NEWLINE INDENT { stmt } DEDENT
 *   test       -> or_test [ 'if' or_test 'else' test ] | lambda
 *   or/and/not -> boolean operators;  comparison -> binary { compop binary }
 *   binary     -> unary { binop binary }      (| ^ & << >> + - * / // % @, by priority)
 *   unary      -> ('-' | '+' | '~') unary | power;   power -> postfix [ '**' unary ]
 *   postfix    -> atom { '(' args ')' | '[' subscripts ']' | '.' NAME }
 */
#include "parser.h"
#include "lexer.h"
#include "strbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 200

typedef struct Parser {
    TokenList tl;
    int pos;
    int depth;              /* parse functions open (brackets and prefixes), at most MAX_NESTING */
    int base;               /* the evaluator's depth when it parses inside a statement (timeit): the tree gets the rest */
    bool failed, incomplete;
    char msg[256];
    int line, col;
} Parser;

static Node *test(Parser *p);
static Node *binary(Parser *p, int min_prio);
static Node *testlist(Parser *p, bool allow_star);
static Node *stmt(Parser *p);
static Node *suite(Parser *p);

static Token *peek(Parser *p) { return &p->tl.toks[p->pos]; }
static Token *peek2(Parser *p) { return &p->tl.toks[p->pos + 1 < p->tl.n ? p->pos + 1 : p->pos]; }
static Token *next(Parser *p) {
    Token *t = peek(p);
    if (t->kind != T_EOF) p->pos++;
    return t;
}

static Node *fail_at(Parser *p, Token *t, const char *fmt, ...) {
    if (p->failed) return NULL;
    p->failed = true;
    if (t->kind == T_ERROR) {
        snprintf(p->msg, sizeof p->msg, "%s", t->sval);
    } else {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->msg, sizeof p->msg, fmt, ap);
        va_end(ap);
    }
    p->line = t->line;
    p->col = t->col;
    if (t->kind == T_EOF || p->tl.incomplete) p->incomplete = true;
    /* A block header whose body has not come yet: NEWLINE then EOF/DEDENT only. */
    if (t->kind == T_NEWLINE || t->kind == T_DEDENT) {
        int i = p->pos;
        while (i < p->tl.n && (p->tl.toks[i].kind == T_NEWLINE || p->tl.toks[i].kind == T_DEDENT)) i++;
        if (i < p->tl.n && p->tl.toks[i].kind == T_EOF && p->pos > 0 && lex_is_op(&p->tl.toks[p->pos - 1], ":"))
            p->incomplete = true;
    }
    return NULL;
}

static Node *fail_near(Parser *p, Token *t) {
    if (t->kind == T_NEWLINE || t->kind == T_EOF) return fail_at(p, t, "invalid syntax: the line ends too early");
    if (t->kind == T_INDENT) return fail_at(p, t, "unexpected indent");
    if (t->kind == T_DEDENT) return fail_at(p, t, "invalid syntax near the end of a block");
    return fail_at(p, t, "invalid syntax near '%.*s'", (int)(t->len > 40 ? 40 : t->len), t->start);
}

static bool accept_op(Parser *p, const char *op) {
    if (lex_is_op(peek(p), op)) { next(p); return true; }
    return false;
}
static bool expect_op(Parser *p, const char *op) {
    if (accept_op(p, op)) return true;
    Token *t = peek(p);
    if (t->kind == T_NEWLINE || t->kind == T_EOF) fail_at(p, t, "'%s' expected before the end of the line", op);
    else fail_at(p, t, "'%s' expected, found '%.*s'", op, (int)(t->len > 40 ? 40 : t->len), t->start);
    return false;
}
static bool accept_name(Parser *p, const char *kw) {
    if (lex_is_name(peek(p), kw)) { next(p); return true; }
    return false;
}

static const char *keywords[] = {"and", "or", "not", "in", "is", "if", "else", "elif", "for", "while", "def",
                                 "return", "lambda", "pass", "break", "continue", "import", "from", "del",
                                 "class", "None", "True", "False", "with", "as", "try", "except", "finally", "raise", "yield", NULL};
static bool is_keyword(const Token *t) {
    for (int i = 0; keywords[i]; i++) if (lex_is_name(t, keywords[i])) return true;
    return false;
}

static Node *node_at(NodeKind k, const Token *t) { return ast_new(k, t->line, t->col); }

static bool enter(Parser *p) {
    if (++p->depth > MAX_NESTING) {
        fail_at(p, peek(p), "expression nested too deeply (more than %d levels)", MAX_NESTING);
        return false;
    }
    return true;
}

/* n, or NULL (n freed, the error set) when the tree it tops is taller than what is left of AST_MAX_DEPTH: a chain
 * (f()()..., a.b.c..., x[0][0]..., 1+1+..., 2**2**...) builds a tree one level per link without the parser
 * recursing, and every walk over the tree recurses once per level. Called where a node grows in a loop. */
static Node *bounded(Parser *p, Node *n) {
    if (n && (n->height > AST_MAX_DEPTH || p->base + n->height > INTERP_MAX_DEPTH)) {
        int line = n->line, col = n->col, room = n->height > AST_MAX_DEPTH ? AST_MAX_DEPTH : INTERP_MAX_DEPTH - p->base;
        ast_free(n);
        fail_at(p, peek(p), "maximum recursion depth exceeded during compilation: the statement nests more than %d levels deep", room);
        p->line = line;                  /* the link where the chain went too deep */
        p->col = col;
        return NULL;
    }
    return n;
}

static void shift_positions(Node *n, int dline, int dcol, int first_line) {
    if (!n) return;
    if (n->line == first_line) n->col += dcol;
    n->line += dline;
    for (int i = 0; i < n->nkids; i++) shift_positions(n->kids[i], dline, dcol, first_line);
}

static Node *fstring_body(Parser *p, Token *t, const char *s, const char *end, int body_col, int depth);

/* f'...{expr!r:spec}...' -> N_FSTR whose kids are N_STR parts and N_FMT(expr) nodes. */
static Node *fstring(Parser *p, Token *t) {
    /* column of the body: after the prefix letters and opening quote(s) */
    const char *body_in_src = t->start;
    while (*body_in_src != '\'' && *body_in_src != '"') body_in_src++;
    int qlen = (body_in_src[1] == body_in_src[0] && body_in_src[2] == body_in_src[0] && t->len >= 6) ? 3 : 1;
    return fstring_body(p, t, t->sval, t->sval + t->slen, t->col + (int)(body_in_src - t->start) + qlen, 0);
}

/* The text [s, end) of an f-string (its body, or a format spec with {fields} in it, f'{x:>{w}}') whose first
 * character is in column body_col of token t's line (depth 1 for a spec: its fields can have no such spec). A field
 * {expr=} (Python 3.8) writes its source text and '=' before the value, the value's repr unless a conversion or a
 * spec says otherwise. */
static Node *fstring_body(Parser *p, Token *t, const char *s, const char *end, int body_col, int depth) {
    Node *fs = node_at(N_FSTR, t);
    StrBuf lit;
    sb_init(&lit);
    const char *q = s;
    while (q < end) {
        if (*q == '{' && q + 1 < end && q[1] == '{') { sb_putc(&lit, '{'); q += 2; continue; }
        if (*q == '}' && q + 1 < end && q[1] == '}') { sb_putc(&lit, '}'); q += 2; continue; }
        if (*q == '\\' && !t->raw && q + 2 < end && q[1] == 'N' && q[2] == '{') {     /* \N{NAME}: a character */
            const char *c = memchr(q, '}', (size_t)(end - q));
            const char *stop = c ? c + 1 : end;
            sb_putn(&lit, q, (size_t)(stop - q));
            q = stop;
            continue;
        }
        if (*q == '\\' && !t->raw && q + 1 < end && q[1] == '\\') { sb_putn(&lit, q, 2); q += 2; continue; }   /* \\ */
        if (*q == '}') { sb_free(&lit); ast_free(fs); return fail_at(p, t, "f-string: single '}' is not allowed (write '}}')"); }
        if (*q != '{') { sb_putc(&lit, *q++); continue; }
        if (lit.len) {
            Node *sn = node_at(N_STR, t);
            const char *bad;
            sn->str = lex_decode(lit.s, lit.s + lit.len, t->raw, &sn->slen, &bad);
            ast_add(fs, sn);
            sb_clear(&lit);
            if (bad) { sb_free(&lit); ast_free(fs); return fail_at(p, t, bad); }
        }
        const char *e0 = q + 1, *e = e0, *self_doc = NULL;
        int nest = 0;
        char inq = 0;
        while (e < end) {
            if (inq) { if (*e == inq) inq = 0; e++; continue; }
            if (*e == '\'' || *e == '"') { inq = *e++; continue; }
            if (*e == '(' || *e == '[' || *e == '{') nest++;
            else if ((*e == ')' || *e == ']' || *e == '}') && nest > 0) nest--;
            else if (nest == 0 && (*e == '}' || *e == ':' || (*e == '!' && e[1] != '='))) break;
            else if (nest == 0 && *e == '=' && e[1] != '=' && e > e0 && !strchr("=!<>:", e[-1])) {
                const char *after = e + 1;         /* {x=} or {x = }: the '=' then only spaces before } ! or : */
                while (after < end && *after == ' ') after++;
                if (after < end && (*after == '}' || *after == ':' || *after == '!')) { self_doc = e; e = after; break; }
            }
            e++;
        }
        if (e >= end) { sb_free(&lit); ast_free(fs); return fail_at(p, t, "f-string: expecting '}'"); }
        if (self_doc) {                            /* the source text, '=' and the spaces around, as written */
            Node *sn = node_at(N_STR, t);
            sn->slen = (size_t)(e - (q + 1));
            sn->str = xstrndup(q + 1, sn->slen);
            ast_add(fs, sn);
        }
        while (e0 < e && (*e0 == ' ' || *e0 == '\t')) e0++;     /* f"{ x }": spaces before x are no indent */
        char *code = xstrndup(e0, (size_t)((self_doc ? self_doc : e) - e0));
        int conv = 0;
        char *spec = NULL;
        Node *dyn_spec = NULL;
        if (*e == '!') {
            if (e + 1 < end && (e[1] == 'r' || e[1] == 's' || e[1] == 'a')) { conv = e[1]; e += 2; }
            else { free(code); sb_free(&lit); ast_free(fs); return fail_at(p, t, "f-string: expecting 'r', 's' or 'a' after '!'"); }
        }
        if (*e == ':') {
            const char *s0 = ++e;
            int nn = 0;
            while (e < end && (*e != '}' || nn > 0)) { if (*e == '{') nn++; if (*e == '}') nn--; e++; }
            spec = xstrndup(s0, (size_t)(e - s0));
            /* a spec with {fields} of its own (f'{x:>{width}}') is an f-string, formatted before the value */
            if (memchr(s0, '{', (size_t)(e - s0)) && depth > 0) {
                free(code); free(spec); sb_free(&lit); ast_free(fs);
                return fail_at(p, t, "f-string: expressions nested too deeply");
            }
            if (memchr(s0, '{', (size_t)(e - s0)) && !(dyn_spec = fstring_body(p, t, s0, e, body_col + (int)(s0 - s), 1))) {
                free(code); free(spec); sb_free(&lit); ast_free(fs);
                return NULL;
            }
        }
        if (self_doc && !conv && !spec) conv = 'r';        /* {x=}: repr(x) */
        if (e >= end || *e != '}') { free(code); free(spec); ast_free(dyn_spec); sb_free(&lit); ast_free(fs); return fail_at(p, t, "f-string: expecting '}'"); }
        ParseResult r = parse_program(code, 1);
        if (!r.tree || r.tree->nkids != 1 || r.tree->kids[0]->kind != N_EXPR_STMT) {
            Token et = *t;
            et.col = body_col + (int)(e0 - s);
            ast_free(r.tree);
            free(code); free(spec); ast_free(dyn_spec); sb_free(&lit); ast_free(fs);
            return fail_at(p, &et, "f-string: invalid expression inside {}%s%s", r.tree ? "" : ": ", r.tree ? "" : r.msg);
        }
        Node *expr = r.tree->kids[0]->kids[0];
        r.tree->kids[0]->kids[0] = NULL;
        ast_free(r.tree);
        shift_positions(expr, t->line - 1, body_col + (int)(e0 - s) - 1, 1);
        Node *fmt = node_at(N_FMT, t);
        fmt->op = conv;
        fmt->str = spec;
        ast_add(fmt, expr);
        if (dyn_spec) ast_add(fmt, dyn_spec);             /* kid 1: the spec to evaluate */
        ast_add(fs, fmt);
        free(code);
        q = e + 1;
    }
    if (lit.len || fs->nkids == 0) {
        Node *sn = node_at(N_STR, t);
        const char *bad;
        sn->str = lex_decode(lit.s ? lit.s : "", (lit.s ? lit.s : "") + lit.len, t->raw, &sn->slen, &bad);
        ast_add(fs, sn);
        if (bad) { sb_free(&lit); ast_free(fs); return fail_at(p, t, bad); }
    }
    sb_free(&lit);
    return fs;
}

/* Adjacent string literals concatenate ('a' 'b'); an f-string among them makes the result an f-string. */
static Node *strings(Parser *p) {
    Token *first = peek(p);
    Node *acc = NULL;
    while (peek(p)->kind == T_STRING) {
        Token *t = next(p);
        Node *part;
        if (t->fstring) { if (!(part = fstring(p, t))) { ast_free(acc); return NULL; } }
        else {
            part = node_at(N_STR, t);
            part->str = xmalloc(t->slen + 1);
            memcpy(part->str, t->sval, t->slen + 1);
            part->slen = t->slen;
        }
        if (!acc) { acc = part; continue; }
        if (acc->kind == N_STR && part->kind == N_STR) {
            acc->str = xrealloc(acc->str, acc->slen + part->slen + 1);
            memcpy(acc->str + acc->slen, part->str, part->slen + 1);
            acc->slen += part->slen;
            ast_free(part);
            continue;
        }
        Node *fs = acc->kind == N_FSTR ? acc : node_at(N_FSTR, first);
        if (fs != acc) ast_add(fs, acc);
        if (part->kind == N_FSTR) {
            for (int i = 0; i < part->nkids; i++) ast_add(fs, part->kids[i]);
            part->nkids = 0;
            ast_free(part);
        } else ast_add(fs, part);
        acc = fs;
    }
    return acc;
}

/* comp_for -> 'for' targets 'in' or_test { 'if' or_test } ; appended to a N_LISTCOMP node (op 'd': a dict
 * comprehension, whose first two kids are the key and the value) */
static Node *or_test(Parser *p);
static Node *target_list(Parser *p);
static bool comp_clauses(Parser *p, Node *lc) {
    while (lex_is_name(peek(p), "for")) {
        Token *ft = next(p);
        Node *cf = node_at(N_COMPFOR, ft);
        Node *tg = target_list(p);
        if (!tg) { ast_free(cf); return false; }
        ast_add(cf, tg);
        if (!accept_name(p, "in")) { ast_free(cf); fail_at(p, peek(p), "'in' expected in the comprehension"); return false; }
        Node *it = or_test(p);
        if (!it) { ast_free(cf); return false; }
        ast_add(cf, it);
        while (lex_is_name(peek(p), "if")) {
            next(p);
            Node *c = or_test(p);
            if (!c) { ast_free(cf); return false; }
            ast_add(cf, c);
        }
        ast_add(lc, cf);
    }
    return true;
}

/* star_test -> ['*'] test : an element of a list, tuple or set display, where '*x' splices x's items in (as
 * Python's starred unpacking); an N_STAR node around the expression, which eval_seq and the set display unpack. */
static Node *star_test(Parser *p) {
    Token *t = peek(p);
    if (!accept_op(p, "*")) return test(p);
    Node *st = node_at(N_STAR, t);
    Node *v = test(p);
    if (!v) { ast_free(st); return NULL; }
    ast_add(st, v);
    return st;
}

/* A starred element cannot be a comprehension's element: Python's message for [*x for ...]. */
static bool no_star_comp(Parser *p, Node *first) {
    if (first->kind != N_STAR || !lex_is_name(peek(p), "for")) return true;
    fail_at(p, peek(p), "iterable unpacking cannot be used in comprehension");
    return false;
}

static Node *atom(Parser *p) {
    Token *t = peek(p);
    switch (t->kind) {
    case T_INT: { next(p); Node *n = node_at(N_INT, t); n->ival = t->ival; return n; }
    case T_FLOAT: { next(p); Node *n = node_at(N_FLOAT, t); n->fval = t->fval; return n; }
    case T_STRING: return strings(p);
    case T_NAME: {
        if (lex_is_name(t, "None")) { next(p); return node_at(N_NONE, t); }
        if (lex_is_name(t, "True")) { next(p); return node_at(N_TRUE, t); }
        if (lex_is_name(t, "False")) { next(p); return node_at(N_FALSE, t); }
        if (is_keyword(t)) return fail_at(p, t, "invalid syntax: '%.*s' is a keyword here", (int)t->len, t->start);
        next(p);
        Node *n = node_at(N_NAME, t);
        n->str = xstrndup(t->start, t->len);
        return n;
    }
    case T_OP:
        if (lex_is_op(t, "...")) { next(p); return node_at(N_ELLIPSIS, t); }
        if (lex_is_op(t, "(")) {
            next(p);
            if (accept_op(p, ")")) return node_at(N_TUPLE, t);
            Node *first = star_test(p);
            if (!first) return NULL;
            if (!no_star_comp(p, first)) { ast_free(first); return NULL; }
            if (first->kind == N_STAR && lex_is_op(peek(p), ")")) {
                ast_free(first);
                return fail_at(p, t, "cannot use starred expression here");
            }
            if (lex_is_name(peek(p), "for")) {       /* generator expression (op 'g'): lazy, as Python's */
                Node *lc = node_at(N_LISTCOMP, t);
                lc->op = 'g';
                ast_add(lc, first);
                if (!comp_clauses(p, lc) || !expect_op(p, ")")) { ast_free(lc); return NULL; }
                return lc;
            }
            if (accept_op(p, ")")) return first;     /* parenthesised expression */
            Node *tup = node_at(N_TUPLE, t);
            ast_add(tup, first);
            while (accept_op(p, ",")) {
                if (lex_is_op(peek(p), ")")) break;
                Node *e = star_test(p);
                if (!e) { ast_free(tup); return NULL; }
                ast_add(tup, e);
            }
            if (!expect_op(p, ")")) { ast_free(tup); return NULL; }
            return tup;
        }
        if (lex_is_op(t, "[")) {
            next(p);
            Node *lst = node_at(N_LIST, t);
            if (accept_op(p, "]")) return lst;
            Node *first = star_test(p);
            if (!first) { ast_free(lst); return NULL; }
            if (!no_star_comp(p, first)) { ast_free(first); ast_free(lst); return NULL; }
            if (lex_is_name(peek(p), "for")) {
                Node *lc = node_at(N_LISTCOMP, t);
                ast_add(lc, first);
                ast_free(lst);
                if (!comp_clauses(p, lc) || !expect_op(p, "]")) { ast_free(lc); return NULL; }
                return lc;
            }
            ast_add(lst, first);
            while (accept_op(p, ",")) {
                if (lex_is_op(peek(p), "]")) break;
                Node *e = star_test(p);
                if (!e) { ast_free(lst); return NULL; }
                ast_add(lst, e);
            }
            if (!expect_op(p, "]")) { ast_free(lst); return NULL; }
            return lst;
        }
        if (lex_is_op(t, "{")) {
            next(p);
            Node *d = node_at(N_DICT, t);
            while (!lex_is_op(peek(p), "}")) {
                Token *kt = peek(p);
                if (d->op != 's' && accept_op(p, "**")) {                /* {**m, ...}: m's items merged in */
                    Node *ds = node_at(N_DSTAR, kt);
                    Node *m = binary(p, 1);
                    if (!m) { ast_free(ds); ast_free(d); return NULL; }
                    ast_add(ds, m);
                    ast_add(d, ds);
                    ast_add(d, NULL);                                    /* no value: kids stay in pairs */
                    if (lex_is_name(peek(p), "for")) {
                        fail_at(p, peek(p), "dict unpacking cannot be used in dict comprehension");
                        ast_free(d);
                        return NULL;
                    }
                    if (!accept_op(p, ",")) break;
                    continue;
                }
                Node *k = star_test(p);
                if (!k) { ast_free(d); return NULL; }
                ast_add(d, k);
                if (!no_star_comp(p, k)) { ast_free(d); return NULL; }
                if (k->kind == N_STAR && d->op != 's' && (d->nkids > 1 || lex_is_op(peek(p), ":"))) {
                    ast_free(d);
                    return fail_near(p, kt);
                }
                if (d->nkids == 1 && lex_is_name(peek(p), "for")) {      /* {x for ...}: a set comprehension */
                    Node *sc = node_at(N_LISTCOMP, t);
                    sc->op = 's';
                    ast_add(sc, k);
                    d->nkids = 0;
                    ast_free(d);
                    if (!comp_clauses(p, sc) || !expect_op(p, "}")) { ast_free(sc); return NULL; }
                    return sc;
                }
                if (d->op == 's' || (d->nkids == 1 && (lex_is_op(peek(p), ",") || lex_is_op(peek(p), "}")))) {
                    d->op = 's';                                         /* {a, b}: a set display */
                    if (!accept_op(p, ",")) break;
                    continue;
                }
                if (!expect_op(p, ":")) { ast_free(d); return NULL; }
                Node *v = test(p);
                if (!v) { ast_free(d); return NULL; }
                ast_add(d, v);
                if (d->nkids == 2 && lex_is_name(peek(p), "for")) {     /* {k: v for ...}: kids key, value, clauses */
                    Node *dc = node_at(N_LISTCOMP, t);
                    dc->op = 'd';
                    ast_add(dc, d->kids[0]);
                    ast_add(dc, d->kids[1]);
                    d->nkids = 0;
                    ast_free(d);
                    if (!comp_clauses(p, dc) || !expect_op(p, "}")) { ast_free(dc); return NULL; }
                    return dc;
                }
                if (!accept_op(p, ",")) break;
            }
            if (!expect_op(p, "}")) { ast_free(d); return NULL; }
            return d;
        }
        break;
    default: break;
    }
    return fail_near(p, t);
}

/* subscript -> test | [test] ':' [test] [':' [test]] */
static Node *subscript(Parser *p) {
    Token *t = peek(p);
    Node *lo = NULL;
    if (!lex_is_op(t, ":")) {
        lo = test(p);
        if (!lo) return NULL;
        if (!lex_is_op(peek(p), ":")) return lo;
    }
    next(p);  /* ':' */
    Node *s = node_at(N_SLICE, t);
    ast_add(s, lo);
    Node *hi = NULL, *st = NULL;
    if (!lex_is_op(peek(p), "]") && !lex_is_op(peek(p), ",") && !lex_is_op(peek(p), ":")) {
        if (!(hi = test(p))) { ast_free(s); return NULL; }
    }
    ast_add(s, hi);
    if (accept_op(p, ":")) {
        if (!lex_is_op(peek(p), "]") && !lex_is_op(peek(p), ",")) {
            if (!(st = test(p))) { ast_free(s); return NULL; }
        }
    }
    ast_add(s, st);
    return s;
}

static bool call_args(Parser *p, Node *call) {
    while (!lex_is_op(peek(p), ")")) {
        Token *t = peek(p);
        if (t->kind == T_NAME && lex_is_op(peek2(p), "=") && !is_keyword(t)) {
            next(p); next(p);
            Node *kw = node_at(N_KWARG, t);
            kw->str = xstrndup(t->start, t->len);
            Node *v = test(p);
            if (!v) { ast_free(kw); return false; }
            ast_add(kw, v);
            ast_add(call, kw);
        } else if (lex_is_op(t, "*") || lex_is_op(t, "**")) {
            next(p);
            Node *st = node_at(lex_is_op(t, "**") ? N_DSTAR : N_STAR, t);
            Node *v = test(p);
            if (!v) { ast_free(st); return false; }
            ast_add(st, v);
            ast_add(call, st);
        } else {
            Node *v = test(p);
            if (!v) return false;
            if (lex_is_name(peek(p), "for")) {      /* f(x for x in it): a generator expression */
                Node *lc = node_at(N_LISTCOMP, t);
                lc->op = 'g';
                ast_add(lc, v);
                if (!comp_clauses(p, lc)) { ast_free(lc); return false; }
                v = lc;
            }
            ast_add(call, v);
        }
        if (!accept_op(p, ",")) break;
    }
    return expect_op(p, ")");
}

static Node *postfix(Parser *p) {
    Node *e = atom(p);
    while (e) {
        Token *t = peek(p);
        if (lex_is_op(t, "(")) {
            next(p);
            Node *c = node_at(N_CALL, t);
            ast_add(c, e);
            e = c;
            if (!call_args(p, c)) { ast_free(e); return NULL; }
        } else if (lex_is_op(t, "[")) {
            next(p);
            Node *ix = node_at(N_INDEX, t);
            ast_add(ix, e);
            e = ix;
            Node *first = subscript(p);
            if (!first) { ast_free(e); return NULL; }
            if (lex_is_op(peek(p), ",")) {
                Node *tup = node_at(N_TUPLE, t);
                ast_add(tup, first);
                while (accept_op(p, ",")) {
                    if (lex_is_op(peek(p), "]")) break;
                    Node *s = subscript(p);
                    if (!s) { ast_free(tup); ast_free(e); return NULL; }
                    ast_add(tup, s);
                }
                first = tup;
            }
            ast_add(ix, first);
            if (!expect_op(p, "]")) { ast_free(e); return NULL; }
        } else if (lex_is_op(t, ".")) {
            next(p);
            Token *nt = peek(p);
            if (nt->kind != T_NAME) { ast_free(e); return fail_at(p, nt, "a name is expected after '.'"); }
            next(p);
            Node *a = node_at(N_ATTR, nt);
            a->str = xstrndup(nt->start, nt->len);
            ast_add(a, e);
            e = a;
        } else {
            break;
        }
        e = bounded(p, e);
    }
    return e;
}

static Node *unary(Parser *p);
static Node *power(Parser *p) {
    Node *base = postfix(p);
    if (!base) return NULL;
    Token *t = peek(p);
    if (lex_is_op(t, "**")) {
        if (!enter(p)) { ast_free(base); return NULL; }     /* 2 ** 2 ** ... recurses here (right associative) */
        next(p);
        Node *ex = unary(p);
        p->depth--;
        if (!ex) { ast_free(base); return NULL; }
        Node *b = node_at(N_BINARY, t);
        b->op = AOP_POW;
        ast_add(b, base);
        ast_add(b, ex);
        return bounded(p, b);
    }
    return base;
}

static Node *unary(Parser *p) {
    Token *t = peek(p);
    int op = lex_is_op(t, "-") ? AOP_NEG : lex_is_op(t, "+") ? AOP_POS : lex_is_op(t, "~") ? AOP_INVERT : -1;
    if (op < 0) return power(p);
    if (!enter(p)) return NULL;
    next(p);
    Node *e = unary(p);
    p->depth--;
    if (!e) return NULL;
    Node *u = node_at(N_UNARY, t);
    u->op = op;
    ast_add(u, e);
    return bounded(p, u);
}

static const struct { const char *sym; int op, prio; } binops[] = {
    {"|", AOP_BITOR, 1}, {"^", AOP_BITXOR, 2}, {"&", AOP_BITAND, 3}, {"<<", AOP_LSHIFT, 4}, {">>", AOP_RSHIFT, 4},
    {"+", AOP_ADD, 5}, {"-", AOP_SUB, 5}, {"*", AOP_MUL, 6}, {"/", AOP_DIV, 6}, {"//", AOP_FLOORDIV, 6},
    {"%", AOP_MOD, 6}, {"@", AOP_MATMUL, 6}, {NULL, 0, 0}};

static int binop_of(const Token *t, int *prio) {
    if (t->kind != T_OP) return -1;
    for (int i = 0; binops[i].sym; i++)
        if (lex_is_op(t, binops[i].sym)) { *prio = binops[i].prio; return binops[i].op; }
    return -1;
}

/* binary -> unary { binop binary } by priority (left associative). */
static Node *binary(Parser *p, int min_prio) {
    if (!enter(p)) return NULL;
    Node *lhs = unary(p);
    while (lhs) {
        int prio;
        Token *t = peek(p);
        int op = binop_of(t, &prio);
        if (op < 0 || prio < min_prio) break;
        next(p);
        Node *rhs = binary(p, prio + 1);
        if (!rhs) { ast_free(lhs); lhs = NULL; break; }
        Node *b = node_at(N_BINARY, t);
        b->op = op;
        ast_add(b, lhs);
        ast_add(b, rhs);
        lhs = bounded(p, b);
    }
    p->depth--;
    return lhs;
}

static int compop(Parser *p) {
    Token *t = peek(p);
    static const struct { const char *s; int op; } ops[] = {{"==", AOP_EQ}, {"!=", AOP_NE}, {"<", AOP_LT},
                                                            {"<=", AOP_LE}, {">", AOP_GT}, {">=", AOP_GE}};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (lex_is_op(t, ops[i].s)) { next(p); return ops[i].op; }
    if (lex_is_name(t, "in")) { next(p); return AOP_IN; }
    if (lex_is_name(t, "not") && lex_is_name(peek2(p), "in")) { next(p); next(p); return AOP_NOTIN; }
    if (lex_is_name(t, "is")) {
        next(p);
        if (accept_name(p, "not")) return AOP_ISNOT;
        return AOP_IS;
    }
    return -1;
}

/* comparison -> binary { compop binary }: a chain a < b < c becomes N_COMPARE with ops in ival bytes. */
static Node *comparison(Parser *p) {
    Node *first = binary(p, 1);
    if (!first) return NULL;
    Token *t = peek(p);
    int op = compop(p);
    if (op < 0) return first;
    Node *c = node_at(N_COMPARE, t);
    ast_add(c, first);
    int nops = 0;
    while (op >= 0) {
        if (nops >= 8) { ast_free(c); return fail_at(p, t, "comparison chain is too long"); }
        c->ival |= (int64_t)op << (8 * nops++);
        Node *r = binary(p, 1);
        if (!r) { ast_free(c); return NULL; }
        ast_add(c, r);
        op = compop(p);
    }
    return bounded(p, c);
}

static Node *not_test(Parser *p) {
    Token *t = peek(p);
    if (lex_is_name(t, "not")) {
        if (!enter(p)) return NULL;
        next(p);
        Node *e = not_test(p);
        p->depth--;
        if (!e) return NULL;
        Node *n = node_at(N_NOT, t);
        ast_add(n, e);
        return bounded(p, n);
    }
    return comparison(p);
}

/* and_test -> not_test { 'and' not_test };  or_test -> and_test { 'or' and_test }  (left associative) */
static Node *bool_chain(Parser *p, const char *kw, NodeKind kind, Node *(*operand)(Parser *)) {
    Node *l = operand(p);
    while (l && lex_is_name(peek(p), kw)) {
        Token *t = next(p);
        Node *r = operand(p);
        if (!r) { ast_free(l); return NULL; }
        Node *n = node_at(kind, t);
        ast_add(n, l);
        ast_add(n, r);
        l = bounded(p, n);
    }
    return l;
}

static Node *and_test(Parser *p) { return bool_chain(p, "and", N_AND, not_test); }
static Node *or_test(Parser *p) { return bool_chain(p, "or", N_OR, and_test); }

/* params -> [ param { ',' param } [','] ]  up to the closer (')' for def, ':' for lambda)
 * param  -> NAME [':' test] ['=' test] | '*' [NAME] | '**' NAME      (annotations only in a def) */
static bool param_list(Parser *p, Node *params, const char *closer, bool annotations) {
    bool seen_star = false, seen_dstar = false, seen_default = false;
    while (!lex_is_op(peek(p), closer)) {
        Token *st = peek(p);
        NodeKind kind = N_NAME;
        if (accept_op(p, "**")) kind = N_DSTAR;
        else if (accept_op(p, "*")) kind = N_STAR;
        Token *nt = peek(p);
        if (seen_dstar) { fail_at(p, st, "no parameter may follow **%s", params->kids[params->nkids - 1]->str); return false; }
        Node *pn;
        if (kind == N_STAR && (lex_is_op(nt, ",") || lex_is_op(nt, closer))) {
            if (seen_star) { fail_at(p, st, "'*' may appear only once among the parameters"); return false; }
            pn = node_at(N_STAR, st);            /* bare '*': the parameters after it are keyword-only */
            ast_add(params, pn);
            seen_star = true;
            if (!accept_op(p, ",")) break;
            continue;
        }
        if (nt->kind != T_NAME || is_keyword(nt)) { fail_at(p, nt, "a parameter name is expected"); return false; }
        next(p);
        for (int i = 0; i < params->nkids; i++)
            if (params->kids[i]->str && strlen(params->kids[i]->str) == nt->len && !strncmp(params->kids[i]->str, nt->start, nt->len)) {
                fail_at(p, nt, "duplicate parameter '%.*s' in the function definition", (int)nt->len, nt->start);
                return false;
            }
        if (annotations && lex_is_op(peek(p), ":")) {
            next(p);
            Node *ann = test(p);
            ast_free(ann);
            if (p->failed) return false;
        }
        if (kind == N_NAME && accept_op(p, "=")) {
            pn = node_at(N_KWARG, nt);
            Node *d = test(p);
            if (!d) { ast_free(pn); return false; }
            ast_add(pn, d);
            seen_default = true;
        } else {
            if (kind == N_NAME && seen_default && !seen_star) {
                fail_at(p, nt, "a parameter without a default ('%.*s') follows one with a default", (int)nt->len, nt->start);
                return false;
            }
            if (kind == N_STAR && seen_star) { fail_at(p, st, "'*' may appear only once among the parameters"); return false; }
            pn = node_at(kind, kind == N_NAME ? nt : st);
        }
        if (kind == N_STAR) seen_star = true;
        if (kind == N_DSTAR) seen_dstar = true;
        pn->str = xstrndup(nt->start, nt->len);
        ast_add(params, pn);
        if (!accept_op(p, ",")) break;
    }
    return true;
}

/* lambda params: expr  -> N_LAMBDA(params, body) */
static Node *lambda_expr(Parser *p) {
    Token *t = next(p);
    Node *params = node_at(N_TUPLE, t);
    if (!param_list(p, params, ":", false) || !expect_op(p, ":")) { ast_free(params); return NULL; }
    Node *lam = node_at(N_LAMBDA, t);
    ast_add(lam, params);                /* complete, so lam's height counts its defaults */
    Node *body = test(p);
    if (!body) { ast_free(lam); return NULL; }
    ast_add(lam, body);
    return bounded(p, lam);
}

static Node *test(Parser *p) {
    if (!enter(p)) return NULL;
    if (lex_is_name(peek(p), "lambda")) {
        Node *lam = lambda_expr(p);      /* lambda: lambda: ... recurses here */
        p->depth--;
        return lam;
    }
    Node *e = or_test(p);
    if (e && lex_is_name(peek(p), "if")) {
        Token *t = next(p);
        Node *c = or_test(p);
        if (!c) { ast_free(e); p->depth--; return NULL; }
        if (!accept_name(p, "else")) { ast_free(e); ast_free(c); p->depth--; return fail_at(p, peek(p), "'else' expected in the conditional expression"); }
        Node *alt = test(p);
        if (!alt) { ast_free(e); ast_free(c); p->depth--; return NULL; }
        Node *n = node_at(N_IFEXP, t);
        ast_add(n, c);
        ast_add(n, e);
        ast_add(n, alt);
        e = bounded(p, n);
    }
    p->depth--;
    return e;
}

static bool ends_testlist(Parser *p) {
    Token *t = peek(p);
    return t->kind == T_NEWLINE || t->kind == T_EOF || lex_is_op(t, "=") || lex_is_op(t, ";") ||
           lex_is_op(t, ")") || lex_is_op(t, ":") || (t->kind == T_OP && t->len == 2 && t->start[1] == '=' &&
           t->start[0] != '=' && t->start[0] != '!' && t->start[0] != '<' && t->start[0] != '>') ||
           (t->kind == T_OP && t->len == 3 && t->start[2] == '=') || lex_is_name(t, "in");
}

/* testlist -> test { ',' test } [','] : more than one (or a trailing comma) makes a tuple */
static Node *testlist(Parser *p, bool allow_star) {
    Token *t = peek(p);
    Node *first;
    if (allow_star && lex_is_op(t, "*")) {
        next(p);
        first = node_at(N_STAR, t);
        Node *v = test(p);
        if (!v) { ast_free(first); return NULL; }
        ast_add(first, v);
    } else first = test(p);
    if (!first || !lex_is_op(peek(p), ",")) return first;
    Node *tup = node_at(N_TUPLE, t);
    ast_add(tup, first);
    while (accept_op(p, ",")) {
        if (ends_testlist(p)) break;
        Token *st = peek(p);
        Node *e;
        if (allow_star && lex_is_op(st, "*")) {
            next(p);
            e = node_at(N_STAR, st);
            Node *v = test(p);
            if (!v) { ast_free(e); ast_free(tup); return NULL; }
            ast_add(e, v);
        } else e = test(p);
        if (!e) { ast_free(tup); return NULL; }
        ast_add(tup, e);
    }
    return tup;
}

/* Targets of for-loops: names, attributes and subscripts, in an optional tuple. */
static Node *target_list(Parser *p) {
    Token *t = peek(p);
    Node *first = binary(p, 1);
    if (!first || !lex_is_op(peek(p), ",")) return first;
    Node *tup = node_at(N_TUPLE, t);
    ast_add(tup, first);
    while (accept_op(p, ",")) {
        if (lex_is_name(peek(p), "in")) break;
        Node *e = binary(p, 1);
        if (!e) { ast_free(tup); return NULL; }
        ast_add(tup, e);
    }
    return tup;
}

static bool valid_target(Parser *p, Node *n, Token *at) {
    switch (n->kind) {
    case N_NAME: case N_ATTR: case N_INDEX: return true;
    case N_TUPLE: case N_LIST:
        for (int i = 0; i < n->nkids; i++) if (!valid_target(p, n->kids[i], at)) return false;
        return true;
    case N_STAR: return valid_target(p, n->kids[0], at);
    default:
        p->failed = false;
        fail_at(p, at, n->kind == N_CALL ? "cannot assign to a function call (did you mean '==' ?)"
                                         : "cannot assign to this expression (did you mean '==' ?)");
        p->line = n->line;
        p->col = n->col;
        return false;
    }
}

/* dotted -> NAME { '.' NAME }, as one N_NAME with the dotted text */
static Node *dotted_name(Parser *p) {
    Token *t = peek(p);
    if (t->kind != T_NAME || is_keyword(t)) return fail_at(p, t, "a module name is expected");
    next(p);
    Node *n = node_at(N_NAME, t);
    StrBuf b;
    sb_init(&b);
    sb_putn(&b, t->start, t->len);
    while (lex_is_op(peek(p), ".")) {
        next(p);
        Token *nt = peek(p);
        if (nt->kind != T_NAME) { sb_free(&b); ast_free(n); return fail_at(p, nt, "a name is expected after '.'"); }
        next(p);
        sb_putc(&b, '.');
        sb_putn(&b, nt->start, nt->len);
    }
    n->str = sb_take(&b);
    return n;
}

/* An imported name with its optional alias: N_NAME(name) with N_NAME(alias) as its kid. */
static bool import_item(Parser *p, Node *list, bool dotted) {
    Node *it;
    Token *t = peek(p);
    if (dotted) it = dotted_name(p);
    else if (lex_is_op(t, "*")) { next(p); it = node_at(N_NAME, t); it->str = xstrdup("*"); return (ast_add(list, it), true); }
    else if (t->kind == T_NAME && !is_keyword(t)) { next(p); it = node_at(N_NAME, t); it->str = xstrndup(t->start, t->len); }
    else it = fail_at(p, t, "a name to import is expected");
    if (!it) return false;
    if (accept_name(p, "as")) {
        Token *at = peek(p);
        if (at->kind != T_NAME || is_keyword(at)) { ast_free(it); fail_at(p, at, "a name is expected after 'as'"); return false; }
        next(p);
        Node *al = node_at(N_NAME, at);
        al->str = xstrndup(at->start, at->len);
        ast_add(it, al);
    }
    ast_add(list, it);
    return true;
}

/* import -> 'import' dotted ['as' NAME] { ',' ... }               N_IMPORT(op 0): the items
 *         | 'from' dotted 'import' ( '*' | NAME ['as' NAME] { ',' ... } | '(' ... ')' )
 *                                                                   N_IMPORT(op 1): the module, then the items */
static Node *import_stmt(Parser *p, Token *t) {
    Node *n = node_at(N_IMPORT, t);
    bool from = lex_is_name(t, "from");
    n->op = from;
    if (from) {
        Node *m = dotted_name(p);
        if (!m) { ast_free(n); return NULL; }
        ast_add(n, m);
        if (!accept_name(p, "import")) {
            fail_at(p, peek(p), "'import' expected after 'from %s'", m->str);
            ast_free(n);
            return NULL;
        }
    }
    bool paren = from && accept_op(p, "(");
    do {
        if (paren && lex_is_op(peek(p), ")")) break;
        if (!import_item(p, n, !from)) { ast_free(n); return NULL; }
    } while (accept_op(p, ","));
    if (paren && !expect_op(p, ")")) { ast_free(n); return NULL; }
    return n;
}

static Node *small_stmt(Parser *p) {
    Token *t = peek(p);
    if (accept_name(p, "pass")) return node_at(N_PASS, t);
    if (accept_name(p, "break")) return node_at(N_BREAK, t);
    if (accept_name(p, "continue")) return node_at(N_CONTINUE, t);
    if (accept_name(p, "return")) {
        Node *r = node_at(N_RETURN, t);
        if (peek(p)->kind != T_NEWLINE && peek(p)->kind != T_EOF && !lex_is_op(peek(p), ";")) {
            Node *v = testlist(p, false);
            if (!v) { ast_free(r); return NULL; }
            ast_add(r, v);
        }
        return r;
    }
    if (lex_is_name(t, "import") || lex_is_name(t, "from")) { next(p); return import_stmt(p, t); }
    if (accept_name(p, "del")) {
        Node *d = node_at(N_DEL, t);
        Node *v = testlist(p, false);
        if (!v) { ast_free(d); return NULL; }
        if (!valid_target(p, v, t)) { ast_free(v); ast_free(d); return NULL; }
        ast_add(d, v);
        return d;
    }
    if (lex_is_name(t, "raise")) {             /* raise [expression] */
        next(p);
        Node *r = node_at(N_RAISE, t);
        if (peek(p)->kind != T_NEWLINE && peek(p)->kind != T_EOF && !lex_is_op(peek(p), ";")) {
            Node *e = test(p);
            if (!e) { ast_free(r); return NULL; }
            ast_add(r, e);
            if (lex_is_name(peek(p), "from")) {       /* raise X from Y: Y is X's __cause__ (a second kid) */
                next(p);
                Node *c = test(p);
                if (!c) { ast_free(r); return NULL; }
                ast_add(r, c);
            }
        }
        return r;
    }
    for (const char *const *k = (const char *const[]){"yield", "async", "global", "nonlocal", NULL}; *k; k++)
        if (lex_is_name(t, *k))
            return fail_at(p, t, "'%s' is not supported in attn (it runs tensors, functions, classes, loops and ifs)", *k);
    if (lex_is_name(t, "assert")) {
        /* assert cond[, msg] -> call of the builtin assert_ */
        next(p);
        Node *call = node_at(N_CALL, t);
        Node *fn = node_at(N_NAME, t);
        fn->str = xstrdup("__assert__");
        ast_add(call, fn);
        Node *c = test(p);
        if (!c) { ast_free(call); return NULL; }
        ast_add(call, c);
        if (accept_op(p, ",")) {
            Node *m = test(p);
            if (!m) { ast_free(call); return NULL; }
            ast_add(call, m);
        }
        Node *es = node_at(N_EXPR_STMT, t);
        es->op = 1;   /* never echo */
        ast_add(es, call);
        return es;
    }
    Node *lhs = testlist(p, true);
    if (!lhs) return NULL;
    Token *op = peek(p);
    static const struct { const char *s; int op; } aug[] = {{"+=", AOP_ADD}, {"-=", AOP_SUB}, {"*=", AOP_MUL},
        {"/=", AOP_DIV}, {"//=", AOP_FLOORDIV}, {"%=", AOP_MOD}, {"**=", AOP_POW}, {"@=", AOP_MATMUL},
        {"&=", AOP_BITAND}, {"|=", AOP_BITOR}, {"^=", AOP_BITXOR}};
    for (size_t i = 0; i < sizeof aug / sizeof *aug; i++) {
        if (lex_is_op(op, aug[i].s)) {
            next(p);
            if (lhs->kind != N_NAME && lhs->kind != N_ATTR && lhs->kind != N_INDEX) {
                ast_free(lhs);
                return fail_at(p, op, "illegal target for augmented assignment");
            }
            Node *rhs = testlist(p, false);
            if (!rhs) { ast_free(lhs); return NULL; }
            Node *a = node_at(N_AUGASSIGN, op);
            a->op = aug[i].op;
            ast_add(a, lhs);
            ast_add(a, rhs);
            return a;
        }
    }
    if (lex_is_op(op, "=")) {
        Node *a = node_at(N_ASSIGN, op);
        ast_add(a, lhs);
        while (accept_op(p, "=")) {
            Node *rhs = testlist(p, true);
            if (!rhs) { ast_free(a); return NULL; }
            ast_add(a, rhs);
        }
        /* all but the last are targets */
        for (int i = 0; i < a->nkids - 1; i++)
            if (!valid_target(p, a->kids[i], op)) { ast_free(a); return NULL; }
        return a;
    }
    Node *es = node_at(N_EXPR_STMT, t);
    ast_add(es, lhs);
    return es;
}

/* simple_stmts -> small { ';' small } [';'] NEWLINE, as a N_BLOCK when there is more than one */
static Node *simple_stmts(Parser *p) {
    Token *t = peek(p);
    Node *first = small_stmt(p);
    if (!first) return NULL;
    Node *blk = NULL;
    while (accept_op(p, ";")) {
        if (peek(p)->kind == T_NEWLINE || peek(p)->kind == T_EOF) break;
        if (!blk) { blk = node_at(N_BLOCK, t); ast_add(blk, first); }
        Node *s = small_stmt(p);
        if (!s) { ast_free(blk); return NULL; }
        ast_add(blk, s);
    }
    Token *e = peek(p);
    if (e->kind != T_NEWLINE && e->kind != T_EOF) {
        ast_free(blk ? blk : first);
        if (e->kind == T_OP && lex_is_op(e, "=")) return fail_at(p, e, "invalid syntax: unexpected '='");
        return fail_near(p, e);
    }
    if (e->kind == T_NEWLINE) next(p);
    return blk ? blk : first;
}

static Node *suite(Parser *p) {
    if (peek(p)->kind != T_NEWLINE) return simple_stmts(p);
    Token *nl = next(p);
    Token *t = peek(p);
    if (t->kind != T_INDENT) {
        if (t->kind == T_EOF) return fail_at(p, t, "an indented block is expected");
        return fail_at(p, t, "expected an indented block after the ':' on line %d", nl->line);
    }
    next(p);
    Node *blk = node_at(N_BLOCK, t);
    while (peek(p)->kind != T_DEDENT && peek(p)->kind != T_EOF) {
        Node *s = stmt(p);
        if (!s) { ast_free(blk); return NULL; }
        ast_add(blk, s);
    }
    if (peek(p)->kind == T_DEDENT) next(p);
    return blk;
}

/* try: suite (except [test ['as' NAME]]: suite)* [else: suite] [finally: suite], at least one except or finally */
static Node *try_stmt(Parser *p, Token *t) {
    Node *n = node_at(N_TRY, t);
    Node *body = expect_op(p, ":") ? suite(p) : NULL;
    if (!body) { ast_free(n); return NULL; }
    ast_add(n, body);
    Node *handlers = node_at(N_BLOCK, t);
    ast_add(n, handlers);
    while (lex_is_name(peek(p), "except")) {
        Token *et = next(p);
        Node *h = node_at(N_EXCEPT, et);
        ast_add(handlers, h);
        Node *type = NULL;
        if (!lex_is_op(peek(p), ":")) {
            if (!(type = test(p))) { ast_free(n); return NULL; }
            if (accept_name(p, "as")) {
                Token *nt = peek(p);
                if (nt->kind != T_NAME || is_keyword(nt)) { ast_free(type); ast_free(n); return fail_at(p, nt, "a name is expected after 'as'"); }
                next(p);
                h->str = xstrndup(nt->start, nt->len);
            }
        }
        ast_add(h, type);
        Node *hb = expect_op(p, ":") ? suite(p) : NULL;
        if (!hb) { ast_free(n); return NULL; }
        ast_add(h, hb);
        if (!type && lex_is_name(peek(p), "except")) { ast_free(n); return fail_at(p, peek(p), "default 'except:' must be last"); }
    }
    Node *alt = NULL, *fin = NULL;
    if (handlers->nkids && lex_is_name(peek(p), "else")) {
        next(p);
        if (!expect_op(p, ":") || !(alt = suite(p))) { ast_free(n); return NULL; }
    }
    ast_add(n, alt);
    if (lex_is_name(peek(p), "finally")) {
        next(p);
        if (!expect_op(p, ":") || !(fin = suite(p))) { ast_free(n); return NULL; }
    }
    ast_add(n, fin);
    if (!handlers->nkids && !fin) { ast_free(n); return fail_at(p, peek(p), "expected 'except' or 'finally' block"); }
    return n;
}

static Node *if_stmt(Parser *p, Token *t) {
    Node *n = node_at(N_IF, t);
    Node *c = test(p);
    if (!c) { ast_free(n); return NULL; }
    ast_add(n, c);
    if (!expect_op(p, ":")) { ast_free(n); return NULL; }
    Node *body = suite(p);
    if (!body) { ast_free(n); return NULL; }
    ast_add(n, body);
    Token *e = peek(p);
    if (lex_is_name(e, "elif")) {
        next(p);
        Node *alt = if_stmt(p, e);
        if (!alt) { ast_free(n); return NULL; }
        ast_add(n, alt);
    } else if (lex_is_name(e, "else")) {
        next(p);
        if (!expect_op(p, ":")) { ast_free(n); return NULL; }
        Node *alt = suite(p);
        if (!alt) { ast_free(n); return NULL; }
        ast_add(n, alt);
    }
    return n;
}

/* def -> 'def' NAME '(' params ')' ['->' test] ':' suite */
static Node *def_stmt(Parser *p, Token *t) {
    Token *nt = peek(p);
    if (nt->kind != T_NAME || is_keyword(nt)) return fail_at(p, nt, "a function name is expected after 'def'");
    next(p);
    Node *n = node_at(N_DEF, t);
    n->str = xstrndup(nt->start, nt->len);
    Node *params = node_at(N_TUPLE, nt);
    if (!expect_op(p, "(") || !param_list(p, params, ")", true) || !expect_op(p, ")")) { ast_free(params); ast_free(n); return NULL; }
    ast_add(n, params);                  /* complete, so n's height counts its defaults */
    if (accept_op(p, "->")) { Node *ann = test(p); ast_free(ann); if (p->failed) { ast_free(n); return NULL; } }
    if (!expect_op(p, ":")) { ast_free(n); return NULL; }
    Node *body = suite(p);
    if (!body) { ast_free(n); return NULL; }
    ast_add(n, body);
    return n;
}

/* class -> 'class' NAME ['(' [arglist] ')'] ':' suite      (bases are expressions; keywords are kept as N_KWARG) */
static Node *class_stmt(Parser *p, Token *t) {
    Token *nt = peek(p);
    if (nt->kind != T_NAME || is_keyword(nt)) return fail_at(p, nt, "a class name is expected after 'class'");
    next(p);
    Node *n = node_at(N_CLASS, t);
    n->str = xstrndup(nt->start, nt->len);
    Node *call = node_at(N_CALL, nt);      /* the bases, parsed as the arguments of a call */
    if (accept_op(p, "(") && !call_args(p, call)) { ast_free(call); ast_free(n); return NULL; }
    Node *bases = node_at(N_TUPLE, nt);
    for (int i = 0; i < call->nkids; i++) ast_add(bases, call->kids[i]);
    call->nkids = 0;
    ast_free(call);
    ast_add(n, bases);
    if (!expect_op(p, ":")) { ast_free(n); return NULL; }
    Node *body = suite(p);
    if (!body) { ast_free(n); return NULL; }
    ast_add(n, body);
    return n;
}

/* decorated -> '@' test NEWLINE { '@' test NEWLINE } (def | class): the decorators become the third kid. */
static Node *decorated(Parser *p) {
    Node *decos = node_at(N_LIST, peek(p));
    while (accept_op(p, "@")) {
        Node *d = test(p);
        if (!d) { ast_free(decos); return NULL; }
        ast_add(decos, d);
        Token *e = peek(p);
        if (e->kind != T_NEWLINE) { ast_free(decos); return e->kind == T_EOF ? fail_at(p, e, "a def or class is expected after the decorator") : fail_near(p, e); }
        next(p);
    }
    Token *t = peek(p);
    Node *n = NULL;
    if (lex_is_name(t, "def")) { next(p); n = def_stmt(p, t); }
    else if (lex_is_name(t, "class")) { next(p); n = class_stmt(p, t); }
    else { ast_free(decos); return t->kind == T_EOF ? fail_at(p, t, "a def or class is expected after the decorator") : fail_at(p, t, "a decorator must be followed by a def or a class"); }
    if (!n) { ast_free(decos); return NULL; }
    ast_add(n, decos);
    n->line = decos->line;         /* the statement starts at its first decorator */
    n->col = decos->col;
    return n;
}

/* with -> 'with' item { ',' item } ':' suite, item -> test ['as' target]; several items nest, the first outermost */
static Node *with_items(Parser *p, Token *t) {
    Node *n = node_at(N_WITH, t);
    Node *ctx = test(p);
    if (!ctx) { ast_free(n); return NULL; }
    ast_add(n, ctx);
    Node *target = NULL;
    if (accept_name(p, "as")) {
        Token *at = peek(p);
        if (!(target = binary(p, 1))) { ast_free(n); return NULL; }
        if (!valid_target(p, target, at)) { ast_free(target); ast_free(n); return NULL; }
    }
    ast_add(n, target);
    Token *c = peek(p);
    Node *body = accept_op(p, ",") ? with_items(p, c) : expect_op(p, ":") ? suite(p) : NULL;
    if (!body) { ast_free(n); return NULL; }
    ast_add(n, body);
    return n;
}

static Node *stmt(Parser *p) {
    Token *t = peek(p);
    if (t->kind == T_INDENT) return fail_at(p, t, "unexpected indent");
    if (lex_is_name(t, "for")) {
        next(p);
        Node *n = node_at(N_FOR, t);
        Node *tg = target_list(p);
        if (!tg) { ast_free(n); return NULL; }
        ast_add(n, tg);
        if (!valid_target(p, tg, t)) { ast_free(n); return NULL; }
        if (!accept_name(p, "in")) { ast_free(n); return fail_at(p, peek(p), "'in' expected in the for statement"); }
        Node *it = testlist(p, false);
        if (!it) { ast_free(n); return NULL; }
        ast_add(n, it);
        if (!expect_op(p, ":")) { ast_free(n); return NULL; }
        Node *body = suite(p);
        if (!body) { ast_free(n); return NULL; }
        ast_add(n, body);
        return n;
    }
    if (lex_is_name(t, "while")) {
        next(p);
        Node *n = node_at(N_WHILE, t);
        Node *c = test(p);
        if (!c) { ast_free(n); return NULL; }
        ast_add(n, c);
        if (!expect_op(p, ":")) { ast_free(n); return NULL; }
        Node *body = suite(p);
        if (!body) { ast_free(n); return NULL; }
        ast_add(n, body);
        return n;
    }
    if (lex_is_name(t, "if")) { next(p); return if_stmt(p, t); }
    if (lex_is_name(t, "try")) { next(p); return try_stmt(p, t); }
    if (lex_is_name(t, "except") || lex_is_name(t, "finally"))
        return fail_at(p, t, "invalid syntax ('%.*s' without a matching 'try')", (int)t->len, t->start);
    if (lex_is_name(t, "elif") || lex_is_name(t, "else"))
        return fail_at(p, t, "'%.*s' without a matching 'if'", (int)t->len, t->start);
    if (lex_is_name(t, "def")) { next(p); return def_stmt(p, t); }
    if (lex_is_name(t, "class")) { next(p); return class_stmt(p, t); }
    if (lex_is_op(t, "@")) return decorated(p);
    if (lex_is_name(t, "with")) { next(p); return with_items(p, t); }
    return simple_stmts(p);
}

ParseResult parse_program(const char *src, int first_line) { return parse_program_at(src, first_line, 0); }

ParseResult parse_program_at(const char *src, int first_line, int depth_used) {
    ParseResult r;
    memset(&r, 0, sizeof r);
    Parser p;
    memset(&p, 0, sizeof p);
    p.base = depth_used;
    lex_tokenize(src, first_line, &p.tl);
    Node *prog = ast_new(N_BLOCK, first_line, 1);
    while (!p.failed && peek(&p)->kind != T_EOF) {
        Token *t = peek(&p);
        if (t->kind == T_ERROR) { fail_at(&p, t, "%s", t->sval); break; }
        if (t->kind == T_NEWLINE || t->kind == T_DEDENT) { next(&p); continue; }
        Node *s = bounded(&p, stmt(&p));
        if (!s) break;
        ast_add(prog, s);
    }
    /* a lexical error anywhere wins over what the parser made of the tokens before it */
    if (!p.failed && p.tl.error) {
        for (int i = 0; i < p.tl.n; i++) if (p.tl.toks[i].kind == T_ERROR) { fail_at(&p, &p.tl.toks[i], "%s", p.tl.toks[i].sval); break; }
    }
    if (!p.failed && p.tl.incomplete) { p.failed = true; p.incomplete = true; snprintf(p.msg, sizeof p.msg, "unexpected end of input"); }
    if (p.failed && p.tl.open_string_line && !p.tl.error) {
        snprintf(p.msg, sizeof p.msg, "the triple-quoted string is never closed");
        p.line = p.tl.open_string_line;
        p.col = p.tl.open_string_col;
    } else if (p.failed && p.tl.open_char && !p.tl.error) {
        /* the clearest message for unfinished input: which bracket is still open */
        snprintf(p.msg, sizeof p.msg, "'%c' was never closed", p.tl.open_char);
        p.line = p.tl.open_line;
        p.col = p.tl.open_col;
    }
    if (p.failed) {
        ast_free(prog);
        r.incomplete = p.incomplete && !p.tl.error;
        snprintf(r.msg, sizeof r.msg, "%s", p.msg);
        r.line = p.line;
        r.col = p.col;
    } else {
        r.tree = prog;
    }
    lex_free(&p.tl);
    return r;
}

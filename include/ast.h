/* ast.h - syntax tree of attn's language (prefix ast_). Each node records its line and column for error carets. */
#ifndef ATTN_AST_H
#define ATTN_AST_H
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

typedef enum {
    /* expressions */
    N_INT, N_FLOAT, N_STR, N_FSTR, N_FMT, N_NAME, N_NONE, N_TRUE, N_FALSE, N_ELLIPSIS,
    N_TUPLE, N_LIST, N_DICT, N_LISTCOMP, N_COMPFOR, N_UNARY, N_BINARY, N_COMPARE, N_AND, N_OR, N_NOT, N_IFEXP,
    N_CALL, N_KWARG, N_STAR, N_DSTAR, N_ATTR, N_INDEX, N_SLICE, N_LAMBDA,
    /* statements */
    N_BLOCK, N_EXPR_STMT, N_ASSIGN, N_AUGASSIGN, N_FOR, N_WHILE, N_IF, N_DEF, N_RETURN, N_BREAK, N_CONTINUE,
    N_PASS, N_IMPORT, N_DEL, N_CLASS, N_WITH, N_TRY, N_EXCEPT, N_RAISE
} NodeKind;

/* Operator codes for N_UNARY / N_BINARY / N_AUGASSIGN / N_COMPARE. */
typedef enum {
    AOP_ADD, AOP_SUB, AOP_MUL, AOP_DIV, AOP_FLOORDIV, AOP_MOD, AOP_POW, AOP_MATMUL,
    AOP_BITAND, AOP_BITOR, AOP_BITXOR, AOP_LSHIFT, AOP_RSHIFT,
    AOP_NEG, AOP_POS, AOP_INVERT,
    AOP_EQ, AOP_NE, AOP_LT, AOP_LE, AOP_GT, AOP_GE, AOP_IN, AOP_NOTIN, AOP_IS, AOP_ISNOT
} AstOp;

/* Shapes of the nodes the evaluator reads by position:
 *   N_DEF     str = name; kids: params (N_TUPLE), body (N_BLOCK) [, decorators (N_LIST)]
 *   N_CLASS   str = name; kids: bases (N_TUPLE of expressions and N_KWARG), body (N_BLOCK) [, decorators]
 *   N_LAMBDA  kids: params (N_TUPLE), body expression
 *   N_WITH    kids: context expression, target (NULL without 'as'), body (N_BLOCK, or a nested N_WITH)
 *   N_TRY     kids: body, handlers (N_BLOCK of N_EXCEPT), else block or NULL, finally block or NULL
 *   N_EXCEPT  str = the name after 'as' (NULL without); kids: the class expression (NULL for a bare except), body
 *   N_RAISE   kids: the exception expression, then the cause of raise X from Y; none for a bare raise
 *   params    N_NAME (a), N_KWARG (a=default, the default in kids[0]), N_STAR (*args; str NULL for a bare '*'),
 *             N_DSTAR (**kwargs)
 *   in calls  N_KWARG (name=value), N_STAR (*iterable), N_DSTAR (**mapping), each with the value in kids[0] */
/* The bound on how deep attn's C code recurses, as Lua's C-stack counter (luaE_incCstack): one counter,
 * Interp.depth, counts the evaluator's levels (each eval and exec of a node running now, so a statement's nesting
 * and the calls it makes add up), and the parser starts from it when it parses inside a statement (timeit). The
 * parser refuses a tree taller than AST_MAX_DEPTH, or than what is left of INTERP_MAX_DEPTH, so every recursive walk
 * over a tree (eval, ast_free, ast_clone, ast_same_code) is bounded; the evaluator raises RecursionError past
 * INTERP_MAX_DEPTH. Python refuses such chains too ("maximum recursion depth exceeded during compilation").
 * INTERP_MAX_DEPTH leaves room for INTERP_MAX_CALL_DEPTH (200) calls of a function of ordinary nesting; both are
 * measured to fit an 8 MiB stack and `ulimit -s 2048` under ASan (tests/deep.sh). */
#define AST_MAX_DEPTH 1000
#define INTERP_MAX_DEPTH 1500

typedef struct Node {
    NodeKind kind;
    int line, col;
    int op;                 /* AstOp, or for N_FMT the conversion ('r', 's' or 0) */
    int64_t ival;
    double fval;
    char *str;              /* names, string literals, keyword names, format specs */
    size_t slen;
    struct Node **kids;
    int nkids;
    int height;             /* 0 for a leaf, else 1 + its tallest kid's: how deep a recursive walk goes from here */
} Node;

Node *ast_new(NodeKind k, int line, int col);
void ast_add(Node *parent, Node *kid);     /* kid may be NULL (an omitted slice part) */
void ast_free(Node *n);
Node *ast_clone(const Node *n);          /* deep copy (user functions keep their own body) */
/* The same code: equal trees, whatever the positions, comments and layout, and leaving out the docstrings of defs
 * and classes (a student who types the book's function without its docstring has typed the book's function). */
bool ast_same_code(const Node *a, const Node *b);
/* Where a and b first differ (as ast_same_code sees them): false when they are the same code, else true with the
 * innermost differing nodes in *da and *db (for a missing part, the node that lacks it), or a and b themselves when
 * one has more statements or parts than the other. *da and *db must hold a and b (or a default) on entry. */
bool ast_first_difference(const Node *a, const Node *b, const Node **da, const Node **db);
const char *ast_op_symbol(int op);
#endif

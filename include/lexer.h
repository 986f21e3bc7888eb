/* lexer.h - tokens of attn's Python-flavoured language (prefix lex_). Indentation becomes INDENT/DEDENT tokens,
 * newlines inside brackets are ignored, as in Python. */
#ifndef ATTN_LEXER_H
#define ATTN_LEXER_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

typedef enum {
    T_EOF, T_NEWLINE, T_INDENT, T_DEDENT, T_NAME, T_INT, T_FLOAT, T_STRING, T_OP, T_ERROR
} TokKind;

typedef struct Token {
    TokKind kind;
    const char *start;     /* into the source */
    size_t len;
    int line, col;         /* 1-based */
    int64_t ival;
    double fval;
    char *sval;            /* T_STRING: decoded text (owned by the lexer's token array); T_ERROR: message */
    size_t slen;
    bool fstring, raw;
} Token;

typedef struct TokenList {
    Token *toks;
    int n, cap;
    bool incomplete;       /* input ended inside brackets, a string or after a continuation backslash */
    bool error;            /* a T_ERROR token is present */
    char open_char;        /* the innermost bracket left open at the end, 0 when none */
    int open_line, open_col;
    int open_string_line, open_string_col;   /* a triple-quoted string left open at the end, 0 when none */
} TokenList;

/* Splits src into tokens. Never fails: lexical errors become one T_ERROR token with a message. */
void lex_tokenize(const char *src, int first_line, TokenList *out);
void lex_free(TokenList *tl);
bool lex_is_op(const Token *t, const char *op);
bool lex_is_name(const Token *t, const char *name);
/* Decodes backslash escapes of a string body [p, end) (kept as is when raw). Caller frees. */
char *lex_decode(const char *p, const char *end, bool raw, size_t *outlen, const char **err);
#endif

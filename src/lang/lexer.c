/* lexer.c - Python-style tokens: names, numbers (1, 1.5, 1e-6, 0x1f, 1_000), strings ('..', "..", '''..''',
 * with r/f/b prefixes and escapes), operators, and indentation. */
#include "lexer.h"
#include "strbuf.h"
#include <uniname.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INDENT_DEPTH 64

static const char *ops3[] = {"**=", "//=", ">>=", "<<=", "...", NULL};
static const char *ops2[] = {"**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "@=", "&=", "|=",
                             "^=", "->", "<<", ">>", ":=", NULL};
static const char ops1[] = "+-*/%@<>=()[]{},:.;~&|^!";

static Token *push(TokenList *tl, TokKind k, const char *s, size_t len, int line, int col) {
    if (tl->n == tl->cap) {
        tl->cap = tl->cap ? tl->cap * 2 : 64;
        tl->toks = xrealloc(tl->toks, sizeof(Token) * (size_t)tl->cap);
    }
    Token *t = &tl->toks[tl->n++];
    memset(t, 0, sizeof *t);
    t->kind = k; t->start = s; t->len = len; t->line = line; t->col = col;
    return t;
}

static void lex_err(TokenList *tl, const char *s, int line, int col, const char *msg) {
    Token *t = push(tl, T_ERROR, s, 1, line, col);
    t->sval = xstrdup(msg);
    tl->error = true;
}

static void put_utf8(StrBuf *b, uint32_t c) {
    if (c < 0x80) sb_putc(b, (char)c);
    else if (c < 0x800) { sb_putc(b, (char)(0xC0 | c >> 6)); sb_putc(b, (char)(0x80 | (c & 0x3F))); }
    else if (c < 0x10000) {
        sb_putc(b, (char)(0xE0 | c >> 12)); sb_putc(b, (char)(0x80 | ((c >> 6) & 0x3F))); sb_putc(b, (char)(0x80 | (c & 0x3F)));
    } else {
        sb_putc(b, (char)(0xF0 | c >> 18)); sb_putc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
        sb_putc(b, (char)(0x80 | ((c >> 6) & 0x3F))); sb_putc(b, (char)(0x80 | (c & 0x3F)));
    }
}

/* Decodes a string body [p, end) with escapes unless raw. An escape Python rejects (a truncated \x, \u or \U, a
 * code point past U+10FFFF, an unknown \N{name}) or one attn cannot hold (half of a UTF-16 surrogate pair: attn's
 * strings are UTF-8) sets *err to what is wrong (static text) and is left out. */
char *lex_decode(const char *p, const char *end, bool raw, size_t *outlen, const char **err) {
    StrBuf b;
    sb_init(&b);
    *err = NULL;
    while (p < end) {
        if (*p == '\\' && !raw && p + 1 < end) {
            p++;
            switch (*p) {
            case 'n': sb_putc(&b, '\n'); break;
            case 't': sb_putc(&b, '\t'); break;
            case 'r': sb_putc(&b, '\r'); break;
            case '\\': sb_putc(&b, '\\'); break;
            case '\'': sb_putc(&b, '\''); break;
            case '"': sb_putc(&b, '"'); break;
            case '\n': break;
            case 'a': sb_putc(&b, '\a'); break;
            case 'b': sb_putc(&b, '\b'); break;
            case 'f': sb_putc(&b, '\f'); break;
            case 'v': sb_putc(&b, '\v'); break;
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {   /* \ooo: octal */
                uint32_t cp = 0;
                for (int k = 0; k < 3 && p < end && *p >= '0' && *p <= '7'; k++) cp = cp * 8 + (uint32_t)(*p++ - '0');
                put_utf8(&b, cp);
                continue;
            }
            case 'N':                           /* \N{LATIN SMALL LETTER A}: by its Unicode name */
                if (p + 1 < end && p[1] == '{') {
                    const char *q = memchr(p + 2, '}', (size_t)(end - p - 2));
                    char name[128];
                    ucs4_t cp = UNINAME_INVALID;
                    if (q && (size_t)(q - p - 2) < sizeof name) {
                        memcpy(name, p + 2, (size_t)(q - p - 2));
                        name[q - p - 2] = 0;
                        for (char *c = name; *c; c++) *c = (char)toupper((unsigned char)*c);
                        cp = unicode_name_character(name);
                    }
                    if (cp == UNINAME_INVALID) *err = q ? "unknown Unicode character name in \\N{...}" : "malformed \\N character escape (\\N{NAME})";
                    else put_utf8(&b, cp);
                    p = q ? q + 1 : end;
                    continue;
                }
                sb_putc(&b, '\\'); sb_putc(&b, *p); break;
            case 'x': case 'u': case 'U': {     /* \xHH, \uHHHH, \UHHHHHHHH: a code point, written as UTF-8 */
                int n = *p == 'x' ? 2 : *p == 'u' ? 4 : 8, k = 0;
                uint32_t cp = 0;
                while (k < n && p + 1 + k < end && isxdigit((unsigned char)p[1 + k])) {
                    char h[2] = {p[1 + k], 0};
                    cp = cp * 16 + (uint32_t)strtol(h, NULL, 16);
                    k++;
                }
                if (k < n)
                    *err = n == 2 ? "truncated \\x escape: \\x takes 2 hex digits" : n == 4 ? "truncated \\u escape: \\u takes 4 hex digits"
                                                      : "truncated \\U escape: \\U takes 8 hex digits";
                else if (cp > 0x10FFFF) *err = "illegal Unicode character: the last one is \\U0010ffff";
                else if (cp >= 0xD800 && cp <= 0xDFFF)
                    *err = "a surrogate (\\ud800 to \\udfff) is half of a UTF-16 pair, which attn's strings cannot hold: "
                           "write the character itself, or \\U and its 8 hex digits";
                else put_utf8(&b, cp);
                p += k;
                break;
            }
            default: sb_putc(&b, '\\'); sb_putc(&b, *p); break;
            }
            p++;
        } else {
            sb_putc(&b, *p++);
        }
    }
    *outlen = b.len;
    return sb_take(&b);
}

static void lex_body(const char *src, int first_line, TokenList *tl);

/* Every token list ends with T_EOF, also when lexing stopped early at an error or unfinished input. */
void lex_tokenize(const char *src, int first_line, TokenList *tl) {
    memset(tl, 0, sizeof *tl);
    lex_body(src, first_line, tl);
    if (tl->n == 0 || tl->toks[tl->n - 1].kind != T_EOF) {
        const char *end = src + strlen(src);
        push(tl, T_EOF, end, 0, tl->n ? tl->toks[tl->n - 1].line : first_line, 1);
    }
}

static void lex_body(const char *src, int first_line, TokenList *tl) {
    const char *p = src;
    int line = first_line, depth = 0;
    struct { char c; int line, col; } opens[256];
    int indents[MAX_INDENT_DEPTH] = {0}, ni = 1;
    bool at_line_start = true;
    const char *line_start = p;
    while (*p) {
        if (at_line_start && depth == 0) {
            int width = 0;
            const char *q = p;
            while (*q == ' ' || *q == '\t') { width += *q == '\t' ? 8 - width % 8 : 1; q++; }
            if (*q == '\n' || *q == '#' || *q == '\r' || *q == 0) {   /* blank or comment line */
                while (*q && *q != '\n') q++;
                if (*q == '\n') { q++; line++; }
                p = line_start = q;
                continue;
            }
            if (width > indents[ni - 1]) {
                if (ni == MAX_INDENT_DEPTH) { lex_err(tl, q, line, (int)(q - line_start) + 1, "too many levels of indentation"); return; }
                indents[ni++] = width;
                push(tl, T_INDENT, q, 0, line, 1);
            } else {
                while (width < indents[ni - 1]) { ni--; push(tl, T_DEDENT, q, 0, line, 1); }
                if (width != indents[ni - 1]) {
                    lex_err(tl, q, line, (int)(q - line_start) + 1, "unindent does not match any outer indentation level");
                    return;
                }
            }
            p = q;
            at_line_start = false;
        }
        char c = *p;
        int col = (int)(p - line_start) + 1;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f') { p++; continue; }
        if (c == '#') { while (*p && *p != '\n') p++; continue; }
        if (c == '\\' && (p[1] == '\n' || p[1] == 0)) {
            if (p[1] == 0) { tl->incomplete = true; p++; continue; }
            p += 2; line++; line_start = p; continue;
        }
        if (c == '\n') {
            if (depth == 0 && tl->n > 0 && tl->toks[tl->n - 1].kind != T_NEWLINE) push(tl, T_NEWLINE, p, 1, line, col);
            p++; line++; line_start = p;
            at_line_start = depth == 0;    /* inside brackets the next line continues this one: no indentation */
            continue;
        }
        /* strings, with optional prefixes */
        const char *q = p;
        bool f = false, r = false, b = false;
        while (*q && strchr("rRfFbBuU", *q) && q - p < 2) {
            if (*q == 'f' || *q == 'F') f = true;
            if (*q == 'r' || *q == 'R') r = true;
            if (*q == 'b' || *q == 'B') b = true;
            q++;
        }
        if ((*q == '\'' || *q == '"') && (q == p || !isalnum((unsigned char)*q))) {
            char quote = *q;
            bool triple = q[1] == quote && q[2] == quote;
            const char *body = q + (triple ? 3 : 1), *e = body;
            int sline = line;
            for (;;) {
                if (*e == 0) {
                    if (triple) { tl->incomplete = true; tl->open_string_line = sline; tl->open_string_col = col; return; }
                    lex_err(tl, p, sline, col, "unterminated string literal (a quote is missing)");
                    return;
                }
                if (*e == '\\' && !r && e[1]) { if (e[1] == '\n') line++; e += 2; continue; }
                if (*e == '\\' && r && e[1]) { e += 2; continue; }
                if (*e == '\n') {
                    if (!triple) { lex_err(tl, p, sline, col, "unterminated string literal (a quote is missing)"); return; }
                    line++;
                    line_start = e + 1;
                }
                if (*e == quote && (!triple || (e[1] == quote && e[2] == quote))) break;
                e++;
            }
            Token *t = push(tl, T_STRING, p, (size_t)(e + (triple ? 3 : 1) - p), sline, col);
            t->fstring = f;
            t->raw = r;
            (void)b;
            /* f-strings keep their raw body: the parser splits it into literal parts and {expressions} */
            if (f) { t->sval = xstrndup(body, (size_t)(e - body)); t->slen = (size_t)(e - body); }
            else {
                const char *bad;
                t->sval = lex_decode(body, e, r, &t->slen, &bad);
                if (bad) { lex_err(tl, p, sline, col, bad); return; }
            }
            p = e + (triple ? 3 : 1);
            continue;
        }
        if (isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80) {
            const char *e = p;
            while (isalnum((unsigned char)*e) || *e == '_' || (unsigned char)*e >= 0x80) e++;
            push(tl, T_NAME, p, (size_t)(e - p), line, col);
            p = e;
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)p[1]))) {
            char buf[128];
            size_t k = 0;
            const char *e = p;
            bool is_float = false;
            if (c == '0' && (p[1] == 'x' || p[1] == 'X' || p[1] == 'b' || p[1] == 'B' || p[1] == 'o' || p[1] == 'O')) {
                int base = (p[1] == 'x' || p[1] == 'X') ? 16 : (p[1] == 'b' || p[1] == 'B') ? 2 : 8;
                e = p + 2;
                while (isalnum((unsigned char)*e) || *e == '_') { if (*e != '_' && k < sizeof buf - 1) buf[k++] = *e; e++; }
                buf[k] = 0;
                char *end;
                errno = 0;
                long long v = strtoll(buf, &end, base);
                if (k == 0 || *end || errno) { lex_err(tl, p, line, col, "invalid number literal"); return; }
                Token *t = push(tl, T_INT, p, (size_t)(e - p), line, col);
                t->ival = v;
                p = e;
                continue;
            }
            while (isdigit((unsigned char)*e) || *e == '_' || *e == '.' ||
                   ((*e == 'e' || *e == 'E') && (isdigit((unsigned char)e[1]) || ((e[1] == '-' || e[1] == '+') && isdigit((unsigned char)e[2]))))) {
                if (*e == '.') {
                    if (is_float) break;
                    if (e[1] == '.') break;
                    is_float = true;
                }
                if (*e == 'e' || *e == 'E') {
                    is_float = true;
                    if (k < sizeof buf - 1) buf[k++] = *e;
                    e++;
                    if (*e == '-' || *e == '+') { if (k < sizeof buf - 1) buf[k++] = *e; e++; }
                    continue;
                }
                if (*e != '_' && k < sizeof buf - 1) buf[k++] = *e;
                e++;
            }
            buf[k] = 0;
            if (isalpha((unsigned char)*e) || *e == '_') {
                if (*e == 'j' || *e == 'J') lex_err(tl, p, line, col, "complex numbers are not supported");
                else lex_err(tl, p, line, col, "invalid number literal (a name cannot start with a digit)");
                return;
            }
            if (is_float) {
                Token *t = push(tl, T_FLOAT, p, (size_t)(e - p), line, col);
                t->fval = strtod(buf, NULL);
            } else {
                errno = 0;
                long long v = strtoll(buf, NULL, 10);
                if (errno == ERANGE) { lex_err(tl, p, line, col, "integer literal is too large (attn integers are 64-bit)"); return; }
                Token *t = push(tl, T_INT, p, (size_t)(e - p), line, col);
                t->ival = v;
            }
            p = e;
            continue;
        }
        size_t oplen = 0;
        for (int i = 0; ops3[i]; i++) if (!strncmp(p, ops3[i], 3)) { oplen = 3; break; }
        if (!oplen) for (int i = 0; ops2[i]; i++) if (!strncmp(p, ops2[i], 2)) { oplen = 2; break; }
        if (!oplen && strchr(ops1, c)) oplen = 1;
        if (!oplen) {
            char msg[96];
            if ((unsigned char)c < 32) snprintf(msg, sizeof msg, "invalid character (code %d) in input", (unsigned char)c);
            else snprintf(msg, sizeof msg, "invalid character '%c' in input", c);
            lex_err(tl, p, line, col, msg);
            return;
        }
        if (c == '(' || c == '[' || c == '{') {
            if (depth < 256) { opens[depth].c = c; opens[depth].line = line; opens[depth].col = col; }
            depth++;
        }
        if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
        push(tl, T_OP, p, oplen, line, col);
        p += oplen;
    }
    if (depth > 0) {
        int k = depth <= 256 ? depth - 1 : 255;
        tl->incomplete = true;
        tl->open_char = opens[k].c;
        tl->open_line = opens[k].line;
        tl->open_col = opens[k].col;
    }
    if (tl->n > 0 && tl->toks[tl->n - 1].kind != T_NEWLINE) push(tl, T_NEWLINE, p, 0, line, (int)(p - line_start) + 1);
    while (ni > 1) { ni--; push(tl, T_DEDENT, p, 0, line, 1); }
    push(tl, T_EOF, p, 0, line, (int)(p - line_start) + 1);
}

void lex_free(TokenList *tl) {
    for (int i = 0; i < tl->n; i++) free(tl->toks[i].sval);
    free(tl->toks);
    memset(tl, 0, sizeof *tl);
}

bool lex_is_op(const Token *t, const char *op) {
    return t->kind == T_OP && t->len == strlen(op) && !strncmp(t->start, op, t->len);
}
bool lex_is_name(const Token *t, const char *name) {
    return t->kind == T_NAME && t->len == strlen(name) && !strncmp(t->start, name, t->len);
}

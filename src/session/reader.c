/* reader.c - lines to statements. A statement continues while brackets, strings or a trailing backslash are
 * open (the parser says "incomplete"), and a for/if/while/def header takes the indented lines after it; at the
 * prompt a blank line ends the block, as in Python's REPL. */
#include "reader.h"
#include "interp.h"
#include "strbuf.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void reader_init_file(LineReader *r, FILE *in, const LineEditor *editor) {
    memset(r, 0, sizeof *r);
    r->in = in;
    r->editor = editor;
    r->show_prompts = editor != NULL;
}

void reader_init_text(LineReader *r, const char *text) {
    memset(r, 0, sizeof *r);
    r->text = text;
}

void reader_free(LineReader *r) {
    free(r->pushback);
    r->pushback = NULL;
}

void reader_unread(LineReader *r, char *line) {
    free(r->pushback);
    r->pushback = line;
    r->lineno--;
}

#define MAX_LINE_BYTES (1 << 20)

char *reader_line(LineReader *r, bool continuation) {
    if (r->pushback) {
        char *l = r->pushback;
        r->pushback = NULL;
        r->lineno++;
        return l;
    }
    if (r->editor) {
        r->prompts++;
        char *l = r->editor->read(continuation ? "  ...> " : "attn> ", &r->interrupted);
        if (l) r->lineno++;
        return l;
    }
    StrBuf b;
    sb_init(&b);
    if (r->text) {
        if (!r->text[r->text_pos]) return NULL;
        const char *s = r->text + r->text_pos, *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        sb_putn(&b, s, n);
        r->text_pos += n + (e ? 1 : 0);
    } else {
        int c;
        bool any = false;
        while ((c = fgetc(r->in)) != EOF) {
            any = true;
            if (c == '\n') break;
            if (b.len < MAX_LINE_BYTES) sb_putc(&b, (char)c);
        }
        if (!any) { sb_free(&b); return NULL; }
    }
    if (b.len && b.s[b.len - 1] == '\r') b.s[--b.len] = 0;
    r->lineno++;
    return sb_take(&b);
}

/* A line with nothing to run: empty, white space, or only a comment. */
static bool blank(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return *s == 0 || *s == '#';
}

/* A line of white space only: at a terminal this ends a block (a comment line does not, as in Python's REPL). */
static bool empty(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return *s == 0;
}

static bool starts_word(const char *s, const char *w) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(w);
    return !strncmp(s, w, n) && !isalnum((unsigned char)s[n]) && s[n] != '_';
}

/* Does the statement begin a block (for/while/if/def/class/with/try, after any @decorator lines), and does that header
 * line end with ':' (body below)? */
static bool is_compound(const char *buf, bool *body_below) {
    while (*buf == ' ' || *buf == '\t') buf++;
    while (*buf == '@') {                    /* decorators: the def or class is on a later line */
        const char *e = strchr(buf, '\n');
        if (!e) { *body_below = false; return true; }
        buf = e + 1;
        while (*buf == ' ' || *buf == '\t') buf++;
    }
    bool c = starts_word(buf, "for") || starts_word(buf, "while") || starts_word(buf, "if") ||
             starts_word(buf, "def") || starts_word(buf, "class") || starts_word(buf, "with") ||
             starts_word(buf, "try");        /* refused by the parser, once for the whole block */
    const char *e = strchr(buf, '\n');
    size_t n = e ? (size_t)(e - buf) : strlen(buf);
    while (n > 0 && (buf[n - 1] == ' ' || buf[n - 1] == '\t')) n--;
    *body_below = c && n > 0 && buf[n - 1] == ':';
    return c;
}

/* Does this line carry the block on: indented, or an else/elif/except/finally clause? */
static bool continues_block(const char *line) {
    return !blank(line) && (line[0] == ' ' || line[0] == '\t' || starts_word(line, "else") || starts_word(line, "elif") ||
                            starts_word(line, "except") || starts_word(line, "finally"));
}

static void append_line(StrBuf *buf, const char *line) {
    sb_putc(buf, '\n');
    sb_puts(buf, line);
}

/* After a complete block header and body so far, takes the next lines that belong to the block. Blank and comment
 * lines say nothing by themselves: in a file the next line with code decides (indented: the block goes on); at a
 * terminal an empty line ends the block, as in Python's REPL, unless it is part of pasted text (the book's classes
 * have empty lines between methods): then the next line decides, as in a file. Returns false when the block ended. */
static bool take_block_lines(LineReader *r, StrBuf *buf, char *next) {
    bool terminal = r->editor && !(empty(next) && r->editor->input_pending());
    if (terminal) {
        if (empty(next) || !(blank(next) || continues_block(next))) {
            if (!empty(next)) reader_unread(r, next);
            else free(next);
            return false;
        }
        append_line(buf, next);
        free(next);
        return true;
    }
    StrBuf pending;
    sb_init(&pending);
    while (next && blank(next)) {
        append_line(&pending, next);
        free(next);
        next = reader_line(r, true);
    }
    bool more = next && continues_block(next);
    if (more) {
        sb_puts(buf, sb_str(&pending));
        append_line(buf, next);
        free(next);
    } else if (next) {
        reader_unread(r, next);
    }
    sb_free(&pending);
    return more;
}

void statement_free(Statement *st) {
    free(st->text);
    if (st->parsed) ast_free(st->parse.tree);
    memset(st, 0, sizeof *st);
}

/* One statement, or false at the end of input or after Ctrl-C (r->interrupted). */
static bool read_one(LineReader *r, Statement *st) {
    memset(st, 0, sizeof *st);
    char *line;
    /* skip blank lines between statements */
    for (;;) {
        line = reader_line(r, false);
        if (!line) return false;
        if (!blank(line) || r->editor || r->keep_blank) break;
        free(line);
    }
    st->first_line = r->lineno;
    StrBuf buf;
    sb_init(&buf);
    sb_puts(&buf, line);
    free(line);
    if ((r->editor || r->keep_blank) && blank(sb_str(&buf))) { st->text = sb_take(&buf); return true; }
    for (;;) {
        /* the last parse made is of the final text: it is handed over with it (never parsed twice) */
        if (st->parsed) { ast_free(st->parse.tree); st->parsed = false; }
        if (buf.len > INTERP_MAX_LINE) break;
        st->parse = parse_program(sb_str(&buf), st->first_line);
        st->parsed = true;
        bool incomplete = !st->parse.tree && st->parse.incomplete;
        bool body_below = false;
        bool compound = is_compound(sb_str(&buf), &body_below);
        if (!incomplete && !compound) break;
        if (!incomplete && compound && r->editor && !body_below && !strchr(sb_str(&buf), '\n')) break;
        char *next = reader_line(r, true);
        if (!next && r->interrupted) { sb_free(&buf); statement_free(st); return false; }
        if (!next) break;
        if (incomplete) {
            append_line(&buf, next);
            free(next);
        } else if (!take_block_lines(r, &buf, next)) {
            break;
        }
    }
    st->text = sb_take(&buf);
    return true;
}

bool reader_read_statement(LineReader *r, Statement *st) {
    for (;;) {
        if (read_one(r, st)) return true;
        if (!r->interrupted) return false;
        r->interrupted = false;          /* Ctrl-C: the unfinished statement is dropped; read a new one */
    }
}

/* The indentation of the last line of text, and four spaces more when it opens a block (ends with ':'). */
static void next_indent(const char *text, char *indent, size_t n) {
    const char *last = strrchr(text, '\n');
    last = last ? last + 1 : text;
    size_t k = strspn(last, " \t"), len = strlen(last);
    while (len > 0 && (last[len - 1] == ' ' || last[len - 1] == '\t')) len--;
    bool opens = len > 0 && last[len - 1] == ':';
    snprintf(indent, n, "%.*s%s", (int)k, last, opens ? "    " : "");
}

const char *reader_completeness(const char *text, char *indent, size_t n) {
    indent[0] = 0;
    if (empty(text) || !*text) return "complete";
    if (strlen(text) > INTERP_MAX_LINE) return "invalid";
    ParseResult pr = parse_program(text, 1);
    bool tree = pr.tree != NULL, incomplete = pr.incomplete;
    ast_free(pr.tree);
    if (!tree && incomplete) { next_indent(text, indent, n); return "incomplete"; }
    /* a block goes on until an empty line, as the reader takes it at the prompt (a header whose body is still to
     * come, "class A:\n    def f(self):", is not yet an error) */
    bool body_below;
    const char *last = strrchr(text, '\n');
    bool block_open = is_compound(text, &body_below) && (body_below || last) && !(last && empty(last + 1));
    if (!block_open) return tree ? "complete" : "invalid";
    next_indent(text, indent, n);
    return "incomplete";
}

/* notebook.c - a lesson as a Jupyter notebook (attn notebook N): nbformat 4 JSON on the attn kernel. The lesson's
 * prose becomes Markdown cells, each statement a code cell, and each question a code cell the student fills in,
 * headed by a line the kernel knows ("%%question LESSON STEP K --lang LL"): attn --frames grades what the cell runs
 * with the terminal lesson's checker (lesson_take), so checks, hints, forbid: and wrong: explanations are the same.
 * A lesson is a stranger's file: its text reaches the notebook as text, never as markup (Markdown's HTML, math and
 * entities escaped outside code; fenced and indented code blocks as code, literal; control characters shown as \xHH), and as JSON that is valid whatever bytes it
 * holds (escapes for quotes, backslashes, control characters, "</" and bytes that are not UTF-8). */
#include "lesson.h"
#include "lesson_translation.h"
#include "i18n.h"
#include "mdblock.h"
#include "strbuf.h"
#include "textwidth.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL_DISPLAY_NAME "attn (d2l \xc2\xa7" "11.6)"    /* jupyter/attn_kernel/install.py's */

/* ---- JSON ---- */

/* s as a JSON string literal: valid UTF-8 kept, a byte that is not UTF-8 as U+FFFD, control characters, DEL and the
 * line separators U+2028/9 as \uXXXX, and "</" as "<\/" (a notebook embedded in an HTML page cannot close its
 * <script>). */
static void json_str(StrBuf *o, const char *s) {
    sb_putc(o, '"');
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = tw_decode(s + i, n - i, &cp);
        unsigned char c = (unsigned char)s[i];
        if (cp == 0xFFFD && k == 1 && c >= 0x80) sb_puts(o, "\\ufffd");
        else if (c == '"' || c == '\\') { sb_putc(o, '\\'); sb_putc(o, (char)c); }
        else if (c == '\n') sb_puts(o, "\\n");
        else if (c == '\t') sb_puts(o, "\\t");
        else if (c < 0x20 || c == 0x7f || cp == 0x2028 || cp == 0x2029) sb_printf(o, "\\u%04x", (unsigned)cp);
        else if (c == '<' && s[i + 1] == '/') { sb_puts(o, "<\\/"); k = 2; }
        else sb_putn(o, s + i, k);
        i += k;
    }
    sb_putc(o, '"');
}

/* ---- Markdown that renders as text ---- */

/* One stretch of prose (no code in it) with what Markdown renderers would take as markup made literal: '<' and '&'
 * as entities (no HTML, no entity of the lesson's own), '$' escaped (Jupyter's math), "![" escaped (an image would be
 * fetched from wherever it names when the notebook is opened: a link stays one). Emphasis, lists and the like stay:
 * they are the lesson's Markdown. */
static void md_escape(StrBuf *o, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '!' && i + 1 < n && s[i + 1] == '[') sb_puts(o, "\\!");
        else if (s[i] == '<') sb_puts(o, "&lt;");
        else if (s[i] == '>') sb_puts(o, "&gt;");
        else if (s[i] == '&') sb_puts(o, "&amp;");
        else if (s[i] == '$') sb_puts(o, "\\$");
        else if (s[i] == '\\') sb_puts(o, "\\\\");
        else sb_putc(o, s[i]);
    }
}

static size_t run_of(const char *s, char c) {
    size_t k = 0;
    while (s[k] == c) k++;
    return k;
}

/* A paragraph of prose: `code spans` copied as they are (Markdown shows them literally), each line break in one as a
 * space (as Markdown shows it; a line of it that began with <div would be an HTML block, read before code spans),
 * the rest escaped. */
static void md_inline(StrBuf *o, const char *s) {
    while (*s) {
        const char *tick = strchr(s, '`');
        if (!tick) { md_escape(o, s, strlen(s)); return; }
        md_escape(o, s, (size_t)(tick - s));
        size_t k = run_of(tick, '`');
        const char *close = tick + k;
        while ((close = strchr(close, '`')) && run_of(close, '`') != k) close += run_of(close, '`');
        if (!close) {                       /* no closing run: the backquotes are text */
            for (size_t i = 0; i < k; i++) sb_puts(o, "\\`");
            s = tick + k;
            continue;
        }
        for (const char *p = tick; p < close + k; p++) sb_putc(o, *p == '\n' ? ' ' : *p);
        s = close + k;
    }
}

static bool blank_line(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
    return true;
}

static bool indented(const char *s, size_t n) { return n >= 4 && !strncmp(s, "    ", 4); }

/* Whether the text at s (n bytes) starts with a wide (CJK) character. */
static bool wide_at(const char *s, size_t n) {
    uint32_t cp;
    tw_decode(s, n, &cp);
    return tw_char_width(cp) == 2;
}

/* Whether the paragraph so far ends with a wide character and its line break: a Japanese or Chinese line wrapped
 * there, which Markdown would join with a space that the language does not have. */
static bool wide_end(const StrBuf *para) {
    if (para->len < 2 || para->s[para->len - 1] != '\n') return false;
    size_t i = para->len - 1;
    while (i > 0 && ((unsigned char)para->s[i - 1] & 0xC0) == 0x80) i--;
    return i > 0 && wide_at(para->s + i - 1, para->len - i);
}

/* Text as a fenced code block (shown as written, nothing in it escaped): a fence of backquotes one longer than the
 * longest run of them anywhere in the text (at least three), so no line of it closes the block early, whatever a
 * renderer takes for a closing fence; the lesson's info word (python) kept when it is a plain word. */
static void code_block(StrBuf *o, const char *s, size_t n, const char *info, size_t info_len) {
    size_t fence = 3;
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        while (i + k < n && s[i + k] == '`') k++;
        if (k >= fence) fence = k + 1;
        i += k ? k : 1;
    }
    size_t w = 0;
    while (w < info_len && (isalnum((unsigned char)info[w]) || strchr("_+-.#", info[w]))) w++;
    sb_pad(o, '`', (long)fence);
    if (w && (w == info_len || info[w] == ' ')) sb_putn(o, info, w);
    sb_putc(o, '\n');
    sb_putn(o, s, n);
    if (n && s[n - 1] != '\n') sb_putc(o, '\n');
    sb_pad(o, '`', (long)fence);
    sb_putc(o, '\n');
}

/* Prose (a lesson's Markdown) as a notebook's Markdown: control characters shown as \xHH, as at the terminal; a line
 * break between two CJK characters dropped (Markdown would show it as a space); fenced blocks (``` or ~~~, closed by
 * their own kind or running to the end, as CommonMark reads them) and indented ones as code blocks (code_block); each
 * paragraph through md_inline. */
static void md_prose(StrBuf *o, const char *raw) {
    StrBuf v, para, code;
    sb_init(&v);
    sb_init(&para);
    sb_init(&code);
    tw_visible(&v, raw, strlen(raw), true);
    const char *s = sb_str(&v);
    bool after_blank = true;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        MdFence f;
        if (md_fence_open(s, n, &f)) {
            const char *body = nl ? nl + 1 : s + n, *q = body, *body_end = NULL, *after = NULL;
            while (*q && !body_end) {
                const char *qe = strchr(q, '\n');
                size_t qn = qe ? (size_t)(qe - q) : strlen(q);
                if (md_fence_closes(q, qn, &f)) { body_end = q; after = qe ? qe + 1 : q + qn; }
                else q = qe ? qe + 1 : q + qn;
            }
            if (!body_end) body_end = after = q;          /* not closed: to the end of the prose */
            if (para.len) { md_inline(o, sb_str(&para)); sb_clear(&para); }
            code_block(o, body, (size_t)(body_end - body), f.info, f.info_len);
            s = after;
            after_blank = true;
            continue;
        }
        if (after_blank && indented(s, n) && !blank_line(s, n)) {
            /* an indented block: lines indented by 4 (and blank lines between them) */
            const char *end = s, *last = s;
            while (*end) {
                const char *e2 = strchr(end, '\n');
                size_t m = e2 ? (size_t)(e2 - end) : strlen(end);
                if (!indented(end, m) && !blank_line(end, m)) break;
                if (!blank_line(end, m)) last = end + m;
                end = e2 ? e2 + 1 : end + m;
            }
            if (para.len) { md_inline(o, sb_str(&para)); sb_clear(&para); }
            sb_clear(&code);
            for (const char *p = s; p < last;) {
                const char *e2 = memchr(p, '\n', (size_t)(last - p));
                size_t m = e2 ? (size_t)(e2 - p) : (size_t)(last - p);
                if (m >= 4) sb_putn(&code, p + 4, m - 4);
                sb_putc(&code, '\n');
                p = e2 ? e2 + 1 : last;
            }
            code_block(o, code.s, code.len, "", 0);
            s = last;
            if (*s == '\n') s++;
            after_blank = false;
            continue;
        }
        if (para.len && wide_end(&para) && n && wide_at(s, n)) para.s[--para.len] = 0;   /* CJK lines join as one */
        sb_putn(&para, s, n);
        sb_putc(&para, '\n');
        after_blank = blank_line(s, n);
        if (after_blank) { md_inline(o, sb_str(&para)); sb_clear(&para); }
        s = nl ? nl + 1 : s + n;
    }
    if (para.len) md_inline(o, sb_str(&para));
    while (o->len && o->s[o->len - 1] == '\n') o->s[--o->len] = 0;
    sb_free(&v);
    sb_free(&para);
    sb_free(&code);
}

/* ---- cells ---- */

typedef struct Notebook {
    StrBuf json;        /* the cells written so far */
    StrBuf md;          /* Markdown waiting for the next code cell */
    int ncells;
    I18nLang lang;      /* the language it is written in (--lang, the locale) */
} Notebook;

static void cell_head(Notebook *nb, const char *type) {
    sb_puts(&nb->json, nb->ncells ? ",\n  {" : "\n  {");
    nb->ncells++;
    sb_printf(&nb->json, "\"cell_type\": \"%s\", \"id\": \"c%d\", ", type, nb->ncells);
}

static void flush_markdown(Notebook *nb) {
    while (nb->md.len && nb->md.s[nb->md.len - 1] == '\n') nb->md.s[--nb->md.len] = 0;
    if (!nb->md.len) return;
    cell_head(nb, "markdown");
    sb_puts(&nb->json, "\"metadata\": {}, \"source\": ");
    json_str(&nb->json, sb_str(&nb->md));
    sb_putc(&nb->json, '}');
    sb_clear(&nb->md);
}

static void md_para(Notebook *nb) {
    if (nb->md.len) sb_puts(&nb->md, "\n\n");
}

/* A code cell; `raises`: the lesson shows it failing, so running the notebook goes on past its error. */
static void code_cell(Notebook *nb, const char *src, bool raises) {
    flush_markdown(nb);
    cell_head(nb, "code");
    sb_printf(&nb->json, "\"execution_count\": null, \"metadata\": {%s}, \"outputs\": [], \"source\": ",
              raises ? "\"tags\": [\"raises-exception\"]" : "");
    json_str(&nb->json, src);
    sb_putc(&nb->json, '}');
}

/* A question: its prompt joins the Markdown, then the cell the student answers in (the kernel's header line, and a
 * comment saying what to type). */
static void question_cells(Notebook *nb, const Lesson *l, const LessonStep *st, int k, const LessonQuestion *q) {
    StrBuf p, cell;
    sb_init(&p);
    sb_init(&cell);
    md_prose(&p, q->prompt);
    md_para(nb);
    const char *fmt = TR(nb->lang, "\nQuestion: %s\n");
    while (*fmt == '\n') fmt++;
    sb_printf(&nb->md, fmt, sb_str(&p));
    sb_printf(&cell, "%s %s %s %d --lang %s\n# ", LESSON_CELL_MAGIC, l->id, st->id, k, i18n_code(nb->lang));
    const char *say = TR(nb->lang, "(type your answer; hint, solution or skip if you are stuck)\n");
    sb_putn(&cell, say, strcspn(say, "\n"));
    sb_putc(&cell, '\n');
    code_cell(nb, sb_str(&cell), false);
    sb_free(&p);
    sb_free(&cell);
}

int lesson_notebook_write(I18nLang lang, const char *which, FILE *out) {
    Lesson *l = lesson_open(lang, which);
    if (!l) return 2;
    Notebook nb;
    nb.lang = lang;
    sb_init(&nb.json);
    sb_init(&nb.md);
    nb.ncells = 0;
    sb_puts(&nb.md, "# ");
    md_prose(&nb.md, l->title);
    if (l->section) { sb_puts(&nb.md, "\n\nd2l.ai "); md_prose(&nb.md, l->section); }     /* as the runner says it */
    if (l->intro) { md_para(&nb); md_prose(&nb.md, l->intro); }
    for (int s = 0; s < l->nsteps; s++) {
        const LessonStep *st = &l->steps[s];
        md_para(&nb);
        sb_puts(&nb.md, "## ");
        md_prose(&nb.md, st->title);
        int k = 0;
        for (int i = 0; i < st->nitems; i++) {
            const LessonItem *it = &st->items[i];
            if (it->kind == ITEM_PROSE) { md_para(&nb); md_prose(&nb.md, it->text); }
            else if (it->kind == ITEM_RUN) code_cell(&nb, it->text, lesson_item_shows_error(it));
            else question_cells(&nb, l, st, ++k, it->q);
        }
    }
    flush_markdown(&nb);
    StrBuf doc;
    sb_init(&doc);
    sb_puts(&doc, "{\n \"cells\": [");
    sb_puts(&doc, sb_str(&nb.json));
    sb_puts(&doc, "\n ],\n \"metadata\": {\n  \"kernelspec\": {\"display_name\": ");
    json_str(&doc, KERNEL_DISPLAY_NAME);
    sb_puts(&doc, ", \"language\": \"python\", \"name\": \"attn\"},\n"
                  "  \"language_info\": {\"name\": \"python\", \"file_extension\": \".py\", \"mimetype\": \"text/x-python\"},\n"
                  "  \"attn\": {\"lesson\": ");
    json_str(&doc, l->id);
    sb_printf(&doc, ", \"lang\": \"%s\"}\n },\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n", i18n_code(lang));
    size_t wrote = fwrite(doc.s, 1, doc.len, out);
    int rc = wrote == doc.len && fflush(out) == 0 && !ferror(out) ? 0 : 1;
    if (rc) perror("attn notebook");
    sb_free(&doc);
    sb_free(&nb.json);
    sb_free(&nb.md);
    lesson_free(l);
    return rc;
}

/* ---- the question a cell names ---- */

void lesson_cell_close(LessonCell *c) {
    lesson_free(c->l);
    c->l = NULL;
    c->q = NULL;
    c->step = NULL;
}

static bool plain_word(const char *w) {
    if (!*w) return false;
    for (; *w; w++) if (!isalnum((unsigned char)*w) && *w != '-' && *w != '_' && *w != '.') return false;
    return true;
}

/* The words of s (split at blanks) into w[0..max), as pointers and lengths; the count, max + 1 when there are more. */
static int words_of(const char *s, const char **w, size_t *len, int max) {
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r') s++;
        if (!*s) return n;
        if (n == max) return max + 1;
        w[n] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r') s++;
        len[n] = (size_t)(s - w[n]);
        n++;
    }
}

#define CELL_MAX_QUESTION 9999      /* a question number past this names none (and strtol's range is never met) */

/* "%%question LESSON STEP K [--lang LL]": the words (of any length; a step id is one word, lesson_load sees to it),
 * K read by strtol as a whole number 1..CELL_MAX_QUESTION, else an error that quotes it. */
bool lesson_cell_open(I18nLang lang, const char *header, LessonCell *c, AttnError *err) {
    c->l = NULL;
    c->q = NULL;
    c->step = NULL;
    c->k = 0;
    c->lang = I18N_EN;
    const char *w[5];
    size_t wl[5];
    size_t m = strlen(LESSON_CELL_MAGIC);
    int nw = strncmp(header, LESSON_CELL_MAGIC, m) || (header[m] != ' ' && header[m] != '\t') ? 0
           : words_of(header + m, w, wl, 5);
    char *lesson = nw >= 1 ? xstrndup(w[0], wl[0]) : NULL;
    char *asked = nw == 5 ? xstrndup(w[4], wl[4]) : NULL;
    size_t ln = lesson ? strlen(lesson) : 0;  /* NAME.md is a path to lesson_find: a file beside the notebook, not attn's lesson */
    bool ok = (nw == 3 || (nw == 5 && wl[3] == 6 && !strncmp(w[3], "--lang", 6))) && plain_word(lesson)
              && !strchr(lesson, '/') && lesson[0] != '.' && !(ln > 3 && !strcmp(lesson + ln - 3, ".md"))
              && (!asked || i18n_parse_option(asked, &c->lang));
    free(asked);
    if (!ok) {
        free(lesson);
        err_set(err, TR(lang, "this cell's first line names no question of a lesson (it reads %s LESSON STEP N "
                                 "--lang LANG, as attn notebook writes it)"), LESSON_CELL_MAGIC);
        return false;
    }
    char *num = xstrndup(w[2], wl[2]), *end;
    errno = 0;
    long k = strtol(num, &end, 10);
    if (errno || end == num || *end || !isdigit((unsigned char)num[0]) || k < 1 || k > CELL_MAX_QUESTION) {
        err_set(err, TR(lang, "the question number '%s' in this cell's first line is not a whole number from 1 to %d"),
                 num, CELL_MAX_QUESTION);
        free(num);
        free(lesson);
        return false;
    }
    free(num);
    char *step = xstrndup(w[1], wl[1]);
    char *path = lesson_find(lesson);
    if (!path) {
        err_set(err, TR(lang, "attn: no lesson '%s' (attn lesson lists them)\n"), lesson);
        free(lesson);
        free(step);
        return false;
    }
    free(lesson);
    c->l = lesson_load_localized(c->lang, path, err);      /* in the notebook's language, its messages in the kernel's */
    free(path);
    if (!c->l) { free(step); return false; }
    for (int s = 0; s < c->l->nsteps && !c->q; s++) {
        if (strcmp(c->l->steps[s].id, step) != 0) continue;
        int n = 0;
        for (int i = 0; i < c->l->steps[s].nitems && !c->q; i++)
            if (c->l->steps[s].items[i].kind == ITEM_QUESTION && ++n == k) {
                c->q = c->l->steps[s].items[i].q;
                c->step = &c->l->steps[s];
            }
    }
    if (!c->q) {
        err_set(err, TR(lang, "lesson %s, step '%s', has no question %d"), c->l->id, step, (int)k);
        free(step);
        lesson_cell_close(c);
        return false;
    }
    free(step);
    c->k = (int)k;
    return true;
}

/* lesson.c - reading a lesson file into steps, prose, statements and questions (lesson_load; the format is
 * lessons/README.md's). */
#include "lesson.h"
#include "lesson_internal.h"
#include "transcript.h"
#include "textfile.h"
#include "mdblock.h"
#include "parser.h"
#include "strbuf.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LESSON_MAX_FILE (4 << 20)

static void add_item(LessonStep *s, LessonItem it) {
    s->items = xrealloc(s->items, sizeof(LessonItem) * (size_t)(s->nitems + 1));
    s->items[s->nitems++] = it;
}

void lesson_push_str(char ***arr, int *n, const char *s, size_t len) {
    *arr = xrealloc(*arr, sizeof(char *) * (size_t)(*n + 1));
    (*arr)[(*n)++] = xstrndup(s, len);
}

static void free_q(LessonQuestion *q) {
    if (!q) return;
    free(q->prompt);
    free(q->answer);
    for (int i = 0; i < q->naccept; i++) free(q->accept[i]);
    for (int i = 0; i < q->nalts; i++) free(q->alts[i]);
    free(q->alts);
    for (int i = 0; i < q->nwrong; i++) { free(q->wrong[i]); free(q->wrong_why[i]); }
    free(q->wrong_why);
    free(q->name);
    for (int i = 0; i < q->nforbid; i++) free(q->forbid[i]);
    free(q->forbid);
    free(q->forbid_why);
    for (int i = 0; i < q->nhints; i++) free(q->hints[i]);
    free(q->accept);
    free(q->wrong);
    free(q->hints);
    free(q);
}

void lesson_free(Lesson *l) {
    if (!l) return;
    for (int i = 0; i < l->nsteps; i++) {
        LessonStep *s = &l->steps[i];
        for (int k = 0; k < s->nitems; k++) { free(s->items[k].text); free(s->items[k].expected); free_q(s->items[k].q); }
        free(s->items);
        free(s->id);
        free(s->title);
    }
    free(l->steps);
    free(l->path);
    free(l->title);
    free(l->section);
    free(l->id);
    free(l->intro);
    free(l);
}

static char *trim(const char *s, size_t n) {
    while (n && isspace((unsigned char)*s)) { s++; n--; }
    while (n && isspace((unsigned char)s[n - 1])) n--;
    return xstrndup(s, n);
}

/* "Step title {#id}" -> title and id; without {#id} the id is the title in lower case with '-' for spaces. */
static void heading(const char *s, size_t n, char **title, char **id) {
    const char *brace = NULL;
    for (size_t i = 0; i + 2 < n; i++) if (s[i] == '{' && s[i + 1] == '#') brace = s + i;
    if (brace) {
        const char *e = memchr(brace, '}', n - (size_t)(brace - s));
        *title = trim(s, (size_t)(brace - s));
        *id = e ? trim(brace + 2, (size_t)(e - brace - 2)) : trim(brace + 2, n - (size_t)(brace - s) - 2);
        return;
    }
    *title = trim(s, n);
    StrBuf b;
    sb_init(&b);
    for (const char *p = *title; *p; p++) {
        if (isalnum((unsigned char)*p)) sb_putc(&b, (char)tolower((unsigned char)*p));
        else if (b.len && b.s[b.len - 1] != '-') sb_putc(&b, '-');
    }
    while (b.len && b.s[b.len - 1] == '-') b.s[--b.len] = 0;
    *id = sb_take(&b);
}

/* A step id is one word: `jump ID` at the terminal and a notebook's question cell ("%%question LESSON ID N") name
 * it. False, with "path:line: ..." in err, for an empty one or one with a blank in it. */
static bool step_id_ok(const char *id, AttnError *err, const char *path, int line) {
    if (!*id) {
        err_set(err, "%s:%d: the step has no id (write {#id} after the title, a word of letters, digits and '-')", path, line);
        return false;
    }
    if (!id[strcspn(id, " \t\r\n\v\f")]) return true;
    char *dashed = xstrdup(id);
    for (char *c = dashed; *c; c++) if (isspace((unsigned char)*c)) *c = '-';
    err_set(err, "%s:%d: step id '%s' has a blank in it: an id is one word, as jump and notebook cells name it "
             "(write {#%s})", path, line, id, dashed);
    free(dashed);
    return false;
}

/* Where " -> " starts in v[0, n) outside quotes, or n. */
static size_t arrow_at(const char *v, size_t n) {
    char quote = 0;
    for (size_t i = 0; i + 4 <= n; i++) {
        if (quote) { if (v[i] == '\\') i++; else if (v[i] == quote) quote = 0; continue; }
        if (v[i] == '\'' || v[i] == '"') quote = v[i];
        else if (!strncmp(v + i, " -> ", 4)) return i;
    }
    return n;
}

/* The value of a forbid: line, "Y, P_mine -> why", into q (added to any earlier forbid: line's names; the last
 * explanation given is the one shown). False when a name is not an identifier. */
static bool parse_forbid(LessonQuestion *q, const char *val, size_t vlen) {
    size_t cut = arrow_at(val, vlen);
    if (cut < vlen) {
        free(q->forbid_why);
        q->forbid_why = trim(val + cut + 4, vlen - cut - 4);
        if (!*q->forbid_why) return false;
    }
    for (size_t i = 0; i < cut;) {
        size_t j = i;
        while (j < cut && val[j] != ',') j++;
        char *name = trim(val + i, j - i);
        bool ok = *name && (isalpha((unsigned char)*name) || *name == '_');
        for (const char *c = name; ok && *c; c++) ok = isalnum((unsigned char)*c) || *c == '_';
        if (!ok) { free(name); return false; }
        q->forbid = xrealloc(q->forbid, sizeof(char *) * (size_t)(q->nforbid + 1));
        q->forbid[q->nforbid++] = name;
        i = j + 1;
    }
    return q->nforbid > 0;
}

/* Parses the body of a ```question block (lines [s, e)). */
static LessonQuestion *parse_question(const char *s, const char *e, int line, const char *path, AttnError *err) {
    LessonQuestion *q = xcalloc(1, sizeof *q);
    q->tol = 1e-4;
    q->line = line;
    StrBuf prompt;
    sb_init(&prompt);
    int ln = line;
    for (const char *p = s; p < e;) {
        ln++;
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);
        const char *colon = memchr(p, ':', n);
        size_t keylen = colon ? (size_t)(colon - p) : 0;
        const char *val = colon ? colon + 1 : NULL;
        size_t vlen = colon ? n - keylen - 1 : 0;
        while (vlen && *val == ' ') { val++; vlen--; }
        if (colon && keylen == 6 && !strncmp(p, "answer", 6)) {
            if (q->answer) lesson_push_str(&q->alts, &q->nalts, val, vlen);
            else q->answer = trim(val, vlen);
        }
        else if (colon && keylen == 6 && !strncmp(p, "accept", 6)) lesson_push_str(&q->accept, &q->naccept, val, vlen);
        else if (colon && keylen == 5 && !strncmp(p, "wrong", 5)) {
            /* wrong: EXPR -> what the student is told */
            size_t cut = arrow_at(val, vlen);
            q->wrong_why = xrealloc(q->wrong_why, sizeof(char *) * (size_t)(q->nwrong + 1));
            q->wrong_why[q->nwrong] = cut < vlen ? trim(val + cut + 4, vlen - cut - 4) : NULL;
            lesson_push_str(&q->wrong, &q->nwrong, val, cut < vlen ? cut : vlen);
            if (q->wrong_why[q->nwrong - 1] && !*q->wrong_why[q->nwrong - 1]) {
                err_set(err, "%s:%d: nothing after ' -> ' (write the explanation the student sees)", path, ln);
                sb_free(&prompt);
                free_q(q);
                return NULL;
            }
        }
        else if (colon && keylen == 6 && !strncmp(p, "forbid", 6)) {
            /* forbid: NAME, NAME -> what the student is told when an answer reads one */
            if (!parse_forbid(q, val, vlen)) {
                err_set(err, "%s:%d: forbid: takes names separated by commas (forbid: Y, P_mine -> why)", path, ln);
                sb_free(&prompt);
                free_q(q);
                return NULL;
            }
        }
        else if (colon && keylen == 4 && !strncmp(p, "hint", 4)) lesson_push_str(&q->hints, &q->nhints, val, vlen);
        else if (colon && keylen == 9 && !strncmp(p, "tolerance", 9)) {
            char *t = trim(val, vlen), *end;
            q->tol = strtod(t, &end);
            bool bad = end == t || *end || !(q->tol >= 0);
            free(t);
            if (bad) { err_set(err, "%s:%d: tolerance must be a non-negative number", path, ln); sb_free(&prompt); free_q(q); return NULL; }
        } else {
            sb_putn(&prompt, p, n);
            sb_putc(&prompt, '\n');
        }
        p = nl ? nl + 1 : e;
    }
    q->prompt = trim(sb_str(&prompt), prompt.len);
    sb_free(&prompt);
    if (!q->answer || !*q->answer) { err_set(err, "%s:%d: the question has no 'answer:' line", path, line); free_q(q); return NULL; }
    if (!*q->prompt) { err_set(err, "%s:%d: the question has no prompt text", path, line); free_q(q); return NULL; }
    /* all answer: lines assign the same name, or all are expressions */
    q->name = lesson_assigned_name(q->answer);
    for (int i = 0; i < q->nalts; i++) {
        char *n = lesson_assigned_name(q->alts[i]);
        bool same = (!n && !q->name) || (n && q->name && !strcmp(n, q->name));
        free(n);
        if (!same) {
            err_set(err, "%s:%d: the answer: lines must all assign the same name, or all be expressions", path, line);
            free_q(q);
            return NULL;
        }
    }
    return q;
}

Lesson *lesson_load(const char *path, AttnError *err) {
    char *text = textfile_read(path, LESSON_MAX_FILE, err);
    if (!text) return NULL;
    if (!md_text_clean(text, path, err)) { free(text); return NULL; }
    StrBuf b = {text, strlen(text), strlen(text) + 1};
    Lesson *l = xcalloc(1, sizeof *l);
    l->path = xstrdup(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    l->id = xstrdup(base);
    char *dot = strrchr(l->id, '.');
    if (dot) *dot = 0;
    StrBuf prose;
    sb_init(&prose);
    LessonStep *cur = NULL;
    int line = 0;
    const char *p = sb_str(&b);
    bool ok = true;
    while (*p && ok) {
        line++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len && p[len - 1] == '\r') len--;
        const char *next = nl ? nl + 1 : p + strlen(p);
        MdFence fence;
        if (md_fence_open(p, len, &fence)) {
            /* a fenced block: attn, question, or another language (prose) */
            bool is_attn = md_info_is(&fence, "attn"), is_q = md_info_is(&fence, "question");
            const char *body = next, *q = next;
            int start = line;
            while (*q) {
                const char *qe = strchr(q, '\n');
                size_t qn = qe ? (size_t)(qe - q) : strlen(q);
                line++;
                if (md_fence_closes(q, qn, &fence)) break;
                q = qe ? qe + 1 : q + qn;
            }
            if (!*q) { err_set(err, "%s:%d: the ``` block is not closed", path, start); ok = false; break; }
            const char *body_end = q;
            const char *after = strchr(q, '\n');
            next = after ? after + 1 : q + strlen(q);
            if (!is_attn && !is_q) {
                sb_putn(&prose, p, (size_t)(next - p));
                p = next;
                continue;
            }
            if (!cur) { err_set(err, "%s:%d: a ```%s block before the first '## ' step heading", path, start, is_q ? "question" : "attn"); ok = false; break; }
            if (prose.len) { add_item(cur, (LessonItem){ITEM_PROSE, trim(prose.s, prose.len), NULL, NULL, line}); sb_clear(&prose); }
            if (is_q) {
                LessonQuestion *qq = parse_question(body, body_end, start, path, err);
                if (!qq) { ok = false; break; }
                add_item(cur, (LessonItem){ITEM_QUESTION, NULL, NULL, qq, start});
            } else {
                /* the block's inputs and their expected output: read as transcripts are (mdblock.h) */
                MdStep *ms = NULL;
                int nms = 0, capms = 0;
                ok = md_attn_steps(body, body_end, start + 1, path, &ms, &nms, &capms, err);
                for (int i = 0; i < nms; i++)
                    add_item(cur, (LessonItem){ITEM_RUN, ms[i].input, ms[i].expected, NULL, ms[i].line});
                free(ms);
                if (!ok) break;
            }
            p = next;
            continue;
        }
        if (len > 2 && !strncmp(p, "# ", 2) && !l->title) {
            l->title = trim(p + 2, len - 2);
        } else if (len > 3 && !strncmp(p, "## ", 3)) {
            if (cur && prose.len) { add_item(cur, (LessonItem){ITEM_PROSE, trim(prose.s, prose.len), NULL, NULL, line}); sb_clear(&prose); }
            if (!cur && prose.len) { l->intro = trim(prose.s, prose.len); sb_clear(&prose); }
            l->steps = xrealloc(l->steps, sizeof(LessonStep) * (size_t)(l->nsteps + 1));
            cur = &l->steps[l->nsteps++];
            memset(cur, 0, sizeof *cur);
            heading(p + 3, len - 3, &cur->title, &cur->id);
            cur->line = line;
            if (!step_id_ok(cur->id, err, path, line)) { ok = false; break; }
            for (int i = 0; i < l->nsteps - 1; i++)
                if (!strcmp(l->steps[i].id, cur->id)) {
                    err_set(err, "%s:%d: step id '%s' is used twice (lines %d and %d)", path, line, cur->id, l->steps[i].line, line);
                    ok = false;
                }
        } else if (len > 8 && !strncmp(p, "Section:", 8) && !l->section) {
            l->section = trim(p + 8, len - 8);
        } else {
            sb_putn(&prose, p, len);
            sb_putc(&prose, '\n');
        }
        p = next;
    }
    if (ok && cur && prose.len) add_item(cur, (LessonItem){ITEM_PROSE, trim(prose.s, prose.len), NULL, NULL, line});
    sb_free(&prose);
    sb_free(&b);
    if (ok && !l->title) { err_set(err, "%s:1: a lesson starts with a '# Title' line", path); ok = false; }
    if (ok && l->nsteps == 0) { err_set(err, "%s: the lesson has no '## ' steps", path); ok = false; }
    if (!ok) { lesson_free(l); return NULL; }
    return l;
}

bool lesson_item_shows_error(const LessonItem *it) {
    const char *e = it->expected ? it->expected : "";
    return !strncmp(e, "error: ", 7) || strstr(e, "\nerror: ");
}

bool lesson_is_lesson_file(const char *path) {
    if (strstr(path, "lessons/") == path || strstr(path, "/lessons/")) return true;
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[512];
    bool q = false, first = true, recording = false;
    while (!q && !recording && fgets(line, sizeof line, f)) {
        recording = first && !strncmp(line, LESSON_RECORDING_TITLE, strlen(LESSON_RECORDING_TITLE));
        q = !strncmp(line, "```question", 11);
        first = false;
    }
    fclose(f);
    return q && !recording;
}

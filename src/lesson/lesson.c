/* lesson.c - reading lesson files, checking answers by value, and the soundness check of every question. */
#include "lesson.h"
#include "session.h"
#include "transcript.h"
#include "plot.h"
#include "textfile.h"
#include "mdblock.h"
#include "ops.h"
#include "parser.h"
#include "strbuf.h"
#include "textwidth.h"
#include "builtins.h"
#include "lesson_internal.h"
#include "lesson_translation.h"
#include "session.h"
#include "i18n.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LESSON_MAX_FILE (4 << 20)

static void add_item(LessonStep *s, LessonItem it) {
    s->items = xrealloc(s->items, sizeof(LessonItem) * (size_t)(s->nitems + 1));
    s->items[s->nitems++] = it;
}

static void push_str(char ***arr, int *n, const char *s, size_t len) {
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

static char *assigned_name(const char *src);

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
            if (q->answer) push_str(&q->alts, &q->nalts, val, vlen);
            else q->answer = trim(val, vlen);
        }
        else if (colon && keylen == 6 && !strncmp(p, "accept", 6)) push_str(&q->accept, &q->naccept, val, vlen);
        else if (colon && keylen == 5 && !strncmp(p, "wrong", 5)) {
            /* wrong: EXPR -> what the student is told */
            size_t cut = arrow_at(val, vlen);
            q->wrong_why = xrealloc(q->wrong_why, sizeof(char *) * (size_t)(q->nwrong + 1));
            q->wrong_why[q->nwrong] = cut < vlen ? trim(val + cut + 4, vlen - cut - 4) : NULL;
            push_str(&q->wrong, &q->nwrong, val, cut < vlen ? cut : vlen);
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
        else if (colon && keylen == 4 && !strncmp(p, "hint", 4)) push_str(&q->hints, &q->nhints, val, vlen);
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
    q->name = assigned_name(q->answer);
    for (int i = 0; i < q->nalts; i++) {
        char *n = assigned_name(q->alts[i]);
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

/* ---- checking answers ---- */

/* Is `t` (an assignment target) the name, or a tuple/list of targets holding it? */
static bool target_has(const Node *t, const char *name) {
    if (!t) return false;
    if (t->kind == N_NAME) return !strcmp(t->str, name);
    if (t->kind == N_TUPLE || t->kind == N_LIST) {
        for (int i = 0; i < t->nkids; i++) if (target_has(t->kids[i], name)) return true;
    }
    return false;
}

/* The statements of a parsed chunk (the block's children, or the one statement). */
static Node *const *statements(Node *const *tree, int *n) {
    if (!*tree) { *n = 0; return NULL; }
    if ((*tree)->kind == N_BLOCK) { *n = (*tree)->nkids; return (*tree)->kids; }
    *n = 1;
    return tree;
}

/* True when one of the parsed statements assigns `name` (name = ..., a, name = ..., name += ...). */
static bool tree_assigns(Node *tree, const char *name) {
    int n;
    Node *const *st = statements(&tree, &n);
    bool yes = false;
    for (int i = 0; i < n && !yes; i++) {
        const Node *s = st[i];
        if (s->kind == N_ASSIGN)
            for (int k = 0; k < s->nkids - 1 && !yes; k++) yes = target_has(s->kids[k], name);
        else if (s->kind == N_AUGASSIGN && s->nkids > 0) yes = target_has(s->kids[0], name);
    }
    return yes;
}

bool lesson_answers(const LessonQuestion *q, Node *tree) {
    if (!tree) return false;
    if (q->name) return tree_assigns(tree, q->name);
    int n;
    Node *const *st = statements(&tree, &n);
    return n == 1 && st[0]->kind == N_EXPR_STMT;     /* one expression statement: its value is the answer */
}

bool lesson_line_answers(const LessonQuestion *q, const char *line) {
    ParseResult r = parse_program(line, 1);
    bool yes = lesson_answers(q, r.tree);
    ast_free(r.tree);
    return yes;
}

/* "name = expression" -> name; NULL for anything else. */
static char *assigned_name(const char *src) {
    ParseResult r = parse_program(src, 1);
    int n;
    Node *const *st = statements(&r.tree, &n);
    char *name = NULL;
    if (n == 1 && st[0]->kind == N_ASSIGN && st[0]->nkids == 2 && st[0]->kids[0]->kind == N_NAME) name = xstrdup(st[0]->kids[0]->str);
    ast_free(r.tree);
    return name;
}

char *lesson_answer_name(const LessonQuestion *q, const char *line) { return q->name ? NULL : assigned_name(line); }

/* Runs src in I (a session's interpreter) unseen (session_run_unseen), writing no file; I->last_value is the value of
 * a last bare expression. False, with the error pending on I (quit() made an error that says it is no answer), when
 * it fails. */
static bool run_silently(Interp *I, const char *src) {
    /* an answer is checked unseen: it may not write files at all (a lesson's answer: line once could) */
    FilePolicy *files = &I->run.files;
    bool frozen = files->frozen;
    files->frozen = true;
    RunStatus rs = session_run_unseen(I->session, src);
    files->frozen = frozen;
    if (rs != RUN_OK && interp_error_kind(I) == ERR_QUIT) {
        interp_clear_error(I);
        rt_error(I, "quit() is not an answer (type quit to leave the lesson)");
    }
    return rs == RUN_OK;
}

void lesson_error_take(Interp *I, StrBuf *out) {
    const char *msg = interp_error_msg(I);
    tw_visible(out, msg, strlen(msg), true);     /* control characters as \xHH (a stranger's lesson) */
    interp_clear_error(I);
}

/* The value an answer line stands for, computed without leaving a trace: an assignment's name gets its old
 * binding back. NULL with the error pending on I when it fails or has no value. */
static Value *value_of(Interp *I, const LessonQuestion *q, const char *src) {
    Value *old = q->name ? interp_lookup(I, q->name) : NULL;
    if (old) val_incref(old);
    Value *v = NULL;
    if (run_silently(I, src)) {
        v = q->name ? interp_lookup(I, q->name) : I->last_value;
        if (v) val_incref(v);
        else rt_error(I, "%s", lesson_msg(MSG_NO_VALUE));
    }
    if (q->name) {
        if (old) interp_set_global(I, q->name, old);
        else dict_del(&I->globals, q->name);
    }
    return v;
}

static LessonExpect *lesson_expect_values(Interp *I, const LessonQuestion *q);
static void collect_inputs(Interp *I, const Node *n, bool callee, char ***out, int *nout);
static void answer_inputs(Interp *I, const LessonQuestion *q, char ***names, int *nn);

/* The variables the model answer reads, as they were at one moment: each name's binding (a reference) and, for a
 * tensor, a copy of its values, so that a later look can tell a name bound anew from a tensor changed in place. */
typedef struct { char *name; Value *bound; Tensor *copy; } Kept;
typedef struct { Kept *k; int n; } KeptSet;

static void keep_inputs(Interp *I, const LessonQuestion *q, KeptSet *ks) {
    ks->k = NULL;
    ks->n = 0;
    char **names = NULL;
    int nn = 0;
    answer_inputs(I, q, &names, &nn);
    for (int i = 0; i < nn; i++) {
        names[i][strcspn(names[i], ".")] = 0;          /* attention.attention_weights -> attention */
        bool dup = false;
        for (int k = 0; k < ks->n && !dup; k++) dup = !strcmp(ks->k[k].name, names[i]);
        Value *v = dup ? NULL : interp_lookup(I, names[i]);
        if (!v) { free(names[i]); continue; }
        ks->k = xrealloc(ks->k, sizeof(Kept) * (size_t)(ks->n + 1));
        ks->k[ks->n++] = (Kept){names[i], val_incref(v), v->kind == V_TENSOR ? ten_clone(v->u.t) : NULL};
    }
    free(names);
}

static void kept_free(KeptSet *ks) {
    for (int i = 0; i < ks->n; i++) { free(ks->k[i].name); val_decref(ks->k[i].bound); ten_free(ks->k[i].copy); }
    free(ks->k);
    ks->k = NULL;
    ks->n = 0;
}

static bool same_tensor(const Tensor *a, const Tensor *b) {
    if (!a || !b || a->dtype != b->dtype || !ten_same_shape(a, b)) return false;
    for (int64_t i = 0; i < a->numel; i++) {
        double x = ten_get(a, i), y = ten_get(b, i);
        if (!(x == y || (isnan(x) && isnan(y)))) return false;
    }
    return true;
}

/* The first kept variable that is not what it was (NULL when none): *in_place tells a tensor changed in place (the
 * same object, other values) from a name bound anew or deleted. */
static const Kept *kept_changed(Interp *I, const KeptSet *ks, bool *in_place) {
    for (int i = 0; i < ks->n; i++) {
        const Kept *k = &ks->k[i];
        Value *now = interp_lookup(I, k->name);
        *in_place = now == k->bound;
        bool eq = false;
        if (now == k->bound ? k->copy && !same_tensor(now->u.t, k->copy) : !now || !val_eq(I, now, k->bound, &eq) || !eq) {
            if (interp_failed(I)) interp_clear_error(I);
            return k;
        }
        if (interp_failed(I)) interp_clear_error(I);
    }
    return NULL;
}

struct LessonExpect {
    Value **right;     /* one per answer: line, the model answer first */
    int nright;
    Value **wrong;     /* one per wrong: line; NULL when it failed to run */
    int nwrong;
    KeptSet inputs;    /* what the model answer reads, as it was when the question was asked */
};

struct LessonAttempt {
    Node *tree;        /* a copy of the statement's tree (running it frees the reader's); NULL when unknown */
    const LessonSources *src;   /* where the student's names came from (borrowed; may be NULL) */
    KeptSet before;    /* what the model answer reads, just before the statement ran */
};

LessonAttempt *lesson_attempt_begin(Interp *I, const LessonQuestion *q, Node *tree, const LessonSources *src) {
    LessonAttempt *a = xcalloc(1, sizeof *a);
    a->tree = tree ? ast_clone(tree) : NULL;
    a->src = src;
    keep_inputs(I, q, &a->before);
    return a;
}

void lesson_attempt_free(LessonAttempt *a) {
    if (!a) return;
    kept_free(&a->before);
    ast_free(a->tree);
    free(a);
}

void lesson_expect_free(LessonExpect *e) {
    if (!e) return;
    kept_free(&e->inputs);
    for (int i = 0; i < e->nright; i++) val_decref(e->right[i]);
    for (int i = 0; i < e->nwrong; i++) val_decref(e->wrong[i]);
    free(e->right);
    free(e->wrong);
    free(e);
}

LessonExpect *lesson_expect(Interp *I, const LessonQuestion *q) {
    Rng rng = I->run.rng;        /* the answers' values are found without drawing from the student's generator */
    LessonExpect *e = lesson_expect_values(I, q);
    I->run.rng = rng;
    return e;
}

static LessonExpect *lesson_expect_values(Interp *I, const LessonQuestion *q) {
    LessonExpect *e = xcalloc(1, sizeof *e);
    e->right = xcalloc((size_t)q->nalts + 1, sizeof(Value *));
    e->wrong = xcalloc((size_t)q->nwrong + 1, sizeof(Value *));
    for (int i = 0; i <= q->nalts; i++) {
        e->right[i] = value_of(I, q, i ? q->alts[i - 1] : q->answer);
        if (!e->right[i]) { lesson_expect_free(e); return NULL; }
        e->nright++;
    }
    for (int i = 0; i < q->nwrong; i++)
        if (!(e->wrong[i] = value_of(I, q, q->wrong[i]))) interp_clear_error(I);     /* a wrong: line that fails */
    e->nwrong = q->nwrong;
    keep_inputs(I, q, &e->inputs);
    return e;
}

/* A number, or a tensor holding exactly one. */
static bool numberish(const Value *v) { return val_is_number(v) || (v->kind == V_TENSOR && v->u.t->numel == 1); }
/* A single number as a question's answer: a Python number or a 0-d tensor. */
static bool is_scalar(const Value *v) { return val_is_number(v) || (v->kind == V_TENSOR && v->u.t->ndim == 0); }
static double number_of(const Value *v) { return v->kind == V_TENSOR ? ten_get(v->u.t, 0) : val_as_double(v); }
static bool is_seq(const Value *v) { return v->kind == V_TUPLE || v->kind == V_LIST; }
static bool near(double a, double b, double tol) { return isnan(a) ? isnan(b) : a == b || fabs(a - b) <= tol; }

/* Equal within tol: a single number against any one-number value; tensors by shape then values; sequences item
 * by item; other values by ==. */
static bool same_value(Interp *I, const Value *got, const Value *want, double tol) {
    if (is_scalar(want)) return numberish(got) && near(number_of(got), number_of(want), tol);
    if (want->kind == V_TENSOR) {
        if (got->kind != V_TENSOR || !ten_same_shape(got->u.t, want->u.t)) return false;
        if (want->u.t->dtype == DT_BOOL && got->u.t->dtype != DT_BOOL) return false;     /* a mask is booleans */
        for (int64_t i = 0; i < want->u.t->numel; i++)
            if (!near(ten_get(got->u.t, i), ten_get(want->u.t, i), tol)) return false;
        return true;
    }
    if (is_seq(want) && is_seq(got)) {
        if (got->u.seq.n != want->u.seq.n) return false;
        for (int64_t i = 0; i < want->u.seq.n; i++)
            if (!same_value(I, got->u.seq.items[i], want->u.seq.items[i], tol)) return false;
        return true;
    }
    if (is_seq(want) || is_seq(got)) return false;
    bool eq = false;
    return val_eq(I, got, want, &eq) && eq;      /* a failed == (nested too deep, a raising __eq__) leaves its error set */
}

/* `got` in the form of the answer `want`, as a teacher reads it: a list or tuple of numbers (nested for more
 * dimensions; numbers or 0-d tensors) that has the shape of a tensor answer stands for that tensor, so [u, v]
 * answers as torch.tensor([u, v]) would (compared in float64: the student's digits, not float32's); inside a
 * tuple or list answer, item by item. Anything else, a list of another shape included, stays as it is, so it
 * gets the feedback it always got. A new reference (got itself when nothing changes). */
static Value *answer_form(Interp *I, Value *got, const Value *want) {
    if (want->kind == V_TENSOR && want->u.t->ndim > 0 && is_seq(got)) {
        Tensor *t = interp_to_tensor(I, got, false, DT_F32);
        if (t && ten_is_float(t->dtype) && t->dtype != DT_F64) {
            ten_free(t);
            t = interp_to_tensor(I, got, true, DT_F64);
        }
        if (!t) { interp_clear_error(I); return val_incref(got); }     /* ragged, or not numbers: not a tensor */
        if (!ten_same_shape(t, want->u.t)) { ten_free(t); return val_incref(got); }
        return val_tensor(t);
    }
    if (is_seq(want) && is_seq(got) && got->u.seq.n == want->u.seq.n && !got->u.seq.is_size) {
        Value *out = NULL;
        for (int64_t i = 0; i < got->u.seq.n; i++) {
            Value *item = answer_form(I, got->u.seq.items[i], want->u.seq.items[i]);
            if (item == got->u.seq.items[i] && !out) { val_decref(item); continue; }
            if (!out) {      /* the first item that changed: a copy with the items before it */
                out = got->kind == V_TUPLE ? val_tuple(got->u.seq.n) : val_list(got->u.seq.n);
                for (int64_t k = 0; k < i; k++) val_seq_set(out, k, val_incref(got->u.seq.items[k]));
            }
            val_seq_set(out, i, item);
        }
        if (out) return out;
    }
    return val_incref(got);
}

/* Could `got` be an answer to a question whose answer is `want`? A value of another kind (a 4-number row when a
 * single number is asked for) is the student looking around, not answering. */
static bool same_kind(const Value *got, const Value *want) {
    if (is_scalar(want)) return numberish(got);
    if (want->kind == V_TENSOR) return got->kind == V_TENSOR && ten_same_shape(got->u.t, want->u.t);
    if (is_seq(want)) return is_seq(got);
    if (want->kind == V_STR) return got->kind == V_STR;
    return got->kind == want->kind;
}

static void shape_text(StrBuf *o, const Tensor *t) {
    for (int i = 0; i < t->ndim; i++) sb_printf(o, i ? "×%lld" : "%lld", (long long)t->shape[i]);
}

/* What kind of value v is, in words, without its value: "a single number", "a 2×2×4 tensor", "a tuple of 2 items". */
static void kind_words(StrBuf *o, const Value *v) {
    if (is_scalar(v)) { sb_puts(o, lesson_msg(MSG_A_SINGLE_NUMBER)); return; }
    if (v->kind == V_TENSOR) {
        StrBuf sh;
        sb_init(&sh);
        shape_text(&sh, v->u.t);
        if (v->u.t->numel == 0) sb_printf(o, lesson_msg(MSG_AN_EMPTY_TENSOR), sb_str(&sh));
        else if (v->u.t->ndim == 1 && v->u.t->numel == 1) sb_puts(o, lesson_msg(MSG_A_TENSOR_OF_ONE));
        else if (v->u.t->ndim == 1) sb_printf(o, lesson_msg(MSG_A_TENSOR_OF_N), (long long)v->u.t->numel);
        else sb_printf(o, lesson_msg(MSG_A_SHAPED_TENSOR), sb_str(&sh));
        sb_free(&sh);
        return;
    }
    if (is_seq(v) && v->u.seq.is_size && v->u.seq.n == 1) { sb_puts(o, lesson_msg(MSG_A_SIZE_OF_ONE)); return; }
    if (is_seq(v) && v->u.seq.is_size) { sb_printf(o, lesson_msg(MSG_A_SIZE_OF_N), (long long)v->u.seq.n); return; }
    if (is_seq(v) && v->u.seq.n == 1) { sb_printf(o, lesson_msg(MSG_A_SEQ_OF_ONE), val_type_name(v)); return; }
    if (is_seq(v)) { sb_printf(o, lesson_msg(MSG_A_SEQ_OF_N), val_type_name(v), (long long)v->u.seq.n); return; }
    if (v->kind == V_STR) { sb_puts(o, lesson_msg(MSG_A_STRING)); return; }
    if (v->kind == V_BOOL) { sb_puts(o, lesson_msg(MSG_A_BOOL)); return; }
    sb_printf(o, lesson_msg(MSG_A_VALUE_OF_TYPE), val_type_name(v));
}

/* One element as PyTorch prints it in a tensor of dtype dt: "0.0500", "3", "True". */
static void element_words(TenCtx *c, StrBuf *o, DType dt, double x) {
    Value *v = val_tensor(ten_full_in(c, dt, 0, NULL, x));
    StrBuf r;
    sb_init(&r);
    if (v) val_repr_quiet(NULL, &r, v);      /* a tensor: no student code runs */
    val_decref(v);
    const char *p = sb_str(&r);
    if (!strncmp(p, "tensor(", 7)) p += 7;
    size_t n = strcspn(p, ",)");
    sb_putn(o, p, n);
    if (n && p[n - 1] == '.') sb_putc(o, '0');      /* "2." as in a tensor reads "2.0" in a sentence */
    sb_free(&r);
}

/* The student's own value in words: its digits for a number, its kind for a tensor, its repr when short. */
static void value_words(Interp *I, StrBuf *o, const Value *v) {
    if (v->kind == V_TENSOR && v->u.t->ndim == 0) { element_words(ten_ctx_of(v->u.t), o, v->u.t->dtype, ten_get(v->u.t, 0)); return; }
    if (v->kind != V_TENSOR) {
        StrBuf r;
        sb_init(&r);
        val_repr_quiet(I, &r, v);    /* a __repr__ of the lesson's may hold escapes: shown as \xHH */
        if (r.len <= 60 && !strchr(sb_str(&r), '\n')) { tw_visible(o, r.s, r.len, false); sb_free(&r); return; }
        sb_free(&r);
    }
    kind_words(o, v);
}

/* A flat element number of t as its index: "[1, 2] (row 1, column 2)" for a matrix, "[0, 1, 2]" otherwise. */
static void position_words(StrBuf *o, const Tensor *t, int64_t flat) {
    int64_t idx[16] = {0};
    int nd = t->ndim < 16 ? t->ndim : 16;
    for (int d = nd - 1; d >= 0; d--) { idx[d] = flat % t->shape[d]; flat /= t->shape[d]; }
    sb_putc(o, '[');
    for (int d = 0; d < nd; d++) sb_printf(o, d ? ", %lld" : "%lld", (long long)idx[d]);
    sb_putc(o, ']');
    if (nd == 2) { sb_putc(o, ' '); sb_printf(o, lesson_msg(MSG_POS_ROW_COL), (long long)idx[0], (long long)idx[1]); }
}

/* Why got is not want, in words ("your answer is a 2×2×4 tensor, expected a single number"), never giving the
 * expected value away except one differing element of a tensor. */
static void explain(Interp *I, StrBuf *fb, const char *subject, const Value *got, const Value *want, double tol) {
    StrBuf a, b;
    sb_init(&a);
    sb_init(&b);
    if (!same_kind(got, want) && !(is_seq(want) && is_seq(got))) {
        value_words(I, &a, got);
        kind_words(&b, want);
        sb_printf(fb, lesson_msg(MSG_IS_KIND_EXPECTED), subject, sb_str(&a), sb_str(&b));
    } else if (want->kind == V_TENSOR && want->u.t->ndim > 0) {
        const Tensor *g = got->u.t, *w = want->u.t;
        int64_t bad = 0, first = -1;
        for (int64_t i = 0; i < w->numel; i++)
            if (!near(ten_get(g, i), ten_get(w, i), tol)) { bad++; if (first < 0) first = i; }
        StrBuf pos, mine, theirs;
        sb_init(&pos);
        sb_init(&mine);
        sb_init(&theirs);
        position_words(&pos, w, first < 0 ? 0 : first);
        element_words(ten_ctx_of(g), &mine, g->dtype, ten_get(g, first < 0 ? 0 : first));
        element_words(ten_ctx_of(w), &theirs, w->dtype, ten_get(w, first < 0 ? 0 : first));
        if (bad == 0) sb_printf(fb, lesson_msg(MSG_NOT_BOOL), subject, ten_dtype_name(g->dtype));
        else if (bad == w->numel) sb_printf(fb, lesson_msg(MSG_ALL_VALUES_DIFFER), subject, sb_str(&pos), sb_str(&mine), sb_str(&theirs));
        else sb_printf(fb, lesson_msg(MSG_VALUES_DIFFER), subject, (long long)bad, (long long)w->numel, sb_str(&pos), sb_str(&mine), sb_str(&theirs));
        sb_free(&pos);
        sb_free(&mine);
        sb_free(&theirs);
    } else if (is_seq(want) && is_seq(got) && got->u.seq.n != want->u.seq.n) {
        if (got->u.seq.n == 1) sb_printf(fb, lesson_msg(MSG_ONE_ITEM_DIFFERS), subject, (long long)want->u.seq.n);
        else sb_printf(fb, lesson_msg(MSG_ITEMS_DIFFER), subject, (long long)got->u.seq.n, (long long)want->u.seq.n);
    } else {
        value_words(I, &a, got);
        sb_printf(fb, lesson_msg(MSG_VALUE_IS), subject, sb_str(&a));
    }
    sb_free(&a);
    sb_free(&b);
}

/* Is the student's value `typed` the value `want` (in its form: answer_form)? */
static bool answers_as(Interp *I, Value *typed, const Value *want, double tol) {
    Value *got = answer_form(I, typed, want);
    bool yes = same_value(I, got, want, tol);
    val_decref(got);
    return yes;
}

/* Why `got` (the student's value in the answer's form), which is no right answer, is wrong, or that it is no
 * answer at all (a value of another kind: the student looking around). */
static LessonGrade not_right(Interp *I, const LessonQuestion *q, const LessonExpect *e, Value *typed, const Value *got, StrBuf *fb) {
    const char *subject = q->name ? q->name : lesson_msg(MSG_YOUR_ANSWER);
    for (int i = 0; i < e->nwrong; i++)
        if (e->wrong[i] && answers_as(I, typed, e->wrong[i], q->tol)) {
            if (q->wrong_why[i]) sb_puts(fb, q->wrong_why[i]);
            else explain(I, fb, subject, got, e->right[0], q->tol);
            return GRADE_WRONG;
        }
    if (typed->kind == V_TUPLE && !typed->u.seq.is_size && e->right[0]->kind == V_TENSOR && e->right[0]->u.t->ndim > 0) {
        /* (P[0, 5, 5], u * P[0, 2, 4] + v * P[0, 2, 5]): values side by side, the student checking their work; its
         * values are not compared with the answer's, which that would give away */
        StrBuf a;
        sb_init(&a);
        kind_words(&a, e->right[0]);
        sb_printf(fb, lesson_msg(MSG_TUPLE_CHECK), sb_str(&a));
        sb_free(&a);
        return GRADE_NOT_ANSWER;
    }
    if (!q->name && !same_kind(got, e->right[0])) {
        if (got->kind != V_TENSOR && !numberish(got) && !is_seq(got)) return GRADE_NOT_ANSWER;
        StrBuf a, b;
        sb_init(&a);
        sb_init(&b);
        kind_words(&a, e->right[0]);
        kind_words(&b, got);
        sb_printf(fb, lesson_msg(MSG_NOT_GRADED), sb_str(&a), sb_str(&b));
        sb_free(&a);
        sb_free(&b);
        return GRADE_NOT_ANSWER;
    }
    explain(I, fb, subject, got, e->right[0], q->tol);
    return GRADE_WRONG;
}

/* The first name of q's forbid: line that the statement reads (assignment targets aside), itself or through a name
 * the student computed from it (src, may be NULL: a = Y[0, 2], then a), or NULL. */
static const char *reads_forbidden(const LessonQuestion *q, const Node *n, const LessonSources *src) {
    if (!n || !q->nforbid) return NULL;
    if (n->kind == N_NAME && n->str) {
        for (int i = 0; i < q->nforbid; i++) if (!strcmp(n->str, q->forbid[i])) return q->forbid[i];
        const char *f = lesson_sources_reach(src, n->str, q->forbid, q->nforbid);
        if (f) return f;
    }
    int from = n->kind == N_ASSIGN ? n->nkids - 1 : 0;       /* name = value: only the value is read */
    for (int i = from < 0 ? 0 : from; i < n->nkids; i++) {
        const char *f = reads_forbidden(q, n->kids[i], src);
        if (f) return f;
    }
    return NULL;
}

/* When the statement assigns one name other than the one q asks for, and that name holds a right value: the name. */
static const char *named_otherwise(Interp *I, const LessonQuestion *q, const LessonExpect *e, Node *tree) {
    int n;
    Node *const *st = statements(&tree, &n);
    if (!q->name || n != 1 || st[0]->kind != N_ASSIGN || st[0]->nkids != 2 || st[0]->kids[0]->kind != N_NAME) return NULL;
    const char *other = st[0]->kids[0]->str;
    Value *v = interp_lookup(I, other);
    for (int i = 0; v && i < e->nright; i++) if (answers_as(I, v, e->right[i], q->tol)) return other;
    return NULL;
}

/* A wrong answer that is the model answer worked on variables a detour changed since the question was asked: the
 * name that changed, else NULL. */
static const char *changed_by_detour(Interp *I, const LessonQuestion *q, const LessonExpect *e, Value *typed) {
    bool in_place;
    const Kept *k = kept_changed(I, &e->inputs, &in_place);
    if (!k) return NULL;
    Rng rng = I->run.rng;
    Value *now = value_of(I, q, q->answer);
    I->run.rng = rng;
    if (!now) interp_clear_error(I);
    bool same = now && answers_as(I, typed, now, q->tol);
    val_decref(now);
    return same ? k->name : NULL;
}

LessonGrade lesson_grade(Interp *I, const LessonQuestion *q, const LessonExpect *e, bool answers, LessonAttempt *a,
                         StrBuf *fb) {
    if (!answers) {
        const char *other = a && a->tree ? named_otherwise(I, q, e, a->tree) : NULL;
        if (other) sb_printf(fb, lesson_msg(MSG_NAME_IT), other, q->name, q->name, other);
        return GRADE_NOT_ANSWER;
    }
    Value *typed = q->name ? interp_lookup(I, q->name) : I->last_value;
    if (!typed) return GRADE_NOT_ANSWER;
    val_incref(typed);
    LessonGrade g = GRADE_WRONG;
    for (int i = 0; i < e->nright && g != GRADE_RIGHT; i++)
        if (answers_as(I, typed, e->right[i], q->tol)) {
            /* the lesson's own value stays defined, so later steps print what the lesson says */
            if (q->name) interp_set_global(I, q->name, val_incref(e->right[i]));
            g = GRADE_RIGHT;
        }
    if (g != GRADE_RIGHT) {
        Value *got = answer_form(I, typed, e->right[0]);
        g = not_right(I, q, e, typed, got, fb);
        val_decref(got);
    }
    const char *forbidden = a ? reads_forbidden(q, a->tree, a->src) : NULL;
    bool in_place = false;
    const Kept *changed = a ? kept_changed(I, &a->before, &in_place) : NULL;
    if (g != GRADE_NOT_ANSWER && forbidden) {
        sb_clear(fb);
        if (q->forbid_why) sb_puts(fb, q->forbid_why);
        else sb_printf(fb, lesson_msg(MSG_FORBIDDEN), forbidden);
        g = GRADE_WRONG;
    } else if (g != GRADE_NOT_ANSWER && changed && in_place) {
        /* d2l.masked_softmax(S, ...): right or not, S now holds -1e6; it is put back, and the student told */
        sb_clear(fb);
        sb_printf(fb, lesson_msg(MSG_CHANGED_IN_PLACE), changed->name, changed->name, changed->name);
        interp_set_global(I, changed->name, val_tensor(ten_clone(changed->copy)));
        g = GRADE_WRONG;
    } else if (g == GRADE_WRONG) {
        const char *name = changed_by_detour(I, q, e, typed);
        if (name) { sb_clear(fb); sb_printf(fb, lesson_msg(MSG_RESTART), name); }
    }
    val_decref(typed);
    return g;
}

LessonGrade lesson_try(Interp *I, const LessonQuestion *q, const LessonExpect *e, const char *line, StrBuf *fb) {
    ParseResult r = parse_program(line, 1);
    bool answers = lesson_answers(q, r.tree);
    LessonAttempt *a = lesson_attempt_begin(I, q, r.tree, NULL);
    LessonGrade g = run_silently(I, line) ? lesson_grade(I, q, e, answers, a, fb) : GRADE_FAILED;
    lesson_attempt_free(a);
    ast_free(r.tree);
    return g;
}

LessonGrade lesson_take(Interp *I, const LessonQuestion *q, const LessonExpect *e, const char *line, Node *tree,
                        const LessonSources *src, RunStatus (*run)(void *ctx), void *ctx, RunStatus *rs, StrBuf *fb) {
    val_decref(I->last_value);
    I->last_value = NULL;
    bool answers = lesson_answers(q, tree);
    char *named = answers ? NULL : lesson_answer_name(q, line);       /* n = 64: the value of n is the answer */
    LessonAttempt *att = e ? lesson_attempt_begin(I, q, tree, src) : NULL;
    *rs = run(ctx);
    if (*rs != RUN_OK || !e) {
        free(named);
        lesson_attempt_free(att);
        return GRADE_FAILED;
    }
    Value *v = named ? interp_lookup(I, named) : NULL;
    bool by_name = v != NULL;       /* graded only when right: a name set while working it out is not a miss */
    if (v) {
        val_decref(I->last_value);
        I->last_value = val_incref(v);
        answers = true;
    }
    LessonGrade g = lesson_grade(I, q, e, answers, att, fb);
    lesson_attempt_free(att);
    if (g == GRADE_RIGHT) sb_clear(fb);
    else if (by_name && g == GRADE_WRONG) {
        sb_clear(fb);
        sb_printf(fb, TR("(not graded: %s is set; an answer is a value or an expression typed alone, such as %s)\n"),
                  named, named);
        g = GRADE_NOT_ANSWER;
    } else if (fb->len) {
        tw_tidy_cjk_spaces(fb->s);     /* translated pieces joined: no space between two CJK words */
        fb->len = strlen(fb->s);
        if (g == GRADE_WRONG && fb->s[fb->len - 1] == '.') fb->s[--fb->len] = 0;     /* an explanation's own full stop */
    }
    free(named);
    return g;
}

bool lesson_item_shows_error(const LessonItem *it) {
    const char *e = it->expected ? it->expected : "";
    return !strncmp(e, "error: ", 7) || strstr(e, "\nerror: ");
}

/* ---- finding lessons ---- */

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where the lessons are: $ATTN_LESSONS when set (asked for explicitly), else the installed ones next to the binary
 * (PREFIX/bin/attn -> PREFIX/share/attn/lessons), else those of the checkout attn was built in (attn or build/attn
 * beside lessons/). A ./lessons folder in the current directory is never taken silently: a stranger's folder
 * would replace the real lessons and share their progress. NULL when none is found. */
const char *lesson_dir(void) {
    static char dir[4200];
    const char *e = getenv("ATTN_LESSONS");
    if (e && *e) return e;
    char exe[4000];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = 0;
    static const char *const rel[] = {"/../share/attn/lessons", "/lessons", "/../lessons"};
    for (int i = 0; i < 3; i++) {
        snprintf(dir, sizeof dir, "%s%s", exe, rel[i]);
        char real[4200];
        if (is_dir(dir)) {
            if (realpath(dir, real)) snprintf(dir, sizeof dir, "%s", real);
            return dir;
        }
    }
    return NULL;
}

/* A line for the lesson list when ./lessons exists but is not the folder in use (NULL otherwise). */
const char *lesson_dir_note(void) {
    static char note[600];
    const char *d = lesson_dir();
    char here[4200], used[4200];
    if (!is_dir("lessons") || !realpath("lessons", here)) return NULL;
    if (d && realpath(d, used) && !strcmp(here, used)) return NULL;
    snprintf(note, sizeof note, "(./lessons here is not used: attn lesson ./lessons/NAME.md runs one of it, and "
                                "ATTN_LESSONS=./lessons lists them; its progress is kept apart)\n");
    return note;
}

/* The name a lesson's progress is kept under: the file name for the lessons in lesson_dir() (and their
 * translations in lesson_dir()/ja, /zh: one lesson whatever the language), the whole path for any other file (a
 * downloaded 01-self-attention.md does not share the real lesson's progress). */
char *lesson_progress_key(const Lesson *l) {
    const char *d = lesson_dir();
    char real[4200], dreal[4200];
    if (!realpath(l->path, real)) return xstrdup(l->id);
    if (d && realpath(d, dreal)) {
        size_t n = strlen(dreal);
        const char *rest = real + n;
        if (!strncmp(real, dreal, n) && *rest == '/') {
            const char *sub = strchr(rest + 1, '/');
            if (!sub) return xstrdup(l->id);
            bool lang = sub - rest - 1 >= 2 && sub - rest - 1 <= 3 && !strchr(sub + 1, '/');
            for (const char *c = rest + 1; lang && c < sub; c++) lang = *c >= 'a' && *c <= 'z';
            if (lang) return xstrdup(l->id);
        }
    }
    return xstrdup(real);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **lesson_list(int *n) {
    *n = 0;
    const char *dir = lesson_dir();
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) return NULL;
    char **out = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".md") || !isdigit((unsigned char)e->d_name[0])) continue;
        out = xrealloc(out, sizeof(char *) * (size_t)(*n + 1));
        char path[4600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        out[(*n)++] = xstrdup(path);
    }
    closedir(d);
    if (*n) qsort(out, (size_t)*n, sizeof(char *), cmp_str);
    return out;
}

char *lesson_find(const char *which) {
    struct stat st;
    if (strchr(which, '/') || (strlen(which) > 3 && !strcmp(which + strlen(which) - 3, ".md")))
        return stat(which, &st) == 0 ? xstrdup(which) : NULL;
    int n;
    char **all = lesson_list(&n);
    char *found = NULL;
    char *end;
    long k = strtol(which, &end, 10);
    for (int i = 0; i < n; i++) {
        const char *base = strrchr(all[i], '/');
        base = base ? base + 1 : all[i];
        bool numeric = *which && !*end;
        if (!found && (numeric ? k == i + 1 : (!strncmp(base, which, strlen(which)) || strstr(base, which) != NULL))) found = xstrdup(all[i]);
        free(all[i]);
    }
    free(all);
    return found;
}

/* ---- the soundness check of a question (--check) ---- */

/* "path:line: step 'id': " then the message. */
static void report_at(StrBuf *report, const char *path, const LessonStep *st, const LessonQuestion *q) {
    sb_printf(report, lesson_msg(MSG_SOUND_PREFIX), path, q->line, st->id);
}

/* Whitespace-insensitive equality of two statements. */
static bool same_text(const char *a, const char *b) {
    for (;;) {
        while (isspace((unsigned char)*a)) a++;
        while (isspace((unsigned char)*b)) b++;
        if (*a != *b) return false;
        if (!*a) return true;
        a++;
        b++;
    }
}

/* obj.attr.attr as text, for a chain of names and attributes; false for anything else. */
static bool chain_text(const Node *n, StrBuf *o) {
    if (n->kind == N_NAME) { sb_puts(o, n->str); return true; }
    if (n->kind == N_ATTR && n->nkids == 1 && chain_text(n->kids[0], o)) { sb_printf(o, ".%s", n->str); return true; }
    return false;
}

/* The inputs of an answer: every variable (or attribute chain of one) it reads, not counting the functions it calls. */
static void collect_inputs(Interp *I, const Node *n, bool callee, char ***out, int *nout) {
    if (!n) return;
    if (n->kind == N_NAME || n->kind == N_ATTR) {
        StrBuf b;
        sb_init(&b);
        if (chain_text(n, &b)) {
            char root[128];
            snprintf(root, sizeof root, "%.*s", (int)strcspn(sb_str(&b), "."), sb_str(&b));
            bool known = interp_lookup(I, root) != NULL;
            for (int i = 0; i < *nout && known; i++) if (!strcmp((*out)[i], sb_str(&b))) known = false;
            if (!callee && known) push_str(out, nout, sb_str(&b), b.len);
            sb_free(&b);
            if (callee && n->kind == N_ATTR) collect_inputs(I, n->kids[0], false, out, nout);
            return;
        }
        sb_free(&b);
    }
    if (n->kind == N_LAMBDA || n->kind == N_LISTCOMP) return;
    for (int i = 0; i < n->nkids; i++) collect_inputs(I, n->kids[i], n->kind == N_CALL && i == 0, out, nout);
}

/* The names the model answer of q reads (its right-hand side when it is an assignment), as collect_inputs gives
 * them: *names (malloc'ed strings, *nn of them) for the caller to free. */
static void answer_inputs(Interp *I, const LessonQuestion *q, char ***names, int *nn) {
    ParseResult r = parse_program(q->answer, 1);
    int ns;
    Node *const *st = statements(&r.tree, &ns);
    if (ns == 1) collect_inputs(I, st[0]->kind == N_ASSIGN ? st[0]->kids[st[0]->nkids - 1] : st[0], false, names, nn);
    ast_free(r.tree);
}

/* The trivial answers a question must reject: 0, 1, None, [] and its inputs unchanged, as answer lines. */
static char **trivial_answers(Interp *I, const LessonQuestion *q, int *n) {
    char **names = NULL, **out = NULL;
    int nn = 0;
    *n = 0;
    answer_inputs(I, q, &names, &nn);
    static const char *const fixed[] = {"0", "1", "None", "[]"};
    for (int i = 0; i < 4 + nn; i++) {
        const char *v = i < 4 ? fixed[i] : names[i - 4];
        if (q->name && !strcmp(v, q->name)) continue;
        StrBuf b;
        sb_init(&b);
        if (q->name) sb_printf(&b, "%s = ", q->name);
        sb_puts(&b, v);
        push_str(&out, n, sb_str(&b), b.len);
        sb_free(&b);
    }
    for (int i = 0; i < nn; i++) free(names[i]);
    free(names);
    return out;
}

static bool is_python_word(const char *w) {
    static const char *const words[] = {"True", "False", "None", "and", "or", "not", "in", "is", "for", "if", "else",
                                        "lambda", "print", "len", "range", "int", "float", "list", "tuple", "str", NULL};
    for (int i = 0; words[i]; i++) if (!strcmp(w, words[i])) return true;
    return false;
}

/* Names a question's text uses as code must exist when it is asked: a name in `backquotes`, one followed directly
 * by '[', '(' or '.name', or one assigned code ("S = torch.zeros(...)"). Returns the problems found. */
static int check_prompt_names(Interp *I, const char *path, const LessonStep *st, const LessonQuestion *q, StrBuf *report) {
    const char *s = q->prompt;
    int bad = 0;
    bool in_code = false;
    for (const char *p = s; *p;) {
        if (*p == '`') { in_code = !in_code; p++; continue; }
        bool head = (isalpha((unsigned char)*p) || *p == '_') &&
                    (p == s || (!isalnum((unsigned char)p[-1]) && p[-1] != '_' && p[-1] != '.' && !((unsigned char)p[-1] & 0x80)));
        if (!head) { p++; continue; }
        const char *e = p;
        while (isalnum((unsigned char)*e) || *e == '_') e++;
        if ((unsigned char)*e & 0x80) { p = e; continue; }     /* part of a word such as "n²d" */
        bool code = in_code || *e == '[' || *e == '(' || (*e == '.' && (isalpha((unsigned char)e[1]) || e[1] == '_'));
        if (!code) {
            const char *a = e;
            while (*a == ' ') a++;
            if (*a == '=' && a[1] != '=') {
                a++;
                while (*a == ' ') a++;
                const char *w = a;
                while (isalnum((unsigned char)*w) || *w == '_') w++;
                code = *a == '[' || (w > a && !isdigit((unsigned char)*a) && (*w == '(' || *w == '.' || *w == '['));
            }
        }
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(e - p), p);
        if (code && !is_python_word(name) && !interp_lookup(I, name) && !builtins_find(name) && !builtins_is_module(name)) {
            bool seen = false;
            for (const char *k = s; k < p && !seen; k++)
                seen = !strncmp(k, name, strlen(name)) && (k == s || !isalnum((unsigned char)k[-1])) && !isalnum((unsigned char)k[strlen(name)]) && k[strlen(name)] != '_';
            if (!seen) {
                report_at(report, path, st, q);
                sb_printf(report, lesson_msg(MSG_SOUND_UNDEFINED_NAME), name);
                sb_putc(report, '\n');
                bad++;
            }
        }
        p = e;
    }
    return bad;
}

/* One line the question must accept (want_right) or reject. Appends a report line and returns 1 when it does not. */
static int sound(Interp *I, const char *path, const LessonStep *st, const LessonQuestion *q, const LessonExpect *e,
                 const char *ans, bool want_right, MsgId msg, StrBuf *report) {
    StrBuf fb, err;
    sb_init(&fb);
    sb_init(&err);
    LessonGrade g = lesson_try(I, q, e, ans, &fb);
    if (g == GRADE_FAILED) lesson_error_take(I, &err);
    int bad = 0;
    StrBuf what;     /* what an answer to q is, for "is not an answer" */
    sb_init(&what);
    if (q->name) sb_printf(&what, lesson_msg(MSG_SOUND_ANSWER_IS_ASSIGN), q->name);
    else sb_puts(&what, lesson_msg(MSG_SOUND_ANSWER_IS_EXPR));
    if (want_right && g != GRADE_RIGHT) {
        report_at(report, path, st, q);
        sb_printf(report, lesson_msg(msg), ans, g == GRADE_FAILED ? sb_str(&err) : fb.len ? sb_str(&fb) : sb_str(&what));
        bad = 1;
    } else if (!want_right && g == GRADE_RIGHT) {
        report_at(report, path, st, q);
        sb_printf(report, lesson_msg(msg), ans);
        bad = 1;
    } else if (!want_right && msg == MSG_SOUND_WRONG_ACCEPTED && g != GRADE_WRONG) {
        report_at(report, path, st, q);
        if (g == GRADE_FAILED) sb_printf(report, lesson_msg(MSG_SOUND_WRONG_FAILS), ans, sb_str(&err));
        else sb_printf(report, lesson_msg(MSG_SOUND_WRONG_NOT_ANSWER), ans, sb_str(&what));
        bad = 1;
    }
    if (bad) sb_putc(report, '\n');
    sb_free(&what);
    sb_free(&fb);
    sb_free(&err);
    return bad;
}

/* Every check of one question in the lesson's state at that point: names in its text defined, the model answer
 * and every other answer: and accept: line right, every wrong: line run and rejected, trivial answers rejected. */
static int check_question(Interp *I, const char *path, const LessonStep *st, const LessonQuestion *q, StrBuf *report) {
    int bad = check_prompt_names(I, path, st, q, report);
    LessonExpect *e = lesson_expect(I, q);
    if (!e) {
        StrBuf err;
        sb_init(&err);
        lesson_error_take(I, &err);
        report_at(report, path, st, q);
        sb_printf(report, lesson_msg(MSG_SOUND_MODEL_FAILS), q->answer, sb_str(&err));
        sb_putc(report, '\n');
        sb_free(&err);
        return bad + 1;
    }
    bad += sound(I, path, st, q, e, q->answer, true, MSG_SOUND_MODEL_FAILS, report);
    for (int a = 0; a < q->nalts; a++) bad += sound(I, path, st, q, e, q->alts[a], true, MSG_SOUND_ANSWER_FAILS, report);
    for (int a = 0; a < q->naccept; a++) bad += sound(I, path, st, q, e, q->accept[a], true, MSG_SOUND_ACCEPT_REJECTED, report);
    for (int w = 0; w < q->nwrong; w++) bad += sound(I, path, st, q, e, q->wrong[w], false, MSG_SOUND_WRONG_ACCEPTED, report);
    int nt;
    char **triv = trivial_answers(I, q, &nt);
    for (int t = 0; t < nt; t++) {
        bool is_answer = same_text(triv[t], q->answer);
        for (int a = 0; a < q->nalts && !is_answer; a++) is_answer = same_text(triv[t], q->alts[a]);
        if (!is_answer) bad += sound(I, path, st, q, e, triv[t], false, MSG_SOUND_TRIVIAL, report);
        free(triv[t]);
    }
    free(triv);
    lesson_expect_free(e);
    return bad;
}

int lesson_replay_question(Interp *I, const char *path, const LessonStep *st, const LessonQuestion *q, StrBuf *report) {
    int bad = check_question(I, path, st, q, report);
    if (!run_silently(I, q->answer)) interp_clear_error(I);   /* its variables stay defined */
    return bad;
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

/* lesson.c - reading lesson files, checking answers by value, and the soundness check of every question. */
#include "lesson.h"
#include "repl.h"
#include "transcript.h"
#include "plot.h"
#include "textfile.h"
#include "ops.h"
#include "parser.h"
#include "strbuf.h"
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
    for (int i = 0; i < q->nwrong; i++) free(q->wrong[i]);
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

/* Parses the body of a ```question block (lines [s, e)). */
static LessonQuestion *parse_question(const char *s, const char *e, int line, const char *path, char *err, size_t errlen) {
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
        else if (colon && keylen == 5 && !strncmp(p, "wrong", 5)) push_str(&q->wrong, &q->nwrong, val, vlen);
        else if (colon && keylen == 4 && !strncmp(p, "hint", 4)) push_str(&q->hints, &q->nhints, val, vlen);
        else if (colon && keylen == 9 && !strncmp(p, "tolerance", 9)) {
            char *t = trim(val, vlen), *end;
            q->tol = strtod(t, &end);
            bool bad = end == t || *end || !(q->tol >= 0);
            free(t);
            if (bad) { snprintf(err, errlen, "%s:%d: tolerance must be a non-negative number", path, ln); sb_free(&prompt); free_q(q); return NULL; }
        } else {
            sb_putn(&prompt, p, n);
            sb_putc(&prompt, '\n');
        }
        p = nl ? nl + 1 : e;
    }
    q->prompt = trim(sb_str(&prompt), prompt.len);
    sb_free(&prompt);
    if (!q->answer || !*q->answer) { snprintf(err, errlen, "%s:%d: the question has no 'answer:' line", path, line); free_q(q); return NULL; }
    if (!*q->prompt) { snprintf(err, errlen, "%s:%d: the question has no prompt text", path, line); free_q(q); return NULL; }
    return q;
}

Lesson *lesson_load(const char *path, char *err, size_t errlen) {
    char *text = textfile_read(path, LESSON_MAX_FILE, err, errlen);
    if (!text) return NULL;
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
        bool fence = len >= 3 && !strncmp(p, "```", 3);
        if (fence) {
            /* a fenced block: attn, question, or another language (prose) */
            const char *lang = p + 3;
            size_t ll = len - 3;
            bool is_attn = ll >= 4 && !strncmp(lang, "attn", 4), is_q = ll >= 8 && !strncmp(lang, "question", 8);
            const char *body = next, *q = next;
            int start = line;
            while (*q) {
                const char *qe = strchr(q, '\n');
                size_t qn = qe ? (size_t)(qe - q) : strlen(q);
                line++;
                if (qn >= 3 && !strncmp(q, "```", 3)) break;
                q = qe ? qe + 1 : q + qn;
            }
            if (!*q) { snprintf(err, errlen, "%s:%d: the ``` block is not closed", path, start); ok = false; break; }
            const char *body_end = q;
            const char *after = strchr(q, '\n');
            next = after ? after + 1 : q + strlen(q);
            if (!is_attn && !is_q) {
                sb_putn(&prose, p, (size_t)(next - p));
                p = next;
                continue;
            }
            if (!cur) { snprintf(err, errlen, "%s:%d: a ```%s block before the first '## ' step heading", path, start, is_q ? "question" : "attn"); ok = false; break; }
            if (prose.len) { add_item(cur, (LessonItem){ITEM_PROSE, trim(prose.s, prose.len), NULL, NULL, line}); sb_clear(&prose); }
            if (is_q) {
                LessonQuestion *qq = parse_question(body, body_end, start, path, err, errlen);
                if (!qq) { ok = false; break; }
                add_item(cur, (LessonItem){ITEM_QUESTION, NULL, NULL, qq, start});
            } else {
                /* the block's inputs and their expected output */
                const char *r = body;
                int rl = start;
                LessonItem *it = NULL;
                StrBuf expv;
                sb_init(&expv);
                while (r < body_end) {
                    rl++;
                    const char *re = memchr(r, '\n', (size_t)(body_end - r));
                    size_t rn = re ? (size_t)(re - r) : (size_t)(body_end - r);
                    if (rn >= 6 && !strncmp(r, "attn> ", 6)) {
                        if (it) { it->expected = sb_take(&expv); sb_init(&expv); }
                        add_item(cur, (LessonItem){ITEM_RUN, xstrndup(r + 6, rn - 6), NULL, NULL, rl});
                        it = &cur->items[cur->nitems - 1];
                    } else if (rn >= 6 && !strncmp(r, "  ...>", 6) && it && expv.len == 0) {
                        size_t old = strlen(it->text);
                        const char *c = rn > 7 ? r + 7 : "";
                        size_t cn = rn > 7 ? rn - 7 : 0;
                        it->text = xrealloc(it->text, old + cn + 2);
                        it->text[old] = '\n';
                        memcpy(it->text + old + 1, c, cn);
                        it->text[old + 1 + cn] = 0;
                    } else if (it) {
                        sb_putn(&expv, r, rn);
                        sb_putc(&expv, '\n');
                    } else if (rn) {
                        snprintf(err, errlen, "%s:%d: output before any 'attn> ' input", path, rl);
                        ok = false;
                        break;
                    }
                    r = re ? re + 1 : body_end;
                }
                if (it) it->expected = sb_take(&expv);
                sb_free(&expv);
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
            for (int i = 0; i < l->nsteps - 1; i++)
                if (!strcmp(l->steps[i].id, cur->id)) {
                    snprintf(err, errlen, "%s:%d: step id '%s' is used twice (lines %d and %d)", path, line, cur->id, l->steps[i].line, line);
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
    if (ok && !l->title) { snprintf(err, errlen, "%s:1: a lesson starts with a '# Title' line", path); ok = false; }
    if (ok && l->nsteps == 0) { snprintf(err, errlen, "%s: the lesson has no '## ' steps", path); ok = false; }
    if (!ok) { lesson_free(l); return NULL; }
    return l;
}

/* ---- checking answers ---- */

/* Splits "name = expr" (a simple assignment) into its name; NULL for an expression. */
static char *assigned_name(const char *src) {
    ParseResult r = parse_program(src, 1);
    char *name = NULL;
    if (r.tree && r.tree->nkids == 1 && r.tree->kids[0]->kind == N_ASSIGN && r.tree->kids[0]->nkids == 2 &&
        r.tree->kids[0]->kids[0]->kind == N_NAME)
        name = xstrdup(r.tree->kids[0]->kids[0]->str);
    ast_free(r.tree);
    return name;
}

/* Evaluates src in I and returns the value the answer stands for: the echoed value of an expression, or the
 * variable it assigns. Nothing is printed. */
static Value *answer_value(Interp *I, const char *src, char *err, size_t errlen) {
    StrBuf sink;
    sb_init(&sink);
    StrBuf *saved = I->capture;
    I->capture = &sink;
    bool echo = I->echo_values;
    I->echo_values = false;
    val_decref(I->last_value);
    I->last_value = NULL;
    int rc = interp_run(I, src, NULL, 1);
    I->capture = saved;
    I->echo_values = echo;
    sb_free(&sink);
    if (rc < 0) { snprintf(err, errlen, "%s", interp_error_msg(I)); interp_clear_error(I); return NULL; }
    char *name = assigned_name(src);
    Value *v = NULL;
    if (name) { v = interp_lookup(I, name); v = v ? val_incref(v) : NULL; free(name); }
    else if (I->last_value) v = val_incref(I->last_value);
    if (!v) snprintf(err, errlen, "that statement has no value to check (type an expression, or an assignment)");
    return v;
}

/* "your NAME is GOT, expected WANT" with both values as the prompt shows them. */
static void mismatch(StrBuf *fb, const char *what, const Value *got, const Value *want) {
    StrBuf a, b;
    sb_init(&a);
    sb_init(&b);
    val_repr(&a, got);
    val_repr(&b, want);
    sb_printf(fb, "your %s is %s, expected %s", what, sb_str(&a), sb_str(&b));
    sb_free(&a);
    sb_free(&b);
}

static void shape_words(StrBuf *o, const Tensor *t) {
    if (t->ndim == 0) { sb_puts(o, "a single number"); return; }
    for (int i = 0; i < t->ndim; i++) sb_printf(o, i ? "×%lld" : "%lld", (long long)t->shape[i]);
}

/* Compares by value: tensors by shape then values within tol; numbers within tol; other values by ==. */
static bool same_value(const Value *got, const Value *want, double tol, const char *what, StrBuf *fb) {
    if (want->kind == V_TENSOR) {
        if (got->kind != V_TENSOR) {
            if (val_is_number(got) && want->u.t->numel == 1 && fabs(val_as_double(got) - ten_get(want->u.t, 0)) <= tol) return true;
            sb_printf(fb, "your %s is a %s, expected a tensor of shape ", what, val_type_name(got));
            shape_words(fb, want->u.t);
            return false;
        }
        const Tensor *g = got->u.t, *w = want->u.t;
        if (!ten_same_shape(g, w)) {
            sb_printf(fb, "your %s %s ", what, g->ndim == 0 ? "is" : "are");
            shape_words(fb, g);
            sb_puts(fb, ", expected ");
            shape_words(fb, w);
            return false;
        }
        double worst = 0;
        int64_t at = 0;
        for (int64_t i = 0; i < w->numel; i++) {
            double d = fabs(ten_get(g, i) - ten_get(w, i));
            if (isnan(ten_get(g, i)) != isnan(ten_get(w, i))) d = INFINITY;
            if (d > worst) { worst = d; at = i; }
        }
        if (worst > tol) {
            sb_printf(fb, "the shape is right, but the values differ: element %lld is %.6g, expected %.6g", (long long)at, ten_get(g, at), ten_get(w, at));
            return false;
        }
        return true;
    }
    if (val_is_number(want)) {
        Value *gi = ops_item((Value *)got);
        bool ok = val_is_number(gi) && fabs(val_as_double(gi) - val_as_double(want)) <= tol;
        if (!ok) mismatch(fb, what, gi, want);
        val_decref(gi);
        return ok;
    }
    if ((want->kind == V_TUPLE || want->kind == V_LIST) && (got->kind == V_TUPLE || got->kind == V_LIST)) {
        if (got->u.seq.n != want->u.seq.n) {
            sb_printf(fb, "your %s has %lld items, expected %lld", what, (long long)got->u.seq.n, (long long)want->u.seq.n);
            return false;
        }
        for (int64_t i = 0; i < want->u.seq.n; i++)
            if (!same_value(got->u.seq.items[i], want->u.seq.items[i], tol, "item", fb)) return false;
        return true;
    }
    if (!val_equal(got, want)) {
        mismatch(fb, what, got, want);
        return false;
    }
    return true;
}

static bool check_against(Interp *I, const LessonQuestion *q, const char *model, const char *student, StrBuf *fb);

/* Right when the student's value matches the model answer, or any further answer: line. */
bool lesson_check_answer(Interp *I, const LessonQuestion *q, const char *student, StrBuf *fb) {
    if (check_against(I, q, q->answer, student, fb)) return true;
    for (int i = 0; i < q->nalts; i++) {
        StrBuf ignored;
        sb_init(&ignored);
        bool ok = check_against(I, q, q->alts[i], student, &ignored);
        sb_free(&ignored);
        if (ok) { sb_clear(fb); return true; }
    }
    return false;
}

static bool check_against(Interp *I, const LessonQuestion *q, const char *model, const char *student, StrBuf *fb) {
    char err[1200];
    Value *want = answer_value(I, model, err, sizeof err);
    if (!want) { sb_printf(fb, "(the lesson's own answer failed: %s)", err); return false; }
    Value *got = answer_value(I, student, err, sizeof err);
    if (!got) { sb_printf(fb, "%s", err); val_decref(want); return false; }
    char *name = assigned_name(model);
    bool ok = same_value(got, want, q->tol, name ? name : "answer", fb);
    free(name);
    /* leave the right value defined, so later steps see it even if the student computed it another way */
    char *sname = assigned_name(model);
    if (sname) { interp_set_global(I, sname, val_incref(want)); free(sname); }
    val_decref(want);
    val_decref(got);
    return ok;
}

/* ---- finding lessons ---- */

static const char *lesson_dir(void) {
    static char dir[4200];
    const char *e = getenv("ATTN_LESSONS");
    if (e && *e) return e;
    struct stat st;
    if (stat("lessons", &st) == 0 && S_ISDIR(st.st_mode)) return "lessons";
    /* next to the installed binary: PREFIX/bin/attn -> PREFIX/share/attn/lessons */
    char exe[4000];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(dir, sizeof dir, "%s/../share/attn/lessons", exe);
            if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return dir;
            snprintf(dir, sizeof dir, "%s/lessons", exe);
            if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return dir;
        }
    }
    return "lessons";
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **lesson_list(int *n) {
    *n = 0;
    const char *dir = lesson_dir();
    DIR *d = opendir(dir);
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

/* One case of the soundness check: `ans` must pass q (should_pass) or must be rejected. When it does not behave,
 * appends "path:line: step 'id': the ROLE 'ans' PROBLEM[: feedback]" to report and returns 1. */
static int sound(Interp *I, const char *path, const LessonStep *st, const LessonQuestion *q, const char *ans,
                 bool should_pass, const char *role, const char *problem, StrBuf *report) {
    StrBuf fb;
    sb_init(&fb);
    int bad = lesson_check_answer(I, q, ans, &fb) != should_pass;
    if (bad)
        sb_printf(report, "%s:%d: step '%s': the %s '%s' %s%s%s\n", path, q->line, st->id, role, ans, problem,
                  should_pass ? ": " : "", should_pass ? sb_str(&fb) : "");
    sb_free(&fb);
    return bad;
}

/* Replays a lesson like a transcript: every statement's output compared with the expected text (or printed, for
 * --replay), every question answered by its model answer after the soundness check. Returns problems found. */
int lesson_replay_check(const char *path, bool check, bool quiet) {
    char err[600];
    Lesson *l = lesson_load(path, err, sizeof err);
    if (!l) { fprintf(stderr, "attn: %s\n", err); return -1; }
    Interp I;
    interp_init(&I);
    rng_seed(0);
    PlotTarget saved = plot_target();
    plot_set_target("summary");
    plot_reset();
    PrintOptions po = ten_print_options;
    int problems = 0, steps = 0;
    StrBuf report;
    sb_init(&report);
    for (int s = 0; s < l->nsteps; s++) {
        LessonStep *st = &l->steps[s];
        if (!check) printf("## %s {#%s}\n", st->title, st->id);
        for (int k = 0; k < st->nitems; k++) {
            LessonItem *it = &st->items[k];
            if (it->kind == ITEM_PROSE) continue;
            steps++;
            if (it->kind == ITEM_QUESTION) {
                LessonQuestion *q = it->q;
                problems += sound(&I, path, st, q, q->answer, true, "model answer", "fails its own check", &report);
                for (int a = 0; a < q->nalts; a++) problems += sound(&I, path, st, q, q->alts[a], true, "answer", "fails", &report);
                for (int a = 0; a < q->naccept; a++) problems += sound(&I, path, st, q, q->accept[a], true, "accepted answer", "is rejected", &report);
                for (int w = 0; w < q->nwrong; w++) problems += sound(&I, path, st, q, q->wrong[w], false, "wrong answer", "is accepted", &report);
                StrBuf fb;
                sb_init(&fb);
                lesson_check_answer(&I, q, q->answer, &fb);     /* the model answer's variables stay defined */
                sb_free(&fb);
                if (!check) printf("attn> %s\n", q->answer);
                continue;
            }
            StrBuf o;
            sb_init(&o);
            I.capture = &o;
            bool quit = false;
            if (!repl_command(&I, it->text, &quit) && interp_run(&I, it->text, NULL, 1) < 0) {
                interp_format_error(&I, &o);
                interp_clear_error(&I);
            }
            I.capture = NULL;
            if (!check) {
                printf("attn> %s\n%s", it->text, sb_str(&o));
            } else if (!tr_match(it->expected ? it->expected : "", sb_str(&o))) {
                problems++;
                sb_printf(&report, "--- %s:%d (expected)\n+++ %s:%d (actual)\n attn> %s\n", path, it->line + 1, path, it->line + 1, it->text);
                for (const char *p = it->expected ? it->expected : ""; *p;) {
                    const char *e = strchr(p, '\n');
                    size_t n = e ? (size_t)(e - p) : strlen(p);
                    sb_putc(&report, '-'); sb_putn(&report, p, n); sb_putc(&report, '\n');
                    p = e ? e + 1 : p + n;
                }
                for (const char *p = sb_str(&o); *p;) {
                    const char *e = strchr(p, '\n');
                    size_t n = e ? (size_t)(e - p) : strlen(p);
                    sb_putc(&report, '+'); sb_putn(&report, p, n); sb_putc(&report, '\n');
                    p = e ? e + 1 : p + n;
                }
            }
            sb_free(&o);
        }
    }
    if (check && !quiet) {
        fputs(sb_str(&report), stdout);
        if (problems) printf("%s: %d of %d steps and questions differ\n", path, problems, steps);
        else printf("%s: %d steps and questions ok\n", path, steps);
    }
    sb_free(&report);
    ten_print_options = po;
    plot_set_target(plot_target_name(saved));
    interp_free(&I);
    lesson_free(l);
    return problems;
}

bool lesson_is_lesson_file(const char *path) {
    if (strstr(path, "lessons/") == path || strstr(path, "/lessons/")) return true;
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[512];
    bool q = false;
    while (!q && fgets(line, sizeof line, f)) q = !strncmp(line, "```question", 11);
    fclose(f);
    return q;
}

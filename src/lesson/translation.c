/* translation.c - finding a lesson's translation, and checking that a translation says the same code as the
 * English lesson it translates (only the prose may differ). */
#include "lesson_translation.h"
#include "i18n.h"
#include "textwidth.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *lesson_localized(I18nLang l, const char *path) {
    if (l == I18N_EN || lesson_original(path)) return xstrdup(path);
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%.*s%s/%s", (int)dirlen, path, i18n_code(l), slash ? slash + 1 : path);
    struct stat st;
    if (stat(sb_str(&b), &st) == 0 && S_ISREG(st.st_mode)) return sb_take(&b);
    sb_free(&b);
    return xstrdup(path);
}

char *lesson_original(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash || slash - path < 2) return NULL;
    const char *dir = slash - 2;          /* "ja/NAME.md" or "zh/NAME.md" */
    if (!(dir == path || dir[-1] == '/')) return NULL;
    if (strncmp(dir, "ja/", 3) && strncmp(dir, "zh/", 3)) return NULL;
    StrBuf b;
    sb_init(&b);
    sb_printf(&b, "%.*s%s", (int)(dir - path), path, slash + 1);
    return sb_take(&b);
}

static const char *or_empty(const char *s) { return s ? s : ""; }

I18nLang lesson_language(const char *path) {
    char *orig = lesson_original(path);
    if (!orig) return I18N_EN;
    free(orig);
    const char *slash = strrchr(path, '/');
    return !strncmp(slash - 2, "ja", 2) ? I18N_JA : I18N_ZH;
}

/* A kana or CJK ideograph (not CJK punctuation): a digit written against one is part of a word ("2進", "1つ"). */
static bool cjk_letter(uint32_t cp) { return (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x9fff); }

/* Whether the character that ends just before s + i (i > 0) is a kana or CJK ideograph. */
static bool cjk_before(const char *s, size_t i) {
    size_t b = i;
    while (b > 0 && i - b < 4 && ((unsigned char)s[b - 1] & 0xc0) == 0x80) b--;
    if (b == 0 || b == i) return false;
    uint32_t cp;
    return tw_decode(s + b - 1, i - b + 1, &cp) == i - b + 1 && cjk_letter(cp);
}

/* The next number of s from *p on ("-0.4161", "1e-05", "3"): its start and length; false at the end. A sign counts
 * when a digit follows it; digits against a kana or ideograph are a word, not a number. */
static bool next_number(const char *s, size_t *p, size_t *start, size_t *len) {
    for (size_t i = *p; s[i]; i++) {
        if (!isdigit((unsigned char)s[i]) || (i > 0 && isdigit((unsigned char)s[i - 1]))) continue;
        size_t b = i > 0 && s[i - 1] == '-' ? i - 1 : i, e = i;
        while (isdigit((unsigned char)s[e])) e++;
        if (s[e] == '.' && isdigit((unsigned char)s[e + 1]))
            for (e++; isdigit((unsigned char)s[e]);) e++;
        if ((s[e] == 'e' || s[e] == 'E') &&
            (isdigit((unsigned char)s[e + 1]) || ((s[e + 1] == '-' || s[e + 1] == '+') && isdigit((unsigned char)s[e + 2]))))
            for (e += 2; isdigit((unsigned char)s[e]);) e++;
        uint32_t cp;
        if ((i > 0 && cjk_before(s, i)) || ((unsigned char)s[e] >= 0x80 && tw_decode(s + e, strlen(s + e), &cp) && cjk_letter(cp))) {
            i = e - 1;
            continue;
        }
        *start = b;
        *len = e - b;
        *p = e;
        return true;
    }
    return false;
}

/* A line of data: it begins (after spaces) with a digit, a sign, '[', '(' or "tensor(", and its words are the
 * words of printed values (tensor, True, dtype=torch.float64 ...), not prose ("1.3e-06 on the float32 table"). */
static bool data_line(const char *l, size_t n) {
    static const char *const code[] = {"tensor", "True", "False", "dtype", "torch", "float", "int", "bool", "long",
                                       "double", "nan", "inf", "grad_fn", "requires_grad", "device", "cpu", "Size"};
    size_t i = 0;
    while (i < n && l[i] == ' ') i++;
    if (i == n || !(isdigit((unsigned char)l[i]) || strchr("-+[(", l[i]) || (n - i >= 7 && !strncmp(l + i, "tensor(", 7))))
        return false;
    for (size_t k = i; k < n;) {
        if (!isalpha((unsigned char)l[k])) { k++; continue; }
        size_t b = k;
        while (k < n && (isalpha((unsigned char)l[k]) || l[k] == '_')) k++;
        if (k - b < 2 || (b > 0 && isdigit((unsigned char)l[b - 1]))) continue;     /* "1e-05", "x1" */
        bool known = false;
        for (size_t c = 0; c < sizeof code / sizeof *code && !known; c++)
            known = strlen(code[c]) == k - b && !strncmp(code[c], l + b, k - b);
        if (!known) return false;
    }
    return true;
}

bool lesson_same_but_prose(const char *en, const char *tr) {
    en = or_empty(en);
    tr = or_empty(tr);
    if (!strcmp(en, tr)) return true;
    size_t pa = 0, pb = 0, sa, la, sb, lb;
    for (;;) {
        bool a = next_number(en, &pa, &sa, &la), b = next_number(tr, &pb, &sb, &lb);
        if (a != b) return false;
        if (!a) break;
        if (la != lb || strncmp(en + sa, tr + sb, la)) return false;
    }
    const char *q = tr;                     /* the data lines of en, each found in tr after the previous one */
    for (const char *p = en; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (data_line(p, n)) {
            bool found = false;
            while (*q && !found) {
                const char *qe = strchr(q, '\n');
                size_t qn = qe ? (size_t)(qe - q) : strlen(q);
                found = qn == n && !strncmp(p, q, n);
                q = qe ? qe + 1 : q + qn;
            }
            if (!found) return false;
        }
        p = e ? e + 1 : p + n;
    }
    return true;
}

/* One difference: "TRPATH:LINE: step 'id': WHAT (English ENPATH:LINE)". */
static int differ(StrBuf *report, const Lesson *en, const Lesson *tr, int tr_line, int en_line, const char *step,
                  const char *what) {
    sb_printf(report, "%s:%d: ", tr->path, tr_line);
    if (step) sb_printf(report, "step '%s': ", step);
    sb_printf(report, "%s (English: %s:%d)\n", what, en->path, en_line);
    return 1;
}

static int same_list(StrBuf *report, const Lesson *en, const Lesson *tr, const LessonQuestion *a, const LessonQuestion *b,
                     const char *step, const char *key, char **x, int nx, char **y, int ny) {
    char what[700];
    if (nx != ny) {
        snprintf(what, sizeof what, "the question has %d '%s:' lines, the English one %d", ny, key, nx);
        return differ(report, en, tr, b->line, a->line, step, what);
    }
    for (int i = 0; i < nx; i++)
        if (strcmp(x[i], y[i])) {
            snprintf(what, sizeof what, "'%s: %.200s' differs from the English '%s: %.200s'", key, y[i], key, x[i]);
            return differ(report, en, tr, b->line, a->line, step, what);
        }
    return 0;
}

static int compare_question(StrBuf *report, const Lesson *en, const Lesson *tr, const LessonQuestion *a,
                            const LessonQuestion *b, const char *step) {
    char what[700];
    int d = 0;
    if (strcmp(a->answer, b->answer)) {
        snprintf(what, sizeof what, "'answer: %.200s' differs from the English 'answer: %.200s'", b->answer, a->answer);
        d += differ(report, en, tr, b->line, a->line, step, what);
    }
    d += same_list(report, en, tr, a, b, step, "answer", a->alts, a->nalts, b->alts, b->nalts);
    d += same_list(report, en, tr, a, b, step, "accept", a->accept, a->naccept, b->accept, b->naccept);
    d += same_list(report, en, tr, a, b, step, "wrong", a->wrong, a->nwrong, b->wrong, b->nwrong);
    for (int i = 0; i < a->nwrong && i < b->nwrong; i++)
        if (!a->wrong_why[i] != !b->wrong_why[i]) {
            snprintf(what, sizeof what, "'wrong: %.200s' %s an explanation (-> ...) where the English %s", b->wrong[i],
                     b->wrong_why[i] ? "has" : "lacks", a->wrong_why[i] ? "has one" : "has none");
            d += differ(report, en, tr, b->line, a->line, step, what);
        }
    d += same_list(report, en, tr, a, b, step, "forbid", a->forbid, a->nforbid, b->forbid, b->nforbid);
    if (!a->forbid_why != !b->forbid_why) {
        snprintf(what, sizeof what, "'forbid:' %s an explanation (-> ...) where the English %s", b->forbid_why ? "has" : "lacks",
                 a->forbid_why ? "has one" : "has none");
        d += differ(report, en, tr, b->line, a->line, step, what);
    }
    if (a->tol != b->tol) {
        snprintf(what, sizeof what, "tolerance %g, the English one %g", b->tol, a->tol);
        d += differ(report, en, tr, b->line, a->line, step, what);
    }
    if (a->nhints != b->nhints) {
        snprintf(what, sizeof what, "%d hints, the English question has %d", b->nhints, a->nhints);
        d += differ(report, en, tr, b->line, a->line, step, what);
    }
    return d;
}

/* The items of a step that are not prose, in order. */
static int code_items(const LessonStep *s, const LessonItem **out, int max) {
    int n = 0;
    for (int k = 0; k < s->nitems; k++)
        if (s->items[k].kind != ITEM_PROSE) {
            if (n < max) out[n] = &s->items[k];
            n++;
        }
    return n;
}

static int compare_step(StrBuf *report, const Lesson *en, const Lesson *tr, const LessonStep *a, const LessonStep *b) {
    enum { MAXI = 512 };
    const LessonItem **x = xcalloc(MAXI, sizeof *x), **y = xcalloc(MAXI, sizeof *y);
    int nx = code_items(a, x, MAXI), ny = code_items(b, y, MAXI);
    char what[900];
    int d = 0;
    for (int i = 0; i < nx && i < ny && i < MAXI; i++) {
        const LessonItem *p = x[i], *q = y[i];
        if (p->kind != q->kind) {
            snprintf(what, sizeof what, "a %s where the English lesson has a %s", q->kind == ITEM_RUN ? "statement" : "question",
                     p->kind == ITEM_RUN ? "statement" : "question");
            d += differ(report, en, tr, q->line, p->line, b->id, what);
            break;
        }
        if (p->kind == ITEM_QUESTION) { d += compare_question(report, en, tr, p->q, q->q, b->id); continue; }
        if (strcmp(p->text, q->text)) {
            snprintf(what, sizeof what, "'attn> %.300s' differs from the English 'attn> %.300s'", q->text, p->text);
            d += differ(report, en, tr, q->line, p->line, b->id, what);
        } else if (!lesson_same_but_prose(p->expected, q->expected)) {
            snprintf(what, sizeof what, "the expected output of 'attn> %.300s' differs from the English", q->text);
            d += differ(report, en, tr, q->line, p->line, b->id, what);
        }
    }
    if (nx != ny) {
        snprintf(what, sizeof what, "%d statements and questions, the English step has %d", ny, nx);
        d += differ(report, en, tr, b->line, a->line, b->id, what);
    }
    free(x);
    free(y);
    return d;
}

int lesson_compare_translation(const Lesson *en, const Lesson *tr, StrBuf *report) {
    int d = 0;
    char what[600];
    const char *sa = or_empty(en->section), *sb = or_empty(tr->section);
    size_t na = strcspn(sa, " "), nb = strcspn(sb, " ");
    if (na != nb || strncmp(sa, sb, na)) {
        snprintf(what, sizeof what, "Section: %.*s, the English lesson says %.*s", (int)nb, sb, (int)na, sa);
        d += differ(report, en, tr, 2, 2, NULL, what);
    }
    int n = en->nsteps < tr->nsteps ? en->nsteps : tr->nsteps;
    for (int s = 0; s < n; s++) {
        const LessonStep *a = &en->steps[s], *b = &tr->steps[s];
        if (strcmp(a->id, b->id)) {
            snprintf(what, sizeof what, "step %d has the id '%s', the English one '%s' (write {#%s} after the title)", s + 1,
                     b->id, a->id, a->id);
            d += differ(report, en, tr, b->line, a->line, NULL, what);
            continue;
        }
        d += compare_step(report, en, tr, a, b);
    }
    if (en->nsteps != tr->nsteps) {
        snprintf(what, sizeof what, "%d steps, the English lesson has %d", tr->nsteps, en->nsteps);
        d += differ(report, en, tr, 1, 1, NULL, what);
    }
    return d;
}

Lesson *lesson_open(I18nLang lang, const char *which) {
    char *path = lesson_find(which);
    if (!path) {
        err_print(TR(lang, "attn: no lesson '%s' (attn lesson lists them)\n"), which);
        return NULL;
    }
    AttnError err;
    Lesson *l = lesson_load_localized(lang, path, &err);
    free(path);
    if (!l) err_report(&err);
    return l;
}

Lesson *lesson_load_localized(I18nLang lang, const char *path, AttnError *err) {
    char *loc = lesson_localized(lang, path);
    char *orig = lesson_original(loc);
    struct stat st;
    if (!orig || stat(orig, &st) != 0) {         /* English, or a lesson that exists only in this language */
        Lesson *l = lesson_load(loc, err);
        free(loc);
        free(orig);
        return l;
    }
    Lesson *en = lesson_load(orig, err);
    if (!en) { free(loc); free(orig); return NULL; }
    AttnError terr;
    Lesson *tr = lesson_load(loc, &terr);
    StrBuf report;
    sb_init(&report);
    if (!tr) sb_printf(&report, "%s\n", err_msg(&terr));
    if (!tr || lesson_compare_translation(en, tr, &report)) {
        err_print(TR(lang, "attn: %s does not match %s: showing the English lesson.\n%s"), loc, orig, sb_str(&report));
        lesson_free(tr);
        tr = NULL;
    }
    sb_free(&report);
    if (tr) lesson_free(en);
    free(loc);
    free(orig);
    return tr ? tr : en;
}

/* soundness.c - the soundness check of a lesson's questions where a replay (--check, --replay) comes to them: names
 * in a question's text defined, every right answer accepted, every wrong and trivial one rejected. */
#include "lesson.h"
#include "lesson_internal.h"
#include "parser.h"
#include "strbuf.h"
#include "builtins.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the soundness check of a question (--check) ---- */

/* "path:line: step 'id': " then the message. */
static void report_at(I18nLang lang, StrBuf *report, const char *path, const LessonStep *st, const LessonQuestion *q) {
    sb_printf(report, lesson_msg(lang, MSG_SOUND_PREFIX), path, q->line, st->id);
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

/* The trivial answers a question must reject: 0, 1, None, [] and its inputs unchanged, as answer lines. */
static char **trivial_answers(Interp *I, const LessonQuestion *q, int *n) {
    char **names = NULL, **out = NULL;
    int nn = 0;
    *n = 0;
    lesson_answer_inputs(I, q, &names, &nn);
    static const char *const fixed[] = {"0", "1", "None", "[]"};
    for (int i = 0; i < 4 + nn; i++) {
        const char *v = i < 4 ? fixed[i] : names[i - 4];
        if (q->name && !strcmp(v, q->name)) continue;
        StrBuf b;
        sb_init(&b);
        if (q->name) sb_printf(&b, "%s = ", q->name);
        sb_puts(&b, v);
        lesson_push_str(&out, n, sb_str(&b), b.len);
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
                report_at(I->run.lang, report, path, st, q);
                sb_printf(report, lesson_msg(I->run.lang, MSG_SOUND_UNDEFINED_NAME), name);
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
    if (q->name) sb_printf(&what, lesson_msg(I->run.lang, MSG_SOUND_ANSWER_IS_ASSIGN), q->name);
    else sb_puts(&what, lesson_msg(I->run.lang, MSG_SOUND_ANSWER_IS_EXPR));
    if (want_right && g != GRADE_RIGHT) {
        report_at(I->run.lang, report, path, st, q);
        sb_printf(report, lesson_msg(I->run.lang, msg), ans, g == GRADE_FAILED ? sb_str(&err) : fb.len ? sb_str(&fb) : sb_str(&what));
        bad = 1;
    } else if (!want_right && g == GRADE_RIGHT) {
        report_at(I->run.lang, report, path, st, q);
        sb_printf(report, lesson_msg(I->run.lang, msg), ans);
        bad = 1;
    } else if (!want_right && msg == MSG_SOUND_WRONG_ACCEPTED && g != GRADE_WRONG) {
        report_at(I->run.lang, report, path, st, q);
        if (g == GRADE_FAILED) sb_printf(report, lesson_msg(I->run.lang, MSG_SOUND_WRONG_FAILS), ans, sb_str(&err));
        else sb_printf(report, lesson_msg(I->run.lang, MSG_SOUND_WRONG_NOT_ANSWER), ans, sb_str(&what));
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
    LessonExpect *e = lesson_expect(I, q, I->run.lang);
    if (!e) {
        StrBuf err;
        sb_init(&err);
        lesson_error_take(I, &err);
        report_at(I->run.lang, report, path, st, q);
        sb_printf(report, lesson_msg(I->run.lang, MSG_SOUND_MODEL_FAILS), q->answer, sb_str(&err));
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
    if (!lesson_run_silently(I, q->answer)) interp_clear_error(I);   /* its variables stay defined */
    return bad;
}

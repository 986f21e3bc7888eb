/* answers.c - checking a student's answer by value: is a statement an answer (lesson_answers), the model answer's
 * values (lesson_expect), one attempt taken and graded (lesson_take, lesson_grade), with the words that say why an
 * answer is not right. */
#include "lesson.h"
#include "lesson_internal.h"
#include "session.h"
#include "ops.h"
#include "parser.h"
#include "strbuf.h"
#include "textwidth.h"
#include "i18n.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
Node *const *lesson_statements(Node *const *tree, int *n) {
    if (!*tree) { *n = 0; return NULL; }
    if ((*tree)->kind == N_BLOCK) { *n = (*tree)->nkids; return (*tree)->kids; }
    *n = 1;
    return tree;
}

/* True when one of the parsed statements assigns `name` (name = ..., a, name = ..., name += ...). */
static bool tree_assigns(Node *tree, const char *name) {
    int n;
    Node *const *st = lesson_statements(&tree, &n);
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
    Node *const *st = lesson_statements(&tree, &n);
    return n == 1 && st[0]->kind == N_EXPR_STMT;     /* one expression statement: its value is the answer */
}

bool lesson_line_answers(const LessonQuestion *q, const char *line) {
    ParseResult r = parse_program(line, 1);
    bool yes = lesson_answers(q, r.tree);
    ast_free(r.tree);
    return yes;
}

/* "name = expression" -> name; NULL for anything else. */
char *lesson_assigned_name(const char *src) {
    ParseResult r = parse_program(src, 1);
    int n;
    Node *const *st = lesson_statements(&r.tree, &n);
    char *name = NULL;
    if (n == 1 && st[0]->kind == N_ASSIGN && st[0]->nkids == 2 && st[0]->kids[0]->kind == N_NAME) name = xstrdup(st[0]->kids[0]->str);
    ast_free(r.tree);
    return name;
}

char *lesson_answer_name(const LessonQuestion *q, const char *line) { return q->name ? NULL : lesson_assigned_name(line); }

/* Runs src in I (a session's interpreter) unseen (session_run_unseen), writing no file; I->last_value is the value of
 * a last bare expression. False, with the error pending on I (quit() made an error that says it is no answer), when
 * it fails. */
bool lesson_run_silently(Interp *I, const char *src) {
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
static Value *value_of(Interp *I, I18nLang lang, const LessonQuestion *q, const char *src) {
    Value *old = q->name ? interp_lookup(I, q->name) : NULL;
    if (old) val_incref(old);
    Value *v = NULL;
    if (lesson_run_silently(I, src)) {
        v = q->name ? interp_lookup(I, q->name) : I->last_value;
        if (v) val_incref(v);
        else rt_error(I, "%s", lesson_msg(lang, MSG_NO_VALUE));
    }
    if (q->name) {
        if (old) interp_set_global(I, q->name, old);
        else dict_del(&I->globals, q->name);
    }
    return v;
}

static LessonExpect *lesson_expect_values(Interp *I, const LessonQuestion *q, I18nLang lang);

/* The variables the model answer reads, as they were at one moment: each name's binding (a reference) and, for a
 * tensor, a copy of its values, so that a later look can tell a name bound anew from a tensor changed in place. */
typedef struct { char *name; Value *bound; Tensor *copy; } Kept;
typedef struct { Kept *k; int n; } KeptSet;

static void keep_inputs(Interp *I, const LessonQuestion *q, KeptSet *ks) {
    ks->k = NULL;
    ks->n = 0;
    char **names = NULL;
    int nn = 0;
    lesson_answer_inputs(I, q, &names, &nn);
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
    I18nLang lang;     /* the language feedback on answers is given in (lesson_expect's caller's) */
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

LessonExpect *lesson_expect(Interp *I, const LessonQuestion *q, I18nLang lang) {
    Rng rng = I->run.rng;        /* the answers' values are found without drawing from the student's generator */
    LessonExpect *e = lesson_expect_values(I, q, lang);
    I->run.rng = rng;
    return e;
}

static LessonExpect *lesson_expect_values(Interp *I, const LessonQuestion *q, I18nLang lang) {
    LessonExpect *e = xcalloc(1, sizeof *e);
    e->lang = lang;
    e->right = xcalloc((size_t)q->nalts + 1, sizeof(Value *));
    e->wrong = xcalloc((size_t)q->nwrong + 1, sizeof(Value *));
    for (int i = 0; i <= q->nalts; i++) {
        e->right[i] = value_of(I, lang, q, i ? q->alts[i - 1] : q->answer);
        if (!e->right[i]) { lesson_expect_free(e); return NULL; }
        e->nright++;
    }
    for (int i = 0; i < q->nwrong; i++)
        if (!(e->wrong[i] = value_of(I, lang, q, q->wrong[i]))) interp_clear_error(I);     /* a wrong: line that fails */
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
        return val_tensor(I->run.heap, t);
    }
    if (is_seq(want) && is_seq(got) && got->u.seq.n == want->u.seq.n && !got->u.seq.is_size) {
        Value *out = NULL;
        for (int64_t i = 0; i < got->u.seq.n; i++) {
            Value *item = answer_form(I, got->u.seq.items[i], want->u.seq.items[i]);
            if (item == got->u.seq.items[i] && !out) { val_decref(item); continue; }
            if (!out) {      /* the first item that changed: a copy with the items before it */
                out = got->kind == V_TUPLE ? val_tuple(I->run.heap, got->u.seq.n) : val_list(I->run.heap, got->u.seq.n);
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
static void kind_words(I18nLang lang, StrBuf *o, const Value *v) {
    if (is_scalar(v)) { sb_puts(o, lesson_msg(lang, MSG_A_SINGLE_NUMBER)); return; }
    if (v->kind == V_TENSOR) {
        StrBuf sh;
        sb_init(&sh);
        shape_text(&sh, v->u.t);
        if (v->u.t->numel == 0) sb_printf(o, lesson_msg(lang, MSG_AN_EMPTY_TENSOR), sb_str(&sh));
        else if (v->u.t->ndim == 1 && v->u.t->numel == 1) sb_puts(o, lesson_msg(lang, MSG_A_TENSOR_OF_ONE));
        else if (v->u.t->ndim == 1) sb_printf(o, lesson_msg(lang, MSG_A_TENSOR_OF_N), (long long)v->u.t->numel);
        else sb_printf(o, lesson_msg(lang, MSG_A_SHAPED_TENSOR), sb_str(&sh));
        sb_free(&sh);
        return;
    }
    if (is_seq(v) && v->u.seq.is_size && v->u.seq.n == 1) { sb_puts(o, lesson_msg(lang, MSG_A_SIZE_OF_ONE)); return; }
    if (is_seq(v) && v->u.seq.is_size) { sb_printf(o, lesson_msg(lang, MSG_A_SIZE_OF_N), (long long)v->u.seq.n); return; }
    if (is_seq(v) && v->u.seq.n == 1) { sb_printf(o, lesson_msg(lang, MSG_A_SEQ_OF_ONE), val_type_name(v)); return; }
    if (is_seq(v)) { sb_printf(o, lesson_msg(lang, MSG_A_SEQ_OF_N), val_type_name(v), (long long)v->u.seq.n); return; }
    if (v->kind == V_STR) { sb_puts(o, lesson_msg(lang, MSG_A_STRING)); return; }
    if (v->kind == V_BOOL) { sb_puts(o, lesson_msg(lang, MSG_A_BOOL)); return; }
    sb_printf(o, lesson_msg(lang, MSG_A_VALUE_OF_TYPE), val_type_name(v));
}

/* One element as PyTorch prints it in a tensor of dtype dt: "0.0500", "3", "True". */
static void element_words(Interp *I, TenCtx *c, StrBuf *o, DType dt, double x) {
    Value *v = val_tensor(I->run.heap, ten_full_in(c, dt, 0, NULL, x));
    StrBuf r;
    sb_init(&r);
    if (v) val_repr_quiet(I, &r, v);         /* a tensor (no student code runs), with I's print options */
    val_decref(v);
    const char *p = sb_str(&r);
    if (!strncmp(p, "tensor(", 7)) p += 7;
    size_t n = strcspn(p, ",)");
    sb_putn(o, p, n);
    if (n && p[n - 1] == '.') sb_putc(o, '0');      /* "2." as in a tensor reads "2.0" in a sentence */
    sb_free(&r);
}

/* The student's own value in words: its digits for a number, its kind for a tensor, its repr when short. */
static void value_words(Interp *I, I18nLang lang, StrBuf *o, const Value *v) {
    if (v->kind == V_TENSOR && v->u.t->ndim == 0) { element_words(I, ten_ctx_of(v->u.t), o, v->u.t->dtype, ten_get(v->u.t, 0)); return; }
    if (v->kind != V_TENSOR) {
        StrBuf r;
        sb_init(&r);
        val_repr_quiet(I, &r, v);    /* a __repr__ of the lesson's may hold escapes: shown as \xHH */
        if (r.len <= 60 && !strchr(sb_str(&r), '\n')) { tw_visible(o, r.s, r.len, false); sb_free(&r); return; }
        sb_free(&r);
    }
    kind_words(lang, o, v);
}

/* A flat element number of t as its index: "[1, 2] (row 1, column 2)" for a matrix, "[0, 1, 2]" otherwise. */
static void position_words(I18nLang lang, StrBuf *o, const Tensor *t, int64_t flat) {
    int64_t idx[16] = {0};
    int nd = t->ndim < 16 ? t->ndim : 16;
    for (int d = nd - 1; d >= 0; d--) { idx[d] = flat % t->shape[d]; flat /= t->shape[d]; }
    sb_putc(o, '[');
    for (int d = 0; d < nd; d++) sb_printf(o, d ? ", %lld" : "%lld", (long long)idx[d]);
    sb_putc(o, ']');
    if (nd == 2) { sb_putc(o, ' '); sb_printf(o, lesson_msg(lang, MSG_POS_ROW_COL), (long long)idx[0], (long long)idx[1]); }
}

/* Why got is not want, in words ("your answer is a 2×2×4 tensor, expected a single number"), never giving the
 * expected value away except one differing element of a tensor. */
static void explain(Interp *I, I18nLang lang, StrBuf *fb, const char *subject, const Value *got, const Value *want, double tol) {
    StrBuf a, b;
    sb_init(&a);
    sb_init(&b);
    if (!same_kind(got, want) && !(is_seq(want) && is_seq(got))) {
        value_words(I, lang, &a, got);
        kind_words(lang, &b, want);
        sb_printf(fb, lesson_msg(lang, MSG_IS_KIND_EXPECTED), subject, sb_str(&a), sb_str(&b));
    } else if (want->kind == V_TENSOR && want->u.t->ndim > 0) {
        const Tensor *g = got->u.t, *w = want->u.t;
        int64_t bad = 0, first = -1;
        for (int64_t i = 0; i < w->numel; i++)
            if (!near(ten_get(g, i), ten_get(w, i), tol)) { bad++; if (first < 0) first = i; }
        StrBuf pos, mine, theirs;
        sb_init(&pos);
        sb_init(&mine);
        sb_init(&theirs);
        position_words(lang, &pos, w, first < 0 ? 0 : first);
        element_words(I, ten_ctx_of(g), &mine, g->dtype, ten_get(g, first < 0 ? 0 : first));
        element_words(I, ten_ctx_of(w), &theirs, w->dtype, ten_get(w, first < 0 ? 0 : first));
        if (bad == 0) sb_printf(fb, lesson_msg(lang, MSG_NOT_BOOL), subject, ten_dtype_name(g->dtype));
        else if (bad == w->numel) sb_printf(fb, lesson_msg(lang, MSG_ALL_VALUES_DIFFER), subject, sb_str(&pos), sb_str(&mine), sb_str(&theirs));
        else sb_printf(fb, lesson_msg(lang, MSG_VALUES_DIFFER), subject, (long long)bad, (long long)w->numel, sb_str(&pos), sb_str(&mine), sb_str(&theirs));
        sb_free(&pos);
        sb_free(&mine);
        sb_free(&theirs);
    } else if (is_seq(want) && is_seq(got) && got->u.seq.n != want->u.seq.n) {
        if (got->u.seq.n == 1) sb_printf(fb, lesson_msg(lang, MSG_ONE_ITEM_DIFFERS), subject, (long long)want->u.seq.n);
        else sb_printf(fb, lesson_msg(lang, MSG_ITEMS_DIFFER), subject, (long long)got->u.seq.n, (long long)want->u.seq.n);
    } else {
        value_words(I, lang, &a, got);
        sb_printf(fb, lesson_msg(lang, MSG_VALUE_IS), subject, sb_str(&a));
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
    I18nLang lang = e->lang;
    const char *subject = q->name ? q->name : lesson_msg(lang, MSG_YOUR_ANSWER);
    for (int i = 0; i < e->nwrong; i++)
        if (e->wrong[i] && answers_as(I, typed, e->wrong[i], q->tol)) {
            if (q->wrong_why[i]) sb_puts(fb, q->wrong_why[i]);
            else explain(I, e->lang, fb, subject, got, e->right[0], q->tol);
            return GRADE_WRONG;
        }
    if (typed->kind == V_TUPLE && !typed->u.seq.is_size && e->right[0]->kind == V_TENSOR && e->right[0]->u.t->ndim > 0) {
        /* (P[0, 5, 5], u * P[0, 2, 4] + v * P[0, 2, 5]): values side by side, the student checking their work; its
         * values are not compared with the answer's, which that would give away */
        StrBuf a;
        sb_init(&a);
        kind_words(lang, &a, e->right[0]);
        sb_printf(fb, lesson_msg(lang, MSG_TUPLE_CHECK), sb_str(&a));
        sb_free(&a);
        return GRADE_NOT_ANSWER;
    }
    if (!q->name && !same_kind(got, e->right[0])) {
        if (got->kind != V_TENSOR && !numberish(got) && !is_seq(got)) return GRADE_NOT_ANSWER;
        StrBuf a, b;
        sb_init(&a);
        sb_init(&b);
        kind_words(lang, &a, e->right[0]);
        kind_words(lang, &b, got);
        sb_printf(fb, lesson_msg(lang, MSG_NOT_GRADED), sb_str(&a), sb_str(&b));
        sb_free(&a);
        sb_free(&b);
        return GRADE_NOT_ANSWER;
    }
    explain(I, e->lang, fb, subject, got, e->right[0], q->tol);
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
    Node *const *st = lesson_statements(&tree, &n);
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
    Value *now = value_of(I, e->lang, q, q->answer);
    I->run.rng = rng;
    if (!now) interp_clear_error(I);
    bool same = now && answers_as(I, typed, now, q->tol);
    val_decref(now);
    return same ? k->name : NULL;
}

LessonGrade lesson_grade(Interp *I, const LessonQuestion *q, const LessonExpect *e, bool answers, LessonAttempt *a,
                         StrBuf *fb) {
    I18nLang lang = e->lang;
    if (!answers) {
        const char *other = a && a->tree ? named_otherwise(I, q, e, a->tree) : NULL;
        if (other) sb_printf(fb, lesson_msg(lang, MSG_NAME_IT), other, q->name, q->name, other);
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
        else sb_printf(fb, lesson_msg(lang, MSG_FORBIDDEN), forbidden);
        g = GRADE_WRONG;
    } else if (g != GRADE_NOT_ANSWER && changed && in_place) {
        /* d2l.masked_softmax(S, ...): right or not, S now holds -1e6; it is put back, and the student told */
        sb_clear(fb);
        sb_printf(fb, lesson_msg(lang, MSG_CHANGED_IN_PLACE), changed->name, changed->name, changed->name);
        interp_set_global(I, changed->name, val_tensor(I->run.heap, ten_clone(changed->copy)));
        g = GRADE_WRONG;
    } else if (g == GRADE_WRONG) {
        const char *name = changed_by_detour(I, q, e, typed);
        if (name) { sb_clear(fb); sb_printf(fb, lesson_msg(lang, MSG_RESTART), name); }
    }
    val_decref(typed);
    return g;
}

LessonGrade lesson_try(Interp *I, const LessonQuestion *q, const LessonExpect *e, const char *line, StrBuf *fb) {
    ParseResult r = parse_program(line, 1);
    bool answers = lesson_answers(q, r.tree);
    LessonAttempt *a = lesson_attempt_begin(I, q, r.tree, NULL);
    LessonGrade g = lesson_run_silently(I, line) ? lesson_grade(I, q, e, answers, a, fb) : GRADE_FAILED;
    lesson_attempt_free(a);
    ast_free(r.tree);
    return g;
}

struct LessonTaking {
    Interp *I;
    const LessonQuestion *q;
    const LessonExpect *e;
    bool answers;           /* the statement is an answer (decided before it runs) */
    char *named;            /* n = 64: the name whose value is the answer, NULL when none */
    LessonAttempt *att;     /* NULL when e is */
};

LessonTaking *lesson_take_begin(Interp *I, const LessonQuestion *q, const LessonExpect *e, const char *line, Node *tree,
                                const LessonSources *src) {
    LessonTaking *t = xcalloc(1, sizeof *t);
    t->I = I;
    t->q = q;
    t->e = e;
    val_decref(I->last_value);
    I->last_value = NULL;
    t->answers = lesson_answers(q, tree);
    t->named = t->answers ? NULL : lesson_answer_name(q, line);       /* n = 64: the value of n is the answer */
    t->att = e ? lesson_attempt_begin(I, q, tree, src) : NULL;
    return t;
}

LessonGrade lesson_take_end(LessonTaking *t, RunStatus rs, StrBuf *fb) {
    Interp *I = t->I;
    const LessonQuestion *q = t->q;
    char *named = t->named;
    LessonAttempt *att = t->att;
    bool answers = t->answers;
    const LessonExpect *e = t->e;
    free(t);
    if (rs != RUN_OK || !e) {
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
        sb_printf(fb, TR(e->lang, "(not graded: %s is set; an answer is a value or an expression typed alone, such as %s)\n"),
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

LessonGrade lesson_take(Interp *I, const LessonQuestion *q, const LessonExpect *e, const char *line, Node *tree,
                        const LessonSources *src, RunStatus (*run)(void *ctx), void *ctx, RunStatus *rs, StrBuf *fb) {
    LessonTaking *t = lesson_take_begin(I, q, e, line, tree, src);
    *rs = run(ctx);
    return lesson_take_end(t, *rs, fb);
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
            if (!callee && known) lesson_push_str(out, nout, sb_str(&b), b.len);
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
void lesson_answer_inputs(Interp *I, const LessonQuestion *q, char ***names, int *nn) {
    ParseResult r = parse_program(q->answer, 1);
    int ns;
    Node *const *st = lesson_statements(&r.tree, &ns);
    if (ns == 1) collect_inputs(I, st[0]->kind == N_ASSIGN ? st[0]->kids[st[0]->nkids - 1] : st[0], false, names, nn);
    ast_free(r.tree);
}

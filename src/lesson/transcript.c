/* transcript.c - replay, check and update golden transcripts (see transcript.h for the format). */
#include "transcript.h"
#include "session.h"
#include "strbuf.h"
#include "files.h"
#include "plot.h"
#include "lesson.h"
#include "textfile.h"
#include "mdblock.h"
#include "lesson_translation.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TR_MAX_FILE (8 << 20)

/* The end of the line at p (its '\n' or the NUL) and its length without a trailing '\r'. */
static const char *line_end(const char *p, size_t *n) {
    const char *e = strchr(p, '\n');
    if (!e) e = p + strlen(p);
    *n = (size_t)(e - p);
    if (*n && p[*n - 1] == '\r') (*n)--;
    return e;
}

static TrStep *new_step(Transcript *t, int *cap) {
    if (t->nsteps == *cap) { *cap = *cap ? *cap * 2 : 16; t->steps = xrealloc(t->steps, sizeof(TrStep) * (size_t)*cap); }
    TrStep *s = &t->steps[t->nsteps++];
    memset(s, 0, sizeof *s);
    return s;
}

Transcript *tr_parse(const char *path, const char *text, AttnError *err) {
    if (!md_text_clean(text, path, err)) return NULL;
    Transcript *t = xcalloc(1, sizeof *t);
    t->path = xstrdup(path);
    t->text = xstrdup(text);
    int line = 0, cap = 0;
    for (const char *p = t->text; *p;) {
        line++;
        size_t n;
        const char *e = line_end(p, &n);
        MdFence f;
        if (!md_fence_open(p, n, &f) || f.ch != '`') { p = *e ? e + 1 : e; continue; }   /* transcripts: ``` only */
        /* a fenced block: find its closing fence */
        int open = line;
        const char *body = *e ? e + 1 : e, *q = body, *body_end = NULL;
        while (*q) {
            line++;
            size_t qn;
            const char *qe = line_end(q, &qn);
            if (md_fence_closes(q, qn, &f)) { body_end = q; q = *qe ? qe + 1 : qe; break; }
            q = *qe ? qe + 1 : qe;
        }
        if (!body_end && md_info_is(&f, "attn")) {
            err_set(err, "%s:%d: the ```attn block is not closed (a ``` line is missing)", path, open);
            tr_free(t);
            return NULL;
        }
        if (!body_end) body_end = q;
        if (md_info_is(&f, "attn")) {
            bool unseen = f.info_len == 11 && !strncmp(f.info, "attn silent", 11);
            t->blocks = xrealloc(t->blocks, sizeof(TrBlock) * (size_t)(t->nblocks + 1));
            t->blocks[t->nblocks] = (TrBlock){open, line, f.len};
            MdStep *ms = NULL;
            int nms = 0, capms = 0;
            bool ok = md_attn_steps(body, body_end, open + 1, path, &ms, &nms, &capms, err);
            for (int i = 0; i < nms; i++) {
                TrStep *s = new_step(t, &cap);
                *s = (TrStep){ms[i].input, ms[i].line, ms[i].expected, ms[i].expected_line, ms[i].end_line, false,
                              unseen, t->nblocks, NULL, NULL};
            }
            free(ms);
            t->nblocks++;
            if (!ok) { tr_free(t); return NULL; }
        } else if (md_info_is(&f, "question")) {
            /* a lesson question: its model answer runs silently, so later steps see what it defines; a recorded
             * class's answer has what it printed after `printed:`, compared as a statement's output is */
            int ql = open;
            TrStep *s = NULL;
            StrBuf printed;
            sb_init(&printed);
            for (const char *r = body; r < body_end;) {
                ql++;
                size_t rn;
                const char *re = line_end(r, &rn);
                if (s && !s->silent) {
                    sb_putn(&printed, r, rn);
                    sb_putc(&printed, '\n');
                } else if (rn > 7 && !strncmp(r, "answer:", 7)) {
                    const char *v = r + 7;
                    while (*v == ' ') v++;
                    s = new_step(t, &cap);
                    s->input = xstrndup(v, rn - (size_t)(v - r));
                    s->expected = xstrdup("");
                    s->line = s->expected_line = s->end_line = ql;
                    s->silent = true;
                    s->block = -1;
                } else if (s && rn == 8 && !strncmp(r, "printed:", 8)) {
                    s->silent = false;
                    s->expected_line = ql + 1;
                }
                r = *re ? re + 1 : re;
            }
            if (s && !s->silent) {          /* the closing fence's line (the line after the text when it has none) */
                free(s->expected);
                s->expected = sb_take(&printed);
                s->end_line = body_end < q ? line : line + 1;
            } else sb_free(&printed);
        }
        p = q;
    }
    return t;
}

/* Lesson l compiled to a transcript (it takes l over): a step per statement, the output the lesson shows expected
 * (compared from the line after the statement's), and a step per question. */
static Transcript *from_lesson(Lesson *l) {
    Transcript *t = xcalloc(1, sizeof *t);
    t->path = xstrdup(l->path);
    t->text = xstrdup("");
    t->lesson = l;
    int cap = 0;
    for (int k = 0; k < l->nsteps; k++) {
        for (int i = 0; i < l->steps[k].nitems; i++) {
            const LessonItem *it = &l->steps[k].items[i];
            if (it->kind == ITEM_PROSE) continue;
            TrStep *s = new_step(t, &cap);
            bool q = it->kind == ITEM_QUESTION;
            s->input = xstrdup(q ? it->q->answer : it->text);
            s->expected = xstrdup(!q && it->expected ? it->expected : "");
            s->line = q ? it->q->line : it->line;
            s->expected_line = s->end_line = q ? s->line : it->line + 1;
            s->block = -1;
            s->question = q ? it->q : NULL;
            s->lesson_step = &l->steps[k];
        }
    }
    return t;
}

Transcript *tr_open(const char *path, AttnError *err) {
    if (!lesson_is_lesson_file(path)) return tr_load(path, err);
    Lesson *l = lesson_load(path, err);
    return l ? from_lesson(l) : NULL;
}

Transcript *tr_load(const char *path, AttnError *err) {
    char *text = textfile_read(path, TR_MAX_FILE, err);
    if (!text) return NULL;
    Transcript *t = tr_parse(path, text, err);
    free(text);
    return t;
}

void tr_free(Transcript *t) {
    if (!t) return;
    for (int i = 0; i < t->nsteps; i++) { free(t->steps[i].input); free(t->steps[i].expected); }
    free(t->steps);
    free(t->blocks);
    free(t->text);
    free(t->path);
    lesson_free(t->lesson);
    free(t);
}

I18nLang tr_language(const Transcript *t) {
    if (t->lesson) return lesson_language(t->path);
    for (const char *p = t->text; *p;) {
        size_t n;
        const char *e = line_end(p, &n);
        MdFence f;
        if (md_fence_open(p, n, &f) && f.ch == '`') break;
        char code[8];
        I18nLang l;
        if (n < 40 && sscanf(p, "<!-- lang: %7[a-z] -->", code) == 1 && i18n_parse_option(code, &l)) return l;
        p = *e ? e + 1 : e;
    }
    return I18N_EN;
}

/* A transcript's steps as session_feed runs them: each one's output into its own buffer. */
typedef struct StepFeed {
    SessionSource src;      /* first: the feed's hooks get it */
    Session *S;
    Transcript *t;
    StrBuf *outs;           /* per step */
    int figures;            /* the figures made before the step running */
} StepFeed;

static StrBuf *step_before(SessionSource *src, Statement *st) {
    (void)st;
    StepFeed *f = (StepFeed *)src;
    f->figures = plot_figure_count(&f->S->I.run.plot);
    return &f->outs[src->pos - 1];
}

/* A lesson's question (tr_open): checked where it stands, its report what the step prints; its model answer unseen. */
static bool step_run(SessionSource *src, Session *S, Statement *st, RunStatus *rs) {
    (void)st;
    StepFeed *f = (StepFeed *)src;
    const TrStep *s = &f->t->steps[src->pos - 1];
    if (!s->question) return false;
    lesson_replay_question(&S->I, f->t->path, s->lesson_step, s->question, &f->outs[src->pos - 1]);
    *rs = RUN_OK;
    return true;
}

static bool step_after(SessionSource *src, Statement *st, RunStatus *rs) {
    (void)st;
    (void)rs;
    StepFeed *f = (StepFeed *)src;
    const TrStep *s = &f->t->steps[src->pos - 1];
    if (s->unseen || s->silent) plot_rewind(&f->S->I.run.plot, f->figures);   /* as the class counted */
    return true;
}

void tr_run(const SessionConfig *cfg, Transcript *t, char **outputs) {
    Session S;
    session_init(&S, NULL);
    session_configure(&S, cfg);
    session_set_lang(&S, tr_language(t));      /* the steps run in the transcript's language, whatever the reader's */
    plot_replay(&S.I.run.plot);                   /* transcripts compare what a figure holds, not its pixels */
    /* a recorded class was a lesson when it ran: its refusals say so again in the replay */
    bool recorded = !strncmp(t->text, LESSON_RECORDING_TITLE, strlen(LESSON_RECORDING_TITLE));
    session_stranger(&S, recorded || t->lesson ? "a lesson" : "a transcript", t->path);
    /* and it replays the same from any folder, writing nothing: from its own folder (where its relative file names
     * were written, beside the recording), its writes checked by the rule but not made */
    int back = recorded ? open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (back >= 0) {
        S.I.run.files.dry = true;
        char *dir = xstrdup(t->path), *slash = strrchr(dir, '/');
        if (slash == dir) dir[1] = 0;       /* "/class.md": the root */
        else if (slash) *slash = 0;
        if (slash && chdir(dir) != 0) { /* it replays from where it is: the rule still holds */ }
        free(dir);
    }
    S.commands = session_commands;
    /* quit() ends the session: the steps after it print nothing */
    StepFeed f = {.S = &S, .t = t, .outs = xcalloc((size_t)(t->nsteps ? t->nsteps : 1), sizeof(StrBuf)), .figures = 0};
    char **texts = xcalloc((size_t)(t->nsteps ? t->nsteps : 1), sizeof(char *));
    for (int i = 0; i < t->nsteps; i++) { sb_init(&f.outs[i]); texts[i] = t->steps[i].input; }
    session_source_texts(&f.src, texts, t->nsteps);
    f.src.before = step_before;
    if (t->lesson) f.src.run = step_run;
    f.src.after = step_after;
    session_feed(&S, &f.src);
    session_source_free(&f.src);
    for (int i = 0; i < t->nsteps; i++) outputs[i] = sb_take(&f.outs[i]);
    free(f.outs);
    free(texts);
    session_free(&S);
    if (back >= 0) {
        if (fchdir(back) != 0) err_print("attn: cannot return to the folder the replay started in: %s\n", strerror(errno));
        close(back);
    }
}

/* ---- comparison ---- */

typedef struct Tok { bool num; double v; int decimals; int exp10; bool rounded; const char *s; size_t n; } Tok;

/* Next token: a number (optional sign, digits, '.', exponent) or a run of other characters; spaces folded. */
static bool next_tok(const char **pp, Tok *t) {
    const char *p = *pp;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) { *pp = p; return false; }
    const char *s = p;
    bool neg = (*p == '-' || *p == '+') && (isdigit((unsigned char)p[1]) || (p[1] == '.' && isdigit((unsigned char)p[2])));
    const char *q = neg ? p + 1 : p;
    if (isdigit((unsigned char)*q) || (*q == '.' && isdigit((unsigned char)q[1]))) {
        while (isdigit((unsigned char)*q)) q++;
        int dec = 0;
        if (*q == '.') { q++; while (isdigit((unsigned char)q[0])) { q++; dec++; } }
        int ex = 0;
        bool has_exp = false;
        if ((*q == 'e' || *q == 'E') && (isdigit((unsigned char)q[1]) || ((q[1] == '-' || q[1] == '+') && isdigit((unsigned char)q[2])))) {
            char *end;
            ex = (int)strtol(q + 1, &end, 10);
            q = end;
            has_exp = true;
        }
        if (!isalpha((unsigned char)*q) && *q != '_') {
            t->num = true;
            t->v = strtod(s, NULL);
            t->decimals = dec;
            t->exp10 = ex;
            t->rounded = dec > 0 || has_exp;     /* 3, 42 and 1. are exact; 0.1769 and 1.0e-05 are rounded */
            t->s = s;
            t->n = (size_t)(q - s);
            *pp = q;
            return true;
        }
    }
    /* a word: up to the next space or the next start of a number that is not glued to letters */
    q = p;
    while (*q && *q != ' ' && *q != '\t') {
        if (q > p && (isdigit((unsigned char)*q) || ((*q == '-' || *q == '.') && isdigit((unsigned char)q[1])))
            && !isalnum((unsigned char)q[-1]) && q[-1] != '_')
            break;
        if (isalnum((unsigned char)*q) || *q == '_') {
            while (isalnum((unsigned char)*q) || *q == '_') q++;
            continue;
        }
        q++;
    }
    t->num = false;
    t->s = p;
    t->n = (size_t)(q - p);
    *pp = q;
    return true;
}

static bool caret_line(const char *s) {
    while (*s == ' ') s++;
    return *s == '^' && s[1 + strspn(s + 1, " ")] == 0;
}

/* A caret line (spaces and one ^) must match exactly: its position is what it says. */
static bool line_match(const char *e, const char *a) {
    if (caret_line(e) || caret_line(a)) {
        size_t ne = strlen(e), na = strlen(a);
        while (ne && e[ne - 1] == ' ') ne--;
        while (na && a[na - 1] == ' ') na--;
        return ne == na && !memcmp(e, a, ne);
    }
    Tok te, ta;
    for (;;) {
        bool he = next_tok(&e, &te), ha = next_tok(&a, &ta);
        if (!he || !ha) return he == ha;
        if (te.num && ta.num) {
            double tol = te.rounded ? pow(10.0, te.exp10 - te.decimals) * 1.0000001 : 0;
            if (!(fabs(te.v - ta.v) <= tol) && !(te.v == ta.v)) return false;
            continue;
        }
        if (te.num != ta.num || te.n != ta.n || memcmp(te.s, ta.s, te.n) != 0) return false;
    }
}

bool tr_match(const char *expected, const char *actual) {
    const char *e = expected, *a = actual;
    for (;;) {
        /* ignore trailing blank lines on both sides */
        const char *ee = e, *aa = a;
        while (*ee == '\n' || *ee == ' ') ee++;
        while (*aa == '\n' || *aa == ' ') aa++;
        if (!*ee && !*aa) return true;
        if (!*e || !*a) return false;
        const char *el = strchr(e, '\n'), *al = strchr(a, '\n');
        size_t en = el ? (size_t)(el - e) : strlen(e), an = al ? (size_t)(al - a) : strlen(a);
        char *ls = xstrndup(e, en), *la = xstrndup(a, an);
        bool ok = line_match(ls, la);
        free(ls);
        free(la);
        if (!ok) return false;
        e = el ? el + 1 : e + en;
        a = al ? al + 1 : a + an;
    }
}

/* ---- actions ---- */

static void put_block(StrBuf *b, const char *prefix, const char *text) {
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        sb_puts(b, prefix);
        sb_putn(b, p, n);
        sb_putc(b, '\n');
        p = e ? e + 1 : p + n;
    }
}

void tr_put_input(StrBuf *b, const char *input) {
    const char *p = input;
    bool first = true;
    while (first || *p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        sb_puts(b, first ? "attn> " : (n ? "  ...> " : "  ...>"));
        sb_putn(b, p, n);
        sb_putc(b, '\n');
        first = false;
        if (!e) break;
        p = e + 1;
    }
}

/* Loads (lesson: a lesson compiled, as tr_open; else the file as a transcript) and runs a transcript; NULL (with a
 * message on stderr) when it cannot be read. */
static Transcript *load_and_run(const SessionConfig *cfg, const char *path, bool lesson, char ***outs) {
    AttnError err;
    Transcript *t = lesson ? tr_open(path, &err) : tr_load(path, &err);
    if (!t) { err_report(&err); return NULL; }
    *outs = xcalloc((size_t)(t->nsteps ? t->nsteps : 1), sizeof(char *));
    tr_run(cfg, t, *outs);
    return t;
}

/* A lesson's replay: each step's heading, then its statements as "attn> " and the text, what they printed, and its
 * questions' model answers. Returns how many questions are unsound. */
static int replay_lesson(StrBuf *b, const Transcript *t, char **outs) {
    int i = 0, unsound = 0;
    for (int k = 0; k < t->lesson->nsteps; k++) {
        const LessonStep *st = &t->lesson->steps[k];
        sb_printf(b, "## %s {#%s}\n", st->title, st->id);
        for (; i < t->nsteps && t->steps[i].lesson_step == st; i++) {
            sb_printf(b, "attn> %s\n", t->steps[i].input);
            if (t->steps[i].question) unsound += outs[i][0] != 0;
            else sb_puts(b, outs[i]);
        }
    }
    return unsound;
}

int tr_replay(const SessionConfig *cfg, const char *path) {
    char **outs;
    Transcript *t = load_and_run(cfg, path, true, &outs);
    if (!t) return 2;
    StrBuf b;
    sb_init(&b);
    int rc = t->lesson && replay_lesson(&b, t, outs) > 0;
    for (int i = 0; i < t->nsteps; i++) {
        if (!t->lesson) {
            tr_put_input(&b, t->steps[i].input);
            sb_puts(&b, outs[i]);
        }
        free(outs[i]);
    }
    fputs(sb_str(&b), stdout);
    sb_free(&b);
    free(outs);
    tr_free(t);
    return rc;
}

bool tr_check_step(StrBuf *d, const char *path, int line, const char *input, const char *expected, const char *actual) {
    if (tr_match(expected, actual)) return true;
    int ne = 0, na = 0;
    for (const char *q = expected; *q; q++) ne += *q == '\n';
    for (const char *q = actual; *q; q++) na += *q == '\n';
    if (actual[0] && actual[strlen(actual) - 1] != '\n') na++;
    sb_printf(d, "--- %s:%d (expected)\n+++ %s:%d (actual)\n", path, line, path, line);
    sb_printf(d, "@@ -%d,%d +%d,%d @@\n", line, ne, line, na);
    sb_printf(d, " attn> %s\n", strchr(input, '\n') ? "(multi-line statement)" : input);
    put_block(d, "-", expected);
    put_block(d, "+", actual);
    return false;
}

int tr_check(const SessionConfig *cfg, const char *path, bool quiet) {
    char **outs;
    Transcript *t = load_and_run(cfg, path, true, &outs);
    if (!t) return 2;
    if (t->nsteps == 0 && !t->lesson) {
        err_print("attn: %s: no ```attn block with 'attn> ' lines: nothing to check\n", path);
        free(outs);
        tr_free(t);
        return 2;
    }
    int bad = 0;
    for (int i = 0; i < t->nsteps; i++) {
        TrStep *s = &t->steps[i];
        if (s->question) {          /* a lesson's question: its soundness check's report */
            if (outs[i][0]) {
                bad++;
                if (!quiet) fputs(outs[i], stdout);
            }
            free(outs[i]);
            continue;
        }
        if (s->silent && (!strncmp(outs[i], "error: ", 7) || strstr(outs[i], "\nerror: "))) {
            /* an answer whose output was not recorded must at least run: one that fails is the class's mistake */
            bad++;
            if (!quiet) printf("%s:%d: the answer `%s` failed:\n%s", path, s->line, s->input, outs[i]);
        }
        if (s->silent) { free(outs[i]); continue; }
        StrBuf d;
        sb_init(&d);
        if (!tr_check_step(&d, path, s->expected_line, s->input, s->expected, outs[i])) {
            bad++;
            if (!quiet) fputs(sb_str(&d), stdout);
        }
        sb_free(&d);
        free(outs[i]);
    }
    free(outs);
    if (!quiet) {
        const char *what = t->lesson ? "steps and questions" : "steps";
        if (bad) printf("%s: %d of %d %s differ\n", path, bad, t->nsteps, what);
        else printf("%s: %d %s ok\n", path, t->nsteps, what);
    }
    tr_free(t);
    return bad ? 1 : 0;
}

/* Copies the text's lines up to (not including) line `until` into b, from *p at line *line. The fences of a block
 * whose new output holds a line of backticks are written longer (need[block]), so the block stays one block. */
static void copy_lines(StrBuf *b, const Transcript *t, const int *need, const char **p, int *line, int until) {
    while (*line < until && **p) {
        const char *e = strchr(*p, '\n');
        size_t n = e ? (size_t)(e - *p) + 1 : strlen(*p);
        const TrBlock *fb = NULL;
        for (int k = 0; k < t->nblocks && !fb; k++)
            if ((t->blocks[k].open_line == *line || t->blocks[k].close_line == *line) && need[k] > t->blocks[k].fence_len)
                fb = &t->blocks[k];
        if (fb) {
            const char *q = *p;
            while (*q == ' ') q++;
            sb_putn(b, *p, (size_t)(q - *p));
            sb_pad(b, '`', need[fb - t->blocks]);
            while (*q == '`') q++;
            sb_putn(b, q, n - (size_t)(q - *p));
        } else {
            sb_putn(b, *p, n);
        }
        *p += n;
        (*line)++;
    }
}

/* An output line the transcript format cannot hold as output: it would read back as a statement. */
static bool reads_as_input(const char *out) {
    for (const char *p = out; *p;) {
        if (!strncmp(p, "attn> ", 6) || !strncmp(p, "  ...>", 6)) return true;
        const char *e = strchr(p, '\n');
        if (!e) break;
        p = e + 1;
    }
    return false;
}

/* Rewrites the expected output of every step with what attn prints now (temp file, then rename). */
int tr_update(const SessionConfig *cfg, const char *path) {
    char **outs;
    Transcript *t = load_and_run(cfg, path, false, &outs);
    if (!t) return 2;
    int *need = xcalloc((size_t)(t->nblocks ? t->nblocks : 1), sizeof(int));
    for (int i = 0; i < t->nsteps; i++) {
        const TrStep *s = &t->steps[i];
        if (s->silent || s->block < 0) continue;
        int k = md_fence_len_for(outs[i]);
        if (k > need[s->block]) need[s->block] = k;
        if (reads_as_input(outs[i]))
            err_print("attn: %s:%d: the output of this statement has a line starting 'attn> ' or '  ...>': it will "
                      "read back as a statement\n", path, s->line);
    }
    StrBuf b;
    sb_init(&b);
    const char *p = t->text;
    int line = 1, changed = 0;
    for (int i = 0; i < t->nsteps; i++) {
        TrStep *s = &t->steps[i];
        if (s->silent) { free(outs[i]); continue; }
        copy_lines(&b, t, need, &p, &line, s->expected_line);
        sb_puts(&b, outs[i]);
        if (outs[i][0] && outs[i][strlen(outs[i]) - 1] != '\n') sb_putc(&b, '\n');
        if (!tr_match(s->expected, outs[i]) || strcmp(s->expected, outs[i])) changed++;
        while (line < s->end_line && *p) {
            const char *e = strchr(p, '\n');
            p += e ? (size_t)(e - p) + 1 : strlen(p);
            line++;
        }
        free(outs[i]);
    }
    copy_lines(&b, t, need, &p, &line, 1 << 30);
    free(need);
    free(outs);
    AttnError err;
    int rc = 0;
    if (!file_write_atomic(path, b.s, b.len, &err)) {
        err_report(&err);
        rc = 2;
    } else {
        printf("%s: %d of %d steps updated\n", path, changed, t->nsteps);
    }
    sb_free(&b);
    tr_free(t);
    return rc;
}

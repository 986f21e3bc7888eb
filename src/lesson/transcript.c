/* transcript.c - replay, check and update golden transcripts (see transcript.h for the format). */
#include "transcript.h"
#include "repl.h"
#include "strbuf.h"
#include "plot.h"
#include "textfile.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TR_MAX_FILE (8 << 20)

static bool is_fence(const char *l, size_t n, const char **lang) {
    size_t i = 0;
    while (i < n && l[i] == ' ') i++;
    if (n - i < 3 || strncmp(l + i, "```", 3) != 0) return false;
    *lang = l + i + 3;
    return true;
}

Transcript *tr_parse(const char *path, const char *text, char *err, size_t errlen) {
    Transcript *t = xcalloc(1, sizeof *t);
    t->path = xstrdup(path);
    t->text = xstrdup(text);
    const char *p = t->text;
    int line = 0, cap = 0;
    bool in_block = false, in_other = false, in_question = false;
    int block_start = 0;
    TrStep *cur = NULL;
    StrBuf exp;
    sb_init(&exp);
    while (*p) {
        line++;
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n && p[n - 1] == '\r') n--;
        const char *lang;
        if (is_fence(p, n, &lang)) {
            size_t ll = n - (size_t)(lang - p);
            if (in_other) in_other = false;
            else if (!in_block) {
                if (ll >= 4 && !strncmp(lang, "attn", 4)) { in_block = true; block_start = line; }
                else in_other = true;          /* another language's fence: its lines are not steps */
                in_question = ll >= 8 && !strncmp(lang, "question", 8);
            } else {
                if (cur) { cur->expected = sb_take(&exp); cur->end_line = line; cur = NULL; }
                in_block = false;
            }
        } else if (in_other && in_question && n > 7 && !strncmp(p, "answer:", 7)) {
            /* a lesson question: its model answer runs silently, so later steps see what it defines */
            if (t->nsteps == cap) { cap = cap ? cap * 2 : 16; t->steps = xrealloc(t->steps, sizeof(TrStep) * (size_t)cap); }
            TrStep *q = &t->steps[t->nsteps++];
            memset(q, 0, sizeof *q);
            const char *v = p + 7;
            while (*v == ' ') v++;
            q->input = xstrndup(v, n - (size_t)(v - p));
            q->line = q->expected_line = q->end_line = line;
            q->silent = true;
        } else if (in_block) {
            if (n >= 6 && !strncmp(p, "attn> ", 6)) {
                if (cur) { cur->expected = sb_take(&exp); cur->end_line = line; }
                if (t->nsteps == cap) { cap = cap ? cap * 2 : 16; t->steps = xrealloc(t->steps, sizeof(TrStep) * (size_t)cap); }
                cur = &t->steps[t->nsteps++];
                memset(cur, 0, sizeof *cur);
                cur->input = xstrndup(p + 6, n - 6);
                cur->line = line;
                cur->expected_line = line + 1;
                sb_clear(&exp);
            } else if (n >= 7 && !strncmp(p, "  ...> ", 7) && cur && exp.len == 0) {
                size_t old = strlen(cur->input);
                cur->input = xrealloc(cur->input, old + n - 7 + 2);
                cur->input[old] = '\n';
                memcpy(cur->input + old + 1, p + 7, n - 7);
                cur->input[old + 1 + n - 7] = 0;
                cur->expected_line = line + 1;
            } else if (n == 6 && !strncmp(p, "  ...>", 6) && cur && exp.len == 0) {
                size_t old = strlen(cur->input);
                cur->input = xrealloc(cur->input, old + 2);
                cur->input[old] = '\n';
                cur->input[old + 1] = 0;
                cur->expected_line = line + 1;
            } else if (cur) {
                sb_putn(&exp, p, n);
                sb_putc(&exp, '\n');
            } else if (n > 0) {
                snprintf(err, errlen, "%s:%d: output before any 'attn> ' input in the block opened on line %d", path, line, block_start);
                sb_free(&exp);
                tr_free(t);
                return NULL;
            }
        }
        p = e ? e + 1 : p + strlen(p);
    }
    if (in_block) {
        snprintf(err, errlen, "%s:%d: the ```attn block is not closed (a ``` line is missing)", path, block_start);
        sb_free(&exp);
        tr_free(t);
        return NULL;
    }
    sb_free(&exp);
    return t;
}

Transcript *tr_load(const char *path, char *err, size_t errlen) {
    char *text = textfile_read(path, TR_MAX_FILE, err, errlen);
    if (!text) return NULL;
    Transcript *t = tr_parse(path, text, err, errlen);
    free(text);
    return t;
}

void tr_free(Transcript *t) {
    if (!t) return;
    for (int i = 0; i < t->nsteps; i++) { free(t->steps[i].input); free(t->steps[i].expected); }
    free(t->steps);
    free(t->text);
    free(t->path);
    free(t);
}

void tr_run(Transcript *t, char **outputs) {
    Session S;
    session_init(&S, "summary");            /* transcripts compare what a figure holds, not its pixels */
    S.commands = repl_commands;
    session_push(&S);
    bool quit = false;                      /* quit() ends the session: the steps after it print nothing */
    for (int i = 0; i < t->nsteps; i++) {
        StrBuf out;
        sb_init(&out);
        if (!quit) {
            S.I.capture = &out;
            quit = session_run(&S, t->steps[i].input, NULL, NULL, 1) == RUN_QUIT;
            S.I.capture = NULL;
        }
        outputs[i] = sb_take(&out);
    }
    session_free(&S);
}

/* ---- comparison ---- */

typedef struct Tok { bool num; double v; int decimals; int exp10; const char *s; size_t n; } Tok;

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
        if ((*q == 'e' || *q == 'E') && (isdigit((unsigned char)q[1]) || ((q[1] == '-' || q[1] == '+') && isdigit((unsigned char)q[2])))) {
            char *end;
            ex = (int)strtol(q + 1, &end, 10);
            q = end;
        }
        if (!isalpha((unsigned char)*q) && *q != '_') {
            t->num = true;
            t->v = strtod(s, NULL);
            t->decimals = dec;
            t->exp10 = ex;
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
            double tol = pow(10.0, te.exp10 - te.decimals) * 1.0000001;
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

static void put_input(StrBuf *b, const char *input) {
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

/* Loads and runs a transcript; NULL (with a message on stderr) when it cannot be read. */
static Transcript *load_and_run(const char *path, char ***outs) {
    char err[512];
    Transcript *t = tr_load(path, err, sizeof err);
    if (!t) { fprintf(stderr, "attn: %s\n", err); return NULL; }
    *outs = xcalloc((size_t)(t->nsteps ? t->nsteps : 1), sizeof(char *));
    tr_run(t, *outs);
    return t;
}

int tr_replay(const char *path) {
    char **outs;
    Transcript *t = load_and_run(path, &outs);
    if (!t) return 2;
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < t->nsteps; i++) {
        put_input(&b, t->steps[i].input);
        sb_puts(&b, outs[i]);
        free(outs[i]);
    }
    fputs(sb_str(&b), stdout);
    sb_free(&b);
    free(outs);
    tr_free(t);
    return 0;
}

int tr_check(const char *path, bool quiet) {
    char **outs;
    Transcript *t = load_and_run(path, &outs);
    if (!t) return 2;
    if (t->nsteps == 0) {
        fprintf(stderr, "attn: %s: no ```attn block with 'attn> ' lines: nothing to check\n", path);
        free(outs);
        tr_free(t);
        return 2;
    }
    int bad = 0;
    for (int i = 0; i < t->nsteps; i++) {
        TrStep *s = &t->steps[i];
        if (s->silent) { free(outs[i]); continue; }
        if (!tr_match(s->expected, outs[i])) {
            bad++;
            if (!quiet) {
                StrBuf d;
                sb_init(&d);
                int ne = 0, na = 0;
                for (const char *q = s->expected; *q; q++) ne += *q == '\n';
                for (const char *q = outs[i]; *q; q++) na += *q == '\n';
                if (outs[i][0] && outs[i][strlen(outs[i]) - 1] != '\n') na++;
                sb_printf(&d, "--- %s:%d (expected)\n+++ %s:%d (actual)\n", path, s->expected_line, path, s->expected_line);
                sb_printf(&d, "@@ -%d,%d +%d,%d @@\n", s->expected_line, ne, s->expected_line, na);
                put_block(&d, " ", "");
                sb_printf(&d, " attn> %s\n", strchr(s->input, '\n') ? "(multi-line statement)" : s->input);
                put_block(&d, "-", s->expected);
                put_block(&d, "+", outs[i]);
                fputs(sb_str(&d), stdout);
                sb_free(&d);
            }
        }
        free(outs[i]);
    }
    free(outs);
    if (!quiet) {
        if (bad) printf("%s: %d of %d steps differ\n", path, bad, t->nsteps);
        else printf("%s: %d steps ok\n", path, t->nsteps);
    }
    tr_free(t);
    return bad ? 1 : 0;
}

/* Rewrites the expected output of every step with what attn prints now (temp file, then rename). */
int tr_update(const char *path) {
    char **outs;
    Transcript *t = load_and_run(path, &outs);
    if (!t) return 2;
    StrBuf b;
    sb_init(&b);
    const char *p = t->text;
    int line = 1, changed = 0;
    for (int i = 0; i < t->nsteps; i++) {
        TrStep *s = &t->steps[i];
        if (s->silent) { free(outs[i]); continue; }
        while (line < s->expected_line && *p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
            sb_putn(&b, p, n);
            p += n;
            line++;
        }
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
    sb_puts(&b, p);
    free(outs);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int rc = 0;
    if (!f || fwrite(b.s, 1, b.len, f) != b.len || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "attn: cannot write %s: %s\n", path, strerror(errno));
        if (f) remove(tmp);
        rc = 2;
    } else {
        printf("%s: %d of %d steps updated\n", path, changed, t->nsteps);
    }
    sb_free(&b);
    tr_free(t);
    return rc;
}

/* sources.c - where the values of a student's names came from, so that a question's forbid: line sees through a
 * name: `a = Y[0, 2]`, then the answer `a`, reads Y. For each name a statement the student typed assigns, the names
 * its value was computed from are kept, followed back through the earlier assignments (b = a * 2 after the line
 * above: b comes from a and Y). Simple and on the safe side: a statement's whole right-hand side counts (a def or a
 * class: everything in it), an assignment into a[i] or a.x adds to a's sources, control flow (if Y[0] > 0: a = 1)
 * is not followed. A lesson's own statement that assigns a name forgets its sources (its value is the lesson's). */
#include "lesson.h"
#include "strbuf.h"
#include <stdlib.h>
#include <string.h>

typedef struct Names { char **s; int n; } Names;
typedef struct Source { char *name; Names from; } Source;
struct LessonSources { Source *e; int n; };

static bool names_has(const Names *ns, const char *s) {
    for (int i = 0; i < ns->n; i++) if (!strcmp(ns->s[i], s)) return true;
    return false;
}

static void names_add(Names *ns, const char *s) {
    if (names_has(ns, s)) return;
    ns->s = xrealloc(ns->s, sizeof *ns->s * (size_t)(ns->n + 1));
    ns->s[ns->n++] = xstrdup(s);
}

static void names_free(Names *ns) {
    for (int i = 0; i < ns->n; i++) free(ns->s[i]);
    free(ns->s);
    ns->s = NULL;
    ns->n = 0;
}

LessonSources *lesson_sources_new(void) { return xcalloc(1, sizeof(LessonSources)); }

void lesson_sources_free(LessonSources *src) {
    if (!src) return;
    for (int i = 0; i < src->n; i++) { free(src->e[i].name); names_free(&src->e[i].from); }
    free(src->e);
    free(src);
}

static Source *find(const LessonSources *src, const char *name) {
    for (int i = 0; i < src->n; i++) if (!strcmp(src->e[i].name, name)) return &src->e[i];
    return NULL;
}

static Source *entry(LessonSources *src, const char *name) {
    Source *s = find(src, name);
    if (s) return s;
    src->e = xrealloc(src->e, sizeof *src->e * (size_t)(src->n + 1));
    s = &src->e[src->n++];
    s->name = xstrdup(name);
    s->from.s = NULL;
    s->from.n = 0;
    return s;
}

/* Every name n reads, with the sources of each (so the set is closed: one look-up answers for a whole chain). */
static void reads(const LessonSources *src, const Node *n, Names *out) {
    if (!n) return;
    if (n->kind == N_NAME && n->str) {
        names_add(out, n->str);
        const Source *s = find(src, n->str);
        for (int i = 0; s && i < s->from.n; i++) names_add(out, s->from.s[i]);
    }
    for (int i = 0; i < n->nkids; i++) reads(src, n->kids[i], out);
}

/* The name a target assigns or changes: a for a, a[i], a.x, a[i].x (NULL for a tuple; set_target walks those). */
static const char *base_name(const Node *t) {
    while (t && (t->kind == N_INDEX || t->kind == N_ATTR) && t->nkids > 0) t = t->kids[0];
    return t && t->kind == N_NAME ? t->str : NULL;
}

/* Name `name` now holds a value computed from `from` (typed: the student's; else the lesson's): whole, it is
 * replaced; else (a[i] = ..., a.x = ...: `also` are the names the target reads) its sources grow. */
static void set_name(LessonSources *src, const char *name, const Names *from, const Names *also, bool whole, bool typed) {
    if (!typed) {
        Source *s = find(src, name);
        if (s && whole) names_free(&s->from);
        return;
    }
    Source *s = entry(src, name);
    if (whole) names_free(&s->from);
    for (int i = 0; i < from->n; i++) if (!whole || strcmp(from->s[i], name)) names_add(&s->from, from->s[i]);
    for (int i = 0; also && i < also->n; i++) if (strcmp(also->s[i], name)) names_add(&s->from, also->s[i]);
}

/* Target t now holds a value computed from `from`. A plain name is replaced; a[i] = ... and a.x = ... change a, whose
 * sources grow (its other items are what they were), with the names the index reads (a[Y[0]] = 1). */
static void set_target(LessonSources *src, const Node *t, const Names *from, bool typed) {
    if (!t) return;
    if (t->kind == N_TUPLE || t->kind == N_LIST) {
        for (int i = 0; i < t->nkids; i++) set_target(src, t->kids[i], from, typed);
        return;
    }
    if (t->kind == N_STAR && t->nkids > 0) { set_target(src, t->kids[0], from, typed); return; }
    const char *name = base_name(t);
    if (!name) return;
    if (t->kind == N_NAME) { set_name(src, name, from, NULL, true, typed); return; }
    Names also = {0};
    reads(src, t, &also);
    set_name(src, name, from, &also, false, typed);
    names_free(&also);
}

/* The assignments in n, in the order they run. */
static void walk(LessonSources *src, const Node *n, bool typed) {
    if (!n) return;
    Names from = {0};
    switch (n->kind) {
    case N_ASSIGN:          /* targets..., value */
        if (n->nkids < 2) break;
        reads(src, n->kids[n->nkids - 1], &from);
        for (int i = 0; i < n->nkids - 1; i++) set_target(src, n->kids[i], &from, typed);
        break;
    case N_AUGASSIGN:       /* a += v: a keeps its sources and gains v's */
        if (n->nkids < 2) break;
        reads(src, n->kids[1], &from);
        reads(src, n->kids[0], &from);
        set_target(src, n->kids[0], &from, typed);
        break;
    case N_FOR:             /* target, iterable, body ... */
        if (n->nkids < 2) break;
        reads(src, n->kids[1], &from);
        set_target(src, n->kids[0], &from, typed);
        for (int i = 2; i < n->nkids; i++) walk(src, n->kids[i], typed);
        break;
    case N_DEF:
    case N_CLASS: {         /* a function or class reads whatever its body reads when it is called */
        if (!n->str) break;
        for (int i = 0; i < n->nkids; i++) reads(src, n->kids[i], &from);
        set_name(src, n->str, &from, NULL, true, typed);
        break;
    }
    default:
        for (int i = 0; i < n->nkids; i++) walk(src, n->kids[i], typed);
        break;
    }
    names_free(&from);
}

void lesson_sources_note(LessonSources *src, const Node *tree, bool typed) {
    if (src && tree) walk(src, tree, typed);
}

const char *lesson_sources_reach(const LessonSources *src, const char *name, char *const *names, int n) {
    const Source *s = src ? find(src, name) : NULL;
    for (int i = 0; s && i < s->from.n; i++)
        for (int k = 0; k < n; k++) if (!strcmp(s->from.s[i], names[k])) return names[k];
    return NULL;
}

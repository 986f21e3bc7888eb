/* help.c - help() and the `help` command: every builtin with its signature, its section of the book and a short
 * explanation for students. */
#include "builtins_internal.h"
#include "help.h"
#include "i18n.h"
#include "textwidth.h"
#include "interp.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "plot.h"

/* Appends a signature such as "f(a, b=1, c=2)", broken after a ", " where it would pass `width` columns, the
 * continuation lines aligned under the first parameter. */
static void help_signature(StrBuf *out, const char *sig, int width) {
    const char *open = strchr(sig, '(');
    int hang = open ? (int)(open - sig) + 1 : 4;
    const char *p = sig;
    int col = 0;
    while (*p) {
        const char *comma = strstr(p, ", ");
        const char *end = comma ? comma + 2 : p + strlen(p);
        int n = tw_width_n(p, (size_t)(end - p));
        if (col > hang && col + n - (comma ? 1 : 0) > width) {
            while (out->len && out->s[out->len - 1] == ' ') out->s[--out->len] = 0;
            sb_putc(out, '\n');
            sb_pad(out, ' ', hang);
            col = hang;
        }
        sb_putn(out, p, (size_t)(end - p));
        col += n;
        p = end;
    }
    sb_putc(out, '\n');
}

/* Appends the help text for one name (a function or a Tensor method); false when unknown. */
bool help_for(StrBuf *out, const char *name) {
    const char *n = name;
    for (const char *pfx[] = {"torch.", "d2l.", "nn.", "F.", "np.", "math.", "Tensor.", "X.", NULL}, **p = pfx; *p; p++)
        if (!strncmp(n, *p, strlen(*p))) { n += strlen(*p); break; }
    const Builtin *b = builtins_find(n);
    if (!strncmp(name, "torch.", 6))          /* torch.range, not Python's range */
        for (const Builtin *t = bi_torch_only; t->name; t++) if (!strcmp(t->name, n)) b = t;
    if (!strncmp(name, "math.", 5))           /* Python's math.sqrt, not torch.sqrt */
        for (const Builtin *t = bi_math_module; t->name; t++) if (!strcmp(t->name, n)) b = t;
    const Builtin *m = builtins_find_method(n);
    if (!b && !m) return false;
    if (!b) b = m;
    help_signature(out, b->signature, 79);
    if (b->section && *b->section) sb_printf(out, "  [d2l %s]\n", b->section);
    tw_wrap(out, TR(b->help), 79, "  ");     /* the chapter's functions in Japanese and Chinese too */
    if (m) sb_printf(out, TR("  Also a method: X.%s(...)\n"), n);
    if (!strcmp(n, "plot") || !strcmp(n, "show_heatmaps") || !strcmp(n, "savefig") || !strcmp(n, "plot_target")) {
        sb_putc(out, '\n');
        plot_describe(&session_of(NULL)->plot, out, isatty(1) != 0);
    }
    return true;
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The names of the chapter's functions (chapter) or of the others, as the student types them (len, d2l.plot,
 * torch.zeros), sorted, in columns of `width` within 80 columns; a longer name takes as many columns as it needs. */
static void list_names(StrBuf *out, const Builtin *const *all, int n, bool chapter, int width) {
    char **names = xcalloc((size_t)(n ? n : 1), sizeof *names);
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool ours = all[i]->section && !strncmp(all[i]->section, "§11", 3);
        if (ours != chapter || all[i]->name[0] == '_') continue;
        char home[64];
        builtins_home(all[i], home, sizeof home);
        StrBuf q;
        sb_init(&q);
        sb_printf(&q, "%s%s%s", home, *home ? "." : "", all[i]->name);
        names[k++] = q.s;
    }
    qsort(names, (size_t)k, sizeof *names, by_string);
    int used = 0;
    for (int i = 0; i < k; i++) {
        int len = 2 + (int)strlen(names[i]), cells = (len + width - 1) / width;
        if (used && used + cells * width > 80) { sb_putc(out, '\n'); used = 0; }
        sb_printf(out, "  %-*s", cells * width - 2, names[i]);
        used += cells * width;
        free(names[i]);
    }
    if (used) sb_putc(out, '\n');
    free(names);
}

void help_overview(StrBuf *out) {
    int n;
    const Builtin *const *all = builtins_all(&n);
    sb_puts(out,
            TR("attn: type Python/PyTorch lines as in the book. As in PyTorch, a function is\n"
            "called through its module: torch.zeros, nn.Linear, d2l.masked_softmax.\n"
            "  help NAME      explains one function, e.g. help masked_softmax\n"
            "  lesson         lists the lessons; lesson N starts one\n"
            "  Ctrl-D or quit() leaves; history and tab completion are on at a terminal.\n\n"
            "From the chapter (d2l §11.3, §11.5, §11.6):\n"));
    list_names(out, all, n, true, 26);
    sb_puts(out, TR("\nTensors and Python:\n"));
    list_names(out, all, n, false, 20);
    sb_puts(out, TR("\nTensor attributes: X.shape X.dtype X.T X.ndim;\nmethods: X.reshape(...) X.sum(dim=...) X.item() ...\n"
                    "dir(X) lists everything X offers; dir() lists the names you defined.\n"));
}

static Value *bi_help(Interp *I, Args *a) {
    StrBuf b;
    sb_init(&b);
    Value *v = arg(a, 0, NULL);
    if (!v) help_overview(&b);
    else if (v->kind == V_METHOD && v->u.method.fn && v->u.method.fn->help && v->u.method.self &&
             (v->u.method.self->kind == V_LIST || v->u.method.self->kind == V_DICT || v->u.method.self->kind == V_SET ||
              v->u.method.self->kind == V_STR || v->u.method.self->kind == V_TUPLE)) {
        /* a method of a Python value ({1}.add, [].append, "".join): its own line, not a torch function's namesake */
        sb_printf(&b, "%s\n  %s\n", v->u.method.fn->signature, v->u.method.fn->help);
    } else {
        const char *name = v->kind == V_STR ? v->u.str.s : v->kind == V_BUILTIN ? v->u.builtin->name
                         : v->kind == V_METHOD ? v->u.method.fn->name : v->kind == V_OBJECT ? v->u.obj.cls->name : NULL;
        if (!name || !help_for(&b, name)) {
            sb_free(&b);
            return rt_error(I, "no help for %s: type help to list everything", name ? name : val_type_name(v));
        }
    }
    interp_write(I, sb_str(&b));
    sb_free(&b);
    return val_none();
}

static Value *bi_quit(Interp *I, Args *a) {
    return rt_quit(I);
}

const Builtin bi_help_table[] = {
    {"help", bi_help, "help(name)", "Explains a function; help() lists everything.", "", 0},
    {"quit", bi_quit, "quit()", "Leaves attn (Ctrl-D does too).", "", 0},
    {"exit", bi_quit, "exit()", "Leaves attn.", "", 0},
    {NULL, NULL, NULL, NULL, NULL, 0}};

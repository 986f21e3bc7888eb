/* help.c - help() and the `help` command: every builtin with its signature, its section of the book and a short
 * explanation for students. */
#include "builtins_internal.h"
#include "help.h"
#include "i18n.h"
#include "textwidth.h"
#include "interp.h"
#include "ops.h"
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

/* The help text of builtin b, named n as typed after its module (m: the Tensor method of that name, or NULL). */
static void put_builtin(Interp *I, StrBuf *out, const Builtin *b, const Builtin *m, const char *n) {
    help_signature(out, b->signature, 79);
    if (b->section && *b->section) sb_printf(out, "  [d2l %s]\n", b->section);
    tw_wrap(out, TR(I->run.lang, b->help), 79, "  ");     /* the chapter's functions in Japanese and Chinese too */
    if (m) sb_printf(out, TR(I->run.lang, "  Also a method: X.%s(...)\n"), n);
    if (!strcmp(n, "plot") || !strcmp(n, "show_heatmaps") || !strcmp(n, "savefig") || !strcmp(n, "plot_target")) {
        sb_putc(out, '\n');
        plot_describe(&I->run.plot, out, isatty(1) != 0);
    }
}

static bool help_topic(I18nLang lang, StrBuf *out, const char *word);

/* What a tensor's attributes are (the names dir(X) lists that are not methods). In English in every language, as
 * the help of PyTorch's own functions (i18n.h: only the chapter's functions' help is translated). */
static const char *const tensor_attrs[][2] = {
    {"shape", "The size of each dimension, a torch.Size (a tuple of ints); X.size() is the same."},
    {"dtype", "The type of X's elements: torch.float32, torch.int64, torch.bool ..."},
    {"ndim", "The number of dimensions; X.dim() is the same."},
    {"T", "X with its dimensions in reverse order (a view): the transpose of a matrix."},
    {"mT", "X with its last two dimensions swapped (a view): each matrix of a batch transposed."},
    {"data", "X itself, as a tensor without autograd history (X.detach() is the same)."},
    {"grad", "The gradient backward() added up for X (a leaf that requires grad), or None before any."},
    {"grad_fn", "The backward function of the operation that made X (<MulBackward0 ...>), None for a leaf."},
    {"requires_grad", "Whether autograd records the operations on X, for backward()."},
    {"is_leaf", "True for a tensor made directly (not computed from one that requires grad)."},
    {"is_cuda", "False: attn's tensors are on the CPU."},
    {"device", "Where X is kept: device(type='cpu'), as attn computes on the CPU."}};

/* The function X.name calls: the Tensor method, or, for a method that is a torch function taking X first, torch's
 * (X.sum is torch.sum, not Python's sum). NULL when a tensor has no such method. */
static const Builtin *tensor_method(const char *name) {
    const Builtin *m = builtins_find_method(name);
    if (m && m == builtins_find(name)) {
        ValHeap *heap = val_heap_new();   /* help's own values, made only to be looked at */
        Value *t = builtins_module_attr(heap, "torch", name);
        if (t && t->kind == V_BUILTIN) m = t->u.builtin;
        if (t) val_decref(t);
        val_heap_free(heap);
    }
    return m;
}

/* help for a name typed with its module or with X. (torch.float32, d2l.reduce_sum, math.pi, X.shape): what that
 * name is where it is typed. 1 when written, 0 when the module has no such name, -1 when the function tables decide
 * (math's functions, a Tensor method, a prefix that is not a module). */
static int help_dotted(Interp *I, StrBuf *out, const char *name, const char *dot) {
    const char *tail = dot + 1;
    char head[64];
    snprintf(head, sizeof head, "%.*s", (int)(dot - name), name);
    if (!strcmp(head, "X") || !strcmp(head, "Tensor") || !strcmp(head, "torch.Tensor")) {
        const Builtin *m = tensor_method(tail);
        if (m) { put_builtin(I, out, m, m, tail); return 1; }
        for (size_t i = 0; i < sizeof tensor_attrs / sizeof *tensor_attrs; i++)
            if (!strcmp(tensor_attrs[i][0], tail)) {
                sb_printf(out, "X.%s\n", tail);
                tw_wrap(out, tensor_attrs[i][1], 79, "  ");
                return 1;
            }
        return 0;
    }
    Value *mod = builtins_import(I->run.heap, head);
    if (!mod && !strncmp(head, "nn.", 3)) {         /* nn.functional.softmax: nn is torch.nn */
        char full[80];
        snprintf(full, sizeof full, "torch.%s", head);
        mod = builtins_import(I->run.heap, full);
    }
    if (!mod) return -1;
    Value *v = builtins_module_attr(I->run.heap, mod->u.module, tail);
    bool math = !strcmp(mod->u.module, "math");
    val_decref(mod);
    if (!v) return 0;
    int r = 1;
    StrBuf rep, text;
    sb_init(&rep);
    sb_init(&text);
    val_repr_quiet(I, &rep, v);
    switch (v->kind) {
    case V_BUILTIN:
        if (math) r = -1;           /* Python's math.sqrt, from the math table */
        else put_builtin(I, out, v->u.builtin, builtins_find_method(tail), tail);
        break;
    case V_DTYPE:
        sb_printf(&text, "A dtype, %s: the type of a tensor's elements, as in torch.zeros(2, dtype=%s) or X.to(%s).\n",
                  sb_str(&rep), sb_str(&rep), sb_str(&rep));
        break;
    case V_INT: case V_FLOAT: sb_printf(&text, "A constant: %s = %s.\n", name, sb_str(&rep)); break;
    case V_MODULE: r = help_topic(I->run.lang, out, v->u.module); break;
    case V_CLASS:
        if (!strcmp(v->u.cls->name, "Tensor")) r = help_topic(I->run.lang, out, "Tensor");
        else if (!strcmp(v->u.cls->name, "Module") && v->u.cls->module_name && !strcmp(v->u.cls->module_name, "d2l.torch"))
            sb_puts(&text, "The book's base class of models (§3.2), an nn.Module: a subclass calls super().__init__() "
                           "and self.save_hyperparameters() in __init__ and defines loss(y_hat, y), and forward(X) "
                           "unless its layers are self.net. training_step(batch) returns self.loss(self(*batch[:-1]), "
                           "batch[-1]) and plots it on self.board (plot(key, value, train)); validation_step does the "
                           "same for validation batches; configure_optimizers() returns torch.optim.SGD("
                           "self.parameters(), lr=self.lr). d2l.Trainer(max_epochs).fit(model, data) trains it.\n");
        else if (!strcmp(v->u.cls->name, "Module"))
            sb_puts(&text, "The base class of layers and models: a subclass sets its layers up in __init__ (after "
                           "super().__init__()) and computes in forward; calling the object calls forward.\n");
        else if (!strcmp(v->u.cls->name, "DataModule"))
            sb_puts(&text, "The book's base class of data (§3.2): a subclass sets batch_size and its tensors in __init__ "
                           "(super().__init__(), self.save_hyperparameters()) and defines get_dataloader(self, train), "
                           "usually return self.get_tensorloader((self.X, self.y), train, indices); train_dataloader() "
                           "and val_dataloader() call it.\n");
        else if (!strcmp(v->u.cls->name, "Trainer"))
            sb_puts(&text, "d2l.Trainer(max_epochs, num_gpus=0, gradient_clip_val=0) trains the book's models (§3.2): "
                           "trainer.fit(model, data) takes a d2l.Module and a d2l.DataModule, sets self.optim = "
                           "model.configure_optimizers(), then runs fit_epoch() max_epochs times: per training batch "
                           "loss = model.training_step(batch), optim.zero_grad(), loss.backward(), clip_gradients when "
                           "gradient_clip_val > 0, optim.step(); then model.validation_step per validation batch. "
                           "Its methods (prepare_data, prepare_model, prepare_batch, fit_epoch, clip_gradients) are "
                           "d2l's and can be replaced with @d2l.add_to_class(d2l.Trainer). The model's board draws "
                           "the losses as it trains; Ctrl-C stops between two steps and keeps the parameters.\n");
        else if (!strcmp(v->u.cls->name, "ProgressBoard"))
            sb_puts(&text, "d2l.ProgressBoard(xlabel=None, ylabel=None, xlim=None, ylim=None, xscale='linear', "
                           "yscale='linear', ls=['-', '--', '-.', ':'], colors=['C0', 'C1', 'C2', 'C3'], "
                           "figsize=(3.5, 2.5), display=True) plots points in animation (§3.2): board.draw(x, y, "
                           "label, every_n=1) adds (x, y) to the line `label` and, every every_n points, draws their "
                           "mean. The board is one figure, redrawn as it grows (in a window, or in place in the "
                           "terminal, at most 10 times a second) and drawn in its last state after the statement; "
                           "board.data holds the lines. Every d2l.Module has one: model.board.\n");
        else if (!strcmp(v->u.cls->name, "HyperParameters"))
            sb_puts(&text, "The book's base class of hyperparameters (§3.2): self.save_hyperparameters() inside "
                           "__init__ makes each argument an attribute (self.lr ...) and records them in self.hparams. "
                           "d2l.Module, d2l.DataModule, d2l.Trainer and d2l.ProgressBoard have it.\n");
        else if (!strcmp(v->u.cls->name, "Dataset"))
            sb_puts(&text, "The base class of a map-style dataset (torch.utils.data.Dataset): a subclass defines "
                           "__getitem__(self, i) (sample i) and __len__(self) (how many); data.DataLoader(ds, batch_size) "
                           "reads and collates its samples into minibatches.\n");
        else if (!strcmp(v->u.cls->name, "Size"))
            sb_puts(&text, "A tensor's shape (X.shape): a tuple of ints that prints as torch.Size([2, 3]).\n");
        else r = -1;
        break;
    default: r = -1;
    }
    if (text.len) {         /* the name as typed, then what it is */
        sb_printf(out, "%s%s\n", v->kind == V_CLASS ? "class " : "", name);
        tw_wrap(out, sb_str(&text), 79, "  ");
    }
    sb_free(&text);
    sb_free(&rep);
    val_decref(v);
    return r;
}

/* Appends the help text for one name (a function, a Tensor method or attribute, a name of a module); false when
 * unknown. */
bool help_for(Interp *I, StrBuf *out, const char *name) {
    const char *dot = strrchr(name, '.');
    if (dot && dot > name && dot[1]) {
        int r = help_dotted(I, out, name, dot);
        if (r >= 0) return r == 1;
    }
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
    put_builtin(I, out, b ? b : m, m, n);
    return true;
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A growing array of names (owned strings). */
typedef struct Names { char **s; int n, cap; } Names;

static void names_add(Names *l, const char *prefix, const char *name) {
    if (l->n == l->cap) l->s = xrealloc(l->s, (size_t)(l->cap = l->cap ? 2 * l->cap : 64) * sizeof *l->s);
    StrBuf q;
    sb_init(&q);
    sb_printf(&q, "%s%s", prefix, name);
    l->s[l->n++] = sb_take(&q);
}

/* Lays out the names, sorted, each once, in columns of `width` within 80 columns (a longer name takes as many
 * columns as it needs; no line ends in spaces), and frees them. */
static void put_columns(StrBuf *out, Names *l, int width) {
    if (!l->n) { free(l->s); *l = (Names){0}; return; }
    qsort(l->s, (size_t)l->n, sizeof *l->s, by_string);
    int k = 0;
    for (int i = 0; i < l->n; i++) {
        if (k && !strcmp(l->s[i], l->s[k - 1])) free(l->s[i]);
        else l->s[k++] = l->s[i];
    }
    l->n = k;
    int used = 0;
    for (int i = 0; i < l->n; i++) {
        int len = 2 + tw_width(l->s[i]), cells = (len + width - 1) / width;
        if (used && used + cells * width > 80) {
            while (out->len && out->s[out->len - 1] == ' ') out->s[--out->len] = 0;
            sb_putc(out, '\n');
            used = 0;
        }
        sb_printf(out, "  %s", l->s[i]);
        sb_pad(out, ' ', cells * width - len);
        used += cells * width;
        free(l->s[i]);
    }
    while (out->len && out->s[out->len - 1] == ' ') out->s[--out->len] = 0;
    if (used) sb_putc(out, '\n');
    free(l->s);
    *l = (Names){0};
}

/* Whether a builtin's section is one of the chapter's (§11.x): "§11" is four bytes, and §1 alone would take §12. */
static bool in_chapter(const Builtin *b) {
    static const char ch[] = "§11";
    return b->section && !strncmp(b->section, ch, sizeof ch - 1) &&
           (b->section[sizeof ch - 1] == '.' || b->section[sizeof ch - 1] == '\0');
}

/* The chapter's functions (chapter) as the student types them (d2l.masked_softmax, complexity), in columns. */
static void list_chapter(StrBuf *out, const Builtin *const *all, int n) {
    Names l = {0};
    for (int i = 0; i < n; i++) {
        if (!in_chapter(all[i]) || all[i]->name[0] == '_') continue;
        char home[64];
        builtins_home(all[i], home, sizeof home);
        if (*home) strcat(home, ".");
        names_add(&l, home, all[i]->name);
    }
    put_columns(out, &l, 26);
}

/* Every public name of x (what dir(x) lists), typed with `prefix` (torch., X.), in columns. */
typedef struct { Names l; const char *prefix; } Prefixed;
static void add_name(void *ctx, const char *name) {
    Prefixed *p = ctx;
    if (name[0] != '_') names_add(&p->l, p->prefix, name);
}
static void list_attrs(I18nLang lang, StrBuf *out, const Value *x, const char *prefix) {
    Prefixed p = {{0}, prefix};
    ops_attr_names(NULL, x, false, add_name, &p);      /* help runs no student code */
    if (!p.l.n) sb_puts(out, TR(lang, "  (none of its names is in attn)\n"));     /* random: the module, without functions */
    put_columns(out, &p.l, 20);
}

/* Python's own functions and exception classes: the bare names that are neither the chapter's nor attn's tools. */
static void list_python(StrBuf *out) {
    int n;
    const Builtin *const *all = builtins_all(&n);
    ValHeap *heap = val_heap_new();   /* help's own values, made only to be looked at */
    Value *tools = builtins_import(heap, "attn");
    Names l = {0};
    for (int i = 0; i < n; i++) {
        if (!builtins_is_bare(all[i]) || all[i]->name[0] == '_' || builtins_is_decorator(all[i])) continue;
        if (in_chapter(all[i])) continue;
        Value *t = tools ? builtins_module_attr(heap, tools->u.module, all[i]->name) : NULL;
        if (t) { val_decref(t); continue; }
        names_add(&l, "", all[i]->name);
    }
    val_decref(tools);
    val_heap_free(heap);
    put_columns(out, &l, 20);
}

/* help training: where the pieces of a training loop are, as PyTorch and the book (§3.2) name them. */
static void put_training(I18nLang lang, StrBuf *out) {
    sb_puts(out, TR(lang, "Training, as PyTorch and the book write it (help NAME explains one):\n"
                    "  autograd    torch.tensor(..., requires_grad=True), loss.backward(), X.grad,\n"
                    "              torch.no_grad(), X.detach(), torch.autograd.grad\n"
                    "  models      nn.Module with nn.Parameter and layers (help nn): parameters()\n"
                    "              require grad; model.train() and model.eval() switch dropout\n"
                    "  losses      F.cross_entropy, F.mse_loss, nn.CrossEntropyLoss, nn.MSELoss\n"
                    "  optimizers  torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW; a step is\n"
                    "              loss.backward(); opt.step(); opt.zero_grad()\n"
                    "  data        torch.utils.data.TensorDataset, torch.utils.data.DataLoader\n"
                    "  the book    d2l.Module, d2l.DataModule, d2l.Trainer (fit), and\n"
                    "              d2l.ProgressBoard, whose curves are drawn as the model learns\n"
                    "  lesson 7    trains a self-attention model with and without positions\n"));
}

/* help torch, help nn, help(F), help(X) ...: what a module or a tensor offers. The word as typed, or the module's
 * Python name (help(torch.nn) gives "torch.nn"). False for any other word. */
static bool help_topic(I18nLang lang, StrBuf *out, const char *word) {
    static const struct { const char *word, *module, *prefix, *shown; } topics[] = {
        {"torch", "torch", "torch.", "torch"}, {"nn", "torch.nn", "nn.", "torch.nn (nn)"},
        {"torch.nn", "torch.nn", "nn.", "torch.nn (nn)"}, {"F", "torch.nn.functional", "F.", "torch.nn.functional (F)"},
        {"torch.nn.functional", "torch.nn.functional", "F.", "torch.nn.functional (F)"},
        {"d2l", "d2l", "d2l.", "d2l"}, {"math", "math", "math.", "math"}, {"random", "random", "random.", "random"},
        {"collections", "collections", "collections.", "collections"},
        {"torch.nn.init", "torch.nn.init", "nn.init.", "torch.nn.init (nn.init)"},
        {"torch.utils", "torch.utils", "torch.utils.", "torch.utils"},
        {"torch.autograd", "torch.autograd", "torch.autograd.", "torch.autograd"},
        {"torch.optim", "torch.optim", "torch.optim.", "torch.optim"},
        {"torch.nn.utils", "torch.nn.utils", "torch.nn.utils.", "torch.nn.utils"},
        {"torch.utils.data", "torch.utils.data", "torch.utils.data.", "torch.utils.data (from torch.utils import data)"}};
    for (size_t i = 0; i < sizeof topics / sizeof *topics; i++) {
        if (strcmp(word, topics[i].word)) continue;
        sb_printf(out, TR(lang, "What %s offers, as you type it (help NAME explains one):\n"), topics[i].shown);
        ValHeap *heap = val_heap_new();   /* help's own values, made only to be looked at */
        Value *m = builtins_import(heap, topics[i].module);
        list_attrs(lang, out, m, topics[i].prefix);
        val_decref(m);
        val_heap_free(heap);
        if (!strcmp(topics[i].module, "d2l"))         /* after a blank line: the listing above is names only */
            sb_puts(out, TR(lang, "\nTraining (§3.2): d2l.Module, d2l.DataModule and d2l.Trainer train a model, and\n"
                            "d2l.ProgressBoard draws its curves as it learns; help training shows the rest.\n"));
        return true;
    }
    if (!strcmp(word, "training")) {
        put_training(lang, out);
        return true;
    }
    if (!strcmp(word, "attn")) {
        sb_puts(out, TR(lang, "attn's own tools, typed without a module (help NAME explains one):\n"));
        ValHeap *heap = val_heap_new();   /* help's own values, made only to be looked at */
        Value *m = builtins_import(heap, "attn");
        list_attrs(lang, out, m, "");
        val_decref(m);
        val_heap_free(heap);
        return true;
    }
    if (!strcmp(word, "python") || !strcmp(word, "builtins")) {
        sb_puts(out, TR(lang, "Python's built-in functions and exceptions (help NAME explains one):\n"));
        list_python(out);
        return true;
    }
    if (!strcmp(word, "Tensor") || !strcmp(word, "torch.Tensor") || !strcmp(word, "X")) {
        sb_puts(out, TR(lang, "What a tensor X offers (help X.NAME explains a method):\n"));
        Value x = {.kind = V_TENSOR};       /* the names depend on the kind alone: no tensor is made (none may fit) */
        list_attrs(lang, out, &x, "X.");
        return true;
    }
    return false;
}

/* The parameters of a student's def or lambda as Python's help shows them: (x, y=2, *args, **kw), defaults by
 * their repr. */
static void put_params(Interp *I, StrBuf *out, const UserFunc *f) {
    const Node *params = f->def->kids[0];
    sb_putc(out, '(');
    for (int i = 0; i < params->nkids; i++) {
        const Node *p = params->kids[i];
        if (i) sb_puts(out, ", ");
        if (p->kind == N_STAR) sb_printf(out, "*%s", p->str ? p->str : "");
        else if (p->kind == N_DSTAR) sb_printf(out, "**%s", p->str);
        else sb_puts(out, p->str);
        if (p->kind == N_KWARG && i < f->nparams && f->defaults && f->defaults[i]) {
            sb_putc(out, '=');
            val_repr_quiet(I, out, f->defaults[i]);
        }
    }
    sb_putc(out, ')');
}

/* A docstring, indented under its signature; nothing for None. */
/* A docstring as Python's help shows it (inspect.cleandoc): leading and trailing blank lines dropped, the common
 * indentation of the lines after the first removed; each line under `indent`, as written. */
static void put_doc(StrBuf *out, const Value *doc, const char *indent) {
    if (!doc || doc->kind != V_STR) return;
    const char *s = doc->u.str.s;
    size_t common = (size_t)-1;
    for (const char *p = strchr(s, '\n'); p; p = strchr(p + 1, '\n')) {     /* lines after the first */
        size_t sp = strspn(p + 1, " ");
        if (p[1 + sp] && p[1 + sp] != '\n' && sp < common) common = sp;
    }
    if (common == (size_t)-1) common = 0;
    StrBuf lines;
    sb_init(&lines);
    bool first = true;
    for (const char *p = s;; first = false) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        size_t skip = first ? strspn(p, " ") : (n < common ? n : common);
        if (skip > n) skip = n;
        if (n > skip) sb_puts(&lines, indent);          /* no spaces on an empty line */
        sb_putn(&lines, p + skip, n - skip);
        sb_putc(&lines, '\n');
        if (!e) break;
        p = e + 1;
    }
    /* blank lines at either end go */
    const char *b = sb_str(&lines);
    size_t len = lines.len;
    while (len && *b == '\n') { b++; len--; }
    while (len >= 2 && b[len - 1] == '\n' && b[len - 2] == '\n') len--;
    sb_putn(out, b, len);
    sb_free(&lines);
}

/* help(f) of a student's function: its signature and docstring. */
static void help_user_func(Interp *I, StrBuf *out, Value *fv) {
    const UserFunc *f = fv->u.func;
    StrBuf sig;
    sb_init(&sig);
    sb_puts(&sig, f->name);
    put_params(I, &sig, f);
    help_signature(out, sb_str(&sig), 79);
    sb_free(&sig);
    Value *doc = ops_getattr(I, fv, "__doc__");
    put_doc(out, doc, "  ");
    if (doc) val_decref(doc);
    else interp_clear_error(I);
}

/* help(C) of a student's class: its bases, docstring, how it is called and the methods it defines. */
static void help_user_class(Interp *I, StrBuf *out, const ClassInfo *c) {
    sb_printf(out, "class %s", c->name);
    for (int i = 0; i < c->nbases; i++) {
        const ClassInfo *b = c->bases[i]->u.cls;
        const char *home = !strncmp(b->module_name, "torch.nn", 8) ? "nn." : !strncmp(b->module_name, "d2l", 3) ? "d2l." : "";
        sb_printf(out, "%s%s%s%s", i ? ", " : "(", home, b->name, i + 1 == c->nbases ? ")" : "");
    }
    sb_putc(out, '\n');
    Value *doc = dict_get((Dict *)&c->attrs, "__doc__");
    put_doc(out, doc, "  ");
    /* the methods as the class has them now, held: a default's __repr__ (put_params) may change the class */
    int n = 0;
    Value **ms = xcalloc((size_t)(c->attrs.n ? c->attrs.n : 1), sizeof *ms);
    for (int i = 0; i < c->attrs.n; i++)
        if (c->attrs.vals[i]->kind == V_FUNC) ms[n++] = val_incref(c->attrs.vals[i]);
    if (n) sb_puts(out, TR(I->run.lang, "  Methods defined here:\n"));
    for (int i = 0; i < n; i++) {
        StrBuf sig;
        sb_init(&sig);
        sb_printf(&sig, "    %s", ms[i]->u.func->name);
        put_params(I, &sig, ms[i]->u.func);
        help_signature(out, sb_str(&sig), 79);
        sb_free(&sig);
        val_decref(ms[i]);
    }
    free(ms);
}

/* help(x) and `help NAME`: a module or topic, a student's function or class (or an object of one), a tensor, or
 * one of attn's functions by name. False when there is nothing to say. */
bool help_value(Interp *I, StrBuf *out, Value *v) {
    switch (v->kind) {
    case V_STR:
        if (!v->u.str.len) { help_overview(I->run.lang, out); return true; }
        return help_topic(I->run.lang, out, v->u.str.s) || help_for(I, out, v->u.str.s);
    case V_DTYPE: {
        StrBuf r;
        sb_init(&r);
        val_repr_quiet(I, &r, v);
        bool ok = help_for(I, out, sb_str(&r));
        sb_free(&r);
        return ok;
    }
    case V_MODULE: return help_topic(I->run.lang, out, v->u.module);
    case V_TENSOR: return help_topic(I->run.lang, out, "Tensor");
    case V_FUNC: help_user_func(I, out, v); return true;
    case V_CLASS:
        if (!v->u.cls->methods && v->u.cls->user) { help_user_class(I, out, v->u.cls); return true; }
        if (v->u.cls->methods && v->u.cls->module_name) {          /* attn's d2l.Trainer, nn.Module ...: as typed */
            const char *m = v->u.cls->module_name;
            char dotted[160];
            snprintf(dotted, sizeof dotted, "%s.%s", !strncmp(m, "d2l", 3) ? "d2l" : !strncmp(m, "torch.nn", 8) ? "nn" :
                                                     !strncmp(m, "torch.utils.data", 16) ? "torch.utils.data" : m, v->u.cls->name);
            if (help_for(I, out, dotted)) return true;
        }
        return help_topic(I->run.lang, out, v->u.cls->name) || help_for(I, out, v->u.cls->name);
    case V_OBJECT:
        if (v->u.obj.klass) { help_user_class(I, out, v->u.obj.klass->u.cls); return true; }
        return help_for(I, out, v->u.obj.cls->name);
    case V_METHOD:
        if (v->u.method.func) { help_user_func(I, out, v->u.method.func); return true; }
        if (v->u.method.fn && v->u.method.fn->help && v->u.method.self &&
            (v->u.method.self->kind == V_LIST || v->u.method.self->kind == V_DICT || v->u.method.self->kind == V_SET ||
             v->u.method.self->kind == V_STR || v->u.method.self->kind == V_TUPLE)) {
            /* a method of a Python value ({1}.add, [].append, "".join): its own line, not a torch function's namesake */
            sb_printf(out, "%s\n  %s\n", v->u.method.fn->signature, v->u.method.fn->help);
            return true;
        }
        if (!v->u.method.fn) return false;      /* a tensor's or a module's method: the function it is */
        if (v->u.method.self && v->u.method.self->kind == V_TENSOR) {
            const Builtin *m = tensor_method(v->u.method.fn->name);
            put_builtin(I, out, m ? m : v->u.method.fn, m, v->u.method.fn->name);
        } else put_builtin(I, out, v->u.method.fn, NULL, v->u.method.fn->name);
        return true;
    case V_TUPLE:
        return v->u.seq.is_size && help_for(I, out, "torch.Size");
    case V_BUILTIN:         /* the function itself: help(math.sqrt) is Python's, help(d2l.reduce_sum) d2l's alias */
        put_builtin(I, out, v->u.builtin, builtins_find_method(v->u.builtin->name), v->u.builtin->name);
        return true;
    default: return false;
    }
}

void help_overview(I18nLang lang, StrBuf *out) {
    int n;
    const Builtin *const *all = builtins_all(&n);
    sb_puts(out,
            TR(lang, "attn: type Python/PyTorch lines as in the book. As in PyTorch, a function is\n"
            "called through its module: torch.zeros, nn.Linear, d2l.masked_softmax.\n"
            "  help NAME      explains one function, e.g. help masked_softmax\n"
            "  lesson         lists the lessons; lesson N starts one\n"
            "  Ctrl-D or quit() leaves; history and tab completion are on at a terminal.\n\n"
            "From the chapter (d2l §11.3, §11.5, §11.6):\n"));
    list_chapter(out, all, n);
    sb_puts(out, TR(lang, "\nMore, by module: help torch, help nn, help F (torch.nn.functional), help d2l,\n"
                    "help math, help python (print, len ... and exceptions), help attn (its tools),\n"
                    "help Tensor (what a tensor X offers), help training; dir() lists your names.\n"));
}

static Value *bi_help(Interp *I, Args *a) {
    StrBuf b;
    sb_init(&b);
    Value *v = arg(a, 0, NULL);
    if (!v) help_overview(I->run.lang, &b);
    else if (!help_value(I, &b, v)) {
        sb_free(&b);
        const char *name = v->kind == V_STR ? v->u.str.s : v->kind == V_BUILTIN ? v->u.builtin->name : NULL;
        return rt_error(I, "no help for %s: type help to list everything", name ? name : val_type_name(v));
    }
    interp_write(I, sb_str(&b));
    sb_free(&b);
    return val_none();
}

static Value *bi_quit(Interp *I, Args *a) {
    return rt_quit(I);
}

const Builtin bi_help_table[] = {
    {"help", bi_help, "help(x)", "Explains a function, a module (help(torch) lists it), a tensor, or a def or class of yours; help() shows the chapter's functions and where the rest are listed.", "", 0, ""},
    {"quit", bi_quit, "quit()", "Leaves attn (Ctrl-D does too).", "", 0, ""},
    {"exit", bi_quit, "exit()", "Leaves attn.", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

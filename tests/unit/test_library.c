/* test_library.c - the language runs with whatever library opens itself into it (library.h): here a stub library of
 * one function, twice(x), and one refused name, opened instead of attn's builtins. The language finds, calls,
 * suggests and refuses names only through the record it was handed (issue 28: libraries open themselves, as Lua's
 * linit.c; the language core names no library). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interp.h"
#include "library.h"

static int before_calls;         /* how many calls went through the library's before_call */

static Value *bi_twice(Interp *I, Args *a) {
    if (a->npos != 1 || a->pos[0]->kind != V_INT) return rt_error(I, "twice(x) takes one int");
    return val_int(I->run.heap, 2 * a->pos[0]->u.i);
}

static const Builtin stub_fns[] = {{"twice", bi_twice, "twice(x)", "2 x.", "", 0, ""}, {NULL, NULL, NULL, NULL, NULL, 0, NULL}};
static const Builtin *const stub_sorted[] = {&stub_fns[0]};

static const Builtin *find(const char *name) { return !strcmp(name, "twice") ? &stub_fns[0] : NULL; }
static const Builtin *no_builtin(const char *name) { (void)name; return NULL; }
static const Builtin *const *all(int *n) { *n = 1; return stub_sorted; }
static const Builtin *const *no_methods(int *n) { *n = 0; return stub_sorted; }
static bool is_bare(const Builtin *b) { (void)b; return true; }
static void home(const Builtin *b, char *out, size_t n) { (void)b; if (n) out[0] = 0; }
static Value *no_value(ValHeap *heap, const char *name) { (void)heap; (void)name; return NULL; }
static Value *no_attr(ValHeap *heap, const char *module, const char *name) { (void)heap; (void)module; (void)name; return NULL; }
static void no_names(const char *module, void (*add)(void *, const char *), void *ctx) {
    (void)module;
    (void)add;
    (void)ctx;
}
static const char *no_missing(const char *module, const char *name, char *msg, size_t cap) { (void)module; (void)name; (void)msg; (void)cap; return NULL; }
static const char *refused(const char *name) { return !strcmp(name, "open") ? "the stub opens no files" : NULL; }
static void no_module(const char *path, char *out, size_t n) { snprintf(out, n, "the stub has no module %s", path); }
static bool before_call(Interp *I, Args *a) { (void)I; (void)a; before_calls++; return true; }
static Value *after_call(Interp *I, Args *a, Value *self, Value *r) { (void)I; (void)a; (void)self; return r; }
static Value *no_tensor_attr(Interp *I, Value *x, const char *name) { (void)I; (void)x; (void)name; return NULL; }
static int no_tensor_setattr(Interp *I, Value *x, const char *name, Value *v) { (void)I; (void)x; (void)name; (void)v; return 1; }
static Value *no_class(const Value *v) { (void)v; return NULL; }
static Value *no_type_of(ValHeap *heap, const Value *v) { (void)heap; (void)v; return NULL; }
static bool no_type(const Builtin *b, const char **module) { (void)b; (void)module; return false; }
static const Builtin *no_type_method(const Builtin *t, const char *name) { (void)t; (void)name; return NULL; }
static bool unbound_ok(Interp *I, const Builtin *m, const Args *a) { (void)I; (void)m; (void)a; return true; }
static bool no_change(const Builtin *m) { (void)m; return false; }
static const char *const no_aliases[] = {NULL};
static const Builtin no_table[] = {{NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const Library stub = {
    .find = find, .find_method = no_builtin, .all = all, .all_methods = no_methods, .tensor_method_aliases = no_aliases,
    .is_bare = is_bare, .home = home, .constant = no_value, .import = no_value, .no_module = no_module,
    .module_attr = no_attr, .module_names = no_names, .missing = no_missing, .refused = refused,
    .before_call = before_call, .after_call = after_call, .tensor_attr = no_tensor_attr, .tensor_setattr = no_tensor_setattr,
    .value_class = no_class, .type_module = no_type, .type_of = no_type_of, .type_method = no_type_method,
    .unbound_ok = unbound_ok, .set_method_changes = no_change, .str_methods = no_table, .list_methods = no_table,
    .dict_methods = no_table, .set_methods = no_table, .view_methods = no_table, .module_methods = no_table, .dict_fromkeys = &no_table[0]};

/* What running src printed, or "ERR: " and the error's message. Caller frees. */
static char *run(Interp *I, const char *src) {
    StrBuf out;
    sb_init(&out);
    OutputSink cap;
    interp_push_sink(I, &cap, SINK_CAPTURE, &out);
    if (interp_run(I, src, NULL, 1) < 0) { sb_puts(&out, "ERR: "); sb_puts(&out, interp_error_msg(I)); }
    interp_pop_sink(I, &cap);
    return sb_take(&out);
}

#define ASSERT_RUN(I, src, want) do { char *s_ = run(I, src); assert_string_equal(s_, want); free(s_); } while (0)

static void test_stub_library(void **state) {
    (void)state;
    Interp I;
    interp_init(&I);
    ASSERT_RUN(&I, "twice(21)", "42\n");                               /* found, checked, called through the record */
    assert_int_equal(before_calls, 1);
    ASSERT_RUN(&I, "twice", "<built-in function twice>\n");            /* not a type: the library said so */
    ASSERT_RUN(&I, "twyce(2)", "ERR: name 'twyce' is not defined (did you mean 'twice'?)");
    ASSERT_RUN(&I, "open('x')", "ERR: open() is not available in attn: the stub opens no files");
    ASSERT_RUN(&I, "print(1)", "ERR: name 'print' is not defined");    /* attn's builtins are not there */
    ASSERT_RUN(&I, "import torch", "ERR: the stub has no module torch");
    ASSERT_RUN(&I, "def f(x): return twice(x) + 1\nf(4)", "9\n");
    assert_int_equal(before_calls, 2);
    interp_free(&I);
}

int main(void) {
    lib_open(&stub);             /* instead of builtins_open: the language takes whatever opens first */
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_stub_library)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

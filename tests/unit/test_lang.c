/* test_lang.c - the parser (complete/incomplete input, error positions), Python formatting, and evaluation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "interp.h"
#include "parser.h"
#include "pyformat.h"
#include "builtins.h"
#include "session.h"
#include "help.h"
#include "i18n.h"
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>


static void test_incomplete_input(void **state) {
    (void)state;
    const char *incomplete[] = {"for i in range(3):", "x = (1,", "f(a,\n  b", "s = '''abc", "if x:\n    y\nelse:", "x = [1, 2 \\"};
    for (size_t i = 0; i < sizeof incomplete / sizeof *incomplete; i++) {
        ParseResult r = parse_program(incomplete[i], 1);
        assert_null(r.tree);
        if (!r.incomplete) fail_msg("should be incomplete: %s", incomplete[i]);
    }
    const char *complete[] = {"x = 1", "for i in range(3): print(i)", "P[:, :, 0::2] = torch.sin(X)", "a, b = 1, 2",
                              "f'{i:>03b}'", "[x for x in y if x]", "def f(a, b=2):\n    return a * b"};
    for (size_t i = 0; i < sizeof complete / sizeof *complete; i++) {
        ParseResult r = parse_program(complete[i], 1);
        if (!r.tree) fail_msg("should parse: %s (%s)", complete[i], r.msg);
        ast_free(r.tree);
    }
}

static void test_syntax_error_position(void **state) {
    (void)state;
    ParseResult r = parse_program("x = 1 +", 1);
    assert_null(r.tree);
    assert_false(r.incomplete);
    assert_int_equal(r.line, 1);
    assert_int_equal(r.col, 8);
    r = parse_program("a = 1\nb = (2 ]", 1);
    assert_null(r.tree);
    assert_int_equal(r.line, 2);
    r = parse_program("f(x) = 3", 1);
    assert_null(r.tree);
    assert_non_null(strstr(r.msg, "cannot assign to a function call"));
    /* found by fuzzing: the message named the module after its node was freed */
    r = parse_program("from e x", 1);
    assert_null(r.tree);
    assert_string_equal(r.msg, "'import' expected after 'from e'");
    /* nesting deeper than the limit is an error, not a stack overflow */
    char deep[2000];
    memset(deep, '(', 1000);
    memset(deep + 1000, ')', 999);
    deep[1999] = 0;
    r = parse_program(deep, 1);
    assert_null(r.tree);
}

static char *fmt(const char *spec, Value *v) {
    Interp I;
    interp_init(&I);
    StrBuf b;
    sb_init(&b);
    bool ok = pyfmt_format(&I, &b, v, spec);
    val_decref(v);
    interp_free(&I);
    if (!ok) { sb_free(&b); return NULL; }
    return sb_take(&b);
}

#define ASSERT_FMT(spec, val, want) do { char *s_ = fmt(spec, val); assert_non_null(s_); assert_string_equal(s_, want); free(s_); } while (0)

/* Python's format mini-language, results worked out from docs.python.org/3/library/string.html */
static void test_format_spec(void **state) {
    (void)state;
    ValHeap *heap = val_heap_new();     /* values made here, freed by fmt's interpreter: back into this heap */
    ASSERT_FMT(">03b", val_int(heap, 1), "001");
    ASSERT_FMT(">03b", val_int(heap, 5), "101");
    ASSERT_FMT("08.3f", val_float(heap, -3.14159), "-003.142");
    ASSERT_FMT(",", val_int(heap, 1234567), "1,234,567");
    ASSERT_FMT("^7", val_str(heap, "ab"), "  ab   ");
    ASSERT_FMT("#x", val_int(heap, 255), "0xff");
    ASSERT_FMT(".2e", val_float(heap, 12345.678), "1.23e+04");
    ASSERT_FMT(".1%", val_float(heap, 0.125), "12.5%");
    ASSERT_FMT("", val_float(heap, 0.1), "0.1");
    ASSERT_FMT(".3g", val_float(heap, 0.0001234), "0.000123");
    char *bad = fmt("q", val_int(heap, 1));
    assert_null(bad);
    val_heap_free(heap);
}

static void test_float_repr(void **state) {
    (void)state;
    double v[] = {0.1, 1e-06, 1e16, 123.0, 0.30000000000000004, -2.5, 1e22, 5e-324};
    const char *want[] = {"0.1", "1e-06", "1e+16", "123.0", "0.30000000000000004", "-2.5", "1e+22", "5e-324"};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        StrBuf b;
        sb_init(&b);
        val_float_repr(&b, v[i]);
        assert_string_equal(sb_str(&b), want[i]);
        sb_free(&b);
    }
}

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

static void test_eval(void **state) {
    (void)state;
    Interp I;
    interp_init(&I);
    ASSERT_RUN(&I, "a, b = 1, 2\na + b", "3\n");
    ASSERT_RUN(&I, "[i for i in range(3)]", "[0, 1, 2]\n");
    ASSERT_RUN(&I, "i", "ERR: name 'i' is not defined");          /* comprehension variables do not leak */
    ASSERT_RUN(&I, "for i in range(3): pass\ni", "2\n");           /* loop variables do */
    ASSERT_RUN(&I, "def f(n):\n    if n < 2:\n        return 1\n    return n * f(n - 1)\nf(10)", "3628800\n");
    ASSERT_RUN(&I, "def g(): return g()\ng()", "ERR: maximum recursion depth exceeded");
    ASSERT_RUN(&I, "a", "1\n");                                     /* defined before an error: kept */
    ASSERT_RUN(&I, "x = torch.zeros((2, 3)); x[0, 1] = 5; x.sum().item()", "5.0\n");
    ASSERT_RUN(&I, "y = x; y[1] = 1; x.sum().item()", "8.0\n");    /* names share one tensor, as in Python */
    ASSERT_RUN(&I, "print(*[1, 2], sep='-')", "1-2\n");
    ASSERT_RUN(&I, "2 ** 64", "ERR: integer overflow: attn's integers are 64-bit");
    ASSERT_RUN(&I, "del a\na", "ERR: name 'a' is not defined");
    /* found by fuzzing: string + string read past the left string */
    ASSERT_RUN(&I, "f'{1:>08.3f}' + '%5s|%-3d' % ('a', 2)", "'0001.000    a|2  '\n");
    ASSERT_RUN(&I, "'ab' + 'cde' + ''", "'abcde'\n");
    /* a new non-string key keeps an existing '' key (it once replaced it) */
    ASSERT_RUN(&I, "d = {'': 1, 'a': 2}; d[5] = 9; d[''] = 3; d", "{'': 3, 'a': 2, 5: 9}\n");
    interp_free(&I);
}

/* One error channel with a kind: quit() and Ctrl-C are not messages to compare (issue 12). */
static void test_error_kinds(void **state) {
    (void)state;
    Interp I;
    interp_init(&I);
    StrBuf out;
    sb_init(&out);
    assert_int_equal(interp_run(&I, "quit()", NULL, 1), -1);
    assert_int_equal(interp_error_kind(&I), ERR_QUIT);
    interp_format_error(&I, &out);
    assert_string_equal(sb_str(&out), "");                     /* leaving is not an error: nothing printed */
    assert_int_equal(interp_run(&I, "x = 1\n1 / 0", NULL, 1), -1);
    assert_int_equal(interp_error_kind(&I), ERR_ERROR);
    interp_format_error(&I, &out);
    assert_string_equal(sb_str(&out), "error: division by zero\n  1 / 0\n    ^\n");
    ten_interrupted = 1;                                        /* Ctrl-C pressed while a statement runs */
    assert_int_equal(interp_run(&I, "y = 2", NULL, 1), -1);
    ten_interrupted = 0;
    assert_int_equal(interp_error_kind(&I), ERR_INTERRUPT);
    sb_clear(&out);
    interp_format_error(&I, &out);
    assert_non_null(strstr(sb_str(&out), "interrupted (Ctrl-C)"));
    /* a kernel's interruption crosses the tensor boundary with its kind */
    ten_fail_interrupted(I.run.ten);
    rt_tensor_error(&I);     /* already pending: the first failure is kept */
    interp_clear_error(&I);
    ten_fail_interrupted(I.run.ten);
    rt_tensor_error(&I);
    assert_int_equal(interp_error_kind(&I), ERR_INTERRUPT);
    interp_clear_error(&I);
    /* quit() inside timeit still quits; an error inside it names timeit */
    assert_int_equal(interp_run(&I, "timeit('quit()')", NULL, 1), -1);
    assert_int_equal(interp_error_kind(&I), ERR_QUIT);
    assert_int_equal(interp_run(&I, "timeit('1/0')", NULL, 1), -1);
    assert_string_equal(interp_error_msg(&I), "timeit: the statement failed: division by zero");
    sb_free(&out);
    interp_free(&I);
}

/* A run nested in a statement (timeit) gives the caller back its call depth: 'return' after it still works. */
static void test_nested_run(void **state) {
    (void)state;
    Interp I;
    interp_init(&I);
    ASSERT_RUN(&I, "def f():\n    timeit('1', repeat=1, number=1)\n    return 5\nf()", "5\n");
    ASSERT_RUN(&I, "def g():\n    timeit('z = 3', repeat=1, number=1)\n    return z\ng()", "3\n");
    ASSERT_RUN(&I, "timeit('return 1')", "ERR: timeit: the statement failed: 'return' outside a function");
    /* timeit parses its statement once and runs that tree each time: what a def, class or lambda keeps is its
     * own copy, so each run defines a working function and the last one stays bound after the tree is freed */
    ASSERT_RUN(&I, "c = [0]\ntimeit('def h(a):\\n    c[0] += 1\\n    return a * 2\\nh(1)', repeat=3, number=4) > 0\nc[0], h(21)",
               "True\n(12, 42)\n");
    ASSERT_RUN(&I, "timeit('class K:\\n    v = 7\\n    def m(self):\\n        return self.v + 1\\nk = K()', repeat=2, number=2) > 0\n"
               "k.m(), K().m(), (lambda: timeit('sq = lambda t: t * t', repeat=1, number=2))() > 0, sq(9)",
               "True\n(8, 8, True, 81)\n");
    /* a syntax error is reported once, at its place in the statement, and nothing runs */
    ASSERT_RUN(&I, "c = [0]\ntimeit('c[0] += 1\\nx = (1 +')", "ERR: timeit: the statement failed: '(' was never closed");
    assert_int_equal(I.error.line, 2);
    assert_int_equal(I.error.col, 5);
    assert_string_equal(I.error.file, "<timeit>");
    ASSERT_RUN(&I, "c[0]", "0\n");
    /* a statement failing at run time stops at the first failure */
    ASSERT_RUN(&I, "timeit('c[0] += 1\\nc[0] / 0', number=5)", "ERR: timeit: the statement failed: division by zero");
    ASSERT_RUN(&I, "c[0]", "1\n");
    interp_free(&I);
}

/* Freeing is not recursive: a million nested lists go in constant stack (they overflowed it once). */
static void test_deep_free(void **state) {
    (void)state;
    ValHeap *heap = val_heap_new();
    Value *v = val_list(heap, 0);
    for (int i = 0; i < 1000000; i++) {
        Value *w = val_dict(heap);
        Value *k = val_str(heap, "a");
        dict_append(w->u.dict, k, v);
        v = val_list(heap, 0);
        val_list_append(v, w);
    }
    val_decref(v);
    assert_int_equal(val_live_bytes(heap), 0);
    val_heap_free(heap);
}

/* Two interpreters in one process keep their values apart (issue 28: a ValHeap per interpreter, as Lua's
 * global_State): what one makes counts in its own live bytes only (the memory limit's share), a cycle collected in
 * one leaves the other's garbage for the other's collection, and a value made in one and let go by the other's code
 * goes back to the heap it was made in, even after its interpreter is gone (the heap goes with its last value). */
static void test_two_heaps(void **state) {
    (void)state;
    Interp A, B;
    interp_init(&A);
    interp_init(&B);
    ASSERT_RUN(&A, "0", "0\n");
    ASSERT_RUN(&B, "0", "0\n");
    val_collect_cycles(A.run.heap);
    val_collect_cycles(B.run.heap);
    int64_t a0 = val_live_bytes(A.run.heap), b0 = val_live_bytes(B.run.heap);
    ASSERT_RUN(&A, "big = [str(i) for i in range(10000)]", "");
    int64_t grown = val_live_bytes(A.run.heap) - a0;
    assert_true(grown >= 10000 * 2 * 32);               /* a str value and its text each: 32 bytes at least */
    assert_int_equal(val_live_bytes(B.run.heap), b0);   /* B made nothing */
    ASSERT_RUN(&A, "x = []\nx.append(x)\ndel x", "");
    ASSERT_RUN(&B, "y = [[]]\ny[0].append(y)\ndel y", "");
    assert_int_equal(val_collect_cycles(A.run.heap), 1);   /* A's one list, not B's two */
    assert_int_equal(val_collect_cycles(B.run.heap), 2);   /* still there for B's own collection */
    assert_int_equal(val_collect_cycles(A.run.heap), 0);
    /* A's list moves to B, A lets go of it: it stays in A's bytes while B holds it, and goes back to A when B's
     * code deletes it */
    dict_set(&B.globals, "moved", val_incref(interp_lookup(&A, "big")));
    ASSERT_RUN(&A, "del big", "");
    assert_true(val_live_bytes(A.run.heap) - a0 >= grown * 9 / 10);   /* B holds it: still A's */
    int64_t b1 = val_live_bytes(B.run.heap);
    ASSERT_RUN(&B, "del moved", "");
    assert_true(val_live_bytes(A.run.heap) - a0 < grown / 100);   /* back in A */
    assert_true(val_live_bytes(B.run.heap) <= b1);                /* B never counted it */
    /* the same after A is gone: A's heap lives on with the value B holds, and goes with it (LSan checks) */
    ASSERT_RUN(&A, "kept = [[1, 2], {'a': (3,)}]", "");
    dict_set(&B.globals, "kept", val_incref(interp_lookup(&A, "kept")));
    interp_free(&A);
    ASSERT_RUN(&B, "kept", "[[1, 2], {'a': (3,)}]\n");
    ASSERT_RUN(&B, "del kept", "");
    interp_free(&B);
}

/* Reference cycles are freed by the collector; what is still named is not. */
static void test_cycles_collected(void **state) {
    (void)state;
    Interp I;
    interp_init(&I);
    val_collect_cycles(I.run.heap);
    ASSERT_RUN(&I, "a = []\nb = [a]\na.append(b)\ndel a, b", "");
    assert_int_equal(val_collect_cycles(I.run.heap), 2);
    ASSERT_RUN(&I, "def outer():\n    def f(n):\n        return 0 if n == 0 else f(n - 1)\n    return f(3)\nouter()", "0\n");
    assert_true(val_collect_cycles(I.run.heap) >= 2);          /* the call's variables and the nested def holding them */
    ASSERT_RUN(&I, "keep = []\nkeep.append(keep)\nd = {}\nd['d'] = d", "");
    assert_int_equal(val_collect_cycles(I.run.heap), 0);       /* still named: alive */
    ASSERT_RUN(&I, "keep, d", "([[...]], {'d': {...}})\n");
    ASSERT_RUN(&I, "del keep\n0", "0\n");               /* (the echoed tuple held keep until now) */
    assert_int_equal(val_collect_cycles(I.run.heap), 1);
    interp_free(&I);                                    /* collects d with its heap (LSan in the sanitizer build) */
}

/* Two interpreters in one process keep their own tensor context (RunContext.ten, issue 28): torch.set_default_dtype
 * in one leaves the other's float32 (PyTorch's default, for a fresh process), and the dtype an interpreter set is
 * its own when it runs again after the other. */
static void test_interpreters_keep_tensor_state(void **state) {
    (void)state;
    Interp A, B;
    interp_init(&A);
    interp_init(&B);
    ASSERT_RUN(&A, "torch.set_default_dtype(torch.float64)", "");
    ASSERT_RUN(&B, "torch.tensor([1.5]).dtype", "torch.float32\n");
    ASSERT_RUN(&B, "torch.get_default_dtype()", "torch.float32\n");
    ASSERT_RUN(&A, "torch.tensor([1.5]).dtype", "torch.float64\n");
    ASSERT_RUN(&A, "(torch.arange(3) + 0.5).dtype", "torch.float64\n");
    ASSERT_RUN(&B, "(torch.arange(3) + 0.5).dtype", "torch.float32\n");
    ASSERT_RUN(&A, "torch.set_num_threads(1); torch.get_num_threads()", "1\n");
    ASSERT_RUN(&B, "torch.set_num_threads(2); torch.get_num_threads()", "2\n");
    ASSERT_RUN(&A, "torch.get_num_threads()", "1\n");
    /* a tensor made in A and freed while B runs gives its bytes back to A's count */
    ASSERT_RUN(&A, "x = torch.zeros(1000)", "");
    int64_t a_before = A.run.ten->live_bytes, b_before = B.run.ten->live_bytes;
    assert_true(a_before >= 4000);
    interp_free(&A);                        /* x goes with A's names, A's context with its last tensor */
    assert_int_equal(B.run.ten->live_bytes, b_before);
    ASSERT_RUN(&B, "torch.ones(2).sum().item()", "2.0\n");
    interp_free(&B);
}

/* One error record per session (issue 28): a tensor failure raised in one session's library is kept in that
 * session's context (I->run.ten), read there by rt_tensor_error, and never shows in another session's; a kernel
 * reports on its input's context, a builtin on its session's. */
static void test_tensor_errors_stay_in_their_session(void **state) {
    (void)state;
    Session A, B;
    session_init(&A, "none");
    session_init(&B, "none");
    char *s = run(&A.I, "x = torch.ones(2)\nx @ torch.ones(3)");
    assert_non_null(strstr(s, "shapes (2,) and (3,) cannot be multiplied"));
    free(s);
    assert_non_null(strstr(ten_error(A.I.run.ten), "cannot be multiplied"));
    assert_string_equal(ten_error(B.I.run.ten), "");
    s = run(&B.I, "torch.ones(2, 3) + torch.ones(4)");
    assert_non_null(strstr(s, "cannot be broadcast"));
    free(s);
    assert_non_null(strstr(ten_error(B.I.run.ten), "cannot be broadcast"));
    assert_non_null(strstr(ten_error(A.I.run.ten), "cannot be multiplied"));   /* A's is its own still */
    /* a kernel on A's tensor, called while B is current, fails in A's context */
    Value *x = interp_lookup(&A.I, "x");
    assert_non_null(x);
    int64_t three = 3;
    assert_null(ten_reshape(x->u.t, 1, &three));
    assert_non_null(strstr(ten_error(A.I.run.ten), "shape '[3]' is invalid for input of size 2"));
    assert_non_null(strstr(ten_error(B.I.run.ten), "cannot be broadcast"));
    ASSERT_RUN(&A.I, "x.sum().item()", "2.0\n");
    session_free(&B);
    session_free(&A);
}

/* Each session's tensor context is its own, whichever session is current or ran last (nothing is installed since
 * issue 28 step 2d): torch.set_default_dtype and torch.set_num_threads in a lesson's session are not the REPL's,
 * and the REPL's come back unchanged when the lesson is popped. */
static void test_sessions_keep_their_context(void **state) {
    (void)state;
    Session repl, lesson;
    session_init(&repl, "none");
    session_init(&lesson, "none");
    ASSERT_RUN(&repl.I, "torch.set_default_dtype(torch.float64)", "");
    ASSERT_RUN(&repl.I, "torch.set_num_threads(1)", "");
    assert_int_equal(lesson.I.run.ten->default_float, DT_F32);
    ASSERT_RUN(&lesson.I, "torch.set_num_threads(3)", "");
    ASSERT_RUN(&lesson.I, "torch.tensor(0.5).dtype", "torch.float32\n");
    ASSERT_RUN(&repl.I, "torch.get_num_threads()", "1\n");      /* the REPL's, while the lesson is current */
    ASSERT_RUN(&lesson.I, "torch.get_num_threads()", "3\n");
    assert_int_equal(repl.I.run.ten->threads, 1);
    assert_int_equal(lesson.I.run.ten->threads, 3);
    assert_int_equal(repl.I.run.ten->default_float, DT_F64);
    ASSERT_RUN(&repl.I, "torch.tensor(0.5).dtype", "torch.float64\n");
    ASSERT_RUN(&repl.I, "torch.get_num_threads()", "1\n");
    session_free(&lesson);
    session_free(&repl);
}

/* What a session adds to d2l's classes (@d2l.add_to_class, d2l.Module.flag = None) is that session's: a lesson started
 * at the REPL and ended leaves the REPL's methods on d2l.Module (before, its end dropped every session's), and drops
 * its own, an immortal value's (None) included, so the next session does not see them. */
static void test_sessions_keep_their_added_methods(void **state) {
    (void)state;
    Session repl, lesson;
    session_init(&repl, "none");
    session_init(&lesson, "none");
    ASSERT_RUN(&repl.I, "@d2l.add_to_class(d2l.Module)\ndef hi(self):\n    return 7\nm = d2l.Module()\nm.hi()", "7\n");
    ASSERT_RUN(&lesson.I, "@d2l.add_to_class(d2l.Trainer)\ndef mine(self):\n    return 1\nd2l.Module.flag = None", "");
    session_free(&lesson);
    ASSERT_RUN(&repl.I, "m.hi()", "7\n");
    char *s = run(&repl.I, "d2l.Trainer.mine");
    assert_non_null(strstr(s, "has no attribute 'mine'"));
    free(s);
    s = run(&repl.I, "d2l.Module.flag");
    assert_non_null(strstr(s, "has no attribute 'flag'"));
    free(s);
    session_free(&repl);
    Session next;
    session_init(&next, "none");
    s = run(&next.I, "d2l.Module().hi()");
    assert_non_null(strstr(s, "has no attribute 'hi'"));
    free(s);
    session_free(&next);
}

/* Each interpreter's additions to d2l's open classes are its own (Python: each interpreter imports its own d2l): while
 * a lesson (B) runs beside the REPL (A) in one process, B does not see what A added to d2l.Trainer or d2l.Module
 * (hasattr, getattr, dir, an instance's lookup, a subclass's, super(), a special method), B's own additions work
 * and A does not see them, and A keeps its own after B ends. Before, both read one shared class namespace. */
static void test_sessions_see_only_their_additions(void **state) {
    (void)state;
    Session a, b;
    session_init(&a, "none");
    session_init(&b, "none");
    ASSERT_RUN(&a.I, "@d2l.add_to_class(d2l.Trainer)\ndef fit_epoch(self):\n    return 'A'\nd2l.Trainer.flag = 1\n"
                     "@d2l.add_to_class(d2l.Module)\ndef __len__(self):\n    return 3\n"
                     "d2l.Trainer(max_epochs=1).fit_epoch(), hasattr(d2l.Trainer, 'flag')", "('A', True)\n");
    ASSERT_RUN(&b.I, "hasattr(d2l.Trainer, 'flag'), getattr(d2l.Trainer, 'flag', 0), 'flag' in dir(d2l.Trainer), "
                     "'flag' in dir(d2l.Trainer(max_epochs=1))", "(False, 0, False, False)\n");
    ASSERT_RUN(&b.I, "repr(d2l.Trainer.fit_epoch).startswith('<function fit_epoch')", "False\n");   /* d2l's own */
    ASSERT_RUN(&a.I, "repr(d2l.Trainer.fit_epoch).startswith('<function fit_epoch')", "True\n");
    ASSERT_RUN(&b.I, "class M(d2l.Module): pass\nhasattr(M(), '__len__')", "False\n");
    char *s = run(&b.I, "len(M())");
    assert_non_null(strstr(s, "has no len()"));
    free(s);
    ASSERT_RUN(&b.I, "@d2l.add_to_class(d2l.Trainer)\ndef fit_epoch(self):\n    return 'B'\nd2l.Trainer.flag = 2\n"
                     "d2l.Trainer(max_epochs=1).fit_epoch(), d2l.Trainer.flag", "('B', 2)\n");
    ASSERT_RUN(&a.I, "d2l.Trainer(max_epochs=1).fit_epoch(), d2l.Trainer.flag, 'flag' in dir(d2l.Trainer)", "('A', 1, True)\n");
    /* a subclass in A inherits A's additions: lookup, dir, super() and a special method */
    ASSERT_RUN(&a.I, "class T(d2l.Trainer):\n    def fit_epoch(self):\n        return 'T+' + super().fit_epoch()\n"
                     "class M(d2l.Module): pass\n"
                     "T(max_epochs=1).fit_epoch(), T.flag, 'flag' in dir(T), len(M())", "('T+A', 1, True, 3)\n");
    session_free(&b);
    ASSERT_RUN(&a.I, "d2l.Trainer(max_epochs=1).fit_epoch(), d2l.Trainer.flag, len(M())", "('A', 1, 3)\n");
    ASSERT_RUN(&a.I, "del d2l.Trainer.flag\nhasattr(d2l.Trainer, 'flag')", "False\n");   /* Python lets it go */
    session_free(&a);
}

/* Tensors print with their own interpreter's print options (issue 28: no "current session" in val_repr): A's
 * torch.set_printoptions shows in A's tensors while B is current, and not in B's; a bare Interp (no session) prints
 * with its own. Before, repr read the options of whichever session was pushed last. */
static void test_sessions_keep_their_print_options(void **state) {
    (void)state;
    Session A, B;
    session_init(&A, "none");
    session_init(&B, "none");
    ASSERT_RUN(&A.I, "torch.set_printoptions(precision=2)", "");
    ASSERT_RUN(&A.I, "torch.tensor([1.23456])", "tensor([1.23])\n");
    ASSERT_RUN(&B.I, "torch.tensor([1.23456])", "tensor([1.2346])\n");
    ASSERT_RUN(&B.I, "torch.set_printoptions(precision=1)", "");
    ASSERT_RUN(&A.I, "str(torch.tensor([1.23456], requires_grad=True))", "'tensor([1.23], requires_grad=True)'\n");
    Interp bare;
    interp_init(&bare);
    ASSERT_RUN(&bare, "torch.tensor([1.23456])", "tensor([1.2346])\n");
    interp_free(&bare);
    session_free(&B);
    session_free(&A);
}

/* Comparison depth is counted per interpreter (issue 28): comparing lists nested deeper than the limit is
 * RecursionError in each interpreter alike, leaves no count behind (the same comparison at a shallower depth then
 * works), and one interpreter's count does not stop another's comparison. */
static void test_comparison_depth_per_interpreter(void **state) {
    (void)state;
    Interp A, B;
    interp_init(&A);
    interp_init(&B);
    const char *deep = "a = []\nb = []\nfor _ in range(1200):\n    a = [a]\n    b = [b]\n";
    ASSERT_RUN(&A, deep, "");
    ASSERT_RUN(&B, deep, "");
    char *s = run(&A, "a == b");
    assert_non_null(strstr(s, "maximum recursion depth exceeded in comparison"));
    free(s);
    s = run(&A, "a < b");
    assert_non_null(strstr(s, "maximum recursion depth exceeded in comparison"));
    free(s);
    assert_int_equal(A.eq_level, 0);
    assert_int_equal(A.depth, 0);
    A.eq_level = 990;                       /* A in the middle of a deep comparison: B's count is its own */
    ASSERT_RUN(&B, "[[[[[[[[[[[1]]]]]]]]]]] == [[[[[[[[[[[1]]]]]]]]]]]", "True\n");
    s = run(&A, "[[[[[[[[[[[1]]]]]]]]]]] == [[[[[[[[[[[1]]]]]]]]]]]");
    assert_non_null(strstr(s, "maximum recursion depth exceeded in comparison"));
    free(s);
    A.eq_level = 0;
    ASSERT_RUN(&A, "[[[[[[[[[[[1]]]]]]]]]]] == [[[[[[[[[[[1]]]]]]]]]]]", "True\n");
    ASSERT_RUN(&B, "[[[[[[[[[[[1]]]]]]]]]]] < [[[[[[[[[[[2]]]]]]]]]]]", "True\n");
    interp_free(&A);
    interp_free(&B);
}

/* session_feed's sources capture into one buffer (a transcript's step, as tr_run's before hook gives one). */
static StrBuf feed_out;
static StrBuf *feed_into(SessionSource *src, Statement *st) {
    (void)src;
    (void)st;
    return &feed_out;
}

/* Each session speaks its own language (issue 28: no process-wide language): a Japanese and a Chinese session in
 * one process, run in turn, each print help() in its own, and a third made later in English stays English. Before,
 * the language was one global (i18n_set), so whichever session set it last spoke for all of them, and a transcript
 * or a notebook cell switched it by hand and back. */
static void test_sessions_keep_their_language(void **state) {
    (void)state;
    StrBuf want[I18N_NLANGS];
    for (int l = 0; l < I18N_NLANGS; l++) { sb_init(&want[l]); help_overview((I18nLang)l, &want[l]); }
    assert_string_not_equal(sb_str(&want[I18N_JA]), sb_str(&want[I18N_EN]));
    assert_string_not_equal(sb_str(&want[I18N_ZH]), sb_str(&want[I18N_JA]));
    assert_non_null(strstr(sb_str(&want[I18N_JA]), "attn"));
    Session A, B, C;
    session_init(&A, "none");
    session_init(&B, "none");
    session_set_lang(&A, I18N_JA);
    session_set_lang(&B, I18N_ZH);
    for (int round = 0; round < 2; round++) {
        ASSERT_RUN(&A.I, "help()", sb_str(&want[I18N_JA]));
        ASSERT_RUN(&B.I, "help()", sb_str(&want[I18N_ZH]));
    }
    SessionConfig en = {.lang = I18N_EN, .allow_write = NULL};
    session_init(&C, "none");
    session_configure(&C, &en);
    ASSERT_RUN(&C.I, "help()", sb_str(&want[I18N_EN]));
    ASSERT_RUN(&A.I, "help()", sb_str(&want[I18N_JA]));
    assert_int_equal(A.I.run.plot.lang, I18N_JA);          /* its figures' CJK font follows it */
    assert_int_equal(B.I.run.plot.lang, I18N_ZH);
    session_free(&C);
    session_free(&B);
    session_free(&A);
    for (int l = 0; l < I18N_NLANGS; l++) sb_free(&want[l]);
}

/* The --allow-write folder is each session's (FilePolicy.allowed, issue 28): two lessons' sessions in one process
 * given different folders each write into their own and are refused the other's, the message naming its own.
 * Before, file_allow_dir set one global folder for every session: the second replaced the first. */
static void test_sessions_keep_their_write_folder(void **state) {
    (void)state;
    char root[] = "/tmp/attn-policy-XXXXXX";
    assert_non_null(mkdtemp(root));
    char da[300], db[300], lesson[300], cmd[1200];
    snprintf(da, sizeof da, "%s/a", root);
    snprintf(db, sizeof db, "%s/b", root);
    snprintf(lesson, sizeof lesson, "%s/lesson/x.md", root);
    assert_int_equal(mkdir(da, 0700), 0);
    assert_int_equal(mkdir(db, 0700), 0);
    Session A, B;
    SessionConfig ca = {.lang = I18N_EN, .allow_write = da}, cb = {.lang = I18N_EN, .allow_write = db};
    session_init(&A, "none");
    session_init(&B, "none");
    session_configure(&A, &ca);
    session_configure(&B, &cb);
    session_stranger(&A, "a lesson", lesson);      /* not there: its folder is the working directory */
    session_stranger(&B, "a lesson", lesson);
    snprintf(cmd, sizeof cmd, "save('%s/x.npy', torch.ones(1))", da);
    ASSERT_RUN(&A.I, cmd, "");
    char path[400];
    snprintf(path, sizeof path, "%s/x.npy", da);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(cmd, sizeof cmd, "save('%s/y.npy', torch.ones(1))", db);
    char *out = run(&A.I, cmd);
    char want[900];
    snprintf(want, sizeof want, "or into %s (--allow-write), not to %s/y.npy", da, db);
    if (!strstr(out, want)) fail_msg("A wrote into B's folder or said so wrongly: %s", out);
    free(out);
    ASSERT_RUN(&B.I, cmd, "");
    snprintf(path, sizeof path, "%s/y.npy", db);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(cmd, sizeof cmd, "save('%s/z.npy', torch.ones(1))", da);
    out = run(&B.I, cmd);
    snprintf(want, sizeof want, "or into %s (--allow-write), not to %s/z.npy", db, da);
    if (!strstr(out, want)) fail_msg("B wrote into A's folder or said so wrongly: %s", out);
    free(out);
    session_free(&B);
    session_free(&A);
    snprintf(path, sizeof path, "%s/x.npy", da);
    remove(path);
    snprintf(path, sizeof path, "%s/y.npy", db);
    remove(path);
    rmdir(da);
    rmdir(db);
    rmdir(root);
}

/* The one loop (session_feed): a list of statements goes on after an error (a transcript) and stops at quit(); a
 * script (a FILE, attn -c, a cell) runs nothing when a statement anywhere is a syntax error (the error is the one
 * thing run), else stops at its first failure, as Python runs a script. */
static void test_session_feed(void **state) {
    (void)state;
    Session S;
    session_init(&S, "none");
    sb_init(&feed_out);
    char *texts[] = {"x = 1", "x +", "x = x + 1", "print(x)", "quit()", "x = 100"};
    SessionSource src;
    session_source_texts(&src, texts, 6);
    src.before = feed_into;
    assert_int_equal(session_feed(&S, &src), 1);                 /* the syntax error; quit is no failure */
    assert_int_equal(src.last, RUN_QUIT);
    session_source_free(&src);
    assert_non_null(strstr(sb_str(&feed_out), "error: invalid syntax"));
    assert_non_null(strstr(sb_str(&feed_out), "\n2\n"));          /* print(x) after the error: x = x + 1 ran */
    ASSERT_RUN(&S.I, "x", "2\n");                                   /* nothing after quit() ran */

    sb_clear(&feed_out);
    LineReader r;
    reader_init_text(&r, "y = 1\ny = 2\ny +\nprint('never')\n");
    session_source_script(&src, &S, &r, "-c");
    src.before = feed_into;
    assert_int_equal(session_feed(&S, &src), 1);
    session_source_free(&src);
    reader_free(&r);
    assert_null(strstr(sb_str(&feed_out), "never"));
    ASSERT_RUN(&S.I, "y", "ERR: name 'y' is not defined");         /* compiled first: nothing ran */

    sb_clear(&feed_out);
    reader_init_text(&r, "z = 1\nz = undefined_q\nz = 3\n");
    session_source_script(&src, &S, &r, "-c");
    src.before = feed_into;
    assert_int_equal(session_feed(&S, &src), 1);
    assert_int_equal(src.last, RUN_ERROR);
    session_source_free(&src);
    reader_free(&r);
    assert_non_null(strstr(sb_str(&feed_out), "undefined_q"));
    ASSERT_RUN(&S.I, "z", "1\n");                                   /* stopped at the first failure */
    sb_free(&feed_out);
    session_free(&S);
}

/* include/interp.h's worked example, as it is written there (printf into a buffer instead of stdout) */
static void test_header_example(void **state) {
    (void)state;
    char shown[64];
    Session S;
    session_init(&S, "none");
    StrBuf out;
    sb_init(&out);
    OutputSink cap;
    interp_push_sink(&S.I, &cap, SINK_CAPTURE, &out);
    int rc = interp_run(&S.I, "X = torch.ones(2, 3)\nprint(X.sum())", "<c>", 1);
    interp_pop_sink(&S.I, &cap);
    if (rc < 0) {
        StrBuf e;
        sb_init(&e);
        interp_format_error(&S.I, &e);
        fputs(sb_str(&e), stderr);
        sb_free(&e);
        interp_clear_error(&S.I);
    }
    Value *X = interp_lookup(&S.I, "X");
    snprintf(shown, sizeof shown, "%s%lld\n", sb_str(&out), (long long)X->u.t->numel);
    assert_int_equal(rc, 0);
    assert_string_equal(shown, "tensor(6.)\n6\n");
    sb_free(&out);
    session_free(&S);
}

/* Every builtin declares its module (Builtin.module, issue 28): nothing parses it out of the signature any more, so
 * this checks the signature help prints still starts with module.name( (or name( for a bare one, or @ for a
 * decorator), for the function and method tables. */
static int check_signature_names(const Builtin *b) {
    char want[160];
    if (builtins_is_decorator(b) || !b->signature[0] || b->name[0] == '_') return 0;
    assert_non_null(b->module);
    snprintf(want, sizeof want, "%s%s%s(", b->module, b->module[0] ? "." : "", b->name);
    const char *sig = b->signature, *eq = strstr(sig, " = ");
    if (eq && eq < strchr(sig, '(')) sig = eq + 3;          /* "X = load("x.npy")": the call after the assignment */
    if (!strncmp(sig, want, strlen(want))) return 0;
    print_message("%s: signature \"%s\" does not start with \"%s\"\n", b->name, b->signature, want);
    return 1;
}

static void test_builtin_modules(void **state) {
    (void)state;
    int n, bad = 0;
    const Builtin *const *all = builtins_all(&n);
    for (int i = 0; i < n; i++) bad += check_signature_names(all[i]);
    all = builtins_all_methods(&n);
    for (int i = 0; i < n; i++) bad += check_signature_names(all[i]);
    const Builtin *const tables[] = {bi_str_methods, bi_list_methods, bi_dict_methods, bi_set_methods,
        bi_module_methods, bi_view_methods, bi_math_module, bi_torch_only};
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const Builtin *b = tables[t]; b->name; b++) bad += check_signature_names(b);
    assert_int_equal(bad, 0);
    /* the module is what answers: torch.zeros is torch's, print is bare, nn.init.zeros_ lives in nn.init */
    assert_string_equal(builtins_find("zeros")->module, "torch");
    assert_true(builtins_is_bare(builtins_find("print")));
    char home[32];
    builtins_home(builtins_find("MultiHeadAttention"), home, sizeof home);
    assert_string_equal(home, "d2l");
    /* a method alias resolves to torch's function through the alias table, never Python's sum; the missing-name
     * message is written into the caller's buffer */
    const Builtin *sum = builtins_find_method("sum");
    assert_non_null(sum);
    assert_string_equal(sum->module, "torch");
    assert_ptr_equal(builtins_find_method("sum"), sum);
    assert_null(builtins_find_method("no_such_method"));
    char msg[128];
    assert_ptr_equal(builtins_missing("torch.nn", "Conv2d", msg, sizeof msg), msg);
    assert_string_equal(msg, "torch.nn.Conv2d is not in attn: type help to see what is");
}

/* args_bind (argspec.c) binds by the signature alone: positions and keywords to slots, *size's keyword, and Python's
 * TypeErrors (PyTorch's wording of a missing argument for torch.X); every builtin's signature can be read. */
static void test_args_bind(void **state) {
    (void)state;
    int n;
    const Builtin *const *all = builtins_all(&n);
    for (int i = 0; i < n; i++)
        if (args_param_count(all[i]->signature) < 0 && !builtins_is_decorator(all[i]) && strchr(all[i]->signature, '('))
            fail_msg("%s: signature \"%s\" cannot be read", all[i]->name, all[i]->signature);
    /* the bracketed optional parameters of Python's help (PyArg_ParseTuple's and Argument Clinic's groups) are read
     * as parameters, a default list is not mistaken for one */
    char name[16];
    assert_int_equal(args_param_count("s.find(sub[, start[, end]])"), 3);
    assert_true(args_param_name("s.find(sub[, start[, end]])", 2, name, sizeof name));
    assert_string_equal(name, "end");
    assert_int_equal(args_param_count("math.log(x, [base=math.e])"), 2);
    assert_true(args_param_name("math.log(x, [base=math.e])", 1, name, sizeof name));
    assert_string_equal(name, "base");
    assert_int_equal(args_param_count("f(size=[1, 2], dim=0)"), 2);
    Session S;
    session_init(&S, "none");
    static const struct { const char *code, *error; } cases[] = {
        {"torch.full_like(torch.ones(2), fill_value=3).tolist()", NULL},
        {"torch.zeros(size=(2, 3)).shape", NULL},
        {"torch.eye(2, m=3).shape", NULL},
        {"torch.full_like(torch.ones(1))", "full_like() missing 1 required positional arguments: \"fill_value\""},
        {"torch.linspace()", "linspace() missing 3 required positional arguments: \"start\", \"end\", and \"steps\""},
        {"torch.zeros_like(torch.ones(1), 2)", "zeros_like() takes 1 positional argument but 2 were given"},
        {"torch.zeros_like(torch.ones(1), foo=1)", "zeros_like() got an unexpected keyword argument 'foo'"},
        {"torch.zeros_like(torch.ones(1), input=1)", "zeros_like() got multiple values for argument 'input'"},
        {"torch.zeros((2,), size=(2,))", "zeros() received an invalid combination of arguments - got (tuple, size=tuple), "
                                          "but expected one of:"},
        {"F.dropout(torch.ones(1), 0.5, True, False, 5)", "dropout() takes from 1 to 4 positional arguments but 5 were given"},
        {"nn.init.zeros_(torch.ones(1), 2)", "zeros_() takes 1 positional argument but 2 were given"},
        {"torch.full((2,), 1, torch.float32)", "full() received an invalid combination of arguments - got (tuple, int, "
                                                "torch.dtype), but expected one of:"},
        /* a class's words are its __init__'s, counting self (the messages PyTorch 1.13 on Python 3.11 gives) */
        {"nn.ReLU(1, 2)", "ReLU.__init__() takes from 1 to 2 positional arguments but 3 were given"},
        {"nn.ReLU(foo=1)", "ReLU.__init__() got an unexpected keyword argument 'foo'"},
        {"nn.Embedding(3)", "Embedding.__init__() missing 1 required positional argument: 'embedding_dim'"},
        {"nn.Flatten(1, 2, 3)", "Flatten.__init__() takes from 1 to 3 positional arguments but 4 were given"},
        {"nn.LayerNorm()", "LayerNorm.__init__() missing 1 required positional argument: 'normalized_shape'"},
        /* Python's own functions, declared positional-only: CPython's words (Python 3.11), over all the forms */
        {"len([1], x=1)", "len() takes no keyword arguments"},
        {"abs(1, 2)", "abs() takes exactly one argument (2 given)"},
        {"divmod(1)", "divmod expected 2 arguments, got 1"},
        {"range()", "range expected at least 1 argument, got 0"},
        {"range(1, 2, 3, 4)", "range expected at most 3 arguments, got 4"},
        {"list(range(2, 9, 3))", NULL},
        {"reversed()", "reversed expected 1 argument, got 0"},
        {"iter(1, 2, 3)", "iter expected at most 2 arguments, got 3"},
        {"int('11', base=2)", NULL},
        /* those that take keywords: Argument Clinic's words */
        {"pow(1)", "pow() missing required argument 'exp' (pos 2)"},
        {"print(foo=1)", "'foo' is an invalid keyword argument for print()"},
        {"int(1, 2, 3)", "int() takes at most 2 arguments (3 given)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char code[160];
        snprintf(code, sizeof code, "r = %s", cases[i].code);
        int rc = interp_run(&S.I, code, "<c>", 1);
        if (!cases[i].error) {
            if (rc < 0) fail_msg("%s: %s", cases[i].code, S.I.error.msg);
            continue;
        }
        assert_int_equal(rc, -1);
        if (strcmp(S.I.error.msg, cases[i].error))
            fail_msg("%s: \"%s\", not \"%s\"", cases[i].code, S.I.error.msg, cases[i].error);
        assert_string_equal(S.I.error.etype, "TypeError");
        interp_clear_error(&S.I);
    }
    session_free(&S);
}

int main(void) {
    builtins_open();         /* the interpreter runs without a session here: open the libraries as session_init does */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_incomplete_input),
        cmocka_unit_test(test_syntax_error_position),
        cmocka_unit_test(test_format_spec),
        cmocka_unit_test(test_float_repr),
        cmocka_unit_test(test_eval),
        cmocka_unit_test(test_error_kinds),
        cmocka_unit_test(test_nested_run),
        cmocka_unit_test(test_deep_free),
        cmocka_unit_test(test_cycles_collected),
        cmocka_unit_test(test_two_heaps),
        cmocka_unit_test(test_interpreters_keep_tensor_state),
        cmocka_unit_test(test_sessions_keep_their_context),
        cmocka_unit_test(test_sessions_keep_their_added_methods),
        cmocka_unit_test(test_sessions_see_only_their_additions),
        cmocka_unit_test(test_sessions_keep_their_print_options),
        cmocka_unit_test(test_sessions_keep_their_language),
        cmocka_unit_test(test_sessions_keep_their_write_folder),
        cmocka_unit_test(test_comparison_depth_per_interpreter),
        cmocka_unit_test(test_session_feed),
        cmocka_unit_test(test_tensor_errors_stay_in_their_session),
        cmocka_unit_test(test_header_example),
        cmocka_unit_test(test_builtin_modules),
        cmocka_unit_test(test_args_bind),
    };
    return cmocka_run_group_tests_name("language", tests, NULL, NULL);
}

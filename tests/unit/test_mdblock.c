/* test_mdblock.c - the one reader of lesson and transcript blocks (src/lesson/mdblock.c): CommonMark's fence rule
 * (worked from spec.commonmark.org/0.30 §4.5, examples 119-147), attn steps, text refused at load, and lessons
 * and transcripts reading the same file into the same steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mdblock.h"
#include "lesson.h"
#include "transcript.h"

static bool opens(const char *s, int *len) {
    MdFence f;
    bool r = md_fence_open(s, strlen(s), &f);
    if (r && len) *len = f.len;
    return r;
}

static bool closes(const char *s, int len) {
    MdFence f = {.len = len, .info = "", .info_len = 0, .ch = '`'};
    return md_fence_closes(s, strlen(s), &f);
}

static void test_fences(void **state) {
    (void)state;
    int n;
    assert_true(opens("```attn", &n));
    assert_int_equal(n, 3);
    assert_true(opens("````attn pytorch", &n));
    assert_int_equal(n, 4);
    assert_true(opens("   ```attn", &n));              /* up to 3 spaces of indent (example 131) */
    assert_false(opens("    ```attn", &n));            /* 4 spaces: an indented code line */
    assert_false(opens("``attn", &n));                 /* 2 backticks: not a fence (example 121) */
    assert_false(opens("``` a`b", &n));                /* a backtick in the info string (example 145) */
    assert_true(closes("```", 3));
    assert_true(closes("````", 3));                    /* longer closes (example 124) */
    assert_false(closes("```", 4));                    /* shorter does not (example 123) */
    assert_false(closes("```python", 3));              /* a closing fence has no info string (example 146) */
    assert_true(closes("```   ", 3));
    assert_true(closes("  ```", 3));
    MdFence f;
    assert_true(md_fence_open("```attn pytorch", 15, &f));
    assert_true(md_info_is(&f, "attn"));
    assert_false(md_info_is(&f, "att"));
    assert_true(md_fence_open("```attnx", 8, &f));
    assert_false(md_info_is(&f, "attn"));
    assert_int_equal(md_fence_len_for("a\nb\n"), 3);
    assert_int_equal(md_fence_len_for("```\n"), 4);
    assert_int_equal(md_fence_len_for("x\n````  \ny"), 5);
    assert_int_equal(md_fence_len_for("```python\n"), 3);   /* cannot close a fence: no need to lengthen */
    /* ~~~ fences (examples 120, 128, 146): closed by tildes only, and their info string may hold a backtick */
    assert_true(md_fence_open("~~~python", 9, &f));
    assert_int_equal(f.len, 3);
    assert_true(md_info_is(&f, "python"));
    assert_true(md_fence_open("~~~~ a`b", 8, &f));
    assert_false(md_fence_closes("```", 3, &f));
    assert_false(md_fence_closes("~~~", 3, &f));
    assert_true(md_fence_closes("~~~~~ ", 6, &f));
    assert_false(opens("~~", &n));
    MdFence b = {.len = 3, .info = "", .info_len = 0, .ch = '`'};
    assert_false(md_fence_closes("~~~", 3, &b));
}

static void test_steps(void **state) {
    (void)state;
    const char *body = "attn> for i in range(2):\r\n  ...>     print(i)\n  ...>\n0\n1\nattn> x = 1\nattn> print('```')\n```\n";
    MdStep *s = NULL;
    int n = 0, cap = 0;
    AttnError err;
    assert_true(md_attn_steps(body, body + strlen(body), 10, "f.md", &s, &n, &cap, &err));
    assert_int_equal(n, 3);
    assert_string_equal(s[0].input, "for i in range(2):\n    print(i)\n");
    assert_string_equal(s[0].expected, "0\n1\n");
    assert_int_equal(s[0].line, 10);
    assert_int_equal(s[0].expected_line, 13);
    assert_int_equal(s[0].end_line, 15);
    assert_string_equal(s[1].input, "x = 1");
    assert_string_equal(s[1].expected, "");
    assert_string_equal(s[2].expected, "```\n");     /* inside the body, a line of ``` is output */
    assert_int_equal(s[2].end_line, 18);
    for (int i = 0; i < n; i++) md_step_free(&s[i]);
    free(s);
    s = NULL;
    n = cap = 0;
    const char *orphan = "\noutput first\n";
    assert_false(md_attn_steps(orphan, orphan + strlen(orphan), 5, "f.md", &s, &n, &cap, &err));
    assert_string_equal(err_msg(&err), "f.md:6: output before any 'attn> ' input");
    free(s);
}

static void test_text_clean(void **state) {
    (void)state;
    AttnError err;
    assert_true(md_text_clean("plain\ttext\r\nnaïve 日本語\n", "l.md", &err));
    assert_false(md_text_clean("ok\nab\x1b]52;c;ZXZpbA==\x07\n", "l.md", &err));
    assert_non_null(strstr(err_msg(&err), "l.md:2:3: a control character (ESC)"));
    assert_false(md_text_clean("attn> x = 1\rattn> rm()\n", "l.md", &err));     /* \r hides a statement */
    assert_non_null(strstr(err_msg(&err), "l.md:1:12: a control character (CR)"));
    assert_false(md_text_clean("a = 1 # \xe2\x80\xae evil\n", "l.md", &err));    /* U+202E RIGHT-TO-LEFT OVERRIDE */
    assert_non_null(strstr(err_msg(&err), "bidirectional"));
    assert_false(md_text_clean("x\xc2\x9b" "2J\n", "l.md", &err));               /* U+009B: CSI */
    assert_false(md_text_clean("x\x9b" "2J\n", "l.md", &err));                   /* a raw 0x9B byte */
    assert_false(md_text_clean("del\x7f\n", "l.md", &err));
}

/* The same file read as a lesson and as a transcript gives the same statements and expected output. */
static void test_lesson_and_transcript_agree(void **state) {
    (void)state;
    const char *text =
        "# T\n\n## Step {#s}\n\nProse.\n\n"
        "````attn\n"
        "attn> print('```')\n"
        "```\n"
        "attn> def f(x):\n"
        "  ...>     return x\n"
        "  ...>\n"
        "attn> f(2)\n"
        "2\n"
        "````\n"
        "\n```python\nattn> not a step\n```\n";
    char path[] = "/tmp/attn-mdblock-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    AttnError err;
    Lesson *l = lesson_load(path, &err);
    if (!l) fail_msg("%s", err_msg(&err));
    Transcript *t = tr_parse(path, text, &err);
    if (!t) fail_msg("%s", err_msg(&err));
    int k = 0;
    for (int i = 0; i < l->steps[0].nitems; i++) {
        const LessonItem *it = &l->steps[0].items[i];
        if (it->kind != ITEM_RUN) continue;
        assert_true(k < t->nsteps);
        assert_string_equal(it->text, t->steps[k].input);
        assert_string_equal(it->expected, t->steps[k].expected);
        assert_int_equal(it->line, t->steps[k].line);
        k++;
    }
    assert_int_equal(k, 3);
    assert_int_equal(t->nsteps, 3);
    assert_string_equal(t->steps[0].expected, "```\n");
    assert_int_equal(t->nblocks, 1);
    assert_int_equal(t->blocks[0].fence_len, 4);
    tr_free(t);
    lesson_free(l);
    unlink(path);
}

/* Numbers match to the precision written; integers (and 1. as PyTorch prints integral floats) exactly. */
static void test_match_precision(void **state) {
    (void)state;
    assert_true(tr_match("tensor(0.1769)", "tensor(0.1770)"));
    assert_false(tr_match("tensor(0.1769)", "tensor(0.1771)"));
    assert_false(tr_match("5", "4"));                        /* 2 + 2 is not 5 */
    assert_false(tr_match("tensor(1)", "tensor(2)"));
    assert_false(tr_match("tensor([1., 2.])", "tensor([2., 2.])"));
    assert_true(tr_match("tensor([1., 2.])", "tensor([1.,  2.])"));
    assert_true(tr_match("1.0000e-05", "1.00004e-05"));
    assert_false(tr_match("1.0000e-05", "1.0002e-05"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fences),
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_text_clean),
        cmocka_unit_test(test_lesson_and_transcript_agree),
        cmocka_unit_test(test_match_precision),
    };
    return cmocka_run_group_tests_name("mdblock", tests, NULL, NULL);
}

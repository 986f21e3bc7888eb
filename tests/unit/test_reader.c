/* test_reader.c - lines to statements (src/session/reader.c) and the lexer's line joining: the book's code as it is
 * laid out in the book (brackets continued on the next line, comment lines inside blocks, decorators) is read as
 * the statements Python reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "parser.h"
#include "reader.h"

/* Splits text into statements; each must parse, and the reader's parse is handed over with the statement (it is
 * the parse of exactly that text, with the statement's line numbers). Returns how many; their first lines in
 * firsts. */
static int statements(const char *text, int *firsts, int max) {
    LineReader r;
    reader_init_text(&r, text);
    int n = 0;
    Statement st;
    while (reader_read_statement(&r, &st)) {
        if (!st.parsed || !st.parse.tree)
            fail_msg("statement %d (line %d) does not parse: %s\n%s", n + 1, st.first_line, st.parse.msg, st.text);
        ParseResult pr = parse_program(st.text, st.first_line);
        assert_non_null(pr.tree);
        assert_int_equal(pr.tree->nkids, st.parse.tree->nkids);
        assert_int_equal(pr.tree->kids[0]->line, st.parse.tree->kids[0]->line);
        assert_int_equal(st.parse.tree->kids[0]->line, st.first_line);
        ast_free(pr.tree);
        if (n < max) firsts[n] = st.first_line;
        n++;
        statement_free(&st);
    }
    reader_free(&r);
    return n;
}

/* §11.3: inside a def, a bracket continued on the next line, then more statements of the same block. */
static void test_bracket_continued_in_block(void **state) {
    (void)state;
    const char *src =
        "def _sequence_mask(X, valid_len, value=0):\n"
        "    maxlen = X.size(1)\n"
        "    mask = torch.arange((maxlen), dtype=torch.float32,\n"
        "                        device=X.device)[None, :] < valid_len[:, None]\n"
        "    X[~mask] = value\n"
        "    return X\n"
        "y = 1\n";
    int f[4];
    assert_int_equal(statements(src, f, 4), 2);
    assert_int_equal(f[0], 1);
    assert_int_equal(f[1], 7);
    ParseResult pr = parse_program(src, 1);
    assert_non_null(pr.tree);
    assert_int_equal(pr.tree->nkids, 2);
    assert_int_equal(pr.tree->kids[0]->kind, N_DEF);
    assert_int_equal(pr.tree->kids[0]->kids[1]->nkids, 4);      /* four statements in the body */
    ast_free(pr.tree);
}

/* §11.6: at top level, a continuation line that starts with ') /' is not an indented line. */
static void test_continuation_line_is_not_indent(void **state) {
    (void)state;
    const char *src =
        "X = torch.arange(max_len, dtype=torch.float32).reshape(\n"
        "    -1, 1) / torch.pow(10000, torch.arange(\n"
        "    0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)\n"
        "Y = X\n";
    int f[4];
    assert_int_equal(statements(src, f, 4), 2);
    assert_int_equal(f[1], 4);
    /* the same inside a block */
    const char *cls =
        "if True:\n"
        "    for max_len, num_hiddens in [(10, 4)]:\n"
        "        X = torch.arange(max_len, dtype=torch.float32).reshape(\n"
        "            -1, 1) / torch.pow(10000, torch.arange(\n"
        "            0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)\n"
        "        P = X\n";
    assert_int_equal(statements(cls, f, 4), 1);
}

/* Comment lines and blank lines inside a block do not end it; the next line with code decides. */
static void test_comments_inside_blocks(void **state) {
    (void)state;
    const char *src =
        "def forward(self, queries, keys, values, valid_lens):\n"
        "    # Shape of queries, keys, or values:\n"
        "    # (batch_size, no. of queries or key-value pairs, num_hiddens)\n"
        "    queries = self.transpose_qkv(self.W_q(queries))\n"
        "\n"
        "    # a comment after a blank line\n"
        "\n"
        "# a comment at column 0 between statements of the block\n"
        "    return queries\n"
        "# a comment after the block\n"
        "\n"
        "z = 2\n";
    int f[4];
    assert_int_equal(statements(src, f, 4), 2);
    assert_int_equal(f[1], 12);
}

/* Decorators and class bodies are read with the def or class they decorate. */
static void test_decorators_and_classes(void **state) {
    (void)state;
    const char *src =
        "class A:\n"
        "    \"\"\"A docstring.\"\"\"\n"
        "    x = 1\n"
        "\n"
        "\n"
        "    def f(self):\n"
        "        return self.x\n"
        "\n"
        "@d2l.add_to_class(A)  #@save\n"
        "def g(self, X):\n"
        "    return X\n"
        "\n"
        "@d2l.add_to_class(A)\n"
        "@staticmethod\n"
        "def h(X): return X\n"
        "a = A()\n";
    int f[8];
    assert_int_equal(statements(src, f, 8), 4);
    assert_int_equal(f[0], 1);
    assert_int_equal(f[1], 9);
    assert_int_equal(f[2], 13);
    assert_int_equal(f[3], 16);
}

/* A try block is read whole, its except/else/finally clauses at column 0 included: one statement (a try with its
 * handler, else and finally parts), then the next statement. */
static void test_try_is_one_statement(void **state) {
    (void)state;
    LineReader r;
    reader_init_text(&r, "try:\n    x = 1\nexcept ValueError as e:\n    x = 2\nelse:\n    x = 3\nfinally:\n    x = 4\ny = 5\n");
    Statement st;
    assert_true(reader_read_statement(&r, &st));
    assert_int_equal(st.first_line, 1);
    assert_true(st.parsed);
    assert_non_null(st.parse.tree);
    assert_int_equal(st.parse.tree->nkids, 1);
    const Node *t = st.parse.tree->kids[0];
    assert_int_equal(t->kind, N_TRY);
    assert_int_equal(t->kids[1]->nkids, 1);                 /* one handler */
    assert_string_equal(t->kids[1]->kids[0]->str, "e");
    assert_non_null(t->kids[2]);                            /* else */
    assert_non_null(t->kids[3]);                            /* finally */
    statement_free(&st);
    assert_true(reader_read_statement(&r, &st));
    assert_int_equal(st.first_line, 9);
    assert_non_null(st.parse.tree);
    statement_free(&st);
    assert_false(reader_read_statement(&r, &st));
    reader_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bracket_continued_in_block),
        cmocka_unit_test(test_continuation_line_is_not_indent),
        cmocka_unit_test(test_comments_inside_blocks),
        cmocka_unit_test(test_decorators_and_classes),
        cmocka_unit_test(test_try_is_one_statement),
    };
    return cmocka_run_group_tests_name("reader", tests, NULL, NULL);
}

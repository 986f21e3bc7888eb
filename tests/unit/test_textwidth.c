/* test_textwidth.c - display columns of UTF-8 text (against Python's unicodedata, every code point), padding,
 * carets, and wrapping by display columns with the Japanese line-breaking rules (cases worked by hand). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "textwidth.h"

static void test_decode(void **state) {
    (void)state;
    uint32_t cp;
    assert_int_equal(tw_decode("a", 1, &cp), 1);
    assert_int_equal(cp, 'a');
    assert_int_equal(tw_decode("\xc3\xa9", 2, &cp), 2);              /* é */
    assert_int_equal(cp, 0xE9);
    assert_int_equal(tw_decode("\xe6\x97\xa5", 3, &cp), 3);          /* 日 */
    assert_int_equal(cp, 0x65E5);
    assert_int_equal(tw_decode("\xf0\xa0\x80\x80", 4, &cp), 4);      /* U+20000 */
    assert_int_equal(cp, 0x20000);
    /* damaged input: one byte at a time, as U+FFFD */
    assert_int_equal(tw_decode("\xe6\x97", 2, &cp), 1);
    assert_int_equal(cp, 0xFFFD);
    assert_int_equal(tw_decode("\xc0\xaf", 2, &cp), 1);              /* overlong '/' */
    assert_int_equal(cp, 0xFFFD);
    assert_int_equal(tw_decode("\xed\xa0\x80", 3, &cp), 1);          /* a surrogate */
    assert_int_equal(cp, 0xFFFD);
    assert_int_equal(tw_decode("\xff", 1, &cp), 1);
}

/* tw_visible: what a stranger's lesson prints, as Python writes the same string's controls (repr('\x1b') is
 * '\x1b', repr('\u009b') is '\x9b'); text, lines and tabs as they are. */
static void test_visible(void **state) {
    (void)state;
    static const struct { const char *in; bool lines; const char *want; } cases[] = {
        {"plain 日本 text", true, "plain 日本 text"},
        {"a\x1b]52;c;ZXZp\x07" "b", true, "a\\x1b]52;c;ZXZp\\x07b"},          /* OSC 52 and BEL */
        {"x\xc2\x9b" "31m", true, "x\\x9b31m"},                              /* U+009B, the 8-bit CSI, in UTF-8 */
        {"del\x7f", true, "del\\x7f"},
        {"bad\xff byte", true, "bad\\xff byte"},                           /* not UTF-8 */
        {"two\nlines\tand a tab\r", true, "two\nlines\tand a tab\\x0d"},
        {"two\nlines", false, "two\\x0alines"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        StrBuf b;
        sb_init(&b);
        tw_visible(&b, cases[i].in, strlen(cases[i].in), cases[i].lines);
        assert_string_equal(sb_str(&b), cases[i].want);
        assert_int_equal(tw_has_controls(cases[i].in, strlen(cases[i].in), cases[i].lines), strcmp(cases[i].in, cases[i].want) != 0);
        sb_free(&b);
    }
}

static void test_widths_by_hand(void **state) {
    (void)state;
    assert_int_equal(tw_width("attention"), 9);
    assert_int_equal(tw_width("自己注意"), 8);
    assert_int_equal(tw_width("自注意力"), 8);
    assert_int_equal(tw_width("位置エンコーディング"), 20);
    assert_int_equal(tw_width("、。，）」"), 10);              /* fullwidth punctuation is wide */
    assert_int_equal(tw_width("ｱｲｳ"), 3);                     /* halfwidth katakana */
    assert_int_equal(tw_width("ＡＢ"), 4);                     /* fullwidth Latin */
    assert_int_equal(tw_width("e\xcc\x81"), 1);               /* e + combining acute */
    assert_int_equal(tw_width("か\xe3\x82\x99"), 2);          /* か + combining dakuten */
    assert_int_equal(tw_width("a\xe2\x80\x8b" "b"), 2);       /* zero width space */
    assert_int_equal(tw_width("3×4 → 1…"), 8);                /* ambiguous width: one column, as terminals set up for UTF-8 */
    assert_int_equal(tw_width(""), 0);
    assert_int_equal(tw_width_n("日本語", 6), 4);
}

/* Every code point Python's unicodedata decides plainly, against tw_char_width. glibc deliberately differs on
 * three blocks, where it follows what terminals do: conjoining Hangul vowels and final consonants (0 columns: they
 * join the syllable before them), the circled numbers U+3248..324F and the Yijing hexagrams U+4DC0..4DFF (2). */
static void test_widths_against_unicodedata(void **state) {
    (void)state;
    FILE *p = popen("/usr/bin/python3 tests/unit/width_reference.py", "r");
    assert_non_null(p);
    char version[32] = "";
    assert_non_null(fgets(version, sizeof version, p));
    unsigned long cp;
    int w, n = 0, bad = 0;
    while (fscanf(p, "%lu %d", &cp, &w) == 2) {
        bool jamo = (cp >= 0x1160 && cp <= 0x11FF) || (cp >= 0xD7B0 && cp <= 0xD7FF);
        bool glibc_wide = (cp >= 0x3248 && cp <= 0x324F) || (cp >= 0x4DC0 && cp <= 0x4DFF);
        int want = jamo ? 0 : glibc_wide ? 2 : w;
        int got = tw_char_width((uint32_t)cp);
        n++;
        if (got != want && (cp < 0x31350 || want != 2)) {        /* U+31350.. (Unicode 15) may be newer than glibc */
            if (bad++ < 10) printf("U+%04lX: width %d, unicodedata %s says %d\n", cp, got, version, want);
        }
    }
    pclose(p);
    printf("%d code points compared with unicodedata %s", n, version);
    assert_true(n > 100000);
    assert_int_equal(bad, 0);
}

static void test_pad_and_caret(void **state) {
    (void)state;
    StrBuf b;
    sb_init(&b);
    tw_pad(&b, "日本", 6);
    assert_string_equal(sb_str(&b), "日本  ");
    sb_clear(&b);
    tw_pad(&b, "自己注意機構", 6);                             /* wider than asked: nothing added */
    assert_string_equal(sb_str(&b), "自己注意機構");
    sb_clear(&b);
    const char *line = "s = '日本語' + zz";
    tw_caret_pad(&b, line, (size_t)(strstr(line, "zz") - line));
    assert_int_equal(b.len, 15);                              /* "s = '" 5 + 日本語 6 + "' + " 4 */
    sb_clear(&b);
    tw_caret_pad(&b, "\tx = y", 5);
    assert_string_equal(sb_str(&b), "\t    ");
    sb_free(&b);
}

static void test_tidy_spaces(void **state) {
    (void)state;
    char a[] = "あなたの答え は 形が 3×4 のテンソル ですが、正しくは scores です";
    assert_string_equal(tw_tidy_cjk_spaces(a), "あなたの答えは形が 3×4 のテンソルですが、正しくは scores です");
    char b[] = "（不评分：答案应是 2 维的 torch.Size，而这是 形状为 3×2 的张量）";
    assert_string_equal(tw_tidy_cjk_spaces(b), "（不评分：答案应是 2 维的 torch.Size，而这是形状为 3×2 的张量）");
    char c[] = "your answer is a 3 x 4 tensor";
    assert_string_equal(tw_tidy_cjk_spaces(c), "your answer is a 3 x 4 tensor");
}

static char *wrap(const char *text, int width, const char *indent) {
    StrBuf b;
    sb_init(&b);
    tw_wrap(&b, text, width, indent);
    return sb_take(&b);
}

#define WRAP_IS(text, width, want) do { char *got_ = wrap(text, width, ""); assert_string_equal(got_, want); free(got_); } while (0)

static void test_wrap_english(void **state) {
    (void)state;
    WRAP_IS("the quick brown fox jumps over the lazy dog", 15, "the quick brown\nfox jumps over\nthe lazy dog\n");
    /* a line break inside a paragraph is a space; a blank line separates paragraphs */
    WRAP_IS("self\nattention\n\nnext one", 40, "self attention\n\nnext one\n");
    /* a word longer than the line stays whole, never split */
    WRAP_IS("a supercalifragilistic b", 10, "a\nsupercalifragilistic\nb\n");
    /* closing punctuation stays with its word even when it would fit alone */
    WRAP_IS("abcdefghi (x).", 10, "abcdefghi\n(x).\n");
}

static void test_wrap_japanese(void **state) {
    (void)state;
    /* 20 columns = 10 characters. Line 1 cannot end at リ because 、 may not start a line: リ、 moves down together.
     * キー、 stays together (ー and 、 may not start a line). */
    WRAP_IS("自己注意では、クエリ、キー、値はすべて同じ場所から来る。", 20,
            "自己注意では、クエ\nリ、キー、値はすべて\n同じ場所から来る。\n");
    /* no break inside CNN; breaks between CJK and Latin are allowed */
    WRAP_IS("CNNと自己注意はいずれも並列計算の恩恵を受ける。", 16,
            "CNNと自己注意は\nいずれも並列計算\nの恩恵を受ける。\n");
    /* 「 never ends a line; ー, small ィ and 」 never start one */
    WRAP_IS("これは「位置エンコーディング」と呼ばれる。", 12,
            "これは「位置\nエンコーディ\nング」と呼ば\nれる。\n");
    WRAP_IS("これはね「位置」", 10, "これはね\n「位置」\n");
    /* Chinese: ，。 never start a line */
    WRAP_IS("自注意力同时具有并行计算和最短的最大路径长度。", 14,
            "自注意力同时具\n有并行计算和最\n短的最大路径长\n度。\n");
    /* source lines of a paragraph are joined without a space between CJK characters */
    WRAP_IS("自己注意\nでは\n\n注意\nattention", 40, "自己注意では\n\n注意 attention\n");
}

static void test_wrap_blocks(void **state) {
    (void)state;
    /* code, tables and headings stay as written; list items get a hanging indent */
    WRAP_IS("    x = torch.ones((2, 3))   # a long line of code that must not be wrapped at all\n", 20,
            "    x = torch.ones((2, 3))   # a long line of code that must not be wrapped at all\n");
    WRAP_IS("| a | b |\n|---|---|\n", 5, "| a | b |\n|---|---|\n");
    WRAP_IS("```\nlong code line here\n```\n", 10, "```\nlong code line here\n```\n");
    WRAP_IS("- one two three four\n- five", 12, "- one two\n  three four\n- five\n");
    /* first line: 14 columns after the indent; then 11 after the hanging indent */
    WRAP_IS("  1. 自己注意と位置エンコーディング", 16, "  1. 自己注意と\n     位置エン\n     コーディン\n     グ\n");
    /* every line gets the indent, and it counts in the width */
    char *got = wrap("one two three", 10, "> ");
    assert_string_equal(got, "> one two\n> three\n");
    free(got);
}

static void test_wrap_hanging(void **state) {
    (void)state;
    StrBuf b;
    sb_init(&b);
    tw_wrap_hanging(&b, "Hint 1 of 2: ", "torch.bmm multiplies (b, n, k) by (b, k, m)", 30);
    /* 30 columns: 17 left after the 13-column hang */
    assert_string_equal(sb_str(&b), "Hint 1 of 2: torch.bmm\n             multiplies (b, n,\n             k) by (b, k, m)\n");
    sb_clear(&b);
    /* Japanese: the prefix is 10 columns; breaks between characters (トー stays whole, す。 too) */
    tw_wrap_hanging(&b, "まだです: ", "転置が逆です: Xᵀ X は4個のトークンではなく3個の特徴を比べます。", 40);
    assert_string_equal(sb_str(&b), "まだです: 転置が逆です: Xᵀ X は4個のトー\n          クンではなく3個の特徴を比べま\n          す。\n");
    sb_clear(&b);
    tw_wrap_hanging(&b, "Q: ", "short", 40);
    assert_string_equal(sb_str(&b), "Q: short\n");
    sb_free(&b);
}

/* A formula is not broken at an operator: "j = 2" and "ceil((n - 1)/(k - 1))" stay on one line (they were split after
 * "j =" and inside the parentheses); a formula longer than a line still breaks, and every line fits. */
static void test_wrap_formulas(void **state) {
    (void)state;
    StrBuf b;
    sb_init(&b);
    tw_wrap(&b, "the pair for j = 2 is here", 16, "");      /* it broke after "j =" */
    assert_string_equal(sb_str(&b), "the pair for\nj = 2 is here\n");
    sb_clear(&b);
    tw_wrap(&b, "the layers needed are ceil((n - 1)/(k - 1)) here", 30, "");
    assert_string_equal(sb_str(&b), "the layers needed are\nceil((n - 1)/(k - 1)) here\n");
    sb_clear(&b);
    tw_wrap(&b, "这里的 j = 2，也就是第三对", 16, "");          /* 16 columns: 这里的 j = takes 10, 2， 3 more */
    assert_non_null(strstr(sb_str(&b), "j = 2，"));
    sb_clear(&b);
    tw_wrap_hanging(&b, "Hint 1 of 2: ", "compute it as ceil((n - 1)/(k - 1)) + offset = 17 + 3 * 2 here", 40);
    for (const char *p = sb_str(&b), *e; *p; p = e + 1) {      /* a held formula on the narrower hanging lines */
        e = strchr(p, '\n');
        assert_true(tw_width_n(p, (size_t)(e - p)) <= 40);
    }
    sb_clear(&b);
    tw_wrap(&b, "a = b + c + d + e + f + g + h + i + j + k + l + m + n + o", 20, "");
    for (const char *p = sb_str(&b), *e; *p; p = e + 1) {
        e = strchr(p, '\n');
        assert_true(tw_width_n(p, (size_t)(e - p)) <= 20);
    }
    sb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_widths_by_hand),
        cmocka_unit_test(test_widths_against_unicodedata),
        cmocka_unit_test(test_pad_and_caret),
        cmocka_unit_test(test_tidy_spaces),
        cmocka_unit_test(test_wrap_english),
        cmocka_unit_test(test_wrap_japanese),
        cmocka_unit_test(test_wrap_blocks),
        cmocka_unit_test(test_wrap_hanging),
        cmocka_unit_test(test_wrap_formulas),
        cmocka_unit_test(test_visible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

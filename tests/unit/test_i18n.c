/* test_i18n.c - choosing the language (--lang values, LC_ALL > LC_MESSAGES > LANG), the message catalogue (every
 * translation keeps the English printf conversions and newlines), and every translated lesson against its English
 * original (same step ids, statements, expected output, answers), with a drifted translation caught. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "i18n.h"
#include "lesson_translation.h"
#include "builtins.h"

static void test_parse_option(void **state) {
    (void)state;
    I18nLang l;
    assert_true(i18n_parse_option("ja", &l)); assert_int_equal(l, I18N_JA);
    assert_true(i18n_parse_option("zh", &l)); assert_int_equal(l, I18N_ZH);
    assert_true(i18n_parse_option("en", &l)); assert_int_equal(l, I18N_EN);
    assert_true(i18n_parse_option("日本語", &l)); assert_int_equal(l, I18N_JA);
    assert_false(i18n_parse_option("fr", &l));
    assert_false(i18n_parse_option("ja_JP.UTF-8", &l));        /* --lang takes a language, not a locale */
    assert_false(i18n_parse_option("", &l));
}

static void test_parse_locale(void **state) {
    (void)state;
    I18nLang l;
    const struct { const char *name; I18nLang want; } cases[] = {
        {"ja_JP.UTF-8", I18N_JA}, {"ja_JP.eucJP", I18N_JA}, {"ja", I18N_JA}, {"zh_CN.UTF-8", I18N_ZH},
        {"zh_TW.UTF-8", I18N_ZH}, {"zh_HK", I18N_ZH}, {"zh_SG.GB2312", I18N_ZH}, {"en_US.UTF-8", I18N_EN},
        {"C", I18N_EN}, {"C.UTF-8", I18N_EN}, {"POSIX", I18N_EN}, {"de_DE.UTF-8", I18N_EN}, {"fr", I18N_EN}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        l = (I18nLang)99;
        assert_true(i18n_parse(cases[i].name, &l));
        if (l != cases[i].want) fail_msg("%s: got %d, want %d", cases[i].name, l, cases[i].want);
    }
    assert_false(i18n_parse("", &l));
    assert_false(i18n_parse("jav", &l) && l == I18N_JA);      /* Javanese is not Japanese */
}

static void test_environment_order(void **state) {
    (void)state;
    unsetenv("LC_ALL"); unsetenv("LC_MESSAGES"); unsetenv("LANG");
    assert_int_equal(i18n_from_env(), I18N_EN);
    setenv("LANG", "zh_CN.UTF-8", 1);
    assert_int_equal(i18n_from_env(), I18N_ZH);
    setenv("LC_MESSAGES", "ja_JP.UTF-8", 1);
    assert_int_equal(i18n_from_env(), I18N_JA);                /* LC_MESSAGES before LANG */
    setenv("LC_ALL", "en_US.UTF-8", 1);
    assert_int_equal(i18n_from_env(), I18N_EN);                /* LC_ALL before both */
    setenv("LC_ALL", "", 1);
    assert_int_equal(i18n_from_env(), I18N_JA);                /* an empty variable counts as unset */
    unsetenv("LC_ALL"); unsetenv("LC_MESSAGES"); unsetenv("LANG");
}

/* The printf conversions of a format string, in order, with their flags ("%s%d%5.2f"). */
static void conversions(const char *f, char *out, size_t n) {
    size_t k = 0;
    for (const char *p = f; *p; p++) {
        if (*p != '%') continue;
        const char *q = p + 1;
        while (*q && !strchr("diouxXeEfgGcsp%", *q)) q++;
        size_t len = (size_t)(q - p) + (*q ? 1 : 0);
        if (k + len + 1 < n) { memcpy(out + k, p, len); k += len; }
        p = *q ? q : q - 1;
    }
    out[k] = 0;
}

static int lead_nl(const char *s) { int n = 0; while (s[n] == '\n') n++; return n; }
static int trail_nl(const char *s) { size_t n = strlen(s); int k = 0; while (n && s[n - 1] == '\n') { n--; k++; } return k; }

static void test_catalogue(void **state) {
    (void)state;
    int n;
    const I18nMessage *m = i18n_catalogue(&n);
    assert_true(n > 10);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const char *en = m[i].text[I18N_EN];
        char ce[64], ct[64];
        conversions(en, ce, sizeof ce);
        for (int j = 0; j < i; j++) if (!strcmp(m[j].text[I18N_EN], en)) { printf("twice in the catalogue: %s\n", en); bad++; }
        for (int l = 1; l < I18N_NLANGS; l++) {
            const char *t = m[i].text[l];
            if (!t || !*t) { printf("no %s translation: %s\n", i18n_code((I18nLang)l), en); bad++; continue; }
            conversions(t, ct, sizeof ct);
            if (strcmp(ce, ct)) { printf("%s: conversions '%s' instead of '%s': %s\n", i18n_code((I18nLang)l), ct, ce, t); bad++; }
            if (lead_nl(t) != lead_nl(en) || trail_nl(t) != trail_nl(en)) { printf("%s: newlines differ: %s\n", i18n_code((I18nLang)l), t); bad++; }
        }
    }
    assert_int_equal(bad, 0);
    /* the conversion check itself can fail */
    char c[64];
    conversions("Hint %d of %d: %5.2f%%\n", c, sizeof c);
    assert_string_equal(c, "%d%d%5.2f%%");
}

static void test_tr(void **state) {
    (void)state;
    assert_string_equal(TR(I18N_JA, "Right.\n"), "正解です。\n");
    assert_string_equal(TR(I18N_JA, "no such message"), "no such message");
    assert_string_equal(TR(I18N_ZH, "Right.\n"), "正确。\n");
    assert_string_equal(TR(I18N_EN, "Right.\n"), "Right.\n");
    assert_string_equal(TR((I18nLang)7, "Right.\n"), "Right.\n");      /* out of range: English, never a crash */
}

static void test_paths(void **state) {
    (void)state;
    char *o = lesson_original("lessons/ja/01-self-attention.md");
    assert_string_equal(o, "lessons/01-self-attention.md");
    free(o);
    o = lesson_original("zh/02-x.md");
    assert_string_equal(o, "02-x.md");
    free(o);
    assert_null(lesson_original("lessons/01-self-attention.md"));
    assert_null(lesson_original("lessons/xja/01-x.md"));
}

static int compare_files(const char *en_path, const char *tr_path, StrBuf *report) {
    AttnError err;
    Lesson *en = lesson_load(en_path, &err);
    if (!en) { sb_printf(report, "%s\n", err_msg(&err)); return 1; }
    Lesson *tr = lesson_load(tr_path, &err);
    if (!tr) { sb_printf(report, "%s\n", err_msg(&err)); lesson_free(en); return 1; }
    int d = lesson_compare_translation(en, tr, report);
    lesson_free(en);
    lesson_free(tr);
    return d;
}

/* Every lessons/ja and lessons/zh lesson agrees with its English original. */
static void test_translations_agree(void **state) {
    (void)state;
    const char *langs[] = {"ja", "zh"};
    int files = 0, diffs = 0;
    StrBuf report;
    sb_init(&report);
    for (int k = 0; k < 2; k++) {
        char dir[64];
        snprintf(dir, sizeof dir, "lessons/%s", langs[k]);
        DIR *d = opendir(dir);
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 4 || strcmp(e->d_name + len - 3, ".md") || e->d_name[0] < '0' || e->d_name[0] > '9') continue;
            char tr[600], en[600];
            snprintf(tr, sizeof tr, "%s/%s", dir, e->d_name);
            snprintf(en, sizeof en, "lessons/%s", e->d_name);
            if (access(en, R_OK) != 0) { sb_printf(&report, "%s: no English lesson %s\n", tr, en); diffs++; continue; }
            files++;
            diffs += compare_files(en, tr, &report);
        }
        closedir(d);
    }
    printf("%d translated lessons compared with English\n%s", files, sb_str(&report));
    sb_free(&report);
    assert_int_equal(diffs, 0);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A translation whose code drifted is caught, each difference named; translated prose and hints are not. */
static void test_drift_caught(void **state) {
    (void)state;
    char dir[] = "/tmp/attn-i18n-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char en[128], tr[128], jadir[128];
    snprintf(en, sizeof en, "%s/01-x.md", dir);
    snprintf(jadir, sizeof jadir, "%s/ja", dir);
    snprintf(tr, sizeof tr, "%s/ja/01-x.md", dir);
    mkdir(jadir, 0700);
    write_file(en, "# Lesson 1: X\nSection: §11.6.1 (with §11.3)\n\nIntro.\n\n## Tokens {#tokens}\n\nProse.\n\n"
                   "```attn\nattn> x = 1 + 1\nattn> x\n2\n```\n\n## Ask {#ask}\n\n```question\nWhat is x?\nanswer: x\n"
                   "accept: 2\nhint: look\nwrong: 3\n```\n");
    write_file(tr, "# レッスン 1: X\nSection: §11.6.1 (§11.3 も)\n\nはじめに。\n\n## トークン {#tokens}\n\n本文。\n\n"
                   "```attn\nattn> x = 1 + 1\nattn> x\n2\n```\n\n## 問題 {#ask}\n\n```question\nx はいくつ?\nanswer: x\n"
                   "accept: 2\nhint: 見て\nwrong: 3\n```\n");
    StrBuf r;
    sb_init(&r);
    assert_int_equal(compare_files(en, tr, &r), 0);
    /* drifted: a statement changed, an expected output changed, an accept: dropped, a step id renamed */
    write_file(tr, "# レッスン 1: X\nSection: §11.6.2\n\n## トークン {#tok}\n\n```attn\nattn> x = 1 + 2\nattn> x\n3\n```\n\n"
                   "## 問題 {#ask}\n\n```question\nx はいくつ?\nanswer: x\nhint: 見て\nhint: もっと\nwrong: 3\n```\n");
    int d = compare_files(en, tr, &r);
    printf("%s", sb_str(&r));
    assert_int_equal(d, 4);
    assert_non_null(strstr(sb_str(&r), "Section: §11.6.2, the English lesson says §11.6.1"));
    assert_non_null(strstr(sb_str(&r), "step 1 has the id 'tok', the English one 'tokens'"));
    assert_non_null(strstr(sb_str(&r), "step 'ask': the question has 0 'accept:' lines, the English one 1"));
    assert_non_null(strstr(sb_str(&r), "step 'ask': 2 hints, the English question has 1"));
    sb_clear(&r);
    write_file(tr, "# レッスン 1: X\nSection: §11.6.1\n\n## トークン {#tokens}\n\n```attn\nattn> x = 1 + 2\nattn> x\n3\n```\n\n"
                   "## 問題 {#ask}\n\n```question\nx はいくつ?\nanswer: x\naccept: 2\nhint: 見て\nwrong: 3\n```\n");
    assert_int_equal(compare_files(en, tr, &r), 2);
    assert_non_null(strstr(sb_str(&r), "step 'tokens': 'attn> x = 1 + 2' differs from the English 'attn> x = 1 + 1'"));
    assert_non_null(strstr(sb_str(&r), "step 'tokens': the expected output of 'attn> x' differs from the English"));
    /* a wrong: line's explanation is translated, but it must be there when the English has one */
    sb_clear(&r);
    write_file(en, "# L\n## A {#a}\n```question\nx?\nanswer: 2\nwrong: 3 -> too big\n```\n");
    write_file(tr, "# L\n## A {#a}\n```question\nx?\nanswer: 2\nwrong: 3 -> 大きすぎます\n```\n");
    assert_int_equal(compare_files(en, tr, &r), 0);
    write_file(tr, "# L\n## A {#a}\n```question\nx?\nanswer: 2\nwrong: 3\n```\n");
    assert_int_equal(compare_files(en, tr, &r), 1);
    assert_non_null(strstr(sb_str(&r), "'wrong: 3' lacks an explanation (-> ...) where the English has one"));
    write_file(en, "# Lesson 1: X\nSection: §11.6.1 (with §11.3)\n\nIntro.\n\n## Tokens {#tokens}\n\nProse.\n\n"
                   "```attn\nattn> x = 1 + 1\nattn> x\n2\n```\n\n## Ask {#ask}\n\n```question\nWhat is x?\nanswer: x\n"
                   "accept: 2\nhint: look\nwrong: 3\n```\n");
    write_file(tr, "# レッスン 1: X\nSection: §11.6.1\n\n## トークン {#tokens}\n\n```attn\nattn> x = 1 + 2\nattn> x\n3\n```\n\n"
                   "## 問題 {#ask}\n\n```question\nx はいくつ?\nanswer: x\naccept: 2\nhint: 見て\nwrong: 3\n```\n");
    /* the runner never shows a drifted translation: the English lesson instead */
    AttnError err;
    Lesson *l = lesson_load_localized(I18N_JA, en, &err);
    assert_non_null(l);
    assert_string_equal(l->title, "Lesson 1: X");
    lesson_free(l);
    write_file(tr, "# レッスン 1: X\nSection: §11.6.1\n\n## トークン {#tokens}\n\n```attn\nattn> x = 1 + 1\nattn> x\n2\n```\n\n"
                   "## 問題 {#ask}\n\n```question\nx はいくつ?\nanswer: x\naccept: 2\nhint: 見て\nwrong: 3\n```\n");
    l = lesson_load_localized(I18N_JA, en, &err);
    assert_string_equal(l->title, "レッスン 1: X");
    assert_string_equal(l->id, "01-x");                        /* progress is kept under the same name */
    lesson_free(l);
    l = lesson_load_localized(I18N_EN, en, &err);
    assert_string_equal(l->title, "Lesson 1: X");
    lesson_free(l);
    sb_free(&r);
    remove(tr); remove(en); rmdir(jadir); rmdir(dir);
}

/* Every function of the chapter (a section starting §11) has its current English help text translated, and no
 * translation is left for a help text that no longer exists (its English changed: translate the new text). */
static void test_help_translated(void **state) {
    (void)state;
    int bad = 0, checked = 0;
    for (int t = 0; t < 2; t++) {
        int n;
        const Builtin *const *all = t ? builtins_all_methods(&n) : builtins_all(&n);
        for (int i = 0; i < n; i++) {
            const Builtin *b = all[i];
            if (!b->section || strncmp(b->section, "§11", 4) != 0 || !b->help) continue;
            checked++;
            for (int l = I18N_JA; l < I18N_NLANGS; l++) {
                if (TR((I18nLang)l, b->help) == b->help) { printf("help %s: no %s translation of: %s\n", b->name, i18n_code((I18nLang)l), b->help); bad++; }
            }
        }
    }
    int nh;
    const I18nMessage *h = i18n_help_catalogue(&nh);
    for (int k = 0; k < nh; k++) {
        bool used = false;
        for (int t = 0; t < 2 && !used; t++) {
            int n;
            const Builtin *const *all = t ? builtins_all_methods(&n) : builtins_all(&n);
            for (int i = 0; i < n && !used; i++) used = all[i]->help && !strcmp(all[i]->help, h[k].text[I18N_EN]);
        }
        if (!used) { printf("src/util/i18n_help.c: no function has this help text any more: %s\n", h[k].text[I18N_EN]); bad++; }
    }
    printf("%d help texts of the chapter's functions checked\n", checked);
    assert_true(checked >= 20);
    assert_int_equal(bad, 0);
}

/* A tool's output in a translated lesson: its prose translated, its numbers and data lines as in English (issue 26).
 * The English and Japanese texts are binary_vs_sinusoid(2, 2)'s and stack_attention's, written out here. */
static void test_tool_prose(void **state) {
    (void)state;
    const char *en = "Positions 0..1 in binary beside the rows of P for d = 2 (§11.6.3.1):\n"
                     "the lowest bit flips every row, the next every 2 rows, then every 4, ...\n"
                     "   i  binary      sin0    cos0\n"
                     "   0       0    0.0000  1.0000\n"
                     "   1       1    0.8415  0.5403\n"
                     "Like the bits, the columns change more slowly from left to right: the pair of\n"
                     "columns 2j, 2j+1 turns by omega_j = 1/10000^(2j/d) radians per position.\n";
    const char *ja = "位置 0..1 の2進表現を、d = 2 の P の行と並べます (§11.6.3.1):\n"
                     "最下位ビットは毎行、次のビットは 2 行ごと、その次は 4 行ごとに反転します ...\n"
                     "   i     2進      sin0    cos0\n"
                     "   0       0    0.0000  1.0000\n"
                     "   1       1    0.8415  0.5403\n"
                     "ビットと同じく、列は左から右へ進むほどゆっくり変化します: 列 2j, 2j+1 の組は、\n"
                     "位置が1つ進むごとに omega_j = 1/10000^(2j/d) ラジアン回転します。\n";
    assert_true(lesson_same_but_prose(en, ja));          /* "2進", "1つ": digits in a word are not numbers */
    assert_true(lesson_same_but_prose(en, en));
    /* a number changed in the prose, a table cell changed, a row missing, numbers in another order: caught */
    char *bad = strdup(ja);
    bad[strstr(bad, "0..1") - bad + 3] = '2';
    assert_false(lesson_same_but_prose(en, bad));
    strcpy(bad, ja);
    bad[strstr(bad, "0.8415") - bad + 5] = '6';
    assert_false(lesson_same_but_prose(en, bad));
    free(bad);
    assert_false(lesson_same_but_prose("   0    0.0000  1.0000\n   1    0.8415  0.5403\n", "   1    0.8415  0.5403\n"));
    assert_false(lesson_same_but_prose("After 6 layers it went from 0.3033 to 1.0000", "0.3033 から 1.0000 へ、6 層の後"));
    /* a tensor's line is data: the same numbers printed otherwise are not the same output */
    assert_false(lesson_same_but_prose("tensor([[ 0.5828,  0.8126]])\n", "tensor([[0.5828, 0.8126]])\n"));
    assert_true(lesson_same_but_prose("6 self-attention layers, d = 32\n   0   0.3033\n", "自己注意の層 6 個、d = 32\n   0   0.3033\n"));
    /* a lesson file's language is its folder's */
    assert_int_equal(lesson_language("lessons/ja/05-relative-position.md"), I18N_JA);
    assert_int_equal(lesson_language("zh/05-x.md"), I18N_ZH);
    assert_int_equal(lesson_language("lessons/05-relative-position.md"), I18N_EN);
    assert_int_equal(lesson_language("lessons/xja/05-x.md"), I18N_EN);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_option),
        cmocka_unit_test(test_parse_locale),
        cmocka_unit_test(test_environment_order),
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_tr),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_translations_agree),
        cmocka_unit_test(test_drift_caught),
        cmocka_unit_test(test_help_translated),
        cmocka_unit_test(test_tool_prose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

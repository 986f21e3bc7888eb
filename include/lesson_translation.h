/* lesson_translation.h - lessons in Japanese and Chinese beside the English ones (prefix lesson_).
 * A translation of lessons/NN-name.md lives in lessons/ja/NN-name.md or lessons/zh/NN-name.md: same file name, so
 * progress (kept by that name) is shared whatever the language. It translates the prose, titles, question prompts
 * and hints; its step ids, statements and answers are the English lesson's, character for character, and its
 * expected output too but for the prose the chapter's tools print in its language (lesson_compare_translation
 * checks that, in make test). */
#ifndef ATTN_LESSON_TRANSLATION_H
#define ATTN_LESSON_TRANSLATION_H
#include "lesson.h"
#include "strbuf.h"
#include "i18n.h"
#include <stdbool.h>

/* The file to show for the lesson at `path` in language lang: DIR/ja/NAME.md beside DIR/NAME.md when it exists,
 * else `path` itself. Always a new string (caller frees). */
char *lesson_localized(I18nLang lang, const char *path);

/* Loads the lesson at `path` in language lang (its notes on stderr in lang too): its translation when there is one that agrees with the
 * English lesson (lesson_compare_translation), else the English lesson itself. A translation that has drifted is
 * never shown, nor one that cannot be read: the student gets the English lesson and a note on stderr saying why.
 * NULL with "file:line: message" in err when the English lesson cannot be read. */
Lesson *lesson_load_localized(I18nLang lang, const char *path, AttnError *err);

/* Lesson `which` (as lesson_find takes it: a number, a name or a path) loaded by lesson_load_localized, or NULL
 * after saying on stderr why (no such lesson, or the file's "file:line: message"), as `attn lesson` and `attn
 * notebook` both report it. */
Lesson *lesson_open(I18nLang lang, const char *which);

/* The English original of a translated lesson file (DIR/ja/NAME.md -> DIR/NAME.md), or NULL when `path` is not in
 * a ja/ or zh/ folder. Caller frees. */
char *lesson_original(const char *path);

/* The language a lesson file is written in: Japanese or Chinese for a file in a ja/ or zh/ folder (a translation),
 * else English. Its recorded outputs are what attn prints in that language (the chapter's tools speak it). */
I18nLang lesson_language(const char *path);

/* Whether two outputs of one statement say the same thing in different languages: the same numbers (every run of
 * digits, with its sign, point and exponent) in the same order, and every line of `en` that holds data (begins
 * with a digit, a sign, '[', '(' or "tensor(") also in `tr`, in the same order. Prose may differ; numbers, tensors
 * and tables may not. */
bool lesson_same_but_prose(const char *en, const char *tr);

/* Compares a translation with its English original: the same steps with the same ids in the same order, the same
 * statements with the same expected output (lesson_same_but_prose: a tool's prose is translated), the same questions with the same answer:, accept:, wrong: (the
 * expression; its "-> explanation" is translated, present where the English has one) and tolerance: lines and as
 * many hints, the same section number. Appends one line per difference to report
 * ("ja/01-x.md:12: step 'scores': ...") and returns how many there are. */
int lesson_compare_translation(const Lesson *en, const Lesson *tr, StrBuf *report);
#endif

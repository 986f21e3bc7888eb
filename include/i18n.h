/* i18n.h - the language students read attn in: English, Japanese or Chinese (prefix i18n_).
 * Chosen by the front end at start-up: `--lang ja|zh|en`, else the locale variables LC_ALL, LC_MESSAGES, LANG (the first one
 * set and non-empty, as POSIX orders them): ja* is Japanese, zh* Chinese (simplified characters, also for zh_TW
 * and zh_HK, the only Chinese edition there is), anything else (C, POSIX, en_US.UTF-8, de_DE ...) English.
 * What is translated: the lesson texts (lessons/ja/, lessons/zh/), the lesson runner's messages and the help of
 * the chapter's functions, and the prose the chapter's tools print (rotation, complexity ...). What is not:
 * commands (hint, skip, next ...), the Python/PyTorch language and its error messages, and numbers and tensor
 * output, which are the same in every language.
 * Each session has its own language (RunContext.lang, I->run.lang; a lesson's, a transcript's or a notebook's is
 * the one it is read in), and the front end passes its own to what runs outside a session (the lesson list): there
 * is no process-wide language, and nothing is switched and restored around a nested run.
 * Messages: TR(lang, "English text") returns the text in lang; the English text is the key, so code reads as
 * English and an untranslated message simply shows in English. The catalogue is compiled in
 * (src/util/i18n_messages.c): translated format strings are checked against the English ones by the unit tests,
 * and no file read at run time can bring a format string. */
#ifndef ATTN_I18N_H
#define ATTN_I18N_H
#include <stdbool.h>

typedef enum { I18N_EN = 0, I18N_JA = 1, I18N_ZH = 2, I18N_NLANGS = 3 } I18nLang;

/* Parses a --lang value or a locale name ("ja", "ja_JP.UTF-8", "zh_CN", "en", "C" ...). False for a value that
 * names none of them and is not a locale of another language (for --lang: "fr" is refused, "C" means English). */
bool i18n_parse(const char *name, I18nLang *out);
/* Parses a --lang value strictly: only en, ja, zh (and English, Japanese, Chinese, 日本語, 中文). */
bool i18n_parse_option(const char *name, I18nLang *out);

/* "en", "ja" or "zh": the folder of translated lessons (lessons/ja/...) and the value --lang takes. */
const char *i18n_code(I18nLang lang);
/* The language chosen by the environment alone (LC_ALL, LC_MESSAGES, LANG): for tests and `attn --help`. */
I18nLang i18n_from_env(void);

/* The message in lang; msgid itself when English, untranslated or lang is out of range. Never NULL for a msgid. */
#if defined(__GNUC__)
__attribute__((format_arg(2)))
#endif
const char *i18n_tr(I18nLang lang, const char *msgid);
#define TR(lang, msgid) i18n_tr(lang, msgid)

/* The catalogue, for the unit tests that check every translation (same printf conversions, no empty text). */
typedef struct I18nMessage {
    const char *text[I18N_NLANGS];     /* English (the key), Japanese, Chinese; NULL when untranslated */
} I18nMessage;
const I18nMessage *i18n_catalogue(int *n);
/* The help texts of the chapter's functions, keyed by their English text (src/util/i18n_help.c). */
const I18nMessage *i18n_help_catalogue(int *n);
#endif

/* i18n.c - parsing a language (--lang, the locale variables) and looking messages up in the catalogue. No state:
 * the language is each session's (RunContext.lang), passed to every lookup. */
#include "i18n.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool prefix(const char *s, const char *p) {
    size_t n = strlen(p);
    return !strncasecmp(s, p, n) && (s[n] == 0 || s[n] == '_' || s[n] == '-' || s[n] == '.' || s[n] == '@');
}

bool i18n_parse_option(const char *name, I18nLang *out) {
    static const struct { const char *name; I18nLang lang; } names[] = {
        {"en", I18N_EN}, {"english", I18N_EN}, {"ja", I18N_JA}, {"jp", I18N_JA}, {"japanese", I18N_JA},
        {"日本語", I18N_JA}, {"zh", I18N_ZH}, {"cn", I18N_ZH}, {"chinese", I18N_ZH}, {"中文", I18N_ZH}};
    if (!name) return false;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcasecmp(name, names[i].name)) { *out = names[i].lang; return true; }
    return false;
}

bool i18n_parse(const char *name, I18nLang *out) {
    if (!name || !*name) return false;
    if (i18n_parse_option(name, out)) return true;
    if (prefix(name, "ja")) { *out = I18N_JA; return true; }
    if (prefix(name, "zh")) { *out = I18N_ZH; return true; }
    if (prefix(name, "en") || !strcmp(name, "C") || !strcmp(name, "POSIX") || prefix(name, "C")) { *out = I18N_EN; return true; }
    /* another language's locale (fr_FR.UTF-8): valid, and read in English */
    if (isalpha((unsigned char)name[0]) && isalpha((unsigned char)name[1]) && (name[2] == 0 || name[2] == '_' || name[2] == '.')) {
        *out = I18N_EN;
        return true;
    }
    return false;
}

I18nLang i18n_from_env(void) {
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v) continue;
        I18nLang l;
        return i18n_parse(v, &l) ? l : I18N_EN;
    }
    return I18N_EN;
}

const char *i18n_code(I18nLang lang) {
    static const char *const codes[I18N_NLANGS] = {"en", "ja", "zh"};
    return lang < I18N_NLANGS ? codes[lang] : "en";
}

const char *i18n_tr(I18nLang l, const char *msgid) {
    if (l == I18N_EN || (unsigned)l >= I18N_NLANGS || !msgid) return msgid;
    const I18nMessage *(*const tables[])(int *) = {i18n_catalogue, i18n_help_catalogue};
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
        int n;
        const I18nMessage *m = tables[t](&n);
        for (int i = 0; i < n; i++)
            if (!strcmp(m[i].text[I18N_EN], msgid)) return m[i].text[l] ? m[i].text[l] : msgid;
    }
    return msgid;
}

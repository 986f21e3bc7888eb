/* textwidth.c - display columns of UTF-8 text, padding and line wrapping for English, Japanese and Chinese.
 * Widths: glibc's wcwidth() under a private C.UTF-8 locale object (uselocale is per thread and restored at once, so
 * the program's locale never changes); a built-in range table when that locale cannot be loaded.
 * Wrapping follows the Japanese line-breaking rules (kinsoku) for the characters students meet in lessons. */
#define _XOPEN_SOURCE 700      /* wcwidth */
#include "textwidth.h"
#include <locale.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <wchar.h>

size_t tw_decode(const char *s, size_t n, uint32_t *cp) {
    const unsigned char *u = (const unsigned char *)s;
    unsigned char c = u[0];
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 1) { *cp = c; return 1; }
    if (len == 0 || len > n) { *cp = 0xFFFD; return 1; }
    uint32_t v = c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80) { *cp = 0xFFFD; return 1; }
        v = v << 6 | (u[i] & 0x3F);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) { *cp = 0xFFFD; return 1; }
    *cp = v;
    return len;
}

/* ---- control characters ---- */

/* Whether the character c (k bytes, as tw_decode gave it) is a control tw_visible shows as \xHH. */
static bool is_control(uint32_t c, size_t k, bool keep_lines) {
    if (c == '\n' || c == '\t') return !keep_lines;
    return (c == 0xFFFD && k == 1) || c < 0x20 || (c >= 0x7F && c <= 0x9F);
}

bool tw_has_controls(const char *s, size_t n, bool keep_lines) {
    for (size_t i = 0; i < n;) {
        unsigned char b = (unsigned char)s[i];
        if (b >= 0x20 && b < 0x7F) { i++; continue; }         /* plain ASCII: the common case */
        uint32_t c;
        size_t k = tw_decode(s + i, n - i, &c);
        if (is_control(c, k, keep_lines)) return true;
        i += k;
    }
    return false;
}

void tw_visible(StrBuf *out, const char *s, size_t n, bool keep_lines) {
    for (size_t i = 0; i < n;) {
        uint32_t c;
        size_t k = tw_decode(s + i, n - i, &c);
        if (!is_control(c, k, keep_lines)) sb_putn(out, s + i, k);
        else if (c == 0xFFFD) sb_printf(out, "\\x%02x", (unsigned char)s[i]);
        else sb_printf(out, "\\x%02x", (unsigned)c);          /* U+009B as \x9b, as Python writes it */
        i += k;
    }
}

/* ---- widths ---- */

typedef struct { uint32_t lo, hi; } Range;

/* Used only when the C.UTF-8 locale is missing: the wide blocks of EastAsianWidth.txt and the common combining
 * marks, enough for Japanese and Chinese text. */
static const Range fallback_wide[] = {
    {0x1100, 0x115F}, {0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF},
    {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE30, 0xFE4F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x1F300, 0x1F64F},
    {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};
static const Range fallback_zero[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x200B, 0x200F}, {0x20D0, 0x20FF}, {0x3099, 0x309A},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}};

static bool in_ranges(uint32_t cp, const Range *r, size_t n) {
    for (size_t i = 0; i < n; i++) if (cp >= r[i].lo && cp <= r[i].hi) return true;
    return false;
}

/* The UTF-8 locale object for wcwidth, loaded once per process (a locale object is read-only once made and
 * uselocale is per thread, so every thread and session shares it) under pthread_once: two threads measuring text at
 * once load it once. (locale_t)0 when neither C.UTF-8 nor en_US.UTF-8 is installed. */
static pthread_once_t loc_once = PTHREAD_ONCE_INIT;
static locale_t utf8_loc;

static void load_locale(void) {
    utf8_loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (!utf8_loc) utf8_loc = newlocale(LC_CTYPE_MASK, "en_US.UTF-8", (locale_t)0);
}

static locale_t utf8_locale(void) {
    pthread_once(&loc_once, load_locale);
    return utf8_loc;
}

/* The width with the UTF-8 locale already in use (or absent: the table). */
static int width_in_locale(uint32_t cp, bool have_locale) {
    if (cp >= 0x20 && cp < 0x7F) return 1;
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return 0;
    if (have_locale) {
        int w = wcwidth((wchar_t)cp);
        if (w >= 0) return w;
    } else {
        if (in_ranges(cp, fallback_zero, sizeof fallback_zero / sizeof *fallback_zero)) return 0;
        if (in_ranges(cp, fallback_wide, sizeof fallback_wide / sizeof *fallback_wide)) return 2;
        return 1;
    }
    /* unassigned in glibc's Unicode version: the ideograph planes are wide, the rest one column */
    return cp >= 0x20000 && cp <= 0x3FFFD ? 2 : 1;
}

int tw_char_width(uint32_t cp) {
    if (cp >= 0x20 && cp < 0x7F) return 1;
    locale_t loc = utf8_locale();
    locale_t old = loc ? uselocale(loc) : (locale_t)0;
    int w = width_in_locale(cp, loc != (locale_t)0);
    if (loc) uselocale(old);
    return w;
}

int tw_width_n(const char *s, size_t n) {
    locale_t loc = utf8_locale();
    locale_t old = loc ? uselocale(loc) : (locale_t)0;
    int w = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        i += tw_decode(s + i, n - i, &cp);
        w += cp == '\t' ? 1 : width_in_locale(cp, loc != (locale_t)0);
    }
    if (loc) uselocale(old);
    return w;
}

int tw_width(const char *s) { return tw_width_n(s, strlen(s)); }

int tw_is_cjk(uint32_t cp) { return (cp >= 0xFF61 && cp <= 0xFF9F) || (cp >= 0x2E80 && tw_char_width(cp) == 2); }

void tw_pad(StrBuf *out, const char *s, int cols) {
    sb_puts(out, s);
    sb_pad(out, ' ', cols - tw_width(s));
}

void tw_caret_pad(StrBuf *out, const char *line, size_t upto) {
    for (size_t i = 0; i < upto && line[i];) {
        uint32_t cp;
        size_t len = tw_decode(line + i, upto - i, &cp);
        if (cp == '\t') sb_putc(out, '\t');
        else sb_pad(out, ' ', tw_char_width(cp));
        i += len;
    }
}

void tw_cells(StrBuf *out, const char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = tw_decode(s + i, n - i, &cp);
        sb_putn(out, s + i, len);
        if (cp >= 0x1100 && tw_char_width(cp) == 2) sb_puts(out, "\xe2\x80\x8b");
        i += len;
    }
}

char *tw_tidy_cjk_spaces(char *s) {
    size_t n = strlen(s), o = 0;
    uint32_t prev = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = tw_decode(s + i, n - i, &cp);
        if (cp == ' ' && prev && tw_is_cjk(prev) && i + 1 < n) {
            uint32_t next;
            tw_decode(s + i + 1, n - i - 1, &next);
            if (tw_is_cjk(next)) { i += len; continue; }
        }
        memmove(s + o, s + i, len);
        o += len;
        i += len;
        prev = cp;
    }
    s[o] = 0;
    return s;
}

/* ---- line breaking ---- */

/* Characters a line must not start with: closing brackets and quotes, sentence punctuation, small kana and the
 * prolonged sound mark (JIS X 4051). */
static bool no_break_before(uint32_t c) {
    static const char *const closing = ")]},.;:!?%、。，．・：；？！）］｝〕〉》」』】〙〗〟’”｠»ゝゞーァィゥェォッャュョヮヵヶぁぃぅぇぉっゃゅょゎゕゖ…‥々〻ヽヾ～〜％";
    if (c < 0x80) return c && strchr(")]},.;:!?%", (int)c) != NULL;
    for (const char *p = closing; *p;) {
        uint32_t k;
        p += tw_decode(p, strlen(p), &k);
        if (k == c) return true;
    }
    return false;
}

/* Characters a line must not end with: opening brackets and quotes. */
static bool no_break_after(uint32_t c) {
    static const char *const opening = "([{（［｛〔〈《「『【〘〖〝‘“｟«";
    if (c < 0x80) return c && strchr("([{", (int)c) != NULL;
    for (const char *p = opening; *p;) {
        uint32_t k;
        p += tw_decode(p, strlen(p), &k);
        if (k == c) return true;
    }
    return false;
}

/* May a line break between a and b (neither a space)? Only around CJK characters, and never against the rules. */
static bool may_break(uint32_t a, uint32_t b) {
    if (no_break_after(a) || no_break_before(b)) return false;
    return tw_is_cjk(a) || tw_is_cjk(b);
}

typedef struct Filler {
    StrBuf *out;
    const char *indent;
    int width;              /* columns for text after the indent */
    StrBuf line;            /* the line being filled */
    int line_w;
    StrBuf word;            /* the unbreakable piece being read */
    int word_w;
    int spaces;             /* spaces read between the line and the word */
    const char *lead;       /* spaces before the first line (an indented list item), "" otherwise */
    const char *hang;       /* spaces before continuation lines (list items), "" otherwise */
    bool first;
} Filler;

static void fill_emit(Filler *f) {
    sb_puts(f->out, f->indent);
    sb_puts(f->out, f->first ? f->lead : f->hang);
    sb_putn(f->out, sb_str(&f->line), f->line.len);
    sb_putc(f->out, '\n');
    sb_clear(&f->line);
    f->line_w = 0;
    f->first = false;
}

static void fill_word(Filler *f) {
    if (!f->word.len) return;
    int avail = f->width - tw_width(f->first ? f->lead : f->hang);
    int sp = f->line.len ? f->spaces : 0;
    if (f->line.len && f->line_w + sp + f->word_w > avail) { fill_emit(f); sp = 0; }
    sb_pad(&f->line, ' ', sp);
    sb_putn(&f->line, sb_str(&f->word), f->word.len);
    f->line_w += sp + f->word_w;
    sb_clear(&f->word);
    f->word_w = 0;
    f->spaces = 0;
}

/* Whether the n bytes at s are an operator standing as a word of a formula ("=", "-", "+", "×", "/", "<", "≤",
 * "≈", "->" ...), or end in "=" ("d="). A line is not broken on either side of one: "j = 2" and
 * "ceil((n - 1)/(k - 1))" stay whole (they were split after "j =" and inside the parentheses). */
static bool operator_word(const char *s, size_t n) {
    static const char *const ops[] = {"=", "==", "!=", "-", "+", "*", "/", "//", "**", "@", "<", ">", "<=", ">=", "->",
                                      "×", "·", "−", "≤", "≥", "≈", "≠", "→", "±", NULL};
    if (!n) return false;
    for (const char *const *o = ops; *o; o++) if (strlen(*o) == n && !memcmp(*o, s, n)) return true;
    return s[n - 1] == '=';
}

#define GLUE_MAX 30         /* columns a formula may be held together over: a longer one breaks where it must */

/* Fills one paragraph (its lines already joined) into lines. */
static void fill_paragraph(StrBuf *out, const char *text, int width, const char *indent, const char *lead,
                           const char *hang) {
    Filler f = {out, indent, width, {0}, 0, {0}, 0, 0, lead, hang, true};
    sb_init(&f.line);
    sb_init(&f.word);
    uint32_t prev = 0;
    size_t n = strlen(text);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = tw_decode(text + i, n - i, &cp);
        if (cp == ' ' || cp == '\t') {
            /* the next word: [j, k) */
            size_t j = i + len, k;
            while (j < n && (text[j] == ' ' || text[j] == '\t')) j++;
            for (k = j; k < n && text[k] != ' ' && text[k] != '\t';) k++;
            const char *last = f.word.len ? strrchr(f.word.s, ' ') : NULL;      /* the word's last token */
            last = last ? last + 1 : f.word.s;
            /* the narrower of the first line and the others: the held formula may land on either */
            int lw = tw_width(f.lead), hw = tw_width(f.hang);
            int avail = f.width - (lw > hw ? lw : hw), most = avail < GLUE_MAX ? avail : GLUE_MAX;
            if (f.word.len && k > j && f.word_w + 1 + tw_width_n(text + j, k - j) <= most &&
                (operator_word(last, f.word.len - (size_t)(last - f.word.s)) || operator_word(text + j, k - j))) {
                sb_putc(&f.word, ' ');          /* held together: one word, one space */
                f.word_w++;
                prev = 0;
                i = j;
                continue;
            }
            fill_word(&f);
            if (f.line.len) f.spaces++;
            prev = 0;
            i += len;
            continue;
        }
        if (f.word.len && may_break(prev, cp)) fill_word(&f);
        sb_putn(&f.word, text + i, len);
        f.word_w += tw_char_width(cp);
        prev = cp;
        i += len;
    }
    fill_word(&f);
    if (f.line.len || f.first) fill_emit(&f);
    sb_free(&f.line);
    sb_free(&f.word);
}

/* The last code point of s (0 when empty) and the first. */
static uint32_t last_cp(const StrBuf *b) {
    if (!b->len) return 0;
    size_t i = b->len - 1;
    while (i > 0 && ((unsigned char)b->s[i] & 0xC0) == 0x80) i--;
    uint32_t cp;
    tw_decode(b->s + i, b->len - i, &cp);
    return cp;
}

static bool is_list_item(const char *s, size_t n, size_t *marker) {
    size_t i = 0;
    while (i < n && s[i] == ' ') i++;
    if (i + 1 < n && (s[i] == '-' || s[i] == '*' || s[i] == '+') && s[i + 1] == ' ') { *marker = i + 2; return true; }
    size_t d = i;
    while (d < n && s[d] >= '0' && s[d] <= '9') d++;
    if (d > i && d - i < 4 && d + 1 < n && (s[d] == '.' || s[d] == ')') && s[d + 1] == ' ') { *marker = d + 2; return true; }
    return false;
}

typedef struct Para {
    StrBuf text;            /* the joined lines (a list item's start with its marker) */
    size_t lead;            /* spaces before a list item's marker */
    size_t marker;          /* columns of the list marker with those spaces, 0 for plain prose */
    bool open;
} Para;

static void para_flush(Para *p, StrBuf *out, int width, const char *indent) {
    if (!p->open) return;
    char hang[32], lead[32];
    size_t m = p->marker < sizeof hang ? p->marker : sizeof hang - 1, l = p->lead < m ? p->lead : m;
    memset(hang, ' ', m);
    hang[m] = 0;
    memset(lead, ' ', l);
    lead[l] = 0;
    fill_paragraph(out, sb_str(&p->text), width, indent, lead, hang);
    sb_clear(&p->text);
    p->open = false;
    p->marker = p->lead = 0;
}

/* Adds a source line to the paragraph: a space between words, nothing between two wide characters. */
static void para_add(Para *p, const char *s, size_t n) {
    while (n && (*s == ' ' || *s == '\t')) { s++; n--; }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (!n) return;
    if (p->text.len) {
        uint32_t a = last_cp(&p->text), b;
        tw_decode(s, n, &b);
        bool hangul = (a >= 0xAC00 && a <= 0xD7A3) || (b >= 0xAC00 && b <= 0xD7A3);
        if (!(tw_char_width(a) == 2 && tw_char_width(b) == 2 && !hangul)) sb_putc(&p->text, ' ');
    }
    sb_putn(&p->text, s, n);
    p->open = true;
}

void tw_wrap(StrBuf *out, const char *text, int width, const char *indent) {
    if (width < 10) width = 10;
    int avail = width - tw_width(indent);
    if (avail < 10) avail = 10;
    Para p = {{0}, 0, 0, false};
    sb_init(&p.text);
    bool fence = false;
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        bool blank = true;
        for (size_t i = 0; i < n; i++) if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') blank = false;
        bool is_fence = n >= 3 && !strncmp(s, "```", 3);
        bool verbatim = fence || is_fence || (n && s[0] == '\t') || (n >= 4 && !strncmp(s, "    ", 4)) ||
                        (n && (s[0] == '|' || s[0] == '#'));
        size_t marker;
        if (blank) {
            para_flush(&p, out, avail, indent);
            sb_putc(out, '\n');
        } else if (verbatim) {
            para_flush(&p, out, avail, indent);
            sb_puts(out, indent);
            sb_putn(out, s, n);
            sb_putc(out, '\n');
            if (is_fence) fence = !fence;
        } else if (is_list_item(s, n, &marker)) {
            para_flush(&p, out, avail, indent);
            size_t lead = 0;
            while (s[lead] == ' ') lead++;
            sb_putn(&p.text, s + lead, marker - lead);     /* the marker as written, its indentation as lead */
            p.lead = lead;
            p.marker = marker;
            p.open = true;
            const char *rest = s + marker;
            size_t rn = n - marker;
            while (rn && *rest == ' ') { rest++; rn--; }
            sb_putn(&p.text, rest, rn);
        } else {
            para_add(&p, s, n);
        }
        s = nl ? nl + 1 : s + n;
    }
    para_flush(&p, out, avail, indent);
    sb_free(&p.text);
}

void tw_wrap_hanging(StrBuf *out, const char *prefix, const char *text, int width) {
    if (width < 10) width = 10;
    Para p = {{0}, 0, 0, false};
    sb_init(&p.text);
    sb_puts(&p.text, prefix);
    Para q = {{0}, 0, 0, false};
    sb_init(&q.text);
    for (const char *s = text; *s;) {           /* the text's lines joined as a paragraph's */
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        para_add(&q, s, n);
        s = nl ? nl + 1 : s + n;
    }
    sb_putn(&p.text, sb_str(&q.text), q.text.len);
    int hang = tw_width(prefix);
    char pad[64];
    if (hang > (int)sizeof pad - 1 || hang > width / 2) hang = 2;
    memset(pad, ' ', (size_t)hang);
    pad[hang] = 0;
    fill_paragraph(out, sb_str(&p.text), width, "", "", pad);
    sb_free(&q.text);
    sb_free(&p.text);
}

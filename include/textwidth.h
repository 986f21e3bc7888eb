/* textwidth.h - UTF-8 text measured in terminal display columns (prefix tw_): East Asian wide and fullwidth
 * characters take 2 columns, combining marks 0, everything else printable 1. Widths come from glibc's wcwidth()
 * under the C.UTF-8 locale (Unicode data kept by glibc), used through a private locale object so the program's
 * own locale never changes; a small built-in range table stands in where that locale is missing.
 * Used for carets under errors, aligned columns and wrapped prose in English, Japanese and Chinese. */
#ifndef ATTN_TEXTWIDTH_H
#define ATTN_TEXTWIDTH_H
#include "strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes one UTF-8 character at s (at most n bytes); stores its code point in *cp and returns its length in bytes
 * (1..4). An invalid or truncated sequence decodes as one byte with *cp = 0xFFFD. n must be > 0. */
size_t tw_decode(const char *s, size_t n, uint32_t *cp);

/* Appends the n bytes of s with every control character shown as Python writes it in a string, \xHH: C0 (but \n and
 * \t when keep_lines), DEL, C1 (U+009B, the 8-bit CSI, as \x9b) and a byte that is not UTF-8 (\xff). What a
 * terminal would take as an escape sequence becomes text the reader sees; everything else is kept as it is. */
void tw_visible(StrBuf *out, const char *s, size_t n, bool keep_lines);
/* Whether tw_visible would change s (false for plain text: callers skip the copy). */
bool tw_has_controls(const char *s, size_t n, bool keep_lines);

/* Columns one code point takes: 0 (combining marks, zero-width and control characters), 1 or 2 (wide). */
int tw_char_width(uint32_t cp);

/* Columns the first n bytes of s take (a tab counts as 1; callers that expand tabs do it themselves). */
int tw_width_n(const char *s, size_t n);
int tw_width(const char *s);

/* True for a code point that wraps like a CJK ideograph: a line may break before and after it. */
int tw_is_cjk(uint32_t cp);

/* Appends s and then spaces up to `cols` display columns (nothing added when s is already that wide): printf's
 * "%-*s" counted in columns instead of bytes, for tables with Japanese or Chinese cells. */
void tw_pad(StrBuf *out, const char *s, int cols);

/* Appends the blanks that put the next character printed under byte `upto` of `line` (as the line is printed
 * after the same prefix): one space per display column, a tab for a tab. For carets under errors. */
void tw_caret_pad(StrBuf *out, const char *line, size_t upto);

/* Appends s with a zero-width space (U+200B) after every wide character: for programs that give every character
 * one cell, such as gnuplot's dumb terminal, so that each wide character gets the two cells it covers on screen
 * and a plot with Japanese labels stays aligned. */
void tw_cells(StrBuf *out, const char *s);

/* Removes, in place, a space that stands between two CJK characters: messages put together from translated
 * pieces ("%s は %s です" with "形が 3×4 のテンソル") keep the space next to Latin letters and digits and lose it
 * between Japanese or Chinese words, as those languages are written. Returns s. */
char *tw_tidy_cjk_spaces(char *s);

/* Appends text wrapped to `width` display columns, every line prefixed with `indent` (whose columns count).
 * Paragraphs are separated by blank lines. Inside a paragraph the lines are joined and filled again: a line break
 * becomes a space between words, but nothing between two CJK characters. Lines that are not running text are
 * kept as they are: indented by 4 or more spaces, inside a ``` fence, table rows ('|'), headings ('#'). A list
 * item ("- ", "* ", "1. ") starts a new line and its continuation lines get a hanging indent.
 * Breaks: at spaces; anywhere between CJK characters (and between CJK and Latin); never inside an English word,
 * never before closing punctuation (、。，．）」』 ) , . ! ? ...) and never after opening punctuation (（「『 ( [ ...).
 * A word longer than the line is left whole on a line of its own. width < 10 is taken as 10. */
void tw_wrap(StrBuf *out, const char *text, int width, const char *indent);
/* Appends prefix + text filled to `width` columns as one paragraph, the lines after the first indented by the
 * prefix's width ("Hint 1 of 2: " and its text, "Not yet: ..."): the same breaking rules as tw_wrap. Line breaks
 * in text join as in a paragraph. */
void tw_wrap_hanging(StrBuf *out, const char *prefix, const char *text, int width);
#endif

/* mdblock.h - the one reader of the Markdown that lessons and transcripts are made of (prefix md_): fenced blocks
 * and, inside an ```attn block, the statements and the output expected from each.
 *
 * Fences follow CommonMark: an opening fence is 3 or more backticks (indented at most 3 spaces) followed by an
 * info string ("attn", "question", "python"); only a line of at least as many backticks and nothing else closes it.
 * So a block whose output holds a line of ``` is written with a longer fence (````attn), and stays one block.
 *
 * In an attn block, "attn> " starts a statement, "  ...> " (or "  ...>" alone) continues it while no output line
 * has been seen, and every other line is output expected from the last statement. */
#ifndef ATTN_MDBLOCK_H
#define ATTN_MDBLOCK_H
#include "strbuf.h"
#include "attnerr.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct MdFence {
    int len;                /* number of backticks (or tildes) */
    const char *info;       /* the info string after them (not NUL-terminated), e.g. "attn" */
    size_t info_len;
    char ch;                /* '`' or '~' (CommonMark's two fences; a block closes with its own) */
} MdFence;

/* Is line [s, s+n) an opening fence (``` or ~~~, up to three spaces before it)? Fills *f. */
bool md_fence_open(const char *s, size_t n, MdFence *f);
/* Does line [s, s+n) close a block opened with f? */
bool md_fence_closes(const char *s, size_t n, const MdFence *f);
/* Is the info string the word w ("attn" matches "attn" and "attn pytorch", not "attnx")? */
bool md_info_is(const MdFence *f, const char *w);

/* One statement of an attn block and the output expected from it. */
typedef struct MdStep {
    char *input;            /* the statement, continuation lines joined with '\n' (owned) */
    char *expected;         /* expected output, each line ending in '\n' (owned, may be "") */
    int line;               /* the line of its "attn> " */
    int expected_line;      /* first line of the expected output */
    int end_line;           /* the line after its last expected line */
} MdStep;

/* Splits the body of an attn block (lines [body, body_end), the first of them numbered first_line) into steps,
 * appended to *steps (count *n, capacity *cap). false with "path:line: ..." in err for output before any input. */
bool md_attn_steps(const char *body, const char *body_end, int first_line, const char *path, MdStep **steps, int *n,
                   int *cap, AttnError *err);
void md_step_free(MdStep *s);

/* The number of backticks a fence needs so that no line of text closes it: 3, or one more than the longest line
 * of only backticks in text. */
int md_fence_len_for(const char *text);

/* Text a lesson or transcript may hold: no control characters but tab and newline (a carriage return only before
 * a newline), no DEL or C1 controls, no bidirectional overrides (they reorder what a statement looks like). false
 * with "path:line:col: ..." in err, naming the character. */
bool md_text_clean(const char *text, const char *path, AttnError *err);
#endif

/* mdblock.c - fenced blocks and attn steps, read one way for lessons and transcripts (see mdblock.h). */
#include "mdblock.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool md_fence_open(const char *s, size_t n, MdFence *f) {
    size_t i = 0;
    while (i < n && i < 3 && s[i] == ' ') i++;
    char ch = i < n ? s[i] : 0;
    if (ch != '`' && ch != '~') return false;
    size_t k = i;
    while (k < n && s[k] == ch) k++;
    if (k - i < 3) return false;
    f->ch = ch;
    f->len = (int)(k - i);
    while (k < n && s[k] == ' ') k++;
    f->info = s + k;
    f->info_len = n - k;
    while (f->info_len && (f->info[f->info_len - 1] == ' ' || f->info[f->info_len - 1] == '\r')) f->info_len--;
    /* CommonMark: the info string of a backtick fence holds no backtick (a tilde fence's may) */
    return ch == '~' || memchr(f->info, '`', f->info_len) == NULL;
}

bool md_fence_closes(const char *s, size_t n, const MdFence *f) {
    char ch = f->ch ? f->ch : '`';
    size_t i = 0;
    while (i < n && i < 3 && s[i] == ' ') i++;
    size_t k = i;
    while (k < n && s[k] == ch) k++;
    if ((int)(k - i) < f->len) return false;
    while (k < n && (s[k] == ' ' || s[k] == '\r')) k++;
    return k == n;
}

bool md_info_is(const MdFence *f, const char *w) {
    size_t n = strlen(w);
    return f->info_len >= n && !strncmp(f->info, w, n) && (f->info_len == n || f->info[n] == ' ');
}

void md_step_free(MdStep *s) {
    free(s->input);
    free(s->expected);
    s->input = s->expected = NULL;
}

static void push(MdStep **steps, int *n, int *cap, MdStep s) {
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *steps = xrealloc(*steps, sizeof(MdStep) * (size_t)*cap);
    }
    (*steps)[(*n)++] = s;
}

bool md_attn_steps(const char *body, const char *body_end, int first_line, const char *path, MdStep **steps, int *n,
                   int *cap, AttnError *err) {
    MdStep *cur = NULL;
    StrBuf exp, in;
    sb_init(&exp);
    sb_init(&in);
    int line = first_line - 1;
    bool ok = true;
    for (const char *p = body; p < body_end;) {
        line++;
        const char *e = memchr(p, '\n', (size_t)(body_end - p));
        size_t len = e ? (size_t)(e - p) : (size_t)(body_end - p);
        if (len && p[len - 1] == '\r') len--;
        if (len >= 6 && !strncmp(p, "attn> ", 6)) {
            if (cur) { cur->expected = sb_take(&exp); cur->end_line = line; }
            push(steps, n, cap, (MdStep){xstrndup(p + 6, len - 6), NULL, line, line + 1, line + 1});
            cur = &(*steps)[*n - 1];
        } else if (cur && exp.len == 0 && len >= 6 && !strncmp(p, "  ...>", 6) && (len == 6 || p[6] == ' ')) {
            sb_clear(&in);
            sb_puts(&in, cur->input);
            sb_putc(&in, '\n');
            if (len > 7) sb_putn(&in, p + 7, len - 7);
            free(cur->input);
            cur->input = sb_take(&in);
            cur->expected_line = line + 1;
        } else if (cur) {
            sb_putn(&exp, p, len);
            sb_putc(&exp, '\n');
        } else if (len > 0) {
            err_set(err, "%s:%d: output before any 'attn> ' input", path, line);
            ok = false;
            break;
        }
        p = e ? e + 1 : body_end;
    }
    if (cur) { cur->expected = sb_take(&exp); cur->end_line = line + 1; }
    sb_free(&exp);
    sb_free(&in);
    return ok;
}

int md_fence_len_for(const char *text) {
    int need = 3;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        size_t i = 0;
        while (i < n && i < 3 && p[i] == ' ') i++;
        size_t k = i;
        while (k < n && p[k] == '`') k++;
        size_t j = k;
        while (j < n && (p[j] == ' ' || p[j] == '\r')) j++;
        if (k - i >= 3 && j == n && (int)(k - i) + 1 > need) need = (int)(k - i) + 1;
        p = e ? e + 1 : p + n;
    }
    return need;
}

/* Decodes the UTF-8 sequence at p (at most n bytes): the code point, or -1 for a malformed one; *len its bytes. */
static long utf8_at(const unsigned char *p, size_t n, int *len) {
    *len = 1;
    if (p[0] < 0x80) return p[0];
    int k = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC0 ? 2 : 0;
    if (k == 0 || (size_t)k > n) return -1;
    long c = p[0] & (0x3F >> (k - 1));
    for (int i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80) return -1;
        c = (c << 6) | (p[i] & 0x3F);
    }
    *len = k;
    return c;
}

bool md_text_clean(const char *text, const char *path, AttnError *err) {
    const unsigned char *p = (const unsigned char *)text;
    size_t n = strlen(text);
    int line = 1, col = 1;
    for (size_t i = 0; i < n;) {
        int len;
        long c = utf8_at(p + i, n - i, &len);
        const char *what = NULL;
        if (c == '\n') { line++; col = 1; i++; continue; }
        if (c == '\r' && p[i + 1] == '\n') { i++; continue; }
        if (c < 0 && p[i] >= 0x80 && p[i] <= 0x9F) what = "a byte that is not UTF-8 text (a C1 control in 8-bit terminals)";
        else if (c == '\t' || c < 0) { i += (size_t)len; col++; continue; }    /* other malformed UTF-8 shows as itself */
        else if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F)) what = "a control character";
        else if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C)
            what = "a bidirectional text control";
        if (what) {
            char name[24];
            if (c == 0x1B) snprintf(name, sizeof name, "ESC");
            else if (c == '\r') snprintf(name, sizeof name, "CR");
            else if (c < 0) snprintf(name, sizeof name, "byte 0x%02X", p[i]);
            else snprintf(name, sizeof name, "U+%04lX", c);
            err_set(err, "%s:%d:%d: %s (%s): a lesson or transcript may not hold terminal control codes or "
                                  "text-direction overrides, which can hide what a statement really is",
                     path, line, col, what, name);
            return false;
        }
        i += (size_t)len;
        col++;
    }
    return true;
}

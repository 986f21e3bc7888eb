/* list.c - `attn lesson` with no number: the lessons found (lesson_list), each with its section and the student's
 * progress, in columns padded by display width so that Japanese and Chinese titles line up. */
#include "guide.h"
#include "lesson_translation.h"
#include "i18n.h"
#include "textwidth.h"
#include "strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The title as the list shows it: without a leading "Lesson 3: " ("レッスン 3: ", "第 3 课："), which the number
 * column already says, so a row with its progress fits 80 columns. */
static const char *list_title(const char *title, int num) {
    char digits[16];
    snprintf(digits, sizeof digits, "%d", num);
    const char *colon = strstr(title, ": "), *wide = strstr(title, "\xef\xbc\x9a");     /* ：*/
    const char *end = colon && (!wide || colon < wide) ? colon + 2 : wide ? wide + 3 : NULL;
    if (!end || end - title > 24 || !*end) return title;
    const char *d = strstr(title, digits);
    return d && d < end ? end : title;
}

int lesson_list_command(I18nLang lang) {
    int n;
    char **all = lesson_list(&n);
    if (!n) {
        err_print("%s", TR(lang, "attn: no lessons found (looked in $ATTN_LESSONS and the installed share/attn/lessons)\n"));
        if (lesson_dir_note()) err_print("%s", lesson_dir_note());
        return 2;
    }
    guide_out(TR(lang, "Lessons (attn lesson N starts or resumes one):\n"));
    char dir[LESSON_DIR_MAX];
    guide_outf(TR(lang, "(from %s)\n"), lesson_dir(dir));
    Lesson **ls = xcalloc((size_t)n, sizeof *ls);
    AttnError *errs = xcalloc((size_t)n, sizeof *errs);
    int title_w = 0;        /* the widest title: the section column starts after it, in every language */
    for (int i = 0; i < n; i++) {
        ls[i] = lesson_load_localized(lang, all[i], &errs[i]);
        if (ls[i] && tw_width(list_title(ls[i]->title, i + 1)) > title_w) title_w = tw_width(list_title(ls[i]->title, i + 1));
    }
    for (int i = 0; i < n; i++) {
        Lesson *l = ls[i];
        if (!l) { guide_outf(TR(lang, "  %d  (cannot read: %s)\n"), i + 1, err_msg(&errs[i])); free(all[i]); continue; }
        int done = 0;
        char *key = lesson_progress_key(l);
        progress_get(key, &done);
        free(key);
        const char *mark = done >= l->nsteps ? TR(lang, "done") : done > 0 ? TR(lang, "started") : "";
        char sec[24] = "";
        if (l->section) snprintf(sec, sizeof sec, "%.*s", (int)strcspn(l->section, " "), l->section);
        StrBuf row;     /* columns padded by display width: Japanese and Chinese titles are 2 columns a character */
        sb_init(&row);
        sb_printf(&row, "  %d  ", i + 1);
        tw_pad(&row, list_title(l->title, i + 1), title_w);
        sb_puts(&row, "  ");
        tw_pad(&row, sec, 10);
        sb_putc(&row, ' ');
        sb_printf(&row, TR(lang, "%d/%d steps"), done > l->nsteps ? l->nsteps : done, l->nsteps);
        if (*mark) sb_printf(&row, " %s", mark);
        sb_putc(&row, '\n');
        guide_out(sb_str(&row));
        sb_free(&row);
        lesson_free(l);
        free(all[i]);
    }
    free(all);
    free(ls);
    free(errs);
    if (lesson_dir_note()) guide_out(lesson_dir_note());
    return 0;
}

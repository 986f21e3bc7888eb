/* guide_record.c - a teacher's recording (teach --record): a transcript that reads as the class went, its prose as
 * comments, the statements with what they printed, the questions' answers as the class saw them; saved whole and
 * atomically after every step. */
#include "guide.h"
#include "i18n.h"
#include "transcript.h"
#include "mdblock.h"
#include "files.h"
#include "strbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fences of attn blocks are written as FENCE and become backticks when the recording is saved: as many as it
 * takes for an output line of ``` to stay inside its block (mdblock.h). */
#define FENCE "\x01\x02" "fence" "\x02\x01"

static void rec_close_block(LessonRun *S) {
    if (S->in_block) sb_puts(&S->record, FENCE "\n\n");
    S->in_block = false;
}

/* A paragraph of prose in the recording (a comment for --check). */
void guide_rec_prose(LessonRun *S, const char *fmt, ...) {
    if (!S->recording) return;
    rec_close_block(S);
    StrBuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    const char *t = sb_str(&b);
    while (*t == '\n') t++;
    sb_puts(&S->record, t);
    sb_free(&b);
    while (S->record.len && S->record.s[S->record.len - 1] == '\n') S->record.s[--S->record.len] = 0;
    sb_puts(&S->record, "\n\n");
}

/* A statement and what it printed, as a transcript step; a silent one (the class did not see it: a rebuild, the
 * rest of a step after `next`) in an ```attn silent block, whose figures --check does not count either (transcript.h). */
void guide_rec_statement(LessonRun *S, const char *stmt, const char *printed, bool silent) {
    if (!S->recording) return;
    if (S->in_block && S->block_silent != silent) rec_close_block(S);
    if (!S->in_block) sb_puts(&S->record, silent ? FENCE "attn silent\n" : FENCE "attn\n");
    S->in_block = true;
    S->block_silent = silent;
    tr_put_input(&S->record, stmt);
    sb_puts(&S->record, printed);
}

/* A question's answer as the class saw it: a ```question block with the answer and, after `printed:`, what it
 * printed, which --check compares as it compares a statement's output (numbers within their printed digits). */
void guide_rec_answer(LessonRun *S, const char *answer, const char *printed, bool silent) {
    if (!S->recording) return;
    rec_close_block(S);
    sb_printf(&S->record, FENCE "question\nanswer: %s\n", answer);
    /* a time: run, not compared; an answer the class did not see: run, not compared, its figures not counted */
    if (S->measured || silent) { sb_puts(&S->record, FENCE "\n\n"); return; }
    sb_puts(&S->record, "printed:\n");
    sb_puts(&S->record, printed);
    if (*printed && printed[strlen(printed) - 1] != '\n') sb_putc(&S->record, '\n');
    sb_puts(&S->record, FENCE "\n\n");
}

/* Writes the recording (whole, atomically) when it changed since the last save; a failure is said once, until a
 * save succeeds again. */
void guide_save_record(LessonRun *S) {
    if (!S->recording) return;
    if (S->record_tried && S->record_tried_len == S->record.len) return;
    S->record_tried = true;
    S->record_tried_len = S->record.len;
    StrBuf b, body;
    sb_init(&b);
    sb_init(&body);
    sb_puts(&body, sb_str(&S->record));
    if (S->in_block) sb_puts(&body, FENCE "\n");
    int n = md_fence_len_for(sb_str(&body));
    sb_printf(&b, LESSON_RECORDING_TITLE "%s\n\n", S->l->title);
    if (S->sess.I.run.lang != I18N_EN) {     /* --check replays it in the language the tools spoke in class */
        sb_printf(&b, TR_LANG_LINE, i18n_code(S->sess.I.run.lang));
        sb_puts(&b, "\n\n");
    }
    for (const char *p = sb_str(&body), *q; *p; p = q + strlen(FENCE)) {
        q = strstr(p, FENCE);
        if (!q) { sb_puts(&b, p); break; }
        sb_putn(&b, p, (size_t)(q - p));
        sb_pad(&b, '`', n);
    }
    AttnError err;        /* written whole or not at all (a full disk keeps the last recording) */
    bool saved = file_write_atomic(S->record_path, b.s, b.len, &err);
    if (!saved && !S->record_trouble) guide_file_trouble(S, "the recording: ", err_msg(&err));
    S->record_trouble = !saved;
    sb_free(&b);
    sb_free(&body);
}

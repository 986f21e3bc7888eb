/* files.h - where attn keeps the user's state, and writing files so that nothing is lost (prefix file_). */
#ifndef ATTN_FILES_H
#define ATTN_FILES_H
#include <stdbool.h>
#include <stddef.h>

/* $XDG_STATE_HOME/attn (default ~/.local/state/attn), created if missing; "" when there is no home. */
const char *file_state_dir(void);
#endif

/* fuzz_common.h - small limits so every fuzz input runs fast and cannot exhaust memory. */
#ifndef ATTN_FUZZ_COMMON_H
#define ATTN_FUZZ_COMMON_H
#include "plot.h"
#include "tensor.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fuzz_limits(void) {
    static int done;
    if (done) return;
    done = 1;
    ten_process_ctx()->limit_numel = 1 << 16;     /* copied by each session's context (ten_ctx_new) */
    ten_process_ctx()->limit_bytes = 64 << 20;
}
/* The input as a NUL-terminated string (caller frees). */
static char *fuzz_cstring(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}
#endif

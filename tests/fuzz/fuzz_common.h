/* fuzz_common.h - small limits so every fuzz input runs fast and cannot exhaust memory. */
#ifndef ATTN_FUZZ_COMMON_H
#define ATTN_FUZZ_COMMON_H
#include "plot.h"
#include "tensor.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The input's tensor context (a session's I.run.ten, or one the target made) gets small limits. */
static inline void fuzz_limits(TenCtx *c) {
    c->limit_numel = 1 << 16;
    c->limit_bytes = 64 << 20;
}
/* The input as a NUL-terminated string (caller frees). */
static char *fuzz_cstring(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}
#endif

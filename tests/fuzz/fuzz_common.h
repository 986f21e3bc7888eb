/* fuzz_common.h - small limits so every fuzz input runs fast and cannot exhaust memory. */
#ifndef ATTN_FUZZ_COMMON_H
#define ATTN_FUZZ_COMMON_H
#include "plot.h"
#include "tensor.h"
#include <stdlib.h>
#include <unistd.h>

static void fuzz_limits(void) {
    static int done;
    if (done) return;
    done = 1;
    ten_limit_numel = 1 << 16;
    ten_limit_bytes = 64 << 20;
    plot_set_target("none");     /* files an input saves land in the fuzzer's working directory (build-fuzz) */
}
#endif

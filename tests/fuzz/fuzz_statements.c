/* fuzz_statements.c - any bytes as statements: parse and run in a fresh interpreter; an error is fine, a crash,
 * a leak or undefined behaviour is not. */
#include "fuzz_common.h"
#include "interp.h"
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_limits();
    if (size > 4096) return 0;
    char *src = fuzz_cstring(data, size);
    Interp I;
    interp_init(&I);
    I.max_loop_iterations = 2000;
    StrBuf out;
    sb_init(&out);
    I.capture = &out;
    if (interp_run(&I, src, "fuzz", 1) < 0) interp_format_error(&I, &out);
    I.capture = NULL;
    sb_free(&out);
    interp_free(&I);
    free(src);
    return 0;
}

/* fuzz_statements.c - any bytes as statements: parse and run in a fresh interpreter; an error is fine, a crash,
 * a leak or undefined behaviour is not. */
#include "fuzz_common.h"
#include "session.h"
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0;
    char *src = fuzz_cstring(data, size);
    Session S;
    session_init(&S, "none");     /* files an input saves land in the fuzzer's working directory (build-fuzz) */
    fuzz_limits(S.I.run.ten);
    S.I.max_loop_iterations = 2000;
    StrBuf out;
    sb_init(&out);
    OutputSink cap;
    interp_push_sink(&S.I, &cap, SINK_CAPTURE, &out);
    session_run(&S, src, NULL, "fuzz", 1);
    interp_pop_sink(&S.I, &cap);
    sb_free(&out);
    session_free(&S);
    free(src);
    return 0;
}

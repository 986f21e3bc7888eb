/* fuzz_transcript.c - any bytes as a transcript (parsed), and as a pair of outputs to compare with tr_match. */
#include "fuzz_common.h"
#include "transcript.h"
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 16384) return 0;
    char *s = fuzz_cstring(data, size);
    AttnError err;
    Transcript *t = tr_parse("fuzz.md", s, &err);
    tr_free(t);
    size_t half = strlen(s) / 2;
    char *a = strndup(s, half), *b = strdup(s + half);
    (void)tr_match(a, b);
    free(a);
    free(b);
    free(s);
    return 0;
}

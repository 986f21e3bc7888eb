/* fuzz_lesson.c - any bytes as a lesson file: loaded, or an error with file and line. */
#include "fuzz_common.h"
#include "lesson.h"
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 16384) return 0;
    FILE *f = fopen("lesson.md", "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    AttnError err;
    Lesson *l = lesson_load("lesson.md", &err);
    lesson_free(l);
    return 0;
}

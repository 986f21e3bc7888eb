/* fuzz_npy.c - any bytes as a .npy file: a tensor or a clear error. */
#include "fuzz_common.h"
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_limits();
    Tensor *t = npy_parse(data, size);
    ten_free(t);
    return 0;
}

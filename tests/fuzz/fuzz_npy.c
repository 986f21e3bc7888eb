/* fuzz_npy.c - any bytes as a .npy file: a tensor or a clear error. */
#include "fuzz_common.h"
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    TenCtx *tc = ten_ctx_new();
    fuzz_limits(tc);
    Tensor *t = npy_parse_in(tc, data, size);
    ten_free(t);
    ten_ctx_free(tc);
    return 0;
}

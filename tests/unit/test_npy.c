/* test_npy.c - .npy files: round trip, the exact header NumPy expects, and damaged files rejected with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tensor.h"

/* The tensor context this file's tests make their tensors in and read failures from (the test owns it). */
static TenCtx *test_ctx(void) {
    static TenCtx *c;
    if (!c) c = ten_ctx_new();
    return c;
}
#define TC test_ctx()

static void test_roundtrip(void **state) {
    (void)state;
    char path[] = "/tmp/attn-npy-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    char file[64];
    snprintf(file, sizeof file, "%s.npy", path);
    Tensor *t = ten_arange_in(TC, 0, 12, 1, DT_F32);
    int64_t sh[3] = {2, 3, 2};
    Tensor *r = ten_reshape(t, 3, sh);
    assert_int_equal(npy_save(file, r), 0);
    FILE *f = fopen(file, "rb");
    unsigned char head[128];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    assert_true(n >= 64);
    assert_memory_equal(head, "\x93NUMPY\x01\x00", 8);
    size_t hlen = head[8] | head[9] << 8;
    assert_int_equal((10 + hlen) % 64, 0);      /* data aligned to 64 bytes, as the format requires */
    assert_non_null(strstr((char *)head + 10, "'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 2), }"));
    Tensor *back = npy_load_in(TC, file);
    assert_non_null(back);
    assert_int_equal(back->ndim, 3);
    assert_memory_equal(back->data, r->data, 12 * sizeof(float));
    remove(file);
    remove(path);
    ten_free(t); ten_free(r); ten_free(back);
}

static Tensor *parse_str(const char *header, const void *data, size_t dlen) {
    unsigned char buf[512];
    size_t hl = strlen(header);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(hl & 0xff);
    buf[9] = (unsigned char)(hl >> 8);
    memcpy(buf + 10, header, hl);
    memcpy(buf + 10 + hl, data, dlen);
    return npy_parse_in(TC, buf, 10 + hl + dlen);
}

static void test_damaged(void **state) {
    (void)state;
    int64_t v[2] = {7, -3};
    Tensor *t = parse_str("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }\n", v, sizeof v);
    assert_non_null(t);
    assert_int_equal(ten_i64(t)[1], -3);
    ten_free(t);
    assert_null(parse_str("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }\n", v, sizeof v));
    assert_non_null(strstr(ten_error(TC), "truncated"));
    assert_null(parse_str("{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }\n", v, sizeof v));
    assert_non_null(strstr(ten_error(TC), "not supported"));
    assert_null(parse_str("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }\n", v, sizeof v));
    assert_non_null(strstr(ten_error(TC), "Fortran"));
    assert_null(parse_str("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999,), }\n", v, sizeof v));
    assert_null(npy_parse_in(TC, (const unsigned char *)"hello", 5));
    assert_non_null(strstr(ten_error(TC), "not a .npy file"));
    /* found by fuzzing: a key at the very end of the header (read past the end) */
    const char *h = "{'descr':";
    unsigned char buf[64] = "\x93NUMPY\x01\x00";
    buf[8] = (unsigned char)strlen(h);
    memcpy(buf + 10, h, strlen(h));
    assert_null(npy_parse_in(TC, buf, 10 + strlen(h)));
    assert_null(npy_load_in(TC, "/nonexistent/dir/x.npy"));
    assert_non_null(strstr(ten_error(TC), "cannot open"));
}

static void test_unwritable(void **state) {
    (void)state;
    Tensor *t = ten_scalar_f_in(TC, 1);
    assert_int_equal(npy_save("/nonexistent/dir/x.npy", t), -1);
    assert_non_null(strstr(ten_error(TC), "cannot write"));
    ten_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_unwritable),
    };
    return cmocka_run_group_tests_name("npy", tests, NULL, NULL);
}

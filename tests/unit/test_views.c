/* test_views.c - strided views: shapes, strides and storage offsets as PyTorch gives them (the numbers in the
 * comments were printed by torch 1.13 for the same calls), writes through views, and storage counted once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "tensor.h"

/* The tensor context this file's tests make their tensors in and read failures from (the test owns it). */
static TenCtx *test_ctx(void) {
    static TenCtx *c;
    if (!c) c = ten_ctx_new();
    return c;
}
#define TC test_ctx()

static Tensor *arange2(int64_t r, int64_t c) {      /* torch.arange(r*c).reshape(r, c) as float32 */
    Tensor *a = ten_arange_in(TC, 0, (double)(r * c), 1, DT_F32);
    int64_t sh[2] = {r, c};
    Tensor *m = ten_reshape(a, 2, sh);
    ten_free(a);
    return m;
}

static void assert_strides(const Tensor *t, int n, const int64_t *want) {
    assert_int_equal(t->ndim, n);
    for (int i = 0; i < n; i++) assert_int_equal(t->stride[i], want[i]);
}

static void test_contiguous_strides(void **state) {
    (void)state;
    int64_t sh[3] = {2, 0, 3};
    Tensor *z = ten_new_in(TC, DT_F32, 3, sh);
    assert_strides(z, 3, (int64_t[]){3, 3, 1});          /* torch.zeros(2,0,3).stride() == (3, 3, 1) */
    assert_true(z->contiguous);
    ten_free(z);
}

static void test_transpose_unsqueeze_strides(void **state) {
    (void)state;
    Tensor *x = arange2(3, 4);
    Tensor *t = ten_transpose(x, 0, 1);
    assert_strides(t, 2, (int64_t[]){1, 4});             /* x.T.stride() == (1, 4) */
    assert_false(t->contiguous);
    assert_true(ten_same_storage(t, x));
    Tensor *u0 = ten_unsqueeze(t, 0), *u2 = ten_unsqueeze(t, 2), *u1 = ten_unsqueeze(x, 1);
    assert_strides(u0, 3, (int64_t[]){4, 1, 4});         /* x.t().unsqueeze(0).stride() == (4, 1, 4) */
    assert_strides(u2, 3, (int64_t[]){1, 4, 1});         /* x.t().unsqueeze(2).stride() == (1, 4, 1) */
    assert_strides(u1, 3, (int64_t[]){4, 4, 1});         /* x.unsqueeze(1).stride() == (4, 4, 1) */
    assert_true(u1->contiguous);
    Tensor *sq = ten_squeeze(u0, 0, false);
    assert_strides(sq, 2, (int64_t[]){1, 4});
    ten_free(x); ten_free(t); ten_free(u0); ten_free(u2); ten_free(u1); ten_free(sq);
}

static void test_reshape_view_or_copy(void **state) {
    (void)state;
    Tensor *x = arange2(3, 4);
    int64_t flat = 12, six2[2] = {6, 2};
    Tensor *v = ten_reshape(x, 1, &flat);                 /* contiguous: always a view */
    assert_true(ten_same_storage(v, x));
    Tensor *t = ten_transpose(x, 0, 1);
    Tensor *c = ten_reshape(t, 1, &flat);                 /* x.t().reshape(12): a copy, stride (1,) */
    assert_false(ten_same_storage(c, x));
    assert_strides(c, 1, (int64_t[]){1});
    assert_float_equal(ten_get(c, 1), 4, 0);              /* x.t().reshape(12)[1] == x[1, 0] == 4 */
    assert_null(ten_view_shape(t, 1, &flat));             /* x.t().view(12) fails in PyTorch */
    assert_non_null(strstr(ten_error(TC), "view size is not compatible with input tensor's size and stride"));
    /* x[:, ::2] is (3, 2) with strides (4, 2): evenly spaced, so reshape(6) is a view of stride 2 ... */
    IndexItem it[2] = {{.kind = IX_SLICE, .step = 1}, {.kind = IX_SLICE, .step = 2}};
    Tensor *s = ten_index_get(x, it, 2);
    assert_strides(s, 2, (int64_t[]){4, 2});
    int64_t six = 6;
    Tensor *rs = ten_reshape(s, 1, &six);
    assert_true(ten_same_storage(rs, x));
    assert_strides(rs, 1, (int64_t[]){2});
    /* ... x[:, :2] (strides (4, 1)) is not: reshape(6) copies */
    IndexItem it2[2] = {{.kind = IX_SLICE, .step = 1}, {.kind = IX_SLICE, .stop = 2, .has_stop = true, .step = 1}};
    Tensor *s2 = ten_index_get(x, it2, 2), *rs2 = ten_reshape(s2, 1, &six);
    assert_false(ten_same_storage(rs2, x));
    assert_float_equal(ten_get(rs2, 2), 4, 0);
    ten_free(s2); ten_free(rs2);
    /* ... but x.t() viewed as (2, 3, 2)? no; a transposed (4, 3) viewed as (2, 2, 3) keeps the split dim: yes */
    int64_t s223[3] = {2, 2, 3};
    Tensor *vt = ten_view_shape(t, 3, s223);
    assert_non_null(vt);
    assert_strides(vt, 3, (int64_t[]){2, 1, 4});          /* x.t().view(2, 2, 3).stride() == (2, 1, 4) */
    Tensor *bad = ten_reshape(x, 2, six2);
    assert_strides(bad, 2, (int64_t[]){2, 1});
    ten_free(x); ten_free(v); ten_free(t); ten_free(c); ten_free(s); ten_free(rs); ten_free(vt); ten_free(bad);
}

static void test_index_views(void **state) {
    (void)state;
    Tensor *x = arange2(3, 4);
    /* x[:, None, 0].stride() == (4, 4); x[1:].storage_offset() == 4 */
    IndexItem a[3] = {{.kind = IX_SLICE, .step = 1}, {.kind = IX_NEWAXIS}, {.kind = IX_INT, .i = 0}};
    Tensor *v = ten_index_get(x, a, 3);
    assert_strides(v, 2, (int64_t[]){4, 4});
    IndexItem b = {.kind = IX_SLICE, .start = 1, .has_start = true, .step = 1};
    Tensor *w = ten_index_get(x, &b, 1);
    assert_int_equal(w->offset, 4);
    assert_true(w->contiguous);
    /* advanced indexing copies */
    int64_t two = 2;
    Tensor *idx = ten_new_in(TC, DT_I64, 1, &two);
    ten_i64(idx)[0] = 2;
    IndexItem c = {.kind = IX_TENSOR, .index = idx};
    Tensor *g = ten_index_get(x, &c, 1);
    assert_false(ten_same_storage(g, x));
    ten_free(x); ten_free(v); ten_free(w); ten_free(idx); ten_free(g);
}

static void test_write_through_views(void **state) {
    (void)state;
    Tensor *x = arange2(3, 4);
    Tensor *row = ten_select(x, 0, 1);                    /* x[1].fill_(2) */
    Tensor *two = ten_scalar_f_in(TC, 2);
    assert_int_equal(ten_copy_into(row, two), 0);
    for (int j = 0; j < 4; j++) assert_float_equal(ten_get(x, 4 + j), 2, 0);
    assert_float_equal(ten_get(x, 3), 3, 0);
    assert_float_equal(ten_get(x, 8), 8, 0);
    Tensor *t = ten_transpose(x, 0, 1);                   /* x.T[0, 2] = -1 changes x[2, 0] */
    IndexItem ij[2] = {{.kind = IX_INT, .i = 0}, {.kind = IX_INT, .i = 2}};
    Tensor *m1 = ten_scalar_f_in(TC, -1);
    assert_int_equal(ten_index_set(t, ij, 2, m1), 0);
    assert_float_equal(ten_get(x, 8), -1, 0);
    /* X.reshape(-1, 4)[mask] = 7 on a contiguous X changes X (§11.3's masked_softmax) */
    int64_t sh[2] = {-1, 4}, three = 3;
    Tensor *r = ten_reshape(x, 2, sh);
    Tensor *mask = ten_new_in(TC, DT_BOOL, 1, &three);
    ten_b8(mask)[2] = 1;
    IndexItem mi = {.kind = IX_TENSOR, .index = mask};
    Tensor *seven = ten_scalar_f_in(TC, 7);
    assert_int_equal(ten_index_set(r, &mi, 1, seven), 0);
    for (int j = 0; j < 4; j++) assert_float_equal(ten_get(x, 8 + j), 7, 0);
    ten_free(x); ten_free(row); ten_free(two); ten_free(t); ten_free(m1); ten_free(r); ten_free(mask); ten_free(seven);
}

static void test_write_checks(void **state) {
    (void)state;
    int64_t three = 3, sh23[2] = {2, 3};
    Tensor *z = ten_new_in(TC, DT_F32, 1, &three);
    Tensor *e = ten_expand(z, 2, sh23);                   /* zeros(3).expand(2, 3): stride (0, 1) */
    assert_strides(e, 2, (int64_t[]){0, 1});
    Tensor *one = ten_scalar_f_in(TC, 1);
    assert_int_equal(ten_copy_into(e, one), -1);          /* more than one element refers to one location */
    assert_non_null(strstr(ten_error(TC), "more than one element of the written-to tensor"));
    Tensor *x = ten_arange_in(TC, 0, 6, 1, DT_F32);
    Tensor *hi = ten_narrow(x, 0, 1, 5), *lo = ten_narrow(x, 0, 0, 5);
    assert_int_equal(ten_copy_into(hi, lo), -1);          /* x[1:] = x[:-1]: partial overlap, as PyTorch refuses */
    assert_non_null(strstr(ten_error(TC), "some elements of the input tensor and the written-to tensor"));
    /* in-place result rules: shape kept, no float into int */
    Tensor *i3 = ten_arange_in(TC, 0, 3, 1, DT_I64), *f3 = ten_arange_in(TC, 0, 3, 1, DT_F32);
    assert_int_equal(ten_assign_result(i3, f3), -1);
    assert_string_equal(ten_error(TC), "result type Float can't be cast to the desired output type Long");
    Tensor *big = ten_new_in(TC, DT_F32, 2, sh23);
    assert_int_equal(ten_assign_result(f3, big), -1);
    assert_string_equal(ten_error(TC), "output with shape [3] doesn't match the broadcast shape [2, 3]");
    ten_free(z); ten_free(e); ten_free(one); ten_free(x); ten_free(hi); ten_free(lo); ten_free(i3); ten_free(f3); ten_free(big);
}

static void test_storage_counted_once(void **state) {
    (void)state;
    int64_t before = ten_live_bytes(TC);
    int64_t n = 1000;
    Tensor *x = ten_new_in(TC, DT_F32, 1, &n);
    int64_t one = ten_live_bytes(TC) - before;
    assert_int_equal(one, 4000);
    Tensor *v1 = ten_narrow(x, 0, 10, 100), *v2 = ten_alias(x);
    int64_t sh[2] = {10, 100};
    Tensor *v3 = ten_reshape(x, 2, sh);
    assert_int_equal(ten_live_bytes(TC) - before, 4000);    /* views cost no tensor memory */
    ten_free(x);                                          /* the storage lives while views do */
    assert_int_equal(ten_live_bytes(TC) - before, 4000);
    assert_float_equal(ten_get(v1, 0), 0, 0);
    ten_free(v1); ten_free(v2);
    ten_free(v3);
    assert_int_equal(ten_live_bytes(TC), before);
}

static void test_diagonal_and_layout(void **state) {
    (void)state;
    Tensor *x = arange2(3, 4);
    Tensor *d1 = ten_diagonal(x, 1, 0, 1), *dm = ten_diagonal(x, -1, 0, 1);
    assert_int_equal(d1->shape[0], 3);                    /* x.diagonal(1) == [1, 6, 11], stride 5 */
    assert_float_equal(ten_get(d1, 2), 11, 0);
    assert_int_equal(d1->stride[0], 5);
    assert_int_equal(dm->shape[0], 2);                    /* x.diagonal(-1) == [4, 9] */
    assert_float_equal(ten_get(dm, 1), 9, 0);
    /* results keep the operand's memory order: (x.t() + 1).stride() == (1, 3) for a (2, 3) x; clone too */
    Tensor *y = arange2(2, 3), *yt = ten_transpose(y, 0, 1), *one = ten_scalar_f_in(TC, 1);
    Tensor *s = ten_binary(OP_ADD, yt, false, one, true), *c = ten_clone(yt), *e = ten_unary(UOP_EXP, yt);
    assert_strides(s, 2, (int64_t[]){1, 3});
    assert_strides(c, 2, (int64_t[]){1, 3});
    assert_strides(e, 2, (int64_t[]){1, 3});
    assert_float_equal(ten_get(s, 1), 4, 0);              /* (x.t() + 1)[0, 1] == x[1, 0] + 1 == 4 */
    /* ones(3, 2) * x.t() follows the first operand: (2, 1) */
    int64_t sh32[2] = {3, 2};
    Tensor *ones = ten_full_in(TC, DT_F32, 2, sh32, 1);
    Tensor *p = ten_binary(OP_MUL, ones, false, yt, false), *q = ten_binary(OP_MUL, yt, false, ones, false);
    assert_strides(p, 2, (int64_t[]){2, 1});
    assert_strides(q, 2, (int64_t[]){1, 3});
    ten_free(x); ten_free(d1); ten_free(dm); ten_free(y); ten_free(yt); ten_free(one); ten_free(s); ten_free(c); ten_free(e);
    ten_free(ones); ten_free(p); ten_free(q);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contiguous_strides),
        cmocka_unit_test(test_transpose_unsqueeze_strides),
        cmocka_unit_test(test_reshape_view_or_copy),
        cmocka_unit_test(test_index_views),
        cmocka_unit_test(test_write_through_views),
        cmocka_unit_test(test_write_checks),
        cmocka_unit_test(test_storage_counted_once),
        cmocka_unit_test(test_diagonal_and_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

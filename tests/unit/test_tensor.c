/* test_tensor.c - the tensor library against values worked out by hand and identities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tensor.h"
#include "tensor_internal.h"   /* ten_sgemm_wants_blas: whether OpenBLAS takes a product */
#include "parallel.h"
#include "strbuf.h"

/* The tensor context this file's tests make their tensors in and read failures from (the test owns it). */
static TenCtx *test_ctx(void) {
    static TenCtx *c;
    if (!c) c = ten_ctx_new();
    return c;
}
#define TC test_ctx()

static Tensor *vec_f(int n, const float *v) {
    int64_t s = n;
    Tensor *t = ten_new_in(TC, DT_F32, 1, &s);
    memcpy(t->data, v, sizeof(float) * (size_t)n);
    return t;
}

static char *repr(const Tensor *t) {
    StrBuf b;
    sb_init(&b);
    ten_repr(&b, t, NULL);
    return sb_take(&b);
}

static void test_broadcast_shape(void **state) {
    (void)state;
    int64_t a[2] = {3, 1}, b[1] = {4}, out[8];
    int n;
    assert_int_equal(ten_broadcast_shape_in(TC, a, 2, b, 1, out, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(out[0], 3);
    assert_int_equal(out[1], 4);
    int64_t c[1] = {5}, d[2] = {2, 3};
    assert_int_equal(ten_broadcast_shape_in(TC, d, 2, c, 1, out, &n), -1);
    assert_non_null(strstr(ten_error(TC), "(2, 3)"));
    assert_non_null(strstr(ten_error(TC), "(5,)"));
}

static void test_add_broadcast_values(void **state) {
    (void)state;
    /* (3,1) + (4,) -> out[i][j] = i*10 + j */
    int64_t s31[2] = {3, 1}, s4 = 4;
    Tensor *a = ten_new_in(TC, DT_F32, 2, s31), *b = ten_new_in(TC, DT_F32, 1, &s4);
    for (int i = 0; i < 3; i++) ten_f32(a)[i] = (float)(i * 10);
    for (int j = 0; j < 4; j++) ten_f32(b)[j] = (float)j;
    Tensor *c = ten_binary(OP_ADD, a, false, b, false);
    assert_non_null(c);
    assert_int_equal(c->ndim, 2);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) assert_float_equal(ten_f32(c)[i * 4 + j], i * 10 + j, 0);
    ten_free(a); ten_free(b); ten_free(c);
}

static void test_dtype_promotion(void **state) {
    (void)state;
    Tensor *i = ten_arange_in(TC, 0, 4, 1, DT_I64), *half = ten_scalar_f_in(TC, 0.5f), *two = ten_scalar_i_in(TC, 2);
    Tensor *r1 = ten_binary(OP_ADD, i, false, half, true);   /* int tensor + 0.5 -> float32 */
    Tensor *r2 = ten_binary(OP_MUL, i, false, two, true);    /* int tensor * 2 -> int64 */
    Tensor *r3 = ten_binary(OP_DIV, i, false, two, true);    /* int / int -> float32 (true division) */
    Tensor *r4 = ten_binary(OP_LT, i, false, two, true);     /* comparison -> bool */
    assert_int_equal(r1->dtype, DT_F32);
    assert_int_equal(r2->dtype, DT_I64);
    assert_int_equal(r3->dtype, DT_F32);
    assert_int_equal(r4->dtype, DT_BOOL);
    assert_float_equal(ten_f32(r1)[3], 3.5, 0);
    assert_int_equal(ten_i64(r2)[3], 6);
    assert_float_equal(ten_f32(r3)[3], 1.5, 0);
    assert_int_equal(ten_b8(r4)[1], 1);
    assert_int_equal(ten_b8(r4)[2], 0);
    Tensor *tens[] = {i, half, two, r1, r2, r3, r4};
    for (size_t k = 0; k < sizeof tens / sizeof *tens; k++) ten_free(tens[k]);
}

static void test_int_overflow_and_div_zero(void **state) {
    (void)state;
    Tensor *big = ten_scalar_i_in(TC, INT64_MAX), *one = ten_scalar_i_in(TC, 1), *zero = ten_scalar_i_in(TC, 0);
    assert_null(ten_binary(OP_ADD, big, false, one, true));
    assert_non_null(strstr(ten_error(TC), "overflow"));
    assert_null(ten_binary(OP_FLOORDIV, one, false, zero, false));
    assert_string_equal(ten_error(TC), "ZeroDivisionError");     /* PyTorch's message for integers */
    ten_free(big); ten_free(one); ten_free(zero);
}

static void test_floor_div_mod_python_semantics(void **state) {
    (void)state;
    Tensor *a = ten_scalar_i_in(TC, -7), *b = ten_scalar_i_in(TC, 2);
    Tensor *q = ten_binary(OP_FLOORDIV, a, false, b, false), *m = ten_binary(OP_MOD, a, false, b, false);
    assert_int_equal(ten_i64(q)[0], -4);   /* floor(-3.5) */
    assert_int_equal(ten_i64(m)[0], 1);    /* -7 = 2*(-4) + 1 */
    ten_free(a); ten_free(b); ten_free(q); ten_free(m);
}

static void test_slice_read(void **state) {
    (void)state;
    Tensor *t = ten_arange_in(TC, 0, 10, 1, DT_I64);
    IndexItem it = {.kind = IX_SLICE, .start = 1, .stop = 8, .step = 3, .has_start = true, .has_stop = true};
    Tensor *r = ten_index_get(t, &it, 1);
    assert_int_equal(r->numel, 3);
    assert_int_equal(ten_get_i64(r, 0), 1);
    assert_int_equal(ten_get_i64(r, 1), 4);
    assert_int_equal(ten_get_i64(r, 2), 7);
    /* a view: stride 3 from element 1 of the same storage */
    assert_true(ten_same_storage(r, t));
    assert_int_equal(r->stride[0], 3);
    assert_int_equal(r->offset, 1);
    assert_false(r->contiguous);
    IndexItem neg = {.kind = IX_INT, .i = -1};
    Tensor *last = ten_index_get(t, &neg, 1);
    assert_int_equal(last->ndim, 0);
    assert_int_equal(ten_i64(last)[0], 9);
    IndexItem oob = {.kind = IX_INT, .i = 10};
    assert_null(ten_index_get(t, &oob, 1));
    assert_non_null(strstr(ten_error(TC), "out of bounds"));
    ten_free(t); ten_free(r); ten_free(last);
}

/* P[:, 0::2] = 1 writes through to P, and only the even columns change. */
static void test_slice_assign(void **state) {
    (void)state;
    int64_t sh[2] = {3, 5};
    Tensor *P = ten_new_in(TC, DT_F32, 2, sh);
    IndexItem items[2] = {{.kind = IX_SLICE, .step = 1}, {.kind = IX_SLICE, .start = 0, .has_start = true, .step = 2}};
    Tensor *one = ten_scalar_f_in(TC, 1.0f);
    assert_int_equal(ten_index_set(P, items, 2, one), 0);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) assert_float_equal(ten_f32(P)[i * 5 + j], (j % 2 == 0) ? 1.0 : 0.0, 0);
    /* a wrong-shaped value is refused with both shapes named */
    int64_t s2 = 2;
    Tensor *bad = ten_new_in(TC, DT_F32, 1, &s2);
    assert_int_equal(ten_index_set(P, items, 2, bad), -1);
    assert_non_null(strstr(ten_error(TC), "(3, 3)"));
    ten_free(P); ten_free(one); ten_free(bad);
}

static void test_matmul_small_by_hand(void **state) {
    (void)state;
    float a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12};
    int64_t sa[2] = {2, 3}, sb[2] = {3, 2};
    Tensor *A = ten_new_in(TC, DT_F32, 2, sa), *B = ten_new_in(TC, DT_F32, 2, sb);
    memcpy(A->data, a, sizeof a);
    memcpy(B->data, b, sizeof b);
    Tensor *C = ten_matmul(A, B);
    /* [[1*7+2*9+3*11, 1*8+2*10+3*12], [4*7+5*9+6*11, 4*8+5*10+6*12]] */
    assert_float_equal(ten_f32(C)[0], 58, 0);
    assert_float_equal(ten_f32(C)[1], 64, 0);
    assert_float_equal(ten_f32(C)[2], 139, 0);
    assert_float_equal(ten_f32(C)[3], 154, 0);
    Tensor *bad = ten_matmul(A, A);
    assert_null(bad);
    assert_non_null(strstr(ten_error(TC), "(2, 3) and (2, 3)"));
    ten_free(A); ten_free(B); ten_free(C);
}

/* The BLAS path and the fixed-order loop agree (to float32 rounding) on a product above the threshold. */
static void test_matmul_blas_matches_loop(void **state) {
    (void)state;
    Rng g;
    rng_seed(&g, 7);
    int64_t sa[2] = {70, 90}, sb[2] = {90, 80};
    Tensor *A = ten_randn_in(TC, &g, 2, sa), *B = ten_randn_in(TC, &g, 2, sb);
    Tensor *C = ten_matmul(A, B);
    for (int i = 0; i < 70; i += 7)
        for (int j = 0; j < 80; j += 9) {
            double acc = 0;
            for (int k = 0; k < 90; k++) acc += (double)ten_f32(A)[i * 90 + k] * ten_f32(B)[k * 80 + j];
            assert_float_equal(ten_f32(C)[i * 80 + j], acc, 1e-4);
        }
    ten_free(A); ten_free(B); ten_free(C);
}

static void test_softmax_identities(void **state) {
    (void)state;
    float v[] = {1, 2, 3, 1000, 1000, 1000};
    int64_t sh[2] = {2, 3};
    Tensor *x = ten_new_in(TC, DT_F32, 2, sh);
    memcpy(x->data, v, sizeof v);
    Tensor *s = ten_softmax(x, -1);
    for (int r = 0; r < 2; r++) {
        double sum = 0;
        for (int c = 0; c < 3; c++) sum += ten_f32(s)[r * 3 + c];
        assert_float_equal(sum, 1.0, 1e-6);
    }
    /* exp(1)/(e+e^2+e^3) worked by hand: 0.0900306 */
    assert_float_equal(ten_f32(s)[0], 0.09003057, 1e-6);
    /* large equal inputs do not overflow: uniform */
    assert_float_equal(ten_f32(s)[3], 1.0 / 3, 1e-6);
    ten_free(x); ten_free(s);
}

static void test_reshape_permute(void **state) {
    (void)state;
    Tensor *t = ten_arange_in(TC, 0, 24, 1, DT_I64);
    int64_t sh[3] = {2, -1, 4};
    Tensor *r = ten_reshape(t, 3, sh);
    assert_int_equal(r->shape[1], 3);
    int64_t bad[2] = {5, -1};
    assert_null(ten_reshape(t, 2, bad));
    assert_non_null(strstr(ten_error(TC), "invalid for input of size 24"));
    int p[3] = {2, 0, 1}, q[3] = {1, 2, 0};
    Tensor *a = ten_permute(r, p), *b = ten_permute(a, q);
    assert_int_equal(a->shape[0], 4);
    assert_int_equal(a->shape[1], 2);
    /* element (i,j,k) of r is at (k,i,j) of a */
    assert_int_equal(ten_get_i64(a, 3 * 6 + 1 * 3 + 2), ten_get_i64(r, 1 * 12 + 2 * 4 + 3));
    /* permuting back gives r's layout again: a contiguous view of the same memory */
    assert_true(b->contiguous);
    assert_ptr_equal(b->data, r->data);
    ten_free(t); ten_free(r); ten_free(a); ten_free(b);
}

static void test_repeat_interleave_and_cat(void **state) {
    (void)state;
    Tensor *v = ten_arange_in(TC, 3, 1, -1, DT_I64);   /* [3, 2] */
    int64_t k = 2;
    Tensor *r = ten_repeat_interleave(v, &k, 1, 0, true);
    int64_t want[4] = {3, 3, 2, 2};
    assert_memory_equal(r->data, want, sizeof want);
    Tensor *parts[2] = {v, v};
    Tensor *c = ten_cat_in(TC, parts, 2, 0), *s = ten_stack_in(TC, parts, 2, 1);
    assert_int_equal(c->numel, 4);
    assert_int_equal(s->shape[0], 2);
    assert_int_equal(s->shape[1], 2);
    assert_int_equal(ten_i64(s)[1], 3);   /* stack along dim 1: [[3, 3], [2, 2]] */
    ten_free(v); ten_free(r); ten_free(c); ten_free(s);
}

static void test_reduce(void **state) {
    (void)state;
    Tensor *t = ten_arange_in(TC, 0, 6, 1, DT_F32);
    int64_t sh[2] = {2, 3};
    Tensor *m = ten_reshape(t, 2, sh);
    Tensor *s0 = ten_reduce(RED_SUM, m, false, 0, false), *am = ten_reduce(RED_ARGMAX, m, false, 1, true);
    assert_float_equal(ten_f32(s0)[2], 2 + 5, 0);
    assert_int_equal(am->ndim, 2);
    assert_int_equal(ten_i64(am)[1], 2);
    Tensor *mean = ten_reduce(RED_MEAN, m, true, 0, false);
    assert_float_equal(ten_f32(mean)[0], 2.5, 0);
    assert_null(ten_reduce(RED_SUM, m, false, 2, false));
    assert_non_null(strstr(ten_error(TC), "[-2, 1]"));
    ten_free(t); ten_free(m); ten_free(s0); ten_free(am); ten_free(mean);
}

/* Printed forms follow torch/_tensor_str.py: fixed 4 decimals, int mode "1.", sci mode past ratio 1000. */
static void test_printer(void **state) {
    (void)state;
    float a[] = {0.5f, 1.0f};
    Tensor *t = vec_f(2, a);
    char *s = repr(t);
    assert_string_equal(s, "tensor([0.5000, 1.0000])");
    free(s); ten_free(t);
    float b[] = {1, 2, 30};
    t = vec_f(3, b);
    s = repr(t);
    assert_string_equal(s, "tensor([ 1.,  2., 30.])");
    free(s); ten_free(t);
    float c[] = {0.00001f, 1.0f};
    t = vec_f(2, c);
    s = repr(t);
    assert_string_equal(s, "tensor([1.0000e-05, 1.0000e+00])");
    free(s); ten_free(t);
    float d[] = {-0.0f, 2.0f};
    t = vec_f(2, d);
    s = repr(t);
    assert_string_equal(s, "tensor([-0., 2.])");   /* the sign of zero, as PyTorch prints it */
    free(s); ten_free(t);
    t = ten_arange_in(TC, 0, 1001, 1, DT_I64);
    s = repr(t);
    assert_string_equal(s, "tensor([   0,    1,    2,  ...,  998,  999, 1000])");
    free(s); ten_free(t);
    t = ten_scalar_f_in(TC, 3.25f);
    s = repr(t);
    assert_string_equal(s, "tensor(3.2500)");
    free(s); ten_free(t);
    int64_t sh[2] = {2, 0};
    t = ten_new_in(TC, DT_F32, 2, sh);
    s = repr(t);
    assert_string_equal(s, "tensor([], size=(2, 0))");
    free(s); ten_free(t);
}

static void test_limits(void **state) {
    (void)state;
    int64_t sh[2] = {100000, 100000};
    assert_null(ten_new_in(TC, DT_F32, 2, sh));
    assert_non_null(strstr(ten_error(TC), "too large"));
    assert_null(ten_arange_in(TC, 0, 1e15, 1, DT_I64));
    assert_null(ten_arange_in(TC, 0, 1, 0, DT_I64));
    int64_t neg = -1;
    assert_null(ten_new_in(TC, DT_F32, 1, &neg));
}

/* Small tensors reuse freed handles and storages (tensor_create.c's free lists): a reused storage is zero-filled
 * by ten_new, views keep their storage alive, the live byte count returns to where it was, and same-shape
 * contiguous operands (one run in the loop engine) give the elementwise results worked by hand. */
static void test_small_tensor_reuse(void **state) {
    (void)state;
    int64_t before = ten_live_bytes(TC), s24[2] = {2, 4}, s8 = 8;
    for (int round = 0; round < 3; round++) {
        Tensor *ts[300];
        for (int k = 0; k < 300; k++) {
            ts[k] = ten_new_uninit_in(TC, DT_F32, 2, s24);
            for (int i = 0; i < 8; i++) ten_f32(ts[k])[i] = (float)(k + 7);
        }
        for (int k = 0; k < 300; k++) ten_free(ts[k]);
        Tensor *z = ten_new_in(TC, DT_F32, 2, s24), *d = ten_new_in(TC, DT_F64, 1, &s8);
        for (int i = 0; i < 8; i++) assert_float_equal(ten_f32(z)[i], 0, 0);
        for (int i = 0; i < 8; i++) assert_float_equal(ten_f64(d)[i], 0, 0);
        /* a view outlives its base: the storage is given back only with the last handle */
        Tensor *v = ten_transpose(z, 0, 1);
        ten_f32(z)[5] = 3.5f;
        ten_free(z);
        Tensor *other = ten_new_in(TC, DT_F32, 2, s24);
        assert_float_equal(ten_get(v, 1 * 2 + 1), 3.5, 0);        /* v[1][1] is z[1][1] */
        assert_float_equal(ten_f32(other)[5], 0, 0);
        /* x + y, x * y and x - y of same-shape contiguous operands: element by element */
        for (int i = 0; i < 8; i++) ten_f32(other)[i] = (float)i;
        Tensor *y = ten_new_in(TC, DT_F32, 2, s24);
        for (int i = 0; i < 8; i++) ten_f32(y)[i] = 0.5f * (float)(8 - i);
        Tensor *sum = ten_binary(OP_ADD, other, false, y, false), *prod = ten_binary(OP_MUL, other, false, y, false);
        Tensor *diff = ten_binary(OP_SUB, y, false, other, false);
        for (int i = 0; i < 8; i++) {
            assert_float_equal(ten_f32(sum)[i], i + 0.5 * (8 - i), 0);
            assert_float_equal(ten_f32(prod)[i], i * 0.5 * (8 - i), 0);
            assert_float_equal(ten_f32(diff)[i], 0.5 * (8 - i) - i, 0);
        }
        ten_free(v); ten_free(other); ten_free(d); ten_free(y); ten_free(sum); ten_free(prod); ten_free(diff);
        assert_int_equal(ten_live_bytes(TC), before);
    }
    ten_release_cache(TC);
}

/* ten_set_data (X.data = T): the handle stays, with T's storage, shape and dtype; a view of the old data keeps it;
 * the old storage goes with its last view. */
static void test_set_data(void **state) {
    (void)state;
    int64_t s23[2] = {2, 3}, s4[1] = {4};
    int64_t live0 = ten_live_bytes(TC);
    Tensor *x = ten_full_in(TC, DT_F32, 2, s23, 1.0), *t = ten_full_in(TC, DT_F64, 1, s4, 2.0);
    Tensor *keep = ten_alias(x), *h = x;
    assert_int_equal(ten_set_data(x, t), 0);
    assert_ptr_equal(x, h);
    assert_int_equal(x->dtype, DT_F64);
    assert_int_equal(x->ndim, 1);
    assert_int_equal(x->numel, 4);
    assert_true(ten_same_storage(x, t));
    assert_true(ten_get(x, 3) == 2.0);
    assert_int_equal(keep->numel, 6);
    assert_true(ten_get(keep, 5) == 1.0);
    ten_free(t);
    assert_true(ten_get(x, 0) == 2.0);           /* x holds the storage now */
    ten_free(keep);
    ten_free(x);
    assert_int_equal(ten_live_bytes(TC), live0);
}

/* Two contexts (tensor.h's TenCtx, issue 28) keep separate errors, limits, default dtypes, thread counts and byte
 * counts; a factory makes its tensor in the context it is given, a kernel in its input's and fails there, whichever
 * context was used last; a tensor counts against the context it was made in and keeps that context alive after its
 * owner lets go (ASan sees any use after free). */
static void test_contexts_separate(void **state) {
    (void)state;
    TenCtx *a = ten_ctx_new(), *b = ten_ctx_new();
    int64_t s200 = 200, s10 = 10;
    a->limit_numel = 100;
    a->default_float = DT_F64;
    ten_set_threads(a, 1);
    assert_null(ten_new_in(a, DT_F32, 1, &s200));
    assert_non_null(strstr(ten_error(a), "at most 100 elements"));
    assert_string_equal(ten_error(b), "");
    Tensor *i3 = ten_arange_in(a, 0, 3, 1, DT_I64), *half = ten_scalar_d_in(a, 0.5);
    assert_int_equal(ten_result_type(i3, false, half, true), DT_F64);    /* int64 + Python float: the default */
    Tensor *in_a = ten_new_in(a, DT_F32, 1, &s10);
    assert_int_equal(a->live_bytes, 40 + 24 + 8);

    assert_int_equal(b->default_float, DT_F32);
    Tensor *i3b = ten_arange_in(b, 0, 3, 1, DT_I64);
    assert_int_equal(ten_result_type(i3b, false, half, true), DT_F32);  /* b's tensor: b's default */
    assert_int_equal(ten_result_type(i3, false, half, true), DT_F64);   /* a's tensor: a's default */
    ten_set_threads(b, 2);
    assert_int_equal(ten_threads(b), 2);
    Tensor *big = ten_new_in(b, DT_F32, 1, &s200);                      /* b's limit is the default */
    assert_non_null(big);
    assert_int_equal(ten_live_bytes(b), 800 + 24);
    ten_fail_in(b, "b's own failure");
    ten_free(in_a);                                                      /* back to a's count, not b's */
    assert_int_equal(ten_live_bytes(b), 800 + 24);
    assert_int_equal(a->live_bytes, 24 + 8);
    /* a kernel's result goes to its input's context and takes its default dtype: sin of a's int64 is float64 */
    Tensor *s = ten_unary(UOP_SIN, i3);
    assert_ptr_equal(ten_ctx_of(s), a);
    assert_int_equal(s->dtype, DT_F64);
    assert_int_equal(a->live_bytes, 24 + 8 + 24);
    ten_free(s);
    /* a kernel fails on its input's context after b's last use: a's error changes, b's stays its own */
    assert_null(ten_matmul(i3, big));                                   /* (3,) @ (200,) */
    assert_true(ten_error(a)[0] && !strstr(ten_error(a), "at most 100"));
    assert_string_equal(ten_error(b), "b's own failure");
    assert_int_equal(ten_error_kind(b), TEN_ERR_FAILED);
    ten_fail_interrupted(a);
    assert_int_equal(ten_error_kind(a), TEN_ERR_INTERRUPTED);
    assert_int_equal(ten_error_kind(b), TEN_ERR_FAILED);
    ten_free(i3b);

    assert_int_equal(ten_threads(a), 1);
    ten_ctx_free(a);                       /* a lives on in i3 and half's storages */
    ten_free(i3);
    ten_free(half);
    ten_free(big);
    assert_int_equal(ten_live_bytes(b), 0);
    ten_ctx_free(b);
}

/* A new context takes its byte limit from $ATTN_MEMORY_LIMIT when that is a size (so a nested session keeps it;
 * there is no process-wide context to copy), else 6 GiB; ten_parse_bytes reads the sizes main accepts. */
static void test_context_memory_limit(void **state) {
    (void)state;
    const char *was = getenv("ATTN_MEMORY_LIMIT");
    char *keep = was ? strdup(was) : NULL;
    int64_t bytes = 0;
    assert_true(ten_parse_bytes("512M", &bytes));
    assert_int_equal(bytes, (int64_t)512 << 20);
    assert_true(ten_parse_bytes("1.5k", &bytes));
    assert_int_equal(bytes, 1536);
    assert_false(ten_parse_bytes("lots", &bytes));
    assert_false(ten_parse_bytes("100", &bytes));                  /* under 1 KiB */
    assert_false(ten_parse_bytes("2GB", &bytes));
    setenv("ATTN_MEMORY_LIMIT", "12345678", 1);
    TenCtx *c = ten_ctx_new();
    assert_int_equal(c->limit_bytes, 12345678);
    assert_int_equal(c->limit_numel, (int64_t)1 << 28);
    assert_int_equal(c->default_float, DT_F32);
    ten_ctx_free(c);
    setenv("ATTN_MEMORY_LIMIT", "2G", 1);
    c = ten_ctx_new();
    assert_int_equal(c->limit_bytes, (int64_t)2 << 30);
    ten_ctx_free(c);
    unsetenv("ATTN_MEMORY_LIMIT");
    c = ten_ctx_new();
    assert_int_equal(c->limit_bytes, (int64_t)6 << 30);
    ten_ctx_free(c);
    if (keep) setenv("ATTN_MEMORY_LIMIT", keep, 1);
    free(keep);
}

/* A nested context (a lesson started at the REPL, ten_ctx_nest) shares its outer one's budget: 1 MiB limit, the
 * outer holding 600 KiB of tensors and 200 KiB of values: a 300 KiB tensor, which fits the limit alone, is refused
 * with a message that says what the outer run holds; 100 KiB fits; nesting again counts both outer runs. */
static void test_context_nested_budget(void **state) {
    (void)state;
    TenCtx *outer = ten_ctx_new(), *inner = ten_ctx_new(), *third = ten_ctx_new();
    outer->limit_bytes = (int64_t)1 << 20;
    int64_t big[1] = {600 * 256};                           /* 600 KiB of float32 */
    Tensor *held = ten_new_in(outer, DT_F32, 1, big);
    assert_non_null(held);
    ten_ctx_nest(inner, outer, 200 << 10);
    assert_int_equal(inner->limit_bytes, (int64_t)1 << 20);
    assert_int_equal(inner->held_outside, (int64_t)800 << 10);
    assert_int_equal(ten_room(inner), (int64_t)224 << 10);
    int64_t mid[1] = {300 * 256}, small[1] = {100 * 256};
    third->limit_bytes = (int64_t)1 << 20;
    Tensor *alone = ten_new_in(third, DT_F32, 1, mid);      /* the reference: 300 KiB fits a fresh 1 MiB context */
    assert_non_null(alone);
    ten_free(alone);
    assert_null(ten_new_in(inner, DT_F32, 1, mid));
    assert_non_null(strstr(ten_error(inner), "the session this one was started from holds 800.0 KiB of it"));
    Tensor *fits = ten_new_in(inner, DT_F32, 1, small);
    assert_non_null(fits);
    TenCtx *deeper = ten_ctx_new();
    ten_ctx_nest(deeper, inner, 0);
    assert_int_equal(deeper->held_outside, (int64_t)900 << 10);
    assert_int_equal(ten_room(deeper), (int64_t)124 << 10);
    assert_null(ten_new_in(deeper, DT_F32, 1, mid));
    ten_free(fits);
    ten_free(held);
    ten_ctx_free(deeper);
    ten_ctx_free(third);
    ten_ctx_free(inner);
    ten_ctx_free(outer);
}

/* Counts the ranges par_for hands out (each call of the loop body is one range). */
static void count_ranges(void *arg, int64_t begin, int64_t end) {
    (void)begin; (void)end;
    atomic_fetch_add((atomic_int *)arg, 1);
}

/* (m, k) @ (k, n) as attn's fixed-order loop defines it (tensor.h, ten_sgemm): each element the float products
 * added in order p = 0, 1, ... in double, rounded to float once. */
static float loop_product(const float *A, const float *B, int64_t i, int64_t j, int64_t n, int64_t k) {
    double acc = 0;
    for (int64_t p = 0; p < k; p++) acc += (double)A[i * k + p] * (double)B[p * n + j];
    return (float)acc;
}

/* Issue 28 step 2d: par_for and the products take their context's thread count and BLAS threshold, not the last one
 * installed. Two contexts in one process, a with 1 thread and every product through BLAS, b with 3 threads and
 * none, used in turn: a loop on a runs as one range and on b as several (par_for's four ranges per thread); a
 * product of b's tensors has the fixed-order loop's digits (checked against the formula), one of a's tensors
 * OpenBLAS's (which differ from the formula somewhere in a (48, 256) @ (256, 48)), and a's again after b's. */
static void test_contexts_own_threads_and_products(void **state) {
    (void)state;
    TenCtx *a = ten_ctx_new(), *b = ten_ctx_new();
    ten_set_threads(a, 1);
    ten_set_blas_threshold(a, 0);
    ten_set_threads(b, 3);
    ten_set_blas_threshold(b, INT64_MAX);
    ten_set_attention_block(b, 32);
    assert_int_equal(ten_threads(a), 1);
    assert_int_equal(ten_threads(b), 3);
    assert_int_equal(a->attention_block, 0);
    atomic_int ranges_a = 0, ranges_b = 0;
    par_for(b, 1200, 1, count_ranges, &ranges_b);
    par_for(a, 1200, 1, count_ranges, &ranges_a);
    assert_int_equal(atomic_load(&ranges_a), 1);
    assert_int_equal(atomic_load(&ranges_b), 12);           /* 1200 items, 4 ranges for each of 3 threads */

    int64_t m = 48, k = 256, n = 48, sa[2] = {48, 256}, sb[2] = {256, 48};
    Tensor *xa = ten_new_in(a, DT_F32, 2, sa), *wa = ten_new_in(a, DT_F32, 2, sb);
    Tensor *xb = ten_new_in(b, DT_F32, 2, sa), *wb = ten_new_in(b, DT_F32, 2, sb);
    uint32_t seed = 7;
    for (int64_t i = 0; i < m * k; i++) {
        seed = seed * 1664525u + 1013904223u;
        ten_f32(xa)[i] = ten_f32(xb)[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
        seed = seed * 1664525u + 1013904223u;
        ten_f32(wa)[i] = ten_f32(wb)[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
    }
    Tensor *pa = ten_matmul(xa, wa), *pb = ten_matmul(xb, wb), *pa2 = ten_matmul(xa, wa);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_non_null(pa2);
    int64_t differ = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float want = loop_product(ten_f32(xb), ten_f32(wb), i, j, n, k);
            assert_true(ten_f32(pb)[i * n + j] == want);      /* b: the fixed-order loop, every element */
            differ += ten_f32(pa)[i * n + j] != want;
            assert_true(ten_f32(pa2)[i * n + j] == ten_f32(pa)[i * n + j]);
        }
    if (ten_sgemm_wants_blas(a, m, n, k)) assert_true(differ > 0);   /* a: OpenBLAS's sums (when it is there) */
    else assert_int_equal(differ, 0);
    /* ten_sgemm on raw buffers takes the context it is given the same way */
    float *out = malloc(sizeof(float) * (size_t)(m * n));
    ten_sgemm(b, ten_f32(xb), ten_f32(wb), out, m, n, k, false);
    assert_memory_equal(out, ten_f32(pb), sizeof(float) * (size_t)(m * n));
    ten_sgemm(a, ten_f32(xa), ten_f32(wa), out, m, n, k, false);
    assert_memory_equal(out, ten_f32(pa), sizeof(float) * (size_t)(m * n));
    free(out);
    ten_free(pa); ten_free(pb); ten_free(pa2);
    ten_free(xa); ten_free(wa); ten_free(xb); ten_free(wb);
    ten_ctx_free(a);
    ten_ctx_free(b);
}

/* The context's error is the record the layers above use (attnerr.h): a failure's kind and message, an interruption
 * its own kind; a message is cut at TEN_ERR_MAX - 1 bytes as the 512-byte buffer before it cut it; the record
 * itself keeps a 1,000-character path whole and takes NULL. */
static void test_error_record(void **state) {
    (void)state;
    TenCtx *c = ten_ctx_new();
    char longname[1000];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    ten_fail_in(c, "cannot read %s", longname);
    assert_int_equal(ten_error_kind(c), TEN_ERR_FAILED);
    assert_int_equal(c->err.kind, ERR_ERROR);
    assert_int_equal((int)strlen(ten_error(c)), TEN_ERR_MAX - 1);
    assert_int_equal(strncmp(ten_error(c), "cannot read xxx", 15), 0);
    ten_fail_interrupted(c);
    assert_int_equal(ten_error_kind(c), TEN_ERR_INTERRUPTED);
    assert_int_equal(c->err.kind, ERR_INTERRUPT);
    assert_string_equal(ten_error(c), "interrupted");
    ten_ctx_free(c);
    AttnError e;
    err_set(&e, "cannot read %s", longname);
    assert_int_equal((int)strlen(err_msg(&e)), 12 + 999);
    err_clear(&e);
    assert_int_equal(e.kind, ERR_NONE);
    assert_string_equal(err_msg(&e), "");
    err_set(NULL, "nowhere %d", 1);                    /* a caller that does not want the message */
    assert_string_equal(err_msg(NULL), "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broadcast_shape),
        cmocka_unit_test(test_add_broadcast_values),
        cmocka_unit_test(test_dtype_promotion),
        cmocka_unit_test(test_int_overflow_and_div_zero),
        cmocka_unit_test(test_floor_div_mod_python_semantics),
        cmocka_unit_test(test_slice_read),
        cmocka_unit_test(test_slice_assign),
        cmocka_unit_test(test_matmul_small_by_hand),
        cmocka_unit_test(test_matmul_blas_matches_loop),
        cmocka_unit_test(test_softmax_identities),
        cmocka_unit_test(test_reshape_permute),
        cmocka_unit_test(test_repeat_interleave_and_cat),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_printer),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_context_nested_budget),
        cmocka_unit_test(test_small_tensor_reuse),
        cmocka_unit_test(test_contexts_separate),
        cmocka_unit_test(test_contexts_own_threads_and_products),
        cmocka_unit_test(test_context_memory_limit),
        cmocka_unit_test(test_set_data),
        cmocka_unit_test(test_error_record),
    };
    return cmocka_run_group_tests_name("tensor", tests, NULL, NULL);
}

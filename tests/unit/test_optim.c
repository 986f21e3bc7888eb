/* test_optim.c - the optimizer steps of the tensor library (ten_sgd_step, ten_adam_step) give PyTorch 1.13's float32
 * parameters to the bit: 3 steps of SGD (momentum, dampening, weight decay; Nesterov, maximize), Adam (weight
 * decay; amsgrad) and AdamW from the same start and grads as PyTorch's, whose results are the WANT_ arrays below
 * (written by torch.optim on a CPU with FMA: torch.manual_seed(3); p0 = torch.randn(8); three torch.randn(8)
 * grads). The inputs tell the fused arithmetic from the unfused: the same SGD with each product rounded before its
 * add ends elsewhere. A strided or mismatched tensor is refused with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "tensor.h"

/* The tensor context this file's tests make their tensors in and read failures from (the test owns it). */
static TenCtx *test_ctx(void) {
    static TenCtx *c;
    if (!c) c = ten_ctx_new();
    return c;
}
#define TC test_ctx()

static const float P0[8] = {0x1.9b47000000000p-1, 0x1.660f0c0000000p-3, 0x1.6c744c0000000p-4, -0x1.3a39400000000p-1, 0x1.7a539e0000000p-5, -0x1.5e463c0000000p+0, 0x1.5998500000000p-2, 0x1.02d87e0000000p+0};
static const float G[3][8] = {{-0x1.6f67ea0000000p+0, 0x1.f471f00000000p-1, 0x1.0b4a220000000p-1, 0x1.3ce81c0000000p+0, -0x1.bab1840000000p-1, 0x1.3222ca0000000p-2, 0x1.ad47a80000000p-2, -0x1.4715540000000p-4}, {0x1.da52860000000p-1, 0x1.a1a07c0000000p-1, 0x1.fb12d40000000p-2, -0x1.50856c0000000p-3, -0x1.5b1ddc0000000p-1, -0x1.0f21aa0000000p+0, 0x1.7ed2180000000p-1, 0x1.e94d880000000p-3}, {-0x1.918fd40000000p-2, 0x1.371f280000000p-3, -0x1.2f09240000000p+0, 0x1.1197ba0000000p-1, -0x1.73763a0000000p+0, -0x1.423d500000000p-1, 0x1.3c3dfc0000000p-3, -0x1.fbe2440000000p-3}};
static const float WANT_SGD[8] = {0x1.107c9a0000000p+0, -0x1.f32a3e0000000p-3, -0x1.fa27420000000p-6, -0x1.ee58080000000p-1, 0x1.0d87bc0000000p-1, -0x1.3448dc0000000p+0, 0x1.49e7aa0000000p-4, 0x1.0243320000000p+0};   /* torch.optim.SGD(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01), 3 steps */
static const float WANT_NESTEROV[8] = {0x1.11f47a0000000p-1, 0x1.6125c20000000p-1, 0x1.34ec540000000p-3, -0x1.899cb20000000p-3, -0x1.4575dc0000000p-1, -0x1.a6d6d20000000p+0, 0x1.57cc600000000p-1, 0x1.004eae0000000p+0};   /* torch.optim.SGD(lr=0.1, momentum=0.8, nesterov=True, maximize=True), 3 steps */
static const float WANT_ADAM[8] = {0x1.dc3b480000000p-1, -0x1.b8f44a0000000p-4, -0x1.89c8a80000000p-4, -0x1.a621140000000p-1, 0x1.5dd6460000000p-2, -0x1.53b16c0000000p+0, 0x1.b2b4500000000p-5, 0x1.9d068e0000000p-1};   /* torch.optim.Adam(lr=0.1, weight_decay=0.1), 3 steps */
static const float WANT_AMSGRAD[8] = {0x1.bd6a200000000p-1, 0x1.255eaa0000000p-5, 0x1.798d000000000p-11, -0x1.7134580000000p-1, 0x1.8ed5aa0000000p-3, -0x1.5a64e40000000p+0, 0x1.91fccc0000000p-3, 0x1.0b70da0000000p+0};   /* torch.optim.Adam(lr=0.05, betas=(0.8, 0.99), eps=1e-6, amsgrad=True), 3 steps */
static const float WANT_ADAMW[8] = {0x1.a408520000000p-1, -0x1.e413fe0000000p-4, -0x1.8216d80000000p-4, -0x1.78a3380000000p-1, 0x1.48355c0000000p-2, -0x1.2521460000000p+0, 0x1.52e9280000000p-6, 0x1.db19100000000p-1};   /* torch.optim.AdamW(lr=0.1, weight_decay=0.5), 3 steps */

static Tensor *vec(const float *x) {
    Tensor *t = ten_new_in(TC, DT_F32, 1, (int64_t[]){8});
    memcpy(ten_f32(t), x, 8 * sizeof(float));
    return t;
}

/* The bits of t's 8 elements equal want's (NaN never expected here). */
static void assert_bits(const Tensor *t, const float *want) {
    for (int i = 0; i < 8; i++) {
        uint32_t a, b;
        float x = ten_f32(t)[i];
        memcpy(&a, &x, 4);
        memcpy(&b, &want[i], 4);
        if (a != b) print_error("element %d: %a, PyTorch %a\n", i, (double)x, (double)want[i]);
        assert_int_equal(a, b);
    }
}

static void run_sgd(const TenSgdOpts *o, const float *want) {
    Tensor *p = vec(P0), *buf = o->momentum != 0 ? ten_new_in(TC, DT_F32, 1, (int64_t[]){8}) : NULL;
    for (int s = 0; s < 3; s++) {
        Tensor *g = vec(G[s]);
        assert_int_equal(ten_sgd_step(p, g, buf, s == 0, o), 0);
        ten_free(g);
    }
    assert_bits(p, want);
    ten_free(p);
    ten_free(buf);
}

static void test_sgd_momentum(void **state) {
    (void)state;
    run_sgd(&(TenSgdOpts){.lr = 0.1, .momentum = 0.9, .dampening = 0.1, .weight_decay = 0.01, .nesterov = false, .maximize = false}, WANT_SGD);
}

static void test_sgd_nesterov_maximize(void **state) {
    (void)state;
    run_sgd(&(TenSgdOpts){.lr = 0.1, .momentum = 0.8, .dampening = 0, .weight_decay = 0, .nesterov = true, .maximize = true}, WANT_NESTEROV);
}

/* The same SGD with every product rounded before its sum (what a CPU without FMA does): not PyTorch's bits here. */
static void test_inputs_tell_fused_from_unfused(void **state) {
    (void)state;
    float p[8], buf[8];
    memcpy(p, P0, sizeof p);
    volatile float t;                    /* rounds the product: no contraction into an fma */
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < 8; i++) {
            t = p[i] * 0.01f;
            float d = G[s][i] + t;
            if (s == 0) buf[i] = d;
            else { float b = buf[i] * 0.9f; t = d * 0.9f; buf[i] = b + t; }
            t = buf[i] * -0.1f;
            p[i] = p[i] + t;
        }
    int same = 0;
    for (int i = 0; i < 8; i++) same += memcmp(&p[i], &WANT_SGD[i], 4) == 0;
    assert_true(same < 8);
}

static void run_adam(const TenAdamOpts *base, bool ams, const float *want) {
    Tensor *p = vec(P0), *m = ten_new_in(TC, DT_F32, 1, (int64_t[]){8}), *v = ten_new_in(TC, DT_F32, 1, (int64_t[]){8});
    Tensor *mx = ams ? ten_new_in(TC, DT_F32, 1, (int64_t[]){8}) : NULL;
    for (int s = 0; s < 3; s++) {
        Tensor *g = vec(G[s]);
        TenAdamOpts o = *base;
        o.step = s + 1;
        assert_int_equal(ten_adam_step(p, g, m, v, mx, &o), 0);
        ten_free(g);
    }
    assert_bits(p, want);
    ten_free(p);
    ten_free(m);
    ten_free(v);
    ten_free(mx);
}

static void test_adam_weight_decay(void **state) {
    (void)state;
    run_adam(&(TenAdamOpts){.lr = 0.1, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8, .weight_decay = 0.1, .step = 0, .decoupled = false, .maximize = false}, false, WANT_ADAM);
}

static void test_adam_amsgrad(void **state) {
    (void)state;
    run_adam(&(TenAdamOpts){.lr = 0.05, .beta1 = 0.8, .beta2 = 0.99, .eps = 1e-6, .weight_decay = 0, .step = 0, .decoupled = false, .maximize = false}, true, WANT_AMSGRAD);
}

static void test_adamw(void **state) {
    (void)state;
    run_adam(&(TenAdamOpts){.lr = 0.1, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8, .weight_decay = 0.5, .step = 0, .decoupled = true, .maximize = false}, false, WANT_ADAMW);
}

/* A strided parameter, or a grad of another shape or dtype, is refused with a message (the builtin copies first). */
static void test_refuses_mismatch(void **state) {
    (void)state;
    Tensor *p = ten_new_in(TC, DT_F32, 2, (int64_t[]){2, 3}), *pt = ten_transpose(p, 0, 1), *g = ten_new_in(TC, DT_F32, 2, (int64_t[]){3, 2});
    Tensor *g64 = ten_new_in(TC, DT_F64, 2, (int64_t[]){2, 3});
    TenSgdOpts o = {.lr = 0.1, .momentum = 0, .dampening = 0, .weight_decay = 0, .nesterov = false, .maximize = false};
    assert_int_equal(ten_sgd_step(pt, g, NULL, false, &o), -1);
    assert_non_null(strstr(ten_error(TC), "contiguous"));
    assert_int_equal(ten_sgd_step(p, g, NULL, false, &o), -1);
    assert_int_equal(ten_sgd_step(p, g64, NULL, false, &o), -1);
    ten_free(p);
    ten_free(pt);
    ten_free(g);
    ten_free(g64);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgd_momentum),
        cmocka_unit_test(test_sgd_nesterov_maximize),
        cmocka_unit_test(test_inputs_tell_fused_from_unfused),
        cmocka_unit_test(test_adam_weight_decay),
        cmocka_unit_test(test_adam_amsgrad),
        cmocka_unit_test(test_adamw),
        cmocka_unit_test(test_refuses_mismatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

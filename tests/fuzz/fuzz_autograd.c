/* fuzz_autograd.c - any bytes as a program of autograd steps on a pool of small tensors: ops (which may refuse),
 * in-place writes through views, backward (with or without retain_graph, twice), autograd.grad, no_grad, retain_grad,
 * zero_grad, dropping values in any order. Every step gives a result or a clear error; everything is freed
 * (LeakSanitizer checks the graph's ownership). */
#include <math.h>
#include "fuzz_common.h"
#include "autograd.h"

#define POOL 8

typedef struct Prog { const uint8_t *p; size_t n, i; } Prog;
static int next_byte(Prog *g) { return g->i < g->n ? g->p[g->i++] : -1; }

static void put(AgVal *pool, int *k, AgVal v) {
    if (!v.t) return;                   /* a refusal: ten_error(tc) says why */
    int slot = *k % POOL;
    ag_val_free(pool[slot]);
    pool[slot] = v;
    (*k)++;
}

static AgVal leaf(TenCtx *tc, Rng *r, int ndim, const int64_t *shape, bool rg) {
    AgVal v = {ten_uniform_in(tc, r, DT_F32, ndim, shape, -2, 2), ag_meta_new(rg)};
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Prog g = {data, size, 0};
    Rng r;
    rng_seed(&r, 1);
    TenCtx *tc = ten_ctx_new();         /* this input's tensors and errors, freed with its last tensor */
    fuzz_limits(tc);
    AgContext c;
    ag_context_init(&c, tc);
    AgVal pool[POOL];
    memset(pool, 0, sizeof pool);
    int k = 0;
    put(pool, &k, leaf(tc, &r, 2, (int64_t[]){2, 3}, true));
    put(pool, &k, leaf(tc, &r, 1, (int64_t[]){3}, true));
    put(pool, &k, leaf(tc, &r, 2, (int64_t[]){3, 2}, false));
    put(pool, &k, leaf(tc, &r, 3, (int64_t[]){2, 2, 3}, true));
    for (int steps = 0; steps < 200; steps++) {
        int op = next_byte(&g), a = next_byte(&g), b = next_byte(&g);
        if (op < 0 || a < 0 || b < 0) break;
        AgVal x = pool[a % POOL], y = pool[b % POOL];
        if (!x.t || !y.t) continue;
        int d = b % 4 - 2;
        switch (op % 36) {
        case 0: put(pool, &k, ag_binary(&c, (BinOp)(b % 4), x, false, y, false)); break;
        case 1: {
            AgVal s = {ten_scalar_d_in(tc, (double)(b % 7) - 3), NULL};
            put(pool, &k, ag_binary(&c, (BinOp)(a % 4), s, true, x, false));
            ag_val_free(s);
            break;
        }
        case 2: {
            static const UnOp u[] = {UOP_NEG, UOP_EXP, UOP_LOG, UOP_SQRT, UOP_SIN, UOP_COS, UOP_TANH, UOP_SIGMOID,
                                     UOP_RELU};
            put(pool, &k, ag_unary(&c, u[b % 9], x));
            break;
        }
        case 3: put(pool, &k, b & 1 ? ag_sum(&c, x) : ag_mean(&c, x)); break;
        case 4: put(pool, &k, ag_sum_dims(&c, x, &d, 1, b & 4)); break;
        case 5: put(pool, &k, ag_matmul(&c, x, y)); break;
        case 6: put(pool, &k, ag_transpose(&c, x, d, b % 3 - 1)); break;
        case 7: put(pool, &k, ag_reshape(&c, x, 1, (int64_t[]){-1})); break;
        case 8: put(pool, &k, ag_softmax(&c, x, d)); break;
        case 9: put(pool, &k, ag_log_softmax(&c, x, d)); break;
        case 10: put(pool, &k, ag_pow_scalar(&c, x, (double)(b % 5) - 1)); break;
        case 11: put(pool, &k, ag_unsqueeze(&c, x, d)); break;
        case 12: put(pool, &k, ag_select(&c, x, 0, d)); break;
        case 13: put(pool, &k, ag_slice(&c, x, d, b % 3 - 1, 2, 1 + b % 2, true, true)); break;
        case 14: {
            AgVal two[2] = {x, y};
            put(pool, &k, b & 1 ? ag_stack(&c, two, 2, 0) : ag_cat(&c, two, 2, d));
            break;
        }
        case 15: {                      /* x.masked_fill_(x > 0, b) on the pool's own handle */
            Tensor *z = ten_scalar_d_in(tc, 0.0), *m = z ? ten_binary(OP_GT, x.t, false, z, true) : NULL;
            if (m) ag_masked_fill_(&c, pool[a % POOL].t, &pool[a % POOL].m, m, (double)b);
            ten_free(m);
            ten_free(z);
            break;
        }
        case 16: {                      /* x[0] = y or x[1:] = y */
            IndexItem it = {.kind = b & 1 ? IX_INT : IX_SLICE, .i = 0, .start = 1, .stop = 0, .step = 1,
                            .has_start = true, .has_stop = false, .index = NULL};
            ag_index_put_(&c, pool[a % POOL].t, &pool[a % POOL].m, &it, 1, y, false);
            break;
        }
        case 17: c.grad_enabled = !c.grad_enabled; break;
        case 18: ag_backward(&c, 1, &x, NULL, b & 1); break;
        case 19: {
            AgVal s = ag_sum(&c, x);
            if (s.t) ag_backward(&c, 1, &s, NULL, b & 1);
            ag_val_free(s);
            break;
        }
        case 20: {
            AgVal s = ag_sum(&c, x);
            Tensor *res[1] = {NULL};
            if (s.t && ag_grad(&c, 1, &s, NULL, 1, &y, res, b & 1, b & 2) == 0) ten_free(res[0]);
            ag_val_free(s);
            break;
        }
        case 21: if (b & 1) ag_retain_grad(&c, x.m); else ag_zero_grad(x.m); break;
        case 22: ag_val_free(pool[a % POOL]); pool[a % POOL] = (AgVal){NULL, NULL}; break;
        case 24: {                      /* x.mul_(y) / x.exp_() / x.sigmoid_() as the language runs them */
            AgVal *px = &pool[a % POOL], cp = {ten_copy(px->t), px->m};
            AgVal r = b & 1 ? ag_binary(&c, OP_MUL, cp, false, y, false) : ag_unary(&c, b & 2 ? UOP_EXP : UOP_SIGMOID, cp);
            if (r.t && ag_inplace_check(&c, px->m) == 0) ag_inplace_assign(&c, px->t, &px->m, r);
            ag_val_free(r);
            ten_free(cp.t);
            break;
        }
        case 25: {                      /* x.copy_(y), x.fill_(y.sum()), x.zero_() */
            AgVal *px = &pool[a % POOL];
            AgVal v = b % 3 == 1 ? ag_sum(&c, y) : y;
            Tensor *z = ten_scalar_d_in(tc, 0.0);
            if (v.t && z && ag_inplace_check(&c, px->m) == 0 && ten_copy_into(px->t, b % 3 == 2 ? z : v.t) == 0) {
                static const char *const names[] = {"CopyBackwards", "FillBackward3", "ZeroBackward0"};
                ag_write_record(&c, px->t, &px->m, names[b % 3], b % 3 == 2 ? 1 : 2, b % 3 == 2 ? (AgVal){NULL, NULL} : v);
            }
            ten_free(z);
            if (b % 3 == 1) ag_val_free(v);
            break;
        }
        case 26: {                      /* x.masked_fill(x > 0, y.sum()) */
            AgVal v = ag_sum(&c, y);
            Tensor *z = ten_scalar_d_in(tc, 0.0), *m = z ? ten_binary(OP_GT, x.t, false, z, true) : NULL;
            if (m && v.t) put(pool, &k, ag_masked_fill_tensor(&c, x, m, v));
            ten_free(m);
            ten_free(z);
            ag_val_free(v);
            break;
        }
        case 27: {                      /* z[0] of a tensor under grad mode: the view knows its base */
            AgVal *px = &pool[a % POOL];
            if (ag_requires_grad(px->m) || !px->t->ndim) break;
            Tensor *v = ten_select(px->t, 0, 0);
            if (v) put(pool, &k, (AgVal){v, ag_view_link(&c, v, &px->m, px->t)});
            break;
        }
        /* ---- the ops whose node is attached around a forward already run (ag_extra.c, ag_reduce.c) ---- */
        case 29: put(pool, &k, ag_elementwise(&c, (AgElem)(b % (AG_E_HARDTANH + 1)), "ElemBackward0", x,
                                              ten_map(b & 1 ? "erf" : "expm1", x.t), -1, 1)); break;
        case 30: {                      /* std, var, norm (p 1, 1.5, 2, inf), prod, logsumexp, amax, cumsum */
            AgRed kind = (AgRed)(a % (AG_R_CUMSUM + 1));
            int nd = b & 8 ? -1 : 1;
            bool keep = b & 4;
            static const double ps[] = {1, 1.5, 2, INFINITY};
            double p = kind == AG_R_NORM ? ps[b % 4] : 1;
            Tensor *out = kind == AG_R_CUMSUM ? ten_cumsum(x.t, d)
                        : kind <= AG_R_STD ? ten_var(x.t, &d, nd < 0 ? 0 : 1, keep, 1, kind == AG_R_STD)
                        : ten_norm(x.t, p, &d, nd < 0 ? 0 : 1, keep);
            double cnt = kind <= AG_R_STD && x.t->ndim ? (double)x.t->shape[(d + x.t->ndim) % x.t->ndim] - 1 : p;
            put(pool, &k, ag_reduction(&c, kind, "RedBackward0", x, out, &d, kind == AG_R_CUMSUM ? 1 : nd, keep, cnt));
            break;
        }
        case 31: {                      /* flip by a position map, saved (gather's way) or kept in the node */
            Tensor *pos = ten_arange_in(tc, 0, (double)x.t->numel, 1, DT_I64);
            Tensor *p2 = pos ? ten_reshape(pos, x.t->ndim, x.t->shape) : NULL, *map = p2 ? ten_flip(p2, d) : NULL;
            if (map) put(pool, &k, (b & 1 ? ag_index_map : ag_move_map)(&c, "FlipBackward0", ten_flip(x.t, d), map, 1, &x));
            ten_free(pos); ten_free(p2); ten_free(map);
            break;
        }
        case 32: put(pool, &k, ag_maximum(&c, x, y, ten_binary(b & 1 ? OP_MINIMUM : OP_MAXIMUM, x.t, false, y.t, false), b & 1)); break;
        case 33: {                      /* scatter / scatter_add of y into x at index 0 along dim 0 */
            Tensor *idx = y.t->ndim ? ten_new_in(tc, DT_I64, y.t->ndim, y.t->shape) : NULL;
            if (idx) put(pool, &k, ag_scatter(&c, x, 0, idx, y, ten_scatter(x.t, 0, idx, y.t, b & 1), b & 1));
            ten_free(idx);
            break;
        }
        case 34: put(pool, &k, b & 1 ? ag_cumprod(&c, x, d, ten_cumprod(x.t, d))
                                      : ag_clamp_tensors(&c, x, y, (AgVal){NULL, NULL}, ten_binary(OP_MAXIMUM, x.t, false, y.t, false)));
                 break;
        case 35: {
            Tensor *ops[2] = {x.t, y.t};
            AgVal in[2] = {x, y};
            put(pool, &k, b & 1 ? ag_binary_fn(&c, b & 2 ? AG_B_POW : AG_B_ATAN2, x, false, y, false,
                                               ten_binary(b & 2 ? OP_POW : OP_ATAN2, x.t, false, y.t, false))
                                : ag_einsum(&c, "ij,jk->ik", 2, in, ten_einsum_in(tc, "ij,jk->ik", ops, 2)));
            break;
        }
        default: put(pool, &k, ag_layer_norm(&c, x, 1, (AgVal){NULL, NULL}, (AgVal){NULL, NULL}, 1e-5)); break;
        }
    }
    for (int i = 0; i < POOL; i++) ag_val_free(pool[i]);
    ten_ctx_free(tc);
    return 0;
}

/* d2l_learnable.c - learnable_pe(): §11.6.5's exercise 2, a learned table of positions trained through a task, as
 * lesson 7 trains it. Lesson 7's model (its OrderModel with the Learned table: token embedding plus a (1, max_len, d)
 * parameter table, one self-attention layer with its own W_q, W_k, W_v, a linear readout to the vocabulary) learns
 * lesson 7's order task (at every position from k on, output the token k places earlier) with attn's autograd (the
 * ag_* ops the Python lines run) and torch.optim.Adam's update rule (ten_adam_step), from C. */
#include "builtins_internal.h"
#include "interp.h"
#include "i18n.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { VOCAB = 32, KBACK = 2, BATCH = 64, NTEST = 500 };   /* lesson 7's vocab, k, batch(T) size, test batch */

/* The parameters in the order lesson 7's Learned(vocab, d) draws them (nn.Embedding, three nn.Linear(d, d,
 * bias=False), nn.Linear(d, vocab), then the table): leaves that require grad. */
enum { EMB, W_Q, W_K, W_V, W_O, B_O, POS, NPARAM };

/* The temporaries of one forward pass (or one step), freed together, last first. */
enum { TAPE_MAX = 24 };
typedef struct Tape { AgVal v[TAPE_MAX]; int n; } Tape;

static AgVal tape_keep(Tape *tp, AgVal v) {
    if (tp->n < TAPE_MAX) tp->v[tp->n++] = v;
    else { ag_val_free(v); v.t = NULL; v.m = NULL; }          /* cannot happen: a forward pass makes 16 */
    return v;
}

static void tape_free(Tape *tp) {
    while (tp->n > 0) ag_val_free(tp->v[--tp->n]);
}

/* Draws the parameters from g as Learned(vocab, d, max_len) does after torch.manual_seed: the embedding N(0, 1),
 * each Linear's weight (then bias) U(-1/sqrt(d), 1/sqrt(d)), the table randn(1, max_len, d) * 0.1. false when a
 * tensor could not be made (p then holds what was made). */
static bool order_init(TenCtx *c, Rng *g, int64_t d, int64_t max_len, AgVal *p) {
    double b = 1.0 / sqrt((double)d);
    int64_t sq[2] = {d, d}, so[2] = {VOCAB, d}, vo = VOCAB, sp[3] = {1, max_len, d};
    p[EMB].t = ten_randn_in(c, g, 2, so);
    for (int k = W_Q; k <= W_V; k++) p[k].t = p[k - 1].t ? ten_uniform_in(c, g, DT_F32, 2, sq, -b, b) : NULL;
    p[W_O].t = p[W_V].t ? ten_uniform_in(c, g, DT_F32, 2, so, -b, b) : NULL;
    p[B_O].t = p[W_O].t ? ten_uniform_in(c, g, DT_F32, 1, &vo, -b, b) : NULL;
    Tensor *r = p[B_O].t ? ten_randn_in(c, g, 3, sp) : NULL, *tenth = ten_scalar_d_in(c, 0.1);
    p[POS].t = r && tenth ? ten_binary(OP_MUL, r, false, tenth, true) : NULL;
    ten_free(r);
    ten_free(tenth);
    for (int k = 0; k < NPARAM; k++) p[k].m = p[k].t ? ag_meta_new(true) : NULL;
    return p[POS].t != NULL;
}

/* Lesson 7's batch(T, size): torch.rand((size, vocab)).argsort(dim=1)[:, :T], as a contiguous (size, T) int64. */
static Tensor *order_batch(TenCtx *c, Rng *g, int64_t T, int64_t size) {
    int64_t sh[2] = {size, VOCAB}, so[2] = {size, T};
    Tensor *r = ten_rand_in(c, g, 2, sh), *vals = NULL, *idx = NULL;
    Tensor *X = r && ten_sort(r, 1, false, false, &vals, &idx) == 0 ? ten_new_in(c, DT_I64, 2, so) : NULL;
    for (int64_t b = 0; X && b < size; b++)
        for (int64_t j = 0; j < T; j++) ten_i64(X)[b * T + j] = ten_i64(idx)[b * VOCAB + j];
    ten_free(r);
    ten_free(vals);
    ten_free(idx);
    return X;
}

/* X[:, :-k].reshape(-1): the token k places earlier for every position from k on, (size * (T - k),) int64. */
static Tensor *order_targets(TenCtx *c, const Tensor *X) {
    int64_t size = X->shape[0], T = X->shape[1], n = size * (T - KBACK);
    Tensor *y = ten_new_in(c, DT_I64, 1, &n);
    for (int64_t b = 0; y && b < size; b++)
        for (int64_t j = 0; j < T - KBACK; j++) ten_i64(y)[b * (T - KBACK) + j] = ten_i64(X)[b * T + j];
    return y;
}

#define KEEP(var, expr) AgVal var = tape_keep(tp, (expr)); if (!var.t) return var

/* OrderModel.forward with Learned.add_positions, then lesson 7's loss_of slicing: X (B, T) int64 -> the scores at
 * positions k..T-1 as (B * (T - k), vocab). Every temporary goes on tp (the result is its last). t NULL on failure. */
static AgVal order_forward(AgContext *c, const AgVal *p, const Tensor *X, Tape *tp) {
    int64_t B = X->shape[0], T = X->shape[1], d = p[W_Q].t->shape[0];
    AgVal none = {NULL, NULL};
    KEEP(E, ag_embedding(c, p[EMB], X, AG_NO_PADDING));               /* (B, T, d) */
    KEEP(Pt, ag_slice(c, p[POS], 1, 0, T, 1, false, true));           /* self.P[:, :T], (1, T, d) */
    KEEP(H, ag_binary(c, OP_ADD, E, false, Pt, false));
    KEEP(Q, ag_linear(c, H, p[W_Q], none));
    KEEP(K, ag_linear(c, H, p[W_K], none));
    KEEP(V, ag_linear(c, H, p[W_V], none));
    KEEP(Kt, ag_transpose(c, K, 1, 2));
    KEEP(S0, ag_matmul(c, Q, Kt));                                     /* (B, T, T) */
    KEEP(rd, ((AgVal){ten_scalar_d_in(c->ten, sqrt((double)d)), NULL}));
    KEEP(S, ag_binary(c, OP_DIV, S0, false, rd, true));               /* / math.sqrt(self.d) */
    KEEP(A, ag_softmax(c, S, 2));
    KEEP(AV, ag_matmul(c, A, V));
    KEEP(Y, ag_linear(c, AV, p[W_O], p[B_O]));                        /* (B, T, vocab) */
    KEEP(Yk, ag_slice(c, Y, 1, KBACK, 0, 1, true, false));
    int64_t sh[2] = {B * (T - KBACK), VOCAB};
    KEEP(R, ag_reshape(c, Yk, 2, sh));
    return R;
}

/* One step of lesson 7's train(): loss_of(model, batch(n)), loss.backward(), opt.step() (Adam: m, v its state,
 * *step its float32 step count), opt.zero_grad(). The loss into *loss; false on failure (the tensor error set). */
static bool order_step(AgContext *c, Rng *g, AgVal *p, Tensor **m, Tensor **v, float *step, int64_t n, double lr, double *loss) {
    Tape tape = {.n = 0}, *tp = &tape;
    Tensor *X = order_batch(c->ten, g, n, BATCH), *y = X ? order_targets(c->ten, X) : NULL;
    AgVal Y = y ? order_forward(c, p, X, tp) : (AgVal){NULL, NULL};
    AgVal L = Y.t ? tape_keep(tp, ag_cross_entropy(c, Y, y, -100, AG_REDUCE_MEAN)) : Y;
    bool ok = L.t && ag_backward(c, 1, &L, NULL, false) == 0;
    if (ok) *loss = ten_get(L.t, 0);
    tape_free(tp);
    ten_free(X);
    ten_free(y);
    *step += 1.0f;                                                    /* step_t += 1, in float32 */
    for (int k = 0; ok && k < NPARAM; k++) {
        if (!p[k].m->grad) continue;                                  /* no grad: Adam skips it */
        TenAdamOpts o = {.lr = lr, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8, .weight_decay = 0, .step = *step,
                         .decoupled = false, .maximize = false};
        ok = ten_adam_step(p[k].t, p[k].m->grad, m[k], v[k], NULL, &o) == 0;
        ag_zero_grad(p[k].m);
    }
    return ok;
}

/* Lesson 7's accuracy(model, X) on NTEST new sequences of n drawn from g, without gradients: the share of positions
 * k..n-1 whose highest score is the token k places earlier, as float32's mean of 0s and 1s. -1 on failure. */
static double order_accuracy(AgContext *c, Rng *g, const AgVal *p, int64_t n) {
    Tape tape = {.n = 0};
    bool was = c->grad_enabled;
    c->grad_enabled = false;
    Tensor *X = order_batch(c->ten, g, n, NTEST), *y = X ? order_targets(c->ten, X) : NULL;
    AgVal Y = y ? order_forward(c, p, X, &tape) : (AgVal){NULL, NULL};
    c->grad_enabled = was;
    double acc = -1;
    if (Y.t) {
        int64_t rows = Y.t->shape[0], right = 0;
        for (int64_t r = 0; r < rows; r++) {
            int64_t best = 0;                                         /* argmax: the first of equal highest */
            for (int64_t j = 1; j < VOCAB; j++)
                if (ten_get(Y.t, r * VOCAB + j) > ten_get(Y.t, r * VOCAB + best)) best = j;
            right += best == ten_i64(y)[r];
        }
        acc = (double)((float)right / (float)rows);
    }
    tape_free(&tape);
    ten_free(X);
    ten_free(y);
    return acc;
}

/* How many rows of the table training changed, and whether rows n..max_len-1 (never a position in training) are
 * all exactly as they started. */
static int64_t rows_changed(const Tensor *T, const Tensor *T0, int64_t n, bool *rest_unchanged) {
    int64_t L = T->shape[1], d = T->shape[2], count = 0;
    *rest_unchanged = true;
    for (int64_t i = 0; i < L; i++) {
        bool changed = memcmp(ten_f32(T) + i * d, ten_f32(T0) + i * d, sizeof(float) * (size_t)d) != 0;
        count += changed;
        if (changed && i >= n) *rest_unchanged = false;
    }
    return count;
}

/* What the run shows, each clause from its own numbers. The loss and the accuracy to two decimals: the digits below
 * them follow the CPU's vector kernels (float32 sums in another order; AVX-512, AVX2 and scalar trainings agree to
 * 1e-5 for a hundred steps, then Adam's late steps amplify the difference), the ones shown do not. */
static void report(I18nLang lang, StrBuf *o, int64_t steps, double loss, double acc, int64_t n, int64_t max_len, int64_t changed, bool rest) {
    if (steps > 0) sb_printf(o, TR(lang, "After %lld %s the loss is %.2f; on %d new sequences of %lld the accuracy\n"
                                   "is %.2f (chance without positions: 1/%lld = %.2f).\n"),
                             (long long)steps, steps == 1 ? TR(lang, "step") : TR(lang, "steps"), loss, NTEST, (long long)n, acc,
                             (long long)(n - 1), 1.0 / (double)(n - 1));
    else sb_printf(o, TR(lang, "Untrained, on %d new sequences of %lld the accuracy is %.2f.\n"), NTEST, (long long)n, acc);
    sb_printf(o, TR(lang, "Training changed %lld of the table's %lld rows.\n"), (long long)changed, (long long)max_len);
    if (max_len > n && rest)
        sb_printf(o, TR(lang, "Rows %lld..%lld, positions no training sequence reached, are exactly as they\n"
                        "started: the table knows nothing of position %lld or later.\n"),
                  (long long)n, (long long)(max_len - 1), (long long)n);
}

/* The result: {'table': the trained (1, max_len, d) table, 'start': the table before training, 'loss': the loss of
 * every step, 'accuracy': the test accuracy}; takes T, T0 and losses. */
static Value *result(Tensor *T, Tensor *T0, Value *losses, double acc) {
    ValHeap *heap = losses->heap;      /* the list the steps filled: the session's */
    Value *r = val_dict(heap);
    dict_set(r->u.dict, "table", val_tensor(heap, T));
    dict_set(r->u.dict, "start", val_tensor(heap, T0));
    dict_set(r->u.dict, "loss", losses);
    dict_set(r->u.dict, "accuracy", val_float(heap, acc));
    return r;
}

/* learnable_pe(n=8, d=32, max_len=32, steps=200, lr=0.02, quiet=False, seed=0): lesson 7's Learned model trained on
 * its order task, sequences of n, on a generator of its own seeded with seed, drawing what torch.manual_seed(seed)
 * then Learned(32, d, max_len) and train(model, steps, lr) draw in lesson 7 (the session's generator untouched).
 * Prints the loss at steps 1, 2, 4, ... and the last, the test accuracy and which rows changed (quiet: nothing);
 * returns result()'s dict. Ctrl-C stops it between steps. */
static Value *bi_learnable_pe(Interp *I, Args *a) {
    Value *p_[7];                               /* n, d, max_len, steps, lr, quiet, seed */
    if (!args_bind(I, a, p_, 7)) return NULL;
    int64_t n = 8, d = 32, max_len = 32, steps = 200, seed = 0;
    double lr = 0.02;
    bool quiet = false;
    if ((p_[0] && !arg_int(I, p_[0], "n", &n)) || (p_[1] && !arg_int(I, p_[1], "d", &d)) ||
        (p_[2] && !arg_int(I, p_[2], "max_len", &max_len)) || (p_[3] && !arg_int(I, p_[3], "steps", &steps)) ||
        (p_[4] && !arg_double(I, p_[4], "lr", &lr)) || (p_[5] && !arg_bool(I, p_[5], "quiet", &quiet)) ||
        (p_[6] && !arg_int(I, p_[6], "seed", &seed)))
        return NULL;
    if (n <= KBACK || n > VOCAB)
        return rt_error(I, "learnable_pe: n=%lld, but the training length n must be from %d to %d", (long long)n, KBACK + 1, VOCAB);
    if (d < 1 || d > 256) return rt_error(I, "learnable_pe: d=%lld, but d must be from 1 to 256", (long long)d);
    if (max_len < n)
        return rt_error(I, "learnable_pe: max_len=%lld is less than n=%lld: the table needs a row for every training position",
                        (long long)max_len, (long long)n);
    if (max_len > 4096) return rt_error(I, "learnable_pe: max_len=%lld, but max_len can be at most 4096", (long long)max_len);
    if (steps < 0 || steps > 10000) return rt_error(I, "learnable_pe: steps=%lld, but steps must be from 0 to 10000", (long long)steps);
    if (!(lr > 0 && lr < 1000)) return rt_error(I, "learnable_pe: lr=%g, but lr must be above 0 and below 1000", lr);
    AgContext c;
    ag_context_init(&c, I->run.ten);                                  /* grad mode on, whatever the caller's */
    Rng g;
    rng_seed(&g, (uint64_t)seed);
    AgVal p[NPARAM];
    memset(p, 0, sizeof p);
    Tensor *m[NPARAM] = {NULL}, *v[NPARAM] = {NULL}, *T0 = NULL;
    bool ok = order_init(I->run.ten, &g, d, max_len, p) && (T0 = ten_copy(p[POS].t)) != NULL;
    for (int k = 0; ok && k < NPARAM; k++) {
        m[k] = ten_full_in(I->run.ten, DT_F32, p[k].t->ndim, p[k].t->shape, 0);
        v[k] = ten_full_in(I->run.ten, DT_F32, p[k].t->ndim, p[k].t->shape, 0);
        ok = m[k] && v[k];
    }
    StrBuf o;
    sb_init(&o);
    if (!quiet) sb_printf(&o, TR(I->run.lang, "Training a one-layer self-attention model (lesson 7's) with a learned\n"
                                 "(1, %lld, %lld) table of positions on a task where order decides: output the\n"
                                 "token k = %d places earlier, in sequences of n = %lld out of %d tokens;\n"
                                 "Adam, lr = %g, batches of %d (§11.6.5, exercise 2)\n"),
                          (long long)max_len, (long long)d, KBACK, (long long)n, VOCAB, lr, BATCH);
    Value *losses = val_list(I->run.heap, 0);
    double loss = 0, acc = -1;
    float step = 0;
    int64_t s = 0;
    for (; ok && s < steps && !ten_interrupted; s++) {
        ok = order_step(&c, &g, p, m, v, &step, n, lr, &loss);
        if (!ok) break;
        val_list_append(losses, val_float(I->run.heap, loss));
        if (!quiet && (((s + 1) & s) == 0 || s + 1 == steps))
            sb_printf(&o, TR(I->run.lang, "  step %5lld  loss %.2f\n"), (long long)(s + 1), loss);
    }
    bool stopped = ok && ten_interrupted;                             /* Ctrl-C: at a step boundary */
    if (ok && !stopped) ok = (acc = order_accuracy(&c, &g, p, n)) >= 0;
    Tensor *T = ok && !stopped ? ten_copy(p[POS].t) : NULL;
    Value *r = NULL;
    if (stopped) rt_interrupt(I);
    else if (T) {
        bool rest;
        int64_t changed = rows_changed(T, T0, n, &rest);
        if (!quiet) {
            report(I->run.lang, &o, s, loss, acc, n, max_len, changed, rest);
            interp_write(I, sb_str(&o));
        }
        r = result(T, T0, losses, acc);
        T0 = NULL;
        losses = NULL;
    } else rt_tensor_error(I);
    sb_free(&o);
    val_decref(losses);
    ten_free(T0);
    for (int k = 0; k < NPARAM; k++) { ag_val_free(p[k]); ten_free(m[k]); ten_free(v[k]); }
    return r;
}

const Builtin bi_d2l_learnable[] = {
    {"learnable_pe", bi_learnable_pe, "learnable_pe(n=8, d=32, max_len=32, steps=200, lr=0.02, quiet=False, seed=0)",
     "Exercise 2: a learnable position table, trained through a task as lesson 7 trains it: lesson 7's model (token "
     "embedding plus a (1, max_len, d) table of positions starting from randn * 0.1, one self-attention layer, a "
     "readout over 32 tokens) learns to output the token k = 2 places earlier in sequences of n, with Adam (lr) on "
     "batches of 64 for steps steps. Prints the loss, the accuracy on 500 new sequences and how many rows of the table "
     "changed (quiet=True: nothing); returns {'table': the trained table, 'start': the table before training, "
     "'loss': the loss of every step, 'accuracy': the test accuracy}. seed= chooses every random number, as "
     "torch.manual_seed(seed) would in lesson 7 (the same seed gives the same table whatever ran before; the "
     "session's generator is untouched).", "§11.6.5", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

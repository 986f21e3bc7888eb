/* autograd.h - reverse-mode automatic differentiation with PyTorch's semantics (prefix ag_), a layer between the
 * tensor library and the language: it includes only util and tensor headers, and the tensor kernels know nothing
 * of it.
 *
 * A variable is a Tensor plus an AgMeta: requires_grad, .grad, grad_fn (the AgNode that made it) and is_leaf. A
 * value that does not require grad and has no history needs no AgMeta at all (NULL). The language keeps the two side
 * by side (its V_TENSOR value holds Tensor *t; it gains AgMeta *ag), and passes them to the ops as an AgVal.
 *
 * Ownership (every object here is reference counted; one thread, the allocator's):
 *   - AgMeta: ag_meta_new gives one reference; ag_meta_ref / ag_meta_unref. It owns .grad (a Tensor) and a reference
 *     to its grad_fn. A leaf's AccumulateGrad node owns a reference to the leaf's AgMeta; the AgMeta points back
 *     to it without owning it (no cycle).
 *   - AgNode: ag_node_ref / ag_node_unref. A node owns its next edges (references to the nodes of its inputs) and
 *     the tensors it saved (aliases, with the storage's version at save time, and a weak handle on the input's
 *     AgMeta for the in-place message: a strong one would make a cycle when x[0] = f(x) writes a value made from x). Backward releases what a node saved
 *     unless retain_graph: a second backward through it then fails with PyTorch's message.
 *   - AgVal: a (Tensor, AgMeta) pair. As an argument both are borrowed. A result of an op owns both (m may be NULL:
 *     nothing recorded); free it with ag_val_free. On failure t is NULL and ten_error(c->ten) says why.
 *
 * Grad mode (torch.no_grad / enable_grad / set_grad_enabled) is AgContext.grad_enabled, in a context the caller
 * owns (one per session). An op records a node only when grad mode is on and an input requires grad.
 * Errors go through the tensor library's channel (ten_fail_in / ten_error) on AgContext.ten, the session's context, or
 * on an input's (ten_ctx_of); functions return NULL or -1.
 *
 * Example: y = (x * x).sum(); y.backward(); x.grad
 *     AgContext c; ag_context_init(&c);
 *     AgVal x = { ten_randn(&rng, 1, (int64_t[]){3}), ag_meta_new(true) };
 *     AgVal xx = ag_binary(&c, OP_MUL, x, false, x, false), y = ag_sum(&c, xx);
 *     ag_backward(&c, 1, &y, NULL, false);     // x.m->grad is now 2 * x
 *     ag_val_free(y); ag_val_free(xx); ag_val_free(x);
 */
#ifndef ATTN_AUTOGRAD_H
#define ATTN_AUTOGRAD_H
#include <stdbool.h>
#include <stdint.h>
#include "tensor.h"

/* Per-session autograd state: grad mode and the sequence counter that orders the nodes (PyTorch's sequence_nr:
 * a later node runs first among those ready, so the same graph always runs in the same order). */
typedef struct AgContext {
    bool grad_enabled;          /* true unless inside torch.no_grad() */
    uint64_t next_seq;
    TenCtx *ten;                /* the session's tensor context (not owned): where graph failures are reported */
} AgContext;
void ag_context_init(AgContext *c, TenCtx *ten);

typedef struct AgNode AgNode;
typedef struct AgMeta AgMeta;
struct AgMeta {
    int refs;
    bool requires_grad;
    bool retains_grad;          /* a non-leaf whose .grad backward fills (x.retain_grad()) */
    Tensor *grad;               /* owned; NULL until a backward reaches it */
    AgNode *grad_fn;            /* owned reference; NULL for a leaf */
    int output_nr;              /* which output of grad_fn this is (0: every op here has one output) */
    AgNode *acc;                /* a leaf's AccumulateGrad node while one exists (not owned) */
    /* A differentiable view (the result of view, transpose, slice ... of a tensor with history, or made under grad
     * mode of a plain tensor: ag_view_link) knows its base, so
     * that an in-place write through it rebases the base's history (CopySlices) and its own (AsStridedBackward0),
     * as PyTorch does: */
    AgMeta *base;               /* owned: the meta of the tensor that owns the storage; NULL when not a view */
    Tensor *view;               /* owned alias of the view (its geometry; the storage's version) */
    Tensor *base_view;          /* owned alias of the base tensor (its geometry) */
    int64_t version;            /* the storage's version when grad_fn was set (a view's is rebuilt when it moved) */
    bool no_grad_view;          /* a view made under no_grad of a tensor that requires grad (or a view of one): an
                                 * in-place op on it under grad mode is refused, as PyTorch refuses it */
    bool multi_view;            /* one of several views one call returns (split, chunk, unbind), or a view of one:
                                 * an in-place op on it under grad mode is refused, as PyTorch refuses it */
    struct AgWeak *weak;        /* how saved tensors refer to it without keeping it alive (made on first use) */
    void *handle;               /* the language's value that stands for it (x._base gives it; not owned; NULL: none) */
};

typedef struct AgVal { Tensor *t; AgMeta *m; } AgVal;

/* A new AgMeta with one reference: a leaf (no grad_fn), requiring grad or not. */
AgMeta *ag_meta_new(bool requires_grad);
AgMeta *ag_meta_ref(AgMeta *m);
void ag_meta_unref(AgMeta *m);                 /* NULL is fine */
void ag_val_free(AgVal v);                     /* ten_free(v.t) and ag_meta_unref(v.m) */
/* PyTorch's x.requires_grad: its own flag (set by requires_grad_ or by the op that made it), or that of the base of
 * a view: a view taken before its base was made to require grad requires grad too, and stays a leaf without a
 * grad_fn (until written in place) whose gradient goes nowhere (ag_node_new gives it no edge). */
static inline bool ag_requires_grad(const AgMeta *m) { return m && (m->requires_grad || (m->base && m->base->requires_grad)); }
static inline bool ag_is_leaf(const AgMeta *m) { return !m || !m->grad_fn; }
/* x.requires_grad_(flag) on x's AgMeta (a plain tensor gets one first: ag_meta_new(false)): only leaves, only float
 * dtypes (PyTorch's messages); -1 on refusal. A view of a tensor that requires no grad (ag_view_link) that is made to
 * require grad forgets its base: it is a leaf of its own, its views' base. */
int ag_set_requires_grad(AgMeta *m, const Tensor *t, bool flag);
/* Before an in-place op on x (x.add_(1), x[0] = 5): PyTorch's refusal when grad mode is on and m is a leaf that
 * requires grad ("a leaf Variable that requires grad is being used in an in-place operation."). m: x's metadata, or
 * with view_of_leaf, that of the leaf x is a view of (the message says "a view of a leaf"). 0 when allowed. */
int ag_check_inplace(const AgContext *c, const AgMeta *m, bool view_of_leaf);
/* r, the result of a view op on x whose node another path recorded (ag_move_map: diagonal, movedim, split ...),
 * becomes a view of x as ag_view_result makes one (when it shares x's storage). multi_nr >= 0: r is output multi_nr
 * of a call that returns several views (split, chunk, unbind), which PyTorch forbids writing in place. */
void ag_view_mark(AgVal r, AgVal x, int multi_nr);
/* PyTorch's refusal to rebuild the grad_fn of one of several views (split, unbind ...) whose base was written in
 * place since: -1 with the error set, else 0. */
int ag_view_check(const AgContext *c, const AgMeta *m);
/* The language's value for m (x._base of a view of it gives that object, as PyTorch's): ag_meta_claim makes v it when
 * m has none; ag_meta_unclaim forgets v (being freed) when it is m's. NULL m is fine. */
void ag_meta_claim(AgMeta *m, void *v);
void ag_meta_unclaim(AgMeta *m, const void *v);
/* v, the value standing for m, is being freed with its tensor t (borrowed): ag_meta_unclaim, and when m is a leaf with
 * an AccumulateGrad node, the node keeps an alias of t and tag (the language's kind of value: a Parameter) until
 * ag_node_take_variable, so that grad_fn.variable still gives the leaf, as PyTorch's node keeps it alive. */
void ag_meta_release(AgMeta *m, const void *v, const Tensor *t, int tag);
static inline void *ag_meta_handle(const AgMeta *m) { return m ? m->handle : NULL; }
/* x.detach(): the same storage, no history, requires_grad False (a new handle; free with ag_val_free). */
AgVal ag_detach(AgVal x);
/* x.detach_(): x itself loses its history (requires_grad False, a leaf; its .grad stays); a view is refused with
 * PyTorch's message. 0 or -1. */
int ag_detach_inplace(const AgContext *c, AgMeta *m);
/* x.retain_grad(): -1 when x does not require grad (PyTorch's message); a no-op on a leaf. */
int ag_retain_grad(const AgContext *c, AgMeta *m);
/* x.grad = None (zero_grad(set_to_none=True)). */
void ag_zero_grad(AgMeta *m);

/* out, a view of x made without recording, remembers x as its base, as PyTorch's views do:
 *   - grad mode on, x requiring no grad: an in-place op recorded on out later (z[0].add_(h) with h requiring grad)
 *     gives x the history (CopySlices), and out requires grad once x is made to (ag_requires_grad);
 *   - under no_grad: out is marked no_grad_view; when x requires grad, out does too and has no grad_fn (x made to
 *     require grad later: out requires grad then too). An in-place write to it under grad mode that records is
 *     refused, as PyTorch refuses it.
 * *xm is made (requires_grad False) when NULL. Returns out's new metadata (its own requires_grad False), or NULL when
 * out does not share x's storage. */
AgMeta *ag_view_link(const AgContext *c, const Tensor *out, AgMeta **xm, const Tensor *x);
/* x.grad_fn: m->grad_fn, first rebuilt (AsStridedBackward0 of its base's history) when m is a view whose storage
 * was written in place since (PyTorch's rule). Borrowed; NULL for a leaf. Use it, not m->grad_fn, for the repr. */
AgNode *ag_grad_fn(AgContext *c, AgMeta *m);

/* The name x.grad_fn would have (ag_grad_fn's, AsStridedBackward0 for a view to be rebuilt) without rebuilding it,
 * for a repr that has no context; NULL for none. */
const char *ag_grad_fn_name(const AgMeta *m);

/* ---- in-place ops (ag_inplace.c): the tensor is written, its AgMeta's history rebased ----
 * x is a tensor with its metadata *xm (NULL: none yet; a new one is stored there when the write records history).
 * Refused as PyTorch refuses on a leaf that requires grad, or a view of one (grad mode on). 0 or -1. Views made
 * from x earlier see the write (shared storage) and get their history rebuilt when next used (ag_grad_fn).
 * A view made of a tensor that requires no grad knows its base when it was made under grad mode (ag_view_link). */
/* PyTorch's refusals before an in-place op on a tensor with metadata m (NULL: none) under grad mode: m a leaf that
 * requires grad, or a view of one. 0 when allowed, -1 with ten_error(). */
int ag_inplace_check(const AgContext *c, const AgMeta *m);
/* ag_inplace_check, and when the write records history (records: x or the value written requires grad), PyTorch's
 * refusal for a view made under no_grad (of a tensor that requires no grad). 0 or -1 with ten_error(). */
int ag_inplace_check_write(const AgContext *c, const AgMeta *m, bool records);
/* x.op_(...) / x op= y given r, the out-of-place op's result computed with recording (from a copy of x that carries
 * x's metadata, so that what the node saves of x keeps x's old values, as PyTorch's in-place ops save the original
 * self): writes r into x (ten_assign_result's checks) and makes r's node x's history (CopySlices when x is a view);
 * what the node saved of its own result now refers to x at its new version. r stays the caller's. 0 or -1. */
int ag_inplace_assign(AgContext *c, Tensor *x, AgMeta **xm, AgVal r);
/* x.t_(), transpose_, unsqueeze_, squeeze_ given r, the out-of-place view op's result recorded from x: x takes r's
 * layout (ten_set_layout: a write, the version moves) and r's node as its history, named as PyTorch names the
 * in-place form (TBackward1, TransposeBackward1, UnsqueezeBackward1, SqueezeBackward2 / 3). Refused (a message) on a
 * view that requires grad. r stays the caller's. 0 or -1. */
int ag_inplace_layout(AgContext *c, Tensor *x, AgMeta **xm, AgVal r);
/* After x.zero_() (name "ZeroBackward0", nin 1), x.fill_(number) ("FillBackward2", 1), x.fill_(tensor)
 * ("FillBackward3", 2) or x.copy_(src) ("CopyBackwards", 2) wrote x: records the node (x's old values get a zero
 * grad; v, the value or source, the grad summed to its shape and cast to its dtype) when grad mode is on and x or v
 * requires grad. Call ag_inplace_check before the write. 0 or -1. */
int ag_write_record(AgContext *c, Tensor *x, AgMeta **xm, const char *name, int nin, AgVal v);
/* x[items] = v: a tensor index gives IndexPutBackward0 on x; basic items (ints, slices) write a view of x, which
 * PyTorch records as CopySlices. v: a tensor (v_weak for a Python number). */
int ag_index_put_(AgContext *c, Tensor *x, AgMeta **xm, const IndexItem *items, int n, AgVal v, bool v_weak);
/* x.masked_fill_(mask, value): MaskedFillBackward0 (CopySlices when x is a view). */
int ag_masked_fill_(AgContext *c, Tensor *x, AgMeta **xm, const Tensor *mask, double value);

/* ---- nodes: grad_fn and grad_fn.next_functions ---- */
/* PyTorch's name: "MulBackward0", "AccumulateGrad" (torch prints <AccumulateGrad object at ...>). */
const char *ag_node_name(const AgNode *n);
int ag_node_num_next(const AgNode *n);
/* Edge i: the input's node (NULL where PyTorch shows None: an input that needs no grad; NULL for i out of range) and
 * its output number. */
AgNode *ag_node_next(const AgNode *n, int i, int *input_nr);
/* The node PyTorch's grad_fn is for n: n, or for output k > 0 of a node of several outputs (ag_share_node) the node of
 * output 0, so that s.grad_fn is m.grad_fn after s, m = torch.std_mean(x). ag_node_next gives edges so too. */
AgNode *ag_node_shown(AgNode *n);
/* The language's object for n (its grad_fn value, so that x.grad_fn is x.grad_fn), not owned: NULL until set; the
 * object clears it when freed. */
void *ag_node_handle(const AgNode *n);
void ag_node_set_handle(AgNode *n, void *handle);
/* An AccumulateGrad node's leaf (borrowed; grad_fn.next_functions[0][0].variable); NULL for other nodes. */
AgMeta *ag_node_variable(const AgNode *n);
/* The leaf's tensor an AccumulateGrad node kept when the leaf's value was freed (ag_meta_release): an owned alias the
 * caller makes a value of (the node forgets it), with its tag in *tag; NULL when it kept none. */
Tensor *ag_node_take_variable(AgNode *n, int *tag);
AgNode *ag_node_ref(AgNode *n);
void ag_node_unref(AgNode *n);

/* ---- the engine ---- */
/* torch.autograd.backward(outputs, grads): grads[i] NULL means ones for a one-element output (PyTorch's "grad can be
 * implicitly created only for scalar outputs" otherwise); grads NULL means all NULL. Leaves that require grad
 * accumulate into their .grad (across calls), non-leaves with retains_grad too. Without retain_graph, the nodes
 * run release what they saved. 0, or -1 with ten_error() set (a failure part way keeps what leaves accumulated
 * before it, as in PyTorch). The order is fixed by the graph: the same graph gives the same bytes every run. */
int ag_backward(AgContext *c, int nout, const AgVal *outputs, const Tensor *const *grads, bool retain_graph);
/* torch.autograd.grad(outputs, inputs, grads): result[j] (new tensors the caller frees) the gradient of the outputs
 * with respect to inputs[j] (a leaf or not); .grad untouched. An input the outputs do not depend on is an error
 * unless allow_unused (then result[j] is NULL). 0 or -1. */
int ag_grad(AgContext *c, int nout, const AgVal *outputs, const Tensor *const *grads, int nin,
            const AgVal *inputs, Tensor **result, bool retain_graph, bool allow_unused);

/* x.backward(inputs=...) / torch.autograd.backward(..., inputs=...): the gradients of the outputs accumulated into the
 * .grad of inputs[0..nin) only (a non-leaf among them retains its grad from now on, as PyTorch's); an input the outputs
 * do not reach is left as it is. 0 or -1. */
int ag_backward_inputs(AgContext *c, int nout, const AgVal *outputs, const Tensor *const *grads, int nin,
                       const AgVal *inputs, bool retain_graph);

/* ---- differentiable ops (forward by the tensor library's kernels) ----
 * Each returns a new AgVal the caller owns; on failure .t is NULL and ten_error() says why. Shapes as in PyTorch. */
/* a op b for OP_ADD, OP_SUB, OP_MUL, OP_DIV with broadcasting; a Python number is a 0-dim tensor with *_weak set
 * and m NULL (ten_binary's rules). The grad of each input is summed back to its shape and cast to its dtype. A
 * number on the left is recorded as PyTorch's reflected operators: 1 - x RsubBackward1, 2 / x MulBackward0 of
 * ReciprocalBackward0 (computed so: x.reciprocal() * 2), 1 + x and 2 * x as x + 1 and x * 2. */
AgVal ag_binary(AgContext *c, BinOp op, AgVal a, bool a_weak, AgVal b, bool b_weak);
/* UOP_NEG, UOP_EXP, UOP_LOG, UOP_SQRT, UOP_SIN, UOP_COS, UOP_TANH, UOP_SIGMOID, UOP_RELU. */
AgVal ag_unary(AgContext *c, UnOp op, AgVal x);
AgVal ag_pow_scalar(AgContext *c, AgVal x, double p);                 /* x ** p: PowBackward0 */
AgVal ag_reciprocal(AgContext *c, AgVal x);                           /* ReciprocalBackward0 */
AgVal ag_abs(AgContext *c, AgVal x);                                  /* AbsBackward0: grad * sign(x) */
/* x.clamp(lo, hi) (NAN: no bound): ClampBackward1, the grad where lo <= x <= hi. */
AgVal ag_clamp(AgContext *c, AgVal x, double lo, double hi);
/* ag_clamp recorded as node ("ClampMinBackward0" for clamp_min(x, number), "ClampMaxBackward0" for clamp_max) */
AgVal ag_clamp_as(AgContext *c, AgVal x, double lo, double hi, const char *node);
/* torch.where(cond, x, y): cond bool; x, y tensors or Python numbers (*_weak, m NULL): WhereBackward0 (x, y). */
AgVal ag_where(AgContext *c, const Tensor *cond, AgVal x, bool x_weak, AgVal y, bool y_weak);
AgVal ag_gelu(AgContext *c, AgVal x);                                 /* F.gelu (exact): GeluBackward0 */
AgVal ag_gelu_tanh(AgContext *c, AgVal x);                            /* F.gelu(approximate='tanh'): GeluBackward0 */
/* x.max() / x.min() (MaxBackward1 / MinBackward1: ties share the grad evenly), and over a dim (MaxBackward0 /
 * MinBackward0: the grad goes to the index returned in *indices, int64, when indices is not NULL). */
AgVal ag_max(AgContext *c, AgVal x, bool min);
AgVal ag_max_dim(AgContext *c, AgVal x, int dim, bool keepdim, bool min, Tensor **indices);
AgVal ag_sum(AgContext *c, AgVal x);                                  /* all elements: SumBackward0, 0-dim */
AgVal ag_mean(AgContext *c, AgVal x);                                 /* MeanBackward0 */
/* Over dims[0..nd) (negative from the end, distinct): SumBackward1 / MeanBackward1. */
AgVal ag_sum_dims(AgContext *c, AgVal x, const int *dims, int nd, bool keepdim);
AgVal ag_mean_dims(AgContext *c, AgVal x, const int *dims, int nd, bool keepdim);
AgVal ag_mm(AgContext *c, AgVal a, AgVal b);                         /* (n, k) @ (k, m): MmBackward0 */
AgVal ag_bmm(AgContext *c, AgVal a, AgVal b);                        /* (B, n, k) @ (B, k, m): BmmBackward0 */
/* torch.matmul with batch broadcasting, built as PyTorch builds it (mm or bmm of expanded, reshaped operands, then
 * UnsafeViewBackward0), so grad_fn chains read as PyTorch's; a vector with a vector or a matrix: DotBackward0,
 * MvBackward0, SqueezeBackward3 <- MmBackward0 (a vector with more dims: refused for now). */
AgVal ag_matmul(AgContext *c, AgVal a, AgVal b);
/* x.view(shape) (ViewBackward0) and x.reshape(shape) (ReshapeAliasBackward0 when it is a view, else
 * CloneBackward0 then UnsafeViewBackward0, as PyTorch 1.13); one entry may be -1. */
AgVal ag_view(AgContext *c, AgVal x, int ndim, const int64_t *shape);
AgVal ag_reshape(AgContext *c, AgVal x, int ndim, const int64_t *shape);
AgVal ag_transpose(AgContext *c, AgVal x, int d0, int d1);          /* TransposeBackward0 */
AgVal ag_t(AgContext *c, AgVal x);                                  /* x.t(), at most 2-D: TBackward0 */
AgVal ag_permute(AgContext *c, AgVal x, const int *dims);           /* PermuteBackward0 */
AgVal ag_expand(AgContext *c, AgVal x, int ndim, const int64_t *shape);  /* ExpandBackward0 (-1 keeps a size) */
AgVal ag_unsqueeze(AgContext *c, AgVal x, int dim);                 /* UnsqueezeBackward0 */
/* x.squeeze(dim) (SqueezeBackward1) or x.squeeze() with all (SqueezeBackward0). */
AgVal ag_squeeze(AgContext *c, AgVal x, int dim, bool all);
AgVal ag_softmax(AgContext *c, AgVal x, int dim);                   /* SoftmaxBackward0 */
AgVal ag_log_softmax(AgContext *c, AgVal x, int dim);               /* LogSoftmaxBackward0 */
/* x.masked_fill(mask, value), out of place; mask bool, broadcast to x's shape: MaskedFillBackward0. */
AgVal ag_masked_fill(AgContext *c, AgVal x, const Tensor *mask, double value);
/* x.masked_fill(mask, value) with value a 0-dim tensor (cast to x's dtype): MaskedFillBackward1 with edges (x, value);
 * the value's grad is the sum of the grad where the mask is True. */
AgVal ag_masked_fill_tensor(AgContext *c, AgVal x, const Tensor *mask, AgVal value);
/* torch.cat / torch.stack of xs[0..n) along dim: CatBackward0 / StackBackward0, one edge per input. */
AgVal ag_cat(AgContext *c, const AgVal *xs, int n, int dim);
AgVal ag_stack(AgContext *c, const AgVal *xs, int n, int dim);
/* x[..., start:stop:step] along dim with Python's rules (has_*: given; step > 0): SliceBackward0. x[:, 1:3] is two
 * slices, as PyTorch records it. narrow(dim, start, length) is a slice too. */
AgVal ag_slice(AgContext *c, AgVal x, int dim, int64_t start, int64_t stop, int64_t step, bool has_start,
               bool has_stop);
AgVal ag_narrow(AgContext *c, AgVal x, int dim, int64_t start, int64_t length);
AgVal ag_select(AgContext *c, AgVal x, int dim, int64_t index);     /* x.select(dim, i), x[i]: SelectBackward0 */

/* ---- network functions (ag_nn.c) ---- */
typedef enum { AG_REDUCE_NONE = 0, AG_REDUCE_MEAN = 1, AG_REDUCE_SUM = 2 } AgReduction;
/* F.layer_norm over the last k dims, ten_layer_norm's forward (PyTorch's bits); w, b: AgVals with t NULL when not
 * given (then that edge is None): NativeLayerNormBackward0 with edges (x, w, b). */
AgVal ag_layer_norm(AgContext *c, AgVal x, int k, AgVal w, AgVal b, double eps);
/* F.embedding(idx, weight): weight (V, D), idx int64 of any shape -> idx.shape + (D,); the row padding_idx (negative
 * from the end; AG_NO_PADDING for none) gets no grad: EmbeddingBackward0. */
#define AG_NO_PADDING INT64_MIN
AgVal ag_embedding(AgContext *c, AgVal weight, const Tensor *idx, int64_t padding_idx);
/* F.nll_loss(logp, target): logp (C,), (N, C) or (N, C, H, W), target int64 (), (N,) or (N, H, W); places whose
 * target is ignore_index count for nothing (mean divides by the others: all ignored gives NaN, as PyTorch):
 * NllLossBackward0, or NllLoss2DBackward0 for 4 dims. */
AgVal ag_nll_loss(AgContext *c, AgVal logp, const Tensor *target, int64_t ignore_index, AgReduction reduction);
/* F.cross_entropy = nll_loss(log_softmax(x, class dim)) for x of 1 to 4 dims (class dim 1, or 0 for (C,)), recorded
 * as PyTorch records it (NllLossBackward0 <- LogSoftmaxBackward0; for (N, C, d) a ViewBackward0 to (N, C, d, 1) and
 * NllLoss2DBackward0, and a 'none' result viewed back to (N, d)). */
AgVal ag_cross_entropy(AgContext *c, AgVal x, const Tensor *target, int64_t ignore_index, AgReduction reduction);
/* F.linear(x, W, b) / nn.Linear: x (..., in), W (out, in), b (out,) or t NULL; ten_linear's digits, recorded as
 * PyTorch 1.13 records it: 2-D x AddmmBackward0 (b, x, TBackward0) or MmBackward0 (x, TBackward0); more dims
 * ViewBackward0 <- AddmmBackward0 <- (.., ViewBackward0 of x, ..), or without b UnsafeViewBackward0 <- MmBackward0;
 * 1-D x SqueezeBackward3 <- MmBackward0 (+ AddBackward0 for b). */
AgVal ag_linear(AgContext *c, AgVal x, AgVal W, AgVal b);
/* F.mse_loss(x, y): MseLossBackward0 with edges (x, y). */
AgVal ag_mse_loss(AgContext *c, AgVal x, AgVal y, AgReduction reduction);
/* F.dropout in training given its noise (the kept elements' 1 / (1 - p), zeros elsewhere, x's shape): x * noise,
 * which PyTorch records as MulBackward0 with edges (x, None). */
AgVal ag_dropout(AgContext *c, AgVal x, const Tensor *noise);

/* ---- gradients attached to a forward the caller ran (ag_extra.c): each takes out (owned; NULL: the forward
 * failed, returned as a failure), records the node when grad mode is on and an input requires grad, and returns
 * out with it. ---- */
/* Elementwise functions by their derivative at x (and the result y): PyTorch's node `name` (AcosBackward0 ...). */
typedef enum {
    AG_E_ZERO, AG_E_ONE, AG_E_ACOS, AG_E_ASIN, AG_E_ATAN, AG_E_ACOSH, AG_E_ASINH, AG_E_ATANH, AG_E_COSH, AG_E_SINH,
    AG_E_TAN, AG_E_ERF, AG_E_ERFC, AG_E_EXP2, AG_E_EXPM1, AG_E_LOG10, AG_E_LOG2, AG_E_LOG1P, AG_E_RSQRT, AG_E_SILU,
    AG_E_LOGSIGMOID, AG_E_SOFTPLUS, AG_E_MISH, AG_E_HARDTANH
} AgElem;
/* p0, p1: hardtanh's min_val, max_val; softplus's beta, threshold (unused by the others). */
AgVal ag_elementwise(AgContext *c, AgElem kind, const char *name, AgVal x, Tensor *out, double p0, double p1);
/* Reductions over dims[0..nd) (every dim when nd < 0): var/std (scalar: n - correction), norm (scalar: p, 1 or 2 or
 * finite), prod, logsumexp, amax/amin (ties share), cumsum (dims[0] the dim; out x's shape). */
typedef enum { AG_R_VAR, AG_R_STD, AG_R_NORM, AG_R_PROD, AG_R_LOGSUMEXP, AG_R_AMAX, AG_R_CUMSUM } AgRed;
AgVal ag_reduction(AgContext *c, AgRed kind, const char *name, AgVal x, Tensor *out, const int *dims, int nd,
                   bool keepdim, double scalar);
/* An op that only moves elements of ins[0..nin) (at most 3) into out (flip, roll, repeat, tril, pad, gather, split
 * ...): map (int64, out's shape) gives each element's source as a flat position over the inputs in order (input 0's
 * elements, then input 1's ...), -1 for an element from no input (padding, a zeroed triangle). The grad of each
 * input is the grad summed into the places map points at. */
AgVal ag_index_map(AgContext *c, const char *name, Tensor *out, const Tensor *map, int nin, const AgVal *ins);
/* The same for an op whose PyTorch node saves no tensor (flip, roll, tril, split ...): the map is kept outside the
 * saved tensors, so that a second backward runs as in PyTorch (ag_index_map's fails as gather's does). */
AgVal ag_move_map(AgContext *c, const char *name, Tensor *out, const Tensor *map, int nin, const AgVal *ins);
/* r's node (ag_index_map's) keeps x as PyTorch's node saves it (GatherBackward0, MaskedSelectBackward0 and
 * TakeBackward0 save self): x changed in place since makes backward fail with PyTorch's message. */
void ag_map_save_input(AgVal r, AgVal x);
/* torch.maximum / minimum (and max(a, b)): MaximumBackward0 / MinimumBackward0, ties share the grad in halves. */
AgVal ag_maximum(AgContext *c, AgVal a, AgVal b, Tensor *out, bool min);
/* torch.add / sub (a, b, alpha=): AddBackward0 / SubBackward0 with b's grad times alpha (minus for sub). */
AgVal ag_add_alpha(AgContext *c, AgVal a, AgVal b, Tensor *out, double alpha, bool sub);
/* x.to(dtype) / double() / type(dtype) to another float dtype: ToCopyBackward0. */
AgVal ag_to_copy(AgContext *c, AgVal x, Tensor *out);
/* torch.einsum(equation, ops): ViewBackward0 (PermuteBackward0 for one operand permuted), each operand's grad an
 * einsum of the grad with the others. Refused (with a message) for '...', a label twice in one operand, no '->',
 * or more than 3 operands, when it would record. */
AgVal ag_einsum(AgContext *c, const char *equation, int nops, const AgVal *ops, Tensor *out);
/* The same recorded under another node's name (tensordot's ReshapeAliasBackward0). */
AgVal ag_einsum_as(AgContext *c, const char *name, const char *equation, int nops, const AgVal *ops, Tensor *out);
/* beta * self + alpha * (a @ b): kind 0 addmm (AddmmBackward0), 1 addmv, 2 baddbmm, 3 addbmm (batches summed). */
AgVal ag_addmm_family(AgContext *c, int kind, AgVal self, AgVal a, AgVal b, double beta, double alpha, Tensor *out);
/* a op b elementwise with broadcasting, either of them a Python number (*_weak: a 0-dim tensor, m NULL): x ** y and
 * 2 ** y (PowBackward1) and atan2 (Atan2Backward0). */
typedef enum { AG_B_POW, AG_B_ATAN2 } AgBinFn;
AgVal ag_binary_fn(AgContext *c, AgBinFn kind, AgVal a, bool a_weak, AgVal b, bool b_weak, Tensor *out);
/* m, output output_nr of an op PyTorch records as one node of several outputs (std_mean's mean, split's parts),
 * which attn records as a node of its own: its grad_fn is shown as first's (output 0's: the same object, name and
 * next_functions), and edges to it read (that node, output_nr). The backward runs m's own node. */
void ag_share_node(AgMeta *m, const AgMeta *first, int output_nr);
/* m's grad_fn shown as output output_nr of PyTorch's node `name` (std_mean's mean: StdMeanBackward0's output 1,
 * which attn records as a node of its own). */
void ag_name_output(AgMeta *m, const char *name, int output_nr);
/* torch.pow(base, e) with base a Python number: out recorded as PowBackward2, whose one edge is e's. */
AgVal ag_pow_base(AgContext *c, double base, AgVal e, Tensor *out);
/* x.clamp(min=lo, max=hi) with tensor bounds (t NULL: not given): ClampBackward0 with edges (x, lo, hi). */
AgVal ag_clamp_tensors(AgContext *c, AgVal x, AgVal lo, AgVal hi, Tensor *out);
/* clamp_min(x, lo) (ClampMinBackward1, edges x, lo) and clamp_max(x, hi) (ClampMaxBackward1, edges x, hi) with a
 * tensor bound: is_max chooses. */
AgVal ag_clamp_bound(AgContext *c, AgVal x, AgVal bound, bool is_max, Tensor *out);
/* torch.scatter_add(self, dim, index, src) (add: ScatterAddBackward0, self's grad the grad) and torch.scatter with a
 * tensor src (ScatterBackward0, self's grad zero where written); src's grad the grad gathered at index. */
AgVal ag_scatter(AgContext *c, AgVal self, int dim, const Tensor *index, AgVal src, Tensor *out, bool add);
/* torch.cross(a, b, dim) (dim of the result, size 3): LinalgCrossBackward0. */
AgVal ag_cross(AgContext *c, AgVal a, AgVal b, int dim, Tensor *out);
/* torch.cumprod(x, dim): CumprodBackward0 (exact where x has zeros: no division). */
AgVal ag_cumprod(AgContext *c, AgVal x, int dim, Tensor *out);
#endif

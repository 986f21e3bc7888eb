/* ag_internal.h - the node structure and the helpers shared by the engine (ag_engine.c) and the ops (ag_ops.c). */
#ifndef ATTN_AG_INTERNAL_H
#define ATTN_AG_INTERNAL_H
#include "autograd.h"

#define AG_MAX_SAVED 4
#define AG_MAX_IN 3                 /* inputs whose shapes a node keeps (cat keeps its sizes in `sizes`) */
/* A tensor a node keeps for its backward: an alias (owned), the storage version when saved, and for the message
 * of a modified one, the node's own name (its output) or the input's metadata (its grad_fn then, as PyTorch names it). */
typedef struct AgSaved {
    Tensor *t;
    int64_t version;
    const char *made_by;            /* is_output: the node's name; else the input's grad_fn's name when saved */
    struct AgWeak *meta;            /* a weak handle on the input's metadata (owned handle; NULL for an output) */
    bool is_output;                 /* the node's own result (exp, tanh, softmax ... save it) */
    bool is_view;                   /* an input that is a view of a tensor with history */
    uint64_t view_seq;              /* an in-place op's result on a view (meta: the view's): its grad_fn's seq then */
} AgSaved;

/* A weak reference to an AgMeta: m is cleared when the AgMeta is freed; the handle lives while referred to. */
typedef struct AgWeak {
    int refs;
    AgMeta *m;
} AgWeak;
void ag_weak_unref(AgWeak *w);
/* A new reference to m's weak handle (made on first use; the AgMeta keeps one reference to it); NULL for NULL. */
AgWeak *ag_weak_of(AgMeta *m);

typedef struct AgEdge {
    AgNode *fn;                     /* owned; NULL: the input needs no grad */
    int input_nr;
} AgEdge;

/* Input grads of a node from the grad of its output: gin[i] for each edge i whose fn is not NULL (the others are
 * left NULL); new tensors the engine owns. 0, or -1 with ten_error() set. */
typedef int (*AgBackwardFn)(AgNode *n, const Tensor *gout, Tensor **gin);

struct AgNode {
    int refs;
    const char *name;
    AgBackwardFn backward;          /* NULL for AccumulateGrad */
    uint64_t seq;
    int nnext;
    AgEdge *next;                   /* nnext edges, one per input (owned array) */
    AgSaved saved[AG_MAX_SAVED];
    int nsaved;
    bool released;                  /* backward freed what it saved */
    TenCtx *ten;                    /* its session's tensor context (AgContext.ten): where ag_saved reports */
    /* what the backward needs besides saved tensors */
    DType in_dtype[AG_MAX_IN];
    int in_ndim[AG_MAX_IN];
    int64_t in_shape[AG_MAX_IN][TEN_MAX_DIMS];
    int64_t *sizes;                 /* cat/stack: each input's size along the dim (owned); slice: start, stop, step */
    int dims[TEN_MAX_DIMS];         /* reduced dims (ascending), a permutation, transpose's pair, a softmax dim */
    int nd;
    bool keepdim;
    double scalar;                  /* pow's exponent, mean's divisor */
    int op;                         /* BinOp / UnOp of elementwise nodes */
    AgMeta *var;                    /* AccumulateGrad: the leaf (owned) */
    Tensor *var_t;                  /* AccumulateGrad: the leaf's tensor once the value that stood for it was freed
                                     * (owned alias, with var_tag; NULL while a value stands for it): ag_meta_release */
    int var_tag;
    AgNode *fn;                     /* CopySlices: the in-place op's own node (owned) */
    AgNode *shown;                  /* output k > 0 of a PyTorch node of several outputs (std_mean, split): the node of
                                     * output 0, which grad_fn shows for this one too (owned; NULL: itself) */
    void *handle;                   /* the language's object for this node while one exists (not owned) */
    AgMeta *retained;               /* the output's AgMeta when it retains grad (not owned; cleared when freed) */
    /* engine scratch, reset after each run */
    int deps;
    bool seen;
    Tensor *buf;                    /* sum of the grads arrived for the output */
    int capture;                    /* ag_grad: index of the input whose grad this is, or -1 */
};

/* A new node of one reference with seq from c and edges to the nin inputs' nodes (a leaf that requires grad: its
 * AccumulateGrad, made on first use; NULL for inputs that need no grad). */
AgNode *ag_node_new(AgContext *c, const char *name, AgBackwardFn bw, int nin, const AgMeta *const *ins);
/* Saves an alias of t in slot i with its version (m: t's metadata, for the name of the node that made it; is_output:
 * t is this node's own result). */
void ag_node_save(AgNode *n, int i, const Tensor *t, const AgMeta *m, bool is_output);
/* The saved tensor i after checking its version (PyTorch's in-place message) and that backward has not freed it. */
const Tensor *ag_saved(AgNode *n, int i);
/* The output's AgMeta of a recorded op: requires grad, grad_fn n (the reference passes to it). */
AgMeta *ag_meta_for(AgNode *n);
/* Whether an op on these inputs records a node. */
bool ag_should_record(const AgContext *c, int nin, const AgMeta *const *ins);

/* The result of a view op (out shares x's storage): ag_result, and the new AgMeta remembers its base (ag_inplace.c). */
AgVal ag_view_result(Tensor *out, AgNode *n, AgVal x);
/* A view's grad_fn rebuilt from its base's history: AsStridedBackward0 (a new reference). */
AgNode *ag_as_strided_node(AgContext *c, AgMeta *m);

/* ---- helpers of the ops (ag_ops.c) ---- */
#define AG_FAILED ((AgVal){NULL, NULL})
static inline bool ag_needs(const AgNode *n, int i) { return n->next[i].fn != NULL; }
/* The result of an op: out with a new AgMeta whose grad_fn is n (when n is not NULL). Frees n when out is NULL. */
AgVal ag_result(Tensor *out, AgNode *n);
/* A node for an op of nin inputs (at most AG_MAX_IN; an input with t NULL is an optional one left out) when grad
 * mode is on and one of them requires grad, else NULL; it keeps their shapes and dtypes. */
AgNode *ag_record(AgContext *c, const char *name, AgBackwardFn bw, int nin, const AgVal *in);
/* The same node whether or not an input requires grad (an in-place op's, when the written tensor's does). */
AgNode *ag_record_always(AgContext *c, const char *name, AgBackwardFn bw, int nin, const AgVal *in);
/* Formula helpers: NULL operands give NULL (so a failed step propagates); each returns a new tensor. */
Tensor *ag_bin(BinOp op, const Tensor *a, bool aw, const Tensor *b, bool bw);
Tensor *ag_bin_s(BinOp op, const Tensor *a, double v);       /* a op number (a Python scalar: keeps a's dtype) */
Tensor *ag_s_bin(BinOp op, double v, const Tensor *b);       /* number op b */
Tensor *ag_drop(Tensor *r, Tensor *t1, Tensor *t2, Tensor *t3);   /* frees t1..t3, returns r */
Tensor *ag_sum_keep(const Tensor *g, const int *dims, int nd);     /* summed over dims, kept as size 1 */
/* g summed back to shape (PyTorch's sum_to_size) and cast to dt. */
Tensor *ag_sum_to(const Tensor *g, int ndim, const int64_t *shape, DType dt);
/* g (consumed) summed to input i's shape and dtype. */
Tensor *ag_to_input(const AgNode *n, int i, Tensor *g);
/* out (a view or reshape of x, or x's elements in x's order) recorded as the op `name`, whose backward reshapes the
 * grad back to x's shape. */
AgVal ag_shape_op(AgContext *c, AgVal x, Tensor *out, const char *name);
/* x.view(shape) recorded as ATen's _unsafe_view (UnsafeViewBackward0). */
AgVal ag_unsafe_view(AgContext *c, AgVal x, int ndim, const int64_t *shape);
/* A backward's last step: -1 (freeing every gin) when a needed grad is missing, else 0. */
int ag_done(AgNode *n, Tensor **gin);
/* The grad of mm(m1, m2)'s m2: m1ᵀ @ g, or, when colmajor (m2 was a transposed contiguous matrix when recorded: a
 * Linear layer's W.t(); ag_mm_colmajor), that product computed as (gᵀ @ m1)ᵀ, so that it comes out laid out as m2
 * is, as PyTorch's mm_mat2_backward does (the same sums either way; ag_matmul.c). */
Tensor *ag_mm_mat2_grad(const Tensor *m1, const Tensor *g, bool colmajor);
bool ag_mm_colmajor(const Tensor *m2);
#endif

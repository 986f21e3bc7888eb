/* nn_layers.c - the layers a student reaches for in §11.6's exercises: a deeper stack (exercise 1) with
 * nn.Sequential, nn.LayerNorm and the activations nn.ReLU, nn.GELU, nn.Softmax, nn.Identity (each applies a
 * function attn already has: F.relu, F.gelu, torch.softmax); learned position embeddings (exercise 3) with
 * nn.Embedding. Reprs, children, parameter names, initialisation and messages are PyTorch 1.13's. */
#include "builtins_internal.h"
#include "interp.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static Value *done(Interp *I, Tensor *t) { return t ? val_tensor(t) : rt_tensor_error(I); }

/* A new parameter (named_parameters() and state_dict() list it) holding t; NULL when t is. */
static Value *parameter(Tensor *t) {
    Value *v = t ? val_tensor(t) : NULL;
    if (v) v->param = true;
    return v;
}

static Tensor *attr_tensor(Value *obj, const char *name) {
    Value *v = val_attr_get(obj, name);
    return v && v->kind == V_TENSOR ? v->u.t : NULL;
}

static const char *dtype_word(DType dt) {
    return dt == DT_F64 ? "Double" : dt == DT_I64 ? "Long" : dt == DT_BOOL ? "Bool" : "Float";
}

/* ---- activations: a module whose forward is one function of torch.nn.functional ---- */

/* Calls F.<fn>(input, <key>=<the module's attribute key>) (key NULL: no keyword); a new reference or NULL. */
static Value *apply_functional(Interp *I, Value *self, Args *a, const char *fn, const char *key) {
    static const char *const kw[] = {"input", NULL};
    if (!args_check(I, a, 1, kw)) return NULL;
    Value *x = arg(a, 0, "input");
    if (!x) return rt_raise(I, "TypeError", "%s.forward() missing 1 required positional argument: 'input'", val_type_name(self));
    Value *f = builtins_module_attr("torch.nn.functional", fn);
    if (!f) return rt_error(I, "%s: F.%s is missing", val_type_name(self), fn);
    Value *kv = key ? val_attr_get(self, key) : NULL;
    const char *kwn[1] = {key};
    Value *kwv[1] = {kv};
    Args b = {&x, 1, kwn, kwv, kv ? 1 : 0, NULL, NULL};
    Value *r = interp_call(I, f, &b);
    val_decref(f);
    return r;
}

static Value *relu_call(Interp *I, Value *self, Args *a) { return apply_functional(I, self, a, "relu", NULL); }
static Value *gelu_call(Interp *I, Value *self, Args *a) { return apply_functional(I, self, a, "gelu", "approximate"); }
static Value *softmax_call(Interp *I, Value *self, Args *a) { return apply_functional(I, self, a, "softmax", "dim"); }

/* nn.Identity()(x) is x itself, whatever x is, as in PyTorch. */
static Value *identity_call(Interp *I, Value *self, Args *a) {
    static const char *const kw[] = {"input", NULL};
    if (!args_check(I, a, 1, kw)) return NULL;
    Value *x = arg(a, 0, "input");
    if (!x) return rt_raise(I, "TypeError", "Identity.forward() missing 1 required positional argument: 'input'");
    return val_incref(x);
}

static void gelu_extra(StrBuf *out, Value *self) {
    Value *v = val_attr_get(self, "approximate");
    sb_printf(out, "approximate='%s'", v && v->kind == V_STR ? v->u.str.s : "none");
}

static void softmax_extra(StrBuf *out, Value *self) {
    Value *v = val_attr_get(self, "dim");
    if (v && v->kind == V_INT) sb_printf(out, "dim=%lld", (long long)v->u.i);
    else sb_puts(out, "dim=None");
}

static const ObjClass ReLUClass = {.name = "ReLU", .call = relu_call, .is_module = true};
static const ObjClass GELUClass = {.name = "GELU", .call = gelu_call, .is_module = true, .extra_repr = gelu_extra};
static const ObjClass SoftmaxClass = {.name = "Softmax", .call = softmax_call, .is_module = true, .extra_repr = softmax_extra};
static const ObjClass IdentityClass = {.name = "Identity", .call = identity_call, .is_module = true};

static Value *new_layer(const ObjClass *c) {
    Value *m = val_object(c);
    val_attr_set(m, "training", val_bool(true));
    return m;
}

/* nn.ReLU(inplace=False): inplace=True is refused (attn never changes a tensor behind the student's back). */
static Value *bi_relu_layer(Interp *I, Args *a) {
    static const char *const kw[] = {"inplace", NULL};
    if (!args_check(I, a, 1, kw)) return NULL;
    Value *iv = arg(a, 0, "inplace");
    bool inplace = false;
    if (iv && !arg_bool(I, iv, "inplace", &inplace)) return NULL;
    if (inplace) return rt_error(I, "nn.ReLU(inplace=True) is not in attn: use nn.ReLU(), which gives a new tensor");
    return new_layer(&ReLUClass);
}

/* nn.GELU(approximate='none' or 'tanh') */
static Value *bi_gelu_layer(Interp *I, Args *a) {
    static const char *const kw[] = {"approximate", NULL};
    if (!args_check(I, a, 1, kw)) return NULL;
    Value *v = arg(a, 0, "approximate");
    if (v && v->kind != V_STR)
        return rt_raise(I, "TypeError", "GELU(): argument 'approximate' must be str, not %s", val_type_name(v));
    const char *ap = v ? v->u.str.s : "none";
    if (strcmp(ap, "none") && strcmp(ap, "tanh"))
        return rt_raise(I, "RuntimeError", "approximate argument must be either none or tanh.");
    Value *m = new_layer(&GELUClass);
    val_attr_set(m, "approximate", val_str(ap));
    return m;
}

/* nn.Softmax(dim=None): the dim is kept, and used by each call. */
static Value *bi_softmax_layer(Interp *I, Args *a) {
    static const char *const kw[] = {"dim", NULL};
    if (!args_check(I, a, 1, kw)) return NULL;
    Value *v = arg(a, 0, "dim");
    if (v && v->kind != V_INT && v->kind != V_NONE)
        return rt_raise(I, "TypeError", "Softmax(): argument 'dim' must be int or None, not %s", val_type_name(v));
    Value *m = new_layer(&SoftmaxClass);
    val_attr_set(m, "dim", v ? val_incref(v) : val_none());
    return m;
}

/* nn.Identity(*args, **kwargs): takes any arguments and ignores them, as PyTorch's does. */
static Value *bi_identity_layer(Interp *I, Args *a) { return new_layer(&IdentityClass); }

/* ---- Sequential ---- */

/* Calls the children "0", "1", ... in order, each on what the one before returned. */
static Value *sequential_call(Interp *I, Value *self, Args *a) {
    static const char *const kw[] = {"input", NULL};
    if (!args_check(I, a, 1, kw)) return NULL;
    Value *x = arg(a, 0, "input");
    if (!x) return rt_raise(I, "TypeError", "Sequential.forward() missing 1 required positional argument: 'input'");
    Value *cur = val_incref(x);
    Dict *d = &self->u.obj.attrs;
    for (int i = 0; i < d->n && cur; i++) {
        if (!val_is_module(d->vals[i])) continue;
        Args b = {&cur, 1, NULL, NULL, 0, NULL, NULL};
        Value *next = interp_call(I, d->vals[i], &b);
        val_decref(cur);
        cur = next;
        if (!cur) rt_error_prefix(I, "in Sequential's layer (%s)", d->keys[i]->u.str.s);
    }
    return cur;
}

static const ObjClass SequentialClass = {.name = "Sequential", .call = sequential_call, .is_module = true};

/* nn.Sequential(*modules): each argument a module, kept as child "0", "1", ... */
static Value *bi_sequential(Interp *I, Args *a) {
    if (a->nkw) return rt_raise(I, "TypeError", "Sequential() got an unexpected keyword argument '%s'", a->kwnames[0]);
    for (int i = 0; i < a->npos; i++) {
        const char *module;
        Value *p = a->pos[i];
        if (p->kind == V_BUILTIN && builtins_type_module(p->u.builtin, &module))     /* nn.ReLU without () */
            return rt_raise(I, "TypeError", "%s.%s is not a Module subclass (it is the class: nn.%s() makes the layer)",
                            module, p->u.builtin->name, p->u.builtin->name);
        if (!val_is_module(p)) return rt_raise(I, "TypeError", "%s is not a Module subclass", val_type_name(p));
    }
    Value *m = new_layer(&SequentialClass);
    for (int i = 0; i < a->npos; i++) {
        char key[24];
        snprintf(key, sizeof key, "%d", i);
        val_attr_set(m, key, val_incref(a->pos[i]));
    }
    return m;
}

/* ---- LayerNorm (§11.7's AddNorm): per row of the last dims, (x - mean) / sqrt(var + eps) * weight + bias ---- */

/* x (..., *normalized_shape) -> same shape; mean and biased variance over the normalized dims, in double. */
static Value *layernorm_call(Interp *I, Value *self, Args *a) {
    static const char *const kw[] = {"input", NULL};
    if (!args_check(I, a, 1, kw)) return NULL;
    Value *xv = arg(a, 0, "input");
    if (!xv || xv->kind != V_TENSOR)
        return rt_raise(I, "TypeError", "LayerNorm: input must be a tensor, not %s", xv ? val_type_name(xv) : "missing");
    Tensor *x = xv->u.t, *w = attr_tensor(self, "weight"), *b = attr_tensor(self, "bias");
    Value *ns = val_attr_get(self, "normalized_shape");
    double eps = 1e-5;
    Value *ev = val_attr_get(self, "eps");
    if (ev && val_is_number(ev)) eps = val_as_double(ev);
    if (!ns || ns->kind != V_TUPLE) return rt_error(I, "LayerNorm: normalized_shape must be a tuple of sizes");
    int k = (int)ns->u.seq.n;
    bool fits = k <= x->ndim;
    int64_t M = 1;
    for (int i = 0; i < k && fits; i++) {
        Value *d = ns->u.seq.items[i];
        fits = d->kind == V_INT && x->shape[x->ndim - k + i] == d->u.i;
        M *= fits ? d->u.i : 1;
    }
    if (!fits) {
        StrBuf want, got;
        sb_init(&want);
        sb_init(&got);
        for (int i = 0; i < k; i++) { if (i) sb_puts(&want, ", "); val_repr(&want, ns->u.seq.items[i]); }
        for (int i = 0; i < x->ndim; i++) sb_printf(&got, "%s%lld", i ? ", " : "", (long long)x->shape[i]);
        rt_error(I, "Given normalized_shape=[%s], expected input with shape [*, %s], but got input of size[%s]",
                 sb_str(&want), sb_str(&want), sb_str(&got));
        sb_free(&want);
        sb_free(&got);
        return NULL;
    }
    if (!ten_is_float(x->dtype)) return rt_error(I, "LayerNorm: the input must be a float tensor, not %s", ten_dtype_name(x->dtype));
    if ((w && w->numel != M) || (b && b->numel != M))
        return rt_error(I, "LayerNorm: weight and bias must have normalized_shape's %lld elements", (long long)M);
    if ((w && w->dtype != x->dtype) || (b && b->dtype != x->dtype))      /* PyTorch computes in one dtype */
        return rt_error(I, "expected scalar type %s but found %s", dtype_word(x->dtype), dtype_word(w && w->dtype != x->dtype ? w->dtype : b->dtype));
    Tensor *y = ten_new_uninit(x->dtype, x->ndim, x->shape);
    if (!y) return rt_tensor_error(I);
    int64_t rows = M ? x->numel / M : 0;
    for (int64_t r = 0; r < rows; r++) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < M; j++) mean += ten_get(x, r * M + j);
        mean /= (double)M;
        for (int64_t j = 0; j < M; j++) { double d = ten_get(x, r * M + j) - mean; var += d * d; }
        double inv = 1.0 / sqrt(var / (double)M + eps);
        for (int64_t j = 0; j < M; j++) {
            double v = (ten_get(x, r * M + j) - mean) * inv;
            if (w) v = v * ten_get(w, j);
            if (b) v = v + ten_get(b, j);
            ten_set(y, r * M + j, v);
        }
    }
    return val_tensor(y);
}

static void layernorm_extra(StrBuf *out, Value *self) {
    Value *ns = val_attr_get(self, "normalized_shape"), *ev = val_attr_get(self, "eps"), *af = val_attr_get(self, "elementwise_affine");
    if (ns) val_repr(out, ns);
    sb_puts(out, ", eps=");
    val_float_repr(out, ev && val_is_number(ev) ? val_as_double(ev) : 1e-5);
    sb_printf(out, ", elementwise_affine=%s", af && af->kind == V_BOOL && !af->u.b ? "False" : "True");
}

static const ObjClass LayerNormClass = {.name = "LayerNorm", .call = layernorm_call, .is_module = true, .extra_repr = layernorm_extra};

/* nn.LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True): weight ones, bias zeros, as PyTorch's. */
static Value *bi_layernorm(Interp *I, Args *a) {
    static const char *const kw[] = {"normalized_shape", "eps", "elementwise_affine", NULL};
    if (!args_check(I, a, 3, kw)) return NULL;
    Value *nv = arg(a, 0, "normalized_shape"), *ev = arg(a, 1, "eps"), *av = arg(a, 2, "elementwise_affine");
    if (!nv) return rt_raise(I, "TypeError", "LayerNorm.__init__() missing 1 required positional argument: 'normalized_shape'");
    int64_t shape[TEN_MAX_DIMS];
    int k = 0;
    bool seq = nv->kind == V_LIST || nv->kind == V_TUPLE;
    int64_t n = seq ? nv->u.seq.n : 1;
    if (n > TEN_MAX_DIMS) return rt_error(I, "LayerNorm: normalized_shape has more than %d sizes", TEN_MAX_DIMS);
    for (int64_t i = 0; i < n; i++) {
        Value *d = seq ? nv->u.seq.items[i] : nv;
        if (d->kind != V_INT)
            return rt_raise(I, "TypeError", "LayerNorm: normalized_shape must be an int or a tuple of ints, not %s", val_type_name(d));
        if (d->u.i < 0 || d->u.i > 1 << 24)
            return rt_error(I, "LayerNorm: normalized_shape sizes must be between 0 and 16777216, got %lld", (long long)d->u.i);
        shape[k++] = d->u.i;
    }
    double eps = 1e-5;
    bool affine = true;
    if (ev && !arg_double(I, ev, "eps", &eps)) return NULL;
    if (av && !arg_bool(I, av, "elementwise_affine", &affine)) return NULL;
    Value *m = new_layer(&LayerNormClass);
    Value *t = val_tuple(k);
    for (int i = 0; i < k; i++) val_seq_set(t, i, val_int(shape[i]));
    val_attr_set(m, "normalized_shape", t);
    val_attr_set(m, "eps", val_float(eps));
    val_attr_set(m, "elementwise_affine", val_bool(affine));
    if (affine) {
        Value *wv = parameter(ten_full(DT_F32, k, shape, 1.0)), *bv = parameter(ten_new(DT_F32, k, shape));
        if (!wv || !bv) { val_decref(wv); val_decref(bv); val_decref(m); return rt_tensor_error(I); }
        val_attr_set(m, "weight", wv);
        val_attr_set(m, "bias", bv);
    } else {
        val_attr_set(m, "weight", val_none());
        val_attr_set(m, "bias", val_none());
    }
    return m;
}

/* ---- Embedding: row i of the weight for each index i (learned position embeddings, exercise 3 of §11.6) ---- */

/* indices (any shape, int64) -> (*indices.shape, embedding_dim) */
static Value *embedding_call(Interp *I, Value *self, Args *a) {
    static const char *const kw[] = {"input", NULL};
    if (!args_check(I, a, 1, kw)) return NULL;
    Value *xv = arg(a, 0, "input");
    if (!xv || xv->kind != V_TENSOR)
        return rt_raise(I, "TypeError", "embedding(): argument 'indices' (position 2) must be Tensor, not %s", xv ? val_type_name(xv) : "missing");
    Tensor *x = xv->u.t, *w = attr_tensor(self, "weight");
    if (x->dtype != DT_I64)
        return rt_error(I, "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                        "but got torch.%sTensor instead (while checking arguments for embedding)", dtype_word(x->dtype));
    if (!w || w->ndim != 2) return rt_error(I, "Embedding: weight must be a matrix (num_embeddings, embedding_dim)");
    if (x->ndim + 1 > TEN_MAX_DIMS) return rt_error(I, "Embedding: the indices have too many dimensions");
    int64_t N = w->shape[0], D = w->shape[1], sh[TEN_MAX_DIMS];
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t k = ten_get_i64(x, i);
        if (k < 0 || k >= N) return rt_raise(I, "IndexError", "index out of range in self (index %lld, num_embeddings %lld)", (long long)k, (long long)N);
    }
    memcpy(sh, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    sh[x->ndim] = D;
    Tensor *y = ten_new_uninit(w->dtype, x->ndim + 1, sh);
    if (!y) return rt_tensor_error(I);
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t k = ten_get_i64(x, i);
        for (int64_t j = 0; j < D; j++) ten_set(y, i * D + j, ten_get(w, k * D + j));
    }
    return done(I, y);
}

static void embedding_extra(StrBuf *out, Value *self) {
    Value *n = val_attr_get(self, "num_embeddings"), *d = val_attr_get(self, "embedding_dim"), *p = val_attr_get(self, "padding_idx");
    sb_printf(out, "%lld, %lld", n && n->kind == V_INT ? (long long)n->u.i : 0LL, d && d->kind == V_INT ? (long long)d->u.i : 0LL);
    if (p && p->kind == V_INT) sb_printf(out, ", padding_idx=%lld", (long long)p->u.i);
}

static const ObjClass EmbeddingClass = {.name = "Embedding", .call = embedding_call, .is_module = true, .extra_repr = embedding_extra};

/* nn.Embedding(num_embeddings, embedding_dim, padding_idx=None): weight drawn from N(0, 1), the padding row zero. */
static Value *bi_embedding(Interp *I, Args *a) {
    static const char *const kw[] = {"num_embeddings", "embedding_dim", "padding_idx", NULL};
    if (!args_check(I, a, 3, kw)) return NULL;
    Value *nv = arg(a, 0, "num_embeddings"), *dv = arg(a, 1, "embedding_dim"), *pv = arg(a, 2, "padding_idx");
    if (!nv || !dv)
        return rt_raise(I, "TypeError", "Embedding.__init__() missing required argument%s: %s", !nv && !dv ? "s" : "",
                        !nv && !dv ? "'num_embeddings' and 'embedding_dim'" : !nv ? "'num_embeddings'" : "'embedding_dim'");
    int64_t n, d, pad = 0;
    if (!arg_int(I, nv, "num_embeddings", &n) || !arg_int(I, dv, "embedding_dim", &d)) return NULL;
    if (n < 0 || d < 0) return rt_error(I, "Trying to create tensor with negative dimension %lld: [%lld, %lld]", (long long)(n < 0 ? n : d), (long long)n, (long long)d);
    if (n > 1 << 24 || d > 1 << 20 || n * d > TEN_MAX_NUMEL)
        return rt_error(I, "Embedding(%lld, %lld) is too large for attn (at most %lld weights)", (long long)n, (long long)d, (long long)TEN_MAX_NUMEL);
    bool has_pad = pv && pv->kind != V_NONE;
    if (has_pad) {
        if (!arg_int(I, pv, "padding_idx", &pad)) return NULL;
        if (pad >= n || pad < -n) return rt_error(I, "Padding_idx must be within num_embeddings");
        if (pad < 0) pad += n;
    }
    Tensor *w = ten_randn(&session_of(I)->rng, 2, (int64_t[]){n, d});
    if (!w) return rt_tensor_error(I);
    if (has_pad) for (int64_t j = 0; j < d; j++) ten_set(w, pad * d + j, 0.0);
    Value *m = new_layer(&EmbeddingClass);
    val_attr_set(m, "num_embeddings", val_int(n));
    val_attr_set(m, "embedding_dim", val_int(d));
    val_attr_set(m, "padding_idx", has_pad ? val_int(pad) : val_none());
    val_attr_set(m, "weight", parameter(w));
    return m;
}

const Builtin bi_nn_layers[] = {
    {"ReLU", bi_relu_layer, "nn.ReLU(inplace=False)",
     "A layer that applies max(x, 0) to each element: nn.ReLU()(X) is F.relu(X). Put it between layers in "
     "nn.Sequential.", "§5.1", 0},
    {"GELU", bi_gelu_layer, "nn.GELU(approximate='none')",
     "A layer that applies GELU, x times the normal CDF at x, to each element (approximate='tanh': the tanh "
     "formula): nn.GELU()(X) is F.gelu(X). The activation of Transformer feed-forward layers after BERT.", "", 0},
    {"Softmax", bi_softmax_layer, "nn.Softmax(dim=None)",
     "A layer that turns scores into probabilities along dim: nn.Softmax(dim=-1)(X) is torch.softmax(X, dim=-1). "
     "Give dim: each row along it then sums to 1.", "§4.1", 0},
    {"Identity", bi_identity_layer, "nn.Identity()",
     "A layer that returns its input unchanged (the same tensor): a placeholder where a model may have a layer, "
     "e.g. no normalization.", "", 0},
    {"Sequential", bi_sequential, "nn.Sequential(*modules)",
     "Stacks modules: calling it calls each in turn on the output of the one before. The children are named "
     "0, 1, ... (state_dict keys '0.weight', '1.bias' ...). E.g. nn.Sequential(nn.Linear(4, 8), nn.ReLU(), "
     "nn.Linear(8, 4)).", "§6.1", 0},
    {"LayerNorm", bi_layernorm, "nn.LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True)",
     "Normalizes each example over its last dimensions (normalized_shape, e.g. the hidden size d): subtracts their "
     "mean, divides by sqrt(variance + eps), then scales by weight (ones) and adds bias (zeros), both learned. "
     "The Transformer's AddNorm uses it after each attention layer. Input (..., d) for nn.LayerNorm(d).", "§11.7", 0},
    {"Embedding", bi_embedding, "nn.Embedding(num_embeddings, embedding_dim, padding_idx=None)",
     "A table of num_embeddings learned vectors of size embedding_dim (weight, drawn from N(0, 1)): given int64 "
     "indices of any shape, returns their rows, shape (*indices.shape, embedding_dim). Exercise 3 of §11.6: "
     "nn.Embedding(max_len, d)(torch.arange(n)) gives a learned embedding per position to add to X instead of P. "
     "padding_idx: that row starts at zero.", "§11.6", 0},
    {NULL, NULL, NULL, NULL, NULL, 0}};

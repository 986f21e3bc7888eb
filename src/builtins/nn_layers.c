/* nn_layers.c - the layers a student reaches for in §11.6's exercises: a deeper stack (exercise 1) with
 * nn.Sequential and nn.ModuleList (containers: indexed, sliced, iterated), nn.LayerNorm (float32 to the bit of
 * PyTorch's CPU kernel) and the activations nn.ReLU, nn.GELU, nn.Softmax, nn.Identity (each applies a function attn
 * already has: F.relu, F.gelu, torch.softmax); learned position embeddings (exercise 3) with nn.Embedding
 * (nn.MultiheadAttention is nn_multihead.c). Reprs, children, parameter names, initialisation and messages are
 * PyTorch 1.13's, also when a student replaced a weight by one of another shape. */
#include "nn_layers_internal.h"
#include "interp.h"
#include "ops.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A new parameter (named_parameters() and state_dict() list it) holding t, a leaf that requires grad as PyTorch's
 * nn.Parameter; NULL when t is. */
Value *parameter(Interp *I, Tensor *t) {
    Value *v = t ? val_tensor_ag(I->run.heap, t, ag_meta_new(true)) : NULL;
    if (v) { v->param = true; ag_meta_claim(v->ag, v); }
    return v;
}

Tensor *attr_tensor(Value *obj, const char *name) {
    Value *v = val_attr_get(obj, name);
    return v && v->kind == V_TENSOR ? v->u.t : NULL;
}

static const char *dtype_word(DType dt) {
    return dt == DT_F64 ? "Double" : dt == DT_I64 ? "Long" : dt == DT_BOOL ? "Bool" : "Float";
}

/* The declaration of a forward that takes one input (every layer here but MultiheadAttention's): bound by
 * args_bind_call with Python's words for <Class>.forward, as PyTorch's forward(self, input). */
const Builtin bi_forward_input = {"forward", NULL, "module.forward(input)", "", "", 0, "module"};

/* ---- activations: a module whose forward is one function of torch.nn.functional ---- */

/* Calls F.<fn>(input, <key>=value) (key NULL: no keyword; value NULL: the module's attribute key); a new reference
 * or NULL. */
static Value *apply_functional(Interp *I, Value *self, Args *a, const char *fn, const char *key, Value *value) {
    Value *x;
    if (!args_bind_call(I, a, &bi_forward_input, val_type_name(self), &x, 1)) return NULL;
    Value *f = builtins_module_attr(I->run.heap, "torch.nn.functional", fn);
    if (!f) return rt_error(I, "%s: F.%s is missing", val_type_name(self), fn);
    Value *kv = value ? value : key ? val_attr_get(self, key) : NULL;
    const char *kwn[1] = {key};
    Value *kwv[1] = {kv};
    Args b = {&x, 1, kwn, kwv, kv ? 1 : 0, NULL, NULL};
    Value *r = interp_call(I, f, &b);
    val_decref(f);
    return r;
}

static Value *relu_call(Interp *I, Value *self, Args *a) { return apply_functional(I, self, a, "relu", "inplace", NULL); }
static Value *gelu_call(Interp *I, Value *self, Args *a) { return apply_functional(I, self, a, "gelu", "approximate", NULL); }
static Value *tanh_call(Interp *I, Value *self, Args *a) { return apply_functional(I, self, a, "tanh", NULL, NULL); }
static Value *sigmoid_call(Interp *I, Value *self, Args *a) { return apply_functional(I, self, a, "sigmoid", NULL, NULL); }
/* nn.Softmax(dim=None) picks the dim as PyTorch's _get_softmax_dim does: 0 for 0-, 1- and 3-D input, else 1. */
static Value *softmax_call(Interp *I, Value *self, Args *a) {
    Value *dim = val_attr_get(self, "dim"), *x = a->npos ? a->pos[0] : NULL;
    if (!dim || dim->kind != V_NONE || !x || x->kind != V_TENSOR) return apply_functional(I, self, a, "softmax", "dim", NULL);
    int nd = x->u.t->ndim;
    Value *implicit = val_int(I->run.heap, nd == 0 || nd == 1 || nd == 3 ? 0 : 1);
    Value *r = apply_functional(I, self, a, "softmax", "dim", implicit);
    val_decref(implicit);
    return r;
}

/* nn.Identity()(x) is x itself, whatever x is, as in PyTorch. */
static Value *identity_call(Interp *I, Value *self, Args *a) {
    Value *x;
    if (!args_bind_call(I, a, &bi_forward_input, "Identity", &x, 1)) return NULL;
    return val_incref(x);
}

/* nn.Flatten(start_dim, end_dim)(x) is torch.flatten(x, start_dim, end_dim). */
static Value *flatten_call(Interp *I, Value *self, Args *a) {
    Value *x;
    if (!args_bind_call(I, a, &bi_forward_input, "Flatten", &x, 1)) return NULL;
    Value *f = builtins_module_attr(I->run.heap, "torch", "flatten");
    if (!f) return rt_error(I, "Flatten: torch.flatten is missing");
    Value *pos[3] = {x, val_attr_get(self, "start_dim"), val_attr_get(self, "end_dim")};
    if (!pos[1] || !pos[2]) { val_decref(f); return rt_error(I, "Flatten: start_dim and end_dim must be set"); }
    Args b = {pos, 3, NULL, NULL, 0, NULL, NULL};
    Value *r = interp_call(I, f, &b);
    val_decref(f);
    return r;
}

static void flatten_extra(StrBuf *out, Value *self) {
    Value *s = val_attr_get(self, "start_dim"), *e = val_attr_get(self, "end_dim");
    StrBuf b;
    sb_init(&b);
    val_repr(NULL, &b, s ? s : val_none());
    sb_printf(out, "start_dim=%s, end_dim=", sb_str(&b));
    sb_free(&b);
    sb_init(&b);
    val_repr(NULL, &b, e ? e : val_none());
    sb_puts(out, sb_str(&b));
    sb_free(&b);
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

/* PyTorch's ReLU.extra_repr: "inplace=True", or nothing */
static void relu_extra(StrBuf *out, Value *self) {
    Value *v = val_attr_get(self, "inplace");
    if (v && v->kind == V_BOOL && v->u.b) sb_puts(out, "inplace=True");
}

static const ObjClass ReLUClass = {.name = "ReLU", .call = relu_call, .is_module = true, .extra_repr = relu_extra};
static const ObjClass TanhClass = {.name = "Tanh", .call = tanh_call, .is_module = true};
static const ObjClass SigmoidClass = {.name = "Sigmoid", .call = sigmoid_call, .is_module = true};
static const ObjClass GELUClass = {.name = "GELU", .call = gelu_call, .is_module = true, .extra_repr = gelu_extra};
static const ObjClass SoftmaxClass = {.name = "Softmax", .call = softmax_call, .is_module = true, .extra_repr = softmax_extra};
static const ObjClass IdentityClass = {.name = "Identity", .call = identity_call, .is_module = true};
static const ObjClass FlattenClass = {.name = "Flatten", .call = flatten_call, .is_module = true, .extra_repr = flatten_extra};

Value *new_layer(Interp *I, const ObjClass *c) {
    Value *m = val_object(I->run.heap, c);
    val_attr_set(m, "training", val_bool(I->run.heap, true));
    return m;
}

/* nn.ReLU(inplace=False): forward is F.relu(input, inplace=self.inplace) (with inplace=True the input is written and
 * returned, recorded as PyTorch records it). */
static Value *bi_relu_layer(Interp *I, Args *a) {
    Value *iv;
    if (!args_bind(I, a, &iv, 1)) return NULL;
    bool inplace = false;
    if (iv && !arg_bool(I, iv, "inplace", &inplace)) return NULL;
    Value *m = new_layer(I, &ReLUClass);
    val_attr_set(m, "inplace", val_bool(I->run.heap, inplace));
    return m;
}

/* nn.Tanh() and nn.Sigmoid(): no arguments (Module.__init__'s message for any, as PyTorch's). */
static Value *bi_plain_activation(Interp *I, Args *a) {
    const Builtin *init = bi_module_methods;     /* bound by Module.__init__'s declaration: Tanh defines none */
    while (strcmp(init->name, "__init__")) init++;
    Args b = *a;
    b.fname = NULL;
    if (!args_bind_call(I, &b, init, "Module", NULL, 0)) return NULL;
    return new_layer(I, a->fn->tag ? &SigmoidClass : &TanhClass);
}

/* nn.GELU(approximate='none' or 'tanh') */
static Value *bi_gelu_layer(Interp *I, Args *a) {
    Value *v;
    if (!args_bind(I, a, &v, 1)) return NULL;
    if (v && v->kind != V_STR)
        return rt_raise(I, "TypeError", "GELU(): argument 'approximate' must be str, not %s", val_type_name(v));
    const char *ap = v ? v->u.str.s : "none";
    if (strcmp(ap, "none") && strcmp(ap, "tanh"))
        return rt_raise(I, "RuntimeError", "approximate argument must be either none or tanh.");
    Value *m = new_layer(I, &GELUClass);
    val_attr_set(m, "approximate", val_str(I->run.heap, ap));
    return m;
}

/* nn.Softmax(dim=None): the dim is kept, and used by each call. */
static Value *bi_softmax_layer(Interp *I, Args *a) {
    Value *v;
    if (!args_bind(I, a, &v, 1)) return NULL;
    if (v && v->kind != V_INT && v->kind != V_NONE)
        return rt_raise(I, "TypeError", "Softmax(): argument 'dim' must be int or None, not %s", val_type_name(v));
    Value *m = new_layer(I, &SoftmaxClass);
    val_attr_set(m, "dim", v ? val_incref(v) : val_none());
    return m;
}

/* nn.Flatten(start_dim=1, end_dim=-1): the dims are kept as given (PyTorch checks them at the call) and used by each call. */
static Value *bi_flatten_layer(Interp *I, Args *a) {
    Value *p[2];                 /* start_dim, end_dim */
    if (!args_bind(I, a, p, 2)) return NULL;
    Value *s = p[0], *e = p[1];
    Value *m = new_layer(I, &FlattenClass);
    val_attr_set(m, "start_dim", s ? val_incref(s) : val_int(I->run.heap, 1));
    val_attr_set(m, "end_dim", e ? val_incref(e) : val_int(I->run.heap, -1));
    return m;
}

/* nn.Identity(*args, **kwargs): takes any arguments and ignores them, as PyTorch's does. */
static Value *bi_identity_layer(Interp *I, Args *a) { return new_layer(I, &IdentityClass); }

/* ---- Sequential and ModuleList: modules held in order as children "0", "1", ... ---- */

/* The children of a container in order: its attributes that are modules (PyTorch's _modules). */
static int64_t container_len(Value *self) {
    Dict *d = &self->u.obj.attrs;
    int64_t n = 0;
    for (int i = 0; i < d->n; i++) n += val_is_module(d->vals[i]);
    return n;
}

/* The children's names (keys true) or the children themselves, as a new list. */
static Value *container_list(Value *self, bool keys) {
    Dict *d = &self->u.obj.attrs;
    Value *l = val_list(self->heap, 0);
    for (int i = 0; i < d->n; i++)
        if (val_is_module(d->vals[i])) val_list_append(l, val_incref(keys ? d->keys[i] : d->vals[i]));
    return l;
}

static Value *container_iter(Interp *I, Value *self) {
    Value *l = container_list(self, false), *it = ops_iter(I, l);
    val_decref(l);
    return it;
}

/* An integer index (operator.index) in -len <= i < len, made non-negative; false with PyTorch's error. */
static bool container_place(Interp *I, Value *self, Value *index, int64_t *out) {
    if (index->kind != V_INT && index->kind != V_BOOL) {
        rt_raise(I, "TypeError", "'%s' object cannot be interpreted as an integer", val_type_name(index));
        return false;
    }
    int64_t i = index->kind == V_INT ? index->u.i : index->u.b, n = container_len(self);
    if (i < -n || i >= n) {
        rt_raise(I, "IndexError", "index %lld is out of range", (long long)i);
        return false;
    }
    *out = i < 0 ? i + n : i;
    return true;
}

static Value *sequential_call(Interp *I, Value *self, Args *a);
static Value *container_getitem(Interp *I, Value *self, Value *index);
static Value *m_container_append(Interp *I, Args *a);
static Value *m_container_extend(Interp *I, Args *a);
static const Builtin sequential_methods[] = {
    {"append", m_container_append, "net.append(module)", "Adds module at the end (named by the number of layers before it); returns net.", "", 0, "net"},
    {"extend", m_container_extend, "net.extend(modules)", "Appends each module of a list or another Sequential; returns net.", "", 0, "net"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};
static const Builtin module_list_methods[] = {
    {"append", m_container_append, "layers.append(module)", "Adds module at the end of the list; returns the list.", "", 0, "layers"},
    {"extend", m_container_extend, "layers.extend(modules)", "Appends each module of an iterable; returns the list.", "", 0, "layers"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const ObjClass SequentialClass = {.name = "Sequential", .call = sequential_call, .is_module = true, .methods = sequential_methods,
                                         .getitem = container_getitem, .len = container_len, .iter = container_iter};
static Value *module_list_call(Interp *I, Value *self, Args *a) {
    (void)a;
    return rt_raise(I, "NotImplementedError", "Module [%s] is missing the required \"forward\" function", val_type_name(self));
}
static const ObjClass ModuleListClass = {.name = "ModuleList", .call = module_list_call, .is_module = true, .methods = module_list_methods,
                                         .getitem = container_getitem, .len = container_len, .iter = container_iter};

/* net[i]: the i-th child; net[a:b]: a new container of those children (a Sequential keeps their names, as
 * PyTorch's OrderedDict slice does; a ModuleList numbers them from 0). */
static Value *container_getitem(Interp *I, Value *self, Value *index) {
    Value *mods = container_list(self, false), *r = NULL;
    if (index->kind == V_SLICE) {
        /* the (name, module) pairs sliced once, as PyTorch's list(self._modules.items())[idx]: the bounds' __index__
         * runs once (run twice, for the names and the modules, it could pick more modules than names) */
        Value *keys = container_list(self, true), *pairs = val_list(I->run.heap, mods->u.seq.n);
        for (int64_t i = 0; i < mods->u.seq.n; i++) {
            Value *t = val_tuple(I->run.heap, 2);
            val_seq_set(t, 0, val_incref(keys->u.seq.items[i]));
            val_seq_set(t, 1, val_incref(mods->u.seq.items[i]));
            val_seq_set(pairs, i, t);
        }
        Value *sel = ops_index(I, pairs, index);
        if (sel) {
            r = new_layer(I, self->u.obj.cls);
            bool seq = self->u.obj.cls == &SequentialClass;
            for (int64_t i = 0; i < sel->u.seq.n; i++) {
                char key[24];
                snprintf(key, sizeof key, "%lld", (long long)i);
                Value *t = sel->u.seq.items[i];
                val_attr_set(r, seq ? t->u.seq.items[0]->u.str.s : key, val_incref(t->u.seq.items[1]));
            }
        }
        val_decref(keys);
        val_decref(pairs);
        val_decref(sel);
    } else {
        int64_t i;
        if (container_place(I, self, index, &i)) r = val_incref(mods->u.seq.items[i]);
    }
    val_decref(mods);
    return r;
}

/* Adds module as the next child, named by the count of children (PyTorch's add_module(str(len(self)), module)). */
static bool container_add(Interp *I, Value *self, Value *module) {
    if (!val_is_module(module)) {
        rt_raise(I, "TypeError", "%s is not a Module subclass", val_type_name(module));
        return false;
    }
    char key[24];
    snprintf(key, sizeof key, "%lld", (long long)container_len(self));
    val_attr_set(self, key, val_incref(module));
    return true;
}

/* The class that defines a container's method, by the declaration it was called through ("layers.append(module)"
 * is ModuleList's), so a subclass's errors name it as Python's qualified name does. */
static const char *container_owner(const Args *a) {
    return a->fn && !strncmp(a->fn->signature, "layers.", 7) ? "ModuleList" : "Sequential";
}

/* .append(module): returns the container. */
static Value *m_container_append(Interp *I, Args *a) {
    Value *module;
    if (!args_bind_method(I, a, container_owner(a), &module, 1)) return NULL;
    return container_add(I, a->pos[0], module) ? val_incref(a->pos[0]) : NULL;
}

/* Appends each module of the iterable src to the container self (a ModuleList refuses a non-iterable as PyTorch
 * does); returns self. The items are read first, so net.extend(net) doubles it as in PyTorch. */
static Value *container_extend(Interp *I, Value *self, Value *src) {
    if (!ops_is_iterable(I, src))
        return self->u.obj.cls == &ModuleListClass
                   ? rt_raise(I, "TypeError", "ModuleList.extend should be called with an iterable, but got %s", val_type_name(src))
                   : rt_raise(I, "TypeError", "'%s' object is not iterable", val_type_name(src));
    Value *items = ops_to_list(I, src);
    if (!items) return NULL;
    bool ok = true;
    for (int64_t i = 0; ok && i < items->u.seq.n; i++) ok = container_add(I, self, items->u.seq.items[i]);
    val_decref(items);
    return ok ? val_incref(self) : NULL;
}

/* .extend(modules): container_extend. */
static Value *m_container_extend(Interp *I, Args *a) {
    Value *src;
    if (!args_bind_method(I, a, container_owner(a), &src, 1)) return NULL;
    return container_extend(I, a->pos[0], src);
}

/* Calls the children "0", "1", ... in order, each on what the one before returned. */
static Value *sequential_call(Interp *I, Value *self, Args *a) {
    Value *x;
    if (!args_bind_call(I, a, &bi_forward_input, "Sequential", &x, 1)) return NULL;
    Value *cur = val_incref(x), *mods = container_list(self, false), *keys = container_list(self, true);
    for (int64_t i = 0; i < mods->u.seq.n && cur; i++) {       /* the list holds each layer while it runs */
        Args b = {&cur, 1, NULL, NULL, 0, NULL, NULL};
        Value *next = interp_call(I, mods->u.seq.items[i], &b);
        val_decref(cur);
        cur = next;
        /* the layer that failed is named once: not again by each Sequential around it (one that holds itself
         * stops with a RecursionError, whose message stays Python's) */
        if (!cur && strcmp(I->error.etype, "RecursionError") && strncmp(I->error.msg, "in Sequential's layer", 21))
            rt_error_prefix(I, "in Sequential's layer (%s)", keys->u.seq.items[i]->u.str.s);
    }
    val_decref(mods);
    val_decref(keys);
    return cur;
}

/* nn.Sequential(*modules): each argument a module, kept as child "0", "1", ... */
static Value *bi_sequential(Interp *I, Args *a) {
    Value *first;
    if (!args_bind(I, a, &first, 1)) return NULL;
    for (int i = 0; i < a->npos; i++) {
        const char *module;
        Value *p = a->pos[i];
        if (p->kind == V_BUILTIN && builtins_type_module(p->u.builtin, &module))     /* nn.ReLU without () */
            return rt_raise(I, "TypeError", "%s.%s is not a Module subclass (it is the class: nn.%s() makes the layer)",
                            module, p->u.builtin->name, p->u.builtin->name);
        if (!val_is_module(p)) return rt_raise(I, "TypeError", "%s is not a Module subclass", val_type_name(p));
    }
    Value *m = new_layer(I, &SequentialClass);
    for (int i = 0; i < a->npos; i++) {
        char key[24];
        snprintf(key, sizeof key, "%d", i);
        val_attr_set(m, key, val_incref(a->pos[i]));
    }
    return m;
}

/* nn.ModuleList(modules=None): the modules of an iterable, as children "0", "1", ... */
static Value *bi_module_list(Interp *I, Args *a) {
    Value *src;
    if (!args_bind(I, a, &src, 1)) return NULL;
    Value *m = new_layer(I, &ModuleListClass);
    if (!src || src->kind == V_NONE) return m;
    Value *r = container_extend(I, m, src);
    val_decref(m);
    return r;
}

/* ---- LayerNorm (§11.7's AddNorm): per row of the last dims, (x - mean) / sqrt(var + eps) * weight + bias ----
 * x (..., *normalized_shape) -> same shape, PyTorch's checks and messages, then its kernel (ten_layer_norm). */
static Value *layernorm_call(Interp *I, Value *self, Args *a) {
    Value *xv;
    if (!args_bind_call(I, a, &bi_forward_input, "LayerNorm", &xv, 1)) return NULL;
    if (xv->kind != V_TENSOR) return rt_forward_not_tensor(I, a, xv, "layer_norm");
    Tensor *x = xv->u.t, *w = attr_tensor(self, "weight"), *b = attr_tensor(self, "bias");
    Value *ns = val_attr_get(self, "normalized_shape");
    double eps = 1e-5;
    Value *ev = val_attr_get(self, "eps");
    if (ev && val_is_number(ev)) eps = val_as_double(ev);
    if (!ns || ns->kind != V_TUPLE) return rt_error(I, "LayerNorm: normalized_shape must be a tuple of sizes");
    int k = (int)ns->u.seq.n;
    if (k == 0)
        return rt_error(I, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
                        "but got normalized_shape = []");
    Tensor *wb[2] = {w, b};
    for (int t = 0; t < 2; t++) {          /* PyTorch checks the weight and bias against normalized_shape first */
        if (!wb[t]) continue;
        bool same = wb[t]->ndim == k;
        for (int i = 0; i < k && same; i++) same = ns->u.seq.items[i]->kind == V_INT && wb[t]->shape[i] == ns->u.seq.items[i]->u.i;
        if (same) continue;
        StrBuf want, got;
        sb_init(&want);
        sb_init(&got);
        val_incref(ns);      /* held: an item's __repr__ may replace the module's normalized_shape */
        for (int i = 0; i < k; i++) { if (i) sb_puts(&want, ", "); val_repr_quiet(I, &want, ns->u.seq.items[i]); }
        val_decref(ns);
        for (int i = 0; i < wb[t]->ndim; i++) sb_printf(&got, "%s%lld", i ? ", " : "", (long long)wb[t]->shape[i]);
        const char *what = t ? "bias" : "weight";
        rt_raise(I, "RuntimeError", "Expected %s to be of same shape as normalized_shape, but got %s of shape [%s] and normalized_shape = [%s]",
                 what, what, sb_str(&got), sb_str(&want));
        sb_free(&want);
        sb_free(&got);
        return NULL;
    }
    bool fits = k <= x->ndim;
    for (int i = 0; i < k && fits; i++) {
        Value *d = ns->u.seq.items[i];
        fits = d->kind == V_INT && x->shape[x->ndim - k + i] == d->u.i;
    }
    if (!fits) {
        StrBuf want, got;
        sb_init(&want);
        sb_init(&got);
        val_incref(ns);      /* held: an item's __repr__ may replace the module's normalized_shape */
        for (int i = 0; i < k; i++) { if (i) sb_puts(&want, ", "); val_repr_quiet(I, &want, ns->u.seq.items[i]); }
        val_decref(ns);
        for (int i = 0; i < x->ndim; i++) sb_printf(&got, "%s%lld", i ? ", " : "", (long long)x->shape[i]);
        rt_raise(I, "RuntimeError", "Given normalized_shape=[%s], expected input with shape [*, %s], but got input of size[%s]",
                 sb_str(&want), sb_str(&want), sb_str(&got));
        sb_free(&want);
        sb_free(&got);
        return NULL;
    }
    if (!ten_is_float(x->dtype)) return rt_error(I, "LayerNorm: the input must be a float tensor, not %s", ten_dtype_name(x->dtype));
    if ((w && w->dtype != x->dtype) || (b && b->dtype != x->dtype))      /* PyTorch computes in one dtype */
        return rt_raise(I, "RuntimeError", "expected scalar type %s but found %s", dtype_word(x->dtype), dtype_word(w && w->dtype != x->dtype ? w->dtype : b->dtype));
    Value *xwb[3] = {xv, w ? val_attr_get(self, "weight") : NULL, b ? val_attr_get(self, "bias") : NULL};
    if (grad_recording(I, 3, xwb)) {             /* NativeLayerNormBackward0, the same kernel's digits */
        AgVal wa = w ? arg_ag(xwb[1]) : (AgVal){NULL, NULL}, ba = b ? arg_ag(xwb[2]) : (AgVal){NULL, NULL};
        return ret_ag(I, ag_layer_norm(&I->run.ag, arg_ag(xv), k, wa, ba, eps));
    }
    Tensor *y = ten_layer_norm(x, k, w, b, eps, NULL, NULL);     /* interrupted: rt_tensor_error raises it */
    return y ? val_tensor(I->run.heap, y) : rt_tensor_error(I);
}

static void layernorm_extra(StrBuf *out, Value *self) {
    Value *ns = val_attr_get(self, "normalized_shape"), *ev = val_attr_get(self, "eps"), *af = val_attr_get(self, "elementwise_affine");
    if (ns) val_repr_quiet(NULL, out, ns);     /* attn's own values: no student code runs here */
    sb_puts(out, ", eps=");
    val_float_repr(out, ev && val_is_number(ev) ? val_as_double(ev) : 1e-5);
    sb_printf(out, ", elementwise_affine=%s", af && af->kind == V_BOOL && !af->u.b ? "False" : "True");
}

static const ObjClass LayerNormClass = {.name = "LayerNorm", .call = layernorm_call, .is_module = true, .extra_repr = layernorm_extra};

/* nn.LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True): weight ones, bias zeros, as PyTorch's. */
static Value *bi_layernorm(Interp *I, Args *a) {
    Value *p[3];                 /* normalized_shape, eps, elementwise_affine */
    if (!args_bind(I, a, p, 3)) return NULL;
    Value *nv = p[0], *ev = p[1], *av = p[2];
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
    Value *m = new_layer(I, &LayerNormClass);
    Value *t = val_tuple(I->run.heap, k);
    for (int i = 0; i < k; i++) val_seq_set(t, i, val_int(I->run.heap, shape[i]));
    val_attr_set(m, "normalized_shape", t);
    val_attr_set(m, "eps", val_float(I->run.heap, eps));
    val_attr_set(m, "elementwise_affine", val_bool(I->run.heap, affine));
    if (affine) {
        Value *wv = parameter(I, ten_full_in(I->run.ten, DT_F32, k, shape, 1.0)), *bv = parameter(I, ten_new_in(I->run.ten, DT_F32, k, shape));
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
    Value *xv;
    if (!args_bind_call(I, a, &bi_forward_input, "Embedding", &xv, 1)) return NULL;
    if (xv->kind != V_TENSOR)
        return rt_raise(I, "TypeError", "embedding(): argument 'indices' (position 2) must be Tensor, not %s", val_type_name(xv));
    Tensor *x = xv->u.t, *w = attr_tensor(self, "weight");
    if (!w) return rt_raise(I, "TypeError", "embedding(): argument 'weight' (position 1) must be Tensor, not %s",
                            val_attr_get(self, "weight") ? val_type_name(val_attr_get(self, "weight")) : "NoneType");
    if (w->ndim != 2) return rt_raise(I, "RuntimeError", "'weight' must be 2-D");
    if (x->dtype != DT_I64)
        return rt_raise(I, "RuntimeError", "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                        "but got torch.%sTensor instead (while checking arguments for embedding)", dtype_word(x->dtype));
    if (x->ndim + 1 > TEN_MAX_DIMS) return rt_error(I, "Embedding: the indices have too many dimensions");
    int64_t N = w->shape[0], D = w->shape[1], sh[TEN_MAX_DIMS];
    for (int64_t i = 0; i < x->numel; i++) {
        int64_t k = ten_get_i64(x, i);
        if (k < 0 || k >= N) return rt_raise(I, "IndexError", "index out of range in self");   /* PyTorch's words */
    }
    Value *wv = val_attr_get(self, "weight");
    if (grad_recording(I, 1, &wv)) {             /* EmbeddingBackward0: the padding row gets no grad */
        Value *pv = val_attr_get(self, "padding_idx");
        return ret_ag(I, ag_embedding(&I->run.ag, arg_ag(wv), x, pv && pv->kind == V_INT ? pv->u.i : AG_NO_PADDING));
    }
    memcpy(sh, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    sh[x->ndim] = D;
    Tensor *y = ten_new_uninit_in(I->run.ten, w->dtype, x->ndim + 1, sh);
    if (!y) return rt_tensor_error(I);
    for (int64_t i = 0; i < x->numel; i++) {
        if (ten_interrupted) { ten_free(y); return rt_interrupt(I); }
        int64_t k = ten_get_i64(x, i);
        for (int64_t j = 0; j < D; j++) ten_set(y, i * D + j, ten_get(w, k * D + j));
    }
    return rt_tensor_result(I, y);
}

static void embedding_extra(StrBuf *out, Value *self) {
    Value *n = val_attr_get(self, "num_embeddings"), *d = val_attr_get(self, "embedding_dim"), *p = val_attr_get(self, "padding_idx");
    sb_printf(out, "%lld, %lld", n && n->kind == V_INT ? (long long)n->u.i : 0LL, d && d->kind == V_INT ? (long long)d->u.i : 0LL);
    if (p && p->kind == V_INT) sb_printf(out, ", padding_idx=%lld", (long long)p->u.i);
}

static const ObjClass EmbeddingClass = {.name = "Embedding", .call = embedding_call, .is_module = true, .extra_repr = embedding_extra};

/* nn.Embedding(num_embeddings, embedding_dim, padding_idx=None): weight drawn from N(0, 1), the padding row zero. */
static Value *bi_embedding(Interp *I, Args *a) {
    Value *p[3];                 /* num_embeddings, embedding_dim, padding_idx */
    if (!args_bind(I, a, p, 3)) return NULL;
    Value *nv = p[0], *dv = p[1], *pv = p[2];
    int64_t n, d, pad = 0;
    if (!arg_int(I, nv, "num_embeddings", &n) || !arg_int(I, dv, "embedding_dim", &d)) return NULL;
    if (n < 0 || d < 0) return rt_error(I, "Trying to create tensor with negative dimension %lld: [%lld, %lld]", (long long)(n < 0 ? n : d), (long long)n, (long long)d);
    if (n > 1 << 24 || d > 1 << 20 || n * d > I->run.ten->limit_numel)
        return rt_error(I, "Embedding(%lld, %lld) is too large for attn (at most %lld weights)", (long long)n, (long long)d, (long long)I->run.ten->limit_numel);
    bool has_pad = pv && pv->kind != V_NONE;
    if (has_pad) {
        if (!arg_int(I, pv, "padding_idx", &pad)) return NULL;
        if (pad >= n || pad < -n) return rt_raise(I, "AssertionError", "Padding_idx must be within num_embeddings");
        if (pad < 0) pad += n;
    }
    Tensor *w = ten_randn_in(I->run.ten, &I->run.rng, 2, (int64_t[]){n, d});
    if (!w) return rt_tensor_error(I);
    if (has_pad) for (int64_t j = 0; j < d; j++) ten_set(w, pad * d + j, 0.0);
    Value *m = new_layer(I, &EmbeddingClass);
    val_attr_set(m, "num_embeddings", val_int(I->run.heap, n));
    val_attr_set(m, "embedding_dim", val_int(I->run.heap, d));
    val_attr_set(m, "padding_idx", has_pad ? val_int(I->run.heap, pad) : val_none());
    val_attr_set(m, "weight", parameter(I, w));
    return m;
}

const Builtin bi_nn_layers[] = {
    {"ReLU", bi_relu_layer, "nn.ReLU(inplace=False)",
     "A layer that applies max(x, 0) to each element: nn.ReLU()(X) is F.relu(X). Put it between layers in "
     "nn.Sequential (inplace=True writes into X and returns it).", "§5.1", 0, "nn"},
    {"GELU", bi_gelu_layer, "nn.GELU(approximate='none')",
     "A layer that applies GELU, x times the normal CDF at x, to each element (approximate='tanh': the tanh "
     "formula): nn.GELU()(X) is F.gelu(X). The activation of Transformer feed-forward layers after BERT.", "", 0, "nn"},
    {"Tanh", bi_plain_activation, "nn.Tanh()",
     "A layer that applies tanh to each element (values in (-1, 1)): nn.Tanh()(X) is torch.tanh(X). The activation "
     "of RNN hidden states and of additive attention's scoring MLP.", "§5.1", 0, "nn"},
    {"Sigmoid", bi_plain_activation, "nn.Sigmoid()",
     "A layer that applies 1 / (1 + exp(-x)) to each element (values in (0, 1)): nn.Sigmoid()(X) is "
     "torch.sigmoid(X). Gates and binary classification use it.", "§5.1", 1, "nn"},
    {"Softmax", bi_softmax_layer, "nn.Softmax(dim=None)",
     "A layer that turns scores into probabilities along dim: nn.Softmax(dim=-1)(X) is torch.softmax(X, dim=-1). "
     "Give dim: each row along it then sums to 1.", "§4.1", 0, "nn"},
    {"Flatten", bi_flatten_layer, "nn.Flatten(start_dim=1, end_dim=-1)",
     "A layer that flattens dims start_dim..end_dim into one: nn.Flatten()(X) is torch.flatten(X, 1), a batch of "
     "(b, c, h, w) becoming (b, c*h*w) before a Linear layer.", "", 0, "nn"},
    {"Identity", bi_identity_layer, "nn.Identity()",
     "A layer that returns its input unchanged (the same tensor): a placeholder where a model may have a layer, "
     "e.g. no normalization.", "", 0, "nn"},
    {"Sequential", bi_sequential, "nn.Sequential(*modules)",
     "Stacks modules: calling it calls each in turn on the output of the one before. The children are named "
     "0, 1, ... (state_dict keys '0.weight', '1.bias' ...). E.g. nn.Sequential(nn.Linear(4, 8), nn.ReLU(), "
     "nn.Linear(8, 4)).", "§6.1", 0, "nn"},
    {"ModuleList", bi_module_list, "nn.ModuleList(modules=None)",
     "Holds modules in a list: index, slice, len, iterate, append and extend it like a list; the modules are children "
     "of the module that holds it (parameters named 'layers.0.weight' ...). It has no forward: call its modules.", "", 0, "nn"},
    {"LayerNorm", bi_layernorm, "nn.LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True)",
     "Normalizes each example over its last dimensions (normalized_shape, e.g. the hidden size d): subtracts their "
     "mean, divides by sqrt(variance + eps), then scales by weight (ones) and adds bias (zeros), both learned. "
     "The Transformer's AddNorm uses it after each attention layer. Input (..., d) for nn.LayerNorm(d).", "§11.7", 0, "nn"},
    {"Embedding", bi_embedding, "nn.Embedding(num_embeddings, embedding_dim, padding_idx=None)",
     "A table of num_embeddings learned vectors of size embedding_dim (weight, drawn from N(0, 1)): given int64 "
     "indices of any shape, returns their rows, shape (*indices.shape, embedding_dim). Exercise 3 of §11.6: "
     "nn.Embedding(max_len, d)(torch.arange(n)) gives a learned embedding per position to add to X instead of P. "
     "padding_idx: that row starts at zero.", "§11.6", 0, "nn"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* autograd_builtins.c - autograd at the prompt, on src/autograd: requires_grad, .grad, .grad_fn, .is_leaf,
 * backward(), detach(), retain_grad(), torch.autograd.grad, the grad mode (torch.no_grad(), enable_grad(),
 * set_grad_enabled()) as context managers and decorators, the grad_fn objects, and the check after every builtin
 * call: requires_grad=True of a factory, and the refusal of an operation with no gradient yet (never a result
 * silently detached from the graph). */
#include "builtins_internal.h"
#include "autograd.h"
#include "ops.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

AgVal arg_ag(const Value *v) { return (AgVal){v->u.t, v->ag}; }

Value *ret_ag(Interp *I, AgVal r) {
    if (!r.t) { ag_meta_unref(r.m); return rt_tensor_error(I); }
    return val_tensor_ag(I->run.heap, r.t, r.m);
}

bool grad_recording(Interp *I, int n, Value *const *vals) {
    if (!I->run.ag.grad_enabled) return false;
    for (int i = 0; i < n; i++)
        if (vals[i] && val_requires_grad(vals[i])) return true;
    return false;
}

/* ---- grad_fn objects: <MulBackward0 object at 0x...>, name(), next_functions ---- */

static AgNode *node_of(Value *self) { return self->u.obj.priv; }
static void gradfn_free(void *p) {
    ag_node_set_handle(p, NULL);
    ag_node_unref(p);
}
static void gradfn_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    sb_printf(out, "<%s object at %p>", ag_node_name(node_of(self)), (void *)node_of(self));
}
static Value *gradfn_value(Interp *I, AgNode *n);
static Value *gradfn_type(Value *self);
static Value *m_gradfn_name(Interp *I, Args *a) {
    (void)I;
    const char *name = ag_node_name(node_of(a->pos[0]));
    /* PyTorch's name() of its hand-written nodes is their C++ name; generated ones (MulBackward0) are bare */
    if (!strcmp(name, "AccumulateGrad") || !strcmp(name, "CopySlices") || !strcmp(name, "CopyBackwards")) {
        char full[64];
        snprintf(full, sizeof full, "torch::autograd::%s", name);
        return val_str(I->run.heap, full);
    }
    return val_str(I->run.heap, name);
}
static const Builtin gradfn_methods[] = {
    {"name", m_gradfn_name, "grad_fn.name()", "The name of the backward function: 'MulBackward0'.", "", 0, "grad_fn"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};
/* grad_fn.next_functions: one (node, output number) pair per input, (None, 0) where the input needs no grad. */
static Value *gradfn_getattr(Interp *I, Value *self, const char *name) {
    AgNode *n = node_of(self);
    if (!strcmp(name, "variable") && ag_node_variable(n)) {   /* AccumulateGrad: its leaf */
        Value *leaf = ag_meta_handle(ag_node_variable(n));
        if (leaf) return val_incref(leaf);
        int param = 0;
        Tensor *kept = ag_node_take_variable(n, &param);      /* the student deleted it: the node kept it */
        if (kept) {
            leaf = val_tensor_ag(I->run.heap, kept, ag_meta_ref(ag_node_variable(n)));
            leaf->param = param != 0;
            ag_meta_claim(leaf->ag, leaf);
            return leaf;
        }
        return rt_error(I, "grad_fn.variable: attn no longer holds a tensor object for this leaf (bind the leaf to a name "
                           "before you use it)");
    }
    if (!strcmp(name, "next_functions")) {
        int k = ag_node_num_next(n);
        Value *t = val_tuple(I->run.heap, k);
        for (int i = 0; i < k; i++) {
            int nr = 0;
            AgNode *e = ag_node_next(n, i, &nr);
            Value *pair = val_tuple(I->run.heap, 2);
            val_seq_set(pair, 0, e ? gradfn_value(I, e) : val_none());
            val_seq_set(pair, 1, val_int(I->run.heap, nr));
            val_seq_set(t, i, pair);
        }
        return t;
    }
    if (!strcmp(name, "requires_grad")) return val_bool(I->run.heap, true);     /* PyTorch's nodes answer True */
    if (!strcmp(name, "metadata") || !strcmp(name, "register_hook") || !strcmp(name, "register_prehook"))
        return rt_error(I, "grad_fn.%s is not in attn yet (its autograd has no hooks)", name);
    if (strcmp(name, "name") && strncmp(name, "__", 2))         /* Python's words, with the node's class */
        return rt_raise(I, "AttributeError", "'%s' object has no attribute '%s'", ag_node_name(n), name);
    return ops_object_getattr(I, self, name);
}

/* type(x.grad_fn): one class per kind of node, named as the node (SumBackward0, AccumulateGrad), as PyTorch has one
 * C type per backward function, so that type(a.grad_fn) is type(b.grad_fn) for two sums and isinstance holds. Made on
 * first use (the node names are spread over src/autograd), immortal and shared by every interpreter of the process
 * as the other built-in classes (registry.c's class_names); gradfn_types_lock guards the table. A new reference. */
enum { GRADFN_TYPES_MAX = 512 };
static pthread_mutex_t gradfn_types_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { char *name; Value *cls; } gradfn_types[GRADFN_TYPES_MAX];
static int n_gradfn_types;
static Value *gradfn_type(Value *self) {
    const char *name = ag_node_name(node_of(self));
    Value *c = NULL;
    pthread_mutex_lock(&gradfn_types_lock);
    for (int i = 0; i < n_gradfn_types && !c; i++)
        if (!strcmp(gradfn_types[i].name, name)) c = gradfn_types[i].cls;
    if (!c && n_gradfn_types < GRADFN_TYPES_MAX) {
        char *own = xstrdup(name);
        c = class_new_builtin(own, "builtins", NULL, NULL, false);
        c->u.cls->immutable = true;                  /* a C type in PyTorch: SumBackward0.x = 1 raises */
        c->u.cls->no_new = strcmp(own, "AccumulateGrad") != 0;     /* SumBackward0() raises TypeError (AccumulateGrad()
                                                                     * PyTorch's RuntimeError: class_call refuses) */
        gradfn_types[n_gradfn_types].name = own;
        gradfn_types[n_gradfn_types++].cls = c;
    }
    pthread_mutex_unlock(&gradfn_types_lock);
    return c ? val_incref(c) : NULL;
}

/* y.grad_fn(g): PyTorch runs the node's backward on g; attn's nodes are not callable from Python */
static Value *gradfn_call(Interp *I, Value *self, Args *a) {
    (void)a;
    return rt_error(I, "calling a grad_fn node (%s) is not in attn: torch.autograd.grad(y, x, g) gives the gradient",
                    ag_node_name(node_of(self)));
}
static const ObjClass GradFnClass = {.name = "grad_fn", .call = gradfn_call, .repr = gradfn_repr, .methods = gradfn_methods,
                                     .getattr = gradfn_getattr, .free_priv = gradfn_free, .type = gradfn_type};
/* The grad_fn object of n (a new reference): one object per node while it lives, as PyTorch's, so that
 * x.grad_fn is x.grad_fn; output k of a node of several outputs shows output 0's (ag_node_shown). */
static Value *gradfn_value(Interp *I, AgNode *n) {
    n = ag_node_shown(n);
    Value *v = ag_node_handle(n);
    if (v) return val_incref(v);
    v = val_object(I->run.heap, &GradFnClass);
    v->u.obj.priv = ag_node_ref(n);
    ag_node_set_handle(n, v);
    return v;
}

/* ---- a tensor's autograd attributes ---- */

/* Whether a and b are the same view of the same storage (a handle of x's .grad still showing it). */
static bool same_view(const Tensor *a, const Tensor *b) {
    if (!ten_same_storage(a, b) || a->offset != b->offset || a->dtype != b->dtype || !ten_same_shape(a, b)) return false;
    for (int d = 0; d < a->ndim; d++) if (a->stride[d] != b->stride[d]) return false;
    return true;
}

/* X.requires_grad, X.grad, X.grad_fn, X.is_leaf (a new reference); NULL with no error when name is none of them. */
Value *ag_tensor_attr(Interp *I, Value *x, const char *name) {
    AgMeta *m = x->ag;
    if ((!strcmp(name, "is_leaf") || !strcmp(name, "grad_fn")) && ag_view_check(&I->run.ag, m) < 0)
        return rt_tensor_error(I);
    if (!strcmp(name, "requires_grad")) {
        if (m) ag_grad_fn(&I->run.ag, m);      /* a view whose base got history since requires grad now */
        return val_bool(I->run.heap, ag_requires_grad(m));
    }
    if (!strcmp(name, "is_leaf")) return val_bool(I->run.heap, ag_is_leaf(m));
    if (!strcmp(name, "retains_grad")) return val_bool(I->run.heap, m && m->retains_grad && !ag_is_leaf(m));
    if (!strcmp(name, "grad_fn")) {
        AgNode *n = m ? ag_grad_fn(&I->run.ag, m) : NULL;
        return n ? gradfn_value(I, n) : val_none();
    }
    if (!strcmp(name, "grad")) {
        if (!ag_is_leaf(m) && !m->retains_grad)
            interp_warn(I, NULL, "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
                        "attribute won't be populated during autograd.backward(). If you indeed want the .grad field to be "
                        "populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the "
                        "non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
                        "github.com/pytorch/pytorch/pull/30531 for more informations.");
        if (!m || !m->grad) return val_none();
        Value *last = x->u.grad_value;
        if (last && last->kind == V_TENSOR && same_view(last->u.t, m->grad)) return val_incref(last);
        Tensor *g = ten_alias(m->grad);
        if (!g) return rt_tensor_error(I);
        Value *gv = val_tensor(I->run.heap, g);
        val_decref(x->u.grad_value);
        x->u.grad_value = val_incref(gv);
        return gv;
    }
    return NULL;
}

/* X.requires_grad = flag, X.grad = None or a tensor, X.data = a tensor: 0, -1 with the error set, 1 when name is
 * none of them. X.data = T makes X share T's data (any shape and dtype, as PyTorch's set_data); X keeps its
 * requires_grad, grad and grad_fn, and every name bound to X sees the change. */
int ag_tensor_setattr(Interp *I, Value *x, const char *name, Value *v) {
    if (!strcmp(name, "data")) {
        if (v->kind != V_TENSOR) { rt_raise(I, "TypeError", "Variable data has to be a tensor, but got %s", val_type_name(v)); return -1; }
        /* in place, as PyTorch's set_data: a builtin running the student's code that does this holds x->u.t */
        if (ten_set_data(x->u.t, v->u.t) < 0) { rt_tensor_error(I); return -1; }
        return 0;
    }
    if (!strcmp(name, "requires_grad")) {
        bool on;
        if (!arg_bool(I, v, "requires_grad", &on)) return -1;
        if (!x->ag) x->ag = ag_meta_new(false);
        if (ag_set_requires_grad(x->ag, x->u.t, on) < 0) { rt_tensor_error(I); return -1; }
        ag_meta_claim(x->ag, x);                /* a leaf: grad_fn.next_functions[0][0].variable is x */
        return 0;
    }
    if (!strcmp(name, "grad")) {
        if (v->kind == V_NONE) { if (x->ag) ag_zero_grad(x->ag); return 0; }
        if (v->kind != V_TENSOR) { rt_raise(I, "TypeError", "assigned grad expected to be a Tensor or None but got grad of type %s", val_type_name(v)); return -1; }
        if (v->u.t->dtype != x->u.t->dtype) { rt_error(I, "assigned grad has data of a different type"); return -1; }
        if (!ten_same_shape(v->u.t, x->u.t)) { rt_error(I, "assigned grad has data of a different size"); return -1; }
        if (!x->ag) x->ag = ag_meta_new(false);
        ag_zero_grad(x->ag);
        x->ag->grad = ten_alias(v->u.t);
        /* x.grad is v from now on, as in PyTorch; only a v without autograd state, which holds no grad_value of
         * its own that could lead back to x (no cycle of values) */
        val_decref(x->u.grad_value);
        x->u.grad_value = v->ag || v == x ? NULL : val_incref(v);
        return 0;
    }
    return 1;
}

/* ---- tensor methods ---- */

static Value *m_requires_grad_(Interp *I, Args *a) {
    Value *x = a->pos[0], *f;                    /* PyTorch's C++ parser counts no self: "requires_grad_() takes from 0 */
    if (!args_bind(I, a, &f, 1)) return NULL;    /* to 1 positional arguments", X.'s form (argspec.c) */
    bool on = true;
    if (f && !arg_bool(I, f, "requires_grad", &on)) return NULL;
    if (!x->ag) x->ag = ag_meta_new(false);
    if (ag_set_requires_grad(x->ag, x->u.t, on) < 0) return rt_tensor_error(I);
    ag_meta_claim(x->ag, x);
    return val_incref(x);
}

static Value *m_detach(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "_TensorBase", NULL, 0)) return NULL;
    return ret_ag(I, ag_detach(arg_ag(a->pos[0])));
}

static Value *m_detach_(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "_TensorBase", NULL, 0)) return NULL;
    if (ag_detach_inplace(&I->run.ag, a->pos[0]->ag) < 0) return rt_tensor_error(I);
    return val_incref(a->pos[0]);
}

static Value *m_retain_grad(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "_TensorBase", NULL, 0)) return NULL;
    if (ag_retain_grad(&I->run.ag, a->pos[0]->ag) < 0) return rt_tensor_error(I);
    return val_none();
}

/* An optional retain_graph= argument: None is false. */
static bool opt_bool(Interp *I, Value *v, const char *what, bool *out) {
    *out = false;
    return !v || v->kind == V_NONE || arg_bool(I, v, what, out);
}

static bool tensors_of(Interp *I, const char *fn, Value *v, const char *what, AgVal **out, int *n);

/* backward of outs[0..nout) with grads, into every leaf, or with inputs (a tensor or a sequence of them; NULL or None:
 * not given) into those only. None, or NULL with the error set. */
static Value *run_backward(Interp *I, const char *fn, int nout, const AgVal *outs, const Tensor *const *grads, Value *inputs,
                           bool retain) {
    if (!inputs || inputs->kind == V_NONE) {
        if (ag_backward(&I->run.ag, nout, outs, grads, retain) < 0) return rt_tensor_error(I);
        return val_none();
    }
    AgVal *ins = NULL;
    int nin = 0;
    if (!tensors_of(I, fn, inputs, "inputs", &ins, &nin)) return NULL;
    if (nin == 0) { free(ins); return rt_error(I, "'inputs' argument to backward() cannot be empty."); }
    int rc = ag_backward_inputs(&I->run.ag, nout, outs, grads, nin, ins, retain);
    free(ins);
    return rc < 0 ? rt_tensor_error(I) : val_none();
}

static Value *m_backward(Interp *I, Args *a) {
    Value *p[4];                                 /* gradient, retain_graph, create_graph, inputs: Tensor.backward's */
    if (!args_bind_method(I, a, "Tensor", p, 4)) return NULL;
    Value *x = a->pos[0], *g = p[0], *cg = p[2];
    bool retain, create = false;
    if (!opt_bool(I, p[1], "retain_graph", &retain)) return NULL;
    if (cg && !arg_bool(I, cg, "create_graph", &create)) return NULL;
    if (create) return rt_error(I, "backward(create_graph=True): attn has no higher-order gradients yet");
    if (g && g->kind == V_NONE) g = NULL;
    if (g && g->kind != V_TENSOR) return rt_raise(I, "TypeError", "backward(gradient=...): gradient must be a tensor, not %s", val_type_name(g));
    const Tensor *grads[1] = {g ? g->u.t : NULL};
    AgVal out = arg_ag(x);
    return run_backward(I, "backward", 1, &out, grads, p[3], retain);
}

/* A tensor or a sequence of tensors as n AgVals (borrowed); false with the error set. */
static bool tensors_of(Interp *I, const char *fn, Value *v, const char *what, AgVal **out, int *n) {
    if (v->kind == V_TENSOR) { *out = xmalloc(sizeof(AgVal)); (*out)[0] = arg_ag(v); *n = 1; return true; }
    if (v->kind != V_LIST && v->kind != V_TUPLE) { rt_raise(I, "TypeError", "%s: %s must be a tensor or a sequence of tensors, not %s", fn, what, val_type_name(v)); return false; }
    *n = (int)v->u.seq.n;
    *out = xmalloc(sizeof(AgVal) * (size_t)(*n ? *n : 1));
    for (int i = 0; i < *n; i++) {
        Value *it = v->u.seq.items[i];
        if (it->kind != V_TENSOR) { free(*out); rt_raise(I, "TypeError", "%s: %s must hold tensors, not %s", fn, what, val_type_name(it)); return false; }
        (*out)[i] = arg_ag(it);
    }
    return true;
}

/* torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
 * inputs=None): x.backward() of several outputs at once (a tensor or a sequence; grad_tensors one per tensor, None
 * for a one-element one). None. */
static Value *bi_autograd_backward(Interp *I, Args *a) {
    Value *p_[6];                               /* tensors, grad_tensors, retain_graph, create_graph, grad_variables, inputs */
    if (!args_bind(I, a, p_, 6)) return NULL;
    const char *fn = "torch.autograd.backward";
    bool retain, create;
    if (!p_[0]) return rt_raise(I, "TypeError", "backward() missing 1 required positional argument: 'tensors'");
    if (!opt_bool(I, p_[2], "retain_graph", &retain) || !opt_bool(I, p_[3], "create_graph", &create)) return NULL;
    if (create) return rt_error(I, "%s(create_graph=True): attn has no higher-order gradients yet", fn);
    if (p_[4] && p_[4]->kind != V_NONE) return rt_error(I, "%s(grad_variables=...): use grad_tensors=", fn);
    AgVal *outs = NULL;
    int no = 0;
    if (!tensors_of(I, fn, p_[0], "tensors", &outs, &no)) return NULL;
    const Tensor **grads = xcalloc((size_t)(no ? no : 1), sizeof(Tensor *));
    Value *gv = p_[1], *r = NULL;
    int ng = gv && gv->kind != V_NONE ? (gv->kind == V_TENSOR ? 1 : gv->kind == V_LIST || gv->kind == V_TUPLE ? (int)gv->u.seq.n : -1) : no;
    if (ng >= 0 && ng != no) rt_error(I, "got %d tensors and %d gradients", no, ng);
    else if (ng < 0) rt_raise(I, "TypeError", "%s: grad_tensors must be a tensor or a sequence of tensors, not %s", fn, val_type_name(gv));
    for (int i = 0; gv && gv->kind != V_NONE && ng == no && i < no; i++) {
        Value *it = gv->kind == V_TENSOR ? gv : gv->u.seq.items[i];
        if (it->kind == V_TENSOR) grads[i] = it->u.t;
        else if (it->kind != V_NONE) { rt_raise(I, "TypeError", "%s: grad_tensors must hold tensors or None, not %s", fn, val_type_name(it)); ng = -1; }
    }
    if (ng == no && !interp_failed(I)) r = run_backward(I, fn, no, outs, grads, p_[5], retain);
    free(grads);
    free(outs);
    return r;
}

/* torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=False):
 * a tuple of the gradients (None for an unused input with allow_unused). */
static Value *bi_autograd_grad(Interp *I, Args *a) {
    Value *p_[6];                               /* outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused */
    if (!args_bind(I, a, p_, 6)) return NULL;
    Value *ov = p_[0], *iv = p_[1], *gv = p_[2];
    if (!ov || !iv) return rt_error(I, "torch.autograd.grad(outputs, inputs) needs both");
    bool retain, create, unused;
    if (!opt_bool(I, p_[3], "retain_graph", &retain) ||
        !opt_bool(I, p_[4], "create_graph", &create) ||
        !opt_bool(I, p_[5], "allow_unused", &unused))
        return NULL;
    if (create) return rt_error(I, "torch.autograd.grad(create_graph=True): attn has no higher-order gradients yet");
    AgVal *outs = NULL, *ins = NULL, *gs = NULL;
    int no = 0, ni = 0, ng = 0;
    Value *r = NULL;
    if (!tensors_of(I, "torch.autograd.grad", ov, "outputs", &outs, &no)) return NULL;
    if (!tensors_of(I, "torch.autograd.grad", iv, "inputs", &ins, &ni)) goto done;
    const Tensor **grads = xcalloc((size_t)(no ? no : 1), sizeof(Tensor *));
    if (gv && gv->kind != V_NONE) {
        if (gv->kind == V_TENSOR) { gs = xmalloc(sizeof(AgVal)); gs[0] = arg_ag(gv); ng = 1; }
        else if (gv->kind == V_LIST || gv->kind == V_TUPLE) {
            ng = (int)gv->u.seq.n;
            gs = xcalloc((size_t)(ng ? ng : 1), sizeof(AgVal));
            for (int i = 0; i < ng; i++) {
                Value *it = gv->u.seq.items[i];
                if (it->kind == V_TENSOR) gs[i] = arg_ag(it);
                else if (it->kind != V_NONE) { rt_raise(I, "TypeError", "torch.autograd.grad: grad_outputs must hold tensors or None"); goto done2; }
            }
        } else { rt_raise(I, "TypeError", "torch.autograd.grad: grad_outputs must be a tensor or a sequence of tensors"); goto done2; }
        if (ng != no) { rt_error(I, "grad requires one grad_output per output: %d outputs and %d grad_outputs", no, ng); goto done2; }
        for (int i = 0; i < ng; i++) grads[i] = gs[i].t;
    }
    Tensor **res = xcalloc((size_t)(ni ? ni : 1), sizeof(Tensor *));
    if (ag_grad(&I->run.ag, no, outs, grads, ni, ins, res, retain, unused) < 0) rt_tensor_error(I);
    else {
        r = val_tuple(I->run.heap, ni);
        for (int j = 0; j < ni; j++) val_seq_set(r, j, res[j] ? val_tensor(I->run.heap, res[j]) : val_none());
    }
    free(res);
done2:
    free(grads);
    free(gs);
done:
    free(outs);
    free(ins);
    return r;
}

/* ---- grad mode: torch.no_grad(), torch.enable_grad(), torch.set_grad_enabled(mode) ----
 * Each is an object holding the mode it sets ("mode") and the mode before ("prev"). no_grad and enable_grad set
 * theirs on __enter__; set_grad_enabled sets it when called (a plain call changes the mode, as PyTorch's does), and
 * __enter__ keeps it. __exit__ puts the previous mode back, whether the block finished or failed. Called with a
 * function (@torch.no_grad() above a def), they give a function that runs under the mode. */

static bool attr_true(Value *self, const char *name) {
    Value *v = val_attr_get(self, name);
    return v && v->kind == V_BOOL && v->u.b;
}
static Value *m_mode_enter(Interp *I, Args *a) {
    Value *self = a->pos[0];
    if (!attr_true(self, "eager")) {
        val_attr_set(self, "prev", val_bool(I->run.heap, I->run.ag.grad_enabled));
        I->run.ag.grad_enabled = attr_true(self, "mode");
    }
    return val_none();
}
static Value *m_mode_exit(Interp *I, Args *a) {
    I->run.ag.grad_enabled = attr_true(a->pos[0], "prev");
    return val_bool(I->run.heap, false);
}
static const Builtin mode_methods[] = {
    {"__enter__", m_mode_enter, "", "", "", 0, ""},
    {"__exit__", m_mode_exit, "", "", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* The function a grad-mode decorator gives: calls "fn" with the mode set, then puts the previous mode back. */
static Value *moded_call(Interp *I, Value *self, Args *a) {
    bool prev = I->run.ag.grad_enabled;
    I->run.ag.grad_enabled = attr_true(self, "mode");
    Value *r = interp_call(I, val_attr_get(self, "fn"), a);
    I->run.ag.grad_enabled = prev;
    return r;
}
static void moded_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    Value *fn = val_attr_get(self, "fn");
    if (fn) val_repr_part(I, out, fn, depth + 1); else sb_puts(out, "<function>");
}
static const ObjClass ModedClass = {.name = "function", .call = moded_call, .repr = moded_repr};

/* torch.no_grad()(func), what @torch.no_grad() above a def does: PyTorch's _DecoratorContextManager.__call__(self,
 * func), with its words for a missing or extra argument. */
static Value *mode_call(Interp *I, Value *self, Args *a) {
    static const Builtin decl = {"__call__", NULL, "grad_mode.__call__(func)", "", "", 0, NULL};
    Value *func;
    if (!args_bind_call(I, a, &decl, "_DecoratorContextManager", &func, 1)) return NULL;
    Value *w = val_object(I->run.heap, &ModedClass);
    val_attr_set(w, "fn", val_incref(func));
    val_attr_set(w, "mode", val_bool(I->run.heap, attr_true(self, "mode")));
    return w;
}
static void mode_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    Value *n = val_attr_get(self, "name");
    sb_printf(out, "<torch.autograd.grad_mode.%s object at %p>", n && n->kind == V_STR ? n->u.str.s : "no_grad", (void *)self);
}
/* type(torch.no_grad()) is torch.no_grad (enable_grad, set_grad_enabled): the builtin of its name, a class in Python */
static Value *mode_type(Value *self) {
    Value *n = val_attr_get(self, "name");
    const Builtin *b = builtins_find(n && n->kind == V_STR ? n->u.str.s : "no_grad");
    return b ? val_builtin(self->heap, b) : NULL;
}
static const ObjClass ModeClass = {.name = "grad_mode", .call = mode_call, .repr = mode_repr, .methods = mode_methods, .type = mode_type};

static Value *mode_object(Interp *I, const char *name, bool mode, bool eager) {
    Value *o = val_object(I->run.heap, &ModeClass);
    val_attr_set(o, "name", val_str(I->run.heap, name));
    val_attr_set(o, "mode", val_bool(I->run.heap, mode));
    val_attr_set(o, "eager", val_bool(I->run.heap, eager));
    return o;
}

static Value *bi_no_grad(Interp *I, Args *a) {
    if (!args_bind(I, a, NULL, 0)) return NULL;
    return mode_object(I, "no_grad", false, false);
}
static Value *bi_enable_grad(Interp *I, Args *a) {
    if (!args_bind(I, a, NULL, 0)) return NULL;
    return mode_object(I, "enable_grad", true, false);
}
static Value *bi_set_grad_enabled(Interp *I, Args *a) {
    Value *p_[1];                               /* mode */
    if (!args_bind(I, a, p_, 1)) return NULL;
    Value *m = p_[0];
    bool on;
    if (!m) return rt_error(I, "torch.set_grad_enabled(mode) needs the mode, True or False");
    if (!arg_bool(I, m, "mode", &on)) return NULL;
    Value *o = mode_object(I, "set_grad_enabled", on, true);
    val_attr_set(o, "prev", val_bool(I->run.heap, I->run.ag.grad_enabled));
    I->run.ag.grad_enabled = on;
    return o;
}
static Value *bi_is_grad_enabled(Interp *I, Args *a) {
    if (!args_bind(I, a, NULL, 0)) return NULL;
    return val_bool(I->run.heap, I->run.ag.grad_enabled);
}

/* ---- after every builtin call ---- */

/* The builtins whose float result is rightly detached from an input that requires grad (PyTorch gives them no
 * history either). */
static bool detaches(const char *name) {
    static const char *const names[] = {"detach", "zeros_like", "ones_like", "rand_like", "randn_like", "empty_like",
                                        "full_like", "randint_like", "new_zeros", "new_ones", "new_full", "new_empty",
                                        "new_tensor", "grad", "Parameter", "tensor", "numpy",
                                        "clip_grad_norm_", NULL};
    for (int i = 0; names[i]; i++) if (!strcmp(names[i], name)) return true;
    return false;
}

/* A float tensor without history, or a tuple that holds one. */
static bool detached_float(const Value *r) {
    if (r->kind == V_TENSOR) return ten_is_float(r->u.t->dtype) && !ag_requires_grad(r->ag);
    if (r->kind == V_TUPLE || r->kind == V_LIST)
        for (int64_t i = 0; i < r->u.seq.n; i++) if (detached_float(r->u.seq.items[i])) return true;
    return false;
}

/* A tensor that requires grad, or a tuple or list that holds one. */
static bool with_history(const Value *r) {
    if (r->kind == V_TENSOR) return ag_requires_grad(r->ag);
    if (r->kind == V_TUPLE || r->kind == V_LIST)
        for (int64_t i = 0; i < r->u.seq.n; i++) if (with_history(r->u.seq.items[i])) return true;
    return false;
}

/* r, or PyTorch's refusal (r released) when the call recorded (r has history: len(x), x.tolist() run) and an input
 * is a part of split / unbind ... whose base was written since. */
static Value *stale_input(Interp *I, Args *a, Value *self, Value *r) {
    if (!with_history(r) || (a->fn && detaches(a->fn->name))) return r;
    for (int i = -1; i < a->npos; i++) {
        Value *v = i < 0 ? self : a->pos[i];
        if (v && v->kind == V_TENSOR && ag_view_check(&I->run.ag, v->ag) < 0) { val_decref(r); return rt_tensor_error(I); }
    }
    return r;
}

/* The call's tensors stand for their autograd metadata where nothing does yet (ag_meta_claim: a view's x._base). */
static void claim_inputs(Args *a, Value *self) {
    if (self && self->kind == V_TENSOR) ag_meta_claim(self->ag, self);
    for (int i = 0; i < a->npos; i++)
        if (a->pos[i]->kind == V_TENSOR) ag_meta_claim(a->pos[i]->ag, a->pos[i]);
}

Value *ag_after_call(Interp *I, Args *a, Value *self, Value *r) {
    if (!r) return NULL;
    for (int k = 0; k < a->nkw; k++) {
        if (strcmp(a->kwnames[k], "requires_grad") || r->kind != V_TENSOR || (a->fn && !strcmp(a->fn->name, "Parameter"))) continue;
        bool on = false;
        if (!arg_bool(I, a->kwvals[k], "requires_grad", &on)) { val_decref(r); return NULL; }
        if (!on) continue;
        if (!ten_is_float(r->u.t->dtype)) {
            val_decref(r);
            return rt_error(I, "Only Tensors of floating point and complex dtype can require gradients");
        }
        if (!r->ag) r->ag = ag_meta_new(false);
        if (ag_set_requires_grad(r->ag, r->u.t, true) < 0) { val_decref(r); return rt_tensor_error(I); }
        ag_meta_claim(r->ag, r);
    }
    const char *name = a->fn ? a->fn->name : a->fname ? a->fname : "?";
    Value *src = self ? self : a->npos ? a->pos[0] : NULL;
    claim_inputs(a, self);
    /* z.t(), z.narrow(...): a view knows its base (of a plain tensor; under no_grad, of one that requires grad). With
     * grad mode on, a view of a tensor that requires grad must come from the recording ops (the check below). */
    bool on = I->run.ag.grad_enabled;
    if (r->kind == V_TENSOR && !r->ag && src && src != r && src->kind == V_TENSOR && !detaches(name) && (!on || !ag_requires_grad(src->ag)))
        r->ag = ag_view_link(&I->run.ag, r->u.t, &src->ag, src->u.t);
    /* x.split(2), x.unbind(): each part is a view too, one of several (written in place under grad mode: refused) */
    if ((r->kind == V_TUPLE || r->kind == V_LIST) && src && src->kind == V_TENSOR && !detaches(name) && (!on || !ag_requires_grad(src->ag)))
        for (int64_t i = 0; i < r->u.seq.n; i++) {
            Value *it = r->u.seq.items[i];
            if (it->kind != V_TENSOR || it->ag || it == src) continue;
            it->ag = ag_view_link(&I->run.ag, it->u.t, &src->ag, src->u.t);
            if (it->ag && on && (!strcmp(name, "split") || !strcmp(name, "chunk") || !strcmp(name, "unbind"))) {
                it->ag->multi_view = true;
                it->ag->output_nr = (int)i;
            }
        }
    claim_inputs(a, self);                  /* src got its metadata from the view just linked */
    if (!on) return r;
    if (!detached_float(r) || detaches(name)) return stale_input(I, a, self, r);
    bool needs = self && val_requires_grad(self);
    for (int i = 0; !needs && i < a->npos; i++) needs = val_requires_grad(a->pos[i]);
    for (int k = 0; !needs && k < a->nkw; k++) needs = val_requires_grad(a->kwvals[k]);
    if (!needs) return r;
    if (a->fn) {
        int wired = ag_after_wire(I, a, self, r, name);
        if (wired > 0) return stale_input(I, a, self, r);
        if (wired < 0) { val_decref(r); return rt_tensor_error(I); }
    }
    val_decref(r);
    char home[64] = "";
    if (self) snprintf(home, sizeof home, "X");
    else if (a->fn) builtins_home(a->fn, home, sizeof home);
    return rt_error(I, "%s%s%s has no gradient in attn yet: an input requires grad, and attn would return a result "
                       "detached from the graph (under torch.no_grad(), or on x.detach(), it runs)", home, home[0] ? "." : "",
                    a->fn ? name : a->fname ? a->fname : name);
}

const Builtin bi_autograd_methods[] = {
    {"backward", m_backward, "X.backward(gradient=None, retain_graph=None, create_graph=False, inputs=None)",
     "Computes the gradient of X (a one-element tensor, or any with gradient=) with respect to every leaf it was made "
     "from that requires grad, adding it to their .grad.", "", 0, "X"},
    {"detach", m_detach, "X.detach(/)", "A tensor sharing X's elements, with no history and requires_grad False.", "", 0, "X"},
    {"detach_", m_detach_, "X.detach_(/)", "Makes X itself a tensor with no history that requires no grad; returns X (not for a view).", "", 0, "X"},
    {"requires_grad_", m_requires_grad_, "X.requires_grad_(requires_grad=True)",
     "Makes X (a leaf of a float dtype) record the operations on it, for backward(); returns X.", "", 0, "X"},
    {"retain_grad", m_retain_grad, "X.retain_grad(/)", "Makes backward() fill X.grad although X is not a leaf.", "", 0, "X"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

const Builtin bi_autograd[] = {
    {"grad", bi_autograd_grad, "torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=None, allow_unused=False)",
     "The gradients of outputs with respect to inputs, as a tuple; .grad is left unchanged.", "", 0, "torch.autograd"},
    {"backward", bi_autograd_backward, "torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None)",
     "Adds the gradients of tensors (one or several, as x.backward() does for one) to the .grad of the leaves.", "", 0, "torch.autograd"},
    {"no_grad", bi_no_grad, "torch.no_grad()",
     "with torch.no_grad(): ... runs its block without recording operations for backward (also @torch.no_grad()).", "", 0, "torch"},
    {"enable_grad", bi_enable_grad, "torch.enable_grad()", "with torch.enable_grad(): ... records operations again inside torch.no_grad().", "", 0, "torch"},
    {"set_grad_enabled", bi_set_grad_enabled, "torch.set_grad_enabled(mode)",
     "Turns the recording of operations on (True) or off (False); as a context manager, for its block only.", "", 0, "torch"},
    {"is_grad_enabled", bi_is_grad_enabled, "torch.is_grad_enabled(/)", "Whether operations are recorded for backward now.", "", 0, "torch"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* builtins_internal.h - helpers shared between the builtin files only (the public table is builtins.h). */
#ifndef ATTN_BUILTINS_INTERNAL_H
#define ATTN_BUILTINS_INTERNAL_H
#include "builtins.h"
#include "interp.h"
#include "autograd.h"

/* A builtin's tensor result t (taken) as a new tensor value, or NULL with the tensor library's error when t is NULL:
 * what `return rt_tensor_result(I, ten_op(...))` ends a builtin with. */
static inline Value *rt_tensor_result(Interp *I, Tensor *t) { return t ? val_tensor(I->run.heap, t) : rt_tensor_error(I); }
/* A module's forward given v, not a tensor, as its input: PyTorch's TypeError in the words of the function the
 * forward calls, fn (nn.Linear's "linear(): argument 'input' (position 1) must be Tensor, not list"); NULL. */
static inline Value *rt_forward_not_tensor(Interp *I, const Args *a, Value *v, const char *fn) {
    Args f = *a;
    f.fname = fn;
    return arg_not_tensor(I, &f, v, "input", ARG_TENSOR);
}

/* torch_create.c: the dtype= keyword; *has false when absent. false with an error set for a bad value. */
bool get_dtype(Interp *I, Args *a, bool *has, DType *dt);
/* torch_names.c (generated): PyTorch's and Python's public names, sorted, NULL-terminated. */
extern const Builtin torch_size_builtin;           /* what calling torch.Size does (torch_create.c) */
extern const char *const torch_names_torch[], *const torch_names_tensor[], *const torch_names_functional[],
    *const torch_names_nn[], *const torch_names_autograd[], *const python_names_math[], *const python_names_random[],
    *const python_names_builtins[], *const torch_python_functions[],
    *const torch_names_module[];
/* torch_index.c: nonzero(X, as_tuple=True), a tuple of index vectors, one per dim (also torch.where(cond)). */
Value *torch_nonzero_tuple(Interp *I, const Tensor *x);
/* torch_sort.c: a torch.return_types.KIND (values, indices) named tuple ("max", "sort", "topk" ...); takes both. */
Value *torch_return_pair(ValHeap *heap, const char *kind, Tensor *values, Tensor *indices);
/* python_builtins.c: key(x) for min, max and sorting (a new reference; NULL with an error set), and dict_fill, the
 * entries of src put into the dict d as dict(src) and d.update(src) do (false with Python's error). */
Value *key_of(Interp *I, Value *key, Value *x);
bool dict_fill(Interp *I, Value *d, Value *src);
/* python_seq.c: the list l sorted in place by key(item), as list.sort and sorted (false with the error set). */
bool sort_items(Interp *I, Value *l, Value *key, bool reverse);
/* torch_math.c: the tensor x rounded half to even, to decimals places when dv (an int, or None) is given: what round(X, n)
 * and torch.round(X, decimals=n) compute (python_builtins.c binds their arguments). */
Value *torch_round(Interp *I, Value *x, Value *dv);
/* dtype=...: the input cast first, as PyTorch does for sum(dtype=), softmax(dtype=), cumprod(dtype=) and the like.
 * *x and *tmp are replaced (the old *tmp freed); false with an error set. */
bool cast_to_dtype_kw(Interp *I, Args *a, Tensor **x, ArgTensor *held);

/* d2l_attention.c (§11.3): softmax over the last axis with positions >= valid_lens masked out (X is (B, Q, K),
 * valid_lens (B,) or (B, Q) or NULL). Like the book's code, the -1e6 goes into X itself when X.reshape(-1, K) is
 * a view. NULL with an error set. */
Tensor *attn_masked_softmax(Interp *I, Tensor *X, const Tensor *valid_lens);
/* nn_linear.c: dropout with the rate of `drop` (a Dropout object or a number), in training mode only; a new tensor. */
Tensor *attn_dropout_in(TenCtx *c, Rng *g, Value *drop, const Tensor *x);
/* The dropout child of an attn module applied to x: attn's Dropout, the student's module, or none (a new tensor,
 * NULL with an error set). */
Tensor *attn_apply_dropout(Interp *I, Value *drop, Tensor *x);
/* x @ W.T + b for an nn.Linear object lin; NULL with an error set. */
Tensor *attn_linear_forward(Interp *I, Value *lin, const Tensor *x);
/* F.linear's shape checks for x folded to (rows, in) (rows -1: x is 1-D), W of wnd sizes wsh, b of bnd sizes bsh
 * (bnd -1: none); false with PyTorch's message. */
bool attn_linear_shapes_ok(Interp *I, int64_t rows, int64_t in, int wnd, const int64_t *wsh, int bnd, const int64_t *bsh);
/* A new Linear(E, E) named NonDynamicallyQuantizableLinear, as nn.MultiheadAttention's out_proj; NULL with an error. */
Value *attn_out_proj(Interp *I, int64_t E, bool bias);
/* d2l_positional.c (§11.6.3): the sinusoidal table P, (max_len, d). */
Tensor *attn_positional_table_in(TenCtx *c, int64_t max_len, int64_t d);

/* plot_builtins.c: d2l.plot(X, Y, **kw) for builtins that draw (names/vals: NULL-terminated keyword list, values
 * borrowed); builtins_show_figure shows a Figure built in C where figures go (taking ownership). Both return None,
 * or NULL with the error set. */
struct Figure;
Value *plot_call(Interp *I, Value *X, Value *Y, const char *const *names, Value *const *vals);
Value *builtins_show_figure(Interp *I, struct Figure *fig);
/* plot_builtins.c: a live figure (d2l.ProgressBoard) to plot_live, *number its figure number (0: a new one, set);
 * None, or NULL with the error set. Takes ownership of fig. */
Value *builtins_show_live(Interp *I, struct Figure *fig, int *number);
/* d2l_train.c: the classes d2l.HyperParameters, d2l.ProgressBoard, d2l.Trainer (made once, kept: borrowed), and
 * the d2l names that are these classes (a new reference, NULL for other names). */
/* The builtin classes' makers: each once, from builtin_classes_open (registry.c), in this order. */
void nn_module_classes_open(void);
/* torch_optim.c: the methods of an optimizer (SGD, Adam, AdamW), NULL-name terminated */
const Builtin *torch_optim_methods(void);
void d2l_train_classes_open(void);
void torch_data_classes_open(void);
Value *d2l_hyperparameters_class(void);
Value *d2l_progress_board_class(void);
Value *d2l_trainer_class(void);
Value *d2l_train_attr(const char *module, const char *name);

/* torch_shape.c: dims the student gives are int64 and the tensor kernels take an int, so a cast would wrap 2**62 to
 * 0 (X.size(2**62) was X.size(0)). norm_dim64_in is ten_norm_dim_in for an int64 dim (-1 with ten_error set when out of
 * range); dim_fits is for a dim handed to a kernel that checks it itself against n dims: true when d fits an int,
 * else false with the kernels' "Dimension out of range" error set (a RuntimeError, as theirs). */
int norm_dim64_in(TenCtx *c, int64_t d, int ndim);
bool dim_fits(Interp *I, int64_t d, int n);

/* nn_module.c: self.save_hyperparameters(ignore=[]) of d2l's HyperParameters (d2l.Module, d2l.DataModule): the
 * running method's arguments become attributes of self and self.hparams. None, or NULL with the error set. */
Value *d2l_save_hyperparameters(Interp *I, Args *a);
/* The declaration of a layer's forward(input) (nn_layers.c), for args_bind_call: every layer of PyTorch's that takes
 * one input binds its call through it. */
extern const Builtin bi_forward_input;
/* torch_data.c: the class d2l.DataModule (made once, kept); a new reference. */
Value *d2l_data_module_class(void);
/* nn_module.c: attn runs on the CPU: device= must be the CPU (checked for every builtin at the call, through the
 * Library's before_call, so no builtin ignores it; requires_grad= is applied after the call, ag_after_call). false
 * with an error set. */
bool args_device_check(Interp *I, Args *a);
/* autograd_builtins.c: the Library's after_call, tensor_attr and tensor_setattr (library.h). */
Value *ag_after_call(Interp *I, Args *a, Value *self, Value *r);
/* ag_after.c: gives r (the detached result of builtin `name` called with a, self for a method) the history PyTorch
 * records for it: 1 done, 0 not an op (or a form of it) wired there, -1 failed with the tensor library's error. */
int ag_after_wire(Interp *I, Args *a, Value *self, Value *r, const char *name);
Value *ag_tensor_attr(Interp *I, Value *x, const char *name);
int ag_tensor_setattr(Interp *I, Value *x, const char *name, Value *v);
/* autograd_builtins.c: a tensor value as an argument of an ag_* op (borrowed: its tensor and autograd state); an
 * op's result as a value (NULL with the tensor library's error when the op failed); and whether an operation on
 * vals[0..n) (NULL entries skipped) is recorded: grad mode is on and one of them requires grad. */
AgVal arg_ag(const Value *v);
Value *ret_ag(Interp *I, AgVal r);
bool grad_recording(Interp *I, int n, Value *const *vals);
/* nn_module.c: a device argument (a string such as 'cpu' or a torch.device): true for the CPU; false with an
 * error set. */
bool arg_device_cpu(Interp *I, Value *v);
/* torch_data.c: the class torch.utils.data.Dataset, the base of a student's map-style dataset (__getitem__ and
 * __len__, which DataLoader reads); made once, kept; a new reference. */
Value *torch_dataset_class(void);
/* nn_module.c: module-dependent names (nn.Module, d2l.Module) and torch's CPU device; new reference or NULL. */
Value *nn_module_attr(ValHeap *heap, const char *module, const char *name);
#endif

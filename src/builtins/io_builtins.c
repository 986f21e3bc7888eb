/* io_builtins.c - save("x.npy", X) and load("x.npy"): NumPy's .npy format, so a student can check any result in
 * NumPy or PyTorch (np.load / torch.from_numpy). */
#include "builtins_internal.h"
#include "interp.h"
#include <string.h>

static bool npy_name(Interp *I, Value *v, const char *fn) {
    if (!v || v->kind != V_STR) { rt_error(I, "%s() needs a file name such as \"x.npy\"", fn); return false; }
    size_t n = v->u.str.len;
    if (n < 5 || strcmp(v->u.str.s + n - 4, ".npy") != 0) { rt_error(I, "%s(): the file name must end in .npy, got '%s'", fn, v->u.str.s); return false; }
    if (strlen(v->u.str.s) != n) { rt_error(I, "%s(): the file name has a NUL character", fn); return false; }
    return true;
}

static Value *bi_save(Interp *I, Args *a) {
    Value *p[2];                                 /* file, tensor */
    if (!args_bind(I, a, p, 2)) return NULL;
    Value *f = p[0], *x = p[1];
    if (f && f->kind == V_TENSOR && x && x->kind == V_STR) { Value *t = f; f = x; x = t; }   /* torch.save(X, "x.npy") order */
    if (!npy_name(I, f, "save")) return NULL;
    if (!x || x->kind != V_TENSOR) return rt_error(I, "save(\"x.npy\", X) needs a tensor to save");
    AttnError why;
    if (!file_may_write(&I->run.files, f->u.str.s, &why)) return rt_error(I, "save('%s'): %s", f->u.str.s, err_msg(&why));
    if (file_write_wanted(&I->run.files) && npy_save(f->u.str.s, x->u.t) < 0) return rt_tensor_error(I);
    return val_none();
}

static Value *bi_load(Interp *I, Args *a) {
    Value *f;
    if (!args_bind(I, a, &f, 1)) return NULL;
    if (!npy_name(I, f, "load")) return NULL;
    Tensor *t = npy_load_in(I->run.ten, f->u.str.s);
    return t ? val_tensor(I->run.heap, t) : rt_tensor_error(I);
}

const Builtin bi_io[] = {
    {"save", bi_save, "save(file, tensor)",
     "save(\"x.npy\", X) writes the tensor X to a NumPy .npy file (float32, int64 or bool, C order): in Python, np.load(\"x.npy\") reads it.", "", 0, ""},
    {"load", bi_load, "load(file)", "X = load(\"x.npy\") reads a NumPy .npy file (float32/float64 become float32, int32/int64 become int64).", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

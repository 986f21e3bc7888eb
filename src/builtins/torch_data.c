/* torch_data.c - feeding a model minibatches from tensors in memory: torch.utils.data.TensorDataset and DataLoader
 * (batch_size, shuffle, drop_last; iteration collates samples as PyTorch 1.13's default_collate does), as the book
 * writes them (`from torch.utils import data`; data.DataLoader(dataset, batch_size, shuffle=is_train)), and the
 * book's d2l.DataModule. Shuffling draws a permutation from the session's generator (torch.manual_seed makes it
 * repeat); attn's generator is not PyTorch's, so the order is attn's own. As PyTorch's (num_workers=0), a loop reads
 * and collates each batch when it asks for it. */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "pyexc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- TensorDataset: sample i is (t[i] for t in tensors) ---- */

static Value *dataset_tensors(Value *self) { return val_attr_get(self, "tensors"); }

static int64_t dataset_len(Value *self) {
    Value *ts = dataset_tensors(self);
    return ts && ts->kind == V_TUPLE && ts->u.seq.n && ts->u.seq.items[0]->kind == V_TENSOR && ts->u.seq.items[0]->u.t->ndim
               ? ts->u.seq.items[0]->u.t->shape[0] : 0;
}

/* ds[i]: a tuple of each tensor indexed by i (any index a tensor takes, as PyTorch's tuple(t[i] for t ...)). */
static Value *dataset_getitem(Interp *I, Value *self, Value *index) {
    Value *ts = dataset_tensors(self);
    if (!ts || ts->kind != V_TUPLE) return rt_error(I, "TensorDataset has no tensors");
    val_incref(ts);          /* held, as PyTorch's generator over self.tensors: an index's __index__ may replace it */
    Value *r = val_tuple(I->run.heap, ts->u.seq.n);
    for (int64_t k = 0; k < ts->u.seq.n; k++) {
        Value *x = ops_index(I, ts->u.seq.items[k], index);
        if (!x) { val_decref(r); val_decref(ts); return NULL; }
        val_seq_set(r, k, x);
    }
    val_decref(ts);
    return r;
}

static Value *dataset_iter(Interp *I, Value *self) {
    int64_t n = dataset_len(self);
    Value *l = val_list(I->run.heap, 0);
    for (int64_t i = 0; i < n; i++) {
        Value *idx = val_int(I->run.heap, i), *s = dataset_getitem(I, self, idx);
        val_decref(idx);
        if (!s) { val_decref(l); return NULL; }
        val_list_append(l, s);
    }
    Value *it = ops_iter(I, l);
    val_decref(l);
    return it;
}

static void dataset_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    sb_printf(out, "<torch.utils.data.dataset.TensorDataset object at %p>", (void *)self);
}

static const ObjClass TensorDatasetClass = {.name = "TensorDataset", .repr = dataset_repr, .getitem = dataset_getitem,
                                            .len = dataset_len, .iter = dataset_iter, .base = torch_dataset_class};

/* A TensorDataset of the n tensors t: every tensor of the same first size (PyTorch's assertion). */
static Value *tensor_dataset(Interp *I, Value *const *t, int n) {
    for (int i = 0; i < n; i++) {
        if (t[i]->kind != V_TENSOR) return rt_raise(I, "AttributeError", "'%s' object has no attribute 'size'", val_type_name(t[i]));
        if (t[i]->u.t->ndim == 0) return rt_raise(I, "IndexError", "Dimension specified as 0 but tensor has no dimensions");
        if (t[i]->u.t->shape[0] != t[0]->u.t->shape[0]) return rt_raise(I, "AssertionError", "Size mismatch between tensors");
    }
    Value *ds = val_object(I->run.heap, &TensorDatasetClass), *ts = val_tuple(I->run.heap, n);
    for (int i = 0; i < n; i++) val_seq_set(ts, i, val_incref(t[i]));
    val_attr_set(ds, "tensors", ts);
    return ds;
}

/* torch.utils.data.TensorDataset(*tensors) */
static Value *bi_tensor_dataset(Interp *I, Args *a) {
    Value *first;
    if (!args_bind(I, a, &first, 1)) return NULL;
    return tensor_dataset(I, a->pos, a->npos);
}

/* ---- DataLoader ---- */

/* default_collate(batch) of PyTorch 1.13 for what attn has: tensors are stacked, ints (and bools) become an int64
 * (bool) tensor, floats a float64 one, strings stay a list, tuples and lists are collated field by field (a list of
 * the fields, as PyTorch returns for tuple samples), dicts key by key. New reference or NULL with the error set. */
static Value *collate(Interp *I, Value *batch) {
    int64_t n = batch->u.seq.n;
    Value *e = n ? batch->u.seq.items[0] : NULL;
    if (!e) return val_list(I->run.heap, 0);
    if (e->kind == V_TENSOR) {
        Tensor **ts = xcalloc((size_t)n, sizeof *ts);
        for (int64_t i = 0; i < n; i++) {
            Value *x = batch->u.seq.items[i];
            if (x->kind != V_TENSOR) { free(ts); return rt_raise(I, "TypeError", "expected Tensor as element %lld in argument 0, but got %s", (long long)i, val_type_name(x)); }
            ts[i] = x->u.t;
        }
        Tensor *s = ten_stack_in(I->run.ten, ts, (int)n, 0);
        free(ts);
        return s ? val_tensor(I->run.heap, s) : rt_tensor_error(I);
    }
    if (e->kind == V_INT || e->kind == V_BOOL || e->kind == V_FLOAT) {
        Tensor *t = interp_to_tensor(I, batch, e->kind == V_FLOAT, DT_F64);
        return t ? val_tensor(I->run.heap, t) : NULL;
    }
    if (e->kind == V_STR) return val_incref(batch);
    if (e->kind == V_DICT) {
        Value *d = val_dict(I->run.heap);
        /* {key: collate([x[key] for x in batch]) for key in e}: any key (1, not only 'a'), looked up as d[key] is
         * (a student's __hash__ and __eq__ may run: the key is held) */
        for (int k = 0; k < e->u.dict->n; k++) {
            Value *key = val_incref(e->u.dict->keys[k]), *col = val_list(I->run.heap, 0), *c = NULL;
            bool ok = true;
            for (int64_t i = 0; ok && i < batch->u.seq.n; i++) {
                Value *v = ops_index(I, batch->u.seq.items[i], key);
                if (v) val_list_append(col, v);
                ok = v != NULL;
            }
            if (ok) c = collate(I, col);
            val_decref(col);
            ok = c && ops_set_index(I, d, key, c) == 0;
            val_decref(c);
            val_decref(key);
            if (!ok) { val_decref(d); return NULL; }
        }
        return d;
    }
    if (e->kind == V_TUPLE || e->kind == V_LIST) {
        int64_t m = e->u.seq.n;
        for (int64_t i = 0; i < n; i++) {
            Value *x = batch->u.seq.items[i];
            if ((x->kind != V_TUPLE && x->kind != V_LIST) || x->u.seq.n != m)
                return rt_error(I, "each element in list of batch should be of equal size");
        }
        Value *r = val_list(I->run.heap, 0);
        for (int64_t k = 0; k < m; k++) {
            Value *col = val_list(I->run.heap, 0);
            for (int64_t i = 0; i < n; i++) val_list_append(col, val_incref(batch->u.seq.items[i]->u.seq.items[k]));
            Value *c = collate(I, col);
            val_decref(col);
            if (!c) { val_decref(r); return NULL; }
            val_list_append(r, c);
        }
        return r;
    }
    return rt_raise(I, "TypeError", "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class '%s'>",
                    val_type_name(e));
}

/* The loader's batch size and drop_last as stored. */
static int64_t loader_int(Value *self, const char *name) {
    Value *v = val_attr_get(self, name);
    return v && v->kind == V_INT ? v->u.i : v && v->kind == V_BOOL ? v->u.b : 0;
}

/* len(dataset) when the loader was made (kept: len(loader) has no interpreter to ask the dataset again). */
static int64_t loader_len(Value *self) {
    int64_t n = loader_int(self, "_n"), bs = loader_int(self, "batch_size");
    if (bs <= 0) return n;
    return loader_int(self, "drop_last") ? n / bs : (n + bs - 1) / bs;
}

/* One batch of an epoch: batch k of the order the epoch drew (self is the epoch's state: dataset, order (an int64
 * tensor of the sample numbers), batch_size), its samples read from the dataset and collated. New reference or NULL
 * with the error set. */
static Value *m_epoch_batch(Interp *I, Args *a) {
    Value *self = a->pos[0], *ds = val_attr_get(self, "dataset"), *ov = val_attr_get(self, "order");
    int64_t k = a->npos > 1 && a->pos[1]->kind == V_INT ? a->pos[1]->u.i : 0, bs = loader_int(self, "batch_size");
    if (!ds || !ov || ov->kind != V_TENSOR) return rt_error(I, "DataLoader: the epoch lost its dataset");
    const Tensor *order = ov->u.t;
    Value *samples = val_list(I->run.heap, 0);
    for (int64_t i = k * bs; i < order->numel && i < (k + 1) * bs; i++) {
        Value *idx = val_int(I->run.heap, ten_get_i64(order, i)), *smp = ops_index(I, ds, idx);
        val_decref(idx);
        if (!smp) { val_decref(samples); return NULL; }
        val_list_append(samples, smp);
    }
    Value *c = collate(I, samples);
    val_decref(samples);
    return c;
}

static const Builtin epoch_batch = {"_batch", m_epoch_batch, "", "", "", 0, ""};
static const ObjClass EpochClass = {.name = "_SingleProcessDataLoaderIter"};

/* iter(loader): one epoch, lazy as PyTorch's: the sample order is drawn now (torch.randperm's permutation from the session's
 * generator when shuffling, ten_randperm_in), and each batch is read and collated when the loop asks for it (the
 * batch_size samples after the ones before; the last, smaller batch dropped with drop_last). An iterator, or NULL
 * with the error set. */
static Value *loader_iter(Interp *I, Value *self) {
    Value *ds = val_attr_get(self, "dataset");
    if (!ds) return rt_error(I, "DataLoader: the loader lost its dataset");
    val_incref(ds);                        /* held: a student's __len__ runs here and may drop the loader's reference */
    Value *nv = ops_len(I, ds);
    if (!nv) { val_decref(ds); return NULL; }
    int64_t n = nv->kind == V_INT ? nv->u.i : 0, bs = loader_int(self, "batch_size");
    val_decref(nv);
    Tensor *order = loader_int(self, "shuffle") ? ten_randperm_in(I->run.ten, &I->run.rng, n)     /* as torch.randperm */
                                                : ten_arange_in(I->run.ten, 0, (double)n, 1, DT_I64);
    if (!order) { val_decref(ds); return rt_tensor_error(I); }
    int64_t batches = loader_int(self, "drop_last") ? n / bs : (n + bs - 1) / bs;
    Value *epoch = val_object(I->run.heap, &EpochClass);
    val_attr_set(epoch, "dataset", ds);    /* the reference held above */
    val_attr_set(epoch, "order", val_tensor(I->run.heap, order));
    val_attr_set(epoch, "batch_size", val_int(I->run.heap, bs));
    Value *fn = val_method(I->run.heap, epoch, &epoch_batch), *ks = val_range(I->run.heap, 0, batches, 1);
    Value *it = ops_lazy_iterator(I, "map", fn, &ks, 1, 0);
    val_decref(fn);
    val_decref(ks);
    val_decref(epoch);
    return it;
}

static void loader_repr(Interp *I, StrBuf *out, Value *self, int depth) {
    (void)depth;
    sb_printf(out, "<torch.utils.data.dataloader.DataLoader object at %p>", (void *)self);
}

static Value *loader_getitem(Interp *I, Value *self, Value *index) {
    (void)index;
    return rt_raise(I, "TypeError", "'DataLoader' object is not subscriptable");
}

/* loader.name = v: PyTorch's ValueError for the attributes the loader was built from (dataset, batch_size,
 * drop_last, sampler, batch_sampler); any other name is set as on any object. */
static int loader_setattr(Interp *I, Value *self, const char *name, Value *v) {
    static const char *const fixed[] = {"dataset", "batch_size", "drop_last", "sampler", "batch_sampler", NULL};
    for (int i = 0; fixed[i]; i++)
        if (!strcmp(name, fixed[i])) {
            rt_raise(I, "ValueError", "%s attribute should not be set after DataLoader is initialized", name);
            return -1;
        }
    val_attr_set(self, name, val_incref(v));
    return 0;
}

static const ObjClass DataLoaderClass = {.name = "DataLoader", .repr = loader_repr, .getitem = loader_getitem,
                                         .len = loader_len, .iter = loader_iter, .setattr = loader_setattr};

/* A positive int argument of DataLoader (batch_size); false with PyTorch's ValueError. */
static bool loader_batch_size(Interp *I, Value *v, int64_t *out) {
    *out = 1;
    if (!v) return true;
    if (v->kind == V_NONE) { rt_error(I, "batch_size=None (no automatic batching) is not in attn: give a batch size"); return false; }
    if (v->kind != V_INT || v->u.i <= 0) {
        StrBuf b;
        sb_init(&b);
        if (val_str_of(I, &b, v))        /* PyTorch's f-string: str(batch_size), whose error it raises */
            rt_raise(I, "ValueError", "batch_size should be a positive integer value, but got batch_size=%s", sb_str(&b));
        sb_free(&b);
        return false;
    }
    *out = v->u.i;
    return true;
}

/* DataLoader(dataset, batch_size=1, shuffle=False, ..., drop_last=False): the arguments attn uses; num_workers and
 * pin_memory are accepted and do nothing (attn loads in the main thread, as num_workers=0). */
static Value *data_loader(Interp *I, Value *ds, Value *bsv, Value *sh, Value *dl);

static Value *bi_data_loader(Interp *I, Args *a) {
    Value *p[16];                                /* PyTorch 1.13's parameters, in order */
    if (!args_bind(I, a, p, 16)) return NULL;
    Value *ds = p[0], *sh = p[2], *dl = p[8];
    static const struct { int slot; const char *name; } unsupported[] = {
        {3, "sampler"}, {4, "batch_sampler"}, {6, "collate_fn"}, {12, "generator"}, {10, "worker_init_fn"}};
    for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++) {
        Value *v = p[unsupported[i].slot];
        if (v && v->kind != V_NONE) return rt_error(I, "DataLoader(%s=...) is not in attn: it batches with batch_size, shuffle and drop_last", unsupported[i].name);
    }
    return data_loader(I, ds, p[1], sh, dl);
}

/* A DataLoader of dataset ds (batch_size bsv, shuffle sh, drop_last dl: NULL when absent). */
static Value *data_loader(Interp *I, Value *ds, Value *bsv, Value *sh, Value *dl) {
    int64_t bs;
    bool shuffle = false, drop = false;
    if (!loader_batch_size(I, bsv, &bs)) return NULL;
    if ((sh && !interp_truth(I, sh, &shuffle)) || (dl && !interp_truth(I, dl, &drop))) return NULL;   /* bool(shuffle), as PyTorch */
    Value *nv = ops_len(I, ds);
    if (!nv) return NULL;
    Value *m = val_object(I->run.heap, &DataLoaderClass);
    val_attr_set(m, "dataset", val_incref(ds));
    val_attr_set(m, "batch_size", val_int(I->run.heap, bs));
    val_attr_set(m, "shuffle", val_bool(I->run.heap, shuffle));
    val_attr_set(m, "drop_last", val_bool(I->run.heap, drop));
    val_attr_set(m, "num_workers", val_int(I->run.heap, 0));
    val_attr_set(m, "_n", nv);
    return m;
}

/* ---- d2l.DataModule (d2l/torch.py, §3.2 and §3.3): the book's base class of data ---- */

/* DataModule.__init__(self, root='../data', num_workers=4): the two become attributes and self.hparams, as d2l's
 * save_hyperparameters() records them. */
static Value *m_data_module_init(Interp *I, Args *a) {
    Value *p[2];                                 /* root, num_workers */
    if (!args_bind_method(I, a, "DataModule", p, 2)) return NULL;
    Value *self = a->pos[0], *hp = val_dict(I->run.heap);
    const char *names[2] = {"root", "num_workers"};
    for (int i = 0; i < 2; i++) {
        Value *v = p[i], *val = v ? val_incref(v) : i ? val_int(I->run.heap, 4) : val_str(I->run.heap, "../data");
        dict_set(hp->u.dict, names[i], val_incref(val));
        int rc = ops_setattr(I, self, names[i], val);
        val_decref(val);
        if (rc < 0) { val_decref(hp); return NULL; }
    }
    int rc = ops_setattr(I, self, "hparams", hp);
    val_decref(hp);
    return rc < 0 ? NULL : val_none();
}

/* d2l raises a bare NotImplementedError: a subclass defines get_dataloader. */
static Value *m_get_dataloader(Interp *I, Args *a) {
    rt_raise(I, "NotImplementedError", "NotImplementedError");
    I->error.exc = pyexc_new(I->run.heap, "NotImplementedError", "");        /* args () and str(e) '', as a bare raise */
    return NULL;
}

/* train_dataloader() / val_dataloader() (tag 1): self.get_dataloader(train=True / False). */
static Value *m_train_dataloader(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "DataModule", NULL, 0)) return NULL;
    Value *f = ops_getattr(I, a->pos[0], "get_dataloader");
    if (!f) return NULL;
    Value *train = val_bool(I->run.heap, a->fn->tag == 0);
    const char *kwn[1] = {"train"};
    Value *kwv[1] = {train};
    Args b = {NULL, 0, kwn, kwv, 1, "get_dataloader", NULL};
    Value *r = interp_call(I, f, &b);
    val_decref(train);
    val_decref(f);
    return r;
}

/* get_tensorloader(self, tensors, train, indices=slice(0, None)): DataLoader(TensorDataset(*(a[indices] for a in
 * tensors)), self.batch_size, shuffle=train). */
static Value *m_get_tensorloader(Interp *I, Args *a) {
    Value *p[3];                                 /* tensors, train, indices */
    if (!args_bind_method(I, a, "DataModule", p, 3)) return NULL;
    Value *self = a->pos[0], *ts = p[0], *train = p[1], *idx = p[2];
    Value *items = ops_to_list(I, ts);
    if (!items) return NULL;
    Value *r = NULL, *ds = NULL, *bs = NULL;
    for (int64_t i = 0; idx && i < items->u.seq.n; i++) {
        Value *x = ops_index(I, items->u.seq.items[i], idx);
        if (!x) goto out;
        val_seq_set(items, i, x);
    }
    if (!(ds = tensor_dataset(I, items->u.seq.items, (int)items->u.seq.n)) || !(bs = ops_getattr(I, self, "batch_size"))) goto out;
    r = data_loader(I, ds, bs, train, NULL);
out:
    val_decref(items);
    val_decref(ds);
    val_decref(bs);
    return r;
}

static const Builtin data_module_methods[] = {
    {"__init__", m_data_module_init, "d2l.DataModule.__init__(self, root='../data', num_workers=4)",
     "Records root and num_workers (self.hparams).", "", 0, "d2l.DataModule"},
    {"save_hyperparameters", d2l_save_hyperparameters, "self.save_hyperparameters(ignore=[])",
     "Stores the arguments of the running __init__ as attributes of self.", "", 0, "self"},
    {"get_dataloader", m_get_dataloader, "self.get_dataloader(train)",
     "What a subclass defines: the DataLoader of the training (train=True) or validation data.", "", 0, "self"},
    {"train_dataloader", m_train_dataloader, "self.train_dataloader()", "self.get_dataloader(train=True).", "", 0, "self"},
    {"val_dataloader", m_train_dataloader, "self.val_dataloader()", "self.get_dataloader(train=False).", "", 1, "self"},
    {"get_tensorloader", m_get_tensorloader, "self.get_tensorloader(tensors, train, indices=slice(0, None))",
     "A DataLoader of the rows `indices` of each tensor, self.batch_size at a time, shuffled when train.", "§3.3", 0, "self"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* d2l.DataModule and torch.utils.data.Dataset: static classes of the process as nn.Module (builtin_classes_open
 * says why), made by torch_data_classes_open under builtins_open's pthread_once and never reassigned. */
static Value *data_module_class, *dataset_class;

Value *d2l_data_module_class(void) { return val_incref(data_module_class); }


/* Dataset.__getitem__, which a subclass overrides: PyTorch's raises a bare NotImplementedError (D()[0] without one;
 * str(e) is ''); uncaught, attn says what is missing. */
static Value *dataset_base_getitem(Interp *I, Args *a) {
    Value *r = rt_raise(I, "NotImplementedError", "NotImplementedError (%s defines no __getitem__: a Dataset subclass must define it)",
                        val_type_name(a->pos[0]));
    pyexc_set_arg(I, NULL);
    return r;
}

static const Builtin dataset_methods[] = {
    {"__getitem__", dataset_base_getitem, "Dataset.__getitem__(self, index)", "Sample index: each Dataset subclass defines it.", "", 0, "Dataset"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

void torch_data_classes_open(void) {
    data_module_class = class_new_builtin("DataModule", "d2l.torch", d2l_hyperparameters_class(), data_module_methods, false);
    data_module_class->u.cls->open = true;             /* @d2l.add_to_class(d2l.DataModule), as the book does */
    dataset_class = class_new_builtin("Dataset", "torch.utils.data.dataset", NULL, dataset_methods, false);
}

Value *torch_dataset_class(void) { return val_incref(dataset_class); }

const Builtin bi_torch_data[] = {
    {"TensorDataset", bi_tensor_dataset, "torch.utils.data.TensorDataset(*tensors)",
     "A dataset of tensors that share their first size n: ds[i] is (X[i], y[i], ...), len(ds) is n. Give it to "
     "data.DataLoader to get minibatches (from torch.utils import data).", "§3.3", 0, "torch.utils.data"},
    {"DataLoader", bi_data_loader, "torch.utils.data.DataLoader(dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0, "
     "collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None, multiprocessing_context=None, generator=None, "
     "*, prefetch_factor=2, persistent_workers=False, pin_memory_device='')",
     "Minibatches of a dataset: `for X, y in loader:` gives batch_size samples at a time, stacked into tensors (a "
     "list [X, y] per batch), in order or, with shuffle=True, in a new random order each epoch (drawn as torch.randperm "
     "draws; torch.manual_seed repeats it). The last batch is smaller unless drop_last=True; len(loader) is the number of batches.", "§3.3", 0, "torch.utils.data"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

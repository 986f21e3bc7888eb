/* ops_index.c - x[i], x[i] = v and del x[i] for each kind of value: Python's rules for sequences, strings, dicts and
 * slices, PyTorch's indexing for tensors (basic and advanced, recorded for autograd when the tensor requires grad). */
#include "ops.h"
#include "pyset.h"
#include "library.h"
#include "pyformat.h"
#include "pyexc.h"
#include "lang_internal.h"
#include "pyexc.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- indexing ---- */

static bool index_int(Interp *I, Value *v, int64_t *out) {
    if (v->kind == V_INT) { *out = v->u.i; return true; }
    if (v->kind == V_BOOL) { *out = v->u.b; return true; }
    if (v->kind == V_TENSOR && v->u.t->ndim == 0 && !ten_is_float(v->u.t->dtype)) { *out = ten_get_i64(v->u.t, 0); return true; }
    int r = class_index(I, v, out);
    if (r) return r > 0;
    rt_raise(I, "TypeError", "indices must be integers or slices, not %s", val_type_name(v));
    return false;
}

/* The place of item `index` in a list, tuple or string seq of length len (a negative index counts from the end):
 * for reading it (assign false) or for x[i] = v and del x[i] (assign true). false with Python's TypeError for an
 * index that is not an integer, or its IndexError ("list assignment index out of range") and where the index fell. */
static bool seq_place(Interp *I, const Value *seq, Value *index, bool assign, int64_t *place) {
    int64_t i, len;
    const char *type = seq->kind == V_STR ? "string" : val_type_name(seq);
    if (index->kind == V_INT) i = index->u.i;
    else if (index->kind == V_BOOL) i = index->u.b;
    else if (index->kind == V_TENSOR && index->u.t->ndim == 0 && !ten_is_float(index->u.t->dtype)) i = ten_get_i64(index->u.t, 0);
    else if (class_is_instance(index) && class_has_special(I, index, "__index__")) {
        if (class_index(I, index, &i) < 0) return false;
    } else {
        if (seq->kind == V_STR) rt_raise(I, "TypeError", "string indices must be integers, not '%s'", val_type_name(index));
        else rt_raise(I, "TypeError", "%s indices must be integers or slices, not %s%s", type, val_type_name(index),
                      index->kind == V_TUPLE ? " (a list of lists is indexed L[i][j]; a tensor T[i, j])" : "");
        return false;
    }
    len = seq->kind == V_STR ? seq->u.str.chars : seq->u.seq.n;   /* as it is now: an __index__ may have changed it */
    if (i < -len || i >= len) {
        rt_raise(I, "IndexError", "%s%s index out of range (index %lld, length %lld)", type, assign ? " assignment" : "", (long long)i, (long long)len);
        char words[64];                          /* what except IndexError as e sees: Python's words alone */
        snprintf(words, sizeof words, "%s%s index out of range", type, assign ? " assignment" : "");
        Value *w = val_str(I->run.heap, words);
        pyexc_set_arg(I, w);
        val_decref(w);
        return false;
    }
    *place = i < 0 ? i + len : i;
    return true;
}

static bool slice_part(Interp *I, Value *v, int64_t *out, bool *has) {
    *has = v && v->kind != V_NONE;
    if (!*has) return true;
    return index_int(I, v, out);
}

/* Converts one Python index value to an IndexItem; tensors made from lists go to *tmp (caller frees). */
static bool to_item(Interp *I, Value *v, IndexItem *it, Tensor **tmp) {
    memset(it, 0, sizeof *it);
    if (v->kind == V_SLICE) {
        it->kind = IX_SLICE;
        it->step = 1;
        bool has_step;
        if (!slice_part(I, v->u.slice.start, &it->start, &it->has_start)) return false;
        if (!slice_part(I, v->u.slice.stop, &it->stop, &it->has_stop)) return false;
        if (!slice_part(I, v->u.slice.step, &it->step, &has_step)) return false;
        if (!has_step) it->step = 1;
        return true;
    }
    if (v->kind == V_NONE) { it->kind = IX_NEWAXIS; return true; }
    if (v->kind == V_ELLIPSIS) { it->kind = IX_ELLIPSIS; return true; }
    if (v->kind == V_INT) { it->kind = IX_INT; it->i = v->u.i; return true; }
    if (v->kind == V_TENSOR) {
        if (v->u.t->ndim == 0 && v->u.t->dtype == DT_I64) { it->kind = IX_INT; it->i = ten_i64(v->u.t)[0]; return true; }
        if (ten_is_float(v->u.t->dtype)) { rt_error(I, "tensors used as indices must be long, int or bool tensors, not float"); return false; }
        it->kind = IX_TENSOR;
        it->index = v->u.t;
        return true;
    }
    if (v->kind == V_LIST) {
        *tmp = interp_to_tensor(I, v, false, DT_I64);
        if (!*tmp) return false;
        if (ten_is_float((*tmp)->dtype)) { rt_error(I, "index lists must hold integers or bools"); return false; }
        it->kind = IX_TENSOR;
        it->index = *tmp;
        return true;
    }
    if (v->kind == V_BOOL) { rt_error(I, "indexing a tensor with True/False is not supported: use a bool tensor"); return false; }
    if (class_is_instance(v) && class_has_special(I, v, "__index__")) {      /* t[I(2)]: its __index__, as PyTorch's */
        it->kind = IX_INT;
        return class_index(I, v, &it->i) > 0;
    }
    rt_error(I, "a tensor index must be an int, a slice, None, ..., or a tensor, not %s", val_type_name(v));
    return false;
}

static int tensor_items(Interp *I, Value *index, IndexItem *items, Tensor **tmps) {
    Value *one = index;
    Value **parts = &one;
    int64_t n = 1;
    if (index->kind == V_TUPLE) { parts = index->u.seq.items; n = index->u.seq.n; }
    if (n > 2 * TEN_MAX_DIMS) { rt_error(I, "too many indices (%lld)", (long long)n); return -1; }
    for (int64_t i = 0; i < n; i++)
        if (!to_item(I, parts[i], &items[i], &tmps[i])) return -1;
    return (int)n;
}

/* A slice's start, stop and step as integers (a student's __index__ runs here), before any length applies. */
typedef struct { int64_t a, b, step; bool ha, hb; } SliceParts;
static bool slice_parts(Interp *I, Value *sl, SliceParts *p) {
    bool hs;
    if (!slice_part(I, sl->u.slice.start, &p->a, &p->ha) || !slice_part(I, sl->u.slice.stop, &p->b, &p->hb) ||
        !slice_part(I, sl->u.slice.step, &p->step, &hs))
        return false;
    if (!hs) p->step = 1;
    if (p->step == 0) { rt_raise(I, "ValueError", "slice step cannot be zero"); return false; }
    return true;
}

/* The items the slice p picks from a sequence of len items, as Python's PySlice_AdjustIndices: the first *start,
 * then every *stepp-th, *cntp of them. */
static void slice_adjust(const SliceParts *p, int64_t len, int64_t *start, int64_t *stepp, int64_t *cntp) {
    int64_t a = p->a, b = p->b, step = p->step;
    if (!p->ha) a = step > 0 ? 0 : len - 1;
    else { if (a < 0) a += len; if (a < 0) a = step > 0 ? 0 : -1; if (a >= len) a = step > 0 ? len : len - 1; }
    if (!p->hb) b = step > 0 ? len : -1;
    else { if (b < 0) b += len; if (b < 0) b = step > 0 ? 0 : -1; if (b >= len) b = step > 0 ? len : len - 1; }
    int64_t cnt = 0;
    if (step > 0 && b > a) cnt = (b - a + step - 1) / step;
    if (step < 0 && a > b) cnt = (a - b - step - 1) / (-step);
    *start = a;
    *stepp = step;
    *cntp = cnt;
}

/* The items a slice picks from seq (a list, tuple or string), as Python's slice.indices: its length is read after
 * the bounds are converted (an __index__ may change seq). false with an error set. */
static bool slice_span(Interp *I, const Value *seq, Value *sl, int64_t *start, int64_t *stepp, int64_t *cntp) {
    SliceParts p;
    if (!slice_parts(I, sl, &p)) return false;
    slice_adjust(&p, seq->kind == V_STR ? seq->u.str.chars : seq->u.seq.n, start, stepp, cntp);
    return true;
}

static Value *seq_slice(Interp *I, Value *obj, Value *sl) {
    int64_t a, step, cnt;
    if (!slice_span(I, obj, sl, &a, &step, &cnt)) return NULL;
    if (obj->kind == V_STR && step == 1) {            /* characters, not bytes: 'ζ日本'[1:] is '日本' */
        size_t from = val_str_offset(obj, a), to = val_str_offset(obj, a + cnt);
        return val_strn(I->run.heap, obj->u.str.s + from, to - from);
    }
    if (obj->kind == V_STR) {
        StrBuf b;
        sb_init(&b);
        for (int64_t i = 0; i < cnt; i++) {
            size_t from = val_str_offset(obj, a + i * step), to = val_str_offset(obj, a + i * step + 1);
            sb_putn(&b, obj->u.str.s + from, to - from);
        }
        size_t n = b.len;
        return val_str_take_n(I->run.heap, sb_take(&b), n);
    }
    /* as seq_concat (ops.c): past the limit, or refused by the machine, is MemoryError, not attn stopping */
    if (!interp_bytes_ok(I, cnt * (int64_t)sizeof(Value *))) return NULL;
    Value *r = val_seq_try(I->run.heap, obj->kind == V_LIST ? V_LIST : V_TUPLE, cnt);
    if (!r) { interp_bytes_ok(I, 0); return NULL; }
    for (int64_t i = 0; i < cnt; i++) val_seq_set(r, i, val_incref(obj->u.seq.items[a + i * step]));
    return r;
}

/* Python's KeyError for a dict lookup, in attn's words: "key 5 is not in the dict" (the key as repr shows it). */
Value *ops_key_error(Interp *I, const Value *key) {
    StrBuf k;
    sb_init(&k);
    val_repr_quiet(I, &k, key);            /* Python's KeyError shows the key later: its __repr__ raises nothing here */
    Value *r = rt_raise(I, "KeyError", "key %s is not in the dict", sb_str(&k));
    sb_free(&k);
    pyexc_set_arg(I, key);                 /* except KeyError as e: e.args[0] is the key, str(e) its repr */
    return r;
}

/* x[items] with an index tensor (PyTorch's advanced indexing): IndexBackward0, whose grad goes back to the places
 * the same indexing of x's element numbers picks (ag_index_map). */
static Value *ag_index_advanced(Interp *I, Value *obj, const IndexItem *items, int n) {
    const Tensor *x = obj->u.t;
    Tensor *out = ten_index_get(x, items, n);
    if (!out) return rt_tensor_index_error(I);
    Tensor *ar = ten_arange_in(I->run.ten, 0, (double)x->numel, 1, DT_I64), *pos = ar ? ten_reshape(ar, x->ndim, x->shape) : NULL;
    Tensor *map = pos ? ten_index_get(pos, items, n) : NULL;
    ten_free(ar);
    ten_free(pos);
    if (!map) { ten_free(out); return rt_tensor_index_error(I); }
    AgVal in = {obj->u.t, obj->ag}, r = ag_index_map(&I->run.ag, "IndexBackward0", out, map, 1, &in);
    ten_free(map);
    return ag_value(I, r);
}

/* x[items] recorded for backward: ints (SelectBackward0), slices (SliceBackward0) and None (UnsqueezeBackward0) one
 * dimension after another, as PyTorch records them, ... skipping dims; with an index tensor, IndexBackward0. */
static Value *ag_index_read(Interp *I, Value *obj, const IndexItem *items, int n) {
    if (ag_view_check(&I->run.ag, obj->ag) < 0) return rt_tensor_error(I);       /* a stale part of split */
    for (int i = 0; i < n; i++)
        if (items[i].kind == IX_TENSOR) return ag_index_advanced(I, obj, items, n);
    AgContext *c = &I->run.ag;
    AgVal cur = {obj->u.t, obj->ag};
    bool owned = false;
    int d = 0;
    for (int i = 0; i < n; i++) {
        AgVal next;
        if (items[i].kind == IX_ELLIPSIS) {          /* the dims the items after it do not take */
            int later = 0;
            for (int j = i + 1; j < n; j++) later += items[j].kind == IX_INT || items[j].kind == IX_SLICE;
            if (cur.t->ndim - later > d) d = cur.t->ndim - later;
            continue;
        }
        if (items[i].kind == IX_NEWAXIS) {
            next = ag_unsqueeze(c, cur, d++);
        } else if (items[i].kind == IX_INT) {
            if (d >= cur.t->ndim) { if (owned) ag_val_free(cur); return rt_raise(I, "IndexError", "too many indices for tensor of dimension %d", obj->u.t->ndim); }
            next = ag_select(c, cur, d, items[i].i);
        } else if (items[i].kind == IX_SLICE) {
            if (d >= cur.t->ndim) { if (owned) ag_val_free(cur); return rt_raise(I, "IndexError", "too many indices for tensor of dimension %d", obj->u.t->ndim); }
            next = ag_slice(c, cur, d++, items[i].start, items[i].stop, items[i].step, items[i].has_start, items[i].has_stop);
        } else {
            if (owned) ag_val_free(cur);
            return ag_refuse(I, "this indexing");
        }
        if (owned) ag_val_free(cur);
        if (!next.t) { ag_meta_unref(next.m); return rt_tensor_index_error(I); }
        cur = next;
        owned = true;
    }
    if (!owned) return val_incref(obj);
    return val_tensor_ag(I->run.heap, cur.t, cur.m);
}

Value *ops_index(Interp *I, Value *obj, Value *index) {
    switch (obj->kind) {
    case V_TENSOR: {
        IndexItem items[2 * TEN_MAX_DIMS];
        Tensor *tmps[2 * TEN_MAX_DIMS] = {0};
        int n = tensor_items(I, index, items, tmps);
        if (n >= 0 && ag_records(I, obj, NULL)) {
            ag_meta_claim(obj->ag, obj);                    /* obj stands for its history: x[0]._base is x */
            Value *v = ag_index_read(I, obj, items, n);
            for (int i = 0; i < 2 * TEN_MAX_DIMS; i++) ten_free(tmps[i]);
            return v;
        }
        Tensor *r = n < 0 ? NULL : ten_index_get(obj->u.t, items, n);
        for (int i = 0; i < 2 * TEN_MAX_DIMS; i++) ten_free(tmps[i]);
        if (n < 0) return NULL;
        if (!r) return rt_tensor_index_error(I);
        /* a view (z[0]) knows its base, for an in-place op that records later (ag_view_link) */
        Value *v = val_tensor_ag(I->run.heap, r, ag_view_link(&I->run.ag, r, &obj->ag, obj->u.t));
        ag_meta_claim(obj->ag, obj);
        return v;
    }
    case V_DICTVIEW:                                        /* Python 3's views are not lists: list(d.keys())[0] */
        return rt_raise(I, "TypeError", "'%s' object is not subscriptable (list(d.%s())[i] indexes a list of them)", val_type_name(obj),
                        obj->u.view.which == VIEW_KEYS ? "keys" : obj->u.view.which == VIEW_VALUES ? "values" : "items");
    case V_LIST: case V_TUPLE: case V_STR: {
        if (index->kind == V_SLICE) return seq_slice(I, obj, index);
        int64_t i;
        if (!seq_place(I, obj, index, false, &i)) return NULL;
        if (obj->kind == V_STR) return val_str_char(obj, i);
        return val_incref(obj->u.seq.items[i]);
    }
    case V_RANGE: {
        int64_t i;
        if (!index_int(I, index, &i)) return NULL;
        uint64_t n = val_range_count(obj);
        uint64_t k = i >= 0 ? (uint64_t)i : n - (0 - (uint64_t)i);     /* -i may be 2**63 */
        if ((i >= 0 && k >= n) || (i < 0 && (0 - (uint64_t)i) > n)) return rt_raise(I, "IndexError", "range object index out of range");
        return val_int(I->run.heap, val_range_at(obj, k));
    }
    case V_DICT: {
        int i;
        int64_t h;
        if (!ops_dict_find_hash(I, obj->u.dict, index, &h, &i)) return NULL;
        Value *factory = obj->u.dict->factory;
        if (i < 0 && obj->u.dict->default_dict && (!factory || factory->kind != V_NONE)) {
            /* defaultdict: the missing key gets default_factory() ({} for an optimizer's state), as __missing__ */
            val_incref(obj);                               /* the factory may drop every other reference */
            val_incref(index);
            Value *fresh = factory ? val_incref(factory) : NULL;
            if (factory) {
                Args fa = {NULL, 0, NULL, NULL, 0, NULL, NULL};
                Value *made = interp_call(I, factory, &fa);
                val_decref(fresh);
                fresh = made;
            } else fresh = val_dict(I->run.heap);
            if (fresh && ops_dict_store(I, obj->u.dict, index, fresh, h) < 0) { val_decref(fresh); fresh = NULL; }
            val_decref(index);
            val_decref(obj);
            return fresh;
        }
        return i >= 0 ? val_incref(obj->u.dict->vals[i]) : ops_key_error(I, index);
    }
    default:
        if (obj->kind == V_OBJECT && obj->u.obj.cls->getitem) return obj->u.obj.cls->getitem(I, obj, index);
        if (class_has_special(I, obj, "__getitem__")) return class_call_special(I, obj, "__getitem__", &index, 1);
        Found f = {0};
        if (obj->kind == V_OBJECT && obj->u.obj.klass && class_find(I, obj->u.obj.klass, "__getitem__", NULL, &f) && f.b) {
            Value *args[2] = {obj, index};              /* a built-in base's (torch's Dataset: NotImplementedError) */
            Args a = {args, 2, NULL, NULL, 0, "__getitem__", f.b};
            return f.b->fn(I, &a);
        }
        return rt_raise(I, "TypeError", "'%s' object is not subscriptable", val_type_name(obj));
    }
}

/* x[a:b] = iterable (Python's list slice assignment): with step 1 the slice is replaced by the items, however many;
 * with another step there must be as many items as the slice picks. The items are read before the list changes, so
 * x[:] = x and x[1:] = reversed(x) work as in Python. */
static int list_set_slice(Interp *I, Value *obj, Value *sl, Value *v) {
    SliceParts sp;
    int64_t a, step, cnt, n;
    if (!slice_parts(I, sl, &sp)) return -1;
    slice_adjust(&sp, obj->u.seq.n, &a, &step, &cnt);
    if (!ops_is_iterable(I, v)) {                                   /* Python's words for x[0:1] = 5 */
        rt_raise(I, "TypeError", step == 1 ? "can only assign an iterable" : "must assign iterable to extended slice");
        return -1;
    }
    Value *src = ops_to_list(I, v);
    if (!src) return -1;
    /* the place as the list is now: the items' iterator may have changed it (CPython clamps to its size again) */
    n = obj->u.seq.n;
    slice_adjust(&sp, n, &a, &step, &cnt);
    int64_t m = src->u.seq.n;
    if (step != 1) {
        if (m != cnt) {
            rt_raise(I, "ValueError", "attempt to assign sequence of size %lld to extended slice of size %lld", (long long)m, (long long)cnt);
            val_decref(src);
            return -1;
        }
        for (int64_t k = 0; k < cnt; k++) val_seq_set(obj, a + k * step, val_incref(src->u.seq.items[k]));
        val_decref(src);
        return 0;
    }
    /* step 1: items [a, a + cnt) give way to src's m items (cnt is 0 when the stop is before the start: an insertion) */
    Value *nl = val_list(I->run.heap, 0);
    for (int64_t i = 0; i < a; i++) val_list_append(nl, val_incref(obj->u.seq.items[i]));
    for (int64_t k = 0; k < m; k++) val_list_append(nl, val_incref(src->u.seq.items[k]));
    for (int64_t i = a + cnt; i < n; i++) val_list_append(nl, val_incref(obj->u.seq.items[i]));
    Value **items = obj->u.seq.items;            /* obj takes nl's items; nl, released, takes the old ones along */
    int64_t on = obj->u.seq.n, ocap = obj->u.seq.cap;
    obj->u.seq.items = nl->u.seq.items;
    obj->u.seq.n = nl->u.seq.n;
    obj->u.seq.cap = nl->u.seq.cap;
    nl->u.seq.items = items;
    nl->u.seq.n = on;
    nl->u.seq.cap = ocap;
    val_decref(nl);
    val_decref(src);
    return 0;
}

int ops_set_index(Interp *I, Value *obj, Value *index, Value *v) {
    if (obj->kind == V_TENSOR) {
        IndexItem items[2 * TEN_MAX_DIMS];
        Tensor *tmps[2 * TEN_MAX_DIMS] = {0};
        ArgTensor tv = {0};
        int rc = -1;
        int n = tensor_items(I, index, items, tmps);
        if (n >= 0) {
            /* x[0] = 1/3 or a tensor; PyTorch refuses a list (x[0] = torch.tensor([1, 2]) is the way) */
            Tensor *src = NULL;
            if (v->kind != V_TENSOR && !val_is_number(v))
                rt_raise(I, "TypeError", "can't assign a %s to a torch.%sTensor", v->kind == V_NONE ? "NoneType" : val_type_name(v),
                         ten_dtype_word(obj->u.t->dtype));
            else src = arg_tensor(I, NULL, v, "the assigned value", ARG_NUMBER, &tv);
            bool basic = true;
            for (int i = 0; i < n; i++) basic = basic && items[i].kind != IX_TENSOR;
            if (src && basic && ag_check_inplace(&I->run.ag, obj->ag, true) < 0) {
                rt_tensor_error(I);                  /* PyTorch writes x[0] through a view: "a view of a leaf ..." */
            } else if (src && (obj->ag || (v->kind == V_TENSOR && v->ag))) {
                /* autograd's write: refused on a leaf that requires grad, history rebased (CopySlices) */
                AgVal av = {src, v->kind == V_TENSOR ? v->ag : NULL};
                rc = ag_index_put_(&I->run.ag, obj->u.t, &obj->ag, items, n, av, v->kind != V_TENSOR);
                if (rc < 0) rt_tensor_index_error(I);
            } else if (src) {
                rc = ten_index_set(obj->u.t, items, n, src);
                if (rc < 0) rt_tensor_index_error(I);
            } else if (!interp_failed(I)) rt_tensor_error(I);
        }
        for (int i = 0; i < 2 * TEN_MAX_DIMS; i++) ten_free(tmps[i]);
        arg_tensor_release(&tv);
        return rc;
    }
    if (obj->kind == V_LIST && index->kind == V_SLICE) return list_set_slice(I, obj, index, v);
    if (obj->kind == V_LIST) {
        int64_t i;
        if (!seq_place(I, obj, index, true, &i)) return -1;
        val_seq_set(obj, i, val_incref(v));
        return 0;
    }
    if (obj->kind == V_DICT) {
        int64_t hash;
        if (!pyset_hash(I, index, &hash)) return -1;          /* Python's "unhashable type: 'list'" */
        return ops_dict_store(I, obj->u.dict, index, v, hash);
    }
    if (class_has_special(I, obj, "__setitem__")) {             /* a student's obj[index] = v */
        Value *args[2] = {index, v}, *r = class_call_special(I, obj, "__setitem__", args, 2);
        val_decref(r);
        return r ? 0 : -1;
    }
    rt_raise(I, "TypeError", "'%s' object does not support item assignment", val_type_name(obj));
    return -1;
}

int ops_del_index(Interp *I, Value *obj, Value *index) {
    if (obj->kind == V_LIST && index->kind != V_SLICE) {
        int64_t k, len;
        if (!seq_place(I, obj, index, true, &k)) return -1;      /* the place x[i] = v assigns */
        len = obj->u.seq.n;                                    /* after the index's __index__ ran */
        Value *gone = obj->u.seq.items[k];
        memmove(obj->u.seq.items + k, obj->u.seq.items + k + 1, sizeof(Value *) * (size_t)(len - k - 1));
        obj->u.seq.n--;
        val_decref(gone);
        return 0;
    }
    if (obj->kind == V_LIST && index->kind == V_SLICE) {
        int64_t a, step, cnt, n, w = 0;
        if (!slice_span(I, obj, index, &a, &step, &cnt)) return -1;
        n = obj->u.seq.n;
        if (step < 0) { a += (cnt - 1) * step; step = -step; }     /* the same items, first to last */
        Value **it = obj->u.seq.items, **gone = xmalloc(sizeof(Value *) * (size_t)(cnt ? cnt : 1));
        for (int64_t i = 0, k = 0; i < n; i++) {
            if (k < cnt && i == a + k * step) gone[k++] = it[i];
            else it[w++] = it[i];
        }
        obj->u.seq.n = w;
        for (int64_t k = 0; k < cnt; k++) val_decref(gone[k]);
        free(gone);
        return 0;
    }
    if (obj->kind == V_DICT) {
        int i;
        if (!ops_dict_find(I, obj->u.dict, index, &i)) return -1;
        if (i < 0) { ops_key_error(I, index); return -1; }
        dict_del_at(obj->u.dict, i);
        return 0;
    }
    if (obj->kind == V_TENSOR) rt_error(I, "cannot delete elements of a tensor (a tensor's shape is fixed: index the part to keep, e.g. X[1:])");
    else if (class_has_special(I, obj, "__delitem__")) {          /* a student's del obj[index] */
        Value *r = class_call_special(I, obj, "__delitem__", &index, 1);
        val_decref(r);
        return r ? 0 : -1;
    }
    else rt_raise(I, "TypeError", "'%s' object doesn't support item deletion", val_type_name(obj));
    return -1;
}

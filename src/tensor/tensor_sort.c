/* tensor_sort.c - sort, topk, kthvalue, median and mode along one dim, with PyTorch's (1.13, CPU) answers also
 * where values tie: which of equal elements comes first is decided by the algorithm PyTorch runs, so this file
 * runs the same ones: libstdc++'s std::sort (introsort), std::partial_sort (heap select) and std::nth_element
 * (introselect), on (value, index) pairs with PyTorch's comparators (NaN sorts as the largest value), and the TH
 * quickselect PyTorch keeps for kthvalue. Each row along dim is copied into a pair array, processed, copied out.
 * Ctrl-C (ten_interrupted) stops every long loop here: the algorithms only read the flag, so their answers are
 * unchanged, and an interrupted call frees what it made and fails with ten_fail_interrupted. */
#include "tensor_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Elem {
    union { double d; int64_t i; } k;      /* the value: double for floats and bool, int64 for int64 (exact) */
    int64_t idx;                          /* its position along dim */
} Elem;

typedef enum {
    CMP_ASC,      /* KeyValueCompAsc: (!isnan(a) && isnan(b)) || a < b */
    CMP_DESC,     /* KeyValueCompDesc and topk(largest): (isnan(a) && !isnan(b)) || a > b */
    CMP_LT        /* mode's plain a < b */
} CmpKind;

typedef struct Cmp { CmpKind kind; bool isint; } Cmp;

static bool less(const Elem *a, const Elem *b, const Cmp *c) {
    if (c->isint) {
        int64_t x = a->k.i, y = b->k.i;
        return c->kind == CMP_DESC ? x > y : x < y;
    }
    double x = a->k.d, y = b->k.d;
    switch (c->kind) {
    case CMP_ASC: return (!isnan(x) && isnan(y)) || x < y;
    case CMP_DESC: return (isnan(x) && !isnan(y)) || x > y;
    default: return x < y;
    }
}

static void swap_e(Elem *a, Elem *b) { Elem t = *a; *a = *b; *b = t; }

/* ---- libstdc++ (bits/stl_heap.h, bits/stl_algo.h), step for step ---- */

static void push_heap(Elem *first, int64_t hole, int64_t top, Elem value, const Cmp *c) {
    int64_t parent = (hole - 1) / 2;
    while (hole > top && less(first + parent, &value, c)) {
        first[hole] = first[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    first[hole] = value;
}

static void adjust_heap(Elem *first, int64_t hole, int64_t len, Elem value, const Cmp *c) {
    int64_t top = hole, second = hole;
    while (second < (len - 1) / 2) {
        second = 2 * (second + 1);
        if (less(first + second, first + (second - 1), c)) second--;
        first[hole] = first[second];
        hole = second;
    }
    if ((len & 1) == 0 && second == (len - 2) / 2) {
        second = 2 * (second + 1);
        first[hole] = first[second - 1];
        hole = second - 1;
    }
    push_heap(first, hole, top, value, c);
}

static void make_heap(Elem *first, Elem *last, const Cmp *c) {
    int64_t len = last - first;
    if (len < 2) return;
    for (int64_t parent = (len - 2) / 2;; parent--) {
        adjust_heap(first, parent, len, first[parent], c);
        if (parent == 0 || ((parent & 4095) == 0 && ten_interrupted)) return;
    }
}

static void pop_heap(Elem *first, Elem *last, Elem *result, const Cmp *c) {
    Elem value = *result;
    *result = *first;
    adjust_heap(first, 0, last - first, value, c);
}

static void heap_select(Elem *first, Elem *middle, Elem *last, const Cmp *c) {
    make_heap(first, middle, c);
    for (Elem *i = middle; i < last; i++) {
        if (((i - middle) & 4095) == 0 && ten_interrupted) return;
        if (less(i, first, c)) pop_heap(first, middle, i, c);
    }
}

static void sort_heap(Elem *first, Elem *last, const Cmp *c) {
    while (last - first > 1) {
        if (((last - first) & 4095) == 0 && ten_interrupted) return;
        last--;
        pop_heap(first, last, last, c);
    }
}

static void partial_sort(Elem *first, Elem *middle, Elem *last, const Cmp *c) {
    heap_select(first, middle, last, c);
    sort_heap(first, middle, c);
}

static void unguarded_linear_insert(Elem *last, const Cmp *c) {
    Elem val = *last, *next = last - 1;
    while (less(&val, next, c)) {
        *last = *next;
        last = next;
        next--;
    }
    *last = val;
}

static void insertion_sort(Elem *first, Elem *last, const Cmp *c) {
    if (first == last) return;
    for (Elem *i = first + 1; i != last; i++) {
        if (less(i, first, c)) {
            Elem val = *i;
            memmove(first + 1, first, (size_t)(i - first) * sizeof *first);
            *first = val;
        } else {
            unguarded_linear_insert(i, c);
        }
    }
}

static void move_median_to_first(Elem *result, Elem *a, Elem *b, Elem *cc, const Cmp *c) {
    if (less(a, b, c)) {
        if (less(b, cc, c)) swap_e(result, b);
        else if (less(a, cc, c)) swap_e(result, cc);
        else swap_e(result, a);
    } else if (less(a, cc, c)) swap_e(result, a);
    else if (less(b, cc, c)) swap_e(result, cc);
    else swap_e(result, b);
}

static Elem *unguarded_partition(Elem *first, Elem *last, Elem *pivot, const Cmp *c) {
    for (;;) {
        while (less(first, pivot, c)) first++;
        last--;
        while (less(pivot, last, c)) last--;
        if (!(first < last)) return first;
        swap_e(first, last);
        first++;
    }
}

static Elem *unguarded_partition_pivot(Elem *first, Elem *last, const Cmp *c) {
    Elem *mid = first + (last - first) / 2;
    move_median_to_first(first, first + 1, mid, last - 1, c);
    return unguarded_partition(first + 1, last, first, c);
}

static int lg(int64_t n) {
    int r = 0;
    while (n > 1) { n >>= 1; r++; }
    return r;
}

enum { S_THRESHOLD = 16 };

static void introsort_loop(Elem *first, Elem *last, int depth, const Cmp *c) {
    while (last - first > S_THRESHOLD && !ten_interrupted) {
        if (depth == 0) {
            partial_sort(first, last, last, c);
            return;
        }
        depth--;
        Elem *cut = unguarded_partition_pivot(first, last, c);
        introsort_loop(cut, last, depth, c);
        last = cut;
    }
}

/* std::sort */
static void std_sort(Elem *first, Elem *last, const Cmp *c) {
    if (first == last) return;
    introsort_loop(first, last, 2 * lg(last - first), c);
    if (ten_interrupted) return;          /* the final insertion sort is linear only on what introsort finished */
    if (last - first > S_THRESHOLD) {
        insertion_sort(first, first + S_THRESHOLD, c);
        for (Elem *i = first + S_THRESHOLD; i != last; i++) unguarded_linear_insert(i, c);
    } else {
        insertion_sort(first, last, c);
    }
}

/* std::nth_element */
static void nth_element(Elem *first, Elem *nth, Elem *last, const Cmp *c) {
    if (first == last || nth == last) return;
    int depth = 2 * lg(last - first);
    while (last - first > 3) {
        if (ten_interrupted) return;
        if (depth == 0) {
            heap_select(first, nth + 1, last, c);
            swap_e(first, nth);
            return;
        }
        depth--;
        Elem *cut = unguarded_partition_pivot(first, last, c);
        if (cut <= nth) first = cut;
        else last = cut;
    }
    insertion_sort(first, last, c);
}

/* A stable merge sort (std::stable_sort's result is the only stable order). tmp holds n elements. */
static void merge_sort(Elem *a, Elem *tmp, int64_t n, const Cmp *c) {
    if (n < 2 || ten_interrupted) return;
    int64_t h = n / 2;
    merge_sort(a, tmp, h, c);
    merge_sort(a + h, tmp, n - h, c);
    if (ten_interrupted) return;
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        if ((k & 65535) == 65535 && ten_interrupted) return;       /* a discarded row: unfinished is fine */
        tmp[k++] = less(a + j, a + i, c) ? a[j++] : a[i++];
    }
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, sizeof *a * (size_t)n);
}

/* TH's quickselect (Sorting.cpp quick_select_template), which kthvalue uses: gt is CMP_DESC's "greater or NaN". */
static void quick_select(Elem *arr, int64_t n, int64_t k, const Cmp *gt) {
    int64_t L = 0, R = n - 1;
    for (;;) {
        if (R <= L || ten_interrupted) return;
        if (R == L + 1) {
            if (less(arr + L, arr + R, gt)) swap_e(arr + L, arr + R);
            return;
        }
        int64_t P = (L + R) >> 1;
        swap_e(arr + P, arr + L + 1);
        if (less(arr + L + 1, arr + R, gt)) swap_e(arr + L + 1, arr + R);
        if (less(arr + L, arr + R, gt)) swap_e(arr + L, arr + R);
        if (less(arr + L + 1, arr + L, gt)) swap_e(arr + L + 1, arr + L);
        int64_t i = L + 1, j = R;
        Elem piv = arr[L];
        for (;;) {
            do i++; while (less(&piv, arr + i, gt));
            do j--; while (less(arr + j, &piv, gt));
            if (j < i) break;
            swap_e(arr + i, arr + j);
        }
        swap_e(arr + L, arr + j);
        if (j <= k) L = i;
        if (j >= k) R = j - 1;
    }
}

/* ---- rows along dim ---- */

/* t with dim moved last, contiguous: rows of length n. */
typedef struct Rows {
    Tensor *x;           /* (outer, n) contiguous copy */
    int64_t outer, n;
    int dim;
} Rows;

static bool rows_open(const Tensor *t, int dim, Rows *r) {
    int d = ten_norm_dim_in(ten_ctx_of(t), dim, t->ndim);
    if (d < 0) return false;
    int perm[TEN_MAX_DIMS], k = 0;
    for (int i = 0; i < t->ndim; i++) if (i != d) perm[k++] = i;
    if (t->ndim) perm[k++] = d;
    Tensor *p = ten_permute(t, perm);
    r->x = p ? ten_copy(p) : NULL;
    ten_free(p);
    if (!r->x) return false;
    r->dim = d;
    r->n = t->ndim ? t->shape[d] : 1;
    r->outer = r->n ? t->numel / r->n : 0;
    if (!t->ndim) r->outer = 1;
    return true;
}

static void load_row(const Rows *r, int64_t row, Elem *e, bool isint) {
    for (int64_t j = 0; j < r->n; j++) {
        int64_t at = row * r->n + j;
        if (isint) e[j].k.i = ten_get_i64(r->x, at);
        else e[j].k.d = ten_get(r->x, at);
        e[j].idx = j;
    }
}

/* Output tensors shaped like t with dim of size m (or dim dropped when !keepdim and m == 1 was asked with drop),
 * filled in row order, then given t's layout. vals has t's dtype, idx int64. */
static bool outputs(const Tensor *t, const Rows *r, int64_t m, Tensor **vals, Tensor **idx) {
    int64_t sh[TEN_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < t->ndim; i++) if (i != r->dim) sh[k++] = t->shape[i];
    if (t->ndim) sh[k++] = m;
    *vals = ten_new_in(ten_ctx_of(t), t->dtype, k, sh);
    *idx = *vals ? ten_new_in(ten_ctx_of(t), DT_I64, k, sh) : NULL;
    if (!*idx) { ten_free(*vals); *vals = NULL; return false; }
    return true;
}

/* Moves the last dim back to r->dim (a contiguous result), or drops it when drop is set. */
static Tensor *finish(const Tensor *t, const Rows *r, Tensor *o, bool drop) {
    if (!o) return NULL;
    if (drop || t->ndim == 0) {
        int64_t sh[TEN_MAX_DIMS];
        int k = 0;
        for (int i = 0; i < t->ndim; i++) if (i != r->dim) sh[k++] = t->shape[i];
        Tensor *v = ten_reshape(o, k, sh);
        ten_free(o);
        return v;
    }
    int perm[TEN_MAX_DIMS];
    for (int i = 0, k = 0; i < t->ndim; i++) perm[i] = i == r->dim ? t->ndim - 1 : k++;
    Tensor *p = ten_permute(o, perm), *c = p ? ten_copy(p) : NULL;
    ten_free(p);
    ten_free(o);
    return c;
}

/* The pair array for a row of n (n pairs): NULL, with v, ix and r's copy freed and the failure set, when the
 * machine refuses it. */
static Elem *pairs(Tensor *v, Tensor *ix, Rows *r, int64_t n) {
    Elem *e = n >= 0 && (uint64_t)n < SIZE_MAX / sizeof *e ? malloc(sizeof *e * (size_t)(n ? n : 1)) : NULL;
    if (!e) { ten_fail_in(ten_ctx_of(v), "out of memory for the sort's %lld pairs", (long long)n); ten_free(v); ten_free(ix); ten_free(r->x); }
    return e;
}

/* After a row: Ctrl-C frees everything (e, v, ix, r's copy) and fails; true then. */
static bool interrupted(Elem *e, Tensor *v, Tensor *ix, Rows *r) {
    if (!ten_interrupted) return false;
    ten_fail_interrupted(ten_ctx_of(v));
    free(e);
    ten_free(v);
    ten_free(ix);
    ten_free(r->x);
    return true;
}

static void store(Tensor *vals, Tensor *idx, int64_t at, const Elem *e, bool isint) {
    if (isint) ten_i64(vals)[at] = e->k.i;
    else ten_set(vals, at, e->k.d);
    ten_i64(idx)[at] = e->idx;
}

int ten_sort(const Tensor *t, int dim, bool descending, bool stable, Tensor **values, Tensor **indices) {
    Rows r;
    *values = *indices = NULL;
    if (!rows_open(t, dim, &r)) return -1;
    Tensor *v, *ix;
    if (!outputs(t, &r, r.n, &v, &ix)) { ten_free(r.x); return -1; }
    bool isint = t->dtype == DT_I64;
    Cmp c = {descending ? CMP_DESC : CMP_ASC, isint};
    Elem *e = pairs(v, ix, &r, 2 * r.n);
    if (!e) return -1;
    for (int64_t row = 0; row < r.outer; row++) {
        load_row(&r, row, e, isint);
        if (stable) merge_sort(e, e + r.n, r.n, &c);
        else std_sort(e, e + r.n, &c);
        if (interrupted(e, v, ix, &r)) return -1;
        for (int64_t j = 0; j < r.n; j++) store(v, ix, row * r.n + j, e + j, isint);
    }
    free(e);
    *values = finish(t, &r, v, false);
    *indices = finish(t, &r, ix, false);
    ten_free(r.x);
    if (!*values || !*indices) { ten_free(*values); ten_free(*indices); return -1; }
    return 0;
}

/* TopKImpl.h's topk_impl_loop: partial_sort when k * 64 <= n, else nth_element and a sort of the first k - 1. */
int ten_topk(const Tensor *t, int64_t k, int dim, bool largest, bool sorted, Tensor **values, Tensor **indices) {
    Rows r;
    *values = *indices = NULL;
    if (!rows_open(t, dim, &r)) return -1;
    if (k < 0 || k > r.n) { ten_free(r.x); ten_fail_in(ten_ctx_of(t), "selected index k out of range"); return -1; }
    Tensor *v, *ix;
    if (!outputs(t, &r, k, &v, &ix)) { ten_free(r.x); return -1; }
    bool isint = t->dtype == DT_I64;
    Cmp c = {largest ? CMP_DESC : CMP_ASC, isint};
    Elem *e = pairs(v, ix, &r, r.n);
    if (!e) return -1;
    for (int64_t row = 0; k > 0 && row < r.outer; row++) {
        load_row(&r, row, e, isint);
        if (k * 64 <= r.n) {
            partial_sort(e, e + k, e + r.n, &c);
        } else {
            nth_element(e, e + k - 1, e + r.n, &c);
            if (sorted) std_sort(e, e + k - 1, &c);
        }
        if (interrupted(e, v, ix, &r)) return -1;
        for (int64_t j = 0; j < k; j++) store(v, ix, row * k + j, e + j, isint);
    }
    free(e);
    *values = finish(t, &r, v, false);
    *indices = finish(t, &r, ix, false);
    ten_free(r.x);
    if (!*values || !*indices) { ten_free(*values); ten_free(*indices); return -1; }
    return 0;
}

/* One element per row (kthvalue, median, mode), dim kept as size 1 or dropped. */
typedef enum { PICK_KTH, PICK_MEDIAN, PICK_MODE } Pick;

static int pick(const Tensor *t, Pick how, int64_t k, int dim, bool keepdim, Tensor **values, Tensor **indices) {
    Rows r;
    *values = *indices = NULL;
    if (!rows_open(t, dim, &r)) return -1;
    if (how == PICK_KTH && (k < 1 || k > r.n)) {
        ten_free(r.x);
        ten_fail_in(ten_ctx_of(t), "kthvalue(): selected number k out of range for dimension %d", r.dim);
        return -1;
    }
    if (r.n == 0) {
        ten_free(r.x);
        ten_fail_in(ten_ctx_of(t), "%s(): Expected reduction dim %d to have non-zero size.", how == PICK_MEDIAN ? "median" : how == PICK_MODE ? "mode" : "kthvalue", r.dim);
        return -1;
    }
    Tensor *v, *ix;
    if (!outputs(t, &r, 1, &v, &ix)) { ten_free(r.x); return -1; }
    bool isint = t->dtype == DT_I64;
    Elem *e = pairs(v, ix, &r, r.n);
    if (!e) return -1;
    for (int64_t row = 0; row < r.outer; row++) {
        load_row(&r, row, e, isint);
        Elem out = e[0];
        if (how == PICK_KTH) {
            Cmp gt = {CMP_DESC, isint};
            quick_select(e, r.n, k - 1, &gt);
            out = e[k - 1];
        } else if (how == PICK_MEDIAN) {
            /* Sorting.cpp median_with_indices_impl: a NaN is the median; else nth_element over positions ordered by
             * (value, position), so among equal values the answer is fixed */
            int64_t nan_at = -1;
            for (int64_t j = 0; !isint && j < r.n && nan_at < 0; j++) if (isnan(e[j].k.d)) nan_at = j;
            if (nan_at >= 0) out = e[nan_at];
            else {
                Cmp c = {CMP_ASC, isint};       /* (value, index): indices are already ascending */
                int64_t nth = (r.n - 1) / 2;
                /* a stable sort of positions in order gives the (value, position) order: one answer, as nth_element's */
                Elem *tmp = malloc(sizeof *tmp * (size_t)r.n);
                if (!tmp) { free(e); ten_free(v); ten_free(ix); ten_free(r.x); ten_fail_in(ten_ctx_of(t), "median: out of memory"); return -1; }
                merge_sort(e, tmp, r.n, &c);
                free(tmp);
                out = e[nth];
            }
        } else {
            /* Sorting.cpp mode: std::sort of (value, index) pairs by value, then the longest run; its last pair */
            Cmp c = {CMP_LT, isint};
            std_sort(e, e + r.n, &c);
            int64_t freq = 0, best = 0;
            for (int64_t j = 0; j < r.n; j++) {
                freq++;
                bool end = j == r.n - 1 || (isint ? e[j].k.i != e[j + 1].k.i : e[j].k.d != e[j + 1].k.d);
                if (end) {
                    if (freq > best) { out = e[j]; best = freq; }
                    freq = 0;
                }
            }
        }
        if (interrupted(e, v, ix, &r)) return -1;         /* after the row's work: what it found may be unfinished */
        store(v, ix, row, &out, isint);
    }
    free(e);
    *values = finish(t, &r, v, !keepdim);
    *indices = finish(t, &r, ix, !keepdim);
    ten_free(r.x);
    if (!*values || !*indices) { ten_free(*values); ten_free(*indices); return -1; }
    return 0;
}

int ten_kthvalue(const Tensor *t, int64_t k, int dim, bool keepdim, Tensor **values, Tensor **indices) {
    return pick(t, PICK_KTH, k, dim, keepdim, values, indices);
}
int ten_median_dim(const Tensor *t, int dim, bool keepdim, Tensor **values, Tensor **indices) {
    return pick(t, PICK_MEDIAN, 0, dim, keepdim, values, indices);
}
int ten_mode(const Tensor *t, int dim, bool keepdim, Tensor **values, Tensor **indices) {
    return pick(t, PICK_MODE, 0, dim, keepdim, values, indices);
}

/* torch.median(X): the lower median of all elements (NaN when there is one; NaN for no elements). */
Tensor *ten_median_all(const Tensor *t) {
    int64_t n = t->numel;
    Tensor *flat = ten_reshape(t, 1, &n);
    if (!flat) return NULL;
    Tensor *v = NULL, *ix = NULL;
    if (n == 0) {
        ten_free(flat);
        Tensor *r = ten_new_in(ten_ctx_of(t), t->dtype, 0, NULL);
        if (r) ten_set(r, 0, NAN);
        return r;
    }
    int rc = ten_median_dim(flat, 0, false, &v, &ix);
    ten_free(flat);
    ten_free(ix);
    return rc < 0 ? NULL : v;
}

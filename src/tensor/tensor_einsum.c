/* tensor_einsum.c - torch.einsum("bqd,bkd->bqk", Q, K): sums of products over labelled dims, as PyTorch defines
 * them: explicit output ("->") or implicit (the labels that appear once, in alphabetical order), "..." for the
 * dims no label names (broadcast, right-aligned), a label repeated in one operand for its diagonal, size-1 dims
 * broadcast. One loop over every label's values, summing in double (int64 exactly): each operand's offset is
 * sum(label value * the strides of that operand's dims carrying the label). */
#include "tensor_internal.h"
#include <stdio.h>
#include <string.h>

#define MAX_OPS 8
#define N_LABELS (52 + TEN_MAX_DIMS)       /* A-Z, a-z, then the ellipsis dims */

static int label_of(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return 26 + c - 'a';
    return -1;
}

/* One term of the equation ("b...d") as labels per dim of its operand, with the ellipsis expanded. */
static int parse_term(TenCtx *c, const char *s, const char *end, int ndim, int ell_dims_max, int *labels, int *nl, bool *has_ell, int *ell_here) {
    int n = 0;
    *has_ell = false;
    for (const char *p = s; p < end; p++) {
        if (*p == ' ') continue;
        if (*p == '.') {
            if (end - p < 3 || p[1] != '.' || p[2] != '.' || *has_ell) {
                ten_fail_in(c, "einsum(): found '.' for operand that is not part of any ellipsis");
                return -1;
            }
            *has_ell = true;
            *ell_here = n;
            labels[n++] = -2;          /* a placeholder, expanded below */
            p += 2;
            continue;
        }
        int l = label_of(*p);
        if (l < 0) { ten_fail_in(c, "einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", (int)(p - s)); return -1; }
        if (n >= TEN_MAX_DIMS + 1) { ten_fail_in(c, "einsum(): too many subscripts"); return -1; }
        labels[n++] = l;
    }
    *nl = n;
    (void)ndim;
    (void)ell_dims_max;
    return 0;
}

Tensor *ten_einsum_in(TenCtx *c, const char *eq, Tensor *const *ops, int nops) {
    if (nops < 1 || nops > MAX_OPS) { ten_fail_in(c, "einsum(): must provide at least one operand (and at most %d)", MAX_OPS); return NULL; }
    const char *arrow = strstr(eq, "->");
    const char *lhs_end = arrow ? arrow : eq + strlen(eq);
    int labels[MAX_OPS][TEN_MAX_DIMS + 1], nl[MAX_OPS], ell_at[MAX_OPS];
    bool has_ell[MAX_OPS];
    const char *p = eq;
    int k = 0;
    for (; k < nops; k++) {
        const char *comma = memchr(p, ',', (size_t)(lhs_end - p));
        const char *tend = comma ? comma : lhs_end;
        if (parse_term(c, p, tend, ops[k]->ndim, 0, labels[k], &nl[k], &has_ell[k], &ell_at[k]) < 0) return NULL;
        if (!comma) { k++; break; }
        p = comma + 1;
    }
    if (k != nops || memchr(p, ',', (size_t)(lhs_end - p)) != NULL) {
        ten_fail_in(c, "einsum(): more operands were provided than specified in the equation");
        return NULL;
    }
    /* dims each operand gives to its ellipsis */
    int ell_n[MAX_OPS], ell_max = 0;
    for (k = 0; k < nops; k++) {
        int named = nl[k] - (has_ell[k] ? 1 : 0);
        ell_n[k] = has_ell[k] ? ops[k]->ndim - named : 0;
        if ((!has_ell[k] && named != ops[k]->ndim) || ell_n[k] < 0) {
            ten_fail_in(c, "einsum(): the number of subscripts in the equation (%d) does not match the number of dimensions (%d) "
                     "for operand %d%s", named, ops[k]->ndim, k, has_ell[k] ? "" : " and no ellipsis was given");
            return NULL;
        }
        if (ell_n[k] > ell_max) ell_max = ell_n[k];
    }
    /* sizes of every label; stride of every label in every operand */
    int64_t size[N_LABELS], stride[MAX_OPS][N_LABELS];
    int count[N_LABELS];
    for (int l = 0; l < N_LABELS; l++) { size[l] = -1; count[l] = 0; }
    memset(stride, 0, sizeof stride);
    for (k = 0; k < nops; k++) {
        int d = 0;
        for (int j = 0; j < nl[k]; j++) {
            int span = labels[k][j] == -2 ? ell_n[k] : 1;
            for (int e = 0; e < span; e++, d++) {
                int l = labels[k][j] == -2 ? 52 + (ell_max - ell_n[k]) + e : labels[k][j];
                int64_t n = ops[k]->shape[d];
                if (labels[k][j] != -2 || e == 0) count[l] += labels[k][j] == -2 ? 0 : 1;
                if (size[l] < 0 || size[l] == 1) size[l] = size[l] == 1 && n != 1 ? n : (size[l] < 0 ? n : size[l]);
                else if (n != 1 && n != size[l]) {
                    if (l >= 52) ten_fail_in(c, "einsum(): operands do not broadcast with remapped shapes (original->remapped)");
                    else ten_fail_in(c, "einsum(): subscript %c has size %lld for operand %d which does not broadcast with previously seen size %lld",
                                  l < 26 ? 'A' + l : 'a' + l - 26, (long long)n, k, (long long)size[l]);
                    return NULL;
                }
                if (n != 1) stride[k][l] += ops[k]->stride[d];
            }
        }
    }
    for (int l = 52; l < 52 + ell_max; l++) if (size[l] < 0) size[l] = 1;
    /* the output labels */
    int out[TEN_MAX_DIMS + TEN_MAX_DIMS], nout = 0;
    bool in_out[N_LABELS] = {false};
    if (arrow) {
        const char *q = arrow + 2;
        bool ell_seen = false;
        for (; *q; q++) {
            if (*q == ' ') continue;
            if (*q == '.') {
                if (strncmp(q, "...", 3) || ell_seen) { ten_fail_in(c, "einsum(): found '.' for output but an ellipsis (...) was already found"); return NULL; }
                ell_seen = true;
                for (int l = 52; l < 52 + ell_max; l++) { out[nout++] = l; in_out[l] = true; }
                q += 2;
                continue;
            }
            int l = label_of(*q);
            if (l < 0) { ten_fail_in(c, "einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", (int)(q - eq)); return NULL; }
            if (size[l] < 0) { ten_fail_in(c, "einsum(): output subscript %c does not appear in the equation for any input operand", *q); return NULL; }
            if (in_out[l]) { ten_fail_in(c, "einsum(): output subscript %c appears more than once in the output", *q); return NULL; }
            if (nout >= TEN_MAX_DIMS) { ten_fail_in(c, "tensors have at most %d dimensions", TEN_MAX_DIMS); return NULL; }
            out[nout++] = l;
            in_out[l] = true;
        }
        /* ellipsis dims left out of an explicit output are summed, as PyTorch does */
    } else {
        for (int l = 52; l < 52 + ell_max; l++) { out[nout++] = l; in_out[l] = true; }
        for (int l = 0; l < 52; l++)
            if (count[l] == 1) {
                if (nout >= TEN_MAX_DIMS) { ten_fail_in(c, "tensors have at most %d dimensions", TEN_MAX_DIMS); return NULL; }
                out[nout++] = l;
                in_out[l] = true;
            }
    }
    int sum_l[N_LABELS], nsum = 0;
    for (int l = 0; l < N_LABELS; l++) if (size[l] >= 0 && !in_out[l]) sum_l[nsum++] = l;
    /* dtypes: PyTorch multiplies equal dtypes only */
    DType dt = ops[0]->dtype;
    for (k = 1; k < nops; k++)
        if (ops[k]->dtype != dt) { ten_fail_in(c, "expected scalar type %s but found %s", ten_dtype_word(dt), ten_dtype_word(ops[k]->dtype)); return NULL; }
    int64_t osh[TEN_MAX_DIMS], inner = 1, work = 1;
    for (int i = 0; i < nout; i++) osh[i] = size[out[i]];
    for (int i = 0; i < nsum; i++) inner *= size[sum_l[i]];
    Tensor *o = ten_new_in(ten_ctx_of(ops[0]), dt == DT_BOOL ? DT_BOOL : dt, nout, osh);
    if (!o) return NULL;
    work = o->numel * (inner ? inner : 1);
    if (o->numel && inner && work / inner != o->numel) work = INT64_MAX;
    if (work > ((int64_t)1 << 34)) { ten_free(o); ten_fail_in(c, "einsum(): %lld products is too many for attn's loop", (long long)work); return NULL; }
    size_t es[MAX_OPS];
    for (k = 0; k < nops; k++) es[k] = ten_dtype_size(ops[k]->dtype);
    int64_t oix[TEN_MAX_DIMS] = {0};
    for (int64_t i = 0; i < o->numel; i++) {
        if ((i & 1023) == 0 && ten_interrupted) { ten_free(o); ten_fail_interrupted(c); return NULL; }
        int64_t base[MAX_OPS];
        for (k = 0; k < nops; k++) {
            base[k] = 0;
            for (int j = 0; j < nout; j++) base[k] += oix[j] * stride[k][out[j]];
        }
        double acc = 0;
        int64_t iacc = 0;
        int64_t six[N_LABELS] = {0};
        for (int64_t s = 0; s < inner; s++) {
            double prod = 1;
            int64_t iprod = 1;
            for (k = 0; k < nops; k++) {
                int64_t off = base[k];
                for (int j = 0; j < nsum; j++) off += six[j] * stride[k][sum_l[j]];
                const char *p0 = (const char *)ops[k]->data + off * (int64_t)es[k];
                switch (ops[k]->dtype) {
                case DT_F32: prod *= *(const float *)p0; break;
                case DT_F64: prod *= *(const double *)p0; break;
                case DT_I64: iprod = (int64_t)((uint64_t)iprod * (uint64_t)*(const int64_t *)p0); break;
                case DT_BOOL: iprod &= *(const uint8_t *)p0 != 0; break;
                }
            }
            acc += prod;
            iacc = dt == DT_BOOL ? (iacc | iprod) : (int64_t)((uint64_t)iacc + (uint64_t)iprod);
            for (int j = nsum - 1; j >= 0; j--) { if (++six[j] < size[sum_l[j]]) break; six[j] = 0; }
        }
        if (ten_is_float(dt)) ten_set(o, i, acc);
        else if (dt == DT_I64) ten_i64(o)[i] = iacc;
        else ten_b8(o)[i] = iacc != 0;
        for (int j = nout - 1; j >= 0; j--) { if (++oix[j] < osh[j]) break; oix[j] = 0; }
    }
    return o;
}

/* tensor_einsum.c - torch.einsum("bqd,bkd->bqk", Q, K): sums of products over labelled dims, as PyTorch defines
 * them: explicit output ("->") or implicit (the labels that appear once, in alphabetical order), "..." for the
 * dims no label names (broadcast, right-aligned), a label repeated in one operand for its diagonal, size-1 dims
 * broadcast. Two operands whose labels make a (batched) matrix product, as PyTorch finds them (sumproduct_pair),
 * go to ten_matmul: the labels of both operands and the output are the batch, those of one operand and the output
 * the rows or columns, those of both and not the output the sum. Everything else (one operand or three, a diagonal,
 * a label summed in one operand only, bool) takes one loop over every label's values, summing in double (int64
 * exactly): each operand's offset is sum(label value * the strides of that operand's dims carrying the label). */
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

/* What the equation says about each label: its size (-1 when no operand has it), its stride in each operand (the sum
 * over the operand's dims carrying it, 0 where that dim has size 1), how many dims of each operand carry it, and
 * whether one of them has the label's size (a dim of size 1 against a larger size only broadcasts). */
typedef struct Labels {
    int64_t size[N_LABELS], stride[MAX_OPS][N_LABELS];
    int occ[MAX_OPS][N_LABELS];
    bool sized[MAX_OPS][N_LABELS];
} Labels;

/* Whether operand k takes part in label l's products: it carries l once or more, at l's size (or l has size 1). */
static bool carries(const Labels *L, int k, int l) { return L->occ[k][l] > 0 && (L->sized[k][l] || L->size[l] == 1); }

/* ops[0] (batch, m, sum) @ ops[1] (batch, sum, n) by ten_matmul, in the output's order out[0..nout): the product
 * einsum is when every label is one of those four (see the top of the file), sized, on no dim of size 0, and neither
 * operand repeats a label (a diagonal). Otherwise NULL with *fits false and nothing reported; NULL with *fits true
 * is a failure reported in the operands' context (memory, Ctrl-C). The result is new and contiguous. */
static Tensor *einsum_product(Tensor *const *ops, const Labels *L, const int *out, int nout, const bool *in_out, bool *fits) {
    int bat[TEN_MAX_DIMS], m[TEN_MAX_DIMS], n[TEN_MAX_DIMS], sum[TEN_MAX_DIMS], nb = 0, nm = 0, nn = 0, ns = 0;
    *fits = false;
    if (ops[0]->dtype == DT_BOOL) return NULL;
    for (int l = 0; l < N_LABELS; l++) {
        if (L->size[l] < 0) continue;
        if (L->size[l] == 0 || L->occ[0][l] > 1 || L->occ[1][l] > 1) return NULL;
        if (in_out[l] || L->size[l] == 1) continue;          /* output labels below, in the output's order */
        if (!carries(L, 0, l) || !carries(L, 1, l)) return NULL;    /* summed in one operand only */
        sum[ns++] = l;
    }
    for (int i = 0; i < nout; i++) {
        bool a = carries(L, 0, out[i]), b = carries(L, 1, out[i]);
        if (a && b) bat[nb++] = out[i];
        else if (a) m[nm++] = out[i];
        else if (b) n[nn++] = out[i];
        else return NULL;
    }
    *fits = true;
    /* each operand as a view over its labels, then (B, M, K) and (B, K, N): a copy only where the view is not one */
    int64_t sh[2][TEN_MAX_DIMS], st[2][TEN_MAX_DIMS], dims[3][3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    const int *group[2][3] = {{bat, m, sum}, {bat, sum, n}};
    const int ng[2][3] = {{nb, nm, ns}, {nb, ns, nn}};
    Tensor *v[2] = {NULL, NULL}, *x[2] = {NULL, NULL}, *r = NULL, *o = NULL;
    for (int k = 0; k < 2; k++) {
        int nd = 0;
        for (int g = 0; g < 3; g++)
            for (int i = 0; i < ng[k][g]; i++, nd++) {
                int l = group[k][g][i];
                sh[k][nd] = L->size[l];
                st[k][nd] = L->stride[k][l];
                dims[k][g] *= L->size[l];
            }
        v[k] = ten_view_of(ops[k], nd, sh[k], st[k], ops[k]->offset);
        x[k] = v[k] ? ten_reshape(v[k], 3, dims[k]) : NULL;
        if (!x[k]) goto done;
    }
    r = ten_matmul(x[0], x[1]);                                 /* (B, M, N) */
    if (!r) goto done;
    /* (batch..., m..., n...) back in the output's order */
    int64_t rsh[TEN_MAX_DIMS];
    int lab[TEN_MAX_DIMS], nr = 0, perm[TEN_MAX_DIMS];
    for (int i = 0; i < nb; i++) lab[nr++] = bat[i];
    for (int i = 0; i < nm; i++) lab[nr++] = m[i];
    for (int i = 0; i < nn; i++) lab[nr++] = n[i];
    for (int i = 0; i < nr; i++) rsh[i] = L->size[lab[i]];
    for (int i = 0; i < nout; i++)
        for (int j = 0; j < nr; j++)
            if (lab[j] == out[i]) perm[i] = j;
    Tensor *rv = ten_reshape(r, nr, rsh), *p = rv ? ten_permute(rv, perm) : NULL;
    o = p ? ten_contiguous(p) : NULL;
    ten_free(p);
    ten_free(rv);
done:
    for (int k = 0; k < 2; k++) { ten_free(x[k]); ten_free(v[k]); }
    ten_free(r);
    return o;
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
    Labels L;
    int64_t *size = L.size, (*stride)[N_LABELS] = L.stride;
    int count[N_LABELS];
    for (int l = 0; l < N_LABELS; l++) { size[l] = -1; count[l] = 0; }
    memset(L.stride, 0, sizeof L.stride);
    memset(L.occ, 0, sizeof L.occ);
    memset(L.sized, 0, sizeof L.sized);
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
                L.occ[k][l]++;
                if (n != 1) L.sized[k][l] = true;
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
    if (nops == 2) {
        bool fits;
        Tensor *prod = einsum_product(ops, &L, out, nout, in_out, &fits);
        if (fits) return prod;
    }
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

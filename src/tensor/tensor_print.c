/* tensor_print.c - repr(tensor) exactly as PyTorch prints it (torch/_tensor_str.py), deterministically.
 * One formatter is chosen from the elements that will be shown (the summarised data when numel > threshold):
 *   int mode  - every shown float is integral: "1." (sci if max/min > 1000 or max > 1e8)
 *   sci mode  - max/min > 1000, max > 1e8 or min < 1e-4 (over nonzero finite |values|): "1.0000e-05"
 *   fixed     - "%.{precision}f"
 * Every element is right-aligned to the widest; rows wrap at linewidth. -0 prints as 0, nan/inf as Python does. */
#include "tensor.h"
#include "strbuf.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const PrintOptions ten_print_defaults = {4, 1000, 3, 80, -1};

typedef struct Formatter {
    bool floating, int_mode, sci_mode;
    int max_width;
    int precision;
    const PrintOptions *po;
} Formatter;

/* Collects the values that will be shown (edge items only when summarising), row-major. */
static void shown_values(const Tensor *t, bool summarize, int e, double *out, int64_t *n, int dim, int64_t base) {
    if (dim == t->ndim) {
        /* an int64 is kept bit for bit (its text is made from it exactly, never through a double) */
        if (t->dtype == DT_I64) { int64_t v = ten_get_i64(t, base); memcpy(&out[(*n)++], &v, sizeof v); }
        else out[(*n)++] = ten_get(t, base);
        return;
    }
    int64_t len = t->shape[dim], inner = 1;
    for (int i = dim + 1; i < t->ndim; i++) inner *= t->shape[i];
    for (int64_t i = 0; i < len; i++) {
        if (summarize && len > 2 * e && i >= e && i < len - e) { i = len - e - 1; continue; }
        shown_values(t, summarize, e, out, n, dim + 1, base + i * inner);
    }
}

/* One value as PyTorch's _Formatter.format writes it (Python's format of the double): a negative zero, or a small
 * negative rounded to zero, keeps its sign ("-0.", "-0.0000"), as in PyTorch. */
static void fmt_float_raw(char *buf, size_t n, double v, const Formatter *f) {
    if (isnan(v)) { snprintf(buf, n, "nan"); return; }
    if (isinf(v)) { snprintf(buf, n, v > 0 ? "inf" : "-inf"); return; }
    if (f->sci_mode) snprintf(buf, n, "%.*e", f->precision, v);
    else if (f->int_mode) snprintf(buf, n, "%.0f.", v);
    else snprintf(buf, n, "%.*f", f->precision, v);
}

static void fmt_value(char *buf, size_t n, double v, const Tensor *t, const Formatter *f) {
    if (t->dtype == DT_BOOL) snprintf(buf, n, "%s", v != 0 ? "True" : "False");
    else if (t->dtype == DT_I64) snprintf(buf, n, "%lld", (long long)v);
    else fmt_float_raw(buf, n, v, f);
}

static void make_formatter(const Tensor *t, bool summarize, const PrintOptions *po, Formatter *f) {
    f->po = po;
    f->floating = ten_is_float(t->dtype);
    f->int_mode = true;
    f->sci_mode = false;
    f->max_width = 1;
    f->precision = po->precision;
    /* room for the values shown: a summarized dimension shows 2 * edgeitems of them (a 268M-element view of a few
     * numbers needs a few hundred doubles here, not 2 GiB) */
    int64_t cap = 1, n = 0;
    for (int d = 0; d < t->ndim; d++)
        cap *= summarize && t->shape[d] > 2 * (int64_t)po->edgeitems ? 2 * (int64_t)po->edgeitems : t->shape[d];
    double *vals = xmalloc(sizeof(double) * (size_t)(cap ? cap : 1));
    shown_values(t, summarize, po->edgeitems, vals, &n, 0, 0);
    char buf[64];
    if (!f->floating) {
        for (int64_t i = 0; i < n; i++) {
            if (t->dtype == DT_I64) {
                int64_t v;
                memcpy(&v, &vals[i], sizeof v);          /* shown_values kept the int64's bits */
                snprintf(buf, sizeof buf, "%lld", (long long)v);
            } else {
                fmt_value(buf, sizeof buf, vals[i], t, f);
            }
            int w = (int)strlen(buf);
            if (w > f->max_width) f->max_width = w;
        }
        free(vals);
        return;
    }
    double mn = INFINITY, mx = 0;
    int64_t nz = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = vals[i];
        if (!isfinite(v) || v == 0) continue;
        vals[nz++] = v;
        double a = fabs(v);
        if (a < mn) mn = a;
        if (a > mx) mx = a;
    }
    if (nz > 0) {
        for (int64_t i = 0; i < nz; i++)
            if (vals[i] != ceil(vals[i])) { f->int_mode = false; break; }
        if (f->int_mode) f->sci_mode = mx / mn > 1000.0 || mx > 1.0e8;
        else f->sci_mode = mx / mn > 1000.0 || mx > 1.0e8 || mn < 1.0e-4;
        for (int64_t i = 0; i < nz; i++) {
            fmt_float_raw(buf, sizeof buf, vals[i], f);
            int w = (int)strlen(buf);
            if (w > f->max_width) f->max_width = w;
        }
    }
    /* set_printoptions(sci_mode=...) chooses the notation only: the width stays the one the automatic choice gave
     * (PyTorch's _Formatter sets sci_mode after measuring), so a wider value is not padded and a narrower one is
     * padded to that width */
    if (po->sci_mode >= 0 && f->floating && nz > 0) f->sci_mode = po->sci_mode == 1;
    free(vals);
}

static void put_elem(StrBuf *out, const Tensor *t, int64_t i, const Formatter *f) {
    char buf[64];
    if (t->dtype == DT_I64) snprintf(buf, sizeof buf, "%lld", (long long)ten_get_i64(t, i));
    else fmt_value(buf, sizeof buf, ten_get(t, i), t, f);
    sb_pad(out, ' ', f->max_width - (long)strlen(buf));
    sb_puts(out, buf);
}

static void vector_str(StrBuf *out, const Tensor *t, int64_t base, int64_t len, int indent, bool summarize,
                       const Formatter *f) {
    int elem_len = f->max_width + 2;
    int per_line = (f->po->linewidth - indent) / elem_len;
    if (per_line < 1) per_line = 1;
    int e = f->po->edgeitems;
    bool cut = summarize && len > 2 * e;
    int64_t count = cut ? 2 * e + 1 : len;
    sb_putc(out, '[');
    for (int64_t k = 0; k < count; k++) {
        if (k > 0) {
            if (k % per_line == 0) { sb_puts(out, ",\n"); sb_pad(out, ' ', indent + 1); }
            else sb_puts(out, ", ");
        }
        if (cut && k == e) { sb_puts(out, " ..."); continue; }
        int64_t i = cut && k > e ? len - (count - k) : k;
        put_elem(out, t, base + i, f);
    }
    sb_putc(out, ']');
}

static void tensor_str(StrBuf *out, const Tensor *t, int dim, int64_t base, int indent, bool summarize,
                       const Formatter *f) {
    int rank = t->ndim - dim;
    int64_t len = t->shape[dim], inner = 1;
    for (int i = dim + 1; i < t->ndim; i++) inner *= t->shape[i];
    if (rank == 1) { vector_str(out, t, base, len, indent, summarize, f); return; }
    int e = f->po->edgeitems;
    bool cut = summarize && len > 2 * e;
    sb_putc(out, '[');
    for (int64_t i = 0; i < len; i++) {
        if (cut && i >= e && i < len - e) {
            sb_putc(out, ',');
            sb_pad(out, '\n', rank - 1);
            sb_pad(out, ' ', indent + 1);
            sb_puts(out, "...");
            i = len - e - 1;
            continue;
        }
        if (i > 0) {
            sb_putc(out, ',');
            sb_pad(out, '\n', rank - 1);
            sb_pad(out, ' ', indent + 1);
        }
        tensor_str(out, t, dim + 1, base + i * inner, indent + 1, summarize, f);
    }
    sb_putc(out, ']');
}

void ten_format_body(StrBuf *out, const Tensor *t, int indent, const PrintOptions *po) {
    if (!po) po = &ten_print_defaults;
    bool summarize = t->numel > po->threshold;
    Formatter f;
    make_formatter(t, summarize, po, &f);
    if (t->ndim == 0) {                 /* padded to the width too, as PyTorch's _scalar_str (sci_mode=False: "    0.0000") */
        put_elem(out, t, 0, &f);
        return;
    }
    tensor_str(out, t, 0, 0, indent, summarize, &f);
}

/* PyTorch's _add_suffixes: ", dtype=..." goes on the last line unless that line would pass linewidth. */
static void add_suffix(StrBuf *out, size_t start, const char *suffix, const PrintOptions *po) {
    const char *s = sb_str(out) + start;
    const char *nl = strrchr(s, '\n');
    long last = (long)strlen(nl ? nl + 1 : s) + 2;
    if (last + (long)strlen(suffix) + 2 > po->linewidth) sb_printf(out, ",\n%*s%s", 7, "", suffix);
    else sb_printf(out, ", %s", suffix);
}

void ten_repr(StrBuf *out, const Tensor *t, const PrintOptions *po) {
    if (!po) po = &ten_print_defaults;
    size_t start = out->len;
    char dt[48];
    snprintf(dt, sizeof dt, "dtype=%s", ten_dtype_name(t->dtype));
    sb_puts(out, "tensor(");
    if (t->numel == 0) {
        sb_puts(out, "[]");
        if (t->ndim != 1) {
            char s[160], suf[170];
            ten_shape_str(t->shape, t->ndim, s, sizeof s);
            snprintf(suf, sizeof suf, "size=%s", s);
            add_suffix(out, start, suf, po);
        }
        if (t->dtype != ten_ctx_of(t)->default_float) add_suffix(out, start, dt, po);
    } else {
        ten_format_body(out, t, 7, po);
        /* int64 and bool are never named; a float that is not the default dtype is */
        if (ten_is_float(t->dtype) && t->dtype != ten_ctx_of(t)->default_float) add_suffix(out, start, dt, po);
    }
    sb_putc(out, ')');
}

/* ag_f64.h - the two dtype steps of the formulas ag_extra.c and ag_reduce.c compute in float64. */
#ifndef ATTN_AG_F64_H
#define ATTN_AG_F64_H
#include "ag_internal.h"

/* A contiguous float64 copy of t (NULL propagates). */
static inline Tensor *f64(const Tensor *t) { return t ? ten_cast(t, DT_F64) : NULL; }

/* r (consumed) cast to dt; NULL propagates. */
static inline Tensor *as_dtype(Tensor *r, DType dt) {
    if (!r || r->dtype == dt) return r;
    Tensor *c = ten_cast(r, dt);
    ten_free(r);
    return c;
}
#endif

# ctx2d-migrate.sed - issue 28 step 2d for code written against the old thread and product API (a branch merged
# after it):
#   sed -i -E -f scripts/ctx2d-migrate.sed src/builtins/NEW.c
# par_for, ten_sgemm and their switches no longer read an installed context: each takes the TenCtx whose thread
# count, BLAS threshold, attention block and own-kernel switch it uses, as its first argument. This adds
# I->run.ten (a builtin's session context) as that argument. Where I is not in scope the compiler says so: in
# src/tensor pass the input tensor's context, ten_ctx_of(t) (or the job's copy of it, J->ctx, inside a par_for
# worker); in src/autograd c->ten or n->ten; in a unit test the file's TC. Delete this file once no branch needs it.
#
# Handled (CTX below is I->run.ten):
#   par_for(n, grain, fn, arg)        -> par_for(CTX, n, grain, fn, arg)      and par_for_chunks the same
#   ten_sgemm(A, B, C, m, n, k, bt)   -> ten_sgemm(CTX, A, ...)                and ten_sgemm_ld, ten_sgemm_tt the same
#   ten_sgemm_wants_blas(m, n, k), ten_sgemm_own(m, ...), ten_own_gemm(ldb)    -> CTX added first
#   ten_set_threads(n), par_set_threads(n), ten_set_blas_threshold(f), ten_set_attention_block(r),
#   ten_set_own_gemm(on)                                                       -> CTX added first
#   par_threads(), ten_threads(), ten_gemm_describe()                          -> (CTX)
#   ten_ctx()                         -> CTX (the installed context is gone)
#   a statement that is only ten_ctx_use(...);                                 -> deleted (nothing is installed)
# Not handled: `x = ten_ctx_use(...)` (the compiler names it: delete it and the call that put x back), function
# pointers to these functions, and ten_process_ctx() (gone too: make a context with ten_ctx_new and lower its limits,
# as tests/fuzz/fuzz_common.h's fuzz_limits does; $ATTN_MEMORY_LIMIT reaches every new context by itself).
# Idempotent: a call whose first argument already is a context (I->run.ten, anything ending in ->ten, .ten, ->ctx,
# ctx, c, tc, TC, ten_ctx_of(...), test_ctx()) is left alone, also on a line with other calls.

# 1. mark calls that already pass a context
s/\b(par_for|par_for_chunks|ten_sgemm|ten_sgemm_ld|ten_sgemm_tt|ten_sgemm_wants_blas|ten_sgemm_own|ten_own_gemm|ten_set_threads|par_set_threads|ten_set_blas_threshold|ten_set_attention_block|ten_set_own_gemm)\(( *(([A-Za-z_][A-Za-z0-9_]*(->|\.))*(c|ctx|tc|ten)|TC|ten_ctx_of\([^()]*\)|test_ctx\(\)) *[,)])/\1@CTX2D@(\2/g
# 2. add the context to the rest
s/\b(par_for|par_for_chunks|ten_sgemm|ten_sgemm_ld|ten_sgemm_tt|ten_sgemm_wants_blas|ten_sgemm_own|ten_own_gemm|ten_set_threads|par_set_threads|ten_set_blas_threshold|ten_set_attention_block|ten_set_own_gemm)\(/\1(I->run.ten, /g
s/\b(par_threads|ten_threads|ten_gemm_describe)\(\)/\1(I->run.ten)/g
s/@CTX2D@//g
# 3. the installed context
/^[ \t]*ten_ctx_use\([^;]*\);[ \t]*(\/\*.*\*\/)?[ \t]*$/d
s/\bten_ctx\(\)/I->run.ten/g

# tenctx-migrate.sed - issue 28 step 2b/2c for code written against the old tensor API (a branch merged after it):
#   sed -i -E -f scripts/tenctx-migrate.sed src/builtins/NEW.c
# Builtins make tensors and fail in their session's context, I->run.ten. Idempotent: a converted call (the _in
# names, a call that already has its context) is not matched again. Where I is not in scope the compiler says so:
# give the helper a `TenCtx *c` parameter (its callers pass I->run.ten), or use c->I->run.ten (ag_after.c's Call).
# In src/autograd use c->ten (AgContext *c) or n->ten (a backward's AgNode *n) for I->run.ten; in src/tensor a
# kernel fails on its input's context, ten_ctx_of(t). Delete this file once no branch needs it.
s/\bten_(new|new_uninit|scalar_[fdi]|full|arange|eye|linspace|rand|randn|uniform|normal|positional_encoding|norm_dim|broadcast_shape|cat|stack|einsum)\(/ten_\1_in(I->run.ten, /g
s/\bnpy_(load|parse)\(/npy_\1_in(I->run.ten, /g
s/\bten_fail\(/ten_fail_in(I->run.ten, /g
s/\bten_fail_interrupted\(\)/ten_fail_interrupted(I->run.ten)/g
s/\bten_error\(\)/ten_error(I->run.ten)/g
s/\bten_error_kind\(\)/ten_error_kind(I->run.ten)/g
s/\bnorm_dim64\(/norm_dim64_in(I->run.ten, /g
s/\bops_number_tensor\(/ops_number_tensor_in(I->run.ten, /g
s/\battn_positional_table\(/attn_positional_table_in(I->run.ten, /g
s/\battn_dropout\(/attn_dropout_in(I->run.ten, /g
s/\bag_retain_grad\(([^&])/ag_retain_grad(\&I->run.ag, \1/g
s/\bTEN_MAX_NUMEL\b/I->run.ten->limit_numel/g
s/\bten_default_float\b/I->run.ten->default_float/g

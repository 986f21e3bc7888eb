# argtensor-migrate.sed - the builtins' converted tensor arguments become ArgTensor holders (interp.h), each
# released once with arg_tensor_release after the builtin's last use of the tensor, in place of a Tensor *tmp the
# caller had to free after its last use of x (F.softplus read x after freeing it). Run once over
# src/builtins/torch_{math,more,index,functional,products}.c; the lines it leaves (casts into a holder, operands
# that take a Python number) were converted by hand in the same commit.
s/Tensor \*t1, \*t2, \*t3 = NULL, \*x = tensor_at(/ArgTensor t1 = {0}, t2 = {0}, t3 = {0}; Tensor *x = tensor_at(/
s/Tensor \*t1, \*t2, \*\([a-z]*\) = \(tensor_at\|arg_tensor\)(/ArgTensor t1 = {0}, t2 = {0}; Tensor *\1 = \2(/
s/Tensor \*t1, \*x = tensor_at(/ArgTensor t1; Tensor *x = tensor_at(/
s/Tensor \*tmp, \*x = input_tensor(/ArgTensor tmp; Tensor *x = input_tensor(/
s/Tensor \*t0, \*t1 = NULL, \*t2 = NULL, \*in = arg_tensor(/ArgTensor t0, t1 = {0}, t2 = {0}; Tensor *in = arg_tensor(/
s/if (\([a-z]*\)) ten_free(t2);/arg_tensor_release(\&t2);/
s/ten_free(\(t[0-3]\|tmp\));/arg_tensor_release(\&\1);/g
s/tensor_at(I, a, \(-\?[0-9]\), \("[a-z_]*"\), &/tensor_at(I, a, \1, \2, ARG_TENSOR, \&/g

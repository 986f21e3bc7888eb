# heap-migrate.sed - issue 28: the values of each interpreter live in its own heap (value.h's ValHeap, I->run.heap),
# for code written against the old value API (a branch merged after it):
#   sed -i -E -f scripts/heap-migrate.sed $(git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 'tests/unit/*.c' 'tests/fuzz/*.c' 'tests/fuzz/*.h')
# Every constructor takes the heap its value is made in as its first argument; this adds I->run.heap (a builtin's
# or the evaluator's interpreter). Where I is not in scope the compiler says so: pass the heap of a value the code
# holds (val_heap_of(v), or v->heap), of a dict (d->heap) or set (so->heap), or take a `ValHeap *heap` parameter;
# in a unit test or fuzz target the session's, S.I.run.heap. val_none() takes none (None is immortal).
#
# Handled (HEAP below is I->run.heap):
#   val_new(k), val_bool(b), val_int(i), val_float(f), val_str(s), val_strn(s, n), val_str_take(s),
#   val_str_take_n(s, n), val_str_take_chars(s, n, c), val_tuple(n), val_list(n), val_seq_try(k, n),
#   val_size(shape, nd), val_named_tuple(t), val_tensor(t), val_tensor_ag(t, m), val_dtype(d), val_range(a, b, c),
#   val_builtin(b), val_method(self, fn), val_bound(self, f, k), val_object(cls), val_module(name),
#   val_account_bytes(delta)                              -> HEAP added first
#   val_dict(), pyset_new(), val_live_bytes(), val_collect_cycles(), val_containers_since_collect()  -> (HEAP)
#   val_incref(&val_ellipsis_singleton) -> val_ellipsis(); val_incref(&val_not_implemented) -> val_notimplemented()
#   The functions that make values with no interpreter at hand gained a heap parameter too: pyexc_new,
#   torch_return_pair, scope_open, builtins_constant, builtins_import, builtins_module_attr, builtins_type_of,
#   nn_module_attr. Their definitions and prototypes (a line that starts with the return type) get `ValHeap *heap`
#   first, their calls HEAP, and so do calls of lib()->constant/import/module_attr/type_of(...). Inside such a
#   definition the compiler then names I: write heap.
#   Not changed: class_new_builtin and class_object (attn's classes made once are immortal, value.h: no heap).
# Not handled: function pointers to the constructors; `extern Value val_...` declarations (they are const now).
# Idempotent: a call whose first argument already is a heap (anything ending in `heap`: heap, I->run.heap,
# v->heap, S.I.run.heap; `h` followed by a comma; val_heap_of(...)), or a prototype (ValHeap ..., void), is left
# alone, also on a line with other calls. Delete this file once no branch needs it.

# 0. definitions and prototypes of the API functions (return type at the start of the line)
s/^((static )?(const )?[A-Za-z_][A-Za-z0-9_]* \**)(pyexc_new|torch_return_pair|scope_open|builtins_constant|builtins_import|builtins_module_attr|builtins_type_of|nn_module_attr)\((const |struct )?(char|Value|Tensor|Scope|int|bool|ObjClass)\b/\1\4@HEAP@(ValHeap *heap, \5\6/
# 1. mark calls (and prototypes) that already pass a heap
s/\b(val_new|val_bool|val_int|val_float|val_str|val_strn|val_str_take|val_str_take_n|val_str_take_chars|val_tuple|val_list|val_seq_try|val_size|val_named_tuple|val_tensor|val_tensor_ag|val_dtype|val_range|val_builtin|val_method|val_bound|val_object|val_module|val_account_bytes|val_dict|pyset_new|val_live_bytes|val_collect_cycles|val_containers_since_collect)\(( *(([A-Za-z_][A-Za-z0-9_]*(->|\.))*heap *[,)]|h *,|val_heap_of\([^()]*\) *[,)]|ValHeap\b|const ValHeap\b|void\)))/\1@HEAP@(\2/g
# 2. the calls with no other argument
s/\b(val_dict|pyset_new|val_live_bytes|val_collect_cycles|val_containers_since_collect)\(\)/\1@HEAP@(I->run.heap)/g
# 3. add the heap to the rest
s/\b(val_new|val_bool|val_int|val_float|val_str|val_strn|val_str_take|val_str_take_n|val_str_take_chars|val_tuple|val_list|val_seq_try|val_size|val_named_tuple|val_tensor|val_tensor_ag|val_dtype|val_range|val_builtin|val_method|val_bound|val_object|val_module|val_account_bytes)\(/\1(I->run.heap, /g
s/\b(pyexc_new|torch_return_pair|scope_open|builtins_constant|builtins_import|builtins_module_attr|builtins_type_of|nn_module_attr)\(( *(([A-Za-z_][A-Za-z0-9_]*(->|\.))*heap *[,)]|val_heap_of\([^()]*\) *[,)]|ValHeap\b))/\1@HEAP@(\2/g
s/\b(pyexc_new|torch_return_pair|scope_open|builtins_constant|builtins_import|builtins_module_attr|builtins_type_of|nn_module_attr)\(/\1(I->run.heap, /g
s/\blib\(\)->(constant|import|module_attr|type_of)\(( *(([A-Za-z_][A-Za-z0-9_]*(->|\.))*heap *[,)]|val_heap_of\([^()]*\) *[,)]))/lib()->\1@HEAP@(\2/g
s/\blib\(\)->(constant|import|module_attr|type_of)\(/lib()->\1(I->run.heap, /g
s/@HEAP@//g
# 4. the immortal singletons
s/\bval_incref\( *&val_ellipsis_singleton *\)/val_ellipsis()/g
s/\bval_incref\( *&val_not_implemented *\)/val_notimplemented()/g

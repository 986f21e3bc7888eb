# i18n-migrate.sed - issue 28: TR() takes the language, which is each session's (I->run.lang), for code written
# against the old one-argument TR (a branch merged after it):
#   sed -i -E -f scripts/i18n-migrate.sed $(grep -rlE '\bTR\("' src/builtins src/lang src/session src/autograd)
# Idempotent: a converted call (TR(lang, "...")) no longer has a string right after "TR(", so it is not matched
# again. Builtins and everything that has the interpreter in scope say TR(I->run.lang, "..."); where I is not in
# scope the compiler says so: use what the code carries instead: S->sess.I.run.lang in the lesson runner (LessonRun
# *S), F->S.I.run.lang in a notebook kernel (Frames *F), P->lang in src/plot (Plot *P), and in src/util and the
# lesson layer's helpers that run outside a session a `I18nLang lang` parameter their callers pass (src/lesson and
# src/repl were converted by hand for that reason). A TR whose argument is not a string literal (TR(b->help)) is
# left for a hand edit, as is a call of the gone i18n_get() (the compiler names both).
# Delete this file once no branch needs it.
s/\bTR\("/TR(I->run.lang, "/g

# attn - build, run, test, install.   `make run` and `make test` install missing Debian packages first.
CC      ?= cc
PREFIX  ?= /usr/local
VERSION := 0.1.0
PKGS    := libedit cmocka openblas sleef
WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wno-unused-parameter -Wmissing-prototypes -Wstrict-prototypes
CFLAGS  ?= -O2 -g
ifeq ($(WERROR),1)
WARN    += -Werror
endif
ifeq ($(SANITIZE),1)
CFLAGS  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
PKG_CFLAGS = $(shell pkg-config --cflags libedit openblas sleef 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs libedit sleef 2>/dev/null) -lunistring -ldl -pthread
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread $(WARN) $(CFLAGS) -Iinclude -Isrc/tensor $(PKG_CFLAGS) \
             -DATTN_VERSION='"$(VERSION)"' -MMD -MP
LIBS    = $(PKG_LIBS) -lm

BUILD   := build$(if $(filter 1,$(SANITIZE)),-san)
LIB_SRC := $(wildcard src/util/*.c src/tensor/*.c src/autograd/*.c src/lang/*.c src/builtins/*.c src/plot/*.c src/session/*.c src/lesson/*.c) \
           $(filter-out src/repl/main.c,$(wildcard src/repl/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/repl/main.o
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all run test test-quick unit e2e deps clean install uninstall bench check-deps figures
all: attn

deps:
	@scripts/install-deps

# Installs missing packages only when a build dependency is not found.
check-deps:
	@pkg-config --exists $(PKGS) && command -v gnuplot >/dev/null 2>&1 && command -v /usr/bin/python3 >/dev/null 2>&1 \
	  && /usr/bin/python3 -c 'import numpy, PIL, ipykernel, nbclient, jupyter_kernel_test' 2>/dev/null && fc-list :lang=ja | grep -q . || scripts/install-deps

# ./attn is always the normal build: a SANITIZE=1 build stays in build-san/attn (tests run it from there).
attn: $(BUILD)/attn
ifneq ($(SANITIZE),1)
	@cp $< $@
endif

$(BUILD)/attn: $(LIB_OBJ) $(MAIN_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_FLAGS) $(SIMD_FLAGS) -c -o $@ $<

# The tensor kernels are built with -O3 (loops vectorised; IEEE arithmetic unchanged: no -ffast-math, no contraction).
ifneq ($(SANITIZE),1)
$(BUILD)/src/tensor/%.o: KERNEL_FLAGS = -O3
endif
# SLEEF's vector functions need their instruction sets at compile time: only these two files get them, and
# vecmath.c calls them only on a CPU that has them (no contraction into FMAs: the digits stay PyTorch's).
ifneq (,$(findstring x86_64,$(shell $(CC) -dumpmachine)))
$(BUILD)/src/tensor/vecmath_avx2.o: SIMD_FLAGS = -mavx2 -mfma -ffp-contract=off
$(BUILD)/src/tensor/vecmath_avx512.o: SIMD_FLAGS = -mavx512f -mfma -ffp-contract=off
endif

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS) -lcmocka

run: check-deps attn
	./attn

# make test TESTS='torch_kernels|nn_layers' runs the stages whose name matches (tests/run-all --list names them);
# make test-quick leaves out the walks at a terminal and in a window (tmux, pty, Xvfb). tests/README.md says more.
test: check-deps $(BUILD)/attn $(UNIT_BIN)
	@ATTN=$(BUILD)/attn tests/run-all $(if $(TESTS),'$(TESTS)') $(UNIT_BIN)

test-quick: check-deps $(BUILD)/attn $(UNIT_BIN)
	@ATTN=$(BUILD)/attn tests/run-all --quick $(if $(TESTS),'$(TESTS)') $(UNIT_BIN)

# The book's figures (matplotlib, the book's d2l.plot/show_heatmaps) beside attn's (gnuplot), same data, into
# docs/figures/ and docs/figures.md. The PNGs are committed so the repository shows them; tests/ref/plot_render.py
# checks every figure is there.
figures: check-deps attn
	@/usr/bin/python3 scripts/figures.py ./attn

bench: check-deps
	@scripts/bench

# Installs the build the make variables name (build/attn, or build-san/attn under SANITIZE=1), and the Jupyter kernel
# 'attn' (the spec in share/jupyter/kernels/attn, the wrapper in share/attn/jupyter).
install: $(BUILD)/attn
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/attn/lessons
	install -m 755 $(BUILD)/attn $(DESTDIR)$(PREFIX)/bin/attn
	install -m 644 docs/attn.1 $(DESTDIR)$(PREFIX)/share/man/man1/attn.1
	install -m 644 lessons/*.md $(DESTDIR)$(PREFIX)/share/attn/lessons/
	@for l in ja zh; do install -d $(DESTDIR)$(PREFIX)/share/attn/lessons/$$l || exit 1; \
	  for f in lessons/$$l/*.md; do if [ -f "$$f" ]; then install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/attn/lessons/$$l/ || exit 1; fi; done; done
	install -d $(DESTDIR)$(PREFIX)/share/attn/jupyter/attn_kernel
	install -m 644 jupyter/attn_kernel/*.py $(DESTDIR)$(PREFIX)/share/attn/jupyter/attn_kernel/
	PYTHONPATH=jupyter /usr/bin/python3 -m attn_kernel.install --dest $(DESTDIR)$(PREFIX)/share/jupyter \
	  --attn $(PREFIX)/bin/attn --pythonpath $(PREFIX)/share/attn/jupyter

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/attn $(DESTDIR)$(PREFIX)/share/man/man1/attn.1
	rm -rf $(DESTDIR)$(PREFIX)/share/attn $(DESTDIR)$(PREFIX)/share/jupyter/kernels/attn

clean:
	rm -rf build build-san build-fuzz build-tsan build-arm64 attn

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d)

# Fuzzing with libFuzzer (clang, ASan, UBSan): each target runs FUZZ_TIME seconds from its committed seed corpus
# in tests/fuzz/corpus/NAME. A crash stops make with the input saved in build-fuzz/; add it to the seed corpus and
# a regression test once fixed.
FUZZ_TIME ?= 30
FUZZ_TARGETS := statements npy transcript lesson builtins autograd
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DATTN_NO_SIMD -pthread -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
              -Iinclude -Isrc/tensor $(PKG_CFLAGS) -DATTN_VERSION='"$(VERSION)"'
.PHONY: fuzz fuzz-build
fuzz-build:
	@mkdir -p build-fuzz
	@for t in $(FUZZ_TARGETS); do \
	  clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o build-fuzz/fuzz_$$t tests/fuzz/fuzz_$$t.c $(LIB_SRC) $(LIBS) || exit 1; \
	done
fuzz: check-deps fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  rm -rf build-fuzz/corpus-$$t && mkdir -p build-fuzz/corpus-$$t && cp tests/fuzz/corpus/$$t/* build-fuzz/corpus-$$t/; \
	  echo "== fuzz $$t for $(FUZZ_TIME) s"; \
	  (cd build-fuzz && ASAN_OPTIONS=detect_leaks=1 ./fuzz_$$t -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=2048 \
	     -max_len=4096 -print_final_stats=0 corpus-$$t > fuzz-$$t.log 2>&1); st=$$?; tail -3 build-fuzz/fuzz-$$t.log; \
	  if [ $$st -ne 0 ]; then echo "fuzz $$t failed (status $$st): see build-fuzz/fuzz-$$t.log"; exit 1; fi; \
	  if ls build-fuzz/crash-* build-fuzz/leak-* build-fuzz/timeout-* 2>/dev/null | grep -q .; then echo "fuzz $$t found a problem: see build-fuzz/"; exit 1; fi; \
	done

# arm64 from this x86-64 machine (scripts/cross-arm64): installs the cross compiler, qemu-user and the arm64 builds of
# the libraries (Debian multiarch, only what is missing), cross-compiles attn and the unit tests into build-arm64/, and
# runs under qemu-aarch64 the unit tests, `attn --check` over every transcript and lesson (en, ja, zh) and
# tests/ref/torch_kernels.py, two programs at a time (JOBS=N). The last line is 'N passed, N failed'.
# Measured on this kind of machine (2 cores shared with other builds, load average 7): install 39 s the first time
# (apt-get, 8 packages and their dependencies), 0 s after; build 69 s; run 998 s, of which test_determinism alone
# is 995 s while the other 10 unit tests (test_kernels 106 s, test_plot 108 s), the 84 transcripts and torch_kernels.py
# (108 s) share the other core; 17 min 47 s in all. Too long for every CI run.
.PHONY: cross-arm64
cross-arm64:
	@scripts/cross-arm64

# valgrind over the end-to-end transcripts and lessons: no leaks, no errors. Lesson 7 trains five models (about 3 s
# natively, over 15 min under valgrind's emulation): its code runs under ASan + UBSan in make test SANITIZE=1, and
# the same training paths run here in tests/e2e/optim.md, d2l-trainer.md, attention-grad.md and autograd*.md.
.PHONY: valgrind
valgrind: check-deps attn
	@command -v valgrind >/dev/null || ATTN_EXTRA_PKGS=valgrind scripts/install-deps
	@fail=0; for t in tests/e2e/*.md $$(ls lessons/[0-9]*.md | grep -v '^lessons/07-'); do \
	  if ATTN_PLOT=none valgrind -q --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
	       --error-exitcode=99 ./attn --check $$t > build/valgrind.log 2>&1; then echo "valgrind $$t: clean"; \
	  else echo "valgrind $$t: FAILED"; tail -30 build/valgrind.log; fail=1; fi; done; exit $$fail

# ThreadSanitizer over the kernel tests (the thread pool, the interrupt flag set from another thread, the fused
# attention, products split over threads), in build-tsan/. OpenBLAS is not instrumented: it runs one thread per call.
.PHONY: tsan
tsan: check-deps
	@$(MAKE) --no-print-directory BUILD=build-tsan CFLAGS="-O1 -g -fsanitize=thread" LDFLAGS="-fsanitize=thread" \
	  build-tsan/tests/test_kernels build-tsan/tests/test_determinism >/dev/null
	@for t in test_kernels test_determinism; do \
	  for n in 2 3; do ATTN_THREADS=$$n TSAN_OPTIONS="halt_on_error=1 exitcode=66" build-tsan/tests/$$t > build-tsan/$$t.log 2>&1 \
	    || { echo "tsan $$t ($$n threads) failed:"; tail -40 build-tsan/$$t.log; exit 1; }; \
	  echo "tsan $$t ($$n threads): clean"; done; done

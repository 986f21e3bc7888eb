#!/bin/sh
# tests/cli.sh ATTN - the command line as a user meets it: options, exit statuses, pipes and files,
# make install with the man page. Prints one line per check and 'N passed, N failed'.
ATTN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL cli: $1"; }
expect_eq() { if [ "$2" = "$3" ]; then ok; else bad "$1: got [$2], want [$3]"; fi; }
expect_has() { case "$2" in *"$3"*) ok ;; *) bad "$1: [$2] lacks [$3]" ;; esac; }

expect_eq "--version" "$("$ATTN" --version)" "attn 0.1.0"
expect_has "--help names -c" "$("$ATTN" --help)" "attn -c STATEMENTS"
wide=$("$ATTN" --help | awk 'length($0) > 80')
expect_has "--help fits 80 columns (its lines were up to 93 wide)" "[$wide]" "[]"
# help plot and the lesson list (every lesson started, in each language) fit an 80-column terminal: no line wider
# than 79 display columns (help plot was 101 wide, the list 84 with "started")
cols() { /usr/bin/python3 -c 'import sys, unicodedata
print(max([sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l) for l in sys.stdin.read().split("\n")]))'; }
w=$(printf 'help plot\n' | "$ATTN" -q | cols)
expect_eq "help plot fits 80 columns: $w" "$((w <= 79))" "1"
mkdir -p "$T/state/attn"
for k in 01-self-attention 02-cnn-rnn-self-attention 03-positional-encoding 04-absolute-position 05-relative-position 06-exercises-and-after 07-order-learned; do
    echo "$k 1 1" >>"$T/state/attn/progress"
done
for l in en_US ja_JP zh_CN; do
    w=$(XDG_STATE_HOME="$T/state" LANG=C.UTF-8 LC_ALL= LC_MESSAGES=$l.UTF-8 "$ATTN" lesson | grep -v '^(' | tail -n +2 | cols)
    expect_eq "attn lesson ($l, lessons started) fits 80 columns: $w" "$((w <= 79 && w > 40))" "1"
done
# attn notebook N: the notebook on standard output only; a missing or unknown lesson is a usage error
(cd "$T" && "$ATTN" notebook 1 >"$T/nb.ipynb" 2>"$T/err"); expect_eq "notebook 1 exits 0" "$?" "0"
expect_eq "notebook 1 writes no file" "$(cd "$T" && ls | grep -v -e '^nb.ipynb$' -e '^err$' -e '^state$')" ""
expect_eq "notebook 1 is nbformat 4 on the attn kernel" \
    "$(/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["nbformat"], d["metadata"]["kernelspec"]["name"])' "$T/nb.ipynb")" "4 attn"
"$ATTN" notebook >/dev/null 2>"$T/err"; expect_eq "notebook without N exits 2" "$?" "2"
expect_has "notebook without N says how" "$(cat "$T/err")" "attn notebook N > lessonN.ipynb"
out=$("$ATTN" notebook 99 2>"$T/err"); expect_eq "notebook 99 exits 2" "$?" "2"
expect_eq "notebook 99 writes nothing on stdout" "$out" ""
expect_has "notebook 99 names it" "$(cat "$T/err")" "no lesson '99'"
"$ATTN" --bogus >/dev/null 2>"$T/err"; expect_eq "unknown option exits 2" "$?" "2"
expect_has "unknown option message" "$(cat "$T/err")" "unknown option '--bogus'"
expect_eq "-c prints a value" "$("$ATTN" -c 'torch.tensor([3, 2])')" "tensor([3, 2])"
"$ATTN" -c 'x = 1' ; expect_eq "-c success exits 0" "$?" "0"
"$ATTN" -c 'y = undefined_name' 2>/dev/null; expect_eq "-c failure exits 1" "$?" "1"
# a script (attn -c, a file, a pipe) stops at its first error with exit status 1, as Python's: python3 running the
# same lines says what to expect
PY=/usr/bin/python3
stop='a = 1
print(a)
b = zz
print("not reached", a)'
want=$($PY -c "$stop" 2>/dev/null); want_rc=$?
out=$("$ATTN" -c "$stop" 2>"$T/err"); rc=$?
expect_eq "-c stops at the first error, as python3 -c" "$out" "$want"
expect_eq "-c: python3's exit status after an error" "$rc" "$want_rc"
expect_has "error names line and column" "$(cat "$T/err")" "-c:3:5: error: name 'zz' is not defined"
printf '%s\n' "$stop" > "$T/stop.py"
out=$("$ATTN" "$T/stop.py" 2>/dev/null); rc=$?
expect_eq "a file stops at the first error, as python3 FILE" "$out" "$($PY "$T/stop.py" 2>/dev/null)"
expect_eq "a file: python3's exit status after an error" "$rc" "$want_rc"
out=$("$ATTN" < "$T/stop.py" 2>/dev/null); rc=$?
expect_eq "a pipe stops at the first error, as python3 < FILE" "$out" "$($PY < "$T/stop.py" 2>/dev/null)"
expect_eq "a pipe: python3's exit status after an error" "$rc" "$want_rc"
printf 'print(1)\nprint(2 +)\nprint(3)\n' > "$T/syntax.py"
out=$("$ATTN" "$T/syntax.py" 2>"$T/err"); rc=$?
expect_eq "a syntax error anywhere in a file: nothing runs, as python3" "$out" "$($PY "$T/syntax.py" 2>/dev/null)"
expect_eq "a syntax error in a file: python3's exit status" "$rc" "$want_rc"
expect_has "the syntax error is reported with its place" "$(cat "$T/err")" "syntax.py:2:"
out=$("$ATTN" -c 'print(1)
for i in range(2)
    print(i)' 2>/dev/null); expect_eq "a syntax error in -c: nothing runs, as python3 -c" "$out" "$($PY -c 'print(1)
for i in range(2)
    print(i)' 2>/dev/null)"
printf 'def f(x):\n    return 1 / x\n\nm = map(f, [1, 0])\nprint("made")\nfor y in m:\n    print(y)\nprint("not reached")\n' > "$T/lazy.py"
expect_eq "map's function fails where its items are consumed, as in python3" "$("$ATTN" "$T/lazy.py" 2>/dev/null)" "$($PY "$T/lazy.py" 2>/dev/null)"
expect_has "the traceback names the consuming line" "$("$ATTN" "$T/lazy.py" 2>&1 >/dev/null)" "lazy.py:6:1: error: division by zero"
# dir() at the top of a script: the names it defined and imported, as python3's dir() (less its __dunder__ names)
printf 'x = 1\ndef g():\n    pass\nclass K:\n    pass\nimport torch\nfrom torch import nn\nimport math\nprint([n for n in dir() if not n.startswith("__")])\n' > "$T/dir.py"
expect_eq "dir() lists what the script defined, as python3's" "$("$ATTN" "$T/dir.py")" "$($PY "$T/dir.py")"
# torch.range works as PyTorch's and, as PyTorch does, warns once (on stderr) that it is deprecated
out=$("$ATTN" -c 'torch.range(1, 3)
torch.range(0, 1, 0.5)' 2>"$T/err"); expect_eq "torch.range includes its end" "$out" "tensor([1., 2., 3.])
tensor([0.0000, 0.5000, 1.0000])"
expect_has "torch.range says it is deprecated" "$(cat "$T/err")" "warning: torch.range is deprecated"
expect_eq "torch.range warns once" "$(grep -c 'torch.range is deprecated' "$T/err")" "1"
# F.mse_loss of different sizes warns as PyTorch words it (sizes as torch.Size([2, 1]); attn showed torch.Size((2, 1))),
# on stderr after what was printed before it, every time
out=$("$ATTN" -c 'print("before")
F.mse_loss(torch.zeros(2, 1), torch.zeros(2))
F.mse_loss(torch.zeros(3), torch.zeros(3, 1))' 2>&1)
expect_eq "mse_loss warns of different sizes as PyTorch does" "$out" "before
warning: Using a target size (torch.Size([2])) that is different to the input size (torch.Size([2, 1])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.
tensor(0.)
warning: Using a target size (torch.Size([3, 1])) that is different to the input size (torch.Size([3])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.
tensor(0.)"
expect_has "help torch.range is torch's, not Python's range" "$("$ATTN" -c 'help torch.range')" "torch.range(start, end, step=1, *, dtype=None"
# a pipe: no prompt, no escape codes, output only
out=$(printf 'x = torch.ones(2)\nx * 3\n' | "$ATTN"); expect_eq "pipe has no prompts" "$out" "tensor([3., 3.])"
printf 'for i in range(2):\n    print(i)\n\nprint("done")\n' > "$T/s.py"
expect_eq "file with a block" "$("$ATTN" "$T/s.py")" "0
1
done"
printf 'print(1)\nprint(2 +)\n' > "$T/bad.py"
"$ATTN" "$T/bad.py" >/dev/null 2>"$T/err"; expect_eq "file with an error exits 1" "$?" "1"
expect_has "file error has file:line:col" "$(cat "$T/err")" "bad.py:2:"
"$ATTN" "$T/missing.py" 2>/dev/null; expect_eq "missing file exits 2" "$?" "2"
# malformed input of every kind never crashes (exit status 0 or 1, never a signal)
for s in '(' ')' '[[[[' ']' 'x[' 'f(,)' '"unterminated' "'''" '1 +* 2' 'for' 'def' 'lambda' '@' '$' '\x00' \
         'torch.zeros(-1)' 'torch.ones((2,3))[5]' 'x = [1]*1000000000' '"%d" % "a"' 'f"{"' 'f"{1!x}"' \
         'torch.arange(0, 1, 0)' '1 if 2' 'a, b = 1' '*a = 1' 'import os' 'del 3' 'P[...,...]' '((((((((((1))))))))))' \
         'torch.tensor([[1],[2,3]])' 'torch.zeros((2,2)) @ 1' 'torch.softmax(1, dim=5)' 'break' 'return 1'; do
    "$ATTN" -c "$s" >/dev/null 2>&1
    rc=$?
    if [ $rc -gt 1 ]; then bad "input [$s] ended with status $rc"; else ok; fi
done
# inputs that fuzzing once broke (tests/fuzz/corpus/*/regress-*): each ends with status 0 or 1 within 10 s
for f in tests/fuzz/corpus/statements/regress-*; do
    [ -f "$f" ] || continue
    timeout 10 "$ATTN" -c "$(cat "$f")" >/dev/null 2>&1
    rc=$?
    if [ $rc -gt 1 ]; then bad "fuzz regression $f ended with status $rc"; else ok; fi
done
for f in tests/fuzz/corpus/npy/regress-*; do
    [ -f "$f" ] || continue
    cp "$f" "$T/r.npy"
    out=$(cd "$T" && timeout 10 "$ATTN" -c 'x = load("r.npy")' 2>&1)
    rc=$?
    if [ $rc -gt 1 ]; then bad "fuzz regression $f ended with status $rc"; else ok; fi
    case "$out" in *"r.npy:"*) ok ;; *) bad "fuzz regression $f: no message naming the file ($out)" ;; esac
done
# at the memory limit even a 0-d tensor (x + 1 makes one of the 1) is refused with a message, never a NULL write;
# each in a script of its own (a script stops at its first error)
for s in 'y = x + 1' 'x[0] = True' 'x.add(1, alpha=2)' 'x.mean(dim=0)'; do
    out=$(ATTN_MEMORY_LIMIT=1M "$ATTN" -c "x = torch.zeros(262144)
$s
print('not reached')" 2>&1); rc=$?
    expect_has "0-d tensors at the memory limit: $s has a message" "$out" "out of tensor memory: the tensors alive now take 1.00 MiB"
    expect_eq "0-d tensors at the memory limit: $s stops the script with status 1" "$rc" "1"
done
expect_eq "0-d tensors at the memory limit: exit status 1" "$rc" "1"
ATTN_MEMORY_LIMIT=lots "$ATTN" -c '1' 2>"$T/err"; expect_eq "a bad ATTN_MEMORY_LIMIT exits 2" "$?" "2"
expect_has "a bad ATTN_MEMORY_LIMIT says how to write it" "$(cat "$T/err")" "write it like 512M or 2G"
# quit() in a transcript ends it quietly (it printed "error: __quit__" once)
printf '```attn\nattn> print(1)\n1\nattn> quit()\nattn> print(2)\n```\n' > "$T/quit.md"
out=$("$ATTN" --replay "$T/quit.md" 2>&1)
expect_eq "quit() ends a replayed transcript without an error" "$out" 'attn> print(1)
1
attn> quit()
attn> print(2)'
# a SANITIZE=1 build stays in build-san/: ./attn is never replaced by the sanitizer binary
plan=$(make -n SANITIZE=1 attn 2>/dev/null)
case "$plan" in *"cp build-san/attn attn"*) bad "make SANITIZE=1 attn would copy the sanitizer build over ./attn" ;; *) ok ;; esac
case "$(make -n test SANITIZE=1 2>/dev/null)" in *"ATTN=build-san/attn"*) ok ;; *) bad "make test SANITIZE=1 runs build-san/attn" ;; esac
# no test, script or make target stops processes by name: a teacher's own gnuplot windows (and other helpers'
# runs) must survive `make test` (tests/window.sh once ended with pkill -f)
byname=$(grep -nE '(^|[^A-Za-z_])(pkill|killall)([^A-Za-z_]|$)' tests/*.sh tests/*.py tests/ref/*.py tests/run-all Makefile scripts/* .ci/* 2>/dev/null | grep -v -e 'no process is killed by name' -e '^tests/cli.sh:')
if [ -z "$byname" ]; then ok; else bad "processes stopped by name: $byname"; fi
# make install PREFIX=... with the man page
make -s install PREFIX="$T/prefix" >/dev/null 2>&1
if [ -x "$T/prefix/bin/attn" ] && [ -f "$T/prefix/share/man/man1/attn.1" ]; then ok; else bad "make install PREFIX"; fi
if command -v man >/dev/null 2>&1; then
    MANPAGER=cat man -l "$T/prefix/share/man/man1/attn.1" 2>/dev/null | grep -q "attn -c" && ok || bad "man page renders"
fi
# the installed attn finds the Japanese and Chinese lessons beside the English ones
out=$(cd "$T" && env -u ATTN_LESSONS XDG_STATE_HOME="$T/st" "$T/prefix/bin/attn" lesson --lang ja 2>&1)
case "$out" in *"  1  自己注意 "*) ok ;; *) bad "installed attn lesson --lang ja lists Japanese titles: $out" ;; esac
# help on a method of a Python value explains that method, not a torch function of the same name
expect_eq "help({1}.add) is the set's add" "$("$ATTN" -c 'help({1}.add)')" "s.add(x, /)
  Puts x in the set."
expect_has "help([].append)" "$("$ATTN" -c 'help([].append)' 2>&1)" "L.append(object, /)"
expect_has "help(X.add) is still torch.add" "$("$ATTN" -c 'help(torch.ones(2).add)' 2>&1)" "torch.add(input, other, *, alpha=1)"
# a method added to d2l.Trainer (@d2l.add_to_class) lasts for the session that added it: the next transcript of one
# --check run does not see it (its function belonged to the first one's interpreter)
printf '# a\n\n```attn\nattn> d2l.Trainer.foo = 1\nattn> d2l.Trainer.foo\n1\n```\n' > "$T/added-a.md"
printf '# b\n\n```attn\nattn> hasattr(d2l.Trainer, "foo")\nFalse\n```\n' > "$T/added-b.md"
expect_has "d2l.Trainer's additions end with their session" "$("$ATTN" --check "$T/added-a.md" "$T/added-b.md" 2>&1)" "added-b.md: 1 steps ok"
# a script shows its top-level bare expressions (README: as at the prompt), but not those inside a loop, which
# Python's prompt shows and a script never does; the prompt itself (transcripts) shows them (python-more.md)
mkdir -p "$T/py" && printf 'for i in range(2): i * 7\n3 + 4\n' > "$T/py/loop.py"
expect_eq "attn FILE: a loop's bare expression shows nothing" "$("$ATTN" "$T/py/loop.py")" "7"
expect_eq "attn -c: a loop's bare expression shows nothing" "$("$ATTN" -c 'for i in range(2): i * 7')" ""
expect_eq "a pipe: a loop's bare expression shows nothing" "$(printf 'for i in range(2): i * 7\n' | "$ATTN")" ""
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

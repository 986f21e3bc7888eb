#!/bin/sh
# tests/lessons.sh ATTN - guided sessions as a student and a teacher drive them through a pipe, progress files,
# and malformed lessons. One line per failure, then 'N passed, N failed'.
ATTN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export XDG_STATE_HOME="$T/state"
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL lessons: $1"; }
has() { case "$2" in *"$3"*) ok ;; *) bad "$1: output lacks [$3]" ;; esac; }
eq() { [ "$2" = "$3" ] && ok || bad "$1: got [$2], expected [$3]"; }
lacks() { case "$2" in *"$3"*) bad "$1: output has [$3]" ;; *) ok ;; esac; }

# a student: runs step 1 with Enter, answers wrong, asks for a hint, answers right, quits
out=$(printf '\n\n\nscores = torch.bmm(X.transpose(1, 2), X) / math.sqrt(3)\nscores = X * 2\nhint\nscores = X @ X.transpose(1, 2) / 3 ** 0.5\nquit\n' | "$ATTN" lesson 1 2>&1)
has "enter runs the shown statement" "$out" "torch.Size([1, 4, 3])"
has "the wrong: line's explanation" "$out" "Not yet: transposed: Xᵀ X compares the 3 features, not the 4 tokens; use X Xᵀ."
has "wrong shape named" "$out" "Not yet: scores is a 1×4×3 tensor, expected a 1×4×4 tensor."
has "hint ladder" "$out" "Hint 1 of 2: torch.bmm multiplies"
has "right answer" "$out" "Right."
has "progress saved at quit" "$out" "Progress saved"
has "...and the command that resumes it" "$out" "Progress saved: attn lesson 1 resumes here."
prog=$(cat "$XDG_STATE_HOME/attn/progress" 2>/dev/null)
has "progress file" "$prog" "01-self-attention 1 1"
# resuming: starts at step 2, with X defined again from step 1
out=$(printf 'scores = X.shape\nquit\n' | "$ATTN" lesson 1 2>&1)
has "resume message" "$out" "resuming at step 2 of 8"
has "earlier variables replayed on resume" "$out" "scores is torch.Size([1, 4, 3]), expected a 1×4×4 tensor"
# the list shows progress
out=$("$ATTN" lesson 2>&1)
has "lesson list" "$out" "  1  Self-attention"
has "lesson list progress" "$out" "1/8 steps started"
# a question grades only answers: looking around runs as at the prompt (output shown), is not counted, brings no hint
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf '\n\n\nscores = X @ X.transpose(1, 2) / 3 ** 0.5\n\n\n\n\n\nweights[0, 3]\nprint("row", weights[0, 3].shape)\nw3 = weights[0, 3]\nw3.sum()\nweights[0, 3].sum()\nweights[0, 3].argmax()\nw3.max()\nquit\n' | "$ATTN" lesson 1 2>&1)
has "exploring shows the value" "$out" "tensor([0.0974, 0.1638, 0.2755, 0.4632])"
has "print runs in a question" "$out" "row torch.Size([4])"
has "a value of another kind is not graded" "$out" "(not graded: the answer is a single number, and this is a tensor of 4 numbers)"
has "a wrong number shows the student's value" "$out" "Not yet: your answer is 1.0."
has "the usual mistake (the index, not the weight) gets its explanation" "$out" "Not yet: that is the index of that key; the question asks for its weight: max"
has "one reminder after repeated misses" "$out" "(stuck? type hint)"
n=$(printf '%s\n' "$out" | grep -c "stuck? type hint")
[ "$n" = 1 ] && ok || bad "the hint reminder is shown once (seen $n times)"
lacks "no hint unless asked" "$out" "Hint 1 of"
n=$(printf '%s\n' "$out" | grep -c "^Not yet")
[ "$n" = 3 ] && ok || bad "only answers are graded: 3 misses expected, $n seen"
has "the right answer after exploring" "$out" "Right."
# an answer typed as a list or tuple of numbers is graded as the tensor it stands for, in every lesson: the numbers
# are computed by Python from the questions' formulas, independently of attn
PY=/usr/bin/python3
uv=$($PY -c 'import math; w = 1 / 10000 ** (4 / 32); print([-math.sin(3 * w), math.cos(3 * w)])')
vu=$($PY -c 'import math; w = 1 / 10000 ** (4 / 32); print((math.cos(3 * w), -math.sin(3 * w)))')
out=$(printf 'jump derivation
%s
[1, 2, 3]
[0.5]
%s
quit
' "$vu" "$uv" | "$ATTN" lesson 5 2>&1)
has "a tuple of wrong values is a check side by side, not graded" "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "(not graded: a tuple of values side by side, such as a check of your work; the answer is a tensor of 2 numbers"
lacks "...and does not give the answer's value away (-sin(3 omega) = -0.8126, by Python above)" "$out" "expected -0.8126"
has "a list of the wrong length is not graded" "$out" "(not graded: the answer is a tensor of 2 numbers, and this is a list of 3 items)"
has "a list of one number is 'a list of 1 item'" "$out" "(not graded: the answer is a tensor of 2 numbers, and this is a list of 1 item)"
has "lesson 5 step 3: [u, v] as a list of numbers is right" "$out" "Right."
bits=$($PY -c 'print([(i // 4) % 2 for i in range(8)])')
periods=$($PY -c 'import math; print([2 * math.pi * 10000 ** (j / 32) for j in range(0, 32, 2)])')
out=$(printf '
%s
periods = [1.0, 2.0]
periods = %s
periods[:6]
quit
' "$bits" "$periods" | "$ATTN" lesson 4 2>&1)
n=$(printf '%s\n' "$out" | grep -c "^Right\.")
[ "$n" = 2 ] && ok || bad "lesson 4: a list of ints for an int tensor and periods = [16 floats] are right (seen $n Right.)"
has "a named answer of the wrong length: what it is" "$out" "Not yet: periods is [1.0, 2.0], expected a tensor of 16 numbers."
has "after a list answer, the name holds the lesson's tensor (its printout in the lesson file)" "$out" "tensor([  6.2832,  11.1733,  19.8692,  35.3329,  62.8319, 111.7326])"
# a wrong: line with an explanation is what the student reads when their answer equals it
mkdir -p "$T/why"
printf '# T\n## A\n```attn\nattn> x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\n```\n```question\nName the transpose of x xt.\nanswer: xt = x.T\nwrong: xt = x -> that is x itself: transpose it\n```\n' > "$T/why/01-why.md"
out=$(printf '\nxt = x\nxt = x + 1\nxt = x.T\nquit\n' | ATTN_LESSONS="$T/why" "$ATTN" lesson 1 2>&1)
has "wrong: explanation shown" "$out" "Not yet: that is x itself: transpose it."
has "position as row and column" "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "at [0, 0] (row 0, column 0) it holds 2.0, expected 1.0."
out=$("$ATTN" --check "$T/why/01-why.md" 2>&1)
has "a lesson with wrong: explanations passes --check" "$out" "steps and questions ok"
# a statement of several lines is shown as typed at the prompt: its block after the continuation prompt "  ...> "
mkdir -p "$T/block"
printf '# T\n## A\n```attn\nattn> def twice(x):\n  ...>     return 2 * x\nattn> twice(21)\n42\n```\n' > "$T/block/01-block.md"
out=$(printf '\n\nquit\n' | ATTN_LESSONS="$T/block" "$ATTN" lesson 1 2>&1)
has "a block is echoed with the continuation prompt" "$out" "attn> def twice(x):
  ...>     return 2 * x"
has "the block ran" "$out" "42"
out=$(printf '\n\nquit\n' | ATTN_LESSONS="$T/block" "$ATTN" teach 1 2>&1)
has "teach: a block is shown with the continuation prompt" "$out" "attn> def twice(x):
  ...>     return 2 * x"
# skip, back, jump, steps, solution
out=$(printf 'steps\njump masking\nback\nnext\njump weights\nskip\nskip\nskip\nskip\nsolution\nquit\n' | "$ATTN" lesson 1 2>&1)
has "steps lists ids" "$out" "masking"
has "jump to a step" "$out" "Step 4 of 8: Masking with valid_lens"
has "back one step" "$out" "Step 3 of 8: Weights"
has "skip runs the statement" "$out" "tensor([[1.0000, 1.0000, 1.0000, 1.0000]])"
has "solution shows the answer" "$out" "The answer: weights[0, 3].max()"
out=$(printf 'jump tokens\n\nrestart\nquit\n' | "$ATTN" lesson 1 2>&1)
n=$(printf '%s\n' "$out" | grep -c "Step 1 of 8: Tokens as a tensor")
[ "$n" = 2 ] && ok || bad "restart shows the step again from its start (seen $n times)"
out=$(printf 'jump nowhere\nquit\n' | "$ATTN" lesson 1 2>&1)
has "unknown step" "$out" "no step 'nowhere'"
# a variable named like a command is code, not a command
out=$(printf 'hint = 5\nhint\nquit\n' | "$ATTN" lesson 4 2>&1)
has "a variable named hint is printed" "$out" "5"
# end of input in the middle of a lesson saves progress
rm -f "$XDG_STATE_HOME/attn/progress"
printf '\n' | "$ATTN" lesson 4 >/dev/null 2>&1
prog=$(cat "$XDG_STATE_HOME/attn/progress" 2>/dev/null)
has "progress saved at end of input" "$prog" "04-absolute-position"
# a damaged progress file: a clear message, set aside, never a crash
printf 'garbage\x01\x02 not a line\n' > "$XDG_STATE_HOME/attn/progress"
out=$(printf 'quit\n' | "$ATTN" lesson 1 2>&1); rc=$?
has "damaged progress reported" "$out" "could not be read were moved to $XDG_STATE_HOME/attn/progress.damaged-1"
[ $rc -le 1 ] && ok || bad "damaged progress exit status $rc"
[ -f "$XDG_STATE_HOME/attn/progress.damaged-1" ] && ok || bad "damaged progress kept aside"
# a state directory that cannot be written (under a regular file: fails for root too): an error, the lesson goes on
echo "not a directory" > "$T/afile"
out=$(printf '\nskip\nquit\n' | XDG_STATE_HOME="$T/afile/state" "$ATTN" lesson 4 2>&1); rc=$?
has "unwritable progress reported" "$out" "cannot save progress to $T/afile/state/attn/progress: Not a directory"
has "the lesson went on after the error" "$out" "Step 2 of "
has "no false claim that progress was saved" "$out" "Progress could not be saved"
[ $rc -le 1 ] && ok || bad "unwritable progress exit status $rc"
# malformed lessons: file and line
mkdir -p "$T/lessons" && L="$T/lessons"
printf '# T\n## A\n```attn\nattn> 1\n' > "$L/01-open.md"
printf 'no title\n' > "$L/02-notitle.md"
printf '# T\n## A {#a}\n## B {#a}\n' > "$L/03-dup.md"
printf '# T\n## A\n```question\nWhat?\nhint: x\n```\n' > "$L/04-noanswer.md"
printf '# T\n```attn\nattn> 1\n```\n' > "$L/05-nostep.md"
out=$("$ATTN" --check "$L/01-open.md" 2>&1); has "unclosed block" "$out" "01-open.md:3: the \`\`\` block is not closed"
out=$("$ATTN" --check "$L/02-notitle.md" 2>&1); has "no title" "$out" "02-notitle.md:1: a lesson starts with a '# Title' line"
out=$("$ATTN" --check "$L/03-dup.md" 2>&1); has "duplicate id" "$out" "03-dup.md:3: step id 'a' is used twice"
out=$("$ATTN" --check "$L/04-noanswer.md" 2>&1); has "question without answer" "$out" "04-noanswer.md:3: the question has no 'answer:' line"
out=$("$ATTN" --check "$L/05-nostep.md" 2>&1); has "block before a step" "$out" "05-nostep.md:2:"
out=$(ATTN_LESSONS="$L" "$ATTN" lesson 2>&1); has "a broken lesson in the list" "$out" "cannot read"
# a lesson whose wrong answer is accepted fails the soundness check
printf '# T\n## A\n```question\nTwo?\nanswer: 2\nwrong: 2.0\n```\n' > "$L/06-unsound.md"
out=$("$ATTN" --check "$L/06-unsound.md" 2>&1); rc=$?
has "unsound lesson reported" "$out" "the wrong answer '2.0' is accepted"
[ $rc = 1 ] && ok || bad "unsound lesson exit status $rc"
# the soundness check: trivial answers, names the question uses before the lesson defines them, wrong: lines that do
# not run or are not answers
printf '# T\n## A\n```attn\nattn> x = torch.tensor([1.0, 2.0])\n```\n```question\nHow far is x[1] - x[0] from 1? Type the difference.\nanswer: (x[1] - x[0]) - 1\n```\n' > "$L/07-trivial.md"
out=$("$ATTN" --check "$L/07-trivial.md" 2>&1); rc=$?
has "trivial 0 accepted is reported" "$out" "07-trivial.md:6: step 'a': the trivial answer '0' is accepted"
[ $rc = 1 ] && ok || bad "trivial answer lesson exit status $rc"
printf '# T\n## A\n```attn\nattn> x = torch.tensor([1.0, 2.0])\n```\n```question\nWhat is x?\nanswer: x\n```\n```question\nName y the absolute values of x.\nanswer: y = x.abs()\n```\n' > "$L/08-input.md"
out=$("$ATTN" --check "$L/08-input.md" 2>&1)
lacks "an answer that is exactly a trivial one is allowed" "$out" "the trivial answer 'x'"
has "an input returned unchanged is reported" "$out" "the trivial answer 'y = x' is accepted"
printf '# T\n## A\n```attn\nattn> x = 3\n```\n```question\nWith S = torch.zeros(2), what is S.sum() + x?\nanswer: torch.zeros(2).sum() + x\nwrong: S.sum()\nwrong: z = 4\n```\n' > "$L/09-names.md"
out=$("$ATTN" --check "$L/09-names.md" 2>&1)
has "an undefined name in a question is reported" "$out" "09-names.md:6: step 'a': the question's text uses 'S', which the lesson has not defined at this point"
has "a wrong: line that does not run is reported" "$out" "the wrong answer 'S.sum()' does not run: name 'S' is not defined"
has "a wrong: line that is not an answer is reported" "$out" "the wrong answer 'z = 4' is not taken as an answer"
printf '# T\n## A\n```question\nTwo?\nanswer: a = 2\nanswer: 2\n```\n' > "$L/10-mixed.md"
out=$("$ATTN" --check "$L/10-mixed.md" 2>&1)
has "answer: lines of two forms are refused" "$out" "10-mixed.md:3: the answer: lines must all assign the same name, or all be expressions"
# a lesson statement whose output differs is reported by the one checker, as a transcript's step is (a unified diff
# hunk: the lesson's report once lacked the @@ line)
printf '# T\n## A\n```attn\nattn> 1 + 1\n3\n```\n' > "$L/11-differs.md"
out=$("$ATTN" --check "$L/11-differs.md" 2>&1); rc=$?
has "a lesson's difference as a transcript's" "$out" "--- $L/11-differs.md:5 (expected)
+++ $L/11-differs.md:5 (actual)
@@ -5,1 +5,1 @@
 attn> 1 + 1
-3
+2
$L/11-differs.md: 1 of 1 steps and questions differ"
[ $rc = 1 ] && ok || bad "a differing lesson's exit status $rc"
# teaching mode: Enter runs, detours run, the recording replays with --check
out=$(printf '\nx = 6 * 7\nprint(x)\n\n\nquit\n' | "$ATTN" teach 4 --record "$T/rec.md" 2>&1)
has "teacher detour runs" "$out" "42"
has "teacher question reveals the answer" "$out" "tensor([0, 0, 0, 0, 1, 1, 1, 1])"
out=$("$ATTN" --check "$T/rec.md" 2>&1); rc=$?
has "recording replays" "$out" "steps ok"
[ $rc = 0 ] && ok || bad "recording --check exit status $rc"
# a recording that cannot be written is said once (a quit saved it again and said it again), and the class goes on
out=$(printf '\n\n\n\nquit\n' | "$ATTN" teach 4 --record "$T/no-such-dir/rec.md" 2>&1)
n=$(printf '%s\n' "$out" | grep -c "the recording: cannot write")
[ "$n" = 1 ] && ok || bad "an unwritable recording was reported $n times, not once"
# what timeit's repeats print is thrown away: the class sees none of it, and neither does its recording (the
# recording sat under timeit's capture and once kept the 3 hidden 7s)
printf 'timeit("print(7)", repeat=1, number=3) > 0\nquit\n' | "$ATTN" teach 1 --record "$T/timeit.md" >/dev/null 2>&1
rec=$(cat "$T/timeit.md")
has "recording: the timeit detour" "$rec" "attn> timeit(\"print(7)\", repeat=1, number=3) > 0
True"
lacks "recording: timeit's hidden output" "$rec" "
7
"
# a class that jumps around: ahead, a detour, back to a question (a wrong suggestion, a hint, the answer shown), ahead
# again; the recording reads as the class went and replays with --check
printf 'jump weights\n\n\nw = weights.sum()\nback\n0\nhint\n\njump masking\n\nquit\n' | "$ATTN" teach 1 --record "$T/class.md" >/dev/null 2>&1
rec=$(cat "$T/class.md" 2>/dev/null)
has "recording: title" "$rec" "# Recorded class: Lesson 1"
has "recording: step headings as the class went" "$(printf '%s' "$rec" | grep '^## Step' | tr '\n' '|')" "## Step 3 of 8: Weights: a softmax over the keys|## Step 2 of 8: Scores: every query against every key|## Step 4 of 8: Masking with valid_lens|"
has "recording: the detour" "$rec" "attn> w = weights.sum()"
has "recording: the question as prose" "$rec" "Question: Compute the scores"
has "recording: the hint" "$rec" "Hint 1 of 2:"
has "recording: the answer shown in class" "$rec" "answer: scores = torch.bmm(X, X.transpose(1, 2)) / math.sqrt(3)"
has "recording: the rebuild after a jump" "$rec" "(The lesson's statements before step 3 run again"
out=$("$ATTN" --check "$T/class.md" 2>&1); rc=$?
has "a class that jumped around replays" "$out" "steps ok"
[ $rc = 0 ] && ok || bad "jumping class --check exit status $rc"
# the replay compares: a recording whose output was changed fails
sed 's/^tensor(\[\[1\.0000, 1\.0000, 1\.0000, 1\.0000\]\])$/tensor([[1.0000, 1.0000, 1.0000, 2.0000]])/' "$T/class.md" > "$T/class-bad.md"
cmp -s "$T/class.md" "$T/class-bad.md" && bad "the tampering test changed nothing"
"$ATTN" --check "$T/class-bad.md" >/dev/null 2>&1 && bad "a changed recording passes --check" || ok
# --check checks the questions' answers too (issue 26: all three passed as "53 steps ok"): an answer changed to
# min() (the weight of query 3 on the key it attends to least, not most: softmax of the scores says 0.4632 is the
# largest), the output the class saw changed to another number (0.5632: --check allows a unit in the last digit), an answer that raises NameError
(i=0; while [ $i -lt 120 ]; do echo; i=$((i + 1)); done; echo quit) | "$ATTN" teach 1 --record "$T/answers.md" >/dev/null 2>&1
out=$(cd / && "$ATTN" --check "$T/answers.md" 2>&1)
has "a class's answers replay" "$out" "steps ok"
sed 's/^answer: weights\[0, 3\]\.max()$/answer: weights[0, 3].min()/' "$T/answers.md" > "$T/answers-1.md"
sed '/^answer: weights\[0, 3\]\.max()$/,/^tensor(0\.4632)$/s/^tensor(0\.4632)$/tensor(0.5632)/' "$T/answers.md" > "$T/answers-2.md"
sed 's/^answer: weights\[0, 3\]\.max()$/answer: weightz[0, 3].max()/' "$T/answers.md" > "$T/answers-3.md"
for k in 1 2 3; do
    cmp -s "$T/answers.md" "$T/answers-$k.md" && bad "answer tampering $k changed nothing"
    out=$("$ATTN" --check "$T/answers-$k.md" 2>&1) && bad "a recording with tampered answer $k passes --check: $out" || ok
done
has "--check shows the changed answer's output" "$("$ATTN" --check "$T/answers-1.md" 2>&1)" "+tensor(0.0974)"
has "--check names the answer that fails" "$("$ATTN" --check "$T/answers-3.md" 2>&1)" "name 'weightz' is not defined"
out=$("$ATTN" lesson 99 2>&1); rc=$?
has "unknown lesson" "$out" "no lesson '99'"
[ $rc = 2 ] && ok || bad "unknown lesson exit status $rc"
# lesson commands that need more, or have nowhere to go, say so (a bare jump fell through to Python: "name 'jump' is
# not defined"; back on step 1 showed step 1 again without a word)
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf 'jump\nback\nquit\n' | "$ATTN" lesson 2 2>&1)
has "a bare jump asks for a step" "$out" "(jump needs a step: jump 3, or jump and a step's id; type steps to list them)"
lacks "...and is not run as Python" "$out" "name 'jump' is not defined"
has "back on the first step says so" "$out" "(this is the first step: it starts again)"
# a finished lesson says it starts again; the list's section column lines up after the longest title
printf '01-self-attention 0 8\n' > "$XDG_STATE_HOME/attn/progress"
out=$(printf 'quit\n' | "$ATTN" lesson 1 2>&1)
has "a finished lesson says it starts again at step 1" "$out" "(You finished this lesson before: it starts again at step 1"
out=$("$ATTN" lesson 2>&1)
cols=$(echo "$out" | grep '^  [0-9]  ' | awk '{ print index($0, "§") }' | sort -u | wc -l)
[ "$cols" = 1 ] && ok || bad "the section column starts at one column on every line of the lesson list: $out"
# a class goes on after its last step: detours still run and are recorded, until quit; the next lesson is taught
rm -f "$XDG_STATE_HOME/attn/progress"
out=$( (i=0; while [ $i -lt 80 ]; do echo; i=$((i + 1)); done; echo '1 + 41'; echo quit) | ATTN_PLOT=summary "$ATTN" teach 5 --record "$T/c5.md" 2>&1)
has "teach: the next lesson is taught with attn teach" "$out" "Next: attn teach 6"
has "teach: after the last step, what the teacher types still runs" "$out" "42"
has "teach: ...and says how the class ends" "$out" "(the lesson is over: what you type still runs; quit ends the class)"
has "teach: the detour after the end is recorded" "$(cat "$T/c5.md")" "attn> 1 + 41"
out=$("$ATTN" --check "$T/c5.md" 2>&1)
has "teach: that recording replays" "$out" "steps ok"

# a class that saves its figures (plot_target('files'), --allow-write .) and jumps: the jump's silent re-runs draw
# nothing and take no figure number (the class's first figure is figure 1, saved as figure-1.svg, not figure-2), the
# recording says so, and --check replays it (with the teacher's savefig and save) from another folder and from its own
# without writing a file there or beside it (it was refused elsewhere, and beside it "never replaces a file")
mkdir -p "$T/cls" "$T/elsewhere"
(cd "$T/cls" && (echo "plot_target('files')"; echo 'jump sinusoid'; i=0; while [ $i -lt 12 ]; do echo; i=$((i + 1)); done; echo "savefig('mine.svg')"; echo "save('p.npy', P)"; echo quit) | ATTN_PLOT=summary "$ATTN" teach 3 --allow-write . --record class3.md >/dev/null 2>&1)
eq "files class: the figures it saved are the ones it saw, numbered as it saw them (and its savefig, save)" "$(cd "$T/cls" && ls)" "class3.md
figure-1.svg
mine.svg
p.npy"
has "files class: the recording numbers the Col 6-9 figure 1" "$(cat "$T/cls/class3.md")" "<figure 1: 4 lines of 60 points; xlabel 'Row (position)'"
out=$(cd "$T/elsewhere" && "$ATTN" --check "$T/cls/class3.md" 2>&1)
has "files class: the recording replays from another folder" "$out" " steps ok"
eq "files class: ...and writes no file there" "$(ls "$T/elsewhere")" ""
out=$(cd "$T/cls" && "$ATTN" --check class3.md 2>&1)
has "files class: the recording replays in its own folder" "$out" " steps ok"
eq "files class: ...and writes no file beside it" "$(cd "$T/cls" && ls)" "class3.md
figure-1.svg
mine.svg
p.npy"

# the book's function typed without its docstring and comments is the book's function: the step goes on with it;
# a version of one's own (a bug: X[mask] for X[~mask]) is named as such, and Enter runs the book's over it
rm -f "$XDG_STATE_HOME/attn/progress"
mine='def masked_softmax(X, valid_lens):
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    else:
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)
'
out=$(printf 'jump build-masked-softmax\n\n\n\nskip\n%s\nquit\n' "$mine" | "$ATTN" lesson 1 2>&1)
lacks "the book's def without docstring and comments is not a detour" "$out" "(a detour"
has "...the step goes on to its next statement" "$out" "torch.equal(masked_softmax(S.clone(), torch.tensor([2, 3]))"
buggy=$(printf '%s' "$mine" | sed 's/X\[~mask\]/X[mask]/')
out=$(printf 'jump build-masked-softmax\n\n\n\nskip\n%s\n\nquit\n' "$buggy" | "$ATTN" lesson 1 2>&1)
has "a different def of the same name is named as the student's own, with the line that differs" "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "(your masked_softmax is not the book's: your line 5, \`X[mask] = value\`, differs from the book's \`X[~mask] = value\`"
# the Japanese and Chinese editions write d2l.arange where the English one writes torch.arange: the book's too
ja=$(printf '%s' "$mine" | sed 's/torch\.arange((maxlen)/d2l.arange((maxlen)/')
out=$(printf 'jump build-masked-softmax\n\n\n\nskip\n%s\n\nquit\n' "$ja" | "$ATTN" lesson 1 2>&1)
lacks "the ja edition's d2l.arange is the book's" "$out" "(your masked_softmax is not the book's"
has "...the step goes on" "$out" "torch.equal(masked_softmax(S.clone(), torch.tensor([2, 3]))"

# a lesson statement that prints something else than the page (a detour set d = 16 before omega is computed) says
# why; run in order, no statement of any lesson does (the walks of walk_lessons.py check the same without the note)
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf '\nd = 16\n\n\n\n\n\n\nquit\n' | ATTN_PLOT=summary "$ATTN" lesson 5 2>&1)
has "a statement printing other than the lesson's says why" "$out" "(this printed something else than the lesson shows"
rm -f "$XDG_STATE_HOME/attn/progress"
out=$( (i=0; while [ $i -lt 60 ]; do echo; i=$((i + 1)); done; echo quit) | ATTN_PLOT=summary "$ATTN" lesson 5 2>&1)
lacks "...and Enter through the lesson never gets that note" "$out" "(this printed something else"

# an answer given a name (k = ...) is graded when it is right; a wrong one is a note, not a miss (it was silence)
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf 'n = 64\nk = 3 * 100 * 512 ** 2\nquit\n' | "$ATTN" lesson 2 2>&1)
has "an assignment holding a wrong value gets a note that says how to answer" "$out" "(not graded: n is set; an answer is a value or an expression typed alone"
lacks "...and is not counted as a wrong answer" "$out" "Not yet: your answer is 64"
has "an assignment holding the right value is right (3 x 100 x 512^2, worked by hand: 78643200)" "$out" "Right."

# questions enforce their own goal (issue 26): what an answer reads, a mask's dtype, a tensor overwritten in place,
# the right value under another name, a detour that changed the lesson's variable
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf 'jump weights\n\n\n\n\nweights[0, 3].max()\nY[0, 2]\nweights[0, 2] @ X[0]\nquit\n' | "$ATTN" lesson 1 2>&1)
has "y_2 read off Y is refused, with why" "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "Not yet: work it out from the formula, without Y"
n=$(printf '%s\n' "$out" | grep -c "^Right\.")
[ "$n" = 2 ] && ok || bad "Y[0, 2] is not right, weights[0, 2] @ X[0] is (seen $n Right.)"
# forbid: follows a name back to where the student computed it: a = Y[0, 2] then a, a chain through b and c, a
# slice assigned into a copy, a for loop over Y, a def that reads Y, are all "without Y" answers that read Y; a name
# computed without Y (and one the lesson's own statement set again) is not refused
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf 'jump weights\n\n\n\n\nweights[0, 3].max()\na = Y[0, 2]\na\nb = a * 1\nc = b\nc\nd = X[0, 0].clone()\nd[:] = Y[0, 2]\nd\nfor r in Y[0]: e = r\ne\ndef f(): return Y[0, 2]\nf()\ng = weights[0, 2] @ X[0]\ng\nquit\n' | "$ATTN" lesson 1 2>&1)
n=$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ' | grep -o "Not yet: work it out from the formula, without Y" | wc -l)
[ "$n" = 5 ] && ok || bad "answers that read Y through a, c, d, e and f() are refused (seen $n of 5): $out"
n=$(printf '%s\n' "$out" | grep -c "^Right\.")
[ "$n" = 2 ] && ok || bad "...and g, computed from the formula, is right (seen $n Right.)"
out=$(printf 'jump weights\n\n\n\n\n3\n0.25\nweights[0, 3].max()\nquit\n' | "$ATTN" lesson 1 2>&1)
n=$(printf '%s\n' "$out" | grep -c "^Right\.")
[ "$n" = 1 ] && ok || bad "row 3: guessing the last key (3) or uniform weights does not pass (seen $n Right.)"
w=$($PY -c 'import math; s = [sum(a * b for a, b in zip([0.9, 1.0, 1.1], [k * 0.3 + f * 0.1 for f in range(3)])) / math.sqrt(3) for k in range(4)]; e = [math.exp(x) for x in s]; print("%.4f" % (max(e) / sum(e)))')
has "row 3: the weight asked for is the softmax computed by Python ($w)" "$out" "tensor($w)"
out=$(printf 'jump masking\n\n\n\n\n\n\n\n\nd2l.masked_softmax(S, torch.tensor([1, 4]))\nS[0, 0]\nd2l.masked_softmax(S.clone(), torch.tensor([1, 4]))\nquit\n' | "$ATTN" lesson 1 2>&1)
has "masked_softmax(S, ...) without clone: told S was overwritten" "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "Not yet: that changed S in place"
has "...and S is put back (row 0 of S is 0, 0.25, 0.5, 0.75)" "$out" "tensor([0.0000, 0.2500, 0.5000, 0.7500])"
out=$(printf 'jump build-masked-softmax\n\n\n\nmask = (torch.arange(4)[None, :] < valid_len[:, None]).float()\nmask = (torch.arange(4)[None, :] < valid_len[:, None]) * 1\nmask = torch.arange(4)[None, :] < valid_len[:, None]\nquit\n' | "$ATTN" lesson 1 2>&1)
n=$(printf '%s\n' "$out" | grep -c "^Not yet: the right values, but as numbers, not booleans")
[ "$n" = 2 ] && ok || bad "a float or int mask is refused, saying the book's X[~mask] needs bool (seen $n)"
has "...and the bool mask is right" "$out" "Right."
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf '\n\n\ns = torch.bmm(X, X.transpose(1, 2)) / math.sqrt(3)\nquit\n' | "$ATTN" lesson 1 2>&1)
has "the right value under another name: name it scores" "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "(not graded: s holds the right value, but the question asks you to name it scores: type scores = s)"
out=$(printf 'jump weights\n\n\n\n\nweights = weights * 2\nweights[0, 3].max()\nquit\n' | "$ATTN" lesson 1 2>&1)
has "the answer on a variable a detour changed: type restart" "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "worked on weights as a detour changed it since the question was asked: type restart"
out=$(printf 'jump formula\n\n\n\n\nangles = i / torch.pow(10000, two_j / d)\n\n\n\n\nP_mine[0, 7, 5]\nmath.cos(7 / 10000 ** (2 / 32))\nmath.cos(7 / 10000 ** (6 / 32))\nmath.cos(7 / 10000 ** (10 / 32))\nmath.cos(7 / 10000 ** (4 / 32))\nquit\n' | "$ATTN" lesson 3 2>&1)
flat=$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')
has "p_7,5 read off P_mine is refused" "$flat" "Not yet: work it out from the formula with math; P_mine is what you compare with afterwards"
has "PE slip: j for 2j" "$flat" "Not yet: the exponent is 2j/d, and column 5 = 2j + 1 is in pair j = 2"
has "PE slip: j counted from 1" "$flat" "Not yet: pairs count from j = 0"
has "PE slip: twice the column" "$flat" "Not yet: 10 is twice the column"
out=$(printf 'jump smooth\n\n\n\n\ndist[0]\nmath.sqrt(sum(2 - 2 * math.cos(1 / 10000 ** (2 * j / 32)) for j in range(16)))\nquit\n' | "$ATTN" lesson 4 2>&1)
has "lesson 4: dist[0] is refused" "$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')" "Not yet: compute it from the formula alone"
has "...the formula is right" "$out" "Right."
# lesson 3: attention is permutation equivariant, then X + P sees order (issue 26): the shuffled outputs are predicted
# from Y0, not computed again; lesson 5: P_m . P_(m+3) from the formula, not read off G
out=$(printf 'jump order-sensitive\n\n\n\n\n\nYs0 = attention(Xs3, Xs3, Xs3)\nYs0 = torch.softmax(Xs3 @ Xs3.transpose(1, 2) / math.sqrt(2), dim=-1) @ Xs3\nYs0 = Y0\nYs0 = Y0[:, order]\n\n\n\n\n\n\n\n\nquit\n' | "$ATTN" lesson 3 2>&1)
flat=$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')
n=$(printf '%s' "$flat" | grep -o "Not yet: work it out from Y0 and order" | wc -l)
[ "$n" = 2 ] && ok || bad "lesson 3: running attention on Xs3 (by name or by hand) is refused twice (seen $n)"
has "lesson 3: Y0 unshuffled gets its explanation" "$flat" "Not yet: the tokens moved, and their outputs move with them"
has "lesson 3: Y0[:, order] is right" "$flat" "Right."
has "lesson 3: with P the shuffled outputs are not the rows of Y shuffled" "$out" "attn> torch.allclose(Yps, Yp[:, order])
False"
out=$(printf 'jump dot-products\n\n\n\n\nG[0, 3]\n(P[0] * P[3]).sum()\n16 * math.cos(3)\nsum(math.cos(3 / 10000 ** (2 * j / 32)) for j in range(16))\nquit\n' | "$ATTN" lesson 5 2>&1)
flat=$(printf '%s' "$out" | tr '\n' ' ' | tr -s ' ')
n=$(printf '%s' "$flat" | grep -o "Not yet: work it out from the formula with math; G holds it" | wc -l)
[ "$n" = 2 ] && ok || bad "lesson 5: P_m . P_(m+3) read off G or P is refused twice (seen $n)"
has "lesson 5: cos(3) for every pair gets its explanation" "$flat" "Not yet: each pair turns at its own ω_j"
has "lesson 5: the sum over the 16 pairs is right" "$flat" "Right."
has "lesson 5: P Pᵀ is constant along its diagonals" "$out" "attn> toeplitz_error(G) < 1e-5
True"

# a forbid: line that the model answer breaks fails --check
printf '# T\n## A\n```attn\nattn> x = torch.tensor([1.0, 2.0])\n```\n```question\nWhat is 2 * x[1], without x?\nanswer: 2 * x[1]\nforbid: x\n```\n' > "$L/11-forbid.md"
out=$("$ATTN" --check "$L/11-forbid.md" 2>&1)
has "a model answer reading a forbidden name is reported" "$out" "the model answer '2 * x[1]' fails its own check: that reads x"
printf '# T\n## A\n```question\nWhat?\nanswer: 2\nforbid: 3x\n```\n' > "$L/12-forbid.md"
out=$("$ATTN" --check "$L/12-forbid.md" 2>&1)
has "a malformed forbid: line, file and line" "$out" "12-forbid.md:6: forbid: takes names separated by commas"

# no lesson binds a name the book's code uses for a module (lesson 2 had F = receptive_field(...), and F is
# torch.nn.functional in the book's code)
n=$(grep -l -E '^attn> (F|nn|torch|d2l|math|np) = ' lessons/*.md lessons/*/*.md | wc -l)
[ "$n" = 0 ] && ok || bad "a lesson assigns F, nn, torch, d2l, math or np ($n files)"

# after "Lesson complete" a student stays at the prompt with the lesson's variables (omega = 1/10000^(4/32) =
# 0.31622776601683794, computed by Python), and the hints name the command for where they are
omega=$($PY -c 'print(1 / 10000 ** (4 / 32))')
rm -f "$XDG_STATE_HOME/attn/progress"
out=$( (i=0; while [ $i -lt 45 ]; do echo skip; i=$((i + 1)); done; echo "print('after', omega)") | ATTN_PLOT=summary "$ATTN" lesson 5 2>&1)
has "from the shell: Next: attn lesson 6" "$out" "Next: attn lesson 6"
has "from the shell: the lesson's variables after the end" "$out" "after $omega"
rm -f "$XDG_STATE_HOME/attn/progress"
out=$( (echo 'lesson 5'; i=0; while [ $i -lt 45 ]; do echo skip; i=$((i + 1)); done; echo "print('after', omega)"; echo quit; echo '6 * 7') | ATTN_PLOT=summary "$ATTN" 2>&1)
has "inside the REPL: Next: lesson 6" "$out" "Next: lesson 6
"
lacks "...not the shell's command" "$out" "Next: attn lesson 6"
has "inside the REPL: the lesson's variables after the end" "$out" "after $omega"
has "...and quit goes back to the REPL" "$out" "42"
# after "Lesson complete", back and jump go back into the lesson (they said "the lesson is over"): inside the REPL a
# student's back shows the last step again, jump 2 the second, with the lesson's variables rebuilt (omega again)
rm -f "$XDG_STATE_HOME/attn/progress"
out=$( (echo 'lesson 5'; i=0; while [ $i -lt 45 ]; do echo skip; i=$((i + 1)); done; echo back; echo 'jump 2'; echo "print('again', omega)"; echo quit; echo '6 * 7') | ATTN_PLOT=summary "$ATTN" 2>&1)
after=${out#*Lesson complete}
has "after the end, back shows the last step again" "$after" "== Step 7 of 7: Dot products of positions  [dot-products] =="
has "after the end, jump 2 goes to step 2" "${after#*Step 7 of 7}" "== Step 2 of 7: "
has "...with the lesson's variables rebuilt" "$after" "again $omega"
lacks "...and neither says the lesson is over" "$after" "the lesson's variables are still defined: what you type runs as at the prompt; quit goes back"
out=$( (i=0; while [ $i -lt 120 ]; do echo; i=$((i + 1)); done; echo 'jump 7'; i=0; while [ $i -lt 20 ]; do echo; i=$((i + 1)); done; echo quit) | ATTN_PLOT=summary "$ATTN" teach 5 2>&1)
after=${out#*Lesson complete}
has "teach: after the end, jump 7 shows step 7 again" "$after" "== Step 7 of 7: Dot products of positions  [dot-products] =="
has "teach: ...and the class goes on from there" "${after#*Step 7 of 7}" "Lesson complete"
out=$(printf 'quit\n' | "$ATTN" -c 'lesson 1' 2>&1; printf 'lesson 1\nquit\n' | "$ATTN" 2>&1)
has "inside the REPL, progress says lesson 1 resumes" "$out" "Progress saved: lesson 1 resumes here."
# a lesson started at the REPL runs in its own interpreter: it does not see what the REPL added to d2l's classes
# (@d2l.add_to_class, d2l.Module.flag = ...), as Python's interpreters each import their own d2l; the REPL keeps them
out=$(printf "@d2l.add_to_class(d2l.Trainer)\ndef fit_epoch(self):\n    return 'repl'\n\nd2l.Module.flag = 'repl flag'\nlesson 1\nprint('lesson sees', hasattr(d2l.Module, 'flag'), repr(d2l.Trainer.fit_epoch).startswith('<function fit_epoch'))\nquit\nprint('repl keeps', d2l.Module.flag, d2l.Trainer(max_epochs=1).fit_epoch())\n" | "$ATTN" 2>&1)
has "a lesson started at the REPL does not see the REPL's additions to d2l's classes" "$out" "lesson sees False False"
has "...and the REPL keeps them after the lesson" "$out" "repl keeps repl flag repl"
# a lesson started at the REPL keeps the REPL's torch.set_num_threads (process-wide in PyTorch; issue 28: the lesson's
# session went back to every core), and its own print options and default dtype (its output is the lesson's)
out=$(printf 'torch.set_num_threads(2)\ntorch.set_printoptions(precision=2)\ntorch.set_default_dtype(torch.float64)\nlesson 1\nprint("in", torch.get_num_threads(), torch.tensor(1/3), torch.get_default_dtype())\nquit\nprint("out", torch.get_num_threads(), torch.tensor(1/3))\n' | ATTN_THREADS=3 "$ATTN" 2>&1)
has "a lesson at the REPL keeps its set_num_threads, not its print options or dtype" "$out" "in 2 tensor(0.3333) torch.float32"
has "...and the REPL keeps its own after it" "$out" "out 2 tensor(0.33)"

# a Japanese class's recording has its step headings in Japanese, as the screen showed them (they were English)
rm -f "$XDG_STATE_HOME/attn/progress"
(i=0; while [ $i -lt 30 ]; do echo; i=$((i + 1)); done; echo quit) | ATTN_PLOT=summary "$ATTN" teach 5 --lang ja --record "$T/c5ja.md" > /dev/null 2>&1
has "a ja recording's headings are Japanese" "$(cat "$T/c5ja.md")" "## ステップ 1/7: "
has "...and rotation() spoke Japanese in it, as the class saw" "$(cat "$T/c5ja.md")" "delta = 3: R はどの組も delta*omega = 0.948683 rad 回転させます"
out=$("$ATTN" --check "$T/c5ja.md" 2>&1)
has "...and it replays" "$out" "steps ok"

# the chapter's tools speak the lesson's language (issue 26): a Japanese student's binary_vs_sinusoid in Japanese,
# and printed as the Japanese lesson shows it (the lesson self-check says nothing); the table's numbers as in English
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf 'jump side-by-side\n\nquit\n' | ATTN_LESSON_SELFCHECK=1 "$ATTN" lesson 4 --lang ja 2>&1)
has "lesson 4 --lang ja: binary_vs_sinusoid in Japanese" "$out" "最下位ビットは毎行、次のビットは 2 行ごと"
has "...its table as in English" "$out" "   2     010    0.9093 -0.4161  0.1987  0.9801  0.0200  0.9998  0.0020  1.0000"
lacks "...and as the Japanese lesson shows it" "$out" "self-check"
out=$(printf 'jump side-by-side\n\nquit\n' | LANG=zh_CN.UTF-8 ATTN_LESSON_SELFCHECK=1 "$ATTN" lesson 4 2>&1)
has "lesson 4 under LANG=zh_CN.UTF-8: binary_vs_sinusoid in Chinese" "$out" "最低位每行翻转一次"
lacks "...and as the Chinese lesson shows it" "$out" "self-check"
# an English lesson read in Japanese (no translation): the tool speaks Japanese, and that is not "something else"
mkdir -p "$T/entool"
printf '# T\n## A {#a}\n```attn\nattn> R = rotation(1, 0, n=4)\nomega_0 = 1/10000^(2*0/32) = 1 (§11.6.3.2)\ndelta = 1: R turns every pair by delta*omega = 1 rad\nR = [[cos δω, sin δω], [-sin δω, cos δω]] =\ntensor([[ 0.5403,  0.8415],\n        [-0.8415,  0.5403]])\nR @ (p[i,0], p[i,1]) against (p[i+1,0], p[i+1,1]) for i = 0..2:\n  largest difference 1.1e-16 in float64 (rounding: exact arithmetic gives 0),\n  6.0e-08 on the float32 table P of PositionalEncoding(32, 0).\nThe same R works at every position: it depends on delta and j, never on i.\n```\n' > "$T/entool/01-t.md"
out=$(printf '\n\nquit\n' | ATTN_LESSONS="$T/entool" ATTN_LESSON_SELFCHECK=1 "$ATTN" lesson 1 --lang ja 2>&1)
has "an English lesson in Japanese: rotation() speaks Japanese" "$out" "R はどの組も"
lacks "...not taken for a different output (self-check)" "$out" "self-check"
lacks "...nor shown as one" "$out" "この出力はレッスンに書かれたものと違います"
# replays run in the file's language, whatever the reader's: an English lesson and an English recording under
# LANG=ja_JP.UTF-8, a Japanese lesson under LANG=C.UTF-8
out=$(LANG=ja_JP.UTF-8 "$ATTN" --check lessons/05-relative-position.md 2>&1)
has "--check of an English lesson under LANG=ja_JP.UTF-8 (its rotation() in English)" "$out" "steps and questions ok"
out=$(LANG=C.UTF-8 "$ATTN" --check lessons/ja/05-relative-position.md 2>&1)
has "--check of a Japanese lesson under LANG=C.UTF-8 (its rotation() in Japanese)" "$out" "steps and questions ok"
rm -f "$XDG_STATE_HOME/attn/progress"
(i=0; while [ $i -lt 30 ]; do echo; i=$((i + 1)); done; echo quit) | ATTN_PLOT=summary "$ATTN" teach 5 --lang en --record "$T/c5en.md" > /dev/null 2>&1
out=$(LANG=ja_JP.UTF-8 "$ATTN" --check "$T/c5en.md" 2>&1)
has "an English recording replays under LANG=ja_JP.UTF-8" "$out" "steps ok"
lacks "...and has no language line" "$(cat "$T/c5en.md")" "<!-- lang:"

# lesson 7, a student: the shuffle question refuses the model itself (forbid) and explains the unshuffled answer;
# after the jump the earlier trainings are rebuilt, the share of trained positions is (8 - 2) / (16 - 2), and the
# extrapolation question explains the sinusoid's mistake; RoPE, the last step, keeps 16 and not 32, and its question
# counts offsets, not positions
rm -f "$XDG_STATE_HOME/attn/progress"
out=$(printf 'jump equivariant\n\n\n\nYs = model(X0[:, perm])\nYs = Y0\nYs = Y0[:, perm]\njump longer\n\n6 / 14\n\ntorch.tensor([True, False, True])\ntorch.tensor([False, False, True])\n\n\n\n\n\n\n\nn / 32\n(2 * n - 1) / 63\nquit\n' | ATTN_PLOT=summary "$ATTN" lesson 7 2>&1)
has "lesson 7: forbid: the model may not answer the shuffle question" "$out" "Not yet: work it out from Y0 and perm: without positions, shuffling the tokens"
has "lesson 7: the unshuffled outputs get their explanation" "$out" "Not yet: the tokens moved, and their outputs move with them: reorder the rows of"
has "lesson 7: after the jump, the models are trained again (offsets 1.0 on length 16)" "$out" ", 1.0]"
has "lesson 7: the sinusoid does not extrapolate" "$out" "Not yet: the sinusoid is defined everywhere, but the model trained on it fails"
has "lesson 7: RoPE keeps length 16, not 32 (Shaw's offsets keep both)" "$out" "[[True, True, True], [True, True, False]]"
has "lesson 7: the RoPE question explains a count of positions" "$out" "Not yet: count offsets j - i, negative and positive, not positions"
n=$(printf '%s\n' "$out" | grep -c "^Right")
[ "$n" = 4 ] && ok || bad "lesson 7: four questions right, $n seen"
has "lesson 7 is the last" "$out" "That was the last lesson."

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

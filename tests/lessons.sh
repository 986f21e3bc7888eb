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
lacks() { case "$2" in *"$3"*) bad "$1: output has [$3]" ;; *) ok ;; esac; }

# a student: runs step 1 with Enter, answers wrong, asks for a hint, answers right, quits
out=$(printf '\n\n\nscores = torch.bmm(X.transpose(1, 2), X) / math.sqrt(3)\nhint\nscores = X @ X.transpose(1, 2) / 3 ** 0.5\nquit\n' | "$ATTN" lesson 1 2>&1)
has "enter runs the shown statement" "$out" "torch.Size([1, 4, 3])"
has "wrong shape named" "$out" "Not yet: your scores are 1×3×3, expected 1×4×4."
has "hint ladder" "$out" "Hint 1 of 2: torch.bmm multiplies"
has "right answer" "$out" "Right."
has "progress saved at quit" "$out" "Progress saved"
prog=$(cat "$XDG_STATE_HOME/attn/progress" 2>/dev/null)
has "progress file" "$prog" "01-self-attention 1 1"
# resuming: starts at step 2, with X defined again from step 1
out=$(printf 'scores = X.shape\nquit\n' | "$ATTN" lesson 1 2>&1)
has "resume message" "$out" "resuming at step 2 of 6"
has "earlier variables replayed on resume" "$out" "your scores is a torch.Size, expected a tensor of shape 1×4×4"
# the list shows progress
out=$("$ATTN" lesson 2>&1)
has "lesson list" "$out" "Lesson 1: Self-attention"
has "lesson list progress" "$out" "1/6 steps started"
# skip, back, jump, steps, solution
out=$(printf 'steps\njump masking\nback\nnext\njump weights\nskip\nskip\nskip\nskip\nsolution\nquit\n' | "$ATTN" lesson 1 2>&1)
has "steps lists ids" "$out" "masking"
has "jump to a step" "$out" "Step 4 of 6: Masking with valid_lens"
has "back one step" "$out" "Step 3 of 6: Weights"
has "skip runs the statement" "$out" "tensor([[1.0000, 1.0000, 1.0000, 1.0000]])"
has "solution shows the answer" "$out" "The answer: weights[0, 3].argmax()"
out=$(printf 'jump tokens\n\nrestart\nquit\n' | "$ATTN" lesson 1 2>&1)
n=$(printf '%s\n' "$out" | grep -c "Step 1 of 6: Tokens as a tensor")
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
has "damaged progress reported" "$out" "was damaged"
[ $rc -le 1 ] && ok || bad "damaged progress exit status $rc"
[ -f "$XDG_STATE_HOME/attn/progress.damaged" ] && ok || bad "damaged progress kept aside"
# a state directory that cannot be written (under a regular file: fails for root too): an error, the lesson goes on
echo "not a directory" > "$T/afile"
out=$(printf '\nskip\nquit\n' | XDG_STATE_HOME="$T/afile/state" "$ATTN" lesson 4 2>&1); rc=$?
has "unwritable progress reported" "$out" "cannot save progress to $T/afile/state/attn/progress: Not a directory"
has "the lesson went on after the error" "$out" "Step 2 of 3"
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
# teaching mode: Enter runs, detours run, the recording replays with --check
out=$(printf '\nx = 6 * 7\nprint(x)\n\n\nquit\n' | "$ATTN" teach 4 --record "$T/rec.md" 2>&1)
has "teacher detour runs" "$out" "42"
has "teacher question reveals the answer" "$out" "tensor([0, 0, 0, 0, 1, 1, 1, 1])"
out=$("$ATTN" --check "$T/rec.md" 2>&1); rc=$?
has "recording replays" "$out" "steps ok"
[ $rc = 0 ] && ok || bad "recording --check exit status $rc"
out=$("$ATTN" lesson 99 2>&1); rc=$?
has "unknown lesson" "$out" "no lesson '99'"
[ $rc = 2 ] && ok || bad "unknown lesson exit status $rc"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

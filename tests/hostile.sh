#!/bin/sh
# tests/hostile.sh ATTN - lessons and transcripts from a stranger (issue 12): what they may write and where, text
# that would drive the terminal, blocks that try to break out of their fence. Everything runs in a temporary
# directory with its own XDG_STATE_HOME. One line per failure, then 'N passed, N failed'.
ATTN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 2
REPO=$(pwd)
pass=0
fail=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export XDG_STATE_HOME="$T/state" ATTN_PLOT=summary
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL hostile: $1"; }
has() { case "$2" in *"$3"*) ok ;; *) bad "$1: output lacks [$3]" ;; esac; }
lacks() { case "$2" in *"$3"*) bad "$1: output has [$3]" ;; *) ok ;; esac; }
eq() { if [ "$2" = "$3" ]; then ok; else bad "$1: got [$2], want [$3]"; fi; }

# ---- fences: an output line of ``` stays output (one reader for lessons and transcripts) ----
mkdir -p "$T/w" && cd "$T/w" || exit 2
printf '# fences\n\n```attn\nattn> print("```")\nattn> print("after")\nafter\n```\n' > fence.md
"$ATTN" --update fence.md > /dev/null 2>&1
eq "--update keeps a block whose output is a line of \`\`\`" "$("$ATTN" --check fence.md 2>&1 | tail -1)" "fence.md: 2 steps ok"
has "--update lengthened the fence" "$(cat fence.md)" '````attn'
eq "the updated file reads back as the same two steps" "$("$ATTN" --replay fence.md 2>&1)" 'attn> print("```")
```
attn> print("after")
after'
mkdir -p lessons
printf '# L\n\n## One {#one}\n\n````attn\nattn> print("```")\n```\nattn> 1 + 1\n2\n````\n' > lessons/fence.md
has "a lesson block with a \`\`\` output line checks" "$("$ATTN" --check lessons/fence.md 2>&1)" "2 steps and questions ok"

# ---- control characters and text-direction overrides are refused at load, with file:line:col ----
printf '# L\n\n## One {#one}\n\nLook: \033]52;c;ZXZpbA==\007 here\n\n```attn\nattn> 1\n1\n```\n' > osc52.md
out=$("$ATTN" lesson "$T/w/osc52.md" < /dev/null 2>&1); st=$?
has "OSC 52 in lesson prose is refused" "$out" "osc52.md:5:7: a control character (ESC)"
lacks "nothing of it reaches the terminal" "$out" "$(printf '\033]52')"
eq "a refused lesson exits 2" "$st" "2"
printf '# L\n\n## One {#one}\n\n```attn\nattn> x = 1\rattn> y = 2\n```\n' > cr.md
has "a carriage return that hides a statement is refused" "$("$ATTN" --check cr.md 2>&1)" "cr.md:6:12: a control character (CR)"
printf '```attn\nattn> s = "\342\200\256abc"\n```\n' > bidi.md
has "a bidi override in a transcript is refused" "$("$ATTN" --check bidi.md 2>&1)" "bidirectional text control (U+202E)"
printf '# L\r\n\r\n## One {#one}\r\n\r\n```attn\r\nattn> 1 + 1\r\n2\r\n```\r\n' > lessons/crlf.md
has "CRLF line ends are fine" "$("$ATTN" --check lessons/crlf.md 2>&1)" "1 steps and questions ok"

cd "$REPO" || exit 2
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

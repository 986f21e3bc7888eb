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

# ---- control characters a lesson or transcript makes at run time ("\x1b" in its code) are shown, never sent ----
# 17 ways for text to reach the terminal: print, an exception's message, __repr__ as a value and inside a list or a
# dict, help(s), a DCS sequence, the errors of save, load, int() and getattr, a hostile .npy header's dtype, C1
# (U+009B), DEL, chr(27) in an f-string, print's end=, a class of exception. Each marker Vnn (written \x56nn in the
# code, so that the echoed statement never matches) must come out as Vnn\x.. (Python's spelling), and no OSC, DCS,
# BEL, C1, DEL, colour or clear-screen sequence may come out raw.
mkdir -p "$T/esc" && cd "$T/esc" || exit 2
{ printf '\223NUMPY\001\000v\000'; printf '%-117s\n' "{'descr': 'V12$(printf '\033]0;pwn\007')', 'fortran_order': False, 'shape': (1,), }"; printf '\0\0\0\0'; } > evil.npy
cat > vec.md <<'LESSON'
# Vectors

## One {#one}

Each statement prints or raises text with control characters.

```attn
attn> class R:
  ...>     def __init__(self, s): self.s = s
  ...>     def __repr__(self): return self.s + "\x1b[31m"
attn> def s():
  ...>     "\x5606\x1b]0;title\x07"
attn> class E(Exception): pass
attn> print("\x5601\x1b]52;c;ZXZpbA==\x07")
attn> raise ValueError("\x5602\x1b[31m")
attn> R("\x5603")
attn> [R("\x5604")]
attn> {1: R("\x5605")}
attn> help(s)
attn> print("\x5607\x1bP1;2|x\x1b\\")
attn> save("\x5608\x1b[31m/x.npy", torch.ones(1))
attn> load("\x5609\x1b[31m.npy")
attn> int("\x5610\x1b[31m")
attn> getattr(1, "\x5611\x1b[31m")
attn> load("evil.npy")
attn> print("\x5613\u009b31m")
attn> print("\x5614\x7f")
attn> print(f"\x5615{chr(27)}[2J")
attn> print("\x5616", end="\x1b[2J\n")
attn> raise E("\x5617\x1b[2J")
```
LESSON
sed -n '/^```attn$/,/^```$/p' vec.md > vec-transcript.md
# vectors WHAT FILE: every marker escaped in FILE (the bytes attn wrote), no dangerous sequence raw
vectors() {
    for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17; do
        LC_ALL=C grep -aFq "V$i\\x" "$2" && ok || bad "$1: vector V$i is not shown as V$i\\x..: $(LC_ALL=C grep -a "V$i" "$2" | head -1 | od -c | head -2)"
    done
    for seq in '\033]' '\033P' '\007' '\302\233' '\177' '\033[31m' '\033[2J'; do
        LC_ALL=C grep -aFq "$(printf "$seq")" "$2" && bad "$1: a raw $seq reached the output" || ok
    done
}
"$ATTN" --replay vec.md > replay.out 2>&1
vectors "--replay of a lesson, to a pipe" replay.out
"$ATTN" --replay vec-transcript.md > replay-t.out 2>&1
vectors "--replay of a transcript, to a pipe" replay-t.out
"$ATTN" --check vec.md > check.out 2>&1
vectors "--check of a lesson (its diff)" check.out
"$ATTN" --check vec-transcript.md > check-t.out 2>&1
vectors "--check of a transcript (its diff)" check-t.out
cp vec-transcript.md upd.md && "$ATTN" --update upd.md > /dev/null 2>&1
vectors "--update: the rewritten transcript" upd.md
eq "...which checks clean against itself" "$("$ATTN" --check upd.md 2>&1 | tail -1)" "upd.md: 20 steps ok"
skips=$(i=0; while [ $i -lt 22 ]; do echo skip; i=$((i + 1)); done)
echo "$skips" | "$ATTN" lesson "$T/esc/vec.md" > lesson-pipe.out 2>&1
vectors "attn lesson, output to a pipe" lesson-pipe.out
if command -v script > /dev/null; then
    # at a real terminal the lesson's statements print straight to it (no capture): the same sink escapes them
    echo "$skips" | script -qec "'$ATTN' lesson '$T/esc/vec.md'" /dev/null > lesson-pty.out 2>&1
    vectors "attn lesson at a pty" lesson-pty.out
    echo "$skips" | script -qec "'$ATTN' teach '$T/esc/vec.md'" /dev/null > teach-pty.out 2>&1
    vectors "attn teach at a pty" teach-pty.out
else bad "script (util-linux) is missing: the pty checks did not run"; fi
# the student's own statements print what they say, as Python does: their colours colour
"$ATTN" -c 'print("\x1b[31mred\x1b[0m")' > own.out 2>&1
LC_ALL=C grep -aFq "$(printf '\033[31mred')" own.out && ok || bad "a student's own print of \\x1b[31m is escaped: $(od -c own.out | head -2)"

# ---- writes: only into the lesson's own folder (or --allow-write DIR), never over a file the run did not make, never
# from an answer check ----
mkdir -p "$T/outside" "$T/w2/lessons" && cd "$T/w2" || exit 2
echo "precious" > "$T/outside/victim.npy"
cat > lessons/evil.md <<'LESSON'
# Evil

## One {#one}

```attn
attn> X = torch.ones(2)
attn> save('lessons/inside.npy', X)
attn> save('cwd.npy', X)
```

```question
What is X.sum()?
answer: save('VICTIM', X) or X.sum()
```

## Two {#two}

```attn
attn> save('../outside/victim.npy', X)
attn> save('ABS', X)
attn> d2l.plot(torch.arange(3.), torch.arange(3.))
attn> savefig('ABSFIG')
```
LESSON
sed -i "s|VICTIM|$T/outside/victim.npy|; s|ABSFIG|$T/outside/fig.svg|; s|ABS|$T/outside/abs.npy|" lessons/evil.md
out=$(printf '\n\nskip\nskip\nskip\nskip\nskip\nskip\nquit\n' | "$ATTN" lesson "$T/w2/lessons/evil.md" 2>&1)
eq "an answer check never writes (the victim is untouched)" "$(cat "$T/outside/victim.npy")" "precious"
has "the student is told the answer check tried to write" "$(echo "$out" | tr '\n' ' ')" "may not write files while an answer is checked"
[ -f lessons/inside.npy ] && ok || bad "a lesson statement writes into its own folder"
[ ! -e cwd.npy ] && ok || bad "a lesson in lessons/ wrote into the directory attn started in"
has "...which is refused, naming the lesson's folder and --allow-write" "$out" "save('cwd.npy'): a lesson may write only into its own folder $T/w2/lessons, not to cwd.npy (to let it write into another folder, start attn with --allow-write DIR)"
has "../ is refused with the directory named" "$out" "save('../outside/victim.npy'): a lesson may write only into its own folder $T/w2/lessons"
has "an absolute path is refused" "$out" "save('$T/outside/abs.npy'): a lesson may write only into its own folder"
has "savefig outside is refused" "$out" "savefig('$T/outside/fig.svg'): a lesson may write only into its own folder"
[ ! -e "$T/outside/abs.npy" ] && [ ! -e "$T/outside/fig.svg" ] && ok || bad "files appeared outside"
eq "and nothing was written over the victim either" "$(cat "$T/outside/victim.npy")" "precious"
ln -s "$T/outside" link
printf '```attn\nattn> save("link/x.npy", torch.ones(1))\n```\n' > viasymlink.md
has "a symbolic link out of the directory is refused" "$("$ATTN" --replay viasymlink.md 2>&1)" "a transcript may write only into its own folder $T/w2"
[ ! -e "$T/outside/x.npy" ] && ok || bad "the symlink let a transcript write outside"
out=$("$ATTN" --allow-write "$T/outside" --replay viasymlink.md 2>&1)
[ -e "$T/outside/x.npy" ] && ok || bad "--allow-write DIR lets a transcript write there: $out"
"$ATTN" -c "save('$T/outside/mine.npy', torch.ones(1))" && [ -e "$T/outside/mine.npy" ] && ok || bad "the student's own statements write anywhere"
has "--allow-write needs a directory" "$("$ATTN" --allow-write "$T/nope" -c 1 2>&1)" "--allow-write $T/nope: not a directory"

# --update and teach --record run the file's code under the same rule (they once wrote wherever it said)
printf '```attn\nattn> save("../outside/upd.npy", torch.ones(1))\n```\n' > upd.md
"$ATTN" --update upd.md > /dev/null 2>&1
[ ! -e "$T/outside/upd.npy" ] && ok || bad "--update let a transcript write outside"
has "--update records the refusal in the transcript" "$(cat upd.md)" "a transcript may write only into its own folder $T/w2"
printf '# L\n\n## One {#one}\n\n```attn\nattn> save("../outside/rec.npy", torch.ones(1))\n```\n' > rec-lesson.md
out=$(printf '\n\nquit\n' | "$ATTN" teach "$T/w2/rec-lesson.md" --record rec.md 2>&1)
[ ! -e "$T/outside/rec.npy" ] && ok || bad "teach --record let a lesson write outside"
has "teach --record: the refusal is shown and recorded" "$(cat rec.md)" "a lesson may write only into its own folder $T/w2"
out=$("$ATTN" --check rec.md 2>&1)
has "the recorded class replays with the lesson's refusal (it said 'a transcript may' in the replay)" "$out" "rec.md: 3 steps ok"
# the issue's case: cd ~; attn lesson ~/Downloads/evil.md replaced ~/Documents/thesis.pdf and results.npy
mkdir -p "$T/home/Documents" "$T/home/Downloads" && cd "$T/home" || exit 2
echo "my thesis" > Documents/thesis.pdf; echo "my results" > Documents/results.npy; echo "old" > Downloads/mine.npy
cat > Downloads/evil.md <<'LESSON'
# Evil

## One {#one}

```attn
attn> X = torch.ones(2)
attn> d2l.plot(torch.arange(3.), torch.arange(3.))
attn> savefig("Documents/thesis.pdf")
attn> save("Documents/results.npy", X)
attn> save("Downloads/new.npy", X)
attn> save("Downloads/new.npy", X + 1)
attn> save("Downloads/mine.npy", X)
```
LESSON
skips=$(i=0; while [ $i -lt 10 ]; do echo skip; i=$((i + 1)); done)
out=$(echo "$skips" | "$ATTN" lesson "$T/home/Downloads/evil.md" 2>&1)
eq "a lesson in Downloads/ leaves Documents/thesis.pdf alone" "$(cat Documents/thesis.pdf)" "my thesis"
eq "...and Documents/results.npy" "$(cat Documents/results.npy)" "my results"
has "savefig outside the lesson's folder: what, where, and how to allow it" "$out" "savefig('Documents/thesis.pdf'): a lesson may write only into its own folder $T/home/Downloads, not to Documents/thesis.pdf (to let it write into another folder, start attn with --allow-write DIR)"
has "save outside the lesson's folder is refused the same way" "$out" "save('Documents/results.npy'): a lesson may write only into its own folder $T/home/Downloads"
[ -f Downloads/new.npy ] && ok || bad "a lesson writes a new file into its own folder"
has "...and may write it again in the same run (it made it)" "$("$ATTN" -c 'print(load("Downloads/new.npy"))' 2>&1)" "tensor([2., 2.])"
eq "a file that was there before the lesson ran is not replaced, even in the lesson's folder" "$(cat Downloads/mine.npy)" "old"
has "...and the student is told which, and how to allow it" "$out" "save('Downloads/mine.npy'): a lesson never replaces a file it did not make: Downloads/mine.npy is there already and was left as it was (to let a lesson write it, move that file away first)"
# --allow-write DIR opens a folder for new files; what is there already stays the student's
out=$(echo "$skips" | "$ATTN" --allow-write "$T/home" lesson "$T/home/Downloads/evil.md" 2>&1)
eq "--allow-write ~ still leaves thesis.pdf alone" "$(cat Documents/thesis.pdf)" "my thesis"
eq "--allow-write ~ still leaves results.npy alone" "$(cat Documents/results.npy)" "my results"
has "...saying it never replaces a file it did not make" "$out" "savefig('Documents/thesis.pdf'): a lesson never replaces a file it did not make"
has "a second run does not replace the first run's file either" "$out" "save('Downloads/new.npy'): a lesson never replaces a file it did not make"
echo "$skips" | "$ATTN" --allow-write "$T/home/Documents" lesson "$T/home/Downloads/evil.md" > /dev/null 2>&1
rm Documents/results.npy
out=$(echo "$skips" | "$ATTN" --allow-write "$T/home/Documents" lesson "$T/home/Downloads/evil.md" 2>&1)
[ -f Documents/results.npy ] && ok || bad "--allow-write DIR lets a lesson write a new file there: $out"
# transcripts (--replay, --check, --update) likewise: --update rewrites only the transcript it names
printf 'a\n' > other.npy
printf '```attn\nattn> save("other.npy", torch.ones(1))\nattn> save("fresh.npy", torch.ones(1))\n```\n' > upd2.md
"$ATTN" --update upd2.md > /dev/null 2>&1
eq "--update does not replace another file beside the transcript" "$(cat other.npy)" "a"
has "...and records why" "$(cat upd2.md)" "a transcript never replaces a file it did not make: other.npy is there already"
"$ATTN" --check upd2.md > /dev/null 2>&1
eq "--check of it neither" "$(cat other.npy)" "a"
# a recording never replaces a file: refused before the class starts, with how to choose another name
echo "last week's class" > class.md
out=$(printf 'quit\n' | "$ATTN" teach "$T/home/Downloads/evil.md" --record class.md 2>&1); st=$?
eq "teach --record onto an existing file: the file stays" "$(cat class.md)" "last week's class"
has "...and attn says which file and what to do" "$out" "attn: --record class.md: that file is there already and a recording never replaces a file; choose another name (attn teach $T/home/Downloads/evil.md --record class-2.md) or move it away first"
eq "...exiting 2 (a usage error)" "$st" "2"
cd "$T/w2" || exit 2
# a directory that does not exist is named as missing, not as outside the allowed one
printf '# L\n\n## One {#one}\n\n```attn\nattn> d2l.plot(torch.arange(3.), torch.arange(3.))\nattn> savefig("figs/a.svg")\n```\n' > nodir.md
out=$(printf '\n\n\nquit\n' | ATTN_PLOT=summary "$ATTN" lesson "$T/w2/nodir.md" 2>&1)
has "savefig into a missing folder says the folder is missing" "$out" "savefig('figs/a.svg'): there is no directory figs (make it first"
lacks "...and not that it is outside" "$out" "may write only into"
printf '# L\n\n## One {#one}\n\n```attn\nattn> d2l.plot(torch.arange(3.), torch.arange(3.))\nattn> savefig("/nonexistent_dir/a.svg")\n```\n' > nodir2.md
out=$(printf '\n\n\nquit\n' | ATTN_PLOT=summary "$ATTN" lesson "$T/w2/nodir2.md" 2>&1)
has "a missing folder outside the lesson's directory gets the policy's answer" "$out" "savefig('/nonexistent_dir/a.svg'): a lesson may write only into its own folder $T/w2"
lacks "...which says nothing of what exists outside" "$out" "there is no directory"
# a class that asked for plot_target('window') or ('terminal') replays with figures as summaries, in no window
printf '# Recorded class: L\n\n```attn\nattn> plot_target("terminal")\nattn> d2l.plot(torch.arange(3.), torch.arange(3.))\n<figure 1: 1 line of 3 points>\nattn> plot_target("window")\nattn> plot_target()\n'"'"'window'"'"'\nattn> d2l.plot(torch.arange(3.), torch.arange(3.))\n<figure 2: 1 line of 3 points>\n```\n' > targets.md
out=$(DISPLAY= "$ATTN" --check targets.md 2>&1)
has "a recorded plot_target('terminal') and ('window') replay as summaries" "$out" "targets.md: 5 steps ok"
printf '```attn\nattn> plot_target()\n'"'"'summary'"'"'\n```\n' > asked.md
for plot in "" files terminal; do
    out=$(ATTN_PLOT=$plot "$ATTN" --check asked.md 2>&1)
    has "a replay's plot_target() answers summary whatever ATTN_PLOT is ($plot)" "$out" "asked.md: 1 steps ok"
done
# an OSC 0 (window title) in a transcript's expected output is refused like any other escape
printf '```attn\nattn> 1\n\033]0;pwned\007\n```\n' > osc0.md
out=$("$ATTN" --check osc0.md 2>&1)
has "OSC 0 in a transcript is refused at load" "$out" "osc0.md:3:1: a control character (ESC)"
lacks "the title escape never reaches the terminal" "$out" "$(printf '\033]0')"

# ---- ./lessons in the current directory never replaces the installed lessons, nor shares their progress ----
mkdir -p "$T/w3/lessons" && cd "$T/w3" || exit 2
printf '# Impostor\n\n## One {#one}\n\n```attn\nattn> 1\n1\n```\n' > lessons/01-self-attention.md
out=$("$ATTN" lesson 2>&1)
lacks "a ./lessons folder does not replace the lesson list" "$out" "Impostor"
has "the list says where its lessons come from" "$out" "(from "
has "the list says ./lessons is not used, and how to use it" "$out" "./lessons here is not used"
out=$(printf 'quit\n' | "$ATTN" lesson 1 2>&1)
lacks "attn lesson 1 is the real lesson 1" "$out" "Impostor"
printf '\n\n' | "$ATTN" lesson ./lessons/01-self-attention.md >/dev/null 2>&1
has "an explicit path runs the other lesson, its progress under its own path" "$(cat "$XDG_STATE_HOME/attn/progress")" "$T/w3/lessons/01-self-attention.md 0 1"
lacks "and the real lesson's progress is untouched" "$(cat "$XDG_STATE_HOME/attn/progress")" "01-self-attention 0 1"

# ---- chains deeper than the C stack (issue 25): a RecursionError (or the parser's "nested too deeply"), never a
# signal, at -c, in a pipe, in a transcript's --check and in a lesson, with a 2 MiB stack (ASan's frames too) ----
mkdir -p "$T/deep" && cd "$T/deep" || exit 2
rep() { i=0; r=''; while [ $i -lt "$2" ]; do r="$r$1"; i=$((i + 1)); done; printf '%s' "$r"; }
# each kind: a name, the statement (under the 100,000-character limit), the message it must give
deep_kind() {
    case $1 in
    call) printf 'f = lambda: f\nx = f%s\n' "$(rep '()' 35000)" ;;
    attr) printf 'class A:\n    pass\n\na = A()\na.a = a\nx = a%s\n' "$(rep '.a' 35000)" ;;
    index) printf 'l = []\nl.append(l)\nx = l%s\n' "$(rep '[0]' 30000)" ;;
    slice) printf 'l = [1]\nx = l%s\n' "$(rep '[:]' 30000)" ;;
    add) printf 'x = 1%s\n' "$(rep '+1' 20000)" ;;
    pow) printf 'x = 2%s\n' "$(rep ' ** 2' 18000)" ;;
    and) printf 'x = 1%s\n' "$(rep ' and 1' 15000)" ;;
    lambda) printf 'x = %s1\n' "$(rep 'lambda: ' 12000)" ;;
    recursion) printf 'f = lambda: f\ndef h(k):\n    if k == 0:\n        return f\n    return h(k - 1)%s\n\nx = h(5)\n' "$(rep '()' 900)" ;;
    esac
}
deep_msg() { case $1 in pow|lambda) echo "nested too deeply" ;; *) echo "maximum recursion depth exceeded" ;; esac; }
deep_status() {    # $1 what, $2 status, $3 output, $4 message: exit status 1 (an error), not a signal; the message
    if [ "$2" -ge 128 ]; then bad "$1: killed by signal $(($2 - 128))"; else eq "$1: exit status" "$2" "${5:-1}"; fi
    has "$1" "$3" "$4"
}
for kind in call attr index slice add pow and lambda recursion; do
    deep_kind $kind > $kind.py
    msg=$(deep_msg $kind)
    out=$( (ulimit -s 2048; "$ATTN" -c "$(cat $kind.py)") 2>&1); deep_status "-c: a $kind chain" $? "$out" "$msg"
    out=$( (ulimit -s 2048; { cat $kind.py; printf '\nprint("went on")\n'; } | "$ATTN" --keep-going) 2>&1); deep_status "a pipe: a $kind chain" $? "$out" "$msg"
    has "a pipe: attn goes on after a $kind chain" "$out" "went on"
    { printf '# deep\n\n```attn\n'; sed -e '/^$/d' -e 's/^    /  ...>     /' -e '/^  \.\.\.>/!s/^/attn> /' $kind.py; printf 'attn> print("went on")\nwent on\n```\n'; } > t_$kind.md
    out=$( (ulimit -s 2048; "$ATTN" --check t_$kind.md) 2>&1); deep_status "--check of a transcript with a $kind chain" $? "$out" "$msg"
    mkdir -p lessons
    { printf '# L\n\n## One {#one}\n\n```attn\n'; sed -e '/^$/d' -e 's/^    /  ...>     /' -e '/^  \.\.\.>/!s/^/attn> /' $kind.py; printf '```\n'; } > lessons/l_$kind.md
    out=$( (ulimit -s 2048; "$ATTN" --check lessons/l_$kind.md) 2>&1); deep_status "--check of a lesson with a $kind chain" $? "$out" "$msg"
done

# a student's __index__ that clears and refills the list a shape is read from (torch.zeros(L), view, expand, repeat,
# permute, split, sum(dims), roll): attn reads the items it held first, never the freed list (a heap use-after-free
# under ASan, and a write past the dims array for sum/roll)
cat > index_mutates.py <<'PY'
import torch
class I:
    def __init__(self, v): self.v = v
    def __index__(self):
        L.clear()
        L.extend([I(1)] * 40)
        return self.v
for name, f in [("zeros", lambda: torch.zeros(L)), ("view", lambda: torch.arange(6).view(L)),
                ("expand", lambda: torch.ones(1, 3).expand(L)), ("repeat", lambda: torch.ones(2).repeat(L)),
                ("permute", lambda: torch.ones(2, 3).permute(L)), ("split", lambda: torch.ones(5).split(L)),
                ("sum", lambda: torch.ones(2, 3).sum(L)), ("roll", lambda: torch.ones(2, 3).roll(L, L))]:
    L = [I(2), I(3)]
    try: print(name, f() is not None)
    except Exception as e: print(name, type(e).__name__)
print("went on")
PY
out=$("$ATTN" index_mutates.py 2>&1); st=$?
eq "an __index__ that clears the shape list: exit status" "$st" 0
has "an __index__ that clears the shape list" "$out" "went on"

# a module's attributes that attn passes on or shows while a student's dunder runs (issue 28, owned references): an
# __index__ of nn.Flatten's start_dim that drops end_dim, a __repr__ inside LayerNorm's normalized_shape that drops the
# tuple being shown. attn holds what it uses (before: heap use-after-free under ASan). PyTorch refuses these types, so
# the transcript tests/e2e/owned-refs.md cannot show them; attn's answers are checked here.
cat > attrs_dropped.py <<'PY'
import torch
from torch import nn
class B:
    def __index__(self):
        fl.start_dim = None
        fl.end_dim = None
        return 0
fl = nn.Flatten()
fl.start_dim = B()
print(fl(torch.ones(2, 3)).shape, fl.start_dim, fl.end_dim)
class A:
    def __repr__(self):
        ln.normalized_shape = None
        return "A"
ln = nn.LayerNorm(3)
ln.normalized_shape = (A(), A(), 4)
try: ln(torch.ones(2, 3))
except RuntimeError as e: print(str(e)[-30:], ln.normalized_shape)
print("went on")
PY
out=$("$ATTN" attrs_dropped.py 2>&1); st=$?
eq "a dunder that drops the module attribute attn is using: exit status" "$st" 0
has "Flatten's start_dim whose __index__ drops end_dim" "$out" "torch.Size([6]) None None"
has "LayerNorm's normalized_shape dropped by an item's __repr__" "$out" "normalized_shape = [A, A, 4] None"
has "a dunder that drops the module attribute attn is using" "$out" "went on"

# a ProgressBoard label whose __str__ (the legend) replaces board.data while the board is drawn: the figure is made
# from the dict it started with (before: heap use-after-free of the replaced dict under ASan)
printf 'from d2l import torch as d2l\nclass K:\n    def __str__(self):\n        board.data = None\n        return "k"\nboard = d2l.ProgressBoard()\nboard.data = {K(): [(0.0, 1.0)]}\nboard.draw(1.0, 2.0, "x")\nprint(board.data)\n' > board_label.py
out=$("$ATTN" board_label.py 2>&1)
eq "a board label whose __str__ replaces board.data" "$out" "<figure 1: 2 lines of 1 points; legend 'k', 'x'>
None"

# help(C) where a method's default has a __repr__ that deletes the method from C: help lists the methods C had when
# it started, each held while shown (before: heap use-after-free of the deleted function under ASan)
printf 'class D:\n    def __repr__(self):\n        del C.f\n        return "D"\nclass C:\n    def f(self, a=D(), b=[1, 2]):\n        pass\n    def g(self):\n        pass\nhelp(C)\nprint(hasattr(C, "f"))\n' > help_default.py
out=$("$ATTN" help_default.py 2>&1)
eq "help(C) with a default whose __repr__ deletes the method" "$out" "class C(object)
  Methods defined here:
    f(self, a=D, b=[1, 2])
    g(self)
False"

# a key's __eq__ that rebuilds the dict (or set) at every comparison: the search restarted for ever (a hang; CPython
# ends only because its allocator hands back the same table); attn stops after 1000 restarts with a RuntimeError
printf 'class K:\n    def __hash__(self): return 1\n    def __eq__(self, o):\n        if on:\n            d.clear()\n            for i in range(50): d[i] = i\n        return False\non = []\nd = {K(): 1}\non.append(1)\ntry: d[K()] = 2\nexcept RuntimeError as e: print(e)\ns = set()\nclass H(K):\n    def __hash__(self): return 1\n    def __eq__(self, o):\n        if on:\n            s.clear()\n            for i in range(20): s.add(i)\n        return False\non.clear()\ns.add(H())\non.append(1)\ntry: print(H() in s)\nexcept RuntimeError as e: print(e)\n' > eq_rebuilds.py
out=$(timeout 60 "$ATTN" eq_rebuilds.py 2>&1)
eq "an __eq__ that rebuilds the dict or set at every comparison" "$out" "dictionary changed during a key's comparison 1000 times: stopped
Set changed during an element's comparison 1000 times: stopped"

# an extended slice assignment whose items' iterator empties the list: the slice is measured again, and a size that
# no longer fits is Python's ValueError (CPython itself reads freed items here; attn once wrote past the list)
printf 'class Gen:\n    def __init__(self): self.n = 0\n    def __iter__(self): return self\n    def __next__(self):\n        self.n += 1\n        if self.n > 2: raise StopIteration\n        L.clear()\n        return self.n\nL = [1, 2, 3, 4]\ntry: L[::2] = Gen()\nexcept ValueError as e: print(e, L)\n' > slice_gen.py
out=$("$ATTN" slice_gen.py 2>&1)
eq "L[::2] = an iterator that empties L" "$out" "attempt to assign sequence of size 2 to extended slice of size 0 []"

# round() of a float beyond 64-bit integers: attn's overflow error, never an undefined float-to-int conversion (found
# by fuzz_statements under UBSan)
out=$("$ATTN" -c "round(7.7e89)" 2>&1)
has "round(7.7e89)" "$out" "does not fit in 64 bits"

# a list slice the machine refuses (ulimit -v) is MemoryError and attn goes on; before, val_list's out-of-memory
# stop ended attn ("attn: out of memory", SIGABRT). Skipped where attn cannot start under the ulimit (a sanitizer build).
printf 'L = [0] * (2**25)\nkeep = []\nfor i in range(8):\n    keep.append(L[:])\n' > slice_oom.py
printf 'L = [0] * (2**25)\nkeep = []\nfor i in range(8):\n    keep.append(L.copy())\n' > copy_oom.py
if sh -c 'ulimit -v 1500000; "$0" -c "print(1)"' "$ATTN" >/dev/null 2>&1; then
    out=$( (ulimit -v 1500000; ATTN_MEMORY_LIMIT=8G "$ATTN" slice_oom.py) 2>&1); st=$?
    eq "a list slice the machine refuses: exit status 1 (an error, not a signal)" "$st" 1
    has "a list slice the machine refuses: MemoryError" "$out" "the machine refused attn more memory"
    out=$( (ulimit -v 1500000; ATTN_MEMORY_LIMIT=8G "$ATTN" copy_oom.py) 2>&1); st=$?
    eq "L.copy() the machine refuses: exit status 1" "$st" 1
    has "L.copy() the machine refuses: MemoryError" "$out" "the machine refused attn more memory"
fi

cd "$REPO" || exit 2
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

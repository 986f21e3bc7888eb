#!/bin/sh
# tests/window.sh ATTN - with a display (Xvfb) and a gnuplot that has a window terminal, `auto` chooses a window and
# the figure is drawn in it: checked on a screenshot (the plot's pixels are not all one colour). Skipped, and said
# so, when Xvfb or a window-capable gnuplot is missing. 'N passed, N failed'.
ATTN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL window: $1"; }
if ! command -v Xvfb >/dev/null || ! command -v xwd >/dev/null || ! gnuplot -e 'set terminal' 2>&1 | grep -qE '^ +(qt|wxt|x11) '; then
    echo "skipped: needs Xvfb, xwd and a gnuplot with qt, wxt or x11 (scripts/install-deps installs them)"
    echo "0 passed, 0 failed"
    exit 0
fi
T=$(mktemp -d)
# A display of our own: Xvfb picks a free number and writes it to fd 3 when it is ready (parallel runs never collide).
Xvfb -displayfd 3 -screen 0 1024x700x24 3>"$T/display" >/dev/null 2>&1 &
XPID=$!
# Closing our Xvfb ends the gnuplot windows drawn on it, and nothing else (no process is killed by name).
trap 'kill $XPID 2>/dev/null; wait $XPID 2>/dev/null; rm -rf "$T"' EXIT
i=0; while [ ! -s "$T/display" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$T/display" ] || { echo "FAIL window: Xvfb did not start"; echo "0 passed, 1 failed"; exit 1; }
export DISPLAY=:$(head -1 "$T/display")
# auto at a terminal with a display means a window (script gives attn a pty)
out=$(script -qc "$ATTN -q -c 'help plot_target'" /dev/null 2>&1)
case "$out" in *"here that means window"*) ok ;; *) bad "auto does not choose a window: $out" ;; esac
out=$(ATTN_PLOT=window "$ATTN" -c 'd2l.plot(torch.arange(60), torch.sin(torch.arange(60) / 10.0), xlabel="Row (position)")' 2>&1)
case "$out" in *"in the gnuplot window"*) ok ;; *) bad "no window: $out" ;; esac
sleep 2
xwd -root -silent > "$T/screen.xwd" 2>/dev/null
# count distinct pixel values in the screenshot (an empty X screen has one)
colours=$(/usr/bin/python3 - "$T/screen.xwd" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
header = int.from_bytes(data[0:4], "big")
body = data[header + 256 * 12:] if len(data) > header + 3072 else b""
print(len(set(body[i:i + 4] for i in range(0, min(len(body), 4000000), 4))))
PY
)
if [ "${colours:-0}" -gt 5 ]; then ok; else bad "the screen is empty after the plot ($colours colours)"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

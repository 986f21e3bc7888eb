#!/usr/bin/python3
"""Small Python programs that attn must run as python3 does, checked against python3 itself: walking a set through
iter/zip/enumerate/map, ranges as set elements and range equality, string escapes (octal, \\N{name}, \\x, \\u, \\U,
also in f-strings), and the str predicates over every code point of the planes Unicode assigns (the CJK numerals 一二三 are numeric). Then the
escapes Python rejects, which attn must refuse too, with a message that says what is wrong.
Prints 'N passed, N failed'.

usage: python_same.py ATTN_BINARY
"""
import os, subprocess, sys, tempfile

SAME = {
    "set walkers": """
s = {0, 1, 2, 3, 4, 5}
print(list(iter(s)), next(iter({0, 1, 2})))
print(list(zip({0, 1, 2, 3}, "abcd")), list(enumerate({5, 6})), list(map(str, {7, 8})), list(filter(None, {0, 9})))
it = iter({10, 20, 30})
print(next(it), next(it), next(it), next(it, 'end'))
""",
    "ranges in sets": """
print(range(0, 0) == range(5, 5), range(0, 3) == range(0, 3, 1), range(0, 5, 10) == range(0, 1))
print(range(1, 7, 2) == range(1, 6, 2), range(1, 7, 2) != range(1, 7, 3), range(0, 3) == [0, 1, 2])
print({range(0, 3), range(0, 3, 1), range(0, 0), range(5, 5), range(0, 5, 10), range(0, 1)})
s = {range(0, 0, -1)}
s.add(7)
print(len(s), sorted(map(str, s)))
_ = s.pop(); _ = s.pop()
print(s, {range(0, 2 ** 61 - 2)})
""",
    "escapes": r"""
print('\101\102', '\0' == chr(0), '\12' == '\n', '\1011', len('\777'), ord('\777'))
print('\N{BULLET}', '\N{latin small letter a}', len('\N{EM DASH}'), '\x41\u00e9\U0001F600', len('\U0001F600'))
print(f'{1}\N{BULLET}{2}', f'a\\{1}', f'\t{3}|', f'{{x}}', '\q', f"{ {1, 2} }", f'{ 1 + 1 }|{  3 :>4}')
print(repr('\x9b'), repr('\u3000'), repr('é'))
""",
    "str predicates over every assigned plane": """
names = ['isdigit', 'isdecimal', 'isnumeric', 'isalpha', 'isalnum', 'isspace', 'isupper', 'islower']
n = [0] * 8
h = [0] * 8
for c in list(range(0xD800)) + list(range(0xE000, 0x32400)) + list(range(0xE0000, 0xE0200)):
    ch = chr(c)
    for k, f in enumerate([ch.isdigit, ch.isdecimal, ch.isnumeric, ch.isalpha, ch.isalnum, ch.isspace, ch.isupper, ch.islower]):
        if f():
            n[k] += 1
            h[k] = (h[k] * 31 + c) % 1000000007
print(list(zip(names, n, h)))
print('一二三'.isnumeric(), '百万'.isnumeric(), '零'.isnumeric(), '日'.isnumeric(), '一'.isdigit(), '３'.isdigit())
""",
}

# escapes python3 rejects (SyntaxError): attn refuses them too, saying what is wrong
REFUSED = {
    "print('\\x4')": "truncated \\x escape",
    "print('\\u12')": "truncated \\u escape",
    "print('\\U00110000')": "illegal Unicode character",
    "print('\\N{NO SUCH NAME}')": "unknown Unicode character name",
    "print(f'a\\x4{1}')": "truncated \\x escape",
    "print(len('\\ud800'))": "surrogate",
}


def main():
    attn = sys.argv[1]
    passed = failed = 0

    def check(ok, what, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAILED: {what}{detail}")

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "prog.py")
        for name, prog in SAME.items():
            with open(path, "w") as f:
                f.write(prog.lstrip("\n"))
            want = subprocess.run([sys.executable, path], capture_output=True, text=True)
            try:
                got = subprocess.run([attn, path], capture_output=True, text=True, timeout=900)
            except subprocess.TimeoutExpired:
                check(False, name, ": attn did not finish in 900 s")
                continue
            detail = ""
            if want.stdout != got.stdout:
                for i, (w, g) in enumerate(zip(want.stdout.split("\n"), got.stdout.split("\n"))):
                    if w != g:
                        detail = f"\n  line {i + 1}: python3 {w!r}\n  {' ' * len(str(i + 1))}         attn {g!r}"
                        break
                else:
                    detail = f"\n  python3 {want.stdout!r}\n  attn {got.stdout!r} {got.stderr[-300:]!r}"
            check(want.returncode == 0 and want.stdout and want.stdout == got.stdout, name, detail)
        for prog, words in REFUSED.items():
            py = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True)
            got = subprocess.run([attn, "-c", prog], capture_output=True, text=True, timeout=60)
            out = got.stdout + got.stderr
            check((py.returncode != 0 or "surrogate" in words) and got.returncode != 0 and words in out,
                  f"{prog} is refused with '{words}'", f"\n  attn: {out!r}")
    print(f"{passed} passed, {failed} failed")
    return failed == 0


if __name__ == "__main__":
    sys.exit(0 if main() else 1)

#!/usr/bin/python3
"""Small Python programs that attn must run as python3 does, checked against python3 itself: walking a set through
iter/zip/enumerate/map, ranges as set elements and range equality, string escapes (octal, \\N{name}, \\x, \\u, \\U,
also in f-strings), and the str predicates over every code point of the planes Unicode assigns (the CJK numerals 一二三 are numeric). Then the
escapes Python rejects, which attn must refuse too, with a message that says what is wrong. Also the student's
classes' __eq__/__hash__ in ==, in, sets, dicts and list methods (and their errors), frozenset, dict views with set
operators, unbound methods (str.upper('a'), set.add(s, 1)), str.startswith/endswith(x, start, end), ascii(), and
exception classes (class MyError(ValueError), except matching by class, e.args, raise X from Y). Rich comparisons
and arithmetic dunders with NotImplemented; math functions on tensors; live dict views; counts of __hash__/__eq__
calls (a dict stores its keys' hashes). TIMED programs must also finish in the seconds given (linear time).
Prints 'N passed, N failed'.

usage: python_same.py ATTN_BINARY
"""
import os, subprocess, sys, tempfile

SAME = {
    "a student's __bool__/__len__ decide if, while, not, and/or, x if c else y and comprehension filters (attn took the true branch for __bool__ returning False), with CPython's TypeError/ValueError; a __bool__ that clears the list being walked": """
class F:
    def __bool__(self): return False
class L:
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
print("yes" if F() else "no")
if F(): print("bad")
else: print("ok")
print(not F(), F() or 5, isinstance(F() and 5, F), not L(0), not L(3))
n = 0
while L(3 - n): n += 1
print(n)
class B:
    def __bool__(self): return 1
try:
    if B(): pass
except TypeError as e: print("TypeError", e)
class N:
    def __len__(self): return -1
try:
    if N(): pass
except ValueError as e: print("ValueError", e)
print([x.n for x in [L(0), L(2), L(1)] if x])
Q = []
class C:
    def __bool__(self):
        Q.clear()
        return True
Q[:] = [C(), C(), C()]
print(len([1 for x in Q if x]))
K = [C(), C()]
class D:
    def __bool__(self):
        K.clear()
        return False
K.append(D())
for x in K:
    if x: print("t")
    else: print("f")
try:
    print([1 for x in [B()] if x])
except TypeError as e: print("TypeError", e)
""",
    "bool(), any, all, filter(None, ...) and len() ask a student's __bool__/__len__ (attn answered True for any object, and len() said 'has no len()'), with CPython's errors; a tensor's truth in PyTorch's words": """
import torch
class F:
    def __bool__(self): return False
class L:
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
class B:
    def __bool__(self): return 1
class N:
    def __len__(self): return -1
print(bool(F()), bool(L(0)), bool(L(2)), any([F(), L(0)]), all([L(1), F()]), any([L(0), L(3)]), all([]))
print(list(filter(None, [F(), L(0), L(2), 0, 1]))[0].n, len(list(filter(None, [F(), L(0)]))))
print(len(L(5)), len(L(0)))
for bad in (lambda: bool(B()), lambda: len(N()), lambda: bool(N()), lambda: any([B()]), lambda: len(F()), lambda: list(filter(None, [B()]))):
    try:
        print(bad())
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    assert F(), 'F is false'
except AssertionError as e:
    print('AssertionError', e)
assert L(1)
print(bool(torch.tensor(0.)), any([torch.tensor(1)]))
try:
    bool(torch.ones(2))
except RuntimeError as e:
    print('RuntimeError', e)
""",
    "AssertionError and NotImplementedError: assert caught by class (attn raised a classless error), str/repr/args of a bare assert, NotImplementedError under RuntimeError": """
try:
    assert 1 == 2, 'no'
except AssertionError as e:
    print('caught', type(e).__name__, e, e.args)
try:
    assert False
except AssertionError as e:
    print(repr(str(e)), repr(e), e.args)
try:
    raise NotImplementedError('later')
except RuntimeError as e:
    print('caught', type(e).__name__, e, isinstance(e, NotImplementedError))
class Base:
    def f(self): raise NotImplementedError
try:
    Base().f()
except NotImplementedError as e:
    print('caught', repr(e))
print(issubclass(NotImplementedError, RuntimeError), issubclass(AssertionError, Exception), issubclass(AssertionError, RuntimeError))
""",
    "str.replace with an empty old string (review s8: attn returned the string unchanged)": """
print('abc'.replace('', '-'), repr(''.replace('', 'x')), 'é日'.replace('', '|'), 'aaa'.replace('a', 'bb'), 'abc'.replace('', ''))
""",
    "list.sort with a key that changes the list (review s8: an append there overran the key buffer)": """
L = [3, 1, 2] * 10
def grow(x):
    L.append(0)
    return x
try:
    L.sort(key=grow)
except ValueError as e:
    print(e)
print(L)
L = [3, 1, 2]
def look(x):
    print(len(L), end=' ')
    L.clear()
    return x
L.sort(key=look, reverse=True)
print(L)
L = [3, 1, 'a']
try:
    L.sort()
except TypeError:
    print('TypeError', L)
print(sorted(L[:2], key=lambda x: -x), L)
""",
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
    "format strings: nested specs, {x=}, fields with .attr and [index], conversions": r"""
w, x, name, d = 6, 3, 'attn', {'a': 1, 'key': 'v'}
print(f"[{3:>{w}}]", f"[{3.14159:.{2}f}]", f"{x=}", f"{x = }", f"{x=:>4}", f"{x=!s}", f"{name=}", f"{x+1=}")
print(f"{x == 3}", f"{x >= 2}", f"{x!r:>{w}}", f"{'a':{'>'}{w}}|", f"{3.14159:{w}.{x}f}|", f"{name:^{w+4}}|", f"{{x}}")
print(f"{d['a']=}", f"{len(d) = :>3}", f"{x:=^9}", f"{'é'!a}", f"{'é'!a:>8}|", ascii('é日😀'))
class P:
    def __init__(self):
        self.x = 1.5
        self.name = 'p'
p = P()
print("{} {}".format(1, 2), "{1} {0} {1}".format('a', 'b'), "{x:>5}|{y!r}".format(x=3, y='q'), "{0[1]} {0[0]}".format([10, 20]))
print("{d[key]}".format(d=d), "{p.x:.2f} {p.name!r:^7}".format(p=p), "{:{}{}}".format(5, '>', 4), "{0:{1}.{2}f}".format(3.14159, 8, 3))
print("{{}} {}".format(1), "{!s:>4}".format('ab'), "{!a}".format('é'), "{:,}".format(1234567), "{0!r}".format([1, 'a']), "{0}{0}".format('ab'))
print("[{:>{}}]".format(3, w), "{0:{1}}".format(2, 4), "{:>{w}}".format(7, w=4), "a{}b{}c".format('X', 'Y'), repr("".format()))
for f, args in [("{}{1}", (1, 2)), ("{1}{}", (1, 2)), ("{2}", (1,)), ("{", ()), ("}", ()), ("{0", (1,)), ("{0!x}", (1,)),
                ("{0.}", (1,)), ("{0[}", ([1],)), ("{0[0]x}", ([1],)), ("{:{:{}}}", (1, 2, 3)), ("{}", ())]:
    try:
        print(repr(f.format(*args)))
    except (ValueError, IndexError, KeyError) as e:
        print(type(e).__name__, e)
""",
    "math: log to a base, domain and range errors as Python's classes": r"""
import math
print(math.log(8, 2), math.log(100, 10), math.log(2.5), math.sqrt(16), math.exp(1))
for f in [lambda: math.sqrt(-1), lambda: math.log(0), lambda: math.log(8, 1), lambda: math.log(-8, 2), lambda: math.exp(1000), lambda: math.asin(2), lambda: math.log10(-1)]:
    try:
        print(f())
    except ValueError as e:
        print("ValueError")
    except OverflowError as e:
        print("OverflowError", isinstance(e, ArithmeticError))
    except ZeroDivisionError as e:
        print("ZeroDivisionError")
print(issubclass(OverflowError, ArithmeticError), OverflowError("x"))
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
    "a class's __eq__ and __hash__": r"""
class P:
    def __init__(self, x):
        self.x = x
    def __eq__(self, o):
        return isinstance(o, P) and self.x == o.x
    def __hash__(self):
        return hash(self.x)
    def __repr__(self):
        return f'P({self.x})'
a, b = P(1), P(1)
print(a == b, a != b, a == 1, 1 == a, a != P(2), [a] == [b], (a, 1) == (b, 1))
print(a in [b], a in (b,), a in {b: 'v'}, a in {b}, P(3) in [a, b], P(1) not in {P(1)})
d = {P(1): 'one', P(2): 'two'}
print(d[P(1)], d.get(P(2)), d.get(P(9), 'none'), len({P(1), P(1), P(2)}), {P(5)} == {P(5)})
d[P(1)] = 'uno'
print(d, P(2) in d, d.pop(P(2)), d, d.setdefault(P(7), 0), len(d))
l = [P(1), P(2), P(1)]
print(l.index(P(2)), l.count(P(1)), hash(P(4)) == hash(4), hash(P(-1)), hash(True))
l.remove(P(1))
print(l, sorted({P(1), P(2)} - {P(2)}, key=lambda p: p.x), {P(1), P(2)} & {P(2), P(3)})
class Q:
    def __eq__(self, o):
        return True
def attempt(what, f):
    try:
        print(what, f())
    except (TypeError, ValueError, KeyError) as e:
        print(what, '->', repr(e))
attempt('hash', lambda: hash(Q()))
attempt('set literal', lambda: {Q()})
attempt('dict literal', lambda: {Q(): 1})
attempt('set()', lambda: set([Q()]))
attempt('frozenset()', lambda: frozenset([Q()]))
attempt('dict key', lambda: {}.setdefault(Q(), 1))
print(Q() in [1], Q() == 5, 5 == Q(), [1].count(Q()), [3, 4].index(Q()))
class R:
    pass
r = R()
print(r == r, r == R(), r != R(), r in {r}, r in [R()], {r: 1}[r], hash(r) == hash(r), len({R(), R()}))
class S(P):
    pass
print(S(1) == P(1), hash(S(2)) == hash(2), S(1) in {P(1)})
class T(P):
    def __eq__(self, o):
        return False
try:
    hash(T(1))
except TypeError as e:
    print('T:', e)
class H:
    __hash__ = None
try:
    {H()}
except TypeError as e:
    print('H:', e)
class Bad:
    def __eq__(self, o):
        raise ValueError('no comparing')
    def __hash__(self):
        return 1
attempt('==', lambda: Bad() == 1)
attempt('in list', lambda: Bad() in [1, 2])
attempt('index', lambda: [1, 2].index(Bad()))
attempt('in set', lambda: Bad() in {Bad()})
attempt('set of two', lambda: {Bad(), Bad()})
attempt('in dict', lambda: Bad() in {1: 1, Bad(): 2})
attempt('list ==', lambda: [Bad()] == [Bad()])
attempt('remove', lambda: [1, 2].remove(Bad()))
class BadHash:
    def __hash__(self):
        raise KeyError('h')
class StrHash:
    def __hash__(self):
        return 'x'
attempt('set of BadHash', lambda: {BadHash()})
attempt('hash BadHash', lambda: hash(BadHash()))
attempt('hash StrHash', lambda: hash(StrHash()))
attempt('dict get BadHash', lambda: {1: 2}.get(BadHash()))
class Big:
    def __hash__(self):
        return 2 ** 61 + 5
print(hash(Big()), hash(P(2 ** 61 - 1)), hash(P(-2)))
""",
    'frozenset': r"""
f = frozenset([3, 1, 2, 3])
print(f, frozenset(), repr(frozenset(range(5))), len(f), 2 in f, type(f).__name__, type(f) is frozenset)
print(f | {9}, {9} | f, f & {1, 7}, {1, 7} & f, f - {1}, {1, 5} - f, f ^ {1, 8}, {1, 8} ^ f)
print(f == {1, 2, 3}, {1, 2, 3} == f, f != frozenset([1, 2]), f <= {1, 2, 3, 4}, frozenset([1]) < f, f > {1})
print(hash(frozenset()), hash(frozenset([1, 2, 3])), hash(f) == hash(frozenset({1, 2, 3})), hash(frozenset([(1, 2), -1])))
s = {f, frozenset([1, 2, 3]), frozenset()}
print(len(s), {f: 'x'}[frozenset([2, 3, 1])], frozenset([frozenset([1])]))
print({1} in {2}, {1} in [{1}], {1} in {frozenset([1])}, set() in {frozenset()}, frozenset([1]) in [{1}])
t = {frozenset([1]), 5}
t.discard({1})
t.remove(5)
print(t, f.union([7], (8,)), f.intersection([1, 2]), f.difference([1]), f.symmetric_difference([3, 4]), f.copy() is f)
print(f.issubset(range(5)), f.issuperset([1]), f.isdisjoint([7]), sorted(f), list(frozenset([5, 6])), set(f), frozenset(f) is f)
g = f
g |= {10}
print(g, f, g is f, isinstance(f, frozenset), isinstance(f, set), isinstance({1}, frozenset))
def attempt(what, fn):
    try:
        print(what, fn())
    except (TypeError, AttributeError, KeyError) as e:
        print(what, '->', type(e).__name__, e)
attempt('add', lambda: f.add(1))
attempt('hash of set', lambda: hash({1}))
attempt('set in dict', lambda: {1} in {1: 2})
attempt('list in set', lambda: [1] in {1})
""",
    'startswith/endswith with start and end, ascii()': r"""
s = 'abcabc'
print(s.startswith('b', 1), s.startswith('b', 2), s.endswith('b', 0, 2), s.endswith('c', None, -3), s.startswith('a', -3))
print(s.startswith('', 6), s.startswith('', 7), s.endswith('', 7, 9), s.startswith(('x', 'ca'), 2, None), s.endswith('abc', -100))
print(s.startswith('abc', 3, 5), s.endswith('bc', 3, 100), 'héllo'.startswith('llo', 2), 'héllo'.endswith('é', 0, 2), ''.startswith(''))
print(s.startswith('c', True + 1), s.endswith('a', 0, -5), s.startswith('a', None, None))
def attempt(what, fn):
    try:
        print(what, fn())
    except (TypeError, ValueError) as e:
        print(what, '->', type(e).__name__)
attempt('start str', lambda: s.startswith('a', '1'))
attempt('start float', lambda: s.startswith('a', 1.0))
print(ascii('héllo'), ascii('日本'), ascii('😀'), ascii(['é', 1, 'a']), ascii(1.5), ascii('plain'), ascii({'ü': 'ß'}))
print(ascii('\x9b'), ascii('tab\t'), ascii("it's"), ascii('\u00a0'), ascii(None))
""",
    "the student's exception classes, raise from": r"""
class MyError(Exception):
    pass
class DetailError(ValueError):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code
class Quiet(MyError):
    def __str__(self):
        return 'quiet!'
class NoSuper(Exception):
    def __init__(self, a, b):
        self.total = a + b
try:
    raise MyError('x')
except MyError as e:
    print('caught', e, repr(e), e.args, type(e).__name__, isinstance(e, Exception), isinstance(e, MyError))
try:
    raise MyError
except Exception as e:
    print('as Exception:', repr(e), str(e) == '', e.args)
try:
    try:
        raise MyError('not a value error')
    except ValueError:
        print('wrong handler')
except MyError as e:
    print('outer', e)
try:
    raise DetailError('bad size', 7)
except ValueError as e:
    print('value error:', e, e.code, e.args, repr(e))
try:
    raise Quiet('loud', 2)
except (KeyError, MyError) as e:
    print(str(e), repr(e), e.args)
try:
    raise NoSuper(1, 2)
except NoSuper as e:
    print(e.args, e.total, str(e))
print(issubclass(DetailError, ValueError), issubclass(DetailError, Exception), issubclass(MyError, ValueError), issubclass(Quiet, MyError))
print(MyError.__name__, MyError('a', 1), [MyError('z')], str(MyError()))
def parse(text):
    try:
        return int(text)
    except ValueError as e:
        raise DetailError('not a number: ' + text, 1) from e
try:
    parse('x')
except DetailError as e:
    print('cause:', type(e.__cause__).__name__, e.__cause__, e.code)
try:
    raise MyError('m') from None
except MyError as e:
    print('from None:', e.__cause__)
def attempt(what, fn):
    try:
        fn()
    except TypeError as e:
        print(what, '->', e)
class NotExc:
    pass
def raise_it(x):
    raise x
attempt('raise instance of plain class', lambda: raise_it(NotExc()))
attempt('raise plain class', lambda: raise_it(NotExc))
def catch_plain():
    try:
        raise MyError('q')
    except NotExc:
        pass
attempt('except plain class', catch_plain)
def bad_cause():
    raise MyError('c') from 5
attempt('bad cause', bad_cause)
try:
    raise MyError('finally check')
except MyError:
    print('handled')
finally:
    print('finally ran')
""",
    'dict views as sets, unbound methods, dict.fromkeys': r"""
d = {1: 10, 2: 20, 3: 30}
print(d.keys(), d.values(), d.items(), type(d.keys()).__name__, len(d.keys()), 2 in d.keys(), (1, 10) in d.items())
print(d.keys() | {4}, d.keys() & {2, 3, 9}, d.keys() - {1}, d.keys() ^ {3, 5}, {0} | d.keys(), {2, 7} & d.keys())
print(d.items() & {(1, 10), (2, 0)}, d.items() - {(3, 30)}, d.keys() | [8], d.keys() == {1, 2, 3}, d.keys() == {1, 2})
print({3, 2, 1} == d.keys(), d.keys() == [1, 2, 3], d.keys() != {1}, d.items() == {(1, 10), (2, 20), (3, 30)}, d.values() == d.values())
print(list(d.keys()), sorted(d.values(), reverse=True), [k for k in d.keys()], list(reversed(list(d.items()))), max(d.keys()))
print(set.union({1}, {2}), str.upper('abc'), str.join('-', ['x', 'y']), dict.fromkeys([1, 2]), dict.fromkeys('ab', 0))
s = set()
set.add(s, 5)
set.update(s, [6, 7])
print(s, frozenset.union(frozenset([1]), [2]), set.intersection({1, 2}, {2}), dict.get({1: 2}, 1), list.index([4, 5], 5), d.fromkeys([9]))
def attempt(what, fn):
    try:
        print(what, fn())
    except (TypeError, AttributeError) as e:
        print(what, '->', type(e).__name__, str(e).split(' (')[0])
attempt('index a view', lambda: d.keys()[0])
attempt('append to a view', lambda: d.keys().append(1))
attempt('values or', lambda: d.values() | {1})
attempt('str.upper(5)', lambda: str.upper(5))
attempt('set.add(frozenset)', lambda: set.add(frozenset(), 1))
attempt('fromkeys of int', lambda: dict.fromkeys(5))
attempt('keys or int', lambda: d.keys() | 5)
""",
    "__eq__ that changes the container it is compared in, recursion": r"""
s = set()
class M:
    def __init__(self, x):
        self.x = x
    def __eq__(self, o):
        s.clear()
        for i in range(50):
            s.add(i + 100)
        return False
    def __hash__(self):
        return 7
s.add(M(1))
print(M(2) in s, len(s))
s2 = {M(1)}
s = s2
s2.add(M(3))
print(len(s2) > 0)
l = []
class L:
    def __eq__(self, o):
        l.clear()
        return False
l.extend([L(), L(), L()])
print(l.count(L()), len(l))
d = {}
class D:
    def __eq__(self, o):
        d.clear()
        return False
    def __hash__(self):
        return 1
d[D()] = 1
d[D()] = 2
print(len(d))
class Rec:
    def __eq__(self, o):
        return self == o
    def __hash__(self):
        return 1
try:
    Rec() == Rec()
except RecursionError as e:
    print('recursion', isinstance(e, RuntimeError))
def deep(n):
    return deep(n + 1)
try:
    deep(0)
except RecursionError as e:
    print('deep', type(e).__name__, issubclass(RecursionError, RuntimeError))
a = frozenset([M(1)])
t = {a}
print(len(t))
""",
    "__eq__ that empties the dict being probed: d[k], d[k] = v, del, get, pop, setdefault, in (review s7 #1)": r"""
def fresh(v):
    d = {}
    class K:
        def __hash__(self):
            return 1
        def __eq__(self, o):
            d.clear()
            return True
    d[K()] = v
    return d, K
d, K = fresh(1)
try:
    print(d[K()])
except KeyError:
    print('KeyError get', len(d))
d, K = fresh(1)
d[K()] = 2
print(len(d), list(d.values()))
d, K = fresh(1)
try:
    del d[K()]
except KeyError:
    print('KeyError del', len(d))
d, K = fresh(3)
print(d.get(K()), len(d))
d, K = fresh(3)
print(d.get(K(), 'none'), len(d))
d, K = fresh(4)
print(d.pop(K(), 'dflt'), len(d))
d, K = fresh(5)
try:
    d.pop(K())
except KeyError:
    print('KeyError pop', len(d))
d, K = fresh(6)
print(d.setdefault(K(), 7), list(d.values()))
d, K = fresh(9)
print(K() in d, len(d))
class T:
    def __hash__(self):
        return 2
    def __eq__(self, o):
        return True
e = {T(): 'x'}
print(e.pop(T()), len(e), e.setdefault(T(), 'y'), e.setdefault(T(), 'z'), list(e.values()))
""",
    "a stored key's __hash__ that empties its dict: lookup, set(d), update(d), dict(d) (review s7 #2)": r"""
def fresh():
    d = {}
    flag = [False]
    class K:
        def __init__(self, s):
            self.s = s
        def __hash__(self):
            if self.s and flag[0]:
                d.clear()
            return 1
        def __eq__(self, o):
            return False
    d[K(True)] = [1, 2]
    flag[0] = True
    return d, K
d, K = fresh()
try:
    print(d[K(False)])
except KeyError:
    print('KeyError')
d, K = fresh()
print(len(set(d)))
d, K = fresh()
e = {}
e.update(d)
print(len(e), list(e.values()))
d, K = fresh()
print(len(dict(d)))
""",
    "__eq__ that frees the containers being compared: ==, <, index, remove, count, in, views, dicts (review s7 #3)": r"""
l = []
class K:
    def __eq__(self, o):
        l.clear()
        return True
l.append([K(), 1])
print(l == [[K(), 1]])
l.append((K(), 1))
print(l.index((K(), 1)), l)
l.append(K())
l.remove(K())
print(l)
l.extend([K(), 2])
print(l.count(K()), l)
l.extend([[K(), 1], 2])
print(l < [[K(), 1], 3], l)
l.extend([(K(), 1)])
print((K(), 1) in l, l)
s = set()
class H:
    def __hash__(self):
        return 0
    def __eq__(self, o):
        s.clear()
        return False
s.add(H())
s.add(5)
print(s == {1: 0, 2: 0}.keys())
d = {}
class D:
    def __hash__(self):
        return 1
    def __eq__(self, o):
        d.clear()
        return True
d[D()] = [1]
print({D(): [1]} == d)
d[D()] = [1]
print(d == {D(): [1]}, d)
""",
    "nested __eq__ comparisons count toward one recursion limit (review s7 #5)": r"""
class A:
    def __init__(self):
        l = [self]
        for i in range(990):
            l = [l]
        self.l = l
    def __eq__(self, o):
        return self.l == o.l
    __hash__ = None
try:
    print(A() == A())
except RecursionError as e:
    print('RecursionError', isinstance(e, RuntimeError))
try:
    print(A() in [A()])
except RecursionError:
    print('RecursionError in')
try:
    print([A()].index(A()))
except RecursionError:
    print('RecursionError index')
a = [1, [2, [3]]]
print(a == [1, [2, [3]]])
""",
    "a student's container and iterator classes (issue 24: attn said 'D' object is not subscriptable / not iterable): __getitem__, __setitem__, __delitem__, __contains__, __iter__ returning self or an iterator, __next__ with StopIteration, the sequence iterator over __getitem__ (until IndexError), in for, list, next, zip, dict, max, unpacking and comprehensions, with CPython's errors": r"""
class D:
    def __init__(self): self.d = {}
    def __getitem__(self, i):
        if i >= 3: raise IndexError(i)
        return i * 10
    def __setitem__(self, k, v): self.d[k] = v
    def __delitem__(self, k): del self.d[k]
    def __len__(self): return 3
    def __contains__(self, x): return x == 7
d = D()
d["a"] = 5
print(d[1], d.d, len(d), 7 in d, 3 in d, 7 not in d)
del d["a"]
print(d.d, list(d), [x + 1 for x in d], tuple(d), sum(d), sorted(d, reverse=True))
for i, x in enumerate(d): print(i, x)
a, b, c = d
print(a, b, c, list(zip(d, "xyz")), list(map(str, d)))
try: del d["zz"]
except KeyError as e: print("KeyError")
try: d[5]
except IndexError as e: print("IndexError", e)
class A:
    def __iter__(self): return 5
try: list(A())
except TypeError as e: print("TypeError", e)
class N:
    def __next__(self): return 1
try:
    for x in N(): pass
except TypeError as e: print("TypeError", e)
print(next(N()))
class G:
    def __getitem__(self, i):
        if i == 2: raise KeyError("k")
        return i
try: print(list(G()))
except KeyError as e: print("KeyError", e)
it = iter(G())
print(type(it).__name__, next(it), next(it))
class C:
    def __contains__(self, x): return [1] if x else []
print(1 in C(), 0 in C(), 0 not in C())
class Sq:
    def __init__(self): self.n = 0
    def __iter__(self): return self
    def __next__(self):
        self.n += 1
        if self.n > 3: raise StopIteration
        return self.n
s = Sq()
print(list(s), list(s), 2 in Sq(), max(Sq()), dict(zip(Sq(), "abc")))
a, b, c = Sq()
print(a, b, c)
print([(x, y) for x in Sq() for y in Sq() if x < y])
try: next(iter([]))
except StopIteration as e: print("stop", repr(e), e.args)
""",
    "a student's __getattr__ (for what is not found; its AttributeError in hasattr/getattr with a default), __setattr__ with super().__setattr__ (an nn.Module's too), __abs__, __int__/__float__/__index__ in int() and float() with CPython's errors, __format__ in f-strings, format() and str.format (issue 24: attn ignored all of them)": r"""
class G:
    def __init__(self): self.a = 1
    def __getattr__(self, n):
        if n == "bad": raise AttributeError("no " + n)
        return "missing:" + n
g = G()
print(g.a, g.zz, getattr(g, "q"), hasattr(g, "bad"), getattr(g, "bad", 7))
class S:
    def __init__(self): self.q = 1
    def __setattr__(self, n, v):
        print("set", n, v)
        super().__setattr__(n, v * 2)
s = S(); s.q = 4; print(s.q, s.__dict__)
class S2(object):
    def __setattr__(self, n, v): object.__setattr__(self, n, [v])
s = S2(); s.q = 4; print(s.q, S2.__mro__, isinstance(s, object))
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
    def __setattr__(self, n, v):
        super().__setattr__(n, v)
    def forward(self, x): return self.lin(x)
m = M()
print(m, [n for n, _ in m.named_parameters()])
class V:
    def __abs__(self): return 5
    def __int__(self): return 3
    def __float__(self): return 2.5
print(abs(V()), int(V()), float(V()))
class I:
    def __index__(self): return 4
print(int(I()), float(I()))
class B:
    def __int__(self): return 2.5
try: int(B())
except TypeError as e: print("TypeError", e)
class D:
    def __format__(self, spec): return "F" + spec
print(f"{D()}|{D():>5}", format(D()), format(D(), "x"), "{}|{:x}".format(D(), D()))
class BadF:
    def __format__(self, spec): return 3
try: f"{BadF()}"
except TypeError as e: print("TypeError", e)
class BadFl:
    def __float__(self): return 1
try: float(BadFl())
except TypeError as e: print("TypeError", e)
""",
    "a student's __index__ in list, tuple and string indices and slices, item assignment and deletion, range() and int(), with CPython's TypeError for a non-int result (issue 24)": r"""
class V:
    def __init__(self, x): self.x = x
    def __index__(self): return self.x
L = [10, 20, 30]
print(L[V(1)], L[V(-1)], "abc"[V(2)], (1, 2)[V(0)], list(range(V(3))), L[V(0):V(2)])
L[V(0)] = 5
del L[V(1)]
print(L, [0] * V(2) if False else "", int(V(4)))
class B:
    def __index__(self): return "no"
try: L[B()]
except TypeError as e: print("TypeError", e)
try: range(B())
except TypeError as e: print("TypeError", e)
try: L[V(10)]
except IndexError as e: print("IndexError")
""",
    "rich comparisons and arithmetic: NotImplemented, reflected operands, subclass first, __ne__ from __eq__": r"""
class A:
    def __init__(self, v): self.v = v
    def __lt__(self, o): return self.v < o.v if isinstance(o, A) else NotImplemented
    def __eq__(self, o):
        print('A.eq', type(o).__name__)
        return self.v == o.v if isinstance(o, A) else NotImplemented
    def __add__(self, o): return A(self.v + o.v) if isinstance(o, A) else NotImplemented
    def __radd__(self, o): return A(o + self.v)
    def __repr__(self): return f"A({self.v})"
class B(A):
    def __gt__(self, o):
        print('B.gt'); return True
    def __radd__(self, o):
        print('B.radd'); return 'B'
class C:
    pass
print(A(1) < A(2), A(1) > A(2), A(1) == A(1), A(1) != A(2), A(1) != 3, A(1) == 'x')
print(A(1) + A(2), 1 + A(2), sum([A(1), A(2)]))
print(NotImplemented, repr(NotImplemented), type(NotImplemented).__name__ if False else '')
print(sorted([A(3), A(1)]), max(A(3), A(5)))
print(A(1) < B(2), A(1) + B(3))
c = C()
print(c == c, c != c, c == C(), c != C())
for f in [lambda: A(1) < C(), lambda: C() <= C(), lambda: C() > 1, lambda: A(1) + 'x', lambda: C() ** 2, lambda: -C(), lambda: 1 >= A(1)]:
    try:
        print(f())
    except TypeError as e:
        print('TypeError', e)
class N:
    def __eq__(self, o): return 'yes'
    def __ne__(self, o): return NotImplemented
    def __neg__(self): return 'neg'
    def __iadd__(self, o): return 'iadd'
n = N()
print(n == 1, 1 == n, n != 1, -n, [n] == [1])
n += 3
print(n)
class V:
    def __init__(self, x): self.x = x
    def __mul__(self, k): return V(self.x * k)
    __rmul__ = __mul__
    def __sub__(self, o): return V(self.x - o.x)
    def __repr__(self): return f'V({self.x})'
v = V(2)
v *= 3
print(v, 2 * V(5), V(5) - V(1), V(1) * 2.5)
class T:
    def __init__(self, n): self.n = n
    def __eq__(self, o): print(self.n + '.eq'); return NotImplemented
    def __lt__(self, o): print(self.n + '.lt'); return NotImplemented
    def __gt__(self, o): print(self.n + '.gt'); return NotImplemented
    def __le__(self, o): print(self.n + '.le'); return NotImplemented
    def __ge__(self, o): print(self.n + '.ge'); return NotImplemented
    def __add__(self, o): print(self.n + '.add'); return NotImplemented
    def __radd__(self, o): print(self.n + '.radd'); return NotImplemented
class U(T):
    def __radd__(self, o): print(self.n + '.U.radd'); return NotImplemented
x, y, u = T('x'), T('y'), U('u')
for f in [lambda: x < y, lambda: x <= u, lambda: u >= x, lambda: x + y, lambda: x + u, lambda: u + x, lambda: 1 + x, lambda: x + 1]:
    try:
        print(f())
    except TypeError as e:
        print('TypeError', e)
print(x == y, x != y, x == x, x != x, u == x, [x] == [x], [x] == [y], x in [y], x in [x], (x, 1) < (x, 2))
""",
    "math functions and float()/int() given a tensor (its __float__), Python's errors": r"""
import math
import torch
t = torch.tensor(4.)
print(math.sqrt(t), math.exp(torch.tensor([0.5])), math.log(torch.tensor(2.0, dtype=torch.float64)), math.sin(t), math.cos(t))
print(math.floor(torch.tensor(2.7)), math.ceil(torch.tensor([2.2])), math.pow(t, 2), math.pow(2, torch.tensor(3)), math.sqrt(torch.tensor(9)))
print(float(t), float(torch.tensor([7])), int(torch.tensor(-2.9)), int(torch.tensor([5])), int(torch.tensor(True)), float(torch.tensor(False)))
print(type(math.sqrt(t)).__name__, type(math.floor(torch.tensor(2.7))).__name__, math.floor(torch.tensor(3)), math.log(torch.tensor(8.), 2), math.log10(torch.tensor(100.)))
for f in [lambda: math.sqrt(torch.tensor([1., 2.])), lambda: float(torch.ones(2, 2)), lambda: int(torch.zeros(3)), lambda: math.exp(torch.tensor([])), lambda: math.floor(torch.ones(2)), lambda: math.pow(torch.ones(2), 2),
          lambda: math.sqrt(torch.tensor(-1.)), lambda: math.log(torch.tensor(0.)), lambda: int(torch.tensor(float('nan'))), lambda: math.sqrt('x'), lambda: math.tanh(torch.ones(3))]:
    try:
        print(f())
    except (TypeError, ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
print(math.sqrt(2), math.exp(1), math.log(8, 2), math.log(100, 10), math.floor(-2.5), math.ceil(-2.5), math.floor(True), math.pow(2, 0.5), math.pow(-8, 1/3) if False else 0)
for f in [lambda: math.sqrt(), lambda: math.log(), lambda: math.log(1, 2, 3), lambda: math.pow(1), lambda: math.pow(0, -1), lambda: math.pow(10, 400), lambda: math.floor(float('inf')), lambda: math.floor(float('nan')), lambda: math.sin(float('inf')), lambda: math.exp(float('inf')), lambda: math.log(0.0), lambda: math.sqrt([1]), lambda: math.sqrt(None), lambda: math.log(8, 1), lambda: int(float('inf')), lambda: float([1])]:
    try:
        print(f())
    except (TypeError, ValueError, OverflowError, ZeroDivisionError) as e:
        print(type(e).__name__, e)
""",
    "dict views are live: len, in, ==, set operators, iteration that changes the size (RuntimeError)": r"""
d = {'a': 1, 'b': 2}
k, v, it = d.keys(), d.values(), d.items()
d['x'] = 1
print(k, len(k), 'x' in k, v, it, ('x', 1) in it, ('x', 2) in it, list(k), sorted(v), bool(k))
del d['a']
d['b'] = 5
print(k, v, it, len(v), k == {'b', 'x'}, {'b', 'x'} == k, it == {('b', 5), ('x', 1)}, sorted(k | {'z'}), k & {'b'}, k - {'b'})
d.clear()
print(k, bool(k), len(it), list(it))
d = {1: 1, 2: 2}
for name, obj in [('dict', d), ('keys', d.keys()), ('values', d.values()), ('items', d.items())]:
    try:
        for x in obj:
            d[len(d) + 10] = 0
    except RuntimeError as e:
        print(name, 'RuntimeError', e)
d = {1: 1, 2: 2}
try:
    for x in d.keys():
        del d[x]
except RuntimeError as e:
    print('RuntimeError', e, d)
d = {1: 1, 2: 2}
for x in d.keys():
    d[x] = 10          # same size: fine
print(d)
d = {'a': 1}
k = d.keys()
it = iter(k)
d['b'] = 2
try:
    next(it)
except RuntimeError as e:
    print('RuntimeError', e)
e = {}
kv = e.values()
for i in range(5): e[i] = i * i
print(kv, max(e.values()), sum(kv), list(reversed(e.keys())), list(zip(e.keys(), kv)))
ks = d.keys()
d['self'] = ks
print(d)
""",
    "dict views are their own kind (issue 28): the exception types of what they refuse (+, +=, [i], [i] = x, del, *, hash, < with a list, unary -), the comparisons and isdisjoint of keys and items views, their iterators' types, a view in unpacking, star-arguments, list +=, slice assignment, dict.update": r"""
def attempt(what, fn):
    try:
        print(what, repr(fn()))
    except Exception as e:
        print(what, '->', type(e).__name__, str(e).split(' (')[0])
def iadd(x, y):
    x += y
    return x
def ior(x, y):
    x |= y
    return x
def setitem(x, i, y):
    x[i] = y
def delitem(x, i):
    del x[i]
def unpack(k, it):
    a, b = k
    (x, y), z = it
    return a, b, x, y, z
def sliceassign(it):
    l = [0, 0, 0]
    l[1:] = it
    return l
def changes(view_of, change):
    dd = {1: 1, 2: 2}
    for x in view_of(dd):
        change(dd)
d = {1: 'a', 2: 'b'}
k, v, it = d.keys(), d.values(), d.items()
attempt('k + [2]', lambda: k + [2])
attempt('[2] + k', lambda: [2] + k)
attempt('(2,) + k', lambda: (2,) + k)
attempt('k += [3]', lambda: iadd(d.keys(), [3]))
attempt('v += [3]', lambda: iadd(d.values(), [3]))
attempt('k |= {3}', lambda: ior(d.keys(), {3}))
attempt('l += v', lambda: iadd([0], v))
attempt('k[0] = 5', lambda: setitem(k, 0, 5))
attempt('del k[0]', lambda: delitem(k, 0))
attempt('k[0]', lambda: k[0])
attempt('v[-1]', lambda: v[-1])
attempt('it[0:1]', lambda: it[0:1])
attempt('k * 2', lambda: k * 2)
attempt('hash(k)', lambda: hash(k))
attempt('hash(v)', lambda: hash(v) == hash(v))
attempt('hash(it)', lambda: hash(it))
attempt('{k}', lambda: {k})
attempt('-k', lambda: -k)
attempt('k < {1, 2, 3}', lambda: k < {1, 2, 3})
attempt('k <= {1, 2}', lambda: k <= {1, 2})
attempt('k > {1}', lambda: k > {1})
attempt('k >= {1, 5}', lambda: k >= {1, 5})
attempt('{1} < k', lambda: {1} < k)
attempt('frozenset({1, 2}) >= k', lambda: frozenset({1, 2}) >= k)
attempt('it <= {(1, "a"), (2, "b")}', lambda: it <= {(1, 'a'), (2, 'b')})
attempt('it < it', lambda: it < d.items())
attempt('k < [1, 2, 3]', lambda: k < [1, 2, 3])
attempt('v < v', lambda: v < v)
attempt('k.isdisjoint({3})', lambda: k.isdisjoint({3}))
attempt('k.isdisjoint([1])', lambda: k.isdisjoint([1]))
attempt('it.isdisjoint([(1, "a")])', lambda: it.isdisjoint([(1, 'a')]))
attempt('v.isdisjoint', lambda: v.isdisjoint([1]))
attempt('k.append', lambda: k.append(3))
attempt('list.append(k, 1)', lambda: list.append(k, 1))
attempt('isinstance', lambda: (isinstance(k, list), isinstance(v, tuple), isinstance(it, set)))
attempt('iterators', lambda: [type(f(x)).__name__ for f in (iter, reversed) for x in (k, v, it)])
attempt('unpack', lambda: unpack(k, it))
attempt('star', lambda: (lambda *a: a)(*k, *v))
attempt('slice assign', lambda: sliceassign(it))
attempt('dict(it)', lambda: dict(it))
attempt('k == [1, 2]', lambda: (k == [1, 2], v == v, v == d.values(), k == d.keys(), it == d.items(), k != {1, 2}))
attempt('k(1)', lambda: k(1))
attempt('items changes', lambda: changes(lambda dd: dd.items(), lambda dd: dd.update({5: 5})))
attempt('values changes', lambda: changes(lambda dd: dd.values(), lambda dd: dd.pop(1)))
attempt('keys changes', lambda: changes(lambda dd: reversed(dd.keys()), lambda dd: dd.setdefault(9, 9)))
attempt('values same size', lambda: changes(lambda dd: dd.values(), lambda dd: dd.update({1: 7})))
e = {}
e['self'] = e.values()
e['keys'] = e.keys()
e['items'] = e.items()
print(e)
class R:
    def __repr__(self):
        f.clear()
        return 'R'
f = {1: R(), 2: R()}
print(f.values(), f.items())
""",
    "view.mapping is a read-only mappingproxy of the live dict: repr/str, [], len, in, iteration, keys/values/items/get/copy, TypeError on item assignment": r"""
d = {1: 'a', 2: 'b'}
m = d.keys().mapping
print(m, repr(m), type(m).__name__, len(m), m[2], 1 in m, 5 in m, list(m), m.get(3, 'z'), sorted(m.items()), m.copy(), d.values().mapping[1], repr(d.items().mapping), [m])
d[3] = 'c'
print(m, list(m.keys()), list(m.values()))
try:
    m[1] = 'x'
except TypeError as e: print('TypeError', e)
try:
    m.pop(1)
except AttributeError as e: print('AttributeError', e)
try:
    m[9]
except KeyError as e: print('KeyError')
""",
    "a student's __repr__/__str__ that raises (or returns a non-string) raises through print, str, repr, ascii, f-strings, format and %, inside lists, tuples, dicts, sets, views and exceptions (issue 28: attn printed a placeholder); the first failure stops the repr; a repr caught inside a __repr__ goes on": r"""
class A:
    def __repr__(self):
        raise ValueError('bad repr')
class S:
    def __str__(self):
        raise KeyError('bad str')
    def __repr__(self):
        print('repr ran')
        return 'S()'
class N:
    def __repr__(self):
        return 5
class Count:
    n = 0
    def __repr__(self):
        Count.n += 1
        raise ValueError('count')
class Inner:
    def __repr__(self):
        try:
            return repr([A()])
        except ValueError as e:
            return 'caught ' + str(e)
class Outer:
    def __repr__(self):
        return 'Outer(' + repr(A()) + ')'
def attempt(what, fn):
    try:
        print(what, fn())
    except Exception as e:
        print(what, '->', type(e).__name__, e)
attempt('f-string list', lambda: f"{[A()]}")
attempt('f-string !r', lambda: f"{A()!r}")
attempt('f-string', lambda: f"{A()}")
attempt('f-string spec', lambda: f"{[A()]!s:>5}")
attempt('repr', lambda: repr(A()))
attempt('str list', lambda: str([1, (A(),)]))
attempt('str dict', lambda: str({1: A()}))
attempt('str dict key', lambda: str({A(): 1}))
attempt('str set', lambda: str({A()}))
attempt('ascii', lambda: ascii([A()]))
attempt('str S', lambda: str(S()))
attempt('str [S]', lambda: str([S()]))
attempt('format', lambda: '{}'.format(S()))
attempt('format !r', lambda: '{!r}'.format([A()]))
attempt('percent', lambda: '%s' % (S(),))
attempt('percent r', lambda: '%r' % (A(),))
attempt('print', lambda: print('x', A()))
attempt('print S', lambda: print(S()))
attempt('non-string', lambda: repr(N()))
attempt('non-string in list', lambda: str([N()]))
attempt('stops at first', lambda: repr([Count(), Count(), Count()]))
print(Count.n)
attempt('inner caught', lambda: repr(Inner()))
attempt('outer', lambda: repr(Outer()))
attempt('dict view', lambda: str({1: A()}.values()))
attempt('tuple', lambda: str((1, A())))
attempt('exception arg', lambda: str(ValueError(A())))
attempt('exception repr', lambda: repr(ValueError(A())))
print('still fine', [1, 2], repr(S()))
class B:
    def __repr__(self):
        try:
            {}[A()]
        except KeyError:
            return 'B-caught'
        return 'B'
print([B(), 1], f"{B()}", str((B(),)))
""",
    "a student's __repr__ that clears the dict or set being printed (a key's, a value's): attn read the freed items (heap-use-after-free under ASan); CPython holds each key and value, and lists a set first": r"""
class K:
    def __repr__(self):
        d.clear()
        return 'K'
d = {K(): [1, 2], 3: 4}
print(d)
class V:
    def __repr__(self):
        e.clear()
        return 'V'
e = {1: V(), 2: [5]}
print(e, repr(e), str(e), f'{e}')
class S:
    def __repr__(self):
        s.clear()
        s.update(range(100))
        return 'S'
s = {S(), S(), S()}
print(s, len(s))
s = frozenset({S()}) if False else {S()}
print([s], (s,))
f = {1: {K(): 'x'}}
d = f[1]
print(f)
""",
    "a __repr__ that raises, caught inside another __repr__ (list.index's message, raise KeyError(obj)), stops nothing: attn printed [B, , 1] and let the caught repr's error escape through raise": r"""
class A:
    def __repr__(self): raise ValueError('x')
class C:
    def __repr__(self): return 'C'
class B:
    def __repr__(self):
        try: [].index(A())
        except ValueError: pass
        return 'B'
print([B(), C(), 1], str((B(), C())), f'{[B(), C()]}')
class B3:
    def __repr__(self):
        try: raise KeyError(A())
        except KeyError: pass
        return 'B3'
print([B3(), C(), 3])
try:
    raise ValueError(A())
except ValueError as e: print('caught', len(e.args))
""",
    "dir() of an instance whose class defines __dir__: its names, sorted, duplicates kept; its error raised; a non-iterable is Python's TypeError; inherited (issue 28: attn listed its own names and never ran __dir__)": r"""
class D:
    def __init__(self): self.z = 1
    def __dir__(self): return ['b', 'a', 'b']
print(dir(D()))
class E:
    def __dir__(self): raise KeyError('no dir')
try: dir(E())
except KeyError as e: print('KeyError', e)
class G:
    def __dir__(self): return 5
try: dir(G())
except TypeError as e: print('TypeError', e)
class H:
    def __dir__(self): return ('y', 'x')
class J(D): pass
print(dir(H()), dir(J()), '__dir__' in dir(D))
""",
    "error messages that show a value with a student's __repr__ that raises: PyTorch's f-string messages (calculate_gain, reduction=) raise its error, list.index's %R a ValueError without arguments, a KeyError keeps the key (issue 28: attn put a placeholder, '<A object: its __repr__ failed: x>', into the message)": r"""
import torch
from torch import nn
import torch.nn.functional as F
class A:
    def __repr__(self): raise ValueError('bad repr')
tries = [lambda: nn.init.calculate_gain('leaky_relu', A()),
         lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), reduction=A()),
         lambda: F.mse_loss(torch.zeros(2), torch.zeros(2), reduction=A()),
         lambda: [1, 2].index(A()),
         lambda: torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.zeros(2)), batch_size=A()),
         lambda: torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.zeros(2)), batch_size='a')]
for f in tries:
    try:
        f()
    except ValueError as e:
        print('ValueError', e.args)
try:
    {1}.remove(A())
except KeyError as e:
    print('KeyError', type(e.args[0]).__name__)
""",
    "str(), print, f-strings, % and format of an object whose __repr__ (its only text method) returns a non-string: Python's TypeError names __str__ (CPython's object_str), repr() and containers name __repr__": r"""
class F:
    def __repr__(self): return 5
class G:
    def __str__(self): return 6
for f in [lambda: str(F()), lambda: repr(F()), lambda: print(F()), lambda: f"{F()}", lambda: f"{F()!r}", lambda: str([F()]), lambda: '%s' % F(), lambda: '{}'.format(F()), lambda: str(G()), lambda: repr(G()).startswith('<__main__.G object at'), lambda: format(F(), '')]:
    try:
        print(f())
    except TypeError as e:
        print('TypeError', e)
""",
    "a dict stores each key's hash: __hash__/__eq__ calls counted against CPython's (insert, grow, look up, views)": r"""
calls = {'hash': 0, 'eq': 0}
class K:
    def __init__(self, v): self.v = v
    def __hash__(self):
        calls['hash'] += 1
        return self.v % 7
    def __eq__(self, o):
        calls['eq'] += 1
        return isinstance(o, K) and self.v == o.v
    def __repr__(self): return f'K({self.v})'
def step(what):
    print(what, calls['hash'], calls['eq'])
    calls['hash'] = calls['eq'] = 0
keys = [K(i) for i in range(40)]
d = {}
for k in keys: d[k] = k.v
step('insert 40 (the dict grows)')
print(d[keys[5]], keys[30] in d, K(3) in d, K(99) in d)
step('lookups')
d[keys[5]] = 'five'
step('replace')
print(d.get(K(12)), d.setdefault(K(12), 0), d.setdefault(K(100), 'new'), d.pop(K(100)))
step('get, setdefault, pop')
s = set(keys)
step('set(keys)')
print(d.keys() == s, s == d.keys(), d.keys() == set(keys[:39]) | {K(1000)})
step('keys view == set')
print(len(d.keys() & s), len(d.keys() | s), len(d.keys() - s), len(s - d.keys()), len(d.keys() ^ s))
step('set operations on views')
e = dict(d)
step('dict(d)')
e.update(d)
step('update(d)')
print(e == d)
step('dict == dict')
print(set(d) == s)
step('set(d)')
del d[keys[0]]
step('del')
print(len({K(i): i for i in range(200)}))
step('comprehension of 200')
""",
    "set operators on dict views: __hash__/__eq__ calls counted against CPython's": r"""
calls = {'hash': 0, 'eq': 0}
class K:
    def __init__(self, v): self.v = v
    def __hash__(self):
        calls['hash'] += 1
        return self.v % 7
    def __eq__(self, o):
        calls['eq'] += 1
        return isinstance(o, K) and self.v == o.v
def step(what):
    print(what, calls['hash'], calls['eq'])
    calls['hash'] = calls['eq'] = 0
keys = [K(i) for i in range(40)]
d = {k: 1 for k in keys}
s = set(keys)
s2 = set(keys[:20])
step('setup')
for name, f in [('&', lambda: d.keys() & s), ('|', lambda: d.keys() | s), ('-', lambda: d.keys() - s), ('r-', lambda: s - d.keys()), ('^', lambda: d.keys() ^ s),
                ('& small', lambda: d.keys() & s2), ('r& small', lambda: s2 & d.keys()), ('| small', lambda: s2 | d.keys()), ('- small', lambda: d.keys() - s2), ('^ small', lambda: s2 ^ d.keys()),
                ('k&k', lambda: d.keys() & d.keys()), ('k|list', lambda: d.keys() | keys[:5]), ('items&', lambda: d.items() & {(keys[0], 1)})]:
    r = f()
    step(name + ' ' + str(len(r) if not isinstance(r, bool) else r))
""",
    "tensor errors have PyTorch's classes (RuntimeError, IndexError, TypeError, ValueError): the common ones of §11.6's code": r"""
import torch
from torch import nn
import torch.nn.functional as F
X = torch.ones(2, 3)
Y = torch.ones(4, 5)
def exec_set(i):
    X[i] = 1.0
def two(a, b):
    return a + b
cases = [
    ("matmul", lambda: torch.matmul(X, Y)),
    ("@", lambda: X @ Y),
    ("mm", lambda: torch.mm(X, Y)),
    ("bmm shapes", lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(2, 5, 6))),
    ("bmm 2d", lambda: torch.bmm(X, Y)),
    ("bmm batch", lambda: torch.bmm(torch.ones(2, 3, 4), torch.ones(3, 4, 6))),
    ("reshape", lambda: X.reshape(4, 2)),
    ("reshape two -1", lambda: X.reshape(-1, -1)),
    ("view", lambda: X.view(5)),
    ("view noncontig", lambda: X.t().view(6)),
    ("cat shapes", lambda: torch.cat([X, Y], dim=0)),
    ("cat dim", lambda: torch.cat([X, X], dim=2)),
    ("cat empty", lambda: torch.cat([])),
    ("stack", lambda: torch.stack([X, Y])),
    ("softmax dim", lambda: torch.softmax(X, dim=2)),
    ("F.softmax dim", lambda: F.softmax(X, dim=-3)),
    ("X.softmax", lambda: X.softmax(5)),
    ("masked_fill shape", lambda: X.masked_fill(torch.ones(4, dtype=torch.bool), 0)),
    ("index", lambda: X[5]),
    ("index neg", lambda: X[-3]),
    ("index 2d", lambda: X[0, 7]),
    ("too many idx", lambda: X[0, 0, 0]),
    ("linear", lambda: nn.Linear(4, 2)(X)),
    ("add shapes", lambda: X + Y),
    ("mul shapes", lambda: X * torch.ones(3, 2)),
    ("transpose dim", lambda: X.transpose(0, 2)),
    ("sum dim", lambda: X.sum(dim=3)),
    ("unsqueeze", lambda: X.unsqueeze(4)),
    ("permute", lambda: X.permute(0, 1, 2)),
    ("repeat", lambda: X.repeat(2)),
    ("size dim", lambda: X.size(2)),
    ("shape idx", lambda: X.shape[2]),
    ("tensor ragged", lambda: torch.tensor([[1, 2], [3]])),
    ("tensor str", lambda: torch.tensor('a')),
    ("ones str", lambda: torch.ones('a')),
    ("zeros neg", lambda: torch.zeros(-1)),
    ("arange bad", lambda: torch.arange(0, 10, 0)),
    ("matmul 0d", lambda: torch.matmul(torch.tensor(1.), X)),
    ("matmul dtype", lambda: torch.matmul(X, torch.ones(3, 2, dtype=torch.int64))),
    ("item", lambda: X.item()),
    ("expand", lambda: X.expand(4, 3)),
    ("gather", lambda: torch.gather(X, 1, torch.tensor([[5]]))),
    ("repeat_interleave", lambda: torch.repeat_interleave(X, torch.tensor([1, 2]), dim=0)),
    ("flatten", lambda: X.flatten(3)),
    ("squeeze", lambda: X.squeeze(3)),
    ("split", lambda: X.split(0)),
    ("chunk", lambda: X.chunk(0)),
    ("narrow", lambda: X.narrow(0, 1, 5)),
    ("index_select", lambda: X.index_select(0, torch.tensor([9]))),
    ("layernorm", lambda: nn.LayerNorm(4)(X)),
    ("embedding idx", lambda: nn.Embedding(3, 2)(torch.tensor([5]))),

    ("bool ambiguous", lambda: bool(X)),
    ("sqrt str", lambda: torch.sqrt('a')),
    ("max dim", lambda: X.max(dim=4)),
    ("argmax dim", lambda: X.argmax(dim=4)),
    ("mean int", lambda: torch.ones(2, dtype=torch.int64).mean()),
    ("to bad", lambda: X.to('xyz')),
    ("setitem index", lambda: X.__setitem__(5, 1.0) if False else exec_set(5)),
    ("setitem dim", lambda: exec_set((0, 9))),
    ("if X", lambda: 1 if X else 0),
    ("not X", lambda: not X),
    ("any filter", lambda: list(filter(None, [X]))),
    ("def too many", lambda: two(1, 2, 3)),
    ("def missing", lambda: two(1)),
    ("def kw twice", lambda: two(1, a=2)),
    ("** not dict", lambda: two(**[1])),
]
for name, f in cases:
    try:
        r = f()
        print(name, 'OK')
    except Exception as e:
        print(name, type(e).__name__)
""",
    "common mistakes raise Python's class with Python's words (attn raised a plain Exception): setting an attribute of a built-in value is AttributeError, a format spec a value's type has no use for is TypeError (f\"{d.keys():>30}\"), bad index, slice and operand types, wrong argument counts; l += iterable extends l in place": r"""
def t(name, f):
    try:
        print(name, 'OK', f())
    except Exception as e:
        print(name, type(e).__name__, e)
def setter(obj):
    def f():
        obj.x = 1
    return f
for v in ([], (1,), 'a', 1, 1.5, {}, set(), None, range(3), {1: 2}.keys(), len):
    t('set attr of ' + type(v).__name__, setter(v))
t('setattr', lambda: setattr(1, 'x', 1))
for cls in (int, list, str, dict, ValueError):
    t('set attr of ' + cls.__name__, setter(cls))
def iadd(b):
    l = [1]
    m = l
    l += b
    return l, m is l and m == l
for b in ([2], (1, 2), range(3), 'ab', {5: 1}, {5: 1}.keys(), {7}, iter([8, 9])):
    t('l += ' + type(b).__name__, lambda: iadd(b))
def self_add():
    l = [1, 2]
    l += l
    return l
t('l += l', self_add)
t('l += 5', lambda: iadd(5))
d = {'a': 1}
for v, spec in ((d.keys(), '>30'), ([1], '>30'), (None, '>9'), ((1, 2), '>9'), ({1}, '>9'), (d, ''), ([1], 's'), (1, 'q'), (1.5, 'd'), ('a', 'd'), ('a', '>3'), (True, '>6')):
    t('format ' + type(v).__name__ + ' ' + spec, lambda: format(v, spec))
t('f-string', lambda: f"{d.keys():>30}")
t('str.format', lambda: '{:>5}'.format([1]))
def seta(l, i, v):
    l[i] = v
def seta_slice(l, v, step):
    if step == 1: l[0:1] = v
    else: l[::step] = v
cases = [
    ('list["a"]', lambda: [1]['a']), ('list[1.0]', lambda: [1][1.0]), ('str["x"]', lambda: 'a'['x']), ('tuple[None]', lambda: (1,)[None]),
    ('l["a"] =', lambda: seta([1], 'a', 1)), ('l[0:1] = 5', lambda: seta_slice([1, 2], 5, 1)), ('l[::2] = [1]', lambda: seta_slice([1, 2, 3], [1], 2)), ('l[::2] = 5', lambda: seta_slice([1, 2, 3], 5, 2)),
    ('[1][::0]', lambda: [1][::0]), ('1 in "a"', lambda: 1 in 'a'), ('1 in 5', lambda: 1 in 5), ('"%d" % "a"', lambda: '%d' % 'a'),
    ('"a" + 1', lambda: 'a' + 1), ('[1] * "a"', lambda: [1] * 'a'), ('"a" * 1.5', lambda: 'a' * 1.5), ('2.0 * ()', lambda: 2.0 * ()),
    ('1 < "a"', lambda: 1 < 'a'), ('[] < ()', lambda: [] < ()), ('None < None', lambda: None < None),
    ('1 // 0', lambda: 1 // 0), ('1 % 0', lambda: 1 % 0), ('1.5 % 0', lambda: 1.5 % 0), ('1.5 // 0', lambda: 1.5 // 0), ('0 ** -1', lambda: 0 ** -1), ('0.0 ** -1', lambda: 0.0 ** -1),
    ('1 << -1', lambda: 1 << -1), ('1 >> -1', lambda: 1 >> -1), ('1 @ 2', lambda: 1 @ 2),
    ('len()', lambda: len()), ('abs("a")', lambda: abs('a')), ('round("a")', lambda: round('a')), ('next([])', lambda: next([])),
    ('max([])', lambda: max([])), ('min()', lambda: min()), ('chr(-1)', lambda: chr(-1)), ('ord("ab")', lambda: ord('ab')),
    ('"-".join([1])', lambda: '-'.join([1])), ('[].remove(1)', lambda: [].remove(1)), ('"a".index("b")', lambda: 'a'.index('b')),
    ('[].append()', lambda: [].append()), ('[].append(1, 2)', lambda: [].append(1, 2)), ('[].extend()', lambda: [].extend()),
    ('int("1", 1)', lambda: int('1', 1)), ('dict([1])', lambda: dict([1])), ('dict([(1, 2, 3)])', lambda: dict([(1, 2, 3)])), ('isinstance(1, 1)', lambda: isinstance(1, 1)),
]
for name, f in cases:
    t(name, f)
def unpack():
    a, b = 1
class A:
    pass
t('a, b = 1', unpack)
t('A(1)', lambda: A(1))
more = [
    ('{}.pop()', lambda: {}.pop()), ('[].insert(1)', lambda: [].insert(1)), ('"a".split(1)', lambda: 'a'.split(1)), ('"a".split("")', lambda: 'a'.split('')),
    ('"a".startswith(1)', lambda: 'a'.startswith(1)), ('"a".find(1)', lambda: 'a'.find(1)), ('"%s %s" % (1,)', lambda: '%s %s' % (1,)), ('"%s" % (1, 2)', lambda: '%s' % (1, 2)),
    ('range(1, 2, 0)', lambda: range(1, 2, 0)), ('range()', lambda: range()), ('sum(["a"], "")', lambda: sum(['a'], '')), ('reversed(5)', lambda: reversed(5)),
    ('getattr(1, 2)', lambda: getattr(1, 2)), ('hash()', lambda: hash()), ('repr()', lambda: repr()), ('print(sep=1)', lambda: print(1, sep=1)), ('iter()', lambda: iter()),
    ('ord(1)', lambda: ord(1)), ('{}.get()', lambda: {}.get()), ('{}.items(1)', lambda: {}.items(1)), ('set().add()', lambda: set().add()),
    ('round(inf)', lambda: round(float('inf'))), ('round(nan)', lambda: round(float('nan'))), ('2.0 ** 10000', lambda: 2.0 ** 10000), ('(1,).index(2)', lambda: (1,).index(2)),
]
for name, f in more:
    t(name, f)
for name, f in [('"a".center()', lambda: 'a'.center()), ('"a".count()', lambda: 'a'.count()), ('"a".replace(1, 2)', lambda: 'a'.replace(1, 2)), ('"%z" % 1', lambda: '%z' % 1),
                ('isinstance()', lambda: isinstance()), ('hasattr(1)', lambda: hasattr(1)), ('divmod()', lambda: divmod()), ('filter()', lambda: filter()), ('next()', lambda: next())]:
    try:
        f()
    except Exception as e:
        print(name, type(e).__name__)
""",
    "one error channel for == and hash (issue 28): a student's __eq__ or __hash__ that raises inside in, list.index/count/remove, dict and set lookups, set operators and == of containers raises as in Python; a dict view compared while its dict changes size is RuntimeError (attn said False); values nested too deep to compare are RecursionError": r"""
class E:
    def __eq__(self, o): raise ValueError("eq boom")
    def __hash__(self): return 1
class H:
    def __hash__(self): raise KeyError("hash boom")
def t(name, f):
    try:
        r = f()
        print(name, 'OK', r)
    except Exception as e:
        print(name, type(e).__name__, e)
a, b = E(), E()
t('in list', lambda: a in [b])
t('in tuple', lambda: a in (1, b))
t('list.index', lambda: [1, b].index(a))
t('list.count', lambda: [b].count(a))
t('list.remove', lambda: [b].remove(a))
t('dict lookup', lambda: {b: 1}[a])
t('dict get', lambda: {b: 1}.get(a))
t('dict in', lambda: a in {b: 1})
t('dict set', lambda: {b: 1, a: 2})
t('set in', lambda: a in {b})
t('set build', lambda: {a, b})
t('set &', lambda: {a} & {b})
t('set |', lambda: len({a} | {b}))
t('set -', lambda: {a} - {b})
t('set ==', lambda: {a} == {b})
t('list ==', lambda: [a] == [b])
t('tuple ==', lambda: (a,) == (b,))
t('dict ==', lambda: {1: a} == {1: b})
t('list !=', lambda: [a] != [b])
t('keys ==', lambda: {a: 1}.keys() == {b: 1}.keys())
t('items ==', lambda: {1: a}.items() == {1: b}.items())
t('values in', lambda: a in {1: b}.values())
t('hash in set', lambda: H() in {1})
t('hash dict', lambda: {H(): 1})
t('hash()', lambda: hash(H()))
t('hash tuple', lambda: hash((1, H())))
t('hash in dict', lambda: H() in {1: 2})
t('set add', lambda: set().add(H()))
t('frozenset', lambda: frozenset([H()]))
t('dict.fromkeys', lambda: dict.fromkeys([H()]))
t('tuple in set', lambda: (1, H()) in {1})
t('list < ', lambda: [a] < [b])
t('max eq', lambda: max([1, 2]))
t('dict pop', lambda: {b: 1}.pop(a))
t('setdefault', lambda: {b: 1}.setdefault(a, 2))
t('set.discard', lambda: {b}.discard(a))
t('issubset', lambda: {a}.issubset({b}))
t('set <=', lambda: {a} <= {b})
d = {i: i for i in range(5)}
class M:
    def __eq__(self, o):
        d[99] = 1
        return False
    def __hash__(self): return 1
def g():
    k = d.keys()
    k2 = {M(): 1, M(): 2}.keys()
    return {1} == d.keys()
t('keys eq', g)
box = [{}]
class G:
    def __init__(self, v): self.v = v
    def __eq__(self, o):
        for i in range(100, 120): box[0][i] = i
        return True
    def __hash__(self): return hash(self.v)
d = {G(1): 1, G(2): 2}
box[0] = d
t('keys == set', lambda: d.keys() == {G(1), G(2)})
d3 = {G(1): 1, G(2): 2}
box[0] = d3
t('set == keys', lambda: {G(1), G(2)} == d3.keys())
e = {1: G(1), 2: G(2)}
box[0] = e
t('items == items', lambda: e.items() == {1: G(1), 2: G(2)}.items())
f = {G(1): 1, G(2): 2}
box[0] = f
t('dict == dict', lambda: f == {G(1): 1, G(2): 2})
f = {G(1): 1, G(2): 2}
box[0] = f
t('keys & set', lambda: len(f.keys() & {G(1), G(2)}))
f = {G(1): 1, G(2): 2}
box[0] = f
t('keys <= set', lambda: f.keys() <= {G(1), G(2)})
f = {1: G(1), 2: G(2)}
box[0] = f
t('G in values', lambda: G(5) in f.values())
box[0] = {}
l = [G(1), G(2)]
t('list ==', lambda: l == [G(1), G(2)])
def nest(n):
    x = []
    for i in range(n):
        x = [x]
    return x
def deep(f):
    try:
        print(f())
    except RecursionError:
        print('RecursionError')
a, b = nest(3000), nest(3000)
deep(lambda: a == b)
deep(lambda: a in [b])
deep(lambda: [b].index(a))
deep(lambda: [b].count(a))
deep(lambda: (1, a) == (1, b))
deep(lambda: {1: a} == {1: b})
deep(lambda: (1, a) in {1: 2, 3: 4}.items())
deep(lambda: [a] < [b])
def tnest(n):
    x = ()
    for i in range(n):
        x = (x,)
    return x
a, b = tnest(3000), tnest(3000)
for f in (lambda: a in {b}, lambda: {a} == {b}, lambda: len({a, b}), lambda: a in {b: 1}, lambda: {a} & {b}):
    deep(f)
""",
    "a KeyError attn raises (d[k], d.pop(k), s.remove(k), '{x}'.format()) carries the key as Python's does: e.args == (k,), str(e) is repr(k) (attn's words 'key 1 is not in the dict' were e.args[0]); a caught IndexError or AttributeError has Python's words, without attn's hints (index 5, length 1; did you mean ...)": r"""
d = {(1, 2): 3}
for f in (lambda: d[(3, 4)], lambda: d.pop('x'), lambda: {1}.remove(2), lambda: '{x}'.format(), lambda: {}[None]):
    try:
        f()
    except KeyError as e:
        print(repr(e), str(e), e.args, type(e.args[0]).__name__)
try:
    raise KeyError('own')
except KeyError as e:
    print(repr(e), e.args)
try:
    d[5]
except LookupError as e:
    print('lookup', e)
def seta(l, i):
    l[i] = 0
for f in (lambda: [1][5], lambda: (1,)[-3], lambda: 'a'[9], lambda: seta([1], 4), lambda: [].pop(), lambda: [].foo, lambda: {}.add(1), lambda: (1).rea):
    try:
        f()
    except (IndexError, AttributeError) as e:
        print(type(e).__name__, e, e.args)
""",
    "__cause__ without from": r"""
try:
    raise ValueError('a')
except ValueError as e:
    print(e.__cause__)
class E(Exception): pass
try:
    raise E('b')
except E as e:
    print(e.__cause__, e.args)
""",
    "sorted and list.sort as Python's (issue 25: they were insertion sorts): numbers, floats, strings and tuples with ties, key=, reverse= keeping equal items in order, runs already in order or reversed, a key called once per item, an error raised by < or by key stops the sort and propagates": """
def lcg(n, seed, m):
    out = []
    for i in range(n):
        seed = (seed * 1103515245 + 12345) % 2147483648
        out.append(seed % m)
    return out
for n in [0, 1, 2, 3, 5, 17, 64, 300, 1000]:
    for m in [3, 50, 10**9]:
        l = lcg(n, n + m, m)
        p = [(x, i) for i, x in enumerate(l)]
        print(n, m, sorted(l)[:12], sorted(l, reverse=True)[:12])
        print([i for x, i in sorted(p, key=lambda t: t[0])][:30])
        print([i for x, i in sorted(p, key=lambda t: t[0], reverse=True)][:30])
        print([i for x, i in sorted(p, key=lambda t: t[0] % 7)][:30], sorted(p, key=lambda t: -t[0])[:5])
        w = [str(x) for x in l]
        w.sort()
        f = [x / 7 - 3 for x in l]
        f.sort(reverse=True)
        print(w[:8], f[:4], sorted(l + list(range(n)))[-8:], sorted(list(range(n)) + list(range(n, 0, -1)))[:9])
calls = []
def k(x):
    calls.append(x)
    return -x
print(sorted([3, 1, 2, 1, 3], key=k), len(calls))
print(sorted(["b", "a", "B", "ab", "é", "e", ""]), sorted([(1, "b"), (1, "a"), (0, "z")]), sorted([2, 1.5, True, -1]))
try:
    sorted([3, 1, "a", 2])
except TypeError as e:
    print("TypeError", "'str' and 'int'" in str(e))
class Boom:
    n = 0
    def __init__(self, v): self.v = v
    def __lt__(self, o):
        Boom.n += 1
        if Boom.n == 40: raise ValueError("boom at 40")
        return self.v < o.v
L = [Boom(x) for x in lcg(100, 7, 1000)]
try:
    L.sort()
except ValueError as e:
    print("ValueError", e, len(L), sorted(b.v for b in L) == sorted(lcg(100, 7, 1000)))
def bad(x):
    if x == 5: raise KeyError(x)
    return x
try:
    sorted(range(10), key=bad)
except KeyError as e:
    print("KeyError", e)
""",
    "sorted and list.sort compare n log n times, and n - 1 times on runs already in order or reversed (a student's __lt__ counts them; an insertion sort took n**2 / 4 on random data, n**2 / 2 reversed)": """
class C:
    n = 0
    def __init__(self, v): self.v = v
    def __lt__(self, o):
        C.n += 1
        return self.v < o.v
def count(l, **kw):
    C.n = 0
    r = sorted([C(x) for x in l], **kw)
    return C.n, [c.v for c in r] == sorted(l, **kw)
print(count(range(3000)), count(range(3000, 0, -1)), count(range(3000), reverse=True), count(list(range(1500)) * 2)[0] <= 6000)
rnd, s = [], 99
for i in range(3000):
    s = (s * 1103515245 + 12345) % 2147483648
    rnd.append(s)
n, ok = count(rnd)
print(n < 3000 * 13, ok)
""",
    "the truth of what a student's __eq__/__lt__ returns is its __bool__, which may raise (in, ==, !=, list methods, sorted, min, dict and tuple comparison: attn took any object as true); a raising __bool__/__len__ in if, while, and/or/not, bool(), len(), any/all/filter": r"""
class T:
    def __bool__(self): raise ValueError("no truth")
class Z:
    def __bool__(self): return False
class A:
    def __init__(self, r): self.r = r
    def __eq__(self, o): return self.r
    def __lt__(self, o): return self.r
    def __hash__(self): return 1
def attempt(what, f):
    try:
        print(what, f())
    except Exception as e:
        print(what, type(e).__name__, e)
attempt("in list", lambda: A(T()) in [1])
attempt("in list Z", lambda: A(Z()) in [1])
attempt("list eq", lambda: [A(T())] == [1])
attempt("list eq Z", lambda: [A(Z())] == [1])
attempt("ne", lambda: A(T()) != 1)
attempt("ne Z", lambda: A(Z()) != 1)
attempt("sorted", lambda: sorted([A(T()), A(T())]))
attempt("min", lambda: min([A(T()), A(T())]) is not None)
attempt("max Z", lambda: max([A(Z()), A(Z())]).r.__class__.__name__)
attempt("index", lambda: [1, 2].index(A(T())))
attempt("count", lambda: [1, 2].count(A(Z())))
attempt("remove", lambda: [1, 2].remove(A(T())))
attempt("bool", lambda: bool(T()))
attempt("not", lambda: not T())
attempt("and", lambda: T() and 1)
attempt("or", lambda: T() or 1)
attempt("any", lambda: any([T()]))
attempt("all", lambda: all([T()]))
attempt("filter", lambda: list(filter(None, [T()])))
attempt("ifexp", lambda: 1 if T() else 2)
attempt("comp", lambda: [x for x in [1] if T()])
class L:
    def __len__(self): raise KeyError("len")
attempt("len", lambda: len(L()))
attempt("bool L", lambda: bool(L()))
def w():
    while L(): pass
attempt("while", w)
d = {1: 2}
attempt("dict eq", lambda: {1: A(T())} == {1: 2})
attempt("tuple lt", lambda: (A(T()),) < (1,))
""",
    "mappingproxy == its dict (attn: False) and del m.dict's AttributeError; a view's |, &, -, ^ with a non-iterable raise \"'O' object is not iterable\" (attn called O.__ror__); an items view with an unhashable value compared with a set raises TypeError (attn: False)": r"""
d = {'a': 1}
m = d.keys().mapping
print(m == d, d == m, m != d, m == {'a': 2})
try:
    del m.dict
except AttributeError as e:
    print("AttributeError", e)
class O0: pass
try:
    print(d.keys() | O0())
except TypeError as e:
    print("TypeError", e)
try:
    print(d.keys() & 5)
except TypeError as e:
    print("TypeError", e)
e = {'a': [1]}
try:
    print(e.items() == {('a', 1)})
except TypeError as x:
    print("TypeError", x)
try:
    print(e.items() == set())
except TypeError as x:
    print("TypeError", x)
try:
    print({('a', 1)} == e.items())
except TypeError as x:
    print("TypeError", x)
try:
    print(e.items() < {('a', 1)})
except TypeError as x:
    print("TypeError", x)
class O:
    def __ror__(self, o): return "ror"
    def __rand__(self, o): return "rand"
for f in (lambda: d.keys() | O(), lambda: d.keys() & O(), lambda: d.items() | O(), lambda: O() | d.keys(), lambda: d.keys() | 5, lambda: 5 | d.keys(), lambda: d.keys() - O(), lambda: d.keys() ^ O()):
    try:
        print(f())
    except TypeError as e:
        print("TypeError", e)
""",
    "function attributes as Python's: f.x = 1, f.x += 2, hasattr/getattr, del f.x, a lambda's, a function holding itself (attn refused to set them)": r"""
def f(): pass
f.x = 1
print(f.x, f.__name__)
f.x += 2
print(f.x, hasattr(f, 'x'), getattr(f, 'y', 'none'))
def counter():
    counter.calls += 1
    return counter.calls
counter.calls = 0
_ = counter(); _ = counter()
print(counter.calls)
g = lambda: 0
g.tag = 'lam'
print(g.tag)
del f.x
print(hasattr(f, 'x'))
try:
    f.nope
except AttributeError as e:
    print("AttributeError", e)
try:
    del f.nope
except AttributeError as e:
    print("AttributeError", e)
def h(): return h.n
h.n = [h]
print(h()[0] is h, sorted(k for k in dir(h) if not k.startswith('_')) if False else h.n[0].__name__)
def k(): pass
k.__name__ = 'kk'
print(k.__name__)
""",
    "starred unpacking in displays: [*b], (*b,), {*b}, {**d} and several * in one call (attn: a syntax error for the first three)": r"""
b, d = [1, 2], {'a': 1, 'b': 2}
print([*b, 3, *'xy', *range(2)], (*b,), (0, *b, *()), {*b, 2, 3}, {**d, 'c': 3}, {'b': 0, **d, **{'a': 9}})
def f(*a, **k): return a, k
print(f(*b, *b), f(*b, 5, *[6], **d, **{'z': 1}))
print(*b, *'ab', sep='-')
x = [*{3: 0, 1: 0}], {**{}}, [*[], *()]
print(x)
for bad in (lambda: [*1], lambda: (*None,), lambda: {*5}, lambda: {**[1]}, lambda: {**d, **3}):
    try:
        bad()
    except TypeError as e:
        print("TypeError", 'mapping' in str(e) or 'iterable' in str(e))
class M:
    def __iter__(self): return iter([7, 8])
print([*M()], {*M(), 7}, (*M(), *M()))
""",
    "a __getitem__ that steps its own sequence iterator (next(it) inside): the outer step goes on from the place as it is now, CPython's it_index++ (attn read the place it was called with, freed by the inner step: a heap use-after-free under ASan)": """
seen = []
class S:
    def __getitem__(self, i):
        if i == 0 and not seen:
            seen.append(1)
            print("inner", next(it))
        if i > 3: raise IndexError(i)
        return i * 10
it = iter(S())
print("outer", next(it))
print(list(it))
seen2 = []
class T:
    def __getitem__(self, i):
        if i == 0 and not seen2:
            seen2.append(1)
            print("inner", list(it2))
        if i > 3: raise IndexError(i)
        return i * 10
it2 = iter(T())
print("outer", next(it2))
print(list(it2))
""",
    "a, b = an endless iterator (a student's __next__ that never stops): Python's ValueError after reading one item too many (attn walked it without end); Python 3.11's unpacking messages": """
class It:
    def __iter__(self): return self
    def __next__(self): return 1
try:
    a, b = It()
except ValueError as e: print(e)
for bad in [[1, 2, 3], (1,), "abc", range(5)]:
    try:
        a, b = bad
    except ValueError as e: print(e)
try:
    a, *b, c = [1]
except ValueError as e: print(e)
it = iter(range(10))
try:
    a, b = map(int, it)
except ValueError as e: print(e, next(it))
a, *b = It() if False else [1, 2, 3]
print(a, b)
""",
    "hasattr and getattr(obj, name, default) swallow only AttributeError: a __getattr__ or property that raises ValueError propagates (attn answered False / the default); a property that raises AttributeError falls back to __getattr__, as Python's": """
class A:
    def __getattr__(self, name):
        if name == "boom": raise ValueError("boom")
        if name.startswith("x"): return name.upper()
        raise AttributeError(name)
a = A()
print(a.xy, getattr(a, "xz"), getattr(a, "q", 5), hasattr(a, "q"), hasattr(a, "xa"))
try: hasattr(a, "boom")
except ValueError as e: print("ValueError", e)
try: getattr(a, "boom", 1)
except ValueError as e: print("ValueError", e)
class P:
    @property
    def p(self): raise AttributeError("inner")
    @property
    def v(self): raise ValueError("v")
    def __getattr__(self, n): return "ga:" + n
print(P().p, getattr(P(), "p", 0), hasattr(P(), "p"))
try: hasattr(P(), "v")
except ValueError as e: print("ValueError", e)
class Q:
    @property
    def p(self): raise AttributeError("inner")
print(hasattr(Q(), "p"), getattr(Q(), "p", 3))
import torch
print(hasattr(torch, "nothing_here"), getattr(torch.ones(1), "nothing", 4), hasattr([], "zz"))
""",
    "a student's __getitem__ given a slice reads its start, stop and step (attn's slices had no attributes: obj[1:3] of a sequence class failed); the sequence protocol of __len__ and __getitem__ in list, in, sorted, unpacking": """
class Seq:
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i):
        if isinstance(i, slice): return ("slice", i.start, i.stop, i.step)
        if i >= self.n: raise IndexError("range")
        return i * i
s = Seq(4)
print(s[1:3], s[::2], s[:-1], s[2], list(s), 9 in s, 10 in s, sorted(s, reverse=True), max(s), sum(s))
a, b, c, d = s
print(a, b, c, d, list(enumerate(s)), tuple(s))
sl = slice(1, None)
print(sl.start, sl.stop, sl.step, s[sl])
""",
    "reversed() of a student's class: its __reversed__, else Python's reversed iterator over __len__ and __getitem__ (attn: 'object is not reversible')": """
class Seq:
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i):
        if i >= self.n: raise IndexError("range")
        return i * i
r = reversed(Seq(4))
print(type(r).__name__, list(r), list(r), list(reversed(Seq(0))))
class R:
    def __reversed__(self): return iter([3, 2, 1])
print(list(reversed(R())))
class Short:
    def __len__(self): return 5
    def __getitem__(self, i):
        if i >= 3: raise IndexError(i)
        return i
print(list(reversed(Short())))
class NoLen:
    def __getitem__(self, i): return i
try: reversed(NoLen())
except TypeError as e: print("TE", e)
class BadR:
    def __reversed__(self): return 5
print(reversed(BadR()))
""",
    "StopIteration: next() of an exhausted iterator (args ()), a class's __next__ ending for, list() and next(it, default); raised in a loop body it propagates; raised by map's or filter's function it ends the map as Python's map.__next__ does (attn propagated it)": """
it = iter([])
try: next(it)
except StopIteration as e: print("SI", repr(str(e)), e.args)
class It:
    def __init__(self): self.n = 0
    def __iter__(self): return self
    def __next__(self):
        self.n += 1
        if self.n > 3: raise StopIteration(99)
        return self.n
try:
    for x in It():
        if x == 2: raise StopIteration("body")
except StopIteration as e: print("body SI", e)
def f(v):
    if v == 2: raise StopIteration("in map")
    return v
try: print(list(map(f, [1, 2, 3])))
except StopIteration as e: print("map SI", e)
try: print([f(v) for v in [1, 2, 3]])
except StopIteration as e: print("comp SI", e)
print(next(It(), "d"), list(It()))
i2 = It()
print(list(i2), next(i2, "done"))
try: next(5)
except TypeError as e: print("TE", e)
try: raise StopIteration
except Exception as e: print(type(e).__name__, isinstance(e, Exception))
def p(v):
    if v == 3: raise StopIteration
    return v % 2
print(list(filter(p, [1, 2, 3, 4])), [x for x in map(f, [5, 2, 7])])
for x in map(f, [1, 2, 3]): print("loop", x)
try: list(map(lambda v: 1 / v, [1, 0]))
except ZeroDivisionError: print("ZDE")
""",
    "a Dataset whose __len__ replaces the DataLoader's dataset when an epoch starts: PyTorch's ValueError (attn freed the dataset it was iterating: a heap use-after-free under ASan); a dataset that drops its only loader mid-epoch": """
import torch
from torch.utils.data import Dataset, DataLoader
go = []
class DS(Dataset):
    def __len__(self):
        if go: loader.dataset = None
        return 4
    def __getitem__(self, i):
        return torch.tensor([float(i)])
loader = DataLoader(DS(), batch_size=2)
go.append(1)
try:
    for b in loader: print(b)
except ValueError as e: print("ValueError", e)
for name in ["batch_size", "drop_last"]:
    try: setattr(loader, name, 3)
    except ValueError as e: print("ValueError", e)
class DS2(Dataset):
    def __len__(self): return 4
    def __getitem__(self, i):
        box.clear()
        return torch.tensor([float(i)])
box = [DataLoader(DS2(), batch_size=2)]
for b in box[0]: print(b)
""",
    "%-formatting with mapping keys (%(x)s, attn said \"unsupported format character '('\"), with CPython's errors and its rule that a later %s finds no argument; str.format_map and str.splitlines (every line break Python knows, keepends)": r"""
print("%(x)s and %(y)5.2f|%(x)-4d|%(name)r" % {'x': 1, 'y': 2.5, 'name': 'ab'})
print("%(a(b))s" % {'a(b)': 'nest'}, "plain" % {'a': 1})
try: "%(x)s" % (1,)
except TypeError as e: print("TypeError", e)
try: "%(x)s" % {'y': 1}
except KeyError as e: print("KeyError", e)
try: "%(x" % {'x': 1}
except ValueError as e: print("ValueError", e)
class M:
    def __getitem__(self, k): return k * 2
print("%(ab)s %(c)s" % M())
print("%s %(a)s" % {"a": 1}, repr("abc" % []), repr("abc" % [1]))
try: print("%(a)s %s" % {'a': 1})
except TypeError as e: print("TypeError", e)
try: "x" % 5
except TypeError as e: print("TypeError", e)
print("{a}-{b[1]}-{c:>5}".format_map({'a': 1, 'b': [7, 8], 'c': 3}))
class D:
    def __getitem__(self, k): return k.upper()
print("{x} {y}".format_map(D()))
try: "{z}".format_map({})
except KeyError as e: print("KeyError", e)
try: "{}".format_map({})
except ValueError as e: print("ValueError", e)
print("a\nb\r\nc\rd\x0be\x0cf\x1cg\u2028h\x85i".splitlines(), "a\nb\n\n".splitlines(True), "".splitlines(), "x\n".splitlines(keepends=True))
print("line one\nline two".splitlines(1))
""",
    "RecursionError says Python's \"maximum recursion depth exceeded\" (attn's said \"maximum recursion depth (200) exceeded\") for a def, __call__, a lambda, a property, __getattr__ and a Sequential that holds itself": """
def f(n): return f(n+1)
try: f(0)
except RecursionError as e: print(1, e)
class C:
    def __call__(self): return self()
try: C()()
except RecursionError as e: print(2, e)
g = lambda: g()
try: g()
except RecursionError as e: print(6, e)
class P:
    @property
    def x(self): return self.x
try: P().x
except RecursionError as e: print(7, e)
class Q:
    def __getattr__(self, k): return getattr(self, k)
try: Q().y
except RecursionError as e: print(8, e)
import torch
s = torch.nn.Sequential()
_ = s.append(s)
try: s(torch.zeros(1))
except RecursionError as e: print(5, e)
""",
    "dir() of a student's class and of its instances lists object's members (__class__, __init__ ...) and the class statement's __dict__, __module__, __weakref__, as Python 3.11 (attn listed only the class's own names)": """
class S: pass
class T(S):
    k = 3
    def __init__(self): self.x = 1
    def f(self): pass
print(dir(S))
print(dir(T))
print(dir(T()))
print('__class__' in dir(T()), '__init__' in dir(S), len(dir(S)) == len(set(dir(S))))
""",
    "module.zero_grad() (PyTorch 1.13: zeros in place, set_to_none=True: None) and module.requires_grad_(flag) on a student's module, its submodules and a built-in one (attn had neither)": """
import torch
from torch import nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 3)
        self.seq = nn.Sequential(nn.Linear(3, 1), nn.ReLU())
    def forward(self, x):
        return self.seq(self.a(x))
net = Net()
net(torch.ones(4, 2)).sum().backward()
g = net.a.weight.grad
print(g is not None, all(p.grad is not None for p in net.parameters()))
print(net.zero_grad())
print(g.abs().sum().item(), [p.grad.abs().sum().item() for p in net.parameters()])
net(torch.ones(4, 2)).sum().backward()
net.seq.zero_grad(set_to_none=True)
print([p.grad is None for p in net.parameters()])
lin = nn.Linear(2, 2)
print(lin.requires_grad_(False) is lin, [p.requires_grad for p in lin.parameters()])
print(net.requires_grad_(False) is net, [p.requires_grad for p in net.parameters()])
_ = net.seq.requires_grad_()
print([p.requires_grad for p in net.parameters()])
m = nn.Linear(2, 1)
m(torch.ones(1, 2)).sum().backward()
m.zero_grad()
print(m.weight.grad, m.bias.grad)
try: m.zero_grad(1, 2)
except TypeError as e: print("TypeError")
""",
    "set_printoptions(sci_mode=False/True) chooses the notation but keeps the width PyTorch's automatic choice measured (attn measured again: narrower columns), also for 0-dim tensors; large, small, negative, int-valued, nan/inf, summarised (byte-exact: --check transcripts ignore spacing)": """
import torch
cases = [[1e-8, 1e8, -3.0], [1.0, 200.0, -3.0], [1e-5, 0.5], [1.0, 200.5], [123456.0, 0.001], [1e9, 2.0], [-1e-5, 3.0, float('nan')],
         [0.0, 0.0], [float('inf'), 1e-6], [5.0, -7.0, 1e5], [0.1, 0.25], [[1e-3, 2e4], [3.0, -4.5]], list(range(30)), [i * 1e-5 for i in range(25)]]
for sci in [False, True, None]:
    torch.set_printoptions(sci_mode=sci)
    for c in cases:
        print(torch.tensor(c))
    print(torch.tensor([1e-6, 1.0], dtype=torch.float64), torch.tensor(1e-7), torch.arange(2000.) * 1e-3)
torch.set_printoptions(profile="default")
""",
    "a student's __index__ makes a tensor index (t[I(2)], t[I(1), I(4)], u[I(1)] = v: attn refused it) and repeats a sequence (\"ab\" * I(2), I(3) * [0]: attn's TypeError), after any __rmul__; Python's \"can't multiply sequence by non-int\" without one": """
import torch
class I:
    def __init__(self, v): self.v = v
    def __index__(self): return self.v
class M(I):
    def __rmul__(self, o): return "rmul"
print([1, 2, 3][I(2)], "ab" * I(2), I(3) * "xy", [0] * I(3), (1, 2) * I(2), "ab" * M(2), "abcd"[I(1):I(3)])
t = torch.arange(10).reshape(2, 5)
print(t[I(1)], t[I(1), I(4)], t[:, I(1):I(3)], t[I(-1)])
u = torch.zeros(3)
u[I(1)] = 5.0
print(u, range(I(3)), list(range(I(1), I(7), I(2))))
class N:
    pass
for bad in [lambda: "ab" * N(), lambda: N() * [1]]:
    try: bad()
    except TypeError as e: print("TypeError", e)
class B:
    def __index__(self): return "x"
try: "ab" * B()
except TypeError as e: print("TypeError", e)
try: t[B()]
except (TypeError, IndexError) as e: print("refused")
""",
    "a generator expression is a lazy generator, as Python's (attn built a list): next(g), its repr's prefix, late binding of names, the first iterable evaluated at once, errors on the item that raises and finished after, nested clauses, closures, class bodies, any/all stopping at the deciding item": """
g = (x*x for x in range(3))
print(type(g).__name__, str(g)[:26])  # the address after "at" differs
print(next(g), list(g), list(g))
print(sum(x*x for x in range(10)), any(x > 5 for x in range(10)), all(x < 5 for x in range(10)))
print(min(x % 7 for x in range(3, 20)), max((x, -x) for x in range(4)), sorted(-x for x in range(4)), tuple(c for c in "ab"), set(x % 2 for x in range(5)))
print("-".join(str(i) for i in range(4)), list((i, j) for i in range(3) for j in range(i) if (i + j) % 2))
def f(n):
    k = 10
    return (k * i for i in range(n))
h = f(3)
print(list(h))
def outer():
    base = [1, 2]
    def inner():
        return list(b + c for b in base for c in (10, 20))
    return inner()
print(outer())
it = iter([1, 2, 3, 4])
pairs = list((a, next(it)) for a in it)
print(pairs)
x = 5
gg = (x + i for i in range(2))
x = 100
print(list(gg))
lazy = (1 / (3 - i) for i in range(5))
print(next(lazy), next(lazy), next(lazy))
try: next(lazy)
except ZeroDivisionError as e: print("ZDE", e)
print(next(lazy, "finished"))
try: (y for y in 5)
except TypeError as e: print("TE", e)
print(sum(x for x in range(10**6)))
print([list(v for v in row) for row in [[1, 2], [3]]])
print(dict((k, k * 2) for k in range(3)), enumerate(c for c in "xy").__class__.__name__ if False else list(enumerate(c for c in "xy")))
class C:
    vals = [1, 2, 3]
    tot = sum(v for v in vals)
print(C.tot)
print(list(zip((a for a in range(3)), "abc")), list(map(str, (a for a in range(2)))))
gen = (i for i in range(3))
for v in gen:
    print("loop", v)
print(list(gen), 1 in (i for i in range(3)), 5 in (i for i in range(3)))
g = (i for i in range(10))
print(any(x > 3 for x in g), next(g), all(x < 7 for x in g), next(g))
def gen_in_func():
    data = [3, 1, 2]
    return sorted(d * 2 for d in data), min(d for d in data if d > 1)
print(gen_in_func())
""",
    "a StopIteration raised inside a generator expression (by its item) is PEP 479's RuntimeError 'generator raised StopIteration' (attn let the StopIteration out); a class iterator's own end is no error; a generator is its own iterator": """
it = iter([1, 2])
try:
    print(list(next(it) for _ in range(5)))
except RuntimeError as e:
    print("RuntimeError", e)
except StopIteration:
    print("StopIteration")
g = (x for x in range(3))
print(g is iter(g), list(zip(g, g)))
def h():
    return (i for i in range(2))
print(list(h()), sum(h()))
class It:
    def __init__(self): self.n = 0
    def __iter__(self): return self
    def __next__(self):
        self.n += 1
        if self.n > 3: raise StopIteration
        return self.n
print(list(x * 10 for x in It()), list(a + b for a in It() for b in It()))
""",
    "L.extend(it) and L += it append each item as it comes, as CPython's list_extend (attn collected them first): an iterator that reads or clears L sees what was added so far, one that raises leaves the items before it, L.extend(L) and L += L double L": r"""
L = [1, 2, 3]
L.extend(len(L) for _ in range(3))
print(L)
L = [1, 2]
L += (len(L) for _ in range(2))
print(L)
L = [1, 2, 3]
L.extend(L)
print(L)
L += L
print(L)
class Clearing:
    def __init__(self, target):
        self.n = 0
        self.target = target
    def __iter__(self): return self
    def __next__(self):
        self.n += 1
        if self.n == 2: self.target.clear()
        if self.n > 3: raise StopIteration
        return self.n
L = [7, 8]
L.extend(Clearing(L))
print(L)
L = [7, 8]
L += Clearing(L)
print(L)
class Boom:
    def __init__(self): self.n = 0
    def __iter__(self): return self
    def __next__(self):
        self.n += 1
        if self.n > 2: raise ValueError('stop')
        return self.n
L = [1, 2]
try:
    L.extend(Boom())
except ValueError as e: print('ValueError', e, L)
try:
    L += Boom()
except ValueError as e: print('ValueError', e, L)
L = [0]
L.extend(map(lambda i: L[-1] + i, range(1, 5)))
print(L)
L = [9]
L += (1, 2)
L.extend('ab')
L.extend({'k': 1})
L.extend(range(3))
print(L)
try:
    L.extend(5)
except TypeError as e: print('TypeError', e)
try:
    L += 5
except TypeError as e: print('TypeError', e)
""",
    "a key's __eq__ that changes the other dict or set: d.update(o) raises CPython's 'dict mutated during update' when o gains an entry or is cleared (attn went on); s.isdisjoint(t) of two sets walks the smaller with its stored hashes, no __hash__ call and no RuntimeError (attn: 'Set changed size during iteration'); views' == as CPython's": r"""
class K:
    def __init__(self, v, target=None): self.v = v; self.target = target
    def __hash__(self): return 1
    def __eq__(self, o):
        if self.target is not None:
            t = self.target; self.target = None
            t.clear()
        return isinstance(o, K) and self.v == o.v
    def __repr__(self): return 'K(%r)' % self.v
def run(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)
# d.update(other) where other's key __eq__ clears d
d = {K(1): 'a', K(2): 'b'}
run('update dict', lambda: (d.update({K(3, d): 'c'}), d)[1])
d = {K(1): 'a', K(2): 'b'}
run('update pairs', lambda: (d.update([(K(3, d), 'c')]), d)[1])
d = {K(1): 'a', K(2): 'b'}
o = {K(3): 'c', K(4): 'd'}
k1 = list(d)[0]; k1.target = o
run('update other cleared', lambda: (d.update(o), d)[1])
s = {K(1), K(2)}
t = {K(3, s), K(4)}
run('isdisjoint', lambda: s.isdisjoint(t))
s = {K(1), K(2)}
run('isdisjoint list', lambda: s.isdisjoint([K(3, s), K(4)]))
s = {K(1), K(2)}; t = {K(3), K(4)}
next(iter(s)).target = t
run('isdisjoint2', lambda: s.isdisjoint(t))
d = {K(1): 1, K(2): 2}; d2 = {K(1): 1, K(2): 2}
list(d)[0].target = d2
run('items ==', lambda: d.items() == d2.items())
d = {K(1): 1, K(2): 2}; d2 = {K(1): 1, K(2): 2}
list(d2)[0].target = d
run('items == 2', lambda: d.items() == d2.items())
d = {K(1): 1, K(2): 2}; d2 = {K(1): 1, K(2): 2}
list(d)[0].target = d2
run('dict ==', lambda: d == d2)
d = {K(1): 1, K(2): 2}; d2 = {K(1): 1, K(2): 2}
list(d)[0].target = d2
run('keys ==', lambda: d.keys() == d2.keys())
class A:
    def __init__(self, v, target=None, add=False): self.v = v; self.target = target; self.add = add
    def __hash__(self): return 1
    def __eq__(self, o):
        if self.target is not None:
            t = self.target; self.target = None
            if self.add: t[A(99)] = 0
            else: t.clear()
        return isinstance(o, A) and self.v == o.v
    def __repr__(self): return 'A(%r)' % self.v
d = {A(1): 'a'}; o = {A(3): 'c', A(4): 'd'}
list(d)[0].target = o; list(d)[0].add = True
run('update other grows', lambda: (d.update(o), d)[1])
d = {A(1): 'a'}; o = {A(3): 'c', A(4): 'd'}
list(d)[0].target = o
run('dict(o) cleared', lambda: dict(o, **{}) if False else (d.update(o), d)[1])
s = {A(1), A(2), A(5)}; t = {A(3), A(4)}
next(iter(s)).target = t
run('isdisjoint small walked', lambda: s.isdisjoint(t))
s = {A(1), A(2)}; t = {A(3), A(4), A(5)}
next(iter(t)).target = s
run('isdisjoint big', lambda: s.isdisjoint(t))
s = {A(1), A(2)}; t = {A(3), A(2)}
run('isdisjoint false', lambda: s.isdisjoint(t))
s = {1, 2}
run('isdisjoint frozen', lambda: (s.isdisjoint(frozenset([3])), frozenset([2]).isdisjoint(s)))
class H:
    calls = 0
    def __init__(self, v): self.v = v
    def __hash__(self):
        H.calls += 1
        return self.v
    def __eq__(self, o): return isinstance(o, H) and self.v == o.v
s = {H(1), H(2)}; t = {H(3), H(4)}
H.calls = 0
print(s.isdisjoint(t), t.isdisjoint(s), H.calls)
""",
}

# programs attn must also finish within the seconds given (linear, not quadratic, time: python3 takes under one)
TIMED = {
    "a student's __eq__ that adds a key to the dict at each comparison: the store or lookup ends, as CPython's (attn's probe restarted at every change: the dict grew until memory ran out)": (r"""
d = {1: 'a'}
class R:
    def __eq__(self, o):
        d[len(d) + 100] = 1
        return False
    def __hash__(self):
        return 1
d[R()] = 2
print(len(d))
print(R() in d, R() in d.keys(), (R(), 2) in d.items(), d.get(R(), 'none'), len(d) > 3)
big = {i: i for i in range(20)}
class G:
    def __eq__(self, o):
        big[len(big) + 1000] = 1
        return False
    def __hash__(self):
        return 3
print(G() in big, G() in big.keys(), len(big) > 20)
""", 10),
    "views of 200000 keys: ==, set operators and `in` take linear time": (r"""
n = 200000
d = {i: i for i in range(n)}
s = set(range(n))
k = d.keys()
print(k == s, s == k, d.items() == set(zip(range(n), range(n))), len(k & s), len(k - s), len(k | s), len(k ^ s), len(s - k), k == set(range(1, n + 1)))
d2 = {str(i): i for i in range(n)}
print(d2.keys() == set(d2), len(d2.keys() & set(d2)), sum(1 for x in d2.keys() if x in d2.keys()))
""", 20),
    "sorted/list.sort of 300000 items in order, reversed and in runs, and 50000 in no order, within a minute even under ASan (an insertion sort took 64 s for 100000 reversed: 10 minutes for these)": (r"""
r = list(range(300000, 0, -1))
r.sort()
print(r[:3], r[-1], sorted(r, reverse=True)[:2], sorted(list(range(150000)) * 2)[-3:])
l, s = [], 12345
for i in range(50000):
    s = (s * 1103515245 + 12345) % 2147483648
    l.append(s)
print(sorted(l)[:3], sorted(l, key=lambda x: -x)[:2], sorted([str(x) for x in l])[:2])
""", 60),
    "s * k as Python's: an empty sequence repeated is empty at once (issue 25: [] * 10**18 hung), k <= 0 gives an empty one, and a result too large for memory is Python's MemoryError before anything is built": (r"""
print([] * 10**18, () * 10**18, len('' * 2**62), 10**18 * [], 'ab' * 0, [1, 2] * -3, (1,) * 3, 'é' * 3, len('é' * 3))
try:
    x = [1] * 10**18
except MemoryError:
    print("MemoryError list")
try:
    x = (1, 2) * 10**17
except MemoryError:
    print("MemoryError tuple")
try:
    x = 'x' * 2**62
except MemoryError:
    print("MemoryError str")
x = [1, 2] * 3
x[0] = 9
print(x, len('abc' * 1000), ('abc' * 1000)[-4:])
""", 20),
}

# escapes python3 rejects (SyntaxError): attn refuses them too, saying what is wrong
REFUSED = {
    "print('\\x4')": "truncated \\x escape",
    "print('\\u12')": "truncated \\u escape",
    "print('\\U00110000')": "illegal Unicode character",
    "print('\\N{NO SUCH NAME}')": "unknown Unicode character name",
    "print(f'a\\x4{1}')": "truncated \\x escape",
    "print(len('\\ud800'))": "surrogate",
    "b = [1]\nprint((*b))": "cannot use starred expression here",
    "b = [1]\nprint([*b for x in b])": "iterable unpacking cannot be used in comprehension",
    "b = [1]\nprint({*b for x in b})": "iterable unpacking cannot be used in comprehension",
    "d = {}\nprint({**d for x in d})": "dict unpacking cannot be used in dict comprehension",
    "b = [1]\nprint({*b: 1})": "invalid syntax",
    "b = [1]\nprint({1: 2, *b})": "invalid syntax",
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
        for name, (prog, seconds) in TIMED.items():
            with open(path, "w") as f:
                f.write(prog.lstrip("\n"))
            want = subprocess.run([sys.executable, path], capture_output=True, text=True)
            try:
                got = subprocess.run([attn, path], capture_output=True, text=True, timeout=seconds)
                check(want.returncode == 0 and want.stdout == got.stdout, name, f"\n  python3 {want.stdout!r}\n  attn {got.stdout!r}")
            except subprocess.TimeoutExpired:
                check(False, name, f": attn did not finish in {seconds} s")
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

#!/usr/bin/python3
"""i18n_catalogue.py - every message the sources pass to TR("...") (and every student-facing text of the lesson
module's table, src/lesson/messages.c) has its Japanese and Chinese translation in
src/util/i18n_messages.c, and the catalogue holds no message the sources no longer use (a stale entry means the
English text changed and its translations must be redone). Prints 'N passed, N failed'."""
import glob
import os
import re
import sys

LITERAL = r'"(?:[^"\\]|\\.)*"'


def c_string(parts):
    """The value of adjacent C string literals."""
    out = ''
    for p in re.findall(LITERAL, parts):
        out += bytes(p[1:-1], 'utf-8').decode('unicode_escape').encode('latin-1').decode('utf-8')
    return out


def tr_calls(text):
    """The msgids of TR(lang, ...) calls whose message is made of string literals only (the language, an expression
    with no comma and no string in it, comes first: TR(I->run.lang, "...")."""
    ids = []
    for m in re.finditer(r'\bTR\(\s*(?:[^,"]*?,\s*)?((?:' + LITERAL + r'\s*)+)\)', text):
        ids.append(c_string(m.group(1)))
    return ids


def message_table(text):
    """The student-facing English texts of src/lesson/messages.c ([MSG_ID] = "..."): every id but the lesson
    author's soundness reports (MSG_SOUND_*), except the two phrases students see in 'not graded' notes."""
    ids = []
    for m in re.finditer(r'\[(MSG_\w+)\]\s*=\s*((?:' + LITERAL + r'\s*)+)[,}]', text):
        if not m.group(1).startswith('MSG_SOUND_') or m.group(1).startswith('MSG_SOUND_ANSWER_IS_'):
            ids.append(c_string(m.group(2)))
    return ids


def catalogue(text):
    """The entries {{"en", "ja", "zh"}} of the catalogue."""
    body = text[text.index('catalogue[] = {'):]
    entries = []
    for m in re.finditer(r'\{\{\s*((?:' + LITERAL + r'\s*)+),\s*((?:' + LITERAL + r'\s*)+),\s*((?:' + LITERAL + r'\s*)+)\}\}', body):
        entries.append(tuple(c_string(m.group(i)) for i in (1, 2, 3)))
    return entries


def main():
    used = {}
    for path in sorted(glob.glob('src/**/*.c', recursive=True)):
        if path.endswith('i18n_messages.c'):
            continue
        for msgid in tr_calls(open(path, encoding='utf-8').read()):
            used.setdefault(msgid, path)
    if os.path.exists('src/lesson/messages.c'):
        for msgid in message_table(open('src/lesson/messages.c', encoding='utf-8').read()):
            used.setdefault(msgid, 'src/lesson/messages.c')
    cat = catalogue(open('src/util/i18n_messages.c', encoding='utf-8').read())
    have = {e[0]: e for e in cat}
    passed = failed = 0
    for msgid, path in sorted(used.items()):
        e = have.get(msgid)
        if e and e[1] and e[2]:
            passed += 1
        else:
            failed += 1
            print(f'FAIL {path}: TR({msgid!r}) has no Japanese and Chinese translation in src/util/i18n_messages.c')
    for e in cat:
        if e[0] not in used:
            failed += 1
            print(f'FAIL src/util/i18n_messages.c: {e[0]!r} is not used by any TR() in src/ (its English changed? translate the new text)')
    print(f'{len(used)} messages used, {len(cat)} in the catalogue')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

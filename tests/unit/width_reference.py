#!/usr/bin/python3
"""width_reference.py - display widths from Python's unicodedata, the independent reference for tw_char_width().

Prints "codepoint width" for every assigned code point up to U+3FFFF whose width the Unicode data decides
plainly: nonspacing and enclosing marks (Mn, Me) take 0 columns, East Asian Wide and Fullwidth 2, the rest 1.
Controls, format characters, surrogates, private use and unassigned code points are left out (terminals differ
on them). The first line is the Unicode version of the data."""
import unicodedata

print(unicodedata.unidata_version)
for cp in range(0x20, 0x40000):
    ch = chr(cp)
    cat = unicodedata.category(ch)
    if cat in ('Cn', 'Cs', 'Co', 'Cc', 'Cf', 'Zl', 'Zp'):
        continue
    eaw = unicodedata.east_asian_width(ch)
    w = 0 if cat in ('Mn', 'Me') else 2 if eaw in ('W', 'F') else 1
    print(cp, w)

/* python_str.c - the methods of Python's str that the book's lines use (self is pos[0]): join, format,
 * splitlines, lower, upper, strip, split, replace, startswith, the is* predicates, find and friends, ljust ... */
#include "builtins_internal.h"
#include "interp.h"
#include "ops.h"
#include "pyformat.h"
#include "pyexc.h"
#include "textwidth.h"
#include <ctype.h>
#include <limits.h>
#include <unictype.h>
#include <stdlib.h>
#include <string.h>


static Value *str_join(Interp *I, Args *a) {
    Value *p_[1];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p_, 1)) return NULL;
    Value *l = ops_to_list(I, a->pos[1]);
    if (!l) return NULL;
    /* pass 1: the length (and Python's TypeError for an item that is not a string); pass 2: one buffer filled, Ctrl-C
     * checked; a result past the memory limit is MemoryError before it is built */
    const Value *sep = a->pos[0];
    int64_t n = l->u.seq.n, len = n > 1 ? (n - 1) * (int64_t)sep->u.str.len : 0, chars = n > 1 ? (n - 1) * sep->u.str.chars : 0;
    for (int64_t i = 0; i < n; i++) {
        Value *x = l->u.seq.items[i];
        if (x->kind != V_STR) {
            rt_raise(I, "TypeError", "sequence item %lld: expected str instance, %s found", (long long)i, val_type_name(x));
            val_decref(l);           /* after the message: it names x, which l holds */
            return NULL;
        }
        len += (int64_t)x->u.str.len;
        chars += x->u.str.chars;
    }
    char *r = interp_bytes_ok(I, len + 1) ? mem_try_malloc((size_t)len + 1) : NULL;
    if (!r) { interp_bytes_ok(I, len + 1); val_decref(l); return NULL; }
    size_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 65535) == 65535 && ten_interrupted) { free(r); val_decref(l); return rt_interrupt(I); }
        const Value *x = l->u.seq.items[i];
        if (i) { memcpy(r + at, sep->u.str.s, sep->u.str.len); at += sep->u.str.len; }
        memcpy(r + at, x->u.str.s, x->u.str.len);
        at += x->u.str.len;
    }
    r[at] = 0;
    val_decref(l);
    return val_str_take_chars(I->run.heap, r, at, chars);
}

/* str.format's numbering: which fields have been seen, automatic ({}) or manual ({0}); Python refuses a mix. */
typedef struct FormatState {
    int next;                           /* the next automatic field's index */
    int mode;                           /* 0 none yet, 1 automatic, 2 manual */
    Value *mapping;                     /* str.format_map's mapping (named fields are its keys), else NULL */
} FormatState;

/* The value of a replacement field's name [f, e): an argument by position ("", "0") or keyword ("name"), then any
 * ".attr" and "[index]" (digits: an int, else a str key), as Python's str.format finds it. A new reference, or NULL
 * with the error set. */
static Value *format_field(Interp *I, Args *a, const char *f, const char *e, FormatState *st) {
    const char *n = f;
    while (n < e && *n != '.' && *n != '[') n++;
    Value *v = NULL;
    bool digits = n > f;
    for (const char *c = f; c < n; c++) digits = digits && isdigit((unsigned char)*c);
    if ((n == f || digits) && st->mapping) return rt_raise(I, "ValueError", "Format string contains positional fields");
    if (n == f || digits) {
        int mode = n == f ? 1 : 2;
        if (st->mode && st->mode != mode)
            return rt_raise(I, "ValueError", mode == 1 ? "cannot switch from manual field specification to automatic field numbering"
                                                      : "cannot switch from automatic field numbering to manual field specification");
        st->mode = mode;
        long k = n == f ? st->next++ : (n - f > 9 ? -1 : strtol(f, NULL, 10));
        if (k < 0 || k + 1 >= a->npos)
            return rt_raise(I, "IndexError", "Replacement index %ld out of range for positional args tuple", k < 0 ? (long)INT_MAX : k);
        v = val_incref(a->pos[k + 1]);
    } else {
        char name[128];
        if ((size_t)(n - f) >= sizeof name) return rt_raise(I, "KeyError", "format field name too long");
        memcpy(name, f, (size_t)(n - f));
        name[n - f] = 0;
        if (st->mapping) {                  /* format_map: mapping[name], its own KeyError (or __missing__) */
            Value *key = val_str(I->run.heap, name);
            v = ops_index(I, st->mapping, key);
            val_decref(key);
            if (!v) return NULL;
            goto attrs;
        }
        Value *kv = arg(a, -1, name);
        if (!kv) {
            rt_raise(I, "KeyError", "format(): the string has {%s} but no argument %s=... was given", name, name);
            Value *key = val_str(I->run.heap, name);
            pyexc_set_arg(I, key);              /* e.args[0] is the name, as Python's KeyError('x') */
            val_decref(key);
            return NULL;
        }
        v = val_incref(kv);
    }
attrs:
    while (n < e) {
        const char *p = n + 1, *q = p;
        Value *next;
        if (*n == '.') {
            while (q < e && *q != '.' && *q != '[') q++;
            if (q == p) { val_decref(v); return rt_raise(I, "ValueError", "Empty attribute in format string"); }
            char *attr = xstrndup(p, (size_t)(q - p));
            next = ops_getattr(I, v, attr);
            free(attr);
            n = q;
        } else {
            while (q < e && *q != ']') q++;
            if (q >= e) { val_decref(v); return rt_raise(I, "ValueError", "Missing ']' in format string"); }
            if (q == p) { val_decref(v); return rt_raise(I, "ValueError", "Empty attribute in format string"); }
            bool num = true;
            for (const char *c = p; c < q; c++) num = num && isdigit((unsigned char)*c);
            Value *key = num && q - p < 18 ? val_int(I->run.heap, strtoll(p, NULL, 10)) : val_strn(I->run.heap, p, (size_t)(q - p));
            next = ops_index(I, v, key);
            val_decref(key);
            n = q + 1;
            if (n < e && *n != '.' && *n != '[') { val_decref(v); val_decref(next); return rt_raise(I, "ValueError", "Only '.' or '[' may follow ']' in format field specifier"); }
        }
        val_decref(v);
        if (!(v = next)) return NULL;
    }
    return v;
}

/* The format string [s, end) with its {fields} filled from a (depth 0), or a field's spec with {fields} of its own
 * (depth 1: Python allows no deeper), appended to out. False with the error set. */
static bool format_fill(Interp *I, Args *a, const char *s, const char *end, int depth, FormatState *st, StrBuf *out) {
    for (const char *p = s; p < end; p++) {
        if (*p == '{' && p + 1 < end && p[1] == '{') { sb_putc(out, '{'); p++; continue; }
        if (*p == '}' && p + 1 < end && p[1] == '}') { sb_putc(out, '}'); p++; continue; }
        if (*p == '}') { rt_raise(I, "ValueError", "Single '}' encountered in format string"); return false; }
        if (*p != '{') { sb_putc(out, *p); continue; }
        if (depth > 1) { rt_raise(I, "ValueError", "Max string recursion exceeded"); return false; }
        /* the field: name up to '!' or ':' (brackets may hold either), then the spec to its matching '}' */
        const char *f = p + 1, *q = f;
        while (q < end && *q != '}' && *q != '!' && *q != ':') {
            if (*q == '[') while (q < end && *q != ']') q++;
            if (q < end) q++;
        }
        if (q >= end) { rt_raise(I, "ValueError", f >= end ? "Single '{' encountered in format string" : "expected '}' before end of string"); return false; }
        const char *name_end = q;
        int conv = 0;
        if (*q == '!') {
            if (q + 1 >= end || !strchr("rsa", q[1])) { rt_raise(I, "ValueError", "Unknown conversion specifier %c", q + 1 < end ? q[1] : '?'); return false; }
            conv = q[1];
            q += 2;
            if (q >= end || (*q != ':' && *q != '}')) { rt_raise(I, "ValueError", "expected ':' after conversion specifier"); return false; }
        }
        const char *spec0 = q, *spec1 = q;
        if (*q == ':') {
            spec0 = ++q;
            int nest = 0;
            while (q < end && (*q != '}' || nest > 0)) { if (*q == '{') nest++; else if (*q == '}') nest--; q++; }
            if (q >= end) { rt_raise(I, "ValueError", "expected '}' before end of string"); return false; }
            spec1 = q;
        }
        Value *v = format_field(I, a, f, name_end, st);
        if (!v) return false;
        StrBuf spec;
        sb_init(&spec);
        bool ok = format_fill(I, a, spec0, spec1, depth + 1, st, &spec);
        if (ok && conv) {                       /* !r, !a: repr; !s: str; then the spec applies to that string */
            StrBuf r;
            sb_init(&r);
            bool shown = conv == 's' ? val_str_of(I, &r, v) : conv == 'a' ? val_ascii(I, &r, v) : val_repr(I, &r, v);
            val_decref(v);
            v = val_str_take(I->run.heap, sb_take(&r));
            ok = shown;
        }
        ok = ok && pyfmt_format(I, out, v, sb_str(&spec));
        sb_free(&spec);
        val_decref(v);
        if (!ok) return false;
        p = q;
    }
    return true;
}

/* "{} and {:.2f}".format(a, b), "{0[1]} {p.x!r:>{w}}".format(...): Python's str.format. */
static Value *str_format(Interp *I, Args *a) {
    const Value *fmt = a->pos[0];
    FormatState st = {.next = 0, .mode = 0, .mapping = NULL};
    if (a->fn->tag) {                       /* s.format_map(mapping): exactly one argument, fields looked up in it */
        if (!args_bind_method(I, a, "str", &st.mapping, 1)) return NULL;
    }
    StrBuf b;
    sb_init(&b);
    if (!format_fill(I, a, fmt->u.str.s, fmt->u.str.s + fmt->u.str.len, 0, &st, &b)) { sb_free(&b); return NULL; }
    return val_str_take(I->run.heap, sb_take(&b));
}

/* The length of the line break at s (s < e), 0 when there is none: Python's str.splitlines breaks at \n, \r, \r\n,
 * \v, \f, \x1c-\x1e, \x85, U+2028 and U+2029 (UTF-8 here). */
static size_t line_break_len(const char *s, const char *e) {
    unsigned char c = (unsigned char)*s;
    if (c == '\r') return s + 1 < e && s[1] == '\n' ? 2 : 1;
    if (c == '\n' || c == '\v' || c == '\f' || (c >= 0x1c && c <= 0x1e)) return 1;
    if (c == 0xc2 && s + 1 < e && (unsigned char)s[1] == 0x85) return 2;
    if (c == 0xe2 && s + 2 < e && (unsigned char)s[1] == 0x80 && ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9)) return 3;
    return 0;
}

/* s.splitlines(keepends=False): the lines of s, their breaks kept when keepends is true; no empty last line. */
static Value *str_splitlines(Interp *I, Args *a) {
    Value *keep;
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), &keep, 1)) return NULL;
    bool ok = true, keepends = keep && val_truthy(keep, &ok);
    const char *s = a->pos[0]->u.str.s, *e = s + a->pos[0]->u.str.len;
    Value *l = val_list(I->run.heap, 0);
    while (s < e) {
        const char *q = s;
        size_t br = 0;
        while (q < e && !(br = line_break_len(q, e))) q++;
        val_list_append(l, val_strn(I->run.heap, s, (size_t)(q - s) + (keepends ? br : 0)));
        s = q + br;
    }
    return l;
}

static Value *str_case(Interp *I, Args *a) {
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), NULL, 0)) return NULL;
    Value *r = val_strn(I->run.heap, a->pos[0]->u.str.s, a->pos[0]->u.str.len);
    for (char *p = r->u.str.s; *p; p++) *p = (char)(a->fn->tag ? (*p >= 'a' && *p <= 'z' ? *p - 32 : *p) : (*p >= 'A' && *p <= 'Z' ? *p + 32 : *p));
    return r;
}

static Value *str_strip(Interp *I, Args *a) {
    const char *s = a->pos[0]->u.str.s, *e = s + a->pos[0]->u.str.len;
    while (s < e && strchr(" \t\n\r", *s)) s++;
    while (e > s && strchr(" \t\n\r", e[-1])) e--;
    return val_strn(I->run.heap, s, (size_t)(e - s));
}

static Value *str_split(Interp *I, Args *a) {
    Value *sep = a->npos > 1 ? a->pos[1] : NULL;
    if (sep && sep->kind != V_STR && sep->kind != V_NONE) return rt_raise(I, "TypeError", "must be str or None, not %s", val_type_name(sep));
    if (sep && sep->kind == V_STR && sep->u.str.len == 0) return rt_raise(I, "ValueError", "empty separator");
    Value *l = val_list(I->run.heap, 0);
    const char *s = a->pos[0]->u.str.s;
    if (!sep || sep->kind == V_NONE) {
        while (*s) {
            while (*s && strchr(" \t\n\r", *s)) s++;
            if (!*s) break;
            const char *e = s;
            while (*e && !strchr(" \t\n\r", *e)) e++;
            val_list_append(l, val_strn(I->run.heap, s, (size_t)(e - s)));
            s = e;
        }
        return l;
    }
    for (;;) {
        const char *e = strstr(s, sep->u.str.s);
        if (!e) { val_list_append(l, val_str(I->run.heap, s)); break; }
        val_list_append(l, val_strn(I->run.heap, s, (size_t)(e - s)));
        s = e + sep->u.str.len;
    }
    return l;
}

/* s.replace(old, new): Python's, every old replaced; an empty old matches before each character and at the end
 * ('ab'.replace('', '-') is '-a-b-'). The result's length is checked first, as for s * n. */
static Value *str_replace(Interp *I, Args *a) {
    Value *p_[3];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p_, 3)) return NULL;
    if (p_[2]) return rt_error(I, "replace(old, new, count) is not supported in attn: it replaces every old");
    if (a->pos[1]->kind != V_STR || a->pos[2]->kind != V_STR) return rt_raise(I, "TypeError", "replace() takes two strings");
    const Value *str = a->pos[0], *old = a->pos[1], *rep = a->pos[2];
    int64_t hits = old->u.str.len ? 0 : val_utf8_count(str->u.str.s, str->u.str.len) + 1;
    for (const char *e = str->u.str.s; old->u.str.len && (e = strstr(e, old->u.str.s)); e += old->u.str.len) hits++;
    if ((double)str->u.str.len + (double)hits * ((double)rep->u.str.len - (double)old->u.str.len) > 100000000)
        return rt_error(I, "the string would be too long");
    StrBuf b;
    sb_init(&b);
    if (!old->u.str.len) {
        for (int64_t i = 0; i < hits; i++) {
            sb_putn(&b, rep->u.str.s, rep->u.str.len);
            if (i + 1 < hits) {
                size_t at = val_str_offset(str, i), next = val_str_offset(str, i + 1);
                sb_putn(&b, str->u.str.s + at, next - at);
            }
        }
        size_t n = b.len;
        return val_str_take_n(I->run.heap, sb_take(&b), n);
    }
    const char *s = str->u.str.s;
    for (;;) {
        const char *e = strstr(s, old->u.str.s);
        if (!e) { sb_puts(&b, s); break; }
        sb_putn(&b, s, (size_t)(e - s));
        sb_putn(&b, rep->u.str.s, rep->u.str.len);
        s = e + old->u.str.len;
    }
    return val_str_take(I->run.heap, sb_take(&b));
}

/* s.startswith(prefix[, start[, end]]) / s.endswith(suffix[, start[, end]]), the prefix a string or a tuple of
 * strings (any of them): Python's, with CPython's tailmatch indices (start and end in characters, None for the ends,
 * negative from the end; end clamped to len(s), start not: "abc".startswith("", 4) is False). */
static Value *str_startswith(Interp *I, Args *a) {
    Value *slot[3];                              /* declared "s.startswith(prefix[, start[, end]])": PyArg_ParseTuple's words */
    if (!args_bind_method(I, a, "str", slot, 3)) return NULL;
    const Value *s = a->pos[0], *p = a->pos[1];
    bool tuple = p->kind == V_TUPLE && !p->u.seq.is_size && !p->u.seq.named;
    if (p->kind != V_STR && !tuple)
        return rt_raise(I, "TypeError", "%s first arg must be str or a tuple of str, not %s", a->fname, val_type_name(p));
    int64_t n = s->u.str.chars, lim[2] = {0, n};
    for (int k = 0; k < 2; k++) {
        Value *v = a->npos > 2 + k ? a->pos[2 + k] : NULL;
        if (!v || v->kind == V_NONE) continue;
        if (v->kind != V_INT && v->kind != V_BOOL)
            return rt_raise(I, "TypeError", "slice indices must be integers or None or have an __index__ method");
        int64_t x = v->kind == V_INT ? v->u.i : v->u.b;
        if (x < 0) x = x + n < 0 ? 0 : x + n;
        if (k == 1 && x > n) x = n;
        lim[k] = x;
    }
    for (int64_t k = 0; k < (tuple ? p->u.seq.n : 1); k++) {
        const Value *x = tuple ? p->u.seq.items[k] : p;
        if (x->kind != V_STR)
            return rt_error(I, "tuple for %s must only contain str, not %s", a->fname, val_type_name(x));
        int64_t m = x->u.str.chars;
        if (lim[1] - m < lim[0]) continue;
        int64_t at = a->fn->tag == 0 ? lim[0] : lim[1] - m;           /* where x must start, in characters */
        size_t off = val_str_offset(s, at), end = val_str_offset(s, at + m);
        if (end - off == x->u.str.len && !memcmp(s->u.str.s + off, x->u.str.s, x->u.str.len)) return val_bool(I->run.heap, true);
    }
    return val_bool(I->run.heap, false);
}

/* s.isdigit(), isalpha, isalnum, isdecimal, isnumeric, isspace, isupper, islower: Python's, by the Unicode
 * properties CPython reads (libunistring's tables of the same Unicode: 'é'.isalpha(), '日本'.isalpha() and
 * '２'.isdigit() are True). False for ''. Tag: 0 digit, 1 alpha, 2 alnum, 3 space, 4 upper, 5 lower, 6 decimal,
 * 7 numeric. */
static bool py_isspace(uint32_t c) {       /* CPython's _PyUnicode_IsWhitespace: bidi WS, B, S or category Zs */
    return (c >= 0x9 && c <= 0xd) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}
/* The CJK ideographs with a numeric value in Unihan (kPrimaryNumeric, kAccountingNumeric, kOtherNumeric: 一, 二, 三,
 * 十, 百, 千, 万, 零 ...), which CPython counts as numeric and libunistring's tables leave out: the 73 of Unicode 14
 * (Python 3.11), sorted. */
static const uint32_t unihan_numeric[] = {
    0x3405, 0x3483, 0x382A, 0x3B4D, 0x4E00, 0x4E03, 0x4E07, 0x4E09, 0x4E5D, 0x4E8C, 0x4E94, 0x4E96, 0x4EBF, 0x4EC0,
    0x4EDF, 0x4EE8, 0x4F0D, 0x4F70, 0x5104, 0x5146, 0x5169, 0x516B, 0x516D, 0x5341, 0x5343, 0x5344, 0x5345, 0x534C,
    0x53C1, 0x53C2, 0x53C3, 0x53C4, 0x56DB, 0x58F1, 0x58F9, 0x5E7A, 0x5EFE, 0x5EFF, 0x5F0C, 0x5F0D, 0x5F0E, 0x5F10,
    0x62FE, 0x634C, 0x67D2, 0x6F06, 0x7396, 0x767E, 0x8086, 0x842C, 0x8CAE, 0x8CB3, 0x8D30, 0x9621, 0x9646, 0x964C,
    0x9678, 0x96F6, 0x20001, 0x20064, 0x200E2, 0x20121, 0x2092A, 0x20983, 0x2098C, 0x2099C, 0x20AEA, 0x20AFD,
    0x20B19, 0x22390, 0x22998, 0x23B1B, 0x2626D};

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool py_isnumeric(uint32_t c) {
    uc_fraction_t f = uc_numeric_value(c);
    if (!(f.numerator == 0 && f.denominator == 0)) return true;
    return bsearch(&c, unihan_numeric, sizeof unihan_numeric / sizeof *unihan_numeric, sizeof *unihan_numeric, cmp_u32) != NULL;
}
static Value *str_predicate(Interp *I, Args *a) {
    if (!args_bind_method(I, a, "str", NULL, 0)) return NULL;
    const Value *s = a->pos[0];
    int tag = a->fn->tag;
    bool cased = false;
    for (size_t off = 0; off < s->u.str.len;) {
        uint32_t c;
        off += tw_decode(s->u.str.s + off, s->u.str.len - off, &c);
        bool up = uc_is_property_uppercase(c), low = uc_is_property_lowercase(c), title = uc_is_general_category(c, UC_CATEGORY_Lt);
        bool alpha = uc_is_general_category(c, UC_CATEGORY_L), decimal = uc_decimal_value(c) >= 0;
        bool digit = decimal || uc_digit_value(c) >= 0;
        switch (tag) {
        case 0: if (!digit) return val_bool(I->run.heap, false); break;
        case 1: if (!alpha) return val_bool(I->run.heap, false); break;
        case 2: if (!alpha && !digit && !py_isnumeric(c)) return val_bool(I->run.heap, false); break;
        case 3: if (!py_isspace(c)) return val_bool(I->run.heap, false); break;
        case 4: if (low || title) return val_bool(I->run.heap, false); cased |= up; break;       /* isupper: cased, none lower */
        case 5: if (up || title) return val_bool(I->run.heap, false); cased |= low; break;
        case 6: if (!decimal) return val_bool(I->run.heap, false); break;
        default: if (!py_isnumeric(c)) return val_bool(I->run.heap, false); break;
        }
    }
    return val_bool(I->run.heap, s->u.str.len > 0 && (tag < 4 || tag > 5 || cased));
}

/* A start/end pair of str.find and friends (character places, None for the ends, negative from the end, clamped as
 * a slice is) as byte offsets of s. */
static bool str_span(Interp *I, Args *a, const Value *s, size_t *from, size_t *to) {
    int64_t n = s->u.str.chars, lim[2] = {0, n};
    for (int k = 0; k < 2; k++) {
        Value *v = a->npos > 2 + k ? a->pos[2 + k] : NULL;
        if (!v || v->kind == V_NONE) continue;
        if (!arg_int(I, v, k ? "end" : "start", &lim[k])) return false;
        if (lim[k] < 0) lim[k] = lim[k] + n < 0 ? 0 : lim[k] + n;
        if (lim[k] > n) lim[k] = n;
    }
    *from = val_str_offset(s, lim[0]);
    *to = lim[1] < lim[0] ? *from : val_str_offset(s, lim[1]);
    return lim[1] >= lim[0];
}

/* s.find(sub[, start[, end]]), rfind, index, rindex and count, Python's: places are characters, not bytes. */
static Value *str_search(Interp *I, Args *a) {
    enum { FIND, RFIND, INDEX, RINDEX, COUNT } op = a->fn->tag;
    Value *p[3];                                 /* declared "s.find(sub[, start[, end]])": PyArg_ParseTuple's words */
    if (!args_bind_method(I, a, "str", p, 3)) return NULL;
    const Value *s = a->pos[0], *sub = a->pos[1];
    if (sub->kind != V_STR) return rt_raise(I, "TypeError", "must be str, not %s", val_type_name(sub));
    size_t from, to, m = sub->u.str.len;
    bool fits = str_span(I, a, s, &from, &to);
    if (interp_failed(I)) return NULL;
    if (op == COUNT) {
        if (!fits) return val_int(I->run.heap, 0);
        if (!m) return val_int(I->run.heap, val_utf8_count(s->u.str.s + from, to - from) + 1);
        int64_t c = 0;
        for (size_t i = from; i + m <= to;) {
            if (!memcmp(s->u.str.s + i, sub->u.str.s, m)) { c++; i += m; } else i++;
        }
        return val_int(I->run.heap, c);
    }
    int64_t found = -1;
    for (size_t i = from; fits && i + m <= to; i++) {
        if (memcmp(s->u.str.s + i, sub->u.str.s, m)) continue;
        found = (int64_t)i;
        if (op == FIND || op == INDEX) break;
    }
    if (found < 0 && (op == INDEX || op == RINDEX)) return rt_raise(I, "ValueError", "substring not found");
    return val_int(I->run.heap, found < 0 ? -1 : val_utf8_count(s->u.str.s, (size_t)found));
}

/* s.ljust(width[, fillchar]), rjust and center, Python's: widths count characters. */
static Value *str_justify(Interp *I, Args *a) {
    Value *p_[2];
    if (!args_bind_method(I, a, val_type_name(a->pos[0]), p_, 2)) return NULL;
    const Value *s = a->pos[0], *fill = a->npos > 2 ? a->pos[2] : NULL;
    int64_t width;
    if (!arg_int(I, a->pos[1], "width", &width)) return NULL;
    if (fill && (fill->kind != V_STR || fill->u.str.chars != 1))
        return rt_error(I, "The fill character must be exactly one character long");
    if (width > 100000000) return rt_error(I, "the string would be too long");
    int64_t marg = width - s->u.str.chars;
    if (marg <= 0) return val_incref(a->pos[0]);
    int64_t left = a->fn->tag == 0 ? 0 : a->fn->tag == 1 ? marg : marg / 2 + (marg & width & 1);   /* CPython's centre */
    const char *f = fill ? fill->u.str.s : " ";
    size_t fl = fill ? fill->u.str.len : 1;
    StrBuf b;
    sb_init(&b);
    for (int64_t i = 0; i < left; i++) sb_putn(&b, f, fl);
    sb_putn(&b, s->u.str.s, s->u.str.len);
    for (int64_t i = left; i < marg; i++) sb_putn(&b, f, fl);
    size_t n = b.len;
    return val_str_take_n(I->run.heap, sb_take(&b), n);
}

const Builtin bi_str_methods[] = {
    {"join", str_join, "sep.join(iterable, /)", "Joins strings with sep between them.", "", 0, "sep"},
    {"format", str_format, "s.format(*args)", "Fills {} fields, as Python does.", "", 0, "s"},
    {"format_map", str_format, "s.format_map(mapping, /)", "Fills {name} fields with mapping[name], as Python does.", "", 1, "s"},
    {"splitlines", str_splitlines, "s.splitlines(keepends=False)", "The lines of s (without their line breaks unless keepends).", "", 0, "s"},
    {"lower", str_case, "s.lower()", "Lower case.", "", 0, "s"},
    {"upper", str_case, "s.upper()", "Upper case.", "", 1, "s"},
    {"strip", str_strip, "s.strip()", "Without surrounding white space.", "", 0, "s"},
    {"split", str_split, "s.split(sep=None)", "Splits into a list of strings.", "", 0, "s"},
    {"find", str_search, "s.find(sub[, start[, end]])", "The place of the first sub in s (in characters), -1 when there is none.", "", 0, "s"},
    {"rfind", str_search, "s.rfind(sub[, start[, end]])", "The place of the last sub in s, -1 when there is none.", "", 1, "s"},
    {"index", str_search, "s.index(sub[, start[, end]])", "As s.find, but an error when sub is not there.", "", 2, "s"},
    {"rindex", str_search, "s.rindex(sub[, start[, end]])", "As s.rfind, but an error when sub is not there.", "", 3, "s"},
    {"count", str_search, "s.count(sub[, start[, end]])", "How many times sub occurs in s, without overlaps.", "", 4, "s"},
    {"ljust", str_justify, "s.ljust(width, fillchar=' ', /)", "s followed by fillchar up to width characters.", "", 0, "s"},
    {"rjust", str_justify, "s.rjust(width, fillchar=' ', /)", "s after fillchar up to width characters.", "", 1, "s"},
    {"center", str_justify, "s.center(width, fillchar=' ', /)", "s centred in width characters.", "", 2, "s"},
    {"replace", str_replace, "s.replace(old, new, count=-1, /)", "Replaces every old by new.", "", 0, "s"},
    {"startswith", str_startswith, "s.startswith(prefix[, start[, end]])", "True when s[start:end] starts with prefix (or with one of a tuple of prefixes).", "", 0, "s"},
    {"endswith", str_startswith, "s.endswith(suffix[, start[, end]])", "True when s[start:end] ends with suffix (or with one of a tuple of suffixes).", "", 1, "s"},
    {"isdigit", str_predicate, "s.isdigit()", "True when s is not empty and every character is a digit.", "", 0, "s"},
    {"isalpha", str_predicate, "s.isalpha()", "True when s is not empty and every character is a letter (of any script).", "", 1, "s"},
    {"isalnum", str_predicate, "s.isalnum()", "True when s is not empty and every character is a letter or a number.", "", 2, "s"},
    {"isspace", str_predicate, "s.isspace()", "True when s is not empty and every character is white space.", "", 3, "s"},
    {"isupper", str_predicate, "s.isupper()", "True when s has cased letters and all of them are upper case.", "", 4, "s"},
    {"islower", str_predicate, "s.islower()", "True when s has cased letters and all of them are lower case.", "", 5, "s"},
    {"isdecimal", str_predicate, "s.isdecimal()", "True when s is not empty and every character is a decimal digit.", "", 6, "s"},
    {"isnumeric", str_predicate, "s.isnumeric()", "True when s is not empty and every character is numeric (digits, fractions, numerals).", "", 7, "s"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

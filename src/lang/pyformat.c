/* pyformat.c - format specs ([[fill]align][sign][#][0][width][,|_][.precision][type]) and '%' formatting,
 * following docs.python.org/3/library/string.html#formatspec and printf-style String Formatting. A 0-dim
 * tensor formats like its item(), as torch.Tensor.__format__ does. */
#include "pyformat.h"
#include "ops.h"
#include "lang_internal.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Spec {
    char fill, align, sign, type;
    bool alt, zero;
    int width, precision;     /* -1 when absent */
    char grouping;
} Spec;

static bool parse_spec(Interp *I, const char *s, Spec *sp) {
    memset(sp, 0, sizeof *sp);
    sp->width = sp->precision = -1;
    sp->fill = ' ';
    const char *p = s;
    bool has_fill = false;
    if (p[0] && p[1] && strchr("<>=^", p[1])) { sp->fill = p[0]; sp->align = p[1]; p += 2; has_fill = true; }
    else if (p[0] && strchr("<>=^", p[0])) { sp->align = p[0]; p++; }
    if (*p && strchr("+- ", *p)) sp->sign = *p++;
    if (*p == 'z') p++;
    if (*p == '#') { sp->alt = true; p++; }
    if (*p == '0') {
        /* '0' pads with zeros unless a fill was given; without an alignment it pads after the sign ('=') */
        sp->zero = true;
        p++;
        if (!has_fill) sp->fill = '0';
        if (!sp->align) sp->align = '=';
    }
    if (isdigit((unsigned char)*p)) {
        sp->width = 0;
        while (isdigit((unsigned char)*p)) { sp->width = sp->width * 10 + (*p++ - '0'); if (sp->width > 10000) break; }
    }
    if (*p == ',' || *p == '_') sp->grouping = *p++;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p)) { rt_error(I, "format specifier '%s': a precision is expected after '.'", s); return false; }
        sp->precision = 0;
        while (isdigit((unsigned char)*p)) { sp->precision = sp->precision * 10 + (*p++ - '0'); if (sp->precision > 1000) break; }
    }
    if (*p) sp->type = *p++;
    if (*p || sp->width > 10000 || sp->precision > 1000) {
        rt_error(I, "invalid format specifier '%s'", s);
        return false;
    }
    return true;
}

static void group_digits(StrBuf *out, const char *digits, char sep) {
    size_t n = strlen(digits);
    for (size_t i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) sb_putc(out, sep);
        sb_putc(out, digits[i]);
    }
}

/* Lays out sign + prefix + body with fill and alignment. */
static void pad_out(StrBuf *out, const Spec *sp, const char *sign, const char *body, char default_align) {
    long len = (long)(val_utf8_count(sign, strlen(sign)) + val_utf8_count(body, strlen(body)));   /* characters, as Python counts */
    long pad = sp->width > len ? sp->width - len : 0;
    char align = sp->align ? sp->align : default_align;
    if (align == '=') { sb_puts(out, sign); sb_pad(out, sp->fill, pad); sb_puts(out, body); return; }
    long left = align == '>' ? pad : align == '^' ? pad / 2 : 0;
    sb_pad(out, sp->fill, left);
    sb_puts(out, sign);
    sb_puts(out, body);
    sb_pad(out, sp->fill, pad - left);
}

static bool format_int(Interp *I, StrBuf *out, int64_t v, const Spec *sp) {
    char t = sp->type ? sp->type : 'd';
    if (strchr("eEfFgG%", t)) return false;   /* caller re-dispatches as float */
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char digits[80];
    int nd = 0;
    const char *prefix = "";
    switch (t) {
    case 'd': case 'n': snprintf(digits, sizeof digits, "%llu", (unsigned long long)mag); nd = (int)strlen(digits); break;
    case 'b':
        do { digits[nd++] = (char)('0' + (mag & 1)); mag >>= 1; } while (mag);
        for (int i = 0; i < nd / 2; i++) { char c = digits[i]; digits[i] = digits[nd - 1 - i]; digits[nd - 1 - i] = c; }
        digits[nd] = 0;
        prefix = "0b";
        break;
    case 'o': snprintf(digits, sizeof digits, "%llo", (unsigned long long)mag); prefix = "0o"; break;
    case 'x': snprintf(digits, sizeof digits, "%llx", (unsigned long long)mag); prefix = "0x"; break;
    case 'X': snprintf(digits, sizeof digits, "%llX", (unsigned long long)mag); prefix = "0X"; break;
    case 'c': {
        if (v < 0 || v > 127) { rt_error(I, "format 'c' needs a character code from 0 to 127"); return true; }
        char s[2] = {(char)v, 0};
        pad_out(out, sp, "", s, '<');
        return true;
    }
    default: rt_raise(I, "ValueError", "Unknown format code '%c' for object of type 'int'", t); return true;
    }
    StrBuf body;
    sb_init(&body);
    if (sp->alt) sb_puts(&body, prefix);
    if (sp->grouping) group_digits(&body, digits, sp->grouping);
    else sb_puts(&body, digits);
    const char *sign = v < 0 ? "-" : sp->sign == '+' ? "+" : sp->sign == ' ' ? " " : "";
    pad_out(out, sp, sign, sb_str(&body), '>');
    sb_free(&body);
    return true;
}

static void format_float(Interp *I, StrBuf *out, double v, const Spec *sp) {
    char t = sp->type;
    StrBuf body;
    sb_init(&body);
    bool neg = signbit(v) && !isnan(v);
    double a = fabs(v);
    char buf[1200];
    if (isnan(v) || isinf(v)) {
        snprintf(buf, sizeof buf, "%s", isnan(v) ? "nan" : "inf");
        if (t == 'E' || t == 'F' || t == 'G') for (char *q = buf; *q; q++) *q = (char)toupper((unsigned char)*q);
    } else if (t == 0 && sp->precision < 0) {
        StrBuf r;
        sb_init(&r);
        val_float_repr(&r, a);
        snprintf(buf, sizeof buf, "%s", sb_str(&r));
        sb_free(&r);
    } else {
        int prec = sp->precision < 0 ? 6 : sp->precision;
        switch (t) {
        case 'e': case 'E': snprintf(buf, sizeof buf, sp->alt ? "%#.*e" : "%.*e", prec, a); if (t == 'E') buf[strcspn(buf, "e")] = 'E'; break;
        case 'f': case 'F': snprintf(buf, sizeof buf, sp->alt ? "%#.*f" : "%.*f", prec, a); break;
        case '%': snprintf(buf, sizeof buf, "%.*f%%", prec, a * 100); break;
        case 'g': case 'G': case 'n': case 0:
            snprintf(buf, sizeof buf, sp->alt ? "%#.*g" : "%.*g", prec == 0 ? 1 : prec, a);
            if (t == 'G') buf[strcspn(buf, "e")] = buf[strcspn(buf, "e")] ? 'E' : 0;
            if (t == 0 && !strchr(buf, '.') && !strchr(buf, 'e') && strlen(buf) < sizeof buf - 3) strcat(buf, ".0");
            break;
        default: rt_raise(I, "ValueError", "Unknown format code '%c' for object of type 'float'", t); sb_free(&body); return;
        }
    }
    if (sp->grouping && !isnan(v) && !isinf(v)) {
        size_t intlen = strspn(buf, "0123456789");
        char ip[400];
        snprintf(ip, sizeof ip, "%.*s", (int)(intlen < sizeof ip ? intlen : sizeof ip - 1), buf);
        group_digits(&body, ip, sp->grouping);
        sb_puts(&body, buf + intlen);
    } else sb_puts(&body, buf);
    /* Python prints -0.0 with its sign; a value that rounds to zero keeps its sign too */
    const char *sign = neg ? "-" : sp->sign == '+' ? "+" : sp->sign == ' ' ? " " : "";
    pad_out(out, sp, sign, sb_str(&body), '>');
    sb_free(&body);
}

bool pyfmt_format(Interp *I, StrBuf *out, Value *v, const char *spec) {
    if (ops_has_special(I, v, "__format__")) {          /* a student's __format__(spec): its string */
        Value *sv = val_str(I->run.heap, spec), *r = ops_call_special(I, v, "__format__", &sv, 1);
        val_decref(sv);
        if (r && r->kind != V_STR) rt_raise(I, "TypeError", "__format__ must return a str, not %s", val_type_name(r));
        else if (r) sb_putn(out, r->u.str.s, r->u.str.len);
        bool ok = r && r->kind == V_STR;
        val_decref(r);
        return ok;
    }
    if (v->kind == V_TENSOR && v->u.t->ndim == 0) {
        Value *item = ten_is_float(v->u.t->dtype) ? val_float(I->run.heap, ten_get(v->u.t, 0))
                    : v->u.t->dtype == DT_BOOL ? val_bool(I->run.heap, ten_get(v->u.t, 0) != 0) : val_int(I->run.heap, ten_i64(v->u.t)[0]);
        bool ok = pyfmt_format(I, out, item, spec);
        val_decref(item);
        return ok;
    }
    if (!*spec) return val_str_of(I, out, v);
    Spec sp;
    if (!parse_spec(I, spec, &sp)) return false;
    if (v->kind == V_INT || v->kind == V_BOOL) {
        /* a bool with a spec formats as its int (f"{True:>6}" is '     1'), as Python's bool.__format__ */
        int64_t x = v->kind == V_INT ? v->u.i : v->u.b;
        if (format_int(I, out, x, &sp)) return !interp_failed(I);
        format_float(I, out, (double)x, &sp);
        return !interp_failed(I);
    }
    if (v->kind == V_FLOAT) {
        if (sp.type && strchr("bcdoxX", sp.type)) { rt_raise(I, "ValueError", "Unknown format code '%c' for object of type 'float'", sp.type); return false; }
        format_float(I, out, v->u.f, &sp);
        return !interp_failed(I);
    }
    if (v->kind == V_STR) {
        if (sp.type && sp.type != 's') { rt_raise(I, "ValueError", "Unknown format code '%c' for object of type 'str'", sp.type); return false; }
        StrBuf s;
        sb_init(&s);
        sb_putn(&s, v->u.str.s, v->u.str.len);
        if (sp.precision >= 0 && (size_t)sp.precision < s.len) { s.s[sp.precision] = 0; s.len = (size_t)sp.precision; }
        pad_out(out, &sp, "", sb_str(&s), '<');
        sb_free(&s);
        return true;
    }
    /* object.__format__: any other value takes only the empty spec (f"{[1]:>9}" is Python's TypeError) */
    rt_raise(I, "TypeError", "unsupported format string passed to %s.__format__", val_type_name(v));
    return false;
}

/* One value for a %-conversion: a 0-dim (or one-element) tensor stands for its item. */
static Value *scalar_of(Value *v) {
    if (v->kind == V_TENSOR && v->u.t->numel == 1) {
        if (ten_is_float(v->u.t->dtype)) return val_float(v->heap, ten_get(v->u.t, 0));
        if (v->u.t->dtype == DT_BOOL) return val_bool(v->heap, ten_get(v->u.t, 0) != 0);
        return val_int(v->heap, ten_i64(v->u.t)[0]);
    }
    return val_incref(v);
}

Value *pyfmt_percent(Interp *I, Value *fmt, Value *args) {
    const char *s = fmt->u.str.s, *end = s + fmt->u.str.len;
    Value **items = &args;
    int64_t nitems = 1, used = 0;
    bool any_keyed = false;
    /* Python's mapping test (PyMapping_Check, not a tuple or str): such args need not be consumed */
    bool mapping = args->kind == V_DICT || args->kind == V_LIST || class_has_special(I, args, "__getitem__");
    if (args->kind == V_TUPLE) { items = args->u.seq.items; nitems = args->u.seq.n; }
    StrBuf out;
    sb_init(&out);
    for (const char *p = s; p < end; p++) {
        if (*p != '%') { sb_putc(&out, *p); continue; }
        p++;
        if (p >= end) { sb_free(&out); return rt_error(I, "incomplete format: the string ends after '%%'"); }
        if (*p == '%') { sb_putc(&out, '%'); continue; }
        Value *keyed = NULL;                    /* %(name)s: args[name], args a mapping (Python's rule) */
        if (*p == '(') {
            const char *k = ++p;
            for (int depth = 1; p < end && (*p != ')' || --depth > 0); p++)
                if (*p == '(') depth++;
            if (p >= end) { sb_free(&out); return rt_raise(I, "ValueError", "incomplete format key"); }
            if (args->kind == V_TUPLE || args->kind == V_STR) { sb_free(&out); return rt_raise(I, "TypeError", "format requires a mapping"); }
            Value *key = val_strn(I->run.heap, k, (size_t)(p - k));
            keyed = ops_index(I, args, key);
            val_decref(key);
            if (!keyed) { sb_free(&out); return NULL; }
            any_keyed = true;               /* CPython: a later %s without a key finds no argument */
            p++;
        }
        Spec sp;
        memset(&sp, 0, sizeof sp);
        sp.width = sp.precision = -1;
        sp.fill = ' ';
        bool left = false;
        while (p < end && strchr("-+ 0#", *p)) {
            if (*p == '-') left = true;
            if (*p == '+' || *p == ' ') sp.sign = *p;
            if (*p == '0') sp.zero = true;
            if (*p == '#') sp.alt = true;
            p++;
        }
        if (p < end && *p == '*') {
            if (used >= nitems) { val_decref(keyed); sb_free(&out); return rt_raise(I, "TypeError", "not enough arguments for format string"); }
            Value *w = items[used++];
            if (w->kind != V_INT) { val_decref(keyed); sb_free(&out); return rt_raise(I, "TypeError", "* wants int"); }
            sp.width = (int)(w->u.i > 10000 ? 10000 : w->u.i < 0 ? 0 : w->u.i);
            p++;
        } else if (p < end && isdigit((unsigned char)*p)) {
            sp.width = 0;
            while (p < end && isdigit((unsigned char)*p)) { if (sp.width < 10000) sp.width = sp.width * 10 + (*p - '0'); p++; }
        }
        if (p < end && *p == '.') {
            p++;
            sp.precision = 0;
            while (p < end && isdigit((unsigned char)*p)) { if (sp.precision < 1000) sp.precision = sp.precision * 10 + (*p - '0'); p++; }
        }
        if (p >= end) { val_decref(keyed); sb_free(&out); return rt_raise(I, "ValueError", "incomplete format"); }
        char conv = *p;
        if (!keyed && (used >= nitems || any_keyed)) { sb_free(&out); return rt_raise(I, "TypeError", "not enough arguments for format string"); }
        Value *orig = keyed ? keyed : items[used++];
        Value *arg0 = scalar_of(orig);
        sp.align = left ? '<' : (sp.zero && conv != 's' && conv != 'r') ? '=' : '>';
        if (sp.align == '=') sp.fill = '0';
        bool ok = true;
        switch (conv) {
        case 'd': case 'i': case 'u':
            if (arg0->kind == V_INT || arg0->kind == V_BOOL) { sp.type = 'd'; format_int(I, &out, arg0->kind == V_INT ? arg0->u.i : arg0->u.b, &sp); }
            else if (arg0->kind == V_FLOAT) {
                double f = arg0->u.f;
                if (!isfinite(f)) { ok = false; rt_error(I, "cannot convert float %s to integer", isnan(f) ? "NaN" : "infinity"); break; }
                sp.type = 'd';
                format_int(I, &out, (int64_t)f, &sp);
            } else { ok = false; rt_raise(I, "TypeError", "%%%c format: a real number is required, not %s", conv, val_type_name(arg0)); }
            break;
        case 'x': case 'X': case 'o':
            if (arg0->kind != V_INT && arg0->kind != V_BOOL) { ok = false; rt_error(I, "%%%c format: an integer is required, not %s", conv, val_type_name(arg0)); break; }
            sp.type = conv;
            format_int(I, &out, arg0->kind == V_INT ? arg0->u.i : arg0->u.b, &sp);
            break;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
            if (!val_is_number(arg0)) { ok = false; rt_raise(I, "TypeError", "%%%c format: a real number is required, not %s", conv, val_type_name(arg0)); break; }
            sp.type = conv;
            if (sp.precision < 0) sp.precision = 6;
            format_float(I, &out, val_as_double(arg0), &sp);
            break;
        case 'c':
            if (arg0->kind == V_STR && arg0->u.str.chars == 1) pad_out(&out, &sp, "", arg0->u.str.s, '>');
            else if (arg0->kind == V_INT) { sp.type = 'c'; format_int(I, &out, arg0->u.i, &sp); }
            else { ok = false; rt_error(I, "%%c requires an int or a single character"); }
            break;
        case 's': case 'r': case 'a': {
            StrBuf t;
            sb_init(&t);
            if (!(conv == 's' ? val_str_of(I, &t, orig) : conv == 'a' ? val_ascii(I, &t, orig) : val_repr(I, &t, orig))) ok = false;
            if (sp.precision >= 0 && (size_t)sp.precision < t.len) { t.s[sp.precision] = 0; }
            pad_out(&out, &sp, "", sb_str(&t), '>');
            sb_free(&t);
            break;
        }
        default:
            ok = false;
            rt_raise(I, "ValueError", "unsupported format character '%c' (0x%x)", conv, (unsigned char)conv);
        }
        val_decref(arg0);
        val_decref(keyed);
        if (!ok || interp_failed(I)) { sb_free(&out); return NULL; }
    }
    if (used < nitems && args->kind == V_TUPLE) { sb_free(&out); return rt_raise(I, "TypeError", "not all arguments converted during string formatting"); }
    if (used == 0 && args->kind != V_TUPLE && !mapping) { sb_free(&out); return rt_raise(I, "TypeError", "not all arguments converted during string formatting"); }
    return val_str_take(I->run.heap, sb_take(&out));
}

/* npy.c - NumPy's .npy format, version 1.0 to 3.0 (numpy.org/doc/stable/reference/generated/numpy.lib.format.html).
 * Layout: "\x93NUMPY", major, minor, header length (2 bytes in v1, 4 in v2/v3, little-endian), then an ASCII
 * Python dict {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with spaces and '\n' so the data
 * starts at a multiple of 64 bytes. Reading checks every field and the data size, so a damaged file is an error. */
#include "tensor.h"
#include "strbuf.h"
#include "files.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NPY_MAX_FILE ((size_t)1 << 31)

static const char *skip_ws(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n')) p++;
    return p;
}

/* Finds 'key': in the header dict and returns a pointer to its value, or NULL. */
/* Finds 'key': in the header dict and returns a pointer to its value (strictly before end), or NULL. */
static const char *find_key(const char *h, const char *end, const char *key) {
    size_t kl = strlen(key);
    for (const char *p = h; p + kl + 2 < end; p++) {
        if ((*p == '\'' || *p == '"') && p[kl + 1] == *p && memcmp(p + 1, key, kl) == 0) {
            const char *q = skip_ws(p + kl + 2, end);
            if (q < end && *q == ':') {
                q = skip_ws(q + 1, end);
                return q < end ? q : NULL;
            }
        }
    }
    return NULL;
}

/* Does [p, end) start with the literal? (never reads past end) */
static bool starts(const char *p, const char *end, const char *lit) {
    size_t n = strlen(lit);
    return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0;
}

Tensor *npy_parse_in(TenCtx *c, const unsigned char *buf, size_t len) {
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) {
        ten_fail_in(c, "not a .npy file (it does not start with \\x93NUMPY)");
        return NULL;
    }
    int major = buf[6];
    size_t hlen, hstart;
    if (major == 1) { hlen = (size_t)buf[8] | (size_t)buf[9] << 8; hstart = 10; }
    else if (major == 2 || major == 3) {
        if (len < 12) { ten_fail_in(c, "truncated .npy header"); return NULL; }
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        hstart = 12;
    } else {
        ten_fail_in(c, ".npy format version %d.%d is not supported (1.0 to 3.0 are)", major, buf[7]);
        return NULL;
    }
    if (hlen > len - hstart || hlen > 65536) { ten_fail_in(c, "truncated .npy header (%zu bytes announced)", hlen); return NULL; }
    const char *h = (const char *)buf + hstart, *end = h + hlen;
    const char *d = find_key(h, end, "descr"), *fo = find_key(h, end, "fortran_order"), *sh = find_key(h, end, "shape");
    if (!d || !fo || !sh) { ten_fail_in(c, ".npy header lacks 'descr', 'fortran_order' or 'shape'"); return NULL; }
    char descr[16] = {0};
    if (*d != '\'' && *d != '"') { ten_fail_in(c, ".npy header: 'descr' is not a string (structured arrays are not supported)"); return NULL; }
    const char *dq = d + 1 < end ? memchr(d + 1, *d, (size_t)(end - d - 1)) : NULL;
    if (!dq || dq - d - 1 >= (long)sizeof descr) { ten_fail_in(c, ".npy header: bad 'descr'"); return NULL; }
    memcpy(descr, d + 1, (size_t)(dq - d - 1));
    if (!starts(fo, end, "False")) {
        ten_fail_in(c, starts(fo, end, "True") ? "Fortran-order .npy arrays are not supported: save with np.ascontiguousarray"
                                         : ".npy header: bad 'fortran_order'");
        return NULL;
    }
    if (*sh != '(') { ten_fail_in(c, ".npy header: 'shape' is not a tuple"); return NULL; }
    int64_t shape[TEN_MAX_DIMS];
    int nd = 0;
    const char *p = sh + 1;
    for (;;) {
        p = skip_ws(p, end);
        if (p >= end) { ten_fail_in(c, ".npy header: unterminated 'shape'"); return NULL; }
        if (*p == ')') break;
        if (*p < '0' || *p > '9') { ten_fail_in(c, ".npy header: bad number in 'shape'"); return NULL; }
        int64_t v = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            if (v > c->limit_numel) { ten_fail_in(c, ".npy array is too large"); return NULL; }
            v = v * 10 + (*p++ - '0');
        }
        if (p < end && *p == 'L') p++;
        if (nd >= TEN_MAX_DIMS) { ten_fail_in(c, ".npy array has more than %d dimensions", TEN_MAX_DIMS); return NULL; }
        shape[nd++] = v;
        p = skip_ws(p, end);
        if (p < end && *p == ',') p++;
    }
    size_t esize;
    DType dt;
    int kind;   /* 0 f4, 1 f8, 2 i8, 3 i4, 4 b1 */
    if (!strcmp(descr, "<f4") || !strcmp(descr, "=f4")) { kind = 0; esize = 4; dt = DT_F32; }
    else if (!strcmp(descr, "<f8") || !strcmp(descr, "=f8")) { kind = 1; esize = 8; dt = DT_F64; }
    else if (!strcmp(descr, "<i8") || !strcmp(descr, "=i8")) { kind = 2; esize = 8; dt = DT_I64; }
    else if (!strcmp(descr, "<i4") || !strcmp(descr, "=i4")) { kind = 3; esize = 4; dt = DT_I64; }
    else if (!strcmp(descr, "|b1")) { kind = 4; esize = 1; dt = DT_BOOL; }
    else { ten_fail_in(c, ".npy dtype '%s' is not supported (float32 <f4, float64 <f8, int64 <i8, int32 <i4, bool |b1 are)", descr); return NULL; }
    Tensor *t = ten_new_in(c, dt, nd, shape);
    if (!t) return NULL;
    size_t need = (size_t)t->numel * esize, have = len - hstart - hlen;
    if (have < need) {
        ten_fail_in(c, "truncated .npy data: %zu bytes for %lld elements of %s, expected %zu", have, (long long)t->numel, descr, need);
        ten_free(t);
        return NULL;
    }
    const unsigned char *src = buf + hstart + hlen;
    for (int64_t i = 0; i < t->numel; i++) {
        const unsigned char *e = src + (size_t)i * esize;
        switch (kind) {
        case 0: { float f; memcpy(&f, e, 4); ten_f32(t)[i] = f; break; }
        case 1: { double f; memcpy(&f, e, 8); ten_f64(t)[i] = f; break; }
        case 2: { int64_t v; memcpy(&v, e, 8); ten_i64(t)[i] = v; break; }
        case 3: { int32_t v; memcpy(&v, e, 4); ten_i64(t)[i] = v; break; }
        default: ten_b8(t)[i] = *e != 0; break;
        }
    }
    return t;
}

static int save_dense(const char *path, const Tensor *t);

/* What a file that is not a regular one is, for the message ("a named pipe (FIFO)"). */
static const char *file_kind(mode_t m) {
    return S_ISFIFO(m) ? "a named pipe (FIFO)" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

Tensor *npy_load_in(TenCtx *c, const char *path) {
    /* opened without blocking and checked first: a FIFO would wait for a writer for ever, /dev/zero never ends */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { ten_fail_in(c, "cannot open '%s': %s", path, strerror(errno)); return NULL; }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ten_fail_in(c, "cannot load '%s': it is %s, not a .npy file (load reads regular files only)", path, file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) { ten_fail_in(c, "cannot open '%s': %s", path, strerror(errno)); close(fd); return NULL; }
    StrBuf b;
    sb_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.len + n > NPY_MAX_FILE) { fclose(f); sb_free(&b); ten_fail_in(c, "'%s' is larger than 2 GiB", path); return NULL; }
        sb_putn(&b, chunk, n);
    }
    int err = ferror(f);
    fclose(f);
    if (err) { sb_free(&b); ten_fail_in(c, "cannot read '%s'", path); return NULL; }
    Tensor *t = npy_parse_in(c, (const unsigned char *)(b.s ? b.s : ""), b.len);
    sb_free(&b);
    if (!t) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", ten_error(c));
        ten_fail_in(c, "%s: %s", path, msg);
    }
    return t;
}

int npy_save(const char *path, const Tensor *view) {
    Tensor *tmp;
    const Tensor *t = ten_as_contiguous(view, &tmp);
    if (!t) return -1;
    int rc = save_dense(path, t);
    ten_free(tmp);
    return rc;
}

static int save_dense(const char *path, const Tensor *t) {
    const char *descr = t->dtype == DT_F32 ? "<f4" : t->dtype == DT_F64 ? "<f8" : t->dtype == DT_I64 ? "<i8" : "|b1";
    StrBuf h;
    sb_init(&h);
    sb_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < t->ndim; i++) sb_printf(&h, i ? ", %lld" : "%lld", (long long)t->shape[i]);
    sb_puts(&h, t->ndim == 1 ? ",), }" : "), }");
    size_t total = 10 + h.len + 1;
    sb_pad(&h, ' ', (long)((64 - total % 64) % 64));
    sb_putc(&h, '\n');
    /* a temporary file beside it, every write checked, then renamed: a full disk never leaves half a file */
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(h.len & 0xff), (unsigned char)(h.len >> 8)};
    AttnError err;
    FileWriter w;
    bool ok = file_begin_stoppable(&w, path, &ten_interrupted, &err);   /* Ctrl-C stops a long save */
    if (ok) {
        file_put(&w, pre, 10);
        file_put(&w, h.s, h.len);
        file_put(&w, t->data, ten_dtype_size(t->dtype) * (size_t)t->numel);
        ok = file_commit(&w, &err);
    }
    sb_free(&h);
    if (!ok && err.kind == ERR_INTERRUPT && ten_interrupted) { ten_fail_interrupted(ten_ctx_of(t)); return -1; }
    if (!ok) { ten_fail_in(ten_ctx_of(t), "%s", err_msg(&err)); return -1; }
    return 0;
}

/* timeit_builtin.c - timeit("statement", repeat=5): the median time of running a statement, as Python's timeit
 * module does (each repeat runs it enough times to last at least 20 ms; the statement is parsed once, as Python
 * compiles it once). Used by `make bench`. */
#include "builtins_internal.h"
#include "interp.h"
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static Value *bi_timeit(Interp *I, Args *a) {
    Value *p[3];                                 /* stmt, repeat, number */
    if (!args_bind(I, a, p, 3)) return NULL;
    Value *sv = p[0], *rv = p[1], *nv = p[2];
    if (!sv || sv->kind != V_STR) return rt_error(I, "timeit(\"statement\", repeat=5) needs the statement as a string");
    int64_t repeat = 5, number = 0;
    if ((rv && !arg_int(I, rv, "repeat", &repeat)) || (nv && !arg_int(I, nv, "number", &number))) return NULL;
    if (repeat < 1 || repeat > 101 || number < 0 || number > 1000000) return rt_error(I, "timeit: repeat must be 1..101 and number 0..1000000 (0: automatic)");
    char *src = xstrdup(sv->u.str.s);
    Node *tree = interp_parse(I, src, "<timeit>", 1);
    if (!tree) {
        free(src);
        return rt_error_prefix(I, "timeit: the statement failed");
    }
    StrBuf sink;
    OutputSink cap;
    sb_init(&sink);
    bool echo = I->echo_values;
    I->echo_values = false;
    interp_push_sink(I, &cap, SINK_CAPTURE, &sink);
    double times[101];
    Value *result = NULL;
    bool failed = false;
    for (int64_t r = 0; r < repeat && !failed; r++) {
        /* automatic: the clock is read after 1, 2, 4, 8 ... runs (not after each, which would add its own cost to
         * a tiny statement's), until the repeat has lasted 20 ms */
        int64_t n = 0, next_check = 1;
        double t0 = now_s();
        do {
            /* a nested run: the calling statement's source and position come back afterwards */
            if (interp_run_tree(I, tree, src, "<timeit>", 1) != 0) { failed = true; break; }
            n++;
            sb_clear(&sink);
            if (number) { if (n >= number) break; }
            else if (n == next_check) {
                if (now_s() - t0 >= 0.02) break;
                next_check *= 2;
            }
        } while (!ten_interrupted);
        if (ten_interrupted) { failed = true; rt_interrupt(I); }
        times[r] = (now_s() - t0) / (double)(n ? n : 1);
    }
    interp_pop_sink(I, &cap);
    I->echo_values = echo;
    sb_free(&sink);
    ast_free(tree);
    free(src);
    if (failed) return rt_error_prefix(I, "timeit: the statement failed");
    qsort(times, (size_t)repeat, sizeof(double), cmp);
    result = val_float(I->run.heap, times[repeat / 2]);
    return result;
}

const Builtin bi_timeit_table[] = {
    {"timeit", bi_timeit, "timeit(stmt, repeat=5, number=0)",
     "timeit(\"statement\"): the median time in seconds of one run of the statement (each of the repeats runs it for at least 20 ms).", "", 0, ""},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

/* SPDX-License-Identifier: MIT */
/* Soak: 8 threads for a fixed time ($CLPRIM_SOAK_SECONDS, default 60; CI's
 * sanitizer pass sets 20) on two contexts of one device -- four on the first
 * context's own queue, two on queues of their own on it (one in-order, one
 * out-of-order), two on a second context (its queue, and an out-of-order
 * one; in order on Intel's CPU runtime, whose deadlock is told at
 * in_order_only below) -- each calling every primitive at random, over
 * random sizes (1 to MAX_N elements, mostly up to 5000), random offsets,
 * with its own buffers
 * and events:
 *   scans of every algorithm (inclusive and exclusive, some with a
 *   carry-in) and reduces of every algorithm; scans and reduces through
 *   transforms (into a type of the input's size, a wider one, a narrower
 *   one, of the index i); select (comparisons, flags, expressions of i;
 *   indices; in place), partition (both orders of the rejected), unique and
 *   run-length encoding, each algorithm; segmented scans and reduces by
 *   uint8 / uint32 flags, keys and offsets (empty segments), transforms
 *   included; summed-area tables of both algorithms (types, operators,
 *   uint8 pixels, exclusive) and box filters (from an image, or from the table a
 *   summed-area table call before it builds, chained by its event);
 *   clprim_sort with each algorithm (AUTO, ONESWEEP, SPLIT_LSB,
 *   TILE_BITONIC), keys and pairs (values of 1 to 12 bytes), bit ranges,
 *   descending, in place, a caller's scratch; clprim_split (values, the
 *   count); clprim_multi_scan / _reduce / _select over 1 to 4 parts spread
 *   at random over the two contexts (transforms and select expressions of
 *   i, flags).
 * Every result is checked on the host against tests/reference
 * (clprim_ref_scan_check, _reduce_check, _sat_check, _sort,
 * _permuted_check, _sorted_check, _select, _partition, _run_lengths, ...).
 * Meanwhile a second process (started before any OpenCL: a driver's
 * threads do not survive a fork) creates context after context on the same
 * on-disk program cache and runs one call on each, the primitive in
 * rotation (scan, reduce, sort with each algorithm in turn, keys or pairs,
 * select, summed-area table, segmented scan and reduce, box filter), each
 * checked: it loads entries the first process is writing, and writes
 * entries the first process loads.
 *
 * Types: wide (every built-in type and operator, the six key types, every
 * transform; the default on GPUs) or narrow (int32 scans and reduces,
 * uint32 / uint64 keys, one transform, a few predicates and segment kinds:
 * every primitive and algorithm still; the default on CPU devices, where a
 * program takes seconds of a core to compile); $CLPRIM_SOAK_WIDE=1 / 0
 * chooses. One call of a kind not seen yet (which may compile programs)
 * runs at a time per context, none in the last 15 s (at most a quarter of
 * the run): the others are deferred and drawn again, so that on PoCL with
 * a cold compiler cache the threads are not all stuck compiling and the
 * run ends near its time.
 *
 * At the end one line records the run: "soak: N calls (per primitive ...;
 * second process: C contexts, per primitive ...), F failures, S seconds,
 * device NAME (platform, driver), ..., U unsupported, D deferred, P programs
 * (H from the disk cache), second process ok". Any wrong result, failure or
 * hang (CTest's timeout) fails the test; CLPRIM_UNSUPPORTED (the single pass
 * on a device without it) is counted apart, not as a call. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"
#include "reference/reference.h"

#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define THREADS 8
#define MAX_N 100000
#define BUF (16 * MAX_N + 4096) /* bytes of each host work array */
#define MAX_PARTS 4
#define MULTI_CUT 4096 /* where parts of i-reading expressions may start */
#define STR_(x) #x
#define STR(x) STR_(x)
#define MAX_MEMS 24

/* What the mix calls; the names are the summary's. */
#define PRIMS(XX)                                                              \
    XX(SCAN, "scan")                                                           \
    XX(REDUCE, "reduce")                                                       \
    XX(TSCAN, "transform-scan")                                                \
    XX(TREDUCE, "transform-reduce")                                            \
    XX(SELECT, "select")                                                       \
    XX(PARTITION, "partition")                                                 \
    XX(UNIQUE, "unique")                                                       \
    XX(RLE, "run-length")                                                      \
    XX(SEG_SCAN, "segmented-scan")                                             \
    XX(SEG_REDUCE, "segmented-reduce")                                         \
    XX(SAT, "sat")                                                             \
    XX(BOX, "box")                                                             \
    XX(SORT_AUTO, "sort-auto")                                                 \
    XX(SORT_ONESWEEP, "sort-onesweep")                                         \
    XX(SORT_SPLIT_LSB, "sort-split-lsb")                                       \
    XX(SORT_TILE_BITONIC, "sort-tile-bitonic")                                 \
    XX(SPLIT, "split")                                                         \
    XX(MULTI_SCAN, "multi-scan")                                               \
    XX(MULTI_REDUCE, "multi-reduce")                                           \
    XX(MULTI_SELECT, "multi-select")

enum {
#define XX_(e, s) P_##e,
    PRIMS(XX_)
#undef XX_
    P_COUNT
};
static const char *const prim_name[P_COUNT] = {
#define XX_(e, s) s,
    PRIMS(XX_)
#undef XX_
};

/* The second process's calls, one per context, in rotation. */
enum { N_SCAN, N_REDUCE, N_SORT, N_SELECT, N_SAT, N_SEG_SCAN, N_SEG_REDUCE, N_BOX, N_COUNT };
static const char *const neighbour_name[N_COUNT] = {
    "scan", "reduce", "sort", "select", "sat", "segmented-scan", "segmented-reduce", "box"};

typedef struct neighbour_report {
    unsigned long contexts, calls[N_COUNT], unsupported;
    int failures;
} neighbour_report;

static clprim_context *ctxs[2];
static clprim_device_info info;
/* The variety of types and operators: wide (every built-in type and
 * operator, every transform; GPUs by default) or narrow (a few of each,
 * every primitive and algorithm still; CPU devices by default, where a
 * program takes seconds of a core to compile): $CLPRIM_SOAK_WIDE=1 / 0
 * chooses. */
static int wide;
/* Queues of their own in order only: Intel's CPU runtime (2026.2) deadlocks
 * with out-of-order queues among eight host threads on two cores (seen
 * 2026-11-26, in CI and in 1 of 2 runs beside test_faults on the
 * development machine: every thread asleep, one blocking read inside the
 * runtime running another queue's out-of-order executor task, which waits
 * for its own tasks while the TBB worker sleeps and a second blocking read
 * waits for a place in the arena). Out-of-order queues stay in the soak
 * everywhere else and in the other tests on that runtime;
 * $CLPRIM_SOAK_OUT_OF_ORDER=1 puts them back. */
static int in_order_only;
static char cache_dir[] = "/tmp/clprim-soak-XXXXXX";
static double deadline;
static pthread_mutex_t report = PTHREAD_MUTEX_INITIALIZER;
static int failures;
static unsigned long calls[P_COUNT], unsupported[P_COUNT];

/* Programs the two contexts assembled, and how many of them came from the
 * disk cache (the rest were compiled), from the log callback. */
static unsigned long programs, disk_hits;

static void log_counts(void *user, int level, const char *message)
{
    (void)user;
    (void)level;
    pthread_mutex_lock(&report);
    if (!strncmp(message, "building ", 9))
        ++programs;
    else if (!strncmp(message, "disk cache: hit", 15))
        ++disk_hits;
    pthread_mutex_unlock(&report);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One thread's state: its context and queue, its random state, host work
 * arrays, the buffers and events of the call in progress (released after
 * it), and its counts. */
typedef struct work {
    int thread;
    clprim_context *ctx;
    cl_command_queue q;  /* NULL: the context's */
    cl_command_queue rq; /* where results are read */
    uint64_t s;
    unsigned char *a, *b, *c, *d, *e, *g, *keep;
    size_t *idx;
    cl_mem mems[MAX_MEMS];
    cl_event evs[4];
    int nmem, nev;
    char name[256];
    unsigned long count[P_COUNT], skipped[P_COUNT], deferred;
    int novel; /* the call in progress is of a novel kind */
} work;

static void fail_report(const work *w, clprim_context *c, clprim_status st, const char *fmt, ...)
{
    char msg[1024] = "", what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (c)
        clprim_context_last_error(c, msg, sizeof msg);
    pthread_mutex_lock(&report);
    if (failures++ < 10)
        fprintf(stderr, "thread %d: %s: %s%s %s\n", w ? w->thread : -1, w ? w->name : "", what,
                st != CLPRIM_SUCCESS ? clprim_status_string(st) : "", msg);
    pthread_mutex_unlock(&report);
}

static size_t rnd(work *w, size_t m)
{
    return m ? (size_t)(tu_rand(&w->s) % m) : 0;
}

/* 1 to MAX_N elements, mostly up to 5000 */
static size_t pick_n(work *w)
{
    return 1 + rnd(w, rnd(w, 4) ? 5000 : MAX_N);
}

/* A buffer of `bytes` on c (copied from src when not NULL), released after
 * the call; NULL (reported) when it cannot be made. */
static cl_mem mk(work *w, clprim_context *c, size_t bytes, const void *src)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = NULL;
    if (w->nmem < MAX_MEMS)
        m = clCreateBuffer(clprim_context_cl_context(c),
                           CL_MEM_READ_WRITE | (src ? CL_MEM_COPY_HOST_PTR : 0),
                           bytes ? bytes : 1, (void *)src, &err);
    if (!m) {
        fail_report(w, NULL, CLPRIM_SUCCESS, "clCreateBuffer of %zu bytes: %d", bytes, (int)err);
        return NULL;
    }
    w->mems[w->nmem++] = m;
    return m;
}

static cl_event *ev_slot(work *w)
{
    w->evs[w->nev] = NULL;
    return &w->evs[w->nev++];
}

/* Blocking read of `bytes` from byte `off` of m, after ev (may be NULL). */
static clprim_status rd(work *w, cl_command_queue q, cl_mem m, size_t off, size_t bytes,
                        void *dst, cl_event ev)
{
    if (!bytes)
        return CLPRIM_SUCCESS;
    return clEnqueueReadBuffer(q ? q : w->rq, m, CL_TRUE, off, bytes, dst, ev ? 1 : 0,
                               ev ? &ev : NULL, NULL);
}

/* Kinds of call (a call's name up to " n=": what decides which programs
 * it builds) that have run, as hashes. A kind that has not run yet is
 * novel: one novel call runs at a time on each context (the others defer
 * theirs and draw again), and none in the last LATE seconds (at most a
 * quarter of the run). On a CPU device a program takes seconds to
 * compile, queued behind its context's lock: with every thread on a new
 * kind at once the run would stall, and go on well past its time at the
 * end. */
#define LATE 15.0
#define KIND_SLOTS 16384
static uint64_t kinds_seen[KIND_SLOTS]; /* open addressing; 0: empty */
static size_t num_kinds;
static int novel_running[2]; /* on each context */
static double late;
static unsigned long deferred_calls;

static uint64_t kind_hash(const char *name)
{
    const char *end = strstr(name, " n=");
    const size_t len = end ? (size_t)(end - name) : strlen(name);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; ++i)
        h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
    return h ? h : 1;
}

/* Whether kind h has run (under the lock); with add, it has now. */
static int kind_seen_locked(uint64_t h, int add)
{
    size_t i = (size_t)(h % KIND_SLOTS);
    while (kinds_seen[i] && kinds_seen[i] != h)
        i = (i + 1) % KIND_SLOTS;
    if (kinds_seen[i])
        return 1;
    if (add && num_kinds + 1 < KIND_SLOTS) {
        kinds_seen[i] = h;
        ++num_kinds;
    }
    return 0;
}

/* Whether the call named in w->name is deferred (called once its name is
 * set, before it touches OpenCL); a novel call that is not holds the
 * novel slot until it is done (the worker gives it back). */
static int deferred(work *w)
{
    const uint64_t h = kind_hash(w->name);
    const double t = now();
    int defer = 0;
    pthread_mutex_lock(&report);
    if (!kind_seen_locked(h, 0)) {
        defer = t >= late || novel_running[w->ctx == ctxs[1]];
        if (!defer)
            novel_running[w->ctx == ctxs[1]] = w->novel = 1;
    }
    pthread_mutex_unlock(&report);
    return defer;
}

/* The call's verdict: 0 right, 1 unsupported (skipped), -1 failed. */
static int verdict(work *w, clprim_context *c, clprim_status st, long bad_at)
{
    if (st == CLPRIM_UNSUPPORTED)
        return 1;
    if (st != CLPRIM_SUCCESS) {
        fail_report(w, c, st, "");
        return -1;
    }
    if (bad_at >= 0) {
        fail_report(w, NULL, CLPRIM_SUCCESS, "wrong result (first at %ld)", bad_at);
        return -1;
    }
    return 0;
}

/* ---- elements ---- */

static void put_ll(clprim_type t, void *p, long long v)
{
    switch (t) {
    case CLPRIM_TYPE_INT32: { const cl_int x = (cl_int)v; memcpy(p, &x, 4); break; }
    case CLPRIM_TYPE_UINT32: { const cl_uint x = (cl_uint)v; memcpy(p, &x, 4); break; }
    case CLPRIM_TYPE_INT64: { const cl_long x = (cl_long)v; memcpy(p, &x, 8); break; }
    case CLPRIM_TYPE_UINT64: { const cl_ulong x = (cl_ulong)v; memcpy(p, &x, 8); break; }
    case CLPRIM_TYPE_FLOAT: { const cl_float x = (cl_float)v; memcpy(p, &x, 4); break; }
    case CLPRIM_TYPE_DOUBLE: { const cl_double x = (cl_double)v; memcpy(p, &x, 8); break; }
    default: break;
    }
}

static double get_d(clprim_type t, const void *p)
{
    union { cl_int i; cl_uint u; cl_long l; cl_ulong ul; cl_float f; cl_double d; } v;
    memcpy(&v, p, clprim_type_size(t));
    switch (t) {
    case CLPRIM_TYPE_INT32: return v.i;
    case CLPRIM_TYPE_UINT32: return v.u;
    case CLPRIM_TYPE_INT64: return (double)v.l;
    case CLPRIM_TYPE_UINT64: return (double)v.ul;
    case CLPRIM_TYPE_FLOAT: return v.f;
    default: return v.d;
    }
}

/* A type and operator for a scan or reduce: wide, any built-in type
 * (double where the device has it) and operator; narrow, int32 sums for
 * scans and int32 max for reduces (what the second process calls too). */
static void pick_type_op(work *w, int reduce, clprim_type *type, clprim_op *op)
{
    static const clprim_type t[] = {CLPRIM_TYPE_INT32, CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT64,
                                    CLPRIM_TYPE_UINT64, CLPRIM_TYPE_FLOAT, CLPRIM_TYPE_DOUBLE};
    if (wide) {
        *type = t[rnd(w, info.has_fp64 ? 6 : 5)];
        *op = (clprim_op)rnd(w, CLPRIM_OP_COUNT_);
    } else {
        *type = CLPRIM_TYPE_INT32;
        *op = reduce ? CLPRIM_OP_MAX : CLPRIM_OP_SUM;
    }
}

/* Transforms of integer inputs in [-1000, 1000]: into a type of the
 * input's size, a wider one, a narrower one, of i. */
typedef struct tform {
    clprim_type in, out;
    clprim_op op;
    const char *expression;
    int reads_i;
} tform;
static const tform tforms[] = {
    {CLPRIM_TYPE_INT32, CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, "x > 0", 0},
    {CLPRIM_TYPE_INT32, CLPRIM_TYPE_INT64, CLPRIM_OP_SUM, "(long)x * x", 0},
    {CLPRIM_TYPE_INT32, CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, "x + (int)(i % 7)", 1},
    {CLPRIM_TYPE_INT32, CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, "(float)x * 0.5f", 0},
    {CLPRIM_TYPE_INT32, CLPRIM_TYPE_INT64, CLPRIM_OP_SUM, "(long)x * (long)(i % 5)", 1},
    {CLPRIM_TYPE_INT64, CLPRIM_TYPE_INT32, CLPRIM_OP_MIN, "(int)(x / 3)", 0},
};
#define TFORMS (sizeof tforms / sizeof tforms[0])

/* wide: any of them; narrow: the one of i */
static size_t pick_tform(work *w)
{
    return wide ? rnd(w, TFORMS) : 2;
}

/* Transform k in *tf, and n random inputs of its input type into `in`
 * with their images into `mapped` (i counted from first); returns the
 * input's element size. */
static size_t tform_setup(work *w, size_t k, clprim_transform *tf, unsigned char *in, size_t n,
                          size_t first, unsigned char *mapped)
{
    const tform *f = &tforms[k];
    const size_t ie = clprim_type_size(f->in), e = clprim_type_size(f->out);
    tf->input = f->in;
    tf->expression = f->expression;
    for (size_t j = 0; j < n; ++j) {
        const long long v = (long long)rnd(w, 2001) - 1000, i = (long long)(first + j);
        void *p = mapped + j * e;
        put_ll(f->in, in + j * ie, v);
        switch (k) {
        case 0: put_ll(f->out, p, v > 0); break;
        case 1: put_ll(f->out, p, v * v); break;
        case 2: put_ll(f->out, p, v + i % 7); break;
        case 3: { const cl_float x = (cl_float)v * 0.5f; memcpy(p, &x, 4); break; }
        case 4: put_ll(f->out, p, v * (i % 5)); break;
        default: put_ll(f->out, p, v / 3); break;
        }
    }
    return ie;
}

/* ---- scan and reduce, plain and through transforms ---- */

static int do_scan(work *w, int transform)
{
    const size_t n = pick_n(w), in_off = rnd(w, 4), out_off = rnd(w, 4);
    const size_t k = pick_tform(w);
    const int init = !transform && rnd(w, 4) == 0;
    clprim_transform tf;
    clprim_scan_desc d;
    clprim_status st;
    unsigned char *x; /* what is scanned (mapped, with a transform; the carry-in first, with one) */
    size_t e, ie;
    cl_mem in, out, ib = NULL;
    cl_event *ev = ev_slot(w);
    long bad = -1;

    memset(&d, 0, sizeof d);
    if (transform) {
        d.type = tforms[k].out;
        d.op = tforms[k].op;
        d.transform = &tf;
        ie = clprim_type_size(tforms[k].in);
        tform_setup(w, k, &tf, w->a + ie * in_off, n, 0, w->c);
        x = w->c;
    } else {
        pick_type_op(w, 0, &d.type, &d.op);
        ie = clprim_type_size(d.type);
        if (init) { /* x = the carry-in, then the n elements */
            clprim_ref_fill(d.type, d.op, w->c, n + 1, &w->s);
            memcpy(w->a + ie * in_off, w->c + ie, ie * n);
            x = w->c;
        } else {
            clprim_ref_fill(d.type, d.op, w->a + ie * in_off, n, &w->s);
            x = w->a + ie * in_off;
        }
    }
    e = clprim_type_size(d.type);
    d.exclusive = (int)rnd(w, 2);
    d.algorithm = (clprim_scan_algorithm)rnd(w, CLPRIM_SCAN_ALGORITHM_COUNT_);
    snprintf(w->name, sizeof w->name, "%s %s %s %s%s%s%s%s n=%zu",
             transform ? "transform scan" : "scan", clprim_scan_algorithm_name(d.algorithm),
             clprim_type_name(d.type), clprim_op_name(d.op), d.exclusive ? " exclusive" : "",
             init ? " with a carry-in" : "", transform ? " of " : "",
             transform ? tf.expression : "", n);
    if (deferred(w))
        return 2;
    in = mk(w, w->ctx, ie * (in_off + n), w->a);
    out = mk(w, w->ctx, e * (out_off + n), NULL);
    if (init)
        ib = mk(w, w->ctx, e, x);
    if (!in || !out || (init && !ib))
        return -1;
    st = init ? clprim_scan_init(w->ctx, w->q, &d, ib, 0, in, in_off, out, out_off, n, 0, NULL, ev)
              : clprim_scan(w->ctx, w->q, &d, in, in_off, out, out_off, n, 0, NULL, ev);
    /* with a carry-in, inclusive: [init, out...] is the inclusive scan of
     * x (n + 1 elements); exclusive: out is that scan's first n */
    if (st == CLPRIM_SUCCESS)
        st = rd(w, NULL, out, e * out_off, e * n, w->b + (init && !d.exclusive ? e : 0), *ev);
    if (st == CLPRIM_SUCCESS && init) {
        memcpy(w->b, x, e);
        if (clprim_ref_scan_check(d.type, d.op, 0, x, w->b, n + !d.exclusive, NULL, NULL))
            bad = 0;
    } else if (st == CLPRIM_SUCCESS &&
               clprim_ref_scan_check(d.type, d.op, d.exclusive, x, w->b, n, NULL, NULL)) {
        bad = 0;
    }
    return verdict(w, w->ctx, st, bad);
}

static int do_reduce(work *w, int transform)
{
    const size_t n = pick_n(w), in_off = rnd(w, 4), res_off = rnd(w, 4);
    const size_t k = pick_tform(w);
    clprim_transform tf;
    clprim_reduce_desc d;
    clprim_status st;
    unsigned char *x = w->a;
    size_t e, ie;
    cl_mem in, out;
    cl_event *ev = ev_slot(w);
    long bad = -1;

    memset(&d, 0, sizeof d);
    if (transform) {
        d.type = tforms[k].out;
        d.op = tforms[k].op;
        d.transform = &tf;
        ie = clprim_type_size(tforms[k].in);
        tform_setup(w, k, &tf, w->a + ie * in_off, n, 0, w->c);
        x = w->c;
    } else {
        pick_type_op(w, 1, &d.type, &d.op);
        ie = clprim_type_size(d.type);
        clprim_ref_fill(d.type, d.op, w->a + ie * in_off, n, &w->s);
        x = w->a + ie * in_off;
    }
    e = clprim_type_size(d.type);
    d.algorithm = (clprim_reduce_algorithm)rnd(w, CLPRIM_REDUCE_ALGORITHM_COUNT_);
    snprintf(w->name, sizeof w->name, "%s %s %s %s%s%s n=%zu",
             transform ? "transform reduce" : "reduce", clprim_reduce_algorithm_name(d.algorithm),
             clprim_type_name(d.type), clprim_op_name(d.op), transform ? " of " : "",
             transform ? tf.expression : "", n);
    if (deferred(w))
        return 2;
    in = mk(w, w->ctx, ie * (in_off + n), w->a);
    out = mk(w, w->ctx, e * (res_off + 1), NULL);
    if (!in || !out)
        return -1;
    st = clprim_reduce(w->ctx, w->q, &d, in, in_off, n, out, res_off, 0, NULL, ev);
    if (st == CLPRIM_SUCCESS)
        st = rd(w, NULL, out, e * res_off, e, w->b, *ev);
    if (st == CLPRIM_SUCCESS && clprim_ref_reduce_check(d.type, d.op, x, n, w->b, NULL, NULL))
        bad = 0;
    return verdict(w, w->ctx, st, bad);
}

/* ---- compaction ---- */

/* Elements in runs (for unique and run-length encoding): small values, so
 * that neighbours are often equal; floats with -0.0 (equal to 0.0) and
 * NaNs (equal to nothing). */
static void fill_runs(work *w, clprim_type t, unsigned char *x, size_t n)
{
    const size_t e = clprim_type_size(t);
    size_t i = 0;
    while (i < n) {
        size_t len = 1 + rnd(w, rnd(w, 4) ? 4 : 40);
        const long long v = (long long)rnd(w, 5) - 2;
        unsigned char one[8];
        put_ll(t, one, v);
        if ((t == CLPRIM_TYPE_FLOAT || t == CLPRIM_TYPE_DOUBLE) && v == 0 && rnd(w, 2))
            one[e - 1] |= 0x80; /* -0.0 */
        if ((t == CLPRIM_TYPE_FLOAT || t == CLPRIM_TYPE_DOUBLE) && rnd(w, 64) == 0)
            memset(one, 0xff, e); /* a NaN */
        for (; len-- && i < n; ++i)
            memcpy(x + i * e, one, e);
    }
}

enum { C_SELECT, C_PARTITION, C_UNIQUE, C_RLE };

static int do_compact(work *w, int kind)
{
    static const clprim_type types[] = {CLPRIM_TYPE_INT32, CLPRIM_TYPE_UINT64, CLPRIM_TYPE_FLOAT,
                                        CLPRIM_TYPE_INT64};
    static const char *const kinds[] = {"select", "partition", "unique", "run-length encode"};
    static const char *const expr = "x > 0 && i % 3 != 1";
    const size_t n = pick_n(w), in_off = rnd(w, 4);
    const int in_place = kind != C_PARTITION && rnd(w, 4) == 0;
    const size_t out_off = in_place ? in_off : rnd(w, 4), cnt_off = rnd(w, 2), aux_off = rnd(w, 2);
    const int pred = kind <= C_PARTITION ? (int)rnd(w, wide ? 3 : 2) : -1;
    int indices;
    clprim_compact_desc d;
    clprim_status st;
    unsigned char value[8];
    unsigned char *x;
    size_t e, i, want, kept_or_runs;
    cl_ulong count = 0, *lengths = (cl_ulong *)w->d, *want_aux = (cl_ulong *)w->g;
    cl_mem in, out, cnt, fl = NULL, aux = NULL;
    cl_event *ev = ev_slot(w);
    long bad = -1;

    memset(&d, 0, sizeof d);
    d.type = wide ? types[rnd(w, sizeof types / sizeof types[0])] : CLPRIM_TYPE_INT32;
    d.algorithm = (clprim_compact_algorithm)rnd(w, CLPRIM_COMPACT_ALGORITHM_COUNT_);
    e = clprim_type_size(d.type);
    x = w->a + e * in_off;
    if (kind <= C_PARTITION)
        clprim_ref_fill(d.type, CLPRIM_OP_SUM, x, n, &w->s);
    else
        fill_runs(w, d.type, x, n);
    /* the kept elements: w->keep[i] */
    if (pred == 0) {
        d.predicate = wide ? (clprim_predicate)rnd(w, CLPRIM_PREDICATE_FLAGS_U8)
                           : CLPRIM_PREDICATE_LESS;
        memcpy(value, x + e * rnd(w, n), e);
        d.value = value;
        clprim_ref_compare(d.type, d.predicate, value, x, n, w->keep);
    } else if (pred == 1) {
        const size_t one_in = 1 + rnd(w, 8);
        d.predicate = CLPRIM_PREDICATE_FLAGS_U8;
        for (i = 0; i < n; ++i)
            w->keep[i] = rnd(w, one_in) == 0;
    } else if (pred == 2) {
        d.predicate = CLPRIM_PREDICATE_EXPRESSION;
        d.expression = expr;
        for (i = 0; i < n; ++i)
            w->keep[i] = get_d(d.type, x + i * e) > 0 && i % 3 != 1;
    } else {
        clprim_ref_heads(1, d.type, e, x, n, w->keep);
    }
    indices = kind == C_SELECT && rnd(w, 3) == 0;
    if (kind == C_PARTITION)
        d.reverse_rejected = (int)rnd(w, 2);
    snprintf(w->name, sizeof w->name, "%s %s %s%s%s%s%s n=%zu", kinds[kind],
             clprim_compact_algorithm_name(d.algorithm), clprim_type_name(d.type),
             pred >= 0 ? " " : "", pred >= 0 ? clprim_predicate_name(d.predicate) : "",
             in_place ? " in place" : "", indices ? " indices" : "", n);
    if (deferred(w))
        return 2;
    if (pred == 1 && !(d.flags = fl = mk(w, w->ctx, n, w->keep)))
        return -1;
    if (indices) {
        d.indices = aux = mk(w, w->ctx, 8 * (aux_off + n), NULL);
        d.indices_off = aux_off;
    } else if (kind == C_RLE) {
        aux = mk(w, w->ctx, 8 * (aux_off + n), NULL);
    }
    in = mk(w, w->ctx, e * (in_off + n), w->a);
    out = in_place ? in : mk(w, w->ctx, e * (out_off + n), NULL);
    cnt = mk(w, w->ctx, 8 * (cnt_off + 1), NULL);
    if (!in || !out || !cnt || ((d.indices || kind == C_RLE) && !aux))
        return -1;
    switch (kind) {
    case C_SELECT:
        st = clprim_select(w->ctx, w->q, &d, in, in_off, out, out_off, n, cnt, cnt_off, 0, NULL,
                           ev);
        break;
    case C_PARTITION:
        st = clprim_partition(w->ctx, w->q, &d, in, in_off, out, out_off, n, cnt, cnt_off, 0,
                              NULL, ev);
        break;
    case C_UNIQUE:
        st = clprim_unique(w->ctx, w->q, &d, in, in_off, out, out_off, n, cnt, cnt_off, 0, NULL,
                           ev);
        break;
    default:
        st = clprim_run_length_encode(w->ctx, w->q, &d, in, in_off, out, out_off, aux, aux_off, n,
                                      cnt, cnt_off, 0, NULL, ev);
        break;
    }
    /* the reference, before an in-place call's result overwrites x's copy
     * (x is host memory: only the device buffer changes) */
    if (kind == C_PARTITION)
        kept_or_runs = clprim_ref_partition(x, n, e, w->keep, d.reverse_rejected, w->c);
    else
        kept_or_runs = clprim_ref_select(x, n, e, w->keep, w->c, d.indices ? want_aux : NULL);
    if (kind == C_RLE)
        clprim_ref_run_lengths(w->keep, n, want_aux);
    want = kind == C_PARTITION ? n : kept_or_runs;
    if (st == CLPRIM_SUCCESS)
        st = rd(w, NULL, cnt, 8 * cnt_off, 8, &count, *ev);
    if (st == CLPRIM_SUCCESS && count != kept_or_runs) {
        bad = (long)count;
        st = CLPRIM_SUCCESS;
        goto out;
    }
    if (st == CLPRIM_SUCCESS)
        st = rd(w, NULL, out, e * out_off, e * want, w->b, NULL);
    if (st == CLPRIM_SUCCESS && aux)
        st = rd(w, NULL, aux, 8 * aux_off, 8 * kept_or_runs, lengths, NULL);
    if (st == CLPRIM_SUCCESS) {
        for (i = 0; i < want && bad < 0; ++i)
            if (memcmp(w->b + i * e, w->c + i * e, e) != 0)
                bad = (long)i;
        for (i = 0; aux && i < kept_or_runs && bad < 0; ++i)
            if (lengths[i] != want_aux[i])
                bad = (long)i;
    }
out:
    return verdict(w, w->ctx, st, bad);
}

/* ---- segmented scan and reduce ---- */

static int do_segmented(work *w, int reduce)
{
    const size_t n = pick_n(w), in_off = rnd(w, 4), out_off = rnd(w, 4), seg_off = rnd(w, 3);
    const int transform = wide && rnd(w, 4) == 0;
    const size_t k = pick_tform(w);
    const clprim_segments_kind kind =
        wide ? (clprim_segments_kind)rnd(w, CLPRIM_SEGMENTS_KIND_COUNT_)
             : rnd(w, 2) ? CLPRIM_SEGMENTS_FLAGS_U8 : CLPRIM_SEGMENTS_OFFSETS;
    clprim_transform tf;
    clprim_scan_desc sd;
    clprim_reduce_desc rdsc;
    clprim_segments sg;
    clprim_status st;
    clprim_type type;
    clprim_op op;
    size_t e, ie, se, i, m = 0, segs;
    size_t *start = w->idx; /* segment j is [start[j], start[j + 1]) */
    unsigned char *x, *seg = w->d;
    cl_ulong count = 0;
    cl_mem in, out, sb, cnt = NULL, kout = NULL;
    cl_event *ev = ev_slot(w);
    long bad = -1;

    memset(&sd, 0, sizeof sd);
    memset(&rdsc, 0, sizeof rdsc);
    memset(&sg, 0, sizeof sg);
    if (transform) {
        type = tforms[k].out;
        op = tforms[k].op;
        ie = clprim_type_size(tforms[k].in);
        tform_setup(w, k, &tf, w->a + ie * in_off, n, 0, w->c);
        x = w->c;
    } else {
        pick_type_op(w, 0, &type, &op);
        ie = clprim_type_size(type);
        clprim_ref_fill(type, op, w->a + ie * in_off, n, &w->s);
        x = w->a + ie * in_off;
    }
    e = clprim_type_size(type);
    /* the segments, and where each starts */
    sg.kind = kind;
    sg.off = seg_off;
    if (kind == CLPRIM_SEGMENTS_OFFSETS) {
        const size_t one_in = 1 + rnd(w, 32);
        sg.type = wide && rnd(w, 2) ? CLPRIM_TYPE_INT64 : CLPRIM_TYPE_UINT32;
        se = clprim_type_size(sg.type);
        start[m++] = 0;
        for (i = 1; i < n; ++i) {
            if (rnd(w, one_in) == 0)
                start[m++] = i;
            if (rnd(w, 64) == 0) /* an empty segment */
                start[m++] = i;
        }
        if (rnd(w, 8) == 0)
            start[m++] = n; /* an empty last one */
        start[m] = n;
        sg.num_segments = m;
        for (i = 0; i <= m; ++i)
            put_ll(sg.type, seg + se * (seg_off + i), (long long)start[i]);
        segs = m + 1;
    } else {
        const size_t one_in = 1 + rnd(w, 32);
        cl_int key = 0;
        se = kind == CLPRIM_SEGMENTS_FLAGS_U8 ? 1 : 4;
        if (kind == CLPRIM_SEGMENTS_KEYS)
            sg.type = CLPRIM_TYPE_INT32;
        for (i = 0; i < n; ++i) {
            const int head = rnd(w, one_in) == 0;
            if (kind == CLPRIM_SEGMENTS_KEYS) {
                if (head)
                    key = (cl_int)rnd(w, 4) - 1; /* sometimes the same: no new segment */
                memcpy(seg + 4 * (seg_off + i), &key, 4);
                if (i == 0 || memcmp(seg + 4 * (seg_off + i), seg + 4 * (seg_off + i - 1), 4))
                    start[m++] = i;
            } else {
                const cl_uint f = head ? 1u + (cl_uint)rnd(w, 3) : 0u;
                if (se == 1)
                    seg[seg_off + i] = (unsigned char)f;
                else
                    memcpy(seg + 4 * (seg_off + i), &f, 4);
                if (i == 0 || f)
                    start[m++] = i;
            }
        }
        start[m] = n;
        segs = n;
    }
    sd.exclusive = (int)rnd(w, 2);
    sd.algorithm = rnd(w, 2) ? CLPRIM_SCAN_AUTO : CLPRIM_SCAN_DECOUPLED_LOOKBACK;
    snprintf(w->name, sizeof w->name, "segmented %s%s by %s%s%s %s %s%s%s n=%zu segments=%zu",
             reduce ? "reduce" : "scan", !reduce && sd.exclusive ? " exclusive" : "",
             clprim_segments_kind_name(kind), kind >= CLPRIM_SEGMENTS_KEYS ? " " : "",
             kind >= CLPRIM_SEGMENTS_KEYS ? clprim_type_name(sg.type) : "",
             clprim_type_name(type), clprim_op_name(op), transform ? " of " : "",
             transform ? tf.expression : "", n, m);
    if (deferred(w))
        return 2;
    in = mk(w, w->ctx, ie * (in_off + n), w->a);
    sb = mk(w, w->ctx, se * (seg_off + segs), seg);
    sg.mem = sb;
    /* a reduce's output: room for n values (flags, keys), or one per offset segment */
    out = mk(w, w->ctx, e * (out_off + (reduce && kind == CLPRIM_SEGMENTS_OFFSETS ? m : n)), NULL);
    if (reduce) {
        cnt = mk(w, w->ctx, 8, NULL);
        if (kind == CLPRIM_SEGMENTS_KEYS && rnd(w, 2) && !(kout = mk(w, w->ctx, 4 * n, NULL)))
            return -1;
    }
    if (!in || !sb || !out || (reduce && !cnt))
        return -1;
    if (reduce) {
        rdsc.type = type;
        rdsc.op = op;
        rdsc.transform = transform ? &tf : NULL;
        st = clprim_segmented_reduce(w->ctx, w->q, &rdsc, &sg, in, in_off, n, out, out_off, kout, 0,
                                     cnt, 0, 0, NULL, ev);
        if (st == CLPRIM_SUCCESS)
            st = rd(w, NULL, cnt, 0, 8, &count, *ev);
        if (st == CLPRIM_SUCCESS && count != m)
            bad = (long)count;
        if (st == CLPRIM_SUCCESS && bad < 0)
            st = rd(w, NULL, out, e * out_off, e * m, w->b, NULL);
        if (st == CLPRIM_SUCCESS && bad < 0 && kout)
            st = rd(w, NULL, kout, 0, 4 * m, w->e, NULL);
        for (i = 0; st == CLPRIM_SUCCESS && bad < 0 && i < m; ++i) {
            if (clprim_ref_reduce_check(type, op, x + e * start[i], start[i + 1] - start[i],
                                        w->b + e * i, NULL, NULL))
                bad = (long)i;
            else if (kout && memcmp(w->e + 4 * i, seg + 4 * (seg_off + start[i]), 4))
                bad = (long)i;
        }
    } else {
        sd.type = type;
        sd.op = op;
        sd.transform = transform ? &tf : NULL;
        st = clprim_segmented_scan(w->ctx, w->q, &sd, &sg, in, in_off, out, out_off, n, 0, NULL,
                                   ev);
        if (st == CLPRIM_SUCCESS)
            st = rd(w, NULL, out, e * out_off, e * n, w->b, *ev);
        for (i = 0; st == CLPRIM_SUCCESS && bad < 0 && i < m; ++i)
            if (start[i + 1] > start[i] &&
                clprim_ref_scan_check(type, op, sd.exclusive, x + e * start[i],
                                      w->b + e * start[i], start[i + 1] - start[i], NULL, NULL))
                bad = (long)start[i];
    }
    return verdict(w, w->ctx, st, bad);
}

/* ---- summed-area tables and box filters ---- */

static void image_size(work *w, size_t *width, size_t *height)
{
    const size_t n = pick_n(w);
    *width = 1 + n % 300;
    /* pitches reach width + 3 (exclusive tables): pitched rows must still
     * fit the work arrays (BUF), 8-byte pixels included */
    *height = n / (*width + 3);
    if (!*height) {
        *width = n;
        *height = 1;
    }
}

static int do_sat(work *w)
{
    static const clprim_type types[] = {CLPRIM_TYPE_INT32, CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT64,
                                        CLPRIM_TYPE_FLOAT};
    static const clprim_op ops[] = {CLPRIM_OP_SUM, CLPRIM_OP_SUM, CLPRIM_OP_MIN, CLPRIM_OP_MAX};
    size_t wd, ht;
    clprim_sat_desc d;
    clprim_status st;
    unsigned char ident[8];
    size_t e, pe, in_pitch, out_pitch, in_off, out_off, rows, i, y;
    cl_mem in, out;
    cl_event *ev = ev_slot(w);
    long bad = -1;

    image_size(w, &wd, &ht);
    memset(&d, 0, sizeof d);
    if (wide) {
        d.type = types[rnd(w, 4)];
        d.op = ops[rnd(w, 4)];
        d.input = rnd(w, 3) == 0 ? CLPRIM_PIXEL_UINT8 : CLPRIM_PIXEL_SAME;
    } else { /* int32 sums of int32 pixels */
        d.type = CLPRIM_TYPE_INT32;
        d.op = CLPRIM_OP_SUM;
        d.input = CLPRIM_PIXEL_SAME;
    }
    d.exclusive = rnd(w, 4) == 0;
    d.algorithm = (clprim_sat_algorithm)rnd(w, CLPRIM_SAT_ALGORITHM_COUNT_);
    e = clprim_type_size(d.type);
    pe = d.input == CLPRIM_PIXEL_UINT8 ? 1 : e;
    in_pitch = wd + rnd(w, 3);
    out_pitch = wd + (size_t)d.exclusive + rnd(w, 3);
    in_off = rnd(w, 4);
    out_off = rnd(w, 4);
    rows = ht + (size_t)d.exclusive;
    /* the image, tight in the table's type, into w->c; pitched pixels into w->a */
    if (d.input == CLPRIM_PIXEL_UINT8) {
        for (i = 0; i < wd * ht; ++i) {
            w->keep[i] = (unsigned char)rnd(w, 256);
            put_ll(d.type, w->c + e * i, w->keep[i]);
        }
    } else {
        clprim_ref_fill(d.type, d.op, w->c, wd * ht, &w->s);
    }
    for (y = 0; y < ht; ++y)
        memcpy(w->a + pe * (in_off + y * in_pitch),
               d.input == CLPRIM_PIXEL_UINT8 ? w->keep + y * wd : w->c + e * y * wd, pe * wd);
    snprintf(w->name, sizeof w->name, "summed-area table %s %s %s from %s%s n=%zu x %zu",
             clprim_sat_algorithm_name(d.algorithm), clprim_type_name(d.type),
             clprim_op_name(d.op), d.input ? clprim_pixel_type_name(d.input) : "same",
             d.exclusive ? " exclusive" : "", wd, ht);
    if (deferred(w))
        return 2;
    in = mk(w, w->ctx, pe * (in_off + (ht - 1) * in_pitch + wd), w->a);
    out = mk(w, w->ctx, e * (out_off + (rows - 1) * out_pitch + wd + (size_t)d.exclusive), NULL);
    if (!in || !out)
        return -1;
    st = clprim_sat(w->ctx, w->q, &d, in, in_off, in_pitch, out, out_off, out_pitch, wd, ht, 0,
                    NULL, ev);
    if (st == CLPRIM_SUCCESS)
        st = rd(w, NULL, out, e * out_off, e * ((rows - 1) * out_pitch + wd + (size_t)d.exclusive),
                w->b, *ev);
    if (st == CLPRIM_SUCCESS) {
        const unsigned char *t = w->b + (d.exclusive ? e * (out_pitch + 1) : 0);
        if (clprim_ref_sat_check(d.type, d.op, w->c, t, out_pitch, wd, ht, NULL, NULL))
            bad = 0;
        clprim_ref_identity(d.type, d.op, ident);
        for (i = 0; d.exclusive && bad < 0 && i <= wd; ++i) /* row 0 */
            if (memcmp(w->b + e * i, ident, e))
                bad = (long)i;
        for (y = 1; d.exclusive && bad < 0 && y <= ht; ++y) /* column 0 */
            if (memcmp(w->b + e * y * out_pitch, ident, e))
                bad = (long)(y * out_pitch);
    }
    return verdict(w, w->ctx, st, bad);
}

/* A box filter: from a uint8 or int32 image, or from the exclusive table
 * that a summed-area table call before it builds (chained by its event). */
static int do_box(work *w)
{
    size_t wd, ht, i, x, y;
    const int mode = wide ? (int)rnd(w, 3) : rnd(w, 2) ? 0 : 2; /* narrow: uint8 pixels */
    clprim_box_desc bd;
    clprim_sat_desc sd;
    clprim_status st = CLPRIM_SUCCESS;
    size_t src_pitch, src_off = rnd(w, 3), out_pitch, out_off = rnd(w, 3), pe;
    double *pre = (double *)w->e; /* (wd + 1) x (ht + 1) prefix sums of the image */
    float *got = (float *)w->b;
    cl_mem src, out, img = NULL;
    cl_event *sat_ev = ev_slot(w), *ev = ev_slot(w);
    long bad = -1;

    image_size(w, &wd, &ht);
    memset(&bd, 0, sizeof bd);
    bd.radius_x = rnd(w, 9);
    bd.radius_y = rnd(w, 9);
    bd.sum = (int)rnd(w, 2);
    out_pitch = wd + rnd(w, 3);
    /* pixels: uint8 (modes 0, 2) or int32 in [-100, 100] (mode 1), pitched into w->a */
    pe = mode == 1 ? 4 : 1;
    src_pitch = mode == 2 ? wd + 1 + rnd(w, 2) : wd + rnd(w, 3);
    for (i = 0; i <= wd; ++i)
        pre[i] = 0;
    for (y = 0; y < ht; ++y) {
        double row = 0;
        pre[(y + 1) * (wd + 1)] = 0;
        for (x = 0; x < wd; ++x) {
            const cl_int v = mode == 1 ? (cl_int)rnd(w, 201) - 100 : (cl_int)rnd(w, 256);
            const size_t at = mode == 2 ? y * wd + x : src_off + y * src_pitch + x;
            if (pe == 4)
                memcpy(w->a + 4 * at, &v, 4);
            else
                w->a[at] = (unsigned char)v;
            row += v;
            pre[(y + 1) * (wd + 1) + x + 1] = pre[y * (wd + 1) + x + 1] + row;
        }
    }
    memset(&sd, 0, sizeof sd);
    if (mode == 2) { /* a table first: uint8 pixels into an exclusive uint32 / int64 table */
        sd.type = !wide || rnd(w, 2) ? CLPRIM_TYPE_UINT32 : CLPRIM_TYPE_INT64;
        sd.input = CLPRIM_PIXEL_UINT8;
        sd.exclusive = 1;
        sd.algorithm = (clprim_sat_algorithm)rnd(w, CLPRIM_SAT_ALGORITHM_COUNT_);
        bd.type = sd.type;
    } else {
        bd.from_image = 1;
        bd.type = mode == 1                ? CLPRIM_TYPE_INT32
                  : !wide || rnd(w, 2) ? CLPRIM_TYPE_UINT32
                                       : CLPRIM_TYPE_INT64;
        bd.input = mode == 1 ? CLPRIM_PIXEL_SAME : CLPRIM_PIXEL_UINT8;
    }
    snprintf(w->name, sizeof w->name, "box filter %s %s from %s%s n=%zu x %zu r=%zu,%zu",
             bd.sum ? "sum" : "mean", clprim_type_name(bd.type),
             mode == 2 ? "a table by " : mode == 1 ? "int32 pixels" : "uint8 pixels",
             mode == 2 ? clprim_sat_algorithm_name(sd.algorithm) : "", wd, ht, bd.radius_x,
             bd.radius_y);
    if (deferred(w))
        return 2;
    if (mode == 2) {
        img = mk(w, w->ctx, wd * ht, w->a);
        src = mk(w, w->ctx, clprim_type_size(sd.type) * (src_off + ht * src_pitch + wd + 1), NULL);
        if (!img || !src)
            return -1;
        st = clprim_sat(w->ctx, w->q, &sd, img, 0, wd, src, src_off, src_pitch, wd, ht, 0, NULL,
                        sat_ev);
    } else if (!(src = mk(w, w->ctx, pe * (src_off + (ht - 1) * src_pitch + wd), w->a))) {
        return -1;
    }
    out = mk(w, w->ctx, 4 * (out_off + (ht - 1) * out_pitch + wd), NULL);
    if (!out)
        return -1;
    if (st == CLPRIM_SUCCESS)
        st = clprim_box_filter(w->ctx, w->q, &bd, src, src_off, src_pitch, out, out_off, out_pitch,
                               wd, ht, *sat_ev ? 1 : 0, *sat_ev ? sat_ev : NULL, ev);
    if (st == CLPRIM_SUCCESS)
        st = rd(w, NULL, out, 4 * out_off, 4 * ((ht - 1) * out_pitch + wd), got, *ev);
    for (y = 0; st == CLPRIM_SUCCESS && y < ht && bad < 0; ++y)
        for (x = 0; x < wd && bad < 0; ++x) {
            const size_t x1 = x > bd.radius_x ? x - bd.radius_x : 0;
            const size_t x2 = x + bd.radius_x + 1 < wd ? x + bd.radius_x + 1 : wd;
            const size_t y1 = y > bd.radius_y ? y - bd.radius_y : 0;
            const size_t y2 = y + bd.radius_y + 1 < ht ? y + bd.radius_y + 1 : ht;
            const double sum = pre[y2 * (wd + 1) + x2] - pre[y1 * (wd + 1) + x2] -
                               pre[y2 * (wd + 1) + x1] + pre[y1 * (wd + 1) + x1];
            const double want = bd.sum ? sum : sum / (double)((x2 - x1) * (y2 - y1));
            const double g = got[y * out_pitch + x];
            if (!(g - want <= 1e-5 * (want < 0 ? -want : want) + 1e-5 &&
                  want - g <= 1e-5 * (want < 0 ? -want : want) + 1e-5))
                bad = (long)(y * wd + x);
        }
    return verdict(w, w->ctx, st, bad);
}

/* ---- sort and split ---- */

/* wide: the six key types; narrow: uint32 and uint64 */
static clprim_type pick_key(work *w)
{
    static const clprim_type t[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_UINT64, CLPRIM_TYPE_FLOAT,
                                    CLPRIM_TYPE_INT32, CLPRIM_TYPE_INT64, CLPRIM_TYPE_DOUBLE};
    return t[rnd(w, wide ? 6 : 2)];
}

/* Keys: random bits (NaNs of every kind among the floats'), small values
 * (many ties; -0.0 and +0.0 for floats), or few distinct high bits. */
static void fill_keys(work *w, clprim_type t, unsigned char *k, size_t n)
{
    const size_t ks = clprim_type_size(t);
    const int mode = (int)rnd(w, 3);
    const int flt = t == CLPRIM_TYPE_FLOAT || t == CLPRIM_TYPE_DOUBLE;
    for (size_t i = 0; i < n; ++i) {
        uint64_t v = tu_rand(&w->s);
        if (mode == 1) {
            const long long small = (long long)(v % 17) - 8;
            put_ll(t, k + i * ks, small);
            if (flt && small == 0 && (v >> 32) % 2)
                k[i * ks + ks - 1] |= 0x80; /* -0.0 */
            continue;
        }
        if (mode == 2)
            v = (v & 0xffff) | (((v >> 40) % 4) << (ks * 8 - 3));
        memcpy(k + i * ks, &v, ks);
    }
}

static int do_sort(work *w, clprim_sort_algorithm algorithm)
{
    static const size_t value_sizes[] = {0, 0, 4, 4, 8, 12, 1};
    const size_t n = pick_n(w), in_off = rnd(w, 4);
    const int in_place = rnd(w, 4) == 0;
    const size_t out_off = in_place ? in_off : rnd(w, 4);
    clprim_sort_desc d;
    clprim_status st;
    size_t ks, vs, i, end, at;
    cl_mem ki, ko, vi = NULL, vo = NULL, scratch = NULL;
    cl_event *ev = ev_slot(w);
    long bad = -1;

    memset(&d, 0, sizeof d);
    d.key_type = pick_key(w);
    d.value_size = vs = value_sizes[rnd(w, wide ? sizeof value_sizes / sizeof value_sizes[0] : 4)];
    d.descending = rnd(w, 3) == 0;
    d.algorithm = algorithm;
    ks = clprim_type_size(d.key_type);
    if (rnd(w, 4) == 0) { /* a bit range */
        d.begin_bit = (unsigned)rnd(w, ks * 8);
        d.end_bit = d.begin_bit + 1 + (unsigned)rnd(w, ks * 8 - d.begin_bit);
    }
    end = d.end_bit ? d.end_bit : ks * 8;
    fill_keys(w, d.key_type, w->a + ks * in_off, n);
    for (i = 0; i < n; ++i) { /* values: their index first, then random bytes */
        for (size_t b = 0; b < vs; ++b)
            w->c[(in_off + i) * vs + b] = (unsigned char)tu_rand(&w->s);
        memcpy(w->c + (in_off + i) * vs, &i, vs < 4 ? vs : 4);
    }
    snprintf(w->name, sizeof w->name, "sort %s %s%s values=%zu%s%s n=%zu bits [%u, %zu)",
             clprim_sort_algorithm_name(algorithm), clprim_type_name(d.key_type),
             d.descending ? " descending" : "", vs, end - d.begin_bit < ks * 8 ? " bit range" : "",
             in_place ? " in place" : "", n, d.begin_bit, end);
    if (deferred(w))
        return 2;
    ki = mk(w, w->ctx, ks * (in_off + n), w->a);
    ko = in_place ? ki : mk(w, w->ctx, ks * (out_off + n), NULL);
    if (vs) {
        vi = mk(w, w->ctx, vs * (in_off + n), w->c);
        vo = in_place ? vi : mk(w, w->ctx, vs * (out_off + n), NULL);
    }
    if (!ki || !ko || (vs && (!vi || !vo)))
        return -1;
    if (rnd(w, 8) == 0) { /* a caller's scratch */
        size_t bytes = 0;
        st = clprim_sort_scratch_size(w->ctx, &d, n, &bytes);
        if (st != CLPRIM_SUCCESS)
            return verdict(w, w->ctx, st, -1);
        if (!(scratch = mk(w, w->ctx, bytes, NULL)))
            return -1;
        d.scratch = scratch;
        d.scratch_size = bytes;
        strncat(w->name, " scratch", sizeof w->name - strlen(w->name) - 1);
    }
    st = clprim_sort(w->ctx, w->q, &d, ki, in_off, ko, out_off, vi, in_off, vo, out_off, n, 0, NULL,
                     ev);
    if (st == CLPRIM_SUCCESS)
        st = rd(w, NULL, ko, ks * out_off, ks * n, w->b, *ev);
    if (st == CLPRIM_SUCCESS && vs)
        st = rd(w, NULL, vo, vs * out_off, vs * n, w->d, NULL);
    if (st != CLPRIM_SUCCESS)
        return verdict(w, w->ctx, st, -1);
    if (vs == 4 && d.begin_bit == 0 && end == ks * 8) {
        /* the whole key, values that are indices: order, stability, permutation */
        at = clprim_ref_sorted_check(d.key_type, d.descending, w->a + ks * in_off, n, w->b,
                                     (const cl_uint *)w->d);
    } else {
        clprim_ref_sort(d.key_type, d.descending, d.begin_bit, (unsigned)end, w->a + ks * in_off, n,
                        w->idx);
        at = clprim_ref_permuted_check(w->a + ks * in_off, w->idx, ks, w->b, n);
        if (at == n && vs)
            at = clprim_ref_permuted_check(w->c + vs * in_off, w->idx, vs, w->d, n);
    }
    if (at != n)
        bad = (long)at;
    return verdict(w, w->ctx, st, bad);
}

static int do_split(work *w)
{
    static const size_t value_sizes[] = {0, 4, 8};
    const size_t n = pick_n(w), in_off = rnd(w, 4), out_off = rnd(w, 4), cnt_off = rnd(w, 2);
    const int with_count = rnd(w, 4) != 0;
    clprim_sort_desc d;
    clprim_status st;
    unsigned bit;
    size_t ks, vs, i, kept;
    cl_ulong count = 0;
    cl_mem ki, ko, vi = NULL, vo = NULL, cnt = NULL;
    cl_event *ev = ev_slot(w), wrote[2] = {NULL, NULL};
    cl_int werr;
    long bad = -1;

    memset(&d, 0, sizeof d);
    d.key_type = pick_key(w);
    d.value_size = vs = value_sizes[rnd(w, wide ? 3 : 2)];
    d.descending = (int)rnd(w, 2);
    ks = clprim_type_size(d.key_type);
    bit = (unsigned)rnd(w, ks * 8);
    fill_keys(w, d.key_type, w->a, n);
    for (i = 0; i < vs * n; ++i)
        w->c[i] = (unsigned char)tu_rand(&w->s);
    for (i = 0; i < n; ++i) {
        uint64_t k = 0;
        memcpy(&k, w->a + i * ks, ks);
        w->keep[i] = ((clprim_ref_ordered(d.key_type, d.descending, k) >> bit) & 1) == 0;
    }
    snprintf(w->name, sizeof w->name, "split %s%s values=%zu n=%zu bit %u",
             clprim_type_name(d.key_type), d.descending ? " descending" : "", vs, n, bit);
    if (deferred(w))
        return 2;
    ki = mk(w, w->ctx, ks * (in_off + n), NULL);
    ko = mk(w, w->ctx, ks * (out_off + n), NULL);
    if (vs) {
        vi = mk(w, w->ctx, vs * (in_off + n), NULL);
        vo = mk(w, w->ctx, vs * (out_off + n), NULL);
    }
    if (with_count)
        cnt = mk(w, w->ctx, 8 * (cnt_off + 1), NULL);
    if (!ki || !ko || (vs && (!vi || !vo)) || (with_count && !cnt))
        return -1;
    /* A blocking write only lets the host reuse its array at return; the
     * write itself is enqueued, and on an out-of-order queue (threads 5
     * and 7) a command that does not wait for it may run first. Intel's
     * CPU runtime ran the split's first kernel before it, on keys not yet
     * written: wrong results, and a key that changes between the split's
     * kernels can be scattered one past the output, into the host's heap
     * (docs/testing.md). So the split waits for the writes. */
    werr = clEnqueueWriteBuffer(w->rq, ki, CL_TRUE, ks * in_off, ks * n, w->a, 0, NULL, &wrote[0]);
    if (werr == CL_SUCCESS && vs)
        werr = clEnqueueWriteBuffer(w->rq, vi, CL_TRUE, vs * in_off, vs * n, w->c, 0, NULL,
                                    &wrote[1]);
    if (werr == CL_SUCCESS)
        st = clprim_split(w->ctx, w->q, &d, bit, ki, in_off, ko, out_off, vi, in_off, vo, out_off,
                          n, cnt, cnt_off, vs ? 2 : 1, wrote, ev);
    for (i = 0; i < 2; ++i)
        if (wrote[i])
            clReleaseEvent(wrote[i]);
    if (werr != CL_SUCCESS)
        return verdict(w, NULL, (clprim_status)werr, -1);
    kept = clprim_ref_partition(w->a, n, ks, w->keep, 0, w->e);
    if (vs)
        clprim_ref_partition(w->c, n, vs, w->keep, 0, w->g);
    if (st == CLPRIM_SUCCESS)
        st = rd(w, NULL, ko, ks * out_off, ks * n, w->b, *ev);
    if (st == CLPRIM_SUCCESS && vs)
        st = rd(w, NULL, vo, vs * out_off, vs * n, w->d, NULL);
    if (st == CLPRIM_SUCCESS && cnt)
        st = rd(w, NULL, cnt, 8 * cnt_off, 8, &count, NULL);
    if (st == CLPRIM_SUCCESS) {
        if (cnt && count != kept)
            bad = (long)count;
        for (i = 0; i < n && bad < 0; ++i)
            if (memcmp(w->b + i * ks, w->e + i * ks, ks) ||
                (vs && memcmp(w->d + i * vs, w->g + i * vs, vs)))
                bad = (long)i;
    }
    return verdict(w, w->ctx, st, bad);
}

/* ---- several devices: parts over both contexts ---- */

enum { M_SCAN, M_REDUCE, M_SELECT };

static int do_multi(work *w, int which)
{
    static const char *const names[] = {"multi-scan", "multi-reduce", "multi-select"};
    static const char *const expr = "x > 0 || (i % 4) == 1";
    const size_t n = pick_n(w), parts = 1 + rnd(w, MAX_PARTS);
    const int transform = which != M_SELECT && rnd(w, 3) == 0;
    const size_t k = pick_tform(w);
    clprim_part p[MAX_PARTS];
    size_t start[MAX_PARTS + 1], counts[MAX_PARTS], offsets[MAX_PARTS], total = 0, left = n;
    clprim_transform tf;
    clprim_scan_desc sd;
    clprim_reduce_desc rdsc;
    clprim_compact_desc cd;
    clprim_status st = CLPRIM_SUCCESS;
    clprim_type type;
    clprim_op op = CLPRIM_OP_SUM;
    unsigned char value[8];
    unsigned char *x;
    size_t e, ie, j, i, at, cut;
    int pred = 0, reads_i, in_place[MAX_PARTS];
    long bad = -1;

    memset(p, 0, sizeof p);
    memset(&sd, 0, sizeof sd);
    memset(&rdsc, 0, sizeof rdsc);
    memset(&cd, 0, sizeof cd);
    if (transform) {
        type = tforms[k].out;
        op = tforms[k].op;
        ie = tform_setup(w, k, &tf, w->g, n, 0, w->c); /* i: the index in the whole array */
        x = w->c;
    } else {
        if (which == M_SELECT)
            type = wide && rnd(w, 2) ? CLPRIM_TYPE_FLOAT : CLPRIM_TYPE_INT32;
        else
            pick_type_op(w, which == M_REDUCE, &type, &op);
        ie = clprim_type_size(type);
        clprim_ref_fill(type, op, w->g, n, &w->s);
        x = w->g;
    }
    e = clprim_type_size(type);
    if (which == M_SELECT) {
        pred = (int)rnd(w, wide ? 3 : 2);
        cd.type = type;
        cd.algorithm = (clprim_compact_algorithm)rnd(w, CLPRIM_COMPACT_ALGORITHM_COUNT_);
        if (pred == 0) {
            cd.predicate = CLPRIM_PREDICATE_LESS;
            memcpy(value, x + e * rnd(w, n), e);
            cd.value = value;
            clprim_ref_compare(type, cd.predicate, value, x, n, w->keep);
        } else if (pred == 1) {
            cd.predicate = CLPRIM_PREDICATE_FLAGS_U8;
            for (i = 0; i < n; ++i)
                w->keep[i] = rnd(w, 3) == 0;
        } else {
            cd.predicate = CLPRIM_PREDICATE_EXPRESSION;
            cd.expression = expr;
            for (i = 0; i < n; ++i)
                w->keep[i] = get_d(type, x + e * i) > 0 || i % 4 == 1;
        }
    }
    /* the parts: random lengths (some empty), each on either context. An
     * expression that reads i is built once per distinct start of a part
     * (clprim.h), so those parts start at 0 or MULTI_CUT only: a run
     * compiles a few programs for them, not one for nearly every call. */
    reads_i = (transform && tforms[k].reads_i) || (which == M_SELECT && pred == 2);
    /* cut: the part that starts at MULTI_CUT (none: parts) */
    cut = n > MULTI_CUT && parts > 1 ? 1 + rnd(w, parts - 1) : parts;
    for (j = 0; j < parts; ++j) {
        size_t len = j + 1 == parts ? left
                     : reads_i      ? (j + 1 == cut ? MULTI_CUT : 0)
                     : rnd(w, 4) == 0 ? 0
                                      : rnd(w, left + 1);
        clprim_context *c = ctxs[rnd(w, 2)];
        in_place[j] = which == M_SCAN && ie == e && rnd(w, 4) == 0;
        start[j] = n - left;
        left -= len;
        p[j].ctx = c;
        p[j].queue = c == w->ctx ? w->q : NULL;
        p[j].n = len;
        p[j].in_off = rnd(w, 4);
        /* a reduce writes no part: its out is refused */
        p[j].out_off = which == M_REDUCE ? 0 : in_place[j] ? p[j].in_off : rnd(w, 4);
        p[j].flags_off = which == M_SELECT && pred == 1 ? rnd(w, 3) : 0;
    }
    start[parts] = n;
    sd.type = rdsc.type = type;
    sd.op = rdsc.op = op;
    sd.exclusive = (int)rnd(w, 2);
    sd.algorithm = (clprim_scan_algorithm)rnd(w, CLPRIM_SCAN_ALGORITHM_COUNT_);
    sd.transform = rdsc.transform = transform ? &tf : NULL;
    rdsc.algorithm = (clprim_reduce_algorithm)rnd(w, CLPRIM_REDUCE_ALGORITHM_COUNT_);
    {
        const char *alg = which == M_SCAN     ? clprim_scan_algorithm_name(sd.algorithm)
                          : which == M_REDUCE ? clprim_reduce_algorithm_name(rdsc.algorithm)
                                              : clprim_compact_algorithm_name(cd.algorithm);
        int wrote = snprintf(w->name, sizeof w->name, "%s %s %s %s%s%s%s%s%s n=%zu parts",
                             names[which], alg, clprim_type_name(type),
                             which == M_SELECT ? clprim_predicate_name(cd.predicate)
                                               : clprim_op_name(op),
                             which == M_SCAN && sd.exclusive ? " exclusive" : "",
                             transform ? " of " : "", transform ? tf.expression : "",
                             reads_i && cut < parts ? " parts from 0 and " : "",
                             reads_i && cut < parts ? STR(MULTI_CUT) : "", n);
        for (j = 0; j < parts && wrote > 0 && (size_t)wrote < sizeof w->name; ++j)
            wrote += snprintf(w->name + wrote, sizeof w->name - (size_t)wrote, " %zu@%d", p[j].n,
                              p[j].ctx == ctxs[1]);
    }
    if (deferred(w))
        return 2;
    for (j = 0; j < parts; ++j) {
        clprim_context *c = p[j].ctx;
        memset(w->a, 0, ie * p[j].in_off);
        memcpy(w->a + ie * p[j].in_off, w->g + ie * start[j], ie * p[j].n);
        if (!(p[j].in = mk(w, c, ie * (p[j].in_off + p[j].n), w->a)))
            return -1;
        if (in_place[j] && which != M_REDUCE)
            p[j].out = p[j].in;
        else if (which != M_REDUCE && !(p[j].out = mk(w, c, e * (p[j].out_off + p[j].n), NULL)))
            return -1;
        if (which == M_SELECT && pred == 1) {
            memset(w->a, 0, p[j].flags_off);
            memcpy(w->a + p[j].flags_off, w->keep + start[j], p[j].n);
            if (!(p[j].flags = mk(w, c, p[j].flags_off + p[j].n, w->a)))
                return -1;
        }
    }
    if (which == M_SCAN) {
        st = clprim_multi_scan(&sd, p, parts);
        for (j = 0, at = 0; st == CLPRIM_SUCCESS && j < parts; at += p[j++].n)
            st = rd(w, clprim_context_queue(p[j].ctx), p[j].out, e * p[j].out_off, e * p[j].n,
                    w->b + e * at, NULL);
        if (st == CLPRIM_SUCCESS &&
            clprim_ref_scan_check(type, op, sd.exclusive, x, w->b, n, NULL, NULL))
            bad = 0;
    } else if (which == M_REDUCE) {
        st = clprim_multi_reduce(&rdsc, p, parts, w->b);
        if (st == CLPRIM_SUCCESS && clprim_ref_reduce_check(type, op, x, n, w->b, NULL, NULL))
            bad = 0;
    } else {
        st = clprim_multi_select(&cd, p, parts, counts, offsets, &total);
        for (j = 0, at = 0; st == CLPRIM_SUCCESS && j < parts && bad < 0; at += counts[j++]) {
            size_t want = 0;
            for (i = start[j]; i < start[j + 1]; ++i)
                want += w->keep[i] != 0;
            if (counts[j] != want || offsets[j] != at) {
                bad = (long)j;
                break;
            }
            st = rd(w, clprim_context_queue(p[j].ctx), p[j].out, e * p[j].out_off, e * counts[j],
                    w->b + e * at, NULL);
        }
        if (st == CLPRIM_SUCCESS && bad < 0) {
            const size_t kept = clprim_ref_select(x, n, e, w->keep, w->c, NULL);
            if (total != kept)
                bad = (long)total;
            for (i = 0; bad < 0 && i < kept; ++i)
                if (memcmp(w->b + e * i, w->c + e * i, e))
                    bad = (long)i;
        }
    }
    if (st != CLPRIM_SUCCESS && st != CLPRIM_UNSUPPORTED) {
        /* the message is in the failing part's context: say both */
        char m0[512] = "", m1[512] = "";
        clprim_context_last_error(ctxs[0], m0, sizeof m0);
        clprim_context_last_error(ctxs[1], m1, sizeof m1);
        fail_report(w, NULL, st, "[context 0: %s] [context 1: %s] ", m0, m1);
        return -1;
    }
    return verdict(w, NULL, st, bad);
}

/* ---- the mix ---- */

static int one_call(work *w, int what)
{
    switch (what) {
    case P_SCAN: return do_scan(w, 0);
    case P_REDUCE: return do_reduce(w, 0);
    case P_TSCAN: return do_scan(w, 1);
    case P_TREDUCE: return do_reduce(w, 1);
    case P_SELECT: return do_compact(w, C_SELECT);
    case P_PARTITION: return do_compact(w, C_PARTITION);
    case P_UNIQUE: return do_compact(w, C_UNIQUE);
    case P_RLE: return do_compact(w, C_RLE);
    case P_SEG_SCAN: return do_segmented(w, 0);
    case P_SEG_REDUCE: return do_segmented(w, 1);
    case P_SAT: return do_sat(w);
    case P_BOX: return do_box(w);
    case P_SORT_AUTO: return do_sort(w, CLPRIM_SORT_AUTO);
    case P_SORT_ONESWEEP: return do_sort(w, CLPRIM_SORT_ONESWEEP);
    case P_SORT_SPLIT_LSB: return do_sort(w, CLPRIM_SORT_SPLIT_LSB);
    case P_SORT_TILE_BITONIC: return do_sort(w, CLPRIM_SORT_TILE_BITONIC);
    case P_SPLIT: return do_split(w);
    case P_MULTI_SCAN: return do_multi(w, M_SCAN);
    case P_MULTI_REDUCE: return do_multi(w, M_REDUCE);
    default: return do_multi(w, M_SELECT);
    }
}

/* The call each thread has in progress, for the watchdog (NULL: none). */
static work *volatile running[THREADS];

static void *worker(void *arg)
{
    const int t = (int)(size_t)arg;
    work *w = calloc(1, sizeof *w);
    cl_int err = CL_SUCCESS;
    if (!w) {
        fail_report(NULL, NULL, CLPRIM_SUCCESS, "thread %d: no memory", t);
        return NULL;
    }
    w->thread = t;
    running[t] = w;
    w->ctx = ctxs[t >= 6];
    w->s = tu_seed() + 7919u * (uint64_t)t;
    w->a = malloc(BUF);
    w->b = malloc(BUF);
    w->c = malloc(BUF);
    w->d = malloc(BUF);
    w->e = malloc(BUF);
    w->g = malloc(BUF);
    w->keep = malloc(MAX_N + 64);
    w->idx = malloc((2 * MAX_N + 64) * sizeof *w->idx);
    if (t == 4 || t == 5 || t == 7) /* in-order (4), out-of-order (5, 7) queues of their own */
        w->q = clCreateCommandQueue(clprim_context_cl_context(w->ctx),
                                    clprim_context_device(w->ctx),
                                    t == 4 || in_order_only ? 0
                                                            : CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                    &err);
    if (err != CL_SUCCESS && t == 5) /* out-of-order queues are optional: in order then */
        w->q = clCreateCommandQueue(clprim_context_cl_context(w->ctx),
                                    clprim_context_device(w->ctx), 0, &err);
    w->rq = w->q ? w->q : clprim_context_queue(w->ctx);
    if (!w->a || !w->b || !w->c || !w->d || !w->e || !w->g || !w->keep || !w->idx ||
        err != CL_SUCCESS) {
        fail_report(w, NULL, CLPRIM_SUCCESS, "setup: %d", (int)err);
    } else {
        while (now() < deadline) {
            const int what = (int)rnd(w, P_COUNT);
            int r;
            w->name[0] = 0;
            w->nmem = w->nev = 0;
            r = one_call(w, what);
            if (w->novel) { /* its kind has run now */
                pthread_mutex_lock(&report);
                kind_seen_locked(kind_hash(w->name), 1);
                novel_running[w->ctx == ctxs[1]] = w->novel = 0;
                pthread_mutex_unlock(&report);
            }
            if (r == 2) { /* deferred: let the novel call's build have the cores */
                const struct timespec pause = {0, 2000000};
                ++w->deferred;
                nanosleep(&pause, NULL);
            } else if (r == 1) {
                ++w->skipped[what];
            } else {
                ++w->count[what];
            }
            for (int i = 0; i < w->nev; ++i)
                if (w->evs[i])
                    clReleaseEvent(w->evs[i]);
            for (int i = 0; i < w->nmem; ++i)
                clReleaseMemObject(w->mems[i]);
        }
    }
    if (w->q) {
        clFinish(w->q);
        clReleaseCommandQueue(w->q);
    }
    pthread_mutex_lock(&report);
    for (int i = 0; i < P_COUNT; ++i) {
        calls[i] += w->count[i];
        unsupported[i] += w->skipped[i];
    }
    deferred_calls += w->deferred;
    running[t] = NULL;
    pthread_mutex_unlock(&report);
    free(w->a);
    free(w->b);
    free(w->c);
    free(w->d);
    free(w->e);
    free(w->g);
    free(w->keep);
    free(w->idx);
    free(w);
    return NULL;
}

/* A hang fails the run with the calls in progress named, rather than
 * waiting for CTest's timeout (or, with none, CI's: the soak once hung on
 * Intel's CPU runtime in CI, 2026-11-26, and took the whole run's time
 * with it, naming nothing). HANG_GRACE seconds past the deadline is far
 * beyond any one call here, compilation on a loaded CPU included. */
#define HANG_GRACE 240.0
static volatile int finished;
static pid_t child;
static int child_fd = -1;
static double seconds, started;

static void *watchdog(void *arg)
{
    (void)arg;
    while (!finished) {
        const struct timespec pause = {1, 0};
        if (now() > deadline + HANG_GRACE) {
            fprintf(stderr, "soak: hung %.0f s past the deadline; calls in progress:\n",
                    HANG_GRACE);
            for (int t = 0; t < THREADS; ++t) {
                work *w = running[t];
                fprintf(stderr, "  thread %d: %s\n", t, w ? w->name : "(finished)");
            }
            fprintf(stderr, "  second process (pid %d): %s\n", (int)child,
                    child > 0 && waitpid(child, NULL, WNOHANG) == 0 ? "still running" : "ended");
            fflush(stderr);
            if (child > 0)
                kill(child, SIGKILL);
            _exit(2);
        }
        nanosleep(&pause, NULL);
    }
    return NULL;
}

/* The second process names its call in progress when it hangs (SIGALRM
 * at the same grace): async-signal-safe writes of a prepared line. */
static char neighbour_doing[128] = "second process: hung before its first call\n";

static void neighbour_hung(int sig)
{
    (void)sig;
    if (write(2, neighbour_doing, strlen(neighbour_doing)) < 0)
        _exit(3);
    _exit(3);
}

/* ---- the second process: a new context for every call ---- */

static int neighbour_call(clprim_context *c, int what, unsigned long round, uint64_t *s,
                          unsigned char *x, unsigned char *y, unsigned char *z, size_t *perm)
{
    const size_t n = 1 + (size_t)(tu_rand(s) % 3000);
    clprim_status st = CLPRIM_SUCCESS;
    size_t i, bad = 0;
    switch (what) {
    case N_SCAN: {
        const clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL,
                                    NULL, CLPRIM_REPRO_NONE};
        clprim_ref_fill(d.type, d.op, x, n, s);
        st = clprim_scan_host(c, &d, x, y, n);
        bad = st == CLPRIM_SUCCESS && clprim_ref_scan_check(d.type, d.op, 0, x, y, n, NULL, NULL);
        break;
    }
    case N_REDUCE: {
        clprim_reduce_desc d;
        memset(&d, 0, sizeof d);
        d.op = CLPRIM_OP_MAX;
        clprim_ref_fill(d.type, d.op, x, n, s);
        st = clprim_reduce_host(c, &d, x, n, y);
        bad = st == CLPRIM_SUCCESS && clprim_ref_reduce_check(d.type, d.op, x, n, y, NULL, NULL);
        break;
    }
    case N_SORT: { /* the algorithms in turn; uint32 keys, or pairs */
        clprim_sort_desc d;
        memset(&d, 0, sizeof d);
        d.key_type = CLPRIM_TYPE_UINT32;
        d.algorithm = (clprim_sort_algorithm)(round / N_COUNT % CLPRIM_SORT_ALGORITHM_COUNT_);
        d.value_size = round / N_COUNT / CLPRIM_SORT_ALGORITHM_COUNT_ % 2 ? 4 : 0;
        for (i = 0; i < n; ++i) {
            const cl_uint k = (cl_uint)tu_rand(s) % 1000, v = (cl_uint)i;
            memcpy(x + 4 * i, &k, 4);
            memcpy(y + 4 * i, &k, 4);
            memcpy(z + 4 * i, &v, 4);
        }
        st = clprim_sort_host(c, &d, y, d.value_size ? z : NULL, n);
        if (st == CLPRIM_SUCCESS)
            bad = clprim_ref_sorted_check(d.key_type, 0, x, n, y,
                                          d.value_size ? (const cl_uint *)z : NULL) != n;
        break;
    }
    case N_SELECT: {
        const cl_int zero = 0;
        clprim_compact_desc d;
        size_t count = 0, kept;
        memset(&d, 0, sizeof d);
        d.value = &zero;
        clprim_ref_fill(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, x, n, s);
        st = clprim_select_host(c, &d, x, NULL, y, n, &count);
        clprim_ref_compare(CLPRIM_TYPE_INT32, CLPRIM_PREDICATE_LESS, &zero, x, n,
                           (unsigned char *)perm);
        kept = clprim_ref_select(x, n, 4, (unsigned char *)perm, z, NULL);
        bad = st == CLPRIM_SUCCESS && (count != kept || memcmp(y, z, 4 * kept));
        break;
    }
    case N_SAT: {
        const size_t wd = 1 + n % 70, ht = n / wd ? n / wd : 1;
        clprim_sat_desc d;
        memset(&d, 0, sizeof d);
        clprim_ref_fill(d.type, d.op, x, wd * ht, s);
        st = clprim_sat_host(c, &d, x, wd, y, wd, wd, ht);
        bad = st == CLPRIM_SUCCESS &&
              clprim_ref_sat_check(d.type, d.op, x, y, wd, wd, ht, NULL, NULL);
        break;
    }
    case N_SEG_SCAN:
    case N_SEG_REDUCE: { /* by uint8 flags */
        clprim_segments sg;
        unsigned char *flags = (unsigned char *)perm;
        size_t count = 0, segs = 0, first = 0;
        memset(&sg, 0, sizeof sg);
        clprim_ref_fill(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, x, n, s);
        for (i = 0; i < n; ++i)
            flags[i] = tu_rand(s) % 8 == 0;
        if (what == N_SEG_SCAN) {
            clprim_scan_desc d;
            memset(&d, 0, sizeof d);
            st = clprim_segmented_scan_host(c, &d, &sg, flags, x, y, n);
        } else {
            clprim_reduce_desc d;
            memset(&d, 0, sizeof d);
            st = clprim_segmented_reduce_host(c, &d, &sg, flags, x, n, y, NULL, &count);
        }
        for (i = 1; st == CLPRIM_SUCCESS && i <= n && !bad; ++i)
            if (i == n || flags[i]) { /* the segment [first, i) ends */
                if (what == N_SEG_SCAN)
                    bad = clprim_ref_scan_check(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, x + 4 * first,
                                                y + 4 * first, i - first, NULL, NULL);
                else
                    bad = clprim_ref_reduce_check(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, x + 4 * first,
                                                  i - first, y + 4 * segs, NULL, NULL);
                ++segs;
                first = i;
            }
        if (st == CLPRIM_SUCCESS && what == N_SEG_REDUCE && count != segs)
            bad = 1;
        break;
    }
    default: { /* box sums of uint8 pixels in uint32 */
        const size_t wd = 1 + n % 50, ht = n / wd ? n / wd : 1;
        clprim_box_desc d;
        float *got = (float *)y;
        memset(&d, 0, sizeof d);
        d.type = CLPRIM_TYPE_UINT32;
        d.from_image = 1;
        d.input = CLPRIM_PIXEL_UINT8;
        d.radius_x = 1;
        d.radius_y = 2;
        d.sum = 1;
        for (i = 0; i < wd * ht; ++i)
            x[i] = (unsigned char)tu_rand(s);
        st = clprim_box_filter_host(c, &d, x, wd, got, wd, wd, ht);
        for (size_t py = 0; st == CLPRIM_SUCCESS && py < ht && !bad; ++py)
            for (size_t px = 0; px < wd && !bad; ++px) {
                double sum = 0;
                for (size_t yy = py > 2 ? py - 2 : 0; yy < ht && yy <= py + 2; ++yy)
                    for (size_t xx = px ? px - 1 : 0; xx < wd && xx <= px + 1; ++xx)
                        sum += x[yy * wd + xx];
                bad = got[py * wd + px] != (float)sum;
            }
        break;
    }
    }
    if (st != CLPRIM_SUCCESS && st != CLPRIM_UNSUPPORTED) {
        char msg[1024];
        clprim_context_last_error(c, msg, sizeof msg);
        fprintf(stderr, "second process: %s n=%zu: %s %s\n", neighbour_name[what], n,
                clprim_status_string(st), msg);
        return -1;
    }
    if (bad) {
        fprintf(stderr, "second process: %s n=%zu: wrong result\n", neighbour_name[what], n);
        return -1;
    }
    return st == CLPRIM_UNSUPPORTED ? 1 : 0;
}

static int cache_neighbour(int fd)
{
    neighbour_report r;
    uint64_t s = tu_seed() ^ 0xcace;
    unsigned char *x = malloc(8 * 4000), *y = malloc(8 * 4000), *z = malloc(8 * 4000);
    size_t *perm = malloc(4000 * sizeof *perm);
    memset(&r, 0, sizeof r);
    if (!x || !y || !z || !perm)
        r.failures = 1;
    signal(SIGALRM, neighbour_hung);
    alarm((unsigned)(deadline - now() + HANG_GRACE));
    while (now() < deadline && !r.failures) {
        clprim_context_options o;
        clprim_context *c = NULL;
        const int what = (int)(r.contexts % N_COUNT);
        clprim_status st;
        memset(&o, 0, sizeof o);
        o.cache_dir = cache_dir;
        o.device = getenv("CLPRIM_DEVICE");
        snprintf(neighbour_doing, sizeof neighbour_doing,
                 "second process: hung in context %lu (%s)\n", r.contexts, neighbour_name[what]);
        st = clprim_context_create(&o, &c);
        if (st != CLPRIM_SUCCESS) {
            fprintf(stderr, "second process: context %lu: %s\n", r.contexts,
                    clprim_status_string(st));
            r.failures = 1;
            break;
        }
        switch (neighbour_call(c, what, r.contexts, &s, x, y, z, perm)) {
        case 0: ++r.calls[what]; break;
        case 1: ++r.unsupported; break;
        default: r.failures = 1; break;
        }
        ++r.contexts;
        clprim_context_release(c);
    }
    free(x);
    free(y);
    free(z);
    free(perm);
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        return 1;
    return r.failures != 0;
}

/* ---- the test ---- */


static void test_soak(void **state)
{
    pthread_t th[THREADS], dog;
    neighbour_report nb;
    unsigned long total = 0, skipped = 0;
    int status = 0, child_ok, wrote;
    char line[2048];
    (void)state;
    memset(&nb, 0, sizeof nb);
    assert_int_equal(pthread_create(&dog, NULL, watchdog, NULL), 0);
    for (size_t t = 0; t < THREADS; ++t)
        assert_int_equal(pthread_create(&th[t], NULL, worker, (void *)t), 0);
    for (size_t t = 0; t < THREADS; ++t)
        pthread_join(th[t], NULL);
    assert_true(child > 0);
    if (read(child_fd, &nb, sizeof nb) != (ssize_t)sizeof nb)
        nb.failures = 1;
    waitpid(child, &status, 0);
    finished = 1;
    pthread_join(dog, NULL);
    child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && !nb.failures;
    for (int i = 0; i < P_COUNT; ++i) {
        total += calls[i];
        skipped += unsupported[i];
    }
    wrote = snprintf(line, sizeof line, "soak: %lu calls (", total);
    for (int i = 0; i < P_COUNT; ++i)
        wrote += snprintf(line + wrote, sizeof line - (size_t)wrote, "%s%s %lu", i ? ", " : "",
                          prim_name[i], calls[i]);
    wrote += snprintf(line + wrote, sizeof line - (size_t)wrote, "; second process: %lu contexts,",
                      nb.contexts);
    for (int i = 0; i < N_COUNT; ++i)
        wrote += snprintf(line + wrote, sizeof line - (size_t)wrote, " %s %lu", neighbour_name[i],
                          nb.calls[i]);
    snprintf(line + wrote, sizeof line - (size_t)wrote,
             "), %d failures, %.1f seconds, device %s (%s, driver %s), %d threads on 2 contexts, "
             "%s variety, %lu unsupported, %lu deferred, %lu programs (%lu from the disk cache), "
             "second process %s",
             failures + !child_ok, now() - started, info.device_name, info.platform_name,
             info.driver_version, THREADS, wide ? "wide" : "narrow", skipped + nb.unsupported,
             deferred_calls, programs, disk_hits, child_ok ? "ok" : "FAILED");
    printf("%s\n", line);
    for (int i = 0; i < P_COUNT; ++i)
        if (unsupported[i])
            printf("# %s: %lu calls unsupported on this device\n", prim_name[i], unsupported[i]);
    fflush(stdout);
    assert_int_equal(failures, 0);
    assert_true(child_ok);
    assert_true(total > THREADS);
}

/* The cache folder is this run's own (mkdtemp): emptied and removed. */
static void remove_cache_dir(void)
{
    DIR *dir = opendir(cache_dir);
    struct dirent *de;
    char path[sizeof cache_dir + 300];
    if (!dir)
        return;
    while ((de = readdir(dir)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
            snprintf(path, sizeof path, "%s/%s", cache_dir, de->d_name) < (int)sizeof path)
            unlink(path);
    closedir(dir);
    rmdir(cache_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_soak)};
    const char *secs = getenv("CLPRIM_SOAK_SECONDS"), *wide_env = getenv("CLPRIM_SOAK_WIDE");
    clprim_context_options o;
    int rc, fds[2];
    if (!mkdtemp(cache_dir))
        return 1;
    (void)tu_seed(); /* printed once, before the threads and the fork */
    seconds = secs && atof(secs) > 0 ? atof(secs) : 60.0;
    started = now();
    deadline = started + seconds;
    late = deadline - (seconds / 4 < LATE ? seconds / 4 : LATE);
    if (pipe(fds) != 0)
        return 1;
    /* the second process starts before this one touches OpenCL (a driver's
     * threads do not survive a fork) */
    fflush(NULL);
    child = fork();
    if (child == 0) {
        close(fds[0]);
        _exit(cache_neighbour(fds[1]));
    }
    close(fds[1]);
    child_fd = fds[0];
    memset(&o, 0, sizeof o);
    o.cache_dir = cache_dir;
    o.device = getenv("CLPRIM_DEVICE");
    o.log = log_counts;
    if (clprim_context_create(&o, &ctxs[0]) != CLPRIM_SUCCESS ||
        clprim_context_create(&o, &ctxs[1]) != CLPRIM_SUCCESS ||
        clprim_context_device_info(ctxs[0], &info) != CLPRIM_SUCCESS) {
        fprintf(stderr, "cannot create two contexts\n");
        return 1;
    }
    wide = wide_env && *wide_env ? atoi(wide_env) != 0 : !(info.type & CL_DEVICE_TYPE_CPU);
    {
        const char *ooo = getenv("CLPRIM_SOAK_OUT_OF_ORDER");
        in_order_only = ooo && *ooo ? atoi(ooo) == 0
                                    : (info.type & CL_DEVICE_TYPE_CPU) &&
                                          strstr(info.platform_name, "Intel") != NULL;
        if (in_order_only)
            printf("# queues of their own in order only (CLPRIM_SOAK_OUT_OF_ORDER=1: "
                   "out-of-order too)\n");
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctxs[0]);
    clprim_context_release(ctxs[1]);
    close(child_fd);
    remove_cache_dir();
    return rc;
}

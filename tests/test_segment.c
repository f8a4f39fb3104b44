/* SPDX-License-Identifier: MIT */
/* Segmented scan and segmented reduce: segments by uint8 / uint32 flags,
 * by keys (built-in integers and a caller's 8-byte key type) and by offsets
 * (int32 and uint64, empty segments included); inclusive and exclusive
 * scans and reduces; every built-in type and operator, and a caller's
 * non-commutative operator (affine maps on uint2, exact). Segments of
 * length 1, ~4, ~1000, one spanning everything, and heads on tile
 * boundaries; edge and random sizes, offsets, in place. Fresh random
 * inputs, outputs poisoned and compared whole with the host reference
 * (tests/reference/), segment by segment; past the outputs nothing may
 * change. Then the host helpers, the refusals and the look-back fallback. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"
#include "reference/reference.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define POISON 0xA5
#define MARGIN 5 /* elements past every output that must stay untouched */

static clprim_context *ctx;
static clprim_device_info info;
static clprim_operator *affine;  /* (a, b): x -> a x + b on uint, composed in order */
static clprim_element *key8;     /* the caller's key type: two uints, compared bytewise */

enum { LEN_ONE = -1, LEN_ALL = -2, LEN_TILES = -3 }; /* besides a mean length > 1 */

typedef struct scase {
    int reduce, exclusive;
    clprim_segments_kind kind;
    clprim_type seg_type;  /* keys, offsets */
    int caller_key;        /* keys of key8 */
    clprim_type type;      /* values, when custom is 0 */
    clprim_op op;
    int custom;            /* affine */
    long len;              /* mean segment length, or LEN_* */
    int empties;           /* offsets: some empty segments */
    size_t n, in_off, out_off, segs_off;
    int in_place, keys_out;
    uint64_t seed;
} scase;

static size_t value_size(const scase *c)
{
    return c->custom ? 8 : clprim_type_size(c->type);
}

static size_t seg_unit(const scase *c)
{
    switch (c->kind) {
    case CLPRIM_SEGMENTS_FLAGS_U8: return 1;
    case CLPRIM_SEGMENTS_FLAGS_U32: return 4;
    default: return c->caller_key ? 8 : clprim_type_size(c->seg_type);
    }
}

static void describe(const scase *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s %s/%s %s %s len=%ld%s n=%zu in_off=%zu out_off=%zu segs_off=%zu%s "
             "seed=%llu", c->reduce ? "reduce" : "scan", c->exclusive ? " exclusive" : "",
             clprim_segments_kind_name(c->kind), c->caller_key ? "key8" : clprim_type_name(c->seg_type),
             c->custom ? "affine" : clprim_type_name(c->type), c->custom ? "" : clprim_op_name(c->op),
             c->len, c->empties ? " empties" : "", c->n, c->in_off, c->out_off, c->segs_off,
             c->in_place ? " in-place" : "", (unsigned long long)c->seed);
}

/* Whether element i starts a segment, as the case's lengths say. */
static int is_head(const scase *c, size_t i, uint64_t *s)
{
    if (i == 0)
        return 1;
    switch (c->len) {
    case LEN_ONE: return 1;
    case LEN_ALL: return 0;
    case LEN_TILES: /* on and around tile edges of every size clprim uses */
        return i % 256 == 0 || i % 4096 == 0 || i % 4096 == 4095 || i % 1024 == 1;
    default: return tu_rand(s) % (uint64_t)c->len == 0;
    }
}

static void put(unsigned char *p, size_t unit, cl_ulong v)
{
    memcpy(p, &v, unit); /* little endian: the low bytes */
}

/* The reference of one segment [lo, hi) into want (scan: at lo; reduce:
 * at slot k); returns the mismatches against got. */
static size_t check_segment(const scase *c, const unsigned char *x, size_t lo, size_t hi,
                            const unsigned char *got, size_t k, const char *what)
{
    const size_t e = value_size(c);
    if (c->custom) { /* exact: compose the maps in order */
        cl_uint acc[2] = {1, 0};
        size_t i, bad = 0;
        for (i = lo; i < hi; ++i) {
            const cl_uint before[2] = {acc[0], acc[1]};
            cl_uint v[2];
            memcpy(v, x + i * e, 8);
            acc[0] = before[0] * v[0];
            acc[1] = v[0] * before[1] + v[1];
            if (!c->reduce && memcmp(got + i * e, c->exclusive ? before : acc, 8) != 0 &&
                bad++ < 3)
                fprintf(stderr, "%s: element %zu wrong\n", what, i);
        }
        if (c->reduce && memcmp(got + k * e, acc, 8) != 0 && bad++ < 3)
            fprintf(stderr, "%s: segment %zu wrong\n", what, k);
        return bad;
    }
    if (c->reduce)
        return clprim_ref_reduce_check(c->type, c->op, x + lo * e, hi - lo, got + k * e, stderr,
                                       what);
    return clprim_ref_scan_check(c->type, c->op, c->exclusive, x + lo * e, got + lo * e, hi - lo,
                                 stderr, what);
}

/* Runs one case; 0 when every output byte is as the reference says. */
static int run_case(const scase *c)
{
    const size_t e = value_size(c), n = c->n, u = seg_unit(c);
    const size_t off = c->in_place ? c->in_off : c->out_off;
    cl_context cl = clprim_context_cl_context(ctx);
    size_t *starts = malloc((2 * n + 2) * sizeof *starts), m = 0, i, k, bad = 0;
    const size_t in_len = c->in_off + n + MARGIN;
    size_t out_len, segs_len;
    unsigned char *x, *segs, *got, *keys_got = NULL;
    cl_ulong count_got[2] = {0, 0};
    cl_mem in, out = NULL, sbuf, count = NULL, kbuf = NULL;
    clprim_segments sg;
    uint64_t s = c->seed;
    char what[320];
    cl_int err;
    clprim_status st;

    describe(c, what, sizeof what);
    assert_non_null(starts);
    /* the segments: starts[0..m) (offsets may repeat one: an empty segment) */
    for (i = 0; i < n; ++i) {
        if (!is_head(c, i, &s))
            continue;
        if (c->empties && m > 0 && tu_rand(&s) % 8 == 0)
            starts[m++] = i; /* an empty segment before this one */
        starts[m++] = i;
    }
    if (c->kind == CLPRIM_SEGMENTS_OFFSETS && c->empties && n && tu_rand(&s) % 2)
        starts[m++] = n; /* an empty last segment */
    starts[m] = n;
    out_len = off + (c->reduce && c->kind == CLPRIM_SEGMENTS_OFFSETS ? m : n) + MARGIN;
    segs_len = c->segs_off + (c->kind == CLPRIM_SEGMENTS_OFFSETS ? m + 1 : n) + MARGIN;
    x = malloc(in_len * e);
    segs = malloc(segs_len * u);
    got = malloc(out_len * e);
    assert_true(x && segs && got);
    if (c->custom) {
        for (i = 0; i < in_len; ++i) {
            const cl_uint v[2] = {1 + 2 * (cl_uint)(tu_rand(&s) % 1000), (cl_uint)tu_rand(&s)};
            memcpy(x + i * e, v, 8);
        }
    } else {
        clprim_ref_fill(c->type, c->op, x, in_len, &s);
    }
    /* the segments buffer: around the used part, what would start segments */
    memset(segs, 0x5A, segs_len * u);
    if (c->kind == CLPRIM_SEGMENTS_OFFSETS) {
        for (k = 0; k <= m; ++k)
            put(segs + (c->segs_off + k) * u, u, starts[k]);
    } else {
        cl_ulong key = tu_rand(&s) % 1000;
        for (i = 0, k = 0; i < n; ++i) {
            const int head = k < m && starts[k] == i;
            unsigned char *p = segs + (c->segs_off + i) * u;
            if (head)
                ++k;
            if (c->kind == CLPRIM_SEGMENTS_KEYS) {
                if (head && i > 0)
                    key += 1 + tu_rand(&s) % 3;
                if (c->caller_key) {
                    const cl_uint w[2] = {(cl_uint)(key % 7), (cl_uint)(key / 7)};
                    memcpy(p, w, 8);
                } else {
                    put(p, u, key);
                }
            } else {
                /* element 0 starts a segment whatever its flag */
                put(p, u, head && (i > 0 || tu_rand(&s) % 2) ? 1 + tu_rand(&s) % 200 : 0);
            }
        }
    }

    in = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_len * e, x, &err);
    assert_int_equal(err, CL_SUCCESS);
    memset(got, POISON, out_len * e);
    if (!c->in_place) {
        out = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_len * e, got, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    sbuf = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, segs_len * u, segs, &err);
    assert_int_equal(err, CL_SUCCESS);
    memset(&sg, 0, sizeof sg);
    sg.kind = c->kind;
    sg.mem = sbuf;
    sg.off = c->segs_off;
    /* each kind's own fields only: the others are refused */
    sg.type = c->kind == CLPRIM_SEGMENTS_KEYS || c->kind == CLPRIM_SEGMENTS_OFFSETS ? c->seg_type : 0;
    sg.key_element = c->caller_key ? key8 : NULL;
    sg.num_segments = c->kind == CLPRIM_SEGMENTS_OFFSETS ? m : 0;
    if (c->reduce) {
        clprim_reduce_desc d = {c->custom ? 0 : c->type, c->custom ? 0 : c->op, CLPRIM_REDUCE_AUTO,
                                c->custom ? affine : NULL, NULL, CLPRIM_REPRO_NONE};
        memset(count_got, POISON, sizeof count_got);
        count = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof count_got,
                               count_got, &err);
        assert_int_equal(err, CL_SUCCESS);
        if (c->keys_out) {
            keys_got = malloc((n + MARGIN) * u);
            assert_non_null(keys_got);
            memset(keys_got, POISON, (n + MARGIN) * u);
            kbuf = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (n + MARGIN) * u,
                                  keys_got, &err);
            assert_int_equal(err, CL_SUCCESS);
        }
        st = clprim_segmented_reduce(ctx, NULL, &d, &sg, in, c->in_off, n, out, c->out_off, kbuf,
                                     1, count, 1, 0, NULL, NULL);
    } else {
        clprim_scan_desc d = {c->custom ? 0 : c->type, c->custom ? 0 : c->op, c->exclusive,
                              CLPRIM_SCAN_AUTO, c->custom ? affine : NULL, NULL, CLPRIM_REPRO_NONE};
        st = clprim_segmented_scan(ctx, NULL, &d, &sg, in, c->in_off, c->in_place ? in : out, off,
                                   n, 0, NULL, NULL);
    }
    if (st != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "%s: %s: %s\n", what, clprim_status_string(st), why);
        bad = 1;
        goto done;
    }
    err = clEnqueueReadBuffer(clprim_context_queue(ctx), c->in_place ? in : out, CL_TRUE, 0,
                              out_len * e, got, 0, NULL, NULL);
    if (err == CL_SUCCESS && count)
        err = clEnqueueReadBuffer(clprim_context_queue(ctx), count, CL_TRUE, 0, sizeof count_got,
                                  count_got, 0, NULL, NULL);
    if (err == CL_SUCCESS && kbuf)
        err = clEnqueueReadBuffer(clprim_context_queue(ctx), kbuf, CL_TRUE, 0, (n + MARGIN) * u,
                                  keys_got, 0, NULL, NULL);
    assert_int_equal(err, CL_SUCCESS);

    /* each segment against the reference; then what lies around */
    {
        const unsigned char *base = got + off * e, *xin = x + c->in_off * e;
        size_t kk = 0;
        if (c->reduce) {
            if (count_got[1] != m) { /* offsets: every segment; else every head */
                fprintf(stderr, "%s: count %llu, want %zu\n", what,
                        (unsigned long long)count_got[1], m);
                bad++;
            }
            for (k = 0; k < m && bad < 4; ++k)
                bad += check_segment(c, xin, starts[k], starts[k + 1], base, k, what) != 0;
            kk = m;
            for (k = 0; kbuf && k < m; ++k)
                if (memcmp(keys_got + (1 + k) * u, segs + (c->segs_off + starts[k]) * u, u) != 0 &&
                    bad++ < 4)
                    fprintf(stderr, "%s: key of segment %zu wrong\n", what, k);
            for (k = 1 + m; kbuf && k < n + MARGIN; ++k)
                for (i = 0; i < u; ++i)
                    bad += keys_got[k * u + i] != POISON;
        } else {
            for (k = 0; k < m && bad < 4; ++k)
                if (starts[k + 1] > starts[k])
                    bad += check_segment(c, xin, starts[k], starts[k + 1], base, k, what) != 0;
            kk = n;
        }
        /* bytes outside [off, off + kk) untouched */
        for (i = 0; i < out_len * e; ++i) {
            if (i >= off * e && i < (off + kk) * e)
                continue;
            if (got[i] != (c->in_place ? x[i] : POISON)) {
                fprintf(stderr, "%s: byte %zu outside the output changed\n", what, i);
                bad++;
                break;
            }
        }
    }
done:
    clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    clReleaseMemObject(sbuf);
    if (count)
        clReleaseMemObject(count);
    if (kbuf)
        clReleaseMemObject(kbuf);
    free(starts);
    free(x);
    free(segs);
    free(got);
    free(keys_got);
    return bad ? -1 : 0;
}

/* One configuration over the edge sizes and one random size, inclusive,
 * exclusive and reduce. */
static int run_sizes(scase c, int quick)
{
    static const size_t sizes[] = {1, 2, 255, 256, 257, 1023, 1025, 4095, 4096, 4097, 9000};
    const size_t nsizes = quick ? 4 : sizeof sizes / sizeof sizes[0];
    uint64_t s = tu_seed() ^ (uint64_t)c.kind * 7919 ^ (uint64_t)c.type * 104729 ^
                 (uint64_t)c.op * 1299709 ^ (uint64_t)c.len;
    int failures = 0;
    size_t k;
    for (k = 0; k <= nsizes; ++k) {
        int mode;
        c.n = k < nsizes ? sizes[k] : 20000 + tu_rand(&s) % 80000;
        for (mode = 0; mode < 3; ++mode) {
            c.reduce = mode == 2;
            c.exclusive = mode == 1;
            c.seed = tu_rand(&s);
            c.in_off = tu_rand(&s) % 3;
            c.out_off = tu_rand(&s) % 3;
            c.segs_off = tu_rand(&s) % 3;
            c.keys_out = c.reduce && c.kind == CLPRIM_SEGMENTS_KEYS;
            c.in_place = !c.reduce && tu_rand(&s) % 4 == 0;
            failures += run_case(&c) != 0;
        }
    }
    return failures;
}

static void require_single_pass(void)
{
    if (!info.has_single_pass)
        skip();
}

/* Every built-in type and operator, by uint8 flags, mean length 4. */
static void test_types(void **state)
{
    int failures = 0;
    (void)state;
    require_single_pass();
    for (int t = 0; t < CLPRIM_TYPE_COUNT_; ++t)
        for (int op = 0; op < CLPRIM_OP_COUNT_; ++op) {
            scase c;
            if (t == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
                continue;
            memset(&c, 0, sizeof c);
            c.kind = CLPRIM_SEGMENTS_FLAGS_U8;
            c.type = (clprim_type)t;
            c.op = (clprim_op)op;
            c.len = 4;
            failures += run_sizes(c, 1);
        }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* Each way of giving segments, with every kind of segment length. */
static void run_kind(clprim_segments_kind kind, clprim_type seg_type, int caller_key, int empties)
{
    static const long lens[] = {LEN_ONE, 4, 1000, LEN_ALL, LEN_TILES};
    int failures = 0;
    require_single_pass();
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; ++l) {
        scase c;
        memset(&c, 0, sizeof c);
        c.kind = kind;
        c.seg_type = seg_type;
        c.caller_key = caller_key;
        c.empties = empties;
        c.len = lens[l];
        c.type = l % 2 ? CLPRIM_TYPE_FLOAT : CLPRIM_TYPE_INT32;
        c.op = l % 2 ? CLPRIM_OP_SUM : CLPRIM_OP_MAX;
        failures += run_sizes(c, 0);
        c.custom = 1; /* the non-commutative operator */
        failures += run_sizes(c, l > 1);
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

static void test_flags_u8(void **state) { (void)state; run_kind(CLPRIM_SEGMENTS_FLAGS_U8, 0, 0, 0); }
static void test_flags_u32(void **state) { (void)state; run_kind(CLPRIM_SEGMENTS_FLAGS_U32, 0, 0, 0); }
static void test_keys_int32(void **state) { (void)state; run_kind(CLPRIM_SEGMENTS_KEYS, CLPRIM_TYPE_INT32, 0, 0); }
static void test_keys_uint64(void **state) { (void)state; run_kind(CLPRIM_SEGMENTS_KEYS, CLPRIM_TYPE_UINT64, 0, 0); }
static void test_keys_caller(void **state) { (void)state; run_kind(CLPRIM_SEGMENTS_KEYS, 0, 1, 0); }
static void test_offsets_int32(void **state) { (void)state; run_kind(CLPRIM_SEGMENTS_OFFSETS, CLPRIM_TYPE_INT32, 0, 1); }
static void test_offsets_uint64(void **state) { (void)state; run_kind(CLPRIM_SEGMENTS_OFFSETS, CLPRIM_TYPE_UINT64, 0, 0); }

/* Per-row sums of a small CSR matrix through the blocking helpers, rows
 * 1 and 3 empty; and a scan by keys. */
static void test_host_helpers(void **state)
{
    const cl_int rows[] = {0, 3, 3, 5, 5, 8};
    const cl_int vals[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const cl_int want_rows[] = {6, 0, 9, 0, 21};
    const cl_uint keys[] = {7, 7, 2, 2, 2, 9, 7, 7};
    const cl_int want_scan[] = {1, 3, 3, 7, 12, 6, 7, 15};
    cl_int got[8];
    cl_uint got_keys[8];
    size_t count = 0;
    clprim_reduce_desc r = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_scan_desc sd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_segments sg = {CLPRIM_SEGMENTS_OFFSETS, NULL, 0, CLPRIM_TYPE_INT32, NULL, 5};
    (void)state;
    require_single_pass();
    memset(got, 0xA5, sizeof got);
    assert_int_equal(clprim_segmented_reduce_host(ctx, &r, &sg, rows, vals, 8, got, NULL, &count),
                     CLPRIM_SUCCESS);
    assert_int_equal(count, 5);
    assert_memory_equal(got, want_rows, sizeof want_rows);
    sg.kind = CLPRIM_SEGMENTS_KEYS;
    sg.type = CLPRIM_TYPE_UINT32;
    sg.num_segments = 0; /* OFFSETS only */
    memset(got, 0xA5, sizeof got);
    assert_int_equal(clprim_segmented_scan_host(ctx, &sd, &sg, keys, vals, got, 8), CLPRIM_SUCCESS);
    assert_memory_equal(got, want_scan, sizeof want_scan);
    memset(got, 0xA5, sizeof got);
    memset(got_keys, 0xA5, sizeof got_keys);
    assert_int_equal(clprim_segmented_reduce_host(ctx, &r, &sg, keys, vals, 8, got, got_keys, &count),
                     CLPRIM_SUCCESS);
    assert_int_equal(count, 4);
    {
        const cl_int want[] = {3, 12, 6, 15};
        const cl_uint wk[] = {7, 2, 9, 7};
        assert_memory_equal(got, want, sizeof want);
        assert_memory_equal(got_keys, wk, sizeof wk);
    }
}

#define expect_refused(got, want, needle) \
    assert_int_equal(tu_refused(ctx, (got), (want), (needle)), 0)

static void test_refused(void **state)
{
    cl_context cl = clprim_context_cl_context(ctx);
    const cl_int vals[4] = {1, 2, 3, 4};
    const cl_int bad_rows[] = {0, 3, 2, 4};
    cl_int out[4];
    size_t count;
    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem small = clCreateBuffer(cl, CL_MEM_READ_WRITE, 16, NULL, &err);
    clprim_scan_desc sd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_reduce_desc rd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_segments sg = {CLPRIM_SEGMENTS_FLAGS_U8, buf, 0, 0, NULL, 0};
    (void)state;
    require_single_pass();
    assert_int_equal(err, CL_SUCCESS);
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, NULL, buf, 0, buf, 0, 10, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "segments is NULL");
    sg.kind = (clprim_segments_kind)9;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 10, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "kind");
    sg.kind = CLPRIM_SEGMENTS_KEYS;
    sg.type = CLPRIM_TYPE_FLOAT;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 10, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "integer type");
    /* the flags or keys buffer too short */
    sg.type = CLPRIM_TYPE_INT64;
    sg.mem = small;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 10, 0, NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "segments->mem");
    sg.kind = CLPRIM_SEGMENTS_FLAGS_U32;
    /* fields of other kinds are refused, not ignored */
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 5, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "segments->type: for KEYS and OFFSETS only");
    sg.type = 0;
    sg.num_segments = 3;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 5, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "segments->num_segments: for OFFSETS only");
    sg.num_segments = 0;
    sg.key_element = key8;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 5, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "segments->key_element: for KEYS only");
    sg.key_element = NULL;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 5, 0, NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "segments->mem");
    sg.kind = CLPRIM_SEGMENTS_OFFSETS;
    sg.type = CLPRIM_TYPE_INT32;
    sg.num_segments = 4;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 5, 0, NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "segments->mem");
    /* overlaps, outputs shared, algorithms */
    sg.kind = CLPRIM_SEGMENTS_FLAGS_U8;
    sg.type = 0;
    sg.num_segments = 0;
    sg.mem = small;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 2, 10, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "overlap");
    expect_refused(clprim_segmented_reduce(ctx, NULL, &rd, &sg, buf, 0, 10, buf, 0, NULL, 0, NULL,
                                           0, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "overlap");
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, small, 0, 4, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "overlap");
    expect_refused(clprim_segmented_reduce(ctx, NULL, &rd, &sg, buf, 0, 10, buf, 100, buf, 200,
                                           NULL, 0, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "keys_out is for KEYS");
    sd.algorithm = CLPRIM_SCAN_BLELLOCH;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 10, 0, NULL, NULL),
                   CLPRIM_UNSUPPORTED, "one pass");
    sd.algorithm = (clprim_scan_algorithm)77;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 10, 0, NULL, NULL),
                   CLPRIM_UNKNOWN_ALGORITHM, "algorithm");
    rd.algorithm = CLPRIM_REDUCE_FAST;
    expect_refused(clprim_segmented_reduce(ctx, NULL, &rd, &sg, buf, 0, 10, buf, 100, NULL, 0, NULL,
                                           0, 0, NULL, NULL),
                   CLPRIM_UNSUPPORTED, "AUTO");
    rd.algorithm = CLPRIM_REDUCE_AUTO;
    /* the count buffer too small */
    expect_refused(clprim_segmented_reduce(ctx, NULL, &rd, &sg, buf, 0, 10, buf, 100, NULL, 0,
                                           small, 2, 0, NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "count");
    /* the helpers read host_segs: a device buffer given is refused */
    sg.kind = CLPRIM_SEGMENTS_OFFSETS;
    sg.type = CLPRIM_TYPE_INT32;
    sg.num_segments = 3;
    expect_refused(clprim_segmented_scan_host(ctx, &sd, &sg, bad_rows, vals, out, 4),
                   CLPRIM_INVALID_ARGUMENT, "segments->mem: the blocking helpers");
    sg.mem = NULL;
    sg.off = 1;
    expect_refused(clprim_segmented_reduce_host(ctx, &rd, &sg, bad_rows, vals, 4, out, NULL, &count),
                   CLPRIM_INVALID_ARGUMENT, "segments->off: the blocking helpers");
    sg.off = 0;
    /* offsets that fall, or do not end at n: the helpers check */
    expect_refused(clprim_segmented_reduce_host(ctx, &rd, &sg, bad_rows, vals, 4, out, NULL, &count),
                   CLPRIM_INVALID_ARGUMENT, "offsets[2] = 2");
    expect_refused(clprim_segmented_scan_host(ctx, &sd, &sg, bad_rows, vals, out, 5),
                   CLPRIM_INVALID_ARGUMENT, "offsets[");
    clReleaseMemObject(buf);
    clReleaseMemObject(small);
}

/* Bad offsets through the enqueueing call: unspecified values, but nothing
 * written outside the output. */
static void test_bad_offsets_stay_inside(void **state)
{
    cl_context cl = clprim_context_cl_context(ctx);
    const cl_int rows[] = {5, 2, 900, -3, 1, 1000000};
    cl_int vals[600], out[5 + 2 * MARGIN];
    cl_int err;
    cl_mem in, ob, sb;
    clprim_reduce_desc rd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_segments sg = {CLPRIM_SEGMENTS_OFFSETS, NULL, 0, CLPRIM_TYPE_INT32, NULL, 5};
    size_t i;
    (void)state;
    require_single_pass();
    for (i = 0; i < 600; ++i)
        vals[i] = (cl_int)i;
    memset(out, POISON, sizeof out);
    in = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof vals, vals, &err);
    ob = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof out, out, &err);
    sb = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof rows, (void *)rows, &err);
    sg.mem = sb;
    assert_int_equal(clprim_segmented_reduce(ctx, NULL, &rd, &sg, in, 0, 600, ob, MARGIN, NULL, 0,
                                             NULL, 0, 0, NULL, NULL),
                     CLPRIM_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), ob, CL_TRUE, 0, sizeof out, out,
                                         0, NULL, NULL),
                     CL_SUCCESS);
    for (i = 0; i < MARGIN * 4; ++i) {
        const unsigned char *p = (const unsigned char *)out;
        assert_int_equal(p[i], POISON);
        assert_int_equal(p[(MARGIN + 5) * 4 + i], POISON);
    }
    clReleaseMemObject(in);
    clReleaseMemObject(ob);
    clReleaseMemObject(sb);
}

/* A spin bound of one poll: nearly every look-back takes the fallback. */
static void test_fallback(void **state)
{
    clprim_context *saved = ctx;
    clprim_operator *saved_affine = affine;
    static const clprim_segments_kind kinds[] = {CLPRIM_SEGMENTS_FLAGS_U8, CLPRIM_SEGMENTS_KEYS,
                                                 CLPRIM_SEGMENTS_OFFSETS};
    const clprim_operator_desc ad = {"uint2", NULL, "(uint2)(a.x * b.x, b.x * a.y + b.y)",
                                     "(uint2)(1u, 0u)", 8, 0, NULL, 0, NULL};
    int failures = 0;
    (void)state;
    require_single_pass();
    setenv("CLPRIM_LOOKBACK_SPINS", "1", 1);
    ctx = tu_context(); /* programs built with the new bound */
    assert_int_equal(clprim_operator_create(ctx, &ad, &affine), CLPRIM_SUCCESS);
    for (size_t k = 0; k < 3; ++k) {
        scase c;
        memset(&c, 0, sizeof c);
        c.kind = kinds[k];
        c.seg_type = CLPRIM_TYPE_INT32;
        c.type = CLPRIM_TYPE_INT32;
        c.op = CLPRIM_OP_SUM;
        c.len = 1000;
        c.empties = c.kind == CLPRIM_SEGMENTS_OFFSETS;
        failures += run_sizes(c, 0);
        c.custom = 1;
        c.len = 4;
        failures += run_sizes(c, 0);
    }
    clprim_operator_release(affine);
    affine = saved_affine;
    clprim_context_release(ctx);
    ctx = saved;
    unsetenv("CLPRIM_LOOKBACK_SPINS");
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* ---- transforms (desc->transform): every segmented form maps its input ---- */

typedef struct tcase {
    clprim_type in_type;  /* the transform's input */
    clprim_type type;     /* what is scanned (ignored with custom) */
    clprim_op op;
    int custom;           /* the affine operator on uint2 */
    const char *expr;
} tcase;

/* The host's f(x, i) of each case below, in the scanned type's bytes. */
static void tmap(int which, const unsigned char *x, size_t i, unsigned char *y)
{
    cl_uint u;
    cl_ulong q;
    switch (which) {
    case 0: /* uint -> ulong, narrower input */
        memcpy(&u, x, 4);
        q = (cl_ulong)u * 3u + i;
        memcpy(y, &q, 8);
        break;
    case 1: /* ulong -> uint, wider input */
        memcpy(&q, x, 8);
        u = (cl_uint)(q >> 7) ^ (cl_uint)i;
        memcpy(y, &u, 4);
        break;
    case 2: { /* int -> int, one size */
        cl_int v;
        memcpy(&v, x, 4);
        v = (cl_int)((cl_uint)v * 10u) - (cl_int)(i % 1000);
        memcpy(y, &v, 4);
        break;
    }
    default: { /* uint -> the caller's uint2 (an affine map) */
        cl_uint m[2];
        memcpy(&u, x, 4);
        m[0] = 1u + (u & 1u) * 2u;
        m[1] = u >> 3;
        memcpy(y, m, 8);
        break;
    }
    }
}

static const tcase tcases[] = {
    {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_UINT64, CLPRIM_OP_SUM, 0, "(ulong)x * 3ul + i"},
    {CLPRIM_TYPE_UINT64, CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, "(uint)(x >> 7) ^ (uint)i"},
    {CLPRIM_TYPE_INT32, CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, 0, "(int)((uint)x * 10u) - (int)(i % 1000)"},
    {CLPRIM_TYPE_UINT32, 0, 0, 1, "(uint2)(1u + (x & 1u) * 2u, x >> 3)"},
};

/* Checks a segmented result of tcases[w] against the host over segments
 * starts[0..m] of the mapped input y; 0 when right. */
static size_t tcheck(int w, int reduce, int exclusive, const unsigned char *y, const size_t *starts,
                     size_t m, const unsigned char *got, const char *what)
{
    const tcase *t = &tcases[w];
    scase c;
    size_t k, bad = 0;
    memset(&c, 0, sizeof c);
    c.reduce = reduce;
    c.exclusive = exclusive;
    c.custom = t->custom;
    c.type = t->type;
    c.op = t->op;
    for (k = 0; k < m; ++k)
        bad += check_segment(&c, y, starts[k], starts[k + 1], got, k, what);
    return bad;
}

static void test_transforms(void **state)
{
    const clprim_segments_kind kinds[] = {CLPRIM_SEGMENTS_FLAGS_U8, CLPRIM_SEGMENTS_KEYS,
                                          CLPRIM_SEGMENTS_OFFSETS};
    const size_t n = 5003, in_off = 7, out_off = 3;
    cl_context cl = clprim_context_cl_context(ctx);
    uint64_t seed = tu_seed();
    (void)state;
    require_single_pass();
    for (int w = 0; w < (int)(sizeof tcases / sizeof tcases[0]); ++w)
        for (int kk = 0; kk < 3; ++kk)
            for (int form = 0; form < 3; ++form) { /* scan, exclusive scan, reduce */
                const tcase *t = &tcases[w];
                const size_t ie = clprim_type_size(t->in_type), oe = t->custom ? 8 : clprim_type_size(t->type);
                const clprim_transform tf = {t->in_type, t->expr};
                const clprim_scan_desc sd = {.type = t->type, .op = t->op, .exclusive = form == 1,
                                             .custom = t->custom ? affine : NULL, .transform = &tf};
                const clprim_reduce_desc rd = {.type = t->type, .op = t->op,
                                               .custom = t->custom ? affine : NULL,
                                               .transform = &tf};
                clprim_segments sg = {.kind = kinds[kk],
                                      .type = kinds[kk] == CLPRIM_SEGMENTS_FLAGS_U8
                                                  ? 0 : CLPRIM_TYPE_UINT32};
                unsigned char *x = malloc((in_off + n) * ie), *y = malloc(n * oe),
                              *got = malloc((out_off + n) * oe);
                cl_uint *segs = malloc((n + 1) * sizeof *segs);
                unsigned char *flags = malloc(n);
                size_t *starts = malloc((n + 1) * sizeof *starts), m = 0, i, count = 0;
                char what[200];
                uint64_t s = seed + (uint64_t)(w * 9 + kk * 3 + form);
                assert_true(x && y && got && segs && flags && starts);
                snprintf(what, sizeof what, "transform %s, %s, %s, seed=%llu", t->expr,
                         clprim_segments_kind_name(kinds[kk]),
                         form == 2 ? "reduce" : form ? "exclusive scan" : "scan",
                         (unsigned long long)seed);
                for (i = 0; i < (in_off + n) * ie; ++i)
                    x[i] = (unsigned char)tu_rand(&s);
                for (i = 0; i < n; ++i) {
                    flags[i] = i == 0 || tu_rand(&s) % 40 == 0;
                    if (flags[i])
                        starts[m++] = i;
                    tmap(w, x + (in_off + i) * ie, i, y + i * oe); /* i counts from in_off */
                }
                starts[m] = n;
                if (kinds[kk] == CLPRIM_SEGMENTS_OFFSETS)
                    for (i = 0; i <= m; ++i)
                        segs[i] = (cl_uint)starts[i];
                else if (kinds[kk] == CLPRIM_SEGMENTS_KEYS)
                    for (i = 0, segs[0] = 5; i < n; ++i)
                        segs[i] = i ? segs[i - 1] + flags[i] : segs[0];
                if (kinds[kk] == CLPRIM_SEGMENTS_OFFSETS)
                    sg.num_segments = m;
                /* the host helper (input from element 0: i counts from there) */
                memset(got, POISON, (out_off + n) * oe);
                if (form == 2) {
                    assert_int_equal(clprim_segmented_reduce_host(ctx, &rd, &sg,
                                                                  kinds[kk] == CLPRIM_SEGMENTS_FLAGS_U8
                                                                      ? (void *)flags : (void *)segs,
                                                                  x + in_off * ie, n, got, NULL,
                                                                  &count),
                                     CLPRIM_SUCCESS);
                    assert_int_equal(count, m);
                } else {
                    assert_int_equal(clprim_segmented_scan_host(ctx, &sd, &sg,
                                                                kinds[kk] == CLPRIM_SEGMENTS_FLAGS_U8
                                                                    ? (void *)flags : (void *)segs,
                                                                x + in_off * ie, got, n),
                                     CLPRIM_SUCCESS);
                }
                assert_int_equal(tcheck(w, form == 2, form == 1, y, starts, m, got, what), 0);
                /* the enqueueing call, input from in_off, output from out_off */
                {
                    const size_t su = kinds[kk] == CLPRIM_SEGMENTS_FLAGS_U8 ? 1 : 4;
                    const size_t sn = kinds[kk] == CLPRIM_SEGMENTS_OFFSETS ? m + 1 : n;
                    cl_int err;
                    cl_mem bin = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                (in_off + n) * ie, x, &err);
                    cl_mem bseg = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                 sn * su, su == 1 ? (void *)flags : (void *)segs,
                                                 &err);
                    cl_mem bout, bcount;
                    cl_ulong c64 = 0;
                    memset(got, POISON, (out_off + n) * oe);
                    bout = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                          (out_off + n) * oe, got, &err);
                    bcount = clCreateBuffer(cl, CL_MEM_READ_WRITE, 8, NULL, &err);
                    assert_true(bin && bseg && bout && bcount);
                    sg.mem = bseg;
                    if (form == 2)
                        assert_int_equal(clprim_segmented_reduce(ctx, NULL, &rd, &sg, bin, in_off,
                                                                 n, bout, out_off, NULL, 0, bcount,
                                                                 0, 0, NULL, NULL),
                                         CLPRIM_SUCCESS);
                    else
                        assert_int_equal(clprim_segmented_scan(ctx, NULL, &sd, &sg, bin, in_off,
                                                               bout, out_off, n, 0, NULL, NULL),
                                         CLPRIM_SUCCESS);
                    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), bout, CL_TRUE,
                                                         0, (out_off + n) * oe, got, 0, NULL, NULL),
                                     CL_SUCCESS);
                    if (form == 2) {
                        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), bcount,
                                                             CL_TRUE, 0, 8, &c64, 0, NULL, NULL),
                                         CL_SUCCESS);
                        assert_int_equal(c64, m);
                    }
                    assert_int_equal(tcheck(w, form == 2, form == 1, y, starts, m,
                                            got + out_off * oe, what), 0);
                    clReleaseMemObject(bin);
                    clReleaseMemObject(bseg);
                    clReleaseMemObject(bout);
                    clReleaseMemObject(bcount);
                    sg.mem = NULL;
                }
                free(x), free(y), free(got), free(segs), free(flags), free(starts);
            }
}

/* A transform that changes the element size cannot run in place; the
 * message says so. */
static void test_transform_in_place_refused(void **state)
{
    cl_context cl = clprim_context_cl_context(ctx);
    const clprim_transform tf = {CLPRIM_TYPE_UINT32, "(ulong)x"};
    const clprim_scan_desc sd = {.type = CLPRIM_TYPE_UINT64, .op = CLPRIM_OP_SUM, .transform = &tf};
    cl_uchar flags[16];
    cl_int err;
    cl_mem buf, f;
    clprim_segments sg = {.kind = CLPRIM_SEGMENTS_FLAGS_U8};
    (void)state;
    require_single_pass();
    memset(flags, 1, sizeof flags);
    buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 16 * 8, NULL, &err);
    f = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 16, flags, &err);
    sg.mem = f;
    expect_refused(clprim_segmented_scan(ctx, NULL, &sd, &sg, buf, 0, buf, 0, 16, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "cannot run in place");
    clReleaseMemObject(buf);
    clReleaseMemObject(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types),         cmocka_unit_test(test_flags_u8),
        cmocka_unit_test(test_flags_u32),     cmocka_unit_test(test_keys_int32),
        cmocka_unit_test(test_keys_uint64),   cmocka_unit_test(test_keys_caller),
        cmocka_unit_test(test_offsets_int32), cmocka_unit_test(test_offsets_uint64),
        cmocka_unit_test(test_host_helpers),  cmocka_unit_test(test_refused),
        cmocka_unit_test(test_bad_offsets_stay_inside), cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_transforms),    cmocka_unit_test(test_transform_in_place_refused),
    };
    /* x -> a x + b, then x -> c x + d: x -> (a c) x + (c b + d) */
    const clprim_operator_desc ad = {"uint2", NULL, "(uint2)(a.x * b.x, b.x * a.y + b.y)",
                                     "(uint2)(1u, 0u)", 8, 0, NULL, 0, NULL};
    const clprim_element_desc kd = {"key8", "typedef struct { uint lo, hi; } key8;", 8};
    int rc;
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    if (clprim_operator_create(ctx, &ad, &affine) != CLPRIM_SUCCESS ||
        clprim_element_create(ctx, &kd, &key8) != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "cannot create the test's operator and key type: %s\n", why);
        return 1;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_operator_release(affine);
    clprim_element_release(key8);
    clprim_context_release(ctx);
    return rc;
}

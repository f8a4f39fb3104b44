/* SPDX-License-Identifier: MIT */
/* Scan correctness: every algorithm x type x operator x inclusive/exclusive
 * over edge sizes (0, 1, 2^k - 1, 2^k, 2^k + 1 around every SIMD width,
 * work-group size and tile clprim can choose, all powers of two), a random
 * medium size, and random large sizes; with offsets and in place, and
 * some from a carry-in (clprim_scan_init). */
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

static clprim_context *ctx;
static clprim_device_info info;

typedef struct param {
    clprim_scan_algorithm algorithm;
    clprim_type type;
} param;

static size_t edge_sizes(size_t *sizes)
{
    size_t count = 0, k;
    sizes[count++] = 0;
    sizes[count++] = 1;
    sizes[count++] = 2;
    sizes[count++] = 3;
    for (k = 5; k <= 13; ++k) {
        sizes[count++] = ((size_t)1 << k) - 1;
        sizes[count++] = (size_t)1 << k;
        sizes[count++] = ((size_t)1 << k) + 1;
    }
    return count;
}

/* Case i of a list: plain, with offsets, or in place, in turn. */
static void shape(tu_case *c, size_t i, uint64_t *s)
{
    c->in_off = c->out_off = 0;
    c->in_place = 0;
    if (i % 3 == 1) {
        c->in_off = 1 + tu_rand(s) % 37;
        c->out_off = tu_rand(s) % 41;
    } else if (i % 3 == 2) {
        c->in_place = 1;
        c->in_off = c->out_off = tu_rand(s) % 5;
    }
    c->seed = tu_rand(s);
}

static void skip_without_fp64(clprim_type type)
{
    if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64) {
        printf("# double skipped: %s has no cl_khr_fp64\n", info.device_name);
        skip();
    }
}

static void test_all_ops_edge_sizes(void **state)
{
    const param *p = *state;
    size_t sizes[64], count = edge_sizes(sizes), i, failures = 0, runs = 0;
    uint64_t s = tu_seed() ^ ((uint64_t)p->algorithm << 32) ^ ((uint64_t)p->type << 40);
    int op, excl;

    skip_without_fp64(p->type);
    for (op = 0; op < CLPRIM_OP_COUNT_; ++op)
        for (excl = 0; excl < 2; ++excl)
            for (i = 0; i <= count; ++i) {
                tu_case c = {p->algorithm, p->type, (clprim_op)op, excl, 0, 0, 0, 0, 0, 0};
                /* the last case: a random medium size, 3 levels for small tiles */
                c.n = i < count ? sizes[i] : ((size_t)1 << 14) + tu_rand(&s) % ((size_t)1 << 18);
                shape(&c, i + (size_t)op + (size_t)excl, &s);
                c.init = i % 4 == 3; /* a quarter from a carry-in (clprim_scan_init) */
                failures += tu_run_case(ctx, &c) != 0;
                ++runs;
            }
    if (failures)
        fail_msg("%zu of %zu cases failed (CLPRIM_TEST_SEED=%llu)", failures, runs,
                 (unsigned long long)tu_seed());
}

/* Random sizes up to 2^22 for every algorithm and type (sum, which is where
 * rounding and wrap-around show), inclusive and exclusive in turn. */
static void test_large(void **state)
{
    const param *p = *state;
    uint64_t s = tu_seed() ^ 0x1a96e ^ ((uint64_t)p->algorithm << 32);
    size_t failures = 0, i;
    int type;

    for (type = 0; type < CLPRIM_TYPE_COUNT_; ++type) {
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (i = 0; i < 2; ++i) {
            tu_case c = {p->algorithm, (clprim_type)type, CLPRIM_OP_SUM, (int)i, 0, 0, 0, 0, 0, 0};
            c.n = ((size_t)1 << 20) + tu_rand(&s) % ((size_t)3 << 20);
            shape(&c, i + (size_t)type, &s);
            c.init = (i + (size_t)type) % 3 == 0;
            failures += tu_run_case(ctx, &c) != 0;
        }
    }
    if (failures)
        fail_msg("%zu large cases failed (CLPRIM_TEST_SEED=%llu)", failures,
                 (unsigned long long)tu_seed());
}

/* More than two levels of the hierarchy for the tuned tile: tile^2 + 1
 * elements with the largest tile clprim uses (4096 on NVIDIA, 1024 on CPUs)
 * needs three tile-kernel launches; max of uint32 keeps the check exact. */
static void test_three_levels(void **state)
{
    tu_case c = {CLPRIM_SCAN_MULTILEVEL, CLPRIM_TYPE_UINT32, CLPRIM_OP_MAX, 0,
                 ((size_t)4096 * 4096) + 3, 5, 2, 0, 0, 0};
    uint64_t s = tu_seed() ^ 0x3e7e15;
    (void)state;
    c.seed = tu_rand(&s);
    assert_int_equal(tu_run_case(ctx, &c), 0);
    c.op = CLPRIM_OP_SUM;
    c.exclusive = 1;
    c.in_place = 1;
    c.out_off = c.in_off;
    c.init = 1;
    c.seed = tu_rand(&s);
    assert_int_equal(tu_run_case(ctx, &c), 0);
}

/* The single-pass fallback: with one poll before giving up, nearly every
 * look-back computes its predecessors' totals from their input, including in
 * place, where the predecessor may be writing its output meanwhile. */
static void test_single_pass_fallback(void **state)
{
    clprim_context *c = NULL;
    uint64_t s = tu_seed() ^ 0xfa11bac;
    size_t failures = 0, i;
    (void)state;
    if (!info.has_single_pass)
        skip();
    setenv("CLPRIM_LOOKBACK_SPINS", "1", 1);
    assert_int_equal(clprim_context_create(NULL, &c), CLPRIM_SUCCESS);
    unsetenv("CLPRIM_LOOKBACK_SPINS");
    for (i = 0; i < 12; ++i) {
        static const clprim_type types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT64, CLPRIM_TYPE_FLOAT};
        tu_case k = {i % 2 ? CLPRIM_SCAN_DOMINO : CLPRIM_SCAN_DECOUPLED_LOOKBACK,
                     types[(i / 2) % 3], CLPRIM_OP_SUM, (int)(i / 6), 0, 0, 0, 0, 0, 0};
        k.n = ((size_t)1 << 16) + tu_rand(&s) % ((size_t)1 << 21);
        shape(&k, i, &s);
        k.init = i % 4 >= 2; /* the walk past tile 0 must start from the carry-in */
        failures += tu_run_case(c, &k) != 0;
    }
    clprim_context_release(c);
    if (failures)
        fail_msg("%zu fallback cases failed (CLPRIM_TEST_SEED=%llu)", failures,
                 (unsigned long long)tu_seed());
}

/* n > 2^32 (64-bit indexing in every kernel and in the driver), in place,
 * where the device can hold 2^32 + 1029 uint32 in one buffer (not on CI's
 * PoCL). The input is a hash of the index, so the check regenerates it
 * instead of keeping a second 16 GiB copy. */
static uint32_t huge_input(uint64_t i, uint64_t salt)
{
    uint64_t s = i ^ salt;
    return (uint32_t)tu_rand(&s);
}

static void test_more_than_2_32(void **state)
{
    const size_t off = 5, n = ((size_t)1 << 32) + 1029, bytes = (off + n) * sizeof(cl_uint);
    const uint64_t salt = tu_seed();
    cl_context c = clprim_context_cl_context(ctx);
    cl_command_queue q = clprim_context_queue(ctx);
    clprim_scan_desc d = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    cl_uint *x, acc = 0;
    cl_mem b;
    cl_int err;
    size_t i, bad = 0;
    (void)state;
    if (sizeof(size_t) < 8 || info.max_alloc_size < bytes || info.global_mem_size < bytes + (bytes >> 3)) {
        printf("# n > 2^32 skipped: %s cannot hold %zu bytes in one buffer\n", info.device_name, bytes);
        skip();
    }
    x = malloc(bytes);
    if (!x) {
        printf("# n > 2^32 skipped: no %zu bytes of host memory\n", bytes);
        skip();
    }
    for (i = 0; i < off + n; ++i)
        x[i] = huge_input(i, salt);
    b = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, x, &err);
    assert_int_equal(err, CL_SUCCESS);
    memset(x, 0xA5, bytes); /* poison the host copy too */
    assert_int_equal(clprim_scan(ctx, NULL, &d, b, off, b, off, n, 0, NULL, NULL), CLPRIM_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, bytes, x, 0, NULL, NULL), CL_SUCCESS);
    for (i = 0; i < off; ++i)
        bad += x[i] != huge_input(i, salt);
    for (i = 0; i < n; ++i) {
        acc += huge_input(off + i, salt);
        if (x[off + i] != acc && bad++ < 5)
            printf("  element %zu: got %u, expected %u\n", i, x[off + i], acc);
    }
    clReleaseMemObject(b);
    free(x);
    if (bad)
        fail_msg("%zu wrong elements (CLPRIM_TEST_SEED=%llu)", bad, (unsigned long long)salt);
}

/* ---- float min / max at their edges: NaN and signed zeros ---- */

/* One edge case: what runs and on what input. */
typedef struct edge_case {
    clprim_scan_algorithm algorithm;
    clprim_type type;
    clprim_op op;
    int exclusive, nan, init; /* nan: clprim_ref_fill_edges's; init: a carry-in */
    size_t n;
    uint64_t seed;
} edge_case;

static void edge_describe(const edge_case *c, const char *call, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s %s %s n=%zu%s seed=%llu", call,
             clprim_scan_algorithm_name(c->algorithm), clprim_type_name(c->type),
             clprim_op_name(c->op), c->exclusive ? "exclusive" : "inclusive", c->n,
             !c->init ? "" : c->nan ? " init=NaN" : c->op == CLPRIM_OP_MIN ? " init=-0.0" : " init=+0.0",
             (unsigned long long)c->seed);
}

static cl_mem edge_buffer(size_t bytes, const void *src)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clprim_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)src, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* The input of a case (x[0..n)) and its carry-in: with nan, NaN (and the
 * input then has none of its own: every result is the carry-in's NaN);
 * else the zero that decides the whole scan (min -0.0, max +0.0) before an
 * input of the other zero's kind. */
static void edge_input(const edge_case *c, unsigned char *x, unsigned char *init)
{
    uint64_t s = c->seed;
    clprim_ref_fill_edges(c->type, c->op, c->nan && !c->init, x, c->n, &s);
    if (c->init && !c->nan) { /* min: +0.0, then numbers above it; max: the mirror image */
        size_t i, e = clprim_type_size(c->type);
        for (i = 0; i < c->n; ++i)
            clprim_ref_float(c->type, 0,
                             c->op == CLPRIM_OP_MIN ? (i < c->n / 2 ? 0.0 : 1.0 + (double)i)
                                                    : (i < c->n / 2 ? -0.0 : -1.0 - (double)i),
                             0, x + i * e);
    }
    clprim_ref_float(c->type, c->nan, c->op == CLPRIM_OP_MIN ? -0.0 : 0.0, tu_rand(&s), init);
}

/* The reference check of got against the scan of x from carry-in init (NULL:
 * none): the scan of [init, x...] as in testutil's check. */
static size_t edge_check(const edge_case *c, const unsigned char *x, const unsigned char *init,
                         const unsigned char *got, const char *what)
{
    const size_t e = clprim_type_size(c->type);
    unsigned char *y, *g;
    size_t bad;
    if (!init)
        return clprim_ref_scan_check(c->type, c->op, c->exclusive, x, got, c->n, stdout, what);
    y = malloc((c->n + 1) * e);
    g = malloc((c->n + 1) * e);
    assert_true(y && g);
    memcpy(y, init, e);
    memcpy(y + e, x, c->n * e);
    memcpy(g, init, e);
    memcpy(g + e, got, c->n * e);
    bad = c->exclusive ? clprim_ref_scan_check(c->type, c->op, 0, y, got, c->n, stdout, what)
                       : clprim_ref_scan_check(c->type, c->op, 0, y, g, c->n + 1, stdout, what);
    free(y);
    free(g);
    return bad;
}

/* clprim_scan / clprim_scan_init of one case, output poisoned, margins
 * checked: 0 when right. */
static int edge_run(const edge_case *c)
{
    const size_t e = clprim_type_size(c->type), margin = 5;
    const clprim_scan_desc d = {c->type, c->op, c->exclusive, c->algorithm, NULL, NULL, CLPRIM_REPRO_NONE};
    unsigned char *x = malloc(c->n * e), *got = malloc((c->n + margin) * e), init[8];
    char what[256];
    size_t bad, i;
    cl_mem in, out, im;
    clprim_status st;

    assert_true(x && got);
    edge_input(c, x, init);
    edge_describe(c, c->init ? "scan_init" : "scan", what, sizeof what);
    memset(got, 0xA5, (c->n + margin) * e);
    in = edge_buffer(c->n * e, x);
    out = edge_buffer((c->n + margin) * e, got);
    im = edge_buffer(e, init);
    st = c->init ? clprim_scan_init(ctx, NULL, &d, im, 0, in, 0, out, 0, c->n, 0, NULL, NULL)
                 : clprim_scan(ctx, NULL, &d, in, 0, out, 0, c->n, 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS)
        st = clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, (c->n + margin) * e,
                                 got, 0, NULL, NULL);
    if (st != CLPRIM_SUCCESS) {
        char why[2048];
        clprim_context_last_error(ctx, why, sizeof why);
        printf("FAIL %s: %s: %s\n", what, clprim_status_string(st), why);
        bad = 1;
    } else {
        bad = edge_check(c, x, c->init ? init : NULL, got, what);
        for (i = c->n * e; i < (c->n + margin) * e; ++i)
            bad += got[i] != 0xA5;
        if (bad)
            printf("FAIL %s: %zu wrong elements\n", what, bad);
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(im);
    free(x);
    free(got);
    return bad != 0;
}

/* Float and double min and max (clprim.h, "Arithmetic": IEEE 754-2019
 * minimum / maximum) through one algorithm: the zero that decides (-0.0
 * for min after +0.0, +0.0 for max after -0.0) and a NaN in the second half
 * (every result from it on is NaN), inclusive and exclusive, sizes within
 * one tile and over many; a NaN carry-in (every result NaN) and a signed
 * zero carry-in over zeros of the other sign. */
static void test_min_max_edges(void **state)
{
    const param *p = *state;
    uint64_t s = tu_seed() ^ 0xed9e5 ^ ((uint64_t)p->algorithm << 32);
    int failures = 0, runs = 0, t, op, excl, k;
    if ((p->algorithm == CLPRIM_SCAN_DOMINO || p->algorithm == CLPRIM_SCAN_DECOUPLED_LOOKBACK) &&
        !info.has_single_pass)
        skip();
    for (t = 0; t < 2; ++t) {
        const clprim_type type = t ? CLPRIM_TYPE_DOUBLE : CLPRIM_TYPE_FLOAT;
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (op = CLPRIM_OP_MIN; op <= CLPRIM_OP_MAX; ++op)
            for (excl = 0; excl < 2; ++excl)
                for (k = 0; k < 6; ++k) {
                    edge_case c = {p->algorithm, type, (clprim_op)op, excl, k % 2, k >= 4, 0, 0};
                    c.n = k == 0 ? 1 + (size_t)(tu_rand(&s) % 40)
                          : k < 4 ? (size_t)1 + (size_t)(tu_rand(&s) % (k == 1 ? 300 : 100000))
                                  : 1000 + (size_t)(tu_rand(&s) % 50000);
                    c.seed = tu_rand(&s);
                    failures += edge_run(&c);
                    ++runs;
                }
    }
    if (failures)
        fail_msg("%d of %d cases failed (CLPRIM_TEST_SEED=%llu)", failures, runs,
                 (unsigned long long)tu_seed());
}

/* The same rule through segmented scans (each segment its own scan) and a
 * multi-part scan (the parts' totals carried from part to part). */
static void test_min_max_edges_segmented_multi(void **state)
{
    uint64_t s = tu_seed() ^ 0x5e9ed9e;
    int failures = 0, t, op, k;
    (void)state;
    for (t = 0; t < 2; ++t) {
        const clprim_type type = t ? CLPRIM_TYPE_DOUBLE : CLPRIM_TYPE_FLOAT;
        const size_t e = clprim_type_size(type);
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (op = CLPRIM_OP_MIN; op <= CLPRIM_OP_MAX; ++op)
            for (k = 0; k < 4; ++k) {
                const int excl = k / 2, nan = k % 2;
                const size_t n = 2000 + (size_t)(tu_rand(&s) % 60000), margin = 3;
                const clprim_scan_desc d = {type, (clprim_op)op, excl, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
                unsigned char *x = malloc(n * e), *got = malloc((n + margin) * e);
                unsigned char *flags = malloc(n);
                size_t i, start, bad = 0, cut[2];
                cl_mem in, out, fm;
                clprim_status st;
                char what[200];
                uint64_t r = tu_rand(&s);
                assert_true(x && got && flags);
                clprim_ref_fill_edges(type, (clprim_op)op, nan, x, n, &r);
                /* segmented: short segments (some of one element) or long ones */
                for (i = 0; i < n; ++i)
                    flags[i] = i == 0 || tu_rand(&s) % (op == CLPRIM_OP_MIN ? 7 : 3000) == 0;
                snprintf(what, sizeof what, "segmented %s %s %s nan=%d n=%zu",
                         clprim_type_name(type), clprim_op_name((clprim_op)op),
                         excl ? "exclusive" : "inclusive", nan, n);
                memset(got, 0xA5, (n + margin) * e);
                in = edge_buffer(n * e, x);
                out = edge_buffer((n + margin) * e, got);
                fm = edge_buffer(n, flags);
                {
                    const clprim_segments sg = {CLPRIM_SEGMENTS_FLAGS_U8, fm, 0, 0 /* flags: no type */,
                                                NULL, 0};
                    st = clprim_segmented_scan(ctx, NULL, &d, &sg, in, 0, out, 0, n, 0, NULL, NULL);
                }
                if (st == CLPRIM_UNSUPPORTED && !info.has_single_pass) {
                    st = CLPRIM_SUCCESS; /* no segmented scans here: the multi-part scan only */
                } else {
                    if (st == CLPRIM_SUCCESS)
                        st = clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0,
                                                 (n + margin) * e, got, 0, NULL, NULL);
                    for (start = 0; st == CLPRIM_SUCCESS && start < n;) {
                        size_t end = start + 1;
                        while (end < n && !flags[end])
                            ++end;
                        bad += clprim_ref_scan_check(type, (clprim_op)op, excl, x + start * e,
                                                     got + start * e, end - start, stdout, what);
                        start = end;
                    }
                    for (i = n * e; i < (n + margin) * e; ++i)
                        bad += got[i] != 0xA5;
                }
                /* multi: three parts on this context, the middle one empty
                 * or not, the NaN (second half) in the last or the middle */
                cut[0] = (size_t)(tu_rand(&s) % (n / 2));
                cut[1] = k % 2 ? cut[0] : cut[0] + (size_t)(tu_rand(&s) % (n - cut[0]));
                if (st == CLPRIM_SUCCESS) {
                    clprim_part parts[3];
                    memset(parts, 0, sizeof parts);
                    memset(got, 0xA5, (n + margin) * e);
                    clReleaseMemObject(out);
                    out = edge_buffer((n + margin) * e, got);
                    for (i = 0; i < 3; ++i) {
                        parts[i].ctx = ctx;
                        parts[i].in = in;
                        parts[i].out = out;
                        parts[i].in_off = parts[i].out_off = i ? cut[i - 1] : 0;
                        parts[i].n = (i < 2 ? cut[i] : n) - parts[i].in_off;
                    }
                    snprintf(what, sizeof what, "multi %s %s %s nan=%d n=%zu cuts %zu %zu",
                             clprim_type_name(type), clprim_op_name((clprim_op)op),
                             excl ? "exclusive" : "inclusive", nan, n, cut[0], cut[1]);
                    st = clprim_multi_scan(&d, parts, 3);
                    if (st == CLPRIM_SUCCESS)
                        st = clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0,
                                                 (n + margin) * e, got, 0, NULL, NULL);
                    if (st == CLPRIM_SUCCESS)
                        bad += clprim_ref_scan_check(type, (clprim_op)op, excl, x, got, n, stdout,
                                                     what);
                    for (i = n * e; i < (n + margin) * e; ++i)
                        bad += got[i] != 0xA5;
                }
                if (st != CLPRIM_SUCCESS) {
                    char why[2048];
                    clprim_context_last_error(ctx, why, sizeof why);
                    printf("FAIL %s: %s: %s\n", what, clprim_status_string(st), why);
                    bad = bad ? bad : 1;
                }
                if (bad) {
                    printf("FAIL %s: %zu wrong elements\n", what, bad);
                    ++failures;
                }
                clReleaseMemObject(in);
                clReleaseMemObject(out);
                clReleaseMemObject(fm);
                free(x);
                free(got);
                free(flags);
            }
    }
    if (failures)
        fail_msg("%d cases failed (CLPRIM_TEST_SEED=%llu)", failures,
                 (unsigned long long)tu_seed());
}

static char names[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 2)][64];
static param params[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 2)];

int main(void)
{
    struct CMUnitTest tests[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 2) + 4];
    size_t count = 0;
    int a, t, rc;

    tu_seed();
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    for (a = 0; a < CLPRIM_SCAN_ALGORITHM_COUNT_; ++a) {
        for (t = 0; t <= CLPRIM_TYPE_COUNT_ + 1; ++t) {
            param *p = &params[count];
            struct CMUnitTest u = {0};
            p->algorithm = (clprim_scan_algorithm)a;
            p->type = (clprim_type)(t < CLPRIM_TYPE_COUNT_ ? t : 0);
            if (t < CLPRIM_TYPE_COUNT_) {
                snprintf(names[count], sizeof names[count], "%s_%s",
                         clprim_scan_algorithm_name(p->algorithm), clprim_type_name(p->type));
                u.test_func = test_all_ops_edge_sizes;
            } else if (t > CLPRIM_TYPE_COUNT_) {
                snprintf(names[count], sizeof names[count], "%s_min_max_nan_zeros",
                         clprim_scan_algorithm_name(p->algorithm));
                u.test_func = test_min_max_edges;
            } else {
                snprintf(names[count], sizeof names[count], "%s_large",
                         clprim_scan_algorithm_name(p->algorithm));
                u.test_func = test_large;
            }
            u.name = names[count];
            u.initial_state = p;
            tests[count++] = u;
        }
    }
    {
        struct CMUnitTest u = {"multilevel_three_levels", test_three_levels, NULL, NULL, NULL};
        struct CMUnitTest h = {"more_than_2_32", test_more_than_2_32, NULL, NULL, NULL};
        struct CMUnitTest f = {"single_pass_fallback", test_single_pass_fallback, NULL, NULL, NULL};
        tests[count++] = u;
        tests[count++] = h;
        struct CMUnitTest m = {"min_max_nan_zeros_segmented_multi",
                               test_min_max_edges_segmented_multi, NULL, NULL, NULL};
        tests[count++] = f;
        tests[count++] = m;
    }
    rc = _cmocka_run_group_tests("scan", tests, count, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

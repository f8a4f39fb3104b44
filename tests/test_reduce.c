/* SPDX-License-Identifier: MIT */
/* Reduce correctness: every algorithm x type x operator over edge sizes
 * (0, 1, 2^k - 1, 2^k, 2^k + 1: around every SIMD width, work-group size,
 * per-group tile and vector width), random medium and large sizes, offsets
 * that break vector alignment; plus the blocking helpers, the mean, repeat
 * runs giving the same bits, and bad arguments; float min / max with NaN
 * and signed zeros through every algorithm, segmented and multi-part. */
#include "common/testutil.h"
#include "reference/reference.h"

#include <math.h>
#include <stdlib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

static clprim_context *ctx;
static clprim_device_info info;

typedef struct param {
    clprim_reduce_algorithm algorithm;
    clprim_type type;
} param;

static void test_all_ops(void **state)
{
    const param *p = *state;
    uint64_t s = tu_seed() ^ 0x7ed ^ ((uint64_t)p->algorithm << 32) ^ ((uint64_t)p->type << 40);
    size_t sizes[40], count = 0, k, i, failures = 0, runs = 0;
    int op;

    if (p->type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
        skip();
    for (i = 0; i < 4; ++i)
        sizes[count++] = i;
    for (k = 5; k <= 14; ++k) {
        sizes[count++] = ((size_t)1 << k) - 1;
        sizes[count++] = (size_t)1 << k;
        sizes[count++] = ((size_t)1 << k) + 1;
    }
    for (op = 0; op < CLPRIM_OP_COUNT_; ++op)
        for (i = 0; i <= count; ++i) {
            tu_reduce_case c = {p->algorithm, p->type, (clprim_op)op, 0, 0, 0, 0};
            c.n = i < count ? sizes[i] : ((size_t)1 << 15) + tu_rand(&s) % ((size_t)1 << 19);
            c.in_off = (i + (size_t)op) % 3 ? tu_rand(&s) % 7 : 0; /* misaligned too */
            c.result_off = tu_rand(&s) % 3;
            c.seed = tu_rand(&s);
            failures += tu_run_reduce_case(ctx, &c) != 0;
            ++runs;
        }
    if (failures)
        fail_msg("%zu of %zu cases failed (CLPRIM_TEST_SEED=%llu)", failures, runs,
                 (unsigned long long)tu_seed());
}

/* Random sizes up to about 2^22 for every type (sum), every algorithm. */
static void test_large(void **state)
{
    uint64_t s = tu_seed() ^ 0x1a49e;
    size_t failures = 0;
    int a, type;
    (void)state;
    for (a = 0; a < CLPRIM_REDUCE_ALGORITHM_COUNT_; ++a)
        for (type = 0; type < CLPRIM_TYPE_COUNT_; ++type) {
            tu_reduce_case c = {(clprim_reduce_algorithm)a, (clprim_type)type, CLPRIM_OP_SUM,
                                0, 0, 0, 0};
            if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
                continue;
            c.n = ((size_t)1 << 20) + tu_rand(&s) % ((size_t)3 << 20);
            c.in_off = tu_rand(&s) % 5;
            c.seed = tu_rand(&s);
            failures += tu_run_reduce_case(ctx, &c) != 0;
        }
    if (failures)
        fail_msg("%zu large cases failed (CLPRIM_TEST_SEED=%llu)", failures,
                 (unsigned long long)tu_seed());
}

/* The same input gives the same bits every run (float sums included). */
static void test_reproducible(void **state)
{
    const size_t n = 1000003;
    float *x = malloc(n * sizeof *x), first = 0, again = 0;
    uint64_t s = tu_seed() ^ 0x5eed;
    int a, r;
    size_t i;
    (void)state;
    assert_non_null(x);
    for (i = 0; i < n; ++i)
        x[i] = (float)((double)(tu_rand(&s) >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    for (a = 0; a < CLPRIM_REDUCE_ALGORITHM_COUNT_; ++a) {
        clprim_reduce_desc d = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, (clprim_reduce_algorithm)a, NULL, NULL, CLPRIM_REPRO_NONE};
        assert_int_equal(clprim_reduce_host(ctx, &d, x, n, &first), CLPRIM_SUCCESS);
        for (r = 0; r < 3; ++r) {
            assert_int_equal(clprim_reduce_host(ctx, &d, x, n, &again), CLPRIM_SUCCESS);
            assert_memory_equal(&first, &again, sizeof first);
        }
    }
    free(x);
}

static void test_helpers(void **state)
{
    cl_int x[1000], err;
    cl_long big[3] = {(cl_long)1 << 40, 3, -5};
    clprim_reduce_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    cl_int v = 0;
    cl_long lv = 0;
    double mean = 0;
    cl_mem b;
    size_t i;
    long long sum = 0;
    cl_int most = -0x7fffffff, least_from_10 = 0x7fffffff;
    uint64_t s = tu_seed() ^ 0x4e1;
    (void)state;
    for (i = 0; i < 1000; ++i) {
        x[i] = (cl_int)(tu_rand(&s) % 2001) - 1000;
        sum += x[i];
        most = x[i] > most ? x[i] : most;
        if (i >= 10)
            least_from_10 = x[i] < least_from_10 ? x[i] : least_from_10;
    }
    assert_int_equal(clprim_reduce_host(ctx, &d, x, 1000, &v), CLPRIM_SUCCESS);
    assert_int_equal(v, most);
    d.op = CLPRIM_OP_MIN;
    assert_int_equal(clprim_reduce_host(ctx, &d, x, 0, &v), CLPRIM_SUCCESS);
    assert_int_equal(v, 0x7fffffff); /* n = 0: the identity */
    b = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       sizeof x, x, &err);
    assert_int_equal(clprim_reduce_value(ctx, &d, b, 10, 990, &v), CLPRIM_SUCCESS);
    assert_int_equal(v, least_from_10);
    assert_int_equal(clprim_mean(ctx, CLPRIM_TYPE_INT32, b, 0, 1000, &mean), CLPRIM_SUCCESS);
    assert_true(fabs(mean - (double)sum / 1000.0) < 1e-12);
    assert_int_equal(clprim_mean(ctx, CLPRIM_TYPE_INT32, b, 0, 0, &mean), CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_reduce_value(ctx, &d, b, 1, 1000, &v), CLPRIM_OUT_OF_BOUNDS);
    d.algorithm = (clprim_reduce_algorithm)9;
    assert_int_equal(clprim_reduce_value(ctx, &d, b, 0, 10, &v), CLPRIM_UNKNOWN_ALGORITHM);
    d.algorithm = CLPRIM_REDUCE_AUTO;
    d.op = (clprim_op)9;
    assert_int_equal(clprim_reduce_value(ctx, &d, b, 0, 10, &v), CLPRIM_UNKNOWN_OPERATOR);
    d.op = CLPRIM_OP_SUM;
    assert_int_equal(clprim_reduce_value(ctx, NULL, b, 0, 10, &v), CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_reduce(ctx, NULL, &d, b, 0, 10, NULL, 0, 0, NULL, NULL),
                     CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_reduce(ctx, NULL, &d, b, 0, 10, b, 1000, 0, NULL, NULL),
                     CLPRIM_OUT_OF_BOUNDS);
    assert_int_equal(clprim_reduce(NULL, NULL, &d, b, 0, 10, b, 0, 0, NULL, NULL),
                     CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_reduce(ctx, NULL, &d, b, 0, 10, b, 0, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    clReleaseMemObject(b);
    d.type = CLPRIM_TYPE_INT64;
    assert_int_equal(clprim_reduce_host(ctx, &d, big, 3, &lv), CLPRIM_SUCCESS);
    assert_true(lv == ((cl_long)1 << 40) - 2);
    assert_string_equal(clprim_reduce_algorithm_name(CLPRIM_REDUCE_FAST), "fast");
    assert_null(clprim_reduce_algorithm_name((clprim_reduce_algorithm)99));
}

/* ---- float min / max at their edges: NaN and signed zeros ---- */

static cl_mem edge_buffer(size_t bytes, const void *src)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clprim_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)src, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* Float and double min and max (clprim.h, "Arithmetic": IEEE 754-2019
 * minimum / maximum) through every reduce algorithm, from offsets that
 * break the vector loads' alignment: the zero that decides (min -0.0
 * after +0.0, max +0.0 after -0.0: the answer) and a NaN in the second
 * half (the answer NaN), sizes within one work-group and over many; then a
 * segmented reduce (each segment its own answer) and a multi-part reduce
 * of the same inputs. The result slot is poisoned first. */
static void test_min_max_edges(void **state)
{
    uint64_t s = tu_seed() ^ 0xed9e5ed;
    int failures = 0, runs = 0, t, op, k, a;
    (void)state;
    for (t = 0; t < 2; ++t) {
        const clprim_type type = t ? CLPRIM_TYPE_DOUBLE : CLPRIM_TYPE_FLOAT;
        const size_t e = clprim_type_size(type);
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (op = CLPRIM_OP_MIN; op <= CLPRIM_OP_MAX; ++op)
            for (k = 0; k < 6; ++k) {
                const int nan = k % 2;
                const size_t off = (size_t)(tu_rand(&s) % 5);
                const size_t n = k < 2 ? 1 + (size_t)(tu_rand(&s) % 40)
                                 : k < 4 ? 1 + (size_t)(tu_rand(&s) % 3000)
                                         : 10000 + (size_t)(tu_rand(&s) % 300000);
                unsigned char *x = malloc((off + n) * e), *got = malloc((n + 3) * e);
                unsigned char *flags = malloc(n);
                size_t i, start, count = 0, bad = 0;
                cl_mem in, out, fm;
                char what[200];
                uint64_t r = tu_rand(&s);
                clprim_status st = CLPRIM_SUCCESS;
                assert_true(x && got && flags);
                memset(x, 0x5A, off * e);
                clprim_ref_fill_edges(type, (clprim_op)op, nan, x + off * e, n, &r);
                in = edge_buffer((off + n) * e, x);
                for (a = 0; a < CLPRIM_REDUCE_ALGORITHM_COUNT_ && st == CLPRIM_SUCCESS; ++a) {
                    const clprim_reduce_desc d = {type, (clprim_op)op, (clprim_reduce_algorithm)a,
                                                  NULL, NULL, CLPRIM_REPRO_NONE};
                    snprintf(what, sizeof what, "reduce %s %s %s nan=%d n=%zu off=%zu",
                             clprim_reduce_algorithm_name(d.algorithm), clprim_type_name(type),
                             clprim_op_name(d.op), nan, n, off);
                    memset(got, 0xA5, 3 * e);
                    out = edge_buffer(3 * e, got);
                    st = clprim_reduce(ctx, NULL, &d, in, off, n, out, 1, 0, NULL, NULL);
                    if (st == CLPRIM_SUCCESS)
                        st = clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, 3 * e,
                                                 got, 0, NULL, NULL);
                    clReleaseMemObject(out);
                    if (st == CLPRIM_SUCCESS) {
                        const size_t b = clprim_ref_reduce_check(type, d.op, x + off * e, n,
                                                                 got + e, stdout, what);
                        for (i = 0; i < e; ++i)
                            bad += got[i] != 0xA5 || got[2 * e + i] != 0xA5;
                        if (b)
                            printf("FAIL %s\n", what);
                        bad += b;
                        ++runs;
                    }
                }
                /* segmented (segments short or long) and three parts (the
                 * middle one empty for the NaN cases) */
                for (i = 0; i < n; ++i)
                    flags[i] = i == 0 || tu_rand(&s) % (op == CLPRIM_OP_MIN ? 7 : 3000) == 0;
                fm = edge_buffer(n, flags);
                if (st == CLPRIM_SUCCESS) {
                    const clprim_reduce_desc d = {type, (clprim_op)op, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
                    const clprim_segments sg = {CLPRIM_SEGMENTS_FLAGS_U8, fm, 0, 0 /* flags: no type */,
                                                NULL, 0};
                    unsigned char *segs = malloc((n + 3) * e);
                    cl_ulong nseg = 0;
                    cl_mem cm = edge_buffer(sizeof nseg, &nseg);
                    assert_non_null(segs);
                    snprintf(what, sizeof what, "segmented reduce %s %s nan=%d n=%zu off=%zu",
                             clprim_type_name(type), clprim_op_name(d.op), nan, n, off);
                    memset(segs, 0xA5, (n + 3) * e);
                    out = edge_buffer((n + 3) * e, segs);
                    st = clprim_segmented_reduce(ctx, NULL, &d, &sg, in, off, n, out, 0, NULL, 0,
                                                 cm, 0, 0, NULL, NULL);
                    if (st == CLPRIM_UNSUPPORTED && !info.has_single_pass) {
                        st = CLPRIM_SUCCESS; /* no segmented reduce on this device */
                    } else {
                        if (st == CLPRIM_SUCCESS)
                            st = clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0,
                                                     (n + 3) * e, segs, 0, NULL, NULL);
                        if (st == CLPRIM_SUCCESS)
                            st = clEnqueueReadBuffer(clprim_context_queue(ctx), cm, CL_TRUE, 0,
                                                     sizeof nseg, &nseg, 0, NULL, NULL);
                        for (start = 0, count = 0; st == CLPRIM_SUCCESS && start < n; ++count) {
                            size_t end = start + 1;
                            while (end < n && !flags[end])
                                ++end;
                            bad += clprim_ref_reduce_check(type, d.op, x + (off + start) * e,
                                                           end - start, segs + count * e, stdout,
                                                           what);
                            start = end;
                        }
                        if (st == CLPRIM_SUCCESS && nseg != count) {
                            printf("FAIL %s: %llu segments, want %zu\n", what,
                                   (unsigned long long)nseg, count);
                            ++bad;
                        }
                        for (i = count * e; st == CLPRIM_SUCCESS && i < (n + 3) * e; ++i)
                            bad += segs[i] != 0xA5;
                    }
                    clReleaseMemObject(out);
                    clReleaseMemObject(cm);
                    free(segs);
                }
                if (st == CLPRIM_SUCCESS) {
                    const clprim_reduce_desc d = {type, (clprim_op)op, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
                    const size_t c0 = (size_t)(tu_rand(&s) % (n / 2 + 1));
                    const size_t c1 = nan ? c0 : c0 + (size_t)(tu_rand(&s) % (n - c0 + 1));
                    clprim_part parts[3];
                    memset(parts, 0, sizeof parts);
                    for (i = 0; i < 3; ++i) {
                        parts[i].ctx = ctx;
                        parts[i].in = in;
                        parts[i].in_off = off + (i == 0 ? 0 : i == 1 ? c0 : c1);
                        parts[i].n = (i == 0 ? c0 : i == 1 ? c1 : n) - (parts[i].in_off - off);
                    }
                    snprintf(what, sizeof what, "multi reduce %s %s nan=%d n=%zu cuts %zu %zu",
                             clprim_type_name(type), clprim_op_name(d.op), nan, n, c0, c1);
                    memset(got, 0xA5, 3 * e);
                    st = clprim_multi_reduce(&d, parts, 3, got);
                    if (st == CLPRIM_SUCCESS)
                        bad += clprim_ref_reduce_check(type, d.op, x + off * e, n, got, stdout, what);
                }
                if (st != CLPRIM_SUCCESS) {
                    char why[2048];
                    clprim_context_last_error(ctx, why, sizeof why);
                    printf("FAIL %s: %s: %s\n", what, clprim_status_string(st), why);
                    bad = bad ? bad : 1;
                }
                if (bad) {
                    printf("FAIL %s %s n=%zu: %zu wrong\n", clprim_type_name(type),
                           clprim_op_name((clprim_op)op), n, bad);
                    ++failures;
                }
                clReleaseMemObject(in);
                clReleaseMemObject(fm);
                free(x);
                free(got);
                free(flags);
            }
    }
    if (failures)
        fail_msg("%d of %d cases failed (CLPRIM_TEST_SEED=%llu)", failures, runs,
                 (unsigned long long)tu_seed());
}

static char names[CLPRIM_REDUCE_ALGORITHM_COUNT_ * CLPRIM_TYPE_COUNT_][48];
static param params[CLPRIM_REDUCE_ALGORITHM_COUNT_ * CLPRIM_TYPE_COUNT_];

int main(void)
{
    struct CMUnitTest tests[CLPRIM_REDUCE_ALGORITHM_COUNT_ * CLPRIM_TYPE_COUNT_ + 4];
    size_t count = 0;
    int a, t, rc;

    tu_seed();
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    for (a = 0; a < CLPRIM_REDUCE_ALGORITHM_COUNT_; ++a)
        for (t = 0; t < CLPRIM_TYPE_COUNT_; ++t) {
            struct CMUnitTest u = {0};
            param *p = &params[count];
            p->algorithm = (clprim_reduce_algorithm)a;
            p->type = (clprim_type)t;
            snprintf(names[count], sizeof names[count], "%s_%s",
                     clprim_reduce_algorithm_name(p->algorithm), clprim_type_name(p->type));
            u.name = names[count];
            u.test_func = test_all_ops;
            u.initial_state = p;
            tests[count++] = u;
        }
    {
        struct CMUnitTest l = {"large", test_large, NULL, NULL, NULL};
        struct CMUnitTest r = {"reproducible", test_reproducible, NULL, NULL, NULL};
        struct CMUnitTest h = {"helpers", test_helpers, NULL, NULL, NULL};
        tests[count++] = l;
        tests[count++] = r;
        struct CMUnitTest m = {"min_max_nan_zeros", test_min_max_edges, NULL, NULL, NULL};
        tests[count++] = h;
        tests[count++] = m;
    }
    rc = _cmocka_run_group_tests("reduce", tests, count, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

/* SPDX-License-Identifier: MIT */
/* Transform-scan and transform-reduce: an expression of x and i mapping
 * each input element to the scanned type as it is loaded. Every scan and
 * reduce algorithm; input types that differ from the output in size and
 * kind (int32 counted into uint32, float squared into double, uint into a
 * caller's affine-map type), the index i from the caller's offset; edge
 * and random sizes. The host maps the same input with the same rule and
 * checks the result with the shared reference (tests/reference/); outputs
 * are poisoned first. Then the host helpers and the refusals. */
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

static clprim_context *ctx;
static clprim_device_info info;
static clprim_operator *affine; /* (a, b): x -> a x + b on uint, composed in order */

enum { POSITIVES, SQUARES, INDEXED, AFFINE };
static const clprim_transform transforms[] = {
    {CLPRIM_TYPE_INT32, "x > 0"},          /* int32 -> uint32 sum: counts positives */
    {CLPRIM_TYPE_FLOAT, "x * x"},          /* float -> double sum */
    {CLPRIM_TYPE_INT32, "x ^ (int)(i * 7)"}, /* int32 -> int64 max: the index from in_off */
    {CLPRIM_TYPE_UINT32, "(uint2)(2u * (x & 7u) + 1u, x)"}, /* uint -> the caller's affine map */
};
static const clprim_type out_types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_DOUBLE, CLPRIM_TYPE_INT64,
                                        CLPRIM_TYPE_INT32 /* 0: affine brings its own */};
static const clprim_op out_ops[] = {CLPRIM_OP_SUM, CLPRIM_OP_SUM, CLPRIM_OP_MAX, CLPRIM_OP_SUM};

static size_t out_size(int which)
{
    return which == AFFINE ? 8 : clprim_type_size(out_types[which]);
}

/* The host's map of input element i (from the offset) into y. */
static void map(int which, const void *x, size_t i, void *y)
{
    switch (which) {
    case POSITIVES: {
        cl_int v;
        cl_uint r;
        memcpy(&v, x, 4);
        r = v > 0;
        memcpy(y, &r, 4);
        break;
    }
    case SQUARES: {
        cl_float v;
        cl_double r;
        memcpy(&v, x, 4);
        r = (double)(v * v); /* squared in float, as the expression does */
        memcpy(y, &r, 8);
        break;
    }
    case INDEXED: {
        cl_int v;
        cl_long r;
        memcpy(&v, x, 4);
        r = (cl_long)(v ^ (cl_int)(cl_uint)(i * 7));
        memcpy(y, &r, 8);
        break;
    }
    default: {
        cl_uint v, r[2];
        memcpy(&v, x, 4);
        r[0] = 2u * (v & 7u) + 1u;
        r[1] = v;
        memcpy(y, r, 8);
        break;
    }
    }
}

/* Checks got[0..n) (scan) or got[0] (reduce) against the mapped input. */
static size_t check(int which, int reduce, int exclusive, const unsigned char *mapped,
                    const unsigned char *got, size_t n, const char *what)
{
    if (which == AFFINE) { /* exact: compose the maps in order */
        cl_uint acc[2] = {1, 0};
        size_t i, bad = 0;
        for (i = 0; i < n; ++i) {
            const cl_uint before[2] = {acc[0], acc[1]};
            cl_uint v[2];
            memcpy(v, mapped + 8 * i, 8);
            acc[0] = before[0] * v[0];
            acc[1] = v[0] * before[1] + v[1];
            if (!reduce && memcmp(got + 8 * i, exclusive ? before : acc, 8) != 0 && bad++ < 3)
                fprintf(stderr, "%s: element %zu wrong\n", what, i);
        }
        if (reduce && memcmp(got, acc, 8) != 0 && bad++ < 3)
            fprintf(stderr, "%s: wrong\n", what);
        return bad;
    }
    if (reduce)
        return clprim_ref_reduce_check(out_types[which], out_ops[which], mapped, n, got, stderr,
                                       what);
    return clprim_ref_scan_check(out_types[which], out_ops[which], exclusive, mapped, got, n,
                                 stderr, what);
}

/* One scan (algorithm >= 0) or reduce (reduce_algorithm) of n mapped
 * elements from in_off; 0 when right. */
static int run_case(int which, int reduce, int algorithm, int exclusive, size_t n, size_t in_off,
                    uint64_t seed)
{
    const clprim_transform *tf = &transforms[which];
    const size_t ie = clprim_type_size(tf->input), oe = out_size(which);
    const size_t in_len = in_off + n + 2, out_len = 1 + n + 2;
    cl_context cl = clprim_context_cl_context(ctx);
    unsigned char *x = malloc(in_len * ie), *mapped = malloc((n + 1) * oe);
    unsigned char *got = malloc(out_len * oe);
    uint64_t s = seed;
    cl_mem in, out;
    cl_int err;
    char what[256];
    clprim_status st;
    size_t i, bad = 0;

    snprintf(what, sizeof what, "%s %s \"%s\" n=%zu in_off=%zu seed=%llu",
             reduce ? "reduce" : exclusive ? "exclusive scan" : "scan",
             reduce ? clprim_reduce_algorithm_name((clprim_reduce_algorithm)algorithm)
                    : clprim_scan_algorithm_name((clprim_scan_algorithm)algorithm),
             tf->expression, n, in_off, (unsigned long long)seed);
    assert_true(x && mapped && got);
    for (i = 0; i < in_len; ++i) {
        const uint64_t r = tu_rand(&s);
        if (tf->input == CLPRIM_TYPE_FLOAT) {
            const float f = (float)((int64_t)(r % 2001) - 1000) / 1000.0f;
            memcpy(x + i * ie, &f, 4);
        } else {
            const cl_uint u = (cl_uint)r;
            memcpy(x + i * ie, &u, 4);
        }
    }
    for (i = 0; i < n; ++i)
        map(which, x + (in_off + i) * ie, i, mapped + i * oe);
    memset(got, POISON, out_len * oe);
    in = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_len * ie, x, &err);
    assert_int_equal(err, CL_SUCCESS);
    out = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_len * oe, got, &err);
    assert_int_equal(err, CL_SUCCESS);
    if (reduce) {
        const clprim_reduce_desc d = {out_types[which], out_ops[which],
                                      (clprim_reduce_algorithm)algorithm,
                                      which == AFFINE ? affine : NULL, tf, CLPRIM_REPRO_NONE};
        st = clprim_reduce(ctx, NULL, &d, in, in_off, n, out, 1, 0, NULL, NULL);
    } else {
        const clprim_scan_desc d = {out_types[which], out_ops[which], exclusive,
                                    (clprim_scan_algorithm)algorithm,
                                    which == AFFINE ? affine : NULL, tf, CLPRIM_REPRO_NONE};
        st = clprim_scan(ctx, NULL, &d, in, in_off, out, 1, n, 0, NULL, NULL);
    }
    if (st != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "%s: %s: %s\n", what, clprim_status_string(st), why);
        bad = 1;
    } else {
        const size_t used = reduce ? 1 : n;
        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0,
                                             out_len * oe, got, 0, NULL, NULL),
                         CL_SUCCESS);
        bad += check(which, reduce, exclusive, mapped, got + oe, n, what);
        for (i = 0; i < out_len * oe; ++i)
            if ((i < oe || i >= (1 + used) * oe) && got[i] != POISON) {
                fprintf(stderr, "%s: byte %zu outside the output changed\n", what, i);
                bad++;
                break;
            }
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    free(x);
    free(mapped);
    free(got);
    return bad ? -1 : 0;
}

static int usable(int which)
{
    return which != SQUARES || info.has_fp64;
}

static void test_scan(void **state)
{
    static const size_t sizes[] = {1, 2, 255, 257, 4097, 70001};
    uint64_t s = tu_seed();
    int failures = 0;
    (void)state;
    for (int which = POSITIVES; which <= AFFINE; ++which)
        for (int a = CLPRIM_SCAN_AUTO; a < CLPRIM_SCAN_ALGORITHM_COUNT_; ++a) {
            if (!usable(which) ||
                ((a == CLPRIM_SCAN_DOMINO || a == CLPRIM_SCAN_DECOUPLED_LOOKBACK) &&
                 !info.has_single_pass))
                continue;
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k)
                failures += run_case(which, 0, a, (int)(k % 2), sizes[k], tu_rand(&s) % 5,
                                     tu_rand(&s)) != 0;
        }
    if (failures)
        fail_msg("%d failing cases", failures);
}

static void test_reduce(void **state)
{
    static const size_t sizes[] = {0, 1, 255, 1000, 70001};
    uint64_t s = tu_seed() + 1;
    int failures = 0;
    (void)state;
    for (int which = POSITIVES; which <= AFFINE; ++which)
        for (int a = CLPRIM_REDUCE_AUTO; a < CLPRIM_REDUCE_ALGORITHM_COUNT_; ++a)
            for (size_t k = 0; usable(which) && k < sizeof sizes / sizeof sizes[0]; ++k)
                failures += run_case(which, 1, a, 0, sizes[k], tu_rand(&s) % 5, tu_rand(&s)) != 0;
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The blocking helpers: input and output of different sizes. */
static void test_host_helpers(void **state)
{
    const cl_int x[] = {3, -1, 0, 7, -5, 2, 9};
    const cl_uint want[] = {1, 1, 1, 2, 2, 3, 4};
    cl_uint got[7], total = 0;
    const clprim_scan_desc d = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL,
                                &transforms[POSITIVES], CLPRIM_REPRO_NONE};
    const clprim_reduce_desc rd = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL,
                                   &transforms[POSITIVES], CLPRIM_REPRO_NONE};
    (void)state;
    memset(got, POISON, sizeof got);
    assert_int_equal(clprim_scan_host(ctx, &d, x, got, 7), CLPRIM_SUCCESS);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(clprim_reduce_host(ctx, &rd, x, 7, &total), CLPRIM_SUCCESS);
    assert_int_equal(total, 4);
}

#define expect_refused(got, want, needle) \
    assert_int_equal(tu_refused(ctx, (got), (want), (needle)), 0)

static void test_refused(void **state)
{
    cl_context cl = clprim_context_cl_context(ctx);
    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_mem out = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64, NULL, &err);
    clprim_transform tf = {CLPRIM_TYPE_INT32, "x + no_such_name"};
    clprim_scan_desc d = {CLPRIM_TYPE_INT64, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, &tf, CLPRIM_REPRO_NONE};
    clprim_reduce_desc rd = {CLPRIM_TYPE_INT64, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, &tf, CLPRIM_REPRO_NONE};
    (void)state;
    assert_int_equal(err, CL_SUCCESS);
    expect_refused(clprim_scan(ctx, NULL, &d, buf, 0, out, 0, 4, 0, NULL, NULL),
                   CLPRIM_BUILD_FAILED, "no_such_name");
    tf.expression = "  ";
    expect_refused(clprim_reduce(ctx, NULL, &rd, buf, 0, 4, buf, 4, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "expression is empty");
    tf.expression = "x";
    tf.input = (clprim_type)99;
    expect_refused(clprim_scan(ctx, NULL, &d, buf, 0, buf, 0, 4, 0, NULL, NULL),
                   CLPRIM_UNKNOWN_TYPE, "transform->input");
    tf.input = CLPRIM_TYPE_INT32;
    /* in place needs one element size: int32 in, int64 out; the message says
     * why (in == out with one offset is just what was passed) */
    expect_refused(clprim_scan(ctx, NULL, &d, buf, 0, buf, 0, 4, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "changes the element size (4 to 8 bytes) cannot run in place");
    /* the input is checked in its own elements: 17 int32 do not fit 64 bytes */
    expect_refused(clprim_reduce(ctx, NULL, &rd, buf, 0, 17, buf, 0, 0, NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "in");
    clReleaseMemObject(buf);
    clReleaseMemObject(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_host_helpers),
        cmocka_unit_test(test_refused),
    };
    const clprim_operator_desc ad = {"uint2", NULL, "(uint2)(a.x * b.x, b.x * a.y + b.y)",
                                     "(uint2)(1u, 0u)", 8, 0, NULL, 0, NULL};
    int rc;
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    if (clprim_operator_create(ctx, &ad, &affine) != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "cannot create the test's operator: %s\n", why);
        return 1;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_operator_release(affine);
    clprim_context_release(ctx);
    return rc;
}

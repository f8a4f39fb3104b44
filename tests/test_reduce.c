/* SPDX-License-Identifier: MIT */
/* Reduce correctness: every algorithm x type x operator over edge sizes
 * (0, 1, 2^k - 1, 2^k, 2^k + 1: around every SIMD width, work-group size,
 * per-group tile and vector width), random medium and large sizes, offsets
 * that break vector alignment; plus the blocking helpers, the mean, repeat
 * runs giving the same bits, and bad arguments. */
#include "common/testutil.h"

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
        clprim_reduce_desc d = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, (clprim_reduce_algorithm)a, NULL, NULL};
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
    clprim_reduce_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, CLPRIM_REDUCE_AUTO, NULL, NULL};
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

static char names[CLPRIM_REDUCE_ALGORITHM_COUNT_ * CLPRIM_TYPE_COUNT_][48];
static param params[CLPRIM_REDUCE_ALGORITHM_COUNT_ * CLPRIM_TYPE_COUNT_];

int main(void)
{
    struct CMUnitTest tests[CLPRIM_REDUCE_ALGORITHM_COUNT_ * CLPRIM_TYPE_COUNT_ + 3];
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
        tests[count++] = h;
    }
    rc = _cmocka_run_group_tests("reduce", tests, count, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

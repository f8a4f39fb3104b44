/* SPDX-License-Identifier: MIT */
/* Scan correctness: every algorithm x type x operator x inclusive/exclusive
 * over edge sizes (0, 1, 2^k - 1, 2^k, 2^k + 1 around every SIMD width,
 * work-group size and tile clprim can choose, all powers of two), a random
 * medium size, and random large sizes; with offsets and in place, and
 * some from a carry-in (clprim_scan_init). */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

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
    clprim_scan_desc d = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL};
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

static char names[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 1)][64];
static param params[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 1)];

int main(void)
{
    struct CMUnitTest tests[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 1) + 3];
    size_t count = 0;
    int a, t, rc;

    tu_seed();
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    for (a = 0; a < CLPRIM_SCAN_ALGORITHM_COUNT_; ++a) {
        for (t = 0; t <= CLPRIM_TYPE_COUNT_; ++t) {
            param *p = &params[count];
            struct CMUnitTest u = {0};
            p->algorithm = (clprim_scan_algorithm)a;
            p->type = (clprim_type)(t < CLPRIM_TYPE_COUNT_ ? t : 0);
            if (t < CLPRIM_TYPE_COUNT_) {
                snprintf(names[count], sizeof names[count], "%s_%s",
                         clprim_scan_algorithm_name(p->algorithm), clprim_type_name(p->type));
                u.test_func = test_all_ops_edge_sizes;
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
        tests[count++] = f;
    }
    rc = _cmocka_run_group_tests("scan", tests, count, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

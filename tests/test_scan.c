/* Scan correctness: every algorithm x type x operator x inclusive/exclusive
 * over edge sizes (0, 1, 2^k - 1, 2^k, 2^k + 1 around every SIMD width,
 * work-group size and tile clprim can choose, all powers of two), a random
 * medium size, and random large sizes; with offsets and in place. */
#include "common/testutil.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
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
                tu_case c = {p->algorithm, p->type, (clprim_op)op, excl, 0, 0, 0, 0, 0};
                /* the last case: a random medium size, 3 levels for small tiles */
                c.n = i < count ? sizes[i] : ((size_t)1 << 14) + tu_rand(&s) % ((size_t)1 << 18);
                shape(&c, i + (size_t)op + (size_t)excl, &s);
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
            tu_case c = {p->algorithm, (clprim_type)type, CLPRIM_OP_SUM, (int)i, 0, 0, 0, 0, 0};
            c.n = ((size_t)1 << 20) + tu_rand(&s) % ((size_t)3 << 20);
            shape(&c, i + (size_t)type, &s);
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
                 ((size_t)4096 * 4096) + 3, 5, 2, 0, 0};
    uint64_t s = tu_seed() ^ 0x3e7e15;
    (void)state;
    c.seed = tu_rand(&s);
    assert_int_equal(tu_run_case(ctx, &c), 0);
    c.op = CLPRIM_OP_SUM;
    c.exclusive = 1;
    c.in_place = 1;
    c.out_off = c.in_off;
    c.seed = tu_rand(&s);
    assert_int_equal(tu_run_case(ctx, &c), 0);
}

static char names[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 1)][64];
static param params[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 1)];

int main(void)
{
    struct CMUnitTest tests[CLPRIM_SCAN_ALGORITHM_COUNT_ * (CLPRIM_TYPE_COUNT_ + 1) + 1];
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
        tests[count++] = u;
    }
    rc = _cmocka_run_group_tests("scan", tests, count, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

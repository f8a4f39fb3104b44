/* SPDX-License-Identifier: MIT */
/* Lower and upper bound: both algorithms x the six key types x ascending and
 * descending x uint32 and uint64 positions, at edge sizes (0, 1, 2, around
 * the work-group, a work-group's chunk of queries and the cached search's
 * samples as the device's tuning row sets them, 2^k +- 1) and random ones
 * up to about 10^6; keys from pools of 1, 16 or many values (runs of equal
 * keys, whose first and one-past-last positions must come out), special
 * floats (-0.0, +0.0, +-inf, NaNs of both signs and payloads, denormals)
 * among keys and queries, queries below and above every key, sorted and in
 * random order; fresh random inputs from the test seed, outputs poisoned,
 * every position compared with the host reference (tests/reference/), the
 * bytes around the output untouched. Then keys that are not sorted (every
 * position in [0, n]), the blocking helpers, and the refusals. Each case
 * runs both calls; the programs are one per key size on a CPU. */
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
#define MARGIN 5 /* positions on either side of the output that must stay untouched */

static const clprim_type key_types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT32, CLPRIM_TYPE_FLOAT,
                                        CLPRIM_TYPE_UINT64, CLPRIM_TYPE_INT64, CLPRIM_TYPE_DOUBLE};
/* how keys and queries are drawn: from one value, 16 values, many random
 * bit patterns, or special values (floats: the IEEE edges) */
enum { ONE, FEW, MANY, SPECIAL, POOLS };
static const char *const pool_names[] = {"one value", "16 values", "many values", "special"};

static clprim_context *ctx;
/* the device's search row: work-group, queries per work-item, samples */
static size_t row_wg, row_items, row_samples;

typedef struct scase {
    clprim_search_algorithm algorithm;
    clprim_type key, index;
    int descending, pool, sorted_queries, unsorted_keys;
    size_t n, m, keys_off, queries_off, out_off;
    uint64_t seed;
} scase;

static void describe(const scase *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s positions %s, keys from %s%s, n=%zu m=%zu (%s queries) "
             "offsets %zu/%zu/%zu seed=%llu", clprim_search_algorithm_name(c->algorithm),
             clprim_type_name(c->key), c->descending ? "descending" : "ascending",
             clprim_type_name(c->index), pool_names[c->pool], c->unsorted_keys ? " unsorted" : "",
             c->n, c->m, c->sorted_queries ? "sorted" : "random", c->keys_off, c->queries_off,
             c->out_off, (unsigned long long)c->seed);
}

/* n values of c->key drawn as c->pool says, into x */
static void draw(const scase *c, const uint64_t *pool, size_t pool_n, unsigned char *x, size_t n,
                 uint64_t *s)
{
    const size_t ks = clprim_type_size(c->key);
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint64_t r = tu_rand(s);
        const uint64_t v = c->pool == SPECIAL && r % 3 ? tu_special_key(c->key, tu_rand(s))
                           : c->pool == MANY              ? tu_rand(s)
                                                          : pool[r % pool_n];
        memcpy(x + i * ks, &v, ks);
    }
}

/* x (n keys) in the order clprim_sort leaves them (the host reference's sort) */
static void sort_keys(const scase *c, unsigned char *x, size_t n)
{
    const size_t ks = clprim_type_size(c->key);
    size_t *perm = malloc((n + 1) * sizeof *perm), i;
    unsigned char *tmp = malloc(n * ks + 1);
    clprim_ref_sort(c->key, c->descending, 0, (unsigned)ks * 8, x, n, perm);
    for (i = 0; i < n; ++i)
        memcpy(tmp + i * ks, x + perm[i] * ks, ks);
    memcpy(x, tmp, n * ks);
    free(perm);
    free(tmp);
}

/* Queries: keys that are there (runs included), values of the pool,
 * random bit patterns, special values, and the first and last values of
 * the order (below and above every key). */
static void make_queries(const scase *c, const unsigned char *keys, const uint64_t *pool,
                         size_t pool_n, unsigned char *q, uint64_t *s)
{
    const size_t ks = clprim_type_size(c->key);
    size_t j;
    draw(c, pool, pool_n, q, c->m, s);
    for (j = 0; j < c->m; ++j) {
        const uint64_t r = tu_rand(s);
        uint64_t v = tu_rand(s);
        if (r % 5 == 0 && c->n)
            memcpy(&v, keys + (tu_rand(s) % c->n) * ks, ks);
        else if (r % 5 == 1)
            v = tu_special_key(c->key, tu_rand(s));
        if (r % 5 <= 2)
            memcpy(q + j * ks, &v, ks);
    }
    if (c->sorted_queries) {
        scase qc = *c;
        sort_keys(&qc, q, c->m);
    }
}

/* One call of one bound on the device, checked: 0 when right. */
static int check_call(const scase *c, int upper, cl_mem bk, cl_mem bq, const unsigned char *keys,
                      const unsigned char *queries, uint64_t *want)
{
    const size_t isz = clprim_type_size(c->index), total = c->out_off + c->m + MARGIN;
    unsigned char *got = malloc(total * isz);
    cl_mem bo;
    clprim_search_desc d;
    clprim_status st;
    char what[320];
    size_t j, i;
    int failed = 0;

    memset(got, POISON, total * isz);
    bo = tu_buffer(ctx, total * isz, got, CL_MEM_READ_WRITE);
    memset(&d, 0, sizeof d);
    d.key_type = c->key;
    d.descending = c->descending;
    d.index_type = c->index;
    d.algorithm = c->algorithm;
    st = (upper ? clprim_upper_bound : clprim_lower_bound)(ctx, NULL, &d, bk, c->keys_off, c->n,
                                                           bq, c->queries_off, c->m, bo,
                                                           c->out_off, 0, NULL, NULL);
    describe(c, what, sizeof what);
    if (st != CLPRIM_SUCCESS) {
        char why[2048];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "FAILED %s bound, %s: %s (%s)\n", upper ? "upper" : "lower", what,
                clprim_status_string(st), why);
        failed = 1;
        goto done;
    }
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), bo, CL_TRUE, 0, total * isz,
                                         got, 0, NULL, NULL), CL_SUCCESS);
    if (!c->unsorted_keys)
        clprim_ref_bounds(c->key, c->descending, upper, keys, c->n, queries, c->m, want);
    for (j = 0; j < c->m && !failed; ++j) {
        uint64_t p = 0;
        memcpy(&p, got + (c->out_off + j) * isz, isz);
        /* unsorted keys: some position in [0, n] */
        if (c->unsorted_keys ? p > c->n : p != want[j]) {
            uint64_t q = 0;
            memcpy(&q, queries + j * clprim_type_size(c->key), clprim_type_size(c->key));
            fprintf(stderr, "FAILED %s bound, %s: query %zu (bits 0x%llx): %llu, expected %llu\n",
                    upper ? "upper" : "lower", what, j, (unsigned long long)q,
                    (unsigned long long)p,
                    (unsigned long long)(c->unsorted_keys ? c->n : want[j]));
            failed = 1;
        }
    }
    for (i = 0; i < total * isz && !failed; ++i)
        if ((i < c->out_off * isz || i >= (c->out_off + c->m) * isz) && got[i] != POISON) {
            fprintf(stderr, "FAILED %s bound, %s: byte %zu written outside the output\n",
                    upper ? "upper" : "lower", what, i);
            failed = 1;
        }
done:
    clReleaseMemObject(bo);
    free(got);
    return failed;
}

/* One case, both bounds: 0 when right, else prints it and returns 1 or 2. */
static int run_case(const scase *c)
{
    const size_t ks = clprim_type_size(c->key);
    uint64_t s = c->seed, pool[16];
    const size_t pool_n = c->pool == ONE ? 1 : 16;
    unsigned char *kin = malloc((c->keys_off + c->n) * ks + 1);
    unsigned char *qin = malloc((c->queries_off + c->m) * ks + 1);
    unsigned char *keys = kin + c->keys_off * ks, *queries = qin + c->queries_off * ks;
    uint64_t *want = malloc((c->m + 1) * sizeof *want);
    cl_mem bk, bq;
    size_t i;
    int failed;

    for (i = 0; i < pool_n; ++i)
        pool[i] = tu_rand(&s);
    memset(kin, POISON, (c->keys_off + c->n) * ks + 1);
    memset(qin, POISON, (c->queries_off + c->m) * ks + 1);
    draw(c, pool, pool_n, keys, c->n, &s);
    if (!c->unsorted_keys)
        sort_keys(c, keys, c->n);
    make_queries(c, keys, pool, pool_n, queries, &s);
    bk = tu_buffer(ctx, (c->keys_off + c->n) * ks, kin, CL_MEM_READ_ONLY);
    bq = tu_buffer(ctx, (c->queries_off + c->m) * ks, qin, CL_MEM_READ_ONLY);
    failed = check_call(c, 0, bk, bq, keys, queries, want);
    failed += check_call(c, 1, bk, bq, keys, queries, want);
    clReleaseMemObject(bk);
    clReleaseMemObject(bq);
    free(kin);
    free(qin);
    free(want);
    return failed;
}

/* Key counts around what the kernels depend on: the work-group, the
 * samples (intervals of one key, then two), a hundred times them, powers
 * of two, random ones. */
static size_t edge_n(uint64_t *s)
{
    const size_t S = row_samples, wg = row_wg;
    const size_t sizes[] = {0,           1,           2,         3,     wg - 1, wg,
                            wg + 1,      S - 1,       S,         S + 1, 2 * S - 1, 2 * S,
                            2 * S + 1,   100 * S - 1, 100 * S + 1, 1023, 1025,   65535,
                            65537,       (size_t)1 << 17};
    const uint64_t r = tu_rand(s);
    return r % 4 == 0 ? (size_t)(tu_rand(s) % 100000) : sizes[r % (sizeof sizes / sizeof *sizes)];
}

/* Query counts around a work-group's chunk (wg x items queries) and the
 * work-item's last query. */
static size_t edge_m(uint64_t *s)
{
    const size_t chunk = row_wg * row_items;
    const size_t sizes[] = {0, 1, 2, row_wg - 1, row_wg + 1, chunk - 1, chunk, chunk + 1,
                            3 * chunk + row_wg / 2, 4097};
    const uint64_t r = tu_rand(s);
    return r % 3 == 0 ? (size_t)(tu_rand(s) % 50000) : sizes[r % (sizeof sizes / sizeof *sizes)];
}

/* Every key type x direction x position type, with edge sizes and a pool
 * and query order each; then larger ones. */
static int run_algorithm(clprim_search_algorithm a, size_t large)
{
    uint64_t s = tu_seed() ^ (0x5ea4c4u + (uint64_t)a * 7919u);
    int failures = 0;
    size_t t, dir, ix, k;
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t)
        for (dir = 0; dir < 2; ++dir)
            for (ix = 0; ix < 2; ++ix)
                for (k = 0; k < 2; ++k) {
                    scase c;
                    memset(&c, 0, sizeof c);
                    c.algorithm = a;
                    c.key = key_types[t];
                    c.descending = (int)dir;
                    c.index = ix ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
                    c.pool = (int)((t + dir + ix + k) % POOLS);
                    c.sorted_queries = (int)k;
                    c.n = edge_n(&s);
                    c.m = edge_m(&s);
                    c.keys_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
                    c.queries_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
                    c.out_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
                    c.seed = tu_rand(&s);
                    failures += run_case(&c);
                }
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t) {
        scase c;
        memset(&c, 0, sizeof c);
        c.algorithm = a;
        c.key = key_types[t];
        c.descending = (int)(tu_rand(&s) % 2);
        c.index = tu_rand(&s) % 2 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
        c.pool = t % 2 ? MANY : (int)(tu_rand(&s) % POOLS);
        c.sorted_queries = (int)(t / 3);
        c.n = large / 2 + (size_t)(tu_rand(&s) % (large / 2));
        c.m = 1 + (size_t)(tu_rand(&s) % large);
        c.seed = tu_rand(&s);
        failures += run_case(&c);
    }
    return failures;
}

static void test_binary(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_SEARCH_BINARY, 300000))
        fail();
}

static void test_cached(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_SEARCH_CACHED, 1000000))
        fail();
}

static void test_window(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_SEARCH_WINDOW, 1000000))
        fail();
}

static void test_sort_queries(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_SEARCH_SORT_QUERIES, 300000))
        fail();
}

/* Every edge size for AUTO, and the float edges (-0.0 and +0.0, infinities
 * and NaNs both among keys and queries) in both directions. */
static void test_edges(void **state)
{
    uint64_t s = tu_seed() ^ 0xed9e5u;
    int failures = 0;
    size_t k;
    (void)state;
    for (k = 0; k < 40; ++k) {
        scase c;
        memset(&c, 0, sizeof c);
        c.algorithm = CLPRIM_SEARCH_AUTO;
        c.key = k % 2 ? CLPRIM_TYPE_FLOAT : CLPRIM_TYPE_DOUBLE;
        c.descending = (int)(k / 2 % 2);
        c.index = k % 3 ? CLPRIM_TYPE_UINT32 : CLPRIM_TYPE_UINT64;
        c.pool = k % 5 == 4 ? ONE : SPECIAL;
        c.sorted_queries = (int)(k / 4 % 2);
        c.n = edge_n(&s);
        c.m = edge_m(&s);
        c.seed = tu_rand(&s);
        failures += run_case(&c);
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* Keys that are not sorted: every position in [0, n], nothing read or
 * written outside (the margins; a read outside would show on a checking
 * device). */
static void test_unsorted(void **state)
{
    uint64_t s = tu_seed() ^ 0x0450u;
    int failures = 0, a;
    (void)state;
    for (a = 1; a < CLPRIM_SEARCH_ALGORITHM_COUNT_; ++a) {
        size_t k;
        for (k = 0; k < 4; ++k) {
            scase c;
            memset(&c, 0, sizeof c);
            c.algorithm = (clprim_search_algorithm)a;
            c.key = k % 2 ? CLPRIM_TYPE_INT64 : CLPRIM_TYPE_UINT32;
            c.index = CLPRIM_TYPE_UINT32;
            c.descending = (int)(k / 2);
            c.pool = MANY;
            c.unsorted_keys = 1;
            c.n = edge_n(&s);
            c.m = 1 + (size_t)(tu_rand(&s) % 20000);
            c.seed = tu_rand(&s);
            failures += run_case(&c);
        }
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The blocking helpers, on int32 keys with runs, both position types. */
static void test_host(void **state)
{
    uint64_t s = tu_seed() ^ 0x4057u;
    const size_t n = 30001, m = 20000;
    int32_t *keys = malloc(n * sizeof *keys), *queries = malloc(m * sizeof *queries);
    uint64_t *want = malloc(m * sizeof *want), *got64 = malloc(m * sizeof *got64);
    uint32_t *got32 = malloc(m * sizeof *got32);
    clprim_search_desc d;
    size_t i;
    int upper;
    (void)state;
    for (i = 0; i < n; ++i) /* ascending, in runs of about 3 */
        keys[i] = (int32_t)(i / 3) - 5000 + (int32_t)(tu_rand(&s) % 2);
    for (i = 1; i < n; ++i)
        keys[i] = keys[i] < keys[i - 1] ? keys[i - 1] : keys[i];
    for (i = 0; i < m; ++i)
        queries[i] = (int32_t)(tu_rand(&s) % 12000) - 6000;
    memset(&d, 0, sizeof d);
    d.key_type = CLPRIM_TYPE_INT32;
    for (upper = 0; upper < 2; ++upper) {
        clprim_status (*call)(clprim_context *, const clprim_search_desc *, const void *, size_t,
                              const void *, size_t, void *) =
            upper ? clprim_upper_bound_host : clprim_lower_bound_host;
        clprim_ref_bounds(CLPRIM_TYPE_INT32, 0, upper, keys, n, queries, m, want);
        d.index_type = CLPRIM_TYPE_UINT32;
        assert_int_equal(call(ctx, &d, keys, n, queries, m, got32), CLPRIM_SUCCESS);
        d.index_type = CLPRIM_TYPE_UINT64;
        assert_int_equal(call(ctx, &d, keys, n, queries, m, got64), CLPRIM_SUCCESS);
        for (i = 0; i < m; ++i) {
            assert_int_equal(got32[i], want[i]);
            assert_int_equal(got64[i], want[i]);
        }
        /* no keys: every position 0; no queries: nothing to do */
        assert_int_equal(call(ctx, &d, NULL, 0, queries, m, got64), CLPRIM_SUCCESS);
        for (i = 0; i < m; ++i)
            assert_int_equal(got64[i], 0);
        assert_int_equal(call(ctx, &d, keys, n, NULL, 0, NULL), CLPRIM_SUCCESS);
    }
    free(keys);
    free(queries);
    free(want);
    free(got32);
    free(got64);
}

static void test_refused(void **state)
{
    clprim_search_desc d;
    cl_mem a = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_WRITE), b = tu_buffer(ctx, 4096, NULL,
                                                                            CL_MEM_READ_WRITE);
    cl_mem ro = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_ONLY);
    uint32_t host[4] = {0};
    int bad = 0;
    (void)state;
    memset(&d, 0, sizeof d);
    d.key_type = CLPRIM_TYPE_UINT32;
    d.index_type = CLPRIM_TYPE_UINT32;
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, NULL, a, 0, 10, a, 0, 10, b, 0, 0, NULL,
                                              NULL), CLPRIM_INVALID_ARGUMENT, "desc");
    d.key_type = (clprim_type)77;
    bad |= tu_refused(ctx, clprim_upper_bound(ctx, NULL, &d, a, 0, 10, a, 0, 10, b, 0, 0, NULL,
                                              NULL), CLPRIM_UNKNOWN_TYPE, "key_type");
    d.key_type = CLPRIM_TYPE_FLOAT;
    d.index_type = CLPRIM_TYPE_INT32; /* what a zeroed descriptor says */
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, 10, a, 0, 10, b, 0, 0, NULL,
                                              NULL), CLPRIM_INVALID_ARGUMENT, "index_type");
    d.index_type = (clprim_type)9;
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, 10, a, 0, 10, b, 0, 0, NULL,
                                              NULL), CLPRIM_INVALID_ARGUMENT, "index_type");
    d.index_type = CLPRIM_TYPE_UINT32; /* before the buffers: n past what uint32 holds */
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, (size_t)1 << 32, a, 0, 10, b,
                                              0, 0, NULL, NULL), CLPRIM_INVALID_ARGUMENT, "uint32");
    d.algorithm = CLPRIM_SEARCH_ALGORITHM_COUNT_;
    bad |= tu_refused(ctx, clprim_upper_bound(ctx, NULL, &d, a, 0, 10, a, 0, 10, b, 0, 0, NULL,
                                              NULL), CLPRIM_UNKNOWN_ALGORITHM, "algorithm");
    d.algorithm = CLPRIM_SEARCH_AUTO;
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, 10, b, 0, 10, a, 5, 0, NULL,
                                              NULL), CLPRIM_INVALID_ARGUMENT, "overlap");
    bad |= tu_refused(ctx, clprim_upper_bound(ctx, NULL, &d, a, 0, 10, b, 0, 10, b, 9, 0, NULL,
                                              NULL), CLPRIM_INVALID_ARGUMENT, "overlap");
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, 10, a, 0, 10, ro, 0, 0, NULL,
                                              NULL), CLPRIM_INVALID_ARGUMENT, "read-only");
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, 2000, a, 0, 10, b, 0, 0, NULL,
                                              NULL), CLPRIM_OUT_OF_BOUNDS, "keys");
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, 10, a, 1020, 10, b, 0, 0, NULL,
                                              NULL), CLPRIM_OUT_OF_BOUNDS, "queries");
    d.index_type = CLPRIM_TYPE_UINT64; /* 600 positions of 8 bytes pass 4096 */
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, 10, a, 0, 600, b, 0, 0, NULL,
                                              NULL), CLPRIM_OUT_OF_BOUNDS, "out");
    bad |= tu_refused(ctx, clprim_lower_bound(ctx, NULL, &d, a, 0, 10, a, 0, 10, NULL, 0, 0, NULL,
                                              NULL), CLPRIM_INVALID_ARGUMENT, "out");
    bad |= tu_refused(ctx, clprim_lower_bound_host(ctx, NULL, host, 4, host, 4, host),
                      CLPRIM_INVALID_ARGUMENT, "desc");
    bad |= tu_refused(ctx, clprim_upper_bound_host(ctx, &d, NULL, 4, host, 4, host),
                      CLPRIM_INVALID_ARGUMENT, "keys");
    bad |= tu_refused(ctx, clprim_upper_bound_host(ctx, &d, host, 4, host, 4, NULL),
                      CLPRIM_INVALID_ARGUMENT, "out");
    d.key_type = CLPRIM_TYPE_COUNT_;
    bad |= tu_refused(ctx, clprim_upper_bound_host(ctx, &d, host, 4, host, 4, host),
                      CLPRIM_UNKNOWN_TYPE, "key_type");
    assert_int_equal(clprim_lower_bound(NULL, NULL, &d, a, 0, 10, a, 0, 10, b, 0, 0, NULL, NULL),
                     CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_upper_bound_host(NULL, &d, host, 4, host, 4, host),
                     CLPRIM_INVALID_ARGUMENT);
    assert_string_equal(clprim_search_algorithm_name(CLPRIM_SEARCH_CACHED), "cached");
    assert_null(clprim_search_algorithm_name(CLPRIM_SEARCH_ALGORITHM_COUNT_));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(ro);
    if (bad)
        fail();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary), cmocka_unit_test(test_cached),
        cmocka_unit_test(test_window), cmocka_unit_test(test_sort_queries),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_unsorted),
        cmocka_unit_test(test_host),   cmocka_unit_test(test_refused),
    };
    char line[1024];
    int rc;
    ctx = tu_context();
    clprim_context_tuning(ctx, "search", 4, 1000, line, sizeof line);
    row_wg = tu_row_value(line, "wg_size");
    row_items = tu_row_value(line, "items");
    row_samples = tu_row_value(line, "samples");
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

/* SPDX-License-Identifier: MIT */
/* Top-k: the three algorithms x the six key types x largest and smallest x
 * sorted and not, keys alone and with values (their input indices, so
 * that which of equal keys were taken shows, or 3 random bytes), at edge
 * sizes (n and k of 0, 1, 2, around a tile, a level's
 * digit and the candidate buffers as the device's tuning row sets them,
 * k = n - 1 and n) and random ones up to about 10^6; keys from one value
 * (every key a tie), 16 values, random bit patterns, special floats (-0.0,
 * +0.0, +-inf, NaNs of both signs and payloads, denormals), ascending and
 * descending runs, and floats uniform in [0, 1) (a few top digits hold
 * most keys); offsets on every buffer, outputs poisoned and every byte
 * around them checked untouched; every result against the host reference
 * (tests/reference/: the first k of the stable sort, ties lowest index
 * first; unsorted outputs as a multiset). Then the same on contexts whose
 * tuning knobs make the candidate buffers tiny (so that levels read their
 * source again), digits of 4 and 13 bits and 64-bit counts at small n;
 * SAMPLE_FILTER's branches (the candidates, or the radix selection where
 * they are too few or too many), each forced by its input; the blocking
 * helper; the refusals. */
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
#define MARGIN 5 /* elements on either side of an output that must stay untouched */

static const clprim_type key_types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT32, CLPRIM_TYPE_FLOAT,
                                        CLPRIM_TYPE_UINT64, CLPRIM_TYPE_INT64, CLPRIM_TYPE_DOUBLE};
/* (SPIKES, outside the pools every test draws from: large keys at
 * SAMPLE_FILTER's sample positions, small ones elsewhere) */
enum { ONE, FEW, MANY, SPECIAL, ASCENDING, DESCENDING, UNIT, POOLS, SPIKES = POOLS };
static const char *const pool_names[] = {"one value", "16 values",      "many values",
                                         "special",   "ascending",      "descending",
                                         "uniform [0, 1)", "spikes at the sample"};
/* Values: none, the key's input index in as many bytes as the key, or 3
 * random bytes beside 4-byte keys (moved as bytes). Few, since each key
 * and value size is a program (and a sort's, for sorted output) that PoCL
 * compiles on CI's two cores. */
static size_t pick_value_size(clprim_type key, uint64_t r)
{
    const size_t ks = clprim_type_size(key);
    return r % 3 == 0 ? 0 : ks == 4 && r % 3 == 1 ? 3 : ks;
}

static clprim_context *ctx;
/* the device's top_k row: tile, digit bits, least candidates, keys sampled */
static size_t row_tile, row_digit, row_min_cand, row_samples;

typedef struct tcase {
    clprim_top_k_algorithm algorithm;
    clprim_type key;
    int largest, sorted, pool;
    size_t value_size, n, k, keys_off, values_off, out_off, vout_off;
    uint64_t seed;
} tcase;

static void describe(const tcase *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s%s, %zu-byte values, keys from %s, n=%zu k=%zu offsets "
             "%zu/%zu/%zu/%zu seed=%llu", clprim_top_k_algorithm_name(c->algorithm),
             clprim_type_name(c->key), c->largest ? "largest" : "smallest",
             c->sorted ? " sorted" : "", c->value_size, pool_names[c->pool], c->n, c->k,
             c->keys_off, c->values_off, c->out_off, c->vout_off, (unsigned long long)c->seed);
}

/* Key i of n drawn as the pool says (ascending and descending: runs of
 * about 3 equal keys, in the type's numeric order where the type is
 * signed or floating). */
static uint64_t draw(const tcase *c, const uint64_t *pool, size_t i, uint64_t *s)
{
    const uint64_t r = tu_rand(s);
    const int flt = c->key == CLPRIM_TYPE_FLOAT || c->key == CLPRIM_TYPE_DOUBLE;
    const size_t ks = clprim_type_size(c->key);
    switch (c->pool) {
    case ONE: return pool[0];
    case FEW: return pool[r % 16];
    case SPECIAL: return r % 3 ? tu_special_key(c->key, tu_rand(s)) : tu_rand(s);
    case ASCENDING:
    case DESCENDING: {
        const int64_t v = (int64_t)(c->pool == ASCENDING ? i / 3 : c->n - i / 3) - 1000;
        if (flt) {
            const float f = (float)v;
            const double g = (double)v;
            uint64_t b = 0;
            memcpy(&b, ks == 4 ? (const void *)&f : (const void *)&g, ks);
            return b;
        }
        return (uint64_t)v; /* unsigned: wraps below 0, still runs */
    }
    case UNIT:
        if (flt) {
            const float f = (float)(r >> 40) / (float)(1 << 24);
            const double g = (double)(r >> 11) / 9007199254740992.0;
            uint64_t b = 0;
            memcpy(&b, ks == 4 ? (const void *)&f : (const void *)&g, ks);
            return b;
        }
        return r >> (ks * 8 - 12); /* integers: 4096 values, many of each */
    case SPIKES: {
        /* key i is sampled when it is floor(j n / s) for some j: for the
         * least j with j n / s >= i (cl/top_k_filter.cl's positions) */
        const uint64_t smp = c->n < row_samples ? c->n : row_samples;
        const uint64_t j = (i * smp + c->n - 1) / c->n;
        const int64_t v = j * (c->n / smp) + j * (c->n % smp) / smp == i ? 1000000 + (int64_t)i
                                                                         : (int64_t)(i % 1000);
        const float f = (float)v;
        const double g = (double)v;
        uint64_t b = (uint64_t)v;
        if (flt)
            memcpy(&b, ks == 4 ? (const void *)&f : (const void *)&g, ks);
        return b;
    }
    default: return r;
    }
}

/* One call on the device, checked: 0 when right. */
/* where run_case_on tells its failures (a test that expects one: elsewhere) */
static FILE *report;

static int run_case_on(clprim_context *cx, const tcase *c)
{
    const size_t ks = clprim_type_size(c->key), vs = c->value_size;
    const size_t kin_n = c->keys_off + c->n + MARGIN, vin_n = c->values_off + c->n + MARGIN;
    const size_t kout_n = c->out_off + c->k + MARGIN, vout_n = c->vout_off + c->k + MARGIN;
    unsigned char *kin = malloc(kin_n * ks), *vin = malloc(vin_n * (vs ? vs : 1));
    unsigned char *kout = malloc(kout_n * ks), *vout = malloc(vout_n * (vs ? vs : 1));
    unsigned char *keys = kin + c->keys_off * ks, *values = vin + c->values_off * vs;
    uint64_t s = c->seed, pool[16];
    cl_mem bk, bv = NULL, bko, bvo = NULL;
    clprim_top_k_desc d;
    clprim_status st;
    char what[320];
    size_t i, bad;
    int failed = 0;

    for (i = 0; i < 16; ++i)
        pool[i] = tu_rand(&s);
    memset(kin, POISON, kin_n * ks);
    for (i = 0; i < c->n; ++i) {
        const uint64_t v = draw(c, pool, i, &s);
        memcpy(keys + i * ks, &v, ks);
    }
    memset(vin, POISON, vin_n * (vs ? vs : 1));
    for (i = 0; i < c->n && vs; ++i) {
        if (vs == 4 || vs == 8) { /* the input index: which keys were taken */
            const uint64_t v = i;
            memcpy(values + i * vs, &v, vs);
        } else {
            size_t b;
            for (b = 0; b < vs; ++b)
                values[i * vs + b] = (unsigned char)tu_rand(&s);
        }
    }
    memset(kout, POISON, kout_n * ks);
    memset(vout, POISON, vout_n * (vs ? vs : 1));
    bk = tu_buffer(cx, kin_n * ks, kin, CL_MEM_READ_ONLY);
    bko = tu_buffer(cx, kout_n * ks, kout, CL_MEM_READ_WRITE);
    if (vs) {
        bv = tu_buffer(cx, vin_n * vs, vin, CL_MEM_READ_ONLY);
        bvo = tu_buffer(cx, vout_n * vs, vout, CL_MEM_READ_WRITE);
    }
    memset(&d, 0, sizeof d);
    d.key_type = c->key;
    d.value_size = vs;
    d.largest = c->largest;
    d.sorted = c->sorted;
    d.algorithm = c->algorithm;
    st = clprim_top_k(cx, NULL, &d, bk, c->keys_off, bv, vs ? c->values_off : 0, c->n, c->k, bko,
                      c->out_off, bvo, vs ? c->vout_off : 0, 0, NULL, NULL);
    describe(c, what, sizeof what);
    if (st != CLPRIM_SUCCESS) {
        char why[2048];
        clprim_context_last_error(cx, why, sizeof why);
        fprintf(report, "FAILED %s: %s (%s)\n", what, clprim_status_string(st), why);
        failed = 1;
        goto done;
    }
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(cx), bko, CL_TRUE, 0, kout_n * ks,
                                         kout, 0, NULL, NULL), CL_SUCCESS);
    if (vs)
        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(cx), bvo, CL_TRUE, 0,
                                             vout_n * vs, vout, 0, NULL, NULL), CL_SUCCESS);
    bad = clprim_ref_top_k_check(c->key, c->largest, c->sorted, keys, values, vs, c->n, c->k,
                                 kout + c->out_off * ks, vout + c->vout_off * vs, report, what);
    if (bad) {
        fprintf(report, "FAILED %s: %zu of %zu wrong\n", what, bad, c->k);
        failed = 1;
    }
    for (i = 0; i < kout_n * ks && !failed; ++i)
        if ((i < c->out_off * ks || i >= (c->out_off + c->k) * ks) && kout[i] != POISON) {
            fprintf(report, "FAILED %s: key byte %zu written outside the output\n", what, i);
            failed = 1;
        }
    for (i = 0; i < vout_n * vs && !failed; ++i)
        if ((i < c->vout_off * vs || i >= (c->vout_off + c->k) * vs) && vout[i] != POISON) {
            fprintf(report, "FAILED %s: value byte %zu written outside the output\n", what, i);
            failed = 1;
        }
done:
    clReleaseMemObject(bk);
    clReleaseMemObject(bko);
    if (vs) {
        clReleaseMemObject(bv);
        clReleaseMemObject(bvo);
    }
    free(kin);
    free(vin);
    free(kout);
    free(vout);
    return failed;
}

/* n around what the kernels depend on: a tile, a digit's values, the
 * candidate buffers' least size, powers of two, random ones. */
static size_t edge_n(uint64_t *s)
{
    const size_t T = row_tile, D = (size_t)1 << row_digit, C = row_min_cand;
    const size_t sizes[] = {0,     1,         2,     3,         T - 1, T,     T + 1,  2 * T + 3,
                            D - 1, D + 1,     C - 1, C,         C + 1, 8 * C, 8 * C + 7,
                            1023,  1025,      4097,  65537,     (size_t)1 << 17};
    const uint64_t r = tu_rand(s);
    return r % 4 == 0 ? (size_t)(tu_rand(s) % 200000) : sizes[r % (sizeof sizes / sizeof *sizes)];
}

/* k of n: 0, 1, 2, small, around a tile, n - 1, n, random. */
static size_t edge_k(size_t n, uint64_t *s)
{
    const size_t ks[] = {0, 1, 2, 16, 100, 1000, row_tile - 1, row_tile + 1, n / 2, n - 1, n};
    size_t k = ks[tu_rand(s) % (sizeof ks / sizeof *ks)];
    if (tu_rand(s) % 5 == 0)
        k = n ? (size_t)(tu_rand(s) % (n + 1)) : 0;
    return k > n ? (n ? (size_t)(tu_rand(s) % (n + 1)) : 0) : k;
}

static tcase make_case(clprim_top_k_algorithm a, clprim_type key, int largest, int sorted,
                       size_t value_size, int pool, size_t n, size_t k, uint64_t *s)
{
    tcase c;
    memset(&c, 0, sizeof c);
    c.algorithm = a;
    c.key = key;
    c.largest = largest;
    c.sorted = sorted;
    c.value_size = value_size;
    c.pool = pool;
    c.n = n;
    c.k = k;
    c.keys_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
    c.values_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
    c.out_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
    c.vout_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
    c.seed = tu_rand(s);
    return c;
}

/* Every key type x direction x order, with edge sizes, a pool and a value
 * size each; then larger ones. */
static int run_algorithm(clprim_context *cx, clprim_top_k_algorithm a, size_t large,
                         uint64_t salt)
{
    uint64_t s = tu_seed() ^ (0x70b4u + (uint64_t)a * 7919u) ^ salt;
    int failures = 0;
    size_t t, dir, so, rep;
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t)
        for (dir = 0; dir < 2; ++dir)
            for (so = 0; so < 2; ++so)
                for (rep = 0; rep < 2; ++rep) {
                    const size_t n = edge_n(&s);
                    const tcase c = make_case(
                        a, key_types[t], (int)dir, (int)so,
                        (t + dir + so + rep) % 3 == 0 ? 0 : pick_value_size(key_types[t], tu_rand(&s)),
                        (int)((t + 2 * dir + so + 3 * rep) % POOLS), n, edge_k(n, &s), &s);
                    failures += run_case_on(cx, &c);
                }
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t) {
        const size_t n = large / 2 + (size_t)(tu_rand(&s) % (large / 2));
        const size_t k = tu_rand(&s) % 2 ? 1 + (size_t)(tu_rand(&s) % 1000)
                                         : (size_t)(tu_rand(&s) % (n + 1));
        const tcase c = make_case(a, key_types[t], (int)(tu_rand(&s) % 2),
                                  (int)(tu_rand(&s) % 2), t % 2 ? clprim_type_size(key_types[t]) : 0,
                                  t % 3 == 0 ? UNIT : (int)(tu_rand(&s) % POOLS), n, k, &s);
        failures += run_case_on(cx, &c);
    }
    return failures;
}

/* One algorithm through run_algorithm (inputs up to about `large`). */
static void expect_algorithm(clprim_top_k_algorithm a, size_t large)
{
    const int failures = run_algorithm(ctx, a, large, 0);
    if (failures)
        fail_msg("%d failing cases", failures);
}

static void test_radix_select(void **state)
{
    (void)state;
    expect_algorithm(CLPRIM_TOP_K_RADIX_SELECT, 1000000);
}

static void test_sample_filter(void **state)
{
    (void)state;
    expect_algorithm(CLPRIM_TOP_K_SAMPLE_FILTER, 1000000);
}

/* SAMPLE_FILTER for every key type x keys from many values, one value,
 * ascending and descending runs, 16 values and special floats (NaNs) x k
 * of 1, 16, 100, 1000 and n, direction, sorted or not and values or not
 * taking turns; n from 60000 up (the CPU row samples 2^10 keys). Every
 * call must give the reference's answer. Which branch gave it is checked
 * where the input decides it, on a second context whose SAMPLE_FILTER
 * queues no radix selection behind its candidates
 * (CLPRIM_TOP_K_TEST_NO_FALLBACK): there the candidates alone must give
 * the answer, and where the fallback is due they must leave the output as
 * it was (poisoned: a mismatch):
 * - many values: the candidates hold the answer;
 * - one value, k <= 100: every key ties with the threshold, so there are
 *   n candidates, past their room (4 times the some 4 (k + 64) the sample
 *   promises, at least 4 k: well below n): the radix selection instead;
 * - spikes (large keys exactly at the sampled positions, small elsewhere),
 *   the 1000 largest: the threshold is the pick-th spike and only spikes
 *   pass, pick of them (4 (k + 64) s / n + 5, below k where n is 64 s):
 *   fewer than k, the radix selection instead. */
static int fails_quietly(clprim_context *cx, const tcase *c)
{
    FILE *sink = tmpfile();
    int failed;
    report = sink ? sink : stderr;
    failed = run_case_on(cx, c);
    report = stderr;
    if (sink)
        fclose(sink);
    return failed;
}

static void test_filter_branches(void **state)
{
    static const int pools[] = {MANY, ONE, ASCENDING, DESCENDING, FEW, SPECIAL};
    static const size_t kk[] = {1, 16, 100, 1000, 0 /* n */};
    uint64_t s = tu_seed() ^ 0xf117u;
    clprim_context *cx = NULL, *alone = NULL;
    int failures = 0, bad_branch = 0;
    size_t t, p, i, case_no = 0;
    (void)state;
    assert_int_equal(clprim_context_create(NULL, &cx), CLPRIM_SUCCESS);
    setenv("CLPRIM_TOP_K_TEST_NO_FALLBACK", "1", 1);
    assert_int_equal(clprim_context_create(NULL, &alone), CLPRIM_SUCCESS);
    unsetenv("CLPRIM_TOP_K_TEST_NO_FALLBACK");
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t)
        for (p = 0; p < sizeof pools / sizeof *pools; ++p)
            for (i = 0; i < sizeof kk / sizeof *kk; ++i, ++case_no) {
                const size_t n = 60000 + (size_t)(tu_rand(&s) % 20000), k = kk[i] ? kk[i] : n;
                const size_t vs = case_no / 4 % 2 ? clprim_type_size(key_types[t]) : 0;
                const tcase c = make_case(CLPRIM_TOP_K_SAMPLE_FILTER, key_types[t],
                                          (int)(case_no % 2), (int)(case_no / 2 % 2), vs,
                                          pools[p], n, k, &s);
                int wrong = 0;
                failures += run_case_on(cx, &c);
                if (pools[p] == MANY && k < n)
                    wrong = run_case_on(alone, &c);
                else if (pools[p] == ONE && k <= 100)
                    wrong = !fails_quietly(alone, &c);
                if (wrong) {
                    char what[320];
                    describe(&c, what, sizeof what);
                    fprintf(stderr, "FAILED %s: not the branch expected\n", what);
                    ++bad_branch;
                }
            }
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t) {
        const tcase c = make_case(CLPRIM_TOP_K_SAMPLE_FILTER, key_types[t], 1, (int)(t % 2),
                                  t % 2 ? clprim_type_size(key_types[t]) : 0, SPIKES,
                                  64 * row_samples, 1000, &s);
        failures += run_case_on(cx, &c);
        if (!fails_quietly(alone, &c)) {
            fprintf(stderr, "FAILED spikes, %s: no fallback\n", clprim_type_name(key_types[t]));
            ++bad_branch;
        }
    }
    clprim_context_release(alone);
    clprim_context_release(cx);
    if (failures || bad_branch)
        fail_msg("%d failing cases, %d on the wrong branch", failures, bad_branch);
}

static void test_sort(void **state)
{
    (void)state;
    expect_algorithm(CLPRIM_TOP_K_SORT, 300000);
}

/* Ties and skew through AUTO: every key one value (k among n equal keys:
 * the lowest indices), 16 values, sorted and reversed input, [0, 1)
 * floats, special floats (NaNs taken last in both directions), with
 * indices as values so that the set taken is checked exactly. */
static void test_ties(void **state)
{
    uint64_t s = tu_seed() ^ 0x7135u;
    int failures = 0, pool;
    (void)state;
    for (pool = 0; pool < POOLS; ++pool) {
        size_t r;
        for (r = 0; r < 4; ++r) {
            const clprim_type key = key_types[(pool + r) % 6];
            const size_t n = r == 3 ? 150000 + (size_t)(tu_rand(&s) % 50000) : edge_n(&s);
            const tcase c = make_case(CLPRIM_TOP_K_AUTO, key, (int)(r % 2), (int)(r / 2 % 2),
                                      clprim_type_size(key), pool, n, edge_k(n, &s), &s);
            failures += run_case_on(ctx, &c);
        }
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* A context whose top-k tuning the environment sets (knobs are read at
 * creation), through the same cases of algorithm a; keys of key_size bytes
 * only (0: any), keys alone or with values of their size (so that new
 * programs stay few). */
static int run_with_knobs(const char *const *env, size_t count, size_t key_size, uint64_t salt,
                          clprim_top_k_algorithm a)
{
    clprim_context *cx;
    int failures = 0, pool;
    uint64_t s = tu_seed() ^ salt;
    size_t i;
    for (i = 0; i + 1 < count; i += 2)
        setenv(env[i], env[i + 1], 1);
    cx = tu_context();
    for (i = 0; i + 1 < count; i += 2)
        unsetenv(env[i]);
    for (pool = 0; pool < POOLS; ++pool) {
        size_t r;
        for (r = 0; r < 3; ++r) {
            clprim_type key = key_types[(pool * 3 + r) % 6];
            if (key_size && clprim_type_size(key) != key_size)
                key = key_types[(pool * 3 + r + 3) % 6];
            const size_t n = r == 2 ? 50000 + (size_t)(tu_rand(&s) % 50000) : edge_n(&s);
            const tcase c = make_case(a, key, (int)(r % 2),
                                      (int)((pool + r) % 2), r == 1 ? clprim_type_size(key) : 0,
                                      pool, n,
                                      edge_k(n, &s), &s);
            failures += run_case_on(cx, &c);
        }
    }
    clprim_context_release(cx);
    return failures;
}

/* Candidate buffers of one key (every boundary digit but the smallest is
 * read again from the input), of a few keys (from the first buffer, then
 * again from it), digits of 4 bits (16 levels of 64-bit keys) and of 13
 * with one key per work-item and 64-bit counts; SAMPLE_FILTER with one key
 * per work-item and 64-bit counts and indices, and with 16 samples (a
 * coarse threshold: more candidates, and more fallbacks). */
static void test_knobs(void **state)
{
    static const char *const tiny[] = {"CLPRIM_TOP_K_CANDIDATE_SHIFT", "40",
                                       "CLPRIM_TOP_K_MIN_CANDIDATES", "1"};
    static const char *const few[] = {"CLPRIM_TOP_K_CANDIDATE_SHIFT", "40",
                                      "CLPRIM_TOP_K_MIN_CANDIDATES", "300"};
    static const char *const narrow[] = {"CLPRIM_TOP_K_DIGIT_BITS", "4"};
    static const char *const wide[] = {"CLPRIM_TOP_K_DIGIT_BITS", "13", "CLPRIM_TOP_K_ITEMS", "1",
                                       "CLPRIM_SORT_WIDE", "1"};
    static const char *const coarse[] = {"CLPRIM_TOP_K_FILTER_SAMPLE_BITS", "4"};
    int failures = 0;
    (void)state;
    failures += run_with_knobs(tiny, 4, 0, 0x1, CLPRIM_TOP_K_RADIX_SELECT);
    failures += run_with_knobs(few, 4, 0, 0x2, CLPRIM_TOP_K_RADIX_SELECT);
    failures += run_with_knobs(narrow, 2, 8, 0x3, CLPRIM_TOP_K_RADIX_SELECT); /* 16 levels */
    failures += run_with_knobs(wide, 6, 4, 0x4, CLPRIM_TOP_K_RADIX_SELECT); /* 64-bit counts */
    failures += run_with_knobs(wide, 6, 4, 0x5, CLPRIM_TOP_K_SAMPLE_FILTER);
    failures += run_with_knobs(coarse, 2, 0, 0x6, CLPRIM_TOP_K_SAMPLE_FILTER);
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The blocking helper, float keys with uint32 values, both directions,
 * sorted and not; k = 0 and n = 0 with NULL arrays. */
static void test_host(void **state)
{
    uint64_t s = tu_seed() ^ 0x4057u;
    const size_t n = 30001, k = 777;
    float *keys = malloc(n * sizeof *keys), *got = malloc(k * sizeof *got);
    cl_uint *values = malloc(n * sizeof *values), *gotv = malloc(k * sizeof *gotv);
    clprim_top_k_desc d;
    size_t i;
    int dir, so;
    (void)state;
    for (i = 0; i < n; ++i) {
        keys[i] = (float)(int)(tu_rand(&s) % 5000) - 2500.0f; /* ties */
        values[i] = (cl_uint)i;
    }
    memset(&d, 0, sizeof d);
    d.key_type = CLPRIM_TYPE_FLOAT;
    d.value_size = 4;
    for (dir = 0; dir < 2; ++dir)
        for (so = 0; so < 2; ++so) {
            d.largest = dir;
            d.sorted = so;
            assert_int_equal(clprim_top_k_host(ctx, &d, keys, values, n, k, got, gotv),
                             CLPRIM_SUCCESS);
            assert_int_equal(clprim_ref_top_k_check(CLPRIM_TYPE_FLOAT, dir, so, keys, values, 4,
                                                    n, k, got, gotv, stderr, "host"),
                             0);
        }
    assert_int_equal(clprim_top_k_host(ctx, &d, keys, values, n, 0, NULL, NULL), CLPRIM_SUCCESS);
    assert_int_equal(clprim_top_k_host(ctx, &d, NULL, NULL, 0, 0, NULL, NULL), CLPRIM_SUCCESS);
    d.value_size = 0;
    d.largest = 0;
    d.sorted = 0;
    assert_int_equal(clprim_top_k_host(ctx, &d, keys, NULL, n, k, got, NULL), CLPRIM_SUCCESS);
    assert_int_equal(clprim_ref_top_k_check(CLPRIM_TYPE_FLOAT, 0, 0, keys, NULL, 0, n, k, got,
                                            NULL, stderr, "host keys"),
                     0);
    free(keys);
    free(got);
    free(values);
    free(gotv);
}

static void test_refused(void **state)
{
    clprim_top_k_desc d;
    cl_mem a = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_WRITE), b = tu_buffer(ctx, 4096, NULL,
                                                                            CL_MEM_READ_WRITE);
    cl_mem v = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_WRITE), w = tu_buffer(ctx, 4096, NULL,
                                                                            CL_MEM_READ_WRITE);
    cl_mem ro = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_ONLY);
    uint32_t host[4] = {0};
    int bad = 0;
    (void)state;
    memset(&d, 0, sizeof d);
    d.key_type = CLPRIM_TYPE_UINT32;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, NULL, a, 0, NULL, 0, 10, 5, b, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_INVALID_ARGUMENT, "desc");
    d.key_type = (clprim_type)77;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 5, b, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_UNKNOWN_TYPE, "key_type");
    d.key_type = CLPRIM_TYPE_FLOAT;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 11, b, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_INVALID_ARGUMENT, "k = 11");
    d.largest = 2;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 5, b, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_INVALID_ARGUMENT, "largest");
    d.largest = 1;
    d.sorted = -1;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 5, b, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_INVALID_ARGUMENT, "sorted");
    d.sorted = 1;
    d.value_size = 65;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, v, 0, 10, 5, b, 0, w, 0, 0, NULL,
                                        NULL), CLPRIM_INVALID_ARGUMENT, "value_size");
    d.value_size = 4;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 5, b, 0, w, 0, 0, NULL,
                                        NULL), CLPRIM_INVALID_ARGUMENT, "values");
    d.value_size = 0;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, v, 0, 10, 5, b, 0, NULL, 0, 0, NULL,
                                        NULL), CLPRIM_INVALID_ARGUMENT, "value_size is 0");
    d.algorithm = CLPRIM_TOP_K_ALGORITHM_COUNT_;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 5, b, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_UNKNOWN_ALGORITHM, "algorithm");
    d.algorithm = CLPRIM_TOP_K_AUTO;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 5, a, 5, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_INVALID_ARGUMENT, "overlap");
    d.value_size = 4;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, v, 0, 10, 5, b, 0, b, 3, 0, NULL,
                                        NULL), CLPRIM_INVALID_ARGUMENT, "overlap");
    d.value_size = 0;
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 5, ro, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_INVALID_ARGUMENT, "read-only");
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 2000, 5, b, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_OUT_OF_BOUNDS, "keys");
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 100, 5, b, 1020, NULL,
                                        0, 0, NULL, NULL), CLPRIM_OUT_OF_BOUNDS, "keys_out");
    bad |= tu_refused(ctx, clprim_top_k(ctx, NULL, &d, a, 0, NULL, 0, 10, 5, NULL, 0, NULL, 0, 0,
                                        NULL, NULL), CLPRIM_INVALID_ARGUMENT, "keys_out");
    bad |= tu_refused(ctx, clprim_top_k_host(ctx, NULL, host, NULL, 4, 2, host, NULL),
                      CLPRIM_INVALID_ARGUMENT,
                      "desc");
    bad |= tu_refused(ctx, clprim_top_k_host(ctx, &d, NULL, NULL, 4, 2, host, NULL),
                      CLPRIM_INVALID_ARGUMENT, "keys");
    bad |= tu_refused(ctx, clprim_top_k_host(ctx, &d, host, NULL, 4, 2, NULL, NULL),
                      CLPRIM_INVALID_ARGUMENT, "keys_out");
    d.value_size = 4;
    bad |= tu_refused(ctx, clprim_top_k_host(ctx, &d, host, NULL, 4, 2, host, host),
                      CLPRIM_INVALID_ARGUMENT, "values");
    d.key_type = CLPRIM_TYPE_COUNT_;
    bad |= tu_refused(ctx, clprim_top_k_host(ctx, &d, host, host, 4, 2, host, host),
                      CLPRIM_UNKNOWN_TYPE, "key_type");
    assert_int_equal(clprim_top_k(NULL, NULL, &d, a, 0, NULL, 0, 10, 5, b, 0, NULL, 0, 0, NULL,
                                  NULL), CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_top_k_host(NULL, &d, host, host, 4, 2, host, host),
                     CLPRIM_INVALID_ARGUMENT);
    assert_string_equal(clprim_top_k_algorithm_name(CLPRIM_TOP_K_RADIX_SELECT), "radix-select");
    assert_null(clprim_top_k_algorithm_name(CLPRIM_TOP_K_ALGORITHM_COUNT_));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(v);
    clReleaseMemObject(w);
    clReleaseMemObject(ro);
    if (bad)
        fail();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_radix_select), cmocka_unit_test(test_sample_filter),
        cmocka_unit_test(test_filter_branches), cmocka_unit_test(test_sort),
        cmocka_unit_test(test_ties),         cmocka_unit_test(test_knobs),
        cmocka_unit_test(test_host),         cmocka_unit_test(test_refused),
    };
    char line[1024];
    int rc;
    report = stderr;
    ctx = tu_context();
    clprim_context_tuning(ctx, "top_k", 4, 1000, line, sizeof line);
    row_tile = tu_row_value(line, "wg_size") * tu_row_value(line, "items");
    row_digit = tu_row_value(line, "digit_bits");
    row_min_cand = tu_row_value(line, "min_candidates");
    row_samples = (size_t)1 << tu_row_value(line, "filter_sample_bits");
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

/* SPDX-License-Identifier: MIT */
/* Histograms: GLOBAL, PRIVATE and AUTO x the ten sample types x uint32 and
 * uint64 counts, even bins (1, 2, 7, 256, 1000 bins; 65,536 through GLOBAL
 * and AUTO) over the type's whole range, a random range or [0, 1), and
 * custom edges (duplicates among them: empty bins), counts overwritten
 * (poisoned first) or accumulated onto random ones, at edge sizes taken
 * from the device's tuning row (0, 1, around the work-group, a work-item's
 * chunk and the grid) and random ones, a few around 10^6; samples below,
 * at and above the bounds and the edges (x == lower counts, x == upper
 * does not), NaN and infinities among floats, all in one bin (skewed);
 * fresh random inputs from the test seed, every count compared with the
 * host reference (tests/reference/), the counts around the output
 * untouched. Then the blocking helper and the refusals. The programs are
 * one per sample type. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"
#include "reference/reference.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define MARGIN 5 /* counts on either side of the output that must stay untouched */

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

static const clprim_pixel_type sample_types[] = {
    CLPRIM_PIXEL_UINT8, CLPRIM_PIXEL_INT8,   CLPRIM_PIXEL_UINT16, CLPRIM_PIXEL_INT16,
    CLPRIM_PIXEL_INT32, CLPRIM_PIXEL_UINT32, CLPRIM_PIXEL_INT64,  CLPRIM_PIXEL_UINT64,
    CLPRIM_PIXEL_FLOAT, CLPRIM_PIXEL_DOUBLE};
#define NTYPES (sizeof sample_types / sizeof *sample_types)
/* 1001 and 2500: past the 1000 counters a CPU row's work-group holds, so
 * PRIVATE counts them in slices */
static const size_t bin_counts[] = {1, 2, 7, 256, 1000, 1001, 2500};

/* the even range: the type's whole range, a random one, [0, 1) */
enum { WHOLE, RANDOM_RANGE, UNIT };
static const char *const range_names[] = {"whole range", "random range", "[0, 1)"};

static clprim_context *ctx;
static size_t row_wg, row_items, row_groups; /* the device's histogram row */
static int has_fp64;

typedef struct hcase {
    clprim_histogram_algorithm algorithm;
    clprim_pixel_type type;
    clprim_type count;
    size_t bins, n, samples_off, counts_off, edges_off;
    int custom, range, accumulate, skewed;
    uint64_t seed;
} hcase;

static void describe(const hcase *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s samples, %s counts, %zu %s bins%s%s, n=%zu%s offsets %zu/%zu/%zu "
             "seed=%llu", clprim_histogram_algorithm_name(c->algorithm),
             clprim_pixel_type_name(c->type), clprim_type_name(c->count), c->bins,
             c->custom ? "custom" : "even", c->custom ? "" : " over ",
             c->custom ? "" : range_names[c->range], c->n, c->skewed ? " skewed," : "",
             c->samples_off, c->counts_off, c->edges_off, (unsigned long long)c->seed);
}

static int is_float(clprim_pixel_type t)
{
    return t == CLPRIM_PIXEL_FLOAT || t == CLPRIM_PIXEL_DOUBLE;
}

/* [least, most]: the values of an integer sample type */
static void int_limits(clprim_pixel_type t, i128 *least, i128 *most)
{
    const int bits = (int)clprim_pixel_type_size(t) * 8;
    const int sgn = t == CLPRIM_PIXEL_INT8 || t == CLPRIM_PIXEL_INT16 || t == CLPRIM_PIXEL_INT32 ||
                    t == CLPRIM_PIXEL_INT64;
    *least = sgn ? -((i128)1 << (bits - 1)) : 0;
    *most = sgn ? ((i128)1 << (bits - 1)) - 1 : ((i128)1 << bits) - 1;
}

/* one sample of type t at p: an integer (clamped to the type) or a real */
static void put_int(clprim_pixel_type t, void *p, i128 v)
{
    i128 least, most;
    uint64_t bits;
    int_limits(t, &least, &most);
    bits = (uint64_t)(v < least ? least : v > most ? most : v);
    memcpy(p, &bits, clprim_pixel_type_size(t)); /* the low bytes (little-endian host) */
}

static void put_real(clprim_pixel_type t, void *p, double v)
{
    const float f = (float)v;
    if (t == CLPRIM_PIXEL_FLOAT)
        memcpy(p, &f, sizeof f);
    else
        memcpy(p, &v, sizeof v);
}

/* a random integer in [a, b] */
static i128 rand_between(uint64_t *s, i128 a, i128 b)
{
    const i128 w = b - a + 1;
    /* 120 random bits, shifted as unsigned (a signed shift into the sign
     * bit is undefined: UBSan) */
    const u128 hi = (u128)(tu_rand(s) & ((UINT64_C(1) << 56) - 1));
    const i128 r = (i128)(hi << 64 | tu_rand(s));
    return a + r % w;
}

/* a double that is an integer in [a, b], for 64-bit bounds as doubles */
static double int_double(i128 v)
{
    return (double)v;
}

/* the even bounds of case c */
static void even_bounds(const hcase *c, uint64_t *s, double *lower, double *upper)
{
    if (is_float(c->type)) {
        if (c->range == UNIT) {
            *lower = 0;
            *upper = 1;
        } else if (c->range == WHOLE) {
            *lower = -1e6;
            *upper = 1e6;
        } else {
            *lower = (double)(int64_t)(tu_rand(s) % 2000001) / 1000.0 - 1000.0;
            *upper = *lower + (double)(1 + tu_rand(s) % 1000000) / 100.0;
        }
        return;
    }
    {
        i128 least, most, a, b;
        const int wide = clprim_pixel_type_size(c->type) == 8;
        int_limits(c->type, &least, &most);
        if (c->range != RANDOM_RANGE) {
            a = least;
            b = wide ? most - 4096 : most + 1; /* 64-bit: a double below the top */
        } else {
            do {
                a = rand_between(s, least, most);
                b = rand_between(s, least, most);
                if (tu_rand(s) % 2) /* often narrow: several samples per bin */
                    b = a + (i128)(tu_rand(s) % 5000);
                if (a > b) {
                    const i128 x = a;
                    a = b;
                    b = x;
                }
                if (b > most)
                    b = wide ? most : most + 1;
                /* as doubles (exact below 2^53; 64-bit ones rounded inward) */
                *lower = int_double(a);
                *upper = int_double(b);
                while ((i128)*lower < least)
                    *lower = nextafter(*lower, INFINITY);
                while (wide ? (i128)*upper > most - 4096 : (i128)*upper > most + 1)
                    *upper = nextafter(*upper, -INFINITY);
            } while (!(*lower < *upper));
            return;
        }
        *lower = int_double(a);
        *upper = int_double(b);
        while (wide && (i128)*upper > most - 4096)
            *upper = nextafter(*upper, -INFINITY);
    }
}

static int cmp_i128(const void *a, const void *b)
{
    const i128 x = *(const i128 *)a, y = *(const i128 *)b;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* bins + 1 ascending edges of the type into e (a few equal ones: empty
 * bins); the span they cover into *lower, *upper (for drawing samples) */
static void make_edges(const hcase *c, uint64_t *s, unsigned char *e, double *lower,
                       double *upper)
{
    const size_t ss = clprim_pixel_type_size(c->type), k = c->bins + 1;
    size_t i;
    if (is_float(c->type)) {
        double *v = malloc(k * sizeof *v);
        for (i = 0; i < k; ++i) {
            v[i] = (double)(int64_t)(tu_rand(s) % 2000001) / 100.0 - 10000.0;
            if (c->type == CLPRIM_PIXEL_FLOAT)
                v[i] = (float)v[i];
            if (i && tu_rand(s) % 8 == 0)
                v[i] = v[i - 1];
        }
        qsort(v, k, sizeof *v, cmp_double);
        for (i = 0; i < k; ++i)
            put_real(c->type, e + i * ss, v[i]);
        *lower = v[0];
        *upper = v[k - 1];
        free(v);
    } else {
        i128 least, most, *v = malloc(k * sizeof *v), a, b;
        int_limits(c->type, &least, &most);
        a = rand_between(s, least, most);
        b = tu_rand(s) % 2 ? a + (i128)(tu_rand(s) % (4 * k + 10)) : rand_between(s, least, most);
        if (b > most)
            b = most;
        if (a > b) {
            const i128 x = a;
            a = b;
            b = x;
        }
        for (i = 0; i < k; ++i)
            v[i] = i && tu_rand(s) % 8 == 0 ? v[i - 1] : rand_between(s, a, b);
        qsort(v, k, sizeof *v, cmp_i128);
        for (i = 0; i < k; ++i)
            put_int(c->type, e + i * ss, v[i]);
        *lower = (double)v[0];
        *upper = (double)v[k - 1];
        free(v);
    }
}

/* n samples over [lower, upper) and an eighth of its width beyond either
 * side, with the bounds and edges themselves, their neighbours, the
 * type's extremes and (floats) NaN and infinities among them; skewed: one
 * value throughout */
static void make_samples(const hcase *c, uint64_t *s, unsigned char *x, double lower,
                         double upper, const unsigned char *edges)
{
    const size_t ss = clprim_pixel_type_size(c->type);
    size_t i;
    for (i = 0; i < c->n; ++i) {
        unsigned char *p = x + i * ss;
        const uint64_t r = tu_rand(s) % 16;
        if (c->skewed && i)
            memcpy(p, x, ss);
        else if (r == 0 && edges)
            memcpy(p, edges + (tu_rand(s) % (c->bins + 1)) * ss, ss);
        else if (is_float(c->type)) {
            const double w = upper - lower;
            const double specials[] = {lower, upper, nextafter(upper, -INFINITY),
                                       nextafter(lower, -INFINITY), NAN, -NAN, INFINITY,
                                       -INFINITY, 0.0, -0.0};
            if (r == 1) {
                put_real(c->type, p, specials[tu_rand(s) % 10]);
                if (c->type == CLPRIM_PIXEL_FLOAT && tu_rand(s) % 2) { /* float neighbours */
                    float f;
                    memcpy(&f, p, sizeof f);
                    f = nextafterf(f, tu_rand(s) % 2 ? INFINITY : -INFINITY);
                    memcpy(p, &f, sizeof f);
                }
            } else {
                put_real(c->type, p,
                          lower - w / 8 + w * 1.25 * (double)(tu_rand(s) >> 11) / 9007199254740992.0);
            }
        } else {
            const i128 lo = (i128)lower, hi = (i128)upper, w = hi - lo;
            i128 least, most;
            int_limits(c->type, &least, &most);
            if (r == 1) {
                const i128 specials[] = {lo, hi, hi - 1, lo - 1, least, most, lo + 1};
                put_int(c->type, p, specials[tu_rand(s) % 7]);
            } else {
                put_int(c->type, p, rand_between(s, lo - w / 8 - 1, hi + w / 8 + 1));
            }
        }
    }
}

/* count i of a counts array of cs bytes each */
static uint64_t count_at(const unsigned char *p, size_t cs, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, p + i * cs, cs);
    return v;
}

/* One case on the device, checked: 0 when right, else prints it and
 * returns 1. */
static int run_case(const hcase *c)
{
    const size_t ss = clprim_pixel_type_size(c->type), cs = clprim_type_size(c->count);
    const size_t total = c->counts_off + c->bins + MARGIN;
    const uint64_t mask = cs == 8 ? ~0ull : 0xffffffffull;
    uint64_t s = c->seed, *want = calloc(c->bins, sizeof *want);
    unsigned char *sin = malloc((c->samples_off + c->n) * ss + 1);
    unsigned char *ein = c->custom ? malloc((c->edges_off + c->bins + 1) * ss) : NULL;
    unsigned char *before = malloc(total * cs), *got = malloc(total * cs);
    unsigned char *x = sin + c->samples_off * ss, *e = ein ? ein + c->edges_off * ss : NULL;
    cl_mem bs, be = NULL, bc;
    clprim_histogram_desc d;
    double lower = 0, upper = 0;
    clprim_status st;
    char what[320];
    size_t i;
    int failed = 0;

    memset(&d, 0, sizeof d);
    if (c->custom)
        make_edges(c, &s, e, &lower, &upper);
    else
        even_bounds(c, &s, &lower, &upper);
    make_samples(c, &s, x, lower, upper, e);
    for (i = 0; i < total * cs; ++i) /* poison, or the counts accumulated onto */
        before[i] = (unsigned char)tu_rand(&s);
    bs = tu_buffer(ctx, (c->samples_off + c->n) * ss, sin, CL_MEM_READ_ONLY);
    if (c->custom)
        be = tu_buffer(ctx, (c->edges_off + c->bins + 1) * ss, ein, CL_MEM_READ_ONLY);
    bc = tu_buffer(ctx, total * cs, before, CL_MEM_READ_WRITE);
    d.sample_type = c->type;
    d.count_type = c->count;
    d.bins = c->bins;
    d.lower = c->custom ? 0 : lower;
    d.upper = c->custom ? 0 : upper;
    d.edges = be;
    d.edges_off = c->edges_off;
    d.accumulate = c->accumulate;
    d.algorithm = c->algorithm;
    st = clprim_histogram(ctx, NULL, &d, bs, c->samples_off, c->n, bc, c->counts_off, 0, NULL,
                          NULL);
    describe(c, what, sizeof what);
    if (st != CLPRIM_SUCCESS) {
        char why[2048];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "FAILED %s (bounds %.17g, %.17g): %s (%s)\n", what, lower, upper,
                clprim_status_string(st), why);
        failed = 1;
        goto done;
    }
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), bc, CL_TRUE, 0, total * cs,
                                         got, 0, NULL, NULL), CL_SUCCESS);
    clprim_ref_histogram(c->type, c->bins, d.lower, d.upper, e, x, c->n, want);
    for (i = 0; i < c->bins && !failed; ++i) {
        const uint64_t w = ((c->accumulate ? count_at(before, cs, c->counts_off + i) : 0) +
                            want[i]) & mask;
        const uint64_t g = count_at(got, cs, c->counts_off + i);
        if (g != w) {
            fprintf(stderr, "FAILED %s (bounds %.17g, %.17g): bin %zu: %llu, expected %llu\n",
                    what, lower, upper, i, (unsigned long long)g, (unsigned long long)w);
            failed = 1;
        }
    }
    for (i = 0; i < total && !failed; ++i)
        if ((i < c->counts_off || i >= c->counts_off + c->bins) &&
            count_at(got, cs, i) != count_at(before, cs, i)) {
            fprintf(stderr, "FAILED %s: count %zu written outside the output\n", what, i);
            failed = 1;
        }
done:
    clReleaseMemObject(bs);
    if (be)
        clReleaseMemObject(be);
    clReleaseMemObject(bc);
    free(want);
    free(sin);
    free(ein);
    free(before);
    free(got);
    return failed;
}

/* Sample counts around what the kernels depend on: a few (the samples
 * before and after the whole 32-bit words that 8- and 16-bit samples are
 * read in), the work-group, a work-group's chunk (wg x items words of 1, 2
 * or 4 samples), the grid's pass over them. */
static size_t edge_n(uint64_t *s)
{
    const size_t wg = row_wg, chunk = row_wg * row_items, grid = chunk * row_groups;
    const size_t sizes[] = {0,         1,         2,         3,         5,         7,
                            wg - 1,    wg,        wg + 1,    chunk - 1, chunk,     chunk + 1,
                            2 * chunk + 1, 4 * chunk - 1, 4 * chunk + 3, grid - 1, grid + 1,
                            4 * grid - 1,  4 * grid + 1,  3 * grid + wg / 2, 1000, 4097};
    const uint64_t r = tu_rand(s);
    return r % 4 == 0 ? (size_t)(tu_rand(s) % 100000) : sizes[r % (sizeof sizes / sizeof *sizes)];
}

static hcase random_case(clprim_histogram_algorithm a, clprim_pixel_type t, clprim_type count,
                         int custom, uint64_t *s)
{
    hcase c;
    memset(&c, 0, sizeof c);
    c.algorithm = a;
    c.type = t;
    c.count = count;
    c.custom = custom;
    c.bins = bin_counts[tu_rand(s) % (sizeof bin_counts / sizeof *bin_counts)];
    c.range = (int)(tu_rand(s) % (is_float(t) ? 3 : 2));
    c.accumulate = (int)(tu_rand(s) % 2);
    c.skewed = tu_rand(s) % 8 == 0;
    c.n = edge_n(s);
    c.samples_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
    c.counts_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
    c.edges_off = custom && tu_rand(s) % 2 ? (size_t)(tu_rand(s) % 37) : 0;
    c.seed = tu_rand(s);
    return c;
}

/* Every sample type x count type through algorithm a, even bins then
 * custom edges. */
static int run_algorithm(clprim_histogram_algorithm a)
{
    uint64_t s = tu_seed() ^ (0x4157u + (uint64_t)a * 7919u);
    int failures = 0, custom;
    size_t t, k;
    for (custom = 0; custom < 2; ++custom)
        for (t = 0; t < NTYPES; ++t)
            for (k = 0; k < 2; ++k) {
                hcase c;
                if (sample_types[t] == CLPRIM_PIXEL_DOUBLE && !has_fp64)
                    continue;
                c = random_case(a, sample_types[t], k ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32,
                                custom, &s);
                failures += run_case(&c);
            }
    return failures;
}

static void test_global(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_HISTOGRAM_GLOBAL))
        fail();
}

static void test_private(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_HISTOGRAM_PRIVATE))
        fail();
}

static void test_auto(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_HISTOGRAM_AUTO))
        fail();
}

/* 65,536 bins (GLOBAL and AUTO), the bounds exactly (x == lower counts,
 * x == upper does not), n = 0 overwriting and accumulating, and a few
 * large random cases around 10^6. */
static void test_edges(void **state)
{
    uint64_t s = tu_seed() ^ 0xed9e5u;
    int failures = 0;
    size_t k;
    (void)state;
    for (k = 0; k < 4; ++k) { /* 65,536 bins */
        hcase c = random_case(k % 2 ? CLPRIM_HISTOGRAM_AUTO
                              : k ? CLPRIM_HISTOGRAM_PRIVATE : CLPRIM_HISTOGRAM_GLOBAL,
                              k < 2 ? CLPRIM_PIXEL_UINT32 : CLPRIM_PIXEL_FLOAT,
                              k % 2 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32, k == 3, &s);
        c.bins = 65536;
        c.n = 20000 + (size_t)(tu_rand(&s) % 50000);
        failures += run_case(&c);
    }
    for (k = 0; k < 4; ++k) { /* n = 0: zeroed, or left as they were */
        hcase c = random_case((clprim_histogram_algorithm)(k % 3), sample_types[k * 3],
                              CLPRIM_TYPE_UINT32, (int)(k % 2), &s);
        c.n = 0;
        c.accumulate = (int)(k / 2);
        failures += run_case(&c);
    }
    for (k = 0; k < 4; ++k) { /* large */
        static const clprim_pixel_type types[] = {CLPRIM_PIXEL_UINT8, CLPRIM_PIXEL_FLOAT,
                                                  CLPRIM_PIXEL_UINT32, CLPRIM_PIXEL_INT64};
        hcase c = random_case(k % 2 ? CLPRIM_HISTOGRAM_PRIVATE : CLPRIM_HISTOGRAM_AUTO, types[k],
                              k % 2 ? CLPRIM_TYPE_UINT32 : CLPRIM_TYPE_UINT64, k == 3, &s);
        c.n = 900000 + (size_t)(tu_rand(&s) % 200000);
        c.bins = k == 0 ? 256 : k == 1 ? 1024 : 1000;
        c.range = k == 1 ? UNIT : WHOLE;
        failures += run_case(&c);
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The bounds themselves: in each integer type and float, the samples
 * lower - 1, lower, upper - 1, upper (and the floats next to them)
 * through both algorithms, with the counts checked by hand as well. */
static void test_bounds(void **state)
{
    static const clprim_pixel_type types[] = {CLPRIM_PIXEL_INT8, CLPRIM_PIXEL_UINT64,
                                              CLPRIM_PIXEL_INT64, CLPRIM_PIXEL_FLOAT};
    size_t t;
    int a;
    (void)state;
    for (t = 0; t < sizeof types / sizeof *types; ++t)
        for (a = 1; a < CLPRIM_HISTOGRAM_ALGORITHM_COUNT_; ++a) {
            unsigned char x[8 * 8];
            uint32_t counts[4];
            const size_t ss = clprim_pixel_type_size(types[t]);
            clprim_histogram_desc d;
            memset(&d, 0, sizeof d);
            d.sample_type = types[t];
            d.count_type = CLPRIM_TYPE_UINT32;
            d.bins = 4;
            d.algorithm = (clprim_histogram_algorithm)a;
            d.lower = types[t] == CLPRIM_PIXEL_UINT64 ? 9007199254740992.0 : -8; /* 2^53 */
            d.upper = d.lower + 8;
            if (types[t] == CLPRIM_PIXEL_FLOAT) {
                put_real(types[t], x, d.lower);
                put_real(types[t], x + ss, nextafterf((float)d.lower, -INFINITY));
                put_real(types[t], x + 2 * ss, d.upper);
                put_real(types[t], x + 3 * ss, nextafterf((float)d.upper, -INFINITY));
                put_real(types[t], x + 4 * ss, NAN);
                put_real(types[t], x + 5 * ss, -INFINITY);
                put_real(types[t], x + 6 * ss, INFINITY);
                put_real(types[t], x + 7 * ss, d.lower + 2); /* bin 1 exactly at its edge */
            } else {
                const i128 lo = (i128)d.lower, hi = (i128)d.upper;
                const i128 v[8] = {lo, lo - 1, hi, hi - 1, hi + 1, lo - 2, hi + 5, lo + 2};
                size_t i;
                for (i = 0; i < 8; ++i)
                    put_int(types[t], x + i * ss, v[i]);
            }
            assert_int_equal(clprim_histogram_host(ctx, &d, x, 8, NULL, counts), CLPRIM_SUCCESS);
            /* lower in bin 0, lower + 2 in bin 1, upper's predecessor in bin 3 */
            assert_int_equal(counts[0], 1);
            assert_int_equal(counts[1], 1);
            assert_int_equal(counts[2], 0);
            assert_int_equal(counts[3], 1);
        }
}

/* The blocking helper: even bins, host edges, accumulating onto counts. */
static void test_host(void **state)
{
    uint64_t s = tu_seed() ^ 0x4057u;
    const size_t n = 30001, bins = 50;
    int16_t *x = malloc(n * sizeof *x), edges[51];
    uint64_t *want = calloc(bins, sizeof *want), got[50];
    clprim_histogram_desc d;
    size_t i;
    (void)state;
    for (i = 0; i < n; ++i)
        x[i] = (int16_t)(tu_rand(&s) % 1200) - 600;
    for (i = 0; i <= bins; ++i)
        edges[i] = (int16_t)(i * i / 3) - 400;
    memset(&d, 0, sizeof d);
    d.sample_type = CLPRIM_PIXEL_INT16;
    d.count_type = CLPRIM_TYPE_UINT64;
    d.bins = bins;
    d.lower = -500;
    d.upper = 500;
    assert_int_equal(clprim_histogram_host(ctx, &d, x, n, NULL, got), CLPRIM_SUCCESS);
    clprim_ref_histogram(d.sample_type, bins, d.lower, d.upper, NULL, x, n, want);
    for (i = 0; i < bins; ++i)
        assert_int_equal(got[i], want[i]);
    /* custom edges from the host, added to the counts above */
    d.lower = d.upper = 0;
    d.accumulate = 1;
    assert_int_equal(clprim_histogram_host(ctx, &d, x, n, edges, got), CLPRIM_SUCCESS);
    clprim_ref_histogram(d.sample_type, bins, 0, 0, edges, x, n, want);
    for (i = 0; i < bins; ++i)
        assert_int_equal(got[i], want[i]);
    /* no samples: overwritten counts are zeroes */
    d.accumulate = 0;
    assert_int_equal(clprim_histogram_host(ctx, &d, NULL, 0, edges, got), CLPRIM_SUCCESS);
    for (i = 0; i < bins; ++i)
        assert_int_equal(got[i], 0);
    free(x);
    free(want);
}

static void test_refused(void **state)
{
    clprim_histogram_desc d, ok;
    cl_mem a = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_WRITE), b = tu_buffer(ctx, 4096, NULL,
                                                                            CL_MEM_READ_WRITE);
    cl_mem ro = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_ONLY);
    clprim_device_info info;
    uint32_t host[8] = {0};
    int bad = 0;
    (void)state;
    memset(&ok, 0, sizeof ok);
    ok.sample_type = CLPRIM_PIXEL_UINT8;
    ok.count_type = CLPRIM_TYPE_UINT32;
    ok.bins = 16;
    ok.lower = 0;
    ok.upper = 256;
#define CALL(desc, s, so, n, c, co)                                                               \
    clprim_histogram(ctx, NULL, desc, s, so, n, c, co, 0, NULL, NULL)
    bad |= tu_refused(ctx, CALL(NULL, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "desc");
    d = ok;
    d.sample_type = CLPRIM_PIXEL_SAME;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_UNKNOWN_TYPE, "sample_type");
    d.sample_type = (clprim_pixel_type)77;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_UNKNOWN_TYPE, "sample_type");
    d = ok;
    d.count_type = CLPRIM_TYPE_INT32; /* what a zeroed descriptor says */
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "count_type");
    d.count_type = CLPRIM_TYPE_FLOAT;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "count_type");
    d = ok;
    d.bins = 0;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "bins");
    d = ok;
    d.lower = 300;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "lower");
    d.lower = d.upper = 8;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "lower");
    d.lower = NAN;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "lower");
    d.lower = 0;
    d.upper = INFINITY;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "upper");
    d.upper = 100.5; /* integer samples: integer bounds */
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "integers");
    d.upper = 257; /* past uint8's largest + 1 */
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "integers");
    d.sample_type = CLPRIM_PIXEL_INT8;
    d.lower = -129;
    d.upper = 0;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "integers");
    d.sample_type = CLPRIM_PIXEL_FLOAT; /* apart as doubles, one float */
    d.lower = 1.0;
    d.upper = 1.0 + 1e-12;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "apart");
    d.lower = 0;
    d.upper = 1e300; /* past float's range */
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "upper");
    d = ok;
    d.edges = b; /* custom edges with bounds */
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, a, 0), CLPRIM_INVALID_ARGUMENT, "lower");
    d.lower = d.upper = 0; /* the counts over the edges */
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 2), CLPRIM_INVALID_ARGUMENT, "overlap");
    d.edges_off = 4090; /* 17 edges past 4096 bytes */
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, a, 0), CLPRIM_OUT_OF_BOUNDS, "edges");
    d = ok;
    d.accumulate = 2;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "accumulate");
    d = ok;
    d.algorithm = (clprim_histogram_algorithm)3;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 0), CLPRIM_UNKNOWN_ALGORITHM, "algorithm");
    d = ok;
    bad |= tu_refused(ctx, CALL(&d, a, 0, 100, a, 20), CLPRIM_INVALID_ARGUMENT, "overlap");
    bad |= tu_refused(ctx, CALL(&d, a, 0, 100, ro, 0), CLPRIM_INVALID_ARGUMENT, "read-only");
    bad |= tu_refused(ctx, CALL(&d, a, 0, 5000, b, 0), CLPRIM_OUT_OF_BOUNDS, "samples");
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 1020), CLPRIM_OUT_OF_BOUNDS, "counts");
    d.count_type = CLPRIM_TYPE_UINT64; /* 16 counts of 8 bytes from 505 pass 4096 */
    if (clprim_context_device_info(ctx, &info) == CLPRIM_SUCCESS && info.has_int64_atomics)
        bad |= tu_refused(ctx, CALL(&d, a, 0, 10, b, 505), CLPRIM_OUT_OF_BOUNDS, "counts");
    d = ok;
    bad |= tu_refused(ctx, CALL(&d, NULL, 0, 10, b, 0), CLPRIM_INVALID_ARGUMENT, "samples");
    bad |= tu_refused(ctx, CALL(&d, a, 0, 10, NULL, 0), CLPRIM_INVALID_ARGUMENT, "counts");
    d = ok;
    bad |= tu_refused(ctx, clprim_histogram_host(ctx, NULL, host, 4, NULL, host),
                      CLPRIM_INVALID_ARGUMENT, "desc");
    bad |= tu_refused(ctx, clprim_histogram_host(ctx, &d, NULL, 4, NULL, host),
                      CLPRIM_INVALID_ARGUMENT, "samples");
    bad |= tu_refused(ctx, clprim_histogram_host(ctx, &d, host, 4, NULL, NULL),
                      CLPRIM_INVALID_ARGUMENT, "counts");
    d.edges = a; /* the host form takes host edges */
    bad |= tu_refused(ctx, clprim_histogram_host(ctx, &d, host, 4, NULL, host),
                      CLPRIM_INVALID_ARGUMENT, "desc->edges");
    d = ok; /* host edges with bounds */
    bad |= tu_refused(ctx, clprim_histogram_host(ctx, &d, host, 4, host, host),
                      CLPRIM_INVALID_ARGUMENT, "lower");
#undef CALL
    assert_int_equal(clprim_histogram(NULL, NULL, &ok, a, 0, 10, b, 0, 0, NULL, NULL),
                     CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_histogram_host(NULL, &ok, host, 4, NULL, host),
                     CLPRIM_INVALID_ARGUMENT);
    assert_string_equal(clprim_histogram_algorithm_name(CLPRIM_HISTOGRAM_PRIVATE), "private");
    assert_null(clprim_histogram_algorithm_name(CLPRIM_HISTOGRAM_ALGORITHM_COUNT_));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(ro);
    if (bad)
        fail();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global), cmocka_unit_test(test_private),
        cmocka_unit_test(test_auto),   cmocka_unit_test(test_edges),
        cmocka_unit_test(test_bounds), cmocka_unit_test(test_host),
        cmocka_unit_test(test_refused),
    };
    clprim_device_info info;
    char line[1024];
    int rc;
    ctx = tu_context();
    clprim_context_tuning(ctx, "histogram", 4, 1000, line, sizeof line);
    row_wg = tu_row_value(line, "wg_size");
    row_items = tu_row_value(line, "items");
    row_groups = tu_row_value(line, "groups_per_cu");
    if (clprim_context_device_info(ctx, &info) == CLPRIM_SUCCESS) {
        row_groups *= info.compute_units;
        has_fp64 = info.has_fp64;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

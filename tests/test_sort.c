/* SPDX-License-Identifier: MIT */
/* Radix sort and split: every algorithm x key type x direction x values
 * (none, 4, 8, 12 and 1 bytes) at edge and random sizes, in several
 * distributions (uniform over all bits, all equal, 16 distinct, sorted,
 * reversed, special floats), stability seen through the values (each value
 * holds its input index), bit ranges, offsets, in place, the caller's
 * scratch, the look-back fallback, the ordered form through bit ranges
 * of every key type; fresh random inputs, outputs poisoned
 * and compared whole with a stable host sort (tests/reference/), margins
 * around every output untouched. split against the seeds' formulas. Then
 * the refusals. */
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

#define POISON 0xA5
#define MARGIN 5 /* elements on either side of every output that must stay untouched */

enum { UNIFORM, EQUAL, FEW, SORTED, REVERSED, SPECIAL, MIXED, DISTRIBUTIONS };
enum { SEG_RANDOM, SEG_FIXED, SEG_EMPTIES }; /* make_offsets' shapes */
static const char *const dist_names[] = {"uniform", "equal", "16-distinct", "sorted", "reversed",
                                         "special", "special+uniform"};
static const clprim_type key_types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT32, CLPRIM_TYPE_FLOAT,
                                        CLPRIM_TYPE_UINT64, CLPRIM_TYPE_INT64, CLPRIM_TYPE_DOUBLE};
static const size_t value_sizes[] = {0, 4, 8, 12, 1};

static clprim_context *ctx;
static clprim_device_info info;

typedef struct scase {
    clprim_sort_algorithm algorithm;
    clprim_type key;
    int descending, dist, in_place, scratch;
    size_t value_size, n, in_off, out_off;
    unsigned begin_bit, end_bit;
    uint64_t seed;
    size_t seg_len; /* segmented sort: segments of about seg_len keys (0: a whole-array sort) */
    clprim_type offsets; /* their offsets' type */
    int seg_shape;       /* SEG_*: lengths around seg_len, all seg_len, runs of empty ones */
} scase;

static void describe(const scase *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s values=%zu %s n=%zu in_off=%zu out_off=%zu bits=[%u,%u)%s%s "
             "seed=%llu", clprim_sort_algorithm_name(c->algorithm), clprim_type_name(c->key),
             c->descending ? "descending" : "ascending", c->value_size, dist_names[c->dist], c->n,
             c->in_off, c->out_off, c->begin_bit, c->end_bit, c->in_place ? " in-place" : "",
             c->scratch ? " scratch" : "", (unsigned long long)c->seed);
    if (c->seg_len)
        snprintf(buf + strlen(buf), size - strlen(buf), " segments of %s%zu%s (%s offsets)",
                 c->seg_shape == SEG_FIXED ? "" : "~", c->seg_len,
                 c->seg_shape == SEG_EMPTIES ? " among runs of empty ones" : "",
                 clprim_type_name(c->offsets));
}

static cl_mem make_buffer(size_t bytes, const void *src);

/* Segment offsets for c (m + 1 of them, 0 to n, as size_t): lengths
 * around c->seg_len, some empty, now and then one 3 to 9 times as long;
 * SEG_FIXED: every one seg_len long (the last one shorter); SEG_EMPTIES:
 * after each, a run of up to 64 empty ones (many more segments than keys
 * when seg_len is small). */
static size_t make_offsets(const scase *c, uint64_t *s, size_t **offs)
{
    size_t m = 0, at = 0, cap = 16;
    size_t *o = malloc(cap * sizeof *o);
    o[0] = 0;
    while (at < c->n) {
        const uint64_t r = tu_rand(s);
        size_t len = r % 7 == 0 ? 0 : 1 + (size_t)(tu_rand(s) % (2 * c->seg_len));
        size_t empties = c->seg_shape == SEG_EMPTIES ? (size_t)(tu_rand(s) % 65) : 0;
        if (r % 23 == 1)
            len *= 3 + (size_t)(r % 7);
        if (c->seg_shape == SEG_FIXED)
            len = c->seg_len;
        at = len > c->n - at ? c->n : at + len;
        while (m + 2 + empties >= cap)
            o = realloc(o, (cap *= 2) * sizeof *o);
        o[++m] = at;
        while (empties--)
            o[++m] = at;
    }
    *offs = o;
    return m;
}

/* The m + 1 offsets as a buffer of c->offsets. */
static cl_mem offsets_buffer(const scase *c, const size_t *o, size_t m)
{
    const size_t unit = clprim_type_size(c->offsets);
    unsigned char *b = malloc((m + 1) * unit);
    size_t j;
    cl_mem mem;
    for (j = 0; j <= m; ++j) {
        const uint64_t v = o[j];
        memcpy(b + j * unit, &v, unit); /* little-endian hosts */
    }
    mem = make_buffer((m + 1) * unit, b);
    free(b);
    return mem;
}

/* perm of a stable sort of each segment on its own. */
static void ref_segmented_sort(const scase *c, const unsigned char *keys, const size_t *o,
                               size_t m, size_t *perm)
{
    const size_t ks = clprim_type_size(c->key);
    const unsigned end = c->begin_bit == 0 && c->end_bit == 0 ? (unsigned)ks * 8 : c->end_bit;
    size_t j, i;
    for (j = 0; j < m; ++j) {
        clprim_ref_sort(c->key, c->descending, c->begin_bit, end, keys + o[j] * ks, o[j + 1] - o[j],
                        perm + o[j]);
        for (i = o[j]; i < o[j + 1]; ++i)
            perm[i] += o[j];
    }
}

/* Special floats: zeros of both signs, infinities, NaNs of both signs and
 * payloads, denormals, and ordinary numbers; as float or double bits. */
static uint64_t special(clprim_type t, uint64_t r)
{
    static const double picks[] = {0.0, -0.0, INFINITY, -INFINITY, 1.0, -1.0, 1e-310, -1e-310,
                                   3.5, -2.25};
    const unsigned k = (unsigned)(r % 14);
    uint64_t bits = 0;
    if (t == CLPRIM_TYPE_FLOAT) {
        float f;
        uint32_t u;
        if (k >= 10) {
            u = (k & 1 ? 0xff800000u : 0x7f800000u) | (uint32_t)(1 + (r >> 8) % 0x7fffff);
            return u; /* NaNs, either sign, some payload */
        }
        f = k == 6 ? 1e-40f : k == 7 ? -1e-40f : (float)picks[k];
        memcpy(&u, &f, 4);
        return u;
    }
    if (k >= 10)
        return (k & 1 ? 0xfff0000000000000ull : 0x7ff0000000000000ull) |
               (1 + (r >> 8) % 0xfffffffffffffull);
    memcpy(&bits, &picks[k], 8);
    return bits;
}

static void fill_keys(const scase *c, unsigned char *keys, size_t n, uint64_t *s)
{
    const size_t ks = clprim_type_size(c->key);
    const uint64_t one = tu_rand(s), few_base = tu_rand(s);
    size_t i;
    for (i = 0; i < n; ++i) {
        uint64_t v = tu_rand(s);
        switch (c->dist) {
        case EQUAL: v = one; break;
        case FEW: v = few_base + (v % 16) * 0x0101010101010101ull; break;
        case SORTED: v = ks == 4 ? (uint64_t)(i * 7 + 3) : (uint64_t)i << 30; break;
        case REVERSED: v = ks == 4 ? (uint64_t)((n - i) * 7) : (uint64_t)(n - i) << 30; break;
        case MIXED: /* half special, half uniform over every bit */
            if (tu_rand(s) % 2)
                break;
            /* fall through */
        case SPECIAL:
            if (c->key == CLPRIM_TYPE_FLOAT || c->key == CLPRIM_TYPE_DOUBLE)
                v = special(c->key, v);
            else
                v = v % 3 == 0 ? 0 : v % 3 == 1 ? ~(uint64_t)0 : (uint64_t)1 << (ks * 8 - 1);
            break;
        default: break;
        }
        if (c->key == CLPRIM_TYPE_FLOAT && (c->dist == SORTED || c->dist == REVERSED)) {
            const float f = (float)(c->dist == SORTED ? (double)i - 100.0 : 100.0 - (double)i);
            uint32_t u;
            memcpy(&u, &f, 4);
            v = u;
        } else if (c->key == CLPRIM_TYPE_DOUBLE && (c->dist == SORTED || c->dist == REVERSED)) {
            const double d = c->dist == SORTED ? (double)i - 100.0 : 100.0 - (double)i;
            memcpy(&v, &d, 8);
        }
        memcpy(keys + i * ks, &v, ks);
    }
}

/* Values: each holds its input index in its first bytes (stability shows),
 * the rest random. */
static void fill_values(size_t vs, unsigned char *values, size_t n, uint64_t *s)
{
    size_t i, k;
    for (i = 0; i < n; ++i) {
        for (k = 0; k < vs; ++k)
            values[i * vs + k] = (unsigned char)tu_rand(s);
        memcpy(values + i * vs, &i, vs < sizeof i ? vs : sizeof i);
    }
}

/* The buffer's bytes outside [off, off + n) x elem must still be POISON. */
static int margins_ok(const unsigned char *b, size_t total, size_t off, size_t n, size_t elem)
{
    size_t i;
    for (i = 0; i < total * elem; ++i)
        if ((i < off * elem || i >= (off + n) * elem) && b[i] != POISON)
            return 0;
    return 1;
}

static cl_mem make_buffer(size_t bytes, const void *src)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE,
                              bytes ? bytes : 1, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    if (bytes && src)
        assert_int_equal(clEnqueueWriteBuffer(clprim_context_queue(ctx), m, CL_TRUE, 0, bytes,
                                              src, 0, NULL, NULL), CL_SUCCESS);
    return m;
}

static void read_buffer(cl_mem m, size_t bytes, void *dst)
{
    if (bytes)
        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), m, CL_TRUE, 0, bytes, dst,
                                             0, NULL, NULL), CL_SUCCESS);
}

/* One case: 0 when right, else prints it and returns 1. */
static int run_case(const scase *c)
{
    const size_t ks = clprim_type_size(c->key), vs = c->value_size, n = c->n;
    const size_t out_off = c->in_place ? c->in_off : c->out_off;
    const size_t in_total = c->in_off + n + MARGIN, out_total = out_off + n + MARGIN;
    unsigned char *keys = malloc(n * ks + 1), *values = malloc(n * vs + 1);
    unsigned char *kin = malloc(in_total * ks), *vin = malloc(in_total * vs + 1);
    unsigned char *kgot = malloc(out_total * ks), *vgot = malloc(out_total * vs + 1);
    size_t *perm = malloc((n + 1) * sizeof *perm), bad;
    uint64_t s = c->seed;
    cl_mem bki, bko, bvi = NULL, bvo = NULL, scratch = NULL, bsegs = NULL;
    size_t *offs = NULL, m = 0;
    clprim_sort_desc d;
    clprim_status st;
    char what[256];
    int failed = 0;

    fill_keys(c, keys, n, &s);
    fill_values(vs, values, n, &s);
    memset(kin, POISON, in_total * ks);
    memset(vin, POISON, in_total * vs + 1);
    memcpy(kin + c->in_off * ks, keys, n * ks);
    memcpy(vin + c->in_off * vs, values, n * vs);
    memset(kgot, POISON, out_total * ks);
    memset(vgot, POISON, out_total * vs + 1);
    bki = make_buffer(in_total * ks, kin);
    bko = c->in_place ? bki : make_buffer(out_total * ks, kgot);
    if (vs) {
        bvi = make_buffer(in_total * vs, vin);
        bvo = c->in_place ? bvi : make_buffer(out_total * vs, vgot);
    }
    memset(&d, 0, sizeof d);
    d.key_type = c->key;
    d.value_size = vs;
    d.descending = c->descending;
    d.begin_bit = c->begin_bit;
    d.end_bit = c->end_bit;
    d.algorithm = c->algorithm;
    if (c->scratch) {
        size_t bytes = 0;
        assert_int_equal(clprim_sort_scratch_size(ctx, &d, n, &bytes), CLPRIM_SUCCESS);
        scratch = make_buffer(bytes, NULL);
        d.scratch = scratch;
        d.scratch_size = bytes;
    }
    if (c->seg_len) {
        clprim_segments segs;
        memset(&segs, 0, sizeof segs);
        m = make_offsets(c, &s, &offs);
        bsegs = offsets_buffer(c, offs, m);
        segs.kind = CLPRIM_SEGMENTS_OFFSETS;
        segs.type = c->offsets;
        segs.mem = bsegs;
        segs.num_segments = m;
        st = clprim_segmented_sort(ctx, NULL, &d, &segs, bki, c->in_off, bko, out_off, bvi,
                                   c->in_off, bvo, out_off, n, 0, NULL, NULL);
    } else {
        st = clprim_sort(ctx, NULL, &d, bki, c->in_off, bko, out_off, bvi, c->in_off, bvo, out_off,
                         n, 0, NULL, NULL);
    }
    describe(c, what, sizeof what);
    if (st != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "FAILED %s: %s (%s)\n", what, clprim_status_string(st), why);
        failed = 1;
        goto done;
    }
    read_buffer(bko, out_total * ks, kgot);
    if (vs)
        read_buffer(bvo, out_total * vs, vgot);
    if (c->seg_len)
        ref_segmented_sort(c, keys, offs, m, perm);
    else
        clprim_ref_sort(c->key, c->descending, c->begin_bit,
                        c->begin_bit == 0 && c->end_bit == 0 ? (unsigned)ks * 8 : c->end_bit,
                        keys, n, perm);
    bad = clprim_ref_permuted_check(keys, perm, ks, kgot + out_off * ks, n);
    if (bad == n && vs)
        bad = clprim_ref_permuted_check(values, perm, vs, vgot + out_off * vs, n);
    if (bad != n) {
        fprintf(stderr, "FAILED %s: output %zu differs (key or value of input %zu expected)\n",
                what, bad, perm[bad]);
        failed = 1;
    } else if (!margins_ok(kgot, out_total, out_off, n, ks) ||
               (vs && !margins_ok(vgot, out_total, out_off, n, vs))) {
        fprintf(stderr, "FAILED %s: written outside the output\n", what);
        failed = 1;
    }
done:
    if (bko != bki)
        clReleaseMemObject(bko);
    clReleaseMemObject(bki);
    if (bvo && bvo != bvi)
        clReleaseMemObject(bvo);
    if (bvi)
        clReleaseMemObject(bvi);
    if (scratch)
        clReleaseMemObject(scratch);
    if (bsegs)
        clReleaseMemObject(bsegs);
    free(offs);
    free(keys);
    free(values);
    free(kin);
    free(vin);
    free(kgot);
    free(vgot);
    free(perm);
    return failed;
}

/* Sizes around the tile (the CPU rows' tiles: 256 keys; NVIDIA's 4096 for
 * 8-byte keys, 4352 with values, 7168 for 4-byte keys), powers of two, and
 * random ones. */
static size_t edge_size(uint64_t *s)
{
    static const size_t sizes[] = {1,    2,    31,   33,   255,  256,  257,   511,  1023,
                                   1025, 4095, 4096, 4097, 4351, 4352, 4353,  7167, 7168,
                                   7169, 8191, 14336, 65537};
    const uint64_t r = tu_rand(s);
    return r % 4 == 0 ? (size_t)(tu_rand(s) % 100000) + 1 : sizes[r % (sizeof sizes / sizeof *sizes)];
}

/* Every key type x direction x value size, with one edge size and one
 * distribution each, for one algorithm; then larger sizes. */
static int run_algorithm(clprim_sort_algorithm a, size_t large)
{
    uint64_t s = tu_seed() ^ (0x5047u + (uint64_t)a * 7919u);
    int failures = 0;
    size_t t, v, dir;
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t)
        for (dir = 0; dir < 2; ++dir)
            for (v = 0; v < sizeof value_sizes / sizeof *value_sizes; ++v) {
                scase c;
                memset(&c, 0, sizeof c);
                c.algorithm = a;
                c.key = key_types[t];
                c.descending = (int)dir;
                c.value_size = value_sizes[v];
                c.dist = (int)(tu_rand(&s) % DISTRIBUTIONS);
                c.n = edge_size(&s);
                c.in_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
                c.out_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
                c.in_place = tu_rand(&s) % 5 == 0;
                c.seed = tu_rand(&s);
                failures += run_case(&c);
            }
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t) {
        scase c;
        memset(&c, 0, sizeof c);
        c.algorithm = a;
        c.key = key_types[t];
        c.descending = (int)(tu_rand(&s) % 2);
        c.value_size = value_sizes[tu_rand(&s) % 3];
        c.dist = t % 2 ? UNIFORM : (int)(tu_rand(&s) % DISTRIBUTIONS);
        c.n = large / 2 + (size_t)(tu_rand(&s) % (large / 2));
        c.seed = tu_rand(&s);
        failures += run_case(&c);
    }
    return failures;
}

static void test_onesweep(void **state)
{
    (void)state;
    if (!info.has_single_pass)
        skip();
    if (run_algorithm(CLPRIM_SORT_ONESWEEP, (size_t)1 << 21))
        fail();
}

static void test_split_lsb(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_SORT_SPLIT_LSB, (size_t)1 << 17))
        fail();
}

static void test_tile_bitonic(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_SORT_TILE_BITONIC, (size_t)1 << 18))
        fail();
}

static void test_chunked(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_SORT_CHUNKED, (size_t)1 << 20))
        fail();
}

/* Segmented sort: every key type x direction x value size, segments of a
 * few, tens, hundreds and thousands of keys (with empty ones and some
 * several times longer: past a tile on every device), every offset type,
 * offsets, in place, bit ranges; each segment against a stable host sort of
 * its own. */
static void test_segmented(void **state)
{
    static const size_t lens[] = {3, 30, 300, 3000};
    static const clprim_type offset_types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT32,
                                               CLPRIM_TYPE_UINT64, CLPRIM_TYPE_INT64};
    static const size_t seg_values[] = {0, 4, 12};
    uint64_t s = tu_seed() ^ 0x5e950u;
    int failures = 0;
    size_t t, v, dir, k;
    (void)state;
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t)
        for (dir = 0; dir < 2; ++dir)
            for (v = 0; v < sizeof seg_values / sizeof *seg_values; ++v) {
                scase c;
                memset(&c, 0, sizeof c);
                c.key = key_types[t];
                c.descending = (int)dir;
                c.value_size = seg_values[v];
                c.dist = (int)(tu_rand(&s) % DISTRIBUTIONS);
                c.seg_len = lens[tu_rand(&s) % 4];
                c.offsets = offset_types[tu_rand(&s) % 4];
                c.n = 1 + (size_t)(tu_rand(&s) % 30000);
                c.in_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
                c.out_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
                c.in_place = tu_rand(&s) % 4 == 0;
                c.seed = tu_rand(&s);
                failures += run_case(&c);
            }
    for (k = 0; k < 8; ++k) { /* bit ranges (the empty one too), long segments, large n */
        scase c;
        memset(&c, 0, sizeof c);
        c.key = k % 2 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
        c.value_size = 4;
        c.dist = UNIFORM;
        c.offsets = CLPRIM_TYPE_UINT32;
        c.in_place = k >= 6;
        c.seg_len = k < 4 ? 500 : 40000;
        c.n = k < 4 ? 20000 : (size_t)1 << 18;
        if (k < 3) {
            c.begin_bit = k == 2 ? 9 : (unsigned)(tu_rand(&s) % 13);
            c.end_bit = k == 2 ? 9 : c.begin_bit + 1 + (unsigned)(tu_rand(&s) % 19);
        }
        c.seed = tu_rand(&s);
        failures += run_case(&c);
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The segmented sort at its edges (the CPU's tile: 256 keys), each case
 * of every `every`-th: segments of exactly the short windows' bound (32)
 * and one past, of half a tile (two join into one), of a tile and one past,
 * one segment of a whole tile or one past; many more segments than keys
 * (runs of empty ones); value sizes 1 and 64; in place with 1, 3 and no
 * digit passes over segments longer than a tile (an odd count: the long
 * segments' copy first). */
static int segmented_edges(uint64_t s, size_t every)
{
    static const struct {
        size_t seg_len;
        int shape;
        size_t n;
        unsigned begin_bit, end_bit;
        clprim_type key;
        size_t value_size;
        int in_place;
    } cases[] = {
        {32, SEG_FIXED, 3000, 0, 0, CLPRIM_TYPE_UINT32, 4, 0},
        {33, SEG_FIXED, 3000, 0, 0, CLPRIM_TYPE_FLOAT, 1, 1},
        {31, SEG_FIXED, 2000, 0, 0, CLPRIM_TYPE_INT64, 64, 0},
        {1, SEG_FIXED, 1000, 0, 0, CLPRIM_TYPE_UINT32, 0, 1},
        {128, SEG_FIXED, 5000, 0, 0, CLPRIM_TYPE_DOUBLE, 12, 0},
        {255, SEG_FIXED, 5000, 0, 0, CLPRIM_TYPE_UINT32, 4, 1},
        {256, SEG_FIXED, 5000, 0, 0, CLPRIM_TYPE_INT32, 4, 1},
        {257, SEG_FIXED, 5000, 0, 0, CLPRIM_TYPE_UINT64, 8, 0},
        {256, SEG_FIXED, 256, 0, 0, CLPRIM_TYPE_UINT32, 4, 0},
        {257, SEG_FIXED, 257, 0, 0, CLPRIM_TYPE_UINT32, 4, 1},
        {1, SEG_EMPTIES, 5000, 0, 0, CLPRIM_TYPE_UINT32, 4, 0},
        {20, SEG_EMPTIES, 20000, 0, 0, CLPRIM_TYPE_INT32, 1, 1},
        {3000, SEG_EMPTIES, 30000, 0, 0, CLPRIM_TYPE_FLOAT, 4, 0},
        {30, SEG_RANDOM, 20000, 0, 0, CLPRIM_TYPE_UINT64, 1, 0},
        {3, SEG_RANDOM, 20000, 0, 0, CLPRIM_TYPE_DOUBLE, 64, 1},
        {4000, SEG_RANDOM, 40000, 0, 24, CLPRIM_TYPE_UINT32, 4, 1},
        {4000, SEG_RANDOM, 40000, 3, 11, CLPRIM_TYPE_UINT64, 64, 1},
        {1000, SEG_FIXED, 30000, 40, 64, CLPRIM_TYPE_INT64, 0, 1},
        {2000, SEG_RANDOM, 30000, 7, 7, CLPRIM_TYPE_UINT32, 12, 1},
    };
    static const clprim_type offset_types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT32,
                                               CLPRIM_TYPE_UINT64, CLPRIM_TYPE_INT64};
    int failures = 0;
    size_t k;
    for (k = 0; k < sizeof cases / sizeof *cases; k += every) {
        scase c;
        memset(&c, 0, sizeof c);
        c.key = cases[k].key;
        c.value_size = cases[k].value_size;
        c.descending = (int)(k % 2);
        c.dist = cases[k].end_bit ? UNIFORM : (int)(k % DISTRIBUTIONS);
        c.seg_len = cases[k].seg_len;
        c.seg_shape = cases[k].shape;
        c.offsets = offset_types[k % 4];
        c.n = cases[k].n;
        c.begin_bit = cases[k].begin_bit;
        c.end_bit = cases[k].end_bit;
        c.in_place = cases[k].in_place;
        c.in_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
        c.out_off = tu_rand(&s) % 3 ? 0 : (size_t)(tu_rand(&s) % 37);
        c.seed = tu_rand(&s);
        failures += run_case(&c);
    }
    return failures;
}

static void test_segmented_edges(void **state)
{
    int failures;
    (void)state;
    failures = segmented_edges(tu_seed() ^ 0x5e9edu, 1);
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* Offsets that break the contract (falling, past n, negative as int32 /
 * int64, not from 0 or not to n, far more than n, every offset type): any
 * order, but the keys and values around the n of the output, and the whole
 * input when not in place, stay as they were. */
static void test_segmented_wrong_offsets(void **state)
{
    static const clprim_type offset_types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT32,
                                               CLPRIM_TYPE_UINT64, CLPRIM_TYPE_INT64};
    uint64_t s = tu_seed() ^ 0xbad0ffu;
    int failures = 0, pattern;
    size_t t;
    (void)state;
    for (pattern = 0; pattern < 6; ++pattern)
        for (t = 0; t < 4; ++t) {
            const clprim_type key = pattern % 2 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
            const size_t ks = clprim_type_size(key), vs = t % 2 ? 12 : 4;
            const size_t unit = clprim_type_size(offset_types[t]);
            const size_t n = 3000 + (size_t)(tu_rand(&s) % 3000), total = n + 2 * MARGIN;
            const size_t m = pattern == 5 ? 3 * n : 10 + (size_t)(tu_rand(&s) % 50);
            const int in_place = (pattern + (int)t) % 2;
            unsigned char *kin = malloc(total * ks), *vin = malloc(total * vs);
            unsigned char *kgot = malloc(total * ks), *vgot = malloc(total * vs);
            unsigned char *offs = malloc((m + 1) * unit);
            cl_mem bki, bko, bvi, bvo, bsegs;
            clprim_segments segs;
            clprim_sort_desc d;
            clprim_status st;
            size_t j;
            memset(kin, POISON, total * ks);
            memset(vin, POISON, total * vs);
            for (j = 0; j < n * ks; ++j)
                kin[MARGIN * ks + j] = (unsigned char)tu_rand(&s);
            for (j = 0; j < n * vs; ++j)
                vin[MARGIN * vs + j] = (unsigned char)tu_rand(&s);
            for (j = 0; j <= m; ++j) {
                const uint64_t r = tu_rand(&s), rise = (uint64_t)(j * n / m);
                int64_t v;
                switch (pattern) {
                case 0: v = (int64_t)(r % (2 * n)); break;                /* anywhere, past n too */
                case 1: v = (int64_t)(n - j * n / m); break;               /* falling from n to 0 */
                case 2: v = r % 5 ? (int64_t)rise : -1 - (int64_t)(r % 3000); break; /* negative */
                case 3: v = r % 4 ? (int64_t)(rise + n / 3) : (int64_t)1 << 40; break; /* past n */
                case 4: v = (int64_t)(r % 3 ? rise : rise / 2 + (r % 2) * 2 * n); break;
                default: v = (int64_t)(r % (n + 300)); break; /* far more than n */
                }
                memcpy(offs + j * unit, &v, unit); /* little-endian hosts */
            }
            bki = make_buffer(total * ks, kin);
            bvi = make_buffer(total * vs, vin);
            memset(kgot, POISON, total * ks);
            memset(vgot, POISON, total * vs);
            bko = in_place ? bki : make_buffer(total * ks, kgot);
            bvo = in_place ? bvi : make_buffer(total * vs, vgot);
            bsegs = make_buffer((m + 1) * unit, offs);
            memset(&segs, 0, sizeof segs);
            segs.kind = CLPRIM_SEGMENTS_OFFSETS;
            segs.type = offset_types[t];
            segs.mem = bsegs;
            segs.num_segments = m;
            memset(&d, 0, sizeof d);
            d.key_type = key;
            d.value_size = vs;
            d.descending = (int)t / 2;
            st = clprim_segmented_sort(ctx, NULL, &d, &segs, bki, MARGIN, bko, MARGIN, bvi, MARGIN,
                                       bvo, MARGIN, n, 0, NULL, NULL);
            if (st != CLPRIM_SUCCESS) {
                fprintf(stderr, "FAILED wrong offsets %d (%s): %s\n", pattern,
                        clprim_type_name(offset_types[t]), clprim_status_string(st));
                ++failures;
            } else {
                read_buffer(bko, total * ks, kgot);
                read_buffer(bvo, total * vs, vgot);
                if (!margins_ok(kgot, total, MARGIN, n, ks) ||
                    !margins_ok(vgot, total, MARGIN, n, vs)) {
                    fprintf(stderr, "FAILED wrong offsets %d (%s)%s: written outside the "
                            "output\n", pattern, clprim_type_name(offset_types[t]),
                            in_place ? " in place" : "");
                    ++failures;
                } else if (!in_place) {
                    read_buffer(bki, total * ks, kgot);
                    read_buffer(bvi, total * vs, vgot);
                    if (memcmp(kgot, kin, total * ks) || memcmp(vgot, vin, total * vs)) {
                        fprintf(stderr, "FAILED wrong offsets %d (%s): the input changed\n",
                                pattern, clprim_type_name(offset_types[t]));
                        ++failures;
                    }
                }
            }
            if (!in_place) {
                clReleaseMemObject(bko);
                clReleaseMemObject(bvo);
            }
            clReleaseMemObject(bki);
            clReleaseMemObject(bvi);
            clReleaseMemObject(bsegs);
            free(kin);
            free(vin);
            free(kgot);
            free(vgot);
            free(offs);
        }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* AUTO, the empty sort, bit ranges, every distribution, the caller's
 * scratch, n = 0. */
static void test_options(void **state)
{
    uint64_t s = tu_seed() ^ 0x0b715u;
    int failures = 0, dist, a;
    unsigned k;
    (void)state;
    for (a = 0; a < CLPRIM_SORT_ALGORITHM_COUNT_; ++a) {
        scase c;
        if (a == CLPRIM_SORT_ONESWEEP && !info.has_single_pass)
            continue;
        for (dist = 0; dist < DISTRIBUTIONS; ++dist) {
            memset(&c, 0, sizeof c);
            c.algorithm = (clprim_sort_algorithm)a;
            c.key = key_types[tu_rand(&s) % 6];
            c.value_size = 4;
            c.dist = dist;
            c.descending = dist % 2;
            c.n = 3000 + (size_t)(tu_rand(&s) % 20000);
            c.seed = tu_rand(&s);
            failures += run_case(&c);
        }
        for (k = 0; k < 6; ++k) { /* bit ranges, of integer keys */
            memset(&c, 0, sizeof c);
            c.algorithm = (clprim_sort_algorithm)a;
            c.key = k % 2 ? CLPRIM_TYPE_UINT64 : k % 3 ? CLPRIM_TYPE_INT32 : CLPRIM_TYPE_UINT32;
            c.value_size = 8;
            c.descending = k == 3;
            c.begin_bit = (unsigned)(tu_rand(&s) % 13);
            c.end_bit = c.begin_bit + (k == 0 ? 0 : 1 + (unsigned)(tu_rand(&s) % 19));
            c.n = k == 5 ? 100 : 5000 + (size_t)(tu_rand(&s) % 9000);
            c.seed = tu_rand(&s);
            if (c.begin_bit == 0 && c.end_bit == 0)
                c.end_bit = 0; /* the whole key */
            failures += run_case(&c);
        }
        memset(&c, 0, sizeof c); /* the caller's scratch, in place too */
        c.algorithm = (clprim_sort_algorithm)a;
        c.key = CLPRIM_TYPE_UINT32;
        c.value_size = 12;
        c.scratch = 1;
        c.n = 40000;
        c.seed = tu_rand(&s);
        failures += run_case(&c);
        c.in_place = 1;
        c.in_off = 3;
        c.key = CLPRIM_TYPE_DOUBLE;
        c.seed = tu_rand(&s);
        failures += run_case(&c);
        c.n = 0;
        failures += run_case(&c);
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The ordered form through bit ranges (clprim.h, "Ordered form"): every key
 * type, every algorithm, both directions, keys half special (NaNs of both
 * signs and payloads, zeros of both signs, infinities, denormals; integers
 * 0, ~0 and the sign bit alone) and half uniform over every bit, sorted by a
 * range holding the sign bit, a single top bit, a range in the middle, one
 * bit at the bottom and an empty range (begin_bit == end_bit > 0: input
 * order), against the host reference that applies the header's mapping. */
static void test_bit_ranges(void **state)
{
    uint64_t s = tu_seed() ^ 0xb17e5u;
    int failures = 0, a, dir, r;
    size_t t;
    (void)state;
    for (a = 0; a < CLPRIM_SORT_ALGORITHM_COUNT_; ++a) {
        if (a == CLPRIM_SORT_ONESWEEP && !info.has_single_pass)
            continue;
        for (t = 0; t < sizeof key_types / sizeof *key_types; ++t)
            for (dir = 0; dir < 2; ++dir)
                for (r = 0; r < 5; ++r) {
                    const unsigned w = (unsigned)clprim_type_size(key_types[t]) * 8;
                    scase c;
                    memset(&c, 0, sizeof c);
                    c.algorithm = (clprim_sort_algorithm)a;
                    c.key = key_types[t];
                    c.descending = dir;
                    c.value_size = 4; /* each its input index: ties show */
                    c.dist = MIXED;
                    switch (r) {
                    case 0: /* the top bits: the sign bit, the exponent's top */
                        c.begin_bit = w - 1 - (unsigned)(tu_rand(&s) % 12);
                        c.end_bit = w;
                        break;
                    case 1: c.begin_bit = w - 1, c.end_bit = w; break;
                    case 2:
                        c.begin_bit = 1 + (unsigned)(tu_rand(&s) % (w / 2));
                        c.end_bit = c.begin_bit + 1 + (unsigned)(tu_rand(&s) % (w / 2 - 1));
                        break;
                    case 3: c.begin_bit = 0, c.end_bit = 1; break;
                    default: c.begin_bit = c.end_bit = 1 + (unsigned)(tu_rand(&s) % w); break;
                    }
                    c.n = (r + dir) % 2 ? 1 + (size_t)(tu_rand(&s) % 250)
                                        : 2000 + (size_t)(tu_rand(&s) % 30000);
                    c.seed = tu_rand(&s);
                    failures += run_case(&c);
                }
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* Input and output as disjoint ranges of one buffer (keys, and values the
 * other way round): a sort between two arrays, not in place; the input
 * ranges are left as they were. */
static void test_one_buffer(void **state)
{
    static const size_t sizes[] = {1, 100, 30000};
    uint64_t s = tu_seed() ^ 0x0b0fu;
    int a;
    size_t z;
    (void)state;
    for (a = 1; a < CLPRIM_SORT_ALGORITHM_COUNT_; ++a)
        for (z = 0; z < 3; ++z) {
            const size_t n = sizes[z], gap = 7, total = 2 * n + gap;
            uint32_t *keys = malloc(total * 4), *vals = malloc(total * 4);
            uint32_t *kgot = malloc(total * 4), *vgot = malloc(total * 4);
            size_t *perm = malloc(n * sizeof *perm), i;
            clprim_sort_desc d;
            cl_mem kb, vb;
            clprim_status st;
            for (i = 0; i < total; ++i) {
                keys[i] = i < n ? (uint32_t)(tu_rand(&s) % 1000) : 0xA5A5A5A5u;
                vals[i] = i >= n + gap ? (uint32_t)(i - n - gap) : 0x5A5A5A5Au;
            }
            kb = make_buffer(total * 4, keys);
            vb = make_buffer(total * 4, vals);
            memset(&d, 0, sizeof d);
            d.key_type = CLPRIM_TYPE_UINT32;
            d.value_size = 4;
            d.algorithm = (clprim_sort_algorithm)a;
            /* keys [0, n) -> [n + gap, ...); values [n + gap, ...) -> [0, n) */
            st = clprim_sort(ctx, NULL, &d, kb, 0, kb, n + gap, vb, n + gap, vb, 0, n, 0, NULL,
                             NULL);
            if (st == CLPRIM_UNSUPPORTED)
                goto next;
            assert_int_equal(st, CLPRIM_SUCCESS);
            read_buffer(kb, total * 4, kgot);
            read_buffer(vb, total * 4, vgot);
            clprim_ref_sort(CLPRIM_TYPE_UINT32, 0, 0, 32, keys, n, perm);
            for (i = 0; i < n; ++i) {
                if (kgot[n + gap + i] != keys[perm[i]] || vgot[i] != (uint32_t)perm[i])
                    fail_msg("%s n=%zu: element %zu is key %u value %u, want %u %u",
                             clprim_sort_algorithm_name(d.algorithm), n, i, kgot[n + gap + i],
                             vgot[i], keys[perm[i]], (unsigned)perm[i]);
                if (kgot[i] != keys[i] || vgot[n + gap + i] != vals[n + gap + i])
                    fail_msg("%s n=%zu: the input changed at %zu",
                             clprim_sort_algorithm_name(d.algorithm), n, i);
            }
            for (i = n; i < n + gap; ++i)
                if (kgot[i] != 0xA5A5A5A5u || vgot[i] != 0x5A5A5A5Au)
                    fail_msg("%s n=%zu: the gap changed at %zu",
                             clprim_sort_algorithm_name(d.algorithm), n, i);
        next:
            clReleaseMemObject(kb);
            clReleaseMemObject(vb);
            free(keys);
            free(vals);
            free(kgot);
            free(vgot);
            free(perm);
        }
}

/* split by one bit against the seeds' formulas, on the ordered form as
 * clprim.h states it (clprim_ref_ordered), ascending and descending, NaNs
 * and zeros of both signs among the keys. */
static void test_split(void **state)
{
    uint64_t s = tu_seed() ^ 0x5b17u;
    int failures = 0, i;
    (void)state;
    for (i = 0; i < 18; ++i) {
        const clprim_type type = key_types[i % 6];
        const int descending = i / 6 == 1;
        const size_t ks = clprim_type_size(type), vs = i % 3 == 0 ? 0 : 4;
        const size_t n = i == 0 ? 0 : i < 4 ? (size_t)i : (size_t)(tu_rand(&s) % 70000) + 1;
        const unsigned bit = (unsigned)(tu_rand(&s) % (ks * 8));
        unsigned char *keys = malloc(n * ks + 1), *got = malloc(n * ks + 1);
        unsigned char *want = malloc(n * ks + 1);
        uint32_t *values = malloc(n * 4 + 4), *vgot = malloc(n * 4 + 4), *vwant = malloc(n * 4 + 4);
        cl_ulong count = 0xdeadbeef, falses = 0, *f = malloc((n + 1) * sizeof *f);
        clprim_sort_desc d;
        cl_mem bk, bo, bv = NULL, bvo = NULL, bc;
        size_t j;
        scase c;
        memset(&c, 0, sizeof c);
        c.key = type;
        c.dist = i % 2 ? MIXED : UNIFORM; /* NaNs and zeros of both signs too */
        fill_keys(&c, keys, n, &s);
        for (j = 0; j < n; ++j)
            values[j] = (uint32_t)j;
        /* e = !bit of the ordered key (clprim.h's mapping, descending
         * flipped), f = exclusive scan of e, d = bit ? i - f + totalFalses : f */
        for (j = 0; j < n; ++j) {
            uint64_t k = 0;
            memcpy(&k, keys + j * ks, ks);
            k = clprim_ref_ordered(type, descending, k);
            f[j] = falses;
            falses += !((k >> bit) & 1);
        }
        for (j = 0; j < n; ++j) {
            const cl_ulong dest = (j + 1 < n ? f[j + 1] : falses) - f[j] ? f[j] : j - f[j] + falses;
            memcpy(want + dest * ks, keys + j * ks, ks);
            vwant[dest] = values[j];
        }
        bk = make_buffer(n * ks, keys);
        bo = make_buffer(n * ks, NULL);
        bc = make_buffer(8, &count);
        if (vs) {
            bv = make_buffer(n * 4, values);
            bvo = make_buffer(n * 4, NULL);
        }
        memset(&d, 0, sizeof d);
        d.key_type = type;
        d.value_size = vs;
        d.descending = descending;
        if (clprim_split(ctx, NULL, &d, bit, bk, 0, bo, 0, bv, 0, bvo, 0, n, bc, 0, 0, NULL,
                         NULL) != CLPRIM_SUCCESS) {
            fprintf(stderr, "FAILED split %s n=%zu bit=%u\n", clprim_type_name(type), n, bit);
            ++failures;
        } else {
            read_buffer(bo, n * ks, got);
            read_buffer(bc, 8, &count);
            if (vs)
                read_buffer(bvo, n * 4, vgot);
            if (count != falses || memcmp(got, want, n * ks) != 0 ||
                (vs && memcmp(vgot, vwant, n * 4) != 0)) {
                fprintf(stderr, "FAILED split %s%s %s n=%zu bit=%u: count %llu (want %llu)\n",
                        clprim_type_name(type), descending ? " descending" : "",
                        dist_names[c.dist], n, bit, (unsigned long long)count,
                        (unsigned long long)falses);
                ++failures;
            }
        }
        clReleaseMemObject(bk);
        clReleaseMemObject(bo);
        clReleaseMemObject(bc);
        if (bv) {
            clReleaseMemObject(bv);
            clReleaseMemObject(bvo);
        }
        free(keys);
        free(got);
        free(want);
        free(values);
        free(vgot);
        free(vwant);
        free(f);
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The host helper sorts in place. */
static void test_host(void **state)
{
    uint64_t s = tu_seed() ^ 0x4057u;
    const size_t n = 12345;
    float *keys = malloc(n * sizeof *keys), *want = malloc(n * sizeof *want);
    uint32_t *values = malloc(n * 4);
    size_t *perm = malloc(n * sizeof *perm), i;
    clprim_sort_desc d;
    (void)state;
    for (i = 0; i < n; ++i) {
        keys[i] = (float)((double)(tu_rand(&s) % 2000001) / 1000.0 - 1000.0);
        values[i] = (uint32_t)i;
    }
    clprim_ref_sort(CLPRIM_TYPE_FLOAT, 1, 0, 32, keys, n, perm);
    for (i = 0; i < n; ++i)
        want[i] = keys[perm[i]];
    memset(&d, 0, sizeof d);
    d.key_type = CLPRIM_TYPE_FLOAT;
    d.value_size = 4;
    d.descending = 1;
    assert_int_equal(clprim_sort_host(ctx, &d, keys, values, n), CLPRIM_SUCCESS);
    assert_memory_equal(keys, want, n * sizeof *keys);
    for (i = 0; i < n; ++i)
        assert_int_equal(values[i], perm[i]);
    free(keys);
    free(want);
    free(values);
    free(perm);
}

static void test_refused(void **state)
{
    clprim_sort_desc d;
    cl_mem a = make_buffer(4096, NULL), b = make_buffer(4096, NULL);
    size_t bytes = 0;
    int bad = 0;
    (void)state;
    memset(&d, 0, sizeof d);
    d.key_type = (clprim_type)77;
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, b, 0, NULL, 0, NULL, 0, 10, 0, NULL,
                                       NULL), CLPRIM_UNKNOWN_TYPE, "key_type");
    d.key_type = CLPRIM_TYPE_UINT32;
    d.end_bit = 33;
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, b, 0, NULL, 0, NULL, 0, 10, 0, NULL,
                                       NULL), CLPRIM_INVALID_ARGUMENT, "range");
    d.begin_bit = 9;
    d.end_bit = 4;
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, b, 0, NULL, 0, NULL, 0, 10, 0, NULL,
                                       NULL), CLPRIM_INVALID_ARGUMENT, "range");
    d.begin_bit = d.end_bit = 0;
    d.value_size = 65;
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, b, 0, a, 0, b, 0, 10, 0, NULL, NULL),
                      CLPRIM_INVALID_ARGUMENT, "value_size");
    d.value_size = 4;
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, b, 0, NULL, 0, NULL, 0, 10, 0, NULL,
                                       NULL), CLPRIM_INVALID_ARGUMENT, "values");
    d.value_size = 0;
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, b, 0, NULL, 0, NULL, 0, 2000, 0, NULL,
                                       NULL), CLPRIM_OUT_OF_BOUNDS, "");
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, a, 5, NULL, 0, NULL, 0, 100, 0, NULL,
                                       NULL), CLPRIM_INVALID_ARGUMENT, "overlap");
    d.algorithm = (clprim_sort_algorithm)9;
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, b, 0, NULL, 0, NULL, 0, 10, 0, NULL,
                                       NULL), CLPRIM_UNKNOWN_ALGORITHM, "algorithm");
    d.algorithm = CLPRIM_SORT_AUTO;
    assert_int_equal(clprim_sort_scratch_size(ctx, &d, 100000, &bytes), CLPRIM_SUCCESS);
    d.scratch = b;
    d.scratch_size = 4096;
    if (bytes > 4096)
        bad |= tu_refused(ctx, clprim_sort(ctx, NULL, &d, a, 0, a, 0, NULL, 0, NULL, 0, 1000, 0,
                                           NULL, NULL), CLPRIM_INVALID_ARGUMENT, "scratch");
    d.scratch = NULL;
    d.scratch_size = 0;
    bad |= tu_refused(ctx, clprim_split(ctx, NULL, &d, 32, a, 0, b, 0, NULL, 0, NULL, 0, 10, NULL,
                                        0, 0, NULL, NULL), CLPRIM_INVALID_ARGUMENT, "bit");
    bad |= tu_refused(ctx, clprim_split(ctx, NULL, &d, 3, a, 0, a, 0, NULL, 0, NULL, 0, 10, NULL,
                                        0, 0, NULL, NULL), CLPRIM_INVALID_ARGUMENT, "overlap");
    bad |= tu_refused(ctx, clprim_sort(ctx, NULL, NULL, a, 0, b, 0, NULL, 0, NULL, 0, 10, 0, NULL,
                                       NULL), CLPRIM_INVALID_ARGUMENT, "desc");
    assert_int_equal(clprim_sort(NULL, NULL, &d, a, 0, b, 0, NULL, 0, NULL, 0, 10, 0, NULL, NULL),
                     CLPRIM_INVALID_ARGUMENT);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    if (bad)
        fail();
}

/* The one-sweep passes with a spin bound of one poll: nearly every
 * look-back takes the fallback (each predecessor's digit count from its
 * keys). */
static void test_fallback(void **state)
{
    clprim_context *saved = ctx;
    uint64_t s = tu_seed() ^ 0xfa11u;
    int failures = 0, i;
    (void)state;
    if (!info.has_single_pass)
        skip();
    setenv("CLPRIM_LOOKBACK_SPINS", "1", 1);
    ctx = tu_context(); /* programs built with the new bound */
    for (i = 0; i < 4; ++i) {
        scase c;
        memset(&c, 0, sizeof c);
        c.algorithm = CLPRIM_SORT_ONESWEEP;
        c.key = i < 2 ? CLPRIM_TYPE_UINT32 : CLPRIM_TYPE_INT64;
        c.value_size = i % 2 ? 4 : 0;
        c.dist = i == 3 ? FEW : UNIFORM;
        c.n = 20000 + (size_t)(tu_rand(&s) % 100000);
        c.seed = tu_rand(&s);
        failures += run_case(&c);
    }
    clprim_context_release(ctx);
    ctx = saved;
    unsetenv("CLPRIM_LOOKBACK_SPINS");
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The 64-bit form (positions, counts and split status words, as for n of
 * 2^32 and more) forced on small n: every algorithm and the split. */
static void test_wide(void **state)
{
    clprim_context *saved = ctx;
    uint64_t s = tu_seed() ^ 0x3133u;
    int failures = 0, a, i;
    (void)state;
    setenv("CLPRIM_SORT_WIDE", "1", 1);
    ctx = tu_context();
    for (a = 1; a < CLPRIM_SORT_ALGORITHM_COUNT_; ++a)
        for (i = 0; i < 3; ++i) {
            scase c;
            if (a == CLPRIM_SORT_ONESWEEP && !info.has_single_pass)
                continue;
            memset(&c, 0, sizeof c);
            c.algorithm = (clprim_sort_algorithm)a;
            c.key = i == 0 ? CLPRIM_TYPE_UINT32 : i == 1 ? CLPRIM_TYPE_INT64 : CLPRIM_TYPE_FLOAT;
            c.value_size = i == 1 ? 0 : 8;
            c.descending = i == 2;
            c.dist = i == 2 ? SPECIAL : UNIFORM;
            c.n = i == 0 ? 300 : 20000 + (size_t)(tu_rand(&s) % 50000);
            c.seed = tu_rand(&s);
            failures += run_case(&c);
        }
    clprim_context_release(ctx);
    ctx = saved;
    unsetenv("CLPRIM_SORT_WIDE");
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The segmented sort with 64-bit positions (CLPRIM_SORT_WIDE=1): every
 * other case of segmented_edges. */
static void test_segmented_wide(void **state)
{
    clprim_context *saved = ctx;
    int failures;
    (void)state;
    setenv("CLPRIM_SORT_WIDE", "1", 1);
    ctx = tu_context();
    failures = segmented_edges(tu_seed() ^ 0x5e9a1du, 2);
    clprim_context_release(ctx);
    ctx = saved;
    unsetenv("CLPRIM_SORT_WIDE");
    if (failures)
        fail_msg("%d failing cases", failures);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_onesweep), cmocka_unit_test(test_split_lsb),
        cmocka_unit_test(test_tile_bitonic), cmocka_unit_test(test_chunked),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_split),    cmocka_unit_test(test_host),
        cmocka_unit_test(test_refused),  cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_wide),     cmocka_unit_test(test_one_buffer),
        cmocka_unit_test(test_bit_ranges), cmocka_unit_test(test_segmented),
        cmocka_unit_test(test_segmented_edges), cmocka_unit_test(test_segmented_wrong_offsets),
        cmocka_unit_test(test_segmented_wide),
    };
    int rc;
    if (getenv("TU_FILTER")) /* e.g. "test_segmented*": one part on a slow device */
        cmocka_set_test_filter(getenv("TU_FILTER"));
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

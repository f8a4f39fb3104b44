/* SPDX-License-Identifier: MIT */
/* Merge: both algorithms x the six key types x ascending and descending,
 * keys alone and with values of 1, 4, 8 and 12 bytes, at edge sizes (0, 1,
 * around the SIMD width, the work-group and the tile as the device's
 * tuning row sets them, 2^k +- 1; one range empty or much longer than the
 * other) and random ones up to about 10^6; keys from pools of 1, 16 or
 * many values (long runs of ties, whose order between and within the
 * ranges is the stability under test) and special floats (-0.0, +0.0,
 * +-inf, NaNs of both signs and payloads); fresh random inputs from the
 * test seed, outputs poisoned, every key and value compared with the host
 * reference (tests/reference/), the bytes around the outputs untouched.
 * Then the caller's key types with a `less` (a struct ordered by one
 * field, ties kept stable by another; float2 lexicographic), ranges that
 * are not sorted (each output one of the inputs, nothing written outside),
 * the blocking helper, and the refusals. */
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
enum { ONE, FEW, MANY, SPECIAL, POOLS };
static const char *const pool_names[] = {"one value", "16 values", "many values", "special"};

static clprim_context *ctx;
static size_t row_wg, row_tile, simd;

/* The caller's key types: a record ordered by `key` alone (its `tag`
 * tells ties apart), and float2 ordered by x, then y. */
typedef struct rec {
    cl_int key;
    cl_uint tag;
} rec;
static const char rec_source[] = "typedef struct rec { int key; uint tag; } rec;";
static const char rec_less[] = "a.key < b.key";
static const char f2_less[] = "a.x < b.x || (a.x == b.x && a.y < b.y)";

typedef struct mcase {
    clprim_merge_algorithm algorithm;
    clprim_type key;
    const clprim_element *element; /* the caller's key type (key unused) */
    int user;                      /* 1: rec, 2: float2 */
    int descending, pool, unsorted;
    size_t value_size, na, nb, a_off, b_off, out_off;
    uint64_t seed;
} mcase;

static size_t key_bytes(const mcase *c)
{
    return c->element ? clprim_element_size(c->element) : clprim_type_size(c->key);
}

static void describe(const mcase *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s values %zu, keys from %s%s, na=%zu nb=%zu offsets %zu/%zu/%zu "
             "seed=%llu", clprim_merge_algorithm_name(c->algorithm),
             c->user == 1 ? "rec" : c->user == 2 ? "float2" : clprim_type_name(c->key),
             c->descending ? "descending" : "ascending", c->value_size, pool_names[c->pool],
             c->unsorted ? " unsorted" : "", c->na, c->nb, c->a_off, c->b_off, c->out_off,
             (unsigned long long)c->seed);
}

/* The host order of the caller's types, as their `less` says. */
static int rec_less_host(const void *x, const void *y, const void *user)
{
    rec a, b;
    (void)user;
    memcpy(&a, x, sizeof a);
    memcpy(&b, y, sizeof b);
    return a.key < b.key;
}

static int f2_less_host(const void *x, const void *y, const void *user)
{
    cl_float a[2], b[2];
    (void)user;
    memcpy(a, x, sizeof a);
    memcpy(b, y, sizeof b);
    return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/* n keys drawn as c->pool says, into x; then sorted (unless c->unsorted)
 * as the merge expects them */
static void draw_keys(const mcase *c, const uint64_t *pool, size_t pool_n, unsigned char *x,
                      size_t n, uint64_t *s)
{
    const size_t ks = key_bytes(c);
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint64_t r = tu_rand(s);
        uint64_t v = c->pool == MANY ? tu_rand(s) : pool[r % pool_n];
        if (c->user == 1) { /* keys from the pool's low bits, tags in draw order */
            rec e;
            e.key = (cl_int)(uint32_t)v;
            e.tag = (cl_uint)tu_rand(s);
            memcpy(x + i * ks, &e, ks);
            continue;
        }
        if (c->user == 2) { /* small integers as floats: many ties in x */
            const cl_float f[2] = {(cl_float)(int)(v % 64) - 32.0f, (cl_float)(int)(r % 5)};
            memcpy(x + i * ks, f, ks);
            continue;
        }
        if (c->pool == SPECIAL && r % 3)
            v = tu_special_key(c->key, tu_rand(s));
        memcpy(x + i * ks, &v, ks);
    }
    if (c->unsorted || n < 2)
        return;
    {
        size_t *perm = malloc(n * sizeof *perm);
        unsigned char *tmp = malloc(n * ks);
        if (c->element) { /* a stable sort by the caller's order: merges of halves */
            size_t w;
            for (i = 0; i < n; ++i)
                perm[i] = i;
            for (w = 1; w < n; w *= 2)
                for (i = 0; i + w < n; i += 2 * w) {
                    const size_t nb = i + 2 * w < n ? w : n - i - w;
                    size_t *src = malloc((w + nb) * sizeof *src), k;
                    unsigned char *m = malloc((w + nb) * ks);
                    for (k = 0; k < w + nb; ++k)
                        memcpy(m + k * ks, x + perm[i + k] * ks, ks);
                    clprim_ref_merge_by(m, w, m + w * ks, nb, ks,
                                        c->user == 1 ? rec_less_host : f2_less_host, NULL, src);
                    {
                        size_t *p = malloc((w + nb) * sizeof *p);
                        for (k = 0; k < w + nb; ++k)
                            p[k] = perm[i + src[k]];
                        memcpy(perm + i, p, (w + nb) * sizeof *p);
                        free(p);
                    }
                    free(src);
                    free(m);
                }
        } else {
            clprim_ref_sort(c->key, c->descending, 0, (unsigned)ks * 8, x, n, perm);
        }
        for (i = 0; i < n; ++i)
            memcpy(tmp + i * ks, x + perm[i] * ks, ks);
        memcpy(x, tmp, n * ks);
        free(perm);
        free(tmp);
    }
}

/* Whether the bytes of got outside [off, off + n) elements of elem bytes
 * (total elements) are still the poison. */
static int margins_intact(const unsigned char *got, size_t off, size_t n, size_t total,
                          size_t elem)
{
    size_t i;
    for (i = 0; i < total * elem; ++i)
        if ((i < off * elem || i >= (off + n) * elem) && got[i] != POISON)
            return 0;
    return 1;
}

/* For unsorted ranges: whether every output key (with its value) is one of
 * the inputs' (by a linear search: these cases are small). */
static size_t not_from_inputs(const mcase *c, const unsigned char *ka, const unsigned char *kb,
                              const unsigned char *va, const unsigned char *vb,
                              const unsigned char *gk, const unsigned char *gv)
{
    const size_t ks = key_bytes(c), vs = c->value_size, n = c->na + c->nb;
    size_t k, i;
    for (k = 0; k < n; ++k) {
        int found = 0;
        for (i = 0; i < n && !found; ++i) {
            const unsigned char *key = i < c->na ? ka + i * ks : kb + (i - c->na) * ks;
            const unsigned char *val = i < c->na ? va + i * vs : vb + (i - c->na) * vs;
            found = !memcmp(key, gk + k * ks, ks) && (!vs || !memcmp(val, gv + k * vs, vs));
        }
        if (!found)
            return k;
    }
    return n;
}

/* One case on the device, checked: 0 when right, else prints it and
 * returns 1. */
static int run_case(const mcase *c)
{
    const size_t ks = key_bytes(c), vs = c->value_size, n = c->na + c->nb;
    const size_t tot_k = c->out_off + n + MARGIN;
    uint64_t s = c->seed, pool[16];
    const size_t pool_n = c->pool == ONE ? 1 : 16;
    unsigned char *ain = malloc((c->a_off + c->na) * ks + 1);
    unsigned char *bin = malloc((c->b_off + c->nb) * ks + 1);
    unsigned char *vain = malloc((c->a_off + c->na) * vs + 1);
    unsigned char *vbin = malloc((c->b_off + c->nb) * vs + 1);
    unsigned char *gk = malloc(tot_k * ks), *gv = malloc(tot_k * vs + 1);
    unsigned char *ka = ain + c->a_off * ks, *kb = bin + c->b_off * ks;
    unsigned char *va = vain + c->a_off * vs, *vb = vbin + c->b_off * vs;
    size_t *src = malloc((n + 1) * sizeof *src), i, bad;
    cl_mem bka, bkb, bva = NULL, bvb = NULL, bko, bvo = NULL;
    clprim_merge_desc d;
    clprim_status st;
    char what[400];
    int failed = 0;

    for (i = 0; i < pool_n; ++i)
        pool[i] = tu_rand(&s);
    memset(ain, POISON, (c->a_off + c->na) * ks + 1);
    memset(bin, POISON, (c->b_off + c->nb) * ks + 1);
    draw_keys(c, pool, pool_n, ka, c->na, &s);
    draw_keys(c, pool, pool_n, kb, c->nb, &s);
    for (i = 0; i < (c->a_off + c->na) * vs + 1; ++i)
        vain[i] = (unsigned char)tu_rand(&s);
    for (i = 0; i < (c->b_off + c->nb) * vs + 1; ++i)
        vbin[i] = (unsigned char)tu_rand(&s);
    memset(gk, POISON, tot_k * ks);
    memset(gv, POISON, tot_k * vs + 1);
    bka = tu_buffer(ctx, (c->a_off + c->na) * ks, ain, CL_MEM_READ_ONLY);
    bkb = tu_buffer(ctx, (c->b_off + c->nb) * ks, bin, CL_MEM_READ_ONLY);
    bko = tu_buffer(ctx, tot_k * ks, gk, CL_MEM_READ_WRITE);
    if (vs) {
        bva = tu_buffer(ctx, (c->a_off + c->na) * vs, vain, CL_MEM_READ_ONLY);
        bvb = tu_buffer(ctx, (c->b_off + c->nb) * vs, vbin, CL_MEM_READ_ONLY);
        bvo = tu_buffer(ctx, tot_k * vs, gv, CL_MEM_READ_WRITE);
    }
    memset(&d, 0, sizeof d);
    if (c->element) {
        d.element = c->element;
        d.less = c->user == 1 ? rec_less : f2_less;
    } else {
        d.key_type = c->key;
        d.descending = c->descending;
    }
    d.value_size = vs;
    d.algorithm = c->algorithm;
    st = clprim_merge(ctx, NULL, &d, bka, c->a_off, c->na, bkb, c->b_off, c->nb, bva,
                      vs ? c->a_off : 0, bvb, vs ? c->b_off : 0, bko, c->out_off, bvo,
                      vs ? c->out_off : 0, 0, NULL, NULL);
    describe(c, what, sizeof what);
    if (st != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "FAILED %s: %s (%s)\n", what, clprim_status_string(st), why);
        failed = 1;
        goto done;
    }
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), bko, CL_TRUE, 0, tot_k * ks,
                                         gk, 0, NULL, NULL), CL_SUCCESS);
    if (vs)
        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), bvo, CL_TRUE, 0,
                                             tot_k * vs, gv, 0, NULL, NULL), CL_SUCCESS);
    if (c->unsorted) {
        bad = not_from_inputs(c, ka, kb, va, vb, gk + c->out_off * ks, gv + c->out_off * vs);
        if (bad != n) {
            fprintf(stderr, "FAILED %s: output %zu is none of the inputs' pairs\n", what, bad);
            failed = 1;
        }
    } else {
        if (c->element)
            clprim_ref_merge_by(ka, c->na, kb, c->nb, ks,
                                c->user == 1 ? rec_less_host : f2_less_host, NULL, src);
        else
            clprim_ref_merge(c->key, c->descending, ka, c->na, kb, c->nb, src);
        bad = clprim_ref_merged_check(ka, c->na, kb, ks, src, gk + c->out_off * ks, n);
        if (bad == n && vs)
            bad = clprim_ref_merged_check(va, c->na, vb, vs, src, gv + c->out_off * vs, n);
        if (bad != n) {
            uint64_t got = 0, want = 0;
            memcpy(&got, gk + (c->out_off + bad) * ks, ks < 8 ? ks : 8);
            memcpy(&want, src[bad] < c->na ? ka + src[bad] * ks : kb + (src[bad] - c->na) * ks,
                   ks < 8 ? ks : 8);
            fprintf(stderr, "FAILED %s: output %zu: key bits 0x%llx, expected 0x%llx (from %s %zu)"
                    " or its value\n", what, bad, (unsigned long long)got,
                    (unsigned long long)want, src[bad] < c->na ? "a" : "b",
                    src[bad] < c->na ? src[bad] : src[bad] - c->na);
            failed = 1;
        }
    }
    if (!failed && (!margins_intact(gk, c->out_off, n, tot_k, ks) ||
                    (vs && !margins_intact(gv, c->out_off, n, tot_k, vs)))) {
        fprintf(stderr, "FAILED %s: written outside the output\n", what);
        failed = 1;
    }
done:
    clReleaseMemObject(bka);
    clReleaseMemObject(bkb);
    clReleaseMemObject(bko);
    if (vs) {
        clReleaseMemObject(bva);
        clReleaseMemObject(bvb);
        clReleaseMemObject(bvo);
    }
    free(ain);
    free(bin);
    free(vain);
    free(vbin);
    free(gk);
    free(gv);
    free(src);
    return failed;
}

/* A range length around what the kernels depend on: the SIMD width, the
 * work-group, the tile, powers of two; or random. */
static size_t edge_len(uint64_t *s)
{
    const size_t T = row_tile, wg = row_wg;
    const size_t sizes[] = {0,      1,      2,       simd - 1, simd + 1, wg - 1,   wg,
                            wg + 1, T - 1,  T,       T + 1,    2 * T - 1, 2 * T + 1, 3 * T / 2,
                            1023,   1025,   65535,   65537};
    const uint64_t r = tu_rand(s);
    return r % 4 == 0 ? (size_t)(tu_rand(s) % 20000) : sizes[r % (sizeof sizes / sizeof *sizes)];
}

static void offsets(mcase *c, uint64_t *s)
{
    c->a_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
    c->b_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
    c->out_off = tu_rand(s) % 3 ? 0 : (size_t)(tu_rand(s) % 37);
}

/* Every key type x direction, keys alone and with values, edge lengths
 * and a pool each; then larger ones. */
static int run_algorithm(clprim_merge_algorithm a, size_t large)
{
    static const size_t value_sizes[] = {0, 4, 8, 12, 1};
    uint64_t s = tu_seed() ^ (0x3e26eu + (uint64_t)a * 7919u);
    int failures = 0;
    size_t t, dir, v;
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t)
        for (dir = 0; dir < 2; ++dir)
            for (v = 0; v < 3; ++v) {
                mcase c;
                memset(&c, 0, sizeof c);
                c.algorithm = a;
                c.key = key_types[t];
                c.descending = (int)dir;
                /* values of every size with 4- and 8-byte keys, a few programs each */
                c.value_size = v == 0 ? 0 : value_sizes[1 + (t + dir + v) % 4];
                c.pool = (int)((t + dir + v) % POOLS);
                c.na = edge_len(&s);
                c.nb = edge_len(&s);
                offsets(&c, &s);
                c.seed = tu_rand(&s);
                failures += run_case(&c);
            }
    for (t = 0; t < sizeof key_types / sizeof *key_types; ++t) {
        mcase c;
        memset(&c, 0, sizeof c);
        c.algorithm = a;
        c.key = key_types[t];
        c.descending = (int)(tu_rand(&s) % 2);
        c.value_size = t % 3 ? 0 : 4;
        c.pool = t % 2 ? MANY : (int)(tu_rand(&s) % POOLS);
        c.na = (size_t)(tu_rand(&s) % large);
        c.nb = t == 2 ? (size_t)(tu_rand(&s) % 100) : (size_t)(tu_rand(&s) % large);
        c.seed = tu_rand(&s);
        failures += run_case(&c);
    }
    return failures;
}

static void test_corank(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_MERGE_CORANK, 200000))
        fail();
}

static void test_tiled(void **state)
{
    (void)state;
    if (run_algorithm(CLPRIM_MERGE_TILED, 1000000))
        fail();
}

/* AUTO at every edge length, on the float edges and on runs of one key
 * (every output a tie: the stability of both ranges' order). */
static void test_edges(void **state)
{
    uint64_t s = tu_seed() ^ 0xed9e5u;
    int failures = 0;
    size_t k;
    (void)state;
    for (k = 0; k < 24; ++k) {
        mcase c;
        memset(&c, 0, sizeof c);
        c.algorithm = CLPRIM_MERGE_AUTO;
        c.key = k % 2 ? CLPRIM_TYPE_FLOAT : CLPRIM_TYPE_DOUBLE;
        c.descending = (int)(k / 2 % 2);
        c.value_size = k % 3 ? 0 : 4;
        c.pool = k % 4 == 3 ? ONE : SPECIAL;
        c.na = edge_len(&s);
        c.nb = edge_len(&s);
        offsets(&c, &s);
        c.seed = tu_rand(&s);
        failures += run_case(&c);
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The caller's key types: ties of rec keys stay in order (tags tell), and
 * float2 ordered by both fields; both algorithms, with values. */
static void test_user(void **state)
{
    uint64_t s = tu_seed() ^ 0x05e4u;
    clprim_element_desc ed;
    clprim_element *er = NULL, *ef = NULL;
    int failures = 0, user;
    (void)state;
    memset(&ed, 0, sizeof ed);
    ed.type = "rec";
    ed.source = rec_source;
    ed.size = sizeof(rec);
    assert_int_equal(clprim_element_create(ctx, &ed, &er), CLPRIM_SUCCESS);
    memset(&ed, 0, sizeof ed);
    ed.type = "float2";
    ed.size = 2 * sizeof(cl_float);
    assert_int_equal(clprim_element_create(ctx, &ed, &ef), CLPRIM_SUCCESS);
    for (user = 1; user <= 2; ++user) {
        size_t k;
        for (k = 0; k < 8; ++k) {
            mcase c;
            memset(&c, 0, sizeof c);
            c.algorithm = k % 2 ? CLPRIM_MERGE_TILED : CLPRIM_MERGE_CORANK;
            c.element = user == 1 ? er : ef;
            c.user = user;
            c.value_size = k / 2 % 2 ? 4 : 0;
            c.pool = k < 4 ? FEW : MANY;
            c.na = k == 7 ? 50000 : edge_len(&s);
            c.nb = k == 7 ? 70001 : edge_len(&s);
            offsets(&c, &s);
            c.seed = tu_rand(&s);
            failures += run_case(&c);
        }
    }
    {
        /* a less that does not compile: the compiler's log in the message */
        cl_mem m = tu_buffer(ctx, 64, NULL, CL_MEM_READ_WRITE);
        cl_mem o = tu_buffer(ctx, 64, NULL, CL_MEM_READ_WRITE);
        clprim_merge_desc d;
        memset(&d, 0, sizeof d);
        d.element = er;
        d.less = "a.nosuchfield < b.key";
        failures += tu_refused(ctx, clprim_merge(ctx, NULL, &d, m, 0, 2, m, 4, 2, NULL, 0, NULL, 0,
                                                 o, 0, NULL, 0, 0, NULL, NULL),
                               CLPRIM_BUILD_FAILED, "nosuchfield") != 0;
        clReleaseMemObject(m);
        clReleaseMemObject(o);
    }
    clprim_element_release(er);
    clprim_element_release(ef);
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* Ranges that are not sorted: each output one of the inputs' pairs,
 * nothing written outside (a read outside would show on a checking
 * device). */
static void test_unsorted(void **state)
{
    uint64_t s = tu_seed() ^ 0x0450u;
    int failures = 0, a;
    (void)state;
    for (a = 1; a < CLPRIM_MERGE_ALGORITHM_COUNT_; ++a) {
        size_t k;
        for (k = 0; k < 4; ++k) {
            mcase c;
            memset(&c, 0, sizeof c);
            c.algorithm = (clprim_merge_algorithm)a;
            c.key = k % 2 ? CLPRIM_TYPE_INT64 : CLPRIM_TYPE_UINT32;
            c.descending = (int)(k / 2);
            c.value_size = k % 2 ? 0 : 4;
            c.pool = MANY;
            c.unsorted = 1;
            c.na = (size_t)(tu_rand(&s) % 3000);
            c.nb = (size_t)(tu_rand(&s) % 3000);
            c.seed = tu_rand(&s);
            failures += run_case(&c);
        }
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

/* The blocking helper: int32 pairs with runs, and keys alone; empty
 * ranges. */
static void test_host(void **state)
{
    uint64_t s = tu_seed() ^ 0x4057u;
    const size_t na = 30001, nb = 20000, n = na + nb;
    int32_t *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *got = malloc(n * 4);
    uint32_t *va = malloc(na * 4), *vb = malloc(nb * 4), *gv = malloc(n * 4);
    size_t *src = malloc(n * sizeof *src), i;
    clprim_merge_desc d;
    (void)state;
    for (i = 0; i < na; ++i) {
        a[i] = (int32_t)(i / 3) - 5000 + (int32_t)(tu_rand(&s) % 2);
        va[i] = (uint32_t)i;
    }
    for (i = 0; i < nb; ++i) {
        b[i] = (int32_t)(i / 2) - 5000 + (int32_t)(tu_rand(&s) % 3);
        vb[i] = (uint32_t)(na + i);
    }
    for (i = 1; i < na; ++i)
        a[i] = a[i] < a[i - 1] ? a[i - 1] : a[i];
    for (i = 1; i < nb; ++i)
        b[i] = b[i] < b[i - 1] ? b[i - 1] : b[i];
    memset(&d, 0, sizeof d);
    d.value_size = 4;
    clprim_ref_merge(CLPRIM_TYPE_INT32, 0, a, na, b, nb, src);
    assert_int_equal(clprim_merge_host(ctx, &d, a, va, na, b, vb, nb, got, gv), CLPRIM_SUCCESS);
    assert_int_equal(clprim_ref_merged_check(a, na, b, 4, src, got, n), n);
    for (i = 0; i < n; ++i)
        assert_int_equal(gv[i], src[i]);
    d.value_size = 0;
    memset(got, 0, n * 4);
    assert_int_equal(clprim_merge_host(ctx, &d, a, NULL, na, b, NULL, nb, got, NULL),
                     CLPRIM_SUCCESS);
    assert_int_equal(clprim_ref_merged_check(a, na, b, 4, src, got, n), n);
    /* one range empty: the other copied; both empty: nothing */
    assert_int_equal(clprim_merge_host(ctx, &d, NULL, NULL, 0, b, NULL, nb, got, NULL),
                     CLPRIM_SUCCESS);
    assert_memory_equal(got, b, nb * 4);
    assert_int_equal(clprim_merge_host(ctx, &d, NULL, NULL, 0, NULL, NULL, 0, NULL, NULL),
                     CLPRIM_SUCCESS);
    free(a);
    free(b);
    free(got);
    free(va);
    free(vb);
    free(gv);
    free(src);
}

static void test_refused(void **state)
{
    clprim_merge_desc d;
    cl_mem a = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_WRITE);
    cl_mem b = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_WRITE);
    cl_mem ro = tu_buffer(ctx, 4096, NULL, CL_MEM_READ_ONLY);
    clprim_element_desc ed;
    clprim_element *big = NULL, *small = NULL;
    uint32_t host[8] = {0};
    int bad = 0;
    (void)state;
    memset(&ed, 0, sizeof ed);
    ed.type = "ulong16"; /* 128 bytes: past what a merge holds per key */
    ed.size = 128;
    assert_int_equal(clprim_element_create(ctx, &ed, &big), CLPRIM_SUCCESS);
    ed.type = "uint";
    ed.size = 4;
    assert_int_equal(clprim_element_create(ctx, &ed, &small), CLPRIM_SUCCESS);
    memset(&d, 0, sizeof d);
#define MERGE(da, na, db, nb, va, vb, o, oo, vo)                                                  \
    clprim_merge(ctx, NULL, &d, da, 0, na, db, 0, nb, va, 0, vb, 0, o, oo, vo, 0, 0, NULL, NULL)
    bad |= tu_refused(ctx, clprim_merge(ctx, NULL, NULL, a, 0, 4, a, 4, 4, NULL, 0, NULL, 0, b, 0,
                                        NULL, 0, 0, NULL, NULL), CLPRIM_INVALID_ARGUMENT, "desc");
    d.key_type = (clprim_type)77;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_UNKNOWN_TYPE,
                      "key_type");
    d.key_type = CLPRIM_TYPE_INT32;
    d.descending = 2;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "descending");
    d.descending = 0;
    d.less = "a < b";
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "less");
    d.less = NULL;
    d.element = small;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "less");
    d.less = " ";
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "empty");
    d.less = "a < b";
    d.key_type = CLPRIM_TYPE_FLOAT;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "key_type");
    d.key_type = CLPRIM_TYPE_INT32;
    d.descending = 1;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "descending");
    d.descending = 0;
    d.element = big;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "64");
    d.element = NULL;
    d.less = NULL;
    d.value_size = 65;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, a, a, b, 0, b), CLPRIM_INVALID_ARGUMENT,
                      "value_size");
    d.value_size = 4;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, a, b, 0, b), CLPRIM_INVALID_ARGUMENT,
                      "values_a");
    d.value_size = 0;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, a, a, b, 0, b), CLPRIM_INVALID_ARGUMENT,
                      "value_size is 0");
    d.algorithm = (clprim_merge_algorithm)3;
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_UNKNOWN_ALGORITHM,
                      "algorithm");
    d.algorithm = CLPRIM_MERGE_AUTO;
    bad |= tu_refused(ctx, MERGE(a, 4, b, 4, NULL, NULL, a, 2, NULL), CLPRIM_INVALID_ARGUMENT,
                      "overlap");
    bad |= tu_refused(ctx, MERGE(a, 4, a, 4, NULL, NULL, ro, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "read-only");
    bad |= tu_refused(ctx, MERGE(a, 2000, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_OUT_OF_BOUNDS,
                      "keys_a");
    bad |= tu_refused(ctx, MERGE(a, 4, a, 1030, NULL, NULL, b, 0, NULL), CLPRIM_OUT_OF_BOUNDS,
                      "keys_b");
    bad |= tu_refused(ctx, MERGE(a, 600, a, 600, NULL, NULL, b, 0, NULL), CLPRIM_OUT_OF_BOUNDS,
                      "keys_out");
    bad |= tu_refused(ctx, MERGE(NULL, 0, a, 4, NULL, NULL, b, 0, NULL), CLPRIM_INVALID_ARGUMENT,
                      "keys_a");
    bad |= tu_refused(ctx, MERGE(a, (size_t)-1, a, 4, NULL, NULL, b, 0, NULL),
                      CLPRIM_OUT_OF_BOUNDS, "overflow");
    bad |= tu_refused(ctx, clprim_merge_host(ctx, NULL, host, NULL, 4, host, NULL, 4, host, NULL),
                      CLPRIM_INVALID_ARGUMENT, "desc");
    bad |= tu_refused(ctx, clprim_merge_host(ctx, &d, NULL, NULL, 4, host, NULL, 4, host, NULL),
                      CLPRIM_INVALID_ARGUMENT, "keys_a");
    bad |= tu_refused(ctx, clprim_merge_host(ctx, &d, host, NULL, 4, host, NULL, 4, NULL, NULL),
                      CLPRIM_INVALID_ARGUMENT, "keys_out");
    bad |= tu_refused(ctx, clprim_merge_host(ctx, &d, host, host, 4, host, NULL, 4, host, NULL),
                      CLPRIM_INVALID_ARGUMENT, "value_size is 0");
    d.value_size = 4;
    bad |= tu_refused(ctx, clprim_merge_host(ctx, &d, host, host, 4, host, NULL, 4, host, host),
                      CLPRIM_INVALID_ARGUMENT, "values");
#undef MERGE
    assert_int_equal(clprim_merge(NULL, NULL, &d, a, 0, 4, a, 0, 4, a, 0, a, 0, b, 0, b, 0, 0,
                                  NULL, NULL), CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_merge_host(NULL, &d, host, host, 4, host, host, 4, host, host),
                     CLPRIM_INVALID_ARGUMENT);
    assert_string_equal(clprim_merge_algorithm_name(CLPRIM_MERGE_TILED), "tiled");
    assert_string_equal(clprim_merge_algorithm_name(CLPRIM_MERGE_CORANK), "corank");
    assert_null(clprim_merge_algorithm_name(CLPRIM_MERGE_ALGORITHM_COUNT_));
    clprim_element_release(big);
    clprim_element_release(small);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(ro);
    if (bad)
        fail();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corank),   cmocka_unit_test(test_tiled),
        cmocka_unit_test(test_edges),    cmocka_unit_test(test_user),
        cmocka_unit_test(test_unsorted), cmocka_unit_test(test_host),
        cmocka_unit_test(test_refused),
    };
    char line[1024];
    clprim_device_info info;
    int rc;
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    simd = info.simd_width > 1 ? info.simd_width : 2;
    clprim_context_tuning(ctx, "merge", 4, 1000, line, sizeof line);
    row_wg = tu_row_value(line, "wg_size");
    row_tile = row_wg * tu_row_value(line, "items");
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

/* SPDX-License-Identifier: MIT */
/* Issue 32: the sub-group forms at every sub-group size a device offers.
 * CLPRIM_SUB_GROUP_SIZE builds every tile kernel with that required size
 * (cl_intel_required_subgroup_size), so on a device that lists several
 * (Intel's CPU runtime: 4, 8, 16, 32, 64) each size runs the scans, the
 * reduce, a compaction, a segmented scan, the sorts and a summed-area
 * table through its sub-group shuffles, every result against the host.
 * A size the device does not list is refused at context creation, with a
 * message naming the knob (everywhere: 3, and the sizes missing from the
 * list; PoCL and NVIDIA list none). Where sub-groups or NVIDIA's PTX are
 * the default form, the local-memory form (CLPRIM_SUBGROUPS=0, CLPRIM_PTX=0)
 * runs the same checks. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define SIZES_INTEL 0x4108 /* CL_DEVICE_SUB_GROUP_SIZES_INTEL */

static clprim_context *ctx;

/* Whether the device lists size among its sub-group sizes. */
static int offered(size_t size)
{
    size_t sizes[16] = {0}, bytes = 0;
    if (clGetDeviceInfo(clprim_context_device(ctx), SIZES_INTEL, sizeof sizes, sizes, &bytes) !=
        CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < bytes / sizeof sizes[0]; ++i)
        if (sizes[i] == size)
            return 1;
    return 0;
}

/* A context with knob=value, or NULL with *st its status. */
static clprim_context *context_with(const char *knob, unsigned value, clprim_status *st)
{
    char v[16];
    clprim_context *c = NULL;
    snprintf(v, sizeof v, "%u", value);
    setenv(knob, v, 1);
    *st = clprim_context_create(NULL, &c);
    unsetenv(knob);
    return *st == CLPRIM_SUCCESS ? c : NULL;
}

static clprim_context *context_at(unsigned size, clprim_status *st)
{
    return context_with("CLPRIM_SUB_GROUP_SIZE", size, st);
}

static void test_refused(void **state)
{
    static const unsigned sizes[] = {3, 4, 8, 16, 32, 64};
    (void)state;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        clprim_status st;
        if (sizes[k] != 3 && offered(sizes[k]))
            continue;
        clprim_context *c = context_at(sizes[k], &st);
        assert_null(c);
        assert_int_equal(st, CLPRIM_UNSUPPORTED);
    }
}

static size_t scans(clprim_context *c, unsigned size, uint64_t *seed)
{
    static const clprim_scan_algorithm algos[] = {CLPRIM_SCAN_KOGGE_STONE, CLPRIM_SCAN_MULTILEVEL,
                                                  CLPRIM_SCAN_DECOUPLED_LOOKBACK};
    static const size_t ns[] = {1, 100, 4097, 100003};
    static const clprim_type types[] = {CLPRIM_TYPE_INT32, CLPRIM_TYPE_FLOAT};
    size_t failures = 0;
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; ++a)
        for (size_t t = 0; t < 2; ++t)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
                const tu_case cs = {algos[a], types[t], CLPRIM_OP_SUM, (int)(i & 1), ns[i],
                                    i == 3 ? 3 : 0, i == 3 ? 5 : 0, 0, tu_rand(seed), 0};
                if (tu_run_case(c, &cs)) {
                    print_error("sub-group size %u: the scan above\n", size);
                    ++failures;
                }
            }
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
        const tu_reduce_case rc = {CLPRIM_REDUCE_FAST, i & 1 ? CLPRIM_TYPE_FLOAT : CLPRIM_TYPE_INT64,
                                   i & 2 ? CLPRIM_OP_MAX : CLPRIM_OP_SUM, ns[i] * 3, 0, 1,
                                   tu_rand(seed)};
        if (tu_run_reduce_case(c, &rc)) {
            print_error("sub-group size %u: the reduce above\n", size);
            ++failures;
        }
    }
    return failures;
}

/* select (x > 0) in both single-pass forms, and a segmented sum by uint8
 * flags, against the host. */
static size_t compactions(clprim_context *c, unsigned size, uint64_t *seed)
{
    const size_t n = 70001;
    cl_int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
           *want = malloc(n * sizeof *want);
    unsigned char *flags = malloc(n);
    size_t failures = 0;
    assert_true(in && out && want && flags);
    for (size_t i = 0; i < n; ++i) {
        in[i] = (cl_int)(tu_rand(seed) % 2001) - 1000;
        flags[i] = i == 0 || tu_rand(seed) % 97 == 0;
    }
    static const clprim_compact_algorithm algos[] = {CLPRIM_COMPACT_SINGLE_PASS,
                                                     CLPRIM_COMPACT_THREE_PASS};
    const cl_int zero = 0;
    for (size_t a = 0; a < 2; ++a) {
        clprim_compact_desc d = {0};
        size_t count = 0, m = 0;
        d.type = CLPRIM_TYPE_INT32;
        d.predicate = CLPRIM_PREDICATE_GREATER;
        d.value = &zero;
        d.algorithm = algos[a];
        memset(out, 0xa5, n * sizeof *out);
        assert_int_equal(clprim_select_host(c, &d, in, NULL, out, n, &count), CLPRIM_SUCCESS);
        for (size_t i = 0; i < n; ++i)
            if (in[i] > 0)
                want[m++] = in[i];
        if (count != m || memcmp(out, want, m * sizeof *out)) {
            print_error("sub-group size %u: select (%s) kept %zu, not %zu, or other values\n",
                        size, clprim_compact_algorithm_name(algos[a]), count, m);
            ++failures;
        }
    }
    {
        clprim_scan_desc d = {0};
        clprim_segments s = {0};
        cl_int acc = 0;
        s.kind = CLPRIM_SEGMENTS_FLAGS_U8;
        memset(out, 0xa5, n * sizeof *out);
        assert_int_equal(clprim_segmented_scan_host(c, &d, &s, flags, in, out, n), CLPRIM_SUCCESS);
        for (size_t i = 0; i < n; ++i) {
            acc = flags[i] ? in[i] : acc + in[i];
            if (out[i] != acc) {
                print_error("sub-group size %u: segmented scan at %zu: %d, not %d\n", size, i,
                            out[i], acc);
                ++failures;
                break;
            }
        }
    }
    free(in);
    free(out);
    free(want);
    free(flags);
    return failures;
}

static int cmp_u32(const void *a, const void *b)
{
    const cl_uint x = *(const cl_uint *)a, y = *(const cl_uint *)b;
    return (x > y) - (x < y);
}

/* Every sort algorithm on uint32 keys, and an int32 summed-area table. */
static size_t sorts_and_tables(clprim_context *c, unsigned size, uint64_t *seed)
{
    const size_t n = 50021, w = 173, h = 61;
    cl_uint *keys = malloc(n * sizeof *keys), *want = malloc(n * sizeof *want);
    cl_int *img = malloc(w * h * sizeof *img), *sat = malloc(w * h * sizeof *sat);
    size_t failures = 0;
    assert_true(keys && want && img && sat);
    static const clprim_sort_algorithm algos[] = {CLPRIM_SORT_ONESWEEP, CLPRIM_SORT_SPLIT_LSB,
                                                  CLPRIM_SORT_TILE_BITONIC};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; ++a) {
        clprim_sort_desc d = {0};
        d.key_type = CLPRIM_TYPE_UINT32;
        d.algorithm = algos[a];
        for (size_t i = 0; i < n; ++i)
            want[i] = keys[i] = (cl_uint)tu_rand(seed);
        qsort(want, n, sizeof *want, cmp_u32);
        assert_int_equal(clprim_sort_host(c, &d, keys, NULL, n), CLPRIM_SUCCESS);
        if (memcmp(keys, want, n * sizeof *keys)) {
            print_error("sub-group size %u: sort (%s) differs from the host's\n", size,
                        clprim_sort_algorithm_name(algos[a]));
            ++failures;
        }
    }
    {
        clprim_sat_desc d = {0};
        for (size_t i = 0; i < w * h; ++i)
            img[i] = (cl_int)(tu_rand(seed) % 201) - 100;
        memset(sat, 0xa5, w * h * sizeof *sat);
        assert_int_equal(clprim_sat_host(c, &d, img, w, sat, w, w, h), CLPRIM_SUCCESS);
        for (size_t y = 0; y < h && !failures; ++y)
            for (size_t x = 0; x < w; ++x) {
                cl_int v = 0;
                for (size_t yy = 0; yy <= y; ++yy)
                    for (size_t xx = 0; xx <= x; ++xx)
                        v += img[yy * w + xx];
                if (sat[y * w + x] != v) {
                    print_error("sub-group size %u: table at (%zu, %zu): %d, not %d\n", size,
                                x, y, sat[y * w + x], v);
                    ++failures;
                    break;
                }
            }
    }
    free(keys);
    free(want);
    free(img);
    free(sat);
    return failures;
}

static void test_sizes(void **state)
{
    static const unsigned sizes[] = {4, 8, 16, 32, 64};
    uint64_t seed = tu_seed() ^ 0x5b;
    size_t failures = 0, ran = 0;
    (void)state;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        clprim_status st;
        clprim_device_info info;
        if (!offered(sizes[k]))
            continue;
        clprim_context *c = context_at(sizes[k], &st);
        assert_int_equal(st, CLPRIM_SUCCESS);
        assert_int_equal(clprim_context_device_info(c, &info), CLPRIM_SUCCESS);
        assert_int_equal(info.simd_width, sizes[k]);
        failures += scans(c, sizes[k], &seed) + compactions(c, sizes[k], &seed) +
                    sorts_and_tables(c, sizes[k], &seed);
        clprim_context_release(c);
        ++ran;
    }
    print_message("%zu sub-group sizes offered and run\n", ran);
    if (!ran)
        skip();
    assert_int_equal(failures, 0);
}

/* Where sub-groups or PTX are the default form, the local-memory form too
 * (CLPRIM_SUBGROUPS=0 / CLPRIM_PTX=0), on the same checks. */
static void test_local_form(void **state)
{
    clprim_device_info info;
    clprim_status st;
    uint64_t seed = tu_seed() ^ 0x10c;
    (void)state;
    assert_int_equal(clprim_context_device_info(ctx, &info), CLPRIM_SUCCESS);
    if (!info.has_subgroups && !info.has_nv_ptx)
        skip();
    clprim_context *c = context_with(info.has_nv_ptx ? "CLPRIM_PTX" : "CLPRIM_SUBGROUPS", 0, &st);
    assert_int_equal(st, CLPRIM_SUCCESS);
    /* the knob is honoured, not quietly ignored */
    assert_int_equal(clprim_context_device_info(c, &info), CLPRIM_SUCCESS);
    assert_int_equal(info.has_nv_ptx, 0);
    const size_t failures = scans(c, info.simd_width, &seed) +
                            compactions(c, info.simd_width, &seed) +
                            sorts_and_tables(c, info.simd_width, &seed);
    clprim_context_release(c);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_refused), cmocka_unit_test(test_sizes),
                                       cmocka_unit_test(test_local_form)};
    int failed;
    ctx = tu_context();
    failed = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return failed;
}

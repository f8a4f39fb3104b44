/* SPDX-License-Identifier: MIT */
/* Kernel argument lists against the kernels' own signatures: the launch
 * layer's count check (CL_KERNEL_NUM_ARGS) refuses a list of the wrong
 * length, naming the kernel and both counts; and with the check on (as in
 * debug builds; this test turns it on in any build through the library's
 * test seam) every kernel of every primitive is launched once, so a list
 * that drifted from its kernel fails here with CLPRIM_INTERNAL. */
#include "common/testutil.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* the launch layer's (src/internal.h; the static library has them) */
typedef struct clprim__arg {
    const void *value;
    size_t size;
} clprim__arg;
extern int clprim__check_kernel_args;
clprim_status clprim__check_arg_count(clprim_context *ctx, cl_kernel k, size_t count);
clprim_status clprim__set_args(clprim_context *ctx, cl_kernel k, const clprim__arg *args,
                               size_t count);

#define N 100000 /* several tiles, and levels, of every primitive */

static clprim_context *ctx;
static clprim_device_info info;

/* 0 when st is CLPRIM_SUCCESS; else prints what failed and the context's
 * message. */
static int ok(clprim_status st, const char *what)
{
    char why[1024] = "";
    if (st == CLPRIM_SUCCESS)
        return 0;
    clprim_context_last_error(ctx, why, sizeof why);
    fprintf(stderr, "%s: %s: %s\n", what, clprim_status_string(st), why);
    return -1;
}

static cl_mem buffer(size_t bytes, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clprim_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              (void *)host, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* The check itself: a kernel of three arguments given two, three, four. */
static void test_check_fails(void **state)
{
    static const char *src = "kernel void three_args(global int *a, int b, ulong c) "
                             "{ a[get_global_id(0)] = b + (int)c; }\n";
    cl_device_id dev = clprim_context_device(ctx);
    cl_int err;
    cl_program prog = clCreateProgramWithSource(clprim_context_cl_context(ctx), 1, &src, NULL,
                                                &err);
    cl_kernel k;
    cl_mem a = buffer(64, NULL);
    const cl_int b = 1;
    const cl_ulong c = 2;
    const clprim__arg args[] = {{&a, sizeof a}, {&b, sizeof b}, {&c, sizeof c}, {&c, sizeof c}};
    char msg[512];
    (void)state;
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(prog, 1, &dev, "", NULL, NULL), CL_SUCCESS);
    k = clCreateKernel(prog, "three_args", &err);
    assert_int_equal(err, CL_SUCCESS);

    assert_int_equal(clprim__check_arg_count(ctx, k, 3), CLPRIM_SUCCESS);
    assert_int_equal(tu_refused(ctx, clprim__check_arg_count(ctx, k, 2), CLPRIM_INTERNAL,
                                "three_args"), 0);
    clprim_context_last_error(ctx, msg, sizeof msg);
    assert_non_null(strstr(msg, "takes 3 arguments but was given 2"));
    assert_int_equal(tu_refused(ctx, clprim__check_arg_count(ctx, k, 4), CLPRIM_INTERNAL,
                                "takes 3 arguments but was given 4"), 0);
    /* through the launch layer's setter, with the check on */
    clprim__check_kernel_args = 1;
    assert_int_equal(clprim__set_args(ctx, k, args, 3), CLPRIM_SUCCESS);
    assert_int_equal(tu_refused(ctx, clprim__set_args(ctx, k, args, 2), CLPRIM_INTERNAL,
                                "kernel three_args takes 3 arguments but was given 2"), 0);
    assert_int_equal(tu_refused(ctx, clprim__set_args(ctx, k, args, 4), CLPRIM_INTERNAL,
                                "kernel three_args takes 3 arguments but was given 4"), 0);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseMemObject(a);
}

static int32_t *ones(size_t n)
{
    int32_t *p = malloc(n * sizeof *p);
    size_t i;
    assert_non_null(p);
    for (i = 0; i < n; ++i)
        p[i] = 1;
    return p;
}

/* Every scan algorithm (tiles, levels, the add and reduce kernels), with a
 * transform (the plain program below) and a carry-in; every reduce
 * algorithm (the trees' five arguments, reduce_fast's six), with a
 * transform; the element probe of a custom operator. */
static void test_scan_reduce(void **state)
{
    static const clprim_transform twice = {CLPRIM_TYPE_INT32, "2 * x"};
    const clprim_operator_desc od = {"int", NULL, "a + b", "0", 4, CLPRIM_OPERATOR_COMMUTATIVE,
                                     NULL, 0, NULL};
    int32_t *in = ones(N), *out = malloc(N * sizeof *out), init = 5, value = 0;
    clprim_operator *op = NULL;
    int a, fails = 0;
    (void)state;
    assert_non_null(out);
    for (a = 0; a < CLPRIM_SCAN_ALGORITHM_COUNT_; ++a) {
        clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, (clprim_scan_algorithm)a,
                              NULL, NULL, CLPRIM_REPRO_NONE};
        char what[96];
        if ((a == CLPRIM_SCAN_DOMINO || a == CLPRIM_SCAN_DECOUPLED_LOOKBACK) &&
            !info.has_single_pass)
            continue;
        snprintf(what, sizeof what, "scan %s", clprim_scan_algorithm_name(d.algorithm));
        fails |= ok(clprim_scan_host(ctx, &d, in, out, N), what);
        fails |= out[N - 1] != N;
        d.exclusive = 1;
        d.transform = &twice;
        fails |= ok(clprim_scan_init_host(ctx, &d, &init, in, out, N), what);
        fails |= out[N - 1] != 5 + 2 * (N - 1);
    }
    for (a = 0; a < CLPRIM_REDUCE_ALGORITHM_COUNT_; ++a) {
        clprim_reduce_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, (clprim_reduce_algorithm)a,
                                NULL, NULL, CLPRIM_REPRO_NONE};
        fails |= ok(clprim_reduce_host(ctx, &d, in, N, &value), "reduce");
        fails |= value != N;
        d.transform = &twice;
        fails |= ok(clprim_reduce_host(ctx, &d, in, N, &value), "reduce with a transform");
        fails |= value != 2 * N;
    }
    fails |= ok(clprim_operator_create(ctx, &od, &op), "the element probe");
    clprim_operator_release(op);
    free(in);
    free(out);
    assert_int_equal(fails, 0);
}

/* select (both algorithms, with indices), partition (its count kernel),
 * unique, run-length encoding. */
static void test_compact(void **state)
{
    int32_t *h = ones(N);
    cl_mem in, out, lengths, count, indices;
    const int32_t zero = 0;
    cl_command_queue q = clprim_context_queue(ctx);
    int a, fails = 0;
    size_t i;
    (void)state;
    for (i = 0; i < N; ++i)
        h[i] = (int32_t)(i / 7 % 5);
    in = buffer(N * 4, h);
    out = buffer(N * 4, NULL);
    lengths = buffer(N * 8, NULL);
    count = buffer(8, NULL);
    indices = buffer(N * 8, NULL);
    for (a = 1; a < CLPRIM_COMPACT_ALGORITHM_COUNT_; ++a) {
        clprim_compact_desc d;
        if (a == CLPRIM_COMPACT_SINGLE_PASS && !info.has_single_pass)
            continue;
        memset(&d, 0, sizeof d);
        d.type = CLPRIM_TYPE_INT32;
        d.predicate = CLPRIM_PREDICATE_GREATER;
        d.value = &zero;
        d.algorithm = (clprim_compact_algorithm)a;
        fails |= ok(clprim_select(ctx, NULL, &d, in, 0, out, 0, N, count, 0, 0, NULL, NULL),
                    "select");
        d.indices = indices;
        fails |= ok(clprim_select(ctx, NULL, &d, in, 0, out, 0, N, count, 0, 0, NULL, NULL),
                    "select with indices");
        d.indices = NULL;
        fails |= ok(clprim_partition(ctx, NULL, &d, in, 0, out, 0, N, count, 0, 0, NULL, NULL),
                    "partition");
        d.predicate = 0;
        d.value = NULL;
        fails |= ok(clprim_unique(ctx, NULL, &d, in, 0, out, 0, N, count, 0, 0, NULL, NULL),
                    "unique");
        fails |= ok(clprim_run_length_encode(ctx, NULL, &d, in, 0, out, 0, lengths, 0, N, count,
                                             0, 0, NULL, NULL),
                    "run-length encoding");
    }
    fails |= ok(clFinish(q), "clFinish");
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(lengths);
    clReleaseMemObject(count);
    clReleaseMemObject(indices);
    free(h);
    assert_int_equal(fails, 0);
}

/* Segmented scan by flags and by offsets (seg_tile_bounds), segmented
 * reduce by keys and by offsets. */
static void test_segment(void **state)
{
    const size_t m = N / 10;
    int32_t *in = ones(N), *out = malloc(N * sizeof *out), *keys = malloc(N * sizeof *keys),
            *kout = malloc(N * sizeof *kout);
    unsigned char *flags = malloc(N);
    cl_ulong *offsets = malloc((m + 1) * sizeof *offsets);
    const clprim_scan_desc sd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    const clprim_reduce_desc rd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL,
                                   NULL, CLPRIM_REPRO_NONE};
    clprim_segments s;
    size_t i, count = 0;
    int fails = 0;
    (void)state;
    if (!info.has_single_pass)
        skip();
    assert_true(out && keys && kout && flags && offsets);
    for (i = 0; i < N; ++i) {
        flags[i] = i % 10 == 0;
        keys[i] = (int32_t)(i / 10);
    }
    for (i = 0; i <= m; ++i)
        offsets[i] = i * 10;
    memset(&s, 0, sizeof s);
    s.kind = CLPRIM_SEGMENTS_FLAGS_U8;
    fails |= ok(clprim_segmented_scan_host(ctx, &sd, &s, flags, in, out, N), "scan by flags");
    fails |= out[N - 1] != 10;
    s.kind = CLPRIM_SEGMENTS_OFFSETS;
    s.type = CLPRIM_TYPE_UINT64;
    s.num_segments = m;
    fails |= ok(clprim_segmented_scan_host(ctx, &sd, &s, offsets, in, out, N), "scan by offsets");
    fails |= ok(clprim_segmented_reduce_host(ctx, &rd, &s, offsets, in, N, out, NULL, &count),
                "reduce by offsets");
    s.kind = CLPRIM_SEGMENTS_KEYS;
    s.type = CLPRIM_TYPE_INT32;
    s.num_segments = 0;
    fails |= ok(clprim_segmented_reduce_host(ctx, &rd, &s, keys, in, N, out, kout, &count),
                "reduce by keys");
    fails |= count != m || out[m - 1] != 10;
    free(in);
    free(out);
    free(keys);
    free(kout);
    free(flags);
    free(offsets);
    assert_int_equal(fails, 0);
}

/* Both table algorithms, inclusive and exclusive (the border kernel), and
 * a box filter from an image. */
static void test_sat(void **state)
{
    const size_t w = 300, h = 200;
    int32_t *in = ones(w * h), *out = malloc((w + 1) * (h + 1) * sizeof *out);
    float *box = malloc(w * h * sizeof *box);
    int a, fails = 0;
    (void)state;
    assert_true(out && box);
    for (a = 1; a < CLPRIM_SAT_ALGORITHM_COUNT_; ++a) {
        clprim_sat_desc d;
        if (a == CLPRIM_SAT_DECOUPLED_LOOKBACK && !info.has_single_pass)
            continue;
        memset(&d, 0, sizeof d);
        d.type = CLPRIM_TYPE_INT32;
        d.algorithm = (clprim_sat_algorithm)a;
        fails |= ok(clprim_sat_host(ctx, &d, in, w, out, w, w, h), "table");
        fails |= out[w * h - 1] != (int32_t)(w * h);
        d.exclusive = 1;
        fails |= ok(clprim_sat_host(ctx, &d, in, w, out, w + 1, w, h), "exclusive table");
    }
    {
        clprim_box_desc b;
        memset(&b, 0, sizeof b);
        b.type = CLPRIM_TYPE_INT32;
        b.from_image = 1;
        b.radius_x = b.radius_y = 2;
        fails |= ok(clprim_box_filter_host(ctx, &b, in, w, box, w, w, h), "box filter");
        fails |= box[w * 100 + 100] != 1.0f;
    }
    free(in);
    free(out);
    free(box);
    assert_int_equal(fails, 0);
}

/* Every sort algorithm with values (a few bits: split's passes are many),
 * and a split with its count. */
static void test_sort(void **state)
{
    uint32_t *keys = malloc(N * sizeof *keys), *values = malloc(N * sizeof *values);
    cl_mem kin, kout, count;
    int a, fails = 0;
    size_t i;
    (void)state;
    assert_true(keys && values);
    for (a = 1; a < CLPRIM_SORT_ALGORITHM_COUNT_; ++a) {
        clprim_sort_desc d;
        if (a == CLPRIM_SORT_ONESWEEP && !info.has_single_pass)
            continue;
        for (i = 0; i < N; ++i) {
            keys[i] = (uint32_t)((i * 2654435761u) >> 7);
            values[i] = (uint32_t)i;
        }
        memset(&d, 0, sizeof d);
        d.key_type = CLPRIM_TYPE_UINT32;
        d.value_size = 4;
        d.algorithm = (clprim_sort_algorithm)a;
        d.begin_bit = 0;
        d.end_bit = a == CLPRIM_SORT_SPLIT_LSB ? 3 : 32;
        fails |= ok(clprim_sort_host(ctx, &d, keys, values, N), clprim_sort_algorithm_name(d.algorithm));
        for (i = 1; i < N; ++i)
            fails |= (keys[i - 1] & ((1ull << d.end_bit) - 1)) >
                     (keys[i] & ((1ull << d.end_bit) - 1));
    }
    kin = buffer(N * 4, keys);
    kout = buffer(N * 4, NULL);
    count = buffer(8, NULL);
    {
        clprim_sort_desc d;
        memset(&d, 0, sizeof d);
        d.key_type = CLPRIM_TYPE_UINT32;
        fails |= ok(clprim_split(ctx, NULL, &d, 5, kin, 0, kout, 0, NULL, 0, NULL, 0, N, count, 0,
                                 0, NULL, NULL),
                    "split");
        fails |= ok(clFinish(clprim_context_queue(ctx)), "clFinish");
    }
    clReleaseMemObject(kin);
    clReleaseMemObject(kout);
    clReleaseMemObject(count);
    free(keys);
    free(values);
    assert_int_equal(fails, 0);
}

/* The segmented sort's three kernels (bounds, tiles, segments longer than
 * a tile): keys and values, segments of 0 to 1,000 keys (a CPU tile is 256
 * keys), and the keys sorted within each afterwards. */
static void test_segmented_sort(void **state)
{
    enum { SN = 3000 };
    static const cl_uint offs[] = {0, 7, 7, 200, 1200, 1203, 2100, SN};
    const size_t m = sizeof offs / sizeof offs[0] - 1;
    uint32_t *keys = malloc(SN * sizeof *keys), *values = malloc(SN * sizeof *values);
    clprim_sort_desc d;
    clprim_segments s;
    int fails = 0;
    size_t i, j;
    (void)state;
    assert_true(keys && values);
    for (i = 0; i < SN; ++i) {
        keys[i] = ((uint32_t)i * 2654435761u) >> 9;
        values[i] = (uint32_t)i;
    }
    memset(&d, 0, sizeof d);
    d.key_type = CLPRIM_TYPE_UINT32;
    d.value_size = 4;
    memset(&s, 0, sizeof s);
    s.kind = CLPRIM_SEGMENTS_OFFSETS;
    s.type = CLPRIM_TYPE_UINT32;
    s.num_segments = m;
    fails |= ok(clprim_segmented_sort_host(ctx, &d, &s, offs, keys, values, SN), "segmented sort");
    for (j = 0; j < m; ++j)
        for (i = offs[j]; i < offs[j + 1]; ++i)
            fails |= values[i] < offs[j] || values[i] >= offs[j + 1] ||
                     keys[i] != (values[i] * 2654435761u) >> 9 ||
                     (i > offs[j] && keys[i - 1] > keys[i]);
    free(keys);
    free(values);
    assert_int_equal(fails, 0);
}

/* The four search kernels (each algorithm, each bound), int64 keys in
 * runs of 3, uint64 positions, checked against where the runs start and end. */
static void test_search(void **state)
{
    int64_t *keys = malloc(N * sizeof *keys), *queries = malloc(N * sizeof *queries);
    uint64_t *pos = malloc(N * sizeof *pos);
    int fails = 0, a, upper;
    size_t i;
    (void)state;
    assert_true(keys && queries && pos);
    for (i = 0; i < N; ++i) {
        keys[i] = (int64_t)(i / 3) - N / 6;
        queries[i] = (int64_t)((i * 2654435761u) % (N / 3 + 2)) - N / 6 - 1;
    }
    for (a = 1; a < CLPRIM_SEARCH_ALGORITHM_COUNT_; ++a)
        for (upper = 0; upper < 2; ++upper) {
            clprim_search_desc d;
            memset(&d, 0, sizeof d);
            d.key_type = CLPRIM_TYPE_INT64;
            d.index_type = CLPRIM_TYPE_UINT64;
            d.algorithm = (clprim_search_algorithm)a;
            fails |= ok((upper ? clprim_upper_bound_host : clprim_lower_bound_host)(
                            ctx, &d, keys, N, queries, N, pos),
                        clprim_search_algorithm_name(d.algorithm));
            for (i = 0; i < N; ++i) { /* key k's run: [3 (k + N / 6), 3 (k + N / 6) + 3) */
                const int64_t run = queries[i] + N / 6;
                const int64_t want = run < 0 ? 0 : run * 3 + 3 * upper;
                fails |= pos[i] != (uint64_t)(want < N ? want : N);
            }
        }
    free(keys);
    free(queries);
    free(pos);
    assert_int_equal(fails, 0);
}

/* Both histogram kernels (each algorithm, even bins and custom edges),
 * int32 samples, uint64 counts, checked against counts known in advance:
 * sample i is i % 100 - 10, so each of [0, 50) holds N / 100 of them. */
static void test_histogram(void **state)
{
    int32_t *x = malloc(N * sizeof *x), edges[51];
    uint64_t counts[50];
    int fails = 0, a, custom;
    size_t i;
    (void)state;
    assert_true(x != NULL);
    for (i = 0; i < N; ++i)
        x[i] = (int32_t)(i % 100) - 10;
    for (i = 0; i <= 50; ++i)
        edges[i] = (int32_t)i;
    for (a = 1; a < CLPRIM_HISTOGRAM_ALGORITHM_COUNT_; ++a)
        for (custom = 0; custom < 2; ++custom) {
            clprim_histogram_desc d;
            memset(&d, 0, sizeof d);
            d.sample_type = CLPRIM_PIXEL_INT32;
            d.count_type = info.has_int64_atomics ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
            d.bins = 50;
            d.upper = custom ? 0 : 50;
            d.algorithm = (clprim_histogram_algorithm)a;
            memset(counts, 0, sizeof counts);
            fails |= ok(clprim_histogram_host(ctx, &d, x, N, custom ? edges : NULL, counts),
                        clprim_histogram_algorithm_name(d.algorithm));
            for (i = 0; i < 50; ++i) {
                uint64_t c = 0;
                memcpy(&c, (const char *)counts + i * clprim_type_size(d.count_type),
                       clprim_type_size(d.count_type));
                fails |= c != N / 100;
            }
        }
    free(x);
    assert_int_equal(fails, 0);
}

/* The three merge kernels (CORANK, and TILED's partition and tiles), int32
 * pairs: range a the even numbers, b the odd ones, so the merge is 0 .. 2N
 * - 1 and each value (its key) follows its key. */
static void test_merge(void **state)
{
    int32_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    int32_t *keys = malloc(2 * N * sizeof *keys), *vals = malloc(2 * N * sizeof *vals);
    int fails = 0, alg;
    size_t i;
    (void)state;
    assert_true(a && b && keys && vals);
    for (i = 0; i < N; ++i) {
        a[i] = (int32_t)(2 * i);
        b[i] = (int32_t)(2 * i + 1);
    }
    for (alg = 1; alg < CLPRIM_MERGE_ALGORITHM_COUNT_; ++alg) {
        clprim_merge_desc d;
        memset(&d, 0, sizeof d);
        d.value_size = 4;
        d.algorithm = (clprim_merge_algorithm)alg;
        fails |= ok(clprim_merge_host(ctx, &d, a, a, N, b, b, N, keys, vals),
                    clprim_merge_algorithm_name(d.algorithm));
        for (i = 0; i < 2 * N; ++i)
            fails |= keys[i] != (int32_t)i || vals[i] != (int32_t)i;
    }
    free(a);
    free(b);
    free(keys);
    free(vals);
    assert_int_equal(fails, 0);
}

/* The three radix-selection kernels (every level: 64-bit keys) and the
 * three of the sample filter (with the sorts between), with values,
 * checked against what is known in advance: key i is a permutation of
 * 0 .. N - 1 as int64, so the 1000 largest are N - 1 down. */
static void test_top_k(void **state)
{
    int64_t *keys = malloc(N * sizeof *keys), got[1000];
    cl_uint *values = malloc(N * sizeof *values), gotv[1000];
    clprim_top_k_desc d;
    int fails = 0;
    size_t i;
    (void)state;
    assert_true(keys && values);
    for (i = 0; i < N; ++i) {
        keys[i] = (int64_t)(((uint64_t)i * 7919u) % N); /* 7919 is prime, N is not its multiple */
        values[i] = (cl_uint)i;
    }
    memset(&d, 0, sizeof d);
    d.key_type = CLPRIM_TYPE_INT64;
    d.value_size = 4;
    d.largest = 1;
    d.sorted = 1;
    for (d.algorithm = CLPRIM_TOP_K_RADIX_SELECT; d.algorithm <= CLPRIM_TOP_K_SAMPLE_FILTER;
         d.algorithm = (clprim_top_k_algorithm)(d.algorithm + 1)) {
        fails |= ok(clprim_top_k_host(ctx, &d, keys, values, N, 1000, got, gotv), "top-k");
        for (i = 0; i < 1000; ++i)
            fails |= got[i] != (int64_t)(N - 1 - i) || keys[gotv[i]] != got[i];
    }
    free(keys);
    free(values);
    assert_int_equal(fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_fails), cmocka_unit_test(test_scan_reduce),
        cmocka_unit_test(test_compact),     cmocka_unit_test(test_segment),
        cmocka_unit_test(test_sat),         cmocka_unit_test(test_sort),
        cmocka_unit_test(test_segmented_sort), cmocka_unit_test(test_search),
        cmocka_unit_test(test_histogram), cmocka_unit_test(test_merge),
        cmocka_unit_test(test_top_k),
    };
    int rc;
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    clprim__check_kernel_args = 1; /* whatever the build type */
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

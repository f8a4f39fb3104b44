/* SPDX-License-Identifier: MIT */
/* Issue 33: reproducibility levels. RUN_TO_RUN float and double scans must
 * give the same bits on every run, and the same bits again when the no-hang
 * fallback computes nearly every predecessor's total itself (the ordered
 * look-back's contract: a published total and the fallback's agree bit for
 * bit), in place (the host helpers) and out of place; the values must
 * still be the scan (checked against
 * a host reference in long double with a bound on the rounding). Levels nobody implements yet are refused with a message naming
 * desc->repro; exact elements (integers) take every level unchanged. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"
#include "reference/reference.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static clprim_context *ctx;
static clprim_device_info info;

/* A context made with environment knobs set (read at creation): name,
 * value pairs, then NULL (at most 8). The knobs' values from before come
 * back after (the whole test may run with one set). */
static clprim_context *context_knobs(const char *const *kv)
{
    clprim_context *c = NULL;
    char *before[8] = {0};
    size_t k;
    for (k = 0; kv[k]; k += 2) {
        assert_true(k / 2 < 8);
        before[k / 2] = getenv(kv[k]) ? strdup(getenv(kv[k])) : NULL;
        setenv(kv[k], kv[k + 1], 1);
    }
    assert_int_equal(clprim_context_create(NULL, &c), CLPRIM_SUCCESS);
    for (k = 0; kv[k]; k += 2) {
        if (before[k / 2])
            setenv(kv[k], before[k / 2], 1);
        else
            unsetenv(kv[k]);
        free(before[k / 2]);
    }
    return c;
}

static clprim_context *context_with(const char *knob, const char *value)
{
    const char *const kv[] = {knob, value, NULL};
    return context_knobs(kv);
}

/* n random values in [-0.7, 1.3) (the input) of a float type. */
static void *random_floats(clprim_type type, size_t n, uint64_t seed)
{
    const size_t e = clprim_type_size(type);
    unsigned char *x = malloc(n * e + 1);
    assert_non_null(x);
    for (size_t i = 0; i < n; ++i) {
        const double v = -0.7 + 2.0 * (double)(tu_rand(&seed) >> 11) / 9007199254740992.0;
        if (type == CLPRIM_TYPE_FLOAT) {
            const float f = (float)v;
            memcpy(x + i * e, &f, e);
        } else {
            memcpy(x + i * e, &v, e);
        }
    }
    return x;
}

static long double value_at(clprim_type type, const void *p, size_t i)
{
    if (type == CLPRIM_TYPE_FLOAT)
        return ((const float *)p)[i];
    return ((const double *)p)[i];
}

/* The first element at which got differs from want in its bits (n of
 * elem bytes each), or n. */
static size_t first_difference(const void *want, const void *got, size_t n, size_t elem)
{
    size_t i = 0;
    while (i < n && !memcmp((const char *)want + i * elem, (const char *)got + i * elem, elem))
        ++i;
    return i;
}

/* The scan's values within rounding: |got - exact| <= eps * sum |x| (any
 * order of summation stays within n * eps of it; the bound is loose enough
 * for every order and tight enough to catch a prefix combined wrongly). */
static int check_scan(clprim_type type, const void *in, const void *out, size_t n, int exclusive,
                      const void *init, const char *what)
{
    const long double eps = type == CLPRIM_TYPE_FLOAT ? 2e-4L : 1e-12L;
    long double sum = init ? value_at(type, init, 0) : 0, mag = fabsl(sum);
    for (size_t i = 0; i < n; ++i) {
        const long double x = value_at(type, in, i);
        if (!exclusive) {
            sum += x;
            mag += fabsl(x);
        }
        const long double got = value_at(type, out, i);
        if (!(fabsl(got - sum) <= eps * (mag + 1))) {
            print_error("%s: out[%zu] = %.17Lg, expected %.17Lg\n", what, i, got, sum);
            return -1;
        }
        if (exclusive) {
            sum += x;
            mag += fabsl(x);
        }
    }
    return 0;
}

/* One scan, output poisoned first: through the host helpers (which scan in
 * place on the device), or out of place between device buffers. */
static void *scan_once(clprim_context *c, const clprim_scan_desc *d, const void *in, size_t n,
                       const void *init, int out_of_place)
{
    const size_t e = clprim_type_size(d->type);
    unsigned char *out = malloc(n * e + 1);
    assert_non_null(out);
    memset(out, 0xA5, n * e + 1);
    if (out_of_place) {
        cl_mem a = tu_buffer(c, n * e, in, CL_MEM_READ_ONLY),
               b = tu_buffer(c, n * e, out, CL_MEM_READ_WRITE),
               k = tu_buffer(c, e, init ? init : in, CL_MEM_READ_ONLY);
        assert_int_equal(init ? clprim_scan_init(c, NULL, d, k, 0, a, 0, b, 0, n, 0, NULL, NULL)
                              : clprim_scan(c, NULL, d, a, 0, b, 0, n, 0, NULL, NULL),
                         CLPRIM_SUCCESS);
        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(c), b, CL_TRUE, 0, n * e, out,
                                             0, NULL, NULL),
                         CL_SUCCESS);
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        clReleaseMemObject(k);
    } else if (init) {
        assert_int_equal(clprim_scan_init_host(c, d, init, in, out, n), CLPRIM_SUCCESS);
    } else {
        assert_int_equal(clprim_scan_host(c, d, in, out, n), CLPRIM_SUCCESS);
    }
    return out;
}

/* A context whose every poll gives up at once: the fallback on nearly every
 * predecessor (1.1M floats make over 500 tiles on the CPU runtimes). Made
 * once: it builds programs of its own. */
static clprim_context *fallback;

static void test_run_to_run_scan(void **state)
{
    static const size_t sizes[] = {1, 65537, 300001, 1100000};
    uint64_t seed = tu_seed() ^ 0x33;
    size_t failures = 0;
    (void)state;
    if (!info.has_single_pass)
        skip();
    for (int ty = 0; ty < 2; ++ty) {
        const clprim_type type = ty ? CLPRIM_TYPE_DOUBLE : CLPRIM_TYPE_FLOAT;
        const size_t e = clprim_type_size(type);
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (size_t k = ty ? 2 : 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
            const size_t n = sizes[k] + (k == 2 ? tu_rand(&seed) % 50000 : 0);
            const int exclusive = k % 2 == 1, with_init = k == 1;
            clprim_scan_desc d = {type, CLPRIM_OP_SUM, exclusive,
                                  CLPRIM_SCAN_DECOUPLED_LOOKBACK, NULL, NULL,
                                  CLPRIM_REPRO_RUN_TO_RUN};
            void *in = random_floats(type, n, tu_rand(&seed));
            void *init = with_init ? random_floats(type, 1, tu_rand(&seed)) : NULL;
            char what[160];
            snprintf(what, sizeof what, "%s sum n=%zu %s%s", clprim_type_name(type), n,
                     exclusive ? "exclusive" : "inclusive", with_init ? " init" : "");
            /* double on the one-poll context alone (one program build fewer
             * on CI): its runs fall back on different tiles each time */
            clprim_context *const c0 = ty ? fallback : ctx;
            void *first = scan_once(c0, &d, in, n, init, 0);
            if (check_scan(type, in, first, n, exclusive, init, what))
                ++failures;
            /* again, on the fallback (in place and not), and as DOMINO (the
             * same ordered walk) */
            void *runs[4] = {scan_once(c0, &d, in, n, init, 0),
                             scan_once(fallback, &d, in, n, init, 0),
                             scan_once(fallback, &d, in, n, init, 1), NULL};
            d.algorithm = CLPRIM_SCAN_DOMINO;
            runs[3] = scan_once(c0, &d, in, n, init, 1);
            d.algorithm = CLPRIM_SCAN_DECOUPLED_LOOKBACK;
            for (int r = 0; r < 4; ++r)
                if (memcmp(first, runs[r], n * e)) {
                    const size_t i = first_difference(first, runs[r], n, e);
                    print_error("%s: run %d (%s) differs from the first at %zu: %.17Lg, "
                                "not %.17Lg\n", what, r,
                                r == 0   ? "again"
                                : r == 1 ? "fallback in place"
                                : r == 2 ? "fallback"
                                         : "domino",
                                i,
                                value_at(type, runs[r], i), value_at(type, first, i));
                    check_scan(type, in, runs[r], n, exclusive, init, what);
                    ++failures;
                }
            for (int r = 0; r < 4; ++r)
                free(runs[r]);
            free(first);
            free(in);
            free(init);
        }
    }
    assert_int_equal(failures, 0);
}

/* The caller's operator (a float sum it cannot declare associative, which
 * is when the order matters): the one-tile-per-work-group single pass and
 * the value slots of the look-back. */
static void test_run_to_run_custom(void **state)
{
    const size_t n = 200003, e = sizeof(float);
    const clprim_operator_desc od = {.type = "float", .combine = "a + b", .identity = "0.0f",
                                     .size = sizeof(float)};
    clprim_operator *op_a = NULL;
    (void)state;
    if (!info.has_single_pass)
        skip();
    assert_int_equal(clprim_operator_create(fallback, &od, &op_a), CLPRIM_SUCCESS);
    float *in = random_floats(CLPRIM_TYPE_FLOAT, n, tu_seed() ^ 0xc05);
    clprim_scan_desc d = {0, 0, 0, CLPRIM_SCAN_DECOUPLED_LOOKBACK, op_a, NULL,
                          CLPRIM_REPRO_RUN_TO_RUN};
    float *a = malloc(n * e), *b, *c;
    assert_non_null(a);
    /* on the one-poll context: in place and not, each with its own tiles
     * falling back, must agree */
    assert_int_equal(clprim_scan_host(fallback, &d, in, a, n), CLPRIM_SUCCESS);
    b = scan_once(fallback, &d, in, n, NULL, 1);
    c = scan_once(fallback, &d, in, n, NULL, 0);
    assert_int_equal(check_scan(CLPRIM_TYPE_FLOAT, in, a, n, 0, NULL, "custom"), 0);
    assert_memory_equal(a, b, n * e);
    assert_memory_equal(a, c, n * e);
    /* PORTABLE: this operator is the float sum, so the reference's bits */
    d.repro = CLPRIM_REPRO_PORTABLE;
    assert_int_equal(clprim_scan_host(fallback, &d, in, a, n), CLPRIM_SUCCESS);
    assert_int_equal(clprim_ref_scan_portable(CLPRIM_TYPE_FLOAT, 0, NULL, in, n, b), 0);
    assert_memory_equal(a, b, n * e);
    free(in);
    free(a);
    free(b);
    free(c);
    clprim_operator_release(op_a);
}

/* Reduce: every algorithm is fixed-order already, so RUN_TO_RUN is taken as
 * it is; repeated runs agree. */
static void test_run_to_run_reduce(void **state)
{
    const size_t n = 777777;
    float *in = random_floats(CLPRIM_TYPE_FLOAT, n, tu_seed() ^ 0x7ed);
    (void)state;
    for (int a = 0; a < CLPRIM_REDUCE_ALGORITHM_COUNT_; ++a) {
        const clprim_reduce_desc d = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, (clprim_reduce_algorithm)a,
                                      NULL, NULL, CLPRIM_REPRO_RUN_TO_RUN};
        float v0, v;
        assert_int_equal(clprim_reduce_host(ctx, &d, in, n, &v0), CLPRIM_SUCCESS);
        for (int r = 0; r < 3; ++r) {
            assert_int_equal(clprim_reduce_host(ctx, &d, in, n, &v), CLPRIM_SUCCESS);
            assert_memory_equal(&v0, &v, sizeof v);
        }
    }
    free(in);
}

/* PORTABLE reduce: the device's bits are the host reference's, which
 * evaluates the one order every device shares (cl/reduce_abi.h), for every
 * algorithm named (PORTABLE overrides how); and the bits of one fixed input
 * are stored, so that CI fails when the order (or the arithmetic) changes.
 * Both CPU platforms must give the stored bits. */
#define PORTABLE_N 1000003
#define PORTABLE_SEED 0x1551e33u
/* the bits the host reference computes, which PoCL and Intel's CPU runtime gave */
#define PORTABLE_FLOAT_BITS 0x48928c6cu
#define PORTABLE_DOUBLE_BITS 0x4112518d977bbab5u

static void test_portable_reduce(void **state)
{
    static const size_t sizes[] = {0, 1, 15, 17, 1023, 1024, 1025, 65537, 300007};
    uint64_t seed = tu_seed() ^ 0x9047;
    size_t failures = 0;
    (void)state;
    for (int ty = 0; ty < 2; ++ty) {
        const clprim_type type = ty ? CLPRIM_TYPE_DOUBLE : CLPRIM_TYPE_FLOAT;
        const size_t e = clprim_type_size(type);
        unsigned char want[8], got[8];
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (size_t k = 0; k <= sizeof sizes / sizeof sizes[0]; ++k) {
            const int fixed = k == sizeof sizes / sizeof sizes[0];
            const size_t n = fixed ? PORTABLE_N : sizes[k];
            void *in = random_floats(type, n ? n : 1, fixed ? PORTABLE_SEED : tu_rand(&seed));
            clprim_reduce_desc d = {type, CLPRIM_OP_SUM, (clprim_reduce_algorithm)(k % 4), NULL,
                                    NULL, CLPRIM_REPRO_PORTABLE};
            assert_int_equal(clprim_ref_reduce_portable(type, in, n, want), 0);
            memset(got, 0xA5, sizeof got);
            assert_int_equal(clprim_reduce_host(ctx, &d, in, n, got), CLPRIM_SUCCESS);
            if (memcmp(want, got, e)) {
                print_error("portable %s reduce n=%zu: %.17Lg, the reference %.17Lg\n",
                            clprim_type_name(type), n, value_at(type, got, 0),
                            value_at(type, want, 0));
                ++failures;
            }
            if (fixed) {
                uint64_t bits = 0;
                memcpy(&bits, got, e);
                print_message("# portable %s reduce of the fixed input: bits 0x%llx\n",
                              clprim_type_name(type), (unsigned long long)bits);
                if (bits != (ty ? PORTABLE_DOUBLE_BITS : PORTABLE_FLOAT_BITS)) {
                    print_error("portable %s reduce of the fixed input: bits 0x%llx, stored "
                                "0x%llx: PORTABLE's bits changed\n",
                                clprim_type_name(type), (unsigned long long)bits,
                                (unsigned long long)(ty ? PORTABLE_DOUBLE_BITS
                                                        : PORTABLE_FLOAT_BITS));
                    ++failures;
                }
            }
            free(in);
        }
    }
    assert_int_equal(failures, 0);
}

/* PORTABLE multi-device reduce and scan (inclusive and exclusive): split on
 * tile boundaries into 1 to 4 parts (an empty one among them), the bits of
 * one device's PORTABLE reduce and scan (the reference's); a split inside a
 * tile is refused. The parts share one context here: what matters is how
 * the array is cut. */
static void test_portable_multi(void **state)
{
    const size_t n = 300007, tile = 1024;
    static const size_t cuts[][4] = {{300007}, {2048, 297959}, {1024, 0, 150528, 148455},
                                     {tile * 100, tile * 50, tile * 3, 300007 - tile * 153}};
    float *in = random_floats(CLPRIM_TYPE_FLOAT, n, tu_seed() ^ 0x3a17);
    cl_mem b = tu_buffer(ctx, n * sizeof(float), in, CL_MEM_READ_ONLY),
           o = tu_buffer(ctx, n * sizeof(float), NULL, CL_MEM_READ_WRITE);
    const clprim_reduce_desc d = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL,
                                  CLPRIM_REPRO_PORTABLE};
    clprim_scan_desc sd = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL,
                           CLPRIM_REPRO_PORTABLE};
    float want, got, *scan_want = malloc(n * sizeof(float)), *scan_got = malloc(n * sizeof(float));
    clprim_part parts[4];
    (void)state;
    assert_true(scan_want && scan_got);
    assert_int_equal(clprim_ref_reduce_portable(CLPRIM_TYPE_FLOAT, in, n, &want), 0);
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; ++c) {
        size_t count = 0, at = 0;
        for (; count < 4 && at < n; ++count) {
            parts[count] = (clprim_part){.ctx = ctx, .in = b, .in_off = at, .n = cuts[c][count]};
            at += cuts[c][count];
        }
        got = -1.0f;
        assert_int_equal(clprim_multi_reduce(&d, parts, count, &got), CLPRIM_SUCCESS);
        if (memcmp(&want, &got, sizeof got))
            fail_msg("%zu parts: %.9g, one device %.9g", count, (double)got, (double)want);
        for (size_t k = 0; k < count; ++k) {
            parts[k].out = o;
            parts[k].out_off = parts[k].in_off;
        }
        sd.exclusive = (int)(c % 2);
        assert_int_equal(clprim_ref_scan_portable(CLPRIM_TYPE_FLOAT, sd.exclusive, NULL, in, n,
                                                  scan_want), 0);
        assert_int_equal(clprim_multi_scan(&sd, parts, count), CLPRIM_SUCCESS);
        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), o, CL_TRUE, 0,
                                             n * sizeof(float), scan_got, 0, NULL, NULL),
                         CL_SUCCESS);
        if (memcmp(scan_want, scan_got, n * sizeof(float)))
            fail_msg("%zu parts: the scan differs from one device's", count);
    }
    parts[0] = (clprim_part){.ctx = ctx, .in = b, .n = 1000};
    parts[1] = (clprim_part){.ctx = ctx, .in = b, .in_off = 1000, .n = n - 1000};
    assert_int_equal(tu_refused(ctx, clprim_multi_reduce(&d, parts, 2, &got), CLPRIM_UNSUPPORTED,
                                "portable tile"), 0);
    clReleaseMemObject(b);
    clReleaseMemObject(o);
    free(in);
    free(scan_want);
    free(scan_got);
}

/* The public steps of the PORTABLE order (clprim_reduce_tiles,
 * clprim_scan_tiles): tile totals as the reference's reduce of each tile,
 * the tiles scanned from the reference's carries as the reference's whole
 * scan (tiles counted from in_off); an exact element at NONE takes the
 * same steps; n = 0 writes nothing; an unknown level is refused. */
static void test_portable_tiles(void **state)
{
    const size_t tile = CLPRIM_PORTABLE_TILE, off = 3, n = 5 * tile + 77, g = 6;
    float *in = random_floats(CLPRIM_TYPE_FLOAT, n + off, tu_seed() ^ 0x71e5);
    float totals[6], got_totals[6], carries[6], *want = malloc(n * sizeof(float)),
                                             *got = malloc(n * sizeof(float));
    cl_int ints[2 * 1024 + 5], int_totals[3];
    const cl_mem b = tu_buffer(ctx, (n + off) * sizeof(float), in, CL_MEM_READ_ONLY),
                 t = tu_buffer(ctx, g * sizeof(float), NULL, CL_MEM_READ_WRITE),
                 o = tu_buffer(ctx, n * sizeof(float), NULL, CL_MEM_READ_WRITE);
    clprim_reduce_desc rd = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL,
                             CLPRIM_REPRO_PORTABLE};
    clprim_scan_desc sd = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL,
                           CLPRIM_REPRO_PORTABLE};
    const cl_command_queue q = clprim_context_queue(ctx);
    uint64_t seed = tu_seed() ^ 0x5eed;
    cl_mem c, ib;
    (void)state;
    assert_true(want && got);
    for (size_t k = 0; k < g; ++k) /* the reference's reduce of one tile is its total */
        assert_int_equal(clprim_ref_reduce_portable(CLPRIM_TYPE_FLOAT, in + off + k * tile,
                                                    k + 1 < g ? tile : n - k * tile, &totals[k]),
                         0);
    memset(got_totals, 0xA5, sizeof got_totals);
    assert_int_equal(clEnqueueWriteBuffer(q, t, CL_TRUE, 0, sizeof got_totals, got_totals, 0, NULL,
                                          NULL), CL_SUCCESS);
    assert_int_equal(clprim_reduce_tiles(ctx, NULL, &rd, b, off, 0, t, 0, 0, NULL, NULL),
                     CLPRIM_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, t, CL_TRUE, 0, sizeof got_totals, got_totals, 0, NULL,
                                         NULL), CL_SUCCESS);
    for (size_t k = 0; k < sizeof got_totals; ++k)
        assert_int_equal(((unsigned char *)got_totals)[k], 0xA5); /* n = 0: nothing */
    assert_int_equal(clprim_reduce_tiles(ctx, NULL, &rd, b, off, n, t, 0, 0, NULL, NULL),
                     CLPRIM_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, t, CL_TRUE, 0, sizeof got_totals, got_totals, 0, NULL,
                                         NULL), CL_SUCCESS);
    assert_memory_equal(got_totals, totals, sizeof totals);
    for (int exclusive = 0; exclusive < 2; ++exclusive) {
        sd.exclusive = exclusive;
        assert_int_equal(clprim_ref_scan_portable(CLPRIM_TYPE_FLOAT, 1, NULL, totals, g, carries),
                         0);
        assert_int_equal(clprim_ref_scan_portable(CLPRIM_TYPE_FLOAT, exclusive, NULL, in + off, n,
                                                  want), 0);
        c = tu_buffer(ctx, (g + 1) * sizeof(float), NULL, CL_MEM_READ_WRITE);
        assert_int_equal(clEnqueueWriteBuffer(q, c, CL_TRUE, sizeof(float), sizeof carries,
                                              carries, 0, NULL, NULL), CL_SUCCESS);
        memset(got, 0xA5, n * sizeof(float));
        assert_int_equal(clEnqueueWriteBuffer(q, o, CL_TRUE, 0, n * sizeof(float), got, 0, NULL,
                                              NULL), CL_SUCCESS);
        assert_int_equal(clprim_scan_tiles(ctx, NULL, &sd, c, 1, b, off, o, 0, n, 0, NULL, NULL),
                         CLPRIM_SUCCESS);
        assert_int_equal(clEnqueueReadBuffer(q, o, CL_TRUE, 0, n * sizeof(float), got, 0, NULL,
                                             NULL), CL_SUCCESS);
        if (memcmp(got, want, n * sizeof(float)))
            fail_msg("%s: the tiles from the carries differ from one scan",
                     exclusive ? "exclusive" : "inclusive");
        clReleaseMemObject(c);
    }
    /* int32 at NONE: the same steps (exact sums per tile) */
    clprim_ref_fill(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, ints, 2 * tile + 5, &seed);
    ib = tu_buffer(ctx, sizeof ints, ints, CL_MEM_READ_ONLY);
    rd = (clprim_reduce_desc){CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL,
                              CLPRIM_REPRO_NONE};
    assert_int_equal(clprim_reduce_tiles(ctx, NULL, &rd, ib, 0, 2 * tile + 5, t, 0, 0, NULL, NULL),
                     CLPRIM_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, t, CL_TRUE, 0, sizeof int_totals, int_totals, 0, NULL,
                                         NULL), CL_SUCCESS);
    for (size_t k = 0; k < 3; ++k) {
        cl_uint sum = 0;
        for (size_t i = k * tile; i < (k + 1) * tile && i < 2 * tile + 5; ++i)
            sum += (cl_uint)ints[i];
        assert_int_equal(int_totals[k], (cl_int)sum);
    }
    rd.repro = (clprim_repro)99;
    assert_int_equal(tu_refused(ctx, clprim_reduce_tiles(ctx, NULL, &rd, ib, 0, 5, t, 0, 0, NULL,
                                                         NULL),
                                CLPRIM_INVALID_ARGUMENT, "desc->repro"), 0);
    clReleaseMemObject(ib);
    clReleaseMemObject(b);
    clReleaseMemObject(t);
    clReleaseMemObject(o);
    free(in);
    free(want);
    free(got);
}

/* FNV-1a of a result's bits. */
static uint64_t hash_bits(const void *p, size_t bytes)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < bytes; ++i)
        h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ull;
    return h;
}

/* The PORTABLE float scan of n values through the transform x * 2 (exact,
 * so the reference scans 2x) on c, and on c2 too where not NULL: 0 where
 * every run gives the reference's bits. */
static size_t portable_transform_differs(clprim_context *c, clprim_context *c2, size_t n,
                                         int exclusive, uint64_t *seed)
{
    const clprim_transform tf = {CLPRIM_TYPE_FLOAT, "x * 2.0f"};
    const clprim_scan_desc d = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, exclusive, CLPRIM_SCAN_AUTO,
                                NULL, &tf, CLPRIM_REPRO_PORTABLE};
    float *in = random_floats(CLPRIM_TYPE_FLOAT, n, tu_rand(seed)), *want = malloc(n * 4);
    void *got[2] = {scan_once(c, &d, in, n, NULL, 1), c2 ? scan_once(c2, &d, in, n, NULL, 1) : NULL};
    size_t failures = 0;
    assert_non_null(want);
    for (size_t i = 0; i < n; ++i)
        in[i] *= 2.0f;
    assert_int_equal(clprim_ref_scan_portable(CLPRIM_TYPE_FLOAT, exclusive, NULL, in, n, want), 0);
    for (int r = 0; r < 2; ++r) {
        if (got[r] && memcmp(want, got[r], n * 4)) {
            print_error("portable float scan through x * 2.0f (context %d) differs from the "
                        "reference\n", r + 1);
            ++failures;
        }
        free(got[r]);
    }
    free(in);
    free(want);
    return failures;
}

/* PORTABLE scan: the device's bits are the reference's (inclusive and
 * exclusive, with a carry-in, in place and out of place, one to three
 * levels of tiles, through a transform), and the hash of the bits of the
 * fixed input's inclusive scan is stored. */
#define PORTABLE_SCAN_FLOAT_HASH 0x9537ec890a6c5021ull
#define PORTABLE_SCAN_DOUBLE_HASH 0xcf97874cb24510adull

static void test_portable_scan(void **state)
{
    static const size_t sizes[] = {1, 15, 17, 1023, 1024, 1025, 65537, 1100007};
    uint64_t seed = tu_seed() ^ 0x5ca9;
    size_t failures = 0;
    (void)state;
    for (int ty = 0; ty < 2; ++ty) {
        const clprim_type type = ty ? CLPRIM_TYPE_DOUBLE : CLPRIM_TYPE_FLOAT;
        const size_t e = clprim_type_size(type);
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (size_t k = 0; k <= sizeof sizes / sizeof sizes[0]; ++k) {
            const int fixed = k == sizeof sizes / sizeof sizes[0];
            const size_t n = fixed ? PORTABLE_N : sizes[k];
            const int exclusive = !fixed && k % 2, with_init = !fixed && k % 3 == 1;
            void *in = random_floats(type, n, fixed ? PORTABLE_SEED : tu_rand(&seed));
            void *init = with_init ? random_floats(type, 1, tu_rand(&seed)) : NULL;
            void *want = malloc(n * e);
            const clprim_scan_desc d = {type, CLPRIM_OP_SUM, exclusive,
                                        (clprim_scan_algorithm)(k % CLPRIM_SCAN_ALGORITHM_COUNT_),
                                        NULL, NULL, CLPRIM_REPRO_PORTABLE};
            assert_non_null(want);
            assert_int_equal(clprim_ref_scan_portable(type, exclusive, init, in, n, want), 0);
            void *got = scan_once(ctx, &d, in, n, init, k % 2 == 0);
            if (memcmp(want, got, n * e)) {
                const size_t i = first_difference(want, got, n, e);
                print_error("portable %s scan n=%zu%s%s: out[%zu] = %.17Lg, the reference "
                            "%.17Lg\n", clprim_type_name(type), n, exclusive ? " exclusive" : "",
                            init ? " init" : "", i, value_at(type, got, i),
                            value_at(type, want, i));
                ++failures;
            }
            if (fixed) {
                const uint64_t h = hash_bits(got, n * e),
                               stored = ty ? PORTABLE_SCAN_DOUBLE_HASH : PORTABLE_SCAN_FLOAT_HASH;
                print_message("# portable %s scan of the fixed input: hash 0x%llx\n",
                              clprim_type_name(type), (unsigned long long)h);
                if (h != stored) {
                    print_error("portable %s scan of the fixed input: hash 0x%llx, stored "
                                "0x%llx: PORTABLE's bits changed\n", clprim_type_name(type),
                                (unsigned long long)h, (unsigned long long)stored);
                    ++failures;
                }
            }
            free(in);
            free(init);
            free(want);
            free(got);
        }
    }
    /* through a transform */
    failures += portable_transform_differs(ctx, NULL, 70001, 0, &seed);
    assert_int_equal(failures, 0);
}

/* PORTABLE scan in one pass (CLPRIM_PORTABLE_SINGLE_PASS=1, portable_sp.cl):
 * the bits of the three launches and of the reference, at sizes on either
 * side of every level boundary of the published values (a chunk of 16
 * tiles, a level-1 tile of 1024; past 16 of those once), inclusive and exclusive,
 * with and without a carry-in, in place and not, through a transform; and
 * on a context that polls once, where tiles compute their predecessors'
 * values from the input instead (the same bits by construction). Where the
 * device has no single-pass layer both contexts run the launches. */
static void test_portable_single_pass(void **state)
{
    const size_t sizes[] = {1,     1023,           1024,           1025,
                            16383, 16385,          1048575,        1048577,
                            0 /* random, past 2^20 */, ((size_t)1 << 24) + 1025};
    const char *const one[] = {"CLPRIM_PORTABLE_SINGLE_PASS", "1", NULL};
    const char *const polls[] = {"CLPRIM_PORTABLE_SINGLE_PASS", "1", "CLPRIM_LOOKBACK_SPINS", "1",
                                 NULL};
    clprim_context *sp = context_knobs(one), *sp_polls = context_knobs(polls),
                   *three = context_with("CLPRIM_PORTABLE_SINGLE_PASS", "0");
    uint64_t seed = tu_seed() ^ 0x5eed1;
    size_t failures = 0;
    char row[1024];
    (void)state;
    /* the knobs reached the scan's row */
    assert_true(clprim_context_tuning(sp, "scan", 4, 1000, row, sizeof row) > 0);
    assert_int_equal(tu_row_value(row, "portable_single_pass"), 1);
    assert_true(clprim_context_tuning(three, "scan", 4, 1000, row, sizeof row) > 0);
    assert_int_equal(tu_row_value(row, "portable_single_pass"), 0);
    for (int ty = 0; ty < 2; ++ty) {
        const clprim_type type = ty ? CLPRIM_TYPE_DOUBLE : CLPRIM_TYPE_FLOAT;
        const size_t e = clprim_type_size(type);
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
            const size_t n = sizes[k] ? sizes[k] : ((size_t)1 << 20) + 1 + tu_rand(&seed) % 300000;
            /* past 16 level-1 tiles (a chunk of L2): the one pass alone, float alone */
            const int huge = n > ((size_t)1 << 24);
            if (huge && ty)
                continue;
            const int exclusive = (int)(k + ty) % 2, with_init = (int)(k / 2 + ty) % 2;
            /* the polling context where a fallback has tiles to compute */
            const int poll = n > 1024 && (k + ty) % 3 == 0;
            const clprim_scan_desc d = {type,          CLPRIM_OP_SUM, exclusive, CLPRIM_SCAN_AUTO,
                                        NULL,          NULL,          CLPRIM_REPRO_PORTABLE};
            void *in = random_floats(type, n, tu_rand(&seed));
            void *init = with_init ? random_floats(type, 1, tu_rand(&seed)) : NULL;
            void *want = malloc(n * e);
            assert_non_null(want);
            assert_int_equal(clprim_ref_scan_portable(type, exclusive, init, in, n, want), 0);
            void *got = scan_once(sp, &d, in, n, init, k % 2 == 0);
            void *launches = huge ? NULL : scan_once(three, &d, in, n, init, 1);
            void *polled = poll ? scan_once(sp_polls, &d, in, n, init, 1) : NULL;
            const void *const runs[] = {got, launches, polled};
            static const char *const names[] = {"one pass", "three launches",
                                                "one pass polling once"};
            for (int r = 0; r < 3; ++r) {
                if (runs[r] && memcmp(want, runs[r], n * e)) {
                    const size_t i = first_difference(want, runs[r], n, e);
                    print_error("portable %s scan n=%zu%s%s (%s): out[%zu] = %.17Lg, the "
                                "reference %.17Lg\n", clprim_type_name(type), n,
                                exclusive ? " exclusive" : "", init ? " init" : "", names[r], i,
                                value_at(type, runs[r], i), value_at(type, want, i));
                    ++failures;
                }
            }
            free(in);
            free(init);
            free(want);
            free(got);
            free(launches);
            free(polled);
        }
    }
    /* through a transform, across a level-1 tile */
    failures += portable_transform_differs(sp, three, 1048577, 1, &seed);
    /* the caller's operator (the float sum): its values travel in slots,
     * not status words */
    {
        const clprim_operator_desc od = {.type = "float", .combine = "a + b",
                                         .identity = "0.0f", .size = sizeof(float)};
        clprim_context *const cs[] = {sp, sp_polls, three};
        clprim_operator *ops[3] = {NULL, NULL, NULL};
        for (int c = 0; c < 3; ++c)
            assert_int_equal(clprim_operator_create(cs[c], &od, &ops[c]), CLPRIM_SUCCESS);
        for (int x = 0; x < 2; ++x) {
            const size_t n = x ? 1048577 : 16385;
            float *in = random_floats(CLPRIM_TYPE_FLOAT, n, tu_rand(&seed)), *want = malloc(n * 4);
            float *init = x ? random_floats(CLPRIM_TYPE_FLOAT, 1, tu_rand(&seed)) : NULL;
            assert_non_null(want);
            assert_int_equal(clprim_ref_scan_portable(CLPRIM_TYPE_FLOAT, x, init, in, n, want), 0);
            for (int c = 0; c < 3; ++c) {
                /* (type 0: a 4-byte one, for scan_once's sizes) */
                const clprim_scan_desc d = {0, 0, x, CLPRIM_SCAN_AUTO, ops[c], NULL,
                                            CLPRIM_REPRO_PORTABLE};
                void *got = scan_once(cs[c], &d, in, n, init, c != 0);
                if (memcmp(want, got, n * 4)) {
                    print_error("portable custom float scan n=%zu (context %d) differs from "
                                "the reference\n", n, c + 1);
                    ++failures;
                }
                free(got);
            }
            free(in);
            free(init);
            free(want);
        }
        for (int c = 0; c < 3; ++c)
            clprim_operator_release(ops[c]);
    }
    clprim_context_release(sp);
    clprim_context_release(sp_polls);
    clprim_context_release(three);
    assert_int_equal(failures, 0);
}

/* ---- RUN_TO_RUN segmented scans and reduces ----
 * On contexts with small tiles (knobs: SEG_WG work-items x SEG_ITEMS
 * elements), so that a few thousand elements cross many tiles; a twin polls
 * once (the fallback wherever a predecessor is late), another has every
 * third tile never publish (CLPRIM_SEGMENT_TEST_SILENT: the fallback for
 * certain, and walks past it to an earlier PREFIX). Every
 * run's bits must equal the first's, and, where docs/algorithms.md's order
 * alone fixes them, the host model's (clprim_ref_segmented_run_to_run):
 * on CPUs runs are rarely timed differently, so the model is what lets a
 * wrong order fail. Everything is also checked against the exact sums. */
#define SEG_WG 32
#define SEG_ITEMS 4
static clprim_context *seg_ctx, *seg_fallback, *seg_silent;
/* SEG_WG, or the SIMD width where that is wider (the row's work-group is
 * clamped up to whole SIMD groups: CLPRIM_SUB_GROUP_SIZE=64) */
static unsigned seg_wg;

/* Where a case runs: the contexts of its runs (twice on the first, twice
 * on the second, once on the third where there is one) and their tile
 * geometry, which the model needs. */
typedef struct seg_geom {
    clprim_context *ctx[3];
    size_t wg, items;
} seg_geom;

/* Head counts of n elements (heads[0] >= 1): segments of 1 to 20, 100 to
 * 400 and 600 to 3000 elements (these span many tiles) mixed (layout
 * 0), one segment (1), or (2) short ones mixed with ones that end in the
 * first run of a small-context tile 1 to 12 tiles on (whose value takes the
 * carry: the model knows its bits); `empty`: some positions start several segments
 * (empty ones before them: offsets). */
static unsigned *seg_heads(size_t n, int layout, int empty, uint64_t *seed)
{
    unsigned *h = calloc(n ? n : 1, sizeof *h);
    assert_non_null(h);
    for (size_t i = 0; i < n;) {
        const uint64_t r = tu_rand(seed);
        const size_t tile = SEG_WG * SEG_ITEMS,
                     len = layout == 1   ? n
                           : r % 3 == 0 ? 1 + r / 3 % 20
                           : layout == 2 ? (i / tile + 1 + r / 3 % 12) * tile + 1 + r / 40 % 3 - i
                           : r % 3 == 1 ? 100 + r / 3 % 301
                                        : 600 + r / 3 % 2401;
        h[i] = 1 + (empty && r % 7 == 0 ? (unsigned)(r / 7 % 3) : 0u);
        i += len;
    }
    return h;
}

/* The exact segmented scan in long double, and a bound on any order's
 * rounding there (as check_scan). */
static int seg_close(clprim_type type, long double got, long double exact, long double mag)
{
    const long double eps = type == CLPRIM_TYPE_FLOAT ? 2e-4L : 1e-12L;
    return fabsl(got - exact) <= eps * (mag + 1);
}

/* how a case folds: the built-in sum, the caller's operator (a float sum
 * it cannot declare associative), or the sum through a transform x * 2 (exact:
 * the model sums the doubled values) */
enum { SEG_SUM, SEG_CUSTOM, SEG_TRANSFORM };

typedef struct seg_case {
    clprim_segments_kind kind;
    int reduce, exclusive, via, layout;
    clprim_type type;
    size_t n;
} seg_case;

/* One call through the host helpers (the scan in place on the device; the
 * reduce out of place), or a scan out of place between device buffers
 * (segs_bytes of segments); for a reduce out holds the segments' values
 * (count of them in *count, keys to keys_out). */
static void seg_once(clprim_context *c, const seg_case *k, clprim_operator *op, const void *segs,
                     size_t segs_bytes, const clprim_segments *sd, const void *in, void *out,
                     void *keys_out, size_t *count, int out_of_place)
{
    const size_t e = clprim_type_size(k->type);
    const clprim_transform tf = {k->type, k->type == CLPRIM_TYPE_FLOAT ? "x * 2.0f" : "x * 2.0"};
    const clprim_transform *t = k->via == SEG_TRANSFORM ? &tf : NULL;
    memset(out, 0xA5, k->n * e + 1);
    if (out_of_place && !k->reduce) {
        const clprim_scan_desc d = {op ? 0 : k->type, CLPRIM_OP_SUM, k->exclusive,
                                    CLPRIM_SCAN_AUTO, op, t, CLPRIM_REPRO_RUN_TO_RUN};
        clprim_segments dev = *sd;
        cl_mem a = tu_buffer(c, k->n * e, in, CL_MEM_READ_ONLY),
               b = tu_buffer(c, k->n * e, out, CL_MEM_READ_WRITE),
               g = tu_buffer(c, segs_bytes, segs, CL_MEM_READ_ONLY);
        dev.mem = g;
        assert_int_equal(clprim_segmented_scan(c, NULL, &d, &dev, a, 0, b, 0, k->n, 0, NULL, NULL),
                         CLPRIM_SUCCESS);
        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(c), b, CL_TRUE, 0, k->n * e,
                                             out, 0, NULL, NULL),
                         CL_SUCCESS);
        clReleaseMemObject(a);
        clReleaseMemObject(b);
        clReleaseMemObject(g);
        *count = k->n;
    } else if (k->reduce) {
        const clprim_reduce_desc d = {op ? 0 : k->type, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, op,
                                      t, CLPRIM_REPRO_RUN_TO_RUN};
        assert_int_equal(clprim_segmented_reduce_host(c, &d, sd, segs, in, k->n, out, keys_out,
                                                      count),
                         CLPRIM_SUCCESS);
    } else {
        const clprim_scan_desc d = {op ? 0 : k->type, CLPRIM_OP_SUM, k->exclusive,
                                    CLPRIM_SCAN_AUTO, op, t, CLPRIM_REPRO_RUN_TO_RUN};
        assert_int_equal(clprim_segmented_scan_host(c, &d, sd, segs, in, out, k->n),
                         CLPRIM_SUCCESS);
        *count = k->n;
    }
}

/* Checks a result against the model where it knows the bits, and against
 * the exact sums everywhere; returns the failures (printed). */
/* Values the model fixed, over every case, of scans [0] and reduces [1]:
 * a case of long segments may hold none (a reduce's value is fixed only
 * where its segment ends in the first run of a tile, 1 in 32 on the small
 * contexts: 31 segments, none fixed, in 37% of seeds), so only the whole
 * test must check some of each. */
static size_t seg_known[2];

static size_t seg_check(const seg_case *k, const seg_geom *g, const char *what, const void *in,
                        const unsigned *h,
                        const void *model, const unsigned char *known, const void *got,
                        size_t count, const cl_int *keys, const cl_int *keys_got)
{
    const size_t e = clprim_type_size(k->type);
    size_t failures = 0, rank = 0, known_n = 0, checked = 0;
    long double sum = 0, mag = 0;
    for (size_t i = 0; i < k->n && failures < 5; ++i) {
        const long double x = value_at(k->type, in, i);
        if (h[i]) {
            /* a reduce: the empty segments before this one hold the identity */
            for (unsigned z = 1; k->reduce && z < h[i] && rank < count; ++z, ++rank)
                if (value_at(k->type, got, rank) != 0 || signbit((double)value_at(k->type, got, rank))) {
                    print_error("%s: empty segment %zu holds %.17Lg\n", what, rank,
                                value_at(k->type, got, rank));
                    ++failures;
                }
            sum = mag = 0;
        }
        /* what element i should show: its inclusive value, the one before
         * it (exclusive), or at a segment's end its segment's (reduce) */
        const int end = i + 1 == k->n || h[i + 1];
        size_t at = i;
        int exact_known = known[i];
        long double exact = sum + x, bound = mag + fabsl(x);
        const unsigned char *want = (const unsigned char *)model + i * e;
        unsigned char zero[8] = {0};
        if (k->exclusive) {
            exact = sum;
            bound = mag;
            exact_known = h[i] || (i % g->items != 0 && known[i - 1]);
            want = h[i] ? zero : (const unsigned char *)model + (i - 1) * e;
        }
        if (k->reduce) {
            at = rank;
            if (!end) {
                exact_known = 0;
                at = SIZE_MAX;
            } else if (rank >= count) {
                print_error("%s: %zu segments reported, segment %zu ends at %zu\n", what, count,
                            rank, i);
                return failures + 1;
            } else if (keys && keys_got[rank] != keys[i]) {
                print_error("%s: keys_out[%zu] = %d, not %d\n", what, rank, keys_got[rank],
                            keys[i]);
                ++failures;
            }
        }
        if (at != SIZE_MAX) {
            const unsigned char *g = (const unsigned char *)got + at * e;
            known_n += exact_known;
            ++checked;
            if (exact_known && memcmp(g, want, e)) {
                print_error("%s: element %zu (out[%zu]) = %.17Lg, the fixed order gives %.17Lg\n",
                            what, i, at, value_at(k->type, g, 0), value_at(k->type, want, 0));
                ++failures;
            } else if (!seg_close(k->type, value_at(k->type, g, 0), exact, bound)) {
                print_error("%s: element %zu (out[%zu]) = %.17Lg, the sum is %.17Lg\n", what, i,
                            at, value_at(k->type, g, 0), exact);
                ++failures;
            }
            rank += k->reduce;
        }
        sum += x;
        mag += fabsl(x);
    }
    if (!failures && k->reduce && rank != count) {
        print_error("%s: %zu segments reported, %zu found\n", what, count, rank);
        ++failures;
    }
    print_message("# %s: %zu of %zu values bit-checked against the model\n", what, known_n,
                  checked);
    seg_known[k->reduce != 0] += known_n;
    return failures;
}

static size_t seg_run_case(const seg_case *k, const seg_geom *g, uint64_t *seed)
{
    static const char *const kinds[] = {"flags", "uint32 flags", "keys", "offsets"};
    const size_t n = k->n, e = clprim_type_size(k->type);
    const clprim_operator_desc od = {.type = "float", .combine = "a + b", .identity = "0.0f",
                                     .size = sizeof(float)};
    clprim_operator *ops[3] = {NULL, NULL, NULL};
    unsigned *h = seg_heads(n, k->layout, k->kind == CLPRIM_SEGMENTS_OFFSETS, seed);
    void *in = random_floats(k->type, n, tu_rand(seed)), *sums = malloc(n * e + 1);
    void *model = malloc(n * e + 1), *runs[5];
    unsigned char *known = malloc(n + 1), *flags = malloc(n + 1);
    cl_int *keys = malloc((n + 1) * sizeof *keys), *keys_got[5];
    cl_uint *offs = malloc((2 * n + 4) * sizeof *offs);
    clprim_segments sd = {k->kind, NULL, 0, 0, NULL, 0};
    const void *segs = flags;
    size_t failures = 0, counts[5], segs_bytes = n;
    char what[200];
    assert_true(model && known && flags && keys && offs);
    for (size_t i = 0, key = tu_rand(seed) % 1000; i < n; ++i) {
        flags[i] = h[i] ? (unsigned char)(1 + tu_rand(seed) % 255) : 0;
        key += h[i] ? 1 + tu_rand(seed) % 3 : 0;
        keys[i] = (cl_int)key;
        for (unsigned z = 0; z < h[i]; ++z)
            offs[sd.num_segments++] = (cl_uint)i;
    }
    if (k->kind == CLPRIM_SEGMENTS_KEYS) {
        sd.type = CLPRIM_TYPE_INT32;
        segs = keys;
        segs_bytes = n * sizeof *keys;
        sd.num_segments = 0;
    } else if (k->kind == CLPRIM_SEGMENTS_OFFSETS) {
        sd.type = CLPRIM_TYPE_UINT32;
        offs[sd.num_segments] = (cl_uint)n;
        segs = offs;
        segs_bytes = (sd.num_segments + 1) * sizeof *offs;
    } else if (k->kind == CLPRIM_SEGMENTS_FLAGS_U32) { /* offs reused for the flag words */
        for (size_t i = 0; i < n; ++i)
            offs[i] = h[i] ? (cl_uint)(tu_rand(seed) >> 33) | 0x100u : 0u;
        segs = offs;
        segs_bytes = n * sizeof *offs;
        sd.num_segments = 0;
    } else {
        sd.num_segments = 0;
    }
    snprintf(what, sizeof what, "run-to-run %s segmented %s by %s n=%zu%s%s", clprim_type_name(k->type),
             k->reduce ? "reduce" : k->exclusive ? "exclusive scan" : "scan", kinds[k->kind], n,
             k->via == SEG_CUSTOM ? " (custom operator)" : k->via == SEG_TRANSFORM ? " of x * 2" : "",
             k->layout == 1 ? " one segment" : k->layout == 2 ? " ends after tile starts" : "");
    /* what is summed: x, or x * 2 through the transform (exact) */
    assert_non_null(sums);
    for (size_t i = 0; i < n; ++i)
        if (k->type == CLPRIM_TYPE_FLOAT)
            ((float *)sums)[i] = ((const float *)in)[i] * (k->via == SEG_TRANSFORM ? 2.0f : 1.0f);
        else
            ((double *)sums)[i] = ((const double *)in)[i] * (k->via == SEG_TRANSFORM ? 2.0 : 1.0);
    if (k->via == SEG_CUSTOM) {
        for (int c = 0; c < 3; ++c)
            assert_true(!g->ctx[c] ||
                        clprim_operator_create(g->ctx[c], &od, &ops[c]) == CLPRIM_SUCCESS);
    }
    assert_int_equal(
        clprim_ref_segmented_run_to_run(k->type, sums, h, n, g->wg, g->items, model, known), 0);
    for (int r = 0; r < 5; ++r) {
        /* twice on the first context (a scan in place, then out of place),
         * twice on the second (one poll), once on the third (silent tiles:
         * out of place, as the switch needs) */
        const int c = r < 2 ? 0 : r < 4 ? 1 : 2;
        runs[r] = malloc(n * e + 1);
        keys_got[r] = malloc((n + 1) * sizeof(cl_int));
        assert_true(runs[r] && keys_got[r]);
        if (!g->ctx[c]) {
            counts[r] = counts[0];
            memcpy(runs[r], runs[0], counts[0] * e);
            continue;
        }
        seg_once(g->ctx[c], k, ops[c], segs, segs_bytes, &sd, in, runs[r],
                 k->kind == CLPRIM_SEGMENTS_KEYS ? keys_got[r] : NULL, &counts[r],
                 r % 2 == 1 || r == 4);
        if (r == 0)
            failures += seg_check(k, g, what, sums, h, model, known, runs[0], counts[0],
                                  k->reduce && k->kind == CLPRIM_SEGMENTS_KEYS ? keys : NULL,
                                  keys_got[0]);
        else if (counts[r] != counts[0] || memcmp(runs[r], runs[0], counts[0] * e)) {
            size_t i = 0;
            while (i < counts[0] && !memcmp((char *)runs[0] + i * e, (char *)runs[r] + i * e, e))
                ++i;
            print_error("%s: run %d (%s) differs from the first at %zu\n", what, r,
                        r == 1 ? "again" : r < 4 ? "one poll" : "silent tiles", i);
            ++failures;
        }
    }
    for (int r = 0; r < 5; ++r) {
        free(runs[r]);
        free(keys_got[r]);
    }
    for (int c = 0; c < 3; ++c)
        clprim_operator_release(ops[c]);
    free(h);
    free(in);
    free(sums);
    free(model);
    free(known);
    free(flags);
    free(keys);
    free(offs);
    return failures;
}

static void test_run_to_run_segmented(void **state)
{
    uint64_t seed = tu_seed() ^ 0x5e6;
    size_t failures = 0;
    (void)state;
    if (!info.has_single_pass)
        skip();
    /* float: every kind, scan and reduce; one segment over everything (the
     * tiles' chain alone); the caller's operator; double where the
     * device has it */
    static const seg_case cases[] = {
        {CLPRIM_SEGMENTS_FLAGS_U8, 0, 0, 0, 0, CLPRIM_TYPE_FLOAT, 40009},
        {CLPRIM_SEGMENTS_FLAGS_U8, 0, 1, 0, 0, CLPRIM_TYPE_FLOAT, 5003},
        {CLPRIM_SEGMENTS_FLAGS_U8, 0, 0, 0, 1, CLPRIM_TYPE_FLOAT, 20011},
        {CLPRIM_SEGMENTS_KEYS, 0, 0, 0, 0, CLPRIM_TYPE_FLOAT, 30001},
        {CLPRIM_SEGMENTS_OFFSETS, 0, 1, 0, 0, CLPRIM_TYPE_FLOAT, 30011},
        {CLPRIM_SEGMENTS_FLAGS_U8, 1, 0, 0, 2, CLPRIM_TYPE_FLOAT, 40013},
        {CLPRIM_SEGMENTS_KEYS, 1, 0, 0, 0, CLPRIM_TYPE_FLOAT, 30029},
        {CLPRIM_SEGMENTS_KEYS, 1, 0, 0, 2, CLPRIM_TYPE_FLOAT, 30031},
        {CLPRIM_SEGMENTS_KEYS, 1, 0, 0, 1, CLPRIM_TYPE_FLOAT, 9001},
        {CLPRIM_SEGMENTS_OFFSETS, 1, 0, 0, 2, CLPRIM_TYPE_FLOAT, 30047},
        {CLPRIM_SEGMENTS_FLAGS_U8, 0, 0, 1, 0, CLPRIM_TYPE_FLOAT, 20021},
        {CLPRIM_SEGMENTS_KEYS, 1, 0, 1, 2, CLPRIM_TYPE_FLOAT, 20023},
        {CLPRIM_SEGMENTS_KEYS, 0, 0, 2, 0, CLPRIM_TYPE_FLOAT, 20047},
        {CLPRIM_SEGMENTS_FLAGS_U32, 1, 0, 0, 2, CLPRIM_TYPE_FLOAT, 20051},
        {CLPRIM_SEGMENTS_FLAGS_U8, 0, 0, 0, 0, CLPRIM_TYPE_DOUBLE, 30059},
        {CLPRIM_SEGMENTS_OFFSETS, 1, 0, 0, 2, CLPRIM_TYPE_DOUBLE, 20029},
        {CLPRIM_SEGMENTS_FLAGS_U8, 0, 0, 0, 0, CLPRIM_TYPE_FLOAT, 1},
        {CLPRIM_SEGMENTS_KEYS, 1, 0, 0, 0, CLPRIM_TYPE_FLOAT, 127},
    };
    const seg_geom small = {{seg_ctx, seg_fallback, seg_silent}, seg_wg, SEG_ITEMS};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        if (cases[c].type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        failures += seg_run_case(&cases[c], &small, &seed);
    }
    /* the device's own row, the model's tile read from it */
    {
        const seg_case big = {CLPRIM_SEGMENTS_FLAGS_U8, 0, 0, 0, 0, CLPRIM_TYPE_FLOAT, 200003};
        char row[512];
        assert_true(clprim_context_tuning(ctx, "segment", 4, big.n, row, sizeof row) > 0);
        const seg_geom own = {{ctx, fallback, NULL}, tu_row_value(row, "wg_size"),
                              tu_row_value(row, "items")};
        failures += seg_run_case(&big, &own, &seed);
    }
    if (!seg_known[0] || !seg_known[1]) {
        print_error("the model fixed no value's bits in any segmented %s\n",
                    seg_known[0] ? "reduce" : "scan");
        ++failures;
    }
    assert_int_equal(failures, 0);
}

/* What is not implemented is refused, naming the field; exact elements take
 * every level. */
static void test_levels(void **state)
{
    const size_t n = 5000;
    float *in = random_floats(CLPRIM_TYPE_FLOAT, n, tu_seed() ^ 0x1e7e1);
    float *out = malloc(n * sizeof(float));
    cl_int *ints = malloc(n * sizeof(cl_int));
    unsigned char *flags = calloc(n, 1);
    clprim_scan_desc d = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL,
                          CLPRIM_REPRO_PORTABLE};
    clprim_reduce_desc rd = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL,
                             CLPRIM_REPRO_PORTABLE};
    const clprim_segments seg = {CLPRIM_SEGMENTS_FLAGS_U8, NULL, 0, 0, NULL, 0};
    float v;
    (void)state;
    assert_true(out && ints && flags);
    assert_string_equal(clprim_repro_name(CLPRIM_REPRO_RUN_TO_RUN), "run-to-run");
    assert_null(clprim_repro_name(CLPRIM_REPRO_COUNT_));
    /* PORTABLE scans and reduces (test_portable_*) */
    assert_int_equal(clprim_scan_host(ctx, &d, in, out, n), CLPRIM_SUCCESS);
    /* PORTABLE reduces (test_portable_reduce), through a transform too */
    rd.transform = &(const clprim_transform){CLPRIM_TYPE_FLOAT, "x * 2.0f"};
    assert_int_equal(clprim_reduce_host(ctx, &rd, in, n, &v), CLPRIM_SUCCESS);
    d.repro = (clprim_repro)7;
    assert_int_equal(tu_refused(ctx, clprim_scan_host(ctx, &d, in, out, n),
                                CLPRIM_INVALID_ARGUMENT, "desc->repro 7"), 0);
    /* integers (and min and max) are exact: any level runs the ordinary
     * path (a reduce here: its programs build fastest on CI) */
    uint64_t s = tu_seed();
    cl_int isum = 0;
    int64_t acc = 0;
    for (size_t i = 0; i < n; ++i) {
        ints[i] = (cl_int)(tu_rand(&s) % 2001) - 1000;
        acc += ints[i];
    }
    rd = (clprim_reduce_desc){CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL,
                              CLPRIM_REPRO_PORTABLE};
    assert_int_equal(clprim_reduce_host(ctx, &rd, ints, n, &isum), CLPRIM_SUCCESS);
    assert_int_equal(isum, acc);
    /* the segmented calls have no portable kernels yet (RUN_TO_RUN:
     * test_run_to_run_segmented) */
    if (info.has_single_pass) {
        d.type = CLPRIM_TYPE_FLOAT;
        d.repro = CLPRIM_REPRO_PORTABLE;
        flags[0] = flags[n / 2] = 1;
        assert_int_equal(tu_refused(ctx, clprim_segmented_scan_host(ctx, &d, &seg, flags, in, out,
                                                                    n),
                                    CLPRIM_UNSUPPORTED, "desc->repro portable"), 0);
    }
    /* the multi-device calls: RUN_TO_RUN reaches the parts (PORTABLE:
     * test_portable_multi) */
    {
        cl_mem b = tu_buffer(ctx, n * sizeof(float), in, CL_MEM_READ_WRITE);
        const clprim_part part = {.ctx = ctx, .in = b, .n = n};
        rd = (clprim_reduce_desc){CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL,
                                  NULL, CLPRIM_REPRO_RUN_TO_RUN};
        assert_int_equal(clprim_multi_reduce(&rd, &part, 1, &v), CLPRIM_SUCCESS);
        clReleaseMemObject(b);
    }
    /* the table's look-back refuses RUN_TO_RUN (AUTO takes rows then
     * columns: test_fields runs it) */
    if (info.has_single_pass) {
        const clprim_sat_desc sd = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, NULL, CLPRIM_PIXEL_SAME, 0,
                                    CLPRIM_SAT_DECOUPLED_LOOKBACK, CLPRIM_REPRO_RUN_TO_RUN};
        assert_int_equal(tu_refused(ctx, clprim_sat_host(ctx, &sd, in, 50, out, 50, 50, 100),
                                    CLPRIM_UNSUPPORTED, "desc->repro run-to-run"), 0);
    }
    free(in);
    free(out);
    free(ints);
    free(flags);
}

/* PORTABLE tables: every row, then every column, folded in order by one
 * work-item, with no fused multiply-add: bit for bit the host's serial
 * folds, whatever desc->algorithm asks (the look-back's is refused), for
 * float and double, inclusive and exclusive, images wider and taller than
 * a work-group. */
static void test_portable_sat(void **state)
{
    static const size_t sides[][2] = {{1, 1}, {37, 53}, {300, 7}, {129, 260}};
    uint64_t seed = tu_seed() ^ 0x5a7;
    size_t failures = 0;
    (void)state;
    for (int ty = 0; ty < 2; ++ty) {
        const clprim_type type = ty ? CLPRIM_TYPE_DOUBLE : CLPRIM_TYPE_FLOAT;
        const size_t e = clprim_type_size(type);
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        for (size_t k = 0; k < sizeof sides / sizeof sides[0]; ++k) {
            const size_t w = sides[k][0], h = sides[k][1];
            const int exclusive = (int)(k % 2);
            const size_t ow = w + (size_t)exclusive, oh = h + (size_t)exclusive;
            const clprim_sat_desc d = {type, CLPRIM_OP_SUM, NULL, CLPRIM_PIXEL_SAME, exclusive,
                                       k == 2 ? CLPRIM_SAT_ROWS_THEN_COLUMNS : CLPRIM_SAT_AUTO,
                                       CLPRIM_REPRO_PORTABLE};
            void *in = random_floats(type, w * h, tu_rand(&seed));
            unsigned char *want = malloc(ow * oh * e), *got = malloc(ow * oh * e);
            assert_non_null(want);
            assert_non_null(got);
            memset(got, 0xA5, ow * oh * e); /* poisoned */
            assert_int_equal(clprim_ref_sat_portable(type, exclusive, in, w, h, want), 0);
            assert_int_equal(clprim_sat_host(ctx, &d, in, w, got, ow, w, h), CLPRIM_SUCCESS);
            if (memcmp(want, got, ow * oh * e)) {
                const size_t i = first_difference(want, got, ow * oh, e);
                print_error("portable %s table %zu x %zu%s: out[%zu] = %.17Lg, the reference "
                            "%.17Lg\n", clprim_type_name(type), w, h,
                            exclusive ? " exclusive" : "", i, value_at(type, got, i),
                            value_at(type, want, i));
                ++failures;
            }
            free(in);
            free(want);
            free(got);
        }
    }
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels), cmocka_unit_test(test_run_to_run_scan),
        cmocka_unit_test(test_run_to_run_custom), cmocka_unit_test(test_run_to_run_segmented),
        cmocka_unit_test(test_run_to_run_reduce), cmocka_unit_test(test_portable_reduce),
        cmocka_unit_test(test_portable_scan), cmocka_unit_test(test_portable_single_pass),
        cmocka_unit_test(test_portable_multi),
        cmocka_unit_test(test_portable_sat), cmocka_unit_test(test_portable_tiles)};
    int failed;
    ctx = tu_context();
    assert_int_equal(clprim_context_device_info(ctx, &info), CLPRIM_SUCCESS);
    fallback = context_with("CLPRIM_LOOKBACK_SPINS", "1");
    {
        const char *const small[] = {"CLPRIM_SEGMENT_WG_SIZE", "32", "CLPRIM_SEGMENT_ITEMS", "4",
                                     NULL};
        const char *const polls[] = {"CLPRIM_SEGMENT_WG_SIZE", "32", "CLPRIM_SEGMENT_ITEMS", "4",
                                     "CLPRIM_LOOKBACK_SPINS", "1", NULL};
        const char *const silent[] = {"CLPRIM_SEGMENT_WG_SIZE", "32", "CLPRIM_SEGMENT_ITEMS", "4",
                                      "CLPRIM_SEGMENT_TEST_SILENT", "1", NULL};
        char row[512];
        seg_ctx = context_knobs(small);
        seg_fallback = context_knobs(polls);
        seg_silent = context_knobs(silent);
        /* the model's tile: the knobs must have reached the segment row */
        assert_true(clprim_context_tuning(seg_ctx, "segment", 4, 1000, row, sizeof row) > 0);
        seg_wg = (unsigned)tu_row_value(row, "wg_size");
        assert_int_equal(seg_wg, info.simd_width > SEG_WG ? info.simd_width : SEG_WG);
        assert_int_equal(tu_row_value(row, "items"), SEG_ITEMS);
    }
    failed = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(seg_ctx);
    clprim_context_release(seg_fallback);
    clprim_context_release(seg_silent);
    clprim_context_release(fallback);
    clprim_context_release(ctx);
    return failed;
}

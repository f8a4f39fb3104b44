/* SPDX-License-Identifier: MIT */
/* User-defined operators and element types: each operator (one of them
 * built on a clprim_element) scanned by every
 * algorithm (inclusive and exclusive) and reduced by every algorithm, on
 * fresh random inputs with a poisoned output, against a sequential host
 * version of the same operator; then the descriptions that must be refused. */
#include "common/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static clprim_context *ctx;
static clprim_device_info info;

/* One operator: its OpenCL C description and the host's version of it. All
 * four are exact (integer-valued floats, wrapping integers, selections), so
 * results compare bytewise whatever the association order. */
typedef struct op_case {
    const char *name;
    clprim_operator_desc desc;
    void (*combine)(const void *a, const void *b, void *r);
    void (*identity)(void *r);
    void (*random)(void *x, uint64_t *rng);
} op_case;

/* 1. The teaching kit's maximum by magnitude of 3-D points, as a 12-byte
 * struct: the point farther from the origin, the earlier one on ties (which
 * keeps it associative, not commutative). Coordinates are small integers, so
 * squared magnitudes are exact on both sides. */
typedef struct point {
    float x, y, z;
} point;

static float mag2(const point *p)
{
    return p->x * p->x + p->y * p->y + p->z * p->z;
}
static void point_combine(const void *a, const void *b, void *r)
{
    memmove(r, mag2(b) > mag2(a) ? b : a, sizeof(point));
}
static void point_identity(void *r)
{
    memset(r, 0, sizeof(point));
}
static void point_random(void *x, uint64_t *s)
{
    point p;
    p.x = (float)((int)(tu_rand(s) % 201) - 100);
    p.y = (float)((int)(tu_rand(s) % 201) - 100);
    p.z = (float)((int)(tu_rand(s) % 201) - 100);
    memcpy(x, &p, sizeof p);
}

/* 2. Affine maps x -> a*x + b modulo 2^32, composed in sequence order
 * (first a, then b): associative, not commutative, exact. */
static void affine_combine(const void *a, const void *b, void *r)
{
    cl_uint f[2], g[2], h[2];
    memcpy(f, a, sizeof f);
    memcpy(g, b, sizeof g);
    h[0] = f[0] * g[0];
    h[1] = g[0] * f[1] + g[1];
    memcpy(r, h, sizeof h);
}
static void affine_identity(void *r)
{
    const cl_uint e[2] = {1, 0};
    memcpy(r, e, sizeof e);
}
static void affine_random(void *x, uint64_t *s)
{
    const cl_uint f[2] = {(cl_uint)tu_rand(s) | 1u, (cl_uint)tu_rand(s)};
    memcpy(x, f, sizeof f);
}

/* 3. Arg-min over (value, index) pairs, the lowest index winning ties: few
 * distinct values, so ties are common. Commutative (a total order). */
typedef struct argmin {
    float value;
    cl_uint index;
} argmin;

static void argmin_combine(const void *a, const void *b, void *r)
{
    argmin x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    memcpy(r, (y.value < x.value || (y.value == x.value && y.index < x.index)) ? &y : &x,
           sizeof x);
}
static void argmin_identity(void *r)
{
    argmin e = {INFINITY, 0xFFFFFFFFu};
    memcpy(r, &e, sizeof e);
}
static void argmin_random(void *x, uint64_t *s)
{
    argmin p = {(float)(tu_rand(s) % 50), (cl_uint)(tu_rand(s) % 100000u)};
    memcpy(x, &p, sizeof p);
}

/* 4. A 16-byte struct with an 8-byte member (8-byte alignment in local
 * memory and in the look-back's value slots): wrapping sum, min and max. */
typedef struct stats {
    cl_ulong sum;
    cl_uint lo, hi;
} stats;

static void stats_combine(const void *a, const void *b, void *r)
{
    stats x, y, z;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    z.sum = x.sum + y.sum;
    z.lo = y.lo < x.lo ? y.lo : x.lo;
    z.hi = y.hi > x.hi ? y.hi : x.hi;
    memcpy(r, &z, sizeof z);
}
static void stats_identity(void *r)
{
    stats e = {0, 0xFFFFFFFFu, 0};
    memcpy(r, &e, sizeof e);
}
static void stats_random(void *x, uint64_t *s)
{
    const cl_uint v = (cl_uint)tu_rand(s);
    stats p = {tu_rand(s), v, v};
    memcpy(x, &p, sizeof p);
}

static const op_case cases[] = {
    {"max-by-magnitude point",
     {"point", "typedef struct { float x, y, z; } point;\n"
               "float mag2(point p) { return p.x * p.x + p.y * p.y + p.z * p.z; }\n"
               "point point_zero(void) { point p; p.x = p.y = p.z = 0.0f; return p; }\n",
      "mag2(b) > mag2(a) ? b : a", "point_zero()", sizeof(point), 0, NULL, 0, NULL},
     point_combine, point_identity, point_random},
    {"affine uint2",
     {"uint2", NULL, "(uint2)(a.x * b.x, b.x * a.y + b.y)", "(uint2)(1u, 0u)", 2 * sizeof(cl_uint),
      0, NULL, 0, NULL},
     affine_combine, affine_identity, affine_random},
    {"arg-min",
     {"argmin_t", "typedef struct { float value; uint index; } argmin_t;\n"
                  "argmin_t argmin_make(float v, uint i) { argmin_t r; r.value = v; r.index = i; return r; }\n",
      "(b.value < a.value || (b.value == a.value && b.index < a.index)) ? b : a",
      "argmin_make(INFINITY, UINT_MAX)", sizeof(argmin), CLPRIM_OPERATOR_COMMUTATIVE, NULL, 0, NULL},
     argmin_combine, argmin_identity, argmin_random},
    {"16-byte stats",
     {"struct stats", "struct stats { ulong sum; uint lo, hi; };\n"
                      "struct stats stats_combine(struct stats a, struct stats b)\n"
                      "{ struct stats r; r.sum = a.sum + b.sum; r.lo = min(a.lo, b.lo);\n"
                      "  r.hi = max(a.hi, b.hi); return r; }\n"
                      "struct stats stats_none(void)\n"
                      "{ struct stats r; r.sum = 0; r.lo = UINT_MAX; r.hi = 0; return r; }\n",
      "stats_combine(a, b)", "stats_none()", sizeof(stats), 0, NULL, 0, NULL},
     stats_combine, stats_identity, stats_random},
};
#define NCASES (sizeof cases / sizeof cases[0])
static clprim_operator *ops[NCASES];

static void check_bytes(const op_case *oc, const char *what, size_t n, const unsigned char *got,
                        const unsigned char *ref, uint64_t seed)
{
    const size_t size = oc->desc.size;
    size_t i, bad = 0, first = n;
    for (i = 0; i < n; ++i)
        if (memcmp(got + i * size, ref + i * size, size) != 0 && bad++ == 0)
            first = i;
    if (bad)
        fail_msg("%s %s n=%zu seed=%llu: %zu of %zu elements differ, first at %zu", oc->name,
                 what, n, (unsigned long long)seed, bad, n, first);
}

/* Scans n random elements on the device (poisoned output, or in place) and
 * compares every element with the sequential host scan. */
static void run_scan(size_t which, clprim_scan_algorithm algo, int exclusive, size_t n,
                     int in_place, uint64_t seed)
{
    const op_case *oc = &cases[which];
    const size_t size = oc->desc.size, bytes = (n ? n : 1) * size;
    unsigned char *x = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes), run[64];
    cl_mem in = NULL, out = NULL;
    clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, exclusive, algo, ops[which], NULL, CLPRIM_REPRO_NONE};
    uint64_t s = seed;
    char what[96];
    cl_int err;
    size_t i;

    assert_non_null(x);
    assert_non_null(ref);
    assert_non_null(got);
    for (i = 0; i < n; ++i)
        oc->random(x + i * size, &s);
    for (i = 0; i < bytes; ++i)
        got[i] = (unsigned char)tu_rand(&s); /* poison */
    oc->identity(run);
    for (i = 0; i < n; ++i) {
        if (exclusive)
            memcpy(ref + i * size, run, size);
        oc->combine(run, x + i * size, run);
        if (!exclusive)
            memcpy(ref + i * size, run, size);
    }
    in = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        bytes, x, &err);
    assert_int_equal(err, CL_SUCCESS);
    out = in_place ? in
                   : clCreateBuffer(clprim_context_cl_context(ctx),
                                    CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, got, &err);
    assert_int_equal(err, CL_SUCCESS);
    snprintf(what, sizeof what, "scan %s %s%s", clprim_scan_algorithm_name(algo),
             exclusive ? "exclusive" : "inclusive", in_place ? " in place" : "");
    err = clprim_scan(ctx, NULL, &d, in, 0, out, 0, n, 0, NULL, NULL);
    if (err != CLPRIM_SUCCESS) {
        char msg[2048];
        clprim_context_last_error(ctx, msg, sizeof msg);
        fail_msg("%s %s: %s: %s", oc->name, what, clprim_status_string(err), msg);
    }
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, bytes, got,
                                         0, NULL, NULL),
                     CL_SUCCESS);
    check_bytes(oc, what, n, got, ref, seed);
    if (!in_place)
        clReleaseMemObject(out);
    clReleaseMemObject(in);
    free(x);
    free(ref);
    free(got);
}

/* Reduces n random elements into a poisoned slot between two guards. */
static void run_reduce(size_t which, clprim_reduce_algorithm algo, size_t n, uint64_t seed)
{
    const op_case *oc = &cases[which];
    const size_t size = oc->desc.size, bytes = (n ? n : 1) * size;
    unsigned char *x = malloc(bytes), ref[3 * 64], got[3 * 64];
    cl_mem in = NULL, result = NULL;
    clprim_reduce_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, algo, ops[which], NULL, CLPRIM_REPRO_NONE};
    uint64_t s = seed;
    char what[64];
    cl_int err;
    size_t i;

    assert_non_null(x);
    for (i = 0; i < n; ++i)
        oc->random(x + i * size, &s);
    for (i = 0; i < 3 * size; ++i)
        ref[i] = got[i] = (unsigned char)tu_rand(&s);
    oc->identity(ref + size);
    for (i = 0; i < n; ++i)
        oc->combine(ref + size, x + i * size, ref + size);
    in = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                        bytes, x, &err);
    assert_int_equal(err, CL_SUCCESS);
    result = clCreateBuffer(clprim_context_cl_context(ctx),
                            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 3 * size, got, &err);
    assert_int_equal(err, CL_SUCCESS);
    snprintf(what, sizeof what, "reduce %s", clprim_reduce_algorithm_name(algo));
    err = clprim_reduce(ctx, NULL, &d, in, 0, n, result, 1, 0, NULL, NULL);
    if (err != CLPRIM_SUCCESS) {
        char msg[2048];
        clprim_context_last_error(ctx, msg, sizeof msg);
        fail_msg("%s %s: %s: %s", oc->name, what, clprim_status_string(err), msg);
    }
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), result, CL_TRUE, 0, 3 * size,
                                         got, 0, NULL, NULL),
                     CL_SUCCESS);
    check_bytes(oc, what, 3, got, ref, seed); /* the result and both guards */
    clReleaseMemObject(result);
    clReleaseMemObject(in);
    free(x);
}

/* Sizes around one element, a work-group, one tile, and several levels of
 * tiles (PoCL: 64-element work-groups, 1024-element multilevel tiles). */
static const size_t sizes[] = {1, 2, 31, 65, 1023, 1025, 4097, 70001};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void scan_all(size_t which)
{
    const uint64_t base = tu_seed() ^ (which << 40);
    int a, ex;
    size_t k;
    for (a = 0; a < CLPRIM_SCAN_ALGORITHM_COUNT_; ++a) {
        if ((a == CLPRIM_SCAN_DOMINO || a == CLPRIM_SCAN_DECOUPLED_LOOKBACK) &&
            !info.has_single_pass)
            continue;
        for (ex = 0; ex < 2; ++ex)
            for (k = 0; k < NSIZES; ++k)
                run_scan(which, (clprim_scan_algorithm)a, ex, sizes[k], k % 3 == 2,
                         base + (uint64_t)(a * 100 + ex * 10 + (int)k));
    }
    run_scan(which, CLPRIM_SCAN_AUTO, 0, 0, 0, base); /* nothing to do, nothing written */
}

static void reduce_all(size_t which)
{
    const uint64_t base = tu_seed() ^ (which << 40) ^ 0x5555;
    int a;
    size_t k;
    for (a = 0; a < CLPRIM_REDUCE_ALGORITHM_COUNT_; ++a) {
        run_reduce(which, (clprim_reduce_algorithm)a, 0, base);
        for (k = 0; k < NSIZES; ++k)
            run_reduce(which, (clprim_reduce_algorithm)a, sizes[k], base + (uint64_t)(a * 10 + (int)k));
    }
}

#define OP_TESTS(i, fn)                                                        \
    static void test_scan_##fn(void **state)                                   \
    {                                                                          \
        (void)state;                                                           \
        scan_all(i);                                                           \
    }                                                                          \
    static void test_reduce_##fn(void **state)                                 \
    {                                                                          \
        (void)state;                                                           \
        reduce_all(i);                                                         \
    }
OP_TESTS(0, max_by_magnitude)
OP_TESTS(1, affine)
OP_TESTS(2, argmin)
OP_TESTS(3, stats16)

/* The affine scan solves x[i] = a[i]*x[i-1] + b[i] (x[-1] = 0): the
 * composed map's constant term is x[i]. Checked against the recurrence run
 * sequentially, through the blocking host helper. */
static void test_linear_recurrence(void **state)
{
    const size_t n = 100000;
    cl_uint *ab = malloc(2 * n * sizeof *ab), x = 0;
    clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, ops[1], NULL, CLPRIM_REPRO_NONE};
    uint64_t s = tu_seed() ^ 0xAFF1;
    size_t i;
    (void)state;
    assert_non_null(ab);
    for (i = 0; i < n; ++i)
        affine_random(ab + 2 * i, &s);
    {
        cl_uint *coef = malloc(2 * n * sizeof *coef);
        assert_non_null(coef);
        memcpy(coef, ab, 2 * n * sizeof *coef);
        assert_int_equal(clprim_scan_host(ctx, &d, ab, ab, n), CLPRIM_SUCCESS);
        for (i = 0; i < n; ++i) {
            x = coef[2 * i] * x + coef[2 * i + 1];
            if (ab[2 * i + 1] != x)
                fail_msg("x[%zu] = %u, the recurrence gives %u", i, ab[2 * i + 1], x);
        }
        free(coef);
    }
    free(ab);
}

static void expect(clprim_status got, clprim_status want, const char *words)
{
    char msg[8192];
    clprim_context_last_error(ctx, msg, sizeof msg);
    if (got != want)
        fail_msg("got %s, want %s (%s)", clprim_status_string(got), clprim_status_string(want),
                 msg);
    if (words && !strstr(msg, words))
        fail_msg("message \"%s\" does not mention \"%s\"", msg, words);
}

/* Still usable: a small built-in scan runs and is right. */
static void expect_usable(void)
{
    cl_int v[5] = {1, 2, 3, 4, 5};
    clprim_scan_desc d = {0};
    assert_int_equal(clprim_scan_host(ctx, &d, v, v, 5), CLPRIM_SUCCESS);
    assert_int_equal(v[4], 15);
}

static void test_refused(void **state)
{
    clprim_operator_desc d;
    clprim_operator *op = (clprim_operator *)1;
    const cl_uint affine_samples[4] = {3, 5, 7, 11};
    (void)state;

    /* incomplete descriptions */
    expect(clprim_operator_create(ctx, NULL, &op), CLPRIM_INVALID_ARGUMENT, "NULL");
    assert_null(op);
    d = cases[1].desc;
    d.combine = NULL;
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "required");
    d = cases[1].desc;
    d.identity = " ";
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "required");
    d = cases[1].desc;
    d.size = 0;
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "size");
    d.size = 8;
    d.sample_count = 2;
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "samples");

    /* source that does not compile: the compiler's log reaches the caller */
    d = cases[0].desc;
    d.combine = "no_such_function(a, b)";
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_BUILD_FAILED, "no_such_function");
    assert_null(op);
    expect_usable();

    /* a size the device disagrees with: float3 is 16 bytes in OpenCL C */
    d = cases[1].desc;
    d.type = "float3";
    d.combine = "a + b";
    d.identity = "(float3)(0.0f)";
    d.size = 3 * sizeof(cl_float);
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "sizeof(float3) is 16");

    /* identities that are not: 1 for a sum fails e op e == e; (0, 0) for
     * affine maps passes that, and fails on a sample */
    d = cases[1].desc;
    d.type = "uint";
    d.combine = "a + b";
    d.identity = "1u";
    d.size = 4;
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "identity op identity");
    d = cases[1].desc;
    d.identity = "(uint2)(0u, 0u)";
    d.samples = affine_samples;
    d.sample_count = 2;
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "sample 0");
    d.identity = cases[1].desc.identity; /* the right one passes with the samples */
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_SUCCESS, NULL);
    clprim_operator_release(op);
    clprim_operator_release(NULL);
    expect_usable();
}

static void test_other_context(void **state)
{
    clprim_context *other = tu_context();
    cl_mem buf;
    cl_int err;
    clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, ops[1], NULL, CLPRIM_REPRO_NONE};
    clprim_reduce_desc rd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, ops[1], NULL, CLPRIM_REPRO_NONE};
    (void)state;
    buf = clCreateBuffer(clprim_context_cl_context(other), CL_MEM_READ_WRITE, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    err = clprim_scan(other, NULL, &d, buf, 0, buf, 0, 4, 0, NULL, NULL);
    assert_int_equal(err, CLPRIM_INVALID_ARGUMENT);
    err = clprim_reduce(other, NULL, &rd, buf, 0, 4, buf, 5, 0, NULL, NULL);
    assert_int_equal(err, CLPRIM_INVALID_ARGUMENT);
    clReleaseMemObject(buf);
    clprim_context_release(other);
}

/* The element types alone (clprim_element): what they refuse, and that an
 * operator takes its type from one (the stats case is built that way, so
 * every scan and reduce of it above runs on an element). */
static void test_element(void **state)
{
    clprim_element_desc e = {cases[3].desc.type, cases[3].desc.source, cases[3].desc.size};
    clprim_element *el = (clprim_element *)1;
    clprim_operator_desc d = {0};
    clprim_operator *op = (clprim_operator *)1;
    clprim_context *other;
    (void)state;

    expect(clprim_element_create(ctx, NULL, &el), CLPRIM_INVALID_ARGUMENT, "NULL");
    assert_null(el);
    e.type = " ";
    expect(clprim_element_create(ctx, &e, &el), CLPRIM_INVALID_ARGUMENT, "type is required");
    e.type = cases[3].desc.type;
    e.size = 0;
    expect(clprim_element_create(ctx, &e, &el), CLPRIM_INVALID_ARGUMENT, "size");
    e.size = 12; /* the struct is 16 bytes on the device */
    expect(clprim_element_create(ctx, &e, &el), CLPRIM_INVALID_ARGUMENT, "sizeof(struct stats) is 16");
    assert_null(el);
    e.size = cases[3].desc.size;
    e.source = "struct stats { ulong sum; no_such_type lo; };\n";
    expect(clprim_element_create(ctx, &e, &el), CLPRIM_BUILD_FAILED, "no_such_type");
    assert_null(el);
    expect_usable();

    /* a good one: its size, and an operator on it refused from another context */
    e.source = cases[3].desc.source;
    expect(clprim_element_create(ctx, &e, &el), CLPRIM_SUCCESS, NULL);
    assert_int_equal(clprim_element_size(el), sizeof(stats));
    assert_int_equal(clprim_element_size(NULL), 0);
    d.combine = cases[3].desc.combine;
    d.identity = "stats_combine(a, b)"; /* not an identity expression: no `a` in scope */
    d.element = el;
    /* the element brings type, source and size: given too, they are refused */
    d.type = cases[3].desc.type;
    d.source = NULL;
    d.size = 0;
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "desc->type: desc->element");
    d.type = NULL;
    d.size = cases[3].desc.size;
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_INVALID_ARGUMENT, "desc->size: desc->element");
    d.size = 0;
    expect(clprim_operator_create(ctx, &d, &op), CLPRIM_BUILD_FAILED, "undeclared identifier");
    other = tu_context();
    d.identity = cases[3].desc.identity;
    assert_int_equal(clprim_operator_create(other, &d, &op), CLPRIM_INVALID_ARGUMENT);
    assert_null(op);
    clprim_context_release(other);
    clprim_element_release(el);
    clprim_element_release(NULL);
    expect_usable();
}

static clprim_element *stats_element;

static int setup(void **state)
{
    size_t i;
    (void)state;
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    for (i = 0; i < NCASES; ++i) {
        clprim_operator_desc d = cases[i].desc;
        clprim_status st = CLPRIM_SUCCESS;
        if (i == 3) { /* built on an element type; the operator's own fields go unused */
            const clprim_element_desc e = {d.type, d.source, d.size};
            st = clprim_element_create(ctx, &e, &stats_element);
            d.type = d.source = NULL;
            d.size = 0;
            d.element = stats_element;
        }
        if (st == CLPRIM_SUCCESS)
            st = clprim_operator_create(ctx, &d, &ops[i]);
        if (st != CLPRIM_SUCCESS) {
            char msg[8192];
            clprim_context_last_error(ctx, msg, sizeof msg);
            fprintf(stderr, "%s: %s\n%s\n", cases[i].name, clprim_status_string(st), msg);
            return -1;
        }
        assert_int_equal(clprim_operator_size(ops[i]), cases[i].desc.size);
    }
    return 0;
}

static int teardown(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < NCASES; ++i)
        clprim_operator_release(ops[i]);
    clprim_element_release(stats_element);
    clprim_context_release(ctx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan_max_by_magnitude), cmocka_unit_test(test_reduce_max_by_magnitude),
        cmocka_unit_test(test_scan_affine),           cmocka_unit_test(test_reduce_affine),
        cmocka_unit_test(test_linear_recurrence),     cmocka_unit_test(test_scan_argmin),
        cmocka_unit_test(test_reduce_argmin),         cmocka_unit_test(test_scan_stats16),
        cmocka_unit_test(test_reduce_stats16),        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_other_context),         cmocka_unit_test(test_element),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

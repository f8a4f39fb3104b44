/* SPDX-License-Identifier: MIT */
/* Stream compaction: select (comparisons, flags, expressions, indices),
 * partition (stable and reversed), unique and run-length encoding, through
 * every algorithm, for built-in types and two of the caller's (a 12-byte
 * struct and a 1-byte type), at edge and random sizes, with 0, ~1, ~50, ~99
 * and 100% kept, offsets and in place; fresh random inputs, outputs poisoned
 * and compared whole with the host reference (tests/reference/): what lies
 * past the count must be untouched. Then the refusals. */
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
#define MARGIN 5 /* elements past every output that must stay untouched */

enum { SELECT, PARTITION, UNIQUE, RLE };
static const char *const op_names[] = {"select", "partition", "unique", "run-length-encode"};

static clprim_context *ctx;
static clprim_device_info info;
static clprim_element *point12, *byte1; /* the caller's types */

typedef struct ccase {
    int op;
    clprim_compact_algorithm algorithm;
    clprim_type type;            /* when element is NULL */
    clprim_element *element;
    clprim_predicate predicate;
    int percent;                 /* of elements kept (select, partition) */
    size_t n, in_off, out_off;
    int in_place, reversed, indices;
    uint64_t seed;
} ccase;

static size_t elem_size(const ccase *c)
{
    return c->element ? clprim_element_size(c->element) : clprim_type_size(c->type);
}

/* Random input: for select and partition, keys of which `percent` fall
 * below the comparison's constant (integers 0..9999, floats 0..1); for
 * unique and run-length encoding, runs of about 4 equal elements. */
static void fill(const ccase *c, unsigned char *x, size_t count, uint64_t *s)
{
    const size_t e = elem_size(c);
    size_t i, k;
    for (i = 0; i < count; ++i) {
        unsigned char *p = x + i * e;
        const uint64_t r = tu_rand(s);
        if ((c->op == UNIQUE || c->op == RLE) && i > 0 && r % 4 != 0) {
            memcpy(p, p - e, e); /* continue the run */
            continue;
        }
        if (c->element) {
            for (k = 0; k < e; ++k)
                p[k] = (unsigned char)(tu_rand(s) % (c->op == UNIQUE || c->op == RLE ? 3 : 256));
            continue;
        }
        switch (c->type) {
        case CLPRIM_TYPE_FLOAT: { float v = (float)(r % 10000) / 10000.0f; memcpy(p, &v, 4); break; }
        case CLPRIM_TYPE_DOUBLE: { double v = (double)(r % 10000) / 10000.0; memcpy(p, &v, 8); break; }
        default: {
            const uint64_t v = r % 10000;
            memcpy(p, &v, e); /* little endian: the low bytes */
            break;
        }
        }
    }
}

/* The constant below which `percent` of the keys fall. */
static void constant(const ccase *c, unsigned char *value)
{
    const uint64_t v = (uint64_t)c->percent * 100;
    if (c->type == CLPRIM_TYPE_FLOAT) {
        const float f = (float)c->percent / 100.0f;
        memcpy(value, &f, 4);
    } else if (c->type == CLPRIM_TYPE_DOUBLE) {
        const double d = (double)c->percent / 100.0;
        memcpy(value, &d, 8);
    } else {
        memcpy(value, &v, clprim_type_size(c->type));
    }
}

static void describe(const ccase *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s %s %d%% n=%zu in_off=%zu out_off=%zu%s%s%s seed=%llu",
             op_names[c->op], clprim_compact_algorithm_name(c->algorithm),
             c->element == point12 && c->element ? "point12" : c->element ? "byte1" : clprim_type_name(c->type),
             c->op == SELECT || c->op == PARTITION ? clprim_predicate_name(c->predicate) : "heads",
             c->percent, c->n, c->in_off, c->out_off, c->in_place ? " in-place" : "",
             c->reversed ? " reversed" : "", c->indices ? " indices" : "",
             (unsigned long long)c->seed);
}

/* Runs one case; 0 when every output byte is as the reference says. */
static int run_case(const ccase *c)
{
    const size_t e = elem_size(c), n = c->n, off = c->in_place ? c->in_off : c->out_off;
    const size_t in_len = c->in_off + n + MARGIN, out_len = off + n + MARGIN;
    cl_context cl = clprim_context_cl_context(ctx);
    cl_command_queue q = clprim_context_queue(ctx);
    unsigned char *x = malloc(in_len * e), *keep = malloc(n + 1), *got = malloc(out_len * e);
    unsigned char *want = malloc(out_len * e), value[8] = {0}, *hflags = malloc(4 * (n + 1));
    cl_ulong *lengths_want = malloc((n + MARGIN) * 8), *lengths_got = malloc((n + MARGIN) * 8);
    cl_ulong *idx_want = malloc((n + MARGIN) * 8), *idx_got = malloc((n + MARGIN) * 8);
    cl_ulong count_got[3], expect = 0;
    cl_mem in, out = NULL, flags = NULL, count, lengths = NULL, indices = NULL;
    clprim_compact_desc d;
    uint64_t s = c->seed;
    char what[256];
    cl_int err;
    size_t i, bad = 0;
    int rc = -1;

    describe(c, what, sizeof what);
    assert_true(x && keep && got && want && hflags && lengths_want && lengths_got && idx_want &&
                idx_got);
    memset(hflags, 0x5A, 4 * (n + 1)); /* flags before flags_off would read as kept */
    memset(&d, 0, sizeof d);
    d.type = c->type;
    d.element = c->element;
    d.algorithm = c->algorithm;
    d.predicate = c->predicate;
    d.reverse_rejected = c->reversed;
    fill(c, x, in_len, &s);
    /* which elements are kept, by the reference's own rule */
    if (c->op == UNIQUE || c->op == RLE) {
        clprim_ref_heads(!c->element, c->type, e, x + c->in_off * e, n, keep);
    } else if (c->predicate == CLPRIM_PREDICATE_FLAGS_U8 || c->predicate == CLPRIM_PREDICATE_FLAGS_U32) {
        for (i = 0; i < n; ++i) {
            const cl_uint f = tu_rand(&s) % 100 < (uint64_t)c->percent ? 1 + (cl_uint)(tu_rand(&s) % 1000) : 0;
            keep[i] = f != 0;
            if (c->predicate == CLPRIM_PREDICATE_FLAGS_U8)
                hflags[i + 3] = (unsigned char)(f ? 1 + f % 255 : 0);
            else
                memcpy(hflags + 4 * (i + 1), &f, 4);
        }
    } else if (c->predicate == CLPRIM_PREDICATE_EXPRESSION) {
        /* "x < 5000 && i % 3 != 1" on int32 keys */
        for (i = 0; i < n; ++i) {
            cl_int v;
            memcpy(&v, x + (c->in_off + i) * e, 4);
            keep[i] = v < 5000 && i % 3 != 1;
        }
        d.expression = "x < 5000 && i % 3 != 1";
    } else {
        constant(c, value);
        d.value = value;
        clprim_ref_compare(c->type, c->predicate, value, x + c->in_off * e, n, keep);
    }

    /* the reference outputs, around them what must stay as it was */
    memset(want, POISON, out_len * e);
    if (c->in_place)
        memcpy(want, x, in_len * e);
    memset(lengths_want, POISON, (n + MARGIN) * 8);
    memset(idx_want, POISON, (n + MARGIN) * 8);
    if (c->op == PARTITION)
        expect = clprim_ref_partition(x + c->in_off * e, n, e, keep, c->reversed, want + off * e);
    else
        expect = clprim_ref_select(x + c->in_off * e, n, e, keep, want + off * e,
                                   c->indices ? idx_want + 1 : NULL);
    if (c->op == RLE)
        clprim_ref_run_lengths(keep, n, lengths_want + 2);

    in = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_len * e, x, &err);
    assert_int_equal(err, CL_SUCCESS);
    if (!c->in_place) {
        memset(got, POISON, out_len * e);
        out = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_len * e, got, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    memset(count_got, POISON, sizeof count_got);
    count = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof count_got, count_got,
                           &err);
    assert_int_equal(err, CL_SUCCESS);
    if (c->predicate == CLPRIM_PREDICATE_FLAGS_U8 || c->predicate == CLPRIM_PREDICATE_FLAGS_U32) {
        flags = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4 * (n + 1), hflags, &err);
        assert_int_equal(err, CL_SUCCESS);
        d.flags = flags;
        d.flags_off = c->predicate == CLPRIM_PREDICATE_FLAGS_U8 ? 3 : 1;
    }
    if (c->op == RLE || c->indices) {
        cl_mem *m = c->op == RLE ? &lengths : &indices;
        memset(c->op == RLE ? (void *)lengths_got : (void *)idx_got, POISON, (n + MARGIN) * 8);
        *m = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (n + MARGIN) * 8,
                            c->op == RLE ? (void *)lengths_got : (void *)idx_got, &err);
        assert_int_equal(err, CL_SUCCESS);
        d.indices = indices;
        d.indices_off = indices ? 1 : 0; /* refused without indices */
    }
    {
        cl_mem o = c->in_place ? in : out;
        switch (c->op) {
        case SELECT: err = clprim_select(ctx, NULL, &d, in, c->in_off, o, off, n, count, 1, 0, NULL, NULL); break;
        case PARTITION: err = clprim_partition(ctx, NULL, &d, in, c->in_off, o, off, n, count, 1, 0, NULL, NULL); break;
        case UNIQUE: err = clprim_unique(ctx, NULL, &d, in, c->in_off, o, off, n, count, 1, 0, NULL, NULL); break;
        default: err = clprim_run_length_encode(ctx, NULL, &d, in, c->in_off, o, off, lengths, 2, n, count, 1, 0, NULL, NULL); break;
        }
    }
    if (err != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        printf("FAIL %s: %s: %s\n", what, clprim_status_string(err), why);
        goto cleanup;
    }
    assert_int_equal(clEnqueueReadBuffer(q, c->in_place ? in : out, CL_TRUE, 0, out_len * e, got, 0,
                                         NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, count, CL_TRUE, 0, sizeof count_got, count_got, 0, NULL,
                                         NULL), CL_SUCCESS);
    if (count_got[1] != expect) {
        printf("  %s: count %llu, expected %llu\n", what, (unsigned long long)count_got[1],
               (unsigned long long)expect);
        ++bad;
    }
    {
        cl_ulong poison;
        memset(&poison, POISON, sizeof poison);
        if (count_got[0] != poison || count_got[2] != poison) {
            printf("  %s: the count buffer was written outside its element\n", what);
            ++bad;
        }
    }
    /* in place, what lies past the count is unspecified input: compare the
     * output range only up to the count there */
    for (i = 0; i < out_len; ++i) {
        const int checked = !c->in_place || i < off || i >= off + n || i < off + expect;
        if (checked && memcmp(got + i * e, want + i * e, e) != 0 && bad++ < 5)
            printf("  %s: element %zu differs (output starts at %zu, %llu kept)\n", what, i, off,
                   (unsigned long long)expect);
    }
    if (c->op == RLE || c->indices) {
        cl_ulong *g = c->op == RLE ? lengths_got : idx_got, *w = c->op == RLE ? lengths_want : idx_want;
        assert_int_equal(clEnqueueReadBuffer(q, c->op == RLE ? lengths : indices, CL_TRUE, 0,
                                             (n + MARGIN) * 8, g, 0, NULL, NULL), CL_SUCCESS);
        for (i = 0; i < n + MARGIN; ++i)
            if (g[i] != w[i] && bad++ < 8)
                printf("  %s: %s[%zu] = %llu, expected %llu\n", what, c->op == RLE ? "lengths" : "indices",
                       i, (unsigned long long)g[i], (unsigned long long)w[i]);
    }
    if (bad)
        printf("FAIL %s: %zu differences\n", what, bad);
    else
        rc = 0;
cleanup:
    clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    clReleaseMemObject(count);
    if (flags)
        clReleaseMemObject(flags);
    if (lengths)
        clReleaseMemObject(lengths);
    if (indices)
        clReleaseMemObject(indices);
    free(x);
    free(keep);
    free(got);
    free(want);
    free(hflags);
    free(lengths_want);
    free(lengths_got);
    free(idx_want);
    free(idx_got);
    return rc;
}

/* Edge sizes around the SIMD width, the work-group and the tile of either
 * device class, 2^k +- 1, and a random size up to 2^22. */
static size_t sizes(size_t *out, uint64_t *s)
{
    static const size_t fixed[] = {0, 1, 2, 7, 8, 9, 31, 32, 33, 63, 64, 65, 255, 256, 257,
                                   511, 512, 513, 4095, 4096, 4097, 65535, 65537};
    size_t k = 0, i;
    for (i = 0; i < sizeof fixed / sizeof fixed[0]; ++i)
        out[k++] = fixed[i];
    out[k++] = 100000 + (size_t)(tu_rand(s) % 300000);
    out[k++] = (size_t)1 << 22 | (size_t)(tu_rand(s) % 1000);
    return k;
}

static int run_sizes(ccase c, int big)
{
    size_t ns[32], count, i;
    uint64_t s = tu_seed() ^ ((uint64_t)c.op << 32) ^ ((uint64_t)c.type << 40);
    int failures = 0;
    count = sizes(ns, &s);
    for (i = 0; i < count - (big ? 0 : 1); ++i) {
        c.n = ns[i];
        c.in_off = i % 3 == 1 ? 3 : 0;
        c.out_off = i % 3 == 2 ? 5 : 0;
        c.in_place = i % 4 == 3 && c.op != PARTITION;
        if (c.in_place)
            c.out_off = c.in_off;
        c.seed = tu_rand(&s);
        failures += run_case(&c) != 0;
    }
    return failures;
}

static const clprim_compact_algorithm algos[] = {CLPRIM_COMPACT_SINGLE_PASS, CLPRIM_COMPACT_THREE_PASS,
                                                 CLPRIM_COMPACT_CHUNKED};
#define ALGOS (sizeof algos / sizeof algos[0])

/* every op of one element type, every algorithm */
static void run_type(clprim_type type, clprim_element *element)
{
    static const int percents[] = {0, 1, 50, 99, 100};
    int failures = 0, op;
    size_t a, p;
    for (a = 0; a < ALGOS; ++a) {
        if (algos[a] == CLPRIM_COMPACT_SINGLE_PASS && !info.has_single_pass)
            continue;
        for (op = SELECT; op <= RLE; ++op) {
            ccase c;
            memset(&c, 0, sizeof c);
            c.op = op;
            c.algorithm = algos[a];
            c.type = type;
            c.element = element;
            /* the caller's types have no order: they select by flags
             * (unique and run-length encoding take no predicate) */
            c.predicate = element && op <= PARTITION ? CLPRIM_PREDICATE_FLAGS_U8
                                                     : CLPRIM_PREDICATE_LESS;
            for (p = 0; p < (op <= PARTITION ? 5u : 1u); ++p) {
                c.percent = percents[p];
                c.reversed = 0;
                failures += run_sizes(c, p == 2);
                if (op == PARTITION && p == 2) {
                    c.reversed = 1;
                    failures += run_sizes(c, 0);
                }
            }
        }
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

static void test_int32(void **state) { (void)state; run_type(CLPRIM_TYPE_INT32, NULL); }
static void test_uint32(void **state) { (void)state; run_type(CLPRIM_TYPE_UINT32, NULL); }
static void test_int64(void **state) { (void)state; run_type(CLPRIM_TYPE_INT64, NULL); }
static void test_uint64(void **state) { (void)state; run_type(CLPRIM_TYPE_UINT64, NULL); }
static void test_float(void **state) { (void)state; run_type(CLPRIM_TYPE_FLOAT, NULL); }
static void test_double(void **state)
{
    (void)state;
    if (!info.has_fp64)
        skip();
    run_type(CLPRIM_TYPE_DOUBLE, NULL);
}
static void test_point12(void **state) { (void)state; run_type(CLPRIM_TYPE_INT32, point12); }
static void test_byte1(void **state) { (void)state; run_type(CLPRIM_TYPE_INT32, byte1); }

/* Every predicate kind, and indices, on int32 (every algorithm). */
static void test_predicates(void **state)
{
    static const clprim_predicate preds[] = {
        CLPRIM_PREDICATE_LESS,       CLPRIM_PREDICATE_LESS_EQUAL, CLPRIM_PREDICATE_GREATER,
        CLPRIM_PREDICATE_GREATER_EQUAL, CLPRIM_PREDICATE_EQUAL,   CLPRIM_PREDICATE_NOT_EQUAL,
        CLPRIM_PREDICATE_FLAGS_U8,   CLPRIM_PREDICATE_FLAGS_U32,  CLPRIM_PREDICATE_EXPRESSION};
    int failures = 0;
    size_t a, p;
    (void)state;
    for (a = 0; a < ALGOS; ++a) {
        if (algos[a] == CLPRIM_COMPACT_SINGLE_PASS && !info.has_single_pass)
            continue;
        for (p = 0; p < sizeof preds / sizeof preds[0]; ++p) {
            ccase c;
            memset(&c, 0, sizeof c);
            c.op = SELECT;
            c.algorithm = algos[a];
            c.type = CLPRIM_TYPE_INT32;
            c.predicate = preds[p];
            c.percent = 50;
            c.indices = p % 2 == 0;
            failures += run_sizes(c, 0);
        }
        {
            ccase c; /* indices on the caller's type */
            memset(&c, 0, sizeof c);
            c.op = SELECT;
            c.algorithm = algos[a];
            c.element = point12;
            c.predicate = CLPRIM_PREDICATE_FLAGS_U32;
            c.percent = 50;
            c.indices = 1;
            failures += run_sizes(c, 0);
        }
    }
    if (failures)
        fail_msg("%d failing cases", failures);
}

static void expect(clprim_status got, clprim_status want, const char *words)
{
    char msg[8192];
    clprim_context_last_error(ctx, msg, sizeof msg);
    if (got != want)
        fail_msg("got %s, want %s (%s)", clprim_status_string(got), clprim_status_string(want), msg);
    if (words && !strstr(msg, words))
        fail_msg("message \"%s\" does not mention \"%s\"", msg, words);
}

static void test_refused(void **state)
{
    cl_context cl = clprim_context_cl_context(ctx);
    cl_int err, v = 5, data[64] = {0};
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    cl_mem small = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4, NULL, &err);
    clprim_compact_desc d;
    size_t kept = 99;
    (void)state;
    memset(&d, 0, sizeof d);
    d.value = &v;
    expect(clprim_select(ctx, NULL, NULL, buf, 0, buf, 0, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    d.value = NULL;
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 0, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "desc->value is NULL");
    d.value = &v;
    d.predicate = (clprim_predicate)99;
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 0, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "clprim_predicate");
    d.predicate = CLPRIM_PREDICATE_LESS;
    d.algorithm = (clprim_compact_algorithm)7;
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 0, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_UNKNOWN_ALGORITHM, "clprim_compact_algorithm");
    d.algorithm = CLPRIM_COMPACT_AUTO;
    /* a count buffer too small for one cl_ulong, a flags buffer too short */
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 0, 8, small, 0, 0, NULL, NULL),
           CLPRIM_OUT_OF_BOUNDS, "count");
    d.predicate = CLPRIM_PREDICATE_FLAGS_U32;
    d.value = NULL; /* for comparisons only: refused with other predicates */
    d.flags = small;
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 0, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_OUT_OF_BOUNDS, "desc->flags");
    d.flags = NULL;
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 0, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "desc->flags is NULL");
    /* an expression that does not compile: the compiler's log */
    d.predicate = CLPRIM_PREDICATE_EXPRESSION;
    d.expression = "no_such_function(x)";
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 16, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_BUILD_FAILED, "no_such_function");
    d.expression = "  ";
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 16, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "expression is empty");
    /* comparisons are for built-in types; partition not in place */
    d.predicate = CLPRIM_PREDICATE_LESS;
    d.value = &v;
    d.expression = NULL;
    d.element = byte1;
    expect(clprim_select(ctx, NULL, &d, buf, 0, buf, 16, 8, buf, 30, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "built-in types only");
    d.element = NULL;
    expect(clprim_partition(ctx, NULL, &d, buf, 0, buf, 0, 8, buf, 20, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "in place");
    /* the host helper, and a count of 0 for n = 0 */
    {
        cl_int hx[6] = {7, 3, 9, 1, 5, 2}, hy[6] = {0};
        expect(clprim_select_host(ctx, &d, hx, NULL, hy, 6, &kept), CLPRIM_SUCCESS, NULL);
        assert_int_equal(kept, 3);
        assert_true(hy[0] == 3 && hy[1] == 1 && hy[2] == 2);
        expect(clprim_select_host(ctx, &d, hx, NULL, hy, 0, &kept), CLPRIM_SUCCESS, NULL);
        assert_int_equal(kept, 0);
    }
    clReleaseMemObject(buf);
    clReleaseMemObject(small);
}

/* The single pass with a spin bound of one poll: nearly every look-back
 * takes the fallback (each predecessor's count from the input). */
static void test_fallback(void **state)
{
    clprim_context *saved = ctx;
    int failures = 0, op;
    (void)state;
    if (!info.has_single_pass)
        skip();
    setenv("CLPRIM_LOOKBACK_SPINS", "1", 1);
    ctx = tu_context(); /* programs built with the new bound */
    for (op = SELECT; op <= RLE; ++op) {
        ccase c;
        memset(&c, 0, sizeof c);
        c.op = op;
        c.algorithm = CLPRIM_COMPACT_SINGLE_PASS;
        c.type = CLPRIM_TYPE_INT32;
        c.predicate = CLPRIM_PREDICATE_LESS;
        c.percent = 50;
        failures += run_sizes(c, 1);
    }
    clprim_context_release(ctx);
    ctx = saved;
    unsetenv("CLPRIM_LOOKBACK_SPINS");
    if (failures)
        fail_msg("%d failing cases", failures);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int32),   cmocka_unit_test(test_uint32), cmocka_unit_test(test_int64),
        cmocka_unit_test(test_uint64),  cmocka_unit_test(test_float),  cmocka_unit_test(test_double),
        cmocka_unit_test(test_point12), cmocka_unit_test(test_byte1),  cmocka_unit_test(test_predicates),
        cmocka_unit_test(test_refused), cmocka_unit_test(test_fallback),
    };
    const clprim_element_desc p12 = {"point12", "typedef struct { float x, y, z; } point12;", 12};
    const clprim_element_desc b1 = {"uchar", NULL, 1};
    int rc;
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    if (clprim_element_create(ctx, &p12, &point12) != CLPRIM_SUCCESS ||
        clprim_element_create(ctx, &b1, &byte1) != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "cannot create the test's element types: %s\n", why);
        return 1;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_element_release(point12);
    clprim_element_release(byte1);
    clprim_context_release(ctx);
    return rc;
}

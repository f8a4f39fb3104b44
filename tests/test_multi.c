/* SPDX-License-Identifier: MIT */
/* Several devices: clprim contexts wrapped on every device of one
 * multi-device cl_context (each must scan, reduce and select on its own
 * device), and clprim_multi_scan / _reduce / _select over an array in
 * random parts (empty ones too) spread over those contexts, or over the
 * device under test alone where its platform has one device. Every part's
 * output is poisoned and the whole result compared with the host
 * reference of the whole array. CI runs it with POCL_DEVICES="pthread
 * pthread" (two CPU devices). */
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

#define MAX_DEVICES 4
#define MAX_PARTS 6
#define POISON 0xA5

static clprim_context *ctx;
static clprim_device_info info;
static cl_context shared;                 /* every device of the platform (2 or more) */
static clprim_context *wrapped[MAX_DEVICES];
static size_t num_wrapped;

/* The contexts parts are spread over. */
static clprim_context *pool(size_t k)
{
    return num_wrapped ? wrapped[k % num_wrapped] : ctx;
}

static void print_warning(void *user, int level, const char *message)
{
    (void)user;
    if (level <= CLPRIM_LOG_WARNING)
        printf("# clprim: %s\n", message);
}

/* Wraps a clprim context around each device of the test device's platform
 * (of its type) in one cl_context, when it has several. */
static void wrap_devices(void)
{
    cl_device_id self = clprim_context_device(ctx), devs[MAX_DEVICES];
    cl_platform_id platform;
    cl_device_type type;
    const clprim_context_options opt = {NULL, print_warning, NULL, 0, NULL};
    cl_uint n = 0, i;
    cl_int err;

    if (clGetDeviceInfo(self, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceInfo(self, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, type, MAX_DEVICES, devs, &n) != CL_SUCCESS || n < 2) {
        printf("# one device on this platform: parts share it\n");
        return;
    }
    n = n > MAX_DEVICES ? MAX_DEVICES : n;
    shared = clCreateContext(NULL, n, devs, NULL, NULL, &err);
    for (i = 0; i < n && err == CL_SUCCESS; ++i) {
        cl_command_queue q = clCreateCommandQueue(shared, devs[i], 0, &err);
        if (err == CL_SUCCESS &&
            clprim_context_wrap(shared, devs[i], q, &opt, &wrapped[i]) != CLPRIM_SUCCESS)
            err = CL_INVALID_CONTEXT;
        if (q)
            clReleaseCommandQueue(q); /* the context keeps its own reference */
    }
    if (err != CL_SUCCESS) {
        printf("FAIL: wrapping the devices of one cl_context: %s\n", clprim_status_string(err));
        exit(1);
    }
    num_wrapped = n;
    printf("# %u devices in one cl_context, a clprim context wrapped on each\n", n);
}

static void fail_if(size_t failures, const char *what)
{
    if (failures)
        fail_msg("%zu %s failed (CLPRIM_TEST_SEED=%llu)", failures, what,
                 (unsigned long long)tu_seed());
}

/* The defect of issue 18: every wrapped device scans, reduces and selects
 * (the second device's kernels were refused with CL_INVALID_KERNEL_DEFINITION). */
static void test_wrapped_devices(void **state)
{
    uint64_t s = tu_seed() ^ 0x3e1d;
    size_t failures = 0, i;
    (void)state;
    if (num_wrapped < 2) {
        printf("# skipped: no platform with several devices of this type\n");
        skip();
    }
    for (i = 0; i < num_wrapped; ++i) {
        tu_case c = {CLPRIM_SCAN_AUTO, CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, (int)(i & 1), 0, 3, 1, 0,
                     0, 0};
        tu_reduce_case r = {CLPRIM_REDUCE_AUTO, CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, 0, 2, 1, 0};
        const clprim_compact_desc cd = {CLPRIM_TYPE_INT32, NULL, CLPRIM_PREDICATE_GREATER,
                                        &(cl_int){0}, NULL, 0, NULL, CLPRIM_COMPACT_AUTO, NULL,
                                        0, 0};
        cl_int x[1000], got[1000], want[1000];
        unsigned char keep[1000];
        size_t count = 0, k;
        c.n = 1000 + tu_rand(&s) % 200000;
        c.seed = tu_rand(&s);
        failures += tu_run_case(wrapped[i], &c) != 0;
        c.init = 1;
        c.seed = tu_rand(&s);
        failures += tu_run_case(wrapped[i], &c) != 0;
        r.n = 1000 + tu_rand(&s) % 100000;
        r.seed = tu_rand(&s);
        failures += tu_run_reduce_case(wrapped[i], &r) != 0;
        clprim_ref_fill(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, x, 1000, &s);
        memset(got, POISON, sizeof got);
        if (clprim_select_host(wrapped[i], &cd, x, NULL, got, 1000, &count) != CLPRIM_SUCCESS) {
            char why[512];
            clprim_context_last_error(wrapped[i], why, sizeof why);
            printf("FAIL select on device %zu: %s\n", i, why);
            ++failures;
            continue;
        }
        clprim_ref_compare(CLPRIM_TYPE_INT32, CLPRIM_PREDICATE_GREATER, &(cl_int){0}, x, 1000,
                           keep);
        k = clprim_ref_select(x, 1000, sizeof *x, keep, want, NULL);
        if (k != count || memcmp(got, want, k * sizeof *x) != 0) {
            printf("FAIL select on device %zu: %zu kept, %zu expected\n", i, count, k);
            ++failures;
        }
    }
    fail_if(failures, "calls on wrapped devices");
}

/* An array of n elements of `elem` bytes cut into parts on the pool's
 * contexts: part k's input from a random offset of its own buffer, its
 * output (poisoned) likewise, or in place. */
typedef struct split {
    size_t count, elem, n;
    clprim_part parts[MAX_PARTS];
    size_t start[MAX_PARTS];       /* first element of the array in part k */
    unsigned char *x;              /* the whole input */
} split;

static void split_release(split *sp)
{
    size_t k;
    for (k = 0; k < sp->count; ++k) {
        if (sp->parts[k].out && sp->parts[k].out != sp->parts[k].in)
            clReleaseMemObject(sp->parts[k].out);
        if (sp->parts[k].in)
            clReleaseMemObject(sp->parts[k].in);
        if (sp->parts[k].flags)
            clReleaseMemObject(sp->parts[k].flags);
    }
    free(sp->x);
    memset(sp, 0, sizeof *sp);
}

/* A buffer holding src's bytes; none (an empty part, whose src may point
 * just past its array): a byte, not copied from src. */
static cl_mem device_copy(clprim_context *c, const void *src, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clprim_context_cl_context(c),
                              CL_MEM_READ_WRITE | (bytes ? CL_MEM_COPY_HOST_PTR : 0),
                              bytes ? bytes : 1, bytes ? (void *)src : NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* Cuts x (n elements, owned by sp afterwards) into random parts, or
 * (fixed > 0) into `fixed` parts of n / fixed elements (the last takes the
 * rest), whose starts do not depend on the seed: an expression of i then
 * builds the same programs in every run, found in the disk cache. */
static void split_make(split *sp, unsigned char *x, size_t n, size_t elem, uint64_t *s,
                       size_t fixed)
{
    size_t k, left = n;
    memset(sp, 0, sizeof *sp);
    sp->x = x;
    sp->n = n;
    sp->elem = elem;
    sp->count = fixed ? fixed : 1 + tu_rand(s) % MAX_PARTS;
    for (k = 0; k < sp->count; ++k) {
        clprim_part *p = &sp->parts[k];
        /* some parts empty; the last takes what is left */
        size_t len = k + 1 == sp->count ? left
                     : fixed                ? n / fixed
                     : tu_rand(s) % 4 == 0  ? 0
                                            : tu_rand(s) % (left + 1);
        const size_t in_off = tu_rand(s) % 4, out_off = tu_rand(s) % 4;
        const int in_place = tu_rand(s) % 4 == 0;
        unsigned char *buf = malloc((in_off + len + 2) * elem);
        assert_non_null(buf);
        if (len > left)
            len = left;
        memset(buf, POISON, (in_off + len + 2) * elem);
        memcpy(buf + in_off * elem, x + (n - left) * elem, len * elem);
        p->ctx = pool(k);
        p->n = len;
        p->in_off = in_off;
        p->in = device_copy(p->ctx, buf, (in_off + len + 2) * elem);
        free(buf);
        if (in_place) {
            p->out = p->in;
            p->out_off = in_off;
        } else {
            const size_t bytes = (out_off + len + 2) * elem;
            unsigned char *o = malloc(bytes);
            assert_non_null(o);
            memset(o, POISON, bytes);
            p->out_off = out_off;
            p->out = device_copy(p->ctx, o, bytes);
            free(o);
        }
        sp->start[k] = n - left;
        left -= len;
    }
}

/* Reads every part's output (count[k] elements, all n by default) into
 * got, in order, checking that nothing around each part's output changed. */
static size_t split_collect(const split *sp, unsigned char *got, const size_t *count)
{
    size_t k, bad = 0, at = 0;
    for (k = 0; k < sp->count; ++k) {
        const clprim_part *p = &sp->parts[k];
        const size_t len = count ? count[k] : p->n;
        const size_t total = p->out == p->in ? p->in_off + p->n + 2 : p->out_off + p->n + 2;
        unsigned char *all = malloc(total * sp->elem);
        size_t i;
        assert_non_null(all);
        assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(p->ctx), p->out, CL_TRUE, 0,
                                             total * sp->elem, all, 0, NULL, NULL),
                         CL_SUCCESS);
        memcpy(got + at * sp->elem, all + p->out_off * sp->elem, len * sp->elem);
        at += len;
        /* around the output: poison, or (in place) the input left as it was */
        for (i = 0; i < total * sp->elem; ++i) {
            const size_t e = i / sp->elem;
            if (e >= p->out_off && e < p->out_off + len)
                continue;
            if (p->out == p->in && e >= p->in_off && e < p->in_off + p->n)
                continue; /* in place: past the count, what the select leaves */
            if (all[i] != POISON && bad++ < 3)
                printf("  part %zu: byte %zu outside its output was written\n", k, i);
        }
        free(all);
    }
    return bad;
}

/* The parts as a reduce takes them: without outputs (refused there). */
static const clprim_part *reduce_parts(const split *sp, clprim_part *v)
{
    size_t k;
    for (k = 0; k < sp->count; ++k) {
        v[k] = sp->parts[k];
        v[k].out = NULL;
        v[k].out_off = 0;
    }
    return v;
}

static void describe(char *buf, size_t size, const split *sp, const char *what)
{
    size_t k;
    int w = snprintf(buf, size, "%s n=%zu parts", what, sp->n);
    for (k = 0; k < sp->count && w > 0 && (size_t)w < size; ++k)
        w += snprintf(buf + w, size - (size_t)w, " %zu", sp->parts[k].n);
}

static size_t scan_case(clprim_type type, clprim_op op, int exclusive, size_t n, uint64_t *s)
{
    const size_t elem = clprim_type_size(type);
    const clprim_scan_desc d = {type, op, exclusive, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    unsigned char *x = malloc(n * elem + 1), *got = malloc(n * elem + 1);
    char what[256];
    size_t bad;
    split sp;
    clprim_status st;

    assert_true(x && got);
    clprim_ref_fill(type, op, x, n, s);
    split_make(&sp, x, n, elem, s, 0);
    describe(what, sizeof what, &sp, "multi-scan");
    snprintf(what + strlen(what), sizeof what - strlen(what), " %s %s %s", clprim_type_name(type),
             clprim_op_name(op), exclusive ? "exclusive" : "inclusive");
    st = clprim_multi_scan(&d, sp.parts, sp.count);
    if (st != CLPRIM_SUCCESS) {
        printf("FAIL %s: %s\n", what, clprim_status_string(st));
        bad = 1;
    } else {
        bad = split_collect(&sp, got, NULL);
        bad += clprim_ref_scan_check(type, op, exclusive, x, got, n, stdout, what);
        if (bad)
            printf("FAIL %s\n", what);
    }
    split_release(&sp);
    free(got);
    return bad != 0;
}

/* Every type (sum) and every operator (int32), inclusive and exclusive,
 * over random parts. */
static void test_multi_scan(void **state)
{
    uint64_t s = tu_seed() ^ 0x5ca9;
    size_t failures = 0;
    int t, op;
    (void)state;
    for (t = 0; t < CLPRIM_TYPE_COUNT_; ++t) {
        if (t == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        failures += scan_case((clprim_type)t, CLPRIM_OP_SUM, t & 1, tu_rand(&s) % 300000, &s);
    }
    for (op = 0; op < CLPRIM_OP_COUNT_; ++op)
        failures += scan_case(CLPRIM_TYPE_INT32, (clprim_op)op, op & 1, tu_rand(&s) % 100000, &s);
    failures += scan_case(CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, 0, &s); /* nothing at all */
    fail_if(failures, "multi-device scans");
}

static void test_multi_reduce(void **state)
{
    clprim_part rp[MAX_PARTS];
    uint64_t s = tu_seed() ^ 0x7ed0;
    size_t failures = 0;
    int t;
    (void)state;
    for (t = 0; t < CLPRIM_TYPE_COUNT_ + CLPRIM_OP_COUNT_; ++t) {
        const clprim_type type = t < CLPRIM_TYPE_COUNT_ ? (clprim_type)t : CLPRIM_TYPE_INT32;
        const clprim_op o = t < CLPRIM_TYPE_COUNT_ ? CLPRIM_OP_SUM : (clprim_op)(t - CLPRIM_TYPE_COUNT_);
        const size_t elem = clprim_type_size(type), n = tu_rand(&s) % 200000;
        const clprim_reduce_desc d = {type, o, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
        unsigned char *x = malloc(n * elem + 1), value[8];
        char what[256];
        split sp;
        if (type == CLPRIM_TYPE_DOUBLE && !info.has_fp64) {
            free(x);
            continue;
        }
        assert_non_null(x);
        clprim_ref_fill(type, o, x, n, &s);
        split_make(&sp, x, n, elem, &s, 0);
        describe(what, sizeof what, &sp, "multi-reduce");
        snprintf(what + strlen(what), sizeof what - strlen(what), " %s %s", clprim_type_name(type),
                 clprim_op_name(o));
        memset(value, POISON, sizeof value);
        if (clprim_multi_reduce(&d, reduce_parts(&sp, rp), sp.count, value) != CLPRIM_SUCCESS ||
            clprim_ref_reduce_check(type, o, x, n, value, stdout, what) != 0) {
            printf("FAIL %s\n", what);
            ++failures;
        }
        split_release(&sp);
    }
    fail_if(failures, "multi-device reduces");
}

/* select x > value (random threshold: from almost none to almost all kept),
 * and with uint8 flags given per part. */
static void test_multi_select(void **state)
{
    uint64_t s = tu_seed() ^ 0x5e1ec7;
    size_t failures = 0, round;
    (void)state;
    for (round = 0; round < 6; ++round) {
        const size_t n = tu_rand(&s) % 200000;
        const cl_int threshold = (cl_int)(tu_rand(&s) % 0xffffffffu);
        const int by_flags = round % 2;
        clprim_compact_desc d = {CLPRIM_TYPE_INT32, NULL, CLPRIM_PREDICATE_GREATER, &threshold,
                                 NULL, 0, NULL, CLPRIM_COMPACT_AUTO, NULL, 0, 0};
        cl_int *x = malloc(n * sizeof *x + 1), *want = malloc(n * sizeof *x + 1);
        cl_int *got = malloc(n * sizeof *x + 1);
        unsigned char *keep = malloc(n + 1);
        size_t counts[MAX_PARTS], offsets[MAX_PARTS], total = 0, k, kept, bad = 0;
        char what[256];
        split sp;
        assert_true(x && want && got && keep);
        clprim_ref_fill(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, x, n, &s);
        if (by_flags) {
            d.predicate = CLPRIM_PREDICATE_FLAGS_U8;
            d.value = NULL; /* for comparisons only: refused with flags */
            for (k = 0; k < n; ++k)
                keep[k] = tu_rand(&s) % 3 == 0 ? (unsigned char)(1 + tu_rand(&s) % 255) : 0;
        } else {
            clprim_ref_compare(CLPRIM_TYPE_INT32, CLPRIM_PREDICATE_GREATER, &threshold, x, n, keep);
        }
        kept = clprim_ref_select(x, n, sizeof *x, keep, want, NULL);
        split_make(&sp, (unsigned char *)x, n, sizeof *x, &s, 0);
        for (k = 0; by_flags && k < sp.count; ++k) {
            sp.parts[k].flags = device_copy(sp.parts[k].ctx, keep + sp.start[k], sp.parts[k].n);
            sp.parts[k].flags_off = 0;
        }
        describe(what, sizeof what, &sp, by_flags ? "multi-select flags" : "multi-select >");
        const clprim_status st = clprim_multi_select(&d, sp.parts, sp.count, counts, offsets,
                                                     &total);
        if (st != CLPRIM_SUCCESS) {
            printf("FAIL %s: %s\n", what, clprim_status_string(st));
            ++failures;
        } else {
            for (k = 0; k < sp.count; ++k)
                if (offsets[k] != (k ? offsets[k - 1] + counts[k - 1] : 0))
                    ++bad;
            if (total != kept)
                ++bad;
            bad += split_collect(&sp, (unsigned char *)got, counts);
            if (bad || memcmp(got, want, kept * sizeof *x) != 0) {
                printf("FAIL %s: %zu kept, %zu expected\n", what, total, kept);
                ++failures;
            }
        }
        split_release(&sp);
        free(want);
        free(got);
        free(keep);
    }
    fail_if(failures, "multi-device selects");
}

/* A non-commutative caller's operator (affine maps mod 2^32, composed in
 * order), created on every context from one source. */
static void affine_host(const cl_uint *f, const cl_uint *g, cl_uint *h)
{
    const cl_uint a = f[0] * g[0], b = g[0] * f[1] + g[1];
    h[0] = a;
    h[1] = b;
}

static void test_multi_custom(void **state)
{
    clprim_part rp[MAX_PARTS];
    const clprim_operator_desc od = {"uint2", NULL, "(uint2)(a.x * b.x, b.x * a.y + b.y)",
                                     "(uint2)(1u, 0u)", 2 * sizeof(cl_uint), 0, NULL, 0, NULL};
    clprim_operator *ops[MAX_DEVICES + 1] = {NULL};
    uint64_t s = tu_seed() ^ 0xaff1;
    const size_t n = 50000 + tu_rand(&s) % 100000, pools = num_wrapped ? num_wrapped : 1;
    size_t failures = 0, k, i, excl;
    cl_uint *x = malloc(n * 8), *got = malloc(n * 8), *want = malloc(n * 8), run[2] = {1, 0};
    (void)state;
    assert_true(x && got && want);
    for (k = 0; k < pools; ++k)
        assert_int_equal(clprim_operator_create(pool(k), &od, &ops[k]), CLPRIM_SUCCESS);
    for (excl = 0; excl < 2; ++excl) {
        clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, (int)excl, CLPRIM_SCAN_AUTO, ops[0],
                              NULL, CLPRIM_REPRO_NONE};
        const clprim_reduce_desc rd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, ops[0],
                                       NULL, CLPRIM_REPRO_NONE};
        cl_uint value[2] = {0, 0};
        unsigned char *copy = malloc(n * 8);
        split sp;
        assert_non_null(copy);
        for (i = 0; i < n; ++i) {
            x[2 * i] = (cl_uint)tu_rand(&s) | 1u;
            x[2 * i + 1] = (cl_uint)tu_rand(&s);
        }
        memcpy(copy, x, n * 8);
        split_make(&sp, copy, n, 8, &s, 0);
        for (k = 0; k < sp.count; ++k)
            sp.parts[k].custom = ops[k % pools];
        run[0] = 1;
        run[1] = 0;
        for (i = 0; i < n; ++i) {
            if (excl)
                memcpy(want + 2 * i, run, 8);
            affine_host(run, x + 2 * i, run);
            if (!excl)
                memcpy(want + 2 * i, run, 8);
        }
        /* the reduce first: parts scanned in place lose their input */
        if (clprim_multi_reduce(&rd, reduce_parts(&sp, rp), sp.count, value) != CLPRIM_SUCCESS ||
            value[0] != run[0] || value[1] != run[1]) {
            printf("FAIL multi-reduce affine over %zu parts\n", sp.count);
            ++failures;
        }
        if (clprim_multi_scan(&d, sp.parts, sp.count) != CLPRIM_SUCCESS ||
            split_collect(&sp, (unsigned char *)got, NULL) != 0 || memcmp(got, want, n * 8) != 0) {
            printf("FAIL multi-scan affine %s over %zu parts\n", excl ? "exclusive" : "inclusive",
                   sp.count);
            ++failures;
        }
        split_release(&sp);
    }
    for (k = 0; k < pools; ++k)
        clprim_operator_release(ops[k]);
    free(x);
    free(got);
    free(want);
    fail_if(failures, "multi-device custom-operator calls");
}

/* i in a transform or select expression is the index in the whole array
 * (not within the part): 1 to 4 parts give the same bits as one device. */
static void test_multi_index(void **state)
{
    clprim_part rp[MAX_PARTS];
    const size_t n = 3001;
    const clprim_transform tf = {CLPRIM_TYPE_UINT32, "(ulong)x * 3ul + i * i"};
    const clprim_scan_desc d = {.type = CLPRIM_TYPE_UINT64, .op = CLPRIM_OP_SUM, .transform = &tf};
    const clprim_reduce_desc rd = {.type = CLPRIM_TYPE_UINT64, .op = CLPRIM_OP_SUM, .transform = &tf};
    const clprim_compact_desc cd = {.type = CLPRIM_TYPE_UINT32,
                                    .predicate = CLPRIM_PREDICATE_EXPRESSION,
                                    /* `i` as a member name and in a comment stays as it is */
                                    .expression = "(i % 3u) == 1u /* i */ && ((uint2)(x, i)).x != 7u"};
    uint64_t s = tu_seed() ^ 0x1dea;
    cl_uint *x = malloc(n * sizeof *x), *kept1 = malloc(n * sizeof *kept1);
    cl_ulong *one = malloc(n * sizeof *one), *got = malloc(n * sizeof *got), sum1 = 0;
    size_t i, parts, count1 = 0;
    (void)state;
    assert_true(x && kept1 && one && got);
    for (i = 0; i < n; ++i)
        x[i] = (cl_uint)tu_rand(&s);
    /* one device, whole array: the reference bits */
    assert_int_equal(clprim_scan_host(ctx, &d, x, one, n), CLPRIM_SUCCESS);
    assert_int_equal(clprim_reduce_host(ctx, &rd, x, n, &sum1), CLPRIM_SUCCESS);
    assert_int_equal(clprim_select_host(ctx, &cd, x, NULL, kept1, n, &count1), CLPRIM_SUCCESS);
    {   /* and against the host, so that one device is right too */
        cl_ulong acc = 0;
        size_t c = 0;
        for (i = 0; i < n; ++i) {
            acc += (cl_ulong)x[i] * 3u + (cl_ulong)i * i;
            assert_true(one[i] == acc);
            c += i % 3 == 1 && x[i] != 7u;
        }
        assert_true(sum1 == acc);
        assert_int_equal(count1, c);
    }
    for (parts = 1; parts <= 4; ++parts) {
        split sp;
        size_t k, counts[MAX_PARTS], total = 0;
        cl_ulong sum = 0;
        unsigned char *copy = malloc(n * sizeof *x);
        char what[256];
        assert_non_null(copy);
        memcpy(copy, x, n * sizeof *x);
        split_make(&sp, copy, n, sizeof *x, &s, parts);
        describe(what, sizeof what, &sp, "multi index");
        /* the scan's output is uint64: each part gets an output of its own */
        for (k = 0; k < sp.count; ++k) {
            clprim_part *p = &sp.parts[k];
            unsigned char *o = malloc((p->n + 2) * 8);
            assert_non_null(o);
            memset(o, POISON, (p->n + 2) * 8);
            if (p->out != p->in)
                clReleaseMemObject(p->out);
            p->out = device_copy(p->ctx, o, (p->n + 2) * 8);
            p->out_off = 1;
            free(o);
        }
        assert_int_equal(clprim_multi_scan(&d, sp.parts, sp.count), CLPRIM_SUCCESS);
        for (k = 0, i = 0; k < sp.count; i += sp.parts[k++].n)
            assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(sp.parts[k].ctx),
                                                 sp.parts[k].out, CL_TRUE, 8, sp.parts[k].n * 8,
                                                 got + i, 0, NULL, NULL),
                             CL_SUCCESS);
        if (memcmp(got, one, n * 8) != 0)
            fail_msg("%s: the scan differs from one device's", what);
        assert_int_equal(clprim_multi_reduce(&rd, reduce_parts(&sp, rp), sp.count, &sum),
                         CLPRIM_SUCCESS);
        if (sum != sum1)
            fail_msg("%s: the reduce differs from one device's", what);
        /* select: uint32 out again, kept elements at out_off */
        for (k = 0; k < sp.count; ++k) {
            clprim_part *p = &sp.parts[k];
            unsigned char *o = malloc((p->n + 2) * 4);
            assert_non_null(o);
            memset(o, POISON, (p->n + 2) * 4);
            clReleaseMemObject(p->out);
            p->out = device_copy(p->ctx, o, (p->n + 2) * 4);
            free(o);
        }
        assert_int_equal(clprim_multi_select(&cd, sp.parts, sp.count, counts, NULL, &total),
                         CLPRIM_SUCCESS);
        assert_int_equal(total, count1);
        for (k = 0, i = 0; k < sp.count; i += counts[k++])
            assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(sp.parts[k].ctx),
                                                 sp.parts[k].out, CL_TRUE, 4, counts[k] * 4,
                                                 (cl_uint *)got + i, 0, NULL, NULL),
                             CL_SUCCESS);
        if (memcmp(got, kept1, count1 * 4) != 0)
            fail_msg("%s: the select differs from one device's", what);
        split_release(&sp);
    }
    free(x), free(kept1), free(one), free(got);
}

/* clprim_expression_rebase: only the token i, as a value, changes. */
static void test_expression_rebase(void **state)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"i", "(i + 7ul)"},
        {"x + i*2", "x + (i + 7ul)*2"},
        {"v.i + p->i + s. i", "v.i + p->i + s. i"},          /* members */
        {"ii + i_ + _i + i2 + 1i", "ii + i_ + _i + i2 + 1i"}, /* other tokens */
        {"1e+5f*i /* i */ // i", "1e+5f*(i + 7ul) /* i */ // i"},
        {"'i' == (char)i", "'i' == (char)(i + 7ul)"},
        {"(uint2)(x, i).x", "(uint2)(x, (i + 7ul)).x"},
    };
    char out[128];
    size_t k, needed = 0;
    (void)state;
    for (k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        memset(out, 0x5A, sizeof out);
        assert_int_equal(clprim_expression_rebase(cases[k].in, 7, out, sizeof out, &needed),
                         CLPRIM_SUCCESS);
        assert_string_equal(out, cases[k].out);
        assert_int_equal(needed, strlen(cases[k].out) + 1);
    }
    /* base 0 leaves it alone; sizing with out NULL; a short out is refused
     * and left untouched */
    assert_int_equal(clprim_expression_rebase("i", 0, out, sizeof out, NULL), CLPRIM_SUCCESS);
    assert_string_equal(out, "i");
    assert_int_equal(clprim_expression_rebase("i + i", 12345, NULL, 0, &needed),
                     CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(needed, strlen("(i + 12345ul) + (i + 12345ul)") + 1);
    memset(out, 0x5A, sizeof out);
    assert_int_equal(clprim_expression_rebase("i + i", 12345, out, needed - 1, NULL),
                     CLPRIM_INVALID_ARGUMENT);
    assert_int_equal((unsigned char)out[0], 0x5A);
    assert_int_equal(clprim_expression_rebase(NULL, 1, out, sizeof out, NULL),
                     CLPRIM_INVALID_ARGUMENT);
}

static void test_multi_errors(void **state)
{
    const clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    const clprim_reduce_desc rd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    const cl_int zero = 0;
    clprim_compact_desc cd = {CLPRIM_TYPE_INT32, NULL, CLPRIM_PREDICATE_GREATER, &zero, NULL, 0,
                              NULL, CLPRIM_COMPACT_AUTO, NULL, 0, 0};
    cl_int x[64] = {1, 2, 3};
    clprim_part p[2];
    clprim_context *other = NULL;
    clprim_operator *op = NULL;
    cl_uint value;
    const clprim_operator_desc od = {"uint", NULL, "a + b", "0u", 4, 0, NULL, 0, NULL};
    (void)state;
    memset(p, 0, sizeof p);
    assert_int_equal(clprim_multi_scan(NULL, p, 1), CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_multi_scan(&d, NULL, 2), CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(clprim_multi_scan(&d, p, 2), CLPRIM_INVALID_ARGUMENT); /* no contexts */
    assert_int_equal(clprim_multi_scan(&d, NULL, 0), CLPRIM_SUCCESS);       /* nothing to do */
    assert_int_equal(clprim_multi_reduce(&rd, NULL, 0, &value), CLPRIM_INVALID_ARGUMENT);
    p[0].ctx = p[1].ctx = ctx;
    p[0].in = p[0].out = p[1].in = p[1].out = device_copy(ctx, x, sizeof x);
    p[0].n = 8;
    /* with a context to say it in, each refusal has its message */
    assert_int_equal(tu_refused(ctx, clprim_multi_scan(NULL, p, 2), CLPRIM_INVALID_ARGUMENT,
                                "desc is NULL"), 0);
    assert_int_equal(tu_refused(ctx, clprim_multi_reduce(NULL, p, 2, &value),
                                CLPRIM_INVALID_ARGUMENT, "desc is NULL"), 0);
    assert_int_equal(tu_refused(ctx, clprim_multi_select(NULL, p, 2, NULL, NULL, NULL),
                                CLPRIM_INVALID_ARGUMENT, "desc is NULL"), 0);
    p[1].ctx = NULL;
    assert_int_equal(tu_refused(ctx, clprim_multi_scan(&d, p, 2), CLPRIM_INVALID_ARGUMENT,
                                "parts[1].ctx is NULL"), 0);
    assert_int_equal(tu_refused(ctx, clprim_multi_select(&cd, p, 2, NULL, NULL, NULL),
                                CLPRIM_INVALID_ARGUMENT, "parts[1].ctx is NULL"), 0);
    p[1].ctx = ctx;
    /* parts overlapping in one buffer: what one writes, the other reads */
    p[1].in_off = p[1].out_off = 4;
    p[1].n = 8;
    assert_int_equal(tu_refused(ctx, clprim_multi_scan(&d, p, 2), CLPRIM_INVALID_ARGUMENT,
                                "overlap"), 0);
    assert_int_equal(tu_refused(ctx, clprim_multi_select(&cd, p, 2, NULL, NULL, NULL),
                                CLPRIM_INVALID_ARGUMENT, "overlap"), 0);
    p[1].in_off = p[1].out_off = 8;
    p[1].n = 100; /* past the buffer's end */
    assert_int_equal(tu_refused(ctx, clprim_multi_scan(&d, p, 2), CLPRIM_OUT_OF_BOUNDS, "in"), 0);
    assert_int_equal(tu_refused(ctx, clprim_multi_reduce(&rd, p, 2, NULL), CLPRIM_INVALID_ARGUMENT,
                                "value"), 0);
    p[1].n = 8;
    cd.indices = p[0].in;
    assert_int_equal(tu_refused(ctx, clprim_multi_select(&cd, p, 2, NULL, NULL, NULL),
                                CLPRIM_INVALID_ARGUMENT, "indices"), 0);
    /* a part's operator from another context */
    assert_int_equal(clprim_context_create(NULL, &other), CLPRIM_SUCCESS);
    assert_int_equal(clprim_operator_create(other, &od, &op), CLPRIM_SUCCESS);
    p[1].custom = op;
    {
        clprim_scan_desc cdesc = d;
        cdesc.custom = op;
        p[0].custom = NULL;
        assert_int_equal(tu_refused(ctx, clprim_multi_scan(&cdesc, p, 2), CLPRIM_INVALID_ARGUMENT,
                                    "another context"), 0);
    }
    /* a part whose buffer belongs to another context */
    p[1].custom = NULL;
    p[1].ctx = other;
    assert_int_equal(tu_refused(other, clprim_multi_scan(&d, p, 2), CLPRIM_INVALID_ARGUMENT,
                                "context"), 0);
    clprim_operator_release(op);
    clprim_context_release(other);
    clReleaseMemObject(p[0].in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrapped_devices), cmocka_unit_test(test_multi_scan),
        cmocka_unit_test(test_multi_reduce),    cmocka_unit_test(test_multi_select),
        cmocka_unit_test(test_multi_custom),    cmocka_unit_test(test_multi_errors),
        cmocka_unit_test(test_multi_index),     cmocka_unit_test(test_expression_rebase),
    };
    size_t i;
    int rc;
    tu_seed();
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    wrap_devices();
    rc = cmocka_run_group_tests_name("multi", tests, NULL, NULL);
    for (i = 0; i < num_wrapped; ++i)
        clprim_context_release(wrapped[i]);
    if (shared)
        clReleaseContext(shared);
    clprim_context_release(ctx);
    return rc;
}

/* SPDX-License-Identifier: MIT */
#include "testutil.h"

#include "reference/reference.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

uint64_t tu_rand(uint64_t *s)
{
    return clprim_ref_rand(s);
}

uint64_t tu_seed(void)
{
    static uint64_t seed;
    if (!seed) {
        const char *e = getenv("CLPRIM_TEST_SEED");
        seed = e && *e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL) * 2654435761u;
        if (!seed)
            seed = 1;
        printf("# CLPRIM_TEST_SEED=%llu\n", (unsigned long long)seed);
    }
    return seed;
}

clprim_context *tu_context(void)
{
    clprim_context *ctx = NULL;
    clprim_device_info info;
    clprim_status st = clprim_context_create(NULL, &ctx);
    if (st != CLPRIM_SUCCESS) {
        fprintf(stderr, "cannot create a clprim context: %s\n", clprim_status_string(st));
        exit(1);
    }
    clprim_context_device_info(ctx, &info);
    printf("# device: %s / %s (SIMD %u)\n", info.platform_name, info.device_name,
           info.simd_width);
    /* CLPRIM_TEST_FILTER: run only the tests whose names match (cmocka's
     * wildcards), e.g. to repeat one that failed */
    if (getenv("CLPRIM_TEST_FILTER"))
        cmocka_set_test_filter(getenv("CLPRIM_TEST_FILTER"));
    return ctx;
}

void tu_describe(const tu_case *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s %s n=%zu in_off=%zu out_off=%zu%s%s seed=%llu",
             clprim_scan_algorithm_name(c->algorithm), clprim_type_name(c->type),
             clprim_op_name(c->op), c->exclusive ? "exclusive" : "inclusive", c->n, c->in_off,
             c->out_off, c->in_place ? " in-place" : "", c->init ? " init" : "",
             (unsigned long long)c->seed);
}

#define POISON 0xA5

/* One case's host arrays and device buffers. */
typedef struct tu_run {
    size_t elem;
    unsigned char *x, *got, *poison;       /* input, read back, poison pattern */
    cl_mem in, out;                        /* out NULL: in place */
    cl_event ev;
} tu_run;

static void run_release(tu_run *r)
{
    if (r->ev)
        clReleaseEvent(r->ev);
    if (r->in)
        clReleaseMemObject(r->in);
    if (r->out)
        clReleaseMemObject(r->out);
    free(r->x);
    free(r->got);
    free(r->poison);
}

/* Allocates the arrays, fills in_len random inputs, and creates the input
 * buffer and (with out_len) a poisoned output buffer. Returns 0, or -1
 * after printing why. */
static int run_prepare(tu_run *r, clprim_context *ctx, clprim_type type, clprim_op op,
                       uint64_t seed, size_t in_len, size_t out_len, const char *desc)
{
    cl_context clctx = clprim_context_cl_context(ctx);
    const size_t got_len = out_len ? out_len : in_len;
    uint64_t s = seed;
    cl_int err;

    memset(r, 0, sizeof *r);
    r->elem = clprim_type_size(type);
    r->x = malloc(in_len * r->elem);
    r->got = malloc(got_len * r->elem);
    r->poison = malloc(got_len * r->elem);
    if (!r->x || !r->got || !r->poison) {
        printf("FAIL %s: out of host memory\n", desc);
        return -1;
    }
    memset(r->poison, POISON, got_len * r->elem);
    clprim_ref_fill(type, op, r->x, in_len, &s);
    r->in = clCreateBuffer(clctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_len * r->elem, r->x,
                           &err);
    if (err == CL_SUCCESS && out_len)
        r->out = clCreateBuffer(clctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                out_len * r->elem, r->poison, &err);
    if (err != CL_SUCCESS) {
        printf("FAIL %s: clCreateBuffer: %s\n", desc, clprim_status_string(err));
        return -1;
    }
    return 0;
}

/* After the call: its status, then wait for r->ev and read `len` elements of
 * the output (r->out, or r->in in place) into r->got. 0, or -1 after printing. */
static int run_collect(tu_run *r, clprim_context *ctx, clprim_status st, size_t len,
                       const char *desc)
{
    cl_int err;
    if (st != CLPRIM_SUCCESS) {
        char why[2048];
        clprim_context_last_error(ctx, why, sizeof why);
        printf("FAIL %s: %s: %s\n", desc, clprim_status_string(st), why);
        return -1;
    }
    err = clWaitForEvents(1, &r->ev);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(clprim_context_queue(ctx), r->out ? r->out : r->in, CL_TRUE, 0,
                                  len * r->elem, r->got, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        printf("FAIL %s: waiting / reading back: %s\n", desc, clprim_status_string(err));
        return -1;
    }
    return 0;
}

/* Checks the `checked` mismatches found against the reference, then that
 * the `len` elements outside [off, off + count) still equal `around`. */
static size_t run_check(const tu_run *r, size_t checked, size_t off, size_t count,
                        const unsigned char *around, size_t len, const char *desc)
{
    size_t bad = checked, i;
    for (i = 0; i < len; ++i)
        if ((i < off || i >= off + count) &&
            memcmp(r->got + i * r->elem, around + i * r->elem, r->elem) != 0 && bad++ < 5)
            printf("  %s: element %zu outside the output range was written\n", desc, i);
    if (bad)
        printf("FAIL %s: %zu wrong elements\n", desc, bad);
    return bad;
}

/* The reference check of a scan with carry-in `init`: the scan of
 * [init, x...] (y), inclusive, is [init, out...] for an inclusive scan and
 * [out..., last] for an exclusive one. */
static size_t check_with_init(const tu_case *c, const tu_run *r, const unsigned char *init,
                              const unsigned char *got, const char *desc)
{
    const size_t e = r->elem;
    unsigned char *y = malloc((c->n + 1) * e), *g = malloc((c->n + 1) * e);
    size_t bad;
    if (!y || !g) {
        free(y);
        free(g);
        printf("FAIL %s: out of host memory\n", desc);
        return 1;
    }
    memcpy(y, init, e);
    memcpy(y + e, r->x + c->in_off * e, c->n * e);
    if (c->exclusive) {
        bad = clprim_ref_scan_check(c->type, c->op, 0, y, got, c->n, stdout, desc);
    } else {
        memcpy(g, init, e);
        memcpy(g + e, got, c->n * e);
        bad = clprim_ref_scan_check(c->type, c->op, 0, y, g, c->n + 1, stdout, desc);
    }
    free(y);
    free(g);
    return bad;
}

int tu_run_case(clprim_context *ctx, const tu_case *c)
{
    const size_t margin = 7; /* elements past the output that must stay untouched */
    const size_t in_len = c->in_off + c->n + margin, out_len = c->out_off + c->n + margin;
    const size_t off = c->in_place ? c->in_off : c->out_off, len = c->in_place ? in_len : out_len;
    clprim_scan_desc d = {c->type, c->op, c->exclusive, c->algorithm, NULL, NULL, CLPRIM_REPRO_NONE};
    unsigned char init[8];
    cl_mem init_mem = NULL;
    char desc[256];
    tu_run r;
    int rc = -1;

    tu_describe(c, desc, sizeof desc);
    if (run_prepare(&r, ctx, c->type, c->op, c->seed, in_len, c->in_place ? 0 : out_len,
                    desc) != 0)
        goto done;
    if (c->init) {
        uint64_t s = c->seed ^ 0x1417;
        cl_int err;
        clprim_ref_fill(c->type, c->op, init, 1, &s);
        init_mem = clCreateBuffer(clprim_context_cl_context(ctx),
                                  CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, r.elem, init, &err);
        if (err != CL_SUCCESS) {
            printf("FAIL %s: clCreateBuffer: %s\n", desc, clprim_status_string(err));
            goto done;
        }
    }
    if (run_collect(&r, ctx,
                    c->init ? clprim_scan_init(ctx, NULL, &d, init_mem, 0, r.in, c->in_off,
                                               r.out ? r.out : r.in, off, c->n, 0, NULL, &r.ev)
                            : clprim_scan(ctx, NULL, &d, r.in, c->in_off, r.out ? r.out : r.in,
                                          off, c->n, 0, NULL, &r.ev),
                    len, desc) != 0)
        goto done;
    rc = run_check(&r,
                   c->init ? check_with_init(c, &r, init, r.got + off * r.elem, desc)
                           : clprim_ref_scan_check(c->type, c->op, c->exclusive,
                                                   r.x + c->in_off * r.elem,
                                                   r.got + off * r.elem, c->n, stdout, desc),
                   off, c->n, c->in_place ? r.x : r.poison, len, desc)
             ? -1
             : 0;
done:
    if (init_mem)
        clReleaseMemObject(init_mem);
    run_release(&r);
    return rc;
}

void tu_describe_reduce(const tu_reduce_case *c, char *buf, size_t size)
{
    snprintf(buf, size, "reduce %s %s %s n=%zu in_off=%zu result_off=%zu seed=%llu",
             clprim_reduce_algorithm_name(c->algorithm), clprim_type_name(c->type),
             clprim_op_name(c->op), c->n, c->in_off, c->result_off, (unsigned long long)c->seed);
}

int tu_run_reduce_case(clprim_context *ctx, const tu_reduce_case *c)
{
    const size_t margin = 3;
    const size_t in_len = c->in_off + c->n + margin, out_len = c->result_off + 1 + margin;
    clprim_reduce_desc d = {c->type, c->op, c->algorithm, NULL, NULL, CLPRIM_REPRO_NONE};
    char desc[256];
    tu_run r;
    int rc = -1;

    tu_describe_reduce(c, desc, sizeof desc);
    if (run_prepare(&r, ctx, c->type, c->op, c->seed, in_len, out_len, desc) == 0 &&
        run_collect(&r, ctx,
                    clprim_reduce(ctx, NULL, &d, r.in, c->in_off, c->n, r.out, c->result_off, 0,
                                  NULL, &r.ev),
                    out_len, desc) == 0)
        rc = run_check(&r,
                       clprim_ref_reduce_check(c->type, c->op, r.x + c->in_off * r.elem, c->n,
                                               r.got + c->result_off * r.elem, stdout, desc),
                       c->result_off, 1, r.poison, out_len, desc)
                 ? -1
                 : 0;
    run_release(&r);
    return rc;
}

int tu_refused(clprim_context *ctx, clprim_status got, clprim_status want, const char *needle)
{
    char msg[8192];
    clprim_context_last_error(ctx, msg, sizeof msg);
    if (got == want && strstr(msg, needle))
        return 0;
    fprintf(stderr, "got %s (%s), want %s with \"%s\"\n", clprim_status_string(got), msg,
            clprim_status_string(want), needle);
    return -1;
}

cl_mem tu_buffer(clprim_context *ctx, size_t bytes, const void *src, cl_mem_flags flags)
{
    cl_int err;
    cl_mem b = clCreateBuffer(clprim_context_cl_context(ctx), flags, bytes ? bytes : 1, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    if (bytes && src)
        assert_int_equal(clEnqueueWriteBuffer(clprim_context_queue(ctx), b, CL_TRUE, 0, bytes,
                                              src, 0, NULL, NULL), CL_SUCCESS);
    return b;
}

size_t tu_row_value(const char *line, const char *name)
{
    char key[48];
    const char *p;
    snprintf(key, sizeof key, " %s=", name);
    p = strstr(line, key);
    assert_non_null(p);
    return (size_t)strtoull(p + strlen(key), NULL, 10);
}

/* A special value of the key type: floats -0.0, +0.0, +-inf, a NaN of
 * either sign with a random payload, the smallest denormals, +-1;
 * integers 0, all ones, the sign bit alone, all ones but it. */
uint64_t tu_special_key(clprim_type t, uint64_t r)
{
    const size_t bits = clprim_type_size(t) * 8;
    const uint64_t all = bits == 64 ? ~0ull : (1ull << bits) - 1, sign = 1ull << (bits - 1);
    const uint64_t inf = bits == 64 ? 0x7ff0000000000000ull : 0x7f800000ull;
    const uint64_t one = bits == 64 ? 0x3ff0000000000000ull : 0x3f800000ull;
    const uint64_t mantissa = bits == 64 ? (1ull << 52) - 1 : (1ull << 23) - 1;
    const uint64_t either = (r >> 8) & 1 ? sign : 0;
    if (t != CLPRIM_TYPE_FLOAT && t != CLPRIM_TYPE_DOUBLE) {
        const uint64_t ints[] = {0, all, sign, all ^ sign};
        return ints[r % 4];
    }
    switch (r % 8) {
    case 0: return sign;
    case 1: return 0;
    case 2: return inf;
    case 3: return sign | inf;
    case 4: return either | inf | (1 + (r >> 9) % mantissa); /* a NaN */
    case 5: return either | 1;
    case 6: return one;
    default: return sign | one;
    }
}

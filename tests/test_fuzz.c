/* SPDX-License-Identifier: MIT */
/* API fuzzing: random argument tuples for every public call -- enums in and
 * out of range, sizes, offsets and pitches from 0 to SIZE_MAX (overflowing
 * products included), NULLs, buffers too small, read-only, of another
 * context, queues and operators of another context, released operators,
 * bad wait lists -- a fixed number of iterations from a printed seed
 * ($CLPRIM_TEST_SEED repeats a run; $CLPRIM_FUZZ_ITERATIONS sets how
 * many). Every call must return (no crash, hang or sanitizer report), and
 * every refusal on a context must leave a message there. Host arrays are
 * always as large as the sizes given with them: the library cannot check
 * those, and the header says so. Valid calls run too (int32 sums mostly,
 * so that few programs are built). */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define HOST_BYTES 65536

static clprim_context *ctx, *other;
static uint64_t rng;
static cl_mem bufs[6];          /* NULL, small, large, read-only, another context's, large */
static cl_command_queue queues[3];
static clprim_operator *ops[3]; /* NULL, live, another context's */
static clprim_operator *dead;   /* released before the run (never dereferenced) */
static cl_event done;           /* a completed user event */
static unsigned char host[HOST_BYTES], host_out[HOST_BYTES];
static unsigned long calls, refused, ran;

static uint64_t r(uint64_t n)
{
    return n ? tu_rand(&rng) % n : 0;
}

/* Mostly a valid value (int32 / sum / AUTO), else anything. */
static int pick_enum(int valid, int count)
{
    static const int odd[] = {-1, INT_MAX, INT_MIN, 99, 1000};
    switch (r(16)) { /* valid ones rarely other than the default: fewer builds */
    case 0: case 1: return odd[r(5)];
    case 2: return count;
    case 3: return (int)r((uint64_t)count);
    default: return valid;
    }
}

static size_t pick_size(void)
{
    static const size_t sizes[] = {0, 1, 3, 17, 100, 1000, 4096, 16383, 65536,
                                   SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 4 + 1, SIZE_MAX / 16,
                                   (size_t)1 << 32, (size_t)1 << 40};
    return r(3) ? sizes[r(9)] : sizes[r(sizeof sizes / sizeof sizes[0])];
}

/* A small size that host arrays of 8-byte elements hold. */
static size_t host_size(void)
{
    return (size_t)r(HOST_BYTES / 8 / 4);
}

static cl_mem pick_buf(void)
{
    return bufs[r(8) < 6 ? 1 + r(5) : 0];
}

static cl_command_queue pick_queue(void)
{
    return r(6) ? NULL : queues[r(3)];
}

static const clprim_operator *pick_op(void)
{
    switch (r(10)) {
    case 0: return ops[1];
    case 1: return ops[2];
    case 2: return dead;
    default: return NULL;
    }
}

/* A wait list: none, one completed event, a NULL entry, or a count without
 * a list. */
static cl_uint pick_wait(const cl_event **wait)
{
    static cl_event list[2];
    list[0] = done;
    list[1] = NULL;
    switch (r(6)) {
    case 0: *wait = list; return 1;
    case 1: *wait = list; return 2;
    case 2: *wait = NULL; return 1;
    default: *wait = NULL; return 0;
    }
}

/* One call's outcome: a refusal must say why (where there is a context). */
static void judge(clprim_context *c, const char *what, clprim_status st, cl_event *ev)
{
    ++calls;
    if (ev && *ev) {
        clReleaseEvent(*ev);
        *ev = NULL;
    }
    if (st == CLPRIM_SUCCESS) {
        ++ran;
        return;
    }
    ++refused;
    if (c) {
        char msg[512] = "";
        clprim_context_last_error(c, msg, sizeof msg);
        if (!msg[0])
            fail_msg("%s returned %s without a message (seed %llu, call %lu)", what,
                     clprim_status_string(st), (unsigned long long)tu_seed(), calls);
    }
}

static void one_call(void)
{
    clprim_context *c = r(20) ? ctx : NULL;
    const cl_event *wait;
    cl_uint num_wait = pick_wait(&wait);
    cl_event ev = NULL, *evp = r(2) ? &ev : NULL;
    clprim_scan_desc sd = {(clprim_type)pick_enum(0, CLPRIM_TYPE_COUNT_),
                           (clprim_op)pick_enum(0, CLPRIM_OP_COUNT_), (int)r(2),
                           (clprim_scan_algorithm)pick_enum(0, CLPRIM_SCAN_ALGORITHM_COUNT_),
                           pick_op(), NULL, CLPRIM_REPRO_NONE};
    clprim_reduce_desc rd = {sd.type, sd.op,
                             (clprim_reduce_algorithm)pick_enum(0, CLPRIM_REDUCE_ALGORITHM_COUNT_),
                             pick_op(), NULL, CLPRIM_REPRO_NONE};
    clprim_compact_desc cd;
    clprim_segments sg;
    clprim_sat_desc td = {sd.type, sd.op, pick_op(),
                          (clprim_pixel_type)pick_enum(0, CLPRIM_PIXEL_TYPE_COUNT_), (int)r(2),
                          (clprim_sat_algorithm)pick_enum(0, CLPRIM_SAT_ALGORITHM_COUNT_), CLPRIM_REPRO_NONE};
    clprim_box_desc bd = {sd.type, (int)r(2), td.input, pick_size() % 64, pick_size() % 64,
                          (int)r(2)};
    static const cl_long zero[8]; /* as large as any element `value` may stand for */
    size_t count = 0;
    clprim_status st;

    /* fields a call does not use are refused (issue 30): mostly leave them
     * out, so that the calls get past that check, and now and then (stray)
     * set one anyway */
    const int stray = r(8) == 0;
    if (!stray && sd.custom)
        sd.type = rd.type = 0, sd.op = rd.op = 0;
    if (!stray && td.custom)
        td.type = 0, td.op = 0;
    memset(&cd, 0, sizeof cd);
    cd.type = sd.type;
    cd.predicate = (clprim_predicate)pick_enum(0, CLPRIM_PREDICATE_COUNT_);
    {
        const int cmp = cd.predicate <= CLPRIM_PREDICATE_NOT_EQUAL;
        const int fl = cd.predicate == CLPRIM_PREDICATE_FLAGS_U8 ||
                       cd.predicate == CLPRIM_PREDICATE_FLAGS_U32;
        const int ex = cd.predicate == CLPRIM_PREDICATE_EXPRESSION;
        cd.value = (cmp || stray) && r(5) ? zero : NULL;
        cd.flags = fl || stray ? pick_buf() : NULL;
        cd.expression = (ex || stray) && r(4) ? (r(2) ? "x > 0" : "x >") : NULL;
    }
    cd.algorithm = (clprim_compact_algorithm)pick_enum(0, CLPRIM_COMPACT_ALGORITHM_COUNT_);
    memset(&sg, 0, sizeof sg);
    sg.kind = (clprim_segments_kind)pick_enum(0, CLPRIM_SEGMENTS_KIND_COUNT_);
    sg.mem = pick_buf();
    sg.off = pick_size();
    sg.type = sg.kind >= CLPRIM_SEGMENTS_KEYS || stray ? (clprim_type)pick_enum(0, CLPRIM_TYPE_COUNT_)
                                                      : 0;
    sg.num_segments = sg.kind == CLPRIM_SEGMENTS_OFFSETS || stray ? pick_size() : 0;
    if (r(10) == 0)
        sd.transform = NULL;
    switch (r(17)) {
    case 0:
        st = clprim_scan(c, pick_queue(), r(20) ? &sd : NULL, pick_buf(), pick_size(), pick_buf(),
                         pick_size(), pick_size(), num_wait, wait, evp);
        judge(c, "clprim_scan", st, evp);
        break;
    case 1:
        st = clprim_reduce(c, pick_queue(), r(20) ? &rd : NULL, pick_buf(), pick_size(),
                           pick_size(), pick_buf(), pick_size(), num_wait, wait, evp);
        judge(c, "clprim_reduce", st, evp);
        break;
    case 2: {
        cl_ulong v;
        st = clprim_reduce_value(c, &rd, pick_buf(), pick_size(), pick_size(), r(8) ? &v : NULL);
        judge(c, "clprim_reduce_value", st, NULL);
        break;
    }
    case 3: {
        double m;
        st = clprim_mean(c, sd.type, pick_buf(), pick_size(), pick_size(), r(8) ? &m : NULL);
        judge(c, "clprim_mean", st, NULL);
        break;
    }
    case 4:
        st = clprim_select(c, pick_queue(), r(20) ? &cd : NULL, pick_buf(), pick_size(),
                           pick_buf(), pick_size(), pick_size(), pick_buf(), pick_size(),
                           num_wait, wait, evp);
        judge(c, "clprim_select", st, evp);
        break;
    case 5:
        st = r(2) ? clprim_partition(c, pick_queue(), &cd, pick_buf(), pick_size(), pick_buf(),
                                     pick_size(), pick_size(), pick_buf(), pick_size(), num_wait,
                                     wait, evp)
                  : clprim_unique(c, pick_queue(), &cd, pick_buf(), pick_size(), pick_buf(),
                                  pick_size(), pick_size(), pick_buf(), pick_size(), num_wait,
                                  wait, evp);
        judge(c, "clprim_partition / clprim_unique", st, evp);
        break;
    case 6:
        st = clprim_run_length_encode(c, pick_queue(), &cd, pick_buf(), pick_size(), pick_buf(),
                                      pick_size(), pick_buf(), pick_size(), pick_size(),
                                      pick_buf(), pick_size(), num_wait, wait, evp);
        judge(c, "clprim_run_length_encode", st, evp);
        break;
    case 7:
        st = clprim_segmented_scan(c, pick_queue(), &sd, r(10) ? &sg : NULL, pick_buf(),
                                   pick_size(), pick_buf(), pick_size(), pick_size(), num_wait,
                                   wait, evp);
        judge(c, "clprim_segmented_scan", st, evp);
        break;
    case 8:
        st = clprim_segmented_reduce(c, pick_queue(), &rd, &sg, pick_buf(), pick_size(),
                                     pick_size(), pick_buf(), pick_size(), pick_buf(),
                                     pick_size(), pick_buf(), pick_size(), num_wait, wait, evp);
        judge(c, "clprim_segmented_reduce", st, evp);
        break;
    case 9:
        st = clprim_sat(c, pick_queue(), r(20) ? &td : NULL, pick_buf(), pick_size(), pick_size(),
                        pick_buf(), pick_size(), pick_size(), pick_size(), pick_size(), num_wait,
                        wait, evp);
        judge(c, "clprim_sat", st, evp);
        break;
    case 10:
        st = clprim_box_filter(c, pick_queue(), r(20) ? &bd : NULL, pick_buf(), pick_size(),
                               pick_size(), pick_buf(), pick_size(), pick_size(), pick_size(),
                               pick_size(), num_wait, wait, evp);
        judge(c, "clprim_box_filter", st, evp);
        break;
    case 11: { /* host helpers: arrays as large as the sizes given */
        const size_t n = host_size();
        st = r(2) ? clprim_scan_host(c, &sd, r(8) ? host : NULL, host_out, n)
                  : clprim_reduce_host(c, &rd, r(8) ? host : NULL, n, host_out);
        judge(c, "clprim_scan_host / clprim_reduce_host", st, NULL);
        break;
    }
    case 12: {
        const size_t w = r(40), h = r(40), pitch = w + r(4);
        st = r(2) ? clprim_sat_host(c, &td, r(8) ? host : NULL, pitch, host_out,
                                    pitch + r(3), w, h)
                  : clprim_box_filter_host(c, &bd, r(8) ? host : NULL, pitch + 1,
                                           (float *)host_out, pitch, w, h);
        judge(c, "clprim_sat_host / clprim_box_filter_host", st, NULL);
        break;
    }
    case 13: {
        const size_t n = host_size();
        st = clprim_select_host(c, &cd, r(8) ? host : NULL, host, host_out, n,
                                r(8) ? &count : NULL);
        judge(c, "clprim_select_host", st, NULL);
        break;
    }
    case 14: {
        const size_t n = host_size();
        /* room for 5 offsets of any offset type; int32 values at the front */
        cl_int offs[10] = {0, (cl_int)(n / 3), (cl_int)(n / 2), (cl_int)r(n + 2), (cl_int)n};
        sg.num_segments = r(5);
        st = clprim_segmented_reduce_host(c, &rd, &sg, sg.kind == CLPRIM_SEGMENTS_OFFSETS
                                                          ? (const void *)offs
                                                          : host,
                                          host, n, host_out, r(2) ? host_out : NULL, &count);
        judge(c, "clprim_segmented_reduce_host", st, NULL);
        break;
    }
    case 15: { /* operators and element types from random descriptions (each a build) */
        if (r(3))
            break;
        static const char *const words[] = {NULL, "", "int", "float2", "struct nope", "a + b",
                                            "a +", "0", "(int)0", "typedef int t;"};
        clprim_operator_desc od = {words[r(10)], words[r(10)], words[r(10)], words[r(10)],
                                   r(2) ? 4 : pick_size(), (unsigned)r(4), NULL, 0, NULL};
        clprim_element_desc ed = {words[r(10)], words[r(10)], r(2) ? 4 : pick_size()};
        clprim_operator *op = NULL;
        clprim_element *el = NULL;
        if (r(2)) {
            st = clprim_operator_create(c, r(10) ? &od : NULL, r(10) ? &op : NULL);
            judge(c, "clprim_operator_create", st, NULL);
            if (st == CLPRIM_SUCCESS)
                assert_true(clprim_operator_size(op) > 0);
            clprim_operator_release(op);
        } else {
            st = clprim_element_create(c, r(10) ? &ed : NULL, r(10) ? &el : NULL);
            judge(c, "clprim_element_create", st, NULL);
            clprim_element_release(el);
        }
        break;
    }
    default: { /* names of anything, and the last error into any buffer */
        char small[8];
        const int v = pick_enum(0, 12);
        (void)clprim_type_name((clprim_type)v);
        (void)clprim_op_name((clprim_op)v);
        (void)clprim_scan_algorithm_name((clprim_scan_algorithm)v);
        (void)clprim_sat_algorithm_name((clprim_sat_algorithm)v);
        (void)clprim_pixel_type_name((clprim_pixel_type)v);
        (void)clprim_segments_kind_name((clprim_segments_kind)v);
        (void)clprim_status_string(v);
        (void)clprim_context_last_error(c, r(2) ? small : NULL, r(9));
        ++calls;
        break;
    }
    }
}

static void test_fuzz(void **state)
{
    const char *it = getenv("CLPRIM_FUZZ_ITERATIONS");
    const unsigned long iterations = it && *it ? strtoul(it, NULL, 10) : 3000;
    (void)state;
    rng = tu_seed();
    for (unsigned long i = 0; i < iterations; ++i)
        one_call();
    assert_int_equal(clFinish(clprim_context_queue(ctx)), CL_SUCCESS);
    printf("# %lu calls: %lu ran, %lu refused with a message; seed %llu\n", calls, ran, refused,
           (unsigned long long)tu_seed());
    assert_true(ran > 0 && refused > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fuzz)};
    const clprim_operator_desc od = {"int", NULL, "a + b", "0", 4, CLPRIM_OPERATOR_COMMUTATIVE,
                                     NULL, 0, NULL};
    cl_int err;
    int rc;
    uint64_t s = tu_seed();

    ctx = tu_context();
    other = tu_context();
    for (size_t i = 0; i < HOST_BYTES; ++i)
        host[i] = (unsigned char)tu_rand(&s);
    {
        cl_context cl = clprim_context_cl_context(ctx);
        bufs[1] = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64, host, &err);
        bufs[2] = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, HOST_BYTES, host,
                                 &err);
        bufs[3] = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4096, host, &err);
        bufs[4] = clCreateBuffer(clprim_context_cl_context(other), CL_MEM_READ_WRITE, 4096, NULL,
                                 &err);
        bufs[5] = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, HOST_BYTES, host,
                                 &err);
        done = clCreateUserEvent(cl, &err);
        clSetUserEventStatus(done, CL_COMPLETE);
        queues[0] = clprim_context_queue(ctx);
        queues[1] = clprim_context_queue(other);
        queues[2] = clCreateCommandQueue(cl, clprim_context_device(ctx),
                                         CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
        if (err != CL_SUCCESS)
            queues[2] = clprim_context_queue(ctx);
    }
    if (clprim_operator_create(ctx, &od, &ops[1]) != CLPRIM_SUCCESS ||
        clprim_operator_create(other, &od, &ops[2]) != CLPRIM_SUCCESS ||
        clprim_operator_create(ctx, &od, &dead) != CLPRIM_SUCCESS) {
        fprintf(stderr, "cannot create the fuzzer's operators\n");
        return 1;
    }
    clprim_operator_release(dead);
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clFinish(clprim_context_queue(ctx));
    for (int i = 1; i < 6; ++i)
        clReleaseMemObject(bufs[i]);
    if (queues[2] != clprim_context_queue(ctx))
        clReleaseCommandQueue(queues[2]);
    clReleaseEvent(done);
    clprim_operator_release(ops[1]);
    clprim_operator_release(ops[2]);
    clprim_context_release(other);
    clprim_context_release(ctx);
    return rc;
}

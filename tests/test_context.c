/* SPDX-License-Identifier: MIT */
/* The runtime around the kernels: wrapping the caller's objects, events and
 * wait lists, out-of-order queues, several threads on one context, logging. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

static clprim_context *ctx;

static cl_uint refcount_ctx(cl_context c)
{
    cl_uint r = 0;
    clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof r, &r, NULL);
    return r;
}

/* The context's reference count once it settles at `want` (drivers such as
 * PoCL drop the references of released queues and buffers from their worker
 * threads, a moment later), or as it is after 2 s: a leaked reference never
 * settles. */
static cl_uint settled_refcount_ctx(cl_context c, cl_uint want)
{
    const struct timespec pause = {0, 10 * 1000 * 1000};
    int i;
    for (i = 0; i < 200 && refcount_ctx(c) != want; ++i)
        nanosleep(&pause, NULL);
    return refcount_ctx(c);
}

static void test_device_info(void **state)
{
    clprim_device_info i;
    (void)state;
    assert_int_equal(clprim_context_device_info(ctx, &i), CLPRIM_SUCCESS);
    assert_true(i.simd_width > 0 && (i.simd_width & (i.simd_width - 1)) == 0);
    assert_non_null(i.simd_source);
    assert_int_equal(i.local_mem_banks, 32);
    assert_true(i.max_work_group_size >= 1 && i.local_mem_size >= 1024 && i.compute_units >= 1);
    assert_true(strlen(i.device_name) > 0);
    assert_int_equal(clprim_context_device_info(NULL, &i), CLPRIM_INVALID_ARGUMENT);
    assert_string_equal(clprim_version_string(), CLPRIM_VERSION_STRING);
}

/* A wrapped context retains the caller's objects and releases exactly those
 * references again. */
static void test_wrap(void **state)
{
    cl_context c = clprim_context_cl_context(ctx);
    cl_device_id d = clprim_context_device(ctx);
    cl_command_queue q = clprim_context_queue(ctx);
    clprim_context *w = NULL;
    cl_uint before = refcount_ctx(c);
    cl_int in[5] = {5, 4, 3, 2, 1}, out[5];
    clprim_scan_desc desc = {CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    int with_queue;
    (void)state;
    for (with_queue = 0; with_queue < 2; ++with_queue) {
        assert_int_equal(clprim_context_wrap(c, d, with_queue ? q : NULL, NULL, &w),
                         CLPRIM_SUCCESS);
        assert_true(clprim_context_cl_context(w) == c);
        assert_true(with_queue ? clprim_context_queue(w) == q : clprim_context_queue(w) != q);
        assert_int_equal(clprim_scan_host(w, &desc, in, out, 5), CLPRIM_SUCCESS);
        assert_int_equal(out[4], 5);
        clprim_context_release(w);
        assert_int_equal(settled_refcount_ctx(c, before), before);
    }
    /* a device that is not in the context */
    assert_int_equal(clprim_context_wrap(c, (cl_device_id)NULL, NULL, NULL, &w),
                     CLPRIM_INVALID_ARGUMENT);
    assert_null(w);
}

/* The call honours its wait list and its output event completes with it. */
static void test_events(void **state)
{
    cl_context c = clprim_context_cl_context(ctx);
    const size_t n = 100000;
    cl_int *x = malloc(n * sizeof *x), err, status = 0;
    cl_mem b;
    cl_event gate, done = NULL, empty = NULL;
    clprim_scan_desc desc = {0};
    size_t i;
    (void)state;
    for (i = 0; i < n; ++i)
        x[i] = 1;
    b = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *x, x, &err);
    gate = clCreateUserEvent(c, &err);
    assert_int_equal(clprim_scan(ctx, NULL, &desc, b, 0, b, 0, n, 1, &gate, &done),
                     CLPRIM_SUCCESS);
    assert_non_null(done);
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    assert_true(status != CL_COMPLETE); /* held back by the gate */
    /* n = 0 still gives an event, which completes with the wait list */
    assert_int_equal(clprim_scan(ctx, NULL, &desc, b, 0, b, 0, 0, 1, &done, &empty),
                     CLPRIM_SUCCESS);
    assert_non_null(empty);
    clSetUserEventStatus(gate, CL_COMPLETE);
    assert_int_equal(clWaitForEvents(1, &empty), CL_SUCCESS);
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    assert_int_equal(status, CL_COMPLETE);
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), b, CL_TRUE, 0, n * sizeof *x,
                                         x, 0, NULL, NULL), CL_SUCCESS);
    for (i = 0; i < n; ++i)
        if (x[i] != (cl_int)(i + 1))
            fail_msg("element %zu: %d", i, x[i]);
    clReleaseEvent(empty);
    clReleaseEvent(done);
    clReleaseEvent(gate);
    clReleaseMemObject(b);
    free(x);
}

/* A multi-level scan on an out-of-order queue: its launches must still run
 * in order (they are chained by events). */
static void test_out_of_order_queue(void **state)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(clprim_context_cl_context(ctx),
                                              clprim_context_device(ctx),
                                              CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    const size_t n = 3000017;
    cl_uint *x = malloc(n * sizeof *x);
    cl_mem b;
    cl_event ev = NULL;
    clprim_scan_desc desc = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 1, CLPRIM_SCAN_KOGGE_STONE, NULL, NULL, CLPRIM_REPRO_NONE};
    size_t i;
    (void)state;
    if (err != CL_SUCCESS) {
        free(x);
        skip(); /* the device has no out-of-order queues */
    }
    for (i = 0; i < n; ++i)
        x[i] = (cl_uint)(i % 3);
    b = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       n * sizeof *x, x, &err);
    assert_int_equal(clprim_scan(ctx, q, &desc, b, 0, b, 0, n, 0, NULL, &ev), CLPRIM_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, n * sizeof *x, x, 1, &ev, NULL),
                     CL_SUCCESS);
    {
        cl_uint acc = 0;
        for (i = 0; i < n; ++i) {
            if (x[i] != acc)
                fail_msg("element %zu: %u, expected %u", i, x[i], acc);
            acc += (cl_uint)(i % 3);
        }
    }
    clReleaseEvent(ev);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    free(x);
}

/* Several threads scanning on one context at once, each on its own queue
 * or the shared one, with fresh data every round. */
#define THREADS 4
typedef struct worker {
    int id, failures;
    uint64_t seed;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    int round;
    for (round = 0; round < 6; ++round) {
        tu_case c = {(clprim_scan_algorithm)((w->id + round) % CLPRIM_SCAN_ALGORITHM_COUNT_),
                     (clprim_type)((w->id + round) % 4), CLPRIM_OP_SUM, round & 1,
                     20000 + (size_t)(tu_rand(&w->seed) % 200000), 0, 0, round % 3 == 2, 0, round % 4 == 1};
        c.seed = tu_rand(&w->seed);
        w->failures += tu_run_case(ctx, &c) != 0;
    }
    return NULL;
}

static void test_threads(void **state)
{
    pthread_t t[THREADS];
    worker w[THREADS];
    int i, failures = 0;
    (void)state;
    for (i = 0; i < THREADS; ++i) {
        w[i].id = i;
        w[i].failures = 0;
        w[i].seed = tu_seed() + (uint64_t)i * 7919;
        assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (i = 0; i < THREADS; ++i) {
        pthread_join(t[i], NULL);
        failures += w[i].failures;
    }
    assert_int_equal(failures, 0);
}

static int logged;
static void on_log(void *user, int level, const char *msg)
{
    (void)level;
    if (msg && *msg)
        ++*(int *)user;
}

static void test_log_callback(void **state)
{
    clprim_context_options o;
    clprim_context *c = NULL;
    (void)state;
    memset(&o, 0, sizeof o);
    o.log = on_log;
    o.log_user = &logged;
    assert_int_equal(clprim_context_create(&o, &c), CLPRIM_SUCCESS);
    assert_true(logged > 0);
    clprim_context_release(c);
}

/* What the log callback heard, all of it. */
typedef struct heard {
    char text[65536];
    size_t len;
} heard;

static void hear(void *user, int level, const char *msg)
{
    heard *h = user;
    int n;
    (void)level;
    n = snprintf(h->text + h->len, sizeof h->text - h->len, "%s\n", msg);
    if (n > 0)
        h->len += (size_t)n < sizeof h->text - h->len ? (size_t)n : sizeof h->text - h->len - 1;
}

/* Issue 30, defect 4: a build that fails at creation (the SIMD-width probe's,
 * on a device that does not report its SIMD width) keeps its compiler log
 * in the message the log callback gets (the probe's clean-up overwrote it
 * with "probing the SIMD width failed: CLPRIM_BUILD_FAILED"). A build
 * option breaks the probe's source: its kernel keyword becomes an unknown
 * word, which the compiler's log names. */
static void test_build_failure_keeps_log(void **state)
{
    static heard h;
    clprim_context_options o;
    clprim_context *c = NULL;
    clprim_status st;
    (void)state;
    memset(&o, 0, sizeof o);
    o.log = hear;
    o.log_user = &h;
    o.flags = CLPRIM_CONTEXT_NO_DISK_CACHE;
    setenv("CLPRIM_BUILD_OPTIONS", "-Dkernel=clprim_no_such_word", 1);
    st = clprim_context_create(&o, &c);
    unsetenv("CLPRIM_BUILD_OPTIONS");
    if (st == CLPRIM_SUCCESS) { /* the device reports its SIMD width: no probe */
        clprim_context_release(c);
        skip();
    }
    assert_null(c);
    assert_int_equal(st, CLPRIM_BUILD_FAILED);
    assert_non_null(strstr(h.text, "probing the SIMD width"));
    assert_non_null(strstr(h.text, "build log:\n"));
    if (!strstr(h.text, "clprim_no_such_word"))
        fail_msg("the compiler's log is missing from what the log callback heard:\n%s", h.text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_info),        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_events),             cmocka_unit_test(test_out_of_order_queue),
        cmocka_unit_test(test_threads),            cmocka_unit_test(test_log_callback),
        cmocka_unit_test(test_build_failure_keeps_log),
    };
    int rc;
    tu_seed();
    ctx = tu_context();
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

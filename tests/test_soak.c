/* SPDX-License-Identifier: MIT */
/* Soak: 8 threads for a fixed time ($CLPRIM_SOAK_SECONDS, default 60) on
 * two contexts of one device -- four on the first context's own queue, two
 * on queues of their own on it (one in-order, one out-of-order), two on a
 * second context (its queue, and an out-of-order one) -- each mixing scans
 * of every algorithm, reduces of every algorithm, selects, segmented scans
 * and summed-area tables of both algorithms, over random sizes, every result checked on the host;
 * while a second process fills and reads the same on-disk program cache.
 * Any wrong result, failure or hang (CTest's timeout) fails the test. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define THREADS 8
#define MAX_N 100000

static clprim_context *ctxs[2];
static char cache_dir[] = "/tmp/clprim-soak-XXXXXX";
static double deadline;
static pthread_mutex_t report = PTHREAD_MUTEX_INITIALIZER;
static int failures;
static unsigned long calls;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void fail_once(int thread, const char *what, clprim_context *ctx, clprim_status st)
{
    char msg[1024] = "";
    if (ctx)
        clprim_context_last_error(ctx, msg, sizeof msg);
    pthread_mutex_lock(&report);
    if (failures++ < 10)
        fprintf(stderr, "thread %d: %s: %s %s\n", thread, what, clprim_status_string(st), msg);
    pthread_mutex_unlock(&report);
}

/* One call of a random primitive on queue q (NULL: the context's); 0 when
 * its result is right. */
static int one_call(int thread, clprim_context *ctx, cl_command_queue q, uint64_t *s, cl_int *x,
                    cl_int *y, unsigned char *flags)
{
    cl_context cl = clprim_context_cl_context(ctx);
    cl_command_queue rq = q ? q : clprim_context_queue(ctx);
    const size_t n = 1 + tu_rand(s) % (tu_rand(s) % 4 ? 5000 : MAX_N);
    const int what = (int)(tu_rand(s) % 5);
    cl_mem in, out, aux = NULL;
    cl_event ev = NULL;
    cl_int err;
    clprim_status st = CLPRIM_SUCCESS;
    size_t i;
    int bad = 0;
    char name[96];

    for (i = 0; i < n; ++i) {
        x[i] = (cl_int)(tu_rand(s) % 2001) - 1000;
        flags[i] = tu_rand(s) % 16 == 0;
    }
    in = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, x, &err);
    out = clCreateBuffer(cl, CL_MEM_READ_WRITE, n * 4 + 8, NULL, &err);
    if (what == 2)
        aux = clCreateBuffer(cl, CL_MEM_READ_WRITE, 8, NULL, &err);
    if (what == 3)
        aux = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, flags, &err);
    if (!in || !out || ((what == 2 || what == 3) && !aux)) {
        fail_once(thread, "clCreateBuffer", NULL, err);
        return -1;
    }
    if (what == 0 || what == 3) { /* a scan of any algorithm, or segmented by the flags */
        const int seg = what == 3;
        const int a = (int)(tu_rand(s) % CLPRIM_SCAN_ALGORITHM_COUNT_);
        const clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, seg ? 0 : (int)(tu_rand(s) % 2),
                                    seg ? CLPRIM_SCAN_AUTO : (clprim_scan_algorithm)a, NULL, NULL};
        const clprim_segments sg = {CLPRIM_SEGMENTS_FLAGS_U8, aux, 0, 0, NULL, 0};
        snprintf(name, sizeof name, "%s %s n=%zu", seg ? "segmented scan" : "scan",
                 clprim_scan_algorithm_name(d.algorithm), n);
        st = seg ? clprim_segmented_scan(ctx, q, &d, &sg, in, 0, out, 0, n, 0, NULL, &ev)
                 : clprim_scan(ctx, q, &d, in, 0, out, 0, n, 0, NULL, &ev);
        if (st == CLPRIM_UNSUPPORTED) /* single pass on a device without it */
            goto done;
        if (st == CLPRIM_SUCCESS)
            st = clEnqueueReadBuffer(rq, out, CL_TRUE, 0, n * 4, y, 1, &ev, NULL);
        if (st == CLPRIM_SUCCESS) {
            cl_uint acc = 0;
            for (i = 0; i < n && !bad; ++i) {
                const cl_uint before = seg && (i == 0 || flags[i]) ? 0u : acc;
                acc = before + (cl_uint)x[i];
                bad = y[i] != (cl_int)(d.exclusive ? before : acc);
            }
        }
    } else if (what == 1) { /* reduce, any algorithm */
        const clprim_reduce_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_MAX,
                                      (clprim_reduce_algorithm)(tu_rand(s) %
                                                                CLPRIM_REDUCE_ALGORITHM_COUNT_),
                                      NULL, NULL};
        cl_int best = x[0];
        snprintf(name, sizeof name, "reduce %s n=%zu", clprim_reduce_algorithm_name(d.algorithm), n);
        st = clprim_reduce(ctx, q, &d, in, 0, n, out, 0, 0, NULL, &ev);
        if (st == CLPRIM_SUCCESS)
            st = clEnqueueReadBuffer(rq, out, CL_TRUE, 0, 4, y, 1, &ev, NULL);
        for (i = 1; i < n; ++i)
            best = x[i] > best ? x[i] : best;
        bad = st == CLPRIM_SUCCESS && y[0] != best;
    } else if (what == 2) { /* select */
        const cl_int zero = 0;
        clprim_compact_desc d;
        cl_ulong kept = 0;
        size_t k = 0;
        memset(&d, 0, sizeof d);
        d.predicate = CLPRIM_PREDICATE_LESS;
        d.value = &zero;
        snprintf(name, sizeof name, "select n=%zu", n);
        st = clprim_select(ctx, q, &d, in, 0, out, 0, n, aux, 0, 0, NULL, &ev);
        if (st == CLPRIM_SUCCESS)
            st = clEnqueueReadBuffer(rq, aux, CL_TRUE, 0, 8, &kept, 1, &ev, NULL);
        if (st == CLPRIM_SUCCESS && kept <= n)
            st = clEnqueueReadBuffer(rq, out, CL_TRUE, 0, (size_t)kept * 4, y, 0, NULL, NULL);
        for (i = 0; st == CLPRIM_SUCCESS && i < n && !bad; ++i)
            if (x[i] < 0)
                bad = k >= kept || y[k++] != x[i];
        bad = bad || (st == CLPRIM_SUCCESS && k != kept);
    } else { /* a summed-area table of x as a w x h image, either algorithm */
        const size_t w = 1 + n % 300, h = n / w;
        const clprim_sat_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, NULL, CLPRIM_PIXEL_SAME, 0,
                                   (clprim_sat_algorithm)(tu_rand(s) % CLPRIM_SAT_ALGORITHM_COUNT_)};
        snprintf(name, sizeof name, "summed-area table %s %zu x %zu",
                 clprim_sat_algorithm_name(d.algorithm), w, h);
        st = clprim_sat(ctx, q, &d, in, 0, w, out, 0, w, w, h, 0, NULL, &ev);
        if (st == CLPRIM_UNSUPPORTED)
            goto done;
        if (st == CLPRIM_SUCCESS)
            st = clEnqueueReadBuffer(rq, out, CL_TRUE, 0, w * h * 4, y, 1, &ev, NULL);
        for (size_t r = 0; st == CLPRIM_SUCCESS && r < h && !bad; ++r) {
            cl_uint row = 0;
            for (i = 0; i < w && !bad; ++i) {
                row += (cl_uint)x[r * w + i];
                /* the row above's table plus this row's running sum */
                bad = (cl_uint)y[r * w + i] != (r ? (cl_uint)y[(r - 1) * w + i] : 0u) + row;
            }
        }
    }
    if (st != CLPRIM_SUCCESS)
        fail_once(thread, name, ctx, st);
    else if (bad)
        fail_once(thread, name, NULL, CLPRIM_SUCCESS);
done:
    if (ev)
        clReleaseEvent(ev);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    if (aux)
        clReleaseMemObject(aux);
    return st != CLPRIM_SUCCESS && st != CLPRIM_UNSUPPORTED ? -1 : bad ? -1 : 0;
}

static void *worker(void *arg)
{
    const int t = (int)(size_t)arg;
    clprim_context *ctx = ctxs[t >= 6];
    cl_command_queue q = NULL;
    uint64_t s = tu_seed() + 7919u * (uint64_t)t;
    cl_int *x = malloc(MAX_N * 4), *y = malloc(MAX_N * 4 + 8);
    unsigned char *flags = malloc(MAX_N);
    unsigned long mine = 0;
    cl_int err = CL_SUCCESS;
    if (t == 4 || t == 5 || t == 7) /* in-order (4), out-of-order (5, 7) queues of their own */
        q = clCreateCommandQueue(clprim_context_cl_context(ctx), clprim_context_device(ctx),
                                 t == 4 ? 0 : CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS && t == 5) /* out-of-order queues are optional: in order then */
        q = clCreateCommandQueue(clprim_context_cl_context(ctx), clprim_context_device(ctx), 0,
                                 &err);
    if (!x || !y || !flags || err != CL_SUCCESS) {
        fail_once(t, "setup", NULL, err);
    } else {
        while (now() < deadline) {
            one_call(t, ctx, q, &s, x, y, flags);
            ++mine;
        }
    }
    if (q) {
        clFinish(q);
        clReleaseCommandQueue(q);
    }
    pthread_mutex_lock(&report);
    calls += mine;
    pthread_mutex_unlock(&report);
    free(x);
    free(y);
    free(flags);
    return NULL;
}

/* The second process: new contexts on the shared disk cache, one scan each. */
static int cache_neighbour(void)
{
    int bad = 0;
    while (now() < deadline && !bad) {
        clprim_context_options o;
        clprim_context *c = NULL;
        const clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, 0, CLPRIM_SCAN_AUTO, NULL,
                                    NULL};
        cl_int x[300], y[300], best = 0;
        memset(&o, 0, sizeof o);
        o.cache_dir = cache_dir;
        o.device = getenv("CLPRIM_DEVICE");
        for (int i = 0; i < 300; ++i)
            x[i] = (cl_int)(i * 7919 % 1000);
        bad = clprim_context_create(&o, &c) != CLPRIM_SUCCESS ||
              clprim_scan_host(c, &d, x, y, 300) != CLPRIM_SUCCESS;
        for (int i = 0; i < 300 && !bad; ++i) {
            best = i == 0 || x[i] > best ? x[i] : best;
            bad = y[i] != best;
        }
        clprim_context_release(c);
    }
    return bad;
}

static pid_t child;
static double seconds;

static void test_soak(void **state)
{
    pthread_t th[THREADS];
    int status = 0;
    (void)state;
    for (size_t t = 0; t < THREADS; ++t)
        assert_int_equal(pthread_create(&th[t], NULL, worker, (void *)t), 0);
    for (size_t t = 0; t < THREADS; ++t)
        pthread_join(th[t], NULL);
    assert_true(child > 0);
    waitpid(child, &status, 0);
    printf("# %lu calls in %.0f s by %d threads on 2 contexts; %d failures; the second process %s\n",
           calls, seconds, THREADS, failures,
           WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "FAILED");
    assert_int_equal(failures, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(calls > THREADS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_soak)};
    const char *secs = getenv("CLPRIM_SOAK_SECONDS");
    clprim_context_options o;
    int rc;
    if (!mkdtemp(cache_dir))
        return 1;
    seconds = secs && atof(secs) > 0 ? atof(secs) : 60.0;
    deadline = now() + seconds;
    /* the second process starts before this one touches OpenCL (a driver's
     * threads do not survive a fork) */
    fflush(NULL);
    child = fork();
    if (child == 0)
        _exit(cache_neighbour());
    memset(&o, 0, sizeof o);
    o.cache_dir = cache_dir;
    o.device = getenv("CLPRIM_DEVICE");
    if (clprim_context_create(&o, &ctxs[0]) != CLPRIM_SUCCESS ||
        clprim_context_create(&o, &ctxs[1]) != CLPRIM_SUCCESS) {
        fprintf(stderr, "cannot create two contexts\n");
        return 1;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctxs[0]);
    clprim_context_release(ctxs[1]);
    return rc;
}

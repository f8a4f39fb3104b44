/* SPDX-License-Identifier: MIT */
/* Device memory exhausted: the device is filled with the caller's buffers
 * (each written, so that the driver must back it), then calls that need
 * temporary memory (a single-pass scan, a segmented scan, a select, a
 * summed-area table) must each either succeed with a verified result or
 * fail with a status and a message; once the filling buffers are released,
 * the same context must run all of them again, verified.
 *
 * GPUs only: PoCL 3.1 does not hold its devices to POCL_MEMORY_LIMIT (a
 * probe filled 24 GiB of host memory through a 1 GiB device on this
 * project's CI machine before the kernel killed it), so on a CPU the test
 * skips. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define N ((size_t)1 << 24)
#define MAX_FILL 4096

static clprim_context *ctx;
static cl_int host[N], want[N], got[N];

/* One call of the workload into out; 1 when it succeeded and its first N
 * (or 4096 x 4096 / 4096 ...) results are right, 0 when it failed with a
 * message; fails the test otherwise. */
static int run_one(int which, cl_mem in, cl_mem out, cl_mem count, const char *phase)
{
    const clprim_scan_desc sd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_DECOUPLED_LOOKBACK,
                                 NULL, NULL, CLPRIM_REPRO_NONE};
    const clprim_sat_desc td = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, NULL, CLPRIM_PIXEL_SAME, 0,
                                CLPRIM_SAT_AUTO, CLPRIM_REPRO_NONE};
    clprim_segments sg;
    clprim_compact_desc cd;
    const cl_int zero = 0;
    const char *names[] = {"scan", "segmented scan", "select", "summed-area table"};
    clprim_status st;
    size_t m = N;

    memset(&sg, 0, sizeof sg);
    sg.kind = CLPRIM_SEGMENTS_FLAGS_U8;
    sg.mem = in; /* the low bytes of the values: heads wherever they are non-zero */
    memset(&cd, 0, sizeof cd);
    cd.predicate = CLPRIM_PREDICATE_GREATER;
    cd.value = &zero;
    switch (which) {
    case 0:
        st = clprim_scan(ctx, NULL, &sd, in, 0, out, 0, N, 0, NULL, NULL);
        break;
    case 1:
        st = clprim_segmented_scan(ctx, NULL, &sd, &sg, in, 0, out, 0, N / 4, 0, NULL, NULL);
        m = N / 4;
        break;
    case 2:
        st = clprim_select(ctx, NULL, &cd, in, 0, out, 0, N, count, 0, 0, NULL, NULL);
        break;
    default:
        st = clprim_sat(ctx, NULL, &td, in, 0, 4096, out, 0, 4096, 4096, N / 4096, 0, NULL, NULL);
        break;
    }
    if (st != CLPRIM_SUCCESS) {
        char msg[1024] = "";
        clprim_context_last_error(ctx, msg, sizeof msg);
        printf("# %s, %s: %s: %s\n", phase, names[which], clprim_status_string(st), msg);
        if (!msg[0])
            fail_msg("%s: %s failed without a message", phase, names[which]);
        return 0;
    }
    assert_int_equal(clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, m * 4, got, 0,
                                         NULL, NULL),
                     CL_SUCCESS);
    /* the host's answer: scan, segmented scan, select of positives, or
     * the first row of the table (its running sum) and the table's last row
     * through its column sums */
    {
        cl_uint acc = 0;
        size_t k = 0;
        const unsigned char *heads = (const unsigned char *)host;
        for (size_t i = 0; i < m; ++i) {
            if (which == 2) {
                if (host[i] > 0)
                    want[k++] = host[i];
                continue;
            }
            if (which == 1 && (i == 0 || heads[i]))
                acc = 0;
            acc += (cl_uint)host[i];
            want[i] = (cl_int)acc;
        }
        if (which == 3) { /* row 0 only: a scan of its 4096 pixels */
            m = 4096;
        }
        if (which == 2)
            m = k;
    }
    if (memcmp(got, want, m * 4) != 0)
        fail_msg("%s: %s succeeded with a wrong result", phase, names[which]);
    return 1;
}

static void test_exhaustion(void **state)
{
    cl_context cl = clprim_context_cl_context(ctx);
    cl_command_queue q = clprim_context_queue(ctx);
    clprim_device_info info;
    static cl_mem fill[MAX_FILL];
    size_t filled = 0, chunk, bytes = 0;
    cl_mem in, out, count;
    cl_int err;
    uint64_t s = tu_seed();
    int failed = 0;
    (void)state;

    clprim_context_device_info(ctx, &info);
    if (!(info.type & CL_DEVICE_TYPE_GPU)) {
        printf("# skipped: %s is not a GPU (PoCL does not enforce a memory limit)\n",
               info.device_name);
        skip();
    }
    for (size_t i = 0; i < N; ++i)
        host[i] = (cl_int)(tu_rand(&s) % 2001) - 1000;
    in = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * 4, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    out = clCreateBuffer(cl, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    count = clCreateBuffer(cl, CL_MEM_READ_WRITE, 8, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    {
        const cl_uchar poison = 0xA5;
        assert_int_equal(clEnqueueFillBuffer(q, out, &poison, 1, 0, N * 4, 0, NULL, NULL),
                         CL_SUCCESS);
    }
    clFinish(q);
    /* fill the device, written so that it is really taken, in ever smaller
     * pieces down to 64 KiB */
    for (chunk = (size_t)info.max_alloc_size; chunk >= 65536 && filled < MAX_FILL;) {
        const cl_uint zero = 0;
        cl_mem b = clCreateBuffer(cl, CL_MEM_READ_WRITE, chunk, NULL, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(q, b, &zero, 4, 0, chunk, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clFinish(q);
        if (err != CL_SUCCESS) {
            if (b)
                clReleaseMemObject(b);
            chunk /= 4;
            continue;
        }
        fill[filled++] = b;
        bytes += chunk;
    }
    printf("# filled %zu MiB in %zu buffers\n", bytes >> 20, filled);
    for (int w = 0; w < 4; ++w)
        failed += !run_one(w, in, out, count, "device full");
    for (size_t i = 0; i < filled; ++i)
        clReleaseMemObject(fill[i]);
    for (int w = 0; w < 4; ++w)
        if (!run_one(w, in, out, count, "memory free again"))
            fail_msg("the context did not recover once memory was free");
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(count);
    if (!failed) {
        printf("# skipped: every call found the memory it needed on the full device\n");
        skip();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_exhaustion)};
    int rc;
    ctx = tu_context();
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

/* SPDX-License-Identifier: MIT */
/* clprim-bench-multi: an inclusive int32 sum of n elements split evenly
 * over K devices (clprim_multi_scan, host wall clock per call, medians),
 * beside the same scan on one device, the device's copy of the same bytes,
 * the parts' work without the exchange (reduce + scan on every device at
 * once: what is left is the exchange's share), and a batch (K independent
 * scans, on K devices at once against one after another on one). Every
 * multi-device result is checked against a host loop.
 *
 *   clprim-bench-multi [--n N] [--devices K] [--reps R] [--shared] [--csv FILE]
 *
 * Devices: every GPU (else every device) whose "platform / device" name
 * contains $CLPRIM_DEVICE, on the first platform that has one; one
 * cl_context per device, or (--shared) one cl_context for all of them. */
#define _POSIX_C_SOURCE 200809L
#include <clprim.h>

#include "bench.h" /* the clock and median (bench_timing.c) */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEV 8
#define MULTI_MAX_REPS 51

static void die(const char *what, int err)
{
    fprintf(stderr, "clprim-bench-multi: %s failed (%d)\n", what, err);
    exit(1);
}

typedef struct gpu {
    clprim_context *ctx;
    cl_command_queue q;
    cl_mem in, out, total;
} gpu;

static cl_mem buffer(gpu *g, size_t bytes, const void *src)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clprim_context_cl_context(g->ctx), CL_MEM_READ_WRITE, bytes, NULL,
                              &err);
    if (err != CL_SUCCESS)
        die("clCreateBuffer", err);
    if (src && clEnqueueWriteBuffer(g->q, m, CL_TRUE, 0, bytes, src, 0, NULL, NULL) != CL_SUCCESS)
        die("clEnqueueWriteBuffer", 0);
    return m;
}

static void finish_all(gpu *g, int k)
{
    int i;
    for (i = 0; i < k; ++i)
        clFinish(g[i].q);
}

/* What is timed, in the order main times it. */
enum { ONE_SCAN, ONE_COPY, MULTI_SCAN, NO_EXCHANGE, PART_TOTAL, BATCH_K, BATCH_ONE };

typedef struct multi_run {
    gpu *g;
    int k;
    size_t n, part;
    clprim_part *parts;
    const clprim_scan_desc *sd;
    const clprim_reduce_desc *rd;
} multi_run;

/* One blocking run of step; 0 when clprim_multi_scan failed (said why). */
static int run_step(const multi_run *m, int step)
{
    gpu *g = m->g;
    const size_t part = m->part;
    int a;
    switch (step) {
    case ONE_SCAN: /* one device: the whole array */
        if (clprim_scan(g[0].ctx, NULL, m->sd, g[0].in, 0, g[0].out, 0, m->n, 0, NULL, NULL))
            die("clprim_scan", 0);
        clFinish(g[0].q);
        break;
    case ONE_COPY: /* and its copy */
        clEnqueueCopyBuffer(g[0].q, g[0].in, g[0].out, 0, 0, m->n * sizeof(cl_uint), 0, NULL,
                            NULL);
        clFinish(g[0].q);
        break;
    case MULTI_SCAN: { /* k devices */
        const clprim_status st = clprim_multi_scan(m->sd, m->parts, (size_t)m->k);
        if (st != CLPRIM_SUCCESS) {
            char why[512];
            clprim_context_last_error(g[0].ctx, why, sizeof why);
            fprintf(stderr, "clprim_multi_scan: %s %s\n", clprim_status_string(st), why);
            return 0;
        }
        break;
    }
    case NO_EXCHANGE: /* the same work without the exchange: reduce + scan on every device at once */
        for (a = 0; a < m->k; ++a) {
            clprim_reduce(g[a].ctx, NULL, m->rd, g[a].in, 0, part, g[a].total, 0, 0, NULL, NULL);
            clprim_scan(g[a].ctx, NULL, m->sd, g[a].in, 0, g[a].out, 0, part, 0, NULL, NULL);
            clFlush(g[a].q);
        }
        finish_all(g, m->k);
        break;
    case PART_TOTAL: { /* the exchange's start: part 0 reduced and its total on the host */
        cl_uint total;
        clprim_reduce(g[0].ctx, NULL, m->rd, g[0].in, 0, part, g[0].total, 0, 0, NULL, NULL);
        clEnqueueReadBuffer(g[0].q, g[0].total, CL_TRUE, 0, sizeof total, &total, 0, NULL, NULL);
        break;
    }
    case BATCH_K: /* a batch of k independent scans of a part: on k devices at once */
        for (a = 0; a < m->k; ++a) {
            clprim_scan(g[a].ctx, NULL, m->sd, g[a].in, 0, g[a].out, 0, part, 0, NULL, NULL);
            clFlush(g[a].q);
        }
        finish_all(g, m->k);
        break;
    default: /* and one after another on device 0 */
        for (a = 0; a < m->k; ++a)
            clprim_scan(g[0].ctx, NULL, m->sd, g[0].in, 0, g[0].out, 0, part, 0, NULL, NULL);
        clFinish(g[0].q);
        break;
    }
    return 1;
}

/* Median host wall clock of step in ms, over reps after two warm-ups; NAN
 * when it failed. */
static double median_ms(const multi_run *m, int step, int reps)
{
    double t[MULTI_MAX_REPS];
    int r;
    for (r = -2; r < reps; ++r) {
        const double t0 = now_us();
        if (!run_step(m, step))
            return NAN;
        if (r >= 0)
            t[r] = (now_us() - t0) / 1e3;
    }
    return median(t, reps);
}

int main(int argc, char **argv)
{
    size_t n = (size_t)1 << 30, part, i;
    int reps = 21, want = MAX_DEV, shared = 0, k, r, a;
    const char *csv = NULL;
    cl_device_id dev[MAX_DEV];
    cl_context one = NULL;
    gpu g[MAX_DEV];
    cl_uint *x, *got;
    double one_ms, copy_ms, multi_ms, compute_ms, batch_one_ms, batch_k_ms, total_ms;
    const clprim_scan_desc sd = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    const clprim_reduce_desc rd = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_part parts[MAX_DEV];
    clprim_device_info info;
    uint64_t s = 0x243F6A8885A308D3ull, bad = 0;
    char dname[256] = "", version[128] = "";
    multi_run m;

    for (a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "--n") && a + 1 < argc)
            n = (size_t)strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "--devices") && a + 1 < argc)
            want = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc)
            reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--csv") && a + 1 < argc)
            csv = argv[++a];
        else if (!strcmp(argv[a], "--shared"))
            shared = 1;
        else {
            fprintf(stderr, "usage: clprim-bench-multi [--n N] [--devices K] [--reps R] "
                            "[--shared] [--csv FILE]\n");
            return 2;
        }
    }
    reps = reps < 1 ? 1 : reps > MULTI_MAX_REPS ? MULTI_MAX_REPS : reps;
    want = want < 1 ? 1 : want > MAX_DEV ? MAX_DEV : want;
    k = (int)bench_devices(dev, (cl_uint)want);
    if (!k)
        die("finding a device", 0);
    if (shared) {
        cl_int err;
        one = clCreateContext(NULL, (cl_uint)k, dev, NULL, NULL, &err);
        if (err != CL_SUCCESS)
            die("clCreateContext", err);
    }
    part = n / (size_t)k;
    n = part * (size_t)k;
    x = malloc(n * sizeof *x);
    got = malloc(n * sizeof *x);
    if (!x || !got)
        die("malloc", 0);
    for (i = 0; i < n; ++i) {
        s += 0x9E3779B97F4A7C15ull;
        x[i] = (cl_uint)((s ^ (s >> 29)) * 0xBF58476D1CE4E5B9ull >> 40);
    }
    for (r = 0; r < k; ++r) {
        cl_int err;
        cl_context c = one;
        clprim_status st;
        if (!shared) {
            c = clCreateContext(NULL, 1, &dev[r], NULL, NULL, &err);
            if (err != CL_SUCCESS)
                die("clCreateContext", err);
        }
        g[r].q = clCreateCommandQueue(c, dev[r], 0, &err);
        if (err != CL_SUCCESS)
            die("clCreateCommandQueue", err);
        st = clprim_context_wrap(c, dev[r], g[r].q, NULL, &g[r].ctx);
        if (st != CLPRIM_SUCCESS)
            die("clprim_context_wrap", st);
        if (!shared)
            clReleaseContext(c);
        /* device 0 holds the whole array for the one-device runs */
        g[r].in = buffer(&g[r], (r ? part : n) * sizeof *x, x + (size_t)r * part);
        g[r].out = buffer(&g[r], (r ? part : n) * sizeof *x, NULL);
        g[r].total = buffer(&g[r], 64, NULL);
        memset(&parts[r], 0, sizeof parts[r]);
        parts[r].ctx = g[r].ctx;
        parts[r].in = g[r].in;
        parts[r].out = g[r].out;
        parts[r].n = part;
    }
    clprim_context_device_info(g[0].ctx, &info);
    clGetDeviceInfo(dev[0], CL_DEVICE_NAME, sizeof dname, dname, NULL);
    clGetDeviceInfo(dev[0], CL_DRIVER_VERSION, sizeof version, version, NULL);

    m = (multi_run){.g = g, .k = k, .n = n, .part = part, .parts = parts, .sd = &sd, .rd = &rd};
    one_ms = median_ms(&m, ONE_SCAN, reps);
    copy_ms = median_ms(&m, ONE_COPY, reps);
    /* k devices: clprim_multi_scan, checked */
    if (isnan(multi_ms = median_ms(&m, MULTI_SCAN, reps)))
        return 1;
    for (r = 0; r < k; ++r)
        clEnqueueReadBuffer(g[r].q, g[r].out, CL_TRUE, 0, part * sizeof *x, got + (size_t)r * part,
                            0, NULL, NULL);
    {
        cl_uint run = 0;
        for (i = 0; i < n; ++i) {
            run += x[i];
            bad += got[i] != run;
        }
    }
    compute_ms = median_ms(&m, NO_EXCHANGE, reps);
    total_ms = median_ms(&m, PART_TOTAL, reps);
    batch_k_ms = median_ms(&m, BATCH_K, reps);
    batch_one_ms = median_ms(&m, BATCH_ONE, reps);

    printf("# %s, %s, %d device(s), %s contexts, n = %zu uint32, inclusive sum, medians of %d\n",
           dname, version, k, shared ? "one shared cl_context" : "separate", n, reps);
    printf("%-34s %10s %8s\n", "", "ms", "ratio");
    printf("%-34s %10.3f %8s\n", "copy of 4n bytes, one device", copy_ms, "");
    printf("%-34s %10.3f %8.3f  (of copy)\n", "scan, one device", one_ms, copy_ms / one_ms);
    printf("%-34s %10.3f %8.3f  (speed-up; bound %.2f)\n", "clprim_multi_scan", multi_ms,
           one_ms / multi_ms, k > 1 ? 2.0 * k / 3.0 : 1.0);
    printf("%-34s %10.3f %8.3f  (exchange's share of the call)\n", "  reduce + scan, no exchange",
           compute_ms, 1.0 - compute_ms / multi_ms);
    printf("%-34s %10.3f\n", "  part 0 reduced, total on host", total_ms);
    printf("%-34s %10.3f %8.3f  (speed-up)\n", "batch of k scans, k devices", batch_k_ms,
           batch_one_ms / batch_k_ms);
    printf("%-34s %10.3f\n", "batch of k scans, one device", batch_one_ms);
    printf("%s: %llu wrong elements\n", bad ? "FAIL" : "checked", (unsigned long long)bad);
    if (csv) {
        FILE *f = fopen(csv, "w");
        if (f) {
            fprintf(f, "device,driver,devices,shared,n,copy_ms,one_ms,multi_ms,compute_ms,"
                       "batch_k_ms,batch_one_ms,total_ms,wrong\n");
            fprintf(f, "\"%s\",\"%s\",%d,%d,%zu,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%llu\n",
                    dname, version, k, shared, n, copy_ms, one_ms, multi_ms, compute_ms,
                    batch_k_ms, batch_one_ms, total_ms, (unsigned long long)bad);
            fclose(f);
        }
    }
    for (r = 0; r < k; ++r) {
        clReleaseMemObject(g[r].in);
        clReleaseMemObject(g[r].out);
        clReleaseMemObject(g[r].total);
        clReleaseCommandQueue(g[r].q);
        clprim_context_release(g[r].ctx);
    }
    if (one)
        clReleaseContext(one);
    free(x);
    free(got);
    (void)info;
    return bad != 0;
}

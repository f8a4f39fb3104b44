/* SPDX-License-Identifier: MIT */
/* clprim-bench --first-call: what the first scan costs in a fresh process,
 * with the on-disk program cache cold and warm.
 *
 * Each measurement is a new process (this program again, with
 * --first-call-child), so nothing is cached in memory: it creates a context
 * (timed on its own: that is the driver starting up), fills a buffer of n
 * int32 (not timed), then times clprim_scan (AUTO, inclusive sum) plus
 * clFinish on the host clock: the first call, which includes building or
 * loading the kernels, and a second call for comparison. Results are checked.
 *
 * Scenarios, each run `reps` times (median reported):
 *   cold        an empty clprim cache folder, and the drivers' own caches off
 *               (CUDA_CACHE_DISABLE=1 for NVIDIA's, POCL_KERNEL_CACHE=0 for
 *               PoCL's): every kernel is compiled from source;
 *   warm        the folder filled by the cold runs, drivers' caches still off:
 *               what clprim's cache alone saves;
 *   warm+driver the same folder with the drivers' caches as the user has them. */
#define _POSIX_C_SOURCE 200809L
#include <clprim.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIRST_CALL_N ((size_t)1 << 20)

static double now_ms(void)
{
    return now_us() / 1e3;
}

static double trace_t0;

/* CLPRIM_FIRST_CALL_TRACE=1: the library's log lines, timed, on stderr */
static void trace(void *user, int level, const char *msg)
{
    (void)user;
    (void)level;
    fprintf(stderr, "%9.3f ms  %s\n", now_ms() - trace_t0, msg);
}

/* One fresh-process measurement: prints "ctx first second" in ms. */
int clprim_bench_first_call_child(const char *dir)
{
    clprim_context_options o;
    clprim_context *ctx = NULL;
    clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    const size_t n = FIRST_CALL_N;
    cl_int *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), run = 0, err;
    cl_mem in = NULL, out = NULL;
    double t0, t_ctx, t_first, t_second;
    size_t i, bad = 0;
    int rc = 1;

    memset(&o, 0, sizeof o);
    o.cache_dir = dir;
    if (getenv("CLPRIM_FIRST_CALL_TRACE"))
        o.log = trace;
    if (!x || !y)
        goto cleanup;
    for (i = 0; i < n; ++i)
        x[i] = (cl_int)(i * 2654435761u % 1000u) - 500;
    t0 = now_ms();
    if (clprim_context_create(&o, &ctx) != CLPRIM_SUCCESS)
        goto cleanup;
    t_ctx = now_ms() - t0;
    in = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        n * sizeof *x, x, &err);
    if (err == CL_SUCCESS)
        out = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE, n * sizeof *x,
                             NULL, &err);
    if (err != CL_SUCCESS || clFinish(clprim_context_queue(ctx)) != CL_SUCCESS)
        goto cleanup;
    t0 = trace_t0 = now_ms();
    err = clprim_scan(ctx, NULL, &d, in, 0, out, 0, n, 0, NULL, NULL);
    if (o.log)
        trace(NULL, 0, "clprim_scan returned");
    if (err != CLPRIM_SUCCESS || clFinish(clprim_context_queue(ctx)) != CL_SUCCESS)
        goto cleanup;
    t_first = now_ms() - t0;
    t0 = now_ms();
    err = clprim_scan(ctx, NULL, &d, in, 0, out, 0, n, 0, NULL, NULL);
    if (err != CLPRIM_SUCCESS || clFinish(clprim_context_queue(ctx)) != CL_SUCCESS)
        goto cleanup;
    t_second = now_ms() - t0;
    if (clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, n * sizeof *y, y, 0,
                            NULL, NULL) != CL_SUCCESS)
        goto cleanup;
    for (i = 0; i < n; ++i) {
        run = (cl_int)((cl_uint)run + (cl_uint)x[i]);
        bad += y[i] != run;
    }
    if (bad == 0) {
        printf("%.3f %.3f %.3f\n", t_ctx, t_first, t_second);
        rc = 0;
    }
cleanup:
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    clprim_context_release(ctx);
    free(x);
    free(y);
    return rc;
}

/* Runs `self --first-call-child dir` and reads its three times. */
static int child(const char *self, const char *dir, double t[3])
{
    char cmd[8192], line[256];
    FILE *p;
    int ok;
    snprintf(cmd, sizeof cmd, "'%s' --first-call-child '%s'", self, dir);
    p = popen(cmd, "r");
    if (!p)
        return -1;
    ok = fgets(line, sizeof line, p) && sscanf(line, "%lf %lf %lf", &t[0], &t[1], &t[2]) == 3;
    return pclose(p) == 0 && ok ? 0 : -1;
}

static void drivers_cache(int on)
{
    if (on) {
        unsetenv("CUDA_CACHE_DISABLE");
        unsetenv("POCL_KERNEL_CACHE");
    } else {
        setenv("CUDA_CACHE_DISABLE", "1", 1);
        setenv("POCL_KERNEL_CACHE", "0", 1);
    }
}

int clprim_bench_first_call(const char *self, const char *csv_path, int reps)
{
    static const char *const names[] = {"cold", "warm", "warm+driver"};
    char dir[4096], cold[4200], cmd[8400];
    const char *tmp = getenv("TMPDIR");
    double t[3][3][9]; /* scenario, measure, rep */
    FILE *csv = NULL;
    int s, r, k, rc = 0;

    if (reps < 1 || reps > 9)
        reps = 3;
    snprintf(dir, sizeof dir, "%s/clprim-first-call-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    for (s = 0; s < 3 && rc == 0; ++s) {
        drivers_cache(s == 2);
        for (r = 0; r < reps && rc == 0; ++r) {
            /* cold: a new empty folder each time; warm: the last cold one's */
            if (s == 0) {
                snprintf(cold, sizeof cold, "%s/%d", dir, r);
                snprintf(cmd, sizeof cmd, "mkdir -p '%s'", cold);
                if (system(cmd) != 0)
                    rc = 1;
            }
            {
                double one[3];
                if (rc == 0 && child(self, cold, one) != 0) {
                    fprintf(stderr, "first-call child failed (%s)\n", names[s]);
                    rc = 1;
                }
                for (k = 0; k < 3 && rc == 0; ++k)
                    t[s][k][r] = one[k];
            }
        }
    }
    drivers_cache(1);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (rc != 0)
        return rc;
    if (csv_path && !(csv = fopen(csv_path, "w")))
        perror(csv_path);
    printf("first scan call in a fresh process (int32 sum, n = %zu, AUTO), median of %d, ms:\n",
           FIRST_CALL_N, reps);
    printf("%-12s %12s %12s %12s\n", "cache", "context", "first call", "second call");
    if (csv)
        fprintf(csv, "cache,context_ms,first_call_ms,second_call_ms\n");
    for (s = 0; s < 3; ++s) {
        double m[3];
        for (k = 0; k < 3; ++k)
            m[k] = median(t[s][k], reps);
        printf("%-12s %12.2f %12.2f %12.3f\n", names[s], m[0], m[1], m[2]);
        if (csv)
            fprintf(csv, "%s,%.3f,%.3f,%.3f\n", names[s], m[0], m[1], m[2]);
    }
    if (csv)
        fclose(csv);
    return 0;
}

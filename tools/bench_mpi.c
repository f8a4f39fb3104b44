/* SPDX-License-Identifier: MIT */
/* clprim-bench-mpi: clprim_mpi_scan of an inclusive uint32 sum of n
 * elements split evenly over the ranks (mpirun -np P), each rank on the
 * GPU of its local rank (among the devices whose "platform / device" name
 * contains $CLPRIM_DEVICE: bench_timing.c's bench_devices). Time per call:
 * the slowest rank's host wall clock from a barrier, medians; the result
 * checked on every rank.
 *
 * Not a bench_run module (bench_driver.c): the driver times one queue's
 * device work (gated, beside copy ceilings) in one process, while this call
 * is collective and blocking, its exchange MPI's on the host, so what is
 * timed is every rank's wall clock from a barrier, and rank 0 prints for
 * all of them. The device search, the clock and the median are the shared
 * ones (bench_timing.c).
 *
 *   mpirun -np P clprim-bench-mpi [--n N] [--reps R] */
#define _POSIX_C_SOURCE 200809L
#include <clprim_mpi.h>

#include "bench.h" /* the device search, the clock and median (bench_timing.c) */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MPI_MAX_REPS 51
#define BENCH_MPI_MAX_DEV 64

static void die(const char *what, int err)
{
    fprintf(stderr, "clprim-bench-mpi: %s failed (%d)\n", what, err);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* One call from a barrier: the slowest rank's time in ms (on every rank). */
static double slowest_ms(clprim_context *ctx, const clprim_scan_desc *sd, cl_mem in, cl_mem out,
                         size_t part)
{
    double t0, mine, worst = 0;
    clprim_status st;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = now_us();
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, sd, in, 0, out, 0, part);
    mine = (now_us() - t0) / 1e3;
    if (st != CLPRIM_SUCCESS)
        die("clprim_mpi_scan", st);
    MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

int main(int argc, char **argv)
{
    size_t n = (size_t)1 << 30, part, i;
    int reps = 21, rank, size, r, a, local;
    double t[BENCH_MPI_MAX_REPS], mid;
    const clprim_scan_desc sd = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_context *ctx = NULL;
    cl_context c;
    cl_device_id devs[BENCH_MPI_MAX_DEV], dev;
    cl_uint ndev;
    cl_mem in, out;
    cl_uint *x, *got, run = 0;
    cl_int err;
    uint64_t s = 0x243F6A8885A308D3ull, bad = 0, all_bad = 0;
    char dname[256] = "";

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "--n") && a + 1 < argc)
            n = (size_t)strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc)
            reps = atoi(argv[++a]);
    }
    reps = reps < 1 ? 1 : reps > BENCH_MPI_MAX_REPS ? BENCH_MPI_MAX_REPS : reps;
    local = clprim_mpi_local_rank(MPI_COMM_WORLD);
    ndev = bench_devices(devs, BENCH_MPI_MAX_DEV);
    if (!ndev)
        die("finding a device", 0);
    dev = devs[(cl_uint)(local < 0 ? 0 : local) % ndev];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
    c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS || clprim_context_wrap(c, dev, NULL, NULL, &ctx) != CLPRIM_SUCCESS)
        die("making the context", err);
    part = n / (size_t)size;
    n = part * (size_t)size;
    x = malloc(part * sizeof *x + 1);
    got = malloc(part * sizeof *x + 1);
    if (!x || !got)
        die("malloc", 0);
    /* the whole array's generator, run up to this rank's part (and its
     * prefix for the check) */
    for (i = 0; i < n && i < (size_t)(rank + 1) * part; ++i) {
        cl_uint v;
        s += 0x9E3779B97F4A7C15ull;
        v = (cl_uint)((s ^ (s >> 29)) * 0xBF58476D1CE4E5B9ull >> 40);
        if (i >= (size_t)rank * part)
            x[i - (size_t)rank * part] = v;
        else
            run += v;
    }
    in = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, part * sizeof *x + 4, x, &err);
    out = clCreateBuffer(c, CL_MEM_READ_WRITE, part * sizeof *x + 4, NULL, &err);
    if (err != CL_SUCCESS)
        die("clCreateBuffer", err);
    for (r = -2; r < reps; ++r) { /* the first two warm up */
        const double ms = slowest_ms(ctx, &sd, in, out, part);
        if (r >= 0)
            t[r] = ms;
    }
    clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, part * sizeof *x, got, 0, NULL,
                        NULL);
    for (i = 0; i < part; ++i) {
        run += x[i];
        bad += got[i] != run;
    }
    MPI_Allreduce(&bad, &all_bad, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    mid = median(t, reps); /* sorts t: t[0] is the fastest */
    if (rank == 0) {
        printf("# clprim_mpi_scan, %s, %d rank(s), n = %zu uint32 (%zu per rank), medians of %d\n",
               dname, size, n, part, reps);
        printf("ranks %d: %.3f ms per call (min %.3f); %s (%llu wrong)\n", size, mid, t[0],
               all_bad ? "FAIL" : "checked", (unsigned long long)all_bad);
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clprim_context_release(ctx);
    clReleaseContext(c);
    free(x);
    free(got);
    MPI_Finalize();
    return all_bad != 0;
}

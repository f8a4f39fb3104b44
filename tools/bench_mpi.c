/* SPDX-License-Identifier: MIT */
/* clprim-bench-mpi: clprim_mpi_scan of an inclusive uint32 sum of n
 * elements split evenly over the ranks (mpirun -np P), each rank on the
 * GPU of its local rank (among the devices whose "platform / device" name
 * contains $CLPRIM_DEVICE). Time per call: the slowest rank's host wall
 * clock from a barrier, medians; the result checked on every rank.
 *
 *   mpirun -np P clprim-bench-mpi [--n N] [--reps R] */
#define _POSIX_C_SOURCE 200809L
#include <clprim_mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPS 51

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void die(const char *what, int err)
{
    fprintf(stderr, "clprim-bench-mpi: %s failed (%d)\n", what, err);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The local_rank-th matching device (GPUs first). */
static cl_device_id pick_device(int local)
{
    const char *filter = getenv("CLPRIM_DEVICE");
    cl_platform_id plats[8];
    cl_uint np = 0, p;
    clGetPlatformIDs(8, plats, &np);
    for (p = 0; p < np; ++p) {
        cl_device_id all[16];
        cl_uint nd = 0, i;
        int seen = 0;
        char pname[256] = "";
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 16, all, &nd) != CL_SUCCESS &&
            clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, all, &nd) != CL_SUCCESS)
            continue;
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        for (i = 0; i < nd; ++i) {
            char dname[256] = "", both[600];
            clGetDeviceInfo(all[i], CL_DEVICE_NAME, sizeof dname, dname, NULL);
            snprintf(both, sizeof both, "%s / %s", pname, dname);
            if (filter && !strstr(both, filter))
                continue;
            if (seen++ == local % (int)nd)
                return all[i];
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    size_t n = (size_t)1 << 30, part, i;
    int reps = 21, rank, size, r, a, local;
    double t[MAX_REPS], worst;
    const clprim_scan_desc sd = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL};
    clprim_context *ctx = NULL;
    cl_context c;
    cl_device_id dev;
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
    reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
    local = clprim_mpi_local_rank(MPI_COMM_WORLD);
    dev = pick_device(local < 0 ? 0 : local);
    if (!dev)
        die("finding a device", 0);
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
    for (r = -2; r < reps; ++r) {
        double t0, mine;
        clprim_status st;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &sd, in, 0, out, 0, part);
        mine = (MPI_Wtime() - t0) * 1e3;
        if (st != CLPRIM_SUCCESS)
            die("clprim_mpi_scan", st);
        MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (r >= 0)
            t[r] = worst;
    }
    clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, part * sizeof *x, got, 0, NULL,
                        NULL);
    for (i = 0; i < part; ++i) {
        run += x[i];
        bad += got[i] != run;
    }
    MPI_Allreduce(&bad, &all_bad, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    if (rank == 0) {
        printf("# clprim_mpi_scan, %s, %d rank(s), n = %zu uint32 (%zu per rank), medians of %d\n",
               dname, size, n, part, reps);
        printf("ranks %d: %.3f ms per call (min %.3f); %s (%llu wrong)\n", size, t[reps / 2], t[0],
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

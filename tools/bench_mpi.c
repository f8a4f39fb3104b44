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
 * --sort: clprim_mpi_sort of the same uint32 keys (not in place) instead,
 * and beside it, each timed alike: the local clprim_sort of a part, the
 * staging a key takes (a read of the part to the host and a write back,
 * from malloc's memory and from pinned memory: the staged bound), and
 * MPI_Alltoallv of the part in even shares; then the staging through an
 * MPI shared-memory window, plain, wrapped in a CL_MEM_USE_HOST_PTR buffer
 * (copies and a map), and plain again once wrapped, and a memcpy of half a
 * part from the next rank's part of the window; checked: every part in
 * order, each rank's first key not before the previous rank's last, and
 * the keys a permutation of the input (sum and xor of a hash).
 *
 *   mpirun -np P clprim-bench-mpi [--n N] [--reps R] [--sort] */
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

/* A barrier, then the time now (us): where a timed step starts. */
static double start(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    return now_us();
}

/* The slowest rank's time in ms since its start() (on every rank). */
static double slowest_since(double t0)
{
    double mine = (now_us() - t0) / 1e3, worst = 0;
    MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

/* One call from a barrier: the slowest rank's time in ms (on every rank). */
static double slowest_ms(clprim_context *ctx, const clprim_scan_desc *sd, cl_mem in, cl_mem out,
                         size_t part)
{
    const double t0 = start();
    const clprim_status st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, sd, in, 0, out, 0, part);
    if (st != CLPRIM_SUCCESS)
        die("clprim_mpi_scan", st);
    return slowest_since(t0);
}

/* What one timed step of --sort does. */
enum {
    STEP_MPI_SORT,
    STEP_LOCAL_SORT,
    STEP_STAGING,
    STEP_PINNED,
    STEP_ALLTOALLV,
    STEP_SHARED,
    STEP_SHARED_WRAPPED,
    STEP_SHARED_AFTER,
    STEP_SHARED_COPY,
    STEPS
};
static const char *const step_names[STEPS] = {
    "clprim_mpi_sort", "local clprim_sort", "staging (read + write)", "staging, pinned",
    "MPI_Alltoallv", "staging, shared window", "staging, window wrapped",
    "staging, window (wrapped)", "window memcpy, half"};

typedef struct sort_bench {
    clprim_context *ctx;
    cl_mem in, out;
    cl_uint *host, *host2, *pinned; /* pinned: mapped from a CL_MEM_ALLOC_HOST_PTR buffer */
    size_t part;
    int *counts; /* 4 * size: even shares for MPI_Alltoallv */
    /* an MPI shared-memory window of the host's ranks (part keys each),
     * and this rank's segment as a CL_MEM_USE_HOST_PTR buffer: whether a
     * transport without MPI's copies could stage at the pinned rate */
    cl_uint *shared, *peer;
    cl_mem wrapped;
} sort_bench;

static double slowest_step(sort_bench *b, int step)
{
    const clprim_sort_desc d = {CLPRIM_TYPE_UINT32, 0, 0, 0, 0, CLPRIM_SORT_AUTO, NULL, 0};
    const cl_command_queue q = clprim_context_queue(b->ctx);
    const size_t bytes = b->part * sizeof(cl_uint);
    const double t0 = start();
    int st = 0;
    if (step == STEP_MPI_SORT) {
        st = clprim_mpi_sort(MPI_COMM_WORLD, b->ctx, &d, b->in, 0, b->out, 0, NULL, 0, NULL, 0,
                             b->part);
    } else if (step == STEP_LOCAL_SORT) {
        st = clprim_sort(b->ctx, NULL, &d, b->in, 0, b->out, 0, NULL, 0, NULL, 0, b->part, 0, NULL,
                         NULL);
        if (!st)
            st = clFinish(q);
    } else if (step == STEP_STAGING || step == STEP_PINNED) {
        cl_uint *h = step == STEP_PINNED ? b->pinned : b->host;
        st = clEnqueueReadBuffer(q, b->in, CL_TRUE, 0, bytes, h, 0, NULL, NULL);
        if (!st)
            st = clEnqueueWriteBuffer(q, b->out, CL_TRUE, 0, bytes, h, 0, NULL, NULL);
    } else if (step == STEP_SHARED || step == STEP_SHARED_AFTER) {
        st = clEnqueueReadBuffer(q, b->in, CL_TRUE, 0, bytes, b->shared, 0, NULL, NULL);
        if (!st)
            st = clEnqueueWriteBuffer(q, b->out, CL_TRUE, 0, bytes, b->shared, 0, NULL, NULL);
    } else if (step == STEP_SHARED_WRAPPED) {
        void *h = NULL;
        if (!b->wrapped)
            b->wrapped = clCreateBuffer(clprim_context_cl_context(b->ctx),
                                        CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, b->shared,
                                        &st);
        if (!st)
            st = clEnqueueCopyBuffer(q, b->in, b->wrapped, 0, 0, bytes, 0, NULL, NULL);
        if (!st) /* (the bytes in the host's memory) */
            h = clEnqueueMapBuffer(q, b->wrapped, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL,
                                   &st);
        if (!st)
            st = clEnqueueUnmapMemObject(q, b->wrapped, h, 0, NULL, NULL);
        if (!st)
            st = clEnqueueCopyBuffer(q, b->wrapped, b->out, 0, 0, bytes, 0, NULL, NULL);
        if (!st)
            st = clFinish(q);
    } else if (step == STEP_SHARED_COPY) {
        memcpy(b->host2, b->peer, bytes / 2);
    } else {
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        st = MPI_Alltoallv(b->host, b->counts, b->counts + size, MPI_UNSIGNED, b->host2,
                           b->counts + 2 * size, b->counts + 3 * size, MPI_UNSIGNED,
                           MPI_COMM_WORLD);
    }
    if (st != 0)
        die(step_names[step], st);
    return slowest_since(t0);
}

/* --sort: every step timed (medians of reps), the sort's output checked. */
static uint64_t bench_sort(clprim_context *ctx, cl_mem in, cl_mem out, cl_uint *x, cl_uint *got,
                           size_t part, int reps, const char *dname)
{
    sort_bench b = {ctx, in, out, x, got, NULL, part, NULL, NULL, NULL, NULL};
    cl_mem pin;
    cl_int err;
    MPI_Comm node;
    MPI_Win win;
    MPI_Aint seg;
    int unit, nrank, nsize;
    double t[STEPS][BENCH_MPI_MAX_REPS], mid[STEPS];
    uint64_t bad = 0, all_bad = 0, h[2] = {0, 0}, hall[2], g[2] = {0, 0}, gall[2];
    cl_uint last = 0, before = 0;
    int rank, size, r, k;
    size_t i;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    b.counts = malloc(4 * (size_t)size * sizeof *b.counts);
    if (!b.counts)
        die("malloc", 0);
    pin = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                         part * sizeof *x + 4, NULL, &err);
    if (err == CL_SUCCESS)
        b.pinned = clEnqueueMapBuffer(clprim_context_queue(ctx), pin, CL_TRUE,
                                      CL_MAP_READ | CL_MAP_WRITE, 0, part * sizeof *x + 4, 0, NULL,
                                      NULL, &err);
    if (err != CL_SUCCESS)
        die("pinned host memory", err);
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ||
        MPI_Win_allocate_shared((MPI_Aint)(part * sizeof *x + 4), 4, MPI_INFO_NULL, node,
                                &b.shared, &win))
        die("MPI_Win_allocate_shared", 0);
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    if (MPI_Win_shared_query(win, (nrank + 1) % nsize, &seg, &unit, &b.peer))
        die("MPI_Win_shared_query", 0);
    for (k = 0; k < size; ++k) { /* even shares, the rest to the last rank */
        const size_t share = part / (size_t)size, rest = part - share * (size_t)(size - 1);
        b.counts[k] = (int)(k + 1 < size ? share : rest);
        b.counts[2 * size + k] = (int)(rank + 1 < size ? share : rest);
        b.counts[size + k] = (int)(share * (size_t)k);
        b.counts[3 * size + k] = (int)((rank + 1 < size ? share : rest) * (size_t)k);
    }
    for (i = 0; i < part; ++i) {
        const uint64_t v = x[i] * 0x9E3779B97F4A7C15ull;
        h[0] += v;
        h[1] ^= v;
    }
    for (k = 0; k < STEPS; ++k)
        for (r = -2; r < reps; ++r) {
            const double ms = slowest_step(&b, k);
            if (r >= 0)
                t[k][r] = ms;
        }
    /* the later steps overwrote the output: the sort once more, read back */
    slowest_step(&b, STEP_MPI_SORT);
    clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, part * sizeof *got, got, 0,
                        NULL, NULL);
    for (i = 0; i < part; ++i) {
        const uint64_t v = got[i] * 0x9E3779B97F4A7C15ull;
        g[0] += v;
        g[1] ^= v;
        bad += i > 0 && got[i] < got[i - 1];
    }
    if (part)
        last = got[part - 1];
    MPI_Sendrecv(&last, 1, MPI_UNSIGNED, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, 0, &before, 1,
                 MPI_UNSIGNED, rank > 0 ? rank - 1 : MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    bad += rank > 0 && part && got[0] < before;
    MPI_Allreduce(&h[0], &hall[0], 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&g[0], &gall[0], 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&h[1], &hall[1], 1, MPI_UINT64_T, MPI_BXOR, MPI_COMM_WORLD);
    MPI_Allreduce(&g[1], &gall[1], 1, MPI_UINT64_T, MPI_BXOR, MPI_COMM_WORLD);
    bad += rank == 0 && (hall[0] != gall[0] || hall[1] != gall[1]);
    MPI_Allreduce(&bad, &all_bad, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    for (k = 0; k < STEPS; ++k)
        mid[k] = median(t[k], reps);
    if (rank == 0) {
        printf("# clprim_mpi_sort, %s, %d rank(s), %zu uint32 keys per rank, medians of %d\n",
               dname, size, part, reps);
        for (k = 0; k < STEPS; ++k)
            printf("%-24s %10.3f ms\n", step_names[k], mid[k]);
        printf("keys/s: %.3g (%s, %llu wrong)\n", (double)part * size / (mid[0] / 1e3),
               all_bad ? "FAIL" : "checked", (unsigned long long)all_bad);
        printf("against the staged bound (every key down and up, pinned): %.3f\n",
               mid[STEP_PINNED] / mid[0]);
    }
    if (b.wrapped)
        clReleaseMemObject(b.wrapped);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    clEnqueueUnmapMemObject(clprim_context_queue(ctx), pin, b.pinned, 0, NULL, NULL);
    clFinish(clprim_context_queue(ctx));
    clReleaseMemObject(pin);
    free(b.counts);
    return all_bad;
}

int main(int argc, char **argv)
{
    size_t n = (size_t)1 << 30, part, i;
    int reps = 21, rank, size, r, a, local, sort = 0;
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
        else if (!strcmp(argv[a], "--sort"))
            sort = 1;
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
    if (sort) {
        all_bad = bench_sort(ctx, in, out, x, got, part, reps, dname);
        reps = 0; /* (nothing of the scan's below) */
    }
    for (r = -2; r < reps; ++r) { /* the first two warm up */
        const double ms = slowest_ms(ctx, &sd, in, out, part);
        if (r >= 0)
            t[r] = ms;
    }
    if (sort)
        goto done;
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
done:
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clprim_context_release(ctx);
    clReleaseContext(c);
    free(x);
    free(got);
    MPI_Finalize();
    return all_bad != 0;
}

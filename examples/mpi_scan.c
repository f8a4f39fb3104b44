/* mpirun -np P ./mpi_scan: every rank holds 1000 * (rank + 1) copies of
 * rank + 1 on its device; clprim_mpi_scan makes the exclusive sum of the
 * whole array, so each rank's first element is the sum of the ranks before
 * it, and clprim_mpi_reduce gives every rank the total. */
#include <clprim_mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const clprim_scan_desc exscan = {CLPRIM_TYPE_INT64, CLPRIM_OP_SUM, 1, CLPRIM_SCAN_AUTO, NULL,
                                     NULL, CLPRIM_REPRO_NONE};
    const clprim_reduce_desc sum = {CLPRIM_TYPE_INT64, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL,
                                    NULL, CLPRIM_REPRO_NONE};
    clprim_context *ctx = NULL;
    cl_long first = -1, total = -1, want = 0, all = 0, *part;
    cl_mem buf = NULL;
    int rank, size, r;
    size_t n, i;
    clprim_status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    n = 1000 * (size_t)(rank + 1);
    part = malloc(n * sizeof *part);
    for (i = 0; part && i < n; ++i)
        part[i] = rank + 1;
    /* one device per rank: here the default one; with several GPUs per
     * host, pick the clprim_mpi_local_rank(MPI_COMM_WORLD)-th */
    st = part ? clprim_context_create(NULL, &ctx) : CLPRIM_OUT_OF_HOST_MEMORY;
    if (st == CLPRIM_SUCCESS) {
        cl_int err;
        buf = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             n * sizeof *part, part, &err);
        st = err;
    }
    /* collective: every rank calls, even one that failed above */
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &exscan, buf, 0, buf, 0, n);
    if (st == CLPRIM_SUCCESS)
        st = clEnqueueReadBuffer(clprim_context_queue(ctx), buf, CL_TRUE, 0, sizeof first, &first,
                                 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS) {
        clReleaseMemObject(buf); /* reduce the original values again */
        buf = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             n * sizeof *part, part, NULL);
    }
    st = clprim_mpi_reduce(MPI_COMM_WORLD, ctx, &sum, buf, 0, n, &total);
    for (r = 0; r < size; ++r) { /* rank r holds 1000 (r + 1) elements of r + 1 */
        const cl_long s = 1000 * (cl_long)(r + 1) * (r + 1);
        if (r < rank)
            want += s;
        all += s;
    }
    printf("rank %d: starts at %lld (expected %lld), total %lld (expected %lld)\n", rank,
           (long long)first, (long long)want, (long long)total, (long long)all);
    if (buf)
        clReleaseMemObject(buf);
    clprim_context_release(ctx);
    free(part);
    MPI_Finalize();
    return st != CLPRIM_SUCCESS || first != want || total != all;
}

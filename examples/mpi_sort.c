/* mpirun -np P ./mpi_sort: every rank holds 100000 random uint32 keys on
 * its device, each with its global position as its value; clprim_mpi_sort
 * sorts the whole array across the ranks, each keeping as many as it gave.
 * Each rank then checks that its part is in order, that its first key is
 * not before the previous rank's last (sent along with MPI_Sendrecv), and
 * that equal keys kept their global order (the values). */
#include <clprim_mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const clprim_sort_desc desc = {CLPRIM_TYPE_UINT32, sizeof(cl_uint), 0, 0, 0,
                                   CLPRIM_SORT_AUTO, NULL, 0};
    const size_t n = 100000;
    clprim_context *ctx = NULL;
    cl_uint *keys = malloc(n * sizeof *keys), *pos = malloc(n * sizeof *pos), before = 0, last = 0;
    cl_mem k = NULL, v = NULL;
    int rank, size, ok = 1;
    unsigned long long x;
    size_t i;
    clprim_status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    x = 88172645463325252ull + (unsigned long long)rank; /* xorshift: few equal keys */
    for (i = 0; keys && pos && i < n; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        keys[i] = (cl_uint)(x >> 40); /* 24 bits: some keys repeat */
        pos[i] = (cl_uint)((size_t)rank * n + i);
    }
    st = keys && pos ? clprim_context_create(NULL, &ctx) : CLPRIM_OUT_OF_HOST_MEMORY;
    if (st == CLPRIM_SUCCESS) {
        cl_int err, err2;
        k = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           n * sizeof *keys, keys, &err);
        v = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           n * sizeof *pos, pos, &err2);
        st = err != CL_SUCCESS ? err : err2;
    }
    /* collective: every rank calls, even one that failed above; in place */
    st = clprim_mpi_sort(MPI_COMM_WORLD, ctx, &desc, k, 0, k, 0, v, 0, v, 0, n);
    if (st == CLPRIM_SUCCESS)
        st = clEnqueueReadBuffer(clprim_context_queue(ctx), k, CL_TRUE, 0, n * sizeof *keys, keys,
                                 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS)
        st = clEnqueueReadBuffer(clprim_context_queue(ctx), v, CL_TRUE, 0, n * sizeof *pos, pos, 0,
                                 NULL, NULL);
    /* the previous rank's last key (rank 0: none) */
    if (st == CLPRIM_SUCCESS)
        last = keys[n - 1];
    MPI_Sendrecv(&last, 1, MPI_UNSIGNED, rank + 1 < size ? rank + 1 : MPI_PROC_NULL, 0,
                 &before, 1, MPI_UNSIGNED, rank > 0 ? rank - 1 : MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (i = 0; st == CLPRIM_SUCCESS && i < n; ++i)
        if ((i > 0 && (keys[i] < keys[i - 1] || (keys[i] == keys[i - 1] && pos[i] < pos[i - 1]))) ||
            (i == 0 && rank > 0 && keys[0] < before))
            ok = 0;
    printf("rank %d: keys %u .. %u, %s\n", rank, st == CLPRIM_SUCCESS ? keys[0] : 0,
           st == CLPRIM_SUCCESS ? keys[n - 1] : 0,
           st != CLPRIM_SUCCESS ? clprim_status_string(st) : ok ? "in order" : "OUT OF ORDER");
    if (k)
        clReleaseMemObject(k);
    if (v)
        clReleaseMemObject(v);
    clprim_context_release(ctx);
    free(keys);
    free(pos);
    MPI_Finalize();
    return st != CLPRIM_SUCCESS || !ok;
}

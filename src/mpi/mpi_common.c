/* SPDX-License-Identifier: MIT */
/* clprim_mpi's shared steps: failures into the rank's context, finishing
 * its queue, and the agreement round every call makes before its device
 * results are exchanged (mpi_internal.h). */
#include "mpi_internal.h"

#include <stdarg.h>
#include <stdio.h>

clprim_status clprim_mpi__fail(clprim_context *ctx, clprim_status st, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return clprim_context_set_error(ctx, st, msg);
}

clprim_status clprim_mpi__mpi_fail(clprim_context *ctx, int err, const char *what)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(err, text, &len);
    return clprim_mpi__fail(ctx, CLPRIM_INTERNAL, "%s failed: %s", what, text);
}

void clprim_mpi__device_failed(clprim_context *ctx, clprim_status *st, cl_int err,
                               const char *what)
{
    if (err != CL_SUCCESS && *st == CLPRIM_SUCCESS)
        *st = clprim_mpi__fail(ctx, err, "%s failed: %s", what, clprim_status_string(err));
}

clprim_status clprim_mpi__finish(clprim_context *ctx, clprim_status st)
{
    if (st == CLPRIM_SUCCESS) {
        const cl_int err = clFinish(clprim_context_queue(ctx));
        if (err != CL_SUCCESS)
            st = clprim_mpi__fail(ctx, err, "clFinish failed: %s", clprim_status_string(err));
    }
    return st;
}

clprim_status clprim_mpi__agree(MPI_Comm comm, clprim_context *ctx, int rank, clprim_status local,
                                long long signature, const char *fields)
{
    long long mine[3] = {signature, -signature, local != CLPRIM_SUCCESS ? rank + 1 : 0}, all[3];
    const int e = MPI_Allreduce(mine, all, 3, MPI_LONG_LONG, MPI_MAX, comm);
    if (local != CLPRIM_SUCCESS)
        return local;
    if (e != MPI_SUCCESS)
        return clprim_mpi__mpi_fail(ctx, e, "MPI_Allreduce (the ranks' agreement)");
    if (all[2])
        return clprim_mpi__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "rank %lld failed (its context says why)", all[2] - 1);
    if (all[0] != -all[1])
        return clprim_mpi__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "the ranks disagree on the descriptor (%s)", fields);
    return CLPRIM_SUCCESS;
}

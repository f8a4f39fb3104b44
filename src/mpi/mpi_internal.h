/* SPDX-License-Identifier: MIT */
/* clprim_mpi's shared steps (mpi_common.c), for clprim_mpi.c (scan, reduce,
 * select) and mpi_sort.c. Internal: names clprim_mpi__. */
#ifndef CLPRIM_MPI_INTERNAL_H
#define CLPRIM_MPI_INTERNAL_H

#include "clprim_mpi.h"

/* A rank's failure, formatted into its context's last error. */
clprim_status clprim_mpi__fail(clprim_context *ctx, clprim_status st, const char *fmt, ...);

/* An MPI failure: CLPRIM_INTERNAL with MPI's message and what failed. */
clprim_status clprim_mpi__mpi_fail(clprim_context *ctx, int err, const char *what);

/* Finishes the rank's queue; st if it failed before. */
clprim_status clprim_mpi__finish(clprim_context *ctx, clprim_status st);

/* The agreement round, which every rank joins whatever its own state:
 * every rank's descriptor signature and status. A mismatch (CLPRIM_
 * INVALID_ARGUMENT naming `fields`, what the signature covers) or another
 * rank's failure ("rank R failed") ends the call everywhere; a failed
 * rank returns its own status. */
clprim_status clprim_mpi__agree(MPI_Comm comm, clprim_context *ctx, int rank, clprim_status local,
                                long long signature, const char *fields);

#endif /* CLPRIM_MPI_INTERNAL_H */

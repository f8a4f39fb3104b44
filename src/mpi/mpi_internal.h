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

/* A device failure met where the ranks must go on together: the first one
 * recorded in *st (and the context's message), the rest dropped; they
 * learn of it in an agreement round. */
void clprim_mpi__device_failed(clprim_context *ctx, clprim_status *st, cl_int err,
                               const char *what);

/* Finishes the rank's queue; st if it failed before. */
clprim_status clprim_mpi__finish(clprim_context *ctx, clprim_status st);

/* The agreement round, which every rank joins whatever its own state:
 * every rank's descriptor signature and status. A mismatch (CLPRIM_
 * INVALID_ARGUMENT naming `fields`, what the signature covers) or another
 * rank's failure ("rank R failed") ends the call everywhere; a failed
 * rank returns its own status. */
clprim_status clprim_mpi__agree(MPI_Comm comm, clprim_context *ctx, int rank, clprim_status local,
                                long long signature, const char *fields);

/* Pieces of elements moved between the ranks' devices (mpi_exchange.c,
 * for mpi_sort.c). A piece: `count` elements from element `at` of the
 * sources (out) or of the destinations (in), piece `nth` of its pair of
 * ranks; each pair's pieces listed in order. */
typedef struct clprim_mpi__piece {
    int peer;
    size_t nth, at, count;
} clprim_mpi__piece;

/* The transport's own (mpi_exchange.c). */
struct clprim_mpi__moves_state {
    cl_command_queue wq;       /* the writes' */
    MPI_Comm dup, node;        /* the messages'; the host's ranks */
    cl_mem pinned;             /* messages: the slots, mapped at `slots` */
    unsigned char *slots;
    MPI_Win win;               /* shared: the window, every rank's part */
    int locked;
    unsigned char **base;
    cl_mem *wrapped;           /* ... as USE_HOST_PTR buffers */
    size_t part, ctrl, slot;   /* a part's bytes; its words' bytes; a slot's */
    cl_event *out_ev, *in_ev;  /* per piece */
};

typedef struct clprim_mpi__moves {
    MPI_Comm comm;
    clprim_context *ctx;
    int rank, size;
    size_t ks, vs, elems;      /* key and value bytes; elements a piece holds at most */
    cl_mem from_keys, from_values;                   /* out: at elements of these */
    cl_mem to_keys, to_values;                       /* in: at elements from ... */
    size_t to_keys_off, to_values_off;               /* ... these offsets */
    clprim_mpi__piece *out, *in; /* (the caller's) */
    size_t outs, ins;
    int shared;                /* the transport (prepare chooses) */
    clprim_status st;          /* a device failure met while moving */
    struct clprim_mpi__moves_state s;
} clprim_mpi__moves;

/* Chooses the transport and takes what it needs; collective (every rank,
 * whatever its st, which it returns if failed). Then, after an agreement
 * round: run (collective), which moves every piece, a device failure in
 * m->st; release (collective where prepare was called) in every case. */
clprim_status clprim_mpi__moves_prepare(clprim_mpi__moves *m, clprim_status st);
clprim_status clprim_mpi__moves_run(clprim_mpi__moves *m);
void clprim_mpi__moves_release(clprim_mpi__moves *m);

#endif /* CLPRIM_MPI_INTERNAL_H */

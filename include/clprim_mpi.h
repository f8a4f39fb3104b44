/* SPDX-License-Identifier: MIT */
/* clprim_mpi: clprim's scan, reduce, select and sort over an array spread across
 * the ranks of an MPI communicator, each rank holding its part on its own
 * OpenCL device. A separate library (libclprim_mpi, pkg-config clprim_mpi,
 * CMake clprim::clprim_mpi), built when CMake finds MPI.
 *
 * The array's order is the ranks' order: rank 0 holds its first elements.
 * Every call is collective: every rank of `comm` calls it, with the same
 * descriptor (type, operator, exclusive, repro; ranks that disagree all get
 * CLPRIM_INVALID_ARGUMENT), its own context and buffers, and its own n
 * (0 allowed). Calls block until this rank's part is done; the device work
 * runs on the context's queue.
 *
 * Index: `i` in a transform or a select expression is the element's index
 * in the whole array (counted from rank 0's first element), as on one
 * device: the ranks' sizes are exchanged first (MPI_Exscan) and each rank's
 * expression counts from its first element (clprim_expression_rebase; a
 * rank whose expression reads i builds it once per distinct first element).
 *
 * How: each rank reduces its part on its device; only these totals travel
 * through MPI. Built-in integer operators, and float and double sums and
 * products, use MPI's own (MPI_Exscan, MPI_Allreduce; integer sums and
 * products wrap, computed in the unsigned type as on the device).
 * User-defined operators (desc->custom) and float min / max are exchanged
 * as bytes (MPI_Allgather) and combined on each rank's device with the
 * operator's own kernels, so MPI never evaluates OpenCL C; such an operator
 * must be created on every rank from the same source. A scan then runs
 * from the combined prefix of the ranks before (clprim_scan_init).
 *
 * Reproducibility (desc->repro, clprim.h): RUN_TO_RUN gathers float and
 * double totals and folds them in rank order on the device (MPI's own
 * reductions fix no order). PORTABLE gives, bit for bit, one device's
 * PORTABLE scan or reduce of the whole array (the same on every device and
 * for any number of ranks) when every rank's part but the last non-empty
 * one holds a whole number of CLPRIM_PORTABLE_TILE (1024) elements: the
 * ranks' sizes are exchanged (MPI_Allgather), each rank's tile totals
 * (clprim_reduce_tiles) gathered in rank order (MPI_Allgatherv), folded or
 * scanned into the tiles' carries on every rank's device as one device
 * does, and each rank's tiles scanned from theirs (clprim_scan_tiles).
 * Another split is CLPRIM_UNSUPPORTED on every rank, the message naming
 * desc->repro and the first bad rank's n. Integers and min / max are exact
 * and take the ordinary path at every level.
 *
 * Failures: a rank's argument or device failure is that rank's status, with
 * its message in its context (clprim_context_last_error); the other ranks
 * return CLPRIM_INVALID_ARGUMENT with "rank R failed" in theirs, so no rank
 * waits forever in a collective. MPI errors: CLPRIM_INTERNAL with MPI's
 * message (the communicator's error handler must return, e.g.
 * MPI_ERRORS_RETURN; with the default MPI_ERRORS_ARE_FATAL MPI aborts).
 *
 * Device per rank: with several GPUs per host, give each rank its own, e.g.
 * the clprim_mpi_local_rank()-th GPU of the platform through
 * clprim_context_wrap, or CLPRIM_DEVICE set per rank by the launcher.
 * Thread safety: MPI's (the calls make MPI calls on the calling thread). */
#ifndef CLPRIM_MPI_H
#define CLPRIM_MPI_H

#include <clprim.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The scan of the whole array, this rank's share written to `out` from
 * out_off (n elements; in place allowed). desc as clprim_scan. */
CLPRIM_API clprim_status clprim_mpi_scan(MPI_Comm comm, clprim_context *ctx,
                                         const clprim_scan_desc *desc, cl_mem in, size_t in_off,
                                         cl_mem out, size_t out_off, size_t n);

/* The fold of the whole array, to *value on every rank (the element's
 * bytes). desc as clprim_reduce. */
CLPRIM_API clprim_status clprim_mpi_reduce(MPI_Comm comm, clprim_context *ctx,
                                           const clprim_reduce_desc *desc, cl_mem in,
                                           size_t in_off, size_t n, void *value);

/* Selects from this rank's part into `out` (desc as clprim_select, without
 * indices) and sets *count (kept here), *offset (kept on the ranks before:
 * where this rank's kept elements stand in the whole result) and *total
 * (kept on all ranks); each may be NULL. */
CLPRIM_API clprim_status clprim_mpi_select(MPI_Comm comm, clprim_context *ctx,
                                           const clprim_compact_desc *desc, cl_mem in,
                                           size_t in_off, cl_mem out, size_t out_off, size_t n,
                                           size_t *count, size_t *offset, size_t *total);

/* Sorts the whole array across the ranks: keys (from keys_off in keys),
 * and with desc->value_size > 0 their values, every rank's part of the
 * result as long as its own input (n, 0 allowed) and written to keys_out
 * from keys_out_off (values to values_out): rank r holds elements
 * G_r .. G_r + n - 1 of the whole array sorted, G_r the ranks before it's
 * n. Stable across ranks: equal keys (or equal in desc's bit range) in rank
 * order, then in their order on the rank. desc as clprim_sort (key type,
 * value size, direction, bit range, algorithm, scratch: the two local
 * sorts take them); in place allowed (keys_out == keys at keys_off, values
 * likewise). Every rank must give the same key type, value size, direction
 * and bit range (else CLPRIM_INVALID_ARGUMENT everywhere).
 *
 * How: each rank sorts its part (clprim_sort) into a temporary buffer;
 * the ranks bisect the keys' ordered form (clprim.h) for every boundary
 * between the ranks' outputs (at most 64 MPI_Allreduce rounds, each rank
 * counting its keys by binary searches of a strided sample of its sorted
 * keys and of the window between two samples, read from the device), take
 * the keys equal to a boundary's value in rank order, copy the keys (and
 * values) that stay on the device, move the others in pieces of up to 2 MiB
 * (no larger than the largest run one rank sends another), and
 * sort what each received on its device. The pieces are staged through
 * host memory (NVIDIA's OpenCL gives MPI no device pointers): where every
 * rank of comm is on one host, through an MPI shared-memory window
 * (MPI_Win_allocate_shared; read from the sender's device into the window
 * and written to the receiver's device from there, the window pinned by
 * wrapping it in CL_MEM_USE_HOST_PTR buffers), else (or where a rank
 * cannot get the window, e.g. from a small /dev/shm) through messages
 * (MPI_Isend / MPI_Irecv on a duplicate of comm, from and to pinned
 * slots); either way the device reads, the hand-overs and the device
 * writes of different pieces overlap. One rank alone just sorts. Exact
 * sizes whatever the keys: all equal, few distinct, sorted or reversed
 * inputs move no more than others. Memory per call: on the device a
 * temporary as large as the rank's keys and values, and clprim_sort's
 * temporaries; on the host 4 slots of a piece per pair of ranks (shared)
 * or 8 (messages), a sample of 4096 keys and a window of n / 4096 keys per
 * boundary; a second command queue for the writes. Environment (read by
 * rank 0, which every rank follows): CLPRIM_MPI_SHARED=0 takes messages
 * on one host too; CLPRIM_MPI_PIECE_BYTES sets a piece's bytes (tests).
 * Speed, two H100 of one host, 2^30 uint32 keys on two ranks: 97 ms, 0.83
 * of the time to stage every key down and up through pinned memory (one
 * GPU sorting all of them: 24 ms); through messages 0.30 s (Open MPI 4.1
 * there moves 2-4 GB/s between processes). docs/performance.md. */
CLPRIM_API clprim_status clprim_mpi_sort(MPI_Comm comm, clprim_context *ctx,
                                         const clprim_sort_desc *desc, cl_mem keys, size_t keys_off,
                                         cl_mem keys_out, size_t keys_out_off, cl_mem values,
                                         size_t values_off, cl_mem values_out,
                                         size_t values_out_off, size_t n);

/* This process's rank among the ranks of comm on its host (0, 1, ...), to
 * choose a device per rank; -1 when MPI fails. Collective. */
CLPRIM_API int clprim_mpi_local_rank(MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif /* CLPRIM_MPI_H */

/* SPDX-License-Identifier: MIT */
/* clprim_mpi (include/clprim_mpi.h): collectives over ranks that each hold
 * a part on their own device, on clprim's public calls alone. Each call:
 * the local part reduced on the device (its total read back), one
 * agreement round (descriptor signature and every rank's status), the
 * totals exchanged (MPI's own operator where it has the same arithmetic,
 * bytes otherwise), and the local work finished from the result. PORTABLE
 * (portable_totals) exchanges every tile's total instead, after the
 * agreement round, so that the ranks finish as one device would. */
#include "mpi_internal.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mpi_common.c's steps, by their short names here */
#define fail clprim_mpi__fail
#define mpi_fail clprim_mpi__mpi_fail
#define finish clprim_mpi__finish

/* MPI's datatype and operator with clprim's arithmetic for a built-in
 * (type, op), or 0 where the totals go through the device instead (custom
 * operators; float min / max, whose NaN rules are the device's). Integer
 * sums and products in the unsigned type: the same bits, and no signed
 * overflow. */
/* Whether MPI's own fold may serve: it fixes no order for float and double
 * sums and products, so a reproducible level (issue 33) folds the
 * gathered totals on the device in rank order instead. */
static int mpi_order_free(clprim_type type, clprim_repro repro)
{
    return repro == CLPRIM_REPRO_NONE || (type != CLPRIM_TYPE_FLOAT && type != CLPRIM_TYPE_DOUBLE);
}

static int mpi_builtin(clprim_type type, clprim_op op, MPI_Datatype *dt, MPI_Op *mop)
{
    static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
    const int wraps = op == CLPRIM_OP_SUM || op == CLPRIM_OP_PRODUCT;
    if ((unsigned)op >= 4u)
        return 0;
    *mop = ops[op];
    switch (type) {
    case CLPRIM_TYPE_INT32:
        *dt = wraps ? MPI_UINT32_T : MPI_INT32_T;
        return 1;
    case CLPRIM_TYPE_UINT32:
        *dt = MPI_UINT32_T;
        return 1;
    case CLPRIM_TYPE_INT64:
        *dt = wraps ? MPI_UINT64_T : MPI_INT64_T;
        return 1;
    case CLPRIM_TYPE_UINT64:
        *dt = MPI_UINT64_T;
        return 1;
    case CLPRIM_TYPE_FLOAT:
        *dt = MPI_FLOAT;
        return wraps;
    case CLPRIM_TYPE_DOUBLE:
        *dt = MPI_DOUBLE;
        return wraps;
    default:
        return 0;
    }
}

/* One rank's part of a call. */
typedef struct part {
    MPI_Comm comm;
    clprim_context *ctx;
    int rank, size;
    size_t elem;
    cl_mem work;            /* [0, size) the ranks' totals, [size] their fold */
    unsigned char *totals;  /* size elements: every rank's total (or MPI's result) */
    /* PORTABLE (portable_totals): every rank's n, and its tiles' count and
     * first tile (MPI_Allgatherv's counts and displacements); the whole
     * array's tile totals on the host and room for them on the device */
    unsigned long long *sizes;
    int *counts, *displs;
    size_t tiles, first_tile;
    unsigned char *tile_totals;
    cl_mem tile_mem;
    char *expr;             /* the rank's expression with i counted in the whole
                               array (rebase), NULL when the caller's serves */
    clprim_transform tf;    /* the transform with that expression */
} part;

static void part_end(part *p)
{
    if (p->work)
        clReleaseMemObject(p->work);
    if (p->tile_mem)
        clReleaseMemObject(p->tile_mem);
    free(p->totals);
    free(p->sizes);
    free(p->counts);
    free(p->tile_totals);
    free(p->expr);
}

/* i in a transform or select expression is the index in the whole array,
 * as on one device: counted from this rank's first element (the ranks
 * before it hold that many, MPI_Exscan). Every rank makes the exchange,
 * whatever its own state (no rank may wait for another in vain); *text
 * is the expression this rank uses (st: the rank's state so far). */
static clprim_status rebase(part *p, clprim_status st, size_t n, const char *expr,
                            const char **text)
{
    unsigned long long mine = n, first = 0;
    size_t len = 0;
    const int e = MPI_Exscan(&mine, &first, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, p->comm);
    *text = expr;
    if (st != CLPRIM_SUCCESS || !expr)
        return st;
    if (e != MPI_SUCCESS)
        return mpi_fail(p->ctx, e, "MPI_Exscan of the ranks' sizes");
    if (p->rank == 0)
        first = 0; /* MPI leaves rank 0's result undefined */
    if (clprim_expression_rebase(expr, (size_t)first, NULL, 0, &len) == CLPRIM_OUT_OF_HOST_MEMORY ||
        !(p->expr = malloc(len)) ||
        clprim_expression_rebase(expr, (size_t)first, p->expr, len, NULL) != CLPRIM_SUCCESS)
        return fail(p->ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    *text = p->expr;
    return st;
}

/* rebase() for a transform: *out is tf with i counted in the whole array
 * (p->tf), or tf itself. */
static clprim_status rebase_transform(part *p, clprim_status st, size_t n,
                                      const clprim_transform *tf, const clprim_transform **out)
{
    const char *text;
    st = rebase(p, st, n, tf ? tf->expression : NULL, &text);
    *out = tf;
    if (st == CLPRIM_SUCCESS && tf) {
        p->tf = *tf;
        p->tf.expression = text;
        *out = &p->tf;
    }
    return st;
}

/* Rank and size, then (elem > 0) the work buffer and host totals. Leaves
 * p ready for agree() and part_end() whatever happens. */
static clprim_status part_begin(part *p, MPI_Comm comm, clprim_context *ctx, size_t elem)
{
    cl_int err = CL_SUCCESS;
    int e;
    memset(p, 0, sizeof *p);
    p->comm = comm;
    p->ctx = ctx;
    p->elem = elem;
    if ((e = MPI_Comm_rank(comm, &p->rank)) != MPI_SUCCESS ||
        (e = MPI_Comm_size(comm, &p->size)) != MPI_SUCCESS)
        return mpi_fail(ctx, e, "MPI_Comm_rank / MPI_Comm_size");
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!elem)
        return CLPRIM_SUCCESS;
    /* before the agreement round: a rank short of memory later could not
     * join the collectives the others make */
    p->totals = calloc((size_t)p->size + 1, elem);
    p->sizes = calloc((size_t)p->size, sizeof *p->sizes);
    p->counts = calloc(2 * (size_t)p->size, sizeof *p->counts);
    p->displs = p->counts ? p->counts + p->size : NULL;
    if (!p->totals || !p->sizes || !p->counts)
        return fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    p->work = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE,
                             ((size_t)p->size + 1) * elem, NULL, &err);
    if (err != CL_SUCCESS)
        return fail(ctx, err, "allocating the ranks' totals (%zu bytes) failed: %s",
                    ((size_t)p->size + 1) * elem, clprim_status_string(err));
    return CLPRIM_SUCCESS;
}

/* The agreement round (clprim_mpi__agree) of a part. */
static clprim_status agree(part *p, clprim_status local, long long signature)
{
    return clprim_mpi__agree(p->comm, p->ctx, p->rank, local, signature,
                             "element type, operator, repro, exclusive or transform");
}

/* The element size a descriptor names, with the status of a bad one. */
static clprim_status elem_of(clprim_context *ctx, const void *desc, clprim_type type,
                             const clprim_operator *custom, size_t *elem)
{
    *elem = !desc ? 0 : custom ? clprim_operator_size(custom) : clprim_type_size(type);
    if (!desc)
        return fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    if (!*elem)
        return fail(ctx, custom ? CLPRIM_INVALID_ARGUMENT : CLPRIM_UNKNOWN_TYPE,
                    custom ? "desc->custom is not a live operator" : "desc->type %d is not a "
                    "clprim_type", (int)type);
    return CLPRIM_SUCCESS;
}

/* Whether the fold's bits depend on its order (clprim.h, clprim_repro):
 * floating-point sums and products, and custom operators; PORTABLE then
 * takes portable_totals' path. */
static int order_matters(clprim_type type, clprim_op op, const clprim_operator *custom)
{
    return custom || ((type == CLPRIM_TYPE_FLOAT || type == CLPRIM_TYPE_DOUBLE) &&
                      (op == CLPRIM_OP_SUM || op == CLPRIM_OP_PRODUCT));
}

/* What every rank must agree on: the element (type, or the caller's size),
 * the operator, the reproducibility level (it picks the collectives),
 * exclusive, and whether a transform maps the input. */
static long long signature(clprim_type type, clprim_op op, const clprim_operator *custom,
                           clprim_repro repro, int exclusive, int transform)
{
    const long long elem = custom ? (long long)clprim_operator_size(custom) : 0;
    const long long level = (unsigned)repro < 15u ? (long long)repro : 15;
    return (((elem * 16 + (custom ? 15 : (long long)type)) * 16 + (custom ? 15 : (long long)op)) *
                16 +
            level) *
               4 +
           (exclusive ? 2 : 0) + (transform ? 1 : 0) + 1;
}

/* PORTABLE (issue 33; clprim.h, clprim_reduce_tiles): the whole array's
 * tile totals on every rank, in order, which is the first level of one
 * device's PORTABLE order when every rank but the last non-empty one holds
 * whole tiles. Other splits are refused, alike on every rank (each sees
 * every rank's n). Collective, after the agreement round, so every rank is
 * here; a rank's own failure goes through a second round before the
 * totals travel. */
static clprim_status portable_totals(part *p, const clprim_reduce_desc *rd, cl_mem in,
                                     size_t in_off, size_t n, long long sig)
{
    const unsigned long long mine = n, tile = CLPRIM_PORTABLE_TILE;
    const cl_command_queue q = clprim_context_queue(p->ctx);
    unsigned long long at = 0;
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    clprim_status st = CLPRIM_SUCCESS;
    cl_int err = CL_SUCCESS;
    int r, last = 0, e;

    e = MPI_Allgather((void *)&mine, 1, MPI_UNSIGNED_LONG_LONG, p->sizes, 1,
                      MPI_UNSIGNED_LONG_LONG, p->comm);
    if (e != MPI_SUCCESS)
        return mpi_fail(p->ctx, e, "MPI_Allgather of the ranks' sizes");
    for (r = 0; r < p->size; ++r)
        last = p->sizes[r] ? r : last;
    for (r = 0; r < p->size && st == CLPRIM_SUCCESS; ++r) {
        const unsigned long long g = (p->sizes[r] + tile - 1) / tile;
        if (p->sizes[r] % tile && r != last)
            st = fail(p->ctx, CLPRIM_UNSUPPORTED, "desc->repro portable: rank %d's n = %llu is not "
                      "a multiple of %d elements (the portable tile) and a later rank holds "
                      "elements: split the array on tile boundaries (every rank's part but the "
                      "last non-empty one whole tiles)", r, p->sizes[r], CLPRIM_PORTABLE_TILE);
        else if (at + g > INT_MAX)
            st = fail(p->ctx, CLPRIM_UNSUPPORTED, "desc->repro portable: more than %d tiles of %d "
                      "elements over the ranks (MPI counts them in int)", INT_MAX,
                      CLPRIM_PORTABLE_TILE);
        p->counts[r] = (int)g;
        p->displs[r] = (int)at;
        at += g;
    }
    if (st != CLPRIM_SUCCESS)
        return st;
    p->tiles = (size_t)at;
    p->first_tile = (size_t)p->displs[p->rank];
    p->tile_totals = calloc(p->tiles ? p->tiles : 1, p->elem);
    if (!p->tile_totals)
        st = fail(p->ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    if (st == CLPRIM_SUCCESS) {
        p->tile_mem = clCreateBuffer(clprim_context_cl_context(p->ctx), CL_MEM_READ_WRITE,
                                     (p->tiles + 1) * p->elem, NULL, &err);
        if (err != CL_SUCCESS)
            st = fail(p->ctx, err, "allocating the %zu tile totals failed: %s", p->tiles,
                      clprim_status_string(err));
    }
    if (st == CLPRIM_SUCCESS && n)
        st = clprim_reduce_tiles(p->ctx, NULL, rd, in, in_off, n, p->tile_mem, p->first_tile, 0,
                                 NULL, NULL);
    if (st == CLPRIM_SUCCESS && n &&
        (err = clEnqueueReadBuffer(q, p->tile_mem, CL_TRUE, p->first_tile * p->elem,
                                   (size_t)p->counts[p->rank] * p->elem,
                                   p->tile_totals + p->first_tile * p->elem, 0, NULL, NULL)) !=
            CL_SUCCESS)
        st = fail(p->ctx, err, "reading this rank's tile totals failed: %s",
                  clprim_status_string(err));
    st = agree(p, st, sig);
    if (st != CLPRIM_SUCCESS)
        return st;
    /* the totals as elements, so that MPI's int counts tiles, not bytes */
    if ((e = MPI_Type_contiguous((int)p->elem, MPI_BYTE, &dt)) != MPI_SUCCESS ||
        (e = MPI_Type_commit(&dt)) != MPI_SUCCESS ||
        (e = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, p->tile_totals, p->counts,
                            p->displs, dt, p->comm)) != MPI_SUCCESS)
        st = mpi_fail(p->ctx, e, "MPI_Allgatherv of the tile totals");
    if (dt != MPI_DATATYPE_NULL)
        MPI_Type_free(&dt);
    /* on the device for the next steps (those of this rank are there) */
    if (st == CLPRIM_SUCCESS && p->tiles &&
        (err = clEnqueueWriteBuffer(q, p->tile_mem, CL_TRUE, 0, p->tiles * p->elem,
                                    p->tile_totals, 0, NULL, NULL)) != CL_SUCCESS)
        st = fail(p->ctx, err, "writing the tile totals failed: %s", clprim_status_string(err));
    return st;
}

/* The PORTABLE scan from the tile totals: one device's carries (the
 * PORTABLE exclusive scan of all the totals, computed alike on every rank;
 * they are of the output type, so without the transform), then this
 * rank's tiles from theirs. One tile in all is scanned as one device
 * does, without a carry. */
static clprim_status portable_scan(part *p, const clprim_scan_desc *d, cl_mem in, size_t in_off,
                                   cl_mem out, size_t out_off, size_t n, long long sig)
{
    const clprim_reduce_desc rd = {d->type, d->op, CLPRIM_REDUCE_AUTO, d->custom, d->transform,
                                   d->repro};
    clprim_scan_desc cd = *d;
    clprim_status st = portable_totals(p, &rd, in, in_off, n, sig);
    if (st != CLPRIM_SUCCESS || !n)
        return st;
    if (p->tiles == 1)
        return clprim_scan(p->ctx, NULL, d, in, in_off, out, out_off, n, 0, NULL, NULL);
    cd.exclusive = 1;
    cd.transform = NULL;
    st = clprim_scan(p->ctx, NULL, &cd, p->tile_mem, 0, p->tile_mem, 0, p->tiles, 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS)
        st = clprim_scan_tiles(p->ctx, NULL, d, p->tile_mem, p->first_tile, in, in_off, out,
                               out_off, n, 0, NULL, NULL);
    return st;
}

/* The PORTABLE reduce from the tile totals: their PORTABLE reduce (one
 * device's next levels), alike on every rank; one total is the result. */
static clprim_status portable_reduce(part *p, const clprim_reduce_desc *d, cl_mem in,
                                     size_t in_off, size_t n, void *value, long long sig)
{
    clprim_reduce_desc fd = *d;
    clprim_status st = portable_totals(p, d, in, in_off, n, sig);
    fd.transform = NULL; /* the totals are of the output type */
    if (st == CLPRIM_SUCCESS && p->tiles == 1)
        memcpy(value, p->tile_totals, p->elem);
    else if (st == CLPRIM_SUCCESS)
        st = clprim_reduce_value(p->ctx, &fd, p->tile_mem, 0, p->tiles, value);
    return st;
}

/* This rank's total (rd over its part) into totals[rank] on the host. */
static clprim_status local_total(part *p, const clprim_reduce_desc *rd, cl_mem in, size_t in_off,
                                 size_t n)
{
    clprim_status st = clprim_reduce(p->ctx, NULL, rd, in, in_off, n, p->work, (size_t)p->size, 0,
                                     NULL, NULL);
    if (st == CLPRIM_SUCCESS) {
        const cl_int err = clEnqueueReadBuffer(clprim_context_queue(p->ctx), p->work, CL_TRUE,
                                               (size_t)p->size * p->elem, p->elem,
                                               p->totals + (size_t)p->rank * p->elem, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            st = fail(p->ctx, err, "reading this rank's total failed: %s", clprim_status_string(err));
    }
    return st;
}

/* Every rank's total on every rank (as bytes). */
static clprim_status gather(part *p)
{
    const int e = MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, p->totals, (int)p->elem,
                                MPI_BYTE, p->comm);
    return e == MPI_SUCCESS ? CLPRIM_SUCCESS : mpi_fail(p->ctx, e, "MPI_Allgather of the totals");
}

/* Folds the first `count` totals (host) on the device into work[size]
 * with fd's operator; the fold of one total is itself. Returns the
 * element of work that holds it. */
static clprim_status fold_on_device(part *p, const clprim_reduce_desc *fd, size_t count,
                                    size_t *at)
{
    cl_int err = clEnqueueWriteBuffer(clprim_context_queue(p->ctx), p->work, CL_TRUE, 0,
                                      count * p->elem, p->totals, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return fail(p->ctx, err, "writing the ranks' totals failed: %s", clprim_status_string(err));
    *at = 0;
    if (count == 1)
        return CLPRIM_SUCCESS;
    *at = (size_t)p->size;
    return clprim_reduce(p->ctx, NULL, fd, p->work, 0, count, p->work, (size_t)p->size, 0, NULL,
                         NULL);
}

/* The scan of a rank > 0 from the ranks before it: MPI's own fold of
 * their totals (one value to the device, nothing to fold there), or all
 * the totals, folded on the device with the operator; the totals are of
 * the output type, so without the transform. Rank 0 has scanned already. */
static clprim_status scan_from_before(part *p, const clprim_scan_desc *desc, cl_mem in,
                                      size_t in_off, cl_mem out, size_t out_off, size_t n)
{
    const clprim_reduce_desc fd = {desc->type, desc->op, CLPRIM_REDUCE_AUTO, desc->custom, NULL,
                                   desc->repro};
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    MPI_Op mop = MPI_OP_NULL;
    size_t before = (size_t)p->rank, at = 0;
    clprim_status st = CLPRIM_SUCCESS;
    if (!desc->custom && mpi_order_free(desc->type, desc->repro) &&
        mpi_builtin(desc->type, desc->op, &dt, &mop)) {
        unsigned char *carry = p->totals + (size_t)p->size * p->elem;
        const int e = MPI_Exscan(p->totals + (size_t)p->rank * p->elem, carry, 1, dt, mop,
                                 p->comm);
        if (e != MPI_SUCCESS)
            st = mpi_fail(p->ctx, e, "MPI_Exscan of the totals");
        else
            memcpy(p->totals, carry, p->elem);
        before = 1;
    } else {
        st = gather(p);
    }
    if (st == CLPRIM_SUCCESS && p->rank > 0)
        st = fold_on_device(p, &fd, before, &at);
    if (st == CLPRIM_SUCCESS && p->rank > 0)
        st = clprim_scan_init(p->ctx, NULL, desc, p->work, at, in, in_off, out, out_off, n, 0,
                              NULL, NULL);
    return st;
}

clprim_status clprim_mpi_scan(MPI_Comm comm, clprim_context *ctx, const clprim_scan_desc *desc,
                              cl_mem in, size_t in_off, cl_mem out, size_t out_off, size_t n)
{
    size_t elem;
    clprim_status st = elem_of(ctx, desc, desc ? desc->type : CLPRIM_TYPE_INT32,
                               desc ? desc->custom : NULL, &elem);
    /* every rank decides alike once the agreement round has passed */
    const int portable = desc && desc->repro == CLPRIM_REPRO_PORTABLE &&
                         order_matters(desc->type, desc->op, desc->custom);
    const long long sig = desc ? signature(desc->type, desc->op, desc->custom, desc->repro,
                                           desc->exclusive, desc->transform != NULL)
                               : 0;
    clprim_scan_desc sd;
    const clprim_transform *tf;
    part p;

    if (st == CLPRIM_SUCCESS)
        st = part_begin(&p, comm, ctx, elem);
    else
        part_begin(&p, comm, ctx, 0);
    st = rebase_transform(&p, st, n, desc ? desc->transform : NULL, &tf);
    if (st == CLPRIM_SUCCESS) {
        sd = *desc;
        sd.transform = tf;
        desc = &sd;
    }
    /* a lone rank's total is nobody's carry */
    if (st == CLPRIM_SUCCESS && p.size > 1 && !portable) {
        const clprim_reduce_desc rd = {desc->type, desc->op, CLPRIM_REDUCE_AUTO, desc->custom,
                                       desc->transform, desc->repro};
        st = local_total(&p, &rd, in, in_off, n);
    }
    /* rank 0 needs nothing from the others: its scan starts at once */
    if (st == CLPRIM_SUCCESS && p.rank == 0 && !portable)
        st = clprim_scan(ctx, NULL, desc, in, in_off, out, out_off, n, 0, NULL, NULL);
    st = agree(&p, st, sig);
    if (st == CLPRIM_SUCCESS)
        st = portable ? portable_scan(&p, desc, in, in_off, out, out_off, n, sig)
                      : scan_from_before(&p, desc, in, in_off, out, out_off, n);
    st = finish(ctx, st);
    part_end(&p);
    return st;
}

clprim_status clprim_mpi_reduce(MPI_Comm comm, clprim_context *ctx, const clprim_reduce_desc *desc,
                                cl_mem in, size_t in_off, size_t n, void *value)
{
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    MPI_Op mop = MPI_OP_NULL;
    size_t elem;
    clprim_status st = elem_of(ctx, desc, desc ? desc->type : CLPRIM_TYPE_INT32,
                               desc ? desc->custom : NULL, &elem);
    const int portable = desc && desc->repro == CLPRIM_REPRO_PORTABLE &&
                         order_matters(desc->type, desc->op, desc->custom);
    const long long sig = desc ? signature(desc->type, desc->op, desc->custom, desc->repro, 0,
                                           desc->transform != NULL)
                               : 0;
    clprim_reduce_desc rd;
    const clprim_transform *tf;
    part p;

    if (st == CLPRIM_SUCCESS && !value)
        st = fail(ctx, CLPRIM_INVALID_ARGUMENT, "value is NULL");
    if (st == CLPRIM_SUCCESS)
        st = part_begin(&p, comm, ctx, elem);
    else
        part_begin(&p, comm, ctx, 0);
    st = rebase_transform(&p, st, n, desc ? desc->transform : NULL, &tf);
    if (st == CLPRIM_SUCCESS) {
        rd = *desc;
        rd.transform = tf;
        desc = &rd;
    }
    if (st == CLPRIM_SUCCESS && !portable)
        st = local_total(&p, desc, in, in_off, n);
    st = agree(&p, st, sig);
    if (st == CLPRIM_SUCCESS && portable)
        st = portable_reduce(&p, desc, in, in_off, n, value, sig);
    else if (st == CLPRIM_SUCCESS && !desc->custom && mpi_order_free(desc->type, desc->repro) &&
             mpi_builtin(desc->type, desc->op, &dt, &mop)) {
        const int e = MPI_Allreduce(p.totals + (size_t)p.rank * elem, value, 1, dt, mop, comm);
        if (e != MPI_SUCCESS)
            st = mpi_fail(ctx, e, "MPI_Allreduce of the totals");
    } else if (st == CLPRIM_SUCCESS) {
        st = gather(&p);
        if (st == CLPRIM_SUCCESS) {
            clprim_reduce_desc fd = *desc;
            fd.transform = NULL; /* the totals are of the output type */
            st = clprim_reduce_host(ctx, &fd, p.totals, (size_t)p.size, value);
        }
    }
    part_end(&p);
    return st;
}

clprim_status clprim_mpi_select(MPI_Comm comm, clprim_context *ctx, const clprim_compact_desc *desc,
                                cl_mem in, size_t in_off, cl_mem out, size_t out_off, size_t n,
                                size_t *count, size_t *offset, size_t *total)
{
    clprim_status st = desc ? CLPRIM_SUCCESS
                            : fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    size_t r, before = 0, all = 0;
    clprim_compact_desc cd;
    const char *text;
    part p;

    if (st == CLPRIM_SUCCESS && desc->indices)
        st = fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->indices: not offered across ranks");
    if (st == CLPRIM_SUCCESS)
        st = part_begin(&p, comm, ctx, sizeof(cl_ulong));
    else
        part_begin(&p, comm, ctx, 0);
    st = rebase(&p, st, n,
                desc && desc->predicate == CLPRIM_PREDICATE_EXPRESSION ? desc->expression : NULL,
                &text);
    if (st == CLPRIM_SUCCESS) {
        cd = *desc;
        cd.expression = text;
        desc = &cd;
    }
    if (st == CLPRIM_SUCCESS)
        st = clprim_select(ctx, NULL, desc, in, in_off, out, out_off, n, p.work, (size_t)p.size, 0,
                           NULL, NULL);
    if (st == CLPRIM_SUCCESS) {
        const cl_int err = clEnqueueReadBuffer(clprim_context_queue(ctx), p.work, CL_TRUE,
                                               (size_t)p.size * sizeof(cl_ulong), sizeof(cl_ulong),
                                               p.totals + (size_t)p.rank * sizeof(cl_ulong), 0,
                                               NULL, NULL);
        if (err != CL_SUCCESS)
            st = fail(ctx, err, "reading this rank's count failed: %s", clprim_status_string(err));
    }
    st = agree(&p, st, desc ? (long long)desc->type + 1 : 0);
    if (st == CLPRIM_SUCCESS)
        st = gather(&p);
    for (r = 0; st == CLPRIM_SUCCESS && r < (size_t)p.size; ++r) {
        cl_ulong c;
        memcpy(&c, p.totals + r * sizeof c, sizeof c);
        if (r < (size_t)p.rank)
            before += (size_t)c;
        all += (size_t)c;
    }
    if (st == CLPRIM_SUCCESS) {
        cl_ulong mine;
        memcpy(&mine, p.totals + (size_t)p.rank * sizeof mine, sizeof mine);
        if (count)
            *count = (size_t)mine;
        if (offset)
            *offset = before;
        if (total)
            *total = all;
    }
    part_end(&p);
    return st;
}

int clprim_mpi_local_rank(MPI_Comm comm)
{
    MPI_Comm local;
    int rank = -1;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) != MPI_SUCCESS)
        return -1;
    if (MPI_Comm_rank(local, &rank) != MPI_SUCCESS)
        rank = -1;
    MPI_Comm_free(&local);
    return rank;
}

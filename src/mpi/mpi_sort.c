/* SPDX-License-Identifier: MIT */
/* clprim_mpi_sort (issue 35): the whole array sorted across the ranks,
 * each rank's part of the result as long as its input, stable across
 * ranks. Exact splitting rather than sampled splitters, so that no input
 * (all keys equal, few distinct, sorted, reversed) can unbalance the
 * ranks or overflow a bucket:
 *   1. each rank sorts its part on its device (clprim_sort) and reads it
 *      back (the exchange goes through host memory anyway: NVIDIA's OpenCL
 *      gives MPI no device pointers);
 *   2. for each boundary between ranks' outputs (rank r's output starts at
 *      G_r, the sizes before it), the ranks bisect the keys' ordered form
 *      (clprim.h) for the least value v that at least G_r keys of the
 *      whole array do not exceed: one MPI_Allreduce of every boundary's
 *      count per step, each rank counting by a binary search of its sorted
 *      part, at most 64 steps;
 *   3. the keys below v go below the boundary, and of the keys equal to v
 *      as many as G_r still needs, taken in rank order, then in their
 *      order on the rank (which makes the result stable across ranks);
 *      every rank learns every rank's cuts (MPI_Allgather) and so what it
 *      sends and receives without another exchange;
 *   4. MPI_Alltoallv of keys (and values), received in rank order;
 *   5. written to the output and sorted there (clprim_sort, stable: runs
 *      from lower ranks stay first among equal keys).
 * Calls block until this rank's part is done, as clprim_mpi's others. */
#include "mpi_internal.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct sort_call {
    MPI_Comm comm;
    clprim_context *ctx;
    const clprim_sort_desc *d;
    int rank, size;
    size_t ks, vs, n;
    unsigned bits;            /* of the ordered form compared (the range) */
    unsigned char *send_keys, *send_values, *recv_keys, *recv_values;
    unsigned long long *sizes; /* every rank's n */
    unsigned long long *cuts;  /* [q * (size + 1) + b]: rank q's keys below boundary b */
    int *counts;               /* 4 * size: send counts, send displacements, receive ... */
    /* the bisection's state per boundary (split), taken before the
     * agreement round with the rest */
    uint64_t *lo, *hi;
    unsigned long long *goal, *mine, *sum, *both;
} sort_call;

/* The key at k (ks bytes) in its ordered form (clprim.h: "Ordered form"),
 * cut to the desc's bit range. */
static uint64_t ordered(const sort_call *c, const unsigned char *k)
{
    const clprim_type t = c->d->key_type;
    const unsigned w = (unsigned)c->ks * 8;
    const uint64_t all = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
    const uint64_t sign = (uint64_t)1 << (w - 1);
    uint64_t x, o;
    int nan = 0;
    if (c->ks == 4) {
        uint32_t v;
        memcpy(&v, k, 4);
        x = v;
    } else {
        memcpy(&x, k, 8);
    }
    if (t == CLPRIM_TYPE_FLOAT || t == CLPRIM_TYPE_DOUBLE) {
        const uint64_t exp_all = w == 64 ? 0x7ff0000000000000ull : 0x7f800000ull;
        nan = (x & ~sign & all) > exp_all;
        o = nan ? all : (x & sign) ? ~x & all : x | sign;
    } else if (t == CLPRIM_TYPE_INT32 || t == CLPRIM_TYPE_INT64) {
        o = x ^ sign;
    } else {
        o = x;
    }
    if (c->d->descending && !nan)
        o = ~o & all;
    if (c->d->end_bit) {
        const unsigned span = c->d->end_bit - c->d->begin_bit;
        o = (o >> c->d->begin_bit) & (span >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << span) - 1);
    }
    return o;
}

/* How many of this rank's sorted keys are at most v. */
static size_t at_most(const sort_call *c, uint64_t v)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (ordered(c, c->send_keys + mid * c->ks) <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Steps 2 and 3: c->cuts for every rank and boundary. Every rank makes the
 * same MPI calls in the same order. */
static clprim_status split(sort_call *c)
{
    const size_t p = (size_t)c->size;
    const uint64_t top = c->bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << c->bits) - 1;
    uint64_t *lo = c->lo, *hi = c->hi;
    unsigned long long *goal = c->goal, *mine = c->mine, *sum = c->sum, *both = c->both;
    size_t b, q, step;
    int e;

    goal[0] = 0;
    for (b = 1; b <= p; ++b)
        goal[b] = goal[b - 1] + c->sizes[b - 1];
    for (b = 0; b <= p; ++b) {
        lo[b] = 0;
        hi[b] = top;
    }
    /* the least v with at least goal[b] keys at most v (boundaries 0 and p
     * and empty goals need none: their cuts are known) */
    for (step = 0; step < 65; ++step) {
        int open = 0;
        for (b = 0; b <= p; ++b) {
            const uint64_t mid = lo[b] + (hi[b] - lo[b]) / 2;
            mine[b] = lo[b] < hi[b] ? at_most(c, mid) : 0;
            open |= lo[b] < hi[b];
        }
        if (!open)
            break;
        e = MPI_Allreduce(mine, sum, (int)(p + 1), MPI_UNSIGNED_LONG_LONG, MPI_SUM, c->comm);
        if (e != MPI_SUCCESS)
            return clprim_mpi__mpi_fail(c->ctx, e, "MPI_Allreduce (the sort's splitters)");
        for (b = 0; b <= p; ++b) {
            const uint64_t mid = lo[b] + (hi[b] - lo[b]) / 2;
            if (lo[b] >= hi[b])
                continue;
            if (sum[b] >= goal[b])
                hi[b] = mid;
            else
                lo[b] = mid + 1;
        }
    }
    /* below v and at most v on this rank, then on every rank */
    for (b = 0; b <= p; ++b) {
        mine[2 * b] = lo[b] ? at_most(c, lo[b] - 1) : 0;
        mine[2 * b + 1] = at_most(c, lo[b]);
    }
    e = MPI_Allgather(mine, (int)(2 * (p + 1)), MPI_UNSIGNED_LONG_LONG, both, (int)(2 * (p + 1)),
                      MPI_UNSIGNED_LONG_LONG, c->comm);
    if (e != MPI_SUCCESS)
        return clprim_mpi__mpi_fail(c->ctx, e, "MPI_Allgather (the sort's cuts)");
    for (b = 0; b <= p; ++b) {
        unsigned long long below = 0, need;
        for (q = 0; q < p; ++q)
            below += both[q * 2 * (p + 1) + 2 * b];
        need = goal[b] - below; /* taken from the keys equal to v, in rank order */
        for (q = 0; q < p; ++q) {
            const unsigned long long lt = both[q * 2 * (p + 1) + 2 * b],
                                     eq = both[q * 2 * (p + 1) + 2 * b + 1] - lt,
                                     take = eq < need ? eq : need;
            c->cuts[q * (p + 1) + b] = b == 0 ? 0 : b == p ? c->sizes[q] : lt + take;
            need -= take;
        }
    }
    return CLPRIM_SUCCESS;
}

/* Step 4: keys (and values) to the ranks whose outputs they belong to, in
 * MPI counts of whole elements (each below 2^31: every part is). */
static clprim_status exchange(sort_call *c)
{
    const size_t p = (size_t)c->size, me = (size_t)c->rank;
    int *sc = c->counts, *sd = sc + p, *rc = sd + p, *rd = rc + p;
    unsigned long long at = 0, from = 0;
    MPI_Datatype kt, vt = MPI_DATATYPE_NULL;
    clprim_status st = CLPRIM_SUCCESS;
    size_t q;
    int e;

    for (q = 0; q < p; ++q) {
        const unsigned long long s = c->cuts[me * (p + 1) + q + 1] - c->cuts[me * (p + 1) + q],
                                 r = c->cuts[q * (p + 1) + me + 1] - c->cuts[q * (p + 1) + me];
        sc[q] = (int)s;
        sd[q] = (int)at;
        rc[q] = (int)r;
        rd[q] = (int)from;
        at += s;
        from += r;
    }
    if ((e = MPI_Type_contiguous((int)c->ks, MPI_BYTE, &kt)) != MPI_SUCCESS ||
        (e = MPI_Type_commit(&kt)) != MPI_SUCCESS)
        return clprim_mpi__mpi_fail(c->ctx, e, "MPI_Type_contiguous (the sort's keys)");
    e = MPI_Alltoallv(c->send_keys, sc, sd, kt, c->recv_keys, rc, rd, kt, c->comm);
    if (e != MPI_SUCCESS)
        st = clprim_mpi__mpi_fail(c->ctx, e, "MPI_Alltoallv (the sort's keys)");
    if (st == CLPRIM_SUCCESS && c->vs) {
        if ((e = MPI_Type_contiguous((int)c->vs, MPI_BYTE, &vt)) != MPI_SUCCESS ||
            (e = MPI_Type_commit(&vt)) != MPI_SUCCESS)
            st = clprim_mpi__mpi_fail(c->ctx, e, "MPI_Type_contiguous (the sort's values)");
        else if ((e = MPI_Alltoallv(c->send_values, sc, sd, vt, c->recv_values, rc, rd, vt,
                                    c->comm)) != MPI_SUCCESS)
            st = clprim_mpi__mpi_fail(c->ctx, e, "MPI_Alltoallv (the sort's values)");
    }
    MPI_Type_free(&kt);
    if (vt != MPI_DATATYPE_NULL)
        MPI_Type_free(&vt);
    return st;
}

/* A blocking transfer between a buffer and host memory. */
static clprim_status move(sort_call *c, int write, cl_mem m, size_t off, void *host, size_t bytes)
{
    cl_int err;
    if (!bytes)
        return CLPRIM_SUCCESS;
    err = write ? clEnqueueWriteBuffer(clprim_context_queue(c->ctx), m, CL_TRUE, off, bytes, host,
                                       0, NULL, NULL)
                : clEnqueueReadBuffer(clprim_context_queue(c->ctx), m, CL_TRUE, off, bytes, host,
                                      0, NULL, NULL);
    if (err != CL_SUCCESS)
        return clprim_mpi__fail(c->ctx, err, "%s the sort's %zu bytes failed: %s",
                                write ? "writing" : "reading", bytes, clprim_status_string(err));
    return CLPRIM_SUCCESS;
}

/* Step 1 and what the exchange needs, before the agreement round (a rank
 * short of memory later could not join the collectives the others make). */
static clprim_status local_part(sort_call *c, cl_mem keys, size_t keys_off, cl_mem keys_out,
                                size_t keys_out_off, cl_mem values, size_t values_off,
                                cl_mem values_out, size_t values_out_off)
{
    const size_t p = (size_t)c->size, n = c->n;
    clprim_status st;

    c->sizes = calloc(p, sizeof *c->sizes);
    c->cuts = calloc(p * (p + 1), sizeof *c->cuts);
    c->counts = calloc(4 * p, sizeof *c->counts);
    c->send_keys = malloc(n * c->ks + 1);
    c->recv_keys = malloc(n * c->ks + 1);
    c->send_values = malloc(n * c->vs + 1);
    c->recv_values = malloc(n * c->vs + 1);
    c->lo = calloc(p + 1, sizeof *c->lo);
    c->hi = calloc(p + 1, sizeof *c->hi);
    c->goal = calloc(p + 1, sizeof *c->goal);
    c->mine = calloc(2 * (p + 1), sizeof *c->mine);
    c->sum = calloc(p + 1, sizeof *c->sum);
    c->both = calloc(2 * (p + 1) * p, sizeof *c->both);
    if (!c->sizes || !c->cuts || !c->counts || !c->send_keys || !c->recv_keys ||
        !c->send_values || !c->recv_values || !c->lo || !c->hi || !c->goal || !c->mine ||
        !c->sum || !c->both)
        return clprim_mpi__fail(c->ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    st = clprim_sort(c->ctx, NULL, c->d, keys, keys_off, keys_out, keys_out_off, values,
                     values_off, values_out, values_out_off, n, 0, NULL, NULL);
    st = clprim_mpi__finish(c->ctx, st);
    if (st != CLPRIM_SUCCESS)
        return st;
    st = move(c, 0, keys_out, keys_out_off * c->ks, c->send_keys, n * c->ks);
    if (st == CLPRIM_SUCCESS && c->vs)
        st = move(c, 0, values_out, values_out_off * c->vs, c->send_values, n * c->vs);
    return st;
}

clprim_status clprim_mpi_sort(MPI_Comm comm, clprim_context *ctx, const clprim_sort_desc *desc,
                              cl_mem keys, size_t keys_off, cl_mem keys_out, size_t keys_out_off,
                              cl_mem values, size_t values_off, cl_mem values_out,
                              size_t values_out_off, size_t n)
{
    sort_call c;
    unsigned long long mine = n;
    clprim_status st = CLPRIM_SUCCESS;
    long long sig = 0;
    int e;

    memset(&c, 0, sizeof c);
    c.comm = comm;
    c.ctx = ctx;
    c.d = desc;
    c.n = n;
    if ((e = MPI_Comm_rank(comm, &c.rank)) != MPI_SUCCESS ||
        (e = MPI_Comm_size(comm, &c.size)) != MPI_SUCCESS)
        return ctx ? clprim_mpi__mpi_fail(ctx, e, "MPI_Comm_rank / MPI_Comm_size")
                   : CLPRIM_INVALID_ARGUMENT;
    if (!ctx)
        st = CLPRIM_INVALID_ARGUMENT; /* (the others still learn of it) */
    else if (!desc)
        st = clprim_mpi__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    else if (!(c.ks = clprim_type_size(desc->key_type)))
        st = clprim_mpi__fail(ctx, CLPRIM_UNKNOWN_TYPE,
                              "desc->key_type %d is not a sort's key type", (int)desc->key_type);
    if (st == CLPRIM_SUCCESS) {
        c.vs = desc->value_size;
        c.bits = desc->end_bit ? desc->end_bit - desc->begin_bit : (unsigned)c.ks * 8;
        if (desc->end_bit && (desc->end_bit > c.ks * 8 || desc->begin_bit > desc->end_bit))
            st = clprim_mpi__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                  "desc->begin_bit, end_bit = %u, %u: outside the key's %u bits",
                                  desc->begin_bit, desc->end_bit, (unsigned)c.ks * 8);
        /* every other field, and the buffers, as clprim_sort checks them */
        if (st == CLPRIM_SUCCESS)
            st = local_part(&c, keys, keys_off, keys_out, keys_out_off, values, values_off,
                            values_out, values_out_off);
        sig = ((((long long)desc->key_type * 131 + (long long)desc->value_size) * 2 +
                (desc->descending != 0)) * 131 + desc->begin_bit) * 131 + desc->end_bit + 1;
    }
    st = clprim_mpi__agree(comm, ctx, c.rank, st, sig,
                           "key type, value size, direction or bit range");
    if (st == CLPRIM_SUCCESS &&
        (e = MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, c.sizes, 1, MPI_UNSIGNED_LONG_LONG,
                           comm)) != MPI_SUCCESS)
        st = clprim_mpi__mpi_fail(ctx, e, "MPI_Allgather (the ranks' sizes)");
    for (e = 0; st == CLPRIM_SUCCESS && e < c.size; ++e)
        if (c.sizes[e] > INT_MAX) /* (every rank sees it: no rank goes on alone) */
            st = clprim_mpi__fail(ctx, CLPRIM_UNSUPPORTED,
                                  "rank %d's part holds %llu keys: at most 2^31 - 1 (MPI's int "
                                  "counts)", e, c.sizes[e]);
    if (st == CLPRIM_SUCCESS)
        st = split(&c);
    if (st == CLPRIM_SUCCESS)
        st = exchange(&c);
    if (st == CLPRIM_SUCCESS)
        st = move(&c, 1, keys_out, keys_out_off * c.ks, c.recv_keys, n * c.ks);
    if (st == CLPRIM_SUCCESS && c.vs)
        st = move(&c, 1, values_out, values_out_off * c.vs, c.recv_values, n * c.vs);
    if (st == CLPRIM_SUCCESS)
        st = clprim_sort(ctx, NULL, desc, keys_out, keys_out_off, keys_out, keys_out_off,
                         values_out, values_out_off, values_out, values_out_off, n, 0, NULL, NULL);
    st = clprim_mpi__finish(ctx, st);
    free(c.sizes);
    free(c.cuts);
    free(c.counts);
    free(c.send_keys);
    free(c.recv_keys);
    free(c.send_values);
    free(c.recv_values);
    free(c.lo);
    free(c.hi);
    free(c.goal);
    free(c.mine);
    free(c.sum);
    free(c.both);
    return st;
}

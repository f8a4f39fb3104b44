/* SPDX-License-Identifier: MIT */
/* clprim_mpi_sort (issue 35): the whole array sorted across the ranks,
 * each rank's part of the result as long as its input, stable across
 * ranks. Exact splitting rather than sampled splitters, so that no input
 * (all keys equal, few distinct, sorted, reversed) can unbalance the
 * ranks or overflow a bucket:
 *   1. each rank sorts its part on its device (clprim_sort) into a
 *      temporary buffer (one rank alone: into the output, and that is all);
 *   2. for each boundary between ranks' outputs (rank r's output starts at
 *      G_r, the sizes before it), the ranks bisect the keys' ordered form
 *      (clprim.h) for the least value v that at least G_r keys of the
 *      whole array do not exceed: one MPI_Allreduce of every boundary's
 *      count per step, at most 64 steps. A rank counts its keys at most v
 *      by a binary search of a strided sample of its sorted part (read
 *      once), then of the one window of keys between two samples (read
 *      when a step first needs it), so the keys stay on the device;
 *   3. the keys below v go below the boundary, and of the keys equal to v
 *      as many as G_r still needs, taken in rank order, then in their
 *      order on the rank (which makes the result stable across ranks);
 *      every rank learns every rank's cuts (MPI_Allgather) and so what it
 *      sends and receives without another exchange;
 *   4. the keys that stay are copied on the device; the others move in
 *      pieces between the devices (mpi_exchange.c: through an MPI
 *      shared-memory window where every rank is on one host, else through
 *      messages), reads, hand-overs and writes of different pieces
 *      overlapping;
 *   5. the output, the received runs in rank order, sorted on the device
 *      (clprim_sort, stable: runs from lower ranks stay first among equal
 *      keys).
 * Calls block until this rank's part is done, as clprim_mpi's others. */
#include "mpi_internal.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The strided sample's rows (a window between two samples holds at most
 * n / SORT_SAMPLES keys) and a piece's bytes (CLPRIM_MPI_PIECE_BYTES,
 * rank 0's, for tests with many pieces). */
#define SORT_SAMPLES 4096
#define SORT_PIECE_BYTES ((size_t)2 << 20)

typedef struct sort_call {
    MPI_Comm comm;
    clprim_context *ctx;
    cl_command_queue q; /* the context's */
    const clprim_sort_desc *d;
    int rank, size;
    size_t ks, vs, n;
    unsigned bits; /* of the ordered form compared (the range) */
    clprim_status st; /* a device failure met where the ranks must go on together */
    cl_mem tk, tv;    /* the sorted part */
    unsigned char *sample, *window; /* every stride-th key; a window per boundary */
    size_t stride, samples, *window_of; /* per boundary: its window's sample + 1 (0: none) */
    unsigned long long *sizes; /* every rank's n, then every rank's piece bytes */
    unsigned long long *cuts;  /* [q * (size + 1) + b]: rank q's keys below boundary b */
    /* the bisection's state per boundary (split) */
    uint64_t *lo, *hi;
    unsigned long long *goal, *mine, *sum, *both;
    /* the exchange: its pieces (mv.out, mv.in, held here) and transport */
    clprim_mpi__moves mv;
    int moving; /* mv prepared */
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

/* How many of the m ordered keys at k are at most v (k sorted). */
static size_t search(const sort_call *c, const unsigned char *k, size_t m, uint64_t v)
{
    size_t lo = 0, hi = m;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (ordered(c, k + mid * c->ks) <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many of this rank's sorted keys are at most v: the samples decide
 * all but the window after the last sample at most v, read for boundary b
 * when it first needs that window. */
static size_t at_most(sort_call *c, size_t b, uint64_t v)
{
    const size_t s = search(c, c->sample, c->samples, v);
    const size_t first = s ? (s - 1) * c->stride + 1 : 0;
    const size_t end = s * c->stride < c->n ? s * c->stride : c->n;
    unsigned char *w = c->window + b * c->stride * c->ks;
    if (!s || first >= end)
        return first;
    if (c->window_of[b] != s) {
        const cl_int err = clEnqueueReadBuffer(c->q, c->tk, CL_TRUE, first * c->ks,
                                               (end - first) * c->ks, w, 0, NULL, NULL);
        clprim_mpi__device_failed(c->ctx, &c->st, err, "reading the sort's window");
        c->window_of[b] = err == CL_SUCCESS ? s : 0;
        if (err != CL_SUCCESS)
            return first;
    }
    return first + search(c, w, end - first, v);
}

/* Whether `count` elements of `size` bytes from `off` fit in m (clprim_sort
 * checks the inputs; the outputs are written here). */
static clprim_status fits(sort_call *c, cl_mem m, size_t off, size_t size, const char *what)
{
    size_t have = 0;
    if (!m || clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof have, &have, NULL) != CL_SUCCESS)
        return clprim_mpi__fail(c->ctx, CLPRIM_INVALID_ARGUMENT, "%s is not a buffer", what);
    if (off > have / size || c->n > have / size - off)
        return clprim_mpi__fail(c->ctx, CLPRIM_OUT_OF_BOUNDS,
                                "%s holds %zu bytes: too few for %zu elements of %zu bytes from "
                                "%zu", what, have, c->n, size, off);
    return CLPRIM_SUCCESS;
}

/* Step 1 and the sample, before the agreement round (a rank short of
 * memory later could not join the collectives the others make). */
static clprim_status local_part(sort_call *c, cl_mem keys, size_t keys_off, cl_mem keys_out,
                                size_t keys_out_off, cl_mem values, size_t values_off,
                                cl_mem values_out, size_t values_out_off)
{
    const size_t p = (size_t)c->size, n = c->n;
    const cl_context cx = clprim_context_cl_context(c->ctx);
    cl_int err = CL_SUCCESS;
    clprim_status st;

    c->stride = n / SORT_SAMPLES + 1;
    c->samples = (n + c->stride - 1) / c->stride;
    c->sizes = calloc(2 * p, sizeof *c->sizes);
    c->cuts = calloc(p * (p + 1), sizeof *c->cuts);
    c->sample = malloc(c->samples * c->ks + 1);
    c->window = malloc((p + 1) * c->stride * c->ks + 1);
    c->window_of = calloc(p + 1, sizeof *c->window_of);
    c->lo = calloc(p + 1, sizeof *c->lo);
    c->hi = calloc(p + 1, sizeof *c->hi);
    c->goal = calloc(p + 1, sizeof *c->goal);
    c->mine = calloc(2 * (p + 1), sizeof *c->mine);
    c->sum = calloc(p + 1, sizeof *c->sum);
    c->both = calloc(2 * (p + 1) * p, sizeof *c->both);
    if (!c->sizes || !c->cuts || !c->sample || !c->window || !c->window_of || !c->lo ||
        !c->hi || !c->goal || !c->mine || !c->sum || !c->both)
        return clprim_mpi__fail(c->ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    if ((st = fits(c, keys_out, keys_out_off, c->ks, "keys_out")) != CLPRIM_SUCCESS ||
        (c->vs &&
         (st = fits(c, values_out, values_out_off, c->vs, "values_out")) != CLPRIM_SUCCESS))
        return st;
    /* (whole rows of the sample's stride: NVIDIA checks a rectangle's
     * rows against the buffer whole, the last one too) */
    c->tk = clCreateBuffer(cx, CL_MEM_READ_WRITE, c->samples * c->stride * c->ks + 1, NULL, &err);
    if (err == CL_SUCCESS && c->vs)
        c->tv = clCreateBuffer(cx, CL_MEM_READ_WRITE, n * c->vs + 1, NULL, &err);
    if (err != CL_SUCCESS)
        return clprim_mpi__fail(c->ctx, err, "the sort's temporary of %zu bytes: %s",
                                n * (c->ks + c->vs), clprim_status_string(err));
    st = clprim_sort(c->ctx, NULL, c->d, keys, keys_off, c->tk, 0, values, values_off, c->tv, 0,
                     n, 0, NULL, NULL);
    st = clprim_mpi__finish(c->ctx, st);
    if (st == CLPRIM_SUCCESS && c->samples) {
        const size_t origin[3] = {0, 0, 0}, region[3] = {c->ks, c->samples, 1};
        err = clEnqueueReadBufferRect(c->q, c->tk, CL_TRUE, origin, origin, region,
                                      c->stride * c->ks, 0, c->ks, 0, c->sample, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            st = clprim_mpi__fail(c->ctx, err, "reading the sort's sample: %s",
                                  clprim_status_string(err));
    }
    return st;
}

/* Steps 2 and 3: c->cuts for every rank and boundary. Every rank makes the
 * same MPI calls in the same order, whatever its device does meanwhile
 * (c->st). */
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
            mine[b] = lo[b] < hi[b] ? at_most(c, b, mid) : 0;
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
        mine[2 * b] = lo[b] ? at_most(c, b, lo[b] - 1) : 0;
        mine[2 * b + 1] = at_most(c, b, lo[b]);
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

/* The pieces of `count` elements from `at`, for peer, appended at k of
 * list, piece number `nth` of the pair; whether there was one. */
static int add_piece(sort_call *c, clprim_mpi__piece *list, size_t *k, int peer, size_t at,
                     size_t count, size_t nth)
{
    const size_t e = c->mv.elems;
    if (nth * e >= count)
        return 0;
    list[*k].peer = peer;
    list[*k].nth = nth;
    list[*k].at = at + nth * e;
    list[*k].count = count - nth * e < e ? count - nth * e : e;
    ++*k;
    return 1;
}

/* The keys rank `from` sends rank `to` (from its cuts). */
static size_t run(const sort_call *c, size_t from, size_t to)
{
    const unsigned long long *row = c->cuts + from * ((size_t)c->size + 1) + to;
    return (size_t)(row[1] - row[0]);
}

/* The pieces out (from the temporary) and in (to the output, after the
 * runs of the ranks before), the peers round robin: each rank first
 * serves the rank after it and hears from the one before it. The copy of
 * what stays is enqueued here. */
static clprim_status plan(sort_call *c, cl_mem keys_out, size_t keys_out_off, cl_mem values_out,
                          size_t values_out_off)
{
    const size_t p = (size_t)c->size, me = (size_t)c->rank;
    clprim_mpi__moves *m = &c->mv;
    size_t q, d, nth, most = 0, total, big = 0, *at = calloc(p, sizeof *at);
    int more = 1;
    /* pieces no larger than the largest run one rank sends another: small
     * sorts take small slots (the same on every rank, which share the
     * slots' layout) */
    for (q = 0; q < p * p; ++q)
        if (q / p != q % p)
            big = run(c, q / p, q % p) > big ? run(c, q / p, q % p) : big;
    if (big && big < m->elems)
        m->elems = big;
    /* where each rank's run lands among those received, in rank order */
    for (q = 0; at && q < p; ++q) {
        most = run(c, me, q) > most ? run(c, me, q) : most;
        most = run(c, q, me) > most ? run(c, q, me) : most;
        if (q + 1 < p)
            at[q + 1] = at[q] + run(c, q, me);
    }
    total = (most + m->elems - 1) / m->elems * p + p;
    m->out = malloc(total * sizeof *m->out);
    m->in = malloc(total * sizeof *m->in);
    if (!at || !m->out || !m->in) {
        free(at);
        return clprim_mpi__fail(c->ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    for (nth = 0; more; ++nth) {
        more = 0;
        for (d = 1; d < p; ++d) {
            const size_t to = (me + d) % p, from = (me + p - d) % p;
            more |= add_piece(c, m->out, &m->outs, (int)to, c->cuts[me * (p + 1) + to],
                              run(c, me, to), nth);
            more |= add_piece(c, m->in, &m->ins, (int)from, at[from], run(c, from, me), nth);
        }
    }
    /* what stays: from its place among this rank's keys to its place among
     * the runs received */
    {
        const size_t from = c->cuts[me * (p + 1) + me], count = run(c, me, me);
        cl_int err = CL_SUCCESS;
        if (count)
            err = clEnqueueCopyBuffer(c->q, c->tk, keys_out, from * c->ks,
                                      (keys_out_off + at[me]) * c->ks, count * c->ks, 0, NULL,
                                      NULL);
        if (count && err == CL_SUCCESS && c->vs)
            err = clEnqueueCopyBuffer(c->q, c->tv, values_out, from * c->vs,
                                      (values_out_off + at[me]) * c->vs, count * c->vs, 0, NULL,
                                      NULL);
        clprim_mpi__device_failed(c->ctx, &c->st, err, "copying the keys that stay");
    }
    free(at);
    return CLPRIM_SUCCESS;
}

/* A piece's bytes: CLPRIM_MPI_PIECE_BYTES where set (tests: many pieces
 * from small inputs), else SORT_PIECE_BYTES; at most 1 GiB (MPI's int
 * counts). Rank 0's is taken by all. */
static unsigned long long piece_bytes(void)
{
    const char *v = getenv("CLPRIM_MPI_PIECE_BYTES");
    const unsigned long long b = v ? strtoull(v, NULL, 0) : 0;
    return b ? (b < (1ull << 30) ? b : 1ull << 30) : SORT_PIECE_BYTES;
}

/* Everything the call holds (the transport's first: its writes finish). */
static void release(sort_call *c)
{
    if (c->moving)
        clprim_mpi__moves_release(&c->mv);
    if (c->tk)
        clReleaseMemObject(c->tk);
    if (c->tv)
        clReleaseMemObject(c->tv);
    free(c->sizes);
    free(c->cuts);
    free(c->sample);
    free(c->window);
    free(c->window_of);
    free(c->lo);
    free(c->hi);
    free(c->goal);
    free(c->mine);
    free(c->sum);
    free(c->both);
    free(c->mv.out);
    free(c->mv.in);
}

clprim_status clprim_mpi_sort(MPI_Comm comm, clprim_context *ctx, const clprim_sort_desc *desc,
                              cl_mem keys, size_t keys_off, cl_mem keys_out, size_t keys_out_off,
                              cl_mem values, size_t values_off, cl_mem values_out,
                              size_t values_out_off, size_t n)
{
    static const char fields[] = "key type, value size, direction or bit range";
    sort_call c;
    unsigned long long mine[2];
    clprim_status st = CLPRIM_SUCCESS;
    long long sig = 0;
    int e, q;

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
        c.q = clprim_context_queue(ctx);
        c.vs = desc->value_size;
        c.bits = desc->end_bit ? desc->end_bit - desc->begin_bit : (unsigned)c.ks * 8;
        if (desc->end_bit && (desc->end_bit > c.ks * 8 || desc->begin_bit > desc->end_bit))
            st = clprim_mpi__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                  "desc->begin_bit, end_bit = %u, %u: outside the key's %u bits",
                                  desc->begin_bit, desc->end_bit, (unsigned)c.ks * 8);
        /* every other field, and the buffers, as clprim_sort checks them;
         * one rank alone sorts into the output, and is done */
        else if (c.size == 1)
            st = clprim_mpi__finish(ctx, clprim_sort(ctx, NULL, desc, keys, keys_off, keys_out,
                                                     keys_out_off, values, values_off, values_out,
                                                     values_out_off, n, 0, NULL, NULL));
        else
            st = local_part(&c, keys, keys_off, keys_out, keys_out_off, values, values_off,
                            values_out, values_out_off);
        sig = ((((long long)desc->key_type * 131 + (long long)desc->value_size) * 2 +
                (desc->descending != 0)) * 131 + desc->begin_bit) * 131 + desc->end_bit + 1;
    }
    st = clprim_mpi__agree(comm, ctx, c.rank, st, sig, fields);
    if (st != CLPRIM_SUCCESS || c.size == 1)
        goto done;
    mine[0] = n;
    mine[1] = piece_bytes();
    if ((e = MPI_Allgather(mine, 2, MPI_UNSIGNED_LONG_LONG, c.both, 2, MPI_UNSIGNED_LONG_LONG,
                           comm)) != MPI_SUCCESS) {
        st = clprim_mpi__mpi_fail(ctx, e, "MPI_Allgather (the ranks' sizes)");
        goto done;
    }
    for (q = 0; q < c.size; ++q)
        c.sizes[q] = c.both[2 * q];
    c.mv = (clprim_mpi__moves){.comm = comm, .ctx = ctx, .rank = c.rank, .size = c.size,
                               .ks = c.ks, .vs = c.vs, .from_keys = c.tk, .from_values = c.tv,
                               .to_keys = keys_out, .to_values = values_out,
                               .to_keys_off = keys_out_off, .to_values_off = values_out_off};
    c.mv.elems = (size_t)(c.both[1] / (c.ks + c.vs));
    c.mv.elems = c.mv.elems ? c.mv.elems : 1;
    st = split(&c);
    if (st == CLPRIM_SUCCESS)
        st = plan(&c, keys_out, keys_out_off, values_out, values_out_off);
    c.moving = 1;
    st = clprim_mpi__moves_prepare(&c.mv, st); /* (collective whatever st is) */
    st = clprim_mpi__agree(comm, ctx, c.rank, st != CLPRIM_SUCCESS ? st : c.st, sig, fields);
    if (st == CLPRIM_SUCCESS) {
        st = clprim_mpi__moves_run(&c.mv);
        if (st == CLPRIM_SUCCESS)
            st = c.st != CLPRIM_SUCCESS ? c.st : c.mv.st;
        st = clprim_mpi__agree(comm, ctx, c.rank, st, sig, fields);
    }
    if (st == CLPRIM_SUCCESS)
        st = clprim_mpi__finish(ctx, clprim_sort(ctx, NULL, desc, keys_out, keys_out_off, keys_out,
                                                 keys_out_off, values_out, values_out_off,
                                                 values_out, values_out_off, n, 0, NULL, NULL));
done:
    release(&c);
    return st;
}

/* SPDX-License-Identifier: MIT */
/* Pieces of elements moved between the ranks' devices (mpi_internal.h:
 * clprim_mpi__moves), for clprim_mpi_sort. NVIDIA's OpenCL gives MPI no
 * device pointers, so every piece is staged through host memory; what
 * decides the speed is how many times the host touches it. Two transports:
 *
 * SHARED, when every rank is on one host: each rank's pieces are read from
 * its device straight into slots of an MPI shared-memory window
 * (MPI_Win_allocate_shared), and the receiving rank writes them to its
 * device straight from there: no host copy at all. Each pair of ranks has
 * SLOTS slots in the sender's part of the window, a ring whose sequence
 * words (a "full" word the sender sets, an "empty" word the receiver sets)
 * live beside them. Every process wraps the parts it touches in a
 * CL_MEM_USE_HOST_PTR buffer, which makes the driver pin them: plain reads
 * and writes from that memory then run at the pinned rate (on an H100,
 * 2 GiB down and up: 86 ms, against 476 ms unpinned and 81 ms through a
 * CL_MEM_ALLOC_HOST_PTR buffer; bench/2026-11-27-h200x2/run4.sh).
 *
 * MESSAGES, otherwise (or with CLPRIM_MPI_SHARED=0 on rank 0): SLOTS
 * pinned slots each way (a CL_MEM_ALLOC_HOST_PTR buffer, mapped), a piece
 * read into a send slot and sent with MPI_Isend once there, received with
 * MPI_Irecv into a receive slot and written from it; MPI copies each piece
 * through its own buffers (between processes of one host: 2-4 GB/s).
 *
 * Both: reads on the context's queue, writes on a second queue (both copy
 * directions at once), the reads, hand-overs and writes of different
 * pieces overlapping; each pair's pieces in order. A device failure does
 * not stop a rank's part of the protocol (its peers would wait forever):
 * the pieces go on, garbage, and m->st says what failed. */
#include "mpi_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 4
#define CTRL_ALIGN 4096 /* (the slots page-aligned for the copy engines) */

/* Whether the event (NULL: nothing enqueued) has completed, or failed. */
static int done(clprim_mpi__moves *m, cl_event ev)
{
    cl_int status = CL_QUEUED, err;
    if (!ev)
        return 1;
    err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    clprim_mpi__device_failed(m->ctx, &m->st,
                              err != CL_SUCCESS ? err : status < 0 ? status : CL_SUCCESS,
                              "staging a piece");
    return err != CL_SUCCESS || status <= CL_COMPLETE;
}

static void forget(cl_event *ev)
{
    if (*ev)
        clReleaseEvent(*ev);
    *ev = NULL;
}

/* A piece moved between the device and host (keys, then values after
 * elems keys), its event in *ev: read from the sources, or written to the
 * destinations. */
static void stage(clprim_mpi__moves *m, int write, const clprim_mpi__piece *pc,
                  unsigned char *host, cl_event *ev)
{
    const cl_command_queue q = write ? m->s.wq : clprim_context_queue(m->ctx);
    const cl_mem k = write ? m->to_keys : m->from_keys, v = write ? m->to_values : m->from_values;
    const size_t ko = (write ? m->to_keys_off : 0) + pc->at,
                 vo = (write ? m->to_values_off : 0) + pc->at;
    unsigned char *hv = host + m->elems * m->ks;
    cl_int err;
    *ev = NULL;
    err = write ? clEnqueueWriteBuffer(q, k, CL_FALSE, ko * m->ks, pc->count * m->ks, host, 0, NULL,
                                       m->vs ? NULL : ev)
                : clEnqueueReadBuffer(q, k, CL_FALSE, ko * m->ks, pc->count * m->ks, host, 0, NULL,
                                      m->vs ? NULL : ev);
    if (err == CL_SUCCESS && m->vs)
        err = write ? clEnqueueWriteBuffer(q, v, CL_FALSE, vo * m->vs, pc->count * m->vs, hv, 0,
                                           NULL, ev)
                    : clEnqueueReadBuffer(q, v, CL_FALSE, vo * m->vs, pc->count * m->vs, hv, 0,
                                          NULL, ev);
    if (err == CL_SUCCESS)
        err = clFlush(q);
    clprim_mpi__device_failed(m->ctx, &m->st, err,
                              write ? "writing a piece to the device"
                                    : "reading a piece from the device");
}

/* ---- SHARED ---------------------------------------------------------- */

/* Rank from's sequence word of pair (from -> r), slot k: "full" (set by s:
 * piece nth there is nth + 1) or "empty" (set by r: piece nth taken).
 * Sender's and receiver's own loads and stores of them, with acquire and
 * release order, are the whole hand-over (x86 and Arm keep them so for
 * memory that two processes map). */
static uint64_t *word(clprim_mpi__moves *m, int from, int r, size_t k, int empty)
{
    const size_t p = (size_t)m->size;
    return (uint64_t *)m->s.base[from] + (empty ? p * SLOTS : 0) + (size_t)r * SLOTS + k;
}

static unsigned char *slot(clprim_mpi__moves *m, int from, int r, size_t k)
{
    return m->s.base[from] + m->s.ctrl + ((size_t)r * SLOTS + k) * m->s.slot;
}

static clprim_status shared_prepare(clprim_mpi__moves *m, clprim_status st)
{
    struct clprim_mpi__moves_state *s = &m->s;
    const size_t p = (size_t)m->size;
    const cl_context cx = clprim_context_cl_context(m->ctx);
    MPI_Aint bytes;
    unsigned char *mine = NULL;
    int e, q, unit;
    s->slot = m->elems * (m->ks + m->vs);
    s->slot = (s->slot + CTRL_ALIGN - 1) / CTRL_ALIGN * CTRL_ALIGN;
    s->ctrl = (2 * p * SLOTS * sizeof(uint64_t) + CTRL_ALIGN - 1) / CTRL_ALIGN * CTRL_ALIGN;
    s->part = s->ctrl + p * SLOTS * s->slot;
    /* (collective on the host's ranks: made whatever st says) */
    e = MPI_Win_allocate_shared((MPI_Aint)s->part, 1, MPI_INFO_NULL, s->node, &mine, &s->win);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (e != MPI_SUCCESS)
        return clprim_mpi__mpi_fail(m->ctx, e, "MPI_Win_allocate_shared (the sort's slots)");
    s->base = calloc(p, sizeof *s->base);
    s->wrapped = calloc(p, sizeof *s->wrapped);
    if (!s->base || !s->wrapped)
        return clprim_mpi__fail(m->ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    for (q = 0; q < m->size; ++q)
        if ((e = MPI_Win_shared_query(s->win, q, &bytes, &unit, &s->base[q])) != MPI_SUCCESS)
            return clprim_mpi__mpi_fail(m->ctx, e, "MPI_Win_shared_query");
    memset(s->base[m->rank], 0, s->ctrl);
    /* pinned in this process: its own part (reads) and its peers' (writes) */
    for (q = 0; q < m->size; ++q) {
        cl_int err = CL_SUCCESS;
        void *h;
        s->wrapped[q] = clCreateBuffer(cx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                       s->part - s->ctrl, s->base[q] + s->ctrl, &err);
        if (err == CL_SUCCESS) {
            h = clEnqueueMapBuffer(clprim_context_queue(m->ctx), s->wrapped[q], CL_TRUE,
                                   CL_MAP_READ, 0, s->part - s->ctrl, 0, NULL, NULL, &err);
            if (err == CL_SUCCESS)
                err = clEnqueueUnmapMemObject(clprim_context_queue(m->ctx), s->wrapped[q], h, 0,
                                              NULL, NULL);
        }
        if (err != CL_SUCCESS)
            return clprim_mpi__fail(m->ctx, err, "wrapping the sort's shared slots: %s",
                                    clprim_status_string(err));
    }
    return CLPRIM_SUCCESS;
}

/* The window and its wrappers (collective where the window was made). */
static void shared_release(clprim_mpi__moves *m)
{
    struct clprim_mpi__moves_state *s = &m->s;
    int r;
    for (r = 0; s->wrapped && r < m->size; ++r) /* (before the memory they wrap) */
        if (s->wrapped[r])
            clReleaseMemObject(s->wrapped[r]);
    if (s->locked)
        MPI_Win_unlock_all(s->win);
    s->locked = 0;
    if (s->win != MPI_WIN_NULL)
        MPI_Win_free(&s->win);
    free(s->base);
    free(s->wrapped);
    s->base = NULL;
    s->wrapped = NULL;
}

static int slot_free(clprim_mpi__moves *m, const clprim_mpi__piece *pc)
{
    return pc->nth < SLOTS ||
           __atomic_load_n(word(m, m->rank, pc->peer, pc->nth % SLOTS, 1), __ATOMIC_ACQUIRE) >=
               pc->nth - SLOTS + 1;
}

static clprim_status shared_run(clprim_mpi__moves *m)
{
    struct clprim_mpi__moves_state *s = &m->s;
    size_t read = 0, put = 0, taken = 0, landed = 0;
    int e = MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win);
    if (e != MPI_SUCCESS)
        return clprim_mpi__mpi_fail(m->ctx, e, "MPI_Win_lock_all");
    s->locked = 1;
    MPI_Win_sync(s->win);
    while (put < m->outs || landed < m->ins) {
        while (read < m->outs && slot_free(m, &m->out[read])) {
            const clprim_mpi__piece *pc = &m->out[read];
            stage(m, 0, pc, slot(m, m->rank, pc->peer, pc->nth % SLOTS), &s->out_ev[read]);
            ++read;
        }
        for (; put < read && done(m, s->out_ev[put]); ++put) {
            const clprim_mpi__piece *pc = &m->out[put];
            forget(&s->out_ev[put]);
            __atomic_store_n(word(m, m->rank, pc->peer, pc->nth % SLOTS, 0), pc->nth + 1,
                             __ATOMIC_RELEASE);
        }
        for (; taken < m->ins; ++taken) {
            const clprim_mpi__piece *pc = &m->in[taken];
            if (__atomic_load_n(word(m, pc->peer, m->rank, pc->nth % SLOTS, 0),
                                __ATOMIC_ACQUIRE) != pc->nth + 1)
                break;
            stage(m, 1, pc, slot(m, pc->peer, m->rank, pc->nth % SLOTS), &s->in_ev[taken]);
        }
        for (; landed < taken && done(m, s->in_ev[landed]); ++landed) {
            const clprim_mpi__piece *pc = &m->in[landed];
            forget(&s->in_ev[landed]);
            __atomic_store_n(word(m, pc->peer, m->rank, pc->nth % SLOTS, 1), pc->nth + 1,
                             __ATOMIC_RELEASE);
        }
    }
    return CLPRIM_SUCCESS;
}

/* ---- MESSAGES -------------------------------------------------------- */

/* A piece's messages: keys (tag 0) and values (tag 1). */
static int message(clprim_mpi__moves *m, int send, const clprim_mpi__piece *pc,
                   unsigned char *host, MPI_Request req[2])
{
    const int k = (int)(pc->count * m->ks), v = (int)(pc->count * m->vs);
    unsigned char *hv = host + m->elems * m->ks;
    int e;
    req[1] = MPI_REQUEST_NULL;
    e = send ? MPI_Isend(host, k, MPI_BYTE, pc->peer, 0, m->s.dup, &req[0])
             : MPI_Irecv(host, k, MPI_BYTE, pc->peer, 0, m->s.dup, &req[0]);
    if (e == MPI_SUCCESS && m->vs)
        e = send ? MPI_Isend(hv, v, MPI_BYTE, pc->peer, 1, m->s.dup, &req[1])
                 : MPI_Irecv(hv, v, MPI_BYTE, pc->peer, 1, m->s.dup, &req[1]);
    return e;
}

static clprim_status messages_prepare(clprim_mpi__moves *m, clprim_status st)
{
    struct clprim_mpi__moves_state *s = &m->s;
    const size_t bytes = 2 * SLOTS * m->elems * (m->ks + m->vs);
    cl_int err = CL_SUCCESS;
    const int e = MPI_Comm_dup(m->comm, &s->dup); /* (collective: whatever st says) */
    if (st != CLPRIM_SUCCESS)
        return st;
    if (e != MPI_SUCCESS)
        return clprim_mpi__mpi_fail(m->ctx, e, "MPI_Comm_dup");
    s->pinned = clCreateBuffer(clprim_context_cl_context(m->ctx),
                               CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        s->slots = clEnqueueMapBuffer(clprim_context_queue(m->ctx), s->pinned, CL_TRUE,
                                      CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return clprim_mpi__fail(m->ctx, err, "%zu bytes of pinned slots: %s", bytes,
                                clprim_status_string(err));
    return CLPRIM_SUCCESS;
}

/* Slot i % SLOTS takes piece i each way, so each pair's pieces are read,
 * sent, received and written in order. */
static clprim_status messages_run(clprim_mpi__moves *m)
{
    struct clprim_mpi__moves_state *s = &m->s;
    const size_t bytes = m->elems * (m->ks + m->vs);
    MPI_Request out[SLOTS][2], in[SLOTS][2];
    size_t read = 0, sent = 0, finished = 0, posted = 0, written = 0, landed = 0;
    int e = MPI_SUCCESS, flag;
#define OUT_HOST(k) (s->slots + (k) % SLOTS * bytes)
#define IN_HOST(k) (s->slots + (SLOTS + (k) % SLOTS) * bytes)
    while (e == MPI_SUCCESS && (finished < m->outs || landed < m->ins)) {
        for (; read < m->outs && read < finished + SLOTS; ++read)
            stage(m, 0, &m->out[read], OUT_HOST(read), &s->out_ev[read]);
        for (; e == MPI_SUCCESS && sent < read && done(m, s->out_ev[sent]); ++sent) {
            forget(&s->out_ev[sent]);
            e = message(m, 1, &m->out[sent], OUT_HOST(sent), out[sent % SLOTS]);
        }
        for (; e == MPI_SUCCESS && finished < sent; ++finished)
            if ((e = MPI_Testall(2, out[finished % SLOTS], &flag, MPI_STATUSES_IGNORE)) !=
                    MPI_SUCCESS || !flag)
                break;
        for (; e == MPI_SUCCESS && posted < m->ins && posted < landed + SLOTS; ++posted)
            e = message(m, 0, &m->in[posted], IN_HOST(posted), in[posted % SLOTS]);
        for (; e == MPI_SUCCESS && written < posted; ++written) {
            if ((e = MPI_Testall(2, in[written % SLOTS], &flag, MPI_STATUSES_IGNORE)) !=
                    MPI_SUCCESS || !flag)
                break;
            stage(m, 1, &m->in[written], IN_HOST(written), &s->in_ev[written]);
        }
        for (; landed < written && done(m, s->in_ev[landed]); ++landed)
            forget(&s->in_ev[landed]);
    }
#undef OUT_HOST
#undef IN_HOST
    if (e != MPI_SUCCESS)
        return clprim_mpi__mpi_fail(m->ctx, e, "a piece's message (MPI_Isend / MPI_Irecv)");
    return CLPRIM_SUCCESS;
}

/* ---- both ------------------------------------------------------------ */

clprim_status clprim_mpi__moves_prepare(clprim_mpi__moves *m, clprim_status st)
{
    const char *v = getenv("CLPRIM_MPI_SHARED");
    int want = !(v && v[0] == '0'), node_size = 0, e;
    cl_int err = CL_SUCCESS;
    m->s.node = MPI_COMM_NULL;
    m->s.dup = MPI_COMM_NULL;
    m->s.win = MPI_WIN_NULL;
    /* SHARED where every rank is on this host and rank 0 does not say no
     * (every rank makes the same choice, and the same collective calls) */
    if ((e = MPI_Bcast(&want, 1, MPI_INT, 0, m->comm)) != MPI_SUCCESS ||
        (e = MPI_Comm_split_type(m->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &m->s.node)) !=
            MPI_SUCCESS ||
        (e = MPI_Comm_size(m->s.node, &node_size)) != MPI_SUCCESS)
        return clprim_mpi__mpi_fail(m->ctx, e, "choosing the transport");
    m->shared = want && node_size == m->size;
    if (m->shared) {
        /* (a window the host cannot give, e.g. a small /dev/shm, on any
         * rank: messages instead, on every rank) */
        const clprim_status sh = shared_prepare(m, st);
        int ok = sh == CLPRIM_SUCCESS || st != CLPRIM_SUCCESS, all = 0;
        if ((e = MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, m->comm)) != MPI_SUCCESS)
            return clprim_mpi__mpi_fail(m->ctx, e, "choosing the transport");
        if (all) {
            st = sh;
        } else {
            shared_release(m);
            m->shared = 0;
        }
    }
    if (!m->shared)
        st = messages_prepare(m, st);
    if (st == CLPRIM_SUCCESS && (m->outs || m->ins))
        m->s.wq = clCreateCommandQueue(clprim_context_cl_context(m->ctx),
                                       clprim_context_device(m->ctx), 0, &err);
    if (st == CLPRIM_SUCCESS && err != CL_SUCCESS)
        st = clprim_mpi__fail(m->ctx, err, "a second queue: %s", clprim_status_string(err));
    if (st == CLPRIM_SUCCESS) {
        m->s.out_ev = calloc(m->outs + 1, sizeof *m->s.out_ev);
        m->s.in_ev = calloc(m->ins + 1, sizeof *m->s.in_ev);
        if (!m->s.out_ev || !m->s.in_ev)
            st = clprim_mpi__fail(m->ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    return st;
}

clprim_status clprim_mpi__moves_run(clprim_mpi__moves *m)
{
    const clprim_status st = m->shared ? shared_run(m) : messages_run(m);
    if (m->s.wq)
        clprim_mpi__device_failed(m->ctx, &m->st, clFinish(m->s.wq), "the pieces' writes");
    return st;
}

void clprim_mpi__moves_release(clprim_mpi__moves *m)
{
    struct clprim_mpi__moves_state *s = &m->s;
    const cl_command_queue q = m->ctx ? clprim_context_queue(m->ctx) : NULL;
    size_t i;
    if (s->wq)
        clFinish(s->wq);
    if (q)
        clFinish(q);
    for (i = 0; s->out_ev && i < m->outs; ++i)
        forget(&s->out_ev[i]);
    for (i = 0; s->in_ev && i < m->ins; ++i)
        forget(&s->in_ev[i]);
    if (s->slots) {
        clEnqueueUnmapMemObject(q, s->pinned, s->slots, 0, NULL, NULL);
        clFinish(q);
    }
    if (s->pinned)
        clReleaseMemObject(s->pinned);
    shared_release(m);
    if (s->dup != MPI_COMM_NULL)
        MPI_Comm_free(&s->dup);
    if (s->node != MPI_COMM_NULL)
        MPI_Comm_free(&s->node);
    if (s->wq)
        clReleaseCommandQueue(s->wq);
    free(s->out_ev);
    free(s->in_ev);
}

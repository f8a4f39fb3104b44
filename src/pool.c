/* SPDX-License-Identifier: MIT */
/* Temporary device memory, pooled per context so that the steady state makes
 * no clCreateBuffer per call.
 *
 * A buffer handed back is tagged with the queue and, when there was one, the
 * event of the last command that used it. It may be handed out again at once
 * to a caller on the same in-order queue (its commands run after the earlier
 * ones), and to anyone else once that event has completed. Calls on an
 * in-order queue make no event just for the pool: on NVIDIA's OpenCL an
 * enqueue with an event costs about 13 us of host time against 5 us without
 * it (measured on the H100), so such a buffer stays with its queue. Idle
 * buffers beyond POOL_KEEP are released whether or not their last commands
 * have finished: OpenCL deletes a memory object only once the commands
 * using it are done. Everything runs under the context's lock. */
#include "internal.h"

#include <stdlib.h>

struct clprim__pool_buf {
    cl_mem mem;
    size_t size;
    int busy;
    cl_command_queue queue; /* retained, so that its address cannot be reused */
    int queue_in_order;
    cl_event done;          /* retained, or NULL */
    cl_uint generation;     /* of the state kept in it; 0: contents unknown */
    cl_ulong layout;        /* where that state lies */
    int stateful;           /* this use keeps state in it */
    clprim__pool_buf *next;
};

/* Idle buffers kept beyond this many are freed once their work is done. */
#define POOL_KEEP 4

static int reusable(const clprim__pool_buf *b, cl_command_queue queue)
{
    cl_int status = CL_COMPLETE;
    if (b->busy)
        return 0;
    if (!b->queue || (b->queue == queue && b->queue_in_order))
        return 1; /* never used, or used earlier on this in-order queue */
    if (!b->done)
        return 0; /* when its last commands end is unknown */
    if (clGetEventInfo(b->done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                       NULL) != CL_SUCCESS)
        return 0;
    return status == CL_COMPLETE || status < 0;
}

static void free_buf(clprim__pool_buf *b)
{
    if (b->done)
        clReleaseEvent(b->done);
    if (b->queue)
        clReleaseCommandQueue(b->queue);
    clReleaseMemObject(b->mem);
    free(b);
}

clprim_status clprim__pool_acquire(clprim_context *ctx, cl_command_queue queue,
                                   size_t bytes, clprim__pool_buf **out)
{
    clprim__pool_buf **link, *b, *best = NULL;
    size_t idle = 0, alloc;
    cl_int err;

    /* the smallest reusable buffer that fits; free surplus idle ones */
    for (link = &ctx->pool; (b = *link) != NULL;) {
        int ok = reusable(b, queue);
        if (ok && b->size >= bytes && (!best || b->size < best->size))
            best = b;
        if (!b->busy && b != best && ++idle > POOL_KEEP) {
            *link = b->next;
            free_buf(b);
            continue;
        }
        link = &b->next;
    }
    if (best) {
        best->busy = 1;
        best->stateful = 0;
        *out = best;
        return CLPRIM_SUCCESS;
    }
    b = clprim__calloc(1, sizeof *b);
    if (!b)
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    /* round up to a power of two (at least 4 KiB) so that sizes settle quickly */
    for (alloc = 4096; alloc < bytes && alloc < ((size_t)1 << (sizeof(size_t) * 8 - 2));)
        alloc *= 2;
    if (alloc < bytes || alloc > ctx->info.max_alloc_size)
        alloc = bytes;
    b->mem = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, alloc, NULL, &err);
    if (err != CL_SUCCESS) {
        free(b);
        return clprim__fail(ctx, err, "allocating %zu bytes of temporary memory failed", alloc);
    }
    clprim__log(ctx, CLPRIM_LOG_DEBUG, "pool: new temporary buffer of %zu bytes", alloc);
    b->size = alloc;
    b->busy = 1;
    b->next = ctx->pool;
    ctx->pool = b;
    *out = b;
    return CLPRIM_SUCCESS;
}

cl_mem clprim__pool_mem(const clprim__pool_buf *buf)
{
    return buf->mem;
}

size_t clprim__pool_size(const clprim__pool_buf *buf)
{
    return buf->size;
}

cl_uint clprim__pool_generation(clprim__pool_buf *buf, cl_ulong layout, cl_uint limit,
                               cl_uint count, int *needs_zero)
{
    cl_uint first;
    /* under another layout, words of this call may lie where the last one
     * kept other values, which could read as state of the new generation */
    *needs_zero =
        buf->generation == 0 || buf->generation + count >= limit || buf->layout != layout;
    buf->layout = layout;
    first = *needs_zero ? 1 : buf->generation + 1;
    buf->generation = first + count - 1;
    buf->stateful = 1;
    return first;
}

void clprim__pool_release(clprim__pool_buf *buf, cl_command_queue queue, int in_order,
                          cl_event done, int failed)
{
    if (buf->done)
        clReleaseEvent(buf->done);
    buf->done = done;
    if (done)
        clRetainEvent(done);
    if (buf->queue)
        clReleaseCommandQueue(buf->queue);
    buf->queue = queue;
    clRetainCommandQueue(queue);
    buf->queue_in_order = in_order;
    if (!buf->stateful || failed)
        buf->generation = 0; /* other data overwrote any state, or its zero-fill or
                                its call's commands may never have run */
    buf->busy = 0;
}

void clprim__pool_destroy(clprim__pool_buf *first)
{
    clprim__pool_buf *next;
    for (; first; first = next) {
        next = first->next;
        free_buf(first);
    }
}

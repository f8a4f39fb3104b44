/* SPDX-License-Identifier: MIT */
/* The launch layer: what every primitive's call does around its own
 * kernels. A primitive describes its call with data (clprim__call: the
 * descriptor, element, algorithm range, queue, wait list, buffers) and
 * clprim__launch_begin checks it in one order for all; kernel arguments,
 * the enqueue chain, the call's temporary memory and the blocking helpers'
 * transfers are here too. */
#include "internal.h"

#include "common/abi.h"

#include <string.h>

clprim_status clprim__check_buffer(clprim_context *ctx, const char *what, cl_mem mem, size_t off,
                                   size_t n, size_t elem)
{
    size_t size = 0;
    cl_context owner = NULL;
    cl_mem_object_type type = 0;
    cl_int err;

    if (!mem)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "%s is NULL", what);
    err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "%s is not a valid memory object (%s)", what,
                            clprim_status_string(err));
    if (type != CL_MEM_OBJECT_BUFFER || owner != ctx->cl_ctx)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "%s is not a buffer of the context's cl_context", what);
    if (off > size / elem || n > size / elem - off)
        return clprim__fail(ctx, CLPRIM_OUT_OF_BOUNDS,
                            "%s: offset %zu + count %zu elements of %zu bytes exceed its %zu bytes",
                            what, off, n, elem, size);
    return CLPRIM_SUCCESS;
}

clprim_status clprim__check_queue(clprim_context *ctx, cl_command_queue *queue, cl_uint num_wait,
                                  const cl_event *wait)
{
    if (!*queue) {
        *queue = ctx->queue;
    } else {
        cl_context qctx = NULL;
        cl_device_id qdev = NULL;
        cl_int err = clGetCommandQueueInfo(*queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
        if (err == CL_SUCCESS)
            err = clGetCommandQueueInfo(*queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
        if (err != CL_SUCCESS)
            return clprim__fail(ctx, err, "queue is not a valid command queue");
        if (qctx != ctx->cl_ctx || qdev != ctx->device)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "queue belongs to another cl_context or device");
    }
    if ((num_wait == 0) != (wait == NULL))
        return clprim__fail(ctx, CL_INVALID_EVENT_WAIT_LIST,
                            "num_wait is %u but wait is %s", num_wait, wait ? "not NULL" : "NULL");
    /* drivers differ in how they treat a bad event (PoCL does not check), so
     * every one is checked here: valid, and of this context */
    for (cl_uint i = 0; i < num_wait; ++i) {
        cl_context ectx = NULL;
        if (!wait[i] || clGetEventInfo(wait[i], CL_EVENT_CONTEXT, sizeof ectx, &ectx, NULL) !=
                            CL_SUCCESS || ectx != ctx->cl_ctx)
            return clprim__fail(ctx, CL_INVALID_EVENT_WAIT_LIST,
                                "wait[%u] is not a valid event of the context's cl_context", i);
    }
    return CLPRIM_SUCCESS;
}

/* Test seam (not exported from the shared library): whether every kernel's
 * argument list is counted against the kernel's own CL_KERNEL_NUM_ARGS. On
 * in debug builds; tests/test_kernel_args.c turns it on in any build. */
#ifdef NDEBUG
int clprim__check_kernel_args = 0;
#else
int clprim__check_kernel_args = 1;
#endif

clprim_status clprim__check_arg_count(clprim_context *ctx, cl_kernel k, size_t count)
{
    char name[128];
    cl_uint want = 0;
    cl_int err = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof want, &want, NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "querying a kernel's argument count failed: %s",
                            clprim_status_string(err));
    if (count == want)
        return CLPRIM_SUCCESS;
    if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL) != CL_SUCCESS)
        strcpy(name, "(name unknown)");
    return clprim__fail(ctx, CLPRIM_INTERNAL, "kernel %s takes %u arguments but was given %zu",
                        name, want, count);
}

clprim_status clprim__set_args(clprim_context *ctx, cl_kernel k, const clprim__arg *args,
                               size_t count)
{
    size_t i;
    if (clprim__check_kernel_args) {
        clprim_status st = clprim__check_arg_count(ctx, k, count);
        if (st != CLPRIM_SUCCESS)
            return st;
    }
    for (i = 0; i < count; ++i) {
        cl_int err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            return clprim__fail(ctx, err, "clSetKernelArg(%zu) failed: %s", i,
                                clprim_status_string(err));
    }
    return CLPRIM_SUCCESS;
}

/* ---- enqueue chain ---- */

int clprim__queue_in_order(clprim_context *ctx, cl_command_queue queue)
{
    cl_command_queue_properties props = 0;
    clGetCommandQueueInfo(queue ? queue : ctx->queue, CL_QUEUE_PROPERTIES, sizeof props, &props,
                          NULL);
    return !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

static cl_int chain_begin(clprim__chain *c, cl_command_queue queue, cl_uint num_wait,
                          const cl_event *wait)
{
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    c->queue = queue;
    c->out_of_order = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    c->num_wait = num_wait;
    c->wait = wait;
    c->last = NULL;
    c->need_events = c->out_of_order;
    return err;
}

/* What the chain's next command waits for: the caller's wait list first;
 * later, the previous command (implied by an in-order queue, explicit on an
 * out-of-order one). */
static void chain_wait(const clprim__chain *c, cl_uint *num, const cl_event **wait)
{
    *num = c->last ? (c->out_of_order ? 1 : 0) : c->num_wait;
    *wait = c->last ? (c->out_of_order ? &c->last : NULL) : c->wait;
}

/* Makes ev (may be NULL) the chain's last command. */
static void chain_advance(clprim__chain *c, cl_event ev)
{
    if (c->last)
        clReleaseEvent(c->last);
    c->last = ev;
}

clprim_status clprim__chain_fill(clprim_context *ctx, clprim__chain *c, cl_mem mem, size_t offset,
                                 size_t bytes)
{
    const cl_uint zero = 0;
    const cl_event *wait;
    cl_event ev = NULL;
    cl_uint num;
    cl_int err;
    chain_wait(c, &num, &wait);
    err = clEnqueueFillBuffer(c->queue, mem, &zero, sizeof zero, offset, bytes, num, wait,
                              c->need_events ? &ev : NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "clEnqueueFillBuffer failed: %s", clprim_status_string(err));
    chain_advance(c, ev);
    return CLPRIM_SUCCESS;
}

clprim_status clprim__chain_copy(clprim_context *ctx, clprim__chain *c, cl_mem src,
                                 size_t src_offset, cl_mem dst, size_t dst_offset, size_t bytes)
{
    const cl_event *wait;
    cl_event ev = NULL;
    cl_uint num;
    cl_int err;
    chain_wait(c, &num, &wait);
    err = clEnqueueCopyBuffer(c->queue, src, dst, src_offset, dst_offset, bytes, num, wait,
                              c->need_events ? &ev : NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "clEnqueueCopyBuffer failed: %s", clprim_status_string(err));
    chain_advance(c, ev);
    return CLPRIM_SUCCESS;
}

clprim_status clprim__chain_kernel(clprim_context *ctx, clprim__chain *c, cl_kernel k,
                                   size_t groups, size_t wg_size)
{
    size_t global = groups * wg_size;
    const cl_event *wait;
    cl_event ev = NULL;
    cl_uint num;
    cl_int err;
    chain_wait(c, &num, &wait);
    err = clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg_size, num, wait,
                                 c->need_events ? &ev : NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "clEnqueueNDRangeKernel failed: %s", clprim_status_string(err));
    chain_advance(c, ev);
    return CLPRIM_SUCCESS;
}

/* Gives the chain's last event to *event (or a marker on the wait list when
 * nothing was enqueued), or releases it when event is NULL. */
static clprim_status chain_end(clprim_context *ctx, clprim__chain *c, cl_event *event)
{
    cl_int err = CL_SUCCESS;
    if (event) {
        if (!c->last) {
            err = clEnqueueMarkerWithWaitList(c->queue, c->num_wait, c->wait, &c->last);
            if (err != CL_SUCCESS)
                return clprim__fail(ctx, err, "clEnqueueMarkerWithWaitList failed: %s",
                                    clprim_status_string(err));
        }
        *event = c->last;
        c->last = NULL;
    } else if (c->last) {
        clReleaseEvent(c->last);
        c->last = NULL;
    }
    return CLPRIM_SUCCESS;
}

/* ---- one call ---- */

/* The refusal of in == out where a transform changes the element size
 * (in_elem bytes read, out_elem written), said the same by every call. */
static clprim_status refuse_resized_in_place(clprim_context *ctx, size_t in_elem, size_t out_elem)
{
    return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                        "a transform that changes the element size (%zu to %zu bytes) cannot run "
                        "in place (in == out)", in_elem, out_elem);
}

clprim_status clprim__check_transform_in_place(clprim__launch *l, const clprim_transform *tf,
                                               cl_mem in, cl_mem out)
{
    const size_t in_elem = clprim__transform_input_size(tf, l->elem.size);
    return in != out || in_elem == l->elem.size
               ? CLPRIM_SUCCESS
               : refuse_resized_in_place(l->ctx, in_elem, l->elem.size);
}

/* What the call writes must be writable, and must not overlap anything
 * else the call reads or writes in the same buffer (the kernels would read
 * what they have already written), except in == out over one range where
 * the primitive runs in place. */
static clprim_status check_overlaps(clprim_context *ctx, const clprim__call *c, size_t elem)
{
    int i, j;
    for (i = 0; i < c->num_buffers; ++i) {
        const clprim__call_buffer *b = &c->buffers[i];
        const size_t eb = b->elem ? b->elem : elem;
        cl_mem_flags flags = 0;
        cl_int err;
        if (!b->written)
            continue;
        err = clGetMemObjectInfo(b->mem, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
        if (err != CL_SUCCESS)
            return clprim__fail(ctx, err, "querying %s's flags failed: %s", b->name,
                                clprim_status_string(err));
        if (flags & CL_MEM_READ_ONLY)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "%s is read-only (CL_MEM_READ_ONLY) but the call writes it", b->name);
        for (j = 0; j < c->num_buffers; ++j) {
            const clprim__call_buffer *o = &c->buffers[j];
            const size_t eo = o->elem ? o->elem : elem;
            const size_t b0 = b->off * eb, b1 = b0 + b->count * eb;
            const size_t o0 = o->off * eo, o1 = o0 + o->count * eo;
            const int pair = (i ^ 1) == j && i / 2 < c->in_place;
            if (j == i || o->mem != b->mem || !b->count || !o->count || b1 <= o0 || o1 <= b0)
                continue;
            if (pair && b0 == o0 && b1 == o1)
                continue;
            if (pair && b0 == o0 && eb != eo)
                return refuse_resized_in_place(ctx, i < j ? eb : eo, i < j ? eo : eb);
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "%s [%zu, %zu) and %s [%zu, %zu) overlap in one buffer (bytes)%s",
                                o->name, o0, o1, b->name, b0, b1,
                                pair ? "; in place needs in == out with the same offset" : "");
        }
    }
    return CLPRIM_SUCCESS;
}

/* Validates the call as c describes and starts its chain; launch_end must
 * follow whatever this returns. */
static clprim_status launch_begin(clprim_context *ctx, clprim__launch *l, const clprim__call *c,
                                  int want_event)
{
    cl_command_queue queue = c->queue;
    clprim_status st;
    int i;

    memset(l, 0, sizeof *l);
    l->ctx = ctx;
    if (!c->desc)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    /* a field given is honoured or refused, never ignored (every primitive
     * with an operator comes through here) */
    if (c->custom && (c->type || c->op))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->%s: desc->custom brings its own "
                            "type and operator; leave type and op 0", c->type ? "type" : "op");
    st = clprim__element_resolve(ctx, c->type, c->op, c->custom, c->element, &l->elem);
    if (st != CLPRIM_SUCCESS)
        return st;
    if ((unsigned)c->algorithm >= (unsigned)c->algorithm_count)
        return clprim__fail(ctx, CLPRIM_UNKNOWN_ALGORITHM, "desc->algorithm %d is not a %s",
                            c->algorithm, c->algorithm_enum);
    st = clprim__check_queue(ctx, &queue, c->num_wait, c->wait);
    for (i = 0; i < c->num_buffers && st == CLPRIM_SUCCESS; ++i) {
        const clprim__call_buffer *b = &c->buffers[i];
        st = clprim__check_buffer(ctx, b->name, b->mem, b->off, b->count,
                                  b->elem ? b->elem : l->elem.size);
    }
    if (st == CLPRIM_SUCCESS)
        st = check_overlaps(ctx, c, l->elem.size);
    if (st != CLPRIM_SUCCESS)
        return st;
    st = chain_begin(&l->chain, queue, c->num_wait, c->wait);
    if (st != CL_SUCCESS)
        return clprim__fail(ctx, st, "clGetCommandQueueInfo failed: %s", clprim_status_string(st));
    l->chain.need_events |= want_event;
    return CLPRIM_SUCCESS;
}

clprim_status clprim__launch_temp(clprim__launch *l, size_t bytes, clprim__pool_buf **buf)
{
    clprim_status st;
    if (l->num_temps == CLPRIM__MAX_CALL_TEMPS)
        return clprim__fail(l->ctx, CLPRIM_INTERNAL, "more temporary buffers than a call may hold");
    st = clprim__pool_acquire(l->ctx, l->chain.queue, bytes, buf);
    if (st == CLPRIM_SUCCESS)
        l->temps[l->num_temps++] = *buf;
    return st;
}

void clprim__launch_temps_release(clprim__launch *l, int mark, clprim_status st)
{
    while (l->num_temps > mark) {
        clprim__pool_buf *b = l->temps[--l->num_temps];
        clprim__pool_release(b, l->chain.queue, !l->chain.out_of_order, l->chain.last,
                             st != CLPRIM_SUCCESS);
    }
}

/* Hands the temporary memory back and gives the chain's last event to
 * *event when st is CLPRIM_SUCCESS; returns st, or the failure of that
 * last step. */
static clprim_status launch_end(clprim__launch *l, clprim_status st, cl_event *event)
{
    int i;
    for (i = 0; i < l->num_temps; ++i)
        clprim__pool_release(l->temps[i], l->chain.queue, !l->chain.out_of_order, l->chain.last,
                             st != CLPRIM_SUCCESS);
    l->num_temps = 0;
    if (!l->chain.queue)
        return st; /* the call never started */
    if (st == CLPRIM_SUCCESS)
        return chain_end(l->ctx, &l->chain, event);
    chain_end(l->ctx, &l->chain, NULL);
    return st;
}

clprim_status clprim__launch_run_locked(clprim_context *ctx, const clprim__call *c,
                                        clprim__launch_body body, const void *args,
                                        cl_event *event)
{
    clprim__launch l;
    clprim_status st = launch_begin(ctx, &l, c, event != NULL);
    if (st == CLPRIM_SUCCESS)
        st = body(&l, args);
    return launch_end(&l, st, event);
}

clprim_status clprim__launch_run(clprim_context *ctx, const clprim__call *c,
                                 clprim__launch_body body, const void *args, cl_event *event)
{
    clprim_status st;
    if (event)
        *event = NULL;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    st = clprim__launch_run_locked(ctx, c, body, args, event);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* ---- the blocking helpers' transfers ---- */

clprim_status clprim__host_buffer_unlocked(clprim_context *ctx, size_t bytes, const void *src,
                                           cl_mem *mem)
{
    /* the host array copied in at creation, not by a blocking write: a
     * blocking write only frees the host array on return, and a command
     * after it on an out-of-order queue (a wrapped caller's queue) may still
     * run before it (seen on Intel's CPU runtime, in test_soak) */
    const int copy = src && bytes;
    cl_int err;
    *mem = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE | (copy ? CL_MEM_COPY_HOST_PTR : 0),
                          bytes ? bytes : 1, copy ? (void *)(uintptr_t)src : NULL, &err);
    if (err != CL_SUCCESS)
        return clprim__fail_unlocked(ctx, err, "allocating a device buffer of %zu bytes for the "
                                     "host array failed: %s", bytes, clprim_status_string(err));
    return CLPRIM_SUCCESS;
}

clprim_status clprim__host_read_unlocked(clprim_context *ctx, cl_mem mem, size_t bytes, void *dst,
                                         cl_uint num_wait, const cl_event *wait)
{
    cl_int err = clEnqueueReadBuffer(ctx->queue, mem, CL_TRUE, 0, bytes, dst, num_wait, wait, NULL);
    if (err != CL_SUCCESS)
        return clprim__fail_unlocked(ctx, err, "copying %zu bytes of the result back to the host "
                                     "failed: %s", bytes, clprim_status_string(err));
    return CLPRIM_SUCCESS;
}

/* Temporary memory for the rest of the call holding state that kernels
 * read before they write it, laid out as `layout` says: zeroed first (on
 * l's chain) unless the pool vouches for its words under that layout;
 * *generation (may be NULL) is the call's first of `generations` below
 * `limit`. The buffer goes back with the status of the call's work
 * (clprim__pool_release), so a failed call's state is never trusted. */
static clprim_status launch_state(clprim__launch *l, size_t bytes, cl_ulong layout,
                                  cl_uint limit, cl_uint generations, cl_mem *state,
                                  cl_uint *generation)
{
    clprim__pool_buf *buf;
    cl_uint first;
    int needs_zero;
    clprim_status st = clprim__launch_temp(l, bytes, &buf);
    if (st != CLPRIM_SUCCESS)
        return st;
    *state = clprim__pool_mem(buf);
    first = clprim__pool_generation(buf, layout, limit, generations, &needs_zero);
    if (generation)
        *generation = first;
    if (needs_zero)
        st = clprim__chain_fill(l->ctx, &l->chain, *state, 0, clprim__pool_size(buf));
    return st;
}

clprim_status clprim__launch_tile_state(clprim__launch *l, size_t tiles, size_t words,
                                        size_t value_size, cl_uint generations, cl_mem *state,
                                        cl_uint *generation)
{
    /* the layout: words per tile, or the slots' value size and tile count */
    return launch_state(l, CLPRIM_TILE_STATE_BYTES(tiles, words, value_size),
                        words ? words : ((cl_ulong)value_size << 40) | tiles,
                        CLPRIM_TILE_GENERATION_LIMIT, generations, state, generation);
}

clprim_status clprim__launch_reset_state(clprim__launch *l, size_t bytes, cl_mem *state)
{
    /* a layout no tile state has, and no generation kept in it */
    return launch_state(l, bytes, ~(cl_ulong)0, ~0u, 1, state, NULL);
}

clprim_status clprim__launch_kernel(clprim__launch *l, clprim__program *prog, const char *name,
                                    const clprim__arg *args, size_t count, size_t groups,
                                    size_t wg)
{
    cl_kernel kern;
    clprim_status st = clprim__program_kernel(l->ctx, prog, name, &kern);
    if (st == CLPRIM_SUCCESS)
        st = clprim__set_args(l->ctx, kern, args, count);
    if (st == CLPRIM_SUCCESS)
        st = clprim__chain_kernel(l->ctx, &l->chain, kern, groups, wg);
    return st;
}

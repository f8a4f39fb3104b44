/* Reduce: the levels that combine partial results on the device, and the
 * blocking helpers. Validation, arguments and the enqueue chain are the
 * launch layer's; the contract with the kernels is cl/reduce_abi.h. */
#include "internal.h"

#include "reduce_abi.h"

#include <stdlib.h>
#include <string.h>

static const char *const program_files[] = {"reduce_abi.h", "reduce.cl", NULL};

static const char *const kernels[CLPRIM_REDUCE_ALGORITHM_COUNT_] = {
    [CLPRIM_REDUCE_NAIVE_TREE] = "reduce_naive",
    [CLPRIM_REDUCE_CONVERGENT_TREE] = "reduce_convergent",
    [CLPRIM_REDUCE_FAST] = "reduce_fast",
};

/* Work-groups of one level over n elements. */
static size_t level_groups(clprim_reduce_algorithm a, const clprim__reduce_tuning *t,
                           const clprim_device_info *d, size_t n, const clprim__element *e)
{
    size_t per, groups, most;
    if (a != CLPRIM_REDUCE_FAST) {
        per = 2 * (size_t)t->wg_size;
        return n ? (n + per - 1) / per : 1;
    }
    per = (size_t)t->wg_size * REDUCE_ITEMS_PER_ROUND(e->builtin, e->size);
    groups = n ? (n + per - 1) / per : 1;
    most = (size_t)d->compute_units * t->groups_per_cu;
    return groups < most ? groups : most ? most : 1;
}

/* REDUCE_ARGS (cl/reduce.cl), and for reduce_fast (state != NULL) its
 * single-launch state buffer, which *state may leave NULL for two launches. */
static clprim_status set_args(clprim_context *ctx, cl_kernel k, cl_mem in, cl_ulong in_off,
                              cl_ulong n, cl_mem out, cl_ulong out_off, const cl_mem *state)
{
    const size_t sizes[] = {sizeof(cl_mem), 8, 8, sizeof(cl_mem), 8, sizeof(cl_mem)};
    const void *const values[] = {&in, &in_off, &n, &out, &out_off, state};
    return clprim__set_args(ctx, k, state ? 6 : 5, sizes, values);
}

/* reduce_fast in one launch: the last work-group to finish combines the
 * partials, kept with their counter in pooled memory (zeroed once, reset by
 * the kernel after each use). CLPRIM_REDUCE_TWO_LAUNCHES (development knob)
 * takes the two-launch path instead, to compare them. */
static clprim_status reduce_fast_once(clprim__launch *l, cl_kernel k, unsigned wg_size,
                                      cl_mem in, size_t in_off, size_t n, cl_mem result,
                                      size_t result_off, size_t groups)
{
    clprim_context *ctx = l->ctx;
    clprim__pool_buf *buf;
    cl_mem state = NULL;
    clprim_status st = CLPRIM_SUCCESS;
    if (groups > 1) {
        int needs_zero;
        st = clprim__launch_temp(l, REDUCE_STATE_PARTIALS_OFFSET + groups * l->elem.size, &buf);
        if (st != CLPRIM_SUCCESS)
            return st;
        state = clprim__pool_mem(buf);
        /* a counter left at 0 by every use: zeroed once (layout: a value no
         * tile state uses; no generation is kept in it) */
        clprim__pool_generation(buf, ~(cl_ulong)0, ~0u, &needs_zero);
        if (needs_zero)
            st = clprim__chain_fill(ctx, &l->chain, state, clprim__pool_size(buf));
    }
    if (st == CLPRIM_SUCCESS)
        st = set_args(ctx, k, in, in_off, n, result, result_off, &state);
    if (st == CLPRIM_SUCCESS)
        st = clprim__chain_kernel(ctx, &l->chain, k, groups, wg_size);
    return st;
}

static clprim_status reduce_locked(clprim_context *ctx, cl_command_queue queue,
                                   const clprim_reduce_desc *d, cl_mem in, size_t in_off,
                                   size_t n, cl_mem result, size_t result_off, cl_uint num_wait,
                                   const cl_event *wait, cl_event *event)
{
    clprim__call call = {d, 0, 0, NULL, 0, CLPRIM_REDUCE_ALGORITHM_COUNT_,
                         "clprim_reduce_algorithm", queue, num_wait, wait, 2,
                         {{"in", in, in_off, n, 0}, {"result", result, result_off, 1, 0}}};
    clprim__program_spec spec = {program_files, NULL, NULL, 0, NULL, 0};
    clprim__launch l;
    clprim__program *prog;
    clprim__pool_buf *buf = NULL;
    clprim__reduce_tuning t;
    clprim_reduce_algorithm algo;
    cl_kernel k;
    size_t elem, temp_n = 0, m, groups, off;
    cl_mem src;
    const cl_mem none = NULL;
    clprim_status st;

    if (d) {
        call.type = d->type;
        call.op = d->op;
        call.custom = d->custom;
        call.algorithm = (int)d->algorithm;
    }
    st = clprim__launch_begin(ctx, &l, &call, event != NULL);
    if (st != CLPRIM_SUCCESS)
        goto cleanup;

    elem = l.elem.size;
    t = clprim__reduce_tuning_for(&ctx->info, elem);
    /* the trees hold 2 * WG_SIZE elements in local memory */
    while (t.wg_size > 1 && 2 * (size_t)t.wg_size * elem + 1024 > ctx->info.local_mem_size)
        t.wg_size /= 2;
    spec.element = l.elem.defines;
    spec.wg_size = t.wg_size;
    st = clprim__program_get(ctx, &spec, &prog);
    if (st != CLPRIM_SUCCESS)
        goto cleanup;
    t.wg_size = clprim__program_wg_size(prog);
    algo = d->algorithm == CLPRIM_REDUCE_AUTO ? CLPRIM_REDUCE_FAST : d->algorithm;
    st = clprim__program_kernel(ctx, prog, kernels[algo], &k);
    if (st != CLPRIM_SUCCESS)
        goto cleanup;

    groups = level_groups(algo, &t, &ctx->info, n, &l.elem);
    if (algo == CLPRIM_REDUCE_FAST && !getenv("CLPRIM_REDUCE_TWO_LAUNCHES")) {
        st = reduce_fast_once(&l, k, t.wg_size, in, in_off, n, result, result_off, groups);
        goto cleanup;
    }
    /* partial results of every level but the last live in pooled memory */
    for (m = n; (groups = level_groups(algo, &t, &ctx->info, m, &l.elem)) > 1; m = groups)
        temp_n += groups;
    if (temp_n) {
        st = clprim__launch_temp(&l, temp_n * elem, &buf);
        if (st != CLPRIM_SUCCESS)
            goto cleanup;
    }
    /* level by level: in -> partials -> ... -> result[result_off] */
    src = in;
    off = in_off;
    m = n;
    temp_n = 0;
    do {
        const int last = (groups = level_groups(algo, &t, &ctx->info, m, &l.elem)) == 1;
        cl_mem dst = last ? result : clprim__pool_mem(buf);
        const size_t dst_off = last ? result_off : temp_n;
        st = set_args(ctx, k, src, off, m, dst, dst_off,
                      algo == CLPRIM_REDUCE_FAST ? &none : NULL); /* no state: two launches */
        if (st == CLPRIM_SUCCESS)
            st = clprim__chain_kernel(ctx, &l.chain, k, groups, t.wg_size);
        src = dst;
        off = dst_off;
        m = groups;
        temp_n += groups;
    } while (st == CLPRIM_SUCCESS && groups > 1);

cleanup:
    return clprim__launch_end(&l, st, event);
}

clprim_status clprim_reduce(clprim_context *ctx, cl_command_queue queue,
                            const clprim_reduce_desc *d, cl_mem in, size_t in_off, size_t n,
                            cl_mem result, size_t result_off, cl_uint num_wait,
                            const cl_event *wait, cl_event *event)
{
    clprim_status st;
    if (event)
        *event = NULL;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    st = reduce_locked(ctx, queue, d, in, in_off, n, result, result_off, num_wait, wait, event);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clprim_status clprim_reduce_value(clprim_context *ctx, const clprim_reduce_desc *d, cl_mem in,
                                  size_t in_off, size_t n, void *value)
{
    clprim__pool_buf *buf = NULL;
    cl_event done = NULL;
    clprim_status st;
    size_t elem;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!d || !value)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc or value is NULL");
    elem = clprim__element_size(d->type, d->custom);
    if (!elem)
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE, "desc->type %d is not a clprim_type",
                                   (int)d->type);
    /* the one-element result goes through pooled memory, so steady-state
     * calls allocate nothing */
    pthread_mutex_lock(&ctx->lock);
    st = clprim__pool_acquire(ctx, ctx->queue, elem, &buf);
    if (st == CLPRIM_SUCCESS)
        st = reduce_locked(ctx, NULL, d, in, in_off, n, clprim__pool_mem(buf), 0, 0, NULL, &done);
    if (st == CLPRIM_SUCCESS) {
        cl_int err = clEnqueueReadBuffer(ctx->queue, clprim__pool_mem(buf), CL_TRUE, 0, elem,
                                         value, 1, &done, NULL);
        if (err != CL_SUCCESS)
            st = clprim__fail(ctx, err, "copying the result back to the host failed: %s",
                              clprim_status_string(err));
    }
    if (buf) /* order unknown: wait for done */
        clprim__pool_release(buf, ctx->queue, 0, done, st != CLPRIM_SUCCESS);
    pthread_mutex_unlock(&ctx->lock);
    if (done)
        clReleaseEvent(done);
    return st;
}

clprim_status clprim_reduce_host(clprim_context *ctx, const clprim_reduce_desc *d, const void *in,
                                 size_t n, void *value)
{
    cl_mem buf = NULL;
    clprim_status st = CLPRIM_SUCCESS;
    size_t elem;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    elem = d ? clprim__element_size(d->type, d->custom) : 0;
    if (!elem || (n && !in))
        return clprim_reduce_value(ctx, d, NULL, 0, n, value); /* reports the bad argument */
    if (n && (n * elem) / n != elem)
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "n = %zu elements of %zu bytes "
                                     "overflow size_t", n, elem);
    st = clprim__host_buffer_unlocked(ctx, n * elem, in, &buf);
    if (st == CLPRIM_SUCCESS)
        st = clprim_reduce_value(ctx, d, buf, 0, n, value);
    if (buf)
        clReleaseMemObject(buf);
    return st;
}

clprim_status clprim_mean(clprim_context *ctx, clprim_type type, cl_mem in, size_t in_off,
                          size_t n, double *mean)
{
    clprim_reduce_desc d = {type, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL};
    union {
        cl_int i32;
        cl_uint u32;
        cl_long i64;
        cl_ulong u64;
        cl_float f;
        cl_double d;
    } sum;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!mean || n == 0)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                   mean ? "the mean of 0 elements is undefined" : "mean is NULL");
    st = clprim_reduce_value(ctx, &d, in, in_off, n, &sum);
    if (st != CLPRIM_SUCCESS)
        return st;
    switch (type) {
    case CLPRIM_TYPE_INT32: *mean = (double)sum.i32 / (double)n; break;
    case CLPRIM_TYPE_UINT32: *mean = (double)sum.u32 / (double)n; break;
    case CLPRIM_TYPE_INT64: *mean = (double)sum.i64 / (double)n; break;
    case CLPRIM_TYPE_UINT64: *mean = (double)sum.u64 / (double)n; break;
    case CLPRIM_TYPE_FLOAT: *mean = (double)(sum.f / (float)n); break;
    default: *mean = sum.d / (double)n; break;
    }
    return CLPRIM_SUCCESS;
}

/* SPDX-License-Identifier: MIT */
/* Reduce: the levels that combine partial results on the device, and the
 * blocking helpers. Validation, arguments and the enqueue chain are the
 * launch layer's; the contract with the kernels is cl/reduce_abi.h. */
#include "internal.h"

#include "portable_abi.h"
#include "reduce_abi.h"

#include <stdlib.h>
#include <string.h>

/* PORTABLE's levels (issue 33; cl/portable_abi.h): a level kernel like the
 * trees' (in portable.cl's programs), named after the algorithms. */
#define PORTABLE_LEVELS CLPRIM_REDUCE_ALGORITHM_COUNT_

static const char *const kernels[CLPRIM_REDUCE_ALGORITHM_COUNT_ + 1] = {
    [PORTABLE_LEVELS] = "reduce_portable",
    [CLPRIM_REDUCE_NAIVE_TREE] = "reduce_naive",
    [CLPRIM_REDUCE_CONVERGENT_TREE] = "reduce_convergent",
    [CLPRIM_REDUCE_FAST] = "reduce_fast",
    [CLPRIM_REDUCE_CHUNKED] = "reduce_chunk",
};

/* Work-groups of one level over n elements (PORTABLE: its tiles, whose
 * totals the level writes). */
static size_t level_groups(clprim_reduce_algorithm a, const clprim__reduce_tuning *t,
                           const clprim_device_info *d, size_t n, const clprim__element *e)
{
    size_t per, groups, most;
    if (a == CLPRIM_REDUCE_CHUNKED) /* the chunks' totals: one chunk below */
        return clprim__chunks(d, t->chunks_per_cu, n);
    if (a != CLPRIM_REDUCE_FAST) {
        per = (size_t)a == PORTABLE_LEVELS ? PORTABLE_TILE : 2 * (size_t)t->wg_size;
        return n ? (n + per - 1) / per : 1;
    }
    per = (size_t)t->wg_size * REDUCE_ITEMS_PER_ROUND(e->builtin, e->size);
    groups = n ? (n + per - 1) / per : 1;
    most = (size_t)d->compute_units * t->groups_per_cu;
    return groups < most ? groups : most ? most : 1;
}

/* One launch of kernel `name` of prog over REDUCE_ARGS (cl/reduce.cl),
 * and for reduce_fast (state != NULL) its single-launch state buffer,
 * which *state may leave NULL for two launches. */
static clprim_status launch_level(clprim__launch *l, clprim__program *prog, const char *name,
                                  cl_mem in, cl_ulong in_off, cl_ulong n, cl_mem out,
                                  cl_ulong out_off, const cl_mem *state, size_t groups,
                                  unsigned wg)
{
    const cl_mem s = state ? *state : NULL;
    const clprim__arg args[] = {CLPRIM__ARG(in),  CLPRIM__ARG(in_off),  CLPRIM__ARG(n),
                                CLPRIM__ARG(out), CLPRIM__ARG(out_off), CLPRIM__ARG(s)};
    /* the trees take REDUCE_ARGS alone: all but the state */
    return clprim__launch_kernel(l, prog, name, args, CLPRIM__NUM_ARGS(args) - !state, groups,
                                 wg);
}

/* reduce_fast in one launch: the last work-group to finish combines the
 * partials, kept with their counter in pooled memory (zeroed once, reset by
 * the kernel after each use: the launch layer's reset state).
 * CLPRIM_REDUCE_TWO_LAUNCHES (development knob) takes the two-launch path
 * instead, to compare them. */
static clprim_status reduce_fast_once(clprim__launch *l, clprim__program *prog, unsigned wg_size,
                                      cl_mem in, size_t in_off, size_t n, cl_mem result,
                                      size_t result_off, size_t groups)
{
    cl_mem state = NULL;
    clprim_status st = CLPRIM_SUCCESS;
    if (groups > 1)
        st = clprim__launch_reset_state(l, REDUCE_STATE_PARTIALS_OFFSET + groups * l->elem.size,
                                        &state);
    if (st == CLPRIM_SUCCESS)
        st = launch_level(l, prog, kernels[CLPRIM_REDUCE_FAST], in, in_off, n, result, result_off,
                          &state, groups, wg_size);
    return st;
}

/* The arguments of one clprim_reduce, for reduce_body. */
typedef struct reduce_args {
    const clprim_reduce_desc *d;
    cl_mem in, result;
    size_t in_off, n, result_off;
    int tiles_only; /* PORTABLE's first level alone: one total per tile to result */
} reduce_args;

/* One call, validated by the launch layer: parameters, program, grid, and
 * the levels (or reduce_fast's one launch). */
static clprim_status reduce_body(clprim__launch *l, const void *args)
{
    const reduce_args *a = args;
    clprim_context *ctx = l->ctx;
    const size_t elem = l->elem.size;
    clprim__program_spec spec = {.file = "reduce.cl", .element = l->elem.defines};
    clprim__program *prog, *below; /* the first level's; the later levels' */
    clprim__pool_buf *buf = NULL;
    clprim__reduce_tuning t = clprim__reduce_tuning_for(ctx, elem, a->n);
    clprim_reduce_algorithm algo =
        a->d->algorithm != CLPRIM_REDUCE_AUTO ? a->d->algorithm
        : t.reduce_auto                       ? (clprim_reduce_algorithm)t.reduce_auto
                                              : CLPRIM_REDUCE_FAST;
    size_t temp_n = 0, m, groups, off;
    cl_mem src;
    const cl_mem none = NULL;
    char *transform = NULL, *uncontracted = NULL;
    clprim_status st;
    clprim_repro level;
    int once;

    /* RUN_TO_RUN at no cost: every algorithm combines in an order fixed by
     * the device, n, offset and tuning (no atomics decide it); PORTABLE: the
     * portable levels, whatever the algorithm (it says how, not what) */
    st = clprim__repro_check(ctx, a->d->repro, a->d->type, a->d->op, a->d->custom,
                             CLPRIM_REPRO_PORTABLE, "the reduce", &level);
    if (st != CLPRIM_SUCCESS)
        return st;
    /* clprim_reduce_tiles is a step of the PORTABLE order at every level */
    if (a->tiles_only)
        level = CLPRIM_REPRO_PORTABLE;
    if (a->tiles_only && !a->n)
        return CLPRIM_SUCCESS; /* no tile */
    if (level == CLPRIM_REPRO_PORTABLE) {
        algo = (clprim_reduce_algorithm)PORTABLE_LEVELS;
        t.wg_size = clprim__portable_wg(ctx, &l->elem, t.portable_wg_size);
        spec.file = "portable.cl";
        spec.element = uncontracted = clprim__portable_element(ctx, &l->elem);
        if (!uncontracted)
            return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    once = algo == CLPRIM_REDUCE_FAST &&
           !clprim__switch(&ctx->knobs, CLPRIM__SWITCH_REDUCE_TWO_LAUNCHES, 0);
    /* the trees hold 2 * WG_SIZE elements in local memory (PORTABLE:
     * clprim__portable_wg saw to it) */
    while (level != CLPRIM_REPRO_PORTABLE && t.wg_size > 1 &&
           2 * (size_t)t.wg_size * elem + 1024 > ctx->info.local_mem_size)
        t.wg_size /= 2;
    spec.wg_size = t.wg_size;
    spec.tuning = t.source;
    st = clprim__transform_params(ctx, a->d->transform, &transform);
    /* levels after the first fold partials (elements of T): the program
     * without the transform */
    if (st == CLPRIM_SUCCESS)
        st = clprim__program_get(ctx, &spec, &below);
    prog = below;
    if (st == CLPRIM_SUCCESS && transform) {
        spec.params = transform;
        st = clprim__program_get(ctx, &spec, &prog);
        if (st == CLPRIM_SUCCESS &&
            clprim__program_wg_size(prog) != clprim__program_wg_size(below))
            st = clprim__fail(ctx, CLPRIM_UNSUPPORTED, "the transform's kernels run %u work-items "
                              "per work-group and the plain ones %u",
                              clprim__program_wg_size(prog), clprim__program_wg_size(below));
    }
    free(transform);
    free(uncontracted);
    if (st != CLPRIM_SUCCESS)
        return st;
    t.wg_size = clprim__program_wg_size(prog);
    if (level == CLPRIM_REPRO_PORTABLE && t.wg_size % PORTABLE_WG)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "desc->repro portable: the portable reduce "
                            "runs a multiple of %d work-items per work-group, which %s cannot",
                            PORTABLE_WG, ctx->info.device_name);

    groups = level_groups(algo, &t, &ctx->info, a->n, &l->elem);
    if (once)
        return reduce_fast_once(l, prog, t.wg_size, a->in, a->in_off, a->n, a->result, a->result_off,
                                groups);
    /* partial results of every level but the last live in pooled memory */
    for (m = a->n; (groups = level_groups(algo, &t, &ctx->info, m, &l->elem)) > 1; m = groups)
        temp_n += groups;
    if (temp_n) {
        st = clprim__launch_temp(l, temp_n * elem, &buf);
        if (st != CLPRIM_SUCCESS)
            return st;
    }
    /* level by level: in -> partials -> ... -> result[result_off] */
    src = a->in;
    off = a->in_off;
    m = a->n;
    temp_n = 0;
    do {
        const int last = (groups = level_groups(algo, &t, &ctx->info, m, &l->elem)) == 1 ||
                         a->tiles_only;
        cl_mem dst = last ? a->result : clprim__pool_mem(buf);
        const size_t dst_off = last ? a->result_off : temp_n;
        /* PORTABLE: wg_size / PORTABLE_WG tiles (groups) per work-group */
        const size_t per = (size_t)algo == PORTABLE_LEVELS ? t.wg_size / PORTABLE_WG : 1;
        st = launch_level(l, prog, kernels[algo], src, off, m, dst, dst_off,
                          algo == CLPRIM_REDUCE_FAST ? &none : NULL, /* no state: two launches */
                          (groups + per - 1) / per, algo == CLPRIM_REDUCE_CHUNKED ? 1u : t.wg_size);
        src = dst;
        off = dst_off;
        m = groups;
        temp_n += groups;
        prog = below;
    } while (st == CLPRIM_SUCCESS && groups > 1 && !a->tiles_only);
    return st;
}

/* The launch layer's description of a call. */
static void describe(clprim__call *c, const reduce_args *a, cl_command_queue queue,
                     cl_uint num_wait, const cl_event *wait)
{
    const clprim__call call = {
        .desc = a->d,
        .algorithm_count = CLPRIM_REDUCE_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_reduce_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 2,
        .buffers = {
            {.name = "in", .mem = a->in, .off = a->in_off, .count = a->n},
            {.name = "result",
             .mem = a->result,
             .off = a->result_off,
             .count = a->tiles_only ? (a->n + PORTABLE_TILE - 1) / PORTABLE_TILE : 1,
             .written = 1}}};
    *c = call;
    if (a->d) {
        c->type = a->d->type;
        c->op = a->d->op;
        c->custom = a->d->custom;
        c->algorithm = (int)a->d->algorithm;
        /* a transform's input: its own element size (0, an unknown type,
         * is refused by the body before the buffer is used) */
        if (a->d->transform)
            c->buffers[0].elem = clprim__transform_input_size(a->d->transform, 1);
    }
}

clprim_status clprim_reduce(clprim_context *ctx, cl_command_queue queue,
                            const clprim_reduce_desc *d, cl_mem in, size_t in_off, size_t n,
                            cl_mem result, size_t result_off, cl_uint num_wait,
                            const cl_event *wait, cl_event *event)
{
    const reduce_args a = {
        .d = d, .in = in, .result = result, .in_off = in_off, .n = n, .result_off = result_off};
    clprim__call call;
    describe(&call, &a, queue, num_wait, wait);
    return clprim__launch_run(ctx, &call, reduce_body, &a, event);
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
    if (st == CLPRIM_SUCCESS) {
        const reduce_args a = {
            .d = d, .in = in, .result = clprim__pool_mem(buf), .in_off = in_off, .n = n};
        clprim__call call;
        describe(&call, &a, NULL, 0, NULL);
        st = clprim__launch_run_locked(ctx, &call, reduce_body, &a, &done);
    }
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
    if (elem) /* the input's elements: a transform's own type */
        elem = clprim__transform_input_size(d->transform, elem);
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
    clprim_reduce_desc d = {.type = type, .op = CLPRIM_OP_SUM, .algorithm = CLPRIM_REDUCE_AUTO};
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

clprim_status clprim_reduce_tiles(clprim_context *ctx, cl_command_queue queue,
                                  const clprim_reduce_desc *d, cl_mem in, size_t in_off, size_t n,
                                  cl_mem result, size_t result_off, cl_uint num_wait,
                                  const cl_event *wait, cl_event *event)
{
    const reduce_args a = {.d = d, .in = in, .result = result, .in_off = in_off, .n = n,
                           .result_off = result_off, .tiles_only = 1};
    clprim__call call;
    describe(&call, &a, queue, num_wait, wait);
    return clprim__launch_run(ctx, &call, reduce_body, &a, event);
}

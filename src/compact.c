/* SPDX-License-Identifier: MIT */
/* Stream compaction: select, partition, unique and run-length encoding, in
 * one pass over the input (decoupled look-back over tile counts) or in the
 * taught three (flags, clprim's own scan of them, scatter). Validation,
 * arguments and the enqueue chain are the launch layer's; the contract with
 * the kernels is cl/compact_abi.h. */
#include "internal.h"

#include "common/abi.h"
#include "compact_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest element a compaction moves (registers and local memory per tile). */
#define MAX_ELEMENT_BYTES 64

/* The arguments of one call, for compact_body. */
typedef struct compact_args {
    const clprim_compact_desc *d;
    int mode; /* COMPACT_SELECT, ... (cl/compact_abi.h) */
    cl_mem in, out, lengths, count;
    size_t in_off, out_off, lengths_off, n, count_off;
} compact_args;

static int is_comparison(clprim_predicate p)
{
    return p <= CLPRIM_PREDICATE_NOT_EQUAL;
}

static int uses_predicate(int mode)
{
    return mode != COMPACT_UNIQUE && mode != COMPACT_RLE;
}

/* Whether the predicate reads a flags buffer instead of comparing elements. */
static int flags_predicate(clprim_predicate p)
{
    return p == CLPRIM_PREDICATE_FLAGS_U8 || p == CLPRIM_PREDICATE_FLAGS_U32;
}

/* What each mode is called in messages (cl/compact_abi.h's numbers). */
static const char *const mode_names[] = {"select", "partition", "partition", "unique",
                                         "run-length encoding"};

/* A field the call does not read is refused when it is not at its default
 * (issue 30: a field given is honoured or refused, never ignored). */
static clprim_status check_unused(clprim_context *ctx, const compact_args *a)
{
    const clprim_compact_desc *d = a->d;
    const char *call = mode_names[a->mode];
    const int flags = flags_predicate(d->predicate);
    if (d->element && d->type != CLPRIM_TYPE_INT32)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->type %d: the elements are "
                            "desc->element's; leave type 0", (int)d->type);
    if (a->mode != COMPACT_SELECT && (d->indices || d->indices_off))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->indices%s: select only; %s "
                            "writes no indices", d->indices ? "" : "_off", call);
    if (d->indices_off && !d->indices)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->indices_off is %zu but desc->indices is NULL", d->indices_off);
    if (a->mode != COMPACT_PARTITION && d->reverse_rejected)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->reverse_rejected: partition "
                            "only; %s writes no rejected elements", call);
    if (!uses_predicate(a->mode)) {
        const char *field = d->predicate != CLPRIM_PREDICATE_LESS ? "predicate"
                            : d->value                            ? "value"
                            : d->flags                            ? "flags"
                            : d->flags_off                        ? "flags_off"
                            : d->expression                       ? "expression"
                                                                  : NULL;
        if (field)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->%s: %s compares neighbours "
                                "and takes no predicate; leave the predicate's fields 0", field,
                                call);
        return CLPRIM_SUCCESS;
    }
    if (d->value && !is_comparison(d->predicate))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->value: for comparisons only; "
                            "desc->predicate is %s", clprim_predicate_name(d->predicate));
    if ((d->flags || d->flags_off) && !flags)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->%s: for the FLAGS_* predicates "
                            "only; desc->predicate is %s", d->flags ? "flags" : "flags_off",
                            clprim_predicate_name(d->predicate));
    if (d->expression && d->predicate != CLPRIM_PREDICATE_EXPRESSION)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->expression: for the EXPRESSION "
                            "predicate only; desc->predicate is %s",
                            clprim_predicate_name(d->predicate));
    return CLPRIM_SUCCESS;
}

/* The predicate's own checks (its buffer is the launch layer's). */
static clprim_status check_predicate(clprim_context *ctx, const compact_args *a,
                                     const clprim__element *e)
{
    const clprim_compact_desc *d = a->d;
    if (e->size > MAX_ELEMENT_BYTES)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "compaction moves elements of up to %d bytes; this one has %zu",
                            MAX_ELEMENT_BYTES, e->size);
    if (!uses_predicate(a->mode))
        return CLPRIM_SUCCESS;
    if ((unsigned)d->predicate >= CLPRIM_PREDICATE_COUNT_)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->predicate %d is not a clprim_predicate", (int)d->predicate);
    if (is_comparison(d->predicate) && (!e->builtin || !d->value))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            d->value ? "comparisons with a constant are for built-in types only"
                                     : "desc->value is NULL (the constant to compare with)");
    if (d->predicate == CLPRIM_PREDICATE_EXPRESSION) {
        const char *x = d->expression;
        while (x && (*x == ' ' || *x == '\t' || *x == '\n'))
            ++x;
        if (!x || !*x)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->expression is empty");
    }
    return CLPRIM_SUCCESS;
}

/* The build's defines: mode, predicate (with the caller's expression), tile. */
static char *compact_params(const compact_args *a, int mode, unsigned items, unsigned spins,
                            int positions, int loop)
{
    const clprim_compact_desc *d = a->d;
    const int pred = uses_predicate(mode) ? (int)d->predicate : COMPACT_PRED_HEADS;
    if (pred == CLPRIM_PREDICATE_EXPRESSION)
        return clprim__format("#define MODE %d\n#define PRED %d\n#define ITEMS %u\n"
                              "#define COMPACT_POSITIONS %d\n#define LOOKBACK_SPINS %u\n"
                              "#define COMPACT_LOOPED %d\n"
                              "#define CLPRIM_USER_KEEP 1\n#line 1 \"predicate expression\"\n"
                              "inline int clprim_user_keep(T x, ulong i) { return (%s); }\n",
                              mode, pred, items, positions, spins, loop, d->expression);
    return clprim__format("#define MODE %d\n#define PRED %d\n#define ITEMS %u\n"
                          "#define COMPACT_POSITIONS %d\n#define LOOKBACK_SPINS %u\n"
                          "#define COMPACT_LOOPED %d\n", mode, pred, items, positions, spins, loop);
}

/* Whether the single pass is built to loop over tiles on a bounded grid. */
static int looped(const clprim_context *ctx, const clprim__compact_tuning *t)
{
    return t->groups_per_cu && ctx->info.compute_units;
}

/* Arguments shared by every kernel: in, in_off, (out, out_off,) n, flags,
 * flags_off, value. */
typedef struct kernel_in {
    cl_mem in, out, flags;
    cl_ulong in_off, out_off, n, flags_off;
    unsigned char value[MAX_ELEMENT_BYTES];
    size_t elem;
} kernel_in;

static clprim_status single_pass(clprim__launch *l, clprim__program *prog, const compact_args *a,
                                 const kernel_in *k, int mode, unsigned wg, unsigned items,
                                 const clprim__compact_tuning *t)
{
    clprim_context *ctx = l->ctx;
    const cl_ulong tile = (cl_ulong)wg * items, tiles = (k->n + tile - 1) / tile;
    const cl_ulong indices_off = a->d->indices_off, lengths_off = a->lengths_off,
                   count_off = a->count_off;
    cl_mem state = NULL, indices = mode == COMPACT_SELECT ? a->d->indices : NULL;
    cl_uint generation = 0, kflags = indices ? COMPACT_WITH_INDICES : 0;
    clprim_status st = CLPRIM_SUCCESS;

    if (tiles == 1) {
        kflags |= COMPACT_ONE_TILE;
    } else {
        st = clprim__launch_tile_state(l, tiles, mode == COMPACT_RLE ? 0 : 2, 16, 1, &state,
                                       &generation);
        if (st != CLPRIM_SUCCESS)
            return st;
    }
    if (st == CLPRIM_SUCCESS && mode == COMPACT_PARTITION) {
        /* the stable partition places rejected elements after all kept ones:
         * their number first, in a pass that only reads */
        const cl_ulong most = (cl_ulong)ctx->info.compute_units * t->count_groups_per_cu;
        const cl_ulong groups = (k->n + wg - 1) / wg < most ? (k->n + wg - 1) / wg : most;
        const clprim__arg args[] = {CLPRIM__ARG(k->in),        CLPRIM__ARG(k->in_off),
                                    CLPRIM__ARG(k->n),         CLPRIM__ARG(k->flags),
                                    CLPRIM__ARG(k->flags_off),
                                    CLPRIM__ARG_BYTES(k->value, k->elem),
                                    CLPRIM__ARG(a->count),     CLPRIM__ARG(count_off)};
        kflags |= COMPACT_KNOWN_TOTAL;
        st = clprim__chain_fill(ctx, &l->chain, a->count, a->count_off * 8, 8);
        if (st == CLPRIM_SUCCESS)
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "compact_count", args, groups ? groups : 1, wg);
    }
    if (st == CLPRIM_SUCCESS) {
        /* each work-group scans tiles until the tickets run out */
        const cl_ulong most = (cl_ulong)ctx->info.compute_units * t->groups_per_cu;
        const cl_ulong groups = looped(ctx, t) && most < tiles ? most : tiles;
        const clprim__arg args[] = {CLPRIM__ARG(k->in),        CLPRIM__ARG(k->in_off),
                                    CLPRIM__ARG(k->out),       CLPRIM__ARG(k->out_off),
                                    CLPRIM__ARG(k->n),         CLPRIM__ARG(k->flags),
                                    CLPRIM__ARG(k->flags_off),
                                    CLPRIM__ARG_BYTES(k->value, k->elem),
                                    CLPRIM__ARG(indices),      CLPRIM__ARG(indices_off),
                                    CLPRIM__ARG(a->lengths),   CLPRIM__ARG(lengths_off),
                                    CLPRIM__ARG(a->count),     CLPRIM__ARG(count_off),
                                    CLPRIM__ARG(state),        CLPRIM__ARG(generation),
                                    CLPRIM__ARG(kflags)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "compact_single_pass", args, (size_t)groups, wg);
    }
    return st;
}

/* The taught form: flags, an exclusive scan of them (n + 1 of them, so the
 * last position is the count), scatter. */
static clprim_status three_pass(clprim__launch *l, clprim__program *prog, const compact_args *a,
                                const kernel_in *k, int mode, unsigned wg)
{
    const clprim_scan_desc sum = {.type = CLPRIM_TYPE_UINT64,
                                  .op = CLPRIM_OP_SUM,
                                  .exclusive = 1,
                                  .algorithm = CLPRIM_SCAN_AUTO};
    const cl_ulong indices_off = a->d->indices_off, lengths_off = a->lengths_off,
                   count_off = a->count_off;
    cl_mem indices = mode == COMPACT_SELECT ? a->d->indices : NULL, positions;
    cl_uint kflags = indices ? COMPACT_WITH_INDICES : 0;
    clprim__pool_buf *buf;
    clprim_status st = clprim__launch_temp(l, ((size_t)k->n + 1) * 8, &buf);
    if (st != CLPRIM_SUCCESS)
        return st;
    positions = clprim__pool_mem(buf);
    {
        const clprim__arg args[] = {CLPRIM__ARG(k->in),        CLPRIM__ARG(k->in_off),
                                    CLPRIM__ARG(k->n),         CLPRIM__ARG(k->flags),
                                    CLPRIM__ARG(k->flags_off),
                                    CLPRIM__ARG_BYTES(k->value, k->elem),
                                    CLPRIM__ARG(positions)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "compact_flags", args, (size_t)(k->n + wg) / wg, wg);
    }
    if (st == CLPRIM_SUCCESS)
        st = clprim__scan_within(l, &sum, positions, 0, positions, 0, (size_t)k->n + 1);
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg args[] = {CLPRIM__ARG(k->in),      CLPRIM__ARG(k->in_off),
                                    CLPRIM__ARG(k->out),     CLPRIM__ARG(k->out_off),
                                    CLPRIM__ARG(k->n),       CLPRIM__ARG(positions),
                                    CLPRIM__ARG(indices),    CLPRIM__ARG(indices_off),
                                    CLPRIM__ARG(a->lengths), CLPRIM__ARG(lengths_off),
                                    CLPRIM__ARG(a->count),   CLPRIM__ARG(count_off),
                                    CLPRIM__ARG(kflags)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "compact_scatter", args, (size_t)(k->n + wg - 1) / wg,
                                   wg);
    }
    return st;
}

/* CHUNKED, the CPU form: each chunk's kept count, then each chunk written
 * from the count before it (chunks work-groups of one work-item). */
static clprim_status chunked(clprim__launch *l, clprim__program *prog, const compact_args *a,
                             const kernel_in *k, int mode, const clprim__compact_tuning *t)
{
    const size_t chunks = clprim__chunks(&l->ctx->info, t->chunks_per_cu, (size_t)k->n);
    const cl_ulong indices_off = a->d->indices_off, lengths_off = a->lengths_off,
                   count_off = a->count_off;
    cl_mem indices = mode == COMPACT_SELECT ? a->d->indices : NULL, counts;
    cl_uint kflags = indices ? COMPACT_WITH_INDICES : 0;
    clprim__pool_buf *buf;
    clprim_status st = clprim__launch_temp(l, chunks * 8, &buf);
    if (st != CLPRIM_SUCCESS)
        return st;
    counts = clprim__pool_mem(buf);
    {
        const clprim__arg args[] = {CLPRIM__ARG(k->in),        CLPRIM__ARG(k->in_off),
                                    CLPRIM__ARG(k->n),         CLPRIM__ARG(k->flags),
                                    CLPRIM__ARG(k->flags_off),
                                    CLPRIM__ARG_BYTES(k->value, k->elem),
                                    CLPRIM__ARG(counts)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "compact_chunk_count", args, chunks, 1);
    }
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg args[] = {CLPRIM__ARG(k->in),      CLPRIM__ARG(k->in_off),
                                    CLPRIM__ARG(k->out),     CLPRIM__ARG(k->out_off),
                                    CLPRIM__ARG(k->n),       CLPRIM__ARG(k->flags),
                                    CLPRIM__ARG(k->flags_off),
                                    CLPRIM__ARG_BYTES(k->value, k->elem),
                                    CLPRIM__ARG(counts),     CLPRIM__ARG(indices),
                                    CLPRIM__ARG(indices_off), CLPRIM__ARG(a->lengths),
                                    CLPRIM__ARG(lengths_off), CLPRIM__ARG(a->count),
                                    CLPRIM__ARG(count_off),  CLPRIM__ARG(kflags)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "compact_chunk_scatter", args, chunks, 1);
    }
    return st;
}

/* One call, validated by the launch layer. */
static clprim_status compact_body(clprim__launch *l, const void *args)
{
    const compact_args *a = args;
    const clprim_compact_desc *d = a->d;
    clprim_context *ctx = l->ctx;
    const clprim__element *e = &l->elem;
    clprim__compact_tuning t;
    clprim_compact_algorithm algo = d->algorithm;
    const int mode = a->mode == COMPACT_PARTITION && d->reverse_rejected
                         ? COMPACT_PARTITION_REVERSED
                         : a->mode;
    const int positions = mode == COMPACT_RLE || (mode == COMPACT_SELECT && d->indices);
    const size_t budget =
        ctx->info.local_mem_size > 2048 ? (size_t)ctx->info.local_mem_size - 1024 : 0;
    clprim__program_spec spec = {.file = "compact.cl", .element = e->defines};
    clprim__program *prog;
    kernel_in k;
    char *params;
    clprim_status st;

    st = check_predicate(ctx, a, e);
    if (st == CLPRIM_SUCCESS)
        st = check_unused(ctx, a);
    if (st != CLPRIM_SUCCESS)
        return st;
    t = clprim__compact_tuning_for(ctx, e->size, a->n, !uses_predicate(mode));
    if (algo == CLPRIM_COMPACT_AUTO)
        algo = t.compact_auto               ? (clprim_compact_algorithm)t.compact_auto
               : ctx->info.has_single_pass ? CLPRIM_COMPACT_SINGLE_PASS
                                           : CLPRIM_COMPACT_THREE_PASS;
    if (algo == CLPRIM_COMPACT_SINGLE_PASS && !ctx->info.has_single_pass)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "single-pass compaction needs cl_khr_int64_base_atomics, which %s lacks",
                            ctx->info.device_name);
    if (a->n == 0) /* nothing kept; nothing else to write */
        return clprim__chain_fill(ctx, &l->chain, a->count, a->count_off * 8, 8);

    memset(&k, 0, sizeof k);
    k.in = a->in;
    k.in_off = a->in_off;
    k.out = a->out;
    k.out_off = a->out_off;
    k.n = a->n;
    k.elem = e->size;
    if (uses_predicate(mode) && flags_predicate(d->predicate)) {
        k.flags = d->flags;
        k.flags_off = d->flags_off;
    }
    if (uses_predicate(mode) && is_comparison(d->predicate))
        memcpy(k.value, d->value, e->size);
    /* in place (the launch layer refuses other overlaps): the kernels read a
     * copy of the input */
    if (a->in == a->out && a->in_off < a->out_off + a->n && a->out_off < a->in_off + a->n) {
        clprim__pool_buf *copy;
        st = clprim__launch_temp(l, a->n * e->size, &copy);
        if (st == CLPRIM_SUCCESS)
            st = clprim__chain_copy(ctx, &l->chain, a->in, a->in_off * e->size,
                                    clprim__pool_mem(copy), 0, a->n * e->size);
        if (st != CLPRIM_SUCCESS)
            return st;
        k.in = clprim__pool_mem(copy);
        k.in_off = 0;
    }
    /* the tile, its positions and the scratch in local memory */
    while (t.items > 1 &&
           COMPACT_LOCAL_BYTES((size_t)t.wg_size, t.items, e->size, positions) > budget)
        t.items /= 2;
    while (t.wg_size > 1 &&
           COMPACT_LOCAL_BYTES((size_t)t.wg_size, t.items, e->size, positions) > budget)
        t.wg_size /= 2;
    params = compact_params(a, mode, t.items, t.lookback_spins, positions, looped(ctx, &t));
    if (!params)
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    spec.params = params;
    spec.wg_size = t.wg_size;
    spec.tuning = t.source;
    /* measured better bounded only for a select by a comparison or
     * expression without positions (src/compact_tuning.c) */
    if (mode == COMPACT_SELECT && !positions && !flags_predicate(d->predicate) &&
        t.select_max_regs) {
        spec.bound_entry = "compact_single_pass";
        spec.bound_regs = t.select_max_regs;
    }
    st = clprim__program_get(ctx, &spec, &prog);
    free(params);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (algo == CLPRIM_COMPACT_SINGLE_PASS)
        return single_pass(l, prog, a, &k, mode, clprim__program_wg_size(prog), t.items, &t);
    if (algo == CLPRIM_COMPACT_CHUNKED)
        return chunked(l, prog, a, &k, mode, &t);
    return three_pass(l, prog, a, &k, mode, clprim__program_wg_size(prog));
}

/* The launch layer's description of a call: the buffers a mode uses, with
 * the counts it may write. */
static clprim_status run(clprim_context *ctx, cl_command_queue queue, const compact_args *a,
                         cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const clprim_compact_desc *d = a->d;
    clprim__call call = {
        .desc = d,
        .op = CLPRIM_OP_SUM,
        .algorithm_count = CLPRIM_COMPACT_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_compact_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 3,
        .buffers = {{.name = "in", .mem = a->in, .off = a->in_off, .count = a->n},
                    {.name = "out", .mem = a->out, .off = a->out_off, .count = a->n, .written = 1},
                    {.name = "count",
                     .mem = a->count,
                     .off = a->count_off,
                     .count = 1,
                     .elem = 8,
                     .written = 1}},
        .in_place = a->mode != COMPACT_PARTITION};
    if (d) {
        call.type = d->type;
        call.element = d->element;
        call.algorithm = (int)d->algorithm;
        if (uses_predicate(a->mode) && flags_predicate(d->predicate)) {
            const clprim__call_buffer f = {"desc->flags", d->flags, d->flags_off, a->n,
                                           COMPACT_FLAG_BYTES((int)d->predicate), 0};
            call.buffers[call.num_buffers++] = f;
        }
        if (a->mode == COMPACT_SELECT && d->indices) {
            const clprim__call_buffer f = {"desc->indices", d->indices, d->indices_off, a->n, 8, 1};
            call.buffers[call.num_buffers++] = f;
        }
    }
    if (a->mode == COMPACT_RLE) {
        const clprim__call_buffer f = {"lengths", a->lengths, a->lengths_off, a->n, 8, 1};
        call.buffers[call.num_buffers++] = f;
    }
    return clprim__launch_run(ctx, &call, compact_body, a, event);
}

/* What every compaction call passes (run-length encoding adds its lengths). */
static compact_args args_of(const clprim_compact_desc *desc, int mode, cl_mem in, size_t in_off,
                            cl_mem out, size_t out_off, size_t n, cl_mem count, size_t count_off)
{
    const compact_args a = {.d = desc,
                            .mode = mode,
                            .in = in,
                            .out = out,
                            .count = count,
                            .in_off = in_off,
                            .out_off = out_off,
                            .n = n,
                            .count_off = count_off};
    return a;
}

clprim_status clprim_select(clprim_context *ctx, cl_command_queue queue,
                            const clprim_compact_desc *desc, cl_mem in, size_t in_off, cl_mem out,
                            size_t out_off, size_t n, cl_mem count, size_t count_off,
                            cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const compact_args a = args_of(desc, COMPACT_SELECT, in, in_off, out, out_off, n, count, count_off);
    return run(ctx, queue, &a, num_wait, wait, event);
}

clprim_status clprim_partition(clprim_context *ctx, cl_command_queue queue,
                               const clprim_compact_desc *desc, cl_mem in, size_t in_off,
                               cl_mem out, size_t out_off, size_t n, cl_mem count,
                               size_t count_off, cl_uint num_wait, const cl_event *wait,
                               cl_event *event)
{
    const compact_args a = args_of(desc, COMPACT_PARTITION, in, in_off, out, out_off, n, count, count_off);
    if (in == out && in_off == out_off && n && ctx) /* documented: select and unique only */
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "partition cannot run in place (in == out)");
    return run(ctx, queue, &a, num_wait, wait, event);
}

clprim_status clprim_unique(clprim_context *ctx, cl_command_queue queue,
                            const clprim_compact_desc *desc, cl_mem in, size_t in_off, cl_mem out,
                            size_t out_off, size_t n, cl_mem count, size_t count_off,
                            cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const compact_args a = args_of(desc, COMPACT_UNIQUE, in, in_off, out, out_off, n, count, count_off);
    return run(ctx, queue, &a, num_wait, wait, event);
}

clprim_status clprim_run_length_encode(clprim_context *ctx, cl_command_queue queue,
                                       const clprim_compact_desc *desc, cl_mem in, size_t in_off,
                                       cl_mem out, size_t out_off, cl_mem lengths,
                                       size_t lengths_off, size_t n, cl_mem count,
                                       size_t count_off, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event)
{
    compact_args a = args_of(desc, COMPACT_RLE, in, in_off, out, out_off, n, count, count_off);
    a.lengths = lengths;
    a.lengths_off = lengths_off;
    return run(ctx, queue, &a, num_wait, wait, event);
}

clprim_status clprim_select_host(clprim_context *ctx, const clprim_compact_desc *desc,
                                 const void *in, const void *host_flags, void *out, size_t n,
                                 size_t *count)
{
    clprim_compact_desc d;
    cl_mem bin = NULL, bflags = NULL, bcount = NULL;
    cl_ulong kept = 0;
    size_t elem;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc || !count || (n && (!in || !out)))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc, in, out or count is NULL");
    elem = desc->element ? clprim_element_size(desc->element) : clprim_type_size(desc->type);
    if (!elem)
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE, "desc->type %d is not a clprim_type",
                                     (int)desc->type);
    if (n && (elem * n) / n != elem)
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "n = %zu elements of %zu bytes "
                                     "overflow size_t", n, elem);
    /* no output for indices; the flags come as host_flags */
    if (desc->indices || desc->indices_off || desc->flags || desc->flags_off)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc->%s: clprim_select_host %s",
                                     desc->indices       ? "indices"
                                     : desc->indices_off ? "indices_off"
                                     : desc->flags       ? "flags"
                                                         : "flags_off",
                                     desc->indices || desc->indices_off
                                         ? "writes no indices (clprim_select does)"
                                         : "takes its flags as host_flags");
    d = *desc;
    st = clprim__host_buffer_unlocked(ctx, elem * n, in, &bin);
    if (st == CLPRIM_SUCCESS && flags_predicate(d.predicate)) {
        if (n && !host_flags)
            st = clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "host_flags is NULL");
        else
            st = clprim__host_buffer_unlocked(
                ctx, n * (d.predicate == CLPRIM_PREDICATE_FLAGS_U32 ? 4 : 1), host_flags, &bflags);
        d.flags = bflags;
        d.flags_off = 0;
    }
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, sizeof kept, NULL, &bcount);
    /* selected in place: the kept elements are all that is read back */
    if (st == CLPRIM_SUCCESS)
        st = clprim_select(ctx, NULL, &d, bin, 0, bin, 0, n, bcount, 0, 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_read_unlocked(ctx, bcount, sizeof kept, &kept, 0, NULL);
    if (st == CLPRIM_SUCCESS && kept)
        st = clprim__host_read_unlocked(ctx, bin, (size_t)kept * elem, out, 0, NULL);
    if (st == CLPRIM_SUCCESS)
        *count = (size_t)kept;
    if (bin)
        clReleaseMemObject(bin);
    if (bflags)
        clReleaseMemObject(bflags);
    if (bcount)
        clReleaseMemObject(bcount);
    return st;
}

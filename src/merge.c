/* SPDX-License-Identifier: MIT */
/* Merge of two sorted ranges, keys or pairs, stable, by merge path:
 * CORANK (each work-item's share found by co-rank searches in global
 * memory, merged from global memory) and TILED (the co-rank of every
 * tile's first output, then each tile merged in local memory). Validation,
 * arguments and the enqueue chain are the launch layer's; the contract
 * with the kernels is cl/merge_abi.h, and built-in keys compare in
 * clprim_sort's order with its kmode (cl/common/key_order.clh,
 * cl/sort_abi.h), so that what the sort sorted merges in the same order.
 * The caller's key types compare by the caller's `less`. */
#include "internal.h"

#include "merge_abi.h"

#include <stdio.h>

/* The arguments of one call, for merge_body. */
typedef struct merge_args {
    const clprim_merge_desc *d;
    cl_mem ka, kb, va, vb, kout, vout;
    size_t a_off, na, b_off, nb, va_off, vb_off, out_off, vout_off;
} merge_args;

/* [tiled] */
static const char *const kernels[2] = {"merge_corank", "merge_tiled"};

/* Bytes per key of a descriptor (0: unknown type or released element). */
static size_t key_size(const clprim_merge_desc *d)
{
    return d->element ? clprim_element_size(d->element) : clprim_type_size(d->key_type);
}

/* The descriptor's fields that decide the buffers' element sizes, lock
 * not held (checked before the launch layer checks the buffers). */
static clprim_status check_desc(clprim_context *ctx, const clprim_merge_desc *d, size_t na,
                                size_t nb)
{
    const char *x = d->less;
    while (x && (*x == ' ' || *x == '\t' || *x == '\n'))
        ++x;
    if (!d->element && d->less)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->less is set without desc->element: built-in keys "
                                     "compare in clprim_sort's order; leave less NULL");
    if (d->element && (!x || !*x))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->element is set but desc->less is %s (the OpenCL C "
                                     "expression of a and b that orders its keys)",
                                     x ? "empty" : "NULL");
    if (d->element && (d->key_type != CLPRIM_TYPE_INT32 || d->descending))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc->%s: the keys are "
                                     "desc->element's, ordered by desc->less; leave it 0",
                                     d->descending ? "descending" : "key_type");
    if (!d->element && !clprim_type_size(d->key_type))
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE,
                                     "desc->key_type %d is not a key type (uint32, int32, float, "
                                     "uint64, int64 or double)", (int)d->key_type);
    if (d->descending != 0 && d->descending != 1)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->descending is %d; 0 or 1", d->descending);
    if (d->value_size > MERGE_MAX_VALUE_SIZE)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->value_size %zu is above %d bytes", d->value_size,
                                     MERGE_MAX_VALUE_SIZE);
    if (na + nb < na)
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS,
                                     "na = %zu and nb = %zu keys overflow size_t", na, nb);
    return CLPRIM_SUCCESS;
}

/* The widest word that divides a value, as merge.cl moves it. */
static size_t value_word(size_t vs)
{
    size_t w = 16;
    while (vs % w)
        w /= 2;
    return w;
}

/* The program for keys of this call, values of vs bytes and the row's
 * tile; with the kind compiled in, one per kind and direction. */
static clprim_status merge_program(clprim__launch *l, const clprim_merge_desc *d,
                                   const clprim__merge_tuning *t, cl_uint kmode,
                                   clprim__program **prog)
{
    static const char *const words[17] = {[1] = "uchar", [2] = "ushort", [4] = "uint",
                                          [8] = "uint2", [16] = "uint4"};
    const size_t vs = d->value_size, w = vs ? value_word(vs) : 4;
    const clprim__program_spec spec = {.file = "merge.cl",
                                       .element = l->elem.defines,
                                       .wg_size = t->wg_size,
                                       .tuning = t->source};
    return clprim__program_get_params(l->ctx, &spec, clprim__format(
        "#define MERGE_ITEMS %u\n#define MERGE_CORANK_ITEMS %u\n#define MERGE_VALUES %d\n"
        "#define MERGE_VALUE_WORD %s\n#define MERGE_VALUE_WORDS %zu\n#define MERGE_KMODE_IN %u\n"
        "#define MERGE_KMODE_VALUE %uu\n#define MERGE_USER_LESS %d\n%s%s%s",
        t->items, t->corank_items, vs > 0, words[w], vs ? vs / w : 1, t->kind_in_program,
        t->kind_in_program ? kmode : 0u, d->element != NULL,
        d->element ? "#line 1 \"merge less\"\ninline int clprim_user_less(T a, T b) { return ("
                   : "",
        d->element ? d->less : "", d->element ? "); }\n" : ""), prog);
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* TILED: the co-rank of every tile's first output into pooled memory,
 * then one work-group per tile. */
static clprim_status tiled(clprim__launch *l, clprim__program *prog, const merge_args *a,
                           size_t wg, unsigned items, cl_uint kmode, const clprim__arg *io)
{
    const size_t total = a->na + a->nb, tile = wg * items;
    const size_t tiles = total / tile + (total % tile != 0);
    const cl_ulong count = tiles + 1, a_off = a->a_off, na = a->na, b_off = a->b_off,
                   nb = a->nb;
    const cl_uint tile32 = (cl_uint)tile;
    clprim__pool_buf *pb;
    cl_mem parts;
    clprim_status st = clprim__launch_temp(l, (size_t)count * 8, &pb);
    if (st != CLPRIM_SUCCESS)
        return st;
    parts = clprim__pool_mem(pb);
    {
        const clprim__arg pargs[] = {CLPRIM__ARG(a->ka), CLPRIM__ARG(a_off), CLPRIM__ARG(na),
                                     CLPRIM__ARG(a->kb), CLPRIM__ARG(b_off), CLPRIM__ARG(nb),
                                     CLPRIM__ARG(kmode), CLPRIM__ARG(tile32),
                                     CLPRIM__ARG(parts), CLPRIM__ARG(count)};
        const size_t groups = min_size(tiles / wg + 1, (size_t)l->ctx->info.compute_units * 16);
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "merge_partition", pargs, groups, wg);
    }
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg margs[] = {io[0], io[1],  io[2],  io[3],  io[4],  io[5],
                                     io[6], io[7],  io[8],  io[9],  io[10], io[11],
                                     io[12], io[13], io[14], CLPRIM__ARG(parts)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, kernels[1], margs, tiles, wg);
    }
    return st;
}

/* One call, validated by the launch layer. */
static clprim_status merge_body(clprim__launch *l, const void *args)
{
    const merge_args *a = args;
    const clprim_merge_desc *d = a->d;
    clprim_context *ctx = l->ctx;
    const size_t ks = l->elem.size, total = a->na + a->nb;
    const size_t budget =
        ctx->info.local_mem_size > 2048 ? (size_t)ctx->info.local_mem_size - 1024 : 0;
    const cl_uint kmode = d->element ? 0u : clprim__key_kmode(d->key_type, d->descending);
    const cl_ulong a_off = a->a_off, na = a->na, b_off = a->b_off, nb = a->nb,
                   va_off = a->va_off, vb_off = a->vb_off, out_off = a->out_off,
                   vout_off = a->vout_off;
    clprim__merge_tuning t = clprim__merge_tuning_for(ctx, ks, total, d->value_size > 0);
    clprim__program *prog;
    size_t wg;
    clprim_status st;

    if (ks > MERGE_MAX_KEY_SIZE)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->element is %zu bytes; a merge's keys are up to %d", ks,
                            MERGE_MAX_KEY_SIZE);
    if (total == 0)
        return CLPRIM_SUCCESS;
    /* the tile in local memory: fewer items (kept odd), then a smaller
     * work-group, until it fits */
    while (t.items > 1 &&
           MERGE_LOCAL_BYTES((size_t)t.wg_size, t.items, ks, d->value_size > 0) > budget)
        t.items = t.items > 2 ? (t.items - 1) | 1u : 1u;
    while (t.wg_size > 1 &&
           MERGE_LOCAL_BYTES((size_t)t.wg_size, t.items, ks, d->value_size > 0) > budget)
        t.wg_size /= 2;
    st = merge_program(l, d, &t, kmode, &prog);
    if (st != CLPRIM_SUCCESS)
        return st;
    wg = clprim__program_wg_size(prog);
    {
        const clprim__arg io[] = {CLPRIM__ARG(a->ka),   CLPRIM__ARG(a_off),  CLPRIM__ARG(na),
                                  CLPRIM__ARG(a->kb),   CLPRIM__ARG(b_off),  CLPRIM__ARG(nb),
                                  CLPRIM__ARG(a->va),   CLPRIM__ARG(va_off), CLPRIM__ARG(a->vb),
                                  CLPRIM__ARG(vb_off),  CLPRIM__ARG(a->kout), CLPRIM__ARG(out_off),
                                  CLPRIM__ARG(a->vout), CLPRIM__ARG(vout_off), CLPRIM__ARG(kmode)};
        size_t shares, groups;
        if (d->algorithm != CLPRIM_MERGE_CORANK)
            return tiled(l, prog, a, wg, t.items, kmode, io);
        shares = total / t.corank_items + (total % t.corank_items != 0);
        groups = min_size(shares / wg + (shares % wg != 0),
                          (size_t)ctx->info.compute_units * t.corank_groups_per_cu);
        return CLPRIM__LAUNCH_KERNEL(l, prog, kernels[0], io, groups, wg);
    }
}

static clprim_status run(clprim_context *ctx, cl_command_queue queue, const merge_args *a,
                         cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const clprim_merge_desc *d = a->d;
    const size_t ks = d ? key_size(d) : 0, vs = d ? d->value_size : 0;
    const size_t total = a->na + a->nb;
    clprim__call call = {
        .desc = d,
        .type = ks == 8 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32, /* the keys' bits */
        .op = CLPRIM_OP_SUM,
        .element = d ? d->element : NULL,
        .algorithm = d ? (int)d->algorithm : 0,
        .algorithm_count = CLPRIM_MERGE_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_merge_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 3,
        .buffers = {{"keys_a", a->ka, a->a_off, a->na, 0, 0},
                    {"keys_b", a->kb, a->b_off, a->nb, 0, 0},
                    {"keys_out", a->kout, a->out_off, total, 0, 1}}};
    if (event)
        *event = NULL;
    if (ctx && d) {
        const clprim_status st = check_desc(ctx, d, a->na, a->nb);
        if (st != CLPRIM_SUCCESS)
            return st;
        if (!vs && (a->va || a->vb || a->vout || a->va_off || a->vb_off || a->vout_off))
            return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                         "desc->value_size is 0 (keys only) but a values buffer "
                                         "or offset is given; leave them NULL and 0");
        if (vs) {
            const clprim__call_buffer vbufs[3] = {
                {"values_a", a->va, a->va_off, a->na, vs, 0},
                {"values_b", a->vb, a->vb_off, a->nb, vs, 0},
                {"values_out", a->vout, a->vout_off, total, vs, 1}};
            int k;
            for (k = 0; k < 3; ++k)
                call.buffers[call.num_buffers++] = vbufs[k];
        }
    }
    return clprim__launch_run(ctx, &call, merge_body, a, event);
}

clprim_status clprim_merge(clprim_context *ctx, cl_command_queue queue,
                           const clprim_merge_desc *desc, cl_mem keys_a, size_t a_off, size_t na,
                           cl_mem keys_b, size_t b_off, size_t nb, cl_mem values_a, size_t va_off,
                           cl_mem values_b, size_t vb_off, cl_mem keys_out, size_t out_off,
                           cl_mem values_out, size_t vout_off, cl_uint num_wait,
                           const cl_event *wait, cl_event *event)
{
    const merge_args a = {desc,   keys_a, keys_b,   values_a, values_b, keys_out, values_out,
                          a_off,  na,     b_off,    nb,       va_off,   vb_off,   out_off,
                          vout_off};
    return run(ctx, queue, &a, num_wait, wait, event);
}

/* The blocking helper: both ranges copied to new buffers, merged, the
 * output read back once the merge is done; the buffers released. */
clprim_status clprim_merge_host(clprim_context *ctx, const clprim_merge_desc *desc,
                                const void *keys_a, const void *values_a, size_t na,
                                const void *keys_b, const void *values_b, size_t nb,
                                void *keys_out, void *values_out)
{
    cl_mem m[6] = {NULL, NULL, NULL, NULL, NULL, NULL}; /* ka kb kout va vb vout */
    cl_event done = NULL;
    size_t ks, vs, total, k;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    st = check_desc(ctx, desc, na, nb);
    if (st != CLPRIM_SUCCESS)
        return st;
    ks = key_size(desc);
    vs = desc->value_size;
    total = na + nb;
    if (!ks)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->element is not a live element type");
    if ((na && !keys_a) || (nb && !keys_b) || (total && !keys_out))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "%s is NULL",
                                     na && !keys_a ? "keys_a" : nb && !keys_b ? "keys_b"
                                                                               : "keys_out");
    if (vs && ((na && !values_a) || (nb && !values_b) || (total && !values_out)))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->value_size is %zu but a values array is NULL", vs);
    if (!vs && (values_a || values_b || values_out))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->value_size is 0 (keys only) but a values array is "
                                     "given; leave them NULL");
    if (total && ((total * ks) / total != ks || (vs && (total * vs) / total != vs)))
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS,
                                     "na + nb = %zu keys overflow size_t in bytes", total);
    st = clprim__host_buffer_unlocked(ctx, na * ks, keys_a, &m[0]);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, nb * ks, keys_b, &m[1]);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, total * ks, NULL, &m[2]);
    if (st == CLPRIM_SUCCESS && vs)
        st = clprim__host_buffer_unlocked(ctx, na * vs, values_a, &m[3]);
    if (st == CLPRIM_SUCCESS && vs)
        st = clprim__host_buffer_unlocked(ctx, nb * vs, values_b, &m[4]);
    if (st == CLPRIM_SUCCESS && vs)
        st = clprim__host_buffer_unlocked(ctx, total * vs, NULL, &m[5]);
    if (st == CLPRIM_SUCCESS) {
        const merge_args a = {desc, m[0], m[1], m[3], m[4], m[2], m[5], 0, na, 0, nb, 0, 0, 0, 0};
        st = run(ctx, NULL, &a, 0, NULL, &done);
    }
    /* after the merge's event: the context's queue may be out of order */
    if (st == CLPRIM_SUCCESS && total)
        st = clprim__host_read_unlocked(ctx, m[2], total * ks, keys_out, 1, &done);
    if (st == CLPRIM_SUCCESS && total && vs)
        st = clprim__host_read_unlocked(ctx, m[5], total * vs, values_out, 1, &done);
    if (done)
        clReleaseEvent(done);
    for (k = 0; k < 6; ++k)
        if (m[k])
            clReleaseMemObject(m[k]);
    return st;
}

/* SPDX-License-Identifier: MIT */
/* Segmented sort: every segment of an array (by offsets) sorted on its own,
 * in one pass over the array (cl/sort_segments.cl): tiles of the whole-array
 * sort's size, each sorting in local memory the segments that start in it,
 * a segment longer than a tile by one work-group in passes over global
 * memory. Keys, tiles and programs are sort.c's; the segments descriptor is
 * checked as segment.c checks it. */
#include "internal.h"

#include "common/abi.h"
#include "sort_abi.h"

#include <stdlib.h>

typedef struct seg_args {
    const clprim_sort_desc *d;
    const clprim_segments *s;
    cl_mem kin, kout, vin, vout;
    size_t kin_off, kout_off, vin_off, vout_off, n;
} seg_args;

/* What the descriptors ask that this call does not do, with a message. */
static clprim_status refuse(clprim_context *ctx, const clprim_sort_desc *d,
                            const clprim_segments *s)
{
    if (s->kind != CLPRIM_SEGMENTS_OFFSETS)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "segments->kind %s: the segmented sort takes OFFSETS only",
                            clprim_segments_kind_name(s->kind));
    if (d->algorithm != CLPRIM_SORT_AUTO)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->algorithm %s: the segmented sort has one algorithm (AUTO)",
                            clprim_sort_algorithm_name(d->algorithm));
    if (d->scratch || d->scratch_size)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->scratch: the segmented sort takes its temporary memory from "
                            "the context's pool; leave scratch and scratch_size 0");
    return CLPRIM_SUCCESS;
}

/* Temporary memory of `bytes` (NULL for none). */
static clprim_status temp(clprim__launch *l, size_t bytes, cl_mem *mem)
{
    clprim__pool_buf *buf;
    clprim_status st = CLPRIM_SUCCESS;
    *mem = NULL;
    if (bytes) {
        st = clprim__launch_temp(l, bytes, &buf);
        if (st == CLPRIM_SUCCESS)
            *mem = clprim__pool_mem(buf);
    }
    return st;
}

static clprim_status seg_body(clprim__launch *l, const void *args)
{
    const seg_args *a = args;
    const clprim_sort_desc *d = a->d;
    const clprim_segments *s = a->s;
    clprim_context *ctx = l->ctx;
    const size_t vs = d->value_size;
    /* beside a tile: the long segments' digit positions, a window's
     * segment index per key */
    const size_t extra = 2 * SORT_RADIX * 8 + 64, per_key = 2;
    cl_mem bounds = NULL, kt = NULL, vt = NULL, vcopy = NULL;
    clprim__sort_keys f = {0};
    clprim__sort_plan p;
    clprim__program *prog;
    unsigned wg, tile;
    clprim_status st = refuse(ctx, d, s);

    if (st == CLPRIM_SUCCESS)
        st = clprim__sort_keys_of(ctx, d, a->n, &f);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (vs && (!a->vin || !a->vout))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->value_size is %zu but values_in or values_out is NULL", vs);
    if (a->n == 0 || s->num_segments == 0)
        return CLPRIM_SUCCESS;
    p = clprim__sort_plan_of(ctx, d, &f, a->n, extra, per_key);
    st = clprim__sort_program(l, "sort_segments.cl", "sort_segments", &f, vs, &p, &prog);
    if (st != CLPRIM_SUCCESS)
        return st;
    wg = clprim__program_wg_size(prog);
    if (wg != p.t.wg_size)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "the sort kernels need work-groups of %u "
                            "on %s, which allows %u", p.t.wg_size, ctx->info.device_name, wg);
    tile = wg * p.items;
    {
        const int keys_in_place = a->kin == a->kout && a->kin_off == a->kout_off;
        const int values_in_place = vs && a->vin == a->vout && a->vin_off == a->vout_off;
        const cl_ulong n = a->n, m = s->num_segments, tiles = (n + tile - 1) / tile;
        const cl_ulong offs_off = s->off, zero = 0;
        const cl_uint off64 = clprim_type_size(s->type) == 8;
        const cl_uint passes = (f.end - f.begin + SORT_RADIX_BITS - 1) / SORT_RADIX_BITS;
        /* in place with an odd number of passes, a long segment's first
         * pass would write what it still reads: a copy goes first */
        const cl_uint copy_first = keys_in_place && passes % 2 == 1;
        cl_mem vin = vs ? a->vin : NULL;
        cl_ulong vin_off = vs ? a->vin_off : 0;

        st = temp(l, (size_t)(tiles + 1) * 2 * sizeof(cl_ulong), &bounds);
        /* only a segment longer than a tile passes through global memory */
        if (st == CLPRIM_SUCCESS && n > tile)
            st = temp(l, a->n * f.size, &kt);
        if (st == CLPRIM_SUCCESS && n > tile && vs)
            st = temp(l, a->n * vs, &vt);
        /* values are gathered from their sources after others are written */
        if (st == CLPRIM_SUCCESS && values_in_place) {
            st = temp(l, a->n * vs, &vcopy);
            if (st == CLPRIM_SUCCESS)
                st = clprim__chain_copy(ctx, &l->chain, a->vin, a->vin_off * vs, vcopy, 0,
                                        a->n * vs);
            vin = vcopy;
            vin_off = 0;
        }
        if (st == CLPRIM_SUCCESS) {
            const clprim__arg args[] = {CLPRIM__ARG(s->mem), CLPRIM__ARG(offs_off),
                                        CLPRIM__ARG(off64),  CLPRIM__ARG(m),
                                        CLPRIM__ARG(n),      CLPRIM__ARG(bounds),
                                        CLPRIM__ARG(tiles)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_segment_bounds", args,
                                       (size_t)((tiles + wg) / wg), wg);
        }
        if (st == CLPRIM_SUCCESS) {
            const cl_ulong kin_off = a->kin_off, kout_off = a->kout_off,
                           vout_off = vs ? a->vout_off : 0;
            const cl_uint begin = f.begin, end = f.end;
            const cl_mem vout = vs ? a->vout : NULL;
            const clprim__arg args[] = {
                CLPRIM__ARG(a->kin), CLPRIM__ARG(kin_off),  CLPRIM__ARG(a->kout),
                CLPRIM__ARG(kout_off), CLPRIM__ARG(vin), CLPRIM__ARG(vin_off),
                CLPRIM__ARG(vout),   CLPRIM__ARG(vout_off), CLPRIM__ARG(n),
                CLPRIM__ARG(f.kmode), CLPRIM__ARG(begin),   CLPRIM__ARG(end),
                CLPRIM__ARG(s->mem), CLPRIM__ARG(offs_off), CLPRIM__ARG(off64),
                CLPRIM__ARG(m),      CLPRIM__ARG(bounds),   CLPRIM__ARG(kt),
                CLPRIM__ARG(zero),   CLPRIM__ARG(vt),       CLPRIM__ARG(zero),
                CLPRIM__ARG(copy_first)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_segments", args, (size_t)tiles, wg);
            if (st == CLPRIM_SUCCESS)
                st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_segments_open", args, (size_t)tiles, wg);
        }
    }
    return st;
}

clprim_status clprim_segmented_sort(clprim_context *ctx, cl_command_queue queue,
                                    const clprim_sort_desc *desc, const clprim_segments *segments,
                                    cl_mem keys_in, size_t keys_in_off, cl_mem keys_out,
                                    size_t keys_out_off, cl_mem values_in, size_t values_in_off,
                                    cl_mem values_out, size_t values_out_off, size_t n,
                                    cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const seg_args a = {.d = desc,
                        .s = segments,
                        .kin = keys_in,
                        .kout = keys_out,
                        .vin = values_in,
                        .vout = values_out,
                        .kin_off = keys_in_off,
                        .kout_off = keys_out_off,
                        .vin_off = values_in_off,
                        .vout_off = values_out_off,
                        .n = n};
    const size_t vs = desc ? desc->value_size : 0;
    clprim__call call = {
        .desc = desc,
        .type = CLPRIM_TYPE_UINT32,
        .op = CLPRIM_OP_SUM,
        .algorithm = desc ? (int)desc->algorithm : 0,
        .algorithm_count = CLPRIM_SORT_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_sort_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 2,
        .buffers =
            {{.name = "keys_in", .mem = keys_in, .off = keys_in_off, .count = n},
             {.name = "keys_out", .mem = keys_out, .off = keys_out_off, .count = n, .written = 1}},
        .in_place = 2};
    clprim_status st;
    if (event)
        *event = NULL;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    st = clprim__segments_check(ctx, segments);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (desc) {
        call.type = clprim_type_size(desc->key_type) == 8 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
        if (vs && vs <= 64 && values_in && values_out) {
            const clprim__call_buffer vi = {"values_in", values_in, values_in_off, n, vs, 0};
            const clprim__call_buffer vo = {"values_out", values_out, values_out_off, n, vs, 1};
            call.buffers[call.num_buffers++] = vi;
            call.buffers[call.num_buffers++] = vo;
        }
    }
    {
        const clprim__call_buffer sb = {"segments->mem", segments->mem, segments->off,
                                        clprim__segments_count(segments, n),
                                        clprim__segments_unit(segments), 0};
        call.buffers[call.num_buffers++] = sb;
    }
    return clprim__launch_run(ctx, &call, seg_body, &a, event);
}

/* The host helper's segments: checked and copied to a buffer, then the
 * sort in place. */
typedef struct host_segs {
    const clprim_segments *s;
    const void *host;
} host_segs;

static clprim_status segmented_in_place(clprim_context *ctx, const clprim_sort_desc *desc,
                                        cl_mem keys, cl_mem values, size_t n, const void *arg)
{
    const host_segs *h = arg;
    clprim_segments dev;
    cl_mem bs = NULL;
    clprim_status st = clprim__segments_host(ctx, h->s, h->host, n, &dev, &bs);
    if (st == CLPRIM_SUCCESS)
        st = clprim_segmented_sort(ctx, NULL, desc, &dev, keys, 0, keys, 0, values, 0, values, 0,
                                   n, 0, NULL, NULL);
    if (bs)
        clReleaseMemObject(bs);
    return st;
}

clprim_status clprim_segmented_sort_host(clprim_context *ctx, const clprim_sort_desc *desc,
                                         const clprim_segments *segments,
                                         const void *host_segments, void *keys, void *values,
                                         size_t n)
{
    const host_segs h = {segments, host_segments};
    return clprim__sort_host_with(ctx, desc, keys, values, n, segmented_in_place, &h);
}

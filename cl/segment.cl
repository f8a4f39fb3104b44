/* SPDX-License-Identifier: MIT */
/* Segmented scan and segmented reduce (by flags, keys or offsets) in one
 * pass: seg_single_pass reads each value and its segment information once
 * and writes each result once, the carry between tiles found by decoupled
 * look-back (lookback.clh, with its no-hang fallback). The lifted operator
 * and what the look-back carries: segment_heads.clh. The contract with
 * src/segment.c: segment_abi.h. */
#ifndef CLPRIM_ASSEMBLED
#include "common/abi.h"
#include "segment_abi.h"
#include "common/elem.clh"
#include "common/simd.clh"
#include "common/wg_scan.clh"
#include "segment_heads.clh"
#include "common/lookback.clh"
#endif

#ifndef ITEMS
#define ITEMS 8
#endif
#define TILE (WG_SIZE * ITEMS)
#define SEG_KERNEL kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void

/* (value, heads) pairs scanned over the work-group: group_scan.clh's
 * seg_wg_exscan */
CLPRIM_GROUP_SCANS(seg, seg_pair, seg_combine, seg_pair_make(IDENTITY, 0))

#if CLPRIM_SINGLE_PASS
/* One tile per work-group, in ticket order. The tile's values go through
 * local memory (loaded coalesced, read back as ITEMS consecutive elements
 * per work-item) with one head count per element beside them; each
 * work-item folds its run with the lifted operator, the work-group scans
 * the runs' pairs, the first SIMD group publishes and looks back, and the
 * results leave coalesced (scan) or at their segments' ranks (reduce). */
SEG_KERNEL seg_single_pass(global const IN_T *in, ulong in_off, global T *out, ulong out_off,
                           ulong n, global const uchar *segs, ulong segs_off, ulong m,
                           global const ulong *bounds, global uchar *keys_out,
                           ulong keys_out_off, global ulong *count, ulong count_off,
                           global uchar *state, uint generation, uint sflags)
{
    local T tile[PADDED_SIZE(TILE)];
    /* element i's head count at PAD(i); PAD(valid): the element after the
     * tile (1 at the end of the data), for the last segment end */
    local uint heads[PADDED_SIZE(TILE) + 1];
    local seg_pair scratch[CLPRIM_GROUP_SCRATCH];
    local uint tickets[2];
    local LB_T carry;
    const ulong tiles = n ? (n + TILE - 1) / TILE : 1;
    const uint lid = get_local_id(0), one_tile = (sflags & SEG_ONE_TILE) != 0;
    const clprim_tiles st = clprim_tiles_at(state, tiles);
    seg_src src;
    src.in = in + in_off;
    src.segs = segs + segs_off * SEG_UNIT;
    src.bounds = bounds;
    src.n = n;
    src.m = m;
    src.tile = TILE;
    out += out_off;

    clprim_tiles_take(st, one_tile, 0, tiles, tickets);
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong t = tickets[0], base = t * TILE;
    const uint valid = (uint)min((ulong)TILE, n - base);
    if (valid == TILE) {
        /* a whole tile: every load issued before the first is waited for
         * (loads and local stores in one guarded loop were served one
         * after the other) */
        T v[ITEMS];
        uint h[ITEMS];
        for (uint k = 0; k < ITEMS; ++k)
            v[k] = clprim_in(src.in[base + k * WG_SIZE + lid], base + k * WG_SIZE + lid);
        for (uint k = 0; k < ITEMS; ++k)
#if SEG_HEADS == SEG_OFFSETS
            h[k] = 0;
#else
            h[k] = seg_head_fast(src, base + k * WG_SIZE + lid);
#endif
        for (uint k = 0; k < ITEMS; ++k) {
            tile[PAD(k * WG_SIZE + lid)] = v[k];
            heads[PAD(k * WG_SIZE + lid)] = h[k];
        }
    } else {
        for (uint k = 0; k < ITEMS; ++k) {
            const uint i = k * WG_SIZE + lid;
            if (i < valid) {
                tile[PAD(i)] = clprim_in(src.in[base + i], base + i);
#if SEG_HEADS == SEG_OFFSETS
                heads[PAD(i)] = 0;
#else
                heads[PAD(i)] = seg_head_at(src, base + i);
#endif
            }
        }
    }
#if SEG_HEADS == SEG_OFFSETS
    /* the segments starting in this tile, from the bounds pass; an empty
     * one (a reduce's identity) is written here */
    {
        const ulong k0 = bounds[t], k1 = bounds[t + 1];
        if (lid == 0)
            heads[PAD(valid)] = base + valid >= n ||
                                (k1 < m && seg_offset(src, k1) == base + valid);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (ulong k = k0 + lid; k < k1; k += WG_SIZE) {
            const ulong o = seg_offset(src, k);
            if (o >= base && o - base < valid)
                atomic_inc(&heads[PAD(o - base)]);
#if SEG_REDUCE
            if (o >= base && seg_offset(src, k + 1) == o)
                out[k] = IDENTITY;
#endif
        }
    }
#else
    if (lid == 0)
        heads[PAD(valid)] = base + valid >= n ? 1u : seg_head_at(src, base + valid);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);

    /* this work-item's ITEMS consecutive elements, segmented within the run */
    T r[ITEMS];
    seg_pair run = seg_pair_make(IDENTITY, 0);
    for (uint j = 0; j < ITEMS; ++j) {
        const uint li = lid * ITEMS + j;
        if (li < valid)
            run = seg_combine(run, seg_pair_make(tile[PAD(li)], heads[PAD(li)]));
        r[j] = run.v;
    }
    seg_pair total;
    const seg_pair within = seg_wg_exscan(run, scratch, &total);

    /* the first SIMD group publishes and looks back */
#if SEG_REDUCE
    const uint how = one_tile ? TP_ALONE : 0u;
    const LB_T carried = clprim_wg_tile_prefix(st, t, generation, seg_carry_of(total),
                                               LB_IDENTITY, how, &carry, src);
#else
    /* a tile with a head settles the tiles after it; one that starts with a
     * head needs nothing from before it; in place, every prefix is visible
     * before any output (lookback.clh's fallback relies on it) */
    const uint how = (one_tile ? TP_ALONE : 0u) | (total.c ? TP_SETTLED : 0u) |
                     (heads[PAD(0)] ? TP_NO_WALK : 0u) |
                     ((sflags & SEG_IN_PLACE) ? TP_FENCE : 0u);
    const LB_T carried = clprim_wg_tile_prefix(st, t, generation, total.v, LB_IDENTITY, how,
                                               &carry, src);
#endif
#if SEG_REDUCE
    const T left = within.c ? within.v : OP(carried.v, within.v);
    const ulong ranks = carried.c + within.c; /* segments starting before this run */
    const ulong cap = SEG_HEADS == SEG_OFFSETS ? m : n;
#else
    const T left = within.c ? within.v : OP(carried, within.v);
#endif
    /* left: the inclusive result just before this work-item's elements */
    T prev = left;
    uint seen = 0;
    for (uint j = 0; j < ITEMS; ++j) {
        const uint li = lid * ITEMS + j;
        if (li < valid) {
            const uint h = heads[PAD(li)];
            seen += h;
            const T inclusive = seen ? r[j] : OP(left, r[j]);
#if SEG_REDUCE
            if (heads[PAD(li + 1)]) { /* the last element of its segment */
                const ulong rank = ranks + seen - 1;
                if (rank < cap) {
                    out[rank] = inclusive;
#if SEG_HEADS == SEG_KEYS
                    if (sflags & SEG_KEYS_OUT)
                        ((global KEY_T *)keys_out)[keys_out_off + rank] =
                            ((global const KEY_T *)src.segs)[base + li];
#endif
                }
#if SEG_HEADS != SEG_OFFSETS
                if ((sflags & SEG_COUNT) && base + li == n - 1)
                    count[count_off] = rank + 1;
#endif
            }
#else
            tile[PAD(li)] = (sflags & SEG_EXCLUSIVE) ? (h ? IDENTITY : prev) : inclusive;
            prev = inclusive;
#endif
        }
    }
#if SEG_REDUCE
#if SEG_HEADS == SEG_OFFSETS
    if ((sflags & SEG_COUNT) && t == tiles - 1 && lid == 0)
        count[count_off] = m;
#endif
    (void)prev;
#else
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < ITEMS; ++k) {
        const uint i = k * WG_SIZE + lid;
        if (i < valid)
            out[base + i] = tile[PAD(i)];
    }
#endif
    if (lid == 0 && !one_tile)
        clprim_tiles_finish(st);
}
#endif

#if SEG_HEADS == SEG_OFFSETS
/* bounds[t]: the first segment k (of m) whose offset is at or after tile
 * t's first element (m when none is); bounds[tiles] = m. */
SEG_KERNEL seg_tile_bounds(global const uchar *segs, ulong segs_off, ulong m, ulong n,
                           ulong tiles, global ulong *bounds)
{
    const ulong t = get_global_id(0);
    seg_src src;
    src.in = 0;
    src.segs = segs + segs_off * SEG_UNIT;
    src.bounds = 0;
    src.n = n;
    src.m = m;
    src.tile = TILE;
    if (t > tiles)
        return;
    ulong lo = 0, hi = m;
    while (t < tiles && lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        if (seg_offset(src, mid) < t * TILE)
            lo = mid + 1;
        else
            hi = mid;
    }
    bounds[t] = t < tiles ? lo : m;
}
#endif

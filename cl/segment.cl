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

/* ---- exclusive scan of one (value, heads) pair per work-item ---- */
#if CLPRIM_SIMD_SHUFFLE
#define SEG_SCRATCH (WG_SIZE / 32)
inline seg_pair seg_shfl_up(seg_pair p, uint d)
{
    return seg_pair_make(clprim_shfl_up(p.v, d), clprim_shfl_up_u32(p.c, d));
}

inline seg_pair seg_warp_scan(seg_pair p, uint lane)
{
    for (uint d = 1; d < 32; d <<= 1) {
        const seg_pair up = seg_shfl_up(p, d);
        if (lane >= d)
            p = seg_combine(up, p);
    }
    return p;
}

/* The pairs of the work-items before this one combined in order; *total:
 * all of them. Every work-item must call it. */
inline seg_pair seg_wg_exscan(seg_pair p, local seg_pair *scratch, seg_pair *total)
{
    const uint lid = get_local_id(0), lane = lid & 31u, warp = lid >> 5;
    const seg_pair inclusive = seg_warp_scan(p, lane);
    seg_pair before = seg_shfl_up(inclusive, 1);
    if (lane == 0)
        before = seg_pair_make(IDENTITY, 0);
    if (lane == 31u)
        scratch[warp] = inclusive;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (warp == 0) {
        seg_pair w = lane < WG_SIZE / 32 ? scratch[lane] : seg_pair_make(IDENTITY, 0);
        w = seg_warp_scan(w, lane);
        if (lane < WG_SIZE / 32)
            scratch[lane] = w;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (warp > 0)
        before = seg_combine(scratch[warp - 1], before);
    *total = scratch[WG_SIZE / 32 - 1];
    return before;
}
#else
#define SEG_SCRATCH WG_SIZE
inline seg_pair seg_wg_exscan(seg_pair p, local seg_pair *scratch, seg_pair *total)
{
    const uint lid = get_local_id(0);
    scratch[lid] = p;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < WG_SIZE; d <<= 1) {
        const seg_pair left = lid >= d ? scratch[lid - d] : seg_pair_make(IDENTITY, 0);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid >= d)
            scratch[lid] = seg_combine(left, scratch[lid]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = scratch[WG_SIZE - 1];
    return lid > 0 ? scratch[lid - 1] : seg_pair_make(IDENTITY, 0);
}
#endif

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
    local seg_pair scratch[SEG_SCRATCH];
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

    /* the first SIMD group (or work-item 0) publishes and looks back */
    if (lid < 32) {
#if SEG_REDUCE
        const seg_carry own = seg_carry_of(total);
        seg_carry before = LB_IDENTITY;
        if (!one_tile && t > 0) {
            if (lid == 0)
                clprim_tile_publish(st, t, generation, TILE_AGGREGATE, own);
#if CLPRIM_LOOKBACK_WARP
            before = clprim_lookback_warp(st, t, generation, LB_IDENTITY, src);
#else
            if (lid == 0)
                before = clprim_lookback(st, t, generation, LB_IDENTITY, 1, src);
#endif
        }
        if (lid == 0) {
            if (!one_tile)
                clprim_tile_publish(st, t, generation, TILE_PREFIX, LB_OP(before, own));
            carry = before;
        }
#else
        T before = IDENTITY;
        if (!one_tile && lid == 0 && (total.c || t > 0))
            clprim_tile_publish(st, t, generation, total.c ? TILE_PREFIX : TILE_AGGREGATE,
                                total.v);
        /* a tile that starts with a head needs nothing from before it */
        if (!one_tile && t > 0 && heads[PAD(0)] == 0) {
#if CLPRIM_LOOKBACK_WARP
            before = clprim_lookback_warp(st, t, generation, LB_IDENTITY, src);
#else
            if (lid == 0)
                before = clprim_lookback(st, t, generation, LB_IDENTITY, 1, src);
#endif
        }
        if (lid == 0) {
            if (!one_tile && !total.c)
                clprim_tile_publish(st, t, generation, TILE_PREFIX, OP(before, total.v));
            /* in place, every prefix is visible before any output
             * (lookback.clh's fallback relies on it) */
            if (!one_tile && (sflags & SEG_IN_PLACE))
                clprim_fence_release();
            carry = before;
        }
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

    const LB_T carried = carry;
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

/* SPDX-License-Identifier: MIT */
/* Stream compaction kernels: select, partition, unique and run-length
 * encoding (MODE), in one pass (compact_single_pass, with compact_count
 * first for a stable partition) or in the taught three (compact_flags, a
 * scan of the flags by the host, compact_scatter). Which elements are kept
 * and what the look-back carries: compact_keep.clh. The contract with
 * src/compact.c: compact_abi.h. The input never aliases an output (the host
 * copies it first for an in-place call). */
#ifndef CLPRIM_ASSEMBLED
#include "common/abi.h"
#include "compact_abi.h"
#include "common/elem.clh"
#include "compact_keep.clh"
#include "common/lookback.clh"
#endif

#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef COMPACT_POSITIONS
#define COMPACT_POSITIONS 0
#endif
#if ITEMS > 32
#error "clprim: ITEMS is at most 32 (a work-item's kept elements are a 32-bit mask)"
#endif
#define TILE (WG_SIZE * ITEMS)
#define COMPACT_KERNEL kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void

/* ---- exclusive scan of one uint per work-item over the work-group ---- */
#if CLPRIM_NV_PTX && SIMD_WIDTH == 32 && (WG_SIZE % 32) == 0
#define COMPACT_SCRATCH (WG_SIZE / 32)
inline uint compact_shfl_up(uint v, uint d)
{
    uint r;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));
    return r;
}

inline uint compact_warp_scan(uint v, uint lane)
{
    for (uint d = 1; d < 32; d <<= 1) {
        const uint up = compact_shfl_up(v, d);
        if (lane >= d)
            v += up;
    }
    return v;
}

/* Returns the sum over the work-items before this one; *total: over all. */
inline uint compact_exscan(uint v, local uint *scratch, uint *total)
{
    const uint lid = get_local_id(0), lane = lid & 31u, warp = lid >> 5;
    const uint inclusive = compact_warp_scan(v, lane);
    if (lane == 31u)
        scratch[warp] = inclusive;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (warp == 0) {
        const uint w = lane < WG_SIZE / 32 ? scratch[lane] : 0u;
        const uint s = compact_warp_scan(w, lane);
        if (lane < WG_SIZE / 32)
            scratch[lane] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *total = scratch[WG_SIZE / 32 - 1];
    return inclusive - v + (warp > 0 ? scratch[warp - 1] : 0u);
}
#else
#define COMPACT_SCRATCH WG_SIZE
inline uint compact_exscan(uint v, local uint *scratch, uint *total)
{
    const uint lid = get_local_id(0);
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < WG_SIZE; d <<= 1) {
        const uint left = lid >= d ? scratch[lid - d] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        scratch[lid] += left;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = scratch[WG_SIZE - 1];
    return scratch[lid] - v;
}
#endif

#if CLPRIM_SINGLE_PASS
/* One tile per work-group, tiles in ticket order. The tile goes through
 * local memory twice: loaded coalesced (work-item o holds elements o,
 * o + WG_SIZE, ...), read back as ITEMS consecutive elements per work-item,
 * which are flagged and counted; after a work-group scan of the counts the
 * kept elements are gathered at the front of the tile (partition: the
 * rejected ones at its back), the tile's count is published and the count
 * before it looked back for, and the gathered run is written out coalesced. */
COMPACT_KERNEL compact_single_pass(global const T *in, ulong in_off, global T *out, ulong out_off,
                                   ulong n, global const uchar *flags, ulong flags_off, T value,
                                   global ulong *indices, ulong indices_off,
                                   global ulong *lengths, ulong lengths_off, global ulong *count,
                                   ulong count_off, global uchar *state, uint generation,
                                   uint kflags)
{
    local T tile[TILE];
#if COMPACT_POSITIONS
    local uint pos[TILE];
#endif
    local uint scratch[COMPACT_SCRATCH];
    local uint ticket;
    local LB_T before_tile;
    const ulong tile_size = TILE, tiles = (n + TILE - 1) / TILE;
    const clprim_tiles st = clprim_tiles_at(state, tiles);
    const uint lid = get_local_id(0), one_tile = (kflags & COMPACT_ONE_TILE) != 0;

    in += in_off;
    out += out_off;
    flags += flags_off * COMPACT_FLAG_BYTES(PRED);
    if (lid == 0)
        ticket = one_tile ? 0u : atomic_inc(st.counters);
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong t = ticket, base = t * TILE;
    const uint valid = (uint)min((ulong)TILE, n - base);

    for (uint k = 0; k < ITEMS; ++k) {
        const uint i = k * WG_SIZE + lid;
        if (i < valid)
            tile[i] = in[base + i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* this work-item's ITEMS consecutive elements, and which are kept */
    T x[ITEMS];
    uint kept = 0, mine = 0;
    for (uint j = 0; j < ITEMS; ++j) {
        const uint li = lid * ITEMS + j;
        if (li < valid) {
            x[j] = tile[li];
#if PRED == COMPACT_PRED_HEADS
            const T prev = li > 0 ? tile[li - 1] : (base > 0 ? in[base - 1] : x[j]);
#else
            const T prev = x[j];
#endif
            if (compact_keep(x[j], prev, base + li, flags, value)) {
                kept |= 1u << j;
                ++mine;
            }
        }
    }
    uint total;
    const uint before = compact_exscan(mine, scratch, &total);
    barrier(CLK_LOCAL_MEM_FENCE); /* every read of the tile is done */
    {
        uint r = before;
#if MODE == COMPACT_PARTITION || MODE == COMPACT_PARTITION_REVERSED
        const uint first = min(lid * ITEMS, valid);
        uint q = first - before; /* rejected before this work-item's elements */
#endif
        for (uint j = 0; j < ITEMS; ++j) {
            const uint li = lid * ITEMS + j;
            if (kept & (1u << j)) {
                tile[r] = x[j];
#if COMPACT_POSITIONS
                pos[r] = li;
#endif
                ++r;
            }
#if MODE == COMPACT_PARTITION || MODE == COMPACT_PARTITION_REVERSED
            else if (li < valid)
                tile[TILE - 1 - q++] = x[j];
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid == 0) {
#if MODE == COMPACT_RLE
        compact_carry own;
        own.count = total;
        own.last = total ? base + pos[total - 1] : 0;
#else
        const ulong own = total;
#endif
        LB_T prefix = LB_IDENTITY;
        if (!one_tile) {
            if (t > 0) {
                clprim_tile_publish(st, t, generation, TILE_AGGREGATE, own);
                prefix = clprim_lookback(st, t, generation, 1, in, tile_size, n, flags, value);
            }
            clprim_tile_publish(st, t, generation, TILE_PREFIX, LB_OP(prefix, own));
        }
        before_tile = prefix;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const LB_T carried = before_tile;
    const ulong b = COMPACT_COUNT(carried);

    for (uint i = lid; i < total; i += WG_SIZE) {
        out[b + i] = tile[i];
#if COMPACT_POSITIONS && MODE == COMPACT_SELECT
        if (kflags & COMPACT_WITH_INDICES)
            indices[indices_off + b + i] = base + pos[i];
#endif
#if MODE == COMPACT_RLE
        /* each run head ends the run before it */
        if (b + i > 0)
            lengths[lengths_off + b + i - 1] =
                base + pos[i] - (i > 0 ? base + pos[i - 1] : carried.last);
#endif
    }
#if MODE == COMPACT_PARTITION || MODE == COMPACT_PARTITION_REVERSED
    {
        const uint rejected = valid - total;
        const ulong rejected_before = base - b;
#if MODE == COMPACT_PARTITION
        const ulong kept_total = count[count_off]; /* compact_count's */
        for (uint i = lid; i < rejected; i += WG_SIZE)
            out[kept_total + rejected_before + i] = tile[TILE - 1 - i];
#else
        for (uint i = lid; i < rejected; i += WG_SIZE)
            out[n - 1 - (rejected_before + i)] = tile[TILE - 1 - i];
#endif
    }
#endif
    if (base + TILE >= n && lid == 0) { /* the last tile: the count, the last run */
#if MODE == COMPACT_RLE
        if (b + total > 0)
            lengths[lengths_off + b + total - 1] =
                n - (total ? base + pos[total - 1] : carried.last);
#endif
        count[count_off] = b + total;
    }
    /* the last work-group to finish resets the ticket for the next call */
    if (lid == 0 && !one_tile && atomic_inc(st.counters + 1) == get_num_groups(0) - 1) {
        atomic_xchg(st.counters, 0u);
        atomic_xchg(st.counters + 1, 0u);
    }
}
#endif

#if CLPRIM_SINGLE_PASS
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
/* Adds the number of kept elements to count[count_off] (zeroed by the
 * host): the stable partition's single pass needs it before it starts. */
COMPACT_KERNEL compact_count(global const T *in, ulong in_off, ulong n, global const uchar *flags,
                             ulong flags_off, T value, global ulong *count, ulong count_off)
{
    local uint scratch[COMPACT_SCRATCH];
    in += in_off;
    flags += flags_off * COMPACT_FLAG_BYTES(PRED);
    uint mine = 0, total;
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        mine += compact_keep_at(in, i, flags, value);
    compact_exscan(mine, scratch, &total);
    if (get_local_id(0) == 0 && total)
        atom_add((volatile global ulong *)(count + count_off), (ulong)total);
}
#endif

/* The taught form, 1: positions[i] = whether element i is kept, and
 * positions[n] = 0, for an exclusive scan of n + 1 elements by the host. */
COMPACT_KERNEL compact_flags(global const T *in, ulong in_off, ulong n, global const uchar *flags,
                             ulong flags_off, T value, global ulong *positions)
{
    const ulong i = get_global_id(0);
    in += in_off;
    flags += flags_off * COMPACT_FLAG_BYTES(PRED);
    if (i < n)
        positions[i] = compact_keep_at(in, i, flags, value);
    else if (i == n)
        positions[n] = 0;
}

/* The taught form, 3: element i, kept when positions[i + 1] > positions[i],
 * goes to positions[i] (partition: a rejected one to positions[n] + i -
 * positions[i], or from the end backwards). */
COMPACT_KERNEL compact_scatter(global const T *in, ulong in_off, global T *out, ulong out_off,
                               ulong n, global const ulong *positions, global ulong *indices,
                               ulong indices_off, global ulong *lengths, ulong lengths_off,
                               global ulong *count, ulong count_off, uint kflags)
{
    const ulong i = get_global_id(0);
    in += in_off;
    out += out_off;
    if (i == 0)
        count[count_off] = positions[n];
    if (i >= n)
        return;
    const ulong p = positions[i];
    if (positions[i + 1] > p) {
        out[p] = in[i];
#if MODE == COMPACT_SELECT
        if (kflags & COMPACT_WITH_INDICES)
            indices[indices_off + p] = i;
#elif MODE == COMPACT_RLE
        ulong next = i + 1; /* the next run head, or n */
        while (next < n && positions[next + 1] == positions[next])
            ++next;
        lengths[lengths_off + p] = next - i;
#endif
    }
#if MODE == COMPACT_PARTITION
    else
        out[positions[n] + i - p] = in[i];
#elif MODE == COMPACT_PARTITION_REVERSED
    else
        out[n - 1 - (i - p)] = in[i];
#endif
}

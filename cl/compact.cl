/* SPDX-License-Identifier: MIT */
/* Stream compaction kernels: select, partition, unique and run-length
 * encoding (MODE), in one pass (compact_single_pass, with compact_count
 * first for a stable partition) or in the taught three (compact_flags, a
 * scan of the flags by the host, compact_scatter), or chunked for a CPU
 * (compact_chunk_count, compact_chunk_scatter). Which elements are kept
 * and what the look-back carries: compact_keep.clh. The contract with
 * src/compact.c: compact_abi.h. The input never aliases an output (the host
 * copies it first for an in-place call). */
#ifndef CLPRIM_ASSEMBLED
#include "common/abi.h"
#include "compact_abi.h"
#include "common/elem.clh"
#include "common/simd.clh"
#include "common/wg_scan.clh"
#include "compact_keep.clh"
#include "common/lookback.clh"
#include "common/chunk.clh"
#endif

#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef COMPACT_POSITIONS
#define COMPACT_POSITIONS (MODE == COMPACT_RLE)
#endif
#if MODE == COMPACT_RLE && !COMPACT_POSITIONS
#error "clprim: run-length encoding needs the kept positions (COMPACT_POSITIONS 1)"
#endif
/* 1: a bounded grid of work-groups, each looping over tiles (the host's
 * choice where it was measured faster); 0: one tile per work-group, in
 * straight-line code, which is what PoCL needs (it miscompiles this kernel's
 * barriers inside a loop: work-groups stopped at a barrier, or not, as
 * printf calls were added) */
#ifndef COMPACT_LOOPED
#define COMPACT_LOOPED 0
#endif
#if ITEMS > 32
#error "clprim: ITEMS is at most 32 (a work-item's kept elements are a 32-bit mask)"
#endif
#define TILE (WG_SIZE * ITEMS)
#define COMPACT_KERNEL kernel CLPRIM_KERNEL_ATTRS void

/* Flags (uint8 or uint32) are read where a warp reads consecutive ones, as
 * the tile is stashed, and kept as one bit per element in local memory (a
 * warp's ballot is the word of its 32 elements); read where each work-item
 * takes its ITEMS consecutive elements, every work-item read a byte 32 apart
 * from its neighbour's (H100, 50% kept: 0.276 of copy, against 0.78 for a
 * comparison). */
#if CLPRIM_WARP_PTX
#define COMPACT_MASKS (PRED == 6 || PRED == 7)
#else
#define COMPACT_MASKS 0
#endif
/* counts scanned over the work-group: group_scan.clh's clprim_u32 (the
 * same speed as a scan of its own, H100 2026-11-25) */
#define compact_exscan clprim_u32_wg_exscan
#define COMPACT_SCRATCH CLPRIM_GROUP_SCRATCH

#if CLPRIM_SINGLE_PASS
/* Tile t's elements into registers r, work-item o holding o, o + WG_SIZE,
 * ... (coalesced), so that the loads are in flight while the work-group
 * works on the tile before. */
inline void compact_fetch(T *r, uint *f, global const T *in, global const uchar *flags, ulong base,
                          uint valid)
{
    for (uint k = 0; k < ITEMS; ++k) {
        const uint i = k * WG_SIZE + get_local_id(0);
        if (i < valid) {
            r[k] = in[base + i];
#if COMPACT_MASKS
            f[k] = compact_flag(flags, base + i);
#endif
        }
    }
    (void)f;
    (void)flags;
}

/* The carried value of a tile held in registers (as compact_fetch left it):
 * what the work-group publishes for the next tile before the current one
 * looks back. Every work-item must call it. */
inline LB_T compact_registers_total(const T *r, const uint *f, global const T *in, ulong base,
                                    uint valid, global const uchar *flags, T value,
                                    local uint *scratch, local uint *last)
{
    uint mine = 0, total, top = 0;
    for (uint k = 0; k < ITEMS; ++k) {
        const uint i = k * WG_SIZE + get_local_id(0);
        if (i < valid) {
#if COMPACT_MASKS
            if (f[k] != 0) {
#else
            /* a run head needs its predecessor: global memory (the cache has it) */
            const T prev = base + i > 0 ? in[base + i - 1] : r[k];
            if (compact_keep(r[k], prev, base + i, flags, value)) {
#endif
                ++mine;
                top = i + 1;
            }
        }
    }
#if MODE == COMPACT_RLE
    if (get_local_id(0) == 0)
        *last = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (top)
        atomic_max(last, top);
#endif
    compact_exscan(mine, scratch, &total);
#if MODE == COMPACT_RLE
    compact_carry c;
    c.count = total;
    c.last = total ? base + *last - 1 : 0;
    return c;
#else
    (void)top;
    (void)last;
    return total;
#endif
}

/* Tiles in ticket order. A work-group takes two tickets at first when it
 * loops over tiles (COMPACT_LOOPED: a bounded grid): the tile it works on and
 * the next, whose elements it loads into registers, and whose count it
 * publishes, before the current tile looks back, so that memory stays busy
 * while a tile waits and no later tile waits on one not yet started (the
 * scan's single pass, cl/scan.cl, measured why). Per tile: the elements go
 * through local memory (stored coalesced, read back as ITEMS consecutive
 * elements per work-item), are flagged and counted; after a work-group scan
 * of the counts the kept elements are gathered at the front of the tile
 * (partition: the rejected ones at its back), the count before the tile is
 * looked back for, and the gathered run is written out coalesced. */
COMPACT_KERNEL compact_single_pass(global const T *in, ulong in_off, global T *out, ulong out_off,
                                   ulong n, global const uchar *flags, ulong flags_off, T value,
                                   global ulong *indices, ulong indices_off,
                                   global ulong *lengths, ulong lengths_off, global ulong *count,
                                   ulong count_off, global uchar *state, uint generation,
                                   uint kflags)
{
    /* padded (PAD, wg_scan.clh): work-item o reading its ITEMS consecutive
     * elements o * ITEMS + j meets every bank once; unpadded, a warp's 32
     * reads fell on 2 banks (16 per bank) */
    local T tile[PADDED_SIZE(TILE)];
#if COMPACT_POSITIONS
    local uint pos[PADDED_SIZE(TILE)];
#endif
    local uint scratch[COMPACT_SCRATCH], scratch2[COMPACT_SCRATCH];
#if COMPACT_MASKS
    local uint kmask[TILE / 32];
#endif
    local uint tickets[2], next_last;
    local LB_T before_tile;
    const ulong tile_size = TILE, tiles = (n + TILE - 1) / TILE;
    const clprim_tiles st = clprim_tiles_at(state, tiles);
    const uint lid = get_local_id(0), one_tile = (kflags & COMPACT_ONE_TILE) != 0;
    const int loop = COMPACT_LOOPED && !one_tile;
    T r[ITEMS], x[ITEMS];
    uint f[COMPACT_MASKS ? ITEMS : 1]; /* the flags of r's elements */

    in += in_off;
    out += out_off;
    flags += flags_off * COMPACT_FLAG_BYTES(PRED);
    clprim_tiles_take(st, one_tile, loop, tiles, tickets);
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong t = tickets[0];
    if (t < tiles)
        compact_fetch(r, f, in, flags, t * TILE, (uint)min((ulong)TILE, n - t * TILE));
    int first = 1;
#if COMPACT_LOOPED
    while (t < tiles)
#endif
    { /* without the loop the grid has one work-group per tile: t < tiles */
        const ulong base = t * TILE;
        const uint valid = (uint)min((ulong)TILE, n - base);
        for (uint k = 0; k < ITEMS; ++k) {
            const uint i = k * WG_SIZE + lid;
            if (i < valid)
                tile[PAD(i)] = r[k];
#if COMPACT_MASKS
            const uint bits = clprim_ballot(i < valid && f[k] != 0);
            if ((lid & 31u) == 0)
                kmask[i / 32] = bits;
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const ulong next = tickets[1];
        const uint next_valid = next < tiles ? (uint)min((ulong)TILE, n - next * TILE) : 0u;
        if (next < tiles)
            compact_fetch(r, f, in, flags, next * TILE, next_valid);

        /* this work-item's ITEMS consecutive elements (x), and which are kept */
        uint kept = 0, mine = 0;
        for (uint j = 0; j < ITEMS; ++j) {
            const uint li = lid * ITEMS + j;
            if (li < valid) {
                x[j] = tile[PAD(li)];
#if PRED == COMPACT_PRED_HEADS
                const T prev = li > 0 ? tile[PAD(li - 1)] : (base > 0 ? in[base - 1] : x[j]);
#else
                const T prev = x[j];
#endif
#if COMPACT_MASKS
                if ((kmask[li / 32] >> (li % 32)) & 1u) {
                    (void)prev;
#else
                if (compact_keep(x[j], prev, base + li, flags, value)) {
#endif
                    kept |= 1u << j;
                    ++mine;
                }
            }
        }
        uint total;
        const uint before = compact_exscan(mine, scratch, &total);
#if COMPACT_LOOPED
        /* the next tile's count, published before this tile waits (tiles after
         * it may be waiting for it already; next >= 1 whenever next < tiles) */
        if (next < tiles) {
            const LB_T agg = compact_registers_total(r, f, in, next * TILE, next_valid, flags,
                                                     value, scratch2, &next_last);
            if (lid == 0)
                clprim_tile_publish(st, next, generation, TILE_AGGREGATE, agg);
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE); /* every read of the tile is done */
        {
            uint rk = before;
#if MODE == COMPACT_PARTITION || MODE == COMPACT_PARTITION_REVERSED
            uint q = min(lid * ITEMS, valid) - before; /* rejected before these elements */
#endif
            for (uint j = 0; j < ITEMS; ++j) {
                const uint li = lid * ITEMS + j;
                if (kept & (1u << j)) {
                    tile[PAD(rk)] = x[j];
#if COMPACT_POSITIONS
                    pos[PAD(rk)] = li;
#endif
                    ++rk;
                }
#if MODE == COMPACT_PARTITION || MODE == COMPACT_PARTITION_REVERSED
                else if (li < valid) {
                    const uint slot = TILE - 1 - q++; /* PAD evaluates its argument twice */
                    tile[PAD(slot)] = x[j];
                }
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        /* the first SIMD group (or work-item 0) publishes and looks back:
         * written out here, not through lookback.clh's clprim_wg_tile_prefix,
         * which costs this kernel registers and speed (H100, 2026-11-25, int32
         * at 2^28: select 0.779 -> 0.687 of copy, uint8 flags 0.71 -> 0.59,
         * both at 128 registers; unbounded, 199 registers and flags 0.373).
         * Tried again on 2026-11-26 with the rows' bounds: flags 0.729 ->
         * 0.372 (199 registers again), select at 80 0.860 -> 0.647 (spills),
         * run-length 0.450 -> 0.428; unique and partition the same. */
        if (lid < 32) {
#if MODE == COMPACT_RLE
            compact_carry own;
            own.count = total;
            own.last = total ? base + pos[PAD(total - 1)] : 0;
#else
            const ulong own = total;
#endif
            LB_T prefix = LB_IDENTITY;
            if (!one_tile && t > 0) {
#if COMPACT_LOOPED /* later tiles: published by the iteration before */
                if (lid == 0 && first)
#else
                if (lid == 0)
#endif
                    clprim_tile_publish(st, t, generation, TILE_AGGREGATE, own);
#if CLPRIM_LOOKBACK_WARP
                prefix = clprim_lookback_warp(st, t, generation, LB_IDENTITY, in, tile_size, n,
                                              flags, value);
#else
                if (lid == 0)
                    prefix = clprim_lookback(st, t, generation, LB_IDENTITY, 1, in, tile_size,
                                             n, flags, value);
#endif
            }
            if (lid == 0) {
                if (!one_tile)
                    clprim_tile_publish(st, t, generation, TILE_PREFIX, LB_OP(prefix, own));
                before_tile = prefix;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* the ticket after next, by a work-item outside the look-back, while
         * the tile is written (everyone has read tickets[1] by now) */
#if COMPACT_LOOPED
        if (loop && lid == WG_SIZE - 1 && next < tiles)
            tickets[1] = atomic_inc(st.counters);
#endif
        const LB_T carried = before_tile;
        const ulong b = COMPACT_COUNT(carried);

        for (uint i = lid; i < total; i += WG_SIZE) {
            out[b + i] = tile[PAD(i)];
#if COMPACT_POSITIONS && MODE == COMPACT_SELECT
            if (kflags & COMPACT_WITH_INDICES)
                indices[indices_off + b + i] = base + pos[PAD(i)];
#endif
#if MODE == COMPACT_RLE
            /* each run head ends the run before it */
            if (b + i > 0)
                lengths[lengths_off + b + i - 1] =
                    base + pos[PAD(i)] - (i > 0 ? base + pos[PAD(i - 1)] : carried.last);
#endif
        }
#if MODE == COMPACT_PARTITION || MODE == COMPACT_PARTITION_REVERSED
        {
            const uint rejected = valid - total;
            const ulong rejected_before = base - b;
#if MODE == COMPACT_PARTITION
            const ulong kept_total = count[count_off]; /* compact_count's */
            for (uint i = lid; i < rejected; i += WG_SIZE)
                out[kept_total + rejected_before + i] = tile[PAD(TILE - 1 - i)];
#else
            for (uint i = lid; i < rejected; i += WG_SIZE)
                out[n - 1 - (rejected_before + i)] = tile[PAD(TILE - 1 - i)];
#endif
        }
#endif
        if (base + TILE >= n && lid == 0) { /* the last tile: the count, the last run */
#if MODE == COMPACT_RLE
            if (b + total > 0)
                lengths[lengths_off + b + total - 1] =
                    n - (total ? base + pos[PAD(total - 1)] : carried.last);
#endif
            count[count_off] = b + total;
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* tile, positions, tickets free for the next tile */
        t = next;
        first = 0;
    }
    if (lid == 0 && !one_tile)
        clprim_tiles_finish(st);
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

/* CHUNKED, the CPU form (common/chunk.clh): each chunk's kept count to
 * counts[g], then each chunk walks its elements in order and writes as
 * compact_scatter does, from the kept count of the chunks before it. One
 * work-item per work-group; any work-group size. */
kernel void compact_chunk_count(global const T *in, ulong in_off, ulong n,
                                global const uchar *flags, ulong flags_off, T value,
                                global ulong *counts)
{
    ulong i, kept = 0;
    const ulong end = clprim_chunk_range(n, &i);
    if (get_local_id(0))
        return;
    in += in_off;
    flags += flags_off * COMPACT_FLAG_BYTES(PRED);
    for (; i < end; ++i)
        kept += compact_keep_at(in, i, flags, value);
    counts[get_group_id(0)] = kept;
}

/* A chunk is walked in blocks of COMPACT_CHUNK_BLOCK elements, each
 * element appended to a private buffer of the kept (and one of the
 * rejected) with no branch, the buffers then written out: a branch per
 * element, taken at random, cost a CPU more than the memory did (2^24
 * int32, half kept, 2 cores: 80 ms). Run-length encoding, whose lengths
 * look ahead, takes the plain walk. */
#define COMPACT_CHUNK_BLOCK 64u
kernel void compact_chunk_scatter(global const T *in, ulong in_off, global T *out, ulong out_off,
                                  ulong n, global const uchar *flags, ulong flags_off, T value,
                                  global const ulong *counts, global ulong *indices,
                                  ulong indices_off, global ulong *lengths, ulong lengths_off,
                                  global ulong *count, ulong count_off, uint kflags)
{
    const ulong g = get_group_id(0), groups = get_num_groups(0);
    ulong i, p = 0, total = 0;
    const ulong end = clprim_chunk_range(n, &i);
    if (get_local_id(0))
        return;
    in += in_off;
    out += out_off;
    flags += flags_off * COMPACT_FLAG_BYTES(PRED);
    for (ulong h = 0; h < groups; ++h) {
        p += h < g ? counts[h] : 0;
        total += counts[h];
    }
    if (g == 0)
        count[count_off] = total;
#if MODE == COMPACT_RLE
    for (; i < end; ++i) {
        if (compact_keep_at(in, i, flags, value)) {
            ulong next = i + 1; /* the next run head, or n (past the chunk, too) */
            out[p] = in[i];
            while (next < n && !compact_keep_at(in, next, flags, value))
                ++next;
            lengths[lengths_off + p++] = next - i;
        }
    }
    (void)indices;
    (void)kflags;
#else
    while (i < end) {
        const uint m = (uint)min((ulong)COMPACT_CHUNK_BLOCK, end - i);
        T kept[COMPACT_CHUNK_BLOCK];
        uint q = 0;
#if MODE == COMPACT_SELECT
        uint at[COMPACT_CHUNK_BLOCK];
#elif MODE == COMPACT_PARTITION || MODE == COMPACT_PARTITION_REVERSED
        T rejected[COMPACT_CHUNK_BLOCK];
        uint r = 0;
#endif
        for (uint j = 0; j < m; ++j) {
            const T x = in[i + j];
            const uint keep = compact_keep(x, i + j > 0 ? in[i + j - 1] : x, i + j, flags, value);
            kept[q] = x;
#if MODE == COMPACT_SELECT
            at[q] = j;
#elif MODE == COMPACT_PARTITION || MODE == COMPACT_PARTITION_REVERSED
            rejected[r] = x;
            r += 1u - keep;
#endif
            q += keep;
        }
        for (uint j = 0; j < q; ++j)
            out[p + j] = kept[j];
#if MODE == COMPACT_SELECT
        if (kflags & COMPACT_WITH_INDICES)
            for (uint j = 0; j < q; ++j)
                indices[indices_off + p + j] = i + at[j];
#elif MODE == COMPACT_PARTITION
        for (uint j = 0; j < r; ++j) /* after every kept one, in order */
            out[total + (i - p) + j] = rejected[j];
#elif MODE == COMPACT_PARTITION_REVERSED
        for (uint j = 0; j < r; ++j) /* from the end backwards */
            out[n - 1 - (i - p) - j] = rejected[j];
#endif
        p += q;
        i += m;
    }
    (void)indices;
    (void)lengths;
    (void)kflags;
#endif
}

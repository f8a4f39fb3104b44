/* SPDX-License-Identifier: MIT */
/* Scan kernels: one kernel per work-group algorithm, each scanning one tile
 * per work-group and (optionally) writing the tile's total to `sums`, plus the
 * uniform add that the hierarchical driver (src/scan.c) runs after the tile
 * totals have been scanned. Tiles past n are padded with the identity.
 *
 * scan_multilevel also runs as the last pass of reduce-then-scan: scan_reduce
 * writes each tile's total, the host scans those, and scan_multilevel reads
 * its tile's prefix (SCAN_READ_CARRY), so the data is read twice and written
 * once instead of the scan-then-add driver's two reads and two writes.
 *
 * The contract with the host (flags, arguments, tile sizes, local memory)
 * is scan_abi.h. */
#ifndef CLPRIM_ASSEMBLED
#include "common/abi.h"
#include "scan_abi.h"
#include "common/elem.clh"
#include "common/simd.clh"
#include "common/wg_scan.clh"
#include "common/lookback.clh"
#include "common/ordered.clh"
#include "common/tile.clh"
#include "common/chunk.clh"
#endif

#ifndef COARSE_ITEMS
#define COARSE_ITEMS 8
#endif
#ifndef TILE_ITEMS
#define TILE_ITEMS 16
#endif
/* 1 (the host's choice: built-in elements whose tile share fits in
 * registers): the single pass fetches its next tile into registers before it
 * looks back for the current one, so the loads are in flight while it waits,
 * and work-groups loop over tiles. 0: one tile per work-group. */
#ifndef SP_PREFETCH
#define SP_PREFETCH 0
#endif
#if SP_PREFETCH && !CLPRIM_COMMUTATIVE
#error "clprim: SP_PREFETCH publishes aggregates in another order: OP must commute"
#endif

/* flags, argument order and tile sizes: scan_abi.h */

#define SCAN_KERNEL kernel CLPRIM_KERNEL_ATTRS void
/* in and out may be the same buffer: every tile reads all its input before a
 * barrier and writes after it, and tiles do not overlap. sums is NULL unless
 * flags has SCAN_WRITE_SUMS. */
#define SCAN_ARGS                                                              \
    global const IN_T *in, ulong in_off, global T *out, ulong out_off, ulong n, \
        global T *sums, ulong sums_off, uint flags

/* Stores a tile whose inclusive scan is s[0 .. count) (unpadded). */
inline void clprim_store_inclusive(global T *out, ulong base, ulong n,
                                   local const T *s, uint count, uint flags,
                                   global T *sums)
{
    const uint lid = get_local_id(0);
    for (uint i = lid; i < count && base + i < n; i += WG_SIZE)
        out[base + i] = !(flags & SCAN_EXCLUSIVE) ? s[i]
                        : i > 0                   ? s[i - 1]
                                                  : IDENTITY;
    if ((flags & SCAN_WRITE_SUMS) && lid == 0)
        sums[get_group_id(0)] = s[count - 1];
}

SCAN_KERNEL scan_kogge_stone(SCAN_ARGS)
{
    local T s[WG_SIZE];
    const uint lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * WG_SIZE;
    s[lid] = clprim_load_in(in + in_off, base + lid, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    clprim_ks_ladder(s);
    clprim_store_inclusive(out + out_off, base, n, s, WG_SIZE, flags, sums + sums_off);
}

SCAN_KERNEL scan_kogge_stone_db(SCAN_ARGS)
{
    local T a[WG_SIZE], b[WG_SIZE];
    const uint lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * WG_SIZE;
    a[lid] = clprim_load_in(in + in_off, base + lid, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    local T *r = clprim_wg_scan_ks_db(a, b);
    clprim_store_inclusive(out + out_off, base, n, r, WG_SIZE, flags, sums + sums_off);
}

SCAN_KERNEL scan_brent_kung(SCAN_ARGS)
{
    local T s[2 * WG_SIZE];
    const uint lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * 2 * WG_SIZE;
    s[lid] = clprim_load_in(in + in_off, base + lid, n);
    s[lid + WG_SIZE] = clprim_load_in(in + in_off, base + lid + WG_SIZE, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    clprim_wg_scan_brent_kung(s);
    clprim_store_inclusive(out + out_off, base, n, s, 2 * WG_SIZE, flags, sums + sums_off);
}

SCAN_KERNEL scan_blelloch(SCAN_ARGS)
{
    local T s[PADDED_SIZE(2 * WG_SIZE)];
    const uint lid = get_local_id(0), ai = lid, bi = lid + WG_SIZE;
    const ulong base = (ulong)get_group_id(0) * 2 * WG_SIZE;
    in += in_off;
    out += out_off;
    const T x0 = clprim_load_in(in, base + ai, n), x1 = clprim_load_in(in, base + bi, n);
    s[PAD(ai)] = x0;
    s[PAD(bi)] = x1;
    barrier(CLK_LOCAL_MEM_FENCE);
    const T total = clprim_wg_scan_blelloch(s);
    const int exclusive = (flags & SCAN_EXCLUSIVE) != 0;
    if (base + ai < n)
        out[base + ai] = exclusive ? s[PAD(ai)] : OP(s[PAD(ai)], x0);
    if (base + bi < n)
        out[base + bi] = exclusive ? s[PAD(bi)] : OP(s[PAD(bi)], x1);
    if ((flags & SCAN_WRITE_SUMS) && lid == 0)
        sums[sums_off + get_group_id(0)] = total;
}

/* Coalesced transfers between global memory and a padded local tile of
 * WG_SIZE*items elements: consecutive work-items touch consecutive elements. */
inline void clprim_tile_load(local T *s, global const IN_T *in, ulong base, ulong n, uint items)
{
    for (uint k = 0; k < items; ++k) {
        const uint i = k * WG_SIZE + get_local_id(0);
        s[PAD(i)] = clprim_load_in(in, base + i, n);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

inline void clprim_tile_store(global T *out, local const T *s, ulong base, ulong n, uint items)
{
    for (uint k = 0; k < items; ++k) {
        const uint i = k * WG_SIZE + get_local_id(0);
        if (base + i < n)
            out[base + i] = s[PAD(i)];
    }
}

SCAN_KERNEL scan_coarsened(SCAN_ARGS)
{
    local T s[PADDED_SIZE(WG_SIZE * COARSE_ITEMS)], totals[WG_SIZE];
    const ulong base = (ulong)get_group_id(0) * (WG_SIZE * COARSE_ITEMS);
    clprim_tile_load(s, in + in_off, base, n, COARSE_ITEMS);
    clprim_wg_scan_coarsened(s, totals, COARSE_ITEMS, flags & SCAN_EXCLUSIVE);
    clprim_tile_store(out + out_off, s, base, n, COARSE_ITEMS);
    if ((flags & SCAN_WRITE_SUMS) && get_local_id(0) == 0)
        sums[sums_off + get_group_id(0)] = totals[WG_SIZE - 1];
}

/* The tuned tile: TILE_ITEMS consecutive elements per work-item scanned in
 * registers, the per-work-item totals scanned with SIMD-group shuffles where
 * the device has them (simd.clh). Local memory only transposes the tile so
 * that global loads and stores stay coalesced.
 *
 * First half: loads the tile, leaves each work-item's inclusive run in r and
 * returns the exclusive prefix of this work-item within the tile (*total:
 * the tile's total). */
inline T clprim_tile_scan_begin(local T *s, local T *scratch, global const IN_T *in, ulong base,
                                ulong n, T *r, T *total)
{
    const uint first = get_local_id(0) * TILE_ITEMS;
    clprim_tile_load(s, in, base, n, TILE_ITEMS);
    T run = IDENTITY;
    for (uint j = 0; j < TILE_ITEMS; ++j) {
        run = OP(run, s[PAD(first + j)]);
        r[j] = run;
    }
    return clprim_wg_exscan(run, scratch, total);
}

/* Second half: stores the tile with `prefix` (everything before this
 * work-item's elements) combined on the left. */
inline void clprim_tile_scan_end(local T *s, global T *out, ulong base, ulong n, const T *r,
                                 T prefix, uint exclusive)
{
    const uint first = get_local_id(0) * TILE_ITEMS;
    for (uint j = 0; j < TILE_ITEMS; ++j)
        s[PAD(first + j)] = OP(prefix, exclusive ? (j > 0 ? r[j - 1] : IDENTITY) : r[j]);
    barrier(CLK_LOCAL_MEM_FENCE);
    clprim_tile_store(out, s, base, n, TILE_ITEMS);
}

/* Both steps at once, for the path without prefetch. */
inline void clprim_sp_tile_load(local TV *s, global const IN_T *in, ulong base, ulong n, uint flags)
{
    for (uint k = 0; k < SP_CHUNKS; ++k) {
        const uint g = k * WG_SIZE + get_local_id(0);
        s[clprim_sp_slot_of(g)] = clprim_sp_fetch_chunk(in, base, n, g, flags & SCAN_ALIGNED);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* First half, once the tile is in s and a barrier passed: leaves each
 * work-item's inclusive run in s and returns its exclusive prefix within
 * the tile (*total: the tile's total). */
inline T clprim_tile_scan_begin_local(local TV *s, local T *scratch, T *total)
{
    const uint o = get_local_id(0);
    T run = IDENTITY;
    for (uint c = 0; c < SP_CHUNKS; ++c) {
        clprim_chunk x;
        x.v = s[clprim_sp_slot(o, c)];
        for (uint j = 0; j < VEC; ++j)
            x.a[j] = run = OP(run, x.a[j]);
        s[clprim_sp_slot(o, c)] = x.v;
    }
    return clprim_wg_exscan(run, scratch, total);
}

/* Second half: combines `prefix` (everything before this work-item's
 * elements) on the left and stores the tile. */
inline void clprim_tile_scan_end_local(local TV *s, global T *out, ulong base, ulong n, T prefix,
                                       uint flags)
{
    const uint o = get_local_id(0), exclusive = flags & SCAN_EXCLUSIVE;
    T left = IDENTITY; /* the inclusive value before the current element */
    for (uint c = 0; c < SP_CHUNKS; ++c) {
        clprim_chunk x;
        x.v = s[clprim_sp_slot(o, c)];
        for (uint j = 0; j < VEC; ++j) {
            const T inclusive = x.a[j];
            x.a[j] = OP(prefix, exclusive ? left : inclusive);
            left = inclusive;
        }
        s[clprim_sp_slot(o, c)] = x.v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < SP_CHUNKS; ++k) {
        const uint g = k * WG_SIZE + get_local_id(0);
        clprim_sp_store_chunk(out, base, n, g, s[clprim_sp_slot_of(g)], flags & SCAN_ALIGNED);
    }
}

SCAN_KERNEL scan_multilevel(SCAN_ARGS)
{
    local T s[PADDED_SIZE(WG_SIZE * TILE_ITEMS)], scratch[CLPRIM_WG_SCAN_SCRATCH];
    const ulong base = (ulong)get_group_id(0) * (WG_SIZE * TILE_ITEMS);
    T r[TILE_ITEMS], total;
    T prefix = clprim_tile_scan_begin(s, scratch, in + in_off, base, n, r, &total);
    if (flags & SCAN_READ_CARRY)
        prefix = OP(sums[sums_off + get_group_id(0)], prefix);
    clprim_tile_scan_end(s, out + out_off, base, n, r, prefix, flags & SCAN_EXCLUSIVE);
    if ((flags & SCAN_WRITE_SUMS) && get_local_id(0) == 0)
        sums[sums_off + get_group_id(0)] = total;
}

/* Single-pass scan: one launch reads the data once and writes it once.
 * Work-groups take tile indices from an atomic ticket in start order, so a
 * tile only ever waits for tiles whose work-groups are already running.
 * Decoupled look-back (Merrill & Garland): a tile publishes its aggregate as
 * soon as it has it, looks back for its prefix (lookback.clh), publishes its
 * inclusive prefix, then writes its output. Domino (SCAN_DOMINO): the same
 * without aggregates, so each tile waits for its predecessor's prefix.
 *
 * With SP_PREFETCH a work-group scans tiles until the ticket runs past the
 * last one (the host launches a few work-groups per compute unit), holding
 * two tickets: the tile it scans and the next one, whose loads are issued and
 * whose aggregate is published before the current tile looks back, so memory
 * stays busy while a tile waits (H100, int32 at 2^28: 0.69 -> 0.91 of copy).
 * The aggregate must come first: a ticket held while its tile waits for
 * another serialises every tile after it (measured: 30x slower). Holding a
 * later ticket cannot deadlock: the lowest unfinished tile waits for none.
 * Without SP_PREFETCH, and for domino, one tile per work-group.
 * The last work-group to finish resets the counters for the next call. */
#if CLPRIM_SINGLE_PASS
SCAN_KERNEL scan_single_pass(global const IN_T *in, ulong in_off, global T *out, ulong out_off,
                             ulong n, global uchar *state, uint generation, uint flags,
                             global const T *init, ulong init_off)
{
    local TV s[WG_SIZE * SP_CHUNKS];
    local T scratch[CLPRIM_WG_SCAN_SCRATCH], scratch2[CLPRIM_WG_SCAN_SCRATCH];
    local uint tickets[2];
    local T carry_slot;
#if LB_ORDERED
    /* RUN_TO_RUN: every tile's own total in the one order its fallback
     * reproduces (lookback.clh), the next tile's kept for its turn */
    local T canon[WG_SIZE];
    T own_next = IDENTITY;
#endif
    const ulong tile = WG_SIZE * SP_TILE_ITEMS, tiles = (n + tile - 1) / tile;
    const int one_tile = (flags & SCAN_ONE_TILE) != 0, domino = (flags & SCAN_DOMINO) != 0;
    const clprim_tiles st = clprim_tiles_at(state, tiles);
    const uint lid = get_local_id(0);
    clprim_raw r[SP_PREFETCH ? SP_CHUNKS : 1];

    in += in_off;
    out += out_off;
    /* the carry-in (SCAN_INIT), read before any output is written: it is
     * tile 0's prefix and, for the look-back, a PREFIX before tile 0 */
    const T carry_in = (flags & SCAN_INIT) ? init[init_off] : IDENTITY;
    /* domino publishes no aggregates, so it never holds a second ticket */
    const int loop = SP_PREFETCH && !domino && !one_tile;
    clprim_tiles_take(st, one_tile, loop, tiles, tickets);
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong t = tickets[0];
#if SP_PREFETCH
    if (t < tiles)
        clprim_tile_fetch(r, in, t * tile, n, flags & SCAN_ALIGNED);
#endif
    int first = 1;
    while (t < tiles) {
        const ulong base = t * tile;
#if SP_PREFETCH
        clprim_tile_stash(s, r, base, n);
        barrier(CLK_LOCAL_MEM_FENCE);
#else
        clprim_sp_tile_load(s, in, base, n, flags);
#endif
        const ulong next = tickets[1];
#if SP_PREFETCH
        if (next < tiles)
            clprim_tile_fetch(r, in, next * tile, n, flags & SCAN_ALIGNED);
#endif
        T total;
#if LB_ORDERED
        const T own = (SP_PREFETCH && !first) ? own_next : clprim_tile_canon_local(s, canon);
#endif
        const T prefix = clprim_tile_scan_begin_local(s, scratch, &total);
#if LB_ORDERED
        total = own;
#endif
#if SP_PREFETCH
        /* the next tile's aggregate, published before this tile waits: tiles
         * after it may already be waiting for it (in any order: commutative;
         * next < tiles only when looping, so never for domino, and next >= 1) */
        if (next < tiles) {
#if LB_ORDERED
            const T agg = own_next = clprim_tile_canon_regs(r, next * tile, n, canon);
#else
            T v = IDENTITY, agg;
            for (uint k = 0; k < SP_CHUNKS; ++k)
                v = OP(v, clprim_fold_vec(clprim_sp_cook(r[k], next * tile, n,
                                                         k * WG_SIZE + lid)));
            clprim_wg_exscan(v, scratch2, &agg);
#endif
            if (lid == 0)
                clprim_tile_publish(st, next, generation, TILE_AGGREGATE, agg);
        }
#endif
        /* in place, the prefix is visible before any of this tile's output
         * (lookback.clh); otherwise nobody reads our output, and the fence, a
         * full L2 round trip on every tile's critical path, is skipped (H100:
         * 0.56 -> 0.61 of copy) */
        const uint how = (one_tile ? TP_ALONE : 0u) | (domino ? TP_DOMINO : 0u) |
                         (SP_PREFETCH && !first ? TP_PUBLISHED : 0u) |
                         ((flags & SCAN_IN_PLACE) ? TP_FENCE : 0u);
        const T carry = clprim_wg_tile_prefix(st, t, generation, total, carry_in, how, &carry_slot,
                                              in, tile, n);
        /* the ticket after next, by a work-item outside the look-back,
         * while the tile is stored (everyone has read tickets[1] by now) */
        if (SP_PREFETCH && lid == WG_SIZE - 1 && next < tiles)
            tickets[1] = atomic_inc(st.counters);
        clprim_tile_scan_end_local(s, out, base, n, OP(carry, prefix), flags);
        barrier(CLK_LOCAL_MEM_FENCE); /* s, carry and tickets free for the next tile */
        t = next;
        first = 0;
    }
    if (lid == 0 && !one_tile)
        clprim_tiles_finish(st);
}
#endif

/* Total of each multilevel tile, combined in element order (OP need not be
 * commutative): transposed through local memory like scan_multilevel, each
 * work-item folds its consecutive elements, then the work-group folds those. */
SCAN_KERNEL scan_reduce(global const IN_T *in, ulong in_off, ulong n, global T *sums, ulong sums_off)
{
    local T s[PADDED_SIZE(WG_SIZE * TILE_ITEMS)], scratch[CLPRIM_WG_SCAN_SCRATCH];
    const uint first = get_local_id(0) * TILE_ITEMS;
    const ulong base = (ulong)get_group_id(0) * (WG_SIZE * TILE_ITEMS);
    clprim_tile_load(s, in + in_off, base, n, TILE_ITEMS);
    T run = IDENTITY, total;
    for (uint j = 0; j < TILE_ITEMS; ++j)
        run = OP(run, s[PAD(first + j)]);
    clprim_wg_exscan(run, scratch, &total);
    if (get_local_id(0) == 0)
        sums[sums_off + get_group_id(0)] = total;
}

/* CHUNKED, the CPU form of reduce-then-scan (common/chunk.clh): each
 * chunk's total, then each chunk scanned from its carry. */
kernel void scan_chunk_reduce(global const IN_T *in, ulong in_off, ulong n, global T *sums,
                              ulong sums_off)
{
    const T run = clprim_chunk_fold(in + in_off, n);
    if (get_local_id(0) == 0)
        sums[sums_off + get_group_id(0)] = run;
}

/* in and out may be the same buffer: each element is read before it is
 * written, by the one work-item of its chunk. */
kernel void scan_chunk(SCAN_ARGS)
{
    ulong i;
    const ulong end = clprim_chunk_range(n, &i);
    T run = (flags & SCAN_READ_CARRY) ? sums[sums_off + get_group_id(0)] : IDENTITY;
    if (get_local_id(0))
        return;
    in += in_off;
    out += out_off;
    if (flags & SCAN_EXCLUSIVE) {
        for (; i < end; ++i) {
            const T x = clprim_in(in[i], i);
            out[i] = run;
            run = OP(run, x);
        }
    } else {
        for (; i < end; ++i)
            out[i] = run = OP(run, clprim_in(in[i], i));
    }
    if (flags & SCAN_WRITE_SUMS)
        sums[sums_off + get_group_id(0)] = run;
}

/* Uniform add: tile g (from tile `first`: 1, or 0 with a carry-in)
 * combines the exclusive prefix of the tile totals, sums[g], into each of
 * its elements. The prefix goes on the left: OP need not be commutative. */
SCAN_KERNEL scan_add(global T *out, ulong out_off, ulong n, global const T *sums,
                     ulong sums_off, ulong tile, ulong first)
{
    const ulong g = (ulong)get_group_id(0) + first;
    const T prefix = sums[sums_off + g];
    const ulong end = min(g * tile + tile, n);
    out += out_off;
    for (ulong i = g * tile + get_local_id(0); i < end; i += WG_SIZE)
        out[i] = OP(prefix, out[i]);
}

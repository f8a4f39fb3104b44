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
 * Tile sizes, which the host must match: kogge_stone and kogge_stone_db
 * WG_SIZE; brent_kung and blelloch 2*WG_SIZE; coarsened WG_SIZE*COARSE_ITEMS;
 * multilevel WG_SIZE*TILE_ITEMS; single pass WG_SIZE*SP_TILE_ITEMS. */
#ifndef CLPRIM_ASSEMBLED
#include "common/elem.clh"
#include "common/simd.clh"
#include "common/wg_scan.clh"
#include "common/lookback.clh"
#endif

#ifndef COARSE_ITEMS
#define COARSE_ITEMS 8
#endif
#ifndef TILE_ITEMS
#define TILE_ITEMS 16
#endif
/* Decoupled look-back takes tile indices from the atomic ticket (1) or from
 * the work-group id (0: one atomic less per tile; progress is still assured
 * by the bounded spin and fallback). Domino always uses the ticket. */
#ifndef LOOKBACK_TICKET
#define LOOKBACK_TICKET 1
#endif
#ifndef SP_TILE_ITEMS
#define SP_TILE_ITEMS 32
#endif

/* flags */
#define SCAN_EXCLUSIVE 1u
#define SCAN_WRITE_SUMS 2u  /* write the tile total to sums[group] */
#define SCAN_READ_CARRY 4u  /* combine sums[group] (the tiles before) on the left */
#define SCAN_DOMINO 8u      /* single pass: wait for the predecessor's prefix only */
#define SCAN_ONE_TILE 16u   /* single pass: n fits one tile (no ticket, no status) */
#define SCAN_IN_PLACE 32u   /* single pass: out is in (the fallback may read output) */

#define SCAN_KERNEL kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
/* in and out may be the same buffer: every tile reads all its input before a
 * barrier and writes after it, and tiles do not overlap. sums is NULL unless
 * flags has SCAN_WRITE_SUMS. */
#define SCAN_ARGS                                                              \
    global const T *in, ulong in_off, global T *out, ulong out_off, ulong n,  \
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
    s[lid] = clprim_load(in + in_off, base + lid, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    clprim_ks_ladder(s);
    clprim_store_inclusive(out + out_off, base, n, s, WG_SIZE, flags, sums + sums_off);
}

SCAN_KERNEL scan_kogge_stone_db(SCAN_ARGS)
{
    local T a[WG_SIZE], b[WG_SIZE];
    const uint lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * WG_SIZE;
    a[lid] = clprim_load(in + in_off, base + lid, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    local T *r = clprim_wg_scan_ks_db(a, b);
    clprim_store_inclusive(out + out_off, base, n, r, WG_SIZE, flags, sums + sums_off);
}

SCAN_KERNEL scan_brent_kung(SCAN_ARGS)
{
    local T s[2 * WG_SIZE];
    const uint lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * 2 * WG_SIZE;
    s[lid] = clprim_load(in + in_off, base + lid, n);
    s[lid + WG_SIZE] = clprim_load(in + in_off, base + lid + WG_SIZE, n);
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
    const T x0 = clprim_load(in, base + ai, n), x1 = clprim_load(in, base + bi, n);
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
inline void clprim_tile_load(local T *s, global const T *in, ulong base, ulong n, uint items)
{
    for (uint k = 0; k < items; ++k) {
        const uint i = k * WG_SIZE + get_local_id(0);
        s[PAD(i)] = clprim_load(in, base + i, n);
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
inline T clprim_tile_scan_begin(local T *s, local T *scratch, global const T *in, ulong base,
                                ulong n, T *r, T *total)
{
    const uint first = get_local_id(0) * TILE_ITEMS;
    clprim_tile_load(s, in, base, n, TILE_ITEMS);
    T run = IDENTITY;
    for (uint j = 0; j < TILE_ITEMS; ++j) {
        run = OP(run, s[PAD(first + j)]);
        r[j] = run;
    }
    return clprim_wg_exscan_value(run, scratch, total);
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

/* The same two halves for the single pass's tile of SP_TILE_ITEMS per
 * work-item, keeping each work-item's run in local memory (in place in s)
 * instead of registers: the single pass holds its tile across the look-back,
 * and registers held there cost work-groups per SM; with them freed, larger
 * tiles pay (H100, int32 at 2^28: 0.61 of copy with 16 per work-item in
 * registers, 0.65 with 16 in local memory, 0.69 with 32). */
inline T clprim_tile_scan_begin_local(local T *s, local T *scratch, global const T *in,
                                      ulong base, ulong n, T *total)
{
    const uint first = get_local_id(0) * SP_TILE_ITEMS;
    clprim_tile_load(s, in, base, n, SP_TILE_ITEMS);
    T run = IDENTITY;
    for (uint j = 0; j < SP_TILE_ITEMS; ++j) {
        run = OP(run, s[PAD(first + j)]);
        s[PAD(first + j)] = run;
    }
    return clprim_wg_exscan_value(run, scratch, total);
}

inline void clprim_tile_scan_end_local(local T *s, global T *out, ulong base, ulong n, T prefix,
                                       uint exclusive)
{
    const uint first = get_local_id(0) * SP_TILE_ITEMS;
    /* backwards: exclusive reads the element to the left before it changes */
    for (uint j = SP_TILE_ITEMS; j-- > 0;)
        s[PAD(first + j)] =
            OP(prefix, exclusive ? (j > 0 ? s[PAD(first + j - 1)] : IDENTITY) : s[PAD(first + j)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    clprim_tile_store(out, s, base, n, SP_TILE_ITEMS);
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
 * The last tile to finish resets the counters for the next call. */
#if CLPRIM_SINGLE_PASS
SCAN_KERNEL scan_single_pass(global const T *in, ulong in_off, global T *out, ulong out_off,
                             ulong n, global uchar *state, uint epoch, uint flags)
{
    local T s[PADDED_SIZE(WG_SIZE * SP_TILE_ITEMS)], scratch[CLPRIM_WG_SCAN_SCRATCH];
    local uint ticket;
    local T carry;
    const ulong tile = WG_SIZE * SP_TILE_ITEMS, tiles = (n + tile - 1) / tile;
    const int one_tile = (flags & SCAN_ONE_TILE) != 0;
    const clprim_tiles st = clprim_tiles_at(state, tiles);
#if LOOKBACK_TICKET
    const int use_ticket = !one_tile;
#else
    const int use_ticket = !one_tile && (flags & SCAN_DOMINO);
#endif
    if (get_local_id(0) == 0 && use_ticket)
        ticket = atomic_inc(st.counters);
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong t = use_ticket ? ticket : get_group_id(0), base = t * tile;
    T total;
    const T prefix = clprim_tile_scan_begin_local(s, scratch, in + in_off, base, n, &total);
    /* the first SIMD group (or work-item 0) looks back */
    const uint lid = get_local_id(0);
    const int domino = (flags & SCAN_DOMINO) != 0;
    if (lid < 32) {
        T before = IDENTITY;
        if (!one_tile && t > 0) {
            if (!domino && lid == 0)
                clprim_tile_publish(st, t, epoch, TILE_AGGREGATE, total);
#if CLPRIM_SIMD_SHUFFLE
            if (!domino)
                before = clprim_lookback_warp(st, t, epoch, in + in_off, tile, n);
            else
#endif
            if (lid == 0)
                before = clprim_lookback(st, t, epoch, !domino, in + in_off, tile, n);
        }
        if (lid == 0) {
            if (!one_tile) {
                clprim_tile_publish(st, t, epoch, TILE_PREFIX, OP(before, total));
                /* in place, the prefix is visible before any of this tile's
                 * output (lookback.clh); otherwise nobody reads our output,
                 * and the fence, a full L2 round trip on every tile's
                 * critical path, is skipped (H100: 0.56 -> 0.61 of copy) */
                if (flags & SCAN_IN_PLACE)
                    clprim_fence_release();
            }
            carry = before;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    clprim_tile_scan_end_local(s, out + out_off, base, n, OP(carry, prefix),
                               flags & SCAN_EXCLUSIVE);
    /* off the critical path: the last tile to finish resets the counters */
    if (lid == 0 && !one_tile && atomic_inc(st.counters + 1) == tiles - 1) {
        atomic_xchg(st.counters, 0u);
        atomic_xchg(st.counters + 1, 0u);
    }
}
#endif

/* Total of each multilevel tile, combined in element order (OP need not be
 * commutative): transposed through local memory like scan_multilevel, each
 * work-item folds its consecutive elements, then the work-group folds those. */
SCAN_KERNEL scan_reduce(global const T *in, ulong in_off, ulong n, global T *sums, ulong sums_off)
{
    local T s[PADDED_SIZE(WG_SIZE * TILE_ITEMS)], scratch[CLPRIM_WG_SCAN_SCRATCH];
    const uint first = get_local_id(0) * TILE_ITEMS;
    const ulong base = (ulong)get_group_id(0) * (WG_SIZE * TILE_ITEMS);
    clprim_tile_load(s, in + in_off, base, n, TILE_ITEMS);
    T run = IDENTITY, total;
    for (uint j = 0; j < TILE_ITEMS; ++j)
        run = OP(run, s[PAD(first + j)]);
    clprim_wg_exscan_value(run, scratch, &total);
    if (get_local_id(0) == 0)
        sums[sums_off + get_group_id(0)] = total;
}

/* Uniform add: tile g (g >= 1) combines the exclusive prefix of the tile
 * totals, sums[g], into each of its elements. The prefix goes on the left:
 * OP need not be commutative. */
SCAN_KERNEL scan_add(global T *out, ulong out_off, ulong n, global const T *sums,
                     ulong sums_off, ulong tile)
{
    const ulong g = (ulong)get_group_id(0) + 1;
    const T prefix = sums[sums_off + g];
    const ulong end = min(g * tile + tile, n);
    out += out_off;
    for (ulong i = g * tile + get_local_id(0); i < end; i += WG_SIZE)
        out[i] = OP(prefix, out[i]);
}

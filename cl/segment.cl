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
#include "common/ordered.clh"
#include "common/tile.clh"
#endif

#ifndef ITEMS
#define ITEMS 8
#endif
#define TILE (WG_SIZE * ITEMS)
#define SEG_KERNEL kernel CLPRIM_KERNEL_ATTRS void

/* (value, heads) pairs scanned over the work-group: group_scan.clh's
 * seg_wg_exscan */
CLPRIM_GROUP_SCANS(seg, seg_pair, seg_combine, seg_pair_make(IDENTITY, 0))

#if CLPRIM_SINGLE_PASS && !SEG_LOOP
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
#if SEG_ORDERED
    local seg_pair canon[WG_SIZE]; /* the tile's own pair in the fallback's order */
#endif
    const ulong tiles = n ? (n + TILE - 1) / TILE : 1;
    const uint lid = get_local_id(0), one_tile = (sflags & SEG_ONE_TILE) != 0;
    const clprim_tiles st = clprim_tiles_at(state, tiles);
    const seg_src src = seg_src_make(in + in_off, segs + segs_off * SEG_UNIT, bounds, n, m, TILE);
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
#if SEG_ORDERED
    /* RUN_TO_RUN: what the tile publishes, in the order of its fallback */
    total = seg_wg_pairwise_local(run, canon);
#endif

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
#if SEG_CARRIES_PAIRS
    const T carried = clprim_wg_tile_prefix(st, t, generation, seg_carry_of(total), LB_IDENTITY,
                                            how, &carry, src).v;
#else
    const LB_T carried = clprim_wg_tile_prefix(st, t, generation, total.v, LB_IDENTITY, how,
                                               &carry, src);
#endif
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

#if CLPRIM_SINGLE_PASS && SEG_LOOP
/* The looping single pass (the host's choice for built-in elements, whose
 * operators commute, with heads from flags, built-in keys or, for a scan,
 * offsets): the scan's
 * engine (tile.clh, the loop of cl/scan.cl) with the heads beside the
 * values. A work-group holds two tickets: it fetches the next tile into
 * registers, scans the current one in local memory, publishes the next
 * tile's status, then looks back for the current one, so memory stays busy
 * while a tile waits. The heads travel as bits: VEC per chunk in registers,
 * ITEMS per work-item's run (one word) in local memory.
 *
 * The next tile's status is published before its elements are in order
 * (each work-item holds chunks WG_SIZE apart), which the lifted operator
 * does not allow; but its value is the OP of every element at or after the
 * tile's last head (all of them when it has none), found by a maximum and
 * then an OP in any order, and a reduce's head count is a sum. */
#if !CLPRIM_COMMUTATIVE || !CLPRIM_T_BUILTIN || SEG_ORDERED
#error "clprim: SEG_LOOP folds the next tile out of order: built-in elements, commuting OP, no LB_ORDERED"
#endif
#if ITEMS != SP_TILE_ITEMS || ITEMS > 32 || (SEG_HEADS == SEG_OFFSETS && SEG_REDUCE)
#error "clprim: SEG_LOOP needs ITEMS == SP_TILE_ITEMS <= 32 (one word of heads), and no offsets reduce"
#endif
#if SEG_HEADS == SEG_KEYS && !KEY_BUILTIN
#error "clprim: SEG_LOOP compares built-in keys"
#endif

/* Tile t's loads into registers: its values (tile.clh), each chunk's
 * segment information, and the rest (seg_fetch_more). */
inline void seg_fetch_tile(seg_src src, ulong t, uint aligned, clprim_raw *r, seg_hraw *hr,
                           uint *after, ulong *k0, ulong *k1, ulong *off)
{
    seg_fetch_more(src, t, after, k0, k1, off);
    clprim_tile_fetch(r, src.in, t * TILE, src.n, aligned);
    for (uint k = 0; k < SP_CHUNKS; ++k)
        hr[k] = seg_fetch_heads(src, t * TILE, k * WG_SIZE + get_local_id(0), aligned);
}

/* The fetched tile's head bits, chunk k's at k * VEC; *last: one past this
 * work-item's last head in the tile (0: none). */
inline uint seg_tile_bits(const seg_hraw *hr, ulong base, ulong n, uint *last)
{
    uint bits = 0;
    *last = 0;
    for (uint k = 0; k < SP_CHUNKS; ++k) {
        const uint g = k * WG_SIZE + get_local_id(0),
                   b = seg_heads_bits(hr[k], base + (ulong)g * VEC, n);
        bits |= b << (k * VEC);
        if (b)
            *last = max(*last, g * VEC + 32u - clz(b));
    }
    return bits;
}

/* (last head + 1, heads) over the work-group: maximum and sum */
#define SEG_LH_COMBINE(a, b) ((uint2)(max((a).x, (b).x), (a).y + (b).y))
CLPRIM_GROUP_SCANS(seg_lh, uint2, SEG_LH_COMBINE, ((uint2)(0u, 0u)))

SEG_KERNEL seg_loop(global const IN_T *in, ulong in_off, global T *out, ulong out_off, ulong n,
                    global const uchar *segs, ulong segs_off, ulong m, global const ulong *bounds,
                    global uchar *keys_out, ulong keys_out_off, global ulong *count,
                    ulong count_off, global uchar *state, uint generation, uint sflags)
{
    local TV s[WG_SIZE * SP_CHUNKS];
    /* chunk g's head bits in byte g (element order); a run's bytes read at once */
    local ulong hbw[(WG_SIZE * SP_CHUNKS + 7) / 8];
    local uchar *hb = (local uchar *)hbw;
    local uint hm[WG_SIZE + 1];          /* run o's head bits; [WG_SIZE]: the next tile's first */
    local seg_pair scratch[CLPRIM_GROUP_SCRATCH];
    local T scratch2[CLPRIM_WG_SCAN_SCRATCH];
    local uint2 scratch3[CLPRIM_GROUP_SCRATCH];
    local uint tickets[2];
    local LB_T carry;
    const ulong tiles = (n + TILE - 1) / TILE;
    const uint lid = get_local_id(0), one_tile = (sflags & SEG_ONE_TILE) != 0,
               aligned = (sflags & SEG_ALIGNED) != 0;
    const clprim_tiles st = clprim_tiles_at(state, tiles);
    clprim_raw r[SP_CHUNKS];
    seg_hraw hr[SP_CHUNKS];
    uint bits = 0; /* the fetched tile's head bits: chunk k's at k * VEC */
    /* fetched with the tile, so that no load waits at a barrier: a reduce's
     * head just after the tile; offsets' first segment in the tile, the one
     * after its last, and this work-item's offset among them */
    uint after = 1;
    ulong k0 = 0, k1 = 0, off = 0;
    const seg_src src = seg_src_make(in + in_off, segs + segs_off * SEG_UNIT, bounds, n, m, TILE);
    out += out_off;
    (void)scratch3;

    hm[lid] = 0;
    clprim_tiles_take(st, one_tile, !one_tile, tiles, tickets);
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong t = tickets[0];
    if (t < tiles) {
        uint last;
        seg_fetch_tile(src, t, aligned, r, hr, &after, &k0, &k1, &off);
        bits = seg_tile_bits(hr, t * TILE, n, &last);
    }
    int first = 1;
    while (t < tiles) {
        const ulong base = t * TILE;
        const uint valid = (uint)min((ulong)TILE, n - base);
        clprim_tile_stash(s, r, base, n);
        for (uint k = 0; k < SP_CHUNKS; ++k)
            hb[k * WG_SIZE + lid] = (uchar)((bits >> (k * VEC)) & ((1u << VEC) - 1u));
        if (SEG_REDUCE && lid == 0)
            hm[WG_SIZE] = after;
#if SEG_HEADS == SEG_OFFSETS
        const ulong t_k0 = k0, t_k1 = k1, t_off = off;
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        const ulong next = tickets[1];
        if (next < tiles)
            seg_fetch_tile(src, next, aligned, r, hr, &after, &k0, &k1, &off);

        /* this work-item's run, segmented, left in s */
#if SEG_HEADS == SEG_OFFSETS
        for (ulong k = t_k0 + lid; k < t_k1; k += WG_SIZE) {
            const ulong o = (k == t_k0 + lid ? t_off : seg_offset(src, k)) - base;
            if (o < valid)
                atomic_or(&hm[o / ITEMS], 1u << (o % ITEMS));
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint mine = hm[lid];
#else
        uint mine = 0;
#if SP_CHUNKS == 8
        const uint2 hw = ((local uint2 *)hbw)[lid];
        for (uint c = 0; c < 8; ++c)
            mine |= ((c < 4 ? hw.x >> (8 * c) : hw.y >> (8 * c - 32)) & 0xFFu) << (c * VEC);
#else
        for (uint c = 0; c < SP_CHUNKS; ++c)
            mine |= (uint)hb[lid * SP_CHUNKS + c] << (c * VEC);
#endif
        hm[lid] = mine;
#endif
        T v = IDENTITY;
        for (uint c = 0; c < SP_CHUNKS; ++c) {
            clprim_chunk x;
            x.v = s[clprim_sp_slot(lid, c)];
            for (uint j = 0; j < VEC; ++j)
                x.a[j] = v = (mine >> (c * VEC + j)) & 1u ? x.a[j] : OP(v, x.a[j]);
            s[clprim_sp_slot(lid, c)] = x.v;
        }
        seg_pair total;
        const seg_pair within = seg_wg_exscan(seg_pair_make(v, popcount(mine)), scratch, &total);

        /* the next tile's status, before this one waits */
        if (next < tiles) {
            uint2 lh = (uint2)(0u, 0u);
#if SEG_HEADS == SEG_OFFSETS
            /* the last segment starting in the tile (past n only in the last
             * tile, whose status no tile reads) */
            if (k1 > k0)
                lh.x = (uint)(seg_offset(src, k1 - 1) - next * TILE) + 1u;
#else
            uint last;
            bits = seg_tile_bits(hr, next * TILE, n, &last);
            lh = (uint2)(last, popcount(bits));
            seg_lh_wg_exscan(lh, scratch3, &lh);
#endif
            /* element p counts when p + 1 >= lh.x: whole chunks at once */
            T w = IDENTITY, agg;
            for (uint k = 0; k < SP_CHUNKS; ++k) {
                const uint g = k * WG_SIZE + lid;
                clprim_chunk x;
                x.v = clprim_sp_cook(r[k], next * TILE, n, g);
                if (g * VEC + 1 >= lh.x)
                    w = OP(w, clprim_fold_vec(x.v));
                else if (g * VEC + VEC >= lh.x)
                    for (uint j = 0; j < VEC; ++j)
                        if (g * VEC + j + 1 >= lh.x)
                            w = OP(w, x.a[j]);
            }
            clprim_wg_exscan(w, scratch2, &agg);
            if (lid == 0)
#if SEG_REDUCE
                clprim_tile_publish(st, next, generation, TILE_AGGREGATE, seg_carry_make(lh.y, agg));
#else
                clprim_tile_publish(st, next, generation, lh.x ? TILE_PREFIX : TILE_AGGREGATE, agg);
#endif
        }

        uint how = (one_tile ? TP_ALONE : 0u) | (!first ? TP_PUBLISHED : 0u) |
                   ((sflags & SEG_IN_PLACE) ? TP_FENCE : 0u);
#if SEG_REDUCE
        const LB_T carried = clprim_wg_tile_prefix(st, t, generation, seg_carry_of(total),
                                                   LB_IDENTITY, how, &carry, src);
        const T left = within.c ? within.v : OP(carried.v, within.v);
        const ulong ranks = carried.c + within.c;
#else
        how |= (total.c ? TP_SETTLED : 0u) | ((hm[0] & 1u) ? TP_NO_WALK : 0u);
        const T carried = clprim_wg_tile_prefix(st, t, generation, total.v, LB_IDENTITY, how,
                                                &carry, src);
        const T left = within.c ? within.v : OP(carried, within.v);
#endif
        if (lid == WG_SIZE - 1 && next < tiles)
            tickets[1] = atomic_inc(st.counters);
#if SEG_HEADS == SEG_OFFSETS
        hm[lid] = 0; /* for the next tile (hm[0] was read before the look-back's barrier) */
#endif

        /* left: the inclusive result just before this run */
#if SEG_REDUCE
        /* bit e: element e of the run ends its segment (the next starts, or
         * the data ends); only those are visited */
        const uint first_li = lid * ITEMS;
        uint ends = (mine >> 1) | ((hm[lid + 1] & 1u) << (ITEMS - 1));
        if (first_li >= valid) {
            ends = 0;
        } else if (base + valid >= n && first_li + ITEMS >= valid) { /* the data's last */
            const uint live = valid - first_li; /* 1 .. ITEMS */
            ends = (ends & (live >= 32u ? ~0u : (1u << live) - 1u)) | (1u << (live - 1));
        }
        while (ends) {
            const uint e = 31u - clz(ends & (0u - ends)), li = first_li + e;
            ends &= ends - 1u;
            const uint seen = popcount(mine & ((2u << e) - 1u));
            const ulong rank = ranks + seen - 1;
            const T v = clprim_chunk_at(s[clprim_sp_slot(lid, e / VEC)], e % VEC);
            if (rank < n) {
                out[rank] = seen ? v : OP(left, v);
#if SEG_HEADS == SEG_KEYS
                if (sflags & SEG_KEYS_OUT)
                    ((global KEY_T *)keys_out)[keys_out_off + rank] =
                        ((global const KEY_T *)src.segs)[base + li];
#endif
            }
            if ((sflags & SEG_COUNT) && base + li == n - 1)
                count[count_off] = rank + 1;
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* s, hm, carry and tickets free for the next tile */
#else
        T prev = left;
        uint seen = 0;
        for (uint c = 0; c < SP_CHUNKS; ++c) {
            clprim_chunk x;
            x.v = s[clprim_sp_slot(lid, c)];
            for (uint j = 0; j < VEC; ++j) {
                const uint h = (mine >> (c * VEC + j)) & 1u;
                seen |= h;
                const T inclusive = seen ? x.a[j] : OP(left, x.a[j]);
                x.a[j] = (sflags & SEG_EXCLUSIVE) ? (h ? IDENTITY : prev) : inclusive;
                prev = inclusive;
            }
            s[clprim_sp_slot(lid, c)] = x.v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < SP_CHUNKS; ++k) {
            const uint g = k * WG_SIZE + lid;
            clprim_sp_store_chunk(out, base, n, g, s[clprim_sp_slot_of(g)], aligned);
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* s, hm, carry and tickets free for the next tile */
#endif
        t = next;
        first = 0;
    }
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
    const seg_src src = seg_src_make(0, segs + segs_off * SEG_UNIT, 0, n, m, TILE);
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

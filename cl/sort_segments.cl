/* SPDX-License-Identifier: MIT */
/* Segmented sort: the segments [off[j], off[j + 1]) of one array sorted each
 * on its own, stably, in clprim_sort's key order (sort_rank.clh). The array
 * is cut into tiles of TILE keys; work-group g owns the segments that start
 * in its tile:
 *   those that end in it, and the next one too when the window from the
 *   first to the end of that one still fits a tile: sorted together in local
 *   memory, every key digit first, then the segment's index as the most
 *   significant digits (LSD), so each segment lands back on its own range;
 *   a segment that starts in the tile and is not in that window: in local
 *   memory when it fits a tile, else by passes over global memory (a
 *   histogram of the segment's digit, then its tiles in order, each ranked
 *   and scattered where the digit's run goes), through the temporary keys.
 * sort_segment_bounds first finds, for every tile edge, the segments there
 * (binary searches of the offsets). Offsets past n count as n, so a wrong
 * offset array never makes a work-group read or write outside the array.
 * Contract with src/sort_segments.c: sort_abi.h. */
#ifndef CLPRIM_ASSEMBLED
#include "common/abi.h"
#include "sort_abi.h"
#include "common/elem.clh"
#include "common/simd.clh"
#include "common/wg_scan.clh"
#include "sort_rank.clh"
#include "sort_tile.clh"
#endif

/* Offset j of the segments (32- or 64-bit), at most n. */
inline ulong seg_offset(global const uchar *offs, uint off64, ulong j, ulong n)
{
    const ulong o = off64 ? ((global const ulong *)offs)[j] : ((global const uint *)offs)[j];
    return min(o, n);
}

/* The first j of [lo, hi) whose offset is above x (`above`), or at least x
 * (hi when none). */
inline ulong seg_search(global const uchar *offs, uint off64, ulong n, ulong lo, ulong hi,
                        ulong x, int above)
{
    while (lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        const ulong o = seg_offset(offs, off64, mid, n);
        if (above ? o <= x : o < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* bounds[2e]: the first offset index at or after tile edge e's position
 * (e * TILE, at most n); bounds[2e + 1]: the first one after it. */
SORT_KERNEL sort_segment_bounds(global const uchar *offs, ulong offs_off, uint off64, ulong m,
                                ulong n, global ulong *bounds, ulong tiles)
{
    const ulong e = get_global_id(0);
    if (e > tiles)
        return;
    offs += offs_off * (off64 ? 8 : 4);
    const ulong x = min(e * TILE, n);
    bounds[2 * e] = seg_search(offs, off64, n, 0, m + 1, x, 0);
    bounds[2 * e + 1] = seg_search(offs, off64, n, 0, m + 1, x, 1);
}

/* A segment of `len` keys (kin .. kout etc. at its first key), longer than
 * a tile, by one work-group: per digit, a histogram of the segment, then
 * its tiles in order, each ranked in local memory and written where its
 * digits' runs have got to. The passes alternate between the temporary keys
 * (kt) and the output so that the last lands in the output; copy_first: the
 * input is the output (in place, an odd number of passes), so it is copied
 * to the temporary keys first. off, adj: SORT_RADIX positions each. */
inline void sort_long_segment(global const T *kin, global T *kout, global T *kt,
                              global const sort_value *vin, global sort_value *vout,
                              global sort_value *vt, ulong len, uint kmode, uint begin_bit,
                              uint end_bit, uint copy_first, local POS_T *off, local POS_T *adj,
                              SORT_TILE_PARAMS)
{
    const uint lid = get_local_id(0);
    const uint passes = (end_bit - begin_bit + SORT_RADIX_BITS - 1) / SORT_RADIX_BITS;
    global const T *ks = kin;
    global const sort_value *vs = vin;
    T key[ITEMS];
    ushort src[ITEMS]; /* unused: the ranking takes slots as sources */

    if (passes == 0) { /* no bit to sort by: input order */
        for (ulong i = lid; i < len; i += WG_SIZE) {
            kout[i] = kin[i];
#if VALUE_SIZE > 0
            vout[i] = vin[i];
#endif
        }
        return;
    }
    if (copy_first) {
        for (ulong i = lid; i < len; i += WG_SIZE) {
            kt[i] = kin[i];
#if VALUE_SIZE > 0
            vt[i] = vin[i];
#endif
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        ks = kt;
        vs = vt;
    }
    for (uint p = 0; p < passes; ++p) {
        const uint shift = begin_bit + p * SORT_RADIX_BITS;
        const uint mask = (1u << min((uint)SORT_RADIX_BITS, end_bit - shift)) - 1u;
        const int to_out = (passes - 1 - p) % 2 == 0;
        global T *kd = to_out ? kout : kt;
        global sort_value *vd = to_out ? vout : vt;
        for (uint d = lid; d < SORT_RADIX; d += WG_SIZE) {
            off[d] = 0;
            count[d] = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* the digit's histogram, a tile at a time in 32-bit local counts */
        for (ulong base = 0; base < len; base += TILE) {
            for (uint k = 0; k < ITEMS; ++k) {
                const ulong i = base + k * WG_SIZE + lid;
                if (i < len)
                    atomic_inc(&count[sort_digit(ks[i], kmode, shift, mask)]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint d = lid; d < SORT_RADIX; d += WG_SIZE) {
                off[d] += count[d];
                count[d] = 0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) {
            POS_T run = 0;
            for (uint d = 0; d < SORT_RADIX; ++d) {
                const POS_T c = off[d];
                off[d] = run;
                run += c;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (ulong base = 0; base < len; base += TILE) {
            const uint valid = (uint)min((ulong)TILE, len - base);
            for (uint k = 0; k < ITEMS; ++k) {
                const uint slot = sort_slot(k);
                if (slot < valid)
                    key[k] = ks[base + slot];
            }
            sort_rank(key, src, 1, valid, kmode, shift, mask, lkeys, lsrc, count, start, whist,
                      scratch);
            /* never past the segment: with offsets that fall, another
             * work-group's segment may overlap this one and change its keys
             * between the histogram and here */
            for (uint d = lid; d < SORT_RADIX; d += WG_SIZE)
                adj[d] = min(off[d], (POS_T)len - count[d]) - start[d];
            barrier(CLK_LOCAL_MEM_FENCE);
            sort_write_tile(lkeys, lsrc, 0, adj, valid, kmode, shift, mask, kd, vs + base, vd);
            for (uint d = lid; d < SORT_RADIX; d += WG_SIZE)
                off[d] += count[d];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        /* the next pass reads what this one wrote, all of it */
        barrier(CLK_GLOBAL_MEM_FENCE);
        ks = kd;
        vs = vd;
    }
}

/* Keys [0, len) of kin (at most a tile), with their values, sorted into
 * kout in local memory. */
inline void sort_short_segment(global const T *kin, global T *kout, global const sort_value *vin,
                               global sort_value *vout, uint len, uint kmode, uint begin_bit,
                               uint end_bit, SORT_TILE_PARAMS)
{
    T key[ITEMS];
    ushort src[ITEMS];
    sort_load_tile(kin, len, key, src);
    sort_local(key, src, len, kmode, begin_bit, end_bit, SORT_TILE_ARGS);
    sort_store_tile(key, src, len, kout, vin, vout);
}

/* segidx[p] for the len positions of a window: the index of the segment
 * holding position p among the window's non-empty segments, from their
 * heads (offsets first .. first + count - 1, the first at `at`) and a
 * work-group scan: work-item i takes positions i * ITEMS .. + ITEMS - 1. */
inline void seg_indices(global const uchar *offs, uint off64, ulong first, ulong count_segs,
                        ulong at, ulong n, uint len, local ushort *segidx, local uint *scratch)
{
    const uint lid = get_local_id(0), mine = lid * ITEMS;
    uint heads = 0, total;
    for (uint p = lid; p < len; p += WG_SIZE)
        segidx[p] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong i = lid; i < count_segs; i += WG_SIZE) {
        const ulong p = seg_offset(offs, off64, first + i, n) - at;
        if (p < len)
            segidx[p] = 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < ITEMS; ++k)
        heads += mine + k < len ? segidx[mine + k] : 0u;
    uint run = clprim_u32_wg_exscan(heads, scratch, &total);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < ITEMS; ++k)
        if (mine + k < len) {
            run += segidx[mine + k];
            segidx[mine + k] = (ushort)(run - 1);
        }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The segments first .. first + count - 1, which lie in the window of len
 * keys from kin (the first starting at its start, position `at` of the
 * array), sorted together: every key digit, then the segment's index as
 * the most significant digits. */
inline void sort_window(global const T *kin, global T *kout, global const sort_value *vin,
                        global sort_value *vout, uint len, global const uchar *offs, uint off64,
                        ulong first, ulong count_segs, ulong at, ulong n, uint kmode,
                        uint begin_bit, uint end_bit, local ushort *segidx, SORT_TILE_PARAMS)
{
    /* at most len segments hold keys: 16 bits of index */
    const uint ibits = count_segs > 1 ? min(64 - (uint)clz((ulong)(count_segs - 1)), 16u) : 0u;
    const uint kpasses = (end_bit - begin_bit + SORT_RADIX_BITS - 1) / SORT_RADIX_BITS;
    const uint passes = kpasses + (ibits + SORT_RADIX_BITS - 1) / SORT_RADIX_BITS;
    T key[ITEMS], real[ITEMS];
    ushort src[ITEMS], orig[ITEMS];
    if (ibits)
        seg_indices(offs, off64, first, count_segs, at, n, len, segidx, scratch);
    sort_load_tile(kin, len, key, src);
    /* one loop over the key's digits and then the index's, so that the
     * ranking is written out once (PoCL's compile time grows with each) */
    for (uint p = 0; p < passes; ++p) {
        const int on_keys = p < kpasses;
        const uint shift = on_keys ? begin_bit + p * SORT_RADIX_BITS
                                   : (p - kpasses) * SORT_RADIX_BITS;
        const uint mask = (1u << min((uint)SORT_RADIX_BITS, (on_keys ? end_bit : ibits) - shift)) - 1u;
        if (p == kpasses)
            for (uint k = 0; k < ITEMS; ++k) {
                real[k] = key[k];
                orig[k] = src[k];
                if (sort_slot(k) < len)
                    key[k] = (T)segidx[src[k]];
            }
        sort_rank(key, src, 0, len, on_keys ? kmode : SORT_KIND_UNSIGNED, shift, mask, lkeys, lsrc,
                  count, start, whist, scratch);
        for (uint k = 0; k < ITEMS; ++k) {
            const uint slot = sort_slot(k);
            if (slot < len) {
                key[k] = lkeys[slot];
                src[k] = lsrc[slot];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (passes > kpasses) {
        /* the keys as read, by source position, since the index passes
         * ranked indices in their place */
        for (uint k = 0; k < ITEMS; ++k)
            if (sort_slot(k) < len)
                lkeys[orig[k]] = real[k];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < ITEMS; ++k)
            if (sort_slot(k) < len)
                key[k] = lkeys[src[k]];
    }
    sort_store_tile(key, src, len, kout, vin, vout);
}

/* Windows whose segments all hold at most SORT_SEG_SMALL keys sort one
 * segment per work-item in registers (a bitonic network over (the key's
 * bits sorted by, input position), so it is stable), instead of ranking the
 * whole window by every digit and then the segment index. 0: never. */
#ifndef SORT_SEG_SMALL
#define SORT_SEG_SMALL 32
#endif

#if SORT_SEG_SMALL && SORT_SEG_SMALL != 32
#error "clprim: SORT_SEG_SMALL is 32 (the network below) or 0"
#endif
/* Batcher's bitonic sorting network of 32 (every merge's first step
 * compares mirrored positions, so every exchange puts the smaller first):
 * 240 compare-exchanges, generated and checked on random inputs. */
#define SORT_NET32 \
    SORT_CE(0, 1) SORT_CE(2, 3) SORT_CE(4, 5) SORT_CE(6, 7) SORT_CE(8, 9) SORT_CE(10, 11) \
    SORT_CE(12, 13) SORT_CE(14, 15) SORT_CE(16, 17) SORT_CE(18, 19) SORT_CE(20, 21) \
    SORT_CE(22, 23) SORT_CE(24, 25) SORT_CE(26, 27) SORT_CE(28, 29) SORT_CE(30, 31) \
    SORT_CE(0, 3) SORT_CE(1, 2) SORT_CE(4, 7) SORT_CE(5, 6) SORT_CE(8, 11) SORT_CE(9, 10) \
    SORT_CE(12, 15) SORT_CE(13, 14) SORT_CE(16, 19) SORT_CE(17, 18) SORT_CE(20, 23) \
    SORT_CE(21, 22) SORT_CE(24, 27) SORT_CE(25, 26) SORT_CE(28, 31) SORT_CE(29, 30) \
    SORT_CE(0, 1) SORT_CE(2, 3) SORT_CE(4, 5) SORT_CE(6, 7) SORT_CE(8, 9) SORT_CE(10, 11) \
    SORT_CE(12, 13) SORT_CE(14, 15) SORT_CE(16, 17) SORT_CE(18, 19) SORT_CE(20, 21) \
    SORT_CE(22, 23) SORT_CE(24, 25) SORT_CE(26, 27) SORT_CE(28, 29) SORT_CE(30, 31) \
    SORT_CE(0, 7) SORT_CE(1, 6) SORT_CE(2, 5) SORT_CE(3, 4) SORT_CE(8, 15) SORT_CE(9, 14) \
    SORT_CE(10, 13) SORT_CE(11, 12) SORT_CE(16, 23) SORT_CE(17, 22) SORT_CE(18, 21) \
    SORT_CE(19, 20) SORT_CE(24, 31) SORT_CE(25, 30) SORT_CE(26, 29) SORT_CE(27, 28) \
    SORT_CE(0, 2) SORT_CE(1, 3) SORT_CE(4, 6) SORT_CE(5, 7) SORT_CE(8, 10) SORT_CE(9, 11) \
    SORT_CE(12, 14) SORT_CE(13, 15) SORT_CE(16, 18) SORT_CE(17, 19) SORT_CE(20, 22) \
    SORT_CE(21, 23) SORT_CE(24, 26) SORT_CE(25, 27) SORT_CE(28, 30) SORT_CE(29, 31) \
    SORT_CE(0, 1) SORT_CE(2, 3) SORT_CE(4, 5) SORT_CE(6, 7) SORT_CE(8, 9) SORT_CE(10, 11) \
    SORT_CE(12, 13) SORT_CE(14, 15) SORT_CE(16, 17) SORT_CE(18, 19) SORT_CE(20, 21) \
    SORT_CE(22, 23) SORT_CE(24, 25) SORT_CE(26, 27) SORT_CE(28, 29) SORT_CE(30, 31) \
    SORT_CE(0, 15) SORT_CE(1, 14) SORT_CE(2, 13) SORT_CE(3, 12) SORT_CE(4, 11) SORT_CE(5, 10) \
    SORT_CE(6, 9) SORT_CE(7, 8) SORT_CE(16, 31) SORT_CE(17, 30) SORT_CE(18, 29) SORT_CE(19, 28) \
    SORT_CE(20, 27) SORT_CE(21, 26) SORT_CE(22, 25) SORT_CE(23, 24) SORT_CE(0, 4) SORT_CE(1, 5) \
    SORT_CE(2, 6) SORT_CE(3, 7) SORT_CE(8, 12) SORT_CE(9, 13) SORT_CE(10, 14) SORT_CE(11, 15) \
    SORT_CE(16, 20) SORT_CE(17, 21) SORT_CE(18, 22) SORT_CE(19, 23) SORT_CE(24, 28) \
    SORT_CE(25, 29) SORT_CE(26, 30) SORT_CE(27, 31) SORT_CE(0, 2) SORT_CE(1, 3) SORT_CE(4, 6) \
    SORT_CE(5, 7) SORT_CE(8, 10) SORT_CE(9, 11) SORT_CE(12, 14) SORT_CE(13, 15) SORT_CE(16, 18) \
    SORT_CE(17, 19) SORT_CE(20, 22) SORT_CE(21, 23) SORT_CE(24, 26) SORT_CE(25, 27) \
    SORT_CE(28, 30) SORT_CE(29, 31) SORT_CE(0, 1) SORT_CE(2, 3) SORT_CE(4, 5) SORT_CE(6, 7) \
    SORT_CE(8, 9) SORT_CE(10, 11) SORT_CE(12, 13) SORT_CE(14, 15) SORT_CE(16, 17) \
    SORT_CE(18, 19) SORT_CE(20, 21) SORT_CE(22, 23) SORT_CE(24, 25) SORT_CE(26, 27) \
    SORT_CE(28, 29) SORT_CE(30, 31) SORT_CE(0, 31) SORT_CE(1, 30) SORT_CE(2, 29) SORT_CE(3, 28) \
    SORT_CE(4, 27) SORT_CE(5, 26) SORT_CE(6, 25) SORT_CE(7, 24) SORT_CE(8, 23) SORT_CE(9, 22) \
    SORT_CE(10, 21) SORT_CE(11, 20) SORT_CE(12, 19) SORT_CE(13, 18) SORT_CE(14, 17) \
    SORT_CE(15, 16) SORT_CE(0, 8) SORT_CE(1, 9) SORT_CE(2, 10) SORT_CE(3, 11) SORT_CE(4, 12) \
    SORT_CE(5, 13) SORT_CE(6, 14) SORT_CE(7, 15) SORT_CE(16, 24) SORT_CE(17, 25) \
    SORT_CE(18, 26) SORT_CE(19, 27) SORT_CE(20, 28) SORT_CE(21, 29) SORT_CE(22, 30) \
    SORT_CE(23, 31) SORT_CE(0, 4) SORT_CE(1, 5) SORT_CE(2, 6) SORT_CE(3, 7) SORT_CE(8, 12) \
    SORT_CE(9, 13) SORT_CE(10, 14) SORT_CE(11, 15) SORT_CE(16, 20) SORT_CE(17, 21) \
    SORT_CE(18, 22) SORT_CE(19, 23) SORT_CE(24, 28) SORT_CE(25, 29) SORT_CE(26, 30) \
    SORT_CE(27, 31) SORT_CE(0, 2) SORT_CE(1, 3) SORT_CE(4, 6) SORT_CE(5, 7) SORT_CE(8, 10) \
    SORT_CE(9, 11) SORT_CE(12, 14) SORT_CE(13, 15) SORT_CE(16, 18) SORT_CE(17, 19) \
    SORT_CE(20, 22) SORT_CE(21, 23) SORT_CE(24, 26) SORT_CE(25, 27) SORT_CE(28, 30) \
    SORT_CE(29, 31) SORT_CE(0, 1) SORT_CE(2, 3) SORT_CE(4, 5) SORT_CE(6, 7) SORT_CE(8, 9) \
    SORT_CE(10, 11) SORT_CE(12, 13) SORT_CE(14, 15) SORT_CE(16, 17) SORT_CE(18, 19) \
    SORT_CE(20, 21) SORT_CE(22, 23) SORT_CE(24, 25) SORT_CE(26, 27) SORT_CE(28, 29) \
    SORT_CE(30, 31)

#if SORT_SEG_SMALL
/* The segment of len <= SORT_SEG_SMALL keys at position b of the window
 * staged in lkeys, sorted there; its keys' window positions to lsrc. */
inline void sort_small_segment(local T *lkeys, local ushort *lsrc, uint b, uint len, uint kmode,
                               uint begin_bit, uint end_bit)
{
    const uint width = end_bit - begin_bit;
    const T range = width < KEY_BITS ? (((T)1 << width) - 1) : ~(T)0;
    T sv[SORT_SEG_SMALL];
    uint ix[SORT_SEG_SMALL];
    /* past len: above every key, in position order */
#pragma unroll
    for (uint i = 0; i < SORT_SEG_SMALL; ++i) {
        sv[i] = i < len && width ? (sort_ordered(lkeys[b + i], kmode) >> begin_bit) & range : ~(T)0;
        ix[i] = i;
    }
    /* written out, so that every index is a constant (H100, 10^7
     * segments of 27 keys: 5.50 ms, against 7.68 with the network as three
     * nested loops left to the compiler's unrolling) */
#define SORT_CE(a, b)                                                                           \
    {                                                                                           \
        const T x_ = sv[a], y_ = sv[b];                                                         \
        const uint p_ = ix[a], q_ = ix[b];                                                      \
        const int sw_ = y_ < x_ || (y_ == x_ && q_ < p_);                                       \
        sv[a] = sw_ ? y_ : x_;                                                                  \
        sv[b] = sw_ ? x_ : y_;                                                                  \
        ix[a] = sw_ ? q_ : p_;                                                                  \
        ix[b] = sw_ ? p_ : q_;                                                                  \
    }
    SORT_NET32
#undef SORT_CE
    /* every key read before any is written back */
#pragma unroll
    for (uint i = 0; i < SORT_SEG_SMALL; ++i)
        sv[i] = i < len ? lkeys[b + ix[i]] : 0;
#pragma unroll
    for (uint i = 0; i < SORT_SEG_SMALL; ++i)
        if (i < len) {
            lkeys[b + i] = sv[i];
            lsrc[b + i] = (ushort)(b + ix[i]);
        }
}
#endif

/* What tile g holds: offsets[first .. last] lie in [r0, r1]; segments
 * first .. last - 1 end in the tile (s0 .. s1), segment `last` starts in it
 * at s1 and is open when it ends past it (at e; it stays in the window when
 * the window from s0 to e still fits a tile). 0 when no segment starts in
 * the tile. */
typedef struct seg_tile {
    ulong first, last, s0, s1, e;
    int open, joined;
} seg_tile;

inline int seg_tile_of(global const ulong *bounds, global const uchar *offs, uint off64,
                       ulong m, ulong n, seg_tile *t)
{
    const ulong g = get_group_id(0), r1 = min(g * TILE + TILE, n);
    const ulong after = bounds[2 * g + 3];
    t->first = bounds[2 * g];
    if (after <= t->first)
        return 0; /* no offset in [r0, r1]: inside a segment that started before */
    t->last = after - 1;
    t->s0 = seg_offset(offs, off64, t->first, n);
    t->s1 = max(seg_offset(offs, off64, t->last, n), t->s0);
    t->open = t->last < m && t->s1 < r1;
    t->e = t->open ? max(seg_offset(offs, off64, t->last + 1, n), t->s1) : t->s1;
    t->joined = t->open && t->e - t->s0 <= TILE;
    return 1;
}

/* The kernels' arguments (sort_abi.h). Two kernels, one per tile each, so
 * that neither holds both ways of sorting (PoCL's compile time grows fast
 * with the barriers of one kernel). */
#define SEG_PARAMS                                                                              \
    global const T *kin, ulong kin_off, global T *kout, ulong kout_off,                         \
        global const sort_value *vin, ulong vin_off, global sort_value *vout, ulong vout_off,   \
        ulong n, uint kmode, uint begin_bit, uint end_bit, global const uchar *offs,            \
        ulong offs_off, uint off64, ulong m, global const ulong *bounds, global T *kt,          \
        ulong kt_off, global sort_value *vt, ulong vt_off, uint copy_first
#define SEG_SETUP()                                                                             \
    seg_tile t;                                                                                 \
    offs += offs_off * (off64 ? 8 : 4);                                                         \
    if (!seg_tile_of(bounds, offs, off64, m, n, &t))                                            \
        return;                                                                                 \
    kin += kin_off;                                                                             \
    kout += kout_off;                                                                           \
    vin += vin_off;                                                                             \
    vout += vout_off;                                                                           \
    kt += kt_off;                                                                               \
    vt += vt_off

/* The segments that end in the tile, with the open one when it joins. */
SORT_KERNEL sort_segments(SEG_PARAMS)
{
    SORT_TILE_LOCALS;
    local ushort segidx[TILE];
    local uint longest;
    SEG_SETUP();
    const ulong wend = t.joined ? t.e : t.s1;
    const ulong segs = t.last - t.first + (t.joined ? 1 : 0);
#if SORT_SEG_SMALL
    {
        if (get_local_id(0) == 0)
            longest = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (ulong j = get_local_id(0); j < segs; j += WG_SIZE)
            atomic_max(&longest, (uint)min(seg_offset(offs, off64, t.first + j + 1, n) -
                                               seg_offset(offs, off64, t.first + j, n),
                                           (ulong)UINT_MAX));
        barrier(CLK_LOCAL_MEM_FENCE);
        if (longest <= SORT_SEG_SMALL) {
            /* staged in local memory, so that the loads and stores are
             * coalesced and each work-item's reads of its own segment are
             * spread over the banks */
            const uint len = (uint)(wend - t.s0), lid = get_local_id(0);
            for (uint p = lid; p < len; p += WG_SIZE) {
                lkeys[p] = kin[t.s0 + p];
                lsrc[p] = (ushort)p; /* (a position in no segment: offsets that fall) */
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (ulong j = lid; j < segs; j += WG_SIZE) {
                const ulong b = seg_offset(offs, off64, t.first + j, n);
                const ulong e = max(seg_offset(offs, off64, t.first + j + 1, n), b);
                if (b >= t.s0 && e <= wend)
                    sort_small_segment(lkeys, lsrc, (uint)(b - t.s0), (uint)(e - b), kmode,
                                       begin_bit, end_bit);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint p = lid; p < len; p += WG_SIZE) {
                kout[t.s0 + p] = lkeys[p];
#if VALUE_SIZE > 0
                vout[t.s0 + p] = vin[t.s0 + lsrc[p]];
#endif
            }
            return;
        }
    }
#endif
    if (wend > t.s0)
        sort_window(kin + t.s0, kout + t.s0, vin + t.s0, vout + t.s0, (uint)(wend - t.s0), offs,
                    off64, t.first, segs, t.s0, n, kmode,
                    begin_bit, end_bit, segidx, SORT_TILE_ARGS);
}

/* The open segment when it does not join: alone, in local memory or in
 * passes over global memory. */
SORT_KERNEL sort_segments_open(SEG_PARAMS)
{
    SORT_TILE_LOCALS;
    local POS_T off[SORT_RADIX], adj[SORT_RADIX];
    SEG_SETUP();
    if (!t.open || t.joined || t.e == t.s1)
        return;
    if (t.e - t.s1 <= TILE)
        sort_short_segment(kin + t.s1, kout + t.s1, vin + t.s1, vout + t.s1, (uint)(t.e - t.s1),
                           kmode, begin_bit, end_bit, SORT_TILE_ARGS);
    else
        sort_long_segment(kin + t.s1, kout + t.s1, kt + t.s1, vin + t.s1, vout + t.s1, vt + t.s1,
                          t.e - t.s1, kmode, begin_bit, end_bit, copy_first, off, adj,
                          SORT_TILE_ARGS);
}

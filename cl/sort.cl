/* SPDX-License-Identifier: MIT */
/* Radix sort kernels. ONESWEEP: sort_histogram counts every pass's digits in
 * one read, sort_histogram_scan turns the counts into each digit's start,
 * and one sort_onesweep per 8-bit digit ranks a tile (sort_rank.clh) and
 * finds where each of its digits goes by decoupled look-back over the
 * tiles' per-digit counts (common/lookback.clh, one interleaved look-back
 * per digit). n up to one tile: sort_tile, every pass in local memory.
 * SPLIT_LSB: the seeds' split per bit (flags, clprim's scan, scatter).
 * TILE_BITONIC: tiles sorted like sort_tile into (key, index) pairs, then
 * bitonic merges (sort_bitonic_*), then a gather. CHUNKED, the CPU form:
 * per 8-bit digit, each chunk of the keys (common/chunk.clh) counts its
 * digits, then moves its keys in order to where they go. Contract with
 * src/sort.c: sort_abi.h. */
#ifndef CLPRIM_ASSEMBLED
#include "common/abi.h"
#include "sort_abi.h"
#include "common/elem.clh"
#include "common/simd.clh"
#include "common/wg_scan.clh"
#include "sort_rank.clh"
#include "sort_tile.clh"
#include "common/lookback.clh"
#include "common/chunk.clh"
#endif

/* One tile of the histogram: every key loaded before any is counted. With
 * each key's load followed by its counts, one load per work-item was in
 * flight and the kernel ran at half the copy rate (H100, 2^28 uint32: 815
 * us for 1 GiB, against 1450 us for a whole one-sweep pass). A histogram
 * needs no order, so the loads are simply strided. */
inline void sort_histogram_tile(global const T *keys, ulong base, uint valid, uint kmode,
                                uint begin_bit, uint end_bit, uint passes, local uint *lh)
{
    const uint lid = get_local_id(0);
    T o[ITEMS];
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k)
        o[k] = SORT_HOLDS(k * WG_SIZE + lid, valid) ? keys[base + k * WG_SIZE + lid] : (T)0;
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k)
        o[k] = sort_ordered(o[k], kmode);
    for (uint p = 0; p < passes; ++p) {
        const uint shift = begin_bit + p * SORT_RADIX_BITS;
        const uint bits = min((uint)SORT_RADIX_BITS, end_bit - shift);
        local uint *h = lh + p * SORT_RADIX;
#pragma unroll
        for (uint k = 0; k < ITEMS; ++k)
            if (SORT_HOLDS(k * WG_SIZE + lid, valid))
                atomic_inc(&h[(uint)(o[k] >> shift) & ((1u << bits) - 1u)]);
    }
}

SORT_KERNEL sort_histogram(global const T *keys, ulong keys_off, ulong n, uint kmode,
                           uint begin_bit, uint end_bit, global POS_T *hist, ulong hist_off)
{
    local uint lh[SORT_MAX_PASSES * SORT_RADIX];
    const uint lid = get_local_id(0), passes = (end_bit - begin_bit + SORT_RADIX_BITS - 1) /
                                                 SORT_RADIX_BITS;
    keys += keys_off;
    hist += hist_off;
    for (uint i = lid; i < passes * SORT_RADIX; i += WG_SIZE)
        lh[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong step = (ulong)get_num_groups(0) * TILE;
    for (ulong base = (ulong)get_group_id(0) * TILE; base < n; base += step) {
        const uint valid = (uint)min((ulong)TILE, n - base);
#if SORT_MATCH
        /* a full tile's copy without bounds tests (NVIDIA only, as the pass) */
        if (valid == TILE)
            sort_histogram_tile(keys, base, TILE, kmode, begin_bit, end_bit, passes, lh);
        else
#endif
            sort_histogram_tile(keys, base, valid, kmode, begin_bit, end_bit, passes, lh);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < passes * SORT_RADIX; i += WG_SIZE) {
        if (lh[i]) {
#if SORT_WIDE
            atom_add(&hist[i], (ulong)lh[i]);
#else
            atomic_add(&hist[i], lh[i]);
#endif
        }
    }
}

/* One work-group per pass: its counts become exclusive starts. 256 adds in
 * one work-item, in POS_T (the work-group scan's T would be 32-bit for
 * 32-bit keys even where counts are 64-bit). */
SORT_KERNEL sort_histogram_scan(global POS_T *hist, ulong hist_off)
{
    global POS_T *h = hist + hist_off + get_group_id(0) * SORT_RADIX;
    if (get_local_id(0) == 0) {
        POS_T run = 0;
        for (uint d = 0; d < SORT_RADIX; ++d) {
            const POS_T c = h[d];
            h[d] = run;
            run += c;
        }
    }
}

#if CLPRIM_SINGLE_PASS
/* One tile of a one-sweep pass: tile t (keys base .. base + valid - 1)
 * ranked, its digit counts published, its place found by look-back, and
 * written out. `valid` is the constant TILE for a full tile, which folds
 * every per-key bounds test away (SORT_HOLDS). */
inline void sort_onesweep_tile(global const T *kin, global T *kout, global const sort_value *vin,
                               global sort_value *vout, ulong n, uint kmode, uint shift,
                               uint mask, global const POS_T *hist, clprim_tiles s,
                               uint generation, ulong t, ulong base, uint valid,
                               SORT_TILE_PARAMS, local POS_T *off, local sort_value *lvals)
{
    const uint lid = get_local_id(0);
    T key[ITEMS];
    ushort rank[ITEMS];
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k) {
        const uint slot = sort_slot(k);
        if (SORT_HOLDS(slot, valid))
            key[k] = kin[base + slot];
    }
    sort_rank_count(key, rank, valid, kmode, shift, mask, count, whist);
    /* the tile's counts out before it places its keys, so that the tiles
     * after it find them sooner; tile 0 knows its place from the histogram */
    for (uint d = lid; d < SORT_RADIX; d += WG_SIZE) {
        clprim_tiles sd = s;
        sd.words += d * LB_WORDS;
        clprim_tile_publish(sd, t, generation, t > 0 ? TILE_AGGREGATE : TILE_PREFIX,
                            count[d] + (t > 0 ? 0 : hist[d]));
    }
    sort_rank_place(key, 0, 1, rank, valid, kmode, shift, mask, lkeys, lsrc, count, start, whist,
                    scratch);
#if SORT_STAGE_VALUES
    /* the values read in tile order (coalesced) and placed beside their
     * keys, so that they leave as the keys do rather than gathered from
     * their sources; read after the ranking (not with the keys) so that
     * they hold no registers through it, as CUB does */
#pragma unroll
    for (uint k = 0; k < ITEMS; ++k) {
        const uint slot = sort_slot(k);
        if (SORT_HOLDS(slot, valid))
            lvals[rank[k]] = vin[base + slot];
    }
#endif
    /* each digit's place: the others look back over their predecessors' */
    for (uint d = lid; d < SORT_RADIX; d += WG_SIZE) {
        clprim_tiles sd = s;
        POS_T before = hist[d];
        sd.words += d * LB_WORDS;
        /* (published early, above) */
#if defined(SORT_ABLATE) && (SORT_ABLATE & 1)
        (void)sd; /* profiling only (results wrong): the pass without its look-back */
#else
        before = clprim_tile_prefix(sd, t, generation, count[d], before,
                                    TP_SERIAL | TP_PUBLISHED, kin, n, kmode, shift, mask, d);
#endif
        off[d] = before - start[d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#if defined(SORT_ABLATE) && (SORT_ABLATE & 2)
    /* profiling only (results wrong): the pass without its global writes */
    if (lkeys[lid] == (T)0x12345)
#endif
    sort_write_tile(lkeys, lsrc, lvals, off, valid, kmode, shift, mask, kout, vin + base, vout);
}

SORT_KERNEL sort_onesweep(global const T *kin, ulong kin_off, global T *kout, ulong kout_off,
                          global const sort_value *vin, ulong vin_off, global sort_value *vout,
                          ulong vout_off, ulong n, uint kmode, uint shift, uint bits,
                          global const POS_T *hist, ulong hist_off, global uchar *state,
                          ulong state_off, uint generation)
{
#if SORT_STAGE_VALUES
    SORT_TILE_LOCALS_SRC(local ushort *lsrc = 0);
    local sort_value lvals[TILE];
#else
    SORT_TILE_LOCALS;
    local sort_value *lvals = 0;
#endif
    local POS_T off[SORT_RADIX];
    local uint tickets[2];
    const uint mask = (1u << bits) - 1u;
    const ulong tiles = (n + TILE - 1) / TILE;
    const clprim_tiles s = clprim_tiles_at(state + state_off, 0);

    clprim_tiles_take(s, 0, 0, tiles, tickets);
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong t = tickets[0], base = t * TILE;
    const uint valid = (uint)min((ulong)TILE, n - base);
#if SORT_MATCH
    /* a second copy for full tiles, without bounds tests (NVIDIA only: the
     * split ranking's copy would double a CPU compiler's work) */
    if (valid == TILE)
        sort_onesweep_tile(kin + kin_off, kout + kout_off, vin + vin_off, vout + vout_off, n,
                           kmode, shift, mask, hist + hist_off, s, generation, t, base, TILE,
                           SORT_TILE_ARGS, off, lvals);
    else
#endif
        sort_onesweep_tile(kin + kin_off, kout + kout_off, vin + vin_off, vout + vout_off, n,
                           kmode, shift, mask, hist + hist_off, s, generation, t, base, valid,
                           SORT_TILE_ARGS, off, lvals);
    if (get_local_id(0) == 0)
        clprim_tiles_finish(s);
}
#endif

/* TILE_BITONIC's pairs: (the ordered key's bits in the range, the input
 * index), unique, so the merges need not be stable to give a stable sort */
#if T_SIZE == 4 && !SORT_WIDE
typedef ulong sort_pair;
#define PAIR_MAKE(o, i) (((ulong)(o) << 32) | (ulong)(i))
#define PAIR_LESS(a, b) ((a) < (b))
#define PAIR_INDEX(p) ((ulong)(uint)(p))
#else
typedef ulong2 sort_pair;
#define PAIR_MAKE(o, i) ((ulong2)((ulong)(o), (ulong)(i)))
#define PAIR_LESS(a, b) ((a).x < (b).x || ((a).x == (b).x && (a).y < (b).y))
#define PAIR_INDEX(p) ((p).y)
#endif
#ifndef BITONIC_TILE
#define BITONIC_TILE 512
#endif

/* One work-group sorts a tile by every digit in local memory: n <= TILE
 * (pairs NULL: the keys and values out), or, for TILE_BITONIC, tile
 * get_group_id(0) of n into pairs. */
SORT_KERNEL sort_tile(global const T *kin, ulong kin_off, global T *kout, ulong kout_off,
                      global const sort_value *vin, ulong vin_off, global sort_value *vout,
                      ulong vout_off, ulong n, uint kmode, uint begin_bit, uint end_bit,
                      global sort_pair *pairs)
{
    SORT_TILE_LOCALS;
    const ulong base = (ulong)get_group_id(0) * TILE;
    const uint valid = (uint)min((ulong)TILE, n - base);
    T key[ITEMS];
    ushort src[ITEMS];

    sort_load_tile(kin + kin_off + base, valid, key, src);
    sort_local(key, src, valid, kmode, begin_bit, end_bit, SORT_TILE_ARGS);
    if (!pairs) {
        sort_store_tile(key, src, valid, kout + kout_off, vin + vin_off, vout + vout_off);
        return;
    }
    const uint width = end_bit - begin_bit;
    const T range = width < KEY_BITS ? (((T)1 << width) - 1) : ~(T)0;
    for (uint k = 0; k < ITEMS; ++k) {
        const uint slot = sort_slot(k);
        if (slot < valid) {
            const T o = (sort_ordered(key[k], kmode) >> begin_bit) & range;
            pairs[base + slot] = PAIR_MAKE(o, base + src[k]);
        }
    }
}

inline void sort_pair_order(global sort_pair *pairs, ulong i, ulong j)
{
    const sort_pair a = pairs[i], b = pairs[j];
    if (PAIR_LESS(b, a)) {
        pairs[i] = b;
        pairs[j] = a;
    }
}

/* One step of the merges over the whole array, one compare per work-item:
 * with flip, element i of each block of `span` against its mirror (which
 * merges two ascending halves), else i against i + stride. Positions at or
 * past n stand for keys above all others: they never move, so compares
 * with them are skipped. */
SORT_KERNEL sort_bitonic_merge(global sort_pair *pairs, ulong n, ulong span, ulong stride)
{
    const ulong w = get_global_id(0);
    ulong i, j;
    if (stride * 2 == span) {
        i = w / stride * span + w % stride;
        j = w / stride * span + span - 1 - w % stride;
    } else {
        i = w / stride * 2 * stride + w % stride;
        j = i + stride;
    }
    if (j < n)
        sort_pair_order(pairs, i, j);
}

/* The steps of stride BITONIC_TILE / 2 down to 1, on a tile in local
 * memory. */
SORT_KERNEL sort_bitonic_local(global sort_pair *pairs, ulong n)
{
    local sort_pair tile[BITONIC_TILE];
    const uint lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * BITONIC_TILE;
    const uint valid = (uint)min((ulong)BITONIC_TILE, n - base);
    for (uint i = lid; i < valid; i += WG_SIZE)
        tile[i] = pairs[base + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = BITONIC_TILE / 2; stride > 0; stride >>= 1) {
        for (uint c = lid; c < BITONIC_TILE / 2; c += WG_SIZE) {
            const uint i = c / stride * 2 * stride + c % stride, j = i + stride;
            if (j < valid) {
                const sort_pair a = tile[i], b = tile[j];
                if (PAIR_LESS(b, a)) {
                    tile[i] = b;
                    tile[j] = a;
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint i = lid; i < valid; i += WG_SIZE)
        pairs[base + i] = tile[i];
}

/* The sorted pairs' indices pick the keys and values. */
SORT_KERNEL sort_bitonic_gather(global const T *kin, ulong kin_off, global T *kout,
                                ulong kout_off, global const sort_value *vin, ulong vin_off,
                                global sort_value *vout, ulong vout_off, ulong n,
                                global const sort_pair *pairs)
{
    const ulong i = get_global_id(0);
    if (i < n) {
        const ulong src = PAIR_INDEX(pairs[i]);
        kout[kout_off + i] = kin[kin_off + src];
#if VALUE_SIZE > 0
        vout[vout_off + i] = vin[vin_off + src];
#endif
    }
}

/* ---- SPLIT_LSB: the seeds' split ---- */
SORT_KERNEL sort_split_flags(global const T *keys, ulong keys_off, ulong n, uint kmode, uint bit,
                             global POS_T *flags)
{
    const ulong i = get_global_id(0);
    if (i < n)
        flags[i] = !((sort_ordered(keys[keys_off + i], kmode) >> bit) & 1);
    else if (i == n)
        flags[n] = 0;
}

/* e = !bit, f scanned: totalFalses = f[n]; d = bit ? i - f + totalFalses : f */
SORT_KERNEL sort_split_scatter(global const T *kin, ulong kin_off, global T *kout, ulong kout_off,
                               global const sort_value *vin, ulong vin_off,
                               global sort_value *vout, ulong vout_off, ulong n, uint kmode,
                               uint bit, global const POS_T *f, global ulong *count,
                               ulong count_off, uint with_count)
{
    const ulong i = get_global_id(0);
    if (i >= n)
        return;
    const POS_T total = f[n];
    const T k = kin[kin_off + i];
    const POS_T d = ((sort_ordered(k, kmode) >> bit) & 1) ? (POS_T)i - f[i] + total : f[i];
    kout[kout_off + d] = k;
#if VALUE_SIZE > 0
    vout[vout_off + d] = vin[vin_off + i];
#endif
    if (i == 0 && with_count)
        count[count_off] = total;
}

/* CHUNKED: one pass of an LSB radix sort by the digit of `bits` bits at
 * `shift` of the ordered keys, each chunk one work-item's (any work-group
 * size; the host launches one work-item each). Counts are digit-major
 * (counts[d * G + g]), so that a key of digit d in chunk g goes after every
 * key of a smaller digit and after those of digit d in earlier chunks:
 * stable. */
kernel void sort_chunk_count(global const T *keys, ulong keys_off, ulong n, uint kmode,
                             uint shift, uint bits, global POS_T *counts, ulong counts_off)
{
    const ulong groups = get_num_groups(0), g = get_group_id(0);
    const uint mask = (1u << bits) - 1u;
    POS_T c[SORT_RADIX];
    ulong i;
    const ulong end = clprim_chunk_range(n, &i);
    if (get_local_id(0))
        return;
    for (uint d = 0; d < SORT_RADIX; ++d)
        c[d] = 0;
    for (keys += keys_off; i < end; ++i)
        ++c[(uint)(sort_ordered(keys[i], kmode) >> shift) & mask];
    for (uint d = 0; d < SORT_RADIX; ++d)
        counts[counts_off + d * groups + g] = c[d];
}

kernel void sort_chunk_scatter(global const T *kin, ulong kin_off, global T *kout, ulong kout_off,
                               global const sort_value *vin, ulong vin_off,
                               global sort_value *vout, ulong vout_off, ulong n, uint kmode,
                               uint shift, uint bits, global const POS_T *counts,
                               ulong counts_off)
{
    const ulong groups = get_num_groups(0), g = get_group_id(0);
    const uint mask = (1u << bits) - 1u;
    POS_T at[SORT_RADIX], run = 0;
    ulong i;
    const ulong end = clprim_chunk_range(n, &i);
    if (get_local_id(0))
        return;
    counts += counts_off;
    for (uint d = 0; d < SORT_RADIX; ++d)
        for (ulong h = 0; h < groups; ++h) {
            if (h == g)
                at[d] = run;
            run += counts[d * groups + h];
        }
    for (; i < end; ++i) {
        const T k = kin[kin_off + i];
        const POS_T to = at[(uint)(sort_ordered(k, kmode) >> shift) & mask]++;
        kout[kout_off + to] = k;
#if VALUE_SIZE > 0
        vout[vout_off + to] = vin[vin_off + i];
#endif
    }
}

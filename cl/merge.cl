/* SPDX-License-Identifier: MIT */
/* Merge of two sorted ranges a and b, stable (a key of a before a key of b
 * that ties with it), by merge path: output k's co-rank i is how many of
 * the first k outputs come from a (the other k - i from b), the one i in
 * [max(0, k - nb), min(k, na)] with a[i - 1] not after b[k - i] and
 * b[k - i - 1] before a[i], found by a binary search on i. Contract with
 * src/merge.c: merge_abi.h.
 *
 *   merge_corank     the taught form (PMPP's merge chapter): each
 *                    work-item's share of the output starts and ends at a
 *                    co-rank found in global memory, then is merged
 *                    sequentially from global memory;
 *   merge_partition, merge_tiled  merge-path partitioning: the co-rank of
 *                    every tile's first output first (one binary search per
 *                    tile in global memory), then one work-group per tile:
 *                    its two sub-ranges loaded into local memory with
 *                    coalesced reads, each work-item's own split found
 *                    there, MERGE_ITEMS outputs merged in registers, and
 *                    written back coalesced through local memory (values
 *                    gathered by the outputs' source positions).
 *
 * Keys are read and written as bits: built-in keys compare in clprim_sort's
 * order (common/key_order.clh), the caller's by its clprim_user_less. */
#ifndef CLPRIM_ASSEMBLED
#include "sort_abi.h"
#include "merge_abi.h"
#include "common/elem.clh"
#include "common/key_order.clh"
#endif

#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef MERGE_ITEMS
#define MERGE_ITEMS 7
#endif
#ifndef MERGE_CORANK_ITEMS
#define MERGE_CORANK_ITEMS 8
#endif
#ifndef MERGE_VALUES
#define MERGE_VALUES 0
#endif
#ifndef MERGE_VALUE_WORD
#define MERGE_VALUE_WORD uint
#define MERGE_VALUE_WORDS 1
#endif
#ifndef MERGE_USER_LESS
#define MERGE_USER_LESS 0
#endif
#ifndef MERGE_KMODE_IN
#define MERGE_KMODE_IN 0
#endif
#ifndef MERGE_KMODE_VALUE
#define MERGE_KMODE_VALUE 0u
#endif
#if MERGE_ITEMS < 1 || MERGE_ITEMS > MERGE_MAX_ITEMS
#error "clprim: MERGE_ITEMS out of range"
#endif

#define MERGE_TILE (WG_SIZE * MERGE_ITEMS)

/* whether key x comes before key y (kmode: the kernel's argument) */
#if MERGE_USER_LESS
#define MERGE_LESS(x, y) (clprim_user_less((x), (y)) != 0)
#else
#define MERGE_LESS(x, y) (clprim_key_ordered((x), kmode) < clprim_key_ordered((y), kmode))
#endif

/* a value moved as whole words (the host picks the widest dividing it) */
typedef struct merge_value {
    MERGE_VALUE_WORD w[MERGE_VALUE_WORDS];
} merge_value;

#define MERGE_KERNEL kernel CLPRIM_KERNEL_ATTRS void
#define MERGE_ARGS                                                                              \
    global const T *keys_a, ulong a_off, ulong na, global const T *keys_b, ulong b_off,         \
        ulong nb, global const merge_value *values_a, ulong va_off,                             \
        global const merge_value *values_b, ulong vb_off, global T *keys_out, ulong out_off,    \
        global merge_value *values_out, ulong vout_off, uint kmode

/* The co-rank of output `diag` in a (na keys) and b (nb keys): the number
 * of a's keys among the first diag outputs. a[mid] is among them when
 * b[diag - 1 - mid], the key of b it would follow, does not come before it
 * (ties go to a). Searched over [lo, hi], any interval that holds diag's
 * own [max(0, diag - nb), min(diag, na)]: outside that the answer's side is
 * known without a load (mid >= diag: a[mid] is not among the first diag
 * outputs; mid < diag - nb: it is). */
inline ulong merge_corank_within(ulong diag, ulong lo, ulong hi, global const T *a,
                                 global const T *b, ulong nb, uint kmode)
{
    (void)kmode;
    while (lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        if (mid >= diag || (mid + nb >= diag && MERGE_LESS(b[diag - 1 - mid], a[mid])))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* ... over diag's own interval */
inline ulong merge_corank_global(ulong diag, global const T *a, ulong na, global const T *b,
                                 ulong nb, uint kmode)
{
    return merge_corank_within(diag, diag > nb ? diag - nb : 0, min(diag, na), a, b, nb, kmode);
}

/* The same in local memory (OpenCL 1.2 has no generic address space),
 * over diag's own interval, where every probe loads. */
inline uint merge_corank_local(uint diag, local const T *a, uint na, local const T *b, uint nb,
                               uint kmode)
{
    uint lo = diag > nb ? diag - nb : 0, hi = min(diag, na);
    (void)kmode;
    while (lo < hi) {
        const uint mid = lo + (hi - lo) / 2;
        if (MERGE_LESS(b[diag - 1 - mid], a[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

MERGE_KERNEL merge_corank(MERGE_ARGS)
{
    const ulong total = na + nb;
    kmode = MERGE_KMODE_IN ? MERGE_KMODE_VALUE : kmode;
    keys_a += a_off;
    keys_b += b_off;
    keys_out += out_off;
    for (ulong k0 = get_global_id(0) * MERGE_CORANK_ITEMS; k0 < total;
         k0 += get_global_size(0) * MERGE_CORANK_ITEMS) {
        const ulong k1 = min(k0 + MERGE_CORANK_ITEMS, total);
        ulong i = merge_corank_global(k0, keys_a, na, keys_b, nb, kmode);
        const ulong i_end = merge_corank_global(k1, keys_a, na, keys_b, nb, kmode);
        ulong j = k0 - i;
        const ulong j_end = k1 - i_end;
        for (ulong k = k0; k < k1; ++k) {
            const int take_b = j < j_end && (i >= i_end || MERGE_LESS(keys_b[j], keys_a[i]));
            keys_out[k] = take_b ? keys_b[j] : keys_a[i];
#if MERGE_VALUES
            values_out[vout_off + k] = take_b ? values_b[vb_off + j] : values_a[va_off + i];
#endif
            j += take_b;
            i += !take_b;
        }
    }
}

#ifndef MERGE_SHARED_SEARCH
#define MERGE_SHARED_SEARCH 1
#endif

/* Each work-group's searches share one interval, the union of its
 * diagonals' own (MERGE_SHARED_SEARCH): they then probe the same keys
 * until their answers part, so the upper levels of every search but the
 * first are hits in the compute unit's cache, where each diagonal's own
 * interval made every probe of every search a miss of its own (70,144
 * searches of 2^28 keys took 109 us on the H100, 2026-11-26). */
kernel void merge_partition(global const T *keys_a, ulong a_off, ulong na, global const T *keys_b,
                            ulong b_off, ulong nb, uint kmode, uint tile, global ulong *parts,
                            ulong count)
{
    const ulong total = na + nb;
    kmode = MERGE_KMODE_IN ? MERGE_KMODE_VALUE : kmode;
    for (ulong t = get_global_id(0); t < count; t += get_global_size(0)) {
        const ulong diag = min(t * tile, total);
#if MERGE_SHARED_SEARCH
        const ulong t0 = t - get_local_id(0), t1 = min(t0 + get_local_size(0), count) - 1;
        const ulong d0 = min(t0 * tile, total), d1 = min(t1 * tile, total);
        parts[t] = merge_corank_within(diag, d0 > nb ? d0 - nb : 0, min(d1, na), keys_a + a_off,
                                       keys_b + b_off, nb, kmode);
#else
        parts[t] = merge_corank_global(diag, keys_a + a_off, na, keys_b + b_off, nb, kmode);
#endif
    }
}

/* One tile of `count` outputs (MERGE_TILE when full, which the compiler
 * specialises so that a full tile tests no bounds): a's na_t keys at ka,
 * then b's at kb, into local memory; src[k] is where output k came from
 * within the tile (below na_t: a, else b). */
__attribute__((always_inline)) inline void
merge_tile(global const T *ka, uint na_t, global const T *kb, uint count, global T *kout,
           global const merge_value *va, global const merge_value *vb, global merge_value *vout,
           local T *lkeys, local uint *lsrc, uint kmode, const int full)
{
    const uint lid = get_local_id(0);
    T key[MERGE_ITEMS];
    uint src[MERGE_ITEMS];

    /* both sub-ranges, one after the other, in coalesced rows of WG_SIZE */
#pragma unroll
    for (uint k = 0; k < MERGE_ITEMS; ++k) {
        const uint i = k * WG_SIZE + lid;
        if (full || i < count)
            lkeys[i] = i < na_t ? ka[i] : kb[i - na_t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* this work-item's outputs [diag, diag + MERGE_ITEMS): its split in
     * local memory, then a serial merge with one local load per output
     * (the key taken is replaced by its successor, which may be one past
     * its range: read, never compared) */
    {
        const uint diag = full ? lid * MERGE_ITEMS : min(lid * MERGE_ITEMS, count);
        uint ai = merge_corank_local(diag, lkeys, na_t, lkeys + na_t, count - na_t, kmode);
        uint bi = na_t + diag - ai;
        T x = lkeys[ai], y = lkeys[bi];
#pragma unroll
        for (uint k = 0; k < MERGE_ITEMS; ++k) {
            const int take_b = bi < count && (ai >= na_t || MERGE_LESS(y, x));
            const uint from = take_b ? bi : ai;
            /* a partial tile's work-items run past its end: kept inside */
            const T next = lkeys[full ? from + 1 : min(from + 1, count)];
            key[k] = take_b ? y : x;
            src[k] = from;
            x = take_b ? x : next;
            y = take_b ? next : y;
            ai += !take_b;
            bi += take_b;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* blocked to striped through local memory (MERGE_ITEMS odd: no bank
     * conflicts for 4-byte keys), then coalesced stores */
#pragma unroll
    for (uint k = 0; k < MERGE_ITEMS; ++k) {
        const uint i = lid * MERGE_ITEMS + k;
        if (full || i < count) {
            lkeys[i] = key[k];
#if MERGE_VALUES
            lsrc[i] = src[k];
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint k = 0; k < MERGE_ITEMS; ++k) {
        const uint i = k * WG_SIZE + lid;
        if (full || i < count) {
            kout[i] = lkeys[i];
#if MERGE_VALUES
            const uint s = lsrc[i];
            vout[i] = s < na_t ? va[s] : vb[s - na_t];
#endif
        }
    }
    (void)src;
    (void)va;
    (void)vb;
    (void)vout;
    (void)lsrc;
}

MERGE_KERNEL merge_tiled(MERGE_ARGS, global const ulong *parts)
{
    local T lkeys[MERGE_TILE + 1];
#if MERGE_VALUES
    local uint lsrc[MERGE_TILE];
#else
    local uint *lsrc = 0;
#endif
    const ulong g = get_group_id(0), total = na + nb;
    const ulong first = g * MERGE_TILE, end = min(first + MERGE_TILE, total);
    const ulong a0 = parts[g], a1 = parts[g + 1];
    const ulong b0 = first - a0;
    const uint count = (uint)(end - first);
    /* a's share of the tile, kept within both ranges: sorted ranges give
     * co-ranks that never fall, unsorted ones may (their output is then
     * unspecified, but nothing is read outside the ranges) */
    const uint na_t = (uint)clamp(a1 > a0 ? a1 - a0 : 0ul,
                                  count > nb - b0 ? count - (nb - b0) : 0ul,
                                  min((ulong)count, na - a0));
    global const T *ka = keys_a + a_off + a0, *kb = keys_b + b_off + b0;
    global const merge_value *va = values_a + va_off + a0, *vb = values_b + vb_off + b0;
    kmode = MERGE_KMODE_IN ? MERGE_KMODE_VALUE : kmode;
    keys_out += out_off + first;
    values_out += vout_off + first;
    /* the same call twice, so that the full tile's copy has no bounds */
    if (count == MERGE_TILE)
        merge_tile(ka, na_t, kb, MERGE_TILE, keys_out, va, vb, values_out, lkeys, lsrc, kmode, 1);
    else
        merge_tile(ka, na_t, kb, count, keys_out, va, vb, values_out, lkeys, lsrc, kmode, 0);
}

/* SPDX-License-Identifier: MIT */
/* Searches in sorted keys: for each query, how many keys come before it
 * (lower bound: keys before the query; upper bound: keys not after it), in
 * clprim_sort's order (common/key_order.clh). Contract with src/search.c:
 * search_abi.h.
 *
 *   search_binary     the taught form: one binary search per query, every
 *                     step a load from global memory (the first steps of
 *                     every query read the same few keys, from cache);
 *   search_cached     a bounded grid of work-groups, each loading a regular
 *                     sample of the keys into local memory once (every
 *                     stride-th key, SEARCH_SAMPLES of them, and the last
 *                     key), then looping over chunks of the queries: each
 *                     query's interval among the samples from local memory,
 *                     then the search within that interval in global
 *                     memory, SEARCH_ITEMS queries per work-item stepping
 *                     together so that their loads are in flight at once;
 *   search_window     (after search_window_bounds) a work-group per chunk of
 *                     the queries, the keys its positions lie between
 *                     loaded into local memory once: for sorted queries;
 *                     with a permutation (SORT_QUERIES: the queries sorted
 *                     first, with search_iota's positions), each position
 *                     written where its query was.
 *
 * The cached search counts bit by bit (the search of Shar): the answer is
 * built from its highest bit down, adding `bit` when the key just before
 * answer + bit still counts before the query. Every query then takes the
 * same steps whatever it finds (no divergence, and the steps of several
 * queries interleave). Both read only keys below n: keys that are not
 * sorted give some position in [0, n], never a read outside them. */
#ifndef CLPRIM_ASSEMBLED
#include "sort_abi.h"
#include "search_abi.h"
#include "common/elem.clh"
#include "common/key_order.clh"
#endif

#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef SEARCH_SAMPLES
#define SEARCH_SAMPLES 256
#endif
#ifndef SEARCH_ITEMS
#define SEARCH_ITEMS 4
#endif
#ifndef SEARCH_KMODE_IN
#define SEARCH_KMODE_IN 0
#endif
#ifndef SEARCH_KMODE_VALUE
#define SEARCH_KMODE_VALUE 0u
#endif
#ifndef SEARCH_WINDOW
#define SEARCH_WINDOW 1024
#endif
#define SEARCH_CHUNK (WG_SIZE * SEARCH_ITEMS)
#if SEARCH_SAMPLES < 2
#error "clprim: SEARCH_SAMPLES holds at least one sample and the last key"
#endif

#define SEARCH_KERNEL kernel CLPRIM_KERNEL_ATTRS void
#define SEARCH_ARGS                                                                           \
    global const T *keys, ulong keys_off, ulong n, global const T *queries,                   \
        ulong queries_off, ulong m, global uint *out, ulong out_off, uint wide_out, uint kmode, \
        uint upper

/* The first step's bit of a count up to `most`: its highest bit (0: none). */
inline uint search_top_bit(uint most)
{
    return most ? 1u << (31 - clz(most)) : 0u;
}

inline void search_store(global uint *out, ulong at, uint wide_out, ulong pos)
{
    if (wide_out)
        ((global ulong *)out)[at] = pos;
    else
        out[at] = (uint)pos;
}

/* What a query's keys are compared with, in ordered form: lower bound
 * counts the keys below the query, upper bound those not above it, which
 * are those below query + 1, so every step is one compare for both. The
 * query of every bit 1 has no successor (the bound wraps to 0): upper bound
 * counts every key there, as *all says. */
inline T search_bound(T query, uint upper, int *all)
{
    const T bound = query + (T)upper;
    *all = upper && bound == 0;
    return bound;
}

/* How many of keys[0 .. n) come before `bound`, by halving in global
 * memory. */
inline ulong search_global(global const T *keys, ulong n, T bound, uint kmode)
{
    ulong lo = 0, hi = n; /* the answer is in [lo, hi] */
    while (lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        if (clprim_key_ordered(keys[mid], kmode) < bound)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The position of queries[j]: n for the bound that wraps, else searched. */
inline ulong search_one(global const T *keys, ulong n, global const T *queries, ulong j,
                        uint kmode, uint upper)
{
    int all;
    const T bound = search_bound(clprim_key_ordered(queries[j], kmode), upper, &all);
    return all ? n : search_global(keys, n, bound, kmode);
}

SEARCH_KERNEL search_binary(SEARCH_ARGS)
{
    kmode = SEARCH_KMODE_IN ? SEARCH_KMODE_VALUE : kmode;
    keys += keys_off;
    queries += queries_off;
    for (ulong j = get_global_id(0); j < m; j += get_global_size(0))
        search_store(out, out_off + j, wide_out, search_one(keys, n, queries, j, kmode, upper));
}

/* WINDOW, first step: the position of the first query of every chunk of
 * SEARCH_CHUNK queries, and of the last query (bounds[chunks]). */
SEARCH_KERNEL search_window_bounds(SEARCH_ARGS, global ulong *bounds, ulong chunks)
{
    kmode = SEARCH_KMODE_IN ? SEARCH_KMODE_VALUE : kmode;
    keys += keys_off;
    queries += queries_off;
    for (ulong c = get_global_id(0); c <= chunks; c += get_global_size(0))
        bounds[c] = search_one(keys, n, queries, c < chunks ? c * SEARCH_CHUNK : m - 1, kmode,
                               upper);
}

/* WINDOW: chunk c of the queries, whose positions lie between those of its
 * first query and of the next chunk's where the queries ascend, loads the
 * keys between those two positions into local memory once (when they fit)
 * and searches each query there: a key is then read about once per call,
 * coalesced, however the keys and queries interleave. A query is searched
 * there only where the keys just outside the window bracket it (so that
 * its position is inside); any other (the queries unsorted, or the window
 * too large) is searched in global memory. Positions are right for any
 * order of the queries; sorted ones are fast. */
SEARCH_KERNEL search_window(SEARCH_ARGS, global const ulong *bounds, ulong chunks,
                            global const uint *perm, ulong perm_off, uint perm_kind)
{
    local T lkeys[SEARCH_WINDOW];
    local T edge[2]; /* the keys just before and just after the window */
    const uint lid = get_local_id(0);
    const ulong c = get_group_id(0), first = c * SEARCH_CHUNK;
    const ulong lo = bounds[c], hi = bounds[c + 1];
    const int fits = hi >= lo && hi - lo <= SEARCH_WINDOW;
    const uint len = fits ? (uint)(hi - lo) : 0u;
    kmode = SEARCH_KMODE_IN ? SEARCH_KMODE_VALUE : kmode;
    keys += keys_off;
    queries += queries_off;
    (void)chunks;

    for (uint i = lid; i < len; i += WG_SIZE)
        lkeys[i] = clprim_key_ordered(keys[lo + i], kmode);
    if (lid == 0 && fits) {
        edge[0] = lo > 0 ? clprim_key_ordered(keys[lo - 1], kmode) : (T)0;
        edge[1] = hi < n ? clprim_key_ordered(keys[hi], kmode) : (T)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint k = 0; k < SEARCH_ITEMS; ++k) {
        const ulong j = first + k * WG_SIZE + lid;
        if (j >= m)
            break;
        int all;
        const T bound = search_bound(clprim_key_ordered(queries[j], kmode), upper, &all);
        ulong pos = n;
        if (!all) {
            if (fits && (lo == 0 || edge[0] < bound) && (hi == n || !(edge[1] < bound))) {
                uint a = 0, span = len; /* keys of the window before the bound */
                while (span > 0) {
                    const uint step = span / 2;
                    if (lkeys[a + step] < bound) {
                        a += step + 1;
                        span -= step + 1;
                    } else {
                        span = step;
                    }
                }
                pos = lo + a;
            } else {
                pos = search_global(keys, n, bound, kmode);
            }
        }
        /* SORT_QUERIES: the query's place in the caller's order */
        const ulong at = perm_kind == 2 ? ((global const ulong *)perm)[perm_off + j]
                         : perm_kind == 1 ? (ulong)perm[perm_off + j] : j;
        search_store(out, out_off + at, wide_out, pos);
    }
}

/* SORT_QUERIES: positions 0 .. m - 1 (as uint, or as ulong with wide),
 * the values sorted with the queries. */
SEARCH_KERNEL search_iota(global uint *idx, ulong off, ulong m, uint wide)
{
    for (ulong j = get_global_id(0); j < m; j += get_global_size(0))
        if (wide)
            ((global ulong *)idx)[off + j] = j;
        else
            idx[off + j] = (uint)j;
}

SEARCH_KERNEL search_cached(SEARCH_ARGS)
{
    /* the samples from slot 0, the last key in the last slot, all ordered */
    local T lkeys[SEARCH_SAMPLES];
    const uint lid = get_local_id(0);
    const ulong stride = SEARCH_STRIDE(n, (ulong)SEARCH_SAMPLES);
    /* samples that lie before the last key; the keys of an interval after
     * its sample (at most stride - 1, fewer in the last interval) */
    const uint samples = (uint)min((ulong)(SEARCH_SAMPLES - 1), (n - 1) / stride);
    const uint span_most = (uint)(stride - 1);
    const uint sample_top = search_top_bit(samples), key_top = search_top_bit(span_most);
    const ulong chunk = (ulong)WG_SIZE * SEARCH_ITEMS;
    kmode = SEARCH_KMODE_IN ? SEARCH_KMODE_VALUE : kmode;
    keys += keys_off;
    queries += queries_off;

    /* consecutive work-items load consecutive samples, each in its own
     * stride of the keys; once per work-group, for all its queries */
    for (uint i = lid; i < samples; i += WG_SIZE)
        lkeys[i] = clprim_key_ordered(keys[(ulong)(i + 1) * stride - 1], kmode);
    if (lid == 0)
        lkeys[SEARCH_SAMPLES - 1] = clprim_key_ordered(keys[n - 1], kmode);
    barrier(CLK_LOCAL_MEM_FENCE);
    const T last = lkeys[SEARCH_SAMPLES - 1];

    for (ulong first = get_group_id(0) * chunk; first < m; first += get_num_groups(0) * chunk) {
        T bound[SEARCH_ITEMS];
        int all[SEARCH_ITEMS];
        uint at[SEARCH_ITEMS], span[SEARCH_ITEMS];
        global const T *from[SEARCH_ITEMS];
        /* query k of this work-item: first + k * WG_SIZE + lid, so that
         * each k's loads and stores are coalesced */
#pragma unroll
        for (uint k = 0; k < SEARCH_ITEMS; ++k) {
            const ulong j = first + k * WG_SIZE + lid;
            bound[k] = search_bound(j < m ? clprim_key_ordered(queries[j], kmode) : (T)0, upper,
                                    &all[k]);
            at[k] = 0;
        }
        /* the interval: how many samples come before the query */
        for (uint bit = sample_top; bit; bit >>= 1) {
#pragma unroll
            for (uint k = 0; k < SEARCH_ITEMS; ++k) {
                const uint i = at[k] + bit - 1;
                if (i < samples && lkeys[i] < bound[k])
                    at[k] += bit;
            }
        }
#pragma unroll
        for (uint k = 0; k < SEARCH_ITEMS; ++k) {
            const ulong base = (ulong)at[k] * stride;
            from[k] = keys + base;
            span[k] = (uint)min((ulong)span_most, n - 1 - base);
            at[k] = 0;
        }
        /* within it: every query's load of a step is issued before any of
         * them is compared, so SEARCH_ITEMS loads per work-item are in
         * flight at once (one query's steps depend on each other) */
        for (uint bit = key_top; bit; bit >>= 1) {
            T v[SEARCH_ITEMS];
#pragma unroll
            for (uint k = 0; k < SEARCH_ITEMS; ++k) {
                const uint i = at[k] + bit - 1;
                v[k] = i < span[k] ? from[k][i] : (T)0;
            }
#pragma unroll
            for (uint k = 0; k < SEARCH_ITEMS; ++k) {
                const uint i = at[k] + bit - 1;
                if (i < span[k] && clprim_key_ordered(v[k], kmode) < bound[k])
                    at[k] += bit;
            }
        }
        /* the last key decides position n, which no interval holds */
#pragma unroll
        for (uint k = 0; k < SEARCH_ITEMS; ++k) {
            const ulong j = first + k * WG_SIZE + lid;
            if (j < m)
                search_store(out, out_off + j, wide_out,
                             all[k] || last < bound[k] ? n : (ulong)(from[k] - keys) + at[k]);
        }
    }
}

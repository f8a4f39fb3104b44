/* SPDX-License-Identifier: MIT */
/* Top-k by radix selection: the k smallest keys in their ordered form
 * (common/key_order.clh; the k largest are the k smallest descending),
 * ties by input index, found digit by digit from the top of the ordered
 * key without sorting the input. Per level (top_k_abi.h): a histogram of
 * the digit over the level's source (topk_hist), the boundary digit
 * (topk_find), then a stable compaction (topk_compact) that writes every
 * key below the boundary to the output and the keys at it to a smaller
 * candidate buffer, which the next level reads instead of the input. On
 * uniform keys the first two passes read the input and every later one a
 * small fraction of it. Contract with src/top_k.c: top_k_abi.h.
 *
 * Both passes over a source give each work-group one contiguous range of
 * it (so that its offsets among the kept keys, from its row of digit
 * counts, keep the input order across work-groups) and load a tile of
 * WG_SIZE x TOPK_ITEMS keys before counting or ranking any, so that that
 * many loads are in flight (the pattern of sort.cl's histogram tile). */
#ifndef CLPRIM_ASSEMBLED
#include "sort_abi.h"
#include "top_k_abi.h"
#include "common/elem.clh"
#include "common/simd.clh"
#include "common/key_order.clh"
#include "top_k_types.clh"
#endif

#ifndef TOPK_DIGIT_BITS
#define TOPK_DIGIT_BITS 8
#endif
#ifndef TOPK_MATCH
#define TOPK_MATCH 0
#endif
#if TOPK_MATCH && (!CLPRIM_WARP_PTX || (WG_SIZE % 32) != 0)
#error "clprim: TOPK_MATCH needs NVIDIA PTX and work-groups of whole warps"
#endif

#define TOPK_TILE (WG_SIZE * TOPK_ITEMS)
#define TOPK_RADIX_MAX (1u << TOPK_DIGIT_BITS)
#if TOPK_TILE > TOPK_MAX_TILE
#error "clprim: a top-k tile holds at most TOPK_MAX_TILE keys (ranks in 16 bits)"
#endif
#if TOPK_DIGIT_BITS > TOPK_MAX_DIGIT_BITS || TOPK_DIGIT_BITS < TOPK_MIN_DIGIT_BITS
#error "clprim: TOPK_DIGIT_BITS out of range"
#endif

/* 64-bit running totals over the work-group (topk_find) */
#define TOPK_U64_ADD(a, b) ((a) + (b))
CLPRIM_GROUP_SCANS(topk_u64, ulong, TOPK_U64_ADD, 0ul)

/* A level's inputs (its record; level 0's are the call's own). */
typedef struct topk_in {
    ulong src, count, prefix, taken, needed, active;
} topk_in;

inline topk_in topk_inputs(global const ulong *state, uint level, ulong n, ulong k)
{
    topk_in in;
    if (level == 0) {
        in.src = TOPK_SRC_INPUT;
        in.count = n;
        in.prefix = 0;
        in.taken = 0;
        in.needed = k;
        in.active = 1;
    } else {
        global const ulong *r = state + (ulong)level * TOPK_REC_WORDS;
        in.src = r[TOPK_REC_SRC];
        in.count = r[TOPK_REC_COUNT];
        in.prefix = r[TOPK_REC_PREFIX];
        in.taken = r[TOPK_REC_TAKEN];
        in.needed = r[TOPK_REC_NEEDED];
        in.active = r[TOPK_REC_ACTIVE];
    }
    return in;
}

/* This work-group's range [*lo, *hi) of a source of `count` keys: whole
 * tiles, as many per work-group as the grid needs (the same in every pass
 * over the source). */
inline void topk_range(ulong count, ulong *lo, ulong *hi)
{
    const ulong tiles = (count + TOPK_TILE - 1) / TOPK_TILE, groups = get_num_groups(0);
    const ulong per = (tiles + groups - 1) / groups;
    *lo = min(count, (ulong)get_group_id(0) * per * TOPK_TILE);
    *hi = min(count, *lo + per * TOPK_TILE);
}

inline global const T *topk_source(global const T *keys, global const T *cand_keys,
                                   ulong a_key_off, ulong b_key_off, ulong src)
{
    return src == TOPK_SRC_INPUT ? keys
                                 : cand_keys + (src == TOPK_SRC_A ? a_key_off : b_key_off);
}

/* Whether the ordered key o matches the prefix (the bits above the digit;
 * `above` = shift + width, the whole key at the first level). */
inline int topk_matches(T o, uint above, T prefix)
{
    return above >= KEY_BITS || (o >> above) == prefix;
}

/* A tile's keys into registers, all loads issued before any key is used:
 * work-item lid holds slots lid, lid + WG_SIZE, ... (coalesced); slots
 * at or past `valid` hold 0. */
inline void topk_load(global const T *src, ulong base, uint valid, T *key)
{
    const uint lid = get_local_id(0);
#pragma unroll
    for (uint k = 0; k < TOPK_ITEMS; ++k) {
        const uint slot = k * WG_SIZE + lid;
        key[k] = slot < valid ? src[base + slot] : (T)0;
    }
}

/* ---- topk_hist ---- */

/* One tile's keys counted: all loaded first, then counted; `valid` is the
 * constant TOPK_TILE for a full tile, which folds the bounds tests away. */
inline void topk_hist_tile(global const T *src, ulong base, uint valid, uint kmode, uint shift,
                           uint above, uint mask, T prefix, local uint *lh)
{
    const uint lid = get_local_id(0);
    T key[TOPK_ITEMS];
    topk_load(src, base, valid, key);
#pragma unroll
    for (uint k = 0; k < TOPK_ITEMS; ++k) {
        const T o = clprim_key_ordered(key[k], kmode);
        const int ok = k * WG_SIZE + lid < valid && topk_matches(o, above, prefix);
#if TOPK_MATCH
        /* the lanes of one digit (every lane of the warp takes part: no
         * branch before) add their count once, from the lowest of them:
         * few digits (skewed keys) would otherwise serialise the warp's
         * atomics on one address */
        const uint d = ok ? (uint)(o >> shift) & mask : 0xffffffffu;
        const uint peers = clprim_ptx_match_any(d);
        if (ok && (peers & ((1u << (lid & 31u)) - 1u)) == 0)
            atomic_add(&lh[d], popcount(peers));
#else
        if (ok)
            atomic_inc(&lh[(uint)(o >> shift) & mask]);
#endif
    }
}

TOPK_KERNEL topk_hist(global const T *keys, ulong keys_off, ulong n, uint kmode, uint level,
                      uint shift, uint width, global const ulong *state, global topk_pos *totals,
                      ulong totals_off, global uint *rows, ulong rows_off,
                      global const T *cand_keys, ulong a_key_off, ulong b_key_off,
                      global const uint *gate, uint gated)
{
    local uint lh[TOPK_RADIX_MAX];
    local uint scratch[CLPRIM_GROUP_SCRATCH];
    /* SAMPLE_FILTER's candidates hold the answer: nothing to do here */
    if (gated && gate[TOPKF_GATE_WORD])
        return;
    const topk_in in = topk_inputs(state, level, n, 0);
    if (!in.active)
        return;
    const uint lid = get_local_id(0), radix = 1u << width, mask = radix - 1u;
    const uint above = shift + width;
    const T prefix = (T)in.prefix;
    global const T *src = topk_source(keys + keys_off, cand_keys, a_key_off, b_key_off, in.src);
    ulong lo, hi;

    for (uint i = lid; i < radix; i += WG_SIZE)
        lh[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    topk_range(in.count, &lo, &hi);
    for (ulong base = lo; base < hi; base += TOPK_TILE) {
        const uint valid = (uint)min((ulong)TOPK_TILE, hi - base);
        if (valid == TOPK_TILE)
            topk_hist_tile(src, base, TOPK_TILE, kmode, shift, above, mask, prefix, lh);
        else
            topk_hist_tile(src, base, valid, kmode, shift, above, mask, prefix, lh);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* the work-group's row: the exclusive prefix of its counts, then their
     * total (each work-item takes `per` consecutive digits); the level's
     * totals gain its nonzero counts */
    {
        const uint per = (radix + WG_SIZE - 1) / WG_SIZE, first = lid * per;
        global topk_pos *tot = totals + totals_off + (ulong)level * TOPK_RADIX_MAX;
        global uint *row = rows + rows_off + (ulong)get_group_id(0) * (radix + 1);
        uint sum = 0, total, run;
        for (uint j = 0; j < per; ++j) {
            if (first + j < radix) {
                const uint c = lh[first + j];
                sum += c;
                if (c) {
#if TOPK_WIDE
                    atom_add(&tot[first + j], (ulong)c);
#else
                    atomic_add(&tot[first + j], c);
#endif
                }
            }
        }
        run = clprim_u32_wg_exscan(sum, scratch, &total);
        for (uint j = 0; j < per; ++j) {
            if (first + j < radix) {
                row[first + j] = run;
                run += lh[first + j];
            }
        }
        if (lid == 0)
            row[radix] = total;
    }
}

/* ---- topk_find ---- */

TOPK_KERNEL topk_find(ulong n, ulong k, uint level, uint shift, uint width, ulong cap_a,
                      ulong cap_b, ulong groups, global ulong *state,
                      global const topk_pos *totals, ulong totals_off, global const uint *rows,
                      ulong rows_off, global const uint *gate, uint gated)
{
    local ulong scratch[CLPRIM_GROUP_SCRATCH];
    local ulong found[3]; /* b, keys below it, keys at it */
    /* SAMPLE_FILTER's candidates hold the answer: nothing to do here */
    if (gated && gate[TOPKF_GATE_WORD])
        return;
    const topk_in in = topk_inputs(state, level, n, k);
    if (!in.active)
        return;
    const uint lid = get_local_id(0), radix = 1u << width;
    const uint per = (radix + WG_SIZE - 1) / WG_SIZE, first = lid * per;
    global const topk_pos *tot = totals + totals_off + (ulong)level * TOPK_RADIX_MAX;
    global ulong *rec = state + (ulong)level * TOPK_REC_WORDS;
    global ulong *off = state + TOPK_OFFSETS_AT;
    ulong sum = 0, all, before;

    /* the boundary: the digit whose running total first reaches `needed`
     * (the matching keys hold at least that many) */
    for (uint j = 0; j < per; ++j)
        if (first + j < radix)
            sum += tot[first + j];
    if (lid == 0) { /* (never kept: some work-item's share holds the boundary) */
        found[0] = radix - 1;
        found[1] = 0;
        found[2] = 0;
    }
    before = topk_u64_wg_exscan(sum, scratch, &all);
    if (before < in.needed && in.needed <= before + sum) {
        ulong run = before;
        for (uint j = 0; j < per && first + j < radix; ++j) {
            const ulong c = tot[first + j];
            if (run + c >= in.needed) {
                found[0] = first + j;
                found[1] = run;
                found[2] = c;
                break;
            }
            run += c;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint b = (uint)found[0];
    const ulong lt = found[1], eq = found[2];

    /* each work-group's place among the keys below b and those at b, in
     * work-group order: its row's prefix at b and its count at b, scanned */
    {
        ulong lt_carry = 0, eq_carry = 0;
        for (ulong g0 = 0; g0 < groups; g0 += WG_SIZE) {
            const ulong g = g0 + lid;
            ulong l = 0, e = 0, lt_all, eq_all, lb, eb;
            if (g < groups) {
                global const uint *row = rows + rows_off + g * (radix + 1);
                l = row[b];
                e = row[b + 1] - row[b];
            }
            lb = topk_u64_wg_exscan(l, scratch, &lt_all);
            barrier(CLK_LOCAL_MEM_FENCE);
            eb = topk_u64_wg_exscan(e, scratch, &eq_all);
            if (g < groups) {
                off[g] = lt_carry + lb;
                off[groups + g] = eq_carry + eb;
            }
            lt_carry += lt_all;
            eq_carry += eq_all;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    if (lid == 0) {
        const ulong rest = in.needed - lt; /* from the keys at b: 1 .. eq */
        global ulong *next = rec + TOPK_REC_WORDS;
        ulong dest;
        rec[TOPK_REC_B] = b;
        rec[TOPK_REC_LT] = lt;
        rec[TOPK_REC_EQ] = eq;
        if (shift == 0 || rest == eq) {
            /* the last digit (every key at b is the same key), or all of
             * them needed: the first `rest` are taken, and no level follows */
            dest = TOPK_DEST_OUTPUT;
        } else {
            ulong src = in.src, count = in.count;
            if (in.src != TOPK_SRC_A && eq <= cap_a) {
                dest = TOPK_DEST_A; /* (from B: always, cap_b <= cap_a) */
                src = TOPK_SRC_A;
                count = eq;
            } else if (in.src == TOPK_SRC_A && eq <= cap_b) {
                dest = TOPK_DEST_B;
                src = TOPK_SRC_B;
                count = eq;
            } else {
                dest = TOPK_DEST_NONE; /* the source again, by the longer prefix */
            }
            next[TOPK_REC_SRC] = src;
            next[TOPK_REC_COUNT] = count;
            next[TOPK_REC_PREFIX] = (in.prefix << width) | b;
            next[TOPK_REC_TAKEN] = in.taken + lt;
            next[TOPK_REC_NEEDED] = rest;
            next[TOPK_REC_ACTIVE] = 1;
        }
        rec[TOPK_REC_DEST] = dest;
    }
}

/* ---- topk_compact ---- */

/* A key taken: to output position pos, its value from input index idx. */
inline void topk_emit(global T *keys_out, global topk_value *values_out,
                      global const topk_value *values, ulong pos, T key, ulong idx)
{
    keys_out[pos] = key;
#if VALUE_SIZE > 0
    values_out[pos] = values[idx];
#else
    (void)values_out;
    (void)values;
    (void)idx;
#endif
}

TOPK_KERNEL topk_compact(global const T *keys, ulong keys_off, global const topk_value *values,
                         ulong values_off, global T *keys_out, ulong keys_out_off,
                         global topk_value *values_out, ulong values_out_off, ulong n, ulong k,
                         uint kmode,
                         uint level, uint shift, uint width, global const ulong *state,
                         global T *cand_keys, ulong a_key_off, ulong b_key_off,
                         global topk_pos *cand_idx, ulong a_idx_off, ulong b_idx_off,
                         global const uint *gate, uint gated)
{
    local uchar lcls[TOPK_TILE];   /* per tile slot: 0 skipped, 1 below b, 2 at b */
    local ushort lrank[TOPK_TILE]; /* per kept slot: its rank among its class in the tile */
    local uint scratch[CLPRIM_GROUP_SCRATCH];
    local uint lany[2];            /* whether the tile keeps any key (by tile parity) */
    /* SAMPLE_FILTER's candidates hold the answer: nothing to do here */
    if (gated && gate[TOPKF_GATE_WORD])
        return;
    const topk_in in = topk_inputs(state, level, n, k);
    if (!in.active)
        return;
    global const ulong *rec = state + (ulong)level * TOPK_REC_WORDS;
    const uint b = (uint)rec[TOPK_REC_B], dest = (uint)rec[TOPK_REC_DEST];
    const ulong lt = rec[TOPK_REC_LT];
    if (lt == 0 && dest == TOPK_DEST_NONE)
        return; /* nothing to write: the next level reads this source again */
    const uint lid = get_local_id(0), mask = (1u << width) - 1u, above = shift + width;
    const ulong g = get_group_id(0), groups = get_num_groups(0);
    const T prefix = (T)in.prefix;
    /* the next output position of a key below b; the next rank among the
     * keys at b, of which the output takes those below eq_limit */
    ulong lt_at = in.taken + state[TOPK_OFFSETS_AT + g];
    ulong eq_at = state[TOPK_OFFSETS_AT + groups + g];
    const ulong eq_limit = dest == TOPK_DEST_OUTPUT ? in.needed - lt : ~0ul;
    const ulong eq_out = in.taken + lt;
    global const T *src = topk_source(keys + keys_off, cand_keys, a_key_off, b_key_off, in.src);
    global const topk_pos *src_idx =
        cand_idx + (in.src == TOPK_SRC_A ? a_idx_off : b_idx_off); /* candidates only */
    global T *dk = cand_keys + (dest == TOPK_DEST_A ? a_key_off : b_key_off);
    global topk_pos *di = cand_idx + (dest == TOPK_DEST_A ? a_idx_off : b_idx_off);
    const uint with_eq = dest != TOPK_DEST_NONE;
    uint parity = 0;
    ulong lo, hi;

    keys_out += keys_out_off;
    values_out += values_out_off;
    values += values_off;
    if (lid < 2)
        lany[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    topk_range(in.count, &lo, &hi);
    /* the next tile's keys are loaded before this one is ranked, so that
     * they arrive while it is (its barriers would otherwise leave no load
     * in flight) */
    T next[TOPK_ITEMS];
    if (lo < hi)
        topk_load(src, lo, (uint)min((ulong)TOPK_TILE, hi - lo), next);
    for (ulong base = lo; base < hi; base += TOPK_TILE) {
        const uint valid = (uint)min((ulong)TOPK_TILE, hi - base);
        T key[TOPK_ITEMS];
        uint cls[TOPK_ITEMS], any = 0;
#pragma unroll
        for (uint k = 0; k < TOPK_ITEMS; ++k)
            key[k] = next[k];
        if (base + TOPK_TILE < hi)
            topk_load(src, base + TOPK_TILE, (uint)min((ulong)TOPK_TILE, hi - base - TOPK_TILE),
                      next);
#pragma unroll
        for (uint k = 0; k < TOPK_ITEMS; ++k) {
            const uint slot = k * WG_SIZE + lid;
            const T o = clprim_key_ordered(key[k], kmode);
            const uint d = (uint)(o >> shift) & mask;
            uint c = 0;
            if (slot < valid && topk_matches(o, above, prefix))
                c = d < b ? 1u : d == b && with_eq ? 2u : 0u;
            cls[k] = c;
            any |= c;
            lcls[slot] = (uchar)c;
        }
        if (any)
            lany[parity] = 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lany[parity]) { /* the same for every work-item */
            /* ranks in input order: work-item lid counts slots lid * ITEMS
             * .. + ITEMS - 1 (below b in the high half, at b in the low),
             * the work-group scans the counts, each kept slot gets its rank */
            const uint first = lid * TOPK_ITEMS;
            uint c = 0, total, before, rl, re;
            for (uint j = 0; j < TOPK_ITEMS; ++j) {
                const uint x = lcls[first + j];
                c += x == 1u ? 0x10000u : x == 2u ? 1u : 0u;
            }
            before = clprim_u32_wg_exscan(c, scratch, &total);
            rl = before >> 16;
            re = before & 0xffffu;
            for (uint j = 0; j < TOPK_ITEMS; ++j) {
                const uint x = lcls[first + j];
                if (x == 1u)
                    lrank[first + j] = (ushort)rl++;
                else if (x == 2u)
                    lrank[first + j] = (ushort)re++;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            for (uint k = 0; k < TOPK_ITEMS; ++k) {
                if (cls[k]) {
                    const uint slot = k * WG_SIZE + lid;
                    const ulong at = base + slot, r = lrank[slot];
                    const ulong idx = in.src == TOPK_SRC_INPUT ? at : (ulong)src_idx[at];
                    if (cls[k] == 1u) {
                        topk_emit(keys_out, values_out, values, lt_at + r, key[k], idx);
                    } else if (dest == TOPK_DEST_OUTPUT) {
                        if (eq_at + r < eq_limit)
                            topk_emit(keys_out, values_out, values, eq_out + eq_at + r, key[k],
                                      idx);
                    } else {
                        dk[eq_at + r] = key[k];
                        di[eq_at + r] = (topk_pos)idx;
                    }
                }
            }
            lt_at += total >> 16;
            eq_at += total & 0xffffu;
        }
        if (lid == 0)
            lany[parity ^ 1u] = 0; /* the next tile's flag (read by none since its last barrier) */
        barrier(CLK_LOCAL_MEM_FENCE);
        parity ^= 1u;
    }
}

/* SPDX-License-Identifier: MIT */
/* Top-k by a sampled threshold (SAMPLE_FILTER): the k smallest keys in
 * their ordered form (common/key_order.clh, kmode as cl/sort_abi.h encodes
 * it; the k largest are the k smallest descending) are among the keys at
 * least as good as any key that k or more keys are at least as good as.
 * A sample of the input at fixed positions, sorted by clprim_sort, gives
 * such a key with high probability (topkf_sample); one pass over the input
 * keeps every key at least as good as it, with its input index, in no set
 * order (topkf_filter); topkf_settle sets the gate and fills the rest of
 * the candidates' room, so that clprim_sort can sort every slot of it (by
 * index, then by key, stably) without the count; the first k are the
 * answer, picked where the gate is open (topkf_pick). Where the sample
 * misled (fewer than k candidates, or more than their room) the gate is
 * shut and the radix selection queued behind runs. Contract with
 * src/top_k_filter.c: top_k_abi.h.
 *
 * The pass is the whole cost: it must read the input at the copy rate and
 * do little else. So no work-group barrier inside it: a tile's keys are
 * loaded in 16-byte words, all before any is tested (the loads in flight
 * that topk_hist gets from its tile), a key that passes (about one in
 * n / (4 k), on uniform keys) takes a slot of the work-group's local stage
 * with a local atomic, and the stage goes out with one global atomic at
 * the end. */
#ifndef CLPRIM_ASSEMBLED
#include "sort_abi.h"
#include "top_k_abi.h"
#include "common/elem.clh"
#include "common/key_order.clh"
#include "top_k_types.clh"
#endif

/* keys per 16-byte word, words per work-item of a tile (at least the
 * tuning row's keys per work-item) */
#define TOPKF_LANES (16 / T_SIZE)
#if T_SIZE == 4
typedef uint4 topkf_word;
#define TOPKF_LANE(w, c) ((c) == 0 ? (w).s0 : (c) == 1 ? (w).s1 : (c) == 2 ? (w).s2 : (w).s3)
#else
typedef ulong2 topkf_word;
#define TOPKF_LANE(w, c) ((c) == 0 ? (w).s0 : (w).s1)
#endif
/* (lanes by component, not through a pointer into the word: a pointer
 * kept Intel's CPU compiler from keeping words in vector registers) */
#define TOPKF_WORDS ((TOPK_ITEMS + TOPKF_LANES - 1) / TOPKF_LANES)
#define TOPKF_TILE (WG_SIZE * TOPKF_WORDS)

/* The count's atomic add: the slot of the first of `c` candidates. */
inline ulong topkf_count_add(global topk_pos *count, uint c)
{
#if TOPK_WIDE
    return atom_add(count, (ulong)c);
#else
    return atomic_add(count, c);
#endif
}

/* Input key i of n for sample key i of s: floor(i n / s), without the
 * product's overflow (i < 2^20 and n % s < s keep both terms in 64 bits) */
inline ulong topkf_position(ulong i, ulong n, ulong s)
{
    return i * (n / s) + i * (n % s) / s;
}

TOPK_KERNEL topkf_sample(global const T *keys, ulong keys_off, ulong n, ulong s,
                         global T *held_keys, ulong sample_off, global topk_pos *held_pos,
                         ulong count_off)
{
    const ulong i = get_global_id(0);
    if (i == 0)
        held_pos[count_off] = 0;
    if (i < s)
        held_keys[sample_off + i] = keys[keys_off + topkf_position(i, n, s)];
}

/* Where a work-group's candidates go. */
typedef struct topkf_sink {
    local uint *staged;   /* candidates the work-group met (past the stage too) */
    local T *stage_keys;
    local topk_pos *stage_idx;
    global topk_pos *count;
    global T *keys;
    global topk_pos *idx;
    ulong cap;
} topkf_sink;

/* Key `key` at input index idx passed the threshold: into the stage, or
 * once it is full straight to a slot of its own; *stop once that slot is
 * past the buffer (the count is then past it too: the gate shuts). */
inline void topkf_take(const topkf_sink *k, T key, ulong idx, int *stop)
{
    const uint r = atomic_inc(k->staged);
    if (r < TOPKF_STAGE) {
        k->stage_keys[r] = key;
        k->stage_idx[r] = (topk_pos)idx;
        return;
    }
    {
        const ulong at = topkf_count_add(k->count, 1u);
        if (at < k->cap) {
            k->keys[at] = key;
            k->idx[at] = (topk_pos)idx;
        } else {
            *stop = 1;
        }
    }
}

TOPK_KERNEL topkf_filter(global const T *keys, ulong keys_off, ulong n, uint kmode,
                         global T *held_keys, ulong sample_off, ulong pick,
                         global topk_pos *held_pos, ulong count_off, ulong ck_off, ulong ci_off,
                         ulong cap)
{
    local T stage_keys[TOPKF_STAGE];
    local topk_pos stage_idx[TOPKF_STAGE];
    local uint staged;
    local ulong first;
    const uint lid = get_local_id(0);
    const T thr = clprim_key_ordered(held_keys[sample_off + pick - 1], kmode);
    global const T *src = keys + keys_off;
    /* 16-byte words from the first key on a 16-byte boundary (buffers
     * start on one); the keys before it and after the last whole word are
     * few (under TOPKF_LANES each) and taken one by one */
    const ulong head = min(n, (ulong)((TOPKF_LANES - keys_off % TOPKF_LANES) % TOPKF_LANES));
    const ulong words = (n - head) / TOPKF_LANES, tail = head + words * TOPKF_LANES;
    global const topkf_word *wsrc = (global const topkf_word *)(src + head);
    topkf_sink sink;
    int stop = 0;

    sink.staged = &staged;
    sink.stage_keys = stage_keys;
    sink.stage_idx = stage_idx;
    sink.count = held_pos + count_off;
    sink.keys = held_keys + ck_off;
    sink.idx = held_pos + ci_off;
    sink.cap = cap;
    if (lid == 0)
        staged = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_group_id(0) == 0) {
        for (ulong i = lid; i < head + (n - tail); i += WG_SIZE) {
            const ulong at = i < head ? i : tail + (i - head);
            const T key = src[at];
            if (clprim_key_ordered(key, kmode) <= thr)
                topkf_take(&sink, key, at, &stop);
        }
    }
    /* tiles round-robin over the work-groups: a run of passing keys (a
     * sorted input's end) is shared among them rather than overflowing
     * one stage */
    for (ulong t = get_group_id(0); t * TOPKF_TILE < words && !stop; t += get_num_groups(0)) {
        const ulong base = t * TOPKF_TILE;
        topkf_word w[TOPKF_WORDS];
#pragma unroll
        for (uint f = 0; f < TOPKF_WORDS; ++f) {
            const ulong at = base + f * WG_SIZE + lid;
            w[f] = at < words ? wsrc[at] : (topkf_word)(0);
        }
#pragma unroll
        for (uint f = 0; f < TOPKF_WORDS; ++f) {
            const ulong at = base + f * WG_SIZE + lid;
#pragma unroll
            for (uint c = 0; c < TOPKF_LANES; ++c) {
                const T key = TOPKF_LANE(w[f], c);
                if (at < words && clprim_key_ordered(key, kmode) <= thr)
                    topkf_take(&sink, key, head + at * TOPKF_LANES + c, &stop);
            }
        }
    }
    /* the stage out: its slots with one atomic, written where below cap */
    barrier(CLK_LOCAL_MEM_FENCE);
    {
        const uint out = min(staged, (uint)TOPKF_STAGE);
        if (lid == 0)
            first = out ? topkf_count_add(sink.count, out) : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = lid; i < out; i += WG_SIZE) {
            if (first + i < cap) {
                sink.keys[first + i] = stage_keys[i];
                sink.idx[first + i] = stage_idx[i];
            }
        }
    }
}

/* After the filter: the gate, and the room past the count filled, so that
 * nothing after the filter needs the count on the host (the call does not
 * wait for it). */
TOPK_KERNEL topkf_settle(global T *held_keys, global topk_pos *held_pos, ulong count_off,
                         ulong ck_off, ulong ci_off, ulong cap, ulong k, uint kmode)
{
    const ulong count = held_pos[count_off], i = get_global_id(0);
    if (i == 0)
        ((global uint *)held_pos)[TOPKF_GATE_WORD] = count >= k && count <= cap;
    if (i >= count && i < cap) {
        held_keys[ck_off + i] = clprim_key_last(kmode);
        held_pos[ci_off + i] = ~(topk_pos)0;
    }
}

TOPK_KERNEL topkf_pick(global const T *held_keys, ulong ck_off, global const topk_pos *held_pos,
                       ulong ci_off, global T *keys_out, ulong keys_out_off,
                       global const topk_value *values, ulong values_off,
                       global topk_value *values_out, ulong values_out_off, ulong k)
{
    const ulong i = get_global_id(0);
    if (i >= k || !((global const uint *)held_pos)[TOPKF_GATE_WORD])
        return;
    keys_out[keys_out_off + i] = held_keys[ck_off + i];
#if VALUE_SIZE > 0
    values_out[values_out_off + i] = values[values_off + held_pos[ci_off + i]];
#else
    (void)values;
    (void)values_off;
    (void)values_out;
    (void)values_out_off;
#endif
}

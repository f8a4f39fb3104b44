/* SPDX-License-Identifier: MIT */
/* The PORTABLE scan in one pass (issue 33): the bits of portable.cl's
 * three launches (the order of cl/portable_abi.h), each tile taking the
 * values of that order it needs from the tiles before it instead of from
 * launches of their own, so that the input is read once. Every value of
 * the order depends on a fixed set of earlier elements alone, so it is
 * published once (a slot each: portable_abi.h) and combined by the same
 * trees whoever computed it, and whenever.
 *
 * Tile g sits at work-item w = g % 1024 / 16, place j = g % 16 of level-1
 * tile G = g / 1024 (the tiles' totals A), and G at work-item u2 = G / 16,
 * place j2 = G % 16 of the one level-2 tile (the level-1 tiles' totals
 * L2, up to PORTABLE_SP_MAX_N elements). The exclusive scans of the two
 * levels as the three launches run them give tile g's carry:
 *   prefix2 = c0 op ks2_{u2-1}      (c0 alone for u2 = 0; c0: the carry-in,
 *                                    or the identity)
 *   carry1  = prefix2 op loc2_{j2-1}  (prefix2 alone for j2 = 0)
 *   prefix1 = carry1 op ks1_{w-1}   (carry1 alone for w = 0)
 *   carry   = prefix1 op loc1_{j-1} (prefix1 alone for j = 0)
 * loc1 and loc2 fold A and L2 from the first of the chunk; ks1 and ks2 are
 * the Kogge-Stone scans over G's 64 chunk folds S1 and over the 64 chunk
 * folds S2 of L2; L2(G) is the reduce's tree over G's chunk folds from the
 * identity R1. Tile g publishes A(g) as soon as it has it; the last tile of
 * a chunk its S1 and R1, the last of a level-1 tile its L2, the last of 16
 * of those their S2, all before any output. A tile reads at most 15 A, 63
 * S1 (and 63 R1 as a level-1 tile's last), 15 L2 and 63 S2, its work-items
 * in parallel. Each read polls LOOKBACK_SPINS times, then computes the value
 * from the ones below it by the same steps (at the bottom from the input,
 * settling on what was published meanwhile: in place, those reads may have
 * met output), so nothing waits unbounded. Tiles take tickets in order, so
 * those before a running tile have started. */
#ifndef CLPRIM_ASSEMBLED
#include "portable.cl"
#include "common/lookback.clh"
#endif

#if CLPRIM_SINGLE_PASS

CLPRIM_PAIRWISE(portable, T, OP)

/* Where the published values are, and what their fallbacks read. */
typedef struct portable_values {
    clprim_tiles s;
    uint generation;
    ulong tiles, n;
    global const IN_T *in; /* at the caller's offset */
} portable_values;

/* Tile g's total A(g) from the input, serially in the reduce's order. */
inline T portable_tile_total(global const IN_T *in, ulong g, ulong n)
{
    T stack[CLPRIM_PAIRWISE_DEPTH];
    uint sizes[CLPRIM_PAIRWISE_DEPTH], depth = 0;
    for (uint v = 0; v < PORTABLE_WG; ++v) {
        const ulong first = g * PORTABLE_TILE + v * PORTABLE_CHUNK;
        T acc = IDENTITY;
        for (uint j = 0; j < PORTABLE_CHUNK && first + j < n; ++j)
            acc = OP(acc, clprim_in(in[first + j], first + j));
        portable_pairwise_push(stack, sizes, &depth, acc);
    }
    return portable_pairwise_end(stack, depth);
}

/* The published value at slot, polled (0: none yet). */
inline uint portable_poll(portable_values a, ulong slot, T *v)
{
    return clprim_tile_poll(a.s, slot, a.generation, v);
}

inline void portable_publish(portable_values a, ulong slot, T v)
{
    clprim_tile_publish(a.s, slot, a.generation, TILE_AGGREGATE, v);
}

/* The values a tile reads, each published or else computed from the ones
 * below it (which are before the tile: whole chunks and tiles). */
inline T portable_a(portable_values a, ulong g)
{
    T v;
    if (portable_poll(a, g, &v))
        return v;
    return clprim_tile_settle(a.s, g, a.generation, portable_tile_total(a.in, g, a.n));
}

/* chunk c of A folded from its first (S1) or from the identity (R1) */
inline T portable_chunk(portable_values a, ulong c, int from_first)
{
    T v;
    if (portable_poll(a, (from_first ? PORTABLE_SP_S1(a.tiles) : PORTABLE_SP_R1(a.tiles)) + c,
                      &v))
        return v;
    v = portable_a(a, c * PORTABLE_CHUNK);
    if (!from_first)
        v = OP(IDENTITY, v);
    for (uint j = 1; j < PORTABLE_CHUNK; ++j)
        v = OP(v, portable_a(a, c * PORTABLE_CHUNK + j));
    return v;
}

inline T portable_l2(portable_values a, ulong G)
{
    T v, stack[CLPRIM_PAIRWISE_DEPTH];
    uint sizes[CLPRIM_PAIRWISE_DEPTH], depth = 0;
    if (portable_poll(a, PORTABLE_SP_L2(a.tiles) + G, &v))
        return v;
    for (uint w = 0; w < PORTABLE_WG; ++w)
        portable_pairwise_push(stack, sizes, &depth, portable_chunk(a, G * PORTABLE_WG + w, 0));
    return portable_pairwise_end(stack, depth);
}

/* chunk c of L2 folded from its first */
inline T portable_s2(portable_values a, ulong c)
{
    T v;
    if (portable_poll(a, PORTABLE_SP_S2(a.tiles) + c, &v))
        return v;
    v = portable_l2(a, c * PORTABLE_CHUNK);
    for (uint j = 1; j < PORTABLE_CHUNK; ++j)
        v = OP(v, portable_l2(a, c * PORTABLE_CHUNK + j));
    return v;
}

/* x[0 .. m) folded in order from the first (m >= 1) */
inline T portable_fold_first(local const T *x, uint m)
{
    T v = x[0];
    for (uint i = 1; i < m; ++i)
        v = OP(v, x[i]);
    return v;
}

/* The scan of n elements from init[init_off] (flags: PORTABLE_CARRY, else
 * none), PORTABLE_GROUP_TILES tiles per ticket; state holds
 * PORTABLE_SP_SLOTS(tiles) slots of this generation. */
PORTABLE_KERNEL scan_portable_sp(global const IN_T *in, ulong in_off, global T *out,
                                 ulong out_off, ulong n, global uchar *state, uint generation,
                                 uint flags, global const T *init, ulong init_off)
{
    PORTABLE_LOCAL_T
    local T ks[2 * WG_SIZE];
    /* per tile: the A and the L2 before it in their chunks */
    local T got[2][PORTABLE_GROUP_TILES * PORTABLE_CHUNK];
    /* per tile: its A, then its carry; loc1, R1 of its chunk, ks1 */
    local T own[PORTABLE_GROUP_TILES], mid[3][PORTABLE_GROUP_TILES], l2s[PORTABLE_GROUP_TILES];
    local uint tickets[2];
    const uint u = get_local_id(0), v = u % PORTABLE_WG, t = u / PORTABLE_WG;
    const ulong tiles = (n + PORTABLE_TILE - 1) / PORTABLE_TILE;
    portable_values a;
    a.s = clprim_tiles_at(state, PORTABLE_SP_SLOTS(tiles));
    a.generation = generation;
    a.tiles = tiles;
    a.n = n;
    a.in = in += in_off;
    clprim_tiles_take(a.s, 0, 0, tiles, tickets);
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong base = (ulong)tickets[0] * PORTABLE_SPAN;
    const ulong g = (ulong)tickets[0] * PORTABLE_GROUP_TILES + t, G = g / PORTABLE_TILE;
    const uint j = g % PORTABLE_CHUNK, w = g % PORTABLE_TILE / PORTABLE_CHUNK;
    const uint j2 = G % PORTABLE_CHUNK, u2 = (uint)(G / PORTABLE_CHUNK);
    const int live = g < tiles, last_of_g = g % PORTABLE_TILE == PORTABLE_TILE - 1;
    local T *const mine = got[0] + t * PORTABLE_CHUNK, *const mine2 = got[1] + t * PORTABLE_CHUNK;
#if PORTABLE_STAGED
    portable_stage_in(in, base, n, s, in_off % VEC == 0);
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    /* A(g) out first: later tiles may be waiting for it */
    const T total = portable_group_totals(in, n, base + (ulong)u * PORTABLE_CHUNK, s, ks);
    if (u < PORTABLE_GROUP_TILES)
        own[u] = total;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (v == 0 && live)
        portable_publish(a, g, own[t]);
    /* the A before the tile in its chunk; the last tile of the chunk
     * publishes the chunk's folds at once, needing no other value: were
     * they published after the reads below, each chunk's S1 and each
     * level-1 tile's L2 would wait for the one before it, a chain that
     * moved one chunk per tile's latency (on an H100, 0.43 ms at 2^22) */
    if (live && v < j)
        mine[v] = portable_a(a, g - j + v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (v == 0 && live) {
        T r = OP(IDENTITY, j ? mine[0] : own[t]);
        for (uint i = 1; i < j; ++i)
            r = OP(r, mine[i]);
        if (j)
            mid[0][t] = portable_fold_first(mine, j);
        if (j == PORTABLE_CHUNK - 1) {
            mid[1][t] = r = OP(r, own[t]);
            portable_publish(a, PORTABLE_SP_S1(tiles) + g / PORTABLE_CHUNK,
                             OP(mid[0][t], own[t]));
            portable_publish(a, PORTABLE_SP_R1(tiles) + g / PORTABLE_CHUNK, r);
        }
    }
    /* the chunk folds before the tile in its level-1 tile (from the first,
     * and for its last tile from the identity too, to publish L2 next) */
    T s1 = IDENTITY, r1 = IDENTITY, s2 = IDENTITY;
    if (live && v < w) {
        s1 = portable_chunk(a, G * PORTABLE_WG + v, 1);
        if (last_of_g)
            r1 = portable_chunk(a, G * PORTABLE_WG + v, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the last tile of a level-1 tile: its L2, before it reads the L2
     * before it (which would chain the level-1 tiles as above) */
    ks[u] = v == PORTABLE_WG - 1 ? mid[1][t] : r1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (v == 0 && live && last_of_g) {
        T stack[CLPRIM_PAIRWISE_DEPTH];
        uint sizes[CLPRIM_PAIRWISE_DEPTH], depth = 0;
        for (uint i = 0; i < PORTABLE_WG; ++i)
            portable_pairwise_push(stack, sizes, &depth, ks[t * PORTABLE_WG + i]);
        l2s[t] = portable_pairwise_end(stack, depth);
        portable_publish(a, PORTABLE_SP_L2(tiles) + G, l2s[t]);
    }
    /* the level-2 values before the tile */
    if (live) {
        if (v < j2)
            mine2[v] = portable_l2(a, G - j2 + v);
        if (v < u2)
            s2 = portable_s2(a, v);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (v == 0 && live && last_of_g && j2 == PORTABLE_CHUNK - 1)
        portable_publish(a, PORTABLE_SP_S2(tiles) + G / PORTABLE_CHUNK,
                         OP(portable_fold_first(mine2, j2), l2s[t]));
    /* the two levels' Kogge-Stones, then the carry (the comment above) */
    local const T *k1 = portable_kogge_stone(v < w ? s1 : IDENTITY, ks);
    if (v == 0 && w)
        mid[2][t] = k1[u + w - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    local const T *k2 = portable_kogge_stone(v < u2 ? s2 : IDENTITY, ks);
    if (v == 0 && live) {
        const T c0 = flags & PORTABLE_CARRY ? init[init_off] : IDENTITY;
        const T prefix2 = u2 ? OP(c0, k2[u + u2 - 1]) : c0;
        const T carry1 = j2 ? OP(prefix2, portable_fold_first(mine2, j2)) : prefix2;
        const T prefix1 = w ? OP(carry1, mid[2][t]) : carry1;
        own[t] = j ? OP(prefix1, mid[0][t]) : prefix1;
        /* everything published before any output (portable_a's settling) */
        if (flags & PORTABLE_IN_PLACE)
            clprim_fence_release();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    portable_scan_span(in, out + out_off, n, base, own[t], flags, s, ks, out_off % VEC == 0);
    if (u == 0)
        clprim_tiles_finish(a.s);
}

#endif /* CLPRIM_SINGLE_PASS */

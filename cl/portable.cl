/* SPDX-License-Identifier: MIT */
/* The PORTABLE level (issue 33): reduce and scan in the one association
 * order cl/portable_abi.h fixes, the same on every device. Work-items and
 * local memory only (no SIMD-group operations, whose width differs), and no
 * fused multiply-add: a transform's a * b + c rounds twice on every device.
 *
 * A work-group of WG_SIZE work-items (the host's choice, a multiple of
 * PORTABLE_WG) runs PORTABLE_GROUP_TILES tiles at once: work-item u is the
 * virtual work-item u % PORTABLE_WG of the group's tile u / PORTABLE_WG, and
 * does exactly what that virtual work-item's order says, so the bits do not
 * depend on WG_SIZE. The group's span of tiles moves between global and
 * local memory coalesced (consecutive work-items, consecutive 16-byte
 * words where the span is whole and aligned); each work-item then folds or
 * scans its PORTABLE_CHUNK consecutive elements from local memory, where
 * element k of the span sits at PORTABLE_SLOT(k), padded so that both the
 * coalesced transfers and the chunks' walks meet every bank once. CPUs, and
 * elements of a caller's type over 16 bytes (local memory would limit the
 * group to one tile), are not staged: each work-item reads and writes its
 * own elements directly. */
#ifndef CLPRIM_ASSEMBLED
#include "portable_abi.h"
#include "common/elem.clh"
#include "common/tile.clh"
#endif

#pragma OPENCL FP_CONTRACT OFF

#if WG_SIZE % PORTABLE_WG != 0
#error "clprim: the portable kernels run a multiple of PORTABLE_WG work-items per work-group"
#endif

#define PORTABLE_KERNEL kernel CLPRIM_KERNEL_ATTRS void

#define PORTABLE_GROUP_TILES (WG_SIZE / PORTABLE_WG)
#define PORTABLE_SPAN (WG_SIZE * PORTABLE_CHUNK) /* elements of a work-group */
/* one pad after every 32 elements of 4 bytes, every 16 of 8 or more:
 * work-items' 16-byte words then fill every bank once (float: lane l at
 * 4l + l / 8), and so do the chunks' walks (float: 16u + u / 2; double,
 * 64 bits a lane over half a warp: 17u) */
#if T_SIZE == 4
#define PORTABLE_PAD 32
#else
#define PORTABLE_PAD 16
#endif
#define PORTABLE_SLOT(k) ((k) + (k) / PORTABLE_PAD)
#define PORTABLE_WORDS (PORTABLE_CHUNK / VEC) /* 16-byte words of each work-item */

/* The host's choice (PORTABLE_STAGE: GPUs stage, CPUs not), or the
 * development build option -DCLPRIM_PORTABLE_STAGED=0 or 1 (through
 * CLPRIM_BUILD_OPTIONS: either path on any device, for tests); never for
 * a caller's type over 16 bytes. */
#if defined(CLPRIM_PORTABLE_STAGED)
#define PORTABLE_STAGED CLPRIM_PORTABLE_STAGED
#elif defined(PORTABLE_STAGE)
#define PORTABLE_STAGED PORTABLE_STAGE
#else
#define PORTABLE_STAGED 1
#endif
#if PORTABLE_STAGED && !CLPRIM_T_BUILTIN && T_SIZE > 16
#undef PORTABLE_STAGED
#define PORTABLE_STAGED 0
#endif

#if PORTABLE_STAGED
/* The span of the group from element base (of in, already at the caller's
 * offset) to local memory, through the tile layer's 16-byte chunks
 * (common/tile.clh: coalesced, vector accesses where aligned and below n),
 * mapped by the transform with each element's index, the identity past n
 * (never read); every chunk is loaded before the first is mapped. aligned:
 * in is at a 16-byte boundary. */
inline void portable_stage_in(global const IN_T *in, ulong base, ulong n, local T *s,
                              uint aligned)
{
    clprim_raw raw[PORTABLE_WORDS];
    for (uint r = 0; r < PORTABLE_WORDS; ++r)
        raw[r] = clprim_sp_fetch_raw(in, base, n, r * WG_SIZE + get_local_id(0), aligned);
    for (uint r = 0; r < PORTABLE_WORDS; ++r) {
        const uint g = r * WG_SIZE + get_local_id(0);
        const TV x = clprim_sp_cook(raw[r], base, n, g);
        for (uint j = 0; j < VEC; ++j)
            s[PORTABLE_SLOT(g * VEC + j)] = clprim_chunk_at(x, j);
    }
}

/* The span's elements below n from local memory to out (already at the
 * caller's offset), in the same chunks; aligned: out is at a 16-byte
 * boundary. */
inline void portable_stage_out(global T *out, ulong base, ulong n, local const T *s,
                               uint aligned)
{
    for (uint r = 0; r < PORTABLE_WORDS; ++r) {
        const uint g = r * WG_SIZE + get_local_id(0);
        clprim_chunk c;
        for (uint j = 0; j < VEC; ++j)
            c.a[j] = s[PORTABLE_SLOT(g * VEC + j)];
        clprim_sp_store_chunk(out, base, n, g, c.v, aligned);
    }
}

#define PORTABLE_LOCAL_T local T s[PORTABLE_SLOT(PORTABLE_SPAN)];
/* element j of work-item u's chunk (first: its index; a chunk never
 * straddles a pad) */
#define PORTABLE_AT(u, first, j) s[PORTABLE_SLOT((u) * PORTABLE_CHUNK) + (j)]
#else
#define PORTABLE_LOCAL_T local T s[1]; /* unused: the steps below take it alike */
#define PORTABLE_AT(u, first, j) clprim_in(in[(first) + (j)], (first) + (j))
#endif

/* The reduce's first level over the group's span (staged in s where
 * PORTABLE_STAGED, else read from in): virtual work-item u % 64 folds its
 * chunk from the identity, and the pairwise tree over 64 values is the
 * balanced binary tree: its first four levels over each 16 by one
 * work-item (to b's first of them, which only it reads), the last two over
 * each tile's four. Every work-item calls it; the group's tile u's total
 * is returned to work-items u < PORTABLE_GROUP_TILES. b holds
 * WG_SIZE + WG_SIZE / 16 values and is free again on return. */
inline T portable_group_totals(global const IN_T *in, ulong n, ulong first, local T *s,
                               local T *b)
{
    const uint u = get_local_id(0);
    T acc = IDENTITY, total = IDENTITY;
    if (first + PORTABLE_CHUNK <= n) {
        for (uint j = 0; j < PORTABLE_CHUNK; ++j)
            acc = OP(acc, PORTABLE_AT(u, first, j));
    } else {
        for (uint j = 0; j < PORTABLE_CHUNK && first + j < n; ++j)
            acc = OP(acc, PORTABLE_AT(u, first, j));
    }
    b[u + u / 16] = acc; /* one pad after every 16 */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (u < WG_SIZE / 16) {
        local const T *q = b + u * 17;
        const T a0 = OP(OP(OP(q[0], q[1]), OP(q[2], q[3])), OP(OP(q[4], q[5]), OP(q[6], q[7])));
        const T a1 =
            OP(OP(OP(q[8], q[9]), OP(q[10], q[11])), OP(OP(q[12], q[13]), OP(q[14], q[15])));
        b[u * 17] = OP(a0, a1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (u < PORTABLE_GROUP_TILES) {
        local const T *q = b + u * 4 * 17;
        total = OP(OP(q[0], q[17]), OP(q[34], q[51]));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

/* The Kogge-Stone inclusive scan of the work-items' values x over each
 * tile's 64 (step d: value v becomes value v - d op value v where v >= d)
 * in ks (2 * WG_SIZE values); returns where the result lies (value u at
 * [u]), readable until the caller's next barrier. */
inline local T *portable_kogge_stone(T x, local T *ks)
{
    const uint u = get_local_id(0), v = u % PORTABLE_WG;
    uint cur = 0;
    ks[u] = x;
    for (uint d = 1; d < PORTABLE_WG; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        ks[(cur ^ 1) * WG_SIZE + u] =
            v >= d ? OP(ks[cur * WG_SIZE + u - d], ks[cur * WG_SIZE + u]) : ks[cur * WG_SIZE + u];
        cur ^= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return ks + cur * WG_SIZE;
}

/* The scan's last step over the group's span (staged in s where
 * PORTABLE_STAGED): the tile of work-item u from its carry c, to out
 * (already at the caller's offset; aligned: at a 16-byte boundary). Every
 * work-item calls it; ks holds 2 * WG_SIZE values. */
inline void portable_scan_span(global const IN_T *in, global T *out, ulong n, ulong base, T c,
                               uint flags, local T *s, local T *ks, uint aligned)
{
    const uint u = get_local_id(0), v = u % PORTABLE_WG;
    const ulong first = base + (ulong)u * PORTABLE_CHUNK;
    const uint m = first >= n ? 0u : n - first >= PORTABLE_CHUNK ? PORTABLE_CHUNK : (uint)(n - first);
    T loc[PORTABLE_CHUNK];
    /* virtual work-item v: its elements scanned in order from the first
     * (whole chunks apart, so that loc stays in registers) */
    T total = IDENTITY;
    if (m == PORTABLE_CHUNK) {
        for (uint j = 0; j < PORTABLE_CHUNK; ++j) {
            const T x = PORTABLE_AT(u, first, j);
            loc[j] = j ? OP(loc[j - 1], x) : x;
        }
        total = loc[PORTABLE_CHUNK - 1];
    } else {
        for (uint j = 0; j < m; ++j) {
            const T x = PORTABLE_AT(u, first, j);
            total = loc[j] = j ? OP(total, x) : x;
        }
    }
    local const T *r = portable_kogge_stone(total, ks);
    const T prefix = v ? OP(c, r[u - 1]) : c;
#if PORTABLE_STAGED
    /* to the work-item's own slots (it alone read them), then out */
    if (m == PORTABLE_CHUNK) {
        if (flags & PORTABLE_EXCLUSIVE) {
            for (uint j = 0; j < PORTABLE_CHUNK; ++j)
                PORTABLE_AT(u, first, j) = j ? OP(prefix, loc[j - 1]) : prefix;
        } else {
            for (uint j = 0; j < PORTABLE_CHUNK; ++j)
                PORTABLE_AT(u, first, j) = OP(prefix, loc[j]);
        }
    } else {
        for (uint j = 0; j < m; ++j)
            PORTABLE_AT(u, first, j) = (flags & PORTABLE_EXCLUSIVE)
                                           ? (j ? OP(prefix, loc[j - 1]) : prefix)
                                           : OP(prefix, loc[j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    portable_stage_out(out, base, n, s, aligned);
#else
    for (uint j = 0; j < m; ++j)
        out[first + j] = (flags & PORTABLE_EXCLUSIVE) ? (j ? OP(prefix, loc[j - 1]) : prefix)
                                                      : OP(prefix, loc[j]);
#endif
}

/* portable_sp.cl's program has the steps above and its own kernel alone
 * (Intel's CPU compiler crashed on a program holding all three kernels) */
#ifndef PORTABLE_SP

/* Tile totals: tile g's to out[out_off + g], for the tiles of n elements
 * (one, the identity, for n = 0); the host launches
 * ceil(tiles / PORTABLE_GROUP_TILES) work-groups. */
PORTABLE_KERNEL reduce_portable(global const IN_T *in, ulong in_off, ulong n, global T *out,
                                ulong out_off)
{
    PORTABLE_LOCAL_T
    local T b[WG_SIZE + WG_SIZE / 16];
    const uint u = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * PORTABLE_SPAN;
    const ulong tiles = n ? (n + PORTABLE_TILE - 1) / PORTABLE_TILE : 1;
    const ulong g = (ulong)get_group_id(0) * PORTABLE_GROUP_TILES + u;
    in += in_off;
#if PORTABLE_STAGED
    portable_stage_in(in, base, n, s, in_off % VEC == 0);
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    const T total = portable_group_totals(in, n, base + (ulong)u * PORTABLE_CHUNK, s, b);
    if (u < PORTABLE_GROUP_TILES && g < tiles)
        out[out_off + g] = total;
}

/* The tiles of n elements, tile g from carry[carry_off + g] where flags
 * has PORTABLE_CARRY; the host launches ceil(tiles / PORTABLE_GROUP_TILES)
 * work-groups. They take their spans from the last to the first, so that
 * the input the tile totals' pass read last may still be in cache (the
 * order of work-groups changes no bits). In place is safe: a work-group
 * reads and writes only its own span, and holds all of it before it
 * writes. */
PORTABLE_KERNEL scan_portable(global const IN_T *in, ulong in_off, global T *out, ulong out_off,
                              ulong n, global const T *carry, ulong carry_off, uint flags)
{
    PORTABLE_LOCAL_T
    local T ks[2 * WG_SIZE];
    const uint u = get_local_id(0);
    const ulong group = (ulong)get_num_groups(0) - 1 - get_group_id(0);
    const ulong base = group * PORTABLE_SPAN, first = base + (ulong)u * PORTABLE_CHUNK;
    const ulong g = group * PORTABLE_GROUP_TILES + u / PORTABLE_WG;
    in += in_off;
    /* the carry of a tile with elements in this work-item (carry holds one
     * per tile of n, no more) */
    const T c = (flags & PORTABLE_CARRY) && first < n ? carry[carry_off + g] : IDENTITY;
#if PORTABLE_STAGED
    portable_stage_in(in, base, n, s, in_off % VEC == 0);
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    portable_scan_span(in, out + out_off, n, base, c, flags, s, ks, out_off % VEC == 0);
}

#endif /* PORTABLE_SP */

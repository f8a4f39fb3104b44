/* SPDX-License-Identifier: MIT */
/* Summed-area tables (2-D inclusive scans) and box filters. The contract
 * with src/sat.c: sat_abi.h; what the look-back carries: sat_carry.clh.
 *
 * sat_single_pass reads the image once and writes the table once. The
 * image is cut into strips of SAT_TW columns; each work-group takes one
 * (by ticket, so that the strip to its left started earlier) and walks
 * down it a tile of SAT_TH rows at a time, keeping the column totals of
 * the rows above in registers. A tile scans each of its rows within the
 * strip, publishes the row totals, and finds what lies to the left of each
 * row with a decoupled look-back along that row (one chain per image row,
 * one work-item per row walking it; with SAT_WINDOW the warp walks all its
 * rows together, sat_window_left). Two forms of one algorithm:
 *   SAT_LANES 32  a warp spans the strip (SAT_COLS columns per lane, rows
 *                 scanned with shuffles); the warps of a work-group take
 *                 consecutive row blocks and add up their column totals in
 *                 local memory;
 *   SAT_LANES 1   one work-item is the work-group and the strip: nothing to
 *                 share, hence no barrier inside the loop (PoCL miscompiles
 *                 some of those) and no local memory.
 * sat_rows and sat_columns are the taught form: every row scanned, then
 * every column, one work-item each. */
#ifndef CLPRIM_ASSEMBLED
#include "common/abi.h"
#include "sat_abi.h"
#include "common/elem.clh"
#include "common/simd.clh"
#include "sat_carry.clh"
#include "common/lookback.clh"
#endif

/* 1: a row waits for its left neighbour's prefix alone (the chained scan),
 * publishing no aggregate first; 0: decoupled look-back */
#ifndef SAT_CHAINED
#define SAT_CHAINED 0
#endif
/* tests only: strip 0 never publishes, so that every walk reaching it
 * takes the fallback there (which must stop the walk in its row) */
#ifndef SAT_TEST_SILENT
#define SAT_TEST_SILENT 0
#endif
#define SAT_GROUPS (WG_SIZE / SAT_LANES)
#define SAT_TH (SAT_GROUPS * SAT_ROWS)
#if SAT_LANES == 32 && !CLPRIM_SIMD_SHUFFLE
#error "clprim: SAT_LANES 32 needs the SIMD layer's shuffles"
#endif
#if SAT_LANES != 32 && (SAT_LANES != 1 || WG_SIZE != 1)
#error "clprim: SAT_LANES is 32 (with shuffles), or 1 with WG_SIZE 1"
#endif
#if SAT_ROWS > SAT_LANES && SAT_LANES > 1
#error "clprim: a tile's rows are walked back by one lane each (SAT_ROWS <= SAT_LANES)"
#endif
#define SAT_KERNEL kernel CLPRIM_KERNEL_ATTRS void

#if SAT_COLS > 1
#define SAT_INV CLPRIM_CAT(IN_T, SAT_COLS)
#define SAT_TV CLPRIM_CAT(T, SAT_COLS)
#endif

/* Columns x .. x + SAT_COLS - 1 of row y (the identity outside the image). */
inline void sat_load(global const IN_T *in, ulong in_off, ulong in_pitch, ulong width,
                     ulong height, ulong x, ulong y, uint vec, T *a)
{
    global const IN_T *p = in + in_off + y * in_pitch + x;
#if SAT_COLS > 1
    if (vec && y < height && x + SAT_COLS <= width) {
        const SAT_INV v = *(global const SAT_INV *)p;
        a[0] = clprim_in(v.s0, x);
        a[1] = clprim_in(v.s1, x + 1);
#if SAT_COLS == 4
        a[2] = clprim_in(v.s2, x + 2);
        a[3] = clprim_in(v.s3, x + 3);
#endif
        return;
    }
#endif
    for (uint c = 0; c < SAT_COLS; ++c)
        a[c] = y < height && x + c < width ? clprim_in(p[c], x + c) : IDENTITY;
}

/* The same columns of the table's row y (none outside the image). */
inline void sat_store(global T *out, ulong out_off, ulong out_pitch, ulong width, ulong height,
                      ulong x, ulong y, uint sflags, const T *a)
{
    if (y >= height)
        return;
    const ulong shift = (sflags & SAT_EXCLUSIVE) ? 1 : 0;
    global T *p = out + out_off + (y + shift) * out_pitch + x + shift;
#if SAT_COLS > 1
    if ((sflags & SAT_OUT_VEC) && x + SAT_COLS <= width) {
#if SAT_COLS == 4
        *(global SAT_TV *)p = (SAT_TV)(a[0], a[1], a[2], a[3]);
#else
        *(global SAT_TV *)p = (SAT_TV)(a[0], a[1]);
#endif
        return;
    }
#endif
    for (uint c = 0; c < SAT_COLS; ++c)
        if (x + c < width)
            p[c] = a[c];
}

#if CLPRIM_SINGLE_PASS
/* Row y of strip q has its total `total` (within the strip): publishes it
 * and returns what lies to its left (the identity in strip 0). */
inline T sat_row_left(clprim_tiles s, ulong y, ulong q, uint generation, T total,
                      LB_FALLBACK_PARAMS)
{
    const ulong t = sat_status_index(height, strips, y, q);
    if (q == 0) {
#if !SAT_TEST_SILENT /* (a preprocessor test: clang warns of && on a constant) */
        if (strips > 1) /* else there is no state at all */
            clprim_tile_publish(s, t, generation, TILE_PREFIX, total);
#endif
        return IDENTITY;
    }
    /* one chain per image row: each row's work-item walks its own */
    return clprim_tile_prefix(s, t, generation, total, IDENTITY,
                              TP_SERIAL | (SAT_CHAINED ? TP_DOMINO : 0u), LB_FALLBACK_ARGS);
}

#if SAT_WINDOW
#if 32 % SAT_ROWS
#error "clprim: SAT_WINDOW shares a warp's lanes evenly among its rows (SAT_ROWS divides 32)"
#endif
/* Lanes per row: lane i serves row i % SAT_ROWS of the block, reading the
 * part i / SAT_ROWS of each window (part 0 the nearest strips), SAT_WIN_DEPTH
 * strips deep: one load per depth, all in flight together. Shallow is
 * fastest (H100, int32 16384^2, 16 rows, ratio to copy, 2026-11-26): depth
 * 1 / 2 / 4 / 8 / 16 / 32 gave 0.805 / 0.738 / 0.630 / 0.573 / 0.496 /
 * 0.284; a round's loads cost more than the rounds a wider window saves. */
#define SAT_PARTS (32 / SAT_ROWS)
#ifndef SAT_WIN_DEPTH
#define SAT_WIN_DEPTH 1
#endif
#if SAT_WIN_DEPTH < 1 || SAT_WIN_DEPTH > 32
#error "clprim: SAT_WIN_DEPTH is 1..32 (a lane's states are bits of a word)"
#endif

/* The strips of this lane's part that count: from the first (bit 0) to
 * the nearest with its prefix (bit j of pre), else all of them. */
inline uint sat_window_needed(uint pre)
{
    return pre ? pre ^ (pre - 1u) : (2u << (SAT_WIN_DEPTH - 1)) - 1u;
}

/* This lane's part combined: its strips v[j] (j places left of the part's
 * first) from the nearest prefix on. *pending: one of them has published
 * nothing yet (bit j of pub clear). */
inline T sat_window_part(const T *v, uint pub, uint pre, uint *found, uint *pending)
{
    const uint need = sat_window_needed(pre);
    T acc = IDENTITY;
    for (uint j = 0; j < SAT_WIN_DEPTH; ++j)
        if (need >> j & 1u)
            acc = OP(v[j], acc);
    *found = pre != 0;
    *pending = (~pub & need) != 0;
    return acc;
}

/* The whole warp finds what lies left of each row of its block (rows ya ..,
 * lane k < SAT_ROWS for row ya + k, whose total within the strip it holds
 * in `total`): publishes the rows' aggregates, then reads the window of
 * strips left of q, every row and strip at once, polls again while a row
 * has an unpublished strip before its nearest prefix (the fallback after
 * LOOKBACK_SPINS rounds), and moves on a window for rows with no prefix in
 * it. Lane k gets row ya + k's left prefix. Every lane calls, ya < height.
 * At depth 1 (same machine and image): 16 rows x 4 columns 0.804-0.808
 * against the chained row's 0.600-0.604 (4096^2: 0.312-0.317 against
 * 0.227-0.229); 8 rows 0.714, 32 rows 0.519, 2 columns 0.677, 128
 * work-items 0.711. */
inline T sat_window_left(clprim_tiles s, ulong ya, ulong q, uint generation, T total,
                         LB_FALLBACK_PARAMS)
{
    const uint lane = get_local_id(0) & 31u;
    const uint k = lane % SAT_ROWS, part = lane / SAT_ROWS;
    const ulong rows = min((ulong)SAT_ROWS, height - ya);
    /* strip p's word for this lane's row */
    const ulong base = sat_status_index(height, strips, ya, 0) + k;
    const int owner = part == 0 && k < rows;
    if (q == 0) {
#if !SAT_TEST_SILENT /* (a preprocessor test: clang warns of && on a constant) */
        if (owner && strips > 1)
            clprim_tile_publish(s, base, generation, TILE_PREFIX, total);
#endif
        return IDENTITY;
    }
#if !SAT_CHAINED
    if (owner)
        clprim_tile_publish(s, base + q * rows, generation, TILE_AGGREGATE, total);
#endif
    T before = IDENTITY;
    uint done = k >= rows;
    for (long top = (long)q - 1 - (long)(part * SAT_WIN_DEPTH); clprim_ballot(!done);
         top -= SAT_PARTS * SAT_WIN_DEPTH) {
        T v[SAT_WIN_DEPTH];
        uint pub = 0, pre = 0;
        for (uint j = 0; j < SAT_WIN_DEPTH; ++j) {
            v[j] = IDENTITY;
            if (top - (long)j < 0) /* left of strip 0: nothing, settled */
                pub |= 1u << j, pre |= 1u << j;
        }
        uint found, pending, row_found = 0, row_pending = !done;
        T row;
        for (uint spin = 0;; ++spin) {
            const int last = spin + 1 >= LOOKBACK_SPINS;
            /* settled rows, and strips past a known prefix, are not read;
             * a poll after the first reads only the nearest strip missing
             * (at depth 16, polling all of them: 0.469 against 0.496; a
             * first read of strip q - 1 alone before the window: 0.456; at
             * depth 1, a 32 or 128 ns pause between polls: no change) */
            uint want = !done && row_pending ? ~pub & sat_window_needed(pre) : 0u;
            if (spin > 0)
                want &= 0u - want;
            for (uint j = 0; j < SAT_WIN_DEPTH; ++j)
                if (want >> j & 1u) {
                    const ulong t = base + (ulong)(top - (long)j) * rows;
                    uint st = clprim_tile_read(s, t, generation, &v[j]);
                    if (!st && last)
                        st = clprim_tile_fallback(s, t, generation, LB_FALLBACK_ARGS, &v[j]);
                    if (st)
                        pub |= 1u << j;
                    if (st == TILE_PREFIX)
                        pre |= 1u << j;
                }
            const T acc = sat_window_part(v, pub, pre, &found, &pending);
            /* the row's parts, nearest first, up to the first with a prefix */
            row = IDENTITY;
            row_found = row_pending = 0;
            for (uint h = 0; h < SAT_PARTS; ++h) {
                const uint from = k + h * SAT_ROWS;
                const T a = clprim_shfl_idx(acc, from);
                const uint f = clprim_ptx_shfl_idx(found | pending << 1, from);
                if (!row_found) {
                    row = OP(a, row);
                    row_pending |= f >> 1;
                    row_found = f & 1u;
                }
            }
            if (!clprim_ballot(!done && row_pending))
                break;
        }
        if (!done) {
            before = OP(row, before);
            done = row_found;
        }
    }
    if (owner)
        clprim_tile_publish(s, base + q * rows, generation, TILE_PREFIX, OP(before, total));
    return before;
}
#endif

SAT_KERNEL sat_single_pass(global const IN_T *in, ulong in_off, ulong in_pitch, global T *out,
                           ulong out_off, ulong out_pitch, ulong width, ulong height,
                           ulong strips, global uchar *state, uint generation, uint sflags)
{
    const clprim_tiles s = clprim_tiles_at(state, height * strips);
    const uint lid = get_local_id(0);
    const uint lane = lid % SAT_LANES, grp = lid / SAT_LANES;
    const uint vec = sflags & SAT_IN_VEC;
    local uint tickets[2];
    T carry[SAT_COLS]; /* column totals of the rows above this tile */
    T v[SAT_ROWS][SAT_COLS];
    T next[SAT_ROWS][SAT_COLS]; /* the next tile's, loaded while this one waits */

    clprim_tiles_take(s, sflags & SAT_ONE_STRIP, 0, strips, tickets);
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong q = tickets[0];
    const ulong x = q * SAT_TW + lane * SAT_COLS;
    for (uint c = 0; c < SAT_COLS; ++c)
        carry[c] = IDENTITY;
#if SAT_LANES > 1
    local T parts[2][SAT_GROUPS][SAT_TW]; /* two tiles' worth: one barrier per tile */
    uint gen = 0;
#endif

    for (uint k = 0; k < SAT_ROWS; ++k)
        sat_load(in, in_off, in_pitch, width, height, x, grp * SAT_ROWS + k, vec, next[k]);
    for (ulong y0 = 0; y0 < height; y0 += SAT_TH) {
        const ulong ya = y0 + grp * SAT_ROWS; /* this work-item's first row */
        for (uint k = 0; k < SAT_ROWS; ++k)
            for (uint c = 0; c < SAT_COLS; ++c)
                v[k][c] = next[k][c];
        /* past the last row the loads give the identity and are not used */
        for (uint k = 0; k < SAT_ROWS; ++k)
            sat_load(in, in_off, in_pitch, width, height, x, ya + SAT_TH + k, vec, next[k]);
        /* each row within the strip: inclusive, then the row's left prefix */
        for (uint k = 0; k < SAT_ROWS; ++k)
            for (uint c = 1; c < SAT_COLS; ++c)
                v[k][c] = OP(v[k][c - 1], v[k][c]);
#if SAT_LANES > 1
        T mine = IDENTITY; /* lane k: the total of row ya + k */
        for (uint k = 0; k < SAT_ROWS; ++k) {
            const T incl = clprim_warp_scan(v[k][SAT_COLS - 1], lane);
            T before = clprim_shfl_up(incl, 1);
            const T total = clprim_shfl_idx(incl, SAT_LANES - 1);
            if (lane == 0)
                before = IDENTITY;
            if (lane == k)
                mine = total;
            for (uint c = 0; c < SAT_COLS; ++c)
                v[k][c] = OP(before, v[k][c]);
        }
        T left = IDENTITY;
#if SAT_WINDOW
        if (ya < height) /* the same for the whole warp */
            left = sat_window_left(s, ya, q, generation, mine, LB_FALLBACK_ARGS);
#else
        if (lane < SAT_ROWS && ya + lane < height)
            left = sat_row_left(s, ya + lane, q, generation, mine, LB_FALLBACK_ARGS);
#endif
        for (uint k = 0; k < SAT_ROWS; ++k) {
            const T l = clprim_shfl_idx(left, k);
            for (uint c = 0; c < SAT_COLS; ++c)
                v[k][c] = OP(l, v[k][c]);
        }
#else
        for (uint k = 0; k < SAT_ROWS; ++k)
            if (ya + k < height) {
                const T l = sat_row_left(s, ya + k, q, generation, v[k][SAT_COLS - 1],
                                         LB_FALLBACK_ARGS);
                for (uint c = 0; c < SAT_COLS; ++c)
                    v[k][c] = OP(l, v[k][c]);
            }
#endif
        /* down the columns: this work-item's rows, the row blocks above it
         * in the tile, and the tiles above */
        for (uint k = 1; k < SAT_ROWS; ++k)
            for (uint c = 0; c < SAT_COLS; ++c)
                v[k][c] = OP(v[k - 1][c], v[k][c]);
        T above[SAT_COLS];
        for (uint c = 0; c < SAT_COLS; ++c)
            above[c] = carry[c];
#if SAT_LANES > 1
        for (uint c = 0; c < SAT_COLS; ++c)
            parts[gen][grp][lane * SAT_COLS + c] = v[SAT_ROWS - 1][c];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint g = 0; g < SAT_GROUPS; ++g)
            for (uint c = 0; c < SAT_COLS; ++c) {
                const T w = parts[gen][g][lane * SAT_COLS + c];
                if (g < grp)
                    above[c] = OP(above[c], w);
                carry[c] = OP(carry[c], w);
            }
        gen ^= 1u;
#else
        for (uint c = 0; c < SAT_COLS; ++c)
            carry[c] = OP(carry[c], v[SAT_ROWS - 1][c]);
#endif
        for (uint k = 0; k < SAT_ROWS; ++k) {
            for (uint c = 0; c < SAT_COLS; ++c)
                v[k][c] = OP(above[c], v[k][c]);
            sat_store(out, out_off, out_pitch, width, height, x, ya + k, sflags, v[k]);
        }
    }
    if (!(sflags & SAT_ONE_STRIP) && lid == 0)
        clprim_tiles_finish(s);
}
#endif /* CLPRIM_SINGLE_PASS */

/* The kernels below run with any work-group size (the host's plain_wg):
 * the serial single pass has work-groups of one work-item, which would make
 * their grids needlessly fine. */

/* The exclusive table's identity border: row 0 (width + 1 entries) and
 * column 0 of the rows below it, one work-item each. */
kernel void sat_border(global T *out, ulong out_off, ulong out_pitch, ulong width, ulong height)
{
    const ulong i = get_global_id(0);
    if (i <= width)
        out[out_off + i] = IDENTITY;
    else if (i <= width + height)
        out[out_off + (i - width) * out_pitch] = IDENTITY;
}

/* The taught form, first half: row y scanned by work-item y. */
kernel void sat_rows(global const IN_T *in, ulong in_off, ulong in_pitch, global T *out,
                    ulong out_off, ulong out_pitch, ulong width, ulong height, uint sflags)
{
    const ulong y = get_global_id(0);
    const ulong shift = (sflags & SAT_EXCLUSIVE) ? 1 : 0;
    if (y >= height)
        return;
    global const IN_T *src = in + in_off + y * in_pitch;
    global T *dst = out + out_off + (y + shift) * out_pitch + shift;
    T v = IDENTITY;
    for (ulong x = 0; x < width; ++x) {
        v = OP(v, clprim_in(src[x], x));
        dst[x] = v;
    }
}

/* ... second half: column x of the row-scanned table, by work-item x. */
kernel void sat_columns(global T *out, ulong out_off, ulong out_pitch, ulong width, ulong height,
                       uint sflags)
{
    const ulong x = get_global_id(0);
    const ulong shift = (sflags & SAT_EXCLUSIVE) ? 1 : 0;
    if (x >= width)
        return;
    global T *p = out + out_off + shift * out_pitch + shift + x;
    T v = IDENTITY;
    for (ulong y = 0; y < height; ++y, p += out_pitch) {
        v = OP(v, *p);
        *p = v;
    }
}

#if CLPRIM_T_BUILTIN
/* Box sums in the table's arithmetic, wrapping for integers (a box sum of a
 * wrapped table is still exact when it fits the type). */
#if T_SIZE == 4
#define SAT_UT uint
#else
#define SAT_UT ulong
#endif
#ifndef SAT_T_FLOAT
#define SAT_T_FLOAT 0 /* the host says when T is float or double */
#endif
inline T sat_box_sum(T a, T b, T c, T d)
{
#if SAT_T_FLOAT
    return d - b - c + a;
#else
    return (T)((SAT_UT)d - (SAT_UT)b - (SAT_UT)c + (SAT_UT)a);
#endif
}

/* SAT_BOX_X consecutive output pixels per work-item, each from the
 * exclusive table's four corners of its window [x1, x2) x [y1, y2) clamped
 * to the image. The grid is rows x ceil(width / (work-group size x
 * SAT_BOX_X)) work-groups (fewer than 2^32). */
kernel void box_filter(global const T *table, ulong table_off, ulong table_pitch,
                       global float *out, ulong out_off, ulong out_pitch, ulong width,
                       ulong height, ulong radius_x, ulong radius_y, uint sflags)
{
    const uint wg = get_local_size(0);
    const uint per_row = (uint)((width + (ulong)wg * SAT_BOX_X - 1) / ((ulong)wg * SAT_BOX_X));
    const uint g = get_group_id(0);
    const ulong y = g / per_row;
    const ulong xs = ((ulong)(g % per_row) * wg + get_local_id(0)) * SAT_BOX_X;
    if (y >= height)
        return;
    const ulong y1 = y > radius_y ? y - radius_y : 0;
    const ulong y2 = radius_y >= height - y ? height : y + radius_y + 1;
    global const T *top = table + table_off + y1 * table_pitch;
    global const T *bottom = table + table_off + y2 * table_pitch;
    global float *o = out + out_off + y * out_pitch;
    for (uint c = 0; c < SAT_BOX_X; ++c) {
        const ulong x = xs + c;
        if (x >= width)
            return;
        const ulong x1 = x > radius_x ? x - radius_x : 0;
        const ulong x2 = radius_x >= width - x ? width : x + radius_x + 1;
        const T sum = sat_box_sum(top[x1], top[x2], bottom[x1], bottom[x2]);
        float r;
        if (sflags & SAT_BOX_SUM)
            r = (float)sum;
#if T_SIZE == 8 && SAT_T_FLOAT
        else
            r = (float)(sum / (double)((x2 - x1) * (y2 - y1)));
#else
        else
            r = (float)sum / (float)((x2 - x1) * (y2 - y1));
#endif
        o[x] = r;
    }
}
#endif

/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/segment.cl, valid C and OpenCL C alike
 * (src/segment.c includes it; the build step puts it first). Macros only.
 *
 * Build defines:
 *   SEG_HEADS     where segments start (below)
 *   SEG_REDUCE    0: segmented scan (a value per element); 1: segmented
 *                 reduce (a value per segment, at the segment's rank)
 *   ITEMS         elements per work-item of a tile
 *   SEG_LOOP      1: seg_loop (a bounded grid looping over tiles; ITEMS at
 *                 most 32, whole 16-byte chunks) instead of seg_single_pass
 *   KEY_T, KEY_SIZE, KEY_BUILTIN   SEG_KEYS: the key type (built-in keys
 *                 compare with ==, the caller's bytewise)
 *   OFF_T, OFF_SIGNED              SEG_OFFSETS: the offsets' integer type
 *   LOOKBACK_SPINS
 *
 * Kernel arguments (cl_mem, 64-bit offsets and counts, 32-bit flags):
 *   seg_single_pass, seg_loop
 *                    in, in_off, out, out_off, n, segs, segs_off, m,
 *                    bounds, keys_out, keys_out_off, count, count_off,
 *                    state, generation, sflags
 *   seg_tile_bounds  segs, segs_off, m, n, tiles, bounds
 * segs is the flags, keys or offsets buffer, segs_off in its elements; m
 * the number of segments (offsets: m + 1 offsets); bounds (offsets only,
 * tiles + 1 cl_ulong) the first segment starting in each tile, written by
 * seg_tile_bounds. */
#ifndef CLPRIM_SEGMENT_ABI_H
#define CLPRIM_SEGMENT_ABI_H

/* SEG_HEADS */
#define SEG_FLAGS_U8 0
#define SEG_FLAGS_U32 1
#define SEG_KEYS 2
#define SEG_OFFSETS 3

/* sflags */
#define SEG_EXCLUSIVE 1u
#define SEG_ONE_TILE 2u
#define SEG_IN_PLACE 4u   /* out is in: the look-back's fallback may read output */
#define SEG_KEYS_OUT 8u   /* reduce by key: each segment's key to keys_out */
#define SEG_COUNT 16u     /* reduce: the number of segments to count[count_off] */
#define SEG_ALIGNED 32u   /* seg_loop: values, output and segments in whole 16-byte chunks */

/* Local memory of seg_single_pass in bytes for elements of elem bytes:
 * the tile and one head count per element (both padded by one slot in 32,
 * and one more count: the next tile's first), and the scratch of the
 * work-group scan of (value, count) pairs (at most one pair per work-item,
 * a pair at most elem + 8 rounded to 16). */
#define SEG_LOCAL_BYTES(wg, items, elem)                                          \
    (((wg) * (items) + (wg) * (items) / 32 + 2) * ((elem) + 4) +                  \
     (wg) * (((elem) + 8 + 15) / 16 * 16) + 64)

/* The same for seg_loop: the tile in 16-byte chunks, a byte of head bits
 * per chunk, a word per work-item and one more, and three work-group scans'
 * scratch (pairs, elements, uint2: at most 16 bytes each per SIMD group of
 * one work-item). */
#define SEG_LOOP_LOCAL_BYTES(wg, items, elem)                                     \
    ((wg) * (items) * (elem) + (wg) * (items) * (elem) / 16 + ((wg) + 1) * 4 +     \
     3 * (wg) * 16 + 64)

#endif /* CLPRIM_SEGMENT_ABI_H */

/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/sort.cl, valid C and OpenCL C alike
 * (src/sort.c includes it; the build step puts it first). Macros only.
 *
 * The element layer's T is the key as bits (uint or ulong, sum): keys are
 * sorted by their ordered form (sort_ordered in sort.cl: signed and float
 * keys flipped into unsigned order, descending inverted, NaNs last) and
 * written back as read.
 *
 * Build defines: VALUE_SIZE (bytes per value, 0: keys only), ITEMS (keys per
 * work-item of a tile), SORT_WIDE (1: positions and counts are 64-bit, for
 * n of 2^32 and more), SORT_MATCH (1: NVIDIA's match.any ranks a warp's
 * keys; 0: each tile is ranked by 1-bit splits in local memory),
 * SORT_SOURCES (1: tiles keep each key's source position, for values and
 * TILE_BITONIC's pairs; the splits always do), LOOKBACK_SPINS, SORT_POLL_NS
 * (NVIDIA: a pause between look-back polls), BITONIC_TILE.
 *
 * Kernel arguments (cl_mem, 64-bit offsets and counts, 32-bit the rest):
 *   sort_histogram   keys, keys_off, n, kmode, begin_bit, end_bit, hist
 *                    (adds each pass's digit counts to hist[pass * RADIX + d],
 *                    POS_T counters, zeroed by the host)
 *   sort_histogram_scan  hist, passes (one work-group per pass: the counts
 *                    become each digit's exclusive start)
 *   sort_onesweep    keys_in, kin_off, keys_out, kout_off, values_in,
 *                    vin_off, values_out, vout_off, n, kmode, shift, bits,
 *                    hist, hist_off (this pass's starts), state, generation
 *   sort_tile        keys_in, kin_off, keys_out, kout_off, values_in,
 *                    vin_off, values_out, vout_off, n, kmode, begin_bit,
 *                    end_bit (one work-group: n up to one tile, every pass)
 *   sort_split_flags keys, keys_off, n, kmode, bit, flags (n + 1 POS_T:
 *                    !bit, then 0)
 *   sort_split_scatter  keys_in, kin_off, keys_out, kout_off, values_in,
 *                    vin_off, values_out, vout_off, n, kmode, bit, flags
 *                    (scanned, exclusive), count, count_off, with_count
 *   sort_bitonic_tile  keys_in, kin_off, n, kmode, begin_bit, end_bit,
 *                    pairs (sorts each tile of (ordered key, index) pairs)
 *   sort_bitonic_merge pairs, n, span, stride (one global step of the
 *                    merges)
 *   sort_bitonic_local pairs, n, span, stride (the steps of stride below
 *                    one tile, in local memory)
 *   sort_bitonic_gather  keys_in, kin_off, keys_out, kout_off, values_in,
 *                    vin_off, values_out, vout_off, n, pairs
 *   sort_chunk_count keys, keys_off, n, kmode, shift, bits, counts,
 *                    counts_off (CHUNKED, one work-item per work-group:
 *                    chunk g of G's count of digit d to counts[d * G + g])
 *   sort_chunk_scatter  keys_in, kin_off, keys_out, kout_off, values_in,
 *                    vin_off, values_out, vout_off, n, kmode, shift, bits,
 *                    counts, counts_off (the same grid: each chunk's keys in
 *                    order to where its digits start)
 * and of cl/sort_segments.cl (the same defines; SORT_SOURCES 1):
 *   sort_segment_bounds  offsets, offsets_off, off64 (1: 64-bit offsets),
 *                    m, n, bounds (2 * (tiles + 1) ulong), tiles
 *   sort_segments    keys_in, kin_off, keys_out, kout_off, values_in,
 *                    vin_off, values_out, vout_off, n, kmode, begin_bit,
 *                    end_bit, offsets, offsets_off, off64, m, bounds,
 *                    temp_keys, tk_off, temp_values, tv_off, copy_first
 *                    (one work-group per tile of n) */
#ifndef CLPRIM_SORT_ABI_H
#define CLPRIM_SORT_ABI_H

#define SORT_RADIX_BITS 8
#define SORT_RADIX 256
/* 64-bit keys: eight 8-bit passes */
#define SORT_MAX_PASSES 8

/* kmode: the key's kind in the low bits, then the direction */
#define SORT_KIND_UNSIGNED 0u
#define SORT_KIND_SIGNED 1u
#define SORT_KIND_FLOAT 2u
#define SORT_DESCENDING 4u

/* tile positions travel as 16-bit indices */
#define SORT_MAX_TILE 65536

/* Local memory of sort_onesweep and sort_tile in bytes, for keys of
 * key_size bytes: the tile's keys and (with sources) their source
 * indices, per-warp digit counts (match ranking), per-digit counts, starts
 * and offsets, the scan scratch. */
#define SORT_LOCAL_BYTES(wg, items, key_size, match, sources)                     \
    ((wg) * (items) * ((key_size) + ((sources) ? 2 : 0)) +                        \
     ((match) ? (wg) / 32 * SORT_RADIX * 2 : 0) + SORT_RADIX * 16 + (wg) * 8 + 64)

/* Local memory of the bitonic kernels: a tile of (key, index) pairs of
 * pair_size bytes. */
#define SORT_BITONIC_LOCAL_BYTES(tile, pair_size) ((tile) * (pair_size) + 64)

#endif /* CLPRIM_SORT_ABI_H */

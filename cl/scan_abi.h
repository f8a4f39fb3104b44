/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/scan.cl, valid C and OpenCL C alike (src/scan.c
 * includes it; the build step puts it before scan.cl). Macros only.
 *
 * Kernel arguments (in this order):
 *   tile kernels   in, in_off, out, out_off, n, sums, sums_off, flags
 *   scan_reduce    in, in_off, n, sums, sums_off
 *   scan_add       out, out_off, n, sums, sums_off, tile, first
 *   single pass    in, in_off, out, out_off, n, state, generation, flags,
 *                  init, init_off
 * (cl_mem, then 64-bit offsets and counts, 32-bit flags and generation.)
 *
 * Elements per tile (one work-group's share): kogge_stone(_db) WG_SIZE;
 * brent_kung and blelloch 2 WG_SIZE; coarsened WG_SIZE * COARSE_ITEMS;
 * multilevel WG_SIZE * TILE_ITEMS; single pass WG_SIZE * SP_TILE_ITEMS,
 * SP_TILE_ITEMS a multiple of SCAN_CHUNK_ELEMENTS for built-in types. */
#ifndef CLPRIM_SCAN_ABI_H
#define CLPRIM_SCAN_ABI_H

/* flags */
#define SCAN_EXCLUSIVE 1u
#define SCAN_WRITE_SUMS 2u  /* write the tile total to sums[group] */
#define SCAN_READ_CARRY 4u  /* combine sums[group] (the tiles before) on the left */
#define SCAN_DOMINO 8u      /* single pass: wait for the predecessor's prefix only */
#define SCAN_ONE_TILE 16u   /* single pass: n fits one tile (no ticket, no status) */
#define SCAN_IN_PLACE 32u   /* single pass: out is in (the fallback may read output) */
#define SCAN_ALIGNED 64u    /* single pass: in and out 16-byte aligned (vector chunks) */
#define SCAN_INIT 128u      /* single pass: init[init_off] goes before in[0] */

/* the single pass moves built-in elements in 16-byte chunks */
#define SCAN_CHUNK_BYTES 16

/* Local memory of the program's hungriest kernel, in elements, for work-group
 * wg and the items per work-item of each tile (banks: padding every
 * `banks` elements). Covers scan.cl's declarations: padded tiles plus one
 * slot per work-item of totals; the single pass's tile, two scratch arrays,
 * the carry and tickets. */
#define SCAN_PADDED(n, banks) ((n) + (n) / (banks) + 1)
#define SCAN_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define SCAN_LOCAL_ELEMENTS(wg, coarse, tile, sp_tile, banks)                             \
    SCAN_MAX2(SCAN_MAX2(SCAN_PADDED(2 * (wg), banks), SCAN_PADDED((wg) * (coarse), banks) + (wg)), \
              SCAN_MAX2(SCAN_PADDED((wg) * (tile), banks) + (wg),                              \
                        SCAN_PADDED((wg) * (sp_tile), banks) + 2 * (wg) + 2))

#endif /* CLPRIM_SCAN_ABI_H */

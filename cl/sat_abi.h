/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/sat.cl (summed-area tables and box filters),
 * valid C and OpenCL C alike (src/sat.c includes it; the build step puts it
 * first). Macros only.
 *
 * Build defines: SAT_LANES (work-items across a strip: 32, one warp, where
 * the SIMD layer has shuffles; else 1, and then WG_SIZE is 1 too),
 * SAT_COLS (columns per work-item: 1, 2 or 4; 1 for a caller's type),
 * SAT_ROWS (rows per work-item of a tile), LOOKBACK_SPINS; with a pixel
 * type other than the table's, IN_T and the transform of the element layer
 * (clprim_in converts).
 *
 * Kernel arguments (cl_mem, 64-bit offsets, pitches and sizes in elements,
 * 32-bit generation and flags):
 *   sat_single_pass  in, in_off, in_pitch, out, out_off, out_pitch, width,
 *                    height, strips, state, generation, sflags
 *   sat_border       out, out_off, out_pitch, width, height
 *   sat_rows         in, in_off, in_pitch, out, out_off, out_pitch, width,
 *                    height, sflags
 *   sat_columns      out, out_off, out_pitch, width, height, sflags
 *   box_filter       table, table_off, table_pitch, out, out_off,
 *                    out_pitch, width, height, radius_x, radius_y, sflags */
#ifndef CLPRIM_SAT_ABI_H
#define CLPRIM_SAT_ABI_H

/* sflags */
#define SAT_EXCLUSIVE 1u /* the table starts one row and one column in */
#define SAT_IN_VEC 2u    /* every row of the input starts at a multiple of SAT_COLS */
#define SAT_OUT_VEC 4u   /* ... and of the table */
#define SAT_ONE_STRIP 8u /* one strip: no ticket, no look-back */
#define SAT_BOX_SUM 16u  /* box_filter: sums instead of means */

/* box_filter: output pixels per work-item */
#define SAT_BOX_X 4

/* A strip is SAT_TILE_W columns wide; a work-group steps down it a tile of
 * SAT_TILE_H rows at a time. */
#define SAT_TILE_W(lanes, cols) ((lanes) * (cols))
#define SAT_TILE_H(wg, lanes, rows) ((wg) / (lanes) * (rows))

/* Local memory of sat_single_pass: two generations of one column total per
 * warp and column, and the tickets. */
#define SAT_LOCAL_BYTES(wg, lanes, cols, elem) (2 * ((wg) / (lanes)) * (lanes) * (cols) * (elem) + 64)

#endif /* CLPRIM_SAT_ABI_H */

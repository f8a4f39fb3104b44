/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/portable.cl, the PORTABLE level (issue 33),
 * valid C and OpenCL C alike (src/reduce.c, src/scan.c and the host
 * reference tests/reference/repro_ref.c include it). Macros only.
 *
 * The association order every device shares: part of the contract, since
 * changing any of it changes the bits test_repro has stored. A tile is
 * PORTABLE_WG work-items x PORTABLE_CHUNK consecutive elements; work-item v
 * of tile g holds elements g * PORTABLE_TILE + v * PORTABLE_CHUNK + j, those
 * below n.
 *   reduce  work-item v folds its elements in order from the identity; the
 *           work-items' values fold with the pairwise tree (level d =
 *           1, 2, 4, ...: each value at a multiple of 2d with the one d
 *           after it); tile totals reduce the same way, level after level,
 *           until one is left.
 *   scan    tile totals as the reduce's first level; their exclusive scan
 *           (from the carry-in) by these same steps one level down; in the
 *           tile, work-item v scans its elements in order from the first
 *           (loc_j), the work-items' totals (loc of their last element, the
 *           identity for none) get a Kogge-Stone inclusive scan (step d:
 *           value v becomes value v - d op value v where v >= d), and
 *           prefix_v = carry op ks_{v-1} (the carry alone for v = 0; the
 *           carry is the identity without one); inclusive out = prefix_v op
 *           loc_j, exclusive out = prefix_v op loc_{j-1} (prefix_v for j =
 *           0).
 * The work-items of this order are virtual: programs of portable.cl run a
 * multiple of PORTABLE_WG work-items per work-group (the host's choice,
 * clprim__portable_wg in src/element.c), that many over PORTABLE_WG tiles at
 * once, each work-item doing one virtual work-item's steps, whatever the
 * device's SIMD width, with FP_CONTRACT off.
 *
 * Kernel arguments:
 *   reduce_portable  in, in_off, n, out, out_off: tile g's total to
 *                    out[out_off + g]
 *   scan_portable    in, in_off, out, out_off, n, carry, carry_off, flags:
 *                    tile g from carry[carry_off + g] (PORTABLE_CARRY)
 *   scan_portable_sp in, in_off, out, out_off, n, state, generation, flags,
 *                    init, init_off: the whole scan in one pass (portable_sp.cl),
 *                    from init[init_off] where flags has PORTABLE_CARRY
 * All over ceil(tiles / (work-group size / PORTABLE_WG)) work-groups.
 *
 * The single pass publishes, in the status array of cl/common/abi.h (one
 * value per slot, state TILE_AGGREGATE), every value of the order above
 * that a later tile needs, each at a slot of its own; for `tiles` tiles of
 * elements (tiles 1024 at most per level-1 tile, level-1 tiles 1024 at
 * most: n up to PORTABLE_SP_MAX_N):
 *   [g]                      A(g), tile g's total (the reduce's first level)
 *   PORTABLE_SP_S1(tiles)+c  the in-order fold from the first of A over
 *                            chunk c (16 tiles: the level-1 work-item's)
 *   PORTABLE_SP_R1(tiles)+c  the same chunk folded from the identity
 *   PORTABLE_SP_L2(tiles)+G  level-1 tile G's total (the reduce's second level)
 *   PORTABLE_SP_S2(tiles)+c  the in-order fold from the first of those
 *                            over chunk c (16 level-1 tiles) */
#ifndef CLPRIM_PORTABLE_ABI_H
#define CLPRIM_PORTABLE_ABI_H

#define PORTABLE_WG 64
#define PORTABLE_CHUNK 16
#define PORTABLE_TILE (PORTABLE_WG * PORTABLE_CHUNK)

#define PORTABLE_EXCLUSIVE 1u
#define PORTABLE_CARRY 2u /* carry[carry_off + g] stands before tile g */
#define PORTABLE_IN_PLACE 4u /* the single pass: out is in */

#define PORTABLE_SP_MAX_N (PORTABLE_TILE * PORTABLE_TILE * PORTABLE_TILE)
#define PORTABLE_CEIL(a, b) (((a) + (b) - 1) / (b))
#define PORTABLE_SP_S1(tiles) (tiles)
#define PORTABLE_SP_R1(tiles) ((tiles) + PORTABLE_CEIL(tiles, PORTABLE_CHUNK))
#define PORTABLE_SP_L2(tiles) ((tiles) + 2 * PORTABLE_CEIL(tiles, PORTABLE_CHUNK))
#define PORTABLE_SP_S2(tiles) (PORTABLE_SP_L2(tiles) + PORTABLE_CEIL(tiles, PORTABLE_TILE))
#define PORTABLE_SP_SLOTS(tiles)                                                                  \
    (PORTABLE_SP_S2(tiles) + PORTABLE_CEIL(tiles, PORTABLE_TILE * PORTABLE_CHUNK))

#endif /* CLPRIM_PORTABLE_ABI_H */

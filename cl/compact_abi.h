/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/compact.cl, valid C and OpenCL C alike
 * (src/compact.c includes it; the build step puts it first). Macros only.
 *
 * Build defines: MODE (below), PRED (clprim_predicate's number, or
 * COMPACT_PRED_HEADS for unique and run-length encoding), ITEMS (elements
 * per work-item of a single-pass tile), COMPACT_POSITIONS (1: the tile keeps
 * each kept element's position, for indices and run lengths),
 * COMPACT_LOOPED (1: compact_single_pass runs on a bounded grid of
 * work-groups that loop over tiles; the host sizes the grid accordingly).
 *
 * Kernel arguments (cl_mem, 64-bit offsets and counts, the constant `value`
 * as one T, 32-bit generation and flags):
 *   compact_single_pass  in, in_off, out, out_off, n, flags, flags_off,
 *                        value, indices, indices_off, lengths, lengths_off,
 *                        count, count_off, state, generation, kflags
 *   compact_count        in, in_off, n, flags, flags_off, value, count,
 *                        count_off (adds the kept count to count[count_off])
 *   compact_flags        in, in_off, n, flags, flags_off, value, positions
 *                        (n + 1 cl_ulong: the flags, then 0)
 *   compact_scatter      in, in_off, out, out_off, n, positions (scanned,
 *                        exclusive), indices, indices_off, lengths,
 *                        lengths_off, count, count_off, kflags */
#ifndef CLPRIM_COMPACT_ABI_H
#define CLPRIM_COMPACT_ABI_H

/* MODE */
#define COMPACT_SELECT 0
#define COMPACT_PARTITION 1          /* stable: rejected after the kept ones */
#define COMPACT_PARTITION_REVERSED 2 /* rejected from the end backwards */
#define COMPACT_UNIQUE 3
#define COMPACT_RLE 4

/* PRED for unique and run-length encoding: keep the first of each run */
#define COMPACT_PRED_HEADS 100

/* kflags */
#define COMPACT_WITH_INDICES 1u
#define COMPACT_ONE_TILE 2u
/* single-pass stable partition: count[count_off] already holds the number
 * kept (compact_count ran first) */
#define COMPACT_KNOWN_TOTAL 4u

/* bytes per flag of PRED 6 (uint8) and 7 (uint32) */
#define COMPACT_FLAG_BYTES(pred) ((pred) == 7 ? 4 : 1)

/* Local memory of compact_single_pass in bytes, for elements of elem bytes:
 * the tile and the kept positions when kept, both padded by one slot in 32
 * (banks), two scan scratch arrays, a bit per element (flags) and a few
 * words (the carried value). */
#define COMPACT_LOCAL_BYTES(wg, items, elem, positions)                          \
    (((wg) * (items) + (wg) * (items) / 32 + 1) * ((elem) + ((positions) ? 4 : 0)) + \
     8 * (wg) + (wg) * (items) / 8 + 64)

#endif /* CLPRIM_COMPACT_ABI_H */

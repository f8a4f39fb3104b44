/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/merge.cl, valid C and OpenCL C alike
 * (src/merge.c includes it; the build step puts it before merge.cl).
 * Macros only.
 *
 * The element layer's T is the key: for built-in keys its bits (uint or
 * ulong), compared in their ordered form (common/key_order.clh) with kmode
 * as cl/sort_abi.h encodes it, so that ranges sorted by clprim_sort merge
 * in the same order; for the caller's key type (clprim_element) the type
 * itself, compared by the caller's expression.
 *
 * Build defines: MERGE_ITEMS (TILED: outputs per work-item; a tile is
 * WG_SIZE x MERGE_ITEMS outputs), MERGE_CORANK_ITEMS (CORANK: outputs per
 * work-item), MERGE_VALUES (1: values move with their keys, as
 * MERGE_VALUE_WORDS words of type MERGE_VALUE_WORD), MERGE_USER_LESS (1:
 * the caller's clprim_user_less(a, b), defined by the host before the
 * kernels, orders the keys; kmode is then unused), MERGE_KMODE_IN and
 * MERGE_KMODE_VALUE (1: the key's kind and direction compiled in as that
 * value; the kmode argument is then unused).
 *
 * Kernel arguments (cl_mem, 64-bit offsets and counts, 32-bit the rest):
 *   merge_partition  keys_a, a_off, na, keys_b, b_off, nb, kmode, tile,
 *                    parts, count: parts[t] = the co-rank in range a of
 *                    output min(t * tile, na + nb), for t < count (ulong)
 *   merge_tiled      keys_a, a_off, na, keys_b, b_off, nb, values_a,
 *                    va_off, values_b, vb_off, keys_out, out_off,
 *                    values_out, vout_off, kmode, parts (one work-group per
 *                    tile of WG_SIZE x MERGE_ITEMS outputs)
 *   merge_corank     keys_a, a_off, na, keys_b, b_off, nb, values_a,
 *                    va_off, values_b, vb_off, keys_out, out_off,
 *                    values_out, vout_off, kmode (work-items loop over
 *                    shares of MERGE_CORANK_ITEMS outputs)
 * Value buffers are NULL without values. */
#ifndef CLPRIM_MERGE_ABI_H
#define CLPRIM_MERGE_ABI_H

/* local memory of merge_tiled in bytes: the tile's keys and one key past
 * them (read, never used, at the end of a range), and each output's source
 * position within the tile when values move */
#define MERGE_LOCAL_BYTES(wg, items, key_size, values)                                         \
    (((wg) * (items) + 1) * (key_size) + ((values) ? (wg) * (items) * 4 : 0) + 16)

/* a tile's positions are counted in 32 bits; a work-item's outputs in
 * registers */
#define MERGE_MAX_ITEMS 32
/* the caller's key types and values: bytes held per output in registers */
#define MERGE_MAX_KEY_SIZE 64
#define MERGE_MAX_VALUE_SIZE 64

#endif /* CLPRIM_MERGE_ABI_H */

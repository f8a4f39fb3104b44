/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/reduce.cl, valid C and OpenCL C alike
 * (src/reduce.c includes it; the build step puts it before reduce.cl).
 * Macros only.
 *
 * Kernel arguments: in, in_off, n, out, out_off, and for reduce_fast state
 * (NULL: each work-group writes its partial to out[out_off + group] for
 * another level). */
#ifndef CLPRIM_REDUCE_ABI_H
#define CLPRIM_REDUCE_ABI_H

/* reduce_fast's state: a counter of finished work-groups (left at 0 by
 * every use), then one partial per work-group from this offset (any T's
 * alignment) */
#define REDUCE_STATE_PARTIALS_OFFSET 128

/* loads in flight per work-item of reduce_fast */
#ifndef REDUCE_UNROLL
#define REDUCE_UNROLL 4
#endif
/* elements a work-item of reduce_fast loads per round: REDUCE_UNROLL times
 * 16 bytes of a built-in type, or one element of a caller's */
#define REDUCE_ITEMS_PER_ROUND(builtin, size) (REDUCE_UNROLL * ((builtin) ? 16 / (size) : 1))

#endif /* CLPRIM_REDUCE_ABI_H */

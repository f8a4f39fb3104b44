/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/search.cl, valid C and OpenCL C alike
 * (src/search.c includes it; the build step puts it before search.cl).
 * Macros only.
 *
 * The element layer's T is the key as bits (uint or ulong), compared in its
 * ordered form (common/key_order.clh), with kmode as cl/sort_abi.h encodes
 * it: the searches use clprim_sort's order, key for key.
 *
 * Build defines: SEARCH_SAMPLES (CACHED: key slots in local memory, at least
 * 2: up to SEARCH_SAMPLES - 1 samples, then the last key),
 * SEARCH_ITEMS (CACHED: queries per work-item, searched step by step
 * together), SEARCH_KMODE_IN and SEARCH_KMODE_VALUE (1: the key's kind and
 * direction compiled in as that value; the kmode argument is then unused).
 *
 * Kernel arguments, the same for both kernels (cl_mem, 64-bit offsets and
 * counts, 32-bit the rest):
 *   search_binary, search_cached: keys, keys_off, n, queries, queries_off,
 *   m, out, out_off, wide_out (1: positions as ulong, 0: as uint), kmode,
 *   upper (1: upper bound, 0: lower bound)
 * The cached kernel needs n >= 1 and a stride (below) of at most
 * SEARCH_MAX_STRIDE; the host runs the binary one otherwise. On NVIDIA the
 * host may bound search_cached's registers (tuning field max_regs). */
#ifndef CLPRIM_SEARCH_ABI_H
#define CLPRIM_SEARCH_ABI_H

/* CACHED: sample j is key (j + 1) * stride - 1, so that every interval
 * between two samples holds stride - 1 keys (fewer in the last one), and
 * SEARCH_SAMPLES intervals of stride positions cover positions 0 .. n - 1
 * (position n: the last key decides it) */
#define SEARCH_STRIDE(n, samples) ((n) / (samples) + ((n) % (samples) != 0))
/* positions within an interval are counted in 32 bits */
#define SEARCH_MAX_STRIDE 0x100000000ull

#endif /* CLPRIM_SEARCH_ABI_H */

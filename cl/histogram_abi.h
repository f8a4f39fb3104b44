/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/histogram.cl, valid C and OpenCL C alike
 * (src/histogram.c includes it; the build step puts it before
 * histogram.cl). Macros only.
 *
 * Build defines: HIST_S (the samples' OpenCL C type), HIST_SIZE (its
 * bytes), HIST_KIND (HIST_UNSIGNED, HIST_SIGNED or HIST_FLOAT),
 * HIST_ITEMS (loads per work-item before any sample is counted: 64-bit
 * samples, or 16-byte words of HIST_PACK_OF(HIST_SIZE) samples),
 * HIST_WIDE_ATOMICS (1: the device has cl_khr_int64_base_atomics, so
 * uint64 counts can be added to), HIST_FP64 (1: double samples).
 *
 * Kernel arguments, the same for both kernels (cl_mem, 64-bit offsets,
 * counts and bounds, 32-bit the rest, two local buffers):
 *   histogram_global, histogram_private: samples, samples_off, n, edges,
 *   edges_off, ledges (local: bins + 1 samples when cached, else one),
 *   lcounts (local: PRIVATE's counters of 4 bytes, one per bin of its
 *   slice, ceil(bins / slices); GLOBAL: one, unused), lo_bits, hi_bits (even bins: lower and upper as the sample
 *   type's bits, integers sign-extended to 64), range (integers: upper -
 *   lower), div (integers: range / bins where bins divides range, else 0),
 *   scale_bits (floats: bins / (upper - lower) in the sample type, as
 *   bits), bins, custom (1: edges, 0: even bins), cached (1: the edges are
 *   copied to ledges first), counts, counts_off, wide (1: counts are
 *   ulong, else uint), slices (PRIVATE: work-group g counts slice
 *   g % slices of the bins, over part g / slices of the samples, so the
 *   grid is a multiple of slices; GLOBAL: 1), copies_log2 (PRIVATE: each
 *   counter of the slice in 2^copies_log2 copies side by side, lcounts
 *   holding that many times ceil(bins / slices); GLOBAL: 0).
 * The counts are zeroed by the host when the call overwrites them. */
#ifndef CLPRIM_HISTOGRAM_ABI_H
#define CLPRIM_HISTOGRAM_ABI_H

#define HIST_UNSIGNED 0
#define HIST_SIGNED 1
#define HIST_FLOAT 2

/* samples per loaded word: samples up to 32 bits are read as whole 16-byte
 * words (a chunk of a work-item is items words) */
#define HIST_PACK_OF(size) ((size) < 8 ? 16 / (size) : 1)

/* PRIVATE: the bins of one slice (the counters of a work-group) */
#define HIST_SLICE_BINS(bins, slices) ((bins) / (slices) + ((bins) % (slices) != 0))

/* the most bins: a custom search counts bins + 1 edges in 32 bits */
#define HIST_MAX_BINS 0xfffffffeull

#endif /* CLPRIM_HISTOGRAM_ABI_H */

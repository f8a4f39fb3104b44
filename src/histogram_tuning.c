/* SPDX-License-Identifier: MIT */
/* The histograms' tuning rows: the work-group, the samples each work-item
 * loads before counting any, and the grids of both forms. Rows are data,
 * matched most specific first (tuning.c) by sample size; each says where
 * its numbers came from. histogram.c fits the counters (and custom edges)
 * to local memory. */
#include "internal.h"

struct clprim__histogram_row {
    clprim__row_match match;
    clprim__histogram_tuning t;
};

static const struct clprim__histogram_row rows[] = {
    /* NVIDIA, H100 (2026-11-26, bench/2026-11-26-h100/pairs-window/,
     * family/; 2^28 samples): uint8 in 256 bins 0.549 ms, 0.464 with the
     * division by a power of two as a shift; float in 1024 bins 0.374-0.403
     * ms; uint32 in 65,536 bins GLOBAL 3.86 ms, PRIVATE in 6 slices of the
     * bins 2.19 ms (so AUTO slices up to 8). Written before any run on a
     * GPU: 8 loads per work-item issued before any sample is counted
     * (32 uint8 samples, as 32-bit words), as the sort's histogram learnt
     * (one load in flight per work-item: 815 us for 1 GiB of keys; a
     * tile's loads first: 468 us). PRIVATE: 8
     * work-groups of 256 per SM (2048 work-items, an SM's most), each with
     * its own counters (256 bins: 1 KiB each; 65,536 bins would not fit);
     * GLOBAL: as many, its atomics in the L2. More bins than 48 KiB of
     * counters: up to 8 slices of the bins, each a work-group's, side by
     * side over the same samples (65,536 bins: 6), unmeasured.
     * With 16-byte loads (16 uint8, 4 float or uint32 samples each), 32-bit
     * bin steps and counters in copies (bench/2026-11-26-h100/hist, run1
     * and run2; CUB 13's HistogramEven 0.134 / 3.74 / 14.2 ms in the same
     * lease), 2^28 samples, loads per work-item 1 / 2 / 8: uint8 0.276 /
     * 0.294 / 1.51 ms (all in one bin: 0.270 / 0.287 / 1.51), float 0.377 /
     * 0.368 / 0.379, uint32 2.10 / 1.72 / 2.16 (one bin: 1.85 / 1.45 /
     * 2.00): 2 (the 8-load kernel is about 72,700 lines of SASS, unrolled:
     * likely instruction fetch; not profiled). Copies 1, 8, 16 or 32 (8
     * loads) and 6 or 7 groups per CU: within 4% of each other. */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 2,
           .groups_per_cu = 8,
           .global_groups_per_cu = 8,
           .private_bins = 0,
           .max_slices = 8,
           .copies = 16,
           .copy_counters = 4096,
           .source = "NVIDIA GPU (H100, 2026-11-26)"}},
    /* CPUs (PoCL): one work-group per core (local atomics are plain memory
     * there), small work-groups so that tests cross several work-groups
     * and chunks at small n, and 1000 counters a work-group, so that they
     * reach the slices, and two copies of each counter where they fit in
     * those (256 bins), so that tests reach both layouts. Unmeasured. */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .items = 4,
           .groups_per_cu = 1,
           .global_groups_per_cu = 2,
           .private_bins = 1000,
           .max_slices = 64,
           .copies = 2,
           .copy_counters = 1000,
           .source = "CPU (PoCL; unmeasured guess)"}},
    {.match = {0},
     .t = {.wg_size = 256,
           .items = 4,
           .groups_per_cu = 4,
           .global_groups_per_cu = 4,
           .private_bins = 0,
           .max_slices = 8,
           .copies = 1,
           .copy_counters = 4096,
           .source = "default (unmeasured guess)"}},
};

clprim__histogram_tuning clprim__histogram_tuning_for(const clprim_context *ctx,
                                                      size_t sample_size, size_t n)
{
    clprim__histogram_tuning t;
    CLPRIM__TUNING_FOR(ctx, "histogram", sample_size, n, rows, t);
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "histogram", &t);
    return t;
}

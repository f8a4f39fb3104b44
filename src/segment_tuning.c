/* SPDX-License-Identifier: MIT */
/* Segmented primitives' tuning rows: the single pass's work-group and tile.
 * Rows are data, matched most specific first (tuning.c); each says where
 * its numbers came from. segment.c clamps the tile to local memory. */
#include "internal.h"

struct clprim__segment_row {
    clprim__row_match match;
    clprim__segment_tuning t;
};

static const struct clprim__segment_row rows[] = {
    /* NVIDIA: 256 work-items, 16 elements each. H100, int32 sums at 2^28,
     * segments of 1000, ratio to copy (2026-11-23, one tile per
     * work-group, whole tiles loaded before they are stored), 4 / 8 / 16
     * elements per work-item: scan by flags 0.360 / 0.525 / 0.583, by keys
     * 0.444 / 0.627 / 0.704, by offsets 0.409 / 0.500 / 0.613; reduce by
     * keys 0.175 / 0.343 / 0.342, by offsets 0.098 / 0.232 / 0.234. 32
     * does not fit local memory (segment.c halves it back to 16). 8-byte
     * values: 8 (the same local memory), unmeasured. */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU, .elem_size = 4},
     .t = {.wg_size = 256,
           .items = 16,
           .reduce_items = 16,
           .lookback_spins = 4096,
           .source = "NVIDIA GPU, 4-byte values"}},
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 8,
           .reduce_items = 8,
           .lookback_spins = 4096,
           .source = "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64). Unmeasured. */
    {.match = {.vendor_id = 0x1002, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 8,
           .reduce_items = 8,
           .lookback_spins = 4096,
           .source = "AMD GPU (unmeasured guess)"}},
    /* CPUs (PoCL): small tiles keep the tile-edge tests small */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .items = 4,
           .reduce_items = 4,
           .lookback_spins = 4096,
           .source = "CPU (PoCL; unmeasured guess)"}},
    {.match = {0},
     .t = {.wg_size = 128,
           .items = 8,
           .reduce_items = 8,
           .lookback_spins = 4096,
           .source = "default (unmeasured guess)"}},
};

clprim__segment_tuning clprim__segment_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n,
                                                  int reduce)
{
    clprim__segment_tuning t;
    CLPRIM__TUNING_FOR(ctx, "segment", elem_size, n, rows, t);
    if (reduce)
        t.items = t.reduce_items;
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "segment", &t);
    return t;
}

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
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 4, 0}, {256, 16, 16, 4096, "NVIDIA GPU, 4-byte values"}},
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 0, 0}, {256, 8, 8, 4096, "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64). Unmeasured. */
    {{0x1002, NULL, CL_DEVICE_TYPE_GPU, 0, 0}, {256, 8, 8, 4096, "AMD GPU (unmeasured guess)"}},
    /* CPUs (PoCL): small tiles keep the tile-edge tests small */
    {{0, NULL, CL_DEVICE_TYPE_CPU, 0, 0}, {64, 4, 4, 4096, "CPU (PoCL; unmeasured guess)"}},
    {{0, NULL, 0, 0, 0}, {128, 8, 8, 4096, "default (unmeasured guess)"}},
};

clprim__segment_tuning clprim__segment_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n,
                                                  int reduce)
{
    const clprim_device_info *d = &ctx->info;
    clprim__segment_tuning t;
    CLPRIM__TUNING_FOR(ctx, "segment", elem_size, n, rows, t);
    if (reduce)
        t.items = t.reduce_items;
    /* development knobs for tuning runs and tests (a small spin bound makes
     * nearly every look-back take the fallback) */
    t.wg_size = clprim__clamp_wg(d, clprim__tuning_knob("CLPRIM_SEGMENT_WG_SIZE", t.wg_size));
    t.items = clprim__tuning_knob("CLPRIM_SEGMENT_ITEMS", t.items);
    if (t.items < 1)
        t.items = 1;
    if (t.items > 64)
        t.items = 64;
    t.lookback_spins = clprim__tuning_knob("CLPRIM_LOOKBACK_SPINS", t.lookback_spins);
    if (t.lookback_spins < 1)
        t.lookback_spins = 1;
    return t;
}

/* SPDX-License-Identifier: MIT */
/* Compaction's tuning rows: the single pass's work-group and tile, and the
 * count pass's grid. Rows are data, matched most specific first (tuning.c);
 * each says where its numbers came from. compact.c clamps the tile to local
 * memory. */
#include "internal.h"

struct clprim__compact_row {
    clprim__row_match match;
    clprim__compact_tuning t;
};

static const struct clprim__compact_row rows[] = {
    /* NVIDIA: 256 work-items and a bounded grid of work-groups looping over
     * tiles. H100, int32 select of 50% at 2^28, ratio to copy (2026-11-23):
     * 8 / 16 / 32 elements per work-item 0.514 / 0.621 / 0.691 with one tile
     * per work-group; looping, 16 / 32: 0.606 / 0.777, the same at 2, 4 and 8
     * work-groups per compute unit. 8-byte types: 16 (the same 32 KiB tile),
     * unmeasured. Kept positions (indices, run lengths) halve the tile to
     * fit local memory (compact.c). Unique and run-length encoding (each
     * element's predecessor read too): one tile of 16 per work-item per
     * work-group 0.639 / 0.386, looping with 32: 0.397 / 0.321. */
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 8, 0}, {256, 16, 4096, 4, 8, 8, 0, "NVIDIA GPU, 8-byte elements"}},
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 0, 0}, {256, 32, 4096, 4, 8, 16, 0, "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64). Unmeasured. */
    {{0x1002, NULL, CL_DEVICE_TYPE_GPU, 0, 0}, {256, 8, 4096, 0, 4, 8, 0, "AMD GPU (unmeasured guess)"}},
    /* CPUs (PoCL): small work-groups keep the tile-edge tests small; one
     * tile per work-group (PoCL miscompiles the looping kernel, compact.cl) */
    {{0, NULL, CL_DEVICE_TYPE_CPU, 0, 0}, {64, 8, 4096, 0, 4, 8, 0, "CPU (PoCL; unmeasured guess)"}},
    {{0, NULL, 0, 0, 0}, {128, 8, 4096, 0, 4, 8, 0, "default (unmeasured guess)"}},
};

clprim__compact_tuning clprim__compact_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n,
                                                  int heads)
{
    const clprim_device_info *d = &ctx->info;
    clprim__compact_tuning t;
    CLPRIM__TUNING_FOR(ctx, "compact", elem_size, n, rows, t);
    if (heads) { /* unique, run-length encoding: the row's values for them */
        t.items = t.heads_items;
        t.groups_per_cu = t.heads_groups_per_cu;
    }
    /* development knobs for tuning runs and tests (a small spin bound makes
     * nearly every look-back take the fallback) */
    t.wg_size = clprim__clamp_wg(d, clprim__tuning_knob("CLPRIM_COMPACT_WG_SIZE", t.wg_size));
    t.items = clprim__tuning_knob("CLPRIM_COMPACT_ITEMS", t.items);
    if (t.items < 1)
        t.items = 1;
    if (t.items > 32)
        t.items = 32;
    t.groups_per_cu = clprim__tuning_knob("CLPRIM_COMPACT_GROUPS_PER_CU", t.groups_per_cu);
    t.lookback_spins = clprim__tuning_knob("CLPRIM_LOOKBACK_SPINS", t.lookback_spins);
    if (t.lookback_spins < 1)
        t.lookback_spins = 1;
    return t;
}

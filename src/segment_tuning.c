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
    /* NVIDIA: 256 work-items, 16 elements each for 4-byte values (the tile
     * and its head counts, 33 KiB of local memory), 8 for wider ones.
     * Measured: docs/performance.md (segmented scans). */
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 4}, {256, 16, 4096, "NVIDIA GPU, 4-byte values"}},
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 0}, {256, 8, 4096, "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64). Unmeasured. */
    {{0x1002, NULL, CL_DEVICE_TYPE_GPU, 0}, {256, 8, 4096, "AMD GPU (unmeasured guess)"}},
    /* CPUs (PoCL): small tiles keep the tile-edge tests small */
    {{0, NULL, CL_DEVICE_TYPE_CPU, 0}, {64, 4, 4096, "CPU (PoCL; unmeasured guess)"}},
    {{0, NULL, 0, 0}, {128, 8, 4096, "default (unmeasured guess)"}},
};

clprim__segment_tuning clprim__segment_tuning_for(const clprim_device_info *d, size_t elem_size)
{
    clprim__segment_tuning t =
        ((const struct clprim__segment_row *)CLPRIM__TUNING_ROW(d, elem_size, rows))->t;
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

/* SPDX-License-Identifier: MIT */
/* Radix sort's tuning rows: the tile of the one-sweep passes, the
 * histogram's grid, the bitonic tile, and how a tile is ranked. Rows are
 * data, matched most specific first (tuning.c) by key size; each says where
 * its numbers came from. sort.c clamps the tile to local memory. */
#include "internal.h"

struct clprim__sort_row {
    clprim__row_match match;
    clprim__sort_tuning t;
};

static const struct clprim__sort_row rows[] = {
    /* NVIDIA: 256 work-items, warps ranked by votes (match.any before; sm_70 and later;
     * sort.c asks the device). H100, uint32 keys at 2^28, ms per sort
     * (2026-11-24, bench/2026-11-24-h100/sort/): 8 / 12 / 16 / 24 / 32 keys
     * per work-item 17.0 / 13.7 / 13.0 / 12.1 / 12.1; the histogram's grid
     * at 1 / 4 / 8 / 16 work-groups per compute unit (one pass): 6.7 / 4.0
     * / 3.6 / 3.6; a register bound of 64 to 128 changed nothing; a pause
     * of 20 to 500 ns between look-back polls 13.0 -> 12.5-12.6; reading 2,
     * 4, 8 or 16 predecessors per round of the walk: slower (15.4, 16.7,
     * 19.4, 24.6). Nsight Compute (tools/nv_ptx_harness.cu, one pass):
     * the local-memory pipe 80% busy, 3 work-groups per SM (79 registers,
     * 36 KiB); per-warp counts as ushort with the digit starts folded in,
     * 11.65 -> 11.55; then a bound of 64 registers (4 work-groups per SM)
     * 10.9 (72: 11.7; pairs and 64-bit keys: no change, so none there).
     * With values (uint32 pairs), where local memory clamped 24 to 21:
     * 16.96 ms; 16 per work-item: 15.3 (15.1 without the register bound).
     * 64-bit keys: 12 / 16 / 20 per work-item 27.4 / 24.8 / 28.1, with the
     * 64-register bound 8 / 16 / 20: 33.0 / 25.4 / 24.2 (local memory
     * clamps 20 to 18); 64-bit pairs at 12: 43.1 ms (43.2 without the
     * bound), the rest unmeasured.
     * 2026-11-25, ranking by one vote per digit bit (match 2) instead of
     * match.any, onesweep, H100 (bench/2026-11-25-h100/sort-ballot/):
     * uint32 keys at 2^28 24.62 -> 26.10 Gkeys/s, uint32 pairs at 2^26
     * 17.06 -> 19.20 G/s, uint64 keys at 2^28 11.14 -> 13.95 Gkeys/s;
     * test_sort passes with it on the H100. */
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 8, 0}, {256, 20, 12, 8, 1024, 4096, 2, 64, 50, "NVIDIA GPU, 64-bit keys"}},
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 0, 0}, {256, 24, 16, 8, 1024, 4096, 2, 64, 50, "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64): 1-bit splits in local memory. Unmeasured. */
    {{0x1002, NULL, CL_DEVICE_TYPE_GPU, 0, 0}, {256, 8, 8, 4, 1024, 4096, 0, 0, 0, "AMD GPU (unmeasured guess)"}},
    /* CPUs (PoCL): small tiles keep the tile-edge tests small */
    {{0, NULL, CL_DEVICE_TYPE_CPU, 0, 0}, {64, 4, 4, 2, 256, 4096, 0, 0, 0, "CPU (PoCL; unmeasured guess)"}},
    {{0, NULL, 0, 0, 0}, {128, 8, 8, 4, 1024, 4096, 0, 0, 0, "default (unmeasured guess)"}},
};

clprim__sort_tuning clprim__sort_tuning_for(const clprim_context *ctx, size_t key_size, size_t n,
                                            int pairs)
{
    const clprim_device_info *d = &ctx->info;
    clprim__sort_tuning t;
    CLPRIM__TUNING_FOR(ctx, "sort", key_size, n, rows, t);
    if (pairs)
        t.items = t.pairs_items;
    /* development knobs for tuning runs and tests (a small spin bound makes
     * nearly every look-back take the fallback) */
    t.wg_size = clprim__clamp_wg(d, clprim__tuning_knob("CLPRIM_SORT_WG_SIZE", t.wg_size));
    t.items = clprim__tuning_knob("CLPRIM_SORT_ITEMS", t.items);
    if (t.items < 1)
        t.items = 1;
    if (t.items > 32)
        t.items = 32;
    t.hist_groups_per_cu = clprim__tuning_knob("CLPRIM_SORT_HIST_GROUPS_PER_CU",
                                               t.hist_groups_per_cu);
    if (t.hist_groups_per_cu < 1)
        t.hist_groups_per_cu = 1;
    t.bitonic_tile = clprim__tuning_knob("CLPRIM_SORT_BITONIC_TILE", t.bitonic_tile);
    t.match = clprim__tuning_knob("CLPRIM_SORT_MATCH", t.match);
    t.max_regs = clprim__tuning_knob("CLPRIM_SORT_MAX_REGS", t.max_regs);
    t.poll_ns = clprim__tuning_knob("CLPRIM_SORT_POLL_NS", t.poll_ns);
    t.lookback_spins = clprim__tuning_knob("CLPRIM_LOOKBACK_SPINS", t.lookback_spins);
    if (t.lookback_spins < 1)
        t.lookback_spins = 1;
    return t;
}

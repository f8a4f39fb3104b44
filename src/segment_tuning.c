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
    /* The looping single pass (seg_loop) on the H100 (2026-11-26, int32 sums
     * at 2^28, segments of 1000, ratio to copy; bench/2026-11-26-h100/
     * segloop/): one tile per work-group -> looping, 32 elements per
     * work-item, the compiler's registers (112-128: 2 work-groups per SM)
     * -> bounded to 64 / 80 / 96:
     *   scan by uint8 flags 0.653 -> 0.940 -> 0.999 / 0.932 / 0.780
     *   scan by keys        0.734 -> 0.940 -> 0.882 / 1.023 / 0.941
     *   scan by offsets     0.621 -> 0.848 -> 0.918 / 0.849 / 0.669
     *   reduce by flags     0.473 -> 0.381 -> 0.521 / 0.493 / 0.380
     *   reduce by keys      0.632 -> 0.538 -> 0.624 / 0.646 / 0.528
     * (offsets' reduce writes empty segments: one tile per work-group).
     * Then a reduce's run visits only its segment ends and the next tile's
     * value is folded by whole chunks: reduce by flags 0.610 (64), by keys
     * 0.737 at 80 (0.682 at 64, 0.616 at 96). Reduces with 16 / 24 / 32
     * elements per work-item at their bounds (reduce_items.sh): by flags
     * 0.615 / 0.731 / 0.610 at 64, by keys 0.741 / 0.540 / 0.742 at 80; so
     * 24 for the reduce by flags alone.
     * 16 elements per work-item, or 4 work-groups per compute unit instead
     * of 6, gave the same figures unbounded. 8-byte values: 16 per work-item
     * (the same 16-byte chunks) and the same bounds, unmeasured.
     * One tile per work-group (seg_single_pass: the caller's types and
     * operators, offsets' reduce): 256 work-items, 16 elements each. H100,
     * int32 sums at 2^28,
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
           .loop_items = 32,
           .loop_groups_per_cu = 6,
           .loop_reduce = 1,
           .loop_flags_reduce_items = 24,
           .loop_max_regs = 64,
           .loop_keys_max_regs = 80,
           .source = "NVIDIA GPU, 4-byte values"}},
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 8,
           .reduce_items = 8,
           .lookback_spins = 4096,
           .loop_items = 16,
           .loop_groups_per_cu = 6,
           .loop_reduce = 1,
           .loop_flags_reduce_items = 0,
           .loop_max_regs = 64,
           .loop_keys_max_regs = 80,
           .source = "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64). Unmeasured. */
    {.match = {.vendor_id = 0x1002, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 8,
           .reduce_items = 8,
           .lookback_spins = 4096,
           .loop_items = 0,
           .loop_groups_per_cu = 1,
           .loop_reduce = 0,
           .loop_flags_reduce_items = 0,
           .loop_max_regs = 0,
           .loop_keys_max_regs = 0,
           .source = "AMD GPU (unmeasured guess)"}},
    /* CPUs (PoCL): small tiles keep the tile-edge tests small */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .items = 4,
           .reduce_items = 4,
           .lookback_spins = 4096,
           .loop_items = 8,
           .loop_groups_per_cu = 2,
           .loop_reduce = 1,
           .loop_flags_reduce_items = 0,
           .loop_max_regs = 0,
           .loop_keys_max_regs = 0,
           .source = "CPU (PoCL; unmeasured guess)"}},
    {.match = {0},
     .t = {.wg_size = 128,
           .items = 8,
           .reduce_items = 8,
           .lookback_spins = 4096,
           .loop_items = 0,
           .loop_groups_per_cu = 1,
           .loop_reduce = 0,
           .loop_flags_reduce_items = 0,
           .loop_max_regs = 0,
           .loop_keys_max_regs = 0,
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

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
     * work-group 0.639 / 0.386, looping with 32: 0.397 / 0.321.
     * Registers bounded (2026-11-26, bench/2026-11-26-h100/segloop/
     * compact_regs.sh; the compiler's 116-128 / 64 / 80 / 96): select 0.772
     * / 0.703 / 0.860 / 0.743; but by uint8 flags 0.729 / 0.372 / 0.580 /
     * 0.627, partition reversed 0.729 / 0.509 / 0.664 / 0.705, unique 0.681
     * / 0.604 / 0.604 / 0.604, run-length 0.451 / 0.420 / 0.414 / 0.416
     * (looping: at most 0.418 / 0.413). So only a select by a comparison or
     * an expression is bounded, to 80, in the row below (4-byte elements
     * measured; the caller's types, which it matches too, not). Unique and
     * run-length encoding with 8 / 16 / 32 elements per work-item, one tile
     * per work-group (the same run): 0.457 / 0.682 / 0.731-0.735 and 0.272 /
     * 0.450 / 0.448-0.450; 32 taken (CUB's unique 0.734 in that lease). */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU, .elem_size = 8},
     .t = {.wg_size = 256,
           .items = 16,
           .lookback_spins = 4096,
           .groups_per_cu = 4,
           .count_groups_per_cu = 8,
           .heads_items = 8,
           .heads_groups_per_cu = 0,
           .select_max_regs = 0,
           .source = "NVIDIA GPU, 8-byte elements"}},
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 32,
           .lookback_spins = 4096,
           .groups_per_cu = 4,
           .count_groups_per_cu = 8,
           .heads_items = 32,
           .heads_groups_per_cu = 0,
           .select_max_regs = 80,
           .source = "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64). Unmeasured. */
    {.match = {.vendor_id = 0x1002, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 8,
           .lookback_spins = 4096,
           .groups_per_cu = 0,
           .count_groups_per_cu = 4,
           .heads_items = 8,
           .heads_groups_per_cu = 0,
           .select_max_regs = 0,
           .source = "AMD GPU (from documented attributes: wavefronts of 64 on GCN / CDNA, 32 on RDNA, 64 KiB of LDS; unmeasured)"}},
    /* Intel GPUs (Xe; Intel's oneAPI GPU optimization guide): EUs run
     * sub-groups of 8, 16 or 32, work-groups of up to 512 (1024 on Xe-HPC)
     * share 64 KiB of local memory (SLM; 128 KiB on Xe-HPC), and compute
     * units are EUs, many of them; no forward-progress guarantee between
     * work-groups is documented, so AUTO's scan and compaction stay
     * multi-pass (the single passes would lean on their no-hang fallback).
     * Unmeasured. */
    {.match = {.vendor_id = 0x8086, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 8,
           .lookback_spins = 4096,
           .groups_per_cu = 0,
           .count_groups_per_cu = 2,
           .heads_items = 8,
           .heads_groups_per_cu = 0,
           .select_max_regs = 0,
           .compact_auto = CLPRIM_COMPACT_THREE_PASS,
           .source = "Intel GPU (from documented attributes: sub-groups of 8 to 32, work-groups up to 512, 64 KiB of SLM; unmeasured)"}},
    /* CPUs (PoCL): small work-groups keep the tile-edge tests small; one
     * tile per work-group (PoCL miscompiles the looping kernel, compact.cl) */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .items = 8,
           .lookback_spins = 4096,
           .groups_per_cu = 0,
           .count_groups_per_cu = 4,
           .heads_items = 8,
           .heads_groups_per_cu = 0,
           .select_max_regs = 0,
           .compact_auto = CLPRIM_COMPACT_CHUNKED,
           .chunks_per_cu = 4,
           .source = "CPU (2 cores, 2026-11-26: AUTO chunked)"}},
    {.match = {0},
     .t = {.wg_size = 128,
           .items = 8,
           .lookback_spins = 4096,
           .groups_per_cu = 0,
           .count_groups_per_cu = 4,
           .heads_items = 8,
           .heads_groups_per_cu = 0,
           .select_max_regs = 0,
           .source = "default (unmeasured guess)"}},
};

clprim__compact_tuning clprim__compact_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n,
                                                  int heads)
{
    clprim__compact_tuning t;
    CLPRIM__TUNING_FOR(ctx, "compact", elem_size, n, rows, t);
    if (heads) { /* unique, run-length encoding: the row's values for them */
        t.items = t.heads_items;
        t.groups_per_cu = t.heads_groups_per_cu;
    }
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "compact", &t);
    return t;
}

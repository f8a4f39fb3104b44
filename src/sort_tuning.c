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
     * test_sort passes with it on the H100.
     * 2026-11-26, the segmented sort (clprim_segmented_sort; uint32 keys,
     * 2^28 in 10^5 / 10^7 equal segments, bench/2026-11-26-h100/segsort/):
     * 8 / 12 / 15 (24 clamped by local memory) keys per work-item 14.0 /
     * 7.1 / 9.1 ms and 10.7 / 10.9 / 12.2 ms (the latter before the
     * per-work-item sort of short segments); without the 64-register bound
     * 10.9 and 14.1 ms, with 96 11.6 and 14.9. 64-bit keys: unmeasured.
     * 2026-11-26, the ranking rebuilt (bench/2026-11-26-h100/sortprof/,
     * docs/performance.md "The ranking rebuilt"): uint32 keys at 2^28 with
     * the key kind compiled in 6.90 ms, without 7.73; 24 / 26 / 28 / 30 /
     * 32 per work-item one pass 1521 / 1542 / 1460 / 1459 / 1547 us (28
     * and 32 at 72 registers 1522 / 1453): 28 taken, 6.63-6.67 ms. uint32
     * pairs with values staged in local memory 11.91 ms at 17 per
     * work-item (the most local memory allows), 12.21 at 16, gathered
     * 14.04. uint64 keys with the kind compiled in 22.0 ms, without 24.1;
     * 12 / 16 / 20 per work-item 21.1 / 20.5 / 22.0 ms in one lease (16
     * taken; 96 registers: slower); 64-bit pairs staged: unmeasured, so
     * not staged. */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU, .elem_size = 8},
     .t = {.wg_size = 256,
           .items = 16,
           .pairs_items = 12,
           .segment_items = 0,
           .hist_groups_per_cu = 8,
           .bitonic_tile = 1024,
           .lookback_spins = 4096,
           .match = 2,
           .max_regs = 64,
           .poll_ns = 50,
           .kind_in_program = 1,
           .stage_values = 0,
           .source = "NVIDIA GPU, 64-bit keys"}},
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 28,
           .pairs_items = 17,
           .segment_items = 12,
           .hist_groups_per_cu = 8,
           .bitonic_tile = 1024,
           .lookback_spins = 4096,
           .match = 2,
           .max_regs = 64,
           .poll_ns = 50,
           .kind_in_program = 1,
           .stage_values = 1,
           .source = "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64): 1-bit splits in local memory. Unmeasured. */
    {.match = {.vendor_id = 0x1002, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 8,
           .pairs_items = 8,
           .hist_groups_per_cu = 4,
           .bitonic_tile = 1024,
           .lookback_spins = 4096,
           .match = 0,
           .max_regs = 0,
           .poll_ns = 0,
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
           .pairs_items = 8,
           .hist_groups_per_cu = 2,
           .bitonic_tile = 1024,
           .lookback_spins = 4096,
           .match = 0,
           .max_regs = 0,
           .poll_ns = 0,
           .source = "Intel GPU (from documented attributes: sub-groups of 8 to 32, work-groups up to 512, 64 KiB of SLM; unmeasured)"}},
    /* CPUs: AUTO sorts in chunks, one work-item each (2^24 uint32 keys on 2
     * cores, 2026-11-26: 278 ms on Intel's runtime and 314 ms on PoCL,
     * against 2.0 / 2.9 s for SPLIT_LSB, 15 s for ONESWEEP and 0.37-0.40 s
     * for a single-threaded LSB radix sort in C on the host); small tiles
     * keep the tile-edge tests small */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .items = 4,
           .pairs_items = 4,
           .hist_groups_per_cu = 2,
           .bitonic_tile = 256,
           .lookback_spins = 4096,
           .match = 0,
           .max_regs = 0,
           .poll_ns = 0,
           .sort_auto = CLPRIM_SORT_CHUNKED,
           .chunks_per_cu = 4,
           .source = "CPU (2 cores, 2026-11-26: AUTO chunked)"}},
    {.match = {0},
     .t = {.wg_size = 128,
           .items = 8,
           .pairs_items = 8,
           .hist_groups_per_cu = 4,
           .bitonic_tile = 1024,
           .lookback_spins = 4096,
           .match = 0,
           .max_regs = 0,
           .poll_ns = 0,
           .source = "default (unmeasured guess)"}},
};

clprim__sort_tuning clprim__sort_tuning_for(const clprim_context *ctx, size_t key_size, size_t n,
                                            int pairs)
{
    clprim__sort_tuning t;
    CLPRIM__TUNING_FOR(ctx, "sort", key_size, n, rows, t);
    if (pairs)
        t.items = t.pairs_items;
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "sort", &t);
    return t;
}

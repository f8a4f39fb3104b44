/* SPDX-License-Identifier: MIT */
/* Scan's tuning rows: work-group sizes, items per work-item, the single
 * pass's grid and register bound, and what AUTO runs. Rows are data, matched
 * most specific first (tuning.c); each says where its numbers came from.
 * The values are clamped later to what the device and scan's kernels allow
 * (scan.c).
 *
 * Look-back spins: 4096 polls of a predecessor's status (about a millisecond
 * on a GPU, far longer than a running tile needs) before a tile computes the
 * predecessor's total itself; only devices that stall a running work-group
 * ever reach it. AUTO runs a single-pass scan only where it was measured
 * correct and fastest (README's performance table). */
#include "internal.h"

/* Up to where AUTO takes the single pass on NVIDIA (above: MULTILEVEL). Since
 * the single pass keeps its tile in local memory and skips the release fence
 * when not in place, it measured faster than MULTILEVEL at every size on the
 * H100 (clprim-bench --preset full, NVIDIA OpenCL 580.159, 2026-11-22; README),
 * so there is no crossover left: the bound is kept as data for devices where
 * one is measured. */
#define NVIDIA_4_MAX_N ((size_t)-1)
#define NVIDIA_8_MAX_N ((size_t)-1)

/* The NVIDIA shapes: 4-byte and 8-byte elements (the measurements below). */
#define NVIDIA_4(why)                                                                       \
    {.wg_size = 256, .coarse_items = 8, .tile_items = 16, .sp_tile_items = 32,                 \
     .lookback_spins = 4096, .sp_groups_per_cu = 6, .sp_wg_size = 256, .sp_max_regs = 80,      \
     .scan_auto = CLPRIM_SCAN_DECOUPLED_LOOKBACK, .single_pass_max_n = NVIDIA_4_MAX_N,          \
     .source = why}
#define NVIDIA_8(why)                                                                       \
    {.wg_size = 256, .coarse_items = 8, .tile_items = 8, .sp_tile_items = 16,                  \
     .lookback_spins = 4096, .sp_groups_per_cu = 12, .sp_wg_size = 128, .sp_max_regs = 0,      \
     .scan_auto = CLPRIM_SCAN_DECOUPLED_LOOKBACK, .single_pass_max_n = NVIDIA_8_MAX_N,          \
     .repro_wg_size = 256, .repro_max_regs = 96, .source = why}

/* GPUs known only from their documentation (AMD, Intel): 256 work-items
 * (whole wavefronts and sub-groups of every width they document), tiles of
 * 8, multi-pass AUTO. */
#define GPU_DOCUMENTED(why)                                                                   \
    {.wg_size = 256, .coarse_items = 8, .tile_items = 8, .sp_tile_items = 8,                  \
     .lookback_spins = 4096, .sp_groups_per_cu = 0, .sp_wg_size = 256, .sp_max_regs = 0,       \
     .scan_auto = CLPRIM_SCAN_MULTILEVEL, .single_pass_max_n = 0, .source = why}

struct clprim__scan_row {
    clprim__row_match match;
    clprim__scan_tuning t;
};

static const struct clprim__scan_row rows[] = {
    /* NVIDIA GPUs (warp 32): 256 work-items = 8 warps; multilevel: 16 items
     * per work-item for 4-byte elements, 8 for 8-byte ones (the tile stays at
     * 16-32 KiB of local memory). Multilevel tile shapes checked with CLPRIM_WG_SIZE /
     * CLPRIM_TILE_ITEMS sweeps on the H100 (README): 256x16 and 512x16 best
     * among 64..512 x 8..32. Single pass (CLPRIM_SP_TILE_ITEMS sweeps, H100,
     * 2^28, ratio to copy, before the prefetching loop): int32 24/32/40 per
     * work-item 0.603/0.689/0.690, 128x64 0.687, 512x16 0.651; int64
     * 12/16/20: 0.585/0.660/0.671. With the prefetching loop (2026-11-22):
     * work-groups per compute unit 0 (one per tile) / 4 / 6 / 8: int32
     * 0.851/0.899/0.907/0.909; int32 24/32/40 per work-item 0.888/0.907/0.838,
     * 128x32 0.897, 512x16 0.742; int64 12/16/20: 0.643/0.740/0.747, 512x8
     * 0.516, 8 groups per CU 0.739. With 16-byte chunks and 8-byte status
     * words (2026-11-22, work-group x items x groups per CU; the single
     * pass's own work-group size): int32 256x32x6 0.910, 256x32x4 0.912,
     * 256x16x8 0.884, 128x32x8 0.918, 128x32x12 0.912, 128x16x16 0.876,
     * 512x16x4 0.888; int64 256x16x6 0.931, 256x16x8 0.931, 128x16x12
     * 0.955, 256x8x8 0.919, 128x8x16 0.914. Repeated: int32 128x32x8
     * 0.918-0.928 but float 0.877-0.885 there, against 0.910-0.912 and
     * 0.910-0.916 at 256x32x6 (rows match sizes, not types: 256x32x6 is the
     * better pair, and one program serves every scan); int64 128x16x10 /
     * 12 / 14 0.945 / 0.955-0.959 / 0.954. Cache hints on the 16-byte loads
     * (ld.global.nc, L2::256B prefetch, L1::no_allocate) changed nothing
     * beyond run-to-run spread, for the scan and for reduce; nor did
     * folding the prefetched tile's aggregate as a tree (float 0.895-0.911).
     * More 4-byte shapes (int32 / float): 64x32x16 0.894 / 0.884, 64x32x24
     * 0.897 / 0.880, 128x32x10 0.926 / 0.890, 128x24x10 0.908 / 0.911,
     * 256x32x5 0.908 / 0.910, 256x32x7 0.898 / 0.907, against 256x32x6
     * 0.914 / 0.914 in the same run (more than 32 items would not fit the
     * prefetch's 128 bytes of registers per work-item).
     * Registers (2026-11-22; Nsight Compute on the driver's PTX, launched
     * through the CUDA driver API): the compiler gives the 4-byte single
     * pass 122-127 registers, so only 2 work-groups of 256 fit an SM
     * whatever sp_groups_per_cu asks (the sweeps above moved nothing but
     * the grid), and -cl-nv-maxrregcount changes nothing (40, 48, 56, 64:
     * 0.901-0.919 per call, as without). Bounded in the PTX instead (sp_max_regs, build.c), same
     * launch, ratio to copy of the kernel alone: none 0.935-0.941, 80
     * (3 per SM, 20 bytes spilled) 0.961-0.966, 64 (4 per SM) 0.915-0.928,
     * 48 0.75-0.81, 40 0.51-0.67; through OpenCL, per call / batched, with
     * 80: int32 0.932-0.939 / 0.959-0.960, float 0.937-0.945 / 0.961-0.962
     * at 3, 4 or 6 groups per CU. The 8-byte pass needs 80 unbounded (6 of
     * 128 per SM); bounding it to 72 or 64 measured slower (0.937, 0.93).
     * clprim-tune (2026-11-24, driver 580.159.04; bench/2026-11-24-h100/tune,
     * bench/2026-11-24-h200/tune) searched work-group, items, groups per CU and
     * register bound again at 2^24 and 2^28 on the H100 and at 2^24, 2^26 and
     * 2^28 on the H200: these shapes came out best on both, within 1%; its
     * one size class (the H200's int32 at 2^24 with 4 groups per CU, 0.755
     * against 0.738 in its own run) measured no gain in clprim-bench
     * (0.731 / 0.735) and is not kept.
     * RUN_TO_RUN (the ordered look-back, 2026-11-26, bench/2026-11-26-h100/
     * repro2): double at 2^28 with 128 x 16 took 2.0x NONE's time at any
     * number of groups per CU (2 to 12), with 256 x 16 1.06x (1.556 ms
     * against 1.468), 2^24 1.11x: the 8-byte row's repro_wg_size. Float
     * keeps its shape (1.002x at 2^28). With the two-level chain
     * (bench/2026-11-26-h100/late/run2.sh, NONE 101.9 / 1467.3 us at 2^24 /
     * 2^28): 256 x 16 113.0 / 1538.3 us, bounded to 96 registers 111.4 /
     * 1515.1 (1.09x / 1.03x: repro_max_regs), 128 x 16 114.6 / 1499.9, 512
     * or 8 to 24 per work-item 1.15x-1.39x, 4 to 8 groups per CU within 1%. */
    {.match =
         {.vendor_id = 0x10DE, .device_match = "H100", .type = CL_DEVICE_TYPE_GPU, .elem_size = 8},
     .t = NVIDIA_8("NVIDIA H100, 8-byte elements (clprim-tune 2026-11-24, driver 580.159.04: "
                   "int64 sum 0.968 of copy at 2^28, 0.919 at 2^24)")},
    {.match = {.vendor_id = 0x10DE, .device_match = "H100", .type = CL_DEVICE_TYPE_GPU},
     .t = NVIDIA_4("NVIDIA H100 (clprim-tune 2026-11-24, driver 580.159.04: int32 sum 0.962 of "
                   "copy at 2^28, 0.849 at 2^24)")},
    {.match =
         {.vendor_id = 0x10DE, .device_match = "H200", .type = CL_DEVICE_TYPE_GPU, .elem_size = 8},
     .t = NVIDIA_8("NVIDIA H200, 8-byte elements (clprim-tune 2026-11-24, driver 580.159.04: "
                   "int64 sum 0.889 of copy at 2^28, 0.885 at 2^26, 0.831 at 2^24)")},
    {.match = {.vendor_id = 0x10DE, .device_match = "H200", .type = CL_DEVICE_TYPE_GPU},
     .t = NVIDIA_4("NVIDIA H200 (clprim-tune 2026-11-24, driver 580.159.04: int32 sum 0.876 of "
                   "copy at 2^28, 0.837 at 2^26, 0.74-0.76 at 2^24)")},
    /* other NVIDIA GPUs: the H100's shapes */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU, .elem_size = 8},
     .t = NVIDIA_8("NVIDIA GPU, 8-byte elements (the H100's row; unmeasured on this GPU)")},
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = NVIDIA_4("NVIDIA GPU (the H100's row; unmeasured on this GPU)")},
    /* AMD GPUs (wavefront 64): 256 work-items = 4 wavefronts. Unmeasured. */
    {.match = {.vendor_id = 0x1002, .type = CL_DEVICE_TYPE_GPU},
     .t = GPU_DOCUMENTED("AMD GPU (from documented attributes: wavefronts of 64 on GCN / CDNA, 32 "
                         "on RDNA, 64 KiB of LDS; unmeasured)")},
    /* Intel GPUs (Xe; Intel's oneAPI GPU optimization guide): EUs run
     * sub-groups of 8, 16 or 32, work-groups of up to 512 (1024 on Xe-HPC)
     * share 64 KiB of local memory (SLM; 128 KiB on Xe-HPC), and compute
     * units are EUs, many of them; no forward-progress guarantee between
     * work-groups is documented, so AUTO's scan and compaction stay
     * multi-pass (the single passes would lean on their no-hang fallback).
     * Unmeasured. */
    {.match = {.vendor_id = 0x8086, .type = CL_DEVICE_TYPE_GPU},
     .t = GPU_DOCUMENTED("Intel GPU (from documented attributes: sub-groups of 8 to 32, "
                         "work-groups up to 512, 64 KiB of SLM; unmeasured)")},
    /* CPUs: a work-group is a loop on one core, where the tile algorithms'
     * barriers and local copies are the cost, so AUTO scans chunks, one
     * work-item each (2^24 int32 on 2 cores, 2026-11-26: 6 ms on PoCL and
     * Intel's runtime, against 60-120 ms for the tile algorithms and 31 ms
     * for a sequential loop; docs/performance.md); 64 work-items keep the
     * taught algorithms' tiles (64 or 128 elements) small enough for the
     * edge-size tests. */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .coarse_items = 8,
           .tile_items = 16,
           .sp_tile_items = 16,
           .lookback_spins = 4096,
           .sp_groups_per_cu = 0,
           .sp_wg_size = 64,
           .sp_max_regs = 0,
           .scan_auto = CLPRIM_SCAN_CHUNKED,
           .single_pass_max_n = 0,
           .chunks_per_cu = 4,
           .source = "CPU (PoCL and Intel's runtime, 2 cores, 2026-11-26: AUTO chunked)"}},
    /* anything else */
    {.match = {0},
     .t = {.wg_size = 128,
           .coarse_items = 8,
           .tile_items = 8,
           .sp_tile_items = 8,
           .lookback_spins = 4096,
           .sp_groups_per_cu = 0,
           .sp_wg_size = 128,
           .sp_max_regs = 0,
           .scan_auto = CLPRIM_SCAN_MULTILEVEL,
           .single_pass_max_n = 0,
           .source = "default (unmeasured guess)"}},
};

clprim__scan_tuning clprim__scan_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n)
{
    clprim__scan_tuning t;
    CLPRIM__TUNING_FOR(ctx, "scan", elem_size, n, rows, t);
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "scan", &t);
    return t;
}

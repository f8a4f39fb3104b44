/* SPDX-License-Identifier: MIT */
/* Reduce's tuning rows: the work-group size and reduce_fast's grid. Rows are
 * data, matched most specific first (tuning.c); each says where its numbers
 * came from. The trees' work-group is clamped to local memory in reduce.c. */
#include "internal.h"

struct clprim__reduce_row {
    clprim__row_match match;
    clprim__reduce_tuning t;
};

static const struct clprim__reduce_row rows[] = {
    /* NVIDIA (warp 32): reduce_fast uses 32 registers, so 8 work-groups of
     * 256 fill an SM (2048 threads). 6-128 work-groups per compute unit
     * measured within run-to-run spread (H100, 2^28, 2026-11-22; README).
     * clprim-tune (2026-11-24, driver 580.159.04) over work-groups of 64-1024
     * and 1-32 groups per CU: within 1% of this row on both GPUs (H100 int32
     * 0.986 of read at 2^28 with 4 per CU, this row 0.980; H200 this row). */
    {.match = {.vendor_id = 0x10DE, .device_match = "H100", .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .groups_per_cu = 8,
           .source = "NVIDIA H100 (clprim-tune 2026-11-24: int32 sum 0.98 of read at 2^28)"}},
    {.match = {.vendor_id = 0x10DE, .device_match = "H200", .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .groups_per_cu = 8,
           .source = "NVIDIA H200 (clprim-tune 2026-11-24: int32 sum 1.005 of read at 2^28, "
                     "int64 0.989)"}},
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .groups_per_cu = 8,
           .source = "NVIDIA GPU (the H100's row; unmeasured on this GPU)"}},
    /* AMD GPUs (wavefront 64): 256 work-items = 4 wavefronts. Unmeasured. */
    {.match = {.vendor_id = 0x1002, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256, .groups_per_cu = 4, .source = "AMD GPU (from documented attributes: wavefronts of 64 on GCN / CDNA, 32 on RDNA, 64 KiB of LDS; unmeasured)"}},
    /* Intel GPUs (Xe; Intel's oneAPI GPU optimization guide): EUs run
     * sub-groups of 8, 16 or 32, work-groups of up to 512 (1024 on Xe-HPC)
     * share 64 KiB of local memory (SLM; 128 KiB on Xe-HPC), and compute
     * units are EUs, many of them; no forward-progress guarantee between
     * work-groups is documented, so AUTO's scan and compaction stay
     * multi-pass (the single passes would lean on their no-hang fallback).
     * Unmeasured. */
    {.match = {.vendor_id = 0x8086, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256, .groups_per_cu = 2, .source = "Intel GPU (from documented attributes: sub-groups of 8 to 32, work-groups up to 512, 64 KiB of SLM; unmeasured)"}},
    /* CPUs: a work-group is a loop on one core, so AUTO folds chunks, one
     * work-item each (2^24 int32 on 2 cores, 2026-11-26: see
     * docs/performance.md); 64 work-items keep the trees' tiles small
     * enough for the edge-size tests. */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .groups_per_cu = 4,
           .reduce_auto = CLPRIM_REDUCE_CHUNKED,
           .chunks_per_cu = 4,
           .source = "CPU (PoCL and Intel's runtime, 2 cores, 2026-11-26: AUTO chunked)"}},
    /* anything else */
    {.match = {0},
     .t = {.wg_size = 128, .groups_per_cu = 4, .source = "default (unmeasured guess)"}},
};

clprim__reduce_tuning clprim__reduce_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n)
{
    clprim__reduce_tuning t;
    CLPRIM__TUNING_FOR(ctx, "reduce", elem_size, n, rows, t);
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "reduce", &t);
    return t;
}

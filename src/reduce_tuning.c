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
    {{0x10DE, "H100", CL_DEVICE_TYPE_GPU, 0, 0},
     {256, 8, "NVIDIA H100 (clprim-tune 2026-11-24: int32 sum 0.98 of read at 2^28)"}},
    {{0x10DE, "H200", CL_DEVICE_TYPE_GPU, 0, 0},
     {256, 8, "NVIDIA H200 (clprim-tune 2026-11-24: int32 sum 1.005 of read at 2^28, "
               "int64 0.989)"}},
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 0, 0},
     {256, 8, "NVIDIA GPU (the H100's row; unmeasured on this GPU)"}},
    /* AMD GPUs (wavefront 64): 256 work-items = 4 wavefronts. Unmeasured. */
    {{0x1002, NULL, CL_DEVICE_TYPE_GPU, 0, 0}, {256, 4, "AMD GPU (unmeasured guess)"}},
    /* CPUs (PoCL): a work-group is a loop on one core; 64 work-items keep the
     * trees' tiles small enough for the edge-size tests. */
    {{0, NULL, CL_DEVICE_TYPE_CPU, 0, 0}, {64, 4, "CPU (PoCL; unmeasured guess)"}},
    /* anything else */
    {{0, NULL, 0, 0, 0}, {128, 4, "default (unmeasured guess)"}},
};

clprim__reduce_tuning clprim__reduce_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n)
{
    const clprim_device_info *d = &ctx->info;
    clprim__reduce_tuning t;
    CLPRIM__TUNING_FOR(ctx, "reduce", elem_size, n, rows, t);
    /* development knobs for tuning runs */
    t.wg_size = clprim__clamp_wg(d, clprim__tuning_knob("CLPRIM_WG_SIZE", t.wg_size));
    t.groups_per_cu = clprim__tuning_knob("CLPRIM_REDUCE_GROUPS_PER_CU", t.groups_per_cu);
    return t;
}

/* SPDX-License-Identifier: MIT */
/* Summed-area tables' tuning rows: the single pass's strip and tile, and
 * what AUTO runs. Rows are data, matched most specific first (tuning.c);
 * each says where its numbers came from. sat.c falls back to the serial
 * form where a warp's shuffles are missing. */
#include "internal.h"

struct clprim__sat_row {
    clprim__row_match match;
    clprim__sat_tuning t;
};

static const struct clprim__sat_row rows[] = {
    /* NVIDIA: a warp across a strip of 128 (4-byte) or 64 (8-byte)
     * columns, eight warps per tile. 4-byte: decoupled, each warp looking
     * back for its 16 rows at once over status words grouped by row block
     * (window). H100, int32 16384 x 16384 (4096 x 4096), ratio to copy,
     * 2026-11-26 (bench/2026-11-26-h100/sat/): window, 16 rows 0.804-0.808
     * (0.312-0.317), 8 rows 0.714, 32 rows 0.519, 2 columns per lane 0.677,
     * 128 work-items 0.711; float 0.804. Before it (2026-11-23), each row's
     * lane walking alone: decoupled with 8 / 16 / 32 rows 0.473 / 0.523 /
     * 0.401 (0.187 / 0.224 / 0.243); chained (each row waiting for its left
     * neighbour's prefix) with 4 / 8 / 16 / 32 rows 0.395 / 0.521 / 0.600 /
     * 0.507 (0.133 / 0.189 / 0.227 / 0.267). 8-byte elements: half the rows
     * for the same registers, chained, unmeasured. */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU, .elem_size = 4},
     .t = {.wg_size = 256,
           .lanes = 32,
           .cols = 4,
           .rows = 16,
           .plain_wg = 256,
           .lookback_spins = 4096,
           .chained = 0,
           .window = 1,
           .sat_auto = CLPRIM_SAT_DECOUPLED_LOOKBACK,
           .source = "NVIDIA GPU, 4-byte elements"}},
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU, .elem_size = 8},
     .t = {.wg_size = 256,
           .lanes = 32,
           .cols = 2,
           .rows = 8,
           .plain_wg = 256,
           .lookback_spins = 4096,
           .chained = 1,
           .sat_auto = CLPRIM_SAT_DECOUPLED_LOOKBACK,
           .source = "NVIDIA GPU, 8-byte elements"}},
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .lanes = 32,
           .cols = 1,
           .rows = 8,
           .plain_wg = 256,
           .lookback_spins = 4096,
           .chained = 1,
           .sat_auto = CLPRIM_SAT_DECOUPLED_LOOKBACK,
           .source = "NVIDIA GPU"}},
    /* CPUs (PoCL): the serial form, a work-item per strip of 4 columns,
     * small enough that the tests cross many strips. AUTO takes the
     * taught form: on this project's 2-core CI machine (PoCL 3.1, int32
     * 257 x 257, 2026-11-23) it ran at 0.226 of the copy against 0.029 for
     * the single pass, whose work-groups of one work-item cost PoCL more
     * than the strip's work. */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 1,
           .lanes = 1,
           .cols = 4,
           .rows = 4,
           .plain_wg = 64,
           .lookback_spins = 64,
           .chained = 0,
           .sat_auto = CLPRIM_SAT_ROWS_THEN_COLUMNS,
           .source = "CPU (PoCL)"}},
    /* Other GPUs: the single pass would run serially; the taught form is
     * AUTO's choice there until someone measures one. */
    {.match = {0},
     .t = {.wg_size = 1,
           .lanes = 1,
           .cols = 4,
           .rows = 4,
           .plain_wg = 256,
           .lookback_spins = 4096,
           .chained = 0,
           .sat_auto = CLPRIM_SAT_ROWS_THEN_COLUMNS,
           .source = "default (unmeasured guess)"}},
};

clprim__sat_tuning clprim__sat_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n)
{
    clprim__sat_tuning t;
    unsigned row_wg;
    CLPRIM__TUNING_FOR(ctx, "sat", elem_size, n, rows, t);
    row_wg = t.wg_size;
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "sat", &t);
    /* beyond bounds: the kernels take 1, 2 or 4 columns, and the serial form
     * (one lane) is a work-group of one whatever the knob says */
    if (t.cols != 1 && t.cols != 2)
        t.cols = 4;
    t.wg_size = t.lanes == 32 ? clprim__clamp_wg(&ctx->info, t.wg_size) : row_wg;
    /* the window shares a warp's lanes evenly among its rows */
    if (t.lanes != 32 || 32 % t.rows)
        t.window = 0;
    t.test_silent = clprim__switch(&ctx->knobs, CLPRIM__SWITCH_SAT_TEST_SILENT, 0) != 0;
    return t;
}

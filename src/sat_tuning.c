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
     * columns, eight warps per tile, each row waiting for its left
     * neighbour's prefix (chained). H100, int32 16384 x 16384 (4096 x
     * 4096), ratio to copy, 2026-11-23: decoupled with 8 rows per warp
     * 0.473 (0.187), 16 rows 0.523 (0.224), 32 rows 0.401 (0.243);
     * chained with 4 / 8 / 16 / 32 rows 0.395 / 0.521 / 0.600 / 0.507
     * (0.133 / 0.189 / 0.227 / 0.267); 2 columns per lane 0.495, 128
     * work-items 0.456. 8-byte elements: half the rows for the same
     * registers, unmeasured. */
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 4, 0},
     {256, 32, 4, 16, 256, 4096, 1, 0, CLPRIM_SAT_DECOUPLED_LOOKBACK, "NVIDIA GPU, 4-byte elements"}},
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 8, 0},
     {256, 32, 2, 8, 256, 4096, 1, 0, CLPRIM_SAT_DECOUPLED_LOOKBACK, "NVIDIA GPU, 8-byte elements"}},
    {{0x10DE, NULL, CL_DEVICE_TYPE_GPU, 0, 0},
     {256, 32, 1, 8, 256, 4096, 1, 0, CLPRIM_SAT_DECOUPLED_LOOKBACK, "NVIDIA GPU"}},
    /* CPUs (PoCL): the serial form, a work-item per strip of 4 columns,
     * small enough that the tests cross many strips. AUTO takes the
     * taught form: on this project's 2-core CI machine (PoCL 3.1, int32
     * 257 x 257, 2026-11-23) it ran at 0.226 of the copy against 0.029 for
     * the single pass, whose work-groups of one work-item cost PoCL more
     * than the strip's work. */
    {{0, NULL, CL_DEVICE_TYPE_CPU, 0, 0},
     {1, 1, 4, 4, 64, 64, 0, 0, CLPRIM_SAT_ROWS_THEN_COLUMNS, "CPU (PoCL)"}},
    /* Other GPUs: the single pass would run serially; the taught form is
     * AUTO's choice there until someone measures one. */
    {{0, NULL, 0, 0, 0},
     {1, 1, 4, 4, 256, 4096, 0, 0, CLPRIM_SAT_ROWS_THEN_COLUMNS, "default (unmeasured guess)"}},
};

clprim__sat_tuning clprim__sat_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n)
{
    const clprim_device_info *d = &ctx->info;
    clprim__sat_tuning t;
    CLPRIM__TUNING_FOR(ctx, "sat", elem_size, n, rows, t);
    /* development knobs for tuning runs and tests (a small spin bound makes
     * nearly every look-back take the fallback) */
    t.cols = clprim__tuning_knob("CLPRIM_SAT_COLS", t.cols);
    if (t.cols != 1 && t.cols != 2)
        t.cols = 4;
    t.rows = clprim__tuning_knob("CLPRIM_SAT_ROWS", t.rows);
    if (t.rows < 1)
        t.rows = 1;
    if (t.rows > 32)
        t.rows = 32;
    if (t.lanes == 32)
        t.wg_size = clprim__clamp_wg(d, clprim__tuning_knob("CLPRIM_SAT_WG_SIZE", t.wg_size));
    t.plain_wg = clprim__clamp_wg(d, t.plain_wg);
    t.chained = clprim__tuning_knob("CLPRIM_SAT_CHAINED", t.chained) != 0;
    t.test_silent = clprim__tuning_knob("CLPRIM_SAT_TEST_SILENT", 0) != 0;
    t.lookback_spins = clprim__tuning_knob("CLPRIM_LOOKBACK_SPINS", t.lookback_spins);
    if (t.lookback_spins < 1)
        t.lookback_spins = 1;
    return t;
}

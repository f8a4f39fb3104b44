/* SPDX-License-Identifier: MIT */
/* The searches' tuning rows: the work-group, the cached search's samples in
 * local memory, its queries per work-item, grid and register bound, the
 * binary search's grid, the window's keys, and whether the key kind is
 * compiled in. Rows are data, matched most specific first (tuning.c) by
 * key size; each says where its numbers came from. search.c fits the
 * samples and the window to local memory. */
#include "internal.h"

struct clprim__search_row {
    clprim__row_match match;
    clprim__search_tuning t;
};

static const struct clprim__search_row rows[] = {
    /* NVIDIA, H100 (2026-11-26, bench/2026-11-26-h100/sortline/ run4,
     * pairs-window/, family/ run3-4; int32, n = m = 2^28, lower bound):
     * sorted queries CACHED 6.26 ms, BINARY 10.98, WINDOW 1.97-2.07;
     * random queries CACHED 85.8 ms, BINARY 93.5, SORT_QUERIES 33.3 (2^26:
     * WINDOW 13.3, CACHED 13.9, SORT_QUERIES 8.06). The numbers below were
     * written before any run on a GPU: 8192 4-byte samples are 32 KiB of local memory (13 of the 28
     * steps of a 2^28-key search; 8-byte keys are halved to 4096 to fit
     * the 48 KiB a work-group may hold). The grid must be resident at once
     * (its work-groups share the queries equally, so one that waits for a
     * slot doubles the time of its share): 4 per SM, bounded to 64
     * registers so that 4 x 256 work-items fit the register file, and 4 x
     * 32 KiB local memory. 4 queries per work-item (clang's PTX for this
     * kernel through ptxas -arch=sm_90: 48 registers; 8 queries 78, which
     * would leave room for 3 work-groups) keep 4096 loads per SM in
     * flight. The kind compiled in, as for the sort: the key order's masks
     * fold away from every step. WINDOW: 4096 keys (16 KiB of 4-byte
     * keys) for chunks of 1024 queries, room for four keys per query. */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 4,
           .samples = 8192,
           .groups_per_cu = 4,
           .binary_groups_per_cu = 8,
           .window = 4096,
           .max_regs = 64,
           .kind_in_program = 1,
           .source = "NVIDIA GPU (H100, 2026-11-26)"}},
    /* CPUs (PoCL): few samples, so that tests reach several per interval
     * at small n, and a window of two keys per query of a chunk (256), so
     * that tests reach both of its paths; the kind an argument, so that one program per key size
     * serves every key type and direction. Unmeasured. */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .items = 4,
           .samples = 256,
           .groups_per_cu = 2,
           .binary_groups_per_cu = 4,
           .window = 512,
           .max_regs = 0,
           .kind_in_program = 0,
           .source = "CPU (PoCL; unmeasured guess)"}},
    {.match = {0},
     .t = {.wg_size = 128,
           .items = 4,
           .samples = 2048,
           .groups_per_cu = 4,
           .binary_groups_per_cu = 8,
           .window = 2048,
           .max_regs = 0,
           .kind_in_program = 0,
           .source = "default (unmeasured guess)"}},
};

clprim__search_tuning clprim__search_tuning_for(const clprim_context *ctx, size_t key_size,
                                                size_t n)
{
    clprim__search_tuning t;
    CLPRIM__TUNING_FOR(ctx, "search", key_size, n, rows, t);
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "search", &t);
    return t;
}

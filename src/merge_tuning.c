/* SPDX-License-Identifier: MIT */
/* The merge's tuning rows: the work-group, TILED's outputs per work-item
 * (its tile: wg_size x items), CORANK's share per work-item and grid, and
 * whether the key kind is compiled in. Rows are data, matched most
 * specific first (tuning.c) by key size; each says where its numbers came
 * from. merge.c fits the tile to local memory. */
#include "internal.h"

struct clprim__merge_row {
    clprim__row_match match;
    clprim__merge_tuning t;
};

static const struct clprim__merge_row rows[] = {
    /* NVIDIA, H100 (2026-11-26, bench/2026-11-26-h100/family/ run1, run2,
     * run4; int32 keys, 2^27 + 2^27, CUB's MergeKeys 0.785 ms in the same
     * lease): work-items x items 256 x 11 / 13 / 15 / 17 / 19 / 21 / 23 / 25
     * / 27 / 31: 0.898 / 0.853 / 0.848 / 0.824 / 0.859 / 0.808 / 0.801 /
     * 0.860 / 0.847 / 0.916 ms; 128 x 15 0.928, 512 x 15 0.846, 512 x 21
     * 0.806, 512 x 23 0.802: 256 x 23 taken. Of 0.848 ms at 15, the
     * partition kernel took 109 us (70,144 co-rank searches, each ~28
     * dependent loads) and merge_tiled 736 (copy: 718). Written before the
     * GPU: CUB's DeviceMerge takes tiles of a few
     * thousand keys with an odd number per thread; here 256 x 15 = 3,840
     * outputs per tile: 15 KiB of 4-byte keys (+15 KiB of source positions
     * with values; 8-byte keys 45 KiB with them, within the 48 KiB a
     * work-group may hold). clang's PTX of merge_tiled for int32 keys
     * through ptxas -arch=sm_90: 64 registers (83 with 4-byte values), no
     * spills: 4 work-groups of 256 per SM (3 with values); NVIDIA's own
     * compiler may differ. Odd items: the blocked-to-striped exchange
     * through local memory is free of bank conflicts for 4-byte keys. The
     * kind compiled in, as for the sort and the searches: the key order's
     * masks fold away from every comparison. */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU, .elem_size = 4},
     .t = {.wg_size = 256,
           .items = 23,
           .pairs_items = 15,
           .corank_items = 8,
           .corank_groups_per_cu = 16,
           .kind_in_program = 1,
           .source = "NVIDIA GPU, 4-byte keys (H100, 2026-11-26)"}},
    /* 23 outputs measured only for int32 keys alone; with it, test_merge's
     * programs for the other key sizes or with values did not all compile
     * within 400 s (NVIDIA's compiler busy on one of them: run4 of
     * bench/2026-11-26-h100/suite/), and at 15 all 46 built in 30 s. So 23
     * is kept to 4-byte keys alone, and the rest take the first row's 15. */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 15,
           .pairs_items = 15,
           .corank_items = 8,
           .corank_groups_per_cu = 16,
           .kind_in_program = 1,
           .source = "NVIDIA GPU (H100, 2026-11-26)"}},
    /* CPUs (PoCL): small tiles, so that tests cross many tile boundaries
     * at small n; the kind an argument, so that one program per key size
     * serves every key type and direction. Unmeasured. */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .items = 7,
           .pairs_items = 7,
           .corank_items = 8,
           .corank_groups_per_cu = 4,
           .kind_in_program = 0,
           .source = "CPU (PoCL; unmeasured guess)"}},
    {.match = {0},
     .t = {.wg_size = 128,
           .items = 11,
           .pairs_items = 11,
           .corank_items = 8,
           .corank_groups_per_cu = 8,
           .kind_in_program = 0,
           .source = "default (unmeasured guess)"}},
};

clprim__merge_tuning clprim__merge_tuning_for(const clprim_context *ctx, size_t key_size,
                                              size_t n, int pairs)
{
    clprim__merge_tuning t;
    CLPRIM__TUNING_FOR(ctx, "merge", key_size, n, rows, t);
    if (pairs)
        t.items = t.pairs_items;
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "merge", &t);
    return t;
}

/* SPDX-License-Identifier: MIT */
/* Top-k's tuning rows: the work-group, the keys each work-item loads
 * before counting or ranking any, the digit of a level, the grid, the
 * candidate buffers, and SAMPLE_FILTER's sample and where AUTO takes it. Rows are data, matched most specific first
 * (tuning.c) by key size; each says where its numbers came from. top_k.c
 * fits the digit and the tile to local memory. */
#include "internal.h"

struct clprim__top_k_row {
    clprim__row_match match;
    clprim__top_k_tuning t;
};

static const struct clprim__top_k_row rows[] = {
    /* NVIDIA, H100 (2026-11-26, bench/2026-11-26-h100/family/ run1-run4;
     * 2^28 uniform floats, k = 16 / 100 / 1000 sorted): 1.78 ms each, of
     * which the first level's histogram 397 us and its compaction 1155 us
     * (cl_trace); 13-bit digits 1.83 ms; with the next tile loaded while
     * the compaction ranks one, 1.61 ms at 4 work-groups per compute unit
     * (8: 1.73, 16: 1.92). Written before any run on a GPU: 16 keys per work-item loaded before any is counted (the sort's
     * histogram tile: one load in flight per work-item ran at half the copy
     * rate). 12-bit digits: 16 KiB of counters per work-group, so 4 of 256
     * work-items share an SM with room to spare, and 32-bit keys take
     * three levels (12, 12, 8 bits). Uniform floats in [0, 1) put 1/16 of
     * the keys in the top digit of the first level (the sign, the exponent
     * and three mantissa bits), uniform bit patterns 1/4096: the first
     * candidate buffer holds n / 8 keys, the second n / 64. match off:
     * match.any per key may cost more than the local atomics' conflicts
     * save on uniform keys; on skewed ones (few digits, as floats in
     * [0, 1) have at the first level) it may not. To be measured.
     * SAMPLE_FILTER, measured (H100, driver 580.159.04, 2026-11-26,
     * bench/2026-11-26-h100/late/run4.sh, float, k = 16 / 100 / 1000, the
     * gated form that never waits on the host): at 2^28 uniform bit
     * patterns 706 / 715 us and [0, 1) 711 / 705 / 711 us against
     * RADIX_SELECT's 1610-1724 us; at 2^26 slower, 624 / - / 774 us
     * against 572 / - / 581. Its fixed cost is some 350 us (the 2^16
     * sampled keys sorted, 110 us; two sorts of the candidates' room, 130;
     * RADIX_SELECT's gated launches, 45), so AUTO takes it from 2^27
     * (between the two measured sizes: RADIX_SELECT grows some 0.35 ms per
     * 2^26 keys, SAMPLE_FILTER one read, some 90 us) and below n / 1024 keys
     * taken. 2^16 samples: 64 to 512 KiB sorted. */
    {.match = {.vendor_id = 0x10DE, .type = CL_DEVICE_TYPE_GPU},
     .t = {.wg_size = 256,
           .items = 16,
           .digit_bits = 12,
           .groups_per_cu = 4,
           .candidate_shift = 3,
           .min_candidates = 65536,
           .match = 0,
           .filter_sample_bits = 16,
           .filter_min_n_bits = 27,
           .filter_k_shift = 10,
           .source = "NVIDIA GPU (H100, 2026-11-26)"}},
    /* CPUs (PoCL): small work-groups and tiles and 8-bit digits (four
     * levels for 32-bit keys, eight for 64-bit ones), so that tests cross
     * tiles, work-groups and levels at small n; small candidate buffers,
     * so that they also reach the levels that read their source again.
     * SAMPLE_FILTER: 2^10 samples, and AUTO taking it from 2^17 keys
     * while k <= n / 64, so that tests reach it (and both its fallbacks)
     * at small n, AUTO included. Unmeasured. */
    {.match = {.type = CL_DEVICE_TYPE_CPU},
     .t = {.wg_size = 64,
           .items = 4,
           .digit_bits = 8,
           .groups_per_cu = 2,
           .candidate_shift = 3,
           .min_candidates = 256,
           .match = 0,
           .filter_sample_bits = 10,
           .filter_min_n_bits = 17,
           .filter_k_shift = 6,
           .source = "CPU (PoCL; unmeasured guess)"}},
    {.match = {0},
     .t = {.wg_size = 256,
           .items = 8,
           .digit_bits = 11,
           .groups_per_cu = 4,
           .candidate_shift = 3,
           .min_candidates = 65536,
           .match = 0,
           .filter_sample_bits = 16,
           .filter_min_n_bits = 26,
           .filter_k_shift = 10,
           .source = "default (unmeasured guess)"}},
};

clprim__top_k_tuning clprim__top_k_tuning_for(const clprim_context *ctx, size_t key_size,
                                              size_t n)
{
    clprim__top_k_tuning t;
    CLPRIM__TUNING_FOR(ctx, "top_k", key_size, n, rows, t);
    clprim__tuning_apply(&ctx->knobs, &ctx->info, "top_k", &t);
    return t;
}

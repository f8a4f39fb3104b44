/* SPDX-License-Identifier: MIT */
/* Host/kernel contract of cl/top_k.cl, valid C and OpenCL C alike
 * (src/top_k.c includes it; the build step puts it before top_k.cl).
 * Macros only.
 *
 * The element layer's T is the key as bits (uint or ulong); keys are
 * compared in their ordered form (common/key_order.clh) with kmode as
 * cl/sort_abi.h encodes it, SORT_DESCENDING for the k largest, so that the
 * selection is always of the k smallest ordered keys, ties by input index:
 * the first k keys of clprim_sort's stable order.
 *
 * Build defines: TOPK_ITEMS (keys per work-item of a tile; the tile is
 * WG_SIZE x TOPK_ITEMS keys), TOPK_DIGIT_BITS (the widest digit of the
 * program: its local counters), TOPK_WIDE (1: positions and counts are
 * 64-bit, for n of 2^32 and more), VALUE_SIZE (bytes per value, 0: keys
 * only), TOPK_WIDE_ATOMICS (1: the device has cl_khr_int64_base_atomics).
 *
 * Levels. The ordered key is cut into digits from its top, level l taking
 * bits [shift, shift + width). Each level reads a source (the input, or one
 * of two candidate buffers A and B of keys and their input indices),
 * keeping only the keys whose bits above the digit equal the prefix found
 * so far; the sources are cut into one contiguous range per work-group of
 * a grid of G work-groups, the same G for every kernel of a call:
 *   topk_hist     counts the digits of its range's keys in local memory,
 *                 writes them as the row of its work-group (G rows of
 *                 2^width + 1 uints: exclusive prefix, then the total) and
 *                 adds them to the level's totals (atomics);
 *   topk_find     one work-group: the boundary digit b, the first whose
 *                 running total reaches the keys still needed; keys below
 *                 b are all taken, those at b are the next level's
 *                 candidates (or, at the last level or where every one of
 *                 them is needed, the first `needed` of them in input order
 *                 are taken); each work-group's place among them from the
 *                 rows (offsets); the next level's inputs in its record;
 *   topk_compact  writes its range's keys below b to the output and those
 *                 at b to their destination, both in input order (a stable
 *                 compaction: ranks within each tile, the work-group's
 *                 offsets across).
 * A level whose record is not active returns at once (an earlier level
 * took every key).
 *
 * Kernel arguments (cl_mem, 64-bit offsets and counts, 32-bit the rest):
 *   topk_hist     keys, keys_off, n, kmode, level, shift, width, state,
 *                 totals, totals_off, rows, rows_off, cand_keys, a_key_off,
 *                 b_key_off
 *   topk_find     n, k, level, shift, width, cap_a, cap_b, groups (G),
 *                 state, totals, totals_off, rows, rows_off
 *   topk_compact  keys, keys_off, values, values_off, keys_out,
 *                 keys_out_off, values_out, values_out_off, n, k, kmode,
 *                 level, shift, width, state, cand_keys, a_key_off,
 *                 b_key_off, cand_idx, a_idx_off, b_idx_off
 * `state` is ulong words: TOPK_MAX_LEVELS + 1 records of TOPK_REC_WORDS
 * from word 0, then 2 G offsets (each work-group's place among the keys
 * taken and among the candidates) from word TOPK_OFFSETS_AT; the host
 * zeroes the records and the totals (POS_T, 2^width per level, level l's
 * from totals_off + l * 2^TOPK_DIGIT_BITS) before the first level. */
#ifndef CLPRIM_TOP_K_ABI_H
#define CLPRIM_TOP_K_ABI_H

/* digits of 4 to 13 bits: up to 16 levels (64-bit keys in 4-bit digits) */
#define TOPK_MIN_DIGIT_BITS 4
#define TOPK_MAX_DIGIT_BITS 13
#define TOPK_MAX_LEVELS 16

/* a level's record (ulong words): its inputs, written by the level
 * before's topk_find (level 0's are implicit: the input, n, k) ... */
#define TOPK_REC_SRC 0    /* TOPK_SRC_* */
#define TOPK_REC_COUNT 1  /* keys in the source */
#define TOPK_REC_PREFIX 2 /* the ordered bits above this level's digit */
#define TOPK_REC_TAKEN 3  /* keys written to the output before this level */
#define TOPK_REC_NEEDED 4 /* keys still to take from those matching the prefix */
#define TOPK_REC_ACTIVE 5 /* 1: the level runs */
/* ... and its results, written by its own topk_find */
#define TOPK_REC_B 6      /* the boundary digit */
#define TOPK_REC_LT 7     /* keys below it (all taken) */
#define TOPK_REC_EQ 8     /* keys at it */
#define TOPK_REC_DEST 9   /* where the keys at it go: TOPK_DEST_* */
#define TOPK_REC_WORDS 16
#define TOPK_OFFSETS_AT ((TOPK_MAX_LEVELS + 1) * TOPK_REC_WORDS)

#define TOPK_SRC_INPUT 0
#define TOPK_SRC_A 1
#define TOPK_SRC_B 2

#define TOPK_DEST_NONE 0   /* too many for a candidate buffer: the next level reads
                              this level's source again, filtered by the longer prefix */
#define TOPK_DEST_A 1
#define TOPK_DEST_B 2
#define TOPK_DEST_OUTPUT 3 /* the first `needed` in input order are taken; the last level */

/* Local memory of the kernels in bytes: topk_hist's counters and scan
 * scratch; topk_compact's per-key class and rank in a tile and scan
 * scratch; topk_find's scan scratch. */
#define TOPK_HIST_LOCAL_BYTES(wg, digit_bits) ((4u << (digit_bits)) + 4 * (wg) + 64)
#define TOPK_COMPACT_LOCAL_BYTES(wg, items) (3 * (wg) * (items) + 4 * (wg) + 64)
#define TOPK_FIND_LOCAL_BYTES(wg) (16 * (wg) + 64)

/* tiles rank their kept keys in 16-bit halves of one word */
#define TOPK_MAX_TILE 32768

/* SAMPLE_FILTER (cl/top_k_filter.cl; same build defines but
 * TOPK_DIGIT_BITS and TOPK_MATCH). Its buffer, held by the host across
 * the sorts between its launches: the count of candidates (one topk_pos)
 * at position count_off of it as topk_pos, the s sampled keys from key
 * sample_off, the candidates' keys from key ck_off and their input
 * indices from topk_pos ci_off, room for `cap` of each; and the gate, uint
 * TOPKF_GATE_WORD of it, which the host never reads: 1 where the
 * candidates hold the answer (the picking writes it), 0 where they do not
 * (the radix selection queued behind, gated on it, runs instead).
 *   topkf_sample  keys, keys_off, n, s, held (keys), sample_off, held
 *                 (positions), count_off: key i of the sample is input key
 *                 floor(i n / s); the count set to 0
 *   topkf_filter  keys, keys_off, n, kmode, held (keys), sample_off, pick,
 *                 held (positions), count_off, ck_off, ci_off, cap: the
 *                 threshold is the sorted sample's key pick - 1; every key
 *                 whose ordered form is at most its ordered form is
 *                 counted and, below slot cap, written with its index (in
 *                 no set order). Once a slot at cap or past it is handed
 *                 out, the work-item stops: the count is then above cap,
 *                 which is all the gate needs to know.
 *   topkf_settle  held (keys), held (positions), count_off, ck_off, ci_off,
 *                 cap, k, kmode: the gate set (k <= count <= cap); slots
 *                 count .. cap - 1 given a key that sorts after every key
 *                 (ordered form all ones: a NaN for floats) and an index
 *                 past every index, so that the host sorts all cap slots
 *                 (by index, then stably by key) without the count
 *   topkf_pick    held (keys), ck_off, held (positions), ci_off, keys_out,
 *                 keys_out_off, values, values_off, values_out,
 *                 values_out_off, k: where the gate is open, output i is
 *                 sorted candidate i and its value the input value at its
 *                 index.
 * topk_hist, topk_find and topk_compact take (gate, gated) last: with gated
 * 1 a work-group returns at once where the gate is open.
 * A work-group keeps up to TOPKF_STAGE candidates in local memory and
 * takes their slots with one atomic at its end (uniform keys give a few
 * dozen per work-group; more, and each further one takes its own). */
#define TOPKF_STAGE 1024
#define TOPKF_GATE_WORD 4
#define TOPKF_LOCAL_BYTES(key_size, pos_size) (TOPKF_STAGE * ((key_size) + (pos_size)) + 64)

#endif /* CLPRIM_TOP_K_ABI_H */

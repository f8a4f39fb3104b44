/* SPDX-License-Identifier: MIT */
/* Every primitive's tuning parameters, described once. From these lists come
 * the tuning structs (internal.h), the field tables of tuning files and of
 * clprim_context_tuning, the development knobs and their clamps (tuning.c),
 * and the knobs' table in docs/tuning.md (checked by the test tuning_docs).
 * Plain macros: the test includes this file alone.
 *
 * X(S, field, kind, knob, least, most, doc)
 *   S      the tuning struct (passed through)
 *   kind   U unsigned; W a work-group size (unsigned, then clamped to a power
 *          of two the device allows); Z size_t; E an algorithm (int-sized
 *          enum, no knob)
 *   knob   the environment variable that overrides the row's value, read when
 *          a context is created ("" for none)
 *   least, most   bounds applied after the knob (0: none); a rule beyond
 *          bounds stays in the primitive's tuning function
 *   doc    what the value is, for docs/tuning.md
 * Each struct ends with `source`: which row, and where its numbers came from. */
#ifndef CLPRIM_TUNING_PARAMS_H
#define CLPRIM_TUNING_PARAMS_H

/* the PORTABLE programs' work-group, in the scan's and the reduce's rows */
#define CLPRIM__PORTABLE_WG_PARAM(X, S)                                                         \
    X(S, portable_wg_size, U, "CLPRIM_PORTABLE_WG_SIZE", 0, 1024,                               \
      "PORTABLE: work-items per work-group, 64 per tile at once (0: 256; a power of two)")

#define CLPRIM__SCAN_PARAMS(X, S)                                                               \
    X(S, wg_size, W, "CLPRIM_WG_SIZE", 0, 0,                                                    \
      "work-items per work-group (power of two, whole SIMD groups)")                            \
    X(S, coarse_items, U, "", 0, 0, "elements per work-item of the taught coarsened scan")     \
    X(S, tile_items, U, "CLPRIM_TILE_ITEMS", 1, 0,                                              \
      "elements per work-item of the tuned multilevel tile")                                    \
    X(S, sp_tile_items, U, "CLPRIM_SP_TILE_ITEMS", 1, 0,                                        \
      "elements per work-item of the single-pass tile")                                         \
    X(S, lookback_spins, U, "CLPRIM_LOOKBACK_SPINS", 1, 0,                                      \
      "polls of a predecessor's status before the fallback sums its input")                     \
    X(S, sp_groups_per_cu, U, "CLPRIM_SP_GROUPS_PER_CU", 0, 0,                                  \
      "single pass: work-groups per compute unit looping over tiles (0: one per tile)")         \
    X(S, sp_wg_size, W, "CLPRIM_SP_WG_SIZE", 0, 0, "the single pass's work-group size")        \
    X(S, sp_max_regs, U, "CLPRIM_SP_MAX_REGS", 0, 0,                                            \
      "NVIDIA: registers the single pass is bounded to (0: the compiler's choice)")             \
    X(S, scan_auto, E, "", 0, 0, "what AUTO runs")                                             \
    X(S, single_pass_max_n, Z, "", 0, 0, "AUTO takes the single pass up to this n")             \
    X(S, repro_wg_size, U, "CLPRIM_REPRO_WG_SIZE", 0, 0,                                        \
      "RUN_TO_RUN single pass: its work-group size (0: sp_wg_size; clamped as it is)")          \
    X(S, repro_max_regs, U, "CLPRIM_REPRO_MAX_REGS", 0, 0,                                      \
      "NVIDIA: registers the RUN_TO_RUN single pass is bounded to (0: sp_max_regs)")           \
    X(S, chunks_per_cu, U, "CLPRIM_SCAN_CHUNKS_PER_CU", 0, 1024,                                \
      "CHUNKED: chunks per compute unit, each one work-item's (0: 4)")                          \
    CLPRIM__PORTABLE_WG_PARAM(X, S)                                                             \
    X(S, portable_single_pass, U, "CLPRIM_PORTABLE_SINGLE_PASS", 0, 1,                          \
      "PORTABLE: 1 runs the scan as one pass (the same bits; on the H100 1.1-1.7x the three " \
      "launches' time), 0 the three launches")

#define CLPRIM__REDUCE_PARAMS(X, S)                                                             \
    X(S, wg_size, W, "CLPRIM_WG_SIZE", 0, 0, "work-items per work-group")                      \
    X(S, groups_per_cu, U, "CLPRIM_REDUCE_GROUPS_PER_CU", 0, 0,                                 \
      "FAST's grid: work-groups per compute unit")                                              \
    X(S, reduce_auto, E, "", 0, 0, "what AUTO runs (0: FAST)")                                 \
    X(S, chunks_per_cu, U, "CLPRIM_REDUCE_CHUNKS_PER_CU", 0, 1024,                              \
      "CHUNKED: chunks per compute unit, each one work-item's (0: 4)")                          \
    CLPRIM__PORTABLE_WG_PARAM(X, S)

#define CLPRIM__COMPACT_PARAMS(X, S)                                                            \
    X(S, wg_size, W, "CLPRIM_COMPACT_WG_SIZE", 0, 0, "work-items per work-group")              \
    X(S, items, U, "CLPRIM_COMPACT_ITEMS", 1, 32, "elements per work-item of a single-pass tile") \
    X(S, lookback_spins, U, "CLPRIM_LOOKBACK_SPINS", 1, 0,                                      \
      "polls of a predecessor's status before the fallback counts its input")                   \
    X(S, groups_per_cu, U, "CLPRIM_COMPACT_GROUPS_PER_CU", 0, 0,                                \
      "single pass: work-groups per compute unit looping over tiles (0: one per tile)")         \
    X(S, count_groups_per_cu, U, "", 0, 0, "the stable partition's counting grid")             \
    X(S, heads_items, U, "", 0, 0, "unique and run-length encoding: elements per work-item")  \
    X(S, heads_groups_per_cu, U, "", 0, 0, "unique and run-length encoding: the grid")       \
    X(S, select_max_regs, U, "CLPRIM_COMPACT_SELECT_MAX_REGS", 0, 0,                            \
      "NVIDIA: registers a select by a comparison or expression is bounded to (0: none)")      \
    X(S, compact_auto, E, "", 0, 0,                                                            \
      "what AUTO runs (0: SINGLE_PASS where the single pass runs, else THREE_PASS)")            \
    X(S, chunks_per_cu, U, "CLPRIM_COMPACT_CHUNKS_PER_CU", 0, 1024,                             \
      "CHUNKED: chunks per compute unit, each one work-item's (0: 4)")

#define CLPRIM__SEGMENT_PARAMS(X, S)                                                            \
    X(S, wg_size, W, "CLPRIM_SEGMENT_WG_SIZE", 0, 0, "work-items per work-group")              \
    X(S, items, U, "CLPRIM_SEGMENT_ITEMS", 1, 64, "elements per work-item of a scan's tile")   \
    X(S, reduce_items, U, "", 0, 0, "elements per work-item of a reduce's tile")              \
    X(S, lookback_spins, U, "CLPRIM_LOOKBACK_SPINS", 1, 0,                                      \
      "polls of a predecessor's status before the fallback")                                    \
    X(S, loop_items, U, "CLPRIM_SEGMENT_LOOP_ITEMS", 0, 32,                                     \
      "looping single pass (built-in values, flags or keys): elements per work-item (0: off)")  \
    X(S, loop_groups_per_cu, U, "CLPRIM_SEGMENT_LOOP_GROUPS_PER_CU", 1, 0,                      \
      "looping single pass: work-groups per compute unit")                                      \
    X(S, loop_reduce, U, "CLPRIM_SEGMENT_LOOP_REDUCE", 0, 1,                                    \
      "1: reduces loop too (flags and keys); 0: scans only")                                    \
    X(S, loop_flags_reduce_items, U, "CLPRIM_SEGMENT_LOOP_FLAGS_REDUCE_ITEMS", 0, 32,           \
      "the looping reduce by flags: elements per work-item (0: loop_items)")                    \
    X(S, loop_max_regs, U, "CLPRIM_SEGMENT_LOOP_MAX_REGS", 0, 0,                                \
      "NVIDIA: registers the looping single pass is bounded to, flags and offsets (0: none)")   \
    X(S, loop_keys_max_regs, U, "CLPRIM_SEGMENT_LOOP_KEYS_MAX_REGS", 0, 0,                      \
      "NVIDIA: the same for keys (0: the compiler's choice)")

#define CLPRIM__SAT_PARAMS(X, S)                                                                \
    X(S, wg_size, U, "CLPRIM_SAT_WG_SIZE", 0, 0,                                                \
      "single pass: work-items per work-group (warp form; 1 in the serial form)")               \
    X(S, lanes, U, "", 0, 0, "work-items across a strip: 32 (a warp) or 1 (serial)")           \
    X(S, cols, U, "CLPRIM_SAT_COLS", 0, 0, "columns per work-item (1, 2, else 4)")                \
    X(S, rows, U, "CLPRIM_SAT_ROWS", 1, 32, "rows per work-item of a tile")                    \
    X(S, plain_wg, W, "", 0, 0, "the other kernels' work-group size")                          \
    X(S, lookback_spins, U, "CLPRIM_LOOKBACK_SPINS", 1, 0,                                      \
      "polls of a predecessor's status before the fallback")                                    \
    X(S, chained, U, "CLPRIM_SAT_CHAINED", 0, 1,                                                \
      "1: each row waits for its left prefix alone (no aggregates)")                            \
    X(S, window, U, "CLPRIM_SAT_WINDOW", 0, 1,                                                  \
      "warp form, 1: a warp looks back for all its rows at once (rows must divide 32)")         \
    X(S, sat_auto, E, "", 0, 0, "what AUTO runs where the single pass can")

#define CLPRIM__SORT_PARAMS(X, S)                                                               \
    X(S, wg_size, W, "CLPRIM_SORT_WG_SIZE", 0, 0, "work-items per work-group")                 \
    X(S, items, U, "CLPRIM_SORT_ITEMS", 1, 32, "keys per work-item of a one-sweep tile")       \
    X(S, pairs_items, U, "", 0, 0, "... with values")                                         \
    X(S, segment_items, U, "CLPRIM_SORT_SEGMENT_ITEMS", 0, 32,                                  \
      "keys per work-item of the segmented sort's tile (0: the one-sweep tile's)")              \
    X(S, hist_groups_per_cu, U, "CLPRIM_SORT_HIST_GROUPS_PER_CU", 1, 0,                         \
      "the histogram's work-groups per compute unit")                                           \
    X(S, bitonic_tile, U, "CLPRIM_SORT_BITONIC_TILE", 0, 0, "TILE_BITONIC's local merge tile") \
    X(S, lookback_spins, U, "CLPRIM_LOOKBACK_SPINS", 1, 0,                                      \
      "polls of a predecessor's status before the fallback")                                    \
    X(S, match, U, "CLPRIM_SORT_MATCH", 0, 0,                                                   \
      "NVIDIA: a warp ranks keys by one vote per digit bit (2), match.any (1), 1-bit splits (0)") \
    X(S, max_regs, U, "CLPRIM_SORT_MAX_REGS", 0, 0,                                             \
      "NVIDIA: registers sort_onesweep is bounded to (0: the compiler's choice)")               \
    X(S, poll_ns, U, "CLPRIM_SORT_POLL_NS", 0, 0, "NVIDIA: nanoseconds between look-back polls") \
    X(S, kind_in_program, U, "CLPRIM_SORT_KIND_IN_PROGRAM", 0, 1,                               \
      "1: whole-array sorts compile the key kind and direction in (a program per kind)")   \
    X(S, stage_values, U, "CLPRIM_SORT_STAGE_VALUES", 0, 1,                                     \
      "warp ranking, 1: one-sweep passes place values beside their keys where the tile fits")   \
    X(S, sort_auto, E, "", 0, 0,                                                               \
      "what AUTO runs (0: ONESWEEP where the single pass runs, else SPLIT_LSB)")                \
    X(S, chunks_per_cu, U, "CLPRIM_SORT_CHUNKS_PER_CU", 0, 1024,                                \
      "CHUNKED: chunks per compute unit, each one work-item's (0: 4)")

#define CLPRIM__SEARCH_PARAMS(X, S)                                                             \
    X(S, wg_size, W, "CLPRIM_SEARCH_WG_SIZE", 0, 0, "work-items per work-group")               \
    X(S, items, U, "CLPRIM_SEARCH_ITEMS", 1, 32,                                                \
      "CACHED: queries per work-item, their steps interleaved (loads in flight together)")     \
    X(S, samples, U, "CLPRIM_SEARCH_SAMPLES", 2, 65536,                                         \
      "CACHED: keys a work-group holds in local memory (halved until they fit)")                \
    X(S, groups_per_cu, U, "CLPRIM_SEARCH_GROUPS_PER_CU", 1, 0,                                 \
      "CACHED: work-groups per compute unit looping over the queries")                          \
    X(S, binary_groups_per_cu, U, "", 1, 0, "BINARY: work-groups per compute unit")           \
    X(S, window, U, "CLPRIM_SEARCH_WINDOW", 1, 65536,                                           \
      "WINDOW: keys a work-group holds in local memory for its chunk (halved until they fit)")  \
    X(S, max_regs, U, "CLPRIM_SEARCH_MAX_REGS", 0, 0,                                           \
      "NVIDIA: registers the cached search is bounded to (0: the compiler's choice)")           \
    X(S, kind_in_program, U, "CLPRIM_SEARCH_KIND_IN_PROGRAM", 0, 1,                             \
      "1: the key kind and direction compiled in (a program per key type and direction)")

#define CLPRIM__HISTOGRAM_PARAMS(X, S)                                                          \
    X(S, wg_size, W, "CLPRIM_HISTOGRAM_WG_SIZE", 0, 0, "work-items per work-group")            \
    X(S, items, U, "CLPRIM_HISTOGRAM_ITEMS", 1, 32,                                             \
      "loads per work-item before any sample is counted (8- and 16-bit samples: 32-bit words)") \
    X(S, groups_per_cu, U, "CLPRIM_HISTOGRAM_GROUPS_PER_CU", 1, 0,                              \
      "PRIVATE: work-groups per compute unit, each with its own counters in local memory")      \
    X(S, global_groups_per_cu, U, "", 1, 0, "GLOBAL: work-groups per compute unit")          \
    X(S, private_bins, U, "CLPRIM_HISTOGRAM_PRIVATE_BINS", 0, 0,                                \
      "PRIVATE: most counters a work-group holds (0: as many as local memory holds)")           \
    X(S, max_slices, U, "CLPRIM_HISTOGRAM_MAX_SLICES", 1, 1024,                                 \
      "PRIVATE: most work-groups that share one part of the samples, each counting a slice "    \
      "of the bins (AUTO takes GLOBAL beyond)")                                                 \
    X(S, copies, U, "CLPRIM_HISTOGRAM_COPIES", 1, 64,                                           \
      "PRIVATE: most copies of each counter, work-item i adding to copy i % copies (a power "   \
      "of two)")                                                                                \
    X(S, copy_counters, U, "CLPRIM_HISTOGRAM_COPY_COUNTERS", 1, 0,                              \
      "PRIVATE: most counters a work-group's copies may come to (fewer copies beyond)")

#define CLPRIM__MERGE_PARAMS(X, S)                                                              \
    X(S, wg_size, W, "CLPRIM_MERGE_WG_SIZE", 0, 0, "work-items per work-group")                \
    X(S, items, U, "CLPRIM_MERGE_ITEMS", 1, 32,                                                 \
      "TILED: outputs per work-item (a tile: wg_size x items; odd: no bank conflicts)")        \
    X(S, pairs_items, U, "", 1, 32, "... with values")                                        \
    X(S, corank_items, U, "", 1, 64, "CORANK: outputs per work-item")                         \
    X(S, corank_groups_per_cu, U, "", 1, 0, "CORANK: work-groups per compute unit")           \
    X(S, kind_in_program, U, "CLPRIM_MERGE_KIND_IN_PROGRAM", 0, 1,                              \
      "1: the key kind and direction compiled in (a program per key type and direction)")

#define CLPRIM__TOP_K_PARAMS(X, S)                                                              \
    X(S, wg_size, W, "CLPRIM_TOP_K_WG_SIZE", 0, 0, "work-items per work-group")                \
    X(S, items, U, "CLPRIM_TOP_K_ITEMS", 1, 32,                                                 \
      "keys per work-item of a tile, all loaded before any is counted or ranked")               \
    X(S, digit_bits, U, "CLPRIM_TOP_K_DIGIT_BITS", 4, 13,                                       \
      "bits of the ordered key per level (4-byte counters in local memory per digit value)")    \
    X(S, groups_per_cu, U, "CLPRIM_TOP_K_GROUPS_PER_CU", 1, 0,                                  \
      "work-groups per compute unit, each counting and compacting one range of a level's keys") \
    X(S, candidate_shift, U, "CLPRIM_TOP_K_CANDIDATE_SHIFT", 0, 40,                             \
      "the first candidate buffer holds n >> this many keys (the second an eighth of that)")   \
    X(S, min_candidates, U, "CLPRIM_TOP_K_MIN_CANDIDATES", 1, 0,                                \
      "the least keys a candidate buffer holds (a boundary digit with more: its source again)") \
    X(S, match, U, "CLPRIM_TOP_K_MATCH", 0, 1,                                                  \
      "NVIDIA, 1: a warp's keys of one digit counted with one local atomic (match.any)")       \
    X(S, filter_sample_bits, U, "CLPRIM_TOP_K_FILTER_SAMPLE_BITS", 4, 20,                       \
      "SAMPLE_FILTER: 2^this keys sampled for the threshold (all of them where n is smaller)") \
    X(S, filter_min_n_bits, U, "CLPRIM_TOP_K_FILTER_MIN_N_BITS", 0, 63,                         \
      "AUTO takes SAMPLE_FILTER from n = 2^this keys ...")                                     \
    X(S, filter_k_shift, U, "CLPRIM_TOP_K_FILTER_K_SHIFT", 0, 63,                               \
      "... while k is at most n >> this")

/* The primitives: X(name, struct, PARAMS list) */
#define CLPRIM__TUNED_PRIMITIVES(X)                                                             \
    X("scan", clprim__scan_tuning, CLPRIM__SCAN_PARAMS)                                         \
    X("reduce", clprim__reduce_tuning, CLPRIM__REDUCE_PARAMS)                                   \
    X("compact", clprim__compact_tuning, CLPRIM__COMPACT_PARAMS)                                \
    X("segment", clprim__segment_tuning, CLPRIM__SEGMENT_PARAMS)                                \
    X("sat", clprim__sat_tuning, CLPRIM__SAT_PARAMS)                                            \
    X("sort", clprim__sort_tuning, CLPRIM__SORT_PARAMS)                                         \
    X("search", clprim__search_tuning, CLPRIM__SEARCH_PARAMS)                                   \
    X("histogram", clprim__histogram_tuning, CLPRIM__HISTOGRAM_PARAMS)                          \
    X("merge", clprim__merge_tuning, CLPRIM__MERGE_PARAMS)                                  \
    X("top_k", clprim__top_k_tuning, CLPRIM__TOP_K_PARAMS)

/* Development switches outside the rows, read with the knobs:
 * X(id, env, doc) */
#define CLPRIM__SWITCHES(X)                                                                     \
    X(SCAN_SINGLE_PASS, "CLPRIM_SCAN_SINGLE_PASS",                                              \
      "`1` / `0`: AUTO takes the single-pass / multilevel scan whatever the row says (tests)")  \
    X(REDUCE_TWO_LAUNCHES, "CLPRIM_REDUCE_TWO_LAUNCHES", "`1`: FAST reduces in two launches")  \
    X(SUB_GROUP_SIZE, "CLPRIM_SUB_GROUP_SIZE",                                                  \
      "`4` to `64`: every tile kernel is built with that required sub-group size "              \
      "(cl_intel_required_subgroup_size), taken as the SIMD width; a size the device does not " \
      "list fails the context's creation (tests)")                                              \
    X(SUBGROUPS, "CLPRIM_SUBGROUPS",                                                            \
      "`0`: work-groups scan through local memory, not sub-group shuffles, where the device "   \
      "has cl_khr_subgroup_shuffle_relative (tests)")                                           \
    X(PTX, "CLPRIM_PTX",                                                                        \
      "`0`: an NVIDIA device gets no inline PTX: the local-memory forms, and the single passes "\
      "only where it has 64-bit atomics (tests)")                                               \
    X(SORT_WIDE, "CLPRIM_SORT_WIDE",                                                            \
      "`1`: sorts and top-k count positions in 64 bits at any n (tests)")                       \
    X(SAT_TEST_SILENT, "CLPRIM_SAT_TEST_SILENT",                                                \
      "`1`: strip 0 of a summed-area table never publishes, so every look-back takes the "     \
      "fallback there (tests)")                                                                 \
    X(TOP_K_TEST_NO_FALLBACK, "CLPRIM_TOP_K_TEST_NO_FALLBACK",                                \
      "`1`: SAMPLE_FILTER queues no radix selection behind its candidates, so a call whose "     \
      "sample misled leaves its output as it was (tests)")                                       \
    X(SEGMENT_TEST_SILENT, "CLPRIM_SEGMENT_TEST_SILENT",                                        \
      "`1`: every third tile of a segmented scan or reduce out of place never publishes, so "  \
      "the tiles after it take the fallback for it (tests)")

#endif /* CLPRIM_TUNING_PARAMS_H */

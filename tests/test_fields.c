/* SPDX-License-Identifier: MIT */
/* Issue 30: every field of every descriptor that a public call takes is
 * either honoured or refused with a message naming it; none is ignored.
 * One table, {call, field, base, setting, expectation}: each row runs the
 * call in its default state plus `base` (the fields a setting needs, e.g.
 * a FLAGS predicate before flags_off), then again with `setting` applied,
 * and checks:
 *   HONOURED  both succeed and the outputs differ (inputs are chosen so that
 *             a field honoured must change them: exclusive shifts the scan,
 *             descending reverses, indices are written over poison, a
 *             transform changes values, a caller's scratch is written);
 *   REFUSED   the base call succeeds; with the setting the call fails and
 *             the context's last error contains `needle` (the field's name);
 *   READ      a field that chooses how, not what (an algorithm, a context, a
 *             queue): the outputs are equal, and the row's `bad` value in
 *             its place is refused with `needle` (so the field is read);
 *   QUERY     clprim_sort_scratch_size only: it answers for the descriptor a
 *             later clprim_sort gets, so it accepts every field clprim_sort
 *             does and the size need not depend on it.
 * There is no row for "ignored": a field that is neither honoured nor
 * refused fails its row.
 *
 * How the table was derived: the calls are every function of clprim.h
 * that takes a descriptor (clprim_scan_desc, clprim_reduce_desc,
 * clprim_transform through them, clprim_segments, clprim_compact_desc,
 * clprim_sat_desc, clprim_box_desc, clprim_sort_desc, clprim_search_desc,
 * clprim_histogram_desc, clprim_merge_desc, clprim_top_k_desc,
 * clprim_part); the
 * fields are each descriptor's members in declaration order (descs[]
 * below). test_coverage fails unless every (call, field) pair of those has
 * a row, and test_sizes fails when a descriptor's size changes, so that a
 * field cannot be added without its rows. Inputs are small (n = 512, a
 * 16 x 12 image, 20000 sort keys) and the element types few (int32, int64,
 * a caller's xor on int, a caller's 2-byte element) so that program builds
 * stay few; the whole table runs on one context. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#define N 512       /* elements of the 1-D calls */
#define W 16        /* image width and height */
#define H 12
#define NS 20000    /* sort keys: several tiles, so the one-sweep sort uses scratch */
#define BUF (N * 8 + 64)
#define POISON 0xA5

/* ---- the calls and their descriptors ---- */

enum { D_SCAN = 1, D_REDUCE = 2, D_TF = 4, D_SEG = 8, D_COMPACT = 16, D_SAT = 32, D_BOX = 64,
       D_SORT = 128, D_PART = 256, D_SEARCH = 512,
       D_HIST = 1024, D_MERGE = 2048, D_TOPK = 4096 };

#define CALLS(X)                                                                                   \
    X(SCAN, "clprim_scan", D_SCAN | D_TF)                                                          \
    X(SCAN_HOST, "clprim_scan_host", D_SCAN | D_TF)                                                \
    X(SCAN_INIT, "clprim_scan_init", D_SCAN | D_TF)                                                \
    X(SCAN_INIT_HOST, "clprim_scan_init_host", D_SCAN | D_TF)                                      \
    X(REDUCE, "clprim_reduce", D_REDUCE | D_TF)                                                    \
    X(REDUCE_VALUE, "clprim_reduce_value", D_REDUCE | D_TF)                                        \
    X(REDUCE_HOST, "clprim_reduce_host", D_REDUCE | D_TF)                                          \
    X(SCAN_TILES, "clprim_scan_tiles", D_SCAN | D_TF)                                              \
    X(REDUCE_TILES, "clprim_reduce_tiles", D_REDUCE | D_TF)                                        \
    X(SEG_SCAN, "clprim_segmented_scan", D_SCAN | D_TF | D_SEG)                                    \
    X(SEG_SCAN_HOST, "clprim_segmented_scan_host", D_SCAN | D_TF | D_SEG)                          \
    X(SEG_REDUCE, "clprim_segmented_reduce", D_REDUCE | D_TF | D_SEG)                              \
    X(SEG_REDUCE_HOST, "clprim_segmented_reduce_host", D_REDUCE | D_TF | D_SEG)                    \
    X(SELECT, "clprim_select", D_COMPACT)                                                          \
    X(PARTITION, "clprim_partition", D_COMPACT)                                                    \
    X(UNIQUE, "clprim_unique", D_COMPACT)                                                          \
    X(RLE, "clprim_run_length_encode", D_COMPACT)                                                  \
    X(SELECT_HOST, "clprim_select_host", D_COMPACT)                                                \
    X(SAT, "clprim_sat", D_SAT)                                                                    \
    X(SAT_HOST, "clprim_sat_host", D_SAT)                                                          \
    X(BOX, "clprim_box_filter", D_BOX)                                                             \
    X(BOX_HOST, "clprim_box_filter_host", D_BOX)                                                   \
    X(SORT, "clprim_sort", D_SORT)                                                                 \
    X(SORT_HOST, "clprim_sort_host", D_SORT)                                                       \
    X(SPLIT, "clprim_split", D_SORT)                                                               \
    X(SORT_SCRATCH, "clprim_sort_scratch_size", D_SORT)                                            \
    X(SEG_SORT, "clprim_segmented_sort", D_SORT | D_SEG)                                           \
    X(SEG_SORT_HOST, "clprim_segmented_sort_host", D_SORT | D_SEG)                                 \
    X(LOWER, "clprim_lower_bound", D_SEARCH)                                                       \
    X(UPPER, "clprim_upper_bound", D_SEARCH)                                                       \
    X(LOWER_HOST, "clprim_lower_bound_host", D_SEARCH)                                             \
    X(UPPER_HOST, "clprim_upper_bound_host", D_SEARCH)                                             \
    X(HIST, "clprim_histogram", D_HIST)                                                            \
    X(HIST_HOST, "clprim_histogram_host", D_HIST)                                                  \
    X(MERGE, "clprim_merge", D_MERGE)                                                              \
    X(MERGE_HOST, "clprim_merge_host", D_MERGE)                                                    \
    X(TOPK, "clprim_top_k", D_TOPK)                                                                \
    X(TOPK_HOST, "clprim_top_k_host", D_TOPK)                                                      \
    X(MULTI_SCAN, "clprim_multi_scan", D_SCAN | D_TF | D_PART)                                     \
    X(MULTI_REDUCE, "clprim_multi_reduce", D_REDUCE | D_TF | D_PART)                               \
    X(MULTI_SELECT, "clprim_multi_select", D_COMPACT | D_PART)

enum {
#define X_(name, str, descs) C_##name,
    CALLS(X_)
#undef X_
    CALL_COUNT
};

static const struct {
    const char *name;
    int descs;
} calls[] = {
#define X_(name, str, descs) {str, descs},
    CALLS(X_)
#undef X_
};

/* Every descriptor's fields in declaration order, and its size on LP64
 * (a new field changes the size: add it here and give it its rows). */
static const char *const scan_fields[] = {"type", "op", "exclusive", "algorithm", "custom",
                                          "transform", "repro", NULL};
static const char *const reduce_fields[] = {"type", "op", "algorithm", "custom", "transform",
                                            "repro", NULL};
static const char *const tf_fields[] = {"input", "expression", NULL};
static const char *const seg_fields[] = {"kind", "mem", "off", "type", "key_element",
                                         "num_segments", NULL};
static const char *const compact_fields[] = {"type", "element", "predicate", "value", "flags",
                                             "flags_off", "expression", "algorithm", "indices",
                                             "indices_off", "reverse_rejected", NULL};
static const char *const sat_fields[] = {"type", "op", "custom", "input", "exclusive",
                                         "algorithm", "repro", NULL};
static const char *const box_fields[] = {"type", "from_image", "input", "radius_x", "radius_y",
                                         "sum", NULL};
static const char *const sort_fields[] = {"key_type", "value_size", "descending", "begin_bit",
                                          "end_bit", "algorithm", "scratch", "scratch_size", NULL};
static const char *const search_fields[] = {"key_type", "descending", "index_type", "algorithm",
                                            NULL};
static const char *const hist_fields[] = {"sample_type", "count_type", "bins", "lower", "upper",
                                          "edges", "edges_off", "accumulate", "algorithm", NULL};
static const char *const merge_fields[] = {"key_type", "descending", "element", "less",
                                           "value_size", "algorithm", NULL};
static const char *const topk_fields[] = {"key_type", "value_size", "largest", "sorted",
                                          "algorithm", NULL};
static const char *const part_fields[] = {"ctx", "queue", "in", "in_off", "out", "out_off", "n",
                                          "custom", "element", "flags", "flags_off", NULL};

static const struct {
    int bit;
    const char *prefix, *type;
    size_t size, lp64;
    const char *const *fields;
} descs[] = {
    {D_SCAN, "scan", "clprim_scan_desc", sizeof(clprim_scan_desc), 40, scan_fields},
    {D_REDUCE, "reduce", "clprim_reduce_desc", sizeof(clprim_reduce_desc), 40, reduce_fields},
    {D_TF, "transform", "clprim_transform", sizeof(clprim_transform), 16, tf_fields},
    {D_SEG, "segments", "clprim_segments", sizeof(clprim_segments), 48, seg_fields},
    {D_COMPACT, "compact", "clprim_compact_desc", sizeof(clprim_compact_desc), 88, compact_fields},
    {D_SAT, "sat", "clprim_sat_desc", sizeof(clprim_sat_desc), 32, sat_fields},
    {D_BOX, "box", "clprim_box_desc", sizeof(clprim_box_desc), 40, box_fields},
    {D_SORT, "sort", "clprim_sort_desc", sizeof(clprim_sort_desc), 48, sort_fields},
    {D_PART, "part", "clprim_part", sizeof(clprim_part), 88, part_fields},
    {D_SEARCH, "search", "clprim_search_desc", sizeof(clprim_search_desc), 16, search_fields},
    {D_HIST, "histogram", "clprim_histogram_desc", sizeof(clprim_histogram_desc), 56,
     hist_fields},
    {D_MERGE, "merge", "clprim_merge_desc", sizeof(clprim_merge_desc), 40, merge_fields},
    {D_TOPK, "top_k", "clprim_top_k_desc", sizeof(clprim_top_k_desc), 32, topk_fields},
};

/* ---- settings: one non-default value per field (or a field cleared) ---- */

enum setting {
    S_NONE,
    /* scan and reduce descriptors (both set where both have the field) */
    SC_TYPE, SC_OP, SC_EXCL, SC_ALGO, SC_ALGO_DL, SC_ALGO_BAD, SC_CUSTOM, SC_TF, TF_INPUT, TF_EXPR,
    SC_REPRO, SC_REPRO_BAD, /* issue 33: int32 is exact, so every level runs unchanged */
    /* segments */
    SG_KEYS, SG_OFFSETS, SG_MEM, SG_OFF, SG_TYPE, SG_KEY_EL, SG_NUMSEG, SG_NUMSEG_BAD,
    /* compaction */
    CP_TYPE, CP_ELEMENT, CP_PRED_GT, CP_VALUE, CP_PRED_FLAGS, CP_FLAGS, CP_FLAGS_OFF, CP_PRED_EXPR,
    CP_EXPR, CP_ALGO, CP_ALGO_BAD, CP_INDICES, CP_INDICES_OFF, CP_REVERSE,
    /* summed-area table, box filter */
    ST_TYPE, ST_OP, ST_CUSTOM, ST_INPUT, ST_EXCL, ST_ALGO, ST_ALGO_BAD, ST_REPRO, ST_REPRO_BAD,
    BX_TYPE, BX_FROM_IMAGE, BX_INPUT, BX_RX, BX_RY, BX_SUM,
    /* sort */
    SO_KEY, SO_VS, SO_DESC, SO_BEGIN, SO_END, SO_END32, SO_ALGO, SO_ALGO_BAD, SO_SCRATCH,
    SO_SCRATCH_SIZE,
    /* searches */
    SE_KEY, SE_KEY_BAD, SE_DESC, SE_INDEX, SE_INDEX_BAD, SE_ALGO, SE_ALGO_BAD,
    /* histograms */
    HI_TYPE, HI_TYPE_BAD, HI_COUNT, HI_COUNT_BAD, HI_BINS, HI_BINS_BAD, HI_LOWER, HI_LOWER_BAD,
    HI_UPPER, HI_UPPER_BAD, HI_EDGES, HI_EDGES_OFF, HI_ACC, HI_ACC_BAD, HI_ALGO, HI_ALGO_BAD,
    /* merges */
    MG_KEY, MG_KEY_BAD, MG_DESC, MG_ELEMENT, MG_LESS, MG_VS, MG_VS_BAD, MG_ALGO, MG_ALGO_BAD,
    /* top-k */
    TK_KEY, TK_KEY_BAD, TK_VS, TK_VS_BAD, TK_LARGEST, TK_LARGEST_BAD, TK_SORTED, TK_SORTED_BAD,
    TK_ALGO, TK_ALGO_BAD,
    /* parts (part 1 of two) */
    PT_CTX, PT_CTX_BAD, PT_QUEUE, PT_QUEUE_BAD, PT_IN, PT_IN_OFF, PT_OUT, PT_OUT_OFF, PT_N,
    PT_CUSTOM, PT_CUSTOM_BAD, PT_ELEMENT, PT_ELEMENT_BAD, PT_FLAGS, PT_FLAGS_OFF
};

enum expect { HONOURED, REFUSED, READ, QUERY };

typedef struct row {
    int call;
    const char *field;        /* "<descriptor>.<field>" */
    enum setting base[2];     /* applied first, in both runs */
    enum setting set;         /* the field's non-default value */
    enum expect expect;
    const char *needle;       /* REFUSED, READ: in the message */
    enum setting bad;         /* READ: a value refused with needle */
} row;

#define R(c, f, b0, b1, s, e, n, bad) {C_##c, f, {b0, b1}, s, e, n, bad}
#define H_(c, f, s) R(c, f, S_NONE, S_NONE, s, HONOURED, NULL, S_NONE)
#define HB(c, f, b, s) R(c, f, b, S_NONE, s, HONOURED, NULL, S_NONE)
#define RF(c, f, b, s, n) R(c, f, b, S_NONE, s, REFUSED, n, S_NONE)
#define RD(c, f, b, s, n, bad) R(c, f, b, S_NONE, s, READ, n, bad)
#define QY(c, f, b, s) R(c, f, b, S_NONE, s, QUERY, NULL, S_NONE)

/* the transform's fields, on every call that takes a scan or reduce descriptor */
#define TF_ROWS(c)                                                                                 \
    HB(c, "transform.input", SC_TF, TF_INPUT), HB(c, "transform.expression", SC_TF, TF_EXPR)

#define SCAN_ROWS(c)                                                                               \
    H_(c, "scan.type", SC_TYPE), RF(c, "scan.type", SC_CUSTOM, SC_TYPE, "desc->type"),             \
    H_(c, "scan.op", SC_OP), RF(c, "scan.op", SC_CUSTOM, SC_OP, "desc->op"),                       \
    H_(c, "scan.exclusive", SC_EXCL),                                                              \
    RD(c, "scan.algorithm", S_NONE, SC_ALGO, "desc->algorithm", SC_ALGO_BAD),                      \
    H_(c, "scan.custom", SC_CUSTOM), H_(c, "scan.transform", SC_TF), TF_ROWS(c),               \
    RD(c, "scan.repro", S_NONE, SC_REPRO, "desc->repro", SC_REPRO_BAD)

#define REDUCE_ROWS(c)                                                                             \
    H_(c, "reduce.type", SC_TYPE), RF(c, "reduce.type", SC_CUSTOM, SC_TYPE, "desc->type"),         \
    H_(c, "reduce.op", SC_OP), RF(c, "reduce.op", SC_CUSTOM, SC_OP, "desc->op"),                   \
    RD(c, "reduce.algorithm", S_NONE, SC_ALGO, "desc->algorithm", SC_ALGO_BAD),                    \
    H_(c, "reduce.custom", SC_CUSTOM), H_(c, "reduce.transform", SC_TF), TF_ROWS(c),           \
    RD(c, "reduce.repro", S_NONE, SC_REPRO, "desc->repro", SC_REPRO_BAD)

/* segmented calls */
#define SEG_DESC_ROWS(c, d)                                                                        \
    H_(c, d ".type", SC_TYPE), RF(c, d ".type", SC_CUSTOM, SC_TYPE, "desc->type"),                 \
    H_(c, d ".op", SC_OP), RF(c, d ".op", SC_CUSTOM, SC_OP, "desc->op"),                           \
    H_(c, d ".custom", SC_CUSTOM), H_(c, d ".transform", SC_TF),                                   \
    RF(c, d ".algorithm", S_NONE, SC_ALGO, "desc->algorithm"), TF_ROWS(c),                     \
    RD(c, d ".repro", S_NONE, SC_REPRO, "desc->repro", SC_REPRO_BAD)

/* the segments: type, key_element and num_segments of the kinds that do
 * not use them, and mem and off in the host helpers, are refused */
#define SEGMENTS_ROWS(c, host, numseg_reduce)                                                      \
    H_(c, "segments.kind", SG_KEYS),                                                               \
    R(c, "segments.mem", S_NONE, S_NONE, SG_MEM, host ? REFUSED : HONOURED,                        \
      host ? "segments->mem" : NULL, S_NONE),                                                      \
    R(c, "segments.off", S_NONE, S_NONE, SG_OFF, host ? REFUSED : HONOURED,                        \
      host ? "segments->off" : NULL, S_NONE),                                                      \
    HB(c, "segments.type", SG_KEYS, SG_TYPE), RF(c, "segments.type", S_NONE, SG_TYPE,              \
                                                 "segments->type"),                                \
    HB(c, "segments.key_element", SG_KEYS, SG_KEY_EL),                                             \
    RF(c, "segments.key_element", S_NONE, SG_KEY_EL, "segments->key_element"),                     \
    R(c, "segments.num_segments", SG_OFFSETS, S_NONE, SG_NUMSEG, numseg_reduce ? HONOURED : READ,  \
      "num_segments", numseg_reduce ? S_NONE : SG_NUMSEG_BAD),                                     \
    RF(c, "segments.num_segments", S_NONE, SG_NUMSEG, "segments->num_segments")

/* select and partition (and the multi-part select) */
#define PREDICATE_ROWS(c)                                                                          \
    H_(c, "compact.type", CP_TYPE),                                                                \
    R(c, "compact.type", CP_PRED_FLAGS, CP_ELEMENT, CP_TYPE, REFUSED, "desc->type", S_NONE),       \
    HB(c, "compact.element", CP_PRED_FLAGS, CP_ELEMENT), H_(c, "compact.predicate", CP_PRED_GT),   \
    H_(c, "compact.value", CP_VALUE),                                                              \
    RF(c, "compact.value", CP_PRED_FLAGS, CP_VALUE, "desc->value"),                                \
    RF(c, "compact.flags", S_NONE, CP_FLAGS, "desc->flags"),                                       \
    RF(c, "compact.flags_off", S_NONE, CP_FLAGS_OFF, "desc->flags_off"),                           \
    HB(c, "compact.expression", CP_PRED_EXPR, CP_EXPR),                                            \
    RF(c, "compact.expression", S_NONE, CP_EXPR, "desc->expression"),                              \
    RD(c, "compact.algorithm", S_NONE, CP_ALGO, "desc->algorithm", CP_ALGO_BAD)

/* unique and run-length encoding: no predicate */
#define NEIGHBOUR_ROWS(c, name)                                                                    \
    H_(c, "compact.type", CP_TYPE), RF(c, "compact.type", CP_ELEMENT, CP_TYPE, "desc->type"),      \
    H_(c, "compact.element", CP_ELEMENT),                                                          \
    RF(c, "compact.predicate", S_NONE, CP_PRED_GT, "desc->predicate: " name),                      \
    RF(c, "compact.value", S_NONE, CP_VALUE, "desc->value: " name),                                \
    RF(c, "compact.flags", S_NONE, CP_FLAGS, "desc->flags: " name),                                \
    RF(c, "compact.flags_off", S_NONE, CP_FLAGS_OFF, "desc->flags_off: " name),                    \
    RF(c, "compact.expression", S_NONE, CP_EXPR, "desc->expression: " name),                       \
    RD(c, "compact.algorithm", S_NONE, CP_ALGO, "desc->algorithm", CP_ALGO_BAD),                   \
    RF(c, "compact.indices", S_NONE, CP_INDICES, "desc->indices: select only; " name),             \
    RF(c, "compact.indices_off", S_NONE, CP_INDICES_OFF, "desc->indices_off"),                     \
    RF(c, "compact.reverse_rejected", S_NONE, CP_REVERSE, "desc->reverse_rejected")

#define SAT_ROWS(c)                                                                                \
    H_(c, "sat.type", ST_TYPE), RF(c, "sat.type", ST_CUSTOM, ST_TYPE, "desc->type"),               \
    H_(c, "sat.op", ST_OP), RF(c, "sat.op", ST_CUSTOM, ST_OP, "desc->op"),                         \
    H_(c, "sat.custom", ST_CUSTOM), H_(c, "sat.input", ST_INPUT),                                  \
    RF(c, "sat.input", ST_CUSTOM, ST_INPUT, "desc->input"), H_(c, "sat.exclusive", ST_EXCL),       \
    RD(c, "sat.algorithm", S_NONE, ST_ALGO, "desc->algorithm", ST_ALGO_BAD),                    \
    RD(c, "sat.repro", S_NONE, ST_REPRO, "desc->repro", ST_REPRO_BAD)

#define BOX_ROWS(c)                                                                                \
    H_(c, "box.type", BX_TYPE), H_(c, "box.from_image", BX_FROM_IMAGE),                            \
    HB(c, "box.input", BX_FROM_IMAGE, BX_INPUT),                                                   \
    RF(c, "box.input", S_NONE, BX_INPUT, "desc->input"), /* a table's type is box.type */          \
    H_(c, "box.radius_x", BX_RX), H_(c, "box.radius_y", BX_RY),                                    \
    HB(c, "box.sum", BX_RX, BX_SUM) /* over one pixel, the mean is the sum */

#define SORT_ROWS(c)                                                                               \
    H_(c, "sort.key_type", SO_KEY), H_(c, "sort.value_size", SO_VS),                               \
    H_(c, "sort.descending", SO_DESC), HB(c, "sort.begin_bit", SO_END32, SO_BEGIN),                \
    H_(c, "sort.end_bit", SO_END),                                                                 \
    RD(c, "sort.algorithm", S_NONE, SO_ALGO, "desc->algorithm", SO_ALGO_BAD),                      \
    H_(c, "sort.scratch", SO_SCRATCH),                                                             \
    RF(c, "sort.scratch_size", S_NONE, SO_SCRATCH_SIZE, "desc->scratch_size")

/* the segmented sort: the sort descriptor as clprim_sort's but one algorithm
 * and no caller's scratch; the segments OFFSETS only (kind KEYS refused:
 * the call's own kind check, not segment.c's), key_element refused; type
 * chooses another valid array (sort_offs' layout), off another one in the
 * enqueueing call; num_segments 3 -> 4 adds an empty last segment */
#define SEG_SORT_ROWS(c, host)                                                                     \
    H_(c, "sort.key_type", SO_KEY), H_(c, "sort.value_size", SO_VS),                               \
    H_(c, "sort.descending", SO_DESC), HB(c, "sort.begin_bit", SO_END32, SO_BEGIN),                \
    H_(c, "sort.end_bit", SO_END), RF(c, "sort.algorithm", S_NONE, SO_ALGO, "desc->algorithm"),    \
    RF(c, "sort.scratch", S_NONE, SO_SCRATCH, "desc->scratch"),                                    \
    RF(c, "sort.scratch_size", S_NONE, SO_SCRATCH_SIZE, "scratch_size"),                           \
    RF(c, "segments.kind", S_NONE, SG_KEYS, "segments->kind"),                                     \
    R(c, "segments.mem", S_NONE, S_NONE, SG_MEM, host ? REFUSED : HONOURED,                        \
      host ? "segments->mem" : NULL, S_NONE),                                                      \
    R(c, "segments.off", S_NONE, S_NONE, SG_OFF, host ? REFUSED : HONOURED,                        \
      host ? "segments->off" : NULL, S_NONE),                                                      \
    H_(c, "segments.type", SG_TYPE),                                                               \
    RF(c, "segments.key_element", S_NONE, SG_KEY_EL, "segments->key_element: for KEYS only"),      \
    RD(c, "segments.num_segments", S_NONE, SG_NUMSEG, "num_segments", SG_NUMSEG_BAD)

/* the searches: the keys (ascending as int32) read as uint32 are not
 * sorted, which moves the positions; uint64 positions are other bytes */
#define SEARCH_ROWS(c)                                                                             \
    H_(c, "search.key_type", SE_KEY), RF(c, "search.key_type", S_NONE, SE_KEY_BAD, "key_type"),    \
    H_(c, "search.descending", SE_DESC), H_(c, "search.index_type", SE_INDEX),                     \
    RF(c, "search.index_type", S_NONE, SE_INDEX_BAD, "desc->index_type"),                          \
    RD(c, "search.algorithm", S_NONE, SE_ALGO, "desc->algorithm", SE_ALGO_BAD)

/* the merges: the searches' keys, -N/2 .. N/2 - 1 ascending, halved into
 * range a (the negative ones) and b; read as uint32, or merged descending,
 * b goes first; as the caller's shorts other keys go out, in the order the
 * caller's less says; values (in_buf's) are written over poison */
#define MERGE_ROWS(c)                                                                              \
    H_(c, "merge.key_type", MG_KEY), RF(c, "merge.key_type", S_NONE, MG_KEY_BAD, "key_type"),      \
    RF(c, "merge.key_type", MG_ELEMENT, MG_KEY, "desc->key_type"),                                 \
    H_(c, "merge.descending", MG_DESC),                                                            \
    RF(c, "merge.descending", MG_ELEMENT, MG_DESC, "desc->descending"),                            \
    H_(c, "merge.element", MG_ELEMENT), RF(c, "merge.less", S_NONE, MG_LESS, "desc->less"),        \
    HB(c, "merge.less", MG_ELEMENT, MG_LESS), H_(c, "merge.value_size", MG_VS),                    \
    RF(c, "merge.value_size", S_NONE, MG_VS_BAD, "desc->value_size"),                              \
    RD(c, "merge.algorithm", S_NONE, MG_ALGO, "desc->algorithm", MG_ALGO_BAD)

/* the histograms: int32 samples in [-6, 6] over 16 bins of [-8, 8); read
 * as int16, into 8 bins, over a narrower range or other edges (from
 * another offset), the counts move; uint64 counts are other bytes, and
 * accumulated ones are added to poison. The host helper takes host edges:
 * a device buffer and its offset are refused there. */
#define HIST_ROWS(c, host)                                                                         \
    H_(c, "histogram.sample_type", HI_TYPE),                                                       \
    RF(c, "histogram.sample_type", S_NONE, HI_TYPE_BAD, "sample_type"),                            \
    H_(c, "histogram.count_type", HI_COUNT),                                                       \
    RF(c, "histogram.count_type", S_NONE, HI_COUNT_BAD, "count_type"),                             \
    H_(c, "histogram.bins", HI_BINS), RF(c, "histogram.bins", S_NONE, HI_BINS_BAD, "bins"),        \
    H_(c, "histogram.lower", HI_LOWER), RF(c, "histogram.lower", S_NONE, HI_LOWER_BAD, "lower"),   \
    H_(c, "histogram.upper", HI_UPPER), RF(c, "histogram.upper", S_NONE, HI_UPPER_BAD, "upper"),   \
    R(c, "histogram.edges", S_NONE, S_NONE, HI_EDGES, host ? REFUSED : HONOURED,                   \
      host ? "desc->edges" : NULL, S_NONE),                                                        \
    R(c, "histogram.edges_off", host ? S_NONE : HI_EDGES, S_NONE, HI_EDGES_OFF,                    \
      host ? REFUSED : HONOURED, host ? "desc->edges_off" : NULL, S_NONE),                         \
    RF(c, "histogram.edges_off", S_NONE, HI_EDGES_OFF, "desc->edges_off"),                         \
    H_(c, "histogram.accumulate", HI_ACC),                                                         \
    RF(c, "histogram.accumulate", S_NONE, HI_ACC_BAD, "accumulate"),                               \
    RD(c, "histogram.algorithm", S_NONE, HI_ALGO, "desc->algorithm", HI_ALGO_BAD)

/* top-k of the int32 input: read as uint32 the negative keys come first
 * (largest) or last; values are written to their own output; unsorted,
 * the radix selection's order is not the sorted one, so the algorithm's
 * row compares sorted outputs */
#define TOPK_ROWS(c)                                                                               \
    H_(c, "top_k.key_type", TK_KEY), RF(c, "top_k.key_type", S_NONE, TK_KEY_BAD, "key_type"),      \
    H_(c, "top_k.value_size", TK_VS), RF(c, "top_k.value_size", S_NONE, TK_VS_BAD, "value_size"),  \
    H_(c, "top_k.largest", TK_LARGEST),                                                            \
    RF(c, "top_k.largest", S_NONE, TK_LARGEST_BAD, "desc->largest"),                               \
    H_(c, "top_k.sorted", TK_SORTED), RF(c, "top_k.sorted", S_NONE, TK_SORTED_BAD, "desc->sorted"), \
    RD(c, "top_k.algorithm", TK_SORTED, TK_ALGO, "desc->algorithm", TK_ALGO_BAD)

/* every part field on the multi-part calls: the select's fields in a scan
 * or reduce, out and out_off in a reduce, custom in a select, and flags_off
 * without flags are refused */
#define PART_ROWS(c, sel, red)                                                                     \
    RD(c, "part.ctx", S_NONE, PT_CTX, "parts[1].ctx", PT_CTX_BAD),                                 \
    RD(c, "part.queue", S_NONE, PT_QUEUE, "queue", PT_QUEUE_BAD), H_(c, "part.in", PT_IN),         \
    H_(c, "part.in_off", PT_IN_OFF),                                                               \
    R(c, "part.out", S_NONE, S_NONE, PT_OUT, red ? REFUSED : HONOURED, red ? "].out" : NULL,       \
      S_NONE),                                                                                     \
    R(c, "part.out_off", S_NONE, S_NONE, PT_OUT_OFF, red ? REFUSED : HONOURED,                     \
      red ? "].out_off" : NULL, S_NONE),                                                           \
    H_(c, "part.n", PT_N),                                                                         \
    R(c, "part.custom", sel ? S_NONE : SC_CUSTOM, S_NONE, PT_CUSTOM, sel ? REFUSED : READ,         \
      sel ? "].custom" : "custom",                                                                 \
      sel ? S_NONE : PT_CUSTOM_BAD),                                                               \
    R(c, "part.element", sel ? CP_PRED_FLAGS : S_NONE, sel ? CP_ELEMENT : S_NONE, PT_ELEMENT,      \
      sel ? READ : REFUSED, sel ? "element" : "].element", sel ? PT_ELEMENT_BAD : S_NONE),         \
    R(c, "part.flags", sel ? CP_PRED_FLAGS : S_NONE, S_NONE, PT_FLAGS, sel ? HONOURED : REFUSED,   \
      sel ? NULL : "].flags", S_NONE),                                                             \
    R(c, "part.flags_off", sel ? CP_PRED_FLAGS : S_NONE, sel ? PT_FLAGS : S_NONE, PT_FLAGS_OFF,    \
      sel ? HONOURED : REFUSED, sel ? NULL : "].flags_off", S_NONE)

static const row table[] = {
    SCAN_ROWS(SCAN), SCAN_ROWS(SCAN_HOST), SCAN_ROWS(SCAN_INIT), SCAN_ROWS(SCAN_INIT_HOST),
    SCAN_ROWS(MULTI_SCAN),
    REDUCE_ROWS(REDUCE), REDUCE_ROWS(REDUCE_VALUE), REDUCE_ROWS(REDUCE_HOST),
    REDUCE_ROWS(MULTI_REDUCE), SCAN_ROWS(SCAN_TILES), REDUCE_ROWS(REDUCE_TILES),

    H_(SEG_SCAN, "scan.exclusive", SC_EXCL), H_(SEG_SCAN_HOST, "scan.exclusive", SC_EXCL),
    RD(SEG_SCAN, "scan.algorithm", S_NONE, SC_ALGO_DL, "desc->algorithm", SC_ALGO_BAD),
    RD(SEG_SCAN_HOST, "scan.algorithm", S_NONE, SC_ALGO_DL, "desc->algorithm", SC_ALGO_BAD),
    SEG_DESC_ROWS(SEG_SCAN, "scan"), SEG_DESC_ROWS(SEG_SCAN_HOST, "scan"),
    SEG_DESC_ROWS(SEG_REDUCE, "reduce"), SEG_DESC_ROWS(SEG_REDUCE_HOST, "reduce"),
    SEGMENTS_ROWS(SEG_SCAN, 0, 0), SEGMENTS_ROWS(SEG_SCAN_HOST, 1, 0),
    SEGMENTS_ROWS(SEG_REDUCE, 0, 1), SEGMENTS_ROWS(SEG_REDUCE_HOST, 1, 1),

    PREDICATE_ROWS(SELECT),
    HB(SELECT, "compact.flags", CP_PRED_FLAGS, CP_FLAGS),
    HB(SELECT, "compact.flags_off", CP_PRED_FLAGS, CP_FLAGS_OFF),
    H_(SELECT, "compact.indices", CP_INDICES),
    HB(SELECT, "compact.indices_off", CP_INDICES, CP_INDICES_OFF),
    RF(SELECT, "compact.indices_off", S_NONE, CP_INDICES_OFF, "desc->indices_off"),
    RF(SELECT, "compact.reverse_rejected", S_NONE, CP_REVERSE,
       "desc->reverse_rejected: partition only"),

    PREDICATE_ROWS(PARTITION),
    HB(PARTITION, "compact.flags", CP_PRED_FLAGS, CP_FLAGS),
    HB(PARTITION, "compact.flags_off", CP_PRED_FLAGS, CP_FLAGS_OFF),
    RF(PARTITION, "compact.indices", S_NONE, CP_INDICES,
       "desc->indices: select only; partition writes no indices"),
    RF(PARTITION, "compact.indices_off", S_NONE, CP_INDICES_OFF, "desc->indices_off"),
    H_(PARTITION, "compact.reverse_rejected", CP_REVERSE),

    NEIGHBOUR_ROWS(UNIQUE, "unique"), NEIGHBOUR_ROWS(RLE, "run-length encoding"),

    PREDICATE_ROWS(SELECT_HOST), /* the flags come as host_flags: desc->flags refused */
    RF(SELECT_HOST, "compact.flags", CP_PRED_FLAGS, CP_FLAGS, "desc->flags: clprim_select_host"),
    RF(SELECT_HOST, "compact.flags_off", CP_PRED_FLAGS, CP_FLAGS_OFF, "desc->flags_off"),
    RF(SELECT_HOST, "compact.indices", S_NONE, CP_INDICES, "desc->indices: clprim_select_host"),
    RF(SELECT_HOST, "compact.indices_off", S_NONE, CP_INDICES_OFF, "desc->indices_off"),
    RF(SELECT_HOST, "compact.reverse_rejected", S_NONE, CP_REVERSE, "desc->reverse_rejected"),

    PREDICATE_ROWS(MULTI_SELECT),
    HB(MULTI_SELECT, "compact.flags", CP_PRED_FLAGS, CP_FLAGS),
    HB(MULTI_SELECT, "compact.flags_off", CP_PRED_FLAGS, CP_FLAGS_OFF),
    RF(MULTI_SELECT, "compact.indices", S_NONE, CP_INDICES, "desc->indices"),
    RF(MULTI_SELECT, "compact.indices_off", S_NONE, CP_INDICES_OFF, "desc->indices_off"),
    RF(MULTI_SELECT, "compact.reverse_rejected", S_NONE, CP_REVERSE, "desc->reverse_rejected"),
    RF(MULTI_SELECT, "part.flags", S_NONE, PT_FLAGS, "flags"),
    RF(MULTI_SELECT, "part.flags_off", CP_PRED_FLAGS, PT_FLAGS_OFF, "without parts[k].flags"),
    PART_ROWS(MULTI_SCAN, 0, 0), PART_ROWS(MULTI_REDUCE, 0, 1), PART_ROWS(MULTI_SELECT, 1, 0),

    SAT_ROWS(SAT), SAT_ROWS(SAT_HOST), BOX_ROWS(BOX), BOX_ROWS(BOX_HOST),

    SORT_ROWS(SORT), SORT_ROWS(SORT_HOST),
    H_(SPLIT, "sort.key_type", SO_KEY), H_(SPLIT, "sort.value_size", SO_VS),
    H_(SPLIT, "sort.descending", SO_DESC),
    RF(SPLIT, "sort.begin_bit", S_NONE, SO_BEGIN, "desc->begin_bit: clprim_split"),
    RF(SPLIT, "sort.end_bit", S_NONE, SO_END, "desc->end_bit: clprim_split"),
    RF(SPLIT, "sort.algorithm", S_NONE, SO_ALGO, "desc->algorithm: clprim_split"),
    RF(SPLIT, "sort.scratch", S_NONE, SO_SCRATCH, "desc->scratch: clprim_split"),
    RF(SPLIT, "sort.scratch_size", S_NONE, SO_SCRATCH_SIZE, "desc->scratch_size"),
    H_(SORT_SCRATCH, "sort.key_type", SO_KEY), H_(SORT_SCRATCH, "sort.value_size", SO_VS),
    QY(SORT_SCRATCH, "sort.descending", S_NONE, SO_DESC),
    QY(SORT_SCRATCH, "sort.begin_bit", SO_END32, SO_BEGIN),
    QY(SORT_SCRATCH, "sort.end_bit", S_NONE, SO_END),
    H_(SORT_SCRATCH, "sort.algorithm", SO_ALGO),
    QY(SORT_SCRATCH, "sort.scratch", S_NONE, SO_SCRATCH),
    QY(SORT_SCRATCH, "sort.scratch_size", S_NONE, SO_SCRATCH_SIZE),
    SEG_SORT_ROWS(SEG_SORT, 0), SEG_SORT_ROWS(SEG_SORT_HOST, 1),
    SEARCH_ROWS(LOWER), SEARCH_ROWS(UPPER), SEARCH_ROWS(LOWER_HOST), SEARCH_ROWS(UPPER_HOST),
    HIST_ROWS(HIST, 0), HIST_ROWS(HIST_HOST, 1),
    MERGE_ROWS(MERGE), MERGE_ROWS(MERGE_HOST),
    TOPK_ROWS(TOPK), TOPK_ROWS(TOPK_HOST),
};

#define ROWS (sizeof table / sizeof table[0])

/* ---- what the calls run on ---- */

static clprim_context *ctx, *wctx, *other;
static clprim_device_info info;
static cl_command_queue q, q2;
static clprim_operator *xor_op, *xor_op2, *xor_other;
static clprim_element *short_el, *short_el2, *short_other;
static cl_mem in_buf, in2_buf, seg_a, seg_b, offs_buf, flag_a, flag_b, init_buf, sort_kin,
    sort_vin, soffs_a, soffs_b, search_keys, hist_edges;
/* poisoned before every run */
static cl_mem out_a, out_b, out_c, idx_buf, cnt_buf, keys_o, lens_buf, scratch, sort_ko, sort_vo;
static size_t scratch_bytes;
static cl_int hx[2 * N];
static unsigned char hseg[N * 8], hflags[N + 8], hout[BUF], hkeys[BUF];
static cl_int hoffs[8] = {0, 20, 50, N, N};
static cl_int hskeys[N]; /* the searches' keys: N / 2 negative ones, then the rest, ascending */
static cl_int hedges[40]; /* the histogram's edges, ascending */
/* the segmented sort's offsets (3 segments and an empty 4th), from element
 * SOFF of their type: as int32 from word SOFF, as int64 from word 2 * SOFF
 * (other cuts: the type row), as int32 from word SOFF2 (the off row);
 * sort_offsets() writes them. soffs_a holds them, soffs_b other inner cuts
 * (the mem row); both are NS * 8 bytes, so that kind KEYS passes the buffer
 * checks and meets the call's kind refusal. The host helper gets soffs_a's
 * array from the same element of its type (with off 0). */
#define SOFF 6
#define SOFF2 22
static cl_long sort_offs[14];
static cl_int *const soffs32 = (cl_int *)sort_offs;
static const cl_long zero8 = 0, three8 = 3, init_value = 100;
static unsigned char *hk, *hk_run; /* sort keys (NS * 8 bytes), a copy per run */
static cl_uint *hv, *hv_run;
static clprim_transform tf;

typedef struct setup {
    int call;
    clprim_scan_desc scan;
    clprim_reduce_desc reduce;
    clprim_segments seg;
    clprim_compact_desc cd;
    clprim_sat_desc sat;
    clprim_box_desc box;
    clprim_sort_desc sort;
    clprim_search_desc search;
    clprim_histogram_desc hist;
    clprim_merge_desc merge;
    clprim_top_k_desc topk;
    clprim_part part[2];
} setup;

static int is_host_seg(int c)
{
    return c == C_SEG_SCAN_HOST || c == C_SEG_REDUCE_HOST || c == C_SEG_SORT_HOST;
}
static int is_sort_seg(int c) { return c == C_SEG_SORT || c == C_SEG_SORT_HOST; }
static int is_seg(int c) { return calls[c].descs & D_SEG; }

static void defaults(setup *s, int call)
{
    memset(s, 0, sizeof *s);
    s->call = call;
    tf.input = CLPRIM_TYPE_INT32;
    tf.expression = "x * 3";
    if (is_seg(call) && !is_host_seg(call))
        s->seg.mem = is_sort_seg(call) ? soffs_a : seg_a;
    if (is_sort_seg(call)) { /* int32 offsets */
        s->seg.kind = CLPRIM_SEGMENTS_OFFSETS;
        s->seg.num_segments = 3;
        s->seg.off = is_host_seg(call) ? 0 : SOFF;
    }
    if (call == C_SELECT || call == C_PARTITION || call == C_SELECT_HOST || call == C_MULTI_SELECT)
        s->cd.value = &zero8; /* x < 0: negatives kept */
    s->search.index_type = CLPRIM_TYPE_UINT32; /* 0 (int32) holds no positions */
    s->hist.sample_type = CLPRIM_PIXEL_INT32; /* 0 (SAME) is no sample type */
    s->hist.count_type = CLPRIM_TYPE_UINT32;  /* 0 (int32) is no count type */
    s->hist.bins = 16;
    s->hist.lower = -8;
    s->hist.upper = 8;
    if (calls[call].descs & D_PART) {
        const clprim_part p0 = {ctx, NULL, in_buf, 0, out_a, 0, N / 2, NULL, NULL, NULL, 0};
        const clprim_part p1 = {ctx, NULL, in_buf, N / 2, out_b, 0, N / 2, NULL, NULL, NULL, 0};
        s->part[0] = p0;
        s->part[1] = p1;
        if (call == C_MULTI_REDUCE) /* a reduce writes no part: out is refused there */
            s->part[0].out = s->part[1].out = NULL;
    }
}

static void apply(setup *s, enum setting v)
{
    clprim_part *p = &s->part[1];
    switch (v) {
    case S_NONE: break;
    case SC_TYPE: s->scan.type = s->reduce.type = CLPRIM_TYPE_INT64; break;
    case SC_OP: s->scan.op = s->reduce.op = CLPRIM_OP_MAX; break;
    case SC_EXCL: s->scan.exclusive = 1; break;
    case SC_ALGO:
        s->scan.algorithm = CLPRIM_SCAN_KOGGE_STONE;
        s->reduce.algorithm = CLPRIM_REDUCE_NAIVE_TREE;
        break;
    case SC_ALGO_DL: s->scan.algorithm = CLPRIM_SCAN_DECOUPLED_LOOKBACK; break;
    case SC_ALGO_BAD:
        s->scan.algorithm = (clprim_scan_algorithm)99;
        s->reduce.algorithm = (clprim_reduce_algorithm)99;
        break;
    case SC_CUSTOM: s->scan.custom = s->reduce.custom = xor_op; break;
    case SC_REPRO: s->scan.repro = s->reduce.repro = CLPRIM_REPRO_PORTABLE; break;
    case SC_REPRO_BAD: s->scan.repro = s->reduce.repro = (clprim_repro)99; break;
    case SC_TF: s->scan.transform = s->reduce.transform = &tf; break;
    case TF_INPUT: tf.input = CLPRIM_TYPE_INT64; break;
    case TF_EXPR: tf.expression = "x * 5"; break;
    case SG_KEYS: /* int32 keys: seg_a's bytes (num_segments cleared after OFFSETS) */
        s->seg.kind = CLPRIM_SEGMENTS_KEYS;
        s->seg.num_segments = 0;
        break;
    case SG_OFFSETS:
        s->seg.kind = CLPRIM_SEGMENTS_OFFSETS;
        s->seg.num_segments = 3; /* {0, 20, 50, N} */
        if (!is_host_seg(s->call))
            s->seg.mem = offs_buf;
        break;
    case SG_MEM: s->seg.mem = is_sort_seg(s->call) ? soffs_b : seg_b; break;
    case SG_OFF: s->seg.off = is_sort_seg(s->call) ? SOFF2 : 3; break;
    case SG_TYPE: s->seg.type = CLPRIM_TYPE_INT64; break;
    case SG_KEY_EL: s->seg.key_element = short_el; break;
    case SG_NUMSEG: s->seg.num_segments = 4; break; /* offsets[4] is N too: an empty segment */
    case SG_NUMSEG_BAD: s->seg.num_segments = SIZE_MAX; break;
    case CP_TYPE: s->cd.type = CLPRIM_TYPE_INT64; break;
    case CP_ELEMENT: s->cd.element = short_el; break;
    case CP_PRED_GT: s->cd.predicate = CLPRIM_PREDICATE_GREATER; break;
    case CP_VALUE: s->cd.value = &three8; break;
    case CP_PRED_FLAGS:
        s->cd.predicate = CLPRIM_PREDICATE_FLAGS_U8;
        s->cd.value = NULL;
        if (s->call != C_SELECT_HOST) /* it takes host_flags */
            s->cd.flags = flag_a;
        break;
    case CP_FLAGS: s->cd.flags = s->cd.flags ? flag_b : flag_a; break;
    case CP_FLAGS_OFF: s->cd.flags_off = 2; break;
    case CP_PRED_EXPR:
        s->cd.predicate = CLPRIM_PREDICATE_EXPRESSION;
        s->cd.value = NULL;
        s->cd.expression = "x > 0";
        break;
    case CP_EXPR: s->cd.expression = "x < 2"; break;
    case CP_ALGO: s->cd.algorithm = CLPRIM_COMPACT_THREE_PASS; break;
    case CP_ALGO_BAD: s->cd.algorithm = (clprim_compact_algorithm)99; break;
    case CP_INDICES: s->cd.indices = idx_buf; break;
    case CP_INDICES_OFF: s->cd.indices_off = 2; break;
    case CP_REVERSE: s->cd.reverse_rejected = 1; break;
    case ST_TYPE: s->sat.type = CLPRIM_TYPE_INT64; break;
    case ST_OP: s->sat.op = CLPRIM_OP_MAX; break;
    case ST_CUSTOM: s->sat.custom = xor_op; break;
    case ST_INPUT: s->sat.input = CLPRIM_PIXEL_UINT8; break;
    case ST_EXCL: s->sat.exclusive = 1; break;
    case ST_ALGO: s->sat.algorithm = CLPRIM_SAT_ROWS_THEN_COLUMNS; break;
    case ST_ALGO_BAD: s->sat.algorithm = (clprim_sat_algorithm)99; break;
    case ST_REPRO: s->sat.repro = CLPRIM_REPRO_PORTABLE; break;
    case ST_REPRO_BAD: s->sat.repro = (clprim_repro)99; break;
    case BX_TYPE: s->box.type = CLPRIM_TYPE_INT64; break;
    case BX_FROM_IMAGE: s->box.from_image = 1; break;
    case BX_INPUT: s->box.input = CLPRIM_PIXEL_UINT8; break;
    case BX_RX: s->box.radius_x = 2; break;
    case BX_RY: s->box.radius_y = 1; break;
    case BX_SUM: s->box.sum = 1; break;
    case SO_KEY: s->sort.key_type = CLPRIM_TYPE_UINT64; break;
    case SO_VS: s->sort.value_size = 4; break;
    case SO_DESC: s->sort.descending = 1; break;
    case SO_BEGIN: s->sort.begin_bit = 4; break;
    case SO_END: s->sort.end_bit = 8; break;
    case SO_END32: s->sort.end_bit = 32; break;
    case SO_ALGO: s->sort.algorithm = CLPRIM_SORT_TILE_BITONIC; break;
    case SO_ALGO_BAD: s->sort.algorithm = (clprim_sort_algorithm)99; break;
    case SO_SCRATCH:
        s->sort.scratch = scratch;
        s->sort.scratch_size = scratch_bytes;
        break;
    case SO_SCRATCH_SIZE: s->sort.scratch_size = scratch_bytes; break;
    case SE_KEY: s->search.key_type = CLPRIM_TYPE_UINT32; break;
    case SE_KEY_BAD: s->search.key_type = (clprim_type)77; break;
    case SE_DESC: s->search.descending = 1; break;
    case SE_INDEX: s->search.index_type = CLPRIM_TYPE_UINT64; break;
    case SE_INDEX_BAD: s->search.index_type = CLPRIM_TYPE_INT64; break;
    case SE_ALGO: s->search.algorithm = CLPRIM_SEARCH_BINARY; break;
    case SE_ALGO_BAD: s->search.algorithm = (clprim_search_algorithm)99; break;
    case HI_TYPE: s->hist.sample_type = CLPRIM_PIXEL_INT16; break;
    case HI_TYPE_BAD: s->hist.sample_type = CLPRIM_PIXEL_SAME; break;
    case HI_COUNT: s->hist.count_type = CLPRIM_TYPE_UINT64; break;
    case HI_COUNT_BAD: s->hist.count_type = CLPRIM_TYPE_FLOAT; break;
    case HI_BINS: s->hist.bins = 8; break;
    case HI_BINS_BAD: s->hist.bins = 0; break;
    case HI_LOWER: s->hist.lower = -4; break;
    case HI_LOWER_BAD: s->hist.lower = 0.5; break;
    case HI_UPPER: s->hist.upper = 4; break;
    case HI_UPPER_BAD: s->hist.upper = -9; break;
    case HI_EDGES: /* custom edges: the bounds 0 */
        s->hist.edges = hist_edges;
        s->hist.lower = s->hist.upper = 0;
        break;
    case HI_EDGES_OFF: s->hist.edges_off = 5; break;
    case HI_ACC: s->hist.accumulate = 1; break;
    case HI_ACC_BAD: s->hist.accumulate = 2; break;
    case HI_ALGO: s->hist.algorithm = CLPRIM_HISTOGRAM_GLOBAL; break;
    case HI_ALGO_BAD: s->hist.algorithm = (clprim_histogram_algorithm)99; break;
    case MG_KEY: s->merge.key_type = CLPRIM_TYPE_UINT32; break;
    case MG_KEY_BAD: s->merge.key_type = (clprim_type)77; break;
    case MG_DESC: s->merge.descending = 1; break;
    case MG_ELEMENT: /* shorts in ascending order of the caller's less */
        s->merge.element = short_el;
        s->merge.less = s->merge.less ? s->merge.less : "a < b";
        break;
    case MG_LESS: s->merge.less = "a > b"; break;
    case MG_VS: s->merge.value_size = 4; break;
    case MG_VS_BAD: s->merge.value_size = 65; break;
    case MG_ALGO: s->merge.algorithm = CLPRIM_MERGE_CORANK; break;
    case MG_ALGO_BAD: s->merge.algorithm = (clprim_merge_algorithm)99; break;
    case TK_KEY: s->topk.key_type = CLPRIM_TYPE_UINT32; break;
    case TK_KEY_BAD: s->topk.key_type = (clprim_type)77; break;
    case TK_VS: s->topk.value_size = 4; break;
    case TK_VS_BAD: s->topk.value_size = 65; break;
    case TK_LARGEST: s->topk.largest = 1; break;
    case TK_LARGEST_BAD: s->topk.largest = 2; break;
    case TK_SORTED: s->topk.sorted = 1; break;
    case TK_SORTED_BAD: s->topk.sorted = -1; break;
    case TK_ALGO: s->topk.algorithm = CLPRIM_TOP_K_SORT; break;
    case TK_ALGO_BAD: s->topk.algorithm = (clprim_top_k_algorithm)99; break;
    case PT_CTX: p->ctx = wctx; break; /* the same cl_context and device */
    case PT_CTX_BAD: p->ctx = NULL; break;
    case PT_QUEUE: p->queue = q2; break;
    case PT_QUEUE_BAD: p->queue = clprim_context_queue(other); break;
    case PT_IN: p->in = in2_buf; break;
    case PT_IN_OFF: p->in_off += 7; break;
    case PT_OUT: p->out = out_c; break;
    case PT_OUT_OFF: p->out_off = 4; break;
    case PT_N: p->n -= 10; break;
    case PT_CUSTOM: p->custom = xor_op2; break;
    case PT_CUSTOM_BAD: p->custom = xor_other; break;
    case PT_ELEMENT: p->element = short_el2; break;
    case PT_ELEMENT_BAD: p->element = short_other; break;
    case PT_FLAGS: p->flags = flag_b; break;
    case PT_FLAGS_OFF: p->flags_off = 3; break;
    }
}

/* ---- one run: status, and every byte the call may have written ---- */

typedef struct output {
    unsigned char *p;
    size_t len, cap;
} output;

static void put(output *o, const void *src, size_t bytes)
{
    if (o->len + bytes > o->cap) {
        o->cap = (o->len + bytes) * 2;
        o->p = realloc(o->p, o->cap);
        assert_non_null(o->p);
    }
    memcpy(o->p + o->len, src, bytes);
    o->len += bytes;
}

static void grab(output *o, cl_mem m)
{
    size_t bytes = 0;
    unsigned char *tmp;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof bytes, &bytes, NULL), CL_SUCCESS);
    tmp = malloc(bytes);
    assert_non_null(tmp);
    assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL), CL_SUCCESS);
    put(o, tmp, bytes);
    free(tmp);
}

static void poison(cl_mem m)
{
    const unsigned char p = POISON;
    size_t bytes = 0;
    clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    assert_int_equal(clEnqueueFillBuffer(q, m, &p, 1, 0, bytes, 0, NULL, NULL), CL_SUCCESS);
}

static const void *host_segments(const setup *s)
{
    if (is_sort_seg(s->call)) /* another kind reads n entries: hk has them */
        return s->seg.kind != CLPRIM_SEGMENTS_OFFSETS
                   ? (const void *)hk
                   : (const void *)((const char *)sort_offs + SOFF * clprim_type_size(s->seg.type));
    return s->seg.kind == CLPRIM_SEGMENTS_OFFSETS ? (const void *)hoffs : (const void *)hseg;
}

static clprim_status run_call(const setup *s, output *o)
{
    cl_mem written[] = {out_a, out_b, out_c, idx_buf, cnt_buf, keys_o, lens_buf, scratch,
                        sort_ko, sort_vo};
    const size_t vs = s->sort.value_size;
    size_t count = (size_t)-1, counts[2] = {9, 9}, offsets[2] = {9, 9}, bytes = 0;
    clprim_status st = CLPRIM_INTERNAL;
    size_t i;

    for (i = 0; i < sizeof written / sizeof written[0]; ++i)
        poison(written[i]);
    memset(hout, POISON, sizeof hout);
    memset(hkeys, POISON, sizeof hkeys);
    memcpy(hk_run, hk, (size_t)NS * 8);
    memcpy(hv_run, hv, (size_t)NS * 4);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    clprim_context_set_error(ctx, CLPRIM_SUCCESS, "");
    clprim_context_set_error(wctx, CLPRIM_SUCCESS, "");
    o->len = 0;

    switch (s->call) {
    case C_SCAN:
        st = clprim_scan(ctx, NULL, &s->scan, in_buf, 0, out_a, 0, N, 0, NULL, NULL);
        break;
    case C_SCAN_HOST: st = clprim_scan_host(ctx, &s->scan, hx, hout, N); break;
    case C_SCAN_INIT:
        st = clprim_scan_init(ctx, NULL, &s->scan, init_buf, 0, in_buf, 0, out_a, 0, N, 0, NULL,
                              NULL);
        break;
    case C_SCAN_INIT_HOST:
        st = clprim_scan_init_host(ctx, &s->scan, &init_value, hx, hout, N);
        break;
    case C_REDUCE:
        st = clprim_reduce(ctx, NULL, &s->reduce, in_buf, 0, N, out_a, 0, 0, NULL, NULL);
        break;
    case C_SCAN_TILES: /* N is one tile: init_buf holds its carry */
        st = clprim_scan_tiles(ctx, NULL, &s->scan, init_buf, 0, in_buf, 0, out_a, 0, N, 0, NULL,
                               NULL);
        break;
    case C_REDUCE_TILES:
        st = clprim_reduce_tiles(ctx, NULL, &s->reduce, in_buf, 0, N, out_a, 0, 0, NULL, NULL);
        break;
    case C_REDUCE_VALUE: st = clprim_reduce_value(ctx, &s->reduce, in_buf, 0, N, hout); break;
    case C_REDUCE_HOST: st = clprim_reduce_host(ctx, &s->reduce, hx, N, hout); break;
    case C_SEG_SCAN:
        st = clprim_segmented_scan(ctx, NULL, &s->scan, &s->seg, in_buf, 0, out_a, 0, N, 0, NULL,
                                   NULL);
        break;
    case C_SEG_SCAN_HOST:
        st = clprim_segmented_scan_host(ctx, &s->scan, &s->seg, host_segments(s), hx, hout, N);
        break;
    case C_SEG_REDUCE:
        st = clprim_segmented_reduce(ctx, NULL, &s->reduce, &s->seg, in_buf, 0, N, out_a, 0,
                                     s->seg.kind == CLPRIM_SEGMENTS_KEYS ? keys_o : NULL, 0,
                                     cnt_buf, 0, 0, NULL, NULL);
        break;
    case C_SEG_REDUCE_HOST:
        st = clprim_segmented_reduce_host(ctx, &s->reduce, &s->seg, host_segments(s), hx, N, hout,
                                          hkeys, &count);
        break;
    case C_SELECT:
        st = clprim_select(ctx, NULL, &s->cd, in_buf, 0, out_a, 0, N, cnt_buf, 0, 0, NULL, NULL);
        break;
    case C_PARTITION:
        st = clprim_partition(ctx, NULL, &s->cd, in_buf, 0, out_a, 0, N, cnt_buf, 0, 0, NULL, NULL);
        break;
    case C_UNIQUE:
        st = clprim_unique(ctx, NULL, &s->cd, in_buf, 0, out_a, 0, N, cnt_buf, 0, 0, NULL, NULL);
        break;
    case C_RLE:
        st = clprim_run_length_encode(ctx, NULL, &s->cd, in_buf, 0, out_a, 0, lens_buf, 0, N,
                                      cnt_buf, 0, 0, NULL, NULL);
        break;
    case C_SELECT_HOST:
        st = clprim_select_host(ctx, &s->cd, hx,
                                s->cd.predicate == CLPRIM_PREDICATE_FLAGS_U8 ? hflags : NULL, hout,
                                N, &count);
        break;
    case C_SAT:
        st = clprim_sat(ctx, NULL, &s->sat, in_buf, 0, W, out_a, 0, W + 1, W, H, 0, NULL, NULL);
        break;
    case C_SAT_HOST: st = clprim_sat_host(ctx, &s->sat, hx, W, hout, W + 1, W, H); break;
    case C_BOX:
        st = clprim_box_filter(ctx, NULL, &s->box, in_buf, 0, W + 1, out_a, 0, W, W, H, 0, NULL,
                               NULL);
        break;
    case C_BOX_HOST:
        st = clprim_box_filter_host(ctx, &s->box, hx, W + 1, (float *)hout, W, W, H);
        break;
    case C_SORT:
        st = clprim_sort(ctx, NULL, &s->sort, sort_kin, 0, sort_ko, 0, vs ? sort_vin : NULL, 0,
                         vs ? sort_vo : NULL, 0, NS, 0, NULL, NULL);
        break;
    case C_SORT_HOST: st = clprim_sort_host(ctx, &s->sort, hk_run, vs ? hv_run : NULL, NS); break;
    case C_SPLIT:
        st = clprim_split(ctx, NULL, &s->sort, 3, sort_kin, 0, sort_ko, 0, vs ? sort_vin : NULL, 0,
                          vs ? sort_vo : NULL, 0, NS, cnt_buf, 0, 0, NULL, NULL);
        break;
    case C_SORT_SCRATCH: st = clprim_sort_scratch_size(ctx, &s->sort, NS, &bytes); break;
    case C_SEG_SORT:
        st = clprim_segmented_sort(ctx, NULL, &s->sort, &s->seg, sort_kin, 0, sort_ko, 0,
                                   vs ? sort_vin : NULL, 0, vs ? sort_vo : NULL, 0, NS, 0, NULL,
                                   NULL);
        break;
    case C_SEG_SORT_HOST:
        st = clprim_segmented_sort_host(ctx, &s->sort, &s->seg, host_segments(s), hk_run,
                                        vs ? hv_run : NULL, NS);
        break;
    case C_LOWER:
    case C_UPPER:
        st = (s->call == C_LOWER ? clprim_lower_bound : clprim_upper_bound)(
            ctx, NULL, &s->search, search_keys, 0, N, in_buf, 0, N, out_a, 0, 0, NULL, NULL);
        break;
    case C_LOWER_HOST:
    case C_UPPER_HOST:
        st = (s->call == C_LOWER_HOST ? clprim_lower_bound_host : clprim_upper_bound_host)(
            ctx, &s->search, hskeys, N, hx, N, hout);
        break;
    case C_HIST:
        st = clprim_histogram(ctx, NULL, &s->hist, in_buf, 0, N, out_a, 0, 0, NULL, NULL);
        break;
    case C_HIST_HOST: /* accumulated onto the poisoned host counts */
        st = clprim_histogram_host(ctx, &s->hist, hx, N, NULL, hout);
        break;
    case C_MERGE: {
        const size_t mv = s->merge.value_size;
        st = clprim_merge(ctx, NULL, &s->merge, search_keys, 0, N / 2, search_keys, N / 2, N / 2,
                          mv ? in_buf : NULL, 0, mv ? in_buf : NULL, mv ? N / 2 : 0, out_a, 0,
                          mv ? out_b : NULL, 0, 0, NULL, NULL);
        break;
    }
    case C_MERGE_HOST: {
        const int mv = s->merge.value_size != 0;
        st = clprim_merge_host(ctx, &s->merge, hskeys, mv ? hx : NULL, N / 2, hskeys + N / 2,
                               mv ? hx + N / 2 : NULL, N / 2, hout, mv ? hkeys : NULL);
        break;
    }
    case C_TOPK: /* the 100 smallest (largest) of N keys, their values from the input's second half */
        st = clprim_top_k(ctx, NULL, &s->topk, in_buf, 0, s->topk.value_size ? in_buf : NULL, N,
                          N, 100, out_a, 0, s->topk.value_size ? out_b : NULL, 0, 0, NULL, NULL);
        break;
    case C_TOPK_HOST:
        st = clprim_top_k_host(ctx, &s->topk, hx, s->topk.value_size ? hx + N : NULL, N, 100,
                               hout, s->topk.value_size ? hkeys : NULL);
        break;
    case C_MULTI_SCAN: st = clprim_multi_scan(&s->scan, s->part, 2); break;
    case C_MULTI_REDUCE: st = clprim_multi_reduce(&s->reduce, s->part, 2, hout); break;
    case C_MULTI_SELECT:
        st = clprim_multi_select(&s->cd, s->part, 2, counts, offsets, &count);
        break;
    }
    assert_int_equal(clFinish(q), CL_SUCCESS);
    assert_int_equal(clFinish(q2), CL_SUCCESS);
    if (st != CLPRIM_SUCCESS)
        return st;
    for (i = 0; i < sizeof written / sizeof written[0]; ++i)
        grab(o, written[i]);
    put(o, hout, sizeof hout);
    put(o, hkeys, sizeof hkeys);
    put(o, hk_run, (size_t)NS * 8);
    put(o, hv_run, (size_t)NS * 4);
    put(o, &count, sizeof count);
    put(o, counts, sizeof counts);
    put(o, offsets, sizeof offsets);
    put(o, &bytes, sizeof bytes);
    return st;
}

/* Runs the call with the row's base and `extra`; the message of a failure
 * (from the context, or the wrapped one a part may use) into msg. */
static clprim_status run_row(const row *r, enum setting extra, output *o, char *msg, size_t size)
{
    setup s;
    clprim_status st;
    defaults(&s, r->call);
    apply(&s, r->base[0]);
    apply(&s, r->base[1]);
    apply(&s, extra);
    st = run_call(&s, o);
    msg[0] = '\0';
    if (st != CLPRIM_SUCCESS) {
        size_t len = clprim_context_last_error(ctx, msg, size);
        if (len + 4 < size) {
            strcat(msg, " | ");
            clprim_context_last_error(wctx, msg + strlen(msg), size - strlen(msg));
        }
    }
    return st;
}

static int skipped(const row *r)
{
    /* segmented scans and reduces need the single pass (the sort does not) */
    return is_seg(r->call) && !is_sort_seg(r->call) && !info.has_single_pass;
}

/* ---- the tests ---- */

/* Each descriptor's size as the table knows it (LP64): a field added or
 * removed changes it, and then its rows must be written. */
static void test_sizes(void **state)
{
    size_t d;
    (void)state;
    if (sizeof(void *) != 8 || sizeof(size_t) != 8)
        skip();
    for (d = 0; d < sizeof descs / sizeof descs[0]; ++d)
        if (descs[d].size != descs[d].lp64)
            fail_msg("sizeof(%s) is %zu, the table knows %zu: a field was added or removed; list "
                     "it in %s_fields and give it rows for every call that takes a %s",
                     descs[d].type, descs[d].size, descs[d].lp64, descs[d].prefix, descs[d].type);
}

/* Every field of every descriptor of every call has a row, and every row
 * names a field of a descriptor its call takes. */
static void test_coverage(void **state)
{
    int c, missing = 0;
    size_t d, f, k;
    (void)state;
    for (c = 0; c < CALL_COUNT; ++c)
        for (d = 0; d < sizeof descs / sizeof descs[0]; ++d) {
            if (!(calls[c].descs & descs[d].bit))
                continue;
            for (f = 0; descs[d].fields[f]; ++f) {
                char name[64];
                int found = 0;
                snprintf(name, sizeof name, "%s.%s", descs[d].prefix, descs[d].fields[f]);
                for (k = 0; k < ROWS && !found; ++k)
                    found = table[k].call == c && !strcmp(table[k].field, name);
                if (!found) {
                    printf("no row: %s, %s\n", calls[c].name, name);
                    ++missing;
                }
            }
        }
    for (k = 0; k < ROWS; ++k) {
        const char *dot = strchr(table[k].field, '.');
        int ok = 0;
        for (d = 0; dot && d < sizeof descs / sizeof descs[0]; ++d)
            if ((calls[table[k].call].descs & descs[d].bit) &&
                !strncmp(table[k].field, descs[d].prefix, (size_t)(dot - table[k].field)) &&
                strlen(descs[d].prefix) == (size_t)(dot - table[k].field))
                for (f = 0; descs[d].fields[f]; ++f)
                    ok |= !strcmp(dot + 1, descs[d].fields[f]);
        if (!ok || (table[k].expect == READ && table[k].bad == S_NONE) ||
            (table[k].expect == QUERY && table[k].call != C_SORT_SCRATCH)) {
            printf("row %zu (%s, %s) is malformed\n", k, calls[table[k].call].name, table[k].field);
            ++missing;
        }
    }
    if (missing)
        fail_msg("%d (call, field) pairs without a row, or bad rows", missing);
}

static void test_table(void **state)
{
    output base = {NULL, 0, 0}, field = {NULL, 0, 0};
    char bmsg[4096], fmsg[4096];
    int failures = 0, skips = 0, counts[4] = {0};
    size_t k;
    struct timespec t0, t1;
    (void)state;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (k = 0; k < ROWS; ++k) {
        const row *r = &table[k];
        clprim_status bst, fst;
        int same, bad = 0;
        struct timespec r0, r1;
        clock_gettime(CLOCK_MONOTONIC, &r0);
        if (skipped(r)) {
            ++skips;
            continue;
        }
        bst = run_row(r, S_NONE, &base, bmsg, sizeof bmsg);
        fst = run_row(r, r->set, &field, fmsg, sizeof fmsg);
        same = bst == CLPRIM_SUCCESS && fst == CLPRIM_SUCCESS && base.len == field.len &&
               !memcmp(base.p, field.p, base.len);
        ++counts[r->expect];
        if (bst != CLPRIM_SUCCESS) {
            printf("FAIL %s %s: the base call fails: %s: %s\n", calls[r->call].name, r->field,
                   clprim_status_string(bst), bmsg);
            ++failures;
            continue;
        }
        switch (r->expect) {
        case HONOURED:
            if (fst != CLPRIM_SUCCESS)
                printf("FAIL %s %s: expected honoured, refused: %s: %s\n", calls[r->call].name,
                       r->field, clprim_status_string(fst), fmsg), bad = 1;
            else if (same)
                printf("FAIL %s %s: accepted but ignored (output unchanged)\n",
                       calls[r->call].name, r->field), bad = 1;
            break;
        case REFUSED:
            if (fst == CLPRIM_SUCCESS)
                printf("FAIL %s %s: expected refused, %s\n", calls[r->call].name, r->field,
                       same ? "accepted and ignored" : "accepted"), bad = 1;
            else if (!strstr(fmsg, r->needle))
                printf("FAIL %s %s: refused (%s) with \"%s\", which does not say \"%s\"\n",
                       calls[r->call].name, r->field, clprim_status_string(fst), fmsg, r->needle),
                    bad = 1;
            break;
        case READ:
            if (fst != CLPRIM_SUCCESS || !same)
                printf("FAIL %s %s: expected the same output: %s %s\n", calls[r->call].name,
                       r->field, clprim_status_string(fst), fmsg), bad = 1;
            fst = run_row(r, r->bad, &field, fmsg, sizeof fmsg);
            if (fst == CLPRIM_SUCCESS || !strstr(fmsg, r->needle))
                printf("FAIL %s %s: a bad value is not refused naming \"%s\": %s: %s\n",
                       calls[r->call].name, r->field, r->needle, clprim_status_string(fst), fmsg),
                    bad = 1;
            break;
        case QUERY:
            if (fst != CLPRIM_SUCCESS)
                printf("FAIL %s %s: the size query refuses it: %s\n", calls[r->call].name,
                       r->field, fmsg), bad = 1;
            break;
        }
        failures += bad;
        clock_gettime(CLOCK_MONOTONIC, &r1);
        if (r1.tv_sec - r0.tv_sec >= 2) /* programs built, not found in the caches */
            printf("# slow: %s %s: %ld s\n", calls[r->call].name, r->field,
                   (long)(r1.tv_sec - r0.tv_sec));
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("# %zu rows over %d calls: %d honoured, %d refused, %d read, %d query, %d skipped "
           "(no single pass); %.1f s\n",
           ROWS, CALL_COUNT, counts[HONOURED], counts[REFUSED], counts[READ], counts[QUERY], skips, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    free(base.p);
    free(field.p);
    if (failures)
        fail_msg("%d rows failed", failures);
}

/* ---- set-up ---- */

static cl_mem make(size_t bytes, const void *src)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clprim_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | (src ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              (void *)src, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

/* sort_offs' layout with the inner cuts moved by `shift`, in a buffer of
 * NS * 8 bytes (NULL when out of memory). Cuts: as int32 1000 | 700 |
 * 18300 (longer than a tile), as int64 9 | 12000 | 7991, from SOFF2 5000 |
 * 0 | 15000; an empty 4th segment each. */
static cl_mem sort_offsets(int shift)
{
    const cl_int c32[] = {0, 1000 + shift, 1700 + shift, NS, NS},
                 c2[] = {0, 5000, 5000, NS, NS};
    const cl_long c64[] = {0, 9 + shift, 12009 + shift, NS, NS};
    unsigned char *big = calloc((size_t)NS, 8);
    cl_mem m;
    if (!big)
        return NULL;
    memcpy(soffs32 + SOFF, c32, sizeof c32);
    memcpy(sort_offs + SOFF, c64, sizeof c64);
    memcpy(soffs32 + SOFF2, c2, sizeof c2);
    memcpy(big, sort_offs, sizeof sort_offs);
    m = make((size_t)NS * 8, big);
    free(big);
    return m;
}

static int setup_all(void **state)
{
    const clprim_operator_desc xd = {"int", NULL, "a ^ b", "0", 4, CLPRIM_OPERATOR_COMMUTATIVE,
                                     NULL, 0, NULL};
    const clprim_element_desc sd = {"short", NULL, 2};
    cl_int hx2[2 * N];
    unsigned char fa[N + 8], fb[N + 8], segb[N * 8];
    uint64_t s = 0x5eed;
    clprim_sort_desc big = {CLPRIM_TYPE_UINT64, 4, 0, 0, 0, CLPRIM_SORT_AUTO, NULL, 0};
    size_t i, b;
    (void)state;
    ctx = tu_context();
    other = tu_context();
    clprim_context_device_info(ctx, &info);
    q = clprim_context_queue(ctx);
    if (clprim_context_wrap(clprim_context_cl_context(ctx), clprim_context_device(ctx), NULL, NULL,
                            &wctx) != CLPRIM_SUCCESS)
        return -1;
    q2 = clprim_context_queue(wctx); /* a second queue of ctx's cl_context and device */
    if (clprim_operator_create(ctx, &xd, &xor_op) || clprim_operator_create(ctx, &xd, &xor_op2) ||
        clprim_operator_create(other, &xd, &xor_other) ||
        clprim_element_create(ctx, &sd, &short_el) || clprim_element_create(ctx, &sd, &short_el2) ||
        clprim_element_create(other, &sd, &short_other))
        return -1;
    /* runs of 3 equal values in -6..6 (negatives for select, runs for
     * unique); as int64, as bytes and as shorts they differ too */
    for (i = 0; i < 2 * N; ++i) {
        hx[i] = (cl_int)((i / 3) * 2654435761u % 13) - 6;
        hx2[i] = (cl_int)(tu_rand(&s) % 100) - 50;
    }
    for (i = 0; i < N * 8; ++i) {
        hseg[i] = i < N ? i % 10 == 0 : (unsigned char)tu_rand(&s);
        segb[i] = i < N ? i % 7 == 0 : (unsigned char)tu_rand(&s);
    }
    for (i = 0; i < N + 8; ++i) {
        fa[i] = i % 4 == 0; /* not every 3: the input's runs are 3 long */
        fb[i] = i % 5 == 0;
        hflags[i] = fa[i];
    }
    for (i = 0; i < N; ++i)
        hskeys[i] = (cl_int)i - N / 2;
    search_keys = make(sizeof hskeys, hskeys);
    for (i = 0; i < 40; ++i) /* the histogram's custom edges: -16, -14, ... */
        hedges[i] = 2 * (cl_int)i - 16;
    hist_edges = make(sizeof hedges, hedges);
    in_buf = make(N * 8, hx);
    in2_buf = make(N * 8, hx2);
    seg_a = make(N * 8, hseg);
    seg_b = make(N * 8, segb);
    offs_buf = make(sizeof hoffs, hoffs);
    flag_a = make(N + 8, fa);
    flag_b = make(N + 8, fb);
    init_buf = make(8, &init_value);
    /* sort keys: many ties above bit 4 and in the low byte's top */
    hk = malloc((size_t)NS * 8);
    hk_run = malloc((size_t)NS * 8);
    hv = malloc((size_t)NS * 4);
    hv_run = malloc((size_t)NS * 4);
    if (!hk || !hk_run || !hv || !hv_run)
        return -1;
    /* as uint32 keys, the first NS * 4 bytes: (0..999) << 8 | a random
     * byte, so bits [4, 32) and [0, 8) tie often; as uint64 keys, all */
    for (i = 0; i < 2 * (size_t)NS; ++i) {
        const uint64_t r = tu_rand(&s);
        const cl_uint k = i < NS ? (cl_uint)((r % 1000) << 8 | (r >> 32 & 0xff)) : (cl_uint)r;
        memcpy(hk + 4 * i, &k, 4);
    }
    for (i = 0; i < NS; ++i)
        hv[i] = (cl_uint)i;
    sort_kin = make((size_t)NS * 8, hk);
    /* soffs_b first: sort_offs keeps soffs_a's layout for the host helper */
    soffs_b = sort_offsets(5);
    soffs_a = sort_offsets(0);
    if (!soffs_a || !soffs_b)
        return -1;
    sort_vin = make((size_t)NS * 4, hv);
    /* the largest scratch any sort row needs, twice over */
    for (i = 0; i < 4; ++i) {
        big.algorithm = (clprim_sort_algorithm)i;
        if (i == CLPRIM_SORT_ONESWEEP && !info.has_single_pass)
            continue;
        if (clprim_sort_scratch_size(ctx, &big, NS, &b) != CLPRIM_SUCCESS)
            return -1;
        scratch_bytes = b > scratch_bytes ? b : scratch_bytes;
    }
    scratch_bytes *= 2;
    scratch = make(scratch_bytes, NULL);
    out_a = make(BUF, NULL);
    out_b = make(BUF, NULL);
    out_c = make(BUF, NULL);
    idx_buf = make(BUF, NULL);
    cnt_buf = make(64, NULL);
    keys_o = make(BUF, NULL);
    lens_buf = make(BUF, NULL);
    sort_ko = make((size_t)NS * 8, NULL);
    sort_vo = make((size_t)NS * 4, NULL);
    return 0;
}

static int teardown_all(void **state)
{
    cl_mem all[] = {in_buf, in2_buf, seg_a, seg_b, offs_buf, flag_a, flag_b, init_buf, sort_kin,
                    sort_vin, soffs_a, soffs_b, search_keys, hist_edges, out_a, out_b, out_c, idx_buf, cnt_buf, keys_o, lens_buf, scratch,
                    sort_ko, sort_vo};
    size_t i;
    (void)state;
    clFinish(q);
    for (i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (all[i])
            clReleaseMemObject(all[i]);
    clprim_operator_release(xor_op);
    clprim_operator_release(xor_op2);
    clprim_operator_release(xor_other);
    clprim_element_release(short_el);
    clprim_element_release(short_el2);
    clprim_element_release(short_other);
    free(hk), free(hk_run), free(hv), free(hv_run);
    clprim_context_release(wctx);
    clprim_context_release(other);
    clprim_context_release(ctx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sizes),
                                       cmocka_unit_test(test_coverage),
                                       cmocka_unit_test(test_table)};
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}

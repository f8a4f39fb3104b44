/* SPDX-License-Identifier: MIT */
/* Segmented scan and segmented reduce (by flags, keys or offsets), in one
 * pass over the values with decoupled look-back. Validation, arguments and
 * the enqueue chain are the launch layer's; the contract with the kernels
 * is cl/segment_abi.h. */
#include "internal.h"

#include "common/abi.h"
#include "segment_abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The arguments of one call, for segment_body. */
typedef struct segment_args {
    const clprim_segments *s;
    const clprim_transform *tf; /* the descriptor's transform (NULL: none) */
    int reduce, exclusive, algorithm; /* algorithm: the descriptor's, as int */
    int repro;                        /* the descriptor's clprim_repro */
    int ordered;                      /* RUN_TO_RUN for an inexact element: segment_body's */
    clprim_type type;                 /* the descriptor's element, for repro */
    clprim_op op;
    const clprim_operator *custom;
    cl_mem in, out, keys_out, count;
    size_t in_off, out_off, keys_out_off, count_off, n;
} segment_args;

/* The OpenCL C name of a key or offset type: integers only. */
static const char *integer_cl(clprim_type t)
{
    switch (t) {
    case CLPRIM_TYPE_INT32:
        return "int";
    case CLPRIM_TYPE_UINT32:
        return "uint";
    case CLPRIM_TYPE_INT64:
        return "long";
    case CLPRIM_TYPE_UINT64:
        return "ulong";
    default:
        return NULL;
    }
}

/* Bytes per element of the segments buffer (0: the descriptor is bad). */
size_t clprim__segments_unit(const clprim_segments *s)
{
    switch (s->kind) {
    case CLPRIM_SEGMENTS_FLAGS_U8:
        return 1;
    case CLPRIM_SEGMENTS_FLAGS_U32:
        return 4;
    case CLPRIM_SEGMENTS_KEYS:
        if (s->key_element)
            return clprim_element_size(s->key_element);
        return integer_cl(s->type) ? clprim_type_size(s->type) : 0;
    case CLPRIM_SEGMENTS_OFFSETS:
        return integer_cl(s->type) ? clprim_type_size(s->type) : 0;
    default:
        return 0;
    }
}

/* Elements of the segments buffer a call reads. */
size_t clprim__segments_count(const clprim_segments *s, size_t n)
{
    return s->kind == CLPRIM_SEGMENTS_OFFSETS ? s->num_segments + 1 : n;
}

/* The descriptor of the segments, before the launch layer checks buffers
 * against it (lock not held). */
clprim_status clprim__segments_check(clprim_context *ctx, const clprim_segments *s)
{
    if (!s)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "segments is NULL");
    if ((unsigned)s->kind >= CLPRIM_SEGMENTS_KIND_COUNT_)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "segments->kind %d is not a clprim_segments_kind",
                                     (int)s->kind);
    if (s->kind == CLPRIM_SEGMENTS_KEYS && s->key_element && !clprim__handle_live(s->key_element))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "segments->key_element is not a live element type "
                                     "(released, or not from clprim_element_create)");
    if (s->kind == CLPRIM_SEGMENTS_KEYS && s->key_element && s->key_element->ctx != ctx)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "segments->key_element belongs to another context");
    if ((s->kind == CLPRIM_SEGMENTS_KEYS || s->kind == CLPRIM_SEGMENTS_OFFSETS) &&
        !clprim__segments_unit(s))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "segments->type %d (%s) is not an integer type "
                                     "(int32, uint32, int64 or uint64) for %s",
                                     (int)s->type,
                                     clprim_type_name(s->type) ? clprim_type_name(s->type) : "?",
                                     clprim_segments_kind_name(s->kind));
    /* the fields of the other kinds are refused, not ignored */
    if (s->kind != CLPRIM_SEGMENTS_KEYS && s->key_element)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "segments->key_element: for KEYS only; these are %s",
                                     clprim_segments_kind_name(s->kind));
    if ((s->kind == CLPRIM_SEGMENTS_FLAGS_U8 || s->kind == CLPRIM_SEGMENTS_FLAGS_U32) && s->type)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "segments->type: for KEYS and OFFSETS only; these are %s "
                                     "(leave it 0)", clprim_segments_kind_name(s->kind));
    if (s->kind != CLPRIM_SEGMENTS_OFFSETS && s->num_segments)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "segments->num_segments: for OFFSETS only; these are %s",
                                     clprim_segments_kind_name(s->kind));
    if (s->kind == CLPRIM_SEGMENTS_OFFSETS && s->num_segments >= SIZE_MAX / 8)
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS,
                                     "segments->num_segments %zu is too large", s->num_segments);
    return CLPRIM_SUCCESS;
}

/* The build's defines: segments, mode, tile, and the key or offset type. */
/* Whether the look-back carries (count, value) pairs: a reduce (ranks), an
 * ordered scan (cl/segment_heads.clh). */
static int carries_pairs(const segment_args *a)
{
    return a->reduce || a->ordered;
}

/* A carried (count, value) pair fits two 32-bit halves of split status
 * words: 4-byte built-in values, fewer than 2^32 elements. */
static int reduce_packed(const segment_args *a, const clprim__element *e)
{
    return carries_pairs(a) && e->builtin && e->size == 4 && (cl_ulong)a->n < ((cl_ulong)1 << 32);
}

static char *segment_params(const segment_args *a, const clprim__element *e, unsigned items,
                            unsigned spins, int loop, int ordered, int silent)
{
    const clprim_segments *s = a->s;
    char packed[128];
    /* RUN_TO_RUN: the ordered look-back (NONE's programs unchanged) */
    snprintf(packed, sizeof packed, "%s%s%s%s", reduce_packed(a, e) ? "#define SEG_PACKED 1\n" : "",
             loop ? "#define SEG_LOOP 1\n" : "", ordered ? "#define LB_ORDERED 1\n" : "",
             silent ? "#define LB_TEST_SILENT 1\n" : "");
    if (s->kind == CLPRIM_SEGMENTS_KEYS && s->key_element) {
        const clprim_element *k = s->key_element;
        /* the values' element may be the keys' own: its source is there */
        const char *src = *k->source && strstr(e->defines, k->source) ? "" : k->source;
        return clprim__format("%s\n%s#define SEG_HEADS %d\n#define SEG_REDUCE %d\n#define ITEMS %u\n"
                              "#define LOOKBACK_SPINS %u\n#define KEY_T %s\n#define KEY_SIZE %zu\n"
                              "#define KEY_BUILTIN 0\n",
                              src, packed, (int)s->kind, a->reduce, items, spins, k->type, k->size);
    }
    if (s->kind == CLPRIM_SEGMENTS_KEYS || s->kind == CLPRIM_SEGMENTS_OFFSETS) {
        const int keys = s->kind == CLPRIM_SEGMENTS_KEYS;
        const int sgn = s->type == CLPRIM_TYPE_INT32 || s->type == CLPRIM_TYPE_INT64;
        return clprim__format(keys ? "%s#define SEG_HEADS %d\n#define SEG_REDUCE %d\n#define ITEMS %u\n"
                                     "#define LOOKBACK_SPINS %u\n#define KEY_T %s\n"
                                     "#define KEY_SIZE %zu\n#define KEY_BUILTIN %d\n"
                                   : "%s#define SEG_HEADS %d\n#define SEG_REDUCE %d\n#define ITEMS %u\n"
                                     "#define LOOKBACK_SPINS %u\n#define OFF_T %s\n"
                                     "#define OFF_SIZE %zu\n#define OFF_SIGNED %d\n",
                              packed, (int)s->kind, a->reduce, items, spins, integer_cl(s->type),
                              clprim_type_size(s->type), keys ? 1 : sgn);
    }
    return clprim__format("%s#define SEG_HEADS %d\n#define SEG_REDUCE %d\n#define ITEMS %u\n"
                          "#define LOOKBACK_SPINS %u\n",
                          packed, (int)s->kind, a->reduce, items, spins);
}

/* Bytes of one carried (heads, value) pair of a reduce in the look-back's
 * value slots: 16 for built-in values; for the caller's, a bound that
 * holds whatever alignment the type has (cl/segment_heads.clh). */
static size_t reduce_carry_bytes(const clprim__element *e)
{
    size_t p = 8;
    if (e->builtin)
        return 16;
    while (p < e->size)
        p *= 2;
    return 2 * p;
}

/* The tile state of the look-back: a reduce's (count, value) pair packed
 * in two split words, or in value slots; a scan's element as scan's. */
static clprim_status tile_state(clprim__launch *l, const segment_args *a, size_t tiles,
                                cl_mem *state, cl_uint *generation)
{
    const clprim__element *e = &l->elem;
    const size_t words = reduce_packed(a, e) ? 2 : !carries_pairs(a) && e->builtin ? e->size / 4 : 0;
    return clprim__launch_tile_state(l, tiles, words,
                                     carries_pairs(a) ? reduce_carry_bytes(e) : e->size, 1, state,
                                     generation);
}

/* Offsets: the first segment of every tile, found by a search per tile. */
static clprim_status tile_bounds(clprim__launch *l, clprim__program *prog, const segment_args *a,
                                 cl_ulong tiles, unsigned wg, cl_mem *bounds)
{
    const cl_ulong segs_off = a->s->off, m = a->s->num_segments, n = a->n;
    clprim__pool_buf *buf;
    clprim_status st = clprim__launch_temp(l, (size_t)(tiles + 1) * 8, &buf);
    if (st != CLPRIM_SUCCESS)
        return st;
    *bounds = clprim__pool_mem(buf);
    const clprim__arg args[] = {CLPRIM__ARG(a->s->mem), CLPRIM__ARG(segs_off), CLPRIM__ARG(m),
                                CLPRIM__ARG(n),         CLPRIM__ARG(tiles),    CLPRIM__ARG(*bounds)};
    return CLPRIM__LAUNCH_KERNEL(l, prog, "seg_tile_bounds", args, (size_t)(tiles + wg) / wg, wg);
}

/* Refusals the launch layer cannot know of: algorithms, keys out, and the
 * segments sharing a buffer with an output at all (overlapping ranges are
 * the launch layer's). */
static clprim_status check_call(clprim_context *ctx, const segment_args *a, clprim_repro *level)
{
    const clprim_segments *s = a->s;
    if (!ctx->info.has_single_pass)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "segmented scans and reduces run in one pass, which needs "
                            "cl_khr_int64_base_atomics; %s lacks it", ctx->info.device_name);
    if (a->reduce ? a->algorithm != CLPRIM_REDUCE_AUTO
                  : a->algorithm != CLPRIM_SCAN_AUTO &&
                        a->algorithm != CLPRIM_SCAN_DECOUPLED_LOOKBACK)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "segmented %ss run in one pass: desc->algorithm must be AUTO%s",
                            a->reduce ? "reduce" : "scan",
                            a->reduce ? "" : " or DECOUPLED_LOOKBACK");
    /* RUN_TO_RUN: the ordered look-back over (count, value) pairs
     * (segment_heads.clh); PORTABLE has no segmented kernels yet */
    const clprim_status st =
        clprim__repro_check(ctx, (clprim_repro)a->repro, a->type, a->op, a->custom,
                            CLPRIM_REPRO_RUN_TO_RUN, a->reduce ? "the segmented reduce"
                                                               : "the segmented scan", level);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (a->keys_out && s->kind != CLPRIM_SEGMENTS_KEYS)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "keys_out is for KEYS segments; these are %s",
                            clprim_segments_kind_name(s->kind));
    if (s->mem == a->out || (a->keys_out && (a->keys_out == s->mem || a->keys_out == a->in ||
                                             a->keys_out == a->out)))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "the segments, values and keys_out must not share an output buffer");
    return CLPRIM_SUCCESS;
}

/* Elements per work-item of the looping single pass (seg_loop), or 0 for
 * one tile per work-group: built-in (type, op) pairs, whose operators
 * commute, with heads from flags, built-in keys or offsets (a scan: a reduce
 * by offsets writes empty segments too); whole 16-byte chunks per
 * work-item, at most 32 elements (one word of head bits), within local
 * memory. */
static unsigned loop_items(const clprim_context *ctx, const segment_args *a,
                           const clprim__element *e, const clprim__segment_tuning *t,
                           size_t budget)
{
    const clprim_segments_kind kind = a->s->kind;
    const unsigned vec = e->builtin ? (unsigned)(16 / e->size) : 1;
    const int flags = kind == CLPRIM_SEGMENTS_FLAGS_U8 || kind == CLPRIM_SEGMENTS_FLAGS_U32;
    unsigned items =
        (a->reduce && flags && t->loop_flags_reduce_items ? t->loop_flags_reduce_items
                                                          : t->loop_items) /
        vec * vec;
    if (!e->builtin || !ctx->info.compute_units || (a->reduce && !t->loop_reduce) ||
        (kind == CLPRIM_SEGMENTS_OFFSETS && a->reduce) ||
        (kind == CLPRIM_SEGMENTS_KEYS && a->s->key_element))
        return 0;
    while (items >= vec && SEG_LOOP_LOCAL_BYTES((size_t)t->wg_size, items, e->size) > budget)
        items = items / 2 / vec * vec;
    return items >= vec ? items : 0;
}

/* Local memory of seg_single_pass: ordered, the pairwise tree's WG_SIZE
 * pairs too (cl/segment.cl, canon; a pair at most elem + 8 rounded to 16). */
static size_t single_pass_local(size_t wg, size_t items, size_t elem, int ordered)
{
    return SEG_LOCAL_BYTES(wg, items, elem) + (ordered ? wg * ((elem + 8 + 15) / 16 * 16) : 0);
}

/* One call, validated by the launch layer. */
static clprim_status segment_body(clprim__launch *l, const void *args)
{
    segment_args call = *(const segment_args *)args;
    const segment_args *a = &call;
    const clprim_segments *s = a->s;
    clprim_context *ctx = l->ctx;
    const clprim__element *e = &l->elem;
    const size_t budget =
        ctx->info.local_mem_size > 2048 ? (size_t)ctx->info.local_mem_size - 1024 : 0;
    const int offsets = s->kind == CLPRIM_SEGMENTS_OFFSETS;
    clprim__segment_tuning t = clprim__segment_tuning_for(ctx, e->size, a->n, a->reduce);
    /* NVIDIA: the single pass bounded to the registers its code needed
     * before the tile-prefix step was shared (64: four work-groups per SM);
     * left to itself the compiler took 94 after that change (H100, int32,
     * 2026-11-25: scan by offsets 0.612 -> 0.448 of copy) */
    clprim__program_spec spec = {.file = "segment.cl",
                                 .element = e->defines,
                                 .bound_entry = "seg_single_pass",
                                 .bound_regs = 64};
    clprim__program *prog;
    cl_mem state = NULL, bounds = NULL;
    cl_uint generation = 0, sflags;
    unsigned loop;
    char *params, *transform = NULL, *uncontracted = NULL;
    clprim_repro level;
    clprim_status st = check_call(ctx, a, &level);

    /* RUN_TO_RUN: the one-tile-per-work-group pass with the ordered
     * look-back (seg_loop publishes a tile's value folded out of order) */
    call.ordered = st == CLPRIM_SUCCESS && level == CLPRIM_REPRO_RUN_TO_RUN;
    if (st == CLPRIM_SUCCESS)
        st = clprim__transform_params(ctx, a->tf, &transform);
    if (st == CLPRIM_SUCCESS && transform)
        st = clprim__check_transform_in_place(l, a->tf, a->in, a->out);
    if (st != CLPRIM_SUCCESS) {
        free(transform);
        return st;
    }
    if (a->n == 0 && !(a->reduce && offsets)) { /* nothing, or no segment */
        free(transform);
        return a->reduce && a->count
                   ? clprim__chain_fill(ctx, &l->chain, a->count, a->count_off * 8, 8)
                   : CLPRIM_SUCCESS;
    }
    loop = a->ordered ? 0 : loop_items(ctx, a, e, &t, budget);
    if (loop) {
        t.items = loop;
        spec.bound_regs = s->kind == CLPRIM_SEGMENTS_KEYS ? t.loop_keys_max_regs : t.loop_max_regs;
        spec.bound_entry = spec.bound_regs ? "seg_loop" : NULL;
    }
    while (!loop && t.items > 1 &&
           single_pass_local((size_t)t.wg_size, t.items, e->size, a->ordered) > budget)
        t.items /= 2;
    while (!loop && t.wg_size > 1 &&
           single_pass_local((size_t)t.wg_size, t.items, e->size, a->ordered) > budget)
        t.wg_size /= 2;
    /* the tests' silent tiles: out of place only (lookback.clh) */
    params = segment_params(a, e, t.items, t.lookback_spins, loop != 0,
                            a->ordered,
                            a->in != a->out &&
                                clprim__switch(&ctx->knobs, CLPRIM__SWITCH_SEGMENT_TEST_SILENT, 0));
    /* ordered, a transform's rounding must not depend on where the
     * compiler fused it (the tile's loads against the fallback's) */
    if (params && a->ordered &&
        !(spec.element = uncontracted = clprim__element_uncontracted(e->defines))) {
        free(params);
        params = NULL;
    }
    if (params && transform) {
        char *both = clprim__format("%s%s", params, transform);
        free(params);
        params = both;
    }
    free(transform);
    if (!params)
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    spec.params = params;
    spec.wg_size = t.wg_size;
    spec.tuning = t.source;
    st = clprim__program_get(ctx, &spec, &prog);
    free(params);
    free(uncontracted);
    if (st != CLPRIM_SUCCESS)
        return st;
    {
        const unsigned wg = clprim__program_wg_size(prog);
        const cl_ulong tile = (cl_ulong)wg * t.items, n = a->n;
        const cl_ulong tiles = n ? (n + tile - 1) / tile : 1;
        const cl_ulong in_off = a->in_off, out_off = a->out_off, segs_off = s->off,
                       m = s->num_segments, keys_out_off = a->keys_out_off,
                       count_off = a->count_off;
        const size_t vec = e->builtin ? 16 / e->size : 1;
        /* the looping grid: a few work-groups per compute unit, at most one per tile */
        const cl_ulong most = (cl_ulong)ctx->info.compute_units * t.loop_groups_per_cu,
                       groups = loop && tiles > most ? most : tiles;
        sflags = (a->exclusive ? SEG_EXCLUSIVE : 0) | (tiles == 1 ? SEG_ONE_TILE : 0) |
                 (a->in == a->out ? SEG_IN_PLACE : 0) | (a->keys_out ? SEG_KEYS_OUT : 0) |
                 (a->count ? SEG_COUNT : 0) |
                 (in_off % vec == 0 && out_off % vec == 0 && segs_off % vec == 0 ? SEG_ALIGNED
                                                                                 : 0);
        if (tiles > 1)
            st = tile_state(l, a, (size_t)tiles, &state, &generation);
        if (st == CLPRIM_SUCCESS && offsets)
            st = tile_bounds(l, prog, a, tiles, wg, &bounds);
        if (st == CLPRIM_SUCCESS) {
            const clprim__arg args[] = {CLPRIM__ARG(a->in),     CLPRIM__ARG(in_off),
                                        CLPRIM__ARG(a->out),    CLPRIM__ARG(out_off),
                                        CLPRIM__ARG(n),         CLPRIM__ARG(s->mem),
                                        CLPRIM__ARG(segs_off),  CLPRIM__ARG(m),
                                        CLPRIM__ARG(bounds),    CLPRIM__ARG(a->keys_out),
                                        CLPRIM__ARG(keys_out_off), CLPRIM__ARG(a->count),
                                        CLPRIM__ARG(count_off), CLPRIM__ARG(state),
                                        CLPRIM__ARG(generation), CLPRIM__ARG(sflags)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, loop ? "seg_loop" : "seg_single_pass", args,
                                       (size_t)groups, wg);
        }
    }
    return st;
}

/* The launch layer's description of a call: every buffer with the count
 * it holds. */
static clprim_status run(clprim_context *ctx, cl_command_queue queue, const void *desc,
                         clprim_type type, clprim_op op, const clprim_operator *custom,
                         const segment_args *a, cl_uint num_wait, const cl_event *wait,
                         cl_event *event)
{
    const clprim_segments *s = a->s;
    const size_t out_n =
        a->reduce && s && s->kind == CLPRIM_SEGMENTS_OFFSETS ? s->num_segments : a->n;
    clprim__call call = {
        .desc = desc,
        .type = type,
        .op = op,
        .custom = custom,
        .algorithm = a->algorithm,
        .algorithm_count =
            a->reduce ? CLPRIM_REDUCE_ALGORITHM_COUNT_ : CLPRIM_SCAN_ALGORITHM_COUNT_,
        .algorithm_enum = a->reduce ? "clprim_reduce_algorithm" : "clprim_scan_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 2,
        .buffers =
            {{.name = "in", .mem = a->in, .off = a->in_off, .count = a->n},
             {.name = "out", .mem = a->out, .off = a->out_off, .count = out_n, .written = 1}},
        .in_place = !a->reduce};
    clprim_status st;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (event)
        *event = NULL;
    if (a->tf) { /* the input holds the transform's elements */
        call.buffers[0].elem = clprim__transform_input_size(a->tf, 0);
        if (!call.buffers[0].elem)
            return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE,
                                         "desc->transform->input %d is not a clprim_type",
                                         (int)a->tf->input);
    }
    st = clprim__segments_check(ctx, s);
    if (st != CLPRIM_SUCCESS)
        return st;
    {
        const clprim__call_buffer b = {"segments->mem", s->mem, s->off, clprim__segments_count(s, a->n),
                                       clprim__segments_unit(s), 0};
        call.buffers[call.num_buffers++] = b;
    }
    if (a->keys_out && s->kind == CLPRIM_SEGMENTS_KEYS) {
        const clprim__call_buffer b = {"keys_out", a->keys_out, a->keys_out_off, a->n,
                                       clprim__segments_unit(s), 1};
        call.buffers[call.num_buffers++] = b;
    }
    if (a->count) {
        const clprim__call_buffer b = {"count", a->count, a->count_off, 1, 8, 1};
        call.buffers[call.num_buffers++] = b;
    }
    return clprim__launch_run(ctx, &call, segment_body, a, event);
}

clprim_status clprim_segmented_scan(clprim_context *ctx, cl_command_queue queue,
                                    const clprim_scan_desc *desc, const clprim_segments *segments,
                                    cl_mem in, size_t in_off, cl_mem out, size_t out_off,
                                    size_t n, cl_uint num_wait, const cl_event *wait,
                                    cl_event *event)
{
    const segment_args a = {.s = segments,
                            .tf = desc ? desc->transform : NULL,
                            .exclusive = desc && desc->exclusive,
                            .algorithm = desc ? (int)desc->algorithm : 0,
                            .repro = desc ? (int)desc->repro : 0,
                            .type = desc ? desc->type : 0, .op = desc ? desc->op : 0,
                            .custom = desc ? desc->custom : NULL,
                            .in = in, .in_off = in_off, .out = out, .out_off = out_off, .n = n};
    return run(ctx, queue, desc, desc ? desc->type : 0, desc ? desc->op : 0,
               desc ? desc->custom : NULL, &a, num_wait, wait, event);
}

clprim_status clprim_segmented_reduce(clprim_context *ctx, cl_command_queue queue,
                                      const clprim_reduce_desc *desc,
                                      const clprim_segments *segments, cl_mem in, size_t in_off,
                                      size_t n, cl_mem out, size_t out_off, cl_mem keys_out,
                                      size_t keys_out_off, cl_mem count, size_t count_off,
                                      cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const segment_args a = {.s = segments,
                            .tf = desc ? desc->transform : NULL,
                            .reduce = 1,
                            .algorithm = desc ? (int)desc->algorithm : 0,
                            .repro = desc ? (int)desc->repro : 0,
                            .type = desc ? desc->type : 0, .op = desc ? desc->op : 0,
                            .custom = desc ? desc->custom : NULL,
                            .in = in, .in_off = in_off, .n = n,
                            .out = out, .out_off = out_off,
                            .keys_out = keys_out, .keys_out_off = keys_out_off,
                            .count = count, .count_off = count_off};
    return run(ctx, queue, desc, desc ? desc->type : 0, desc ? desc->op : 0,
               desc ? desc->custom : NULL, &a, num_wait, wait, event);
}

/* ---- blocking helpers ---- */

/* Offset k of a host array of integer type t, as a signed 64-bit value
 * (-1 for values that do not fit). */
static long long host_offset(const void *p, clprim_type t, size_t k)
{
    switch (t) {
    case CLPRIM_TYPE_INT32:
        return ((const cl_int *)p)[k];
    case CLPRIM_TYPE_UINT32:
        return ((const cl_uint *)p)[k];
    case CLPRIM_TYPE_INT64:
        return ((const cl_long *)p)[k];
    default:
        return ((const cl_ulong *)p)[k] > (cl_ulong)INT64_MAX ? -1
                                                              : (long long)((const cl_ulong *)p)[k];
    }
}

/* The host helpers' own checks, and the segments copied to the device. */
clprim_status clprim__segments_host(clprim_context *ctx, const clprim_segments *s,
                                    const void *host, size_t n, clprim_segments *dev,
                                    cl_mem *mem)
{
    size_t unit, count;
    clprim_status st = clprim__segments_check(ctx, s);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (s->mem || s->off)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "segments->%s: the blocking helpers read the segments from "
                                     "host_segs; leave mem NULL and off 0", s->mem ? "mem" : "off");
    unit = clprim__segments_unit(s);
    count = clprim__segments_count(s, n);
    if (count && !host)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "host_segments is NULL");
    if (s->kind == CLPRIM_SEGMENTS_OFFSETS) {
        const size_t m = s->num_segments;
        for (size_t k = 0; k <= m; ++k) {
            const long long o = host_offset(host, s->type, k);
            if ((k == 0 && o != 0) || (k == m && o != (long long)n) ||
                (k > 0 && o < host_offset(host, s->type, k - 1)) || o < 0 || o > (long long)n)
                return clprim__fail_unlocked(
                    ctx, CLPRIM_INVALID_ARGUMENT,
                    "offsets[%zu] = %lld: offsets must rise from 0 to n = %zu without falling",
                    k, o, n);
        }
    }
    if (count > SIZE_MAX / unit)
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "%zu segment entries of %zu bytes "
                                     "overflow size_t", count, unit);
    *dev = *s;
    dev->off = 0;
    st = clprim__host_buffer_unlocked(ctx, count * unit, host, mem);
    dev->mem = *mem;
    return st;
}

/* Bytes of the n input elements of a descriptor (a transform's input
 * type where it has one); 0 with a message. *elem: the bytes of one output
 * element. */
static size_t host_bytes(clprim_context *ctx, clprim_type type, const clprim_operator *custom,
                         const clprim_transform *tf, size_t n, size_t *elem, clprim_status *st)
{
    const size_t in_elem = clprim__transform_input_size(tf, *elem = clprim__element_size(type, custom));
    const size_t big = in_elem > *elem ? in_elem : *elem;
    *st = CLPRIM_SUCCESS;
    if (!*elem || !in_elem)
        *st = clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE, "desc->type %d%s is not a clprim_type",
                                    *elem ? (int)tf->input : (int)type,
                                    *elem ? " (desc->transform->input)" : "");
    else if (n && (big * n) / n != big)
        *st = clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS,
                                    "n = %zu elements of %zu bytes overflow size_t", n, big);
    return in_elem * n;
}

clprim_status clprim_segmented_scan_host(clprim_context *ctx, const clprim_scan_desc *desc,
                                         const clprim_segments *segments,
                                         const void *host_segs, const void *in, void *out,
                                         size_t n)
{
    clprim_segments dev;
    cl_mem buf = NULL, src = NULL, segs = NULL;
    size_t bytes, elem;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc || (n && (!in || !out)))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc, in or out is NULL");
    bytes = host_bytes(ctx, desc->type, desc->custom, desc->transform, n, &elem, &st);
    if (st == CLPRIM_SUCCESS)
        st = clprim__segments_host(ctx, segments, host_segs, n, &dev, &segs);
    /* one buffer, scanned in place, unless a transform changes the size */
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, bytes, in, &src);
    if (st == CLPRIM_SUCCESS && bytes == elem * n)
        buf = src;
    else if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, elem * n, NULL, &buf);
    if (st == CLPRIM_SUCCESS)
        st = clprim_segmented_scan(ctx, NULL, desc, &dev, src, 0, buf, 0, n, 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS && n)
        st = clprim__host_read_unlocked(ctx, buf, elem * n, out, 0, NULL);
    if (src && src != buf)
        clReleaseMemObject(src);
    if (buf)
        clReleaseMemObject(buf);
    if (segs)
        clReleaseMemObject(segs);
    return st;
}

clprim_status clprim_segmented_reduce_host(clprim_context *ctx, const clprim_reduce_desc *desc,
                                           const clprim_segments *segments,
                                           const void *host_segs, const void *in, size_t n,
                                           void *out, void *keys_out, size_t *count)
{
    clprim_segments dev;
    cl_mem bin = NULL, bout = NULL, bkeys = NULL, bcount = NULL, segs = NULL;
    cl_ulong found = 0;
    size_t bytes, elem, out_n, key_size;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc || !segments || !count || (n && !in))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc, segments, in or count is NULL");
    bytes = host_bytes(ctx, desc->type, desc->custom, desc->transform, n, &elem, &st);
    out_n = segments->kind == CLPRIM_SEGMENTS_OFFSETS ? segments->num_segments : n;
    if (st == CLPRIM_SUCCESS && out_n && !out)
        st = clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "out is NULL");
    if (st == CLPRIM_SUCCESS)
        st = clprim__segments_host(ctx, segments, host_segs, n, &dev, &segs);
    key_size = clprim__segments_unit(segments);
    if (segments->kind != CLPRIM_SEGMENTS_KEYS)
        keys_out = NULL;
    if (st == CLPRIM_SUCCESS && out_n > SIZE_MAX / (elem > key_size ? elem : key_size))
        st = clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "num_segments %zu overflows size_t",
                                   out_n);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, bytes, in, &bin);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, out_n * elem, NULL, &bout);
    if (st == CLPRIM_SUCCESS && keys_out)
        st = clprim__host_buffer_unlocked(ctx, n * key_size, NULL, &bkeys);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, sizeof found, NULL, &bcount);
    if (st == CLPRIM_SUCCESS)
        st = clprim_segmented_reduce(ctx, NULL, desc, &dev, bin, 0, n, bout, 0, bkeys, 0, bcount,
                                     0, 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_read_unlocked(ctx, bcount, sizeof found, &found, 0, NULL);
    if (st == CLPRIM_SUCCESS && found > out_n)
        st = clprim__fail_unlocked(ctx, CLPRIM_INTERNAL, "%llu segments reported for at most %zu",
                                   (unsigned long long)found, out_n);
    if (st == CLPRIM_SUCCESS && found)
        st = clprim__host_read_unlocked(ctx, bout, (size_t)found * elem, out, 0, NULL);
    if (st == CLPRIM_SUCCESS && found && keys_out)
        st = clprim__host_read_unlocked(ctx, bkeys, (size_t)found * key_size, keys_out, 0, NULL);
    if (st == CLPRIM_SUCCESS)
        *count = (size_t)found;
    if (bin)
        clReleaseMemObject(bin);
    if (bout)
        clReleaseMemObject(bout);
    if (bkeys)
        clReleaseMemObject(bkeys);
    if (bcount)
        clReleaseMemObject(bcount);
    if (segs)
        clReleaseMemObject(segs);
    return st;
}

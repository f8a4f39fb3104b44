/* SPDX-License-Identifier: MIT */
/* Radix sort and split. ONESWEEP (a histogram of every pass's digits, then
 * one pass per 8-bit digit with decoupled look-back over the tiles' digit
 * counts; one launch when n fits a tile), SPLIT_LSB (the seeds' split per
 * bit on clprim's own scan) and TILE_BITONIC (tiles radix-sorted in local
 * memory, merged by bitonic merges). Keys move as their bits (the element
 * layer's uint or ulong); their order is the kernels' (sort_rank.clh).
 * Validation and the enqueue chain are the launch layer's; the contract with
 * the kernels is cl/sort_abi.h. */
#include "internal.h"

#include "common/abi.h"
#include "sort_abi.h"

#include <stdlib.h>
#include <string.h>


#define MAX_VALUE_BYTES 64
/* where a caller's scratch places each part */
#define SCRATCH_ALIGN 256

/* The arguments of one call, for sort_body. */
typedef struct sort_args {
    const clprim_sort_desc *d;
    int split;    /* clprim_split: one split by `bit` */
    unsigned bit;
    cl_mem kin, kout, vin, vout, count;
    size_t kin_off, kout_off, vin_off, vout_off, n, count_off;
} sort_args;

clprim_status clprim__sort_keys_of(clprim_context *ctx, const clprim_sort_desc *d, size_t n,
                                   clprim__sort_keys *f)
{
    unsigned bits;
    switch (d->key_type) {
    case CLPRIM_TYPE_UINT32: f->kmode = SORT_KIND_UNSIGNED, f->size = 4; break;
    case CLPRIM_TYPE_INT32: f->kmode = SORT_KIND_SIGNED, f->size = 4; break;
    case CLPRIM_TYPE_FLOAT: f->kmode = SORT_KIND_FLOAT, f->size = 4; break;
    case CLPRIM_TYPE_UINT64: f->kmode = SORT_KIND_UNSIGNED, f->size = 8; break;
    case CLPRIM_TYPE_INT64: f->kmode = SORT_KIND_SIGNED, f->size = 8; break;
    case CLPRIM_TYPE_DOUBLE: f->kmode = SORT_KIND_FLOAT, f->size = 8; break;
    default:
        return clprim__fail(ctx, CLPRIM_UNKNOWN_TYPE,
                            "desc->key_type %d is not a sort key (uint32, int32, float, uint64, "
                            "int64 or double)", (int)d->key_type);
    }
    bits = (unsigned)f->size * 8;
    if (d->descending)
        f->kmode |= SORT_DESCENDING;
    f->begin = d->begin_bit;
    f->end = d->begin_bit == 0 && d->end_bit == 0 ? bits : d->end_bit;
    if (f->begin > f->end || f->end > bits)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "bits [%u, %u) are not a range of a %u-bit key", d->begin_bit,
                            d->end_bit, bits);
    if (d->value_size > MAX_VALUE_BYTES)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->value_size %zu is above %d bytes", d->value_size,
                            MAX_VALUE_BYTES);
    /* tests force the 64-bit form on small n (CLPRIM_SORT_WIDE=1) */
    f->wide = (cl_ulong)n + 1 > 0xffffffffull || 
              clprim__switch(&ctx->knobs, CLPRIM__SWITCH_SORT_WIDE, 0);
    return CLPRIM_SUCCESS;
}

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

/* The memory one sort needs besides its output, part by part (bytes). */
typedef struct sort_memory {
    size_t keys, values, hist, state; /* ONESWEEP; TILE_BITONIC: hist holds the pairs;
                                       * CHUNKED: hist holds the chunks' counts */
    size_t tiles, passes;
} sort_memory;


static sort_memory memory_of(const clprim__sort_keys *f, size_t value_size, size_t n, size_t tile,
                             int bitonic, size_t chunks)
{
    sort_memory m;
    const size_t pos = f->wide ? 8 : 4;
    m.passes = (f->end - f->begin + SORT_RADIX_BITS - 1) / SORT_RADIX_BITS;
    m.tiles = (n + tile - 1) / tile;
    m.keys = n * f->size;
    m.values = n * value_size;
    if (bitonic) {
        m.hist = n * (f->size == 4 && !f->wide ? 8 : 16);
        m.state = 0;
    } else if (chunks) {
        m.hist = SORT_RADIX * chunks * pos;
        m.state = 0;
    } else {
        m.hist = SORT_MAX_PASSES * SORT_RADIX * pos;
        const size_t words = f->wide ? 2 : 1;
        m.state = CLPRIM_TILE_STATE_BYTES(m.tiles * SORT_RADIX, words, 0);
    }
    return m;
}

/* A part of the call's temporary memory: a buffer and where in it. */
typedef struct region {
    cl_mem mem;
    size_t off; /* bytes */
} region;

/* Temporary memory: from the caller's scratch, carved at SCRATCH_ALIGN
 * (and at whole values), or from the pool. */
static clprim_status take(clprim__launch *l, const clprim_sort_desc *d, size_t *used, size_t bytes,
                          size_t elem, region *r)
{
    clprim__pool_buf *buf;
    clprim_status st;
    r->off = 0;
    if (!bytes) {
        r->mem = NULL;
        return CLPRIM_SUCCESS;
    }
    if (d->scratch) {
        r->mem = d->scratch;
        r->off = round_up(*used, SCRATCH_ALIGN * (elem ? elem : 1));
        *used = r->off + bytes;
        if (*used > d->scratch_size)
            return clprim__fail(l->ctx, CLPRIM_INTERNAL, "scratch carved past its size");
        return CLPRIM_SUCCESS;
    }
    st = clprim__launch_temp(l, bytes, &buf);
    if (st == CLPRIM_SUCCESS)
        r->mem = clprim__pool_mem(buf);
    return st;
}

/* What take() carves from a caller's scratch in any order: each part
 * with room to align it. */
static size_t scratch_bytes(const sort_memory *m, size_t value_size)
{
    const size_t slack = SCRATCH_ALIGN * (value_size > 8 ? value_size : 8);
    return m->keys + m->values + m->hist + m->state + 4 * slack;
}

/* The program of `file`: keys of f, values of value_size bytes, the tile,
 * bound_entry bounded to the row's registers. */
clprim_status clprim__sort_program(clprim__launch *l, const char *file, const char *bound_entry,
                                   const clprim__sort_keys *f, size_t value_size,
                                   const clprim__sort_plan *p, clprim__program **prog)
{
    clprim__program_spec spec = {.file = file,
                                 .element = l->elem.defines,
                                 .wg_size = p->t.wg_size,
                                 .bound_entry = p->t.max_regs ? bound_entry : NULL,
                                 .bound_regs = p->t.max_regs,
                                 .tuning = p->t.source};
    char *params = clprim__format("#define VALUE_SIZE %zu\n#define ITEMS %u\n#define SORT_WIDE %d\n"
                                  "#define SORT_MATCH %d\n#define LOOKBACK_SPINS %u\n"
                                  "#define BITONIC_TILE %u\n#define SORT_POLL_NS %u\n"
                                  "#define SORT_SOURCES %d\n#define SORT_KMODE_IN %d\n"
                                  "#define SORT_KMODE_VALUE %uu\n#define SORT_STAGE_VALUES %d\n",
                                  value_size, p->items, f->wide, p->match, p->t.lookback_spins,
                                  p->btile, p->t.poll_ns, p->sources, p->kind_fixed,
                                  p->kind_fixed ? f->kmode : 0u, p->stage);
    clprim_status st;
    if (!params)
        return clprim__fail(l->ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    spec.params = params;
    st = clprim__program_get(l->ctx, &spec, prog);
    free(params);
    return st;
}

/* The kernels' common first arguments: keys and values in and out. */
typedef struct io {
    cl_mem kin, kout, vin, vout;
    cl_ulong kin_off, kout_off, vin_off, vout_off;
} io;

/* the first eight arguments of the kernels that move keys and values */
#define IO_ARGS(x)                                                                              \
    CLPRIM__ARG((x).kin), CLPRIM__ARG((x).kin_off), CLPRIM__ARG((x).kout),                     \
        CLPRIM__ARG((x).kout_off), CLPRIM__ARG((x).vin), CLPRIM__ARG((x).vin_off),             \
        CLPRIM__ARG((x).vout), CLPRIM__ARG((x).vout_off)

/* Whether NVIDIA's match.any is there (compute capability 7 and later). */
static int has_match(const clprim_context *ctx)
{
    return ctx->info.simd_width == 32 && ctx->nv_compute_major >= 7;
}

/* Where pass p of `passes` writes: the passes alternate between the output
 * and the temporary keys and values so that the last one lands in the
 * output. */
static io pass_io(const sort_args *a, const clprim__sort_keys *f, io x, unsigned p, unsigned passes,
                  region tk, region tv)
{
    const size_t vs = a->d->value_size;
    const int to_out = (passes - 1 - p) % 2 == 0;
    x.kout = to_out ? a->kout : tk.mem;
    x.kout_off = to_out ? a->kout_off : tk.off / f->size;
    x.vout = !vs ? NULL : to_out ? a->vout : tv.mem;
    x.vout_off = !vs ? 0 : to_out ? a->vout_off : tv.off / vs;
    return x;
}

/* What the next pass reads: this one's output. */
static io next_io(io y)
{
    y.kin = y.kout;
    y.kin_off = y.kout_off;
    y.vin = y.vout;
    y.vin_off = y.vout_off;
    return y;
}

static clprim_status onesweep(clprim__launch *l, clprim__program *prog, const sort_args *a,
                              const clprim__sort_keys *f, const sort_memory *m, region tk, region tv,
                              region hist, region state, io x, unsigned wg, size_t hist_groups)
{
    clprim_context *ctx = l->ctx;
    const size_t pos = f->wide ? 8 : 4;
    const cl_ulong n = a->n, hist_off = hist.off / pos, state_off = state.off;
    const cl_uint passes = (cl_uint)m->passes;
    cl_uint generation = 1, p;
    clprim_status st;

    /* the status words: the pool's (told apart by generation, one per
     * pass), or in the caller's scratch, zeroed */
    if (a->d->scratch)
        st = clprim__chain_fill(ctx, &l->chain, state.mem, state.off, m->state);
    else
        st = clprim__launch_tile_state(l, m->tiles * SORT_RADIX, f->wide ? 2 : 1, 0, passes,
                                       &state.mem, &generation);
    if (st == CLPRIM_SUCCESS)
        st = clprim__chain_fill(ctx, &l->chain, hist.mem, hist.off, m->hist);
    if (st == CLPRIM_SUCCESS) {
        const cl_uint begin = f->begin, end = f->end;
        const clprim__arg args[] = {CLPRIM__ARG(x.kin),    CLPRIM__ARG(x.kin_off),
                                    CLPRIM__ARG(n),        CLPRIM__ARG(f->kmode),
                                    CLPRIM__ARG(begin),    CLPRIM__ARG(end),
                                    CLPRIM__ARG(hist.mem), CLPRIM__ARG(hist_off)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_histogram", args,
                                   m->tiles < hist_groups ? m->tiles : hist_groups, wg);
    }
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg args[] = {CLPRIM__ARG(hist.mem), CLPRIM__ARG(hist_off)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_histogram_scan", args, passes, wg);
    }
    for (p = 0; p < passes && st == CLPRIM_SUCCESS; ++p) {
        const cl_uint shift = f->begin + p * SORT_RADIX_BITS;
        const cl_uint bits = f->end - shift < SORT_RADIX_BITS ? f->end - shift : SORT_RADIX_BITS;
        const cl_ulong h = hist_off + (cl_ulong)p * SORT_RADIX;
        const cl_uint gen = generation + p;
        const io y = pass_io(a, f, x, p, passes, tk, tv);
        const clprim__arg args[] = {IO_ARGS(y),             CLPRIM__ARG(n),
                                    CLPRIM__ARG(f->kmode),  CLPRIM__ARG(shift),
                                    CLPRIM__ARG(bits),      CLPRIM__ARG(hist.mem),
                                    CLPRIM__ARG(h),         CLPRIM__ARG(state.mem),
                                    CLPRIM__ARG(state_off), CLPRIM__ARG(gen)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_onesweep", args, (size_t)m->tiles, wg);
        x = next_io(y);
    }
    return st;
}

/* CHUNKED: per digit, each chunk's counts, then each chunk's keys moved
 * (chunks work-groups of one work-item). */
static clprim_status chunked(clprim__launch *l, clprim__program *prog, const sort_args *a,
                             const clprim__sort_keys *f, const sort_memory *m, region tk,
                             region tv, region counts, io x, size_t chunks)
{
    const cl_ulong n = a->n, counts_off = counts.off / (f->wide ? 8 : 4);
    clprim_status st = CLPRIM_SUCCESS;
    for (cl_uint p = 0; p < (cl_uint)m->passes && st == CLPRIM_SUCCESS; ++p) {
        const cl_uint shift = f->begin + p * SORT_RADIX_BITS;
        const cl_uint bits = f->end - shift < SORT_RADIX_BITS ? f->end - shift : SORT_RADIX_BITS;
        const io y = pass_io(a, f, x, p, (unsigned)m->passes, tk, tv);
        const clprim__arg count[] = {CLPRIM__ARG(y.kin),        CLPRIM__ARG(y.kin_off),
                                     CLPRIM__ARG(n),            CLPRIM__ARG(f->kmode),
                                     CLPRIM__ARG(shift),        CLPRIM__ARG(bits),
                                     CLPRIM__ARG(counts.mem),   CLPRIM__ARG(counts_off)};
        const clprim__arg move[] = {IO_ARGS(y),                 CLPRIM__ARG(n),
                                    CLPRIM__ARG(f->kmode),      CLPRIM__ARG(shift),
                                    CLPRIM__ARG(bits),          CLPRIM__ARG(counts.mem),
                                    CLPRIM__ARG(counts_off)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_chunk_count", count, chunks, 1);
        if (st == CLPRIM_SUCCESS)
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_chunk_scatter", move, chunks, 1);
        x = next_io(y);
    }
    return st;
}

/* n <= one tile, or TILE_BITONIC's tiles (pairs non-NULL): sort_tile. */
static clprim_status tiles(clprim__launch *l, clprim__program *prog, const clprim__sort_keys *f, io x,
                           cl_ulong n, cl_mem pairs, size_t groups, unsigned wg)
{
    const cl_uint begin = f->begin, end = f->end;
    const clprim__arg args[] = {IO_ARGS(x),         CLPRIM__ARG(n),   CLPRIM__ARG(f->kmode),
                                CLPRIM__ARG(begin), CLPRIM__ARG(end), CLPRIM__ARG(pairs)};
    return CLPRIM__LAUNCH_KERNEL(l, prog, "sort_tile", args, groups, wg);
}

/* One split of x by `bit`: flags, clprim's exclusive scan of them, scatter
 * (count: where totalFalses goes, NULL for none). */
static clprim_status split_once(clprim__launch *l, clprim__program *prog, const clprim__sort_keys *f,
                                io x, cl_ulong n, cl_uint bit, cl_mem flags, cl_mem count,
                                cl_ulong count_off, unsigned wg)
{
    const clprim_scan_desc sum = {.type = f->wide ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32,
                                  .op = CLPRIM_OP_SUM,
                                  .exclusive = 1,
                                  .algorithm = CLPRIM_SCAN_AUTO};
    const cl_uint with_count = count != NULL;
    const int mark = l->num_temps;
    clprim_status st;
    {
        const clprim__arg args[] = {CLPRIM__ARG(x.kin), CLPRIM__ARG(x.kin_off),
                                    CLPRIM__ARG(n),     CLPRIM__ARG(f->kmode),
                                    CLPRIM__ARG(bit),   CLPRIM__ARG(flags)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_split_flags", args, (size_t)(n + wg) / wg, wg);
    }
    if (st == CLPRIM_SUCCESS)
        st = clprim__scan_within(l, &sum, flags, 0, flags, 0, (size_t)n + 1);
    /* the scan's temporary memory serves the next split's scan again */
    clprim__launch_temps_release(l, mark, st);
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg args[] = {IO_ARGS(x),             CLPRIM__ARG(n),
                                    CLPRIM__ARG(f->kmode),  CLPRIM__ARG(bit),
                                    CLPRIM__ARG(flags),     CLPRIM__ARG(count),
                                    CLPRIM__ARG(count_off), CLPRIM__ARG(with_count)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_split_scatter", args, (size_t)(n + wg - 1) / wg,
                                   wg);
    }
    return st;
}

static clprim_status split_lsb(clprim__launch *l, clprim__program *prog, const sort_args *a,
                               const clprim__sort_keys *f, region tk, region tv, io x, unsigned wg)
{
    const unsigned passes = f->end - f->begin;
    clprim__pool_buf *flags;
    clprim_status st = clprim__launch_temp(l, ((size_t)a->n + 1) * (f->wide ? 8 : 4), &flags);
    unsigned p;
    for (p = 0; p < passes && st == CLPRIM_SUCCESS; ++p) {
        const io y = pass_io(a, f, x, p, passes, tk, tv);
        st = split_once(l, prog, f, y, a->n, f->begin + p, clprim__pool_mem(flags), NULL, 0, wg);
        x = next_io(y);
    }
    return st;
}

/* Tiles radix-sorted into (key, index) pairs, merged by bitonic steps
 * (global ones while the stride is a tile or more, the rest in local
 * memory), then the keys and values gathered by index. */
static clprim_status tile_bitonic(clprim__launch *l, clprim__program *prog, const sort_args *a,
                                  const clprim__sort_keys *f, region pairs, io x, unsigned wg,
                                  unsigned tile, unsigned btile)
{
    const cl_ulong n = a->n;
    cl_ulong span;
    clprim_status st = tiles(l, prog, f, x, n, pairs.mem, (size_t)((n + tile - 1) / tile), wg);
    for (span = 2 * (cl_ulong)tile; span < 2 * n && st == CLPRIM_SUCCESS; span *= 2) {
        cl_ulong stride;
        for (stride = span / 2; stride >= btile && st == CLPRIM_SUCCESS; stride /= 2) {
            const clprim__arg args[] = {CLPRIM__ARG(pairs.mem), CLPRIM__ARG(n),
                                        CLPRIM__ARG(span),      CLPRIM__ARG(stride)};
            /* one work-item per compare of the blocks that hold keys; the
             * compares reaching past n do nothing */
            const cl_ulong work = stride * 2 == span ? (n + span - 1) / span * stride
                                                     : (n + 2 * stride - 1) / (2 * stride) * stride;
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_bitonic_merge", args,
                                       (size_t)((work + wg - 1) / wg), wg);
        }
        if (st == CLPRIM_SUCCESS) {
            const clprim__arg args[] = {CLPRIM__ARG(pairs.mem), CLPRIM__ARG(n)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_bitonic_local", args,
                                       (size_t)((n + btile - 1) / btile), wg);
        }
    }
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg args[] = {IO_ARGS(x), CLPRIM__ARG(n), CLPRIM__ARG(pairs.mem)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sort_bitonic_gather", args,
                                   (size_t)((n + wg - 1) / wg), wg);
    }
    return st;
}

clprim__sort_plan clprim__sort_plan_of(const clprim_context *ctx, const clprim_sort_desc *d,
                                       const clprim__sort_keys *f, size_t n, size_t extra_local,
                                       size_t extra_per_key)
{
    /* extra_local, extra_per_key: what a caller's kernels hold beside a
     * tile (the segmented sort's; it always keeps sources) */
    const int whole = extra_local + extra_per_key == 0; /* a whole-array sort */
    const size_t local = (size_t)ctx->info.local_mem_size;
    const size_t budget = local > 2048 + extra_local ? local - 1024 - extra_local : 0;
    const size_t pair = f->size == 4 && !f->wide ? 8 : 16;
    clprim__sort_plan p;
    p.t = clprim__sort_tuning_for(ctx, f->size, n, d->value_size > 0);
    p.algo = d->algorithm;
    if (p.algo == CLPRIM_SORT_AUTO)
        p.algo = p.t.sort_auto                ? (clprim_sort_algorithm)p.t.sort_auto
                 : ctx->info.has_single_pass ? CLPRIM_SORT_ONESWEEP
                                             : CLPRIM_SORT_SPLIT_LSB;
    p.match = has_match(ctx) && p.t.wg_size % 32 == 0 ? (int)p.t.match : 0; /* 1 match.any, 2 votes */
    p.sources = d->value_size > 0 || !p.match || p.algo == CLPRIM_SORT_TILE_BITONIC || !whole;
    /* the tile fits local memory and 16-bit positions; bitonic merges need
     * whole powers of two */
    p.items = !whole && p.t.segment_items ? p.t.segment_items : p.t.items;
    while (p.items > 1 &&
           (SORT_LOCAL_BYTES((size_t)p.t.wg_size, p.items, f->size, p.match, p.sources) +
                    extra_per_key * p.t.wg_size * p.items > budget ||
            (size_t)p.t.wg_size * p.items > SORT_MAX_TILE ||
            (p.algo == CLPRIM_SORT_TILE_BITONIC && (p.items & (p.items - 1)))))
        --p.items;
    /* one-sweep passes place values beside their keys where the tile still
     * fits with them: only that was measured (4-byte values); a tile shrunk
     * to make room would mean more tiles and look-back steps */
    p.stage = p.match && d->value_size > 0 && p.algo == CLPRIM_SORT_ONESWEEP && whole &&
              p.t.stage_values &&
              SORT_LOCAL_BYTES((size_t)p.t.wg_size, p.items, f->size + d->value_size, p.match,
                               0) <= budget;
    /* the segmented sort's kernels also rank segment indices, as unsigned,
     * which a key kind compiled in would override */
    p.kind_fixed = whole && p.t.kind_in_program;
    p.btile = p.t.bitonic_tile;
    while (p.btile > 2 && (SORT_BITONIC_LOCAL_BYTES((size_t)p.btile, pair) > budget ||
                           p.btile > p.t.wg_size * p.items))
        p.btile /= 2;
    return p;
}

/* Copies the keys (and values) to temporary memory, which the sort then
 * reads: for a sort in place whose first pass would write what it reads. */
static clprim_status copy_in(clprim__launch *l, const sort_args *a, const clprim__sort_keys *f,
                             const sort_memory *m, region tk, region tv, io *x)
{
    const size_t vs = a->d->value_size;
    clprim_status st = clprim__chain_copy(l->ctx, &l->chain, a->kin, a->kin_off * f->size, tk.mem,
                                          tk.off, m->keys);
    if (st == CLPRIM_SUCCESS && vs)
        st = clprim__chain_copy(l->ctx, &l->chain, a->vin, a->vin_off * vs, tv.mem, tv.off,
                                m->values);
    x->kin = tk.mem;
    x->kin_off = tk.off / f->size;
    x->vin = vs ? tv.mem : NULL;
    x->vin_off = vs ? tv.off / vs : 0;
    return st;
}

/* One call, validated by the launch layer. */
static clprim_status sort_body(clprim__launch *l, const void *args)
{
    const sort_args *a = args;
    const clprim_sort_desc *d = a->d;
    clprim_context *ctx = l->ctx;
    const size_t vs = d->value_size;
    region tk = {NULL, 0}, tv = {NULL, 0}, hist = {NULL, 0}, state = {NULL, 0};
    size_t used = 0, passes, chunks;
    clprim__program *prog;
    unsigned wg, tile;
    int in_place, keys_in_place, values_in_place;
    clprim__sort_plan p;
    clprim__sort_keys f = {0};
    sort_memory m;
    io x;
    clprim_status st = clprim__sort_keys_of(ctx, d, a->n, &f);

    if (st != CLPRIM_SUCCESS)
        return st;
    if (vs && (!a->vin || !a->vout))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->value_size is %zu but values_in or values_out is NULL", vs);
    if (a->split && a->bit >= f.size * 8)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "bit %u is past a %zu-bit key", a->bit,
                            f.size * 8);
    p = clprim__sort_plan_of(ctx, d, &f, a->n, 0, 0);
    if (p.algo == CLPRIM_SORT_ONESWEEP && !ctx->info.has_single_pass && !a->split)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "the one-sweep sort needs cl_khr_int64_base_atomics, which %s lacks",
                            ctx->info.device_name);
    st = clprim__sort_program(l, "sort.cl", "sort_onesweep", &f, vs, &p, &prog);
    if (st != CLPRIM_SUCCESS)
        return st;
    wg = clprim__program_wg_size(prog);
    if (wg != p.t.wg_size) /* the tile is WG_SIZE * ITEMS of the program */
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "the sort kernels need work-groups of %u "
                            "on %s, which allows %u", p.t.wg_size, ctx->info.device_name, wg);
    tile = wg * p.items;

    x.kin = a->kin;
    x.kin_off = a->kin_off;
    x.kout = a->kout;
    x.kout_off = a->kout_off;
    x.vin = vs ? a->vin : NULL;
    x.vin_off = vs ? a->vin_off : 0;
    x.vout = vs ? a->vout : NULL;
    x.vout_off = vs ? a->vout_off : 0;
    if (a->split) {
        clprim__pool_buf *flags;
        if (a->n == 0)
            return a->count ? clprim__chain_fill(ctx, &l->chain, a->count, a->count_off * 8, 8)
                            : CLPRIM_SUCCESS;
        st = clprim__launch_temp(l, ((size_t)a->n + 1) * (f.wide ? 8 : 4), &flags);
        return st == CLPRIM_SUCCESS ? split_once(l, prog, &f, x, a->n, a->bit,
                                                 clprim__pool_mem(flags), a->count, a->count_off,
                                                 wg)
                                    : st;
    }
    if (a->n == 0)
        return CLPRIM_SUCCESS;
    chunks = p.algo == CLPRIM_SORT_CHUNKED ? clprim__chunks(&ctx->info, p.t.chunks_per_cu, a->n)
                                           : 0;
    m = memory_of(&f, vs, a->n, tile, p.algo == CLPRIM_SORT_TILE_BITONIC, chunks);
    if (d->scratch && d->scratch_size < scratch_bytes(&m, vs))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->scratch_size %zu is below the %zu bytes this sort needs "
                            "(clprim_sort_scratch_size)", d->scratch_size, scratch_bytes(&m, vs));
    /* in place: one range of one buffer (the launch layer refused any other
     * overlap, so disjoint ranges of one buffer are two arrays) */
    keys_in_place = a->kin == a->kout && a->kin_off == a->kout_off;
    values_in_place = vs && a->vin == a->vout && a->vin_off == a->vout_off;
    in_place = keys_in_place || values_in_place;
    if (f.begin == f.end) { /* nothing to sort by: a copy */
        if (!keys_in_place)
            st = clprim__chain_copy(ctx, &l->chain, a->kin, a->kin_off * f.size, a->kout,
                                    a->kout_off * f.size, m.keys);
        if (st == CLPRIM_SUCCESS && vs && !values_in_place)
            st = clprim__chain_copy(ctx, &l->chain, a->vin, a->vin_off * vs, a->vout,
                                    a->vout_off * vs, m.values);
        return st;
    }
    /* n up to one tile: one launch (in place, values are read after other
     * work-items have written theirs: from a copy) */
    if (p.algo == CLPRIM_SORT_ONESWEEP && a->n <= tile) {
        if (values_in_place) {
            st = take(l, d, &used, m.values, vs, &tv);
            if (st == CLPRIM_SUCCESS)
                st = clprim__chain_copy(ctx, &l->chain, a->vin, a->vin_off * vs, tv.mem, tv.off,
                                        m.values);
            x.vin = tv.mem;
            x.vin_off = tv.off / vs;
        }
        return st == CLPRIM_SUCCESS ? tiles(l, prog, &f, x, a->n, NULL, 1, wg) : st;
    }
    /* TILE_BITONIC's pairs first: its kernels take them at offset 0 */
    if (p.algo == CLPRIM_SORT_TILE_BITONIC)
        st = take(l, d, &used, m.hist, 0, &hist);
    /* temporary keys and values: the passes' other buffer (the bitonic
     * merges need them only for a copy of the input in place) */
    if (st == CLPRIM_SUCCESS && (p.algo != CLPRIM_SORT_TILE_BITONIC || in_place))
        st = take(l, d, &used, m.keys, 8, &tk);
    if (st == CLPRIM_SUCCESS && vs && (p.algo != CLPRIM_SORT_TILE_BITONIC || in_place))
        st = take(l, d, &used, m.values, vs, &tv);
    if (st == CLPRIM_SUCCESS && (p.algo == CLPRIM_SORT_ONESWEEP || p.algo == CLPRIM_SORT_CHUNKED))
        st = take(l, d, &used, m.hist, 0, &hist);
    /* in place, a first pass that writes the output would overwrite what
     * it reads, and the bitonic gather always would */
    passes = p.algo == CLPRIM_SORT_SPLIT_LSB ? f.end - f.begin : m.passes;
    if (st == CLPRIM_SUCCESS && in_place &&
        (passes % 2 == 1 || p.algo == CLPRIM_SORT_TILE_BITONIC))
        st = copy_in(l, a, &f, &m, tk, tv, &x);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (p.algo == CLPRIM_SORT_SPLIT_LSB)
        return split_lsb(l, prog, a, &f, tk, tv, x, wg);
    if (p.algo == CLPRIM_SORT_TILE_BITONIC)
        return tile_bitonic(l, prog, a, &f, hist, x, wg, tile, p.btile);
    if (p.algo == CLPRIM_SORT_CHUNKED)
        return chunked(l, prog, a, &f, &m, tk, tv, hist, x, chunks);
    if (d->scratch)
        st = take(l, d, &used, m.state, 0, &state);
    return st == CLPRIM_SUCCESS
               ? onesweep(l, prog, a, &f, &m, tk, tv, hist, state, x, wg,
                          (size_t)ctx->info.compute_units * p.t.hist_groups_per_cu)
               : st;
}

static clprim_status run(clprim_context *ctx, cl_command_queue queue, const sort_args *a,
                         cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const clprim_sort_desc *d = a->d;
    const size_t vs = d ? d->value_size : 0;
    clprim__call call = {
        .desc = d,
        .type = CLPRIM_TYPE_UINT32,
        .op = CLPRIM_OP_SUM,
        .algorithm_count = CLPRIM_SORT_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_sort_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 2,
        .buffers =
            {{.name = "keys_in", .mem = a->kin, .off = a->kin_off, .count = a->n},
             {.name = "keys_out", .mem = a->kout, .off = a->kout_off, .count = a->n, .written = 1}},
        .in_place = a->split ? 0 : 2};
    /* fields a call does not read are refused (issue 30), not ignored */
    if (event)
        *event = NULL;
    if (d && ctx && a->split && (d->begin_bit || d->end_bit || d->algorithm || d->scratch))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc->%s: clprim_split "
                                     "splits by `bit` alone, with the context's memory; leave "
                                     "begin_bit, end_bit, algorithm and scratch 0",
                                     d->begin_bit ? "begin_bit" : d->end_bit ? "end_bit"
                                     : d->algorithm ? "algorithm" : "scratch");
    if (d && ctx && d->scratch_size && !d->scratch)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->scratch_size is %zu but desc->scratch is NULL",
                                     d->scratch_size);
    if (d) {
        const size_t key = clprim_type_size(d->key_type);
        call.type = key == 8 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
        call.algorithm = (int)d->algorithm;
        if (vs && vs <= MAX_VALUE_BYTES && a->vin && a->vout) {
            const clprim__call_buffer vi = {"values_in", a->vin, a->vin_off, a->n, vs, 0};
            const clprim__call_buffer vo = {"values_out", a->vout, a->vout_off, a->n, vs, 1};
            call.buffers[call.num_buffers++] = vi;
            call.buffers[call.num_buffers++] = vo;
        }
        if (d->scratch) {
            const clprim__call_buffer sc = {"desc->scratch", d->scratch, 0, d->scratch_size, 1, 1};
            call.buffers[call.num_buffers++] = sc;
        }
        if (a->count) {
            const clprim__call_buffer c = {"count", a->count, a->count_off, 1, 8, 1};
            call.buffers[call.num_buffers++] = c;
        }
    }
    return clprim__launch_run(ctx, &call, sort_body, a, event);
}

clprim_status clprim_sort(clprim_context *ctx, cl_command_queue queue, const clprim_sort_desc *desc,
                          cl_mem keys_in, size_t keys_in_off, cl_mem keys_out, size_t keys_out_off,
                          cl_mem values_in, size_t values_in_off, cl_mem values_out,
                          size_t values_out_off, size_t n, cl_uint num_wait, const cl_event *wait,
                          cl_event *event)
{
    const sort_args a = {.d = desc,
                         .kin = keys_in,
                         .kout = keys_out,
                         .vin = values_in,
                         .vout = values_out,
                         .kin_off = keys_in_off,
                         .kout_off = keys_out_off,
                         .vin_off = values_in_off,
                         .vout_off = values_out_off,
                         .n = n};
    return run(ctx, queue, &a, num_wait, wait, event);
}

clprim_status clprim_split(clprim_context *ctx, cl_command_queue queue, const clprim_sort_desc *desc,
                           unsigned bit, cl_mem keys_in, size_t keys_in_off, cl_mem keys_out,
                           size_t keys_out_off, cl_mem values_in, size_t values_in_off,
                           cl_mem values_out, size_t values_out_off, size_t n, cl_mem count,
                           size_t count_off, cl_uint num_wait, const cl_event *wait,
                           cl_event *event)
{
    const sort_args a = {.d = desc,
                         .split = 1,
                         .bit = bit,
                         .kin = keys_in,
                         .kout = keys_out,
                         .vin = values_in,
                         .vout = values_out,
                         .count = count,
                         .kin_off = keys_in_off,
                         .kout_off = keys_out_off,
                         .vin_off = values_in_off,
                         .vout_off = values_out_off,
                         .n = n,
                         .count_off = count_off};
    return run(ctx, queue, &a, num_wait, wait, event);
}

clprim_status clprim_sort_scratch_size(clprim_context *ctx, const clprim_sort_desc *desc, size_t n,
                                       size_t *bytes)
{
    clprim__sort_keys f = {0};
    clprim__sort_plan p;
    sort_memory m;
    clprim_status st;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc || !bytes)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc or bytes is NULL");
    pthread_mutex_lock(&ctx->lock);
    st = clprim__sort_keys_of(ctx, desc, n, &f);
    if (st == CLPRIM_SUCCESS) /* under the lock: the context's tuning file */
        p = clprim__sort_plan_of(ctx, desc, &f, n, 0, 0);
    pthread_mutex_unlock(&ctx->lock);
    if (st != CLPRIM_SUCCESS)
        return st;
    m = memory_of(&f, desc->value_size, n, (size_t)p.t.wg_size * p.items,
                  p.algo == CLPRIM_SORT_TILE_BITONIC,
                  p.algo == CLPRIM_SORT_CHUNKED ? clprim__chunks(&ctx->info, p.t.chunks_per_cu, n)
                                                : 0);
    *bytes = scratch_bytes(&m, desc->value_size);
    return CLPRIM_SUCCESS;
}

clprim_status clprim__sort_host_with(clprim_context *ctx, const clprim_sort_desc *desc, void *keys,
                                    void *values, size_t n, clprim__sort_in_place sort,
                                    const void *arg)
{
    cl_mem bk = NULL, bv = NULL;
    size_t key, vs;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    key = clprim_type_size(desc->key_type);
    vs = desc->value_size;
    if (!key)
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE, "desc->key_type %d is not a "
                                     "clprim_type", (int)desc->key_type);
    if (n && (!keys || (vs && !values)))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "keys or values is NULL");
    if (n && ((key * n) / n != key || (vs && (vs * n) / n != vs)))
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "n = %zu keys overflow size_t", n);
    st = clprim__host_buffer_unlocked(ctx, key * n, keys, &bk);
    if (st == CLPRIM_SUCCESS && vs)
        st = clprim__host_buffer_unlocked(ctx, vs * n, values, &bv);
    if (st == CLPRIM_SUCCESS)
        st = sort(ctx, desc, bk, bv, n, arg);
    if (st == CLPRIM_SUCCESS && n)
        st = clprim__host_read_unlocked(ctx, bk, key * n, keys, 0, NULL);
    if (st == CLPRIM_SUCCESS && n && vs)
        st = clprim__host_read_unlocked(ctx, bv, vs * n, values, 0, NULL);
    if (bk)
        clReleaseMemObject(bk);
    if (bv)
        clReleaseMemObject(bv);
    return st;
}

static clprim_status sort_in_place(clprim_context *ctx, const clprim_sort_desc *desc, cl_mem keys,
                                   cl_mem values, size_t n, const void *arg)
{
    (void)arg;
    return clprim_sort(ctx, NULL, desc, keys, 0, keys, 0, values, 0, values, 0, n, 0, NULL, NULL);
}

clprim_status clprim_sort_host(clprim_context *ctx, const clprim_sort_desc *desc, void *keys,
                               void *values, size_t n)
{
    return clprim__sort_host_with(ctx, desc, keys, values, n, sort_in_place, NULL);
}

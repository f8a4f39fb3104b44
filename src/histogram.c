/* SPDX-License-Identifier: MIT */
/* Histograms: the samples counted into even bins over [lower, upper) or
 * into bins between custom edges, by one global atomic per sample
 * (GLOBAL) or through per-work-group counters in local memory (PRIVATE).
 * Validation, arguments and the enqueue chain are the launch layer's; the
 * contract with the kernels is cl/histogram_abi.h, the bin of a sample
 * clprim.h's (which the host reference in tests/reference/ computes too). */
#include "internal.h"

#include "histogram_abi.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* What the kernels need of the bounds (histogram_abi.h's arguments). */
typedef struct hist_shape {
    cl_ulong lo_bits, hi_bits, range, div, scale_bits;
} hist_shape;

/* The arguments of one call, for histogram_body. */
typedef struct histogram_args {
    const clprim_histogram_desc *d;
    cl_mem samples, counts;
    size_t samples_off, n, counts_off;
    hist_shape shape; /* check_desc's */
} histogram_args;

/* [private] */
static const char *const kernels[2] = {"histogram_global", "histogram_private"};

/* HIST_UNSIGNED, HIST_SIGNED or HIST_FLOAT; -1 for what is no sample
 * type (SAME, or not a clprim_pixel_type). */
static int sample_kind(clprim_pixel_type t)
{
    switch (t) {
    case CLPRIM_PIXEL_UINT8:
    case CLPRIM_PIXEL_UINT16:
    case CLPRIM_PIXEL_UINT32:
    case CLPRIM_PIXEL_UINT64: return HIST_UNSIGNED;
    case CLPRIM_PIXEL_INT8:
    case CLPRIM_PIXEL_INT16:
    case CLPRIM_PIXEL_INT32:
    case CLPRIM_PIXEL_INT64: return HIST_SIGNED;
    case CLPRIM_PIXEL_FLOAT:
    case CLPRIM_PIXEL_DOUBLE: return HIST_FLOAT;
    default: return -1;
    }
}

/* Bytes per count of count type t; 0 for a type that is no count type. */
static size_t count_size(clprim_type t)
{
    return t == CLPRIM_TYPE_UINT32 || t == CLPRIM_TYPE_UINT64 ? clprim_type_size(t) : 0;
}

/* Even bins over float or double samples: the bounds and the scale in the
 * sample type F (bits U), as clprim.h computes them; 0 when the width or
 * the scale is not finite there, or the bounds meet once rounded. */
#define FLOAT_SHAPE(NAME, F, U)                                                               \
    static int NAME(double lower, double upper, size_t bins, hist_shape *s)                   \
    {                                                                                         \
        const F lo = (F)lower, hi = (F)upper, width = hi - lo, scale = (F)bins / width;       \
        U b;                                                                                  \
        if (!(lo < hi) || !isfinite(width) || !isfinite(scale))                               \
            return 0;                                                                         \
        memcpy(&b, &lo, sizeof b);                                                            \
        s->lo_bits = b;                                                                       \
        memcpy(&b, &hi, sizeof b);                                                            \
        s->hi_bits = b;                                                                       \
        memcpy(&b, &scale, sizeof b);                                                         \
        s->scale_bits = b;                                                                    \
        return 1;                                                                             \
    }
FLOAT_SHAPE(float_shape, float, cl_uint)
FLOAT_SHAPE(double_shape, double, cl_ulong)
#undef FLOAT_SHAPE

/* Whether x (in [-2^63, 2^64)) is an integer; without libm's floor, which
 * the library does not link (a consumer of the shared library failed to). */
static int whole(double x)
{
    return x < 0 ? (double)(cl_long)x == x : (double)(cl_ulong)x == x;
}

/* Even bins over integer samples of `bytes` bytes: lower and upper must be
 * integers with least <= lower and upper <= the type's largest value + 1
 * (so that [0, 256) covers every uint8); for 64-bit samples upper must stay
 * below that (it is kept in 64 bits); 0 otherwise. */
static int int_shape(int kind, size_t bytes, double lower, double upper, size_t bins,
                     hist_shape *s)
{
    const int bits = (int)bytes * 8;
    /* [least, beyond): the type's values as doubles (exact: powers of two) */
    const double half = (double)((cl_ulong)1 << (bits - 1));
    const double least = kind == HIST_SIGNED ? -half : 0.0;
    const double beyond = kind == HIST_SIGNED ? half : 2.0 * half;
    /* the range first: only then do the casts below hold the values */
    if (lower < least || (bits < 64 ? upper > beyond : upper >= beyond) || !whole(lower) ||
        !whole(upper))
        return 0;
    /* sign-extended to 64 bits, as the kernel reads them */
    s->lo_bits = kind == HIST_SIGNED ? (cl_ulong)(cl_long)lower : (cl_ulong)lower;
    s->hi_bits = kind == HIST_SIGNED ? (cl_ulong)(cl_long)upper : (cl_ulong)upper;
    s->range = s->hi_bits - s->lo_bits;
    /* bins dividing the range: one division per sample (for samples up to
     * 32 bits a 32-bit one, so never 2^32 itself) */
    s->div = s->range % bins == 0 && s->range / bins <= 0xffffffffu ? s->range / bins : 0;
    return 1;
}

/* The descriptor, lock not held (the buffers' element sizes depend on
 * it, so it is checked before the launch layer checks the buffers), and
 * what the kernels need of its bounds; custom: edges given (on the device
 * or, for the host helper, on the host). */
/* The most counters of 4 bytes a PRIVATE work-group holds: every byte of
 * local memory a launch asks for counts against the device's size, and
 * the edges' argument takes at least one sample beside the counters
 * (Intel's CPU runtime refused 65,536 counters in its 256 KiB at the
 * launch); the tuning row may ask for fewer. */
static cl_ulong private_bins_most(const clprim_context *ctx, const clprim_histogram_desc *d,
                                  const clprim__histogram_tuning *t)
{
    const cl_ulong local = ctx->info.local_mem_size, ss = clprim_pixel_type_size(d->sample_type);
    const cl_ulong most = local > ss + 4 ? (local - ss) / 4 : 1;
    return t->private_bins && t->private_bins < most ? t->private_bins : most;
}

/* PRIVATE: log2 of the copies of each of a slice's `per` counters (work-
 * item i adds to copy i % copies, so that a SIMD group's adds fall in
 * different banks, and on different counters when its samples share a
 * bin): the most the row allows within its counter budget, within `held`
 * counters, and leaving room for `edge_bytes` of custom edges in local
 * memory. */
static cl_uint copies_log2_for(const clprim__histogram_tuning *t, cl_ulong per, cl_ulong held,
                               cl_ulong edge_bytes, cl_ulong local)
{
    cl_uint c = 0;
    while ((2ull << c) <= t->copies && (per << (c + 1)) <= held &&
           (per << (c + 1)) <= t->copy_counters && (per << (c + 1)) * 4 + edge_bytes <= local)
        ++c;
    return c;
}

static clprim_status check_desc(clprim_context *ctx, const clprim_histogram_desc *d, int custom,
                                hist_shape *s)
{
    const int kind = sample_kind(d->sample_type);
    const size_t ss = clprim_pixel_type_size(d->sample_type);
    memset(s, 0, sizeof *s);
    if (kind < 0)
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE,
                                     "desc->sample_type %d is not a sample type (uint8, int8, "
                                     "uint16, int16, int32, uint32, int64, uint64, float or double)",
                                     (int)d->sample_type);
    if (!count_size(d->count_type)) {
        const char *name = clprim_type_name(d->count_type);
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->count_type %d (%s) is not CLPRIM_TYPE_UINT32 or "
                                     "CLPRIM_TYPE_UINT64", (int)d->count_type,
                                     name ? name : "not a clprim_type");
    }
    if (d->sample_type == CLPRIM_PIXEL_DOUBLE && !ctx->info.has_fp64)
        return clprim__fail_unlocked(ctx, CLPRIM_UNSUPPORTED,
                                     "double samples need cl_khr_fp64, which %s lacks",
                                     ctx->info.device_name);
    if (d->count_type == CLPRIM_TYPE_UINT64 && !ctx->info.has_int64_atomics)
        return clprim__fail_unlocked(ctx, CLPRIM_UNSUPPORTED,
                                     "uint64 counts need cl_khr_int64_base_atomics, which %s lacks",
                                     ctx->info.device_name);
    if (d->bins == 0 || (cl_ulong)d->bins > HIST_MAX_BINS)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->bins %zu is not in [1, %llu]", d->bins,
                                     (unsigned long long)HIST_MAX_BINS);
    if (d->accumulate != 0 && d->accumulate != 1)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->accumulate %d is not 0 or 1", d->accumulate);
    if (!custom && d->edges_off)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->edges_off %zu without desc->edges (even bins read no "
                                     "edges)", d->edges_off);
    if (custom) {
        if (d->lower != 0 || d->upper != 0)
            return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                         "desc->lower and desc->upper must be 0 with custom edges "
                                         "(desc->edges), not %g and %g", d->lower, d->upper);
    } else if (!isfinite(d->lower) || !isfinite(d->upper) || !(d->lower < d->upper)) {
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->lower %g and desc->upper %g: even bins need finite "
                                     "bounds, lower < upper", d->lower, d->upper);
    } else if (kind == HIST_FLOAT ? !(ss == 4 ? d->lower <= FLT_MAX && d->lower >= -FLT_MAX &&
                                                    d->upper <= FLT_MAX && d->upper >= -FLT_MAX &&
                                                    float_shape(d->lower, d->upper, d->bins, s)
                                              : double_shape(d->lower, d->upper, d->bins, s))
                                  : !int_shape(kind, ss, d->lower, d->upper, d->bins, s)) {
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     kind == HIST_FLOAT
                                         ? "desc->lower %.17g and desc->upper %.17g: in %s they "
                                           "must stay finite and apart, and so must upper - "
                                           "lower and bins / (upper - lower)"
                                         : "desc->lower %.17g and desc->upper %.17g must be "
                                           "integers from the least %s to its largest + 1 "
                                           "(64-bit: to its largest)",
                                     d->lower, d->upper, clprim_pixel_type_name(d->sample_type));
    }
    return CLPRIM_SUCCESS;
}

/* The program for one sample type (both algorithms, both count types,
 * even and custom bins: one per sample type). */
static clprim_status histogram_program(clprim__launch *l, const clprim_histogram_desc *d,
                                       const clprim__histogram_tuning *t, clprim__program **prog)
{
    char params[256]; /* six short lines */
    const clprim__program_spec spec = {.file = "histogram.cl",
                                       .element = l->elem.defines,
                                       .params = params,
                                       .wg_size = t->wg_size,
                                       .tuning = t->source};
    snprintf(params, sizeof params,
             "#define HIST_S %s\n#define HIST_SIZE %zu\n#define HIST_KIND %d\n"
             "#define HIST_ITEMS %u\n#define HIST_WIDE_ATOMICS %d\n#define HIST_FP64 %d\n",
             clprim__pixel_type_cl(d->sample_type), clprim_pixel_type_size(d->sample_type),
             sample_kind(d->sample_type), t->items, l->ctx->info.has_int64_atomics ? 1 : 0,
             d->sample_type == CLPRIM_PIXEL_DOUBLE);
    return clprim__program_get(l->ctx, &spec, prog);
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* One call, validated by the launch layer: the counts zeroed unless they
 * accumulate, then one kernel over a bounded grid that loops over the
 * samples. */
static clprim_status histogram_body(clprim__launch *l, const void *args)
{
    const histogram_args *a = args;
    const clprim_histogram_desc *d = a->d;
    clprim_context *ctx = l->ctx;
    const size_t ss = clprim_pixel_type_size(d->sample_type), cs = count_size(d->count_type);
    const cl_ulong local = ctx->info.local_mem_size;
    const cl_ulong edge_bytes = ((cl_ulong)d->bins + 1) * ss;
    const cl_ulong samples_off = a->samples_off, n = a->n, counts_off = a->counts_off,
                   edges_off = d->edges ? d->edges_off : 0;
    const cl_uint bins = (cl_uint)d->bins, custom = d->edges != NULL,
                  wide = d->count_type == CLPRIM_TYPE_UINT64;
    const clprim__histogram_tuning t = clprim__histogram_tuning_for(ctx, ss, a->n);
    /* PRIVATE in slices of the bins, each a work-group's counters, where
     * AUTO finds few enough slices */
    const cl_ulong held = private_bins_most(ctx, d, &t);
    const cl_uint slices = (cl_uint)((d->bins + held - 1) / held);
    const int priv = d->algorithm == CLPRIM_HISTOGRAM_PRIVATE ||
                     (d->algorithm == CLPRIM_HISTOGRAM_AUTO && slices <= t.max_slices);
    const cl_uint grid_slices = priv ? slices : 1u;
    const cl_ulong per = priv ? HIST_SLICE_BINS((cl_ulong)d->bins, slices) : 1;
    const cl_uint copies_log2 = priv ? copies_log2_for(&t, per, held, custom ? edge_bytes : 0, local) : 0;
    /* the edges beside the counters, where both local arguments fit
     * together (the counters' takes 4 bytes when GLOBAL leaves it unused:
     * 65,536 float edges alone fill Intel's 256 KiB) */
    const cl_ulong counter_arg = (per << copies_log2) * 4;
    const cl_uint cached = custom && edge_bytes + counter_arg <= local;
    cl_mem edges = custom ? d->edges : a->samples; /* even bins read no edges */
    clprim__program *prog;
    size_t wg, chunk, groups;
    clprim_status st;

    if (!d->accumulate) {
        st = clprim__chain_fill(ctx, &l->chain, a->counts, a->counts_off * cs, d->bins * cs);
        if (st != CLPRIM_SUCCESS)
            return st;
    }
    if (a->n == 0)
        return CLPRIM_SUCCESS;
    st = histogram_program(l, d, &t, &prog);
    if (st != CLPRIM_SUCCESS)
        return st;
    wg = clprim__program_wg_size(prog);
    chunk = wg * t.items * HIST_PACK_OF(ss); /* samples */
    /* parts of the samples, each counted by grid_slices work-groups */
    groups = min_size(a->n / chunk + (a->n % chunk != 0),
                      (size_t)ctx->info.compute_units *
                          (priv ? t.groups_per_cu : t.global_groups_per_cu));
    groups = (groups ? groups : 1) * grid_slices;
    {
        const clprim__arg kargs[] = {
            CLPRIM__ARG(a->samples),
            CLPRIM__ARG(samples_off),
            CLPRIM__ARG(n),
            CLPRIM__ARG(edges),
            CLPRIM__ARG(edges_off),
            CLPRIM__ARG_BYTES(NULL, cached ? (size_t)edge_bytes : ss),
            CLPRIM__ARG_BYTES(NULL, (size_t)counter_arg),
            CLPRIM__ARG(a->shape.lo_bits),
            CLPRIM__ARG(a->shape.hi_bits),
            CLPRIM__ARG(a->shape.range),
            CLPRIM__ARG(a->shape.div),
            CLPRIM__ARG(a->shape.scale_bits),
            CLPRIM__ARG(bins),
            CLPRIM__ARG(custom),
            CLPRIM__ARG(cached),
            CLPRIM__ARG(a->counts),
            CLPRIM__ARG(counts_off),
            CLPRIM__ARG(wide),
            CLPRIM__ARG(grid_slices),
            CLPRIM__ARG(copies_log2)};
        return CLPRIM__LAUNCH_KERNEL(l, prog, kernels[priv], kargs, groups, wg);
    }
}

static clprim_status run(clprim_context *ctx, cl_command_queue queue, histogram_args *a,
                         cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const clprim_histogram_desc *d = a->d;
    const size_t ss = d ? clprim_pixel_type_size(d->sample_type) : 0;
    const size_t cs = d ? count_size(d->count_type) : 0;
    const int custom = d && d->edges;
    const clprim__call call = {
        .desc = d,
        .type = CLPRIM_TYPE_UINT32, /* the element layer's T: unused by the kernels */
        .op = CLPRIM_OP_SUM,
        .algorithm = d ? (int)d->algorithm : 0,
        .algorithm_count = CLPRIM_HISTOGRAM_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_histogram_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = custom ? 3 : 2,
        .buffers = {{"samples", a->samples, a->samples_off, a->n, ss ? ss : 1, 0},
                    {"counts", a->counts, a->counts_off, d ? d->bins : 0, cs ? cs : 4, 1},
                    {"desc->edges", custom ? d->edges : NULL, custom ? d->edges_off : 0,
                     custom ? d->bins + 1 : 0, ss ? ss : 1, 0}}};
    if (event)
        *event = NULL;
    if (ctx && d) {
        const clprim_status st = check_desc(ctx, d, custom, &a->shape);
        if (st != CLPRIM_SUCCESS)
            return st;
    }
    return clprim__launch_run(ctx, &call, histogram_body, a, event);
}

clprim_status clprim_histogram(clprim_context *ctx, cl_command_queue queue,
                               const clprim_histogram_desc *desc, cl_mem samples,
                               size_t samples_off, size_t n, cl_mem counts, size_t counts_off,
                               cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    histogram_args a = {desc, samples, counts, samples_off, n, counts_off, {0, 0, 0, 0, 0}};
    return run(ctx, queue, &a, num_wait, wait, event);
}

/* The blocking helper: samples, host edges and (accumulating) counts
 * copied to new buffers, counted, the counts read back once done; the
 * buffers released. */
clprim_status clprim_histogram_host(clprim_context *ctx, const clprim_histogram_desc *desc,
                                    const void *samples, size_t n, const void *edges,
                                    void *counts)
{
    cl_mem bs = NULL, be = NULL, bc = NULL;
    cl_event done = NULL;
    clprim_histogram_desc d;
    hist_shape shape;
    size_t ss, cs;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    if (desc->edges)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->edges: clprim_histogram_host takes its custom edges "
                                     "from the host (the edges argument); leave desc->edges NULL");
    if (desc->edges_off)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->edges_off: clprim_histogram_host reads the host edges "
                                     "from their first; leave it 0");
    d = *desc;
    st = check_desc(ctx, &d, edges != NULL, &shape);
    if (st != CLPRIM_SUCCESS)
        return st;
    ss = clprim_pixel_type_size(d.sample_type);
    cs = count_size(d.count_type);
    if ((n && !samples) || !counts)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "%s is NULL",
                                     n && !samples ? "samples" : "counts");
    if (n && (n * ss) / n != ss) /* bins are at most 2^32 - 2 (check_desc) */
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "n = %zu samples overflow size_t",
                                     n);
    st = clprim__host_buffer_unlocked(ctx, n * ss, samples, &bs);
    if (st == CLPRIM_SUCCESS && edges)
        st = clprim__host_buffer_unlocked(ctx, (d.bins + 1) * ss, edges, &be);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, d.bins * cs, d.accumulate ? counts : NULL, &bc);
    if (st == CLPRIM_SUCCESS) {
        histogram_args a = {&d, bs, bc, 0, n, 0, {0, 0, 0, 0, 0}};
        d.edges = be;
        d.edges_off = 0;
        st = run(ctx, NULL, &a, 0, NULL, &done);
    }
    /* after the histogram's event: the context's queue may be out of order */
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_read_unlocked(ctx, bc, d.bins * cs, counts, 1, &done);
    if (done)
        clReleaseEvent(done);
    if (bs)
        clReleaseMemObject(bs);
    if (be)
        clReleaseMemObject(be);
    if (bc)
        clReleaseMemObject(bc);
    return st;
}

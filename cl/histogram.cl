/* SPDX-License-Identifier: MIT */
/* Histograms: how many samples fall in each bin (even bins over [lower,
 * upper), or bins between custom edges), bins as clprim.h defines them.
 * Contract with src/histogram.c: histogram_abi.h.
 *
 *   histogram_global    the taught naive form: one atomic add on the
 *                       global counts per sample counted;
 *   histogram_private   the taught privatised form (PMPP's histogram
 *                       chapter): each work-group of a bounded grid counts
 *                       into 32-bit counters in local memory, then adds
 *                       each nonzero one to the global counts with one
 *                       atomic, at the end and whenever its counters could
 *                       otherwise overflow.
 * Both loop over the samples in chunks of WG_SIZE x HIST_ITEMS loads, each
 * work-item issuing all its HIST_ITEMS loads of a chunk before counting
 * any sample, so that that many loads are in flight at once (the sort's
 * histogram went from 815 to 468 us on the H100 for that); samples up to
 * 32 bits are loaded as 16-byte words (HIST_PACK below). PRIVATE keeps
 * `copies` side-by-side copies of each counter, work-item i adding to copy
 * i % copies, so that the work-items of a SIMD group add to different
 * banks of local memory whatever their bins, and to different counters
 * when their samples share a bin. */
#ifndef CLPRIM_ASSEMBLED
#include "histogram_abi.h"
#include "common/elem.clh"
#endif

#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#ifndef HIST_S
#define HIST_S uchar
#define HIST_SIZE 1
#define HIST_KIND HIST_UNSIGNED
#endif
#ifndef HIST_ITEMS
#define HIST_ITEMS 4
#endif
#ifndef HIST_WIDE_ATOMICS
#define HIST_WIDE_ATOMICS 0
#endif
#ifndef HIST_FP64
#define HIST_FP64 0
#endif
#if HIST_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if HIST_WIDE_ATOMICS
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif
/* the float bin is (x - lower) * scale rounded twice, as the host
 * reference rounds it: a fused multiply-add would round once and move
 * samples near a bin's edge into the next bin */
#pragma OPENCL FP_CONTRACT OFF

typedef HIST_S hist_s;

/* a bound from its bits (histogram_abi.h) */
#if HIST_KIND == HIST_FLOAT && HIST_SIZE == 8
#define HIST_FROM_BITS(b) as_double(b)
#elif HIST_KIND == HIST_FLOAT
#define HIST_FROM_BITS(b) as_float((uint)(b))
#elif HIST_KIND == HIST_SIGNED
#define HIST_FROM_BITS(b) ((hist_s)as_long(b))
#else
#define HIST_FROM_BITS(b) ((hist_s)(b))
#endif

/* a work-group's 32-bit counters take at most this many chunks (of
 * WG_SIZE x HIST_ITEMS words of HIST_PACK samples, below) between flushes,
 * so that no counter passes 2^32 - 1 (work-group 0 counting up to
 * 2 HIST_PACK more samples first) */
#define HIST_FLUSH_CHUNKS ((0xffffffffu - 2 * HIST_PACK) / (WG_SIZE * HIST_ITEMS * HIST_PACK))

#define HIST_KERNEL kernel CLPRIM_KERNEL_ATTRS void
#define HIST_ARGS                                                                             \
    global const hist_s *samples, ulong samples_off, ulong n, global const hist_s *edges,     \
        ulong edges_off, local hist_s *ledges, local uint *lcounts, ulong lo_bits,            \
        ulong hi_bits, ulong range, ulong div, ulong scale_bits, uint bins, uint custom,      \
        uint cached, global uint *counts, ulong counts_off, uint wide, uint slices,         \
        uint copies_log2

/* What the bin of a sample depends on, the same for every sample. */
typedef struct hist_shape {
    hist_s lo, hi, scale; /* floats */
    ulong lo_bits, range, div; /* integers */
    uint lo32, rmax32;         /* samples of 32 bits or fewer: lower's low bits, range - 1 */
    uint shift;                /* log2(div) where div is a power of two, else 64 */
    uint bins, custom, cached;
    global const hist_s *edges;
    local const hist_s *ledges;
} hist_shape;

#if HIST_KIND != HIST_FLOAT
/* floor(d * bins / range) exactly, for 0 <= d < range */
inline uint hist_even_int(ulong d, ulong range, ulong div, uint bins)
{
#if HIST_SIZE < 8
    /* d below 2^32 and range at most 2^32: 32-bit division where bins
     * divides range (the same quotient: d * bins / (div * bins) = d / div;
     * the host leaves div 0 where it would be 2^32) */
    return div ? (uint)d / (uint)div : (uint)(d * bins / range);
#else
    const ulong lo = d * bins, hi = mul_hi(d, (ulong)bins);
    ulong rem;
    uint q = 0;
    if (div)
        return (uint)(d / div);
    if (!hi)
        return (uint)(lo / range);
    /* the 96-bit product over range: its top 64 bits are below range (the
     * quotient is below bins < 2^32), so 32 steps of long division over its
     * low 32 bits finish it; `carry` is the remainder's 65th bit */
    rem = (hi << 32) | (lo >> 32);
    for (int b = 31; b >= 0; --b) {
        const ulong carry = rem >> 63;
        rem = (rem << 1) | ((lo >> b) & 1u);
        q <<= 1;
        if (carry || rem >= range) {
            rem -= range;
            q |= 1u;
        }
    }
    return q;
#endif
}
#endif

/* x's bin among the edges: how many edges are at or below x, less one
 * (bit by bit, so that every sample takes the same steps); a value of bins
 * or more (as (uint)-1 below the first edge, or NaN) counts nowhere */
#define HIST_EDGE_SEARCH(E)                                                                   \
    do {                                                                                      \
        for (uint bit = top; bit; bit >>= 1) {                                                \
            const uint i = pos + bit - 1;                                                     \
            if (i <= s->bins && (E)[i] <= x)                                                  \
                pos += bit;                                                                   \
        }                                                                                     \
    } while (0)

/* The bin x counts in, or a value of s->bins or more for none. */
inline uint hist_bin(hist_s x, const hist_shape *s)
{
    if (s->custom) {
        const uint top = 1u << (31 - clz(s->bins + 1)); /* bins + 1 edges */
        uint pos = 0;
        if (s->cached)
            HIST_EDGE_SEARCH(s->ledges);
        else
            HIST_EDGE_SEARCH(s->edges);
        return pos - 1;
    }
#if HIST_KIND == HIST_FLOAT
    if (!(s->lo <= x && x < s->hi)) /* NaN: neither */
        return s->bins;
    {
        const hist_s t = (x - s->lo) * s->scale;
        return t < (hist_s)s->bins ? min((uint)t, s->bins - 1) : s->bins - 1;
    }
#elif HIST_SIZE <= 4
    {
        /* x - lower modulo 2^32 (both sign-extended), at most range - 1
         * exactly when lower <= x < upper: a sample below lower gives
         * 2^32 - (lower - x), and lower - x is at most 2^32 - range as
         * upper - 1 fits the type. 32-bit steps: a sample takes a handful
         * of instructions, which bound 8-bit samples (H100, uint8 in 256
         * bins: 0.549 ms with 32-bit division, 0.464 with a 64-bit shift) */
        const uint d = (uint)x - s->lo32;
        if (d > s->rmax32)
            return s->bins;
        return s->shift < 64 ? d >> s->shift : hist_even_int(d, s->range, s->div, s->bins);
    }
#else
    {
        /* x - lower modulo 2^64 (signed samples sign-extended): below range
         * exactly when lower <= x < upper, as a sample below lower wraps
         * to 2^64 - (lower - x), past any range; upper itself may be the
         * type's largest value + 1, which the sample type cannot hold */
        const ulong d = (ulong)x - s->lo_bits;
        if (!(d < s->range))
            return s->bins;
        /* a division by a power of two as a shift */
        return s->shift < 64 ? (uint)(d >> s->shift) : hist_even_int(d, s->range, s->div, s->bins);
    }
#endif
}

inline hist_shape hist_shape_of(global const hist_s *edges, local hist_s *ledges, ulong lo_bits,
                                ulong hi_bits, ulong range, ulong div, ulong scale_bits,
                                uint bins, uint custom, uint cached)
{
    hist_shape s;
    s.lo = HIST_FROM_BITS(lo_bits);
    s.hi = HIST_FROM_BITS(hi_bits);
    s.scale = HIST_FROM_BITS(scale_bits);
    s.lo_bits = lo_bits;
    s.lo32 = (uint)lo_bits;
    s.rmax32 = (uint)(range - 1);
    s.range = range;
    s.div = div;
    s.shift = div && !(div & (div - 1)) ? 63 - (uint)clz(div) : 64u;
    s.bins = bins;
    s.custom = custom;
    s.cached = cached;
    s.edges = edges;
    s.ledges = ledges;
    /* the edges into local memory once per work-group */
    if (cached) {
        for (uint i = get_local_id(0); i <= bins; i += WG_SIZE)
            ledges[i] = edges[i];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s;
}

/* Adds c to count b of the global counts. */
inline void hist_add(global uint *counts, uint wide, uint b, uint c)
{
#if HIST_WIDE_ATOMICS
    if (wide) {
        atom_add((volatile global ulong *)counts + b, (ulong)c);
        return;
    }
#endif
    atomic_add((volatile global uint *)counts + b, c);
}

/* Samples up to 32 bits are loaded as whole 16-byte words of HIST_PACK
 * samples each (one load instruction where a work-item would issue up to
 * sixteen), from the first sample whose address is a multiple of 16 on
 * (buffers start aligned); the few samples before it and after the last
 * whole word are counted one by one. */
#if HIST_SIZE == 1 /* literals: HIST_UNPACK pastes them into names */
#define HIST_PACK 16
#elif HIST_SIZE == 2
#define HIST_PACK 8
#elif HIST_SIZE == 4
#define HIST_PACK 4
#else
#define HIST_PACK 1
#endif
#if HIST_PACK != HIST_PACK_OF(HIST_SIZE)
#error "clprim: HIST_PACK disagrees with histogram_abi.h"
#endif
#define HIST_CAT_(a, b) a##b
#define HIST_CAT(a, b) HIST_CAT_(a, b)
#if HIST_PACK > 1
typedef uint4 hist_word;
/* a word's samples into dst[0 .. HIST_PACK), in memory order whatever the
 * device's byte order (as_uchar4 and the like reinterpret the bytes) */
#define HIST_UNPACK(w, dst)                                                                   \
    HIST_CAT(vstore, HIST_PACK)(HIST_CAT(as_, HIST_CAT(HIST_S, HIST_PACK))(w), 0, dst)
#else
typedef hist_s hist_word;
#define HIST_UNPACK(w, dst) (*(dst) = (w))
#endif

/* One sample counted in bin b (bins or more: none), in the work-group's
 * counters of bins first .. first + held - 1 (priv; b outside them: not
 * this work-group's), copy `copy` of each, or in the global counts. */
inline void hist_one(uint b, uint bins, uint priv, uint first, uint held, uint copies_log2,
                     uint copy, local uint *lcounts, global uint *counts, uint wide)
{
    if (priv) {
        if (b - first < held)
            atomic_add(&lcounts[((b - first) << copies_log2) + copy], 1u);
    } else if (b < bins) {
        hist_add(counts, wide, b, 1u);
    }
}

/* One chunk of this work-item's samples: HIST_ITEMS words, a work-group
 * apart, from word `first` of nwords, all loaded before any is counted
 * (full, a constant at each call: all of them there, so that a whole chunk
 * takes no bounds checks); the rest as hist_one's. */
inline void hist_chunk(global const hist_word *words, ulong nwords, ulong first, int full,
                       const hist_shape *s, uint priv, uint first_bin, uint held,
                       uint copies_log2, uint copy, local uint *lcounts, global uint *counts,
                       uint wide)
{
    const uint lid = get_local_id(0);
    hist_word w[HIST_ITEMS];
#pragma unroll
    for (uint k = 0; k < HIST_ITEMS; ++k) {
        const ulong j = first + k * WG_SIZE + lid;
        w[k] = full || j < nwords ? words[j] : (hist_word)0;
    }
#pragma unroll
    for (uint k = 0; k < HIST_ITEMS; ++k) {
        hist_s v[HIST_PACK];
        const int here = full || first + k * WG_SIZE + lid < nwords;
        HIST_UNPACK(w[k], v);
#pragma unroll
        for (uint e = 0; e < HIST_PACK; ++e)
            hist_one(here ? hist_bin(v[e], s) : s->bins, s->bins, priv, first_bin, held,
                     copies_log2, copy, lcounts, counts, wide);
    }
}

/* The work-group's counters (of bins first .., each the sum of its
 * copies) added to the global counts (nonzero ones only) and zeroed. */
inline void hist_flush(local uint *lcounts, uint first, uint held, uint copies_log2,
                       global uint *counts, uint wide)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_local_id(0); i < held; i += WG_SIZE) {
        uint c = 0;
        for (uint k = 0; k < 1u << copies_log2; ++k)
            c += lcounts[(i << copies_log2) + k];
        if (c) {
            hist_add(counts, wide, first + i, c);
            for (uint k = 0; k < 1u << copies_log2; ++k)
                lcounts[(i << copies_log2) + k] = 0;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Both forms: priv 0 (GLOBAL) or 1 (PRIVATE), a constant in each kernel,
 * so the compiler keeps only its own form's steps. */
inline void hist_count(HIST_ARGS, uint priv)
{
    const ulong chunk = (ulong)WG_SIZE * HIST_ITEMS; /* words */
    const hist_shape s = hist_shape_of(edges + edges_off, ledges, lo_bits, hi_bits, range, div,
                                       scale_bits, bins, custom, cached);
    /* the samples before the first whole word and after the last one */
    const uint head = (uint)min(n, (ulong)((HIST_PACK - samples_off % HIST_PACK) % HIST_PACK));
    const ulong nwords = (n - head) / HIST_PACK;
    const uint tail = (uint)(n - head - nwords * HIST_PACK);
    global const hist_word *words;
    uint since = 0; /* PRIVATE: chunks counted since the last flush (the same in every work-item) */
    /* PRIVATE with more bins than a work-group's counters: `slices`
     * work-groups side by side (consecutive ids, so that they run
     * together and read the same samples from cache) each count a slice
     * of the bins over the same samples */
    const uint slice = priv ? (uint)(get_group_id(0) % slices) : 0u;
    const ulong part = priv ? get_group_id(0) / slices : get_group_id(0);
    const ulong parts = priv ? get_num_groups(0) / slices : get_num_groups(0);
    const uint per = priv ? HIST_SLICE_BINS(bins, slices) : bins;
    const uint first_bin = slice * per, held = min(per, bins - min(bins, first_bin));
    const uint lid = get_local_id(0), copy = lid & ((1u << copies_log2) - 1u);
    samples += samples_off;
    words = (global const hist_word *)(samples + head);
    counts = wide ? (global uint *)((global ulong *)counts + counts_off) : counts + counts_off;
    if (priv) {
        for (uint i = lid; i < held << copies_log2; i += WG_SIZE)
            lcounts[i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* the first part counts the head and the tail (fewer than HIST_PACK each) */
    if (part == 0)
        for (uint i = lid; i < head + tail; i += WG_SIZE)
            hist_one(hist_bin(samples[i < head ? i : nwords * HIST_PACK + i], &s), bins, priv,
                     first_bin, held, copies_log2, copy, lcounts, counts, wide);
    /* whole chunks, then the last one, if partial (the same in every
     * work-item, as the flushes' barriers need) */
    for (ulong first = part * chunk; first < nwords; first += parts * chunk) {
        if (first + chunk <= nwords)
            hist_chunk(words, nwords, first, 1, &s, priv, first_bin, held, copies_log2, copy,
                       lcounts, counts, wide);
        else
            hist_chunk(words, nwords, first, 0, &s, priv, first_bin, held, copies_log2, copy,
                       lcounts, counts, wide);
        if (priv && ++since == HIST_FLUSH_CHUNKS) {
            hist_flush(lcounts, first_bin, held, copies_log2, counts, wide);
            since = 0;
        }
    }
    if (priv)
        hist_flush(lcounts, first_bin, held, copies_log2, counts, wide);
}

#define HIST_ARG_NAMES                                                                        \
    samples, samples_off, n, edges, edges_off, ledges, lcounts, lo_bits, hi_bits, range, div, \
        scale_bits, bins, custom, cached, counts, counts_off, wide, slices, copies_log2

HIST_KERNEL histogram_global(HIST_ARGS)
{
    hist_count(HIST_ARG_NAMES, 0u);
}

HIST_KERNEL histogram_private(HIST_ARGS)
{
    hist_count(HIST_ARG_NAMES, 1u);
}

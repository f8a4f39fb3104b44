/* SPDX-License-Identifier: MIT */
/* Host reference of the PORTABLE level (issue 33): the association order
 * cl/portable_abi.h fixes, evaluated in the element's own arithmetic (float
 * sums in float), so that its bits are the bits every device must give. One
 * definition per step, instantiated for float and double. */
#include "reference/reference.h"

#include "../../cl/portable_abi.h"

#include <stdlib.h>
#include <string.h>

#define CLPRIM_REF_PORTABLE(T)                                                                    \
    /* The reduce's level: tile g of m values to dst[g]; returns the tiles. */                    \
    static size_t portable_level_##T(const T *src, size_t m, T *dst)                             \
    {                                                                                             \
        const size_t groups = m ? (m + PORTABLE_TILE - 1) / PORTABLE_TILE : 1;                    \
        for (size_t g = 0; g < groups; ++g) {                                                     \
            T b[PORTABLE_WG];                                                                     \
            for (size_t v = 0; v < PORTABLE_WG; ++v) {                                            \
                const size_t first = g * PORTABLE_TILE + v * PORTABLE_CHUNK;                      \
                T acc = 0;                                                                        \
                for (size_t j = 0; j < PORTABLE_CHUNK && first + j < m; ++j)                      \
                    acc = acc + src[first + j];                                                   \
                b[v] = acc;                                                                       \
            }                                                                                     \
            for (size_t d = 1; d < PORTABLE_WG; d <<= 1)                                          \
                for (size_t v = 0; v < PORTABLE_WG; v += 2 * d)                                   \
                    b[v] = b[v] + b[v + d];                                                       \
            dst[g] = b[0];                                                                        \
        }                                                                                         \
        return groups;                                                                            \
    }                                                                                             \
    /* The scan of n values from an optional carry-in (NULL: none). */                           \
    static int portable_scan_##T(const T *x, size_t n, int exclusive, const T *init, T *out)      \
    {                                                                                             \
        const size_t tiles = (n + PORTABLE_TILE - 1) / PORTABLE_TILE;                             \
        T *totals = NULL, *carries = NULL;                                                        \
        if (tiles > 1) {                                                                          \
            totals = malloc(tiles * sizeof(T));                                                   \
            carries = malloc(tiles * sizeof(T));                                                  \
            if (!totals || !carries || (portable_level_##T(x, n, totals),                        \
                                        portable_scan_##T(totals, tiles, 1, init, carries))) {    \
                free(totals);                                                                     \
                free(carries);                                                                    \
                return -1;                                                                        \
            }                                                                                     \
        }                                                                                         \
        for (size_t g = 0; g < tiles; ++g) {                                                      \
            T ks[2][PORTABLE_WG], c = carries ? carries[g] : init ? *init : 0;                    \
            int cur = 0;                                                                          \
            for (size_t v = 0; v < PORTABLE_WG; ++v) {                                            \
                const size_t first = g * PORTABLE_TILE + v * PORTABLE_CHUNK;                      \
                T loc = 0;                                                                        \
                for (size_t j = 0; j < PORTABLE_CHUNK && first + j < n; ++j)                      \
                    loc = j ? loc + x[first + j] : x[first + j];                                  \
                ks[0][v] = first < n ? loc : 0;                                                   \
            }                                                                                     \
            for (size_t d = 1; d < PORTABLE_WG; d <<= 1, cur ^= 1)                                \
                for (size_t v = 0; v < PORTABLE_WG; ++v)                                          \
                    ks[cur ^ 1][v] = v >= d ? ks[cur][v - d] + ks[cur][v] : ks[cur][v];           \
            for (size_t v = 0; v < PORTABLE_WG; ++v) {                                            \
                const size_t first = g * PORTABLE_TILE + v * PORTABLE_CHUNK;                      \
                const T prefix = v ? c + ks[cur][v - 1] : c;                                      \
                T loc = 0;                                                                        \
                for (size_t j = 0; j < PORTABLE_CHUNK && first + j < n; ++j) {                    \
                    const T before = loc;                                                         \
                    loc = j ? loc + x[first + j] : x[first + j];                                  \
                    out[first + j] = exclusive ? (j ? prefix + before : prefix) : prefix + loc;   \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
        free(totals);                                                                             \
        free(carries);                                                                            \
        return 0;                                                                                 \
    }
CLPRIM_REF_PORTABLE(float)
CLPRIM_REF_PORTABLE(double)

int clprim_ref_reduce_portable(clprim_type type, const void *x, size_t n, void *out)
{
    const size_t elem = clprim_type_size(type);
    unsigned char *a = malloc((n / PORTABLE_TILE + 1) * elem);
    unsigned char *b = malloc((n / PORTABLE_TILE + 1) * elem);
    const void *src = x;
    size_t m = n;
    if (!a || !b || (type != CLPRIM_TYPE_FLOAT && type != CLPRIM_TYPE_DOUBLE)) {
        free(a);
        free(b);
        return -1;
    }
    do {
        m = type == CLPRIM_TYPE_FLOAT ? portable_level_float(src, m, (float *)(void *)a)
                                      : portable_level_double(src, m, (double *)(void *)a);
        src = a;
        a = b;
        b = (unsigned char *)src;
    } while (m > 1);
    memcpy(out, src, elem);
    free(a);
    free(b);
    return 0;
}

int clprim_ref_scan_portable(clprim_type type, int exclusive, const void *init, const void *x,
                             size_t n, void *out)
{
    if (type == CLPRIM_TYPE_FLOAT)
        return portable_scan_float(x, n, exclusive, init, out);
    if (type == CLPRIM_TYPE_DOUBLE)
        return portable_scan_double(x, n, exclusive, init, out);
    return -1;
}

/* The PORTABLE summed-area table: each row folded in order from the left,
 * then each column of that from the top, from the identity (0), in the
 * element's own arithmetic. */
#define CLPRIM_REF_SAT_SERIAL(T)                                                                  \
    static void sat_serial_##T(const T *in, size_t w, size_t h, size_t pitch, T *out)             \
    {                                                                                             \
        for (size_t y = 0; y < h; ++y) {                                                          \
            T v = 0;                                                                              \
            for (size_t x = 0; x < w; ++x)                                                        \
                out[y * pitch + x] = v = v + in[y * w + x];                                       \
        }                                                                                         \
        for (size_t x = 0; x < w; ++x) {                                                          \
            T v = 0;                                                                              \
            for (size_t y = 0; y < h; ++y)                                                        \
                out[y * pitch + x] = v = v + out[y * pitch + x];                                  \
        }                                                                                         \
    }
CLPRIM_REF_SAT_SERIAL(float)
CLPRIM_REF_SAT_SERIAL(double)

int clprim_ref_sat_portable(clprim_type type, int exclusive, const void *in, size_t w, size_t h,
                            void *out)
{
    const size_t e = clprim_type_size(type), pitch = w + (exclusive != 0);
    unsigned char *o = out;
    if (type != CLPRIM_TYPE_FLOAT && type != CLPRIM_TYPE_DOUBLE)
        return -1;
    /* the exclusive table: a border of the identity, the inclusive one after it */
    if (exclusive) {
        memset(o, 0, pitch * e);
        for (size_t y = 1; y <= h; ++y)
            memset(o + y * pitch * e, 0, e);
        o += (pitch + 1) * e;
    }
    if (type == CLPRIM_TYPE_FLOAT)
        sat_serial_float(in, w, h, pitch, (float *)(void *)o);
    else
        sat_serial_double(in, w, h, pitch, (double *)(void *)o);
    return 0;
}

/* ---- RUN_TO_RUN segmented calls (docs/algorithms.md) ----
 * Evaluated in double and rounded to the element after every step: for a
 * sum of two floats that gives the float sum's bits (double has more than
 * 2 * 24 + 2 bits, so the second rounding never changes the first's). */

/* (heads, value), combined as the lifted operator does */
typedef struct seg_ref_pair {
    double v;
    size_t c;
} seg_ref_pair;

static double seg_ref_round(int is_float, double x)
{
    return is_float ? (double)(float)x : x;
}

static seg_ref_pair seg_ref_combine(int f, seg_ref_pair a, seg_ref_pair b)
{
    seg_ref_pair r;
    r.c = a.c + b.c;
    r.v = b.c ? b.v : seg_ref_round(f, a.v + b.v);
    return r;
}

/* The pairwise tree over m pairs (level d: each at a multiple of 2d with
 * the one d after it), in place; the fold in p[0]. */
static seg_ref_pair seg_ref_pairwise(int f, seg_ref_pair *p, size_t m)
{
    for (size_t d = 1; d < m; d <<= 1)
        for (size_t i = 0; i + d < m; i += 2 * d)
            p[i] = seg_ref_combine(f, p[i], p[i + d]);
    return p[0];
}

int clprim_ref_segmented_run_to_run(clprim_type type, const void *x, const unsigned *heads,
                                    size_t n, size_t wg, size_t items, void *incl,
                                    unsigned char *known)
{
    const int f = type == CLPRIM_TYPE_FLOAT;
    const size_t tile = wg * items, tiles = n ? (n + tile - 1) / tile : 0;
    const seg_ref_pair id = {0.0, 0};
    seg_ref_pair *own = malloc((tiles + 1) * sizeof *own), *prefix = malloc((tiles + 1) * sizeof *prefix),
                 *runs = malloc(wg * sizeof *runs);
    double *carried = malloc((tiles + 1) * sizeof *carried);
    int st = -1;
#define SEG_REF_X(i) (f ? (double)((const float *)x)[i] : ((const double *)x)[i])
    if (!own || !prefix || !runs || !carried || (!f && type != CLPRIM_TYPE_DOUBLE) || !wg ||
        !items)
        goto done;
    /* each tile's own pair: runs of items elements in order, then the tree */
    for (size_t t = 0; t < tiles; ++t) {
        for (size_t o = 0; o < wg; ++o) {
            seg_ref_pair acc = id;
            for (size_t j = 0; j < items; ++j) {
                const size_t i = t * tile + o * items + j;
                if (i < n)
                    acc = seg_ref_combine(f, acc, (seg_ref_pair){SEG_REF_X(i), heads[i]});
            }
            runs[o] = acc;
        }
        own[t] = seg_ref_pairwise(f, runs, wg);
    }
    /* the ordered walk's two-level chain (cl/common/lookback.clh): blocks
     * of 32 tiles, a fixed Kogge-Stone of their own pairs within a block
     * (steps d = 1, 2, 4, 8, 16: ks[i] = ks[i - d] op ks[i], i >= d), the
     * blocks' prefixes chained left to right from the identity; tile
     * 32K + i's carry P(K) op ks[i - 1] (P(K) for i = 0) */
    seg_ref_pair block = id;
    for (size_t b = 0; b < tiles; b += 32) {
        const size_t m = tiles - b < 32 ? tiles - b : 32;
        seg_ref_pair *ks = prefix + b;
        memcpy(ks, own + b, m * sizeof *ks);
        for (size_t d = 1; d < m; d <<= 1)
            for (size_t i = m - 1; i >= d; --i)
                ks[i] = seg_ref_combine(f, ks[i - d], ks[i]);
        for (size_t i = 0; i < m; ++i)
            carried[b + i] = (i ? seg_ref_combine(f, block, ks[i - 1]) : block).v;
        if (m == 32)
            block = seg_ref_combine(f, block, ks[31]);
    }
    /* each element's inclusive value where the order above fixes it: in
     * the first run of a tile (after the carry), or at or after a head in
     * its run (the run alone); elsewhere the work-group's scan tree decides
     * (the SIMD form's), known[i] = 0 */
    for (size_t i = 0; i < n; ++i) {
        const size_t t = i / tile, o = i % tile / items, first = t * tile + o * items;
        size_t h = i + 1;
        for (size_t k = first; k <= i; ++k)
            if (heads[k])
                h = k;
        known[i] = h <= i || o == 0;
        double v = h <= i ? SEG_REF_X(h) : seg_ref_round(f, 0.0 + SEG_REF_X(first));
        for (size_t k = (h <= i ? h : first) + 1; k <= i; ++k)
            v = seg_ref_round(f, v + SEG_REF_X(k));
        if (h > i) /* the carry: OP(carried, the group scan's identity), then OP(left, run) */
            v = seg_ref_round(f, seg_ref_round(f, carried[t] + 0.0) + v);
        if (f)
            ((float *)incl)[i] = (float)v;
        else
            ((double *)incl)[i] = v;
    }
    st = 0;
done:
#undef SEG_REF_X
    free(own);
    free(prefix);
    free(runs);
    free(carried);
    return st;
}

/* SPDX-License-Identifier: MIT */
#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t clprim_ref_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#define REF_FILL(NAME, num, name, cl, host, size, sgn, flt)                      \
    static void fill_##NAME(host *x, size_t n, clprim_op op, uint64_t *s)      \
    {                                                                          \
        size_t i;                                                              \
        for (i = 0; i < n; ++i) {                                              \
            uint64_t r = clprim_ref_rand(s);                                   \
            double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);         \
            if (flt)                                                           \
                x[i] = (host)(op == CLPRIM_OP_PRODUCT ? 0.99 + 0.02 * u         \
                              : op == CLPRIM_OP_SUM   ? 2.0 * u - 1.0           \
                                                      : 2e6 * u - 1e6);          \
            else if (op == CLPRIM_OP_PRODUCT)                                  \
                x[i] = (host)((r % 7) * 2 + 1);                                \
            else                                                               \
                memcpy(&x[i], &r, sizeof x[i]);                                \
        }                                                                      \
    }
CLPRIM_TYPE_MAP(REF_FILL)
#undef REF_FILL

/* Float and double min / max as clprim.h states them (IEEE 754-2019
 * minimum and maximum): a NaN operand gives a NaN, and -0.0 is below +0.0.
 * In long double, which holds every float and double exactly (NaNs stay
 * NaNs, zeros keep their sign). */
static long double ref_fmin(long double a, long double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) ? a : b;
    if (a == b) /* equal: the same value, or zeros: -0.0 if either is */
        return signbit(a) ? a : b;
    return b < a ? b : a;
}

static long double ref_fmax(long double a, long double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) ? a : b;
    if (a == b) /* +0.0 unless both are -0.0 */
        return signbit(a) ? b : a;
    return a < b ? b : a;
}

/* Whether got is want as the float min / max rule decides values: any NaN
 * for a NaN, and zeros by their sign. */
static int ref_same_float(long double got, long double want)
{
    return isnan(want) ? isnan(got) != 0
                       : !isnan(got) && got == want && !signbit(got) == !signbit(want);
}

/* Integers combine in uint64_t, which wraps exactly as the device does once
 * truncated to the type; integer min / max compare in the type itself,
 * float ones by ref_fmin / ref_fmax. */
#define REF_COMBINE(op, a, b, host, flt)                                        \
    ((op) == CLPRIM_OP_SUM       ? (flt ? (host)((a) + (b)) : (host)((uint64_t)(a) + (uint64_t)(b))) \
     : (op) == CLPRIM_OP_PRODUCT ? (flt ? (host)((a) * (b)) : (host)((uint64_t)(a) * (uint64_t)(b))) \
     : (op) == CLPRIM_OP_MIN     ? (flt ? (host)ref_fmin((long double)(a), (long double)(b)) \
                                        : ((b) < (a) ? (b) : (a)))              \
     : (flt ? (host)ref_fmax((long double)(a), (long double)(b)) : ((a) < (b) ? (b) : (a))))
#define REF_FCOMBINE(op, a, b)                                                  \
    ((op) == CLPRIM_OP_SUM       ? (a) + (b)                                      \
     : (op) == CLPRIM_OP_PRODUCT ? (a) * (b)                                      \
     : (op) == CLPRIM_OP_MIN     ? ref_fmin((a), (b))                             \
                                 : ref_fmax((a), (b)))

#define REF_IDENTITY(NAME, num, name, cl, host, size, sgn, flt)                 \
    static host identity_##NAME(clprim_op op)                                  \
    {                                                                          \
        switch (op) {                                                          \
        case CLPRIM_OP_SUM: return (host)0;                                    \
        case CLPRIM_OP_PRODUCT: return (host)1;                                \
        case CLPRIM_OP_MIN:                                                    \
            return flt ? (host)INFINITY : sgn ? (host)(((uint64_t)1 << (size * 8 - 1)) - 1) : (host)-1; \
        default:                                                               \
            return flt ? (host)-INFINITY : sgn ? (host)((uint64_t)1 << (size * 8 - 1)) : (host)0; \
        }                                                                      \
    }
CLPRIM_TYPE_MAP(REF_IDENTITY)
#undef REF_IDENTITY

#define REF_SCAN(NAME, num, name, cl, host, size, sgn, flt)                     \
    static void scan_##NAME(const host *x, host *out, size_t n, clprim_op op, int excl) \
    {                                                                          \
        host acc = identity_##NAME(op);                                        \
        size_t i;                                                              \
        for (i = 0; i < n; ++i) {                                              \
            const host v = x[i];                                               \
            if (excl)                                                          \
                out[i] = acc;                                                  \
            acc = REF_COMBINE(op, acc, v, host, flt);                          \
            if (!excl)                                                         \
                out[i] = acc;                                                  \
        }                                                                      \
    }
CLPRIM_TYPE_MAP(REF_SCAN)
#undef REF_SCAN

/* One pass over x that keeps the exact (integer) or long double (float)
 * running value and the running sum of magnitudes, checking got[i] as it
 * goes; with only_last, only the final value (a reduction) against got[0]. */
#define REF_CHECK(NAME, num, name, cl, host, size, sgn, flt)                    \
    static size_t check_##NAME(const host *x, const host *got, size_t n, clprim_op op, \
                               int excl, int only_last, FILE *report, const char *what) \
    {                                                                          \
        const long double eps = size == 4 ? 0x1p-23L : 0x1p-52L;               \
        const long double depth = 32.0L + 2.0L * log2l((long double)n + 1);    \
        host acc = identity_##NAME(op);                                        \
        long double facc = (long double)acc, mag = 0;                          \
        size_t i, bad = 0;                                                     \
        for (i = 0; i < n || (only_last && i == 0 && n == 0); ++i) {          \
            const int last = i + 1 >= n;                                       \
            if (n && !excl) {                                                  \
                acc = REF_COMBINE(op, acc, x[i], host, flt);                   \
                facc = REF_FCOMBINE(op, facc, (long double)x[i]);              \
                mag += fabsl((long double)x[i]);                               \
            }                                                                  \
            if (!only_last || last) {                                          \
                const host g = got[only_last ? 0 : i];                         \
                int ok;                                                        \
                if (!flt || op == CLPRIM_OP_MIN || op == CLPRIM_OP_MAX)        \
                    ok = flt ? ref_same_float((long double)g, facc) : g == acc; \
                else if (op == CLPRIM_OP_SUM) /* depth-bounded rounding of |x| sums */ \
                    ok = fabsl((long double)g - facc) <= eps * depth * mag + eps; \
                else /* relative error of a product grows like sqrt(count) */ \
                    ok = fabsl((long double)g - facc) <=                       \
                         fabsl(facc) * eps * (64.0L + 8.0L * sqrtl((long double)(i + 1))); \
                if (!ok && bad++ < 5 && report)                                \
                    fprintf(report, "  %s: element %zu: got %.17Lg, expected %.17Lg\n", what, \
                            only_last ? (size_t)0 : i, (long double)g,          \
                            flt ? facc : (long double)acc);                    \
            }                                                                  \
            if (n && excl) {                                                   \
                acc = REF_COMBINE(op, acc, x[i], host, flt);                   \
                facc = REF_FCOMBINE(op, facc, (long double)x[i]);              \
                mag += fabsl((long double)x[i]);                               \
            }                                                                  \
        }                                                                      \
        return bad;                                                            \
    }
CLPRIM_TYPE_MAP(REF_CHECK)
#undef REF_CHECK

void clprim_ref_fill(clprim_type type, clprim_op op, void *x, size_t n, uint64_t *state)
{
    switch (type) {
#define REF_CASE(NAME, num, name, cl, host, size, sgn, flt)                     \
    case CLPRIM_TYPE_##NAME: fill_##NAME((host *)x, n, op, state); break;
        CLPRIM_TYPE_MAP(REF_CASE)
#undef REF_CASE
    default: break;
    }
}

void clprim_ref_float(clprim_type type, int nan, double v, uint64_t r, void *out)
{
    if (type == CLPRIM_TYPE_FLOAT) {
        const uint32_t bits = (r & 1 ? 0xff800000u : 0x7f800000u) | (uint32_t)(1 + (r >> 8) % 0x7fffff);
        const float f = (float)v;
        if (nan)
            memcpy(out, &bits, 4);
        else
            memcpy(out, &f, 4);
    } else {
        const uint64_t bits = (r & 1 ? 0xfff0000000000000ull : 0x7ff0000000000000ull) |
                              (1 + (r >> 8) % 0xfffffffffffffull);
        if (nan)
            memcpy(out, &bits, 8);
        else
            memcpy(out, &v, 8);
    }
}

size_t clprim_ref_fill_edges(clprim_type type, clprim_op op, int nan, void *x, size_t n,
                             uint64_t *state)
{
    const size_t e = clprim_type_size(type);
    const double sign = op == CLPRIM_OP_MAX ? -1.0 : 1.0; /* max: the mirror image */
    const size_t k = nan ? n / 2 + (size_t)(clprim_ref_rand(state) % (n - n / 2))
                         : (size_t)(clprim_ref_rand(state) % n);
    const size_t second = nan && k + 1 < n && clprim_ref_rand(state) % 2
                              ? k + 1 + (size_t)(clprim_ref_rand(state) % (n - k - 1))
                              : n;
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint64_t r = clprim_ref_rand(state);
        const double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);
        double v;
        if (nan) {
            v = r % 4 == 0 ? ((r >> 2) & 1 ? -0.0 : 0.0) : 2e6 * u - 1e6;
        } else if (i < k) { /* min: +0.0 and positive numbers only */
            v = r % 3 == 0 ? 0.0 : r % 7 == 1 ? INFINITY : 1e6 * u + 0.5;
        } else if (i == k) {
            v = -0.0;
        } else {
            v = r % 3 == 0 ? 0.0 : r % 3 == 1 ? -0.0 : r % 7 == 2 ? INFINITY : 1e6 * u + 0.5;
        }
        clprim_ref_float(type, nan && (i == k || i == second), sign * v, clprim_ref_rand(state),
                         (unsigned char *)x + i * e);
    }
    return k;
}

void clprim_ref_identity(clprim_type type, clprim_op op, void *out)
{
    switch (type) {
#define REF_CASE(NAME, num, name, cl, host, size, sgn, flt)                     \
    case CLPRIM_TYPE_##NAME: {                                                 \
        const host e = identity_##NAME(op);                                    \
        memcpy(out, &e, sizeof e);                                             \
        break;                                                                 \
    }
        CLPRIM_TYPE_MAP(REF_CASE)
#undef REF_CASE
    default: break;
    }
}

void clprim_ref_scan(clprim_type type, clprim_op op, int exclusive, const void *x, void *out,
                     size_t n)
{
    switch (type) {
#define REF_CASE(NAME, num, name, cl, host, size, sgn, flt)                     \
    case CLPRIM_TYPE_##NAME: scan_##NAME((const host *)x, (host *)out, n, op, exclusive); break;
        CLPRIM_TYPE_MAP(REF_CASE)
#undef REF_CASE
    default: break;
    }
}

size_t clprim_ref_scan_check(clprim_type type, clprim_op op, int exclusive, const void *x,
                             const void *got, size_t n, FILE *report, const char *what)
{
    switch (type) {
#define REF_CASE(NAME, num, name, cl, host, size, sgn, flt)                     \
    case CLPRIM_TYPE_##NAME:                                                   \
        return check_##NAME((const host *)x, (const host *)got, n, op, exclusive, 0, report, what);
        CLPRIM_TYPE_MAP(REF_CASE)
#undef REF_CASE
    default: return n ? n : 1;
    }
}

size_t clprim_ref_reduce_check(clprim_type type, clprim_op op, const void *x, size_t n,
                               const void *got, FILE *report, const char *what)
{
    switch (type) {
#define REF_CASE(NAME, num, name, cl, host, size, sgn, flt)                     \
    case CLPRIM_TYPE_##NAME:                                                   \
        return check_##NAME((const host *)x, (const host *)got, n, op, 0, 1, report, what);
        CLPRIM_TYPE_MAP(REF_CASE)
#undef REF_CASE
    default: return 1;
    }
}

/* ---- segmented scan and reduce ---- */

size_t clprim_ref_segmented_check(clprim_type type, clprim_op op, int exclusive, int reduce,
                                  const void *x, const size_t *starts, size_t m, const void *got,
                                  FILE *report, const char *what)
{
    const size_t e = clprim_type_size(type);
    const unsigned char *xb = x, *gb = got;
    size_t k, bad = 0;
    for (k = 0; k < m; ++k) {
        const size_t lo = starts[k], hi = starts[k + 1];
        if (reduce)
            bad += clprim_ref_reduce_check(type, op, xb + lo * e, hi - lo, gb + k * e, report,
                                           what);
        else if (hi > lo)
            bad += clprim_ref_scan_check(type, op, exclusive, xb + lo * e, gb + lo * e, hi - lo,
                                         report, what);
    }
    return bad;
}

/* ---- compaction ---- */

#define REF_COMPARE(NAME, num, name, cl, host, size, sgn, flt)                  \
    static void compare_##NAME(clprim_predicate pred, host v, const host *x, size_t n, \
                               unsigned char *keep)                            \
    {                                                                          \
        size_t i;                                                              \
        for (i = 0; i < n; ++i)                                                \
            keep[i] = pred == CLPRIM_PREDICATE_LESS            ? x[i] < v      \
                      : pred == CLPRIM_PREDICATE_LESS_EQUAL    ? x[i] <= v     \
                      : pred == CLPRIM_PREDICATE_GREATER       ? x[i] > v      \
                      : pred == CLPRIM_PREDICATE_GREATER_EQUAL ? x[i] >= v     \
                      : pred == CLPRIM_PREDICATE_EQUAL         ? x[i] == v     \
                                                               : x[i] != v;    \
    }                                                                          \
    static int same_##NAME(const void *a, const void *b)                       \
    {                                                                          \
        host p, q;                                                             \
        memcpy(&p, a, sizeof p);                                               \
        memcpy(&q, b, sizeof q);                                               \
        return p == q;                                                         \
    }
CLPRIM_TYPE_MAP(REF_COMPARE)
#undef REF_COMPARE

void clprim_ref_compare(clprim_type type, clprim_predicate pred, const void *value, const void *x,
                        size_t n, unsigned char *keep)
{
    switch (type) {
#define REF_CASE(NAME, num, name, cl, host, size, sgn, flt)                     \
    case CLPRIM_TYPE_##NAME: {                                                 \
        host v;                                                                \
        memcpy(&v, value, sizeof v);                                           \
        compare_##NAME(pred, v, (const host *)x, n, keep);                     \
        break;                                                                 \
    }
        CLPRIM_TYPE_MAP(REF_CASE)
#undef REF_CASE
    default: break;
    }
}

void clprim_ref_heads(int builtin, clprim_type type, size_t elem, const void *x, size_t n,
                      unsigned char *keep)
{
    const unsigned char *b = x;
    size_t i;
    for (i = 0; i < n; ++i) {
        int same = 0;
        if (i > 0) {
            const void *p = b + (i - 1) * elem, *q = b + i * elem;
            switch (builtin ? type : CLPRIM_TYPE_COUNT_) {
#define REF_CASE(NAME, num, name, cl, host, size, sgn, flt)                     \
    case CLPRIM_TYPE_##NAME: same = same_##NAME(p, q); break;
                CLPRIM_TYPE_MAP(REF_CASE)
#undef REF_CASE
            default: same = memcmp(p, q, elem) == 0; break;
            }
        }
        keep[i] = !same;
    }
}

size_t clprim_ref_select(const void *x, size_t n, size_t elem, const unsigned char *keep,
                         void *out, cl_ulong *indices)
{
    size_t i, k = 0;
    for (i = 0; i < n; ++i)
        if (keep[i]) {
            memcpy((unsigned char *)out + k * elem, (const unsigned char *)x + i * elem, elem);
            if (indices)
                indices[k] = i;
            ++k;
        }
    return k;
}

size_t clprim_ref_partition(const void *x, size_t n, size_t elem, const unsigned char *keep,
                            int reversed, void *out)
{
    size_t i, k = 0, r = 0, kept = 0;
    for (i = 0; i < n; ++i)
        kept += keep[i] != 0;
    for (i = 0; i < n; ++i) {
        const size_t to = keep[i] ? k++ : reversed ? n - 1 - r++ : kept + r++;
        memcpy((unsigned char *)out + to * elem, (const unsigned char *)x + i * elem, elem);
    }
    return kept;
}

size_t clprim_ref_run_lengths(const unsigned char *keep, size_t n, cl_ulong *lengths)
{
    size_t i, runs = 0, start = 0;
    for (i = 0; i <= n; ++i)
        if (i == n || keep[i]) {
            if (i > 0)
                lengths[runs++] = i - start;
            start = i;
        }
    return runs;
}

/* Row by row, keeping the table's previous row: in the type's arithmetic
 * (integers exact, wrapping) and in long double with the table of
 * magnitudes (floats within the sum's depth-bounded rounding). */
#define REF_SAT(NAME, num, name, cl, host, size, sgn, flt)                      \
    static size_t sat_##NAME(const host *x, const host *got, size_t got_pitch, size_t w, \
                             size_t h, clprim_op op, FILE *report, const char *what) \
    {                                                                          \
        const long double eps = size == 4 ? 0x1p-23L : 0x1p-52L;               \
        const long double depth = 32.0L + 2.0L * log2l((long double)w * h + 1); \
        host *prev = malloc((w ? w : 1) * sizeof *prev);                       \
        long double *fprev = malloc((w ? w : 1) * 2 * sizeof *fprev);           \
        size_t bad = 0;                                                        \
        if (!prev || !fprev) {                                                 \
            free(prev);                                                        \
            free(fprev);                                                       \
            return w * h + 1;                                          \
        }                                                                      \
        for (size_t i = 0; i < w; ++i) {                                       \
            prev[i] = identity_##NAME(op);                                     \
            fprev[2 * i] = (long double)prev[i];                               \
            fprev[2 * i + 1] = 0;                                              \
        }                                                                      \
        for (size_t y = 0; y < h; ++y) {                                       \
            host acc = identity_##NAME(op);                                    \
            long double facc = (long double)acc, mag = 0;                      \
            for (size_t i = 0; i < w; ++i) {                                   \
                const host v = x[y * w + i];                                   \
                acc = REF_COMBINE(op, acc, v, host, flt);                      \
                facc = REF_FCOMBINE(op, facc, (long double)v);                 \
                mag += fabsl((long double)v);                                  \
                prev[i] = REF_COMBINE(op, prev[i], acc, host, flt);            \
                fprev[2 * i] = REF_FCOMBINE(op, fprev[2 * i], facc);           \
                fprev[2 * i + 1] += mag;                                       \
                const host g = got[y * got_pitch + i];                         \
                const long double want = fprev[2 * i];                         \
                int ok;                                                        \
                if (!flt || op == CLPRIM_OP_MIN || op == CLPRIM_OP_MAX)        \
                    ok = flt ? ref_same_float((long double)g, want) : g == prev[i]; \
                else if (op == CLPRIM_OP_SUM)                                  \
                    ok = fabsl((long double)g - want) <= eps * depth * fprev[2 * i + 1] + eps; \
                else                                                           \
                    ok = fabsl((long double)g - want) <=                       \
                         fabsl(want) * eps * (64.0L + 8.0L * sqrtl((long double)(i + 1) * (y + 1))); \
                if (!ok && bad++ < 5 && report)                                \
                    fprintf(report, "  %s: (%zu, %zu): got %.17Lg, expected %.17Lg\n", what, \
                            i, y, (long double)g, flt ? want : (long double)prev[i]); \
            }                                                                  \
        }                                                                      \
        free(prev);                                                            \
        free(fprev);                                                           \
        return bad;                                                            \
    }
CLPRIM_TYPE_MAP(REF_SAT)
#undef REF_SAT

size_t clprim_ref_sat_check(clprim_type type, clprim_op op, const void *x, const void *got,
                            size_t got_pitch, size_t w, size_t h, FILE *report, const char *what)
{
    switch (type) {
#define REF_CASE(NAME, num, name, cl, host, size, sgn, flt)                     \
    case CLPRIM_TYPE_##NAME:                                                   \
        return sat_##NAME((const host *)x, (const host *)got, got_pitch, w, h, op, report, what);
        CLPRIM_TYPE_MAP(REF_CASE)
#undef REF_CASE
    default: return w * h + 1;
    }
}

/* ---- radix sort ---- */

typedef struct sort_ref {
    clprim_type type;
    int descending;
    unsigned begin, end;
    const unsigned char *keys;
} sort_ref;

static uint64_t key_bits(const sort_ref *r, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, r->keys + i * clprim_type_size(r->type), clprim_type_size(r->type));
    return v;
}

uint64_t clprim_ref_ordered(clprim_type key_type, int descending, uint64_t key)
{
    const size_t bits = clprim_type_size(key_type) * 8;
    const uint64_t all = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    const uint64_t sign = (uint64_t)1 << (bits - 1);
    key &= all;
    switch (key_type) {
    case CLPRIM_TYPE_INT32:
    case CLPRIM_TYPE_INT64: key ^= sign; break;
    case CLPRIM_TYPE_FLOAT:
    case CLPRIM_TYPE_DOUBLE: {
        const uint64_t exponent = bits == 64 ? 0x7ff0000000000000ull : 0x7f800000ull;
        if ((key & ~sign) > exponent) /* a NaN: every bit 1, in either direction */
            return all;
        key = key & sign ? ~key & all : key | sign;
        break;
    }
    default: break;
    }
    return descending ? ~key & all : key;
}

/* <0, 0, >0 as key x goes before, with, after key y */
static int key_cmp(const sort_ref *r, uint64_t x, uint64_t y)
{
    const size_t size = clprim_type_size(r->type);
    int c;
    if (r->end == r->begin) /* an empty range: every key ties, input order stays */
        return 0;
    if (r->end - r->begin < size * 8) { /* a bit range: of the ordered form */
        const uint64_t mask = (((uint64_t)1 << (r->end - r->begin)) - 1);
        x = (clprim_ref_ordered(r->type, r->descending, x) >> r->begin) & mask;
        y = (clprim_ref_ordered(r->type, r->descending, y) >> r->begin) & mask;
        return (x > y) - (x < y);
    }
    switch (r->type) {
    case CLPRIM_TYPE_INT32: c = ((int32_t)x > (int32_t)y) - ((int32_t)x < (int32_t)y); break;
    case CLPRIM_TYPE_INT64: c = ((int64_t)x > (int64_t)y) - ((int64_t)x < (int64_t)y); break;
    case CLPRIM_TYPE_FLOAT:
    case CLPRIM_TYPE_DOUBLE: {
        double u, v;
        if (r->type == CLPRIM_TYPE_FLOAT) {
            float f, g;
            memcpy(&f, &x, 4);
            memcpy(&g, &y, 4);
            u = f;
            v = g;
        } else {
            memcpy(&u, &x, 8);
            memcpy(&v, &y, 8);
        }
        if (isnan(u) || isnan(v))
            return isnan(u) - isnan(v); /* NaNs last, in either direction */
        c = (u > v) - (u < v);
        if (c == 0 && u == 0)
            c = !!signbit(v) - !!signbit(u); /* -0.0 first */
        break;
    }
    default: c = (x > y) - (x < y); break;
    }
    return r->descending ? -c : c;
}

static int sort_ref_cmp(const sort_ref *r, size_t a, size_t b)
{
    return key_cmp(r, key_bits(r, a), key_bits(r, b));
}

void clprim_ref_sort(clprim_type key_type, int descending, unsigned begin_bit, unsigned end_bit,
                     const void *keys, size_t n, size_t *perm)
{
    const sort_ref r = {key_type, descending, begin_bit, end_bit, keys};
    size_t *tmp = malloc((n ? n : 1) * sizeof *tmp), width, i;
    for (i = 0; i < n; ++i)
        perm[i] = i;
    /* bottom-up merge sort: stable */
    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            size_t a = i, b = i + width < n ? i + width : n, k = i;
            const size_t mid = b, end = i + 2 * width < n ? i + 2 * width : n;
            while (a < mid || b < end)
                tmp[k++] = b >= end || (a < mid && sort_ref_cmp(&r, perm[a], perm[b]) <= 0)
                               ? perm[a++]
                               : perm[b++];
        }
        memcpy(perm, tmp, n * sizeof *perm);
    }
    free(tmp);
}

size_t clprim_ref_permuted_check(const void *x, const size_t *perm, size_t elem, const void *got,
                                 size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i)
        if (memcmp((const unsigned char *)got + i * elem,
                   (const unsigned char *)x + perm[i] * elem, elem) != 0)
            return i;
    return n;
}

size_t clprim_ref_sorted_check(clprim_type key_type, int descending, const void *keys, size_t n,
                               const void *got, const cl_uint *index)
{
    const size_t ks = clprim_type_size(key_type);
    const sort_ref r = {key_type, descending, 0, (unsigned)ks * 8, got};
    unsigned char *seen = index ? calloc(n + 1, 1) : NULL;
    uint64_t sum_in = 0, sum_got = 0;
    size_t i, bad = n;
    for (i = 0; i < n && bad == n; ++i) {
        const uint64_t g = key_bits(&r, i);
        if (i > 0) {
            const int c = key_cmp(&r, key_bits(&r, i - 1), g);
            if (c > 0 || (c == 0 && index && index[i - 1] >= index[i]))
                bad = i;
        }
        if (index) {
            uint64_t k = 0;
            if (index[i] >= n || seen[index[i]]) {
                bad = i;
                break;
            }
            seen[index[i]] = 1;
            memcpy(&k, (const unsigned char *)keys + (size_t)index[i] * ks, ks);
            if (k != g)
                bad = i;
        } else {
            uint64_t k = 0;
            memcpy(&k, (const unsigned char *)keys + i * ks, ks);
            sum_in += (k + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull ^ (k >> 29);
            sum_got += (g + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull ^ (g >> 29);
        }
    }
    free(seen);
    if (bad == n && !index && sum_in != sum_got)
        bad = 0;
    return bad;
}

/* ---- searches ---- */

/* Whether key k counts before query q's bound (lower: k before q; upper:
 * k not after q), by key_cmp's comparisons. */
static int counts_before(const sort_ref *r, int upper, uint64_t k, uint64_t q)
{
    const int c = key_cmp(r, k, q);
    return upper ? c <= 0 : c < 0;
}

void clprim_ref_bounds(clprim_type key_type, int descending, int upper, const void *keys, size_t n,
                       const void *queries, size_t m, uint64_t *out)
{
    const unsigned bits = (unsigned)clprim_type_size(key_type) * 8;
    const sort_ref r = {key_type, descending, 0, bits, keys}, qr = {key_type, 0, 0, bits, queries};
    size_t j;
    for (j = 0; j < m; ++j) {
        const uint64_t q = key_bits(&qr, j);
        size_t lo = 0, hi = n;
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (counts_before(&r, upper, key_bits(&r, mid), q))
                lo = mid + 1;
            else
                hi = mid;
        }
        out[j] = lo;
    }
}

size_t clprim_ref_bounds_check(clprim_type key_type, int descending, int upper, const void *keys,
                               size_t n, const void *queries, size_t m, const void *got,
                               size_t index_size)
{
    const unsigned bits = (unsigned)clprim_type_size(key_type) * 8;
    const sort_ref r = {key_type, descending, 0, bits, keys}, qr = {key_type, 0, 0, bits, queries};
    size_t j;
    for (j = 0; j < m; ++j) {
        uint64_t p = 0;
        const uint64_t q = key_bits(&qr, j);
        memcpy(&p, (const unsigned char *)got + j * index_size, index_size);
        if (p > n || (p > 0 && !counts_before(&r, upper, key_bits(&r, p - 1), q)) ||
            (p < n && counts_before(&r, upper, key_bits(&r, p), q)))
            return j;
    }
    return m;
}

/* ---- histograms ---- */

/* 128-bit integers: every product of the even-bin formula exactly */
__extension__ typedef __int128 ref_i128;
__extension__ typedef unsigned __int128 ref_u128;

/* One sample as a number: integers exactly (i), floats as doubles (f,
 * which holds every float exactly). */
typedef struct ref_sample {
    int is_float;
    ref_i128 i;
    double f;
} ref_sample;

static ref_sample ref_sample_at(clprim_pixel_type t, const void *p)
{
    ref_sample v;
    memset(&v, 0, sizeof v);
#define REF_INT(T)                                                                                 \
    do {                                                                                           \
        T x_;                                                                                      \
        memcpy(&x_, p, sizeof x_);                                                                 \
        v.i = (ref_i128)x_;                                                                        \
    } while (0)
#define REF_FLOAT(T)                                                                               \
    do {                                                                                           \
        T x_;                                                                                      \
        memcpy(&x_, p, sizeof x_);                                                                 \
        v.is_float = 1;                                                                            \
        v.f = (double)x_;                                                                          \
    } while (0)
    switch (t) {
    case CLPRIM_PIXEL_UINT8: REF_INT(uint8_t); break;
    case CLPRIM_PIXEL_INT8: REF_INT(int8_t); break;
    case CLPRIM_PIXEL_UINT16: REF_INT(uint16_t); break;
    case CLPRIM_PIXEL_INT16: REF_INT(int16_t); break;
    case CLPRIM_PIXEL_INT32: REF_INT(int32_t); break;
    case CLPRIM_PIXEL_UINT32: REF_INT(uint32_t); break;
    case CLPRIM_PIXEL_INT64: REF_INT(int64_t); break;
    case CLPRIM_PIXEL_UINT64: REF_INT(uint64_t); break;
    case CLPRIM_PIXEL_FLOAT: REF_FLOAT(float); break;
    default: REF_FLOAT(double); break;
    }
#undef REF_INT
#undef REF_FLOAT
    return v;
}

/* a <= b as numbers (NaN: never) */
static int ref_sample_le(ref_sample a, ref_sample b)
{
    return a.is_float ? a.f <= b.f : a.i <= b.i;
}

/* The float bin of clprim.h in the sample type F: scale, difference and
 * product each rounded to F (volatile: never fused into one rounding). */
#define REF_FLOAT_BIN(NAME, F)                                                                     \
    static size_t NAME(size_t bins, double lower, double upper, double x)                          \
    {                                                                                              \
        const F lo = (F)lower, hi = (F)upper, scale = (F)bins / (hi - lo), xf = (F)x;              \
        volatile F d;                                                                              \
        F t;                                                                                       \
        if (!(lo <= xf && xf < hi))                                                                \
            return bins;                                                                           \
        d = xf - lo;                                                                               \
        t = d * scale;                                                                             \
        return t < (F)bins ? ((size_t)t < bins - 1 ? (size_t)t : bins - 1) : bins - 1;             \
    }
REF_FLOAT_BIN(ref_float_bin, float)
REF_FLOAT_BIN(ref_double_bin, double)
#undef REF_FLOAT_BIN

size_t clprim_ref_histogram_bin(clprim_pixel_type sample_type, size_t bins, double lower,
                                double upper, const void *edges, const void *x)
{
    const ref_sample v = ref_sample_at(sample_type, x);
    if (edges) { /* how many edges are at or below x, less one */
        const size_t ss = clprim_pixel_type_size(sample_type);
        size_t lo = 0, hi = bins + 1; /* the count is in [lo, hi] */
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (ref_sample_le(ref_sample_at(sample_type, (const char *)edges + mid * ss), v))
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo >= 1 && lo <= bins ? lo - 1 : bins;
    }
    if (sample_type == CLPRIM_PIXEL_FLOAT)
        return ref_float_bin(bins, lower, upper, v.f);
    if (sample_type == CLPRIM_PIXEL_DOUBLE)
        return ref_double_bin(bins, lower, upper, v.f);
    {
        /* the bounds are integers of the sample type (clprim_histogram
         * refuses others): exact in 128 bits, and so is the product */
        const ref_i128 lo = lower < 0 ? (ref_i128)(int64_t)lower : (ref_i128)(uint64_t)lower;
        const ref_i128 hi = upper < 0 ? (ref_i128)(int64_t)upper : (ref_i128)(uint64_t)upper;
        if (!(lo <= v.i && v.i < hi))
            return bins;
        return (size_t)((ref_u128)(v.i - lo) * bins / (ref_u128)(hi - lo));
    }
}

void clprim_ref_histogram(clprim_pixel_type sample_type, size_t bins, double lower, double upper,
                          const void *edges, const void *samples, size_t n, uint64_t *counts)
{
    const size_t ss = clprim_pixel_type_size(sample_type);
    size_t i;
    for (i = 0; i < n; ++i) {
        const size_t b = clprim_ref_histogram_bin(sample_type, bins, lower, upper, edges,
                                                  (const char *)samples + i * ss);
        if (b < bins)
            ++counts[b];
    }
}

/* ---- merges ---- */

void clprim_ref_merge_by(const void *a, size_t na, const void *b, size_t nb, size_t elem,
                         int (*less)(const void *x, const void *y, const void *user),
                         const void *user, size_t *src)
{
    const unsigned char *x = a, *y = b;
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < nb)
        src[k++] = j < nb && (i >= na || less(y + j * elem, x + i * elem, user)) ? na + j++ : i++;
}

static int ref_key_less(const void *x, const void *y, const void *user)
{
    const sort_ref *r = user;
    uint64_t u = 0, v = 0;
    memcpy(&u, x, clprim_type_size(r->type));
    memcpy(&v, y, clprim_type_size(r->type));
    return key_cmp(r, u, v) < 0;
}

void clprim_ref_merge(clprim_type key_type, int descending, const void *a, size_t na,
                      const void *b, size_t nb, size_t *src)
{
    const size_t ks = clprim_type_size(key_type);
    const sort_ref r = {key_type, descending, 0, (unsigned)ks * 8, NULL};
    clprim_ref_merge_by(a, na, b, nb, ks, ref_key_less, &r, src);
}

size_t clprim_ref_merged_check(const void *a, size_t na, const void *b, size_t elem,
                               const size_t *src, const void *got, size_t n)
{
    size_t k;
    for (k = 0; k < n; ++k) {
        const unsigned char *want = src[k] < na ? (const unsigned char *)a + src[k] * elem
                                                : (const unsigned char *)b + (src[k] - na) * elem;
        if (memcmp((const unsigned char *)got + k * elem, want, elem) != 0)
            return k;
    }
    return n;
}

/* ---- top-k ---- */

static uint64_t ref_key_bits(const void *keys, size_t ks, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)keys + i * ks, ks); /* little-endian hosts */
    return v;
}

/* (ordered form, index) pairs, for the large-n path's final sort */
typedef struct ref_pair {
    uint64_t o;
    size_t i;
} ref_pair;

static int ref_pair_cmp(const void *a, const void *b)
{
    const ref_pair *x = a, *y = b;
    if (x->o != y->o)
        return x->o < y->o ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

void clprim_ref_top_k(clprim_type key_type, int largest, const void *keys, size_t n, size_t k,
                      size_t *perm)
{
    const size_t ks = clprim_type_size(key_type);
    const unsigned bits = (unsigned)ks * 8;
    if (n <= ((size_t)1 << 22)) {
        size_t *all = malloc((n ? n : 1) * sizeof *all);
        clprim_ref_sort(key_type, largest, 0, bits, keys, n, all);
        memcpy(perm, all, k * sizeof *perm);
        free(all);
        return;
    }
    {
        /* 16 bits of the ordered form at a time from the top: the k-th
         * key's form `kth`, and how many keys equal to it are taken */
        uint64_t *count = malloc(65536 * sizeof *count), prefix = 0, kth;
        size_t needed = k, i, got = 0, eq_taken = 0;
        unsigned shift = bits, d;
        ref_pair *pairs = malloc((k ? k : 1) * sizeof *pairs);
        while (shift > 0) {
            const unsigned above = shift;
            shift -= 16;
            memset(count, 0, 65536 * sizeof *count);
            for (i = 0; i < n; ++i) {
                const uint64_t o = clprim_ref_ordered(key_type, largest, ref_key_bits(keys, ks, i));
                if (above >= 64 || (o >> above) == prefix)
                    ++count[(o >> shift) & 0xffff];
            }
            for (d = 0; d < 65536 && count[d] < needed; ++d)
                needed -= count[d];
            prefix = (prefix << 16) | d;
        }
        kth = prefix;
        for (i = 0; i < n && k; ++i) {
            const uint64_t o = clprim_ref_ordered(key_type, largest, ref_key_bits(keys, ks, i));
            if (o < kth || (o == kth && eq_taken < needed)) {
                eq_taken += o == kth;
                pairs[got].o = o;
                pairs[got++].i = i;
            }
        }
        qsort(pairs, got, sizeof *pairs, ref_pair_cmp);
        for (i = 0; i < got; ++i)
            perm[i] = pairs[i].i;
        free(pairs);
        free(count);
    }
}

static size_t ref_record_size;
static int ref_record_cmp(const void *a, const void *b)
{
    return memcmp(a, b, ref_record_size);
}

size_t clprim_ref_top_k_check(clprim_type key_type, int largest, int sorted, const void *keys,
                              const void *values, size_t value_size, size_t n, size_t k,
                              const void *got_keys, const void *got_values, FILE *report,
                              const char *what)
{
    const size_t ks = clprim_type_size(key_type), rs = ks + value_size;
    size_t *perm = malloc((k ? k : 1) * sizeof *perm), i, bad = 0;
    unsigned char *want = malloc((k ? k : 1) * rs), *got = malloc((k ? k : 1) * rs);
    clprim_ref_top_k(key_type, largest, keys, n, k, perm);
    for (i = 0; i < k; ++i) {
        memcpy(want + i * rs, (const unsigned char *)keys + perm[i] * ks, ks);
        memcpy(got + i * rs, (const unsigned char *)got_keys + i * ks, ks);
        if (value_size) {
            memcpy(want + i * rs + ks, (const unsigned char *)values + perm[i] * value_size,
                   value_size);
            memcpy(got + i * rs + ks, (const unsigned char *)got_values + i * value_size,
                   value_size);
        }
    }
    if (!sorted) { /* (not thread-safe: the comparison's size is a static) */
        ref_record_size = rs;
        qsort(want, k, rs, ref_record_cmp);
        qsort(got, k, rs, ref_record_cmp);
    }
    for (i = 0; i < k; ++i) {
        if (memcmp(want + i * rs, got + i * rs, rs) == 0)
            continue;
        if (report && bad < 5) {
            uint64_t w = 0, g = 0;
            memcpy(&w, want + i * rs, ks);
            memcpy(&g, got + i * rs, ks);
            fprintf(report, "  %s: %s %zu: key bits 0x%llx%s, expected 0x%llx (input index %zu)\n",
                    what, sorted ? "output" : "sorted pair", i, (unsigned long long)g,
                    memcmp(want + i * rs + ks, got + i * rs + ks, value_size) ? " (value differs)"
                                                                              : "",
                    (unsigned long long)w, sorted ? perm[i] : (size_t)0);
        }
        ++bad;
    }
    free(perm);
    free(want);
    free(got);
    return bad;
}

#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t tu_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t tu_seed(void)
{
    static uint64_t seed;
    if (!seed) {
        const char *e = getenv("CLPRIM_TEST_SEED");
        seed = e && *e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL) * 2654435761u;
        if (!seed)
            seed = 1;
        printf("# CLPRIM_TEST_SEED=%llu\n", (unsigned long long)seed);
    }
    return seed;
}

clprim_context *tu_context(void)
{
    clprim_context *ctx = NULL;
    clprim_device_info info;
    clprim_status st = clprim_context_create(NULL, &ctx);
    if (st != CLPRIM_SUCCESS) {
        fprintf(stderr, "cannot create a clprim context: %s\n", clprim_status_string(st));
        exit(1);
    }
    clprim_context_device_info(ctx, &info);
    printf("# device: %s / %s (SIMD %u)\n", info.platform_name, info.device_name,
           info.simd_width);
    return ctx;
}

void tu_describe(const tu_case *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s %s n=%zu in_off=%zu out_off=%zu%s seed=%llu",
             clprim_scan_algorithm_name(c->algorithm), clprim_type_name(c->type),
             clprim_op_name(c->op), c->exclusive ? "exclusive" : "inclusive", c->n, c->in_off,
             c->out_off, c->in_place ? " in-place" : "", (unsigned long long)c->seed);
}

/* ---- per-type inputs and references, generated from CLPRIM_TYPE_MAP ---- */

/* Random inputs, never all zeros. Integers span the whole range for sum, min
 * and max (so sums wrap); products use small odd values so results stay
 * non-zero. Floats are in [-1, 1) for sum, near 1 for product (so products
 * neither vanish nor overflow), and anything finite for min/max. */
#define TU_FILL(NAME, num, name, cl, host, size, sgn, flt)                      \
    static void fill_##NAME(host *x, size_t n, clprim_op op, uint64_t *s)      \
    {                                                                          \
        size_t i;                                                              \
        for (i = 0; i < n; ++i) {                                              \
            uint64_t r = tu_rand(s);                                           \
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
CLPRIM_TYPE_MAP(TU_FILL)
#undef TU_FILL

/* Integers combine in uint64_t, which wraps exactly as the device does once
 * truncated to the type; floats combine in long double. */
#define TU_ICOMBINE(op, a, b, host)                                             \
    ((op) == CLPRIM_OP_SUM       ? (host)((uint64_t)(a) + (uint64_t)(b))          \
     : (op) == CLPRIM_OP_PRODUCT ? (host)((uint64_t)(a) * (uint64_t)(b))          \
     : (op) == CLPRIM_OP_MIN     ? ((b) < (a) ? (b) : (a))                        \
                                 : ((a) < (b) ? (b) : (a)))
#define TU_FCOMBINE(op, a, b)                                                   \
    ((op) == CLPRIM_OP_SUM       ? (a) + (b)                                      \
     : (op) == CLPRIM_OP_PRODUCT ? (a) * (b)                                      \
     : (op) == CLPRIM_OP_MIN     ? ((b) < (a) ? (b) : (a))                        \
                                 : ((a) < (b) ? (b) : (a)))

/* Reference scan; for integers the combine is done on host values (exact),
 * for floats in long double (ref) alongside the sum of magnitudes (mag), from
 * which the tolerance follows. */
#define TU_REF(NAME, num, name, cl, host, size, sgn, flt)                       \
    static void ref_##NAME(const host *x, host *ref, long double *fref,         \
                           long double *mag, size_t n, clprim_op op, int excl,  \
                           host identity)                                       \
    {                                                                          \
        host acc = identity;                                                   \
        long double facc = identity, m = 0;                                    \
        size_t i;                                                              \
        for (i = 0; i < n; ++i) {                                              \
            if (excl) {                                                        \
                ref[i] = acc;                                                  \
                fref[i] = facc;                                                \
                mag[i] = m;                                                    \
            }                                                                  \
            if (flt)                                                           \
                facc = TU_FCOMBINE(op, facc, (long double)x[i]);               \
            else                                                               \
                acc = TU_ICOMBINE(op, acc, x[i], host);                        \
            m += fabsl((long double)x[i]);                                     \
            if (!excl) {                                                       \
                ref[i] = acc;                                                  \
                fref[i] = facc;                                                \
                mag[i] = m;                                                    \
            }                                                                  \
        }                                                                      \
    }
CLPRIM_TYPE_MAP(TU_REF)
#undef TU_REF

#define TU_IDENTITY(NAME, num, name, cl, host, size, sgn, flt)                  \
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
CLPRIM_TYPE_MAP(TU_IDENTITY)
#undef TU_IDENTITY

/* Compares got with the reference; returns the number of mismatches and
 * prints the first few. */
#define TU_CHECK(NAME, num, name, cl, host, size, sgn, flt)                     \
    static size_t check_##NAME(const host *got, const host *ref,               \
                               const long double *fref, const long double *mag, \
                               size_t n, clprim_op op, const char *what,        \
                               size_t count_base, size_t total_n)               \
    {                                                                          \
        const long double eps = size == 4 ? 0x1p-23L : 0x1p-52L;               \
        const long double depth = 32.0L + 2.0L * log2l((long double)total_n + 1); \
        size_t i, bad = 0;                                                     \
        for (i = 0; i < n; ++i) {                                              \
            int ok;                                                            \
            if (!flt || op == CLPRIM_OP_MIN || op == CLPRIM_OP_MAX)            \
                ok = flt ? got[i] == (host)fref[i] : got[i] == ref[i];         \
            else if (op == CLPRIM_OP_SUM) /* depth-bounded rounding of |x| sums */ \
                ok = fabsl((long double)got[i] - fref[i]) <= eps * depth * mag[i] + eps; \
            else /* relative error of a product grows like sqrt(count) */    \
                ok = fabsl((long double)got[i] - fref[i]) <=                  \
                     fabsl(fref[i]) * eps * (64.0L + 8.0L * sqrtl((long double)(i + 1 + count_base))); \
            if (!ok && bad++ < 5)                                              \
                printf("  %s: element %zu: got %.17Lg, expected %.17Lg\n", what, i,     \
                       (long double)got[i], flt ? fref[i] : (long double)ref[i]);        \
        }                                                                      \
        return bad;                                                            \
    }
CLPRIM_TYPE_MAP(TU_CHECK)
#undef TU_CHECK

#define POISON 0xA5

int tu_run_case(clprim_context *ctx, const tu_case *c)
{
    const size_t elem = clprim_type_size(c->type);
    const size_t margin = 7; /* elements past the output that must stay untouched */
    const size_t in_len = c->in_off + c->n + margin, out_len = c->out_off + c->n + margin;
    unsigned char *x = NULL, *got = NULL, *ref = NULL, *poison = NULL;
    long double *fref = NULL, *mag = NULL;
    cl_context clctx = clprim_context_cl_context(ctx);
    cl_command_queue q = clprim_context_queue(ctx);
    cl_mem in = NULL, out = NULL;
    cl_event ev = NULL;
    uint64_t s = c->seed;
    size_t bad = 0, i;
    char desc[256];
    cl_int err;
    int rc = -1;

    tu_describe(c, desc, sizeof desc);
    x = malloc(in_len * elem);
    got = malloc((c->in_place ? in_len : out_len) * elem);
    ref = malloc((c->n + 1) * elem);
    poison = malloc(out_len * elem);
    fref = malloc((c->n + 1) * sizeof *fref);
    mag = malloc((c->n + 1) * sizeof *mag);
    if (!x || !got || !ref || !poison || !fref || !mag) {
        printf("FAIL %s: out of host memory\n", desc);
        goto cleanup;
    }
    memset(poison, POISON, out_len * elem);
    switch (c->type) {
#define TU_CASE(NAME, num, name, cl, host, size, sgn, flt)                      \
    case CLPRIM_TYPE_##NAME:                                                   \
        fill_##NAME((host *)x, in_len, c->op, &s);                              \
        ref_##NAME((host *)x + c->in_off, (host *)ref, fref, mag, c->n, c->op,  \
                   c->exclusive, identity_##NAME(c->op));                      \
        break;
        CLPRIM_TYPE_MAP(TU_CASE)
#undef TU_CASE
    default:
        goto cleanup;
    }
    in = clCreateBuffer(clctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_len * elem, x, &err);
    if (err == CL_SUCCESS && !c->in_place)
        out = clCreateBuffer(clctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_len * elem,
                             poison, &err);
    if (err != CL_SUCCESS) {
        printf("FAIL %s: clCreateBuffer: %s\n", desc, clprim_status_string(err));
        goto cleanup;
    }
    {
        clprim_scan_desc d = {c->type, c->op, c->exclusive, c->algorithm};
        clprim_status st = clprim_scan(ctx, NULL, &d, in, c->in_off, c->in_place ? in : out,
                                       c->in_place ? c->in_off : c->out_off, c->n, 0, NULL, &ev);
        if (st != CLPRIM_SUCCESS) {
            char why[2048];
            clprim_context_last_error(ctx, why, sizeof why);
            printf("FAIL %s: %s: %s\n", desc, clprim_status_string(st), why);
            goto cleanup;
        }
    }
    err = clWaitForEvents(1, &ev);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, c->in_place ? in : out, CL_TRUE, 0,
                                  (c->in_place ? in_len : out_len) * elem, got, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        printf("FAIL %s: waiting / reading back: %s\n", desc, clprim_status_string(err));
        goto cleanup;
    }
    {
        const size_t off = c->in_place ? c->in_off : c->out_off;
        const size_t total = c->in_place ? in_len : out_len;
        const unsigned char *around = c->in_place ? x : poison;
        switch (c->type) {
#define TU_CASE(NAME, num, name, cl, host, size, sgn, flt)                      \
    case CLPRIM_TYPE_##NAME:                                                   \
        bad = check_##NAME((const host *)got + off, (const host *)ref, fref, mag, c->n, \
                           c->op, desc, 0, c->n);                             \
        break;
            CLPRIM_TYPE_MAP(TU_CASE)
#undef TU_CASE
        default:
            break;
        }
        /* nothing outside [off, off + n) may change */
        for (i = 0; i < total; ++i)
            if ((i < off || i >= off + c->n) &&
                memcmp(got + i * elem, around + i * elem, elem) != 0 && bad++ < 5)
                printf("  %s: element %zu outside the output range was written\n", desc, i);
    }
    if (bad)
        printf("FAIL %s: %zu wrong elements\n", desc, bad);
    rc = bad ? -1 : 0;
cleanup:
    if (ev)
        clReleaseEvent(ev);
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    free(x);
    free(got);
    free(ref);
    free(poison);
    free(fref);
    free(mag);
    return rc;
}

void tu_describe_reduce(const tu_reduce_case *c, char *buf, size_t size)
{
    snprintf(buf, size, "reduce %s %s %s n=%zu in_off=%zu result_off=%zu seed=%llu",
             clprim_reduce_algorithm_name(c->algorithm), clprim_type_name(c->type),
             clprim_op_name(c->op), c->n, c->in_off, c->result_off, (unsigned long long)c->seed);
}

int tu_run_reduce_case(clprim_context *ctx, const tu_reduce_case *c)
{
    const size_t elem = clprim_type_size(c->type), margin = 3;
    const size_t in_len = c->in_off + c->n + margin, out_len = c->result_off + 1 + margin;
    unsigned char *x = NULL, *ref = NULL, *got = NULL, *poison = NULL, *expect;
    long double *fref = NULL, *mag = NULL, fexpect, mexpect;
    cl_mem in = NULL, out = NULL;
    cl_event ev = NULL;
    uint64_t s = c->seed;
    size_t bad = 0, i;
    char desc[256];
    cl_int err;
    int rc = -1;

    tu_describe_reduce(c, desc, sizeof desc);
    x = malloc(in_len * elem);
    ref = malloc((c->n + 1) * elem);
    got = malloc(out_len * elem);
    poison = malloc(out_len * elem);
    fref = malloc((c->n + 1) * sizeof *fref);
    mag = malloc((c->n + 1) * sizeof *mag);
    if (!x || !ref || !got || !poison || !fref || !mag)
        goto cleanup;
    memset(poison, POISON, out_len * elem);
    /* the reference is the last element of the inclusive scan; n = 0 gives
     * the identity, which the exclusive scan of one element holds */
    switch (c->type) {
#define TU_CASE(NAME, num, name, cl, host, size, sgn, flt)                      \
    case CLPRIM_TYPE_##NAME:                                                   \
        fill_##NAME((host *)x, in_len, c->op, &s);                              \
        ref_##NAME((host *)x + c->in_off, (host *)ref, fref, mag, c->n ? c->n : 1, c->op, \
                   c->n == 0, identity_##NAME(c->op));                          \
        break;
        CLPRIM_TYPE_MAP(TU_CASE)
#undef TU_CASE
    default:
        goto cleanup;
    }
    expect = ref + (c->n ? c->n - 1 : 0) * elem;
    fexpect = fref[c->n ? c->n - 1 : 0];
    mexpect = mag[c->n ? c->n - 1 : 0];
    in = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        in_len * elem, x, &err);
    if (err == CL_SUCCESS)
        out = clCreateBuffer(clprim_context_cl_context(ctx),
                             CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_len * elem, poison, &err);
    if (err != CL_SUCCESS) {
        printf("FAIL %s: clCreateBuffer: %s\n", desc, clprim_status_string(err));
        goto cleanup;
    }
    {
        clprim_reduce_desc d = {c->type, c->op, c->algorithm};
        clprim_status st = clprim_reduce(ctx, NULL, &d, in, c->in_off, c->n, out, c->result_off,
                                         0, NULL, &ev);
        if (st != CLPRIM_SUCCESS) {
            char why[2048];
            clprim_context_last_error(ctx, why, sizeof why);
            printf("FAIL %s: %s: %s\n", desc, clprim_status_string(st), why);
            goto cleanup;
        }
    }
    err = clWaitForEvents(1, &ev);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, out_len * elem, got,
                                  0, NULL, NULL);
    if (err != CL_SUCCESS) {
        printf("FAIL %s: waiting / reading back: %s\n", desc, clprim_status_string(err));
        goto cleanup;
    }
    switch (c->type) {
#define TU_CASE(NAME, num, name, cl, host, size, sgn, flt)                      \
    case CLPRIM_TYPE_##NAME:                                                   \
        bad = check_##NAME((const host *)got + c->result_off, (const host *)expect, &fexpect, \
                           &mexpect, 1, c->op, desc, c->n ? c->n - 1 : 0, c->n);   \
        break;
        CLPRIM_TYPE_MAP(TU_CASE)
#undef TU_CASE
    default:
        break;
    }
    for (i = 0; i < out_len; ++i)
        if (i != c->result_off && memcmp(got + i * elem, poison + i * elem, elem) != 0 && bad++ < 5)
            printf("  %s: element %zu of the result buffer was written\n", desc, i);
    if (bad)
        printf("FAIL %s\n", desc);
    rc = bad ? -1 : 0;
cleanup:
    if (ev)
        clReleaseEvent(ev);
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    free(x);
    free(ref);
    free(got);
    free(poison);
    free(fref);
    free(mag);
    return rc;
}

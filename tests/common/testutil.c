#include "testutil.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

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
    /* CLPRIM_TEST_FILTER: run only the tests whose names match (cmocka's
     * wildcards), e.g. to repeat one that failed */
    if (getenv("CLPRIM_TEST_FILTER"))
        cmocka_set_test_filter(getenv("CLPRIM_TEST_FILTER"));
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

/* One case's host arrays and device buffers. */
typedef struct tu_run {
    size_t elem;
    unsigned char *x, *got, *ref, *poison; /* input, read back, reference, poison pattern */
    long double *fref, *mag;               /* float reference, running sum of |x| */
    cl_mem in, out;                        /* out NULL: in place */
    cl_event ev;
} tu_run;

static void run_release(tu_run *r)
{
    if (r->ev)
        clReleaseEvent(r->ev);
    if (r->in)
        clReleaseMemObject(r->in);
    if (r->out)
        clReleaseMemObject(r->out);
    free(r->x);
    free(r->got);
    free(r->ref);
    free(r->poison);
    free(r->fref);
    free(r->mag);
}

/* Allocates the arrays, fills in_len random inputs, computes the reference
 * scan of n_ref elements from in_off, and creates the input buffer and (with
 * out_len) a poisoned output buffer. Returns 0, or -1 after printing why. */
static int run_prepare(tu_run *r, clprim_context *ctx, clprim_type type, clprim_op op,
                       uint64_t seed, size_t in_len, size_t in_off, size_t n_ref, int exclusive,
                       size_t out_len, const char *desc)
{
    cl_context clctx = clprim_context_cl_context(ctx);
    const size_t got_len = out_len ? out_len : in_len;
    uint64_t s = seed;
    cl_int err;

    memset(r, 0, sizeof *r);
    r->elem = clprim_type_size(type);
    r->x = malloc(in_len * r->elem);
    r->got = malloc(got_len * r->elem);
    r->ref = malloc((n_ref + 1) * r->elem);
    r->poison = malloc(got_len * r->elem);
    r->fref = malloc((n_ref + 1) * sizeof *r->fref);
    r->mag = malloc((n_ref + 1) * sizeof *r->mag);
    if (!r->x || !r->got || !r->ref || !r->poison || !r->fref || !r->mag) {
        printf("FAIL %s: out of host memory\n", desc);
        return -1;
    }
    memset(r->poison, POISON, got_len * r->elem);
    switch (type) {
#define TU_CASE(NAME, num, name, cl, host, size, sgn, flt)                      \
    case CLPRIM_TYPE_##NAME:                                                   \
        fill_##NAME((host *)r->x, in_len, op, &s);                              \
        ref_##NAME((host *)r->x + in_off, (host *)r->ref, r->fref, r->mag, n_ref, op, \
                   exclusive, identity_##NAME(op));                             \
        break;
        CLPRIM_TYPE_MAP(TU_CASE)
#undef TU_CASE
    default:
        return -1;
    }
    r->in = clCreateBuffer(clctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_len * r->elem, r->x,
                           &err);
    if (err == CL_SUCCESS && out_len)
        r->out = clCreateBuffer(clctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                out_len * r->elem, r->poison, &err);
    if (err != CL_SUCCESS) {
        printf("FAIL %s: clCreateBuffer: %s\n", desc, clprim_status_string(err));
        return -1;
    }
    return 0;
}

/* After the call: its status, then wait for r->ev and read `len` elements of
 * the output (r->out, or r->in in place) into r->got. 0, or -1 after printing. */
static int run_collect(tu_run *r, clprim_context *ctx, clprim_status st, size_t len,
                       const char *desc)
{
    cl_int err;
    if (st != CLPRIM_SUCCESS) {
        char why[2048];
        clprim_context_last_error(ctx, why, sizeof why);
        printf("FAIL %s: %s: %s\n", desc, clprim_status_string(st), why);
        return -1;
    }
    err = clWaitForEvents(1, &r->ev);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(clprim_context_queue(ctx), r->out ? r->out : r->in, CL_TRUE, 0,
                                  len * r->elem, r->got, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        printf("FAIL %s: waiting / reading back: %s\n", desc, clprim_status_string(err));
        return -1;
    }
    return 0;
}

/* Compares count results at r->got[off] with reference element ref_first
 * on; the tolerance counts count_base elements before it, out of total_n.
 * Then checks that the other `len` elements still equal `around`. */
static size_t run_check(const tu_run *r, clprim_type type, clprim_op op, size_t off, size_t count,
                        size_t ref_first, size_t count_base, size_t total_n,
                        const unsigned char *around, size_t len, const char *desc)
{
    size_t bad = 0, i;
    switch (type) {
#define TU_CASE(NAME, num, name, cl, host, size, sgn, flt)                      \
    case CLPRIM_TYPE_##NAME:                                                   \
        bad = check_##NAME((const host *)r->got + off, (const host *)r->ref + ref_first, \
                           r->fref + ref_first, r->mag + ref_first, count, op, desc, \
                           count_base, total_n);                                \
        break;
        CLPRIM_TYPE_MAP(TU_CASE)
#undef TU_CASE
    default:
        break;
    }
    for (i = 0; i < len; ++i)
        if ((i < off || i >= off + count) &&
            memcmp(r->got + i * r->elem, around + i * r->elem, r->elem) != 0 && bad++ < 5)
            printf("  %s: element %zu outside the output range was written\n", desc, i);
    if (bad)
        printf("FAIL %s: %zu wrong elements\n", desc, bad);
    return bad;
}

int tu_run_case(clprim_context *ctx, const tu_case *c)
{
    const size_t margin = 7; /* elements past the output that must stay untouched */
    const size_t in_len = c->in_off + c->n + margin, out_len = c->out_off + c->n + margin;
    const size_t off = c->in_place ? c->in_off : c->out_off, len = c->in_place ? in_len : out_len;
    clprim_scan_desc d = {c->type, c->op, c->exclusive, c->algorithm, NULL};
    char desc[256];
    tu_run r;
    int rc = -1;

    tu_describe(c, desc, sizeof desc);
    if (run_prepare(&r, ctx, c->type, c->op, c->seed, in_len, c->in_off, c->n, c->exclusive,
                    c->in_place ? 0 : out_len, desc) == 0 &&
        run_collect(&r, ctx,
                    clprim_scan(ctx, NULL, &d, r.in, c->in_off, r.out ? r.out : r.in, off, c->n,
                                0, NULL, &r.ev),
                    len, desc) == 0)
        rc = run_check(&r, c->type, c->op, off, c->n, 0, 0, c->n,
                       c->in_place ? r.x : r.poison, len, desc) ? -1 : 0;
    run_release(&r);
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
    const size_t margin = 3;
    const size_t in_len = c->in_off + c->n + margin, out_len = c->result_off + 1 + margin;
    /* the reference is the last element of the inclusive scan; n = 0 gives
     * the identity, which the exclusive scan of one element holds */
    const size_t last = c->n ? c->n - 1 : 0;
    clprim_reduce_desc d = {c->type, c->op, c->algorithm, NULL};
    char desc[256];
    tu_run r;
    int rc = -1;

    tu_describe_reduce(c, desc, sizeof desc);
    if (run_prepare(&r, ctx, c->type, c->op, c->seed, in_len, c->in_off, c->n ? c->n : 1,
                    c->n == 0, out_len, desc) == 0 &&
        run_collect(&r, ctx,
                    clprim_reduce(ctx, NULL, &d, r.in, c->in_off, c->n, r.out, c->result_off, 0,
                                  NULL, &r.ev),
                    out_len, desc) == 0)
        rc = run_check(&r, c->type, c->op, c->result_off, 1, last, last, c->n, r.poison, out_len,
                       desc) ? -1 : 0;
    run_release(&r);
    return rc;
}

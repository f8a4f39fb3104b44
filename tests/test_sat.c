/* SPDX-License-Identifier: MIT */
/* Summed-area tables and box filters: both algorithms, every built-in
 * table type with sums and a choice of min / max / product, pixel types
 * narrower than the table's (uint8 -> uint32 and float, int16 -> int32,
 * int32 -> int64, float -> double), a caller's commutative operator;
 * inclusive and exclusive; sizes 1 x 1, 1 x H, W x 1, around the tiles of
 * every form (4, 64, 128 columns or rows), primes and random sizes up to
 * 4096 x 4096; pitches wider than the rows and offsets. Fresh random
 * inputs (the gaps between rows too, which must never be read), outputs
 * poisoned and compared whole with the host reference (tests/reference/):
 * the table, the exclusive border, and every byte that must stay as it
 * was. Then box filters against direct sums over each window, the host
 * helpers, the refusals (messages naming each call's own parameters) and
 * the look-back fallback; pixel conversions at their edges (saturating
 * into integer tables, NaN, out-of-range floats, narrowing), into tables
 * and box filters. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"
#include "reference/reference.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define POISON 0xA5
#define MARGIN 7 /* elements past the output that must stay untouched */

static clprim_context *ctx;
static clprim_device_info info;
static clprim_operator *sum_max; /* int2: (sum of x, max of y), commutative */
static uint64_t seed;

typedef struct sat_case {
    clprim_sat_algorithm algorithm;
    clprim_type type;
    clprim_op op;
    int custom;              /* sum_max instead of type and op */
    clprim_pixel_type input; /* SAME: the table's type */
    int exclusive;
    size_t w, h, in_pad, out_pad, in_off, out_off;
    int edges; /* pixels at the conversion's edges (edge_pixel) */
} sat_case;

static size_t elem_size(const sat_case *c)
{
    return c->custom ? 8 : clprim_type_size(c->type);
}

static size_t pixel_size(const sat_case *c)
{
    return c->input == CLPRIM_PIXEL_SAME ? elem_size(c) : clprim_pixel_type_size(c->input);
}

/* A pixel's value v (nan: a NaN) in table type t as clprim.h states the
 * conversion: into an integer type a fraction cut toward zero, values past
 * the type's range its minimum or maximum, NaN 0; into float or double the
 * nearest value (v holds every pixel exactly: a long double of 64 bits of
 * mantissa). */
static void pixel_to_table(clprim_type t, long double v, int nan, unsigned char *out)
{
    static const long double lo[] = {-2147483648.0L, 0, -9223372036854775808.0L, 0};
    static const long double hi[] = {2147483647.0L, 4294967295.0L, 9223372036854775807.0L,
                                     18446744073709551615.0L};
    if (t == CLPRIM_TYPE_FLOAT || t == CLPRIM_TYPE_DOUBLE) {
        const float f = nan ? NAN : (float)v;
        const double d = nan ? NAN : (double)v;
        memcpy(out, t == CLPRIM_TYPE_FLOAT ? (const void *)&f : (const void *)&d,
               clprim_type_size(t));
        return;
    }
    v = nan ? 0 : truncl(v);
    v = v < lo[t] ? lo[t] : v > hi[t] ? hi[t] : v;
    if (t == CLPRIM_TYPE_INT32 || t == CLPRIM_TYPE_INT64) {
        const int64_t i = (int64_t)v;
        memcpy(out, &i, clprim_type_size(t)); /* little-endian: the low bytes */
    } else {
        const uint64_t u = (uint64_t)v;
        memcpy(out, &u, clprim_type_size(t));
    }
}

/* A pixel of c->input at the conversion's edges (or, half the time, random
 * over the type: all bits for integers, +-1e4 for floats), and its value in
 * the table's type by pixel_to_table. */
static void edge_pixel(const sat_case *c, unsigned char *px, unsigned char *table_value,
                       uint64_t *s)
{
    static const double floats[] = {
        NAN, -NAN, INFINITY, -INFINITY, 1e30, -1e30, 3e9, -3e9, 2.7, -2.7, 0.5, -0.5, -0.0,
        2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0,
        9.2e18, -9.3e18, 1.8446744073709552e19, 16777217.0};
    const size_t ps = clprim_pixel_type_size(c->input), nf = sizeof floats / sizeof floats[0];
    const uint64_t r = tu_rand(s), pick = tu_rand(s);
    const double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);
    long double v;
    int nan = 0;
    if (c->input == CLPRIM_PIXEL_FLOAT || c->input == CLPRIM_PIXEL_DOUBLE) {
        const double d = pick % 2 ? floats[(pick >> 1) % nf] : 2e4 * u - 1e4;
        const float f = (float)d;
        if (c->input == CLPRIM_PIXEL_FLOAT) {
            memcpy(px, &f, 4);
            v = f;
        } else {
            memcpy(px, &d, 8);
            v = d;
        }
        nan = isnan(v) != 0;
    } else {
        const int sgn = c->input == CLPRIM_PIXEL_INT8 || c->input == CLPRIM_PIXEL_INT16 ||
                        c->input == CLPRIM_PIXEL_INT32 || c->input == CLPRIM_PIXEL_INT64;
        const uint64_t top = (uint64_t)1 << (ps * 8 - 1);
        const uint64_t edges[] = {0, 1, ~(uint64_t)0, top, top - 1, top + 1,
                                  (uint64_t)1 << 31, ((uint64_t)1 << 31) - 1, (uint64_t)1 << 32};
        uint64_t b = pick % 2 ? edges[(pick >> 1) % (sizeof edges / sizeof edges[0])] : r;
        if (ps < 8)
            b &= ((uint64_t)1 << (ps * 8)) - 1;
        memcpy(px, &b, ps); /* little-endian: the low bytes */
        if (sgn && (b & top))
            v = -(long double)((~b & (top - 1)) + 1); /* two's complement, sign-extended */
        else
            v = (long double)b;
    }
    pixel_to_table(c->type, v, nan, table_value);
}

/* Pixel i of a random image of the case's pixel type, and the same pixel
 * converted to the table's type (every pixel type here fits the table's,
 * except in edge cases: edge_pixel). */
static void random_pixel(const sat_case *c, unsigned char *px, unsigned char *table_value,
                         uint64_t *s)
{
    const uint64_t r = tu_rand(s);
    const double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);
    if (c->edges) {
        edge_pixel(c, px, table_value, s);
        return;
    }
    if (c->input == CLPRIM_PIXEL_SAME) {
        if (c->custom) {
            const cl_int v[2] = {(cl_int)r, (cl_int)(r >> 32) % 100000};
            memcpy(px, v, 8);
        } else {
            clprim_ref_fill(c->type, c->op, px, 1, s);
        }
        memcpy(table_value, px, elem_size(c));
        return;
    }
    switch (c->input) {
    case CLPRIM_PIXEL_UINT8: {
        const cl_uchar p = (cl_uchar)r;
        memcpy(px, &p, 1);
        if (c->type == CLPRIM_TYPE_FLOAT) {
            const cl_float f = p;
            memcpy(table_value, &f, 4);
        } else {
            const cl_uint v = p;
            memcpy(table_value, &v, 4);
        }
        break;
    }
    case CLPRIM_PIXEL_INT16: {
        const cl_short p = (cl_short)r;
        const cl_int v = p;
        memcpy(px, &p, 2);
        memcpy(table_value, &v, 4);
        break;
    }
    case CLPRIM_PIXEL_INT32: {
        const cl_int p = (cl_int)r;
        const cl_long v = p;
        memcpy(px, &p, 4);
        memcpy(table_value, &v, 8);
        break;
    }
    default: { /* FLOAT -> DOUBLE */
        const cl_float p = (cl_float)(2.0 * u - 1.0);
        const cl_double v = p;
        memcpy(px, &p, 4);
        memcpy(table_value, &v, 8);
        break;
    }
    }
}

static void describe(const sat_case *c, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s <- %s%s %zu x %zu pads %zu/%zu offs %zu/%zu seed=%llu",
             clprim_sat_algorithm_name(c->algorithm),
             c->custom ? "sum_max" : clprim_type_name(c->type),
             c->custom ? "" : clprim_op_name(c->op), clprim_pixel_type_name(c->input),
             c->exclusive ? " exclusive" : "", c->w, c->h, c->in_pad, c->out_pad, c->in_off,
             c->out_off, (unsigned long long)seed);
}

/* The caller's operator checked as two built-in tables: x summed, y maxed. */
static size_t check_custom(const unsigned char *x, const unsigned char *got, size_t pitch,
                           size_t w, size_t h, const char *what)
{
    cl_int *xs = malloc(2 * w * h * sizeof *xs + 1), *gs = malloc(2 * w * h * sizeof *gs + 1);
    size_t bad;
    assert_true(xs && gs);
    for (size_t y = 0; y < h; ++y)
        for (size_t i = 0; i < w; ++i)
            for (int k = 0; k < 2; ++k) {
                memcpy(&xs[k * w * h + y * w + i], x + (y * w + i) * 8 + 4 * k, 4);
                memcpy(&gs[k * w * h + y * w + i], got + (y * pitch + i) * 8 + 4 * k, 4);
            }
    bad = clprim_ref_sat_check(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, xs, gs, w, w, h, stderr, what) +
          clprim_ref_sat_check(CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, xs + w * h, gs + w * h, w, w, h,
                               stderr, what);
    free(xs);
    free(gs);
    return bad;
}

/* Runs one case; 0 when every output byte is as the reference says. */
static int run_case(const sat_case *c)
{
    const size_t e = elem_size(c), pe = pixel_size(c), ex = c->exclusive != 0;
    const size_t w = c->w, h = c->h, in_pitch = w + c->in_pad, out_pitch = w + ex + c->out_pad;
    const size_t in_len = c->in_off + (h ? (h - 1) * in_pitch + w : 0) + MARGIN;
    const size_t out_len = c->out_off + (h + ex - 1) * out_pitch + w + ex + MARGIN;
    const clprim_sat_desc d = {c->type, c->op, c->custom ? sum_max : NULL, c->input, c->exclusive,
                               c->algorithm, CLPRIM_REPRO_NONE};
    cl_context cl = clprim_context_cl_context(ctx);
    unsigned char *img = malloc(in_len * pe), *x = malloc(w * h * e + 1), *got = malloc(out_len * e);
    unsigned char ident[8];
    size_t bad = 0;
    uint64_t s = seed ^ (w * 0x9E37u + h);
    char what[320];
    cl_mem in, out;
    cl_int err;
    clprim_status st;

    describe(c, what, sizeof what);
    assert_true(img && x && got);
    for (size_t i = 0; i < in_len; ++i) /* the gaps between rows: random too */
        random_pixel(c, img + i * pe, x, &s);
    for (size_t y = 0; y < h; ++y)
        for (size_t i = 0; i < w; ++i)
            random_pixel(c, img + (c->in_off + y * in_pitch + i) * pe, x + (y * w + i) * e, &s);
    memset(got, POISON, out_len * e);
    in = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in_len * pe, img, &err);
    assert_int_equal(err, CL_SUCCESS);
    out = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_len * e, got, &err);
    assert_int_equal(err, CL_SUCCESS);
    st = clprim_sat(ctx, NULL, &d, in, c->in_off, in_pitch, out, c->out_off, out_pitch, w, h, 0,
                    NULL, NULL);
    if (st != CLPRIM_SUCCESS) {
        char msg[2048];
        clprim_context_last_error(ctx, msg, sizeof msg);
        fail_msg("%s: %s: %s", what, clprim_status_string(st), msg);
    }
    err = clEnqueueReadBuffer(clprim_context_queue(ctx), out, CL_TRUE, 0, out_len * e, got, 0,
                              NULL, NULL);
    assert_int_equal(err, CL_SUCCESS);
    {
        const unsigned char *table = got + (c->out_off + ex * (out_pitch + 1)) * e;
        if (c->custom) {
            const cl_int id[2] = {0, INT32_MIN};
            memcpy(ident, id, 8);
            bad += check_custom(x, table, out_pitch, w, h, what);
        } else {
            clprim_ref_identity(c->type, c->op, ident);
            bad += clprim_ref_sat_check(c->type, c->op, x, table, out_pitch, w, h, stderr, what);
        }
    }
    /* the border is the identity; every other byte is as it was */
    for (size_t i = 0; i < out_len; ++i) {
        const size_t r = i - c->out_off, row = r / out_pitch, col = r % out_pitch;
        const int inside = i >= c->out_off && row < h + ex && col < w + ex;
        const int border = inside && ex && (row == 0 || col == 0);
        if (inside && !border)
            continue;
        for (size_t b = 0; b < e; ++b) {
            const unsigned char want = border ? ident[b] : POISON;
            if (got[i * e + b] != want) {
                if (bad++ < 5)
                    fprintf(stderr, "%s: element %zu (%s) changed\n", what, i,
                            border ? "border" : "outside the table");
                break;
            }
        }
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    free(img);
    free(x);
    free(got);
    if (bad)
        fprintf(stderr, "FAILED: %s (%zu mismatches)\n", what, bad);
    return bad ? -1 : 0;
}

static const size_t shapes[][2] = {{1, 1}, {1, 9}, {9, 1}, {3, 5}, {4, 4}, {5, 63},
                                   {65, 4}, {127, 3}, {129, 65}, {64, 128}, {97, 251}};

/* Every shape, pitches and offsets varying with it. */
static void run_shapes(sat_case c, size_t count, int *failures)
{
    for (size_t k = 0; k < count && k < sizeof shapes / sizeof shapes[0]; ++k) {
        c.w = shapes[k][0];
        c.h = shapes[k][1];
        c.in_pad = k % 3 ? k : 0;
        c.out_pad = k % 2 ? 2 * k + 1 : 0;
        c.in_off = k % 4 == 1 ? 3 : 0;
        c.out_off = k % 4 == 2 ? 5 : 0;
        *failures += run_case(&c) != 0;
    }
}

static int type_ok(clprim_type t)
{
    return t != CLPRIM_TYPE_DOUBLE || info.has_fp64;
}

static void test_types(void **state)
{
    static const struct { clprim_type t; clprim_op op; } rows[] = {
        {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM},   {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM},
        {CLPRIM_TYPE_INT64, CLPRIM_OP_SUM},   {CLPRIM_TYPE_UINT64, CLPRIM_OP_SUM},
        {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM},   {CLPRIM_TYPE_DOUBLE, CLPRIM_OP_SUM},
        {CLPRIM_TYPE_INT32, CLPRIM_OP_MAX},   {CLPRIM_TYPE_FLOAT, CLPRIM_OP_MIN},
        {CLPRIM_TYPE_INT64, CLPRIM_OP_MIN},   {CLPRIM_TYPE_DOUBLE, CLPRIM_OP_MAX},
        {CLPRIM_TYPE_INT32, CLPRIM_OP_PRODUCT}, {CLPRIM_TYPE_UINT64, CLPRIM_OP_PRODUCT},
    };
    int failures = 0;
    (void)state;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; ++r)
        for (int a = CLPRIM_SAT_ROWS_THEN_COLUMNS; a <= CLPRIM_SAT_DECOUPLED_LOOKBACK; ++a) {
            sat_case c = {(clprim_sat_algorithm)a, rows[r].t, rows[r].op, 0, CLPRIM_PIXEL_SAME,
                          (int)(r + a) % 2, 0, 0, 0, 0, 0, 0, 0};
            if (!type_ok(rows[r].t))
                continue;
            if (a == CLPRIM_SAT_DECOUPLED_LOOKBACK && !info.has_single_pass)
                continue;
            run_shapes(c, r < 6 ? 11 : 6, &failures);
            c.exclusive = !c.exclusive; /* the other form, on a few shapes */
            run_shapes(c, 4, &failures);
        }
    assert_int_equal(failures, 0);
}

static void test_pixels_and_custom(void **state)
{
    static const struct { clprim_type t; clprim_pixel_type p; } rows[] = {
        {CLPRIM_TYPE_UINT32, CLPRIM_PIXEL_UINT8}, {CLPRIM_TYPE_FLOAT, CLPRIM_PIXEL_UINT8},
        {CLPRIM_TYPE_INT32, CLPRIM_PIXEL_INT16},  {CLPRIM_TYPE_INT64, CLPRIM_PIXEL_INT32},
        {CLPRIM_TYPE_DOUBLE, CLPRIM_PIXEL_FLOAT},
    };
    int failures = 0;
    (void)state;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; ++r) {
        sat_case c = {CLPRIM_SAT_AUTO, rows[r].t, CLPRIM_OP_SUM, 0, rows[r].p, (int)r % 2,
                      0, 0, 0, 0, 0, 0, 0};
        if (type_ok(rows[r].t))
            run_shapes(c, 11, &failures);
    }
    for (int a = CLPRIM_SAT_ROWS_THEN_COLUMNS; a <= CLPRIM_SAT_DECOUPLED_LOOKBACK; ++a) {
        sat_case c = {(clprim_sat_algorithm)a, 0, 0, 1, CLPRIM_PIXEL_SAME, a % 2, 0, 0, 0, 0, 0, 0, 0};
        if (a == CLPRIM_SAT_DECOUPLED_LOOKBACK && !info.has_single_pass)
            continue;
        run_shapes(c, 11, &failures);
    }
    assert_int_equal(failures, 0);
}

/* Pixels converted at their edges (clprim.h, CLPRIM_PIXEL_MAP): into
 * integer tables saturating (NaN 0, fractions cut toward zero, values past
 * the range clamped: float and double pixels, wider integers, the other
 * signedness), into float tables the nearest value; both algorithms,
 * inclusive and exclusive, every pixel half at an edge value. */
static void test_pixel_saturation(void **state)
{
    static const struct { clprim_type t; clprim_op op; clprim_pixel_type p; } rows[] = {
        {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_PIXEL_FLOAT},
        {CLPRIM_TYPE_UINT32, CLPRIM_OP_MAX, CLPRIM_PIXEL_FLOAT},
        {CLPRIM_TYPE_UINT64, CLPRIM_OP_MIN, CLPRIM_PIXEL_FLOAT},
        {CLPRIM_TYPE_INT64, CLPRIM_OP_SUM, CLPRIM_PIXEL_DOUBLE},
        {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_PIXEL_UINT32},
        {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, CLPRIM_PIXEL_INT64},
        {CLPRIM_TYPE_UINT32, CLPRIM_OP_MIN, CLPRIM_PIXEL_INT8},
        {CLPRIM_TYPE_INT64, CLPRIM_OP_MAX, CLPRIM_PIXEL_UINT64},
        {CLPRIM_TYPE_FLOAT, CLPRIM_OP_MAX, CLPRIM_PIXEL_DOUBLE},
        {CLPRIM_TYPE_FLOAT, CLPRIM_OP_MIN, CLPRIM_PIXEL_INT32},
    };
    int failures = 0;
    (void)state;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; ++r)
        for (int a = CLPRIM_SAT_ROWS_THEN_COLUMNS; a <= CLPRIM_SAT_DECOUPLED_LOOKBACK; ++a) {
            sat_case c = {(clprim_sat_algorithm)a, rows[r].t, rows[r].op, 0, rows[r].p,
                          (int)(r + a) % 2, 0, 0, 0, 0, 0, 0, 1};
            if (rows[r].p == CLPRIM_PIXEL_DOUBLE && !info.has_fp64)
                continue;
            if (a == CLPRIM_SAT_DECOUPLED_LOOKBACK && !info.has_single_pass)
                continue;
            run_shapes(c, 5, &failures);
        }
    assert_int_equal(failures, 0);
}

/* Large random sizes (up to 4096 x 4096). */
static void test_large(void **state)
{
    uint64_t s = seed + 17;
    int failures = 0;
    (void)state;
    for (int k = 0; k < 4; ++k) {
        sat_case c = {k < 2 ? CLPRIM_SAT_AUTO : CLPRIM_SAT_ROWS_THEN_COLUMNS,
                      k % 2 ? CLPRIM_TYPE_FLOAT : CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0,
                      k == 3 ? CLPRIM_PIXEL_UINT8 : CLPRIM_PIXEL_SAME, k == 1, 0, 0, 0, 0, 0, 0, 0};
        c.w = k == 0 ? 4096 : 1000 + tu_rand(&s) % 3000;
        c.h = k == 0 ? 4096 : 500 + tu_rand(&s) % 1500;
        c.in_pad = k == 2 ? 13 : 0;
        c.out_pad = k == 1 ? 3 : 0;
        if (c.type == CLPRIM_TYPE_FLOAT && k == 3)
            c.type = CLPRIM_TYPE_UINT32;
        failures += run_case(&c) != 0;
    }
    assert_int_equal(failures, 0);
}

/* Every look-back gives up at once and sums its predecessors from the
 * input (CLPRIM_LOOKBACK_SPINS=1: a development knob, read when a context is
 * created). */
static void test_fallback(void **state)
{
    clprim_context *saved = ctx;
    int failures = 0;
    (void)state;
    if (!info.has_single_pass)
        skip();
    setenv("CLPRIM_LOOKBACK_SPINS", "1", 1);
    ctx = tu_context();
    {
        sat_case c = {CLPRIM_SAT_DECOUPLED_LOOKBACK, CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0,
                      CLPRIM_PIXEL_SAME, 0, 0, 0, 0, 0, 0, 0, 0};
        run_shapes(c, 11, &failures);
        c.w = 1500;
        c.h = 300;
        failures += run_case(&c) != 0;
    }
    /* strip 0 silent too: walks must stop in their own row (a row walked
     * on into the one above, once, when strip 0 was late) */
    setenv("CLPRIM_SAT_TEST_SILENT", "1", 1);
    clprim_context_release(ctx);
    ctx = tu_context();
    {
        sat_case c = {CLPRIM_SAT_DECOUPLED_LOOKBACK, CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0,
                      CLPRIM_PIXEL_SAME, 1, 0, 0, 0, 0, 0, 0, 0};
        run_shapes(c, 11, &failures);
    }
    clprim_context_release(ctx);
    ctx = saved;
    unsetenv("CLPRIM_SAT_TEST_SILENT");
    unsetenv("CLPRIM_LOOKBACK_SPINS");
    assert_int_equal(failures, 0);
}

/* ---- box filters ---- */

/* The direct sum over the clamped window of pixel (x, y), in double. */
static double window_sum(const double *img, size_t w, size_t h, size_t x, size_t y, size_t rx,
                         size_t ry, size_t *count)
{
    const size_t x1 = x > rx ? x - rx : 0, x2 = x + rx + 1 < w ? x + rx + 1 : w;
    const size_t y1 = y > ry ? y - ry : 0, y2 = y + ry + 1 < h ? y + ry + 1 : h;
    double sum = 0;
    for (size_t j = y1; j < y2; ++j)
        for (size_t i = x1; i < x2; ++i)
            sum += img[j * w + i];
    *count = (x2 - x1) * (y2 - y1);
    return sum;
}

/* One box filter through the host helper: a uint8 image, as pixels into a
 * table of `type` (from_image) or as that table built by clprim_sat first. */
static int run_box(clprim_type type, int from_image, int sum, size_t w, size_t h, size_t rx,
                   size_t ry)
{
    const size_t e = clprim_type_size(type), out_pitch = w + 3;
    unsigned char *px = malloc(w * h), *table = malloc((w + 1) * (h + 1) * e);
    double *img = malloc(w * h * sizeof *img);
    float *got = malloc(out_pitch * h * sizeof *got);
    const clprim_sat_desc sd = {type, CLPRIM_OP_SUM, NULL, CLPRIM_PIXEL_UINT8, 1, CLPRIM_SAT_AUTO, CLPRIM_REPRO_NONE};
    const clprim_box_desc bd = {type, from_image, from_image ? CLPRIM_PIXEL_UINT8 : CLPRIM_PIXEL_SAME,
                                rx, ry, sum};
    uint64_t s = seed ^ (w * 31 + h * 7 + rx);
    size_t bad = 0;
    clprim_status st = CLPRIM_SUCCESS;

    assert_true(px && table && img && got);
    for (size_t i = 0; i < w * h; ++i) {
        px[i] = (unsigned char)tu_rand(&s);
        img[i] = px[i];
    }
    memset(got, POISON, out_pitch * h * sizeof *got);
    if (!from_image)
        st = clprim_sat_host(ctx, &sd, px, w, table, w + 1, w, h);
    if (st == CLPRIM_SUCCESS)
        st = clprim_box_filter_host(ctx, &bd, from_image ? (const void *)px : table,
                                    from_image ? w : w + 1, got, out_pitch, w, h);
    if (st != CLPRIM_SUCCESS) {
        char msg[2048];
        clprim_context_last_error(ctx, msg, sizeof msg);
        fail_msg("box %s: %s: %s", clprim_type_name(type), clprim_status_string(st), msg);
    }
    for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < w + 3; ++x) {
            size_t count;
            const float g = got[y * out_pitch + x];
            if (x >= w) { /* the pitch's gap: untouched */
                unsigned char b[4];
                memcpy(b, &g, 4);
                if ((b[0] != POISON || b[3] != POISON) && bad++ < 5)
                    fprintf(stderr, "box: gap (%zu, %zu) written\n", x, y);
                continue;
            }
            const double want_sum = window_sum(img, w, h, x, y, rx, ry, &count);
            const double want = sum ? want_sum : want_sum / (double)count;
            if (fabs((double)g - want) > 1e-6 * fabs(want) + 1e-6 && bad++ < 5)
                fprintf(stderr, "box %s %s %s %zux%zu r=%zu,%zu: (%zu, %zu) got %.9g want %.9g\n",
                        clprim_type_name(type), from_image ? "image" : "table",
                        sum ? "sum" : "mean", w, h, rx, ry, x, y, (double)g, want);
        }
    free(px);
    free(table);
    free(img);
    free(got);
    return bad ? -1 : 0;
}

/* A box filter (sums) from float pixels at the conversion's edges into an
 * int32 table, against the window sums of the pixels converted as
 * clprim.h states (saturating, NaN 0; the sum wraps as the table does). */
static void test_box_saturation(void **state)
{
    const size_t w = 37, h = 23, rx = 2, ry = 3, pitch = w + 2;
    const sat_case pc = {CLPRIM_SAT_AUTO, CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_PIXEL_FLOAT,
                         1, w, h, 0, 0, 0, 0, 1};
    const clprim_box_desc bd = {CLPRIM_TYPE_INT32, 1, CLPRIM_PIXEL_FLOAT, rx, ry, 1};
    float *px = malloc(pitch * h * sizeof *px), *got = malloc(w * h * sizeof *got);
    cl_int *v = malloc(w * h * sizeof *v);
    uint64_t s = seed ^ 0xb0c5a7u;
    size_t bad = 0;
    clprim_status st;
    (void)state;
    assert_true(px && got && v);
    for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < pitch; ++x) {
            unsigned char tv[8];
            edge_pixel(&pc, (unsigned char *)&px[y * pitch + x], tv, &s);
            if (x < w)
                memcpy(&v[y * w + x], tv, 4);
        }
    memset(got, POISON, w * h * sizeof *got);
    st = clprim_box_filter_host(ctx, &bd, px, pitch, got, w, w, h);
    if (st != CLPRIM_SUCCESS) {
        char msg[2048];
        clprim_context_last_error(ctx, msg, sizeof msg);
        fail_msg("box from float pixels: %s: %s", clprim_status_string(st), msg);
    }
    for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < w; ++x) {
            uint32_t sum = 0;
            for (size_t j = y > ry ? y - ry : 0; j < h && j <= y + ry; ++j)
                for (size_t i = x > rx ? x - rx : 0; i < w && i <= x + rx; ++i)
                    sum += (uint32_t)v[j * w + i];
            const float want = (float)(int32_t)sum;
            if (memcmp(&got[y * w + x], &want, 4) != 0 && bad++ < 5)
                fprintf(stderr, "box from float pixels (%zu, %zu): got %.9g want %.9g\n", x, y,
                        (double)got[y * w + x], (double)want);
        }
    free(px);
    free(got);
    free(v);
    assert_int_equal(bad, 0);
}

static void test_box(void **state)
{
    static const size_t radii[][2] = {{0, 0}, {1, 2}, {5, 3}, {200, 1}, {2, 500}};
    int failures = 0;
    (void)state;
    for (size_t r = 0; r < sizeof radii / sizeof radii[0]; ++r) {
        failures += run_box(CLPRIM_TYPE_UINT32, (int)r % 2, (int)r % 3 == 0, 97, 61, radii[r][0],
                            radii[r][1]);
        failures += run_box(CLPRIM_TYPE_FLOAT, 1, 0, 33, 70, radii[r][0], radii[r][1]);
        failures += run_box(CLPRIM_TYPE_INT32, 0, 1, 1, 9, radii[r][0], radii[r][1]);
        if (info.has_fp64)
            failures += run_box(CLPRIM_TYPE_DOUBLE, (int)r % 2 == 0, 0, 20, 1, radii[r][0],
                                radii[r][1]);
    }
    assert_int_equal(failures, 0);
}

/* ---- refusals ---- */

#define expect_refused(got, want, needle) \
    assert_int_equal(tu_refused(ctx, (got), (want), (needle)), 0)

/* The context's last message does not contain `word`. */
static void expect_message_lacks(const char *word)
{
    char msg[2048];
    clprim_context_last_error(ctx, msg, sizeof msg);
    if (strstr(msg, word))
        fail_msg("the message \"%s\" names \"%s\"", msg, word);
}

static void test_refused(void **state)
{
    cl_context cl = clprim_context_cl_context(ctx);
    const clprim_operator_desc nd = {"int", NULL, "a - b + a", "0", 4, 0, NULL, 0, NULL};
    clprim_operator *noncomm = NULL;
    clprim_sat_desc d = {0};
    clprim_box_desc bd = {0};
    cl_int err;
    cl_mem a = clCreateBuffer(cl, CL_MEM_READ_WRITE, 400, NULL, &err);
    cl_mem b = clCreateBuffer(cl, CL_MEM_READ_WRITE, 400, NULL, &err);
    (void)state;
    assert_int_equal(err, CL_SUCCESS);
    expect_refused(clprim_sat(ctx, NULL, &d, a, 0, 9, b, 0, 10, 10, 10, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "in_pitch 9");
    d.exclusive = 1;
    expect_refused(clprim_sat(ctx, NULL, &d, a, 0, 10, b, 0, 10, 10, 9, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "out_pitch 10");
    /* 11 x 10 table of 4 bytes: 440 > 400 */
    expect_refused(clprim_sat(ctx, NULL, &d, a, 0, 10, b, 0, 11, 10, 9, 0, NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "out");
    d.exclusive = 0;
    expect_refused(clprim_sat(ctx, NULL, &d, a, 0, 10, a, 0, 10, 10, 10, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "overlap");
    d.input = (clprim_pixel_type)99;
    expect_refused(clprim_sat(ctx, NULL, &d, a, 0, 10, b, 0, 10, 10, 10, 0, NULL, NULL),
                   CLPRIM_UNKNOWN_TYPE, "clprim_pixel_type");
    d.input = CLPRIM_PIXEL_SAME;
    d.algorithm = (clprim_sat_algorithm)7;
    expect_refused(clprim_sat(ctx, NULL, &d, a, 0, 10, b, 0, 10, 10, 10, 0, NULL, NULL),
                   CLPRIM_UNKNOWN_ALGORITHM, "clprim_sat_algorithm");
    d.algorithm = CLPRIM_SAT_AUTO;
    expect_refused(clprim_sat(ctx, NULL, NULL, a, 0, 10, b, 0, 10, 10, 10, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "desc");
    assert_int_equal(clprim_operator_create(ctx, &nd, &noncomm), CLPRIM_SUCCESS);
    d.custom = noncomm;
    expect_refused(clprim_sat(ctx, NULL, &d, a, 0, 10, b, 0, 10, 10, 10, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "COMMUTATIVE");
    d.custom = sum_max;
    d.input = CLPRIM_PIXEL_UINT8;
    expect_refused(clprim_sat(ctx, NULL, &d, a, 0, 10, b, 0, 10, 5, 5, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "SAME");
    /* box: the table is (w + 1) x (h + 1) */
    expect_refused(clprim_box_filter(ctx, NULL, &bd, a, 0, 10, b, 0, 10, 10, 5, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "src_pitch 10");
    expect_refused(clprim_box_filter(ctx, NULL, &bd, a, 0, 11, b, 0, 11, 10, 9, 0, NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "src");
    /* from an image as well: the messages name the box filter's own
     * parameters (src, src_pitch), never clprim_sat's (in, in_pitch) */
    bd.from_image = 1;
    bd.input = CLPRIM_PIXEL_UINT8;
    expect_refused(clprim_box_filter(ctx, NULL, &bd, a, 0, 9, b, 0, 10, 10, 5, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "src_pitch 9");
    expect_message_lacks("in_pitch");
    /* 4 rows of 100 uint8 pixels and one of 10: 410 > 400 bytes */
    expect_refused(clprim_box_filter(ctx, NULL, &bd, a, 0, 100, b, 0, 10, 10, 5, 0, NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "src");
    expect_message_lacks("in ");
    expect_refused(clprim_box_filter(ctx, NULL, &bd, NULL, 0, 10, b, 0, 10, 10, 5, 0, NULL, NULL),
                   CLPRIM_INVALID_ARGUMENT, "src is NULL");
    expect_refused(clprim_box_filter(ctx, NULL, &bd, a, 0, (size_t)1 << 62, b, 0, 10, 10, 5, 0,
                                     NULL, NULL),
                   CLPRIM_OUT_OF_BOUNDS, "src_pitch");
    expect_refused(clprim_box_filter_host(ctx, &bd, NULL, 10, (float *)&bd, 10, 10, 5),
                   CLPRIM_INVALID_ARGUMENT, "src");
    expect_message_lacks("in ");
    expect_refused(clprim_box_filter_host(ctx, &bd, &bd, 9, (float *)&bd, 10, 10, 5),
                   CLPRIM_INVALID_ARGUMENT, "src_pitch 9");
    expect_message_lacks("in_pitch");
    bd.from_image = 0;
    bd.input = CLPRIM_PIXEL_SAME;
    expect_refused(clprim_box_filter_host(ctx, &bd, &bd, 10, (float *)&bd, 10, 10, 5),
                   CLPRIM_INVALID_ARGUMENT, "src_pitch 10");
    /* and clprim_sat's its own */
    expect_refused(clprim_sat_host(ctx, &d, NULL, 10, (float *)&bd, 10, 10, 5),
                   CLPRIM_INVALID_ARGUMENT, "in or out");
    bd.type = CLPRIM_TYPE_COUNT_;
    expect_refused(clprim_box_filter(ctx, NULL, &bd, a, 0, 11, b, 0, 10, 10, 5, 0, NULL, NULL),
                   CLPRIM_UNKNOWN_TYPE, "");
    /* nothing to do is no error */
    d.custom = NULL;
    d.input = CLPRIM_PIXEL_SAME;
    assert_int_equal(clprim_sat(ctx, NULL, &d, a, 0, 0, b, 0, 0, 0, 7, 0, NULL, NULL),
                     CLPRIM_SUCCESS);
    assert_int_equal(clprim_sat_host(NULL, &d, NULL, 0, NULL, 0, 0, 0), CLPRIM_INVALID_ARGUMENT);
    clprim_operator_release(noncomm);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types), cmocka_unit_test(test_pixels_and_custom),
        cmocka_unit_test(test_large), cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_box),   cmocka_unit_test(test_refused),
        cmocka_unit_test(test_pixel_saturation), cmocka_unit_test(test_box_saturation),
    };
    const clprim_operator_desc sd = {"int2", NULL,
                                     "(int2)(as_int(as_uint(a.x) + as_uint(b.x)), max(a.y, b.y))",
                                     "(int2)(0, INT_MIN)", 8, CLPRIM_OPERATOR_COMMUTATIVE, NULL, 0,
                                     NULL};
    int rc;
    seed = tu_seed();
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    if (clprim_operator_create(ctx, &sd, &sum_max) != CLPRIM_SUCCESS) {
        char why[4096];
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "cannot create the test's operator: %s\n", why);
        return 1;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_operator_release(sum_max);
    clprim_context_release(ctx);
    return rc;
}

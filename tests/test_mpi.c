/* SPDX-License-Identifier: MIT */
/* clprim_mpi across the ranks of MPI_COMM_WORLD (CTest runs it with 1, 2,
 * 3 and 4 ranks): every rank builds the same random array from one seed,
 * takes its part (random sizes, some empty), and checks its share of each
 * result against the host reference of the whole array. Every built-in type
 * (sum), every int32 operator, float min / max (exchanged as bytes), a
 * non-commutative caller's operator, inclusive and exclusive; reduce and
 * select; descriptors that disagree across ranks, and a rank that fails.
 * PORTABLE (issue 33): float and double sums, a transform and a caller's
 * float operator over parts of whole tiles with a ragged last one, bit for
 * bit rank 0's one-device result; a split off the tiles refused. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "common/testutil.h"
#include "reference/reference.h"

#include <clprim_mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON 0xA5

static int rank, size;
static clprim_context *ctx;
static uint64_t seed;

/* The whole array's length and this rank's [start, start + n), the same
 * on every rank for one state. */
static void cut(uint64_t *s, size_t total, size_t *start, size_t *n)
{
    size_t at = 0, r;
    for (r = 0; r < (size_t)size; ++r) {
        size_t len = r + 1 == (size_t)size ? total - at
                     : tu_rand(s) % 4 == 0  ? 0
                                            : tu_rand(s) % (total - at + 1);
        if (r == (size_t)rank) {
            *start = at;
            *n = len;
        }
        at += len;
    }
}

/* A buffer holding src's bytes; none (an empty part, whose src may point
 * just past its array): a byte, not copied from src. */
static cl_mem device_copy(const void *src, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(clprim_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | (bytes ? CL_MEM_COPY_HOST_PTR : 0),
                              bytes ? bytes : 1, bytes ? (void *)src : NULL, &err);
    if (err != CL_SUCCESS) {
        printf("rank %d: clCreateBuffer failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return m;
}

static void read_back(cl_mem m, size_t bytes, void *dst)
{
    if (bytes && clEnqueueReadBuffer(clprim_context_queue(ctx), m, CL_TRUE, 0, bytes, dst, 0, NULL,
                                     NULL) != CL_SUCCESS) {
        printf("rank %d: reading back failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static int report(clprim_status st, const char *what)
{
    char why[1024];
    clprim_context_last_error(ctx, why, sizeof why);
    printf("FAIL rank %d/%d: %s: %s: %s (seed %llu)\n", rank, size, what, clprim_status_string(st),
           why, (unsigned long long)seed);
    return 1;
}

/* Scan and reduce of a built-in (type, op), this rank's part in place or
 * not, checked against the reference of the whole array. */
static int builtin_case(clprim_type type, clprim_op op, int exclusive, uint64_t *s)
{
    const size_t elem = clprim_type_size(type), total = tu_rand(s) % 150000;
    /* issue 33: every other case at RUN_TO_RUN (floats: the ranks' totals
     * gathered and folded in rank order on the device instead of MPI's) */
    const clprim_repro repro = tu_rand(s) % 2 ? CLPRIM_REPRO_RUN_TO_RUN : CLPRIM_REPRO_NONE;
    const clprim_scan_desc d = {type, op, exclusive, CLPRIM_SCAN_AUTO, NULL, NULL, repro};
    const clprim_reduce_desc rd = {type, op, CLPRIM_REDUCE_AUTO, NULL, NULL, repro};
    unsigned char *x = malloc(total * elem + 1), *want = malloc(total * elem + 1);
    unsigned char *got = malloc(total * elem + 16), value[8];
    size_t start = 0, n = 0, i;
    int bad = 0;
    char what[160];
    clprim_status st;
    cl_mem in, out;

    clprim_ref_fill(type, op, x, total, s);
    cut(s, total, &start, &n);
    snprintf(what, sizeof what, "%s %s %s %s, %zu of %zu", clprim_type_name(type),
             clprim_op_name(op), exclusive ? "exclusive" : "inclusive", clprim_repro_name(repro), n,
             total);
    in = device_copy(x + start * elem, n * elem);
    memset(got, POISON, n * elem + 16);
    out = device_copy(got, n * elem + 16);
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &d, in, 0, out, 1, n);
    if (st != CLPRIM_SUCCESS) {
        bad += report(st, what);
    } else {
        read_back(out, n * elem + 16, got);
        /* the reference over the whole array with this rank's stretch from
         * the device: checked whole, with the tolerance of float sums */
        clprim_ref_scan(type, op, exclusive, x, want, total);
        memcpy(want + start * elem, got + elem, n * elem);
        if (clprim_ref_scan_check(type, op, exclusive, x, want, total, stdout, what) != 0)
            bad += report(st, what);
        for (i = 0; i < elem; ++i)
            bad += got[i] != POISON || got[(1 + n) * elem + i] != POISON;
    }
    memset(value, POISON, sizeof value);
    st = clprim_mpi_reduce(MPI_COMM_WORLD, ctx, &rd, in, 0, n, value);
    if (st != CLPRIM_SUCCESS || clprim_ref_reduce_check(type, op, x, total, value, stdout, what))
        bad += report(st, "reduce");
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    free(x);
    free(want);
    free(got);
    return bad;
}

/* Affine maps mod 2^32 composed in order: not commutative. */
static void affine(const cl_uint *f, const cl_uint *g, cl_uint *h)
{
    const cl_uint a = f[0] * g[0], b = g[0] * f[1] + g[1];
    h[0] = a;
    h[1] = b;
}

static int custom_case(int exclusive, uint64_t *s)
{
    const clprim_operator_desc od = {"uint2", NULL, "(uint2)(a.x * b.x, b.x * a.y + b.y)",
                                     "(uint2)(1u, 0u)", 2 * sizeof(cl_uint), 0, NULL, 0, NULL};
    const size_t total = tu_rand(s) % 100000;
    cl_uint *x = malloc(total * 8 + 8), *want = malloc(total * 8 + 8), *got = malloc(total * 8 + 8);
    cl_uint run[2] = {1, 0}, value[2];
    clprim_operator *op = NULL;
    size_t start = 0, n = 0, i;
    int bad = 0;
    cl_mem in;

    for (i = 0; i < 2 * total; ++i)
        x[i] = (cl_uint)tu_rand(s) | (i % 2 == 0);
    for (i = 0; i < total; ++i) {
        if (exclusive)
            memcpy(want + 2 * i, run, 8);
        affine(run, x + 2 * i, run);
        if (!exclusive)
            memcpy(want + 2 * i, run, 8);
    }
    cut(s, total, &start, &n);
    if (clprim_operator_create(ctx, &od, &op) != CLPRIM_SUCCESS)
        return report(CLPRIM_BUILD_FAILED, "creating the affine operator");
    {
        const clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, exclusive, CLPRIM_SCAN_AUTO,
                                    op, NULL, CLPRIM_REPRO_NONE};
        const clprim_reduce_desc rd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, op, NULL, CLPRIM_REPRO_NONE};
        clprim_status st;
        in = device_copy(x + 2 * start, n * 8);
        st = clprim_mpi_reduce(MPI_COMM_WORLD, ctx, &rd, in, 0, n, value);
        if (st != CLPRIM_SUCCESS || value[0] != run[0] || value[1] != run[1])
            bad += report(st, "affine reduce");
        st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &d, in, 0, in, 0, n); /* in place */
        if (st != CLPRIM_SUCCESS) {
            bad += report(st, "affine scan");
        } else {
            read_back(in, n * 8, got);
            if (memcmp(got, want + 2 * start, n * 8) != 0)
                bad += report(st, exclusive ? "affine scan exclusive" : "affine scan inclusive");
        }
    }
    clReleaseMemObject(in);
    clprim_operator_release(op);
    free(x);
    free(want);
    free(got);
    return bad;
}

static int select_case(uint64_t *s)
{
    const size_t total = tu_rand(s) % 200000;
    const cl_int threshold = (cl_int)(tu_rand(s) % 0xffffffffu);
    const clprim_compact_desc d = {CLPRIM_TYPE_INT32, NULL, CLPRIM_PREDICATE_GREATER, &threshold,
                                   NULL, 0, NULL, CLPRIM_COMPACT_AUTO, NULL, 0, 0};
    cl_int *x = malloc(total * 4 + 4), *want = malloc(total * 4 + 4), *got = malloc(total * 4 + 4);
    unsigned char *keep = malloc(total + 1);
    size_t start = 0, n = 0, count = 0, offset = 0, all = 0, kept, mine;
    int bad = 0;
    cl_mem in, out;
    clprim_status st;

    clprim_ref_fill(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, x, total, s);
    cut(s, total, &start, &n);
    clprim_ref_compare(CLPRIM_TYPE_INT32, CLPRIM_PREDICATE_GREATER, &threshold, x, total, keep);
    kept = clprim_ref_select(x, total, 4, keep, want, NULL);
    mine = clprim_ref_select(x + start, n, 4, keep + start, got, NULL);
    in = device_copy(x + start, n * 4);
    out = device_copy(x + start, n * 4);
    st = clprim_mpi_select(MPI_COMM_WORLD, ctx, &d, in, 0, out, 0, n, &count, &offset, &all);
    if (st != CLPRIM_SUCCESS) {
        bad += report(st, "select");
    } else {
        read_back(out, count * 4, got);
        if (count != mine || all != kept || offset + count > kept ||
            memcmp(got, want + offset, count * 4) != 0)
            bad += report(st, "select: counts, offsets or elements");
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    free(x);
    free(want);
    free(got);
    free(keep);
    return bad;
}

/* i in a transform and a select expression is the index in the whole
 * array: every rank's share is what one device gives for the whole. */
static int index_case(uint64_t *s)
{
    /* the ranks' starts do not depend on the seed (equal parts of a fixed
     * total): a rank's expression of i builds the same program in every
     * run, found in the disk cache */
    const size_t total = 12001;
    const clprim_transform tf = {CLPRIM_TYPE_UINT32, "(ulong)x + i * 5ul"};
    const clprim_scan_desc d = {.type = CLPRIM_TYPE_UINT64, .op = CLPRIM_OP_SUM, .transform = &tf};
    const clprim_reduce_desc rd = {.type = CLPRIM_TYPE_UINT64, .op = CLPRIM_OP_SUM, .transform = &tf};
    const clprim_compact_desc cd = {.type = CLPRIM_TYPE_UINT32,
                                    .predicate = CLPRIM_PREDICATE_EXPRESSION,
                                    .expression = "i % 3 == 2"};
    cl_uint *x = malloc(total * 4), *kept = malloc(total * 4);
    cl_ulong *got = malloc(total * 8 + 8), acc = 0, value = 0;
    size_t start = 0, n = 0, i, count = 0, offset = 0, all = 0;
    int bad = 0;
    cl_mem in, out;
    clprim_status st;

    for (i = 0; i < total; ++i)
        x[i] = (cl_uint)tu_rand(s);
    start = total / (size_t)size * (size_t)rank;
    n = rank + 1 == size ? total - start : total / (size_t)size;
    in = device_copy(x + start, n * 4);
    out = device_copy(got, n * 8 + 8);
    /* every rank makes every call (they are collective), whatever failed */
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &d, in, 0, out, 0, n);
    if (st != CLPRIM_SUCCESS)
        bad += report(st, "index: scan");
    else
        read_back(out, n * 8, got);
    for (i = 0; i < start + n; ++i) {
        acc += (cl_ulong)x[i] + (cl_ulong)i * 5u;
        if (st == CLPRIM_SUCCESS && i >= start && got[i - start] != acc && bad++ == 0)
            report(st, "index: the scan is not the whole array's (i counts within the rank?)");
    }
    for (; i < total; ++i)
        acc += (cl_ulong)x[i] + (cl_ulong)i * 5u;
    st = clprim_mpi_reduce(MPI_COMM_WORLD, ctx, &rd, in, 0, n, &value);
    if (st != CLPRIM_SUCCESS || value != acc)
        bad += report(st, "index: reduce");
    st = clprim_mpi_select(MPI_COMM_WORLD, ctx, &cd, in, 0, out, 0, n, &count, &offset, &all);
    if (st != CLPRIM_SUCCESS) {
        bad += report(st, "index: select");
    } else {
        /* the kept elements: x[j] for j % 3 == 2 of this rank's stretch, in
         * order; all of them over the whole array */
        size_t k = 0, j, want_all = 0;
        read_back(out, count * 4, kept);
        for (j = start; j < start + n; ++j)
            if (j % 3 == 2 && (k >= count || kept[k++] != x[j]) && bad++ == 0)
                report(st, "index: select kept the wrong elements (i counts within the rank?)");
        for (j = 0; j < total; ++j)
            want_all += j % 3 == 2;
        if (k != count || all != want_all)
            bad += report(st, "index: select's counts");
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    free(x);
    free(kept);
    free(got);
    return bad;
}

/* Misuse: a descriptor that differs on one rank, and one rank's bad call,
 * refused on every rank (and nothing hangs). */
static int errors_case(void)
{
    clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    const cl_int x[4] = {1, 2, 3, 4};
    cl_mem in = device_copy(x, sizeof x);
    clprim_status st;
    int bad = 0;
    if (size > 1 && rank == size - 1)
        d.type = CLPRIM_TYPE_UINT32;
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &d, in, 0, in, 0, 4);
    if (size > 1 && st != CLPRIM_INVALID_ARGUMENT)
        bad += report(st, "ranks with different types were not refused");
    d.type = CLPRIM_TYPE_INT32;
    /* rank 0 asks for more than its buffer holds */
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &d, in, 0, in, 0, rank == 0 ? 5 : 4);
    if (rank == 0 && st != CLPRIM_OUT_OF_BOUNDS)
        bad += report(st, "rank 0's bad call");
    if (rank != 0 && tu_refused(ctx, st, CLPRIM_INVALID_ARGUMENT, "rank 0 failed") != 0)
        ++bad;
    st = clprim_mpi_reduce(MPI_COMM_WORLD, ctx, rank == 0 ? NULL : (const clprim_reduce_desc *)NULL,
                           in, 0, 4, NULL);
    if (st != CLPRIM_INVALID_ARGUMENT)
        bad += report(st, "a NULL descriptor");
    clReleaseMemObject(in);
    return bad;
}

/* ---- PORTABLE (issue 33): one device's bits over any number of ranks ---- */

/* PORTABLE's split: every rank before `last` (random) a random number of
 * whole tiles (a quarter of them none), rank `last` the rest (ragged), the
 * ranks after it none. The same on every rank for one state. s NULL: a
 * split that does not depend on the seed (equal whole tiles, the last rank
 * the rest), for expressions of i, whose programs each rank's start picks
 * (the sanitizer pass then finds them in the disk cache). */
static void cut_tiles(uint64_t *s, size_t total, size_t *start, size_t *n)
{
    const size_t tile = CLPRIM_PORTABLE_TILE;
    const size_t last = s ? tu_rand(s) % (size_t)size : (size_t)size - 1;
    size_t at = 0, r;
    for (r = 0; r < (size_t)size; ++r) {
        const size_t whole = (total - at) / tile;
        size_t len = r == last ? total - at : 0;
        if (r < last && !s)
            len = total / tile / (size_t)size * tile;
        else if (r < last && tu_rand(s) % 4 != 0)
            len = tu_rand(s) % (whole + 1) * tile;
        if (r == (size_t)rank) {
            *start = at;
            *n = len;
        }
        at += len;
    }
}

/* The bits every rank's share must have: rank 0's one-device PORTABLE scan
 * (clprim_scan) and reduce (clprim_reduce_value) of the whole array, sent
 * to every rank. 0 when rank 0 got them. */
static int one_device(const clprim_scan_desc *d, const void *x, size_t in_elem, size_t total,
                      unsigned char *want, unsigned char *want_value, size_t elem)
{
    const clprim_reduce_desc rd = {d->type, d->op, CLPRIM_REDUCE_AUTO, d->custom, d->transform,
                                   CLPRIM_REPRO_PORTABLE};
    int bad = 0;
    memset(want, POISON, total * elem);
    memset(want_value, POISON, elem);
    if (rank == 0) {
        cl_mem in = device_copy(x, total * in_elem), out = device_copy(want, total * elem);
        clprim_status st = clprim_scan(ctx, NULL, d, in, 0, out, 0, total, 0, NULL, NULL);
        if (st != CLPRIM_SUCCESS)
            bad = report(st, "portable: the one-device scan");
        read_back(out, total * elem, want);
        st = clprim_reduce_value(ctx, &rd, in, 0, total, want_value);
        if (st != CLPRIM_SUCCESS)
            bad = report(st, "portable: the one-device reduce");
        clReleaseMemObject(in);
        clReleaseMemObject(out);
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(want, (int)(total * elem), MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Bcast(want_value, (int)elem, MPI_BYTE, 0, MPI_COMM_WORLD);
    return bad;
}

/* clprim_mpi_scan and clprim_mpi_reduce at PORTABLE of x (total elements
 * of in_elem bytes, the whole array on every rank), this rank's part cut
 * by cut_tiles(cut, ...) (in place or into poisoned memory after a poisoned
 * element): bit for bit rank 0's one-device result. */
static int portable_case(const char *name, const clprim_scan_desc *d, const void *x,
                         size_t in_elem, size_t elem, size_t total, int in_place, uint64_t *cut)
{
    const clprim_reduce_desc rd = {d->type, d->op, CLPRIM_REDUCE_AUTO, d->custom, d->transform,
                                   d->repro};
    unsigned char *want = malloc(total * elem + 1), *got = malloc(total * elem + 2 * elem);
    unsigned char *want_value = malloc(elem), *value = malloc(elem);
    const unsigned char *part;
    size_t start = 0, n = 0, i, out_off = in_place ? 0 : 1;
    int bad;
    char what[200];
    clprim_status st;
    cl_mem in, out;

    cut_tiles(cut, total, &start, &n);
    part = (const unsigned char *)x + start * in_elem;
    snprintf(what, sizeof what, "portable %s %s%s, %zu of %zu from %zu", name,
             d->exclusive ? "exclusive" : "inclusive", in_place ? " in place" : "", n, total,
             start);
    bad = one_device(d, x, in_elem, total, want, want_value, elem);
    in = device_copy(part, n * in_elem);
    memset(got, POISON, (n + 2) * elem);
    out = in_place ? in : device_copy(got, (n + 2) * elem);
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, d, in, 0, out, out_off, n);
    if (st != CLPRIM_SUCCESS) {
        bad += report(st, what);
    } else {
        read_back(out, (n + 2 * out_off) * elem, got);
        if (memcmp(got + out_off * elem, want + start * elem, n * elem) != 0)
            bad += report(st, what); /* not one device's bits */
        for (i = 0; i < elem && !in_place; ++i)
            if (got[i] != POISON || got[(n + 1) * elem + i] != POISON)
                bad += report(st, "portable: an element beside the output was written");
    }
    if (!in_place)
        clReleaseMemObject(out);
    clReleaseMemObject(in);
    /* the reduce reads the input again (the scan may have overwritten it) */
    in = device_copy(part, n * in_elem);
    memset(value, POISON, elem);
    st = clprim_mpi_reduce(MPI_COMM_WORLD, ctx, &rd, in, 0, n, value);
    if (st != CLPRIM_SUCCESS || memcmp(value, want_value, elem) != 0)
        bad += report(st, "portable reduce: not one device's bits");
    clReleaseMemObject(in);
    free(want);
    free(got);
    free(want_value);
    free(value);
    return bad;
}

/* A length for a PORTABLE case: none to one tile, whole tiles, any. */
static size_t portable_total(uint64_t *s)
{
    switch (tu_rand(s) % 3) {
    case 0: return tu_rand(s) % (CLPRIM_PORTABLE_TILE + 1);
    case 1: return (1 + tu_rand(s) % 40) * CLPRIM_PORTABLE_TILE;
    default: return tu_rand(s) % (40 * CLPRIM_PORTABLE_TILE);
    }
}

/* Float or double sums (random inputs), inclusive and exclusive; one float
 * array long enough that its tile totals need a level of their own. The
 * one-device result is also checked against the host reference: the bits
 * compared are a correct scan. */
static int portable_builtin(clprim_type type, size_t total, int exclusive, uint64_t *s)
{
    const size_t elem = clprim_type_size(type);
    const clprim_scan_desc d = {type, CLPRIM_OP_SUM, exclusive, CLPRIM_SCAN_AUTO, NULL, NULL,
                                CLPRIM_REPRO_PORTABLE};
    unsigned char *x = malloc(total * elem + 1);
    int bad;
    clprim_ref_fill(type, CLPRIM_OP_SUM, x, total, s);
    bad = portable_case(clprim_type_name(type), &d, x, elem, elem, total, 0, s);
    if (rank == 0) {
        /* rank 0's one-device scan again, checked against the host */
        unsigned char *want = malloc(total * elem + 1);
        if (clprim_scan_host(ctx, &d, x, want, total) != CLPRIM_SUCCESS ||
            clprim_ref_scan_check(type, CLPRIM_OP_SUM, exclusive, x, want, total, stdout,
                                  "portable: the one-device scan") != 0)
            bad += report(CLPRIM_SUCCESS, "portable: the one-device scan is wrong");
        free(want);
    }
    free(x);
    return bad;
}

/* A float transform (FP_CONTRACT off: x * x - c rounds twice everywhere),
 * with i in the whole array, and a caller's non-associative float2
 * operator (affine maps composed: a linear recurrence), in place. */
static int portable_other(int exclusive, uint64_t *s)
{
    const clprim_transform tf = {CLPRIM_TYPE_FLOAT, "x * x - 0.25f * (float)(i % 7ul)"};
    const clprim_scan_desc d = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, exclusive, CLPRIM_SCAN_AUTO,
                                NULL, &tf, CLPRIM_REPRO_PORTABLE};
    const clprim_operator_desc od = {"float2", NULL, "(float2)(a.x * b.x, b.x * a.y + b.y)",
                                     "(float2)(1.0f, 0.0f)", 2 * sizeof(cl_float), 0, NULL, 0,
                                     NULL};
    /* a fixed total and split: the ranks' first elements (hence the
     * rebased transforms' programs) do not depend on the seed */
    const size_t total = 9 * CLPRIM_PORTABLE_TILE + 321, most = 40 * CLPRIM_PORTABLE_TILE;
    cl_float *x = malloc(2 * most * sizeof *x);
    clprim_operator *op = NULL;
    clprim_scan_desc cd = d;
    size_t i;
    int bad;
    for (i = 0; i < 2 * most; ++i) /* a in [0.5, 1), b in [-1, 1) */
        x[i] = i % 2 ? (float)(tu_rand(s) % 2000000) / 1e6f - 1.0f
                     : 0.5f + (float)(tu_rand(s) % 500000) / 1e6f;
    bad = portable_case("float transform", &d, x, sizeof(cl_float), sizeof(cl_float), total, 0,
                        NULL);
    if (clprim_operator_create(ctx, &od, &op) != CLPRIM_SUCCESS)
        return bad + report(CLPRIM_BUILD_FAILED, "creating the float2 affine operator");
    cd.type = 0;
    cd.op = 0;
    cd.transform = NULL;
    cd.custom = op;
    bad += portable_case("float2 affine", &cd, x, 8, 8, portable_total(s), 1, s);
    clprim_operator_release(op);
    free(x);
    return bad;
}

/* A split off the tiles (rank 0 ragged, a later rank not empty) refused
 * on every rank, naming desc->repro and rank 0's n; ranks that disagree
 * on desc->repro refused too. */
static int portable_refused(uint64_t *s)
{
    const size_t n = rank == 0 ? 1 + tu_rand(s) % (CLPRIM_PORTABLE_TILE - 1)
                               : 1 + tu_rand(s) % 3000;
    clprim_scan_desc d = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL,
                          CLPRIM_REPRO_PORTABLE};
    const clprim_reduce_desc rd = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL,
                                   CLPRIM_REPRO_PORTABLE};
    unsigned long long n0 = n;
    cl_float *x = malloc(3000 * sizeof *x), value;
    char needle[160];
    int bad = 0;
    cl_mem in;
    clprim_status st;
    if (size == 1) {
        free(x);
        return 0; /* one rank's part is always the last */
    }
    clprim_ref_fill(CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, x, 3000, s);
    MPI_Bcast(&n0, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    snprintf(needle, sizeof needle, "desc->repro portable: rank 0's n = %llu is not a multiple",
             n0);
    in = device_copy(x, n * sizeof *x);
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &d, in, 0, in, 0, n);
    if (tu_refused(ctx, st, CLPRIM_UNSUPPORTED, needle) != 0)
        bad += report(st, "portable: a split off the tiles (scan)");
    st = clprim_mpi_reduce(MPI_COMM_WORLD, ctx, &rd, in, 0, n, &value);
    if (tu_refused(ctx, st, CLPRIM_UNSUPPORTED, needle) != 0)
        bad += report(st, "portable: a split off the tiles (reduce)");
    if (rank == size - 1)
        d.repro = CLPRIM_REPRO_RUN_TO_RUN;
    st = clprim_mpi_scan(MPI_COMM_WORLD, ctx, &d, in, 0, in, 0, rank == 0 ? 0 : n);
    if (st != CLPRIM_INVALID_ARGUMENT)
        bad += report(st, "ranks with different desc->repro were not refused");
    clReleaseMemObject(in);
    free(x);
    return bad;
}

/* clprim_mpi_sort (issue 35): the whole array (the same on every rank)
 * from one of the pools below, this rank's part sorted across the ranks
 * into poisoned outputs (in place every third case), checked against the
 * host's stable sort of the whole array: keys, and values holding each
 * key's index in the whole array (which also checks stability across
 * ranks). */
enum { RANDOM, ONE_KEY, FEW_KEYS, ASCENDING, DESCENDING, SORT_POOLS };

static uint64_t sort_key(int pool, size_t i, size_t total, uint64_t few, uint64_t *s)
{
    switch (pool) {
    case ONE_KEY: return few;
    case FEW_KEYS: return few + tu_rand(s) % 5;
    case ASCENDING: return (uint64_t)i * 3;
    case DESCENDING: return (uint64_t)(total - i) * 3;
    default: return tu_rand(s);
    }
}

static int sort_case(clprim_type type, int pool, int descending, size_t vs, unsigned begin_bit,
                     unsigned end_bit, int in_place, uint64_t *s)
{
    const size_t ks = clprim_type_size(type), total = tu_rand(s) % 120000;
    const uint64_t few = tu_rand(s);
    const clprim_sort_desc d = {type, vs, descending, begin_bit, end_bit, CLPRIM_SORT_AUTO, NULL, 0};
    unsigned char *x = malloc(total * ks + 1), *got = malloc(total * ks + 1);
    unsigned char *vgot = malloc(total * (vs ? vs : 1) + 1), *vin = malloc(total * 8 + 1);
    size_t *perm = malloc((total + 1) * sizeof *perm), start = 0, n = 0, i;
    cl_mem k, ko, v = NULL, vo = NULL;
    char what[160];
    clprim_status st;
    int bad = 0;

    for (i = 0; i < total; ++i) {
        const uint64_t key = sort_key(pool, i, total, few, s), idx = i;
        memcpy(x + i * ks, &key, ks);
        memcpy(vin + i * vs, &idx, vs);
    }
    cut(s, total, &start, &n);
    snprintf(what, sizeof what, "sort %s pool %d %s values %zu bits [%u, %u)%s of %zu",
             clprim_type_name(type), pool, descending ? "descending" : "ascending", vs, begin_bit,
             end_bit, in_place ? " in place" : "", total);
    k = device_copy(x + start * ks, n * ks);
    memset(got, POISON, total * ks + 1);
    memset(vgot, POISON, total * (vs ? vs : 1) + 1);
    ko = in_place ? k : device_copy(got, n * ks);
    if (vs) {
        v = device_copy(vin + start * vs, n * vs);
        vo = in_place ? v : device_copy(vgot, n * vs);
    }
    st = clprim_mpi_sort(MPI_COMM_WORLD, ctx, &d, k, 0, ko, 0, v, 0, vo, 0, n);
    if (st != CLPRIM_SUCCESS) {
        bad = report(st, what);
    } else {
        read_back(ko, n * ks, got);
        if (vs)
            read_back(vo, n * vs, vgot);
        /* (the reference takes the whole key's bits as [0, width)) */
        clprim_ref_sort(type, descending, begin_bit, end_bit ? end_bit : (unsigned)ks * 8, x,
                        total, perm);
        if ((i = clprim_ref_permuted_check(x, perm + start, ks, got, n)) != n) {
            uint64_t want = 0, have = 0;
            memcpy(&want, x + perm[start + i] * ks, ks);
            memcpy(&have, got + i * ks, ks);
            printf("FAIL rank %d/%d: %s: key %zu of its %zu is %llx, the host's %llx (seed "
                   "%llu)\n", rank, size, what, i, n, (unsigned long long)have,
                   (unsigned long long)want, (unsigned long long)seed);
            bad = 1;
        }
        for (i = 0; i < n && vs && !bad; ++i) {
            uint64_t idx = 0;
            memcpy(&idx, vgot + i * vs, vs);
            if (idx != (uint64_t)perm[start + i]) {
                printf("FAIL rank %d/%d: %s: value %zu of its %zu is %llu, the host's %zu (seed "
                       "%llu)\n", rank, size, what, i, n, (unsigned long long)idx,
                       perm[start + i], (unsigned long long)seed);
                bad = 1;
            }
        }
    }
    clReleaseMemObject(k);
    if (!in_place)
        clReleaseMemObject(ko);
    if (vs) {
        clReleaseMemObject(v);
        if (!in_place)
            clReleaseMemObject(vo);
    }
    free(x);
    free(got);
    free(vgot);
    free(vin);
    free(perm);
    return bad;
}

/* Every key type x pool, ascending and descending, with 4- or 8-byte
 * values (the index) or none, a bit range; then ranks that disagree on
 * the descriptor, and a rank with a bad argument. */
static int sort_cases(uint64_t *s)
{
    static const clprim_type types[] = {CLPRIM_TYPE_UINT32, CLPRIM_TYPE_INT32, CLPRIM_TYPE_FLOAT,
                                        CLPRIM_TYPE_UINT64, CLPRIM_TYPE_INT64, CLPRIM_TYPE_DOUBLE};
    const clprim_sort_desc d = {CLPRIM_TYPE_UINT32, 0, 0, 0, 0, CLPRIM_SORT_AUTO, NULL, 0};
    clprim_sort_desc other = d;
    size_t t, p, c = 0;
    int bad = 0;
    cl_mem m = device_copy(NULL, 0);
    clprim_status st;
    for (t = 0; t < sizeof types / sizeof *types; ++t)
        for (p = 0; p < SORT_POOLS; ++p, ++c)
            bad += sort_case(types[t], (int)p, (int)(c % 2), c % 3 == 0 ? 0 : c % 3 == 1 ? 4 : 8, 0,
                             0, c % 3 == 2, s);
    bad += sort_case(CLPRIM_TYPE_UINT32, RANDOM, 0, 4, 8, 20, 0, s);
    bad += sort_case(CLPRIM_TYPE_DOUBLE, RANDOM, 1, 8, 50, 64, 1, s);
    /* many pieces through the slots (reused), rank 0's size taken by all:
     * through messages (rank 0's choice), then the shared window */
    setenv("CLPRIM_MPI_PIECE_BYTES", rank == 0 ? "200" : "1000000", 1);
    setenv("CLPRIM_MPI_SHARED", rank == 0 ? "0" : "1", 1);
    bad += sort_case(CLPRIM_TYPE_UINT64, RANDOM, 0, 8, 0, 0, 0, s);
    bad += sort_case(CLPRIM_TYPE_INT32, FEW_KEYS, 1, 4, 0, 0, 1, s);
    unsetenv("CLPRIM_MPI_SHARED");
    bad += sort_case(CLPRIM_TYPE_FLOAT, FEW_KEYS, 1, 4, 0, 0, 1, s);
    bad += sort_case(CLPRIM_TYPE_UINT32, RANDOM, 0, 0, 0, 0, 0, s);
    unsetenv("CLPRIM_MPI_PIECE_BYTES");
    if (size > 1) {
        other.descending = rank == size - 1;
        st = clprim_mpi_sort(MPI_COMM_WORLD, ctx, &other, m, 0, m, 0, NULL, 0, NULL, 0, 0);
        if (tu_refused(ctx, st, CLPRIM_INVALID_ARGUMENT, "disagree") != 0)
            bad += report(st, "sort: ranks that disagree on the direction");
        other = d;
        other.key_type = rank == 0 ? CLPRIM_TYPE_COUNT_ : CLPRIM_TYPE_UINT32;
        st = clprim_mpi_sort(MPI_COMM_WORLD, ctx, &other, m, 0, m, 0, NULL, 0, NULL, 0, 0);
        if (tu_refused(ctx, st, rank == 0 ? CLPRIM_UNKNOWN_TYPE : CLPRIM_INVALID_ARGUMENT,
                       rank == 0 ? "key_type" : "rank 0 failed") != 0)
            bad += report(st, "sort: a rank with a bad key type");
    }
    clReleaseMemObject(m);
    return bad;
}

int main(int argc, char **argv)
{
    uint64_t s;
    int bad = 0, all = 0, t, op, local;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    seed = tu_seed();
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (clprim_context_create(NULL, &ctx) != CLPRIM_SUCCESS) {
        printf("rank %d: no clprim context\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    local = clprim_mpi_local_rank(MPI_COMM_WORLD); /* collective: every rank */
    if (rank == 0)
        printf("# %d ranks, local rank %d, seed %llu\n", size, local, (unsigned long long)seed);
    s = seed;
    for (t = 0; t < CLPRIM_TYPE_COUNT_; ++t) {
        clprim_device_info info;
        clprim_context_device_info(ctx, &info);
        if (t == CLPRIM_TYPE_DOUBLE && !info.has_fp64)
            continue;
        bad += builtin_case((clprim_type)t, CLPRIM_OP_SUM, t & 1, &s);
    }
    for (op = 0; op < CLPRIM_OP_COUNT_; ++op)
        bad += builtin_case(CLPRIM_TYPE_INT32, (clprim_op)op, op & 1, &s);
    bad += builtin_case(CLPRIM_TYPE_FLOAT, CLPRIM_OP_MIN, 0, &s);
    bad += builtin_case(CLPRIM_TYPE_FLOAT, CLPRIM_OP_MAX, 1, &s);
    bad += custom_case(0, &s);
    bad += custom_case(1, &s);
    bad += select_case(&s);
    bad += select_case(&s);
    bad += index_case(&s);
    bad += errors_case();
    for (t = 0; t < 2; ++t) {
        clprim_device_info info;
        clprim_context_device_info(ctx, &info);
        bad += portable_builtin(CLPRIM_TYPE_FLOAT, portable_total(&s), t, &s);
        if (info.has_fp64)
            bad += portable_builtin(CLPRIM_TYPE_DOUBLE, portable_total(&s), t, &s);
        bad += portable_other(t, &s);
    }
    /* tile totals past one tile of their own (a level more) */
    bad += portable_builtin(CLPRIM_TYPE_FLOAT, 1100 * CLPRIM_PORTABLE_TILE + tu_rand(&s) % 5000, 0,
                            &s);
    bad += portable_refused(&s);
    bad += sort_cases(&s);
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %d ranks, %d failures\n", all ? "FAIL" : "PASS", size, all);
    clprim_context_release(ctx);
    MPI_Finalize();
    return all != 0;
}

/* SPDX-License-Identifier: MIT */
/* clprim-bench --sat KIND: times summed-area tables and box filters of
 * square images (sides given by --sat-sides, default 1024, 4096, 16384)
 * against the copy ceiling measured in the same run, for every algorithm;
 * every table is checked against the host reference (tests/reference/).
 *
 * KIND: int32 (int32 -> int32 sums), float (float -> float), uint8
 * (uint8 pixels -> uint32 sums), box (the mean over a 9 x 9 window of a
 * uint32 exclusive table, written as float).
 *
 * GB/s counts the bytes the call must move: the image read once and the
 * table written once (the box: the table read once and the floats written
 * once). "ratio" is that rate over clEnqueueCopyBuffer's (bytes read +
 * written) of a copy of the table's bytes. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_INT32, K_FLOAT, K_UINT8, K_BOX };
static const char *const kinds[] = {"int32", "float", "uint8", "box"};

typedef struct sat_bench {
    int kind;
    clprim_sat_algorithm algorithm;
    size_t side;
    cl_mem table; /* box: its exclusive table */
    unsigned char *img;
    uint64_t seed;
} sat_bench;

static int sat_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const sat_bench *c = arg;
    const size_t n = c->side;
    clprim_status st;
    if (c->kind == K_BOX) {
        const clprim_box_desc d = {CLPRIM_TYPE_UINT32, 0, CLPRIM_PIXEL_SAME, 4, 4, 0};
        st = clprim_box_filter(b->ctx, NULL, &d, c->table, 0, n + 1, b->out, 0, n, n, n, 0, NULL,
                               ev);
    } else {
        const clprim_sat_desc d = {c->kind == K_FLOAT   ? CLPRIM_TYPE_FLOAT
                                   : c->kind == K_UINT8 ? CLPRIM_TYPE_UINT32
                                                        : CLPRIM_TYPE_INT32,
                                   CLPRIM_OP_SUM, NULL,
                                   c->kind == K_UINT8 ? CLPRIM_PIXEL_UINT8 : CLPRIM_PIXEL_SAME, 0,
                                   c->algorithm, CLPRIM_REPRO_NONE};
        st = clprim_sat(b->ctx, NULL, &d, b->in, 0, n, b->out, 0, n, n, n, 0, NULL, ev);
    }
    return st == CLPRIM_SUCCESS;
}

/* room for the largest table (and the box's exclusive one) */
static int sat_open(bench *b, void *self, size_t max_side)
{
    sat_bench *c = self;
    cl_context cl = clprim_context_cl_context(b->ctx);
    cl_int err;
    clReleaseMemObject(b->in);
    clReleaseMemObject(b->out);
    b->in = clCreateBuffer(cl, CL_MEM_READ_WRITE, (max_side + 1) * (max_side + 1) * 4, NULL, &err);
    b->out = clCreateBuffer(cl, CL_MEM_READ_WRITE, (max_side + 1) * (max_side + 1) * 4, NULL, &err);
    c->img = bench_alloc(b, max_side * max_side * 4);
    return b->in && b->out ? 0 : -1;
}

static void sat_head(void *self)
{
    const sat_bench *c = self;
    printf("# %s; GB/s = bytes the call must move / median device time; ratio: over "
           "clEnqueueCopyBuffer of the table's bytes\n",
           kinds[c->kind]);
    printf("%-7s %-20s %10s %9s %9s %7s %7s %s\n", "side", "algorithm", "device_us", "GB/s",
           "copy GB/s", "ratio", "batched", "ok");
}

static int sat_prepare(bench *b, void *self, bench_point *p)
{
    sat_bench *c = self;
    const int kind = c->kind;
    const size_t side = p->n, n = side * side, pixel = kind == K_UINT8 ? 1 : 4;
    unsigned char *img = c->img;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t r = clprim_ref_rand(&c->seed);
        if (kind == K_UINT8 || kind == K_BOX)
            img[i] = (unsigned char)r;
        else if (kind == K_FLOAT)
            ((cl_float *)img)[i] = (cl_float)((double)(r >> 40) / (1 << 24) - 0.5);
        else
            ((cl_int *)img)[i] = (cl_int)r;
    }
    clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, n * pixel, img, 0, NULL, NULL);
    if (kind == K_BOX) {
        const clprim_sat_desc d = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, NULL, CLPRIM_PIXEL_UINT8, 1,
                                   CLPRIM_SAT_AUTO, CLPRIM_REPRO_NONE};
        cl_int err;
        /* the table from the image, then the image out of the way */
        cl_mem t = clCreateBuffer(clprim_context_cl_context(b->ctx), CL_MEM_READ_WRITE,
                                  (side + 1) * (side + 1) * 4, NULL, &err);
        c->table = b->in;
        if (!t || clprim_sat(b->ctx, NULL, &d, b->in, 0, side, t, 0, side + 1, side, side, 0,
                             NULL, NULL) != CLPRIM_SUCCESS) {
            fprintf(stderr, "clprim-bench: the box's table failed\n");
            if (t)
                clReleaseMemObject(t);
            return -1;
        }
        clEnqueueCopyBuffer(b->q, t, b->in, 0, 0, (side + 1) * (side + 1) * 4, 0, NULL, NULL);
        clFinish(b->q);
        clReleaseMemObject(t);
    }
    c->side = side;
    p->copy_bytes = n * 4; /* the table's */
    return 0;
}

/* the box: one row, box-mean-9x9; else every algorithm but auto */
static const char *sat_variant(bench *b, void *self, bench_point *p)
{
    sat_bench *c = self;
    (void)b;
    c->algorithm = (clprim_sat_algorithm)p->variant;
    return c->kind == K_BOX ? "box-mean-9x9" : clprim_sat_algorithm_name(c->algorithm);
}

/* Checks the device's table (int32 / float / uint32 of uint8) against the
 * reference; for the box, a sample of pixels against direct window sums. */
static size_t sat_check(bench *b, void *self, bench_point *p)
{
    const sat_bench *c = self;
    const unsigned char *img = c->img;
    const size_t side = c->side, n = side * side;
    size_t bad = 0;
    p->moved = c->kind == K_BOX ? (double)(side + 1) * (side + 1) * 4 + (double)n * 4
                                : (double)n * (c->kind == K_UINT8 ? 1 : 4) + (double)(n * 4);
    if (c->kind == K_BOX) {
        float *got = malloc(n * sizeof *got);
        if (!got)
            return 1;
        clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, n * 4, got, 0, NULL, NULL);
        for (size_t k = 0; k < 1000; ++k) {
            const size_t x = (k * 7919) % side, y = (k * 104729) % side;
            const size_t x1 = x > 4 ? x - 4 : 0, x2 = x + 5 < side ? x + 5 : side;
            const size_t y1 = y > 4 ? y - 4 : 0, y2 = y + 5 < side ? y + 5 : side;
            double sum = 0;
            for (size_t j = y1; j < y2; ++j)
                for (size_t i = x1; i < x2; ++i)
                    sum += img[j * side + i];
            sum /= (double)((x2 - x1) * (y2 - y1));
            bad += fabs(got[y * side + x] - sum) > 1e-4 * sum + 1e-4;
        }
        free(got);
        return bad;
    }
    {
        void *got = malloc(n * 4), *x = malloc(n * 4);
        if (!got || !x) {
            free(got);
            free(x);
            return 1;
        }
        clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, n * 4, got, 0, NULL, NULL);
        if (c->kind == K_UINT8)
            for (size_t i = 0; i < n; ++i)
                ((cl_uint *)x)[i] = img[i];
        else
            memcpy(x, img, n * 4);
        bad = clprim_ref_sat_check(c->kind == K_FLOAT   ? CLPRIM_TYPE_FLOAT
                                   : c->kind == K_UINT8 ? CLPRIM_TYPE_UINT32
                                                        : CLPRIM_TYPE_INT32,
                                   CLPRIM_OP_SUM, x, got, side, side, side, stderr, "sat");
        free(got);
        free(x);
        return bad;
    }
}

static void sat_row(void *self, const bench_point *p, FILE *csv)
{
    const sat_bench *c = self;
    printf("%-7zu %-20s %10.1f %9.1f %9.1f %7.3f %7.3f %s\n", p->n, p->name, p->dev_us, p->gbs,
           p->copy_gbs, p->gbs / p->copy_gbs, p->batch_gbs / p->copy_batch_gbs,
           p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "%s,%s,%zu,%.2f,%.2f,%.2f,%.4f,%.0f,%d,%.2f,%.2f,%.4f\n", kinds[c->kind],
                p->name, p->n, p->dev_us, p->gbs, p->copy_gbs, p->gbs / p->copy_gbs, p->moved,
                !p->bad, p->batch_us, p->copy_batch_gbs, p->batch_gbs / p->copy_batch_gbs);
}

int clprim_bench_sat(bench *b, const char *kind_name, const size_t *sides, size_t count,
                     const char *csv_path, int progress)
{
    sat_bench c;
    bench_module m;
    memset(&c, 0, sizeof c);
    if ((c.kind = name_index(kinds, (int)(sizeof kinds / sizeof kinds[0]), kind_name)) < 0) {
        fprintf(stderr, "clprim-bench: --sat takes int32, float, uint8 or box\n");
        return 2;
    }
    c.seed = 0x13198A2E03707344ull;
    m = (bench_module){
        BENCH_PARTS(sat), .self = &c, .unit = NULL /* sides */, .n_width = 7, .name_width = 20,
        .variant_begin = c.kind == K_BOX ? 0 : 1,
        .variant_end = c.kind == K_BOX ? 1 : CLPRIM_SAT_ALGORITHM_COUNT_, .batched = 1,
        .wrong_status = 3,
        .csv_columns = "kind,algorithm,side,device_us,gbs,copy_gbs,ratio_to_copy,bytes_moved,"
                       "verified,batch_us,copy_batch_gbs,ratio_to_copy_batch"};
    return bench_run(b, &m, sides, count, csv_path, progress);
}

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

typedef struct sat_call {
    int kind;
    clprim_sat_algorithm algorithm;
    size_t side;
    cl_mem table; /* box: its exclusive table */
} sat_call;

static int enqueue_sat(bench *b, const void *arg, cl_event *ev)
{
    const sat_call *c = arg;
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
                                   c->algorithm};
        st = clprim_sat(b->ctx, NULL, &d, b->in, 0, n, b->out, 0, n, n, n, 0, NULL, ev);
    }
    return st == CLPRIM_SUCCESS;
}

/* Checks the device's table (int32 / float / uint32 of uint8) against the
 * reference; for the box, a sample of pixels against direct window sums. */
static size_t verify(bench *b, const sat_call *c, const unsigned char *img, size_t side)
{
    const size_t n = side * side;
    size_t bad = 0;
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

int clprim_bench_sat(bench *b, const char *kind_name, const size_t *sides, size_t count,
                     const char *csv_path, int progress)
{
    cl_context cl = clprim_context_cl_context(b->ctx);
    size_t max_side = 0, s;
    int kind = -1, k, rc = 1;
    unsigned char *img = NULL;
    uint64_t seed = 0x13198A2E03707344ull;
    clprim_device_info info;
    FILE *csv = NULL;
    cl_int err;
    sat_call c;

    for (k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); ++k)
        if (!strcmp(kind_name, kinds[k]))
            kind = k;
    if (kind < 0) {
        fprintf(stderr, "clprim-bench: --sat takes int32, float, uint8 or box\n");
        return 2;
    }
    for (s = 0; s < count; ++s)
        max_side = sides[s] > max_side ? sides[s] : max_side;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    /* room for the largest table (and the box's exclusive one) */
    clReleaseMemObject(b->in);
    clReleaseMemObject(b->out);
    b->in = clCreateBuffer(cl, CL_MEM_READ_WRITE, (max_side + 1) * (max_side + 1) * 4, NULL, &err);
    b->out = clCreateBuffer(cl, CL_MEM_READ_WRITE, (max_side + 1) * (max_side + 1) * 4, NULL, &err);
    img = malloc(max_side * max_side * 4);
    if (!b->in || !b->out || !img) {
        fprintf(stderr, "clprim-bench: cannot allocate %zu x %zu\n", max_side, max_side);
        goto done;
    }
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "clprim-bench: cannot write %s\n", csv_path);
        goto done;
    }
    clprim_context_device_info(b->ctx, &info);
    if (csv)
        fprintf(csv, "device,driver,kind,algorithm,side,device_us,gbs,copy_gbs,ratio_to_copy,"
                     "bytes_moved,verified,batch_us,copy_batch_gbs,ratio_to_copy_batch\n");
    printf("# %s / %s, driver %s\n# %s; GB/s = bytes the call must move / median device time; "
           "ratio: over clEnqueueCopyBuffer of the table's bytes\n",
           info.platform_name, info.device_name, info.driver_version, kinds[kind]);
    printf("%-7s %-20s %10s %9s %9s %7s %7s %s\n", "side", "algorithm", "device_us", "GB/s",
           "copy GB/s", "ratio", "batched", "ok");
    for (s = 0; s < count; ++s) {
        const size_t side = sides[s], n = side * side;
        const size_t pixel = kind == K_UINT8 ? 1 : 4, table_bytes = n * 4;
        const double moved = kind == K_BOX ? (double)(side + 1) * (side + 1) * 4 + (double)n * 4
                                           : (double)n * pixel + (double)table_bytes;
        double copy_us, kernel_us, copy_host_us, read_us, copy_b_us, read_b_us;
        for (size_t i = 0; i < n; ++i) {
            const uint64_t r = clprim_ref_rand(&seed);
            if (kind == K_UINT8 || kind == K_BOX)
                img[i] = (unsigned char)r;
            else if (kind == K_FLOAT)
                ((cl_float *)img)[i] = (cl_float)((double)(r >> 40) / (1 << 24) - 0.5);
            else
                ((cl_int *)img)[i] = (cl_int)r;
        }
        clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, n * pixel, img, 0, NULL, NULL);
        if (kind == K_BOX) {
            const clprim_sat_desc d = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, NULL,
                                       CLPRIM_PIXEL_UINT8, 1, CLPRIM_SAT_AUTO};
            c.table = b->in;
            /* the table from the image, then the image out of the way */
            cl_mem t = clCreateBuffer(cl, CL_MEM_READ_WRITE, (side + 1) * (side + 1) * 4, NULL,
                                      &err);
            if (!t || clprim_sat(b->ctx, NULL, &d, b->in, 0, side, t, 0, side + 1, side, side, 0,
                                 NULL, NULL) != CLPRIM_SUCCESS) {
                fprintf(stderr, "clprim-bench: the box's table failed\n");
                if (t)
                    clReleaseMemObject(t);
                goto done;
            }
            clEnqueueCopyBuffer(b->q, t, b->in, 0, 0, (side + 1) * (side + 1) * 4, 0, NULL, NULL);
            clFinish(b->q);
            clReleaseMemObject(t);
        }
        time_copies(b, table_bytes, &copy_us, &kernel_us, &copy_host_us, &read_us, &copy_b_us,
                    &read_b_us);
        for (int a = kind == K_BOX ? 0 : 1; a < (kind == K_BOX ? 1 : CLPRIM_SAT_ALGORITHM_COUNT_);
             ++a) {
            double dev_us, call_b_us;
            size_t bad;
            int ok = 1;
            c.algorithm = (clprim_sat_algorithm)a;
            c.side = side;
            if (progress)
                fprintf(stderr, "\r\033[K[size %zu of %zu] %zu x %zu, %s ...", s + 1, count, side,
                        side, clprim_sat_algorithm_name(c.algorithm));
            dev_us = median_gated_us(b, enqueue_sat, &c, &ok);
            if (!ok) {
                char why[512];
                clprim_context_last_error(b->ctx, why, sizeof why);
                printf("%-7zu %-20s failed: %s\n", side, clprim_sat_algorithm_name(c.algorithm),
                       why);
                continue;
            }
            call_b_us = batch_us(b, enqueue_sat, &c);
            bad = verify(b, &c, img, side);
            {
                const double gbs = moved / dev_us / 1e3;
                const double copy_gbs = 2.0 * table_bytes / copy_us / 1e3;
                const double copy_b_gbs = 2.0 * table_bytes / copy_b_us / 1e3;
                const char *name = kind == K_BOX ? "box-mean-9x9"
                                                 : clprim_sat_algorithm_name(c.algorithm);
                printf("%-7zu %-20s %10.1f %9.1f %9.1f %7.3f %7.3f %s\n", side, name, dev_us, gbs,
                       copy_gbs, gbs / copy_gbs, moved / call_b_us / 1e3 / copy_b_gbs,
                       bad ? "WRONG" : "ok");
                if (csv)
                    fprintf(csv, "\"%s\",\"%s\",%s,%s,%zu,%.2f,%.2f,%.2f,%.4f,%.0f,%d,%.2f,%.2f,"
                                 "%.4f\n",
                            info.device_name, info.driver_version, kinds[kind], name, side,
                            dev_us, gbs, copy_gbs, gbs / copy_gbs, moved, !bad, call_b_us,
                            copy_b_gbs, moved / call_b_us / 1e3 / copy_b_gbs);
            }
            if (bad)
                rc = 3;
        }
    }
    if (progress)
        fprintf(stderr, "\r\033[K");
    if (rc != 3)
        rc = 0;
done:
    if (csv)
        fclose(csv);
    free(img);
    return rc;
}

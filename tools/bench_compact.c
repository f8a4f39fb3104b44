/* SPDX-License-Identifier: MIT */
/* clprim-bench --compact OP: times select, partition, unique or run-length
 * encoding of int32 over n, each algorithm, against the copy ceiling
 * measured in the same run, every result verified with the tests' host
 * reference.
 *
 * GB/s counts the bytes the operation must move: select reads 4n and writes
 * 4 per kept element (select-flags reads n uint8 flags more); partition
 * (and partition-reversed) reads and writes 4n; unique reads 4n and
 * writes 4 per run; run-length encoding reads 4n and writes 4 + 8 (a cl_ulong
 * length) per run. "ratio" is that rate over clEnqueueCopyBuffer's (bytes
 * read + written) of the 4n input. Select and partition keep the elements
 * below a constant, `percent` of uniform keys; unique and run-length
 * encoding get runs of 4 on average. "host/cp": the host wall clock of one
 * blocking call over that of one clEnqueueCopyBuffer of the 4n input (what
 * small n costs, launches included). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SELECT, PARTITION, UNIQUE, RLE, SELECT_FLAGS, PARTITION_REVERSED };

typedef struct compact_call {
    int op;
    const clprim_compact_desc *d;
    size_t n;
    cl_mem count, lengths;
} compact_call;

static int enqueue_compact(bench *b, const void *arg, cl_event *ev)
{
    const compact_call *c = arg;
    clprim_status st;
    switch (c->op) {
    case SELECT:
    case SELECT_FLAGS:
        st = clprim_select(b->ctx, NULL, c->d, b->in, 0, b->out, 0, c->n, c->count, 0, 0, NULL, ev);
        break;
    case PARTITION:
    case PARTITION_REVERSED:
        st = clprim_partition(b->ctx, NULL, c->d, b->in, 0, b->out, 0, c->n, c->count, 0, 0, NULL,
                              ev);
        break;
    case UNIQUE:
        st = clprim_unique(b->ctx, NULL, c->d, b->in, 0, b->out, 0, c->n, c->count, 0, 0, NULL, ev);
        break;
    default:
        st = clprim_run_length_encode(b->ctx, NULL, c->d, b->in, 0, b->out, 0, c->lengths, 0, c->n,
                                      c->count, 0, 0, NULL, ev);
        break;
    }
    return st == CLPRIM_SUCCESS;
}

/* 0 when the device's output matches the reference. */
static size_t verify(bench *b, const compact_call *c, const cl_int *x, const unsigned char *keep,
                     cl_int *want, cl_int *got, cl_ulong *lw, cl_ulong *lg, cl_ulong *bytes_out)
{
    const size_t n = c->n;
    cl_ulong count = 0, expect;
    size_t bad = 0;
    const int part = c->op == PARTITION || c->op == PARTITION_REVERSED;
    expect = part ? clprim_ref_partition(x, n, 4, keep, c->op == PARTITION_REVERSED, want)
                  : clprim_ref_select(x, n, 4, keep, want, NULL);
    clEnqueueReadBuffer(b->q, c->count, CL_TRUE, 0, 8, &count, 0, NULL, NULL);
    clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, (part ? n : expect) * 4, got, 0, NULL, NULL);
    bad += count != expect;
    bad += memcmp(got, want, (part ? n : expect) * 4) != 0;
    if (c->op == RLE) {
        clprim_ref_run_lengths(keep, n, lw);
        clEnqueueReadBuffer(b->q, c->lengths, CL_TRUE, 0, expect * 8, lg, 0, NULL, NULL);
        bad += memcmp(lg, lw, expect * 8) != 0;
    }
    *bytes_out = part ? 4 * (cl_ulong)n
                      : (c->op == RLE ? 12 : 4) * expect + (c->op == SELECT_FLAGS ? n : 0);
    return bad;
}

int clprim_bench_compact(bench *b, const char *op_name, int percent, const size_t *sizes,
                         size_t count, const char *algos, const char *csv_path, int progress)
{
    static const char *const names[] = {"select", "partition", "unique", "rle", "select-flags",
                                        "partition-reversed"};
    int op = -1, k;
    cl_mem flags = NULL;
    size_t max_n = 0, s;
    cl_int value = percent * 100, err;
    cl_int *x, *want, *got;
    cl_ulong *lw, *lg;
    unsigned char *keep;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    clprim_device_info info;
    FILE *csv = NULL;
    compact_call c = {0, NULL, 0, NULL, NULL};
    int a;

    for (k = 0; k < (int)(sizeof names / sizeof names[0]); ++k)
        if (!strcmp(op_name, names[k]))
            op = k;
    if (op < 0) {
        fprintf(stderr, "clprim-bench: --compact takes select, select-flags, partition, "
                        "partition-reversed, unique or rle\n");
        return 2;
    }
    c.op = op;
    for (s = 0; s < count; ++s)
        max_n = sizes[s] > max_n ? sizes[s] : max_n;
    if (op == SELECT_FLAGS)
        flags = clCreateBuffer(clprim_context_cl_context(b->ctx), CL_MEM_READ_ONLY, max_n, NULL, &err);
    x = malloc(max_n * 4);
    want = malloc(max_n * 4);
    got = malloc(max_n * 4);
    keep = malloc(max_n + 1);
    lw = malloc(max_n * 8 + 8);
    lg = malloc(max_n * 8 + 8);
    c.count = clCreateBuffer(clprim_context_cl_context(b->ctx), CL_MEM_READ_WRITE, 8, NULL, &err);
    c.lengths = clCreateBuffer(clprim_context_cl_context(b->ctx), CL_MEM_READ_WRITE,
                               op == RLE ? max_n * 8 : 8, NULL, &err);
    if (!x || !want || !got || !keep || !lw || !lg || !c.count || !c.lengths) {
        fprintf(stderr, "clprim-bench: cannot allocate %zu elements\n", max_n);
        return 1;
    }
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "clprim-bench: cannot write %s\n", csv_path);
        return 1;
    }
    clprim_context_device_info(b->ctx, &info);
    if (csv)
        fprintf(csv, "device,driver,type,op,kept_percent,algorithm,n,device_us,host_us,gbs,"
                     "copy_gbs,ratio_to_copy,bytes_moved,verified,batch_us,copy_batch_gbs,"
                     "ratio_to_copy_batch,copy_host_us,host_vs_copy\n");
    printf("# %s / %s, driver %s\n# int32 %s%s; GB/s = bytes the operation must move / median "
           "device time; ratio: over clEnqueueCopyBuffer of the input\n",
           info.platform_name, info.device_name, info.driver_version, names[op],
           op == UNIQUE || op == RLE ? " (runs of 4 on average)" : "");
    printf("%-10s %-12s %8s %10s %10s %9s %9s %7s %7s %7s %s\n", "n", "algorithm", "kept",
           "device_us", "host_us", "GB/s", "copy GB/s", "ratio", "batched", "host/cp", "ok");
    for (s = 0; s < count; ++s) {
        const size_t n = sizes[s], bytes = n * 4;
        double copy_us, kernel_us, copy_host_us, read_us, copy_b_us, read_b_us;
        size_t i;
        for (i = 0; i < n; ++i) {
            const uint64_t r = clprim_ref_rand(&seed);
            x[i] = (op == UNIQUE || op == RLE) && i > 0 && r % 4 != 0 ? x[i - 1] : (cl_int)(r % 10000);
        }
        if (op != UNIQUE && op != RLE)
            clprim_ref_compare(CLPRIM_TYPE_INT32, CLPRIM_PREDICATE_LESS, &value, x, n, keep);
        else
            clprim_ref_heads(1, CLPRIM_TYPE_INT32, 4, x, n, keep);
        if (flags) /* the same choice as uint8 flags */
            clEnqueueWriteBuffer(b->q, flags, CL_TRUE, 0, n, keep, 0, NULL, NULL);
        clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, bytes, x, 0, NULL, NULL);
        time_copies(b, bytes, &copy_us, &kernel_us, &copy_host_us, &read_us, &copy_b_us, &read_b_us);
        for (a = 1; a < CLPRIM_COMPACT_ALGORITHM_COUNT_; ++a) {
            const char *name = clprim_compact_algorithm_name((clprim_compact_algorithm)a);
            clprim_compact_desc d;
            double dev_us, host_us, call_b_us;
            cl_ulong moved_out = 0;
            size_t bad;
            int ok = 1;
            if (strcmp(algos, "all") && !strstr(algos, name))
                continue;
            memset(&d, 0, sizeof d);
            d.type = CLPRIM_TYPE_INT32;
            d.predicate = flags ? CLPRIM_PREDICATE_FLAGS_U8 : CLPRIM_PREDICATE_LESS;
            /* the fields of another predicate, or of none, are refused */
            d.value = flags || op == UNIQUE || op == RLE ? NULL : &value;
            d.flags = flags;
            d.reverse_rejected = op == PARTITION_REVERSED;
            d.algorithm = (clprim_compact_algorithm)a;
            c.d = &d;
            c.n = n;
            if (progress)
                fprintf(stderr, "\r\033[K[size %zu of %zu] n = %zu, %s ...", s + 1, count, n, name);
            dev_us = median_gated_us(b, enqueue_compact, &c, &ok);
            host_us = median_host_us(b, enqueue_compact, &c, &ok);
            if (!ok) {
                char why[512];
                clprim_context_last_error(b->ctx, why, sizeof why);
                printf("%-10zu %-12s failed: %s\n", n, name, why);
                continue;
            }
            call_b_us = batch_us(b, enqueue_compact, &c);
            bad = verify(b, &c, x, keep, want, got, lw, lg, &moved_out);
            {
                const double moved = (double)bytes + (double)moved_out;
                const double gbs = moved / dev_us / 1e3, copy_gbs = 2.0 * bytes / copy_us / 1e3;
                const double gbs_b = moved / call_b_us / 1e3, copy_b_gbs = 2.0 * bytes / copy_b_us / 1e3;
                const double kept =
                    100.0 * (double)(moved_out - (op == SELECT_FLAGS ? n : 0)) /
                    (op == RLE ? 12 : 4) / (double)n;
                const int part = op == PARTITION || op == PARTITION_REVERSED;
                printf("%-10zu %-12s %7.1f%% %10.1f %10.1f %9.1f %9.1f %7.3f %7.3f %7.2f %s\n", n,
                       name, part ? (double)percent : kept, dev_us, host_us, gbs, copy_gbs,
                       gbs / copy_gbs, gbs_b / copy_b_gbs, host_us / copy_host_us,
                       bad ? "WRONG" : "ok");
                if (csv)
                    fprintf(csv, "\"%s\",\"%s\",int32,%s,%d,%s,%zu,%.2f,%.2f,%.2f,%.2f,%.4f,%.0f,%d,"
                                 "%.2f,%.2f,%.4f,%.2f,%.3f\n",
                            info.device_name, info.driver_version, names[op], percent, name, n,
                            dev_us, host_us, gbs, copy_gbs, gbs / copy_gbs, moved, !bad, call_b_us,
                            copy_b_gbs, gbs_b / copy_b_gbs, copy_host_us, host_us / copy_host_us);
            }
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    if (csv)
        fclose(csv);
    clReleaseMemObject(c.count);
    clReleaseMemObject(c.lengths);
    if (flags)
        clReleaseMemObject(flags);
    free(x);
    free(want);
    free(got);
    free(keep);
    free(lw);
    free(lg);
    return 0;
}

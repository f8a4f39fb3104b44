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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SELECT, PARTITION, UNIQUE, RLE, SELECT_FLAGS, PARTITION_REVERSED };

typedef struct compact_bench {
    int op, percent;
    cl_int value;    /* select and partition keep the elements below it */
    uint64_t seed;
    size_t n;
    clprim_compact_desc d;
    cl_mem flags, count, lengths; /* flags: select-flags only */
    cl_int *x, *want, *got;
    cl_ulong *lw, *lg;
    unsigned char *keep;
    cl_ulong moved_out; /* bytes written (and flags read) of the last check */
} compact_bench;

static const char *const names[] = {"select", "partition", "unique", "rle", "select-flags",
                                    "partition-reversed"};

static int compact_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const compact_bench *c = arg;
    clprim_status st;
    switch (c->op) {
    case SELECT:
    case SELECT_FLAGS:
        st = clprim_select(b->ctx, NULL, &c->d, b->in, 0, b->out, 0, c->n, c->count, 0, 0, NULL,
                           ev);
        break;
    case PARTITION:
    case PARTITION_REVERSED:
        st = clprim_partition(b->ctx, NULL, &c->d, b->in, 0, b->out, 0, c->n, c->count, 0, 0,
                              NULL, ev);
        break;
    case UNIQUE:
        st = clprim_unique(b->ctx, NULL, &c->d, b->in, 0, b->out, 0, c->n, c->count, 0, 0, NULL,
                           ev);
        break;
    default:
        st = clprim_run_length_encode(b->ctx, NULL, &c->d, b->in, 0, b->out, 0, c->lengths, 0,
                                      c->n, c->count, 0, 0, NULL, ev);
        break;
    }
    return st == CLPRIM_SUCCESS;
}

static int compact_open(bench *b, void *self, size_t max_n)
{
    compact_bench *c = self;
    if (c->op == SELECT_FLAGS)
        c->flags = bench_buffer(b, CL_MEM_READ_ONLY, max_n);
    c->count = bench_buffer(b, CL_MEM_READ_WRITE, 8);
    c->lengths = bench_buffer(b, CL_MEM_READ_WRITE, c->op == RLE ? max_n * 8 : 8);
    c->x = bench_alloc(b, max_n * 4);
    c->want = bench_alloc(b, max_n * 4);
    c->got = bench_alloc(b, max_n * 4);
    c->keep = bench_alloc(b, max_n + 1);
    c->lw = bench_alloc(b, max_n * 8 + 8); /* run lengths: the reference's, the device's */
    c->lg = bench_alloc(b, max_n * 8 + 8);
    return 0;
}

static void compact_head(void *self)
{
    const compact_bench *c = self;
    printf("# int32 %s%s; GB/s = bytes the operation must move / median device time; ratio: over "
           "clEnqueueCopyBuffer of the input\n",
           names[c->op], c->op == UNIQUE || c->op == RLE ? " (runs of 4 on average)" : "");
    printf("%-10s %-12s %8s %10s %10s %9s %9s %7s %7s %7s %s\n", "n", "algorithm", "kept",
           "device_us", "host_us", "GB/s", "copy GB/s", "ratio", "batched", "host/cp", "ok");
}

static int compact_prepare(bench *b, void *self, bench_point *p)
{
    compact_bench *c = self;
    const size_t n = p->n;
    const int op = c->op;
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint64_t r = clprim_ref_rand(&c->seed);
        c->x[i] = (op == UNIQUE || op == RLE) && i > 0 && r % 4 != 0 ? c->x[i - 1]
                                                                      : (cl_int)(r % 10000);
    }
    if (op != UNIQUE && op != RLE)
        clprim_ref_compare(CLPRIM_TYPE_INT32, CLPRIM_PREDICATE_LESS, &c->value, c->x, n, c->keep);
    else
        clprim_ref_heads(1, CLPRIM_TYPE_INT32, 4, c->x, n, c->keep);
    if (c->flags) /* the same choice as uint8 flags */
        clEnqueueWriteBuffer(b->q, c->flags, CL_TRUE, 0, n, c->keep, 0, NULL, NULL);
    clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, n * 4, c->x, 0, NULL, NULL);
    p->copy_bytes = n * 4;
    c->n = n;
    return 0;
}

static const char *compact_variant(bench *b, void *self, bench_point *p)
{
    compact_bench *c = self;
    (void)b;
    memset(&c->d, 0, sizeof c->d);
    c->d.type = CLPRIM_TYPE_INT32;
    c->d.predicate = c->flags ? CLPRIM_PREDICATE_FLAGS_U8 : CLPRIM_PREDICATE_LESS;
    /* the fields of another predicate, or of none, are refused */
    c->d.value = c->flags || c->op == UNIQUE || c->op == RLE ? NULL : &c->value;
    c->d.flags = c->flags;
    c->d.reverse_rejected = c->op == PARTITION_REVERSED;
    c->d.algorithm = (clprim_compact_algorithm)p->variant;
    return clprim_compact_algorithm_name(c->d.algorithm);
}

/* 0 when the device's output matches the reference. */
static size_t compact_check(bench *b, void *self, bench_point *p)
{
    compact_bench *c = self;
    const size_t n = c->n;
    cl_ulong count = 0, expect;
    size_t bad = 0;
    const int part = c->op == PARTITION || c->op == PARTITION_REVERSED;
    expect = part ? clprim_ref_partition(c->x, n, 4, c->keep, c->op == PARTITION_REVERSED, c->want)
                  : clprim_ref_select(c->x, n, 4, c->keep, c->want, NULL);
    clEnqueueReadBuffer(b->q, c->count, CL_TRUE, 0, 8, &count, 0, NULL, NULL);
    clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, (part ? n : expect) * 4, c->got, 0, NULL, NULL);
    bad += count != expect;
    bad += memcmp(c->got, c->want, (part ? n : expect) * 4) != 0;
    if (c->op == RLE) {
        clprim_ref_run_lengths(c->keep, n, c->lw);
        clEnqueueReadBuffer(b->q, c->lengths, CL_TRUE, 0, expect * 8, c->lg, 0, NULL, NULL);
        bad += memcmp(c->lg, c->lw, expect * 8) != 0;
    }
    c->moved_out = part ? 4 * (cl_ulong)n
                        : (c->op == RLE ? 12 : 4) * expect + (c->op == SELECT_FLAGS ? n : 0);
    p->moved = (double)p->copy_bytes + (double)c->moved_out;
    return bad;
}

static void compact_row(void *self, const bench_point *p, FILE *csv)
{
    const compact_bench *c = self;
    const int op = c->op, part = op == PARTITION || op == PARTITION_REVERSED;
    const double kept = 100.0 * (double)(c->moved_out - (op == SELECT_FLAGS ? p->n : 0)) /
                        (op == RLE ? 12 : 4) / (double)p->n;
    printf("%-10zu %-12s %7.1f%% %10.1f %10.1f %9.1f %9.1f %7.3f %7.3f %7.2f %s\n", p->n, p->name,
           part ? (double)c->percent : kept, p->dev_us, p->host_us, p->gbs, p->copy_gbs,
           p->gbs / p->copy_gbs, p->batch_gbs / p->copy_batch_gbs, p->host_us / p->copy_host_us,
           p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "int32,%s,%d,%s,%zu,%.2f,%.2f,%.2f,%.2f,%.4f,%.0f,%d,%.2f,%.2f,%.4f,%.2f,%.3f\n",
                names[op], c->percent, p->name, p->n, p->dev_us, p->host_us, p->gbs, p->copy_gbs,
                p->gbs / p->copy_gbs, p->moved, !p->bad, p->batch_us, p->copy_batch_gbs,
                p->batch_gbs / p->copy_batch_gbs, p->copy_host_us, p->host_us / p->copy_host_us);
}

int clprim_bench_compact(bench *b, const char *op_name, int percent, const size_t *sizes,
                         size_t count, const char *algos, const char *csv_path, int progress)
{
    compact_bench c;
    bench_module m;
    memset(&c, 0, sizeof c);
    if ((c.op = name_index(names, (int)(sizeof names / sizeof names[0]), op_name)) < 0) {
        fprintf(stderr, "clprim-bench: --compact takes select, select-flags, partition, "
                        "partition-reversed, unique or rle\n");
        return 2;
    }
    c.percent = percent;
    c.value = percent * 100;
    c.seed = 0x9E3779B97F4A7C15ull;
    m = (bench_module){
        BENCH_PARTS(compact), .self = &c, .unit = "elements", .n_width = 10, .name_width = 12,
        .variant_begin = 1 /* not auto */, .variant_end = CLPRIM_COMPACT_ALGORITHM_COUNT_,
        .host_clock = 1, .batched = 1, .algos = algos,
        .csv_columns = "type,op,kept_percent,algorithm,n,device_us,host_us,gbs,copy_gbs,"
                       "ratio_to_copy,bytes_moved,verified,batch_us,copy_batch_gbs,"
                       "ratio_to_copy_batch,copy_host_us,host_vs_copy"};
    return bench_run(b, &m, sizes, count, csv_path, progress);
}

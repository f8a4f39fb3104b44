/* SPDX-License-Identifier: MIT */
/* clprim-bench --sort DIST: times radix sort of keys (--type: uint32, int32,
 * float, uint64, int64, double) alone or with values of 4 or 8 bytes
 * (--values), each algorithm, against the copy ceiling measured in the same
 * run; every result verified (sorted, a permutation of the input, stable:
 * each value holds its key's input index).
 *
 * DIST: uniform (random over all bits), few (16 distinct keys), sorted, or
 * narrow (float keys as CUB's benchmarks make them: (24 random bits - 2^23)
 * x 0.001, whose top digit takes few values).
 * Gkeys/s = n / median device time. "limit" is the fraction of the memory
 * limit of an 8-bit one-sweep sort: its bytes (one read of the keys for the
 * histogram, then per 8-bit pass a read and a write of keys and values)
 * over the device time, divided by clEnqueueCopyBuffer's rate (read +
 * write) of the n keys. host_us is the wall clock of a blocking call;
 * "vs copy" divides it by that of one blocking clEnqueueCopyBuffer of the
 * keys. "lsb_us" (uint32 keys alone): a single-threaded LSB radix sort in C
 * (four 8-bit counting passes) of the same keys on the host, the baseline a
 * CPU device must beat. With --sort-segments M: clprim_segmented_sort of M equal segments
 * (offsets j * n / M), each segment checked on its own (sorted, its own
 * keys; stable through the values). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sort_bench {
    const char *dist;
    clprim_type type;
    size_t ks, value_size, n, segs;
    cl_mem offs; /* segs + 1 offsets, 64-bit */
    cl_ulong *hoffs;
    uint64_t seed;
    clprim_sort_desc d;
    cl_mem out, vals, vout; /* the keys are b->in */
    unsigned char *keys, *got, *vgot;
    cl_uint *index;
    double lsb_us; /* the host's LSB radix sort of these keys (uint32 alone; else 0) */
    uint32_t *lsb_tmp; /* its second array */
} sort_bench;

/* A single-threaded LSB radix sort of n uint32 keys (four 8-bit counting
 * passes between a and tmp; the result back in a): the host baseline. */
static void lsb_sort_u32(uint32_t *a, uint32_t *tmp, size_t n)
{
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; ++i)
            ++count[((a[i] >> shift) & 0xff) + 1];
        for (unsigned d = 0; d < 256; ++d)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; ++i)
            tmp[count[(a[i] >> shift) & 0xff]++] = a[i];
        uint32_t *t = a;
        a = tmp;
        tmp = t;
    }
}

static int sort_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const sort_bench *c = arg;
    if (c->segs) {
        const clprim_segments sg = {.kind = CLPRIM_SEGMENTS_OFFSETS,
                                    .mem = c->offs,
                                    .type = CLPRIM_TYPE_UINT64,
                                    .num_segments = c->segs};
        return clprim_segmented_sort(b->ctx, NULL, &c->d, &sg, b->in, 0, c->out, 0, c->vals, 0,
                                     c->vout, 0, c->n, 0, NULL, ev) == CLPRIM_SUCCESS;
    }
    return clprim_sort(b->ctx, NULL, &c->d, b->in, 0, c->out, 0, c->vals, 0, c->vout, 0, c->n, 0,
                       NULL, ev) == CLPRIM_SUCCESS;
}

static void fill(const char *dist, clprim_type type, unsigned char *keys, size_t n, uint64_t *s)
{
    const size_t ks = clprim_type_size(type);
    size_t i;
    for (i = 0; i < n; ++i) {
        uint64_t v = clprim_ref_rand(s);
        if (!strcmp(dist, "few"))
            v = (v % 16) * 0x0f1e2d3c4b5a6978ull;
        else if (!strcmp(dist, "narrow")) {
            const float f = (float)((long)(v & 0xffffff) - 0x800000) * 0.001f;
            uint32_t u;
            memcpy(&u, &f, 4);
            v = u;
        } else if (!strcmp(dist, "sorted"))
            v = type == CLPRIM_TYPE_FLOAT ? 0x3f800000u + i
                : type == CLPRIM_TYPE_DOUBLE ? 0x3ff0000000000000ull + i : i;
        if (type == CLPRIM_TYPE_FLOAT && (v & 0x7f800000u) == 0x7f800000u)
            v &= ~0x00800000ull; /* no NaNs or infinities among uniform floats */
        if (type == CLPRIM_TYPE_DOUBLE && (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull)
            v &= ~0x0010000000000000ull;
        memcpy(keys + i * ks, &v, ks);
    }
}

static int sort_open(bench *b, void *self, size_t max_n)
{
    sort_bench *c = self;
    const size_t ks = c->ks, value_size = c->value_size;
    c->out = bench_buffer(b, CL_MEM_READ_WRITE, max_n * ks);
    if (value_size) {
        c->vals = bench_buffer(b, CL_MEM_READ_WRITE, max_n * value_size);
        c->vout = bench_buffer(b, CL_MEM_READ_WRITE, max_n * value_size);
    }
    c->keys = bench_alloc(b, max_n * ks);
    c->got = bench_alloc(b, max_n * ks);
    c->vgot = bench_alloc(b, max_n * (value_size ? value_size : 1));
    c->index = bench_alloc(b, max_n * sizeof *c->index);
    if (c->type == CLPRIM_TYPE_UINT32 && !value_size && !c->segs)
        c->lsb_tmp = bench_alloc(b, max_n * sizeof *c->lsb_tmp);
    if (c->segs) {
        c->offs = bench_buffer(b, CL_MEM_READ_ONLY, (c->segs + 1) * sizeof(cl_ulong));
        c->hoffs = bench_alloc(b, (c->segs + 1) * sizeof(cl_ulong));
    }
    return 0;
}

static void sort_head(void *self)
{
    const sort_bench *c = self;
    printf("# sort %s keys%s, %s; limit: 8-bit one-sweep bytes / device time / copy rate\n",
           clprim_type_name(c->type),
           c->value_size == 4   ? " + 4-byte values"
           : c->value_size == 8 ? " + 8-byte values"
                                : "",
           c->dist);
    printf("%-10s %-13s %10s %10s %8s %9s %9s %7s %8s %10s %s\n", "n", "algorithm", "device_us",
           "host_us", "Gkeys/s", "GB/s", "copy GB/s", "limit", "vs copy", "lsb_us", "ok");
}

static int sort_prepare(bench *b, void *self, bench_point *p)
{
    sort_bench *c = self;
    const size_t n = p->n, value_size = c->value_size;
    size_t i;
    fill(c->dist, c->type, c->keys, n, &c->seed);
    clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, n * c->ks, c->keys, 0, NULL, NULL);
    if (value_size) {
        unsigned char *v = c->vgot;
        memset(v, 0, n * value_size);
        for (i = 0; i < n; ++i)
            memcpy(v + i * value_size, &i, 4); /* each value: its key's index */
        clEnqueueWriteBuffer(b->q, c->vals, CL_TRUE, 0, n * value_size, v, 0, NULL, NULL);
    }
    if (c->segs) {
        for (i = 0; i <= c->segs; ++i)
            c->hoffs[i] = (cl_ulong)((double)i * (double)n / (double)c->segs);
        clEnqueueWriteBuffer(b->q, c->offs, CL_TRUE, 0, (c->segs + 1) * sizeof(cl_ulong), c->hoffs,
                             0, NULL, NULL);
    }
    c->n = n;
    p->copy_bytes = n * c->ks;
    c->lsb_us = 0;
    if (c->lsb_tmp) {
        uint32_t *a = (uint32_t *)(void *)c->got, *tmp = c->lsb_tmp;
        double t0;
        memcpy(a, c->keys, n * 4);
        t0 = now_us();
        lsb_sort_u32(a, tmp, n);
        c->lsb_us = now_us() - t0;
    }
    return 0;
}

static const char *sort_variant(bench *b, void *self, bench_point *p)
{
    sort_bench *c = self;
    (void)b;
    memset(&c->d, 0, sizeof c->d);
    c->d.key_type = c->type;
    c->d.value_size = c->value_size;
    c->d.algorithm = (clprim_sort_algorithm)p->variant;
    return c->segs ? "segmented" : clprim_sort_algorithm_name(c->d.algorithm);
}

/* sorted, a permutation of the input, stable (tests/reference/) */
static size_t sort_check(bench *b, void *self, bench_point *p)
{
    sort_bench *c = self;
    const size_t n = c->n, ks = c->ks, value_size = c->value_size;
    const double passes = (double)ks;
    size_t i;
    clEnqueueReadBuffer(b->q, c->out, CL_TRUE, 0, n * ks, c->got, 0, NULL, NULL);
    if (value_size) {
        clEnqueueReadBuffer(b->q, c->vout, CL_TRUE, 0, n * value_size, c->vgot, 0, NULL, NULL);
        for (i = 0; i < n; ++i)
            memcpy(&c->index[i], c->vgot + i * value_size, 4);
    }
    /* the limit: one read of the keys, then per 8-bit pass keys and values read and written */
    p->moved = (double)n * ks + passes * 2.0 * (double)n * (ks + value_size);
    if (c->segs) { /* each segment: its own keys in order, stably (indices made local) */
        size_t j, bad = 0;
        for (j = 0; j < c->segs && !bad; ++j) {
            const size_t o = (size_t)c->hoffs[j], len = (size_t)c->hoffs[j + 1] - o;
            for (i = 0; value_size && i < len; ++i)
                c->index[o + i] -= (cl_uint)o;
            bad = clprim_ref_sorted_check(c->type, 0, c->keys + o * ks, len, c->got + o * ks,
                                          value_size ? c->index + o : NULL) != len;
        }
        return bad;
    }
    return clprim_ref_sorted_check(c->type, 0, c->keys, n, c->got, value_size ? c->index : NULL) !=
           n;
}

static void sort_row(void *self, const bench_point *p, FILE *csv)
{
    const sort_bench *c = self;
    printf("%-10zu %-13s %10.1f %10.1f %8.2f %9.1f %9.1f %7.3f %8.2f %10.1f %s\n", p->n,
           p->name, p->dev_us, p->host_us, (double)p->n / p->dev_us / 1e3, p->gbs, p->copy_gbs,
           p->gbs / p->copy_gbs, p->host_us / p->copy_host_us, c->lsb_us,
           p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "%s,%zu,%s,%s,%zu,%.2f,%.2f,%.3f,%.0f,%.2f,%.2f,%.4f,%.2f,%.3f,%d,%.1f\n",
                clprim_type_name(c->type), c->value_size, c->dist, p->name, p->n, p->dev_us,
                p->host_us, (double)p->n / p->dev_us / 1e3, p->moved, p->gbs, p->copy_gbs,
                p->gbs / p->copy_gbs, p->copy_host_us, p->host_us / p->copy_host_us, !p->bad,
                c->lsb_us);
}

int clprim_bench_sort(bench *b, const char *dist, clprim_type type, size_t value_size,
                      size_t segments, const size_t *sizes, size_t count, const char *algos,
                      const char *csv_path, int progress)
{
    sort_bench c;
    bench_module m;
    if (strcmp(dist, "uniform") && strcmp(dist, "few") && strcmp(dist, "sorted") &&
        strcmp(dist, "narrow")) {
        fprintf(stderr, "clprim-bench: --sort takes uniform, few, sorted or narrow\n");
        return 2;
    }
    if (!strcmp(dist, "narrow") && type != CLPRIM_TYPE_FLOAT) {
        fprintf(stderr, "clprim-bench: --sort narrow is for --type float\n");
        return 2;
    }
    memset(&c, 0, sizeof c);
    c.dist = dist;
    c.type = type;
    c.ks = clprim_type_size(type);
    c.value_size = value_size;
    c.segs = segments;
    c.seed = 0x5851F42D4C957F2Dull;
    if ((c.ks != 4 && c.ks != 8) || (value_size && value_size != 4 && value_size != 8)) {
        fprintf(stderr, "clprim-bench: --sort needs a 4- or 8-byte --type and --values 0, 4 or 8\n");
        return 2;
    }
    m = (bench_module){
        BENCH_PARTS(sort), .self = &c, .unit = "keys", .n_width = 10, .name_width = 13,
        /* not auto; the segmented sort has one algorithm */
        .variant_begin = segments ? 0 : 1, .variant_end = segments ? 1 : CLPRIM_SORT_ALGORITHM_COUNT_,
        .host_clock = 1, .algos = algos,
        .csv_columns = "key,value_bytes,dist,algorithm,n,device_us,host_us,gkeys,limit_bytes,gbs,"
                       "copy_gbs,limit_fraction,copy_host_us,host_vs_copy,verified,lsb_us"};
    return bench_run(b, &m, sizes, count, csv_path, progress);
}

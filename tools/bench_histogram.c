/* SPDX-License-Identifier: MIT */
/* clprim-bench --histogram uint8|float|uint32: times clprim_histogram of n
 * samples, each algorithm (global, private: in slices of the bins where
 * its counters pass local memory), against the read ceiling measured in the same run; every result
 * verified against the host reference (tests/reference/).
 *
 *   uint8   random bytes over 256 even bins of [0, 256) (CUB's headline
 *           case: every byte value its own bin)
 *   float   uniform in [0, 1) over 1024 even bins of [0, 1)
 *   uint32  random over 65,536 even bins of [0, 2^32)
 * or, with --keys one, every sample the same value (of bin 37% of the way
 * up: the skewed case, every atomic on one counter).
 * Counts are uint32, overwritten. A histogram reads its samples and writes
 * only its few counts, so GB/s counts the bytes read (n samples) and "of
 * read" is that over a read-only kernel's rate over the same bytes (the
 * device's read bandwidth); Gs/s is samples per second. host_us is the
 * wall clock of a blocking call. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hist_bench {
    const char *kind;
    clprim_histogram_desc d;
    size_t ss, n;
    uint64_t seed;
    int one; /* every sample the same */
    cl_mem counts; /* the samples are b->in */
    unsigned char *samples;
    uint64_t *want;
    cl_uint *got;
} hist_bench;

static int hist_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const hist_bench *c = arg;
    return clprim_histogram(b->ctx, NULL, &c->d, b->in, 0, c->n, c->counts, 0, 0, NULL, ev) ==
           CLPRIM_SUCCESS;
}

static int hist_open(bench *b, void *self, size_t max_n)
{
    hist_bench *c = self;
    c->counts = bench_buffer(b, CL_MEM_READ_WRITE, c->d.bins * 4);
    c->samples = bench_alloc(b, max_n * c->ss);
    c->want = bench_alloc(b, c->d.bins * sizeof *c->want);
    c->got = bench_alloc(b, c->d.bins * sizeof *c->got);
    return 0;
}

static void hist_head(void *self)
{
    const hist_bench *c = self;
    printf("# histogram of n %s samples%s, %zu even bins over [%g, %g), uint32 counts; GB/s: "
           "samples read\n", clprim_pixel_type_name(c->d.sample_type),
           c->one ? " (all in one bin)" : "", c->d.bins, c->d.lower, c->d.upper);
    printf("%-10s %-9s %10s %10s %8s %9s %9s %7s %s\n", "n", "algorithm", "device_us", "host_us",
           "Gs/s", "GB/s", "read GB/s", "of read", "ok");
}

/* n random samples of the mode, written to b->in, and their counts by the
 * host reference (once per size, for every algorithm) */
static int hist_prepare(bench *b, void *self, bench_point *p)
{
    hist_bench *c = self;
    size_t i;
    c->n = p->n;
    p->copy_bytes = c->n * c->ss;
    for (i = 0; i < c->n; ++i) {
        const uint64_t r = c->one ? 0x5eb851eb851eb851ull : clprim_ref_rand(&c->seed);
        const float f = (float)(r >> 40) / 16777216.0f; /* 24 random bits: [0, 1) */
        memcpy(c->samples + i * c->ss, c->d.sample_type == CLPRIM_PIXEL_FLOAT ? (const void *)&f
                                                                              : (const void *)&r,
               c->ss);
    }
    memset(c->want, 0, c->d.bins * sizeof *c->want);
    clprim_ref_histogram(c->d.sample_type, c->d.bins, c->d.lower, c->d.upper, NULL, c->samples,
                         c->n, c->want);
    if (clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, c->n * c->ss, c->samples, 0, NULL, NULL) !=
        CL_SUCCESS) {
        fprintf(stderr, "clprim-bench: writing %zu samples failed\n", c->n);
        return -1;
    }
    return 0;
}

static const char *hist_variant(bench *b, void *self, bench_point *p)
{
    hist_bench *c = self;
    (void)b;
    c->d.algorithm = (clprim_histogram_algorithm)p->variant;
    return clprim_histogram_algorithm_name(c->d.algorithm);
}

static size_t hist_check(bench *b, void *self, bench_point *p)
{
    hist_bench *c = self;
    size_t i, bad = 0;
    clEnqueueReadBuffer(b->q, c->counts, CL_TRUE, 0, c->d.bins * 4, c->got, 0, NULL, NULL);
    p->moved = (double)c->n * (double)c->ss;
    for (i = 0; i < c->d.bins; ++i)
        bad += c->got[i] != (cl_uint)c->want[i];
    return bad;
}

static void hist_row(void *self, const bench_point *p, FILE *csv)
{
    const hist_bench *c = self;
    printf("%-10zu %-9s %10.1f %10.1f %8.3f %9.1f %9.1f %7.3f %s\n", p->n, p->name, p->dev_us,
           p->host_us, (double)p->n / p->dev_us / 1e3, p->gbs, p->read_gbs,
           p->gbs / p->read_gbs, p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "%s%s,%zu,%s,%zu,%.2f,%.2f,%.4f,%.0f,%.2f,%.2f,%.4f,%d\n", c->kind, c->one ? "-one" : "", c->d.bins,
                p->name, p->n, p->dev_us, p->host_us, (double)p->n / p->dev_us / 1e3, p->moved,
                p->gbs, p->read_gbs, p->gbs / p->read_gbs, !p->bad);
}

int clprim_bench_histogram(bench *b, const char *kind, const char *dist, const size_t *sizes,
                           size_t count, const char *algos, const char *csv_path, int progress)
{
    hist_bench c;
    bench_module m;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    if (strcmp(dist, "uniform") && strcmp(dist, "one")) {
        fprintf(stderr, "clprim-bench: --histogram takes --keys uniform or one\n");
        return 2;
    }
    c.one = !strcmp(dist, "one");
    c.d.count_type = CLPRIM_TYPE_UINT32;
    if (!strcmp(kind, "uint8")) {
        c.d.sample_type = CLPRIM_PIXEL_UINT8;
        c.d.bins = 256;
        c.d.upper = 256;
    } else if (!strcmp(kind, "float")) {
        c.d.sample_type = CLPRIM_PIXEL_FLOAT;
        c.d.bins = 1024;
        c.d.upper = 1;
    } else if (!strcmp(kind, "uint32")) {
        c.d.sample_type = CLPRIM_PIXEL_UINT32;
        c.d.bins = 65536;
        c.d.upper = 4294967296.0;
    } else {
        fprintf(stderr, "clprim-bench: --histogram takes uint8, float or uint32\n");
        return 2;
    }
    c.ss = clprim_pixel_type_size(c.d.sample_type);
    c.seed = 0x9E3779B97F4A7C15ull;
    m = (bench_module){
        BENCH_PARTS(hist), .self = &c, .unit = "samples", .n_width = 10, .name_width = 9,
        .variant_begin = 1, .variant_end = CLPRIM_HISTOGRAM_ALGORITHM_COUNT_, /* not auto */
        .host_clock = 1, .algos = algos,
        .csv_columns = "samples,bins,algorithm,n,device_us,host_us,gsamples,moved_bytes,gbs,"
                       "read_gbs,read_fraction,verified"};
    return bench_run(b, &m, sizes, count, csv_path, progress);
}

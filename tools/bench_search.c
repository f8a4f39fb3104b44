/* SPDX-License-Identifier: MIT */
/* clprim-bench --search lower|upper: times clprim_lower_bound or
 * clprim_upper_bound of n queries in n sorted keys of --type (int32 by
 * default), each algorithm (binary, cached), against the copy ceiling
 * measured in the same run; every result verified (each position against
 * the keys beside it, tests/reference/).
 *
 * Keys: random over the type (integers over every bit; floats and doubles
 * converted from random integers, so no NaNs or infinities), sorted on the
 * device by clprim_sort. Queries (--queries random, the default, or
 * sorted): drawn the same way, and sorted the same way for `sorted`.
 * Positions are uint32 (uint64 from n = 2^32).
 * Gq/s = queries / median device time. GB/s counts the bytes a call must
 * move: its queries read and its positions written. The keys it reads are
 * left out, as they depend on the queries and the caches (sorted queries
 * read each key about once, random ones up to log2 n keys each from all
 * over the array); "of copy" is that rate over clEnqueueCopyBuffer's
 * (read + write) of the queries' bytes. host_us is the wall clock of a
 * blocking call, "vs copy" that over one blocking copy of the queries. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct search_bench {
    int upper, sorted;
    clprim_type type;
    size_t ks, n;
    uint64_t seed;
    clprim_search_desc d;
    cl_mem queries, out; /* the keys are b->in */
    unsigned char *keys, *hq, *got;
} search_bench;

static size_t index_bytes(const search_bench *c)
{
    return clprim_type_size(c->d.index_type);
}

static int search_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const search_bench *c = arg;
    return (c->upper ? clprim_upper_bound : clprim_lower_bound)(b->ctx, NULL, &c->d, b->in, 0,
                                                                c->n, c->queries, 0, c->n, c->out,
                                                                0, 0, NULL, ev) == CLPRIM_SUCCESS;
}

int bench_draw(bench *b, clprim_type type, cl_mem m, unsigned char *x, size_t n, int sort,
                uint64_t *s)
{
    const size_t ks = clprim_type_size(type);
    clprim_sort_desc d;
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint64_t r = clprim_ref_rand(s);
        const float f = (float)(int32_t)r;
        const double g = (double)(int64_t)r;
        memcpy(x + i * ks, type == CLPRIM_TYPE_FLOAT ? (const void *)&f
                           : type == CLPRIM_TYPE_DOUBLE ? (const void *)&g
                                                        : (const void *)&r, ks);
    }
    memset(&d, 0, sizeof d);
    d.key_type = type;
    if (clEnqueueWriteBuffer(b->q, m, CL_TRUE, 0, n * ks, x, 0, NULL, NULL) != CL_SUCCESS ||
        (sort && clprim_sort(b->ctx, b->q, &d, m, 0, m, 0, NULL, 0, NULL, 0, n, 0, NULL, NULL) !=
                     CLPRIM_SUCCESS) ||
        clEnqueueReadBuffer(b->q, m, CL_TRUE, 0, n * ks, x, 0, NULL, NULL) != CL_SUCCESS) {
        char why[512];
        clprim_context_last_error(b->ctx, why, sizeof why);
        fprintf(stderr, "clprim-bench: preparing %zu %s values failed: %s\n", n,
                clprim_type_name(type), why);
        return -1;
    }
    return 0;
}

static int search_open(bench *b, void *self, size_t max_n)
{
    search_bench *c = self;
    c->queries = bench_buffer(b, CL_MEM_READ_WRITE, max_n * c->ks);
    c->out = bench_buffer(b, CL_MEM_READ_WRITE, max_n * 8);
    c->keys = bench_alloc(b, max_n * c->ks);
    c->hq = bench_alloc(b, max_n * c->ks);
    c->got = bench_alloc(b, max_n * 8);
    return 0;
}

static void search_head(void *self)
{
    const search_bench *c = self;
    printf("# %s bound of n %s %s queries in n sorted keys; GB/s: queries read + positions "
           "written\n", c->upper ? "upper" : "lower", c->sorted ? "sorted" : "random",
           clprim_type_name(c->type));
    printf("%-10s %-9s %10s %10s %8s %9s %9s %7s %8s %s\n", "n", "algorithm", "device_us",
           "host_us", "Gq/s", "GB/s", "copy GB/s", "of copy", "vs copy", "ok");
}

static int search_prepare(bench *b, void *self, bench_point *p)
{
    search_bench *c = self;
    c->n = p->n;
    p->copy_bytes = c->n * c->ks;
    return bench_draw(b, c->type, b->in, c->keys, c->n, 1, &c->seed) ||
                   bench_draw(b, c->type, c->queries, c->hq, c->n, c->sorted, &c->seed)
               ? -1
               : 0;
}

static const char *search_variant(bench *b, void *self, bench_point *p)
{
    search_bench *c = self;
    (void)b;
    memset(&c->d, 0, sizeof c->d);
    c->d.key_type = c->type;
    c->d.index_type = (cl_ulong)c->n >> 32 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
    c->d.algorithm = (clprim_search_algorithm)p->variant;
    return clprim_search_algorithm_name(c->d.algorithm);
}

/* each position against the keys before and at it */
static size_t search_check(bench *b, void *self, bench_point *p)
{
    search_bench *c = self;
    const size_t isz = index_bytes(c);
    clEnqueueReadBuffer(b->q, c->out, CL_TRUE, 0, c->n * isz, c->got, 0, NULL, NULL);
    p->moved = (double)c->n * (double)(c->ks + isz);
    return clprim_ref_bounds_check(c->type, 0, c->upper, c->keys, c->n, c->hq, c->n, c->got, isz) !=
           c->n;
}

static void search_row(void *self, const bench_point *p, FILE *csv)
{
    const search_bench *c = self;
    printf("%-10zu %-9s %10.1f %10.1f %8.3f %9.1f %9.1f %7.3f %8.2f %s\n", p->n, p->name,
           p->dev_us, p->host_us, (double)p->n / p->dev_us / 1e3, p->gbs, p->copy_gbs,
           p->gbs / p->copy_gbs, p->host_us / p->copy_host_us, p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "%s,%s,%s,%s,%zu,%.2f,%.2f,%.4f,%.0f,%.2f,%.2f,%.4f,%.2f,%.3f,%d\n",
                c->upper ? "upper" : "lower", c->sorted ? "sorted" : "random",
                clprim_type_name(c->type), p->name, p->n, p->dev_us, p->host_us,
                (double)p->n / p->dev_us / 1e3, p->moved, p->gbs, p->copy_gbs,
                p->gbs / p->copy_gbs, p->copy_host_us, p->host_us / p->copy_host_us, !p->bad);
}

int clprim_bench_search(bench *b, const char *bound, const char *queries, clprim_type type,
                        const size_t *sizes, size_t count, const char *algos,
                        const char *csv_path, int progress)
{
    search_bench c;
    bench_module m;
    if ((strcmp(bound, "lower") && strcmp(bound, "upper")) ||
        (strcmp(queries, "sorted") && strcmp(queries, "random"))) {
        fprintf(stderr,
                "clprim-bench: --search takes lower or upper, --queries sorted or random\n");
        return 2;
    }
    memset(&c, 0, sizeof c);
    c.upper = !strcmp(bound, "upper");
    c.sorted = !strcmp(queries, "sorted");
    c.type = type;
    c.ks = clprim_type_size(type);
    c.seed = 0x5851F42D4C957F2Dull;
    m = (bench_module){
        BENCH_PARTS(search), .self = &c, .unit = "keys", .n_width = 10, .name_width = 9,
        .variant_begin = 1, .variant_end = CLPRIM_SEARCH_ALGORITHM_COUNT_, /* not auto */
        .host_clock = 1, .algos = algos,
        .csv_columns = "bound,queries,key,algorithm,n,device_us,host_us,gqueries,moved_bytes,gbs,"
                       "copy_gbs,copy_fraction,copy_host_us,host_vs_copy,verified"};
    return bench_run(b, &m, sizes, count, csv_path, progress);
}

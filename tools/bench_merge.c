/* SPDX-License-Identifier: MIT */
/* clprim-bench --merge keys|pairs: times clprim_merge of two sorted halves
 * of n keys of --type (int32 by default: n/2 + n/2, the 2^27 +
 * 2^27 at n = 2^28), keys alone or with values (--values B, 4 by default),
 * each algorithm (corank, tiled), against the copy ceiling of the same
 * bytes measured in the same run; every result checked against the host
 * reference merge (tests/reference/), keys and values.
 *
 * Keys: random over the type (bench_draw: integers over every bit, floats
 * from random integers), each half sorted on the device by clprim_sort.
 * Values: each key's input position, as bytes. GB/s counts what a call
 * must move: every key (and value) read once and written once; "of copy"
 * is that rate over clEnqueueCopyBuffer's (read + write) of the keys'
 * bytes.
 * host_us is the wall clock of a blocking call, "vs copy" that over one
 * blocking copy. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct merge_bench {
    int pairs;
    clprim_type type;
    size_t ks, vs, n, na, nb;
    uint64_t seed;
    clprim_merge_desc d;
    cl_mem ka, kb, va, vb, vout; /* keys out: b->out */
    unsigned char *hka, *hkb, *hva, *hvb, *got;
    size_t *src;
} merge_bench;

static int merge_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const merge_bench *c = arg;
    return clprim_merge(b->ctx, NULL, &c->d, c->ka, 0, c->na, c->kb, 0, c->nb,
                        c->pairs ? c->va : NULL, 0, c->pairs ? c->vb : NULL, 0, b->out, 0,
                        c->pairs ? c->vout : NULL, 0, 0, NULL, ev) == CLPRIM_SUCCESS;
}

static int merge_open(bench *b, void *self, size_t max_n)
{
    merge_bench *c = self;
    const size_t half = max_n / 2 + 1;
    c->ka = bench_buffer(b, CL_MEM_READ_WRITE, half * c->ks);
    c->kb = bench_buffer(b, CL_MEM_READ_WRITE, half * c->ks);
    c->hka = bench_alloc(b, half * c->ks);
    c->hkb = bench_alloc(b, half * c->ks);
    c->got = bench_alloc(b, max_n * (c->ks > c->vs ? c->ks : c->vs));
    c->src = bench_alloc(b, max_n * sizeof *c->src);
    if (c->pairs) {
        c->va = bench_buffer(b, CL_MEM_READ_WRITE, half * c->vs);
        c->vb = bench_buffer(b, CL_MEM_READ_WRITE, half * c->vs);
        c->vout = bench_buffer(b, CL_MEM_READ_WRITE, max_n * c->vs);
        c->hva = bench_alloc(b, half * c->vs);
        c->hvb = bench_alloc(b, half * c->vs);
    }
    return 0;
}

static void merge_head(void *self)
{
    const merge_bench *c = self;
    printf("# merge of two sorted halves of n %s keys%s; GB/s: keys%s read and written once\n",
           clprim_type_name(c->type), c->pairs ? " with values" : "",
           c->pairs ? " and values" : "");
    printf("%-10s %-7s %10s %10s %8s %9s %9s %7s %8s %s\n", "n", "algorithm", "device_us",
           "host_us", "Gkeys/s", "GB/s", "copy GB/s", "of copy", "vs copy", "ok");
}

/* values: the input position of each key, in vs bytes */
static int fill_values(bench *b, cl_mem m, unsigned char *x, size_t n, size_t vs, size_t first)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        const uint64_t v = first + i;
        size_t k;
        for (k = 0; k < vs; ++k)
            x[i * vs + k] = (unsigned char)(k < 8 ? v >> (8 * k) : k);
    }
    return n && clEnqueueWriteBuffer(b->q, m, CL_TRUE, 0, n * vs, x, 0, NULL, NULL) != CL_SUCCESS
               ? -1
               : 0;
}

static int merge_prepare(bench *b, void *self, bench_point *p)
{
    merge_bench *c = self;
    c->n = p->n;
    c->na = p->n / 2;
    c->nb = p->n - c->na;
    p->copy_bytes = c->n * c->ks; /* the ceiling's rate; b->in and b->out hold keys */
    if (bench_draw(b, c->type, c->ka, c->hka, c->na, 1, &c->seed) ||
        bench_draw(b, c->type, c->kb, c->hkb, c->nb, 1, &c->seed))
        return -1;
    if (c->pairs && (fill_values(b, c->va, c->hva, c->na, c->vs, 0) ||
                     fill_values(b, c->vb, c->hvb, c->nb, c->vs, c->na)))
        return -1;
    clprim_ref_merge(c->type, 0, c->hka, c->na, c->hkb, c->nb, c->src);
    return 0;
}

static const char *merge_variant(bench *b, void *self, bench_point *p)
{
    merge_bench *c = self;
    (void)b;
    memset(&c->d, 0, sizeof c->d);
    c->d.key_type = c->type;
    c->d.value_size = c->pairs ? c->vs : 0;
    c->d.algorithm = (clprim_merge_algorithm)p->variant;
    return clprim_merge_algorithm_name(c->d.algorithm);
}

/* keys and values against the reference merge of the halves */
static size_t merge_check(bench *b, void *self, bench_point *p)
{
    merge_bench *c = self;
    size_t bad;
    clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, c->n * c->ks, c->got, 0, NULL, NULL);
    p->moved = 2.0 * (double)c->n * (double)(c->ks + (c->pairs ? c->vs : 0));
    bad = clprim_ref_merged_check(c->hka, c->na, c->hkb, c->ks, c->src, c->got, c->n) != c->n;
    if (!bad && c->pairs) {
        clEnqueueReadBuffer(b->q, c->vout, CL_TRUE, 0, c->n * c->vs, c->got, 0, NULL, NULL);
        bad = clprim_ref_merged_check(c->hva, c->na, c->hvb, c->vs, c->src, c->got, c->n) != c->n;
    }
    return bad;
}

static void merge_row(void *self, const bench_point *p, FILE *csv)
{
    const merge_bench *c = self;
    printf("%-10zu %-7s %10.1f %10.1f %8.3f %9.1f %9.1f %7.3f %8.2f %s\n", p->n, p->name,
           p->dev_us, p->host_us, (double)p->n / p->dev_us / 1e3, p->gbs, p->copy_gbs,
           p->gbs / p->copy_gbs, p->host_us / p->copy_host_us, p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "%s,%s,%zu,%s,%zu,%.2f,%.2f,%.4f,%.0f,%.2f,%.2f,%.4f,%.2f,%.3f,%d\n",
                c->pairs ? "pairs" : "keys", clprim_type_name(c->type), c->pairs ? c->vs : 0,
                p->name, p->n, p->dev_us, p->host_us, (double)p->n / p->dev_us / 1e3, p->moved,
                p->gbs, p->copy_gbs, p->gbs / p->copy_gbs, p->copy_host_us,
                p->host_us / p->copy_host_us, !p->bad);
}

int clprim_bench_merge(bench *b, const char *form, clprim_type type, size_t value_size,
                       const size_t *sizes, size_t count, const char *algos,
                       const char *csv_path, int progress)
{
    merge_bench c;
    bench_module m;
    if ((strcmp(form, "keys") && strcmp(form, "pairs")) || value_size > 64) {
        fprintf(stderr, "clprim-bench: --merge takes keys or pairs (--values 1 to 64)\n");
        return 2;
    }
    memset(&c, 0, sizeof c);
    c.pairs = !strcmp(form, "pairs");
    c.type = type;
    c.ks = clprim_type_size(type);
    c.vs = value_size ? value_size : 4;
    c.seed = 0x2545F4914F6CDD1Dull;
    m = (bench_module){
        BENCH_PARTS(merge), .self = &c, .unit = "keys", .n_width = 10, .name_width = 7,
        .variant_begin = 1, .variant_end = CLPRIM_MERGE_ALGORITHM_COUNT_, /* not auto */
        .host_clock = 1, .algos = algos,
        .csv_columns = "form,key,value_bytes,algorithm,n,device_us,host_us,gkeys,moved_bytes,gbs,"
                       "copy_gbs,copy_fraction,copy_host_us,host_vs_copy,verified"};
    return bench_run(b, &m, sizes, count, csv_path, progress);
}

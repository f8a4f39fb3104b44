/* SPDX-License-Identifier: MIT */
/* clprim-bench --top-k K[,K...]: times clprim_top_k of the K largest (or,
 * --smallest, smallest) of n keys of --type (int32 by default), each k and
 * each algorithm (sort, radix-select, sample-filter; --algorithms picks
 * among them by name), sorted output (--unsorted: not),
 * keys alone or with values of --values bytes (0, 4 or 8), against the
 * read ceiling measured in the same run; every result verified against the
 * host reference (tests/reference/: the first k of the stable sort, ties
 * lowest index first).
 *
 * Keys (--keys DIST): uniform (integers over every bit; floats and doubles
 * converted from random integers, so no NaNs or infinities, both signs),
 * unit (floats in [0, 1) from 24 random bits, doubles from 53; integers of
 * 12 random bits: a few top digits hold every key), few (16 distinct
 * keys) or sorted (ascending). Values hold their key's input index.
 * A top-k reads its n keys and writes k, so GB/s counts the keys read
 * (n sizeof(key)), and "of read" is that over a read-only kernel's rate
 * over the same bytes; "reads" is its inverse: how many reads of the
 * input the call costs (the goal: at most 3). Gkeys/s = n /
 * median device time. host_us is the wall clock of a blocking call. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KS 8
#define ALGOS (CLPRIM_TOP_K_ALGORITHM_COUNT_ - 1) /* every one but auto */

typedef struct top_k_bench {
    const char *dist;
    clprim_type type;
    size_t ks, vs, n, k, kk[MAX_KS], count;
    int largest, sorted;
    uint64_t seed;
    clprim_top_k_desc d;
    cl_mem values, out, vout; /* the keys are b->in */
    unsigned char *keys, *vals, *got, *vgot;
} top_k_bench;

static int top_k_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const top_k_bench *c = arg;
    return clprim_top_k(b->ctx, NULL, &c->d, b->in, 0, c->vs ? c->values : NULL, 0, c->n, c->k,
                        c->out, 0, c->vs ? c->vout : NULL, 0, 0, NULL, ev) == CLPRIM_SUCCESS;
}

static size_t max_k(const top_k_bench *c)
{
    size_t i, m = 0;
    for (i = 0; i < c->count; ++i)
        m = c->kk[i] > m ? c->kk[i] : m;
    return m;
}

static int top_k_open(bench *b, void *self, size_t max_n)
{
    top_k_bench *c = self;
    const size_t mk = max_k(c) < max_n ? max_k(c) : max_n;
    c->out = bench_buffer(b, CL_MEM_READ_WRITE, (mk ? mk : 1) * c->ks);
    c->keys = bench_alloc(b, max_n * c->ks);
    c->got = bench_alloc(b, (mk ? mk : 1) * c->ks);
    if (c->vs) {
        c->values = bench_buffer(b, CL_MEM_READ_WRITE, max_n * c->vs);
        c->vout = bench_buffer(b, CL_MEM_READ_WRITE, (mk ? mk : 1) * c->vs);
        c->vals = bench_alloc(b, max_n * c->vs);
        c->vgot = bench_alloc(b, (mk ? mk : 1) * c->vs);
    }
    return 0;
}

static void top_k_head(void *self)
{
    const top_k_bench *c = self;
    printf("# top-k: the k %s of n %s %s keys%s, %s; GB/s: keys read; reads: the call's time "
           "in reads of the keys\n", c->largest ? "largest" : "smallest", c->dist,
           clprim_type_name(c->type), c->vs ? (c->vs == 4 ? " with 4-byte values" :
                                               " with 8-byte values") : "",
           c->sorted ? "sorted" : "unsorted");
    printf("%-10s %-7s %-12s %10s %10s %8s %9s %9s %7s %6s %s\n", "n", "k", "algorithm",
           "device_us", "host_us", "Gkeys/s", "GB/s", "read GB/s", "of read", "reads", "ok");
}

/* n keys of the distribution into c->keys and b->in, their indices as values */
static int top_k_prepare(bench *b, void *self, bench_point *p)
{
    top_k_bench *c = self;
    size_t i;
    c->n = p->n;
    p->copy_bytes = c->n * c->ks;
    for (i = 0; i < c->n; ++i) {
        const uint64_t r = clprim_ref_rand(&c->seed);
        uint64_t bits = r;
        float f = (float)(int32_t)r;
        double g = (double)(int64_t)r;
        if (!strcmp(c->dist, "unit")) {
            f = (float)(r >> 40) / 16777216.0f;
            g = (double)(r >> 11) / 9007199254740992.0;
            bits = r >> 52;
        } else if (!strcmp(c->dist, "few")) {
            const uint64_t pick = 0x9E3779B97F4A7C15ull * (r % 16 + 1);
            f = (float)(int32_t)pick;
            g = (double)(int64_t)pick;
            bits = pick;
        } else if (!strcmp(c->dist, "sorted")) {
            f = (float)i;
            g = (double)i;
            bits = i;
        }
        memcpy(c->keys + i * c->ks, c->type == CLPRIM_TYPE_FLOAT    ? (const void *)&f
                                    : c->type == CLPRIM_TYPE_DOUBLE ? (const void *)&g
                                                                    : (const void *)&bits,
               c->ks);
        if (c->vs) {
            const uint64_t v = i;
            memcpy(c->vals + i * c->vs, &v, c->vs);
        }
    }
    if (clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, c->n * c->ks, c->keys, 0, NULL, NULL) !=
            CL_SUCCESS ||
        (c->vs && clEnqueueWriteBuffer(b->q, c->values, CL_TRUE, 0, c->n * c->vs, c->vals, 0,
                                       NULL, NULL) != CL_SUCCESS)) {
        fprintf(stderr, "clprim-bench: writing %zu keys failed\n", c->n);
        return -1;
    }
    return 0;
}

/* variant v: k number v / ALGOS, algorithm v % ALGOS + 1 (k above n: skipped) */
static const char *top_k_variant(bench *b, void *self, bench_point *p)
{
    top_k_bench *c = self;
    (void)b;
    c->k = c->kk[p->variant / ALGOS];
    if (c->k > c->n)
        return NULL;
    memset(&c->d, 0, sizeof c->d);
    c->d.key_type = c->type;
    c->d.value_size = c->vs;
    c->d.largest = c->largest;
    c->d.sorted = c->sorted;
    c->d.algorithm = (clprim_top_k_algorithm)(p->variant % ALGOS + 1);
    return clprim_top_k_algorithm_name(c->d.algorithm);
}

static size_t top_k_check(bench *b, void *self, bench_point *p)
{
    top_k_bench *c = self;
    if (c->k) {
        clEnqueueReadBuffer(b->q, c->out, CL_TRUE, 0, c->k * c->ks, c->got, 0, NULL, NULL);
        if (c->vs)
            clEnqueueReadBuffer(b->q, c->vout, CL_TRUE, 0, c->k * c->vs, c->vgot, 0, NULL, NULL);
    }
    p->moved = (double)c->n * (double)c->ks;
    return clprim_ref_top_k_check(c->type, c->largest, c->sorted, c->keys, c->vals, c->vs, c->n,
                                  c->k, c->got, c->vgot, stderr, "clprim-bench --top-k");
}

static void top_k_row(void *self, const bench_point *p, FILE *csv)
{
    const top_k_bench *c = self;
    printf("%-10zu %-7zu %-12s %10.1f %10.1f %8.3f %9.1f %9.1f %7.3f %6.2f %s\n", p->n, c->k,
           p->name, p->dev_us, p->host_us, (double)p->n / p->dev_us / 1e3, p->gbs, p->read_gbs,
           p->gbs / p->read_gbs, p->read_gbs / p->gbs, p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "%s,%s,%s,%zu,%d,%s,%zu,%zu,%.2f,%.2f,%.4f,%.0f,%.2f,%.2f,%.4f,%.3f,%d\n",
                clprim_type_name(c->type), c->dist, c->largest ? "largest" : "smallest", c->vs,
                c->sorted, p->name, p->n, c->k, p->dev_us, p->host_us,
                (double)p->n / p->dev_us / 1e3, p->moved, p->gbs, p->read_gbs,
                p->gbs / p->read_gbs, p->read_gbs / p->gbs, !p->bad);
}

int clprim_bench_top_k(bench *b, const char *ks, const char *dist, clprim_type type,
                       size_t value_size, int smallest, int unsorted, const size_t *sizes,
                       size_t count, const char *algos, const char *csv_path, int progress)
{
    top_k_bench c;
    bench_module m;
    const char *v = ks;
    char *end;
    memset(&c, 0, sizeof c);
    for (c.count = 0; *v && c.count < MAX_KS; v = *end ? end + 1 : end) {
        c.kk[c.count] = (size_t)strtoull(v, &end, 10);
        if (end == v || (*end && *end != ',')) {
            fprintf(stderr, "clprim-bench: --top-k takes k values like 16,100,1000\n");
            return 2;
        }
        ++c.count;
    }
    if (!c.count || *v || (strcmp(dist, "uniform") && strcmp(dist, "unit") &&
                           strcmp(dist, "few") && strcmp(dist, "sorted")) ||
        (value_size != 0 && value_size != 4 && value_size != 8)) {
        fprintf(stderr, "clprim-bench: --top-k takes up to %d k values like 16,100,1000, --keys "
                "uniform, unit, few or sorted, --values 0, 4 or 8\n", MAX_KS);
        return 2;
    }
    c.dist = dist;
    c.type = type;
    c.ks = clprim_type_size(type);
    c.vs = value_size;
    c.largest = !smallest;
    c.sorted = !unsorted;
    c.seed = 0x2545F4914F6CDD1Dull;
    m = (bench_module){
        BENCH_PARTS(top_k), .self = &c, .unit = "keys", .n_width = 10, .name_width = 12,
        .variant_begin = 0, .variant_end = (int)c.count * ALGOS, .host_clock = 1,
        .algos = algos,
        .csv_columns = "key,keys,which,value_size,sorted,algorithm,n,k,device_us,"
                       "host_us,gkeys,moved_bytes,gbs,read_gbs,read_fraction,reads,verified"};
    return bench_run(b, &m, sizes, count, csv_path, progress);
}

/* SPDX-License-Identifier: MIT */
/* clprim-bench's scan and reduce (--reduce): every algorithm over n, on the
 * driver (bench_driver.c); clprim-bench.c says what the columns mean. The
 * sequential column is the host reference's own loop (tests/reference/),
 * which also checks every result. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scan_bench {
    clprim_type type;
    clprim_op op;
    int exclusive, reduce;
    clprim_repro repro; /* --repro */
    size_t elem, n;
    unsigned char *host_in, *want, *got;
    uint64_t seed;
    double seq_us; /* the reference's loop over this n */
    clprim_scan_desc d;
    clprim_reduce_desc rd;
} scan_bench;

static int scan_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const scan_bench *c = arg;
    return (c->reduce ? clprim_reduce(b->ctx, NULL, &c->rd, b->in, 0, c->n, b->out, 0, 0, NULL, ev)
                      : clprim_scan(b->ctx, NULL, &c->d, b->in, 0, b->out, 0, c->n, 0, NULL,
                                    ev)) == CLPRIM_SUCCESS;
}

static int scan_open(bench *b, void *self, size_t max_n)
{
    scan_bench *c = self;
    c->host_in = bench_alloc(b, max_n * c->elem);
    c->want = bench_alloc(b, max_n * c->elem);
    c->got = bench_alloc(b, max_n * c->elem);
    return 0;
}

static void scan_head(void *self)
{
    const scan_bench *c = self;
    printf("# %s %s %s, repro %s; GB/s = %s n sizeof(T) / median device time\n",
           clprim_type_name(c->type), clprim_op_name(c->op),
           c->reduce ? "reduce" : c->exclusive ? "exclusive scan" : "inclusive scan",
           clprim_repro_name(c->repro), c->reduce ? "" : "2");
    if (c->reduce)
        printf("%-10s %-18s %10s %10s %9s %9s %7s %9s %7s %7s %s\n", "n", "algorithm",
               "device_us", "host_us", "GB/s", "read GB/s", "ratio", "copy GB/s", "of copy",
               "batched", "ok");
    else
        printf("%-10s %-18s %10s %10s %9s %9s %7s %9s %8s %7s %s\n", "n", "algorithm",
               "device_us", "host_us", "GB/s", "copy GB/s", "ratio", "seq GB/s", "host/cp",
               "batched", "ok");
}

static int scan_prepare(bench *b, void *self, bench_point *p)
{
    scan_bench *c = self;
    const size_t n = p->n, bytes = n * c->elem;
    size_t i;
    double t0;
    /* fresh random data per size: small values keep float sums meaningful */
    for (i = 0; i < bytes; ++i) {
        c->seed = c->seed * 6364136223846793005ull + 1442695040888963407ull;
        c->host_in[i] = (unsigned char)(c->seed >> 56);
    }
    if (c->type == CLPRIM_TYPE_FLOAT)
        for (i = 0; i < n; ++i)
            ((float *)(void *)c->host_in)[i] = (float)(c->host_in[i * 4] % 17) / 8.0f - 1.0f;
    if (c->type == CLPRIM_TYPE_DOUBLE)
        for (i = 0; i < n; ++i)
            ((double *)(void *)c->host_in)[i] = (double)(c->host_in[i * 8] % 17) / 8.0 - 1.0;
    clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, bytes, c->host_in, 0, NULL, NULL);
    p->copy_bytes = bytes;
    /* the sequential column: the shared host reference's loop, in the
     * type's own arithmetic */
    t0 = now_us();
    clprim_ref_scan(c->type, c->op, c->exclusive, c->host_in, c->want, n);
    c->seq_us = now_us() - t0;
    c->n = n;
    return 0;
}

static const char *scan_variant(bench *b, void *self, bench_point *p)
{
    scan_bench *c = self;
    (void)b;
    c->d = (clprim_scan_desc){c->type, c->op, c->exclusive, (clprim_scan_algorithm)p->variant,
                              NULL, NULL, c->repro};
    c->rd = (clprim_reduce_desc){c->type, c->op, (clprim_reduce_algorithm)p->variant, NULL, NULL,
                                 c->repro};
    return c->reduce ? clprim_reduce_algorithm_name(c->rd.algorithm)
                     : clprim_scan_algorithm_name(c->d.algorithm);
}

static size_t scan_check(bench *b, void *self, bench_point *p)
{
    scan_bench *c = self;
    const size_t bytes = p->n * c->elem;
    p->moved = (c->reduce ? 1.0 : 2.0) * bytes;
    if (c->reduce) {
        clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, c->elem, c->got, 0, NULL, NULL);
        return clprim_ref_reduce_check(c->type, c->op, c->host_in, p->n, c->got, NULL, p->name);
    }
    clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, bytes, c->got, 0, NULL, NULL);
    return clprim_ref_scan_check(c->type, c->op, c->exclusive, c->host_in, c->got, p->n, NULL,
                                 p->name);
}

static void scan_row(void *self, const bench_point *p, FILE *csv)
{
    const scan_bench *c = self;
    const double seq_gbs = 2.0 * (double)p->copy_bytes / c->seq_us / 1e3;
    if (c->reduce)
        printf("%-10zu %-18s %10.1f %10.1f %9.1f %9.1f %7.3f %9.1f %7.3f %7.3f %s\n", p->n, p->name,
               p->dev_us, p->host_us, p->gbs, p->read_gbs, p->gbs / p->read_gbs, p->copy_gbs,
               p->gbs / p->copy_gbs, p->batch_gbs / p->read_batch_gbs, p->bad ? "WRONG" : "ok");
    else
        printf("%-10zu %-18s %10.1f %10.1f %9.1f %9.1f %7.3f %9.2f %8.2f %7.3f %s\n", p->n, p->name,
               p->dev_us, p->host_us, p->gbs, p->copy_gbs, p->gbs / p->copy_gbs, seq_gbs,
               p->host_us / p->copy_host_us, p->batch_gbs / p->copy_batch_gbs,
               p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "%s,%s,%s,%s,%zu,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%.3f,%.2f,%.3f,%d,%.2f,%.4f,"
                     "%.2f,%.2f,%.4f,%.2f,%.4f\n",
                clprim_type_name(c->type), clprim_op_name(c->op),
                c->reduce ? "reduce" : c->exclusive ? "exclusive" : "inclusive", p->name, p->n,
                p->dev_us, p->host_us, p->gbs, p->copy_gbs, p->kernel_gbs, p->gbs / p->copy_gbs,
                seq_gbs, p->copy_host_us, p->host_us / p->copy_host_us, !p->bad, p->read_gbs,
                p->gbs / p->read_gbs, p->batch_us, p->copy_batch_gbs,
                p->batch_gbs / p->copy_batch_gbs, p->read_batch_gbs,
                p->batch_gbs / p->read_batch_gbs);
}

int clprim_bench_scan(bench *b, clprim_type type, clprim_op op, int exclusive, int reduce,
                      const size_t *sizes, size_t count, const char *algos, const char *csv_path,
                      int progress)
{
    scan_bench c = {.type = type, .op = op, .exclusive = exclusive, .reduce = reduce,
                    .repro = b->repro, .elem = clprim_type_size(type),
                    .seed = 0x243F6A8885A308D3ull};
    bench_module m;
    m = (bench_module){
        BENCH_PARTS(scan), .self = &c, .unit = "elements", .n_width = 10, .name_width = 18,
        .variant_end = reduce ? CLPRIM_REDUCE_ALGORITHM_COUNT_ : CLPRIM_SCAN_ALGORITHM_COUNT_,
        .host_clock = 1, .batched = 1, .algos = algos,
        .csv_columns = "type,op,mode,algorithm,n,device_us,host_us,gbs,copy_buffer_gbs,"
                       "copy_kernel_gbs,ratio_to_copy,seq_c_gbs,copy_host_us,host_vs_copy,verified,"
                       "read_gbs,ratio_to_read,batch_us,copy_batch_gbs,ratio_to_copy_batch,"
                       "read_batch_gbs,ratio_to_read_batch"};
    return bench_run(b, &m, sizes, count, csv_path, progress);
}

/* ---- --repeat-check (issue 33) ---- */

static uint64_t fnv1a(const unsigned char *p, size_t bytes)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < bytes; ++i)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

int clprim_bench_repeat_check(bench *b, clprim_type type, clprim_op op, int exclusive, int reduce,
                              const size_t *sizes, size_t count, const char *algos, int runs)
{
    const size_t elem = clprim_type_size(type);
    const int variants = reduce ? CLPRIM_REDUCE_ALGORITHM_COUNT_ : CLPRIM_SCAN_ALGORITHM_COUNT_;
    uint64_t seed = 0x243F6A8885A308D3ull;
    int rc = 0;
    printf("# repeat check: %s %s %s, repro %s, %d runs each; hash: FNV-1a of the result's bits\n",
           clprim_type_name(type), clprim_op_name(op),
           reduce ? "reduce" : exclusive ? "exclusive scan" : "inclusive scan",
           clprim_repro_name(b->repro), runs);
    printf("%-10s %-18s %6s %9s %16s\n", "n", "algorithm", "runs", "distinct", "first hash");
    for (size_t s = 0; s < count; ++s) {
        const size_t n = sizes[s], bytes = n * elem, out_bytes = reduce ? elem : bytes;
        unsigned char *in = malloc(bytes ? bytes : 1), *got = malloc(out_bytes ? out_bytes : 1);
        uint64_t *hashes = malloc(sizeof(uint64_t) * (size_t)(runs > 0 ? runs : 1));
        if (!in || !got || !hashes) {
            free(in);
            free(got);
            free(hashes);
            return 1;
        }
        for (size_t i = 0; i < n; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const double v = -0.7 + 2.0 * (double)(seed >> 11) / 9007199254740992.0;
            if (type == CLPRIM_TYPE_FLOAT)
                ((float *)(void *)in)[i] = (float)v;
            else if (type == CLPRIM_TYPE_DOUBLE)
                ((double *)(void *)in)[i] = v;
            else
                memcpy(in + i * elem, &seed, elem);
        }
        clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, bytes, in, 0, NULL, NULL);
        for (int a = 0; a < variants; ++a) {
            const char *name = reduce ? clprim_reduce_algorithm_name((clprim_reduce_algorithm)a)
                                      : clprim_scan_algorithm_name((clprim_scan_algorithm)a);
            const clprim_scan_desc d = {type, op, exclusive, (clprim_scan_algorithm)a, NULL, NULL,
                                        b->repro};
            const clprim_reduce_desc rd = {type, op, (clprim_reduce_algorithm)a, NULL, NULL,
                                           b->repro};
            int distinct = 0, ok = 1;
            if (algos && strcmp(algos, "all") && !listed(algos, name))
                continue;
            for (int r = 0; r < runs && ok; ++r) {
                ok = (reduce ? clprim_reduce(b->ctx, NULL, &rd, b->in, 0, n, b->out, 0, 0, NULL,
                                             NULL)
                             : clprim_scan(b->ctx, NULL, &d, b->in, 0, b->out, 0, n, 0, NULL,
                                           NULL)) == CLPRIM_SUCCESS &&
                     clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, out_bytes, got, 0, NULL,
                                         NULL) == CL_SUCCESS;
                hashes[r] = fnv1a(got, out_bytes);
                int seen = 0;
                for (int k = 0; k < r && !seen; ++k)
                    seen = hashes[k] == hashes[r];
                distinct += ok && !seen;
            }
            if (!ok) {
                char why[512];
                clprim_context_last_error(b->ctx, why, sizeof why);
                printf("%-10zu %-18s failed: %s\n", n, name, why);
                continue;
            }
            printf("%-10zu %-18s %6d %9d %016llx%s\n", n, name, runs, distinct,
                   (unsigned long long)hashes[0],
                   distinct > 1 && b->repro != CLPRIM_REPRO_NONE ? "  NOT REPRODUCIBLE" : "");
            if (distinct > 1 && b->repro != CLPRIM_REPRO_NONE)
                rc = 1;
        }
        free(in);
        free(got);
        free(hashes);
    }
    return rc;
}

/* SPDX-License-Identifier: MIT */
/* The benchmarks' driver (tools/bench.h): one run of a module over its
 * sizes. The set-up, the timing of every point (gated device time, host
 * clock, batches, the copy and read ceilings of the same run), progress,
 * a failed call's line, the CSV file and the rates are here; a module
 * (bench_scan.c, bench_compact.c, bench_segment.c, bench_sat.c,
 * bench_sort.c, bench_search.c, bench_histogram.c, bench_merge.c,
 * bench_top_k.c) gives its input, its call, its check against the host
 * reference (tests/reference/) and its row. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_HELD ((int)(sizeof ((bench *)0)->host / sizeof ((bench *)0)->host[0]))

void *bench_alloc(bench *b, size_t bytes)
{
    void *p = b->hosts < BENCH_HELD ? malloc(bytes ? bytes : 1) : NULL;
    if (p)
        b->host[b->hosts++] = p;
    else
        b->short_of_memory = 1;
    return p;
}

cl_mem bench_buffer(bench *b, cl_mem_flags flags, size_t bytes)
{
    cl_int err;
    cl_mem m = b->mems < BENCH_HELD ? clCreateBuffer(clprim_context_cl_context(b->ctx), flags,
                                                      bytes ? bytes : 1, NULL, &err)
                                    : NULL;
    if (m)
        b->mem[b->mems++] = m;
    else
        b->short_of_memory = 1;
    return m;
}

static void release_held(bench *b)
{
    while (b->hosts > 0)
        free(b->host[--b->hosts]);
    while (b->mems > 0)
        clReleaseMemObject(b->mem[--b->mems]);
    b->short_of_memory = 0;
}

/* Times p's variant; 0 when a call failed (its line printed). */
static int time_point(bench *b, const bench_module *m, bench_point *p)
{
    int ok = 1;
    p->dev_us = median_gated_us(b, m->enqueue, m->self, &ok);
    p->host_us = m->host_clock ? median_host_us(b, m->enqueue, m->self, &ok) : NAN;
    if (!ok) {
        char why[512];
        clprim_context_last_error(b->ctx, why, sizeof why);
        printf("%-*zu %-*s failed: %s\n", m->n_width, p->n, m->name_width, p->name, why);
        return 0;
    }
    p->batch_us = m->batched ? batch_us(b, m->enqueue, m->self) : NAN;
    return 1;
}

static void rates(bench_point *p)
{
    const double copied = 2.0 * (double)p->copy_bytes, read = (double)p->copy_bytes;
    p->gbs = p->moved / p->dev_us / 1e3;
    p->batch_gbs = p->moved / p->batch_us / 1e3;
    p->copy_gbs = copied / p->copy_us / 1e3;
    p->copy_batch_gbs = copied / p->copy_batch_us / 1e3;
    p->kernel_gbs = copied / p->kernel_us / 1e3;
    p->read_gbs = read / p->read_us / 1e3;
    p->read_batch_gbs = read / p->read_batch_us / 1e3;
}

int bench_run(bench *b, const bench_module *m, const size_t *sizes, size_t count,
              const char *csv_path, int progress)
{
    clprim_device_info info;
    FILE *csv = NULL;
    size_t max_n = 0, s;
    int rc = 1, wrong = 0, v;

    for (s = 0; s < count; ++s)
        max_n = sizes[s] > max_n ? sizes[s] : max_n;
    b->hosts = b->mems = b->short_of_memory = 0;
    if (m->open(b, m->self, max_n) != 0 || b->short_of_memory) {
        if (m->unit)
            fprintf(stderr, "clprim-bench: cannot allocate %zu %s\n", max_n, m->unit);
        else
            fprintf(stderr, "clprim-bench: cannot allocate %zu x %zu\n", max_n, max_n);
        goto done;
    }
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "clprim-bench: cannot write %s\n", csv_path);
        goto done;
    }
    clprim_context_device_info(b->ctx, &info);
    if (csv)
        fprintf(csv, "device,driver,%s\n", m->csv_columns);
    printf("# %s / %s, driver %s\n", info.platform_name, info.device_name, info.driver_version);
    m->head(m->self);
    for (s = 0; s < count; ++s) {
        bench_point p;
        memset(&p, 0, sizeof p);
        p.index = s;
        p.count = count;
        p.n = sizes[s];
        if (m->prepare(b, m->self, &p) != 0)
            goto done;
        time_copies(b, p.copy_bytes, &p.copy_us, &p.kernel_us, &p.copy_host_us, &p.read_us,
                    &p.copy_batch_us, &p.read_batch_us);
        for (v = m->variant_begin; v < m->variant_end; ++v) {
            p.variant = v;
            if (!(p.name = m->variant(b, m->self, &p)) ||
                (m->algos && strcmp(m->algos, "all") && !listed(m->algos, p.name)))
                continue;
            if (progress) { /* a long run shows where it is; a log or pipe gets none of it */
                if (m->unit)
                    fprintf(stderr, "\r\033[K[size %zu of %zu] n = %zu, %s ...", s + 1, count,
                            p.n, p.name);
                else
                    fprintf(stderr, "\r\033[K[size %zu of %zu] %zu x %zu, %s ...", s + 1, count,
                            p.n, p.n, p.name);
            }
            if (!time_point(b, m, &p))
                continue;
            p.moved = 0;
            p.bad = m->check(b, m->self, &p);
            wrong |= p.bad != 0;
            rates(&p);
            if (csv)
                fprintf(csv, "\"%s\",\"%s\",", info.device_name, info.driver_version);
            m->row(m->self, &p, csv);
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    rc = wrong ? m->wrong_status : 0;
done:
    if (csv)
        fclose(csv);
    if (m->close)
        m->close(m->self);
    release_held(b);
    return rc;
}

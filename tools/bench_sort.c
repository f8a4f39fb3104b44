/* SPDX-License-Identifier: MIT */
/* clprim-bench --sort DIST: times radix sort of keys (--type: uint32, int32,
 * float, uint64, int64, double) alone or with values of 4 or 8 bytes
 * (--values), each algorithm, against the copy ceiling measured in the same
 * run; every result verified (sorted, a permutation of the input, stable:
 * each value holds its key's input index).
 *
 * DIST: uniform (random over all bits), few (16 distinct keys) or sorted.
 * Gkeys/s = n / median device time. "limit" is the fraction of the memory
 * limit of an 8-bit one-sweep sort: its bytes (one read of the keys for the
 * histogram, then per 8-bit pass a read and a write of keys and values)
 * over the device time, divided by clEnqueueCopyBuffer's rate (read +
 * write) of the n keys. host_us is the wall clock of a blocking call;
 * "vs copy" divides it by that of one blocking clEnqueueCopyBuffer of the
 * keys. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sort_call {
    const clprim_sort_desc *d;
    cl_mem keys, out, vals, vout;
    size_t n;
} sort_call;

static int enqueue_sort(bench *b, const void *arg, cl_event *ev)
{
    const sort_call *c = arg;
    return clprim_sort(b->ctx, NULL, c->d, c->keys, 0, c->out, 0, c->vals, 0, c->vout, 0, c->n, 0,
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
        else if (!strcmp(dist, "sorted"))
            v = type == CLPRIM_TYPE_FLOAT ? 0x3f800000u + i
                : type == CLPRIM_TYPE_DOUBLE ? 0x3ff0000000000000ull + i : i;
        if (type == CLPRIM_TYPE_FLOAT && (v & 0x7f800000u) == 0x7f800000u)
            v &= ~0x00800000ull; /* no NaNs or infinities among uniform floats */
        if (type == CLPRIM_TYPE_DOUBLE && (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull)
            v &= ~0x0010000000000000ull;
        memcpy(keys + i * ks, &v, ks);
    }
}

int clprim_bench_sort(bench *b, const char *dist, clprim_type type, size_t value_size,
                      const size_t *sizes, size_t count, const char *algos, const char *csv_path,
                      int progress)
{
    const size_t ks = clprim_type_size(type);
    const cl_context cl = clprim_context_cl_context(b->ctx);
    size_t max_n = 0, s;
    unsigned char *keys, *got, *vgot;
    cl_uint *index;
    cl_mem out, vals = NULL, vout = NULL;
    uint64_t seed = 0x5851F42D4C957F2Dull;
    clprim_device_info info;
    FILE *csv = NULL;
    cl_int err;
    int a;

    if (strcmp(dist, "uniform") && strcmp(dist, "few") && strcmp(dist, "sorted")) {
        fprintf(stderr, "clprim-bench: --sort takes uniform, few or sorted\n");
        return 2;
    }
    if ((ks != 4 && ks != 8) || (value_size && value_size != 4 &&
                                                             value_size != 8)) {
        fprintf(stderr, "clprim-bench: --sort needs a 4- or 8-byte --type and --values 0, 4 or 8\n");
        return 2;
    }
    for (s = 0; s < count; ++s)
        max_n = sizes[s] > max_n ? sizes[s] : max_n;
    keys = malloc(max_n * ks);
    got = malloc(max_n * ks);
    vgot = malloc(max_n * (value_size ? value_size : 1));
    index = malloc(max_n * sizeof *index);
    out = clCreateBuffer(cl, CL_MEM_READ_WRITE, max_n * ks, NULL, &err);
    if (value_size) {
        vals = clCreateBuffer(cl, CL_MEM_READ_WRITE, max_n * value_size, NULL, &err);
        vout = clCreateBuffer(cl, CL_MEM_READ_WRITE, max_n * value_size, NULL, &err);
    }
    if (!keys || !got || !vgot || !index || !out || (value_size && (!vals || !vout))) {
        fprintf(stderr, "clprim-bench: cannot allocate %zu keys\n", max_n);
        return 1;
    }
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "clprim-bench: cannot write %s\n", csv_path);
        return 1;
    }
    clprim_context_device_info(b->ctx, &info);
    if (csv)
        fprintf(csv, "device,driver,key,value_bytes,dist,algorithm,n,device_us,host_us,gkeys,"
                     "limit_bytes,gbs,copy_gbs,limit_fraction,copy_host_us,host_vs_copy,verified\n");
    printf("# %s / %s, driver %s\n# sort %s keys%s, %s; limit: 8-bit one-sweep bytes / device "
           "time / copy rate\n", info.platform_name, info.device_name, info.driver_version,
           clprim_type_name(type), value_size == 4 ? " + 4-byte values" : value_size == 8 ?
           " + 8-byte values" : "", dist);
    printf("%-10s %-13s %10s %10s %8s %9s %9s %7s %8s %s\n", "n", "algorithm", "device_us",
           "host_us", "Gkeys/s", "GB/s", "copy GB/s", "limit", "vs copy", "ok");
    for (s = 0; s < count; ++s) {
        const size_t n = sizes[s];
        double copy_us, kernel_us, copy_host_us, read_us, copy_b_us, read_b_us;
        size_t i;
        fill(dist, type, keys, n, &seed);
        clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, n * ks, keys, 0, NULL, NULL);
        if (value_size) {
            unsigned char *v = vgot;
            memset(v, 0, n * value_size);
            for (i = 0; i < n; ++i)
                memcpy(v + i * value_size, &i, 4); /* each value: its key's index */
            clEnqueueWriteBuffer(b->q, vals, CL_TRUE, 0, n * value_size, v, 0, NULL, NULL);
        }
        time_copies(b, n * ks, &copy_us, &kernel_us, &copy_host_us, &read_us,
                    &copy_b_us, &read_b_us);
        for (a = 1; a < CLPRIM_SORT_ALGORITHM_COUNT_; ++a) {
            const char *name = clprim_sort_algorithm_name((clprim_sort_algorithm)a);
            const double passes = (double)ks;
            clprim_sort_desc d;
            sort_call c;
            double dev_us, host_us;
            size_t bad;
            int ok = 1;
            if (strcmp(algos, "all") && !strstr(algos, name))
                continue;
            memset(&d, 0, sizeof d);
            d.key_type = type;
            d.value_size = value_size;
            d.algorithm = (clprim_sort_algorithm)a;
            c.d = &d;
            c.keys = b->in;
            c.out = out;
            c.vals = vals;
            c.vout = vout;
            c.n = n;
            if (progress)
                fprintf(stderr, "\r\033[K[size %zu of %zu] n = %zu, %s ...", s + 1, count, n, name);
            dev_us = median_gated_us(b, enqueue_sort, &c, &ok);
            host_us = median_host_us(b, enqueue_sort, &c, &ok);
            if (!ok) {
                char why[512];
                clprim_context_last_error(b->ctx, why, sizeof why);
                printf("%-10zu %-13s failed: %s\n", n, name, why);
                continue;
            }
            clEnqueueReadBuffer(b->q, out, CL_TRUE, 0, n * ks, got, 0, NULL, NULL);
            if (value_size) {
                clEnqueueReadBuffer(b->q, vout, CL_TRUE, 0, n * value_size, vgot, 0, NULL, NULL);
                for (i = 0; i < n; ++i)
                    memcpy(&index[i], vgot + i * value_size, 4);
            }
            bad = clprim_ref_sorted_check(type, 0, keys, n, got, value_size ? index : NULL);
            {
                const double limit = (double)n * ks + passes * 2.0 * (double)n * (ks + value_size);
                const double gbs = limit / dev_us / 1e3;
                const double copy_gbs = 2.0 * (double)n * ks / copy_us / 1e3;
                printf("%-10zu %-13s %10.1f %10.1f %8.2f %9.1f %9.1f %7.3f %8.2f %s\n", n, name,
                       dev_us, host_us, (double)n / dev_us / 1e3, gbs, copy_gbs, gbs / copy_gbs,
                       host_us / copy_host_us, bad != n ? "WRONG" : "ok");
                if (csv)
                    fprintf(csv, "\"%s\",\"%s\",%s,%zu,%s,%s,%zu,%.2f,%.2f,%.3f,%.0f,%.2f,%.2f,"
                                 "%.4f,%.2f,%.3f,%d\n",
                            info.device_name, info.driver_version, clprim_type_name(type),
                            value_size, dist, name, n, dev_us, host_us, (double)n / dev_us / 1e3,
                            limit, gbs, copy_gbs, gbs / copy_gbs, copy_host_us,
                            host_us / copy_host_us, bad == n);
            }
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    if (csv)
        fclose(csv);
    clReleaseMemObject(out);
    if (vals) {
        clReleaseMemObject(vals);
        clReleaseMemObject(vout);
    }
    free(keys);
    free(got);
    free(vgot);
    free(index);
    return 0;
}

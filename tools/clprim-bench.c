/* SPDX-License-Identifier: MIT */
/* clprim-bench: times scan algorithms over n on one device, next to the
 * device's copy bandwidth measured in the same run and a sequential C loop.
 *
 *   clprim-bench [--preset short|full|large] [--type int32|uint32|int64|uint64|float|double]
 *                [--op sum|product|min|max] [--exclusive] [--reduce] [--algorithms all|NAME,...]
 *                [--reps R] [--batch K] [--csv FILE]
 *   clprim-bench --first-call [--reps R] [--csv FILE]
 *
 * --reduce times the reduce algorithms instead of the scans: GB/s then counts
 * bytes read (n sizeof(T)), and "read" is a read-only float4 kernel over the
 * same bytes in the same run (the device's read bandwidth).
 *
 * Device: CLPRIM_DEVICE (substring of platform or device name), else the first GPU.
 * Per (algorithm, n): 2 warm-up calls, then R timed calls on fresh output;
 * medians of (a) device time from the first start to the last end of the
 * call's commands and (b) host wall-clock of one call plus clFinish. Every
 * result is verified against the tests' host reference (tests/reference/).
 * For (a) a marker stands for the call's first start: it is enqueued behind `gate`, a one-work-item busy
 * loop of about 0.1 ms on a GPU, so that it completes only when the call's
 * commands are already queued behind it (on an idle queue it would complete
 * at once, and the span would also count the host's enqueue work, which (b)
 * measures). Gaps between the marker and the call's first command, and
 * between its commands, count. The copy and read ceilings are timed the
 * same way, each command behind its own gate and marker.
 * Batched (--batch K, default 8; 0: off): K calls back to back after a
 * marker, device time from the marker to the last call's end over K, and
 * the copy and read ceilings measured the same way (K commands).
 * GB/s counts bytes read plus written (2 n sizeof(T)), like the copy column;
 * host/cp is the call's host wall-clock over that of one clEnqueueCopyBuffer
 * of the same bytes (what small n costs, launches included).
 * tools/plot-bench.sh turns the CSV into a PNG chart.
 * --first-call times the first scan of a fresh process with the on-disk
 * program cache cold and warm (tools/first_call.c). */
#define _POSIX_C_SOURCE 200809L
#include <clprim.h>

#include "bench.h"
#include "reference/reference.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>



/* One library call, for gated_us and batch_us. */
typedef struct call {
    const clprim_scan_desc *scan;     /* NULL: reduce */
    const clprim_reduce_desc *reduce;
    size_t n;
} call;

static int enqueue_call(bench *b, const void *arg, cl_event *ev)
{
    const call *c = arg;
    return (c->scan ? clprim_scan(b->ctx, NULL, c->scan, b->in, 0, b->out, 0, c->n, 0, NULL, ev)
                    : clprim_reduce(b->ctx, NULL, c->reduce, b->in, 0, c->n, b->out, 0, 0, NULL,
                                    ev)) == CLPRIM_SUCCESS;
}

static const char usage[] =
    "usage: clprim-bench [options]\n"
    "Times clprim's scan (or reduce) algorithms over n on one OpenCL device, against\n"
    "the device's copy (or read) bandwidth measured in the same run, every result\n"
    "verified. Device: $CLPRIM_DEVICE (a substring of \"platform / device\"), else\n"
    "the first GPU, else the first CPU.\n"
    "\n"
    "  --preset short|full|large  sizes: 2^10..2^24 (4), 2^10..2^28 and two odd n, or\n"
    "                             2^26 and 2^28 (default short)\n"
    "  --type T                   int32 uint32 int64 uint64 float double (default int32)\n"
    "  --op OP                    sum product min max (default sum)\n"
    "  --exclusive                exclusive scans (default inclusive)\n"
    "  --reduce                   time the reduce algorithms instead\n"
    "  --algorithms all|A,B,...   which algorithms, by name (default all)\n"
    "  --reps R                   timed calls per point, 1..101 (default 11)\n"
    "  --batch K                  also K calls back to back (default 8; 0: off)\n"
    "  --csv FILE                 write every point as CSV (clprim-plot-bench draws it)\n"
    "  --compact OP               time stream compaction of int32 instead: select,\n"
    "                             select-flags, partition, partition-reversed, unique\n"
    "                             or rle (algorithms three-pass, single-pass)\n"
    "  --kept P                   select / partition: percent of elements kept (default 50)\n"
    "  --segmented FORM           time int32 segmented sums instead: scan-flags, scan-keys,\n"
    "                             scan-offsets, reduce-flags, reduce-keys, reduce-offsets,\n"
    "                             or transform (\"x > 0\" counted, beside the plain scan)\n"
    "  --segment-length L         mean segment length (default 1000)\n"
    "  --sat KIND                 time summed-area tables instead: int32, float, uint8\n"
    "                             (uint8 pixels into uint32), or box (9 x 9 means)\n"
    "  --sat-sides A,B,...        the square images' sides (default 1024,4096,16384)\n"
    "  --sort DIST                time radix sort of --type keys instead: uniform, few\n"
    "                             (16 distinct keys) or sorted (algorithms onesweep,\n"
    "                             split-lsb, tile-bitonic)\n"
    "  --values B                 sort: values of B bytes (0, 4 or 8; default 0)\n"
    "  --first-call               time the first call of fresh processes instead\n"
    "  --help                     this text\n"
    "\n"
    "Progress goes to stderr when it is a terminal; results to stdout.\n";

/* The value after option argv[*i], or NULL (with a message) when there is none. */
static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "clprim-bench: %s needs a value (see --help)\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int main(int argc, char **argv)
{
    const char *preset = "short", *csv_path = NULL, *algos = "all";
    clprim_type type = CLPRIM_TYPE_INT32;
    clprim_op op = CLPRIM_OP_SUM;
    int exclusive = 0, reduce = 0, first_call = 0, i, a;
    size_t sizes[64], count = 0, max_n = 0, elem, s;
    bench b = {0};
    clprim_device_info info;
    cl_int err;
    FILE *csv = NULL;
    unsigned char *host_in, *want, *got;
    uint64_t seed = 0x243F6A8885A308D3ull;
    const int progress = isatty(fileno(stderr));
    const char *compact = NULL, *segmented = NULL, *sat = NULL, *sort = NULL;
    size_t sort_values = 0;
    size_t sat_sides[16] = {1024, 4096, 16384}, sat_count = 3;
    size_t segment_length = 1000;
    int kept = 50, rc = 0;

    b.reps = 11;
    b.batch = 8;
    /* stdout line by line, so that a pipe or a log sees each point as it comes */
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (i = 1; i < argc; ++i) {
        const char *v = NULL;
        const char *opt = argv[i];
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(opt, "--exclusive")) {
            exclusive = 1;
        } else if (!strcmp(opt, "--reduce")) {
            reduce = 1;
        } else if (!strcmp(opt, "--first-call")) {
            first_call = 1;
        } else if (!strcmp(opt, "--sat") || !strcmp(opt, "--sat-sides")) {
            const char *v = option_value(argc, argv, &i);
            if (!v)
                return 2;
            if (!strcmp(opt, "--sat")) {
                sat = v;
            } else {
                char *end;
                for (sat_count = 0; *v && sat_count < 16; v = *end ? end + 1 : end) {
                    sat_sides[sat_count] = (size_t)strtoull(v, &end, 10);
                    if (end == v || !sat_sides[sat_count]) {
                        fprintf(stderr, "clprim-bench: --sat-sides takes sides like 1024,4096\n");
                        return 2;
                    }
                    ++sat_count;
                }
            }
        } else if (!strcmp(opt, "--segmented") || !strcmp(opt, "--segment-length")) {
            if (!(v = option_value(argc, argv, &i)))
                return 2;
            if (!strcmp(opt, "--segmented"))
                segmented = v;
            else
                segment_length = (size_t)strtoull(v, NULL, 10);
        } else if (!strcmp(opt, "--sort") || !strcmp(opt, "--values")) {
            if (!(v = option_value(argc, argv, &i)))
                return 2;
            if (!strcmp(opt, "--sort"))
                sort = v;
            else
                sort_values = (size_t)strtoull(v, NULL, 10);
        } else if (!strcmp(opt, "--compact") || !strcmp(opt, "--kept")) {
            if (!(v = option_value(argc, argv, &i)))
                return 2;
            if (!strcmp(opt, "--compact"))
                compact = v;
            else
                kept = atoi(v);
        } else if (!strcmp(opt, "--preset") || !strcmp(opt, "--csv") || !strcmp(opt, "--algorithms") ||
                   !strcmp(opt, "--reps") || !strcmp(opt, "--batch") || !strcmp(opt, "--type") ||
                   !strcmp(opt, "--op") || !strcmp(opt, "--first-call-child")) {
            if (!(v = option_value(argc, argv, &i)))
                return 2;
            if (!strcmp(opt, "--preset")) preset = v;
            else if (!strcmp(opt, "--csv")) csv_path = v;
            else if (!strcmp(opt, "--algorithms")) algos = v;
            else if (!strcmp(opt, "--reps")) b.reps = atoi(v);
            else if (!strcmp(opt, "--batch")) b.batch = atoi(v);
            else if (!strcmp(opt, "--first-call-child")) return clprim_bench_first_call_child(v);
            else if (!strcmp(opt, "--type"))
                for (type = 0; type < CLPRIM_TYPE_COUNT_ && strcmp(clprim_type_name(type), v); ++type)
                    ;
            else
                for (op = 0; op < CLPRIM_OP_COUNT_ && strcmp(clprim_op_name(op), v); ++op)
                    ;
        } else {
            fprintf(stderr, "clprim-bench: unknown option %s (see --help)\n", opt);
            return 2;
        }
    }
    if (strcmp(preset, "short") && strcmp(preset, "full") && strcmp(preset, "large")) {
        fprintf(stderr, "clprim-bench: unknown --preset %s (short, full or large)\n", preset);
        return 2;
    }
    if (kept < 0 || kept > 100) {
        fprintf(stderr, "clprim-bench: --kept takes 0 to 100\n");
        return 2;
    }
    if (strcmp(algos, "all") && !compact && !segmented && !sat && !sort) { /* every name asked for must exist */
        char list[512], *name, *rest;
        snprintf(list, sizeof list, "%s", algos);
        for (name = strtok_r(list, ",", &rest); name; name = strtok_r(NULL, ",", &rest)) {
            int found = 0;
            for (a = 0; a < (reduce ? CLPRIM_REDUCE_ALGORITHM_COUNT_ : CLPRIM_SCAN_ALGORITHM_COUNT_); ++a)
                found |= !strcmp(name, reduce ? clprim_reduce_algorithm_name((clprim_reduce_algorithm)a)
                                               : clprim_scan_algorithm_name((clprim_scan_algorithm)a));
            if (!found) {
                fprintf(stderr, "clprim-bench: no %s algorithm named %s (see --help)\n",
                        reduce ? "reduce" : "scan", name);
                return 2;
            }
        }
    }
    if (type >= CLPRIM_TYPE_COUNT_ || op >= CLPRIM_OP_COUNT_ || b.reps < 1 || b.reps > MAX_REPS ||
        b.batch < 0) {
        fprintf(stderr, "clprim-bench: bad --type, --op, --reps or --batch\n");
        return 2;
    }
    if (first_call)
        return clprim_bench_first_call(argv[0], csv_path, b.reps == 11 ? 3 : b.reps);
    if (!strcmp(preset, "full")) {
        for (s = 10; s <= 28; s += 2)
            sizes[count++] = (size_t)1 << s;
        sizes[count++] = 1000003;   /* non-powers of two */
        sizes[count++] = 100000007;
    } else if (!strcmp(preset, "large")) { /* for tuning runs */
        sizes[count++] = (size_t)1 << 26;
        sizes[count++] = (size_t)1 << 28;
    } else {
        sizes[count++] = (size_t)1 << 10;
        sizes[count++] = (size_t)1 << 16;
        sizes[count++] = (size_t)1 << 20;
        sizes[count++] = (size_t)1 << 24;
    }
    for (s = 0; s < count; ++s)
        if (sizes[s] > max_n)
            max_n = sizes[s];

    if ((err = clprim_context_create(NULL, &b.ctx)) != CLPRIM_SUCCESS) {
        fprintf(stderr, "clprim-bench: no context: %s\n", clprim_status_string(err));
        if (err == CLPRIM_NO_DEVICE)
            fputs("clprim-bench: no OpenCL device found; install a driver (pocl-opencl-icd runs on "
                  "any CPU) and check with clinfo, or set CLPRIM_DEVICE to one clinfo lists\n",
                  stderr);
        return 1;
    }
    clprim_context_device_info(b.ctx, &info);
    elem = clprim_type_size(type);
    host_in = malloc(max_n * elem);
    want = malloc(max_n * elem);
    got = malloc(max_n * elem);
    if (bench_open(&b, b.ctx, max_n * elem) != 0 || !host_in || !want || !got) {
        fprintf(stderr, "clprim-bench: cannot allocate %zu elements\n", max_n);
        return 1;
    }
    if (sat) {
        rc = clprim_bench_sat(&b, sat, sat_sides, sat_count, csv_path, progress);
        goto done;
    }
    if (segmented) {
        rc = clprim_bench_segment(&b, segmented, segment_length, sizes, count, csv_path, progress);
        goto done;
    }
    if (sort) {
        rc = clprim_bench_sort(&b, sort, type, sort_values, sizes, count, algos, csv_path,
                               progress);
        goto done;
    }
    if (compact) {
        rc = clprim_bench_compact(&b, compact, kept, sizes, count, algos, csv_path, progress);
        goto done;
    }
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "clprim-bench: cannot write %s\n", csv_path);
        return 1;
    }
    if (csv)
        fprintf(csv, "device,driver,type,op,mode,algorithm,n,device_us,host_us,gbs,"
                     "copy_buffer_gbs,copy_kernel_gbs,ratio_to_copy,seq_c_gbs,copy_host_us,"
                     "host_vs_copy,verified,read_gbs,ratio_to_read,batch_us,copy_batch_gbs,"
                     "ratio_to_copy_batch,read_batch_gbs,ratio_to_read_batch\n");
    printf("# %s / %s, driver %s\n# %s %s %s; GB/s = %s n sizeof(T) / median device time\n",
           info.platform_name, info.device_name, info.driver_version, clprim_type_name(type),
           clprim_op_name(op), reduce ? "reduce" : exclusive ? "exclusive scan" : "inclusive scan",
           reduce ? "" : "2");
    if (reduce)
        printf("%-10s %-18s %10s %10s %9s %9s %7s %9s %7s %7s %s\n", "n", "algorithm",
               "device_us", "host_us", "GB/s", "read GB/s", "ratio", "copy GB/s", "of copy",
               "batched", "ok");
    else
        printf("%-10s %-18s %10s %10s %9s %9s %7s %9s %8s %7s %s\n", "n", "algorithm",
               "device_us", "host_us", "GB/s", "copy GB/s", "ratio", "seq GB/s", "host/cp",
               "batched", "ok");

    for (s = 0; s < count; ++s) {
        const size_t n = sizes[s], bytes = n * elem;
        double copy_us, kernel_us, copy_host_us, read_us, seq_us, t0, copy_b_us, read_b_us;
        /* fresh random data per size: small values keep float sums meaningful */
        for (i = 0; (size_t)i < bytes; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            host_in[i] = (unsigned char)(seed >> 56);
        }
        if (type == CLPRIM_TYPE_FLOAT)
            for (size_t j = 0; j < n; ++j) ((float *)(void *)host_in)[j] = (float)(host_in[j * 4] % 17) / 8.0f - 1.0f;
        if (type == CLPRIM_TYPE_DOUBLE)
            for (size_t j = 0; j < n; ++j) ((double *)(void *)host_in)[j] = (double)(host_in[j * 8] % 17) / 8.0 - 1.0;
        clEnqueueWriteBuffer(b.q, b.in, CL_TRUE, 0, bytes, host_in, 0, NULL, NULL);
        time_copies(&b, bytes, &copy_us, &kernel_us, &copy_host_us, &read_us, &copy_b_us,
                    &read_b_us);
        /* the sequential column: the shared host reference's loop, in the
         * type's own arithmetic */
        t0 = now_us();
        clprim_ref_scan(type, op, exclusive, host_in, want, n);
        seq_us = now_us() - t0;

        for (a = 0; a < (reduce ? CLPRIM_REDUCE_ALGORITHM_COUNT_ : CLPRIM_SCAN_ALGORITHM_COUNT_); ++a) {
            const char *name = reduce ? clprim_reduce_algorithm_name((clprim_reduce_algorithm)a)
                                      : clprim_scan_algorithm_name((clprim_scan_algorithm)a);
            clprim_scan_desc d = {type, op, exclusive, (clprim_scan_algorithm)a, NULL, NULL};
            clprim_reduce_desc rd = {type, op, (clprim_reduce_algorithm)a, NULL, NULL};
            double dev[MAX_REPS], host[MAX_REPS], dev_us, host_us, call_b_us;
            const call one = {reduce ? NULL : &d, &rd, n};
            int r, ok = 1;
            size_t bad;
            if (strcmp(algos, "all") && !listed(algos, name))
                continue;
            if (progress) /* a long run shows where it is; a log or pipe gets none of it */
                fprintf(stderr, "\r\033[K[size %zu of %zu] n = %zu, %s ...", s + 1, count, n, name);
            /* device time: gated, as for the copy; host time: the call
             * alone plus clFinish, as for the copy */
            for (r = -2; r < b.reps && ok; ++r) {
                const double t = gated_us(&b, enqueue_call, &one, &ok);
                if (r >= 0)
                    dev[r] = t;
            }
            for (r = 0; r < b.reps && ok; ++r) {
                t0 = now_us();
                ok = enqueue_call(&b, &one, NULL);
                clFinish(b.q);
                host[r] = now_us() - t0;
            }
            if (!ok) {
                char why[512];
                clprim_context_last_error(b.ctx, why, sizeof why);
                printf("%-10zu %-18s failed: %s\n", n, name, why);
                continue;
            }
            dev_us = median(dev, b.reps);
            host_us = median(host, b.reps);
            call_b_us = batch_us(&b, enqueue_call, &one);
            /* against the tests' own reference (tests/reference/) */
            if (reduce) {
                clEnqueueReadBuffer(b.q, b.out, CL_TRUE, 0, elem, got, 0, NULL, NULL);
                bad = clprim_ref_reduce_check(type, op, host_in, n, got, NULL, name);
            } else {
                clEnqueueReadBuffer(b.q, b.out, CL_TRUE, 0, bytes, got, 0, NULL, NULL);
                bad = clprim_ref_scan_check(type, op, exclusive, host_in, got, n, NULL, name);
            }
            {
                const double moved = (reduce ? 1.0 : 2.0) * bytes;
                double gbs = moved / dev_us / 1e3, copy_gbs = 2.0 * bytes / copy_us / 1e3;
                double kern_gbs = 2.0 * bytes / kernel_us / 1e3, seq_gbs = 2.0 * bytes / seq_us / 1e3;
                double read_gbs = (double)bytes / read_us / 1e3;
                /* batched: the call against the ceiling timed the same way */
                double copy_b_gbs = 2.0 * bytes / copy_b_us / 1e3;
                double read_b_gbs = (double)bytes / read_b_us / 1e3;
                double gbs_b = moved / call_b_us / 1e3;
                if (reduce)
                    printf("%-10zu %-18s %10.1f %10.1f %9.1f %9.1f %7.3f %9.1f %7.3f %7.3f %s\n",
                           n, name, dev_us, host_us, gbs, read_gbs, gbs / read_gbs, copy_gbs,
                           gbs / copy_gbs, gbs_b / read_b_gbs, bad ? "WRONG" : "ok");
                else
                    printf("%-10zu %-18s %10.1f %10.1f %9.1f %9.1f %7.3f %9.2f %8.2f %7.3f %s\n",
                           n, name, dev_us, host_us, gbs, copy_gbs, gbs / copy_gbs, seq_gbs,
                           host_us / copy_host_us, gbs_b / copy_b_gbs, bad ? "WRONG" : "ok");
                if (csv)
                    fprintf(csv, "\"%s\",\"%s\",%s,%s,%s,%s,%zu,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%.3f,"
                                 "%.2f,%.3f,%d,%.2f,%.4f,%.2f,%.2f,%.4f,%.2f,%.4f\n",
                            info.device_name, info.driver_version, clprim_type_name(type),
                            clprim_op_name(op), reduce ? "reduce" : exclusive ? "exclusive" : "inclusive",
                            name, n, dev_us, host_us, gbs, copy_gbs, kern_gbs, gbs / copy_gbs,
                            seq_gbs, copy_host_us, host_us / copy_host_us, !bad, read_gbs,
                            gbs / read_gbs, call_b_us, copy_b_gbs, gbs_b / copy_b_gbs, read_b_gbs,
                            gbs_b / read_b_gbs);
            }
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    if (csv)
        fclose(csv);
done:
    bench_close(&b);
    free(host_in);
    free(want);
    free(got);
    clprim_context_release(b.ctx);
    return rc;
}

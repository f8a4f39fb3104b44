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
 * program cache cold and warm (tools/first_call.c).
 * This file reads the options; every mode is a module (bench_scan.c,
 * bench_compact.c, bench_segment.c, bench_sat.c, bench_sort.c,
 * bench_search.c, bench_histogram.c, bench_merge.c, bench_top_k.c) on the one
 * driver, bench_driver.c, which times, prints and writes the CSV. */
#define _POSIX_C_SOURCE 200809L
#include <clprim.h>

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: clprim-bench [options]\n"
    "Times clprim's scan (or reduce) algorithms over n on one OpenCL device, against\n"
    "the device's copy (or read) bandwidth measured in the same run, every result\n"
    "verified. Device: $CLPRIM_DEVICE (a substring of \"platform / device\"), else\n"
    "the first GPU, else the first CPU.\n"
    "\n"
    "  --preset short|full|large  sizes: 2^10..2^24 (4), 2^10..2^28 and two odd n, or\n"
    "                             2^26 and 2^28 (default short); or exponents: 20,24\n"
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
    "                             (16 distinct keys), sorted, or narrow (float keys as\n"
    "                             CUB's benchmarks make them: (24 random bits - 2^23)\n"
    "                             x 0.001) (algorithms onesweep, split-lsb, tile-bitonic)\n"
    "  --values B                 sort: values of B bytes (0, 4 or 8; default 0); merge\n"
    "                             pairs: 1 to 64 (default 4); top-k: 0, 4 or 8\n"
    "  --sort-segments M          sort: M equal segments, each sorted on its own\n"
    "                             (clprim_segmented_sort; default 0: the whole array)\n"
    "  --search BOUND             time clprim_lower_bound or clprim_upper_bound (lower,\n"
    "                             upper) of n --type queries in n sorted keys instead\n"
    "                             (algorithms binary, cached; GB/s: queries read and\n"
    "                             positions written)\n"
    "  --queries ORDER            search: random (default) or sorted queries\n"
    "  --histogram KIND           time clprim_histogram of n samples instead: uint8 over\n"
    "                             256 bins, float in [0, 1) over 1024, uint32 over 65536\n"
    "                             (algorithms global, private; GB/s: samples read)\n"
    "  --merge FORM               time clprim_merge of two sorted halves of n --type keys\n"
    "                             instead: keys, or pairs (values of --values B bytes,\n"
    "                             default 4) (algorithms corank, tiled; GB/s: each key and\n"
    "                             value read and written once)\n"
    "  --top-k K[,K...]           time clprim_top_k of the K largest of n --type keys\n"
    "                             instead, sorted (algorithms sort, radix-select,\n"
    "                             sample-filter; GB/s: keys read; reads: the call's time\n"
    "                             in reads of the keys)\n"
    "  --keys DIST                top-k: uniform (default), unit ([0, 1) floats; 12-bit\n"
    "                             integers), few (16 distinct keys) or sorted; histogram:\n"
    "                             uniform (default) or one (every sample in one bin)\n"
    "  --smallest                 top-k: the K smallest instead\n"
    "  --unsorted                 top-k: the K keys in any order\n"
    "  --repro LEVEL              scans and reduces at none (default), run-to-run or\n"
    "                             portable (clprim_repro)\n"
    "  --repeat-check N           instead of timing: each algorithm N times on the issue 33\n"
    "                             input (floats in [-0.7, 1.3)), counting distinct results\n"
    "                             by a hash of their bits (exit 1: a level other than none\n"
    "                             gave more than one)\n"
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
    cl_int err;
    const int progress = isatty(fileno(stderr));
    const char *compact = NULL, *segmented = NULL, *sat = NULL, *sort = NULL, *search = NULL;
    const char *histogram = NULL, *merge = NULL, *top_k = NULL, *top_k_keys = "uniform";
    int smallest = 0, unsorted = 0;
    const char *queries = "random";
    size_t sort_values = 0, sort_segments = 0;
    size_t sat_sides[16] = {1024, 4096, 16384}, sat_count = 3;
    size_t segment_length = 1000;
    int kept = 50, rc = 0;
    const char *type_name = NULL, *op_name = NULL, *sides = NULL, *child = NULL;
    const char *repro_name = NULL; /* issue 33 */
    int repeat_check = 0;
    /* every option: 'f' a flag (int set to 1), 's' a string, 'i' an int, 'z' a size */
    const struct {
        const char *name;
        char kind;
        void *to;
    } options[] = {
        {"--exclusive", 'f', &exclusive},   {"--reduce", 'f', &reduce},
        {"--first-call", 'f', &first_call}, {"--preset", 's', &preset},
        {"--csv", 's', &csv_path},          {"--algorithms", 's', &algos},
        {"--type", 's', &type_name},        {"--op", 's', &op_name},
        {"--reps", 'i', &b.reps},           {"--batch", 'i', &b.batch},
        {"--compact", 's', &compact},       {"--kept", 'i', &kept},
        {"--segmented", 's', &segmented},   {"--segment-length", 'z', &segment_length},
        {"--sat", 's', &sat},               {"--sat-sides", 's', &sides},
        {"--sort", 's', &sort},             {"--values", 'z', &sort_values},
        {"--sort-segments", 'z', &sort_segments},
        {"--search", 's', &search},         {"--queries", 's', &queries},
        {"--histogram", 's', &histogram},   {"--merge", 's', &merge},
        {"--top-k", 's', &top_k},           {"--keys", 's', &top_k_keys},
        {"--smallest", 'f', &smallest},     {"--unsorted", 'f', &unsorted},
        {"--first-call-child", 's', &child},
        {"--repro", 's', &repro_name},      {"--repeat-check", 'i', &repeat_check},
    };
    const size_t noptions = sizeof options / sizeof options[0];

    b.reps = 11;
    b.batch = 8;
    /* stdout line by line, so that a pipe or a log sees each point as it comes */
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (i = 1; i < argc; ++i) {
        const char *opt = argv[i], *v;
        size_t k;
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        for (k = 0; k < noptions && strcmp(opt, options[k].name); ++k)
            ;
        if (k == noptions) {
            fprintf(stderr, "clprim-bench: unknown option %s (see --help)\n", opt);
            return 2;
        }
        if (options[k].kind == 'f') {
            *(int *)options[k].to = 1;
            continue;
        }
        if (!(v = option_value(argc, argv, &i)))
            return 2;
        if (options[k].kind == 's')
            *(const char **)options[k].to = v;
        else if (options[k].kind == 'i')
            *(int *)options[k].to = atoi(v);
        else
            *(size_t *)options[k].to = (size_t)strtoull(v, NULL, 10);
    }
    if (child)
        return clprim_bench_first_call_child(child);
    if (type_name)
        for (type = 0; type < CLPRIM_TYPE_COUNT_ && strcmp(clprim_type_name(type), type_name); ++type)
            ;
    if (op_name)
        for (op = 0; op < CLPRIM_OP_COUNT_ && strcmp(clprim_op_name(op), op_name); ++op)
            ;
    if (sides) {
        const char *v = sides;
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
    if (strcmp(preset, "short") && strcmp(preset, "full") && strcmp(preset, "large")) {
        /* or powers of two by their exponents: 20,24 */
        char list[128], *e, *rest, *end;
        snprintf(list, sizeof list, "%s", preset);
        for (e = strtok_r(list, ",", &rest); e && count < 64; e = strtok_r(NULL, ",", &rest)) {
            const long k = strtol(e, &end, 10);
            if (*end || k < 0 || k > 40)
                break;
            sizes[count++] = (size_t)1 << k;
        }
        if (!count || e) {
            fprintf(stderr, "clprim-bench: unknown --preset %s (short, full, large, or exponents "
                    "of two like 20,24)\n", preset);
            return 2;
        }
    }
    if (kept < 0 || kept > 100) {
        fprintf(stderr, "clprim-bench: --kept takes 0 to 100\n");
        return 2;
    }
    if (strcmp(algos, "all") && !compact && !segmented && !sat && !sort && !search &&
        !histogram && !merge && !top_k) { /* every name asked for must exist */
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
    if (repro_name) {
        for (b.repro = 0; b.repro < CLPRIM_REPRO_COUNT_ && strcmp(clprim_repro_name(b.repro),
                                                                  repro_name); ++b.repro)
            ;
        if (b.repro == CLPRIM_REPRO_COUNT_) {
            fprintf(stderr, "clprim-bench: --repro takes none, run-to-run or portable\n");
            return 2;
        }
    }
    if (repeat_check < 0) {
        fprintf(stderr, "clprim-bench: --repeat-check takes a number of runs\n");
        return 2;
    }
    if (first_call)
        return clprim_bench_first_call(argv[0], csv_path, b.reps == 11 ? 3 : b.reps);
    if (count) {
        /* sizes by their exponents, above */
    } else if (!strcmp(preset, "full")) {
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
    elem = clprim_type_size(type);
    if (bench_open(&b, b.ctx, max_n * elem) != 0) {
        fprintf(stderr, "clprim-bench: cannot allocate %zu elements\n", max_n);
        return 1;
    }
    if (sat)
        rc = clprim_bench_sat(&b, sat, sat_sides, sat_count, csv_path, progress);
    else if (segmented)
        rc = clprim_bench_segment(&b, segmented, segment_length, sizes, count, csv_path, progress);
    else if (sort)
        rc = clprim_bench_sort(&b, sort, type, sort_values, sort_segments, sizes, count, algos,
                               csv_path, progress);
    else if (search)
        rc = clprim_bench_search(&b, search, queries, type, sizes, count, algos, csv_path,
                                 progress);
    else if (merge)
        rc = clprim_bench_merge(&b, merge, type, sort_values, sizes, count, algos, csv_path,
                                progress);
    else if (histogram)
        rc = clprim_bench_histogram(&b, histogram, top_k_keys, sizes, count, algos, csv_path,
                                    progress);
    else if (top_k)
        rc = clprim_bench_top_k(&b, top_k, top_k_keys, type, sort_values, smallest, unsorted,
                                sizes, count, algos, csv_path, progress);
    else if (compact)
        rc = clprim_bench_compact(&b, compact, kept, sizes, count, algos, csv_path, progress);
    else if (repeat_check)
        rc = clprim_bench_repeat_check(&b, type, op, exclusive, reduce, sizes, count, algos,
                                       repeat_check);
    else
        rc = clprim_bench_scan(&b, type, op, exclusive, reduce, sizes, count, algos, csv_path,
                               progress);
    bench_close(&b);
    clprim_context_release(b.ctx);
    return rc;
}

/* SPDX-License-Identifier: MIT */
/* clprim-tune: measures the device it runs on and writes tuning rows for it,
 * in the tuning-file format that clprim reads at context creation
 * (clprim.h, "Tuning files"; docs/tuning.md).
 *
 * For each primitive (scan, reduce) and element size it starts from the row
 * the library uses today (clprim_context_tuning), then searches one
 * parameter at a time over a grid (coordinate descent, two rounds at most),
 * keeping a value only when it is faster by more than the noise margin. A
 * candidate is a context wrapped around the same OpenCL objects with a
 * one-row tuning file; it is timed like clprim-bench (gated device time,
 * median of R calls, against the copy / read of the same bytes in the same
 * run), pruned after 3 calls when far behind the best, and its result is
 * compared whole with the host reference: a wrong or failed candidate is
 * never kept. The search runs at the largest n first (the row of every n),
 * then at each smaller n from that row; a smaller n gets a row of its own
 * (a size class up to the geometric middle between the two sizes) only when
 * it gains more than the margin there. Every candidate goes to the CSV. */
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

#define MAX_PARAMS 16
#define MARGIN 1.01 /* a value is kept when faster by more than 1% */

/* A row: the parameters of one primitive, by name, as clprim_context_tuning writes them. */
typedef struct row {
    int count;
    char name[MAX_PARAMS][32];
    unsigned long long value[MAX_PARAMS];
} row;

/* What one search is over: a primitive, its element type, n. */
typedef struct job {
    const char *primitive; /* "scan" or "reduce" */
    clprim_type type;
    size_t n;
} job;

typedef struct tuner {
    bench b;
    clprim_device_info info;
    unsigned char *host_in, *got;
    FILE *csv;
    const char *dir;
    double ceiling_us; /* the copy (scan) or read (reduce) of the job's bytes */
    int reps, quick, verbose;
    unsigned candidates;
} tuner;

static int row_parse(const char *line, row *r)
{
    const char *p = strstr(line, " elem_size=");
    r->count = 0;
    if (!p)
        return -1;
    p = strchr(p + 1, ' ');
    while (p && *++p && *p != ' ' && r->count < MAX_PARAMS) { /* "  # source" ends it */
        if (sscanf(p, "%31[^=]=%llu", r->name[r->count], &r->value[r->count]) != 2)
            return -1;
        r->count++;
        p = strchr(p, ' ');
    }
    return 0;
}

static int row_find(const row *r, const char *name)
{
    int i;
    for (i = 0; i < r->count; ++i)
        if (!strcmp(r->name[i], name))
            return i;
    return -1;
}

/* "scan device=\"...\" elem_size=E [min_n= max_n=] name=value ..." */
static void row_line(const tuner *t, const job *j, const row *r, size_t min_n, size_t max_n,
                     char *buf, size_t size)
{
    size_t len = (size_t)snprintf(buf, size, "%s device=\"%s\" elem_size=%zu", j->primitive,
                                  t->info.device_name, clprim_type_size(j->type));
    int i;
    if (max_n)
        len += (size_t)snprintf(buf + len, size - len, " min_n=%zu max_n=%zu", min_n, max_n);
    for (i = 0; i < r->count && len < size; ++i)
        len += (size_t)snprintf(buf + len, size - len, " %s=%llu", r->name[i], r->value[i]);
}

typedef struct run_arg {
    clprim_context *ctx;
    const job *j;
} run_arg;

static int enqueue_job(bench *b, const void *arg, cl_event *ev)
{
    const run_arg *a = arg;
    if (!strcmp(a->j->primitive, "scan")) {
        const clprim_scan_desc d = {a->j->type, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
        return clprim_scan(a->ctx, NULL, &d, b->in, 0, b->out, 0, a->j->n, 0, NULL, ev) ==
               CLPRIM_SUCCESS;
    } else {
        const clprim_reduce_desc d = {a->j->type, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
        return clprim_reduce(a->ctx, NULL, &d, b->in, 0, a->j->n, b->out, 0, 0, NULL, ev) ==
               CLPRIM_SUCCESS;
    }
}

/* Times row r for job j: its ratio to the ceiling, 0 when it is pruned,
 * negative when it fails or computes a wrong result. */
static double measure(tuner *t, const job *j, const row *r, double best, const char **status)
{
    char line[2048], path[512], why[512] = "";
    clprim_context_options opt;
    clprim_context *ctx = NULL;
    const size_t elem = clprim_type_size(j->type);
    run_arg arg;
    double us = NAN, ratio = -1;
    int ok = 1;
    FILE *f;
    row_line(t, j, r, 0, 0, line, sizeof line);
    snprintf(path, sizeof path, "%s/candidate.txt", t->dir);
    f = fopen(path, "w");
    if (!f || fprintf(f, "%s\n", line) < 0 || fclose(f) != 0) {
        *status = "no temporary file";
        return -1;
    }
    memset(&opt, 0, sizeof opt);
    *status = "failed";
    if (clprim_context_wrap(clprim_context_cl_context(t->b.ctx), clprim_context_device(t->b.ctx),
                            t->b.q, &opt, &ctx) != CLPRIM_SUCCESS ||
        clprim_context_set_tuning_file(ctx, path) != CLPRIM_SUCCESS) {
        clprim_context_last_error(ctx, why, sizeof why);
        goto done;
    }
    arg.ctx = ctx;
    arg.j = j;
    t->b.reps = t->reps < 3 ? t->reps : 3;
    us = median_gated_us(&t->b, enqueue_job, &arg, &ok);
    if (ok && best > 0 && t->ceiling_us / us < best / 1.25) {
        *status = "pruned";
        ratio = 0;
    } else if (ok && t->reps > 3) {
        t->b.reps = t->reps;
        us = median_gated_us(&t->b, enqueue_job, &arg, &ok);
    }
    if (!ok) {
        clprim_context_last_error(ctx, why, sizeof why);
        goto done;
    }
    if (ratio != 0) { /* checked whole against the host reference */
        const int scan = !strcmp(j->primitive, "scan");
        size_t bad;
        clEnqueueReadBuffer(t->b.q, t->b.out, CL_TRUE, 0, scan ? j->n * elem : elem, t->got, 0,
                            NULL, NULL);
        bad = scan ? clprim_ref_scan_check(j->type, CLPRIM_OP_SUM, 0, t->host_in, t->got, j->n,
                                           NULL, "candidate")
                   : clprim_ref_reduce_check(j->type, CLPRIM_OP_SUM, t->host_in, j->n, t->got,
                                             NULL, "candidate");
        *status = bad ? "WRONG" : "ok";
        ratio = bad ? -1 : t->ceiling_us / us;
    }
done:
    clprim_context_release(ctx);
    t->candidates++;
    if (t->csv)
        fprintf(t->csv, "%s,%s,%zu,\"%s\",%s,%.2f,%.4f,\"%s\"\n", j->primitive,
                clprim_type_name(j->type), j->n, strchr(line, ' ') + 1, *status, us,
                ratio > 0 ? ratio : 0.0, why);
    if (t->verbose)
        fprintf(stderr, "  %-6s %.4f %s\n", *status, ratio > 0 ? ratio : 0.0, line);
    return ratio;
}

#define END (~0ull)

/* The values tried for a parameter (END-terminated). */
static const unsigned long long *grid(const tuner *t, const char *name)
{
    static const unsigned long long wg[] = {128, 256, 512, END};
    static const unsigned long long items[] = {12, 16, 20, 24, 28, 32, END};
    static const unsigned long long ml_items[] = {4, 8, 12, 16, 24, 32, END};
    static const unsigned long long groups[] = {3, 4, 6, 8, 12, END};
    static const unsigned long long regs[] = {0, 64, 80, 96, END}; /* 0: no bound */
    static const unsigned long long r_wg[] = {64, 128, 256, 512, 1024, END};
    static const unsigned long long r_groups[] = {1, 2, 4, 8, 16, 32, END};
    if (!strcmp(name, "sp_wg_size") || !strcmp(name, "wg_size"))
        return wg;
    if (!strcmp(name, "sp_tile_items"))
        return items;
    if (!strcmp(name, "tile_items"))
        return ml_items;
    if (!strcmp(name, "sp_groups_per_cu"))
        return groups;
    if (!strcmp(name, "sp_max_regs"))
        return t->info.vendor_id == 0x10DE ? regs : NULL;
    if (!strcmp(name, "r_wg_size"))
        return r_wg;
    if (!strcmp(name, "groups_per_cu"))
        return r_groups;
    return NULL;
}

/* The parameters searched for the row's form: the single pass's where AUTO
 * runs it, else the multilevel scan's; reduce's work-group and grid. */
static int searched(const job *j, const row *r, const char **names)
{
    int k = 0, a = row_find(r, "scan_auto");
    if (strcmp(j->primitive, "scan")) {
        names[k++] = "wg_size";
        names[k++] = "groups_per_cu";
    } else if (a >= 0 && r->value[a] == CLPRIM_SCAN_DECOUPLED_LOOKBACK) {
        names[k++] = "sp_tile_items";
        names[k++] = "sp_groups_per_cu";
        names[k++] = "sp_wg_size";
        names[k++] = "sp_max_regs";
    } else {
        names[k++] = "tile_items";
        names[k++] = "wg_size";
    }
    return k;
}

/* Coordinate descent from *r; returns the best ratio (r updated to its row)
 * and, in *from, the ratio of the row it started from. */
static double search(tuner *t, const job *j, row *r, double *from)
{
    const char *names[8], *status;
    int k, count = searched(j, r, names), round, changed = 1;
    if (t->quick) /* CI: the first parameter alone */
        count = 1;
    double best = *from = measure(t, j, r, 0, &status);
    if (best < 0)
        fprintf(stderr, "clprim-tune: the starting row %s on %s n=%zu\n", status,
                clprim_type_name(j->type), j->n);
    for (round = 0; round < 2 && changed; ++round)
        for (changed = 0, k = 0; k < count; ++k) {
            const int at = row_find(r, names[k]);
            const unsigned long long *v =
                grid(t, !strcmp(names[k], "wg_size") && strcmp(j->primitive, "scan") ? "r_wg_size"
                                                                                    : names[k]);
            unsigned long long keep;
            int tried = 0;
            if (at < 0 || !v)
                continue;
            keep = r->value[at];
            for (; *v != END && (!t->quick || tried < 1); ++v) {
                double ratio;
                if (*v == keep)
                    continue;
                r->value[at] = *v;
                ratio = measure(t, j, r, best, &status);
                tried++;
                if (ratio > best * MARGIN) {
                    best = ratio;
                    keep = *v;
                    changed = 1;
                }
            }
            r->value[at] = keep;
        }
    return best;
}

static const char usage[] =
    "usage: clprim-tune [options]\n"
    "Measures the OpenCL device it runs on ($CLPRIM_DEVICE, else the first GPU) and\n"
    "writes tuning rows for it: a tuning file that clprim reads at context creation\n"
    "($CLPRIM_TUNING_FILE or clprim_context_set_tuning_file). Every candidate is\n"
    "verified against a host reference and timed against the device's copy (scan)\n"
    "or read (reduce) of the same bytes in the same run.\n"
    "\n"
    "  --primitives P,...  scan, reduce (default scan,reduce)\n"
    "  --types T,...       element types tuned, one row per element size\n"
    "                      (default int32,int64)\n"
    "  --sizes E,...       n = 2^E for each E, largest first (default 24,28)\n"
    "  --reps R            timed calls per candidate, 3..101 (default 11)\n"
    "  --quick             one other value of the first parameter (CI)\n"
    "  --out FILE          the rows (default: standard output)\n"
    "  --csv FILE          every candidate tried, as CSV\n"
    "  --verbose           every candidate on stderr as it is measured\n"
    "  --help              this text\n";

static int type_of(const char *name, clprim_type *type)
{
    int k;
    for (k = 0; k < CLPRIM_TYPE_COUNT_; ++k)
        if (!strcmp(clprim_type_name((clprim_type)k), name)) {
            *type = (clprim_type)k;
            return 1;
        }
    return 0;
}

static int cmp_size_desc(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* One primitive and type over every size: the row of any n at the largest,
 * then size classes where a smaller n gains; rows written to out. */
static int tune_one(tuner *t, FILE *out, const char *primitive, clprim_type type,
                    const size_t *sizes, int count, const char *date)
{
    const size_t elem = clprim_type_size(type);
    const char *ceiling = !strcmp(primitive, "scan") ? "copy" : "read";
    char line[2048], desc[2048];
    row base, any;
    double any_ratio = 0;
    int s;
    for (s = 0; s < count; ++s) {
        job j = {primitive, type, sizes[s]};
        const size_t bytes = sizes[s] * elem;
        double copy, kernel, copy_host, read, copy_b, read_b, start, ratio, from;
        const char *status;
        row r;
        uint64_t seed = 0x9E3779B97F4A7C15ull ^ sizes[s];
        clprim_ref_fill(type, CLPRIM_OP_SUM, t->host_in, sizes[s], &seed);
        if (clEnqueueWriteBuffer(t->b.q, t->b.in, CL_TRUE, 0, bytes, t->host_in, 0, NULL, NULL) !=
            CL_SUCCESS)
            return 1;
        t->b.reps = t->reps;
        time_copies(&t->b, bytes, &copy, &kernel, &copy_host, &read, &copy_b, &read_b);
        t->ceiling_us = !strcmp(primitive, "scan") ? copy : (isnan(read) ? copy / 2 : read);
        if (clprim_context_tuning(t->b.ctx, primitive, elem, sizes[s], desc, sizeof desc) == 0 ||
            row_parse(desc, &base) != 0)
            return 1;
        /* the largest n from the library's row, the others from the row of every n */
        r = s == 0 ? base : any;
        ratio = search(t, &j, &r, &from);
        start = s == 0 ? from : measure(t, &j, &base, 0, &status);
        fprintf(stderr, "%s %s n=%zu: %.3f of the %s with the library's row, %.3f tuned\n",
                primitive, clprim_type_name(type), sizes[s], start, ceiling, ratio);
        if (s == 0) {
            any = r;
            any_ratio = ratio;
            continue;
        }
        {   /* the row of every n at this size: where the search started */
            const double at_any = from;
            const size_t upper = (size_t)sqrt((double)sizes[s] * (double)sizes[s - 1]);
            if (ratio > at_any * MARGIN * MARGIN) {
                row_line(t, &j, &r, 0, upper, line, sizeof line);
                fprintf(out, "# clprim-tune %s, %s (%s): %s sum of %s at n=%zu: %.3f of the %s "
                             "(the row of every n: %.3f; the library's row: %.3f)\n%s\n",
                        date, t->info.device_name, t->info.driver_version, primitive,
                        clprim_type_name(type), sizes[s], ratio, ceiling, at_any, start, line);
            }
        }
    }
    {
        job j0 = {primitive, type, sizes[0]};
        row_line(t, &j0, &any, 0, 0, line, sizeof line);
        fprintf(out, "# clprim-tune %s, %s (%s): %s sum of %s at n=%zu: %.3f of the %s\n%s\n",
                date, t->info.device_name, t->info.driver_version, primitive,
                clprim_type_name(type), sizes[0], any_ratio, ceiling, line);
        fflush(out);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *prims = "scan,reduce", *types = "int32,int64", *sizes_arg = "24,28";
    const char *out_path = NULL, *csv_path = NULL;
    tuner t;
    size_t sizes[16], max_n = 0;
    int count = 0, i, rc = 0;
    char dir[] = "/tmp/clprim-tune-XXXXXX", date[32], path[512];
    FILE *out = stdout;
    clprim_status st;
    time_t now = time(NULL);
    static const char *const prim_names[] = {"scan", "reduce"};

    memset(&t, 0, sizeof t);
    t.reps = 11;
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--quick")) {
            t.quick = 1;
        } else if (!strcmp(a, "--verbose")) {
            t.verbose = 1;
        } else if (more && !strcmp(a, "--primitives")) {
            prims = argv[++i];
        } else if (more && !strcmp(a, "--types")) {
            types = argv[++i];
        } else if (more && !strcmp(a, "--sizes")) {
            sizes_arg = argv[++i];
        } else if (more && !strcmp(a, "--reps")) {
            t.reps = atoi(argv[++i]);
        } else if (more && !strcmp(a, "--out")) {
            out_path = argv[++i];
        } else if (more && !strcmp(a, "--csv")) {
            csv_path = argv[++i];
        } else {
            fprintf(stderr, "clprim-tune: unknown option or missing value: %s (see --help)\n", a);
            return 2;
        }
    }
    if (t.reps < 3 || t.reps > MAX_REPS) {
        fprintf(stderr, "clprim-tune: --reps must be 3..%d\n", MAX_REPS);
        return 2;
    }
    for (const char *p = sizes_arg; *p && count < 16;) {
        char *end;
        const long e = strtol(p, &end, 10);
        if (end == p || e < 1 || e > 40 || (*end && *end != ',')) {
            fprintf(stderr, "clprim-tune: --sizes takes exponents 1..40, e.g. 24,28\n");
            return 2;
        }
        sizes[count++] = (size_t)1 << e;
        p = *end ? end + 1 : end;
    }
    qsort(sizes, (size_t)count, sizeof sizes[0], cmp_size_desc);
    max_n = sizes[0];
    for (const char *p = types; *p;) {
        char name[32];
        clprim_type ty;
        size_t len = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), p);
        if (!type_of(name, &ty) || !clprim_type_size(ty)) {
            fprintf(stderr, "clprim-tune: unknown type %s\n", name);
            return 2;
        }
        p += len + (p[len] == ',');
    }
    if ((st = clprim_context_create(NULL, &t.b.ctx)) != CLPRIM_SUCCESS) {
        fprintf(stderr, "clprim-tune: no context: %s\n", clprim_status_string(st));
        return 1;
    }
    clprim_context_device_info(t.b.ctx, &t.info);
    t.host_in = malloc(max_n * 8);
    t.got = malloc(max_n * 8);
    if (!mkdtemp(dir) || bench_open(&t.b, t.b.ctx, max_n * 8) != 0 || !t.host_in || !t.got) {
        fprintf(stderr, "clprim-tune: cannot allocate for n = %zu\n", max_n);
        rc = 1;
        goto cleanup;
    }
    t.dir = dir;
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "clprim-tune: cannot write %s\n", out_path);
        out = NULL;
        rc = 1;
        goto cleanup;
    }
    if (csv_path && (t.csv = fopen(csv_path, "w")) != NULL)
        fputs("primitive,type,n,row,status,us,ratio,error\n", t.csv);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    fprintf(out, "# clprim tuning file: %s (%s / %s), written by clprim-tune %s on %s\n"
                 "# (clprim.h, \"Tuning files\"); the first row that matches a call is used\n",
            t.info.device_name, t.info.platform_name, t.info.driver_version,
            clprim_version_string(), date);
    for (i = 0; i < 2 && rc == 0; ++i) {
        size_t seen[8] = {0}, k;
        const char *p;
        if (!listed(prims, prim_names[i]))
            continue;
        for (p = types; *p && rc == 0;) {
            char name[32];
            clprim_type ty = CLPRIM_TYPE_INT32;
            size_t len = strcspn(p, ","), e;
            snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), p);
            p += len + (p[len] == ',');
            type_of(name, &ty);
            e = clprim_type_size(ty);
            for (k = 0; k < 8 && seen[k] && seen[k] != e; ++k)
                ;
            if (k < 8 && seen[k] == e)
                continue; /* one row per element size: the first type listed tunes it */
            if (k < 8)
                seen[k] = e;
            if (ty == CLPRIM_TYPE_DOUBLE && !t.info.has_fp64)
                continue;
            rc = tune_one(&t, out, prim_names[i], ty, sizes, count, date);
        }
    }
    fprintf(stderr, "clprim-tune: %u candidates measured%s%s\n", t.candidates,
            out_path ? "; rows in " : "", out_path ? out_path : "");
cleanup:
    if (out && out != stdout)
        fclose(out);
    if (t.csv)
        fclose(t.csv);
    snprintf(path, sizeof path, "%s/candidate.txt", dir);
    remove(path);
    rmdir(dir);
    bench_close(&t.b);
    clprim_context_release(t.b.ctx);
    free(t.host_in);
    free(t.got);
    return rc;
}

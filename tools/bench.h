/* SPDX-License-Identifier: MIT */
/* What clprim-bench (clprim-bench.c, first_call.c, bench_*.c), clprim-tune,
 * clprim-bench-multi and clprim-bench-mpi share; the clock, the ceilings and
 * the device search are bench_timing.c's. */
#ifndef CLPRIM_BENCH_H
#define CLPRIM_BENCH_H

#include <clprim.h>

#include <stdint.h>
#include <stdio.h>

#define MAX_REPS 101

typedef struct bench {
    clprim_context *ctx;
    cl_command_queue q;
    cl_mem in, out, sink;
    cl_kernel copy4, read4, gate;
    int reps, batch;
    /* a run's host memory and buffers (bench_alloc, bench_buffer), which
     * bench_run releases */
    void *host[16];
    cl_mem mem[16];
    int hosts, mems, short_of_memory;
    clprim_repro repro; /* --repro: the scans' and reduces' level (issue 33) */
} bench;

/* One command (or one library call) of a batch; *ev: its last command. */
typedef int (*enqueue_fn)(bench *b, const void *arg, cl_event *ev);

/* Device time of one run of fn: from a marker queued behind a short busy
 * kernel to fn's last end (clprim-bench.c says why). */
double gated_us(bench *b, enqueue_fn fn, const void *arg, int *ok);
/* Medians over b->reps of gated_us (after two warm-ups), and of the host
 * wall clock of a blocking call; NAN, with *ok 0, when a call fails (the
 * context's last error says why). *ok must be 1 on entry. */
double median_gated_us(bench *b, enqueue_fn fn, const void *arg, int *ok);
double median_host_us(bench *b, enqueue_fn fn, const void *arg, int *ok);
/* Median over reps of b->batch runs back to back, per run; NAN when off. */
double batch_us(bench *b, enqueue_fn fn, const void *arg);
/* Medians of the copy and read ceilings over `bytes` (clprim-bench.c). */
void time_copies(bench *b, size_t bytes, double *copy_us, double *kernel_us,
                 double *copy_host_us, double *read_us, double *copy_batch_us,
                 double *read_batch_us);

/* b over ctx: its queue, in and out of `bytes` each, and the copy, read
 * and gate kernels; 0, or -1 when a buffer cannot be made (bench_close
 * releases what was). */
int bench_open(bench *b, clprim_context *ctx, size_t bytes);
/* Releases b's buffers and kernels (not the context). */
void bench_close(bench *b);

/* Whether name is one of the comma-separated names of list. */
int listed(const char *list, const char *name);
/* The index of name among names[0 .. count), or -1. */
int name_index(const char *const *names, int count, const char *name);

/* For a tool that makes its own contexts (clprim-bench-mpi,
 * clprim-bench-multi; clprim-bench's device is clprim_context_create's): the
 * GPUs (a platform without one: all its devices) whose "platform / device"
 * name contains $CLPRIM_DEVICE (any when unset), on the first platform that
 * has one; up to max of them to dev, and their count (0: none). */
cl_uint bench_devices(cl_device_id *dev, cl_uint max);

/* Monotonic clock in microseconds. */
double now_us(void);
/* Median of v[0 .. n) (sorts v). */
double median(double *v, int n);

/* ---- the driver (bench_driver.c): one run of a module over its sizes ----
 * Per size: the module's prepare (input generated and written), then the
 * copy and read ceilings over p->copy_bytes (time_copies); per variant
 * (algorithm or form) the module chose: two warm-up calls and the median
 * gated device time, the median host time (host_clock), the median batched
 * time (batched), the module's check (its verification hook, against
 * tests/reference/), then the rates below and the module's row. Progress
 * on stderr, a failed call's line, the CSV file and its device and driver
 * columns are the driver's. */

/* One point: a size and a variant, what was measured and checked. */
typedef struct bench_point {
    size_t index, count; /* the size's place among `count` */
    size_t n;            /* elements, or the side of a square image */
    int variant;         /* the module's algorithm or form */
    const char *name;    /* the variant's name */
    size_t copy_bytes;   /* the ceilings' bytes (prepare sets it) */
    double moved;        /* bytes the call must move (check sets it) */
    size_t bad;          /* check's mismatches */
    double dev_us, host_us, batch_us; /* NAN when not timed */
    double copy_us, kernel_us, copy_host_us, read_us, copy_batch_us, read_batch_us;
    /* moved over dev_us and batch_us; the copy ceilings count copy_bytes
     * read and written, the read ceilings copy_bytes read (GB/s) */
    double gbs, batch_gbs, copy_gbs, copy_batch_gbs, kernel_gbs, read_gbs, read_batch_gbs;
} bench_point;

/* What a module fills in; self is its state, passed to every part. */
typedef struct bench_module {
    void *self;
    const char *unit;        /* "elements", "keys"; NULL: sides of square images */
    int n_width, name_width; /* the rows' first two columns (a failed call's line) */
    int variant_begin, variant_end; /* the variants tried, in order */
    int host_clock, batched; /* also the host clock; also batches */
    const char *algos;       /* NULL or "all": every variant; else a list of names */
    int wrong_status;        /* bench_run's result when a check failed (0: none) */
    const char *csv_columns; /* the CSV header after "device,driver," */
    /* room for sizes up to max_n (bench_alloc, bench_buffer): 0, or -1
     * (then nothing is timed) */
    int (*open)(bench *b, void *self, size_t max_n);
    void (*close)(void *self); /* NULL, or what else open made (also after a failure) */
    void (*head)(void *self);            /* the lines after the device's line */
    /* p->n's input generated and written, p->copy_bytes set; 0, or -1 */
    int (*prepare)(bench *b, void *self, bench_point *p);
    /* p->variant's call set up; its name, or NULL to skip it */
    const char *(*variant)(bench *b, void *self, bench_point *p);
    enqueue_fn enqueue; /* one call; its arg is self */
    /* the device's result against the reference: mismatches; sets p->moved */
    size_t (*check)(bench *b, void *self, bench_point *p);
    /* the printed row, and the CSV row after the device and driver (csv NULL: none) */
    void (*row)(void *self, const bench_point *p, FILE *csv);
} bench_module;

/* A module's parts named by its prefix P: P_open, P_head, P_prepare,
 * P_variant, P_enqueue, P_check and P_row. */
#define BENCH_PARTS(P)                                                                    \
    .open = P##_open, .head = P##_head, .prepare = P##_prepare, .variant = P##_variant,   \
    .enqueue = P##_enqueue, .check = P##_check, .row = P##_row

/* For a module's open: `bytes` of host memory, or a buffer, until bench_run
 * returns; NULL (and b->short_of_memory set) when there is none. */
void *bench_alloc(bench *b, size_t bytes);
cl_mem bench_buffer(bench *b, cl_mem_flags flags, size_t bytes);

/* Runs m over sizes[0 .. count): 0, 1 when set-up failed (said on stderr),
 * or m->wrong_status when a check found mismatches. */
int bench_run(bench *b, const bench_module *m, const size_t *sizes, size_t count,
              const char *csv_path, int progress);

/* clprim-bench's scan or reduce (bench_scan.c): every algorithm of `type`
 * and op (exclusive scans), every result checked. */
int clprim_bench_scan(bench *b, clprim_type type, clprim_op op, int exclusive, int reduce,
                      const size_t *sizes, size_t count, const char *algos, const char *csv_path,
                      int progress);

/* clprim-bench --first-call (first_call.c). */
int clprim_bench_first_call(const char *self, const char *csv_path, int reps);
int clprim_bench_first_call_child(const char *dir);

/* clprim-bench --compact OP (bench_compact.c): select, partition, unique or
 * rle over the sizes given, at `percent` kept (select, partition). */
int clprim_bench_compact(bench *b, const char *op, int percent, const size_t *sizes, size_t count,
                         const char *algos, const char *csv_path, int progress);

/* clprim-bench --segmented FORM (bench_segment.c): segmented int32 sums,
 * segments of `len` on average, or transform-scan beside the plain scan. */
int clprim_bench_segment(bench *b, const char *form, size_t len, const size_t *sizes,
                         size_t count, const char *csv_path, int progress);

/* clprim-bench --sat KIND (bench_sat.c): summed-area tables (int32, float,
 * uint8 -> uint32) and a box filter of square images of the given sides. */
int clprim_bench_sat(bench *b, const char *kind, const size_t *sides, size_t count,
                     const char *csv_path, int progress);

/* clprim-bench --sort DIST (bench_sort.c): radix sort of keys of `type`
 * with values of value_size bytes (0, 4 or 8), DIST uniform, few or sorted;
 * segments > 0: the segmented sort of that many equal segments. */
int clprim_bench_sort(bench *b, const char *dist, clprim_type type, size_t value_size,
                      size_t segments, const size_t *sizes, size_t count, const char *algos,
                      const char *csv_path, int progress);

/* clprim-bench --search BOUND (bench_search.c): lower or upper bound of n
 * queries (QUERIES sorted or random) in n sorted keys of `type`. */
int clprim_bench_search(bench *b, const char *bound, const char *queries, clprim_type type,
                        const size_t *sizes, size_t count, const char *algos,
                        const char *csv_path, int progress);

/* n random values of `type` into x (integers over every bit; floats and
 * doubles converted from random integers, so no NaNs or infinities),
 * written to buffer m from its start, sorted there by clprim_sort when
 * `sort`, and read back: what the device works on, as the host sees it.
 * 0, or -1 (said on stderr). (bench_search.c; the merge's too.) */
int bench_draw(bench *b, clprim_type type, cl_mem m, unsigned char *x, size_t n, int sort,
               uint64_t *s);

/* clprim-bench --merge FORM (bench_merge.c): two sorted halves of n keys
 * of `type` merged, keys alone (FORM keys) or with values of value_size
 * bytes (FORM pairs; 0: 4). */
int clprim_bench_merge(bench *b, const char *form, clprim_type type, size_t value_size,
                       const size_t *sizes, size_t count, const char *algos,
                       const char *csv_path, int progress);

/* clprim-bench --histogram KIND (bench_histogram.c): n samples of KIND
 * (uint8 over 256 even bins, float in [0, 1) over 1024, uint32 over
 * 65,536) counted into uint32 counts; DIST "uniform" or "one" (every
 * sample in one bin: the skewed case). */
int clprim_bench_histogram(bench *b, const char *kind, const char *dist, const size_t *sizes,
                           size_t count, const char *algos, const char *csv_path, int progress);

/* clprim-bench --top-k K[,K...] (bench_top_k.c): the k largest (smallest)
 * of n keys of `type` from distribution dist (uniform, unit, few, sorted),
 * with values of value_size bytes (0, 4 or 8), sorted output unless
 * unsorted. */
int clprim_bench_top_k(bench *b, const char *ks, const char *dist, clprim_type type,
                       size_t value_size, int smallest, int unsorted, const size_t *sizes,
                       size_t count, const char *algos, const char *csv_path, int progress);
/* --repeat-check N (issue 33): each algorithm's scan (or reduce) of the
 * issue's input, n random floats in [-0.7, 1.3), N times at b->repro, and a
 * hash of each result's bits; prints how many distinct results came.
 * Returns 1 when a level other than NONE gave more than one. */
int clprim_bench_repeat_check(bench *b, clprim_type type, clprim_op op, int exclusive, int reduce,
                              const size_t *sizes, size_t count, const char *algos, int runs);

#endif

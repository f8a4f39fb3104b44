/* SPDX-License-Identifier: MIT */
/* What clprim-bench (clprim-bench.c, first_call.c, bench_*.c) and clprim-tune
 * share; the clock and the ceilings are bench_timing.c's. */
#ifndef CLPRIM_BENCH_H
#define CLPRIM_BENCH_H

#include <clprim.h>

#define MAX_REPS 101

typedef struct bench {
    clprim_context *ctx;
    cl_command_queue q;
    cl_mem in, out, sink;
    cl_kernel copy4, read4, gate;
    int reps, batch;
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

/* Monotonic clock in microseconds. */
double now_us(void);
/* Median of v[0 .. n) (sorts v). */
double median(double *v, int n);

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
 * with values of value_size bytes (0, 4 or 8), DIST uniform, few or sorted. */
int clprim_bench_sort(bench *b, const char *dist, clprim_type type, size_t value_size,
                      const size_t *sizes, size_t count, const char *algos, const char *csv_path,
                      int progress);

#endif

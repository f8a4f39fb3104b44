/* SPDX-License-Identifier: MIT */
/* What tools/clprim-bench.c and tools/first_call.c (one executable) share. */
#ifndef CLPRIM_BENCH_H
#define CLPRIM_BENCH_H

/* Monotonic clock in microseconds. */
double now_us(void);
/* Median of v[0 .. n) (sorts v). */
double median(double *v, int n);

/* clprim-bench --first-call (first_call.c). */
int clprim_bench_first_call(const char *self, const char *csv_path, int reps);
int clprim_bench_first_call_child(const char *dir);

#endif

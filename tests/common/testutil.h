/* SPDX-License-Identifier: MIT */
/* Test helpers: seeded random inputs and runners for one scan or reduce
 * case that poison the output and check all of it against the host
 * references (tests/reference/, shared with clprim-bench). */
#ifndef CLPRIM_TESTUTIL_H
#define CLPRIM_TESTUTIL_H

#include <clprim.h>
#include <stddef.h>
#include <stdint.h>

/* The run's base seed: $CLPRIM_TEST_SEED, else taken from the clock. */
uint64_t tu_seed(void);
uint64_t tu_rand(uint64_t *state); /* splitmix64 */

/* A context on the device under test ($CLPRIM_DEVICE, else the default);
 * aborts the test program when none can be made. */
clprim_context *tu_context(void);

typedef struct tu_case {
    clprim_scan_algorithm algorithm;
    clprim_type type;
    clprim_op op;
    int exclusive;
    size_t n;
    size_t in_off, out_off;
    int in_place;      /* in and out are one buffer (offsets then equal) */
    uint64_t seed;
    int init;          /* clprim_scan_init with a random carry-in */
} tu_case;

/* Runs one case on the device and compares it with the host reference.
 * Returns 0 when it matches; otherwise prints the case (with its seed) and
 * the first mismatches, and returns -1. */
int tu_run_case(clprim_context *ctx, const tu_case *c);

/* "multilevel int32 sum exclusive n=... in_off=... seed=..." */
void tu_describe(const tu_case *c, char *buf, size_t size);

typedef struct tu_reduce_case {
    clprim_reduce_algorithm algorithm;
    clprim_type type;
    clprim_op op;
    size_t n, in_off, result_off;
    uint64_t seed;
} tu_reduce_case;

/* Runs one reduce on the device, compares it with the host reference and
 * checks that nothing else in the result buffer changed; 0 when it matches. */
int tu_run_reduce_case(clprim_context *ctx, const tu_reduce_case *c);
void tu_describe_reduce(const tu_reduce_case *c, char *buf, size_t size);

/* Whether a call was refused as expected: status `want` and the context's
 * last error containing `needle`. 0 when so; otherwise prints what came
 * instead and returns -1. */
int tu_refused(clprim_context *ctx, clprim_status got, clprim_status want, const char *needle);

/* A buffer of ctx's cl_context (at least 1 byte), holding a copy of src
 * when it is not NULL (written through ctx's queue); fails the test when
 * it cannot be made. */
cl_mem tu_buffer(clprim_context *ctx, size_t bytes, const void *src, cl_mem_flags flags);

/* A key of type t (its bits in the low bytes) at the order's edges, r
 * choosing: floats -0.0, +0.0, +-inf, a NaN of either sign with a random
 * payload, the smallest denormals, +-1; integers 0, all ones, the sign bit
 * alone, all ones but it. */
uint64_t tu_special_key(clprim_type t, uint64_t r);

/* The value of ` name=` in a clprim_context_tuning line; fails the test
 * when the line has none. */
size_t tu_row_value(const char *line, const char *name);

#endif

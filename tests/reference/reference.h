/* SPDX-License-Identifier: MIT */
/* Host references of clprim's primitives: one per primitive, shared by the
 * tests and clprim-bench so that the two can never disagree about what a
 * right answer is. Generated from the same X-macro tables as the library
 * (clprim.h), so every type and operator is covered the same way. */
#ifndef CLPRIM_REFERENCE_H
#define CLPRIM_REFERENCE_H

#include <clprim.h>
#include <stdint.h>
#include <stdio.h>

/* splitmix64 */
uint64_t clprim_ref_rand(uint64_t *state);

/* n random elements for (type, op), never all zeros: integers span the whole
 * range for sum, min and max (so sums wrap); products use small odd values
 * so results stay non-zero. Floats are in [-1, 1) for sum, near 1 for
 * product (neither vanishing nor overflowing), anything finite for min/max. */
void clprim_ref_fill(clprim_type type, clprim_op op, void *x, size_t n, uint64_t *state);

/* The operator's identity for the type, in host bytes (clprim_type_size). */
void clprim_ref_identity(clprim_type type, clprim_op op, void *out);

/* Scan in the type's own arithmetic, as a sequential C loop computes it
 * (integers wrap; floats in their own precision): the bench's sequential
 * column. out may equal x. */
void clprim_ref_scan(clprim_type type, clprim_op op, int exclusive, const void *x, void *out,
                     size_t n);

/* Checks got[0..n) against the scan of x[0..n): integers and float min/max
 * exactly; float sums within eps * (32 + 2 log2 n) * (running sum of |x|)
 * (the association order of any of clprim's algorithms), products within a
 * relative bound growing like sqrt(i). Returns the number of mismatches
 * and, when report is not NULL, prints the first few (labelled `what`). */
size_t clprim_ref_scan_check(clprim_type type, clprim_op op, int exclusive, const void *x,
                             const void *got, size_t n, FILE *report, const char *what);

/* Checks *got (one element) against the reduction of x[0..n) (the identity
 * for n = 0), with the tolerance of the scan's last element. 0 when right. */
size_t clprim_ref_reduce_check(clprim_type type, clprim_op op, const void *x, size_t n,
                               const void *got, FILE *report, const char *what);

#endif

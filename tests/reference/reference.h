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

/* Float or double inputs (type) for min or max (op) at the rule's edges
 * (clprim.h, "Arithmetic"), n >= 1. nan 0: numbers of one sign (min:
 * positive, max: negative, infinities included) and zeros of the other
 * sign's kind, +0.0 for min, -0.0 for max, until element k, the first zero
 * of the opposite sign (which then decides every later result), followed by
 * zeros of both signs and numbers. nan 1: numbers of both signs and zeros of
 * both signs, a NaN (random sign and payload) at element k in the second
 * half, sometimes a second NaN after it. Returns k. */
size_t clprim_ref_fill_edges(clprim_type type, clprim_op op, int nan, void *x, size_t n,
                             uint64_t *state);
/* One float or double element into out: a NaN of random sign and payload
 * (r's bits) when nan, else the value v. */
void clprim_ref_float(clprim_type type, int nan, double v, uint64_t r, void *out);

/* The operator's identity for the type, in host bytes (clprim_type_size). */
void clprim_ref_identity(clprim_type type, clprim_op op, void *out);

/* Scan in the type's own arithmetic, as a sequential C loop computes it
 * (integers wrap; floats in their own precision): the bench's sequential
 * column. out may equal x. */
void clprim_ref_scan(clprim_type type, clprim_op op, int exclusive, const void *x, void *out,
                     size_t n);

/* Checks got[0..n) against the scan of x[0..n): integers and float min/max
 * exactly (float min / max by clprim.h's rule: a NaN result matches any
 * NaN, zeros match by sign); float sums within eps * (32 + 2 log2 n) * (running sum of |x|)
 * (the association order of any of clprim's algorithms), products within a
 * relative bound growing like sqrt(i). Returns the number of mismatches
 * and, when report is not NULL, prints the first few (labelled `what`). */
size_t clprim_ref_scan_check(clprim_type type, clprim_op op, int exclusive, const void *x,
                             const void *got, size_t n, FILE *report, const char *what);

/* Checks *got (one element) against the reduction of x[0..n) (the identity
 * for n = 0), with the tolerance of the scan's last element. 0 when right. */
size_t clprim_ref_reduce_check(clprim_type type, clprim_op op, const void *x, size_t n,
                               const void *got, FILE *report, const char *what);

/* ---- segmented scan and reduce (clprim_segmented_scan, _reduce) ---- */

/* Checks got against the segmented scan (reduce 0: got[i] for every i, each
 * segment scanned on its own) or reduce (reduce 1: got[k], segment k's
 * reduction, the identity for an empty one) of x[0..n), segment k being
 * [starts[k], starts[k + 1]) for k < m (starts[m] = n; a repeated start is
 * an empty segment). Each segment is checked as clprim_ref_scan_check and
 * clprim_ref_reduce_check check it; returns the number of mismatches. */
size_t clprim_ref_segmented_check(clprim_type type, clprim_op op, int exclusive, int reduce,
                                  const void *x, const size_t *starts, size_t m, const void *got,
                                  FILE *report, const char *what);

/* ---- compaction (clprim_select, _partition, _unique, _run_length_encode) ---- */

/* keep[i] = whether x[i] <pred> *value, for a comparison predicate of a
 * built-in type (IEEE for floats). */
void clprim_ref_compare(clprim_type type, clprim_predicate pred, const void *value, const void *x,
                        size_t n, unsigned char *keep);
/* keep[i] = whether x[i] starts a run: i == 0, or x[i] differs from x[i - 1]
 * (== for built-in types, IEEE for floats; bytewise for elements of elem
 * bytes when builtin is 0). */
void clprim_ref_heads(int builtin, clprim_type type, size_t elem, const void *x, size_t n,
                      unsigned char *keep);
/* The kept elements in order into out (and their indices, when indices is
 * not NULL); returns how many. */
size_t clprim_ref_select(const void *x, size_t n, size_t elem, const unsigned char *keep,
                         void *out, cl_ulong *indices);
/* All n elements: the kept ones in order, then the rejected ones in order
 * (reversed: from the end backwards); returns how many were kept. */
size_t clprim_ref_partition(const void *x, size_t n, size_t elem, const unsigned char *keep,
                            int reversed, void *out);
/* Run lengths of the runs whose heads keep marks (lengths[r], r < runs). */
size_t clprim_ref_run_lengths(const unsigned char *keep, size_t n, cl_ulong *lengths);

/* ---- radix sort (clprim_sort, clprim_split) ---- */

/* The ordered form of a key (its bits in the low bytes of `key`) as
 * clprim.h states it: unsigned keys as they are; signed ones with the sign
 * bit flipped; floats and doubles: a NaN every bit 1, a negative key every
 * bit flipped, any other the sign bit set; descending: every bit of that
 * flipped, except a NaN's. Written from the header's words, not from the
 * kernels. */
uint64_t clprim_ref_ordered(clprim_type key_type, int descending, uint64_t key);

/* perm[i] = the input index of output i of a stable sort of n keys of
 * key_type as clprim_sort documents it: numeric order (floats as IEEE with
 * -0.0 before +0.0, NaNs last in either direction, in input order; merge
 * sort by comparisons, independent of any bit tricks), or, when [begin_bit,
 * end_bit) is not the whole key, ascending by those bits of the ordered
 * form (clprim_ref_ordered, descending included), ties in input order. */
void clprim_ref_sort(clprim_type key_type, int descending, unsigned begin_bit, unsigned end_bit,
                     const void *keys, size_t n, size_t *perm);
/* The index of the first i at which got (n elements of elem bytes) differs
 * from x[perm[i]], n when none does. */
size_t clprim_ref_permuted_check(const void *x, const size_t *perm, size_t elem, const void *got,
                                 size_t n);

/* For large n, without a host sort: the first i at which got (n keys of
 * key_type, sorted as clprim_sort sorts the whole key) is out of order, n
 * when none is. With index (each output's input position, as values that
 * held their index), also that index is a permutation, that got[i] is
 * keys[index[i]] and that equal keys keep input order; without, that got
 * holds the keys of `keys` (a hash of the multiset). */
size_t clprim_ref_sorted_check(clprim_type key_type, int descending, const void *keys, size_t n,
                               const void *got, const cl_uint *index);

/* ---- searches (clprim_lower_bound, clprim_upper_bound) ---- */

/* out[j] = the lower bound (upper 1: the upper bound) of queries[j] in n
 * keys of key_type as clprim.h states it: the first i in [0, n] whose key
 * is not before the query (upper: comes after it), comparing as
 * clprim_ref_sort does (numeric; -0.0 before +0.0; NaNs after everything,
 * equal to each other, last in either direction); a plain binary search,
 * so the keys must be sorted in that order. */
void clprim_ref_bounds(clprim_type key_type, int descending, int upper, const void *keys, size_t n,
                       const void *queries, size_t m, uint64_t *out);
/* For large m, without a search: the first j at which got[j] (positions of
 * index_size bytes, 4 or 8) is not queries[j]'s bound in the sorted keys
 * (it must be in [0, n], the key before it must count before the query
 * and the key at it must not), m when every one is. */
size_t clprim_ref_bounds_check(clprim_type key_type, int descending, int upper, const void *keys,
                               size_t n, const void *queries, size_t m, const void *got,
                               size_t index_size);

/* ---- histograms (clprim_histogram) ---- */

/* The bin sample x (one sample_type value in host bytes) counts in as
 * clprim.h defines it, or bins when it counts nowhere: even bins over
 * [lower, upper) when edges is NULL (integers in exact 128-bit arithmetic,
 * floats in their own type without contraction), else bins between the
 * bins + 1 host edges (found by a binary search). */
size_t clprim_ref_histogram_bin(clprim_pixel_type sample_type, size_t bins, double lower,
                                double upper, const void *edges, const void *x);
/* Adds the bins of n samples to counts[0 .. bins). */
void clprim_ref_histogram(clprim_pixel_type sample_type, size_t bins, double lower, double upper,
                          const void *edges, const void *samples, size_t n, uint64_t *counts);

/* ---- top-k (clprim_top_k) ---- */

/* perm[0 .. k) = the input indices of the keys clprim_top_k chooses, in
 * the order of clprim_sort with descending = largest: the first k of the
 * stable sort's permutation (clprim_ref_sort, comparisons; for n above
 * 2^22, to bound the host's time and memory, the same keys found digit
 * by digit over clprim_ref_ordered's form, ties lowest index first, then
 * the k sorted by (ordered form, index)). k <= n. */
void clprim_ref_top_k(clprim_type key_type, int largest, const void *keys, size_t n, size_t k,
                      size_t *perm);
/* Checks got_keys (k keys of key_type) and got_values (k values of
 * value_size bytes; NULL when value_size is 0) against the top k of keys
 * and values (n of each): sorted, position by position, bit for bit;
 * unsorted, as a multiset of (key, value) pairs (the same pairs, any
 * order). Returns the number of mismatches and, when report is not NULL,
 * prints the first few (labelled `what`). */
size_t clprim_ref_top_k_check(clprim_type key_type, int largest, int sorted, const void *keys,
                              const void *values, size_t value_size, size_t n, size_t k,
                              const void *got_keys, const void *got_values, FILE *report,
                              const char *what);

/* Checks got (row pitch got_pitch elements) against the w x h inclusive
 * summed-area table of x (w x h, tight, already in the table's type): as
 * clprim_ref_scan_check does, integers and float min / max exactly, float
 * sums within the depth-bounded rounding of the sum of magnitudes. Returns
 * the number of mismatches, printing the first few when report is set. */
size_t clprim_ref_sat_check(clprim_type type, clprim_op op, const void *x, const void *got,
                            size_t got_pitch, size_t w, size_t h, FILE *report, const char *what);

/* ---- merges (clprim_merge) ---- */

/* src[k] = where output k of a stable merge of a (na keys) and b (nb keys)
 * comes from: i for a[i], na + j for b[j]. Keys of elem bytes, ordered by
 * less(x, y, user) (nonzero: x comes before y); a key of b goes out before
 * one of a only when it comes before it (ties: a's first). The plain
 * two-finger merge, independent of any co-rank. */
void clprim_ref_merge_by(const void *a, size_t na, const void *b, size_t nb, size_t elem,
                         int (*less)(const void *x, const void *y, const void *user),
                         const void *user, size_t *src);
/* The same for keys of key_type in clprim_sort's order (clprim_ref_sort's
 * comparison: numeric, -0.0 before +0.0, NaNs last and tied), descending
 * as clprim_sort leaves them. */
void clprim_ref_merge(clprim_type key_type, int descending, const void *a, size_t na,
                      const void *b, size_t nb, size_t *src);
/* The first k at which got (n elements of elem bytes) differs from the
 * element src[k] names (a's below na, else b's at src[k] - na); n when
 * none does. */
size_t clprim_ref_merged_check(const void *a, size_t na, const void *b, size_t elem,
                               const size_t *src, const void *got, size_t n);
/* The PORTABLE reduce of n float or double elements (sum), in the order
 * cl/reduce_abi.h fixes: *out gets the bits every device must give. -1 for
 * other types (or no memory). */
int clprim_ref_reduce_portable(clprim_type type, const void *x, size_t n, void *out);
/* The PORTABLE scan (sum) of n float or double elements from the carry-in
 * *init (NULL: none), inclusive or exclusive, in the order
 * cl/portable_abi.h fixes. -1 for other types (or no memory). */
int clprim_ref_scan_portable(clprim_type type, int exclusive, const void *init, const void *x,
                             size_t n, void *out);
/* The PORTABLE summed-area table (sum) of a w x h float or double image
 * (rows of w), each row folded in order from the left, then each column
 * from the top; exclusive: the (w + 1) x (h + 1) table with its identity
 * border. -1 for other types. */
int clprim_ref_sat_portable(clprim_type type, int exclusive, const void *in, size_t w, size_t h,
                            void *out);
/* The RUN_TO_RUN segmented scan's order (docs/algorithms.md: tiles of wg
 * work-items x items elements, the tiles' pairs folded left to right) for
 * n float or double elements summed, heads[i] the segments starting at element i
 * (heads[0] > 0): incl[i] gets the inclusive value's bits where that order
 * alone fixes them, known[i] = 1 there (the first run of every tile, which
 * takes the look-back's carry, and everything after a head in its run);
 * known[i] = 0 where the work-group's scan tree (the device's SIMD form)
 * decides. -1 for other types, bad sizes or no memory. */
int clprim_ref_segmented_run_to_run(clprim_type type, const void *x, const unsigned *heads,
                                    size_t n, size_t wg, size_t items, void *incl,
                                    unsigned char *known);

#endif

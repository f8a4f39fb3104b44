/* SPDX-License-Identifier: MIT */
/* Reduce kernels. Each work-group folds its part of `in` to one value and
 * writes it to out[out_off + group]; the host runs levels until one value is
 * left, the last level writing the caller's result (src/reduce.c).
 *
 *   reduce_naive       the teaching kit's first tree: each work-item loads two
 *                      elements, the stride doubles, work-item t works when
 *                      t % stride == 0 (divergent: active work-items spread out);
 *   reduce_convergent  the stride halves from the work-group size and
 *                      work-items t < stride work (contiguous: whole SIMD groups
 *                      retire); combines element t with t + stride, which
 *                      reorders, so a non-commutative OP (CLPRIM_COMMUTATIVE
 *                      0) keeps the active work-items contiguous by mapping
 *                      work-item t to element 2 * stride * t instead;
 *   reduce_fast        a bounded grid striding over the input with 16-byte
 *                      vector loads, REDUCE_UNROLL loads in flight per
 *                      work-item (a non-commutative OP: one contiguous range
 *                      per work-item instead), then a SIMD-group / work-group
 *                      combine, and
 *                      the last work-group to finish combines the partials.
 *                      Its order depends only on n, the offset and the grid,
 *                      so results are the same every run (the one atomic
 *                      counts finished groups; no value goes through it);
 *   reduce_chunk       CHUNKED, the CPU form: one work-item per chunk
 *                      (common/chunk.clh). */
#ifndef CLPRIM_ASSEMBLED
#include "reduce_abi.h"
#include "common/elem.clh"
#include "common/simd.clh"
#include "common/chunk.clh"
#endif

#define REDUCE_KERNEL kernel CLPRIM_KERNEL_ATTRS void
#define REDUCE_ARGS global const IN_T *in, ulong in_off, ulong n, global T *out, ulong out_off

/* The trees' first step: work-item t loads elements t and WG_SIZE + t of its
 * work-group's 2 * WG_SIZE (identity past n). */
inline void clprim_load_two(local T *partial, global const IN_T *in, ulong n)
{
    const uint t = get_local_id(0);
    const ulong start = (ulong)get_group_id(0) * 2 * WG_SIZE;
    partial[t] = clprim_load_in(in, start + t, n);
    partial[WG_SIZE + t] = clprim_load_in(in, start + WG_SIZE + t, n);
}

/* CHUNKED (common/chunk.clh): each chunk's fold; runs with any work-group
 * size (the host launches one work-item each). */
kernel void reduce_chunk(REDUCE_ARGS)
{
    const T run = clprim_chunk_fold(in + in_off, n);
    if (get_local_id(0) == 0)
        out[out_off + get_group_id(0)] = run;
}

REDUCE_KERNEL reduce_naive(REDUCE_ARGS)
{
    local T partial[2 * WG_SIZE];
    const uint t = get_local_id(0);
    clprim_load_two(partial, in + in_off, n);
    for (uint stride = 1; stride <= WG_SIZE; stride *= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t % stride == 0)
            partial[2 * t] = OP(partial[2 * t], partial[2 * t + stride]);
    }
    if (t == 0)
        out[out_off + get_group_id(0)] = partial[0];
}

REDUCE_KERNEL reduce_convergent(REDUCE_ARGS)
{
    local T partial[2 * WG_SIZE];
    const uint t = get_local_id(0);
    clprim_load_two(partial, in + in_off, n);
#if CLPRIM_COMMUTATIVE
    for (uint stride = WG_SIZE; stride >= 1; stride /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < stride)
            partial[t] = OP(partial[t], partial[t + stride]);
    }
#else
    for (uint stride = 1; stride <= WG_SIZE; stride *= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < WG_SIZE / stride)
            partial[2 * stride * t] = OP(partial[2 * stride * t], partial[2 * stride * t + stride]);
    }
#endif
    if (t == 0)
        out[out_off + get_group_id(0)] = partial[0];
}

#if CLPRIM_COMMUTATIVE
/* Vector v of the input's aligned body (from element head): VEC elements in
 * one 16-byte access of T, or of the input type mapped as it arrives. */
inline TV clprim_reduce_vec(global const IN_T *in, ulong head, ulong v)
{
#if CLPRIM_TRANSFORM && VEC > 1
    return clprim_in_vec(((global const INV *)(in + head))[v], head + v * VEC);
#else
    return ((global const TV *)(in + head))[v];
#endif
}
#endif

/* With `state` (a zeroed counter, then one slot per work-group) the grid
 * finishes in one launch: each work-group stores its partial, fences and
 * counts itself done; the last one folds the partials in group order (so the
 * result does not depend on which group finished last) and writes the result,
 * and resets the counter for the next call. Without it (state == NULL) each
 * work-group writes its partial to out[out_off + group] for a second launch. */
REDUCE_KERNEL reduce_fast(REDUCE_ARGS, global uchar *state)
{
    local T scratch[CLPRIM_WG_SCAN_SCRATCH];
    local uint last;
    const ulong gid = get_global_id(0), threads = get_global_size(0);
    in += in_off;
#if CLPRIM_COMMUTATIVE
    /* elements before the first 16-byte boundary, the aligned vectors, the rest
     * (the buffer itself is aligned far beyond 16 bytes) */
    const ulong head = min((ulong)((VEC - in_off % VEC) % VEC), n);
    const ulong vectors = (n - head) / VEC, tail = head + vectors * VEC;
    T acc = IDENTITY;
    if (gid < head)
        acc = clprim_in(in[gid], gid);
    ulong v = gid;
    /* one accumulator per load in flight: no chain of dependent adds */
    T part[REDUCE_UNROLL];
    for (uint k = 0; k < REDUCE_UNROLL; ++k)
        part[k] = IDENTITY;
    for (; v + (REDUCE_UNROLL - 1) * threads < vectors; v += REDUCE_UNROLL * threads) {
        TV x[REDUCE_UNROLL];
        for (uint k = 0; k < REDUCE_UNROLL; ++k)
            x[k] = clprim_reduce_vec(in, head, v + k * threads);
        for (uint k = 0; k < REDUCE_UNROLL; ++k)
            part[k] = OP(part[k], clprim_fold_vec(x[k]));
    }
    for (uint k = 0; k < REDUCE_UNROLL; ++k)
        acc = OP(acc, part[k]);
    for (; v < vectors; v += threads)
        acc = OP(acc, clprim_fold_vec(clprim_reduce_vec(in, head, v)));
    if (tail + gid < n)
        acc = OP(acc, clprim_in(in[tail + gid], tail + gid));
#else
    /* in order: work-item gid (global order = group order, then work-item
     * order, as the combines below keep it) folds one contiguous range */
    const ulong chunk = (n + threads - 1) / threads, stop = min(n, gid * chunk + chunk);
    T acc = IDENTITY;
    for (ulong i = gid * chunk; i < stop; ++i)
        acc = OP(acc, clprim_in(in[i], i));
#endif
    T total;
    clprim_wg_exscan(acc, scratch, &total);
    const uint lid = get_local_id(0), groups = get_num_groups(0);
    if (!state) {
        if (lid == 0)
            out[out_off + get_group_id(0)] = total;
        return;
    }
    global uint *done = (global uint *)state;
    volatile global T *partials = (volatile global T *)(state + REDUCE_STATE_PARTIALS_OFFSET);
    if (lid == 0) {
        partials[get_group_id(0)] = total;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        last = atomic_inc(done) == groups - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last)
        return; /* the whole work-group leaves together */
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    const uint per = (groups + WG_SIZE - 1) / WG_SIZE, end = min(groups, (lid + 1) * per);
    acc = IDENTITY;
    for (uint g = lid * per; g < end; ++g)
        acc = OP(acc, partials[g]);
    clprim_wg_exscan(acc, scratch, &total);
    if (lid == 0) {
        out[out_off] = total;
        atomic_xchg(done, 0u);
    }
}

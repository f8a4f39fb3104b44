/* SPDX-License-Identifier: MIT */
/* Searches in sorted keys: the lower and upper bound of each query, by one
 * binary search per query in global memory (BINARY), from a sample of the
 * keys in local memory (CACHED), or from a window of the keys per chunk of
 * the queries (WINDOW). Validation, arguments and the enqueue
 * chain are the launch layer's; the contract with the kernels is
 * cl/search_abi.h, and the key order with its kmode is clprim_sort's
 * (cl/common/key_order.clh, cl/sort_abi.h), so that what the sort sorted
 * is searched in the same order. */
#include "internal.h"

#include "search_abi.h"

#include <stdio.h>
#include <string.h>

/* The arguments of one call, for search_body. */
typedef struct search_args {
    const clprim_search_desc *d;
    int upper; /* 0: lower bound, 1: upper bound */
    cl_mem keys, queries, out;
    size_t keys_off, n, queries_off, m, out_off;
    /* SORT_QUERIES: which step of the call (PHASE_SEARCH: the queries are
     * the held buffer's sorted ones), the buffer held across them, and
     * where its sorted positions lie (perm_kind 1: uint, 2: ulong) */
    int phase;
    clprim__pool_buf **held;
    cl_command_queue *held_queue;
    cl_mem perm;
    cl_ulong perm_off;
    cl_uint perm_kind;
} search_args;

enum { PHASE_ONE, PHASE_HOLD, PHASE_SEARCH };

/* [cached] */
static const char *const kernels[2] = {"search_binary", "search_cached"};

/* The kernels' common arguments, in their order. */
#define SEARCH_KARGS(a)                                                                         \
    CLPRIM__ARG((a)->keys), CLPRIM__ARG(keys_off), CLPRIM__ARG(n), CLPRIM__ARG((a)->queries),  \
        CLPRIM__ARG(queries_off), CLPRIM__ARG(m), CLPRIM__ARG((a)->out), CLPRIM__ARG(out_off), \
        CLPRIM__ARG(wide_out), CLPRIM__ARG(kmode), CLPRIM__ARG(upper)

/* Bytes per position of index type t; 0 for a type that holds no
 * positions. */
static size_t index_size(clprim_type t)
{
    return t == CLPRIM_TYPE_UINT32 || t == CLPRIM_TYPE_UINT64 ? clprim_type_size(t) : 0;
}

/* The descriptor's key and index types, lock not held (the buffers'
 * element sizes depend on them, so they are checked before the launch
 * layer checks the buffers). */
static clprim_status check_desc(clprim_context *ctx, const clprim_search_desc *d, size_t n)
{
    if (!clprim_type_size(d->key_type))
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE,
                                     "desc->key_type %d is not a key type (uint32, int32, float, "
                                     "uint64, int64 or double)", (int)d->key_type);
    if (!index_size(d->index_type)) {
        const char *name = clprim_type_name(d->index_type);
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->index_type %d (%s) is not CLPRIM_TYPE_UINT32 or "
                                     "CLPRIM_TYPE_UINT64", (int)d->index_type,
                                     name ? name : "not a clprim_type");
    }
    if (d->index_type == CLPRIM_TYPE_UINT32 && (cl_ulong)n > 0xffffffffull)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->index_type uint32 cannot hold the positions of n = %zu "
                                     "keys (up to n); use CLPRIM_TYPE_UINT64", n);
    return CLPRIM_SUCCESS;
}

/* The program for keys of key_size bytes (one for both algorithms and
 * both bounds; with the kind compiled in, one per kind and direction),
 * the cached kernel bounded to the row's registers. */
static clprim_status search_program(clprim__launch *l, const clprim__search_tuning *t,
                                    cl_uint kmode, clprim__program **prog)
{
    char params[256]; /* four short lines of numbers */
    const clprim__program_spec spec = {.file = "search.cl",
                                       .element = l->elem.defines,
                                       .params = params,
                                       .wg_size = t->wg_size,
                                       .bound_entry = t->max_regs ? kernels[1] : NULL,
                                       .bound_regs = t->max_regs,
                                       .tuning = t->source};
    snprintf(params, sizeof params,
             "#define SEARCH_SAMPLES %u\n#define SEARCH_ITEMS %u\n#define SEARCH_KMODE_IN %u\n"
             "#define SEARCH_KMODE_VALUE %uu\n#define SEARCH_WINDOW %u\n",
             t->samples, t->items, t->kind_in_program, t->kind_in_program ? kmode : 0u,
             t->window);
    return clprim__program_get(l->ctx, &spec, prog);
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* WINDOW (n >= 1, m >= 1): the chunks' first positions, then a work-group
 * per chunk of `chunk` queries. */
static clprim_status search_window(clprim__launch *l, const search_args *a,
                                   clprim__program *prog, size_t chunk)
{
    const clprim_search_desc *d = a->d;
    const cl_uint kmode = clprim__key_kmode(d->key_type, d->descending);
    const cl_uint wide_out = d->index_type == CLPRIM_TYPE_UINT64, upper = (cl_uint)a->upper;
    const cl_ulong keys_off = a->keys_off, n = a->n, queries_off = a->queries_off, m = a->m,
                   out_off = a->out_off;
    const size_t wg = clprim__program_wg_size(prog);
    const cl_ulong chunks = (m + chunk - 1) / chunk;
    clprim__pool_buf *buf;
    cl_mem bounds;
    clprim_status st = clprim__launch_temp(l, (size_t)(chunks + 1) * 8, &buf);
    if (st != CLPRIM_SUCCESS)
        return st;
    bounds = clprim__pool_mem(buf);
    {
        const cl_mem perm = a->perm ? a->perm : a->keys;
        const clprim__arg kargs[] = {SEARCH_KARGS(a),         CLPRIM__ARG(bounds),
                                     CLPRIM__ARG(chunks),     CLPRIM__ARG(perm),
                                     CLPRIM__ARG(a->perm_off), CLPRIM__ARG(a->perm_kind)};
        /* the bounds kernel takes all but the permutation's three */
        st = clprim__launch_kernel(l, prog, "search_window_bounds", kargs,
                                   CLPRIM__NUM_ARGS(kargs) - 3, (size_t)(chunks / wg + 1), wg);
        if (st == CLPRIM_SUCCESS)
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "search_window", kargs, (size_t)chunks, wg);
    }
    return st;
}

/* SORT_QUERIES' buffer: the sorted queries, then (at whole positions)
 * positions 0 .. m - 1 to sort with them, then the sorted positions. */
static size_t perm_size(size_t m)
{
    return (cl_ulong)m > 0xffffffffull ? 8 : 4;
}

static size_t perm_first(size_t m, size_t ks)
{
    const size_t ps = perm_size(m);
    return (m * ks + ps - 1) / ps; /* in positions */
}

/* SORT_QUERIES, first step: the buffer held for the call, the positions
 * written into it. */
static clprim_status hold_sorted(clprim__launch *l, const search_args *a, clprim__program *prog,
                                 size_t wg)
{
    const size_t ks = clprim_type_size(a->d->key_type), ps = perm_size(a->m);
    const cl_ulong first = perm_first(a->m, ks), m = a->m;
    const cl_uint wide = ps == 8;
    clprim_status st = clprim__pool_acquire(l->ctx, l->chain.queue, (first + 2 * a->m) * ps,
                                            a->held);
    if (st != CLPRIM_SUCCESS)
        return st;
    *a->held_queue = l->chain.queue;
    {
        const cl_mem h = clprim__pool_mem(*a->held);
        const clprim__arg kargs[] = {CLPRIM__ARG(h), CLPRIM__ARG(first), CLPRIM__ARG(m),
                                     CLPRIM__ARG(wide)};
        return CLPRIM__LAUNCH_KERNEL(l, prog, "search_iota", kargs,
                                     min_size(a->m / wg + 1, l->ctx->info.compute_units * 8), wg);
    }
}

/* One call, validated by the launch layer: one kernel over a bounded grid
 * that loops over the queries. */
static clprim_status search_body(clprim__launch *l, const void *args)
{
    const search_args *a = args;
    const clprim_search_desc *d = a->d;
    clprim_context *ctx = l->ctx;
    const size_t ks = clprim_type_size(d->key_type);
    const cl_uint kmode = clprim__key_kmode(d->key_type, d->descending);
    const cl_uint wide_out = d->index_type == CLPRIM_TYPE_UINT64, upper = (cl_uint)a->upper;
    const cl_ulong keys_off = a->keys_off, n = a->n, queries_off = a->queries_off, m = a->m,
                   out_off = a->out_off;
    clprim__search_tuning t = clprim__search_tuning_for(ctx, ks, a->n);
    clprim__program *prog;
    size_t wg, per_group, groups;
    int cached;
    clprim_status st;

    if (a->m == 0)
        return CLPRIM_SUCCESS;
    /* the samples and the last key, or the window and the two keys beside
     * it, are the kernels' only local memory */
    while (t.samples > 2 && (cl_ulong)t.samples * ks > ctx->info.local_mem_size)
        t.samples /= 2;
    while (t.window > 1 && (cl_ulong)(t.window + 2) * ks > ctx->info.local_mem_size)
        t.window /= 2;
    st = search_program(l, &t, kmode, &prog);
    if (st != CLPRIM_SUCCESS)
        return st;
    wg = clprim__program_wg_size(prog);
    if (a->phase == PHASE_HOLD)
        return hold_sorted(l, a, prog, wg);
    if (a->phase == PHASE_SEARCH) {
        st = search_window(l, a, prog, wg * t.items);
        clprim__pool_release(*a->held, l->chain.queue, !l->chain.out_of_order, l->chain.last,
                             st != CLPRIM_SUCCESS);
        *a->held = NULL;
        return st;
    }
    if (n > 0 && (d->algorithm == CLPRIM_SEARCH_WINDOW || d->algorithm == CLPRIM_SEARCH_AUTO ||
                  d->algorithm == CLPRIM_SEARCH_SORT_QUERIES))
        return search_window(l, a, prog, wg * t.items);
    /* n = 0 needs no samples (every position 0), and an interval of 2^32
     * keys or more would pass the kernel's 32-bit positions within one */
    cached = d->algorithm != CLPRIM_SEARCH_BINARY && n > 0 &&
             SEARCH_STRIDE(n, (cl_ulong)t.samples) <= SEARCH_MAX_STRIDE;
    per_group = cached ? wg * t.items : wg;
    groups = min_size(a->m / per_group + (a->m % per_group != 0),
                      (size_t)ctx->info.compute_units *
                          (cached ? t.groups_per_cu : t.binary_groups_per_cu));
    {
        const clprim__arg kargs[] = {SEARCH_KARGS(a)};
        return CLPRIM__LAUNCH_KERNEL(l, prog, kernels[cached], kargs, groups ? groups : 1, wg);
    }
}

static clprim_status launch(clprim_context *ctx, cl_command_queue queue, const search_args *a,
                            cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const clprim_search_desc *d = a->d;
    const size_t ks = d ? clprim_type_size(d->key_type) : 0;
    const size_t isz = d ? index_size(d->index_type) : 0;
    const clprim__call call = {
        .desc = d,
        .type = ks == 8 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32, /* the keys' bits */
        .op = CLPRIM_OP_SUM,
        .algorithm = d ? (int)d->algorithm : 0,
        .algorithm_count = CLPRIM_SEARCH_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_search_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 3,
        .buffers = {{"keys", a->keys, a->keys_off, a->n, ks, 0},
                    {"queries", a->queries, a->queries_off, a->m, ks, 0},
                    {"out", a->out, a->out_off, a->m, isz, 1}}};
    if (event)
        *event = NULL;
    if (ctx && d) {
        const clprim_status st = check_desc(ctx, d, a->n);
        if (st != CLPRIM_SUCCESS)
            return st;
    }
    return clprim__launch_run(ctx, &call, search_body, a, event);
}

/* SORT_QUERIES (n >= 1, m >= 2): a buffer held for the call with
 * positions 0 .. m - 1 in it, the queries sorted into it with their
 * positions (clprim_sort, in the keys' order), then WINDOW over the sorted
 * queries, each position written where its query was. Three calls on one
 * queue, chained by events. */
static clprim_status sort_queries(clprim_context *ctx, cl_command_queue queue, search_args *a,
                                  cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const size_t ks = clprim_type_size(a->d->key_type), ps = perm_size(a->m);
    const size_t first = perm_first(a->m, ks);
    clprim__pool_buf *held = NULL;
    cl_command_queue held_queue = NULL;
    cl_event taken = NULL, sorted = NULL;
    clprim_status st;

    a->held = &held;
    a->held_queue = &held_queue;
    a->phase = PHASE_HOLD;
    st = launch(ctx, queue, a, num_wait, wait, &taken);
    if (st == CLPRIM_SUCCESS) {
        const cl_mem h = clprim__pool_mem(held);
        clprim_sort_desc sd;
        memset(&sd, 0, sizeof sd);
        sd.key_type = a->d->key_type;
        sd.descending = a->d->descending;
        sd.value_size = ps;
        st = clprim_sort(ctx, queue, &sd, a->queries, a->queries_off, h, 0, h, first, h,
                         first + a->m, a->m, 1, &taken, &sorted);
        if (st == CLPRIM_SUCCESS) {
            a->phase = PHASE_SEARCH;
            a->queries = h;
            a->queries_off = 0;
            a->perm = h;
            a->perm_off = first + a->m;
            a->perm_kind = ps == 8 ? 2 : 1;
            st = launch(ctx, queue, a, 1, &sorted, event);
        }
    }
    if (held) { /* a step failed before the search handed it back */
        pthread_mutex_lock(&ctx->lock);
        clprim__pool_release(held, held_queue, clprim__queue_in_order(ctx, held_queue), NULL, 1);
        pthread_mutex_unlock(&ctx->lock);
    }
    if (taken)
        clReleaseEvent(taken);
    if (sorted)
        clReleaseEvent(sorted);
    return st;
}

static clprim_status run(clprim_context *ctx, cl_command_queue queue, const search_args *a0,
                         cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    search_args a = *a0;
    if (ctx && a.d && a.d->algorithm == CLPRIM_SEARCH_SORT_QUERIES && a.n > 0 && a.m > 1)
        return sort_queries(ctx, queue, &a, num_wait, wait, event);
    return launch(ctx, queue, &a, num_wait, wait, event);
}

clprim_status clprim_lower_bound(clprim_context *ctx, cl_command_queue queue,
                                 const clprim_search_desc *desc, cl_mem keys, size_t keys_off,
                                 size_t n, cl_mem queries, size_t queries_off, size_t m, cl_mem out,
                                 size_t out_off, cl_uint num_wait, const cl_event *wait,
                                 cl_event *event)
{
    const search_args a = {.d = desc, .upper = 0, .keys = keys, .queries = queries,
                           .out = out, .keys_off = keys_off, .n = n,
                           .queries_off = queries_off, .m = m, .out_off = out_off};
    return run(ctx, queue, &a, num_wait, wait, event);
}

clprim_status clprim_upper_bound(clprim_context *ctx, cl_command_queue queue,
                                 const clprim_search_desc *desc, cl_mem keys, size_t keys_off,
                                 size_t n, cl_mem queries, size_t queries_off, size_t m, cl_mem out,
                                 size_t out_off, cl_uint num_wait, const cl_event *wait,
                                 cl_event *event)
{
    const search_args a = {.d = desc, .upper = 1, .keys = keys, .queries = queries,
                           .out = out, .keys_off = keys_off, .n = n,
                           .queries_off = queries_off, .m = m, .out_off = out_off};
    return run(ctx, queue, &a, num_wait, wait, event);
}

/* The blocking helpers: keys and queries copied to new buffers, searched,
 * the positions read back once the search is done; the buffers released. */
static clprim_status search_host(clprim_context *ctx, const clprim_search_desc *d, int upper,
                                 const void *keys, size_t n, const void *queries, size_t m,
                                 void *out)
{
    cl_mem bk = NULL, bq = NULL, bo = NULL;
    cl_event done = NULL;
    size_t ks, isz;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!d)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    st = check_desc(ctx, d, n);
    if (st != CLPRIM_SUCCESS)
        return st;
    ks = clprim_type_size(d->key_type);
    isz = index_size(d->index_type);
    if ((n && !keys) || (m && (!queries || !out)))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "%s is NULL",
                                     n && !keys ? "keys" : !queries ? "queries" : "out");
    if ((n && (n * ks) / n != ks) || (m && ((m * ks) / m != ks || (m * isz) / m != isz)))
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "n = %zu keys or m = %zu queries "
                                     "overflow size_t", n, m);
    st = clprim__host_buffer_unlocked(ctx, n * ks, keys, &bk);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, m * ks, queries, &bq);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, m * isz, NULL, &bo);
    if (st == CLPRIM_SUCCESS) {
        const search_args a = {.d = d, .upper = upper, .keys = bk, .queries = bq, .out = bo,
                               .n = n, .m = m};
        st = run(ctx, NULL, &a, 0, NULL, &done);
    }
    /* after the search's event: the context's queue may be out of order */
    if (st == CLPRIM_SUCCESS && m)
        st = clprim__host_read_unlocked(ctx, bo, m * isz, out, 1, &done);
    if (done)
        clReleaseEvent(done);
    if (bk)
        clReleaseMemObject(bk);
    if (bq)
        clReleaseMemObject(bq);
    if (bo)
        clReleaseMemObject(bo);
    return st;
}

clprim_status clprim_lower_bound_host(clprim_context *ctx, const clprim_search_desc *desc,
                                      const void *keys, size_t n, const void *queries, size_t m,
                                      void *out)
{
    return search_host(ctx, desc, 0, keys, n, queries, m, out);
}

clprim_status clprim_upper_bound_host(clprim_context *ctx, const clprim_search_desc *desc,
                                      const void *keys, size_t n, const void *queries, size_t m,
                                      void *out)
{
    return search_host(ctx, desc, 1, keys, n, queries, m, out);
}

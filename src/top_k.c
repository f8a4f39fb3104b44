/* SPDX-License-Identifier: MIT */
/* Top-k: the k smallest or largest keys of n, with their values, by radix
 * selection (RADIX_SELECT: per level of the ordered key's digits, from
 * the top, a histogram of the digit, the boundary digit, and a stable
 * compaction of the keys below it to the output and of those at it to a
 * smaller candidate buffer), by a sampled threshold (SAMPLE_FILTER: its
 * steps in top_k_filter.c, the sorts between them here) or by the taught
 * whole sort (SORT). The output
 * sorted on request by clprim_sort, whose order defines the result: the k
 * keys are the first k of clprim_sort's stable order (descending for the
 * largest). Validation, arguments and the enqueue chain are the launch
 * layer's; the contract with the kernels is cl/top_k_abi.h, the key order
 * and kmode clprim_sort's (cl/common/key_order.clh, cl/sort_abi.h). */
#include "internal.h"

#include "sort_abi.h"
#include "top_k_abi.h"

#include <stdio.h>
#include <string.h>

#define MAX_VALUE_BYTES 64

/* What a launch of a call does (a call is one to three launches and a
 * sort; SAMPLE_FILTER's three launches and three sorts). */
enum { PHASE_SELECT, PHASE_HOLD, PHASE_GATHER, PHASE_SAMPLE, PHASE_FILTER, PHASE_PICK };

/* The arguments of one call, for the launch bodies. */
typedef struct top_k_args {
    const clprim_top_k_desc *d;
    cl_mem keys, values, keys_out, values_out;
    size_t keys_off, values_off, n, k, keys_out_off, values_out_off;
    int phase;
    /* SORT: the whole sort's buffer, held from the first launch to the
     * last (the sort between them is a call of its own), and where its
     * values begin (in values); SAMPLE_FILTER: its sample and candidates,
     * held likewise, as its plan lays them out */
    clprim__pool_buf **held;
    cl_command_queue *held_queue;
    size_t held_values_off;
    const clprim__top_k_filter *filter;
    /* the radix selection runs behind SAMPLE_FILTER, gated on its held
     * buffer's gate (cl/top_k_abi.h), and hands that buffer back */
    int gated;
} top_k_args;

static size_t key_size(clprim_type t)
{
    switch (t) {
    case CLPRIM_TYPE_UINT32:
    case CLPRIM_TYPE_INT32:
    case CLPRIM_TYPE_FLOAT: return 4;
    case CLPRIM_TYPE_UINT64:
    case CLPRIM_TYPE_INT64:
    case CLPRIM_TYPE_DOUBLE: return 8;
    default: return 0;
    }
}

/* The key's kind in the sort's kmode (cl/sort_abi.h). */
static cl_uint key_kind(clprim_type t)
{
    switch (t) {
    case CLPRIM_TYPE_FLOAT:
    case CLPRIM_TYPE_DOUBLE: return SORT_KIND_FLOAT;
    case CLPRIM_TYPE_INT32:
    case CLPRIM_TYPE_INT64: return SORT_KIND_SIGNED;
    default: return SORT_KIND_UNSIGNED;
    }
}

static cl_uint kmode_of(const clprim_top_k_desc *d)
{
    return key_kind(d->key_type) | (d->largest ? SORT_DESCENDING : 0u);
}

/* 64-bit positions and counts */
static int wide_of(size_t n)
{
    return (cl_ulong)n + 1 > 0xffffffffull;
}

/* ... and where the device can, on small n too where tests ask
 * (CLPRIM_SORT_WIDE=1, the sort's switch) */
static int wide_for(const clprim_context *ctx, size_t n)
{
    return wide_of(n) || (ctx->info.has_int64_atomics &&
                          clprim__switch(&ctx->knobs, CLPRIM__SWITCH_SORT_WIDE, 0));
}

/* The descriptor and the counts, lock not held (the buffers' element
 * sizes depend on the key type, so it is checked before the launch layer
 * checks the buffers). */
static clprim_status check_desc(clprim_context *ctx, const top_k_args *a, const void *values,
                                const void *values_out, int host)
{
    const clprim_top_k_desc *d = a->d;
    if (!key_size(d->key_type))
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE,
                                     "desc->key_type %d is not a key type (uint32, int32, float, "
                                     "uint64, int64 or double)", (int)d->key_type);
    if (d->value_size > MAX_VALUE_BYTES)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->value_size %zu is above %d bytes", d->value_size,
                                     MAX_VALUE_BYTES);
    if (d->largest != 0 && d->largest != 1)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->largest %d is not 0 or 1", d->largest);
    if (d->sorted != 0 && d->sorted != 1)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc->sorted %d is not 0 or 1",
                                     d->sorted);
    if (a->k > a->n)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "k = %zu is above n = %zu (the keys to choose from)", a->k,
                                     a->n);
    /* (the host helper's arrays may be NULL where they hold nothing) */
    if (d->value_size && ((a->n && !values) || (a->k && !values_out) ||
                          (!host && (!values || !values_out))))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->value_size is %zu but values or values_out is NULL",
                                     d->value_size);
    if (!d->value_size && (values || values_out))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "values or values_out given but desc->value_size is 0 "
                                     "(keys only)");
    if (wide_of(a->n) && !ctx->info.has_int64_atomics &&
        d->algorithm != CLPRIM_TOP_K_SORT)
        return clprim__fail_unlocked(ctx, CLPRIM_UNSUPPORTED,
                                     "n = %zu keys (2^32 or more) need 64-bit counts, which need "
                                     "cl_khr_int64_base_atomics, which %s lacks (SORT does "
                                     "without)", a->n, ctx->info.device_name);
    return CLPRIM_SUCCESS;
}

/* The radix selection's shape for one call. */
typedef struct plan {
    clprim__top_k_tuning t;
    unsigned levels, widths[TOPK_MAX_LEVELS], shifts[TOPK_MAX_LEVELS];
    int wide;
} plan;

static plan plan_of(const clprim_context *ctx, size_t ks, size_t n)
{
    plan p;
    unsigned shift = (unsigned)ks * 8;
    p.t = clprim__top_k_tuning_for(ctx, ks, n);
    p.wide = wide_for(ctx, n);
    /* the counters and the tile to local memory, the tile's ranks to 16 bits */
    while (p.t.digit_bits > TOPK_MIN_DIGIT_BITS &&
           TOPK_HIST_LOCAL_BYTES((cl_ulong)p.t.wg_size, p.t.digit_bits) > ctx->info.local_mem_size)
        --p.t.digit_bits;
    while (p.t.items > 1 &&
           ((cl_ulong)p.t.wg_size * p.t.items > TOPK_MAX_TILE ||
            TOPK_COMPACT_LOCAL_BYTES((cl_ulong)p.t.wg_size, p.t.items) >
                ctx->info.local_mem_size))
        p.t.items /= 2;
    /* digits from the top; the last takes what is left */
    for (p.levels = 0; shift > 0; ++p.levels) {
        const unsigned w = shift < p.t.digit_bits ? shift : p.t.digit_bits;
        shift -= w;
        p.widths[p.levels] = w;
        p.shifts[p.levels] = shift;
    }
    return p;
}

static clprim_status top_k_program(clprim__launch *l, const plan *p, size_t vs,
                                   clprim__program **prog)
{
    char more[96]; /* two short lines of numbers */
    const clprim_context *ctx = l->ctx;
    /* match.any: NVIDIA from compute capability 7, warps of 32 */
    const int match = p->t.match && ctx->info.has_nv_ptx && ctx->info.simd_width == 32 &&
                      ctx->nv_compute_major >= 7 && p->t.wg_size % 32 == 0;
    snprintf(more, sizeof more, "#define TOPK_DIGIT_BITS %u\n#define TOPK_MATCH %d\n",
             p->t.digit_bits, match);
    return clprim__top_k_program(l, "top_k.cl", &p->t, p->wide, vs, more, prog);
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

/* The radix selection of 0 < k < n keys, its output in the order its
 * levels took the keys (input order within each). */
static clprim_status radix_select(clprim__launch *l, const top_k_args *a)
{
    const clprim_top_k_desc *d = a->d;
    clprim_context *ctx = l->ctx;
    const size_t ks = key_size(d->key_type), vs = d->value_size;
    const cl_uint kmode = kmode_of(d);
    plan p = plan_of(ctx, ks, a->n);
    const size_t pos = p.wide ? 8 : 4;
    const cl_ulong n = a->n, k = a->k, keys_off = a->keys_off, keys_out_off = a->keys_out_off;
    const cl_ulong values_off = vs ? a->values_off : 0, values_out_off = vs ? a->values_out_off : 0;
    cl_mem values = vs ? a->values : a->keys, values_out = vs ? a->values_out : a->keys_out;
    clprim__program *prog;
    clprim__pool_buf *sbuf, *cbuf;
    size_t wg, tile, groups, radix_max, state_words, totals_bytes, cap_a, cap_b, cand_bytes;
    cl_ulong totals_off, rows_off, a_key_off, b_key_off, a_idx_off, b_idx_off, cap_a64, cap_b64,
        groups64;
    cl_mem state, cand, gate;
    const cl_uint gated = a->gated != 0;
    unsigned lv;
    clprim_status st = top_k_program(l, &p, vs, &prog);

    if (st != CLPRIM_SUCCESS)
        return st;
    wg = clprim__program_wg_size(prog);
    tile = wg * p.t.items;
    radix_max = (size_t)1 << p.t.digit_bits;
    /* the grid: every level's passes cut their source into `groups`
     * ranges; at least enough that no range holds 2^31 keys (32-bit
     * counters in local memory and in the rows) */
    groups = min_size((size_t)ctx->info.compute_units * p.t.groups_per_cu,
                      a->n / tile + (a->n % tile != 0));
    if (groups < (size_t)(n >> 31) + 1)
        groups = (size_t)(n >> 31) + 1;
    if (!groups)
        groups = 1;
    /* candidate buffers: A for n >> candidate_shift keys, B for an eighth
     * of that, each at least min_candidates (and at most n) */
    cap_a = p.t.candidate_shift >= sizeof(size_t) * 8 ? 0 : a->n >> p.t.candidate_shift;
    cap_a = min_size(a->n, cap_a > p.t.min_candidates ? cap_a : p.t.min_candidates);
    cap_b = cap_a / 8 > p.t.min_candidates ? cap_a / 8 : min_size(cap_a, p.t.min_candidates);
    /* state: records, offsets (ulong), the levels' totals, the rows */
    state_words = TOPK_OFFSETS_AT + 2 * groups;
    totals_off = state_words * 8 / pos;
    totals_bytes = p.levels * radix_max * pos;
    rows_off = (state_words * 8 + totals_bytes) / 4;
    st = clprim__launch_temp(l, state_words * 8 + totals_bytes + groups * (radix_max + 1) * 4,
                             &sbuf);
    if (st == CLPRIM_SUCCESS) {
        /* candidates: A's keys, B's keys, then A's and B's indices */
        const size_t idx_at = round_up((cap_a + cap_b) * ks, pos);
        a_key_off = 0;
        b_key_off = cap_a;
        a_idx_off = idx_at / pos;
        b_idx_off = a_idx_off + cap_a;
        cand_bytes = idx_at + (cap_a + cap_b) * pos;
        st = clprim__launch_temp(l, cand_bytes, &cbuf);
    }
    if (st != CLPRIM_SUCCESS)
        return st;
    state = clprim__pool_mem(sbuf);
    cand = clprim__pool_mem(cbuf);
    gate = gated ? clprim__pool_mem(*a->held) : state; /* not read where not gated */
    cap_a64 = cap_a;
    cap_b64 = cap_b;
    groups64 = groups;
    /* the records and the totals start at zero (no level active but the first) */
    st = clprim__chain_fill(ctx, &l->chain, state, 0, state_words * 8 + totals_bytes);
    for (lv = 0; lv < p.levels && st == CLPRIM_SUCCESS; ++lv) {
        const cl_uint level = lv, shift = p.shifts[lv], width = p.widths[lv];
        {
            const clprim__arg args[] = {
                CLPRIM__ARG(a->keys),   CLPRIM__ARG(keys_off),  CLPRIM__ARG(n),
                CLPRIM__ARG(kmode),     CLPRIM__ARG(level),     CLPRIM__ARG(shift),
                CLPRIM__ARG(width),     CLPRIM__ARG(state),     CLPRIM__ARG(state),
                CLPRIM__ARG(totals_off), CLPRIM__ARG(state),    CLPRIM__ARG(rows_off),
                CLPRIM__ARG(cand),      CLPRIM__ARG(a_key_off), CLPRIM__ARG(b_key_off),
                CLPRIM__ARG(gate),      CLPRIM__ARG(gated)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "topk_hist", args, groups, wg);
        }
        if (st == CLPRIM_SUCCESS) {
            const clprim__arg args[] = {
                CLPRIM__ARG(n),        CLPRIM__ARG(k),          CLPRIM__ARG(level),
                CLPRIM__ARG(shift),    CLPRIM__ARG(width),      CLPRIM__ARG(cap_a64),
                CLPRIM__ARG(cap_b64),  CLPRIM__ARG(groups64),   CLPRIM__ARG(state),
                CLPRIM__ARG(state),    CLPRIM__ARG(totals_off), CLPRIM__ARG(state),
                CLPRIM__ARG(rows_off), CLPRIM__ARG(gate),       CLPRIM__ARG(gated)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "topk_find", args, 1, wg);
        }
        if (st == CLPRIM_SUCCESS) {
            const clprim__arg args[] = {
                CLPRIM__ARG(a->keys),      CLPRIM__ARG(keys_off),       CLPRIM__ARG(values),
                CLPRIM__ARG(values_off),   CLPRIM__ARG(a->keys_out),    CLPRIM__ARG(keys_out_off),
                CLPRIM__ARG(values_out),   CLPRIM__ARG(values_out_off), CLPRIM__ARG(n),
                CLPRIM__ARG(k),            CLPRIM__ARG(kmode),          CLPRIM__ARG(level),
                CLPRIM__ARG(shift),        CLPRIM__ARG(width),          CLPRIM__ARG(state),
                CLPRIM__ARG(cand),         CLPRIM__ARG(a_key_off),      CLPRIM__ARG(b_key_off),
                CLPRIM__ARG(cand),         CLPRIM__ARG(a_idx_off),      CLPRIM__ARG(b_idx_off),
                CLPRIM__ARG(gate),         CLPRIM__ARG(gated)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "topk_compact", args, groups, wg);
        }
    }
    return st;
}

/* The buffer held across a call's launches taken (lock held), for the
 * queue the launch resolved. */
static clprim_status hold(clprim__launch *l, const top_k_args *a, size_t bytes)
{
    clprim_status st = clprim__pool_acquire(l->ctx, l->chain.queue, bytes, a->held);
    if (st == CLPRIM_SUCCESS)
        *a->held_queue = l->chain.queue;
    return st;
}

/* ... and handed back after the last launch's commands (lock held). */
static void unhold(clprim__launch *l, const top_k_args *a, clprim_status st)
{
    clprim__pool_release(*a->held, l->chain.queue, !l->chain.out_of_order, l->chain.last,
                         st != CLPRIM_SUCCESS);
    *a->held = NULL;
}

/* ... or outside a launch (lock not held): once `after` is done, or at
 * once after a failure (after NULL). Nothing held: nothing to do. */
static void hand_back(clprim_context *ctx, clprim__pool_buf **held, cl_command_queue queue,
                      cl_event after)
{
    if (!*held)
        return;
    pthread_mutex_lock(&ctx->lock);
    clprim__pool_release(*held, queue, clprim__queue_in_order(ctx, queue), after, after == NULL);
    pthread_mutex_unlock(&ctx->lock);
    *held = NULL;
}

/* SAMPLE_FILTER's launches: the held buffer taken by the first, handed
 * back by the gated radix selection after them. */
static clprim_status filter_body(clprim__launch *l, const top_k_args *a)
{
    const clprim_top_k_desc *d = a->d;
    clprim__top_k_io io;
    clprim_status st = CLPRIM_SUCCESS;

    if (a->phase == PHASE_SAMPLE)
        st = hold(l, a, a->filter->bytes);
    if (st != CLPRIM_SUCCESS)
        return st;
    io.keys = a->keys;
    io.values = a->values;
    io.keys_out = a->keys_out;
    io.values_out = a->values_out;
    io.held = clprim__pool_mem(*a->held);
    io.keys_off = a->keys_off;
    io.values_off = a->values_off;
    io.keys_out_off = a->keys_out_off;
    io.values_out_off = a->values_out_off;
    io.n = a->n;
    io.k = a->k;
    io.key_size = key_size(d->key_type);
    io.value_size = d->value_size;
    io.kmode = kmode_of(d);
    st = clprim__top_k_filter_step(l, a->filter, &io,
                                   a->phase == PHASE_SAMPLE   ? CLPRIM__TOP_K_SAMPLE
                                   : a->phase == PHASE_FILTER ? CLPRIM__TOP_K_FILTER
                                                              : CLPRIM__TOP_K_PICK);
    return st;
}

/* The first launch of a call, validated by the launch layer: k = 0
 * writes nothing, k = n copies every key (unless the sort that follows
 * writes them), else the radix selection (SORT: only its buffer taken). */
static clprim_status top_k_body(clprim__launch *l, const void *args)
{
    const top_k_args *a = args;
    const clprim_top_k_desc *d = a->d;
    const size_t ks = key_size(d->key_type), vs = d->value_size;
    clprim_status st = CLPRIM_SUCCESS;

    if (a->phase >= PHASE_SAMPLE)
        return filter_body(l, a);
    if (a->phase == PHASE_HOLD) /* the sorted keys, then (at a whole value) their values */
        return hold(l, a, vs ? round_up(a->n * ks, vs) + a->n * vs : a->n * ks);
    if (a->phase == PHASE_GATHER) {
        /* the first k of the whole sort; the held buffer goes back after */
        cl_mem h = clprim__pool_mem(*a->held);
        st = clprim__chain_copy(l->ctx, &l->chain, h, 0, a->keys_out, a->keys_out_off * ks,
                                a->k * ks);
        if (st == CLPRIM_SUCCESS && vs)
            st = clprim__chain_copy(l->ctx, &l->chain, h, a->held_values_off * vs, a->values_out,
                                    a->values_out_off * vs, a->k * vs);
        unhold(l, a, st);
        return st;
    }
    if (a->k == 0)
        return CLPRIM_SUCCESS;
    if (a->k == a->n) {
        if (d->sorted && a->k > 1)
            return CLPRIM_SUCCESS; /* the sort that follows reads the input itself */
        st = clprim__chain_copy(l->ctx, &l->chain, a->keys, a->keys_off * ks, a->keys_out,
                                a->keys_out_off * ks, a->n * ks);
        if (st == CLPRIM_SUCCESS && vs)
            st = clprim__chain_copy(l->ctx, &l->chain, a->values, a->values_off * vs,
                                    a->values_out, a->values_out_off * vs, a->n * vs);
        return st;
    }
    st = radix_select(l, a);
    if (a->gated)
        unhold(l, a, st);
    return st;
}

static clprim_status launch(clprim_context *ctx, cl_command_queue queue, const top_k_args *a,
                            cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const clprim_top_k_desc *d = a->d;
    const size_t ks = key_size(d->key_type), vs = d->value_size;
    clprim__call call = {
        .desc = d,
        .type = ks == 8 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32, /* the keys' bits */
        .op = CLPRIM_OP_SUM,
        .algorithm = (int)d->algorithm,
        .algorithm_count = CLPRIM_TOP_K_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_top_k_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 2,
        .buffers = {{"keys", a->keys, a->keys_off, a->n, ks, 0},
                    {"keys_out", a->keys_out, a->keys_out_off, a->k, ks, 1}}};
    if (vs) {
        const clprim__call_buffer v = {"values", a->values, a->values_off, a->n, vs, 0};
        const clprim__call_buffer vo = {"values_out", a->values_out, a->values_out_off, a->k, vs,
                                        1};
        call.buffers[call.num_buffers++] = v;
        call.buffers[call.num_buffers++] = vo;
    }
    return clprim__launch_run(ctx, &call, top_k_body, a, event);
}

/* SORT for 0 < k < n: the whole input sorted into a buffer held for the
 * call, then its first k copied out. Three calls on one queue, chained by
 * events. */
static clprim_status whole_sort(clprim_context *ctx, cl_command_queue queue, top_k_args *a,
                                const clprim_sort_desc *sd, cl_uint num_wait,
                                const cl_event *wait, cl_event *event)
{
    const size_t ks = key_size(a->d->key_type), vs = a->d->value_size;
    clprim__pool_buf *held = NULL;
    cl_command_queue held_queue = NULL;
    cl_event taken = NULL, sorted = NULL;
    clprim_status st;

    a->held = &held;
    a->held_queue = &held_queue;
    a->held_values_off = vs ? round_up(a->n * ks, vs) / vs : 0;
    a->phase = PHASE_HOLD;
    st = launch(ctx, queue, a, num_wait, wait, &taken);
    if (st != CLPRIM_SUCCESS)
        return st;
    {
        cl_mem h = clprim__pool_mem(held);
        st = clprim_sort(ctx, queue, sd, a->keys, a->keys_off, h, 0, vs ? a->values : NULL,
                         vs ? a->values_off : 0, vs ? h : NULL, a->held_values_off, a->n, 1,
                         &taken, &sorted);
    }
    if (st == CLPRIM_SUCCESS) {
        a->phase = PHASE_GATHER;
        st = launch(ctx, queue, a, 1, &sorted, event);
    }
    hand_back(ctx, &held, held_queue, NULL); /* the sort or the gather's launch failed first */
    clReleaseEvent(taken);
    if (sorted)
        clReleaseEvent(sorted);
    return st;
}

/* A sort in place of n keys of held buffer h from element keys_at (of
 * their type) and, where sd has values, of their values from element
 * values_at, after `after`. */
static clprim_status sort_held(clprim_context *ctx, cl_command_queue queue,
                               const clprim_sort_desc *sd, cl_mem h, size_t keys_at,
                               size_t values_at, size_t n, cl_event after, cl_event *done)
{
    cl_mem v = sd->value_size ? h : NULL;
    return clprim_sort(ctx, queue, sd, h, keys_at, h, keys_at, v, values_at, v, values_at, n, 1,
                       &after, done);
}

/* SAMPLE_FILTER for 0 < k < n (top_k_filter.c): the sample taken and
 * sorted, the input filtered and settled, every slot of the candidates'
 * room sorted by index and then stably by key (the slots past the count
 * sort last), so that their first k are clprim_sort's first k of the
 * input, and picked where the gate is open; nothing waits on the host.
 * The held buffer stays taken (*a->held): the radix selection queued
 * behind *picked runs where the gate is shut (the sample misled: fewer
 * than k candidates, or more than their room) and hands it back. On a
 * failure it is handed back here. */
static clprim_status sample_filter(clprim_context *ctx, cl_command_queue queue, top_k_args *a,
                                   cl_uint num_wait, const cl_event *wait, cl_event *picked)
{
    const clprim_top_k_desc *d = a->d;
    const size_t ks = key_size(d->key_type);
    const clprim__top_k_filter *f = a->filter;
    /* sampled, sample sorted, filtered, by index, by key */
    cl_event ev[5] = {NULL, NULL, NULL, NULL, NULL};
    clprim_sort_desc by_key, by_index;
    cl_mem h = NULL;
    size_t i;
    clprim_status st;

    memset(&by_key, 0, sizeof by_key);
    by_key.key_type = d->key_type;
    by_key.descending = d->largest;
    memset(&by_index, 0, sizeof by_index);
    by_index.key_type = f->pos == 8 ? CLPRIM_TYPE_UINT64 : CLPRIM_TYPE_UINT32;
    by_index.value_size = ks;
    a->phase = PHASE_SAMPLE;
    st = launch(ctx, queue, a, num_wait, wait, &ev[0]);
    if (st == CLPRIM_SUCCESS) {
        h = clprim__pool_mem(*a->held);
        st = sort_held(ctx, queue, &by_key, h, f->sample_at / ks, 0, f->samples, ev[0], &ev[1]);
    }
    if (st == CLPRIM_SUCCESS) {
        a->phase = PHASE_FILTER;
        st = launch(ctx, queue, a, 1, &ev[1], &ev[2]);
    }
    by_key.value_size = f->pos;
    if (st == CLPRIM_SUCCESS)
        st = sort_held(ctx, queue, &by_index, h, f->idx_at / f->pos, f->keys_at / ks, f->cap,
                       ev[2], &ev[3]);
    if (st == CLPRIM_SUCCESS)
        st = sort_held(ctx, queue, &by_key, h, f->keys_at / ks, f->idx_at / f->pos, f->cap,
                       ev[3], &ev[4]);
    if (st == CLPRIM_SUCCESS) {
        a->phase = PHASE_PICK;
        st = launch(ctx, queue, a, 1, &ev[4], picked);
    }
    if (st != CLPRIM_SUCCESS)
        hand_back(ctx, a->held, *a->held_queue, NULL);
    for (i = 0; i < sizeof ev / sizeof *ev; ++i)
        if (ev[i])
            clReleaseEvent(ev[i]);
    return st;
}

/* The radix selection (any algorithm but SORT for 0 < k < n) or the
 * copy, then the selected keys sorted where asked (k = n: straight from
 * the input). */
static clprim_status select_then_sort(clprim_context *ctx, cl_command_queue queue,
                                      top_k_args *a, const clprim_sort_desc *sd, cl_uint num_wait,
                                      const cl_event *wait, cl_event *event)
{
    const int then_sort = a->d->sorted && a->k > 1;
    cl_event selected = NULL;
    clprim_status st;

    a->phase = PHASE_SELECT;
    st = launch(ctx, queue, a, num_wait, wait, then_sort ? &selected : event);
    if (st != CLPRIM_SUCCESS || !then_sort)
        return st;
    if (a->k == a->n)
        st = clprim_sort(ctx, queue, sd, a->keys, a->keys_off, a->keys_out, a->keys_out_off,
                         a->values, a->values_off, a->values_out, a->values_out_off, a->n, 1,
                         &selected, event);
    else
        st = clprim_sort(ctx, queue, sd, a->keys_out, a->keys_out_off, a->keys_out,
                         a->keys_out_off, a->values_out, a->values_out_off, a->values_out,
                         a->values_out_off, a->k, 1, &selected, event);
    clReleaseEvent(selected);
    return st;
}

static clprim_status run(clprim_context *ctx, cl_command_queue queue, top_k_args *a,
                         cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const clprim_top_k_desc *d = a->d;
    clprim_sort_desc sd;
    clprim__top_k_filter f;
    clprim__pool_buf *held = NULL;
    cl_command_queue held_queue = NULL;
    cl_event picked = NULL;
    clprim_status st;

    if (event)
        *event = NULL;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!d)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    st = check_desc(ctx, a, a->values, a->values_out, 0);
    if (st != CLPRIM_SUCCESS)
        return st;
    memset(&sd, 0, sizeof sd);
    sd.key_type = d->key_type;
    sd.value_size = d->value_size;
    sd.descending = d->largest;
    a->phase = PHASE_SELECT;
    if (d->algorithm == CLPRIM_TOP_K_SORT && a->k > 0 && a->k < a->n)
        return whole_sort(ctx, queue, a, &sd, num_wait, wait, event);
    if (a->k > 0 && a->k < a->n &&
        (d->algorithm == CLPRIM_TOP_K_SAMPLE_FILTER ||
         (d->algorithm == CLPRIM_TOP_K_AUTO &&
          clprim__top_k_filter_auto(ctx, key_size(d->key_type), a->n, a->k)))) {
        f = clprim__top_k_filter_plan(ctx, key_size(d->key_type), a->n, a->k,
                                      wide_for(ctx, a->n));
        a->filter = &f;
        a->held = &held;
        a->held_queue = &held_queue;
        st = sample_filter(ctx, queue, a, num_wait, wait, &picked);
        if (st != CLPRIM_SUCCESS)
            return st;
        num_wait = 1;
        wait = &picked;
        a->gated = 1;
        if (clprim__switch(&ctx->knobs, CLPRIM__SWITCH_TOP_K_TEST_NO_FALLBACK, 0)) {
            /* the candidates' answer alone (tests) */
            hand_back(ctx, &held, held_queue, picked);
            if (event)
                *event = picked;
            else
                clReleaseEvent(picked);
            return CLPRIM_SUCCESS;
        }
    }
    st = select_then_sort(ctx, queue, a, &sd, num_wait, wait, event);
    hand_back(ctx, &held, held_queue, NULL); /* the gated selection failed first */
    if (picked)
        clReleaseEvent(picked);
    return st;
}

clprim_status clprim_top_k(clprim_context *ctx, cl_command_queue queue,
                           const clprim_top_k_desc *desc, cl_mem keys, size_t keys_off,
                           cl_mem values, size_t values_off, size_t n, size_t k, cl_mem keys_out,
                           size_t keys_out_off, cl_mem values_out, size_t values_out_off,
                           cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    top_k_args a;
    memset(&a, 0, sizeof a);
    a.d = desc;
    a.keys = keys;
    a.keys_off = keys_off;
    a.values = values;
    a.values_off = values_off;
    a.n = n;
    a.k = k;
    a.keys_out = keys_out;
    a.keys_out_off = keys_out_off;
    a.values_out = values_out;
    a.values_out_off = values_out_off;
    return run(ctx, queue, &a, num_wait, wait, event);
}

/* The blocking helper: keys and values copied to new buffers, selected,
 * the k keys and values read back once done; the buffers released. */
clprim_status clprim_top_k_host(clprim_context *ctx, const clprim_top_k_desc *desc,
                                const void *keys, const void *values, size_t n, size_t k,
                                void *keys_out, void *values_out)
{
    cl_mem bk = NULL, bv = NULL, bko = NULL, bvo = NULL;
    cl_event done = NULL;
    top_k_args a;
    size_t ks, vs;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    memset(&a, 0, sizeof a);
    a.d = desc;
    a.n = n;
    a.k = k;
    st = check_desc(ctx, &a, values, values_out, 1);
    if (st != CLPRIM_SUCCESS)
        return st;
    ks = key_size(desc->key_type);
    vs = desc->value_size;
    if ((n && !keys) || (k && !keys_out))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "%s is NULL",
                                     n && !keys ? "keys" : "keys_out");
    if (n && ((n * ks) / n != ks || (vs && (n * vs) / n != vs)))
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "n = %zu keys overflow size_t",
                                     n);
    st = clprim__host_buffer_unlocked(ctx, n * ks, keys, &bk);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, k * ks, NULL, &bko);
    if (st == CLPRIM_SUCCESS && vs)
        st = clprim__host_buffer_unlocked(ctx, n * vs, values, &bv);
    if (st == CLPRIM_SUCCESS && vs)
        st = clprim__host_buffer_unlocked(ctx, k * vs, NULL, &bvo);
    if (st == CLPRIM_SUCCESS) {
        a.keys = bk;
        a.values = bv;
        a.keys_out = bko;
        a.values_out = bvo;
        st = run(ctx, NULL, &a, 0, NULL, &done);
    }
    /* after the call's event: the context's queue may be out of order */
    if (st == CLPRIM_SUCCESS && k)
        st = clprim__host_read_unlocked(ctx, bko, k * ks, keys_out, 1, &done);
    if (st == CLPRIM_SUCCESS && k && vs)
        st = clprim__host_read_unlocked(ctx, bvo, k * vs, values_out, 1, &done);
    if (done)
        clReleaseEvent(done);
    if (bk)
        clReleaseMemObject(bk);
    if (bv)
        clReleaseMemObject(bv);
    if (bko)
        clReleaseMemObject(bko);
    if (bvo)
        clReleaseMemObject(bvo);
    return st;
}

/* SPDX-License-Identifier: MIT */
/* Top-k's SAMPLE_FILTER: its plan (how many keys to sample, which of them
 * is the threshold, how many candidates to make room for), when AUTO takes
 * it, and its three steps on the device (cl/top_k_filter.cl; contract:
 * cl/top_k_abi.h). top_k.c runs the steps, the sorts between them (the
 * sample; the candidates by index, then by key) and the fallback to the
 * radix selection. */
#include "internal.h"

#include "sort_abi.h"
#include "top_k_abi.h"

#include <stdio.h>

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t max_size(size_t a, size_t b)
{
    return a > b ? a : b;
}

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

clprim__top_k_filter clprim__top_k_filter_plan(const clprim_context *ctx, size_t key_size,
                                               size_t n, size_t k, int wide)
{
    clprim__top_k_filter f;
    double pick, expected;
    f.t = clprim__top_k_tuning_for(ctx, key_size, n);
    f.samples = min_size(n, (size_t)1 << f.t.filter_sample_bits);
    /* the pick-th best of s samples has about pick n / s keys at least as
     * good as it: aim at 4 (k + 64) of them, so that fewer than k (a
     * fallback) takes a sample far from its expectation (on uniform keys
     * with k = 1000 of 2^28 and 2^16 samples: 6 of them, a Poisson draw of
     * mean 0.24 reaching 6, about 1e-7), and 4 more samples for the
     * sample's own coarseness */
    pick = 4.0 * ((double)k + 64.0) * (double)f.samples / (double)n;
    f.pick = pick >= (double)f.samples ? f.samples : min_size(f.samples, (size_t)pick + 5);
    expected = (double)f.pick * (double)n / (double)f.samples;
    /* room for 4 times that (the call sorts every slot of it: a count
     * past it is far out of the draw, 2e-5 for 5 picked, or many equal
     * keys), at least 4 k; at most n */
    f.cap = 4.0 * expected >= (double)n ? n : max_size(4 * k, (size_t)(4.0 * expected) + 1);
    f.cap = min_size(n, f.cap);
    f.pos = wide ? 8 : 4;
    /* the count, the sample, the candidates' keys, their indices; 64-byte
     * regions (whole keys and indices for the sorts' element offsets) */
    f.sample_at = 64;
    f.keys_at = round_up(f.sample_at + f.samples * key_size, 64);
    f.idx_at = round_up(f.keys_at + f.cap * key_size, 64);
    f.bytes = f.idx_at + f.cap * f.pos;
    return f;
}

int clprim__top_k_filter_auto(const clprim_context *ctx, size_t key_size, size_t n, size_t k)
{
    const clprim__top_k_tuning t = clprim__top_k_tuning_for(ctx, key_size, n);
    return t.filter_min_n_bits < sizeof(size_t) * 8 &&
           n >= ((size_t)1 << t.filter_min_n_bits) &&
           (t.filter_k_shift >= sizeof(size_t) * 8 ? k == 0 : k <= n >> t.filter_k_shift);
}

clprim_status clprim__top_k_program(clprim__launch *l, const char *file,
                                    const clprim__top_k_tuning *t, int wide, size_t value_size,
                                    const char *more, clprim__program **prog)
{
    char params[320]; /* four short lines of numbers, and `more` */
    const clprim__program_spec spec = {.file = file,
                                       .element = l->elem.defines,
                                       .params = params,
                                       .wg_size = t->wg_size,
                                       .tuning = t->source};
    snprintf(params, sizeof params,
             "#define TOPK_ITEMS %u\n#define TOPK_WIDE %d\n#define VALUE_SIZE %zu\n"
             "#define TOPK_WIDE_ATOMICS %d\n%s",
             t->items, wide, value_size, l->ctx->info.has_int64_atomics ? 1 : 0, more);
    return clprim__program_get(l->ctx, &spec, prog);
}

/* The pass's grid: a few work-groups per compute unit, none past the last
 * tile, and enough that none meets 2^31 keys (its local count). */
static size_t filter_groups(const clprim_context *ctx, const clprim__top_k_filter *f, size_t wg,
                            size_t n, size_t key_size)
{
    const size_t lanes = 16 / key_size, words = (f->t.items + lanes - 1) / lanes;
    const size_t tile = wg * words * lanes;
    size_t groups = min_size((size_t)ctx->info.compute_units * f->t.groups_per_cu,
                             n / tile + (n % tile != 0));
    groups = max_size(groups, (size_t)((cl_ulong)n >> 31) + 1);
    return groups ? groups : 1;
}

clprim_status clprim__top_k_filter_step(clprim__launch *l, const clprim__top_k_filter *f,
                                        const clprim__top_k_io *io, int step)
{
    const size_t ks = io->key_size;
    const cl_ulong n = io->n, k = io->k, keys_off = io->keys_off, s = f->samples;
    const cl_ulong sample_off = f->sample_at / ks, ck_off = f->keys_at / ks;
    const cl_ulong count_off = 0, ci_off = f->idx_at / f->pos, pick = f->pick, cap = f->cap;
    clprim__program *prog;
    size_t wg;
    clprim_status st;

    st = clprim__top_k_program(l, "top_k_filter.cl", &f->t, f->pos == 8, io->value_size, "",
                               &prog);
    if (st != CLPRIM_SUCCESS)
        return st;
    wg = clprim__program_wg_size(prog);
    if (step == CLPRIM__TOP_K_SAMPLE) {
        const clprim__arg args[] = {CLPRIM__ARG(io->keys), CLPRIM__ARG(keys_off),
                                    CLPRIM__ARG(n),        CLPRIM__ARG(s),
                                    CLPRIM__ARG(io->held), CLPRIM__ARG(sample_off),
                                    CLPRIM__ARG(io->held), CLPRIM__ARG(count_off)};
        return CLPRIM__LAUNCH_KERNEL(l, prog, "topkf_sample", args, (f->samples + wg - 1) / wg,
                                     wg);
    }
    if (step == CLPRIM__TOP_K_FILTER) {
        const clprim__arg args[] = {
            CLPRIM__ARG(io->keys),  CLPRIM__ARG(keys_off),   CLPRIM__ARG(n),
            CLPRIM__ARG(io->kmode), CLPRIM__ARG(io->held),   CLPRIM__ARG(sample_off),
            CLPRIM__ARG(pick),      CLPRIM__ARG(io->held),   CLPRIM__ARG(count_off),
            CLPRIM__ARG(ck_off),    CLPRIM__ARG(ci_off),     CLPRIM__ARG(cap)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "topkf_filter", args,
                                   filter_groups(l->ctx, f, wg, io->n, ks), wg);
        if (st == CLPRIM_SUCCESS) {
            const clprim__arg sargs[] = {CLPRIM__ARG(io->held), CLPRIM__ARG(io->held),
                                         CLPRIM__ARG(count_off), CLPRIM__ARG(ck_off),
                                         CLPRIM__ARG(ci_off),   CLPRIM__ARG(cap),
                                         CLPRIM__ARG(k),        CLPRIM__ARG(io->kmode)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "topkf_settle", sargs, (f->cap + wg - 1) / wg,
                                       wg);
        }
        return st;
    }
    {
        /* without values, any buffer stands for them (never read) */
        const cl_mem values = io->value_size ? io->values : io->held,
                     values_out = io->value_size ? io->values_out : io->held;
        const cl_ulong keys_out_off = io->keys_out_off, values_off = io->values_off,
                       values_out_off = io->values_out_off;
        const clprim__arg args[] = {CLPRIM__ARG(io->held),   CLPRIM__ARG(ck_off),
                                    CLPRIM__ARG(io->held),   CLPRIM__ARG(ci_off),
                                    CLPRIM__ARG(io->keys_out), CLPRIM__ARG(keys_out_off),
                                    CLPRIM__ARG(values),     CLPRIM__ARG(values_off),
                                    CLPRIM__ARG(values_out), CLPRIM__ARG(values_out_off),
                                    CLPRIM__ARG(k)};
        return CLPRIM__LAUNCH_KERNEL(l, prog, "topkf_pick", args, (io->k + wg - 1) / wg, wg);
    }
}

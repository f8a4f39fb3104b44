/* SPDX-License-Identifier: MIT */
/* Scan: parameters, and the hierarchical driver that extends every
 * work-group algorithm of cl/scan.cl to any n; the single pass in one
 * launch. Validation, arguments and the enqueue chain are the launch
 * layer's; the contract with the kernels is cl/scan_abi.h. */
#include "internal.h"

#include "common/abi.h"
#include "portable_abi.h"
#include "scan_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the public tile size (clprim.h) is the kernels' (C99: a negative array
 * size stops the build) */
typedef char clprim__portable_tile_is_public[CLPRIM_PORTABLE_TILE == PORTABLE_TILE ? 1 : -1];

/* The tile kernel of each algorithm (AUTO resolves to one of the others). */
static const char *const tile_kernels[CLPRIM_SCAN_ALGORITHM_COUNT_] = {
    [CLPRIM_SCAN_KOGGE_STONE] = "scan_kogge_stone",
    [CLPRIM_SCAN_KOGGE_STONE_DB] = "scan_kogge_stone_db",
    [CLPRIM_SCAN_BRENT_KUNG] = "scan_brent_kung",
    [CLPRIM_SCAN_BLELLOCH] = "scan_blelloch",
    [CLPRIM_SCAN_COARSENED] = "scan_coarsened",
    [CLPRIM_SCAN_MULTILEVEL] = "scan_multilevel",
    [CLPRIM_SCAN_DOMINO] = "scan_single_pass",
    [CLPRIM_SCAN_DECOUPLED_LOOKBACK] = "scan_single_pass",
    [CLPRIM_SCAN_CHUNKED] = "scan_chunk",
};

static int is_single_pass(clprim_scan_algorithm a)
{
    return a == CLPRIM_SCAN_DOMINO || a == CLPRIM_SCAN_DECOUPLED_LOOKBACK;
}

/* AUTO: the tuning table's choice for this n, unless CLPRIM_SCAN_SINGLE_PASS
 * forces the single-pass (1) or multilevel (0) path; never a path the device
 * cannot run. */
static clprim_scan_algorithm resolve_auto(const clprim_context *ctx, const clprim__scan_tuning *t,
                                          size_t n)
{
    const unsigned force = clprim__switch(&ctx->knobs, CLPRIM__SWITCH_SCAN_SINGLE_PASS, 2);
    clprim_scan_algorithm a = (clprim_scan_algorithm)t->scan_auto;
    if (is_single_pass(a) && n > t->single_pass_max_n)
        a = CLPRIM_SCAN_MULTILEVEL;
    if (force == 1)
        a = CLPRIM_SCAN_DECOUPLED_LOOKBACK;
    else if (force == 0)
        a = CLPRIM_SCAN_MULTILEVEL;
    if (is_single_pass(a) && !ctx->info.has_single_pass)
        a = CLPRIM_SCAN_MULTILEVEL;
    return a;
}

/* 64-bit status words per tile (cl/common/abi.h): 1 packed (4-byte
 * built-in types), 2 split (8-byte ones); 0: a state word and value slots. */
static size_t status_words(const clprim__element *e)
{
    return e->builtin ? e->size / 4 : 0;
}

/* Elements one work-group scans (must match cl/scan.cl). */
static size_t tile_size(clprim_scan_algorithm a, const clprim__scan_tuning *t)
{
    switch (a) {
    case CLPRIM_SCAN_KOGGE_STONE:
    case CLPRIM_SCAN_KOGGE_STONE_DB:
        return t->wg_size;
    case CLPRIM_SCAN_BRENT_KUNG:
    case CLPRIM_SCAN_BLELLOCH:
        return 2 * (size_t)t->wg_size;
    case CLPRIM_SCAN_COARSENED:
        return (size_t)t->wg_size * t->coarse_items;
    case CLPRIM_SCAN_DOMINO:
    case CLPRIM_SCAN_DECOUPLED_LOOKBACK:
        return (size_t)t->wg_size * t->sp_tile_items;
    default:
        return (size_t)t->wg_size * t->tile_items;
    }
}

/* The single pass prefetches its next tile into registers (and then loops
 * over tiles on a bounded grid) for built-in elements, whose operators
 * commute, while the tile's share fits in 32 registers; the caller's types
 * scan one tile per work-group. */
static unsigned sp_prefetch(const clprim__element *e, const clprim__scan_tuning *t)
{
    return e->builtin && e->size * t->sp_tile_items <= 128;
}

/* Local memory of the scan program's kernels with tuning t (cl/scan_abi.h). */
static size_t scan_local_bytes(const clprim__scan_tuning *t, const clprim_device_info *d,
                               size_t elem)
{
    return SCAN_LOCAL_ELEMENTS((size_t)t->wg_size, t->coarse_items, t->tile_items,
                               t->sp_tile_items, (size_t)d->local_mem_banks) *
           elem;
}

/* The table's tuning t for this device and element size, clamped to the
 * device's limits and the scan program's local memory. A single pass runs in a program of
 * its own work-group size (the same program where the sizes agree). */
static clprim__scan_tuning scan_tuning(const clprim_context *ctx, const clprim__element *e,
                                       clprim__scan_tuning t, int single_pass, int ordered)
{
    const size_t elem = e->size;
    const clprim_device_info *d = &ctx->info;
    /* 0 stays 0 here: a tuning value of kind W would be clamped up to the
     * SIMD width (measured: float at 32 work-items, 5.6x slower) */
    if (ordered && t.repro_wg_size)
        t.sp_wg_size = clprim__clamp_wg(d, t.repro_wg_size);
    if (ordered && t.repro_max_regs)
        t.sp_max_regs = t.repro_max_regs;
    if (single_pass)
        t.wg_size = t.sp_wg_size;
    /* leave room for what drivers keep in local memory themselves, and
     * ordered, for the single pass's tree of tile totals (scan.cl: WG_SIZE
     * elements) */
    const size_t keep = 1024 + (ordered ? (size_t)t.sp_wg_size * elem : 0);
    const size_t budget = d->local_mem_size > 2 * keep ? (size_t)d->local_mem_size - keep : 0;
    while (scan_local_bytes(&t, d, elem) > budget) {
        if (t.sp_tile_items > 1 && t.sp_tile_items >= t.tile_items)
            t.sp_tile_items /= 2;
        else if (t.tile_items > 1 && t.tile_items >= t.coarse_items)
            t.tile_items /= 2;
        else if (t.coarse_items > 1)
            t.coarse_items /= 2;
        else if (t.wg_size > 1)
            t.wg_size /= 2;
        else
            break;
    }
    if (e->builtin) { /* whole chunks of built-in elements (cl/scan_abi.h) */
        const unsigned chunk = (unsigned)(SCAN_CHUNK_BYTES / elem);
        t.sp_tile_items = t.sp_tile_items < chunk ? chunk : t.sp_tile_items / chunk * chunk;
    }
    /* a tile rounded up to a whole chunk can pass the budget again (Intel's
     * CPU runtime refused such a launch: 16 bytes over its 256 KiB) */
    while (t.wg_size > 1 && scan_local_bytes(&t, d, elem) > budget)
        t.wg_size /= 2;
    if (!sp_prefetch(e, &t))
        t.sp_groups_per_cu = 0;
    return t;
}

typedef struct scan_run {
    clprim__launch *l;
    /* [0]: the caller's input (its transform applied); [1]: the tile totals
     * of the levels below (elements of T); the same program without a
     * transform */
    clprim__program *prog[2];
    const char *tile_kernel; /* the algorithm's (tile_kernels) */
    int reduce_then_scan; /* MULTILEVEL, CHUNKED: reduce tiles, scan totals, scan with carry */
    const char *reduce_kernel; /* reduce_then_scan's tile totals */
    size_t tile, wg;
    unsigned groups_per_cu; /* single pass (clprim__scan_tuning.sp_groups_per_cu) */
    cl_mem temp;
} scan_run;

/* Number of tile totals held in temporary memory at every level below n. */
static size_t temp_elements(size_t n, size_t tile)
{
    size_t total = 0, nb;
    while (tile > 1 && (nb = (n + tile - 1) / tile) > 1) {
        total += nb;
        n = nb;
    }
    return total;
}

/* A carry-in: element off of mem (mem NULL: none). */
typedef struct scan_init {
    cl_mem mem;
    cl_ulong off;
} scan_init;

/* The tiles of one level; their sums (SCAN_WRITE_SUMS, SCAN_READ_CARRY) at
 * sums[sums_off]. */
static clprim_status enqueue_tiles(scan_run *r, int below, cl_mem in, cl_ulong in_off, cl_mem out,
                                   cl_ulong out_off, cl_ulong n, cl_uint flags, cl_mem sums,
                                   cl_ulong sums_off, cl_ulong groups)
{
    const clprim__arg args[] = {CLPRIM__ARG(in), CLPRIM__ARG(in_off), CLPRIM__ARG(out),
                                CLPRIM__ARG(out_off), CLPRIM__ARG(n), CLPRIM__ARG(sums),
                                CLPRIM__ARG(sums_off), CLPRIM__ARG(flags)};
    return CLPRIM__LAUNCH_KERNEL(r->l, r->prog[below], r->tile_kernel, args, (size_t)groups,
                                 r->wg);
}

/* sums[sums_off + g] combined on the left of tile g's output, for tiles
 * first .. groups - 1. */
static clprim_status enqueue_add(scan_run *r, cl_mem out, cl_ulong out_off, cl_ulong n, cl_mem sums,
                                 cl_ulong sums_off, cl_ulong first, cl_ulong groups)
{
    const cl_ulong tile = r->tile;
    const clprim__arg args[] = {CLPRIM__ARG(out),      CLPRIM__ARG(out_off), CLPRIM__ARG(n),
                                CLPRIM__ARG(sums),     CLPRIM__ARG(sums_off), CLPRIM__ARG(tile),
                                CLPRIM__ARG(first)};
    return CLPRIM__LAUNCH_KERNEL(r->l, r->prog[0], "scan_add", args, (size_t)(groups - first),
                                 r->wg);
}

/* Scans one level of n elements whose tile totals go to temp[temp_off]:
 *   scan-then-add (the taught driver): scan the tiles writing their totals,
 *     scan the totals (recursively, exclusive, in place), add each tile's
 *     prefix to it;
 *   reduce-then-scan (MULTILEVEL): reduce the tiles to their totals, scan
 *     those, scan the tiles again starting from their prefix.
 * A carry-in goes down to the scan of the totals, whose first prefix it
 * becomes; the level of one tile combines it itself (MULTILEVEL's tile
 * reads it as its carry; the others' tile gets it added). */
static clprim_status scan_level(scan_run *r, int below, cl_mem in, cl_ulong in_off, cl_mem out,
                                cl_ulong out_off, cl_ulong n, cl_uint flags, cl_ulong temp_off,
                                scan_init init)
{
    const cl_ulong groups = (n + r->tile - 1) / r->tile;
    const cl_ulong first = init.mem ? 0 : 1; /* the first tile the add changes */
    clprim_status st;

    if (groups == 1 && init.mem && r->reduce_then_scan)
        return enqueue_tiles(r, below, in, in_off, out, out_off, n, flags | SCAN_READ_CARRY,
                             init.mem, init.off, groups);
    if (groups == 1) {
        st = enqueue_tiles(r, below, in, in_off, out, out_off, n, flags, NULL, 0, groups);
        if (st == CLPRIM_SUCCESS && init.mem)
            st = enqueue_add(r, out, out_off, n, init.mem, init.off, 0, 1);
        return st;
    }
    if (r->reduce_then_scan) {
        const clprim__arg args[] = {CLPRIM__ARG(in), CLPRIM__ARG(in_off), CLPRIM__ARG(n),
                                    CLPRIM__ARG(r->temp), CLPRIM__ARG(temp_off)};
        st = CLPRIM__LAUNCH_KERNEL(r->l, r->prog[below], r->reduce_kernel, args, (size_t)groups,
                                   r->wg);
    } else {
        st = enqueue_tiles(r, below, in, in_off, out, out_off, n, flags | SCAN_WRITE_SUMS,
                           r->temp, temp_off, groups);
    }
    if (st == CLPRIM_SUCCESS)
        st = scan_level(r, 1, r->temp, temp_off, r->temp, temp_off, groups, SCAN_EXCLUSIVE,
                        temp_off + groups, init);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (r->reduce_then_scan)
        return enqueue_tiles(r, below, in, in_off, out, out_off, n, flags | SCAN_READ_CARRY,
                             r->temp, temp_off, groups);
    return enqueue_add(r, out, out_off, n, r->temp, temp_off, first, groups);
}

/* One launch: tiles take indices from the ticket in the status buffer (the
 * launch layer's tile state, one generation of it; none for one tile). */
static clprim_status scan_single_pass(scan_run *r, cl_mem in, cl_ulong in_off, cl_mem out, cl_ulong out_off,
                                      cl_ulong n, cl_uint flags, scan_init init)
{
    const clprim__element *e = &r->l->elem;
    const cl_ulong tiles = (n + r->tile - 1) / r->tile;
    /* each work-group scans tiles until the ticket runs out */
    const cl_ulong most = (cl_ulong)r->l->ctx->info.compute_units * r->groups_per_cu;
    const int loop = r->groups_per_cu && !(flags & SCAN_DOMINO); /* cl/scan.cl */
    const cl_ulong groups = loop && most && most < tiles ? most : tiles;
    cl_mem state = NULL;
    cl_uint generation = 0;
    clprim_status st = CLPRIM_SUCCESS;

    if (init.mem)
        flags |= SCAN_INIT;
    if (tiles == 1)
        flags |= SCAN_ONE_TILE;
    else
        st = clprim__launch_tile_state(r->l, (size_t)tiles, status_words(e), e->size, 1, &state,
                                       &generation);
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg args[] = {CLPRIM__ARG(in),         CLPRIM__ARG(in_off),
                                    CLPRIM__ARG(out),        CLPRIM__ARG(out_off),
                                    CLPRIM__ARG(n),          CLPRIM__ARG(state),
                                    CLPRIM__ARG(generation), CLPRIM__ARG(flags),
                                    CLPRIM__ARG(init.mem),   CLPRIM__ARG(init.off)};
        st = CLPRIM__LAUNCH_KERNEL(r->l, r->prog[0], r->tile_kernel, args, (size_t)groups, r->wg);
    }
    return st;
}

/* "#define NAME value" lines of scan.cl's tuning values (the work-group
 * size is the build step's). */
static void scan_params(char *buf, size_t size, const clprim__scan_tuning *t, unsigned prefetch,
                        int ordered)
{
    snprintf(buf, size,
             "#define COARSE_ITEMS %u\n#define TILE_ITEMS %u\n#define SP_TILE_ITEMS %u\n"
             "#define LOOKBACK_SPINS %u\n#define SP_PREFETCH %u\n#define LB_ORDERED %d\n",
             t->coarse_items, t->tile_items, t->sp_tile_items, t->lookback_spins, prefetch,
             ordered);
}

/* The arguments of one clprim_scan, for scan_body. */
typedef struct scan_args {
    const clprim_scan_desc *d;
    cl_mem in, out;
    size_t in_off, out_off, n;
    scan_init init;
    int tile_carries; /* PORTABLE's last step alone: init holds one carry per tile */
} scan_args;

/* Work-groups of prog over the tiles of n elements, wg / PORTABLE_WG tiles
 * each (clprim__portable_wg). */
static size_t portable_groups(clprim__program *prog, cl_ulong n)
{
    const cl_ulong per = clprim__program_wg_size(prog) / PORTABLE_WG;
    return (size_t)(((n + PORTABLE_TILE - 1) / PORTABLE_TILE + per - 1) / per);
}

/* PORTABLE's last step: every tile of n elements from its carry
 * (carry[carry_off + g] where flags has PORTABLE_CARRY). */
static clprim_status portable_tiles(clprim__launch *l, clprim__program *prog, cl_mem in,
                                    cl_ulong in_off, cl_mem out, cl_ulong out_off, cl_ulong n,
                                    cl_uint flags, cl_mem carry, cl_ulong carry_off)
{
    const clprim__arg args[] = {CLPRIM__ARG(in),   CLPRIM__ARG(in_off),    CLPRIM__ARG(out),
                                CLPRIM__ARG(out_off), CLPRIM__ARG(n),      CLPRIM__ARG(carry),
                                CLPRIM__ARG(carry_off), CLPRIM__ARG(flags)};
    return CLPRIM__LAUNCH_KERNEL(l, prog, "scan_portable", args, portable_groups(prog, n),
                                 clprim__program_wg_size(prog));
}

/* PORTABLE (issue 33; cl/portable_abi.h) over n elements: the tile totals
 * (the portable reduce's first level), their exclusive scan from the carry
 * by these same steps one level down (temp from element `at`), then every
 * tile from its carry. prog reads the caller's input, plain the totals. */
static clprim_status portable_level(clprim__launch *l, clprim__program *prog,
                                    clprim__program *plain, cl_mem temp, cl_ulong at, cl_mem in,
                                    cl_ulong in_off, cl_mem out, cl_ulong out_off, cl_ulong n,
                                    cl_uint flags, cl_mem carry, cl_ulong carry_off)
{
    const cl_ulong tiles = (n + PORTABLE_TILE - 1) / PORTABLE_TILE;
    clprim_status st = CLPRIM_SUCCESS;
    if (tiles > 1) {
        const cl_ulong totals = at, carries = at + tiles;
        const clprim__arg red[] = {CLPRIM__ARG(in), CLPRIM__ARG(in_off), CLPRIM__ARG(n),
                                   CLPRIM__ARG(temp), CLPRIM__ARG(totals)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "reduce_portable", red, portable_groups(prog, n),
                                   clprim__program_wg_size(prog));
        if (st == CLPRIM_SUCCESS)
            st = portable_level(l, plain, plain, temp, at + 2 * tiles, temp, totals, temp, carries,
                                tiles, PORTABLE_EXCLUSIVE | (flags & PORTABLE_CARRY), carry,
                                carry_off);
        carry = temp;
        carry_off = carries;
        flags |= PORTABLE_CARRY;
    }
    return st == CLPRIM_SUCCESS
               ? portable_tiles(l, prog, in, in_off, out, out_off, n, flags, carry, carry_off)
               : st;
}

/* PORTABLE in one pass (portable_sp.cl: the same bits, the input read
 * once): the published values' slots in a tile state of this call's
 * generation, one launch. */
static clprim_status portable_one_pass(clprim__launch *l, const scan_args *a,
                                       clprim__program *prog, cl_uint flags)
{
    const cl_ulong n = a->n, in_off = a->in_off, out_off = a->out_off, init_off = a->init.off;
    const cl_uint how = flags | (a->in == a->out ? PORTABLE_IN_PLACE : 0u);
    cl_mem state = NULL;
    cl_uint generation = 0;
    clprim_status st = clprim__launch_tile_state(
        l, (size_t)PORTABLE_SP_SLOTS((n + PORTABLE_TILE - 1) / PORTABLE_TILE),
        status_words(&l->elem), l->elem.size, 1, &state, &generation);
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg args[] = {CLPRIM__ARG(a->in),       CLPRIM__ARG(in_off),
                                    CLPRIM__ARG(a->out),      CLPRIM__ARG(out_off),
                                    CLPRIM__ARG(n),           CLPRIM__ARG(state),
                                    CLPRIM__ARG(generation),  CLPRIM__ARG(how),
                                    CLPRIM__ARG(a->init.mem), CLPRIM__ARG(init_off)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "scan_portable_sp", args, portable_groups(prog, n),
                                   clprim__program_wg_size(prog));
    }
    return st;
}

/* The PORTABLE scan of a call (n >= 1): portable.cl's programs (the
 * transform's for the input), their temporary memory, the levels; or the
 * one pass (portable_sp.cl's one program) where the tuning asks for it, the
 * device has the single-pass layer and n is within the two levels it
 * covers (the multi-device and MPI steps, tile_carries, keep the launches). */
static clprim_status scan_portable(clprim__launch *l, const scan_args *a, const char *transform)
{
    clprim_context *ctx = l->ctx;
    const clprim__scan_tuning t = clprim__scan_tuning_for(ctx, l->elem.size, a->n);
    const int one = t.portable_single_pass && ctx->info.has_single_pass && !a->tile_carries &&
                    a->n <= PORTABLE_SP_MAX_N;
    char *uncontracted = clprim__portable_element(ctx, &l->elem);
    char *sp = one ? clprim__format("#define PORTABLE_SP 1\n#define LOOKBACK_SPINS %u\n%s",
                                    t.lookback_spins, transform ? transform : "")
                   : NULL;
    clprim__program_spec spec = {.file = one ? "portable_sp.cl" : "portable.cl",
                                 .element = uncontracted,
                                 .wg_size = clprim__portable_wg(ctx, &l->elem, t.portable_wg_size)};
    clprim__program *plain = NULL, *prog = NULL;
    clprim__pool_buf *buf = NULL;
    size_t temp_n = 0, m;
    const cl_uint flags =
        (a->d->exclusive ? PORTABLE_EXCLUSIVE : 0u) | (a->init.mem ? PORTABLE_CARRY : 0u);
    clprim_status st = uncontracted && (sp || !one)
                           ? CLPRIM_SUCCESS
                           : clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    if (st == CLPRIM_SUCCESS && !one)
        st = clprim__program_get(ctx, &spec, &plain);
    prog = plain;
    if (st == CLPRIM_SUCCESS && (one || transform)) {
        spec.params = one ? sp : transform;
        st = clprim__program_get(ctx, &spec, &prog);
    }
    free(uncontracted);
    free(sp);
    /* any multiple of PORTABLE_WG gives the same bits; both programs the
     * same one, as portable_level launches them alike */
    if (st == CLPRIM_SUCCESS && (clprim__program_wg_size(prog) % PORTABLE_WG ||
                                 (plain && clprim__program_wg_size(plain) !=
                                               clprim__program_wg_size(prog))))
        st = clprim__fail(ctx, CLPRIM_UNSUPPORTED, "desc->repro portable: the portable scan runs "
                          "a multiple of %d work-items per work-group (and the transform's "
                          "program as many as the plain one), which %s cannot", PORTABLE_WG,
                          ctx->info.device_name);
    if (st == CLPRIM_SUCCESS && one)
        return portable_one_pass(l, a, prog, flags);
    for (m = a->n; m > PORTABLE_TILE && !a->tile_carries; m = (m + PORTABLE_TILE - 1) / PORTABLE_TILE)
        temp_n += 2 * ((m + PORTABLE_TILE - 1) / PORTABLE_TILE);
    if (st == CLPRIM_SUCCESS && temp_n)
        st = clprim__launch_temp(l, temp_n * l->elem.size, &buf);
    if (st == CLPRIM_SUCCESS && a->tile_carries) /* the carries given: the tiles alone */
        st = portable_tiles(l, prog, a->in, a->in_off, a->out, a->out_off, a->n,
                            flags | PORTABLE_CARRY, a->init.mem, a->init.off);
    else if (st == CLPRIM_SUCCESS)
        st = portable_level(l, prog, plain, buf ? clprim__pool_mem(buf) : NULL, 0, a->in,
                            a->in_off, a->out, a->out_off, a->n, flags, a->init.mem,
                            a->init.off);
    return st;
}

/* One call, validated by the launch layer: parameters, program, grid, and
 * the commands of the chosen algorithm. */
static clprim_status scan_body(clprim__launch *l, const void *args)
{
    const scan_args *a = args;
    const clprim_scan_desc *d = a->d;
    const clprim__element *e = &l->elem;
    clprim_context *ctx = l->ctx;
    clprim__program_spec spec = {
        .file = "scan.cl", .element = e->defines, .bound_entry = "scan_single_pass"};
    const size_t n = a->n;
    scan_run r;
    clprim__program *prog, *below = NULL;
    clprim__pool_buf *buf = NULL;
    clprim__scan_tuning t;
    clprim_scan_algorithm algo;
    clprim_repro level;
    int ordered;
    char params[256], *transform = NULL, *uncontracted = NULL;
    size_t temp_n;
    clprim_status st;

    /* PORTABLE: the portable levels, whatever the algorithm (it says how,
     * not what) */
    st = clprim__repro_check(ctx, d->repro, d->type, d->op, d->custom, CLPRIM_REPRO_PORTABLE,
                             "the scan", &level);
    if (st != CLPRIM_SUCCESS)
        return st;
    /* clprim_scan_tiles is a step of the PORTABLE order at every level */
    if (a->tile_carries)
        level = CLPRIM_REPRO_PORTABLE;
    if (level != CLPRIM_REPRO_PORTABLE && is_single_pass(d->algorithm) &&
        !ctx->info.has_single_pass)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "%s needs cl_khr_int64_base_atomics, which %s lacks",
                            clprim_scan_algorithm_name(d->algorithm), ctx->info.device_name);
    st = clprim__transform_params(ctx, d->transform, &transform);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (transform)
        st = clprim__check_transform_in_place(l, d->transform, a->in, a->out);
    if (st == CLPRIM_SUCCESS && n && level == CLPRIM_REPRO_PORTABLE)
        st = scan_portable(l, a, transform);
    if (st != CLPRIM_SUCCESS || n == 0 || level == CLPRIM_REPRO_PORTABLE) {
        free(transform);
        return st;
    }
    memset(&r, 0, sizeof r);
    r.l = l;
    t = clprim__scan_tuning_for(ctx, e->size, n);
    algo = d->algorithm == CLPRIM_SCAN_AUTO ? resolve_auto(ctx, &t, n) : d->algorithm;
    ordered = level == CLPRIM_REPRO_RUN_TO_RUN && is_single_pass(algo);
    t = scan_tuning(ctx, e, t, is_single_pass(algo), ordered);
    /* RUN_TO_RUN: the single pass orders its look-back (lookback.clh); the
     * multi-pass algorithms combine in a fixed order already */
    scan_params(params, sizeof params, &t, sp_prefetch(e, &t), ordered);
    /* ordered, a transform's vector and scalar (fallback) paths must round
     * alike */
    if (ordered && !(spec.element = uncontracted = clprim__element_uncontracted(e->defines))) {
        free(transform);
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    spec.params = params;
    spec.wg_size = t.wg_size;
    spec.tuning = t.source;
    spec.bound_regs = t.sp_max_regs; /* the single pass's (its other kernels stay well below) */
    /* the levels below the first scan tile totals: the program without the
     * transform (built first: spec.params changes next) */
    if (transform && !is_single_pass(algo))
        st = clprim__program_get(ctx, &spec, &below);
    if (st == CLPRIM_SUCCESS && transform) {
        char *both = clprim__format("%s%s", params, transform);
        st = both ? CLPRIM_SUCCESS : clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
        spec.params = both;
        if (st == CLPRIM_SUCCESS)
            st = clprim__program_get(ctx, &spec, &prog);
        free(both);
    } else if (st == CLPRIM_SUCCESS) {
        st = clprim__program_get(ctx, &spec, &prog);
    }
    free(transform);
    free(uncontracted);
    if (st != CLPRIM_SUCCESS)
        return st;
    t.wg_size = clprim__program_wg_size(prog);
    if (below && clprim__program_wg_size(below) != t.wg_size)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "the transform's kernels run %u work-items "
                            "per work-group and the plain ones %u; use a single-pass algorithm",
                            t.wg_size, clprim__program_wg_size(below));
    r.wg = t.wg_size;
    r.tile = tile_size(algo, &t);
    r.reduce_kernel = "scan_reduce";
    if (algo == CLPRIM_SCAN_CHUNKED) { /* one work-item per chunk; the chunks'
                                          * totals are one chunk below */
        const size_t chunks = clprim__chunks(&ctx->info, t.chunks_per_cu, n);
        r.wg = 1;
        r.tile = n / chunks + (n % chunks != 0);
        r.tile = r.tile < CLPRIM__CHUNK_MIN ? CLPRIM__CHUNK_MIN : r.tile;
        r.reduce_kernel = "scan_chunk_reduce";
    }
    /* levels of one-element tiles never get shorter (a device with 2 KiB
     * of local memory or less ends up there) */
    if (r.tile < 2 && n > 1)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "%s: a tile of %zu element on %s (%llu bytes of local memory) cannot "
                            "scan in levels", clprim_scan_algorithm_name(algo), r.tile,
                            ctx->info.device_name, (unsigned long long)ctx->info.local_mem_size);
    r.groups_per_cu = t.sp_groups_per_cu;
    r.prog[0] = prog;
    r.prog[1] = below ? below : prog;
    r.tile_kernel = tile_kernels[algo];
    if (is_single_pass(algo))
        return scan_single_pass(&r, a->in, a->in_off, a->out, a->out_off, n,
                                (d->exclusive ? SCAN_EXCLUSIVE : 0) |
                                    (algo == CLPRIM_SCAN_DOMINO ? SCAN_DOMINO : 0) |
                                    (a->in == a->out ? SCAN_IN_PLACE : 0) |
                                    (e->builtin && (a->in_off * e->size) % 16 == 0 &&
                                             (a->out_off * e->size) % 16 == 0
                                         ? SCAN_ALIGNED
                                         : 0),
                                a->init);
    r.reduce_then_scan = algo == CLPRIM_SCAN_MULTILEVEL || algo == CLPRIM_SCAN_CHUNKED;
    temp_n = temp_elements(n, r.tile);
    if (temp_n) {
        st = clprim__launch_temp(l, temp_n * e->size, &buf);
        if (st != CLPRIM_SUCCESS)
            return st;
        r.temp = clprim__pool_mem(buf);
    }
    return scan_level(&r, 0, a->in, a->in_off, a->out, a->out_off, n,
                      d->exclusive ? SCAN_EXCLUSIVE : 0, 0, a->init);
}

clprim_status clprim__scan_within(clprim__launch *l, const clprim_scan_desc *d, cl_mem in,
                                  size_t in_off, cl_mem out, size_t out_off, size_t n)
{
    const scan_args a = {
        .d = d, .in = in, .out = out, .in_off = in_off, .out_off = out_off, .n = n};
    const clprim__element caller = l->elem;
    clprim_status st = clprim__element_resolve(l->ctx, d->type, d->op, d->custom, NULL, &l->elem);
    if (st == CLPRIM_SUCCESS)
        st = scan_body(l, &a);
    l->elem = caller;
    return st;
}

/* clprim_scan and clprim_scan_init: init.mem NULL is no carry-in. */
static clprim_status scan_call(clprim_context *ctx, cl_command_queue queue,
                               const clprim_scan_desc *d, scan_init init, cl_mem in, size_t in_off,
                               cl_mem out, size_t out_off, size_t n, cl_uint num_wait,
                               const cl_event *wait, cl_event *event, int with_init,
                               int tile_carries)
{
    const scan_args a = {.d = d, .in = in, .out = out, .in_off = in_off, .out_off = out_off,
                         .n = n, .init = init, .tile_carries = tile_carries};
    clprim__call call = {
        .desc = d,
        .algorithm_count = CLPRIM_SCAN_ALGORITHM_COUNT_,
        .algorithm_enum = "clprim_scan_algorithm",
        .queue = queue,
        .num_wait = num_wait,
        .wait = wait,
        .num_buffers = 2,
        .buffers = {{.name = "in", .mem = in, .off = in_off, .count = n},
                    {.name = "out", .mem = out, .off = out_off, .count = n, .written = 1},
                    {.name = tile_carries ? "carries" : "init",
                     .mem = init.mem,
                     .off = (size_t)init.off,
                     .count = tile_carries ? (n + PORTABLE_TILE - 1) / PORTABLE_TILE : 1}},
        .in_place = 1};
    if (with_init)
        call.num_buffers = 3;
    if (d) {
        call.type = d->type;
        call.op = d->op;
        call.custom = d->custom;
        call.algorithm = (int)d->algorithm;
        if (d->transform && ctx) {
            call.buffers[0].elem = clprim__transform_input_size(d->transform, 0);
            if (!call.buffers[0].elem)
                return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE,
                                             "desc->transform->input %d is not a clprim_type",
                                             (int)d->transform->input);
        }
    }
    return clprim__launch_run(ctx, &call, scan_body, &a, event);
}

clprim_status clprim_scan(clprim_context *ctx, cl_command_queue queue, const clprim_scan_desc *d,
                          cl_mem in, size_t in_off, cl_mem out, size_t out_off, size_t n,
                          cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const scan_init none = {0};
    return scan_call(ctx, queue, d, none, in, in_off, out, out_off, n, num_wait, wait, event, 0,
                     0);
}

clprim_status clprim_scan_init(clprim_context *ctx, cl_command_queue queue,
                               const clprim_scan_desc *d, cl_mem init, size_t init_off, cl_mem in,
                               size_t in_off, cl_mem out, size_t out_off, size_t n,
                               cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const scan_init carry = {.mem = init, .off = init_off};
    return scan_call(ctx, queue, d, carry, in, in_off, out, out_off, n, num_wait, wait, event, 1,
                     0);
}

/* clprim_scan_host and clprim_scan_init_host: init NULL is no carry-in. */
static clprim_status scan_host(clprim_context *ctx, const clprim_scan_desc *d, const void *init,
                               const void *in, void *out, size_t n)
{
    cl_mem buf = NULL, src = NULL, carry = NULL;
    size_t bytes, elem, in_elem;
    clprim_status st;

    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    elem = d ? clprim__element_size(d->type, d->custom) : 0;
    in_elem = d ? clprim__transform_input_size(d->transform, elem) : 0;
    if (d && (!elem || !in_elem))
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE, "desc->type %d%s is not a clprim_type",
                                     elem ? (int)d->transform->input : (int)d->type,
                                     elem ? " (desc->transform->input)" : "");
    if (!d || (n && (!in || !out)))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc, in or out is NULL");
    bytes = elem * n;
    if (n && (bytes / n != elem || (in_elem * n) / n != in_elem))
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "n = %zu elements of %zu bytes "
                                     "overflow size_t", n, elem > in_elem ? elem : in_elem);
    /* one buffer, scanned in place (half the device memory of in + out),
     * unless a transform's input differs in size */
    if (in_elem == elem) {
        st = clprim__host_buffer_unlocked(ctx, bytes, in, &buf);
        src = buf;
    } else {
        st = clprim__host_buffer_unlocked(ctx, in_elem * n, in, &src);
        if (st == CLPRIM_SUCCESS)
            st = clprim__host_buffer_unlocked(ctx, bytes, NULL, &buf);
    }
    if (st == CLPRIM_SUCCESS && init)
        st = clprim__host_buffer_unlocked(ctx, elem, init, &carry);
    if (st == CLPRIM_SUCCESS && init)
        st = clprim_scan_init(ctx, NULL, d, carry, 0, src, 0, buf, 0, n, 0, NULL, NULL);
    else if (st == CLPRIM_SUCCESS)
        st = clprim_scan(ctx, NULL, d, src, 0, buf, 0, n, 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS && n)
        st = clprim__host_read_unlocked(ctx, buf, bytes, out, 0, NULL);
    if (carry)
        clReleaseMemObject(carry);
    if (src && src != buf)
        clReleaseMemObject(src);
    if (buf)
        clReleaseMemObject(buf);
    return st;
}

clprim_status clprim_scan_host(clprim_context *ctx, const clprim_scan_desc *d, const void *in,
                               void *out, size_t n)
{
    return scan_host(ctx, d, NULL, in, out, n);
}

clprim_status clprim_scan_init_host(clprim_context *ctx, const clprim_scan_desc *d,
                                    const void *init, const void *in, void *out, size_t n)
{
    if (ctx && !init)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "init is NULL");
    return scan_host(ctx, d, init, in, out, n);
}

clprim_status clprim_scan_tiles(clprim_context *ctx, cl_command_queue queue,
                                const clprim_scan_desc *d, cl_mem carries, size_t carries_off,
                                cl_mem in, size_t in_off, cl_mem out, size_t out_off, size_t n,
                                cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    const scan_init c = {carries, carries_off};
    return scan_call(ctx, queue, d, c, in, in_off, out, out_off, n, num_wait, wait, event, 1, 1);
}

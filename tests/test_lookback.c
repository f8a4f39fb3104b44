/* SPDX-License-Identifier: MIT */
/* The single-pass layer (cl/common/lookback.clh) carrying values other than
 * the element: per-tile counts packed in one status word (LB_WORDS 1), 64-bit
 * sums split over two (LB_WORDS 2), and a struct in value slots (LB_WORDS 0),
 * each with its own fallback (LB_TILE_TOTAL). A test kernel built from the
 * real headers takes tiles from the ticket, publishes each tile's aggregate,
 * looks back and writes the tile's exclusive prefix, which is checked
 * against a sequential loop (by the first SIMD group's look-back where the
 * device has one, as the primitives use it); once with the usual spin bound, and once with
 * a bound of one poll and every third tile publishing nothing, so that the
 * fallback (the predecessor's value computed from the input) must run. */
#include "common/testutil.h"

#include "../cl/common/abi.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define TILE 64 /* elements per tile: one work-group of 64 */

static clprim_context *ctx;
static clprim_device_info info;

/* The carriers, chosen by CARRY: 1 counts of positive elements (uint), 2
 * sums of the elements as ulong, 0 (count, max) pairs in value slots. */
static const char kernel[] =
    "#if CARRY == 1\n"
    "#define LB_T uint\n#define LB_SIZE 4\n#define LB_OP(a, b) ((a) + (b))\n"
    "#define LB_IDENTITY 0u\n#define LB_WORDS 1\n"
    "#define LB_TO_WORD(v) (v)\n#define LB_FROM_WORD(w) (w)\n"
    "inline LB_T value_of(int x) { return x > 0 ? 1u : 0u; }\n"
    "#elif CARRY == 2\n"
    "#define LB_T ulong\n#define LB_SIZE 8\n#define LB_OP(a, b) ((a) + (b))\n"
    "#define LB_IDENTITY 0ul\n#define LB_WORDS 2\n"
    "#define LB_TO_WORDS(v) as_uint2(v)\n#define LB_FROM_WORDS(w) as_ulong(w)\n"
    "inline LB_T value_of(int x) { return (ulong)(uint)x; }\n"
    "#else\n"
    "typedef struct { uint count; int max; } pair;\n"
    "inline pair pair_op(pair a, pair b) { pair r; r.count = a.count + b.count;\n"
    "  r.max = max(a.max, b.max); return r; }\n"
    "inline pair pair_none(void) { pair r; r.count = 0; r.max = INT_MIN; return r; }\n"
    "#define LB_T pair\n#define LB_SIZE 8\n#define LB_OP(a, b) pair_op((a), (b))\n"
    "#define LB_IDENTITY pair_none()\n#define LB_WORDS 0\n"
    "inline LB_T value_of(int x) { pair r; r.count = x > 0; r.max = x; return r; }\n"
    "#endif\n"
    "inline LB_T tile_total(global const int *in, ulong p, ulong n)\n"
    "{\n"
    "    LB_T v = LB_IDENTITY;\n"
    "    for (ulong i = p * WG_SIZE; i < min(p * WG_SIZE + WG_SIZE, n); ++i)\n"
    "        v = LB_OP(v, value_of(in[i]));\n"
    "    return v;\n"
    "}\n"
    "#define LB_FALLBACK_PARAMS global const int *in, ulong n\n"
    "#define LB_FALLBACK_ARGS in, n\n"
    "#define LB_TILE_TOTAL(p) tile_total(in, (p), n)\n"
    "#include \"lookback.clh\"\n"
    "kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))\n"
    "void carry(global const int *in, ulong n, global uchar *state, uint generation,\n"
    "           global LB_T *out, uint silent)\n"
    "{\n"
    "    local uint ticket;\n"
    "    const ulong tiles = (n + WG_SIZE - 1) / WG_SIZE;\n"
    "    const clprim_tiles st = clprim_tiles_at(state, tiles);\n"
    "    if (get_local_id(0) == 0)\n"
    "        ticket = atomic_inc(st.counters);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    const ulong t = ticket;\n"
    "    const uint lid = get_local_id(0);\n"
    "    if (lid < 32) { /* the warp's look-back where there is one (NVIDIA) */\n"
    "        const LB_T total = tile_total(in, t, n);\n"
    "        const int quiet = silent && t % 3 == 1; /* never publishes: its successors\n"
    "                                                   must take the fallback */\n"
    "        LB_T before;\n"
    "        if (quiet) {\n"
    "#if CLPRIM_LOOKBACK_WARP\n"
    "            before = clprim_lookback_warp(st, t, generation, LB_IDENTITY, in, n);\n"
    "#else\n"
    "            if (lid == 0)\n"
    "                before = clprim_lookback(st, t, generation, LB_IDENTITY, 1, in, n);\n"
    "#endif\n"
    "        } else {\n"
    "            before = clprim_tile_prefix(st, t, generation, total, LB_IDENTITY, 0u, in, n);\n"
    "        }\n"
    "        if (lid == 0)\n"
    "            out[t] = before;\n"
    "    }\n"
    "}\n";

typedef struct pair {
    cl_uint count;
    cl_int max;
} pair;

/* cl/common/<name> as a string (heap), or NULL. */
static char *read_common(const char *name)
{
    char path[1024];
    FILE *f;
    long size;
    char *text = NULL;
    snprintf(path, sizeof path, "%s/cl/common/%s", CLPRIM_SOURCE_DIR, name);
    f = fopen(path, "rb");
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = calloc((size_t)size + 1, 1)) != NULL && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (f)
        fclose(f);
    return text;
}

/* The exclusive prefix of tile t's values, as the kernel should write it. */
static void expected(int carry, const cl_int *x, size_t n, size_t t, void *out)
{
    cl_uint count = 0;
    cl_ulong sum = 0;
    cl_int most = INT32_MIN;
    size_t i;
    for (i = 0; i < t * TILE && i < n; ++i) {
        count += x[i] > 0;
        sum += (cl_uint)x[i];
        most = x[i] > most ? x[i] : most;
    }
    if (carry == 1)
        memcpy(out, &count, 4);
    else if (carry == 2)
        memcpy(out, &sum, 8);
    else {
        pair p = {count, most};
        memcpy(out, &p, 8);
    }
}

static void run_carry(int carry, unsigned spins, cl_uint silent)
{
    const size_t n = 200000 + (size_t)(tu_rand(&(uint64_t){tu_seed()}) % 1000);
    const size_t tiles = (n + TILE - 1) / TILE, vsize = carry == 1 ? 4 : 8;
    const size_t state_bytes = CLPRIM_TILE_STATE_BYTES(tiles, (size_t)carry, vsize);
    cl_context cl = clprim_context_cl_context(ctx);
    cl_device_id dev = clprim_context_device(ctx);
    cl_command_queue q = clprim_context_queue(ctx);
    char *lookback = read_common("lookback.clh"), *abi = read_common("abi.h"), *src;
    char head[256], options[1024];
    cl_int *x = malloc(n * sizeof *x), err;
    unsigned char *got = malloc(tiles * vsize), want[8];
    cl_program p = NULL;
    cl_kernel k = NULL;
    cl_mem in, state, out;
    cl_uint generation = 1;
    cl_ulong n64 = n;
    const size_t global = tiles * TILE, local = TILE;
    uint64_t s = tu_seed() ^ (uint64_t)carry;
    size_t i, bad = 0;

    assert_non_null(lookback);
    assert_non_null(abi);
    assert_non_null(x);
    assert_non_null(got);
    for (i = 0; i < n; ++i)
        x[i] = (cl_int)(tu_rand(&s) % 2000001) - 1000000;
    snprintf(head, sizeof head,
             "#define CARRY %d\n#define WG_SIZE %d\n#define LOOKBACK_SPINS %u\n#define CLPRIM_NV_PTX %d\n"
             "#define SIMD_WIDTH %u\n",
             carry, TILE, spins, info.has_nv_ptx, info.simd_width);
    src = malloc(strlen(head) + strlen(abi) + sizeof kernel + 1);
    assert_non_null(src);
    sprintf(src, "%s%s%s", head, abi, kernel);
    /* lookback.clh through the include path: the kernel includes it by name */
    snprintf(options, sizeof options, "-cl-std=CL1.2 -I %s/cl/common", CLPRIM_SOURCE_DIR);
    p = clCreateProgramWithSource(cl, 1, (const char **)&src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[16384] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fail_msg("carry %d: build failed: %s", carry, log);
    }
    k = clCreateKernel(p, "carry", &err);
    assert_int_equal(err, CL_SUCCESS);
    in = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *x, x, &err);
    assert_int_equal(err, CL_SUCCESS);
    state = clCreateBuffer(cl, CL_MEM_READ_WRITE, state_bytes, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    out = clCreateBuffer(cl, CL_MEM_READ_WRITE, tiles * vsize, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    {
        const cl_uint zero = 0, poison = 0xA5A5A5A5u;
        assert_int_equal(clEnqueueFillBuffer(q, state, &zero, 4, 0, state_bytes, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueFillBuffer(q, out, &poison, 4, 0, tiles * vsize, 0, NULL, NULL), CL_SUCCESS);
    }
    assert_int_equal(clSetKernelArg(k, 0, sizeof in, &in), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof n64, &n64), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof state, &state), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof generation, &generation), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 4, sizeof out, &out), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 5, sizeof silent, &silent), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, out, CL_TRUE, 0, tiles * vsize, got, 0, NULL, NULL), CL_SUCCESS);
    for (i = 0; i < tiles; ++i) {
        expected(carry, x, n, i, want);
        if (memcmp(got + i * vsize, want, vsize) != 0 && bad++ < 3)
            printf("  carry %d spins %u silent %u: tile %zu of %zu wrong\n", carry, spins, silent, i,
                   tiles);
    }
    if (bad)
        fail_msg("carry %d spins %u silent %u: %zu of %zu tiles wrong (seed %llu)", carry, spins,
                 silent, bad, tiles, (unsigned long long)tu_seed());
    clReleaseMemObject(in);
    clReleaseMemObject(state);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    free(src);
    free(lookback);
    free(abi);
    free(x);
    free(got);
}

static void test_packed_counts(void **state)
{
    (void)state;
    run_carry(1, 4096, 0);
    run_carry(1, 1, 1);
}

static void test_split_sums(void **state)
{
    (void)state;
    run_carry(2, 4096, 0);
    run_carry(2, 1, 1);
}

static void test_slot_pairs(void **state)
{
    (void)state;
    run_carry(0, 4096, 0);
    run_carry(0, 1, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packed_counts),
        cmocka_unit_test(test_split_sums),
        cmocka_unit_test(test_slot_pairs),
    };
    int rc;
    ctx = tu_context();
    clprim_context_device_info(ctx, &info);
    if (!info.has_single_pass) {
        printf("# skipped: %s has no single-pass support\n", info.device_name);
        clprim_context_release(ctx);
        return 0;
    }
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clprim_context_release(ctx);
    return rc;
}

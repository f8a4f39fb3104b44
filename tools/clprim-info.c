/* SPDX-License-Identifier: MIT */
/* clprim-info: every OpenCL platform and device, what clprim sees on each,
 * and whether each kernel family builds and runs there. */
#include <clprim.h>

#include <stdio.h>
#include <string.h>

/* reduce >= 0: check that reduce algorithm instead of the scan one */
static void check_family(clprim_context *ctx, clprim_scan_algorithm a, clprim_type t, int reduce)
{
    /* 5 elements: tiny, but every family's kernels build and run */
    unsigned char buf[5 * 8] = {0};
    clprim_scan_desc d = {t, CLPRIM_OP_SUM, 0, a, NULL, NULL, CLPRIM_REPRO_NONE};
    char why[160] = "";
    clprim_status st;
    int i;
    for (i = 0; i < 5; ++i) { /* ones, as int or float of the element's width */
        if (t == CLPRIM_TYPE_FLOAT) { float one = 1; memcpy(buf + 4 * i, &one, 4); }
        else if (t == CLPRIM_TYPE_DOUBLE) { double one = 1; memcpy(buf + 8 * i, &one, 8); }
        else buf[clprim_type_size(t) * i] = 1;
    }
    const char *family = reduce >= 0 ? "reduce" : "scan";
    const char *name = reduce >= 0 ? clprim_reduce_algorithm_name((clprim_reduce_algorithm)reduce)
                                   : clprim_scan_algorithm_name(a);
    if (reduce >= 0) {
        clprim_reduce_desc rd = {t, CLPRIM_OP_SUM, (clprim_reduce_algorithm)reduce, NULL, NULL, CLPRIM_REPRO_NONE};
        unsigned char value[8];
        st = clprim_reduce_host(ctx, &rd, buf, 5, value);
        memcpy(buf + clprim_type_size(t) * 4, value, clprim_type_size(t)); /* as the scan's last */
    } else {
        st = clprim_scan_host(ctx, &d, buf, buf, 5);
    }
    if (st == CLPRIM_SUCCESS) { /* the inclusive sum of five ones ends in 5 */
        double last = buf[clprim_type_size(t) * 4];
        float f;
        if (t == CLPRIM_TYPE_FLOAT) {
            memcpy(&f, buf + 16, sizeof f);
            last = f;
        } else if (t == CLPRIM_TYPE_DOUBLE) {
            memcpy(&last, buf + 32, sizeof last);
        }
        if (last != 5.0) {
            printf("    %-6s %-18s %-7s WRONG RESULT (%g, expected 5)\n", family, name,
                   clprim_type_name(t), last);
            return;
        }
    } else {
        clprim_context_last_error(ctx, why, sizeof why);
        for (i = 0; why[i]; ++i)
            if (why[i] == '\n')
                why[i] = ' ';
    }
    printf("    %-6s %-18s %-7s %s %s\n", family, name, clprim_type_name(t),
           st == CLPRIM_SUCCESS ? "ok" : clprim_status_string(st), why);
}

static const char usage[] =
    "usage: clprim-info [--help]\n"
    "Lists every OpenCL platform and device, what clprim probes on each (SIMD width\n"
    "and where it came from, local memory and banks, fp64, 64-bit atomics, inline\n"
    "PTX, single-pass support), the tuning rows it would use, and whether each\n"
    "kernel family builds and gives the\n"
    "right answer there. Exit status 1 when no OpenCL platform is found.\n";

int main(int argc, char **argv)
{
    cl_platform_id platforms[16];
    cl_uint np = 0, p;
    if (argc > 1) {
        const int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");
        if (!help)
            fprintf(stderr, "clprim-info: unknown option %s\n", argv[1]);
        fputs(usage, help ? stdout : stderr);
        return help ? 0 : 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) {
        printf("no OpenCL platform found: install a driver (pocl-opencl-icd runs on any CPU)\n"
               "and check with clinfo that it is listed\n");
        return 1;
    }
    printf("clprim %s\n", clprim_version_string());
    for (p = 0; p < np && p < 16; ++p) {
        cl_device_id devs[16];
        cl_uint nd = 0, d;
        clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd);
        for (d = 0; d < nd && d < 16; ++d) {
            cl_int err;
            cl_context c = clCreateContext(NULL, 1, &devs[d], NULL, NULL, &err);
            clprim_context *ctx = NULL;
            clprim_device_info i;
            int a;
            if (err != CL_SUCCESS || clprim_context_wrap(c, devs[d], NULL, NULL, &ctx) != CLPRIM_SUCCESS) {
                printf("platform %u device %u: cannot create a context\n", p, d);
                if (c)
                    clReleaseContext(c);
                continue;
            }
            clprim_context_device_info(ctx, &i);
            printf("\n%s / %s\n", i.platform_name, i.device_name);
            printf("  driver %s, vendor 0x%04x, %u compute units\n", i.driver_version, i.vendor_id,
                   i.compute_units);
            printf("  SIMD width %u (%s)\n", i.simd_width, i.simd_source);
            printf("  local memory %llu bytes, %u banks; max work-group %zu\n",
                   (unsigned long long)i.local_mem_size, i.local_mem_banks, i.max_work_group_size);
            printf("  global memory %llu MiB, max allocation %llu MiB\n",
                   (unsigned long long)(i.global_mem_size >> 20),
                   (unsigned long long)(i.max_alloc_size >> 20));
            printf("  fp64 %s, int64 atomics %s, sub-groups %s, inline PTX %s, single-pass scan %s\n",
                   i.has_fp64 ? "yes" : "no", i.has_int64_atomics ? "yes" : "no",
                   i.has_subgroups ? "yes" : "no", i.has_nv_ptx ? "yes" : "no",
                   i.has_single_pass ? "yes" : "no");
            printf("  tuning rows (4-byte elements, large n; clprim_context_tuning):\n");
            {
                static const char *const prims[] = {"scan", "reduce", "compact", "segment", "sat",
                                                    "sort", "search", "histogram", "merge",
                                                    "top_k"};
                char row[1024];
                size_t k;
                for (k = 0; k < sizeof prims / sizeof prims[0]; ++k)
                    if (clprim_context_tuning(ctx, prims[k], 4, (size_t)1 << 28, row, sizeof row))
                        printf("    %s\n", row);
            }
            printf("  kernel families:\n");
            for (a = 1; a < CLPRIM_SCAN_ALGORITHM_COUNT_; ++a)
                check_family(ctx, (clprim_scan_algorithm)a, CLPRIM_TYPE_INT32, -1);
            check_family(ctx, CLPRIM_SCAN_AUTO, CLPRIM_TYPE_INT64, -1);
            check_family(ctx, CLPRIM_SCAN_AUTO, CLPRIM_TYPE_FLOAT, -1);
            check_family(ctx, CLPRIM_SCAN_AUTO, CLPRIM_TYPE_DOUBLE, -1);
            for (a = 1; a < CLPRIM_REDUCE_ALGORITHM_COUNT_; ++a)
                check_family(ctx, CLPRIM_SCAN_AUTO, CLPRIM_TYPE_INT32, a);
            check_family(ctx, CLPRIM_SCAN_AUTO, CLPRIM_TYPE_DOUBLE, CLPRIM_REDUCE_AUTO);
            clprim_context_release(ctx);
            clReleaseContext(c);
        }
    }
    return 0;
}

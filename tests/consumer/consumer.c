/* SPDX-License-Identifier: MIT */
/* A user's program: an inclusive max-scan and a sum of random integers,
 * checked against loops on the host. Exit status 0 when both are right. */
#include <clprim.h>
#include <stdio.h>

#define N 100003

static cl_int x[N], y[N];

int main(void)
{
    clprim_context *ctx = NULL;
    clprim_scan_desc scan = {CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, 0, CLPRIM_SCAN_AUTO, NULL, NULL,
                             CLPRIM_REPRO_NONE};
    clprim_reduce_desc sum = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL,
                              CLPRIM_REPRO_NONE};
    cl_uint state = 12345u, total = 0;
    cl_int best = -2147483647 - 1, got_sum = 0;
    clprim_status st;
    int i, bad = 0;

    for (i = 0; i < N; ++i) {
        state = state * 1664525u + 1013904223u;
        x[i] = (cl_int)(state >> 8) - (1 << 23);
    }
    st = clprim_context_create(NULL, &ctx);
    if (st == CLPRIM_SUCCESS)
        st = clprim_scan_host(ctx, &scan, x, y, N);
    if (st == CLPRIM_SUCCESS)
        st = clprim_reduce_host(ctx, &sum, x, N, &got_sum);
    if (st != CLPRIM_SUCCESS) {
        char why[1024] = "";
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "clprim %s: %s: %s\n", clprim_version_string(), clprim_status_string(st),
                why);
        clprim_context_release(ctx);
        return 1;
    }
    for (i = 0; i < N; ++i) {
        best = x[i] > best ? x[i] : best;
        total += (cl_uint)x[i];
        bad += y[i] != best;
    }
    bad += (cl_uint)got_sum != total;
    printf("clprim %s: %s\n", clprim_version_string(), bad ? "WRONG" : "ok");
    clprim_context_release(ctx);
    return bad != 0;
}

/* SPDX-License-Identifier: MIT */
/* The README's example: an exclusive prefix sum of a host array. */
#include <clprim.h>
#include <stdio.h>

int main(void)
{
    clprim_context *ctx = NULL;
    /* int32 sum, inclusive, AUTO (spelt out, so that it compiles as C++ too) */
    clprim_scan_desc desc = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    cl_int in[8] = {3, 1, 7, 0, 4, 1, 6, 3}, out[8];
    char why[512];
    clprim_status st;
    int i;

    st = clprim_context_create(NULL, &ctx); /* device from CLPRIM_DEVICE, else first GPU */
    if (st != CLPRIM_SUCCESS) {
        fprintf(stderr, "no context: %s\n", clprim_status_string(st));
        return 1;
    }
    desc.exclusive = 1;
    st = clprim_scan_host(ctx, &desc, in, out, 8);
    if (st != CLPRIM_SUCCESS) {
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "scan failed: %s: %s\n", clprim_status_string(st), why);
        clprim_context_release(ctx);
        return 1;
    }
    for (i = 0; i < 8; ++i)
        printf("%d ", out[i]); /* 0 3 4 11 11 15 16 22 */
    printf("\n");
    clprim_context_release(ctx);
    return out[7] == 22 ? 0 : 1;
}

/* Per-row sums of a CSR matrix (rows 1 and 3 empty) with one segmented
 * reduce by offsets; and a running count of the positive entries, counted
 * in uint32 by a transform-scan without writing the 0/1 flags anywhere. */
#include <clprim.h>
#include <stdio.h>

int main(void)
{
    const cl_int row_ptr[] = {0, 3, 3, 5, 5, 8}; /* 5 rows, 8 entries */
    const float values[] = {1, -2, 3, 4, 5, -6, 7, 8};
    const float want[] = {2, 0, 9, 0, 9};
    clprim_segments rows = {CLPRIM_SEGMENTS_OFFSETS, NULL, 0, CLPRIM_TYPE_INT32, NULL, 5};
    clprim_reduce_desc sum = {CLPRIM_TYPE_FLOAT, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_transform positive = {CLPRIM_TYPE_FLOAT, "x > 0.0f"};
    clprim_scan_desc count = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL,
                              &positive, CLPRIM_REPRO_NONE};
    float row_sums[5];
    cl_uint positives[8];
    size_t rows_out = 0, i;
    int wrong = 0;
    clprim_context *ctx = NULL;
    clprim_status st = clprim_context_create(NULL, &ctx);
    if (st == CLPRIM_SUCCESS)
        st = clprim_segmented_reduce_host(ctx, &sum, &rows, row_ptr, values, 8, row_sums, NULL,
                                          &rows_out);
    if (st == CLPRIM_SUCCESS)
        st = clprim_scan_host(ctx, &count, values, positives, 8);
    if (st != CLPRIM_SUCCESS) {
        char why[1024] = "";
        if (ctx)
            clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "clprim: %s %s\n", clprim_status_string(st), why);
        clprim_context_release(ctx);
        return 1;
    }
    for (i = 0; i < rows_out; ++i) {
        printf("row %zu: %g\n", i, row_sums[i]);
        wrong |= row_sums[i] != want[i];
    }
    printf("positive entries so far: %u ... %u\n", positives[0], positives[7]);
    clprim_context_release(ctx);
    return wrong || rows_out != 5 || positives[7] != 6;
}

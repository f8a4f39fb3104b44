/* Exam scores of 1000 students: how many fell in each band of ten points
 * (clprim_histogram), each student's grade from the sorted cut-offs
 * (clprim_upper_bound: the number of cut-offs at or below the score), and
 * the three best with their student numbers (clprim_top_k). Each result is
 * checked against a loop on the host. */
#include <clprim.h>
#include <stdio.h>

#define N 1000

int main(void)
{
    static cl_float score[N];
    static cl_uint id[N], grade[N], band[10];
    const cl_float cutoffs[] = {50.0f, 65.0f, 80.0f, 90.0f}; /* F below 50, then D, C, B, A */
    const clprim_histogram_desc bands = {.sample_type = CLPRIM_PIXEL_FLOAT,
                                         .count_type = CLPRIM_TYPE_UINT32,
                                         .bins = 10, .lower = 0.0, .upper = 100.0};
    const clprim_search_desc by_cutoff = {.key_type = CLPRIM_TYPE_FLOAT,
                                          .index_type = CLPRIM_TYPE_UINT32};
    const clprim_top_k_desc best = {.key_type = CLPRIM_TYPE_FLOAT, .value_size = sizeof(cl_uint),
                                    .largest = 1, .sorted = 1};
    cl_float top[3];
    cl_uint top_id[3], state = 2024u;
    clprim_context *ctx = NULL;
    clprim_status st;
    int i, j, wrong = 0;

    for (i = 0; i < N; ++i) {
        state = state * 1664525u + 1013904223u;
        score[i] = (float)(state >> 8) / 16777216.0f * 100.0f; /* [0, 100) */
        id[i] = 1000u + (cl_uint)i;
    }
    st = clprim_context_create(NULL, &ctx);
    if (st == CLPRIM_SUCCESS)
        st = clprim_histogram_host(ctx, &bands, score, N, NULL, band);
    if (st == CLPRIM_SUCCESS)
        st = clprim_upper_bound_host(ctx, &by_cutoff, cutoffs, 4, score, N, grade);
    if (st == CLPRIM_SUCCESS)
        st = clprim_top_k_host(ctx, &best, score, id, N, 3, top, top_id);
    if (st != CLPRIM_SUCCESS) {
        char why[1024] = "";
        if (ctx)
            clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "clprim: %s %s\n", clprim_status_string(st), why);
        clprim_context_release(ctx);
        return 1;
    }
    for (j = 0; j < 10; ++j) {
        cl_uint want = 0;
        for (i = 0; i < N; ++i) /* the bin as clprim_histogram finds it: (x - lower) * scale */
            want += (int)((score[i] - 0.0f) * 0.1f) == j;
        printf("%2d-%3d points: %u students\n", 10 * j, 10 * (j + 1), band[j]);
        wrong |= band[j] != want;
    }
    for (i = 0; i < N; ++i) {
        cl_uint want = 0;
        for (j = 0; j < 4; ++j)
            want += cutoffs[j] <= score[i];
        wrong |= grade[i] != want;
    }
    printf("student %u scored %.2f: grade %c\n", id[0], score[0], "FDCBA"[grade[0]]);
    for (j = 0; j < 3; ++j) {
        int better = 0;
        for (i = 0; i < N; ++i)
            better += score[i] > top[j];
        printf("best %d: student %u, %.2f\n", j + 1, top_id[j], top[j]);
        wrong |= better != j || score[top_id[j] - 1000u] != top[j];
    }
    clprim_context_release(ctx);
    return wrong;
}

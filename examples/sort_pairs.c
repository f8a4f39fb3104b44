/* Particles ordered by depth, farthest first: float keys sorted descending,
 * each carrying its particle id (a uint32 value), in one call. Equal depths
 * keep their input order (the sort is stable); +0.0 counts as above -0.0. */
#include <clprim.h>
#include <stdio.h>

int main(void)
{
    float depth[] = {0.5f, 2.0f, -1.0f, 2.0f, 0.0f, -0.0f, 7.25f, 0.5f};
    cl_uint id[] = {0, 1, 2, 3, 4, 5, 6, 7};
    const cl_uint want[] = {6, 1, 3, 0, 7, 4, 5, 2};
    clprim_sort_desc by_depth = {CLPRIM_TYPE_FLOAT, sizeof(cl_uint), 1, 0, 0, CLPRIM_SORT_AUTO,
                                 NULL, 0};
    clprim_context *ctx = NULL;
    int wrong = 0, i;
    clprim_status st = clprim_context_create(NULL, &ctx);
    if (st == CLPRIM_SUCCESS)
        st = clprim_sort_host(ctx, &by_depth, depth, id, 8);
    if (st != CLPRIM_SUCCESS) {
        char why[1024] = "";
        if (ctx)
            clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "clprim: %s %s\n", clprim_status_string(st), why);
        clprim_context_release(ctx);
        return 1;
    }
    for (i = 0; i < 8; ++i) {
        printf("particle %u at depth %g\n", id[i], depth[i]);
        wrong |= id[i] != want[i];
    }
    clprim_context_release(ctx);
    return wrong;
}

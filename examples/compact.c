/* SPDX-License-Identifier: MIT */
/* Stream compaction: keep the positive readings of a host array, in order. */
#include <clprim.h>
#include <stdio.h>

int main(void)
{
    clprim_context *ctx = NULL;
    clprim_compact_desc desc;
    const cl_float zero = 0.0f;
    cl_float in[10] = {0.5f, -1.0f, 2.0f, 0.0f, -3.5f, 4.0f, 1.5f, -0.25f, 7.0f, -2.0f}, out[10];
    size_t kept = 0, i;

    desc = (clprim_compact_desc){0};
    desc.type = CLPRIM_TYPE_FLOAT;
    desc.predicate = CLPRIM_PREDICATE_GREATER; /* keep x > *value */
    desc.value = &zero;
    if (clprim_context_create(NULL, &ctx) != CLPRIM_SUCCESS ||
        clprim_select_host(ctx, &desc, in, NULL, out, 10, &kept) != CLPRIM_SUCCESS) {
        char why[1024] = "";
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "select failed: %s\n", why);
        clprim_context_release(ctx);
        return 1;
    }
    for (i = 0; i < kept; ++i)
        printf("%g ", out[i]); /* 0.5 2 4 1.5 7 */
    printf("(%zu kept)\n", kept);
    clprim_context_release(ctx);
    return kept == 5 && out[4] == 7.0f ? 0 : 1;
}

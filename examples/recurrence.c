/* SPDX-License-Identifier: MIT */
/* The second documented example (docs/algorithms.md): a linear recurrence
 * x[i] = a[i]*x[i-1] + b[i] (x[-1] = 0) solved with a scan over a
 * user-defined operator: composition of the affine maps x -> a*x + b, given
 * as OpenCL C. */
#include <clprim.h>
#include <math.h>
#include <stdio.h>

#define N 100000

static cl_float2 ab[N];

static float a_of(unsigned i) { return 0.5f + 0.5f * (float)(i * 7919u % 1000u) / 1000.0f; }
static float b_of(unsigned i) { return ((float)(i * 104729u % 2001u) - 1000.0f) / 1000.0f; }

int main(void)
{
    clprim_context *ctx = NULL;
    clprim_operator *affine = NULL;
    clprim_operator_desc op = {0};
    clprim_scan_desc desc = {0};
    char why[4096];
    float x = 0.0f, worst = 0.0f;
    int i, rc = 1;

    for (i = 0; i < N; ++i) { /* a in [0.5, 1), b in [-1, 1] */
        ab[i].s[0] = a_of((unsigned)i);
        ab[i].s[1] = b_of((unsigned)i);
    }
    op.type = "float2";                                   /* .x = a, .y = b */
    op.combine = "(float2)(a.x * b.x, b.x * a.y + b.y)";  /* a first, then b */
    op.identity = "(float2)(1.0f, 0.0f)";                 /* x -> x */
    op.size = sizeof(cl_float2);
    if (clprim_context_create(NULL, &ctx) != CLPRIM_SUCCESS ||
        clprim_operator_create(ctx, &op, &affine) != CLPRIM_SUCCESS)
        goto done;
    desc.custom = affine;                  /* inclusive, AUTO; type and op unused */
    if (clprim_scan_host(ctx, &desc, ab, ab, N) != CLPRIM_SUCCESS)
        goto done;
    for (i = 0; i < N; ++i) { /* the composed map sends x[-1] = 0 to its .y */
        x = a_of((unsigned)i) * x + b_of((unsigned)i);
        if (fabsf(ab[i].s[1] - x) > worst)
            worst = fabsf(ab[i].s[1] - x);
    }
    printf("x[%d] = %g (sequential %g), largest difference %g\n", N - 1, ab[N - 1].s[1], x, worst);
    rc = worst < 1e-3f ? 0 : 1;
done:
    if (rc && ctx) {
        clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "failed: %s\n", why);
    }
    clprim_operator_release(affine);
    clprim_context_release(ctx);
    return rc;
}

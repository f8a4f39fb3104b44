/* User-defined operators and element types: the define header that makes the
 * generic kernels run on them, the probe that checks a description before
 * anything runs, and the element resolution every primitive starts with. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clprim_operator {
    clprim_context *ctx; /* the context it was checked on (compared, never used) */
    size_t size;
    char *defines;       /* element layer: the caller's source, then T, OP, ... */
};

/* The element layer for a caller's operator. OP and IDENTITY become inline
 * functions rather than macros around the caller's text, so that an argument
 * is evaluated once, a wrong result type is a compile error, and the caller's
 * expression needs no parentheses. The caller's source comes first: it may
 * use any name, T included, before the library's macros exist. */
static char *operator_defines(const clprim_context *ctx, const clprim_operator_desc *d)
{
    static const char fmt[] =
        "%s#line 1 \"operator source\"\n%s\n"
        "#define CLPRIM_T_BUILTIN 0\n#define CLPRIM_COMMUTATIVE %d\n"
        "#define T %s\n#define T_SIZE %zu\n"
        "#line 1 \"operator combine\"\n"
        "inline T clprim_user_op(T a, T b) { return (%s); }\n"
        "#line 1 \"operator identity\"\n"
        "inline T clprim_user_identity(void) { return (%s); }\n"
        "#define OP(a, b) clprim_user_op((a), (b))\n#define IDENTITY clprim_user_identity()\n";
    const char *fp64 = ctx->info.has_fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
    return clprim__format(fmt, fp64, d->source ? d->source : "",
                          (d->flags & CLPRIM_OPERATOR_COMMUTATIVE) != 0, d->type, d->size,
                          d->combine, d->identity);
}

static int blank(const char *s)
{
    if (!s)
        return 1;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        ++s;
    return *s == '\0';
}

/* Lock held. Builds cl/probe.cl for the operator and runs it: sizeof(T) on
 * the device, and the identity on itself and on the samples. */
static clprim_status probe(clprim_context *ctx, const clprim_operator_desc *d,
                           const char *defines)
{
    clprim__tuning t = clprim__tuning_for(&ctx->info, d->size);
    clprim__program *prog;
    cl_kernel k;
    cl_mem samples = NULL, result = NULL;
    cl_uint count = (cl_uint)d->sample_count, out[3] = {0, 0, 0};
    const size_t one = 1;
    clprim_status st;

    st = clprim__program_get(ctx, "probe.cl", defines, &t, &prog);
    if (st == CLPRIM_SUCCESS)
        st = clprim__program_kernel(ctx, prog, "clprim_probe", &k);
    if (st != CLPRIM_SUCCESS)
        goto cleanup;
    samples = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | (count ? CL_MEM_COPY_HOST_PTR : 0),
                             count ? d->size * count : d->size, count ? (void *)d->samples : NULL,
                             &st);
    if (st == CL_SUCCESS)
        result = clCreateBuffer(ctx->cl_ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &st);
    if (st != CL_SUCCESS) {
        clprim__fail(ctx, st, "cannot allocate the operator probe's buffers");
        goto cleanup;
    }
    {
        const size_t sizes[] = {sizeof(cl_mem), sizeof(cl_uint), sizeof(cl_mem)};
        const void *const values[] = {&samples, &count, &result};
        st = clprim__set_args(ctx, k, 3, sizes, values);
    }
    if (st == CLPRIM_SUCCESS)
        st = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS)
        st = clEnqueueReadBuffer(ctx->queue, result, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    if (st != CLPRIM_SUCCESS) {
        clprim__fail(ctx, st, "running the operator probe failed (%s)", clprim_status_string(st));
        goto cleanup;
    }
    if (out[0] != d->size)
        st = clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                          "custom operator: size is %zu bytes but sizeof(%s) is %u on %s",
                          d->size, d->type, out[0], ctx->info.device_name);
    else if (out[1] & 1u)
        st = clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                          "custom operator: the identity is not an identity: "
                          "identity op identity != identity");
    else if (out[1])
        st = clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                          "custom operator: the identity is not an identity: "
                          "%s != sample %u (samples[%u])",
                          (out[1] & 2u) ? "identity op sample" : "sample op identity", out[2],
                          out[2]);
cleanup:
    if (samples)
        clReleaseMemObject(samples);
    if (result)
        clReleaseMemObject(result);
    return st;
}

static clprim_status create_locked(clprim_context *ctx, const clprim_operator_desc *d,
                                   clprim_operator **out)
{
    clprim_operator *op = NULL;
    clprim_status st;

    if (!d || !out)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc or op is NULL");
    if (blank(d->type) || blank(d->combine) || blank(d->identity))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "custom operator: type, combine and identity are all required");
    if (d->size == 0 || d->size > 65536)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "custom operator: size %zu is not 1..65536 bytes", d->size);
    if (d->sample_count && (!d->samples || d->sample_count > 0xFFFFFFFFu))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "custom operator: sample_count %zu without samples, or too many",
                            d->sample_count);
    op = calloc(1, sizeof *op);
    if (op)
        op->defines = operator_defines(ctx, d);
    if (!op || !op->defines) {
        st = clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
        goto cleanup;
    }
    op->ctx = ctx;
    op->size = d->size;
    st = probe(ctx, d, op->defines);
cleanup:
    if (st != CLPRIM_SUCCESS) {
        clprim_operator_release(op);
        op = NULL;
    }
    *out = op;
    return st;
}

clprim_status clprim_operator_create(clprim_context *ctx, const clprim_operator_desc *desc,
                                     clprim_operator **op)
{
    clprim_status st;
    if (op)
        *op = NULL;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    st = create_locked(ctx, desc, op);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

void clprim_operator_release(clprim_operator *op)
{
    if (!op)
        return;
    free(op->defines);
    free(op);
}

size_t clprim_operator_size(const clprim_operator *op)
{
    return op ? op->size : 0;
}

size_t clprim__element_size(clprim_type type, const clprim_operator *custom)
{
    return custom ? custom->size : clprim_type_size(type);
}

clprim_status clprim__element_resolve(clprim_context *ctx, clprim_type type, clprim_op op,
                                      const clprim_operator *custom, clprim__element *e)
{
    if (custom) {
        if (custom->ctx != ctx)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "desc->custom was created on another context");
        e->size = custom->size;
        e->builtin = 0;
        e->defines = custom->defines;
        return CLPRIM_SUCCESS;
    }
    if ((unsigned)type >= CLPRIM_TYPE_COUNT_)
        return clprim__fail(ctx, CLPRIM_UNKNOWN_TYPE, "desc->type %d is not a clprim_type",
                            (int)type);
    if ((unsigned)op >= CLPRIM_OP_COUNT_)
        return clprim__fail(ctx, CLPRIM_UNKNOWN_OPERATOR, "desc->op %d is not a clprim_op",
                            (int)op);
    if (type == CLPRIM_TYPE_DOUBLE && !ctx->info.has_fp64)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "double needs cl_khr_fp64, which %s lacks",
                            ctx->info.device_name);
    e->size = clprim_type_size(type);
    e->builtin = 1;
    e->defines = e->own;
    if (clprim__element_defines(type, op, e->own, sizeof e->own) != 0)
        return clprim__fail(ctx, CLPRIM_INTERNAL, "element defines do not fit");
    return CLPRIM_SUCCESS;
}

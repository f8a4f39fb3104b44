/* SPDX-License-Identifier: MIT */
/* The caller's element types and operators: checked on the device (the
 * probe: sizeof, and the identity law) before anything runs. Their define
 * headers and the resolution of a call's element are element.c's. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
                           const char *type, size_t size, const char *defines)
{
    clprim__program_spec spec = {.file = "probe.cl", .element = defines};
    clprim__program *prog;
    cl_kernel k;
    cl_mem samples = NULL, result = NULL;
    cl_uint count = d ? (cl_uint)d->sample_count : 0, out[3] = {0, 0, 0};
    const size_t one = 1;
    clprim_status st;

    spec.wg_size = clprim__clamp_wg(&ctx->info, ctx->info.simd_width);
    st = clprim__program_get(ctx, &spec, &prog);
    if (st == CLPRIM_SUCCESS)
        st = clprim__program_kernel(ctx, prog, "clprim_probe", &k);
    if (st != CLPRIM_SUCCESS)
        goto cleanup;
    samples = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | (count ? CL_MEM_COPY_HOST_PTR : 0),
                             count ? size * count : size, count ? (void *)d->samples : NULL,
                             &st);
    if (st == CL_SUCCESS)
        result = clCreateBuffer(ctx->cl_ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &st);
    if (st != CL_SUCCESS) {
        clprim__fail(ctx, st, "cannot allocate the element probe's buffers");
        goto cleanup;
    }
    {
        const clprim__arg args[] = {CLPRIM__ARG(samples), CLPRIM__ARG(count),
                                    CLPRIM__ARG(result)};
        st = CLPRIM__SET_ARGS(ctx, k, args);
    }
    if (st == CLPRIM_SUCCESS)
        st = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
    if (st == CLPRIM_SUCCESS)
        st = clEnqueueReadBuffer(ctx->queue, result, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    if (st != CLPRIM_SUCCESS) {
        clprim__fail(ctx, st, "running the element probe failed (%s)", clprim_status_string(st));
        goto cleanup;
    }
    if (out[0] != size)
        st = clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                          "custom %s: size is %zu bytes but sizeof(%s) is %u on %s",
                          d ? "operator" : "element", size, type, out[0], ctx->info.device_name);
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

/* The element description's checks, shared by elements and operators. */
static clprim_status check_element(clprim_context *ctx, const char *what, const char *type,
                                   size_t size)
{
    if (blank(type))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "custom %s: type is required", what);
    if (size == 0 || size > 65536)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "custom %s: size %zu is not 1..65536 bytes", what, size);
    return CLPRIM_SUCCESS;
}

static char *copy_string(const char *s)
{
    return clprim__format("%s", s ? s : "");
}

static clprim_status element_create_locked(clprim_context *ctx, const clprim_element_desc *d,
                                           clprim_element **out)
{
    clprim_element *el = NULL;
    char *defines = NULL;
    clprim_status st;

    if (!d || !out)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc or element is NULL");
    st = check_element(ctx, "element", d->type, d->size);
    if (st != CLPRIM_SUCCESS)
        return st;
    el = clprim__calloc(1, sizeof *el);
    if (el) {
        el->type = copy_string(d->type);
        el->source = copy_string(d->source);
        defines = clprim__element_type_defines(ctx, d->type, d->source, d->size, NULL, NULL, 0);
    }
    if (!el || !el->type || !el->source || !defines) {
        st = clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
        goto cleanup;
    }
    el->ctx = ctx;
    el->size = d->size;
    el->defines = defines;
    defines = NULL;
    st = probe(ctx, NULL, d->type, d->size, el->defines);
    if (st == CLPRIM_SUCCESS && clprim__handle_add(el) != 0)
        st = clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
cleanup:
    free(defines);
    if (st != CLPRIM_SUCCESS) {
        clprim_element_release(el);
        el = NULL;
    }
    *out = el;
    return st;
}

clprim_status clprim_element_create(clprim_context *ctx, const clprim_element_desc *desc,
                                    clprim_element **element)
{
    clprim_status st;
    if (element)
        *element = NULL;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    st = element_create_locked(ctx, desc, element);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

void clprim_element_release(clprim_element *element)
{
    if (!element)
        return;
    clprim__handle_remove(element);
    free(element->type);
    free(element->source);
    free(element->defines);
    free(element);
}

size_t clprim_element_size(const clprim_element *element)
{
    return element && clprim__handle_live(element) ? element->size : 0;
}

static clprim_status create_locked(clprim_context *ctx, const clprim_operator_desc *d,
                                   clprim_operator **out)
{
    clprim_operator *op = NULL;
    const char *type, *source;
    size_t size;
    clprim_status st;

    if (!d || !out)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc or op is NULL");
    if (d->element && !clprim__handle_live(d->element))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->element is not a live element type (released, or not from "
                            "clprim_element_create)");
    if (d->element && d->element->ctx != ctx)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->element was created on another context");
    if (d->element && (d->type || d->source || d->size)) /* refused, not ignored */
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->%s: desc->element brings its own type, source and size; "
                            "leave them NULL and 0",
                            d->type ? "type" : d->source ? "source" : "size");
    /* the operator is built on an element type: the caller's object, or
     * the description's own fields */
    type = d->element ? d->element->type : d->type;
    source = d->element ? d->element->source : d->source;
    size = d->element ? d->element->size : d->size;
    if (blank(d->combine) || blank(d->identity))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "custom operator: type, combine and identity are all required");
    st = check_element(ctx, "operator", type, size);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (d->sample_count && (!d->samples || d->sample_count > 0xFFFFFFFFu))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "custom operator: sample_count %zu without samples, or too many",
                            d->sample_count);
    op = clprim__calloc(1, sizeof *op);
    if (op)
        op->defines = clprim__element_type_defines(ctx, type, source, size, d->combine,
                                                   d->identity,
                                                   (d->flags & CLPRIM_OPERATOR_COMMUTATIVE) != 0);
    if (!op || !op->defines) {
        st = clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
        goto cleanup;
    }
    op->ctx = ctx;
    op->size = size;
    op->commutative = (d->flags & CLPRIM_OPERATOR_COMMUTATIVE) != 0;
    st = probe(ctx, d, type, size, op->defines);
    if (st == CLPRIM_SUCCESS && clprim__handle_add(op) != 0)
        st = clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
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
    clprim__handle_remove(op);
    free(op->defines);
    free(op);
}

size_t clprim_operator_size(const clprim_operator *op)
{
    return op && clprim__handle_live(op) ? op->size : 0;
}


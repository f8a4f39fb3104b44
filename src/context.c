/* SPDX-License-Identifier: MIT */
/* Contexts: device choice, the OpenCL objects a context holds, create /
 * wrap / release and the accessors. Nothing else: messages are diag.c's,
 * argument checks and enqueueing launch.c's. */
#include "internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cl_khr_icd: what the ICD loader returns when no platform is installed */
#define CLPRIM__PLATFORM_NOT_FOUND_KHR (-1001)

/* ---- device choice ---- */

static int contains_nocase(const char *hay, const char *needle)
{
    size_t i, j;
    for (i = 0; hay[i]; ++i) {
        for (j = 0; needle[j] && hay[i + j] &&
                    tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]);
             ++j)
            ;
        if (!needle[j])
            return 1;
    }
    return !needle[0];
}

/* Why no device was chosen, for the log callback (no context survives to
 * hold it); the first failure is kept. */
typedef struct choice {
    clprim_status st;
    char msg[512];
} choice;

static clprim_status choice_fail(choice *c, clprim_status st, const char *fmt, ...)
{
    va_list ap;
    if (c->st == CLPRIM_SUCCESS) {
        c->st = st;
        va_start(ap, fmt);
        vsnprintf(c->msg, sizeof c->msg, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* The device whose "platform / device" name contains `want`, or (want NULL)
 * the first GPU, else the first CPU, else the first device. A listing or
 * name query that fails is not taken for "no such device": when no device
 * was found, or (want NULL) only a lesser kind than the listing that
 * failed could give, the call fails with that query's status, named in
 * c->msg. */
static clprim_status choose_device(const char *want, cl_device_id *out, choice *c)
{
    static const cl_device_type kinds[3] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU,
                                            CL_DEVICE_TYPE_ALL};
    static const char *const kind_names[3] = {"CL_DEVICE_TYPE_GPU", "CL_DEVICE_TYPE_CPU",
                                              "CL_DEVICE_TYPE_ALL"};
    cl_platform_id platforms[16];
    cl_uint np = 0, p, pass;
    cl_int err = clGetPlatformIDs(16, platforms, &np);
    if (err == CLPRIM__PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && np == 0))
        return choice_fail(c, CLPRIM_NO_DEVICE, "no OpenCL device found: install a driver "
                           "(pocl-opencl-icd runs on any CPU) and check with clinfo");
    if (err != CL_SUCCESS)
        return choice_fail(c, err, "listing OpenCL platforms failed: clGetPlatformIDs returned %s",
                           clprim_status_string(err));
    if (np > 16)
        np = 16;
    for (pass = want ? 2 : 0; pass < 3; ++pass) {
        for (p = 0; p < np; ++p) {
            cl_device_id devs[16];
            cl_uint nd = 0, d;
            char pname[256] = "", dname[256] = "", full[520];
            err = clGetDeviceIDs(platforms[p], kinds[pass], 16, devs, &nd);
            if (err == CL_DEVICE_NOT_FOUND)
                continue; /* none of this kind there */
            if (err != CL_SUCCESS) {
                choice_fail(c, err, "listing the devices of OpenCL platform %u failed: "
                            "clGetDeviceIDs(%s) returned %s", p, kind_names[pass],
                            clprim_status_string(err));
                continue;
            }
            if (!want) {
                if (nd) {
                    *out = devs[0];
                    return CLPRIM_SUCCESS;
                }
                continue;
            }
            /* unread, the platform's name matches nothing (its devices' names still may) */
            err = clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
            if (err != CL_SUCCESS) {
                pname[0] = '\0';
                choice_fail(c, err, "reading the name of OpenCL platform %u failed: "
                            "clGetPlatformInfo(CL_PLATFORM_NAME) returned %s", p,
                            clprim_status_string(err));
            }
            for (d = 0; d < nd && d < 16; ++d) {
                err = clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dname, dname, NULL);
                if (err != CL_SUCCESS) {
                    choice_fail(c, err, "reading the name of device %u of OpenCL platform %u "
                                "(%s) failed: clGetDeviceInfo(CL_DEVICE_NAME) returned %s", d, p,
                                pname, clprim_status_string(err));
                    continue;
                }
                snprintf(full, sizeof full, "%s / %s", pname, dname);
                if (contains_nocase(full, want)) {
                    *out = devs[d];
                    return CLPRIM_SUCCESS;
                }
            }
        }
        if (c->st != CLPRIM_SUCCESS)
            return c->st; /* not a lesser kind of device for a listing that failed */
    }
    if (want)
        return choice_fail(c, CLPRIM_NO_DEVICE, "no OpenCL device whose \"platform / device\" "
                           "name contains \"%s\" (clinfo -l lists them)", want);
    return choice_fail(c, CLPRIM_NO_DEVICE, "no OpenCL device found: install a driver "
                       "(pocl-opencl-icd runs on any CPU) and check with clinfo");
}

/* ---- create / wrap / release ---- */

/* A program from source belongs to every device of its context, though
 * built for one; drivers then disagree about it (NVIDIA refuses to create
 * its kernels, CL_INVALID_KERNEL_DEFINITION; PoCL 3 lists its binary under
 * the wrong device). So where the caller's cl_context holds several
 * devices, programs are built in a context of this device alone and moved
 * to the caller's as binaries (build.c). */
static clprim_status build_context(clprim_context *ctx)
{
    cl_uint devices = 0;
    cl_int err = clGetContextInfo(ctx->cl_ctx, CL_CONTEXT_NUM_DEVICES, sizeof devices, &devices,
                                  NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "clGetContextInfo(CL_CONTEXT_NUM_DEVICES) failed: %s",
                            clprim_status_string(err));
    if (devices > 1)
        ctx->build_ctx = clCreateContext(NULL, 1, &ctx->device, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "making a context of the device alone for its builds "
                            "failed: clCreateContext returned %s", clprim_status_string(err));
    return CLPRIM_SUCCESS;
}

/* Lock held (or ctx not yet shared). The tuning file at path (NULL or "":
 * none) becomes the context's rows; a refused file leaves them as they were. */
static clprim_status tuning_load(clprim_context *ctx, const char *path)
{
    clprim__tuning_file *f = NULL;
    char *why = NULL;
    clprim_status st = CLPRIM_SUCCESS;
    if (path && *path)
        st = clprim__tuning_file_read(path, &f, &why);
    if (st == CLPRIM_SUCCESS) {
        clprim__tuning_file_free(ctx->tuning);
        ctx->tuning = f;
    } else {
        st = why ? clprim__fail(ctx, st, "%s", why)
                 : clprim__fail(ctx, st, "out of host memory reading tuning file %s", path);
    }
    free(why);
    return st;
}

static clprim_status context_init(clprim_context *ctx, const clprim_context_options *opt)
{
    const char *failed = NULL, *tuning = getenv("CLPRIM_TUNING_FILE");
    clprim_status st;
    if (opt) {
        ctx->log = opt->log;
        ctx->log_user = opt->log_user;
        ctx->flags = opt->flags;
    }
    ctx->cache_dir = clprim__cache_dir(opt);
    st = tuning_load(ctx, tuning);
    if (st != CLPRIM_SUCCESS)
        return st;
    st = clprim__device_probe(ctx->device, ctx->flags, &ctx->info, &failed);
    if (st != CLPRIM_SUCCESS)
        return clprim__fail(ctx, st, "querying the device failed: %s returned %s",
                            failed ? failed : "?", clprim_status_string(st));
    if (!ctx->queue) {
        ctx->queue = clCreateCommandQueue(ctx->cl_ctx, ctx->device, CL_QUEUE_PROFILING_ENABLE, &st);
        if (st != CL_SUCCESS)
            return clprim__fail(ctx, st, "clCreateCommandQueue failed: %s",
                                clprim_status_string(st));
    }
    /* CLPRIM_PTX=0: NVIDIA runs the forms other vendors get, so that they
     * are tested on the one GPU at hand; PTX's match.any and single-pass
     * memory ordering go with it (the compute capability reads as 0) */
    if (ctx->info.has_nv_ptx && !clprim__switch(&ctx->knobs, CLPRIM__SWITCH_PTX, 1)) {
        ctx->info.has_nv_ptx = 0;
        ctx->info.has_single_pass = ctx->info.has_int64_atomics;
    }
    ctx->nv_compute_major = clprim__nv_compute_major(ctx->device, &ctx->info);
    st = build_context(ctx);
    if (st != CLPRIM_SUCCESS)
        return st;
    st = clprim__probe_simd_width(ctx);
    if (st != CLPRIM_SUCCESS)
        return st;
    clprim__choose_simd_form(ctx);
    clprim__log(ctx, CLPRIM_LOG_INFO,
                "clprim %s on %s / %s (SIMD width %u from %s); disk cache %s; tuning file %s",
                CLPRIM_VERSION_STRING, ctx->info.platform_name, ctx->info.device_name,
                ctx->info.simd_width, ctx->info.simd_source, ctx->cache_dir ? ctx->cache_dir : "off",
                ctx->tuning ? tuning : "none");
    return CLPRIM_SUCCESS;
}

static clprim_context *context_alloc(void)
{
    clprim_context *ctx = clprim__calloc(1, sizeof *ctx);
    if (ctx && pthread_mutex_init(&ctx->lock, NULL) != 0) {
        free(ctx);
        ctx = NULL;
    }
    if (ctx)
        clprim__knobs_read(&ctx->knobs);
    return ctx;
}

/* No memory for the context itself: the log callback hears it. */
static clprim_status no_memory(const clprim_context_options *opt)
{
    if (opt && opt->log)
        opt->log(opt->log_user, CLPRIM_LOG_WARNING, "out of host memory for the context");
    return CLPRIM_OUT_OF_HOST_MEMORY;
}

/* A failure before there is a context: the log callback hears it. */
static clprim_status refuse(const clprim_context_options *opt, clprim_status st, const char *fmt,
                            ...)
{
    if (opt && opt->log) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        opt->log(opt->log_user, CLPRIM_LOG_WARNING, msg);
    }
    return st;
}

/* Passes a failure's message to the log, since no context survives to hold it. */
static clprim_status fail_create(clprim_context *ctx, clprim_status st,
                                 const clprim_context_options *opt)
{
    if (opt && opt->log && ctx && ctx->error)
        opt->log(opt->log_user, CLPRIM_LOG_WARNING, ctx->error);
    else /* no message could be kept (out of host memory for it) */
        refuse(opt, st, "creating the context failed: %s", clprim_status_string(st));
    clprim_context_release(ctx);
    return st;
}

clprim_status clprim_context_create(const clprim_context_options *opt, clprim_context **out)
{
    const char *want = opt && opt->device ? opt->device : getenv("CLPRIM_DEVICE");
    clprim_context *ctx;
    cl_device_id dev = NULL;
    clprim_status st;
    choice c = {CLPRIM_SUCCESS, ""};

    if (!out)
        return CLPRIM_INVALID_ARGUMENT;
    *out = NULL;
    if (want && !*want)
        want = NULL;
    st = choose_device(want, &dev, &c);
    if (st != CLPRIM_SUCCESS) {
        /* no context survives to hold a message: the log callback hears why */
        if (opt && opt->log)
            opt->log(opt->log_user, CLPRIM_LOG_WARNING, c.msg);
        return st;
    }
    if (!(ctx = context_alloc()))
        return no_memory(opt);
    ctx->device = dev;
    ctx->cl_ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &st);
    if (st != CL_SUCCESS)
        return fail_create(ctx, clprim__fail(ctx, st, "clCreateContext failed: %s",
                                             clprim_status_string(st)), opt);
    st = context_init(ctx, opt);
    if (st != CLPRIM_SUCCESS)
        return fail_create(ctx, st, opt);
    *out = ctx;
    return CLPRIM_SUCCESS;
}

clprim_status clprim_context_wrap(cl_context cl_ctx, cl_device_id device, cl_command_queue queue,
                                  const clprim_context_options *opt, clprim_context **out)
{
    clprim_context *ctx;
    cl_device_id devs[64];
    size_t bytes = 0, i;
    clprim_status st;
    int found = 0;

    if (!out)
        return CLPRIM_INVALID_ARGUMENT;
    *out = NULL;
    if (!cl_ctx || !device)
        return refuse(opt, CLPRIM_INVALID_ARGUMENT, "clprim_context_wrap: %s is NULL",
                      cl_ctx ? "device" : "cl_ctx");
    st = clGetContextInfo(cl_ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, &bytes);
    if (st != CL_SUCCESS)
        return refuse(opt, st, "clprim_context_wrap: clGetContextInfo(CL_CONTEXT_DEVICES) "
                      "failed: %s", clprim_status_string(st));
    for (i = 0; i < bytes / sizeof devs[0]; ++i)
        found |= devs[i] == device;
    if (!found)
        return refuse(opt, CLPRIM_INVALID_ARGUMENT,
                      "clprim_context_wrap: the device is not one of cl_ctx's");
    if (queue) {
        cl_context qctx = NULL;
        cl_device_id qdev = NULL;
        st = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
        if (st == CL_SUCCESS)
            st = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
        if (st != CL_SUCCESS)
            return refuse(opt, st, "clprim_context_wrap: clGetCommandQueueInfo of the queue "
                          "failed: %s", clprim_status_string(st));
        if (qctx != cl_ctx || qdev != device)
            return refuse(opt, CLPRIM_INVALID_ARGUMENT, "clprim_context_wrap: the queue is not "
                          "of cl_ctx and the device");
    }
    if (!(ctx = context_alloc()))
        return no_memory(opt);
    clRetainContext(cl_ctx);
    ctx->cl_ctx = cl_ctx;
    ctx->device = device;
    if (queue) {
        clRetainCommandQueue(queue);
        ctx->queue = queue;
    }
    st = context_init(ctx, opt);
    if (st != CLPRIM_SUCCESS)
        return fail_create(ctx, st, opt);
    *out = ctx;
    return CLPRIM_SUCCESS;
}

void clprim_context_release(clprim_context *ctx)
{
    if (!ctx)
        return;
    clprim__pool_destroy(ctx->pool);
    clprim__program_cache_destroy(ctx->programs);
    if (ctx->build_ctx)
        clReleaseContext(ctx->build_ctx);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->cl_ctx)
        clReleaseContext(ctx->cl_ctx);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx->error);
    free(ctx->cache_dir);
    clprim__tuning_file_free(ctx->tuning);
    free(ctx);
}

clprim_status clprim_context_set_tuning_file(clprim_context *ctx, const char *path)
{
    clprim_status st;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    st = tuning_load(ctx, path);
    if (st == CLPRIM_SUCCESS)
        clprim__log(ctx, CLPRIM_LOG_INFO, "tuning file %s", ctx->tuning ? path : "none");
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

cl_context clprim_context_cl_context(const clprim_context *ctx)
{
    return ctx ? ctx->cl_ctx : NULL;
}

cl_device_id clprim_context_device(const clprim_context *ctx)
{
    return ctx ? ctx->device : NULL;
}

cl_command_queue clprim_context_queue(const clprim_context *ctx)
{
    return ctx ? ctx->queue : NULL;
}

clprim_status clprim_context_device_info(const clprim_context *ctx, clprim_device_info *info)
{
    if (!ctx || !info)
        return CLPRIM_INVALID_ARGUMENT;
    *info = ctx->info;
    return CLPRIM_SUCCESS;
}

/* Contexts: device choice, OpenCL objects, the last-error message, logging,
 * and the checks and enqueue helpers that every primitive shares. */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cl_khr_icd: what the ICD loader returns when no platform is installed */
#define CLPRIM__PLATFORM_NOT_FOUND_KHR (-1001)

/* ---- messages ---- */

static void set_message(clprim_context *ctx, const char *prefix, const char *text)
{
    size_t a = prefix ? strlen(prefix) : 0, b = strlen(text);
    char *m = malloc(a + b + 1);
    if (!m)
        return; /* keep the old message rather than fail while failing */
    if (a)
        memcpy(m, prefix, a);
    memcpy(m + a, text, b + 1);
    free(ctx->error);
    ctx->error = m;
}

static void set_message_v(clprim_context *ctx, const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    set_message(ctx, NULL, buf);
}

char *clprim__format(const char *fmt, ...)
{
    va_list ap;
    char *s;
    int len;
    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

clprim_status clprim__fail(clprim_context *ctx, clprim_status status, const char *fmt, ...)
{
    va_list ap;
    if (!ctx)
        return status;
    va_start(ap, fmt);
    set_message_v(ctx, fmt, ap);
    va_end(ap);
    return status;
}

clprim_status clprim__fail_locked(clprim_context *ctx, clprim_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&ctx->lock);
    set_message_v(ctx, fmt, ap);
    pthread_mutex_unlock(&ctx->lock);
    va_end(ap);
    return status;
}

void clprim__fail_append(clprim_context *ctx, const char *text)
{
    if (ctx && ctx->error)
        set_message(ctx, ctx->error, text);
}

void clprim__log(const clprim_context *ctx, int level, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    if (!ctx || !ctx->log)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ctx->log(ctx->log_user, level, buf);
}

size_t clprim_context_last_error(clprim_context *ctx, char *buf, size_t size)
{
    size_t len;
    if (!ctx) {
        if (buf && size)
            buf[0] = '\0';
        return 0;
    }
    pthread_mutex_lock(&ctx->lock);
    len = ctx->error ? strlen(ctx->error) : 0;
    if (buf && size) {
        size_t n = len < size - 1 ? len : size - 1;
        if (n)
            memcpy(buf, ctx->error, n);
        buf[n] = '\0';
    }
    pthread_mutex_unlock(&ctx->lock);
    return len;
}

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

/* The device whose "platform / device" name contains `want`, or (want NULL)
 * the first GPU, else the first CPU, else the first device. */
static clprim_status choose_device(const char *want, cl_device_id *out)
{
    cl_platform_id platforms[16];
    cl_uint np = 0, p, pass;
    cl_int err = clGetPlatformIDs(16, platforms, &np);
    if (err == CLPRIM__PLATFORM_NOT_FOUND_KHR || np == 0)
        return CLPRIM_NO_DEVICE;
    if (err != CL_SUCCESS)
        return err;
    if (np > 16)
        np = 16;
    for (pass = 0; pass < 3; ++pass) {
        static const cl_device_type kinds[3] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU,
                                                CL_DEVICE_TYPE_ALL};
        for (p = 0; p < np; ++p) {
            cl_device_id devs[16];
            cl_uint nd = 0, d;
            char pname[256] = "", dname[256] = "", full[520];
            if (clGetDeviceIDs(platforms[p], want ? CL_DEVICE_TYPE_ALL : kinds[pass], 16, devs,
                               &nd) != CL_SUCCESS)
                continue;
            clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
            for (d = 0; d < nd && d < 16; ++d) {
                clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dname, dname, NULL);
                snprintf(full, sizeof full, "%s / %s", pname, dname);
                if (!want || contains_nocase(full, want)) {
                    *out = devs[d];
                    return CLPRIM_SUCCESS;
                }
            }
        }
        if (want)
            break;
    }
    return CLPRIM_NO_DEVICE;
}

/* ---- create / wrap / release ---- */

static clprim_status context_init(clprim_context *ctx, const clprim_context_options *opt)
{
    clprim_status st;
    if (opt) {
        ctx->log = opt->log;
        ctx->log_user = opt->log_user;
        ctx->flags = opt->flags;
    }
    ctx->cache_dir = clprim__cache_dir(opt);
    st = clprim__device_probe(ctx->device, ctx->flags, &ctx->info);
    if (st != CLPRIM_SUCCESS)
        return clprim__fail(ctx, st, "querying the device failed");
    if (!ctx->queue) {
        ctx->queue = clCreateCommandQueue(ctx->cl_ctx, ctx->device, CL_QUEUE_PROFILING_ENABLE, &st);
        if (st != CL_SUCCESS)
            return clprim__fail(ctx, st, "clCreateCommandQueue failed");
    }
    st = clprim__probe_simd_width(ctx);
    if (st != CLPRIM_SUCCESS)
        return st;
    clprim__log(ctx, CLPRIM_LOG_INFO, "clprim %s on %s / %s (SIMD width %u from %s); disk cache %s",
                CLPRIM_VERSION_STRING, ctx->info.platform_name, ctx->info.device_name,
                ctx->info.simd_width, ctx->info.simd_source,
                ctx->cache_dir ? ctx->cache_dir : "off");
    return CLPRIM_SUCCESS;
}

static clprim_context *context_alloc(void)
{
    clprim_context *ctx = calloc(1, sizeof *ctx);
    if (ctx && pthread_mutex_init(&ctx->lock, NULL) != 0) {
        free(ctx);
        ctx = NULL;
    }
    return ctx;
}

/* Passes a failure's message to the log, since no context survives to hold it. */
static clprim_status fail_create(clprim_context *ctx, clprim_status st,
                                 const clprim_context_options *opt)
{
    if (opt && opt->log && ctx && ctx->error)
        opt->log(opt->log_user, CLPRIM_LOG_WARNING, ctx->error);
    clprim_context_release(ctx);
    return st;
}

clprim_status clprim_context_create(const clprim_context_options *opt, clprim_context **out)
{
    const char *want = opt && opt->device ? opt->device : getenv("CLPRIM_DEVICE");
    clprim_context *ctx;
    cl_device_id dev = NULL;
    clprim_status st;

    if (!out)
        return CLPRIM_INVALID_ARGUMENT;
    *out = NULL;
    if (want && !*want)
        want = NULL;
    st = choose_device(want, &dev);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (!(ctx = context_alloc()))
        return CLPRIM_OUT_OF_HOST_MEMORY;
    ctx->device = dev;
    ctx->cl_ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &st);
    if (st != CL_SUCCESS)
        return fail_create(ctx, st, opt);
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
        return CLPRIM_INVALID_ARGUMENT;
    st = clGetContextInfo(cl_ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, &bytes);
    if (st != CL_SUCCESS)
        return st;
    for (i = 0; i < bytes / sizeof devs[0]; ++i)
        found |= devs[i] == device;
    if (!found)
        return CLPRIM_INVALID_ARGUMENT;
    if (queue) {
        cl_context qctx = NULL;
        cl_device_id qdev = NULL;
        st = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
        if (st == CL_SUCCESS)
            st = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
        if (st != CL_SUCCESS)
            return st;
        if (qctx != cl_ctx || qdev != device)
            return CLPRIM_INVALID_ARGUMENT;
    }
    if (!(ctx = context_alloc()))
        return CLPRIM_OUT_OF_HOST_MEMORY;
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
    clprim__pool_destroy(&ctx->pool);
    clprim__program_cache_destroy(ctx->programs);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->cl_ctx)
        clReleaseContext(ctx->cl_ctx);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx->error);
    free(ctx->cache_dir);
    free(ctx);
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

/* ---- argument checks ---- */

clprim_status clprim__check_buffer(clprim_context *ctx, const char *what, cl_mem mem, size_t off,
                                   size_t n, size_t elem)
{
    size_t size = 0;
    cl_context owner = NULL;
    cl_mem_object_type type = 0;
    cl_int err;

    if (!mem)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "%s is NULL", what);
    err = clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "%s is not a valid memory object (%s)", what,
                            clprim_status_string(err));
    if (type != CL_MEM_OBJECT_BUFFER || owner != ctx->cl_ctx)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "%s is not a buffer of the context's cl_context", what);
    if (off > size / elem || n > size / elem - off)
        return clprim__fail(ctx, CLPRIM_OUT_OF_BOUNDS,
                            "%s: offset %zu + count %zu elements of %zu bytes exceed its %zu bytes",
                            what, off, n, elem, size);
    return CLPRIM_SUCCESS;
}

clprim_status clprim__check_queue(clprim_context *ctx, cl_command_queue *queue, cl_uint num_wait,
                                  const cl_event *wait)
{
    if (!*queue) {
        *queue = ctx->queue;
    } else {
        cl_context qctx = NULL;
        cl_device_id qdev = NULL;
        cl_int err = clGetCommandQueueInfo(*queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
        if (err == CL_SUCCESS)
            err = clGetCommandQueueInfo(*queue, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
        if (err != CL_SUCCESS)
            return clprim__fail(ctx, err, "queue is not a valid command queue");
        if (qctx != ctx->cl_ctx || qdev != ctx->device)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "queue belongs to another cl_context or device");
    }
    if ((num_wait == 0) != (wait == NULL))
        return clprim__fail(ctx, CL_INVALID_EVENT_WAIT_LIST,
                            "num_wait is %u but wait is %s", num_wait, wait ? "not NULL" : "NULL");
    /* drivers differ in how they treat a bad event (PoCL does not check), so
     * every one is checked here: valid, and of this context */
    for (cl_uint i = 0; i < num_wait; ++i) {
        cl_context ectx = NULL;
        if (!wait[i] || clGetEventInfo(wait[i], CL_EVENT_CONTEXT, sizeof ectx, &ectx, NULL) !=
                            CL_SUCCESS || ectx != ctx->cl_ctx)
            return clprim__fail(ctx, CL_INVALID_EVENT_WAIT_LIST,
                                "wait[%u] is not a valid event of the context's cl_context", i);
    }
    return CLPRIM_SUCCESS;
}

clprim_status clprim__set_args(clprim_context *ctx, cl_kernel k, int count, const size_t *sizes,
                               const void *const *values)
{
    int i;
    for (i = 0; i < count; ++i) {
        cl_int err = clSetKernelArg(k, (cl_uint)i, sizes[i], values[i]);
        if (err != CL_SUCCESS)
            return clprim__fail(ctx, err, "clSetKernelArg(%d) failed: %s", i,
                                clprim_status_string(err));
    }
    return CLPRIM_SUCCESS;
}

/* ---- enqueue chain ---- */

clprim_status clprim__chain_begin(clprim__chain *c, cl_command_queue queue, cl_uint num_wait,
                                  const cl_event *wait)
{
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    c->queue = queue;
    c->out_of_order = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    c->num_wait = num_wait;
    c->wait = wait;
    c->last = NULL;
    c->need_events = c->out_of_order;
    return err;
}

/* What the chain's next command waits for: the caller's wait list first;
 * later, the previous command (implied by an in-order queue, explicit on an
 * out-of-order one). */
static void chain_wait(const clprim__chain *c, cl_uint *num, const cl_event **wait)
{
    *num = c->last ? (c->out_of_order ? 1 : 0) : c->num_wait;
    *wait = c->last ? (c->out_of_order ? &c->last : NULL) : c->wait;
}

/* Makes ev (may be NULL) the chain's last command. */
static void chain_advance(clprim__chain *c, cl_event ev)
{
    if (c->last)
        clReleaseEvent(c->last);
    c->last = ev;
}

clprim_status clprim__chain_fill(clprim_context *ctx, clprim__chain *c, cl_mem mem, size_t bytes)
{
    const cl_uint zero = 0;
    const cl_event *wait;
    cl_event ev = NULL;
    cl_uint num;
    cl_int err;
    chain_wait(c, &num, &wait);
    err = clEnqueueFillBuffer(c->queue, mem, &zero, sizeof zero, 0, bytes, num, wait,
                              c->need_events ? &ev : NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "clEnqueueFillBuffer failed: %s", clprim_status_string(err));
    chain_advance(c, ev);
    return CLPRIM_SUCCESS;
}

clprim_status clprim__chain_kernel(clprim_context *ctx, clprim__chain *c, cl_kernel k,
                                   size_t groups, size_t wg_size)
{
    size_t global = groups * wg_size;
    const cl_event *wait;
    cl_event ev = NULL;
    cl_uint num;
    cl_int err;
    chain_wait(c, &num, &wait);
    err = clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, &wg_size, num, wait,
                                 c->need_events ? &ev : NULL);
    if (err != CL_SUCCESS)
        return clprim__fail(ctx, err, "clEnqueueNDRangeKernel failed: %s", clprim_status_string(err));
    chain_advance(c, ev);
    return CLPRIM_SUCCESS;
}

clprim_status clprim__chain_end(clprim_context *ctx, clprim__chain *c, cl_event *event)
{
    cl_int err = CL_SUCCESS;
    if (event) {
        if (!c->last) {
            err = clEnqueueMarkerWithWaitList(c->queue, c->num_wait, c->wait, &c->last);
            if (err != CL_SUCCESS)
                return clprim__fail(ctx, err, "clEnqueueMarkerWithWaitList failed: %s",
                                    clprim_status_string(err));
        }
        *event = c->last;
        c->last = NULL;
    } else if (c->last) {
        clReleaseEvent(c->last);
        c->last = NULL;
    }
    return CLPRIM_SUCCESS;
}

/* SPDX-License-Identifier: MIT */
/* Fault injection for the tests: loaded in front of the OpenCL ICD loader
 * (LD_PRELOAD), it passes every OpenCL call clprim makes on to the real one,
 * counting them, and makes the K-th call of one function (or of all of them)
 * fail with a realistic error code instead, once. Asynchronous failures
 * too, as a driver reports a command that failed after its enqueue: the
 * K-th clWaitForEvents or clFinish waits and then returns an error; the K-th
 * query of an event's execution status (async_event_status) waits for the
 * event and then reads a negative status; the K-th blocking read or write
 * (async_blocking_transfer) is done and then returns
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. (A command really failing
 * through a failed user event is not used: PoCL 3.1 then hangs in a blocking
 * read that waits for it.) The disk cache's writes
 * (fwrite, fclose, rename) fail as on a full disk (ENOSPC), counted only
 * when the program itself calls them, not a driver's library. A test drives it through
 * clprim_fault_arm / clprim_fault_count, found with dlsym (absent: the test
 * runs without it and skips). Only calls made while armed are counted, so a
 * test's own setup never fails. */
#define _GNU_SOURCE
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* XX(name, error code it fails with) for each function wrapped below */
#define FAULT_FUNCTIONS(XX)                                                    \
    XX(clGetDeviceInfo, CL_OUT_OF_HOST_MEMORY)                                 \
    XX(clGetPlatformInfo, CL_OUT_OF_HOST_MEMORY)                               \
    XX(clGetProgramInfo, CL_OUT_OF_HOST_MEMORY)                                \
    XX(clGetProgramBuildInfo, CL_OUT_OF_HOST_MEMORY)                           \
    XX(clGetKernelInfo, CL_OUT_OF_HOST_MEMORY)                                 \
    XX(clGetKernelWorkGroupInfo, CL_OUT_OF_RESOURCES)                          \
    XX(clGetMemObjectInfo, CL_OUT_OF_HOST_MEMORY)                              \
    XX(clGetCommandQueueInfo, CL_OUT_OF_HOST_MEMORY)                           \
    XX(clGetEventInfo, CL_OUT_OF_HOST_MEMORY)                                  \
    XX(clCreateBuffer, CL_MEM_OBJECT_ALLOCATION_FAILURE)                       \
    XX(clCreateCommandQueue, CL_OUT_OF_RESOURCES)                              \
    XX(clCreateProgramWithSource, CL_OUT_OF_HOST_MEMORY)                       \
    XX(clCreateProgramWithBinary, CL_INVALID_BINARY)                           \
    XX(clBuildProgram, CL_BUILD_PROGRAM_FAILURE)                               \
    XX(clCreateKernel, CL_OUT_OF_RESOURCES)                                    \
    XX(clCreateKernelsInProgram, CL_OUT_OF_RESOURCES)                          \
    XX(clSetKernelArg, CL_OUT_OF_RESOURCES)                                    \
    XX(clEnqueueNDRangeKernel, CL_OUT_OF_RESOURCES)                            \
    XX(clEnqueueReadBuffer, CL_OUT_OF_RESOURCES)                               \
    XX(clEnqueueWriteBuffer, CL_MEM_OBJECT_ALLOCATION_FAILURE)                 \
    XX(clEnqueueFillBuffer, CL_MEM_OBJECT_ALLOCATION_FAILURE)                  \
    XX(clEnqueueCopyBuffer, CL_MEM_OBJECT_ALLOCATION_FAILURE)                  \
    XX(clEnqueueMarkerWithWaitList, CL_OUT_OF_HOST_MEMORY)                     \
    XX(clGetPlatformIDs, CL_OUT_OF_HOST_MEMORY)                                \
    XX(clGetDeviceIDs, CL_OUT_OF_HOST_MEMORY)                                  \
    XX(clGetContextInfo, CL_OUT_OF_HOST_MEMORY)                                \
    XX(clCreateContext, CL_OUT_OF_HOST_MEMORY)                                 \
    /* asynchronous failures: the wait happens, then reports one */           \
    XX(clWaitForEvents, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)          \
    XX(clFinish, CL_OUT_OF_RESOURCES)                                          \
    XX(async_event_status, CL_OUT_OF_RESOURCES)                                \
    XX(async_blocking_transfer, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)  \
    XX(fwrite, ENOSPC)                                                         \
    XX(fclose, ENOSPC)                                                         \
    XX(rename, ENOSPC)

enum {
#define XX(name, code) F_##name,
    FAULT_FUNCTIONS(XX)
#undef XX
    F_COUNT
};
static const char *const names[] = {
#define XX(name, code) #name,
    FAULT_FUNCTIONS(XX)
#undef XX
};
static const cl_int codes[] = {
#define XX(name, code) code,
    FAULT_FUNCTIONS(XX)
#undef XX
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int armed, held;
static int target = -2;          /* function index, -1: any, -2: none */
static unsigned long fail_at;    /* the K-th counted call of target fails */
static unsigned long counts[F_COUNT], total, injected;

/* Arms counting from zero, held (see clprim_fault_hold); fn NULL counts
 * only, "*" fails the k-th call of any function, a name the k-th call of
 * that one. Returns -1 for an unknown name. */
__attribute__((visibility("default"))) int clprim_fault_arm(const char *fn, unsigned long k)
{
    int t = -2, i;
    if (fn && !strcmp(fn, "*"))
        t = -1;
    else if (fn) {
        for (i = 0; i < F_COUNT; ++i)
            if (!strcmp(fn, names[i]))
                t = i;
        if (t == -2)
            return -1;
    }
    pthread_mutex_lock(&lock);
    memset(counts, 0, sizeof counts);
    total = injected = 0;
    target = t;
    fail_at = k;
    armed = 1;
    held = 1;
    pthread_mutex_unlock(&lock);
    return 0;
}

/* While held (on), calls pass uncounted: the test's own checks between
 * library calls. */
__attribute__((visibility("default"))) void clprim_fault_hold(int on)
{
    pthread_mutex_lock(&lock);
    held = on;
    pthread_mutex_unlock(&lock);
}

/* While on, every clWaitForEvents and clFinish fails at once without
 * waiting, as from a driver whose waits fail (the commands go on running):
 * what the caller frees then may still be written. */
static int waits_fail;
__attribute__((visibility("default"))) void clprim_fault_fail_waits(int on)
{
    pthread_mutex_lock(&lock);
    waits_fail = on;
    pthread_mutex_unlock(&lock);
}

static int waits_failing(void)
{
    int on;
    pthread_mutex_lock(&lock);
    on = waits_fail;
    pthread_mutex_unlock(&lock);
    return on;
}

/* Stops counting; returns how many faults were injected (0 or 1). */
__attribute__((visibility("default"))) unsigned long clprim_fault_disarm(void)
{
    pthread_mutex_lock(&lock);
    armed = 0;
    pthread_mutex_unlock(&lock);
    return injected;
}

/* Calls of fn counted while armed (fn NULL: of all), and the names. */
__attribute__((visibility("default"))) unsigned long clprim_fault_count(const char *fn)
{
    int i;
    if (!fn)
        return total;
    for (i = 0; i < F_COUNT; ++i)
        if (!strcmp(fn, names[i]))
            return counts[i];
    return 0;
}

__attribute__((visibility("default"))) const char *clprim_fault_name(int i)
{
    return i >= 0 && i < F_COUNT ? names[i] : NULL;
}

/* Whether this call of function f is the one to fail. */
static int fail_now(int f)
{
    int fail = 0;
    pthread_mutex_lock(&lock);
    if (armed && !held) {
        ++counts[f];
        ++total;
        if (!injected && ((target == f && counts[f] == fail_at) || (target == -1 && total == fail_at))) {
            injected = 1;
            fail = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return fail;
}

static void *next(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

/* a function returning cl_int */
#define WRAP_INT(name, params, args)                                           \
    CL_API_ENTRY cl_int CL_API_CALL name params                               \
    {                                                                          \
        static cl_int(CL_API_CALL * real) params;                              \
        if (fail_now(F_##name))                                                \
            return codes[F_##name];                                            \
        if (!real)                                                             \
            *(void **)&real = next(#name);                                     \
        return real args;                                                      \
    }
/* a function returning an object, its error through errcode_ret */
#define WRAP_OBJ(type, name, params, args)                                     \
    CL_API_ENTRY type CL_API_CALL name params                                 \
    {                                                                          \
        static type(CL_API_CALL * real) params;                                \
        if (fail_now(F_##name)) {                                              \
            if (errcode_ret)                                                   \
                *errcode_ret = codes[F_##name];                                \
            return NULL;                                                       \
        }                                                                      \
        if (!real)                                                             \
            *(void **)&real = next(#name);                                     \
        return real args;                                                      \
    }

WRAP_INT(clGetDeviceInfo, (cl_device_id d, cl_device_info p, size_t s, void *v, size_t *r),
         (d, p, s, v, r))
WRAP_INT(clGetPlatformInfo, (cl_platform_id d, cl_platform_info p, size_t s, void *v, size_t *r),
         (d, p, s, v, r))
WRAP_INT(clGetProgramInfo, (cl_program d, cl_program_info p, size_t s, void *v, size_t *r),
         (d, p, s, v, r))
WRAP_INT(clGetProgramBuildInfo,
         (cl_program o, cl_device_id d, cl_program_build_info p, size_t s, void *v, size_t *r),
         (o, d, p, s, v, r))
WRAP_INT(clGetKernelInfo, (cl_kernel d, cl_kernel_info p, size_t s, void *v, size_t *r),
         (d, p, s, v, r))
WRAP_INT(clGetKernelWorkGroupInfo,
         (cl_kernel k, cl_device_id d, cl_kernel_work_group_info p, size_t s, void *v, size_t *r),
         (k, d, p, s, v, r))
WRAP_INT(clGetMemObjectInfo, (cl_mem d, cl_mem_info p, size_t s, void *v, size_t *r),
         (d, p, s, v, r))
WRAP_INT(clGetCommandQueueInfo, (cl_command_queue d, cl_command_queue_info p, size_t s, void *v,
                                 size_t *r),
         (d, p, s, v, r))
WRAP_OBJ(cl_mem, clCreateBuffer,
         (cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *errcode_ret),
         (c, f, s, h, errcode_ret))
WRAP_OBJ(cl_command_queue, clCreateCommandQueue,
         (cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int *errcode_ret),
         (c, d, p, errcode_ret))
WRAP_OBJ(cl_program, clCreateProgramWithSource,
         (cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *errcode_ret),
         (c, n, s, l, errcode_ret))
WRAP_OBJ(cl_program, clCreateProgramWithBinary,
         (cl_context c, cl_uint n, const cl_device_id *d, const size_t *l,
          const unsigned char **b, cl_int *st, cl_int *errcode_ret),
         (c, n, d, l, b, st, errcode_ret))
WRAP_INT(clBuildProgram,
         (cl_program p, cl_uint n, const cl_device_id *d, const char *o,
          void(CL_CALLBACK *f)(cl_program, void *), void *u),
         (p, n, d, o, f, u))
WRAP_OBJ(cl_kernel, clCreateKernel, (cl_program p, const char *n, cl_int *errcode_ret),
         (p, n, errcode_ret))
WRAP_INT(clCreateKernelsInProgram, (cl_program p, cl_uint n, cl_kernel *k, cl_uint *r),
         (p, n, k, r))
WRAP_INT(clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))
WRAP_INT(clEnqueueNDRangeKernel,
         (cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g,
          const size_t *l, cl_uint n, const cl_event *w, cl_event *e),
         (q, k, d, o, g, l, n, w, e))
WRAP_INT(clEnqueueFillBuffer,
         (cl_command_queue q, cl_mem m, const void *p, size_t ps, size_t o, size_t s, cl_uint n,
          const cl_event *w, cl_event *e),
         (q, m, p, ps, o, s, n, w, e))
WRAP_INT(clEnqueueCopyBuffer,
         (cl_command_queue q, cl_mem a, cl_mem b, size_t oa, size_t ob, size_t s, cl_uint n,
          const cl_event *w, cl_event *e),
         (q, a, b, oa, ob, s, n, w, e))
WRAP_INT(clEnqueueMarkerWithWaitList, (cl_command_queue q, cl_uint n, const cl_event *w,
                                       cl_event *e),
         (q, n, w, e))
WRAP_INT(clGetPlatformIDs, (cl_uint n, cl_platform_id *p, cl_uint *r), (n, p, r))
WRAP_INT(clGetDeviceIDs, (cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id *d,
                          cl_uint *r),
         (p, t, n, d, r))
WRAP_INT(clGetContextInfo, (cl_context c, cl_context_info p, size_t s, void *v, size_t *r),
         (c, p, s, v, r))
WRAP_OBJ(cl_context, clCreateContext,
         (const cl_context_properties *p, cl_uint n, const cl_device_id *d,
          void(CL_CALLBACK *f)(const char *, const void *, size_t, void *), void *u,
          cl_int *errcode_ret),
         (p, n, d, f, u, errcode_ret))

/* ---- asynchronous failures: the work is done (nothing stays in flight),
 * then a failure is reported as for a command that failed after its
 * enqueue ---- */

static cl_int real_wait(cl_uint n, const cl_event *list)
{
    static cl_int(CL_API_CALL * real)(cl_uint, const cl_event *);
    if (!real)
        *(void **)&real = next("clWaitForEvents");
    return real(n, list);
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *list)
{
    if (waits_failing())
        return CL_OUT_OF_RESOURCES;
    const int fail = fail_now(F_clWaitForEvents);
    const cl_int err = real_wait(n, list);
    return fail ? codes[F_clWaitForEvents] : err;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    static cl_int(CL_API_CALL * real)(cl_command_queue);
    if (waits_failing())
        return CL_OUT_OF_RESOURCES;
    const int fail = fail_now(F_clFinish);
    cl_int err;
    if (!real)
        *(void **)&real = next("clFinish");
    err = real(q);
    return fail ? codes[F_clFinish] : err;
}

/* An execution status query may read a failed command (its event waited
 * for first: a failed command has ended); any query may fail itself. */
CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event d, cl_event_info p, size_t s, void *v,
                                               size_t *r)
{
    static cl_int(CL_API_CALL * real)(cl_event, cl_event_info, size_t, void *, size_t *);
    if (fail_now(F_clGetEventInfo))
        return codes[F_clGetEventInfo];
    if (p == CL_EVENT_COMMAND_EXECUTION_STATUS && v && s >= sizeof(cl_int) &&
        fail_now(F_async_event_status)) {
        const cl_int status = codes[F_async_event_status];
        real_wait(1, &d);
        memcpy(v, &status, sizeof status);
        if (r)
            *r = sizeof status;
        return CL_SUCCESS;
    }
    if (!real)
        *(void **)&real = next("clGetEventInfo");
    return real(d, p, s, v, r);
}

/* A blocking transfer that was done, reported as waiting on a failed command. */
static cl_int transfer_failed(cl_bool blocking, cl_int err, cl_event *e)
{
    if (!blocking || err != CL_SUCCESS || !fail_now(F_async_blocking_transfer))
        return err;
    if (e && *e) { /* a failed enqueue gives no event */
        cl_int(CL_API_CALL * release)(cl_event);
        *(void **)&release = next("clReleaseEvent");
        release(*e);
        *e = NULL;
    }
    return codes[F_async_blocking_transfer];
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool b,
                                                   size_t o, size_t s, void *p, cl_uint n,
                                                   const cl_event *w, cl_event *e)
{
    static cl_int(CL_API_CALL * real)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *,
                                      cl_uint, const cl_event *, cl_event *);
    if (fail_now(F_clEnqueueReadBuffer))
        return codes[F_clEnqueueReadBuffer];
    if (!real)
        *(void **)&real = next("clEnqueueReadBuffer");
    return transfer_failed(b, real(q, m, b, o, s, p, n, w, e), e);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool b,
                                                    size_t o, size_t s, const void *p, cl_uint n,
                                                    const cl_event *w, cl_event *e)
{
    static cl_int(CL_API_CALL * real)(cl_command_queue, cl_mem, cl_bool, size_t, size_t,
                                      const void *, cl_uint, const cl_event *, cl_event *);
    if (fail_now(F_clEnqueueWriteBuffer))
        return codes[F_clEnqueueWriteBuffer];
    if (!real)
        *(void **)&real = next("clEnqueueWriteBuffer");
    return transfer_failed(b, real(q, m, b, o, s, p, n, w, e), e);
}

/* ---- the disk cache's writes, as on a full disk ---- */

/* Whether the caller is the program (clprim is linked into the tests), not
 * a shared library such as the OpenCL driver writing its own cache. */
static int from_program(void *caller)
{
    Dl_info info;
    return dladdr(caller, &info) && info.dli_fname && !strstr(info.dli_fname, ".so");
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    static size_t (*real)(const void *, size_t, size_t, FILE *);
    if (from_program(__builtin_return_address(0)) && fail_now(F_fwrite)) {
        errno = codes[F_fwrite];
        return n / 2; /* part of it went out */
    }
    if (!real)
        *(void **)&real = next("fwrite");
    return real(p, size, n, f);
}

int fclose(FILE *f)
{
    static int (*real)(FILE *);
    const int fail = from_program(__builtin_return_address(0)) && fail_now(F_fclose);
    int rc;
    if (!real)
        *(void **)&real = next("fclose");
    rc = real(f); /* closed either way, as fclose does when its flush fails */
    if (fail) {
        errno = codes[F_fclose];
        return EOF;
    }
    return rc;
}

int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (from_program(__builtin_return_address(0)) && fail_now(F_rename)) {
        errno = codes[F_rename];
        return -1;
    }
    if (!real)
        *(void **)&real = next("rename");
    return real(from, to);
}

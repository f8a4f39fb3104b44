/* SPDX-License-Identifier: MIT */
/* cl_trace: a development tool that records when each kernel, fill and copy
 * of an OpenCL program ran, from the queue's own profiling timestamps (the
 * queue must have CL_QUEUE_PROFILING_ENABLE, as clprim's has). Nsight
 * Compute does not see NVIDIA's OpenCL kernels; this gives a whole call's
 * timeline there: each command's device time and the gaps between them.
 *
 *   gcc -O2 -shared -fPIC tools/cl_trace.c -o /tmp/cl_trace.so -ldl -lOpenCL
 *   (or the build's tools/cl_trace.so)
 *   CL_TRACE_FILE=trace.txt LD_PRELOAD=/tmp/cl_trace.so clprim-bench ...
 *
 * One line per command, in completion order: what (kernel name, "fill" or
 * "copy"), global size, start and end in ns of the device's clock. Not
 * thread-safe: for single-threaded programs. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PENDING 4096

static struct pending {
    cl_event ev;
    char what[64];
    size_t global;
} pending[MAX_PENDING];
static int npending;
static FILE *out;

static void flush_done(int all)
{
    int i, kept = 0;
    for (i = 0; i < npending; ++i) {
        cl_int status = CL_QUEUED;
        cl_ulong start = 0, end = 0;
        clGetEventInfo(pending[i].ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                       NULL);
        if (status != CL_COMPLETE && !all) {
            pending[kept++] = pending[i];
            continue;
        }
        if (status == CL_COMPLETE &&
            clGetEventProfilingInfo(pending[i].ev, CL_PROFILING_COMMAND_START, sizeof start,
                                    &start, NULL) == CL_SUCCESS &&
            clGetEventProfilingInfo(pending[i].ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                    NULL) == CL_SUCCESS && out)
            fprintf(out, "%s %zu %llu %llu\n", pending[i].what, pending[i].global,
                    (unsigned long long)start, (unsigned long long)end);
        clReleaseEvent(pending[i].ev);
    }
    npending = kept;
}

static void record(cl_event ev, const char *what, size_t global)
{
    if (!out) {
        const char *f = getenv("CL_TRACE_FILE");
        out = fopen(f ? f : "cl_trace.txt", "w");
    }
    if (npending == MAX_PENDING)
        flush_done(0);
    if (npending == MAX_PENDING) { /* still full: drop the oldest record */
        clReleaseEvent(pending[0].ev);
        memmove(pending, pending + 1, (MAX_PENDING - 1) * sizeof pending[0]);
        --npending;
    }
    pending[npending].ev = ev;
    snprintf(pending[npending].what, sizeof pending[npending].what, "%s", what);
    pending[npending].global = global;
    ++npending;
}

/* The caller's event (retained for us) or our own. */
#define TRACED(call_args, what, global)                                                         \
    do {                                                                                        \
        cl_event mine = NULL;                                                                   \
        cl_int st;                                                                              \
        if (!event)                                                                             \
            event = &mine;                                                                      \
        st = real call_args;                                                                    \
        if (st == CL_SUCCESS && *event) {                                                       \
            if (event != &mine)                                                                 \
                clRetainEvent(*event);                                                          \
            record(*event, what, global);                                                       \
        }                                                                                       \
        return st;                                                                              \
    } while (0)

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off,
                              const size_t *gws, const size_t *lws, cl_uint nw,
                              const cl_event *wl, cl_event *event)
{
    static cl_int (*real)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                          const size_t *, cl_uint, const cl_event *, cl_event *);
    char name[64] = "?";
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    name[sizeof name - 1] = 0;
    TRACED((q, k, dim, off, gws, lws, nw, wl, event), name, gws ? gws[0] : 0);
}

cl_int clEnqueueFillBuffer(cl_command_queue q, cl_mem b, const void *pat, size_t ps, size_t off,
                           size_t size, cl_uint nw, const cl_event *wl, cl_event *event)
{
    static cl_int (*real)(cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint,
                          const cl_event *, cl_event *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "clEnqueueFillBuffer");
    TRACED((q, b, pat, ps, off, size, nw, wl, event), "fill", size);
}

cl_int clEnqueueCopyBuffer(cl_command_queue q, cl_mem a, cl_mem b, size_t ao, size_t bo,
                           size_t size, cl_uint nw, const cl_event *wl, cl_event *event)
{
    static cl_int (*real)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                          const cl_event *, cl_event *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "clEnqueueCopyBuffer");
    TRACED((q, a, b, ao, bo, size, nw, wl, event), "copy", size);
}

cl_int clFinish(cl_command_queue q)
{
    static cl_int (*real)(cl_command_queue);
    cl_int st;
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "clFinish");
    st = real(q);
    flush_done(0);
    return st;
}

__attribute__((destructor)) static void at_exit(void)
{
    flush_done(1);
    if (out)
        fclose(out);
}

/* SPDX-License-Identifier: MIT */
/* The benchmarks' clock (tools/bench.h): gated device times, batches, host
 * times, and the copy and read ceilings measured in the same run (and the
 * option lists' helper, and the device search of the tools that make their
 * own contexts). Shared by clprim-bench, its modules, clprim-tune,
 * clprim-bench-multi and clprim-bench-mpi; calls nothing of theirs. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double event_span_us(cl_event from, cl_event to, cl_profiling_info from_what)
{
    cl_ulong a = 0, b = 0;
    if (clGetEventProfilingInfo(from, from_what, sizeof a, &a, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(to, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL) != CL_SUCCESS ||
        b <= a)
        return NAN;
    return (double)(b - a) / 1e3;
}

static const char copy4_src[] =
    "kernel void copy4(global const float4 *in, global float4 *out, ulong count)\n"
    "{ ulong i = get_global_id(0); if (i < count) out[i] = in[i]; }\n"
    /* reads every float4 once; the store never happens for the bench's data
     * but the compiler cannot know, so the loads stay */
    "kernel void read4(global const float4 *in, global float4 *out, ulong count)\n"
    "{ ulong i = get_global_id(0); if (i < count) { float4 v = in[i];\n"
    "  if (v.x == 1234.5f && v.y == -4321.5f) out[0] = v; } }\n"
    /* a chain of dependent multiply-adds that the compiler must keep */
    "kernel void gate(global uint *sink, uint iters)\n"
    "{ uint x = get_global_id(0) + 7u; for (uint i = 0; i < iters; ++i) x = x * 1664525u + 1013904223u;\n"
    "  sink[0] = x; }\n";

static int enqueue_copy(bench *b, const void *bytes, cl_event *ev)
{
    return clEnqueueCopyBuffer(b->q, b->in, b->out, 0, 0, *(const size_t *)bytes, 0, NULL, ev) ==
           CL_SUCCESS;
}

/* copy4 or read4 over `bytes` (a multiple of 16), one float4 per work-item */
static int enqueue_kernel4(bench *b, cl_kernel kern, size_t bytes, cl_event *ev)
{
    cl_ulong count = bytes / 16;
    size_t global = ((size_t)count + 255) / 256 * 256, local = 256;
    return clSetKernelArg(kern, 0, sizeof b->in, &b->in) == CL_SUCCESS &&
           clSetKernelArg(kern, 1, sizeof b->out, &b->out) == CL_SUCCESS &&
           clSetKernelArg(kern, 2, sizeof count, &count) == CL_SUCCESS &&
           clEnqueueNDRangeKernel(b->q, kern, 1, NULL, &global, &local, 0, NULL, ev) ==
               CL_SUCCESS;
}

/* About 0.1 ms of one work-item's dependent arithmetic on a GPU (no memory
 * traffic), longer than the host needs to enqueue a call. */
static void enqueue_gate(bench *b)
{
    const cl_uint iters = 40000;
    size_t one = 1;
    if (b->gate && clSetKernelArg(b->gate, 0, sizeof b->sink, &b->sink) == CL_SUCCESS &&
        clSetKernelArg(b->gate, 1, sizeof iters, &iters) == CL_SUCCESS)
        clEnqueueNDRangeKernel(b->q, b->gate, 1, NULL, &one, &one, 0, NULL, NULL);
}

/* One timed run: `count` runs of fn back to back after a marker (queued
 * behind the gate when `gated`), device time from the marker's end to the
 * last run's end over count; *ok = 0 if fn fails. */
static double marked_us(bench *b, enqueue_fn fn, const void *arg, int count, int gated, int *ok)
{
    cl_event mark = NULL, ev = NULL;
    double t = NAN;
    int k;
    clFinish(b->q);
    if (gated)
        enqueue_gate(b);
    clEnqueueMarkerWithWaitList(b->q, 0, NULL, &mark);
    for (*ok = 1, k = 0; k < count && *ok; ++k) {
        if (ev)
            clReleaseEvent(ev);
        ev = NULL;
        *ok = fn(b, arg, &ev) && ev;
    }
    clFinish(b->q);
    if (*ok)
        t = event_span_us(mark, ev, CL_PROFILING_COMMAND_END) / count;
    clReleaseEvent(mark);
    if (ev)
        clReleaseEvent(ev);
    return t;
}

/* Device time of one run of fn (one command or one library call): from a
 * marker queued behind the gate to fn's last end. */
double gated_us(bench *b, enqueue_fn fn, const void *arg, int *ok)
{
    return marked_us(b, fn, arg, 1, 1, ok);
}

double median_gated_us(bench *b, enqueue_fn fn, const void *arg, int *ok)
{
    double t[MAX_REPS];
    int r;
    for (r = -2; r < b->reps && *ok; ++r) {
        const double us = gated_us(b, fn, arg, ok);
        if (r >= 0)
            t[r] = us;
    }
    return *ok ? median(t, b->reps) : NAN;
}

double median_host_us(bench *b, enqueue_fn fn, const void *arg, int *ok)
{
    double t[MAX_REPS];
    int r;
    for (r = 0; r < b->reps && *ok; ++r) {
        const double t0 = now_us();
        *ok = fn(b, arg, NULL);
        clFinish(b->q);
        t[r] = now_us() - t0;
    }
    return *ok ? median(t, b->reps) : NAN;
}

/* Median over reps of (marker end .. end of the last of b->batch runs of
 * fn) / b->batch, after one untimed batch; NAN when batching is off or a
 * run fails. */
double batch_us(bench *b, enqueue_fn fn, const void *arg)
{
    double t[MAX_REPS];
    int r, ok = b->batch > 0;
    for (r = -1; r < b->reps && ok; ++r) {
        const double us = marked_us(b, fn, arg, b->batch, 0, &ok);
        if (r >= 0)
            t[r] = us;
    }
    return ok ? median(t, b->reps) : NAN;
}

static int enqueue_read(bench *b, const void *bytes, cl_event *ev)
{
    return enqueue_kernel4(b, b->read4, *(const size_t *)bytes, ev);
}

static int enqueue_copy4(bench *b, const void *bytes, cl_event *ev)
{
    return enqueue_kernel4(b, b->copy4, *(const size_t *)bytes, ev);
}

/* Median device time (gated, as for the calls) of clEnqueueCopyBuffer, the
 * float4 copy kernel and the read kernel, batched times of the copy and the
 * read, and host wall-clock of one clEnqueueCopyBuffer plus clFinish. */
void time_copies(bench *b, size_t bytes, double *copy_us, double *kernel_us,
                 double *copy_host_us, double *read_us, double *copy_batch_us,
                 double *read_batch_us)
{
    double t[MAX_REPS], k[MAX_REPS], h[MAX_REPS], rd[MAX_REPS];
    const int kernels = bytes % 16 == 0 && b->copy4 && b->read4;
    int r, ok;
    for (r = -2; r < b->reps; ++r) { /* the first two warm up */
        double t0, tc, tk, tr;
        clFinish(b->q);
        t0 = now_us();
        enqueue_copy(b, &bytes, NULL);
        clFinish(b->q);
        t0 = now_us() - t0;
        tc = gated_us(b, enqueue_copy, &bytes, &ok);
        tk = kernels ? gated_us(b, enqueue_copy4, &bytes, &ok) : NAN;
        tr = kernels ? gated_us(b, enqueue_read, &bytes, &ok) : NAN;
        if (r >= 0) {
            h[r] = t0;
            t[r] = tc;
            k[r] = tk;
            rd[r] = tr;
        }
    }
    *copy_us = median(t, b->reps);
    *copy_host_us = median(h, b->reps);
    *kernel_us = kernels ? median(k, b->reps) : NAN;
    *read_us = kernels ? median(rd, b->reps) : NAN;
    *copy_batch_us = batch_us(b, enqueue_copy, &bytes);
    *read_batch_us = kernels ? batch_us(b, enqueue_read, &bytes) : NAN;
}

int bench_open(bench *b, clprim_context *ctx, size_t bytes)
{
    cl_context c = clprim_context_cl_context(ctx);
    cl_device_id dev = clprim_context_device(ctx);
    const char *src = copy4_src;
    cl_program p;
    cl_int err;
    b->ctx = ctx; /* reps and batch are the caller's */
    b->copy4 = b->read4 = b->gate = NULL;
    b->q = clprim_context_queue(ctx);
    b->in = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes ? bytes : 16, NULL, &err);
    b->out = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes ? bytes : 16, NULL, &err);
    b->sink = clCreateBuffer(c, CL_MEM_READ_WRITE, 16, NULL, &err);
    if (!b->in || !b->out || !b->sink)
        return -1;
    /* without the copy kernels the ceilings are the copy command's alone */
    p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
    if (p && clBuildProgram(p, 1, &dev, "", NULL, NULL) == CL_SUCCESS) {
        b->copy4 = clCreateKernel(p, "copy4", &err);
        b->read4 = clCreateKernel(p, "read4", &err);
        b->gate = clCreateKernel(p, "gate", &err);
    }
    if (p)
        clReleaseProgram(p);
    return 0;
}

void bench_close(bench *b)
{
    if (b->copy4)
        clReleaseKernel(b->copy4);
    if (b->read4)
        clReleaseKernel(b->read4);
    if (b->gate)
        clReleaseKernel(b->gate);
    if (b->sink)
        clReleaseMemObject(b->sink);
    if (b->in)
        clReleaseMemObject(b->in);
    if (b->out)
        clReleaseMemObject(b->out);
    b->copy4 = b->read4 = b->gate = NULL;
    b->sink = b->in = b->out = NULL;
}

cl_uint bench_devices(cl_device_id *dev, cl_uint max)
{
    const char *filter = getenv("CLPRIM_DEVICE");
    cl_platform_id plats[8];
    cl_uint np = 0, p;
    if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS)
        return 0;
    np = np < 8 ? np : 8;
    for (p = 0; p < np; ++p) {
        cl_device_id all[64];
        cl_uint nd = 0, i, count = 0;
        char pname[256] = "";
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 64, all, &nd) != CL_SUCCESS &&
            clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, all, &nd) != CL_SUCCESS)
            continue;
        nd = nd < 64 ? nd : 64;
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        for (i = 0; i < nd && count < max; ++i) {
            char dname[256] = "", both[600];
            clGetDeviceInfo(all[i], CL_DEVICE_NAME, sizeof dname, dname, NULL);
            snprintf(both, sizeof both, "%s / %s", pname, dname);
            if (!filter || strstr(both, filter))
                dev[count++] = all[i];
        }
        if (count)
            return count;
    }
    return 0;
}

int name_index(const char *const *names, int count, const char *name)
{
    int k;
    for (k = 0; k < count; ++k)
        if (!strcmp(names[k], name))
            return k;
    return -1;
}

int listed(const char *list, const char *name)
{
    const size_t len = strlen(name);
    const char *p;
    for (p = list; (p = strstr(p, name)) != NULL; p += len)
        if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

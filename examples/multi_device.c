/* One array scanned across every GPU of the first platform that has one
 * (each GPU in its own context), or across two parts of the one device
 * there is: 3,000,000 uint32 ones, so element i of the inclusive sum is
 * i + 1 wherever it lives. */
#include <clprim.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3000000
#define MAX_PARTS 8

int main(void)
{
    const clprim_scan_desc sum = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_part parts[MAX_PARTS] = {{0}};
    clprim_context *ctx[MAX_PARTS] = {NULL};
    cl_device_id dev[MAX_PARTS];
    cl_platform_id platforms[8];
    cl_uint num_platforms = 0, devices = 0, count, k, *ones = malloc(N * sizeof *ones), last = 0;
    clprim_status st = CLPRIM_SUCCESS;
    size_t i, start = 0;

    clGetPlatformIDs(8, platforms, &num_platforms);
    for (k = 0; k < num_platforms && !devices; ++k)
        if (clGetDeviceIDs(platforms[k], CL_DEVICE_TYPE_GPU, MAX_PARTS, dev, &devices) != CL_SUCCESS)
            devices = 0;
    if (devices > MAX_PARTS) /* the count is of all there are */
        devices = MAX_PARTS;
    if (!devices && num_platforms && /* no GPU: the first platform's first device */
        clGetDeviceIDs(platforms[0], CL_DEVICE_TYPE_ALL, 1, dev, NULL) == CL_SUCCESS)
        devices = 1;
    if (!ones || !devices)
        return 1;
    count = devices > 1 ? devices : 2; /* one device: two parts on it */
    for (i = 0; i < N; ++i)
        ones[i] = 1;
    for (k = 0; k < devices && st == CLPRIM_SUCCESS; ++k) { /* a context per device */
        cl_int err;
        cl_context c = clCreateContext(NULL, 1, &dev[k], NULL, NULL, &err);
        st = err == CL_SUCCESS ? clprim_context_wrap(c, dev[k], NULL, NULL, &ctx[k]) : err;
        if (c)
            clReleaseContext(c); /* the clprim context keeps its own reference */
    }
    for (k = 0; k < count && st == CLPRIM_SUCCESS; ++k) {
        cl_int err;
        size_t n = k + 1 < count ? N / count : N - start; /* the last takes the rest */
        parts[k].ctx = ctx[k % devices];
        parts[k].in = parts[k].out =
            clCreateBuffer(clprim_context_cl_context(parts[k].ctx),
                           CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *ones, ones + start,
                           &err);
        parts[k].n = n; /* scanned in place */
        st = err;
        start += n;
    }
    if (st == CLPRIM_SUCCESS)
        st = clprim_multi_scan(&sum, parts, count);
    for (k = 0; k < count; ++k) { /* each part's last element: where it ends */
        if (st == CLPRIM_SUCCESS)
            st = clEnqueueReadBuffer(clprim_context_queue(parts[k].ctx), parts[k].out, CL_TRUE,
                                     (parts[k].n - 1) * sizeof last, sizeof last, &last, 0, NULL,
                                     NULL);
        if (st == CLPRIM_SUCCESS)
            printf("part %u: %zu elements, ends at %u\n", k, parts[k].n, last);
    }
    if (st == CLPRIM_SUCCESS && last != N)
        st = CLPRIM_INTERNAL;
    printf("%s\n", st == CLPRIM_SUCCESS ? "ok" : clprim_status_string(st));
    for (k = 0; k < count; ++k)
        if (parts[k].in)
            clReleaseMemObject(parts[k].in);
    for (k = 0; k < devices; ++k)
        clprim_context_release(ctx[k]);
    free(ones);
    return st != CLPRIM_SUCCESS;
}

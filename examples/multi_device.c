/* One array scanned across every device of the first platform (each part on
 * its own device, in its own context), or across two parts of the one
 * device there is: 3,000,000 uint32 ones, so element i of the inclusive sum
 * is i + 1 wherever it lives. */
#include <clprim.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3000000
#define MAX_PARTS 8

int main(void)
{
    const clprim_scan_desc sum = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL};
    clprim_part parts[MAX_PARTS] = {{0}};
    cl_device_id dev[MAX_PARTS];
    cl_platform_id platform;
    cl_uint count = 0, k, *ones = malloc(N * sizeof *ones), last = 0;
    clprim_status st = CLPRIM_SUCCESS;
    size_t i, start = 0;

    if (!ones || clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, MAX_PARTS, dev, &count) != CL_SUCCESS)
        return 1;
    if (count == 1)
        dev[count++] = dev[0]; /* one device: two parts on it */
    for (i = 0; i < N; ++i)
        ones[i] = 1;
    for (k = 0; k < count && st == CLPRIM_SUCCESS; ++k) {
        cl_int err;
        cl_context c = clCreateContext(NULL, 1, &dev[k], NULL, NULL, &err);
        size_t n = k + 1 < count ? N / count : N - start; /* the last takes the rest */
        st = err == CL_SUCCESS ? clprim_context_wrap(c, dev[k], NULL, NULL, &parts[k].ctx) : err;
        if (st == CLPRIM_SUCCESS) {
            parts[k].in = parts[k].out = clCreateBuffer(
                c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *ones, ones + start, &err);
            parts[k].n = n; /* scanned in place */
            st = err;
        }
        if (c)
            clReleaseContext(c); /* the clprim context keeps its own reference */
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
    for (k = 0; k < count; ++k) {
        if (parts[k].in)
            clReleaseMemObject(parts[k].in);
        clprim_context_release(parts[k].ctx);
    }
    free(ones);
    return st != CLPRIM_SUCCESS;
}

// SPDX-License-Identifier: MIT
// CUB's DeviceMerge::MergeKeys of two sorted int32 halves (n/2 + n/2), timed
// with CUDA events (median of --reps), beside a cudaMemcpy of the same 4n
// bytes read and written, for clprim-bench --merge keys on the same GPU.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o cub_merge tools/cub_merge.cu
//   cub_merge [--n N] [--reps R]      (N: a number or 2^K; default 2^28)
#include <cub/device/device_merge.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "cub_merge: %s: %s\n", #x, cudaGetErrorString(e_));                \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static size_t parse(const char *s)
{
    return strncmp(s, "2^", 2) == 0 ? (size_t)1 << atoi(s + 2) : (size_t)strtoull(s, 0, 10);
}

template <class F> static float median_ms(F f, int reps)
{
    std::vector<float> t;
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    f(); // warm-up
    for (int r = 0; r < reps; ++r) {
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char **argv)
{
    size_t n = (size_t)1 << 28;
    int reps = 11;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n"))
            n = parse(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
    }
    const size_t na = n / 2, nb = n - na;
    std::vector<int> h(n);
    srand(12345);
    for (size_t i = 0; i < n; ++i)
        h[i] = rand();
    std::sort(h.begin(), h.begin() + na);
    std::sort(h.begin() + na, h.end());
    int *in, *out;
    CK(cudaMalloc(&in, n * sizeof(int)));
    CK(cudaMalloc(&out, n * sizeof(int)));
    CK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    size_t temp = 0;
    void *d_temp = nullptr;
    CK(cub::DeviceMerge::MergeKeys(d_temp, temp, in, (long long)na, in + na, (long long)nb, out,
                                   cuda::std::less<int>{}));
    CK(cudaMalloc(&d_temp, temp ? temp : 1));
    const float copy = median_ms([&] { CK(cudaMemcpy(out, in, n * sizeof(int), cudaMemcpyDeviceToDevice)); }, reps);
    const float merge = median_ms([&] {
        CK(cub::DeviceMerge::MergeKeys(d_temp, temp, in, (long long)na, in + na, (long long)nb,
                                       out, cuda::std::less<int>{}));
    }, reps);
    std::vector<int> got(n), want(h);
    std::merge(h.begin(), h.begin() + na, h.begin() + na, h.end(), want.begin());
    CK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("what,n,ms,of_copy,check\nmemcpy,%zu,%.4f,1.000,ok\nMergeKeys,%zu,%.4f,%.3f,%s\n", n,
           copy, n, merge, copy / merge, got == want ? "ok" : "WRONG");
    return 0;
}

// SPDX-License-Identifier: MIT
// CUB's DeviceHistogram::HistogramEven over the three inputs clprim-bench
// --histogram times (uint8 in 256 bins of [0, 256), float in [0, 1) in
// 1024, uint32 in 65,536 of [0, 2^32)), random and with every sample in one
// bin, timed with CUDA events (median of --reps), beside a read of the same
// bytes (a reduction kernel of CUB's: DeviceReduce::Sum over uint32 words),
// on the same GPU. Every count is checked against a host count.
//   nvcc -O3 -std=c++17 -arch=sm_90 -o cub_histogram tools/cub_histogram.cu
//   cub_histogram [--n N] [--reps R]      (N: a number or 2^K; default 2^28)
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "cub_histogram: %s: %s\n", #x, cudaGetErrorString(e_));            \
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

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

// one input: samples of T (bytes `bytes`), bins even over [lo, hi)
template <class T, class L>
static void one(const char *name, size_t n, int reps, int skewed, int bins, L lo, L hi,
                double read_ms)
{
    std::vector<T> h(n);
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t r = skewed ? 0x5eb851eb851eb851ull : rnd(&s);
        if constexpr (std::is_same<T, float>::value)
            h[i] = (float)(r >> 40) / 16777216.0f;
        else
            h[i] = (T)r;
    }
    std::vector<uint64_t> want(bins, 0);
    for (size_t i = 0; i < n; ++i) {
        const double x = (double)h[i];
        if (x >= (double)lo && x < (double)hi) {
            int b = (int)((x - (double)lo) * bins / ((double)hi - (double)lo));
            want[std::min(b, bins - 1)]++;
        }
    }
    T *d;
    unsigned *c;
    CK(cudaMalloc(&d, n * sizeof(T)));
    CK(cudaMalloc(&c, bins * sizeof(unsigned)));
    CK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    size_t tb = 0;
    CK(cub::DeviceHistogram::HistogramEven(nullptr, tb, d, c, bins + 1, lo, hi, (long long)n));
    void *tmp;
    CK(cudaMalloc(&tmp, tb));
    const float ms = median_ms(
        [&] {
            CK(cub::DeviceHistogram::HistogramEven(tmp, tb, d, c, bins + 1, lo, hi,
                                                    (long long)n));
        },
        reps);
    std::vector<unsigned> got(bins);
    CK(cudaMemcpy(got.data(), c, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int i = 0; i < bins; ++i)
        bad += got[i] != (unsigned)want[i];
    printf("%s%s,%d,%zu,%.4f,%.4f,%s\n", name, skewed ? "-one" : "", bins, n, ms,
           read_ms / ms * (double)(n * sizeof(T)) / (double)(n), bad ? "WRONG" : "ok");
    CK(cudaFree(tmp));
    CK(cudaFree(c));
    CK(cudaFree(d));
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
    // the read ceiling: a sum over n uint32 words (4n bytes), per byte
    unsigned *w, *sum;
    CK(cudaMalloc(&w, n * 4));
    CK(cudaMalloc(&sum, 4));
    CK(cudaMemset(w, 1, n * 4));
    size_t tb = 0;
    CK(cub::DeviceReduce::Sum(nullptr, tb, w, sum, (long long)n));
    void *tmp;
    CK(cudaMalloc(&tmp, tb));
    const float read4 = median_ms([&] { CK(cub::DeviceReduce::Sum(tmp, tb, w, sum, (long long)n)); },
                                  reps);
    CK(cudaFree(tmp));
    CK(cudaFree(w));
    CK(cudaFree(sum));
    const double read_ms_per_byte = read4 / (4.0 * (double)n);
    printf("# read of %zu bytes: %.4f ms (%.1f GB/s)\n", 4 * n, read4, 4.0 * n / read4 / 1e6);
    printf("samples,bins,n,cub_ms,of_read,check\n");
    for (int skewed = 0; skewed < 2; ++skewed) {
        one<uint8_t, int>("uint8", n, reps, skewed, 256, 0, 256, read_ms_per_byte * n);
        one<float, float>("float", n, reps, skewed, 1024, 0.0f, 1.0f, read_ms_per_byte * n);
        one<uint32_t, long long>("uint32", n, reps, skewed, 65536, 0ll, 4294967296ll,
                                 read_ms_per_byte * n);
    }
    return 0;
}

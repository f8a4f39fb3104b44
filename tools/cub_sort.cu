/* SPDX-License-Identifier: MIT */
// cub_sort: times CUB's radix sorts on the inputs clprim-bench --sort uses
// (uniform random bits, uint32 keys), for the sort issue's side-by-side
// figures: DeviceRadixSort::SortKeys / SortPairs and DeviceSegmentedSort::
// SortKeys over M equal segments (offsets j * n / M, as clprim-bench
// --sort-segments M). A development tool for NVIDIA machines with the CUDA
// toolkit (CUB 13); not part of the library or its build.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_sort.cu -o cub_sort
//   cub_sort [--n N] [--reps R] [--segments M,M,...]
//
// Rows (stdout): what, n, segments, median ms, Gkeys/s, check (each output
// checked on the host: every segment sorted and holding its own keys). With
// --types, also SortKeys of uint64 keys (random bits), float keys of random
// bits (no NaNs or infinities, as clprim-bench's) and of CUB's benchmark
// floats ((24 random bits - 2^23) x 0.001, clprim-bench --sort narrow).
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                               \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static uint64_t rng = 0x5851F42D4C957F2Dull;
static uint32_t next32()
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

template <class F> static double median_ms(int reps, F f)
{
    std::vector<double> t;
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    f(); // warm-up
    for (int r = 0; r < reps; ++r) {
        CHECK(cudaEventRecord(a));
        f();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// every segment of got is the sorted multiset of the same segment of in
static bool segments_sorted(const std::vector<uint32_t> &in, const std::vector<uint32_t> &got,
                            const std::vector<int64_t> &offs)
{
    for (size_t j = 0; j + 1 < offs.size(); ++j) {
        std::vector<uint32_t> want(in.begin() + offs[j], in.begin() + offs[j + 1]);
        std::sort(want.begin(), want.end());
        if (!std::equal(want.begin(), want.end(), got.begin() + offs[j]))
            return false;
    }
    return true;
}

// SortKeys of n keys of type K made by make(i), timed and checked.
template <class K, class F> static void sort_keys_of(const char *what, size_t n, int reps, F make)
{
    std::vector<K> h(n), got(n);
    for (size_t i = 0; i < n; ++i)
        h[i] = make(i);
    K *d_in, *d_out;
    void *tmp = nullptr;
    size_t need = 0;
    CHECK(cudaMalloc(&d_in, n * sizeof(K)));
    CHECK(cudaMalloc(&d_out, n * sizeof(K)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(K), cudaMemcpyHostToDevice));
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, d_in, d_out, (int)n));
    CHECK(cudaMalloc(&tmp, need));
    double ms = median_ms(reps, [&] { cub::DeviceRadixSort::SortKeys(tmp, need, d_in, d_out, (int)n); });
    CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(K), cudaMemcpyDeviceToHost));
    std::sort(h.begin(), h.end());
    const bool ok = h == got;
    printf("%s,%zu,1,%.3f,%.2f,%s\n", what, n, ms, n / ms / 1e6, ok ? "ok" : "WRONG");
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(tmp));
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int main(int argc, char **argv)
{
    size_t n = (size_t)1 << 28;
    int reps = 11;
    std::vector<size_t> segs = {100000, 10000000};
    bool types = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string o = argv[i], v = argv[i + 1];
        if (o == "--n")
            n = v.rfind("2^", 0) == 0 ? (size_t)1 << atoi(v.c_str() + 2) : strtoull(v.c_str(), 0, 10);
        else if (o == "--types")
            types = v == "1";
        else if (o == "--reps")
            reps = atoi(v.c_str());
        else if (o == "--segments") {
            segs.clear();
            for (char *p = &v[0]; *p;) {
                segs.push_back(strtoull(p, &p, 10));
                if (*p == ',')
                    ++p;
            }
        }
    }
    std::vector<uint32_t> h(n), got(n);
    for (auto &x : h)
        x = next32();
    uint32_t *d_in, *d_out, *d_vin, *d_vout;
    int64_t *d_off;
    CHECK(cudaMalloc(&d_in, n * 4));
    CHECK(cudaMalloc(&d_out, n * 4));
    CHECK(cudaMalloc(&d_vin, n * 4));
    CHECK(cudaMalloc(&d_vout, n * 4));
    CHECK(cudaMemcpy(d_in, h.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_vin, h.data(), n * 4, cudaMemcpyHostToDevice));
    void *tmp = nullptr;
    size_t tmp_bytes = 0, need = 0;
    auto room = [&](size_t bytes) {
        if (bytes > tmp_bytes) {
            if (tmp)
                CHECK(cudaFree(tmp));
            CHECK(cudaMalloc(&tmp, bytes));
            tmp_bytes = bytes;
        }
    };
    printf("what,n,segments,ms,gkeys,check\n");
    double copy = median_ms(reps, [&] { cudaMemcpyAsync(d_out, d_in, n * 4, cudaMemcpyDeviceToDevice); });
    printf("memcpy,%zu,0,%.3f,%.2f,ok\n", n, copy, n / copy / 1e6);
    {
        CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, d_in, d_out, (int)n));
        room(need);
        double ms = median_ms(reps, [&] { cub::DeviceRadixSort::SortKeys(tmp, need, d_in, d_out, (int)n); });
        CHECK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
        const bool ok = std::is_sorted(got.begin(), got.end());
        printf("SortKeys,%zu,1,%.3f,%.2f,%s\n", n, ms, n / ms / 1e6, ok ? "ok" : "WRONG");
    }
    {
        CHECK(cub::DeviceRadixSort::SortPairs(nullptr, need, d_in, d_out, d_vin, d_vout, (int)n));
        room(need);
        double ms = median_ms(reps, [&] {
            cub::DeviceRadixSort::SortPairs(tmp, need, d_in, d_out, d_vin, d_vout, (int)n);
        });
        printf("SortPairs,%zu,1,%.3f,%.2f,ok\n", n, ms, n / ms / 1e6);
    }
    for (size_t m : segs) {
        std::vector<int64_t> offs(m + 1);
        for (size_t j = 0; j <= m; ++j)
            offs[j] = (int64_t)((double)j * (double)n / (double)m);
        CHECK(cudaMalloc(&d_off, (m + 1) * 8));
        CHECK(cudaMemcpy(d_off, offs.data(), (m + 1) * 8, cudaMemcpyHostToDevice));
        CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, need, d_in, d_out, (int64_t)n, (int64_t)m,
                                                  d_off, d_off + 1));
        room(need);
        double ms = median_ms(reps, [&] {
            cub::DeviceSegmentedSort::SortKeys(tmp, need, d_in, d_out, (int64_t)n, (int64_t)m, d_off,
                                               d_off + 1);
        });
        CHECK(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
        const bool ok = segments_sorted(h, got, offs);
        printf("DeviceSegmentedSort::SortKeys,%zu,%zu,%.3f,%.2f,%s\n", n, m, ms, n / ms / 1e6,
               ok ? "ok" : "WRONG");
        CHECK(cudaFree(d_off));
    }
    if (types) {
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        CHECK(cudaFree(d_vin));
        CHECK(cudaFree(d_vout));
        sort_keys_of<uint64_t>("SortKeys_uint64", n, reps,
                               [](size_t) { return ((uint64_t)next32() << 32) | next32(); });
        sort_keys_of<float>("SortKeys_float_random_bits", n, reps, [](size_t) {
            uint32_t u = next32();
            if ((u & 0x7f800000u) == 0x7f800000u)
                u &= ~0x00800000u;
            return float_of(u);
        });
        sort_keys_of<float>("SortKeys_float_narrow", n, reps, [](size_t) {
            return (float)((long)(next32() & 0xffffff) - 0x800000) * 0.001f;
        });
    }
    return 0;
}

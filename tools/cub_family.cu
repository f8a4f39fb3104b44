/* SPDX-License-Identifier: MIT */
// cub_family: times CUB's equivalents of clprim's scan-built primitives on the
// same int32 inputs as clprim-bench, with the same "bytes a call must move"
// and the same ratio to the copy rate measured in the same run, so that the
// two can stand side by side in one table. A development tool for NVIDIA
// machines with the CUDA toolkit (CUB 13 = CCCL 3.x, as shipped with CUDA
// 13); not part of the library or its build.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 tools/cub_family.cu -o cub_family
//   cub_family [--n N] [--reps R] [--kept P] [--segment-length L] [--skip K] [--no-gate]
//
//   --n N               elements (default 2^28; "2^k" accepted; at most 2^31 - 1,
//                       since DeviceRunLengthEncode::Encode takes an int count)
//   --reps R            timed calls per row, median taken (default 11)
//   --kept P            select / partition: percent kept (default 50, as clprim-bench)
//   --segment-length L  mean segment length of the by-key rows (default 1000)
//   --skip K            step the generators past K elements first, as clprim-bench
//                       does for the sizes before n in its list: with --n 2^28,
//                       --skip 67108864 gives clprim-bench --preset large's 2^28
//                       inputs bit for bit (that preset runs 2^26 first)
//   --no-gate           start each timed call on an idle GPU (see below)
//
// Rows (CSV on stdout, `primitive,n,ms,GBs_moved,copy_GBs,ratio_to_copy,check`;
// an aligned table on stderr at the end). The primitive names are clprim-bench's:
//   scan                cub::DeviceScan::InclusiveSum, int32; moves 4n + 4n
//                       (clprim-bench: 2 n sizeof(T))
//   select              cub::DeviceSelect::If (x < 100 P, x uniform in 0..9999);
//                       moves 4n + 4 per kept element
//   select-flags        cub::DeviceSelect::Flagged, uint8 flags (the same choice);
//                       moves 4n + n + 4 per kept element
//   partition-reversed  cub::DevicePartition::If: CUB writes the selected items in
//                       order at the front and the rejected ones in REVERSE order at
//                       the back, which is clprim's --compact partition-reversed
//                       (reverse_rejected = 1), not its stable partition; moves 4n + 4n
//   unique              cub::DeviceSelect::Unique, runs of 4 on average; moves 4n +
//                       4 per run
//   rle                 cub::DeviceRunLengthEncode::Encode with 64-bit lengths
//                       (clprim's are cl_ulong); moves 4n + (4 + 8) per run
//   scan-keys           cub::DeviceScan::InclusiveSumByKey, int32 keys (the running
//                       segment number); moves 4n values + 4n keys + 4n out
//   reduce-keys         cub::DeviceReduce::ReduceByKey with cuda::std::plus<> (cub::Sum
//                       is gone in CCCL 3.0); moves 4n + 4n + 4 per segment (sums) +
//                       4 per segment (keys)
//   reduce-offsets      cub::DeviceSegmentedReduce::Sum over begin = offsets, end =
//                       offsets + 1; moves 4n + 4 (segments + 1) + 4 per segment
// clprim's scan-flags, scan-offsets and reduce-flags have no direct CUB call and
// are left out. The 8-byte counts (number selected / runs / segments) are not
// counted as moved, as in clprim-bench. Inputs: the generators and seeds of
// clprim-bench (tools/clprim-bench.c for the scan, tools/bench_compact.c,
// tools/bench_segment.c), so the data is the same as clprim-bench's for the
// same n (see --skip).
//
// Timing: per row, the input is copied to the GPU once and CUB's temporary
// storage allocated once (outside the timing); one warm-up call, then R calls,
// each between two cudaEvents on the default stream; the median. As
// clprim-bench gates its calls, each start event is recorded behind a ~0.1 ms
// one-thread spin kernel, so that it fires only once the call's launches are
// already queued behind it (host launch overhead is not timed, gaps between a
// call's kernels are); --no-gate drops the spin. The copy rate is timed the same
// way in the same run, per row: cudaMemcpyAsync device to device of the 4n input,
// counted as 2 * 4n bytes (read + write), median of R. GB/s = bytes moved /
// median time; ratio_to_copy = that over the copy's GB/s. Every row is then run
// once more into poisoned outputs and checked against a host reference: counts,
// and a full compare of everything written (a partition all n).

#include <cub/cub.cuh>
#include <cub/version.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                                 \
    do {                                                                                      \
        const cudaError_t e_ = (x);                                                           \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "cub_family: %s:%d: %s: %s\n", __FILE__, __LINE__, #x,            \
                    cudaGetErrorString(e_));                                                  \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

// ---------------------------------------------------------------- inputs ----

// tests/reference/reference.c clprim_ref_rand (splitmix64): the compaction and
// segmented benches draw one value per element from it.
static uint64_t ref_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// clprim-bench.c's scan input: one LCG step per byte, the byte its top 8 bits.
static const uint64_t LCG_A = 6364136223846793005ull, LCG_C = 1442695040888963407ull;

// The LCG state after k more steps (Brown, "Random number generation with
// arbitrary strides", 1994).
static uint64_t lcg_skip(uint64_t seed, uint64_t k)
{
    uint64_t am = 1, ac = 0, m = LCG_A, c = LCG_C;
    for (; k; k >>= 1) {
        if (k & 1) {
            am *= m;
            ac = ac * m + c;
        }
        c = (m + 1) * c;
        m *= m;
    }
    return am * seed + ac;
}

// clprim-bench.c's scan input for one n: 4n random bytes.
static void gen_scan(int32_t *x, size_t n, uint64_t skip)
{
    unsigned char *bytes = reinterpret_cast<unsigned char *>(x);
    uint64_t seed = lcg_skip(0x243F6A8885A308D3ull, 4 * skip);
    for (size_t i = 0; i < 4 * n; ++i) {
        seed = seed * LCG_A + LCG_C;
        bytes[i] = (unsigned char)(seed >> 56);
    }
}

// tools/bench_compact.c's input. pass 0 (select, partition): x = r % 10000,
// keep x < value (CLPRIM_PREDICATE_LESS, value = 100 * kept percent). pass 1
// (unique, rle): runs of 4 on average (a new value with probability 1/4, else
// the previous one), keep the heads (clprim_ref_heads).
static void gen_compact(int pass, int32_t *x, unsigned char *keep, size_t n, int value,
                        uint64_t skip)
{
    uint64_t seed = 0x9E3779B97F4A7C15ull + skip * 0x9E3779B97F4A7C15ull; // K draws on
    for (size_t i = 0; i < n; ++i) {
        const uint64_t r = ref_rand(&seed);
        x[i] = pass && i > 0 && r % 4 != 0 ? x[i - 1] : (int32_t)(r % 10000);
        keep[i] = pass ? i == 0 || x[i] != x[i - 1] : x[i] < value;
    }
}

// tools/bench_segment.c's input: values in -1499..499, a head at 0 and with
// probability 1 / len elsewhere; keys the running segment number (0, 1, ...),
// offs the heads and n after them. Returns the number of segments.
static size_t gen_segments(int32_t *x, int32_t *keys, int32_t *offs, size_t n, size_t len,
                           uint64_t skip)
{
    uint64_t seed = 0x452821E638D01377ull + skip * 0x9E3779B97F4A7C15ull;
    size_t m = 0;
    int32_t key = -1;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t r = ref_rand(&seed);
        const bool head = i == 0 || (len > 1 ? (r & 0xFFFFFFFu) % len == 0 : true);
        x[i] = (int32_t)(uint32_t)(r >> 32) % 1000 - 500;
        if (head)
            offs[m++] = (int32_t)i;
        keys[i] = key += head;
    }
    offs[m] = (int32_t)n;
    return m;
}

// ------------------------------------------------------ host references ----
// What each row must write, as tests/reference/reference.c computes it.

// inclusive int32 sum, wrapping
static void ref_scan(const int32_t *x, size_t n, int32_t *want)
{
    uint32_t acc = 0;
    for (size_t i = 0; i < n; ++i) {
        acc += (uint32_t)x[i];
        want[i] = (int32_t)acc;
    }
}

// the kept elements in order; returns how many (clprim_ref_select)
static size_t ref_select(const int32_t *x, const unsigned char *keep, size_t n, int32_t *want)
{
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (keep[i])
            want[k++] = x[i];
    return k;
}

// the kept in order at the front, the rejected from the back (clprim_ref_partition,
// reversed = 1)
static void ref_partition_reversed(const int32_t *x, const unsigned char *keep, size_t n,
                                   int32_t *want)
{
    size_t k = 0, r = 0;
    for (size_t i = 0; i < n; ++i)
        want[keep[i] ? k++ : n - 1 - r++] = x[i];
}

// each run's value and length (keep: the heads); returns the number of runs
// (clprim_ref_select and clprim_ref_run_lengths)
static size_t ref_runs(const int32_t *x, const unsigned char *keep, size_t n, int32_t *want,
                       unsigned long long *lengths)
{
    size_t runs = 0, start = 0;
    for (size_t i = 0; i < n; ++i)
        if (keep[i]) {
            if (i > 0)
                lengths[runs - 1] = i - start;
            want[runs++] = x[i];
            start = i;
        }
    if (runs)
        lengths[runs - 1] = n - start;
    return runs;
}

// inclusive int32 sums restarting where the key changes, wrapping
static void ref_scan_keys(const int32_t *x, const int32_t *keys, size_t n, int32_t *want)
{
    uint32_t acc = 0;
    for (size_t i = 0; i < n; ++i) {
        acc = (i == 0 || keys[i] != keys[i - 1] ? 0u : acc) + (uint32_t)x[i];
        want[i] = (int32_t)acc;
    }
}

// each segment's sum: the last of its segmented scan (sums may be scan itself)
static void ref_segment_sums(const int32_t *scan, const int32_t *offs, size_t m, int32_t *sums)
{
    for (size_t s = 0; s < m; ++s) // offs[s + 1] - 1 >= s: never read after written
        sums[s] = scan[(size_t)offs[s + 1] - 1];
}

template <class T> static T *host_alloc(size_t count)
{
    T *p = static_cast<T *>(malloc((count ? count : 1) * sizeof(T)));
    if (!p) {
        fprintf(stderr, "cub_family: cannot allocate %zu bytes on the host\n", count * sizeof(T));
        exit(1);
    }
    return p;
}

template <class T> static T *dev_alloc(size_t count)
{
    void *p = nullptr;
    CK(cudaMalloc(&p, (count ? count : 1) * sizeof(T)));
    return static_cast<T *>(p);
}

// --------------------------------------------------------------- timing ----

// One thread spins for `ns` nanoseconds of the global timer: the gate that a
// start event waits behind (clprim-bench's gate, tools/bench_timing.c).
__global__ void gate_kernel(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}

struct options {
    size_t n = size_t(1) << 28;
    int reps = 11;
    int kept = 50;
    size_t segment_length = 1000;
    uint64_t skip = 0;
    bool gate = true;
};
static options opt;
static cudaEvent_t ev_start, ev_stop;

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t k = v.size();
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

// Median milliseconds of `call` (one warm-up, opt.reps timed), NAN when a call
// fails (its error in *err).
template <class F> static double median_ms(F &&call, cudaError_t *err)
{
    std::vector<double> t;
    *err = call();
    if (*err == cudaSuccess)
        *err = cudaDeviceSynchronize();
    for (int r = 0; r < opt.reps && *err == cudaSuccess; ++r) {
        float ms = 0;
        if (opt.gate)
            gate_kernel<<<1, 1>>>(100000ull);
        CK(cudaEventRecord(ev_start, 0));
        *err = call();
        CK(cudaEventRecord(ev_stop, 0));
        CK(cudaEventSynchronize(ev_stop));
        if (*err == cudaSuccess)
            *err = cudaGetLastError();
        CK(cudaEventElapsedTime(&ms, ev_start, ev_stop));
        t.push_back(ms);
    }
    return *err == cudaSuccess ? median(t) : NAN;
}

// ----------------------------------------------------------------- rows ----

struct row {
    std::string name, api;
    size_t n;
    double moved, ms, gbs, copy_gbs, ratio;
    bool ok;
};
static std::vector<row> rows;

struct out_buf {
    void *p;
    size_t bytes;
};

// Times one CUB call against the copy of its 4n input (copy_src -> copy_dst),
// then runs it once more into outputs set to 0xA5 and checks them with
// verify(). cub(temp, temp_bytes) is the CUB call: with temp == nullptr it
// only sizes the temporary storage.
template <class Cub, class Verify>
static void run_row(const char *name, const char *api, double moved, const void *copy_src,
                    void *copy_dst, Cub cub, std::vector<out_buf> outs, Verify verify)
{
    const size_t n = opt.n;
    size_t temp_bytes = 0;
    void *temp = nullptr;
    cudaError_t err;
    double copy_ms, ms;
    bool ok = false;

    CK(cub(nullptr, temp_bytes));
    CK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1));
    const auto call = [&] {
        size_t b = temp_bytes;
        return cub(temp, b);
    };
    const auto copy = [&] {
        return cudaMemcpyAsync(copy_dst, copy_src, 4 * n, cudaMemcpyDeviceToDevice, 0);
    };
    fprintf(stderr, "cub_family: %s ...\n", name);
    copy_ms = median_ms(copy, &err);
    CK(err);
    ms = median_ms(call, &err);
    if (err != cudaSuccess) {
        fprintf(stderr, "cub_family: %s (%s) failed: %s\n", name, api, cudaGetErrorString(err));
    } else {
        for (const out_buf &o : outs)
            CK(cudaMemset(o.p, 0xA5, o.bytes));
        CK(call());
        CK(cudaDeviceSynchronize());
        ok = verify();
    }
    CK(cudaFree(temp));

    row r;
    r.name = name;
    r.api = api;
    r.n = n;
    r.moved = moved;
    r.ms = ms;
    r.gbs = moved / ms / 1e6;
    r.copy_gbs = 2.0 * 4.0 * (double)n / copy_ms / 1e6;
    r.ratio = r.gbs / r.copy_gbs;
    r.ok = ok;
    rows.push_back(r);
    printf("%s,%zu,%.4f,%.2f,%.2f,%.4f,%s\n", name, n, ms, r.gbs, r.copy_gbs, r.ratio,
           ok ? "ok" : "FAIL");
    fflush(stdout);
}

template <class T> static bool same(const T *dev, const T *want, size_t count, const char *what)
{
    T *got = host_alloc<T>(count);
    CK(cudaMemcpy(got, dev, count * sizeof(T), cudaMemcpyDeviceToHost));
    size_t i = 0;
    while (i < count && got[i] == want[i])
        ++i;
    if (i < count)
        fprintf(stderr, "cub_family: %s differs first at %zu of %zu\n", what, i, count);
    free(got);
    return i == count;
}

static bool count_is(const long long *d_count, size_t want, const char *what)
{
    long long got = -1;
    CK(cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost));
    if (got < 0 || (size_t)got != want)
        fprintf(stderr, "cub_family: %s count %lld, expected %zu\n", what, got, want);
    return got >= 0 && (size_t)got == want;
}

// select / partition: keep x < value (clprim's CLPRIM_PREDICATE_LESS)
struct less_than {
    int value;
    __host__ __device__ bool operator()(const int &x) const { return x < value; }
};

// ----------------------------------------------------------------- scan ----

static void scan_rows()
{
    const size_t n = opt.n;
    int32_t *x = host_alloc<int32_t>(n), *want = host_alloc<int32_t>(n);
    gen_scan(x, n, opt.skip);
    ref_scan(x, n, want);
    int *d_x = dev_alloc<int>(n), *d_y = dev_alloc<int>(n);
    CK(cudaMemcpy(d_x, x, 4 * n, cudaMemcpyHostToDevice));
    const int num = (int)n;
    run_row(
        "scan", "DeviceScan::InclusiveSum", 2.0 * 4 * n, d_x, d_y,
        [=](void *t, size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, d_x, d_y, num); },
        {{d_y, 4 * n}}, [&] { return same(d_y, want, n, "scan"); });
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    free(x);
    free(want);
}

// ----------------------------------------------------------- compaction ----

// select, select-flags, partition-reversed (pass 0); unique, rle (pass 1)
static void compact_rows()
{
    const size_t n = opt.n;
    const int value = opt.kept * 100;
    int32_t *x = host_alloc<int32_t>(n), *want = host_alloc<int32_t>(n);
    unsigned char *keep = host_alloc<unsigned char>(n);
    unsigned long long *lengths = host_alloc<unsigned long long>(n);
    int *d_x = dev_alloc<int>(n), *d_y = dev_alloc<int>(n);
    unsigned char *d_flags = dev_alloc<unsigned char>(n);
    unsigned long long *d_len = nullptr;
    long long *d_count = dev_alloc<long long>(1);
    const int num = (int)n;
    const int64_t num64 = (int64_t)n;
    size_t kept = 0, runs = 0;

    for (int pass = 0; pass < 2; ++pass) { // 0: select / partition, 1: unique / rle
        gen_compact(pass, x, keep, n, value, opt.skip);
        CK(cudaMemcpy(d_x, x, 4 * n, cudaMemcpyHostToDevice));
        if (pass == 0) {
            kept = ref_select(x, keep, n, want);
            CK(cudaMemcpy(d_flags, keep, n, cudaMemcpyHostToDevice));
            const double moved = 4.0 * n + 4.0 * kept;
            const less_than pred{value};
            run_row(
                "select", "DeviceSelect::If", moved, d_x, d_y,
                [=](void *t, size_t &b) {
                    return cub::DeviceSelect::If(t, b, d_x, d_y, d_count, num64, pred);
                },
                {{d_y, 4 * n}, {d_count, 8}},
                [&] { return count_is(d_count, kept, "select") && same(d_y, want, kept, "select"); });
            run_row(
                "select-flags", "DeviceSelect::Flagged", moved + n, d_x, d_y,
                [=](void *t, size_t &b) {
                    return cub::DeviceSelect::Flagged(t, b, d_x, d_flags, d_y, d_count, num64);
                },
                {{d_y, 4 * n}, {d_count, 8}}, [&] {
                    return count_is(d_count, kept, "select-flags") &&
                           same(d_y, want, kept, "select-flags");
                });
            // CUB's DevicePartition::If puts the rejected items at the back in
            // reverse order: clprim's partition-reversed (clprim_ref_partition
            // with reversed = 1), not its stable partition.
            ref_partition_reversed(x, keep, n, want);
            run_row(
                "partition-reversed", "DevicePartition::If", 2.0 * 4 * n, d_x, d_y,
                [=](void *t, size_t &b) {
                    return cub::DevicePartition::If(t, b, d_x, d_y, d_count, num, pred);
                },
                {{d_y, 4 * n}, {d_count, 8}}, [&] {
                    return count_is(d_count, kept, "partition") && same(d_y, want, n, "partition");
                });
        } else {
            runs = ref_runs(x, keep, n, want, lengths);
            CK(cudaFree(d_flags));
            d_flags = nullptr;
            d_len = dev_alloc<unsigned long long>(n);
            run_row(
                "unique", "DeviceSelect::Unique", 4.0 * n + 4.0 * runs, d_x, d_y,
                [=](void *t, size_t &b) {
                    return cub::DeviceSelect::Unique(t, b, d_x, d_y, d_count, num64);
                },
                {{d_y, 4 * n}, {d_count, 8}},
                [&] { return count_is(d_count, runs, "unique") && same(d_y, want, runs, "unique"); });
            run_row(
                "rle", "DeviceRunLengthEncode::Encode", 4.0 * n + 12.0 * runs, d_x, d_y,
                [=](void *t, size_t &b) {
                    return cub::DeviceRunLengthEncode::Encode(t, b, d_x, d_y, d_len, d_count, num);
                },
                {{d_y, 4 * n}, {d_len, 8 * n}, {d_count, 8}}, [&] {
                    return count_is(d_count, runs, "rle") && same(d_y, want, runs, "rle values") &&
                           same(d_len, lengths, runs, "rle lengths");
                });
        }
    }
    CK(cudaFree(d_x));
    CK(cudaFree(d_y));
    CK(cudaFree(d_len));
    CK(cudaFree(d_count));
    free(x);
    free(want);
    free(keep);
    free(lengths);
}

// ------------------------------------------------------------ segmented ----

// scan-keys, reduce-keys, reduce-offsets
static void segment_rows()
{
    const size_t n = opt.n, len = opt.segment_length;
    int32_t *x = host_alloc<int32_t>(n), *keys = host_alloc<int32_t>(n);
    int32_t *want = host_alloc<int32_t>(n), *offs = host_alloc<int32_t>(n + 1);
    int32_t *want_keys;
    const size_t m = gen_segments(x, keys, offs, n, len, opt.skip);
    ref_scan_keys(x, keys, n, want);

    int *d_x = dev_alloc<int>(n), *d_keys = dev_alloc<int>(n), *d_y = dev_alloc<int>(n);
    CK(cudaMemcpy(d_x, x, 4 * n, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_keys, keys, 4 * n, cudaMemcpyHostToDevice));
    const int num = (int)n;
    run_row(
        "scan-keys", "DeviceScan::InclusiveSumByKey", 3.0 * 4 * n, d_x, d_y,
        [=](void *t, size_t &b) {
            return cub::DeviceScan::InclusiveSumByKey(t, b, d_keys, d_x, d_y, num);
        },
        {{d_y, 4 * n}}, [&] { return same(d_y, want, n, "scan-keys"); });

    // the reduces: one sum per segment (the last of each segment's scan)
    want_keys = host_alloc<int32_t>(m);
    ref_segment_sums(want, offs, m, want);
    for (size_t s = 0; s < m; ++s)
        want_keys[s] = (int32_t)s;
    int *d_ukeys = dev_alloc<int>(m), *d_offs = dev_alloc<int>(m + 1);
    long long *d_count = dev_alloc<long long>(1);
    CK(cudaMemcpy(d_offs, offs, 4 * (m + 1), cudaMemcpyHostToDevice));
    run_row(
        "reduce-keys", "DeviceReduce::ReduceByKey", 2.0 * 4 * n + 2.0 * 4 * m, d_x, d_y,
        [=](void *t, size_t &b) {
            return cub::DeviceReduce::ReduceByKey(t, b, d_keys, d_ukeys, d_x, d_y, d_count,
                                                  cuda::std::plus<>{}, num);
        },
        {{d_y, 4 * m}, {d_ukeys, 4 * m}, {d_count, 8}}, [&] {
            return count_is(d_count, m, "reduce-keys") && same(d_y, want, m, "reduce-keys sums") &&
                   same(d_ukeys, want_keys, m, "reduce-keys keys");
        });
    const int64_t segs = (int64_t)m;
    run_row(
        "reduce-offsets", "DeviceSegmentedReduce::Sum", 4.0 * n + 4.0 * (m + 1) + 4.0 * m, d_x,
        d_y,
        [=](void *t, size_t &b) {
            return cub::DeviceSegmentedReduce::Sum(t, b, d_x, d_y, segs, d_offs, d_offs + 1);
        },
        {{d_y, 4 * m}}, [&] { return same(d_y, want, m, "reduce-offsets"); });

    CK(cudaFree(d_x));
    CK(cudaFree(d_keys));
    CK(cudaFree(d_y));
    CK(cudaFree(d_ukeys));
    CK(cudaFree(d_offs));
    CK(cudaFree(d_count));
    free(x);
    free(keys);
    free(want);
    free(offs);
    free(want_keys);
}

// ----------------------------------------------------------------- main ----

static bool parse_size(const char *s, unsigned long long *v)
{
    char *end;
    if (!strncmp(s, "2^", 2)) {
        const unsigned long long k = strtoull(s + 2, &end, 10);
        if (*end || end == s + 2 || k > 62)
            return false;
        *v = 1ull << k;
        return true;
    }
    *v = strtoull(s, &end, 10);
    return *s && !*end;
}

static const char usage[] =
    "usage: cub_family [--n N] [--reps R] [--kept P] [--segment-length L] [--skip K] "
    "[--no-gate]\n"
    "Times CUB's scan, select, partition, unique, run-length encoding and by-key /\n"
    "segmented sums of int32 on clprim-bench's inputs, against cudaMemcpyAsync of the\n"
    "4n input in the same run; CSV on stdout, a table on stderr (see the source).\n";

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const char *o = argv[i];
        unsigned long long v = 0;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(o, "--no-gate")) {
            opt.gate = false;
            continue;
        }
        if (i + 1 >= argc || !parse_size(argv[i + 1], &v)) {
            fprintf(stderr, "cub_family: %s needs a number\n%s", o, usage);
            return 2;
        }
        ++i;
        if (!strcmp(o, "--n"))
            opt.n = (size_t)v;
        else if (!strcmp(o, "--reps"))
            opt.reps = (int)std::min(v, 1001ull);
        else if (!strcmp(o, "--kept"))
            opt.kept = (int)std::min(v, 101ull);
        else if (!strcmp(o, "--segment-length"))
            opt.segment_length = (size_t)v;
        else if (!strcmp(o, "--skip"))
            opt.skip = v;
        else {
            fprintf(stderr, "cub_family: unknown option %s\n%s", o, usage);
            return 2;
        }
    }
    if (opt.n < 1 || opt.n > (size_t)INT_MAX || opt.reps < 1 || opt.kept > 100 ||
        opt.segment_length < 1) {
        fprintf(stderr, "cub_family: need 1 <= n <= 2^31 - 1, reps >= 1, kept 0..100, "
                        "segment length >= 1\n");
        return 2;
    }

    cudaDeviceProp prop;
    int dev = 0, runtime = 0, driver = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&prop, dev));
    CK(cudaRuntimeGetVersion(&runtime));
    CK(cudaDriverGetVersion(&driver));
    CK(cudaEventCreate(&ev_start));
    CK(cudaEventCreate(&ev_stop));
    fprintf(stderr,
            "# %s, CUDA runtime %d, driver %d, CUB %d.%d.%d; int32, n = %zu, medians of %d, "
            "%d%% kept, segments of %zu on average, skip %llu, %s\n",
            prop.name, runtime, driver, CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION,
            opt.n, opt.reps, opt.kept, opt.segment_length, (unsigned long long)opt.skip,
            opt.gate ? "gated" : "ungated");
    printf("primitive,n,ms,GBs_moved,copy_GBs,ratio_to_copy,check\n");
    fflush(stdout);

    scan_rows();
    compact_rows();
    segment_rows();

    bool all_ok = true;
    fprintf(stderr, "\n%-18s %-30s %10s %9s %14s %9s %9s %7s %s\n", "primitive", "CUB call", "n",
            "ms", "bytes moved", "GB/s", "copy GB/s", "ratio", "check");
    for (const row &r : rows) {
        fprintf(stderr, "%-18s %-30s %10zu %9.3f %14.0f %9.1f %9.1f %7.3f %s\n", r.name.c_str(),
                r.api.c_str(), r.n, r.ms, r.moved, r.gbs, r.copy_gbs, r.ratio,
                r.ok ? "ok" : "FAIL");
        all_ok = all_ok && r.ok;
    }
    CK(cudaEventDestroy(ev_start));
    CK(cudaEventDestroy(ev_stop));
    return all_ok ? 0 : 1;
}

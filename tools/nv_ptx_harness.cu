/* SPDX-License-Identifier: MIT */
// nv_ptx_harness: runs the PTX that NVIDIA's OpenCL compiler made of clprim's
// kernels through the CUDA driver API, so that CUDA's tools can see it (Nsight
// Compute takes no OpenCL), and times CUB and the copy / read ceilings with
// CUDA events in the same process. A development tool for NVIDIA machines with
// the CUDA toolkit; not part of the library or its build.
//
//   nvcc -O2 -arch=sm_90 -o nv_ptx_harness tools/nv_ptx_harness.cu -lcuda
//   nv_ptx_harness scan   FILE ELEM GROUPS [N]   scan_single_pass, inclusive sum
//   nv_ptx_harness reduce FILE ELEM GROUPS [N]   reduce_fast, sum
//   nv_ptx_harness cub    -    ELEM 0      [N]   CUB DeviceScan / DeviceReduce
//   nv_ptx_harness sort   FILE 4    TILES  [N]   one sort_onesweep pass (uint32 keys,
//                                                 digit 0) over random keys; TILES: the
//                                                 tile size (keys), to size the grid
//   nv_ptx_harness segreduce FILE 4 GROUPS [N]   a segmented reduce by int32 keys (sum,
//                                                 segments of about 1000): the entry
//                                                 KERNEL names (seg_loop, seg_single_pass;
//                                                 the latter needs GROUPS = its tiles)
//   nv_ptx_harness compact FILE 4 GROUPS [N]     compact_single_pass over int32 as
//                                                 clprim-bench --compact fills it; the
//                                                 compaction the entry was built for in
//                                                 COMPACT (below); GROUPS 0: what
//                                                 src/compact.c launches on NVIDIA
//
// FILE: a clprim disk-cache entry (CLPRIM_CACHE_DIR; on NVIDIA it holds the
// PTX) or plain PTX. ELEM: 4 or 8 bytes; FLOAT=1 fills floats (the sum is not
// checked then). GROUPS: work-groups launched; the work-group size comes from
// the entry's .reqntid. N defaults to 2^28. PROFILE=1: four launches and no
// timing, for `ncu -k regex:NAME --launch-skip 2 --launch-count 1`.
// The driver gives OpenCL kernels their work-group offset, global offset and
// group count in %envreg0, 3 and 6, which a CUDA launch leaves 0: they are
// rewritten to 0, 0 and %nctaid.x on load. Arguments, in each kernel's
// order (cl/scan.cl, cl/reduce.cl, cl/sort.cl), as src/ passes them: scan
// in, in_off, out, out_off, n, state, generation, flags (SCAN_ALIGNED),
// init (none), init_off; reduce in, in_off, n, out, out_off, state; sort
// keys only, the digit starts computed here, a new generation each launch;
// compact (cl/compact.cl, cl/compact_abi.h, src/compact.c's single_pass) in,
// in_off, out, out_off, n, flags, flags_off, value (one int32, by value),
// indices (none), indices_off, lengths (none), lengths_off, count,
// count_off, state, generation, kflags. Each list is counted against its
// entry's .param list in the PTX before the launch, as the library's debug
// builds count theirs against CL_KERNEL_NUM_ARGS (compact's sizes too).
//
// compact: the program's defines (MODE, PRED, ITEMS, COMPACT_LOOPED) are
// not in the cache entry, so COMPACT names the compaction it was built for:
// flags (clprim-bench --compact select-flags: keep x where its uint8 flag is
// set; the default when the PTX has the flags' kmask array), select (select:
// keep x < value), partition (the kept in order, then the rejected in order;
// count must hold the kept total first, which src/compact.c's compact_count
// computes and the harness writes once before the launches) or
// partition-reversed (the rejected from the end backwards, as CUB's
// DevicePartition). The input: clprim-bench's, int32 uniform in [0, 10000)
// from tests/reference's generator, kept below value = KEPT * 100 (default
// 50: half), the uint8 flags the same choice. The tile (work-group size x
// ITEMS) comes from the size of the kernel's local array `tile` in the PTX
// (ITEMS=k overrides); the state is cl/common/abi.h's header and two status
// words per tile, zeroed once; a new generation each launch; kflags
// COMPACT_ONE_TILE for one tile, COMPACT_KNOWN_TOTAL for partition. An entry
// built looping (COMPACT_LOOPED 1, NVIDIA's row: its local array scratch2
// shows it) runs on any grid, src/compact.c launching compute units x 4
// (GROUPS 0 here); otherwise GROUPS must be the tile count, which the harness
// launches instead. The count and every output element are checked against a
// host reference (tests/reference's), the time printed as clprim-bench's
// ratio (bytes the operation must move, over memcpy's rate), and CUB does the
// same on the same data (DeviceSelect::Flagged or ::If, DevicePartition::If;
// not under PROFILE).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

// Parameters of `.entry name(...)` in the PTX; -1 when there is no such entry.
static int ptx_params(const std::string &ptx, const char *name)
{
    const size_t at = ptx.find(std::string(".entry ") + name + "(");
    const size_t end = at == std::string::npos ? at : ptx.find(')', at);
    int count = 0;
    if (end == std::string::npos)
        return -1;
    for (size_t p = ptx.find(".param", at); p < end; p = ptx.find(".param", p + 6))
        ++count;
    return count;
}

// Launches need as many arguments as the kernel has parameters: exits
// naming both counts otherwise.
static void check_args(const std::string &ptx, const char *name, size_t given)
{
    const int want = ptx_params(ptx, name);
    if (want != (int)given) {
        fprintf(stderr, "%s takes %d arguments in the PTX but the harness passes %zu\n", name,
                want, given);
        exit(1);
    }
}

#define CHECK(x)                                                                   \
    do {                                                                           \
        long e_ = (long)(x);                                                       \
        if (e_) {                                                                  \
            fprintf(stderr, "%s:%d: %s failed (%ld)\n", __FILE__, __LINE__, #x, e_); \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

__global__ void copy4(const float4 *in, float4 *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// the same read-only kernel as clprim-bench's read4
__global__ void read4(const float4 *in, float4 *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        if (v.x == 1234.5f && v.y == -4321.5f)
            out[0] = v;
    }
}

static std::string read_ptx(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    std::string s;
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, k);
    fclose(f);
    size_t at = s.find("//\n// Generated"); // a cache entry: the PTX after its header
    if (at != std::string::npos)
        s = s.substr(at, s.find('\0', at) - at);
    s = std::regex_replace(s, std::regex("mov\\.b32\\s+(%r\\d+), %envreg6;"), "mov.u32 $1, %nctaid.x;");
    return std::regex_replace(s, std::regex("mov\\.b32\\s+(%r\\d+), %envreg[03];"), "mov.u32 $1, 0;");
}

// median of 15 event-timed runs after 2 warm-ups, microseconds
template <class F> static double median_us(F f)
{
    cudaEvent_t a, b;
    std::vector<float> t;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    f();
    f();
    for (int r = 0; r < 15; ++r) {
        float ms;
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// PROFILE: four launches for Nsight Compute and no timing (returns -1);
// otherwise the median of timed launches, in microseconds.
template <class F> static double timed(F launch, bool profile)
{
    if (profile) {
        for (int i = 0; i < 4; ++i)
            launch();
        CHECK(cudaDeviceSynchronize());
        return -1;
    }
    const double t = median_us(launch);
    CHECK(cudaDeviceSynchronize());
    return t;
}

template <class T> static void cub_figures(void *in, void *out, int n, double copy, double read)
{
    void *tmp = nullptr;
    size_t scan_bytes = 0, reduce_bytes = 0;
    cub::DeviceScan::InclusiveSum(tmp, scan_bytes, (T *)in, (T *)out, n);
    cub::DeviceReduce::Sum(tmp, reduce_bytes, (T *)in, (T *)out, n);
    CHECK(cudaMalloc(&tmp, std::max(scan_bytes, reduce_bytes)));
    double s = median_us([&] { cub::DeviceScan::InclusiveSum(tmp, scan_bytes, (T *)in, (T *)out, n); });
    double r = median_us([&] { cub::DeviceReduce::Sum(tmp, reduce_bytes, (T *)in, (T *)out, n); });
    printf("CUB scan %.1f us, %.3f of copy; reduce %.1f us, %.3f of read\n", s, copy / s, r, read / r);
    cudaFree(tmp);
}

// One pass of sort_onesweep by digit 0 of uint32 keys; `tile` keys per
// work-group. Checks that the output is the keys stably ordered by digit 0.
static int sort_pass(const std::string &ptx, CUfunction fn, unsigned wg, unsigned tile, void *in,
                     void *out, const std::vector<unsigned> &h, size_t n, double copy,
                     bool profile)
{
    const unsigned long long tiles = (n + tile - 1) / tile, state_bytes = 16 + tiles * 256 * 8;
    std::vector<unsigned> start(256, 0), want(n);
    for (size_t i = 0; i < n; ++i)
        ++start[h[i] & 255];
    for (unsigned d = 0, run = 0; d < 256; ++d) {
        const unsigned c = start[d];
        start[d] = run;
        run += c;
    }
    std::vector<unsigned> at(start);
    for (size_t i = 0; i < n; ++i)
        want[at[h[i] & 255]++] = h[i];
    void *hist, *state;
    CHECK(cudaMalloc(&hist, 256 * 4));
    CHECK(cudaMalloc(&state, state_bytes));
    CHECK(cudaMemset(state, 0, state_bytes));
    CHECK(cudaMemcpy(hist, start.data(), 256 * 4, cudaMemcpyHostToDevice));
    CUdeviceptr pin = (CUdeviceptr)in, pout = (CUdeviceptr)out, none = 0;
    CUdeviceptr phist = (CUdeviceptr)hist, pstate = (CUdeviceptr)state;
    unsigned long long zero = 0, count = n;
    unsigned kmode = 0, shift = 0, bits = 8, generation = 0;
    void *args[] = {&pin,   &zero,  &pout,  &zero, &none,  &zero, &none,   &zero,  &count,
                    &kmode, &shift, &bits,  &phist, &zero, &pstate, &zero, &generation};
    check_args(ptx, "sort_onesweep", sizeof args / sizeof args[0]);
    auto launch = [&] {
        ++generation;
        CHECK(cuLaunchKernel(fn, (unsigned)tiles, 1, 1, wg, 1, 1, 0, 0, args, 0));
    };
    const double t = timed(launch, profile);
    if (t < 0)
        return 0;
    std::vector<unsigned> got(n);
    CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    const bool ok = got == want;
    printf("sort_onesweep pass %.1f us, %.3f of memcpy (%llu tiles); %s\n", t, copy / t, tiles,
           ok ? "checked" : "WRONG");
    return ok ? 0 : 1;
}

// Segmented reduce by int32 keys (cl/segment.cl's arguments, SEG_ALIGNED
// only): keys count the segments, a new one with probability 1/1000; the
// sums are checked. Time against reading values and keys.
static int seg_reduce(const std::string &ptx, const char *name, CUfunction fn, unsigned wg,
                      unsigned groups, void *in, void *out, void *state,
                      const std::vector<unsigned> &h, size_t n, double read, bool profile)
{
    std::vector<int> keys(n);
    std::vector<unsigned> want;
    unsigned x = 777, acc = 0;
    int key = 0;
    for (size_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        if (i && (x >> 8) % 1000 == 0) {
            want.push_back(acc);
            acc = 0;
            ++key;
        }
        keys[i] = key;
        acc += h[i];
    }
    want.push_back(acc);
    void *segs;
    CHECK(cudaMalloc(&segs, n * 4));
    CHECK(cudaMemcpy(segs, keys.data(), n * 4, cudaMemcpyHostToDevice));
    CUdeviceptr pin = (CUdeviceptr)in, pout = (CUdeviceptr)out, pstate = (CUdeviceptr)state,
                psegs = (CUdeviceptr)segs, none = 0;
    unsigned long long zero = 0, count = n, m = 0;
    unsigned generation = 0, sflags = 32; // SEG_ALIGNED
    void *args[] = {&pin,  &zero, &pout, &zero,   &count,      &psegs,  &zero,   &m,
                    &none, &none, &zero, &none,   &zero,       &pstate, &generation, &sflags};
    check_args(ptx, name, sizeof args / sizeof args[0]);
    auto launch = [&] {
        ++generation;
        CHECK(cuLaunchKernel(fn, groups, 1, 1, wg, 1, 1, 0, 0, args, 0));
    };
    const double t = timed(launch, profile);
    if (t < 0)
        return 0;
    std::vector<unsigned> got(want.size());
    CHECK(cudaMemcpy(got.data(), out, want.size() * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t k = 0; k < want.size(); ++k)
        bad += got[k] != want[k];
    printf("%s %.1f us, %.3f of reading values and keys; %zu segments, %s\n", name, t,
           2 * read / t, want.size(), bad ? "WRONG" : "checked");
    CHECK(cudaFree(segs));
    return bad ? 1 : 0;
}

// Bytes of each parameter of `.entry name(...)` in the PTX (.u64 8, .u32 4,
// .align A .b8 x[N] N; 0 for a form not known here).
static std::vector<int> ptx_param_bytes(const std::string &ptx, const char *name)
{
    std::vector<int> bytes;
    const size_t at = ptx.find(std::string(".entry ") + name + "(");
    const size_t end = at == std::string::npos ? at : ptx.find(')', at);
    if (end == std::string::npos)
        return bytes;
    static const std::regex scalar("^\\.param\\s+\\.[usbf](\\d+)\\s"), array("\\[(\\d+)\\]");
    for (size_t p = ptx.find(".param", at); p < end; p = ptx.find(".param", p + 6)) {
        const size_t stop = std::min(ptx.find_first_of(",)", p), end);
        const std::string one = ptx.substr(p, stop - p);
        std::smatch m;
        if (std::regex_search(one, m, scalar))
            bytes.push_back(std::stoi(m[1].str()) / 8);
        else if (one.find(".b8") != std::string::npos && std::regex_search(one, m, array))
            bytes.push_back(std::stoi(m[1].str()));
        else
            bytes.push_back(0);
    }
    return bytes;
}

// The arguments' sizes against the PTX's parameters, one by one: exits
// naming the first that differs.
static void check_arg_bytes(const std::string &ptx, const char *name, const std::vector<int> &given)
{
    const std::vector<int> want = ptx_param_bytes(ptx, name);
    for (size_t i = 0; i < given.size() && i < want.size(); ++i)
        if (want[i] != given[i]) {
            fprintf(stderr, "%s: parameter %zu is %d bytes in the PTX but the harness passes %d\n",
                    name, i, want[i], given[i]);
            exit(1);
        }
}

// The size in bytes of the PTX's local (.shared) array `var` of entry
// `name`, as NVIDIA's OpenCL compiler names it (name_$_var); 0 if absent.
static unsigned long ptx_local_bytes(const std::string &ptx, const char *name, const char *var)
{
    const std::string decl = std::string(name) + "_$_" + var + "[";
    const size_t at = ptx.find(decl);
    return at == std::string::npos ? 0 : strtoul(ptx.c_str() + at + decl.size(), nullptr, 10);
}

// clprim's test generator (tests/reference/reference.c: clprim_ref_rand),
// which clprim-bench fills compactions with
static unsigned long long ref_rand(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct keep_less { // CUB's select_op for a select / partition by x < value
    int value;
    __host__ __device__ bool operator()(const int &x) const { return x < value; }
};

// cl/compact_abi.h's MODE and kflags
enum { COMPACT_SELECT = 0, COMPACT_PARTITION = 1, COMPACT_PARTITION_REVERSED = 2 };
enum { COMPACT_ONE_TILE = 2, COMPACT_KNOWN_TOTAL = 4 };

// compact_single_pass over int32 as clprim-bench --compact fills it (uniform
// in [0, 10000), kept below KEPT * 100): COMPACT says which compaction the
// entry was built for (flags: select by uint8 flags, select: by x < value,
// partition, partition-reversed: by x < value). Arguments as src/compact.c's
// single_pass passes them; the output and count are checked against a host
// reference, and CUB does the same compaction on the same data.
static int compact_pass(const std::string &ptx, CUfunction fn, unsigned wg, unsigned groups,
                        void *in, void *out, size_t n, double copy, bool profile)
{
    const char *name = "compact_single_pass";
    const bool masks = ptx_local_bytes(ptx, name, "kmask") != 0; // built for flags (PRED 6, 7)
    const std::string how = getenv("COMPACT") ? getenv("COMPACT") : masks ? "flags" : "";
    const bool by_flags = how == "flags" || how == "select-flags";
    const int mode = by_flags || how == "select"   ? COMPACT_SELECT
                     : how == "partition"          ? COMPACT_PARTITION
                     : how == "partition-reversed" ? COMPACT_PARTITION_REVERSED
                                                   : -1;
    if (mode < 0) {
        fprintf(stderr, "COMPACT=%s: say flags, select, partition or partition-reversed (what "
                        "the entry was built for; only flags shows in the PTX)\n", how.c_str());
        return 2;
    }
    if (n == 0) { // src/compact.c launches nothing then
        fprintf(stderr, "compact: N must be at least 1\n");
        return 2;
    }
    if (masks != by_flags)
        fprintf(stderr, "warning: COMPACT=%s but the PTX %s a kmask array: an entry built %s "
                        "uint8 flags?\n", how.c_str(), masks ? "has" : "lacks",
                masks ? "for" : "without");
    // the tile: its local array holds PADDED_SIZE(wg * ITEMS) ints
    // (cl/compact.cl, cl/common/wg_scan.clh); ITEMS=k overrides
    const unsigned long tile_bytes = ptx_local_bytes(ptx, name, "tile");
    unsigned items = 0;
    for (unsigned k = 1; k <= 32 && !items; ++k)
        if ((wg * k + wg * k / 32 + 1) * 4ul == tile_bytes)
            items = k;
    if (getenv("ITEMS")) {
        const unsigned given = (unsigned)strtoul(getenv("ITEMS"), nullptr, 10);
        if (items && given != items)
            fprintf(stderr, "warning: ITEMS=%u, but the PTX's tile (%lu bytes) says %u\n", given,
                    tile_bytes, items);
        items = given;
    } else if (!items) {
        items = 32; // the NVIDIA row for 4-byte elements (src/compact_tuning.c)
        fprintf(stderr, "no tile of %lu bytes fits %u work-items; ITEMS=32 taken (set ITEMS)\n",
                tile_bytes, wg);
    }
    const unsigned long long tile = (unsigned long long)wg * items, tiles = (n + tile - 1) / tile;
    // COMPACT_LOOPED: only the looping kernel uses scratch2 (the next tile's count)
    const bool looped = ptx_local_bytes(ptx, name, "scratch2") != 0;
    if (groups == 0) { // src/compact.c: compute units x the row's groups_per_cu (4)
        int sms = 0;
        CUdevice dev;
        CHECK(cuCtxGetDevice(&dev));
        CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
        groups = looped ? (unsigned)sms * 4 : (unsigned)tiles;
    }
    if (groups > tiles || (!looped && groups != tiles)) {
        fprintf(stderr, "%u work-groups for %llu tiles: %llu launched (%s)\n", groups, tiles,
                tiles, looped ? "no more than the tiles" : "one per tile: the PTX does not loop");
        groups = (unsigned)tiles;
    }

    // the input and flags as clprim-bench makes them (tools/bench_compact.c)
    const int value = (getenv("KEPT") ? atoi(getenv("KEPT")) : 50) * 100;
    std::vector<int> x(n), want(n);
    std::vector<unsigned char> keep(n);
    unsigned long long seed = 0x9E3779B97F4A7C15ull, kept = 0;
    for (size_t i = 0; i < n; ++i) {
        x[i] = (int)(ref_rand(&seed) % 10000);
        keep[i] = x[i] < value;
        kept += keep[i];
    }
    for (size_t i = 0, k = 0, r = 0; i < n; ++i) // tests/reference: select, partition
        if (keep[i])
            want[k++] = x[i];
        else if (mode == COMPACT_PARTITION)
            want[kept + r++] = x[i];
        else if (mode == COMPACT_PARTITION_REVERSED)
            want[n - 1 - r++] = x[i];
    const size_t checked = mode == COMPACT_SELECT ? kept : n;
    // the state: header and two status words per tile (LB_WORDS 2: a 64-bit count),
    // cl/common/abi.h's CLPRIM_TILE_STATE_BYTES(tiles, 2, 16) as src/compact.c asks
    // for it, zeroed as the pool does for a fresh buffer (generations from 1)
    const size_t state_bytes = 16 + tiles * 2 * 8;
    void *flags, *count, *state;
    CHECK(cudaMemcpy(in, x.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&flags, n));
    CHECK(cudaMemcpy(flags, keep.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&count, 8));
    // the stable partition reads the kept count (compact_count's, in src/compact.c)
    CHECK(cudaMemcpy(count, &kept, 8, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&state, state_bytes));
    CHECK(cudaMemset(state, 0, state_bytes));
    CHECK(cudaMemset(out, 0xff, n * 4));

    // in, in_off, out, out_off, n, flags, flags_off, value (one int32),
    // indices, indices_off, lengths, lengths_off, count, count_off, state,
    // generation, kflags: the flags go to every mode (a comparison leaves
    // them unread; src/compact.c passes NULL then)
    CUdeviceptr pin = (CUdeviceptr)in, pout = (CUdeviceptr)out, pflags = (CUdeviceptr)flags;
    CUdeviceptr pcount = (CUdeviceptr)count, pstate = (CUdeviceptr)state, none = 0;
    unsigned long long zero = 0, count_n = n;
    int val = by_flags ? 0 : value;
    unsigned generation = 0,
             kflags = (tiles == 1 ? COMPACT_ONE_TILE : 0) |
                      (mode == COMPACT_PARTITION ? COMPACT_KNOWN_TOTAL : 0);
    void *args[] = {&pin,  &zero, &pout,   &zero, &count_n, &pflags, &zero,  &val,       &none,
                    &zero, &none, &zero,   &pcount, &zero,  &pstate, &generation, &kflags};
    check_args(ptx, name, sizeof args / sizeof args[0]);
    check_arg_bytes(ptx, name, {8, 8, 8, 8, 8, 8, 8, 4, 8, 8, 8, 8, 8, 8, 8, 4, 4});
    printf("%s, COMPACT=%s: tile %llu (%u x %u), %llu tiles, %u work-groups%s; %llu of %zu kept\n",
           name, how.c_str(), tile, wg, items, tiles, groups,
           looped ? " looping over tiles" : ", one tile each", kept, n);
    auto launch = [&] {
        ++generation; // a new generation each call, as the pool gives (src/pool.c)
        CHECK(cuLaunchKernel(fn, groups, 1, 1, wg, 1, 1, 0, 0, args, 0));
    };
    const double t = timed(launch, profile);
    int rc = 0;
    if (t >= 0) {
        unsigned long long got_count = 0;
        std::vector<int> got(checked);
        CHECK(cudaMemcpy(&got_count, count, 8, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(got.data(), out, checked * 4, cudaMemcpyDeviceToHost));
        size_t bad = got_count != kept;
        for (size_t i = 0; i < checked; ++i)
            bad += got[i] != want[i];
        // clprim-bench's ratio: bytes the operation must move over memcpy's rate
        const double moved = mode == COMPACT_SELECT ? 4.0 * n + 4.0 * kept + (by_flags ? n : 0)
                                                    : 8.0 * n;
        const double ratio = moved * copy / (8.0 * n * t);
        printf("%s %.1f us, %.3f of memcpy (clprim-bench's ratio); count %llu, %s\n", name, t,
               ratio, got_count, bad ? "WRONG" : "checked");
        if (bad && groups < tiles)
            printf("(an entry built with COMPACT_LOOPED 0 needs GROUPS = its tiles, %llu)\n",
                   tiles);
        rc = bad ? 1 : 0;

        // CUB on the same data: Flagged for flags, If by x < value otherwise (the
        // partitions); its partition writes the rejected elements reversed
        void *tmp = nullptr, *cub_count;
        size_t tmp_bytes = 0;
        const int *cin = (const int *)in;
        int *cout = (int *)out;
        long long *cnum;
        const unsigned char *cflags = (const unsigned char *)flags;
        const keep_less less{value};
        CHECK(cudaMalloc(&cub_count, 8));
        cnum = (long long *)cub_count;
        auto cub_run = [&] {
            if (mode == COMPACT_SELECT && by_flags)
                CHECK(cub::DeviceSelect::Flagged(tmp, tmp_bytes, cin, cflags, cout, cnum, (int)n));
            else if (mode == COMPACT_SELECT)
                CHECK(cub::DeviceSelect::If(tmp, tmp_bytes, cin, cout, cnum, (int)n, less));
            else
                CHECK(cub::DevicePartition::If(tmp, tmp_bytes, cin, cout, cnum, (int)n, less));
        };
        cub_run(); // sizes tmp
        CHECK(cudaMalloc(&tmp, tmp_bytes));
        CHECK(cudaMemset(out, 0xff, n * 4));
        const double c = median_us(cub_run);
        long long cub_kept = 0;
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(&cub_kept, cub_count, 8, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(got.data(), out, checked * 4, cudaMemcpyDeviceToHost));
        bad = (unsigned long long)cub_kept != kept;
        for (size_t i = 0; i < checked && mode != COMPACT_PARTITION; ++i)
            bad += got[i] != want[i];
        printf("CUB %s %.1f us, %.3f of memcpy; %s\n",
               mode == COMPACT_SELECT ? (by_flags ? "DeviceSelect::Flagged" : "DeviceSelect::If")
                                      : "DevicePartition::If",
               c, moved * copy / (8.0 * n * c),
               bad ? "differs"
               : mode == COMPACT_PARTITION ? "count checked (CUB reverses the rejected)"
                                           : "checked");
        CHECK(cudaFree(tmp));
        CHECK(cudaFree(cub_count));
    }
    CHECK(cudaFree(flags));
    CHECK(cudaFree(count));
    CHECK(cudaFree(state));
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: see the comment at the top of tools/nv_ptx_harness.cu\n");
        return 2;
    }
    const std::string mode = argv[1];
    const size_t elem = strtoul(argv[3], nullptr, 10);
    const unsigned groups = (unsigned)strtoul(argv[4], nullptr, 10);
    const size_t n = argc > 5 ? strtoull(argv[5], nullptr, 0) : (size_t)1 << 28, bytes = n * elem;
    const bool floats = getenv("FLOAT") != nullptr, profile = getenv("PROFILE") != nullptr;
    if ((elem != 4 && elem != 8) || (floats && elem != 4)) {
        fprintf(stderr, "ELEM must be 4 or 8 (4 with FLOAT)\n");
        return 2;
    }
    CHECK(cuInit(0));
    CHECK(cudaFree(0));
    void *in, *out, *state;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMalloc(&state, 64 << 20));
    CHECK(cudaMemset(state, 0, 64 << 20));
    std::vector<unsigned> h(bytes / 4);
    unsigned x = 12345;
    for (size_t i = 0; i < h.size(); ++i) {
        x = x * 1664525u + 1013904223u;
        h[i] = x >> 24;
        if (floats) {
            float f = (float)(h[i] % 100) / 50.f;
            memcpy(&h[i], &f, 4);
        } else if (elem == 8 && i % 2) {
            h[i] = 0; // small 64-bit values
        }
    }
    CHECK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));

    const size_t n4 = bytes / 16;
    const unsigned blocks4 = (unsigned)((n4 + 255) / 256);
    double copy = median_us([&] { cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice); });
    double kcopy = median_us([&] { copy4<<<blocks4, 256>>>((float4 *)in, (float4 *)out, n4); });
    double read = median_us([&] { read4<<<blocks4, 256>>>((float4 *)in, (float4 *)out, n4); });
    printf("memcpy %.1f us (%.0f GB/s), copy4 %.1f us, read4 %.1f us (%.0f GB/s)\n", copy,
           2 * bytes / copy / 1e3, kcopy, read, bytes / read / 1e3);
    if (mode == "cub") {
        if (floats)
            cub_figures<float>(in, out, (int)n, copy, read);
        else if (elem == 4)
            cub_figures<int>(in, out, (int)n, copy, read);
        else
            cub_figures<long long>(in, out, (int)n, copy, read);
        return 0;
    }
    if (mode != "scan" && mode != "reduce" && mode != "sort" && mode != "segreduce" &&
        mode != "compact") {
        fprintf(stderr, "unknown mode %s\n", mode.c_str());
        return 2;
    }
    if (mode == "compact" && (elem != 4 || floats)) {
        fprintf(stderr, "compact takes int32: ELEM 4, no FLOAT\n");
        return 2;
    }
    const std::string ptx = read_ptx(argv[2]);
    const char *name = mode == "scan"        ? "scan_single_pass"
                       : mode == "sort"      ? "sort_onesweep"
                       : mode == "compact"   ? "compact_single_pass"
                       : mode == "segreduce" ? (getenv("KERNEL") ? getenv("KERNEL") : "seg_loop")
                                             : "reduce_fast";
    size_t entry = ptx.find(std::string(".entry ") + name + "(");
    size_t reqntid = ptx.find(".reqntid ", entry);
    if (entry == std::string::npos || reqntid == std::string::npos) {
        fprintf(stderr, "%s: no %s with .reqntid\n", argv[2], name);
        return 1;
    }
    const unsigned wg = (unsigned)strtoul(ptx.c_str() + reqntid + 9, nullptr, 10);
    CUmodule mod;
    CUfunction fn;
    char log[8192] = "";
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[] = {log, (void *)(size_t)sizeof log};
    if (cuModuleLoadDataEx(&mod, ptx.c_str(), 2, opt, val) != CUDA_SUCCESS) {
        fprintf(stderr, "the driver rejected the PTX: %s\n", log);
        return 1;
    }
    CHECK(cuModuleGetFunction(&fn, mod, name));
    int regs = 0, per_sm = 0;
    cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
    cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, (int)wg, 0);
    printf("%s: %u work-items, %d registers, %d work-groups per SM, %u launched\n", name, wg,
           regs, per_sm, groups);

    if (mode == "sort")
        return sort_pass(ptx, fn, wg, groups, in, out, h, n, copy, profile);
    if (mode == "compact")
        return compact_pass(ptx, fn, wg, groups, in, out, n, copy, profile);
    if (mode == "segreduce")
        return seg_reduce(ptx, name, fn, wg, groups, in, out, state, h, n, read, profile);
    CUdeviceptr pin = (CUdeviceptr)in, pout = (CUdeviceptr)out, pstate = (CUdeviceptr)state;
    CUdeviceptr none = 0;
    unsigned long long zero = 0, count = n;
    unsigned generation = 0, flags = 64; // SCAN_ALIGNED
    void *scan_args[] = {&pin,   &zero,       &pout,  &zero, &count,
                         &pstate, &generation, &flags, &none, &zero};
    void *reduce_args[] = {&pin, &zero, &count, &pout, &zero, &pstate};
    if (mode == "scan")
        check_args(ptx, name, sizeof scan_args / sizeof scan_args[0]);
    else
        check_args(ptx, name, sizeof reduce_args / sizeof reduce_args[0]);
    auto launch = [&] {
        ++generation; // each scan call runs in a new generation, as src/scan.c does
        CHECK(cuLaunchKernel(fn, groups, 1, 1, wg, 1, 1, 0, 0,
                             mode == "scan" ? scan_args : reduce_args, 0));
    };
    const double t = timed(launch, profile);
    if (t < 0)
        return 0;
    if (mode == "reduce") {
        printf("reduce_fast %.1f us, %.3f of read\n", t, read / t);
        return 0;
    }
    std::vector<unsigned> got(bytes / 4);
    CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    if (!floats && elem == 4) {
        unsigned acc = 0;
        for (size_t i = 0; i < n; ++i)
            bad += got[i] != (acc += h[i]);
    } else if (elem == 8) {
        unsigned long long acc = 0, v, g;
        for (size_t i = 0; i < n; ++i) {
            memcpy(&v, &h[2 * i], 8);
            memcpy(&g, &got[2 * i], 8);
            bad += g != (acc += v);
        }
    }
    printf("scan_single_pass %.1f us, %.3f of memcpy, %.3f of copy4; %s\n", t, copy / t,
           kcopy / t, floats ? "not checked (float)" : bad ? "WRONG" : "checked");
    return bad ? 1 : 0;
}

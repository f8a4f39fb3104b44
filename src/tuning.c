/* Tuning: the only place where work-group sizes and items per work-item are
 * chosen. Rows are data, matched most specific first (device name, then
 * vendor, then device type, then the default); each says where its numbers
 * came from. The values are clamped later to what the device and each kernel
 * allow (build.c, scan.c).
 *
 * Look-back spins: 4096 polls of a predecessor's status (about a millisecond
 * on a GPU, far longer than a running tile needs) before a tile computes the
 * predecessor's total itself; only devices that stall a running work-group
 * ever reach it. AUTO runs a single-pass scan only where it was measured
 * correct and fastest (README's performance table). */
#include "internal.h"

#include <string.h>

typedef struct tuning_row {
    cl_uint vendor_id;         /* 0: any */
    const char *device_match;  /* substring of the device name; NULL: any */
    cl_device_type type;       /* 0: any */
    size_t elem_size;          /* 0: any */
    clprim__tuning t;
} tuning_row;

/* Where single-pass stops beating MULTILEVEL on the H100 (clprim-bench
 * --preset full, NVIDIA OpenCL 580.159, 2026-11-22; bench/2026-11-22-h100):
 * single pass is one launch, which wins at small n; at large n MULTILEVEL
 * measured faster (int32 at 2^26: 0.600 vs 0.569 of copy; int64 at 2^24:
 * 0.532 vs 0.465, even at 2^22). */
#define NVIDIA_4_MAX_N ((size_t)1 << 24)
#define NVIDIA_8_MAX_N ((size_t)1 << 22)

static const tuning_row rows[] = {
    /* NVIDIA GPUs (warp 32): 256 work-items = 8 warps; tile items are a
     * starting point, checked with clprim-bench on the H100 (README). 8-byte
     * elements get half the items so the tile stays at 32 KiB of local memory. */
    {0x10DE, NULL, CL_DEVICE_TYPE_GPU, 8,
     {256, 8, 8, 4096, CLPRIM_SCAN_DECOUPLED_LOOKBACK, NVIDIA_8_MAX_N, "NVIDIA GPU, 8-byte elements"}},
    {0x10DE, NULL, CL_DEVICE_TYPE_GPU, 0,
     {256, 8, 16, 4096, CLPRIM_SCAN_DECOUPLED_LOOKBACK, NVIDIA_4_MAX_N, "NVIDIA GPU"}},
    /* AMD GPUs (wavefront 64): 256 work-items = 4 wavefronts. Unmeasured. */
    {0x1002, NULL, CL_DEVICE_TYPE_GPU, 0,
     {256, 8, 8, 4096, CLPRIM_SCAN_MULTILEVEL, 0, "AMD GPU (unmeasured guess)"}},
    /* CPUs (PoCL): a work-group is a loop on one core, so large tiles amortise
     * the per-work-group cost; 64 work-items keep the taught algorithms'
     * tiles (64 or 128 elements) small enough for the edge-size tests. */
    {0, NULL, CL_DEVICE_TYPE_CPU, 0,
     {64, 8, 16, 4096, CLPRIM_SCAN_MULTILEVEL, 0, "CPU (PoCL; unmeasured guess)"}},
    /* anything else */
    {0, NULL, 0, 0, {128, 8, 8, 4096, CLPRIM_SCAN_MULTILEVEL, 0, "default (unmeasured guess)"}},
};

clprim__tuning clprim__tuning_lookup(const clprim_device_info *dev, size_t elem_size)
{
    size_t i;
    for (i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const tuning_row *r = &rows[i];
        if (r->vendor_id && r->vendor_id != dev->vendor_id)
            continue;
        if (r->device_match && !strstr(dev->device_name, r->device_match))
            continue;
        if (r->type && !(r->type & dev->type))
            continue;
        if (r->elem_size && r->elem_size != elem_size)
            continue;
        return r->t;
    }
    return rows[sizeof rows / sizeof rows[0] - 1].t;
}

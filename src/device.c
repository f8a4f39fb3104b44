/* SPDX-License-Identifier: MIT */
/* Device facts, probed once per context: what the kernels are specialised for. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Vendor attribute queries (values from cl_ext.h, spelled out so that older
 * headers build too). */
#define CLPRIM__DEVICE_WARP_SIZE_NV 0x4003
#define CLPRIM__DEVICE_WAVEFRONT_WIDTH_AMD 0x4043
#define CLPRIM__DEVICE_SUB_GROUP_SIZES_INTEL 0x4108

#define VENDOR_NVIDIA 0x10DEu
#define VENDOR_AMD 0x1002u

int clprim__has_extension(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += len)
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return 1;
    return 0;
}

static cl_uint query_uint(cl_device_id dev, cl_device_info what)
{
    cl_uint v = 0;
    if (clGetDeviceInfo(dev, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

/* The sub-group sizes the device lists (cl_intel_required_subgroup_size)
 * into sizes[16], their number in *count; 0 where the query fails. */
static int sub_group_sizes(cl_device_id dev, size_t sizes[16], size_t *count)
{
    size_t bytes = 0;
    *count = 0;
    if (clGetDeviceInfo(dev, CLPRIM__DEVICE_SUB_GROUP_SIZES_INTEL, 16 * sizeof sizes[0], sizes,
                        &bytes) != CL_SUCCESS)
        return 0;
    *count = bytes / sizeof sizes[0];
    return 1;
}

static void simd_from_attributes(cl_device_id dev, const char *ext, clprim_device_info *info)
{
    if (clprim__has_extension(ext, "cl_nv_device_attribute_query")) {
        info->simd_width = query_uint(dev, CLPRIM__DEVICE_WARP_SIZE_NV);
        info->simd_source = "cl_nv_device_attribute_query (warp size)";
    } else if (clprim__has_extension(ext, "cl_amd_device_attribute_query")) {
        info->simd_width = query_uint(dev, CLPRIM__DEVICE_WAVEFRONT_WIDTH_AMD);
        info->simd_source = "cl_amd_device_attribute_query (wavefront width)";
    } else if (clprim__has_extension(ext, "cl_intel_required_subgroup_size") &&
               (info->type & CL_DEVICE_TYPE_GPU)) {
        /* GPUs only: CPU drivers (PoCL 5) list emulated sizes up to 512 */
        size_t sizes[16] = {0}, count, i;
        if (sub_group_sizes(dev, sizes, &count)) {
            /* the largest size: work-groups that are multiples of it are multiples of all */
            for (i = 0; i < count; ++i)
                if (sizes[i] > info->simd_width)
                    info->simd_width = (cl_uint)sizes[i];
            info->simd_source = "cl_intel_required_subgroup_size (largest sub-group size)";
        }
    }
    /* a power of two is assumed by work-group sizing; anything else is ignored */
    if (info->simd_width & (info->simd_width - 1))
        info->simd_width = 0;
}

int clprim__device_offers_sub_group(cl_device_id dev, size_t size)
{
    size_t sizes[16] = {0}, count = 0, i;
    sub_group_sizes(dev, sizes, &count);
    for (i = 0; i < count; ++i)
        if (sizes[i] == size)
            return 1;
    return 0;
}

/* One query of a fact the kernels or the cache key depend on; the first
 * failure is kept in *err (later queries are skipped), the call that
 * failed in *failed. */
#define QUERY(what, size, value)                                                         \
    do {                                                                               \
        if (err == CL_SUCCESS) {                                                       \
            *failed = "clGetDeviceInfo(" #what ")";                                    \
            err = clGetDeviceInfo(dev, what, size, value, NULL);                        \
        }                                                                              \
    } while (0)

clprim_status clprim__device_probe(cl_device_id dev, unsigned flags, clprim_device_info *info,
                                   const char **failed)
{
    cl_platform_id platform;
    char small[8192] = "", *ext = small;
    size_t ext_size = 0;
    cl_int err;

    memset(info, 0, sizeof *info);
    *failed = "clGetDeviceInfo(CL_DEVICE_PLATFORM)";
    err = clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    if (err == CL_SUCCESS) {
        *failed = "clGetPlatformInfo(CL_PLATFORM_NAME)";
        err = clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform_name,
                                info->platform_name, NULL);
    }
    /* names and versions are shortened where longer than the fields hold
     * (a driver says CL_INVALID_VALUE then); each is queried in full first */
#define CLPRIM__QUERY_STRING(what, field)                                                \
    do {                                                                               \
        size_t need = 0;                                                               \
        if (err == CL_SUCCESS) {                                                       \
            *failed = "clGetDeviceInfo(" #what ")";                                    \
            err = clGetDeviceInfo(dev, what, 0, NULL, &need);                          \
        }                                                                              \
        if (err == CL_SUCCESS && need <= sizeof(field))                                \
            err = clGetDeviceInfo(dev, what, sizeof(field), field, NULL);              \
        else if (err == CL_SUCCESS) {                                                  \
            char *full = clprim__malloc(need);                                                 \
            err = full ? clGetDeviceInfo(dev, what, need, full, NULL) : CL_OUT_OF_HOST_MEMORY; \
            if (full && err == CL_SUCCESS) {                                           \
                memcpy(field, full, sizeof(field) - 1);                                \
                field[sizeof(field) - 1] = '\0';                                       \
            }                                                                          \
            free(full);                                                                \
        }                                                                              \
    } while (0)
    CLPRIM__QUERY_STRING(CL_DEVICE_NAME, info->device_name);
    CLPRIM__QUERY_STRING(CL_DRIVER_VERSION, info->driver_version);
#undef CLPRIM__QUERY_STRING
    /* the extension list whole, however long */
    if (err == CL_SUCCESS) {
        *failed = "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)";
        err = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_size);
    }
    if (err == CL_SUCCESS && ext_size > sizeof small) {
        ext = clprim__malloc(ext_size);
        if (!ext) {
            ext = small;
            *failed = "allocating room for CL_DEVICE_EXTENSIONS";
            err = CL_OUT_OF_HOST_MEMORY;
        }
    }
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, ext_size ? ext_size : 1, ext, NULL);
    if (err != CL_SUCCESS)
        goto done;
    QUERY(CL_DEVICE_TYPE, sizeof info->type, &info->type);
    QUERY(CL_DEVICE_LOCAL_MEM_SIZE, sizeof info->local_mem_size, &info->local_mem_size);
    QUERY(CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof info->max_work_group_size,
          &info->max_work_group_size);
    QUERY(CL_DEVICE_GLOBAL_MEM_SIZE, sizeof info->global_mem_size, &info->global_mem_size);
    QUERY(CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof info->max_alloc_size, &info->max_alloc_size);
    QUERY(CL_DEVICE_VENDOR_ID, sizeof info->vendor_id, &info->vendor_id);
    QUERY(CL_DEVICE_MAX_COMPUTE_UNITS, sizeof info->compute_units, &info->compute_units);
    if (err != CL_SUCCESS)
        goto done;
    *failed = NULL;

    info->has_fp64 = clprim__has_extension(ext, "cl_khr_fp64") && !(flags & CLPRIM_CONTEXT_HIDE_FP64);
    info->has_int64_atomics = clprim__has_extension(ext, "cl_khr_int64_base_atomics");
    info->has_subgroups =
        clprim__has_extension(ext, "cl_khr_subgroups") || clprim__has_extension(ext, "cl_intel_subgroups");
    info->has_nv_ptx = info->vendor_id == VENDOR_NVIDIA &&
                       clprim__has_extension(ext, "cl_nv_device_attribute_query");
    /* the single-pass status protocol needs 64-bit atomics or PTX (lookback.clh) */
    info->has_single_pass = info->has_nv_ptx || info->has_int64_atomics;
    /* NVIDIA and AMD GPUs have 32 local-memory banks; elsewhere 32 is a safe
     * choice: padding by it never hurts more than one slot in 32. */
    info->local_mem_banks = 32;
    simd_from_attributes(dev, ext, info);
done:
    if (ext != small)
        free(ext);
    return err;
}
#undef QUERY

cl_uint clprim__nv_compute_major(cl_device_id dev, const clprim_device_info *info)
{
    cl_uint major = 0;
    /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV (cl_nv_device_attribute_query) */
    if (!info->has_nv_ptx || clGetDeviceInfo(dev, 0x4000, sizeof major, &major, NULL) != CL_SUCCESS)
        return 0;
    return major;
}

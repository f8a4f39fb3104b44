/* SPDX-License-Identifier: MIT */
/* Status names, from the X-macro tables in clprim.h and OpenCL's error list. */
#include "internal.h"

/* OpenCL 1.2's own error codes, so that a passed-through code has a name. */
#define CLPRIM__CL_ERROR_MAP(XX)                                               \
  XX(CL_DEVICE_NOT_FOUND) XX(CL_DEVICE_NOT_AVAILABLE)                          \
  XX(CL_COMPILER_NOT_AVAILABLE) XX(CL_MEM_OBJECT_ALLOCATION_FAILURE)           \
  XX(CL_OUT_OF_RESOURCES) XX(CL_OUT_OF_HOST_MEMORY)                            \
  XX(CL_PROFILING_INFO_NOT_AVAILABLE) XX(CL_MEM_COPY_OVERLAP)                  \
  XX(CL_IMAGE_FORMAT_MISMATCH) XX(CL_IMAGE_FORMAT_NOT_SUPPORTED)               \
  XX(CL_BUILD_PROGRAM_FAILURE) XX(CL_MAP_FAILURE)                              \
  XX(CL_MISALIGNED_SUB_BUFFER_OFFSET)                                          \
  XX(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)                             \
  XX(CL_COMPILE_PROGRAM_FAILURE) XX(CL_LINKER_NOT_AVAILABLE)                   \
  XX(CL_LINK_PROGRAM_FAILURE) XX(CL_DEVICE_PARTITION_FAILED)                   \
  XX(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) XX(CL_INVALID_VALUE)                    \
  XX(CL_INVALID_DEVICE_TYPE) XX(CL_INVALID_PLATFORM) XX(CL_INVALID_DEVICE)     \
  XX(CL_INVALID_CONTEXT) XX(CL_INVALID_QUEUE_PROPERTIES)                       \
  XX(CL_INVALID_COMMAND_QUEUE) XX(CL_INVALID_HOST_PTR)                         \
  XX(CL_INVALID_MEM_OBJECT) XX(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)             \
  XX(CL_INVALID_IMAGE_SIZE) XX(CL_INVALID_SAMPLER) XX(CL_INVALID_BINARY)       \
  XX(CL_INVALID_BUILD_OPTIONS) XX(CL_INVALID_PROGRAM)                          \
  XX(CL_INVALID_PROGRAM_EXECUTABLE) XX(CL_INVALID_KERNEL_NAME)                 \
  XX(CL_INVALID_KERNEL_DEFINITION) XX(CL_INVALID_KERNEL)                       \
  XX(CL_INVALID_ARG_INDEX) XX(CL_INVALID_ARG_VALUE) XX(CL_INVALID_ARG_SIZE)    \
  XX(CL_INVALID_KERNEL_ARGS) XX(CL_INVALID_WORK_DIMENSION)                     \
  XX(CL_INVALID_WORK_GROUP_SIZE) XX(CL_INVALID_WORK_ITEM_SIZE)                 \
  XX(CL_INVALID_GLOBAL_OFFSET) XX(CL_INVALID_EVENT_WAIT_LIST)                  \
  XX(CL_INVALID_EVENT) XX(CL_INVALID_OPERATION) XX(CL_INVALID_GL_OBJECT)       \
  XX(CL_INVALID_BUFFER_SIZE) XX(CL_INVALID_MIP_LEVEL)                          \
  XX(CL_INVALID_GLOBAL_WORK_SIZE) XX(CL_INVALID_PROPERTY)                      \
  XX(CL_INVALID_IMAGE_DESCRIPTOR) XX(CL_INVALID_COMPILER_OPTIONS)              \
  XX(CL_INVALID_LINKER_OPTIONS) XX(CL_INVALID_DEVICE_PARTITION_COUNT)

const char *clprim_status_string(clprim_status status)
{
    switch (status) {
#define CLPRIM__XX(name, num, desc) case CLPRIM_##name: return "CLPRIM_" #name;
        CLPRIM_STATUS_MAP(CLPRIM__XX)
#undef CLPRIM__XX
#define CLPRIM__XX(name) case name: return #name;
        CLPRIM__CL_ERROR_MAP(CLPRIM__XX)
#undef CLPRIM__XX
    default:
        return "unknown status";
    }
}

const char *clprim_version_string(void)
{
    return CLPRIM_VERSION_STRING;
}

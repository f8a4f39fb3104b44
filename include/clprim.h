/* SPDX-License-Identifier: MIT */
/*
 * clprim — data-parallel primitives (scan, ...) on OpenCL.
 *
 * This is the only public header. Everything a caller can do is declared and
 * documented here.
 *
 * Conventions
 * -----------
 * - Every call returns a clprim_status. 0 (CLPRIM_SUCCESS) is success. Negative
 *   values are OpenCL's own error codes, passed through unchanged. Positive
 *   values >= 1000 are clprim's own codes; their numbers never change.
 *   clprim_status_string() names any of them, and clprim_context_last_error()
 *   gives the detail of the last failure on a context (which argument, the
 *   compiler's build log, ...).
 * - The library never prints. Diagnostics go to an optional log callback.
 * - Handles are opaque; create/release pairs; release(NULL) is a no-op.
 * - Device-buffer calls look like clEnqueue*: a cl_mem plus an element offset
 *   and element count, a queue (NULL means the context's own queue), a wait
 *   list and an optional output event (which the caller must release). They
 *   enqueue and return without blocking. Functions whose names end in _host
 *   copy host arrays in and out and block until done.
 * - Buffers a call writes must not be read-only (CL_MEM_READ_ONLY), and no
 *   range a call writes may overlap another range of the same call in the
 *   same buffer, except in == out over one range where a call says it runs
 *   in place: both are refused with CLPRIM_INVALID_ARGUMENT, naming the
 *   ranges. A call that fails part-way may already have written part of its
 *   output; in place, that means part of its input is gone.
 * - Kernels are compiled for the device at first use (and cached in memory per
 *   context), so the first call of each element type / operator combination is
 *   slower than the following ones. On NVIDIA GPUs the radix sort, the
 *   searches and the merge compile one program per key type and direction
 *   (their tuning field kind_in_program, docs/tuning.md), for speed.
 *
 * Thread safety
 * -------------
 * A context may be used from several threads at once: program builds, kernel
 * argument setting and the temporary-memory pool are guarded by the context's
 * lock. A context must not be released while another thread still uses it.
 *
 * Arithmetic
 * ----------
 * Integer sum and product wrap modulo 2^bits, for signed types too (the kernels
 * compute in the unsigned type, so no undefined signed overflow is relied on).
 * Float and double results follow the association order of the chosen
 * algorithm, so they may differ in the last bits from a sequential loop, and
 * between algorithms; for one algorithm, device, n and type they are the same
 * every run (no floating-point atomics are used), except with
 * DECOUPLED_LOOKBACK (see clprim_scan_algorithm).
 *
 * Float and double min and max are IEEE 754-2019 minimum and maximum (C23
 * fminimum / fmaximum), which propagate NaN:
 * - a NaN anywhere in what is combined makes the result NaN: an input, or
 *   a carry-in (clprim_scan_init's init, the totals of earlier parts of a
 *   multi-part call). A scan's outputs are NaN from the first NaN on (an
 *   exclusive scan's from the one after it), a reduce's value is NaN, and
 *   a segmented call's likewise within the NaN's segment.
 *   Which NaN comes out (its sign and payload) is unspecified;
 * - -0.0 counts as below +0.0: min(-0.0, +0.0) is -0.0 and max(-0.0, +0.0)
 *   is +0.0, in either order.
 * fmin / fmax, which drop NaNs, are not used: fmin(+inf, NaN) is +inf, so
 * whether a NaN survived would depend on where an algorithm folds in the
 * identity, and their zero's sign on operand order. With this rule the
 * identities (+inf, -inf) are true identities and the operators associative
 * and commutative, so every algorithm (scans, reduces, segmented and
 * multi-part calls, summed-area tables) gives the same value on every
 * device. Integer min and max compare in the type.
 */
#ifndef CLPRIM_H
#define CLPRIM_H

#include <stddef.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Every public function is marked CLPRIM_API: the shared library exports
 * these names only (it is built with hidden visibility by default). */
#if defined(_WIN32) && defined(CLPRIM_SHARED_BUILD)
#define CLPRIM_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define CLPRIM_API __attribute__((visibility("default")))
#else
#define CLPRIM_API
#endif

#define CLPRIM_VERSION_MAJOR 0
#define CLPRIM_VERSION_MINOR 4
#define CLPRIM_VERSION_PATCH 0
#define CLPRIM_VERSION_STRING "0.4.0"

/* Version of the library actually linked (may differ from the header's). */
CLPRIM_API const char *clprim_version_string(void);

/* ------------------------------------------------------------------------ */
/* Status                                                                    */
/* ------------------------------------------------------------------------ */

/* XX(name, number, description). Numbers are part of the ABI: never renumber. */
#define CLPRIM_STATUS_MAP(XX)                                                  \
  XX(SUCCESS, 0, "success")                                                    \
  XX(INVALID_ARGUMENT, 1000, "invalid argument (NULL handle, bad value)")      \
  XX(OUT_OF_BOUNDS, 1001, "offset + count exceeds the buffer's size")          \
  XX(UNKNOWN_TYPE, 1002, "unknown element type")                               \
  XX(UNKNOWN_OPERATOR, 1003, "unknown operator")                               \
  XX(UNKNOWN_ALGORITHM, 1004, "unknown algorithm")                             \
  XX(UNSUPPORTED, 1005, "not supported on this device")                        \
  XX(BUILD_FAILED, 1006, "kernel program failed to build (see last error)")   \
  XX(NO_DEVICE, 1007, "no matching OpenCL device found")                       \
  XX(OUT_OF_HOST_MEMORY, 1008, "host memory allocation failed")                \
  XX(INTERNAL, 1009, "internal error")

typedef enum clprim_status_code {
#define CLPRIM_XX_(name, num, desc) CLPRIM_##name = num,
  CLPRIM_STATUS_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_STATUS_LAST_ /* not a status */
} clprim_status_code;

/* A clprim_status is either a clprim_status_code or an OpenCL error (< 0). */
typedef int clprim_status;

/* Static, never NULL: "CLPRIM_OUT_OF_BOUNDS", "CL_INVALID_VALUE", "unknown status". */
CLPRIM_API const char *clprim_status_string(clprim_status status);

/* ------------------------------------------------------------------------ */
/* Element types and operators                                              */
/* ------------------------------------------------------------------------ */

/* XX(NAME, number, name, OpenCL C type, host C type, size in bytes, is_signed, is_float) */
#define CLPRIM_TYPE_MAP(XX)                                                    \
  XX(INT32, 0, "int32", int, cl_int, 4, 1, 0)                                  \
  XX(UINT32, 1, "uint32", uint, cl_uint, 4, 0, 0)                              \
  XX(INT64, 2, "int64", long, cl_long, 8, 1, 0)                                \
  XX(UINT64, 3, "uint64", ulong, cl_ulong, 8, 0, 0)                            \
  XX(FLOAT, 4, "float", float, cl_float, 4, 1, 1)                              \
  XX(DOUBLE, 5, "double", double, cl_double, 8, 1, 1)

typedef enum clprim_type {
#define CLPRIM_XX_(NAME, num, name, cl, host, size, sgn, flt) CLPRIM_TYPE_##NAME = num,
  CLPRIM_TYPE_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_TYPE_COUNT_ /* not a type */
} clprim_type;

/* XX(NAME, number, lower-case name). Identities: sum 0, product 1, min the
 * type's largest value (+inf for floats), max its smallest (-inf for floats).
 * Float min and max with NaN and signed zeros: see "Arithmetic" above. */
#define CLPRIM_OP_MAP(XX)                                                      \
  XX(SUM, 0, "sum")                                                            \
  XX(PRODUCT, 1, "product")                                                    \
  XX(MIN, 2, "min")                                                            \
  XX(MAX, 3, "max")

typedef enum clprim_op {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_OP_##NAME = num,
  CLPRIM_OP_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_OP_COUNT_ /* not an operator */
} clprim_op;

/* Reproducibility (issue 33): how far a call's floating-point bits may vary.
 * XX(NAME, number, lower-case name). Every descriptor of a call that folds
 * values carries one (`repro`; 0, NONE, by default): clprim_scan_desc (scan,
 * scan with a carry-in, transform-scan, segmented scan, the multi-device and
 * MPI scans), clprim_reduce_desc (reduce, segmented reduce,
 * the multi-device and MPI reduces) and clprim_sat_desc.
 *   NONE        the fastest order. The bits of a float scan may change from
 *               run to run (the single-pass scans combine predecessors in an
 *               order that depends on timing); reduce, the multi-pass scans
 *               and the rows-then-columns table are fixed for one device, n
 *               and tuning anyway.
 *   RUN_TO_RUN  the same bits on every run with the same device, n, offsets
 *               (alignment), type, operator, tuning row and (multi-device,
 *               MPI) split. The single-pass scans (DECOUPLED_LOOKBACK, DOMINO,
 *               and AUTO where it takes them) use an ordered look-back
 *               (docs/algorithms.md): tiles form blocks of 32 whose totals
 *               are scanned in a fixed tree, the blocks' totals are chained
 *               left to right, and the published totals and the no-hang
 *               fallback use one fixed order inside the tile, so no timing
 *               changes a bit. Cost (H200, 2026-11-26, docs/performance.md):
 *               float 0.99x NONE's time at 2^28, double 1.15x. Reduce and
 *               the multi-pass scans honour it as they are (no cost); the
 *               summed-area table's AUTO takes ROWS_THEN_COLUMNS; MPI folds
 *               the ranks' totals in rank order on the device (not with
 *               MPI's own reductions, which fix no order). The segmented
 *               scans and reduces (flags, keys, offsets, reduce by key) run
 *               their one-tile-per-work-group pass with the ordered
 *               look-back over (heads, value) pairs, the tiles' own pairs
 *               in one fixed order (docs/algorithms.md); cost: that pass
 *               instead of the looping one where NONE takes it (to be
 *               measured). Refused (CLPRIM_UNSUPPORTED, naming desc->repro)
 *               for floats by the DECOUPLED_LOOKBACK table, which has no
 *               ordered path yet.
 *   PORTABLE    the same bits on every device clprim runs on (NVIDIA, PoCL,
 *               Intel's CPU runtime, ...): scan and reduce, whatever
 *               desc->algorithm, run the portable kernels, whose association
 *               order is fixed in cl/portable_abi.h (tiles of 64 work-items
 *               x 16 elements, trees in local memory that do not depend on
 *               the SIMD width, FP_CONTRACT off); transforms, carry-ins and
 *               custom operators included (the operator must itself give the
 *               same bits everywhere). test_repro checks the bits against a
 *               host reference of that order and against stored hashes.
 *               Cost: several passes instead of one (to be measured; the
 *               target is within 1.3x of NONE). clprim_multi_reduce and
 *               clprim_multi_scan give one device's bits for any number of
 *               parts when every part but the last non-empty one holds whole
 *               tiles of 1024 elements (CLPRIM_PORTABLE_TILE; other splits
 *               are refused); they then block until done. The MPI calls
 *               (clprim_mpi.h) give one device's bits for any number of
 *               ranks on the same condition for the ranks' parts. Both are
 *               built on clprim_reduce_tiles / clprim_scan_tiles. The
 *               summed-area table (AUTO or ROWS_THEN_COLUMNS) folds each
 *               row, then each column, in order in one work-item: the
 *               host's serial order. Refused (CLPRIM_UNSUPPORTED, naming
 *               desc->repro) for floats by the segmented calls and the
 *               DECOUPLED_LOOKBACK table.
 * Integer types and min / max of any built-in type give exact results in
 * any order: every level is accepted for them and runs the ordinary path at
 * full speed (the level changes nothing). A custom operator counts as
 * inexact (it may not be associative in floating point: exactly when the
 * order matters). An unknown level is CLPRIM_INVALID_ARGUMENT
 * ("desc->repro"). No build option of clprim enables unsafe math, so OpenCL
 * C never reassociates; only the algorithms' orders vary. */
#define CLPRIM_REPRO_MAP(XX)                                                   \
  XX(NONE, 0, "none")                                                          \
  XX(RUN_TO_RUN, 1, "run-to-run")                                              \
  XX(PORTABLE, 2, "portable")

typedef enum clprim_repro {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_REPRO_##NAME = num,
  CLPRIM_REPRO_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_REPRO_COUNT_ /* not a level */
} clprim_repro;

/* "none", "run-to-run", "portable"; NULL for unknown values. */
CLPRIM_API const char *clprim_repro_name(clprim_repro repro);

/* "int32", "float", ...; "sum", "max", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_type_name(clprim_type type);
CLPRIM_API const char *clprim_op_name(clprim_op op);
/* Size in bytes of one element on the host and device; 0 for unknown types. */
CLPRIM_API size_t clprim_type_size(clprim_type type);

/* ------------------------------------------------------------------------ */
/* Context                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct clprim_context clprim_context;

/* Log levels passed to the log callback. */
enum { CLPRIM_LOG_DEBUG = 0, CLPRIM_LOG_INFO = 1, CLPRIM_LOG_WARNING = 2 };
typedef void (*clprim_log_fn)(void *user, int level, const char *message);

/* Context option flags. */
enum {
  /* Behave as if the device lacked cl_khr_fp64 (to test that path on any device). */
  CLPRIM_CONTEXT_HIDE_FP64 = 1u << 0,
  /* Do not read or write the on-disk program cache (see below). */
  CLPRIM_CONTEXT_NO_DISK_CACHE = 1u << 1
};

/* On-disk program cache
 * ---------------------
 * Kernels are compiled for the device at first use; the built binaries are
 * also kept on disk, so later processes (and later contexts) skip the
 * compiler. Folder: options->cache_dir, else $CLPRIM_CACHE_DIR, else
 * $XDG_CACHE_HOME/clprim, else ~/.cache/clprim (created when missing). One
 * file per program; deleting the folder, or any file in it, at any time is
 * safe (they are rebuilt). An entry is keyed by the whole kernel source and
 * build options, the platform name and version, device name, vendor id,
 * driver version and clprim's version, so a driver update never reuses an
 * old binary. Files are written to a temporary name and renamed, so
 * concurrent processes only ever see whole files; each is checksummed and
 * verified on load, and a damaged file or a binary the driver rejects is
 * rebuilt from source and replaced. A folder that cannot be written is not
 * an error: the context carries on without the disk cache and says so once
 * through the log callback. Off: CLPRIM_CONTEXT_NO_DISK_CACHE, or the
 * environment variable CLPRIM_DISK_CACHE=0. */

/* Options for clprim_context_create. A NULL options pointer, or one zeroed
 * with memset, gives the defaults. */
typedef struct clprim_context_options {
  /* Case-insensitive substring of "platform name / device name" choosing the
   * device. NULL: the environment variable CLPRIM_DEVICE; if that is unset too,
   * the first GPU, else the first CPU, else the first device of any kind. */
  const char *device;
  clprim_log_fn log;   /* may be NULL */
  void *log_user;      /* passed back to log */
  unsigned flags;      /* CLPRIM_CONTEXT_* */
  const char *cache_dir; /* on-disk program cache folder; NULL: the default */
} clprim_context_options;

/* Tuning files
 * ------------
 * Each primitive's parameters (work-group sizes, elements per work-item, the
 * single-pass grid, ...) come from a table of rows built into clprim, chosen
 * by device name, vendor, device type, element size and, where a row says so,
 * by n. A tuning file adds rows of the caller's in front of that table, so a
 * GPU can be tuned without rebuilding clprim; `clprim-tune` measures a device
 * and writes such a file (docs/tuning.md). A context reads the file that
 * $CLPRIM_TUNING_FILE names when it is created (a file refused there fails
 * the creation with CLPRIM_INVALID_ARGUMENT, the message going to the log
 * callback), and clprim_context_set_tuning_file gives it another. Text, one
 * row per line, "#" to the end of a line is a comment:
 *
 *   scan device="NVIDIA H200" elem_size=4 min_n=1 max_n=33554432 sp_tile_items=24
 *
 * The first word names the primitive (scan, reduce, compact, segment, sat,
 * sort, search, histogram, merge). device= (a substring of the device name),
 * elem_size= (bytes of an element; of a key for sort and search, of a
 * sample for histogram), min_n= and max_n= (the call's n) say what the
 * sort, search, histogram, top_k). device= (a substring of the device
 * name), elem_size= (bytes of an element; of a key for sort, search and
 * top_k, of a sample for histogram), min_n= and max_n= (the call's n) say what the
 * row applies to, each optional (absent: any). Every other name=value sets one
 * parameter over the built-in row's values; the names are those that
 * clprim_context_tuning writes. The first row that matches a call is used.
 * Values are checked against what the device and the kernels allow and
 * lowered where needed, as built-in rows are. A file that cannot be read, an
 * unknown primitive or parameter, a value that is not a number, or min_n
 * above max_n is refused with CLPRIM_INVALID_ARGUMENT and a message naming
 * the file and line. */

/* Creates a context on a device chosen as options->device says, with its own
 * cl_context and in-order command queue (profiling enabled). Returns
 * CLPRIM_NO_DEVICE when no device matches: no OpenCL driver is installed
 * (pocl-opencl-icd runs on any CPU; clinfo lists what the loader finds), or
 * none has that name. Since no context exists to hold the message, the log
 * callback of options, if any, is told why. */
CLPRIM_API clprim_status clprim_context_create(const clprim_context_options *options,
                                               clprim_context **ctx);

/* Wraps the caller's OpenCL objects (retained, released with the context).
 * queue may be NULL: the context then creates its own in-order queue. The
 * device must belong to cl_ctx, and the queue to both. */
CLPRIM_API clprim_status clprim_context_wrap(cl_context cl_ctx, cl_device_id device,
                                             cl_command_queue queue,
                                             const clprim_context_options *options,
                                             clprim_context **ctx);

/* Releases everything the context owns. NULL is a no-op. The caller must have
 * finished (clFinish) work it enqueued through the context. */
CLPRIM_API void clprim_context_release(clprim_context *ctx);

/* The context's OpenCL objects (not retained for the caller). */
CLPRIM_API cl_context clprim_context_cl_context(const clprim_context *ctx);
CLPRIM_API cl_device_id clprim_context_device(const clprim_context *ctx);
CLPRIM_API cl_command_queue clprim_context_queue(const clprim_context *ctx);

/* Copies the message of the last failure on this context (including the build
 * log when a build failed) into buf, NUL-terminated and truncated to size.
 * Returns the full length of the message (excluding the NUL), like snprintf.
 * The message is "" when nothing has failed yet. */
CLPRIM_API size_t clprim_context_last_error(clprim_context *ctx, char *buf, size_t size);

/* Makes `message` the context's last error and returns status, as clprim's
 * own calls do when they fail: for libraries layered on clprim (clprim_mpi)
 * whose failures belong to a context. NULL ctx: returns status. */
CLPRIM_API clprim_status clprim_context_set_error(clprim_context *ctx, clprim_status status,
                                                  const char *message);

/* What clprim learned about its device (probed once, at context creation).
 *
 * Which SIMD-group form the kernels get: NVIDIA GPUs, warps through inline
 * PTX (shuffles, votes, memory ordering); devices with cl_khr_subgroups or
 * cl_intel_subgroups and cl_khr_subgroup_shuffle_relative (Intel's CPU
 * runtime, Intel GPUs), the work-group scans through sub-group shuffles;
 * any other device, local memory and barriers only. Environment
 * variables read when a context is created force another form (for tests
 * and comparisons): CLPRIM_SUBGROUPS=0 gives a device of the second kind
 * the local-memory form; CLPRIM_PTX=0 gives an NVIDIA GPU the forms other
 * vendors get (local memory; has_nv_ptx reads 0, and the single passes
 * need 64-bit atomics). */
typedef struct clprim_device_info {
  char platform_name[128];
  char device_name[128];
  char driver_version[64];
  cl_uint vendor_id;            /* 0x10DE NVIDIA, 0x1002 AMD, 0x8086 Intel, ... */
  cl_device_type type;
  cl_uint simd_width;           /* warp / wavefront / sub-group / preferred multiple */
  const char *simd_source;      /* where simd_width came from, e.g. "cl_nv_device_attribute_query" */
  cl_uint local_mem_banks;      /* local-memory banks used for conflict-free padding */
  cl_ulong local_mem_size;      /* bytes */
  size_t max_work_group_size;
  cl_uint compute_units;
  cl_ulong global_mem_size;
  cl_ulong max_alloc_size;
  int has_fp64;                 /* cl_khr_fp64 (and not hidden by CLPRIM_CONTEXT_HIDE_FP64) */
  int has_int64_atomics;        /* cl_khr_int64_base_atomics */
  int has_subgroups;            /* cl_khr_subgroups or cl_intel_subgroups */
  int has_nv_ptx;               /* NVIDIA: inline PTX usable in kernels */
  int has_single_pass;          /* the single-pass scans can run (NVIDIA or 64-bit atomics) */
} clprim_device_info;

CLPRIM_API clprim_status clprim_context_device_info(const clprim_context *ctx,
                                                    clprim_device_info *info);

/* The tuning row the context uses for `primitive` ("scan", "reduce",
 * "compact", "segment", "sat", "sort", "search", "histogram" or "merge") with
 * elements (sort, search and merge: keys; histogram: samples) of elem_size bytes in a call of n elements, after the
 * "compact", "segment", "sat", "sort", "search", "histogram" or "top_k")
 * with elements (sort, search and top_k: keys; histogram: samples) of
 * elem_size bytes in a call of n elements, after the
 * tuning file and the development environment variables (docs/tuning.md;
 * read when the context was created), as one line of a tuning file (above)
 * followed by "  # " and where the row came from. Written into buf like
 * snprintf (NUL-terminated, truncated to size; buf may be NULL when size is
 * 0); returns the full length, or 0 for a NULL ctx, an unknown primitive or
 * elem_size 0. Thread-safe. */
CLPRIM_API size_t clprim_context_tuning(const clprim_context *ctx, const char *primitive,
                                        size_t elem_size, size_t n, char *buf, size_t size);

/* Reads the tuning file at path (format above) and makes its rows the
 * context's, replacing those it had ($CLPRIM_TUNING_FILE's, or an earlier
 * call's); NULL or "" removes them. Calls enqueued later use them; those
 * already enqueued are unaffected. A refused file leaves the context's rows
 * as they were: CLPRIM_INVALID_ARGUMENT, the last error naming the file and
 * line. Takes the context's lock (callable while other threads use it). */
CLPRIM_API clprim_status clprim_context_set_tuning_file(clprim_context *ctx, const char *path);

/* ------------------------------------------------------------------------ */
/* User-defined operators and element types                                  */
/* ------------------------------------------------------------------------ */

/* An element type of the caller's alone, given as OpenCL C source: what
 * primitives that move elements without combining them take (values of a
 * sort or a compaction), and what an operator may be built on.
 *
 * Fields:
 *   type      the OpenCL C name of one element: a built-in type ("float2",
 *             "int4", ...) or a type that `source` defines; required.
 *   source    OpenCL C placed before everything else in the kernels: type
 *             definitions and helper functions. May be NULL. Names starting
 *             with clprim_ / CLPRIM_, and the macros T, T_SIZE, OP and
 *             IDENTITY, are the library's.
 *   size      sizeof the element on the host, in bytes (1..65536); must
 *             equal the device's sizeof(type) (checked).
 *
 * clprim_element_create compiles the source for the context's device
 * (CLPRIM_BUILD_FAILED with the compiler's log in the last error) and checks
 * the size (CLPRIM_INVALID_ARGUMENT, message with both sizes). The element
 * is used with that context only; it is immutable (several threads may use
 * it), holds no OpenCL objects, and may be released before or after its
 * context, but not while an operator is being created on it. */
typedef struct clprim_element_desc {
  const char *type;
  const char *source;
  size_t size;
} clprim_element_desc;

typedef struct clprim_element clprim_element;

CLPRIM_API clprim_status clprim_element_create(clprim_context *ctx,
                                                          const clprim_element_desc *desc,
                                                          clprim_element **element);
/* NULL is a no-op. A released element type (or operator), passed to any
 * call afterwards, is refused with CLPRIM_INVALID_ARGUMENT: clprim looks the
 * pointer up among the handles created and not released, process-wide, and
 * never reads through a released one. */
CLPRIM_API void clprim_element_release(clprim_element *element);
/* The element size given at creation (0 for NULL or a released one). */
CLPRIM_API size_t clprim_element_size(const clprim_element *element);

/* An associative operator with an identity on an element type of the
 * caller's, both given as OpenCL C source. It runs wherever a built-in
 * operator does (every scan algorithm, inclusive and exclusive; every reduce
 * algorithm), through the same kernels.
 *
 * Example: affine maps x -> a*x + b, composed left to right, so that an
 * inclusive scan of (a[i], b[i]) solves x[i] = a[i]*x[i-1] + b[i] (x[-1] = 0):
 *
 *   clprim_operator_desc d = {0};
 *   d.type = "float2";            // .x = a, .y = b
 *   d.combine = "(float2)(a.x * b.x, b.x * a.y + b.y)"; // first a, then b
 *   d.identity = "(float2)(1.0f, 0.0f)";
 *   d.size = 2 * sizeof(cl_float);
 *   clprim_operator_create(ctx, &d, &affine);
 *   clprim_scan_desc s = {0};
 *   s.custom = affine;            // type and op stay 0 (refused otherwise)
 *
 * Fields:
 *   type      the OpenCL C name of one element: a built-in type ("float2",
 *             "int4", ...) or a type that `source` defines ("point", "struct
 *             pair"); required.
 *   source    OpenCL C placed before everything else in the kernels: type
 *             definitions and helper functions. May be NULL. Names starting
 *             with clprim_ / CLPRIM_, and the macros T, T_SIZE, OP and
 *             IDENTITY, are the library's.
 *   combine   an OpenCL C expression of `a` and `b` (both of the element type,
 *             a coming first in the sequence) whose value, of the element
 *             type, is a op b; required. It must be associative; it need not
 *             be commutative unless flags says so.
 *   identity  an OpenCL C expression of the element type: the identity e
 *             (e op x == x op e == x); required.
 *   size      sizeof the element on the host, in bytes; must equal the
 *             device's sizeof(type) (checked). Note that OpenCL's 3-component
 *             vectors (float3) are 16 bytes on the device.
 *   flags     CLPRIM_OPERATOR_COMMUTATIVE lets reduce combine elements out of
 *             order (its fastest loads); without it every algorithm keeps the
 *             sequence order.
 *   samples, sample_count
 *             optional host elements on which the identity law is checked
 *             (bytewise: avoid -0.0, NaN and padding bytes in them). Whatever
 *             is given, e op e == e is checked.
 *   element   optional: an element type of this context (clprim_element)
 *             to build the operator on; its type, source and size are then
 *             used, and the fields above of those names must be NULL and 0
 *             (CLPRIM_INVALID_ARGUMENT otherwise).
 * type, source, combine and identity are trusted code: pasted into the
 * kernels' source as they are (text that closes a function and defines
 * more is compiled too). Never build them from untrusted input.
 *
 * clprim_operator_create compiles the source for the context's device (the
 * compiler's log goes to the last error on failure: CLPRIM_BUILD_FAILED),
 * checks the size (CLPRIM_INVALID_ARGUMENT, message with both sizes) and the
 * identity (CLPRIM_INVALID_ARGUMENT), and only then returns an operator. The
 * operator is used with that context only. It is immutable, so several
 * threads may use it at once; it holds no OpenCL objects and may be released
 * before or after its context, but not while a call using it is running.
 * Kernels for it are built at first use, like those of built-in operators. */
enum {
  CLPRIM_OPERATOR_COMMUTATIVE = 1u << 0
};

typedef struct clprim_operator_desc {
  const char *type;
  const char *source;
  const char *combine;
  const char *identity;
  size_t size;
  unsigned flags;
  const void *samples;
  size_t sample_count;
  const clprim_element *element;
} clprim_operator_desc;

typedef struct clprim_operator clprim_operator;

CLPRIM_API clprim_status clprim_operator_create(clprim_context *ctx, const clprim_operator_desc *desc,
                                                clprim_operator **op);
/* NULL is a no-op. A released operator is refused by later calls
 * (CLPRIM_INVALID_ARGUMENT), as clprim_element_release says. */
CLPRIM_API void clprim_operator_release(clprim_operator *op);
/* The element size given at creation (0 for NULL or a released one). */
CLPRIM_API size_t clprim_operator_size(const clprim_operator *op);

/* ------------------------------------------------------------------------ */
/* Scan (all-prefix-sums)                                                    */
/* ------------------------------------------------------------------------ */

/* A transform applied to each input element as it is loaded (map, then
 * scan or reduce: thrust::transform_inclusive_scan), so that f(x) is never
 * written to memory. Given in a scan or reduce descriptor, the input holds
 * elements of `input` (a built-in type), each mapped by `expression` to the
 * element the operator works on (desc->type, or a custom operator's type).
 *   input       the input's element type; the input buffer's offset and
 *               count are in these elements;
 *   expression  an OpenCL C expression of `x` (one input element) and `i`
 *               (its index from in_off, a ulong) whose value converts to
 *               the scanned type, e.g. "x > 0" (count positives into a
 *               uint32 sum), "x * x" (float input, double sum),
 *               "(uint2)(3u, x)" (a custom operator's type). Compiled at
 *               first use for the device (CLPRIM_BUILD_FAILED with the
 *               compiler's log in the last error).
 * In place (in == out) is allowed only when both elements have one size.
 * The enqueueing calls check the input buffer against `input`'s size.
 *
 * Trusted code: the expression is pasted as is into the kernel source (as
 * the body of `return (...);` in a function clprim's kernels call) and
 * compiled with them, checked by nothing but the compiler. Text that
 * closes that function can define anything, other kernels included, which
 * then run in the context with the call's buffers. Never build an
 * expression from untrusted input (a request, another user's file): write
 * it, or choose it from texts you wrote. The same holds for
 * clprim_compact_desc.expression. */
typedef struct clprim_transform {
  clprim_type input;
  const char *expression;
} clprim_transform;

/* For an array split by the caller (parts on several devices, ranks or
 * calls): `expression` (a transform's or a select expression, of x and
 * i) rewritten so that i counts from `first`, the part's first element in
 * the whole array: each token `i` that is not a member's name becomes
 * (i + firstul); comments and literals are left alone. The text, NUL
 * included, goes to out (out_size bytes); *needed (may be NULL) gets the
 * bytes it takes, so a first call with out NULL and out_size 0 sizes it.
 * clprim_multi_* and clprim_mpi_* do this for their parts themselves.
 * Returns CLPRIM_INVALID_ARGUMENT when expression is NULL or out too
 * short (nothing written then), CLPRIM_OUT_OF_HOST_MEMORY. No context, so
 * no message. Thread-safe. */
CLPRIM_API clprim_status clprim_expression_rebase(const char *expression, size_t first, char *out,
                                                  size_t out_size, size_t *needed);

/* XX(NAME, number, lower-case name). Every algorithm is correct for every n:
 * the algorithm chooses how one work-group scans its tile, and the hierarchical
 * driver (scan the tiles, scan the tile totals recursively, add each tile's
 * prefix back) extends it to any length.
 *   AUTO         the fastest for the device and n (from clprim's tuning table);
 *   KOGGE_STONE  one element per work-item, in place, a barrier pair per step;
 *   KOGGE_STONE_DB  Kogge-Stone with two local arrays swapped each step;
 *   BRENT_KUNG   reduction tree then reverse tree, two elements per work-item,
 *                contiguous active work-items;
 *   BLELLOCH     work-efficient up-sweep / down-sweep with bank-conflict padding;
 *   COARSENED    three-phase: coalesced load to local memory, sequential scan per
 *                work-item, work-group scan of the totals, add back;
 *   MULTILEVEL   the tuned hierarchical scan: many elements per work-item in
 *                registers, SIMD-group (warp) scans of the totals, and
 *                reduce-then-scan (the data is read twice, written once);
 *   DOMINO       single pass, chained: each tile waits for its predecessor's
 *                inclusive prefix (tiles taken from an atomic ticket);
 *   DECOUPLED_LOOKBACK  single pass (Merrill & Garland): tiles publish their
 *                aggregate at once and look back over predecessors; the data
 *                is read once and written once;
 *   CHUNKED      the CPU form of reduce-then-scan: a few contiguous chunks per
 *                compute unit, each folded, then scanned, in element order by
 *                one work-item, with no local memory and no barrier (a CPU
 *                runs a work-group as a loop on one core); AUTO's choice on
 *                CPU devices. Correct anywhere, slow on GPUs (one work-item
 *                per chunk).
 * The single-pass algorithms need cl_khr_int64_base_atomics (or NVIDIA) and
 * return CLPRIM_UNSUPPORTED otherwise. Their spinning is bounded: a tile that
 * waits too long computes its predecessor's total itself, so they cannot hang
 * on devices that do not guarantee progress between work-groups. Float
 * results of DECOUPLED_LOOKBACK may differ in the last bits from run to run:
 * a tile combines either a predecessor's prefix or several aggregates,
 * depending on timing (desc->repro RUN_TO_RUN fixes the order: clprim_repro).
 * AUTO picks a single-pass algorithm only on devices, and up to the sizes,
 * where it has been measured correct and fastest (NVIDIA); the variable
 * CLPRIM_SCAN_SINGLE_PASS=1 / 0 forces AUTO to the single-pass /
 * multilevel path (for testing). */
#define CLPRIM_SCAN_ALGORITHM_MAP(XX)                                          \
  XX(AUTO, 0, "auto")                                                          \
  XX(KOGGE_STONE, 1, "kogge-stone")                                            \
  XX(KOGGE_STONE_DB, 2, "kogge-stone-db")                                      \
  XX(BRENT_KUNG, 3, "brent-kung")                                              \
  XX(BLELLOCH, 4, "blelloch")                                                  \
  XX(COARSENED, 5, "coarsened")                                                \
  XX(MULTILEVEL, 6, "multilevel")                                              \
  XX(DOMINO, 7, "domino")                                                      \
  XX(DECOUPLED_LOOKBACK, 8, "decoupled-lookback")                              \
  XX(CHUNKED, 9, "chunked")

typedef enum clprim_scan_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_SCAN_##NAME = num,
  CLPRIM_SCAN_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_SCAN_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_scan_algorithm;

/* "kogge-stone", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_scan_algorithm_name(clprim_scan_algorithm algorithm);

/* What to scan. A zero-initialised descriptor is an inclusive int32 sum with
 * the AUTO algorithm. */
typedef struct clprim_scan_desc {
  clprim_type type;
  clprim_op op;
  int exclusive;                   /* 0: out[i] = in[0] op ... op in[i]
                                      1: out[i] = identity op in[0] ... op in[i-1] */
  clprim_scan_algorithm algorithm;
  const clprim_operator *custom;   /* non-NULL: this operator and its element
                                      type instead of type and op, which must
                                      then be 0 (CLPRIM_INVALID_ARGUMENT) */
  const clprim_transform *transform; /* non-NULL: map each input element first */
  clprim_repro repro;              /* reproducibility (clprim_repro) */
} clprim_scan_desc;

/* Scans n elements of `in` starting at element in_off into `out` starting at
 * element out_off. in and out may be the same buffer (in place when the
 * offsets are equal; other overlaps are refused). n may be 0 (nothing runs;
 * *event, if requested, completes when the wait list does).
 *
 * queue: NULL for the context's queue; otherwise a queue of the context's
 *        cl_context and device (in-order or out-of-order).
 * Returns CLPRIM_OUT_OF_BOUNDS when (offset + n) elements exceed a buffer's
 * CL_MEM_SIZE, CLPRIM_UNSUPPORTED for double on a device without fp64,
 * CL_INVALID_EVENT_WAIT_LIST when num_wait and wait disagree. Non-blocking. */
CLPRIM_API clprim_status clprim_scan(clprim_context *ctx, cl_command_queue queue,
                                     const clprim_scan_desc *desc, cl_mem in,
                                     size_t in_off, cl_mem out, size_t out_off, size_t n,
                                     cl_uint num_wait, const cl_event *wait,
                                     cl_event *event);

/* Blocking helper: copies n elements from host array `in` to the device,
 * scans them on the context's queue, and copies the result to `out` (which
 * may equal `in`). */
CLPRIM_API clprim_status clprim_scan_host(clprim_context *ctx, const clprim_scan_desc *desc,
                                          const void *in, void *out, size_t n);

/* Scan with a carry-in: as clprim_scan, with element init_off of `init` (one
 * element of the scan's type: desc->type, or the custom operator's) put
 * before in[0], as a prefix carried over from elements scanned earlier:
 *   inclusive: out[i] = init op in[0] op ... op in[i]
 *   exclusive: out[0] = init, out[i] = init op in[0] op ... op in[i-1]
 * (thrust::exclusive_scan's init). init is read on the device when the scan
 * runs; it must not overlap out. n = 0 writes nothing. Every algorithm; the
 * single pass reads it once, the others fold it into their tile prefixes
 * (no extra pass over the data). The same checks and statuses as
 * clprim_scan (init NULL: CLPRIM_INVALID_ARGUMENT). Non-blocking. */
CLPRIM_API clprim_status clprim_scan_init(clprim_context *ctx, cl_command_queue queue,
                                          const clprim_scan_desc *desc, cl_mem init,
                                          size_t init_off, cl_mem in, size_t in_off, cl_mem out,
                                          size_t out_off, size_t n, cl_uint num_wait,
                                          const cl_event *wait, cl_event *event);

/* Blocking helper of clprim_scan_init: the carry-in is one host element at
 * *init. */
CLPRIM_API clprim_status clprim_scan_init_host(clprim_context *ctx, const clprim_scan_desc *desc,
                                               const void *init, const void *in, void *out,
                                               size_t n);

/* ------------------------------------------------------------------------ */
/* Reduce                                                                    */
/* ------------------------------------------------------------------------ */

/* XX(NAME, number, lower-case name). Every algorithm is correct for every n;
 * partial results are combined on the device (no host round trip).
 *   AUTO             FAST (CHUNKED on CPU devices);
 *   NAIVE_TREE       the teaching kit's tree: two elements per work-item into
 *                    local memory, stride doubling, work-item t active when
 *                    t % stride == 0 (divergent); levels until one value;
 *   CONVERGENT_TREE  stride halving from the work-group size, work-items
 *                    t < stride active (contiguous); levels until one value;
 *   FAST             a bounded grid (a few work-groups per compute unit)
 *                    striding over the input with 16-byte vector loads,
 *                    SIMD-group combine, and the last work-group to finish
 *                    combines the partials (one launch);
 *   CHUNKED          the CPU form: a few contiguous chunks per compute unit,
 *                    each folded in element order by one work-item (no local
 *                    memory, no barrier), then the chunks' totals the same
 *                    way. Correct anywhere, slow on GPUs.
 * Custom operators without CLPRIM_OPERATOR_COMMUTATIVE keep the sequence
 * order: FAST then gives each work-item one contiguous range (element loads),
 * and CONVERGENT_TREE maps work-item t to element 2 * stride * t (still
 * contiguous active work-items, without the reordering t + stride pairing).
 * Float results are reproducible: for one device, algorithm, n and offset the
 * combination order is fixed (no atomics), so every run gives the same bits. */
#define CLPRIM_REDUCE_ALGORITHM_MAP(XX)                                        \
  XX(AUTO, 0, "auto")                                                          \
  XX(NAIVE_TREE, 1, "naive-tree")                                              \
  XX(CONVERGENT_TREE, 2, "convergent-tree")                                    \
  XX(FAST, 3, "fast")                                                          \
  XX(CHUNKED, 4, "chunked")

typedef enum clprim_reduce_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_REDUCE_##NAME = num,
  CLPRIM_REDUCE_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_REDUCE_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_reduce_algorithm;

/* "naive-tree", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_reduce_algorithm_name(clprim_reduce_algorithm algorithm);

/* What to reduce. Zero-initialised: int32 sum, AUTO. */
typedef struct clprim_reduce_desc {
  clprim_type type;
  clprim_op op;
  clprim_reduce_algorithm algorithm;
  const clprim_operator *custom;   /* non-NULL: this operator and its element
                                      type instead of type and op, which must
                                      then be 0 (CLPRIM_INVALID_ARGUMENT) */
  const clprim_transform *transform; /* non-NULL: map each input element first
                                        (clprim_transform) */
  clprim_repro repro;              /* reproducibility (clprim_repro) */
} clprim_reduce_desc;

/* Folds n elements of `in` from element in_off with desc->op, and writes the
 * result to element result_off of `result` (n = 0 writes the identity).
 * Non-blocking, like clprim_scan; the same argument checks and statuses. */
CLPRIM_API clprim_status clprim_reduce(clprim_context *ctx, cl_command_queue queue,
                                       const clprim_reduce_desc *desc, cl_mem in, size_t in_off,
                                       size_t n, cl_mem result, size_t result_off,
                                       cl_uint num_wait, const cl_event *wait, cl_event *event);

/* Blocking: reduces a device buffer on the context's queue and copies the
 * result to *value (clprim_type_size(desc->type) bytes, or the custom
 * operator's size). */
CLPRIM_API clprim_status clprim_reduce_value(clprim_context *ctx, const clprim_reduce_desc *desc,
                                             cl_mem in, size_t in_off, size_t n, void *value);

/* Blocking: reduces a host array (copied in) to *value. */
CLPRIM_API clprim_status clprim_reduce_host(clprim_context *ctx, const clprim_reduce_desc *desc,
                                            const void *in, size_t n, void *value);

/* Blocking: the mean of n >= 1 elements, sum / n, with the sum reduced in the
 * element type: for double the division is in double, for float in float
 * (then widened); for integer types the sum wraps modulo 2^bits like every
 * integer sum here, and is then divided in double (use a 64-bit type where a
 * 32-bit sum could wrap). n = 0 is CLPRIM_INVALID_ARGUMENT. */
CLPRIM_API clprim_status clprim_mean(clprim_context *ctx, clprim_type type, cl_mem in, size_t in_off,
                                     size_t n, double *mean);


/* ------------------------------------------------------------------------ */
/* The PORTABLE order in steps, for arrays spread beyond one call           */
/* ------------------------------------------------------------------------ */

/* Elements per tile of the PORTABLE order (cl/portable_abi.h): part of the
 * order, so it never changes. */
#define CLPRIM_PORTABLE_TILE 1024

/* The two steps of the PORTABLE order (clprim_repro) that touch the
 * elements, for code that spreads one array over places one call cannot
 * see: processes, machines (clprim_mpi is built on them). The order is:
 *   reduce  the tiles' totals (CLPRIM_PORTABLE_TILE consecutive elements
 *           each, the last one short), then, when there are several, their
 *           PORTABLE reduce (clprim_reduce, no transform); one tile's total
 *           is the result;
 *   scan    with one tile, the PORTABLE scan itself; with several, the
 *           carries are the PORTABLE exclusive scan of the tiles' totals
 *           (clprim_scan, no transform, no carry-in) and every tile is
 *           scanned from its carry.
 * So an array cut into parts that each hold whole tiles (any length for the
 * last non-empty part) gets one device's PORTABLE bits from its parts' tile
 * totals gathered in order, wherever each part is scanned.
 *
 * clprim_reduce_tiles: the total of each tile of the n elements of `in` from
 * in_off, ceil(n / CLPRIM_PORTABLE_TILE) of them, to `result` from
 * result_off (n = 0 writes nothing).
 * clprim_scan_tiles: the n elements of `in` scanned into `out` as
 * clprim_scan does (desc->exclusive; in place allowed), tile g (elements
 * from in_off + g * CLPRIM_PORTABLE_TILE) from element carries_off + g of
 * `carries`, which must not overlap out.
 * desc as clprim_scan / clprim_reduce (type or custom operator, transform
 * with i counted from in_off); these calls are the PORTABLE order's steps
 * at every level, so desc->repro, like desc->algorithm, says how and not
 * what (an unknown value is refused). Every element type, exact ones too.
 * Non-blocking; the checks and statuses of clprim_scan / clprim_reduce. */
CLPRIM_API clprim_status clprim_reduce_tiles(clprim_context *ctx, cl_command_queue queue,
                                             const clprim_reduce_desc *desc, cl_mem in,
                                             size_t in_off, size_t n, cl_mem result,
                                             size_t result_off, cl_uint num_wait,
                                             const cl_event *wait, cl_event *event);
CLPRIM_API clprim_status clprim_scan_tiles(clprim_context *ctx, cl_command_queue queue,
                                           const clprim_scan_desc *desc, cl_mem carries,
                                           size_t carries_off, cl_mem in, size_t in_off,
                                           cl_mem out, size_t out_off, size_t n,
                                           cl_uint num_wait, const cl_event *wait,
                                           cl_event *event);

/* ------------------------------------------------------------------------ */
/* Segmented scan and reduce (by flags, keys or offsets)                     */
/* ------------------------------------------------------------------------ */

/* How the n elements of a segmented call are cut into segments.
 * XX(NAME, number, lower-case name).
 *   FLAGS_U8, FLAGS_U32  one flag per element (cl_uchar or cl_uint):
 *                non-zero starts a segment there; element 0 always starts
 *                one, whatever its flag;
 *   KEYS         one key per element: a segment is a run of equal
 *                consecutive keys (built-in integer keys compare with ==,
 *                the caller's key types bytewise);
 *   OFFSETS      num_segments + 1 offsets (CSR row pointers): segment k is
 *                elements [offsets[k], offsets[k + 1]); offsets[0] must be
 *                0, offsets[num_segments] must be n, and they must not
 *                decrease; empty segments are allowed. The blocking helpers
 *                check this (CLPRIM_INVALID_ARGUMENT, naming the first bad
 *                offset); the enqueueing calls cannot without a round trip:
 *                there, offsets that break it give unspecified values, but
 *                nothing is read or written outside the buffers. */
#define CLPRIM_SEGMENTS_MAP(XX)                                                \
  XX(FLAGS_U8, 0, "flags-u8")                                                  \
  XX(FLAGS_U32, 1, "flags-u32")                                                \
  XX(KEYS, 2, "keys")                                                          \
  XX(OFFSETS, 3, "offsets")

typedef enum clprim_segments_kind {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_SEGMENTS_##NAME = num,
  CLPRIM_SEGMENTS_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_SEGMENTS_KIND_COUNT_ /* not a kind */
} clprim_segments_kind;

/* "flags-u8", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_segments_kind_name(clprim_segments_kind kind);

/* The segments of a call. Zero-initialised: uint8 flags (mem still needed).
 *   kind          as clprim_segments_kind;
 *   mem, off      the flags, keys or offsets, from element off of mem (the
 *                 blocking helpers take a host array instead: there mem
 *                 must be NULL and off 0); it must not be the output buffer;
 *   type          KEYS: the key type (INT32, UINT32, INT64 or UINT64);
 *                 OFFSETS: the offsets' type (the same four; CSR row
 *                 pointers are often int32); flags: must be 0;
 *   key_element   KEYS, optional: a key type of the caller's instead of
 *                 `type` (clprim_element_create on this context), compared
 *                 bytewise. If it is not the values' own element type, its
 *                 source is placed after the values' (names must not clash);
 *                 other kinds: must be NULL;
 *   num_segments  OFFSETS: the number of segments m (m + 1 offsets); other
 *                 kinds: must be 0.
 * A field set where the kind does not use it is refused
 * (CLPRIM_INVALID_ARGUMENT, the message names it), never ignored. */
typedef struct clprim_segments {
  clprim_segments_kind kind;
  cl_mem mem;
  size_t off;
  clprim_type type;
  const clprim_element *key_element;
  size_t num_segments;
} clprim_segments;

/* Segmented scan: a scan (desc: type and operator, or a custom operator;
 * inclusive or exclusive) that restarts at every segment's first element.
 * Inclusive: out[i] = in[s] op ... op in[i], s the first element of i's
 * segment; exclusive: out[s] = identity and out[i] = in[s] op ... op
 * in[i-1]. in and out may be the same buffer (in place, equal offsets;
 * other overlaps are refused). desc->algorithm must be AUTO or
 * DECOUPLED_LOOKBACK: segmented scans run in one pass (CLPRIM_UNSUPPORTED
 * for the others, and on devices without the single-pass scans:
 * clprim_device_info.has_single_pass). Non-blocking, with clprim_scan's
 * queue, wait-list and event rules and argument checks (the segments
 * buffer too: n flags or keys, or num_segments + 1 offsets). */
CLPRIM_API clprim_status clprim_segmented_scan(clprim_context *ctx, cl_command_queue queue,
                                               const clprim_scan_desc *desc,
                                               const clprim_segments *segments, cl_mem in,
                                               size_t in_off, cl_mem out, size_t out_off,
                                               size_t n, cl_uint num_wait,
                                               const cl_event *wait, cl_event *event);

/* Segmented reduce (reduce by key): one value per segment, the segment's
 * elements folded in order with desc's operator, to out from out_off in
 * segment order; with KEYS and keys_out non-NULL, each segment's key to
 * keys_out from keys_out_off; with count non-NULL, the number of segments
 * as one cl_ulong to count[count_off]. out needs room for n values (flags,
 * keys: up to n segments) or num_segments (offsets; an empty segment gets
 * the identity). n may be 0 (no segments; with offsets every segment is
 * empty). in must not overlap out. desc->algorithm must be AUTO
 * (CLPRIM_UNSUPPORTED otherwise, and without the single-pass scans).
 * Non-blocking, like clprim_reduce. */
CLPRIM_API clprim_status clprim_segmented_reduce(clprim_context *ctx, cl_command_queue queue,
                                                 const clprim_reduce_desc *desc,
                                                 const clprim_segments *segments, cl_mem in,
                                                 size_t in_off, size_t n, cl_mem out,
                                                 size_t out_off, cl_mem keys_out,
                                                 size_t keys_out_off, cl_mem count,
                                                 size_t count_off, cl_uint num_wait,
                                                 const cl_event *wait, cl_event *event);

/* Blocking helpers on host arrays. host_segments: n flags or keys, or
 * num_segments + 1 offsets, of segments->kind and type (segments->mem must
 * be NULL and off 0). Offsets are checked first (CLPRIM_INVALID_ARGUMENT).
 * The scan's out may equal in. The reduce writes up to n (or num_segments)
 * values to out and as many keys to keys_out (may be NULL), and sets
 * *count. */
CLPRIM_API clprim_status clprim_segmented_scan_host(clprim_context *ctx,
                                                    const clprim_scan_desc *desc,
                                                    const clprim_segments *segments,
                                                    const void *host_segments, const void *in,
                                                    void *out, size_t n);
CLPRIM_API clprim_status clprim_segmented_reduce_host(clprim_context *ctx,
                                                      const clprim_reduce_desc *desc,
                                                      const clprim_segments *segments,
                                                      const void *host_segments, const void *in,
                                                      size_t n, void *out, void *keys_out,
                                                      size_t *count);

/* ------------------------------------------------------------------------ */
/* Stream compaction: select, partition, unique, run-length encoding         */
/* ------------------------------------------------------------------------ */

/* XX(NAME, number, lower-case name). Every algorithm is correct for every n.
 *   AUTO         the measured fastest for the device (CHUNKED on CPU
 *                devices, else SINGLE_PASS where the single-pass scans run,
 *                THREE_PASS elsewhere);
 *   THREE_PASS   the taught form: write a 0/1 flag per element, exclusive-
 *                scan the flags with clprim's own scan, scatter each kept
 *                element to its scanned address;
 *   SINGLE_PASS  one kernel: each tile flags and counts its elements, finds
 *                the count before it with decoupled look-back over tile
 *                counts (the scan's machinery and no-hang fallback), and
 *                writes its kept elements, gathered in local memory, as one
 *                contiguous run. Needs what the single-pass scans need
 *                (clprim_device_info.has_single_pass), else
 *                CLPRIM_UNSUPPORTED;
 *   CHUNKED      the CPU form: a few contiguous chunks per compute unit,
 *                each counted, then written in order from the count before
 *                it, by one work-item (no local memory, no barrier).
 *                Correct anywhere, slow on GPUs. */
#define CLPRIM_COMPACT_ALGORITHM_MAP(XX)                                       \
  XX(AUTO, 0, "auto")                                                          \
  XX(THREE_PASS, 1, "three-pass")                                              \
  XX(SINGLE_PASS, 2, "single-pass")                                            \
  XX(CHUNKED, 3, "chunked")

typedef enum clprim_compact_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_COMPACT_##NAME = num,
  CLPRIM_COMPACT_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_COMPACT_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_compact_algorithm;

/* "three-pass", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_compact_algorithm_name(clprim_compact_algorithm algorithm);

/* Which elements select and partition keep. XX(NAME, number, name).
 *   LESS ... NOT_EQUAL   x < value, ..., x != value, with desc->value one
 *                        element of the built-in type (floats compare as
 *                        IEEE: NaN is kept by NOT_EQUAL only);
 *   FLAGS_U8, FLAGS_U32  desc->flags[desc->flags_off + i] != 0 (uint8 or
 *                        uint32 flags, one per element);
 *   EXPRESSION           desc->expression, an OpenCL C expression of `x`
 *                        (the element) and `i` (its index from in_off, a
 *                        ulong), non-zero keeps; compiled at first use for
 *                        the device (CLPRIM_BUILD_FAILED with the compiler's
 *                        log in the last error). Trusted code, pasted into
 *                        the kernel as is: never from untrusted input (see
 *                        clprim_transform). */
#define CLPRIM_PREDICATE_MAP(XX)                                               \
  XX(LESS, 0, "<")                                                             \
  XX(LESS_EQUAL, 1, "<=")                                                      \
  XX(GREATER, 2, ">")                                                          \
  XX(GREATER_EQUAL, 3, ">=")                                                   \
  XX(EQUAL, 4, "==")                                                           \
  XX(NOT_EQUAL, 5, "!=")                                                       \
  XX(FLAGS_U8, 6, "flags-u8")                                                  \
  XX(FLAGS_U32, 7, "flags-u32")                                                \
  XX(EXPRESSION, 8, "expression")

typedef enum clprim_predicate {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_PREDICATE_##NAME = num,
  CLPRIM_PREDICATE_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_PREDICATE_COUNT_ /* not a predicate */
} clprim_predicate;

/* "<", ..., "flags-u8", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_predicate_name(clprim_predicate predicate);

/* What a compaction works on and keeps. Zero-initialised: int32, keep
 * x < 0 (with value NULL: refused), AUTO. A field the call does not read
 * must be left 0 (NULL), or the call is refused (CLPRIM_INVALID_ARGUMENT,
 * the message naming the field): predicate, value, flags, flags_off and
 * expression in unique and run-length encoding (they compare neighbours);
 * in select and partition, the fields of the predicates not chosen;
 * indices and indices_off outside select; reverse_rejected outside
 * partition; type when element is set.
 *   type, element  the elements: a built-in type, or (element non-NULL) a
 *                  caller's type of this context (clprim_element_create,
 *                  1 to 64 bytes; comparisons with a constant are for
 *                  built-in types only);
 *   predicate, value, flags, flags_off, expression: as clprim_predicate
 *                  (value: comparisons; flags, flags_off: FLAGS_*;
 *                  expression: EXPRESSION);
 *   indices, indices_off  select only, optional: the kept elements'
 *                  original indices (from in_off), as cl_ulong, in order
 *                  (indices_off without indices: refused);
 *   reverse_rejected  partition only: 0 (default) writes the rejected
 *                  elements after the kept ones in their order (stable on
 *                  both sides); 1 writes them from the end backwards, as CUB
 *                  does (rejected element r of the input at out_off + n - 1 - r),
 *                  which the single pass does in one read of the input
 *                  instead of two. */
typedef struct clprim_compact_desc {
  clprim_type type;
  const clprim_element *element;
  clprim_predicate predicate;
  const void *value;
  cl_mem flags;
  size_t flags_off;
  const char *expression;
  clprim_compact_algorithm algorithm;
  cl_mem indices;
  size_t indices_off;
  int reverse_rejected;
} clprim_compact_desc;

/* The calls below take n elements of `in` from in_off, write their output
 * from out_off, and write the number of kept elements (select, partition),
 * runs (unique, run_length_encode) to element count_off of `count` as one
 * cl_ulong. Output past the count is left untouched. They enqueue and return,
 * like clprim_scan (same queue, wait-list and event rules, same argument
 * checks: every buffer against CL_MEM_SIZE, the flags buffer against n
 * flags, the count buffer against one cl_ulong). n may be 0 (the count is 0).
 * In place (out == in, out_off == in_off) is allowed for select, unique
 * and run-length encoding only; other overlaps are refused.
 *
 * select:     the kept elements in their order (stable).
 * partition:  all n elements: the kept ones first, in order, then the
 *             rejected ones (see desc->reverse_rejected); count = kept.
 * unique:     the first element of every run of equal consecutive elements
 *             (built-in types compare with == (floats as IEEE: -0.0 equals
 *             0.0, NaN equals nothing, so each NaN is a run of its own);
 *             the caller's types compare bytewise).
 * run_length_encode: each run's first element to `out` and its length to
 *             `lengths` (cl_ulong, from lengths_off); count = runs. */
CLPRIM_API clprim_status clprim_select(clprim_context *ctx, cl_command_queue queue,
                                       const clprim_compact_desc *desc, cl_mem in, size_t in_off,
                                       cl_mem out, size_t out_off, size_t n, cl_mem count,
                                       size_t count_off, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event);
CLPRIM_API clprim_status clprim_partition(clprim_context *ctx, cl_command_queue queue,
                                          const clprim_compact_desc *desc, cl_mem in,
                                          size_t in_off, cl_mem out, size_t out_off, size_t n,
                                          cl_mem count, size_t count_off, cl_uint num_wait,
                                          const cl_event *wait, cl_event *event);
CLPRIM_API clprim_status clprim_unique(clprim_context *ctx, cl_command_queue queue,
                                       const clprim_compact_desc *desc, cl_mem in, size_t in_off,
                                       cl_mem out, size_t out_off, size_t n, cl_mem count,
                                       size_t count_off, cl_uint num_wait, const cl_event *wait,
                                       cl_event *event);
CLPRIM_API clprim_status clprim_run_length_encode(clprim_context *ctx, cl_command_queue queue,
                                                  const clprim_compact_desc *desc, cl_mem in,
                                                  size_t in_off, cl_mem out, size_t out_off,
                                                  cl_mem lengths, size_t lengths_off, size_t n,
                                                  cl_mem count, size_t count_off,
                                                  cl_uint num_wait, const cl_event *wait,
                                                  cl_event *event);

/* Blocking helper: selects from host array `in` into host array `out` (room
 * for n elements) and sets *count. With a FLAGS_* predicate the flags are
 * host_flags (n flags): desc->flags and flags_off must be NULL and 0, and
 * desc->indices and indices_off likewise (no indices are returned; use
 * clprim_select), or the call is refused (CLPRIM_INVALID_ARGUMENT). */
CLPRIM_API clprim_status clprim_select_host(clprim_context *ctx, const clprim_compact_desc *desc,
                                            const void *in, const void *host_flags, void *out,
                                            size_t n, size_t *count);

/* ------------------------------------------------------------------------ */
/* Summed-area tables (2-D scan) and box filters                            */
/* ------------------------------------------------------------------------ */

/* XX(NAME, number, lower-case name). Every algorithm is correct for every
 * size.
 *   AUTO                the measured fastest for the device (DECOUPLED_LOOKBACK
 *                       where the single-pass scans run, ROWS_THEN_COLUMNS
 *                       elsewhere);
 *   ROWS_THEN_COLUMNS   the taught form: an inclusive scan of every row (one
 *                       work-group per row), then of every column (one
 *                       work-item per column); moves the table twice;
 *   DECOUPLED_LOOKBACK  one pass, reading the image once and writing the
 *                       table once: each work-group takes a strip of columns
 *                       and walks down it carrying the column sums, and every
 *                       row of a tile finds the row sum to its left with
 *                       decoupled look-back (the scan's machinery and no-hang
 *                       fallback). Needs clprim_device_info.has_single_pass,
 *                       else CLPRIM_UNSUPPORTED. */
#define CLPRIM_SAT_ALGORITHM_MAP(XX)                                           \
  XX(AUTO, 0, "auto")                                                          \
  XX(ROWS_THEN_COLUMNS, 1, "rows-then-columns")                                \
  XX(DECOUPLED_LOOKBACK, 2, "decoupled-lookback")

typedef enum clprim_sat_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_SAT_##NAME = num,
  CLPRIM_SAT_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_SAT_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_sat_algorithm;

/* "rows-then-columns", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_sat_algorithm_name(clprim_sat_algorithm algorithm);

/* The pixel type of an image that a table is built from, when it is not the
 * table's own type: XX(NAME, number, lower-case name, OpenCL C type, bytes).
 * SAME (0) is the table's type. DOUBLE needs cl_khr_fp64. Each pixel is
 * converted to the table's type as it is read:
 *   integer tables  saturating, as OpenCL C's convert_<type>_sat_rtz: a
 *                   fraction is cut toward zero (2.7 -> 2, -2.7 -> -2), a
 *                   value past the type's range becomes its minimum or
 *                   maximum (-1 into uint32 is 0, 3e9 or +inf into int32
 *                   is 2147483647, a uint64 above 2^63 into int64 is
 *                   INT64_MAX), and NaN becomes 0. (A plain cast leaves
 *                   out-of-range floats undefined and narrowing into a
 *                   signed type implementation-defined.)
 *   float, double   the nearest value, ties to even, as a cast does: an
 *                   int32 pixel 16777217 is 16777216.0f, a double past
 *                   float's range +-inf, a NaN a NaN.
 * A pixel the table's type holds is converted exactly. */
#define CLPRIM_PIXEL_MAP(XX)                                                   \
  XX(SAME, 0, "same", void, 0)                                                 \
  XX(UINT8, 1, "uint8", uchar, 1)                                              \
  XX(INT8, 2, "int8", char, 1)                                                 \
  XX(UINT16, 3, "uint16", ushort, 2)                                           \
  XX(INT16, 4, "int16", short, 2)                                              \
  XX(INT32, 5, "int32", int, 4)                                                \
  XX(UINT32, 6, "uint32", uint, 4)                                             \
  XX(INT64, 7, "int64", long, 8)                                               \
  XX(UINT64, 8, "uint64", ulong, 8)                                            \
  XX(FLOAT, 9, "float", float, 4)                                              \
  XX(DOUBLE, 10, "double", double, 8)

typedef enum clprim_pixel_type {
#define CLPRIM_XX_(NAME, num, name, cl, size) CLPRIM_PIXEL_##NAME = num,
  CLPRIM_PIXEL_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_PIXEL_TYPE_COUNT_ /* not a type */
} clprim_pixel_type;

/* "uint8", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_pixel_type_name(clprim_pixel_type type);
/* Bytes per pixel: 0 for SAME and unknown values. */
CLPRIM_API size_t clprim_pixel_type_size(clprim_pixel_type type);

/* What a summed-area table is. Zero-initialised: the inclusive int32 sum
 * table of an int32 image, AUTO.
 *   type, op     the table's element type and operator (every built-in
 *                one: sums give box sums, min / max give 2-D prefix
 *                extrema); integer sums wrap (box sums taken as differences
 *                of a wrapped table are still exact when they fit the type);
 *   custom       non-NULL: the caller's operator and type instead; it must
 *                have been created commutative (CLPRIM_INVALID_ARGUMENT
 *                otherwise: a 2-D scan combines in no single order);
 *   input        the image's pixel type (SAME: the table's; custom
 *                operators take SAME only);
 *   exclusive    0: out(x, y) = in(0..x, 0..y) combined (width x height);
 *                1: the integral image of (width + 1) x (height + 1): row 0
 *                and column 0 hold the identity and out(x + 1, y + 1) is the
 *                inclusive table's (x, y), as nppiIntegral and OpenCV give,
 *                so that any box sum is four reads without border cases;
 *   algorithm    as clprim_sat_algorithm. */
typedef struct clprim_sat_desc {
  clprim_type type;
  clprim_op op;
  const clprim_operator *custom;
  clprim_pixel_type input;
  int exclusive;
  clprim_sat_algorithm algorithm;
  clprim_repro repro;              /* reproducibility (clprim_repro) */
} clprim_sat_desc;

/* The summed-area table of a width x height image. The image is row-major
 * from element in_off of `in` (elements of the pixel type), row y starting
 * at in_off + y * in_pitch (in_pitch >= width); the table likewise from
 * out_off of `out`, row pitch out_pitch elements (>= width, or width + 1
 * when exclusive). An empty image (width or height 0) writes nothing, or
 * with exclusive the identity border alone. in and out must not overlap.
 * Returns CLPRIM_INVALID_ARGUMENT for a pitch below the width, and
 * CLPRIM_OUT_OF_BOUNDS when the last row passes the end of a buffer.
 * Non-blocking, with clprim_scan's queue, wait-list and event rules. */
CLPRIM_API clprim_status clprim_sat(clprim_context *ctx, cl_command_queue queue,
                                    const clprim_sat_desc *desc, cl_mem in, size_t in_off,
                                    size_t in_pitch, cl_mem out, size_t out_off,
                                    size_t out_pitch, size_t width, size_t height,
                                    cl_uint num_wait, const cl_event *wait, cl_event *event);

/* Blocking helper on host arrays (pitches in elements, as above). */
CLPRIM_API clprim_status clprim_sat_host(clprim_context *ctx, const clprim_sat_desc *desc,
                                         const void *in, size_t in_pitch, void *out,
                                         size_t out_pitch, size_t width, size_t height);

/* A box filter. Zero-initialised: the mean over a 1 x 1 window of an int32
 * sum table.
 *   type         the table's element type (a built-in type; the table is
 *                an exclusive sum table, as clprim_sat with exclusive = 1
 *                writes it);
 *   from_image   1: the source is an image of `input` pixels instead, and
 *                the call builds the exclusive table of `type` itself in
 *                the context's temporary memory (e.g. uint8 pixels summed
 *                in uint32; pixels converted as CLPRIM_PIXEL_MAP says);
 *   input        from_image: the pixel type (SAME: `type`); from a table
 *                it must be SAME (refused otherwise);
 *   radius_x, radius_y  the window is (2 radius_x + 1) x (2 radius_y + 1)
 *                pixels centred on each pixel, clamped at the borders (it
 *                shrinks there);
 *   sum          0: the mean over the pixels inside the clamped window;
 *                1: their sum. Either as float. */
typedef struct clprim_box_desc {
  clprim_type type;
  int from_image;
  clprim_pixel_type input;
  size_t radius_x, radius_y;
  int sum;
} clprim_box_desc;

/* Box filter of a width x height image into `out` (width x height floats
 * from out_off, row pitch out_pitch >= width). The source from src_off of
 * `src`, row pitch src_pitch: the (width + 1) x (height + 1) exclusive
 * table (src_pitch >= width + 1), or with from_image the image itself
 * (src_pitch >= width). src and out must not overlap. Messages name these
 * parameters (src, src_pitch, out, out_pitch), from an image too.
 * Non-blocking, with clprim_scan's queue, wait-list and event rules. */
CLPRIM_API clprim_status clprim_box_filter(clprim_context *ctx, cl_command_queue queue,
                                           const clprim_box_desc *desc, cl_mem src,
                                           size_t src_off, size_t src_pitch, cl_mem out,
                                           size_t out_off, size_t out_pitch, size_t width,
                                           size_t height, cl_uint num_wait,
                                           const cl_event *wait, cl_event *event);

/* Blocking helper on host arrays (pitches in elements, as above). */
CLPRIM_API clprim_status clprim_box_filter_host(clprim_context *ctx, const clprim_box_desc *desc,
                                                const void *src, size_t src_pitch, float *out,
                                                size_t out_pitch, size_t width, size_t height);

/* ------------------------------------------------------------------------ */
/* Radix sort and split                                                      */
/* ------------------------------------------------------------------------ */

/* Sort algorithms. XX(NAME, number, name).
 *   AUTO         CHUNKED on CPU devices; elsewhere ONESWEEP where the
 *                device has the single pass's atomics
 *                (clprim_device_info.has_single_pass), else SPLIT_LSB
 *   ONESWEEP     8-bit digits: one pass counts every digit of every pass,
 *                then one pass per digit ranks each tile's keys and finds
 *                its place per digit by decoupled look-back over the
 *                tiles' digit counts; n up to one tile: one launch
 *   SPLIT_LSB    the taught radix sort: one split (below) per key bit, from
 *                the least significant, each on clprim's own scan
 *   TILE_BITONIC tiles sorted in local memory, then merged pairwise by
 *                bitonic merges (stable: ties are ordered by input position)
 *   CHUNKED      the CPU form: an LSB radix sort by 8-bit digits whose
 *                passes cut the keys into a few contiguous chunks per
 *                compute unit, each counted, then moved in order, by one
 *                work-item (no local memory, no barrier). Correct anywhere,
 *                slow on GPUs. */
#define CLPRIM_SORT_ALGORITHM_MAP(XX)                                          \
  XX(AUTO, 0, "auto")                                                          \
  XX(ONESWEEP, 1, "onesweep")                                                  \
  XX(SPLIT_LSB, 2, "split-lsb")                                                \
  XX(TILE_BITONIC, 3, "tile-bitonic")                                          \
  XX(CHUNKED, 4, "chunked")

typedef enum clprim_sort_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_SORT_##NAME = num,
  CLPRIM_SORT_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_SORT_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_sort_algorithm;

/* "onesweep", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_sort_algorithm_name(clprim_sort_algorithm algorithm);

/* A sort (or split).
 *   key_type     CLPRIM_TYPE_UINT32, INT32, FLOAT, UINT64, INT64 or DOUBLE
 *                (double keys need no fp64 support: they are sorted as bits)
 *   value_size   bytes of each value moved with its key (pairs), 1 to 64,
 *                any type (moved as bytes); 0: keys only
 *   descending   0: ascending, 1: descending
 *   begin_bit, end_bit  sort by bits [begin_bit, end_bit) of the key's
 *                ordered form (below) only; 0, 0: every bit. For unsigned
 *                keys the ordered form is the key itself, so keys known to
 *                be below 2^b sort faster with end_bit = b. begin_bit ==
 *                end_bit (nonzero, up to the key's width) is accepted and
 *                sorts by no bit: keys and values come out in input order.
 *   algorithm    CLPRIM_SORT_AUTO, ...
 *   scratch, scratch_size  NULL, 0: temporary memory comes from the
 *                context's pool (kept from call to call); otherwise a
 *                buffer of the caller's of at least clprim_sort_scratch_size
 *                bytes, used instead (ONESWEEP and TILE_BITONIC then take
 *                nothing from the pool; SPLIT_LSB's flags and scans still
 *                do); the caller must not use it until the call is done;
 *                scratch_size without scratch: CLPRIM_INVALID_ARGUMENT
 *
 * Order. Keys are compared in their numeric order: signed keys as two's
 * complement, float and double keys as IEEE values with -0.0 before +0.0,
 * -inf first, +inf after every number and NaNs (any sign, any payload) after
 * +inf, in their input order. Descending reverses the order of distinct
 * keys, NaNs still last. Every algorithm is stable: equal keys (bitwise
 * equal, or equal in the bits sorted by) keep their input order, in both
 * directions. Keys and values are written as they were read (NaN payloads
 * included).
 *
 * Ordered form. Sort and split see each key as an unsigned number of the
 * key's width w (32 or 64 bits), its ordered form, whose numeric order is
 * the order above (ascending):
 *   uint32, uint64  the key itself;
 *   int32, int64    the key with its sign bit flipped: k ^ 2^(w-1);
 *   float, double   a NaN (any sign, any payload): every bit 1; a key with
 *                   its sign bit set (negative numbers, -inf, -0.0): every
 *                   bit flipped, ~k; any other (+0.0 up to +inf): the sign
 *                   bit set, k | 2^(w-1). So -0.0 (float bits 0x80000000)
 *                   becomes 0x7fffffff, just below +0.0's 0x80000000;
 *   descending      every bit of that flipped, except a NaN's (every bit 1
 *                   in both directions, so NaNs come last in both).
 * Bit b is (ordered >> b) & 1, bit 0 the least significant. With a bit
 * range, keys are sorted ascending by (ordered >> begin_bit) mod
 * 2^(end_bit - begin_bit), stably: keys equal in those bits keep their
 * input order, whatever their other bits. A NaN's bits are 1 in every
 * range, so it sorts after every key whose bits there are not all 1, and
 * in input order among those whose bits are (float bits [23, 32), sign
 * and exponent, tie NaNs with +inf, or, descending, with -inf). split's
 * `bit` is a bit of the same form: keys whose bit is 0 first (a NaN's is
 * 1). docs/algorithms.md tabulates the form. */
typedef struct clprim_sort_desc {
  clprim_type key_type;
  size_t value_size;
  int descending;
  unsigned begin_bit, end_bit;
  clprim_sort_algorithm algorithm;
  cl_mem scratch;
  size_t scratch_size;
} clprim_sort_desc;

/* Sorts n keys of keys_in (from keys_in_off, in keys) into keys_out (from
 * keys_out_off) and, with desc->value_size > 0, the values of values_in
 * (from values_in_off, in values) into values_out in the same order.
 * keys_out == keys_in at the same offset (and values likewise) sorts in
 * place; other overlaps are refused. Enqueues and returns, like clprim_scan
 * (same queue, wait-list and event rules; every buffer checked against
 * CL_MEM_SIZE). n may be 0 and above 2^32. Statuses: CLPRIM_UNKNOWN_TYPE for a
 * key type that is not one of the six; CLPRIM_INVALID_ARGUMENT for a bit
 * range outside the key or value_size above 64, a missing values buffer or
 * scratch smaller than clprim_sort_scratch_size; CLPRIM_UNSUPPORTED for
 * ONESWEEP on a device without 64-bit atomics. Thread safety: as clprim_scan. */
CLPRIM_API clprim_status clprim_sort(clprim_context *ctx, cl_command_queue queue,
                                     const clprim_sort_desc *desc, cl_mem keys_in,
                                     size_t keys_in_off, cl_mem keys_out, size_t keys_out_off,
                                     cl_mem values_in, size_t values_in_off, cl_mem values_out,
                                     size_t values_out_off, size_t n, cl_uint num_wait,
                                     const cl_event *wait, cl_event *event);

/* Blocking helper: sorts host arrays keys (n keys) and values (n values of
 * desc->value_size bytes; NULL when value_size is 0) in place. */
CLPRIM_API clprim_status clprim_sort_host(clprim_context *ctx, const clprim_sort_desc *desc,
                                          void *keys, void *values, size_t n);

/* Bytes of scratch a call of clprim_sort with desc and n needs, in *bytes:
 * the sort's temporary keys and values, digit counts and tile status. desc
 * is the one the sort will get, so every field clprim_sort takes is
 * accepted (scratch may already be set; the size does not depend on it).
 * For callers that manage device memory themselves. */
CLPRIM_API clprim_status clprim_sort_scratch_size(clprim_context *ctx, const clprim_sort_desc *desc,
                                                  size_t n, size_t *bytes);

/* The split of the seeds, by one bit: for each key, e = !bit, f = the
 * exclusive scan of e, totalFalses = e[n-1] + f[n-1], and the key goes to
 * d = bit ? i - f + totalFalses : f: keys whose bit is 0 first, then those
 * whose bit is 1, each in input order (stable). `bit` counts in the key's
 * ordered form as for clprim_sort (desc->descending flips it; begin_bit,
 * end_bit, algorithm, scratch and scratch_size must be 0, or the call is
 * refused: CLPRIM_INVALID_ARGUMENT); values move with their keys
 * as in clprim_sort. With count non-NULL, totalFalses is written to element
 * count_off of it as one cl_ulong. Out of place only. Otherwise as clprim_sort. */
CLPRIM_API clprim_status clprim_split(clprim_context *ctx, cl_command_queue queue,
                                      const clprim_sort_desc *desc, unsigned bit, cl_mem keys_in,
                                      size_t keys_in_off, cl_mem keys_out, size_t keys_out_off,
                                      cl_mem values_in, size_t values_in_off, cl_mem values_out,
                                      size_t values_out_off, size_t n, cl_mem count,
                                      size_t count_off, cl_uint num_wait, const cl_event *wait,
                                      cl_event *event);

/* Segmented sort: the keys of each segment [offsets[j], offsets[j + 1]) of
 * keys_in sorted on their own into the same range of keys_out, stably, in
 * clprim_sort's order (desc: key_type, value_size, descending, begin_bit /
 * end_bit as there; algorithm must be AUTO and scratch / scratch_size 0,
 * else CLPRIM_INVALID_ARGUMENT), values moved with their keys.
 * segments: OFFSETS only (other kinds: CLPRIM_UNSUPPORTED), num_segments + 1
 * offsets of segments->type (int32, uint32, int64 or uint64) rising from 0
 * to n without falling; they are not checked here (the blocking helper
 * checks them): offsets that fall or pass n give an unspecified order, but
 * never a read or write outside the n keys. Empty segments are allowed.
 * How: the array is cut into tiles (NVIDIA, 4-byte keys: 3,072 keys);
 * each work-group sorts the segments that start in its tile in local
 * memory, together (segments of up to 32 keys one per work-item), and a
 * segment longer than a tile alone, in passes over global memory by one
 * work-group (long segments in few numbers sort faster one clprim_sort
 * each). In place as clprim_sort (keys_out == keys_in at the same offset,
 * values likewise); other overlaps, and segments->mem overlapping an
 * output, are refused.
 * Non-blocking with clprim_sort's queue, wait-list, event and buffer rules;
 * temporary memory (n keys and n values when n exceeds a tile) from the
 * context's pool. Thread safety: as clprim_sort. */
CLPRIM_API clprim_status clprim_segmented_sort(clprim_context *ctx, cl_command_queue queue,
                                               const clprim_sort_desc *desc,
                                               const clprim_segments *segments, cl_mem keys_in,
                                               size_t keys_in_off, cl_mem keys_out,
                                               size_t keys_out_off, cl_mem values_in,
                                               size_t values_in_off, cl_mem values_out,
                                               size_t values_out_off, size_t n, cl_uint num_wait,
                                               const cl_event *wait, cl_event *event);

/* Blocking helper: host arrays keys (n) and values (n of desc->value_size
 * bytes; NULL when 0) sorted in place within the segments of
 * host_segments (segments->num_segments + 1 offsets of segments->type,
 * checked: rising from 0 to n; segments->mem NULL and off 0). */
CLPRIM_API clprim_status clprim_segmented_sort_host(clprim_context *ctx,
                                                    const clprim_sort_desc *desc,
                                                    const clprim_segments *segments,
                                                    const void *host_segments, void *keys,
                                                    void *values, size_t n);

/* ------------------------------------------------------------------------ */
/* Searches in sorted keys: lower and upper bound                            */
/* ------------------------------------------------------------------------ */

/* Search algorithms. XX(NAME, number, name).
 *   AUTO    WINDOW (CACHED where a window of keys does not fit local
 *           memory)
 *   BINARY  the taught form: one binary search per query, every step a
 *           load from global memory
 *   CACHED  each work-group of a bounded grid first loads a regular sample
 *           of the keys into local memory (every ceil(n / S)-th key, S as
 *           many as the tuning row's `samples` and local memory allow:
 *           8192 4-byte keys on NVIDIA GPUs), then loops over the queries:
 *           each query's interval among the samples is found there, and
 *           the search finishes in global memory within that interval,
 *           several queries per work-item stepping together so that their
 *           loads are in flight at once. (Where an interval would hold
 *           2^32 keys or more, n of 2^32 S and beyond, the call runs
 *           BINARY.)
 *   WINDOW  for sorted queries (right for any): the position of the first
 *           query of every chunk of C queries is searched first (C =
 *           work-group size x `items`: 1024 on NVIDIA GPUs); then a
 *           work-group per chunk loads the keys between its first
 *           query's position and the next chunk's into local memory (up
 *           to the tuning row's `window` keys: 4096 on NVIDIA GPUs) and
 *           searches its queries there, so that every key is read about
 *           once, coalesced. A query that the window does not bracket
 *           (unsorted queries, or a window too large) is searched in
 *           global memory as BINARY does. Temporary memory: 8 bytes per
 *           chunk.
 *   SORT_QUERIES  for queries in no useful order: the queries are sorted
 *           first with their positions (clprim_sort, stable, in the keys'
 *           order: m keys and 4-byte positions, 8-byte from m = 2^32), then
 *           searched as WINDOW, each position written where its query was.
 *           Temporary memory: m keys and twice m positions, held from the
 *           first step to the last, beside the sort's own. With the queue's
 *           events: three calls chained on it (the event returned is the
 *           last one's). */
#define CLPRIM_SEARCH_ALGORITHM_MAP(XX)                                        \
  XX(AUTO, 0, "auto")                                                          \
  XX(BINARY, 1, "binary")                                                      \
  XX(CACHED, 2, "cached")                                                      \
  XX(WINDOW, 3, "window")                                                      \
  XX(SORT_QUERIES, 4, "sort-queries")

typedef enum clprim_search_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_SEARCH_##NAME = num,
  CLPRIM_SEARCH_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_SEARCH_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_search_algorithm;

/* "binary", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_search_algorithm_name(clprim_search_algorithm algorithm);

/* A search (lower or upper bound).
 *   key_type    CLPRIM_TYPE_UINT32, INT32, FLOAT, UINT64, INT64 or DOUBLE:
 *               the type of the keys and of the queries (double keys need
 *               no fp64 support: they are compared as bits)
 *   descending  0: the keys ascend; nonzero: they descend, as clprim_sort
 *               with descending = 1 leaves them
 *   index_type  CLPRIM_TYPE_UINT32 or CLPRIM_TYPE_UINT64: the type of the
 *               positions written (uint32 only for n below 2^32)
 *   algorithm   CLPRIM_SEARCH_AUTO, ...
 * A zero-initialised descriptor is refused: index_type 0 is int32, which
 * is not a position type.
 *
 * Order. Keys and queries are compared in clprim_sort's order (see
 * clprim_sort_desc): numeric, signed keys as two's complement, float and
 * double keys as IEEE values with -0.0 before +0.0 and NaNs (any sign, any
 * payload, all equal to each other) after +inf; descending reverses the
 * order of everything but the NaNs, which stay last. Keys sorted by
 * clprim_sort with the same key_type and descending are sorted in this
 * order. */
typedef struct clprim_search_desc {
  clprim_type key_type;
  int descending;
  clprim_type index_type;
  clprim_search_algorithm algorithm;
} clprim_search_desc;

/* For each of m queries (from queries_off of `queries`), its position in n
 * sorted keys (from keys_off of `keys`), written to `out` from out_off:
 *   clprim_lower_bound  out[j] = the first i in [0, n] whose key is not
 *                       before queries[j]: the number of keys before it;
 *   clprim_upper_bound  out[j] = the first i in [0, n] whose key comes
 *                       after queries[j]: the number of keys not after it.
 * With a run of keys equal to the query, lower bound gives its first
 * position and upper bound the one past its last. Keys that are not sorted
 * in the order above give unspecified positions, each in [0, n], and never
 * a read outside the n keys. n = 0: every position is 0; m = 0: nothing is
 * written. Offsets count elements of their own buffer: keys_off and
 * queries_off in keys, out_off in positions of desc->index_type. The
 * queries need not be sorted (sorted ones search faster: neighbours read
 * the same keys).
 * `out` must not overlap keys or queries; keys and queries may overlap
 * (the keys searched in themselves). Enqueues and returns, like
 * clprim_sort (same queue, wait-list and event rules; every buffer checked
 * against CL_MEM_SIZE; n and m may be 0 and above 2^32). Statuses:
 * CLPRIM_INVALID_ARGUMENT for a NULL ctx or desc, an index_type other than
 * uint32 or uint64, uint32 positions for n of 2^32 or more, an
 * overlapping or read-only out; CLPRIM_UNKNOWN_TYPE for a key_type that is
 * not one of the six; CLPRIM_UNKNOWN_ALGORITHM for an algorithm that is not
 * a clprim_search_algorithm; CLPRIM_OUT_OF_BOUNDS for a buffer smaller
 * than its offset and count. BINARY and CACHED use no temporary memory. On NVIDIA GPUs
 * a program is compiled per key type and direction (tuning field
 * kind_in_program). Thread safety: as clprim_scan. */
CLPRIM_API clprim_status clprim_lower_bound(clprim_context *ctx, cl_command_queue queue,
                                            const clprim_search_desc *desc, cl_mem keys,
                                            size_t keys_off, size_t n, cl_mem queries,
                                            size_t queries_off, size_t m, cl_mem out,
                                            size_t out_off, cl_uint num_wait,
                                            const cl_event *wait, cl_event *event);
CLPRIM_API clprim_status clprim_upper_bound(clprim_context *ctx, cl_command_queue queue,
                                            const clprim_search_desc *desc, cl_mem keys,
                                            size_t keys_off, size_t n, cl_mem queries,
                                            size_t queries_off, size_t m, cl_mem out,
                                            size_t out_off, cl_uint num_wait,
                                            const cl_event *wait, cl_event *event);

/* Blocking helpers on host arrays: n keys and m queries of desc->key_type,
 * m positions of desc->index_type written to out (keys may be NULL when n
 * is 0, queries and out when m is 0). Otherwise as the calls above; the
 * context's own queue. */
CLPRIM_API clprim_status clprim_lower_bound_host(clprim_context *ctx,
                                                 const clprim_search_desc *desc,
                                                 const void *keys, size_t n,
                                                 const void *queries, size_t m, void *out);
CLPRIM_API clprim_status clprim_upper_bound_host(clprim_context *ctx,
                                                 const clprim_search_desc *desc,
                                                 const void *keys, size_t n,
                                                 const void *queries, size_t m, void *out);

/* ------------------------------------------------------------------------ */
/* Histograms                                                               */
/* ------------------------------------------------------------------------ */

/* Histogram algorithms. XX(NAME, number, name).
 *   AUTO     PRIVATE when the bins fit the counters of at most the tuning
 *            row's `max_slices` work-groups (8 on NVIDIA GPUs: 98,296
 *            bins in 48 KiB each), else GLOBAL
 *   GLOBAL   the taught naive form: one atomic add on the global counts
 *            per sample counted
 *   PRIVATE  the taught privatised form (PMPP's histogram chapter): each
 *            work-group of a bounded grid counts its samples into 32-bit
 *            counters in local memory, then adds them to the global counts
 *            with one atomic per nonzero bin (again whenever its counters
 *            could otherwise overflow). Where the bins' counters (4 bytes
 *            each) pass local memory, they are split into slices, each
 *            counted by its own work-group over the same samples (side by
 *            side, so that the samples come from cache for all but one);
 *            custom edges are kept beside the counters where they fit
 *            too, else read from global memory. */
#define CLPRIM_HISTOGRAM_ALGORITHM_MAP(XX)                                     \
  XX(AUTO, 0, "auto")                                                          \
  XX(GLOBAL, 1, "global")                                                      \
  XX(PRIVATE, 2, "private")

typedef enum clprim_histogram_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_HISTOGRAM_##NAME = num,
  CLPRIM_HISTOGRAM_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_HISTOGRAM_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_histogram_algorithm;

/* "global", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_histogram_algorithm_name(clprim_histogram_algorithm algorithm);

/* A histogram: how many samples fall in each of `bins` bins.
 *   sample_type  the samples' type, from CLPRIM_PIXEL_MAP: UINT8, INT8,
 *                UINT16, INT16, INT32, UINT32, INT64, UINT64, FLOAT or
 *                DOUBLE (SAME is refused); DOUBLE needs cl_khr_fp64
 *                (CLPRIM_UNSUPPORTED otherwise)
 *   count_type   CLPRIM_TYPE_UINT32 or CLPRIM_TYPE_UINT64: the counts'
 *                type (uint64 needs cl_khr_int64_base_atomics:
 *                CLPRIM_UNSUPPORTED otherwise). uint32 counts wrap past
 *                2^32 - 1 samples in one bin.
 *   bins         1 to 2^32 - 2
 *   lower, upper even bins (edges NULL): [lower, upper) cut into `bins`
 *                equal parts, lower < upper, both finite; for integer
 *                samples integers from the type's least value to its
 *                largest + 1 (so that [0, 256) covers every uint8; for
 *                64-bit samples, upper below 2^63 for int64 and 2^64 for
 *                uint64, as doubles hold them); for float and
 *                double samples converted to the sample type first (to
 *                nearest), where they, upper - lower and bins / (upper -
 *                lower) must be finite and lower < upper still holds
 *   edges, edges_off  custom bins (edges not NULL): bins + 1 edges of
 *                sample_type from element edges_off of `edges`, ascending
 *                (not checked: edges out of order give unspecified counts,
 *                never an access outside the counts or the edges); lower
 *                and upper must then be 0, and edges_off 0 without edges
 *   accumulate   0: the counts are overwritten; 1: the new counts are added
 *                to what `counts` holds (other values refused)
 *   algorithm    CLPRIM_HISTOGRAM_AUTO, ...
 * A zero-initialised descriptor is refused (sample_type SAME, count_type
 * int32).
 *
 * Which bin a sample x counts in (kernels and host reference alike):
 * - even bins, integer samples, in exact integer arithmetic: counted only
 *   when lower <= x < upper, in bin (x - lower) * bins / (upper - lower)
 *   (rounded down; the product taken in 64 bits, and for 64-bit samples in
 *   96 bits, so that no bin is ever off by one);
 * - even bins, float and double samples: scale = bins / (upper - lower) is
 *   computed once in the sample type, lower, upper and bins converted to
 *   it; x counts only when lower <= x < upper (NaN never), in bin
 *   t = (x - lower) * scale, evaluated in the sample type without
 *   contraction into a fused multiply-add, as t < bins ? min((uint)t,
 *   bins - 1) : bins - 1 (what rounding pushes past the top goes to the
 *   last bin);
 * - custom edges: x counts in bin i when edges[i] <= x < edges[i + 1]
 *   (binary search over the edges, held in local memory where they fit);
 *   x below the first edge, at or above the last, or NaN, counts nowhere.
 * Samples outside the range are not counted. */
typedef struct clprim_histogram_desc {
  clprim_pixel_type sample_type;
  clprim_type count_type;
  size_t bins;
  double lower, upper;
  cl_mem edges;
  size_t edges_off;
  int accumulate;
  clprim_histogram_algorithm algorithm;
} clprim_histogram_desc;

/* Counts n samples (from element samples_off of `samples`) into desc->bins
 * counts of desc->count_type (from element counts_off of `counts`). n = 0
 * with accumulate 0 zeroes the counts. Offsets count elements of each
 * buffer's own type. `counts` must not overlap the samples or the edges.
 * Enqueues and returns, like clprim_scan (same queue, wait-list and event
 * rules; every buffer checked against CL_MEM_SIZE; n may be above 2^32).
 * Statuses: CLPRIM_INVALID_ARGUMENT for a NULL ctx, desc or buffer, a
 * count_type other than uint32 or uint64, bins 0 or past 2^32 - 2, bounds
 * as above broken, lower or upper not 0 with edges, edges_off without
 * edges, accumulate not 0 or 1, overlapping or read-only counts; CLPRIM_UNKNOWN_TYPE for a
 * sample_type that is not a sample type (SAME included);
 * CLPRIM_UNSUPPORTED for double samples without cl_khr_fp64 or uint64
 * counts without cl_khr_int64_base_atomics; CLPRIM_UNKNOWN_ALGORITHM for
 * an algorithm that is not a clprim_histogram_algorithm;
 * CLPRIM_OUT_OF_BOUNDS for a buffer smaller than its offset and count. No
 * temporary memory is used. One program is compiled per sample type.
 * Thread safety: as clprim_scan. */
CLPRIM_API clprim_status clprim_histogram(clprim_context *ctx, cl_command_queue queue,
                                          const clprim_histogram_desc *desc, cl_mem samples,
                                          size_t samples_off, size_t n, cl_mem counts,
                                          size_t counts_off, cl_uint num_wait,
                                          const cl_event *wait, cl_event *event);

/* Blocking helper on host arrays: n samples (NULL allowed when n is 0),
 * desc->bins counts (read first when desc->accumulate is 1, then written).
 * Custom edges come from the host here: `edges` (bins + 1 of sample_type)
 * or NULL for even bins, and desc->edges must be NULL (a device buffer in
 * a host call is refused, not ignored, and so is desc->edges_off). Otherwise
 * as clprim_histogram; the context's own queue. */
CLPRIM_API clprim_status clprim_histogram_host(clprim_context *ctx,
                                               const clprim_histogram_desc *desc,
                                               const void *samples, size_t n, const void *edges,
                                               void *counts);

/* ------------------------------------------------------------------------ */
/* Merge of two sorted ranges                                                */
/* ------------------------------------------------------------------------ */

/* Merge algorithms. XX(NAME, number, name).
 *   AUTO    TILED
 *   CORANK  the taught form (PMPP's merge chapter): each work-item finds
 *           where its share of the output begins in both inputs by a
 *           co-rank binary search in global memory, then merges its share
 *           sequentially from global memory
 *   TILED   merge-path partitioning: a small kernel finds the co-rank of
 *           every tile's first output (tiles of wg_size x items outputs,
 *           the tuning row's); each work-group then loads its tile's two
 *           sub-ranges into local memory with coalesced reads, each
 *           work-item finds its own split there and merges its items in
 *           registers, and the tile is written back coalesced through
 *           local memory (values gathered by the same positions) */
#define CLPRIM_MERGE_ALGORITHM_MAP(XX)                                         \
  XX(AUTO, 0, "auto")                                                          \
  XX(CORANK, 1, "corank")                                                      \
  XX(TILED, 2, "tiled")

typedef enum clprim_merge_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_MERGE_##NAME = num,
  CLPRIM_MERGE_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_MERGE_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_merge_algorithm;

/* "corank", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_merge_algorithm_name(clprim_merge_algorithm algorithm);

/* A merge of two sorted ranges.
 *   key_type    CLPRIM_TYPE_UINT32, INT32, FLOAT, UINT64, INT64 or DOUBLE,
 *               compared in clprim_sort's order (numeric; float and double
 *               as IEEE with -0.0 before +0.0 and NaNs, all equal to each
 *               other, after +inf; double needs no fp64: compared as bits);
 *               must be 0 (INT32) when element is set
 *   descending  0: both ranges ascend; 1: both descend, as clprim_sort with
 *               descending = 1 leaves them (NaNs still last); must be 0
 *               with element (write the order into `less`)
 *   element, less  keys of the caller's type instead: element from
 *               clprim_element_create on this context (1 to 64 bytes), and
 *               `less`, an OpenCL C expression of `a` and `b` (two keys of
 *               that type) that is nonzero when a comes before b: a strict
 *               weak order (irreflexive, transitive, and keys neither of
 *               which comes before the other tie). Compiled at first use
 *               (CLPRIM_BUILD_FAILED with the compiler's log in the last
 *               error). Trusted code, pasted into the kernels as it is:
 *               never from untrusted input (see clprim_transform). Both
 *               set or both NULL (CLPRIM_INVALID_ARGUMENT otherwise).
 *   value_size  bytes of each value moved with its key (pairs), 1 to 64,
 *               any type (moved as bytes); 0: keys only
 *   algorithm   CLPRIM_MERGE_AUTO, ...
 * A zero-initialised descriptor merges int32 keys, ascending, AUTO.
 *
 * Stable: the output is the keys of both ranges in order, and keys that
 * tie (neither before the other; bitwise equal keys, NaNs, and for
 * built-in keys nothing else) keep range a's before range b's, each
 * range's in its own order. Keys and values are written as they were read
 * (NaN payloads included). */
typedef struct clprim_merge_desc {
  clprim_type key_type;
  int descending;
  const clprim_element *element;
  const char *less;
  size_t value_size;
  clprim_merge_algorithm algorithm;
} clprim_merge_desc;

/* Merges na keys of keys_a (from a_off) and nb keys of keys_b (from
 * b_off), each sorted in desc's order, into na + nb keys of keys_out (from
 * out_off); with desc->value_size > 0, the values of values_a (from
 * va_off) and values_b (from vb_off), one per key, go to values_out (from
 * vout_off) in the same order, and without values the value buffers must
 * be NULL and their offsets 0. Offsets count elements of each buffer's
 * own type (keys or values). Ranges that are not sorted give unspecified
 * output (each output key one of the inputs' keys, with its value), but
 * nothing is read or written outside the ranges given. The outputs must not overlap the
 * inputs or each other; the two inputs may overlap (a range merged with
 * itself). na and nb may be 0 and their sum above 2^32. Enqueues and
 * returns, like clprim_sort (same queue, wait-list and event rules; every
 * buffer checked against CL_MEM_SIZE). Temporary memory (TILED: one
 * 64-bit position per tile) comes from the context's pool. Statuses:
 * CLPRIM_UNKNOWN_TYPE for a key_type that is not one of the six;
 * CLPRIM_INVALID_ARGUMENT for a NULL ctx, desc or key buffer, element and
 * less not both set, key_type or descending set with element, an element
 * of another context or above 64 bytes, value_size above 64, a values
 * buffer missing or given without values, overlapping or read-only
 * outputs; CLPRIM_UNKNOWN_ALGORITHM; CLPRIM_OUT_OF_BOUNDS for a buffer
 * smaller than its offset and count; CLPRIM_BUILD_FAILED for a `less`
 * that does not compile. A program is compiled per key size and value size
 * (on NVIDIA GPUs per key type and direction too: tuning field
 * kind_in_program) and per caller's key type and `less`. Thread safety: as
 * clprim_scan. */
CLPRIM_API clprim_status clprim_merge(clprim_context *ctx, cl_command_queue queue,
                                      const clprim_merge_desc *desc, cl_mem keys_a, size_t a_off,
                                      size_t na, cl_mem keys_b, size_t b_off, size_t nb,
                                      cl_mem values_a, size_t va_off, cl_mem values_b,
                                      size_t vb_off, cl_mem keys_out, size_t out_off,
                                      cl_mem values_out, size_t vout_off, cl_uint num_wait,
                                      const cl_event *wait, cl_event *event);

/* Blocking helper on host arrays: na keys (and values) of range a, nb of
 * range b, merged into keys_out and values_out (room for na + nb each).
 * Values NULL when desc->value_size is 0; keys may be NULL where their
 * count is 0. Otherwise as clprim_merge; the context's own queue. */
CLPRIM_API clprim_status clprim_merge_host(clprim_context *ctx, const clprim_merge_desc *desc,
                                           const void *keys_a, const void *values_a, size_t na,
                                           const void *keys_b, const void *values_b, size_t nb,
                                           void *keys_out, void *values_out);
/* Top-k: the k largest or smallest keys                                     */
/* ------------------------------------------------------------------------ */

/* Top-k algorithms. XX(NAME, number, name).
 *   AUTO          SAMPLE_FILTER where the device's tuning row says it pays
 *                 (n at least 2^filter_min_n_bits and k at most
 *                 n >> filter_k_shift; docs/tuning.md), else RADIX_SELECT
 *   SORT          the taught form: the whole input sorted (clprim_sort,
 *                 into temporary memory of n keys and values), its first k
 *                 copied out
 *   RADIX_SELECT  radix selection over the keys' ordered form (see
 *                 clprim_sort_desc), from its top digit down: per level a
 *                 histogram of the digit over the keys still in question
 *                 (per-work-group counters in local memory), the boundary
 *                 digit where the running count reaches k, then a stable
 *                 compaction that writes every key below it to the output
 *                 and the keys at it to a candidate buffer, which the next
 *                 level reads instead of the input. Uniform keys: the
 *                 input is read twice, the candidates are a small part of
 *                 it. Where the boundary digit holds more keys than a
 *                 candidate buffer (many equal keys), the next level reads
 *                 the input again instead: 32-bit keys then read it up to
 *                 six times, never more memory. docs/algorithms.md.
 *   SAMPLE_FILTER for large n and small k: a threshold from a sample of the
 *                 keys at fixed strided positions (2^filter_sample_bits of
 *                 them, sorted by clprim_sort: the same input gives the
 *                 same threshold), then one read of the input that keeps
 *                 every key at least as good as it with its index; the
 *                 candidates are sorted by index, then by key (clprim_sort,
 *                 stable), and the first k taken: exactly the keys and
 *                 order RADIX_SELECT gives sorted, sorted whether asked or
 *                 not. Nothing waits on the host: RADIX_SELECT is queued
 *                 behind it and runs, over the input, only where the
 *                 sample misled (fewer than k candidates, or more than
 *                 their buffer holds: many equal keys); where it did not,
 *                 RADIX_SELECT's launches return at once (a few us each). */
#define CLPRIM_TOP_K_ALGORITHM_MAP(XX)                                         \
  XX(AUTO, 0, "auto")                                                          \
  XX(SORT, 1, "sort")                                                          \
  XX(RADIX_SELECT, 2, "radix-select")                                          \
  XX(SAMPLE_FILTER, 3, "sample-filter")

typedef enum clprim_top_k_algorithm {
#define CLPRIM_XX_(NAME, num, name) CLPRIM_TOP_K_##NAME = num,
  CLPRIM_TOP_K_ALGORITHM_MAP(CLPRIM_XX_)
#undef CLPRIM_XX_
  CLPRIM_TOP_K_ALGORITHM_COUNT_ /* not an algorithm */
} clprim_top_k_algorithm;

/* "radix-select", ...; NULL for unknown values. */
CLPRIM_API const char *clprim_top_k_algorithm_name(clprim_top_k_algorithm algorithm);

/* A top-k selection.
 *   key_type    CLPRIM_TYPE_UINT32, INT32, FLOAT, UINT64, INT64 or DOUBLE
 *               (double keys need no fp64 support: they are compared as
 *               bits)
 *   value_size  bytes of each value that comes with its key, 1 to 64, any
 *               type (moved as bytes); 0: keys only
 *   largest     1: the k largest keys; 0: the k smallest (other values
 *               refused)
 *   sorted      1: the k keys in order, largest first for the k largest,
 *               smallest first for the k smallest; 0: in an unspecified
 *               order (the same for the same call on the same device)
 *               (other values refused)
 *   algorithm   CLPRIM_TOP_K_AUTO, ...
 *
 * Which keys. The k keys are the first k of clprim_sort's stable order
 * with descending = largest (see clprim_sort_desc): numeric order, -0.0
 * below +0.0, and every NaN (any sign, any payload) after every number in
 * both directions, so NaNs are taken only when fewer than k keys are
 * numbers. Ties at the k-th key are taken lowest input index first, which
 * makes the set deterministic; sorted, equal keys come out in input order,
 * so the output is exactly what clprim_sort would put first (keys and
 * values bit for bit). Keys and values are written as they were read. */
typedef struct clprim_top_k_desc {
  clprim_type key_type;
  size_t value_size;
  int largest;
  int sorted;
  clprim_top_k_algorithm algorithm;
} clprim_top_k_desc;

/* Writes the k chosen keys of the n keys of `keys` (from element keys_off)
 * to keys_out (from keys_out_off) and, with desc->value_size > 0, their
 * values (the values of `values` from values_off, one per key) to
 * values_out (from values_out_off). k = 0 writes nothing; k = n writes
 * every key (sorted when asked; otherwise in input order); k above n is
 * refused. Offsets count elements of their own buffer (keys, or values
 * of value_size bytes). The outputs must not overlap the inputs or each
 * other. Enqueues and returns, like clprim_sort (same queue, wait-list
 * and event rules; every buffer checked against CL_MEM_SIZE; n and k may
 * be 0 and above 2^32). With desc->sorted and k > 1, the output is then
 * sorted by clprim_sort in place (its temporary memory and statuses
 * apply). RADIX_SELECT takes temporary memory from the context's pool for
 * candidates (n / 8 keys and indices and an eighth of that again, at
 * least the tuning row's min_candidates each, at most n) and for each
 * level's digit counts (about 16 KiB per work-group of its grid); SORT
 * for the whole sort's n keys and values; SAMPLE_FILTER for the sample and
 * its candidates (keys and indices: at least 4 k, at most n) and for its
 * sorts, plus RADIX_SELECT's, queued behind it. Statuses: CLPRIM_UNKNOWN_TYPE for a
 * key_type that is not one of the six; CLPRIM_INVALID_ARGUMENT for a NULL
 * ctx, desc or buffer, value_size above 64, largest or sorted other than
 * 0 or 1, k above n, values or values_out NULL with value_size > 0 or
 * given with value_size 0, outputs that overlap or are read-only;
 * CLPRIM_UNKNOWN_ALGORITHM for an algorithm that is not a
 * clprim_top_k_algorithm; CLPRIM_UNSUPPORTED for RADIX_SELECT or
 * SAMPLE_FILTER over 2^32 keys or more without cl_khr_int64_base_atomics; CLPRIM_OUT_OF_BOUNDS
 * for a buffer smaller than its offset and count. Thread safety: as
 * clprim_scan. */
CLPRIM_API clprim_status clprim_top_k(clprim_context *ctx, cl_command_queue queue,
                                      const clprim_top_k_desc *desc, cl_mem keys,
                                      size_t keys_off, cl_mem values, size_t values_off,
                                      size_t n, size_t k, cl_mem keys_out, size_t keys_out_off,
                                      cl_mem values_out, size_t values_out_off, cl_uint num_wait,
                                      const cl_event *wait, cl_event *event);

/* Blocking helper on host arrays: n keys (and n values of
 * desc->value_size bytes; NULL when value_size is 0), the k chosen ones
 * written to keys_out (and values_out). keys may be NULL when n is 0,
 * values when n is 0, keys_out and values_out when k is 0. Otherwise as
 * clprim_top_k; the context's own queue. */
CLPRIM_API clprim_status clprim_top_k_host(clprim_context *ctx, const clprim_top_k_desc *desc,
                                           const void *keys, const void *values, size_t n,
                                           size_t k, void *keys_out, void *values_out);

/* ------------------------------------------------------------------------ */
/* Several devices: one array in ordered parts                               */
/* ------------------------------------------------------------------------ */

/* One part of an array split over devices: elements [in_off, in_off + n) of
 * `in`, on ctx's device. Parts are given in the array's order (part 0 holds
 * its first elements) and may be of any size, empty ones too; several parts
 * may share a context. Results go to each part's own `out`, on its device.
 *   ctx        the part's context (clprim_context_create, or _wrap of any
 *              device of a multi-device cl_context)
 *   queue      NULL: the context's queue; otherwise one of ctx's cl_context
 *              and device (in-order or out-of-order)
 *   in, in_off the part's elements
 *   out, out_off  scan: its n results; select: its kept elements; reduce:
 *              NULL and 0
 *   n          its element count
 *   custom     when the descriptor names a caller's operator (desc->custom):
 *              the part context's own operator of the same source
 *              (clprim_operator_create on ctx); NULL: desc->custom, which
 *              must then belong to ctx; scan and reduce only
 *   element    likewise for clprim_compact_desc.element; select only
 *   flags, flags_off  select with a FLAGS_* predicate: the part's flags
 *              (n of them, from flags_off); NULL and 0: desc->flags and
 *              desc->flags_off
 * A field a call does not use is refused (CLPRIM_INVALID_ARGUMENT, the
 * message in parts[0].ctx names parts[k] and the field), never ignored. */
typedef struct clprim_part {
  clprim_context *ctx;
  cl_command_queue queue;
  cl_mem in;
  size_t in_off;
  cl_mem out;
  size_t out_off;
  size_t n;
  const clprim_operator *custom;
  const clprim_element *element;
  cl_mem flags;
  size_t flags_off;
} clprim_part;

/* The calls below are blocking: they enqueue every part's work on its own
 * queue, so parts on different devices run at the same time, and return
 * when all of it is done. Only per-part totals cross devices (through the
 * host); they are combined on a device with the operator's own kernels, so
 * user-defined operators work as on one device. On failure the status is
 * the first part's that failed, with the message in that part's context
 * (clprim_context_last_error).
 *
 * Checks, in this order: parts NULL with num_parts > 0:
 * CLPRIM_INVALID_ARGUMENT and no message (there is no context to hold
 * one); a part without a context, or desc NULL: CLPRIM_INVALID_ARGUMENT,
 * the message in parts[0].ctx (none when parts[0].ctx is the NULL one); a
 * part whose output overlaps another part's input or output in one buffer
 * (the parts run at once): CLPRIM_INVALID_ARGUMENT ("parts[j].out and
 * parts[k].in overlap ..."), in parts[0].ctx; then each part is checked as
 * its single-device call checks it (in place within a part as there), the
 * message in that part's context. num_parts == 0: scan and select succeed
 * doing nothing (select's *total = 0); reduce returns
 * CLPRIM_INVALID_ARGUMENT (there is no value to give).
 *
 * Index: `i` in a transform (clprim_transform) or a select expression is
 * the element's index in the whole array, counted from part 0's first
 * element, as on one device; the result does not depend on how the array
 * is split. (A part whose expression reads `i` and does not start at
 * element 0 is built as its own program, once per distinct start.)
 * Thread safety: as the single-device calls on each part's context.
 *
 * clprim_multi_scan: every part's `out` gets its share of the scan of the
 *   whole array (inclusive or exclusive, desc as clprim_scan, transform
 *   included). Every part but the last is reduced first; part 0 is then
 *   scanned, and part k > 0 from the fold of the totals before it
 *   (clprim_scan_init). In place (out == in) allowed per part.
 * clprim_multi_reduce: *value = the fold of the whole array
 *   (desc as clprim_reduce); num_parts >= 1.
 * clprim_multi_select: each part selects from its elements into its `out`
 *   (desc as clprim_select; desc->indices must be NULL). counts[k] =
 *   elements part k kept, offsets[k] = the number kept by the parts before
 *   it (where its kept elements stand in the whole result), *total = all
 *   kept; each of the three may be NULL. */
CLPRIM_API clprim_status clprim_multi_scan(const clprim_scan_desc *desc, const clprim_part *parts,
                                           size_t num_parts);
CLPRIM_API clprim_status clprim_multi_reduce(const clprim_reduce_desc *desc,
                                             const clprim_part *parts, size_t num_parts,
                                             void *value);
CLPRIM_API clprim_status clprim_multi_select(const clprim_compact_desc *desc,
                                             const clprim_part *parts, size_t num_parts,
                                             size_t *counts, size_t *offsets, size_t *total);

#ifdef __cplusplus
}
#endif
#endif /* CLPRIM_H */

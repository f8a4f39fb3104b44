/* SPDX-License-Identifier: MIT */
/* Declarations shared between clprim's source files (never installed).
 *
 * Host layers, bottom to top; a file calls only files of lower layers
 * (docs/architecture.md draws them; tools/check-layers.sh checks every
 * call between the objects against this line, as the test `layers`):
 *
 * layers: alloc | status types handles | diag | device tuning | disk_cache pool | build | context | element | launch | operator scan_tuning reduce_tuning compact_tuning segment_tuning sat_tuning sort_tuning search_tuning histogram_tuning merge_tuning top_k_tuning | scan reduce segment sat histogram merge tuning_info top_k_filter | compact sort | multi sort_segments top_k search
 *
 *   alloc          host allocations (tests make them fail)
 *   status, types  X-macro tables: names, sizes, built-in element defines
 *   diag           failure messages, last error, log callback, formatting
 *   device, tuning device facts; tuning-row matching, knobs, the caller's
 *                  tuning file
 *   disk_cache,    on-disk program binaries; temporary device memory
 *   pool
 *   build          program assembly, builds, in-memory program cache
 *   context        create / wrap / release, accessors
 *   element        the element of a call (built-in, or the caller's type
 *                  and operator), its defines
 *   launch         argument checks, the validate helper, kernel arguments,
 *                  the enqueue chain, temporary memory of one call
 *   operator,      the caller's element types and operators (checked on the
 *   *_tuning       device); each primitive's tuning rows
 *   scan, reduce,  the primitives: validate -> parameters -> grid -> enqueue
 *   segment, sat,  (tuning_info: the rows they use, as tuning-file lines)
 *   histogram,
 *   merge
 *   top_k_filter   top-k's SAMPLE_FILTER steps (its kernels, its plan),
 *                  for top_k.c, which runs the sorts between them
 *   compact, sort  primitives built on others (compaction's taught form
 *                  and the split sort scan their flags with scan.c)
 *   multi          one array in parts on several devices, on the public
 *                  calls of the primitives
 *   sort_segments  the segmented sort, on sort.c's keys, tiles and programs
 *                  and segment.c's descriptor checks
 *   top_k          top-k by radix selection, its output sorted by the public
 *                  clprim_sort
 *   search         searches in sorted keys (SORT_QUERIES: the queries sorted
 *                  first by the public clprim_sort) */
#ifndef CLPRIM_INTERNAL_H
#define CLPRIM_INTERNAL_H

#include "clprim.h"
#include "tuning_params.h"

#include <pthread.h>
#include <stdarg.h>

#if defined(__GNUC__)
#define CLPRIM__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLPRIM__PRINTF(f, a)
#endif

/* "Lock held" below: the caller holds the context's lock. Functions that
 * take it themselves say so in their names (_unlocked: called without it). */

typedef struct clprim__program clprim__program;
typedef struct clprim__pool_buf clprim__pool_buf;
typedef struct clprim__tuning_file clprim__tuning_file;

/* ---- the context (its life cycle: context.c) ---- */

/* The development knobs (tuning_params.h: one slot per parameter of every
 * primitive) and switches, as the environment had them when the context was
 * created (clprim__knobs_read, tuning.c). */
#define CLPRIM__ONE(...) +1
#define CLPRIM__PARAMS_OF(name, S, PARAMS) PARAMS(CLPRIM__ONE, S)
#define CLPRIM__KNOB_SLOTS (0 CLPRIM__TUNED_PRIMITIVES(CLPRIM__PARAMS_OF))
#define CLPRIM__SWITCH_ID(id, env, doc) CLPRIM__SWITCH_##id,
typedef enum clprim__switch_id { CLPRIM__SWITCHES(CLPRIM__SWITCH_ID) CLPRIM__SWITCH_COUNT } clprim__switch_id;
typedef struct clprim__knobs {
    unsigned char set[CLPRIM__KNOB_SLOTS + CLPRIM__SWITCH_COUNT];
    unsigned value[CLPRIM__KNOB_SLOTS + CLPRIM__SWITCH_COUNT];
} clprim__knobs;

struct clprim_context {
    cl_context cl_ctx;
    cl_device_id device;
    cl_command_queue queue;
    clprim_device_info info;
    clprim_log_fn log;
    void *log_user;
    unsigned flags;
    pthread_mutex_t lock;
    char *error;          /* last failure's message (heap), or NULL */
    clprim__program *programs;
    clprim__pool_buf *pool;
    char *cache_dir;      /* on-disk program cache folder, NULL when off */
    cl_uint nv_compute_major; /* NVIDIA: compute capability major (0: not NVIDIA) */
    int subgroup_form;        /* work-group scans through sub-group shuffles
                                 (clprim__choose_simd_form) */
    unsigned reqd_sub_group;  /* CLPRIM_SUB_GROUP_SIZE: every tile kernel's
                                 required sub-group size (0: the device's choice) */
    clprim__knobs knobs;         /* development knobs, as set at creation */
    clprim__tuning_file *tuning; /* the caller's tuning rows, NULL: none (replaced
                                    under the lock; read with it held) */
    unsigned long cache_writes;
    cl_context build_ctx; /* when cl_ctx holds several devices: one of ours
                             alone, where programs are built from source
                             (build.c); NULL otherwise */
};

/* ---- host memory (alloc.c): clprim's allocations, which tests can fail ---- */

void *clprim__malloc(size_t size);
void *clprim__calloc(size_t count, size_t size);
void *clprim__realloc(void *p, size_t size);

/* ---- the caller's live handles (handles.c) ---- */

/* Operators and element types are registered when created and removed when
 * released; 0, or -1 when memory is short. */
int clprim__handle_add(const void *p);
void clprim__handle_remove(const void *p);
/* Whether p is a handle created and not yet released (no lock needed). */
int clprim__handle_live(const void *p);

/* ---- tables (types.c, status.c) ---- */

/* Appends the element layer's defines (T, T_SIZE, OP, IDENTITY, and the fp64
 * pragma for double) to buf. Returns 0, or -1 when buf is too small. */
int clprim__element_defines(clprim_type type, clprim_op op, char *buf, size_t size);
/* The kmode of cl/sort_abi.h (SORT_KIND_* | SORT_DESCENDING) of a key of
 * key_type, one of the six, in that direction: the key order the sorts,
 * searches and merges share. */
cl_uint clprim__key_kmode(clprim_type key_type, int descending);
/* The OpenCL C name of a pixel type ("uchar", ...; "void" for SAME), NULL
 * for unknown values. */
const char *clprim__pixel_type_cl(clprim_pixel_type type);

/* Kernel sources (generated from cl/ by tools/embed_cl.cmake). */
typedef struct clprim__cl_file {
    const char *name; /* path relative to cl/, e.g. "common/elem.clh" */
    const char *text;
} clprim__cl_file;
extern const clprim__cl_file clprim__cl_files[];
extern const size_t clprim__cl_file_count;

/* ---- diagnostics (diag.c) ---- */

/* Lock held (or ctx not yet shared). Records a failure message and returns
 * status, so that `return clprim__fail(ctx, CLPRIM_X, "...")` reads well. */
clprim_status clprim__fail(clprim_context *ctx, clprim_status status,
                           const char *fmt, ...) CLPRIM__PRINTF(3, 4);
/* The same for callers that do not hold the lock: takes it. */
clprim_status clprim__fail_unlocked(clprim_context *ctx, clprim_status status,
                                    const char *fmt, ...) CLPRIM__PRINTF(3, 4);
/* printf into a new heap string; NULL when out of memory. */
char *clprim__format(const char *fmt, ...) CLPRIM__PRINTF(1, 2);
/* Appends text (e.g. a build log) to the last failure's message. */
void clprim__fail_append(clprim_context *ctx, const char *text);
void clprim__log(const clprim_context *ctx, int level, const char *fmt, ...)
    CLPRIM__PRINTF(3, 4);

/* ---- device facts (device.c) and tuning rows (tuning.c) ---- */

/* Fills *info from the device; simd_width may be left 0 when only a kernel can
 * tell (clprim__probe_simd_width). A failed query is returned, with *failed
 * naming it (every fact the kernels or the cache key use is checked: a
 * context on half-known facts would fail later, or hang, for no clear
 * reason). */
/* Whether the space-separated list names the extension. */
int clprim__has_extension(const char *list, const char *name);
/* Whether the device lists `size` among its sub-group sizes
 * (cl_intel_required_subgroup_size); 0 where it has no such list. */
int clprim__device_offers_sub_group(cl_device_id dev, size_t size);
clprim_status clprim__device_probe(cl_device_id dev, unsigned flags,
                                   clprim_device_info *info, const char **failed);
/* NVIDIA: the compute capability's major number (0 elsewhere, or unknown). */
cl_uint clprim__nv_compute_major(cl_device_id dev, const clprim_device_info *info);

/* What a tuning row applies to. Each primitive keeps its own table of rows
 * (src/<primitive>_tuning.c), every row starting with this, most specific
 * first, the last matching any device. */
typedef struct clprim__row_match {
    cl_uint vendor_id;         /* 0: any */
    const char *device_match;  /* substring of the device name; NULL: any */
    cl_device_type type;       /* 0: any */
    size_t elem_size;          /* 0: any */
    size_t max_n;              /* a size class: calls of up to max_n elements; 0: any */
} clprim__row_match;

/* The index of the first of `count` rows of `stride` bytes that matches the
 * device, element size and n (device -> vendor -> device type -> default; a
 * size class before the row of any n). */
size_t clprim__tuning_row(const clprim_device_info *d, size_t elem_size, size_t n,
                          const void *rows, size_t count, size_t stride);
/* CHUNKED, the CPU forms (cl/common/chunk.clh): how many chunks, one
 * work-item each, n elements are cut into: a row's chunks_per_cu per
 * compute unit (0: 4), but no chunk below CLPRIM__CHUNK_MIN elements (a
 * small n is one chunk: one work-item's loop beats a launch per few
 * elements); at least 1. */
#define CLPRIM__CHUNK_MIN 4096u
size_t clprim__chunks(const clprim_device_info *d, unsigned chunks_per_cu, size_t n);
/* t = the `.t` of the row of rows (a primitive's table: {match, t} each) for
 * ctx's device, elem_size and n, with the context's tuning file's row of
 * `primitive` set over it: what every primitive's tuning function starts
 * from. */
#define CLPRIM__TUNING_FOR(ctx, primitive, elem_size, n, rows, t)                              \
    ((t) = (rows)[clprim__tuning_row(&(ctx)->info, (elem_size), (n), (rows),                   \
                                     sizeof(rows) / sizeof((rows)[0]), sizeof((rows)[0]))]     \
               .t,                                                                             \
     clprim__tuning_user((ctx)->tuning, (primitive), &(ctx)->info, (elem_size), (n), &(t)))

/* The caller's tuning file ($CLPRIM_TUNING_FILE at context creation, or
 * clprim_context_set_tuning_file; format in clprim.h). */
/* *message (heap, or NULL when memory is short) says why a file is refused. */
clprim_status clprim__tuning_file_read(const char *path, clprim__tuning_file **out,
                                       char **message);
void clprim__tuning_file_free(clprim__tuning_file *f);
/* Sets the parameters that the file's first line for (primitive, device,
 * elem_size, n) names in *t, a primitive's tuning struct, and points its
 * source at the line. No file or no such line: *t unchanged. */
void clprim__tuning_user(const clprim__tuning_file *f, const char *primitive,
                         const clprim_device_info *d, size_t elem_size, size_t n, void *t);
/* *t as a line of a tuning file (clprim_context_tuning), into buf like
 * snprintf; 0 for an unknown primitive. */
size_t clprim__tuning_describe(const char *primitive, const clprim_device_info *d,
                               size_t elem_size, const void *t, char *buf, size_t size);
/* The development knobs (tuning_params.h) and switches, read from the
 * environment once, when a context is created. */
void clprim__knobs_read(clprim__knobs *k);
/* The switch's value when it was set, else `otherwise`. */
unsigned clprim__switch(const clprim__knobs *k, clprim__switch_id s, unsigned otherwise);
/* Over *t, a primitive's tuning struct: each parameter's knob where it was
 * set, then its bounds, work-group sizes clamped to the device. */
void clprim__tuning_apply(const clprim__knobs *k, const clprim_device_info *d,
                          const char *primitive, void *t);
/* A power of two the device allows, in whole SIMD groups where the device
 * allows that many work-items. */
unsigned clprim__clamp_wg(const clprim_device_info *d, unsigned wg);

/* ---- on-disk program cache (disk_cache.c) ---- */

/* The cache folder the options and environment choose (heap), or NULL when
 * the disk cache is off. */
char *clprim__cache_dir(const clprim_context_options *opt);
/* Lock held. The cache entry of (source, options): its key text (heap) and
 * its file's path in path[]; NULL when the disk cache is off (or memory is
 * short). One key serves the load and, on a miss, the store. */
char *clprim__cache_key(const clprim_context *ctx, const char *source, const char *options,
                        char *path, size_t path_size);
/* Lock held. The entry's binary (heap, *len bytes) when its file is whole
 * and for this key; NULL on a miss (never an error). */
unsigned char *clprim__cache_read(const clprim_context *ctx, const char *key, const char *path,
                                  size_t *len);
/* The binary of a built program for the context's device (heap, *len
 * bytes), or NULL. A program from source in a context of several devices
 * holds one binary per device (empty for the others): this takes ours. */
unsigned char *clprim__program_binary(const clprim_context *ctx, cl_program program,
                                      size_t *len);
/* Lock held. Keeps the built program's binary in the entry for later
 * processes. */
void clprim__cache_store(clprim_context *ctx, const char *key, const char *path,
                         cl_program program);

/* ---- temporary-memory pool (pool.c) ---- */

/* Lock held. Returns a buffer of at least `bytes` that commands enqueued on
 * `queue` after this call may use. */
clprim_status clprim__pool_acquire(clprim_context *ctx, cl_command_queue queue,
                                   size_t bytes, clprim__pool_buf **buf);
cl_mem clprim__pool_mem(const clprim__pool_buf *buf);
size_t clprim__pool_size(const clprim__pool_buf *buf);
/* State kept in a pooled buffer from call to call (single-pass tile status,
 * a reduce counter), told apart by a generation number. `layout` names
 * where the state lies (any value that differs whenever the new state could
 * fall on an earlier call's other values); `limit` is the first generation
 * the caller cannot represent. Returns this call's first generation (>= 1)
 * of `count` consecutive ones (one per pass of a multi-pass kernel); sets
 * *needs_zero when the contents are unknown (new buffer, last used for other
 * data or another layout, the generation wrapped, or a call using it
 * failed) and the caller must zero-fill it before use. */
cl_uint clprim__pool_generation(clprim__pool_buf *buf, cl_ulong layout, cl_uint limit,
                                cl_uint count, int *needs_zero);
/* Lock held. Hands the buffer back; `done` completes when the last command
 * using it, on `queue`, does. `done` may be NULL (no events were made, on an
 * in-order queue): the buffer is then reused only on that queue until idle
 * surplus is released (pool.c). `failed`: the call did not enqueue all it
 * meant to, so any kept state is unknown. */
void clprim__pool_release(clprim__pool_buf *buf, cl_command_queue queue, int in_order,
                          cl_event done, int failed);
void clprim__pool_destroy(clprim__pool_buf *first);

/* ---- programs (build.c) ---- */

/* What a primitive asks the build step for. The program's source is the
 * element defines, the device's facts (WG_SIZE, SIMD_WIDTH, ...), params,
 * every cl/common/ header and then files, each #line-tagged. */
typedef struct clprim__program_spec {
    const char *file;         /* the primitive's kernel file in cl/; what it includes comes
                                 before it (build.c) */
    const char *element;      /* the element layer's defines */
    const char *params;       /* the primitive's own "#define NAME value\n" lines; may be NULL */
    unsigned wg_size;         /* WG_SIZE; lowered when the kernels cannot run so many */
    const char *bound_entry;  /* NVIDIA: kernel bounded to bound_regs registers (NULL: none) */
    unsigned bound_regs;
    const char *tuning;       /* which tuning row chose the parameters (logged); may be NULL */
} clprim__program_spec;

/* Lock held. Builds (or finds in the context's cache) the program of spec.
 * If the device cannot run a kernel of the program with spec->wg_size
 * work-items, it is rebuilt with the largest power of two it can. */
clprim_status clprim__program_get(clprim_context *ctx, const clprim__program_spec *spec,
                                  clprim__program **prog);
/* Lock held. clprim__program_get with spec's params replaced by `params`,
 * text on the heap (clprim__format's) that is freed here; NULL (memory was
 * short) fails with CLPRIM_OUT_OF_HOST_MEMORY. */
clprim_status clprim__program_get_params(clprim_context *ctx, const clprim__program_spec *spec,
                                         char *params, clprim__program **prog);
/* The work-group size the program was actually built with. */
unsigned clprim__program_wg_size(const clprim__program *prog);
/* Lock held. The program's kernel of that name (created once, then cached). */
clprim_status clprim__program_kernel(clprim_context *ctx, clprim__program *prog,
                                     const char *name, cl_kernel *kernel);
void clprim__program_cache_destroy(clprim__program *first);
/* Builds a program from source, through the disk cache (used by
 * clprim__program_get and the SIMD probe). On a device that compiles to PTX
 * and with regs > 0, kernel `entry` is bounded to regs registers per
 * work-item (NULL, 0: no bound). On failure the build log is in the last
 * error. */
clprim_status clprim__build_source(clprim_context *ctx, const char *source,
                                   const char *entry, unsigned regs, cl_program *program);
/* Lock held. A program built from a binary of the context's device (*out,
 * or NULL with the driver's error returned). */
cl_int clprim__build_binary(clprim_context *ctx, const unsigned char *bin, size_t len,
                            const char *options, cl_program *out);
/* The PTX edit behind that bound: a copy of ptx[0..len) with ".maxnreg regs"
 * in the entry's header (heap), or NULL when there is no such entry, it is
 * bounded already, or memory is short. */
char *clprim__ptx_bound_registers(const char *ptx, size_t len, const char *entry,
                                  unsigned regs);
/* Lock held (context creation). Sets info.simd_width from a probe kernel's
 * preferred work-group size multiple when no device attribute gave it. */
clprim_status clprim__probe_simd_width(clprim_context *ctx);
/* Context creation: whether programs scan within work-groups through
 * sub-group shuffles (cl_khr_subgroups or cl_intel_subgroups, and
 * cl_khr_subgroup_shuffle_relative,
 * not on NVIDIA, whose PTX form comes first), unless the switch
 * CLPRIM_SUBGROUPS is 0. */
void clprim__choose_simd_form(clprim_context *ctx);

/* ---- elements (element.c) ---- */

/* A caller's element type alone (clprim_element_create) and a caller's
 * operator on one (clprim_operator_create); operator.c makes them. */
struct clprim_element {
    clprim_context *ctx; /* the context it was checked on (compared, never used) */
    size_t size;
    char *type;          /* OpenCL C name */
    char *source;        /* the caller's definitions ("" when none) */
    char *defines;       /* its element layer (no operator: CLPRIM_ELEMENT_ONLY) */
};
struct clprim_operator {
    clprim_context *ctx;
    size_t size;
    int commutative;     /* created with CLPRIM_OPERATOR_COMMUTATIVE */
    char *defines;       /* element layer: the caller's source, then T, OP, ... */
};

/* The element layer of one call: a built-in (type, op) or a custom operator. */
typedef struct clprim__element {
    size_t size;          /* bytes per element, host and device */
    int builtin;          /* CLPRIM_T_BUILTIN: vector loads, packed tile status */
    const char *defines;  /* the define header: `own` or the operator's */
    char own[512];
} clprim__element;

/* Lock held. Checks a descriptor's element (custom operator of this context,
 * else the caller's element type of this context, else a known type and
 * operator the device can run) and fills *e. */
clprim_status clprim__element_resolve(clprim_context *ctx, clprim_type type, clprim_op op,
                                      const clprim_operator *custom,
                                      const clprim_element *element, clprim__element *e);
/* Reproducibility (issue 33). Whether folding (type, op) or the custom
 * operator gives the same bits in any order (integers, min, max). */
int clprim__fold_is_exact(clprim_type type, clprim_op op, const clprim_operator *custom);
/* Checks desc->repro for a call (`call`, for the message) whose paths honour
 * levels up to `honoured` for inexact elements: CLPRIM_INVALID_ARGUMENT for
 * an unknown level, CLPRIM_UNSUPPORTED above `honoured`; *level gets the
 * level the call must provide (NONE for exact elements, which need nothing). */
clprim_status clprim__repro_check(clprim_context *ctx, clprim_repro repro, clprim_type type,
                                  clprim_op op, const clprim_operator *custom,
                                  clprim_repro honoured, const char *call, clprim_repro *level);
/* The element's defines with FP_CONTRACT off before everything (the
 * reproducible levels' programs): no a * b + c in a transform, an operator
 * or its source is fused on one device and rounded twice on another, or
 * fused in a vector path and not in the fallback's scalar one. Heap; NULL
 * when memory is short. */
char *clprim__element_uncontracted(const char *defines);
/* Work-items per work-group of the PORTABLE kernels (cl/portable.cl):
 * a multiple of PORTABLE_WG, each work-group running that many over
 * PORTABLE_WG tiles at once; the bits do not depend on it. */
unsigned clprim__portable_wg(const clprim_context *ctx, const clprim__element *e, unsigned want);
/* The element text of portable.cl's programs: e's defines with FP_CONTRACT
 * off (as clprim__element_uncontracted) and PORTABLE_STAGE, whether the
 * kernels stage their spans in local memory on this device. Heap; NULL when
 * memory is short. */
char *clprim__portable_element(const clprim_context *ctx, const clprim__element *e);
/* Bytes per element of a descriptor's element, 0 when unknown (no checks). */
size_t clprim__element_size(clprim_type type, const clprim_operator *custom);
/* The element layer of a caller's type (T, T_SIZE after its source) with,
 * when combine is not NULL, its operator (OP, IDENTITY, CLPRIM_COMMUTATIVE);
 * without one, OP and IDENTITY are placeholders (the first argument, all
 * bytes zero) and CLPRIM_ELEMENT_ONLY is 1. Heap; NULL when memory is short. */
char *clprim__element_type_defines(const clprim_context *ctx, const char *type,
                                   const char *source, size_t size, const char *combine,
                                   const char *identity, int commutative);

/* The element layer's input map (elem.clh): loads read IN_T (an OpenCL C
 * type name; fp64: it is double) and map each element x at index i with
 * `expression`, reported as `label` in compiler messages. Heap; NULL when
 * memory is short. */
char *clprim__input_defines(const char *in_type, int fp64, const char *label,
                            const char *expression);
/* The text of an expression of `x` and `i` with `i` counting from `base`
 * instead of 0 (each token i, not a member's name, read as (i + base)),
 * for a part of a larger array: *out (heap), or NULL when nothing changes
 * (base 0, or no token i). -1 when memory is short. */
int clprim__expression_rebase(const char *expr, cl_ulong base, char **out);
/* Bytes of one input element of a call: the transform's input type, or
 * elem without a transform; 0 when the transform's type is unknown. */
size_t clprim__transform_input_size(const clprim_transform *tf, size_t elem);
/* Lock held. Checks a transform (NULL: none; *params stays NULL) and gives
 * the build lines that define it for the element layer (heap). */
clprim_status clprim__transform_params(clprim_context *ctx, const clprim_transform *tf,
                                       char **params);

/* ---- launch (launch.c) ---- */

/* Checks that `mem` is a buffer of the context holding (off + n) elements of
 * `elem` bytes; `what` names the argument in the message. Lock held. */
clprim_status clprim__check_buffer(clprim_context *ctx, const char *what, cl_mem mem,
                                   size_t off, size_t n, size_t elem);
/* Checks a queue argument (NULL -> the context's queue) and a wait list. */
clprim_status clprim__check_queue(clprim_context *ctx, cl_command_queue *queue,
                                  cl_uint num_wait, const cl_event *wait);
/* One kernel argument: `size` bytes at `value`. A kernel's arguments are an
 * array of these in its signature's order, each made by CLPRIM__ARG from the
 * variable that holds it (its size the variable's own) or, for bytes held
 * in an array (an element of the call's size), by CLPRIM__ARG_BYTES; the
 * count is the array's (CLPRIM__SET_ARGS, CLPRIM__LAUNCH_KERNEL), never
 * written out. */
typedef struct clprim__arg {
    const void *value;
    size_t size;
} clprim__arg;
#define CLPRIM__ARG(var) {&(var), sizeof(var)}
#define CLPRIM__ARG_BYTES(ptr, bytes) {(ptr), (bytes)}
#define CLPRIM__NUM_ARGS(args) (sizeof(args) / sizeof((args)[0]))
/* Whether clprim__set_args counts every list against the kernel's
 * CL_KERNEL_NUM_ARGS: 1 in debug builds (NDEBUG not defined), else 0; a
 * test seam that tests set to check in any build. */
extern int clprim__check_kernel_args;
/* CLPRIM_INTERNAL, naming the kernel and both counts, unless k takes
 * exactly `count` arguments. Lock held. */
clprim_status clprim__check_arg_count(clprim_context *ctx, cl_kernel k, size_t count);
/* Sets a kernel's arguments args[0 .. count) (checked first where
 * clprim__check_kernel_args says). Lock held. */
clprim_status clprim__set_args(clprim_context *ctx, cl_kernel k, const clprim__arg *args,
                               size_t count);
#define CLPRIM__SET_ARGS(ctx, k, args) clprim__set_args(ctx, k, args, CLPRIM__NUM_ARGS(args))

/* A chain of commands forming one library call. */
typedef struct clprim__chain {
    cl_command_queue queue;
    int out_of_order;      /* chain each command to the previous one */
    cl_uint num_wait;      /* caller's wait list, for the first command */
    const cl_event *wait;
    cl_event last;         /* event of the last command enqueued, or NULL */
    int need_events;       /* keep events (out-of-order queue, caller's event,
                              pooled memory to hand back); else none are made */
} clprim__chain;

/* Zeroes bytes of mem from offset (a multiple of 4). */
clprim_status clprim__chain_fill(clprim_context *ctx, clprim__chain *c, cl_mem mem, size_t offset,
                                 size_t bytes);
clprim_status clprim__chain_copy(clprim_context *ctx, clprim__chain *c, cl_mem src,
                                 size_t src_offset, cl_mem dst, size_t dst_offset, size_t bytes);
clprim_status clprim__chain_kernel(clprim_context *ctx, clprim__chain *c, cl_kernel k,
                                   size_t groups, size_t wg_size);

/* One buffer argument of a call, as the validate helper checks it. */
typedef struct clprim__call_buffer {
    const char *name;      /* the parameter's name, for messages ("in", "out", ...) */
    cl_mem mem;
    size_t off, count;     /* in elements */
    size_t elem;           /* bytes per element; 0: the call's element */
    int written;           /* the call writes it: it must be writable and overlap
                              no other buffer of the call (but see in_place) */
} clprim__call_buffer;

#define CLPRIM__MAX_CALL_BUFFERS 6
#define CLPRIM__MAX_CALL_TEMPS 4

/* What a primitive's call is made of, for clprim__launch_run: the
 * primitive fills it from its descriptor and arguments (data, no code). */
typedef struct clprim__call {
    const void *desc;                 /* the descriptor (must not be NULL) */
    clprim_type type;                 /* the element: built-in (type, op) ... */
    clprim_op op;
    const clprim_operator *custom;    /* ... or the caller's operator ... */
    const clprim_element *element;    /* ... or the caller's element type (no operator) */
    int algorithm;                    /* desc->algorithm ... */
    int algorithm_count;              /* ... must be below this ... */
    const char *algorithm_enum;       /* ... else "desc->algorithm %d is not a <this>" */
    cl_command_queue queue;           /* the caller's (NULL: the context's) */
    cl_uint num_wait;
    const cl_event *wait;
    int num_buffers;
    clprim__call_buffer buffers[CLPRIM__MAX_CALL_BUFFERS];
    int in_place;                     /* buffers[0] (in) and [1] (out) may be one range;
                                         2: [2] and [3] too (a sort's values) */
} clprim__call;

/* One call being enqueued: its element, chain and temporary memory. */
typedef struct clprim__launch {
    clprim_context *ctx;
    clprim__element elem;
    clprim__chain chain;
    int num_temps;
    clprim__pool_buf *temps[CLPRIM__MAX_CALL_TEMPS];
} clprim__launch;

/* What a primitive does once its call is validated: choose parameters, get
 * its program, take temporary memory (clprim__launch_temp) and enqueue its
 * commands on l->chain. args: the primitive's own arguments. Lock held. */
typedef clprim_status (*clprim__launch_body)(clprim__launch *l, const void *args);

/* A whole call of a primitive: *event set to NULL, ctx checked, the lock
 * taken; the call validated as c describes (descriptor, element, algorithm
 * range, queue and wait list, every buffer against CL_MEM_SIZE, in that
 * order), its chain started; body run; temporary memory handed back, and
 * the chain's last event given to *event on success (a marker when nothing
 * was enqueued). */
/* Whether `queue` (NULL: the context's) runs its commands in order: a
 * pool buffer held across several public calls goes back on it. */
int clprim__queue_in_order(clprim_context *ctx, cl_command_queue queue);
clprim_status clprim__launch_run(clprim_context *ctx, const clprim__call *c,
                                 clprim__launch_body body, const void *args, cl_event *event);
/* The same for a caller that holds the lock already (a blocking helper
 * that keeps it around the call and its read-back). */
clprim_status clprim__launch_run_locked(clprim_context *ctx, const clprim__call *c,
                                        clprim__launch_body body, const void *args,
                                        cl_event *event);
/* Lock held. Temporary memory for the rest of the call (handed back when
 * the call ends). */
clprim_status clprim__launch_temp(clprim__launch *l, size_t bytes, clprim__pool_buf **buf);
/* Lock held. Hands back the temporary memory taken since l->num_temps was
 * `mark`, for a primitive that repeats a step within one call (the later
 * commands of an in-order chain may use it again at once). `st` is the
 * status of the work that used it: state kept in that memory (a single
 * pass's look-back) is trusted again only when st is CLPRIM_SUCCESS, since
 * its zero-fill or its commands may never have run. */
void clprim__launch_temps_release(clprim__launch *l, int mark, clprim_status st);

/* Lock held. A transform that changes the element size refused where in
 * and out are one buffer (the message every call gives). */
clprim_status clprim__check_transform_in_place(clprim__launch *l, const clprim_transform *tf,
                                               cl_mem in, cl_mem out);

/* Lock held. Kernel `name` of prog with its arguments args[0 .. count)
 * (clprim__set_args), enqueued on l's chain as groups x wg work-items;
 * CLPRIM__LAUNCH_KERNEL takes the count from the array. */
clprim_status clprim__launch_kernel(clprim__launch *l, clprim__program *prog, const char *name,
                                    const clprim__arg *args, size_t count, size_t groups,
                                    size_t wg);
#define CLPRIM__LAUNCH_KERNEL(l, prog, name, args, groups, wg)                                  \
    clprim__launch_kernel(l, prog, name, args, CLPRIM__NUM_ARGS(args), groups, wg)
/* Lock held. The status array of a single-pass kernel's look-back
 * (cl/common/abi.h's layout) in temporary memory for the rest of the call:
 * `tiles` tiles carrying values of value_size bytes in `words` status
 * words each (0: value slots). *generation is this call's first of
 * `generations` (one per look-back pass over the same array); the array is
 * zeroed first (on l's chain) when the pool cannot vouch for its words. */
clprim_status clprim__launch_tile_state(clprim__launch *l, size_t tiles, size_t words,
                                        size_t value_size, cl_uint generations, cl_mem *state,
                                        cl_uint *generation);
/* Lock held. `bytes` of temporary memory for the rest of the call that its
 * kernels leave zero after each use (reduce_fast's counter): zeroed first
 * (on l's chain) only when the pool cannot vouch for it, like a tile state
 * but of a layout of its own and with no generation. */
clprim_status clprim__launch_reset_state(clprim__launch *l, size_t bytes, cl_mem *state);

/* Blocking helpers: a device buffer of `bytes` (at least 1) holding a copy
 * of host memory `src` (NULL: uninitialised), and the copy back; failures
 * are recorded with what failed. Take the lock for their messages. */
clprim_status clprim__host_buffer_unlocked(clprim_context *ctx, size_t bytes, const void *src,
                                           cl_mem *mem);
clprim_status clprim__host_read_unlocked(clprim_context *ctx, cl_mem mem, size_t bytes, void *dst,
                                         cl_uint num_wait, const cl_event *wait);

/* ---- what primitives offer each other (scan.c) ---- */

/* Lock held. A scan enqueued as part of another primitive's call l (its
 * chain and temporary memory); the buffers are the caller's own (not
 * checked again). */
clprim_status clprim__scan_within(clprim__launch *l, const clprim_scan_desc *d, cl_mem in,
                                  size_t in_off, cl_mem out, size_t out_off, size_t n);

/* ---- what segment.c offers the segmented sort ---- */

/* The descriptor of a call's segments, checked (lock not held): kind,
 * type, the fields of other kinds refused. */
clprim_status clprim__segments_check(clprim_context *ctx, const clprim_segments *s);
/* Bytes per entry of the segments buffer, and the entries a call of n
 * elements reads (0 for a bad descriptor). */
size_t clprim__segments_unit(const clprim_segments *s);
size_t clprim__segments_count(const clprim_segments *s, size_t n);
/* The blocking helpers' segments: checked (offsets rising from 0 to n)
 * and copied to a new buffer *mem, described by *dev. */
clprim_status clprim__segments_host(clprim_context *ctx, const clprim_segments *s,
                                    const void *host, size_t n, clprim_segments *dev,
                                    cl_mem *mem);

/* ---- the primitives' tuning rows (scan_tuning.c, reduce_tuning.c, ...) ---- */

/* The structs come from the parameter lists in tuning_params.h, where each
 * parameter is described once. */
#define CLPRIM__KIND_U unsigned
#define CLPRIM__KIND_W unsigned
#define CLPRIM__KIND_Z size_t
#define CLPRIM__KIND_E int
#define CLPRIM__MEMBER(S, field, kind, knob, least, most, doc) CLPRIM__KIND_##kind field;

typedef struct clprim__scan_tuning {
    CLPRIM__SCAN_PARAMS(CLPRIM__MEMBER, S)
    const char *source; /* which tuning row, and where its numbers came from */
} clprim__scan_tuning;

/* The row for the device and element size, with the development knobs
 * applied (CLPRIM_WG_SIZE, ...) and work-group sizes clamped to what the
 * device allows. scan.c still clamps to its local memory. */
clprim__scan_tuning clprim__scan_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n);

typedef struct clprim__reduce_tuning {
    CLPRIM__REDUCE_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
} clprim__reduce_tuning;

clprim__reduce_tuning clprim__reduce_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n);

typedef struct clprim__compact_tuning {
    CLPRIM__COMPACT_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
} clprim__compact_tuning;

/* heads: for unique and run-length encoding (heads_items, heads_groups_per_cu) */
clprim__compact_tuning clprim__compact_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n,
                                                  int heads);

typedef struct clprim__segment_tuning {
    CLPRIM__SEGMENT_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
} clprim__segment_tuning;

clprim__segment_tuning clprim__segment_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n,
                                                  int reduce);

typedef struct clprim__sat_tuning {
    CLPRIM__SAT_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
    unsigned test_silent; /* tests: strip 0 never publishes (a switch, not a row value) */
} clprim__sat_tuning;

clprim__sat_tuning clprim__sat_tuning_for(const clprim_context *ctx, size_t elem_size, size_t n);

typedef struct clprim__sort_tuning {
    CLPRIM__SORT_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
} clprim__sort_tuning;

/* pairs: a sort with values (pairs_items) */
clprim__sort_tuning clprim__sort_tuning_for(const clprim_context *ctx, size_t key_size, size_t n,
                                            int pairs);

typedef struct clprim__search_tuning {
    CLPRIM__SEARCH_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
} clprim__search_tuning;

/* key_size: bytes per key (search.c fits the samples to local memory). */
clprim__search_tuning clprim__search_tuning_for(const clprim_context *ctx, size_t key_size,
                                                size_t n);

typedef struct clprim__histogram_tuning {
    CLPRIM__HISTOGRAM_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
} clprim__histogram_tuning;

/* sample_size: bytes per sample. */
clprim__histogram_tuning clprim__histogram_tuning_for(const clprim_context *ctx,
                                                      size_t sample_size, size_t n);

typedef struct clprim__merge_tuning {
    CLPRIM__MERGE_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
} clprim__merge_tuning;

/* key_size: bytes per key (merge.c fits the tile to local memory); pairs:
 * the call has values (items is then the row's pairs_items). */
clprim__merge_tuning clprim__merge_tuning_for(const clprim_context *ctx, size_t key_size,
                                              size_t n, int pairs);

typedef struct clprim__top_k_tuning {
    CLPRIM__TOP_K_PARAMS(CLPRIM__MEMBER, S)
    const char *source;
} clprim__top_k_tuning;

/* key_size: bytes per key (top_k.c fits the digit and the tile to local
 * memory). */
clprim__top_k_tuning clprim__top_k_tuning_for(const clprim_context *ctx, size_t key_size,
                                              size_t n);

/* ---- top-k's SAMPLE_FILTER (top_k_filter.c), for top_k.c ---- */

/* One call's sample and candidates (cl/top_k_abi.h): s keys sampled, the
 * threshold the pick-th of them sorted, room for cap candidates; the held
 * buffer's layout in bytes (the count at 0, the gate at uint
 * TOPKF_GATE_WORD). */
typedef struct clprim__top_k_filter {
    size_t samples, pick, cap;
    size_t pos;                       /* bytes per index and count: 4, or 8 (wide) */
    size_t sample_at, keys_at, idx_at, bytes;
    clprim__top_k_tuning t;
} clprim__top_k_filter;

/* The plan for k of n keys of key_size bytes (0 < k < n); wide: 64-bit
 * indices and count. */
clprim__top_k_filter clprim__top_k_filter_plan(const clprim_context *ctx, size_t key_size,
                                               size_t n, size_t k, int wide);
/* Lock held. A top-k program (top_k.cl or top_k_filter.cl) with the build
 * defines they share (cl/top_k_types.clh) and `more` ("#define ..." lines). */
clprim_status clprim__top_k_program(clprim__launch *l, const char *file,
                                    const clprim__top_k_tuning *t, int wide, size_t value_size,
                                    const char *more, clprim__program **prog);
/* Whether AUTO takes SAMPLE_FILTER for k of n keys (the tuning row's rule). */
int clprim__top_k_filter_auto(const clprim_context *ctx, size_t key_size, size_t n, size_t k);

/* A call's buffers and shape, as the steps need them. */
typedef struct clprim__top_k_io {
    cl_mem keys, values, keys_out, values_out, held;
    size_t keys_off, values_off, keys_out_off, values_out_off, n, k, key_size, value_size;
    cl_uint kmode;
} clprim__top_k_io;

/* The steps, enqueued on l's chain (lock held): SAMPLE the sample (and the
 * count zeroed), FILTER the pass over the input and the settling after it
 * (the gate; the room past the count filled: cl/top_k_abi.h), PICK the
 * first k of the sorted candidates to the output where the gate is open.
 * Nothing waits on the host. */
enum { CLPRIM__TOP_K_SAMPLE, CLPRIM__TOP_K_FILTER, CLPRIM__TOP_K_PICK };
clprim_status clprim__top_k_filter_step(clprim__launch *l, const clprim__top_k_filter *f,
                                        const clprim__top_k_io *io, int step);

/* ---- sort.c's keys, shape and program, for the segmented sort ---- */

/* What a sort descriptor says about the keys. */
typedef struct clprim__sort_keys {
    size_t size;         /* bytes per key */
    cl_uint kmode;       /* SORT_KIND_* | SORT_DESCENDING */
    unsigned begin, end; /* the bit range sorted by */
    int wide;            /* 64-bit positions (n >= 2^32) */
} clprim__sort_keys;

/* The shape of one sort on this device. */
typedef struct clprim__sort_plan {
    clprim_sort_algorithm algo;
    clprim__sort_tuning t;
    unsigned items, btile;
    int match, sources;
    int stage;      /* one-sweep passes place values in local memory beside their keys */
    int kind_fixed; /* the key kind and direction compiled into the program */
} clprim__sort_plan;

/* Lock held. Checks the key type, bit range and value size. */
clprim_status clprim__sort_keys_of(clprim_context *ctx, const clprim_sort_desc *d, size_t n,
                                   clprim__sort_keys *f);
/* The tile fitted to local memory less extra_local bytes and
 * extra_per_key per key of the tile (either nonzero: the kernels keep
 * sources). */
clprim__sort_plan clprim__sort_plan_of(const clprim_context *ctx, const clprim_sort_desc *d,
                                       const clprim__sort_keys *f, size_t n, size_t extra_local,
                                       size_t extra_per_key);
/* The blocking sort helpers' shared part: desc, keys and values checked,
 * copied to new buffers, sorted there in place by sort(ctx, desc, keys,
 * values (NULL without values), n, arg), read back; the buffers released. */
typedef clprim_status (*clprim__sort_in_place)(clprim_context *ctx, const clprim_sort_desc *desc,
                                               cl_mem keys, cl_mem values, size_t n,
                                               const void *arg);
clprim_status clprim__sort_host_with(clprim_context *ctx, const clprim_sort_desc *desc, void *keys,
                                    void *values, size_t n, clprim__sort_in_place sort,
                                    const void *arg);
/* The sort program of kernel file `file` for f, value_size and p, its
 * kernel bound_entry bounded to the row's max_regs. */
clprim_status clprim__sort_program(clprim__launch *l, const char *file, const char *bound_entry,
                                   const clprim__sort_keys *f, size_t value_size,
                                   const clprim__sort_plan *p, clprim__program **prog);

#endif /* CLPRIM_INTERNAL_H */

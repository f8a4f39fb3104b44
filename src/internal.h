/* Declarations shared between clprim's source files (never installed). */
#ifndef CLPRIM_INTERNAL_H
#define CLPRIM_INTERNAL_H

#include "clprim.h"

#include <pthread.h>
#include <stdarg.h>

#if defined(__GNUC__)
#define CLPRIM__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLPRIM__PRINTF(f, a)
#endif

/* ---- element types and operators (types.c) ---- */

/* Appends the element layer's defines (T, T_SIZE, OP, IDENTITY, and the fp64
 * pragma for double) to buf. Returns 0, or -1 when buf is too small. */
int clprim__element_defines(clprim_type type, clprim_op op, char *buf, size_t size);

/* The element layer of one call: a built-in (type, op) or a custom operator. */
typedef struct clprim__element {
    size_t size;          /* bytes per element, host and device */
    int builtin;          /* CLPRIM_T_BUILTIN: vector loads, packed tile status */
    const char *defines;  /* the define header: `own` or the operator's */
    char own[512];
} clprim__element;

/* Lock held. Checks a descriptor's element (custom operator of this context,
 * else a known type and operator the device can run) and fills *e. */
clprim_status clprim__element_resolve(clprim_context *ctx, clprim_type type, clprim_op op,
                                      const clprim_operator *custom, clprim__element *e);
/* Bytes per element of a descriptor's element, 0 when unknown (no checks). */
size_t clprim__element_size(clprim_type type, const clprim_operator *custom);

/* ---- kernel sources (generated from cl/ by tools/embed_cl.cmake) ---- */

typedef struct clprim__cl_file {
    const char *name; /* path relative to cl/, e.g. "common/elem.clh" */
    const char *text;
} clprim__cl_file;
extern const clprim__cl_file clprim__cl_files[];
extern const size_t clprim__cl_file_count;

/* ---- tuning (tuning.c) ---- */

typedef struct clprim__tuning {
    unsigned wg_size;      /* work-items per work-group (power of two, multiple of SIMD width) */
    unsigned coarse_items; /* elements per work-item of the taught coarsened scan */
    unsigned tile_items;   /* elements per work-item of the tuned multilevel tile */
    unsigned sp_tile_items; /* elements per work-item of the single-pass tile */
    unsigned lookback_spins; /* polls of a predecessor's status before the fallback */
    unsigned reduce_groups_per_cu; /* reduce_fast's grid: work-groups per compute unit */
    unsigned sp_groups_per_cu; /* single pass's grid: work-groups per compute unit, each
                                  scanning tiles until none is left (0: one per tile) */
    unsigned sp_wg_size;   /* the single pass's work-group size: its program is built
                              with this as WG_SIZE (the same value: one program) */
    unsigned sp_max_regs;  /* NVIDIA: registers per work-item the single pass is
                              bounded to (build.c), 0: the compiler's choice */
    clprim_scan_algorithm scan_auto; /* what AUTO runs */
    size_t single_pass_max_n; /* AUTO's single-pass choice holds up to this n,
                                 MULTILEVEL above (measured crossover) */
    const char *source;    /* which tuning row, and where its numbers came from */
    unsigned sp_prefetch;  /* not a row value: set per element by the scan driver
                              (1: the single pass prefetches and loops over tiles) */
} clprim__tuning;

/* The parameters for the device and element size, from the tuning table
 * (device -> vendor -> device type -> default), with the development knobs
 * applied (CLPRIM_WG_SIZE, ...) and the work-group sizes clamped to a power of two the device
 * allows, at least one SIMD group. Each primitive still clamps to its own local memory. */
clprim__tuning clprim__tuning_for(const clprim_device_info *dev, size_t elem_size);

/* ---- temporary-memory pool (pool.c) ---- */

typedef struct clprim__pool_buf clprim__pool_buf;
typedef struct clprim__pool {
    clprim__pool_buf *bufs;
} clprim__pool;

/* Lock held. Returns a buffer of at least `bytes` that commands enqueued on
 * `queue` after this call may use. */
clprim_status clprim__pool_acquire(clprim_context *ctx, cl_command_queue queue,
                                   size_t bytes, clprim__pool_buf **buf);
cl_mem clprim__pool_mem(const clprim__pool_buf *buf);
size_t clprim__pool_size(const clprim__pool_buf *buf);
/* Single-pass scans keep tile status in a pooled buffer from call to call,
 * told apart by an epoch. `layout` names where the status lies (any value
 * that differs whenever state words could fall on another call's values).
 * Returns this call's epoch (>= 1); sets *needs_zero when the contents are
 * unknown (new buffer, last used for other data or another layout, or the
 * epoch wrapped) and the caller must zero-fill it before use. */
cl_uint clprim__pool_epoch(clprim__pool_buf *buf, cl_ulong layout, int *needs_zero);
/* Lock held. Hands the buffer back; `done` completes when the last command
 * using it, on `queue`, does. `done` may be NULL (no events were made, on an
 * in-order queue): the buffer is then reused only on that queue until idle
 * surplus is released (pool.c). */
void clprim__pool_release(clprim__pool_buf *buf, cl_command_queue queue, int in_order,
                          cl_event done);
void clprim__pool_destroy(clprim__pool *pool);

/* ---- programs (build.c) ---- */

typedef struct clprim__program clprim__program;

/* Lock held. Builds (or finds in the context's cache) the program made of the
 * define header `defines`, the common headers and cl/<file>, with the tuning
 * values of *t appended as defines. If the device cannot run a kernel of the
 * program with t->wg_size work-items, the program is rebuilt with the largest
 * power of two it can. */
clprim_status clprim__program_get(clprim_context *ctx, const char *file,
                                  const char *defines, const clprim__tuning *t,
                                  clprim__program **prog);
/* The tuning the program was actually built with. */
const clprim__tuning *clprim__program_tuning(const clprim__program *prog);
/* Lock held. The program's kernel of that name (created once, then cached). */
clprim_status clprim__program_kernel(clprim_context *ctx, clprim__program *prog,
                                     const char *name, cl_kernel *kernel);
void clprim__program_cache_destroy(clprim__program *first);
/* Builds a program from source, through the disk cache (no tuning: used by
 * clprim__program_get and the probes). On a device that compiles to PTX and
 * with regs > 0, kernel `entry` is bounded to regs registers per work-item
 * (NULL, 0: no bound). On failure the build log is in the last error. */
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

/* ---- on-disk program cache (disk_cache.c) ---- */

/* The cache folder the options and environment choose (heap), or NULL when
 * the disk cache is off. */
char *clprim__cache_dir(const clprim_context_options *opt);
/* Lock held. The cache entry of (source, options): its key text (heap) and
 * its file's path in path[]; NULL when the disk cache is off (or memory is
 * short). One key serves the load and, on a miss, the store. */
char *clprim__cache_key(const clprim_context *ctx, const char *source, const char *options,
                        char *path, size_t path_size);
/* Lock held. A program built from the entry's cached binary, or *program =
 * NULL on a miss (never an error). */
void clprim__cache_load(clprim_context *ctx, const char *key, const char *path,
                        const char *options, cl_program *program);
/* Lock held. Keeps the built program's binary in the entry for later
 * processes. */
void clprim__cache_store(clprim_context *ctx, const char *key, const char *path,
                         cl_program program);

/* ---- device facts (device.c) ---- */

/* Fills *info from the device; simd_width may be left 0 when only a kernel can
 * tell (see clprim__probe_simd_width). */
clprim_status clprim__device_probe(cl_device_id dev, unsigned flags,
                                   clprim_device_info *info);
/* Lock held. Sets info.simd_width from a probe kernel's preferred work-group
 * size multiple when no device attribute gave it. */
clprim_status clprim__probe_simd_width(clprim_context *ctx);

/* ---- the context ---- */

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
    clprim__pool pool;
    char *cache_dir;      /* on-disk program cache folder, NULL when off */
    unsigned long cache_writes;
};

/* Lock held (or ctx not yet shared). Records a failure message and returns
 * status, so that `return clprim__fail(ctx, CLPRIM_X, "...")` reads well. */
clprim_status clprim__fail(clprim_context *ctx, clprim_status status,
                           const char *fmt, ...) CLPRIM__PRINTF(3, 4);
/* The same for callers that do not hold the lock (argument checks of the
 * blocking helpers before they take it). */
clprim_status clprim__fail_locked(clprim_context *ctx, clprim_status status,
                                  const char *fmt, ...) CLPRIM__PRINTF(3, 4);
/* printf into a new heap string; NULL when out of memory. */
char *clprim__format(const char *fmt, ...) CLPRIM__PRINTF(1, 2);
/* Appends text (e.g. a build log) to the last failure's message. */
void clprim__fail_append(clprim_context *ctx, const char *text);
void clprim__log(const clprim_context *ctx, int level, const char *fmt, ...)
    CLPRIM__PRINTF(3, 4);

/* Checks that `mem` is a buffer of the context holding (off + n) elements of
 * `elem` bytes; `what` names the argument in the message. Lock held. */
clprim_status clprim__check_buffer(clprim_context *ctx, const char *what, cl_mem mem,
                                   size_t off, size_t n, size_t elem);
/* Checks a queue argument (NULL -> the context's queue) and a wait list. */
clprim_status clprim__check_queue(clprim_context *ctx, cl_command_queue *queue,
                                  cl_uint num_wait, const cl_event *wait);

/* Sets a kernel's first `count` arguments (sizes[i] bytes at values[i]). */
clprim_status clprim__set_args(clprim_context *ctx, cl_kernel k, int count, const size_t *sizes,
                               const void *const *values);

/* ---- enqueue helper: a chain of kernels forming one library call ---- */

typedef struct clprim__chain {
    cl_command_queue queue;
    int out_of_order;      /* chain each command to the previous one */
    cl_uint num_wait;      /* caller's wait list, for the first command */
    const cl_event *wait;
    cl_event last;         /* event of the last command enqueued, or NULL */
    int need_events;       /* keep events (out-of-order queue, caller's event,
                              pooled memory to hand back); else none are made */
} clprim__chain;

clprim_status clprim__chain_begin(clprim__chain *c, cl_command_queue queue,
                                  cl_uint num_wait, const cl_event *wait);
clprim_status clprim__chain_fill(clprim_context *ctx, clprim__chain *c, cl_mem mem,
                                 size_t bytes);
clprim_status clprim__chain_kernel(clprim_context *ctx, clprim__chain *c, cl_kernel k,
                                   size_t groups, size_t wg_size);
/* Gives the chain's last event to *event (or a marker on the wait list when
 * nothing was enqueued), or releases it when event is NULL. */
clprim_status clprim__chain_end(clprim_context *ctx, clprim__chain *c, cl_event *event);

#endif /* CLPRIM_INTERNAL_H */

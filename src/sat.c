/* SPDX-License-Identifier: MIT */
/* Summed-area tables (2-D scans) and box filters: validation of the 2-D
 * arguments, the choice of algorithm and form, and the enqueue. The
 * launch layer checks the descriptor's element, queue and buffers; the
 * contract with the kernels is cl/sat_abi.h. */
#include "internal.h"

#include "common/abi.h"
#include "sat_abi.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One table to build: the image (pixels of `input`), the table and its
 * form. */
typedef struct sat_job {
    clprim_pixel_type input;
    int exclusive, algorithm;
    int is_float; /* a float or double table (box filters divide in it) */
    clprim_type type; /* the table's type, when built-in */
    cl_mem in, out;
    size_t in_off, in_pitch, out_off, out_pitch, width, height;
    int portable; /* PORTABLE: the program without fused multiply-adds */
} sat_job;

/* The arguments of one call: a table, or a box filter (from a table, or
 * from an image through a table of its own). */
typedef struct sat_args {
    sat_job job;
    int box, from_image, sum;
    size_t radius_x, radius_y;
    const clprim_sat_desc *desc; /* a table's descriptor (NULL for a box filter) */
} sat_args;

/* Elements of a row-major block of rows x cols with that pitch; 0 with
 * *overflow set when it does not fit size_t. */
static size_t block_count(size_t rows, size_t cols, size_t pitch, int *overflow)
{
    if (!rows || !cols)
        return 0;
    if (rows - 1 > (SIZE_MAX - cols) / (pitch ? pitch : 1)) {
        *overflow = 1;
        return 0;
    }
    return (rows - 1) * pitch + cols;
}

/* The 2-D arguments, before the launch layer sees the buffers (lock not
 * held): pitches against widths, sizes that fit. */
static clprim_status check_shape(clprim_context *ctx, const char *in_name, size_t in_pitch,
                                 size_t in_cols, size_t out_pitch, size_t out_cols,
                                 size_t width, size_t height)
{
    if (in_pitch < in_cols)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "%s_pitch %zu is less than the %zu elements of a row",
                                     in_name, in_pitch, in_cols);
    if (out_pitch < out_cols)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "out_pitch %zu is less than the %zu elements of a row",
                                     out_pitch, out_cols);
    if (width >= SIZE_MAX / 16 || height >= SIZE_MAX / 16)
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "%zu x %zu is too large", width,
                                     height);
    return CLPRIM_SUCCESS;
}

/* The pixel type's build lines: the element layer's transform, converting
 * each pixel to the table's type (NULL: none needed) as clprim.h states:
 * into an integer table saturating (convert_T_sat, and _rtz from floats
 * with NaN made 0: a cast's out-of-range and NaN results are undefined,
 * its narrowing into a signed type implementation-defined; NVIDIA's cvt
 * saturates anyway, so this costs a NaN test there); into a float or
 * double table as a cast (round to nearest even, convert_T's default). */
static clprim_status pixel_params(clprim_context *ctx, clprim_pixel_type input, clprim_type table,
                                  int builtin, char **params)
{
    static const struct { const char *cl; int is_float; } types[] = {
#define CLPRIM__XX(NAME, num, name, cl, host, size, sgn, flt) [num] = {#cl, flt},
        CLPRIM_TYPE_MAP(CLPRIM__XX)
#undef CLPRIM__XX
    };
    const int float_pixel = input == CLPRIM_PIXEL_FLOAT || input == CLPRIM_PIXEL_DOUBLE;
    char expression[80];
    *params = NULL;
    if (input == CLPRIM_PIXEL_SAME)
        return CLPRIM_SUCCESS;
    if (!builtin)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "a custom operator's table is built from its own type: "
                            "desc->input must be SAME, not %s", clprim_pixel_type_name(input));
    if (input == CLPRIM_PIXEL_DOUBLE && !ctx->info.has_fp64)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "double pixels need cl_khr_fp64, which %s lacks",
                            ctx->info.device_name);
    if ((unsigned)table >= CLPRIM_TYPE_COUNT_) /* the launch layer refuses it */
        return clprim__fail(ctx, CLPRIM_UNKNOWN_TYPE, "desc->type %d is not a clprim_type",
                            (int)table);
    /* NaN: 0 said outright, as OpenCL only says it "should" be; NVIDIA's
     * convert_long_sat_rtz and convert_ulong_sat_rtz give 2^63 (H100) */
    if (float_pixel && !types[table].is_float)
        snprintf(expression, sizeof expression, "isnan(x) ? (%s)0 : convert_%s_sat_rtz(x)",
                 types[table].cl, types[table].cl);
    else
        snprintf(expression, sizeof expression, "convert_%s%s(x)", types[table].cl,
                 types[table].is_float ? "" : "_sat");
    *params = clprim__input_defines(clprim__pixel_type_cl(input), input == CLPRIM_PIXEL_DOUBLE,
                                    "pixel conversion", expression);
    return *params ? CLPRIM_SUCCESS
                   : clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
}

/* The tuning row with the form the device can run: a warp across a strip
 * needs its shuffles (cl/common/simd.clh's condition), else the serial
 * form; a caller's type moves one column at a time. */
static clprim__sat_tuning sat_tuning(const clprim_context *ctx, const clprim__element *e)
{
    clprim__sat_tuning t = clprim__sat_tuning_for(ctx, e->size, (size_t)-1);
    if (t.lanes != 32 || !(ctx->info.has_nv_ptx && ctx->info.simd_width == 32 &&
                           e->size % 4 == 0 && e->size <= 32 && t.wg_size % 32 == 0))
        t.lanes = t.wg_size = 1;
    if (!e->builtin)
        t.cols = 1;
    while (t.wg_size > 32 &&
           SAT_LOCAL_BYTES((size_t)t.wg_size, t.lanes, t.cols, e->size) + 1024 >
               ctx->info.local_mem_size)
        t.wg_size /= 2;
    return t;
}

/* The program for this element, pixel type and form (one program holds
 * every kernel of sat.cl). */
static clprim_status sat_program(clprim__launch *l, clprim_pixel_type input, clprim_type type,
                                 int is_float, int portable, const clprim__sat_tuning *t,
                                 clprim__program **prog)
{
    clprim_context *ctx = l->ctx;
    clprim__program_spec spec = {
        .file = "sat.cl", .element = l->elem.defines, .wg_size = t->wg_size, .tuning = t->source};
    char *pixel, *params, *uncontracted = NULL;
    clprim_status st = pixel_params(ctx, input, type, l->elem.builtin, &pixel);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (portable) {
        spec.element = uncontracted = clprim__element_uncontracted(l->elem.defines);
        if (!uncontracted) {
            free(pixel);
            return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
        }
    }
    params = clprim__format("%s#define SAT_LANES %u\n#define SAT_COLS %u\n#define SAT_ROWS %u\n"
                            "#define LOOKBACK_SPINS %u\n#define SAT_T_FLOAT %d\n"
                            "#define SAT_CHAINED %u\n#define SAT_TEST_SILENT %u\n"
                            "#define SAT_WINDOW %u\n",
                            pixel ? pixel : "", t->lanes, t->cols, t->rows, t->lookback_spins,
                            is_float, t->chained, t->test_silent, t->window);
    free(pixel);
    if (!params) {
        free(uncontracted);
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    spec.params = params;
    st = clprim__program_get(ctx, &spec, prog);
    free(params);
    free(uncontracted);
    return st;
}

/* Whether every row (from element off, pitch elements apart) starts at a
 * multiple of cols elements, so that the kernel may load and store cols
 * elements as one vector (a buffer's own start is aligned). */
static int row_starts_aligned(size_t off, size_t pitch, unsigned cols)
{
    return off % cols == 0 && pitch % cols == 0;
}

/* Enqueues the table of j on the launch's chain (validated already). */
static clprim_status sat_enqueue(clprim__launch *l, const sat_job *j)
{
    clprim_context *ctx = l->ctx;
    const clprim__sat_tuning t = sat_tuning(ctx, &l->elem);
    const cl_ulong in_off = j->in_off, in_pitch = j->in_pitch, out_off = j->out_off,
                   out_pitch = j->out_pitch, width = j->width, height = j->height;
    int algorithm = j->algorithm;
    cl_uint sflags = j->exclusive ? SAT_EXCLUSIVE : 0;
    clprim__program *prog;
    clprim_status st;

    if (algorithm == CLPRIM_SAT_AUTO)
        algorithm = ctx->info.has_single_pass ? t.sat_auto : CLPRIM_SAT_ROWS_THEN_COLUMNS;
    if (algorithm == CLPRIM_SAT_DECOUPLED_LOOKBACK && !ctx->info.has_single_pass)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "DECOUPLED_LOOKBACK needs cl_khr_int64_base_atomics; %s lacks it",
                            ctx->info.device_name);
    if (!j->exclusive && (!width || !height))
        return CLPRIM_SUCCESS;
    st = sat_program(l, j->input, j->type, j->is_float, j->portable, &t, &prog);
    if (st == CLPRIM_SUCCESS && j->exclusive) {
        const clprim__arg args[] = {CLPRIM__ARG(j->out), CLPRIM__ARG(out_off),
                                    CLPRIM__ARG(out_pitch), CLPRIM__ARG(width),
                                    CLPRIM__ARG(height)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sat_border", args,
                                   (size_t)(width + height + t.plain_wg) / t.plain_wg, t.plain_wg);
    }
    if (st != CLPRIM_SUCCESS || !width || !height)
        return st;
    if (algorithm == CLPRIM_SAT_ROWS_THEN_COLUMNS) {
        const clprim__arg rows[] = {CLPRIM__ARG(j->in),     CLPRIM__ARG(in_off),
                                    CLPRIM__ARG(in_pitch),  CLPRIM__ARG(j->out),
                                    CLPRIM__ARG(out_off),   CLPRIM__ARG(out_pitch),
                                    CLPRIM__ARG(width),     CLPRIM__ARG(height),
                                    CLPRIM__ARG(sflags)};
        const clprim__arg cols[] = {CLPRIM__ARG(j->out),    CLPRIM__ARG(out_off),
                                    CLPRIM__ARG(out_pitch), CLPRIM__ARG(width),
                                    CLPRIM__ARG(height),    CLPRIM__ARG(sflags)};
        st = CLPRIM__LAUNCH_KERNEL(l, prog, "sat_rows", rows,
                                   (size_t)(height + t.plain_wg - 1) / t.plain_wg, t.plain_wg);
        if (st == CLPRIM_SUCCESS)
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "sat_columns", cols,
                                       (size_t)(width + t.plain_wg - 1) / t.plain_wg, t.plain_wg);
        return st;
    }
    {
        const unsigned wg = clprim__program_wg_size(prog);
        const unsigned lanes = wg == t.wg_size ? t.lanes : 0;
        const cl_ulong tile_w = (cl_ulong)t.lanes * t.cols;
        const cl_ulong strips = (width + tile_w - 1) / tile_w;
        cl_mem state = NULL;
        cl_uint generation = 0;
        if (!lanes) /* the device could not run the work-group the form needs */
            return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                                "the single-pass table needs %u work-items per work-group; %s "
                                "runs %u", t.wg_size, ctx->info.device_name, wg);
        if (height > (cl_ulong)SIZE_MAX / 8 / strips || strips > 0xFFFFFFFFu)
            return clprim__fail(ctx, CLPRIM_OUT_OF_BOUNDS, "%llu strips of %llu rows are too many",
                                (unsigned long long)strips, (unsigned long long)height);
        if (row_starts_aligned(j->in_off, j->in_pitch, t.cols))
            sflags |= SAT_IN_VEC;
        if (row_starts_aligned(j->out_off + (j->exclusive ? j->out_pitch + 1 : 0), j->out_pitch,
                               t.cols))
            sflags |= SAT_OUT_VEC;
        if (strips == 1)
            sflags |= SAT_ONE_STRIP;
        else
            st = clprim__launch_tile_state(l, (size_t)(height * strips),
                                           l->elem.builtin ? l->elem.size / 4 : 0, l->elem.size,
                                           1, &state, &generation);
        if (st == CLPRIM_SUCCESS) {
            const clprim__arg args[] = {CLPRIM__ARG(j->in),      CLPRIM__ARG(in_off),
                                        CLPRIM__ARG(in_pitch),   CLPRIM__ARG(j->out),
                                        CLPRIM__ARG(out_off),    CLPRIM__ARG(out_pitch),
                                        CLPRIM__ARG(width),      CLPRIM__ARG(height),
                                        CLPRIM__ARG(strips),     CLPRIM__ARG(state),
                                        CLPRIM__ARG(generation), CLPRIM__ARG(sflags)};
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "sat_single_pass", args, (size_t)strips, wg);
        }
        return st;
    }
}

/* One table, validated by the launch layer. */
static clprim_status sat_body(clprim__launch *l, const void *args)
{
    const sat_args *a = args;
    const clprim_sat_desc *d = a->desc;
    sat_job j = a->job;
    clprim_repro level;
    /* RUN_TO_RUN and PORTABLE: rows then columns, each row and then each
     * column folded in order by one work-item, whose every sum has one
     * order on any device (PORTABLE: and no fused multiply-add, so that
     * the same operator rounds the same everywhere); the look-back's row
     * sums would need the ordered walk, not wired here yet */
    clprim_status st = clprim__repro_check(l->ctx, d->repro, d->type, d->op, d->custom,
                                           j.algorithm == CLPRIM_SAT_DECOUPLED_LOOKBACK
                                               ? CLPRIM_REPRO_NONE
                                               : CLPRIM_REPRO_PORTABLE,
                                           j.algorithm == CLPRIM_SAT_DECOUPLED_LOOKBACK
                                               ? "the DECOUPLED_LOOKBACK summed-area table"
                                               : "the summed-area table",
                                           &level);
    if (st != CLPRIM_SUCCESS)
        return st;
    if (level != CLPRIM_REPRO_NONE)
        j.algorithm = CLPRIM_SAT_ROWS_THEN_COLUMNS;
    j.portable = level == CLPRIM_REPRO_PORTABLE;
    return sat_enqueue(l, &j);
}

/* One box filter, validated by the launch layer: from an image, its
 * exclusive table first, in temporary memory. */
static clprim_status box_body(clprim__launch *l, const void *args)
{
    const sat_args *a = args;
    const clprim__sat_tuning t = sat_tuning(l->ctx, &l->elem);
    const cl_ulong width = a->job.width, height = a->job.height, rx = a->radius_x,
                   ry = a->radius_y;
    cl_ulong table_off = a->job.in_off, table_pitch = a->job.in_pitch, out_off = a->job.out_off,
             out_pitch = a->job.out_pitch;
    cl_uint sflags = a->sum ? SAT_BOX_SUM : 0;
    cl_mem table = a->job.in;
    clprim__program *prog;
    clprim_status st = CLPRIM_SUCCESS;

    if (!width || !height)
        return CLPRIM_SUCCESS;
    if (a->from_image) {
        sat_job j = a->job;
        clprim__pool_buf *buf;
        st = clprim__launch_temp(l, (size_t)((width + 1) * (height + 1)) * l->elem.size, &buf);
        if (st != CLPRIM_SUCCESS)
            return st;
        j.out = table = clprim__pool_mem(buf);
        j.out_off = 0;
        j.out_pitch = (size_t)width + 1;
        j.exclusive = 1;
        table_off = 0;
        table_pitch = width + 1;
        st = sat_enqueue(l, &j);
    }
    if (st == CLPRIM_SUCCESS)
        st = sat_program(l, a->from_image ? a->job.input : CLPRIM_PIXEL_SAME, a->job.type,
                         a->job.is_float, 0, &t, &prog);
    if (st == CLPRIM_SUCCESS) {
        const clprim__arg args[] = {CLPRIM__ARG(table),     CLPRIM__ARG(table_off),
                                    CLPRIM__ARG(table_pitch), CLPRIM__ARG(a->job.out),
                                    CLPRIM__ARG(out_off),   CLPRIM__ARG(out_pitch),
                                    CLPRIM__ARG(width),     CLPRIM__ARG(height),
                                    CLPRIM__ARG(rx),        CLPRIM__ARG(ry),
                                    CLPRIM__ARG(sflags)};
        const cl_ulong span = (cl_ulong)t.plain_wg * SAT_BOX_X;
        const cl_ulong groups = (width + span - 1) / span * height;
        if (groups > 0xFFFFFFFFu)
            st = clprim__fail(l->ctx, CLPRIM_OUT_OF_BOUNDS, "a %llu x %llu box filter is too "
                              "large for one grid", (unsigned long long)width,
                              (unsigned long long)height);
        else
            st = CLPRIM__LAUNCH_KERNEL(l, prog, "box_filter", args, (size_t)groups, t.plain_wg);
    }
    return st;
}

static int type_is_float(clprim_type t)
{
    return t == CLPRIM_TYPE_FLOAT || t == CLPRIM_TYPE_DOUBLE;
}

/* The launch layer's description of a call: the source and the output as
 * 2-D blocks, with their element counts. */
static clprim_status run(clprim_context *ctx, cl_command_queue queue, const void *desc,
                         clprim_type type, clprim_op op, const clprim_operator *custom,
                         const sat_args *a, size_t in_cols, size_t in_rows, size_t out_cols,
                         size_t out_rows, size_t out_elem, cl_uint num_wait,
                         const cl_event *wait, cl_event *event)
{
    const sat_job *j = &a->job;
    const size_t in_elem = j->input != CLPRIM_PIXEL_SAME ? clprim_pixel_type_size(j->input) : 0;
    int overflow = 0;
    const size_t in_n = block_count(in_rows, in_cols, j->in_pitch, &overflow);
    const size_t out_n = block_count(out_rows, out_cols, j->out_pitch, &overflow);
    clprim__call call = {.desc = desc,
                         .type = type,
                         .op = op,
                         .custom = custom,
                         .algorithm = a->box ? 0 : j->algorithm,
                         .algorithm_count = a->box ? 1 : CLPRIM_SAT_ALGORITHM_COUNT_,
                         .algorithm_enum = "clprim_sat_algorithm",
                         .queue = queue,
                         .num_wait = num_wait,
                         .wait = wait,
                         .num_buffers = 2,
                         .buffers = {{.name = a->box ? "src" : "in",
                                      .mem = j->in,
                                      .off = j->in_off,
                                      .count = in_n,
                                      .elem = in_elem},
                                     {.name = "out",
                                      .mem = j->out,
                                      .off = j->out_off,
                                      .count = out_n,
                                      .elem = out_elem,
                                      .written = 1}}};
    clprim_status st;
    if (event)
        *event = NULL;
    if ((unsigned)j->input >= CLPRIM_PIXEL_TYPE_COUNT_)
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE,
                                     "desc->input %d is not a clprim_pixel_type", (int)j->input);
    if (custom && clprim__handle_live(custom) && !custom->commutative) /* dead: launch says */
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "a summed-area table combines in no single order: "
                                     "desc->custom must be created with "
                                     "CLPRIM_OPERATOR_COMMUTATIVE");
    st = check_shape(ctx, a->box ? "src" : "in", j->in_pitch, in_cols, j->out_pitch, out_cols,
                     j->width, j->height);
    if (st == CLPRIM_SUCCESS && overflow)
        st = clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS,
                                   "%s_pitch %zu or out_pitch %zu elements times %zu rows "
                                   "overflows size_t", a->box ? "src" : "in", j->in_pitch,
                                   j->out_pitch, in_rows > out_rows ? in_rows : out_rows);
    if (st != CLPRIM_SUCCESS)
        return st;
    return clprim__launch_run(ctx, &call, a->box ? box_body : sat_body, a, event);
}

clprim_status clprim_sat(clprim_context *ctx, cl_command_queue queue, const clprim_sat_desc *desc,
                         cl_mem in, size_t in_off, size_t in_pitch, cl_mem out, size_t out_off,
                         size_t out_pitch, size_t width, size_t height, cl_uint num_wait,
                         const cl_event *wait, cl_event *event)
{
    const int ex = desc && desc->exclusive;
    sat_args a = {{desc ? desc->input : CLPRIM_PIXEL_SAME, ex, desc ? (int)desc->algorithm : 0,
                   desc && !desc->custom && type_is_float(desc->type),
                   desc ? desc->type : CLPRIM_TYPE_INT32, in, out, in_off, in_pitch, out_off,
                   out_pitch, width, height, 0},
                  0, 0, 0, 0, 0, desc};
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    /* an exclusive table of an empty image is still its border */
    return run(ctx, queue, desc, desc ? desc->type : 0, desc ? desc->op : 0,
               desc ? desc->custom : NULL, &a, width, height, width + ex,
               (width || height || ex) ? height + ex : 0, 0, num_wait, wait, event);
}

clprim_status clprim_box_filter(clprim_context *ctx, cl_command_queue queue,
                                const clprim_box_desc *desc, cl_mem src, size_t src_off,
                                size_t src_pitch, cl_mem out, size_t out_off, size_t out_pitch,
                                size_t width, size_t height, cl_uint num_wait,
                                const cl_event *wait, cl_event *event)
{
    const int from_image = desc && desc->from_image;
    const size_t empty = !width || !height;
    sat_args a = {{from_image ? desc->input : CLPRIM_PIXEL_SAME, 1, CLPRIM_SAT_AUTO,
                   desc && type_is_float(desc->type), desc ? desc->type : CLPRIM_TYPE_INT32, src,
                   out, src_off, src_pitch, out_off, out_pitch, width, height, 0},
                  1, from_image, desc && desc->sum, desc ? desc->radius_x : 0,
                  desc ? desc->radius_y : 0, NULL};
    /* an empty image: nothing to read or write */
    const size_t src_cols = empty ? 0 : width + !from_image, src_rows = empty ? 0 : height + !from_image;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (desc && !from_image && desc->input != CLPRIM_PIXEL_SAME) /* refused, not ignored */
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                     "desc->input: the pixel type of an image (from_image 1); a "
                                     "table is of desc->type (leave input SAME)");
    return run(ctx, queue, desc, desc ? desc->type : 0, CLPRIM_OP_SUM, NULL, &a, src_cols,
               src_rows, empty ? 0 : width, empty ? 0 : height, sizeof(cl_float), num_wait, wait,
               event);
}

/* ---- blocking helpers ---- */

/* Copies rows x cols elements of elem bytes from a tight device block to a
 * host block of row pitch `pitch` (the host's gaps between rows stay as
 * they were). */
static clprim_status read_rows(clprim_context *ctx, cl_mem mem, size_t rows, size_t cols,
                               size_t elem, void *dst, size_t pitch)
{
    unsigned char *tight;
    clprim_status st;
    if (!rows || !cols)
        return CLPRIM_SUCCESS;
    if (pitch == cols)
        return clprim__host_read_unlocked(ctx, mem, rows * cols * elem, dst, 0, NULL);
    tight = clprim__malloc(rows * cols * elem);
    if (!tight)
        return clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    st = clprim__host_read_unlocked(ctx, mem, rows * cols * elem, tight, 0, NULL);
    for (size_t r = 0; st == CLPRIM_SUCCESS && r < rows; ++r)
        memcpy((unsigned char *)dst + r * pitch * elem, tight + r * cols * elem, cols * elem);
    free(tight);
    return st;
}

/* The shared part of the helpers: the source block on the device (its own
 * pitch kept), a tight output block, the call, the copy back. */
static clprim_status host_call(clprim_context *ctx, const void *desc, int box, const void *src,
                               size_t src_elem, size_t src_pitch, size_t src_cols,
                               size_t src_rows, void *dst, size_t dst_elem, size_t dst_pitch,
                               size_t dst_cols, size_t dst_rows, size_t width, size_t height)
{
    int overflow = 0;
    const size_t src_n = block_count(src_rows, src_cols, src_pitch, &overflow);
    cl_mem in = NULL, out = NULL;
    clprim_status st = CLPRIM_SUCCESS;

    if (!desc || (src_n && !src) || (dst_rows && dst_cols && !dst))
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc, %s or out is NULL",
                                     box ? "src" : "in");
    if (!src_elem || !dst_elem)
        return clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE, "desc's types are not clprim types");
    if (src_pitch < src_cols || dst_pitch < dst_cols)
        st = check_shape(ctx, box ? "src" : "in", src_pitch, src_cols, dst_pitch, dst_cols, width,
                         height);
    else if (overflow || src_n > SIZE_MAX / src_elem ||
             (dst_rows && dst_cols > SIZE_MAX / dst_rows / dst_elem))
        st = clprim__fail_unlocked(ctx, CLPRIM_OUT_OF_BOUNDS, "%zu x %zu overflows size_t", width,
                                   height);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, src_n * src_elem, src, &in);
    if (st == CLPRIM_SUCCESS)
        st = clprim__host_buffer_unlocked(ctx, dst_rows * dst_cols * dst_elem, NULL, &out);
    if (st == CLPRIM_SUCCESS)
        st = box ? clprim_box_filter(ctx, NULL, desc, in, 0, src_pitch, out, 0, dst_cols, width,
                                     height, 0, NULL, NULL)
                 : clprim_sat(ctx, NULL, desc, in, 0, src_pitch, out, 0, dst_cols, width, height, 0,
                              NULL, NULL);
    if (st == CLPRIM_SUCCESS)
        st = read_rows(ctx, out, dst_rows, dst_cols, dst_elem, dst, dst_pitch);
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    return st;
}

clprim_status clprim_sat_host(clprim_context *ctx, const clprim_sat_desc *desc, const void *in,
                              size_t in_pitch, void *out, size_t out_pitch, size_t width,
                              size_t height)
{
    size_t elem, pixel;
    int ex;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    ex = desc->exclusive != 0;
    elem = clprim__element_size(desc->type, desc->custom);
    pixel = desc->input == CLPRIM_PIXEL_SAME ? elem : clprim_pixel_type_size(desc->input);
    return host_call(ctx, desc, 0, in, pixel, in_pitch, width, height, out, elem, out_pitch,
                     width + ex, (width || height || ex) ? height + ex : 0, width, height);
}

clprim_status clprim_box_filter_host(clprim_context *ctx, const clprim_box_desc *desc,
                                     const void *src, size_t src_pitch, float *out,
                                     size_t out_pitch, size_t width, size_t height)
{
    size_t elem, pixel;
    int table;
    if (!ctx)
        return CLPRIM_INVALID_ARGUMENT;
    if (!desc)
        return clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL");
    if (!width || !height)
        return CLPRIM_SUCCESS;
    table = !desc->from_image;
    elem = clprim__element_size(desc->type, NULL);
    pixel = table || desc->input == CLPRIM_PIXEL_SAME ? elem : clprim_pixel_type_size(desc->input);
    return host_call(ctx, desc, 1, src, pixel, src_pitch, width + table, height + table, out,
                     sizeof(cl_float), out_pitch, width, height, width, height);
}

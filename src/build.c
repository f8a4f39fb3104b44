/* Program assembly and building, with an in-memory cache per context.
 *
 * Source = generated #define header (element layer + tuning + device facts)
 *        + every cl/common/ header, #line-tagged
 *        + the kernel file, #line-tagged.
 * Kernel text is embedded in the library at build time; CLPRIM_KERNEL_DIR
 * may point at a cl/ folder to load it from disk instead (for development).
 * Built binaries are also kept on disk for later processes (disk_cache.c). */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 16

struct clprim__program {
    char *key;           /* what was asked for: file, defines, requested tuning */
    clprim__tuning t;    /* what it was built with */
    cl_program program;
    cl_uint num_kernels;
    cl_kernel kernels[MAX_KERNELS];
    char *names[MAX_KERNELS];
    clprim__program *next;
};

/* A growable string; on allocation failure it stays NULL and appends are dropped. */
typedef struct text {
    char *s;
    size_t len, cap;
    int failed;
} text;

static void text_add(text *t, const char *s, size_t n)
{
    if (t->failed)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        char *p;
        while (cap < t->len + n + 1)
            cap *= 2;
        p = realloc(t->s, cap);
        if (!p) {
            t->failed = 1;
            return;
        }
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void text_str(text *t, const char *s)
{
    text_add(t, s, strlen(s));
}

/* Appends cl/<name>, #line-tagged, from CLPRIM_KERNEL_DIR or the embedded copy. */
static clprim_status add_file(clprim_context *ctx, text *t, const char *name)
{
    const char *dir = getenv("CLPRIM_KERNEL_DIR");
    size_t i;

    text_str(t, "#line 1 \"");
    text_str(t, name);
    text_str(t, "\"\n");
    if (dir && *dir) {
        char path[4096], buf[8192];
        size_t got;
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        f = fopen(path, "rb");
        if (!f)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "CLPRIM_KERNEL_DIR is set but %s cannot be read", path);
        while ((got = fread(buf, 1, sizeof buf, f)) > 0)
            text_add(t, buf, got);
        fclose(f);
        text_str(t, "\n");
        return CLPRIM_SUCCESS;
    }
    for (i = 0; i < clprim__cl_file_count; ++i)
        if (strcmp(clprim__cl_files[i].name, name) == 0) {
            text_str(t, clprim__cl_files[i].text);
            text_str(t, "\n");
            return CLPRIM_SUCCESS;
        }
    return clprim__fail(ctx, CLPRIM_INTERNAL, "kernel source %s is not embedded", name);
}

char *clprim__ptx_bound_registers(const char *ptx, size_t len, const char *entry, unsigned regs)
{
    char head[160], line[32], *out;
    const char *e, *end = ptx + len, *at;
    size_t hl, ll;

    if (!ptx || !entry || !regs || strlen(entry) > 120)
        return NULL;
    snprintf(head, sizeof head, ".entry %s(", entry);
    hl = strlen(head);
    /* the entry's header runs from ".entry name(" to its body's "{" */
    for (e = ptx; e + hl <= end && memcmp(e, head, hl) != 0; ++e)
        ;
    if (e + hl > end)
        return NULL;
    for (at = e; at < end && *at != '{'; ++at)
        if (*at == '.' && (size_t)(end - at) >= 8 && memcmp(at, ".maxnreg", 8) == 0)
            return NULL; /* bounded already: leave it alone */
    if (at == end)
        return NULL;
    snprintf(line, sizeof line, ".maxnreg %u\n", regs);
    ll = strlen(line);
    out = malloc(len + ll + 1);
    if (!out)
        return NULL;
    memcpy(out, ptx, (size_t)(at - ptx));
    memcpy(out + (at - ptx), line, ll);
    memcpy(out + (at - ptx) + ll, at, (size_t)(end - at));
    out[len + ll] = '\0';
    return out;
}

cl_int clprim__build_binary(clprim_context *ctx, const unsigned char *bin, size_t len,
                            const char *options, cl_program *out)
{
    cl_int err, status = CL_SUCCESS;
    cl_program p = clCreateProgramWithBinary(ctx->cl_ctx, 1, &ctx->device, &len, &bin, &status,
                                             &err);
    if (err == CL_SUCCESS)
        err = status;
    if (err == CL_SUCCESS)
        err = clBuildProgram(p, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS && p) {
        clReleaseProgram(p);
        p = NULL;
    }
    *out = p;
    return err;
}

/* NVIDIA's OpenCL compiler leaves register allocation to its PTX assembler,
 * and takes no bound from the source or from -cl-nv-maxrregcount (measured:
 * H100, driver 580.159, the option changes nothing). Its program binary is
 * the PTX text, so the bound goes where CUDA's __launch_bounds__ puts it: a
 * .maxnreg directive in the entry's header, and the program is rebuilt from
 * that binary. Anything unexpected keeps the program as built. */
static void bound_registers(clprim_context *ctx, const char *options, const char *entry,
                            unsigned regs, cl_program *program)
{
    size_t len = 0;
    unsigned char *bin = NULL;
    char *ptx = NULL;
    cl_int err;
    cl_program p;

    if (clGetProgramInfo(*program, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) !=
            CL_SUCCESS ||
        !len || !(bin = malloc(len)) ||
        clGetProgramInfo(*program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS)
        goto cleanup;
    while (len && !bin[len - 1])
        --len; /* the text's terminating zero, if the driver counts it */
    ptx = clprim__ptx_bound_registers((const char *)bin, len, entry, regs);
    if (!ptx)
        goto cleanup;
    err = clprim__build_binary(ctx, (const unsigned char *)ptx, strlen(ptx) + 1, options, &p);
    if (err != CL_SUCCESS) {
        clprim__log(ctx, CLPRIM_LOG_DEBUG, "%s not bounded: the driver rejected the edited PTX (%s)",
                    entry, clprim_status_string(err));
        goto cleanup;
    }
    clReleaseProgram(*program);
    *program = p;
    clprim__log(ctx, CLPRIM_LOG_DEBUG, "%s bounded to %u registers", entry, regs);
cleanup:
    if (!ptx)
        clprim__log(ctx, CLPRIM_LOG_DEBUG, "%s not bounded: no PTX entry to edit", entry);
    free(ptx);
    free(bin);
}

clprim_status clprim__build_source(clprim_context *ctx, const char *source, const char *entry,
                                   unsigned regs, cl_program *out)
{
    /* CLPRIM_BUILD_OPTIONS (development knob) is appended: -D overrides of
     * kernel defaults */
    char options[512], key_options[700], path[4096];
    const char *extra = getenv("CLPRIM_BUILD_OPTIONS");
    char *key, *log = NULL;
    clprim_status st = CLPRIM_SUCCESS;
    cl_int err;
    cl_program p = NULL;

    *out = NULL;
    if (!ctx->info.has_nv_ptx || !entry)
        regs = 0;
    snprintf(options, sizeof options, "-cl-std=CL1.2 %s", extra ? extra : "");
    /* the register bound changes the binary, not the source: part of the key */
    if (regs)
        snprintf(key_options, sizeof key_options, "%s [%s .maxnreg %u]", options, entry, regs);
    else
        snprintf(key_options, sizeof key_options, "%s", options);
    key = clprim__cache_key(ctx, source, key_options, path, sizeof path);
    if (key)
        clprim__cache_load(ctx, key, path, options, out);
    if (*out)
        goto cleanup;
    p = clCreateProgramWithSource(ctx->cl_ctx, 1, &source, NULL, &err);
    if (err != CL_SUCCESS) {
        st = clprim__fail(ctx, err, "clCreateProgramWithSource failed: %s",
                          clprim_status_string(err));
        goto cleanup;
    }
    err = clBuildProgram(p, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t len = 0;
        st = err == CL_BUILD_PROGRAM_FAILURE ? CLPRIM_BUILD_FAILED : err;
        clprim__fail(ctx, st, "building a kernel program for %s failed (%s); build log:\n",
                     ctx->info.device_name, clprim_status_string(err));
        if (clGetProgramBuildInfo(p, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) ==
                CL_SUCCESS &&
            (log = malloc(len + 1)) != NULL &&
            clGetProgramBuildInfo(p, ctx->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) ==
                CL_SUCCESS) {
            log[len] = '\0';
            clprim__fail_append(ctx, log);
        }
        goto cleanup;
    }
    if (regs)
        bound_registers(ctx, options, entry, regs, &p);
    if (key)
        clprim__cache_store(ctx, key, path, p);
    *out = p;
    p = NULL;
cleanup:
    if (p)
        clReleaseProgram(p);
    free(log);
    free(key);
    return st;
}

/* Releases the OpenCL objects of p, leaving it ready for another build. */
static void program_clear(clprim__program *p)
{
    cl_uint i;
    for (i = 0; i < p->num_kernels; ++i) {
        clReleaseKernel(p->kernels[i]);
        free(p->names[i]);
    }
    p->num_kernels = 0;
    if (p->program)
        clReleaseProgram(p->program);
    p->program = NULL;
}

static void program_free(clprim__program *p)
{
    if (!p)
        return;
    program_clear(p);
    free(p->key);
    free(p);
}

/* Builds the program with tuning *t; on success fills p's program and kernels
 * and sets *max_wg to the smallest CL_KERNEL_WORK_GROUP_SIZE among them. */
static clprim_status build_once(clprim_context *ctx, const char *file, const char *defines,
                                clprim__program *p, size_t *max_wg)
{
    static const char *const common[] = {"common/elem.clh", "common/simd.clh",
                                         "common/wg_scan.clh", "common/lookback.clh"};
    const clprim__tuning *t = &p->t;
    text src = {0};
    char head[512];
    clprim_status st = CLPRIM_SUCCESS;
    cl_uint i;
    size_t k;

    snprintf(head, sizeof head,
             "#define WG_SIZE %u\n#define COARSE_ITEMS %u\n#define TILE_ITEMS %u\n#define SP_TILE_ITEMS %u\n"
             "#define SIMD_WIDTH %u\n#define LOCAL_BANKS %u\n#define CLPRIM_NV_PTX %d\n"
             "#define LOOKBACK_SPINS %u\n#define CLPRIM_SINGLE_PASS %d\n#define SP_PREFETCH %u\n"
             "#define CLPRIM_ASSEMBLED 1\n",
             t->wg_size, t->coarse_items, t->tile_items, t->sp_tile_items, ctx->info.simd_width,
             ctx->info.local_mem_banks, ctx->info.has_nv_ptx, t->lookback_spins,
             ctx->info.has_single_pass, t->sp_prefetch);
    text_str(&src, defines);
    text_str(&src, head);
    for (k = 0; k < sizeof common / sizeof common[0] && st == CLPRIM_SUCCESS; ++k)
        st = add_file(ctx, &src, common[k]);
    if (st == CLPRIM_SUCCESS)
        st = add_file(ctx, &src, file);
    if (st == CLPRIM_SUCCESS && src.failed)
        st = clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    if (st != CLPRIM_SUCCESS)
        goto cleanup;
    clprim__log(ctx, CLPRIM_LOG_DEBUG, "building %s (work-group %u) for %s", file, t->wg_size,
                ctx->info.device_name);
    /* the row's register bound is the single pass's (its other kernels stay
     * well below it) */
    st = clprim__build_source(ctx, src.s, strcmp(file, "scan.cl") ? NULL : "scan_single_pass",
                              t->sp_max_regs, &p->program);
    if (st != CLPRIM_SUCCESS)
        goto cleanup;
    st = clCreateKernelsInProgram(p->program, MAX_KERNELS, p->kernels, &p->num_kernels);
    if (st != CL_SUCCESS) {
        p->num_kernels = 0;
        clprim__fail(ctx, st, "clCreateKernelsInProgram failed for %s", file);
        goto cleanup;
    }
    *max_wg = (size_t)-1;
    for (i = 0; i < p->num_kernels; ++i) {
        char name[128] = "";
        size_t wg = 0;
        clGetKernelInfo(p->kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
        p->names[i] = malloc(strlen(name) + 1);
        if (p->names[i])
            strcpy(p->names[i], name);
        clGetKernelWorkGroupInfo(p->kernels[i], ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof wg, &wg, NULL);
        if (wg < *max_wg)
            *max_wg = wg;
    }
cleanup:
    free(src.s);
    return st;
}

clprim_status clprim__program_get(clprim_context *ctx, const char *file, const char *defines,
                                  const clprim__tuning *t, clprim__program **out)
{
    clprim__program *p;
    char *key;
    size_t key_size = strlen(file) + strlen(defines) + 600, max_wg = 0;
    clprim_status st;

    key = malloc(key_size);
    if (!key)
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    snprintf(key, key_size, "%s|%u|%u|%u|%u|%u|%u|%u|%s|%s", file, t->wg_size, t->coarse_items,
             t->tile_items, t->sp_tile_items, t->lookback_spins, t->sp_prefetch, t->sp_max_regs, getenv("CLPRIM_BUILD_OPTIONS") ? getenv("CLPRIM_BUILD_OPTIONS") : "",
             defines);
    for (p = ctx->programs; p; p = p->next)
        if (strcmp(p->key, key) == 0) {
            free(key);
            *out = p;
            return CLPRIM_SUCCESS;
        }
    p = calloc(1, sizeof *p);
    if (!p) {
        free(key);
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    p->key = key;
    p->t = *t;
    for (;;) {
        st = build_once(ctx, file, defines, p, &max_wg);
        if (st != CLPRIM_SUCCESS || max_wg >= p->t.wg_size)
            break;
        /* the compiled kernels cannot run this many work-items (registers):
         * rebuild with the largest power of two they can */
        clprim__log(ctx, CLPRIM_LOG_INFO, "%s: work-group %u exceeds the kernel limit %zu; rebuilding",
                    file, p->t.wg_size, max_wg);
        while (p->t.wg_size > 1 && p->t.wg_size > max_wg)
            p->t.wg_size /= 2;
        program_clear(p);
    }
    if (st != CLPRIM_SUCCESS) {
        program_free(p);
        return st;
    }
    clprim__log(ctx, CLPRIM_LOG_DEBUG, "%s ready (%u kernels)", file, p->num_kernels);
    p->next = ctx->programs;
    ctx->programs = p;
    *out = p;
    return CLPRIM_SUCCESS;
}

const clprim__tuning *clprim__program_tuning(const clprim__program *prog)
{
    return &prog->t;
}

clprim_status clprim__program_kernel(clprim_context *ctx, clprim__program *prog,
                                     const char *name, cl_kernel *kernel)
{
    cl_uint i;
    for (i = 0; i < prog->num_kernels; ++i)
        if (prog->names[i] && strcmp(prog->names[i], name) == 0) {
            *kernel = prog->kernels[i];
            return CLPRIM_SUCCESS;
        }
    return clprim__fail(ctx, CLPRIM_INTERNAL, "kernel %s missing from its program", name);
}

void clprim__program_cache_destroy(clprim__program *first)
{
    clprim__program *next;
    for (; first; first = next) {
        next = first->next;
        program_free(first);
    }
}

/* SPDX-License-Identifier: MIT */
/* Program assembly and building, with an in-memory cache per context. The
 * build step knows no primitive: each describes its program (files, element
 * and tuning defines, work-group size, register bound) in a
 * clprim__program_spec.
 *
 * Source = generated #define header (element layer + device facts + the
 *          primitive's values)
 *        + the shared layers of cl/common/ (contract, element, SIMD group,
 *          work-group), #line-tagged
 *        + the primitive's files (its contract header, the single-pass layer
 *          if it needs it, its kernel file), #line-tagged.
 * Kernel text is embedded in the library at build time; CLPRIM_KERNEL_DIR
 * may point at a cl/ folder to load it from disk instead (for development).
 * Built binaries are also kept on disk for later processes (disk_cache.c). */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 16

struct clprim__program {
    char *key;           /* what was asked for: files, defines, work-group size */
    unsigned wg_size;    /* what it was built with */
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
        p = clprim__realloc(t->s, cap);
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

/* cl/<name> from CLPRIM_KERNEL_DIR (into *owned, heap) or the embedded copy. */
static clprim_status load_file(clprim_context *ctx, const char *name, const char **out,
                               char **owned)
{
    const char *dir = getenv("CLPRIM_KERNEL_DIR");
    size_t i;

    *owned = NULL;
    if (dir && *dir) {
        char path[4096], buf[8192];
        size_t got;
        text t = {0};
        FILE *f;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        f = fopen(path, "rb");
        if (!f)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "CLPRIM_KERNEL_DIR is set but %s cannot be read", path);
        while ((got = fread(buf, 1, sizeof buf, f)) > 0)
            text_add(&t, buf, got);
        fclose(f);
        if (t.failed || !t.s) {
            free(t.s);
            return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
        }
        *out = *owned = t.s;
        return CLPRIM_SUCCESS;
    }
    for (i = 0; i < clprim__cl_file_count; ++i)
        if (strcmp(clprim__cl_files[i].name, name) == 0) {
            *out = clprim__cl_files[i].text;
            return CLPRIM_SUCCESS;
        }
    return clprim__fail(ctx, CLPRIM_INTERNAL, "kernel source %s is not embedded", name);
}

/* The files already in a program's text, each once. */
#define MAX_PROGRAM_FILES 32
typedef struct included {
    unsigned count;
    char names[MAX_PROGRAM_FILES][64];
} included;

static int was_included(const included *inc, const char *name)
{
    unsigned i;
    for (i = 0; i < inc->count; ++i)
        if (!strcmp(inc->names[i], name))
            return 1;
    return 0;
}

/* Appends cl/<name>, #line-tagged, after the files it includes that are not
 * in the text yet (depth first, as the preprocessor would reach them): a
 * file's own #include lines are its list of sources, so no program lists
 * them again. The text defines CLPRIM_ASSEMBLED, which turns those lines
 * off. An include names a file relative to the including one's folder. */
static clprim_status add_file(clprim_context *ctx, text *t, const char *name, included *inc,
                              unsigned depth)
{
    const char *body, *line, *slash = strrchr(name, '/');
    char *owned = NULL;
    clprim_status st;

    if (was_included(inc, name))
        return CLPRIM_SUCCESS;
    if (depth > 8 || inc->count == MAX_PROGRAM_FILES || strlen(name) >= sizeof inc->names[0])
        return clprim__fail(ctx, CLPRIM_INTERNAL, "kernel source %s: includes too deep", name);
    st = load_file(ctx, name, &body, &owned);
    for (line = body; st == CLPRIM_SUCCESS && line && *line;) {
        const char *p = line, *q, *end = strchr(line, '\n');
        while (*p == ' ' || *p == '\t')
            ++p;
        if (!strncmp(p, "#include \"", 10) && (q = strchr(p + 10, '"')) != NULL &&
            (!end || q < end)) {
            char dep[64];
            const int folder = slash ? (int)(slash - name + 1) : 0;
            if (snprintf(dep, sizeof dep, "%.*s%.*s", folder, name, (int)(q - (p + 10)), p + 10) >=
                (int)sizeof dep)
                st = clprim__fail(ctx, CLPRIM_INTERNAL, "kernel source %s: include too long", name);
            else
                st = add_file(ctx, t, dep, inc, depth + 1);
        }
        line = end ? end + 1 : NULL;
    }
    if (st == CLPRIM_SUCCESS && !was_included(inc, name)) {
        strcpy(inc->names[inc->count++], name);
        text_str(t, "#line 1 \"");
        text_str(t, name);
        text_str(t, "\"\n");
        text_str(t, body);
        text_str(t, "\n");
    }
    free(owned);
    return st;
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
    out = clprim__malloc(len + ll + 1);
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

/* A program from the disk cache's entry (CL_SUCCESS), or a miss: no entry,
 * or one the driver rejected (rebuilt from source and replaced). */
static cl_int cache_load(clprim_context *ctx, const char *key, const char *path,
                         const char *options, cl_program *out)
{
    size_t len = 0;
    unsigned char *bin = clprim__cache_read(ctx, key, path, &len);
    cl_int err = CL_INVALID_BINARY;

    *out = NULL;
    if (!bin)
        return err;
    err = clprim__build_binary(ctx, bin, len, options, out);
    if (err != CL_SUCCESS)
        clprim__log(ctx, CLPRIM_LOG_WARNING,
                    "disk cache: the driver rejected the binary in %s (%s); rebuilding", path,
                    clprim_status_string(err));
    else
        clprim__log(ctx, CLPRIM_LOG_DEBUG, "disk cache: hit %s", path);
    free(bin);
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

    bin = clprim__program_binary(ctx, *program, &len);
    if (!bin)
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

/* A program built in the context of our device alone (ctx->build_ctx),
 * made again in the caller's context from its binary. */
static cl_int into_context(clprim_context *ctx, const char *options, cl_program *program)
{
    size_t len = 0;
    unsigned char *bin;
    cl_program p;
    cl_int err;

    if (!ctx->build_ctx)
        return CL_SUCCESS;
    bin = clprim__program_binary(ctx, *program, &len);
    if (!bin)
        return CL_INVALID_PROGRAM_EXECUTABLE;
    err = clprim__build_binary(ctx, bin, len, options, &p);
    free(bin);
    if (err == CL_SUCCESS) {
        clReleaseProgram(*program);
        *program = p;
    }
    return err;
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
    if (key && cache_load(ctx, key, path, options, out) == CL_SUCCESS)
        goto cleanup;
    p = clCreateProgramWithSource(ctx->build_ctx ? ctx->build_ctx : ctx->cl_ctx, 1, &source,
                                  NULL, &err);
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
            (log = clprim__malloc(len + 1)) != NULL &&
            clGetProgramBuildInfo(p, ctx->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) ==
                CL_SUCCESS) {
            log[len] = '\0';
            clprim__fail_append(ctx, log);
        }
        goto cleanup;
    }
    err = into_context(ctx, options, &p);
    if (err != CL_SUCCESS) {
        st = clprim__fail(ctx, err, "moving a program built for %s into the caller's cl_context "
                          "(from its binary) failed: %s", ctx->info.device_name,
                          clprim_status_string(err));
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

/* NVIDIA's driver lists no kernels (clCreateKernelsInProgram:
 * CL_INVALID_KERNEL_DEFINITION; CL_PROGRAM_KERNEL_NAMES fails too) of a
 * program for any device but the first of a multi-device cl_context, while
 * clCreateKernel by name works (H200 x 2, driver 580.159). The names are
 * the PTX binary's ".entry NAME(" directives. */
static cl_int kernels_by_entry(clprim_context *ctx, clprim__program *p)
{
    size_t len = 0, k;
    unsigned char *bin = clprim__program_binary(ctx, p->program, &len);
    const char *at, *end;
    cl_int err = CL_INVALID_KERNEL_DEFINITION;

    p->num_kernels = 0;
    if (!bin)
        return err;
    end = (const char *)bin + len;
    for (at = (const char *)bin; at + 7 < end && p->num_kernels < MAX_KERNELS; ++at) {
        char name[128];
        if (memcmp(at, ".entry ", 7) != 0)
            continue;
        at += 7;
        for (k = 0; at < end && k + 1 < sizeof name && *at != '(' && *at != ' ' && *at != '\n';
             ++at)
            name[k++] = *at;
        name[k] = '\0';
        if (!k)
            continue;
        p->kernels[p->num_kernels] = clCreateKernel(p->program, name, &err);
        if (err != CL_SUCCESS)
            break;
        ++p->num_kernels;
    }
    free(bin);
    if (err == CL_SUCCESS && p->num_kernels)
        return CL_SUCCESS;
    while (p->num_kernels)
        clReleaseKernel(p->kernels[--p->num_kernels]);
    return err == CL_SUCCESS ? CL_INVALID_KERNEL_DEFINITION : err;
}

/* Builds the program of spec with p->wg_size work-items per work-group; on
 * success fills p's program and kernels and sets *max_wg to the smallest
 * CL_KERNEL_WORK_GROUP_SIZE among them. */
static clprim_status build_once(clprim_context *ctx, const clprim__program_spec *spec,
                                clprim__program *p, size_t *max_wg)
{
    /* every program gets the element, SIMD-group and work-group layers;
     * then the primitive's kernel file after what it includes (its ABI
     * header, what it defines for the single-pass layer to carry, then
     * common/lookback.clh) */
    static const char *const common[] = {"common/abi.h", "common/elem.clh", "common/simd.clh",
                                         "common/wg_scan.clh"};
    included inc = {0};
    text src = {0};
    char head[320];
    clprim_status st = CLPRIM_SUCCESS;
    cl_uint i;
    size_t k;

    /* the device's facts; the primitive's own values come in spec->params */
    snprintf(head, sizeof head,
             "#define WG_SIZE %u\n#define SIMD_WIDTH %u\n#define LOCAL_BANKS %u\n"
             "#define CLPRIM_NV_PTX %d\n#define CLPRIM_SINGLE_PASS %d\n#define CLPRIM_ASSEMBLED 1\n"
             "#define CLPRIM_SUBGROUPS %d\n#define CLPRIM_REQD_SUB_GROUP %u\n",
             p->wg_size, ctx->info.simd_width, ctx->info.local_mem_banks, ctx->info.has_nv_ptx,
             ctx->info.has_single_pass, ctx->subgroup_form, ctx->reqd_sub_group);
    text_str(&src, spec->element);
    text_str(&src, head);
    if (spec->params)
        text_str(&src, spec->params);
    for (k = 0; k < sizeof common / sizeof common[0] && st == CLPRIM_SUCCESS; ++k)
        st = add_file(ctx, &src, common[k], &inc, 0);
    if (st == CLPRIM_SUCCESS)
        st = add_file(ctx, &src, spec->file, &inc, 0);
    if (st == CLPRIM_SUCCESS && src.failed)
        st = clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    if (st != CLPRIM_SUCCESS)
        goto cleanup;
    clprim__log(ctx, CLPRIM_LOG_DEBUG, "building %s (work-group %u; tuning: %s) for %s",
                spec->file, p->wg_size, spec->tuning ? spec->tuning : "none",
                ctx->info.device_name);
    st = clprim__build_source(ctx, src.s, spec->bound_entry, spec->bound_regs, &p->program);
    if (st != CLPRIM_SUCCESS)
        goto cleanup;
    st = clCreateKernelsInProgram(p->program, MAX_KERNELS, p->kernels, &p->num_kernels);
    if (st == CL_INVALID_KERNEL_DEFINITION && ctx->info.has_nv_ptx)
        st = kernels_by_entry(ctx, p);
    if (st != CL_SUCCESS) {
        p->num_kernels = 0;
        clprim__fail(ctx, st, "clCreateKernelsInProgram failed for %s", spec->file);
        goto cleanup;
    }
    *max_wg = (size_t)-1;
    /* a kernel without its name, or its limit, fails the build (the
     * program is then not kept, so the next call builds it again) rather
     * than leaving a program that misses a kernel for good */
    for (i = 0; i < p->num_kernels && st == CLPRIM_SUCCESS; ++i) {
        char name[128] = "";
        size_t wg = 0;
        st = clGetKernelInfo(p->kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
        if (st != CL_SUCCESS) {
            clprim__fail(ctx, st, "clGetKernelInfo failed for a kernel of %s: %s", spec->file,
                         clprim_status_string(st));
            break;
        }
        p->names[i] = clprim__malloc(strlen(name) + 1);
        if (!p->names[i]) {
            st = clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
            break;
        }
        strcpy(p->names[i], name);
        st = clGetKernelWorkGroupInfo(p->kernels[i], ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
                                      sizeof wg, &wg, NULL);
        if (st != CL_SUCCESS)
            clprim__fail(ctx, st, "clGetKernelWorkGroupInfo failed for %s: %s", name,
                         clprim_status_string(st));
        else if (wg < *max_wg)
            *max_wg = wg ? wg : 1;
    }
cleanup:
    free(src.s);
    return st;
}

/* "scan.cl|256|<bound>|<options>|<params><element>": everything that
 * decides the program's text and build. */
static char *program_key(const clprim__program_spec *spec)
{
    const char *extra = getenv("CLPRIM_BUILD_OPTIONS");
    text k = {0};
    char num[64];
    text_str(&k, spec->file);
    snprintf(num, sizeof num, "|%u|%u|", spec->wg_size, spec->bound_regs);
    text_str(&k, num);
    text_str(&k, spec->bound_entry ? spec->bound_entry : "");
    text_str(&k, "|");
    text_str(&k, extra ? extra : "");
    text_str(&k, "|");
    text_str(&k, spec->params ? spec->params : "");
    text_str(&k, spec->element);
    if (k.failed) {
        free(k.s);
        return NULL;
    }
    return k.s;
}

clprim_status clprim__program_get(clprim_context *ctx, const clprim__program_spec *spec,
                                  clprim__program **out)
{
    clprim__program *p;
    char *key = program_key(spec);
    size_t max_wg = 0;
    clprim_status st;

    if (!key)
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    for (p = ctx->programs; p; p = p->next)
        if (strcmp(p->key, key) == 0) {
            free(key);
            *out = p;
            return CLPRIM_SUCCESS;
        }
    p = clprim__calloc(1, sizeof *p);
    if (!p) {
        free(key);
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    p->key = key;
    p->wg_size = spec->wg_size;
    for (;;) {
        st = build_once(ctx, spec, p, &max_wg);
        if (st != CLPRIM_SUCCESS || max_wg >= p->wg_size)
            break;
        /* the compiled kernels cannot run this many work-items (registers):
         * rebuild with the largest power of two they can */
        clprim__log(ctx, CLPRIM_LOG_INFO, "%s: work-group %u exceeds the kernel limit %zu; rebuilding",
                    spec->file, p->wg_size, max_wg);
        while (p->wg_size > 1 && p->wg_size > max_wg)
            p->wg_size /= 2;
        program_clear(p);
    }
    if (st != CLPRIM_SUCCESS) {
        program_free(p);
        return st;
    }
    clprim__log(ctx, CLPRIM_LOG_DEBUG, "%s ready (%u kernels)", spec->file, p->num_kernels);
    p->next = ctx->programs;
    ctx->programs = p;
    *out = p;
    return CLPRIM_SUCCESS;
}

unsigned clprim__program_wg_size(const clprim__program *prog)
{
    return prog->wg_size;
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

/* Run at context creation, when no device attribute gave the SIMD width:
 * a kernel's preferred work-group size multiple stands in for it. */
/* cl_khr_subgroups: the sub-group size the probe kernel gets in a
 * work-group of 256, which is what executes together. The preferred
 * work-group size multiple can be much larger (Intel's CPU runtime: 128,
 * with sub-groups of 8 or 16), and taken as the SIMD width it rounded every
 * work-group up to it. Sizes above 64 (a CPU runtime emulating sub-groups as
 * whole work-groups) are not taken. Returns whether the width was set. */
typedef cl_int(CL_API_CALL *sub_group_info_fn)(cl_kernel, cl_device_id, cl_uint, size_t,
                                               const void *, size_t, void *, size_t *);
#define CLPRIM__KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE 0x2033

static int probe_sub_group_size(clprim_context *ctx, cl_kernel kernel)
{
    cl_platform_id platform = NULL;
    sub_group_info_fn info = NULL;
    size_t local = 256, size = 0;
    if (!ctx->info.has_subgroups ||
        clGetDeviceInfo(ctx->device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) !=
            CL_SUCCESS)
        return 0;
    *(void **)&info = clGetExtensionFunctionAddressForPlatform(platform,
                                                               "clGetKernelSubGroupInfoKHR");
    if (!info || info(kernel, ctx->device, CLPRIM__KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                      sizeof local, &local, sizeof size, &size, NULL) != CL_SUCCESS ||
        size < 1 || size > 64 || (size & (size - 1)))
        return 0;
    ctx->info.simd_width = (cl_uint)size;
    ctx->info.simd_source = "cl_khr_subgroups (the probe kernel's sub-group size)";
    return 1;
}

void clprim__choose_simd_form(clprim_context *ctx)
{
    size_t size = 0;
    char *ext = NULL;
    ctx->subgroup_form = 0;
    if (ctx->info.has_nv_ptx || !clprim__switch(&ctx->knobs, CLPRIM__SWITCH_SUBGROUPS, 1) ||
        clGetDeviceInfo(ctx->device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS ||
        !(ext = clprim__malloc(size + 1)))
        return;
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_EXTENSIONS, size, ext, NULL) == CL_SUCCESS) {
        ext[size] = '\0';
        /* Intel's CPU runtime (2026.2) has the sub-group functions through
         * cl_intel_subgroups and lists no cl_khr_subgroups */
        ctx->subgroup_form = (clprim__has_extension(ext, "cl_khr_subgroups") ||
                              clprim__has_extension(ext, "cl_intel_subgroups")) &&
                             clprim__has_extension(ext, "cl_khr_subgroup_shuffle_relative");
    }
    free(ext);
}

/* CLPRIM_SUB_GROUP_SIZE (tests): every tile kernel gets that sub-group size
 * (cl/common/elem.clh: CLPRIM_KERNEL_ATTRS), so it is the SIMD width. A
 * size the device does not list is refused, never quietly replaced. */
static clprim_status force_sub_group(clprim_context *ctx)
{
    const unsigned size = clprim__switch(&ctx->knobs, CLPRIM__SWITCH_SUB_GROUP_SIZE, 0);
    if (!size)
        return CLPRIM_SUCCESS;
    if (!clprim__device_offers_sub_group(ctx->device, size))
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "CLPRIM_SUB_GROUP_SIZE=%u: the device lists no such sub-group size "
                            "(cl_intel_required_subgroup_size)",
                            size);
    ctx->reqd_sub_group = size;
    ctx->info.simd_width = size;
    ctx->info.simd_source = "CLPRIM_SUB_GROUP_SIZE (a required sub-group size)";
    return CLPRIM_SUCCESS;
}

clprim_status clprim__probe_simd_width(clprim_context *ctx)
{
    static const char probe[] = "kernel void clprim_probe(global int *p) { p[get_global_id(0)] = 0; }\n";
    cl_program program = NULL;
    cl_kernel kernel = NULL;
    size_t multiple = 0;
    clprim_status st;

    st = force_sub_group(ctx);
    if (st != CLPRIM_SUCCESS || ctx->info.simd_width)
        return st;
    st = clprim__build_source(ctx, probe, NULL, 0, &program);
    if (st != CLPRIM_SUCCESS) {
        /* the build's message (its compiler log) stays whole, said to be
         * the probe's (kept as it is when there is no memory to say so) */
        char *both = ctx->error ? clprim__format("probing the SIMD width: %s", ctx->error) : NULL;
        if (both) {
            free(ctx->error);
            ctx->error = both;
        } else if (!ctx->error) {
            clprim__fail(ctx, st, "probing the SIMD width failed: %s", clprim_status_string(st));
        }
        return st;
    }
    kernel = clCreateKernel(program, "clprim_probe", &st);
    if (st != CL_SUCCESS) {
        clprim__fail(ctx, st, "probing the SIMD width failed: clCreateKernel returned %s",
                     clprim_status_string(st));
        goto cleanup;
    }
    if (probe_sub_group_size(ctx, kernel)) {
        st = CLPRIM_SUCCESS;
        goto cleanup;
    }
    st = clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                  sizeof multiple, &multiple, NULL);
    if (st != CL_SUCCESS) {
        clprim__fail(ctx, st, "probing the SIMD width failed: clGetKernelWorkGroupInfo("
                     "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) returned %s",
                     clprim_status_string(st));
        goto cleanup;
    }
    /* round down to a power of two, at least 1 */
    ctx->info.simd_width = 1;
    while (ctx->info.simd_width * 2 <= multiple && ctx->info.simd_width < 1024)
        ctx->info.simd_width *= 2;
    ctx->info.simd_source = "kernel's preferred work-group size multiple";
cleanup:
    if (kernel)
        clReleaseKernel(kernel);
    if (program)
        clReleaseProgram(program);
    return st;
}

clprim_status clprim__program_get_params(clprim_context *ctx, const clprim__program_spec *spec,
                                         char *params, clprim__program **prog)
{
    clprim__program_spec with = *spec;
    clprim_status st;
    if (!params)
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    with.params = params;
    st = clprim__program_get(ctx, &with, prog);
    free(params);
    return st;
}

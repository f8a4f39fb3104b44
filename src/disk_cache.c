/* SPDX-License-Identifier: MIT */
/* On-disk cache of built program binaries, shared by processes.
 *
 * Entry key: the whole assembled source and build options, with everything
 * that decides what a binary means: platform name and version, device name,
 * vendor id, driver version and clprim's version. A driver update therefore
 * changes the key and never reuses a stale binary. The file name is a 128-bit
 * hash of the key; the key itself (with the source's hashes in place of the
 * source) is stored in the file and compared on load, so a hash collision
 * is a miss, not a wrong binary.
 *
 * File: "CLPRIMC1", key length, binary length (both u64, in this machine's
 * byte order), key, binary, checksum of all before it (hash_words).
 * Written to a temporary file in the same folder and renamed over the entry,
 * so that a reader sees a whole old file or a whole new one, never half; two
 * processes writing one entry at once each rename a complete file.
 *
 * This file stores and fetches bytes; building a program from them is
 * build.c's (the layer above), which also rebuilds when the driver rejects
 * them.
 *
 * Nothing here is an error to the caller: an unreadable, corrupt or foreign
 * entry is a miss (the program is built from source and the entry replaced),
 * an entry that cannot be replaced (a folder in its place) only goes
 * without (the log callback names it), and a folder that cannot be written
 * turns the cache off for the context, which the log callback is told once. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char magic[8] = {'C', 'L', 'P', 'R', 'I', 'M', 'C', '1'};

static unsigned long long fnv1a(const void *p, size_t n, unsigned long long h)
{
    const unsigned char *s = p;
    while (n--)
        h = (h ^ *s++) * 0x100000001B3ull;
    return h;
}
#define FNV_BASIS 0xCBF29CE484222325ull

/* FNV-1a's step over 8-byte words (then the last bytes one by one): binaries
 * are megabytes and are hashed on every warm load, which must stay well
 * under a millisecond. */
static unsigned long long hash_words(const void *p, size_t n, unsigned long long h)
{
    const unsigned char *s = p;
    unsigned long long w;
    for (; n >= 8; n -= 8, s += 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0x100000001B3ull;
        h ^= h >> 29;
    }
    return fnv1a(s, n, h);
}

char *clprim__cache_dir(const clprim_context_options *opt)
{
    const char *env = getenv("CLPRIM_DISK_CACHE"), *base, *sub = "";
    if ((opt && (opt->flags & CLPRIM_CONTEXT_NO_DISK_CACHE)) || (env && strcmp(env, "0") == 0))
        return NULL;
    if (opt && opt->cache_dir && *opt->cache_dir)
        base = opt->cache_dir;
    else if ((base = getenv("CLPRIM_CACHE_DIR")) != NULL && *base)
        ;
    else if ((base = getenv("XDG_CACHE_HOME")) != NULL && *base)
        sub = "/clprim";
    else if ((base = getenv("HOME")) != NULL && *base)
        sub = "/.cache/clprim";
    else
        return NULL;
    return clprim__format("%s%s", base, sub);
}

/* mkdir -p; 0 when the folder exists afterwards */
static int make_dirs(char *path)
{
    char *p;
    struct stat sb;
    for (p = path + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0755) != 0 && errno != EEXIST) {
                *p = '/';
                return -1;
            }
            *p = '/';
        }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) ? 0 : -1;
}

char *clprim__cache_key(const clprim_context *ctx, const char *source, const char *options,
                        char *path, size_t path_size)
{
    const char *driver = getenv("CLPRIM_CACHE_DRIVER_VERSION"); /* tests: a driver update */
    const size_t slen = strlen(source);
    char platform_version[128] = "";
    char *key;
    size_t klen;
    cl_platform_id platform = NULL;

    if (!ctx->cache_dir)
        return NULL;
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) ==
        CL_SUCCESS)
        clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof platform_version,
                          platform_version, NULL);
    key = clprim__format("clprim %s\nplatform %s | %s\ndevice %s\nvendor 0x%x\ndriver %s\n"
                         "options %s\nsource %zu %016llx %016llx\n",
                         CLPRIM_VERSION_STRING, ctx->info.platform_name, platform_version,
                         ctx->info.device_name, ctx->info.vendor_id,
                         driver ? driver : ctx->info.driver_version, options, slen,
                         hash_words(source, slen, FNV_BASIS),
                         hash_words(source, slen, 0x84222325CBF29CE4ull ^ slen));
    if (!key)
        return NULL;
    klen = strlen(key);
    snprintf(path, path_size, "%s/%016llx%016llx.bin", ctx->cache_dir,
             fnv1a(key, klen, FNV_BASIS), fnv1a(key, klen, 0x9E3779B97F4A7C15ull));
    return key;
}

unsigned char *clprim__cache_read(const clprim_context *ctx, const char *key, const char *path,
                                  size_t *bin_len)
{
    /* not blocking (a FIFO there would wait for a writer forever), and
     * regular files only (a folder there reads as LONG_MAX bytes) */
    const int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat info;
    FILE *f = NULL;
    unsigned char *data = NULL, *bin = NULL;
    unsigned long long klen, blen, sum;
    long size;
    const size_t head = sizeof magic + 16, keylen = strlen(key);

    if (fd < 0)
        return NULL; /* a plain miss */
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        clprim__log(ctx, CLPRIM_LOG_WARNING, "disk cache: %s is not a regular file; not used", path);
        close(fd);
        return NULL;
    }
    f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        (size_t)size < head + 8 || !(data = clprim__malloc((size_t)size)) ||
        fread(data, 1, (size_t)size, f) != (size_t)size)
        goto bad;
    memcpy(&klen, data + sizeof magic, 8);
    memcpy(&blen, data + sizeof magic + 8, 8);
    memcpy(&sum, data + size - 8, 8);
    if (memcmp(data, magic, sizeof magic) != 0 || klen > (unsigned long long)size ||
        blen > (unsigned long long)size || head + klen + blen + 8 != (unsigned long long)size ||
        hash_words(data, (size_t)size - 8, FNV_BASIS) != sum)
        goto bad;
    if (klen != keylen || memcmp(data + head, key, keylen) != 0) {
        clprim__log(ctx, CLPRIM_LOG_INFO, "disk cache: %s is for another key; rebuilding", path);
        goto done;
    }
    bin = clprim__malloc(blen ? (size_t)blen : 1);
    if (bin) {
        memcpy(bin, data + head + klen, (size_t)blen);
        *bin_len = (size_t)blen;
        clprim__log(ctx, CLPRIM_LOG_DEBUG, "disk cache: read and verified %llu bytes", blen);
    }
    goto done;
bad:
    clprim__log(ctx, CLPRIM_LOG_WARNING, "disk cache: %s is damaged (checksum or size); rebuilding",
                path);
done:
    free(data);
    fclose(f);
    return bin;
}

/* Turns the cache off for this context, saying why once. */
static void give_up(clprim_context *ctx, const char *what, const char *path)
{
    clprim__log(ctx, CLPRIM_LOG_WARNING,
                "disk cache: cannot %s %s (%s); carrying on without the disk cache", what, path,
                strerror(errno));
    free(ctx->cache_dir);
    ctx->cache_dir = NULL;
}

/* An empty folder where the entry goes (never one with something in it):
 * removed, and tmp renamed over the entry again; whether that worked. */
static int replace_folder(const char *tmp, const char *path)
{
    const int why = errno;
    struct stat info;
    if (lstat(path, &info) != 0 || !S_ISDIR(info.st_mode) || rmdir(path) != 0) {
        errno = why;
        return 0;
    }
    return rename(tmp, path) == 0;
}

unsigned char *clprim__program_binary(const clprim_context *ctx, cl_program program,
                                      size_t *len)
{
    cl_uint count = 0, i, mine;
    cl_device_id *devices = NULL;
    size_t *sizes = NULL;
    unsigned char **bins = NULL, *bin = NULL;
    int ok = 0;

    *len = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof count, &count, NULL) !=
            CL_SUCCESS ||
        !count || !(devices = clprim__calloc(count, sizeof *devices)) ||
        !(sizes = clprim__calloc(count, sizeof *sizes)) || !(bins = clprim__calloc(count, sizeof *bins)) ||
        clGetProgramInfo(program, CL_PROGRAM_DEVICES, count * sizeof *devices, devices, NULL) !=
            CL_SUCCESS ||
        clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, count * sizeof *sizes, sizes, NULL) !=
            CL_SUCCESS)
        goto cleanup;
    for (mine = 0; mine < count && devices[mine] != ctx->device; ++mine)
        ;
    if (mine == count || !sizes[mine])
        goto cleanup;
    /* room for every device's binary: PoCL copies into NULL entries too */
    for (i = 0; i < count; ++i)
        if (sizes[i] && !(bins[i] = clprim__malloc(sizes[i])))
            goto cleanup;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, count * sizeof *bins, bins, NULL) !=
        CL_SUCCESS)
        goto cleanup;
    bin = bins[mine];
    bins[mine] = NULL;
    *len = sizes[mine];
    ok = 1;
cleanup:
    for (i = 0; bins && i < count; ++i)
        free(bins[i]);
    free(bins);
    free(sizes);
    free(devices);
    return ok ? bin : NULL;
}

void clprim__cache_store(clprim_context *ctx, const char *key, const char *path,
                         cl_program program)
{
    char tmp[4200];
    unsigned char *file = NULL, *bin = NULL;
    size_t bin_len = 0, size;
    const size_t head = sizeof magic + 16;
    unsigned long long klen = strlen(key), blen, sum;
    FILE *f = NULL;
    int ok;

    if (!ctx->cache_dir)
        return;
    if (make_dirs(ctx->cache_dir) != 0) {
        give_up(ctx, "create the folder", ctx->cache_dir);
        return;
    }
    /* the whole file in one buffer: the checksum covers the bytes exactly
     * as written */
    bin = clprim__program_binary(ctx, program, &bin_len);
    if (!bin || !(file = clprim__malloc(head + (size_t)klen + bin_len + 8))) {
        clprim__log(ctx, CLPRIM_LOG_INFO, "disk cache: no binary to keep for this program");
        goto cleanup;
    }
    blen = bin_len;
    memcpy(file, magic, sizeof magic);
    memcpy(file + sizeof magic, &klen, 8);
    memcpy(file + sizeof magic + 8, &blen, 8);
    memcpy(file + head, key, (size_t)klen);
    memcpy(file + head + klen, bin, bin_len);
    size = head + (size_t)klen + bin_len;
    sum = hash_words(file, size, FNV_BASIS);
    memcpy(file + size, &sum, 8);
    size += 8;
    /* unique to this process, context and write (the context's lock is held) */
    snprintf(tmp, sizeof tmp, "%s.%ld.%p.%lu.tmp", path, (long)getpid(), (void *)ctx,
             ++ctx->cache_writes);
    f = fopen(tmp, "wb");
    if (!f) {
        give_up(ctx, "write to", ctx->cache_dir);
        goto cleanup;
    }
    ok = fwrite(file, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (!ok) { /* the folder's disk is full, or failing: no use trying the next */
        remove(tmp);
        give_up(ctx, "write to", ctx->cache_dir);
        goto cleanup;
    }
    if (rename(tmp, path) != 0 && !replace_folder(tmp, path)) {
        /* this entry cannot be replaced (a folder that is not empty stands
         * there, say): only this program goes without the disk cache */
        clprim__log(ctx, CLPRIM_LOG_WARNING, "disk cache: cannot replace the entry %s (%s); "
                    "this program is not kept, the disk cache stays on", path, strerror(errno));
        remove(tmp);
        goto cleanup;
    }
    clprim__log(ctx, CLPRIM_LOG_DEBUG, "disk cache: stored %s", path);
cleanup:
    free(bin);
    free(file);
}

/* SPDX-License-Identifier: MIT */
/* The on-disk program cache: hits across contexts and processes, damaged
 * files and rejected binaries rebuilt and replaced, a driver update missing,
 * the switches, an unwritable folder, two processes filling one entry at
 * once, the folder removed under a live context, entries cut short while
 * other processes read them, and the PTX edit that bounds a kernel's registers on NVIDIA. Hits and stores are counted from the log callback's messages; every
 * run also checks a scan's result, so a bad binary cannot pass unnoticed.
 *
 * `test_cache child DIR hit|any` is the second process: one context on DIR,
 * one checked scan, "hits=H stores=S damaged=D" on stdout, exit status 0
 * when the scan was right (and, with `hit`, every program came from DIR).
 * A full disk is test_faults' (the cache's writes failed in turn). */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static const char *self;

typedef struct counts {
    int hits, stores, damaged, rejected, off, named;
} counts;

static const char *watched; /* messages naming it are counted (named) */

static void count_log(void *user, int level, const char *msg)
{
    counts *c = user;
    (void)level;
    c->named += watched && strstr(msg, watched) != NULL;
    c->hits += strstr(msg, "disk cache: hit") != NULL;
    c->stores += strstr(msg, "disk cache: stored") != NULL;
    c->damaged += strstr(msg, "is damaged") != NULL;
    c->rejected += strstr(msg, "rejected the binary") != NULL;
    c->off += strstr(msg, "carrying on without the disk cache") != NULL;
}

/* One context on `dir` (flags as given), one multilevel int32 scan checked
 * against the host; the log's counts in *c. Returns 0 when the scan was right. */
static int run_once(const char *dir, unsigned flags, counts *c)
{
    clprim_context_options o;
    clprim_context *ctx = NULL;
    clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_MULTILEVEL, NULL, NULL, CLPRIM_REPRO_NONE};
    enum { N = 3000 };
    cl_int x[N], y[N], run = 0;
    uint64_t s = tu_seed();
    int i, bad = 0;

    memset(c, 0, sizeof *c);
    memset(&o, 0, sizeof o);
    o.log = count_log;
    o.log_user = c;
    o.flags = flags;
    o.cache_dir = dir;
    if (clprim_context_create(&o, &ctx) != CLPRIM_SUCCESS)
        return -1;
    for (i = 0; i < N; ++i)
        x[i] = (cl_int)(tu_rand(&s) % 1000) - 500;
    if (clprim_scan_host(ctx, &d, x, y, N) != CLPRIM_SUCCESS)
        bad = 1;
    for (i = 0; i < N && !bad; ++i) {
        run += x[i];
        bad = y[i] != run;
    }
    clprim_context_release(ctx);
    return bad ? -1 : 0;
}

/* A fresh empty folder under the temp dir (heap). */
static char *fresh_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = malloc(4096);
    assert_non_null(dir);
    snprintf(dir, 4096, "%s/clprim-cache-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    return dir;
}

/* Calls fn on every entry file of dir; returns how many there were. */
static int for_entries(const char *dir, void (*fn)(const char *path))
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[8192];
    int count = 0;
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".bin") && !strstr(e->d_name, ".tmp")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (fn)
                fn(path);
            ++count;
        }
    closedir(d);
    return count;
}

static void remove_path(const char *path)
{
    remove(path);
}

static void remove_dir(char *dir)
{
    for_entries(dir, remove_path);
    rmdir(dir);
    free(dir);
}

/* Reads a whole file; *size its length. */
static unsigned char *slurp(const char *path, long *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data;
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc((size_t)*size);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)*size, f), (size_t)*size);
    fclose(f);
    return data;
}

static void spill(const char *path, const unsigned char *data, long size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
}

/* One byte in the middle flipped: the checksum no longer matches. */
static void damage(const char *path)
{
    long size;
    unsigned char *data = slurp(path, &size);
    data[size / 2] ^= 0x5A;
    spill(path, data, size);
    free(data);
}

/* The binary replaced by junk, with a checksum that matches again: the file
 * is whole, but the driver cannot use what is in it. The layout is the one
 * documented in src/disk_cache.c. */
static void junk_binary(const char *path)
{
    long size, i;
    unsigned char *data = slurp(path, &size);
    unsigned long long klen, blen, w, sum = 0xCBF29CE484222325ull;
    memcpy(&klen, data + 8, 8);
    memcpy(&blen, data + 16, 8);
    for (i = 0; i < (long)blen; ++i)
        data[24 + klen + i] = (unsigned char)(i * 7 + 1);
    for (i = 0; i + 8 <= size - 8; i += 8) { /* hash_words */
        memcpy(&w, data + i, 8);
        sum = (sum ^ w) * 0x100000001B3ull;
        sum ^= sum >> 29;
    }
    for (; i < size - 8; ++i)
        sum = (sum ^ data[i]) * 0x100000001B3ull;
    memcpy(data + size - 8, &sum, 8);
    spill(path, data, size);
    free(data);
}

/* Starts `self child dir expect`; returns its pid. */
static pid_t spawn_child(const char *dir, const char *expect)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(self, self, "child", dir, expect, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static int wait_child(pid_t pid)
{
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void test_second_context_and_process(void **state)
{
    char *dir = fresh_dir();
    counts c;
    (void)state;
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_true(c.stores >= 1);
    assert_int_equal(c.hits, 0);
    assert_int_equal(for_entries(dir, NULL), c.stores);
    /* a second context starts with an empty in-memory cache */
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_true(c.hits >= 1);
    assert_int_equal(c.stores, 0);
    /* and a second process */
    assert_int_equal(wait_child(spawn_child(dir, "hit")), 0);
    remove_dir(dir);
}

static void test_damaged_file_rebuilt(void **state)
{
    char *dir = fresh_dir();
    counts c, first;
    (void)state;
    assert_int_equal(run_once(dir, 0, &first), 0);
    assert_true(for_entries(dir, damage) >= 1);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_int_equal(c.damaged, first.stores);
    assert_int_equal(c.hits, 0);
    assert_int_equal(c.stores, first.stores); /* replaced */
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_int_equal(c.damaged, 0);
    assert_int_equal(c.hits, first.stores);
    remove_dir(dir);
}

/* Entries replaced by a FIFO and by a folder: not read (a FIFO would block
 * for a writer that never comes; a folder reads as LONG_MAX bytes); the
 * programs are built and the call succeeds. The alarm fails a hang. */
static int fifo_made, folder_made;
static void strange_entry(const char *path)
{
    remove(path);
    if (!fifo_made)
        fifo_made = mkfifo(path, 0600) == 0;
    else if (!folder_made)
        folder_made = mkdir(path, 0700) == 0;
}

static void test_fifo_and_folder_entries(void **state)
{
    char *dir = fresh_dir();
    counts c, first;
    (void)state;
    assert_int_equal(run_once(dir, 0, &first), 0);
    fifo_made = folder_made = 0;
    for_entries(dir, strange_entry);
    assert_true(fifo_made);
    alarm(120);
    assert_int_equal(run_once(dir, 0, &c), 0);
    alarm(0);
    assert_true(c.hits < first.stores);
    for_entries(dir, remove_path);
    {
        /* the folder is still there (rename cannot replace it) */
        DIR *d = opendir(dir);
        struct dirent *e;
        char path[8192];
        while (d && (e = readdir(d)) != NULL)
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                rmdir(path);
                remove(path);
            }
        if (d)
            closedir(d);
    }
    rmdir(dir);
    free(dir);
}

/* Issue 30, defect 5: a folder in place of one entry costs that entry
 * only. Each entry in turn is replaced by a folder with a file in it (which
 * the cache must not remove): the next context builds that program, says
 * which entry it cannot replace, keeps the disk cache on and hits every
 * other entry (before, the failed rename turned the cache off for the
 * context, blaming the cache folder); a new process on the folder works.
 * An empty folder there is replaced by the entry. */
static char *entries[16];
static int num_entries;
static void list_entry(const char *path)
{
    if (num_entries < 16)
        entries[num_entries++] = strdup(path);
}

static void test_folder_in_place_of_one_entry(void **state)
{
    char *dir = fresh_dir(), inner[8300];
    counts c, first;
    (void)state;
    assert_int_equal(run_once(dir, 0, &first), 0);
    num_entries = 0;
    for_entries(dir, list_entry);
    assert_true(num_entries >= 1 && num_entries == first.stores);
    for (int i = 0; i < num_entries; ++i) {
        assert_int_equal(remove(entries[i]), 0);
        assert_int_equal(mkdir(entries[i], 0700), 0);
        snprintf(inner, sizeof inner, "%s/keep", entries[i]);
        spill(inner, (const unsigned char *)"x", 1);
        watched = strrchr(entries[i], '/') + 1;
        assert_int_equal(run_once(dir, 0, &c), 0);
        watched = NULL;
        assert_int_equal(c.off, 0);
        assert_int_equal(c.hits, first.stores - 1);
        assert_true(c.named >= 1); /* the entry, not the folder, is named */
        assert_int_equal(c.stores, 0);
        assert_int_equal(wait_child(spawn_child(dir, "any")), 0);
        /* left alone, with what was in it */
        assert_int_equal(remove(inner), 0);
        /* now empty: replaced by the entry */
        assert_int_equal(run_once(dir, 0, &c), 0);
        assert_int_equal(c.off, 0);
        assert_int_equal(c.stores, 1);
        assert_int_equal(c.hits, first.stores - 1);
        assert_int_equal(run_once(dir, 0, &c), 0);
        assert_int_equal(c.hits, first.stores);
    }
    for (int i = 0; i < num_entries; ++i)
        free(entries[i]);
    remove_dir(dir);
}

static void test_rejected_binary_rebuilt(void **state)
{
    char *dir = fresh_dir();
    counts c, first;
    (void)state;
    assert_int_equal(run_once(dir, 0, &first), 0);
    assert_true(for_entries(dir, junk_binary) >= 1);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_int_equal(c.damaged, 0);
    assert_int_equal(c.rejected, first.stores);
    assert_int_equal(c.stores, first.stores);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_int_equal(c.rejected, 0);
    assert_int_equal(c.hits, first.stores);
    remove_dir(dir);
}

/* CLPRIM_CACHE_DRIVER_VERSION stands in for the driver's version in the key. */
static void test_driver_update_misses(void **state)
{
    char *dir = fresh_dir();
    counts c, first;
    (void)state;
    setenv("CLPRIM_CACHE_DRIVER_VERSION", "1.0-test", 1);
    assert_int_equal(run_once(dir, 0, &first), 0);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_int_equal(c.hits, first.stores);
    setenv("CLPRIM_CACHE_DRIVER_VERSION", "1.1-test", 1);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_int_equal(c.hits, 0);
    assert_int_equal(c.stores, first.stores);
    assert_int_equal(for_entries(dir, NULL), 2 * first.stores);
    unsetenv("CLPRIM_CACHE_DRIVER_VERSION");
    remove_dir(dir);
}

static void test_switched_off(void **state)
{
    char *dir = fresh_dir();
    counts c;
    (void)state;
    assert_int_equal(run_once(dir, CLPRIM_CONTEXT_NO_DISK_CACHE, &c), 0);
    assert_int_equal(c.stores + c.hits, 0);
    setenv("CLPRIM_DISK_CACHE", "0", 1);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_int_equal(c.stores + c.hits, 0);
    unsetenv("CLPRIM_DISK_CACHE");
    assert_int_equal(for_entries(dir, NULL), 0);
    remove_dir(dir);
}

/* A folder below a regular file can never be created, even by root. */
static void test_unwritable_folder(void **state)
{
    char *dir = fresh_dir(), file[4200], below[4300];
    counts c;
    (void)state;
    snprintf(file, sizeof file, "%s/plain.bin", dir);
    spill(file, (const unsigned char *)"x", 1);
    snprintf(below, sizeof below, "%s/cache", file);
    assert_int_equal(run_once(below, 0, &c), 0);
    assert_int_equal(c.off, 1);
    assert_int_equal(c.stores + c.hits, 0);
    remove(file);
    remove_dir(dir);
}

static void test_two_processes_fill_one_entry(void **state)
{
    char *dir = fresh_dir();
    pid_t a, b;
    counts c;
    (void)state;
    a = spawn_child(dir, "any");
    b = spawn_child(dir, "any");
    assert_int_equal(wait_child(a), 0);
    assert_int_equal(wait_child(b), 0);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_true(c.hits >= 1);
    assert_int_equal(c.stores + c.damaged + c.rejected, 0);
    remove_dir(dir);
}

/* The folder removed under a live context: its next build cannot store (or
 * stores into a folder made again); every call is still right, and a new
 * context on the same path makes the folder again and fills it. */
static void test_folder_removed(void **state)
{
    char *dir = fresh_dir();
    clprim_context_options o;
    clprim_context *ctx = NULL;
    const clprim_scan_desc a = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_MULTILEVEL, NULL,
                                NULL, CLPRIM_REPRO_NONE};
    const clprim_scan_desc b = {CLPRIM_TYPE_INT32, CLPRIM_OP_MAX, 0, CLPRIM_SCAN_MULTILEVEL, NULL,
                                NULL, CLPRIM_REPRO_NONE};
    cl_int x[1000], y[1000], run = 0, top = INT32_MIN;
    uint64_t s = tu_seed();
    counts c;
    (void)state;
    memset(&c, 0, sizeof c);
    memset(&o, 0, sizeof o);
    o.log = count_log;
    o.log_user = &c;
    o.cache_dir = dir;
    for (int i = 0; i < 1000; ++i)
        x[i] = (cl_int)(tu_rand(&s) % 1000) - 500;
    assert_int_equal(clprim_context_create(&o, &ctx), CLPRIM_SUCCESS);
    assert_int_equal(clprim_scan_host(ctx, &a, x, y, 1000), CLPRIM_SUCCESS);
    for (int i = 0; i < 1000; ++i)
        assert_int_equal(y[i], run += x[i]);
    assert_true(for_entries(dir, remove_path) >= 1);
    assert_int_equal(rmdir(dir), 0);
    assert_int_equal(clprim_scan_host(ctx, &b, x, y, 1000), CLPRIM_SUCCESS);
    for (int i = 0; i < 1000; ++i) {
        top = x[i] > top ? x[i] : top;
        assert_int_equal(y[i], top);
    }
    clprim_context_release(ctx);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_true(c.stores >= 1);
    remove_dir(dir);
}

/* Entries cut short (to nothing, and to half) while other processes read
 * them: a cut entry reads as damaged and is rebuilt, never used. */
static void cut_half(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        assert_int_equal(truncate(path, st.st_size / 2), 0);
}

static void cut_all(const char *path)
{
    assert_int_equal(truncate(path, 0), 0);
}

static void test_truncated_while_read(void **state)
{
    char *dir = fresh_dir();
    counts c, first;
    (void)state;
    assert_int_equal(run_once(dir, 0, &first), 0);
    for (int round = 0; round < 4; ++round) {
        const pid_t a = spawn_child(dir, "any"), b = spawn_child(dir, "any");
        for_entries(dir, round % 2 ? cut_all : cut_half);
        assert_int_equal(wait_child(a), 0);
        assert_int_equal(wait_child(b), 0);
    }
    for_entries(dir, cut_half);
    assert_int_equal(run_once(dir, 0, &c), 0);
    assert_true(c.damaged >= 1);
    assert_int_equal(c.hits, 0);
    remove_dir(dir);
}

/* internal (src/build.c): the PTX edit behind the single pass's register
 * bound on NVIDIA; checked here on text, since only NVIDIA runs it */
char *clprim__ptx_bound_registers(const char *ptx, size_t len, const char *entry,
                                  unsigned regs);

static void test_ptx_register_bound(void **state)
{
    static const char ptx[] =
        ".version 9.0\n.target sm_90\n"
        ".entry scan_single_pass_x(\n\t.param .u64 a\n)\n.reqntid 256, 1, 1\n{\n\tret;\n}\n"
        ".entry scan_single_pass(\n\t.param .u64 a\n)\n.reqntid 256, 1, 1\n{\n\tret;\n}\n";
    const char *want_head = ".entry scan_single_pass(\n\t.param .u64 a\n)\n.reqntid 256, 1, 1\n"
                            ".maxnreg 80\n{\n";
    char *out, *again;
    (void)state;
    out = clprim__ptx_bound_registers(ptx, sizeof ptx - 1, "scan_single_pass", 80);
    assert_non_null(out);
    assert_int_equal(strlen(out), sizeof ptx - 1 + strlen(".maxnreg 80\n"));
    /* the other entry, whose name only starts the same, is left alone */
    assert_memory_equal(out, ptx, (size_t)(strstr(ptx, ".entry scan_single_pass(") - ptx));
    assert_non_null(strstr(out, want_head));
    assert_null(strstr(strstr(out, ".entry scan_single_pass_x("), ".maxnreg 80\n{\n\tret;\n}\n.entry"));
    /* bounded already, missing, or nothing asked: no copy */
    again = clprim__ptx_bound_registers(out, strlen(out), "scan_single_pass", 64);
    assert_null(again);
    assert_null(clprim__ptx_bound_registers(ptx, sizeof ptx - 1, "reduce_fast", 80));
    assert_null(clprim__ptx_bound_registers(ptx, sizeof ptx - 1, "scan_single_pass", 0));
    /* cut before the entry's body: no header end to put it in */
    assert_null(clprim__ptx_bound_registers(ptx, (size_t)(strrchr(ptx, '{') - ptx),
                                            "scan_single_pass", 80));
    free(out);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_context_and_process),
        cmocka_unit_test(test_damaged_file_rebuilt),
        cmocka_unit_test(test_fifo_and_folder_entries),
        cmocka_unit_test(test_folder_in_place_of_one_entry),
        cmocka_unit_test(test_rejected_binary_rebuilt),
        cmocka_unit_test(test_driver_update_misses),
        cmocka_unit_test(test_switched_off),
        cmocka_unit_test(test_unwritable_folder),
        cmocka_unit_test(test_two_processes_fill_one_entry),
        cmocka_unit_test(test_folder_removed),
        cmocka_unit_test(test_truncated_while_read),
        cmocka_unit_test(test_ptx_register_bound),
    };
    self = argv[0];
    if (argc == 4 && strcmp(argv[1], "child") == 0) {
        counts c;
        int rc = run_once(argv[2], 0, &c);
        printf("hits=%d stores=%d damaged=%d\n", c.hits, c.stores, c.damaged);
        if (strcmp(argv[3], "hit") == 0 && (c.hits < 1 || c.stores > 0))
            rc = -1;
        return rc == 0 ? 0 : 1;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}

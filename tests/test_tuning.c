/* SPDX-License-Identifier: MIT */
/* Tuning files and clprim_context_tuning: rows of the caller's
 * ($CLPRIM_TUNING_FILE, clprim_context_set_tuning_file), matched by primitive, device, element size and n, set
 * over the built-in rows, and used by the calls (their results checked
 * against the host reference); refused files with the file and line named.
 * With $CLPRIM_TEST_TUNED_FILE (CTest: the file clprim-tune wrote in the
 * run before), that file is read back: every parameter it sets is what the
 * context then reports, and scans built from it are right. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static char log_text[16384];

static void capture(void *user, int level, const char *message)
{
    size_t len = strlen(log_text);
    (void)user;
    (void)level;
    snprintf(log_text + len, sizeof log_text - len, "%s\n", message);
}

/* The file `name` in the test's folder, holding `text`; its path. */
static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* A context with the tuning file (NULL: none); on a refused file, the
 * context's last error goes to log_text and *ctx is NULL. */
static clprim_status create(const char *tuning_file, clprim_context **ctx)
{
    clprim_context_options opt;
    clprim_status st;
    memset(&opt, 0, sizeof opt);
    opt.log = capture;
    log_text[0] = '\0';
    st = clprim_context_create(&opt, ctx);
    if (st == CLPRIM_SUCCESS && tuning_file) {
        st = clprim_context_set_tuning_file(*ctx, tuning_file);
        if (st != CLPRIM_SUCCESS) {
            size_t len = strlen(log_text);
            clprim_context_last_error(*ctx, log_text + len, sizeof log_text - len);
            clprim_context_release(*ctx);
            *ctx = NULL;
        }
    }
    return st;
}

/* The value of `name` in a clprim_context_tuning line; -1 when absent. */
static long long value_of(const char *line, const char *name)
{
    char key[64];
    const char *p;
    if (snprintf(key, sizeof key, " %s=", name) >= (int)sizeof key)
        return -1;
    p = strstr(line, key);
    return p ? (long long)strtoull(p + strlen(key), NULL, 10) : -1;
}

static long long param(clprim_context *ctx, const char *prim, size_t elem, size_t n,
                       const char *name)
{
    char line[1024];
    assert_true(clprim_context_tuning(ctx, prim, elem, n, line, sizeof line) > 0);
    return value_of(line, name);
}

/* A few scans with the context's rows, each compared whole with the reference. */
static void scans_right(clprim_context *ctx, size_t max_n)
{
    static const clprim_scan_algorithm algos[] = {CLPRIM_SCAN_AUTO, CLPRIM_SCAN_MULTILEVEL,
                                                  CLPRIM_SCAN_DECOUPLED_LOOKBACK};
    clprim_device_info info;
    uint64_t s = tu_seed();
    size_t a, k;
    assert_int_equal(clprim_context_device_info(ctx, &info), CLPRIM_SUCCESS);
    for (a = 0; a < sizeof algos / sizeof algos[0]; ++a)
        for (k = 0; k < 3; ++k) {
            tu_case c;
            memset(&c, 0, sizeof c);
            c.algorithm = algos[a];
            if (c.algorithm == CLPRIM_SCAN_DECOUPLED_LOOKBACK && !info.has_single_pass)
                continue;
            c.type = k == 1 ? CLPRIM_TYPE_INT64 : CLPRIM_TYPE_INT32;
            c.op = CLPRIM_OP_SUM;
            c.exclusive = k == 2;
            c.n = 1 + tu_rand(&s) % max_n;
            c.seed = tu_rand(&s);
            assert_int_equal(tu_run_case(ctx, &c), 0);
        }
}

static void test_describe(void **state)
{
    static const char *const prims[] = {"scan", "reduce", "compact", "segment", "sat", "sort",
                                        "search", "histogram", "merge", "top_k"};
    clprim_context *ctx;
    char line[1024], small[8];
    size_t i, len;
    (void)state;
    assert_int_equal(create(NULL, &ctx), CLPRIM_SUCCESS);
    for (i = 0; i < sizeof prims / sizeof *prims; ++i) {
        char head[64];
        len = clprim_context_tuning(ctx, prims[i], 4, 1000, line, sizeof line);
        assert_true(len > 0 && len == strlen(line));
        snprintf(head, sizeof head, "%s device=\"", prims[i]);
        assert_memory_equal(line, head, strlen(head));
        assert_non_null(strstr(line, " elem_size=4 "));
        assert_true(value_of(line, "wg_size") >= 1);
        assert_non_null(strstr(line, "  # "));
        /* the length alone, and truncation like snprintf */
        assert_int_equal(clprim_context_tuning(ctx, prims[i], 4, 1000, NULL, 0), len);
        memset(small, 'x', sizeof small);
        assert_int_equal(clprim_context_tuning(ctx, prims[i], 4, 1000, small, sizeof small), len);
        assert_int_equal(small[7], '\0');
        assert_memory_equal(small, line, 7);
    }
    assert_int_equal(clprim_context_tuning(ctx, "scans", 4, 1000, line, sizeof line), 0);
    assert_int_equal(clprim_context_tuning(ctx, NULL, 4, 1000, line, sizeof line), 0);
    assert_int_equal(clprim_context_tuning(ctx, "scan", 0, 1000, line, sizeof line), 0);
    assert_int_equal(clprim_context_tuning(NULL, "scan", 4, 1000, line, sizeof line), 0);
    assert_int_equal(clprim_context_tuning(ctx, "scan", 4, 1000, NULL, 8), 0);
    clprim_context_release(ctx);
}

/* Rows of the file over the built-in ones: by primitive, device, element
 * size and n; the first that matches; the rest of a row left as built in. */
static void test_rows_apply(void **state)
{
    clprim_context *ctx;
    clprim_device_info info;
    char text[2048];
    long long wg, coarse, groups;
    (void)state;
    assert_int_equal(create(NULL, &ctx), CLPRIM_SUCCESS);
    assert_int_equal(clprim_context_device_info(ctx, &info), CLPRIM_SUCCESS);
    coarse = param(ctx, "scan", 4, 1000, "coarse_items");
    groups = param(ctx, "reduce", 8, 1000, "groups_per_cu");
    clprim_context_release(ctx);
    /* a device name of another, an element size of another, then classes by n */
    snprintf(text, sizeof text,
             "# comment line\n\n"
             "scan device=\"no such device here\" tile_items=11\n"
             "scan elem_size=8 tile_items=9   # 8-byte elements\n"
             "scan device=\"%.20s\" elem_size=4 max_n=999 tile_items=5\n"
             "scan\tmin_n=1000 max_n=0x10000 tile_items=6 wg_size=32\n"
             "scan tile_items=7\n"
             "reduce groups_per_cu=%lld\n",
             info.device_name + 1, groups + 3);
    assert_int_equal(create(write_file("rows.txt", text), &ctx), CLPRIM_SUCCESS);
    assert_non_null(strstr(log_text, "rows.txt"));
    assert_int_equal(param(ctx, "scan", 4, 999, "tile_items"), 5);
    assert_int_equal(param(ctx, "scan", 4, 1000, "tile_items"), 6);
    assert_int_equal(param(ctx, "scan", 4, 0x10000, "tile_items"), 6);
    assert_int_equal(param(ctx, "scan", 4, 0x10001, "tile_items"), 7);
    assert_int_equal(param(ctx, "scan", 8, 10, "tile_items"), 9);
    assert_int_equal(param(ctx, "scan", 4, 999, "coarse_items"), coarse);
    wg = param(ctx, "scan", 4, 5000, "wg_size");
    /* 32, or the SIMD width where that is wider (a work-group holds whole
     * SIMD groups: CLPRIM_SUB_GROUP_SIZE=64 on Intel's CPU runtime) */
    assert_true(wg >= 1 && wg <= (info.simd_width > 32 ? info.simd_width : 32));
    assert_int_equal(param(ctx, "reduce", 8, 10, "groups_per_cu"), groups + 3);
    {
        char line[1024];
        clprim_context_tuning(ctx, "scan", 4, 999, line, sizeof line);
        assert_non_null(strstr(line, "# tuning file "));
        assert_non_null(strstr(line, "rows.txt:5"));
    }
    /* the calls use them (the log says which row built each program) */
    scans_right(ctx, 5000);
    assert_non_null(strstr(log_text, "tuning: tuning file "));
    clprim_context_release(ctx);
}

/* What clprim_context_tuning writes reads back as a file, to the same values. */
static void test_round_trip(void **state)
{
    static const char *const prims[] = {"scan", "reduce", "compact", "segment", "sat", "sort",
                                        "search", "histogram", "merge", "top_k"};
    clprim_context *ctx;
    char text[8192] = "", line[1024], again[1024];
    size_t i, len = 0;
    (void)state;
    assert_int_equal(create(NULL, &ctx), CLPRIM_SUCCESS);
    for (i = 0; i < sizeof prims / sizeof *prims; ++i) {
        clprim_context_tuning(ctx, prims[i], 4, 1 << 20, line, sizeof line);
        len += (size_t)snprintf(text + len, sizeof text - len, "%s\n", line);
    }
    clprim_context_release(ctx);
    assert_int_equal(create(write_file("trip.txt", text), &ctx), CLPRIM_SUCCESS);
    for (i = 0; i < sizeof prims / sizeof *prims; ++i) {
        char *a, *b;
        clprim_context_tuning(ctx, prims[i], 4, 1 << 20, again, sizeof again);
        a = strstr(text, prims[i]);
        b = strstr(a, "  # ");
        assert_non_null(b);
        /* the values; the source now names the file */
        assert_memory_equal(again, a, (size_t)(b - a));
        assert_non_null(strstr(again, "trip.txt:"));
        a = strchr(a, '\n');
        assert_non_null(a);
    }
    clprim_context_release(ctx);
}

/* $CLPRIM_TUNING_FILE at creation; clprim_context_set_tuning_file replaces
 * a context's rows, keeps them when it refuses a file, and NULL removes them. */
static void test_environment(void **state)
{
    clprim_context *ctx;
    long long built_in;
    (void)state;
    assert_int_equal(create(NULL, &ctx), CLPRIM_SUCCESS);
    built_in = param(ctx, "scan", 4, 100, "coarse_items");
    assert_int_equal(clprim_context_set_tuning_file(ctx, write_file("a.txt", "scan coarse_items=5\n")),
                     CLPRIM_SUCCESS);
    assert_int_equal(param(ctx, "scan", 4, 100, "coarse_items"), 5);
    assert_int_equal(clprim_context_set_tuning_file(ctx, write_file("b.txt", "scan coarse_items=\n")),
                     CLPRIM_INVALID_ARGUMENT);
    assert_int_equal(tu_refused(ctx, CLPRIM_INVALID_ARGUMENT, CLPRIM_INVALID_ARGUMENT, "b.txt line 1"),
                     0);
    assert_int_equal(param(ctx, "scan", 4, 100, "coarse_items"), 5);
    assert_int_equal(clprim_context_set_tuning_file(ctx, NULL), CLPRIM_SUCCESS);
    assert_int_equal(param(ctx, "scan", 4, 100, "coarse_items"), built_in);
    assert_int_equal(clprim_context_set_tuning_file(NULL, NULL), CLPRIM_INVALID_ARGUMENT);
    clprim_context_release(ctx);
    setenv("CLPRIM_TUNING_FILE", write_file("env.txt", "scan coarse_items=3\n"), 1);
    assert_int_equal(create(NULL, &ctx), CLPRIM_SUCCESS);
    assert_int_equal(param(ctx, "scan", 4, 100, "coarse_items"), 3);
    clprim_context_release(ctx);
    setenv("CLPRIM_TUNING_FILE", write_file("env-bad.txt", "scan coarse_items=three\n"), 1);
    assert_int_equal(create(NULL, &ctx), CLPRIM_INVALID_ARGUMENT);
    assert_null(ctx);
    setenv("CLPRIM_TUNING_FILE", "", 1);
    assert_int_equal(create(NULL, &ctx), CLPRIM_SUCCESS);
    clprim_context_release(ctx);
    unsetenv("CLPRIM_TUNING_FILE");
}

/* Refused files: the status, and a message naming the file and line. */
static void test_refused(void **state)
{
    static const struct {
        const char *text, *needle;
    } bad[] = {
        {"scan wg_size=64\nscans wg_size=64\n", "line 2: unknown primitive"},
        {"# ok\nscan tile_itemz=8\n", "line 2: no such parameter"},
        {"scan tile_items=\n", "line 1: not a number"},
        {"scan tile_items=-4\n", "line 1: not a number"},
        {"scan tile_items=8x\n", "line 1: not a number"},
        {"scan tile_items=99999999999\n", "line 1: not a number"},
        {"scan tile_items 8\n", "line 1: expected name=value"},
        {"scan =8\n", "line 1: expected name=value"},
        {"scan device=\"NVIDIA H200 tile_items=8\n", "line 1: unterminated quote"},
        {"scan device= tile_items=8\n", "line 1: device= needs a name"},
        {"scan min_n=10 max_n=5\n", "line 1: min_n is above max_n"},
        {"scan elem_size=four\n", "line 1: not a number"},
    };
    clprim_context *ctx = (clprim_context *)&ctx;
    char text[6000];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(create(write_file("bad.txt", bad[i].text), &ctx), CLPRIM_INVALID_ARGUMENT);
        assert_null(ctx);
        if (!strstr(log_text, bad[i].needle) || !strstr(log_text, "bad.txt"))
            fail_msg("file %zu: log \"%s\" lacks \"%s\"", i, log_text, bad[i].needle);
    }
    assert_int_equal(create("/nonexistent/clprim/tuning.txt", &ctx), CLPRIM_INVALID_ARGUMENT);
    assert_non_null(strstr(log_text, "/nonexistent/clprim/tuning.txt: cannot be read"));
    memset(text, 'x', sizeof text - 2);
    memcpy(text, "scan ", 5);
    text[sizeof text - 2] = '\n';
    text[sizeof text - 1] = '\0';
    assert_int_equal(create(write_file("long.txt", text), &ctx), CLPRIM_INVALID_ARGUMENT);
    assert_non_null(strstr(log_text, "line 1: line longer than"));
}

/* Values no device runs as given are lowered, as built-in rows are: the
 * calls stay right (or are refused clearly), never crash. */
static void test_extreme_values(void **state)
{
    clprim_context *ctx;
    (void)state;
    assert_int_equal(create(write_file("extreme.txt",
                                       "scan wg_size=0 tile_items=0 coarse_items=0 sp_tile_items=0 "
                                       "sp_wg_size=0 sp_groups_per_cu=0 lookback_spins=0\n"
                                       "reduce wg_size=0 groups_per_cu=0\n"),
                            &ctx),
                     CLPRIM_SUCCESS);
    scans_right(ctx, 3000);
    clprim_context_release(ctx);
    assert_int_equal(create(write_file("huge.txt", "scan wg_size=65536 tile_items=4096 "
                                                   "coarse_items=4096 sp_tile_items=4096 "
                                                   "sp_wg_size=65536 sp_groups_per_cu=100000\n"),
                            &ctx),
                     CLPRIM_SUCCESS);
    scans_right(ctx, 3000);
    clprim_context_release(ctx);
}

/* The file clprim-tune wrote (CTest runs it first): read back, every
 * parameter it names is what the context reports for its rows, and the
 * scans it tuned are right. */
static void test_tuned_file(void **state)
{
    const char *path = getenv("CLPRIM_TEST_TUNED_FILE");
    clprim_context *ctx;
    char text[4096];
    FILE *f;
    int rows = 0;
    (void)state;
    if (!path || !*path)
        skip();
    assert_int_equal(create(path, &ctx), CLPRIM_SUCCESS);
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(text, sizeof text, f)) {
        char prim[32], line[1024], *p = text, *tok;
        long long elem = -1, max_n = -1;
        if (text[0] == '#' || text[0] == '\n' || sscanf(text, "%31s", prim) != 1)
            continue;
        if ((tok = strstr(text, " elem_size=")))
            elem = atoll(tok + 11);
        if ((tok = strstr(text, " max_n=")))
            max_n = atoll(tok + 7);
        assert_true(elem > 0 && max_n != 0);
        clprim_context_tuning(ctx, prim, (size_t)elem, max_n > 0 ? (size_t)max_n : 1u << 30,
                              line, sizeof line);
        assert_non_null(strstr(line, "# tuning file "));
        /* every name=value after the device's name */
        p = strchr(strchr(text, '"') + 1, '"') + 1;
        for (tok = strtok(p, " \t\n"); tok && *tok != '#'; tok = strtok(NULL, " \t\n")) {
            char name[64];
            unsigned long long v;
            if (sscanf(tok, "%63[^=]=%llu", name, &v) != 2 || !strcmp(name, "min_n") ||
                !strcmp(name, "max_n") || !strcmp(name, "elem_size"))
                continue;
            if (!strcmp(name, "wg_size") || !strcmp(name, "sp_wg_size"))
                assert_true(value_of(line, name) >= 1 && (unsigned long long)value_of(line, name) <= v);
            else
                assert_int_equal((unsigned long long)value_of(line, name), v);
        }
        ++rows;
    }
    fclose(f);
    assert_true(rows >= 1);
    scans_right(ctx, 1 << 16);
    clprim_context_release(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe),       cmocka_unit_test(test_rows_apply),
        cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_environment),
        cmocka_unit_test(test_refused),        cmocka_unit_test(test_extreme_values),
        cmocka_unit_test(test_tuned_file),
    };
    const char *tmp = getenv("TMPDIR");
    int failed;
    snprintf(dir, sizeof dir, "%s/clprim-tuning-XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return 1;
    failed = cmocka_run_group_tests(tests, NULL, NULL);
    {
        static const char *const files[] = {"rows.txt", "trip.txt",    "env.txt",  "env-bad.txt",
                                            "bad.txt",  "long.txt",    "a.txt",    "b.txt",
                                            "extreme.txt", "huge.txt"};
        char path[256];
        size_t i;
        for (i = 0; i < sizeof files / sizeof files[0]; ++i) {
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            remove(path);
        }
        rmdir(dir);
    }
    return failed;
}

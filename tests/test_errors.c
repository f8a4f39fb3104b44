/* SPDX-License-Identifier: MIT */
/* Bad input: every one gets a clear status and message, nothing runs, the
 * context stays usable. */
#define _POSIX_C_SOURCE 200809L
#include "common/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

static clprim_context *ctx;
static cl_mem buf, other_ctx_buf;
static cl_context other;
#define N 1000

static void expect_on(clprim_context *c, clprim_status got, clprim_status want,
                      const char *words)
{
    char msg[4096];
    assert_string_equal(clprim_status_string(got), clprim_status_string(want));
    if (words) {
        clprim_context_last_error(c, msg, sizeof msg);
        if (!strstr(msg, words))
            fail_msg("message \"%s\" does not mention \"%s\"", msg, words);
    }
}

static void expect(clprim_status got, clprim_status want, const char *words)
{
    expect_on(ctx, got, want, words);
}

static clprim_status scan(const clprim_scan_desc *d, cl_mem in, size_t in_off, cl_mem out,
                          size_t out_off, size_t n)
{
    return clprim_scan(ctx, NULL, d, in, in_off, out, out_off, n, 0, NULL, NULL);
}

/* Misuse refused: overlapping ranges of one buffer (other than a call's
 * in == out in place), and a read-only buffer written. */
static void test_misuse(void **state)
{
    cl_context cl = clprim_context_cl_context(ctx);
    clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    const clprim_reduce_desc rd = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    const cl_int zero = 0;
    clprim_compact_desc cd;
    cl_int err;
    cl_mem ro = clCreateBuffer(cl, CL_MEM_READ_ONLY, 64 * 4, NULL, &err);
    (void)state;
    assert_int_equal(err, CL_SUCCESS);
    expect(scan(&d, buf, 0, buf, 2, 10), CLPRIM_INVALID_ARGUMENT, "overlap");
    expect(scan(&d, buf, 2, buf, 0, 10), CLPRIM_INVALID_ARGUMENT, "in place needs");
    expect(scan(&d, buf, 0, buf, 10, 10), CLPRIM_SUCCESS, NULL); /* adjacent ranges */
    expect(scan(&d, buf, 5, buf, 5, 10), CLPRIM_SUCCESS, NULL);  /* in place */
    expect(scan(&d, buf, 0, ro, 0, 10), CLPRIM_INVALID_ARGUMENT, "read-only");
    expect(scan(&d, ro, 0, buf, 0, 10), CLPRIM_SUCCESS, NULL);   /* read-only input */
    expect(clprim_reduce(ctx, NULL, &rd, buf, 0, 10, buf, 9, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "result");
    expect(clprim_reduce(ctx, NULL, &rd, buf, 0, 10, buf, 10, 0, NULL, NULL), CLPRIM_SUCCESS, NULL);
    memset(&cd, 0, sizeof cd);
    cd.predicate = CLPRIM_PREDICATE_LESS;
    cd.value = &zero;
    /* the count (8 bytes at element 20 of buf) inside the output */
    expect(clprim_select(ctx, NULL, &cd, buf, 100, buf, 0, 50, buf, 10, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "count");
    expect(clprim_partition(ctx, NULL, &cd, buf, 100, buf, 90, 50, buf, 0, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "overlap");
    clFinish(clprim_context_queue(ctx));
    clReleaseMemObject(ro);
}

/* A released operator or element type is refused by its pointer, before
 * anything reads through it (the sanitizer build would see such a read). */
static void test_released_handles(void **state)
{
    const clprim_operator_desc od = {"int", NULL, "a + b", "0", 4, 0, NULL, 0, NULL};
    const clprim_element_desc ed = {"int", NULL, 4};
    clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    clprim_compact_desc cd;
    clprim_operator *op = NULL;
    clprim_element *el = NULL;
    clprim_operator_desc on_el = od;
    (void)state;
    assert_int_equal(clprim_operator_create(ctx, &od, &op), CLPRIM_SUCCESS);
    assert_int_equal(clprim_element_create(ctx, &ed, &el), CLPRIM_SUCCESS);
    assert_int_equal(clprim_operator_size(op), 4);
    d.custom = op;
    expect(scan(&d, buf, 0, buf, 16, 16), CLPRIM_SUCCESS, NULL);
    clprim_operator_release(op);
    clprim_element_release(el);
    assert_int_equal(clprim_operator_size(op), 0);
    assert_int_equal(clprim_element_size(el), 0);
    expect(scan(&d, buf, 0, buf, 16, 16), CLPRIM_INVALID_ARGUMENT, "not a live operator");
    memset(&cd, 0, sizeof cd);
    cd.element = el;
    cd.predicate = CLPRIM_PREDICATE_FLAGS_U8;
    cd.flags = buf;
    expect(clprim_select(ctx, NULL, &cd, buf, 0, buf, 100, 8, NULL, 0, 0, NULL, NULL),
           CLPRIM_INVALID_ARGUMENT, "not a live element type");
    on_el.element = el;
    op = NULL;
    expect(clprim_operator_create(ctx, &on_el, &op), CLPRIM_INVALID_ARGUMENT,
           "not a live element type");
    assert_null(op);
    clFinish(clprim_context_queue(ctx));
}

static void test_null_handles(void **state)
{
    clprim_scan_desc d = {0};
    cl_event ev = (cl_event)1;
    (void)state;
    expect(clprim_scan(NULL, NULL, &d, buf, 0, buf, 0, 1, 0, NULL, &ev),
           CLPRIM_INVALID_ARGUMENT, NULL);
    assert_null(ev); /* an output event is cleared even on failure */
    expect(scan(NULL, buf, 0, buf, 0, 1), CLPRIM_INVALID_ARGUMENT, "desc");
    expect(scan(&d, NULL, 0, buf, 0, 1), CLPRIM_INVALID_ARGUMENT, "in is NULL");
    expect(scan(&d, buf, 0, NULL, 0, 1), CLPRIM_INVALID_ARGUMENT, "out is NULL");
    expect(scan(&d, buf, 0, NULL, 0, 0), CLPRIM_INVALID_ARGUMENT, "out is NULL");
    expect(clprim_context_create(NULL, NULL), CLPRIM_INVALID_ARGUMENT, NULL);
    expect(clprim_context_wrap(NULL, NULL, NULL, NULL, NULL), CLPRIM_INVALID_ARGUMENT, NULL);
    expect(clprim_scan_host(NULL, &d, NULL, NULL, 0), CLPRIM_INVALID_ARGUMENT, NULL);
    expect(clprim_scan_host(ctx, &d, NULL, NULL, 5), CLPRIM_INVALID_ARGUMENT, "NULL");
    clprim_context_release(NULL); /* a no-op */
    assert_int_equal(clprim_context_last_error(NULL, NULL, 0), 0);
}

static void test_out_of_bounds(void **state)
{
    clprim_scan_desc d = {0};
    (void)state;
    expect(scan(&d, buf, 0, buf, 0, N + 1), CLPRIM_OUT_OF_BOUNDS, "exceed");
    expect(scan(&d, buf, 1, buf, 1, N), CLPRIM_OUT_OF_BOUNDS, "in:");
    expect(scan(&d, buf, 0, buf, 5, N - 4), CLPRIM_OUT_OF_BOUNDS, "out:");
    expect(scan(&d, buf, N + 1, buf, 0, 0), CLPRIM_OUT_OF_BOUNDS, NULL);
    expect(scan(&d, buf, (size_t)-1, buf, 0, 2), CLPRIM_OUT_OF_BOUNDS, NULL); /* overflow */
    expect(scan(&d, buf, 0, buf, 0, (size_t)-1), CLPRIM_OUT_OF_BOUNDS, NULL);
    d.type = CLPRIM_TYPE_INT64; /* 8-byte elements: half as many fit */
    expect(scan(&d, buf, 0, buf, 0, N / 2 + 1), CLPRIM_OUT_OF_BOUNDS, NULL);
    expect(scan(&d, buf, 0, buf, 0, N / 2), CLPRIM_SUCCESS, NULL);
    assert_int_equal(clFinish(clprim_context_queue(ctx)), CL_SUCCESS);
}

static void test_unknown_enums(void **state)
{
    clprim_scan_desc d = {0};
    (void)state;
    d.op = (clprim_op)CLPRIM_OP_COUNT_;
    expect(scan(&d, buf, 0, buf, 0, 10), CLPRIM_UNKNOWN_OPERATOR, "op");
    d.op = (clprim_op)-1;
    expect(scan(&d, buf, 0, buf, 0, 10), CLPRIM_UNKNOWN_OPERATOR, "op");
    d.op = CLPRIM_OP_SUM;
    d.algorithm = (clprim_scan_algorithm)77;
    expect(scan(&d, buf, 0, buf, 0, 10), CLPRIM_UNKNOWN_ALGORITHM, "algorithm");
    d.algorithm = CLPRIM_SCAN_AUTO;
    d.type = (clprim_type)CLPRIM_TYPE_COUNT_;
    expect(scan(&d, buf, 0, buf, 0, 10), CLPRIM_UNKNOWN_TYPE, "type");
    expect(clprim_scan_host(ctx, &d, NULL, NULL, 0), CLPRIM_UNKNOWN_TYPE, "type");
    assert_null(clprim_type_name((clprim_type)99));
    assert_null(clprim_op_name((clprim_op)99));
    assert_null(clprim_scan_algorithm_name((clprim_scan_algorithm)99));
    assert_int_equal(clprim_type_size((clprim_type)99), 0);
    assert_string_equal(clprim_status_string(12345), "unknown status");
    assert_string_equal(clprim_status_string(CL_INVALID_VALUE), "CL_INVALID_VALUE");
}

static void test_wrong_objects(void **state)
{
    clprim_scan_desc d = {0};
    cl_command_queue q;
    cl_int err;
    (void)state;
    expect(scan(&d, other_ctx_buf, 0, buf, 0, 10), CLPRIM_INVALID_ARGUMENT, "cl_context");
    expect(scan(&d, buf, 0, other_ctx_buf, 0, 10), CLPRIM_INVALID_ARGUMENT, "cl_context");
    q = clCreateCommandQueue(other, clprim_context_device(ctx), 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    expect(clprim_scan(ctx, q, &d, buf, 0, buf, 0, 10, 0, NULL, NULL), CLPRIM_INVALID_ARGUMENT,
           "queue");
    clReleaseCommandQueue(q);
}

static void test_bad_wait_list(void **state)
{
    clprim_scan_desc d = {0};
    cl_event ev = NULL;
    (void)state;
    expect(clprim_scan(ctx, NULL, &d, buf, 0, buf, 0, 10, 1, NULL, NULL),
           CL_INVALID_EVENT_WAIT_LIST, "num_wait");
    expect(clprim_scan(ctx, NULL, &d, buf, 0, buf, 0, 10, 0, &ev, NULL),
           CL_INVALID_EVENT_WAIT_LIST, "num_wait");
    /* a NULL event, and an event of another cl_context */
    {
        cl_event bogus[2] = {NULL, NULL};
        cl_int err;
        expect(clprim_scan(ctx, NULL, &d, buf, 0, buf, 0, 10, 1, bogus, NULL),
               CL_INVALID_EVENT_WAIT_LIST, "wait[0]");
        bogus[1] = clCreateUserEvent(other, &err);
        bogus[0] = bogus[1];
        expect(clprim_scan(ctx, NULL, &d, buf, 0, buf, 0, 10, 1, bogus, NULL),
               CL_INVALID_EVENT_WAIT_LIST, "wait[0]");
        clSetUserEventStatus(bogus[1], CL_COMPLETE);
        clReleaseEvent(bogus[1]);
    }
}

static void test_no_fp64(void **state)
{
    clprim_context_options o;
    clprim_context *c = NULL;
    clprim_device_info info;
    clprim_scan_desc d = {CLPRIM_TYPE_DOUBLE, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL, NULL, CLPRIM_REPRO_NONE};
    double x[4] = {1, 2, 3, 4};
    char msg[256];
    (void)state;
    memset(&o, 0, sizeof o);
    o.flags = CLPRIM_CONTEXT_HIDE_FP64;
    assert_int_equal(clprim_context_create(&o, &c), CLPRIM_SUCCESS);
    assert_int_equal(clprim_context_device_info(c, &info), CLPRIM_SUCCESS);
    assert_false(info.has_fp64);
    assert_int_equal(clprim_scan_host(c, &d, x, x, 4), CLPRIM_UNSUPPORTED);
    clprim_context_last_error(c, msg, sizeof msg);
    assert_non_null(strstr(msg, "cl_khr_fp64"));
    assert_true(x[3] == 4.0); /* nothing ran */
    d.type = CLPRIM_TYPE_FLOAT; /* the context still works for other types */
    {
        float f[3] = {1, 2, 3};
        assert_int_equal(clprim_scan_host(c, &d, f, f, 3), CLPRIM_SUCCESS);
        assert_true(f[2] == 6.0f);
    }
    clprim_context_release(c);
}

static void test_no_device(void **state)
{
    clprim_context_options o;
    clprim_context *c = (clprim_context *)&o;
    (void)state;
    memset(&o, 0, sizeof o);
    o.device = "no such device 0xdeadbeef";
    assert_int_equal(clprim_context_create(&o, &c), CLPRIM_NO_DEVICE);
    assert_null(c);
}

/* A kernel that does not compile: BUILD_FAILED, the compiler's log in the
 * message, and the same context works once the source is good again. */
static void test_build_failure(void **state)
{
    char dir[] = "/tmp/clprim-broken-XXXXXX", path[1024], msg[4096];
    char src_dir[] = CLPRIM_SOURCE_DIR "/cl/common";
    clprim_context *c = NULL;
    clprim_scan_desc d = {CLPRIM_TYPE_UINT32, CLPRIM_OP_MIN, 0, CLPRIM_SCAN_MULTILEVEL, NULL, NULL, CLPRIM_REPRO_NONE};
    cl_uint x[3] = {3, 1, 2};
    DIR *common;
    struct dirent *e;
    FILE *f;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/common", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    /* the real common headers, a broken kernel file */
    assert_non_null(common = opendir(src_dir));
    while ((e = readdir(common)) != NULL) {
        char src[1024], buf[4096];
        FILE *in;
        size_t got;
        if (e->d_name[0] == '.')
            continue;
        snprintf(src, sizeof src, "%s/%s", src_dir, e->d_name);
        snprintf(path, sizeof path, "%s/common/%s", dir, e->d_name);
        assert_non_null(in = fopen(src, "rb"));
        assert_non_null(f = fopen(path, "wb"));
        while ((got = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, got, f);
        fclose(in);
        fclose(f);
    }
    closedir(common);
    /* scan's contract header as it is, and a broken kernel file */
    snprintf(path, sizeof path, "%s/scan_abi.h", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs("#define SCAN_EXCLUSIVE 1u\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/scan.cl", dir);
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs("kernel void scan_multilevel(global T *p) { this_is_not_declared(p); }\n", f);
    fclose(f);

    assert_int_equal(clprim_context_create(NULL, &c), CLPRIM_SUCCESS);
    setenv("CLPRIM_KERNEL_DIR", dir, 1);
    expect_on(c, clprim_scan_host(c, &d, x, x, 3), CLPRIM_BUILD_FAILED, "build log");
    clprim_context_last_error(c, msg, sizeof msg);
    assert_non_null(strstr(msg, "this_is_not_declared"));
    assert_true(x[1] == 1 && x[2] == 2); /* nothing ran */
    unsetenv("CLPRIM_KERNEL_DIR");
    assert_int_equal(clprim_scan_host(c, &d, x, x, 3), CLPRIM_SUCCESS);
    assert_true(x[0] == 3 && x[1] == 1 && x[2] == 1);
    clprim_context_release(c);
    /* remove the copies */
    assert_non_null(common = opendir(src_dir));
    while ((e = readdir(common)) != NULL) {
        snprintf(path, sizeof path, "%s/common/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            remove(path);
    }
    closedir(common);
    snprintf(path, sizeof path, "%s/common", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/scan.cl", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/scan_abi.h", dir);
    remove(path);
    rmdir(dir);
}

static void test_last_error_truncates(void **state)
{
    clprim_scan_desc d = {0};
    char small[8];
    size_t len;
    (void)state;
    scan(&d, NULL, 0, buf, 0, 1);
    len = clprim_context_last_error(ctx, small, sizeof small);
    assert_true(len > sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_handles),   cmocka_unit_test(test_out_of_bounds),
        cmocka_unit_test(test_misuse),         cmocka_unit_test(test_released_handles),
        cmocka_unit_test(test_unknown_enums),  cmocka_unit_test(test_wrong_objects),
        cmocka_unit_test(test_bad_wait_list),  cmocka_unit_test(test_no_fp64),
        cmocka_unit_test(test_no_device),      cmocka_unit_test(test_last_error_truncates),
        cmocka_unit_test(test_build_failure),
    };
    cl_int err;
    int rc;
    cl_device_id dev;

    ctx = tu_context();
    dev = clprim_context_device(ctx);
    buf = clCreateBuffer(clprim_context_cl_context(ctx), CL_MEM_READ_WRITE, N * 4, NULL, &err);
    other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    other_ctx_buf = clCreateBuffer(other, CL_MEM_READ_WRITE, N * 4, NULL, &err);
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    clReleaseMemObject(other_ctx_buf);
    clReleaseContext(other);
    clReleaseMemObject(buf);
    clprim_context_release(ctx);
    return rc;
}

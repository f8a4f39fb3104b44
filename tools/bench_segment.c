/* SPDX-License-Identifier: MIT */
/* clprim-bench --segmented FORM: times the segmented scans and reduces of
 * int32 sums over n, and transform-scan beside the plain scan, against the
 * copy ceiling measured in the same run; every result is checked against a
 * sequential loop on the host.
 *
 * FORM: scan-flags, scan-keys, scan-offsets, reduce-flags, reduce-keys,
 * reduce-offsets (segments of `len` elements on average, heads at random),
 * or transform (int32 "x > 0" counted into a uint32 sum, and the plain
 * uint32 sum scan of the same n, one after the other).
 *
 * GB/s counts the bytes the call must move: values read (4n), flags (n) or
 * keys (4n) or offsets (4 per segment) read, and what is written: 4n for a
 * scan; for a reduce 4 per segment (and 4 per key with keys). "ratio" is
 * that rate over clEnqueueCopyBuffer's (bytes read + written) of 4n. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "reference/reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SCAN_FLAGS, SCAN_KEYS, SCAN_OFFSETS, REDUCE_FLAGS, REDUCE_KEYS, REDUCE_OFFSETS, TRANSFORM,
       PLAIN };
static const char *const forms[] = {"scan-flags",   "scan-keys",   "scan-offsets",
                                    "reduce-flags", "reduce-keys", "reduce-offsets",
                                    "transform",    "plain-scan"};

typedef struct seg_call {
    int form;
    clprim_segments sg;
    size_t n;
    cl_mem keys_out, count;
} seg_call;

static const clprim_transform positives = {CLPRIM_TYPE_INT32, "x > 0"};

static int enqueue_seg(bench *b, const void *arg, cl_event *ev)
{
    const seg_call *c = arg;
    clprim_status st;
    if (c->form == TRANSFORM || c->form == PLAIN) {
        const clprim_scan_desc d = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL,
                                    c->form == TRANSFORM ? &positives : NULL};
        st = clprim_scan(b->ctx, NULL, &d, b->in, 0, b->out, 0, c->n, 0, NULL, ev);
    } else if (c->form < REDUCE_FLAGS) {
        const clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL,
                                    NULL};
        st = clprim_segmented_scan(b->ctx, NULL, &d, &c->sg, b->in, 0, b->out, 0, c->n, 0, NULL,
                                   ev);
    } else {
        const clprim_reduce_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL,
                                      NULL};
        st = clprim_segmented_reduce(b->ctx, NULL, &d, &c->sg, b->in, 0, c->n, b->out, 0,
                                     c->form == REDUCE_KEYS ? c->keys_out : NULL, 0, c->count, 0, 0,
                                     NULL, ev);
    }
    return st == CLPRIM_SUCCESS;
}

/* The host's answer for x (int32 wrapping sums) into want; returns the
 * values written (n, or the number of segments). */
static size_t expected(int form, const cl_int *x, const unsigned char *head, size_t n,
                       cl_int *want)
{
    size_t i, m = 0;
    cl_uint acc = 0;
    for (i = 0; i < n; ++i) {
        if (form == TRANSFORM || form == PLAIN) {
            acc += form == TRANSFORM ? x[i] > 0 : (cl_uint)x[i];
            want[m++] = (cl_int)acc;
            continue;
        }
        acc = (head[i] ? 0u : acc) + (cl_uint)x[i];
        if (form < REDUCE_FLAGS)
            want[m++] = (cl_int)acc;
        else if (i + 1 == n || head[i + 1])
            want[m++] = (cl_int)acc;
    }
    return m;
}

int clprim_bench_segment(bench *b, const char *form_name, size_t len, const size_t *sizes,
                         size_t count, const char *csv_path, int progress)
{
    cl_context cl = clprim_context_cl_context(b->ctx);
    int form = -1, k;
    size_t max_n = 0, s;
    cl_int *x = NULL, *want = NULL, *got = NULL, *offs = NULL, err;
    unsigned char *head = NULL;
    uint64_t seed = 0x452821E638D01377ull;
    clprim_device_info info;
    FILE *csv = NULL;
    seg_call c;
    cl_mem segs = NULL;
    int rc = 1;

    for (k = 0; k < (int)(sizeof forms / sizeof forms[0]) - 1; ++k)
        if (!strcmp(form_name, forms[k]))
            form = k;
    if (form < 0 || len < 1) {
        fprintf(stderr, "clprim-bench: --segmented takes scan-flags, scan-keys, scan-offsets, "
                        "reduce-flags, reduce-keys, reduce-offsets or transform, and "
                        "--segment-length at least 1\n");
        return 2;
    }
    for (s = 0; s < count; ++s)
        max_n = sizes[s] > max_n ? sizes[s] : max_n;
    memset(&c, 0, sizeof c);
    x = malloc(max_n * 4);
    want = malloc(max_n * 4);
    got = malloc(max_n * 4);
    offs = malloc(max_n * 4 + 4);
    head = malloc(max_n + 1);
    segs = clCreateBuffer(cl, CL_MEM_READ_ONLY, max_n * 4 + 4, NULL, &err);
    c.keys_out = clCreateBuffer(cl, CL_MEM_READ_WRITE, max_n * 4, NULL, &err);
    c.count = clCreateBuffer(cl, CL_MEM_READ_WRITE, 8, NULL, &err);
    if (!x || !want || !got || !offs || !head || !segs || !c.keys_out || !c.count) {
        fprintf(stderr, "clprim-bench: cannot allocate %zu elements\n", max_n);
        goto done;
    }
    if (csv_path && !(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "clprim-bench: cannot write %s\n", csv_path);
        goto done;
    }
    clprim_context_device_info(b->ctx, &info);
    if (csv)
        fprintf(csv, "device,driver,form,segment_length,n,segments,device_us,gbs,copy_gbs,"
                     "ratio_to_copy,bytes_moved,verified,batch_us,copy_batch_gbs,"
                     "ratio_to_copy_batch\n");
    printf("# %s / %s, driver %s\n# int32 sum, %s, segments of %zu on average; GB/s = bytes the "
           "call must move / median device time; ratio: over clEnqueueCopyBuffer of 4n\n",
           info.platform_name, info.device_name, info.driver_version, forms[form], len);
    printf("%-10s %-14s %10s %10s %9s %9s %7s %7s %s\n", "n", "form", "segments", "device_us",
           "GB/s", "copy GB/s", "ratio", "batched", "ok");
    for (s = 0; s < count; ++s) {
        const size_t n = sizes[s], bytes = n * 4;
        double copy_us, kernel_us, copy_host_us, read_us, copy_b_us, read_b_us;
        size_t i, m = 0;
        int pass;
        for (i = 0; i < n; ++i) {
            const uint64_t r = clprim_ref_rand(&seed);
            x[i] = (cl_int)(r >> 32) % 1000 - 500;
            head[i] = i == 0 || (len > 1 ? (r & 0xFFFFFFFu) % len == 0 : 1);
            if (head[i])
                offs[m++] = (cl_int)i;
        }
        offs[m] = (cl_int)n;
        clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, bytes, x, 0, NULL, NULL);
        /* the segments in the form asked for: uint8 flags, int32 keys (the
         * running segment number), or int32 offsets */
        if (form == SCAN_FLAGS || form == REDUCE_FLAGS) {
            clEnqueueWriteBuffer(b->q, segs, CL_TRUE, 0, n, head, 0, NULL, NULL);
        } else if (form == SCAN_KEYS || form == REDUCE_KEYS) {
            cl_int key = -1;
            for (i = 0; i < n; ++i)
                got[i] = key += head[i];
            clEnqueueWriteBuffer(b->q, segs, CL_TRUE, 0, bytes, got, 0, NULL, NULL);
        } else if (form == SCAN_OFFSETS || form == REDUCE_OFFSETS) {
            clEnqueueWriteBuffer(b->q, segs, CL_TRUE, 0, (m + 1) * 4, offs, 0, NULL, NULL);
        }
        c.sg.kind = form == SCAN_FLAGS || form == REDUCE_FLAGS ? CLPRIM_SEGMENTS_FLAGS_U8
                    : form == SCAN_KEYS || form == REDUCE_KEYS ? CLPRIM_SEGMENTS_KEYS
                                                               : CLPRIM_SEGMENTS_OFFSETS;
        c.sg.mem = segs;
        c.sg.type = CLPRIM_TYPE_INT32;
        c.sg.num_segments = c.sg.kind == CLPRIM_SEGMENTS_OFFSETS ? m : 0; /* refused elsewhere */
        c.n = n;
        time_copies(b, bytes, &copy_us, &kernel_us, &copy_host_us, &read_us, &copy_b_us, &read_b_us);
        for (pass = 0; pass < (form == TRANSFORM ? 2 : 1); ++pass) {
            double dev_us, call_b_us, moved;
            size_t written, bad;
            int ok = 1;
            c.form = pass ? PLAIN : form;
            if (progress)
                fprintf(stderr, "\r\033[K[size %zu of %zu] n = %zu, %s ...", s + 1, count, n,
                        forms[c.form]);
            dev_us = median_gated_us(b, enqueue_seg, &c, &ok);
            if (!ok) {
                char why[512];
                clprim_context_last_error(b->ctx, why, sizeof why);
                printf("%-10zu %-14s failed: %s\n", n, forms[c.form], why);
                continue;
            }
            call_b_us = batch_us(b, enqueue_seg, &c);
            written = expected(c.form, x, head, n, want);
            clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, written * 4, got, 0, NULL, NULL);
            bad = memcmp(got, want, written * 4) != 0;
            if (c.form >= REDUCE_FLAGS && c.form <= REDUCE_OFFSETS) {
                cl_ulong segments = 0;
                clEnqueueReadBuffer(b->q, c.count, CL_TRUE, 0, 8, &segments, 0, NULL, NULL);
                bad += segments != written;
            }
            moved = 2.0 * (double)bytes; /* values in, and a scan's out */
            if (c.form == SCAN_FLAGS || c.form == REDUCE_FLAGS)
                moved += (double)n;
            else if (c.form == SCAN_KEYS || c.form == REDUCE_KEYS)
                moved += (double)bytes;
            else if (c.form == SCAN_OFFSETS || c.form == REDUCE_OFFSETS)
                moved += 4.0 * (double)(m + 1);
            if (c.form >= REDUCE_FLAGS && c.form <= REDUCE_OFFSETS)
                moved += 4.0 * (double)m * (c.form == REDUCE_KEYS ? 2 : 1) - (double)bytes;
            {
                const double gbs = moved / dev_us / 1e3, copy_gbs = 2.0 * bytes / copy_us / 1e3;
                const double gbs_b = moved / call_b_us / 1e3, copy_b_gbs = 2.0 * bytes / copy_b_us / 1e3;
                printf("%-10zu %-14s %10zu %10.1f %9.1f %9.1f %7.3f %7.3f %s\n", n, forms[c.form], m,
                       dev_us, gbs, copy_gbs, gbs / copy_gbs, gbs_b / copy_b_gbs,
                       bad ? "WRONG" : "ok");
                if (csv)
                    fprintf(csv, "\"%s\",\"%s\",%s,%zu,%zu,%zu,%.2f,%.2f,%.2f,%.4f,%.0f,%d,%.2f,"
                                 "%.2f,%.4f\n",
                            info.device_name, info.driver_version, forms[c.form], len, n, m, dev_us,
                            gbs, copy_gbs, gbs / copy_gbs, moved, !bad, call_b_us, copy_b_gbs,
                            gbs_b / copy_b_gbs);
            }
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    rc = 0;
done:
    if (csv)
        fclose(csv);
    if (segs)
        clReleaseMemObject(segs);
    if (c.keys_out)
        clReleaseMemObject(c.keys_out);
    if (c.count)
        clReleaseMemObject(c.count);
    free(x);
    free(want);
    free(got);
    free(offs);
    free(head);
    return rc;
}

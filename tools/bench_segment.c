/* SPDX-License-Identifier: MIT */
/* clprim-bench --segmented FORM: times the segmented scans and reduces of
 * int32 sums over n, and transform-scan beside the plain scan, against the
 * copy ceiling measured in the same run.
 *
 * FORM: scan-flags, scan-keys, scan-offsets, reduce-flags, reduce-keys,
 * reduce-offsets (segments of `len` elements on average, heads at random),
 * or transform (int32 "x > 0" counted into a uint32 sum, and the plain
 * uint32 sum scan of the same n, one after the other).
 *
 * GB/s counts the bytes the call must move: values read (4n), flags (n) or
 * keys (4n) or offsets (4 per segment) read, and what is written: 4n for a
 * scan; for a reduce 4 per segment (and 4 per key with keys). "ratio" is
 * that rate over clEnqueueCopyBuffer's (bytes read + written) of 4n.
 * Every result is checked with the tests' host reference (tests/reference/,
 * clprim_ref_segmented_check and clprim_ref_scan_check). */
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

typedef struct seg_bench {
    int form, call; /* the form asked for; the one timed (form, or PLAIN after transform) */
    size_t len, n, m; /* mean segment length; this size and its segments */
    uint64_t seed;
    clprim_segments sg;
    cl_mem segs, keys_out, count;
    cl_int *x, *want, *got, *offs;
    size_t *starts; /* offs for the reference, m + 1 of them */
    unsigned char *head;
} seg_bench;

static const clprim_transform positives = {CLPRIM_TYPE_INT32, "x > 0"};

static int seg_enqueue(bench *b, const void *arg, cl_event *ev)
{
    const seg_bench *c = arg;
    clprim_status st;
    if (c->call == TRANSFORM || c->call == PLAIN) {
        const clprim_scan_desc d = {CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL,
                                    c->call == TRANSFORM ? &positives : NULL, CLPRIM_REPRO_NONE};
        st = clprim_scan(b->ctx, NULL, &d, b->in, 0, b->out, 0, c->n, 0, NULL, ev);
    } else if (c->call < REDUCE_FLAGS) {
        const clprim_scan_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, CLPRIM_SCAN_AUTO, NULL,
                                    NULL, CLPRIM_REPRO_NONE};
        st = clprim_segmented_scan(b->ctx, NULL, &d, &c->sg, b->in, 0, b->out, 0, c->n, 0, NULL,
                                   ev);
    } else {
        const clprim_reduce_desc d = {CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, CLPRIM_REDUCE_AUTO, NULL,
                                      NULL, CLPRIM_REPRO_NONE};
        st = clprim_segmented_reduce(b->ctx, NULL, &d, &c->sg, b->in, 0, c->n, b->out, 0,
                                     c->call == REDUCE_KEYS ? c->keys_out : NULL, 0, c->count, 0,
                                     0, NULL, ev);
    }
    return st == CLPRIM_SUCCESS;
}

static int seg_open(bench *b, void *self, size_t max_n)
{
    seg_bench *c = self;
    c->segs = bench_buffer(b, CL_MEM_READ_ONLY, max_n * 4 + 4);
    c->keys_out = bench_buffer(b, CL_MEM_READ_WRITE, max_n * 4);
    c->count = bench_buffer(b, CL_MEM_READ_WRITE, 8);
    c->x = bench_alloc(b, max_n * 4);
    c->want = bench_alloc(b, max_n * 4);
    c->got = bench_alloc(b, max_n * 4);
    c->offs = bench_alloc(b, max_n * 4 + 4);
    c->head = bench_alloc(b, max_n + 1);
    return 0;
}

/* starts: grown for each size's segments */
static void seg_close(void *self)
{
    free(((seg_bench *)self)->starts);
}

static void seg_head(void *self)
{
    const seg_bench *c = self;
    printf("# int32 sum, %s, segments of %zu on average; GB/s = bytes the call must move / median "
           "device time; ratio: over clEnqueueCopyBuffer of 4n\n",
           forms[c->form], c->len);
    printf("%-10s %-14s %10s %10s %9s %9s %7s %7s %s\n", "n", "form", "segments", "device_us",
           "GB/s", "copy GB/s", "ratio", "batched", "ok");
}

static int seg_prepare(bench *b, void *self, bench_point *p)
{
    seg_bench *c = self;
    const size_t n = p->n, bytes = n * 4, len = c->len;
    const int form = c->form;
    size_t i, m = 0, *starts;
    for (i = 0; i < n; ++i) {
        const uint64_t r = clprim_ref_rand(&c->seed);
        c->x[i] = (cl_int)(r >> 32) % 1000 - 500;
        c->head[i] = i == 0 || (len > 1 ? (r & 0xFFFFFFFu) % len == 0 : 1);
        if (c->head[i])
            c->offs[m++] = (cl_int)i;
    }
    c->offs[m] = (cl_int)n;
    if (!(starts = realloc(c->starts, (m + 1) * sizeof *starts))) {
        fprintf(stderr, "clprim-bench: cannot allocate %zu segments\n", m);
        return -1;
    }
    c->starts = starts;
    for (i = 0; i <= m; ++i)
        starts[i] = (size_t)c->offs[i];
    clEnqueueWriteBuffer(b->q, b->in, CL_TRUE, 0, bytes, c->x, 0, NULL, NULL);
    /* the segments in the form asked for: uint8 flags, int32 keys (the
     * running segment number), or int32 offsets */
    if (form == SCAN_FLAGS || form == REDUCE_FLAGS) {
        clEnqueueWriteBuffer(b->q, c->segs, CL_TRUE, 0, n, c->head, 0, NULL, NULL);
    } else if (form == SCAN_KEYS || form == REDUCE_KEYS) {
        cl_int key = -1;
        for (i = 0; i < n; ++i)
            c->got[i] = key += c->head[i];
        clEnqueueWriteBuffer(b->q, c->segs, CL_TRUE, 0, bytes, c->got, 0, NULL, NULL);
    } else if (form == SCAN_OFFSETS || form == REDUCE_OFFSETS) {
        clEnqueueWriteBuffer(b->q, c->segs, CL_TRUE, 0, (m + 1) * 4, c->offs, 0, NULL, NULL);
    }
    c->sg.kind = form == SCAN_FLAGS || form == REDUCE_FLAGS ? CLPRIM_SEGMENTS_FLAGS_U8
                 : form == SCAN_KEYS || form == REDUCE_KEYS ? CLPRIM_SEGMENTS_KEYS
                                                            : CLPRIM_SEGMENTS_OFFSETS;
    c->sg.mem = c->segs;
    c->sg.type = CLPRIM_TYPE_INT32;
    c->sg.num_segments = c->sg.kind == CLPRIM_SEGMENTS_OFFSETS ? m : 0; /* refused elsewhere */
    c->n = n;
    c->m = m;
    p->copy_bytes = bytes;
    return 0;
}

/* the form asked for; after transform, the plain scan */
static const char *seg_variant(bench *b, void *self, bench_point *p)
{
    seg_bench *c = self;
    (void)b;
    c->call = p->variant ? PLAIN : c->form;
    return forms[c->call];
}

/* The device's result against the reference (int32 wrapping sums). */
static size_t seg_check(bench *b, void *self, bench_point *p)
{
    seg_bench *c = self;
    const size_t n = c->n, m = c->m, bytes = n * 4;
    const int call = c->call, reduce = call >= REDUCE_FLAGS && call <= REDUCE_OFFSETS;
    const size_t written = reduce ? m : n;
    size_t bad, i;
    double moved;
    clEnqueueReadBuffer(b->q, b->out, CL_TRUE, 0, written * 4, c->got, 0, NULL, NULL);
    if (call == TRANSFORM || call == PLAIN) { /* uint32 sums of x > 0, or of x */
        cl_uint *mapped = (cl_uint *)c->want;
        for (i = 0; call == TRANSFORM && i < n; ++i)
            mapped[i] = c->x[i] > 0;
        bad = clprim_ref_scan_check(CLPRIM_TYPE_UINT32, CLPRIM_OP_SUM, 0,
                                    call == TRANSFORM ? (const void *)mapped : c->x, c->got, n,
                                    NULL, p->name) != 0;
    } else {
        bad = clprim_ref_segmented_check(CLPRIM_TYPE_INT32, CLPRIM_OP_SUM, 0, reduce, c->x,
                                         c->starts, m, c->got, NULL, p->name) != 0;
    }
    if (reduce) {
        cl_ulong segments = 0;
        clEnqueueReadBuffer(b->q, c->count, CL_TRUE, 0, 8, &segments, 0, NULL, NULL);
        bad += segments != m;
    }
    moved = 2.0 * (double)bytes; /* values in, and a scan's out */
    if (call == SCAN_FLAGS || call == REDUCE_FLAGS)
        moved += (double)n;
    else if (call == SCAN_KEYS || call == REDUCE_KEYS)
        moved += (double)bytes;
    else if (call == SCAN_OFFSETS || call == REDUCE_OFFSETS)
        moved += 4.0 * (double)(m + 1);
    if (reduce)
        moved += 4.0 * (double)m * (call == REDUCE_KEYS ? 2 : 1) - (double)bytes;
    p->moved = moved;
    return bad;
}

static void seg_row(void *self, const bench_point *p, FILE *csv)
{
    const seg_bench *c = self;
    printf("%-10zu %-14s %10zu %10.1f %9.1f %9.1f %7.3f %7.3f %s\n", p->n, p->name, c->m,
           p->dev_us, p->gbs, p->copy_gbs, p->gbs / p->copy_gbs, p->batch_gbs / p->copy_batch_gbs,
           p->bad ? "WRONG" : "ok");
    if (csv)
        fprintf(csv, "%s,%zu,%zu,%zu,%.2f,%.2f,%.2f,%.4f,%.0f,%d,%.2f,%.2f,%.4f\n", p->name, c->len,
                p->n, c->m, p->dev_us, p->gbs, p->copy_gbs, p->gbs / p->copy_gbs, p->moved,
                !p->bad, p->batch_us, p->copy_batch_gbs, p->batch_gbs / p->copy_batch_gbs);
}

int clprim_bench_segment(bench *b, const char *form_name, size_t len, const size_t *sizes,
                         size_t count, const char *csv_path, int progress)
{
    seg_bench c;
    bench_module m;
    memset(&c, 0, sizeof c);
    /* plain-scan, the last, only follows transform */
    c.form = name_index(forms, (int)(sizeof forms / sizeof forms[0]) - 1, form_name);
    if (c.form < 0 || len < 1) {
        fprintf(stderr, "clprim-bench: --segmented takes scan-flags, scan-keys, scan-offsets, "
                        "reduce-flags, reduce-keys, reduce-offsets or transform, and "
                        "--segment-length at least 1\n");
        return 2;
    }
    c.len = len;
    c.seed = 0x452821E638D01377ull;
    /* transform: then the plain scan */
    m = (bench_module){
        BENCH_PARTS(seg), .close = seg_close, .self = &c, .unit = "elements", .n_width = 10,
        .name_width = 14, .variant_end = c.form == TRANSFORM ? 2 : 1, .batched = 1,
        .csv_columns = "form,segment_length,n,segments,device_us,gbs,copy_gbs,ratio_to_copy,"
                       "bytes_moved,verified,batch_us,copy_batch_gbs,ratio_to_copy_batch"};
    return bench_run(b, &m, sizes, count, csv_path, progress);
}

/* SPDX-License-Identifier: MIT */
/* One array in ordered parts on several devices (or contexts): scan, reduce
 * and select. Only per-part totals cross devices, through the host; the
 * operator is applied to them on a device, with the primitives' own
 * kernels, so user-defined operators need nothing from the host. Built on
 * the public calls (each takes its own context's lock, so parts on
 * different contexts run concurrently) and each context's pool.
 *
 * Scan: every part but the last reduces itself (its total read back as soon
 * as it is ready); part 0 scans at once; part k > 0 gets the totals of the
 * parts before it written to its device, folds them there (one element:
 * none to fold) and scans from that carry-in (clprim_scan_init). With equal
 * parts on P devices the reduce costs 4 and the scan 8 bytes per element,
 * so the bound is 2P/3 times one device. */
#include "internal.h"

#include "portable_abi.h"

#include <stdlib.h>
#include <string.h>

/* What one call holds per part, released by multi_end. */
typedef struct multi_part {
    cl_command_queue queue;
    clprim__pool_buf *buf; /* the context's pooled memory behind work */
    cl_mem work;           /* scan, part k: [0, k) the totals before it, [k] their
                              fold (the carry-in), [k + 1] its own total */
    cl_event last;         /* its latest command: the next one waits for it
                              (queues may be out of order) */
    cl_event total_read;   /* its total on the host */
    int used;              /* something was enqueued: finish it before release */
    const char *text;      /* the transform's or select's expression for this
                              part: i counts from the part's first element in
                              the whole array (multi_rebase) */
    char *rebased;         /* text, when it is not the descriptor's own */
    clprim_transform tf;   /* the descriptor's transform with text (part_scan_desc) */
    int read_pending;      /* total_read not known to be over (free_totals) */
} multi_part;

/* The wait list of part p's next command is its latest one. */
#define AFTER(p) ((p)->last ? 1u : 0u), ((p)->last ? &(p)->last : NULL)

/* ev (the part's newest command) becomes p->last. */
static void advance(multi_part *p, cl_event ev)
{
    if (p->last)
        clReleaseEvent(p->last);
    p->last = ev;
}

typedef struct multi {
    const clprim_part *parts;
    size_t count;
    multi_part *p;
    unsigned char *totals; /* count elements (or cl_ulong counts) on the host, read
                              into without blocking (multi_end frees it) */
} multi;

/* Where a call's message goes: the first part's context, when there is one. */
static clprim_context *first_ctx(const clprim_part *parts, size_t count)
{
    return parts && count ? parts[0].ctx : NULL;
}

/* An unknown element type, said in the first part's context. */
static clprim_status bad_type(const clprim_part *parts, size_t count, int type)
{
    clprim_context *ctx = first_ctx(parts, count);
    return ctx ? clprim__fail_unlocked(ctx, CLPRIM_UNKNOWN_TYPE,
                                       "desc->type %d is not a clprim_type", type)
               : CLPRIM_UNKNOWN_TYPE;
}

/* The checks every multi-part call starts with; desc: the descriptor. */
static clprim_status check_parts(const void *desc, const clprim_part *parts, size_t count)
{
    clprim_context *ctx = first_ctx(parts, count);
    size_t k;
    if (count && !parts)
        return CLPRIM_INVALID_ARGUMENT; /* no context to say it in (documented) */
    for (k = 0; k < count; ++k)
        if (!parts[k].ctx)
            return ctx ? clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT,
                                               "parts[%zu].ctx is NULL", k)
                       : CLPRIM_INVALID_ARGUMENT; /* likewise */
    if (!desc)
        return ctx ? clprim__fail_unlocked(ctx, CLPRIM_INVALID_ARGUMENT, "desc is NULL")
                   : CLPRIM_INVALID_ARGUMENT;
    return CLPRIM_SUCCESS;
}

enum { MULTI_SCAN, MULTI_REDUCE, MULTI_SELECT };

/* A part's fields that the call does not use are refused, not ignored.
 * custom: the descriptor's operator (scan, reduce); flags_pred: select
 * with a FLAGS_* predicate. */
static clprim_status check_part_fields(const clprim_part *parts, size_t count, int call,
                                       const clprim_operator *custom, int flags_pred)
{
    static const char *const names[] = {"clprim_multi_scan", "clprim_multi_reduce",
                                        "clprim_multi_select"};
    const char *field = NULL, *why = "";
    size_t k;
    for (k = 0; k < count && !field; ++k) {
        const clprim_part *p = &parts[k];
        if (call != MULTI_SELECT && (p->element || p->flags || p->flags_off))
            field = p->element ? "element" : p->flags ? "flags" : "flags_off",
            why = "for clprim_multi_select only";
        else if (call == MULTI_REDUCE && (p->out || p->out_off))
            field = p->out ? "out" : "out_off", why = "a reduce writes no part";
        else if (call == MULTI_SELECT && p->custom)
            field = "custom", why = "for scan and reduce only";
        else if (call != MULTI_SELECT && p->custom && !custom)
            field = "custom", why = "the part's copy of desc->custom, which is NULL";
        else if (call == MULTI_SELECT && (p->flags || p->flags_off) && !flags_pred)
            field = p->flags ? "flags" : "flags_off", why = "for a FLAGS_* predicate only";
        else if (call == MULTI_SELECT && p->flags_off && !p->flags)
            field = "flags_off", why = "given without parts[k].flags";
    }
    if (field)
        return clprim__fail_unlocked(parts[0].ctx, CLPRIM_INVALID_ARGUMENT,
                                     "parts[%zu].%s: %s (%s)", k - 1, field, why, names[call]);
    return CLPRIM_SUCCESS;
}

/* Whether [a0, a0 + an) and [b0, b0 + bn) (bytes) share a byte. */
static int bytes_overlap(size_t a0, size_t an, size_t b0, size_t bn)
{
    return an && bn && a0 < b0 + bn && b0 < a0 + an;
}

/* What a part writes must not overlap what another part reads or writes
 * (the parts run at once); each part's own in and out are its call's to
 * check. in_elem, out_elem: bytes of one input and one output element. */
static clprim_status check_part_overlaps(const clprim_part *parts, size_t count, size_t in_elem,
                                         size_t out_elem)
{
    size_t j, k;
    for (j = 0; j < count; ++j)
        for (k = 0; k < count; ++k) {
            const clprim_part *w = &parts[j], *o = &parts[k];
            const size_t w0 = w->out_off * out_elem, wn = w->n * out_elem;
            const char *what = NULL;
            if (j == k || !w->out)
                continue;
            if (w->out == o->in && bytes_overlap(w0, wn, o->in_off * in_elem, o->n * in_elem))
                what = "in";
            else if (w->out == o->out && bytes_overlap(w0, wn, o->out_off * out_elem, o->n * out_elem))
                what = "out";
            if (what)
                return clprim__fail_unlocked(parts[0].ctx, CLPRIM_INVALID_ARGUMENT,
                                             "parts[%zu].out and parts[%zu].%s overlap in one "
                                             "buffer", j, k, what);
        }
    return CLPRIM_SUCCESS;
}

/* i in a transform or select expression is the element's index in the
 * whole array, as on one device: each part's expression (p->text) gets i
 * counted from the part's first element (a program of its own for each
 * such offset, where the expression reads i at all). */
static clprim_status multi_rebase(multi *m, const char *text)
{
    size_t k, base = 0;
    for (k = 0; k < m->count; base += m->parts[k++].n) {
        multi_part *p = &m->p[k];
        if (clprim__expression_rebase(text, (cl_ulong)base, &p->rebased) != 0)
            return clprim__fail_unlocked(m->parts[k].ctx, CLPRIM_OUT_OF_HOST_MEMORY,
                                         "out of host memory");
        p->text = p->rebased ? p->rebased : text;
    }
    return CLPRIM_SUCCESS;
}

/* The totals outlive every read into them: where a wait failed a read may
 * still be in flight, and the runtime would write into freed memory, so
 * the last such read's completion frees them. */
typedef struct totals_hold {
    pthread_mutex_t lock;
    size_t refs;
    unsigned char *totals;
} totals_hold;

static void CL_CALLBACK drop_totals(cl_event ev, cl_int status, void *user)
{
    totals_hold *h = user;
    int last;
    (void)ev;
    (void)status;
    pthread_mutex_lock(&h->lock);
    last = --h->refs == 0;
    pthread_mutex_unlock(&h->lock);
    if (last) {
        pthread_mutex_destroy(&h->lock);
        free(h->totals);
        free(h);
    }
}

/* Whether a read is over (done or failed); a failed query: not known. */
static int read_over(cl_event ev)
{
    cl_int status = CL_QUEUED;
    clWaitForEvents(1, &ev); /* its failure is the query's to judge */
    return clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) ==
               CL_SUCCESS &&
           status <= CL_COMPLETE;
}

/* Frees m->totals now (finished: every part's queue finished, so every
 * read is over), or when the reads not known to be over end; if that
 * cannot be arranged they are left allocated (a leak of a few bytes is the
 * only safe outcome when the runtime may still write them). */
static void free_totals(multi *m, int finished)
{
    totals_hold *h;
    size_t k, pending = 0;
    for (k = 0; !finished && m->p && k < m->count; ++k) {
        multi_part *p = &m->p[k];
        p->read_pending = p->total_read && !read_over(p->total_read);
        pending += (size_t)p->read_pending;
    }
    if (!pending) {
        free(m->totals);
        return;
    }
    h = clprim__calloc(1, sizeof *h);
    if (h && pthread_mutex_init(&h->lock, NULL) != 0) {
        free(h);
        h = NULL;
    }
    if (h) {
        h->refs = pending; /* a callback never registered keeps its share: never freed */
        h->totals = m->totals;
        for (k = 0; k < m->count; ++k)
            if (m->p[k].read_pending)
                clSetEventCallback(m->p[k].total_read, CL_COMPLETE, drop_totals, h);
    }
}

/* Checks the parts and allocates the per-part state: work buffers of
 * elem-byte elements, one each, or (scan) k + 2 for part k (multi_part.work). */
static clprim_status multi_begin(multi *m, const clprim_part *parts, size_t count, size_t elem,
                                 int scan)
{
    size_t k;
    memset(m, 0, sizeof *m);
    m->parts = parts;
    m->count = count;
    if (!count)
        return CLPRIM_SUCCESS;
    m->p = clprim__calloc(count, sizeof *m->p);
    m->totals = clprim__calloc(count, elem);
    if (!m->p || !m->totals)
        return clprim__fail_unlocked(parts[0].ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    for (k = 0; k < count; ++k) {
        clprim_context *ctx = parts[k].ctx;
        multi_part *p = &m->p[k];
        const size_t w = scan ? k + 2 : 1;
        clprim_status st = CLPRIM_SUCCESS;
        p->queue = parts[k].queue ? parts[k].queue : ctx->queue;
        /* the context's pool: no allocation per call in steady state */
        pthread_mutex_lock(&ctx->lock);
        st = clprim__check_queue(ctx, &p->queue, 0, NULL);
        if (st == CLPRIM_SUCCESS)
            st = clprim__pool_acquire(ctx, p->queue, w * elem, &p->buf);
        pthread_mutex_unlock(&ctx->lock);
        if (st != CLPRIM_SUCCESS)
            return st;
        p->work = clprim__pool_mem(p->buf);
    }
    return CLPRIM_SUCCESS;
}

/* Waits for everything enqueued (host memory in flight is m->totals) and
 * releases it all; the first failure, if none before. */
static clprim_status multi_end(multi *m, clprim_status st)
{
    size_t k;
    int finished = 1;
    for (k = 0; m->p && k < m->count; ++k) {
        multi_part *p = &m->p[k];
        if (p->used) {
            const cl_int err = clFinish(p->queue);
            finished &= err == CL_SUCCESS;
            if (err != CL_SUCCESS && st == CLPRIM_SUCCESS)
                st = clprim__fail_unlocked(m->parts[k].ctx, err, "part %zu: clFinish failed: %s",
                                           k, clprim_status_string(err));
        }
    }
    free_totals(m, finished); /* before the reads' events go */
    for (k = 0; m->p && k < m->count; ++k) {
        multi_part *p = &m->p[k];
        free(p->rebased);
        if (p->buf) {
            /* finished: nothing runs on it any more; else the pool reuses it
             * only on the same in-order queue, or once its last command (the
             * read not known to be over, else the latest) is done */
            clprim_context *ctx = m->parts[k].ctx;
            cl_command_queue_properties props = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
            if (finished)
                props = 0;
            else
                clGetCommandQueueInfo(p->queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
            pthread_mutex_lock(&ctx->lock);
            clprim__pool_release(p->buf, p->queue,
                                 !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
                                 finished ? NULL : p->read_pending ? p->total_read : p->last,
                                 st != CLPRIM_SUCCESS);
            pthread_mutex_unlock(&ctx->lock);
        }
        if (p->total_read)
            clReleaseEvent(p->total_read);
        if (p->last)
            clReleaseEvent(p->last);
    }
    free(m->p);
    return st;
}

/* Reads part k's total (elem bytes at element `at` of its work buffer) to
 * the host after its latest command. */
static clprim_status read_total(multi *m, size_t k, size_t elem, size_t at)
{
    multi_part *p = &m->p[k];
    const cl_int err = clEnqueueReadBuffer(p->queue, p->work, CL_FALSE, at * elem, elem,
                                           m->totals + k * elem, AFTER(p), &p->total_read);
    if (err == CL_SUCCESS)
        clFlush(p->queue);
    return err == CL_SUCCESS ? CLPRIM_SUCCESS
                             : clprim__fail_unlocked(m->parts[k].ctx, err, "part %zu: reading its "
                                                     "total failed: %s", k,
                                                     clprim_status_string(err));
}

/* The transform of part k (mp): the descriptor's with the part's text. */
static const clprim_transform *part_transform(const clprim_transform *tf, multi_part *mp)
{
    if (!tf)
        return NULL;
    mp->tf = *tf;
    mp->tf.expression = mp->text;
    return &mp->tf;
}

/* The descriptor of part k: its own operator, where it has one, and its
 * transform. */
static clprim_scan_desc part_scan_desc(const clprim_scan_desc *d, const clprim_part *p,
                                       multi_part *mp)
{
    clprim_scan_desc s = *d;
    if (p->custom)
        s.custom = p->custom;
    s.transform = part_transform(d->transform, mp);
    return s;
}

static clprim_reduce_desc part_reduce_desc(const clprim_reduce_desc *d, const clprim_part *p,
                                           multi_part *mp)
{
    clprim_reduce_desc r = *d;
    if (p->custom)
        r.custom = p->custom;
    r.transform = part_transform(d->transform, mp);
    return r;
}

/* Part k's total (rd over its elements) into element `at` of its work
 * buffer, and on its way to the host. */
static clprim_status part_total(multi *m, size_t k, const clprim_reduce_desc *rd, size_t elem,
                                size_t at)
{
    const clprim_part *part = &m->parts[k];
    const clprim_reduce_desc prd = part_reduce_desc(rd, part, &m->p[k]);
    cl_event done = NULL;
    clprim_status st;
    m->p[k].used = 1;
    st = clprim_reduce(part->ctx, m->p[k].queue, &prd, part->in, part->in_off, part->n,
                       m->p[k].work, at, 0, NULL, &done);
    if (st != CLPRIM_SUCCESS)
        return st;
    advance(&m->p[k], done);
    return read_total(m, k, elem, at);
}

/* Waits until the totals (or counts) of parts [0, count) are on the host;
 * a failure is told in the context of part `who`. */
static clprim_status wait_totals(multi *m, size_t count, size_t who)
{
    cl_int err = CL_SUCCESS;
    size_t j;
    for (j = 0; j < count && err == CL_SUCCESS; ++j)
        err = clWaitForEvents(1, &m->p[j].total_read);
    return err == CL_SUCCESS ? CLPRIM_SUCCESS
                             : clprim__fail_unlocked(m->parts[who].ctx, err, "part %zu: waiting "
                                                     "for the parts' totals failed: %s", who,
                                                     clprim_status_string(err));
}

/* Waits for the totals of parts [0, k) and writes them to part k's work
 * buffer; then, on part k's device, folds them into element *at (with the
 * operator of rd; one total needs no folding and *at = 0). */
static clprim_status gather_totals(multi *m, size_t k, size_t elem, const clprim_reduce_desc *rd,
                                   size_t *at)
{
    multi_part *p = &m->p[k];
    clprim_context *ctx = m->parts[k].ctx;
    cl_event ev = NULL;
    cl_int err;
    clprim_status st = wait_totals(m, k, k);
    if (st != CLPRIM_SUCCESS)
        return st;
    p->used = 1;
    err = clEnqueueWriteBuffer(p->queue, p->work, CL_FALSE, 0, k * elem, m->totals, AFTER(p),
                               &ev);
    if (err != CL_SUCCESS)
        return clprim__fail_unlocked(ctx, err, "part %zu: writing the totals before it failed: "
                                     "%s", k, clprim_status_string(err));
    advance(p, ev);
    *at = 0;
    if (k == 1)
        return CLPRIM_SUCCESS;
    *at = k;
    ev = NULL;
    st = clprim_reduce(ctx, p->queue, rd, p->work, 0, k, p->work, k, AFTER(p), &ev);
    if (st == CLPRIM_SUCCESS)
        advance(p, ev);
    return st;
}

/* PORTABLE (issue 33; cl/portable_abi.h): one device's first reduce level
 * is the tile totals of the whole array, so when every part but the last
 * non-empty one holds whole tiles (else refused), the parts' tile totals,
 * gathered in order, are that level. To *totals (heap, *tiles of them, at
 * least one element allocated). Blocking. */
static clprim_status gather_tile_totals(multi *m, const clprim_reduce_desc *desc, size_t elem,
                                        unsigned char **totals, size_t *tiles)
{
    const clprim_part *parts = m->parts;
    size_t k, last = 0, at = 0;
    clprim_status st = CLPRIM_SUCCESS;
    *tiles = 0;
    *totals = NULL;
    for (k = 0; k < m->count; ++k)
        last = parts[k].n ? k : last;
    for (k = 0; k < m->count && st == CLPRIM_SUCCESS; ++k) {
        if (parts[k].n % PORTABLE_TILE && k != last)
            st = clprim__fail_unlocked(parts[0].ctx, CLPRIM_UNSUPPORTED,
                                       "desc->repro portable: parts[%zu].n = %zu is not a "
                                       "multiple of %d elements (the portable tile): split the "
                                       "array on tile boundaries", k, parts[k].n, PORTABLE_TILE);
        *tiles += (parts[k].n + PORTABLE_TILE - 1) / PORTABLE_TILE;
    }
    if (st == CLPRIM_SUCCESS && !(*totals = clprim__calloc(*tiles ? *tiles : 1, elem)))
        st = clprim__fail_unlocked(parts[0].ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    for (k = 0; k < m->count && st == CLPRIM_SUCCESS; ++k) {
        const size_t g = (parts[k].n + PORTABLE_TILE - 1) / PORTABLE_TILE;
        const clprim_reduce_desc prd = part_reduce_desc(desc, &parts[k], &m->p[k]);
        cl_event done = NULL;
        cl_int err = CL_SUCCESS;
        cl_mem buf;
        if (!g)
            continue;
        buf = clCreateBuffer(clprim_context_cl_context(parts[k].ctx), CL_MEM_READ_WRITE,
                             g * elem, NULL, &err);
        if (!buf)
            st = clprim__fail_unlocked(parts[k].ctx, (clprim_status)err,
                                       "clCreateBuffer of %zu tile totals failed: %s", g,
                                       clprim_status_string((clprim_status)err));
        m->p[k].used = 1;
        if (st == CLPRIM_SUCCESS)
            st = clprim_reduce_tiles(parts[k].ctx, m->p[k].queue, &prd, parts[k].in,
                                     parts[k].in_off, parts[k].n, buf, 0, 0, NULL, &done);
        if (st == CLPRIM_SUCCESS &&
            (err = clEnqueueReadBuffer(m->p[k].queue, buf, CL_TRUE, 0, g * elem,
                                       *totals + at * elem, 1, &done, NULL)) != CL_SUCCESS)
            st = clprim__fail_unlocked(parts[k].ctx, (clprim_status)err,
                                       "reading the tile totals failed: %s",
                                       clprim_status_string((clprim_status)err));
        if (done)
            clReleaseEvent(done);
        if (buf)
            clReleaseMemObject(buf);
        at += g;
    }
    return st;
}

/* PORTABLE reduce: the gathered tile totals folded on part 0's device by the
 * portable reduce, which is one device's next levels: the same bits for any
 * number of parts. Blocking. */
static clprim_status portable_reduce(multi *m, const clprim_reduce_desc *desc, size_t elem,
                                     void *value)
{
    clprim_reduce_desc rd = part_reduce_desc(desc, &m->parts[0], &m->p[0]);
    unsigned char *totals;
    size_t tiles;
    clprim_status st = gather_tile_totals(m, desc, elem, &totals, &tiles);
    /* one tile is the whole fold; the totals are of the output type */
    rd.transform = NULL;
    if (st == CLPRIM_SUCCESS && tiles == 1)
        memcpy(value, totals, elem);
    else if (st == CLPRIM_SUCCESS)
        st = clprim_reduce_host(m->parts[0].ctx, &rd, totals, tiles, value);
    free(totals);
    return st;
}

/* PORTABLE scan: one device scans its tile totals (exclusive, from the
 * identity) into the tiles' carries by the portable scan and then every
 * tile from its carry; here the gathered totals are scanned so on part 0's
 * device and each part's tiles take their share of the carries. The same
 * bits as one device for any number of parts. Blocking. */
static clprim_status portable_scan(multi *m, const clprim_scan_desc *desc, size_t elem)
{
    const clprim_part *parts = m->parts;
    const clprim_reduce_desc rd = {.type = desc->type, .op = desc->op, .custom = desc->custom,
                                   .transform = desc->transform, .repro = desc->repro};
    clprim_scan_desc cd = part_scan_desc(desc, &parts[0], &m->p[0]);
    unsigned char *totals;
    size_t tiles, k, at = 0;
    clprim_status st = gather_tile_totals(m, &rd, elem, &totals, &tiles);
    /* one tile: no carry (as on one device) */
    for (k = 0; st == CLPRIM_SUCCESS && tiles == 1 && k < m->count; ++k)
        if (parts[k].n) {
            const clprim_scan_desc sd = part_scan_desc(desc, &parts[k], &m->p[k]);
            st = clprim_scan(parts[k].ctx, m->p[k].queue, &sd, parts[k].in, parts[k].in_off,
                             parts[k].out, parts[k].out_off, parts[k].n, 0, NULL, NULL);
        }
    cd.transform = NULL;
    cd.exclusive = 1;
    if (st == CLPRIM_SUCCESS && tiles > 1)
        st = clprim_scan_host(parts[0].ctx, &cd, totals, totals, tiles);
    for (k = 0; st == CLPRIM_SUCCESS && tiles > 1 && k < m->count; ++k) {
        const size_t g = (parts[k].n + PORTABLE_TILE - 1) / PORTABLE_TILE;
        const clprim_scan_desc sd = part_scan_desc(desc, &parts[k], &m->p[k]);
        cl_event done = NULL;
        cl_int err = CL_SUCCESS;
        cl_mem buf;
        if (!g)
            continue;
        buf = clCreateBuffer(clprim_context_cl_context(parts[k].ctx),
                             CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, g * elem,
                             totals + at * elem, &err);
        if (!buf)
            st = clprim__fail_unlocked(parts[k].ctx, (clprim_status)err,
                                       "clCreateBuffer of %zu carries failed: %s", g,
                                       clprim_status_string((clprim_status)err));
        m->p[k].used = 1;
        if (st == CLPRIM_SUCCESS)
            st = clprim_scan_tiles(parts[k].ctx, m->p[k].queue, &sd, buf, 0, parts[k].in,
                                   parts[k].in_off, parts[k].out, parts[k].out_off, parts[k].n,
                                   0, NULL, &done);
        if (st == CLPRIM_SUCCESS && (err = clWaitForEvents(1, &done)) != CL_SUCCESS)
            st = clprim__fail_unlocked(parts[k].ctx, (clprim_status)err,
                                       "scanning part %zu failed: %s", k,
                                       clprim_status_string((clprim_status)err));
        if (done)
            clReleaseEvent(done);
        if (buf)
            clReleaseMemObject(buf);
        at += g;
    }
    free(totals);
    return st;
}

clprim_status clprim_multi_scan(const clprim_scan_desc *desc, const clprim_part *parts,
                                size_t num_parts)
{
    const size_t elem = desc ? clprim__element_size(desc->type, desc->custom) : 0;
    multi m;
    size_t k;
    clprim_status st = check_parts(desc, parts, num_parts);

    if (st != CLPRIM_SUCCESS)
        return st;
    if (!elem)
        return bad_type(parts, num_parts, (int)desc->type);
    st = check_part_fields(parts, num_parts, MULTI_SCAN, desc->custom, 0);
    if (st == CLPRIM_SUCCESS)
        st = check_part_overlaps(parts, num_parts,
                                 clprim__transform_input_size(desc->transform, elem), elem);
    if (st != CLPRIM_SUCCESS)
        return st;
    st = multi_begin(&m, parts, num_parts, elem, 1);
    if (st == CLPRIM_SUCCESS && desc->transform)
        st = multi_rebase(&m, desc->transform->expression);
    if (st == CLPRIM_SUCCESS && desc->repro == CLPRIM_REPRO_PORTABLE &&
        !clprim__fold_is_exact(desc->type, desc->op, desc->custom))
        return multi_end(&m, portable_scan(&m, desc, elem));
    /* every part's total but the last's, in flight to the host */
    for (k = 0; st == CLPRIM_SUCCESS && k + 1 < num_parts; ++k) {
        const clprim_reduce_desc rd = {.type = desc->type,
                                       .op = desc->op,
                                       .algorithm = CLPRIM_REDUCE_AUTO,
                                       .custom = desc->custom,
                                       .transform = desc->transform,
                                       .repro = desc->repro};
        st = part_total(&m, k, &rd, elem, k + 1);
    }
    if (st == CLPRIM_SUCCESS && num_parts) {
        /* after its reduce: the part may be scanned in place */
        const clprim_scan_desc sd = part_scan_desc(desc, &parts[0], &m.p[0]);
        cl_event done = NULL;
        m.p[0].used = 1;
        st = clprim_scan(parts[0].ctx, m.p[0].queue, &sd, parts[0].in, parts[0].in_off,
                         parts[0].out, parts[0].out_off, parts[0].n, AFTER(&m.p[0]), &done);
        if (st == CLPRIM_SUCCESS) {
            advance(&m.p[0], done);
            clFlush(m.p[0].queue);
        }
    }
    for (k = 1; st == CLPRIM_SUCCESS && k < num_parts; ++k) {
        /* the totals are of the output type: folded without the transform */
        const clprim_reduce_desc rd = {.type = desc->type,
                                       .op = desc->op,
                                       .algorithm = CLPRIM_REDUCE_AUTO,
                                       .custom = desc->custom,
                                       .repro = desc->repro};
        const clprim_reduce_desc prd = part_reduce_desc(&rd, &parts[k], &m.p[k]);
        const clprim_scan_desc sd = part_scan_desc(desc, &parts[k], &m.p[k]);
        cl_event done = NULL;
        size_t at = 0;
        st = gather_totals(&m, k, elem, &prd, &at);
        if (st == CLPRIM_SUCCESS)
            st = clprim_scan_init(parts[k].ctx, m.p[k].queue, &sd, m.p[k].work, at, parts[k].in,
                                  parts[k].in_off, parts[k].out, parts[k].out_off, parts[k].n,
                                  AFTER(&m.p[k]), &done);
        if (st == CLPRIM_SUCCESS) {
            advance(&m.p[k], done);
            clFlush(m.p[k].queue);
        }
    }
    return multi_end(&m, st);
}

clprim_status clprim_multi_reduce(const clprim_reduce_desc *desc, const clprim_part *parts,
                                  size_t num_parts, void *value)
{
    const size_t elem = desc ? clprim__element_size(desc->type, desc->custom) : 0;
    multi m;
    size_t k;
    clprim_status st = check_parts(desc, parts, num_parts);

    if (st != CLPRIM_SUCCESS)
        return st;
    if (!num_parts)
        return CLPRIM_INVALID_ARGUMENT; /* no part, no context to say it in (documented) */
    if (!elem)
        return bad_type(parts, num_parts, (int)desc->type);
    if (!value)
        return clprim__fail_unlocked(parts[0].ctx, CLPRIM_INVALID_ARGUMENT, "value is NULL");
    st = check_part_fields(parts, num_parts, MULTI_REDUCE, desc->custom, 0);
    if (st != CLPRIM_SUCCESS)
        return st;
    st = multi_begin(&m, parts, num_parts, elem, 0);
    if (st == CLPRIM_SUCCESS && desc->transform)
        st = multi_rebase(&m, desc->transform->expression);
    if (st == CLPRIM_SUCCESS && desc->repro == CLPRIM_REPRO_PORTABLE &&
        !clprim__fold_is_exact(desc->type, desc->op, desc->custom))
        return multi_end(&m, portable_reduce(&m, desc, elem, value));
    for (k = 0; st == CLPRIM_SUCCESS && k < num_parts; ++k)
        st = part_total(&m, k, desc, elem, 0);
    if (st == CLPRIM_SUCCESS)
        st = wait_totals(&m, num_parts, 0);
    /* the parts' totals folded on part 0's device, in order */
    if (st == CLPRIM_SUCCESS && num_parts == 1) {
        memcpy(value, m.totals, elem);
    } else if (st == CLPRIM_SUCCESS) {
        clprim_reduce_desc rd = part_reduce_desc(desc, &parts[0], &m.p[0]);
        rd.transform = NULL; /* the totals are of the output type */
        st = clprim_reduce_host(parts[0].ctx, &rd, m.totals, num_parts, value);
    }
    return multi_end(&m, st);
}

clprim_status clprim_multi_select(const clprim_compact_desc *desc, const clprim_part *parts,
                                  size_t num_parts, size_t *counts, size_t *offsets,
                                  size_t *total)
{
    multi m;
    size_t k, sum = 0;
    clprim_status st;

    st = check_parts(desc, parts, num_parts);
    if (st == CLPRIM_SUCCESS) {
        const size_t elem = desc->element && clprim__handle_live(desc->element)
                                ? clprim_element_size(desc->element)
                                : clprim_type_size(desc->type);
        st = check_part_fields(parts, num_parts, MULTI_SELECT, NULL,
                               desc->predicate == CLPRIM_PREDICATE_FLAGS_U8 ||
                                   desc->predicate == CLPRIM_PREDICATE_FLAGS_U32);
        if (st == CLPRIM_SUCCESS)
            st = check_part_overlaps(parts, num_parts, elem, elem);
    }
    if (st != CLPRIM_SUCCESS)
        return st;
    st = multi_begin(&m, parts, num_parts, sizeof(cl_ulong), 0);
    if (st == CLPRIM_SUCCESS && desc->indices)
        st = clprim__fail_unlocked(parts[0].ctx, CLPRIM_INVALID_ARGUMENT,
                                   "desc->indices: not offered across parts");
    if (st == CLPRIM_SUCCESS && desc->predicate == CLPRIM_PREDICATE_EXPRESSION)
        st = multi_rebase(&m, desc->expression);
    for (k = 0; st == CLPRIM_SUCCESS && k < num_parts; ++k) {
        clprim_compact_desc pd = *desc;
        cl_event done = NULL;
        if (desc->predicate == CLPRIM_PREDICATE_EXPRESSION)
            pd.expression = m.p[k].text;
        if (parts[k].element)
            pd.element = parts[k].element;
        if (parts[k].flags) {
            pd.flags = parts[k].flags;
            pd.flags_off = parts[k].flags_off;
        }
        m.p[k].used = 1;
        st = clprim_select(parts[k].ctx, m.p[k].queue, &pd, parts[k].in, parts[k].in_off,
                           parts[k].out, parts[k].out_off, parts[k].n, m.p[k].work, 0, 0, NULL,
                           &done);
        if (st == CLPRIM_SUCCESS) {
            advance(&m.p[k], done);
            st = read_total(&m, k, sizeof(cl_ulong), 0);
        }
    }
    if (st == CLPRIM_SUCCESS && num_parts)
        st = wait_totals(&m, num_parts, 0);
    for (k = 0; st == CLPRIM_SUCCESS && k < num_parts; ++k) {
        cl_ulong c;
        memcpy(&c, m.totals + k * sizeof c, sizeof c);
        if (counts)
            counts[k] = (size_t)c;
        if (offsets)
            offsets[k] = sum;
        sum += (size_t)c;
    }
    if (st == CLPRIM_SUCCESS && total)
        *total = sum;
    return multi_end(&m, st);
}

/* SPDX-License-Identifier: MIT */
/* clprim_context_tuning: the row each primitive's tuning function gives, as
 * a line of a tuning file, so that callers and clprim-tune see the values a
 * call would be built with (the rows' own tables, tuning.c's names). */
#include "internal.h"

#include <string.h>


/* Lock held (the tuning file may be replaced meanwhile otherwise). */
static size_t describe(const clprim_context *ctx, const char *primitive, size_t elem_size,
                       size_t n, char *buf, size_t size)
{
    const clprim_device_info *d = &ctx->info;
    if (!strcmp(primitive, "scan")) {
        const clprim__scan_tuning t = clprim__scan_tuning_for(ctx, elem_size, n);
        return clprim__tuning_describe(primitive, d, elem_size, &t, buf, size);
    }
    if (!strcmp(primitive, "reduce")) {
        const clprim__reduce_tuning t = clprim__reduce_tuning_for(ctx, elem_size, n);
        return clprim__tuning_describe(primitive, d, elem_size, &t, buf, size);
    }
    if (!strcmp(primitive, "compact")) {
        const clprim__compact_tuning t = clprim__compact_tuning_for(ctx, elem_size, n, 0);
        return clprim__tuning_describe(primitive, d, elem_size, &t, buf, size);
    }
    if (!strcmp(primitive, "segment")) {
        const clprim__segment_tuning t = clprim__segment_tuning_for(ctx, elem_size, n, 0);
        return clprim__tuning_describe(primitive, d, elem_size, &t, buf, size);
    }
    if (!strcmp(primitive, "sat")) {
        const clprim__sat_tuning t = clprim__sat_tuning_for(ctx, elem_size, n);
        return clprim__tuning_describe(primitive, d, elem_size, &t, buf, size);
    }
    if (!strcmp(primitive, "sort")) {
        const clprim__sort_tuning t = clprim__sort_tuning_for(ctx, elem_size, n, 0);
        return clprim__tuning_describe(primitive, d, elem_size, &t, buf, size);
    }
    return 0;
}

size_t clprim_context_tuning(const clprim_context *ctx, const char *primitive, size_t elem_size,
                             size_t n, char *buf, size_t size)
{
    pthread_mutex_t *lock;
    size_t len;
    if (!ctx || !primitive || !elem_size || (!buf && size))
        return 0;
    /* the lock is the context's own state, not what const promises */
    lock = (pthread_mutex_t *)&ctx->lock;
    pthread_mutex_lock(lock);
    len = describe(ctx, primitive, elem_size, n, buf, size);
    pthread_mutex_unlock(lock);
    return len;
}

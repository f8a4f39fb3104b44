/* SPDX-License-Identifier: MIT */
/* clprim_context_tuning: the row each primitive's tuning function gives, as
 * a line of a tuning file, so that callers and clprim-tune see the values a
 * call would be built with (the rows' own tables, tuning.c's names). */
#include "internal.h"

#include <string.h>

/* Lock held (the tuning file may be replaced meanwhile otherwise). Each
 * primitive's row as its tuning function gives it (the variant flags of
 * compact, segment and sort off: their own fields are in the row). */
static size_t describe(const clprim_context *ctx, const char *primitive, size_t elem_size,
                       size_t n, char *buf, size_t size)
{
#define DESCRIBE(name, type, row)                                                            \
    if (!strcmp(primitive, name)) {                                                         \
        const type t = row;                                                                 \
        return clprim__tuning_describe(primitive, &ctx->info, elem_size, &t, buf, size);    \
    }
    DESCRIBE("scan", clprim__scan_tuning, clprim__scan_tuning_for(ctx, elem_size, n))
    DESCRIBE("reduce", clprim__reduce_tuning, clprim__reduce_tuning_for(ctx, elem_size, n))
    DESCRIBE("compact", clprim__compact_tuning, clprim__compact_tuning_for(ctx, elem_size, n, 0))
    DESCRIBE("segment", clprim__segment_tuning, clprim__segment_tuning_for(ctx, elem_size, n, 0))
    DESCRIBE("sat", clprim__sat_tuning, clprim__sat_tuning_for(ctx, elem_size, n))
    DESCRIBE("sort", clprim__sort_tuning, clprim__sort_tuning_for(ctx, elem_size, n, 0))
    DESCRIBE("search", clprim__search_tuning, clprim__search_tuning_for(ctx, elem_size, n))
    DESCRIBE("histogram", clprim__histogram_tuning, clprim__histogram_tuning_for(ctx, elem_size, n))
    DESCRIBE("merge", clprim__merge_tuning, clprim__merge_tuning_for(ctx, elem_size, n, 0))
    DESCRIBE("top_k", clprim__top_k_tuning, clprim__top_k_tuning_for(ctx, elem_size, n))
#undef DESCRIBE
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

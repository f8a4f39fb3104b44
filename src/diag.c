/* SPDX-License-Identifier: MIT */
/* Diagnostics: the last failure's message, the log callback, and the
 * formatting both use. The bottom host layer: it calls nothing of clprim's. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_message(clprim_context *ctx, const char *prefix, const char *text)
{
    size_t a = prefix ? strlen(prefix) : 0, b = strlen(text);
    char *m = clprim__malloc(a + b + 1);
    if (!m)
        return; /* keep the old message rather than fail while failing */
    if (a)
        memcpy(m, prefix, a);
    memcpy(m + a, text, b + 1);
    free(ctx->error);
    ctx->error = m;
}

static void set_message_v(clprim_context *ctx, const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    set_message(ctx, NULL, buf);
}

char *clprim__format(const char *fmt, ...)
{
    va_list ap;
    char *s;
    int len;
    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = len >= 0 ? clprim__malloc((size_t)len + 1) : NULL;
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

clprim_status clprim__fail(clprim_context *ctx, clprim_status status, const char *fmt, ...)
{
    va_list ap;
    if (!ctx)
        return status;
    va_start(ap, fmt);
    set_message_v(ctx, fmt, ap);
    va_end(ap);
    return status;
}

clprim_status clprim__fail_unlocked(clprim_context *ctx, clprim_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&ctx->lock);
    set_message_v(ctx, fmt, ap);
    pthread_mutex_unlock(&ctx->lock);
    va_end(ap);
    return status;
}

void clprim__fail_append(clprim_context *ctx, const char *text)
{
    if (ctx && ctx->error)
        set_message(ctx, ctx->error, text);
}

void clprim__log(const clprim_context *ctx, int level, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    if (!ctx || !ctx->log)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ctx->log(ctx->log_user, level, buf);
}

size_t clprim_context_last_error(clprim_context *ctx, char *buf, size_t size)
{
    size_t len;
    if (!ctx) {
        if (buf && size)
            buf[0] = '\0';
        return 0;
    }
    pthread_mutex_lock(&ctx->lock);
    len = ctx->error ? strlen(ctx->error) : 0;
    if (buf && size) {
        size_t n = len < size - 1 ? len : size - 1;
        if (n)
            memcpy(buf, ctx->error, n);
        buf[n] = '\0';
    }
    pthread_mutex_unlock(&ctx->lock);
    return len;
}

clprim_status clprim_context_set_error(clprim_context *ctx, clprim_status status,
                                       const char *message)
{
    if (!ctx)
        return status;
    return clprim__fail_unlocked(ctx, status, "%s", message ? message : "");
}

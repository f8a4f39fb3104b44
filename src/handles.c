/* SPDX-License-Identifier: MIT */
/* The caller's live handles (operators and element types), process-wide:
 * a handle may outlive its context, so no context can keep the list. A
 * call given a released (or never created) handle is refused by pointer
 * value, before anything reads through it. */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const void **live;
static size_t count, capacity;

int clprim__handle_add(const void *p)
{
    int ok = 1;
    pthread_mutex_lock(&lock);
    if (count == capacity) {
        const size_t grown = capacity ? 2 * capacity : 16;
        const void **bigger = clprim__realloc((void *)live, grown * sizeof *live);
        if (bigger) {
            live = bigger;
            capacity = grown;
        } else {
            ok = 0;
        }
    }
    if (ok)
        live[count++] = p;
    pthread_mutex_unlock(&lock);
    return ok ? 0 : -1;
}

void clprim__handle_remove(const void *p)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count; ++i)
        if (live[i] == p) {
            live[i] = live[--count];
            break;
        }
    if (!count) { /* nothing left to find: give the memory back */
        free((void *)live);
        live = NULL;
        capacity = 0;
    }
    pthread_mutex_unlock(&lock);
}

int clprim__handle_live(const void *p)
{
    int found = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count && !found; ++i)
        found = live[i] == p;
    pthread_mutex_unlock(&lock);
    return found;
}

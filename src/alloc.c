/* SPDX-License-Identifier: MIT */
/* Host memory: every allocation of clprim's goes through here, so that a
 * test can make the K-th of them fail (test_faults' host-memory sweep:
 * every site must then fail cleanly, with a message, and leak nothing). */
#include "internal.h"

#include <stdlib.h>

/* Test seam (not exported from the shared library): while armed, the
 * allocations are counted and the fail_at-th one returns NULL. */
int clprim__alloc_armed;
unsigned long clprim__alloc_count, clprim__alloc_fail_at;

static int refuse(void)
{
    return clprim__alloc_armed && ++clprim__alloc_count == clprim__alloc_fail_at;
}

void *clprim__malloc(size_t size)
{
    return refuse() ? NULL : malloc(size);
}

void *clprim__calloc(size_t count, size_t size)
{
    return refuse() ? NULL : calloc(count, size);
}

void *clprim__realloc(void *p, size_t size)
{
    return refuse() ? NULL : realloc(p, size);
}

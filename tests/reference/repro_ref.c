/* SPDX-License-Identifier: MIT */
/* Host reference of the PORTABLE level (issue 33): the association order
 * cl/reduce_abi.h fixes, evaluated in the element's own arithmetic, so that
 * its bits are the bits every device must give. */
#include "reference/reference.h"

#include "../../cl/reduce_abi.h"

#include <stdlib.h>
#include <string.h>

/* One level: tile g of m values from src to dst[g]; returns the tiles. */
#define CLPRIM_REF_PORTABLE_LEVEL(T, NAME)                                                        \
    static size_t NAME(const T *src, size_t m, T *dst)                                            \
    {                                                                                             \
        const size_t tile = REDUCE_PORTABLE_WG * REDUCE_PORTABLE_CHUNK;                           \
        const size_t groups = m ? (m + tile - 1) / tile : 1;                                      \
        for (size_t g = 0; g < groups; ++g) {                                                     \
            T b[REDUCE_PORTABLE_WG];                                                              \
            for (size_t v = 0; v < REDUCE_PORTABLE_WG; ++v) {                                     \
                const size_t first = g * tile + v * REDUCE_PORTABLE_CHUNK;                        \
                T acc = 0;                                                                        \
                for (size_t j = 0; j < REDUCE_PORTABLE_CHUNK && first + j < m; ++j)               \
                    acc = acc + src[first + j];                                                   \
                b[v] = acc;                                                                       \
            }                                                                                     \
            for (size_t d = 1; d < REDUCE_PORTABLE_WG; d <<= 1)                                   \
                for (size_t v = 0; v < REDUCE_PORTABLE_WG; v += 2 * d)                            \
                    b[v] = b[v] + b[v + d];                                                       \
            dst[g] = b[0];                                                                        \
        }                                                                                         \
        return groups;                                                                            \
    }
CLPRIM_REF_PORTABLE_LEVEL(float, portable_level_float)
CLPRIM_REF_PORTABLE_LEVEL(double, portable_level_double)

int clprim_ref_reduce_portable(clprim_type type, const void *x, size_t n, void *out)
{
    const size_t elem = clprim_type_size(type);
    const size_t tile = REDUCE_PORTABLE_WG * REDUCE_PORTABLE_CHUNK;
    unsigned char *a = malloc((n / tile + 1) * elem), *b = malloc((n / tile + 1) * elem);
    const void *src = x;
    size_t m = n;
    if (!a || !b || (type != CLPRIM_TYPE_FLOAT && type != CLPRIM_TYPE_DOUBLE)) {
        free(a);
        free(b);
        return -1;
    }
    do {
        m = type == CLPRIM_TYPE_FLOAT ? portable_level_float(src, m, (float *)(void *)a)
                                      : portable_level_double(src, m, (double *)(void *)a);
        src = a;
        a = b;
        b = (unsigned char *)src;
    } while (m > 1);
    memcpy(out, src, elem);
    free(a);
    free(b);
    return 0;
}

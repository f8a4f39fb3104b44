/* SPDX-License-Identifier: MIT */
/* Probe of a caller's element type and operator, run once when the element
 * or operator is created (src/operator.c): the device's sizeof(T), which the
 * host's size must match, and (for an operator) whether IDENTITY behaves as
 * an identity of OP, first on itself and then on the caller's samples. Values are compared byte
 * by byte: the kernels move elements as bytes, so that is the equality that
 * matters to them. */
#ifndef CLPRIM_ASSEMBLED
#include "common/elem.clh"
#endif

inline int clprim_same_bytes(T a, T b)
{
    const uchar *p = (const uchar *)&a, *q = (const uchar *)&b;
    for (uint i = 0; i < (uint)sizeof(T); ++i)
        if (p[i] != q[i])
            return 0;
    return 1;
}

/* result[0]: sizeof(T); result[1]: 1 when e op e != e, | 2 when e op x != x,
 * | 4 when x op e != x for some sample x; result[2]: the first such sample
 * (count when none). One work-item. */
kernel void clprim_probe(global const T *samples, uint count, global uint *result)
{
#if CLPRIM_ELEMENT_ONLY
    count = 0; /* no operator to check */
#endif
    const T e = IDENTITY;
    uint bad = CLPRIM_ELEMENT_ONLY || clprim_same_bytes(OP(e, e), e) ? 0u : 1u, first = count;
    for (uint i = 0; i < count; ++i) {
        const T x = samples[i];
        const uint b = (clprim_same_bytes(OP(e, x), x) ? 0u : 2u) |
                       (clprim_same_bytes(OP(x, e), x) ? 0u : 4u);
        if (b && first == count)
            first = i;
        bad |= b;
    }
    result[0] = (uint)sizeof(T);
    result[1] = bad;
    result[2] = first;
}

/* SPDX-License-Identifier: MIT */
/* The PORTABLE level (issue 33): reduce and scan in the one association
 * order cl/portable_abi.h fixes, the same on every device. Work-items and
 * local memory only (no SIMD-group operations, whose width differs), and no
 * fused multiply-add: a transform's a * b + c rounds twice on every device. */
#ifndef CLPRIM_ASSEMBLED
#include "portable_abi.h"
#include "common/elem.clh"
#endif

#pragma OPENCL FP_CONTRACT OFF

#if WG_SIZE != PORTABLE_WG
#error "clprim: the portable kernels run PORTABLE_WG work-items per work-group"
#endif

#define PORTABLE_KERNEL kernel CLPRIM_KERNEL_ATTRS void

PORTABLE_KERNEL reduce_portable(global const IN_T *in, ulong in_off, ulong n, global T *out,
                                ulong out_off)
{
    local T b[WG_SIZE];
    const uint v = get_local_id(0);
    const ulong first = (ulong)get_group_id(0) * PORTABLE_TILE + (ulong)v * PORTABLE_CHUNK;
    T acc = IDENTITY;
    in += in_off;
    for (uint j = 0; j < PORTABLE_CHUNK && first + j < n; ++j)
        acc = OP(acc, clprim_in(in[first + j], first + j));
    b[v] = acc;
    for (uint d = 1; d < WG_SIZE; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if ((v & (2 * d - 1)) == 0)
            b[v] = OP(b[v], b[v + d]);
    }
    if (v == 0)
        out[out_off + get_group_id(0)] = b[0];
}

/* Each work-item reads and writes only its own elements, so in place is
 * safe: it holds them all before it writes. */
PORTABLE_KERNEL scan_portable(global const IN_T *in, ulong in_off, global T *out, ulong out_off,
                              ulong n, global const T *carry, ulong carry_off, uint flags)
{
    local T ks[2][WG_SIZE];
    const uint v = get_local_id(0);
    const ulong g = get_group_id(0), first = g * PORTABLE_TILE + (ulong)v * PORTABLE_CHUNK;
    T loc[PORTABLE_CHUNK];
    uint m = 0, cur = 0;
    in += in_off;
    out += out_off;
    for (uint j = 0; j < PORTABLE_CHUNK && first + j < n; ++j, ++m) {
        const T x = clprim_in(in[first + j], first + j);
        loc[j] = j ? OP(loc[j - 1], x) : x;
    }
    ks[0][v] = m ? loc[m - 1] : IDENTITY;
    for (uint d = 1; d < WG_SIZE; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        ks[cur ^ 1][v] = v >= d ? OP(ks[cur][v - d], ks[cur][v]) : ks[cur][v];
        cur ^= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const T c = (flags & PORTABLE_CARRY) ? carry[carry_off + g] : IDENTITY;
    const T prefix = v ? OP(c, ks[cur][v - 1]) : c;
    for (uint j = 0; j < m; ++j)
        out[first + j] = (flags & PORTABLE_EXCLUSIVE) ? (j ? OP(prefix, loc[j - 1]) : prefix)
                                                      : OP(prefix, loc[j]);
}

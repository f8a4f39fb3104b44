/* SPDX-License-Identifier: MIT */
/* Tuning rows: how a primitive's table is matched to a device, the
 * development knobs, and work-group sizes clamped to what the device allows.
 * The rows themselves are each primitive's (src/<primitive>_tuning.c): the
 * only place where work-group sizes and items per work-item are chosen,
 * each row saying where its numbers came from. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

const void *clprim__tuning_row(const clprim_device_info *dev, size_t elem_size, const void *rows,
                               size_t count, size_t stride)
{
    const unsigned char *row = rows;
    size_t i;
    for (i = 0; i < count; ++i, row += stride) {
        const clprim__row_match *m = (const clprim__row_match *)row;
        if (m->vendor_id && m->vendor_id != dev->vendor_id)
            continue;
        if (m->device_match && !strstr(dev->device_name, m->device_match))
            continue;
        if (m->type && !(m->type & dev->type))
            continue;
        if (m->elem_size && m->elem_size != elem_size)
            continue;
        return row;
    }
    return (const unsigned char *)rows + (count - 1) * stride;
}

unsigned clprim__tuning_knob(const char *env, unsigned value)
{
    const char *v = getenv(env);
    return v && *v ? (unsigned)strtoul(v, NULL, 10) : value;
}

unsigned clprim__clamp_wg(const clprim_device_info *d, unsigned wg)
{
    while (wg > 1 && (wg > d->max_work_group_size || (wg & (wg - 1))))
        wg = wg & (wg - 1) ? wg & (wg - 1) : wg / 2;
    if (wg < d->simd_width && d->simd_width <= d->max_work_group_size)
        wg = d->simd_width;
    return wg < 1 ? 1 : wg;
}

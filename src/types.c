/* SPDX-License-Identifier: MIT */
/* Element types and operators: names, sizes, and the OpenCL C defines that
 * specialise the generic kernels, all derived from the X-macro tables in
 * clprim.h. */
#include "internal.h"

#include "sort_abi.h"

#include <stdio.h>
#include <string.h>

typedef struct type_row {
    const char *name, *cl;
    size_t size;
    int is_signed, is_float;
} type_row;

static const type_row types[] = {
#define CLPRIM__XX(NAME, num, name, cl, host, size, sgn, flt) [num] = {name, #cl, size, sgn, flt},
    CLPRIM_TYPE_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *op_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_OP_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *algorithm_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_SCAN_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *reduce_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_REDUCE_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *compact_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_COMPACT_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *sort_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_SORT_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *predicate_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_PREDICATE_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *segments_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_SEGMENTS_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *sat_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_SAT_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *search_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_SEARCH_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *merge_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_MERGE_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *histogram_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_HISTOGRAM_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

static const char *top_k_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_TOP_K_ALGORITHM_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

typedef struct pixel_row {
    const char *name, *cl;
    size_t size;
} pixel_row;

static const pixel_row pixels[] = {
#define CLPRIM__XX(NAME, num, name, cl, size) [num] = {name, #cl, size},
    CLPRIM_PIXEL_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

const char *clprim_sat_algorithm_name(clprim_sat_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_SAT_ALGORITHM_COUNT_ ? sat_names[algorithm] : NULL;
}

const char *clprim_pixel_type_name(clprim_pixel_type type)
{
    return (unsigned)type < CLPRIM_PIXEL_TYPE_COUNT_ ? pixels[type].name : NULL;
}

size_t clprim_pixel_type_size(clprim_pixel_type type)
{
    return (unsigned)type < CLPRIM_PIXEL_TYPE_COUNT_ ? pixels[type].size : 0;
}

const char *clprim__pixel_type_cl(clprim_pixel_type type)
{
    return (unsigned)type < CLPRIM_PIXEL_TYPE_COUNT_ ? pixels[type].cl : NULL;
}

const char *clprim_segments_kind_name(clprim_segments_kind kind)
{
    return (unsigned)kind < CLPRIM_SEGMENTS_KIND_COUNT_ ? segments_names[kind] : NULL;
}

const char *clprim_predicate_name(clprim_predicate predicate)
{
    return (unsigned)predicate < CLPRIM_PREDICATE_COUNT_ ? predicate_names[predicate] : NULL;
}

const char *clprim_compact_algorithm_name(clprim_compact_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_COMPACT_ALGORITHM_COUNT_ ? compact_names[algorithm] : NULL;
}

const char *clprim_sort_algorithm_name(clprim_sort_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_SORT_ALGORITHM_COUNT_ ? sort_names[algorithm] : NULL;
}

const char *clprim_search_algorithm_name(clprim_search_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_SEARCH_ALGORITHM_COUNT_ ? search_names[algorithm] : NULL;
}

const char *clprim_histogram_algorithm_name(clprim_histogram_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_HISTOGRAM_ALGORITHM_COUNT_ ? histogram_names[algorithm]
                                                                   : NULL;
}

const char *clprim_top_k_algorithm_name(clprim_top_k_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_TOP_K_ALGORITHM_COUNT_ ? top_k_names[algorithm] : NULL;
}

const char *clprim_reduce_algorithm_name(clprim_reduce_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_REDUCE_ALGORITHM_COUNT_ ? reduce_names[algorithm] : NULL;
}

const char *clprim_type_name(clprim_type type)
{
    return (unsigned)type < CLPRIM_TYPE_COUNT_ ? types[type].name : NULL;
}

const char *clprim_op_name(clprim_op op)
{
    return (unsigned)op < CLPRIM_OP_COUNT_ ? op_names[op] : NULL;
}

const char *clprim_scan_algorithm_name(clprim_scan_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_SCAN_ALGORITHM_COUNT_ ? algorithm_names[algorithm]
                                                               : NULL;
}

size_t clprim_type_size(clprim_type type)
{
    return (unsigned)type < CLPRIM_TYPE_COUNT_ ? types[type].size : 0;
}

int clprim__element_defines(clprim_type type, clprim_op op, char *buf, size_t size)
{
    const type_row *t = &types[type];
    char op_expr[160], identity[48], upper[16];
    size_t i;
    const char *symbol = op == CLPRIM_OP_PRODUCT ? "*" : "+";

    for (i = 0; t->cl[i] && i + 1 < sizeof upper; ++i)
        upper[i] = (char)(t->cl[i] - 'a' + 'A');
    upper[i] = '\0';

    switch (op) {
    case CLPRIM_OP_SUM:
    case CLPRIM_OP_PRODUCT:
        if (t->is_signed && !t->is_float) /* wrap in the unsigned type: no signed overflow */
            snprintf(op_expr, sizeof op_expr, "as_%s(as_u%s(a) %s as_u%s(b))", t->cl, t->cl,
                     symbol, t->cl);
        else
            snprintf(op_expr, sizeof op_expr, "((a) %s (b))", symbol);
        snprintf(identity, sizeof identity, "%s", op == CLPRIM_OP_SUM ? "0" : "1");
        break;
    case CLPRIM_OP_MIN: /* floats: IEEE 754-2019 minimum, elem.clh */
        snprintf(op_expr, sizeof op_expr, "%s",
                 t->is_float ? "clprim_fminimum((a), (b))" : "((b) < (a) ? (b) : (a))");
        if (t->is_float)
            snprintf(identity, sizeof identity, "INFINITY");
        else
            snprintf(identity, sizeof identity, "%s_MAX", upper);
        break;
    case CLPRIM_OP_MAX: /* floats: IEEE 754-2019 maximum, elem.clh */
    default:
        snprintf(op_expr, sizeof op_expr, "%s",
                 t->is_float ? "clprim_fmaximum((a), (b))" : "((a) < (b) ? (b) : (a))");
        if (t->is_float)
            snprintf(identity, sizeof identity, "(-INFINITY)");
        else if (t->is_signed)
            snprintf(identity, sizeof identity, "%s_MIN", upper);
        else
            snprintf(identity, sizeof identity, "0");
        break;
    }
    /* IDENTITY has type T (elem.clh), so it can stand in a ?: beside a T */
    /* CLPRIM_FLOAT_BITS: the unsigned type of a float T's bits (elem.clh) */
    int len = snprintf(buf, size,
                       "%s#define T %s\n#define T_SIZE %zu\n#define OP(a, b) %s\n"
                       "#define IDENTITY ((%s)%s)\n#define CLPRIM_T_BUILTIN 1\n"
                       "#define CLPRIM_COMMUTATIVE 1\n%s",
                       type == CLPRIM_TYPE_DOUBLE ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "",
                       t->cl, t->size, op_expr, t->cl, identity,
                       !t->is_float ? "" : t->size == 8 ? "#define CLPRIM_FLOAT_BITS ulong\n"
                                                        : "#define CLPRIM_FLOAT_BITS uint\n");
    return len < 0 || (size_t)len >= size ? -1 : 0;
}

const char *clprim_merge_algorithm_name(clprim_merge_algorithm algorithm)
{
    return (unsigned)algorithm < CLPRIM_MERGE_ALGORITHM_COUNT_ ? merge_names[algorithm] : NULL;
}

cl_uint clprim__key_kmode(clprim_type key_type, int descending)
{
    const cl_uint dir = descending ? SORT_DESCENDING : 0u;
    switch (key_type) {
    case CLPRIM_TYPE_FLOAT:
    case CLPRIM_TYPE_DOUBLE: return SORT_KIND_FLOAT | dir;
    case CLPRIM_TYPE_INT32:
    case CLPRIM_TYPE_INT64: return SORT_KIND_SIGNED | dir;
    default: return SORT_KIND_UNSIGNED | dir;
    }
}

/* ---- reproducibility levels (issue 33) ---- */

static const char *repro_names[] = {
#define CLPRIM__XX(NAME, num, name) [num] = name,
    CLPRIM_REPRO_MAP(CLPRIM__XX)
#undef CLPRIM__XX
};

const char *clprim_repro_name(clprim_repro repro)
{
    return (unsigned)repro < CLPRIM_REPRO_COUNT_ ? repro_names[repro] : NULL;
}

int clprim__fold_is_exact(clprim_type type, clprim_op op, const clprim_operator *custom)
{
    if (custom || (unsigned)type >= CLPRIM_TYPE_COUNT_)
        return 0;
    return !types[type].is_float || op == CLPRIM_OP_MIN || op == CLPRIM_OP_MAX;
}

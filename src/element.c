/* SPDX-License-Identifier: MIT */
/* The element of a call: a built-in type and operator, or the caller's
 * operator (and the element type it is on), as the define header that
 * specialises the generic kernels. No device work here: objects are made
 * and checked on the device in operator.c, the layer above the launch. */
#include "internal.h"

#include "portable_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *clprim__element_type_defines(const clprim_context *ctx, const char *type,
                                   const char *source, size_t size, const char *combine,
                                   const char *identity, int commutative)
{
    /* The caller's source comes first: it may use any name, T included,
     * before the library's macros exist. OP and IDENTITY become inline
     * functions rather than macros around the caller's text, so that an
     * argument is evaluated once, a wrong result type is a compile error,
     * and the caller's expression needs no parentheses. */
    static const char with_op[] =
        "%s#line 1 \"operator source\"\n%s\n"
        "#define CLPRIM_T_BUILTIN 0\n#define CLPRIM_COMMUTATIVE %d\n"
        "#define T %s\n#define T_SIZE %zu\n"
        "#line 1 \"operator combine\"\n"
        "inline T clprim_user_op(T a, T b) { return (%s); }\n"
        "#line 1 \"operator identity\"\n"
        "inline T clprim_user_identity(void) { return (%s); }\n"
        "#define OP(a, b) clprim_user_op((a), (b))\n#define IDENTITY clprim_user_identity()\n";
    /* an element type alone: the shared layers still name OP and IDENTITY,
     * so they stand for the first argument and all bytes zero; a kernel
     * that combines must not be built for it (CLPRIM_ELEMENT_ONLY) */
    static const char alone[] =
        "%s#line 1 \"element source\"\n%s\n"
        "#define CLPRIM_T_BUILTIN 0\n#define CLPRIM_COMMUTATIVE 0\n#define CLPRIM_ELEMENT_ONLY 1\n"
        "#define T %s\n#define T_SIZE %zu\n"
        "inline T clprim_user_zero(void) { union { T v; uchar b[T_SIZE]; } u;\n"
        "  for (uint i = 0; i < T_SIZE; ++i) u.b[i] = 0; return u.v; }\n"
        "#define OP(a, b) (a)\n#define IDENTITY clprim_user_zero()\n";
    const char *fp64 = ctx->info.has_fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
    if (!combine)
        return clprim__format(alone, fp64, source ? source : "", type, size);
    return clprim__format(with_op, fp64, source ? source : "", commutative != 0, type, size,
                          combine, identity);
}

size_t clprim__element_size(clprim_type type, const clprim_operator *custom)
{
    if (custom)
        return clprim__handle_live(custom) ? custom->size : 0;
    return clprim_type_size(type);
}

clprim_status clprim__element_resolve(clprim_context *ctx, clprim_type type, clprim_op op,
                                      const clprim_operator *custom,
                                      const clprim_element *element, clprim__element *e)
{
    if (element && !clprim__handle_live(element))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->element is not a live element type (released, or not from "
                            "clprim_element_create)");
    if (custom && !clprim__handle_live(custom))
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                            "desc->custom is not a live operator (released, or not from "
                            "clprim_operator_create)");
    if (element) {
        if (element->ctx != ctx)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "desc->element was created on another context");
        e->size = element->size;
        e->builtin = 0;
        e->defines = element->defines;
        return CLPRIM_SUCCESS;
    }
    if (custom) {
        if (custom->ctx != ctx)
            return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT,
                                "desc->custom was created on another context");
        e->size = custom->size;
        e->builtin = 0;
        e->defines = custom->defines;
        return CLPRIM_SUCCESS;
    }
    if ((unsigned)type >= CLPRIM_TYPE_COUNT_)
        return clprim__fail(ctx, CLPRIM_UNKNOWN_TYPE, "desc->type %d is not a clprim_type",
                            (int)type);
    if ((unsigned)op >= CLPRIM_OP_COUNT_)
        return clprim__fail(ctx, CLPRIM_UNKNOWN_OPERATOR, "desc->op %d is not a clprim_op",
                            (int)op);
    if (type == CLPRIM_TYPE_DOUBLE && !ctx->info.has_fp64)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "double needs cl_khr_fp64, which %s lacks",
                            ctx->info.device_name);
    e->size = clprim_type_size(type);
    e->builtin = 1;
    e->defines = e->own;
    if (clprim__element_defines(type, op, e->own, sizeof e->own) != 0)
        return clprim__fail(ctx, CLPRIM_INTERNAL, "element defines do not fit");
    return CLPRIM_SUCCESS;
}

char *clprim__input_defines(const char *in_type, int fp64, const char *label,
                            const char *expression)
{
    return clprim__format("%s#define IN_T %s\n#define CLPRIM_TRANSFORM 1\n#line 1 \"%s\"\n"
                          "inline T clprim_user_transform(IN_T x, ulong i) { return (%s); }\n",
                          fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "", in_type,
                          label, expression);
}

/* An identifier character of OpenCL C. */
static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The length of the token at p: a comment, a character or string literal,
 * a number (1e+5, 0x1fu: its letters are not identifiers) or one
 * identifier; any other character alone. *ident: it is an identifier. */
static size_t token_length(const char *p, int *ident)
{
    const char *q = p;
    *ident = 0;
    if (q[0] == '/' && q[1] == '/') {
        while (*q && *q != '\n')
            ++q;
    } else if (q[0] == '/' && q[1] == '*') {
        for (q += 2; *q && !(q[0] == '*' && q[1] == '/');)
            ++q;
        q += *q ? 2 : 0;
    } else if (*q == '\'' || *q == '"') {
        const char quote = *q++;
        while (*q && *q != quote)
            q += q[0] == '\\' && q[1] ? 2 : 1;
        q += *q ? 1 : 0;
    } else if (*q >= '0' && *q <= '9') {
        for (++q; ident_char(*q) || *q == '.' ||
                  ((*q == '+' || *q == '-') && strchr("eEpP", q[-1]));)
            ++q;
    } else if (ident_char(*q)) {
        while (ident_char(*q))
            ++q;
        *ident = 1;
    } else {
        ++q;
    }
    return (size_t)(q - p);
}

int clprim__expression_rebase(const char *expr, cl_ulong base, char **out)
{
    char repl[40];
    size_t uses = 0, rl;
    int pass;
    *out = NULL;
    if (!expr || !base)
        return 0;
    rl = (size_t)snprintf(repl, sizeof repl, "(i + %lluul)", (unsigned long long)base);
    /* pass 0 counts the uses of i, pass 1 writes the new text */
    for (pass = 0; pass < 2; ++pass) {
        const char *p = expr;
        char *w = *out;
        int member = 0; /* the last token was `.` or `->`: a member's name follows */
        while (*p) {
            int ident;
            const size_t len = token_length(p, &ident);
            const int is_i = ident && len == 1 && *p == 'i' && !member;
            if (is_i && pass)
                memcpy(w, repl, rl), w += rl;
            else if (pass)
                memcpy(w, p, len), w += len;
            uses += is_i;
            if (len == 1 && (*p == '.' || (*p == '>' && p > expr && p[-1] == '-')))
                member = 1;
            else if (!(len == 1 && strchr(" \t\r\n", *p)) && !(len >= 2 && *p == '/'))
                member = 0;
            p += len;
        }
        if (pass) {
            *w = '\0';
        } else if (!uses) {
            return 0;
        } else {
            *out = clprim__malloc(strlen(expr) + uses * rl + 1);
            if (!*out)
                return -1;
            uses = 0;
        }
    }
    return 0;
}

clprim_status clprim_expression_rebase(const char *expression, size_t first, char *out,
                                      size_t out_size, size_t *needed)
{
    char *text = NULL;
    size_t len;
    if (!expression)
        return CLPRIM_INVALID_ARGUMENT;
    if (clprim__expression_rebase(expression, (cl_ulong)first, &text) != 0)
        return CLPRIM_OUT_OF_HOST_MEMORY;
    len = strlen(text ? text : expression) + 1;
    if (needed)
        *needed = len;
    if (out && out_size >= len)
        memcpy(out, text ? text : expression, len);
    free(text);
    return out && out_size >= len ? CLPRIM_SUCCESS : CLPRIM_INVALID_ARGUMENT;
}

size_t clprim__transform_input_size(const clprim_transform *tf, size_t elem)
{
    return tf ? clprim_type_size(tf->input) : elem;
}

clprim_status clprim__transform_params(clprim_context *ctx, const clprim_transform *tf,
                                       char **params)
{
    static const char *const names[] = {
#define CLPRIM__XX(NAME, num, name, cl, host, size, sgn, flt) [num] = #cl,
        CLPRIM_TYPE_MAP(CLPRIM__XX)
#undef CLPRIM__XX
    };
    const char *x;
    *params = NULL;
    if (!tf)
        return CLPRIM_SUCCESS;
    if ((unsigned)tf->input >= CLPRIM_TYPE_COUNT_)
        return clprim__fail(ctx, CLPRIM_UNKNOWN_TYPE,
                            "desc->transform->input %d is not a clprim_type", (int)tf->input);
    if (tf->input == CLPRIM_TYPE_DOUBLE && !ctx->info.has_fp64)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED, "double input needs cl_khr_fp64, which %s lacks",
                            ctx->info.device_name);
    for (x = tf->expression; x && (*x == ' ' || *x == '\t' || *x == '\n'); ++x)
        ;
    if (!x || !*x)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->transform->expression is empty");
    *params = clprim__input_defines(names[tf->input], tf->input == CLPRIM_TYPE_DOUBLE,
                                    "transform expression", tf->expression);
    if (!*params)
        return clprim__fail(ctx, CLPRIM_OUT_OF_HOST_MEMORY, "out of host memory");
    return CLPRIM_SUCCESS;
}

/* ---- reproducibility levels (issue 33) ---- */

clprim_status clprim__repro_check(clprim_context *ctx, clprim_repro repro, clprim_type type,
                                  clprim_op op, const clprim_operator *custom,
                                  clprim_repro honoured, const char *call, clprim_repro *level)
{
    *level = CLPRIM_REPRO_NONE;
    if ((unsigned)repro >= CLPRIM_REPRO_COUNT_)
        return clprim__fail(ctx, CLPRIM_INVALID_ARGUMENT, "desc->repro %d is not a clprim_repro",
                            (int)repro);
    /* integers and min / max are exact in any order: full speed at any level */
    if (clprim__fold_is_exact(type, op, custom))
        return CLPRIM_SUCCESS;
    if (repro > honoured)
        return clprim__fail(ctx, CLPRIM_UNSUPPORTED,
                            "desc->repro %s: %s does not implement it yet for %s (the levels "
                            "it gives this element: up to %s)",
                            clprim_repro_name(repro), call,
                            custom ? "a custom operator" : clprim_type_name(type),
                            clprim_repro_name(honoured));
    *level = repro;
    return CLPRIM_SUCCESS;
}

char *clprim__element_uncontracted(const char *defines)
{
    return clprim__format("#pragma OPENCL FP_CONTRACT OFF\n%s", defines);
}

/* PORTABLE's work-group: 256 work-items, 4 tiles at once, on every device.
 * The tile's order is that of 64 virtual work-items (portable_abi.h), and a
 * work-group of 64 ran one tile: 262,144 work-groups of 1024 elements at
 * 2^28, each work-item reading 16 consecutive elements (stride 16 across
 * work-items), which is latency-bound on GPUs (H100, float 2^28: the reduce
 * 1.76x NONE's time, the scan 4.9x). 256 is what the other kernels run on
 * GPUs; the scan's local memory is then 19 KB (float) or 39 KB (double):
 * the staged span and its pads, and the Kogge-Stone pair, below the 48 KB a
 * work-group gets on NVIDIA. Not measured on GPUs yet: a tuning row's value.
 *
 * CPUs take 256 too but do not stage (a CPU reads 16 consecutive elements
 * per work-item from cache as well as any other way). Float 2^22 on 2
 * shared cores (noisy), scan / reduce in ms, Intel's CPU runtime and PoCL:
 * not staged 6.3 / 2.3 and 5.2 / 0.70; staged 26 / 16 and 22 / 4.1; the
 * one-tile kernels of 64 work-items before 15 / 5.6 and 9.9 / 2.5. 64
 * work-items not staged looked faster on Intel's (up to 1.7x, one noisy
 * run), but 256 lets the CPU runtimes of CI run the GPUs' several tiles
 * per work-group; the staged path runs there too with
 * CLPRIM_BUILD_OPTIONS=-DCLPRIM_PORTABLE_STAGED=1 (portable.cl). */
#define PORTABLE_GROUP_WG 256u

/* Whether portable.cl stages the span in local memory (PORTABLE_STAGE):
 * on GPUs, for built-in types and a caller's up to 16 bytes. */
static int portable_staged(const clprim_context *ctx, const clprim__element *e)
{
    return !(ctx->info.type & CL_DEVICE_TYPE_CPU) && (e->builtin || e->size <= 16);
}

unsigned clprim__portable_wg(const clprim_context *ctx, const clprim__element *e, unsigned want)
{
    const clprim_device_info *d = &ctx->info;
    unsigned wg = PORTABLE_WG;
    /* the row's (or the knob's) value, down to a power of two */
    while (wg * 2 <= (want ? want : PORTABLE_GROUP_WG))
        wg *= 2;
    /* local memory per work-item: the staged chunk and its pads (where
     * staged) and the scan's Kogge-Stone pair (the reduce needs less) */
    const size_t per = (portable_staged(ctx, e) ? PORTABLE_CHUNK + 3 : 3) * e->size;
    while (wg > PORTABLE_WG && (wg * per + 1024 > d->local_mem_size || wg > d->max_work_group_size))
        wg /= 2;
    return wg;
}

char *clprim__portable_element(const clprim_context *ctx, const clprim__element *e)
{
    return clprim__format("#pragma OPENCL FP_CONTRACT OFF\n#define PORTABLE_STAGE %d\n%s",
                          portable_staged(ctx, e), e->defines);
}

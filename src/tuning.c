/* SPDX-License-Identifier: MIT */
/* Tuning rows: how a primitive's table is matched to a device, the
 * development knobs, and work-group sizes clamped to what the device allows.
 * The rows themselves are each primitive's (src/<primitive>_tuning.c): the
 * only place where work-group sizes and items per work-item are chosen,
 * each row saying where its numbers came from. */
#include "internal.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t clprim__chunks(const clprim_device_info *d, unsigned chunks_per_cu, size_t n)
{
    const size_t most = (size_t)d->compute_units * (chunks_per_cu ? chunks_per_cu : 4);
    const size_t want = n / CLPRIM__CHUNK_MIN + (n % CLPRIM__CHUNK_MIN != 0);
    return want < 1 ? 1 : most < 1 ? 1 : want < most ? want : most;
}

size_t clprim__tuning_row(const clprim_device_info *dev, size_t elem_size, size_t n,
                          const void *rows, size_t count, size_t stride)
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
        if (m->max_n && n > m->max_n)
            continue;
        return i;
    }
    return count - 1;
}

unsigned clprim__clamp_wg(const clprim_device_info *d, unsigned wg)
{
    while (wg > 1 && (wg > d->max_work_group_size || (wg & (wg - 1))))
        wg = wg & (wg - 1) ? wg & (wg - 1) : wg / 2;
    if (wg < d->simd_width && d->simd_width <= d->max_work_group_size)
        wg = d->simd_width;
    return wg < 1 ? 1 : wg;
}

/* ---- the tuning file: rows of the caller's, read at context creation ----
 *
 * One row per line: the primitive's name, what the row applies to
 * (device="substring of the device name", elem_size=, min_n=, max_n=), then
 * name=value pairs over the primitive's built-in row; "#" starts a comment.
 * The first line that matches wins. Each primitive's parameters are listed
 * here once, by name and place in its tuning struct (internal.h), so that the
 * file, clprim_context_tuning and clprim-tune speak the table's own terms. */

typedef struct clprim__tuning_field {
    const char *name;
    size_t offset;
    char kind;        /* tuning_params.h: 'U', 'W' unsigned, 'Z' size_t, 'E' an enum */
    const char *knob; /* "" for none */
    unsigned least, most;
} clprim__tuning_field;

#define FIELD(S, field, kind, knob, least, most, doc)                                        \
    {#field, offsetof(S, field), #kind[0], knob, least, most},
#define FIELDS(name, S, PARAMS) static const clprim__tuning_field S##_fields[] = {PARAMS(FIELD, S)};
CLPRIM__TUNED_PRIMITIVES(FIELDS)

#define PRIMITIVE(name, S, PARAMS)                                                          \
    {name, S##_fields, sizeof(S##_fields) / sizeof(S##_fields)[0], offsetof(S, source)},
static const struct clprim__tuning_primitive {
    const char *name;
    const clprim__tuning_field *fields;
    size_t count;
    size_t source; /* offset of the struct's `source` */
} primitives[] = {CLPRIM__TUNED_PRIMITIVES(PRIMITIVE)};
#define PRIMITIVES (sizeof primitives / sizeof primitives[0])
#define MAX_SET 16

typedef struct clprim__tuning_line {
    size_t primitive;
    char *device; /* substring of the device name; NULL: any */
    size_t elem_size, min_n, max_n; /* 0: any */
    unsigned count;
    unsigned char field[MAX_SET];
    unsigned long long value[MAX_SET];
    char *source; /* "path:line" */
} clprim__tuning_line;

struct clprim__tuning_file {
    size_t count;
    clprim__tuning_line *lines;
};

static int primitive_index(const char *name, size_t *index)
{
    size_t i;
    for (i = 0; i < PRIMITIVES; ++i)
        if (!strcmp(primitives[i].name, name)) {
            *index = i;
            return 1;
        }
    return 0;
}

/* ---- development knobs: read once, when a context is created ---- */

#define SWITCH_ENV(id, env, doc) env,
static const char *const switch_env[] = {CLPRIM__SWITCHES(SWITCH_ENV)};

static void knob_read(clprim__knobs *k, size_t slot, const char *env)
{
    const char *v = *env ? getenv(env) : NULL;
    k->set[slot] = v && *v;
    k->value[slot] = k->set[slot] ? (unsigned)strtoul(v, NULL, 10) : 0;
}

void clprim__knobs_read(clprim__knobs *k)
{
    size_t p, f, slot = 0;
    for (p = 0; p < PRIMITIVES; ++p)
        for (f = 0; f < primitives[p].count; ++f)
            knob_read(k, slot++, primitives[p].fields[f].knob);
    for (f = 0; f < CLPRIM__SWITCH_COUNT; ++f)
        knob_read(k, CLPRIM__KNOB_SLOTS + f, switch_env[f]);
}

unsigned clprim__switch(const clprim__knobs *k, clprim__switch_id s, unsigned otherwise)
{
    return k->set[CLPRIM__KNOB_SLOTS + s] ? k->value[CLPRIM__KNOB_SLOTS + s] : otherwise;
}

void clprim__tuning_apply(const clprim__knobs *k, const clprim_device_info *d,
                          const char *primitive, void *t)
{
    size_t p, f, slot = 0;
    if (!primitive_index(primitive, &p))
        return;
    for (f = 0; f < p; ++f)
        slot += primitives[f].count;
    for (f = 0; f < primitives[p].count; ++f, ++slot) {
        const clprim__tuning_field *field = &primitives[p].fields[f];
        unsigned v;
        if (field->kind != 'U' && field->kind != 'W')
            continue; /* sizes and algorithms have no knobs or bounds */
        memcpy(&v, (char *)t + field->offset, sizeof v);
        if (k->set[slot])
            v = k->value[slot];
        if (v < field->least)
            v = field->least;
        if (field->most && v > field->most)
            v = field->most;
        if (field->kind == 'W')
            v = clprim__clamp_wg(d, v);
        memcpy((char *)t + field->offset, &v, sizeof v);
    }
}

/* The next token of *p: a word, name=value, or name="quoted value" (quotes
 * removed in place); NULL at the end of the line. */
static char *next_token(char **p, int *bad_quote)
{
    char *s = *p, *tok, *w;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        ++s;
    if (!*s || *s == '#') {
        *p = s;
        return NULL;
    }
    tok = w = s;
    while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n' && *s != '#') {
        if (*s == '"') {
            for (++s; *s && *s != '"'; ++s)
                *w++ = *s;
            if (!*s) {
                *bad_quote = 1;
                break;
            }
            ++s;
            continue;
        }
        *w++ = *s++;
    }
    if (*s && *s != '#')
        ++s;
    else if (*s == '#')
        *s = '\0';
    *p = s;
    *w = '\0';
    return tok;
}

static int parse_number(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    unsigned long long v;
    if (!*s || *s == '-' || *s == '+')
        return 0;
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || *end || v > max)
        return 0;
    *out = v;
    return 1;
}

static const char *parse_pair(clprim__tuning_line *l, char *tok, char **dup_device)
{
    const struct clprim__tuning_primitive *p = &primitives[l->primitive];
    char *eq = strchr(tok, '=');
    unsigned long long v;
    size_t f;
    if (!eq || eq == tok)
        return "expected name=value";
    *eq++ = '\0';
    if (!strcmp(tok, "device")) {
        if (!*eq)
            return "device= needs a name";
        *dup_device = eq;
        return NULL;
    }
    if (!strcmp(tok, "elem_size") || !strcmp(tok, "min_n") || !strcmp(tok, "max_n")) {
        if (!parse_number(eq, (size_t)-1, &v))
            return "not a number (decimal or 0x...)";
        *(tok[0] == 'e' ? &l->elem_size : tok[1] == 'i' ? &l->min_n : &l->max_n) = (size_t)v;
        return NULL;
    }
    for (f = 0; f < p->count && strcmp(p->fields[f].name, tok); ++f)
        ;
    if (f == p->count)
        return "no such parameter (clprim_context_tuning lists them)";
    if (!parse_number(eq, p->fields[f].kind == 'Z' ? (size_t)-1 : 0x7fffffffull, &v))
        return "not a number in range (decimal or 0x...)";
    if (l->count == MAX_SET)
        return "too many parameters on one line";
    l->field[l->count] = (unsigned char)f;
    l->value[l->count++] = v;
    return NULL;
}

void clprim__tuning_file_free(clprim__tuning_file *f)
{
    size_t i;
    if (!f)
        return;
    for (i = 0; i < f->count; ++i) {
        free(f->lines[i].device);
        free(f->lines[i].source);
    }
    free(f->lines);
    free(f);
}

/* One line into f (which has room); NULL, or why it is refused. */
static const char *parse_line(clprim__tuning_file *f, char *text, const char *path,
                              unsigned number, int *oom)
{
    clprim__tuning_line *l = &f->lines[f->count];
    char *p = text, *tok, *device = NULL;
    int bad_quote = 0;
    const char *why = NULL;
    if (!(tok = next_token(&p, &bad_quote)))
        return NULL; /* blank or comment */
    memset(l, 0, sizeof *l);
    if (!primitive_index(tok, &l->primitive))
        return "unknown primitive (scan, reduce, compact, segment, sat, sort, search, histogram, "
               "merge, top_k)";
    while (!why && (tok = next_token(&p, &bad_quote)))
        why = parse_pair(l, tok, &device);
    if (!why && bad_quote)
        why = "unterminated quote";
    if (!why && l->max_n && l->min_n > l->max_n)
        why = "min_n is above max_n";
    if (why)
        return why;
    l->source = clprim__format("tuning file %s:%u", path, number);
    if (device && l->source) {
        l->device = clprim__malloc(strlen(device) + 1);
        if (l->device)
            strcpy(l->device, device);
    }
    if (!l->source || (device && !l->device)) {
        free(l->source);
        *oom = 1;
        return "out of host memory";
    }
    f->count++;
    return NULL;
}

clprim_status clprim__tuning_file_read(const char *path, clprim__tuning_file **out,
                                       char **message)
{
    FILE *fp = fopen(path, "r");
    clprim__tuning_file *f = NULL;
    char text[4096];
    size_t cap = 0;
    unsigned number = 0;
    const char *why = NULL;
    int oom = 0;
    *out = NULL;
    *message = NULL;
    if (!fp) {
        *message = clprim__format("tuning file %s: cannot be read (%s)", path, strerror(errno));
        return CLPRIM_INVALID_ARGUMENT;
    }
    f = clprim__calloc(1, sizeof *f);
    oom = !f;
    while (!oom && !why && fgets(text, sizeof text, fp)) {
        ++number;
        if (!strchr(text, '\n') && !feof(fp)) {
            why = "line longer than 4095 characters";
            break;
        }
        if (f->count == cap) {
            clprim__tuning_line *grown =
                clprim__realloc(f->lines, (cap ? 2 * cap : 8) * sizeof *grown);
            if (!grown) {
                oom = 1;
                break;
            }
            f->lines = grown;
            cap = cap ? 2 * cap : 8;
        }
        why = parse_line(f, text, path, number, &oom);
    }
    if (!oom && !why && ferror(fp))
        why = "read error";
    fclose(fp);
    if (oom || why) {
        clprim__tuning_file_free(f);
        *message = oom ? NULL : clprim__format("tuning file %s line %u: %s", path, number, why);
        return oom ? CLPRIM_OUT_OF_HOST_MEMORY : CLPRIM_INVALID_ARGUMENT;
    }
    *out = f;
    return CLPRIM_SUCCESS;
}

static void field_set(void *t, const clprim__tuning_field *f, unsigned long long v)
{
    char *at = (char *)t + f->offset;
    if (f->kind == 'Z') {
        size_t z = (size_t)v;
        memcpy(at, &z, sizeof z);
    } else if (f->kind == 'E') {
        int e = (int)v;
        memcpy(at, &e, sizeof e);
    } else {
        unsigned u = (unsigned)v;
        memcpy(at, &u, sizeof u);
    }
}

void clprim__tuning_user(const clprim__tuning_file *file, const char *primitive,
                         const clprim_device_info *d, size_t elem_size, size_t n, void *t)
{
    size_t i, p;
    unsigned k;
    if (!file || !primitive_index(primitive, &p))
        return;
    for (i = 0; i < file->count; ++i) {
        const clprim__tuning_line *l = &file->lines[i];
        if (l->primitive != p || (l->device && !strstr(d->device_name, l->device)) ||
            (l->elem_size && l->elem_size != elem_size) || n < l->min_n ||
            (l->max_n && n > l->max_n))
            continue;
        for (k = 0; k < l->count; ++k)
            field_set(t, &primitives[p].fields[l->field[k]], l->value[k]);
        memcpy((char *)t + primitives[p].source, &l->source, sizeof l->source);
        return;
    }
}

size_t clprim__tuning_describe(const char *primitive, const clprim_device_info *d,
                               size_t elem_size, const void *t, char *buf, size_t size)
{
    char line[1024];
    size_t p, k, len;
    const char *source;
    if (!primitive_index(primitive, &p))
        return 0;
    len = (size_t)snprintf(line, sizeof line, "%s device=\"%s\" elem_size=%zu", primitive,
                           d->device_name, elem_size);
    for (k = 0; k < primitives[p].count && len < sizeof line; ++k) {
        const clprim__tuning_field *f = &primitives[p].fields[k];
        const char *at = (const char *)t + f->offset;
        unsigned long long v;
        if (f->kind == 'Z') {
            size_t z;
            memcpy(&z, at, sizeof z);
            v = z;
        } else if (f->kind == 'E') {
            int e;
            memcpy(&e, at, sizeof e);
            v = (unsigned long long)e;
        } else {
            unsigned u;
            memcpy(&u, at, sizeof u);
            v = u;
        }
        len += (size_t)snprintf(line + len, sizeof line - len, " %s=%llu", f->name, v);
    }
    memcpy(&source, (const char *)t + primitives[p].source, sizeof source);
    if (len < sizeof line)
        snprintf(line + len, sizeof line - len, "  # %s", source ? source : "?");
    return (size_t)snprintf(buf, size, "%s", line);
}

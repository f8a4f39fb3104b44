/* SPDX-License-Identifier: MIT */
/* docs/tuning.md's tables of tuning parameters and development switches are
 * generated from src/tuning_params.h, where each parameter is described once:
 * this test makes the text from those lists and fails when the page's copy
 * (between its "generated" markers) differs, printing what the page should
 * say. `test_tuning_docs --print` prints it alone. */
#include "../src/tuning_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN "<!-- generated from src/tuning_params.h by tests/test_tuning_docs.c -->\n"
#define END "<!-- end of the generated text -->\n"

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, const char *a, const char *b, const char *c,
                const char *d)
{
    char line[1024];
    size_t n = (size_t)snprintf(line, sizeof line, fmt, a, b, c, d);
    if (n >= sizeof line)
        n = sizeof line - 1;
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) {
            fprintf(stderr, "test_tuning_docs: out of memory\n");
            exit(2);
        }
    }
    memcpy(t->s + t->len, line, n + 1);
    t->len += n;
}

/* "1..32", "at least 1", "" */
static const char *bounds(char *buf, size_t size, unsigned least, unsigned most, char kind)
{
    if (kind == 'W')
        snprintf(buf, size, "a power of two the device allows");
    else if (least && most)
        snprintf(buf, size, "%u..%u", least, most);
    else if (most)
        snprintf(buf, size, "at most %u", most);
    else if (least)
        snprintf(buf, size, "at least %u", least);
    else
        buf[0] = '\0';
    return buf;
}

static const char *primitive_now;

#define ROW(S, field, kind, knob, least, most, doc)                                             \
    {                                                                                           \
        char b[64], k[96];                                                                      \
        snprintf(k, sizeof k, *(knob) ? "`%s`" : "", knob);                                     \
        add(&t, "| %s | `%s` | %s | %s |", primitive_now, #field, k,                            \
            bounds(b, sizeof b, least, most, #kind[0]));                                        \
        add(&t, " %s |\n", doc, "", "", "");                                                    \
    }
#define PRIMITIVE(name, S, PARAMS)                                                              \
    primitive_now = name;                                                                       \
    PARAMS(ROW, S)
#define SWITCH(id, env, doc) add(&t, "| `%s` | %s |\n", env, doc, "", "");

static text generate(void)
{
    text t = {0};
    add(&t, BEGIN, "", "", "", "");
    add(&t, "| primitive | parameter | knob | bounds | what |\n|---|---|---|---|---|\n", "", "",
        "", "");
    CLPRIM__TUNED_PRIMITIVES(PRIMITIVE)
    add(&t, "\n| switch | effect |\n|---|---|\n", "", "", "", "");
    CLPRIM__SWITCHES(SWITCH)
    add(&t, END, "", "", "", "");
    return t;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    long size;
    char *s = NULL;
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (s = calloc((size_t)size + 1, 1)) != NULL && fread(s, 1, (size_t)size, f) != (size_t)size) {
        free(s);
        s = NULL;
    }
    if (f)
        fclose(f);
    return s;
}

int main(int argc, char **argv)
{
    text want = generate();
    char *page, *begin, *end;
    int ok;
    if (argc > 1 && !strcmp(argv[1], "--print")) {
        fputs(want.s, stdout);
        free(want.s);
        return 0;
    }
    page = read_file(CLPRIM_SOURCE_DIR "/docs/tuning.md");
    if (!page) {
        fprintf(stderr, "test_tuning_docs: cannot read docs/tuning.md\n");
        free(want.s);
        return 1;
    }
    begin = strstr(page, BEGIN);
    end = begin ? strstr(begin, END) : NULL;
    ok = begin && end && (size_t)(end + strlen(END) - begin) == want.len &&
         !memcmp(begin, want.s, want.len);
    if (!ok)
        fprintf(stderr,
                "test_tuning_docs: docs/tuning.md's generated tables differ from "
                "src/tuning_params.h; the page should say, between its markers:\n%s",
                want.s);
    else
        printf("docs/tuning.md's tables match src/tuning_params.h (%zu bytes)\n", want.len);
    free(page);
    free(want.s);
    return ok ? 0 : 1;
}

/* Two event logs, each sorted by time, merged into one timeline: events
 * are a struct of the caller's (an OpenCL C type with its host twin),
 * ordered by a `less` written in OpenCL C. Events at the same time keep
 * log a's first (the merge is stable). */
#include <clprim.h>
#include <stdio.h>

typedef struct event {
    cl_float time;
    cl_uint id;
} event;

int main(void)
{
    const event a[] = {{0.5f, 1}, {1.0f, 2}, {2.5f, 3}, {4.0f, 4}};
    const event b[] = {{0.25f, 10}, {1.0f, 11}, {3.0f, 12}};
    const cl_uint want[] = {10, 1, 2, 11, 3, 12, 4};
    const clprim_element_desc type = {"event", "typedef struct { float time; uint id; } event;",
                                      sizeof(event)};
    clprim_merge_desc by_time = {0};
    clprim_element *ev = NULL;
    clprim_context *ctx = NULL;
    event out[7];
    int wrong = 0, i;
    clprim_status st = clprim_context_create(NULL, &ctx);
    if (st == CLPRIM_SUCCESS)
        st = clprim_element_create(ctx, &type, &ev);
    by_time.element = ev;
    by_time.less = "a.time < b.time";
    if (st == CLPRIM_SUCCESS)
        st = clprim_merge_host(ctx, &by_time, a, NULL, 4, b, NULL, 3, out, NULL);
    if (st != CLPRIM_SUCCESS) {
        char why[1024] = "";
        if (ctx)
            clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "clprim: %s %s\n", clprim_status_string(st), why);
        clprim_element_release(ev);
        clprim_context_release(ctx);
        return 1;
    }
    for (i = 0; i < 7; ++i) {
        printf("t = %g: event %u\n", out[i].time, out[i].id);
        wrong |= out[i].id != want[i];
    }
    clprim_element_release(ev);
    clprim_context_release(ctx);
    return wrong;
}

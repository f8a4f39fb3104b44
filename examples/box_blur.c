/* A 9 x 5 box blur of a generated 8-bit image, written as box_blur.pgm (or
 * the path given): the uint32 integral image is built from the uint8 pixels
 * and the window means are read off it, both on the device in one call.
 * Three pixels are checked against a direct sum. */
#include <clprim.h>
#include <stdio.h>
#include <stdlib.h>

#define W 320
#define H 200

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "box_blur.pgm";
    clprim_box_desc blur = {CLPRIM_TYPE_UINT32, 1, CLPRIM_PIXEL_UINT8, 4, 2, 0};
    static unsigned char img[H][W];
    static float mean[H][W];
    const int probe[3][2] = {{0, 0}, {160, 100}, {W - 1, H - 3}};
    clprim_context *ctx = NULL;
    clprim_status st;
    FILE *f;
    int x, y, k, wrong = 0;

    for (y = 0; y < H; ++y) /* rings and stripes, with hard edges to soften */
        for (x = 0; x < W; ++x)
            img[y][x] = (unsigned char)((((x - 160) * (x - 160) + (y - 100) * (y - 100)) / 400 % 2)
                                            ? 230
                                            : (x / 8 % 2) * 60);
    st = clprim_context_create(NULL, &ctx);
    if (st == CLPRIM_SUCCESS)
        st = clprim_box_filter_host(ctx, &blur, img, W, &mean[0][0], W, W, H);
    if (st != CLPRIM_SUCCESS) {
        char why[1024] = "";
        if (ctx)
            clprim_context_last_error(ctx, why, sizeof why);
        fprintf(stderr, "box filter failed: %s %s\n", clprim_status_string(st), why);
        clprim_context_release(ctx);
        return 1;
    }
    for (k = 0; k < 3; ++k) { /* the window clamped at the borders */
        const int px = probe[k][0], py = probe[k][1];
        double sum = 0;
        int n = 0;
        for (y = py - 2; y <= py + 2; ++y)
            for (x = px - 4; x <= px + 4; ++x)
                if (x >= 0 && x < W && y >= 0 && y < H) {
                    sum += img[y][x];
                    ++n;
                }
        printf("mean at (%d, %d): %.3f (direct: %.3f)\n", px, py, mean[py][px], sum / n);
        wrong |= mean[py][px] < sum / n - 1e-3 || mean[py][px] > sum / n + 1e-3;
    }
    f = fopen(path, "wb");
    if (f) {
        fprintf(f, "P5\n%d %d\n255\n", W, H);
        for (y = 0; y < H; ++y)
            for (x = 0; x < W; ++x)
                fputc((int)(mean[y][x] + 0.5f), f);
        fclose(f);
        printf("wrote %s\n", path);
    }
    clprim_context_release(ctx);
    return wrong || !f;
}

/* A minimal C host: load a Lua scene, step the clock, render into our own
 * buffer, report a pixel, and also write a PNG.
 *
 *   cc render_scene.c $(pkg-config --cflags --libs caluna) -o render_scene
 *   ./render_scene examples/clock.lua clock.png
 */
#include <caluna.h>
#include <stdio.h>
#include <stdlib.h>

static int check(caluna_engine *e, caluna_status s, const char *what) {
    if (s == CALUNA_OK) return 0;
    fprintf(stderr, "%s: %s: %s\n", what, caluna_status_name(s), caluna_last_error(e));
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s scene.lua out.png\n", argv[0]);
        return 2;
    }
    caluna_engine_options opts = caluna_engine_options_default();
    opts.width = 200;   /* points */
    opts.height = 200;
    opts.scale = 2;     /* pixels per point */
    caluna_engine *e = NULL;
    if (check(NULL, caluna_engine_create(&opts, &e), "create")) return 1;

    int failed = check(e, caluna_engine_load_file(e, argv[1]), "load")
              || check(e, caluna_engine_step(e, 1.0 / 60), "step");
    int32_t w = 0, h = 0;
    unsigned char *pixels = NULL;
    if (!failed) failed = check(e, caluna_engine_pixel_size(e, &w, &h), "pixel size");
    if (!failed) {
        pixels = malloc((size_t)w * (size_t)h * 4);
        failed = pixels == NULL
              || check(e, caluna_render(e, pixels, (size_t)w * (size_t)h * 4, w, h, w * 4,
                                        CALUNA_RGBA8_STRAIGHT), "render");
    }
    if (!failed) {
        const unsigned char *c = pixels + ((size_t)(h / 2) * (size_t)w + (size_t)(w / 2)) * 4;
        printf("%dx%d pixels; centre pixel rgba(%d, %d, %d, %d)\n", w, h, c[0], c[1], c[2], c[3]);
        failed = check(e, caluna_render_png(e, argv[2]), "png");
    }
    free(pixels);
    caluna_engine_destroy(e);
    return failed;
}

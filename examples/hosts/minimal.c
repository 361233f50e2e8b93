#include <caluna.h>
#include <stdio.h>
#include <stdlib.h>
static int32_t on_tap(caluna_engine *e, const caluna_event *ev, void *user) {
    (void)e; (void)user;
    printf("tap at (%g, %g), t = %g s\n", ev->x, ev->y, ev->time);
    return 0;                                  /* 0: let other handlers see it too */
}

int main(int argc, char **argv) {
    caluna_engine *e = NULL;                   /* 320 x 480 points at scale 1 */
    if (caluna_engine_create(NULL, &e) != CALUNA_OK) return 1;
    caluna_handler tap = 0;                    /* a handler id, for caluna_off */
    int32_t w = 0, h = 0;                      /* the output in pixels */
    unsigned char *px = NULL;                  /* our frame buffer, RGBA */
    caluna_status s = caluna_engine_load_file(e, argc > 1 ? argv[1] : "examples/layers.lua");
    if (!s) s = caluna_on(e, "tap", on_tap, NULL, &tap);
    if (!s) s = caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, 100, 100, CALUNA_BUTTON_PRIMARY, 0, 0.10);
    if (!s) s = caluna_send_pointer(e, CALUNA_EVENT_POINTER_UP, 1, 100, 100, 0, 0, 0.15);
    if (!s) s = caluna_engine_step(e, 0.5);    /* delivers both events at their own times */
    if (!s) s = caluna_engine_pixel_size(e, &w, &h);
    if (!s && !(px = malloc((size_t)w * h * 4))) s = CALUNA_ERR_OUT_OF_MEMORY;
    if (!s) s = caluna_render(e, px, (size_t)w * h * 4, w, h, w * 4, CALUNA_RGBA8_STRAIGHT);
    if (!s) printf("%dx%d, top-left pixel rgba(%d, %d, %d, %d)\n", w, h, px[0], px[1], px[2], px[3]);
    else fprintf(stderr, "%s: %s\n", caluna_status_name(s), caluna_last_error(e));
    free(px);
    caluna_engine_destroy(e);
    return s != CALUNA_OK;
}

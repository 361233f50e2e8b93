/* The last render of a host test, RGBA8 straight, and pixel checks on it. Shared by the
 * host programs that look at pixels (one translation unit each: the state is static). */
#ifndef CALUNA_HOST_PIXELS_H
#define CALUNA_HOST_PIXELS_H

#include <caluna.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint8_t *pixels = NULL;
static int32_t pw = 0, ph = 0;

/* Renders the engine into `pixels` (pw × ph); prints the error when it fails. */
static caluna_status render(caluna_engine *e) {
    caluna_engine_pixel_size(e, &pw, &ph);
    free(pixels);
    pixels = (uint8_t *)calloc((size_t)pw * (size_t)ph, 4);
    caluna_status s = caluna_render(e, pixels, (size_t)pw * (size_t)ph * 4, pw, ph, pw * 4, CALUNA_RGBA8_STRAIGHT);
    if (s != CALUNA_OK) printf("      (render: %s: %s)\n", caluna_status_name(s), caluna_last_error(e));
    return s;
}

/* Pixel (x, y) of the last render; a sentinel outside it. */
static const uint8_t *px(int x, int y) {
    static const uint8_t none[4] = { 1, 2, 3, 4 };
    if (x < 0 || y < 0 || x >= pw || y >= ph) return none;
    return pixels + ((size_t)y * (size_t)pw + (size_t)x) * 4;
}

/* Pixel (x, y) is rgb (0xRRGGBB, opaque) within ±tol per channel. */
static int is_rgb(int x, int y, uint32_t rgb, int tol) {
    const uint8_t *p = px(x, y);
    int r = (int)(rgb >> 16) & 255, g = (int)(rgb >> 8) & 255, b = (int)rgb & 255;
    return abs(p[0] - r) <= tol && abs(p[1] - g) <= tol && abs(p[2] - b) <= tol && p[3] == 255;
}

#endif

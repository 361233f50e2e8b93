#ifndef CALU_PIXELS_H
#define CALU_PIXELS_H
#include <stddef.h>
#include <stdint.h>

/* Host pixel layouts (the values of caluna_pixel_format and Swift's PixelFormat). */
enum {
  CALU_RGBA8_PREMULTIPLIED = 0,
  CALU_BGRA8_PREMULTIPLIED = 1,
  CALU_RGBA8_STRAIGHT = 2,
  CALU_BGRA8_STRAIGHT = 3
};

/* Converts a width × height block of cairo's premultiplied native-endian ARGB32 words
 * (src, src_stride bytes per row) into 8-bit bytes in `format` at dst (dst_stride bytes
 * per row). Straight alpha is rounded: c' = min(255, (c·255 + a/2) / a), and 0 where
 * a = 0. The blocks must not overlap; width and height ≥ 0. Returns 0, or -1 for an
 * unknown format (nothing written). */
int calu_pixels_convert(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                        size_t width, size_t height, int format);

#endif

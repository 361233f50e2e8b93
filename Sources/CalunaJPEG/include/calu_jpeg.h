#ifndef CALU_JPEG_H
#define CALU_JPEG_H

#include <stddef.h>

/* JPEG through libjpeg-turbo, with every libjpeg error (and warning: a
 * truncated file only warns) caught inside C. libjpeg reports errors by
 * calling error_exit, which would exit() the process by default and which we
 * answer with a longjmp that never leaves these functions (DESIGN §4). Every
 * call returns 0 on success and -1 on failure, with a message in `err`
 * (always NUL-terminated when errlen > 0). Pixels are cairo's ARGB32: one
 * native-endian 32-bit word per pixel, 0xAARRGGBB, premultiplied. */

/* The size of the image in `data`, without decoding it. */
int calu_jpeg_header(const unsigned char *data, size_t len, int *w, int *h,
                     char *err, size_t errlen);

/* Decodes `data` into `argb` (rows of `stride` bytes), opaque. Fails if the
 * image is larger than maxw × maxh. Greyscale, RGB, YCbCr, CMYK and YCCK
 * (Adobe inverted or not) are read; anything else is refused. */
int calu_jpeg_decode(const unsigned char *data, size_t len, unsigned char *argb,
                     int stride, int maxw, int maxh, char *err, size_t errlen);

/* Encodes w × h ARGB32 pixels as a baseline JPEG at quality 1…100 (chroma
 * at full resolution from quality 90, halved below). JPEG has no alpha: the
 * premultiplied colour is written, i.e. the image as if over black. With
 * `gray` set, a one-channel greyscale JPEG is written. On success *out is a
 * buffer to release with calu_jpeg_free. */
int calu_jpeg_encode(const unsigned char *argb, int w, int h, int stride, int quality, int gray,
                     unsigned char **out, unsigned long *outlen, char *err, size_t errlen);

void calu_jpeg_free(unsigned char *buffer);

#endif

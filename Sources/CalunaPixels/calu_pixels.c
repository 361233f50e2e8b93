#include "calu_pixels.h"
#include <string.h>

/* Eight pixels at a time in 256-bit vectors (clang's vector extensions: two SSE2 halves on
 * any x86-64, NEON on arm64), compiled once more for AVX2 where the loader finds it. Opaque blocks skip
 * the division, so a typical frame converts at memory speed. */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CALU_LITTLE 1
#else
#define CALU_LITTLE 0
#endif

/* Compiled for AVX2 and for the baseline; the dynamic loader picks one (an ifunc). Not under
 * ThreadSanitizer: the loader runs the resolver before the sanitizer's runtime is up. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CALU_NO_CLONES 1
#endif
#endif
#if defined(__x86_64__) && defined(__ELF__) && defined(__clang__) && !defined(CALU_NO_CLONES)
#define CALU_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CALU_CLONES
#endif

typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef float f32x8 __attribute__((vector_size(32)));
typedef uint8_t u8x32 __attribute__((vector_size(32)));

/* The helpers are macros: a 256-bit vector may not cross a call between the AVX2 clone and
 * code built without AVX. */

/* ARGB words → the bytes r g b a in memory (a little-endian ABGR word). */
#define SWAP_RB(w)                                                                              \
  ((u32x8)__builtin_shufflevector((u8x32)(w), (u8x32)(w), 2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, \
                                  14, 13, 12, 15, 18, 17, 16, 19, 22, 21, 20, 23, 26, 25, 24,   \
                                  27, 30, 29, 28, 31))

/* Straight alpha: c' = min(255, (c·255 + a/2) / a), exactly. The quotient is taken as
 * n · (1/a) in float: its error is below 3e-5, and a quotient that is not a whole number
 * lies at least 1/255 below the next one, so adding 5e-4 before truncating gives the
 * integer division's result (PixelCopyTests checks all 65,536 pairs). */
#define UNPREMULTIPLY_CHANNEL(c, a, inv)                                                     \
  ({                                                                                         \
    u32x8 c_ = (c);                                                                          \
    f32x8 n_ = __builtin_convertvector((i32x8)((c_ << 8) - c_ + ((a) >> 1)), f32x8);         \
    u32x8 q_ = (u32x8)__builtin_convertvector(n_ * (inv) + 5e-4f, i32x8);                    \
    u32x8 over_ = (u32x8)(q_ > 255);                                                         \
    (q_ & ~over_) | (255 & over_);                                                           \
  })

/* Eight words, straight; lanes with a = 0 become 0 (their division by zero is masked). */
#define UNPREMULTIPLY8(w, rgba)                                                              \
  ({                                                                                         \
    u32x8 w_ = (w), a_ = w_ >> 24;                                                           \
    f32x8 inv_ = 1.0f / __builtin_convertvector((i32x8)a_, f32x8);                           \
    u32x8 r_ = UNPREMULTIPLY_CHANNEL((w_ >> 16) & 255, a_, inv_),                            \
          g_ = UNPREMULTIPLY_CHANNEL((w_ >> 8) & 255, a_, inv_),                             \
          b_ = UNPREMULTIPLY_CHANNEL(w_ & 255, a_, inv_);                                    \
    u32x8 o_ = (rgba) ? (a_ << 24 | b_ << 16 | g_ << 8 | r_) : (a_ << 24 | r_ << 16 | g_ << 8 | b_); \
    o_ & (u32x8)(a_ != 0);                                                                   \
  })

/* Eight words converted: an opaque block (the common case) needs no division. */
#define CONVERT8(w, straight, rgba)                                                          \
  ({                                                                                         \
    u32x8 v_ = (w);                                                                          \
    if (!(straight) || __builtin_reduce_and(v_) >> 24 == 255) {                              \
      if (rgba) v_ = SWAP_RB(v_);                                                            \
    } else {                                                                                 \
      v_ = UNPREMULTIPLY8(v_, rgba);                                                         \
    }                                                                                        \
    v_;                                                                                      \
  })

/* One row, `straight` or not, R and B swapped or not (little-endian). Sixteen pixels a
 * step, tested for opacity together: one test and two independent blocks in flight. */
CALU_CLONES static void row_words(const uint8_t *s, uint8_t *d, size_t n, int straight, int rgba) {
  size_t x = 0;
  for (; x + 16 <= n; x += 16) {
    u32x8 w0, w1;
    memcpy(&w0, s + 4 * x, 32);
    memcpy(&w1, s + 4 * x + 32, 32);
    if (!straight || __builtin_reduce_and(w0 & w1) >> 24 == 255) {
      if (rgba) { w0 = SWAP_RB(w0); w1 = SWAP_RB(w1); }
    } else {
      w0 = CONVERT8(w0, 1, rgba);
      w1 = CONVERT8(w1, 1, rgba);
    }
    memcpy(d + 4 * x, &w0, 32);
    memcpy(d + 4 * x + 32, &w1, 32);
  }
  for (; x + 8 <= n; x += 8) {
    u32x8 w;
    memcpy(&w, s + 4 * x, 32);
    w = CONVERT8(w, straight, rgba);
    memcpy(d + 4 * x, &w, 32);
  }
  if (x < n) {  /* the last one to seven pixels, through a padded block */
    u32x8 w = {0};
    memcpy(&w, s + 4 * x, 4 * (n - x));
    if (straight) w = UNPREMULTIPLY8(w, rgba);
    else if (rgba) w = SWAP_RB(w);
    memcpy(d + 4 * x, &w, 4 * (n - x));
  }
}

/* Any byte order: one byte at a time. */
static void row_bytes(const uint8_t *s, uint8_t *d, size_t n, int straight, int rgba) {
  for (size_t x = 0; x < n; x++) {
    uint32_t w;
    memcpy(&w, s + 4 * x, 4);
    if (straight) { u32x8 v = {w}; w = UNPREMULTIPLY8(v, 0)[0]; }
    uint8_t *p = d + 4 * x;
    p[0] = (uint8_t)(rgba ? w >> 16 : w);
    p[1] = (uint8_t)(w >> 8);
    p[2] = (uint8_t)(rgba ? w : w >> 16);
    p[3] = (uint8_t)(w >> 24);
  }
}

int calu_pixels_convert(const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
                        size_t width, size_t height, int format) {
  if (format < CALU_RGBA8_PREMULTIPLIED || format > CALU_BGRA8_STRAIGHT) return -1;
  int straight = format == CALU_RGBA8_STRAIGHT || format == CALU_BGRA8_STRAIGHT;
  int rgba = format == CALU_RGBA8_PREMULTIPLIED || format == CALU_RGBA8_STRAIGHT;
  size_t row = width * 4;
  if (CALU_LITTLE && format == CALU_BGRA8_PREMULTIPLIED && src_stride == row && dst_stride == row) {
    memcpy(dst, src, row * height);  /* cairo's own layout, packed: one copy */
    return 0;
  }
  for (size_t y = 0; y < height; y++) {
    const uint8_t *s = src + y * src_stride;
    uint8_t *d = dst + y * dst_stride;
    if (!CALU_LITTLE) row_bytes(s, d, width, straight, rgba);
    else if (format == CALU_BGRA8_PREMULTIPLIED) memcpy(d, s, row);
    else row_words(s, d, width, straight, rgba);
  }
  return 0;
}

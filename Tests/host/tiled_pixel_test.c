/* Tiled and pixel buffer layers through the C ABI (ABI 1.7): a C draw callback drawing the
 * tiles of a CATiledLayer (listing 6.12, T6.12's first two bullets), a C frame callback
 * rasterising listing 6.14's triangle (T6.14), frames a host submits (a video decoder,
 * T6.15), and the error statuses. C99. */
#include "check.h"
#include "pixels.h"
#include "scene.h"

#include <stdint.h>
#include <stdlib.h>

/* ---- tiles ---- */

typedef struct { int calls; double clip[32][4]; } tile_log;

static int32_t draw_tile(caluna_engine *e, caluna_layer layer, caluna_context ctx, void *user) {
    (void)layer;
    tile_log *log = (tile_log *)user;
    double x, y, w, h;
    caluna_status s = caluna_context_clip_bounding_box(e, ctx, &x, &y, &w, &h);
    if (s != CALUNA_OK) return s;
    if (log->calls < 32) {
        log->clip[log->calls][0] = x; log->clip[log->calls][1] = y;
        log->clip[log->calls][2] = w; log->clip[log->calls][3] = h;
    }
    log->calls++;
    /* The tile's colour from its index (the book loads Snowman_XX_YY.jpg here). */
    caluna_context_set_fill_color(e, ctx, (double)((int)(x / 256) * 60 % 256) / 255,
                                  (double)((int)(y / 256) * 60 % 256) / 255, 0.5, 1);
    return caluna_context_fill_rect(e, ctx, x, y, w, h);
}

/* Whether the log holds a call with this clip rect. */
static int logged(const tile_log *log, double x, double y, double w, double h) {
    for (int i = 0; i < log->calls && i < 32; i++)
        if (log->clip[i][0] == x && log->clip[i][1] == y && log->clip[i][2] == w && log->clip[i][3] == h) return 1;
    return 0;
}

static void tiled_layer(void) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = 512; o.height = 512;
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(&o, &e));
    caluna_layer root = 0, parent = 0, tiled = 0;
    caluna_root_layer(e, &root);
    caluna_layer_create(e, &parent);
    lset(e, parent, "frame", caluna_rect(0, 0, 512, 512));
    lset(e, parent, "masksToBounds", caluna_bool(1));
    EXPECT_OK(e, caluna_layer_create_class(e, "CATiledLayer", &tiled));
    lset(e, tiled, "frame", caluna_rect(0, 0, 1024, 1024));
    caluna_value v = caluna_nil();
    EXPECT_OK(e, caluna_layer_get(e, tiled, "tileSize", &v));
    CHECK(v.type == CALUNA_TYPE_SIZE && v.u.size.width == 256 && v.u.size.height == 256, "tileSize defaults to 256×256");
    EXPECT_OK(e, caluna_layer_get(e, tiled, "fadeDuration", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 0.25, "fadeDuration defaults to 0.25");
    EXPECT_OK(e, lset(e, tiled, "fadeDuration", caluna_number(0)));
    EXPECT(e, lset(e, tiled, "tileSize", caluna_size(0, 10)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, tiled, "levelsOfDetail", caluna_number(0.5)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, tiled, "fadeDuration", caluna_number(NAN)), CALUNA_ERR_INVALID_ARGUMENT);
    tile_log log;
    memset(&log, 0, sizeof log);
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, tiled, draw_tile, &log, NULL));
    caluna_layer_add_sublayer(e, parent, tiled);
    caluna_layer_add_sublayer(e, root, parent);

    EXPECT_OK(e, render(e));
    CHECK(log.calls == 4, "4 tile callbacks for the visible quarter (got %d)", log.calls);
    CHECK(logged(&log, 0, 0, 256, 256) && logged(&log, 256, 0, 256, 256) && logged(&log, 0, 256, 256, 256)
          && logged(&log, 256, 256, 256, 256), "clip rects are the four visible tiles");
    caluna_stats st = caluna_stats_default();
    EXPECT_OK(e, caluna_engine_stats(e, &st));
    CHECK(st.tiles_drawn == 4 && st.draw_callbacks == 4, "stats: 4 tiles, 4 draw callbacks (%lld, %lld)",
          (long long)st.tiles_drawn, (long long)st.draw_callbacks);
    CHECK(is_rgb(300, 10, 0x3c0080, 1), "tile (1, 0) shows its colour");
    CHECK(is_rgb(10, 300, 0x003c80, 1), "tile (0, 1) shows its colour");
    EXPECT_OK(e, render(e));
    CHECK(log.calls == 4, "cached: no callback on the next render");

    /* Scrolling: the parent's bounds origin at (512, 512). */
    caluna_transaction_set_disable_actions(e, 1);
    lset(e, parent, "bounds", caluna_rect(512, 512, 512, 512));
    EXPECT_OK(e, render(e));
    CHECK(log.calls == 8, "4 new callbacks after scrolling (got %d)", log.calls);
    CHECK(logged(&log, 512, 512, 256, 256) && logged(&log, 768, 512, 256, 256) && logged(&log, 512, 768, 256, 256)
          && logged(&log, 768, 768, 256, 256), "the new tiles are at x, y in {512, 768}");
    CHECK(is_rgb(10, 10, 0x787880, 1), "tile (2, 2) at the top left");

    /* A failing callback fails the render with its status. */
    EXPECT_OK(e, caluna_layer_set_needs_display(e, tiled));
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, tiled, NULL, NULL, NULL));
    EXPECT_OK(e, render(e));
    CHECK(log.calls == 8, "no draw callback: no tiles");
    caluna_engine_destroy(e);
}

/* ---- pixel buffers ---- */

typedef struct { int frames; double time; } frame_log;

/* Listing 6.14's triangle rasterised in software into straight RGBA8: vertices (NDC, y up)
 * (-0.5,-0.5) blue, (0,0.5) green, (0.5,-0.5) red; cleared transparent. */
static int32_t draw_triangle(caluna_engine *e, caluna_layer layer, void *pixels_, int32_t w, int32_t h,
                             int32_t stride, double time, void *user) {
    (void)e; (void)layer;
    frame_log *log = (frame_log *)user;
    log->frames++;
    log->time = time;
    uint8_t *p = (uint8_t *)pixels_;
    const double vx[3] = { -0.5, 0.0, 0.5 }, vy[3] = { -0.5, 0.5, -0.5 };
    const double col[3][3] = { { 0, 0, 1 }, { 0, 1, 0 }, { 1, 0, 0 } };
    double px_[3], py_[3];
    for (int i = 0; i < 3; i++) { px_[i] = (vx[i] + 1) / 2 * w; py_[i] = (1 - vy[i]) / 2 * h; }
#define EDGE(a, b, x, y) ((px_[b] - px_[a]) * ((y) - py_[a]) - (py_[b] - py_[a]) * ((x) - px_[a]))
    double area = EDGE(0, 1, px_[2], py_[2]);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            double cx = x + 0.5, cy = y + 0.5;
            double w0 = EDGE(1, 2, cx, cy) / area, w1 = EDGE(2, 0, cx, cy) / area, w2 = EDGE(0, 1, cx, cy) / area;
            if (w0 < 0 || w1 < 0 || w2 < 0) continue;
            uint8_t *d = p + (size_t)y * (size_t)stride + (size_t)x * 4;
            for (int c = 0; c < 3; c++) d[c] = (uint8_t)lround(255 * (w0 * col[0][c] + w1 * col[1][c] + w2 * col[2][c]));
            d[3] = 255;
        }
    }
#undef EDGE
    return CALUNA_OK;
}

static int32_t failing_frame(caluna_engine *e, caluna_layer layer, void *p, int32_t w, int32_t h, int32_t stride,
                             double time, void *user) {
    (void)e; (void)layer; (void)p; (void)w; (void)h; (void)stride; (void)time; (void)user;
    return CALUNA_ERR_IO;
}

static int released = 0;
static void release_log(void *user) { (void)user; released++; }

static void pixel_buffer_layer(void) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = 300; o.height = 300;
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(&o, &e));
    caluna_layer root = 0, layer = 0, plain = 0;
    caluna_root_layer(e, &root);
    EXPECT_OK(e, caluna_layer_create_class(e, "PixelBufferLayer", &layer));
    lset(e, layer, "frame", caluna_rect(0, 0, 300, 300));
    caluna_layer_add_sublayer(e, root, layer);
    frame_log log = { 0, -1 };
    EXPECT_OK(e, caluna_pixel_buffer_layer_set_callback(e, layer, CALUNA_RGBA8_STRAIGHT, draw_triangle, &log,
                                                        release_log));
    EXPECT_OK(e, render(e));
    CHECK(log.frames == 1 && log.time == 0, "one frame at time 0");
    CHECK(is_rgb(76, 224, 0x0000ff, 12), "(75, 225) blue");
    CHECK(is_rgb(150, 76, 0x00ff00, 12), "(150, 75) green");
    CHECK(is_rgb(223, 224, 0xff0000, 12), "(225, 225) red");
    CHECK(is_rgb(150, 175, 0x555555, 2), "centroid (150, 175) ≈ (85, 85, 85)");
    CHECK(px(10, 10)[3] == 0, "(10, 10) is the clear colour (transparent)");
    caluna_engine_step(e, 0.5);
    EXPECT_OK(e, render(e));
    CHECK(log.frames == 2 && log.time == 0.5, "retainedBacking false: a new frame per render, at t = 0.5");
    uint64_t n = 0;
    EXPECT_OK(e, caluna_pixel_buffer_layer_frames_drawn(e, layer, &n));
    CHECK(n == 2, "frames_drawn = 2");
    lset(e, layer, "retainedBacking", caluna_bool(1));
    caluna_engine_step(e, 0.5);
    EXPECT_OK(e, render(e));
    EXPECT_OK(e, render(e));
    CHECK(log.frames == 2, "retained: the frame stays (got %d frames)", log.frames);
    EXPECT_OK(e, caluna_layer_set_needs_display(e, layer));
    EXPECT_OK(e, render(e));
    CHECK(log.frames == 3 && log.time == 1, "setNeedsDisplay asks for a frame");

    /* A failing callback fails the render with its status. */
    lset(e, layer, "retainedBacking", caluna_bool(0));
    EXPECT_OK(e, caluna_pixel_buffer_layer_set_callback(e, layer, CALUNA_RGBA8_STRAIGHT, failing_frame, NULL, NULL));
    CHECK(released == 1, "the old callback's user was released");
    EXPECT(e, render(e), CALUNA_ERR_IO);
    EXPECT_OK(e, caluna_pixel_buffer_layer_set_callback(e, layer, 0, NULL, NULL, NULL));

    /* Submitted frames (a decoder): a 4:3 frame letterboxed by resizeAspect. */
    uint8_t frame[4 * 3 * 4];
    for (int i = 0; i < 12; i++) { frame[4 * i] = 255; frame[4 * i + 1] = 128; frame[4 * i + 2] = 0; frame[4 * i + 3] = 255; }
    caluna_transaction_set_disable_actions(e, 1);
    lset(e, layer, "frame", caluna_rect(0, 0, 300, 150));
    lset(e, layer, "contentsGravity", caluna_string("resizeAspect"));
    lset(e, layer, "magnificationFilter", caluna_string("nearest"));
    EXPECT_OK(e, caluna_pixel_buffer_layer_submit(e, layer, frame, 4, 3, 16, CALUNA_RGBA8_STRAIGHT));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(150, 75, 0xff8000, 0), "the submitted frame shows");
    CHECK(px(20, 75)[3] == 0 && px(280, 75)[3] == 0, "letterboxed: 200×150 centred in 300×150");
    CHECK(is_rgb(51, 75, 0xff8000, 0) && is_rgb(248, 75, 0xff8000, 0), "the frame spans x 50…250");

    /* Errors. */
    EXPECT(e, caluna_pixel_buffer_layer_submit(e, layer, NULL, 4, 3, 16, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_pixel_buffer_layer_submit(e, layer, frame, 4, 3, 15, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_pixel_buffer_layer_submit(e, layer, frame, 0, 3, 16, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_pixel_buffer_layer_submit(e, layer, frame, 100000, 100000, 400000, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_pixel_buffer_layer_submit(e, layer, frame, 4, 3, 16, (caluna_pixel_format)9), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_pixel_buffer_layer_set_callback(e, layer, (caluna_pixel_format)-1, draw_triangle, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_pixel_buffer_layer_frames_drawn(e, layer, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_layer_create(e, &plain));
    EXPECT(e, caluna_pixel_buffer_layer_submit(e, plain, frame, 4, 3, 16, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_pixel_buffer_layer_set_callback(e, plain, CALUNA_RGBA8_STRAIGHT, draw_triangle, NULL, NULL), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_pixel_buffer_layer_submit(e, 12345, frame, 4, 3, 16, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, lset(e, layer, "pixelWidth", caluna_number(-3)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, plain, "pixelWidth", caluna_number(3)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(NULL, caluna_pixel_buffer_layer_submit(NULL, layer, frame, 4, 3, 16, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_layer_release(e, plain);
    caluna_engine_destroy(e);
}

int main(void) {
    tiled_layer();
    pixel_buffer_layer();
    free(pixels);
    return finish();
}

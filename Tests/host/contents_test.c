/* contents_test.c — the C ABI of images, contents, visual effects, display and drawing
 * (ABI 1.3): the book's listings 2.1–2.5 and 4.1–4.7 through C (pixel checks away from
 * antialiased edges), image ids and their ownership, PATH and IMAGE values, shadowPath, masks,
 * draw callbacks and their contexts (valid only inside the callback), renderInContext,
 * snapshots, frame statistics (G10: backing-store and image bytes), release callbacks
 * (exactly once) and bad input (a status, never a crash; the engine keeps working).
 *
 * Each check prints one line; the last line is "N passed, N failed". */
#include <caluna.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pixels.h"
#include "scene.h"

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                  */

static caluna_layer root_of(caluna_engine *e) {
    caluna_layer r = 0;
    caluna_root_layer(e, &r);
    return r;
}

/* A layer with `frame` in `parent` (0: root), background rgb (negative: none); the tree holds it. */
static caluna_layer add_layer(caluna_engine *e, caluna_layer parent, double x, double y, double w, double h, long rgb) {
    caluna_layer l = 0;
    caluna_layer_create(e, &l);
    lset(e, l, "frame", caluna_rect(x, y, w, h));
    if (rgb >= 0) lset(e, l, "backgroundColor", caluna_color_rgb((uint32_t)rgb, 1));
    caluna_layer_add_sublayer(e, parent ? parent : root_of(e), l);
    caluna_layer_release(e, l);
    return l;
}


#define PIXEL(x, y, rgb) CHECK(is_rgb((x), (y), (rgb), 3), "pixel (%d, %d) is %06x (got %d %d %d %d)", (x), (y), \
                               (unsigned)(rgb), px((x), (y))[0], px((x), (y))[1], px((x), (y))[2], px((x), (y))[3])

enum { RED = 0xff0000, GREEN = 0x00ff00, BLUE = 0x0000ff, YELLOW = 0xffff00, WHITE = 0xffffff, BLACK = 0x000000,
       LIGHTGRAY = 0xaaaaaa };

/* An image from a function of (x, y) → 0xRRGGBB (opaque) or -1 (transparent). */
static caluna_image make_image(caluna_engine *e, int w, int h, long (*f)(int x, int y)) {
    uint8_t *buf = (uint8_t *)calloc((size_t)w * (size_t)h, 4);
    caluna_image img = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            long c = f(x, y);
            uint8_t *p = buf + ((size_t)y * (size_t)w + (size_t)x) * 4;
            if (c < 0) continue;
            p[0] = (uint8_t)(c >> 16); p[1] = (uint8_t)(c >> 8); p[2] = (uint8_t)c; p[3] = 255;
        }
    caluna_status s = caluna_image_from_pixels(e, w, h, w * 4, CALUNA_RGBA8_STRAIGHT, buf, &img);
    if (s != CALUNA_OK) printf("      (from_pixels: %s)\n", caluna_last_error(e));
    free(buf);
    return img;
}

static long img_tb(int x, int y) { (void)x; return y < 75 ? RED : BLUE; }
static long img_q(int x, int y) { return y < 100 ? (x < 100 ? RED : GREEN) : (x < 100 ? BLUE : YELLOW); }
static long img_btn(int x, int y) {
    int cx = x < 10 || x >= 30, cy = y < 10 || y >= 30;
    return cx && cy ? RED : (cx || cy ? BLUE : WHITE);
}
static long img_green(int x, int y) { (void)x; (void)y; return GREEN; }

/* An ellipse in (x, y, w, h) as path elements (6). */
static void ellipse_path(caluna_path_element *el, double x, double y, double w, double h) {
    double k = 0.5522847498307936, cx = x + w / 2, cy = y + h / 2, rx = w / 2, ry = h / 2;
    double pts[4][6] = {
        { cx + rx, cy + k * ry, cx + k * rx, cy + ry, cx, cy + ry },
        { cx - k * rx, cy + ry, cx - rx, cy + k * ry, cx - rx, cy },
        { cx - rx, cy - k * ry, cx - k * rx, cy - ry, cx, cy - ry },
        { cx + k * rx, cy - ry, cx + rx, cy - k * ry, cx + rx, cy },
    };
    memset(el, 0, 6 * sizeof *el);
    el[0].type = CALUNA_PATH_MOVE;
    el[0].points[0].x = cx + rx;
    el[0].points[0].y = cy;
    for (int i = 0; i < 4; i++) {
        el[i + 1].type = CALUNA_PATH_CUBIC;
        for (int j = 0; j < 3; j++) {
            el[i + 1].points[j].x = pts[i][2 * j];
            el[i + 1].points[j].y = pts[i][2 * j + 1];
        }
    }
    el[5].type = CALUNA_PATH_CLOSE;
}

static caluna_stats stats_of(caluna_engine *e) {
    caluna_stats s = caluna_stats_default();
    caluna_status st = caluna_engine_stats(e, &s);
    if (st != CALUNA_OK) printf("      (stats: %s)\n", caluna_last_error(e));
    return s;
}

/* ---------------------------------------------------------------------------------------- */
/* draw callbacks                                                                           */

typedef struct {
    int calls, released, layer_ok;
    caluna_layer layer;
    caluna_context last_ctx;
    int32_t status;                 /* what the callback returns */
    int bad_inputs_ok;              /* bad-input checks made inside (all must hold) */
    int bad_inputs;
    caluna_image image;             /* drawn by draw_image_cb */
    caluna_layer other;             /* rendered by render_cb */
    double scale;                   /* what contents_scale said */
} host;

static void on_release(void *user) { ((host *)user)->released++; }

/* Listing 2.5: a red ellipse stroked along the bounds, line width 10. */
static int32_t ellipse_cb(caluna_engine *e, caluna_layer layer, caluna_context ctx, void *user) {
    host *h = (host *)user;
    caluna_value b;
    h->calls++;
    h->last_ctx = ctx;
    h->layer_ok += layer == h->layer;
    caluna_context_contents_scale(e, ctx, &h->scale);
    if (caluna_layer_get(e, layer, "bounds", &b) != CALUNA_OK) return CALUNA_ERR_SCRIPT;
    caluna_context_set_line_width(e, ctx, 10);
    caluna_context_set_stroke_color(e, ctx, 1, 0, 0, 1);
    caluna_context_stroke_ellipse_in_rect(e, ctx, b.u.rect.x, b.u.rect.y, b.u.rect.width, b.u.rect.height);
    return h->status;
}

static void bad(host *h, caluna_engine *e, caluna_status got, caluna_status want, const char *what) {
    const char *msg = caluna_last_error(e);
    h->bad_inputs++;
    if (got == want && (got == CALUNA_OK || (msg && msg[0]))) h->bad_inputs_ok++;
    else printf("      (inside the callback: %s -> %s, expected %s: %s)\n", what, caluna_status_name(got),
                caluna_status_name(want), msg);
}

#define BAD(h, e, call, want) bad((h), (e), (call), (want), #call)

/* Every kind of bad input to the context calls, then a green fill (the context still works). */
static int32_t hostile_cb(caluna_engine *e, caluna_layer layer, caluna_context ctx, void *user) {
    host *h = (host *)user;
    double cols[8] = { 1, 0, 0, 1, 0, 0, 1, 1 }, nan_cols[4] = { NAN, 0, 0, 1 }, dash[2] = { 0, 0 };
    double dash_on_off[2] = { 2, 2 };
    double locs[2] = { 0, 2 }, w = 0, hh = 0, ctm[6];
    caluna_path_element el[2];
    h->calls++;
    h->last_ctx = ctx;
    memset(el, 0, sizeof el);
    BAD(h, e, caluna_context_fill_rect(e, ctx, NAN, 0, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_fill_rect(e, ctx, 0, 0, INFINITY, 1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_fill_rect(e, ctx, 1e300, 0, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_fill_color(e, ctx, NAN, 0, 0, 1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_line_width(e, ctx, -1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_line_cap(e, ctx, "pointy"), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_line_cap(e, ctx, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_line_join(e, ctx, "\xff\xfe"), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_line_dash(e, ctx, 0, NULL, 3), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_line_dash(e, ctx, 0, dash, 2), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_line_dash(e, ctx, 0, dash, (size_t)1 << 40), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_alpha(e, ctx, 2), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_restore_gstate(e, ctx), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_scale(e, ctx, 0, 1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_concat(e, ctx, 1, 0, 0, 0, 0, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_rotate(e, ctx, INFINITY), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_get_ctm(e, ctx, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_get_ctm(e, ctx, ctm), CALUNA_OK);
    BAD(h, e, caluna_context_begin_path(e, ctx), CALUNA_OK);
    /* A dashed stroke of an empty path: cairo has no path data for it (once a trap). */
    BAD(h, e, caluna_context_set_line_dash(e, ctx, 0, dash_on_off, 2), CALUNA_OK);
    BAD(h, e, caluna_context_stroke_path(e, ctx), CALUNA_OK);
    BAD(h, e, caluna_context_set_line_dash(e, ctx, 0, NULL, 0), CALUNA_OK);
    BAD(h, e, caluna_context_add_line_to(e, ctx, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_close_path(e, ctx), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_add_arc(e, ctx, 0, 0, -1, 0, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_add_path(e, ctx, NULL, 2), CALUNA_ERR_INVALID_ARGUMENT);
    el[0].type = (caluna_path_element_type)9;
    BAD(h, e, caluna_context_add_path(e, ctx, el, 1), CALUNA_ERR_INVALID_ARGUMENT);
    el[0].type = CALUNA_PATH_LINE;
    BAD(h, e, caluna_context_add_path(e, ctx, el, 1), CALUNA_ERR_INVALID_ARGUMENT); /* no current point */
    el[0].type = CALUNA_PATH_MOVE;
    el[0].points[0].x = NAN;
    BAD(h, e, caluna_context_add_path(e, ctx, el, 1), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_path(e, ctx, "paint"), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_linear_gradient(e, ctx, cols, NULL, 0, 0, 0, 1, 1, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_linear_gradient(e, ctx, NULL, NULL, 2, 0, 0, 1, 1, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_linear_gradient(e, ctx, cols, NULL, 5000, 0, 0, 1, 1, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_linear_gradient(e, ctx, cols, NULL, 2, 0, 0, 1, 1, 4), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_linear_gradient(e, ctx, nan_cols, NULL, 1, 0, 0, 1, 1, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_linear_gradient(e, ctx, cols, locs, 2, 0, 0, 1, 1, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_radial_gradient(e, ctx, cols, NULL, 2, 0, 0, -1, 0, 0, 5, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_image(e, ctx, 0, 0, 0, 10, 10), CALUNA_ERR_STALE_HANDLE);
    BAD(h, e, caluna_context_draw_image(e, ctx, layer, 0, 0, 10, 10), CALUNA_ERR_STALE_HANDLE);
    BAD(h, e, caluna_context_set_font(e, ctx, "No Such Font Family 123", 12), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_set_font(e, ctx, "DejaVu Sans", -3), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_show_text(e, ctx, "\xc3\x28", 0, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_show_text(e, ctx, NULL, 0, 0), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_draw_text(e, ctx, "hi", 0, 0, 10, 10, "middle"), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_text_size(e, ctx, "hi", NAN, &w, &hh), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_text_size(e, ctx, "hi", 0, NULL, &hh), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_context_clip_bounding_box(e, ctx, NULL, &w, &w, &w), CALUNA_ERR_INVALID_ARGUMENT);
    BAD(h, e, caluna_layer_display(e, layer), CALUNA_ERR_INVALID_ARGUMENT);        /* itself, while drawing */
    BAD(h, e, caluna_layer_render_in_context(e, 0, ctx), CALUNA_ERR_STALE_HANDLE);
    BAD(h, e, caluna_render(e, NULL, 0, 0, 0, 0, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT); /* refused */
    BAD(h, e, caluna_context_fill_rect(e, ctx + 1, 0, 0, 1, 1), CALUNA_ERR_STALE_HANDLE);
    BAD(h, e, caluna_context_fill_rect(e, 0, 0, 0, 1, 1), CALUNA_ERR_STALE_HANDLE);
    /* The context still draws. */
    BAD(h, e, caluna_context_set_fill_color(e, ctx, 0, 1, 0, 1), CALUNA_OK);
    BAD(h, e, caluna_context_fill_rect(e, ctx, 0, 0, 100, 100), CALUNA_OK);
    return h->status;
}

/* Gradients, images, text, a rounded rect, a dash and renderInContext in one picture:
 * left half a red→blue linear gradient (x 0…50), the image at (50, 0, 50, 50), `other`
 * rendered at (50, 50). */
static int32_t gallery_cb(caluna_engine *e, caluna_layer layer, caluna_context ctx, void *user) {
    host *h = (host *)user;
    double cols[8] = { 1, 0, 0, 1, 0, 0, 1, 1 }, locs[2] = { 0, 1 }, dash[2] = { 4, 2 };
    double tw = 0, th = 0, x = 0, y = 0, cw = 0, chh = 0;
    int ok = 1;
    (void)layer;
    h->calls++;
    ok &= caluna_context_save_gstate(e, ctx) == CALUNA_OK;
    ok &= caluna_context_clip_to_rect(e, ctx, 0, 0, 50, 100) == CALUNA_OK;
    ok &= caluna_context_clip_bounding_box(e, ctx, &x, &y, &cw, &chh) == CALUNA_OK && cw == 50 && chh == 100;
    ok &= caluna_context_draw_linear_gradient(e, ctx, cols, locs, 2, 0, 0, 50, 0,
                                              CALUNA_GRADIENT_DRAWS_BEFORE_START | CALUNA_GRADIENT_DRAWS_AFTER_END) == CALUNA_OK;
    ok &= caluna_context_restore_gstate(e, ctx) == CALUNA_OK;
    ok &= caluna_context_draw_image(e, ctx, h->image, 50, 0, 50, 50) == CALUNA_OK;
    ok &= caluna_context_save_gstate(e, ctx) == CALUNA_OK;
    ok &= caluna_context_translate(e, ctx, 50, 50) == CALUNA_OK;
    ok &= caluna_layer_render_in_context(e, h->other, ctx) == CALUNA_OK;
    ok &= caluna_context_restore_gstate(e, ctx) == CALUNA_OK;
    ok &= caluna_context_set_font(e, ctx, "DejaVu Sans", 10) == CALUNA_OK;
    ok &= caluna_context_text_size(e, ctx, "Hello", 0, &tw, &th) == CALUNA_OK && tw > 10 && tw < 60 && th > 5 && th < 30;
    ok &= caluna_context_set_line_dash(e, ctx, 0, dash, 2) == CALUNA_OK;
    ok &= caluna_context_set_line_dash(e, ctx, 0, NULL, 0) == CALUNA_OK;
    ok &= caluna_context_begin_path(e, ctx) == CALUNA_OK;
    ok &= caluna_context_add_rounded_rect(e, ctx, 200, 200, 10, 10, 3) == CALUNA_OK; /* outside the store */
    ok &= caluna_context_fill_path(e, ctx) == CALUNA_OK;
    h->bad_inputs++;
    h->bad_inputs_ok += ok;
    return 0;
}

/* Draws a different colour each call (red, then green, …) over the whole clip. */
static int32_t counter_cb(caluna_engine *e, caluna_layer layer, caluna_context ctx, void *user) {
    host *h = (host *)user;
    (void)layer;
    h->calls++;
    caluna_context_set_fill_color(e, ctx, h->calls == 1 ? 1 : 0, h->calls == 1 ? 0 : 1, 0, 1);
    caluna_context_fill_rect(e, ctx, -1000, -1000, 3000, 3000);
    return h->status;
}

/* ---------------------------------------------------------------------------------------- */
/* listing 2.5                                                                              */

static void listing_2_5(double s) {
    printf("-- listing 2.5 through a C draw callback, scale %g\n", s);
    caluna_engine *e = new_engine_sized(300, 300, s);
    caluna_layer root = root_of(e);
    lset(e, root, "backgroundColor", caluna_color_rgb(LIGHTGRAY, 1));
    caluna_layer white = add_layer(e, 0, 50, 50, 200, 200, WHITE);
    caluna_layer blue = add_layer(e, white, 50, 50, 100, 100, BLUE);
    host h;
    memset(&h, 0, sizeof h);
    h.layer = blue;
    EXPECT_OK(e, lset(e, blue, "contentsScale", caluna_number(s)));
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, blue, ellipse_cb, &h, on_release));
    EXPECT_OK(e, render(e));
    CHECK(h.calls == 0, "a CALayer does not draw itself: 0 draws after a render without display (%d)", h.calls);
    caluna_value v;
    EXPECT_OK(e, caluna_layer_get(e, blue, "contents", &v));
    CHECK(v.type == CALUNA_TYPE_NIL, "contents is NIL before display");
    /* The layer is on screen now: without this, its new contents would fade in (0.25 s). */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_layer_display(e, blue));
    CHECK(h.calls == 1 && h.layer_ok == 1, "display draws once, with the layer's id (%d)", h.calls);
    CHECK(h.scale == s, "the context's contents_scale is %g (%g)", s, h.scale);
    EXPECT(e, caluna_context_fill_rect(e, h.last_ctx, 0, 0, 1, 1), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, render(e));
    EXPECT_OK(e, render(e));
    CHECK(h.calls == 1, "the content is cached: two renders later still 1 draw (%d)", h.calls);
    EXPECT_OK(e, caluna_layer_get(e, blue, "contents", &v));
    CHECK(v.type == CALUNA_TYPE_IMAGE && v.u.image != 0, "contents is an IMAGE after display");
    int32_t iw = 0, ih = 0;
    EXPECT_OK(e, caluna_image_size(e, v.u.image, &iw, &ih));
    CHECK(iw == (int32_t)(100 * s) && ih == (int32_t)(100 * s), "the backing store is 100·s px square (%d×%d)", iw, ih);
    int k = (int)s;
    PIXEL(150 * k, 150 * k, BLUE);
    PIXEL(150 * k, 102 * k, RED);
    PIXEL(150 * k, 108 * k, BLUE);
    PIXEL(150 * k, 98 * k, WHITE);
    PIXEL(102 * k, 150 * k, RED);
    PIXEL(98 * k, 150 * k, WHITE);
    /* The store's own pixels: local (50, 2) red, (50, 50) transparent. */
    size_t n = (size_t)iw * (size_t)ih * 4;
    uint8_t *store = (uint8_t *)malloc(n);
    EXPECT_OK(e, caluna_image_read_pixels(e, v.u.image, store, n, iw * 4, CALUNA_RGBA8_STRAIGHT));
    const uint8_t *a = store + ((size_t)(2 * k) * (size_t)iw + (size_t)(50 * k)) * 4;
    const uint8_t *c = store + ((size_t)(50 * k) * (size_t)iw + (size_t)(50 * k)) * 4;
    CHECK(a[0] == 255 && a[1] == 0 && a[3] == 255 && c[3] == 0, "the store holds the red stroke on transparency");
    free(store);
    caluna_stats st = stats_of(e);
    CHECK(st.backing_store_bytes == (int64_t)(100 * s) * (int64_t)(100 * s) * 4, "backing_store_bytes = %lld",
          (long long)st.backing_store_bytes);
    /* setNeedsDisplay, then a display pass: one more draw. */
    int32_t flag = -1;
    EXPECT_OK(e, caluna_layer_set_needs_display(e, blue));
    EXPECT_OK(e, caluna_layer_needs_display(e, blue, &flag));
    CHECK(flag == 1, "needs_display is 1 after set_needs_display");
    EXPECT_OK(e, render(e));
    EXPECT_OK(e, caluna_layer_needs_display(e, blue, &flag));
    CHECK(h.calls == 2 && flag == 0, "the render's display pass draws once more (%d) and clears the mark", h.calls);
    st = stats_of(e);
    CHECK(st.draw_callbacks == 1, "stats: that render's frame ran 1 draw callback (%lld)", (long long)st.draw_callbacks);
    CHECK(st.dirty_pixels == (int64_t)(100 * s) * (int64_t)(100 * s), "stats: dirty_pixels %lld", (long long)st.dirty_pixels);
    /* displayIfNeeded does nothing unless marked. */
    EXPECT_OK(e, caluna_layer_display_if_needed(e, blue));
    CHECK(h.calls == 2, "display_if_needed without a mark does not draw");
    EXPECT_OK(e, caluna_layer_set_needs_display_in_rect(e, blue, 0, 0, 10, 10));
    EXPECT_OK(e, caluna_layer_display_if_needed(e, blue));
    CHECK(h.calls == 3, "display_if_needed after a dirty rect draws");
    CHECK(h.released == 0, "the callback's user is still held");
    caluna_engine_destroy(e);
    CHECK(h.released == 1, "destroying the engine releases the draw callback's user once (%d)", h.released);
}

/* ---------------------------------------------------------------------------------------- */
/* chapter 2: contents                                                                      */

static void contents_listings(void) {
    printf("-- listings 2.1–2.4: contents from caller pixels\n");
    caluna_engine *e = new_engine_sized(300, 300, 1);
    caluna_layer root = root_of(e);
    lset(e, root, "backgroundColor", caluna_color_rgb(LIGHTGRAY, 1));
    caluna_image tb = make_image(e, 100, 150, img_tb);
    caluna_layer l = add_layer(e, 0, 50, 50, 200, 200, WHITE);
    EXPECT_OK(e, lset(e, l, "contents", caluna_image_value(tb)));
    EXPECT_OK(e, caluna_image_release(e, tb));     /* the layer holds it */
    caluna_value v;
    EXPECT_OK(e, caluna_layer_get(e, l, "contentsGravity", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "resize") == 0, "contentsGravity defaults to \"resize\"");
    EXPECT_OK(e, caluna_layer_get(e, l, "contents", &v));
    CHECK(v.type == CALUNA_TYPE_IMAGE && v.u.image == tb, "contents reads back as the same image id (borrowed)");
    EXPECT_OK(e, render(e));
    PIXEL(60, 100, RED);
    PIXEL(240, 200, BLUE);
    PIXEL(53, 53, RED);
    PIXEL(246, 246, BLUE);
    /* resizeAspect: letterboxed. Changes after the first render jump (actions off). */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, l, "contentsGravity", caluna_string("resizeAspect")));
    EXPECT_OK(e, render(e));
    PIXEL(65, 150, WHITE);
    PIXEL(235, 150, WHITE);
    PIXEL(150, 100, RED);
    PIXEL(150, 200, BLUE);

    /* Listing 2.2: IMG_Q at gravity center in a 100×100 layer at (100, 100). */
    caluna_image q = make_image(e, 200, 200, img_q);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, l, "frame", caluna_rect(100, 100, 100, 100)));
    EXPECT_OK(e, lset(e, l, "contents", caluna_image_value(q)));
    EXPECT_OK(e, lset(e, l, "contentsGravity", caluna_string("center")));
    EXPECT_OK(e, render(e));
    int32_t iw = 0, ih = 0;
    CHECK(caluna_image_size(e, tb, &iw, &ih) == CALUNA_ERR_STALE_HANDLE,
          "the first image died with its last holder: its id is stale");
    PIXEL(60, 60, RED);
    PIXEL(240, 60, GREEN);
    PIXEL(60, 240, BLUE);
    PIXEL(240, 240, YELLOW);
    PIXEL(30, 30, LIGHTGRAY);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, l, "contentsScale", caluna_number(2)));
    EXPECT_OK(e, render(e));
    PIXEL(60, 60, LIGHTGRAY);
    PIXEL(110, 110, RED);
    PIXEL(190, 110, GREEN);
    PIXEL(110, 190, BLUE);
    PIXEL(190, 190, YELLOW);

    /* Listing 2.3: a sprite through contentsRect (the cone: TR green). */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, l, "contentsScale", caluna_number(1)));
    EXPECT_OK(e, lset(e, l, "contentsGravity", caluna_string("resizeAspect")));
    EXPECT_OK(e, lset(e, l, "contentsRect", caluna_rect(0.5, 0, 0.5, 0.5)));
    EXPECT_OK(e, render(e));
    PIXEL(150, 150, GREEN);
    PIXEL(106, 106, GREEN);
    PIXEL(194, 194, GREEN);

    /* Listing 2.4: IMG_BTN with contentsCenter in a 200×60 layer. */
    caluna_image btn = make_image(e, 40, 40, img_btn);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, l, "frame", caluna_rect(50, 100, 200, 60)));
    EXPECT_OK(e, lset(e, l, "contents", caluna_image_value(btn)));
    EXPECT_OK(e, lset(e, l, "contentsGravity", caluna_string("resize")));
    EXPECT_OK(e, lset(e, l, "contentsRect", caluna_rect(0, 0, 1, 1)));
    EXPECT_OK(e, lset(e, l, "magnificationFilter", caluna_string("nearest")));
    EXPECT_OK(e, lset(e, l, "contentsCenter", caluna_rect(0.25, 0.25, 0.5, 0.5)));
    EXPECT_OK(e, render(e));
    PIXEL(55, 105, RED);
    PIXEL(245, 155, RED);
    PIXEL(65, 105, BLUE);
    PIXEL(150, 105, BLUE);
    PIXEL(55, 130, BLUE);
    PIXEL(65, 130, WHITE);
    PIXEL(150, 130, WHITE);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, l, "contentsCenter", caluna_rect(0, 0, 1, 1)));
    EXPECT_OK(e, render(e));
    PIXEL(65, 105, RED);    /* the default stretches the corner */

    /* Wrong value types and bad ids for contents. */
    EXPECT(e, lset(e, l, "contents", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, lset(e, l, "contents", caluna_string("Snowman.png")), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, lset(e, l, "contents", caluna_image_value(0)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, lset(e, l, "contents", caluna_image_value(tb)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, lset(e, l, "contents", caluna_image_value(l)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, lset(e, l, "opacity", caluna_image_value(q)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_layer_set_needs_display(e, q), CALUNA_ERR_STALE_HANDLE);
    caluna_engine *other = new_engine();
    caluna_image foreign = make_image(other, 2, 2, img_green);
    EXPECT(e, lset(e, l, "contents", caluna_image_value(foreign)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_image_size(e, foreign, &iw, &ih), CALUNA_ERR_STALE_HANDLE);
    caluna_engine_destroy(other);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, l, "contents", caluna_nil()));
    EXPECT_OK(e, render(e));
    PIXEL(150, 130, WHITE);
    CHECK(caluna_image_size(e, btn, &iw, &ih) == CALUNA_OK && iw == 40, "an owned image outlives the layer that showed it");
    EXPECT_OK(e, caluna_image_release(e, btn));
    EXPECT_OK(e, caluna_image_release(e, q));
    EXPECT(e, caluna_image_release(e, q), CALUNA_ERR_STALE_HANDLE);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* images                                                                                   */

static void images(void) {
    printf("-- images: ids, pixels, files, memory, bad input\n");
    caluna_engine *e = new_engine();
    caluna_image img = 0, img2 = 0;
    /* Straight pixels are premultiplied; read back either way. */
    uint8_t in[2 * 2 * 4] = { 255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 255 };
    uint8_t out[4 * 4 * 4];
    EXPECT_OK(e, caluna_image_from_pixels(e, 2, 2, 8, CALUNA_RGBA8_STRAIGHT, in, &img));
    int32_t w = 0, h = 0;
    EXPECT_OK(e, caluna_image_size(e, img, &w, &h));
    CHECK(w == 2 && h == 2, "image size 2×2");
    size_t bytes = 0;
    EXPECT_OK(e, caluna_image_byte_count(e, img, &bytes));
    CHECK(bytes >= 16, "byte_count %zu", bytes);
    memset(out, 7, sizeof out);
    EXPECT_OK(e, caluna_image_read_pixels(e, img, out, sizeof out, 16, CALUNA_RGBA8_STRAIGHT));
    CHECK(out[0] == 255 && out[3] == 255 && out[5] == 255 && out[7] == 128 && out[16] == 0 && out[19] == 0 &&
          out[20] == 10 && out[23] == 255 && out[8] == 7, "pixels read back straight, padding untouched");
    EXPECT_OK(e, caluna_image_read_pixels(e, img, out, sizeof out, 8, CALUNA_BGRA8_PREMULTIPLIED));
    CHECK(out[0] == 0 && out[2] == 255 && out[5] == 128 && out[7] == 128, "BGRA premultiplied read back");
    /* PNG round trip through a file and memory. */
    const char *path = "/tmp/caluna_contents_test.png";
    EXPECT_OK(e, caluna_image_write_png(e, img, path));
    EXPECT_OK(e, caluna_image_load_file(e, path, &img2));
    EXPECT_OK(e, caluna_image_read_pixels(e, img2, out, sizeof out, 8, CALUNA_RGBA8_STRAIGHT));
    CHECK(out[0] == 255 && out[7] == 128 && out[12] == 10, "a PNG file round trip keeps the pixels");
    caluna_stats st0 = stats_of(e);
    FILE *f = fopen(path, "rb");
    uint8_t data[4096];
    size_t len = f ? fread(data, 1, sizeof data, f) : 0;
    if (f) fclose(f);
    caluna_image img3 = 0;
    EXPECT_OK(e, caluna_image_load_data(e, data, len, &img3));
    EXPECT_OK(e, render(e));
    caluna_stats st1 = stats_of(e);
    CHECK(st1.images_decoded == 2 && st0.images_decoded == 0, "images_decoded counts both decodes at the next render (%lld)",
          (long long)st1.images_decoded);
    EXPECT_OK(e, caluna_image_release(e, img3));
    /* Retain and release: one reference each. */
    EXPECT_OK(e, caluna_image_retain(e, img2));
    EXPECT_OK(e, caluna_image_release(e, img2));
    EXPECT_OK(e, caluna_image_release(e, img2));
    EXPECT(e, caluna_image_release(e, img2), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_image_size(e, img2, &w, &h), CALUNA_ERR_STALE_HANDLE);
    /* Bad input. */
    EXPECT(e, caluna_image_from_pixels(e, 2, 2, 8, CALUNA_RGBA8_STRAIGHT, NULL, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_from_pixels(e, 0, 2, 8, CALUNA_RGBA8_STRAIGHT, in, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_from_pixels(e, -2, 2, 8, CALUNA_RGBA8_STRAIGHT, in, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_from_pixels(e, 20000, 2, 80000, CALUNA_RGBA8_STRAIGHT, in, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_from_pixels(e, 16384, 16384, 65536, CALUNA_RGBA8_STRAIGHT, in, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_from_pixels(e, 2, 2, 7, CALUNA_RGBA8_STRAIGHT, in, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_from_pixels(e, 2, 2, -8, CALUNA_RGBA8_STRAIGHT, in, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_from_pixels(e, 2, 2, 8, (caluna_pixel_format)9, in, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_from_pixels(e, 2, 2, 8, CALUNA_RGBA8_STRAIGHT, in, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(img2 == 0, "a failed call leaves *out = 0");
    EXPECT(e, caluna_image_load_file(e, "/nonexistent/x.png", &img2), CALUNA_ERR_IO);
    EXPECT(e, caluna_image_load_file(e, "/tmp", &img2), CALUNA_ERR_IO);
    EXPECT(e, caluna_image_load_file(e, NULL, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_load_file(e, "\xff.png", &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_load_data(e, "GIF89a", 6, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_load_data(e, data, 0, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_load_data(e, NULL, 10, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_load_data(e, data, len / 2, &img2), CALUNA_ERR_INVALID_ARGUMENT);   /* truncated */
    EXPECT(e, caluna_image_load_data(e, data, (size_t)1 << 40, &img2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_read_pixels(e, img, out, 15, 8, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_read_pixels(e, img, out, sizeof out, 4, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_read_pixels(e, img, NULL, sizeof out, 8, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_read_pixels(e, img, out, sizeof out, 8, (caluna_pixel_format)-1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_size(e, 0, &w, &h), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_image_size(e, img ^ 0x100000000ull, &w, &h), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_image_size(e, img, NULL, &h), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_image_write_png(e, img, "/nonexistent/dir/x.png"), CALUNA_ERR_IO);
    caluna_layer root = root_of(e);
    EXPECT(e, caluna_image_size(e, root, &w, &h), CALUNA_ERR_STALE_HANDLE);          /* a layer id */
    EXPECT(e, caluna_layer_set_needs_display(e, img), CALUNA_ERR_STALE_HANDLE);       /* an image id */
    caluna_animation anim = anim_new(e, "BasicAnimation");
    EXPECT(e, caluna_image_retain(e, anim), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_animation_retain(e, img), CALUNA_ERR_STALE_HANDLE);
    /* IMAGE values elsewhere: an animation tag holds the image. */
    EXPECT_OK(e, aset(e, anim, "keyPath", caluna_string("contents")));
    caluna_value iv = caluna_image_value(img), got;
    EXPECT_OK(e, caluna_animation_set(e, anim, "toValue", &iv));
    EXPECT_OK(e, caluna_animation_get(e, anim, "toValue", &got));
    CHECK(got.type == CALUNA_TYPE_IMAGE && got.u.image == img, "an animation's toValue holds an IMAGE");
    EXPECT_OK(e, caluna_image_release(e, img));
    EXPECT_OK(e, caluna_image_size(e, img, &w, &h));   /* the animation still holds it */
    EXPECT_OK(e, caluna_animation_release(e, anim));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    CHECK(caluna_image_size(e, img, &w, &h) == CALUNA_ERR_STALE_HANDLE, "and it dies with the animation");
    remove(path);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* chapter 4: visual effects                                                                */

static void effects(void) {
    printf("-- listings 4.1–4.2: cornerRadius, masksToBounds, border\n");
    caluna_engine *e = new_engine_sized(500, 300, 1);
    lset(e, root_of(e), "backgroundColor", caluna_color_rgb(LIGHTGRAY, 1));
    caluna_layer v1 = add_layer(e, 0, 20, 20, 200, 200, WHITE);
    caluna_layer v2 = add_layer(e, 0, 270, 20, 200, 200, WHITE);
    add_layer(e, v1, 150, 150, 100, 100, RED);
    add_layer(e, v2, 150, 150, 100, 100, RED);
    EXPECT_OK(e, lset(e, v1, "cornerRadius", caluna_number(20)));
    EXPECT_OK(e, lset(e, v2, "cornerRadius", caluna_number(20)));
    EXPECT_OK(e, lset(e, v2, "masksToBounds", caluna_bool(1)));
    EXPECT_OK(e, render(e));
    PIXEL(22, 22, LIGHTGRAY);
    PIXEL(22, 218, LIGHTGRAY);
    PIXEL(120, 120, WHITE);
    PIXEL(217, 217, RED);
    PIXEL(260, 260, RED);
    PIXEL(272, 22, LIGHTGRAY);
    PIXEL(467, 217, LIGHTGRAY);
    PIXEL(465, 180, RED);
    PIXEL(440, 190, RED);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, v1, "borderWidth", caluna_number(5)));
    EXPECT_OK(e, lset(e, v2, "borderWidth", caluna_number(5)));
    EXPECT_OK(e, render(e));
    PIXEL(22, 120, BLACK);
    PIXEL(27, 120, WHITE);
    PIXEL(17, 120, LIGHTGRAY);
    PIXEL(217, 190, BLACK);
    PIXEL(260, 260, RED);
    PIXEL(27, 27, BLACK);
    PIXEL(32, 32, WHITE);
    PIXEL(467, 190, BLACK);
    PIXEL(440, 190, RED);
    EXPECT(e, lset(e, v1, "cornerRadius", caluna_number(-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, v1, "borderWidth", caluna_number(NAN)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, v1, "maskedCorners", caluna_number(16)), CALUNA_ERR_TYPE_MISMATCH);
    caluna_engine_destroy(e);

    printf("-- listing 4.3: a hard-edged shadow (radius 0)\n");
    e = new_engine_sized(200, 200, 1);
    lset(e, root_of(e), "backgroundColor", caluna_color_rgb(WHITE, 1));
    caluna_layer q = add_layer(e, 0, 50, 50, 100, 100, RED);
    EXPECT_OK(e, lset(e, q, "shadowOpacity", caluna_number(1)));
    EXPECT_OK(e, lset(e, q, "shadowRadius", caluna_number(0)));
    EXPECT_OK(e, render(e));
    PIXEL(100, 48, BLACK);
    PIXEL(100, 46, WHITE);
    PIXEL(100, 152, WHITE);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, q, "shadowOffset", caluna_size(0, 10)));
    EXPECT_OK(e, render(e));
    PIXEL(100, 155, BLACK);
    PIXEL(100, 159, BLACK);
    PIXEL(100, 161, WHITE);
    PIXEL(100, 48, WHITE);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, q, "shadowColor", caluna_color_rgb(BLUE, 1)));
    EXPECT_OK(e, render(e));
    PIXEL(100, 155, BLUE);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, q, "shadowColor", caluna_color_rgb(BLACK, 1)));
    EXPECT_OK(e, lset(e, q, "shadowOpacity", caluna_number(0.5)));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(100, 155, 0x808080, 3), "shadowOpacity 0.5 gives grey 128 (%d)", px(100, 155)[0]);
    caluna_engine_destroy(e);

    printf("-- listing 4.4: shadowPath\n");
    e = new_engine_sized(200, 200, 1);
    lset(e, root_of(e), "backgroundColor", caluna_color_rgb(WHITE, 1));
    q = add_layer(e, 0, 50, 50, 100, 100, RED);
    lset(e, q, "shadowOpacity", caluna_number(1));
    lset(e, q, "shadowRadius", caluna_number(0));
    lset(e, q, "shadowOffset", caluna_size(0, 20));
    caluna_path_element el[6], back[8];
    ellipse_path(el, 0, 0, 100, 100);
    EXPECT_OK(e, caluna_layer_set_shadow_path(e, q, el, 6));
    size_t count = 99;
    EXPECT_OK(e, caluna_layer_shadow_path(e, q, NULL, 0, &count));
    CHECK(count == 6, "shadow_path counts 6 elements (%zu)", count);
    memset(back, 0, sizeof back);
    EXPECT_OK(e, caluna_layer_shadow_path(e, q, back, 8, &count));
    CHECK(count == 6 && back[1].type == CALUNA_PATH_CUBIC && back[0].points[0].x == 100 && back[5].type == CALUNA_PATH_CLOSE,
          "shadow_path reads the elements back");
    caluna_value pv;
    EXPECT_OK(e, caluna_layer_get(e, q, "shadowPath", &pv));
    CHECK(pv.type == CALUNA_TYPE_PATH && pv.u.path.count == 6 && pv.u.path.elements &&
          pv.u.path.elements[3].points[2].y == 0, "caluna_layer_get gives a PATH value");
    EXPECT_OK(e, render(e));
    PIXEL(52, 165, WHITE);
    PIXEL(100, 165, BLACK);
    PIXEL(100, 100, RED);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_layer_set_shadow_path(e, q, NULL, 0));
    EXPECT_OK(e, caluna_layer_get(e, q, "shadowPath", &pv));
    CHECK(pv.type == CALUNA_TYPE_NIL, "NULL with count 0 sets nil");
    EXPECT_OK(e, render(e));
    PIXEL(52, 165, BLACK);
    /* A PATH value through caluna_layer_set: an empty path casts no shadow. */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, q, "shadowPath", caluna_path_value(el, 0)));
    EXPECT_OK(e, caluna_layer_get(e, q, "shadowPath", &pv));
    CHECK(pv.type == CALUNA_TYPE_PATH && pv.u.path.count == 0, "an empty PATH reads back empty");
    EXPECT_OK(e, render(e));
    PIXEL(100, 165, WHITE);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, q, "shadowPath", caluna_path_value(el, 6)));
    EXPECT_OK(e, render(e));
    PIXEL(100, 165, BLACK);
    /* Bad paths. */
    EXPECT(e, caluna_layer_set_shadow_path(e, q, NULL, 3), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_shadow_path(e, q, el, ((size_t)1 << 20) + 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, q, "shadowPath", caluna_path_value(NULL, 2)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, q, "shadowPath", caluna_path_value(el, (size_t)-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, q, "bounds", caluna_path_value(el, 6)), CALUNA_ERR_TYPE_MISMATCH);
    el[2].points[1].y = NAN;
    EXPECT(e, caluna_layer_set_shadow_path(e, q, el, 6), CALUNA_ERR_INVALID_ARGUMENT);
    el[2].points[1].y = 5e8;
    EXPECT(e, caluna_layer_set_shadow_path(e, q, el, 6), CALUNA_ERR_INVALID_ARGUMENT);   /* beyond ±1e8 */
    el[2].points[1].y = 0;
    el[3].type = (caluna_path_element_type)7;
    EXPECT(e, caluna_layer_set_shadow_path(e, q, el, 6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_shadow_path(e, q, NULL, 4, &count), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_shadow_path(e, q, back, 4, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_layer_shadow_path(e, q, back, 2, &count));
    CHECK(count == 6, "a short buffer still learns the full count");
    caluna_engine_destroy(e);
}

static void masks(void) {
    printf("-- listing 4.5: a mask layer\n");
    caluna_engine *e = new_engine_sized(200, 200, 1);
    lset(e, root_of(e), "backgroundColor", caluna_color_rgb(WHITE, 1));
    caluna_image q = make_image(e, 200, 200, img_q);
    caluna_layer iv = add_layer(e, 0, 0, 0, 200, 200, -1);
    EXPECT_OK(e, lset(e, iv, "contents", caluna_image_value(q)));
    caluna_layer m = 0, got = 7;
    caluna_layer_create(e, &m);
    lset(e, m, "frame", caluna_rect(0, 0, 100, 100));
    lset(e, m, "backgroundColor", caluna_color(0, 0, 0, 1));
    EXPECT_OK(e, caluna_layer_mask(e, iv, &got));
    CHECK(got == 0, "no mask by default");
    EXPECT_OK(e, caluna_layer_set_mask(e, iv, m));
    EXPECT_OK(e, caluna_layer_release(e, m));     /* the layer holds its mask */
    EXPECT_OK(e, caluna_layer_mask(e, iv, &got));
    CHECK(got == m, "caluna_layer_mask gives the mask");
    int32_t n = -1;
    caluna_layer sup = 9;
    EXPECT_OK(e, caluna_layer_sublayer_count(e, iv, &n));
    EXPECT_OK(e, caluna_layer_superlayer(e, m, &sup));
    CHECK(n == 0 && sup == 0, "the mask is not a sublayer and has no superlayer");
    EXPECT_OK(e, render(e));
    PIXEL(50, 50, RED);
    PIXEL(150, 150, WHITE);
    PIXEL(150, 50, WHITE);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, m, "backgroundColor", caluna_color(0, 0, 0, 0.5)));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(50, 50, 0xff8080, 3), "a half-transparent mask shows half (%d %d %d)", px(50, 50)[0], px(50, 50)[1], px(50, 50)[2]);
    /* The rules. */
    caluna_layer child = add_layer(e, 0, 0, 0, 10, 10, RED), lone = 0;
    caluna_layer_create(e, &lone);
    EXPECT(e, caluna_layer_set_mask(e, iv, child), CALUNA_ERR_TREE);              /* has a superlayer */
    EXPECT(e, caluna_layer_set_mask(e, lone, m), CALUNA_ERR_TREE);                /* masks another */
    EXPECT(e, caluna_layer_set_mask(e, lone, lone), CALUNA_ERR_TREE);             /* itself */
    EXPECT(e, caluna_layer_set_mask(e, lone, root_of(e)), CALUNA_ERR_TREE);       /* the root */
    EXPECT(e, caluna_layer_set_mask(e, iv, q), CALUNA_ERR_STALE_HANDLE);          /* an image id */
    EXPECT(e, caluna_layer_mask(e, iv, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_layer_set_mask(e, iv, 0));
    CHECK(caluna_layer_mask(e, iv, &got) == CALUNA_OK && got == 0, "mask 0 removes it");
    CHECK(caluna_layer_mask(e, m, &got) == CALUNA_ERR_STALE_HANDLE, "the removed mask died (nothing held it)");
    EXPECT_OK(e, render(e));
    PIXEL(150, 150, YELLOW);
    caluna_layer_release(e, lone);
    caluna_image_release(e, q);
    caluna_engine_destroy(e);
}

/* Listing 4.7: group opacity. */
static void group_opacity(void) {
    printf("-- listing 4.7: group opacity and shouldRasterize\n");
    caluna_engine *e = new_engine_sized(400, 300, 1);
    lset(e, root_of(e), "backgroundColor", caluna_color_rgb(BLACK, 1));
    caluna_layer b = add_layer(e, 0, 0, 0, 150, 50, WHITE);
    lset(e, b, "position", caluna_point(250, 150));
    lset(e, b, "cornerRadius", caluna_number(10));
    lset(e, b, "opacity", caluna_number(0.5));
    add_layer(e, b, 20, 10, 110, 30, WHITE);
    EXPECT_OK(e, lset(e, b, "allowsGroupOpacity", caluna_bool(0)));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(185, 150, 0x808080, 3), "without group opacity the button is 128 (%d)", px(185, 150)[0]);
    CHECK(is_rgb(250, 150, 0xbfbfbf, 3), "and the label 191 (%d)", px(250, 150)[0]);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, b, "shouldRasterize", caluna_bool(1)));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(185, 150, 0x808080, 3) && is_rgb(250, 150, 0x808080, 3), "shouldRasterize: both 128 (%d, %d)",
          px(185, 150)[0], px(250, 150)[0]);
    caluna_stats s1 = stats_of(e);
    EXPECT_OK(e, render(e));
    caluna_stats s2 = stats_of(e);
    CHECK(s1.raster_cache_misses == 1 && s1.raster_cache_hits == 0, "first rasterized render: 1 miss (%lld, %lld)",
          (long long)s1.raster_cache_misses, (long long)s1.raster_cache_hits);
    CHECK(s2.raster_cache_hits == 1 && s2.raster_cache_misses == 0, "second render: 1 hit (%lld, %lld)",
          (long long)s2.raster_cache_hits, (long long)s2.raster_cache_misses);
    CHECK(s2.raster_cache_bytes >= 150 * 50 * 4, "raster_cache_bytes %lld", (long long)s2.raster_cache_bytes);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, b, "shouldRasterize", caluna_bool(0)));
    EXPECT_OK(e, lset(e, b, "allowsGroupOpacity", caluna_bool(1)));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(185, 150, 0x808080, 3) && is_rgb(250, 150, 0x808080, 3), "allowsGroupOpacity: both 128 (%d, %d)",
          px(185, 150)[0], px(250, 150)[0]);
    caluna_stats s3 = stats_of(e);
    CHECK(s3.offscreen_passes >= 1 && s3.layers_visited >= 3, "group opacity costs an offscreen pass (%lld)",
          (long long)s3.offscreen_passes);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* drawing, memory, snapshots, callbacks                                                    */

static void memory_g10(void) {
    printf("-- G10: backing-store and image bytes\n");
    caluna_engine *e = new_engine();
    caluna_layer big = add_layer(e, 0, 0, 0, 1024, 768, -1);
    host h;
    memset(&h, 0, sizeof h);
    EXPECT_OK(e, lset(e, big, "contentsScale", caluna_number(2)));
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, big, counter_cb, &h, NULL));
    EXPECT_OK(e, caluna_layer_display(e, big));
    caluna_stats s = stats_of(e);
    CHECK(s.backing_store_bytes == 12582912, "a 1024×768 layer at contentsScale 2 holds 12582912 bytes (%lld)",
          (long long)s.backing_store_bytes);
    caluna_image img = make_image(e, 100, 100, img_green);
    for (int i = 0; i < 10; i++) {
        caluna_layer l = add_layer(e, 0, i * 10, 0, 10, 10, -1);
        EXPECT_OK(e, lset(e, l, "contents", caluna_image_value(img)));
    }
    EXPECT_OK(e, caluna_image_release(e, img));
    s = stats_of(e);
    CHECK(s.image_bytes == 40000, "ten layers sharing one 100×100 image: 40000 bytes (%lld)", (long long)s.image_bytes);
    /* Stats bad input and older struct sizes. */
    EXPECT(e, caluna_engine_stats(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_stats small;
    memset(&small, 0x5a, sizeof small);
    small.struct_size = 0;
    EXPECT(e, caluna_engine_stats(e, &small), CALUNA_ERR_INVALID_ARGUMENT);
    memset(&small, 0x5a, sizeof small);
    small.struct_size = sizeof(size_t) + 2 * sizeof(int64_t);
    EXPECT_OK(e, render(e));
    EXPECT_OK(e, caluna_engine_stats(e, &small));
    CHECK(small.layers_visited > 0 && small.layers_drawn >= 0 && small.offscreen_passes == 0x5a5a5a5a5a5a5a5all,
          "only the fields that fit struct_size are written");
    caluna_engine_destroy(e);
}

static void drawing(void) {
    printf("-- drawing: gradients, images, text, renderInContext, snapshots, bad input\n");
    caluna_engine *e = new_engine_sized(200, 200, 1);
    lset(e, root_of(e), "backgroundColor", caluna_color_rgb(WHITE, 1));
    caluna_layer l = add_layer(e, 0, 0, 0, 100, 100, -1);
    caluna_layer other = 0;
    caluna_layer_create(e, &other);
    lset(e, other, "bounds", caluna_rect(0, 0, 50, 50));
    lset(e, other, "backgroundColor", caluna_color_rgb(YELLOW, 1));
    host h;
    memset(&h, 0, sizeof h);
    h.image = make_image(e, 200, 200, img_q);
    h.other = other;
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, l, gallery_cb, &h, on_release));
    EXPECT_OK(e, caluna_layer_display(e, l));
    CHECK(h.calls == 1 && h.bad_inputs_ok == 1, "every drawing call in the gallery succeeded");
    EXPECT_OK(e, render(e));
    CHECK(px(1, 50)[0] > 240 && px(1, 50)[2] < 15, "the gradient starts red (%d %d %d)", px(1, 50)[0], px(1, 50)[1], px(1, 50)[2]);
    CHECK(px(48, 50)[2] > 240 && px(48, 50)[0] < 15, "and ends blue (%d %d %d)", px(48, 50)[0], px(48, 50)[1], px(48, 50)[2]);
    CHECK(px(25, 50)[0] > 100 && px(25, 50)[2] > 100, "the gradient's middle mixes red and blue");
    PIXEL(60, 10, RED);         /* image TL quadrant */
    PIXEL(90, 40, YELLOW);      /* image BR quadrant */
    PIXEL(75, 75, YELLOW);      /* the other layer rendered in */
    /* A snapshot of the drawn layer. */
    caluna_image snap = 0;
    int32_t w = 0, hh = 0;
    EXPECT_OK(e, caluna_layer_snapshot(e, l, 2, &snap));
    EXPECT_OK(e, caluna_image_size(e, snap, &w, &hh));
    CHECK(w == 200 && hh == 200, "snapshot at scale 2 is 200×200 (%d×%d)", w, hh);
    uint8_t *sp = (uint8_t *)malloc(200 * 200 * 4);
    EXPECT_OK(e, caluna_image_read_pixels(e, snap, sp, 200 * 200 * 4, 800, CALUNA_RGBA8_STRAIGHT));
    const uint8_t *p = sp + (150 * 200 + 150) * 4;
    CHECK(p[0] == 255 && p[1] == 255 && p[2] == 0 && p[3] == 255, "the snapshot shows the rendered-in layer");
    free(sp);
    EXPECT_OK(e, caluna_image_release(e, snap));
    EXPECT(e, caluna_layer_snapshot(e, l, NAN, &snap), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_snapshot(e, l, 0, &snap), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_snapshot(e, l, 1000, &snap), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_snapshot(e, l, 1, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_layer empty = add_layer(e, 0, 0, 0, 0, 0, -1);
    EXPECT(e, caluna_layer_snapshot(e, empty, 1, &snap), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(snap == 0, "a failed snapshot leaves *out = 0");

    /* The hostile callback: every bad input inside, then a green fill. */
    host bad_host;
    memset(&bad_host, 0, sizeof bad_host);
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, l, hostile_cb, &bad_host, on_release));
    CHECK(h.released == 1, "replacing the draw callback released the old user once (%d)", h.released);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_layer_display(e, l));
    CHECK(bad_host.calls == 1 && bad_host.bad_inputs_ok == bad_host.bad_inputs,
          "inside the callback every bad input got its status (%d of %d)", bad_host.bad_inputs_ok, bad_host.bad_inputs);
    EXPECT_OK(e, render(e));
    PIXEL(50, 50, GREEN);
    /* The context is dead afterwards; in another engine it is foreign. */
    EXPECT(e, caluna_context_fill_rect(e, bad_host.last_ctx, 0, 0, 1, 1), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_context_save_gstate(e, bad_host.last_ctx), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_render_in_context(e, l, bad_host.last_ctx), CALUNA_ERR_STALE_HANDLE);
    caluna_engine *other_engine = new_engine();
    EXPECT(other_engine, caluna_context_fill_rect(other_engine, bad_host.last_ctx, 0, 0, 1, 1), CALUNA_ERR_STALE_HANDLE);
    caluna_engine_destroy(other_engine);
    EXPECT(e, caluna_context_fill_rect(e, l, 0, 0, 1, 1), CALUNA_ERR_STALE_HANDLE);   /* a layer id */

    /* Callback errors become the displaying call's error. */
    bad_host.status = CALUNA_ERR_IO;
    EXPECT(e, caluna_layer_display(e, l), CALUNA_ERR_IO);
    bad_host.status = 12345;
    EXPECT(e, caluna_layer_display(e, l), CALUNA_ERR_SCRIPT);
    EXPECT_OK(e, caluna_layer_set_needs_display(e, l));
    EXPECT(e, render(e), CALUNA_ERR_SCRIPT);
    bad_host.status = 0;
    EXPECT_OK(e, caluna_layer_set_needs_display(e, l));
    EXPECT_OK(e, render(e));
    PIXEL(50, 50, GREEN);

    /* Dirty rectangles redraw only their pixels. */
    caluna_stats st;
    host cnt;
    memset(&cnt, 0, sizeof cnt);
    caluna_layer d = add_layer(e, 0, 100, 100, 100, 100, -1);
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, d, counter_cb, &cnt, on_release));
    EXPECT_OK(e, caluna_layer_display(e, d));           /* red */
    EXPECT_OK(e, render(e));
    st = stats_of(e);
    CHECK(st.dirty_pixels == 10000 && st.draw_callbacks == 1, "the render's stats count the display before it (%lld)",
          (long long)st.dirty_pixels);
    EXPECT_OK(e, caluna_layer_set_needs_display_in_rect(e, d, 60, 60, -20, -20)); /* standardised: 40…60 */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, render(e));                            /* green in 40…60 only */
    CHECK(cnt.calls == 2, "the dirty rect drew once more (%d)", cnt.calls);
    PIXEL(150, 150, GREEN);
    PIXEL(120, 120, RED);
    st = stats_of(e);
    CHECK(st.dirty_pixels == 400, "a 20×20 dirty rect redraws 400 pixels (%lld)", (long long)st.dirty_pixels);
    EXPECT(e, caluna_layer_set_needs_display_in_rect(e, d, NAN, 0, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_needs_display_in_rect(e, d, 0, 0, 1e300, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_needs_display(e, d, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_display(e, 0), CALUNA_ERR_STALE_HANDLE);

    /* Release callbacks: cleared, the layer dies. */
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, d, NULL, NULL, NULL));
    CHECK(cnt.released == 1, "clearing the draw callback released its user once");
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));   /* no contents fade holding the layer */
    EXPECT_OK(e, caluna_layer_display(e, d));
    caluna_value v;
    EXPECT_OK(e, caluna_layer_get(e, d, "contents", &v));
    CHECK(v.type == CALUNA_TYPE_NIL, "display with no way to draw clears contents (D24)");
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, d, counter_cb, &cnt, on_release));
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, d));
    CHECK(cnt.released == 2, "the layer's death released its user once (%d)", cnt.released);
    EXPECT(e, caluna_layer_set_draw_callback(e, d, counter_cb, &cnt, on_release), CALUNA_ERR_STALE_HANDLE);
    CHECK(cnt.released == 2, "a failed set takes nothing over");

    /* Presentation layers are read-only here too. */
    caluna_layer pres = 0;
    EXPECT_OK(e, caluna_layer_presentation(e, l, &pres));
    EXPECT(e, caluna_layer_set_draw_callback(e, pres, counter_cb, &cnt, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_display(e, pres), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_needs_display(e, pres), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set_mask(e, pres, 0), CALUNA_ERR_INVALID_ARGUMENT);

    /* A backing store too large is an error, not a crash. */
    EXPECT_OK(e, lset(e, l, "bounds", caluna_rect(0, 0, 20000, 10)));
    EXPECT(e, caluna_layer_display(e, l), CALUNA_ERR_INVALID_ARGUMENT);

    /* The engine still renders a known picture. */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_layer_set_draw_callback(e, l, NULL, NULL, NULL));
    CHECK(bad_host.released == 1, "the hostile callback's user was released once");
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, l));
    EXPECT_OK(e, render(e));
    PIXEL(50, 50, WHITE);
    caluna_layer_release(e, other);
    caluna_image_release(e, h.image);
    caluna_engine_destroy(e);
}

int main(void) {
    CHECK(caluna_abi_minor_version() == CALUNA_ABI_MINOR_VERSION && CALUNA_ABI_MINOR_VERSION >= 3,
          "the library is ABI 1.%d", caluna_abi_minor_version());
    listing_2_5(1);
    listing_2_5(2);
    contents_listings();
    images();
    effects();
    masks();
    group_opacity();
    memory_g10();
    drawing();
    free(pixels);
    return finish();
}

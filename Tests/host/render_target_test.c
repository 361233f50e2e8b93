/* Render targets (ABI 1.9) as a host uses them: a host buffer with a padded stride and an
 * engine-owned one; the damage rectangles of a moved layer; a frame where nothing changed;
 * the bytes, always those of caluna_render; capacity and merging; two targets on one
 * engine; statistics; every error status. C99. */
#include "check.h"
#include "scene.h"

#include <stdint.h>
#include <stdlib.h>

enum { W = 200, H = 100, STRIDE = W * 4 + 12 };

/* caluna_render into a fresh buffer with the same stride and format. */
static uint8_t *reference(caluna_engine *e, caluna_pixel_format f) {
    uint8_t *ref = (uint8_t *)calloc(STRIDE * H, 1);
    if (caluna_render(e, ref, STRIDE * H, W, H, STRIDE, f) != CALUNA_OK) printf("      (caluna_render: %s)\n", caluna_last_error(e));
    return ref;
}

/* Whether the pixels (not the padding) of two buffers with STRIDE are equal. */
static int same_pixels(const uint8_t *a, const uint8_t *b) {
    for (int y = 0; y < H; y++)
        if (memcmp(a + y * STRIDE, b + y * STRIDE, W * 4) != 0) return 0;
    return 1;
}

static int padding_untouched(const uint8_t *buf) {
    for (int y = 0; y < H; y++)
        for (int i = W * 4; i < STRIDE; i++)
            if (buf[y * STRIDE + i] != 0xAB) return 0;
    return 1;
}

static void move(caluna_engine *e, caluna_layer l, double x, double y) {
    caluna_transaction_begin(e);
    caluna_transaction_set_disable_actions(e, 1);
    lset(e, l, "position", caluna_point(x, y));
    caluna_transaction_commit(e);
}

static int rect_is(caluna_pixel_rect r, int x, int y, int w, int h) {
    return r.x == x && r.y == y && r.width == w && r.height == h;
}

static caluna_stats stats(caluna_engine *e) {
    caluna_stats s = caluna_stats_default();
    caluna_engine_stats(e, &s);
    return s;
}

static caluna_engine *scene(caluna_layer *box) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = W; o.height = H;
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(&o, &e));
    caluna_layer root = 0;
    caluna_root_layer(e, &root);
    lset(e, root, "backgroundColor", caluna_color(1, 1, 1, 1));
    *box = new_layer(e, 0);
    lset(e, *box, "bounds", caluna_rect(0, 0, 20, 20));
    lset(e, *box, "position", caluna_point(20, 20));
    lset(e, *box, "backgroundColor", caluna_color(1, 0, 0, 0.5));
    return e;
}

static void host_buffer(void) {
    caluna_layer box = 0;
    caluna_engine *e = scene(&box);
    uint8_t *buf = (uint8_t *)malloc(STRIDE * H);
    memset(buf, 0xAB, STRIDE * H);
    caluna_render_target t = 0;
    EXPECT_OK(e, caluna_render_target_create(e, buf, STRIDE * H, W, H, STRIDE, CALUNA_RGBA8_STRAIGHT, &t));
    CHECK(t != 0, "a target id");
    caluna_pixel_rect rects[CALUNA_MAX_DAMAGE_RECTS];
    int32_t n = -1;
    EXPECT_OK(e, caluna_render_target_draw(e, t, 0, rects, CALUNA_MAX_DAMAGE_RECTS, &n));
    CHECK(n == 1 && rect_is(rects[0], 0, 0, W, H), "the first draw is the whole frame (%d rects)", n);
    caluna_stats s = stats(e);
    CHECK(s.damaged_pixels == W * H && s.damage_rects == 1 && s.full_redraws == 1, "stats of a full redraw");
    uint8_t *ref = reference(e, CALUNA_RGBA8_STRAIGHT);
    CHECK(same_pixels(buf, ref), "the bytes are caluna_render's");
    CHECK(padding_untouched(buf), "the row padding is not written");
    free(ref);

    EXPECT_OK(e, caluna_render_target_draw(e, t, 0, rects, CALUNA_MAX_DAMAGE_RECTS, &n));
    CHECK(n == 0, "nothing changed: no rectangle (%d)", n);
    s = stats(e);
    CHECK(s.damaged_pixels == 0 && s.damage_rects == 0 && s.full_redraws == 0 && s.layers_drawn == 0,
          "an unchanged frame draws nothing");

    move(e, box, 100, 50);
    EXPECT_OK(e, caluna_render_target_draw(e, t, 0, rects, CALUNA_MAX_DAMAGE_RECTS, &n));
    CHECK(n == 2 && rect_is(rects[0], 8, 8, 24, 24) && rect_is(rects[1], 88, 38, 24, 24),
          "a moved 20×20 layer: its old and new boxes and 2 pixels around (%d rects)", n);
    s = stats(e);
    CHECK(s.damaged_pixels == 2 * 24 * 24 && s.damage_rects == 2 && s.full_redraws == 0, "stats of the move");
    ref = reference(e, CALUNA_RGBA8_STRAIGHT);
    CHECK(same_pixels(buf, ref), "after the move the bytes are caluna_render's");
    CHECK(padding_untouched(buf), "the row padding is still not written");
    free(ref);

    move(e, box, 20, 20);
    EXPECT_OK(e, caluna_render_target_draw(e, t, 0, rects, 1, &n));
    CHECK(n == 1 && rect_is(rects[0], 8, 8, 104, 54), "capacity 1: the two boxes merged (%d,%d %dx%d)",
          rects[0].x, rects[0].y, rects[0].width, rects[0].height);
    move(e, box, 100, 50);
    EXPECT_OK(e, caluna_render_target_draw(e, t, 0, NULL, 0, &n));
    CHECK(n == 2, "rects NULL, capacity 0: only the count (%d)", n);
    EXPECT_OK(e, caluna_render_target_draw(e, t, 0, NULL, 0, NULL));
    ref = reference(e, CALUNA_RGBA8_STRAIGHT);
    CHECK(same_pixels(buf, ref), "without rects the buffer is still right");
    free(ref);

    EXPECT_OK(e, caluna_render_target_draw(e, t, 1, rects, CALUNA_MAX_DAMAGE_RECTS, &n));
    CHECK(n == 1 && rect_is(rects[0], 0, 0, W, H) && stats(e).full_redraws == 1, "full = 1 redraws everything");

    void *p = NULL;
    int32_t stride = 0;
    EXPECT_OK(e, caluna_render_target_pixels(e, t, &p, &stride));
    CHECK(p == buf && stride == STRIDE, "the pixels of a host target are the host's buffer");

    /* A host that wrote into its buffer asks for a full draw. */
    memset(buf, 0, W * 4);
    EXPECT_OK(e, caluna_render_target_draw(e, t, 1, NULL, 0, NULL));
    ref = reference(e, CALUNA_RGBA8_STRAIGHT);
    CHECK(same_pixels(buf, ref), "a full draw repairs a buffer the host wrote");
    free(ref);

    EXPECT_OK(e, caluna_render_target_destroy(e, t));
    EXPECT(e, caluna_render_target_destroy(e, t), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_render_target_draw(e, t, 0, NULL, 0, NULL), CALUNA_ERR_STALE_HANDLE);
    caluna_engine_destroy(e);
    free(buf);
}

static void engine_buffer_and_two_targets(void) {
    caluna_layer box = 0;
    caluna_engine *e = scene(&box);
    caluna_render_target a = 0, b = 0;
    EXPECT_OK(e, caluna_render_target_create(e, NULL, 0, W, H, 0, CALUNA_BGRA8_PREMULTIPLIED, &a));
    uint8_t *hb = (uint8_t *)calloc(STRIDE * H, 1);
    EXPECT_OK(e, caluna_render_target_create(e, hb, STRIDE * H, W, H, STRIDE, CALUNA_RGBA8_PREMULTIPLIED, &b));
    void *p = NULL;
    int32_t stride = 0;
    EXPECT_OK(e, caluna_render_target_pixels(e, a, &p, &stride));
    CHECK(p != NULL && stride == W * 4, "the engine's buffer, stride width × 4 (%d)", stride);
    int zero = 1;
    for (int i = 0; i < W * 4 * H; i++) if (((uint8_t *)p)[i] != 0) zero = 0;
    CHECK(zero, "all zero before the first draw");

    int32_t n = 0;
    for (int frame = 0; frame < 6; frame++) {
        move(e, box, 20 + frame * 27.25, 20 + frame * 11.5);
        caluna_render_target t = frame % 3 == 2 ? b : a;
        EXPECT_OK(e, caluna_render_target_draw(e, t, 0, NULL, 0, &n));
        if (t == a) {
            uint8_t *ref = (uint8_t *)calloc(W * 4 * H, 1);
            caluna_render(e, ref, W * 4 * H, W, H, W * 4, CALUNA_BGRA8_PREMULTIPLIED);
            CHECK(memcmp(p, ref, W * 4 * H) == 0, "frame %d: target a has caluna_render's bytes", frame);
            free(ref);
        } else {
            uint8_t *ref = reference(e, CALUNA_RGBA8_PREMULTIPLIED);
            CHECK(same_pixels(hb, ref) && n == 1, "frame %d: target b (drawn after a) is redrawn whole", frame);
            free(ref);
        }
    }
    /* The engine ends its targets: ids stale, buffers freed (valgrind and ASan check). */
    caluna_engine_destroy(e);
    free(hb);
}

static int32_t link_status = -1;
static caluna_render_target link_target = 0;
static void draw_from_callback(caluna_engine *e, caluna_display_link link, double ts, double tts, double d, void *u) {
    (void)link; (void)ts; (void)tts; (void)d; (void)u;
    link_status = caluna_render_target_draw(e, link_target, 0, NULL, 0, NULL);
}

static void errors(void) {
    caluna_layer box = 0;
    caluna_engine *e = scene(&box);
    caluna_render_target t = 0;
    uint8_t small[64];
    EXPECT(e, caluna_render_target_create(e, NULL, 0, W, H, 0, CALUNA_RGBA8_STRAIGHT, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, NULL, 0, W, H, 0, (caluna_pixel_format)7, &t), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(t == 0, "out is 0 after a failure");
    EXPECT(e, caluna_render_target_create(e, NULL, 0, 0, H, 0, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, NULL, 0, -5, H, 0, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, NULL, 0, 20000, 20000, 0, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, NULL, 0, W, H, W * 4 - 1, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, NULL, 0, W, H, -8, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, NULL, 0, W, H, W * 4 + 4097, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, NULL, 0, W, H, INT32_MAX, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, small, sizeof small, W, H, W * 4, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_create(e, small, sizeof small, W, H, 0, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_render_target_create(NULL, NULL, 0, W, H, 0, CALUNA_RGBA8_STRAIGHT, &t), CALUNA_ERR_INVALID_ARGUMENT);

    EXPECT_OK(e, caluna_render_target_create(e, NULL, 0, W, H, 0, CALUNA_RGBA8_STRAIGHT, &t));
    caluna_pixel_rect r[2];
    EXPECT(e, caluna_render_target_draw(e, t, 0, NULL, 2, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_draw(e, t, 0, r, -1, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_draw(e, box, 0, r, 2, NULL), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_render_target_draw(e, 0, 0, r, 2, NULL), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_render_target_pixels(e, t, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_target_destroy(e, box), CALUNA_ERR_STALE_HANDLE);

    /* Another engine's target id is stale here. */
    caluna_layer other_box = 0;
    caluna_engine *other = scene(&other_box);
    caluna_render_target ot = 0;
    EXPECT_OK(other, caluna_render_target_create(other, NULL, 0, W, H, 0, CALUNA_RGBA8_STRAIGHT, &ot));
    EXPECT(e, caluna_render_target_draw(e, ot, 0, NULL, 0, NULL), CALUNA_ERR_STALE_HANDLE);
    caluna_engine_destroy(other);

    /* The engine's size changed: the target no longer fits. */
    EXPECT_OK(e, caluna_engine_set_size(e, 100, 100, 1));
    EXPECT(e, caluna_render_target_draw(e, t, 0, NULL, 0, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(e), "make a target of the new size") != NULL, "the message says what to do");
    EXPECT_OK(e, caluna_engine_set_size(e, W, H, 1));

    /* Not from inside a callback. */
    caluna_display_link link = 0;
    link_target = t;
    EXPECT_OK(e, caluna_display_link_create(e, draw_from_callback, NULL, &link));
    EXPECT_OK(e, caluna_engine_step(e, 1.0 / 60));
    CHECK(link_status == CALUNA_ERR_INVALID_ARGUMENT, "a draw from a display link is refused (%d)", link_status);
    EXPECT_OK(e, caluna_render_target_draw(e, t, 0, NULL, 0, NULL));
    caluna_engine_destroy(e);
}

/* ABI 1.10: render_threads. A 400 × 300 scene of rounded, shadowed cards on 1 thread and on
 * n threads: the same bytes through caluna_render and through a render target (full and
 * after a large move); the stats say how many threads drew. Bad counts are refused, and a
 * 1.9-sized struct leaves the count at its default. */
enum { TW = 400, TH = 300 };
static caluna_engine *cards(int32_t threads, caluna_layer *first) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = TW; o.height = TH; o.render_threads = threads;
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(&o, &e));
    if (!e) return NULL;
    caluna_layer root = 0;
    caluna_root_layer(e, &root);
    lset(e, root, "backgroundColor", caluna_color(0.95, 0.95, 1, 1));
    for (int i = 0; i < 24; i++) {
        caluna_layer l = new_layer(e, 0);
        if (i == 0) *first = l;
        lset(e, l, "bounds", caluna_rect(0, 0, 70, 50));
        lset(e, l, "position", caluna_point(50 + (i % 6) * 62, 40 + (i / 6) * 70 + (i % 3) * 3.5));
        lset(e, l, "backgroundColor", caluna_color(0.1 * (i % 10), 0.5, 1 - 0.04 * i, 1));
        lset(e, l, "cornerRadius", caluna_number(8 + i % 5));
        lset(e, l, "shadowOpacity", caluna_number(0.5));
        lset(e, l, "shadowRadius", caluna_number(4));
        lset(e, l, "opacity", caluna_number(i % 4 == 0 ? 0.6 : 1));
    }
    return e;
}

static void threads(void) {
    uint8_t *one = (uint8_t *)malloc(TW * TH * 4), *many = (uint8_t *)malloc(TW * TH * 4);
    const int32_t counts[] = { 2, 3, 7 };
    for (int k = 0; k < 3; k++) {
        caluna_layer a = 0, b = 0;
        caluna_engine *e1 = cards(1, &a), *en = cards(counts[k], &b);
        if (!e1 || !en) break;
        EXPECT_OK(e1, caluna_render(e1, one, TW * TH * 4, TW, TH, TW * 4, CALUNA_RGBA8_STRAIGHT));
        CHECK(stats(e1).render_threads == 1 && stats(e1).bands_drawn == 1, "1 thread: render_threads %lld",
              (long long)stats(e1).render_threads);
        EXPECT_OK(en, caluna_render(en, many, TW * TH * 4, TW, TH, TW * 4, CALUNA_RGBA8_STRAIGHT));
        CHECK(memcmp(one, many, TW * TH * 4) == 0, "caluna_render on %d threads equals 1 thread", (int)counts[k]);
        CHECK(stats(en).render_threads == counts[k] && stats(en).bands_drawn == counts[k],
              "%d threads: render_threads %lld, bands_drawn %lld", (int)counts[k],
              (long long)stats(en).render_threads, (long long)stats(en).bands_drawn);
        caluna_render_target t1 = 0, tn = 0;
        EXPECT_OK(e1, caluna_render_target_create(e1, NULL, 0, TW, TH, 0, CALUNA_BGRA8_PREMULTIPLIED, &t1));
        EXPECT_OK(en, caluna_render_target_create(en, NULL, 0, TW, TH, 0, CALUNA_BGRA8_PREMULTIPLIED, &tn));
        for (int step = 0; step < 3; step++) {
            if (step > 0) { move(e1, a, 60 + 120 * step, 150); move(en, b, 60 + 120 * step, 150); }
            EXPECT_OK(e1, caluna_render_target_draw(e1, t1, step == 0, NULL, 0, NULL));
            EXPECT_OK(en, caluna_render_target_draw(en, tn, step == 0, NULL, 0, NULL));
            void *p1 = NULL, *pn = NULL;
            int32_t s1 = 0, sn = 0;
            caluna_render_target_pixels(e1, t1, &p1, &s1);
            caluna_render_target_pixels(en, tn, &pn, &sn);
            CHECK(p1 && pn && s1 == sn && memcmp(p1, pn, (size_t)s1 * TH) == 0,
                  "render target on %d threads, step %d: same bytes as 1 thread", (int)counts[k], step);
        }
        caluna_engine_destroy(e1);
        caluna_engine_destroy(en);
    }
    free(one);
    free(many);

    const int32_t bad[] = { -1, 65, 1 << 30 };
    for (int k = 0; k < 3; k++) {
        caluna_engine_options o = caluna_engine_options_default();
        o.render_threads = bad[k];
        caluna_engine *e = (caluna_engine *)&o;
        EXPECT(NULL, caluna_engine_create(&o, &e), CALUNA_ERR_INVALID_ARGUMENT);
        CHECK(e == NULL, "render_threads %d refused, no engine", (int)bad[k]);
    }
    caluna_engine_options o = caluna_engine_options_default();
    o.struct_size = 32;
    o.render_threads = 65;
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(&o, &e));
    if (e) caluna_engine_destroy(e);
}

int main(void) {
    threads();
    host_buffer();
    engine_buffer_and_two_targets();
    errors();
    return finish();
}

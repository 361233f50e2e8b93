/* Chapter 6 through the C ABI: CAGradientLayer (T6.6 pixels with an ARRAY of COLOR),
 * CAReplicatorLayer (T6.8 instance centres), CAScrollLayer and CALayer's scrolling calls,
 * and their error statuses. Spec: shared/spec/book-ch05-06.md §2.7–2.9, T6.6, T6.8, T6.10. */
#include "check.h"
#include "pixels.h"
#include "scene.h"

static caluna_layer make(caluna_engine *e, const char *cls, caluna_layer parent, double x, double y, double w, double h) {
    caluna_layer l = 0, root = 0;
    caluna_value f = caluna_rect(x, y, w, h);
    caluna_root_layer(e, &root);
    if (caluna_layer_create_class(e, cls, &l) != CALUNA_OK) printf("      (create %s: %s)\n", cls, caluna_last_error(e));
    caluna_layer_set(e, l, "frame", &f);
    caluna_layer_add_sublayer(e, parent ? parent : root, l);
    caluna_layer_release(e, l);
    return l;
}

static void gradient(void) {
    caluna_engine *e = new_engine();
    EXPECT_OK(e, caluna_engine_set_size(e, 200, 200, 1));
    caluna_layer g = make(e, "CAGradientLayer", 0, 0, 0, 200, 200);
    caluna_value colors[2] = { caluna_color(1, 0, 0, 1), caluna_color(0, 0, 1, 1) };
    EXPECT_OK(e, lset(e, g, "colors", caluna_array_value(colors, 2)));
    EXPECT_OK(e, lset(e, g, "startPoint", caluna_point(0, 0)));
    EXPECT_OK(e, lset(e, g, "endPoint", caluna_point(1, 1)));
    EXPECT_OK(e, render(e));
    /* T6.6 [R] samples (±2) */
    CHECK(is_rgb(0, 0, 0xFE0001, 2), "T6.6 (0,0) ≈ (254,0,1)");
    CHECK(is_rgb(199, 199, 0x0100FE, 2), "T6.6 (199,199) ≈ (1,0,254)");
    CHECK(is_rgb(100, 100, 0x800080, 2) && is_rgb(199, 0, 0x800080, 2) && is_rgb(0, 199, 0x800080, 2),
          "T6.6 the anti-diagonal ≈ (128,0,128)");
    CHECK(is_rgb(50, 50, 0xBF0040, 2), "T6.6 (50,50) ≈ (191,0,64)");
    CHECK(is_rgb(150, 150, 0x4000BF, 2), "T6.6 (150,150) ≈ (64,0,191)");

    caluna_value v = caluna_nil();
    EXPECT_OK(e, caluna_layer_get(e, g, "colors", &v));
    CHECK(v.type == CALUNA_TYPE_ARRAY && v.u.array.count == 2 && v.u.array.items[1].type == CALUNA_TYPE_COLOR
          && v.u.array.items[1].u.color.b == 1, "colors reads back as an ARRAY of COLOR");
    EXPECT_OK(e, caluna_layer_get(e, g, "type", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "axial") == 0, "type defaults to \"axial\"");

    /* the mismatch rule: 2 locations for 3 colours → only the background */
    caluna_value three[3] = { caluna_color(1, 0, 0, 1), caluna_color(1, 1, 0, 1), caluna_color(0, 1, 0, 1) };
    caluna_value two[2] = { caluna_number(0), caluna_number(0.5) };
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, g, "colors", caluna_array_value(three, 3)));
    EXPECT_OK(e, lset(e, g, "locations", caluna_array_value(two, 2)));
    EXPECT_OK(e, lset(e, g, "backgroundColor", caluna_color(1, 1, 1, 1)));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(100, 100, 0xFFFFFF, 0) && is_rgb(0, 0, 0xFFFFFF, 0), "mismatched locations: a blank gradient");

    /* errors */
    caluna_value bad[2] = { caluna_color(1, 0, 0, 1), caluna_number(3) };
    EXPECT(e, lset(e, g, "colors", caluna_array_value(bad, 2)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, lset(e, g, "colors", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);
    caluna_value nan2[2] = { caluna_number(0), caluna_number(NAN) };
    EXPECT(e, lset(e, g, "locations", caluna_array_value(nan2, 2)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, g, "type", caluna_string("diamond")), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, g, "instanceCount", caluna_number(2)), CALUNA_ERR_UNKNOWN_KEY);
    caluna_engine_destroy(e);
}

static void replicator(void) {
    caluna_engine *e = new_engine();
    EXPECT_OK(e, caluna_engine_set_size(e, 500, 650, 1));
    caluna_layer root = 0;
    caluna_root_layer(e, &root);
    lset(e, root, "backgroundColor", caluna_color(0, 0, 0, 1));
    caluna_layer r = make(e, "CAReplicatorLayer", 0, 100, 0, 300, 300);
    caluna_layer sq = make(e, "CALayer", r, 100, 100, 100, 100);
    lset(e, sq, "backgroundColor", caluna_color(1, 1, 1, 1));
    /* Translate(0, 200) → Rotate(π/5, z) → Translate(0, −200), in code order */
    double t[16];
    caluna_transform3d_make_translation(0, 200, 0, t);
    caluna_transform3d_rotate(t, 3.14159265358979323846 / 5, 0, 0, 1, t);
    caluna_transform3d_translate(t, 0, -200, 0, t);
    EXPECT_OK(e, lset(e, r, "instanceCount", caluna_number(10)));
    EXPECT_OK(e, lset(e, r, "instanceTransform", caluna_transform(t)));
    EXPECT_OK(e, lset(e, r, "instanceBlueOffset", caluna_number(-0.1)));
    EXPECT_OK(e, lset(e, r, "instanceGreenOffset", caluna_number(-0.1)));
    EXPECT_OK(e, render(e));
    /* T6.8 [R] centres (replicator coordinates; + (100, 0) on the canvas) and colours */
    static const double c[10][3] = {
        {150, 150, 255}, {267.6, 188.2, 230}, {340.2, 288.2, 204}, {340.2, 411.8, 178}, {267.6, 511.8, 153},
        {150, 550, 128}, {32.4, 511.8, 102}, {-40.2, 411.8, 76}, {-40.2, 288.2, 51}, {32.4, 188.2, 25},
    };
    for (int k = 0; k < 10; k++) {
        uint32_t gb = (uint32_t)c[k][2];
        CHECK(is_rgb((int)floor(c[k][0] + 100), (int)floor(c[k][1]), 0xFF0000u | gb << 8 | gb, 2),
              "T6.8 instance %d at (%.1f, %.1f) is (255, %u, %u)", k, c[k][0] + 100, c[k][1], gb, gb);
    }
    CHECK(is_rgb(250, 350, 0x000000, 0), "T6.8 the circle's centre is empty");

    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, r, "instanceCount", caluna_number(1)));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(250, 150, 0xFFFFFF, 0) && is_rgb(367, 188, 0x000000, 0), "instanceCount 1: only instance 0");

    EXPECT(e, lset(e, r, "instanceCount", caluna_number(-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, r, "instanceCount", caluna_number(1e12)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, r, "instanceCount", caluna_number(INFINITY)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, lset(e, r, "instanceTransform", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);
    /* preservesDepth with 3D content: the render says NOT_SUPPORTED, and recovers */
    double ry[16];
    caluna_transform3d_make_rotation(0.3, 0, 1, 0, ry);
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));   /* the last render ended the transaction */
    EXPECT_OK(e, lset(e, r, "instanceCount", caluna_number(3)));
    EXPECT_OK(e, lset(e, r, "instanceTransform", caluna_transform(ry)));
    EXPECT_OK(e, lset(e, r, "preservesDepth", caluna_bool(1)));
    caluna_engine_pixel_size(e, &pw, &ph);
    uint8_t *buf = (uint8_t *)calloc((size_t)pw * (size_t)ph, 4);
    EXPECT(e, caluna_render(e, buf, (size_t)pw * (size_t)ph * 4, pw, ph, pw * 4, CALUNA_RGBA8_STRAIGHT),
           CALUNA_ERR_NOT_SUPPORTED);
    free(buf);
    EXPECT_OK(e, lset(e, r, "preservesDepth", caluna_bool(0)));
    EXPECT_OK(e, render(e));
    caluna_engine_destroy(e);
}

/* Replicator bombs: 60 replicators of 2 nested in one another (2^61 − 2 layers to draw) and
 * three of 10,000. caluna_render counts what the replicators would draw before drawing any and
 * refuses past ReplicatorLayerState.maximumReplicatedLayers (1,000,000) with
 * INVALID_ARGUMENT; hiding the outer levels brings the count under it and the engine renders. */
static void replicator_bombs(void) {
    caluna_engine *e = new_engine();
    EXPECT_OK(e, caluna_engine_set_size(e, 64, 64, 1));
    caluna_layer levels[60], parent = 0;
    double step[16];
    caluna_transform3d_make_translation(1, 0, 0, step);
    for (int i = 0; i < 60; i++) {
        parent = levels[i] = make(e, "CAReplicatorLayer", parent, 0, 0, 10, 10);
        lset(e, parent, "instanceCount", caluna_number(2));
        lset(e, parent, "instanceTransform", caluna_transform(step));
    }
    caluna_layer leaf = make(e, "CALayer", parent, 0, 0, 1, 1);
    lset(e, leaf, "backgroundColor", caluna_color(1, 0, 0, 1));
    caluna_engine_pixel_size(e, &pw, &ph);
    uint8_t *buf = (uint8_t *)calloc((size_t)pw * (size_t)ph, 4);
    EXPECT(e, caluna_render(e, buf, (size_t)pw * (size_t)ph * 4, pw, ph, pw * 4, CALUNA_RGBA8_STRAIGHT),
           CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(e), "would draw 2305843009213693950 replicated layers") != NULL,
          "60 nested replicators of 2: %s", caluna_last_error(e));
    /* The inner 10 levels moved to the root, the rest hidden: 2 + 4 + … + 2^10 = 2046 layers, drawn. */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, lset(e, levels[0], "hidden", caluna_bool(1)));   /* counts 0: not drawn */
    caluna_layer root = 0;
    caluna_root_layer(e, &root);
    EXPECT_OK(e, caluna_layer_add_sublayer(e, root, levels[50]));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(0, 0, 0xFF0000, 0) && is_rgb(10, 0, 0xFF0000, 0), "the 10 inner levels draw x 0 … 10");

    caluna_engine *f = new_engine();
    EXPECT_OK(f, caluna_engine_set_size(f, 64, 64, 1));
    parent = 0;
    for (int i = 0; i < 3; i++) {
        parent = make(f, "CAReplicatorLayer", parent, 0, 0, 10, 10);
        EXPECT_OK(f, lset(f, parent, "instanceCount", caluna_number(10000)));
    }
    make(f, "CALayer", parent, 0, 0, 1, 1);
    EXPECT(f, caluna_render(f, buf, (size_t)pw * (size_t)ph * 4, pw, ph, pw * 4, CALUNA_RGBA8_STRAIGHT),
           CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(f), "would draw 1000100010000 replicated layers") != NULL,
          "three nested replicators of 10,000: %s", caluna_last_error(f));
    free(buf);
    caluna_engine_destroy(f);
    caluna_engine_destroy(e);
}

static void scrolling(void) {
    caluna_engine *e = new_engine();
    EXPECT_OK(e, caluna_engine_set_size(e, 100, 100, 1));
    caluna_layer s = make(e, "CAScrollLayer", 0, 0, 0, 100, 100);
    lset(e, s, "masksToBounds", caluna_bool(1));
    caluna_layer content = make(e, "CALayer", s, 0, 0, 300, 300);
    static const uint32_t colours[4] = { 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00 };
    for (int i = 0; i < 4; i++) {
        caluna_layer q = make(e, "CALayer", content, (i % 2) * 150, (i / 2) * 150, 150, 150);
        lset(e, q, "backgroundColor", caluna_color_rgb(colours[i], 1));
    }
    EXPECT_OK(e, render(e));
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_scroll_layer_scroll_to_point(e, s, 100, 100));
    caluna_value b = caluna_nil();
    EXPECT_OK(e, caluna_layer_get(e, s, "bounds", &b));
    CHECK(b.u.rect.x == 100 && b.u.rect.y == 100 && b.u.rect.width == 100, "scrollToPoint sets bounds.origin");
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(10, 10, 0xFF0000, 0) && is_rgb(60, 10, 0x00FF00, 0) && is_rgb(10, 60, 0x0000FF, 0)
          && is_rgb(60, 60, 0xFFFF00, 0), "T6.10 quadrants after scrollToPoint(100, 100)");
    EXPECT_OK(e, caluna_scroll_layer_scroll_to_point(e, s, 1000, 1000));
    EXPECT_OK(e, caluna_layer_get(e, s, "bounds", &b));
    CHECK(b.u.rect.x == 1000, "no clamping");

    int32_t scrolled = -1;
    EXPECT_OK(e, caluna_layer_scroll_point(e, content, 50, 60, &scrolled));
    EXPECT_OK(e, caluna_layer_get(e, s, "bounds", &b));
    CHECK(scrolled == 1 && b.u.rect.x == 50 && b.u.rect.y == 60, "content scrollPoint(50, 60) scrolls the scroll layer");
    EXPECT_OK(e, caluna_scroll_layer_scroll_to_point(e, s, 150, 150));
    double x = 0, y = 0, w = 0, h = 0;
    EXPECT_OK(e, caluna_layer_visible_rect(e, content, &x, &y, &w, &h));
    CHECK(x == 150 && y == 150 && w == 100 && h == 100, "visibleRect (150, 150, 100, 100)");
    EXPECT_OK(e, caluna_layer_scroll_rect_to_visible(e, content, 20, 20, 10, 10, NULL));
    EXPECT_OK(e, caluna_layer_get(e, s, "bounds", &b));
    CHECK(b.u.rect.x == 20 && b.u.rect.y == 20, "scrollRectToVisible: the minimal movement");
    EXPECT_OK(e, caluna_scroll_layer_scroll_to_rect(e, s, 150, 40, 20, 20));
    EXPECT_OK(e, caluna_layer_get(e, s, "bounds", &b));
    CHECK(b.u.rect.x == 70 && b.u.rect.y == 20, "scrollToRect brings the right edge in, y unchanged");
    EXPECT_OK(e, lset(e, s, "scrollMode", caluna_string("vertically")));
    EXPECT_OK(e, caluna_scroll_layer_scroll_to_point(e, s, 40, 70));
    EXPECT_OK(e, caluna_layer_get(e, s, "bounds", &b));
    CHECK(b.u.rect.x == 70 && b.u.rect.y == 70, "scrollMode vertically: only y");

    /* errors */
    caluna_layer root = 0;
    caluna_root_layer(e, &root);
    EXPECT_OK(e, caluna_layer_scroll_point(e, root, 1, 1, &scrolled));
    CHECK(scrolled == 0, "no scroll ancestor: out_scrolled 0, nothing happens");
    EXPECT(e, caluna_scroll_layer_scroll_to_point(e, content, 1, 1), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_scroll_layer_scroll_to_point(e, s, NAN, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_scroll_layer_scroll_to_rect(e, s, 0, 0, INFINITY, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_scroll_layer_scroll_to_point(e, s, 1e300, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_visible_rect(e, content, NULL, &y, &w, &h), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_scroll_point(e, 0, 1, 1, NULL), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_scroll_rect_to_visible(e, 12345, 0, 0, 1, 1, NULL), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, lset(e, s, "scrollMode", caluna_string("diagonally")), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_scroll_layer_scroll_to_point(NULL, s, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_engine_destroy(e);
}

int main(void) {
    gradient();
    replicator();
    replicator_bombs();
    scrolling();
    free(pixels);
    return finish();
}

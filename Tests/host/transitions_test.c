/* Chapter 8's transitions through the C ABI: L8.11 (a fade on contents, its key always
 * "transition"), L8.12 (a fade on a container whose sublayers are swapped, and the negative
 * case on the removed layer) and L8.14 (a custom transition: a snapshot cover that spins,
 * shrinks and fades in an implicit-animation transaction of 1 s). The Lua scene
 * Tests/scenes/ch08_transitions.lua checks the same listings from Lua. */
#include <caluna.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pixels.h"
#include "scene.h"

static caluna_engine *new_engine_200(void) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = 200;
    o.height = 200;
    caluna_engine *e = NULL;
    if (caluna_engine_create(&o, &e) != CALUNA_OK) {
        printf("FAIL: cannot create an engine: %s\n", caluna_last_error(NULL));
        exit(1);
    }
    return e;
}

/* A 4 × 4 opaque image of 0xRRGGBB (owned by the caller). */
static caluna_image solid(caluna_engine *e, uint32_t rgb) {
    uint8_t px4[4 * 4 * 4];
    for (int i = 0; i < 16; i++) {
        px4[i * 4 + 0] = (uint8_t)(rgb >> 16);
        px4[i * 4 + 1] = (uint8_t)(rgb >> 8);
        px4[i * 4 + 2] = (uint8_t)rgb;
        px4[i * 4 + 3] = 255;
    }
    caluna_image img = 0;
    caluna_image_from_pixels(e, 4, 4, 16, CALUNA_RGBA8_STRAIGHT, px4, &img);
    return img;
}

/* A full-size (200 × 200) layer in `parent` (0: the root). */
static caluna_layer full_layer(caluna_engine *e, caluna_layer parent) {
    caluna_layer l = new_layer(e, parent);
    lset(e, l, "frame", caluna_rect(0, 0, 200, 200));
    return l;
}

static int key_is_transition(caluna_engine *e, caluna_layer l) {
    int32_t n = -1;
    const char *key = NULL;
    caluna_layer_animation_key_count(e, l, &n);
    if (n != 1) return 0;
    caluna_layer_animation_key_at(e, l, 0, &key);
    return key && strcmp(key, "transition") == 0;
}

static void listing_8_11(void) {
    caluna_engine *e = new_engine_200();
    caluna_image red = solid(e, 0xff0000), blue = solid(e, 0x0000ff);
    caluna_layer v = full_layer(e, 0);
    caluna_value c = caluna_image_value(red);
    EXPECT_OK(e, caluna_layer_set(e, v, "contents", &c));
    EXPECT_OK(e, caluna_engine_step(e, 0));

    caluna_animation fade = anim_new(e, "Transition");
    caluna_value type = caluna_nil();
    caluna_animation_get(e, fade, "type", &type);
    CHECK(type.type == CALUNA_TYPE_STRING && strcmp(type.u.string, "fade") == 0, "L8.11 the default type is fade");
    EXPECT_OK(e, caluna_layer_add_animation(e, v, fade, "anything"));
    CHECK(key_is_transition(e, v), "L8.11 a transition's key is always \"transition\" (R-X2)");
    caluna_animation_release(e, fade);
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    c = caluna_image_value(blue);
    EXPECT_OK(e, caluna_layer_set(e, v, "contents", &c));
    EXPECT_OK(e, caluna_transaction_commit(e));
    EXPECT_OK(e, caluna_engine_advance(e, 0.125));
    render(e);
    CHECK(is_rgb(100, 100, 0x800080, 2), "L8.11 half way the images are mixed equally");
    EXPECT_OK(e, caluna_engine_advance(e, 0.25));
    render(e);
    CHECK(is_rgb(100, 100, 0x0000ff, 0), "L8.11 at 0.25 s the new image");

    /* Implicit (R-X4): a standalone layer's contents change fades by itself. */
    c = caluna_image_value(red);
    EXPECT_OK(e, caluna_layer_set(e, v, "contents", &c));
    CHECK(key_is_transition(e, v), "L8.11 implicit: the contents action is a transition");
    EXPECT_OK(e, caluna_engine_advance(e, 0.375));
    render(e);
    CHECK(is_rgb(100, 100, 0x800080, 2), "L8.11 implicit: half way");
    caluna_image_release(e, red);
    caluna_image_release(e, blue);
    caluna_engine_destroy(e);
}

static void listing_8_12(void) {
    caluna_engine *e = new_engine_200();
    caluna_layer box = full_layer(e, 0), a = full_layer(e, box);
    lset(e, a, "backgroundColor", caluna_color(1, 0, 0, 1));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    caluna_layer b = 0;
    caluna_layer_create(e, &b);
    lset(e, b, "frame", caluna_rect(0, 0, 200, 200));
    lset(e, b, "backgroundColor", caluna_color(0, 0, 1, 1));
    caluna_animation fade = anim_new(e, "Transition");
    EXPECT_OK(e, caluna_layer_add_animation(e, box, fade, NULL));
    CHECK(key_is_transition(e, box), "L8.12 added with no key, kept under \"transition\"");
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, a));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, box, b));
    EXPECT_OK(e, caluna_engine_advance(e, 0.125));
    render(e);
    CHECK(is_rgb(100, 100, 0x800080, 2), "L8.12 the tabs cross-fade on the container");
    EXPECT_OK(e, caluna_engine_advance(e, 0.25));
    render(e);
    CHECK(is_rgb(100, 100, 0x0000ff, 0), "L8.12 then the new tab");

    /* Negative (R-X5): on the layer that is removed, the transition goes with it. */
    caluna_layer c2 = 0;
    caluna_layer_create(e, &c2);
    lset(e, c2, "frame", caluna_rect(0, 0, 200, 200));
    lset(e, c2, "backgroundColor", caluna_color(0, 1, 0, 1));
    EXPECT_OK(e, caluna_layer_add_animation(e, b, fade, "transition"));
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, b));
    int32_t n = -1;
    caluna_layer_animation_key_count(e, b, &n);
    CHECK(n == 0, "L8.12 removing the layer removed its transition (%d keys)", n);
    EXPECT_OK(e, caluna_layer_add_sublayer(e, box, c2));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    render(e);
    CHECK(is_rgb(100, 100, 0x00ff00, 0), "L8.12 negative: the new tab at once");
    caluna_animation_release(e, fade);
    caluna_layer_release(e, b);
    caluna_layer_release(e, c2);
    caluna_engine_destroy(e);
}

static int completions = 0;
static caluna_layer cover_for_completion = 0;

static void cover_done(caluna_engine *e, void *user) {
    (void)user;
    completions++;
    caluna_layer_remove_from_superlayer(e, cover_for_completion);
}

static void listing_8_14(void) {
    caluna_engine *e = new_engine_200();
    caluna_layer view = full_layer(e, 0);
    lset(e, view, "backgroundColor", caluna_color(1, 0, 0, 1));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    caluna_image snap = 0;
    EXPECT_OK(e, caluna_layer_snapshot(e, view, 1, &snap));
    caluna_layer cover = 0;
    caluna_layer_create(e, &cover);
    lset(e, cover, "frame", caluna_rect(0, 0, 200, 200));
    lset(e, cover, "contents", caluna_image_value(snap));
    caluna_image_release(e, snap);
    /* The cover goes on and the view changes together, without animation; the cover is
     * committed before it animates (D19). */
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, view, cover));
    lset(e, view, "backgroundColor", caluna_color(0, 0, 1, 1));
    EXPECT_OK(e, caluna_transaction_commit(e));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    render(e);
    CHECK(is_rgb(100, 100, 0xff0000, 0) && is_rgb(5, 5, 0xff0000, 0), "L8.14 the cover shows the old look");

    /* UIView animateWithDuration:1.0 — easeInEaseOut, completion removes the cover. */
    cover_for_completion = cover;
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_animation_duration(e, 1.0));
    EXPECT_OK(e, caluna_transaction_set_animation_timing_function_named(e, "easeInEaseOut"));
    EXPECT_OK(e, caluna_transaction_set_completion(e, cover_done, NULL, NULL));
    double m[16] = { 0 };
    /* scale 0.01 then rotate 90°: rows (0, 0.01), (−0.01, 0) */
    m[1] = 0.01; m[4] = -0.01; m[10] = 1; m[15] = 1;
    EXPECT_OK(e, lset(e, cover, "transform", caluna_transform(m)));
    EXPECT_OK(e, lset(e, cover, "opacity", caluna_number(0)));
    EXPECT_OK(e, caluna_transaction_commit(e));
    EXPECT_OK(e, caluna_engine_advance(e, 0.5));
    CHECK(near(pnum(e, cover, "opacity"), 0.5, 1e-9), "L8.14 opacity 0.5 at t = 0.5");
    CHECK(near(pnum(e, cover, "transform.scale.x"), 0.505, 1e-9), "L8.14 scale 0.505 at t = 0.5");
    CHECK(near(pnum(e, cover, "transform.rotation.z"), 0.78539816339744831, 1e-9), "L8.14 rotation π/4 at t = 0.5");
    render(e);
    CHECK(is_rgb(5, 5, 0x0000ff, 0), "L8.14 the new colour shows around the cover");
    CHECK(is_rgb(100, 100, 0x800080, 2), "L8.14 half the red snapshot over blue");
    EXPECT_OK(e, caluna_engine_advance(e, 1.0));
    CHECK(completions == 1, "L8.14 the completion ran once (%d)", completions);
    int32_t subs = -1;
    caluna_layer_sublayer_count(e, view, &subs);
    CHECK(subs == 0, "L8.14 the cover was removed (%d sublayers)", subs);
    render(e);
    CHECK(is_rgb(100, 100, 0x0000ff, 0) && is_rgb(195, 195, 0x0000ff, 0), "L8.14 all blue at the end");
    caluna_layer_release(e, cover);
    caluna_engine_destroy(e);
}

int main(void) {
    listing_8_11();
    listing_8_12();
    listing_8_14();
    free(pixels);
    return finish();
}

/* transform3d_test.c — 3D layers through the C ABI alone (ABI 1.5): the book's cube of
 * listing 5.9 seen through the rotated camera (T5.9b), the two transform-layer cubes of
 * listing 6.5 (T6.5), layer classes, the sublayerTransform and doubleSided properties,
 * hit testing in 3D (T5.9c), and hostile calls (NULL and unknown class names, stale and
 * foreign ids, NaN matrices, wrong types): always a status, never a crash, and the engine
 * keeps rendering. Matrices are built with caluna_transform3d_* only.
 * Spec: shared/spec/book-ch05-06.md §1.5–1.11, §2.6, §3 T5.9, T6.5; Appendix A numbers.
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

static const double PI = 3.14159265358979323846;

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                  */

static caluna_layer root_of(caluna_engine *e) {
    caluna_layer r = 0;
    caluna_root_layer(e, &r);
    return r;
}

/* A layer of `cls` (NULL: CALayer) added to `parent`; the tree holds it. */
static caluna_layer add(caluna_engine *e, caluna_layer parent, const char *cls) {
    caluna_layer l = 0;
    caluna_status s = cls ? caluna_layer_create_class(e, cls, &l) : caluna_layer_create(e, &l);
    if (s != CALUNA_OK) printf("      (create %s: %s: %s)\n", cls ? cls : "CALayer", caluna_status_name(s), caluna_last_error(e));
    s = caluna_layer_add_sublayer(e, parent, l);
    if (s != CALUNA_OK) printf("      (add: %s: %s)\n", caluna_status_name(s), caluna_last_error(e));
    caluna_layer_release(e, l);
    return l;
}

static void set_or_say(caluna_engine *e, caluna_layer l, const char *key, caluna_value v) {
    caluna_status s = caluna_layer_set(e, l, key, &v);
    if (s != CALUNA_OK) printf("      (set %s: %s: %s)\n", key, caluna_status_name(s), caluna_last_error(e));
}

static caluna_value rgb(uint32_t c) { return caluna_color_rgb(c, 1); }


#define PIXEL(x, y, c, what) CHECK(is_rgb((x), (y), (c), 3), "%s: pixel (%d, %d) is %06x (got %d %d %d %d)", (what), \
                                   (x), (y), (unsigned)(c), px((x), (y))[0], px((x), (y))[1], px((x), (y))[2], \
                                   px((x), (y))[3])

/* How many pixels lie within 40 (every channel) of one of `n` colours. */
static int count_colours(const uint32_t *colours, int n, int *fx, int *fy) {
    int count = 0;
    *fx = *fy = -1;
    for (int y = 0; y < ph; y++) {
        for (int x = 0; x < pw; x++) {
            for (int i = 0; i < n; i++) {
                if (is_rgb(x, y, colours[i], 40)) {
                    if (count == 0) { *fx = x; *fy = y; }
                    count++;
                    break;
                }
            }
        }
    }
    return count;
}

#define NO_COLOURS(colours, n, what) do { \
        int fx_, fy_; \
        int c_ = count_colours((colours), (n), &fx_, &fy_); \
        CHECK(c_ == 0, "%s: no pixel has a back-face colour (%d do, first at (%d, %d))", (what), c_, fx_, fy_); \
    } while (0)

/* m34 = -1/500 on the identity: the book's perspective P. */
static void perspective(double m[16]) {
    caluna_transform3d_identity(m);
    m[11] = -1.0 / 500.0;
}

/* The face transforms of listing 5.9 for a cube of half-size h (book order R·T). */
static void face_transform(int face, double h, double m[16]) {
    switch (face) {
    case 1: caluna_transform3d_make_translation(0, 0, h, m); break;
    case 2: caluna_transform3d_make_translation(h, 0, 0, m); caluna_transform3d_rotate(m, PI / 2, 0, 1, 0, m); break;
    case 3: caluna_transform3d_make_translation(0, -h, 0, m); caluna_transform3d_rotate(m, PI / 2, 1, 0, 0, m); break;
    case 4: caluna_transform3d_make_translation(0, h, 0, m); caluna_transform3d_rotate(m, -PI / 2, 1, 0, 0, m); break;
    case 5: caluna_transform3d_make_translation(-h, 0, 0, m); caluna_transform3d_rotate(m, -PI / 2, 0, 1, 0, m); break;
    default: caluna_transform3d_make_translation(0, 0, -h, m); caluna_transform3d_rotate(m, PI, 0, 1, 0, m); break;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* T5.9b: the cube through the camera                                                       */

static const uint32_t FACE[6] = { 0xff0000, 0x00ff00, 0x0000ff, 0xffff00, 0xff00ff, 0x00ffff };

typedef struct cube_scene {
    caluna_engine *e;
    caluna_layer container;
    caluna_layer face[7]; /* 1…6 */
} cube_scene;

static cube_scene make_cube(int double_sided) {
    cube_scene c;
    c.e = new_engine_sized(400, 400, 1);
    caluna_engine *e = c.e;
    set_or_say(e, root_of(e), "backgroundColor", rgb(0x000000));
    c.container = add(e, root_of(e), NULL);
    set_or_say(e, c.container, "frame", caluna_rect(0, 0, 400, 400));
    set_or_say(e, c.container, "backgroundColor", rgb(0x000000));
    double p[16];
    perspective(p);
    EXPECT_OK(NULL, caluna_transform3d_rotate(p, -PI / 4, 1, 0, 0, p));
    EXPECT_OK(NULL, caluna_transform3d_rotate(p, -PI / 4, 0, 1, 0, p));
    caluna_value nil = caluna_nil();
    EXPECT(e, caluna_layer_set(e, c.container, "sublayerTransform", &nil), CALUNA_ERR_TYPE_MISMATCH);
    set_or_say(e, c.container, "sublayerTransform", caluna_transform(p));
    for (int i = 1; i <= 6; i++) {
        double m[16];
        face_transform(i, 100, m);
        c.face[i] = add(e, c.container, NULL);
        set_or_say(e, c.face[i], "bounds", caluna_rect(0, 0, 200, 200));
        set_or_say(e, c.face[i], "position", caluna_point(200, 200));
        set_or_say(e, c.face[i], "backgroundColor", rgb(FACE[i - 1]));
        set_or_say(e, c.face[i], "transform", caluna_transform(m));
        if (double_sided >= 0) set_or_say(e, c.face[i], "doubleSided", caluna_bool(double_sided));
    }
    return c;
}

static void test_cube_camera(int double_sided) {
    const char *tag = double_sided ? "T5.9b doubleSided=1" : "T5.9b doubleSided=0";
    printf("--- %s\n", tag);
    cube_scene c = make_cube(double_sided);
    caluna_engine *e = c.e;

    /* The properties read back. */
    caluna_value v;
    EXPECT_OK(e, caluna_layer_get(e, c.container, "sublayerTransform", &v));
    CHECK(v.type == CALUNA_TYPE_TRANSFORM, "%s: sublayerTransform is a TRANSFORM", tag);
    double p[16];
    perspective(p);
    caluna_transform3d_rotate(p, -PI / 4, 1, 0, 0, p);
    caluna_transform3d_rotate(p, -PI / 4, 0, 1, 0, p);
    int32_t same = 0;
    EXPECT_OK(NULL, caluna_transform3d_equal(v.u.transform, p, &same));
    CHECK(same == 1, "%s: sublayerTransform round-trips exactly", tag);
    EXPECT_OK(e, caluna_layer_get(e, c.face[3], "doubleSided", &v));
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == double_sided, "%s: doubleSided reads %d", tag, double_sided);

    /* The face quads [R] through caluna_layer_convert_point. */
    static const double quads[4][8] = {
        { 0 },
        { 35.28, 117.64, 200, 244.47, 200, 381.33, 76.10, 261.95 },
        { 200, 244.47, 364.72, 117.64, 323.90, 261.95, 200, 381.33 },
        { 200, 38.74, 364.72, 117.64, 200, 244.47, 35.28, 117.64 },
    };
    static const double corner[4][2] = { { 0, 0 }, { 200, 0 }, { 200, 200 }, { 0, 200 } };
    for (int f = 1; f <= 3; f++) {
        for (int k = 0; k < 4; k++) {
            double x = NAN, y = NAN;
            caluna_status s = caluna_layer_convert_point(e, c.face[f], 0, corner[k][0], corner[k][1], &x, &y);
            CHECK(s == CALUNA_OK && near(x, quads[f][2 * k], 0.02) && near(y, quads[f][2 * k + 1], 0.02),
                  "%s: face %d corner %d at (%.2f, %.2f), got (%.2f, %.2f)", tag, f, k, quads[f][2 * k],
                  quads[f][2 * k + 1], x, y);
        }
    }

    EXPECT_OK(e, render(e));
    PIXEL(200, 130, FACE[2], "face 3 (top)");
    PIXEL(128, 251, FACE[0], "face 1 (front)");
    PIXEL(272, 251, FACE[1], "face 2 (right)");
    PIXEL(200, 200, FACE[2], "face 3 over face 4's far corner");
    PIXEL(20, 20, 0x000000, "background");
    PIXEL(200, 30, 0x000000, "above the cube");
    NO_COLOURS(&FACE[3], 3, tag);

    /* T5.9c: hit testing follows the array, not depth; culling does not matter. */
    caluna_layer hit = 0;
    EXPECT_OK(e, caluna_layer_hit_test(e, root_of(e), 250, 130, &hit));
    CHECK(hit == c.face[6], "%s: hit (250, 130) is face 6", tag);
    EXPECT_OK(e, caluna_layer_hit_test(e, root_of(e), 150, 130, &hit));
    CHECK(hit == c.face[5], "%s: hit (150, 130) is face 5", tag);
    EXPECT_OK(e, caluna_layer_hit_test(e, root_of(e), 128, 251, &hit));
    CHECK(hit == c.face[4], "%s: hit (128, 251) is face 4", tag);
    EXPECT_OK(e, caluna_layer_hit_test(e, root_of(e), 272, 251, &hit));
    CHECK(hit == c.face[4], "%s: hit (272, 251) is face 4", tag);
    EXPECT_OK(e, caluna_layer_hit_test(e, root_of(e), 20, 20, &hit));
    CHECK(hit == c.container, "%s: hit (20, 20) is the container", tag);
    /* Face 3 on top of the array. */
    EXPECT_OK(e, caluna_layer_add_sublayer(e, c.container, c.face[3]));
    EXPECT_OK(e, caluna_layer_hit_test(e, root_of(e), 250, 130, &hit));
    CHECK(hit == c.face[3], "%s: after reordering, hit (250, 130) is face 3", tag);
    /* A hidden face is never hit. */
    v = caluna_bool(1);
    EXPECT_OK(e, caluna_layer_set(e, c.face[4], "hidden", &v));
    EXPECT_OK(e, caluna_layer_hit_test(e, root_of(e), 128, 251, &hit));
    CHECK(hit == c.face[1], "%s: face 4 hidden: hit (128, 251) is face 1", tag);

    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

/* ---------------------------------------------------------------------------------------- */
/* T6.5: two transform-layer cubes                                                          */

/* Visible faces R, G (cube1) and B, Y, M (cube2); the hidden ones have g >= r + 100 and
 * b >= 100, which no blend of the visible colours and black reaches (see
 * ch06_transform_layer.lua). */
static const uint32_t CUBE1[6] = { 0xff0000, 0x00ff00, 0x00ffff, 0x0080ff, 0x40ffa0, 0x00c0c0 };
static const uint32_t CUBE2[6] = { 0x0000ff, 0xffff00, 0xff00ff, 0x64ffff, 0x00a080, 0x32dcff };

static caluna_layer cube_with_transform(caluna_engine *e, caluna_layer parent, const double t[16],
                                        const uint32_t colours[6], const char *cls, int double_sided,
                                        caluna_layer faces[6]) {
    caluna_layer cube = add(e, parent, cls);
    set_or_say(e, cube, "position", caluna_point(200, 200));
    for (int i = 1; i <= 6; i++) {
        double m[16];
        face_transform(i, 50, m);
        caluna_layer f = add(e, cube, NULL);
        set_or_say(e, f, "frame", caluna_rect(-50, -50, 100, 100));
        set_or_say(e, f, "backgroundColor", rgb(colours[i - 1]));
        set_or_say(e, f, "transform", caluna_transform(m));
        set_or_say(e, f, "doubleSided", caluna_bool(double_sided));
        if (faces) faces[i - 1] = f;
    }
    set_or_say(e, cube, "transform", caluna_transform(t));
    return cube;
}

static caluna_engine *two_cubes(const char *cls, int double_sided, caluna_layer *c1, caluna_layer *c2) {
    caluna_engine *e = new_engine_sized(400, 400, 1);
    set_or_say(e, root_of(e), "backgroundColor", rgb(0x000000));
    caluna_layer container = add(e, root_of(e), NULL);
    set_or_say(e, container, "frame", caluna_rect(0, 0, 400, 400));
    double p[16], t1[16], t2[16];
    perspective(p);
    set_or_say(e, container, "sublayerTransform", caluna_transform(p));
    caluna_transform3d_make_translation(-100, 0, 0, t1);
    caluna_transform3d_make_translation(100, 0, 0, t2);
    caluna_transform3d_rotate(t2, -PI / 4, 1, 0, 0, t2);
    caluna_transform3d_rotate(t2, -PI / 4, 0, 1, 0, t2);
    *c1 = cube_with_transform(e, container, t1, CUBE1, cls, double_sided, NULL);
    *c2 = cube_with_transform(e, container, t2, CUBE2, cls, double_sided, NULL);
    return e;
}

static void test_transform_layer_cubes(int double_sided) {
    const char *tag = double_sided ? "T6.5 doubleSided=1" : "T6.5 doubleSided=0";
    printf("--- %s\n", tag);
    caluna_layer c1 = 0, c2 = 0;
    caluna_engine *e = two_cubes("CATransformLayer", double_sided, &c1, &c2);
    const char *name = NULL;
    EXPECT_OK(e, caluna_layer_class_name(e, c1, &name));
    CHECK(name != NULL && strcmp(name, "CATransformLayer") == 0, "%s: class name %s", tag, name ? name : "(null)");
    caluna_value v;
    EXPECT_OK(e, caluna_layer_get(e, c2, "bounds", &v));
    CHECK(v.type == CALUNA_TYPE_RECT && v.u.rect.width == 0 && v.u.rect.height == 0, "%s: default bounds are zero", tag);

    EXPECT_OK(e, render(e));
    PIXEL(90, 200, CUBE1[0], "cube1 face 1");
    PIXEL(149, 200, CUBE1[1], "cube1 face 2 (sliver)");
    PIXEL(146, 151, CUBE1[1], "top of the sliver (face 2 in front of face 3's inside)");
    PIXEL(270, 225, CUBE2[0], "cube2 face 1");
    PIXEL(342, 225, CUBE2[1], "cube2 face 2");
    PIXEL(308, 165, CUBE2[2], "cube2 face 3");
    PIXEL(200, 200, 0x000000, "between the cubes");
    const uint32_t hidden[7] = { CUBE1[2], CUBE1[3], CUBE1[4], CUBE1[5], CUBE2[3], CUBE2[4], CUBE2[5] };
    NO_COLOURS(hidden, 7, tag);

    /* Hit testing passes through the transform layers to the faces. */
    caluna_layer hit = 0;
    EXPECT_OK(e, caluna_layer_hit_test(e, root_of(e), 90, 200, &hit));
    CHECK(hit != 0 && hit != c1, "%s: (90, 200) hits a face of cube1, not the transform layer", tag);
    if (hit) {
        caluna_layer parent = 0;
        EXPECT_OK(e, caluna_layer_superlayer(e, hit, &parent));
        CHECK(parent == c1, "%s: the hit face belongs to cube1", tag);
    }
    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

static void test_flattening_control(void) {
    printf("--- T6.5 control: plain layers flatten\n");
    caluna_layer c1 = 0, c2 = 0;
    caluna_engine *e = two_cubes(NULL, 1, &c1, &c2);
    const char *name = NULL;
    EXPECT_OK(e, caluna_layer_class_name(e, c1, &name));
    CHECK(name != NULL && strcmp(name, "CALayer") == 0, "control: class name %s", name ? name : "(null)");
    EXPECT_OK(e, render(e));
    PIXEL(100, 200, CUBE1[0], "cube1 card");
    PIXEL(149, 200, CUBE1[0], "cube1 card reaches 150");
    PIXEL(152, 200, 0x000000, "no face-2 sliver");
    PIXEL(46, 200, 0x000000, "no perspective enlargement");
    PIXEL(305, 200, CUBE2[0], "cube2 card");
    PIXEL(365, 200, 0x000000, "no cube2 face 2");
    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

/* ---------------------------------------------------------------------------------------- */
/* Classes and hostile calls                                                                */

static void test_classes_and_hostile_calls(void) {
    printf("--- classes and hostile calls\n");
    caluna_engine *e = new_engine_sized(100, 100, 1);
    caluna_layer l = 0, tl = 0;
    const char *name = NULL;

    EXPECT_OK(e, caluna_layer_create_class(e, "CALayer", &l));
    EXPECT_OK(e, caluna_layer_class_name(e, l, &name));
    CHECK(name != NULL && strcmp(name, "CALayer") == 0, "CALayer class name (%s)", name ? name : "(null)");
    EXPECT_OK(e, caluna_layer_create_class(e, "CATransformLayer", &tl));
    EXPECT_OK(e, caluna_layer_class_name(e, tl, &name));
    CHECK(name != NULL && strcmp(name, "CATransformLayer") == 0, "CATransformLayer class name (%s)", name ? name : "(null)");
    caluna_layer r = root_of(e);
    EXPECT_OK(e, caluna_layer_class_name(e, r, &name));
    CHECK(name != NULL && strcmp(name, "CALayer") == 0, "the root is a CALayer (%s)", name ? name : "(null)");

    /* Bad class names and outputs. */
    caluna_layer out = 123;
    EXPECT(e, caluna_layer_create_class(e, NULL, &out), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(out == 0, "out is zeroed on failure");
    EXPECT(e, caluna_layer_create_class(e, "CATransformLayer", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    out = 123;
    EXPECT(e, caluna_layer_create_class(e, "NoSuchLayer", &out), CALUNA_ERR_NOT_SUPPORTED);
    CHECK(out == 0, "out is zeroed for an unsupported class");
    EXPECT(e, caluna_layer_create_class(e, "", &out), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT(e, caluna_layer_create_class(e, "catransformlayer", &out), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT(e, caluna_layer_create_class(e, "\xff\xfe", &out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_layer_create_class(NULL, "CALayer", &out), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_class_name(e, l, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_class_name(e, 0, &name), CALUNA_ERR_STALE_HANDLE);
    CHECK(name == NULL, "name is NULL on failure");

    /* sublayerTransform and doubleSided: types, NaN, defaults. */
    caluna_value v;
    EXPECT_OK(e, caluna_layer_get(e, l, "sublayerTransform", &v));
    int32_t yes = 0;
    caluna_transform3d_is_identity(v.u.transform, &yes);
    CHECK(v.type == CALUNA_TYPE_TRANSFORM && yes == 1, "sublayerTransform defaults to identity");
    EXPECT_OK(e, caluna_layer_get(e, l, "doubleSided", &v));
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == 1, "doubleSided defaults to true");
    double bad[16];
    caluna_transform3d_identity(bad);
    bad[11] = NAN;
    v = caluna_transform(bad);
    EXPECT(e, caluna_layer_set(e, l, "sublayerTransform", &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set(e, l, "transform", &v), CALUNA_ERR_INVALID_ARGUMENT);
    bad[11] = INFINITY;
    v = caluna_transform(bad);
    EXPECT(e, caluna_layer_set(e, tl, "sublayerTransform", &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_layer_get(e, l, "sublayerTransform", &v));
    caluna_transform3d_is_identity(v.u.transform, &yes);
    CHECK(yes == 1, "a refused NaN matrix is not stored");
    v = caluna_number(1);
    EXPECT(e, caluna_layer_set(e, l, "sublayerTransform", &v), CALUNA_ERR_TYPE_MISMATCH);
    v = caluna_point(1, 2);
    EXPECT(e, caluna_layer_set(e, l, "doubleSided", &v), CALUNA_ERR_TYPE_MISMATCH);
    v = caluna_bool(0);
    EXPECT_OK(e, caluna_layer_set(e, tl, "doubleSided", &v));
    EXPECT(e, caluna_layer_set(e, l, "sublayerTransform", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    v = caluna_number(NAN);
    EXPECT(e, caluna_layer_set(e, l, "zPosition", &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set(e, l, "anchorPointZ", &v), CALUNA_ERR_INVALID_ARGUMENT);
    /* Singular and degenerate matrices are accepted and render (nothing for them). */
    double zero[16] = { 0 };
    v = caluna_transform(zero);
    EXPECT_OK(e, caluna_layer_set(e, l, "transform", &v));
    double w0[16];
    caluna_transform3d_identity(w0);
    w0[15] = 0;
    v = caluna_transform(w0);
    EXPECT_OK(e, caluna_layer_set(e, tl, "sublayerTransform", &v));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, r, l));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, r, tl));
    EXPECT_OK(e, render(e));

    /* Stale ids: a released layer nothing holds, id 0, a layer of another engine. */
    caluna_layer gone = 0;
    EXPECT_OK(e, caluna_layer_create_class(e, "CATransformLayer", &gone));
    EXPECT_OK(e, caluna_layer_release(e, gone));
    EXPECT(e, caluna_layer_class_name(e, gone, &name), CALUNA_ERR_STALE_HANDLE);
    double id[16];
    caluna_transform3d_identity(id);
    v = caluna_transform(id);
    EXPECT(e, caluna_layer_set(e, gone, "sublayerTransform", &v), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_add_sublayer(e, r, gone), CALUNA_ERR_STALE_HANDLE);
    caluna_engine *other = new_engine_sized(10, 10, 1);
    caluna_layer foreign = 0;
    EXPECT_OK(other, caluna_layer_create_class(other, "CATransformLayer", &foreign));
    EXPECT(e, caluna_layer_class_name(e, foreign, &name), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_add_sublayer(e, r, foreign), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(other, caluna_layer_release(other, foreign));
    EXPECT_OK(NULL, caluna_engine_destroy(other));

    /* A destroyed engine. */
    caluna_engine *dead = new_engine_sized(10, 10, 1);
    EXPECT_OK(NULL, caluna_engine_destroy(dead));
    EXPECT(dead, caluna_layer_create_class(dead, "CATransformLayer", &out), CALUNA_ERR_STALE_HANDLE);
    EXPECT(dead, caluna_layer_class_name(dead, l, &name), CALUNA_ERR_STALE_HANDLE);

    /* The engine is still usable: a normal perspective scene renders correctly (changed
     * without actions: the root was committed by the renders above). */
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, l));
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, tl));
    EXPECT_OK(e, caluna_layer_release(e, l));
    EXPECT_OK(e, caluna_layer_release(e, tl));
    set_or_say(e, r, "backgroundColor", rgb(0xffffff));
    caluna_layer sq = add(e, r, NULL);
    set_or_say(e, sq, "bounds", caluna_rect(0, 0, 50, 50));
    set_or_say(e, sq, "position", caluna_point(50, 50));
    set_or_say(e, sq, "backgroundColor", rgb(0xff0000));
    double m[16];
    perspective(m);
    caluna_transform3d_rotate(m, PI / 4, 0, 1, 0, m);
    set_or_say(e, sq, "transform", caluna_transform(m));
    EXPECT_OK(e, caluna_transaction_commit(e));
    EXPECT_OK(e, render(e));
    PIXEL(50, 50, 0xff0000, "after the hostile calls");
    PIXEL(5, 5, 0xffffff, "after the hostile calls");
    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

int main(void) {
    test_cube_camera(1);
    test_cube_camera(0);
    test_transform_layer_cubes(1);
    test_transform_layer_cubes(0);
    test_flattening_control();
    test_classes_and_hostile_calls();
    free(pixels);
    return finish();
}

/* anim_test.c — the C ABI of issue #3 (time and motion): animations and their properties,
 * keyframes, groups, delegates called from inside caluna_engine_step (and what they may
 * call back), the layer's animation API, presentation values, layer time, display links,
 * timers, timing functions and easing, and their error paths.
 *
 * Each check prints one line; the last line is "N passed, N failed" and the exit status is
 * 1 on any failure. */
#include <caluna.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "scene.h"

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                  */

/* A BasicAnimation of `key_path` from → to over `duration` seconds. */
static caluna_animation basic(caluna_engine *e, const char *key_path, double from, double to, double duration) {
    caluna_animation a = anim_new(e, "BasicAnimation");
    aset(e, a, "keyPath", caluna_string(key_path));
    aset(e, a, "fromValue", caluna_number(from));
    aset(e, a, "toValue", caluna_number(to));
    aset(e, a, "duration", caluna_number(duration));
    return a;
}

/* ---------------------------------------------------------------------------------------- */

static void test_version(void) {
    CHECK(caluna_abi_version() == CALUNA_ABI_VERSION, "abi major %d (header %d)", caluna_abi_version(), CALUNA_ABI_VERSION);
    CHECK(caluna_abi_minor_version() == CALUNA_ABI_MINOR_VERSION && CALUNA_ABI_MINOR_VERSION >= 1,
          "abi minor %d (header %d)", caluna_abi_minor_version(), CALUNA_ABI_MINOR_VERSION);
}

/* A position.x 0 → 100 1 s animation added at t = 0, committed by step(0). */
static void test_basic(void) {
    caluna_engine *e = new_engine();
    caluna_layer l = new_layer(e, 0), p = 1;
    caluna_animation a = basic(e, "position.x", 0, 100, 1);
    caluna_value v;
    int32_t n = -1;

    EXPECT_OK(e, lset(e, l, "position.x", caluna_number(7)));
    EXPECT(e, caluna_layer_get_presentation(e, l, "position.x", &v), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(v.type == CALUNA_TYPE_NIL, "a failed presentation read leaves NIL");
    EXPECT_OK(e, caluna_layer_presentation(e, l, &p));
    CHECK(p == 0, "no presentation layer before the first commit (got %llx)", (unsigned long long)p);

    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, "move"));
    EXPECT_OK(e, caluna_animation_release(e, a)); /* the layer holds its own copy */
    EXPECT_OK(e, caluna_engine_step(e, 0));
    CHECK(near(pnum(e, l, "position.x"), 0, 1e-9), "t=0: presentation x = %g (expected 0)", pnum(e, l, "position.x"));
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(near(pnum(e, l, "position.x"), 50, 1e-9), "t=0.5: presentation x = %g (expected 50)", pnum(e, l, "position.x"));
    v = pget(e, l, "position");
    CHECK(v.type == CALUNA_TYPE_POINT && near(v.u.point.x, 50, 1e-9) && near(v.u.point.y, 0, 1e-9),
          "t=0.5: presentation position = (%g, %g)", v.u.point.x, v.u.point.y);
    caluna_layer_get(e, l, "position.x", &v);
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 7, "the model value stays 7 (%g)", v.u.number);

    /* the presentation layer and its model */
    EXPECT_OK(e, caluna_layer_presentation(e, l, &p));
    CHECK(p != 0 && p != l, "a presentation layer exists after the commit");
    {
        caluna_layer m = 0, pp = 0;
        caluna_value x = caluna_nil();
        EXPECT_OK(e, caluna_layer_model_layer(e, p, &m));
        CHECK(m == l, "its model layer is the layer");
        EXPECT_OK(e, caluna_layer_model_layer(e, l, &m));
        CHECK(m == l, "a model layer is its own model");
        EXPECT_OK(e, caluna_layer_presentation(e, p, &pp));
        CHECK(pp == p, "a presentation layer is its own presentation");
        EXPECT_OK(e, caluna_layer_get(e, p, "position.x", &x));
        CHECK(x.type == CALUNA_TYPE_NUMBER && near(x.u.number, 50, 1e-9), "caluna_layer_get on the presentation: %g", x.u.number);
        EXPECT(e, lset(e, p, "opacity", caluna_number(0.5)), CALUNA_ERR_INVALID_ARGUMENT);
        EXPECT(e, caluna_layer_add_animation(e, p, 0, NULL), CALUNA_ERR_STALE_HANDLE);
        EXPECT(e, caluna_layer_remove_all_animations(e, p), CALUNA_ERR_INVALID_ARGUMENT);
    }

    EXPECT_OK(e, caluna_layer_animation_key_count(e, l, &n));
    CHECK(n == 1, "one animation key while it runs (%d)", (int)n);
    EXPECT_OK(e, caluna_engine_step(e, 0.75));
    CHECK(near(pnum(e, l, "position.x"), 7, 1e-9), "t=1.25: finished and removed: the model value 7 (%g)", pnum(e, l, "position.x"));
    EXPECT_OK(e, caluna_layer_animation_key_count(e, l, &n));
    CHECK(n == 0, "removedOnCompletion: no key left (%d)", (int)n);
    EXPECT(e, caluna_layer_get_presentation(e, l, "nope", &v), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_layer_get_presentation(e, l, "position.x", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_engine_destroy(e);
}

static void test_fill_modes(void) {
    caluna_engine *e = new_engine();
    caluna_layer fwd = new_layer(e, 0), back = new_layer(e, 0), none = new_layer(e, 0), both = new_layer(e, 0);
    caluna_animation a;
    int32_t n = 0;

    lset(e, fwd, "position.x", caluna_number(-1));
    lset(e, back, "position.x", caluna_number(-1));
    lset(e, none, "position.x", caluna_number(-1));
    lset(e, both, "position.x", caluna_number(-1));

    a = basic(e, "position.x", 0, 100, 1);
    EXPECT_OK(e, aset(e, a, "fillMode", caluna_string("forwards")));
    EXPECT_OK(e, aset(e, a, "removedOnCompletion", caluna_bool(0)));
    EXPECT_OK(e, caluna_layer_add_animation(e, fwd, a, "f"));
    caluna_animation_release(e, a);

    /* beginTime 1 (the layer's time = media time here), 1 s long, from 20 to 40 */
    a = basic(e, "position.x", 20, 40, 1);
    EXPECT_OK(e, aset(e, a, "beginTime", caluna_number(1)));
    EXPECT_OK(e, aset(e, a, "fillMode", caluna_string("backwards")));
    EXPECT_OK(e, caluna_layer_add_animation(e, back, a, "b"));
    EXPECT_OK(e, aset(e, a, "fillMode", caluna_string("removed")));
    EXPECT_OK(e, caluna_layer_add_animation(e, none, a, "n"));
    EXPECT_OK(e, aset(e, a, "fillMode", caluna_string("both")));
    EXPECT_OK(e, caluna_layer_add_animation(e, both, a, "b2"));
    EXPECT(e, aset(e, a, "fillMode", caluna_string("sideways")), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_animation_release(e, a);

    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(near(pnum(e, back, "position.x"), 20, 1e-9), "backwards fills before the start: %g", pnum(e, back, "position.x"));
    CHECK(near(pnum(e, both, "position.x"), 20, 1e-9), "both fills before the start: %g", pnum(e, both, "position.x"));
    CHECK(near(pnum(e, none, "position.x"), -1, 1e-9), "removed shows the model before the start: %g", pnum(e, none, "position.x"));
    EXPECT_OK(e, caluna_engine_step(e, 1.0));
    CHECK(near(pnum(e, back, "position.x"), 30, 1e-9), "t=1.5 halfway: %g", pnum(e, back, "position.x"));
    EXPECT_OK(e, caluna_engine_step(e, 1.0));
    CHECK(near(pnum(e, fwd, "position.x"), 100, 1e-9), "forwards holds the end: %g", pnum(e, fwd, "position.x"));
    CHECK(near(pnum(e, back, "position.x"), -1, 1e-9), "backwards shows the model after the end: %g", pnum(e, back, "position.x"));
    CHECK(near(pnum(e, none, "position.x"), -1, 1e-9), "removed shows the model after the end: %g", pnum(e, none, "position.x"));
    EXPECT_OK(e, caluna_layer_animation_key_count(e, fwd, &n));
    CHECK(n == 1, "removedOnCompletion = false keeps the finished animation (%d)", (int)n);
    caluna_engine_destroy(e);
}

static void test_timing_and_repeat(void) {
    caluna_engine *e = new_engine();
    caluna_layer l = new_layer(e, 0), r = new_layer(e, 0);
    caluna_animation a = basic(e, "position.x", 0, 100, 1);
    caluna_value v;
    double c[4] = { 0 };

    EXPECT_OK(e, caluna_animation_set_timing_function_named(e, a, "easeIn"));
    EXPECT_OK(e, caluna_animation_get(e, a, "timingFunction", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "easeIn") == 0, "timingFunction reads back as \"easeIn\"");
    EXPECT_OK(e, caluna_animation_get_timing_function(e, a, &c[0], &c[1], &c[2], &c[3]));
    CHECK(c[0] == 0.42 && c[1] == 0 && c[2] == 1 && c[3] == 1, "easeIn points (%g, %g, %g, %g)", c[0], c[1], c[2], c[3]);
    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, NULL));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(near(pnum(e, l, "position.x"), 31.5357, 1e-4), "easeIn at 0.5 = %.6f (expected 31.5357)", pnum(e, l, "position.x"));

    /* custom curves, NIL, and bad points */
    EXPECT_OK(e, caluna_animation_set_timing_function(e, a, 0.25, 0.1, 0.25, 1));
    EXPECT(e, caluna_animation_get(e, a, "timingFunction", &v), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT_OK(e, caluna_animation_get_timing_function(e, a, &c[0], &c[1], &c[2], &c[3]));
    CHECK(c[0] == 0.25 && c[1] == 0.1 && c[2] == 0.25 && c[3] == 1, "custom points read back");
    EXPECT(e, caluna_animation_set_timing_function(e, a, 1.5, 0, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_set_timing_function(e, a, NAN, 0, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_set_timing_function_named(e, a, "bouncy"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_set_timing_function_named(e, a, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, aset(e, a, "timingFunction", caluna_string("easeOut")));
    EXPECT_OK(e, aset(e, a, "timingFunction", caluna_nil()));
    EXPECT_OK(e, caluna_animation_get(e, a, "timingFunction", &v));
    CHECK(v.type == CALUNA_TYPE_NIL, "timingFunction NIL = none");
    EXPECT_OK(e, caluna_animation_get_timing_function(e, a, &c[0], &c[1], &c[2], &c[3]));
    CHECK(c[0] == 0 && c[1] == 0 && c[2] == 1 && c[3] == 1, "none reads as linear points");

    /* repeatCount: HUGE_VAL is forever; autoreverses */
    EXPECT_OK(e, aset(e, a, "repeatCount", caluna_number(HUGE_VAL)));
    EXPECT_OK(e, caluna_animation_get(e, a, "repeatCount", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && isinf(v.u.number) && v.u.number > 0, "repeatCount reads back as +inf");
    EXPECT(e, aset(e, a, "repeatCount", caluna_number(-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, aset(e, a, "repeatCount", caluna_number(NAN)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, aset(e, a, "duration", caluna_number(HUGE_VAL)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, aset(e, a, "speed", caluna_number(-HUGE_VAL)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, aset(e, a, "autoreverses", caluna_bool(1)));
    EXPECT_OK(e, caluna_layer_add_animation(e, r, a, "forever"));
    EXPECT_OK(e, caluna_engine_step(e, 0));      /* stamped at t = 0.5 */
    EXPECT_OK(e, caluna_engine_step(e, 1.25));   /* 1.25 s in: on the way back, 0.75 of the way */
    CHECK(near(pnum(e, r, "position.x"), 75, 1e-9), "autoreverse at 1.25 s: %g (expected 75)", pnum(e, r, "position.x"));
    EXPECT_OK(e, caluna_engine_step(e, 100));
    EXPECT_OK(e, caluna_layer_animation_for_key(e, r, "forever", &a));
    CHECK(a != 0, "a forever animation is still attached after 100 s");
    caluna_engine_destroy(e);
}

static const double kf_y[8] = { 32, 268, 140, 268, 220, 268, 250, 268 };
static const double kf_times[8] = { 0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1 };
static const char *const kf_functions[7] = { "easeIn", "easeOut", "easeIn", "easeOut", "easeIn", "easeOut", "easeIn" };

/* The book's listing 10.6 (a bouncing ball) and a path animation. */
static void test_keyframes(void) {
    caluna_engine *e = new_engine();
    caluna_layer l = new_layer(e, 0), pl = new_layer(e, 0);
    caluna_animation a = anim_new(e, "KeyframeAnimation"), p, bad;
    caluna_value vals[8], back[8];
    double times[8] = { 0 }, fns[28] = { 0 };
    int32_t n = -1, i;
    caluna_path_element path[3], got[3];
    caluna_value v;

    for (i = 0; i < 8; i++) vals[i] = caluna_point(150, kf_y[i]);
    EXPECT_OK(e, aset(e, a, "keyPath", caluna_string("position")));
    EXPECT_OK(e, aset(e, a, "duration", caluna_number(1)));
    EXPECT_OK(e, caluna_animation_set_values(e, a, vals, 8));
    EXPECT_OK(e, caluna_animation_set_numbers(e, a, "keyTimes", kf_times, 8));
    EXPECT_OK(e, caluna_animation_set_timing_functions_named(e, a, kf_functions, 7));

    EXPECT_OK(e, caluna_animation_get_values(e, a, NULL, 0, &n));
    CHECK(n == 8, "values count %d", (int)n);
    EXPECT_OK(e, caluna_animation_get_values(e, a, back, 8, &n));
    CHECK(back[2].type == CALUNA_TYPE_POINT && back[2].u.point.y == 140, "values[2] reads back");
    EXPECT_OK(e, caluna_animation_get_numbers(e, a, "keyTimes", times, 3, &n));
    CHECK(n == 8 && times[1] == 0.3 && times[2] == 0.5, "keyTimes read back (3 of %d)", (int)n);
    EXPECT_OK(e, caluna_animation_get_timing_functions(e, a, fns, 7, &n));
    CHECK(n == 7 && fns[0] == 0.42 && fns[4 + 2] == 0.58, "timingFunctions read back as points");
    EXPECT(e, caluna_animation_get(e, a, "values", &v), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT(e, caluna_animation_get(e, a, "keyTimes", &v), CALUNA_ERR_NOT_SUPPORTED);

    /* Path values read back together: each points into one engine-owned buffer. A buffer per
     * path was reallocated under the earlier ones (the C fuzzer's use-after-free); 3000 and 6000
     * elements are past malloc's mmap threshold, so the first would be unmapped. */
    {
        caluna_animation kp = anim_new(e, "KeyframeAnimation");
        static caluna_path_element big[2][6000];
        caluna_value pv[2], pback[2];
        const size_t sizes[2] = { 3000, 6000 };
        int k, j, ok = 1;
        for (k = 0; k < 2; k++) {
            for (j = 0; j < (int)sizes[k]; j++) {
                memset(&big[k][j], 0, sizeof big[k][j]);
                big[k][j].type = j == 0 ? CALUNA_PATH_MOVE : CALUNA_PATH_LINE;
                big[k][j].points[0].x = j;
                big[k][j].points[0].y = 1000 * (k + 1);
            }
            memset(&pv[k], 0, sizeof pv[k]);
            pv[k].type = CALUNA_TYPE_PATH;
            pv[k].u.path.elements = big[k];
            pv[k].u.path.count = sizes[k];
        }
        EXPECT_OK(e, aset(e, kp, "keyPath", caluna_string("path")));
        EXPECT_OK(e, caluna_animation_set_values(e, kp, pv, 2));
        EXPECT_OK(e, caluna_animation_get_values(e, kp, pback, 2, &n));
        for (k = 0; k < 2 && ok; k++) {
            ok = pback[k].type == CALUNA_TYPE_PATH && pback[k].u.path.count == sizes[k];
            for (j = 0; ok && j < (int)sizes[k]; j++)
                ok = pback[k].u.path.elements[j].points[0].x == j && pback[k].u.path.elements[j].points[0].y == 1000 * (k + 1);
        }
        CHECK(n == 2 && ok, "two path values of 3000 and 6000 elements read back whole, both");
        caluna_animation_release(e, kp);
    }
    EXPECT(e, aset(e, a, "keyTimes", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);

    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, "bounce"));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    EXPECT_OK(e, caluna_engine_step(e, 0.4));
    CHECK(near(pnum(e, l, "position.y"), 180.366, 1e-3), "10.6: y at t=0.4 = %.4f (expected 180.366)", pnum(e, l, "position.y"));
    CHECK(near(pnum(e, l, "position.x"), 150, 1e-9), "10.6: x stays 150");

    /* a keyTimes count that does not match is caught when adding */
    EXPECT_OK(e, caluna_animation_copy(e, a, &bad));
    EXPECT_OK(e, caluna_animation_set_numbers(e, bad, "keyTimes", kf_times, 3));
    EXPECT(e, caluna_layer_add_animation(e, l, bad, "bad"), CALUNA_ERR_INVALID_ARGUMENT);
    /* values of the wrong type for the key path: at set time when the keyPath is known */
    vals[3] = caluna_number(1);
    EXPECT(e, caluna_animation_set_values(e, bad, vals, 8), CALUNA_ERR_TYPE_MISMATCH);
    vals[3] = caluna_nil();
    EXPECT(e, caluna_animation_set_values(e, bad, vals, 8), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_animation_set_values(e, bad, NULL, 3), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_set_values(e, bad, vals, -1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_animation_set_values(e, bad, NULL, 0));
    EXPECT_OK(e, caluna_animation_get_values(e, bad, NULL, 0, &n));
    CHECK(n == 0, "NULL, 0 clears values");
    EXPECT(e, caluna_layer_add_animation(e, l, bad, "bad"), CALUNA_ERR_INVALID_ARGUMENT);
    times[0] = NAN;
    EXPECT(e, caluna_animation_set_numbers(e, bad, "keyTimes", times, 2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_set_numbers(e, bad, "duration", kf_times, 2), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_animation_get_numbers(e, bad, "keyTimes", NULL, 2, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_get_numbers(e, bad, "keyTimes", times, -1, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_get_numbers(e, bad, "keyTimes", times, 2, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    {
        const char *names[2] = { "easeIn", NULL };
        double pts[4] = { 0.5, 0, 2, 1 };
        EXPECT(e, caluna_animation_set_timing_functions_named(e, bad, names, 2), CALUNA_ERR_INVALID_ARGUMENT);
        EXPECT(e, caluna_animation_set_timing_functions(e, bad, pts, 1), CALUNA_ERR_INVALID_ARGUMENT);
        pts[2] = 0.5;
        EXPECT_OK(e, caluna_animation_set_timing_functions(e, bad, pts, 1));
    }
    caluna_animation_release(e, bad);
    caluna_animation_release(e, a);

    /* a path: (0,0) → (100,0) → (100,100); position at 0.25 of 2 s */
    memset(path, 0, sizeof path);
    path[0].type = CALUNA_PATH_MOVE;
    path[1].type = CALUNA_PATH_LINE;
    path[1].points[0].x = 100;
    path[2].type = CALUNA_PATH_LINE;
    path[2].points[0].x = 100;
    path[2].points[0].y = 100;
    p = anim_new(e, "KeyframeAnimation");
    EXPECT_OK(e, aset(e, p, "keyPath", caluna_string("position")));
    EXPECT_OK(e, aset(e, p, "duration", caluna_number(2)));
    EXPECT_OK(e, caluna_animation_set_path(e, p, path, 3));
    EXPECT_OK(e, caluna_animation_get_path(e, p, got, 3, &n));
    CHECK(n == 3 && got[2].type == CALUNA_PATH_LINE && got[2].points[0].y == 100, "path reads back (%d elements)", (int)n);
    EXPECT(e, caluna_animation_get(e, p, "path", &v), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT_OK(e, caluna_layer_add_animation(e, pl, p, "path"));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    v = pget(e, pl, "position");
    CHECK(v.type == CALUNA_TYPE_POINT && near(v.u.point.x, 50, 1e-9) && near(v.u.point.y, 0, 1e-9),
          "path at 0.25: (%g, %g) (expected (50, 0))", v.u.point.x, v.u.point.y);
    path[1].type = (caluna_path_element_type)9;
    EXPECT(e, caluna_animation_set_path(e, p, path, 3), CALUNA_ERR_INVALID_ARGUMENT);
    path[1].type = CALUNA_PATH_LINE;
    path[1].points[0].x = NAN;
    EXPECT(e, caluna_animation_set_path(e, p, path, 3), CALUNA_ERR_INVALID_ARGUMENT);
    path[1].points[0].x = 1e300;
    EXPECT(e, caluna_animation_set_path(e, p, path, 3), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_animation_release(e, p);
    caluna_engine_destroy(e);
}

static void test_spring(void) {
    caluna_engine *e = new_engine();
    caluna_animation s = anim_new(e, "SpringAnimation");
    caluna_value v;
    EXPECT_OK(e, caluna_animation_get(e, s, "settlingDuration", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && near(v.u.number, 1.410319, 1e-5), "default settlingDuration %.6f", v.u.number);
    EXPECT(e, aset(e, s, "settlingDuration", caluna_number(2)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, aset(e, s, "mass", caluna_number(0)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, aset(e, s, "damping", caluna_number(20)));
    EXPECT_OK(e, caluna_animation_get(e, s, "damping", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 20, "damping reads back");
    caluna_engine_destroy(e);
}

static void test_group(void) {
    caluna_engine *e = new_engine();
    caluna_layer l = new_layer(e, 0);
    caluna_animation g = anim_new(e, "AnimationGroup");
    caluna_animation x = basic(e, "position.x", 0, 100, 0); /* takes the group's duration */
    caluna_animation o = basic(e, "opacity", 1, 0, 1);
    caluna_animation child = 0, inner = 0;
    caluna_value v;
    int32_t n = -1;

    EXPECT_OK(e, aset(e, g, "duration", caluna_number(2)));
    EXPECT_OK(e, caluna_group_add_animation(e, g, x));
    EXPECT_OK(e, caluna_group_add_animation(e, g, o));
    EXPECT_OK(e, aset(e, x, "toValue", caluna_number(1000))); /* the group holds a copy */
    EXPECT_OK(e, caluna_group_animation_count(e, g, &n));
    CHECK(n == 2, "the group has 2 animations (%d)", (int)n);
    EXPECT_OK(e, caluna_group_animation_at(e, g, 0, &child));
    EXPECT_OK(e, caluna_animation_get(e, child, "toValue", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 100, "the group's child was copied when added (toValue %g)", v.u.number);
    EXPECT(e, caluna_group_animation_at(e, g, 2, &child), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_group_add_animation(e, x, o), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_group_animation_count(e, x, &n), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, aset(e, g, "keyPath", caluna_string("opacity")), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, aset(e, g, "animations", caluna_nil()), CALUNA_ERR_UNKNOWN_KEY);

    EXPECT_OK(e, caluna_layer_add_animation(e, l, g, "group"));
    EXPECT_OK(e, caluna_engine_step(e, 0));
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(near(pnum(e, l, "position.x"), 25, 1e-9), "group t=0.5: x = %g (expected 25)", pnum(e, l, "position.x"));
    CHECK(near(pnum(e, l, "opacity"), 0.5, 1e-9), "group t=0.5: opacity = %g (expected 0.5)", pnum(e, l, "opacity"));
    EXPECT_OK(e, caluna_engine_step(e, 1.0));
    CHECK(near(pnum(e, l, "position.x"), 75, 1e-9), "group t=1.5: x = %g (expected 75)", pnum(e, l, "position.x"));
    CHECK(near(pnum(e, l, "opacity"), 1, 1e-9), "group t=1.5: the 1 s child is over, opacity = %g", pnum(e, l, "opacity"));

    /* the attached group and its children are read-only */
    EXPECT_OK(e, caluna_layer_animation_for_key(e, l, "group", &inner));
    EXPECT(e, caluna_group_add_animation(e, inner, o), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_group_animation_at(e, inner, 1, &child));
    EXPECT(e, aset(e, child, "duration", caluna_number(3)), CALUNA_ERR_INVALID_ARGUMENT);

    /* nesting is bounded */
    {
        caluna_animation nest = 0, next = 0;
        int depth, last = CALUNA_OK;
        EXPECT_OK(e, caluna_animation_copy(e, g, &nest));
        for (depth = 0; depth < 40 && last == CALUNA_OK; depth++) {
            caluna_animation_create(e, "AnimationGroup", &next);
            last = caluna_group_add_animation(e, next, nest);
            caluna_animation_release(e, nest);
            nest = next;
        }
        CHECK(last == CALUNA_ERR_INVALID_ARGUMENT, "groups nest at most 32 deep (refused at depth %d: %s)", depth,
              caluna_last_error(e));
        caluna_animation_release(e, nest);
    }
    /* A group added to itself doubles (each child is a copy): 2^k − 1 animations after k adds.
     * The 17th would make 131071, past the 100,000 a group's tree may hold (the fuzzer's OOM:
     * 31 such adds were 2^31 animations), and leaves the group as it was. */
    {
        caluna_animation self = 0;
        int32_t n = 0;
        int adds = 0;
        caluna_status s = CALUNA_OK;
        EXPECT_OK(e, caluna_animation_create(e, "AnimationGroup", &self));
        while (adds < 40 && (s = caluna_group_add_animation(e, self, self)) == CALUNA_OK) adds++;
        CHECK(adds == 16 && s == CALUNA_ERR_INVALID_ARGUMENT
              && strstr(caluna_last_error(e), "would hold 131071 animations") != NULL,
              "a self-doubling group stops at 16 adds (%d): %s", adds, caluna_last_error(e));
        EXPECT_OK(e, caluna_group_animation_count(e, self, &n));
        CHECK(n == 16, "the refused add changed nothing: 16 children (got %d)", n);
        caluna_animation_release(e, self);
    }
    EXPECT_OK(e, caluna_group_remove_all_animations(e, g));
    EXPECT_OK(e, caluna_group_animation_count(e, g, &n));
    CHECK(n == 0, "remove_all empties the group");
    caluna_animation_release(e, g);
    caluna_animation_release(e, x);
    caluna_animation_release(e, o);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* delegates                                                                                */

typedef struct events {
    caluna_layer layer, other;
    int starts, stops, finished_stops;
    double start_time, stop_time;
    int layer_ok, tag_ok, set_status, action_status, step_status, render_status, frozen_status, flush_status;
    int destroy_status, timer_status, render_refused;
    char step_message[256];
} events;

static void on_start(caluna_engine *e, caluna_animation anim, caluna_layer layer, int32_t finished, void *user) {
    events *ev = (events *)user;
    (void)anim;
    ev->starts++;
    ev->start_time = now(e);
    ev->layer_ok += layer == ev->layer && finished == 0;
}

static void on_tick_noop(caluna_engine *e, caluna_timer t, double when, void *user) {
    (void)e; (void)t; (void)when; (void)user;
}

static void on_stop(caluna_engine *e, caluna_animation anim, caluna_layer layer, int32_t finished, void *user) {
    events *ev = (events *)user;
    caluna_value tag = caluna_nil(), half = caluna_number(0.5), dur = caluna_number(3);
    uint8_t px[4];
    caluna_timer t = 0;
    ev->stops++;
    if (finished) ev->finished_stops++;
    ev->stop_time = now(e);
    ev->layer_ok += layer == ev->layer;
    /* read the tag set on the animation before it was added */
    if (caluna_animation_get_tag(e, anim, "name", &tag) == CALUNA_OK && tag.type == CALUNA_TYPE_STRING &&
        strcmp(tag.u.string, "bounce") == 0)
        ev->tag_ok++;
    /* change the tree from inside the step */
    ev->set_status = caluna_layer_set(e, layer, "opacity", &half);
    {
        caluna_animation follow = basic(e, "position.y", 0, 10, 1);
        ev->action_status = caluna_layer_add_animation(e, ev->other, follow, "follow");
        caluna_animation_release(e, follow);
    }
    ev->timer_status = caluna_timer_create(e, 1, 0, on_tick_noop, NULL, &t);
    /* what a callback may not do */
    ev->step_status = caluna_engine_step(e, 0.1);
    snprintf(ev->step_message, sizeof ev->step_message, "%s", caluna_last_error(e));
    ev->render_status = caluna_render(e, px, sizeof px, 1, 1, 4, CALUNA_RGBA8_STRAIGHT);
    ev->render_refused = strstr(caluna_last_error(e), "inside a callback") != NULL;
    ev->flush_status = caluna_engine_flush(e);
    ev->destroy_status = caluna_engine_destroy(e);
    ev->frozen_status = caluna_animation_set(e, anim, "duration", &dur);
}

static void test_delegate(void) {
    caluna_engine *e = new_engine();
    caluna_layer l = new_layer(e, 0), other = new_layer(e, 0);
    caluna_animation a = basic(e, "position.x", 0, 100, 1), got = 0;
    caluna_value name = caluna_string("bounce"), v;
    events ev;
    int i;
    int32_t n = 0;

    memset(&ev, 0, sizeof ev);
    ev.layer = l;
    ev.other = other;
    EXPECT_OK(e, caluna_animation_set_tag(e, a, "name", &name));
    EXPECT_OK(e, caluna_animation_get_tag(e, a, "name", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "bounce") == 0, "tag reads back");
    EXPECT_OK(e, caluna_animation_get_tag(e, a, "missing", &v));
    CHECK(v.type == CALUNA_TYPE_NIL, "a missing tag is NIL");
    EXPECT_OK(e, caluna_animation_set_delegate(e, a, on_start, on_stop, &ev));
    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, "move"));
    caluna_animation_release(e, a);

    EXPECT_OK(e, caluna_engine_step(e, 0));
    CHECK(ev.starts == 1 && ev.start_time == 0, "did_start once at t=0 (%d, t=%g)", ev.starts, ev.start_time);
    for (i = 0; i < 4; i++) EXPECT_OK(e, caluna_engine_step(e, 0.3));
    CHECK(ev.starts == 1, "did_start only once (%d)", ev.starts);
    CHECK(ev.stops == 1 && ev.finished_stops == 1, "did_stop(finished=1) once (%d stops, %d finished)", ev.stops, ev.finished_stops);
    CHECK(ev.stop_time == 1.0, "did_stop at exactly t=1 between steps of 0.3 (t=%.17g)", ev.stop_time);
    CHECK(ev.layer_ok == 2, "callbacks got the layer id");
    CHECK(ev.tag_ok == 1, "did_stop read the tag through the attached copy");
    CHECK(ev.set_status == CALUNA_OK, "caluna_layer_set from inside the callback: %s", caluna_status_name((caluna_status)ev.set_status));
    CHECK(ev.action_status == CALUNA_OK, "caluna_layer_add_animation from inside: %s", caluna_status_name((caluna_status)ev.action_status));
    CHECK(ev.timer_status == CALUNA_OK, "caluna_timer_create from inside: %s", caluna_status_name((caluna_status)ev.timer_status));
    CHECK(ev.step_status == CALUNA_ERR_INVALID_ARGUMENT && strstr(ev.step_message, "callback") != NULL,
          "caluna_engine_step from inside is refused: %s: %s", caluna_status_name((caluna_status)ev.step_status), ev.step_message);
    CHECK(ev.render_status == CALUNA_ERR_INVALID_ARGUMENT && ev.render_refused, "caluna_render from inside is refused");
    CHECK(ev.flush_status == CALUNA_ERR_INVALID_ARGUMENT, "caluna_engine_flush from inside is refused");
    CHECK(ev.destroy_status == CALUNA_ERR_INVALID_ARGUMENT, "caluna_engine_destroy from inside is refused");
    CHECK(ev.frozen_status == CALUNA_ERR_INVALID_ARGUMENT, "the attached copy is read-only in the callback");

    /* the engine keeps working, and saw what the callback did */
    EXPECT_OK(e, caluna_layer_get(e, l, "opacity", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 0.5, "the callback's set stuck (opacity %g)", v.u.number);
    EXPECT_OK(e, caluna_engine_step(e, 0.3));
    CHECK(near(pnum(e, other, "position.y"), 5, 1e-9), "the animation added in the callback at t=1 runs: y(1.5) = %g",
          pnum(e, other, "position.y"));

    /* removal: did_stop(finished = 0) at the next step */
    memset(&ev, 0, sizeof ev);
    ev.layer = l;
    ev.other = other;
    a = basic(e, "position.x", 0, 100, 10);
    caluna_animation_set_delegate(e, a, on_start, on_stop, &ev);
    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, "long"));
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(ev.starts == 1 && ev.stops == 0, "started, not stopped");
    EXPECT_OK(e, caluna_layer_animation_for_key(e, l, "long", &got));
    EXPECT_OK(e, caluna_animation_is_attached(e, got, &n));
    CHECK(n == 1, "animation_for_key gives the attached copy");
    EXPECT(e, aset(e, got, "duration", caluna_number(1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_set_tag(e, got, "x", &name), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_set_delegate(e, got, NULL, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_animation_get(e, got, "beginTime", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && near(v.u.number, 1.5, 1e-12), "its beginTime was stamped at the commit: %g", v.u.number);
    EXPECT_OK(e, caluna_animation_retain(e, got));
    EXPECT_OK(e, caluna_layer_remove_animation(e, l, "long"));
    CHECK(ev.stops == 0, "no did_stop until the next step");
    EXPECT_OK(e, caluna_layer_remove_animation(e, l, "long")); /* already gone: nothing */
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(ev.stops == 1 && ev.finished_stops == 0, "removal: did_stop(finished=0) once at the next step (%d, %d)",
          ev.stops, ev.finished_stops);
    EXPECT_OK(e, caluna_animation_get(e, got, "duration", &v)); /* we retained it */
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 10, "a retained attached copy outlives its removal");
    EXPECT_OK(e, caluna_animation_release(e, got));
    EXPECT_OK(e, caluna_animation_set_delegate(e, a, NULL, NULL, NULL));
    caluna_animation_release(e, a);
    EXPECT_OK(e, caluna_engine_destroy(e));
}

static void test_keys(void) {
    caluna_engine *e = new_engine();
    caluna_layer l = new_layer(e, 0);
    caluna_animation a = basic(e, "opacity", 1, 0, 1), got = 0, copy = 0;
    int32_t n = -1;
    const char *k = NULL;
    caluna_value v;

    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, "a"));
    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, "b"));
    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, NULL));
    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, "c"));
    EXPECT_OK(e, caluna_layer_add_animation(e, l, a, "a")); /* replaces "a" (now last) */
    EXPECT_OK(e, caluna_layer_animation_key_count(e, l, &n));
    CHECK(n == 3, "3 keys (the keyless one is not listed): %d", (int)n);
    EXPECT_OK(e, caluna_layer_animation_key_at(e, l, 0, &k));
    CHECK(k && strcmp(k, "b") == 0, "key 0 = %s", k ? k : "(null)");
    EXPECT_OK(e, caluna_layer_animation_key_at(e, l, 2, &k));
    CHECK(k && strcmp(k, "a") == 0, "key 2 = %s (re-added last)", k ? k : "(null)");
    EXPECT(e, caluna_layer_animation_key_at(e, l, 3, &k), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(k == NULL, "a failed key_at leaves NULL");
    EXPECT(e, caluna_layer_animation_key_at(e, l, -1, &k), CALUNA_ERR_INVALID_ARGUMENT);

    EXPECT_OK(e, caluna_layer_animation_for_key(e, l, "b", &got));
    CHECK(got != 0 && got != a, "animation_for_key gives a copy, not the original");
    EXPECT(e, aset(e, got, "toValue", caluna_number(0.5)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_animation_get(e, got, "keyPath", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "opacity") == 0, "the copy reads (keyPath opacity)");
    EXPECT_OK(e, caluna_animation_class_name(e, got, &k));
    CHECK(k && strcmp(k, "BasicAnimation") == 0, "class name %s", k ? k : "(null)");
    EXPECT_OK(e, caluna_animation_copy(e, got, &copy));
    EXPECT_OK(e, aset(e, copy, "toValue", caluna_number(0.5)));
    EXPECT_OK(e, caluna_animation_release(e, copy));
    EXPECT(e, caluna_layer_animation_for_key(e, l, "zzz", &got), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(got == 0, "no animation under a key: 0");
    EXPECT(e, caluna_layer_animation_for_key(e, l, NULL, &got), CALUNA_ERR_INVALID_ARGUMENT);

    EXPECT_OK(e, caluna_layer_remove_animation(e, l, "b"));
    EXPECT_OK(e, caluna_layer_animation_key_count(e, l, &n));
    CHECK(n == 2, "remove one: 2 keys");
    EXPECT(e, caluna_layer_remove_animation(e, l, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_layer_remove_all_animations(e, l));
    EXPECT_OK(e, caluna_layer_animation_key_count(e, l, &n));
    CHECK(n == 0, "remove all: 0 keys");
    caluna_animation_release(e, a);
    caluna_engine_destroy(e);
}

static void test_convert_time(void) {
    caluna_engine *e = new_engine();
    caluna_layer A = new_layer(e, 0), B = new_layer(e, A), other = 0;
    double t = 0;

    lset(e, A, "beginTime", caluna_number(1));
    lset(e, A, "speed", caluna_number(2));
    lset(e, A, "timeOffset", caluna_number(3));
    lset(e, B, "speed", caluna_number(0.5));
    EXPECT_OK(e, caluna_layer_convert_time(e, 0, A, 5, &t));
    CHECK(t == 11, "media 5 in A (beginTime 1, speed 2, timeOffset 3) = %g (expected 11)", t);
    EXPECT_OK(e, caluna_layer_convert_time(e, 0, B, 5, &t));
    CHECK(t == 5.5, "media 5 in B (speed 0.5 under A) = %g (expected 5.5)", t);
    EXPECT_OK(e, caluna_layer_convert_time(e, B, 0, 5.5, &t));
    CHECK(t == 5, "B's 5.5 in media time = %g", t);
    EXPECT_OK(e, caluna_layer_convert_time(e, A, B, 11, &t));
    CHECK(t == 5.5, "A's 11 in B = %g", t);
    EXPECT_OK(e, caluna_layer_convert_time(e, 0, 0, 4, &t));
    CHECK(t == 4, "media to media");
    EXPECT(e, caluna_layer_convert_time(e, 0, A, NAN, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_time(e, 0, A, 1e308, &t), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_time(e, 0, A, 1, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_time(e, 12345, A, 1, &t), CALUNA_ERR_STALE_HANDLE);
    {
        caluna_engine *e2 = new_engine();
        caluna_layer_create(e2, &other);
        EXPECT(e, caluna_layer_convert_time(e, other, A, 1, &t), CALUNA_ERR_STALE_HANDLE);
        caluna_engine_destroy(e2);
    }
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* display links and timers                                                                 */

typedef struct ticks {
    int count;
    double first_timestamp, first_target, last_target;
    double min_duration, max_duration;
    int stop_after;
    int invalidate_status, flush_status;
    caluna_display_link self;
} ticks;

static void on_frame(caluna_engine *e, caluna_display_link link, double timestamp, double target, double duration, void *user) {
    ticks *t = (ticks *)user;
    if (t->count == 0) {
        t->first_timestamp = timestamp;
        t->first_target = target;
        t->min_duration = t->max_duration = duration;
    }
    if (duration < t->min_duration) t->min_duration = duration;
    if (duration > t->max_duration) t->max_duration = duration;
    t->last_target = target;
    t->count++;
    t->self = link;
    if (t->stop_after && t->count == t->stop_after) {
        t->invalidate_status = caluna_display_link_invalidate(e, link);
        t->flush_status = caluna_engine_flush(e);
    }
}

static void on_timer(caluna_engine *e, caluna_timer timer, double when, void *user) {
    ticks *t = (ticks *)user;
    (void)e; (void)timer;
    t->count++;
    t->last_target = when;
}

static void test_display_links(void) {
    caluna_engine *e = new_engine();
    caluna_display_link every3 = 0, fps20 = 0, paused = 0, once = 0;
    ticks a, b, c, d;
    double ts = -1, tt = -1, du = -1;
    int i;

    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    memset(&d, 0, sizeof d);
    d.stop_after = 5;
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    EXPECT_OK(e, caluna_display_link_create(e, on_frame, &a, &every3));
    EXPECT_OK(e, caluna_display_link_set_frame_interval(e, every3, 3));
    EXPECT_OK(e, caluna_display_link_create(e, on_frame, &b, &fps20));
    EXPECT_OK(e, caluna_display_link_set_preferred_fps(e, fps20, 20));
    EXPECT_OK(e, caluna_display_link_create(e, on_frame, &c, &paused));
    EXPECT_OK(e, caluna_display_link_set_paused(e, paused, 1));
    EXPECT_OK(e, caluna_display_link_create(e, on_frame, &d, &once));
    EXPECT_OK(e, caluna_display_link_timestamps(e, every3, &ts, &tt, &du));
    CHECK(ts == 0.5 && tt == 0.5 && du == 0, "before firing: timestamps = creation time (%g, %g, %g)", ts, tt, du);
    for (i = 0; i < 60; i++) caluna_engine_step(e, 1.0 / 60);

    CHECK(a.count == 20, "frame interval 3 at 60 Hz: %d calls in 1 s (expected 20)", a.count);
    CHECK(near(a.first_timestamp, 0.5 + 2.0 / 60, 1e-12) && near(a.first_target, 0.55, 1e-12),
          "first call (3rd frame): timestamp %.17g (the previous frame), target %.17g", a.first_timestamp, a.first_target);
    CHECK(near(a.min_duration, 1.0 / 60, 1e-12) && near(a.max_duration, 1.0 / 60, 1e-12),
          "duration is the frame period 1/60 s every time (%.17g…%.17g)", a.min_duration, a.max_duration);
    CHECK(near(a.last_target, 1.5, 1e-12), "last target timestamp %.17g (expected 1.5)", a.last_target);
    CHECK(b.count == 20, "preferred 20 fps at 60 Hz: %d calls (expected 20)", b.count);
    CHECK(c.count == 0, "a paused link does not fire (%d)", c.count);
    CHECK(d.count == 5 && d.invalidate_status == CALUNA_OK, "a link that invalidates itself in its 5th call stops (%d)", d.count);
    CHECK(d.flush_status == CALUNA_ERR_INVALID_ARGUMENT, "flush from a display link is refused");
    EXPECT_OK(e, caluna_display_link_timestamps(e, every3, &ts, NULL, &du));
    CHECK(near(ts, 1.5 - 1.0 / 60, 1e-12) && near(du, 1.0 / 60, 1e-12), "timestamps after the last call (%.17g, %.17g)", ts, du);
    EXPECT(e, caluna_display_link_timestamps(e, every3, NULL, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);

    EXPECT_OK(e, caluna_display_link_set_paused(e, paused, 0));
    caluna_engine_step(e, 1.0 / 60);
    CHECK(c.count == 1, "resumed: fires again (%d)", c.count);

    EXPECT(e, caluna_display_link_set_frame_interval(e, every3, 0), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_display_link_set_preferred_fps(e, every3, -1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_display_link_set_paused(e, once, 1), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_display_link_create(e, NULL, NULL, &once), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_display_link_create(e, on_frame, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_display_link_invalidate(e, every3));
    EXPECT(e, caluna_display_link_invalidate(e, every3), CALUNA_ERR_STALE_HANDLE);
    i = a.count;
    caluna_engine_step(e, 0.1);
    CHECK(a.count == i, "an invalidated link does not fire");
    EXPECT(e, caluna_timer_invalidate(e, fps20), CALUNA_ERR_STALE_HANDLE); /* a link is not a timer */
    caluna_engine_destroy(e);
}

static void test_timers(void) {
    caluna_engine *e = new_engine();
    caluna_timer t60 = 0, once = 0, bad = 0;
    ticks a, b;
    double fire = 0;
    int i;

    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    EXPECT_OK(e, caluna_timer_create(e, 1.0 / 60, 1, on_timer, &a, &t60));
    EXPECT_OK(e, caluna_timer_create(e, 0.25, 0, on_timer, &b, &once));
    EXPECT_OK(e, caluna_timer_fire_date(e, once, &fire));
    CHECK(fire == 0.25, "fire date %g", fire);
    for (i = 0; i < 30; i++) caluna_engine_step(e, 1.0 / 30);
    CHECK(a.count == 30, "a 1/60 s timer stepped at 30 Hz fires once per step: %d in 1 s", a.count);
    CHECK(near(a.last_target, 1.0, 1e-12), "its last call at t=%.17g", a.last_target);
    CHECK(b.count == 1 && near(b.last_target, 0.2666666666666, 1e-9), "the one-shot timer fired once, in the step that reached 0.25 (t=%g)",
          b.last_target);
    EXPECT(e, caluna_timer_fire_date(e, once, &fire), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_timer_invalidate(e, once), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_timer_invalidate(e, t60));
    for (i = 0; i < 10; i++) caluna_engine_step(e, 1.0 / 30);
    CHECK(a.count == 30, "invalidate stops it (%d)", a.count);
    EXPECT(e, caluna_timer_invalidate(e, t60), CALUNA_ERR_STALE_HANDLE);

    EXPECT(e, caluna_timer_create(e, NAN, 1, on_timer, &a, &bad), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_timer_create(e, -1, 0, on_timer, &a, &bad), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_timer_create(e, 0, 1, on_timer, &a, &bad), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_timer_create(e, 1e300, 0, on_timer, &a, &bad), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_timer_create(e, 1, 0, NULL, &a, &bad), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(bad == 0, "failed creates leave 0");
    EXPECT(e, caluna_display_link_set_paused(e, t60, 1), CALUNA_ERR_STALE_HANDLE); /* a timer is not a link */
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */

static void test_timing_functions(void) {
    double y = -1, c1x = 0, c1y = 0, c2x = 0, c2y = 0;
    const char *name = NULL;
    int32_t i;

    EXPECT_OK(NULL, caluna_easing("bounceEaseOut", 0.5, &y));
    CHECK(near(y, 0.71875, 1e-12), "bounceEaseOut(0.5) = %.17g (expected 0.71875)", y);
    EXPECT_OK(NULL, caluna_easing("quadraticEaseInOut", 0.25, &y));
    CHECK(y == 0.125, "quadraticEaseInOut(0.25) = %g", y);
    EXPECT_OK(NULL, caluna_timing_function_named_evaluate("default", 0.5, &y));
    CHECK(near(y, 0.802403, 1e-6), "default(0.5) = %.9f (expected 0.802403)", y);
    EXPECT_OK(NULL, caluna_timing_function_named_evaluate("easeIn", 0.5, &y));
    CHECK(near(y, 0.315357, 1e-6), "easeIn(0.5) = %.9f (expected 0.315357)", y);
    EXPECT_OK(NULL, caluna_timing_function_evaluate(0.42, 0, 1, 1, 0.5, &y));
    CHECK(near(y, 0.315357, 1e-6), "custom (0.42, 0, 1, 1) at 0.5 = %.9f", y);
    EXPECT_OK(NULL, caluna_timing_function_evaluate(0.42, 0, 1, 1, 2, &y));
    CHECK(y == 1, "x is clamped to [0, 1]");
    EXPECT_OK(NULL, caluna_timing_function_named_points("easeInEaseOut", &c1x, &c1y, &c2x, &c2y));
    CHECK(c1x == 0.42 && c1y == 0 && c2x == 0.58 && c2y == 1, "easeInEaseOut points");

    EXPECT(NULL, caluna_timing_function_evaluate(0.42, 0, 1, 1, NAN, &y), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(y == 0, "a failure writes 0");
    EXPECT(NULL, caluna_timing_function_evaluate(-0.1, 0, 1, 1, 0.5, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_timing_function_evaluate(0.42, INFINITY, 1, 1, 0.5, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_timing_function_evaluate(0.42, 0, 1, 1, 0.5, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_timing_function_named_evaluate("wobble", 0.5, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_timing_function_named_evaluate(NULL, 0.5, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_easing("nope", 0.5, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_easing("linear", NAN, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_easing("circularEaseIn", 3, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_easing(NULL, 0.5, &y), CALUNA_ERR_INVALID_ARGUMENT);

    for (i = 0; caluna_easing_name_at(i, &name) == CALUNA_OK; i++) {
        if (caluna_easing(name, 1, &y) != CALUNA_OK || !near(y, 1, 1e-9)) break;
    }
    CHECK(i >= 31, "%d easing names, each maps 1 to 1", (int)i);
    EXPECT(NULL, caluna_easing_name_at(-1, &name), CALUNA_ERR_INVALID_ARGUMENT);
}

/* ---------------------------------------------------------------------------------------- */

static void test_errors(void) {
    caluna_engine *e = new_engine(), *e2 = new_engine();
    caluna_layer l = new_layer(e, 0);
    caluna_animation a = 0, dead = 0, foreign = 0, copy = 0;
    caluna_value v, pt = caluna_point(1, 2);
    int32_t n = 0;

    EXPECT(e, caluna_animation_create(e, NULL, &a), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_create(e, "BasicAnimation", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_create(e, "FancyAnimation", &a), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(a == 0, "a failed create leaves 0");
    EXPECT_OK(e, caluna_animation_create(e, "Transition", &a)); /* ABI 1.2 */
    EXPECT(e, caluna_animation_set(e, a, "filter", &pt), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT_OK(e, caluna_animation_release(e, a));
    EXPECT(NULL, caluna_animation_create(NULL, "BasicAnimation", &a), CALUNA_ERR_INVALID_ARGUMENT);

    a = basic(e, "position.x", 0, 1, 1);
    EXPECT(e, caluna_animation_set(e, a, NULL, &pt), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_set(e, a, "duration", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, aset(e, a, "duration", caluna_number(NAN)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, aset(e, a, "duration", caluna_number(-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, aset(e, a, "duration", caluna_string("long")), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, aset(e, a, "fromValue", pt), CALUNA_ERR_TYPE_MISMATCH); /* position.x takes NUMBER */
    EXPECT(e, aset(e, a, "nope", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, aset(e, a, "values", caluna_nil()), CALUNA_ERR_UNKNOWN_KEY); /* not a keyframe animation */
    EXPECT(e, aset(e, a, "delegate", caluna_nil()), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, aset(e, a, "keyPath", caluna_string("wibble")), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, aset(e, a, "additive", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);
    {
        caluna_value bad = caluna_number(1);
        bad.type = (caluna_value_type)42;
        EXPECT(e, caluna_animation_set(e, a, "duration", &bad), CALUNA_ERR_INVALID_ARGUMENT);
        bad = caluna_string(NULL);
        EXPECT(e, caluna_animation_set(e, a, "keyPath", &bad), CALUNA_ERR_INVALID_ARGUMENT);
    }
    EXPECT(e, caluna_animation_get(e, a, "duration", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_get(e, a, "nope", &v), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(v.type == CALUNA_TYPE_NIL, "a failed get leaves NIL");
    EXPECT(e, caluna_animation_set_tag(e, a, NULL, &pt), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_animation_get_tag(e, a, "x", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    {
        caluna_value nan = caluna_point(NAN, 0);
        EXPECT(e, caluna_animation_set_tag(e, a, "x", &nan), CALUNA_ERR_INVALID_ARGUMENT);
    }

    /* a keyPath that is not animatable is caught at add time */
    EXPECT_OK(e, caluna_animation_copy(e, a, &copy));
    EXPECT_OK(e, aset(e, copy, "keyPath", caluna_string("name")));
    EXPECT_OK(e, aset(e, copy, "fromValue", caluna_nil()));
    EXPECT_OK(e, aset(e, copy, "toValue", caluna_nil()));
    EXPECT(e, caluna_layer_add_animation(e, l, copy, "name"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, aset(e, copy, "keyPath", caluna_nil()));
    EXPECT(e, caluna_layer_add_animation(e, l, copy, "none"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_animation_set_delegate(e, copy, NULL, NULL, NULL));
    caluna_animation_release(e, copy);

    /* ids: stale after release, wrong kind, foreign, garbage, 0 */
    EXPECT_OK(e, caluna_animation_create(e, "BasicAnimation", &dead));
    EXPECT_OK(e, caluna_animation_release(e, dead));
    EXPECT(e, aset(e, dead, "duration", caluna_number(1)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_animation_release(e, dead), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_add_animation(e, l, dead, "x"), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, aset(e, (caluna_animation)l, "duration", caluna_number(1)), CALUNA_ERR_STALE_HANDLE);
    CHECK(strstr(caluna_last_error(e), "layer id") != NULL, "the message says it is a layer id: %s", caluna_last_error(e));
    EXPECT(e, caluna_layer_add_animation(e, (caluna_layer)a, a, "x"), CALUNA_ERR_STALE_HANDLE);
    CHECK(strstr(caluna_last_error(e), "animation id") != NULL, "the message says it is an animation id: %s", caluna_last_error(e));
    EXPECT(e, lset(e, (caluna_layer)a, "opacity", caluna_number(1)), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e2, caluna_animation_create(e2, "BasicAnimation", &foreign));
    EXPECT(e, aset(e, foreign, "duration", caluna_number(1)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_add_animation(e, l, foreign, "x"), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, aset(e, 0, "duration", caluna_number(1)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, aset(e, 0xdeadbeefcafef00dull, "duration", caluna_number(1)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_animation_retain(e, 0), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_display_link_invalidate(e, a), CALUNA_ERR_STALE_HANDLE);

    /* references: create + retain needs two releases */
    EXPECT_OK(e, caluna_animation_retain(e, a));
    EXPECT_OK(e, caluna_animation_release(e, a));
    EXPECT_OK(e, caluna_animation_is_attached(e, a, &n));
    CHECK(n == 0, "an animation you made is editable");
    EXPECT_OK(e, caluna_animation_release(e, a));
    EXPECT(e, caluna_animation_is_attached(e, a, &n), CALUNA_ERR_STALE_HANDLE);

    /* many animations: ids stay distinct, dead ones stale */
    {
        caluna_animation ids[300];
        int i, distinct = 1, stale = 0;
        for (i = 0; i < 300; i++) caluna_animation_create(e, "BasicAnimation", &ids[i]);
        for (i = 1; i < 300; i++) distinct &= ids[i] != ids[i - 1];
        for (i = 0; i < 300; i += 2) caluna_animation_release(e, ids[i]);
        for (i = 0; i < 300; i++) caluna_animation_create(e, "KeyframeAnimation", &dead);
        for (i = 0; i < 300; i += 2) stale += caluna_animation_retain(e, ids[i]) == CALUNA_ERR_STALE_HANDLE;
        CHECK(distinct && stale == 150, "300 ids distinct; the 150 released stay stale after slots are reused (%d)", stale);
    }
    caluna_engine_destroy(e2);
    EXPECT(e, aset(e, foreign, "duration", caluna_number(1)), CALUNA_ERR_STALE_HANDLE);
    caluna_engine_destroy(e);
    EXPECT(NULL, caluna_animation_release(e, a), CALUNA_ERR_STALE_HANDLE);
}

int main(void) {
    test_version();
    test_basic();
    test_fill_modes();
    test_timing_and_repeat();
    test_keyframes();
    test_spring();
    test_group();
    test_delegate();
    test_keys();
    test_convert_time();
    test_display_links();
    test_timers();
    test_timing_functions();
    test_errors();
    return finish();
}

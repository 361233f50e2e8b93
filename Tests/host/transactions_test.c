/* transactions_test.c — the C ABI of CATransaction (issue #4): implicit animations after the
 * first commit, transaction duration, disableActions and timing function, nesting,
 * completion callbacks and their release, values by key, and the error paths.
 *
 * Colours animate from blue (0, 0, 1) to red (1, 0, 0), so the presentation colour at
 * progress f is (f, 0, 1 − f). The default curve (0.25, 0.1, 0.25, 1) gives f(0.5) =
 * 0.802403. Each check prints one line; the last line is "N passed, N failed". */
#include <caluna.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "scene.h"

#define DEFAULT_CURVE_AT_HALF 0.802403

/* The presentation colour is (f, 0, 1 − f, 1) within tol. */
static int shows(caluna_engine *e, caluna_layer l, double f, double tol) {
    caluna_value c = pget(e, l, "backgroundColor");
    int ok = c.type == CALUNA_TYPE_COLOR && near(c.u.color.r, f, tol) && near(c.u.color.g, 0, tol) &&
             near(c.u.color.b, 1 - f, tol) && near(c.u.color.a, 1, tol);
    if (!ok) printf("      (shows (%.9g, %.9g, %.9g, %.9g), expected progress %.9g)\n", c.u.color.r, c.u.color.g,
                    c.u.color.b, c.u.color.a, f);
    return ok;
}

static double duration_now(caluna_engine *e) {
    double d = -1;
    caluna_transaction_animation_duration(e, &d);
    return d;
}

static int32_t depth_now(caluna_engine *e) {
    int32_t d = -1;
    caluna_transaction_depth(e, &d);
    return d;
}

/* The transaction value of `key` (NIL, with a note, on failure). */
static caluna_value tvalue(caluna_engine *e, const char *key) {
    caluna_value v = caluna_nil();
    caluna_status s = caluna_transaction_value(e, key, &v);
    if (s != CALUNA_OK) printf("      (value %s: %s: %s)\n", key, caluna_status_name(s), caluna_last_error(e));
    return v;
}

static int is_number(caluna_value v, double n) { return v.type == CALUNA_TYPE_NUMBER && v.u.number == n; }
static int is_bool(caluna_value v, int b) { return v.type == CALUNA_TYPE_BOOL && v.u.boolean == b; }

static caluna_status tset(caluna_engine *e, const char *key, caluna_value v) {
    return caluna_transaction_set_value(e, key, &v);
}

/* The curve default actions use now is (c1x, c1y, c2x, c2y). */
static int curve_is(caluna_engine *e, double c1x, double c1y, double c2x, double c2y) {
    double p[4] = {-1, -1, -1, -1};
    caluna_status s = caluna_transaction_animation_timing_function(e, &p[0], &p[1], &p[2], &p[3]);
    if (s != CALUNA_OK) printf("      (curve: %s: %s)\n", caluna_status_name(s), caluna_last_error(e));
    return s == CALUNA_OK && p[0] == c1x && p[1] == c1y && p[2] == c2x && p[3] == c2y;
}

/* ---------------------------------------------------------------------------------------- */

static void test_implicit(void) {
    caluna_layer l;
    caluna_engine *e = new_engine();
    const char *key = NULL;

    l = new_layer(e, 0);
    EXPECT_OK(e, lset(e, l, "backgroundColor", caluna_color(0, 0, 1, 1)));
    CHECK(key_count(e, l) == 0, "set-up before the first commit does not animate");
    EXPECT_OK(e, caluna_engine_step(e, 0));
    EXPECT_OK(e, lset(e, l, "backgroundColor", caluna_color(1, 0, 0, 1)));
    CHECK(key_count(e, l) == 1, "after the first commit a change adds an implicit animation");
    EXPECT_OK(e, caluna_layer_animation_key_at(e, l, 0, &key));
    CHECK(key != NULL && strcmp(key, "backgroundColor") == 0, "under the property's key (%s)", key ? key : "NULL");
    EXPECT_OK(e, caluna_engine_step(e, 0.125));
    CHECK(shows(e, l, DEFAULT_CURVE_AT_HALF, 1e-6), "t=0.125 of 0.25 s on the default curve: 0.802403 of the way");
    EXPECT_OK(e, caluna_engine_step(e, 0.125));
    CHECK(shows(e, l, 1, 0), "t=0.25: red");
    EXPECT_OK(e, caluna_engine_destroy(e));
}

static void test_duration_and_disable(void) {
    caluna_layer l;
    caluna_engine *e = committed_scene(&l);
    int32_t off = -1;

    CHECK(duration_now(e) == 0.25, "default duration 0.25 (%g)", duration_now(e));
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_animation_duration(e, 1));
    CHECK(duration_now(e) == 1, "duration reads back 1");
    EXPECT_OK(e, lset(e, l, "backgroundColor", caluna_color(1, 0, 0, 1)));
    EXPECT_OK(e, caluna_transaction_commit(e));
    CHECK(duration_now(e) == 0.25, "after the commit the default is back (%g)", duration_now(e));
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(shows(e, l, DEFAULT_CURVE_AT_HALF, 1e-6), "1 s transaction at 0.5 s: 0.802403 of the way");
    EXPECT_OK(e, caluna_engine_step(e, 0.5));

    /* disableActions: the change jumps */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, caluna_transaction_disable_actions(e, &off));
    CHECK(off == 1, "disableActions reads back 1");
    EXPECT_OK(e, lset(e, l, "backgroundColor", caluna_color(0, 0, 1, 1)));
    CHECK(key_count(e, l) == 0, "no animation with actions disabled");
    EXPECT_OK(e, caluna_engine_step(e, 0));
    CHECK(shows(e, l, 0, 0), "the change shows at once");
    EXPECT_OK(e, caluna_transaction_disable_actions(e, &off));
    CHECK(off == 0, "the implicit transaction ended with the step: actions are on again");

    /* a linear transaction curve: exactly halfway */
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_animation_timing_function_named(e, "linear"));
    EXPECT_OK(e, lset(e, l, "backgroundColor", caluna_color(1, 0, 0, 1)));
    EXPECT_OK(e, caluna_transaction_commit(e));
    EXPECT_OK(e, caluna_engine_step(e, 0.125));
    CHECK(shows(e, l, 0.5, 1e-12), "linear at 0.125 of 0.25 s: exactly halfway");
    EXPECT_OK(e, caluna_engine_step(e, 0.125));

    /* custom points (linear as a curve) */
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_animation_timing_function(e, 0, 0, 1, 1));
    EXPECT_OK(e, lset(e, l, "backgroundColor", caluna_color(0, 0, 1, 1)));
    EXPECT_OK(e, caluna_transaction_commit(e));
    EXPECT_OK(e, caluna_engine_step(e, 0.125));
    CHECK(shows(e, l, 0.5, 1e-12), "custom (0, 0, 1, 1) at 0.125 s: halfway back");
    EXPECT_OK(e, caluna_engine_destroy(e));
}

static void test_timing_function_values(void) {
    caluna_engine *e = new_engine();
    caluna_value v = caluna_number(1);

    CHECK(curve_is(e, 0.25, 0.1, 0.25, 1), "none set: the default curve's points");
    CHECK(tvalue(e, "animationTimingFunction").type == CALUNA_TYPE_NIL, "none set: the value is NIL");
    EXPECT_OK(e, caluna_transaction_set_animation_timing_function_named(e, "easeIn"));
    v = tvalue(e, "animationTimingFunction");
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "easeIn") == 0, "a named curve reads back as its name");
    CHECK(curve_is(e, 0.42, 0, 1, 1), "easeIn's points");
    EXPECT_OK(e, caluna_transaction_set_animation_timing_function(e, 0.1, 0.2, 0.3, 0.4));
    EXPECT(e, caluna_transaction_value(e, "animationTimingFunction", &v), CALUNA_ERR_NOT_SUPPORTED);
    CHECK(v.type == CALUNA_TYPE_NIL, "a failed read leaves NIL");
    CHECK(curve_is(e, 0.1, 0.2, 0.3, 0.4), "custom points read back");
    EXPECT_OK(e, caluna_transaction_set_animation_timing_function_named(e, NULL));
    CHECK(tvalue(e, "animationTimingFunction").type == CALUNA_TYPE_NIL, "NULL name clears the curve");
    EXPECT_OK(e, tset(e, "animationTimingFunction", caluna_string("easeOut")));
    CHECK(curve_is(e, 0, 0, 0.58, 1), "set_value with a name sets the curve");
    EXPECT_OK(e, tset(e, "animationTimingFunction", caluna_nil()));
    CHECK(curve_is(e, 0.25, 0.1, 0.25, 1), "set_value NIL clears it");
    EXPECT_OK(e, caluna_engine_destroy(e));
}

static void test_nesting_and_values(void) {
    caluna_engine *e = new_engine();
    caluna_value v;

    CHECK(depth_now(e) == 0, "depth 0 at first");
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_animation_duration(e, 2));
    EXPECT_OK(e, tset(e, "myKey", caluna_number(42)));
    EXPECT_OK(e, caluna_transaction_begin(e));
    CHECK(depth_now(e) == 2, "depth 2 inside the nested one");
    CHECK(duration_now(e) == 2, "the nested transaction inherits duration 2 (%g)", duration_now(e));
    CHECK(is_number(tvalue(e, "myKey"), 42), "and the outer value of myKey");
    EXPECT_OK(e, caluna_transaction_set_animation_duration(e, 0.5));
    EXPECT_OK(e, tset(e, "myKey", caluna_string("hi")));
    EXPECT_OK(e, tset(e, "tint", caluna_color(0.5, 0.25, 1, 1)));
    CHECK(duration_now(e) == 0.5, "its own duration 0.5");
    v = tvalue(e, "myKey");
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "hi") == 0, "its own myKey");
    v = tvalue(e, "tint");
    CHECK(v.type == CALUNA_TYPE_COLOR && v.u.color.r == 0.5 && v.u.color.g == 0.25, "a COLOR value reads back");
    CHECK(is_number(tvalue(e, "animationDuration"), 0.5), "animationDuration by key");
    EXPECT_OK(e, caluna_transaction_commit(e));
    CHECK(depth_now(e) == 1 && duration_now(e) == 2, "the commit restores the outer duration 2");
    CHECK(is_number(tvalue(e, "myKey"), 42), "and the outer myKey");
    CHECK(tvalue(e, "tint").type == CALUNA_TYPE_NIL, "a key only the inner one set is gone");
    EXPECT_OK(e, tset(e, "myKey", caluna_nil()));
    CHECK(tvalue(e, "myKey").type == CALUNA_TYPE_NIL, "NIL removes a value");
    EXPECT_OK(e, tset(e, "disableActions", caluna_bool(1)));
    CHECK(is_bool(tvalue(e, "disableActions"), 1), "disableActions by key");
    EXPECT_OK(e, caluna_transaction_commit(e));
    CHECK(depth_now(e) == 0 && duration_now(e) == 0.25, "all committed: depth 0, default duration");
    CHECK(is_bool(tvalue(e, "disableActions"), 0), "disableActions default 0");

    /* commit with nothing open: an error, the engine carries on */
    EXPECT(e, caluna_transaction_commit(e), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(e), "no open transaction") != NULL, "the message says why: %s", caluna_last_error(e));
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    EXPECT_OK(e, caluna_transaction_flush(e));
    CHECK(depth_now(e) == 0, "still depth 0");
    EXPECT_OK(e, caluna_engine_destroy(e));
}

/* ---------------------------------------------------------------------------------------- */
/* completion                                                                               */

typedef struct {
    int fired, released;
    double fired_at;
    caluna_status step_status, flush_status, set_status;
} completion;

static void on_complete(caluna_engine *e, void *user) {
    completion *c = (completion *)user;
    caluna_layer root = 0;
    c->fired++;
    c->fired_at = now(e);
    c->step_status = caluna_engine_step(e, 0.1);
    c->flush_status = caluna_transaction_flush(e);
    caluna_root_layer(e, &root);
    c->set_status = lset(e, root, "opacity", caluna_number(0.5));
}

static void on_release(void *user) { ((completion *)user)->released++; }

static void test_completion(void) {
    caluna_layer l;
    caluna_engine *e = committed_scene(&l);
    completion c, idle, dropped;
    caluna_value v = caluna_number(0);
    int i;

    memset(&c, 0, sizeof c);
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_animation_duration(e, 1));
    EXPECT_OK(e, caluna_transaction_set_completion(e, on_complete, &c, on_release));
    EXPECT_OK(e, lset(e, l, "backgroundColor", caluna_color(1, 0, 0, 1)));
    EXPECT(e, caluna_transaction_value(e, "completionBlock", &v), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT_OK(e, caluna_transaction_commit(e));
    for (i = 0; i < 9; i++) EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(c.fired == 0, "not fired before the animation ends (t=%g)", now(e));
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(c.fired == 1, "fired once when the 1 s animation ended");
    CHECK(c.fired_at == 1.0, "at media time 1.0 exactly (%.17g)", c.fired_at);
    CHECK(c.released == 1, "its release ran once, after it fired");
    CHECK(c.step_status == CALUNA_ERR_INVALID_ARGUMENT, "step from inside a completion is refused");
    CHECK(c.flush_status == CALUNA_ERR_INVALID_ARGUMENT, "caluna_transaction_flush from inside is refused");
    CHECK(c.set_status == CALUNA_OK, "caluna_layer_set from inside works");
    for (i = 0; i < 5; i++) EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(c.fired == 1 && c.released == 1, "never again (%d, %d)", c.fired, c.released);

    /* no animation added: it fires in the next step */
    memset(&idle, 0, sizeof idle);
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_completion(e, on_complete, &idle, on_release));
    EXPECT_OK(e, caluna_transaction_commit(e));
    CHECK(idle.fired == 0, "not at the commit");
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(idle.fired == 1 && idle.released == 1, "fired and released in the next step (%d, %d)", idle.fired, idle.released);

    /* NULL release; a completion in the implicit transaction */
    memset(&idle, 0, sizeof idle);
    EXPECT_OK(e, caluna_transaction_set_completion(e, on_complete, &idle, NULL));
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    CHECK(idle.fired == 1 && idle.released == 0, "implicit transaction: fired at the next step, no release to run");

    /* a completion the engine never runs is released when the engine goes */
    memset(&dropped, 0, sizeof dropped);
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_completion(e, on_complete, &dropped, on_release));
    EXPECT_OK(e, caluna_transaction_set_completion(e, NULL, NULL, NULL));
    CHECK(dropped.released == 0, "replacing it does not cancel it (it still waits)");
    EXPECT_OK(e, caluna_engine_destroy(e));
    CHECK(dropped.fired == 0 && dropped.released == 1, "never fired (left open), released by destroy (%d, %d)",
          dropped.fired, dropped.released);
}

/* ---------------------------------------------------------------------------------------- */

/* Every transaction call with a NULL or destroyed engine: the status, neutral outputs. */
static void every_function(caluna_engine *x, caluna_status want) {
    caluna_value v = caluna_number(1);
    double d = 1, p[4] = {1, 1, 1, 1};
    int32_t i = 1;
    EXPECT(x, caluna_transaction_begin(x), want);
    EXPECT(x, caluna_transaction_commit(x), want);
    EXPECT(x, caluna_transaction_flush(x), want);
    EXPECT(x, caluna_transaction_depth(x, &i), want);
    EXPECT(x, caluna_transaction_set_animation_duration(x, 1), want);
    EXPECT(x, caluna_transaction_animation_duration(x, &d), want);
    EXPECT(x, caluna_transaction_set_disable_actions(x, 1), want);
    EXPECT(x, caluna_transaction_disable_actions(x, &i), want);
    EXPECT(x, caluna_transaction_set_animation_timing_function(x, 0, 0, 1, 1), want);
    EXPECT(x, caluna_transaction_set_animation_timing_function_named(x, "linear"), want);
    EXPECT(x, caluna_transaction_animation_timing_function(x, &p[0], &p[1], &p[2], &p[3]), want);
    EXPECT(x, caluna_transaction_set_completion(x, NULL, NULL, NULL), want);
    EXPECT(x, caluna_transaction_set_value(x, "k", &v), want);
    EXPECT(x, caluna_transaction_value(x, "k", &v), want);
    CHECK(d == 0 && i == 0 && p[0] == 0 && p[3] == 0 && v.type == CALUNA_TYPE_NIL, "failed calls leave neutral outputs");
}

static void test_errors(void) {
    caluna_engine *e = new_engine();
    caluna_value v = caluna_string("long"), nan_v = caluna_number(NAN), b = caluna_bool(1);
    completion c;
    int32_t d = 0;
    double x = 0;
    int i;

    memset(&c, 0, sizeof c);
    every_function(NULL, CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_transaction_set_completion(NULL, on_complete, &c, on_release), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(c.released == 0, "a failed set_completion takes nothing over");
    EXPECT(e, caluna_transaction_depth(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_animation_duration(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_disable_actions(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_animation_timing_function(e, &x, &x, NULL, &x), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_animation_duration(e, -1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_animation_duration(e, NAN), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_animation_duration(e, INFINITY), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(duration_now(e) == 0.25, "failed sets change nothing");
    EXPECT(e, caluna_transaction_set_animation_timing_function(e, 2, 0, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_animation_timing_function(e, 0, NAN, 1, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_animation_timing_function_named(e, "bogus"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_animation_timing_function_named(e, "\xff"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_value(e, NULL, &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_value(e, "k", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_value(e, "\xfe", &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_value(e, "k", &nan_v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_value(e, "animationDuration", &v), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_transaction_set_value(e, "animationDuration", &nan_v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_value(e, "disableActions", &v), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_transaction_set_value(e, "animationTimingFunction", &b), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_transaction_set_value(e, "animationTimingFunction", &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_set_value(e, "completionBlock", &b), CALUNA_ERR_TYPE_MISMATCH);
    v.type = (caluna_value_type)99;
    EXPECT(e, caluna_transaction_set_value(e, "k", &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_transaction_value(e, NULL, &v), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(v.type == CALUNA_TYPE_NIL, "a failed read leaves NIL");
    EXPECT(e, caluna_transaction_value(e, "k", NULL), CALUNA_ERR_INVALID_ARGUMENT);

    /* too deep */
    for (i = 0; i < 256; i++) caluna_transaction_begin(e);
    EXPECT(e, caluna_transaction_begin(e), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_transaction_depth(e, &d));
    CHECK(d == 256, "256 open (%d)", d);
    for (i = 0; i < 256; i++) caluna_transaction_commit(e);
    EXPECT_OK(e, caluna_transaction_depth(e, &d));
    CHECK(d == 0, "all committed");
    EXPECT_OK(e, caluna_engine_step(e, 0.1));

    EXPECT_OK(e, caluna_engine_destroy(e));
    every_function(e, CALUNA_ERR_STALE_HANDLE);
}

int main(void) {
    test_implicit();
    test_duration_and_disable();
    test_timing_function_values();
    test_nesting_and_values();
    test_completion();
    test_errors();
    return finish();
}

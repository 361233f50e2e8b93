/* The book's five interactions from a C host (issue #8): each example scene in examples/ is
 * loaded through the ABI, driven by input the host sends (caluna_send_pointer, caluna_send_tilt)
 * or replays (caluna_load_events), stepped at a fixed rate, and checked against the spec's
 * numbers through caluna_layer_find and the presentation values. */
#include "check.h"
#include <stdlib.h>

static char repo[4096];

/* The repository root, from this file's path (host-tests compiles it by absolute path). */
static void find_repo(void) {
    snprintf(repo, sizeof repo, "%s", __FILE__);
    char *cut = strstr(repo, "/Tests/host/");
    if (cut) *cut = '\0'; else snprintf(repo, sizeof repo, ".");
}

static caluna_engine *load_example(const char *name, double w, double h) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = w; o.height = h; o.scale = 1;
    caluna_engine *e = NULL;
    if (caluna_engine_create(&o, &e) != CALUNA_OK) { printf("FAIL: engine: %s\n", caluna_last_error(NULL)); exit(1); }
    char path[4200];
    snprintf(path, sizeof path, "%s/examples/%s.lua", repo, name);
    if (!EXPECT_OK(e, caluna_engine_load_file(e, path))) exit(1);
    return e;
}

static caluna_layer find(caluna_engine *e, const char *name) {
    caluna_layer l = 0;
    EXPECT_OK(e, caluna_layer_find(e, name, &l));
    return l;
}

static double pres_number(caluna_engine *e, caluna_layer l, const char *key) {
    caluna_value v = caluna_nil();
    if (caluna_layer_get_presentation(e, l, key, &v) != CALUNA_OK || v.type != CALUNA_TYPE_NUMBER) return NAN;
    return v.u.number;
}

static caluna_value pres(caluna_engine *e, caluna_layer l, const char *key) {
    caluna_value v = caluna_nil();
    caluna_layer_get_presentation(e, l, key, &v);
    return v;
}

static void tap(caluna_engine *e, double x, double y, double t) {
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, x, y, CALUNA_BUTTON_PRIMARY, 0, t));
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_UP, 1, x, y, 0, 0, t));
}

/* Steps at a fixed rate up to time t. */
static void run_to(caluna_engine *e, double t, double fps) {
    double now = 0;
    caluna_engine_media_time(e, &now);
    while (now < t - 1e-9) {
        double dt = 1.0 / fps;
        if (now + dt > t) dt = t - now;
        if (caluna_engine_step(e, dt) != CALUNA_OK) { printf("FAIL: step: %s\n", caluna_last_error(e)); exit(1); }
        caluna_engine_media_time(e, &now);
    }
}

static const double MIX = 0.802403;  /* the default curve at half its duration */

static void tap_colors(void) {
    caluna_engine *e = load_example("tap_colors", 300, 300);
    caluna_layer c = find(e, "colorLayer");
    tap(e, 150, 150, 0.5);
    run_to(e, 0.625, 60);
    caluna_value v = pres(e, c, "backgroundColor");
    CHECK(v.type == CALUNA_TYPE_COLOR && near(v.u.color.r, MIX, 2.0 / 255) && near(v.u.color.b, 1 - MIX, 2.0 / 255),
          "7.1: half-way from blue to red at 0.625 (%g, %g, %g)", v.u.color.r, v.u.color.g, v.u.color.b);
    tap(e, 70, 230, 1.0);  /* beside the square: nothing changes */
    run_to(e, 1.25, 60);
    v = pres(e, c, "backgroundColor");
    CHECK(v.type == CALUNA_TYPE_COLOR && v.u.color.r == 1 && v.u.color.b == 0, "7.1: red after the animation, the miss changed nothing");
    caluna_engine_destroy(e);
}

static double tap_moving(double fps, double *blue) {
    caluna_engine *e = load_example("tap_moving", 400, 300);
    caluna_layer c = find(e, "colorLayer");
    tap(e, 300, 150, 0);     /* elsewhere: a 4 s move */
    tap(e, 230, 150, 2);     /* on the layer where it is seen: blue */
    run_to(e, 2, fps);
    double x2 = pres_number(e, c, "position.x");
    CHECK(near(x2, 260.48, 0.05), "7.7: x(2) = 260.48 (%g) at %g fps", x2, fps);
    run_to(e, 2.125, fps);
    double x = pres_number(e, c, "position.x");
    caluna_value v = pres(e, c, "backgroundColor");
    *blue = v.u.color.b;
    CHECK(near(x, 266.35, 0.05), "7.7: x(2.125) = 266.35 (%g): the move goes on", x);
    CHECK(near(v.u.color.b, MIX, 2.0 / 255), "7.7: the tap at (230, 150) hit the presentation (blue %g)", v.u.color.b);
    run_to(e, 4, fps);
    CHECK(pres_number(e, c, "position.x") == 300, "7.7: arrived at x = 300");
    caluna_engine_destroy(e);
    return x;
}

static void door_scrub(void) {
    caluna_engine *e = load_example("door_scrub", 300, 380);
    caluna_layer door = find(e, "door");
    /* The book's pan: 100 pt to the left in twenty 5 pt moves. */
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, 250, 200, 1, 0, 0.5));
    for (int i = 1; i <= 20; i++)
        caluna_send_pointer(e, CALUNA_EVENT_POINTER_MOVE, 1, 250 - 5 * i, 200, 1, 0, 0.5 + 0.05 * i);
    EXPECT_OK(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_UP, 1, 150, 200, 0, 0, 1.5));
    run_to(e, 2, 60);
    caluna_value off = caluna_nil();
    EXPECT_OK(e, caluna_layer_get(e, door, "timeOffset", &off));
    CHECK(off.type == CALUNA_TYPE_NUMBER && near(off.u.number, 0.5, 1e-12), "9.4: a pan of −100 → timeOffset 0.5 (%g)", off.u.number);
    double ry = pres_number(e, door, "transform.rotation.y");
    CHECK(near(ry, -0.785398, 1e-4), "9.4: the door shows −π/4 (%g)", ry);
    caluna_engine_destroy(e);
}

static void bounce_replay(void) {
    caluna_engine *e = load_example("bounce_replay", 300, 320);
    caluna_layer ball = find(e, "ball");
    char path[4200];
    snprintf(path, sizeof path, "%s/examples/bounce_replay.jsonl", repo);
    int32_t n = 0;
    EXPECT_OK(e, caluna_load_events(e, path, &n));
    CHECK(n == 6, "three scripted taps are six pointer events (%d)", n);
    run_to(e, 1.6, 30);
    CHECK(near(pres_number(e, ball, "position.y"), 68.855, 0.05), "10.6: replayed at 1.5: y(1.6) = 68.855 (%g)", pres_number(e, ball, "position.y"));
    run_to(e, 1.7, 30);
    CHECK(near(pres_number(e, ball, "position.y"), 152.750, 0.05), "10.6: y(1.7) = 152.750");
    run_to(e, 3.7, 30);
    CHECK(near(pres_number(e, ball, "position.y"), 68.855, 0.05), "10.6: the tap at 3.6 restarts it mid-bounce: y(3.7) = 68.855");
    caluna_engine_destroy(e);
}

static void crates(void) {
    caluna_engine *e = load_example("crates", 340, 360);
    EXPECT_OK(e, caluna_send_tilt(e, 0, 1, 0, 3));  /* held on its side: gravity (1000, 0) */
    run_to(e, 23, 60);
    double rightmost = -1e9;
    int inside = 1;
    for (int i = 0; i < 8; i++) {
        char name[16];
        snprintf(name, sizeof name, "crate%d", i);
        caluna_layer c = find(e, name);
        double x = pres_number(e, c, "position.x");
        caluna_value b = pres(e, c, "bounds");
        double right = x + b.u.rect.width / 2;
        if (right > rightmost) rightmost = right;
        if (!(right <= 299.5)) inside = 0;
    }
    CHECK(inside, "11.4: every crate inside the right wall");
    CHECK(near(rightmost, 299, 0.3), "11.4: the pile rests against the right wall (x + w/2 = %g)", rightmost);
    caluna_engine_destroy(e);
}

int main(void) {
    find_repo();
    tap_colors();
    double b60 = 0, b24 = 0;
    double x60 = tap_moving(60, &b60), x24 = tap_moving(24, &b24);
    CHECK(x60 == x24 && b60 == b24, "7.7: the same frame at 60 and 24 fps (x %.17g / %.17g)", x60, x24);
    door_scrub();
    bounce_replay();
    crates();
    return finish();
}

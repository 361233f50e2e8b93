/* physics_test.c — the C ABI of physics (ABI 1.4): the book's listings 11.3 (a falling crate,
 * manual steps) and 11.4 (walls and five crates stepped by the engine clock, tilted by a C
 * timer), collision handlers and their arbiters (valid only inside the callback), bound
 * layers, queries, constraints, update callbacks, sleeping, what callbacks may and may not
 * do, and hostile calls: NULL everywhere, stale and foreign ids, NaN/∞/huge values, bad
 * masses and shapes, double adds, destroyed worlds. The process must never abort, and
 * Chipmunk's banner must never reach stdout.
 *
 * Each check prints one line; the last line is "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L

#include <caluna.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                  */

static const double PI = 3.14159265358979323846;

static caluna_engine *make_engine(void) {
    caluna_engine *e = NULL;
    caluna_engine_options o = caluna_engine_options_default();
    o.width = 300;
    o.height = 300;
    if (caluna_engine_create(&o, &e) != CALUNA_OK) {
        printf("FAIL: cannot create an engine: %s\n", caluna_last_error(NULL));
        exit(1);
    }
    return e;
}

/* A world with gravity (gx, gy); paused worlds are stepped only by hand. */
static caluna_world make_world(caluna_engine *e, double gx, double gy, int paused) {
    caluna_world w = 0;
    caluna_world_options o = caluna_world_options_default();
    o.gravity_x = gx;
    o.gravity_y = gy;
    o.paused = paused;
    if (caluna_world_create(e, &o, &w) != CALUNA_OK) printf("      (world: %s)\n", caluna_last_error(e));
    return w;
}

static caluna_status wset(caluna_engine *e, caluna_world w, const char *k, caluna_value v) { return caluna_world_set(e, w, k, &v); }
static caluna_status bset(caluna_engine *e, caluna_body b, const char *k, caluna_value v) { return caluna_body_set(e, b, k, &v); }
static caluna_status sset(caluna_engine *e, caluna_shape s, const char *k, caluna_value v) { return caluna_shape_set(e, s, k, &v); }
static caluna_status cset(caluna_engine *e, caluna_constraint c, const char *k, caluna_value v) {
    return caluna_constraint_set(e, c, k, &v);
}

/* A NUMBER property (NaN when the read fails or is not a number). */
static double num_of(caluna_status s, caluna_value v) { return s == CALUNA_OK && v.type == CALUNA_TYPE_NUMBER ? v.u.number : NAN; }
static double wnum(caluna_engine *e, caluna_world w, const char *k) { caluna_value v; return num_of(caluna_world_get(e, w, k, &v), v); }
static double bnum(caluna_engine *e, caluna_body b, const char *k) { caluna_value v; return num_of(caluna_body_get(e, b, k, &v), v); }
static double snum(caluna_engine *e, caluna_shape s, const char *k) { caluna_value v; return num_of(caluna_shape_get(e, s, k, &v), v); }
static double cnum(caluna_engine *e, caluna_constraint c, const char *k) { caluna_value v; return num_of(caluna_constraint_get(e, c, k, &v), v); }

/* A POINT property ((NaN, NaN) when the read fails). */
static caluna_vect vec_of(caluna_status s, caluna_value v) {
    caluna_vect p = { NAN, NAN };
    if (s == CALUNA_OK && v.type == CALUNA_TYPE_POINT) { p.x = v.u.point.x; p.y = v.u.point.y; }
    return p;
}
static caluna_vect bvec(caluna_engine *e, caluna_body b, const char *k) { caluna_value v; return vec_of(caluna_body_get(e, b, k, &v), v); }
static caluna_vect lvec(caluna_engine *e, caluna_layer l, const char *k) { caluna_value v; return vec_of(caluna_layer_get(e, l, k, &v), v); }

/* A dynamic body of `mass` at (x, y) with a w × h box, friction 0.5, elasticity 0.8, added to
 * `w` (0: none); our reference is released when the world holds it. */
static caluna_body add_crate(caluna_engine *e, caluna_world w, double x, double y, double bw, double bh, double mass,
                             caluna_shape *shape) {
    caluna_body b = 0;
    caluna_shape s = 0;
    caluna_body_create(e, CALUNA_BODY_DYNAMIC, mass, 0, &b);
    bset(e, b, "position", caluna_point(x, y));
    caluna_body_add_box(e, b, bw, bh, 0, 0, 0, &s);
    sset(e, s, "friction", caluna_number(0.5));
    sset(e, s, "elasticity", caluna_number(0.8));
    if (shape) *shape = s;
    if (w) {
        caluna_world_add_body(e, w, b);
        caluna_body_release(e, b);
    }
    return b;
}

/* A layer w × h in the root (the tree holds it). */
static caluna_layer add_layer(caluna_engine *e, double w, double h) {
    caluna_layer l = 0, root = 0;
    caluna_value b = caluna_rect(0, 0, w, h);
    caluna_root_layer(e, &root);
    caluna_layer_create(e, &l);
    caluna_layer_set(e, l, "bounds", &b);
    caluna_layer_add_sublayer(e, root, l);
    caluna_layer_release(e, l);
    return l;
}

/* A status a callback recorded (its message is long gone: only the name is shown). */
#define RECORDED(got, want, what) \
    CHECK((got) == (want), "inside the callback, %s -> %s (want %s)", (what), caluna_status_name(got), caluna_status_name(want))

static double len(caluna_vect v) { return sqrt(v.x * v.x + v.y * v.y); }

/* The distance of `a` from the nearest multiple of π/2. */
static double off_right_angle(double a) {
    double q = a / (PI / 2);
    return fabs(q - floor(q + 0.5)) * (PI / 2);
}

/* ---------------------------------------------------------------------------------------- */
/* Chipmunk's banner: the first world of the process is made with stdout captured           */

static void test_banner(void) {
    caluna_engine *e = make_engine();
    caluna_world w = 0;
    char text[4096];
    size_t n = 0;
    int saved;
    FILE *capture = tmpfile();
    CHECK(caluna_abi_minor_version() == CALUNA_ABI_MINOR_VERSION && CALUNA_ABI_MINOR_VERSION >= 4,
          "the library is ABI 1.%d", caluna_abi_minor_version());
    if (!capture) {
        CHECK(0, "tmpfile for the stdout capture");
        return;
    }
    fflush(stdout);
    saved = dup(1);
    dup2(fileno(capture), 1);
    caluna_status s = caluna_world_create(e, NULL, &w);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(capture);
    n = fread(text, 1, sizeof text - 1, capture);
    text[n] = '\0';
    fclose(capture);
    EXPECT(e, s, CALUNA_OK);
    CHECK(n == 0 && strstr(text, "Initializing cpSpace") == NULL,
          "the process's first cpSpace printed nothing on stdout (%zu bytes: '%s')", n, text);
    CHECK(w != 0, "the world has an id");
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Listing 11.3: a falling crate, 60 manual steps of 1/60 s                                 */

static void test_falling_crate(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, -1000, 1);
    caluna_shape box = 0;
    caluna_body crate = add_crate(e, w, 150, 250, 100, 100, 100, &box);
    caluna_layer l = add_layer(e, 100, 100);
    caluna_world got = 0;
    int i;

    CHECK(near(bnum(e, crate, "moment"), 100.0 * (100 * 100 + 100 * 100) / 12, 1e-6),
          "the moment is cpMomentForBox(100, 100, 100) = %.6f", bnum(e, crate, "moment"));
    EXPECT_OK(e, caluna_body_world(e, crate, &got));
    CHECK(got == w, "the crate is in the world");
    EXPECT_OK(e, caluna_body_bind_layer(e, crate, l, NULL));
    caluna_vect lp = lvec(e, l, "position");
    CHECK(lp.x == 150 && lp.y == 250, "binding moves the layer at once (%g, %g)", lp.x, lp.y);

    /* A paused world is not stepped by the clock. */
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(wnum(e, w, "steps") == 0, "a paused world took no clock steps (%g)", wnum(e, w, "steps"));

    int failures = 0;
    for (i = 0; i < 60; i++) failures += caluna_world_step(e, w, 1.0 / 60) != CALUNA_OK;
    CHECK(failures == 0, "60 manual steps succeed");
    caluna_vect p = bvec(e, crate, "position"), v = bvec(e, crate, "velocity");
    CHECK(near(p.y, -241.6666666667, 1e-9), "y after 60 steps = %.10f (250 − 1000·(1/60)²·60·59/2)", p.y);
    CHECK(near(p.x, 150, 1e-12), "x stays 150 (%.12f)", p.x);
    CHECK(near(v.y, -1000, 1e-9) && v.x == 0, "velocity (%g, %.10f) = (0, −1000)", v.x, v.y);
    CHECK(wnum(e, w, "steps") == 60, "the world counts 60 steps (%g)", wnum(e, w, "steps"));
    lp = lvec(e, l, "position");
    CHECK(lp.x == p.x && lp.y == p.y, "the bound layer is at the body's position (%g, %g)", lp.x, lp.y);

    /* Resumed, the clock steps it at 1/120 s without catching up on the paused time (all of
     * a half-second frame's 60 steps: no cap per frame, the book's loop; the default is 16). */
    EXPECT_OK(e, wset(e, w, "paused", caluna_bool(0)));
    EXPECT_OK(e, wset(e, w, "maxStepsPerFrame", caluna_number(0)));
    EXPECT_OK(e, caluna_engine_step(e, 0.5));
    CHECK(wnum(e, w, "steps") == 120, "resumed: half a second is 60 clock steps (%g in all)", wnum(e, w, "steps"));
    lp = lvec(e, l, "position");
    p = bvec(e, crate, "position");
    CHECK(lp.x == p.x && lp.y == p.y, "after a clock step too (%g, %g)", lp.x, lp.y);

    /* Unbound, the layer stays where it is. */
    EXPECT_OK(e, caluna_body_unbind_layer(e, crate, 0));
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    caluna_vect lq = lvec(e, l, "position");
    CHECK(lq.x == lp.x && lq.y == lp.y, "an unbound layer stays put");
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Listing 11.4: walls, five crates, the engine's clock, a tilt from a C timer              */

typedef struct {
    caluna_world world;
    double ax, ay; /* the "accelerometer" */
    int calls, failures;
} tilt_state;

/* The book's accelerometer delegate: gravity = (ay·1000, −ax·1000). */
static void tilt(caluna_engine *e, caluna_timer timer, double now, void *user) {
    tilt_state *t = (tilt_state *)user;
    caluna_value g = caluna_point(t->ay * 1000, -t->ax * 1000);
    (void)timer;
    (void)now;
    t->calls++;
    if (caluna_world_set(e, t->world, "gravity", &g) != CALUNA_OK) t->failures++;
}

typedef struct {
    caluna_collision_type crate, wall;
    caluna_body static_body;
    caluna_world world;
    int begins, separates, post_solves, problems;
    caluna_arbiter last;
    double max_impulse;
    caluna_status engine_step, world_step;
} contact_log;

/* A crate meets a wall: the arbiter is readable here (shape a is the crate's). */
static int32_t crate_hits_wall(caluna_engine *e, caluna_arbiter arb, void *user) {
    contact_log *log = (contact_log *)user;
    caluna_shape a = 0, b = 0;
    caluna_body ba = 0, bb = 0;
    caluna_collision_type ta = 0, tb = 0;
    caluna_contact_point pts[2];
    size_t n = 0;
    caluna_value v;
    if (log->begins++ == 0) {
        /* Stepping from inside a step the engine runs is refused; the frame goes on. */
        log->engine_step = caluna_engine_step(e, 0.01);
        log->world_step = caluna_world_step(e, log->world, 0.01);
    }
    log->last = arb;
    if (caluna_arbiter_shapes(e, arb, &a, &b) != CALUNA_OK) log->problems++;
    caluna_shape_collision_type(e, a, &ta);
    caluna_shape_collision_type(e, b, &tb);
    if (ta != log->crate || tb != log->wall) log->problems++;
    if (caluna_arbiter_bodies(e, arb, &ba, &bb) != CALUNA_OK || bb != log->static_body || ba == 0) log->problems++;
    if (caluna_arbiter_contact_points(e, arb, pts, 2, &n) != CALUNA_OK || n < 1 || n > 2 || !(pts[0].distance <= 0.5)) log->problems++;
    if (caluna_arbiter_get(e, arb, "normal", &v) != CALUNA_OK || !near(sqrt(v.u.point.x * v.u.point.x + v.u.point.y * v.u.point.y), 1, 1e-9))
        log->problems++;
    if (caluna_arbiter_get(e, arb, "isFirstContact", &v) != CALUNA_OK || v.u.boolean != 1) log->problems++;
    if (caluna_arbiter_get(e, arb, "isRemoval", &v) != CALUNA_OK || v.u.boolean != 0) log->problems++;
    if (caluna_arbiter_get(e, arb, "count", &v) != CALUNA_OK || v.u.number != (double)n) log->problems++;
    /* The contact's restitution is the product of the shapes' elasticities. */
    if (caluna_arbiter_get(e, arb, "restitution", &v) != CALUNA_OK || !near(v.u.number, 0.64, 1e-12)) log->problems++;
    v = caluna_number(0.64);
    if (caluna_arbiter_set(e, arb, "restitution", &v) != CALUNA_OK) log->problems++;
    return 1;
}

static void crate_post_solve(caluna_engine *e, caluna_arbiter arb, void *user) {
    contact_log *log = (contact_log *)user;
    caluna_value j;
    log->post_solves++;
    if (caluna_arbiter_get(e, arb, "totalImpulse", &j) != CALUNA_OK) log->problems++;
    else if (len((caluna_vect){ j.u.point.x, j.u.point.y }) > log->max_impulse)
        log->max_impulse = len((caluna_vect){ j.u.point.x, j.u.point.y });
}

static void crate_leaves_wall(caluna_engine *e, caluna_arbiter arb, void *user) {
    contact_log *log = (contact_log *)user;
    caluna_value v;
    log->separates++;
    if (caluna_arbiter_get(e, arb, "isRemoval", &v) != CALUNA_OK || v.u.boolean != 0) log->problems++;
}

static const double frames[5][4] = { { 0, 0, 32, 32 }, { 32, 0, 32, 32 }, { 64, 0, 64, 64 }, { 128, 0, 32, 32 }, { 0, 32, 64, 64 } };

/* Every crate at rest, inside the walls, flat, on the floor or on another crate. */
static void check_resting(caluna_engine *e, caluna_body *crates, const char *when) {
    int i, j, moving = 0, outside = 0, tilted = 0, floating = 0;
    for (i = 0; i < 5; i++) {
        caluna_vect p = bvec(e, crates[i], "position"), v = bvec(e, crates[i], "velocity");
        double w = frames[i][2], h = frames[i][3], bottom = p.y - h / 2, supported = 0;
        if (!(len(v) < 0.05 && fabs(bnum(e, crates[i], "angularVelocity")) < 0.05)) moving++;
        if (!(p.x - w / 2 >= 0.5 && p.x + w / 2 <= 299.5 && bottom >= 0.5)) outside++;
        if (!(off_right_angle(bnum(e, crates[i], "angle")) < 0.02)) tilted++;
        supported = bottom >= 0.8 && bottom <= 1.1;
        for (j = 0; j < 5 && !supported; j++) {
            caluna_vect q = bvec(e, crates[j], "position");
            double qw = frames[j][2], qh = frames[j][3];
            if (j != i && fabs(bottom - (q.y + qh / 2)) <= 0.5 && p.x + w / 2 > q.x - qw / 2 && p.x - w / 2 < q.x + qw / 2)
                supported = 1;
        }
        if (!supported) floating++;
    }
    CHECK(moving == 0, "%s: every crate is at rest, |v| < 0.05 and |ω| < 0.05 (%d not)", when, moving);
    CHECK(outside == 0, "%s: every crate is inside the walls (%d not)", when, outside);
    CHECK(tilted == 0, "%s: every crate rests flat, angle within 0.02 of kπ/2 (%d not)", when, tilted);
    CHECK(floating == 0, "%s: every crate is on the floor or on another crate (%d not)", when, floating);
}

static void test_crate_box(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, 0, 0);
    caluna_body ground = 0, crates[5];
    caluna_layer layers[5];
    caluna_collision_type crate_type = 0;
    tilt_state t = { w, 1, 0, 0, 0 };
    contact_log log;
    caluna_collision_callbacks cb;
    caluna_timer timer = 0;
    caluna_value v;
    int i, frame, failures = 0, layer_off = 0;
    static const double corners[4][2] = { { 0, 0 }, { 300, 0 }, { 300, 300 }, { 0, 300 } };

    memset(&log, 0, sizeof log);
    EXPECT_OK(e, caluna_world_static_body(e, w, &ground));
    for (i = 0; i < 4; i++) {
        caluna_shape s = 0;
        EXPECT_OK(e, caluna_body_add_segment(e, ground, corners[i][0], corners[i][1], corners[(i + 1) % 4][0],
                                             corners[(i + 1) % 4][1], 1, &s));
        sset(e, s, "friction", caluna_number(0.5));
        sset(e, s, "elasticity", caluna_number(0.8));
        EXPECT_OK(e, caluna_shape_set_collision_type(e, s, 2));
    }
    EXPECT_OK(NULL, caluna_collision_type_named("crate", &crate_type));
    for (i = 0; i < 5; i++) {
        const double *f = frames[i];
        caluna_shape s = 0;
        crates[i] = add_crate(e, w, f[0] + f[2] / 2, 300 - f[1] - f[3] / 2, f[2], f[3], 100, &s);
        caluna_shape_set_collision_type(e, s, crate_type);
        layers[i] = add_layer(e, f[2], f[3]);
        caluna_body_bind_layer(e, crates[i], layers[i], NULL);
        if (i == 0) {
            EXPECT_OK(e, caluna_shape_get(e, s, "collisionType", &v));
            CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "crate") == 0, "a named collision type reads back as its name");
        }
    }
    caluna_vect p0 = bvec(e, crates[2], "position");
    CHECK(p0.x == 96 && p0.y == 268, "crate 2 starts at (96, 268) (%g, %g)", p0.x, p0.y);

    log.crate = crate_type;
    log.wall = 2;
    log.world = w;
    log.static_body = ground;
    memset(&cb, 0, sizeof cb);
    cb.begin = crate_hits_wall;
    cb.post_solve = crate_post_solve;
    cb.separate = crate_leaves_wall;
    EXPECT_OK(e, caluna_world_set_collision_handler(e, w, crate_type, 2, &cb, &log));
    EXPECT_OK(e, caluna_timer_create(e, 1.0 / 60, 1, tilt, &t, &timer));

    for (frame = 0; frame < 600; frame++) failures += caluna_engine_step(e, 1.0 / 60) != CALUNA_OK;
    CHECK(failures == 0, "10 s of 1/60 s engine frames succeed");
    CHECK(wnum(e, w, "steps") == 1200, "10 s are 1200 steps of 1/120 s (%g)", wnum(e, w, "steps"));
    CHECK(t.calls == 600 && t.failures == 0, "the tilt timer set gravity every frame (%d calls, %d failures)", t.calls, t.failures);
    caluna_vect g = { 0, 0 };
    caluna_world_get(e, w, "gravity", &v);
    g.x = v.u.point.x;
    g.y = v.u.point.y;
    CHECK(g.x == 0 && g.y == -1000, "gravity is (0, −1000) (%g, %g)", g.x, g.y);
    check_resting(e, crates, "after 10 s");
    for (i = 0; i < 5; i++) {
        caluna_vect lp = lvec(e, layers[i], "position"), bp = bvec(e, crates[i], "position");
        if (lp.x != bp.x || lp.y != bp.y) layer_off++;
    }
    CHECK(layer_off == 0, "every bound layer is at its crate's position (%d not)", layer_off);

    CHECK(log.begins > 0 && log.problems == 0, "crates hit the walls (%d begins) and every arbiter read as expected (%d problems)",
          log.begins, log.problems);
    CHECK(log.post_solves > 0 && log.max_impulse > 0, "post_solve saw impulses (%d calls, largest %g)", log.post_solves, log.max_impulse);
    CHECK(log.separates > 0 && log.separates <= log.begins, "separations (%d) follow begins (%d)", log.separates, log.begins);
    RECORDED(log.engine_step, CALUNA_ERR_INVALID_ARGUMENT, "caluna_engine_step (in a clock step)");
    RECORDED(log.world_step, CALUNA_ERR_INVALID_ARGUMENT, "caluna_world_step of the stepping world");
    EXPECT(e, caluna_arbiter_get(e, log.last, "normal", &v), CALUNA_ERR_STALE_HANDLE);
    CHECK(v.type == CALUNA_TYPE_NIL, "a failed arbiter read gives NIL");
    caluna_shape sa = 1, sb = 1;
    EXPECT(e, caluna_arbiter_shapes(e, log.last, &sa, &sb), CALUNA_ERR_STALE_HANDLE);
    CHECK(sa == 0 && sb == 0, "and zero shapes");

    /* Tilt: the device turns, gravity (1000, 0); 20 s later everything lies against the right wall. */
    t.ax = 0;
    t.ay = 1;
    failures = 0;
    for (frame = 0; frame < 1200; frame++) failures += caluna_engine_step(e, 1.0 / 60) != CALUNA_OK;
    CHECK(failures == 0, "20 more seconds succeed");
    caluna_world_get(e, w, "gravity", &v);
    CHECK(v.u.point.x == 1000 && v.u.point.y == 0, "the tilt handler set gravity (1000, 0)");
    int resting = 0, right = 0;
    for (i = 0; i < 5; i++) {
        caluna_vect p = bvec(e, crates[i], "position"), vel = bvec(e, crates[i], "velocity");
        double w_ = frames[i][2], h_ = frames[i][3], face = p.x + w_ / 2;
        int touching = face >= 298.5;
        int j;
        for (j = 0; j < 5 && !touching; j++) {
            caluna_vect q = bvec(e, crates[j], "position");
            if (j != i && fabs(face - (q.x - frames[j][2] / 2)) <= 0.5 && p.y + h_ / 2 > q.y - frames[j][3] / 2 &&
                p.y - h_ / 2 < q.y + frames[j][3] / 2)
                touching = 1;
        }
        if (len(vel) < 0.05) resting++;
        if (touching && face >= 250) right++;
        printf("      crate %d at (%.3f, %.3f), right face %.3f\n", i, p.x, p.y, face);
    }
    CHECK(resting == 5, "after the tilt every crate rests (%d of 5)", resting);
    CHECK(right == 5, "every crate lies against the right wall or a crate on its right, right face ≥ 250 (%d of 5)", right);
    caluna_timer_invalidate(e, timer);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Pair, wildcard and default handlers; ignoring contacts; changing one contact             */

typedef struct {
    caluna_collision_type wild_type;
    int wild_begins, pair_begins, default_begins, ghost_presolves, problems;
    caluna_status set_normal, set_bogus, set_friction_type, set_friction, set_surface;
    double friction_after;
} handler_log;

/* The wildcard handler of type 5: shape a is always the type-5 shape. */
static int32_t wild_begin(caluna_engine *e, caluna_arbiter arb, void *user) {
    handler_log *log = (handler_log *)user;
    caluna_shape a = 0, b = 0;
    caluna_collision_type ta = 0;
    caluna_value v = caluna_point(1, 1);
    if (log->wild_begins++ > 0) return 1;
    caluna_arbiter_shapes(e, arb, &a, &b);
    caluna_shape_collision_type(e, a, &ta);
    if (ta != log->wild_type) log->problems++;
    log->set_normal = caluna_arbiter_set(e, arb, "normal", &v);
    log->set_bogus = caluna_arbiter_set(e, arb, "bogus", &v);
    log->set_friction_type = caluna_arbiter_set(e, arb, "friction", &v);
    v = caluna_number(0.25);
    log->set_friction = caluna_arbiter_set(e, arb, "friction", &v);
    caluna_arbiter_get(e, arb, "friction", &v);
    log->friction_after = v.u.number;
    v = caluna_point(3, 0);
    log->set_surface = caluna_arbiter_set(e, arb, "surfaceVelocity", &v);
    return 1;
}

/* Counts the call in the int `user` points to; processes the contact. */
static int32_t count_and_accept(caluna_engine *e, caluna_arbiter arb, void *user) {
    (void)e;
    (void)arb;
    ++*(int *)user;
    return 1;
}

/* The same, but returning 0: the contact is ignored (a pre_solve: for this step). */
static int32_t count_and_ignore(caluna_engine *e, caluna_arbiter arb, void *user) {
    count_and_accept(e, arb, user);
    return 0;
}

static void test_handler_kinds(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, -100, 1);
    caluna_body ground = 0, ball, box, plain, ghost;
    caluna_shape floor_shape = 0, s = 0;
    caluna_collision_callbacks wild, pair, fallback, pass;
    handler_log log;
    int i;
    memset(&log, 0, sizeof log);
    memset(&wild, 0, sizeof wild);
    memset(&pair, 0, sizeof pair);
    memset(&fallback, 0, sizeof fallback);
    memset(&pass, 0, sizeof pass);
    log.wild_type = 5;
    caluna_world_static_body(e, w, &ground);
    caluna_body_add_segment(e, ground, -200, 0, 200, 0, 0, &floor_shape);
    caluna_shape_set_collision_type(e, floor_shape, 2);
    ball = add_crate(e, w, 0, 4.9, 10, 10, 1, &s);
    caluna_shape_set_collision_type(e, s, 5);
    box = add_crate(e, w, 30, 4.9, 10, 10, 1, &s);
    caluna_shape_set_collision_type(e, s, 6);
    plain = add_crate(e, w, 60, 4.9, 10, 10, 1, &s);
    ghost = add_crate(e, w, 90, 4.9, 10, 10, 1, &s);
    caluna_shape_set_collision_type(e, s, 7);
    wild.begin = wild_begin;
    pair.begin = count_and_accept;
    fallback.begin = count_and_accept;
    pass.pre_solve = count_and_ignore; /* the ghost falls through the floor */
    EXPECT_OK(e, caluna_world_set_wildcard_handler(e, w, 5, &wild, &log));
    EXPECT_OK(e, caluna_world_set_collision_handler(e, w, 6, 2, &pair, &log.pair_begins));
    EXPECT_OK(e, caluna_world_set_collision_handler(e, w, 2, 7, &pass, &log.ghost_presolves)); /* either order */
    for (i = 0; i < 60; i++) caluna_world_step(e, w, 1.0 / 60);
    CHECK(log.wild_begins == 1 && log.problems == 0, "the wildcard handler of type 5 saw its shape as a (%d, %d problems)",
          log.wild_begins, log.problems);
    CHECK(log.pair_begins == 1, "the (6, 2) pair handler ran (%d)", log.pair_begins);
    CHECK(log.ghost_presolves > 0 && bvec(e, ghost, "position").y < -10, "pre_solve returning 0 let the ghost fall through (y %g)",
          bvec(e, ghost, "position").y);
    CHECK(bvec(e, ball, "position").y > 0 && bvec(e, box, "position").y > 0 && bvec(e, plain, "position").y > 0,
          "the others rest on the floor");
    RECORDED(log.set_normal, CALUNA_ERR_INVALID_ARGUMENT, "setting the arbiter's normal (read-only)");
    RECORDED(log.set_bogus, CALUNA_ERR_UNKNOWN_KEY, "setting an unknown arbiter key");
    RECORDED(log.set_friction_type, CALUNA_ERR_TYPE_MISMATCH, "setting friction to a POINT");
    RECORDED(log.set_friction, CALUNA_OK, "setting this contact's friction");
    RECORDED(log.set_surface, CALUNA_OK, "setting this contact's surface velocity");
    CHECK(log.friction_after == 0.25, "the contact's friction reads back (%g)", log.friction_after);

    /* A default handler's begin takes every pair without a pair handler, the wildcard's too. */
    EXPECT_OK(e, caluna_world_set_default_handler(e, w, &fallback, &log.default_begins));
    bset(e, ball, "position", caluna_point(0, 30));
    bset(e, plain, "position", caluna_point(60, 30));
    for (i = 0; i < 60; i++) caluna_world_step(e, w, 1.0 / 60);
    CHECK(log.default_begins == 2 && log.wild_begins == 1, "the default handler took the ball and the untyped crate (%d, wildcard %d)",
          log.default_begins, log.wild_begins);
    /* NULL callbacks: Chipmunk's defaults again, which run the wildcard handlers. */
    EXPECT_OK(e, caluna_world_set_default_handler(e, w, NULL, NULL));
    bset(e, ball, "position", caluna_point(0, 30));
    for (i = 0; i < 60; i++) caluna_world_step(e, w, 1.0 / 60);
    CHECK(log.default_begins == 2 && log.wild_begins == 2, "cleared, it calls nothing; the wildcard runs again (%d, %d)",
          log.default_begins, log.wild_begins);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Queries                                                                                  */

static void test_queries(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, 0, 1);
    caluna_body ground = 0, block = 0, ball = 0, probe = 0;
    caluna_shape circle = 0, box = 0, ball_shape = 0, probe_shape = 0, found[8];
    caluna_point_hit hit, hits[4];
    caluna_segment_hit seg, segs[4];
    caluna_shape_contact contacts[2];
    caluna_shape_filter f, got;
    size_t n = 99;

    caluna_world_static_body(e, w, &ground);
    EXPECT_OK(e, caluna_body_add_circle(e, ground, 10, 50, 50, &circle));
    EXPECT_OK(e, caluna_body_create(e, CALUNA_BODY_STATIC, 0, 0, &block));
    bset(e, block, "position", caluna_point(150, 50));
    EXPECT_OK(e, caluna_body_add_box(e, block, 20, 20, 0, 0, 0, &box));
    EXPECT_OK(e, caluna_world_add_body(e, w, block));
    caluna_body_release(e, block);
    EXPECT_OK(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, 0, &ball));
    bset(e, ball, "position", caluna_point(250, 50));
    EXPECT_OK(e, caluna_body_add_circle(e, ball, 10, 0, 0, &ball_shape));
    EXPECT_OK(e, caluna_world_add_body(e, w, ball));
    caluna_body_release(e, ball);

    EXPECT_OK(e, caluna_world_nearest_point(e, w, 50, 70, 100, NULL, &hit));
    CHECK(hit.shape == circle && near(hit.distance, 10, 1e-9) && near(hit.point.x, 50, 1e-9) && near(hit.point.y, 60, 1e-9) &&
              near(hit.gradient.y, 1, 1e-9),
          "nearest point: the circle, 10 away at (50, 60), gradient up (%g at (%g, %g))", hit.distance, hit.point.x, hit.point.y);
    EXPECT_OK(e, caluna_world_nearest_point(e, w, 1000, 1000, 10, NULL, &hit));
    CHECK(hit.shape == 0, "nothing near (1000, 1000): shape 0");
    EXPECT_OK(e, caluna_world_nearest_point(e, w, 1000, 1000, INFINITY, NULL, &hit));
    CHECK(hit.shape == ball_shape, "with max_distance ∞ the ball is found");

    EXPECT_OK(e, caluna_world_point_query(e, w, 95, 50, 60, NULL, hits, 1, &n));
    CHECK(n == 2 && hits[0].shape == circle && near(hits[0].distance, 35, 1e-9),
          "point query: 2 shapes, nearest first, 1 written (n %zu, %g)", n, hits[0].distance);
    EXPECT_OK(e, caluna_world_point_query(e, w, 95, 50, 60, NULL, hits, 4, &n));
    CHECK(n == 2 && hits[1].shape == box && near(hits[1].distance, 45, 1e-9), "and the box 45 away");

    EXPECT_OK(e, caluna_world_segment_query_first(e, w, 0, 50, 300, 50, 0, NULL, &seg));
    CHECK(seg.shape == circle && near(seg.point.x, 40, 1e-9) && near(seg.normal.x, -1, 1e-9) && near(seg.alpha, 40.0 / 300, 1e-12),
          "segment first: the circle at x 40, normal (−1, 0), alpha %g", seg.alpha);
    EXPECT_OK(e, caluna_world_segment_query_first(e, w, 0, 200, 300, 200, 0, NULL, &seg));
    CHECK(seg.shape == 0, "a segment that hits nothing: shape 0");
    EXPECT_OK(e, caluna_world_segment_query(e, w, 0, 50, 300, 50, 0, NULL, NULL, 0, &n));
    CHECK(n == 3, "segment query: the count alone (array NULL, capacity 0): %zu", n);
    EXPECT_OK(e, caluna_world_segment_query(e, w, 0, 50, 300, 50, 0, NULL, segs, 4, &n));
    CHECK(n == 3 && segs[0].shape == circle && segs[1].shape == box && segs[2].shape == ball_shape &&
              segs[0].alpha < segs[1].alpha && segs[1].alpha < segs[2].alpha,
          "in order along the segment: circle, box, ball");

    /* A filter: the ball is in category 2; a query masking category 1 only skips it. */
    f = caluna_shape_filter_all();
    f.categories = 2;
    EXPECT_OK(e, caluna_shape_set_filter(e, ball_shape, &f));
    EXPECT_OK(e, caluna_shape_get_filter(e, ball_shape, &got));
    CHECK(got.group == 0 && got.categories == 2 && got.mask == 0xFFFFFFFFu, "the filter reads back");
    f = caluna_shape_filter_all();
    f.mask = 1;
    EXPECT_OK(e, caluna_world_segment_query(e, w, 0, 50, 300, 50, 0, &f, segs, 4, &n));
    CHECK(n == 2 && segs[1].shape == box, "the filtered segment query skips the ball (%zu)", n);

    EXPECT_OK(e, caluna_world_bb_query(e, w, 140, 40, 20, 20, NULL, found, 8, &n));
    CHECK(n == 1 && found[0] == box, "bb query (140, 40, 20, 20): the box (%zu)", n);
    EXPECT_OK(e, caluna_world_bb_query(e, w, 300, 300, -300, -300, NULL, found, 8, &n));
    CHECK(n == 3 && found[0] == circle && found[1] == box && found[2] == ball_shape, "a negative size is standardised: all 3, in order made");

    /* A probe in no world overlapping the block. */
    EXPECT_OK(e, caluna_body_create(e, CALUNA_BODY_KINEMATIC, 0, 0, &probe));
    bset(e, probe, "position", caluna_point(160, 50));
    EXPECT_OK(e, caluna_body_add_box(e, probe, 30, 30, 0, 0, 0, &probe_shape));
    EXPECT_OK(e, caluna_world_shape_query(e, w, probe_shape, contacts, 2, &n));
    CHECK(n == 1 && contacts[0].shape == box && contacts[0].count >= 1 && contacts[0].points[0].distance < 0,
          "shape query: the probe overlaps the box (%zu, %d points, depth %g)", n, contacts[0].count, contacts[0].points[0].distance);
    caluna_body_release(e, probe);
    EXPECT(e, caluna_world_shape_query(e, w, probe_shape, contacts, 2, &n), CALUNA_ERR_STALE_HANDLE);
    CHECK(n == 0, "a failed query reports count 0");

    /* Lists. */
    caluna_body bodies[4];
    EXPECT_OK(e, caluna_world_bodies(e, w, bodies, 4, &n));
    CHECK(n == 2 && bodies[0] == block && bodies[1] == ball, "the world's bodies, in order added (%zu)", n);
    EXPECT_OK(e, caluna_body_shapes(e, ground, found, 8, &n));
    CHECK(n == 1 && found[0] == circle, "the static body's shapes");
    caluna_body owner = 0;
    EXPECT_OK(e, caluna_shape_body(e, box, &owner));
    CHECK(owner == block, "a shape's body");
    CHECK(near(snum(e, circle, "area"), PI * 100, 1e-9), "a circle's area is πr² (%g)", snum(e, circle, "area"));
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Constraints                                                                              */

static void test_constraints(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, -100, 0);
    caluna_body ground = 0, bob = 0, a = 0, b = 0, ca = 0, cb = 0;
    caluna_constraint pivot = 0, c = 0, gear = 0;
    caluna_shape s = 0;
    caluna_param params[2];
    caluna_value v;
    size_t n = 0;
    int i, far = 0;

    caluna_world_static_body(e, w, &ground);
    caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, 0, &bob);
    bset(e, bob, "position", caluna_point(100, 0));
    caluna_body_add_circle(e, bob, 5, 0, 0, &s);
    EXPECT_OK(e, caluna_world_add_body(e, w, bob));
    params[0].key = "pivot";
    params[0].value = caluna_point(0, 0);
    EXPECT_OK(e, caluna_constraint_create(e, "pivot", ground, bob, params, 1, &pivot));
    EXPECT_OK(e, caluna_world_add_constraint(e, w, pivot));
    EXPECT_OK(e, caluna_constraint_bodies(e, pivot, &ca, &cb));
    CHECK(ca == ground && cb == bob, "the constraint's bodies");
    EXPECT_OK(e, caluna_constraint_get(e, pivot, "anchorB", &v));
    CHECK(v.type == CALUNA_TYPE_POINT && near(v.u.point.x, -100, 1e-9), "pivot (0, 0) is anchor (−100, 0) on the bob");
    EXPECT_OK(e, cset(e, pivot, "maxForce", caluna_number(INFINITY)));
    CHECK(isinf(cnum(e, pivot, "maxForce")), "maxForce takes ∞");
    for (i = 0; i < 120; i++) {
        caluna_engine_step(e, 1.0 / 60);
        caluna_vect p = bvec(e, bob, "position");
        if (fabs(len(p) - 100) > 0.5) far++;
    }
    caluna_vect p = bvec(e, bob, "position");
    CHECK(far == 0, "the pendulum stays 100 from the pivot within 0.5 for 2 s (%d frames off; now %.4f)", far, len(p));
    CHECK(p.y < -10, "and it swung (%g, %g)", p.x, p.y);
    CHECK(cnum(e, pivot, "impulse") != 0, "the joint reports its impulse (%g)", cnum(e, pivot, "impulse"));

    /* Every kind, between two dynamic bodies. */
    static const char *kinds[] = { "pin", "slide", "groove", "dampedSpring", "dampedRotarySpring", "rotaryLimit", "ratchet",
                                   "gear", "simpleMotor" };
    a = add_crate(e, w, 50, 200, 10, 10, 1, NULL);
    b = add_crate(e, w, 80, 200, 10, 10, 1, NULL);
    int made = 0;
    for (i = 0; i < 9; i++) {
        caluna_param q[2];
        size_t count = 0;
        if (strcmp(kinds[i], "groove") == 0) {
            q[0].key = "grooveA";
            q[0].value = caluna_point(0, 0);
            q[1].key = "grooveB";
            q[1].value = caluna_point(30, 0);
            count = 2;
        } else if (strcmp(kinds[i], "slide") == 0) {
            q[0].key = "max";
            q[0].value = caluna_number(40);
            count = 1;
        }
        if (caluna_constraint_create(e, kinds[i], a, b, q, count, &c) == CALUNA_OK &&
            caluna_world_add_constraint(e, w, c) == CALUNA_OK)
            made++;
        else
            printf("      (%s: %s)\n", kinds[i], caluna_last_error(e));
        if (strcmp(kinds[i], "gear") == 0) gear = c;
        caluna_constraint_release(e, c);
    }
    CHECK(made == 9, "all nine other kinds are made and added (%d)", made);
    EXPECT_OK(e, caluna_engine_step(e, 0.1));
    EXPECT_OK(e, caluna_world_constraints(e, w, NULL, 0, &n));
    CHECK(n == 10, "the world holds 10 constraints (%zu)", n);
    CHECK(cnum(e, gear, "ratio") == 1, "a gear's ratio defaults to 1 (the world holds it after our release)");

    /* Removing a body removes the constraints that use it. */
    EXPECT_OK(e, caluna_world_remove_body(e, w, a));
    EXPECT_OK(e, caluna_world_constraints(e, w, NULL, 0, &n));
    CHECK(n == 1, "removing a body removed its 9 constraints (%zu left)", n);
    caluna_constraint_release(e, pivot);
    caluna_body_release(e, bob);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Update callbacks                                                                         */

typedef struct {
    int velocity_calls, position_calls, failures;
    caluna_body body;
} update_log;

/* Ignores gravity: the default integration with none. */
static void weightless(caluna_engine *e, caluna_body body, double gx, double gy, double damping, double dt, void *user) {
    update_log *log = (update_log *)user;
    log->velocity_calls++;
    if (body != log->body || gy != -100 || gx != 0) log->failures++;
    if (caluna_body_update_velocity(e, body, 0, 0, damping, dt) != CALUNA_OK) log->failures++;
}

static void counted_position(caluna_engine *e, caluna_body body, double dt, void *user) {
    update_log *log = (update_log *)user;
    log->position_calls++;
    if (caluna_body_update_position(e, body, dt) != CALUNA_OK) log->failures++;
}

static void test_update_callbacks(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, -100, 1);
    update_log log = { 0, 0, 0, 0 };
    caluna_body floating = add_crate(e, w, 0, 0, 10, 10, 1, NULL), falling = add_crate(e, w, 50, 0, 10, 10, 1, NULL);
    int i;
    log.body = floating;
    EXPECT_OK(e, caluna_body_set_velocity_update(e, floating, weightless, &log));
    EXPECT_OK(e, caluna_body_set_position_update(e, floating, counted_position, &log));
    for (i = 0; i < 10; i++) caluna_world_step(e, w, 0.01);
    CHECK(log.velocity_calls == 10 && log.position_calls == 10 && log.failures == 0,
          "both callbacks ran once per step with the world's gravity (%d, %d, %d failures)", log.velocity_calls,
          log.position_calls, log.failures);
    CHECK(bvec(e, floating, "position").y == 0, "the weightless body stays at y 0");
    CHECK(bvec(e, falling, "position").y < 0, "the other falls (%g)", bvec(e, falling, "position").y);
    EXPECT_OK(e, caluna_body_set_velocity_update(e, floating, NULL, NULL));
    EXPECT_OK(e, caluna_body_set_position_update(e, floating, NULL, NULL));
    caluna_world_step(e, w, 0.01);
    caluna_world_step(e, w, 0.01);
    CHECK(log.velocity_calls == 10 && bvec(e, floating, "position").y < 0, "without callbacks it falls again");
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Sleeping                                                                                 */

static void test_sleep(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, -100, 1);
    caluna_body ground = 0, box = add_crate(e, w, 50, 5, 10, 10, 1, NULL), loose = 0;
    caluna_shape floor_shape = 0;
    caluna_value v;
    caluna_world_static_body(e, w, &ground);
    caluna_body_add_segment(e, ground, -100, 0, 100, 0, 0, &floor_shape);
    EXPECT(e, caluna_body_sleep(e, box), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, wset(e, w, "sleepTimeThreshold", caluna_number(0)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, wset(e, w, "sleepTimeThreshold", caluna_number(0.5)));
    caluna_world_step(e, w, 0.01);
    EXPECT_OK(e, caluna_body_sleep(e, box));
    EXPECT_OK(e, caluna_body_get(e, box, "sleeping", &v));
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == 1, "the body sleeps");
    EXPECT_OK(e, caluna_body_sleep(e, box));
    EXPECT_OK(e, caluna_body_activate(e, box));
    caluna_body_get(e, box, "sleeping", &v);
    CHECK(v.u.boolean == 0, "activate wakes it");
    EXPECT(e, caluna_body_sleep(e, ground), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, 1, &loose);
    EXPECT(e, caluna_body_sleep(e, loose), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_body_activate(e, loose));
    EXPECT_OK(e, wset(e, w, "sleepTimeThreshold", caluna_number(INFINITY)));
    CHECK(isinf(wnum(e, w, "sleepTimeThreshold")), "sleepTimeThreshold takes ∞ back");
    caluna_body_release(e, loose);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* What a callback may do                                                                   */

typedef struct {
    caluna_world world, other;
    caluna_body target, removed, added, moved;
    int calls;
    caluna_status engine_step, world_step, destroy, mass, velocity, sleep, handler, add, remove, shape, readd,
        move_other, type, density;
} meddler;

static int32_t meddle(caluna_engine *e, caluna_arbiter arb, void *user) {
    meddler *m = (meddler *)user;
    caluna_value v = caluna_number(50);
    caluna_collision_callbacks none;
    caluna_shape s = 0;
    (void)arb;
    if (m->calls++ > 0) return 1;
    memset(&none, 0, sizeof none);
    m->engine_step = caluna_engine_step(e, 0.1);
    m->world_step = caluna_world_step(e, m->world, 0.01);
    m->destroy = caluna_world_destroy(e, m->world);
    m->mass = caluna_body_set(e, m->target, "mass", &v);
    v = caluna_string("kinematic");
    m->type = caluna_body_set(e, m->target, "type", &v);
    v = caluna_point(0, 10);
    m->velocity = caluna_body_set(e, m->target, "velocity", &v);
    m->sleep = caluna_body_sleep(e, m->target);
    m->handler = caluna_world_set_default_handler(e, m->world, &none, NULL);
    m->add = caluna_world_add_body(e, m->world, m->added);
    m->remove = caluna_world_remove_body(e, m->world, m->removed);
    m->shape = caluna_body_add_circle(e, m->target, 3, 0, 0, &s);
    v = caluna_number(2);
    m->density = caluna_shape_set(e, s, "density", &v);
    /* Removed and added back in the same step: both wait for its end, in order. */
    caluna_world_remove_body(e, m->world, m->moved);
    m->readd = caluna_world_add_body(e, m->world, m->moved);
    /* Removed during the step: another world takes it only after the step. */
    m->move_other = caluna_world_add_body(e, m->other, m->removed);
    return 1;
}

static void test_callbacks_meddling(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, -100, 1), other = make_world(e, 0, 0, 1);
    caluna_body ground = 0, list[8];
    caluna_shape floor_shape = 0;
    caluna_collision_callbacks cb;
    meddler m;
    size_t n = 0;
    int i, has_added = 0, has_removed = 0, has_moved = 0;
    memset(&m, 0, sizeof m);
    m.world = w;
    m.other = other;
    caluna_world_static_body(e, w, &ground);
    caluna_body_add_segment(e, ground, -100, 0, 100, 0, 0, &floor_shape);
    m.target = add_crate(e, w, 0, 4.9, 10, 10, 1, NULL);
    m.removed = add_crate(e, w, 50, 50, 10, 10, 1, NULL);
    m.moved = add_crate(e, w, -50, 50, 10, 10, 1, NULL);
    m.added = add_crate(e, 0, 30, 80, 10, 10, 1, NULL);
    memset(&cb, 0, sizeof cb);
    cb.begin = meddle;
    EXPECT_OK(e, caluna_world_set_default_handler(e, w, &cb, &m));
    EXPECT_OK(e, caluna_body_retain(e, m.removed)); /* the world lets go of what it removes */
    EXPECT(e, caluna_world_step(e, w, 1.0 / 60), CALUNA_OK);
    CHECK(m.calls >= 1, "the begin callback ran (%d)", m.calls);
    RECORDED(m.engine_step, CALUNA_ERR_INVALID_ARGUMENT, "caluna_engine_step");
    RECORDED(m.world_step, CALUNA_ERR_INVALID_ARGUMENT, "caluna_world_step");
    RECORDED(m.destroy, CALUNA_ERR_INVALID_ARGUMENT, "caluna_world_destroy");
    RECORDED(m.mass, CALUNA_ERR_INVALID_ARGUMENT, "setting mass");
    RECORDED(m.type, CALUNA_ERR_INVALID_ARGUMENT, "setting type");
    RECORDED(m.sleep, CALUNA_ERR_INVALID_ARGUMENT, "caluna_body_sleep");
    RECORDED(m.handler, CALUNA_ERR_INVALID_ARGUMENT, "setting a handler");
    RECORDED(m.density, CALUNA_ERR_INVALID_ARGUMENT, "setting a shape's density");
    RECORDED(m.velocity, CALUNA_OK, "setting velocity");
    RECORDED(m.add, CALUNA_OK, "adding a body (deferred)");
    RECORDED(m.remove, CALUNA_OK, "removing a body (deferred)");
    RECORDED(m.shape, CALUNA_OK, "adding a shape (deferred)");
    RECORDED(m.readd, CALUNA_OK, "removing and adding back a body");
    RECORDED(m.move_other, CALUNA_ERR_INVALID_ARGUMENT, "moving a removed body to another world");
    EXPECT_OK(e, caluna_world_bodies(e, w, list, 8, &n));
    for (i = 0; i < (int)n && i < 8; i++) {
        has_added |= list[i] == m.added;
        has_removed |= list[i] == m.removed;
        has_moved |= list[i] == m.moved;
    }
    CHECK(has_added && !has_removed && has_moved, "after the step: the added body is in, the removed one out, the moved one back");
    caluna_point_hit hit;
    EXPECT_OK(e, caluna_world_nearest_point(e, w, 30, 80, 1, NULL, &hit));
    CHECK(hit.shape != 0, "a query finds the body added inside the callback");
    EXPECT_OK(e, caluna_world_add_body(e, other, m.removed));
    EXPECT_OK(e, caluna_body_shapes(e, m.target, NULL, 0, &n));
    CHECK(n == 2, "the shape added inside the callback is on the body (%zu shapes)", n);
    EXPECT_OK(e, caluna_world_bb_query(e, w, -1, 4, 2, 2, NULL, NULL, 0, &n));
    CHECK(n == 2, "and in the world: a bb query at its centre finds box and circle (%zu)", n);
    caluna_body_release(e, m.added);
    caluna_body_release(e, m.removed);
    caluna_engine_destroy(e);
}

/* A separate callback run by a removal, outside any step: the world is locked. */
typedef struct {
    caluna_world world;
    caluna_body other, extra;
    int calls, removal;
    caluna_status type, sleep, step, destroy, add, handler, moment;
} removal_log;

static void on_separate(caluna_engine *e, caluna_arbiter arb, void *user) {
    removal_log *r = (removal_log *)user;
    caluna_value v;
    caluna_collision_callbacks none;
    memset(&none, 0, sizeof none);
    r->calls++;
    if (caluna_arbiter_get(e, arb, "isRemoval", &v) != CALUNA_OK || !v.u.boolean) return;
    if (r->removal++ > 0) return;
    v = caluna_string("kinematic");
    r->type = caluna_body_set(e, r->other, "type", &v);
    v = caluna_number(5);
    r->moment = caluna_body_set(e, r->other, "moment", &v);
    r->sleep = caluna_body_sleep(e, r->other);
    r->step = caluna_world_step(e, r->world, 0.01);
    r->destroy = caluna_world_destroy(e, r->world);
    r->handler = caluna_world_set_default_handler(e, r->world, &none, NULL);
    r->add = caluna_world_add_body(e, r->world, r->extra);
}

static void test_removal_callbacks(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, -100, 1);
    caluna_body ground = 0, resting = 0, list[8];
    caluna_shape floor_shape = 0, resting_shape = 0;
    caluna_collision_callbacks cb;
    removal_log r;
    size_t n = 0;
    int i;
    memset(&r, 0, sizeof r);
    r.world = w;
    caluna_world_static_body(e, w, &ground);
    caluna_body_add_segment(e, ground, -100, 0, 100, 0, 0, &floor_shape);
    wset(e, w, "sleepTimeThreshold", caluna_number(1));
    caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, 0, &resting);
    bset(e, resting, "position", caluna_point(0, 4.9));
    caluna_body_add_box(e, resting, 10, 10, 0, 0, 0, &resting_shape);
    caluna_world_add_body(e, w, resting);
    r.other = add_crate(e, w, 50, 4.9, 10, 10, 1, NULL);
    r.extra = add_crate(e, 0, -50, 50, 10, 10, 1, NULL);
    memset(&cb, 0, sizeof cb);
    cb.separate = on_separate;
    EXPECT_OK(e, caluna_world_set_default_handler(e, w, &cb, &r));
    for (i = 0; i < 3; i++) caluna_world_step(e, w, 1.0 / 60);
    int before = r.calls;
    EXPECT_OK(e, caluna_world_remove_body(e, w, resting));
    CHECK(r.calls > before && r.removal == r.calls - before, "removing a touching body ran separate with isRemoval (%d)", r.calls - before);
    RECORDED(r.type, CALUNA_ERR_INVALID_ARGUMENT, "setting type");
    RECORDED(r.moment, CALUNA_ERR_INVALID_ARGUMENT, "setting moment");
    RECORDED(r.sleep, CALUNA_ERR_INVALID_ARGUMENT, "caluna_body_sleep");
    RECORDED(r.step, CALUNA_ERR_INVALID_ARGUMENT, "caluna_world_step");
    RECORDED(r.destroy, CALUNA_ERR_INVALID_ARGUMENT, "caluna_world_destroy");
    RECORDED(r.handler, CALUNA_ERR_INVALID_ARGUMENT, "setting a handler");
    RECORDED(r.add, CALUNA_OK, "adding a body (deferred)");
    EXPECT_OK(e, caluna_world_bodies(e, w, list, 8, &n));
    CHECK(n == 2 && list[1] == r.extra, "the body added inside is in the world once the removal returned (%zu)", n);
    caluna_point_hit hit;
    EXPECT_OK(e, caluna_world_nearest_point(e, w, -50, 50, 1, NULL, &hit));
    CHECK(hit.shape != 0, "and Chipmunk has it: a query finds it before any step");
    EXPECT_OK(e, caluna_world_step(e, w, 1.0 / 60));
    EXPECT_OK(e, caluna_world_add_body(e, w, resting));
    caluna_body_release(e, resting);
    caluna_body_release(e, r.extra);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* The clock: fixed steps, pause, a cap per frame                                           */

static void test_clock(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, 0, 0), capped = 0;
    caluna_world_options o = caluna_world_options_default();
    int i;
    for (i = 0; i < 60; i++) caluna_engine_step(e, 1.0 / 60);
    CHECK(wnum(e, w, "steps") == 120, "one second of 1/60 frames is 120 steps (%g)", wnum(e, w, "steps"));
    double ahead = wnum(e, w, "time") - 1;
    CHECK(ahead >= 0 && ahead < 1.0 / 120, "the simulation is at most one step ahead of the clock (%g)", ahead);
    CHECK(o.max_steps_per_frame == 16 && wnum(e, w, "maxStepsPerFrame") == 16, "the default cap: 16 steps a frame");
    EXPECT_OK(e, wset(e, w, "maxStepsPerFrame", caluna_number(0)));   /* w catches up whole seconds below */
    o.max_steps_per_frame = 4;
    o.step = 1.0 / 60;
    EXPECT_OK(e, caluna_world_create(e, &o, &capped));
    EXPECT_OK(e, caluna_engine_step(e, 1));
    CHECK(wnum(e, capped, "steps") == 4 && wnum(e, capped, "droppedSteps") == 56, "a cap of 4 steps drops the other 56 (%g, %g)",
          wnum(e, capped, "steps"), wnum(e, capped, "droppedSteps"));
    CHECK(wnum(e, capped, "step") == 1.0 / 60 && wnum(e, capped, "maxStepsPerFrame") == 4, "options read back as properties");
    EXPECT_OK(e, wset(e, w, "paused", caluna_bool(1)));
    EXPECT_OK(e, caluna_engine_step(e, 1));
    CHECK(wnum(e, w, "steps") == 240, "a paused world takes no steps (still %g)", wnum(e, w, "steps"));
    EXPECT_OK(e, caluna_world_destroy(e, capped));
    EXPECT_OK(e, caluna_engine_step(e, 1));
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Hostile calls: a status every time, never an abort                                       */

static void test_null_engine(void) {
    caluna_value v = caluna_number(1);
    caluna_vect out;
    caluna_point_hit hit;
    caluna_segment_hit seg;
    caluna_shape_filter f = caluna_shape_filter_all();
    uint64_t id = 0;
    size_t n = 0;
    const caluna_status bad = CALUNA_ERR_INVALID_ARGUMENT;
    EXPECT(NULL, caluna_world_create(NULL, NULL, &id), bad);
    EXPECT(NULL, caluna_world_destroy(NULL, 1), bad);
    EXPECT(NULL, caluna_world_get(NULL, 1, "gravity", &v), bad);
    EXPECT(NULL, caluna_world_set(NULL, 1, "gravity", &v), bad);
    EXPECT(NULL, caluna_world_step(NULL, 1, 0.1), bad);
    EXPECT(NULL, caluna_world_static_body(NULL, 1, &id), bad);
    EXPECT(NULL, caluna_world_add_body(NULL, 1, 1), bad);
    EXPECT(NULL, caluna_world_remove_body(NULL, 1, 1), bad);
    EXPECT(NULL, caluna_world_add_constraint(NULL, 1, 1), bad);
    EXPECT(NULL, caluna_world_remove_constraint(NULL, 1, 1), bad);
    EXPECT(NULL, caluna_world_bodies(NULL, 1, NULL, 0, &n), bad);
    EXPECT(NULL, caluna_world_constraints(NULL, 1, NULL, 0, &n), bad);
    EXPECT(NULL, caluna_body_create(NULL, CALUNA_BODY_DYNAMIC, 1, 1, &id), bad);
    EXPECT(NULL, caluna_body_retain(NULL, 1), bad);
    EXPECT(NULL, caluna_body_release(NULL, 1), bad);
    EXPECT(NULL, caluna_body_get(NULL, 1, "mass", &v), bad);
    EXPECT(NULL, caluna_body_set(NULL, 1, "mass", &v), bad);
    EXPECT(NULL, caluna_body_world(NULL, 1, &id), bad);
    EXPECT(NULL, caluna_body_apply_force_at_world_point(NULL, 1, 0, 0, 0, 0), bad);
    EXPECT(NULL, caluna_body_apply_force_at_local_point(NULL, 1, 0, 0, 0, 0), bad);
    EXPECT(NULL, caluna_body_apply_impulse_at_world_point(NULL, 1, 0, 0, 0, 0), bad);
    EXPECT(NULL, caluna_body_apply_impulse_at_local_point(NULL, 1, 0, 0, 0, 0), bad);
    EXPECT(NULL, caluna_body_local_to_world(NULL, 1, 0, 0, &out), bad);
    EXPECT(NULL, caluna_body_world_to_local(NULL, 1, 0, 0, &out), bad);
    EXPECT(NULL, caluna_body_velocity_at_world_point(NULL, 1, 0, 0, &out), bad);
    EXPECT(NULL, caluna_body_sleep(NULL, 1), bad);
    EXPECT(NULL, caluna_body_activate(NULL, 1), bad);
    EXPECT(NULL, caluna_body_set_velocity_update(NULL, 1, NULL, NULL), bad);
    EXPECT(NULL, caluna_body_set_position_update(NULL, 1, NULL, NULL), bad);
    EXPECT(NULL, caluna_body_update_velocity(NULL, 1, 0, 0, 1, 0.1), bad);
    EXPECT(NULL, caluna_body_update_position(NULL, 1, 0.1), bad);
    EXPECT(NULL, caluna_body_bind_layer(NULL, 1, 1, NULL), bad);
    EXPECT(NULL, caluna_body_unbind_layer(NULL, 1, 0), bad);
    EXPECT(NULL, caluna_body_add_circle(NULL, 1, 1, 0, 0, &id), bad);
    EXPECT(NULL, caluna_body_add_box(NULL, 1, 1, 1, 0, 0, 0, &id), bad);
    EXPECT(NULL, caluna_body_add_polygon(NULL, 1, NULL, 0, 0, &id), bad);
    EXPECT(NULL, caluna_body_add_segment(NULL, 1, 0, 0, 1, 1, 0, &id), bad);
    EXPECT(NULL, caluna_body_remove_shape(NULL, 1, 1), bad);
    EXPECT(NULL, caluna_body_shapes(NULL, 1, NULL, 0, &n), bad);
    EXPECT(NULL, caluna_shape_retain(NULL, 1), bad);
    EXPECT(NULL, caluna_shape_release(NULL, 1), bad);
    EXPECT(NULL, caluna_shape_get(NULL, 1, "friction", &v), bad);
    EXPECT(NULL, caluna_shape_set(NULL, 1, "friction", &v), bad);
    EXPECT(NULL, caluna_shape_body(NULL, 1, &id), bad);
    EXPECT(NULL, caluna_shape_get_filter(NULL, 1, &f), bad);
    EXPECT(NULL, caluna_shape_set_filter(NULL, 1, &f), bad);
    EXPECT(NULL, caluna_shape_collision_type(NULL, 1, &id), bad);
    EXPECT(NULL, caluna_shape_set_collision_type(NULL, 1, 1), bad);
    EXPECT(NULL, caluna_constraint_create(NULL, "pin", 1, 2, NULL, 0, &id), bad);
    EXPECT(NULL, caluna_constraint_retain(NULL, 1), bad);
    EXPECT(NULL, caluna_constraint_release(NULL, 1), bad);
    EXPECT(NULL, caluna_constraint_get(NULL, 1, "impulse", &v), bad);
    EXPECT(NULL, caluna_constraint_set(NULL, 1, "maxForce", &v), bad);
    EXPECT(NULL, caluna_constraint_bodies(NULL, 1, &id, &id), bad);
    EXPECT(NULL, caluna_world_set_collision_handler(NULL, 1, 1, 2, NULL, NULL), bad);
    EXPECT(NULL, caluna_world_set_wildcard_handler(NULL, 1, 1, NULL, NULL), bad);
    EXPECT(NULL, caluna_world_set_default_handler(NULL, 1, NULL, NULL), bad);
    EXPECT(NULL, caluna_arbiter_shapes(NULL, 1, &id, &id), bad);
    EXPECT(NULL, caluna_arbiter_bodies(NULL, 1, &id, &id), bad);
    EXPECT(NULL, caluna_arbiter_contact_points(NULL, 1, NULL, 0, &n), bad);
    EXPECT(NULL, caluna_arbiter_get(NULL, 1, "normal", &v), bad);
    EXPECT(NULL, caluna_arbiter_set(NULL, 1, "friction", &v), bad);
    EXPECT(NULL, caluna_world_nearest_point(NULL, 1, 0, 0, 1, NULL, &hit), bad);
    EXPECT(NULL, caluna_world_point_query(NULL, 1, 0, 0, 1, NULL, NULL, 0, &n), bad);
    EXPECT(NULL, caluna_world_segment_query_first(NULL, 1, 0, 0, 1, 1, 0, NULL, &seg), bad);
    EXPECT(NULL, caluna_world_segment_query(NULL, 1, 0, 0, 1, 1, 0, NULL, NULL, 0, &n), bad);
    EXPECT(NULL, caluna_world_bb_query(NULL, 1, 0, 0, 1, 1, NULL, NULL, 0, &n), bad);
    EXPECT(NULL, caluna_world_shape_query(NULL, 1, 1, NULL, 0, &n), bad);
    EXPECT(NULL, caluna_collision_type_named(NULL, &id), bad);
    EXPECT(NULL, caluna_collision_type_named("crate", NULL), bad);
    EXPECT(NULL, caluna_collision_type_named("", &id), bad);
    CHECK(id == 0, "failed calls leave their outputs zero");
}

/* NULL out, key, value and array pointers with a live engine and live ids. */
static void test_null_pointers(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, 0, 1);
    caluna_body b = 0, ground = 0;
    caluna_shape s = 0;
    caluna_constraint c = 0;
    caluna_value v = caluna_number(1), out = caluna_number(7);
    size_t n = 5;
    const caluna_status bad = CALUNA_ERR_INVALID_ARGUMENT;
    b = add_crate(e, w, 0, 0, 10, 10, 1, &s);
    caluna_world_static_body(e, w, &ground);
    caluna_constraint_create(e, "pivot", ground, b, NULL, 0, &c);
    EXPECT(e, caluna_world_create(e, NULL, NULL), bad);
    EXPECT(e, caluna_world_get(e, w, NULL, &out), bad);
    CHECK(out.type == CALUNA_TYPE_NIL, "a failed get sets *out to NIL");
    EXPECT(e, caluna_world_get(e, w, "gravity", NULL), bad);
    EXPECT(e, caluna_world_set(e, w, NULL, &v), bad);
    EXPECT(e, caluna_world_set(e, w, "gravity", NULL), bad);
    EXPECT(e, caluna_world_static_body(e, w, NULL), bad);
    EXPECT(e, caluna_world_bodies(e, w, NULL, 0, NULL), bad);
    EXPECT(e, caluna_world_bodies(e, w, NULL, 3, &n), bad);
    CHECK(n == 0, "a failed list sets *count to 0");
    EXPECT(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, 1, NULL), bad);
    EXPECT(e, caluna_body_get(e, b, NULL, &out), bad);
    EXPECT(e, caluna_body_set(e, b, "mass", NULL), bad);
    EXPECT(e, caluna_body_world(e, b, NULL), bad);
    EXPECT(e, caluna_body_local_to_world(e, b, 0, 0, NULL), bad);
    EXPECT(e, caluna_body_world_to_local(e, b, 0, 0, NULL), bad);
    EXPECT(e, caluna_body_velocity_at_world_point(e, b, 0, 0, NULL), bad);
    EXPECT(e, caluna_body_add_circle(e, b, 1, 0, 0, NULL), bad);
    EXPECT(e, caluna_body_add_box(e, b, 1, 1, 0, 0, 0, NULL), bad);
    EXPECT(e, caluna_body_add_segment(e, b, 0, 0, 1, 1, 0, NULL), bad);
    caluna_shape none = 5;
    EXPECT(e, caluna_body_add_polygon(e, b, NULL, 3, 0, &none), bad);
    CHECK(none == 0, "a failed add sets *out to 0");
    EXPECT(e, caluna_body_shapes(e, b, NULL, 1, &n), bad);
    EXPECT(e, caluna_shape_get(e, s, "friction", NULL), bad);
    EXPECT(e, caluna_shape_set(e, s, "friction", NULL), bad);
    EXPECT(e, caluna_shape_body(e, s, NULL), bad);
    EXPECT(e, caluna_shape_get_filter(e, s, NULL), bad);
    EXPECT(e, caluna_shape_set_filter(e, s, NULL), bad);
    EXPECT(e, caluna_shape_collision_type(e, s, NULL), bad);
    EXPECT(e, caluna_constraint_create(e, NULL, ground, b, NULL, 0, &c), bad);
    EXPECT(e, caluna_constraint_create(e, "pin", ground, b, NULL, 2, &c), bad);
    EXPECT(e, caluna_constraint_create(e, "pin", ground, b, NULL, 0, NULL), bad);
    EXPECT(e, caluna_constraint_get(e, c, "impulse", NULL), bad);
    EXPECT(e, caluna_constraint_set(e, c, "maxForce", NULL), bad);
    EXPECT(e, caluna_constraint_bodies(e, c, NULL, NULL), bad);
    EXPECT(e, caluna_world_nearest_point(e, w, 0, 0, 1, NULL, NULL), bad);
    EXPECT(e, caluna_world_segment_query_first(e, w, 0, 0, 1, 1, 0, NULL, NULL), bad);
    EXPECT(e, caluna_world_point_query(e, w, 0, 0, 1, NULL, NULL, 0, NULL), bad);
    EXPECT(e, caluna_world_point_query(e, w, 0, 0, 1, NULL, NULL, 1, &n), bad);
    EXPECT(e, caluna_world_segment_query(e, w, 0, 0, 1, 1, 0, NULL, NULL, 2, &n), bad);
    EXPECT(e, caluna_world_bb_query(e, w, 0, 0, 1, 1, NULL, NULL, 2, &n), bad);
    EXPECT(e, caluna_world_shape_query(e, w, s, NULL, 2, &n), bad);
    caluna_param p[1];
    p[0].key = NULL;
    p[0].value = caluna_number(1);
    EXPECT(e, caluna_constraint_create(e, "pin", ground, b, p, 1, &c), bad);
    p[0].key = "maxForce";
    p[0].value = caluna_string(NULL);
    EXPECT(e, caluna_constraint_create(e, "pin", ground, b, p, 1, &c), bad);
    caluna_constraint_release(e, c);
    caluna_engine_destroy(e);
}

static void test_bad_values(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, 0, 1), w2 = make_world(e, 0, 0, 1);
    caluna_body b = 0, ground = 0, loose = 0, s1 = 0, s2 = 0;
    caluna_shape s = 0;
    caluna_constraint c = 0;
    caluna_world_options o;
    caluna_world bad_world = 7;
    caluna_vect pts[300];
    const caluna_status bad = CALUNA_ERR_INVALID_ARGUMENT;
    int i;
    b = add_crate(e, w, 0, 0, 10, 10, 1, &s);
    caluna_world_static_body(e, w, &ground);

    /* World options and properties. */
    o = caluna_world_options_default();
    o.struct_size = 8;
    EXPECT(e, caluna_world_create(e, &o, &bad_world), bad);
    CHECK(bad_world == 0, "a failed create sets *out to 0");
    o = caluna_world_options_default();
    o.gravity_x = NAN;
    EXPECT(e, caluna_world_create(e, &o, &bad_world), bad);
    o = caluna_world_options_default();
    o.iterations = 0;
    EXPECT(e, caluna_world_create(e, &o, &bad_world), bad);
    o = caluna_world_options_default();
    o.step = 0;
    EXPECT(e, caluna_world_create(e, &o, &bad_world), bad);
    o = caluna_world_options_default();
    o.damping = 2;
    EXPECT(e, caluna_world_create(e, &o, &bad_world), bad);
    o = caluna_world_options_default();
    o.max_steps_per_frame = -1;
    EXPECT(e, caluna_world_create(e, &o, &bad_world), bad);
    EXPECT(e, wset(e, w, "gravity", caluna_point(1e300, 0)), bad);
    EXPECT(e, wset(e, w, "gravity", caluna_point(INFINITY, 0)), bad);
    EXPECT(e, wset(e, w, "iterations", caluna_number(2.5)), bad);
    EXPECT(e, wset(e, w, "steps", caluna_number(3)), bad);
    EXPECT(e, wset(e, w, "gravity", caluna_number(3)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, wset(e, w, "wind", caluna_number(3)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_world_step(e, w, NAN), bad);
    EXPECT(e, caluna_world_step(e, w, 0), bad);
    EXPECT(e, caluna_world_step(e, w, -1), bad);
    EXPECT(e, caluna_world_step(e, w, 1e9), bad);

    /* Bodies: masses ≤ 0, types, huge and non-finite values. */
    EXPECT(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, -1, 0, &loose), bad);
    EXPECT(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, NAN, 0, &loose), bad);
    EXPECT(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1e300, 0, &loose), bad);
    EXPECT(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, -5, &loose), bad);
    EXPECT(e, caluna_body_create(e, CALUNA_BODY_STATIC, 5, 0, &loose), bad);
    EXPECT(e, caluna_body_create(e, (caluna_body_type)7, 0, 0, &loose), bad);
    EXPECT(e, bset(e, b, "mass", caluna_number(0)), bad);
    EXPECT(e, bset(e, b, "mass", caluna_number(-3)), bad);
    EXPECT(e, bset(e, b, "mass", caluna_number(INFINITY)), bad);
    EXPECT(e, bset(e, b, "moment", caluna_number(0)), bad);
    EXPECT_OK(e, bset(e, b, "moment", caluna_number(INFINITY)));
    EXPECT(e, bset(e, ground, "mass", caluna_number(1)), bad);
    EXPECT(e, bset(e, ground, "type", caluna_string("dynamic")), bad);
    EXPECT(e, bset(e, b, "type", caluna_string("floating")), bad);
    EXPECT(e, bset(e, b, "position", caluna_point(NAN, 0)), bad);
    EXPECT(e, bset(e, b, "position", caluna_point(1.1e15, 0)), bad);
    EXPECT_OK(e, bset(e, b, "position", caluna_point(1e15, 0)));
    EXPECT_OK(e, bset(e, b, "position", caluna_point(0, 0)));
    EXPECT(e, bset(e, b, "velocity", caluna_point(0, -INFINITY)), bad);
    EXPECT(e, bset(e, b, "angle", caluna_number(1e300)), bad);
    EXPECT(e, bset(e, b, "kineticEnergy", caluna_number(1)), bad);
    EXPECT(e, bset(e, b, "mass", caluna_string("heavy")), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, bset(e, b, "colour", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_body_apply_force_at_world_point(e, b, NAN, 0, 0, 0), bad);
    EXPECT(e, caluna_body_apply_impulse_at_local_point(e, b, 0, 0, INFINITY, 0), bad);
    EXPECT(e, caluna_body_apply_force_at_world_point(e, b, 1e15, 0, 0, 0), CALUNA_OK);
    EXPECT(e, caluna_body_apply_force_at_world_point(e, b, 1e15, 0, 0, 0), bad);
    CHECK(bvec(e, b, "force").x == 0, "a force sum past ±1e15 is undone");
    EXPECT(e, caluna_body_local_to_world(e, b, NAN, 0, &pts[0]), bad);
    EXPECT(e, caluna_body_update_position(e, b, -1), bad);
    EXPECT(e, caluna_body_update_velocity(e, b, 0, 0, 2, 0.1), bad);
    EXPECT_OK(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, 0, 0, &loose));
    EXPECT(e, caluna_body_update_velocity(e, loose, 0, -10, 1, 0.1), bad);

    /* A dynamic body without mass stops the step, not the process. */
    EXPECT_OK(e, caluna_world_add_body(e, w2, loose));
    EXPECT(e, caluna_world_step(e, w2, 0.01), bad);
    EXPECT_OK(e, caluna_world_remove_body(e, w2, loose));

    /* Shapes. */
    EXPECT(e, caluna_body_add_circle(e, b, 0, 0, 0, &s), bad);
    EXPECT(e, caluna_body_add_circle(e, b, -1, 0, 0, &s), bad);
    EXPECT(e, caluna_body_add_circle(e, b, NAN, 0, 0, &s), bad);
    EXPECT(e, caluna_body_add_box(e, b, 0, 10, 0, 0, 0, &s), bad);
    EXPECT(e, caluna_body_add_box(e, b, 10, 10, -1, 0, 0, &s), bad);
    EXPECT(e, caluna_body_add_segment(e, b, 1, 1, 1, 1, 0, &s), bad);
    for (i = 0; i < 300; i++) {
        pts[i].x = i;
        pts[i].y = 2 * i;
    }
    EXPECT(e, caluna_body_add_polygon(e, b, pts, 3, 0, &s), bad); /* collinear */
    EXPECT(e, caluna_body_add_polygon(e, b, pts, 2, 0, &s), bad);
    EXPECT(e, caluna_body_add_polygon(e, b, pts, 300, 0, &s), bad);
    pts[1].x = 5;
    pts[1].y = 5;
    pts[2] = pts[0];
    EXPECT(e, caluna_body_add_polygon(e, b, pts, 3, 0, &s), bad); /* two points coincide */
    pts[2].x = 0;
    pts[2].y = 5;
    EXPECT_OK(e, caluna_body_add_polygon(e, b, pts, 3, 0, &s));
    EXPECT(e, sset(e, s, "friction", caluna_number(-1)), bad);
    EXPECT(e, sset(e, s, "elasticity", caluna_number(11)), bad);
    EXPECT(e, sset(e, s, "collisionType", caluna_number(-1)), bad);
    EXPECT(e, sset(e, s, "collisionType", caluna_number(1.5)), bad);
    EXPECT(e, sset(e, s, "area", caluna_number(1)), bad);
    EXPECT(e, sset(e, s, "sensor", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_shape_set_collision_type(e, s, (caluna_collision_type)1 << 50), bad);
    EXPECT(e, caluna_shape_set_collision_type(e, s, ((caluna_collision_type)1 << 48) + 60000), bad);
    caluna_collision_type t1 = 0, t2 = 0;
    EXPECT_OK(NULL, caluna_collision_type_named("wall", &t1));
    EXPECT_OK(NULL, caluna_collision_type_named("wall", &t2));
    CHECK(t1 == t2 && t1 >= ((caluna_collision_type)1 << 48), "a name always gives the same number, clear of plain ones");
    EXPECT(e, caluna_body_remove_shape(e, ground, s), bad);

    /* Membership. */
    EXPECT(e, caluna_world_add_body(e, w, b), bad);
    EXPECT(e, caluna_world_add_body(e, w2, b), bad);
    EXPECT(e, caluna_world_add_body(e, w, ground), bad);
    EXPECT(e, caluna_world_remove_body(e, w, ground), bad);
    EXPECT(e, caluna_world_remove_body(e, w2, b), bad);
    caluna_body_create(e, CALUNA_BODY_STATIC, 0, 0, &s1);
    caluna_body_create(e, CALUNA_BODY_STATIC, 0, 0, &s2);
    caluna_world_add_body(e, w, s1);
    caluna_world_add_body(e, w, s2);
    caluna_param apart[1];
    apart[0].key = "anchorB";
    apart[0].value = caluna_point(5, 0);
    EXPECT_OK(e, caluna_constraint_create(e, "pin", s1, s2, apart, 1, &c));
    EXPECT(e, caluna_world_add_constraint(e, w, c), bad);
    caluna_constraint_release(e, c);
    EXPECT(e, caluna_constraint_create(e, "pin", b, b, NULL, 0, &c), bad);
    EXPECT(e, caluna_constraint_create(e, "rope", ground, b, NULL, 0, &c), bad);
    caluna_param p[2];
    p[0].key = "anchorA";
    p[0].value = caluna_point(5, 0); /* a pin of length 0 makes Chipmunk warn on stderr */
    p[1].key = "anchorA";
    p[1].value = caluna_point(1, 0);
    EXPECT(e, caluna_constraint_create(e, "pin", ground, b, p, 2, &c), bad);
    p[1].key = "stiffness";
    EXPECT(e, caluna_constraint_create(e, "pin", ground, b, p, 2, &c), CALUNA_ERR_UNKNOWN_KEY);
    p[1].key = "distance";
    p[1].value = caluna_point(1, 0);
    EXPECT(e, caluna_constraint_create(e, "pin", ground, b, p, 2, &c), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_constraint_create(e, "pin", ground, b, p, 1000, &c), bad);
    p[0].key = "ratio";
    p[0].value = caluna_number(0);
    EXPECT(e, caluna_constraint_create(e, "gear", ground, b, p, 1, &c), bad);
    EXPECT_OK(e, caluna_constraint_create(e, "pin", ground, b, apart, 1, &c));
    EXPECT(e, caluna_world_remove_constraint(e, w, c), bad);
    EXPECT_OK(e, caluna_world_add_constraint(e, w, c));
    EXPECT(e, caluna_world_add_constraint(e, w, c), bad);
    EXPECT(e, caluna_world_add_constraint(e, w2, c), bad);
    EXPECT(e, cset(e, c, "maxForce", caluna_number(-1)), bad);
    EXPECT(e, cset(e, c, "stiffness", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, cset(e, c, "impulse", caluna_number(1)), bad);
    caluna_constraint_release(e, c);

    /* Queries with bad numbers. */
    caluna_point_hit hit;
    size_t n = 0;
    EXPECT(e, caluna_world_nearest_point(e, w, NAN, 0, 1, NULL, &hit), bad);
    EXPECT(e, caluna_world_nearest_point(e, w, 0, 0, -1, NULL, &hit), bad);
    EXPECT(e, caluna_world_point_query(e, w, 0, 0, 1e300, NULL, NULL, 0, &n), bad);
    EXPECT(e, caluna_world_segment_query(e, w, 0, 0, INFINITY, 0, 0, NULL, NULL, 0, &n), bad);
    EXPECT(e, caluna_world_segment_query(e, w, 0, 0, 1, 0, -2, NULL, NULL, 0, &n), bad);
    EXPECT(e, caluna_world_bb_query(e, w, 0, 0, NAN, 1, NULL, NULL, 0, &n), bad);
    EXPECT(e, caluna_world_bb_query(e, w, 1e15, 0, 1e15, 1, NULL, NULL, 0, &n), bad);

    /* Layer mappings. */
    caluna_layer l = add_layer(e, 10, 10);
    caluna_layer_mapping m = caluna_layer_mapping_identity();
    m.scale = 0;
    EXPECT(e, caluna_body_bind_layer(e, b, l, &m), bad);
    m = caluna_layer_mapping_identity();
    m.origin.x = NAN;
    EXPECT(e, caluna_body_bind_layer(e, b, l, &m), bad);
    m = caluna_layer_mapping_identity();
    m.origin.y = 300;
    m.flip_y = 1;
    bset(e, b, "position", caluna_point(10, 20));
    EXPECT_OK(e, caluna_body_bind_layer(e, b, l, &m));
    caluna_vect lp = lvec(e, l, "position");
    CHECK(lp.x == 10 && lp.y == 280, "a flipped mapping puts the layer at (10, 300 − 20) (%g, %g)", lp.x, lp.y);
    caluna_body_release(e, loose);
    caluna_body_release(e, s1);
    caluna_body_release(e, s2);
    caluna_engine_destroy(e);
}

static void test_stale_ids(void) {
    caluna_engine *e = make_engine(), *other = make_engine();
    caluna_world w = make_world(e, 0, -10, 1), ow = make_world(other, 0, 0, 1), dead_world = 0;
    caluna_body b = 0, ground = 0, gone = 0, ob = 0, survivor = 0, wall_body = 0;
    caluna_shape s = 0, wall = 0, held_wall = 0, removed = 0;
    caluna_constraint tie = 0;
    caluna_layer l = add_layer(e, 10, 10), root = 0;
    caluna_value v = caluna_number(1);
    const caluna_status stale = CALUNA_ERR_STALE_HANDLE;
    size_t n = 0;
    b = add_crate(e, w, 0, 0, 10, 10, 1, &s);
    ob = add_crate(other, ow, 0, 0, 10, 10, 1, NULL);
    caluna_world_static_body(e, w, &ground);
    caluna_root_layer(e, &root);

    /* 0, ids of another kind, ids of another engine. */
    EXPECT(e, caluna_body_get(e, 0, "mass", &v), stale);
    EXPECT(e, caluna_world_step(e, 0, 0.1), stale);
    EXPECT(e, caluna_body_get(e, l, "mass", &v), stale);
    EXPECT(e, caluna_body_get(e, s, "mass", &v), stale);
    EXPECT(e, caluna_shape_get(e, b, "friction", &v), stale);
    EXPECT(e, caluna_world_step(e, b, 0.1), stale);
    EXPECT(e, caluna_constraint_get(e, w, "impulse", &v), stale);
    EXPECT(e, caluna_layer_get(e, b, "position", &v), stale);
    EXPECT(e, caluna_body_bind_layer(e, b, s, NULL), stale);
    EXPECT(e, caluna_body_get(e, ob, "mass", &v), stale);
    EXPECT(e, caluna_world_add_body(e, w, ob), stale);
    EXPECT(e, caluna_world_step(e, ow, 0.1), stale);
    EXPECT(e, caluna_arbiter_get(e, 12345, "normal", &v), stale);
    EXPECT(e, caluna_arbiter_get(e, b, "normal", &v), stale);
    EXPECT(e, caluna_body_get(e, 0xFFFFFFFFFFFFFFFFull, "mass", &v), stale);

    /* A released body that nothing holds dies; its id goes stale. */
    EXPECT_OK(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, 1, &gone));
    EXPECT_OK(e, caluna_body_retain(e, gone));
    EXPECT_OK(e, caluna_body_release(e, gone));
    EXPECT_OK(e, caluna_body_get(e, gone, "mass", &v));
    EXPECT_OK(e, caluna_body_release(e, gone));
    EXPECT(e, caluna_body_get(e, gone, "mass", &v), stale);
    EXPECT(e, caluna_body_release(e, gone), stale);
    EXPECT(e, caluna_body_release(e, b), CALUNA_ERR_INVALID_ARGUMENT); /* the world holds it, we do not */

    /* A shape taken off its body: dead unless held; held, readable but not changeable. */
    EXPECT_OK(e, caluna_body_add_circle(e, b, 2, 0, 0, &removed));
    EXPECT_OK(e, caluna_shape_retain(e, removed));
    EXPECT_OK(e, caluna_body_remove_shape(e, b, removed));
    EXPECT(e, caluna_body_remove_shape(e, b, removed), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_shape_get(e, removed, "radius", &v));
    CHECK(v.u.number == 2, "a held shape off its body can be read");
    EXPECT(e, sset(e, removed, "friction", caluna_number(1)), stale);
    caluna_body owner = 9;
    EXPECT_OK(e, caluna_shape_body(e, removed, &owner));
    CHECK(owner == 0, "it has no body");
    EXPECT_OK(e, caluna_shape_release(e, removed));
    EXPECT(e, caluna_shape_get(e, removed, "radius", &v), stale);

    /* Destroying a world: its static body and walls go stale, its bodies live on. */
    EXPECT_OK(e, caluna_body_add_segment(e, ground, 0, 0, 100, 0, 1, &wall));
    EXPECT_OK(e, caluna_body_add_segment(e, ground, 0, 10, 100, 10, 1, &held_wall));
    EXPECT_OK(e, caluna_shape_retain(e, held_wall));
    EXPECT_OK(e, caluna_body_retain(e, ground));
    EXPECT_OK(e, caluna_body_retain(e, b));
    EXPECT_OK(e, caluna_constraint_create(e, "pivot", ground, b, NULL, 0, &tie));
    EXPECT_OK(e, caluna_world_add_constraint(e, w, tie));
    EXPECT_OK(e, caluna_world_destroy(e, w));
    EXPECT(e, caluna_world_destroy(e, w), stale);
    EXPECT(e, caluna_world_get(e, w, "gravity", &v), stale);
    EXPECT(e, caluna_world_step(e, w, 0.1), stale);
    EXPECT(e, caluna_world_static_body(e, w, &wall_body), stale);
    EXPECT(e, caluna_body_get(e, ground, "position", &v), stale);
    EXPECT(e, bset(e, ground, "position", caluna_point(1, 1)), stale);
    EXPECT(e, caluna_body_add_circle(e, ground, 1, 0, 0, &s), stale);
    EXPECT(e, caluna_body_local_to_world(e, ground, 0, 0, &(caluna_vect){ 0, 0 }), stale);
    EXPECT(e, caluna_body_shapes(e, ground, NULL, 0, &n), stale);
    EXPECT(e, caluna_constraint_get(e, tie, "maxForce", &v), stale);
    EXPECT(e, cset(e, tie, "maxForce", caluna_number(5)), stale);
    EXPECT(e, sset(e, wall, "friction", caluna_number(1)), stale);
    EXPECT(e, sset(e, held_wall, "friction", caluna_number(1)), stale);
    EXPECT_OK(e, caluna_shape_body(e, held_wall, &owner));
    CHECK(owner == 0, "a wall of a destroyed world has no body");
    EXPECT_OK(e, caluna_shape_release(e, held_wall));
    EXPECT_OK(e, caluna_body_release(e, ground)); /* a reference to a dead static body can still be dropped */
    EXPECT_OK(e, caluna_constraint_release(e, tie));
    EXPECT_OK(e, caluna_body_world(e, b, &dead_world));
    CHECK(dead_world == 0, "a body of a destroyed world is in no world");
    EXPECT_OK(e, caluna_body_get(e, b, "position", &v));
    EXPECT_OK(e, bset(e, b, "mass", caluna_number(3)));
    caluna_world fresh = make_world(e, 0, -10, 1);
    EXPECT_OK(e, caluna_world_add_body(e, fresh, b));
    EXPECT_OK(e, caluna_world_step(e, fresh, 0.1));
    survivor = b;
    CHECK(bvec(e, survivor, "velocity").y < 0, "it falls in its new world");
    EXPECT_OK(e, caluna_body_release(e, b));

    /* Ids of a destroyed engine are foreign to a new one. */
    caluna_engine_destroy(other);
    caluna_engine *third = make_engine();
    EXPECT(third, caluna_body_get(third, ob, "mass", &v), stale);
    EXPECT(third, caluna_world_step(third, ow, 0.1), stale);
    EXPECT(NULL, caluna_world_step(other, ow, 0.1), stale);
    caluna_engine_destroy(third);
    caluna_engine_destroy(e);
}

/* ---------------------------------------------------------------------------------------- */
/* Caps (issue #20): Chipmunk crashes when its memory runs out, so a world refuses what      */
/* would pass one of its caps, before Chipmunk allocates                                     */

/* The process's resident memory in KiB (VmRSS), or -1. */
static long resident_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) if (strncmp(line, "VmRSS:", 6) == 0) kib = atol(line + 6);
    fclose(f);
    return kib;
}

/* The memory bound of the pile-up below, in KiB. Under AddressSanitizer (scripts/sanitize)
 * every allocation is padded with redzones and freed memory waits in a 256 MiB quarantine. */
#if defined(__SANITIZE_ADDRESS__)
#define PILE_BOUND_KIB (2 * 160 * 1024 + 256 * 1024)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PILE_BOUND_KIB (2 * 160 * 1024 + 256 * 1024)
#endif
#endif
#ifndef PILE_BOUND_KIB
#define PILE_BOUND_KIB (160 * 1024)
#endif

static void test_caps(void) {
    caluna_engine *e = make_engine();
    caluna_world w = make_world(e, 0, -1000, 1);
    CHECK(wnum(e, w, "maxBodies") == 20000 && wnum(e, w, "maxShapes") == 40000 && wnum(e, w, "maxConstraints") == 40000
          && wnum(e, w, "maxContactPairs") == 100000 && wnum(e, w, "maxStepsPerFrame") == 16,
          "trusted defaults: 20000 bodies, 40000 shapes, 40000 constraints, 100000 contact pairs, 16 steps a frame");

    /* 5,000 boxes at one point: every pair overlaps. n boxes make n(n − 1)/2 pairs, so the
     * 448th (100,128 pairs) is refused, and every later one, before Chipmunk allocates. */
    long before = resident_kib();
    int added = 0, refused = 0, other = 0;
    caluna_status first_refusal = CALUNA_OK;
    for (int i = 0; i < 5000; i++) {
        caluna_body b = 0;
        caluna_shape s = 0;
        caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, 0, &b);
        caluna_body_add_box(e, b, 10, 10, 0, 0, 0, &s);
        caluna_status st = caluna_world_add_body(e, w, b);
        if (st == CALUNA_OK) added++;
        else if (st == CALUNA_ERR_OUT_OF_MEMORY) {
            if (refused++ == 0) {
                first_refusal = st;
                CHECK(strstr(caluna_last_error(e), "would make 447 more pairs") != NULL
                      && strstr(caluna_last_error(e), "maxContactPairs (100000") != NULL,
                      "the 448th coincident box: %s", caluna_last_error(e));
            }
        } else other++;
        caluna_body_release(e, b);
    }
    CHECK(added == 447 && refused == 4553 && other == 0 && first_refusal == CALUNA_ERR_OUT_OF_MEMORY,
          "5000 coincident boxes: 447 added, 4553 refused with OUT_OF_MEMORY (got %d, %d, %d other)", added, refused, other);
    EXPECT_OK(e, caluna_world_step(e, w, 1.0 / 120));   /* 99,681 pairs: within the cap */
    long grown = resident_kib() - before;
    CHECK(before > 0 && grown < PILE_BOUND_KIB, "memory stays bounded: the pile and its step took %ld KiB (< %d KiB)",
          grown, PILE_BOUND_KIB);
    EXPECT_OK(e, caluna_world_destroy(e, w));

    /* A pile-up step: 1,000 boxes in a row (no pair), then moved to one point. */
    w = make_world(e, 0, 0, 0);
    caluna_body row[1000];
    for (int i = 0; i < 1000; i++) row[i] = add_crate(e, w, i * 20.0, 0, 10, 10, 1, NULL);
    EXPECT_OK(e, caluna_engine_step(e, 1.0 / 60));
    CHECK(wnum(e, w, "steps") == 2, "1000 boxes apart: 2 steps a frame");
    for (int i = 0; i < 1000; i++) bset(e, row[i], "position", caluna_point(0, 0));
    EXPECT(e, caluna_world_step(e, w, 1.0 / 120), CALUNA_ERR_OUT_OF_MEMORY);
    CHECK(strstr(caluna_last_error(e), "the physics world was not stepped: more than 100000 pairs") != NULL,
          "the step is refused: %s", caluna_last_error(e));
    EXPECT(e, caluna_engine_step(e, 1.0 / 60), CALUNA_ERR_OUT_OF_MEMORY);
    CHECK(wnum(e, w, "steps") == 2 && wnum(e, w, "droppedSteps") == 0, "no step ran; the frame's time stays owed");
    for (int i = 0; i < 1000; i++) bset(e, row[i], "position", caluna_point(i * 20.0, 0));
    EXPECT_OK(e, caluna_engine_step(e, 1.0 / 60));
    CHECK(wnum(e, w, "steps") == 6, "apart again: the owed 2 steps and the frame's 2");

    /* maxStepsPerFrame: a frame 10^6 s long runs 16 steps and drops the rest. */
    double steps = wnum(e, w, "steps");
    EXPECT_OK(e, caluna_engine_advance(e, 1e6));
    CHECK(wnum(e, w, "steps") == steps + 16, "a 10^6 s frame: 16 steps");
    /* The clock was at 3/60 s (6 steps): 10^6 · 120 − 6 steps due, 16 taken. */
    CHECK(wnum(e, w, "droppedSteps") == 119999978, "the rest dropped: %.0f", wnum(e, w, "droppedSteps"));
    EXPECT_OK(e, caluna_world_destroy(e, w));

    /* The other caps, lowered by key. */
    w = make_world(e, 0, 0, 1);
    EXPECT_OK(e, wset(e, w, "maxBodies", caluna_number(2)));
    EXPECT_OK(e, wset(e, w, "maxConstraints", caluna_number(1)));
    EXPECT_OK(e, wset(e, w, "maxShapes", caluna_number(3)));
    EXPECT(e, wset(e, w, "maxShapes", caluna_number(-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, wset(e, w, "maxContactPairs", caluna_number(2e9)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, wset(e, w, "maxBodies", caluna_string("many")), CALUNA_ERR_TYPE_MISMATCH);
    caluna_body a = add_crate(e, w, 0, 0, 10, 10, 1, NULL);
    caluna_body b = add_crate(e, w, 50, 0, 10, 10, 1, NULL);
    caluna_body c = 0;
    caluna_shape s = 0;
    caluna_body_create(e, CALUNA_BODY_DYNAMIC, 1, 0, &c);
    EXPECT(e, caluna_world_add_body(e, w, c), CALUNA_ERR_OUT_OF_MEMORY);
    CHECK(strstr(caluna_last_error(e), "holds 2 bodies, its maxBodies") != NULL, "maxBodies: %s", caluna_last_error(e));
    caluna_body_release(e, c);
    EXPECT_OK(e, caluna_body_add_circle(e, a, 1, 20, 0, &s));
    EXPECT(e, caluna_body_add_circle(e, a, 1, 30, 0, &s), CALUNA_ERR_OUT_OF_MEMORY);
    CHECK(strstr(caluna_last_error(e), "holds 3 shapes and its maxShapes is 3") != NULL, "maxShapes: %s", caluna_last_error(e));
    caluna_constraint j1 = 0, j2 = 0;
    caluna_constraint_create(e, "pivot", a, b, NULL, 0, &j1);
    caluna_constraint_create(e, "simpleMotor", a, b, NULL, 0, &j2);
    EXPECT_OK(e, caluna_world_add_constraint(e, w, j1));
    EXPECT(e, caluna_world_add_constraint(e, w, j2), CALUNA_ERR_OUT_OF_MEMORY);
    CHECK(strstr(caluna_last_error(e), "holds 1 constraints, its maxConstraints") != NULL, "maxConstraints: %s",
          caluna_last_error(e));
    caluna_constraint_release(e, j1);
    caluna_constraint_release(e, j2);
    EXPECT_OK(e, caluna_world_step(e, w, 1.0 / 120));
    caluna_engine_destroy(e);
}

int main(void) {
    test_banner();
    test_falling_crate();
    test_crate_box();
    test_handler_kinds();
    test_queries();
    test_constraints();
    test_update_callbacks();
    test_sleep();
    test_callbacks_meddling();
    test_removal_callbacks();
    test_clock();
    test_null_engine();
    test_null_pointers();
    test_bad_values();
    test_stale_ids();
    test_caps();
    return finish();
}

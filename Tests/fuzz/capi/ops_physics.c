/* Ops: physics — worlds, bodies, shapes, constraints, collision handlers and arbiters,
 * queries (caluna.h "Physics"). */
#include "capi_fuzz.h"

static const char *const world_keys[] = { "gravity", "iterations", "damping", "idleSpeedThreshold", "sleepTimeThreshold",
    "collisionSlop", "collisionBias", "collisionPersistence", "step", "maxStepsPerFrame", "paused", "time", "steps",
    "droppedSteps" };
static const char *const body_keys[] = { "type", "mass", "moment", "position", "angle", "velocity", "angularVelocity",
    "force", "torque", "centerOfGravity", "kineticEnergy", "sleeping" };
static const char *const shape_keys[] = { "friction", "elasticity", "surfaceVelocity", "sensor", "collisionType", "mass",
    "density", "area", "radius", "type", "boundingBox" };
static const char *const constraint_kinds[] = { "pin", "slide", "pivot", "groove", "dampedSpring", "dampedRotarySpring",
    "rotaryLimit", "ratchet", "gear", "simpleMotor", "motor" };
static const char *const constraint_keys[] = { "anchorA", "anchorB", "distance", "min", "max", "pivot", "grooveA",
    "grooveB", "restLength", "stiffness", "damping", "restAngle", "phase", "ratchet", "angle", "ratio", "rate",
    "maxForce", "maxBias", "errorBias", "collideBodies", "type", "impulse" };
static const char *const arbiter_keys[] = { "normal", "count", "isFirstContact", "isRemoval", "totalImpulse",
    "totalKineticEnergy", "restitution", "friction", "surfaceVelocity" };
static const char *const collision_names[] = { "crate", "wall", "ball" };   /* a fixed set: names are process-wide */

/* A world's fixed step and iterations set how much work one second of clock is; a step of
 * 1e-9 s stepped by the host's frames is Tests/hostile/pending/time_physics_frame. */
static caluna_value world_value(const char *key) {
    if (key && (strcmp(key, "step") == 0 || strcmp(key, "iterations") == 0)) {
        static const double v[] = { 1.0 / 120, 1.0 / 60, 0.5, 1, 10, 0, -1, NAN, 2, 20000, 3.5 };
        return caluna_number(v[u8() % LEN(v)]);
    }
    return VALUE();
}
static caluna_world_options *world_options(void) {
    static union { caluna_world_options o; uint8_t room[256]; } w;
    static const uint32_t sizes[] = { sizeof(caluna_world_options), 71, 0, 200 };
    if (u8() < 32) return NULL;
    memset(&w, 0, sizeof w);
    w.o = caluna_world_options_default();
    w.o.struct_size = sizes[u8() % LEN(sizes)];
    if (u8() < 128) { w.o.gravity_x = NUM(); w.o.gravity_y = NUM(); }
    if (u8() < 64) w.o.iterations = INT(20);
    if (u8() < 64) w.o.damping = NUM();
    if (u8() < 64) w.o.sleep_time_threshold = NUM();
    if (u8() < 64) w.o.collision_slop = NUM();
    if (u8() < 64) { static const double steps[] = { 1.0 / 60, 0.5, 0, -1, NAN, 2 }; w.o.step = steps[u8() % LEN(steps)]; }
    if (u8() < 64) w.o.max_steps_per_frame = INT(8);
    w.o.paused = u8() % 4 == 0;
    return &w.o;
}
static caluna_shape_filter *filter(void) {
    static caluna_shape_filter f;
    if (u8() < 64) return NULL;
    f.group = u8() < 200 ? u8() % 3 : u64();
    f.categories = u8() < 200 ? 0xFFFFFFFFu : u32();
    f.mask = u8() < 200 ? 0xFFFFFFFFu : u32();
    return &f;
}
static caluna_collision_type collision_type(void) {
    uint8_t b = u8();
    if (b < 160) return b % 4;
    caluna_collision_type t = 0;
    if (b < 200 && caluna_collision_type_named(collision_names[b % LEN(collision_names)], &t) == CALUNA_OK) return t;
    return b < 224 ? (1ull << 48) + (b % 4) : u64();
}

/* ---- Worlds ---- */

OP(caluna_world_create) { caluna_engine *e = E(); caluna_world_options *o = world_options(); return fz_done(caluna_world_create(e, o, OUT(SLOT(K_WORLD)))); }
OP(caluna_world_destroy) { caluna_engine *e = E(); return fz_done(caluna_world_destroy(e, ID(K_WORLD))); }
GET_OP(caluna_world_get, K_WORLD, NAME(world_keys, LEN(world_keys)))
OP(caluna_world_set) {
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    const char *k = NAME(world_keys, LEN(world_keys));
    caluna_value v = world_value(k);
    return fz_done(caluna_world_set(e, w, k, IN(&v)));
}
OP(caluna_world_step) {
    static const double dts[] = { 1.0 / 60, 1.0 / 120, 0.5, 10, 0, -1, 11, NAN, INFINITY };
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    return fz_done(caluna_world_step(e, w, dts[u8() % LEN(dts)]));
}
OP(caluna_world_static_body) { caluna_engine *e = E(); uint64_t w = ID(K_WORLD); return fz_done(caluna_world_static_body(e, w, OUT(SLOT(K_BODY)))); }
OP(caluna_world_add_body) { caluna_engine *e = E(); uint64_t w = ID(K_WORLD); return fz_done(caluna_world_add_body(e, w, ID(K_BODY))); }
OP(caluna_world_remove_body) { caluna_engine *e = E(); uint64_t w = ID(K_WORLD); return fz_done(caluna_world_remove_body(e, w, ID(K_BODY))); }
OP(caluna_world_add_constraint) { caluna_engine *e = E(); uint64_t w = ID(K_WORLD); return fz_done(caluna_world_add_constraint(e, w, ID(K_CONSTRAINT))); }
OP(caluna_world_remove_constraint) { caluna_engine *e = E(); uint64_t w = ID(K_WORLD); return fz_done(caluna_world_remove_constraint(e, w, ID(K_CONSTRAINT))); }
/* A list call: out may be NULL only with capacity 0 (else refused); it never holds more. */
#define LIST_OP(fn, idkind, type)                                                               \
    OP(fn) {                                                                                    \
        static type out[8];                                                                     \
        size_t count;                                                                           \
        int with_null;                                                                          \
        caluna_engine *e = E();                                                                 \
        uint64_t id = ID(idkind);                                                               \
        size_t cap = COUNT(LEN(out), &with_null);                                               \
        return fz_done(fn(e, id, with_null ? NULL : out, cap, OUT(&count)));                             \
    }
LIST_OP(caluna_world_bodies, K_WORLD, caluna_body)
LIST_OP(caluna_world_constraints, K_WORLD, caluna_constraint)

/* ---- Bodies ---- */

static double mass(void) {
    static const double v[] = { 1, 0, 100, 1e-9, 1e15, 1e16, -1, NAN, INFINITY, 1e30, 5e-10 };
    return v[u8() % LEN(v)];
}
OP(caluna_body_create) {
    caluna_engine *e = E();
    caluna_body_type t = (caluna_body_type)((int)(u8() % 5) - 1);
    double m = mass(), i = mass();
    return fz_done(caluna_body_create(e, t, m, i, OUT(SLOT(K_BODY))));
}
OP(caluna_body_retain) { caluna_engine *e = E(); return fz_done(caluna_body_retain(e, ID(K_BODY))); }
OP(caluna_body_release) { caluna_engine *e = E(); return fz_done(caluna_body_release(e, ID(K_BODY))); }
GET_OP(caluna_body_get, K_BODY, NAME(body_keys, LEN(body_keys)))
OP(caluna_body_set) { caluna_engine *e = E(); uint64_t b = ID(K_BODY); const char *k = NAME(body_keys, LEN(body_keys)); caluna_value v = VALUE(); return fz_done(caluna_body_set(e, b, k, IN(&v))); }
OP(caluna_body_world) { caluna_engine *e = E(); uint64_t b = ID(K_BODY); return fz_done(caluna_body_world(e, b, OUT(SLOT(K_WORLD)))); }
#define FORCE_OP(fn) OP(fn) { caluna_engine *e = E(); uint64_t b = ID(K_BODY); double p[4] = { NUM(), NUM(), NUM(), NUM() }; return fz_done(fn(e, b, p[0], p[1], p[2], p[3])); }
FORCE_OP(caluna_body_apply_force_at_world_point)
FORCE_OP(caluna_body_apply_force_at_local_point)
FORCE_OP(caluna_body_apply_impulse_at_world_point)
FORCE_OP(caluna_body_apply_impulse_at_local_point)
#define VECT_OP(fn) OP(fn) { caluna_vect v; caluna_engine *e = E(); uint64_t b = ID(K_BODY); double x = NUM(), y = NUM(); return fz_done(fn(e, b, x, y, OUT(&v))); }
VECT_OP(caluna_body_local_to_world)
VECT_OP(caluna_body_world_to_local)
VECT_OP(caluna_body_velocity_at_world_point)
OP(caluna_body_sleep) { caluna_engine *e = E(); return fz_done(caluna_body_sleep(e, ID(K_BODY))); }
OP(caluna_body_activate) { caluna_engine *e = E(); return fz_done(caluna_body_activate(e, ID(K_BODY))); }
OP(caluna_body_set_velocity_update) { caluna_engine *e = E(); uint64_t b = ID(K_BODY); caluna_velocity_update_callback cb = CB_VELOCITY(); return fz_done(caluna_body_set_velocity_update(e, b, cb, USER(0))); }
OP(caluna_body_set_position_update) { caluna_engine *e = E(); uint64_t b = ID(K_BODY); caluna_position_update_callback cb = CB_POSITION(); return fz_done(caluna_body_set_position_update(e, b, cb, USER(0))); }
OP(caluna_body_update_velocity) {
    caluna_engine *e = E();
    uint64_t b = ID(K_BODY);
    double p[4] = { NUM(), NUM(), u8() / 255.0, u8() < 200 ? 1.0 / 60 : NUM() };
    return fz_done(caluna_body_update_velocity(e, b, p[0], p[1], p[2], p[3]));
}
OP(caluna_body_update_position) { caluna_engine *e = E(); uint64_t b = ID(K_BODY); return fz_done(caluna_body_update_position(e, b, u8() < 200 ? 1.0 / 60 : NUM())); }
OP(caluna_body_bind_layer) {
    static caluna_layer_mapping m;
    caluna_engine *e = E();
    uint64_t b = ID(K_BODY), l = ID(K_LAYER);
    m = caluna_layer_mapping_identity();
    if (u8() < 128) { m.origin.x = NUM(); m.origin.y = NUM(); m.scale = NUM(); m.flip_y = (int8_t)u8(); m.rotates = (int8_t)u8(); }
    return fz_done(caluna_body_bind_layer(e, b, l, u8() < 64 ? NULL : &m));
}
OP(caluna_body_unbind_layer) { caluna_engine *e = E(); uint64_t b = ID(K_BODY); return fz_done(caluna_body_unbind_layer(e, b, ID(K_LAYER))); }

/* ---- Shapes ---- */

OP(caluna_body_add_circle) {
    caluna_engine *e = E();
    uint64_t b = ID(K_BODY);
    double r = SMALL(), x = NUM(), y = NUM();
    return fz_done(caluna_body_add_circle(e, b, r, x, y, OUT(SLOT(K_SHAPE))));
}
OP(caluna_body_add_box) {
    caluna_engine *e = E();
    uint64_t b = ID(K_BODY);
    double p[5] = { SMALL(), SMALL(), SMALL(), NUM(), NUM() };
    return fz_done(caluna_body_add_box(e, b, p[0], p[1], p[2], p[3], p[4], OUT(SLOT(K_SHAPE))));
}
OP(caluna_body_add_polygon) {
    static caluna_vect pts[300];
    int with_null;
    caluna_engine *e = E();
    uint64_t b = ID(K_BODY);
    size_t n = COUNT(LEN(pts), &with_null);
    for (size_t i = 0; i < n && i < LEN(pts); i++) { pts[i].x = i < 16 ? SMALL() : (double)(i % 17); pts[i].y = i < 16 ? SMALL() : (double)(i % 13); }
    double r = SMALL();
    return fz_done(caluna_body_add_polygon(e, b, with_null ? NULL : pts, n, r, OUT(SLOT(K_SHAPE))));
}
OP(caluna_body_add_segment) {
    caluna_engine *e = E();
    uint64_t b = ID(K_BODY);
    double p[5] = { NUM(), NUM(), NUM(), NUM(), SMALL() };
    return fz_done(caluna_body_add_segment(e, b, p[0], p[1], p[2], p[3], p[4], OUT(SLOT(K_SHAPE))));
}
OP(caluna_body_remove_shape) { caluna_engine *e = E(); uint64_t b = ID(K_BODY); return fz_done(caluna_body_remove_shape(e, b, ID(K_SHAPE))); }
LIST_OP(caluna_body_shapes, K_BODY, caluna_shape)
OP(caluna_shape_retain) { caluna_engine *e = E(); return fz_done(caluna_shape_retain(e, ID(K_SHAPE))); }
OP(caluna_shape_release) { caluna_engine *e = E(); return fz_done(caluna_shape_release(e, ID(K_SHAPE))); }
GET_OP(caluna_shape_get, K_SHAPE, NAME(shape_keys, LEN(shape_keys)))
OP(caluna_shape_set) {
    caluna_engine *e = E();
    uint64_t sh = ID(K_SHAPE);
    const char *k = NAME(shape_keys, LEN(shape_keys));
    caluna_value v = VALUE();
    if (k && strcmp(k, "collisionType") == 0 && v.type == CALUNA_TYPE_STRING) v.u.string = NAME(collision_names, LEN(collision_names));
    return fz_done(caluna_shape_set(e, sh, k, IN(&v)));
}
OP(caluna_shape_body) { caluna_engine *e = E(); uint64_t sh = ID(K_SHAPE); return fz_done(caluna_shape_body(e, sh, OUT(SLOT(K_BODY)))); }
OP(caluna_shape_get_filter) { caluna_shape_filter f; caluna_engine *e = E(); uint64_t sh = ID(K_SHAPE); return fz_done(caluna_shape_get_filter(e, sh, OUT(&f))); }
OP(caluna_shape_set_filter) { caluna_engine *e = E(); uint64_t sh = ID(K_SHAPE); return fz_done(caluna_shape_set_filter(e, sh, filter())); }
OP(caluna_shape_collision_type) { caluna_collision_type t; caluna_engine *e = E(); uint64_t sh = ID(K_SHAPE); return fz_done(caluna_shape_collision_type(e, sh, OUT(&t))); }
OP(caluna_shape_set_collision_type) { caluna_engine *e = E(); uint64_t sh = ID(K_SHAPE); return fz_done(caluna_shape_set_collision_type(e, sh, collision_type())); }
OP(caluna_collision_type_named) {
    caluna_collision_type t;
    fz_engine_less();
    const char *n = u8() < 224 ? NAME(collision_names, LEN(collision_names)) : (u8() % 2 ? "" : NULL);
    return fz_done(caluna_collision_type_named(n, OUT(&t)));
}

/* ---- Constraints ---- */

OP(caluna_constraint_create) {
    static caluna_param params[8];
    int with_null;
    caluna_engine *e = E();
    const char *kind = NAME(constraint_kinds, LEN(constraint_kinds));
    uint64_t a = ID(K_BODY), b = ID(K_BODY);
    size_t n = COUNT(LEN(params), &with_null);
    for (size_t i = 0; i < n && i < LEN(params); i++) {
        params[i].key = NAME(constraint_keys, LEN(constraint_keys));
        params[i].value = VALUE();
    }
    return fz_done(caluna_constraint_create(e, kind, a, b, with_null ? NULL : params, n, OUT(SLOT(K_CONSTRAINT))));
}
OP(caluna_constraint_retain) { caluna_engine *e = E(); return fz_done(caluna_constraint_retain(e, ID(K_CONSTRAINT))); }
OP(caluna_constraint_release) { caluna_engine *e = E(); return fz_done(caluna_constraint_release(e, ID(K_CONSTRAINT))); }
GET_OP(caluna_constraint_get, K_CONSTRAINT, NAME(constraint_keys, LEN(constraint_keys)))
OP(caluna_constraint_set) {
    caluna_engine *e = E();
    uint64_t c = ID(K_CONSTRAINT);
    const char *k = NAME(constraint_keys, LEN(constraint_keys));
    caluna_value v = VALUE();
    return fz_done(caluna_constraint_set(e, c, k, IN(&v)));
}
OP(caluna_constraint_bodies) { caluna_engine *e = E(); uint64_t c = ID(K_CONSTRAINT); return fz_done(caluna_constraint_bodies(e, c, OUT(SLOT(K_BODY)), OUT(SLOT(K_BODY)))); }

/* ---- Collision handlers and arbiters ---- */

OP(caluna_world_set_collision_handler) {
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    caluna_collision_type a = collision_type(), b = collision_type();
    caluna_collision_callbacks *cbs = COLLISION_CALLBACKS();
    return fz_done(caluna_world_set_collision_handler(e, w, a, b, cbs, USER(0)));
}
OP(caluna_world_set_wildcard_handler) {
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    caluna_collision_type a = collision_type();
    caluna_collision_callbacks *cbs = COLLISION_CALLBACKS();
    return fz_done(caluna_world_set_wildcard_handler(e, w, a, cbs, USER(0)));
}
OP(caluna_world_set_default_handler) {
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    caluna_collision_callbacks *cbs = COLLISION_CALLBACKS();
    return fz_done(caluna_world_set_default_handler(e, w, cbs, USER(0)));
}
OP(caluna_arbiter_shapes) { caluna_engine *e = E(); uint64_t a = ID(K_ARBITER); return fz_done(caluna_arbiter_shapes(e, a, OUT(SLOT(K_SHAPE)), OUT(SLOT(K_SHAPE)))); }
OP(caluna_arbiter_bodies) { caluna_engine *e = E(); uint64_t a = ID(K_ARBITER); return fz_done(caluna_arbiter_bodies(e, a, OUT(SLOT(K_BODY)), OUT(SLOT(K_BODY)))); }
LIST_OP(caluna_arbiter_contact_points, K_ARBITER, caluna_contact_point)
GET_OP(caluna_arbiter_get, K_ARBITER, NAME(arbiter_keys, LEN(arbiter_keys)))
OP(caluna_arbiter_set) { caluna_engine *e = E(); uint64_t a = ID(K_ARBITER); const char *k = NAME(arbiter_keys, LEN(arbiter_keys)); caluna_value v = VALUE(); return fz_done(caluna_arbiter_set(e, a, k, IN(&v))); }

/* ---- Queries ---- */

OP(caluna_world_nearest_point) {
    caluna_point_hit hit;
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    double x = NUM(), y = NUM(), d = NUM();
    return fz_done(caluna_world_nearest_point(e, w, x, y, d, filter(), OUT(&hit)));
}
OP(caluna_world_point_query) {
    static caluna_point_hit out[8];
    size_t count;
    int with_null;
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    double x = NUM(), y = NUM(), d = NUM();
    caluna_shape_filter *f = filter();
    size_t cap = COUNT(LEN(out), &with_null);
    return fz_done(caluna_world_point_query(e, w, x, y, d, f, with_null ? NULL : out, cap, OUT(&count)));
}
OP(caluna_world_segment_query_first) {
    caluna_segment_hit hit;
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    double p[5] = { NUM(), NUM(), NUM(), NUM(), SMALL() };
    return fz_done(caluna_world_segment_query_first(e, w, p[0], p[1], p[2], p[3], p[4], filter(), OUT(&hit)));
}
OP(caluna_world_segment_query) {
    static caluna_segment_hit out[8];
    size_t count;
    int with_null;
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    double p[5] = { NUM(), NUM(), NUM(), NUM(), SMALL() };
    caluna_shape_filter *f = filter();
    size_t cap = COUNT(LEN(out), &with_null);
    return fz_done(caluna_world_segment_query(e, w, p[0], p[1], p[2], p[3], p[4], f, with_null ? NULL : out, cap, OUT(&count)));
}
OP(caluna_world_bb_query) {
    static caluna_shape out[8];
    size_t count;
    int with_null;
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD);
    double p[4] = { NUM(), NUM(), NUM(), NUM() };
    caluna_shape_filter *f = filter();
    size_t cap = COUNT(LEN(out), &with_null);
    return fz_done(caluna_world_bb_query(e, w, p[0], p[1], p[2], p[3], f, with_null ? NULL : out, cap, OUT(&count)));
}
OP(caluna_world_shape_query) {
    static caluna_shape_contact out[8];
    size_t count;
    int with_null;
    caluna_engine *e = E();
    uint64_t w = ID(K_WORLD), sh = ID(K_SHAPE);
    size_t cap = COUNT(LEN(out), &with_null);
    return fz_done(caluna_world_shape_query(e, w, sh, with_null ? NULL : out, cap, OUT(&count)));
}

const fz_op fz_ops_physics[] = {
    ENTRY(caluna_world_create), ENTRY(caluna_world_destroy), ENTRY(caluna_world_get), ENTRY(caluna_world_set),
    ENTRY(caluna_world_step), ENTRY(caluna_world_static_body), ENTRY(caluna_world_add_body), ENTRY(caluna_world_remove_body),
    ENTRY(caluna_world_add_constraint), ENTRY(caluna_world_remove_constraint), ENTRY(caluna_world_bodies),
    ENTRY(caluna_world_constraints), ENTRY(caluna_body_create), ENTRY(caluna_body_retain), ENTRY(caluna_body_release),
    ENTRY(caluna_body_get), ENTRY(caluna_body_set), ENTRY(caluna_body_world), ENTRY(caluna_body_apply_force_at_world_point),
    ENTRY(caluna_body_apply_force_at_local_point), ENTRY(caluna_body_apply_impulse_at_world_point),
    ENTRY(caluna_body_apply_impulse_at_local_point), ENTRY(caluna_body_local_to_world), ENTRY(caluna_body_world_to_local),
    ENTRY(caluna_body_velocity_at_world_point), ENTRY(caluna_body_sleep), ENTRY(caluna_body_activate),
    ENTRY(caluna_body_set_velocity_update), ENTRY(caluna_body_set_position_update), ENTRY(caluna_body_update_velocity),
    ENTRY(caluna_body_update_position), ENTRY(caluna_body_bind_layer), ENTRY(caluna_body_unbind_layer),
    ENTRY(caluna_body_add_circle), ENTRY(caluna_body_add_box), ENTRY(caluna_body_add_polygon),
    ENTRY(caluna_body_add_segment), ENTRY(caluna_body_remove_shape), ENTRY(caluna_body_shapes), ENTRY(caluna_shape_retain),
    ENTRY(caluna_shape_release), ENTRY(caluna_shape_get), ENTRY(caluna_shape_set), ENTRY(caluna_shape_body),
    ENTRY(caluna_shape_get_filter), ENTRY(caluna_shape_set_filter), ENTRY(caluna_shape_collision_type),
    ENTRY(caluna_shape_set_collision_type), ENTRY(caluna_collision_type_named), ENTRY(caluna_constraint_create),
    ENTRY(caluna_constraint_retain), ENTRY(caluna_constraint_release), ENTRY(caluna_constraint_get),
    ENTRY(caluna_constraint_set), ENTRY(caluna_constraint_bodies), ENTRY(caluna_world_set_collision_handler),
    ENTRY(caluna_world_set_wildcard_handler), ENTRY(caluna_world_set_default_handler), ENTRY(caluna_arbiter_shapes),
    ENTRY(caluna_arbiter_bodies), ENTRY(caluna_arbiter_contact_points), ENTRY(caluna_arbiter_get),
    ENTRY(caluna_arbiter_set), ENTRY(caluna_world_nearest_point), ENTRY(caluna_world_point_query),
    ENTRY(caluna_world_segment_query_first), ENTRY(caluna_world_segment_query), ENTRY(caluna_world_bb_query),
    ENTRY(caluna_world_shape_query),
};
TABLE(physics);

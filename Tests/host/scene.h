/* Engine, layer, animation and presentation helpers shared by the C host tests that build
 * scenes through the ABI (anim_test, transactions_test, actions_test, …). C99. */
#ifndef CALUNA_HOST_SCENE_H
#define CALUNA_HOST_SCENE_H

#include <caluna.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline caluna_engine *new_engine(void) {
    caluna_engine *e = NULL;
    if (caluna_engine_create(NULL, &e) != CALUNA_OK) {
        printf("FAIL: cannot create an engine: %s\n", caluna_last_error(NULL));
        exit(1);
    }
    return e;
}

/* An engine of w × h points at `scale` pixels per point. */
static inline caluna_engine *new_engine_sized(double w, double h, double scale) {
    caluna_engine *e = NULL;
    caluna_engine_options o = caluna_engine_options_default();
    o.width = w;
    o.height = h;
    o.scale = scale;
    if (caluna_engine_create(&o, &e) != CALUNA_OK) {
        printf("FAIL: cannot create an engine: %s\n", caluna_last_error(NULL));
        exit(1);
    }
    return e;
}

/* A layer 10 × 10 at (0, 0) in `parent` (0: the root); the tree holds it (our reference is
 * released). */
static inline caluna_layer new_layer(caluna_engine *e, caluna_layer parent) {
    caluna_layer l = 0, root = 0;
    caluna_value b = caluna_rect(0, 0, 10, 10), p = caluna_point(0, 0);
    caluna_root_layer(e, &root);
    caluna_layer_create(e, &l);
    caluna_layer_set(e, l, "bounds", &b);
    caluna_layer_set(e, l, "position", &p);
    caluna_layer_add_sublayer(e, parent ? parent : root, l);
    caluna_layer_release(e, l);
    return l;
}

static inline caluna_animation anim_new(caluna_engine *e, const char *cls) {
    caluna_animation a = 0;
    caluna_status s = caluna_animation_create(e, cls, &a);
    if (s != CALUNA_OK) printf("      (create %s failed: %s)\n", cls, caluna_last_error(e));
    return a;
}

static inline caluna_status aset(caluna_engine *e, caluna_animation a, const char *key, caluna_value v) {
    caluna_status s = caluna_animation_set(e, a, key, &v);
    if (s != CALUNA_OK) printf("      (set %s: %s: %s)\n", key, caluna_status_name(s), caluna_last_error(e));
    return s;
}

static inline caluna_status lset(caluna_engine *e, caluna_layer l, const char *key, caluna_value v) {
    return caluna_layer_set(e, l, key, &v);
}

/* The presentation value of a key path (NIL on failure). */
static inline caluna_value pget(caluna_engine *e, caluna_layer l, const char *key) {
    caluna_value v = caluna_nil();
    caluna_status s = caluna_layer_get_presentation(e, l, key, &v);
    if (s != CALUNA_OK) printf("      (presentation %s: %s: %s)\n", key, caluna_status_name(s), caluna_last_error(e));
    return v;
}

/* The presentation value of a NUMBER key path (NaN on failure). */
static inline double pnum(caluna_engine *e, caluna_layer l, const char *key) {
    caluna_value v = pget(e, l, key);
    return v.type == CALUNA_TYPE_NUMBER ? v.u.number : NAN;
}

/* A committed engine: a blue 10 × 10 layer in the root, stepped once at t = 0 (the first
 * commit; changes before it never animate, changes after it run actions). */
static inline caluna_engine *committed_scene(caluna_layer *out) {
    caluna_engine *e = new_engine();
    *out = new_layer(e, 0);
    lset(e, *out, "backgroundColor", caluna_color(0, 0, 1, 1));
    caluna_engine_step(e, 0);
    return e;
}

/* The number of the layer's animation keys (-1 on failure). */
static inline int32_t key_count(caluna_engine *e, caluna_layer l) {
    int32_t n = -1;
    caluna_layer_animation_key_count(e, l, &n);
    return n;
}

static inline double now(caluna_engine *e) {
    double t = -1;
    caluna_engine_media_time(e, &t);
    return t;
}

#endif

/* CAEmitterLayer through the C ABI: listing 6.13's fire built with emitter cell ids (spec
 * book-ch05-06 T6.13: 150 ± 1 particles at 1 s), determinism and step independence of the
 * rendered frames, the layer's multipliers, cell values read back, nested cells, stale cell
 * handles and the error statuses of bad input. C99. */
#include "check.h"
#include "pixels.h"
#include "scene.h"

static const double PI = 3.14159265358979323846;

static caluna_image white_sprite(caluna_engine *e) {
    uint8_t px8[8 * 8 * 4];
    memset(px8, 255, sizeof px8);
    caluna_image img = 0;
    EXPECT_OK(e, caluna_image_from_pixels(e, 8, 8, 32, CALUNA_RGBA8_STRAIGHT, px8, &img));
    return img;
}

static void cset(caluna_engine *e, caluna_emitter_cell c, const char *key, caluna_value v) {
    caluna_status s = caluna_emitter_cell_set(e, c, key, &v);
    if (s != CALUNA_OK) printf("      (cell set %s: %s: %s)\n", key, caluna_status_name(s), caluna_last_error(e));
}

/* The 6.13 fire on a 400 × 400 black canvas; returns the emitter layer (held by the tree)
 * and the cell (owned by the caller) in *cell. */
static caluna_layer fire(caluna_engine *e, double seed, caluna_emitter_cell *cell) {
    caluna_layer root = 0, l = 0;
    caluna_engine_set_size(e, 400, 400, 1);
    caluna_root_layer(e, &root);
    lset(e, root, "backgroundColor", caluna_color(0, 0, 0, 1));
    EXPECT_OK(e, caluna_layer_create_class(e, "CAEmitterLayer", &l));
    lset(e, l, "frame", caluna_rect(0, 0, 400, 400));
    lset(e, l, "emitterPosition", caluna_point(200, 200));
    lset(e, l, "renderMode", caluna_string("additive"));
    lset(e, l, "seed", caluna_number(seed));
    caluna_emitter_cell c = 0;
    EXPECT_OK(e, caluna_emitter_cell_create(e, &c));
    caluna_image img = white_sprite(e);
    cset(e, c, "contents", caluna_image_value(img));
    caluna_image_release(e, img);
    cset(e, c, "name", caluna_string("fire"));
    cset(e, c, "birthRate", caluna_number(150));
    cset(e, c, "lifetime", caluna_number(5));
    cset(e, c, "color", caluna_color(1, 0.5, 0.1, 1));
    cset(e, c, "alphaSpeed", caluna_number(-0.4));
    cset(e, c, "velocity", caluna_number(50));
    cset(e, c, "velocityRange", caluna_number(50));
    cset(e, c, "emissionRange", caluna_number(2 * PI));
    EXPECT_OK(e, caluna_emitter_layer_set_cells(e, l, &c, 1));
    caluna_layer_add_sublayer(e, root, l);
    caluna_layer_release(e, l);
    *cell = c;
    return l;
}

static int32_t count(caluna_engine *e, caluna_layer l) {
    int32_t n = -1;
    EXPECT_OK(e, caluna_emitter_layer_particle_count(e, l, &n));
    return n;
}

/* The frame at 1.5 s of a fire with `seed`, reached in `steps` equal steps (0: one advance). */
static uint8_t *frame(int steps, double seed) {
    caluna_engine *e = new_engine();
    caluna_emitter_cell c = 0;
    fire(e, seed, &c);
    if (steps == 0) caluna_engine_advance(e, 1.5);
    else for (int i = 0; i < steps; i++) caluna_engine_step(e, 1.5 / steps);
    render(e);
    uint8_t *copy = (uint8_t *)malloc((size_t)pw * (size_t)ph * 4);
    memcpy(copy, pixels, (size_t)pw * (size_t)ph * 4);
    caluna_engine_destroy(e);
    return copy;
}

int main(void) {
    caluna_engine *e = new_engine();
    caluna_emitter_cell cell = 0;
    caluna_layer l = fire(e, 7, &cell);

    /* T6.13: 150 ± 1 particles at 1 s, in 60 steps. */
    for (int i = 0; i < 60; i++) caluna_engine_step(e, 1.0 / 60);
    int32_t n = count(e, l);
    CHECK(n >= 149 && n <= 151, "T6.13: %d particles at 1 s (150 ± 1)", n);
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(200, 200, 0xffffff, 255) && px(200, 200)[0] == 255, "the centre is lit, red saturated (additive)");
    CHECK(is_rgb(10, 10, 0x000000, 0), "the corner is background");

    /* Values read back; the cells read back as borrowed ids. */
    caluna_value v = caluna_nil();
    EXPECT_OK(e, caluna_emitter_cell_get(e, cell, "birthRate", &v));
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 150, "birthRate reads back 150");
    EXPECT_OK(e, caluna_emitter_cell_get(e, cell, "enabled", &v));
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean, "enabled defaults to true");
    EXPECT_OK(e, caluna_emitter_cell_get(e, cell, "name", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "fire") == 0, "name reads back");
    EXPECT_OK(e, caluna_layer_get(e, l, "emitterMode", &v));
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "volume") == 0, "emitterMode defaults to volume");
    caluna_emitter_cell got[4] = {0};
    int32_t ncells = -1;
    EXPECT_OK(e, caluna_emitter_layer_get_cells(e, l, got, 4, &ncells));
    CHECK(ncells == 1 && got[0] == cell, "the layer's cells read back (%d)", ncells);

    /* A change to an installed cell applies from now: birthRate 0 stops the births. */
    cset(e, cell, "birthRate", caluna_number(0));
    caluna_engine_advance(e, 2);
    n = count(e, l);
    CHECK(n >= 149 && n <= 151, "no births after birthRate 0; %d still alive", n);

    /* Nested cells: each particle emits its sub-cells. */
    caluna_emitter_cell spark = 0;
    EXPECT_OK(e, caluna_emitter_cell_create(e, &spark));
    cset(e, spark, "birthRate", caluna_number(10));
    cset(e, spark, "lifetime", caluna_number(10));
    EXPECT_OK(e, caluna_emitter_cell_set_cells(e, cell, &spark, 1));
    EXPECT_OK(e, caluna_emitter_cell_get_cells(e, cell, got, 4, &ncells));
    CHECK(ncells == 1 && got[0] == spark, "sub-cells read back");
    EXPECT(e, caluna_emitter_cell_set_cells(e, spark, &cell, 1), CALUNA_ERR_TREE);

    /* Errors. */
    v = caluna_number(NAN);
    EXPECT(e, caluna_emitter_cell_set(e, cell, "birthRate", &v), CALUNA_ERR_INVALID_ARGUMENT);
    v = caluna_number(-1);
    EXPECT(e, caluna_emitter_cell_set(e, cell, "lifetime", &v), CALUNA_ERR_INVALID_ARGUMENT);
    v = caluna_string("fast");
    EXPECT(e, caluna_emitter_cell_set(e, cell, "velocity", &v), CALUNA_ERR_TYPE_MISMATCH);
    v = caluna_number(1);
    EXPECT(e, caluna_emitter_cell_set(e, cell, "bogus", &v), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_emitter_cell_set(e, cell, "speed", &v), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT(e, caluna_emitter_cell_set(e, cell, NULL, &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_emitter_cell_set(e, cell, "birthRate", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_emitter_cell_get(e, cell, "birthRate", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_emitter_cell_create(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_emitter_cell none = 1;
    EXPECT(e, caluna_emitter_cell_create(NULL, &none), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(none == 0, "a failed create writes 0");
    EXPECT(e, caluna_emitter_layer_set_cells(e, l, NULL, 2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_emitter_layer_set_cells(e, l, &cell, -1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_emitter_layer_particle_count(e, l, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_emitter_layer_get_cells(e, l, NULL, 4, &ncells), CALUNA_ERR_INVALID_ARGUMENT);
    lset(e, l, "seed", caluna_number(0));
    v = caluna_number(-1);
    EXPECT(e, caluna_layer_set(e, l, "seed", &v), CALUNA_ERR_INVALID_ARGUMENT);
    v = caluna_bool(1);
    EXPECT(e, caluna_layer_set(e, l, "preservesDepth", &v), CALUNA_ERR_NOT_SUPPORTED);
    v = caluna_string("blob");
    EXPECT(e, caluna_layer_set(e, l, "emitterShape", &v), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_layer plain = new_layer(e, 0);
    EXPECT(e, caluna_emitter_layer_set_cells(e, plain, &cell, 1), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, caluna_emitter_layer_particle_count(e, plain, &n), CALUNA_ERR_TYPE_MISMATCH);
    v = caluna_number(1);
    EXPECT(e, caluna_layer_set(e, plain, "birthRate", &v), CALUNA_ERR_UNKNOWN_KEY);
    /* A layer id is not a cell id, and a cell id is not a layer id. */
    EXPECT(e, caluna_emitter_cell_set(e, l, "birthRate", &v), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_emitter_layer_particle_count(e, cell, &n), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_emitter_cell_set(e, 0, "birthRate", &v), CALUNA_ERR_STALE_HANDLE);

    /* Stale handles: a released cell that no layer or cell holds is gone. */
    EXPECT_OK(e, caluna_emitter_cell_release(e, spark));   /* still held by `cell` */
    EXPECT_OK(e, caluna_emitter_cell_get(e, spark, "birthRate", &v));
    EXPECT_OK(e, caluna_emitter_cell_set_cells(e, cell, NULL, 0));
    EXPECT(e, caluna_emitter_cell_get(e, spark, "birthRate", &v), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_emitter_cell_release(e, cell), CALUNA_OK);   /* the layer still holds it */
    EXPECT(e, caluna_emitter_cell_release(e, cell), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_emitter_layer_set_cells(e, l, NULL, 0));
    EXPECT(e, caluna_emitter_cell_get(e, cell, "birthRate", &v), CALUNA_ERR_STALE_HANDLE);
    caluna_engine_destroy(e);

    /* Multipliers: the layer's birthRate 2 doubles the count. */
    e = new_engine();
    l = fire(e, 7, &cell);
    lset(e, l, "birthRate", caluna_number(2));
    caluna_engine_advance(e, 1);
    n = count(e, l);
    CHECK(n >= 299 && n <= 301, "birthRate 2: %d particles (300 ± 1)", n);
    caluna_emitter_cell_release(e, cell);
    caluna_engine_destroy(e);

    /* Determinism: same seed, same bytes; steps of 1/60, 1/30 or one advance to 1.5 s give
     * the same frame; another seed another. */
    size_t bytes = 400 * 400 * 4;
    uint8_t *a = frame(0, 7), *b = frame(0, 7), *c60 = frame(90, 7), *c30 = frame(45, 7), *other = frame(0, 8);
    CHECK(memcmp(a, b, bytes) == 0, "same seed: byte-identical frames");
    CHECK(memcmp(a, c60, bytes) == 0, "90 steps of 1/60 s = one advance");
    CHECK(memcmp(a, c30, bytes) == 0, "45 steps of 1/30 s = one advance");
    CHECK(memcmp(a, other, bytes) != 0, "seed 8: another frame");
    free(a); free(b); free(c60); free(c30); free(other);
    free(pixels);
    return finish();
}

/* abi_test.c — exercises the whole C ABI of caluna from C99, including every error path.
 *
 * Each check prints one line; the last line is "N passed, N failed" and the exit status is
 * 1 on any failure. Run from a writable directory (it writes abi_test.png there). */
#include <caluna.h>

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---------------------------------------------------------------------------------------- */
/* helpers                                                                                  */

static caluna_value get(caluna_engine *e, caluna_layer l, const char *key) {
    caluna_value v = caluna_nil();
    caluna_status s = caluna_layer_get(e, l, key, &v);
    if (s != CALUNA_OK) printf("      (get %s failed: %s: %s)\n", key, caluna_status_name(s), caluna_last_error(e));
    return v;
}

static int is_number(caluna_value v, double n) { return v.type == CALUNA_TYPE_NUMBER && near(v.u.number, n, 1e-9); }
static int is_point(caluna_value v, double x, double y) {
    return v.type == CALUNA_TYPE_POINT && near(v.u.point.x, x, 1e-9) && near(v.u.point.y, y, 1e-9);
}
static int is_size(caluna_value v, double w, double h) {
    return v.type == CALUNA_TYPE_SIZE && near(v.u.size.width, w, 1e-9) && near(v.u.size.height, h, 1e-9);
}
static int is_rect(caluna_value v, double x, double y, double w, double h) {
    return v.type == CALUNA_TYPE_RECT && near(v.u.rect.x, x, 1e-9) && near(v.u.rect.y, y, 1e-9) &&
           near(v.u.rect.width, w, 1e-9) && near(v.u.rect.height, h, 1e-9);
}
static int is_color(caluna_value v, double r, double g, double b, double a) {
    return v.type == CALUNA_TYPE_COLOR && near(v.u.color.r, r, 1e-9) && near(v.u.color.g, g, 1e-9) &&
           near(v.u.color.b, b, 1e-9) && near(v.u.color.a, a, 1e-9);
}

static caluna_status set(caluna_engine *e, caluna_layer l, const char *key, caluna_value v) {
    return caluna_layer_set(e, l, key, &v);
}

/* Pixel (x, y) of a buffer in `fmt`, compared as RGBA with a tolerance per channel. */
static void pixel_is(const uint8_t *buf, int32_t stride, caluna_pixel_format fmt, int x, int y,
                     int r, int g, int b, int a, int tol, int line) {
    const uint8_t *p = buf + (size_t)y * (size_t)stride + (size_t)x * 4;
    int pr, pg, pb, pa;
    int bgra = fmt == CALUNA_BGRA8_PREMULTIPLIED || fmt == CALUNA_BGRA8_STRAIGHT;
    pr = bgra ? p[2] : p[0];
    pg = p[1];
    pb = bgra ? p[0] : p[2];
    pa = p[3];
    report(abs(pr - r) <= tol && abs(pg - g) <= tol && abs(pb - b) <= tol && abs(pa - a) <= tol, line,
           "pixel (%d,%d) format %d = rgba(%d,%d,%d,%d), expected (%d,%d,%d,%d) +-%d", x, y, (int)fmt,
           pr, pg, pb, pa, r, g, b, a, tol);
}
#define PIXEL(buf, stride, fmt, x, y, r, g, b, a, tol) pixel_is(buf, stride, fmt, x, y, r, g, b, a, tol, __LINE__)

/* ---------------------------------------------------------------------------------------- */

static void test_version(void) {
    const char *v = caluna_version();
    CHECK(v != NULL && v[0] != '\0', "caluna_version() = \"%s\"", v ? v : "(null)");
    CHECK(caluna_abi_version() == CALUNA_ABI_VERSION, "caluna_abi_version() = %d, header says %d",
          caluna_abi_version(), CALUNA_ABI_VERSION);
    CHECK(strcmp(caluna_status_name(CALUNA_OK), "CALUNA_OK") == 0, "status name of 0");
    CHECK(strcmp(caluna_status_name(CALUNA_ERR_STALE_HANDLE), "CALUNA_ERR_STALE_HANDLE") == 0, "status name of 5");
    CHECK(strcmp(caluna_status_name(CALUNA_ERR_OUT_OF_MEMORY), "CALUNA_ERR_OUT_OF_MEMORY") == 0, "status name of 9");
    CHECK(strcmp(caluna_status_name((caluna_status)999), "CALUNA_ERR_UNKNOWN_STATUS") == 0, "status name of 999");
    CHECK(caluna_last_error(NULL) != NULL && caluna_last_error(NULL)[0] != '\0',
          "caluna_last_error(NULL) before any failure: \"%s\"", caluna_last_error(NULL));
}

/* Creating with bad options fails, leaves *out NULL and explains at caluna_last_error(NULL). */
static void create_fails(double w, double h, double scale, uint32_t struct_size, const char *what, int line) {
    caluna_engine_options o = caluna_engine_options_default();
    caluna_engine *e = (caluna_engine *)&o; /* non-NULL sentinel that must be overwritten */
    caluna_status s;
    o.width = w;
    o.height = h;
    o.scale = scale;
    o.struct_size = struct_size;
    s = caluna_engine_create(&o, &e);
    report(s == CALUNA_ERR_INVALID_ARGUMENT && e == NULL && caluna_last_error(NULL)[0] != '\0', line,
           "create with %s -> %s: %s (out %s)", what, caluna_status_name(s), caluna_last_error(NULL),
           e == NULL ? "NULL" : "not NULL");
    if (s == CALUNA_OK && e) caluna_engine_destroy(e);
}

static void test_engine_options(void) {
    caluna_engine *e = NULL;
    caluna_engine_options o;
    double w = 0, h = 0, k = 0;
    int32_t pw = 0, ph = 0;
    uint32_t full = (uint32_t)sizeof(caluna_engine_options);

    /* defaults */
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT_OK(e, caluna_engine_size(e, &w, &h, &k));
    CHECK(w == 320 && h == 480 && k == 1, "default size %gx%g scale %g", w, h, k);
    EXPECT_OK(e, caluna_engine_pixel_size(e, &pw, &ph));
    CHECK(pw == 320 && ph == 480, "default pixel size %dx%d", (int)pw, (int)ph);
    CHECK(caluna_last_error(e)[0] == '\0', "fresh engine has an empty last error");
    EXPECT_OK(NULL, caluna_engine_destroy(e));

    /* options: size and scale */
    o = caluna_engine_options_default();
    o.width = 100;
    o.height = 50.5;
    o.scale = 2;
    EXPECT_OK(NULL, caluna_engine_create(&o, &e));
    EXPECT_OK(e, caluna_engine_pixel_size(e, &pw, &ph));
    CHECK(pw == 200 && ph == 101, "100x50.5 at scale 2 is %dx%d pixels (expected 200x101)", (int)pw, (int)ph);
    EXPECT_OK(e, caluna_engine_size(e, &w, NULL, NULL));
    CHECK(w == 100, "caluna_engine_size with only width wanted: %g", w);

    /* set_size */
    EXPECT_OK(e, caluna_engine_set_size(e, 30, 40, 1.5));
    EXPECT_OK(e, caluna_engine_pixel_size(e, &pw, &ph));
    CHECK(pw == 45 && ph == 60, "30x40 at 1.5 is %dx%d pixels", (int)pw, (int)ph);
    {
        caluna_layer root = 0;
        EXPECT_OK(e, caluna_root_layer(e, &root));
        CHECK(is_rect(get(e, root, "frame"), 0, 0, 30, 40), "root frame follows set_size");
    }
    EXPECT(e, caluna_engine_set_size(e, 0, 40, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 30, 0, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, -30, 40, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, NAN, 40, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 30, INFINITY, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 30, 40, 0), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 30, 40, -2), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 30, 40, NAN), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 30, 40, 17), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 1e12, 1e12, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 16384, 16384, 1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_size(e, 2000, 2000, 16), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_engine_pixel_size(e, &pw, &ph));
    CHECK(pw == 45 && ph == 60, "failed set_size calls changed nothing (%dx%d)", (int)pw, (int)ph);
    EXPECT(e, caluna_engine_size(e, NULL, NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_pixel_size(e, NULL, &ph), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_pixel_size(e, &pw, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(NULL, caluna_engine_destroy(e));

    /* bad options */
    EXPECT(NULL, caluna_engine_create(NULL, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    create_fails(100, 100, 1, 0, "struct_size 0", __LINE__);
    create_fails(100, 100, 1, 8, "struct_size 8", __LINE__);
    create_fails(0, 100, 1, full, "zero width", __LINE__);
    create_fails(100, 0, 1, full, "zero height", __LINE__);
    create_fails(-100, 100, 1, full, "negative width", __LINE__);
    create_fails(100, -1, 1, full, "negative height", __LINE__);
    create_fails(NAN, 100, 1, full, "NaN width", __LINE__);
    create_fails(100, INFINITY, 1, full, "infinite height", __LINE__);
    create_fails(100, 100, 0, full, "zero scale", __LINE__);
    create_fails(100, 100, -1, full, "negative scale", __LINE__);
    create_fails(100, 100, NAN, full, "NaN scale", __LINE__);
    create_fails(100, 100, INFINITY, full, "infinite scale", __LINE__);
    create_fails(100, 100, 17, full, "scale 17", __LINE__);
    create_fails(1e6, 1e6, 1, full, "1e6 x 1e6 points", __LINE__);
    create_fails(20000, 10, 1, full, "20000 points wide", __LINE__);
    create_fails(16384, 16384, 1, full, "16384 x 16384 (too many pixels)", __LINE__);
    create_fails(1e308, 1e308, 1, full, "1e308 points", __LINE__);
    create_fails(1000, 1000, 16, full, "16000 x 16000 pixels", __LINE__);

    /* a larger struct_size (a newer header) is accepted */
    o = caluna_engine_options_default();
    o.struct_size = full + 64;
    EXPECT_OK(NULL, caluna_engine_create(&o, &e));
    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

/* Every function with an engine pointer that is not usable. */
static void every_function(caluna_engine *x, caluna_status want) {
    caluna_layer l = 7;
    double d = 1, d2 = 1, d3 = 1, d4 = 1;
    int32_t i = 1, j = 1;
    caluna_value v = caluna_number(1);
    uint8_t buf[64];
    printf("-- every function with %s engine (expect %s)\n", x == NULL ? "a NULL" : "an unusable",
           caluna_status_name(want));
    EXPECT(x, caluna_engine_set_size(x, 10, 10, 1), want);
    EXPECT(x, caluna_engine_size(x, &d, &d2, &d3), want);
    CHECK(d == 0 && d2 == 0 && d3 == 0, "outputs of a failed caluna_engine_size are 0");
    EXPECT(x, caluna_engine_pixel_size(x, &i, &j), want);
    CHECK(i == 0 && j == 0, "outputs of a failed caluna_engine_pixel_size are 0");
    EXPECT(x, caluna_engine_load_file(x, "scene.lua"), want);
    EXPECT(x, caluna_engine_load_string(x, "local x = 1", "x"), want);
    EXPECT(x, caluna_engine_step(x, 0.1), want);
    EXPECT(x, caluna_engine_advance(x, 1), want);
    d = 5;
    EXPECT(x, caluna_engine_media_time(x, &d), want);
    CHECK(d == 0, "output of a failed caluna_engine_media_time is 0");
    EXPECT(x, caluna_render(x, buf, sizeof buf, 4, 4, 16, CALUNA_RGBA8_STRAIGHT), want);
    EXPECT(x, caluna_render_png(x, "never.png"), want);
    EXPECT(x, caluna_root_layer(x, &l), want);
    CHECK(l == 0, "output of a failed caluna_root_layer is 0");
    l = 7;
    EXPECT(x, caluna_layer_create(x, &l), want);
    CHECK(l == 0, "output of a failed caluna_layer_create is 0");
    EXPECT(x, caluna_layer_retain(x, 1), want);
    EXPECT(x, caluna_layer_release(x, 1), want);
    EXPECT(x, caluna_layer_add_sublayer(x, 1, 2), want);
    EXPECT(x, caluna_layer_insert_sublayer(x, 1, 2, 0), want);
    EXPECT(x, caluna_layer_insert_sublayer_above(x, 1, 2, 0), want);
    EXPECT(x, caluna_layer_insert_sublayer_below(x, 1, 2, 0), want);
    EXPECT(x, caluna_layer_replace_sublayer(x, 1, 2, 3), want);
    EXPECT(x, caluna_layer_remove_from_superlayer(x, 1), want);
    EXPECT(x, caluna_layer_superlayer(x, 1, &l), want);
    EXPECT(x, caluna_layer_sublayer_count(x, 1, &i), want);
    EXPECT(x, caluna_layer_sublayer_at(x, 1, 0, &l), want);
    EXPECT(x, caluna_layer_find(x, "root", &l), want);
    EXPECT(x, caluna_layer_set(x, 1, "opacity", &v), want);
    EXPECT(x, caluna_layer_get(x, 1, "opacity", &v), want);
    CHECK(v.type == CALUNA_TYPE_NIL, "output of a failed caluna_layer_get is NIL");
    EXPECT(x, caluna_layer_convert_point(x, 0, 0, 1, 2, &d, &d2), want);
    EXPECT(x, caluna_layer_convert_rect(x, 0, 0, 1, 2, 3, 4, &d, &d2, &d3, &d4), want);
    EXPECT(x, caluna_layer_contains_point(x, 1, 1, 2, &i), want);
    EXPECT(x, caluna_layer_hit_test(x, 1, 1, 2, &l), want);
    EXPECT(x, caluna_layer_set_needs_layout(x, 1), want);
    EXPECT(x, caluna_layer_layout_if_needed(x, 1), want);
    EXPECT(x, caluna_engine_destroy(x), want);
    CHECK(caluna_last_error(x) != NULL && caluna_last_error(x)[0] != '\0', "caluna_last_error(unusable) = \"%s\"",
          caluna_last_error(x));
}

static void test_unusable_engines(void) {
    caluna_engine *dead = NULL;
    double not_an_engine[8] = {0};
    every_function(NULL, CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(NULL, caluna_engine_create(NULL, &dead));
    EXPECT_OK(NULL, caluna_engine_destroy(dead));
    every_function(dead, CALUNA_ERR_STALE_HANDLE);
    every_function((caluna_engine *)(void *)not_an_engine, CALUNA_ERR_STALE_HANDLE);
}

/* More engines than the registry lists in its small array (8): each live one answers, each
 * destroyed one is a stale pointer, whatever the order they go in. */
static void test_many_engines(void) {
    enum { N = 20 };
    caluna_engine *e[N];
    int alive[N];
    caluna_layer root;
    for (int i = 0; i < N; i++) {
        e[i] = NULL;
        EXPECT_OK(NULL, caluna_engine_create(NULL, &e[i]));
        alive[i] = e[i] != NULL;
    }
    for (int round = 0; round < N; round++) {
        int victim = (round * 7 + 3) % N;   /* 7 and 20 are coprime: every engine once */
        if (alive[victim]) EXPECT_OK(NULL, caluna_engine_destroy(e[victim]));
        alive[victim] = 0;
        for (int i = 0; i < N; i++) {
            if (!e[i]) continue;
            EXPECT(alive[i] ? e[i] : NULL, caluna_root_layer(e[i], &root), alive[i] ? CALUNA_OK : CALUNA_ERR_STALE_HANDLE);
        }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* the listing 1.1 scene: R 300x300 #aaaaaa; L (50,50,200,200) white in R; B (50,50,100,100)
 * blue in L. */

typedef struct scene {
    caluna_engine *e;
    caluna_layer root, white, blue;
} scene;

static scene make_scene(void) {
    scene s;
    caluna_engine_options o = caluna_engine_options_default();
    caluna_status st;
    memset(&s, 0, sizeof s);
    o.width = 300;
    o.height = 300;
    st = caluna_engine_create(&o, &s.e);
    EXPECT(NULL, st, CALUNA_OK);
    if (st != CALUNA_OK) { printf("cannot continue without an engine\n"); exit(finish() | 1); }
    EXPECT_OK(s.e, caluna_root_layer(s.e, &s.root));
    EXPECT_OK(s.e, set(s.e, s.root, "backgroundColor", caluna_color_rgb(0xaaaaaa, 1)));
    EXPECT_OK(s.e, caluna_layer_create(s.e, &s.white));
    EXPECT_OK(s.e, set(s.e, s.white, "frame", caluna_rect(50, 50, 200, 200)));
    EXPECT_OK(s.e, set(s.e, s.white, "backgroundColor", caluna_color(1, 1, 1, 1)));
    EXPECT_OK(s.e, set(s.e, s.white, "name", caluna_string("white")));
    EXPECT_OK(s.e, caluna_layer_add_sublayer(s.e, s.root, s.white));
    EXPECT_OK(s.e, caluna_layer_create(s.e, &s.blue));
    EXPECT_OK(s.e, set(s.e, s.blue, "frame", caluna_rect(50, 50, 100, 100)));
    EXPECT_OK(s.e, set(s.e, s.blue, "backgroundColor", caluna_color(0, 0, 1, 1)));
    EXPECT_OK(s.e, set(s.e, s.blue, "name", caluna_string("blue")));
    EXPECT_OK(s.e, caluna_layer_add_sublayer(s.e, s.white, s.blue));
    return s;
}

static void test_scene_properties(scene *s) {
    caluna_engine *e = s->e;
    caluna_layer l = 0;
    int32_t n = -1;
    caluna_value v;
    printf("-- listing 1.1 properties and tree queries\n");
    CHECK(s->root != 0 && s->white != 0 && s->blue != 0 && s->white != s->blue, "ids are distinct and non-zero");
    CHECK(is_rect(get(e, s->blue, "bounds"), 0, 0, 100, 100), "B.bounds == (0,0,100,100)");
    CHECK(is_point(get(e, s->blue, "position"), 100, 100), "B.position == (100,100)");
    CHECK(is_point(get(e, s->blue, "anchorPoint"), 0.5, 0.5), "B.anchorPoint == (0.5,0.5)");
    CHECK(is_rect(get(e, s->blue, "frame"), 50, 50, 100, 100), "B.frame == (50,50,100,100)");
    EXPECT_OK(e, caluna_layer_sublayer_count(e, s->white, &n));
    CHECK(n == 1, "L has %d sublayer(s)", (int)n);
    EXPECT_OK(e, caluna_layer_sublayer_at(e, s->white, 0, &l));
    CHECK(l == s->blue, "L.sublayers[0] == B");
    EXPECT_OK(e, caluna_layer_superlayer(e, s->blue, &l));
    CHECK(l == s->white, "B.superlayer == L");
    l = 99;
    EXPECT_OK(e, caluna_layer_superlayer(e, s->root, &l));
    CHECK(l == 0, "root.superlayer == 0");
    EXPECT_OK(e, caluna_root_layer(e, &l));
    CHECK(l == s->root, "caluna_root_layer gives the same id every time");
    v = get(e, s->root, "name");
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "root") == 0, "root.name == \"root\"");
    EXPECT_OK(e, caluna_layer_find(e, "blue", &l));
    CHECK(l == s->blue, "find(\"blue\") == B");
    EXPECT_OK(e, caluna_layer_find(e, "root", &l));
    CHECK(l == s->root, "find(\"root\") == root");
    l = 99;
    EXPECT(e, caluna_layer_find(e, "nobody", &l), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(l == 0, "find of a missing name gives 0");
    EXPECT(e, caluna_layer_find(e, NULL, &l), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_find(e, "blue", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_find(e, "\xff\xfe", &l), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_root_layer(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_create(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_superlayer(e, s->blue, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_sublayer_count(e, s->blue, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_sublayer_at(e, s->white, 0, NULL), CALUNA_ERR_INVALID_ARGUMENT);
}

/* Sublayer order of `parent` equals `ids` (count n). */
static int order_is(caluna_engine *e, caluna_layer parent, const caluna_layer *ids, int n) {
    int32_t count = -1, k;
    if (caluna_layer_sublayer_count(e, parent, &count) != CALUNA_OK || count != n) return 0;
    for (k = 0; k < n; k++) {
        caluna_layer l = 0;
        if (caluna_layer_sublayer_at(e, parent, k, &l) != CALUNA_OK || l != ids[k]) return 0;
    }
    return 1;
}

static void test_tree(scene *s) {
    caluna_engine *e = s->e;
    caluna_layer p, a, b, c, d, f, g, h, t, l;
    printf("-- tree operations\n");
    EXPECT_OK(e, caluna_layer_create(e, &p));
    EXPECT_OK(e, caluna_layer_create(e, &a));
    EXPECT_OK(e, caluna_layer_create(e, &b));
    EXPECT_OK(e, caluna_layer_create(e, &c));
    EXPECT_OK(e, caluna_layer_create(e, &d));
    EXPECT_OK(e, caluna_layer_create(e, &f));
    EXPECT_OK(e, caluna_layer_create(e, &g));
    EXPECT_OK(e, caluna_layer_create(e, &h));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, p, a));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, p, b));
    { caluna_layer want[] = {a, b}; CHECK(order_is(e, p, want, 2), "add: [a b]"); }
    EXPECT_OK(e, caluna_layer_insert_sublayer(e, p, c, 0));
    { caluna_layer want[] = {c, a, b}; CHECK(order_is(e, p, want, 3), "insert at 0: [c a b]"); }
    EXPECT_OK(e, caluna_layer_insert_sublayer_above(e, p, d, a));
    { caluna_layer want[] = {c, a, d, b}; CHECK(order_is(e, p, want, 4), "insert d above a: [c a d b]"); }
    EXPECT_OK(e, caluna_layer_insert_sublayer_below(e, p, f, c));
    { caluna_layer want[] = {f, c, a, d, b}; CHECK(order_is(e, p, want, 5), "insert f below c: [f c a d b]"); }
    EXPECT_OK(e, caluna_layer_insert_sublayer_above(e, p, g, 0));
    { caluna_layer want[] = {f, c, a, d, b, g}; CHECK(order_is(e, p, want, 6), "insert g above 0 (front)"); }
    EXPECT_OK(e, caluna_layer_insert_sublayer_below(e, p, g, 0));
    { caluna_layer want[] = {g, f, c, a, d, b}; CHECK(order_is(e, p, want, 6), "move g below 0 (back)"); }
    EXPECT_OK(e, caluna_layer_replace_sublayer(e, p, a, h));
    { caluna_layer want[] = {g, f, c, h, d, b}; CHECK(order_is(e, p, want, 6), "replace a by h"); }
    l = 99;
    EXPECT_OK(e, caluna_layer_superlayer(e, a, &l));
    CHECK(l == 0, "a (owned) survives replacement, without a superlayer");
    EXPECT_OK(e, caluna_layer_add_sublayer(e, p, g));
    { caluna_layer want[] = {f, c, h, d, b, g}; CHECK(order_is(e, p, want, 6), "re-adding g moves it to the front"); }
    EXPECT_OK(e, caluna_layer_insert_sublayer(e, p, g, 5));
    { caluna_layer want[] = {f, c, h, d, b, g}; CHECK(order_is(e, p, want, 6), "insert g at 5 (its own place)"); }
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, d));
    { caluna_layer want[] = {f, c, h, b, g}; CHECK(order_is(e, p, want, 5), "remove d"); }
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, d));   /* no superlayer: nothing */

    /* tree errors */
    EXPECT(e, caluna_layer_insert_sublayer(e, p, d, -1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_insert_sublayer(e, p, d, 6), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_insert_sublayer(e, p, d, INT32_MIN), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_insert_sublayer(e, p, d, INT32_MAX), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_sublayer_at(e, p, 5, &l), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_sublayer_at(e, p, -1, &l), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_add_sublayer(e, p, p), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_add_sublayer(e, s->blue, s->white), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_add_sublayer(e, s->white, s->root), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_insert_sublayer_above(e, p, d, s->blue), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_insert_sublayer_below(e, p, d, s->blue), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_replace_sublayer(e, p, s->blue, d), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_replace_sublayer(e, s->blue, s->white, d), CALUNA_ERR_TREE);
    { caluna_layer want[] = {f, c, h, b, g}; CHECK(order_is(e, p, want, 5), "failed operations changed nothing"); }

    /* ownership: a layer in a tree outlives its released owned reference */
    EXPECT_OK(e, caluna_layer_release(e, b));
    EXPECT_OK(e, caluna_layer_superlayer(e, b, &l));
    CHECK(l == p, "b lives on in p after its release");
    EXPECT(e, caluna_layer_release(e, b), CALUNA_ERR_INVALID_ARGUMENT); /* no reference left */
    EXPECT_OK(e, caluna_layer_retain(e, b));
    EXPECT_OK(e, caluna_layer_retain(e, b));
    EXPECT_OK(e, caluna_layer_release(e, b));
    EXPECT_OK(e, caluna_layer_release(e, b));
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, b)); /* now nothing keeps b */
    EXPECT(e, caluna_layer_superlayer(e, b, &l), CALUNA_ERR_STALE_HANDLE);

    /* stale: create, release, use */
    EXPECT_OK(e, caluna_layer_create(e, &t));
    EXPECT_OK(e, caluna_layer_release(e, t));
    {
        caluna_value v = caluna_number(0.5);
        EXPECT(e, caluna_layer_get(e, t, "opacity", &v), CALUNA_ERR_STALE_HANDLE);
        CHECK(v.type == CALUNA_TYPE_NIL, "a failed get leaves NIL");
        v = caluna_number(0.5);
        EXPECT(e, caluna_layer_set(e, t, "opacity", &v), CALUNA_ERR_STALE_HANDLE);
    }
    EXPECT(e, caluna_layer_retain(e, t), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_release(e, t), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_add_sublayer(e, s->root, t), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_add_sublayer(e, t, a), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_remove_from_superlayer(e, t), CALUNA_ERR_STALE_HANDLE);
    {
        int32_t n = -1;
        EXPECT(e, caluna_layer_sublayer_count(e, t, &n), CALUNA_ERR_STALE_HANDLE);
        CHECK(n == 0, "a failed sublayer_count gives 0");
    }
    CHECK(strstr(caluna_last_error(e), "stale") != NULL, "the message says stale: %s", caluna_last_error(e));

    /* a stale id whose slot was reused after many allocations stays stale */
    {
        int k;
        caluna_layer many[200];
        int all_ok = 1;
        for (k = 0; k < 200; k++) all_ok &= caluna_layer_create(e, &many[k]) == CALUNA_OK;
        for (k = 0; k < 200; k++) all_ok &= caluna_layer_release(e, many[k]) == CALUNA_OK;
        for (k = 0; k < 200; k++) all_ok &= caluna_layer_create(e, &many[k]) == CALUNA_OK;
        CHECK(all_ok, "600 creates and releases");
        EXPECT(e, caluna_layer_retain(e, t), CALUNA_ERR_STALE_HANDLE);
        for (k = 0; k < 200; k++) all_ok &= caluna_layer_release(e, many[k]) == CALUNA_OK;
        CHECK(all_ok, "releases of the reused slots");
    }

    /* id 0 and garbage ids */
    EXPECT(e, caluna_layer_retain(e, 0), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_add_sublayer(e, 0, a), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_add_sublayer(e, p, 0), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_replace_sublayer(e, p, c, 0), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_insert_sublayer_above(e, p, a, UINT64_C(0xdeadbeef12345678)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_retain(e, UINT64_MAX), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_retain(e, (s->blue & ~UINT64_C(0xFFFFFFFF)) | UINT64_C(0xFFFFFFFF)), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_retain(e, s->blue ^ (UINT64_C(1) << 32)), CALUNA_ERR_STALE_HANDLE); /* wrong generation */

    /* foreign ids: layers of another engine */
    {
        caluna_engine *e2 = NULL;
        caluna_layer r2 = 0, x2 = 0;
        EXPECT_OK(NULL, caluna_engine_create(NULL, &e2));
        EXPECT_OK(e2, caluna_root_layer(e2, &r2));
        EXPECT_OK(e2, caluna_layer_create(e2, &x2));
        EXPECT(e, caluna_layer_add_sublayer(e, s->root, x2), CALUNA_ERR_STALE_HANDLE);
        EXPECT(e, caluna_layer_add_sublayer(e, r2, a), CALUNA_ERR_STALE_HANDLE);
        EXPECT(e, caluna_layer_retain(e, r2), CALUNA_ERR_STALE_HANDLE);
        CHECK(strstr(caluna_last_error(e), "another engine") != NULL, "the message names the other engine: %s",
              caluna_last_error(e));
        EXPECT(e2, caluna_layer_add_sublayer(e2, r2, s->blue), CALUNA_ERR_STALE_HANDLE);
        EXPECT(e2, caluna_layer_release(e2, a), CALUNA_ERR_STALE_HANDLE);
        /* destroying an engine that still owns layers is fine; its ids stay foreign */
        EXPECT_OK(NULL, caluna_engine_destroy(e2));
        EXPECT(e, caluna_layer_retain(e, x2), CALUNA_ERR_STALE_HANDLE);
    }

    /* clean up the owned references (p owns f c h g; a d and p are owned) */
    EXPECT_OK(e, caluna_layer_release(e, a));
    EXPECT_OK(e, caluna_layer_release(e, c));
    EXPECT_OK(e, caluna_layer_release(e, d));
    EXPECT_OK(e, caluna_layer_release(e, f));
    EXPECT_OK(e, caluna_layer_release(e, g));
    EXPECT_OK(e, caluna_layer_release(e, h));
    EXPECT_OK(e, caluna_layer_retain(e, c));
    EXPECT_OK(e, caluna_layer_release(e, p));   /* p dies, and with it f g h; c is still owned */
    EXPECT(e, caluna_layer_retain(e, p), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_retain(e, h), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_layer_superlayer(e, c, &l));
    CHECK(l == 0, "c survives its dead superlayer, detached");
    EXPECT_OK(e, caluna_layer_release(e, c));
    EXPECT(e, caluna_layer_retain(e, c), CALUNA_ERR_STALE_HANDLE);
}

static void test_values(scene *s) {
    caluna_engine *e = s->e;
    caluna_layer l = 0;
    caluna_value v;
    double m[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 10, 20, 0, 1};
    int k, same;
    printf("-- values by key path\n");
    EXPECT_OK(e, caluna_layer_create(e, &l));

    /* NUMBER */
    EXPECT_OK(e, set(e, l, "opacity", caluna_number(0.5)));
    CHECK(is_number(get(e, l, "opacity"), 0.5), "opacity = 0.5");
    EXPECT_OK(e, set(e, l, "zPosition", caluna_number(-3)));
    CHECK(is_number(get(e, l, "zPosition"), -3), "zPosition = -3");
    /* POINT and components */
    EXPECT_OK(e, set(e, l, "position", caluna_point(10, 20)));
    CHECK(is_point(get(e, l, "position"), 10, 20), "position = (10,20)");
    EXPECT_OK(e, set(e, l, "position.x", caluna_number(120)));
    CHECK(is_point(get(e, l, "position"), 120, 20), "position.x = 120 keeps y");
    CHECK(is_number(get(e, l, "position.y"), 20), "get position.y");
    EXPECT_OK(e, set(e, l, "anchorPoint", caluna_point(0, 1)));
    CHECK(is_point(get(e, l, "anchorPoint"), 0, 1), "anchorPoint = (0,1)");
    /* RECT, SIZE and nested components */
    EXPECT_OK(e, set(e, l, "bounds", caluna_rect(1, 2, 30, 40)));
    CHECK(is_rect(get(e, l, "bounds"), 1, 2, 30, 40), "bounds = (1,2,30,40)");
    EXPECT_OK(e, set(e, l, "bounds.size", caluna_size(80, 60)));
    CHECK(is_size(get(e, l, "bounds.size"), 80, 60), "bounds.size = (80,60)");
    EXPECT_OK(e, set(e, l, "bounds.size.width", caluna_number(81)));
    CHECK(is_number(get(e, l, "bounds.size.width"), 81), "bounds.size.width = 81");
    EXPECT_OK(e, set(e, l, "bounds.origin", caluna_point(0, 0)));
    CHECK(is_rect(get(e, l, "bounds"), 0, 0, 81, 60), "bounds.origin = (0,0)");
    EXPECT_OK(e, set(e, l, "anchorPoint", caluna_point(0.5, 0.5)));
    EXPECT_OK(e, set(e, l, "frame", caluna_rect(10, 10, 20, 20)));
    CHECK(is_rect(get(e, l, "frame"), 10, 10, 20, 20), "frame = (10,10,20,20)");
    CHECK(is_point(get(e, l, "position"), 20, 20), "frame sets position (20,20)");
    EXPECT_OK(e, set(e, l, "frame.origin.y", caluna_number(30)));
    CHECK(is_rect(get(e, l, "frame"), 10, 30, 20, 20), "frame.origin.y = 30");
    /* BOOL */
    EXPECT_OK(e, set(e, l, "hidden", caluna_bool(1)));
    v = get(e, l, "hidden");
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == 1, "hidden = true");
    EXPECT_OK(e, set(e, l, "hidden", caluna_bool(0)));
    v = get(e, l, "hidden");
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == 0, "hidden = false");
    v = caluna_bool(0);
    v.u.boolean = 42;
    EXPECT_OK(e, caluna_layer_set(e, l, "masksToBounds", &v));
    v = get(e, l, "masksToBounds");
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == 1, "masksToBounds = 42 reads back as 1");
    v = get(e, l, "allowsGroupOpacity");
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == 1, "allowsGroupOpacity defaults to true");
    /* STRING and NIL */
    v = get(e, l, "name");
    CHECK(v.type == CALUNA_TYPE_NIL, "name defaults to NIL");
    EXPECT_OK(e, set(e, l, "name", caluna_string("ünïcode layer")));
    v = get(e, l, "name");
    CHECK(v.type == CALUNA_TYPE_STRING && v.u.string && strcmp(v.u.string, "ünïcode layer") == 0, "name = \"%s\"",
          v.type == CALUNA_TYPE_STRING ? v.u.string : "?");
    EXPECT_OK(e, set(e, l, "name", caluna_nil()));
    CHECK(get(e, l, "name").type == CALUNA_TYPE_NIL, "name = NIL");
    /* COLOR */
    CHECK(get(e, l, "backgroundColor").type == CALUNA_TYPE_NIL, "backgroundColor defaults to NIL");
    EXPECT_OK(e, set(e, l, "backgroundColor", caluna_color(0.25, 0.5, 0.75, 0.5)));
    CHECK(is_color(get(e, l, "backgroundColor"), 0.25, 0.5, 0.75, 0.5), "backgroundColor = (0.25,0.5,0.75,0.5)");
    EXPECT_OK(e, set(e, l, "backgroundColor", caluna_nil()));
    CHECK(get(e, l, "backgroundColor").type == CALUNA_TYPE_NIL, "backgroundColor = NIL");
    /* TRANSFORM */
    v = get(e, l, "transform");
    same = v.type == CALUNA_TYPE_TRANSFORM;
    for (k = 0; k < 16; k++) same &= v.u.transform[k] == ((k % 5 == 0) ? 1.0 : 0.0);
    CHECK(same, "transform defaults to identity");
    EXPECT_OK(e, set(e, l, "transform", caluna_transform(m)));
    v = get(e, l, "transform");
    same = v.type == CALUNA_TYPE_TRANSFORM;
    for (k = 0; k < 16; k++) same &= v.u.transform[k] == m[k];
    CHECK(same, "transform round-trips in row order (m41 = %g, m42 = %g)", v.u.transform[12], v.u.transform[13]);
    v = get(e, l, "affineTransform");
    CHECK(v.type == CALUNA_TYPE_TRANSFORM && v.u.transform[0] == 2 && v.u.transform[5] == 3 && v.u.transform[12] == 10,
          "affineTransform reads the affine part");
    {   /* Not affine (perspective): affineTransform reads the identity, as in Core Animation. */
        double p[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, -0.002, 10, 20, 0, 1};
        EXPECT_OK(e, set(e, l, "transform", caluna_transform(p)));
        v = get(e, l, "affineTransform");
        same = v.type == CALUNA_TYPE_TRANSFORM;
        for (k = 0; k < 16; k++) same &= v.u.transform[k] == ((k % 5 == 0) ? 1.0 : 0.0);
        CHECK(same, "affineTransform of a perspective transform is the identity");
    }
    EXPECT_OK(e, set(e, l, "transform", caluna_transform_identity()));

    /* unknown keys */
    EXPECT(e, set(e, l, "nonsense", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(strstr(caluna_last_error(e), "nonsense") != NULL, "the message names the key: %s", caluna_last_error(e));
    EXPECT(e, caluna_layer_get(e, l, "nonsense", &v), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(v.type == CALUNA_TYPE_NIL, "a failed get leaves NIL");
    EXPECT(e, set(e, l, "position.z", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_layer_get(e, l, "position.z", &v), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_layer_get(e, l, "opacity.x", &v), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, set(e, l, "", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, caluna_layer_get(e, l, "", &v), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, set(e, l, "position.", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, set(e, l, "bounds.size.width.x", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT(e, set(e, l, "Opacity", caluna_number(1)), CALUNA_ERR_UNKNOWN_KEY);
    /* known Core Animation keys caluna does not do yet */
    EXPECT(e, set(e, l, "filters", caluna_number(4)), CALUNA_ERR_NOT_SUPPORTED);
    CHECK(strstr(caluna_last_error(e), "filters") != NULL, "the message names filters");
    EXPECT(e, caluna_layer_get(e, l, "filters", &v), CALUNA_ERR_NOT_SUPPORTED);
    EXPECT(e, caluna_layer_get(e, l, "cornerCurve", &v), CALUNA_ERR_NOT_SUPPORTED);
    /* sublayerTransform and doubleSided are ordinary properties since ABI 1.5 */
    EXPECT(e, caluna_layer_get(e, l, "sublayerTransform", &v), CALUNA_OK);
    CHECK(v.type == CALUNA_TYPE_TRANSFORM && v.u.transform[0] == 1 && v.u.transform[11] == 0,
          "sublayerTransform reads the identity");
    EXPECT(e, caluna_layer_get(e, l, "doubleSided", &v), CALUNA_OK);
    CHECK(v.type == CALUNA_TYPE_BOOL && v.u.boolean == 1, "doubleSided defaults to true");
    /* wrong types */
    EXPECT(e, set(e, l, "opacity", caluna_string("0.5")), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "opacity", caluna_bool(1)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "opacity", caluna_nil()), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "position", caluna_number(3)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "position", caluna_size(1, 2)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "position.x", caluna_point(1, 2)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "bounds.size", caluna_point(1, 2)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "bounds", caluna_point(1, 2)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "backgroundColor", caluna_string("#ffffff")), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "transform", caluna_rect(0, 0, 1, 1)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "hidden", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "name", caluna_number(1)), CALUNA_ERR_TYPE_MISMATCH);
    /* NaN and infinities */
    EXPECT(e, set(e, l, "opacity", caluna_number(NAN)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "opacity", caluna_number(-INFINITY)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "position", caluna_point(INFINITY, 0)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "position.y", caluna_number(NAN)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "bounds", caluna_rect(0, 0, NAN, 1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "bounds.size", caluna_size(1, INFINITY)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "backgroundColor", caluna_color(NAN, 0, 0, 1)), CALUNA_ERR_INVALID_ARGUMENT);
    {
        double bad[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        bad[15] = NAN;
        EXPECT(e, set(e, l, "transform", caluna_transform(bad)), CALUNA_ERR_INVALID_ARGUMENT);
        bad[15] = 1;
        bad[3] = INFINITY;
        EXPECT(e, set(e, l, "affineTransform", caluna_transform(bad)), CALUNA_ERR_INVALID_ARGUMENT);
    }
    /* ranges */
    EXPECT(e, set(e, l, "bounds", caluna_rect(0, 0, -5, 10)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "bounds.size.height", caluna_number(-1)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "position", caluna_point(1e9, 0)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "frame", caluna_rect(0, 0, 1e300, 1)), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(is_number(get(e, l, "opacity"), 0.5), "failed sets left opacity at 0.5");
    CHECK(is_rect(get(e, l, "frame"), 10, 30, 20, 20), "failed sets left the frame");
    /* malformed values */
    v = caluna_number(1);
    v.type = (caluna_value_type)42;
    EXPECT(e, caluna_layer_set(e, l, "opacity", &v), CALUNA_ERR_INVALID_ARGUMENT);
    v.type = (caluna_value_type)-1;
    EXPECT(e, caluna_layer_set(e, l, "opacity", &v), CALUNA_ERR_INVALID_ARGUMENT);
    v = caluna_nil();
    v.type = CALUNA_TYPE_IMAGE;   /* u.image 0: no image (ABI 1.3) */
    EXPECT(e, caluna_layer_set(e, l, "opacity", &v), CALUNA_ERR_STALE_HANDLE);
    v.type = CALUNA_TYPE_PATH;    /* an empty path, not a number (ABI 1.3) */
    EXPECT(e, caluna_layer_set(e, l, "opacity", &v), CALUNA_ERR_TYPE_MISMATCH);
    EXPECT(e, set(e, l, "name", caluna_string(NULL)), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, set(e, l, "name", caluna_string("bad \xc3\x28 utf8")), CALUNA_ERR_INVALID_ARGUMENT);
    /* NULL arguments */
    EXPECT(e, caluna_layer_set(e, l, NULL, &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set(e, l, "opacity", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_get(e, l, NULL, &v), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_get(e, l, "opacity", NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_get(e, l, "\xff", &v), CALUNA_ERR_INVALID_ARGUMENT);
    /* id 0 */
    EXPECT(e, caluna_layer_get(e, 0, "opacity", &v), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, set(e, 0, "opacity", caluna_number(1)), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_layer_release(e, l));
}

static void test_render(scene *s) {
    caluna_engine *e = s->e;
    const int32_t w = 300, h = 300, stride = 300 * 4 + 16;
    size_t size = (size_t)stride * (size_t)h;
    uint8_t *buf = (uint8_t *)malloc(size), *buf2 = (uint8_t *)malloc(size);
    int32_t pw = 0, ph = 0;
    printf("-- rendering\n");
    if (!buf || !buf2) { CHECK(0, "malloc"); free(buf); free(buf2); return; }
    EXPECT_OK(e, caluna_engine_pixel_size(e, &pw, &ph));
    CHECK(pw == 300 && ph == 300, "pixel size 300x300");

    memset(buf, 0x5a, size);
    EXPECT_OK(e, caluna_render(e, buf, size, w, h, stride, CALUNA_RGBA8_STRAIGHT));
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 150, 150, 0, 0, 255, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 75, 75, 255, 255, 255, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 20, 20, 0xaa, 0xaa, 0xaa, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 103, 103, 0, 0, 255, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 97, 97, 255, 255, 255, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 197, 197, 0, 0, 255, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 203, 203, 255, 255, 255, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 260, 260, 0xaa, 0xaa, 0xaa, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 0, 0, 0xaa, 0xaa, 0xaa, 255, 2);
    PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 299, 299, 0xaa, 0xaa, 0xaa, 255, 2);
    {
        int untouched = 1, y, k;
        for (y = 0; y < h; y++)
            for (k = w * 4; k < stride; k++) untouched &= buf[(size_t)y * (size_t)stride + (size_t)k] == 0x5a;
        CHECK(untouched, "row padding bytes are not written");
    }
    memset(buf2, 0, size);
    EXPECT_OK(e, caluna_render(e, buf2, size, w, h, stride, CALUNA_BGRA8_PREMULTIPLIED));
    {
        const uint8_t *p = buf2 + 150 * (size_t)stride + 150 * 4;
        CHECK(p[0] == 255 && p[1] == 0 && p[2] == 0 && p[3] == 255, "BGRA8: blue is bytes (255,0,0,255), got (%d,%d,%d,%d)",
              p[0], p[1], p[2], p[3]);
    }
    PIXEL(buf2, stride, CALUNA_BGRA8_PREMULTIPLIED, 75, 75, 255, 255, 255, 255, 2);
    PIXEL(buf2, stride, CALUNA_BGRA8_PREMULTIPLIED, 20, 20, 0xaa, 0xaa, 0xaa, 255, 2);
    /* determinism: same inputs, same bytes */
    memset(buf2, 0x5a, size);
    EXPECT_OK(e, caluna_render(e, buf2, size, w, h, stride, CALUNA_RGBA8_STRAIGHT));
    CHECK(memcmp(buf, buf2, size) == 0, "two renders give identical bytes");
    /* a tight buffer (stride = width * 4, buffer_size = exactly stride * height) */
    EXPECT_OK(e, caluna_render(e, buf2, (size_t)w * 4 * (size_t)h, w, h, w * 4, CALUNA_BGRA8_STRAIGHT));
    PIXEL(buf2, w * 4, CALUNA_BGRA8_STRAIGHT, 150, 150, 0, 0, 255, 255, 2);

    /* translucency: premultiplied and straight differ */
    {
        caluna_layer t = 0;
        /* the root was committed: without this its change would animate (ABI 1.2) */
        EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
        EXPECT_OK(e, caluna_layer_create(e, &t));
        EXPECT_OK(e, set(e, t, "frame", caluna_rect(260, 0, 40, 40)));
        EXPECT_OK(e, set(e, t, "backgroundColor", caluna_color(1, 0, 0, 0.5)));
        EXPECT_OK(e, set(e, s->root, "backgroundColor", caluna_nil()));
        EXPECT_OK(e, caluna_layer_add_sublayer(e, s->root, t));
        EXPECT_OK(e, caluna_render(e, buf, size, w, h, stride, CALUNA_RGBA8_STRAIGHT));
        PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 280, 20, 255, 0, 0, 128, 2);
        PIXEL(buf, stride, CALUNA_RGBA8_STRAIGHT, 20, 20, 0, 0, 0, 0, 0);
        EXPECT_OK(e, caluna_render(e, buf, size, w, h, stride, CALUNA_BGRA8_PREMULTIPLIED));
        {
            const uint8_t *p = buf + 20 * (size_t)stride + 280 * 4;
            CHECK(p[0] == 0 && p[1] == 0 && abs(p[2] - 128) <= 1 && abs(p[3] - 128) <= 1,
                  "BGRA8 premultiplied half red is bytes (0,0,128,128), got (%d,%d,%d,%d)", p[0], p[1], p[2], p[3]);
        }
        EXPECT_OK(e, caluna_render(e, buf, size, w, h, stride, CALUNA_RGBA8_PREMULTIPLIED));
        PIXEL(buf, stride, CALUNA_RGBA8_PREMULTIPLIED, 280, 20, 128, 0, 0, 128, 1);
        EXPECT_OK(e, caluna_render(e, buf, size, w, h, stride, CALUNA_BGRA8_STRAIGHT));
        PIXEL(buf, stride, CALUNA_BGRA8_STRAIGHT, 280, 20, 255, 0, 0, 128, 2);
        EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, t));
        EXPECT_OK(e, caluna_layer_release(e, t));
        EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1)); /* the renders ended the last transaction */
        EXPECT_OK(e, set(e, s->root, "backgroundColor", caluna_color_rgb(0xaaaaaa, 1)));
    }

    /* scale 2: twice the pixels, same picture */
    EXPECT_OK(e, caluna_engine_set_size(e, 300, 300, 2));
    EXPECT_OK(e, caluna_engine_pixel_size(e, &pw, &ph));
    CHECK(pw == 600 && ph == 600, "scale 2: %dx%d pixels", (int)pw, (int)ph);
    {
        size_t big = (size_t)600 * 4 * 600;
        uint8_t *b2 = (uint8_t *)malloc(big);
        if (b2) {
            EXPECT(e, caluna_render(e, b2, big, 300, 300, 1200, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
            EXPECT_OK(e, caluna_render(e, b2, big, 600, 600, 2400, CALUNA_RGBA8_STRAIGHT));
            PIXEL(b2, 2400, CALUNA_RGBA8_STRAIGHT, 300, 300, 0, 0, 255, 255, 2);
            PIXEL(b2, 2400, CALUNA_RGBA8_STRAIGHT, 150, 150, 255, 255, 255, 255, 2);
            PIXEL(b2, 2400, CALUNA_RGBA8_STRAIGHT, 40, 40, 0xaa, 0xaa, 0xaa, 255, 2);
            free(b2);
        }
    }
    EXPECT_OK(e, caluna_engine_set_size(e, 300, 300, 1));

    /* render errors */
    EXPECT(e, caluna_render(e, NULL, size, w, h, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w + 1, h, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w, h - 1, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, 0, 0, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, -300, h, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w, -300, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, INT32_MAX, INT32_MAX, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w, h, w * 4 - 1, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w, h, 0, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w, h, -stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w, h, INT32_MAX, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size - 1, w, h, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, 0, w, h, stride, CALUNA_RGBA8_STRAIGHT), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w, h, stride, (caluna_pixel_format)4), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render(e, buf, size, w, h, stride, (caluna_pixel_format)-1), CALUNA_ERR_INVALID_ARGUMENT);

    /* PNG */
    remove("abi_test.png");
    EXPECT_OK(e, caluna_render_png(e, "abi_test.png"));
    {
        FILE *f = fopen("abi_test.png", "rb");
        unsigned char sig[8] = {0};
        size_t got = f ? fread(sig, 1, 8, f) : 0;
        if (f) fclose(f);
        CHECK(got == 8 && memcmp(sig, "\x89PNG\r\n\x1a\n", 8) == 0, "abi_test.png has a PNG signature");
    }
    EXPECT(e, caluna_render_png(e, "/nonexistent-dir/sub/abi_test.png"), CALUNA_ERR_IO);
    EXPECT(e, caluna_render_png(e, "."), CALUNA_ERR_IO);
    EXPECT(e, caluna_render_png(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_png(e, ""), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_render_png(e, "bad\xff.png"), CALUNA_ERR_INVALID_ARGUMENT);
    free(buf);
    free(buf2);
}

static void test_geometry(scene *s) {
    caluna_engine *e = s->e;
    double x = -1, y = -1, rw = -1, rh = -1;
    int32_t in = -1;
    caluna_layer l = 0, detached = 0;
    printf("-- conversion and hit testing (listings 3.4, 3.5)\n");
    EXPECT_OK(e, caluna_layer_convert_point(e, s->blue, 0, 0, 0, &x, &y));
    CHECK(near(x, 100, 1e-9) && near(y, 100, 1e-9), "B (0,0) to the canvas = (%g,%g), expected (100,100)", x, y);
    EXPECT_OK(e, caluna_layer_convert_point(e, s->blue, s->root, 0, 0, &x, &y));
    CHECK(near(x, 100, 1e-9) && near(y, 100, 1e-9), "B (0,0) to R = (%g,%g)", x, y);
    EXPECT_OK(e, caluna_layer_convert_rect(e, s->blue, s->root, 0, 0, 100, 100, &x, &y, &rw, &rh));
    CHECK(near(x, 100, 1e-9) && near(y, 100, 1e-9) && near(rw, 100, 1e-9) && near(rh, 100, 1e-9),
          "B.bounds to R = (%g,%g,%g,%g), expected (100,100,100,100)", x, y, rw, rh);
    EXPECT_OK(e, caluna_layer_convert_point(e, s->root, s->blue, 160, 160, &x, &y));
    CHECK(near(x, 60, 1e-9) && near(y, 60, 1e-9), "R (160,160) to B = (%g,%g), expected (60,60)", x, y);
    EXPECT_OK(e, caluna_layer_convert_point(e, 0, s->blue, 160, 160, &x, &y));
    CHECK(near(x, 60, 1e-9) && near(y, 60, 1e-9), "canvas (160,160) to B = (%g,%g)", x, y);
    EXPECT_OK(e, caluna_layer_convert_point(e, 0, 0, 7, 8, &x, &y));
    CHECK(x == 7 && y == 8, "canvas to canvas is the identity");
    EXPECT_OK(e, caluna_layer_convert_rect(e, 0, s->white, 0, 0, 10, 10, &x, &y, &rw, &rh));
    CHECK(near(x, -50, 1e-9) && near(y, -50, 1e-9) && near(rw, 10, 1e-9), "canvas rect to L = (%g,%g,%g,%g)", x, y, rw, rh);

    /* listing 3.4: classify by containsPoint */
    EXPECT_OK(e, caluna_layer_convert_point(e, s->root, s->white, 160, 160, &x, &y));
    CHECK(near(x, 110, 1e-9) && near(y, 110, 1e-9), "classify(160,160): L-local (%g,%g)", x, y);
    EXPECT_OK(e, caluna_layer_contains_point(e, s->white, x, y, &in));
    CHECK(in == 1, "L contains (110,110)");
    EXPECT_OK(e, caluna_layer_convert_point(e, s->white, s->blue, x, y, &x, &y));
    CHECK(near(x, 60, 1e-9) && near(y, 60, 1e-9), "then B-local (%g,%g)", x, y);
    EXPECT_OK(e, caluna_layer_contains_point(e, s->blue, x, y, &in));
    CHECK(in == 1, "B contains (60,60): blue");
    EXPECT_OK(e, caluna_layer_contains_point(e, s->blue, -30, -30, &in));
    CHECK(in == 0, "B does not contain (-30,-30)");
    EXPECT_OK(e, caluna_layer_contains_point(e, s->blue, 0, 0, &in));
    CHECK(in == 1, "B contains (0,0)");
    EXPECT_OK(e, caluna_layer_contains_point(e, s->blue, 100, 100, &in));
    CHECK(in == 0, "B does not contain (100,100) (half-open)");

    /* listing 3.5: hitTest, the point in the superlayer's space */
    EXPECT_OK(e, caluna_layer_hit_test(e, s->white, 160, 160, &l));
    CHECK(l == s->blue, "L.hitTest((160,160)) == B");
    EXPECT_OK(e, caluna_layer_hit_test(e, s->white, 70, 70, &l));
    CHECK(l == s->white, "L.hitTest((70,70)) == L");
    l = 99;
    EXPECT_OK(e, caluna_layer_hit_test(e, s->white, 10, 10, &l));
    CHECK(l == 0, "L.hitTest((10,10)) == none");
    EXPECT_OK(e, caluna_layer_hit_test(e, s->root, 10, 10, &l));
    CHECK(l == s->root, "R.hitTest((10,10)) == R");
    l = 99;
    EXPECT_OK(e, caluna_layer_hit_test(e, s->root, 400, 400, &l));
    CHECK(l == 0, "R.hitTest((400,400)) == none");

    /* under rotation: L.affineTransform = 90 degrees, B (0,0) to R = (200,100) */
    {
        double rot[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        EXPECT_OK(e, set(e, s->white, "affineTransform", caluna_transform(rot)));
        EXPECT_OK(e, caluna_layer_convert_point(e, s->blue, s->root, 0, 0, &x, &y));
        CHECK(near(x, 200, 1e-9) && near(y, 100, 1e-9), "rotated: B (0,0) to R = (%g,%g), expected (200,100)", x, y);
        EXPECT_OK(e, set(e, s->white, "transform", caluna_transform_identity()));
    }
    /* a singular transform has no inverse */
    {
        double flat[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        EXPECT_OK(e, set(e, s->blue, "transform", caluna_transform(flat)));
        EXPECT(e, caluna_layer_convert_point(e, 0, s->blue, 1, 1, &x, &y), CALUNA_ERR_INVALID_ARGUMENT);
        EXPECT_OK(e, caluna_layer_hit_test(e, s->white, 100, 100, &l));
        CHECK(l == s->white, "a flattened B is not hit");
        EXPECT_OK(e, set(e, s->blue, "transform", caluna_transform_identity()));
    }

    /* errors */
    EXPECT_OK(e, caluna_layer_create(e, &detached));
    EXPECT(e, caluna_layer_convert_point(e, detached, s->blue, 0, 0, &x, &y), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_convert_rect(e, s->blue, detached, 0, 0, 1, 1, &x, &y, &rw, &rh), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_convert_point(e, s->blue, 0, NAN, 0, &x, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_point(e, s->blue, 0, 0, INFINITY, &x, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_rect(e, s->blue, 0, 0, 0, NAN, 1, &x, &y, &rw, &rh), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_point(e, s->blue, 0, 0, 0, NULL, &y), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_point(e, s->blue, 0, 0, 0, &x, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_rect(e, s->blue, 0, 0, 0, 1, 1, &x, &y, &rw, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_convert_point(e, UINT64_C(12345), 0, 0, 0, &x, &y), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_convert_point(e, 0, UINT64_C(12345), 0, 0, &x, &y), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_contains_point(e, s->blue, NAN, 0, &in), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_contains_point(e, s->blue, 0, 0, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_contains_point(e, 0, 0, 0, &in), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_hit_test(e, s->blue, 0, -INFINITY, &l), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_hit_test(e, s->blue, 0, 0, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_hit_test(e, 0, 0, 0, &l), CALUNA_ERR_STALE_HANDLE);

    /* layout */
    EXPECT_OK(e, caluna_layer_set_needs_layout(e, s->white));
    EXPECT_OK(e, caluna_layer_layout_if_needed(e, s->root));
    EXPECT_OK(e, caluna_layer_layout_if_needed(e, detached));
    EXPECT(e, caluna_layer_set_needs_layout(e, 0), CALUNA_ERR_STALE_HANDLE);
    EXPECT(e, caluna_layer_layout_if_needed(e, UINT64_C(0xffff000000000001)), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_layer_release(e, detached));
}

/* Absurd but finite values and deep trees: every call returns a status, nothing crashes. */
static void test_robustness(scene *s) {
    caluna_engine *e = s->e;
    caluna_layer l = 0, top = 0, chain = 0, prev = 0;
    int32_t w = 0, h = 0;
    size_t size;
    uint8_t *buf;
    int k, ok;
    caluna_status st;
    double huge[16] = {1e300, 1e300, 0, 0, -1e300, 1e300, 0, 0, 0, 0, 1, 0, 1e300, -1e300, 0, 1};
    double persp[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1.0 / 500, 0, 0, 0, 1};
    printf("-- robustness\n");
    EXPECT_OK(e, caluna_engine_pixel_size(e, &w, &h));
    size = (size_t)w * 4 * (size_t)h;
    buf = (uint8_t *)malloc(size);
    if (!buf) { CHECK(0, "malloc"); return; }
    EXPECT_OK(e, caluna_layer_create(e, &l));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, s->blue, l));
    EXPECT_OK(e, set(e, l, "frame", caluna_rect(-1e8, -1e8, 1e8, 1e8)));
    EXPECT_OK(e, set(e, l, "backgroundColor", caluna_color(1e10, -1e10, 0.5, 1e300)));
    EXPECT_OK(e, set(e, l, "opacity", caluna_number(1e300)));
    EXPECT_OK(e, set(e, l, "zPosition", caluna_number(-1e8)));
    EXPECT_OK(e, set(e, l, "anchorPoint", caluna_point(1e8, -1e8)));
    EXPECT_OK(e, set(e, l, "transform", caluna_transform(huge)));
    st = caluna_render(e, buf, size, w, h, w * 4, CALUNA_RGBA8_STRAIGHT);
    CHECK(st == CALUNA_OK || st == CALUNA_ERR_INVALID_ARGUMENT || st == CALUNA_ERR_NOT_SUPPORTED,
          "render with absurd values -> %s", caluna_status_name(st));
    {
        double x = 0, y = 0;
        st = caluna_layer_convert_point(e, l, 0, 1, 1, &x, &y);
        CHECK(st == CALUNA_OK || st == CALUNA_ERR_INVALID_ARGUMENT, "convert through 1e300 transforms -> %s",
              caluna_status_name(st));
        st = caluna_layer_hit_test(e, s->root, 150, 150, &top);
        CHECK(st == CALUNA_OK, "hit test with absurd values -> %s", caluna_status_name(st));
    }
    /* l is committed now: its changes jump (an implicit animation would keep it alive below) */
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    EXPECT_OK(e, set(e, l, "opacity", caluna_number(-1e300)));
    EXPECT_OK(e, set(e, l, "transform", caluna_transform(persp)));
    st = caluna_render(e, buf, size, w, h, w * 4, CALUNA_RGBA8_STRAIGHT);
    CHECK(st == CALUNA_OK || st == CALUNA_ERR_NOT_SUPPORTED, "render with opacity -1e300 (hidden) and perspective -> %s",
          caluna_status_name(st));
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1)); /* the render ended the last transaction */
    EXPECT_OK(e, set(e, l, "opacity", caluna_number(1)));
    st = caluna_render(e, buf, size, w, h, w * 4, CALUNA_RGBA8_STRAIGHT);
    CHECK(st == CALUNA_OK || st == CALUNA_ERR_NOT_SUPPORTED, "render with a perspective transform -> %s: %s",
          caluna_status_name(st), st ? caluna_last_error(e) : "");
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, l));
    EXPECT_OK(e, caluna_layer_release(e, l));
    EXPECT(e, caluna_layer_retain(e, l), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_render(e, buf, size, w, h, w * 4, CALUNA_RGBA8_STRAIGHT));
    PIXEL(buf, w * 4, CALUNA_RGBA8_STRAIGHT, 150, 150, 0, 0, 255, 255, 2);

    /* depth: root is level 1, so 1023 nested layers fill the tree to CALUNA_MAX_TREE_DEPTH */
    prev = s->root;
    ok = 1;
    for (k = 0; k < CALUNA_MAX_TREE_DEPTH - 1 && ok; k++) {
        caluna_layer n = 0;
        ok &= caluna_layer_create(e, &n) == CALUNA_OK;
        ok &= caluna_layer_add_sublayer(e, prev, n) == CALUNA_OK;
        ok &= caluna_layer_release(e, n) == CALUNA_OK;
        if (k == 0) chain = n;
        prev = n;
    }
    CHECK(ok, "a chain of %d levels can be built", CALUNA_MAX_TREE_DEPTH);
    EXPECT_OK(e, caluna_layer_create(e, &l));
    EXPECT(e, caluna_layer_add_sublayer(e, prev, l), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_insert_sublayer(e, prev, l, 0), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_insert_sublayer_above(e, prev, l, 0), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_insert_sublayer_below(e, prev, l, 0), CALUNA_ERR_TREE);
    /* grafting the deep chain under another layer also counts the chain's height */
    EXPECT(e, caluna_layer_add_sublayer(e, s->white, chain), CALUNA_ERR_TREE);
    EXPECT(e, caluna_layer_replace_sublayer(e, s->white, s->blue, chain), CALUNA_ERR_TREE);
    EXPECT_OK(e, caluna_layer_add_sublayer(e, l, prev));  /* moving the leaf up is fine */
    EXPECT_OK(e, caluna_render(e, buf, size, w, h, w * 4, CALUNA_RGBA8_STRAIGHT));
    EXPECT_OK(e, caluna_layer_hit_test(e, s->root, 1, 1, &top));
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, chain));   /* frees 1022 layers */
    EXPECT(e, caluna_layer_retain(e, chain), CALUNA_ERR_STALE_HANDLE);
    EXPECT_OK(e, caluna_layer_release(e, l));
    free(buf);
}

static void test_time(scene *s) {
    caluna_engine *e = s->e;
    double t = -1;
    printf("-- time\n");
    EXPECT_OK(e, caluna_engine_media_time(e, &t));
    CHECK(t == 0, "media time starts at 0 (got %g)", t);
    EXPECT_OK(e, caluna_engine_step(e, 1.0 / 60));
    EXPECT_OK(e, caluna_engine_media_time(e, &t));
    CHECK(near(t, 1.0 / 60, 1e-9), "after step(1/60): %.9f", t);
    EXPECT_OK(e, caluna_engine_step(e, 0));
    EXPECT_OK(e, caluna_engine_advance(e, 1.5));
    EXPECT_OK(e, caluna_engine_media_time(e, &t));
    CHECK(t == 1.5, "after advance(1.5): %g", t);
    EXPECT(e, caluna_engine_advance(e, 1.0), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_advance(e, NAN), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_advance(e, INFINITY), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_advance(e, -1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_advance(e, 1e300), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_step(e, -0.1), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_step(e, NAN), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_step(e, INFINITY), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_step(e, 1e10), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_step(e, 1e300), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_media_time(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_engine_media_time(e, &t));
    CHECK(t == 1.5, "failed steps left the clock at 1.5 (got %g)", t);
}

static void test_scripts(scene *s) {
    caluna_engine *e = s->e;
    caluna_layer l = 0;
    FILE *f;
    printf("-- scripts\n");
    /* A script builds a layer through the Lua binding; the C side finds and reads it. */
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "assert(ca.root.name == 'root')\n"
        "local l = ca.Layer{ name = 'scripted', frame = {10, 20, 30, 40}, backgroundColor = '#ff0000' }\n"
        "ca.root:addSublayer(l)\n",
        "tiny"));
    EXPECT_OK(e, caluna_layer_find(e, "scripted", &l));
    CHECK(is_rect(get(e, l, "frame"), 10, 20, 30, 40), "the scripted layer's frame is (10,20,30,40)");
    CHECK(is_color(get(e, l, "backgroundColor"), 1, 0, 0, 1), "and its colour #ff0000");
    {
        uint8_t *buf = (uint8_t *)malloc((size_t)300 * 4 * 300);
        if (buf) {
            EXPECT_OK(e, caluna_render(e, buf, (size_t)300 * 4 * 300, 300, 300, 1200, CALUNA_RGBA8_STRAIGHT));
            PIXEL(buf, 1200, CALUNA_RGBA8_STRAIGHT, 25, 40, 255, 0, 0, 255, 2);
            free(buf);
        }
    }
    /* The C side changes it; the script sees the change (same layer, same property table). */
    EXPECT_OK(e, set(e, l, "opacity", caluna_number(0.25)));
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local l = ca.root.sublayers[#ca.root.sublayers]\n"
        "assert(l.name == 'scripted', 'last sublayer is ' .. tostring(l.name))\n"
        "assert(l.opacity == 0.25, 'opacity is ' .. tostring(l.opacity))\n"
        "l:removeFromSuperlayer()\n",
        "reads-c"));
    {
        int32_t n = -1;
        EXPECT_OK(e, caluna_layer_sublayer_count(e, s->root, &n));
        CHECK(n == 1, "the script removed its layer (%d sublayer left)", (int)n);
    }
    EXPECT(e, caluna_layer_find(e, "scripted", &l), CALUNA_ERR_UNKNOWN_KEY);
    EXPECT_OK(e, caluna_engine_load_string(e, "local x = 1 + 1", NULL));
    /* files */
    f = fopen("abi_test_scene.lua", "w");
    if (f) {
        fputs("local ca = require 'caluna'\nca.root:addSublayer(ca.Layer{ name = 'from-file' })\n", f);
        fclose(f);
    }
    EXPECT_OK(e, caluna_engine_load_file(e, "abi_test_scene.lua"));
    EXPECT_OK(e, caluna_layer_find(e, "from-file", &l));
    EXPECT_OK(e, caluna_layer_remove_from_superlayer(e, l));
    remove("abi_test_scene.lua");
    /* failures */
    EXPECT(e, caluna_engine_load_string(e, "this is not lua (", "broken"), CALUNA_ERR_SCRIPT);
    CHECK(strstr(caluna_last_error(e), "broken:1:") != NULL, "the message has chunk:line: %s", caluna_last_error(e));
    EXPECT(e, caluna_engine_load_string(e, "error('boom')", "raises"), CALUNA_ERR_SCRIPT);
    CHECK(strstr(caluna_last_error(e), "boom") != NULL, "the message has the error: %s", caluna_last_error(e));
    EXPECT(e, caluna_engine_load_string(e, "require('caluna').root.opacity = 'x'", "misuse"), CALUNA_ERR_SCRIPT);
    EXPECT(e, caluna_engine_load_file(e, "/nonexistent-dir/scene.lua"), CALUNA_ERR_IO);
    EXPECT(e, caluna_engine_load_file(e, "."), CALUNA_ERR_IO);
    EXPECT(e, caluna_engine_load_file(e, ""), CALUNA_ERR_IO);
    EXPECT(e, caluna_engine_load_string(e, NULL, "x"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_load_string(e, "x = '\xff'", "x"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_load_string(e, "x = 1", "\xff"), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_load_file(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    /* the engine is still usable after script failures */
    {
        int32_t n = -1;
        EXPECT_OK(e, caluna_layer_sublayer_count(e, s->root, &n));
        CHECK(n == 1, "the scene survived the script calls (%d sublayer)", (int)n);
        CHECK(is_number(get(e, s->root, "opacity"), 1), "the failed script left root.opacity at 1");
    }
}

static void test_last_error(scene *s) {
    caluna_engine *e = s->e;
    caluna_engine *bad = NULL;
    caluna_engine_options o = caluna_engine_options_default();
    const char *msg;
    printf("-- last error\n");
    EXPECT(e, caluna_layer_set_needs_layout(e, 0), CALUNA_ERR_STALE_HANDLE);
    msg = caluna_last_error(e);
    CHECK(strstr(msg, "caluna_layer_set_needs_layout") != NULL, "the message names the function: %s", msg);
    EXPECT_OK(e, caluna_engine_step(e, 0));
    CHECK(strstr(caluna_last_error(e), "caluna_layer_set_needs_layout") != NULL,
          "a successful call does not clear the last error");
    o.scale = -1;
    EXPECT(NULL, caluna_engine_create(&o, &bad), CALUNA_ERR_INVALID_ARGUMENT);
    CHECK(strstr(caluna_last_error(NULL), "scale") != NULL, "create's failure is at caluna_last_error(NULL): %s",
          caluna_last_error(NULL));
    CHECK(strstr(caluna_last_error(e), "scale") == NULL, "and not on the other engine");
}

int main(void) {
    scene s;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("caluna %s, ABI %d\n", caluna_version(), caluna_abi_version());
    test_version();
    test_engine_options();
    test_unusable_engines();
    test_many_engines();
    s = make_scene();
    test_scene_properties(&s);
    test_tree(&s);
    test_values(&s);
    test_render(&s);
    test_geometry(&s);
    test_robustness(&s);
    test_time(&s);
    test_scripts(&s);
    test_last_error(&s);
    EXPECT_OK(s.e, caluna_layer_release(s.e, s.white));
    EXPECT_OK(s.e, caluna_layer_release(s.e, s.blue));
    EXPECT(s.e, caluna_layer_release(s.e, s.blue), CALUNA_ERR_INVALID_ARGUMENT); /* in the tree, not owned */
    EXPECT_OK(NULL, caluna_engine_destroy(s.e));
    EXPECT(s.e, caluna_engine_destroy(s.e), CALUNA_ERR_STALE_HANDLE);
    return finish();
}

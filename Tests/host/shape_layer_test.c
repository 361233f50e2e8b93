/* CAShapeLayer through the C ABI: listing 6.1 (the stick figure) built from path elements
 * and caluna_layer_set, checked at the same pixels as Tests/scenes/ch06_shape_layer.lua
 * (spec book-ch05-06 T6.1; the head's arc is computed here as cubic elements, and must
 * equal what caluna_path_arc makes), the defaults, the dash array, implicit strokeEnd,
 * caluna_path_rounded_rect (T6.1b) and the error statuses of bad input. C99. */
#include "check.h"
#include "pixels.h"

static const double PI = 3.14159265358979323846;

static caluna_path_element el(caluna_path_element_type t, double x0, double y0, double x1, double y1,
                              double x2, double y2) {
    caluna_path_element e;
    memset(&e, 0, sizeof e);
    e.type = t;
    e.points[0].x = x0; e.points[0].y = y0;
    e.points[1].x = x1; e.points[1].y = y1;
    e.points[2].x = x2; e.points[2].y = y2;
    return e;
}

/* Listing 6.1's path; the head is the circle centre (150, 100), r 25, as four cubics a C
 * host computes itself (k = 4/3·tan(π/8)·r), clockwise on screen from angle 0. */
static int32_t stick_figure(caluna_path_element *p) {
    int32_t n = 0;
    double cx = 150, cy = 100, r = 25, k = 4.0 / 3.0 * tan(PI / 8) * r;
    p[n++] = el(CALUNA_PATH_MOVE, 175, 100, 0, 0, 0, 0);
    p[n++] = el(CALUNA_PATH_CUBIC, cx + r, cy + k, cx + k, cy + r, cx, cy + r);
    p[n++] = el(CALUNA_PATH_CUBIC, cx - k, cy + r, cx - r, cy + k, cx - r, cy);
    p[n++] = el(CALUNA_PATH_CUBIC, cx - r, cy - k, cx - k, cy - r, cx, cy - r);
    p[n++] = el(CALUNA_PATH_CUBIC, cx + k, cy - r, cx + r, cy - k, cx + r, cy);
    p[n++] = el(CALUNA_PATH_MOVE, 150, 125, 0, 0, 0, 0);
    p[n++] = el(CALUNA_PATH_LINE, 150, 175, 0, 0, 0, 0);
    p[n++] = el(CALUNA_PATH_LINE, 125, 225, 0, 0, 0, 0);
    p[n++] = el(CALUNA_PATH_MOVE, 150, 175, 0, 0, 0, 0);
    p[n++] = el(CALUNA_PATH_LINE, 175, 225, 0, 0, 0, 0);
    p[n++] = el(CALUNA_PATH_MOVE, 100, 150, 0, 0, 0, 0);
    p[n++] = el(CALUNA_PATH_LINE, 200, 150, 0, 0, 0, 0);
    return n;
}

static void set_string(caluna_engine *e, caluna_layer l, const char *key, const char *s) {
    caluna_value v = caluna_string(s);
    EXPECT_OK(e, caluna_layer_set(e, l, key, &v));
}

static void set_number(caluna_engine *e, caluna_layer l, const char *key, double n) {
    caluna_value v = caluna_number(n);
    EXPECT_OK(e, caluna_layer_set(e, l, key, &v));
}

static void defaults(caluna_engine *e) {
    caluna_layer s = 0;
    caluna_value v;
    EXPECT_OK(e, caluna_layer_create_class(e, "CAShapeLayer", &s));
    EXPECT_OK(e, caluna_layer_get(e, s, "fillColor", &v));
    CHECK(v.type == CALUNA_TYPE_COLOR && v.u.color.r == 0 && v.u.color.a == 1, "fillColor: opaque black");
    caluna_layer_get(e, s, "strokeColor", &v);
    CHECK(v.type == CALUNA_TYPE_NIL, "strokeColor: nil");
    caluna_layer_get(e, s, "path", &v);
    CHECK(v.type == CALUNA_TYPE_NIL, "path: nil");
    caluna_layer_get(e, s, "lineDashPattern", &v);
    CHECK(v.type == CALUNA_TYPE_NIL, "lineDashPattern: nil");
    caluna_layer_get(e, s, "lineWidth", &v);
    CHECK(v.type == CALUNA_TYPE_NUMBER && v.u.number == 1, "lineWidth: 1");
    caluna_layer_get(e, s, "miterLimit", &v);
    CHECK(v.u.number == 10, "miterLimit: 10");
    caluna_layer_get(e, s, "strokeEnd", &v);
    CHECK(v.u.number == 1, "strokeEnd: 1");
    caluna_layer_get(e, s, "lineCap", &v);
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "butt") == 0, "lineCap: butt");
    caluna_layer_get(e, s, "lineJoin", &v);
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "miter") == 0, "lineJoin: miter");
    caluna_layer_get(e, s, "fillRule", &v);
    CHECK(v.type == CALUNA_TYPE_STRING && strcmp(v.u.string, "nonZero") == 0, "fillRule: nonZero");

    /* The dash pattern is an ARRAY of NUMBERs. */
    caluna_value items[2] = { caluna_number(10), caluna_number(5) };
    caluna_value dash = caluna_array_value(items, 2);
    EXPECT_OK(e, caluna_layer_set(e, s, "lineDashPattern", &dash));
    EXPECT_OK(e, caluna_layer_get(e, s, "lineDashPattern", &v));
    CHECK(v.type == CALUNA_TYPE_ARRAY && v.u.array.count == 2 && v.u.array.items[1].u.number == 5, "dash read back");

    /* Bad input: a status and a message, the old value kept. */
    caluna_value nan = caluna_number(NAN), neg = caluna_number(-1), str = caluna_string("x");
    EXPECT(e, caluna_layer_set(e, s, "lineWidth", &nan), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set(e, s, "lineWidth", &neg), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set(e, s, "lineWidth", &str), CALUNA_ERR_TYPE_MISMATCH);
    caluna_value rounded = caluna_string("rounded"), evenodd = caluna_string("even-odd");
    EXPECT(e, caluna_layer_set(e, s, "lineCap", &rounded), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_layer_set(e, s, "fillRule", &evenodd), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_value bad_items[2] = { caluna_number(1), caluna_string("a") };
    caluna_value bad_dash = caluna_array_value(bad_items, 2);
    EXPECT(e, caluna_layer_set(e, s, "lineDashPattern", &bad_dash), CALUNA_ERR_TYPE_MISMATCH);
    caluna_value zero_items[2] = { caluna_number(0), caluna_number(0) };
    caluna_value zero_dash = caluna_array_value(zero_items, 2);
    EXPECT(e, caluna_layer_set(e, s, "lineDashPattern", &zero_dash), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_value neg_items[1] = { caluna_number(-3) };
    caluna_value neg_dash = caluna_array_value(neg_items, 1);
    EXPECT(e, caluna_layer_set(e, s, "lineDashPattern", &neg_dash), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_value many[2000];
    for (int i = 0; i < 2000; i++) many[i] = caluna_number(1);
    caluna_value many_dash = caluna_array_value(many, 2000);
    EXPECT(e, caluna_layer_set(e, s, "lineDashPattern", &many_dash), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_value null_items = caluna_array_value(NULL, 3);
    EXPECT(e, caluna_layer_set(e, s, "lineDashPattern", &null_items), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_path_element far[2] = { el(CALUNA_PATH_MOVE, 0, 0, 0, 0, 0, 0), el(CALUNA_PATH_LINE, 5e8, 0, 0, 0, 0, 0) };
    caluna_value far_path = caluna_path_value(far, 2);
    EXPECT(e, caluna_layer_set(e, s, "path", &far_path), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_path_element nanp[1] = { el(CALUNA_PATH_MOVE, NAN, 0, 0, 0, 0, 0) };
    caluna_value nan_path = caluna_path_value(nanp, 1);
    EXPECT(e, caluna_layer_set(e, s, "path", &nan_path), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_value huge_path = caluna_path_value(far, (size_t)1 << 30);
    EXPECT(e, caluna_layer_set(e, s, "path", &huge_path), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_layer_get(e, s, "lineWidth", &v);
    CHECK(v.u.number == 1, "lineWidth kept after the errors");
    caluna_layer_get(e, s, "lineDashPattern", &v);
    CHECK(v.type == CALUNA_TYPE_ARRAY && v.u.array.count == 2, "dash kept after the errors");

    /* A plain layer has no shape properties; a released layer is stale. */
    caluna_layer plain = 0;
    caluna_layer_create(e, &plain);
    caluna_value one = caluna_number(1);
    EXPECT(e, caluna_layer_set(e, plain, "lineWidth", &one), CALUNA_ERR_UNKNOWN_KEY);
    CHECK(strstr(caluna_last_error(e), "CAShapeLayer") != NULL, "the message names CAShapeLayer: %s", caluna_last_error(e));
    caluna_layer_release(e, plain);
    caluna_layer_release(e, s);
    EXPECT(e, caluna_layer_set(e, s, "lineWidth", &one), CALUNA_ERR_STALE_HANDLE);
}

static caluna_layer figure(caluna_engine *e, const char *cap) {
    caluna_layer root = 0, shape = 0;
    caluna_root_layer(e, &root);
    EXPECT_OK(e, caluna_layer_create_class(e, "CAShapeLayer", &shape));
    caluna_path_element p[16];
    int32_t n = stick_figure(p);
    caluna_value path = caluna_path_value(p, (size_t)n);
    EXPECT_OK(e, caluna_layer_set(e, shape, "path", &path));
    caluna_value red = caluna_color(1, 0, 0, 1), clear = caluna_color(0, 0, 0, 0);
    EXPECT_OK(e, caluna_layer_set(e, shape, "strokeColor", &red));
    EXPECT_OK(e, caluna_layer_set(e, shape, "fillColor", &clear));
    set_number(e, shape, "lineWidth", 5);
    set_string(e, shape, "lineJoin", "round");
    set_string(e, shape, "lineCap", cap);
    EXPECT_OK(e, caluna_layer_add_sublayer(e, root, shape));   /* no frame: bounds zero */
    caluna_layer_release(e, shape);
    return shape;
}

static void listing_6_1(caluna_engine *e) {
    caluna_layer root = 0;
    caluna_root_layer(e, &root);
    caluna_value white = caluna_color(1, 1, 1, 1);
    caluna_layer_set(e, root, "backgroundColor", &white);
    caluna_layer shape = figure(e, "round");
    EXPECT_OK(e, render(e));
    static const int reds[][2] = { {150, 150}, {175, 100}, {124, 100}, {150, 75}, {150, 125}, {137, 200},
                                   {162, 200}, {98, 150}, {201, 150} };
    static const int whites[][2] = { {150, 100}, {150, 200}, {120, 120} };
    for (size_t i = 0; i < sizeof reds / sizeof reds[0]; i++)
        CHECK(is_rgb(reds[i][0], reds[i][1], 0xff0000, 3), "T6.1 red at (%d, %d)", reds[i][0], reds[i][1]);
    for (size_t i = 0; i < sizeof whites / sizeof whites[0]; i++)
        CHECK(is_rgb(whites[i][0], whites[i][1], 0xffffff, 3), "T6.1 white at (%d, %d)", whites[i][0], whites[i][1]);
    /* Butt caps: the arms end at x = 100 and 200. */
    caluna_value butt = caluna_string("butt");
    EXPECT_OK(e, caluna_layer_set(e, shape, "lineCap", &butt));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(98, 150, 0xffffff, 3) && is_rgb(201, 150, 0xffffff, 3), "butt caps: (98,150), (201,150) white");
    CHECK(is_rgb(100, 150, 0xff0000, 3) && is_rgb(199, 150, 0xff0000, 3), "butt caps: (100,150), (199,150) red");
    /* strokeEnd animates implicitly: 0.25 s, the default curve (0.8024 at t = 0.125). */
    EXPECT_OK(e, caluna_engine_step(e, 0));
    set_number(e, shape, "strokeEnd", 0);
    EXPECT_OK(e, caluna_engine_step(e, 0.125));
    caluna_value v;
    EXPECT_OK(e, caluna_layer_get_presentation(e, shape, "strokeEnd", &v));
    CHECK(near(v.u.number, 1 - 0.802403, 1e-4), "presentation strokeEnd at 0.125 s: %g", v.u.number);
    EXPECT_OK(e, caluna_engine_step(e, 0.25));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(150, 150, 0xffffff, 3) && is_rgb(150, 75, 0xffffff, 3), "strokeEnd 0: nothing stroked");
    /* Without actions: at once. */
    EXPECT_OK(e, caluna_transaction_begin(e));
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1));
    set_number(e, shape, "strokeEnd", 1);
    EXPECT_OK(e, caluna_transaction_commit(e));
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(150, 75, 0xff0000, 3), "strokeEnd 1 again without an animation");
}

static void path_helpers(caluna_engine *e) {
    caluna_path_element mine[16], arc[8];
    int32_t n = 0;
    stick_figure(mine);
    EXPECT_OK(NULL, caluna_path_arc(150, 100, 25, 0, 2 * PI, 1, arc, 8, &n));
    CHECK(n == 5, "a full circle: MOVE + 4 CUBICs (%d)", n);
    int same = n == 5;
    for (int i = 0; same && i < 5; i++) {
        same = arc[i].type == mine[i].type;
        for (int j = 0; j < 3; j++)
            same = same && near(arc[i].points[j].x, mine[i].points[j].x, 1e-9) && near(arc[i].points[j].y, mine[i].points[j].y, 1e-9);
    }
    CHECK(same, "caluna_path_arc gives the head's elements");
    /* Counter-clockwise a quarter from 0 to π/2 is three quarters the other way. */
    EXPECT_OK(NULL, caluna_path_arc(0, 0, 10, 0, PI / 2, 0, NULL, 0, &n));
    CHECK(n == 4, "counter-clockwise 0 → π/2: MOVE + 3 CUBICs (%d)", n);
    EXPECT_OK(NULL, caluna_path_arc(0, 0, 10, 0, PI / 2, 1, arc, 1, &n));
    CHECK(n == 2 && arc[0].type == CALUNA_PATH_MOVE && arc[0].points[0].x == 10, "capacity 1: the MOVE written, count 2");
    EXPECT(NULL, caluna_path_arc(0, 0, NAN, 0, 1, 1, arc, 8, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_path_arc(0, 0, -1, 0, 1, 1, arc, 8, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_path_arc(0, 0, 1, 0, 1e9, 1, arc, 8, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_path_arc(0, 0, 1, 0, 1, 1, NULL, 8, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_path_arc(0, 0, 1, 0, 1, 1, arc, -1, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_path_arc(0, 0, 1, 0, 1, 1, arc, 8, NULL), CALUNA_ERR_INVALID_ARGUMENT);

    /* T6.1b: three rounded corners, as a shape layer with the default black fill. */
    caluna_path_element rr[10];
    EXPECT_OK(NULL, caluna_path_rounded_rect(50, 50, 100, 100, 20, 20, 2 | 8 | 4, rr, 10, &n));
    CHECK(n == 9, "three rounded corners: MOVE, 4 LINEs, 3 CUBICs, CLOSE (%d)", n);
    EXPECT(NULL, caluna_path_rounded_rect(0, 0, 10, 10, 2, 2, 16, rr, 10, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_path_rounded_rect(0, 0, 10, 10, -2, 2, 15, rr, 10, &n), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_path_rounded_rect(0, INFINITY, 10, 10, 2, 2, 15, rr, 10, &n), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_layer root = 0, shape = 0;
    caluna_root_layer(e, &root);
    int32_t subs = 0;
    caluna_layer_sublayer_count(e, root, &subs);
    while (subs-- > 0) {   /* the stick figure goes */
        caluna_layer l = 0;
        caluna_layer_sublayer_at(e, root, 0, &l);
        caluna_layer_remove_from_superlayer(e, l);
    }
    EXPECT_OK(e, caluna_layer_create_class(e, "CAShapeLayer", &shape));
    caluna_value path = caluna_path_value(rr, 9);
    EXPECT_OK(e, caluna_layer_set(e, shape, "path", &path));
    EXPECT_OK(e, caluna_layer_add_sublayer(e, root, shape));
    caluna_layer_release(e, shape);
    EXPECT_OK(e, render(e));
    CHECK(is_rgb(52, 52, 0x000000, 3) && is_rgb(100, 52, 0x000000, 3) && is_rgb(148, 100, 0x000000, 3),
          "T6.1b black at (52,52), (100,52), (148,100)");
    CHECK(is_rgb(148, 52, 0xffffff, 3) && is_rgb(148, 148, 0xffffff, 3) && is_rgb(52, 148, 0xffffff, 3),
          "T6.1b white at the rounded corners");
}

int main(void) {
    caluna_engine_options o = caluna_engine_options_default();
    o.width = 300; o.height = 300;
    caluna_engine *e = NULL;
    if (caluna_engine_create(&o, &e) != CALUNA_OK) { printf("FAIL: engine\n"); return 1; }
    defaults(e);
    listing_6_1(e);
    path_helpers(e);
    caluna_engine_destroy(e);
    free(pixels);
    return finish();
}

/* A C host with physics and no Lua: the book's crate box (listings 11.3–11.5)
 * built through the C ABI — a geometryFlipped container, four wall segments
 * on the world's static body, the five crates of listing 11.4 as layers bound
 * to Chipmunk bodies — stepped by the engine's clock at 60 Hz (the world takes
 * two fixed 1/120 s steps per frame). At t = 2.5 s a "tilt" sets gravity from
 * an accelerometer reading, as listing 11.4's handler does.
 *
 *   cc crates.c $(pkg-config --cflags --libs caluna) -o crates
 *   ./crates out.png       # renders t = 4.5 s and prints where the crates rest
 */
#include <caluna.h>
#include <math.h>
#include <stdio.h>

static int check(caluna_engine *e, caluna_status s, const char *what) {
    if (s == CALUNA_OK) return 0;
    fprintf(stderr, "%s: %s: %s\n", what, caluna_status_name(s), caluna_last_error(e));
    return 1;
}

/* Listing 11.4's accelerometer handler, landscape: gravity = (ay, −ax) × 1000. */
static caluna_value gravity_from_acceleration(double ax, double ay) {
    return caluna_point(ay * 1000, -ax * 1000);
}

/* Listing 11.3's Crate: mass 100, a box centred on the body, friction 0.5,
 * elasticity 0.8; `x, y` is the book's frame origin in a 300-pt top-left box. */
static int add_crate(caluna_engine *e, caluna_world world, caluna_layer box, double x, double y, double size,
                     caluna_body *out) {
    caluna_layer layer = 0;
    caluna_shape shape = 0;
    caluna_value position = caluna_point(x + size / 2, 300 - y - size / 2);
    caluna_value bounds = caluna_rect(0, 0, size, size), wood = caluna_color_rgb(0xb07a3c, 1);
    caluna_value edge = caluna_color_rgb(0x5c3a17, 1), width = caluna_number(2);
    caluna_value friction = caluna_number(0.5), elasticity = caluna_number(0.8);
    caluna_layer_mapping identity = caluna_layer_mapping_identity();
    int failed = check(e, caluna_body_create(e, CALUNA_BODY_DYNAMIC, 100, 0, out), "crate body")
        || check(e, caluna_body_set(e, *out, "position", &position), "crate position")
        || check(e, caluna_body_add_box(e, *out, size, size, 0, 0, 0, &shape), "crate box")
        || check(e, caluna_shape_set(e, shape, "friction", &friction), "friction")
        || check(e, caluna_shape_set(e, shape, "elasticity", &elasticity), "elasticity")
        || check(e, caluna_world_add_body(e, world, *out), "add crate")
        || check(e, caluna_layer_create(e, &layer), "crate layer")
        || check(e, caluna_layer_set(e, layer, "bounds", &bounds), "crate bounds")
        || check(e, caluna_layer_set(e, layer, "backgroundColor", &wood), "crate colour")
        || check(e, caluna_layer_set(e, layer, "borderColor", &edge), "crate border")
        || check(e, caluna_layer_set(e, layer, "borderWidth", &width), "crate border width")
        || check(e, caluna_layer_add_sublayer(e, box, layer), "crate in the box")
        || check(e, caluna_body_bind_layer(e, *out, layer, &identity), "bind");
    caluna_layer_release(e, layer);   /* the box holds it */
    return failed;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    caluna_engine_options opts = caluna_engine_options_default();
    opts.width = 340;
    opts.height = 340;
    caluna_engine *e = NULL;
    if (check(NULL, caluna_engine_create(&opts, &e), "create")) return 1;

    caluna_layer root = 0, box = 0;
    caluna_world world = 0;
    caluna_body walls = 0, crates[5] = { 0 };
    caluna_value paper = caluna_color_rgb(0xfbf8f1, 1), ink = caluna_color_rgb(0x3b3428, 1);
    caluna_value frame = caluna_rect(20, 20, 300, 300), flipped = caluna_bool(1), two = caluna_number(2);
    caluna_world_options wo = caluna_world_options_default();
    wo.gravity_y = -1000;

    int failed = check(e, caluna_root_layer(e, &root), "root")
        || check(e, caluna_layer_create(e, &box), "box")
        || check(e, caluna_layer_set(e, box, "frame", &frame), "box frame")
        || check(e, caluna_layer_set(e, box, "geometryFlipped", &flipped), "flip")   /* y up, like Chipmunk */
        || check(e, caluna_layer_set(e, box, "backgroundColor", &paper), "box colour")
        || check(e, caluna_layer_set(e, box, "borderColor", &ink), "box border")
        || check(e, caluna_layer_set(e, box, "borderWidth", &two), "box border width")
        || check(e, caluna_layer_add_sublayer(e, root, box), "add box")
        || check(e, caluna_world_create(e, &wo, &world), "world")
        || check(e, caluna_world_static_body(e, world, &walls), "static body");

    /* Listing 11.4's walls: a hollow rectangle of radius-1 segments. */
    const double corners[5][2] = { { 0, 0 }, { 300, 0 }, { 300, 300 }, { 0, 300 }, { 0, 0 } };
    for (int i = 0; i < 4 && !failed; i++) {
        caluna_shape wall = 0;
        caluna_value friction = caluna_number(0.5), elasticity = caluna_number(0.8), type = caluna_number(2);
        failed = check(e, caluna_body_add_segment(e, walls, corners[i][0], corners[i][1], corners[i + 1][0],
                                                  corners[i + 1][1], 1, &wall), "wall")
              || check(e, caluna_shape_set(e, wall, "friction", &friction), "wall friction")
              || check(e, caluna_shape_set(e, wall, "elasticity", &elasticity), "wall elasticity")
              || check(e, caluna_shape_set(e, wall, "collisionType", &type), "wall type");
    }
    const double frames[5][3] = { { 0, 0, 32 }, { 32, 0, 32 }, { 64, 0, 64 }, { 128, 0, 32 }, { 0, 32, 64 } };
    for (int i = 0; i < 5 && !failed; i++) failed = add_crate(e, world, box, frames[i][0], frames[i][1], frames[i][2], &crates[i]);

    /* 60 Hz frames; the tilt at 2.5 s. */
    for (int frame_index = 1; frame_index <= 270 && !failed; frame_index++) {
        if (frame_index == 150) {
            caluna_value g = gravity_from_acceleration(0, 1);
            failed = check(e, caluna_world_set(e, world, "gravity", &g), "tilt");
        }
        if (!failed) failed = check(e, caluna_engine_step(e, 1.0 / 60), "step");
    }
    for (int i = 0; i < 5 && !failed; i++) {
        caluna_value p = caluna_nil(), a = caluna_nil();
        failed = check(e, caluna_body_get(e, crates[i], "position", &p), "position")
              || check(e, caluna_body_get(e, crates[i], "angle", &a), "angle");
        if (!failed) printf("crate %d rests at (%.2f, %.2f), right edge %.2f, angle %.4f\n", i, p.u.point.x, p.u.point.y,
                            p.u.point.x + frames[i][2] / 2, a.u.number);
    }
    if (!failed) failed = check(e, caluna_render_png(e, argv[1]), "render");
    for (int i = 0; i < 5; i++) caluna_body_release(e, crates[i]);   /* the world holds them */
    caluna_layer_release(e, box);
    caluna_engine_destroy(e);
    return failed ? 1 : 0;
}

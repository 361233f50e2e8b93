/* A C host that animates without Lua: the book's bouncing ball (listing 10.6)
 * built through the C ABI — a layer, a keyframe animation with keyTimes and
 * per-segment easing, a delegate — stepped at 30 fps and written as PNG frames.
 *
 *   cc bounce.c $(pkg-config --cflags --libs caluna) -o bounce
 *   ./bounce out/          # out/bounce_00.png … bounce_30.png, and the ball's y per frame
 */
#include <caluna.h>
#include <stdio.h>

static int check(caluna_engine *e, caluna_status s, const char *what) {
    if (s == CALUNA_OK) return 0;
    fprintf(stderr, "%s: %s: %s\n", what, caluna_status_name(s), caluna_last_error(e));
    return 1;
}

static void did_stop(caluna_engine *e, caluna_animation anim, caluna_layer layer, int32_t finished, void *user) {
    double now = 0;
    (void)anim; (void)layer;
    caluna_engine_media_time(e, &now);
    printf("animationDidStop at t = %.3f, finished = %d\n", now, (int)finished);
    *(int *)user += 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR/\n", argv[0]);
        return 2;
    }
    caluna_engine_options opts = caluna_engine_options_default();
    opts.width = 300;
    opts.height = 300;
    caluna_engine *e = NULL;
    if (check(NULL, caluna_engine_create(&opts, &e), "create")) return 1;

    caluna_layer root = 0, ball = 0;
    caluna_animation bounce = 0;
    caluna_value white = caluna_color(1, 1, 1, 1), red = caluna_color(0.86, 0.08, 0.24, 1);
    caluna_value bounds = caluna_rect(0, 0, 32, 32), end = caluna_point(150, 268);
    double ys[] = { 32, 268, 140, 268, 220, 268, 250, 268 };
    double key_times[] = { 0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1 };
    const char *easing[] = { "easeIn", "easeOut", "easeIn", "easeOut", "easeIn", "easeOut", "easeIn" };
    caluna_value values[8];
    for (int i = 0; i < 8; i++) values[i] = caluna_point(150, ys[i]);
    caluna_value one_second = caluna_number(1), key_path = caluna_string("position");
    int stops = 0;

    int failed = check(e, caluna_root_layer(e, &root), "root")
        || check(e, caluna_layer_set(e, root, "backgroundColor", &white), "root colour")
        || check(e, caluna_layer_create(e, &ball), "ball")
        || check(e, caluna_layer_set(e, ball, "bounds", &bounds), "bounds")
        || check(e, caluna_layer_set(e, ball, "position", &end), "position")  /* the model ends on the floor */
        || check(e, caluna_layer_set(e, ball, "backgroundColor", &red), "colour")
        || check(e, caluna_layer_add_sublayer(e, root, ball), "add")
        || check(e, caluna_engine_step(e, 0), "commit")
        || check(e, caluna_animation_create(e, "KeyframeAnimation", &bounce), "animation")
        || check(e, caluna_animation_set(e, bounce, "keyPath", &key_path), "keyPath")
        || check(e, caluna_animation_set(e, bounce, "duration", &one_second), "duration")
        || check(e, caluna_animation_set_values(e, bounce, values, 8), "values")
        || check(e, caluna_animation_set_numbers(e, bounce, "keyTimes", key_times, 8), "keyTimes")
        || check(e, caluna_animation_set_timing_functions_named(e, bounce, easing, 7), "timingFunctions")
        || check(e, caluna_animation_set_delegate(e, bounce, NULL, did_stop, &stops), "delegate")
        || check(e, caluna_layer_add_animation(e, ball, bounce, "bounce"), "add animation")
        || check(e, caluna_animation_release(e, bounce), "release");  /* the layer holds its own copy */

    char path[4096];
    for (int frame = 0; frame <= 30 && !failed; frame++) {
        caluna_value y = caluna_nil();
        failed = check(e, caluna_engine_advance(e, frame / 30.0), "advance")
              || check(e, caluna_layer_get_presentation(e, ball, "position.y", &y), "presentation");
        if (failed) break;
        printf("frame %2d  t = %.3f  y = %7.3f\n", frame, frame / 30.0, y.u.number);
        snprintf(path, sizeof path, "%sbounce_%02d.png", argv[1], frame);
        failed = check(e, caluna_render_png(e, path), "render");
    }
    if (!failed && stops != 1) {
        fprintf(stderr, "expected one animationDidStop, got %d\n", stops);
        failed = 1;
    }
    caluna_layer_release(e, ball);
    caluna_engine_destroy(e);
    return failed ? 1 : 0;
}

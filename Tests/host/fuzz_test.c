/* Random calls through the whole C ABI with random ids (live, released,
 * foreign, 0, garbage), keys, value types and payloads (NaN, infinities,
 * huge, negative). Deterministic (fixed seed). Every call must return a known
 * status, every failure must explain itself, and afterwards the engine must
 * still render a known picture. Nothing may crash. */
#include "check.h"
#include <stdint.h>
#include <stdlib.h>

static uint64_t rng = 0x2026112220261122ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static int below(int n) { return (int)(next() % (uint64_t)n); }

static double number(void) {
    static const double specials[] = { 0.0, -1.0, 0.5, 1e300, -1e300, 1e9, 2.0, 100.0 };
    switch (below(6)) {
    case 0: return NAN;
    case 1: return below(2) ? INFINITY : -INFINITY;
    case 2: return specials[below(8)];
    default: return (double)below(400) - 100.0;
    }
}

/* ABI 1.3: images (live, released, foreign, garbage) and path elements for IMAGE and PATH
 * values and the drawing calls. */
enum { IMAGES = 6 };
static caluna_image images[IMAGES];
static caluna_path_element path_pool[4];

static void random_path(void) {
    memset(path_pool, 0, sizeof path_pool);
    for (int j = 0; j < 4; j++) {
        path_pool[j].type = (caluna_path_element_type)(below(4) ? below(5) : below(8) - 1);
        for (int k = 0; k < 3; k++) { path_pool[j].points[k].x = number(); path_pool[j].points[k].y = number(); }
    }
    if (below(2)) path_pool[0].type = CALUNA_PATH_MOVE;
}

static caluna_value value(void) {
    caluna_value v;
    memset(&v, 0, sizeof v);
    v.type = (caluna_value_type)below(12);          /* 11 is not a type at all */
    switch (v.type) {
    case CALUNA_TYPE_IMAGE: v.u.image = below(4) ? images[below(IMAGES)] : next(); break;
    case CALUNA_TYPE_PATH:
        random_path();
        v.u.path.elements = below(6) ? path_pool : NULL;
        v.u.path.count = v.u.path.elements ? (size_t)below(5) : (below(2) ? 0 : (size_t)next());
        break;
    case CALUNA_TYPE_NUMBER: v.u.number = number(); break;
    case CALUNA_TYPE_BOOL: v.u.boolean = below(3) - 1; break;
    case CALUNA_TYPE_STRING: {
        static const char *strings[] = { "red", "", "layer", "\xff\xfe not utf-8", NULL };
        v.u.string = strings[below(5)];
        break;
    }
    case CALUNA_TYPE_POINT: v.u.point.x = number(); v.u.point.y = number(); break;
    case CALUNA_TYPE_SIZE: v.u.size.width = number(); v.u.size.height = number(); break;
    case CALUNA_TYPE_RECT:
        v.u.rect.x = number(); v.u.rect.y = number(); v.u.rect.width = number(); v.u.rect.height = number();
        break;
    case CALUNA_TYPE_COLOR: v.u.color.r = number(); v.u.color.g = 0.5; v.u.color.b = 0.5; v.u.color.a = 1; break;
    case CALUNA_TYPE_TRANSFORM:
        for (int i = 0; i < 16; i++) v.u.transform[i] = (i % 5 == 0) ? 1.0 : 0.0;
        v.u.transform[below(16)] = number();
        break;
    default: break;
    }
    return v;
}

/* Issue #3: animation keys (and some that are not), class names, strings that mean something. */
static const char *anim_keys[] = { "duration", "beginTime", "speed", "timeOffset", "repeatCount", "repeatDuration",
    "autoreverses", "fillMode", "timingFunction", "removedOnCompletion", "keyPath", "additive", "cumulative",
    "valueFunction", "fromValue", "toValue", "byValue", "mass", "stiffness", "damping", "initialVelocity",
    "settlingDuration", "values", "path", "keyTimes", "timingFunctions", "calculationMode", "rotationMode",
    "tensionValues", "continuityValues", "biasValues", "delegate", "animations", "nope", "", NULL };
static const char *anim_classes[] = { "BasicAnimation", "KeyframeAnimation", "SpringAnimation", "AnimationGroup",
    "Transition", "Animation", "", NULL };
static const char *anim_strings[] = { "position", "position.x", "opacity", "bounds", "transform", "transform.rotation.z",
    "backgroundColor", "name", "forwards", "both", "easeIn", "default", "paced", "cubic", "discrete", "rotateZ", "scale",
    "auto", "nope" };
static const char *easing_names[] = { "easeIn", "default", "linear", "bounceEaseOut", "circularEaseIn", "elasticEaseOut",
    "nope", NULL };

/* A value for an animation key: often a meaningful string or a number. */
static caluna_value anim_value(void) {
    caluna_value v;
    switch (below(4)) {
    case 0: return caluna_string(anim_strings[below((int)(sizeof anim_strings / sizeof anim_strings[0]))]);
    case 1: return caluna_number(number());
    default: v = value(); return v;
    }
}

static int callback_calls = 0, callback_refusals = 0;

static void fuzz_delegate(caluna_engine *e, caluna_animation anim, caluna_layer layer, int32_t finished, void *user) {
    caluna_value half = caluna_number(0.5), tag;
    (void)finished; (void)user;
    callback_calls++;
    caluna_layer_set(e, layer, "opacity", &half);
    caluna_animation_get_tag(e, anim, "t", &tag);
    if (caluna_engine_step(e, 0.1) == CALUNA_ERR_INVALID_ARGUMENT) callback_refusals++;
}

static void fuzz_frame(caluna_engine *e, caluna_display_link link, double ts, double target, double duration, void *user) {
    (void)ts; (void)target; (void)duration; (void)user;
    callback_calls++;
    if (caluna_engine_advance(e, 1e6) == CALUNA_ERR_INVALID_ARGUMENT) callback_refusals++;
    if (below(8) == 0) caluna_display_link_invalidate(e, link);
}

static void fuzz_timer(caluna_engine *e, caluna_timer timer, double when, void *user) {
    (void)timer; (void)when; (void)user;
    callback_calls++;
    if (caluna_engine_flush(e) == CALUNA_ERR_INVALID_ARGUMENT) callback_refusals++;
}

/* Issue #4: host actions and action delegates that answer anything (kinds 0…5, ids of any
 * kind) or fail, and whose releases must each run once. */
static int releases = 0, release_owners = 0;
static caluna_animation fuzz_anim = 0;

static void fuzz_release(void *user) { (void)user; releases++; }

static void fuzz_completion(caluna_engine *e, void *user) {
    (void)user;
    callback_calls++;
    if (caluna_transaction_flush(e) == CALUNA_ERR_INVALID_ARGUMENT) callback_refusals++;
}

static int32_t fuzz_action(caluna_engine *e, caluna_layer layer, const char *event, void *user) {
    caluna_value half = caluna_number(0.5);
    (void)user; (void)event;
    if (below(4) == 0) caluna_layer_set(e, layer, "opacity", &half); /* actions that change properties */
    return below(4) ? 0 : (int32_t)below(12) - 1;
}

static int32_t fuzz_action_delegate(caluna_engine *e, caluna_layer layer, const char *key, void *user, caluna_action *out) {
    (void)e; (void)layer; (void)key; (void)user;
    out->kind = (caluna_action_kind)below(6);
    out->animation = below(2) ? fuzz_anim : next();
    out->callback = below(4) ? fuzz_action : NULL;
    return below(8) ? 0 : 1;
}

static const char *keys[] = { "position", "position.x", "bounds", "bounds.size.width", "frame", "anchorPoint",
    "zPosition", "transform", "affineTransform", "hidden", "opacity", "backgroundColor", "masksToBounds",
    "geometryFlipped", "name", "cornerRadius", "nope", "", ".", "position.", "bounds.origin.z",
    /* ABI 1.3 (not contentsScale/rasterizationScale: honest but huge backing stores would only be slow) */
    "contents", "contentsGravity", "contentsRect", "contentsCenter", "shadowPath", "shadowOpacity", "shadowRadius",
    "borderWidth", "shouldRasterize", "mask", "magnificationFilter", NULL };

/* ABI 1.3: draw callbacks that make random context calls (their own context, a stale one,
 * garbage) and try what a callback may not (render, displaying their own layer). */
static caluna_layer *layer_pool = NULL;
static int layer_pool_size = 0;
static int draw_calls = 0, draw_refusals = 0, draw_statuses_bad = 0;
static caluna_context stale_ctx = 0;

static void fuzz_context_call(caluna_engine *e, caluna_layer layer, caluna_context c) {
    static const char *names[] = { "butt", "round", "miter", "fill", "eoFillStroke", "center", "DejaVu Sans",
                                   "monospace", "nope", "\xff\xfe", "", NULL };
    const char *name = names[below((int)(sizeof names / sizeof names[0]))];
    double xs[8];
    double w = 0, h = 0, box[6];
    caluna_status s;
    for (int j = 0; j < 8; j++) xs[j] = below(3) ? (double)below(11) / 10.0 : number();
    switch (below(24)) {
    case 0: s = caluna_context_set_fill_color(e, c, xs[0], xs[1], xs[2], xs[3]); break;
    case 1: s = caluna_context_set_stroke_color(e, c, xs[0], xs[1], xs[2], xs[3]); break;
    case 2: s = caluna_context_set_line_width(e, c, number()); break;
    case 3: s = below(2) ? caluna_context_set_line_cap(e, c, name) : caluna_context_set_line_join(e, c, name); break;
    case 4: s = caluna_context_set_line_dash(e, c, number(), below(6) ? xs : NULL, (size_t)below(9)); break;
    case 5: s = below(2) ? caluna_context_save_gstate(e, c) : caluna_context_restore_gstate(e, c); break;
    case 6: s = caluna_context_translate(e, c, number(), number()); break;
    case 7: s = below(2) ? caluna_context_scale(e, c, number(), number()) : caluna_context_rotate(e, c, number()); break;
    case 8: s = caluna_context_concat(e, c, xs[0], xs[1], xs[2], xs[3], number(), number()); break;
    case 9: s = caluna_context_move_to(e, c, number(), number()); break;
    case 10: s = caluna_context_add_curve_to(e, c, number(), number(), number(), number(), number(), number()); break;
    case 11: s = caluna_context_add_arc(e, c, number(), number(), number(), number(), number(), below(2)); break;
    case 12: random_path(); s = caluna_context_add_path(e, c, below(8) ? path_pool : NULL, (size_t)below(5)); break;
    case 13: s = caluna_context_draw_path(e, c, name); break;
    case 14: s = caluna_context_fill_rect(e, c, number(), number(), number(), number()); break;
    case 15: s = caluna_context_stroke_ellipse_in_rect(e, c, number(), number(), number(), number()); break;
    case 16: s = caluna_context_clip_to_rect(e, c, number(), number(), number(), number()); break;
    case 17: s = caluna_context_draw_linear_gradient(e, c, xs, below(2) ? xs + 4 : NULL, (size_t)below(3), number(),
                                                     number(), number(), number(), (uint32_t)below(5)); break;
    case 18: s = caluna_context_draw_radial_gradient(e, c, xs, NULL, (size_t)below(3), number(), number(), number(),
                                                     number(), number(), number(), (uint32_t)below(4)); break;
    case 19: s = caluna_context_draw_image(e, c, below(4) ? images[below(IMAGES)] : next(), number(), number(),
                                           number(), number()); break;
    case 20: s = below(2) ? caluna_context_set_font(e, c, name, number()) : caluna_context_show_text(e, c, name, number(), number()); break;
    case 21: s = below(2) ? caluna_context_text_size(e, c, name, number(), &w, &h)
                          : caluna_context_draw_text(e, c, name, number(), number(), number(), number(), below(2) ? name : NULL); break;
    case 22: s = below(2) ? caluna_context_get_ctm(e, c, below(8) ? box : NULL)
                          : caluna_context_clip_bounding_box(e, c, &box[0], &box[1], &box[2], below(8) ? &box[3] : NULL); break;
    default: s = caluna_layer_render_in_context(e, below(2) ? layer : layer_pool[below(layer_pool_size)], c); break;
    }
    if ((int)s < 0 || (int)s > CALUNA_ERR_LIMIT || (s != CALUNA_OK && caluna_last_error(e)[0] == '\0')) draw_statuses_bad++;
}

static int32_t fuzz_draw(caluna_engine *e, caluna_layer layer, caluna_context ctx, void *user) {
    static uint8_t buf[16];
    (void)user;
    draw_calls++;
    for (int j = below(8); j >= 0; j--) {
        caluna_context c = below(10) ? ctx : (below(2) ? stale_ctx : (below(2) ? next() : layer));
        fuzz_context_call(e, layer, c);
    }
    if (caluna_render(e, buf, sizeof buf, 2, 2, 8, CALUNA_RGBA8_STRAIGHT) == CALUNA_ERR_INVALID_ARGUMENT) draw_refusals++;
    if (below(8) == 0 && caluna_layer_display(e, layer) != CALUNA_ERR_INVALID_ARGUMENT) draw_statuses_bad++;
    stale_ctx = ctx;
    return below(6) ? 0 : (int32_t)below(12) - 1;
}

int main(void) {
    caluna_engine *e = NULL, *other = NULL;
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT_OK(NULL, caluna_engine_create(NULL, &other));
    caluna_layer foreign = 0, root = 0;
    caluna_animation foreign_anim = 0;
    caluna_image foreign_image = 0;
    static const uint8_t px16[128] = { 255, 0, 0, 255, 0, 255, 0, 128 };   /* room for 4 rows at any stride < 32 */
    EXPECT_OK(other, caluna_layer_create(other, &foreign));
    EXPECT_OK(other, caluna_animation_create(other, "BasicAnimation", &foreign_anim));
    EXPECT_OK(other, caluna_image_from_pixels(other, 2, 2, 8, CALUNA_RGBA8_STRAIGHT, px16, &foreign_image));
    EXPECT_OK(e, caluna_root_layer(e, &root));

    enum { POOL = 12 };
    caluna_layer ids[POOL] = { 0 };
    ids[0] = root;
    layer_pool = ids;
    layer_pool_size = POOL;
    /* Slots 0-3 always hold animations that a layer accepts (until the storm edits them). */
    caluna_animation anims[POOL] = { 0 };
    uint64_t frames[4] = { 0 };
    {
        caluna_value x = caluna_string("position.x"), p = caluna_string("position"), o = caluna_string("opacity");
        caluna_value zero = caluna_number(0), hundred = caluna_number(100), one = caluna_number(1);
        caluna_value pts[3] = { caluna_point(0, 0), caluna_point(50, 10), caluna_point(100, 0) };
        caluna_animation child = 0;
        caluna_animation_create(e, "BasicAnimation", &anims[0]);
        caluna_animation_set(e, anims[0], "keyPath", &x);
        caluna_animation_set(e, anims[0], "fromValue", &zero);
        caluna_animation_set(e, anims[0], "toValue", &hundred);
        caluna_animation_set(e, anims[0], "duration", &one);
        caluna_animation_create(e, "KeyframeAnimation", &anims[1]);
        caluna_animation_set(e, anims[1], "keyPath", &p);
        caluna_animation_set_values(e, anims[1], pts, 3);
        caluna_animation_create(e, "AnimationGroup", &anims[2]);
        caluna_animation_copy(e, anims[0], &child);
        caluna_group_add_animation(e, anims[2], child);
        caluna_group_add_animation(e, anims[2], anims[1]);
        caluna_animation_release(e, child);
        caluna_animation_create(e, "SpringAnimation", &anims[3]);
        caluna_animation_set(e, anims[3], "keyPath", &o);
        caluna_animation_set(e, anims[3], "toValue", &zero);
        caluna_animation_create(e, "BasicAnimation", &fuzz_anim);
    }
    int unknown_status = 0, silent_failure = 0, ok = 0, failed = 0, no_engine_silent = 0;
    for (int i = 0; i < 50000; i++) {
        /* The animation pool: live, released, foreign, layer ids, garbage. */
        int aslot = 4 + below(POOL - 4);
        if (below(15) == 0) {
            switch (below(6)) {
            case 0:
                caluna_animation_create(e, anim_classes[below((int)(sizeof anim_classes / sizeof anim_classes[0]))], &anims[aslot]);
                break;
            case 1: caluna_animation_copy(e, anims[below(4)], &anims[aslot]); break;
            case 2: caluna_animation_release(e, anims[aslot]); break;
            case 3: anims[aslot] = below(2) ? foreign_anim : ids[below(POOL)]; break;
            case 4: caluna_animation_copy(e, anims[below(POOL)], &anims[aslot]); break;
            default: anims[aslot] = below(2) ? next() : (anims[aslot] ^ (1ull << below(64))); break;
            }
        }
        /* Keep the pool stocked with live, released and odd ids. */
        int slot = below(POOL);
        if (below(20) == 0 && slot != 0) {
            switch (below(4)) {
            case 0: caluna_layer_create(e, &ids[slot]); break;
            case 1: caluna_layer_release(e, ids[slot]); break;           /* may leave it stale */
            case 2: ids[slot] = foreign; break;
            default: ids[slot] = next(); break;                            /* garbage */
            }
        }
        caluna_layer a = ids[below(POOL)], b = ids[below(POOL)], c = ids[below(POOL)];
        caluna_value v = value(), out;
        const char *key = keys[below((int)(sizeof keys / sizeof keys[0]))];
        double d1 = 0, d2 = 0, d3 = 0, d4 = 0;
        int32_t n = 0;
        caluna_layer l = 0;
        caluna_status s;
        caluna_animation an = anims[below(POOL)], an2 = anims[below(POOL)];
        const char *akey = anim_keys[below((int)(sizeof anim_keys / sizeof anim_keys[0]))];
        const char *lkey = below(4) ? (below(2) ? "k" : "j") : (below(2) ? NULL : "");
        caluna_value av = anim_value();
        int engine_less = 0;
        /* The image pool, like the animation pool. */
        if (below(15) == 0) {
            int islot = below(IMAGES);
            int iw = below(6) - 1, ih = below(6) - 1;
            static const uint8_t garbage[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                                               0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1, 8, 6, 0, 0, 0 };
            switch (below(6)) {
            case 0:
                /* Honest sizes: at most 4×4 pixels of a 4-pixel-wide buffer. */
                s = caluna_image_from_pixels(e, iw, ih, below(4) ? 16 : below(40) - 8, (caluna_pixel_format)below(5),
                                             below(8) ? px16 : NULL, &images[islot]);
                break;
            case 1: caluna_image_load_data(e, garbage, (size_t)below((int)sizeof garbage + 1), &images[islot]); break;
            case 2: caluna_image_release(e, images[islot]); break;
            case 3: caluna_image_retain(e, images[islot]); break;
            case 4: images[islot] = below(2) ? foreign_image : ids[below(POOL)]; break;
            default: images[islot] = below(2) ? next() : (images[islot] ^ (1ull << below(64))); break;
            }
        }
        switch (below(60)) {
        case 0: s = caluna_layer_set(e, a, key, &v); break;
        case 1: s = caluna_layer_set(e, a, key, &v); break;
        case 2: s = caluna_layer_get(e, a, key, &out); break;
        case 3: s = caluna_layer_add_sublayer(e, a, b); break;
        case 4: s = caluna_layer_insert_sublayer(e, a, b, below(6) - 2); break;
        case 5: s = caluna_layer_insert_sublayer_above(e, a, b, c); break;
        case 6: s = caluna_layer_insert_sublayer_below(e, a, b, c); break;
        case 7: s = caluna_layer_replace_sublayer(e, a, b, c); break;
        case 8: s = caluna_layer_remove_from_superlayer(e, a); break;
        case 9: s = caluna_layer_convert_point(e, a, b, number(), number(), &d1, &d2); break;
        case 10: s = caluna_layer_convert_rect(e, a, b, number(), number(), number(), number(), &d1, &d2, &d3, &d4); break;
        case 11: s = caluna_layer_hit_test(e, a, number(), number(), &l); break;
        case 12: s = caluna_layer_contains_point(e, a, number(), number(), &n); break;
        case 13: s = caluna_layer_sublayer_at(e, a, below(5) - 1, &l); break;
        case 14: s = caluna_layer_set_needs_layout(e, a); break;
        case 15: s = caluna_engine_step(e, below(4) ? 1.0 / 60 : number()); break;
        case 16: s = caluna_engine_set_size(e, number(), number(), below(2) ? 1.0 : number()); break;
        case 17: {
            int32_t w = 0, h = 0;
            caluna_engine_pixel_size(e, &w, &h);
            static uint8_t buf[64 * 64 * 4];
            size_t need = (size_t)w * (size_t)h * 4;
            /* Honest sizes only: a host that lies about its buffer is beyond any library's help. */
            s = need <= sizeof buf ? caluna_render(e, buf, sizeof buf, w, h, w * 4, (caluna_pixel_format)below(5))
                                   : caluna_render(e, buf, sizeof buf, 64, 64, 256, CALUNA_RGBA8_STRAIGHT);
            break;
        }
        case 18: s = caluna_layer_layout_if_needed(e, a); break;
        case 19: s = caluna_layer_find(e, key, &l); break;
        /* issue #3 */
        case 20: case 21: case 22: s = caluna_animation_set(e, an, akey, &av); break;
        case 23: s = caluna_animation_get(e, an, akey, &out); break;
        case 24: {
            double xs[6];
            for (int j = 0; j < 6; j++) xs[j] = below(3) ? (double)below(11) / 10.0 : number();
            s = caluna_animation_set_numbers(e, an, akey, below(8) ? xs : NULL, below(8) - 1);
            break;
        }
        case 25: {
            caluna_value vs[5];
            for (int j = 0; j < 5; j++) vs[j] = below(2) ? caluna_point(number(), number()) : anim_value();
            s = caluna_animation_set_values(e, an, below(8) ? vs : NULL, below(7) - 1);
            break;
        }
        case 26: s = caluna_animation_set_timing_function(e, an, number(), number(), number(), number()); break;
        case 27: {
            const char *names[4] = { easing_names[below(8)], "easeOut", "easeIn", easing_names[below(8)] };
            s = caluna_animation_set_timing_functions_named(e, an, below(8) ? names : NULL, below(6) - 1);
            break;
        }
        case 28: {
            caluna_path_element els[4];
            memset(els, 0, sizeof els);
            for (int j = 0; j < 4; j++) {
                els[j].type = (caluna_path_element_type)below(6);
                for (int k = 0; k < 3; k++) { els[j].points[k].x = number(); els[j].points[k].y = number(); }
            }
            s = caluna_animation_set_path(e, an, els, below(6) - 1);
            break;
        }
        case 29: s = caluna_group_add_animation(e, an, an2); break;
        case 30: case 31: s = caluna_layer_add_animation(e, below(2) ? root : a, an, lkey); break;
        case 32: s = caluna_layer_remove_animation(e, a, lkey); break;
        case 33: s = below(4) ? caluna_layer_animation_for_key(e, a, lkey, &an) : caluna_layer_remove_all_animations(e, a); break;
        case 34: s = caluna_layer_get_presentation(e, below(2) ? root : a, key, &out); break;
        case 35: s = caluna_layer_convert_time(e, a, b, number(), &d1); break;
        case 36: s = below(2) ? caluna_animation_set_tag(e, an, "t", &v) : caluna_animation_get_tag(e, an, akey ? akey : "t", &out); break;
        case 37: s = caluna_animation_set_delegate(e, an, below(2) ? fuzz_delegate : NULL, fuzz_delegate, NULL); break;
        case 38: {
            int f = below(4);
            switch (below(5)) {
            case 0: s = caluna_display_link_create(e, fuzz_frame, NULL, &frames[f]); break;
            case 1: s = caluna_timer_create(e, below(2) ? 1.0 / 60 : number(), below(2), fuzz_timer, NULL, &frames[f]); break;
            case 2: s = caluna_display_link_set_frame_interval(e, frames[f], below(5) - 1); break;
            case 3: s = caluna_display_link_set_preferred_fps(e, frames[f], below(200) - 20); break;
            default: s = below(2) ? caluna_display_link_invalidate(e, frames[f]) : caluna_timer_invalidate(e, frames[f]); break;
            }
            break;
        }
        case 39: s = caluna_engine_flush(e); break;
        case 40: s = caluna_layer_animation_key_at(e, a, below(4) - 1, &lkey); break;
        case 41: s = caluna_group_animation_at(e, an, below(4) - 1, &an2); break;
        case 42: {
            double xs[8], got[8];
            int32_t count = 0;
            (void)xs;
            switch (below(4)) {
            case 0: s = caluna_animation_get_numbers(e, an, akey, got, below(10) - 1, &count); break;
            case 1: s = caluna_animation_get_timing_functions(e, an, got, below(3), &count); break;
            case 2: { caluna_value vs[4]; s = caluna_animation_get_values(e, an, vs, below(5), &count); break; }
            default: { caluna_path_element els[4]; s = caluna_animation_get_path(e, an, els, below(5), &count); break; }
            }
            break;
        }
        case 43: engine_less = 1; s = caluna_easing(easing_names[below(8)], number(), &d1); break;
        case 44: engine_less = 1; s = caluna_timing_function_evaluate(number(), number(), number(), number(), number(), &d1); break;
        case 45: engine_less = 1; s = caluna_timing_function_named_evaluate(easing_names[below(8)], number(), &d1); break;
        /* issue #4 */
        case 46: {
            double p[4] = { below(2) ? 0.25 : number(), number(), below(2) ? 0.75 : number(), number() };
            switch (below(8)) {
            case 0: s = below(3) ? caluna_transaction_begin(e) : caluna_transaction_commit(e); break;
            case 1: s = caluna_transaction_set_animation_duration(e, number()); break;
            case 2: s = caluna_transaction_set_disable_actions(e, below(3) - 1); break;
            case 3: s = caluna_transaction_set_animation_timing_function(e, p[0], p[1], p[2], p[3]); break;
            case 4: s = caluna_transaction_set_animation_timing_function_named(e, easing_names[below(8)]); break;
            case 5: s = caluna_transaction_set_value(e, below(2) ? key : akey, &av); break;
            case 6: s = caluna_transaction_value(e, below(2) ? key : akey, &out); break;
            default: {
                caluna_completion_callback f = below(4) ? fuzz_completion : NULL;
                caluna_release_callback r = below(2) ? fuzz_release : NULL;
                s = caluna_transaction_set_completion(e, f, NULL, r);
                if (s == CALUNA_OK && f && r) release_owners++;
                break;
            }
            }
            break;
        }
        case 47: {
            caluna_action act, got;
            memset(&act, 0, sizeof act);
            act.kind = (caluna_action_kind)(below(6) - 1);
            act.animation = below(2) ? an : fuzz_anim;
            act.callback = below(5) ? fuzz_action : NULL;
            act.release = below(2) ? fuzz_release : NULL;
            /* A successful set of a CALLBACK with a release hands the engine one release to run. */
            int owned = act.kind == CALUNA_ACTION_CALLBACK && act.callback && act.release;
            switch (below(7)) {
            case 0:
                if (below(8) == 0) { act.kind = CALUNA_ACTION_CONTINUE; owned = 0; }
                s = caluna_layer_set_action(e, below(2) ? root : a, below(2) ? key : akey, act.kind ? &act : NULL);
                if (s == CALUNA_OK && owned) release_owners++;
                break;
            case 1:
                s = caluna_layer_set_style_action(e, a, below(4) ? below(3) : below(100) - 50, key, &act);
                if (s == CALUNA_OK && owned) release_owners++;
                break;
            case 2: s = caluna_layer_action(e, a, key, &got); break;
            case 3: s = caluna_layer_action_for_key(e, a, key, &got); if (s == CALUNA_OK && got.kind == CALUNA_ACTION_ANIMATION) caluna_animation_release(e, got.animation); break;
            case 4: {
                caluna_action_delegate_callback f = below(4) ? fuzz_action_delegate : NULL;
                s = caluna_layer_set_action_delegate(e, below(2) ? root : a, f, NULL, act.release);
                if (s == CALUNA_OK && f && act.release) release_owners++;
                break;
            }
            case 5: s = below(2) ? caluna_layer_clear_actions(e, a) : caluna_layer_clear_style(e, a); break;
            default: s = caluna_layer_style_action(e, a, below(40) - 4, key, &got); break;
            }
            break;
        }
        /* ABI 1.3 */
        case 48: case 49: s = caluna_layer_set(e, a, keys[21 + below(11)], &v); break;
        case 50: {
            caluna_image img = below(4) ? images[below(IMAGES)] : next();
            int32_t w = 0, h = 0;
            static uint8_t out[128];
            switch (below(4)) {
            case 0: s = caluna_image_size(e, img, below(8) ? &w : NULL, &h); break;
            case 1: {
                size_t n = 0;
                s = caluna_image_byte_count(e, img, below(8) ? &n : NULL);
                break;
            }
            case 2:
                /* Honest buffers: pool images are 4×4 at most; 128 bytes hold 4 rows at any stride < 32. */
                caluna_image_size(e, img, &w, &h);
                s = caluna_image_read_pixels(e, img, below(8) ? out : NULL, below(4) ? sizeof out : (size_t)below(129),
                                             below(4) ? 16 : below(40) - 8, (caluna_pixel_format)below(5));
                break;
            default: s = caluna_image_load_file(e, below(2) ? "/nonexistent.png" : "/tmp", &img); break;
            }
            break;
        }
        case 51: {
            random_path();
            caluna_path_element got[4];
            size_t count = 0;
            if (below(2)) s = caluna_layer_set_shadow_path(e, a, below(6) ? path_pool : NULL, (size_t)below(5));
            else s = caluna_layer_shadow_path(e, a, below(6) ? got : NULL, (size_t)below(5), below(8) ? &count : NULL);
            break;
        }
        case 52: s = below(2) ? caluna_layer_set_mask(e, a, below(4) ? b : 0) : caluna_layer_mask(e, a, &l); break;
        case 53: {
            int32_t flag = 0;
            switch (below(5)) {
            case 0: s = caluna_layer_set_needs_display(e, a); break;
            case 1: s = caluna_layer_set_needs_display_in_rect(e, a, number(), number(), number(), number()); break;
            case 2: s = caluna_layer_needs_display(e, a, below(8) ? &flag : NULL); break;
            case 3: s = caluna_layer_display(e, a); break;
            default: s = caluna_layer_display_if_needed(e, a); break;
            }
            break;
        }
        case 54: {
            caluna_draw_callback f = below(4) ? fuzz_draw : NULL;
            caluna_release_callback r = below(2) ? fuzz_release : NULL;
            s = caluna_layer_set_draw_callback(e, a, f, NULL, r);
            if (s == CALUNA_OK && f && r) release_owners++;
            if (s == CALUNA_OK && f && below(4)) {
                /* Layers start 0 × 0, which draws nothing: give it a size, then draw. */
                caluna_value size = caluna_rect(0, 0, below(40), below(40));
                caluna_layer_set(e, a, "bounds", &size);
                s = below(2) ? caluna_layer_display(e, a) : caluna_layer_set_needs_display(e, a);
            }
            break;
        }
        case 55: {
            caluna_image snap = 0;
            s = caluna_layer_snapshot(e, a, below(2) ? 1.0 : number(), below(8) ? &snap : NULL);
            if (s == CALUNA_OK) caluna_image_release(e, snap);
            break;
        }
        case 56: {
            caluna_stats st;
            memset(&st, 0, sizeof st);
            st.struct_size = below(2) ? sizeof st : (size_t)below((int)sizeof st + 1);
            s = caluna_engine_stats(e, below(8) ? &st : NULL);
            break;
        }
        case 57: fuzz_context_call(e, a, below(2) ? stale_ctx : next()); s = caluna_context_begin_path(e, stale_ctx); break;
        default: s = caluna_engine_step(e, below(4) ? 1.0 / 60 : number()); break;
        }
        if (s == CALUNA_OK) {
            ok++;
        } else {
            failed++;
            if ((int)s < 1 || (int)s > CALUNA_ERR_LIMIT) unknown_status++;
            const char *msg = caluna_last_error(engine_less ? NULL : e);
            if (msg == NULL || msg[0] == '\0') silent_failure++;
            if (engine_less && strstr(msg, "caluna_") != msg) no_engine_silent++;
        }
    }
    CHECK(unknown_status == 0, "every status is a documented one (%d unknown)", unknown_status);
    CHECK(silent_failure == 0, "every failure has a message (%d silent)", silent_failure);
    CHECK(ok > 5000 && failed > 5000, "both paths exercised: %d ok, %d failed", ok, failed);
    CHECK(no_engine_silent == 0, "engine-less failures explain themselves at caluna_last_error(NULL) (%d not)", no_engine_silent);
    CHECK(callback_calls > 0 && callback_refusals == callback_calls,
          "callbacks ran (%d) and each was refused a step/advance/flush (%d)", callback_calls, callback_refusals);
    CHECK(draw_calls > 50 && draw_refusals == draw_calls && draw_statuses_bad == 0,
          "draw callbacks ran (%d), each was refused a render (%d), every context call gave a documented status (%d bad)",
          draw_calls, draw_refusals, draw_statuses_bad);

    /* A clean state still renders a known picture. */
    EXPECT_OK(e, caluna_engine_set_size(e, 8, 8, 1));
    int32_t count = 0;
    caluna_layer_sublayer_count(e, root, &count);
    for (int j = 0; j < 4; j++) {
        caluna_display_link_invalidate(e, frames[j]);
        caluna_timer_invalidate(e, frames[j]);
    }
    caluna_layer_remove_all_animations(e, root);
    while (caluna_transaction_commit(e) == CALUNA_OK) {}
    EXPECT_OK(e, caluna_transaction_set_disable_actions(e, 1)); /* committed layers: changes jump */
    while (count > 0) {
        caluna_layer sub = 0;
        caluna_layer_sublayer_at(e, root, 0, &sub);
        caluna_layer_remove_from_superlayer(e, sub);
        caluna_layer_sublayer_count(e, root, &count);
    }
    caluna_value t = caluna_transform_identity();
    EXPECT_OK(e, caluna_layer_set(e, root, "transform", &t));
    /* ABI 1.3 state the storm may have left on the root. */
    {
        caluna_value nil = caluna_nil(), zero = caluna_number(0), no = caluna_bool(0);
        EXPECT_OK(e, caluna_layer_set_draw_callback(e, root, NULL, NULL, NULL));
        EXPECT_OK(e, caluna_layer_set_mask(e, root, 0));
        EXPECT_OK(e, caluna_layer_set(e, root, "contents", &nil));
        EXPECT_OK(e, caluna_layer_set(e, root, "shadowOpacity", &zero));
        EXPECT_OK(e, caluna_layer_set(e, root, "borderWidth", &zero));
        EXPECT_OK(e, caluna_layer_set(e, root, "cornerRadius", &zero));
        EXPECT_OK(e, caluna_layer_set(e, root, "shouldRasterize", &no));
        EXPECT_OK(e, caluna_layer_set(e, root, "masksToBounds", &no));
    }
    caluna_value f = caluna_rect(0, 0, 8, 8), yes = caluna_bool(0), one = caluna_number(1), red = caluna_color(1, 0, 0, 1);
    EXPECT_OK(e, caluna_layer_set(e, root, "frame", &f));
    EXPECT_OK(e, caluna_layer_set(e, root, "hidden", &yes));
    EXPECT_OK(e, caluna_layer_set(e, root, "opacity", &one));
    EXPECT_OK(e, caluna_layer_set(e, root, "backgroundColor", &red));
    uint8_t px[8 * 8 * 4];
    EXPECT_OK(e, caluna_render(e, px, sizeof px, 8, 8, 32, CALUNA_RGBA8_STRAIGHT));
    CHECK(px[4 * 36] == 255 && px[4 * 36 + 1] == 0 && px[4 * 36 + 3] == 255, "the engine renders red after the storm");
    caluna_engine_destroy(other);
    caluna_engine_destroy(e);
    CHECK(release_owners > 20 && releases == release_owners, "every release handed over ran exactly once (%d of %d)",
          releases, release_owners);
    return finish();
}

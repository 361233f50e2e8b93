/* Ops: animations, a layer's animations and time, display links and timers, timing functions
 * and easing, transactions, layer actions (caluna.h "Animations" to "Images"). */
#include "capi_fuzz.h"

static const char *const anim_classes[] = { "BasicAnimation", "KeyframeAnimation", "SpringAnimation", "AnimationGroup",
                                            "Transition", "Animation", "CABasicAnimation" };
static const char *const anim_keys[] = { "duration", "beginTime", "speed", "timeOffset", "repeatCount", "repeatDuration",
    "autoreverses", "fillMode", "timingFunction", "removedOnCompletion", "keyPath", "additive", "cumulative",
    "valueFunction", "fromValue", "toValue", "byValue", "mass", "stiffness", "damping", "initialVelocity",
    "settlingDuration", "values", "path", "keyTimes", "timingFunctions", "calculationMode", "rotationMode",
    "tensionValues", "continuityValues", "biasValues", "type", "subtype", "startProgress", "endProgress", "animations" };
static const char *const timing_names[] = { "linear", "easeIn", "easeOut", "easeInEaseOut", "default", "bounceEaseOut",
                                            "Linear" };
static const char *const easing_names[] = { "linear", "quadraticEaseIn", "cubicEaseInOut", "circularEaseIn",
    "elasticEaseOut", "backEaseIn", "bounceEaseOut", "pennerBounceEaseOut", "exponentialEaseInOut", "sineEaseOut", "easeIn" };
static const char *akey(void) { return u8() < 200 ? NAME(anim_keys, LEN(anim_keys)) : KEY(); }
static const char *anim_slot_key(void) {
    static const char *const keys[] = { "k", "j", "transition", "" };
    return u8() < 16 ? NULL : NAME(keys, LEN(keys));
}

/* ---- Animations ---- */

OP(caluna_animation_create) {
    caluna_engine *e = E();
    const char *c = NAME(anim_classes, LEN(anim_classes));
    return fz_done(caluna_animation_create(e, c, OUT(SLOT(K_ANIM))));
}
OP(caluna_animation_retain) { caluna_engine *e = E(); return fz_done(caluna_animation_retain(e, ID(K_ANIM))); }
OP(caluna_animation_release) { caluna_engine *e = E(); return fz_done(caluna_animation_release(e, ID(K_ANIM))); }
OP(caluna_animation_copy) { caluna_engine *e = E(); uint64_t a = ID(K_ANIM); return fz_done(caluna_animation_copy(e, a, OUT(SLOT(K_ANIM)))); }
OP(caluna_animation_class_name) {
    const char *name = NULL;
    caluna_engine *e = E();
    caluna_status s = caluna_animation_class_name(e, ID(K_ANIM), OUT(&name));
    READ_STRING(s, &name);
    return fz_done(s);
}
OP(caluna_animation_is_attached) { int32_t v; caluna_engine *e = E(); uint64_t a = ID(K_ANIM); return fz_done(caluna_animation_is_attached(e, a, OUT(&v))); }
OP(caluna_animation_set) {
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    const char *k = akey();
    caluna_value v = VALUE();
    return fz_done(caluna_animation_set(e, a, k, IN(&v)));
}
GET_OP(caluna_animation_get, K_ANIM, akey())
OP(caluna_animation_set_numbers) {
    int with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    const char *k = akey();
    size_t n = COUNT(FZ_DOUBLES_CAP, &with_null);
    return fz_done(caluna_animation_set_numbers(e, a, k, with_null ? NULL : DOUBLES(n), (int32_t)n));
}
OP(caluna_animation_get_numbers) {
    static double out[FZ_DOUBLES_CAP];
    int32_t count, with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    const char *k = akey();
    size_t cap = COUNT(FZ_DOUBLES_CAP, &with_null);
    return fz_done(caluna_animation_get_numbers(e, a, k, with_null ? NULL : out, (int32_t)cap, OUT(&count)));
}
OP(caluna_animation_set_values) {
    int with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    size_t n = COUNT(FZ_VALUES_CAP, &with_null);
    return fz_done(caluna_animation_set_values(e, a, with_null ? NULL : VALUES(n), (int32_t)n));
}
OP(caluna_animation_get_values) {
    static caluna_value out[FZ_VALUES_CAP];
    int32_t count = 0, with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    size_t cap = COUNT(FZ_VALUES_CAP, &with_null);
    caluna_status s = caluna_animation_get_values(e, a, with_null ? NULL : out, (int32_t)cap, OUT(&count));
    if (s == CALUNA_OK && !with_null) for (int32_t i = 0; i < count && (size_t)i < cap; i++) READ_VALUE(s, &out[i]);
    return fz_done(s);
}
OP(caluna_animation_set_timing_function) {
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    double p[4] = { u8() / 255.0, NUM(), u8() < 200 ? u8() / 255.0 : NUM(), NUM() };
    return fz_done(caluna_animation_set_timing_function(e, a, p[0], p[1], p[2], p[3]));
}
OP(caluna_animation_set_timing_function_named) {
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    return fz_done(caluna_animation_set_timing_function_named(e, a, NAME(timing_names, LEN(timing_names))));
}
OP(caluna_animation_get_timing_function) {
    double p[4];
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    return fz_done(caluna_animation_get_timing_function(e, a, OUT(&p[0]), OUT(&p[1]), OUT(&p[2]), OUT(&p[3])));
}
OP(caluna_animation_set_timing_functions) {
    int with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    size_t n = COUNT(FZ_DOUBLES_CAP / 4, &with_null);
    return fz_done(caluna_animation_set_timing_functions(e, a, with_null ? NULL : DOUBLES(4 * n), (int32_t)n));
}
OP(caluna_animation_set_timing_functions_named) {
    static const char *names[8];
    int with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    size_t n = COUNT(LEN(names), &with_null);
    for (size_t i = 0; i < n && i < LEN(names); i++) names[i] = NAME(timing_names, LEN(timing_names));
    return fz_done(caluna_animation_set_timing_functions_named(e, a, with_null ? NULL : names, (int32_t)n));
}
OP(caluna_animation_get_timing_functions) {
    static double out[FZ_DOUBLES_CAP];
    int32_t count, with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    size_t cap = COUNT(FZ_DOUBLES_CAP / 4, &with_null);
    return fz_done(caluna_animation_get_timing_functions(e, a, with_null ? NULL : out, (int32_t)cap, OUT(&count)));
}
OP(caluna_animation_set_path) {
    int with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    size_t n = COUNT(FZ_PATH_CAP, &with_null);
    return fz_done(caluna_animation_set_path(e, a, with_null ? NULL : PATH_ELEMENTS(n), (int32_t)n));
}
OP(caluna_animation_get_path) {
    static caluna_path_element out[FZ_PATH_CAP];
    int32_t count, with_null;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    size_t cap = COUNT(FZ_PATH_CAP, &with_null);
    return fz_done(caluna_animation_get_path(e, a, with_null ? NULL : out, (int32_t)cap, OUT(&count)));
}
OP(caluna_animation_set_tag) {
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    const char *k = u8() < 128 ? "t" : KEY();
    caluna_value v = VALUE();
    return fz_done(caluna_animation_set_tag(e, a, k, IN(&v)));
}
OP(caluna_animation_get_tag) {
    caluna_value v;
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    const char *k = u8() < 128 ? "t" : KEY();
    caluna_status s = caluna_animation_get_tag(e, a, k, OUTV(&v));
    READ_VALUE(s, &v);
    return fz_done(s);
}
OP(caluna_animation_set_delegate) {
    caluna_engine *e = E();
    uint64_t a = ID(K_ANIM);
    caluna_animation_callback start = CB_ANIM(), stop = CB_ANIM();
    return fz_done(caluna_animation_set_delegate(e, a, start, stop, USER(0)));
}
OP(caluna_group_add_animation) { caluna_engine *e = E(); uint64_t g = ID(K_ANIM); return fz_done(caluna_group_add_animation(e, g, ID(K_ANIM))); }
OP(caluna_group_remove_all_animations) { caluna_engine *e = E(); return fz_done(caluna_group_remove_all_animations(e, ID(K_ANIM))); }
OP(caluna_group_animation_count) { int32_t n; caluna_engine *e = E(); uint64_t g = ID(K_ANIM); return fz_done(caluna_group_animation_count(e, g, OUT(&n))); }
OP(caluna_group_animation_at) {
    caluna_engine *e = E();
    uint64_t g = ID(K_ANIM);
    int32_t i = INT(3);
    return fz_done(caluna_group_animation_at(e, g, i, OUT(SLOT(K_ANIM))));
}

/* ---- A layer's animations, presentation and time ---- */

OP(caluna_layer_add_animation) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER), a = ID(K_ANIM);
    return fz_done(caluna_layer_add_animation(e, l, a, anim_slot_key()));
}
OP(caluna_layer_remove_animation) { caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_layer_remove_animation(e, l, anim_slot_key())); }
OP(caluna_layer_remove_all_animations) { caluna_engine *e = E(); return fz_done(caluna_layer_remove_all_animations(e, ID(K_LAYER))); }
OP(caluna_layer_animation_for_key) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    const char *k = anim_slot_key();
    return fz_done(caluna_layer_animation_for_key(e, l, k, OUT(SLOT(K_ANIM))));
}
OP(caluna_layer_animation_key_count) { int32_t n; caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_layer_animation_key_count(e, l, OUT(&n))); }
OP(caluna_layer_animation_key_at) {
    const char *key = NULL;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    int32_t i = INT(3);
    caluna_status s = caluna_layer_animation_key_at(e, l, i, OUT(&key));
    READ_STRING(s, &key);
    return fz_done(s);
}
OP(caluna_layer_presentation) { caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_layer_presentation(e, l, OUT(SLOT(K_LAYER)))); }
OP(caluna_layer_model_layer) { caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_layer_model_layer(e, l, OUT(SLOT(K_LAYER)))); }
GET_OP(caluna_layer_get_presentation, K_LAYER, LAYER_KEY())
OP(caluna_layer_convert_time) {
    double t;
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER), b = ID(K_LAYER);
    double x = NUM();
    return fz_done(caluna_layer_convert_time(e, a, b, x, OUT(&t)));
}

/* ---- Display links and timers ---- */

OP(caluna_display_link_create) {
    caluna_engine *e = E();
    caluna_display_link_callback cb = CB_LINK();
    return fz_done(caluna_display_link_create(e, cb, USER(0), OUT(SLOT(K_LINK))));
}
OP(caluna_display_link_set_paused) { caluna_engine *e = E(); uint64_t l = ID(K_LINK); return fz_done(caluna_display_link_set_paused(e, l, (int8_t)u8())); }
OP(caluna_display_link_set_preferred_fps) { caluna_engine *e = E(); uint64_t l = ID(K_LINK); return fz_done(caluna_display_link_set_preferred_fps(e, l, INT(240) - 10)); }
OP(caluna_display_link_set_frame_interval) { caluna_engine *e = E(); uint64_t l = ID(K_LINK); return fz_done(caluna_display_link_set_frame_interval(e, l, INT(5))); }
OP(caluna_display_link_timestamps) {
    double a, b, c;
    caluna_engine *e = E();
    uint64_t l = ID(K_LINK);
    return fz_done(caluna_display_link_timestamps(e, l, OUT(&a), OUT(&b), OUT(&c)));
}
OP(caluna_display_link_invalidate) { caluna_engine *e = E(); return fz_done(caluna_display_link_invalidate(e, ID(K_LINK))); }
OP(caluna_timer_create) {
    static const double intervals[] = { 1.0 / 60, 0, 0.5, 1e-9, -1, NAN, 1e9, 2e9, INFINITY, 0.01 };
    caluna_engine *e = E();
    double interval = intervals[u8() % LEN(intervals)];
    int32_t repeats = (int8_t)u8();
    caluna_timer_callback cb = CB_TIMER();
    return fz_done(caluna_timer_create(e, interval, repeats, cb, USER(0), OUT(SLOT(K_LINK))));
}
OP(caluna_timer_fire_date) { double t; caluna_engine *e = E(); uint64_t l = ID(K_LINK); return fz_done(caluna_timer_fire_date(e, l, OUT(&t))); }
OP(caluna_timer_invalidate) { caluna_engine *e = E(); return fz_done(caluna_timer_invalidate(e, ID(K_LINK))); }

/* ---- Timing functions and easing (no engine) ---- */

OP(caluna_timing_function_evaluate) {
    double out;
    fz_engine_less();
    double p[5] = { u8() / 255.0, NUM(), u8() < 200 ? u8() / 255.0 : NUM(), NUM(), NUM() };
    return fz_done(caluna_timing_function_evaluate(p[0], p[1], p[2], p[3], p[4], OUT(&out)));
}
OP(caluna_timing_function_named_evaluate) {
    double out;
    fz_engine_less();
    const char *n = NAME(timing_names, LEN(timing_names));
    double x = NUM();
    return fz_done(caluna_timing_function_named_evaluate(n, x, OUT(&out)));
}
OP(caluna_timing_function_named_points) {
    double p[4];
    fz_engine_less();
    const char *n = NAME(timing_names, LEN(timing_names));
    return fz_done(caluna_timing_function_named_points(n, OUT(&p[0]), OUT(&p[1]), OUT(&p[2]), OUT(&p[3])));
}
OP(caluna_easing) {
    double out;
    fz_engine_less();
    const char *n = NAME(easing_names, LEN(easing_names));
    double t = NUM();
    return fz_done(caluna_easing(n, t, OUT(&out)));
}
OP(caluna_easing_name_at) {
    const char *name = NULL;
    fz_engine_less();
    int32_t i = INT(40);
    caluna_status s = caluna_easing_name_at(i, OUT(&name));
    READ_STRING(s, &name);
    return fz_done(s);
}

/* ---- Transactions ---- */

OP(caluna_transaction_begin) { caluna_engine *e = E(); return fz_done(caluna_transaction_begin(e)); }
OP(caluna_transaction_commit) { caluna_engine *e = E(); return fz_done(caluna_transaction_commit(e)); }
OP(caluna_transaction_flush) { caluna_engine *e = E(); return fz_done(caluna_transaction_flush(e)); }
OP(caluna_transaction_depth) { int32_t d; caluna_engine *e = E(); return fz_done(caluna_transaction_depth(e, OUT(&d))); }
OP(caluna_transaction_set_animation_duration) { caluna_engine *e = E(); return fz_done(caluna_transaction_set_animation_duration(e, NUM())); }
OP(caluna_transaction_animation_duration) { double d; caluna_engine *e = E(); return fz_done(caluna_transaction_animation_duration(e, OUT(&d))); }
OP(caluna_transaction_set_disable_actions) { caluna_engine *e = E(); return fz_done(caluna_transaction_set_disable_actions(e, (int8_t)u8())); }
OP(caluna_transaction_disable_actions) { int32_t d; caluna_engine *e = E(); return fz_done(caluna_transaction_disable_actions(e, OUT(&d))); }
OP(caluna_transaction_set_animation_timing_function) {
    caluna_engine *e = E();
    double p[4] = { u8() / 255.0, NUM(), u8() < 200 ? u8() / 255.0 : NUM(), NUM() };
    return fz_done(caluna_transaction_set_animation_timing_function(e, p[0], p[1], p[2], p[3]));
}
OP(caluna_transaction_set_animation_timing_function_named) {
    caluna_engine *e = E();
    return fz_done(caluna_transaction_set_animation_timing_function_named(e, NAME(timing_names, LEN(timing_names))));
}
OP(caluna_transaction_animation_timing_function) {
    double p[4];
    caluna_engine *e = E();
    return fz_done(caluna_transaction_animation_timing_function(e, OUT(&p[0]), OUT(&p[1]), OUT(&p[2]), OUT(&p[3])));
}
OP(caluna_transaction_set_completion) {
    caluna_engine *e = E();
    caluna_completion_callback cb = CB_COMPLETION();
    caluna_release_callback rel = RELEASE();
    void *user = USER(rel != NULL);
    caluna_status s = caluna_transaction_set_completion(e, cb, user, rel);
    user_free_if_unowned(user, s == CALUNA_OK && cb && rel);
    return fz_done(s);
}
static const char *transaction_key(void) {
    static const char *const keys[] = { "animationDuration", "disableActions", "animationTimingFunction",
                                        "completionBlock", "k", "" };
    return u8() < 200 ? NAME(keys, LEN(keys)) : KEY();
}
OP(caluna_transaction_set_value) {
    caluna_engine *e = E();
    const char *k = transaction_key();
    caluna_value v = VALUE();
    return fz_done(caluna_transaction_set_value(e, k, IN(&v)));
}
OP(caluna_transaction_value) {
    caluna_value v;
    caluna_engine *e = E();
    const char *k = transaction_key();
    caluna_status s = caluna_transaction_value(e, k, OUTV(&v));
    READ_VALUE(s, &v);
    return fz_done(s);
}

/* ---- Layer actions ---- */

static const char *action_key(void) {
    static const char *const keys[] = { "opacity", "position", "contents", "onOrderIn", "onOrderOut", "sublayers",
                                        "bounds", "transition", "backgroundColor", "hidden" };
    return u8() < 200 ? NAME(keys, LEN(keys)) : KEY();
}

/* An action for a setter, in the op's own *a (a callback inside the call may run the same
 * op again: a shared struct would change under the outer call's bookkeeping); *user_out is
 * the token the engine takes over on success. */
static caluna_action *action(caluna_action *a, void **user_out) {
    memset(a, 0, sizeof *a);
    *user_out = NULL;
    if (u8() < 16) return NULL;
    a->kind = (caluna_action_kind)((int)(u8() % 6) - 1);
    a->animation = ID(K_ANIM);
    a->callback = CB_ACTION();
    a->release = RELEASE();
    a->user = *user_out = USER(a->release != NULL);
    return a;
}
static int action_taken(caluna_status s, const caluna_action *a) {
    return s == CALUNA_OK && a && a->kind == CALUNA_ACTION_CALLBACK && a->callback && a->release;
}

OP(caluna_layer_set_action) {
    void *user;
    caluna_action storage;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    const char *k = action_key();
    caluna_action *a = action(&storage, &user);
    caluna_status s = caluna_layer_set_action(e, l, k, a);
    user_free_if_unowned(user, action_taken(s, a));
    return fz_done(s);
}
OP(caluna_layer_action) { caluna_action a; caluna_engine *e = E(); uint64_t l = ID(K_LAYER); const char *k = action_key(); return fz_done(caluna_layer_action(e, l, k, OUT(&a))); }
OP(caluna_layer_clear_actions) { caluna_engine *e = E(); return fz_done(caluna_layer_clear_actions(e, ID(K_LAYER))); }
OP(caluna_layer_set_style_action) {
    void *user;
    caluna_action storage;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    int32_t level = u8() < 224 ? (int32_t)(u8() % 4) : INT(40) - 4;
    const char *k = action_key();
    caluna_action *a = action(&storage, &user);
    caluna_status s = caluna_layer_set_style_action(e, l, level, k, a);
    user_free_if_unowned(user, action_taken(s, a));
    return fz_done(s);
}
OP(caluna_layer_style_action) {
    caluna_action a;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    int32_t level = u8() < 224 ? (int32_t)(u8() % 4) : INT(40) - 4;
    const char *k = action_key();
    return fz_done(caluna_layer_style_action(e, l, level, k, OUT(&a)));
}
OP(caluna_layer_clear_style) { caluna_engine *e = E(); return fz_done(caluna_layer_clear_style(e, ID(K_LAYER))); }
OP(caluna_layer_set_action_delegate) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    caluna_action_delegate_callback cb = CB_ACTION_DELEGATE();
    caluna_release_callback rel = RELEASE();
    void *user = USER(rel != NULL);
    caluna_status s = caluna_layer_set_action_delegate(e, l, cb, user, rel);
    user_free_if_unowned(user, s == CALUNA_OK && cb && rel);
    return fz_done(s);
}
/* The two lookups give an OWNED animation: it goes to the pool (the engine frees it with
 * everything else when the input ends). */
OP(caluna_layer_action_for_key) {
    caluna_action a;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    const char *k = action_key();
    caluna_status s = caluna_layer_action_for_key(e, l, k, OUT(&a));
    if (s == CALUNA_OK && a.kind == CALUNA_ACTION_ANIMATION) *SLOT(K_ANIM) = a.animation;
    return fz_done(s);
}
OP(caluna_default_action_for_key) {
    caluna_action a;
    caluna_engine *e = E();
    const char *k = action_key();
    caluna_status s = caluna_default_action_for_key(e, k, OUT(&a));
    if (s == CALUNA_OK && a.kind == CALUNA_ACTION_ANIMATION) *SLOT(K_ANIM) = a.animation;
    return fz_done(s);
}

const fz_op fz_ops_anim[] = {
    ENTRY(caluna_animation_create), ENTRY(caluna_animation_retain), ENTRY(caluna_animation_release),
    ENTRY(caluna_animation_copy), ENTRY(caluna_animation_class_name), ENTRY(caluna_animation_is_attached),
    ENTRY(caluna_animation_set), ENTRY(caluna_animation_get), ENTRY(caluna_animation_set_numbers),
    ENTRY(caluna_animation_get_numbers), ENTRY(caluna_animation_set_values), ENTRY(caluna_animation_get_values),
    ENTRY(caluna_animation_set_timing_function), ENTRY(caluna_animation_set_timing_function_named),
    ENTRY(caluna_animation_get_timing_function), ENTRY(caluna_animation_set_timing_functions),
    ENTRY(caluna_animation_set_timing_functions_named), ENTRY(caluna_animation_get_timing_functions),
    ENTRY(caluna_animation_set_path), ENTRY(caluna_animation_get_path), ENTRY(caluna_animation_set_tag),
    ENTRY(caluna_animation_get_tag), ENTRY(caluna_animation_set_delegate), ENTRY(caluna_group_add_animation),
    ENTRY(caluna_group_remove_all_animations), ENTRY(caluna_group_animation_count), ENTRY(caluna_group_animation_at),
    ENTRY(caluna_layer_add_animation), ENTRY(caluna_layer_remove_animation), ENTRY(caluna_layer_remove_all_animations),
    ENTRY(caluna_layer_animation_for_key), ENTRY(caluna_layer_animation_key_count), ENTRY(caluna_layer_animation_key_at),
    ENTRY(caluna_layer_presentation), ENTRY(caluna_layer_model_layer), ENTRY(caluna_layer_get_presentation),
    ENTRY(caluna_layer_convert_time), ENTRY(caluna_display_link_create), ENTRY(caluna_display_link_set_paused),
    ENTRY(caluna_display_link_set_preferred_fps), ENTRY(caluna_display_link_set_frame_interval),
    ENTRY(caluna_display_link_timestamps), ENTRY(caluna_display_link_invalidate), ENTRY(caluna_timer_create),
    ENTRY(caluna_timer_fire_date), ENTRY(caluna_timer_invalidate), ENTRY(caluna_timing_function_evaluate),
    ENTRY(caluna_timing_function_named_evaluate), ENTRY(caluna_timing_function_named_points), ENTRY(caluna_easing),
    ENTRY(caluna_easing_name_at), ENTRY(caluna_transaction_begin), ENTRY(caluna_transaction_commit),
    ENTRY(caluna_transaction_flush), ENTRY(caluna_transaction_depth), ENTRY(caluna_transaction_set_animation_duration),
    ENTRY(caluna_transaction_animation_duration), ENTRY(caluna_transaction_set_disable_actions),
    ENTRY(caluna_transaction_disable_actions), ENTRY(caluna_transaction_set_animation_timing_function),
    ENTRY(caluna_transaction_set_animation_timing_function_named), ENTRY(caluna_transaction_animation_timing_function),
    ENTRY(caluna_transaction_set_completion), ENTRY(caluna_transaction_set_value), ENTRY(caluna_transaction_value),
    ENTRY(caluna_layer_set_action), ENTRY(caluna_layer_action), ENTRY(caluna_layer_clear_actions),
    ENTRY(caluna_layer_set_style_action), ENTRY(caluna_layer_style_action), ENTRY(caluna_layer_clear_style),
    ENTRY(caluna_layer_set_action_delegate), ENTRY(caluna_layer_action_for_key), ENTRY(caluna_default_action_for_key),
};
TABLE(anim);

/* Ops: transforms (no engine), input events, specialised layers (caluna.h "Transforms" to
 * the end, physics aside). */
#include "capi_fuzz.h"

/* ---- Transforms ---- */

/* A matrix near the identity with a few entries from the input; out may alias it. */
static double *matrix(int n) {
    static double m[3][16];
    static unsigned next;
    double *t = m[next++ % 3];
    for (int i = 0; i < 16; i++) t[i] = (n == 16 ? i % 5 == 0 : (i == 0 || i == 3)) ? 1.0 : 0.0;
    for (int k = u8() % 4; k > 0; k--) t[u8() % n] = u8() < 200 ? (double)(int8_t)u8() / 32.0 : NUM();
    return t;
}
static double *in16(void) { return u8() < 8 ? NULL : matrix(16); }
static double *in6(void) { return u8() < 8 ? NULL : matrix(6); }
static double *out_like(double *in) { static double out[16]; uint8_t b = u8(); return b < 8 ? NULL : (b < 40 && in) ? in : out; }
#define ENGINELESS fz_engine_less()

OP(caluna_transform3d_identity) { ENGINELESS; return fz_done(caluna_transform3d_identity(out_like(NULL))); }
OP(caluna_transform3d_make_translation) { ENGINELESS; double x = NUM(), y = NUM(), z = NUM(); return fz_done(caluna_transform3d_make_translation(x, y, z, out_like(NULL))); }
OP(caluna_transform3d_make_scale) { ENGINELESS; double x = NUM(), y = NUM(), z = NUM(); return fz_done(caluna_transform3d_make_scale(x, y, z, out_like(NULL))); }
OP(caluna_transform3d_make_rotation) { ENGINELESS; double a = NUM(), x = NUM(), y = NUM(), z = NUM(); return fz_done(caluna_transform3d_make_rotation(a, x, y, z, out_like(NULL))); }
OP(caluna_transform3d_translate) { ENGINELESS; double *t = in16(); double x = NUM(), y = NUM(), z = NUM(); return fz_done(caluna_transform3d_translate(t, x, y, z, out_like(t))); }
OP(caluna_transform3d_scale) { ENGINELESS; double *t = in16(); double x = NUM(), y = NUM(), z = NUM(); return fz_done(caluna_transform3d_scale(t, x, y, z, out_like(t))); }
OP(caluna_transform3d_rotate) { ENGINELESS; double *t = in16(); double a = NUM(), x = NUM(), y = NUM(), z = NUM(); return fz_done(caluna_transform3d_rotate(t, a, x, y, z, out_like(t))); }
OP(caluna_transform3d_concat) { ENGINELESS; double *a = in16(), *b = in16(); return fz_done(caluna_transform3d_concat(a, b, out_like(b))); }
OP(caluna_transform3d_invert) { ENGINELESS; double *t = in16(); return fz_done(caluna_transform3d_invert(t, out_like(t))); }
OP(caluna_transform3d_is_identity) { int32_t v; ENGINELESS; double *t = in16(); return fz_done(caluna_transform3d_is_identity(t, OUT(&v))); }
OP(caluna_transform3d_equal) { int32_t v; ENGINELESS; double *a = in16(), *b = in16(); return fz_done(caluna_transform3d_equal(a, b, OUT(&v))); }
OP(caluna_transform3d_is_affine) { int32_t v; ENGINELESS; double *t = in16(); return fz_done(caluna_transform3d_is_affine(t, OUT(&v))); }
OP(caluna_transform3d_get_affine) { ENGINELESS; double *t = in16(); return fz_done(caluna_transform3d_get_affine(t, out_like(t))); }
OP(caluna_transform3d_make_affine) { ENGINELESS; double *t = in6(); return fz_done(caluna_transform3d_make_affine(t, out_like(NULL))); }
OP(caluna_transform3d_apply) { ENGINELESS; double *t = in16(); double x = NUM(), y = NUM(), z = NUM(); return fz_done(caluna_transform3d_apply(t, x, y, z, out_like(t))); }
OP(caluna_affine_identity) { ENGINELESS; return fz_done(caluna_affine_identity(out_like(NULL))); }
OP(caluna_affine_make_translation) { ENGINELESS; double x = NUM(), y = NUM(); return fz_done(caluna_affine_make_translation(x, y, out_like(NULL))); }
OP(caluna_affine_make_scale) { ENGINELESS; double x = NUM(), y = NUM(); return fz_done(caluna_affine_make_scale(x, y, out_like(NULL))); }
OP(caluna_affine_make_rotation) { ENGINELESS; double a = NUM(); return fz_done(caluna_affine_make_rotation(a, out_like(NULL))); }
OP(caluna_affine_translate) { ENGINELESS; double *t = in6(); double x = NUM(), y = NUM(); return fz_done(caluna_affine_translate(t, x, y, out_like(t))); }
OP(caluna_affine_scale) { ENGINELESS; double *t = in6(); double x = NUM(), y = NUM(); return fz_done(caluna_affine_scale(t, x, y, out_like(t))); }
OP(caluna_affine_rotate) { ENGINELESS; double *t = in6(); double a = NUM(); return fz_done(caluna_affine_rotate(t, a, out_like(t))); }
OP(caluna_affine_concat) { ENGINELESS; double *a = in6(), *b = in6(); return fz_done(caluna_affine_concat(a, b, out_like(a))); }
OP(caluna_affine_invert) { ENGINELESS; double *t = in6(); return fz_done(caluna_affine_invert(t, out_like(t))); }
OP(caluna_affine_is_identity) { int32_t v; ENGINELESS; double *t = in6(); return fz_done(caluna_affine_is_identity(t, OUT(&v))); }
OP(caluna_affine_equal) { int32_t v; ENGINELESS; double *a = in6(), *b = in6(); return fz_done(caluna_affine_equal(a, b, OUT(&v))); }
OP(caluna_affine_apply_point) { ENGINELESS; double *t = in6(); double x = NUM(), y = NUM(); return fz_done(caluna_affine_apply_point(t, x, y, out_like(t))); }
OP(caluna_affine_apply_rect) { ENGINELESS; double *t = in6(), *r = u8() < 8 ? NULL : matrix(6); return fz_done(caluna_affine_apply_rect(t, r, out_like(r))); }

/* ---- Input events ---- */

static double when(void) {
    static const double times[] = { CALUNA_NOW, 0, 0.01, 0.02, 0.5, -2, NAN, INFINITY, 1e300 };
    return times[u8() % LEN(times)];
}
static int64_t pointer_id(void) { return u8() < 224 ? (int64_t)(u8() % 3) : (int64_t)u64(); }
static uint32_t modifiers(void) { return u8() < 224 ? (uint32_t)(u8() % 16) : u32(); }
static double where(void) { return u8() < 200 ? (double)(u8() % 70) : NUM(); }
static const char *const event_names[] = { "pointerdown", "pointermove", "pointerup", "pointercancel", "keydown", "keyup",
    "tilt", "resize", "tap", "pan", "go", "Tap", "custom" };
static const char *const key_names[] = { "a", "Left", "Return", "Escape", "" };
static const char *const json_texts[] = {
    "{\"type\": \"tap\", \"x\": 4, \"y\": 4}", "{\"type\": \"drag\", \"from\": [1, 1], \"to\": [30, 30], \"duration\": 0.1}",
    "{\"type\": \"pointerdown\", \"x\": 2, \"y\": 2, \"time\": 0.01}", "{\"type\": \"custom\", \"name\": \"go\", \"data\": {\"a\": [1, 2]}}",
    "{\"type\": \"key\", \"key\": \"a\"}", "{\"type\": \"resize\", \"width\": 20, \"height\": 20}", "{\"type\": 1}", "[]", "{",
    "null", "{\"type\": \"tilt\", \"x\": 0.1, \"y\": -1, \"z\": 0}",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
};

OP(caluna_send_pointer) {
    caluna_engine *e = E();
    int32_t type = INT(12);
    int64_t id = pointer_id();
    double x = where(), y = where();
    int32_t buttons = u8() < 224 ? (int32_t)(u8() % 8) : (int32_t)u32();
    uint32_t mods = modifiers();
    return fz_done(caluna_send_pointer(e, type, id, x, y, buttons, mods, when()));
}
OP(caluna_send_key) {
    caluna_engine *e = E();
    int32_t type = INT(12);
    const char *k = NAME(key_names, LEN(key_names)), *t = u8() < 128 ? NULL : STR();
    uint32_t mods = modifiers();
    return fz_done(caluna_send_key(e, type, k, t, mods, when()));
}
OP(caluna_send_tilt) { caluna_engine *e = E(); double x = NUM(), y = NUM(), z = NUM(); return fz_done(caluna_send_tilt(e, x, y, z, when())); }
OP(caluna_send_resize) {
    static const double scales[] = { 0, 1, 2, -1, NAN, 17 };
    caluna_engine *e = E();
    double w = u8() < 224 ? (double)(1 + u8() % 64) : NUM(), h = u8() < 224 ? (double)(1 + u8() % 64) : NUM();
    return fz_done(caluna_send_resize(e, w, h, scales[u8() % LEN(scales)], when()));
}
OP(caluna_send_custom) {
    caluna_engine *e = E();
    const char *name = NAME(event_names, LEN(event_names));
    const char *json = u8() < 64 ? NULL : NAME(json_texts, LEN(json_texts));
    return fz_done(caluna_send_custom(e, name, json, when()));
}
OP(caluna_send_json) { caluna_engine *e = E(); return fz_done(caluna_send_json(e, NAME(json_texts, LEN(json_texts)))); }
OP(caluna_load_events) { int32_t n; caluna_engine *e = E(); const char *p = PATH_R(); return fz_done(caluna_load_events(e, p, OUT(&n))); }
OP(caluna_pending_event_count) { int32_t n; caluna_engine *e = E(); return fz_done(caluna_pending_event_count(e, OUT(&n))); }
OP(caluna_on) {
    caluna_engine *e = E();
    const char *name = NAME(event_names, LEN(event_names));
    caluna_event_callback cb = CB_EVENT();
    return fz_done(caluna_on(e, name, cb, USER(0), OUT(SLOT(K_HANDLER))));
}
OP(caluna_layer_on) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    const char *name = NAME(event_names, LEN(event_names));
    caluna_event_callback cb = CB_EVENT();
    return fz_done(caluna_layer_on(e, l, name, cb, USER(0), OUT(SLOT(K_HANDLER))));
}
OP(caluna_off) { caluna_engine *e = E(); return fz_done(caluna_off(e, ID(K_HANDLER))); }
OP(caluna_set_hit_test_tree) { caluna_engine *e = E(); return fz_done(caluna_set_hit_test_tree(e, (int8_t)u8())); }
OP(caluna_hit_layer) { caluna_engine *e = E(); double x = where(), y = where(); return fz_done(caluna_hit_layer(e, x, y, OUT(SLOT(K_LAYER)))); }
OP(caluna_pan_set_translation) { caluna_engine *e = E(); int64_t id = pointer_id(); double x = NUM(), y = NUM(); return fz_done(caluna_pan_set_translation(e, id, x, y)); }
OP(caluna_pointer_capture) { caluna_engine *e = E(); int64_t id = pointer_id(); return fz_done(caluna_pointer_capture(e, id, ID(K_LAYER))); }

/* ---- Shape-layer paths (no engine) ---- */

OP(caluna_path_arc) {
    static caluna_path_element out[FZ_PATH_CAP];
    int32_t count, with_null;
    ENGINELESS;
    double p[5] = { NUM(), NUM(), SMALL(), NUM(), NUM() };
    int32_t cw = (int8_t)u8();
    size_t cap = COUNT(FZ_PATH_CAP, &with_null);
    return fz_done(caluna_path_arc(p[0], p[1], p[2], p[3], p[4], cw, with_null ? NULL : out, (int32_t)cap, OUT(&count)));
}
OP(caluna_path_rounded_rect) {
    static caluna_path_element out[FZ_PATH_CAP];
    int32_t count, with_null;
    ENGINELESS;
    double p[6] = { NUM(), NUM(), SMALL(), SMALL(), SMALL(), SMALL() };
    uint32_t corners = u8() < 224 ? (uint32_t)(u8() % 16) : u32();
    size_t cap = COUNT(FZ_PATH_CAP, &with_null);
    return fz_done(caluna_path_rounded_rect(p[0], p[1], p[2], p[3], p[4], p[5], corners, with_null ? NULL : out, (int32_t)cap, OUT(&count)));
}

/* ---- Text layers ---- */

static const char *const fonts[] = { "DejaVu Sans", "Helvetica", "DejaVu Serif Bold Italic", "monospace", "" };
OP(caluna_text_layer_set_attributed_string) {
    static caluna_text_run runs[8];
    int with_null;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    size_t n = COUNT(LEN(runs), &with_null);
    for (size_t i = 0; i < n && i < LEN(runs); i++) {
        memset(&runs[i], 0, sizeof runs[i]);
        runs[i].text = u8() < 200 ? "run " : STR();
        runs[i].font = u8() < 64 ? NULL : NAME(fonts, LEN(fonts));
        runs[i].font_size = u8() < 200 ? (double)(u8() % 40) : NUM();
        for (int k = 0; k < 4; k++) runs[i].color[k] = u8() < 240 ? u8() / 255.0 : NUM();
        runs[i].has_color = u8() % 3; runs[i].underline = u8() % 3; runs[i].strikethrough = u8() % 3;
        runs[i].reserved = u8() < 240 ? 0 : 1;
        runs[i].kern = u8() < 200 ? (double)(int8_t)u8() / 8 : NUM();
    }
    return fz_done(caluna_text_layer_set_attributed_string(e, l, with_null ? NULL : runs, (int32_t)n));
}
OP(caluna_text_layer_get_run_count) { int32_t n; caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_text_layer_get_run_count(e, l, OUT(&n))); }
OP(caluna_text_layer_get_run) {
    caluna_text_run run;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    int32_t i = INT(4);
    caluna_status s = caluna_text_layer_get_run(e, l, i, OUT(&run));
    if (s == CALUNA_OK) { READ_STRING(s, &run.text); READ_STRING(s, &run.font); }
    return fz_done(s);
}

/* ---- Scroll layers ---- */

OP(caluna_scroll_layer_scroll_to_point) { caluna_engine *e = E(); uint64_t l = ID(K_LAYER); double x = NUM(), y = NUM(); return fz_done(caluna_scroll_layer_scroll_to_point(e, l, x, y)); }
OP(caluna_scroll_layer_scroll_to_rect) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    double r[4] = { NUM(), NUM(), NUM(), NUM() };
    return fz_done(caluna_scroll_layer_scroll_to_rect(e, l, r[0], r[1], r[2], r[3]));
}
OP(caluna_layer_scroll_point) { int32_t v; caluna_engine *e = E(); uint64_t l = ID(K_LAYER); double x = NUM(), y = NUM(); return fz_done(caluna_layer_scroll_point(e, l, x, y, OUT(&v))); }
OP(caluna_layer_scroll_rect_to_visible) {
    int32_t v;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    double r[4] = { NUM(), NUM(), NUM(), NUM() };
    return fz_done(caluna_layer_scroll_rect_to_visible(e, l, r[0], r[1], r[2], r[3], OUT(&v)));
}
OP(caluna_layer_visible_rect) {
    double r[4];
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    return fz_done(caluna_layer_visible_rect(e, l, OUT(&r[0]), OUT(&r[1]), OUT(&r[2]), OUT(&r[3])));
}

/* ---- Emitter layers ---- */

static const caluna_emitter_cell *cells(size_t n) {
    static caluna_emitter_cell cs[8];
    for (size_t i = 0; i < n && i < LEN(cs); i++) cs[i] = ID(K_CELL);
    return cs;
}
OP(caluna_emitter_cell_create) { caluna_engine *e = E(); return fz_done(caluna_emitter_cell_create(e, OUT(SLOT(K_CELL)))); }
OP(caluna_emitter_cell_retain) { caluna_engine *e = E(); return fz_done(caluna_emitter_cell_retain(e, ID(K_CELL))); }
OP(caluna_emitter_cell_release) { caluna_engine *e = E(); return fz_done(caluna_emitter_cell_release(e, ID(K_CELL))); }
/* Mostly a cell's own keys (a key from all of the engine's names rarely is one). */
static const char *cell_key(void) {
    static const char *const keys[] = { "birthRate", "lifetime", "velocity", "emissionRange", "scale", "spin",
        "alphaSpeed", "beginTime", "duration", "name", "enabled", "color", "contents", "contentsRect",
        "minificationFilter", "minificationFilterBias" };
    return u8() < 160 ? NAME(keys, LEN(keys)) : KEY();
}
OP(caluna_emitter_cell_set) { caluna_engine *e = E(); uint64_t c = ID(K_CELL); const char *k = cell_key(); caluna_value v = VALUE(); return fz_done(caluna_emitter_cell_set(e, c, k, IN(&v))); }
GET_OP(caluna_emitter_cell_get, K_CELL, cell_key())
OP(caluna_emitter_cell_set_cells) {
    int with_null;
    caluna_engine *e = E();
    uint64_t c = ID(K_CELL);
    size_t n = COUNT(8, &with_null);
    return fz_done(caluna_emitter_cell_set_cells(e, c, with_null ? NULL : cells(n), (int32_t)n));
}
OP(caluna_emitter_layer_set_cells) {
    int with_null;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    size_t n = COUNT(8, &with_null);
    return fz_done(caluna_emitter_layer_set_cells(e, l, with_null ? NULL : cells(n), (int32_t)n));
}
OP(caluna_emitter_cell_get_cells) {
    static caluna_emitter_cell out[8];
    int32_t count, with_null;
    caluna_engine *e = E();
    uint64_t c = ID(K_CELL);
    size_t cap = COUNT(8, &with_null);
    return fz_done(caluna_emitter_cell_get_cells(e, c, with_null ? NULL : out, (int32_t)cap, OUT(&count)));
}
OP(caluna_emitter_layer_get_cells) {
    static caluna_emitter_cell out[8];
    int32_t count, with_null;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    size_t cap = COUNT(8, &with_null);
    return fz_done(caluna_emitter_layer_get_cells(e, l, with_null ? NULL : out, (int32_t)cap, OUT(&count)));
}
OP(caluna_emitter_layer_particle_count) { int32_t n; caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_emitter_layer_particle_count(e, l, OUT(&n))); }

/* ---- Pixel buffer layers ---- */

OP(caluna_pixel_buffer_layer_set_callback) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    caluna_pixel_format f = FORMAT();
    caluna_pixel_buffer_callback cb = CB_PIXELS();
    caluna_release_callback rel = RELEASE();
    void *user = USER(rel != NULL);
    caluna_status s = caluna_pixel_buffer_layer_set_callback(e, l, f, cb, user, rel);
    user_free_if_unowned(user, s == CALUNA_OK && cb && rel);
    return fz_done(s);
}
OP(caluna_pixel_buffer_layer_submit) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    int32_t w = INT(16), h = INT(16);
    int32_t stride = u8() < 200 ? w * 4 : INT(80) - 8;
    const uint8_t *px = u8() < 8 ? NULL : BYTES(FZ_BYTES_CAP);
    /* Honest: the call reads stride × (h − 1) + w × 4 bytes once the arguments pass. */
    if (px && w > 0 && h > 0 && stride >= (int64_t)w * 4 && (int64_t)stride * (h - 1) + (int64_t)w * 4 > FZ_BYTES_CAP) px = NULL;
    return fz_done(caluna_pixel_buffer_layer_submit(e, l, px, w, h, stride, FORMAT()));
}
OP(caluna_pixel_buffer_layer_frames_drawn) { uint64_t n; caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_pixel_buffer_layer_frames_drawn(e, l, OUT(&n))); }

const fz_op fz_ops_misc[] = {
    ENTRY(caluna_transform3d_identity), ENTRY(caluna_transform3d_make_translation), ENTRY(caluna_transform3d_make_scale),
    ENTRY(caluna_transform3d_make_rotation), ENTRY(caluna_transform3d_translate), ENTRY(caluna_transform3d_scale),
    ENTRY(caluna_transform3d_rotate), ENTRY(caluna_transform3d_concat), ENTRY(caluna_transform3d_invert),
    ENTRY(caluna_transform3d_is_identity), ENTRY(caluna_transform3d_equal), ENTRY(caluna_transform3d_is_affine),
    ENTRY(caluna_transform3d_get_affine), ENTRY(caluna_transform3d_make_affine), ENTRY(caluna_transform3d_apply),
    ENTRY(caluna_affine_identity), ENTRY(caluna_affine_make_translation), ENTRY(caluna_affine_make_scale),
    ENTRY(caluna_affine_make_rotation), ENTRY(caluna_affine_translate), ENTRY(caluna_affine_scale),
    ENTRY(caluna_affine_rotate), ENTRY(caluna_affine_concat), ENTRY(caluna_affine_invert), ENTRY(caluna_affine_is_identity),
    ENTRY(caluna_affine_equal), ENTRY(caluna_affine_apply_point), ENTRY(caluna_affine_apply_rect),
    ENTRY(caluna_send_pointer), ENTRY(caluna_send_key), ENTRY(caluna_send_tilt), ENTRY(caluna_send_resize),
    ENTRY(caluna_send_custom), ENTRY(caluna_send_json), ENTRY(caluna_load_events), ENTRY(caluna_pending_event_count),
    ENTRY(caluna_on), ENTRY(caluna_layer_on), ENTRY(caluna_off), ENTRY(caluna_set_hit_test_tree), ENTRY(caluna_hit_layer),
    ENTRY(caluna_pan_set_translation), ENTRY(caluna_pointer_capture), ENTRY(caluna_path_arc),
    ENTRY(caluna_path_rounded_rect), ENTRY(caluna_text_layer_set_attributed_string),
    ENTRY(caluna_text_layer_get_run_count), ENTRY(caluna_text_layer_get_run), ENTRY(caluna_scroll_layer_scroll_to_point),
    ENTRY(caluna_scroll_layer_scroll_to_rect), ENTRY(caluna_layer_scroll_point), ENTRY(caluna_layer_scroll_rect_to_visible),
    ENTRY(caluna_layer_visible_rect), ENTRY(caluna_emitter_cell_create), ENTRY(caluna_emitter_cell_retain),
    ENTRY(caluna_emitter_cell_release), ENTRY(caluna_emitter_cell_set), ENTRY(caluna_emitter_cell_get),
    ENTRY(caluna_emitter_cell_set_cells), ENTRY(caluna_emitter_layer_set_cells), ENTRY(caluna_emitter_cell_get_cells),
    ENTRY(caluna_emitter_layer_get_cells), ENTRY(caluna_emitter_layer_particle_count),
    ENTRY(caluna_pixel_buffer_layer_set_callback), ENTRY(caluna_pixel_buffer_layer_submit),
    ENTRY(caluna_pixel_buffer_layer_frames_drawn),
};
TABLE(misc);

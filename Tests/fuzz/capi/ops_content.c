/* Ops: images, contents and effects, display and draw callbacks, drawing contexts,
 * snapshots and frame statistics (caluna.h "Images" to "Frame statistics"). */
#include "capi_fuzz.h"

/* ---- Images ---- */

OP(caluna_image_load_file) { caluna_engine *e = E(); const char *p = PATH_R(); return fz_done(caluna_image_load_file(e, p, OUT(SLOT(K_IMAGE)))); }
OP(caluna_image_load_data) {
    caluna_engine *e = E();
    size_t n = u8() < 224 ? u16() % 600 : FZ_BYTES_CAP;
    const uint8_t *data = u8() < 8 ? NULL : BYTES(n);
    return fz_done(caluna_image_load_data(e, data, n, OUT(SLOT(K_IMAGE))));
}
/* The call reads stride × (height − 1) + width × 4 bytes once its arguments pass; a host
 * never states more than it has, so larger honest requests go without pixels. */
static const void *honest_pixels(int32_t w, int32_t h, int32_t stride) {
    if (u8() < 8) return NULL;
    const uint8_t *px = BYTES(FZ_BYTES_CAP);
    if (w <= 0 || h <= 0 || stride < 0) return px;
    if ((int64_t)stride * (h - 1) + (int64_t)w * 4 > FZ_BYTES_CAP && stride >= (int64_t)w * 4) return NULL;
    return px;
}
OP(caluna_image_from_pixels) {
    caluna_engine *e = E();
    int32_t w = INT(16), h = INT(16);
    int32_t stride = u8() < 200 ? w * 4 + (int32_t)(u8() % 3) * 4 : INT(80) - 8;
    caluna_pixel_format f = FORMAT();
    return fz_done(caluna_image_from_pixels(e, w, h, stride, f, honest_pixels(w, h, stride), OUT(SLOT(K_IMAGE))));
}
OP(caluna_image_retain) { caluna_engine *e = E(); return fz_done(caluna_image_retain(e, ID(K_IMAGE))); }
OP(caluna_image_release) { caluna_engine *e = E(); return fz_done(caluna_image_release(e, ID(K_IMAGE))); }
OP(caluna_image_size) { int32_t w, h; caluna_engine *e = E(); uint64_t i = ID(K_IMAGE); return fz_done(caluna_image_size(e, i, OUT(&w), OUT(&h))); }
OP(caluna_image_byte_count) { size_t n; caluna_engine *e = E(); uint64_t i = ID(K_IMAGE); return fz_done(caluna_image_byte_count(e, i, OUT(&n))); }
OP(caluna_image_read_pixels) {
    static uint8_t buf[256 * 256 * 4];
    caluna_engine *e = E();
    uint64_t i = ID(K_IMAGE);
    int32_t w = 0, h = 0;
    caluna_image_size(e, i, &w, &h);
    int32_t stride = u8() < 200 ? w * 4 : INT(80) - 8;
    size_t size = u8() < 200 ? sizeof buf : u16();   /* never more than the buffer holds */
    caluna_pixel_format f = FORMAT();
    return fz_done(caluna_image_read_pixels(e, i, u8() < 8 ? NULL : buf, size, stride, f));
}
OP(caluna_image_write_png) {
    caluna_engine *e = E();
    uint64_t i = ID(K_IMAGE);
    int32_t w = 0, h = 0;
    if (caluna_image_size(e, i, &w, &h) == CALUNA_OK && (int64_t)w * h > 256 * 256) return CALUNA_OK;   /* affordable */
    return fz_done(caluna_image_write_png(e, i, PATH_W()));
}

/* ---- Contents and effects ---- */

OP(caluna_layer_set_shadow_path) {
    int with_null;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    size_t n = COUNT(FZ_PATH_CAP, &with_null);
    return fz_done(caluna_layer_set_shadow_path(e, l, with_null ? NULL : PATH_ELEMENTS(n), n));
}
OP(caluna_layer_shadow_path) {
    static caluna_path_element out[FZ_PATH_CAP];
    size_t count;
    int with_null;
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    size_t cap = COUNT(FZ_PATH_CAP, &with_null);
    return fz_done(caluna_layer_shadow_path(e, l, with_null ? NULL : out, cap, OUT(&count)));
}
OP(caluna_layer_set_mask) { caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_layer_set_mask(e, l, ID(K_LAYER))); }
OP(caluna_layer_mask) { caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_layer_mask(e, l, OUT(SLOT(K_LAYER)))); }

/* ---- Display and draw callbacks ---- */

/* A display draws bounds × contentsScale pixels: a host displays what it can afford. */
static int display_ok(caluna_engine *e, caluna_layer l) {
    caluna_value scale;
    double s = 1;
    if (caluna_layer_get(e, l, "contentsScale", &scale) == CALUNA_OK && scale.type == CALUNA_TYPE_NUMBER) s = scale.u.number;
    return fz_sandboxed || layer_pixels_ok(e, l, s);
}
OP(caluna_layer_set_needs_display) { caluna_engine *e = E(); return fz_done(caluna_layer_set_needs_display(e, ID(K_LAYER))); }
OP(caluna_layer_set_needs_display_in_rect) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    double r[4] = { NUM(), NUM(), NUM(), NUM() };
    return fz_done(caluna_layer_set_needs_display_in_rect(e, l, r[0], r[1], r[2], r[3]));
}
OP(caluna_layer_needs_display) { int32_t v; caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_layer_needs_display(e, l, OUT(&v))); }
OP(caluna_layer_display) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    return fz_done(display_ok(e, l) ? caluna_layer_display(e, l) : CALUNA_OK);
}
OP(caluna_layer_display_if_needed) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    return fz_done(display_ok(e, l) ? caluna_layer_display_if_needed(e, l) : CALUNA_OK);
}
OP(caluna_layer_set_draw_callback) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    caluna_draw_callback cb = CB_DRAW();
    caluna_release_callback rel = RELEASE();
    void *user = USER(rel != NULL);
    caluna_status s = caluna_layer_set_draw_callback(e, l, cb, user, rel);
    user_free_if_unowned(user, s == CALUNA_OK && cb && rel);
    return fz_done(s);
}

/* ---- Drawing contexts ---- */

static const char *const caps[] = { "butt", "round", "square", "miter", "bevel", "fill", "eoFill", "stroke",
                                    "fillStroke", "eoFillStroke", "left", "center", "right", "justified" };
static const char *const fonts[] = { "DejaVu Sans", "monospace", "DejaVu Serif Bold Italic", "Nope Font", "Sans 12" };
#define CTX_OP(fn, ...) OP(fn) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); return fz_done(fn(e, c, ##__VA_ARGS__)); }
static double unit(void) { return u8() < 224 ? u8() / 255.0 : NUM(); }
static const char *text(void) { return u8() < 160 ? "Hello, caluna" : STR(); }

OP(caluna_context_set_fill_color) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); double r = unit(), g = unit(), b = unit(), a = unit(); return fz_done(caluna_context_set_fill_color(e, c, r, g, b, a)); }
OP(caluna_context_set_stroke_color) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); double r = unit(), g = unit(), b = unit(), a = unit(); return fz_done(caluna_context_set_stroke_color(e, c, r, g, b, a)); }
CTX_OP(caluna_context_set_alpha, unit())
CTX_OP(caluna_context_set_line_width, SMALL())
CTX_OP(caluna_context_set_line_cap, NAME(caps, LEN(caps)))
CTX_OP(caluna_context_set_line_join, NAME(caps, LEN(caps)))
CTX_OP(caluna_context_set_miter_limit, NUM())
OP(caluna_context_set_line_dash) {
    int with_null;
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    double phase = NUM();
    size_t n = COUNT(FZ_DOUBLES_CAP, &with_null);
    return fz_done(caluna_context_set_line_dash(e, c, phase, with_null ? NULL : DOUBLES(n), n));
}
CTX_OP(caluna_context_set_should_antialias, (int8_t)u8())
CTX_OP(caluna_context_save_gstate)
CTX_OP(caluna_context_restore_gstate)
OP(caluna_context_contents_scale) { double s; caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); return fz_done(caluna_context_contents_scale(e, c, OUT(&s))); }
OP(caluna_context_translate) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); double x = NUM(), y = NUM(); return fz_done(caluna_context_translate(e, c, x, y)); }
OP(caluna_context_scale) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); double x = NUM(), y = NUM(); return fz_done(caluna_context_scale(e, c, x, y)); }
CTX_OP(caluna_context_rotate, NUM())
OP(caluna_context_concat) {
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    double m[6] = { NUM(), NUM(), NUM(), NUM(), NUM(), NUM() };
    return fz_done(caluna_context_concat(e, c, m[0], m[1], m[2], m[3], m[4], m[5]));
}
OP(caluna_context_get_ctm) { double m[16]; caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); return fz_done(caluna_context_get_ctm(e, c, OUT(&m[0]))); }
CTX_OP(caluna_context_begin_path)
OP(caluna_context_move_to) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); double x = NUM(), y = NUM(); return fz_done(caluna_context_move_to(e, c, x, y)); }
OP(caluna_context_add_line_to) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); double x = NUM(), y = NUM(); return fz_done(caluna_context_add_line_to(e, c, x, y)); }
OP(caluna_context_add_curve_to) {
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    double p[6] = { NUM(), NUM(), NUM(), NUM(), NUM(), NUM() };
    return fz_done(caluna_context_add_curve_to(e, c, p[0], p[1], p[2], p[3], p[4], p[5]));
}
OP(caluna_context_add_quad_curve_to) {
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    double p[4] = { NUM(), NUM(), NUM(), NUM() };
    return fz_done(caluna_context_add_quad_curve_to(e, c, p[0], p[1], p[2], p[3]));
}
OP(caluna_context_add_arc) {
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    double p[5] = { NUM(), NUM(), SMALL(), NUM(), NUM() };
    return fz_done(caluna_context_add_arc(e, c, p[0], p[1], p[2], p[3], p[4], (int8_t)u8()));
}
/* The rect calls: x, y, width, height. */
#define RECT_OP(fn) OP(fn) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); double r[4] = { NUM(), NUM(), SMALL(), SMALL() }; return fz_done(fn(e, c, r[0], r[1], r[2], r[3])); }
RECT_OP(caluna_context_add_rect)
RECT_OP(caluna_context_add_ellipse_in_rect)
OP(caluna_context_add_rounded_rect) {
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    double r[5] = { NUM(), NUM(), SMALL(), SMALL(), NUM() };
    return fz_done(caluna_context_add_rounded_rect(e, c, r[0], r[1], r[2], r[3], r[4]));
}
OP(caluna_context_add_path) {
    int with_null;
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    size_t n = COUNT(FZ_PATH_CAP, &with_null);
    return fz_done(caluna_context_add_path(e, c, with_null ? NULL : PATH_ELEMENTS(n), n));
}
CTX_OP(caluna_context_close_path)
CTX_OP(caluna_context_fill_path)
CTX_OP(caluna_context_eo_fill_path)
CTX_OP(caluna_context_stroke_path)
CTX_OP(caluna_context_draw_path, NAME(caps, LEN(caps)))
RECT_OP(caluna_context_fill_rect)
RECT_OP(caluna_context_stroke_rect)
RECT_OP(caluna_context_clear_rect)
RECT_OP(caluna_context_fill_ellipse_in_rect)
RECT_OP(caluna_context_stroke_ellipse_in_rect)
CTX_OP(caluna_context_clip)
CTX_OP(caluna_context_eo_clip)
RECT_OP(caluna_context_clip_to_rect)
OP(caluna_context_clip_bounding_box) {
    double b[4];
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    return fz_done(caluna_context_clip_bounding_box(e, c, OUT(&b[0]), OUT(&b[1]), OUT(&b[2]), OUT(&b[3])));
}
/* Colours (4 × count doubles) from the start of the scratch array, locations after them. */
static void gradient_args(const double **colors, const double **locations, size_t *count) {
    int with_null;
    *count = COUNT(1024, &with_null);
    double *d = DOUBLES(with_null ? 0 : 5 * *count);
    *colors = with_null ? NULL : d;
    *locations = with_null || u8() < 128 ? NULL : d + 4 * 1024;
}
OP(caluna_context_draw_linear_gradient) {
    const double *colors, *locations;
    size_t n;
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    gradient_args(&colors, &locations, &n);
    double p[4] = { NUM(), NUM(), NUM(), NUM() };
    return fz_done(caluna_context_draw_linear_gradient(e, c, colors, locations, n, p[0], p[1], p[2], p[3], u8() % 5));
}
OP(caluna_context_draw_radial_gradient) {
    const double *colors, *locations;
    size_t n;
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    gradient_args(&colors, &locations, &n);
    double p[6] = { NUM(), NUM(), SMALL(), NUM(), NUM(), SMALL() };
    return fz_done(caluna_context_draw_radial_gradient(e, c, colors, locations, n, p[0], p[1], p[2], p[3], p[4], p[5], u8() % 5));
}
OP(caluna_context_draw_image) {
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT), i = ID(K_IMAGE);
    double r[4] = { NUM(), NUM(), SMALL(), SMALL() };
    return fz_done(caluna_context_draw_image(e, c, i, r[0], r[1], r[2], r[3]));
}
OP(caluna_context_set_font) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); const char *f = NAME(fonts, LEN(fonts)); return fz_done(caluna_context_set_font(e, c, f, NUM())); }
OP(caluna_context_show_text) { caluna_engine *e = E(); uint64_t c = ID(K_CONTEXT); const char *t = text(); double x = NUM(), y = NUM(); return fz_done(caluna_context_show_text(e, c, t, x, y)); }
OP(caluna_context_draw_text) {
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    const char *t = text();
    double r[4] = { NUM(), NUM(), SMALL(), SMALL() };
    return fz_done(caluna_context_draw_text(e, c, t, r[0], r[1], r[2], r[3], u8() < 64 ? NULL : NAME(caps, LEN(caps))));
}
OP(caluna_context_text_size) {
    double w, h;
    caluna_engine *e = E();
    uint64_t c = ID(K_CONTEXT);
    const char *t = text();
    double width = NUM();
    return fz_done(caluna_context_text_size(e, c, t, width, OUT(&w), OUT(&h)));
}
OP(caluna_layer_render_in_context) { caluna_engine *e = E(); uint64_t l = ID(K_LAYER); return fz_done(caluna_layer_render_in_context(e, l, ID(K_CONTEXT))); }
OP(caluna_layer_snapshot) {
    static const double scales[] = { 1, 2, 0.5, 0, -1, NAN, 64, 65, INFINITY };
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    double scale = scales[u8() % LEN(scales)];
    if (!layer_pixels_ok(e, l, scale)) return CALUNA_OK;   /* a host snapshots what it can afford */
    return fz_done(caluna_layer_snapshot(e, l, scale, OUT(SLOT(K_IMAGE))));
}
OP(caluna_engine_stats) {
    static union { caluna_stats s; uint8_t room[512]; } st;   /* room for an overstated struct_size */
    static const size_t sizes[] = { sizeof(caluna_stats), 0, 4, 8, 16, sizeof(caluna_stats) - 1, 400 };
    memset(&st, 0, sizeof st);
    st.s.struct_size = sizes[u8() % LEN(sizes)];
    caluna_engine *e = E();
    return fz_done(caluna_engine_stats(e, IN(&st.s))   /* partly written on failure: not checked */);
}

const fz_op fz_ops_content[] = {
    ENTRY(caluna_image_load_file), ENTRY(caluna_image_load_data), ENTRY(caluna_image_from_pixels),
    ENTRY(caluna_image_retain), ENTRY(caluna_image_release), ENTRY(caluna_image_size), ENTRY(caluna_image_byte_count),
    ENTRY(caluna_image_read_pixels), ENTRY(caluna_image_write_png), ENTRY(caluna_layer_set_shadow_path),
    ENTRY(caluna_layer_shadow_path), ENTRY(caluna_layer_set_mask), ENTRY(caluna_layer_mask),
    ENTRY(caluna_layer_set_needs_display), ENTRY(caluna_layer_set_needs_display_in_rect),
    ENTRY(caluna_layer_needs_display), ENTRY(caluna_layer_display), ENTRY(caluna_layer_display_if_needed),
    ENTRY(caluna_layer_set_draw_callback), ENTRY(caluna_context_set_fill_color), ENTRY(caluna_context_set_stroke_color),
    ENTRY(caluna_context_set_alpha), ENTRY(caluna_context_set_line_width), ENTRY(caluna_context_set_line_cap),
    ENTRY(caluna_context_set_line_join), ENTRY(caluna_context_set_miter_limit), ENTRY(caluna_context_set_line_dash),
    ENTRY(caluna_context_set_should_antialias), ENTRY(caluna_context_save_gstate), ENTRY(caluna_context_restore_gstate),
    ENTRY(caluna_context_contents_scale), ENTRY(caluna_context_translate), ENTRY(caluna_context_scale),
    ENTRY(caluna_context_rotate), ENTRY(caluna_context_concat), ENTRY(caluna_context_get_ctm),
    ENTRY(caluna_context_begin_path), ENTRY(caluna_context_move_to), ENTRY(caluna_context_add_line_to),
    ENTRY(caluna_context_add_curve_to), ENTRY(caluna_context_add_quad_curve_to), ENTRY(caluna_context_add_arc),
    ENTRY(caluna_context_add_rect), ENTRY(caluna_context_add_ellipse_in_rect), ENTRY(caluna_context_add_rounded_rect),
    ENTRY(caluna_context_add_path), ENTRY(caluna_context_close_path), ENTRY(caluna_context_fill_path),
    ENTRY(caluna_context_eo_fill_path), ENTRY(caluna_context_stroke_path), ENTRY(caluna_context_draw_path),
    ENTRY(caluna_context_fill_rect), ENTRY(caluna_context_stroke_rect), ENTRY(caluna_context_clear_rect),
    ENTRY(caluna_context_fill_ellipse_in_rect), ENTRY(caluna_context_stroke_ellipse_in_rect), ENTRY(caluna_context_clip),
    ENTRY(caluna_context_eo_clip), ENTRY(caluna_context_clip_to_rect), ENTRY(caluna_context_clip_bounding_box),
    ENTRY(caluna_context_draw_linear_gradient), ENTRY(caluna_context_draw_radial_gradient),
    ENTRY(caluna_context_draw_image), ENTRY(caluna_context_set_font), ENTRY(caluna_context_show_text),
    ENTRY(caluna_context_draw_text), ENTRY(caluna_context_text_size), ENTRY(caluna_layer_render_in_context),
    ENTRY(caluna_layer_snapshot), ENTRY(caluna_engine_stats),
};
TABLE(content);

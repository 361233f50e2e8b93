/* Ops: status and version, engine, scripts, time, rendering, layers and the tree,
 * properties, geometry (caluna.h up to "Engine commit"). */
#include "capi_fuzz.h"

/* ---- Status and version ---- */

OP(caluna_status_name) {
    fz_engine_less();
    int32_t code = u8() < 200 ? (int32_t)(u8() % 12) : (int32_t)u32();
    if (!caluna_status_name((caluna_status)code)) fz_fail("caluna_status_name returned NULL");
    return CALUNA_OK;
}
OP(caluna_version) { fz_engine_less(); if (!caluna_version()) fz_fail("caluna_version returned NULL"); return CALUNA_OK; }
OP(caluna_abi_version) {
    fz_engine_less();
    if (caluna_abi_version() != CALUNA_ABI_VERSION) fz_fail("the library's ABI is not the header's");
    return CALUNA_OK;
}
OP(caluna_abi_minor_version) {
    fz_engine_less();
    if (caluna_abi_minor_version() < CALUNA_ABI_MINOR_VERSION) fz_fail("the library's minor ABI is older than the header's");
    return CALUNA_OK;
}

/* ---- Engine ---- */

/* Sizes that keep the output within 128 × 128 pixels, or refused ones. */
static double side(void) { return u8() < 232 ? (double)(1 + u8() % 64) : NUM(); }
static double render_scale(void) {
    static const double scales[] = { 1, 2, 0.5, 1.5, 0, -1, NAN, INFINITY, 16.5, 1e-300 };
    return scales[u8() % LEN(scales)];
}

OP(caluna_engine_create) {
    /* A struct with room past its end, so an overstated struct_size stays honest. */
    static union { caluna_engine_options o; uint8_t room[256]; } opts;
    memset(&opts, 0, sizeof opts);
    static const uint32_t sizes[] = { sizeof(caluna_engine_options), 31, 0, 200 };
    opts.o.struct_size = sizes[u8() % LEN(sizes)];
    opts.o.width = side(); opts.o.height = side(); opts.o.scale = render_scale();
    /* Up to 7 (6 workers while the engine lives: the process check allows 16 more threads). */
    static const int32_t threads[] = { 0, 1, 2, 3, 7, 65, -1, INT32_MIN };
    /* From the width, not a byte of its own: the committed corpus keeps its meaning. */
    double w = opts.o.width;
    opts.o.render_threads = threads[isfinite(w) ? (unsigned)fmod(fabs(w), (double)LEN(threads)) : 0];
    caluna_engine *made = (caluna_engine *)1;
    fz_engine_less();
    caluna_status s = caluna_engine_create(u8() < 32 ? NULL : &opts.o, OUT(&made));
    if (s == CALUNA_OK) fz_engine_created(made);
    else if (made != NULL && made != (caluna_engine *)1) fz_fail("caluna_engine_create failed but gave an engine");
    return fz_done(s);
}
OP(caluna_engine_destroy) {
    caluna_engine *e = E();
    caluna_status s = caluna_engine_destroy(e);
    if (s == CALUNA_OK) fz_engine_destroyed(e);
    return fz_done(s);
}
OP(caluna_engine_set_size) {
    caluna_engine *e = E();
    return fz_done(caluna_engine_set_size(e, side(), side(), render_scale()));
}
OP(caluna_engine_size) {
    double w, h, sc;
    caluna_engine *e = E();
    return fz_done(caluna_engine_size(e, OUT(&w), OUT(&h), OUT(&sc)));
}
OP(caluna_engine_pixel_size) {
    int32_t w, h;
    caluna_engine *e = E();
    return fz_done(caluna_engine_pixel_size(e, OUT(&w), OUT(&h)));
}
OP(caluna_last_error) {
    caluna_engine *e = E();
    const char *m = caluna_last_error(e);
    if (!m) fz_fail("caluna_last_error returned NULL");
    (void)strlen(m);
    return CALUNA_OK;
}

/* ---- Scripts ---- */

/* Snippets that cross between Lua and C; the loops only under a sandbox, which ends them. */
static const char *snippet(caluna_engine *e) {
    static const char *const safe[] = {
        "local ca = require 'caluna'; ca.root:addSublayer(ca.Layer{name = 'lua', frame = {2, 2, 8, 8}, backgroundColor = 'red'})",
        "local ca = require 'caluna'; ca.displayLink(function() ca.root.opacity = 0.5 end)",
        "local ca = require 'caluna'; ca.after(0.01, function() local l = ca.root.sublayers[1]; if l then l:removeFromSuperlayer() end end)",
        "local ca = require 'caluna'; ca.root.delegate = { layoutSublayers = function(l) l.cornerRadius = 2 end }",
        "local ca = require 'caluna'; local l = ca.Layer{frame = {0, 0, 16, 16}}; l.draw = function(_, c) c:fillRect{0, 0, 4, 4} end; ca.root:addSublayer(l); l:setNeedsDisplay()",
        "local ca = require 'caluna'; ca.on('tap', function(ev) ca.root.backgroundColor = 'blue' end)",
        "local ca = require 'caluna'; local a = ca.BasicAnimation{keyPath = 'opacity', fromValue = 0, toValue = 1, duration = 0.1}; a.delegate = { animationDidStop = function() ca.root.hidden = true end }; ca.root:addAnimation(a, 'k')",
        "local ca = require 'caluna'; local w = ca.physics.World{gravity = {0, -10}}; local b = w:addBody{mass = 1, moment = 1}; b:addCircle{radius = 2}",
        "local ca = require 'caluna'; ca.root.actions = { opacity = ca.null }; ca.Transaction.setValue('k', 1)",
        "local ca = require 'caluna'; ca.root:addSublayer(ca.ReplicatorLayer{instanceCount = 3, frame = {0, 0, 8, 8}})",
        "error('from the fuzzer')", "return 1", "syntax error here", "local t = {} for i = 1, 100 do t[i] = i end",
        "local ca = require 'caluna'; ca.step(0.1); ca.render()", "local ca = require 'caluna'; ca.reset()",
        "", "local ca = require 'caluna'; ca.root.name = nil; collectgarbage()",
    };
    static const char *const loops[] = {
        "while true do end", "local ca = require 'caluna'; ca.displayLink(function() while true do end end)",
        "local s = string.rep('x', 1 << 20) while true do s = s .. s end", "local t = {} while true do t[#t + 1] = {} end",
        "local ca = require 'caluna'; ca.every(0.001, function() for i = 1, 1e9 do end end)",
    };
    uint8_t b = u8();
    /* Only the main engine is sandboxed (the extra ones never are): loops only there. */
    if (fz_sandboxed && e == fz_main_engine() && b >= 224) return b < 240 ? loops[b % LEN(loops)] : STR();
    return safe[b % LEN(safe)];
}

OP(caluna_engine_load_file) {
    caluna_engine *e = E();
    return fz_done(caluna_engine_load_file(e, u8() < 128 ? fz_path(2) : PATH_R()));
}
OP(caluna_engine_load_string) {
    caluna_engine *e = E();
    const char *src = u8() < 8 ? NULL : snippet(e);
    return fz_done(caluna_engine_load_string(e, src, u8() < 128 ? NULL : STR()));
}
OP(caluna_engine_set_sandbox) {
    static const uint64_t memory[] = { 64u << 20, 1u << 20, (1u << 20) - 1, 0, UINT64_MAX, 4u << 20 };
    static const int64_t budget[] = { 1000000, 1000, 999, 0, -1, 200000 };   /* never a long budget */
    caluna_engine *e = E();
    caluna_status s = caluna_engine_set_sandbox(e, memory[u8() % LEN(memory)], budget[u8() % LEN(budget)]);
    if (s == CALUNA_OK && e == fz_main_engine()) fz_sandboxed = 1;
    return fz_done(s);
}
OP(caluna_engine_set_sandbox_options) {
    static union { caluna_sandbox_options o; uint8_t room[256]; } sb;
    static const char *dirs[3][3];
    static const uint32_t sizes[] = { sizeof(caluna_sandbox_options), 8, 0, 200 };
    static const uint64_t memory[] = { 64u << 20, 1u << 20, (1u << 20) - 1, 0, 2u << 20 };
    static const int64_t budget[] = { 1000000, 1000, 999, -1, 100000 };       /* never 0: the default is long */
    static const double seconds[] = { 1, 0.05, -1, NAN, 2e6, INFINITY };      /* never 0 either */
    memset(&sb, 0, sizeof sb);
    dirs[0][0] = fz_path(3); dirs[0][1] = NULL;
    dirs[1][0] = "/nonexistent-dir"; dirs[1][1] = NULL;
    dirs[2][0] = u8() < 128 ? "" : "\xff"; dirs[2][1] = NULL;
    sb.o.struct_size = sizes[u8() % LEN(sizes)];
    sb.o.memory_limit = memory[u8() % LEN(memory)];
    sb.o.instruction_limit = budget[u8() % LEN(budget)];
    sb.o.time_limit = seconds[u8() % LEN(seconds)];
    sb.o.output_limit = u8();
    sb.o.read_dirs = u8() < 128 ? NULL : dirs[u8() % 3];
    sb.o.write_dirs = u8() < 128 ? NULL : dirs[u8() % 3];
    caluna_engine *e = E();
    caluna_status s = caluna_engine_set_sandbox_options(e, u8() < 16 ? NULL : &sb.o);
    if (s == CALUNA_OK && e == fz_main_engine()) fz_sandboxed = 1;
    return fz_done(s);
}

/* ---- Time and rendering ---- */

/* Frame lengths; never one that asks the host's frame for unbounded work (a world stepped
 * 1e9 s far is Tests/hostile/pending/time_physics_frame, the engine's cost bounds). */
static double frame_dt(void) {
    static const double dts[] = { 1.0 / 60, 1.0 / 120, 1.0 / 30, 0, 0.25, 1, 2, NAN, -1, INFINITY, -0.0, 1e10, 2e9, -INFINITY };
    return dts[u8() % LEN(dts)];
}
OP(caluna_engine_step) { caluna_engine *e = E(); return fz_done(caluna_engine_step(e, frame_dt())); }
OP(caluna_engine_advance) {
    caluna_engine *e = E();
    double now = 0;
    caluna_engine_media_time(e, &now);
    double t = u8() < 224 ? now + frame_dt() : (u8() < 128 ? now - 1 : -1);
    return fz_done(caluna_engine_advance(e, t));
}
OP(caluna_engine_media_time) { double t; caluna_engine *e = E(); return fz_done(caluna_engine_media_time(e, OUT(&t))); }

OP(caluna_render) {
    static uint8_t buf[128 * 128 * 4 + 64];
    caluna_engine *e = E();
    int32_t w = 0, h = 0;
    caluna_engine_pixel_size(e, &w, &h);
    int32_t stride = w * 4 + (u8() < 200 ? 0 : (int32_t)(u8() % 9) - 4);
    if (u8() >= 224) { w = INT(129); h = INT(129); stride = INT(600); }
    size_t size = u8() < 224 ? sizeof buf : u16();
    return fz_done(caluna_render(e, u8() < 8 ? NULL : buf, size, w, h, stride, FORMAT()));
}
OP(caluna_render_png) {
    caluna_engine *e = E();
    if (!engine_pixels_ok(e)) return CALUNA_OK;   /* a host writes what it can afford */
    return fz_done(caluna_render_png(e, PATH_W()));
}

/* Render targets: a host buffer per pool slot (static, so a target outlives any op), or the
 * engine's own buffer for sizes a host can afford. */
static uint8_t target_bufs[POOL][128 * 128 * 4 + 64];
OP(caluna_render_target_create) {
    caluna_engine *e = E();
    int32_t w = 0, h = 0;
    caluna_engine_pixel_size(e, &w, &h);
    int64_t stride = (int64_t)w * 4 + (u8() < 200 ? 0 : (int32_t)(u8() % 9) - 4);
    if (u8() >= 224) { w = INT(129); h = INT(129); stride = INT(600); }
    if (u8() >= 240) stride = 0;
    uint64_t *slot = SLOT(K_TARGET);
    int host = u8() < 160;
    if (!host && (int64_t)w * h > 128 * 128) return CALUNA_OK;   /* a host asks for what it can afford */
    size_t size = u8() < 224 ? sizeof target_bufs[0] : u16();
    int32_t st = stride > INT32_MAX || stride < INT32_MIN ? INT32_MAX : (int32_t)stride;
    return fz_done(caluna_render_target_create(e, host ? target_bufs[slot - P.targets] : NULL, host ? size : u16(),
                                               w, h, st, FORMAT(), OUT(slot)));
}
OP(caluna_render_target_draw) {
    static caluna_pixel_rect rects[CALUNA_MAX_DAMAGE_RECTS + 2];
    caluna_engine *e = E();
    uint64_t t = ID(K_TARGET);
    int32_t full = u8() < 32 ? INT(3) : 0;
    int with_null = 0;
    size_t n = COUNT(LEN(rects), &with_null);
    int32_t capacity = with_null ? (int32_t)(n & 0x7fffffff) : (int32_t)n;
    if (chance(32)) capacity = -INT(5) - 1;
    int32_t count;
    return fz_done(caluna_render_target_draw(e, t, full, with_null ? NULL : rects, capacity, OUT(&count)));
}
OP(caluna_render_target_pixels) {
    caluna_engine *e = E();
    void *p = NULL;
    int32_t stride = 0;
    caluna_status s = caluna_render_target_pixels(e, ID(K_TARGET), OUT(&p), OUT(&stride));
    if (s == CALUNA_OK && p) { volatile uint8_t first = *(uint8_t *)p; (void)first; }
    return fz_done(s);
}
OP(caluna_render_target_destroy) { caluna_engine *e = E(); return fz_done(caluna_render_target_destroy(e, ID(K_TARGET))); }

/* ---- Layers and the tree ---- */

static int replicators;   /* per input: nested replicators multiply (pending/time_replicator_frame) */
static const char *layer_class(void) {
    static const char *const classes[] = { "CALayer", "CATransformLayer", "CAShapeLayer", "CATextLayer", "CAGradientLayer",
        "CAReplicatorLayer", "CAScrollLayer", "CATiledLayer", "CAEmitterLayer", "PixelBufferLayer", "CAEAGLLayer", "calayer" };
    const char *c = NAME(classes, LEN(classes));
    if (c && strcmp(c, "CAReplicatorLayer") == 0 && ++replicators > 2) return "CALayer";
    return c;
}
void fz_ops_engine_reset(void) { replicators = 0; }

OP(caluna_root_layer) { caluna_engine *e = E(); return fz_done(caluna_root_layer(e, OUT(SLOT(K_LAYER)))); }
OP(caluna_layer_create) { caluna_engine *e = E(); return fz_done(caluna_layer_create(e, OUT(SLOT(K_LAYER)))); }
OP(caluna_layer_create_class) {
    caluna_engine *e = E();
    const char *c = layer_class();
    return fz_done(caluna_layer_create_class(e, c, OUT(SLOT(K_LAYER))));
}
OP(caluna_layer_class_name) {
    const char *name = NULL;
    caluna_engine *e = E();
    caluna_status s = caluna_layer_class_name(e, ID(K_LAYER), OUT(&name));
    READ_STRING(s, &name);
    return fz_done(s);
}
OP(caluna_layer_retain) { caluna_engine *e = E(); return fz_done(caluna_layer_retain(e, ID(K_LAYER))); }
OP(caluna_layer_release) { caluna_engine *e = E(); return fz_done(caluna_layer_release(e, ID(K_LAYER))); }
OP(caluna_layer_add_sublayer) { caluna_engine *e = E(); uint64_t a = ID(K_LAYER); return fz_done(caluna_layer_add_sublayer(e, a, ID(K_LAYER))); }
OP(caluna_layer_insert_sublayer) {
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER), b = ID(K_LAYER);
    return fz_done(caluna_layer_insert_sublayer(e, a, b, INT(4)));
}
OP(caluna_layer_insert_sublayer_above) {
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER), b = ID(K_LAYER), c = ID(K_LAYER);
    return fz_done(caluna_layer_insert_sublayer_above(e, a, b, c));
}
OP(caluna_layer_insert_sublayer_below) {
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER), b = ID(K_LAYER), c = ID(K_LAYER);
    return fz_done(caluna_layer_insert_sublayer_below(e, a, b, c));
}
OP(caluna_layer_replace_sublayer) {
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER), b = ID(K_LAYER), c = ID(K_LAYER);
    return fz_done(caluna_layer_replace_sublayer(e, a, b, c));
}
OP(caluna_layer_remove_from_superlayer) { caluna_engine *e = E(); return fz_done(caluna_layer_remove_from_superlayer(e, ID(K_LAYER))); }
OP(caluna_layer_superlayer) { caluna_engine *e = E(); uint64_t a = ID(K_LAYER); return fz_done(caluna_layer_superlayer(e, a, OUT(SLOT(K_LAYER)))); }
OP(caluna_layer_sublayer_count) { int32_t n; caluna_engine *e = E(); uint64_t a = ID(K_LAYER); return fz_done(caluna_layer_sublayer_count(e, a, OUT(&n))); }
OP(caluna_layer_sublayer_at) {
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER);
    int32_t i = INT(4);
    return fz_done(caluna_layer_sublayer_at(e, a, i, OUT(SLOT(K_LAYER))));
}
OP(caluna_layer_find) {
    static const char *const names[] = { "root", "lua", "file", "x" };
    caluna_engine *e = E();
    const char *n = NAME(names, LEN(names));
    return fz_done(caluna_layer_find(e, n, OUT(SLOT(K_LAYER))));
}

/* ---- Properties ---- */

/* A value for a layer key. Without a sandbox (a trusted host pays its own costs) the keys
 * whose cost grows with the value get values a host would use; under a sandbox they get
 * anything, and the memory cap must hold. */
static caluna_value layer_value(const char *key) {
    caluna_value v = VALUE();
    if (!key) return v;
    if (strcmp(key, "instanceCount") == 0) {
        static const double counts[] = { 0, 1, 2, 3, 4, 10001, -1, NAN, 1e9, 2.5 };
        return caluna_number(counts[u8() % LEN(counts)]);   /* replicators multiply: always small */
    }
    if (fz_sandboxed) return v;
    static const char *const costly[] = { "contentsScale", "rasterizationScale", "pixelWidth", "pixelHeight", "tileSize",
                                          "levelsOfDetailBias", "bounds", "frame", "bounds.size", "emitterSize" };
    for (size_t i = 0; i < LEN(costly); i++) {
        if (strcmp(key, costly[i]) != 0) continue;
        if (v.type == CALUNA_TYPE_NUMBER) v.u.number = fmod(fabs(v.u.number), 8.0);
        if (v.type == CALUNA_TYPE_SIZE) { v.u.size.width = fmod(fabs(v.u.size.width), 64.0); v.u.size.height = fmod(fabs(v.u.size.height), 64.0); }
        if (v.type == CALUNA_TYPE_RECT) { v.u.rect.width = fmod(fabs(v.u.rect.width), 64.0); v.u.rect.height = fmod(fabs(v.u.rect.height), 64.0); }
    }
    return v;
}

OP(caluna_layer_set) {
    caluna_engine *e = E();
    uint64_t l = ID(K_LAYER);
    const char *key = LAYER_KEY();
    caluna_value v = layer_value(key);
    return fz_done(caluna_layer_set(e, l, key, IN(&v)));
}
GET_OP(caluna_layer_get, K_LAYER, LAYER_KEY())

/* ---- Geometry, hit testing, layout ---- */

OP(caluna_layer_convert_point) {
    double x, y;
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER), b = ID(K_LAYER);
    double px = NUM(), py = NUM();
    return fz_done(caluna_layer_convert_point(e, a, b, px, py, OUT(&x), OUT(&y)));
}
OP(caluna_layer_convert_rect) {
    double x, y, w, h;
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER), b = ID(K_LAYER);
    double r[4] = { NUM(), NUM(), NUM(), NUM() };
    return fz_done(caluna_layer_convert_rect(e, a, b, r[0], r[1], r[2], r[3], OUT(&x), OUT(&y), OUT(&w), OUT(&h)));
}
OP(caluna_layer_contains_point) {
    int32_t in;
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER);
    double x = NUM(), y = NUM();
    return fz_done(caluna_layer_contains_point(e, a, x, y, OUT(&in)));
}
OP(caluna_layer_hit_test) {
    caluna_engine *e = E();
    uint64_t a = ID(K_LAYER);
    double x = NUM(), y = NUM();
    return fz_done(caluna_layer_hit_test(e, a, x, y, OUT(SLOT(K_LAYER))));
}
OP(caluna_layer_set_needs_layout) { caluna_engine *e = E(); return fz_done(caluna_layer_set_needs_layout(e, ID(K_LAYER))); }
OP(caluna_layer_layout_if_needed) { caluna_engine *e = E(); return fz_done(caluna_layer_layout_if_needed(e, ID(K_LAYER))); }
OP(caluna_engine_flush) { caluna_engine *e = E(); return fz_done(caluna_engine_flush(e)); }

const fz_op fz_ops_engine[] = {
    ENTRY(caluna_status_name), ENTRY(caluna_version), ENTRY(caluna_abi_version), ENTRY(caluna_abi_minor_version),
    ENTRY(caluna_engine_create), ENTRY(caluna_engine_destroy), ENTRY(caluna_engine_set_size), ENTRY(caluna_engine_size),
    ENTRY(caluna_engine_pixel_size), ENTRY(caluna_last_error), ENTRY(caluna_engine_load_file),
    ENTRY(caluna_engine_load_string), ENTRY(caluna_engine_set_sandbox), ENTRY(caluna_engine_set_sandbox_options),
    ENTRY(caluna_engine_step), ENTRY(caluna_engine_advance), ENTRY(caluna_engine_media_time), ENTRY(caluna_render),
    ENTRY(caluna_render_png), ENTRY(caluna_root_layer), ENTRY(caluna_layer_create), ENTRY(caluna_layer_create_class),
    ENTRY(caluna_layer_class_name), ENTRY(caluna_layer_retain), ENTRY(caluna_layer_release),
    ENTRY(caluna_layer_add_sublayer), ENTRY(caluna_layer_insert_sublayer), ENTRY(caluna_layer_insert_sublayer_above),
    ENTRY(caluna_layer_insert_sublayer_below), ENTRY(caluna_layer_replace_sublayer),
    ENTRY(caluna_layer_remove_from_superlayer), ENTRY(caluna_layer_superlayer), ENTRY(caluna_layer_sublayer_count),
    ENTRY(caluna_layer_sublayer_at), ENTRY(caluna_layer_find), ENTRY(caluna_layer_set), ENTRY(caluna_layer_get),
    ENTRY(caluna_layer_convert_point), ENTRY(caluna_layer_convert_rect), ENTRY(caluna_layer_contains_point),
    ENTRY(caluna_layer_hit_test), ENTRY(caluna_layer_set_needs_layout), ENTRY(caluna_layer_layout_if_needed),
    ENTRY(caluna_engine_flush), ENTRY(caluna_render_target_create), ENTRY(caluna_render_target_draw),
    ENTRY(caluna_render_target_pixels), ENTRY(caluna_render_target_destroy),
};
TABLE(engine);

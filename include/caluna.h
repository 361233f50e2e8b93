/*
 * caluna.h — the C ABI of caluna, Core Animation for C hosts.
 *
 * Link:   cc app.c $(pkg-config --cflags --libs caluna)
 *         (scripts/build-lib builds libcaluna.so and writes .build/pkgconfig/caluna.pc)
 *
 * This header is C99 and C++ safe. Every symbol is prefixed `caluna_` / `CALUNA_`.
 *
 * ------------------------------------------------------------------------------------------
 * Conventions (they hold for every function below unless its comment says otherwise)
 * ------------------------------------------------------------------------------------------
 *
 * Status.    Every function returns a caluna_status (except caluna_version,
 *            caluna_abi_version, caluna_status_name and caluna_last_error). CALUNA_OK is 0;
 *            on any other status a message is available from caluna_last_error(engine).
 *            No function aborts or crashes on bad input: NULL pointers, NaN, infinities,
 *            negative, zero or absurd sizes, wrong value types, unknown keys, dead or foreign
 *            ids all return a status. (Passing a pointer to memory you do not own — other
 *            than a NULL or destroyed engine, which are detected — is still undefined, as
 *            in any C library.)
 *
 * Outputs.   Results are written through `out` pointers, which must not be NULL
 *            (CALUNA_ERR_INVALID_ARGUMENT). When a call fails, its outputs are set to a
 *            neutral value (0, 0.0, CALUNA_TYPE_NIL) whenever the pointer is non-NULL.
 *
 * Units.     Geometry is in points (y down, origin top-left, as Core Animation);
 *            time in seconds of the engine's virtual media clock; bitmaps in pixels
 *            (pixels = points × scale, rounded up). Colours are sRGB components 0…1 with
 *            straight (non-premultiplied) alpha.
 *
 * Ownership. The engine is yours: create it, destroy it once. Layers are 64-bit ids
 *            (caluna_layer) with an engine tag and a generation: an id of a layer that died
 *            or that belongs to another engine is CALUNA_ERR_STALE_HANDLE, never a crash.
 *              - caluna_layer_create returns an OWNED reference: the layer lives at least
 *                until you call caluna_layer_release on it (once per create/retain).
 *              - Ids returned by queries (root, superlayer, sublayer_at, hit_test, find) are
 *                BORROWED: they stay valid while the layer lives. Call caluna_layer_retain
 *                to keep one alive yourself.
 *              - A layer lives while something holds it: an owned reference (yours, or a
 *                Lua variable), or a superlayer that itself lives (the engine holds the
 *                root, so the whole tree under it lives). When nothing holds a layer any
 *                more it dies, with its sublayers that nothing else holds, and its id
 *                becomes stale.
 *              - Strings caluna returns (caluna_last_error, string values of caluna_layer_get)
 *                belong to the engine; they stay valid until the next call on that engine.
 *                Strings you pass in are copied; you keep ownership.
 *
 * Threading. One engine is used by one thread at a time; separate engines may be used on
 *            separate threads concurrently. A call on an engine that another thread is
 *            using right now is refused with CALUNA_ERR_INVALID_ARGUMENT (its message is
 *            at caluna_last_error(NULL) on the refused thread) — do not rely on this
 *            detection, it is a safety net, not a lock. caluna_version, caluna_abi_version
 *            and caluna_status_name may be called from any thread at any time.
 *
 * Errors without an engine. When a call fails before it has a usable engine (NULL or
 *            destroyed engine pointer, caluna_engine_create failing, an engine busy on
 *            another thread) its message is stored per thread and returned by
 *            caluna_last_error(NULL).
 */
#ifndef CALUNA_H
#define CALUNA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of the ABI this header describes. Compare with caluna_abi_version(). */
#define CALUNA_ABI_VERSION 1

/* A cast that strict C++ warnings (-Wold-style-cast) accept; used by the inline helpers. */
#ifdef __cplusplus
#define CALUNA_CAST_(type, value) static_cast<type>(value)
#else
#define CALUNA_CAST_(type, value) ((type)(value))
#endif

/* ---------------------------------------------------------------------------------------- */
/* Status codes                                                                             */
/* ---------------------------------------------------------------------------------------- */

/** The result of every call. The numbers are stable (they are CalunaError.Code raw values). */
typedef enum caluna_status {
    /** Success. */
    CALUNA_OK = 0,
    /** A value out of range, NaN or infinite, a NULL pointer, a bad size, stride or buffer,
     *  an index out of range, a release without a reference, a NULL engine, an engine in
     *  use by another thread. */
    CALUNA_ERR_INVALID_ARGUMENT = 1,
    /** No such property or key path (also: caluna_layer_find found no layer by that name). */
    CALUNA_ERR_UNKNOWN_KEY = 2,
    /** A value of the wrong type for the key (e.g. a STRING for "opacity"). */
    CALUNA_ERR_TYPE_MISMATCH = 3,
    /** A real Core Animation feature caluna does not do yet (e.g. "cornerRadius" today),
     *  a value type reserved for a later version (IMAGE, PATH). */
    CALUNA_ERR_NOT_SUPPORTED = 4,
    /** A layer id that is 0, dead, or belongs to another engine; an engine pointer that was
     *  destroyed (or never was an engine). */
    CALUNA_ERR_STALE_HANDLE = 5,
    /** An illegal tree operation: a cycle, the root as a sublayer, a sibling that is not a
     *  sublayer, two layers of different trees in a conversion. */
    CALUNA_ERR_TREE = 6,
    /** A Lua script raised an error (the message has "chunk:line: message"). */
    CALUNA_ERR_SCRIPT = 7,
    /** A file could not be read or written. */
    CALUNA_ERR_IO = 8,
    /** An allocation was refused. */
    CALUNA_ERR_OUT_OF_MEMORY = 9
} caluna_status;

/** "CALUNA_OK", "CALUNA_ERR_STALE_HANDLE", …; "CALUNA_ERR_UNKNOWN_STATUS" for any other
 *  number. A static string; any thread. */
const char *caluna_status_name(caluna_status status);

/* ---------------------------------------------------------------------------------------- */
/* Version                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** The library version, e.g. "0.1.0". A static string; any thread. */
const char *caluna_version(void);

/** The ABI version of the library that is loaded (CALUNA_ABI_VERSION when the header and the
 *  library match). Any thread. */
int caluna_abi_version(void);

/* ---------------------------------------------------------------------------------------- */
/* Engine                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** One scene: a root layer sized to the output, a render scale, a virtual clock. Opaque. */
typedef struct caluna_engine caluna_engine;

/** A layer id: engine tag, generation and slot. 0 means "no layer". */
typedef uint64_t caluna_layer;

/** Options for caluna_engine_create. Start from caluna_engine_options_default(). */
typedef struct caluna_engine_options {
    /** sizeof(caluna_engine_options) as the caller compiled it (for ABI evolution). Must be
     *  at least the size of this version-1 struct (32 bytes on LP64). Fields that a newer
     *  header adds beyond what the loaded library knows are ignored. */
    uint32_t struct_size;
    /** Output width and height in points (default 320 × 480). Positive and finite. */
    double width, height;
    /** Pixels per point, in (0, 16] (default 1). The output must stay within 16384 pixels
     *  per side and 2^27 pixels in all. */
    double scale;
} caluna_engine_options;

/** The defaults: struct_size set, 320 × 480 points, scale 1. */
static inline caluna_engine_options caluna_engine_options_default(void) {
    caluna_engine_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = CALUNA_CAST_(uint32_t, sizeof o);
    o.width = 320;
    o.height = 480;
    o.scale = 1;
    return o;
}

/** Creates an engine. `opts` may be NULL (the defaults). On success *out is a new engine
 *  that you destroy with caluna_engine_destroy; on failure *out is NULL and the message is
 *  at caluna_last_error(NULL).
 *  Status: OK; INVALID_ARGUMENT (out NULL, struct_size too small, size or scale not
 *  positive and finite, scale > 16, output too large); OUT_OF_MEMORY. */
caluna_status caluna_engine_create(const caluna_engine_options *opts, caluna_engine **out);

/** Destroys an engine: its layers die (ids become stale), its script state closes, the
 *  strings it returned are freed. The pointer must not be used afterwards (a destroyed
 *  pointer that is passed again is detected: STALE_HANDLE — unless a new engine happens to
 *  reuse the same address, which is undefined).
 *  Status: OK; INVALID_ARGUMENT (NULL; engine in use by another thread); STALE_HANDLE
 *  (already destroyed, or not an engine). */
caluna_status caluna_engine_destroy(caluna_engine *e);

/** Resizes the output: `width` × `height` points at `scale` pixels per point (same rules as
 *  caluna_engine_options). The root layer's frame follows (0, 0, width, height). On failure
 *  nothing changes. Status: OK; INVALID_ARGUMENT; STALE_HANDLE (engine). */
caluna_status caluna_engine_set_size(caluna_engine *e, double width, double height, double scale);

/** The output size in points and the scale. Any of the three pointers may be NULL (not
 *  wanted); all NULL is INVALID_ARGUMENT. Status: OK; INVALID_ARGUMENT; STALE_HANDLE. */
caluna_status caluna_engine_size(caluna_engine *e, double *width, double *height, double *scale);

/** The output size in pixels (points × scale, rounded up): what caluna_render expects.
 *  Status: OK; INVALID_ARGUMENT (NULL pointer); STALE_HANDLE. */
caluna_status caluna_engine_pixel_size(caluna_engine *e, int32_t *width, int32_t *height);

/** The message of the last failed call on `e`, or "" when none has failed. Owned by the
 *  engine, valid until the next call on it. A successful call does not clear it.
 *  For NULL, or a pointer that is not a live engine: the message of the last call on the
 *  calling thread that failed without a usable engine (or a static explanatory text if
 *  there was none). Never returns NULL. */
const char *caluna_last_error(const caluna_engine *e);

/* ---------------------------------------------------------------------------------------- */
/* Scripts                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** Runs a Lua 5.4 script file in the engine's Lua state (created on first use, kept until
 *  the engine is destroyed; `require "caluna"` gives the module bound to this engine).
 *  Status: OK; INVALID_ARGUMENT (path NULL or not UTF-8); IO_ERROR (missing or unreadable
 *  file, a directory); SCRIPT (a syntax error, or the script raised an error: the message is
 *  "chunk:line: message"); OUT_OF_MEMORY; STALE_HANDLE. After a script error the engine
 *  stays usable; what the script did before the error stays done. */
caluna_status caluna_engine_load_file(caluna_engine *e, const char *path);

/** Runs Lua source text. `chunk_name` names it in error messages (NULL: "string").
 *  Status: as caluna_engine_load_file (INVALID_ARGUMENT for a NULL or non-UTF-8 source). */
caluna_status caluna_engine_load_string(caluna_engine *e, const char *source, const char *chunk_name);

/** Runs this engine's scripts in the untrusted-script sandbox: no io, os, debug or
 *  package library; no dofile/loadfile, binary chunks or C modules (`require` knows only
 *  "caluna"); the Lua state may hold at most `memory_limit` bytes (≥ 1 MiB) and run at
 *  most `instruction_limit` VM instructions in all (≥ 1000; every later callback
 *  included). A script that exceeds a limit fails with CALUNA_ERR_SCRIPT ("not enough
 *  memory" / "instruction budget exhausted"); the host and the engine carry on.
 *  Call it before the first caluna_engine_load_*.
 *  Status: OK; INVALID_ARGUMENT (limits too small, or a script was already loaded);
 *  STALE_HANDLE. */
caluna_status caluna_engine_set_sandbox(caluna_engine *e, uint64_t memory_limit,
                                        int64_t instruction_limit);

/* ---------------------------------------------------------------------------------------- */
/* Time                                                                                     */
/* ---------------------------------------------------------------------------------------- */

/** Advances the virtual clock by `dt` seconds (≥ 0, finite, ≤ 1e9 in all) and runs the
 *  frame's work (timers, layout …). The clock never moves by itself.
 *  Status: OK; INVALID_ARGUMENT (NaN, ∞, negative, beyond the clock's range); SCRIPT (a
 *  callback raised); STALE_HANDLE. */
caluna_status caluna_engine_step(caluna_engine *e, double dt);

/** Advances the clock to the absolute media time `t` seconds (never backwards) and runs the
 *  frame's work. Status: as caluna_engine_step (INVALID_ARGUMENT when t < now). */
caluna_status caluna_engine_advance(caluna_engine *e, double t);

/** The engine's current media time in seconds (CACurrentMediaTime; starts at 0).
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_engine_media_time(caluna_engine *e, double *out);

/* ---------------------------------------------------------------------------------------- */
/* Rendering                                                                                */
/* ---------------------------------------------------------------------------------------- */

/** Byte layouts for caluna_render: 4 bytes per pixel, in the order named, sRGB. */
typedef enum caluna_pixel_format {
    CALUNA_RGBA8_PREMULTIPLIED = 0,
    CALUNA_BGRA8_PREMULTIPLIED = 1,
    CALUNA_RGBA8_STRAIGHT = 2,
    CALUNA_BGRA8_STRAIGHT = 3
} caluna_pixel_format;

/** Lays out what needs it and draws the layer tree into the caller-owned `buffer`.
 *  `width` × `height` must equal caluna_engine_pixel_size; `stride` (bytes per row) must be
 *  at least width × 4; `buffer_size` (bytes) at least stride × height. Rows are written top
 *  to bottom; padding bytes at the end of a row are not touched. Areas no layer covers are
 *  transparent (0, 0, 0, 0). Identical inputs give identical bytes.
 *  Status: OK; INVALID_ARGUMENT (NULL buffer, wrong width/height, stride or buffer too
 *  small, overflow, unknown format); NOT_SUPPORTED (a feature the renderer lacks, e.g. a
 *  perspective transform today); OUT_OF_MEMORY; STALE_HANDLE. */
caluna_status caluna_render(caluna_engine *e, void *buffer, size_t buffer_size,
                            int32_t width, int32_t height, int32_t stride,
                            caluna_pixel_format format);

/** Renders as caluna_render and writes a PNG file (8-bit RGBA, straight alpha) at the
 *  engine's pixel size. Status: OK; INVALID_ARGUMENT (path NULL or not UTF-8); IO_ERROR
 *  (cannot write); NOT_SUPPORTED; OUT_OF_MEMORY; STALE_HANDLE. */
caluna_status caluna_render_png(caluna_engine *e, const char *path);

/* ---------------------------------------------------------------------------------------- */
/* Layers and the tree                                                                      */
/* ---------------------------------------------------------------------------------------- */

/** The root layer (borrowed id; it lives as long as the engine). Its frame is the output
 *  rect and it is named "root". Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_root_layer(caluna_engine *e, caluna_layer *out);

/** A new layer with Core Animation's defaults (bounds (0,0,0,0), position (0,0), anchor
 *  (0.5,0.5), opacity 1, no background), in no tree. The id is an OWNED reference: release
 *  it with caluna_layer_release (adding it to a tree first keeps it alive after that).
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE (engine). */
caluna_status caluna_layer_create(caluna_engine *e, caluna_layer *out);

/** One more owned reference to a live layer. Status: OK; STALE_HANDLE (id 0, dead, foreign,
 *  or engine); INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_layer_retain(caluna_engine *e, caluna_layer layer);

/** Drops one owned reference (from create or retain). A layer with no owned reference left
 *  and not in a tree dies; its id becomes stale. Status: OK; INVALID_ARGUMENT (no owned
 *  reference left to release); STALE_HANDLE. */
caluna_status caluna_layer_release(caluna_engine *e, caluna_layer layer);

/** The deepest a layer tree may nest (the root is level 1). Insertions that would go deeper
 *  fail with CALUNA_ERR_TREE: drawing, hit testing and freeing a tree recurse once per
 *  level. A tree at the limit needs about 2 MB of stack in the calling thread (glibc's
 *  default thread stack is 8 MB); give threads that run caluna at least that. */
#define CALUNA_MAX_TREE_DEPTH 1024

/** Appends `child` to `parent`'s sublayers (on top), removing it from its old superlayer.
 *  Status: OK; STALE_HANDLE (either id); TREE (child is parent or one of its ancestors,
 *  child is the root, the tree would nest deeper than CALUNA_MAX_TREE_DEPTH);
 *  INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_layer_add_sublayer(caluna_engine *e, caluna_layer parent, caluna_layer child);

/** Inserts `child` at `index` (0 = back, count = front), counted after removing it from
 *  its old place. Status: as add_sublayer; INVALID_ARGUMENT (index out of 0…count). */
caluna_status caluna_layer_insert_sublayer(caluna_engine *e, caluna_layer parent, caluna_layer child,
                                           int32_t index);

/** Inserts `child` just above `sibling` (a sublayer of `parent`); sibling 0 = at the front
 *  (as Core Animation's nil). Status: as add_sublayer; TREE (sibling not a sublayer). */
caluna_status caluna_layer_insert_sublayer_above(caluna_engine *e, caluna_layer parent, caluna_layer child,
                                                 caluna_layer sibling);

/** Inserts `child` just below `sibling`; sibling 0 = at the back. Status: as _above. */
caluna_status caluna_layer_insert_sublayer_below(caluna_engine *e, caluna_layer parent, caluna_layer child,
                                                 caluna_layer sibling);

/** Replaces `old_layer` (a sublayer of `parent`) by `new_layer` at the same index;
 *  `old_layer` leaves the tree (and dies unless owned). Status: as add_sublayer; TREE
 *  (old_layer not a sublayer of parent). */
caluna_status caluna_layer_replace_sublayer(caluna_engine *e, caluna_layer parent, caluna_layer old_layer,
                                            caluna_layer new_layer);

/** Removes the layer from its superlayer (nothing when it has none). It dies unless owned,
 *  and its id becomes stale. Status: OK; STALE_HANDLE; INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_layer_remove_from_superlayer(caluna_engine *e, caluna_layer layer);

/** The superlayer (borrowed), or 0 when the layer has none (status OK).
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_layer_superlayer(caluna_engine *e, caluna_layer layer, caluna_layer *out);

/** The number of sublayers. Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_layer_sublayer_count(caluna_engine *e, caluna_layer layer, int32_t *out);

/** The sublayer at `index` (0 = back, drawn first; array order, not zPosition order),
 *  borrowed. Status: OK; INVALID_ARGUMENT (out NULL, index out of range); STALE_HANDLE. */
caluna_status caluna_layer_sublayer_at(caluna_engine *e, caluna_layer layer, int32_t index,
                                       caluna_layer *out);

/** The first layer whose `name` property equals `name`, searched depth-first (pre-order,
 *  sublayers in array order) from the root, the root included. Borrowed.
 *  Status: OK; UNKNOWN_KEY (no layer has that name; *out = 0); INVALID_ARGUMENT (name or
 *  out NULL, name not UTF-8); STALE_HANDLE (engine). */
caluna_status caluna_layer_find(caluna_engine *e, const char *name, caluna_layer *out);

/* ---------------------------------------------------------------------------------------- */
/* Properties by key path                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** The type tag of a caluna_value. */
typedef enum caluna_value_type {
    CALUNA_TYPE_NIL = 0,       /* no value (a nullable property: backgroundColor, name) */
    CALUNA_TYPE_NUMBER = 1,    /* u.number */
    CALUNA_TYPE_BOOL = 2,      /* u.boolean: 0 false, anything else true (get gives 0/1) */
    CALUNA_TYPE_STRING = 3,    /* u.string: NUL-terminated UTF-8 */
    CALUNA_TYPE_POINT = 4,     /* u.point, points */
    CALUNA_TYPE_SIZE = 5,      /* u.size, points */
    CALUNA_TYPE_RECT = 6,      /* u.rect, points */
    CALUNA_TYPE_COLOR = 7,     /* u.color: sRGB 0…1, straight alpha */
    CALUNA_TYPE_TRANSFORM = 8, /* u.transform: CATransform3D m11 m12 … m44 in row order */
    CALUNA_TYPE_IMAGE = 9,     /* reserved for a later ABI: NOT_SUPPORTED today */
    CALUNA_TYPE_PATH = 10      /* reserved for a later ABI: NOT_SUPPORTED today */
} caluna_value_type;

/** A tagged value. Only the union member named by `type` is meaningful. */
typedef struct caluna_value {
    caluna_value_type type;
    union {
        double number;
        int32_t boolean;
        struct { double x, y; } point;
        struct { double width, height; } size;
        struct { double x, y, width, height; } rect;
        struct { double r, g, b, a; } color;
        double transform[16];
        const char *string;
    } u;
} caluna_value;

/* The library reads caluna_value with this exact layout (LP64 and LLP64 with 8-byte doubles). */
typedef char caluna_value_layout_check_[(sizeof(caluna_value) == 136 && offsetof(caluna_value, u) == 8) ? 1 : -1];
typedef char caluna_engine_options_layout_check_[(sizeof(caluna_engine_options) == 32) ? 1 : -1];

static inline caluna_value caluna_nil(void) {
    caluna_value v;
    memset(&v, 0, sizeof v);
    v.type = CALUNA_TYPE_NIL;
    return v;
}
static inline caluna_value caluna_number(double n) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_NUMBER;
    v.u.number = n;
    return v;
}
static inline caluna_value caluna_bool(int b) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_BOOL;
    v.u.boolean = b ? 1 : 0;
    return v;
}
/** The string is borrowed by the value (caluna_layer_set copies it). */
static inline caluna_value caluna_string(const char *s) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_STRING;
    v.u.string = s;
    return v;
}
static inline caluna_value caluna_point(double x, double y) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_POINT;
    v.u.point.x = x;
    v.u.point.y = y;
    return v;
}
static inline caluna_value caluna_size(double width, double height) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_SIZE;
    v.u.size.width = width;
    v.u.size.height = height;
    return v;
}
static inline caluna_value caluna_rect(double x, double y, double width, double height) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_RECT;
    v.u.rect.x = x;
    v.u.rect.y = y;
    v.u.rect.width = width;
    v.u.rect.height = height;
    return v;
}
static inline caluna_value caluna_color(double r, double g, double b, double a) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_COLOR;
    v.u.color.r = r;
    v.u.color.g = g;
    v.u.color.b = b;
    v.u.color.a = a;
    return v;
}
/** From 0xRRGGBB and an alpha 0…1. */
static inline caluna_value caluna_color_rgb(uint32_t rgb, double a) {
    return caluna_color(CALUNA_CAST_(double, (rgb >> 16) & 255u) / 255.0,
                        CALUNA_CAST_(double, (rgb >> 8) & 255u) / 255.0,
                        CALUNA_CAST_(double, rgb & 255u) / 255.0, a);
}
/** From 16 entries m11 m12 m13 m14 m21 … m44 (row order, CATransform3D's field order). */
static inline caluna_value caluna_transform(const double m[16]) {
    caluna_value v = caluna_nil();
    int i;
    v.type = CALUNA_TYPE_TRANSFORM;
    for (i = 0; i < 16; i++) v.u.transform[i] = m[i];
    return v;
}
static inline caluna_value caluna_transform_identity(void) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_TRANSFORM;
    v.u.transform[0] = v.u.transform[5] = v.u.transform[10] = v.u.transform[15] = 1;
    return v;
}

/** Sets a property by Core Animation key path: a key ("position", "backgroundColor",
 *  "frame", "transform", "name" …) or a component of one ("position.x", "bounds.size",
 *  "bounds.size.width", "frame.origin.y"). Components take NUMBER (x, y, width, height),
 *  POINT (origin) or SIZE (size). Nullable properties (backgroundColor, name) take NIL.
 *  Key names and the value rules come from the engine's property table (the same one Lua
 *  uses). Colours take COLOR only (convert names and "#rrggbb" yourself).
 *  Status: OK; INVALID_ARGUMENT (key_path or value NULL, NaN or ∞ anywhere in the value, a
 *  NULL or non-UTF-8 string, an unknown type tag, a value out of the property's range such
 *  as a negative bounds size or a coordinate beyond ±1e8); UNKNOWN_KEY (no such key or
 *  component); TYPE_MISMATCH (value of the wrong type); NOT_SUPPORTED (a Core Animation key
 *  caluna does not do yet, e.g. "cornerRadius"; IMAGE/PATH values); STALE_HANDLE. */
caluna_status caluna_layer_set(caluna_engine *e, caluna_layer layer, const char *key_path,
                               const caluna_value *value);

/** Reads a property by key path (same keys as caluna_layer_set) into *out. A STRING result
 *  points into an engine-owned buffer valid until the next call on the engine. A nullable
 *  property that is unset gives NIL. On failure *out is NIL.
 *  Status: OK; INVALID_ARGUMENT (key_path or out NULL); UNKNOWN_KEY; NOT_SUPPORTED (the key
 *  is not supported yet, or the value is of a type this ABI cannot return yet: IMAGE, PATH);
 *  STALE_HANDLE. */
caluna_status caluna_layer_get(caluna_engine *e, caluna_layer layer, const char *key_path,
                               caluna_value *out);

/* ---------------------------------------------------------------------------------------- */
/* Geometry, hit testing, layout                                                            */
/* ---------------------------------------------------------------------------------------- */

/** Converts a point from `from`'s coordinate space to `to`'s (convertPoint:fromLayer: /
 *  toLayer:). 0 for either means the canvas: the space the root of the layer's tree is
 *  placed in (for the engine's tree, output points). Both layers must be in the same tree.
 *  Status: OK; INVALID_ARGUMENT (NaN/∞, NULL out, the point has no image because a
 *  transform is singular); TREE (different trees); STALE_HANDLE. */
caluna_status caluna_layer_convert_point(caluna_engine *e, caluna_layer from, caluna_layer to,
                                         double x, double y, double *out_x, double *out_y);

/** Converts a rect like caluna_layer_convert_point; the result is the bounding box of the
 *  four converted corners (convertRect:fromLayer:). Status: as convert_point. */
caluna_status caluna_layer_convert_rect(caluna_engine *e, caluna_layer from, caluna_layer to,
                                        double x, double y, double width, double height,
                                        double *out_x, double *out_y, double *out_width, double *out_height);

/** containsPoint: — (x, y) in the layer's OWN coordinates, tested against its bounds
 *  (half-open: minX ≤ x < maxX). *out is 1 or 0.
 *  Status: OK; INVALID_ARGUMENT (NaN/∞, out NULL); STALE_HANDLE. */
caluna_status caluna_layer_contains_point(caluna_engine *e, caluna_layer layer, double x, double y,
                                          int32_t *out);

/** hitTest: — (x, y) in the coordinates of the layer's SUPERLAYER (for the root: canvas
 *  points). *out is the deepest visible layer containing the point (the last sublayer is
 *  tested first; zPosition does not matter), borrowed, or 0 when the point is outside the
 *  layer (status OK). Status: OK; INVALID_ARGUMENT (NaN/∞, out NULL); STALE_HANDLE. */
caluna_status caluna_layer_hit_test(caluna_engine *e, caluna_layer layer, double x, double y,
                                    caluna_layer *out);

/** Marks the layer as needing layout (setNeedsLayout); the next step or render lays it out.
 *  Status: OK; STALE_HANDLE; INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_layer_set_needs_layout(caluna_engine *e, caluna_layer layer);

/** Lays out the layer and its marked descendants now (layoutIfNeeded).
 *  Status: OK; SCRIPT (a layout callback raised); STALE_HANDLE; INVALID_ARGUMENT. */
caluna_status caluna_layer_layout_if_needed(caluna_engine *e, caluna_layer layer);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CALUNA_H */

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
 *            caluna_abi_version, caluna_abi_minor_version, caluna_status_name and
 *            caluna_last_error). CALUNA_OK is 0;
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
 *              - Animations, display links, timers, images (ABI 1.3), drawing contexts
 *                (ABI 1.3) and physics worlds, bodies, shapes, constraints and arbiters
 *                (ABI 1.4) are ids of the same shape; their ownership is described with
 *                their functions below.
 *              - A `user` pointer you give with a caluna_release_callback (actions, action
 *                delegates, transaction completions, draw callbacks) is the engine's to hold
 *                until it lets go; then it calls release(user) exactly once (see "Layer
 *                actions").
 *              - Strings caluna returns (caluna_last_error, string values of caluna_layer_get)
 *                and the elements of PATH values it returns belong to the engine; they stay
 *                valid until the next call on that engine.
 *                Strings you pass in are copied; you keep ownership.
 *
 * Threading. One engine is used by one thread at a time; separate engines may be used on
 *            separate threads concurrently. A call on an engine that another thread is
 *            using right now is refused with CALUNA_ERR_INVALID_ARGUMENT (its message is
 *            at caluna_last_error(NULL) on the refused thread) — do not rely on this
 *            detection, it is a safety net, not a lock. caluna_version, caluna_abi_version
 *            and caluna_status_name may be called from any thread at any time.
 *            Callbacks (animation delegates, display links, timers, transaction
 *            completions, actions, action delegates, release callbacks, collision handlers,
 *            body update callbacks) run on the thread that is inside the caluna call that
 *            runs them (caluna_engine_step/advance for most; the property or tree change for
 *            actions; caluna_world_step too for physics) and may call back into that
 *            engine from that thread, except for the calls that run a frame, draw, run
 *            scripts or destroy the engine (see "Display links and timers").
 *
 * Stack. A thread that calls caluna needs a native stack of at least 256 KiB. Work that
 *            recurses with its input (drawing and laying out deep trees, callbacks that call
 *            back into the engine, Lua callbacks) checks the thread's remaining stack before
 *            each level and fails with CALUNA_ERR_OUT_OF_MEMORY ("native stack is nearly
 *            exhausted") when less than 64 KiB would be left, instead of overflowing.
 *
 * Errors without an engine. When a call fails before it has a usable engine (NULL or
 *            destroyed engine pointer, caluna_engine_create failing, an engine busy on
 *            another thread) or needs none (caluna_timing_function_*, caluna_easing*,
 *            caluna_collision_type_named, caluna_transform3d_*, caluna_affine_*), its
 *            message is stored per thread and returned by caluna_last_error(NULL).
 */
#ifndef CALUNA_H
#define CALUNA_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of the ABI this header describes. Compare with caluna_abi_version(). The
 *  major number changes only when something existing changes incompatibly. */
#define CALUNA_ABI_VERSION 1

/** The minor ABI version: it grows when functions are added (compatible additions).
 *  Compare with caluna_abi_minor_version(): a host built against minor n needs a library
 *  with the same major version and a minor version ≥ n.
 *    1.0  engine, scripts, time, rendering, layers, properties, geometry.
 *    1.1  animations (caluna_animation_*, caluna_group_*, caluna_layer_add_animation …),
 *         presentation values, layer time conversion, caluna_engine_flush, display links
 *         and timers, timing functions and easing; callbacks may call back into the
 *         engine (see "Display links and timers").
 *    1.2  transactions (caluna_transaction_*), layer actions (caluna_layer_set_action,
 *         the style chain, action delegates, caluna_layer_action_for_key,
 *         caluna_default_action_for_key), the "Transition" animation class.
 *    1.3  images (caluna_image_*), IMAGE and PATH values, contents and visual effects
 *         (contents*, cornerRadius, border*, shadow*, shouldRasterize … by key path;
 *         caluna_layer_set_shadow_path, caluna_layer_set_mask), display and draw callbacks
 *         (caluna_layer_display …, caluna_layer_set_draw_callback), drawing contexts
 *         (caluna_context_*), caluna_layer_render_in_context, caluna_layer_snapshot,
 *         caluna_engine_stats.
 *    1.4  physics: worlds, bodies, shapes, constraints, collision handlers and arbiters,
 *         queries, update callbacks, layers bound to bodies (caluna_world_*, caluna_body_*,
 *         caluna_shape_*, caluna_constraint_*, caluna_arbiter_*, caluna_collision_type_named).
 *    1.5  transforms: CATransform3D and CGAffineTransform math (caluna_transform3d_*,
 *         caluna_affine_*), layer classes (caluna_layer_create_class, CATransformLayer), the
 *         sublayerTransform and doubleSided properties, perspective rendering.
 *    1.6  input: pointer, key, tilt, resize and custom events (caluna_send_*), scripted
 *         input (caluna_send_json, caluna_load_events), handlers on the engine and on
 *         layers (caluna_on, caluna_layer_on, caluna_off) with hit testing, bubbling,
 *         pointer capture and the tap and pan gestures.
 *    1.7  specialised layers (see "Specialised layers").
 *    1.8  the sandbox holds: caluna_sandbox_options and caluna_engine_set_sandbox_options
 *         (time and output limits, granted directories), CALUNA_ERR_LIMIT; the memory cap
 *         covers engine memory; path-taking calls refuse paths a sandbox does not grant.
 *    1.9  render targets: retained frames redrawn where damaged (caluna_render_target_*);
 *         caluna_stats damaged_pixels, damage_rects, full_redraws, effect_cache_hits and
 *         _misses.
 *    1.10 threads: caluna_engine_options.render_threads; caluna_stats render_threads and
 *         bands_drawn. */
#define CALUNA_ABI_MINOR_VERSION 10

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
    /** A real Core Animation feature caluna does not do yet (e.g. "filters"), a value this
     *  ABI cannot return (an array). */
    CALUNA_ERR_NOT_SUPPORTED = 4,
    /** An id (layer, animation, display link, timer, image, drawing context, physics world,
     *  body, shape, constraint, arbiter) that is 0, dead, belongs to another engine, or names
     *  another kind of object (a layer id given as an animation); a drawing context or an
     *  arbiter used outside its callback; a destroyed world or its static body; an engine
     *  pointer that was destroyed (or never was an engine). */
    CALUNA_ERR_STALE_HANDLE = 5,
    /** An illegal tree operation: a cycle, the root as a sublayer, a sibling that is not a
     *  sublayer, two layers of different trees in a conversion. */
    CALUNA_ERR_TREE = 6,
    /** A Lua script raised an error (the message has "chunk:line: message"); or a host
     *  callback (an action, an action delegate) returned a nonzero value that is not a
     *  caluna_status. */
    CALUNA_ERR_SCRIPT = 7,
    /** A file could not be read or written. */
    CALUNA_ERR_IO = 8,
    /** An allocation was refused (also: an engine object over a sandbox's memory cap). */
    CALUNA_ERR_OUT_OF_MEMORY = 9,
    /** A sandboxed script spent its instruction budget or its time limit (since ABI 1.8).
     *  The script is finished: every later call that would run it (load_*, a step that
     *  reaches one of its callbacks) fails with this status at once. */
    CALUNA_ERR_LIMIT = 10
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

/** The minor ABI version of the library that is loaded (CALUNA_ABI_MINOR_VERSION when the
 *  header and the library match). Any thread. (ABI 1.1) */
int caluna_abi_minor_version(void);

/* ---------------------------------------------------------------------------------------- */
/* Engine                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** One scene: a root layer sized to the output, a render scale, a virtual clock. Opaque. */
typedef struct caluna_engine caluna_engine;

/** A layer id: engine tag, generation and slot. 0 means "no layer". */
typedef uint64_t caluna_layer;

/** An image id (ABI 1.3; see "Images"). 0 means "no image". */
typedef uint64_t caluna_image;

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
    /** Threads each render draws on, 1 … 64; 0 (the default) is one per core, 1 draws on
     *  the calling thread alone (ABI 1.10; read only when struct_size covers it). The
     *  region a render redraws is cut into bands (strips of rows or of columns) drawn at once by a worker
     *  pool the engine owns (started by the first render that needs it, joined by
     *  caluna_engine_destroy); the pixels are the same for every count. Draw, tile and
     *  frame callbacks always run on the thread that called the render, never on a
     *  worker. Regions under 32768 pixels are drawn by the calling thread alone, and the
     *  workers' bitmaps (one frame each) take at most 256 MiB, charged to the memory cap.
     *  A band needing a callback or a cache fill is drawn again on the calling thread. */
    int32_t render_threads;
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

/** Runs this engine's scripts in the untrusted-script sandbox (docs/sandbox.md): no io, os,
 *  debug or package library; no dofile/loadfile, binary chunks or C modules (`require`
 *  knows only "caluna"); no files (every call that names one — Lua's and this ABI's
 *  caluna_render_png, caluna_image_load_file, caluna_image_write_png, caluna_load_events —
 *  fails with CALUNA_ERR_IO, "… is not allowed in the sandbox"); at most `memory_limit`
 *  bytes (≥ 1 MiB) of Lua heap and engine memory made for the script together; at most
 *  `instruction_limit` VM instructions in all (≥ 1000; every later callback included; C
 *  library work charged by what it touches); 60 s of script time; 1 MiB of print output.
 *  Running out of memory fails with CALUNA_ERR_SCRIPT ("not enough memory") or
 *  CALUNA_ERR_OUT_OF_MEMORY ("… memory limit …"); of budget or time with CALUNA_ERR_LIMIT,
 *  after which the script is finished. The host and the engine carry on.
 *  Same as caluna_engine_set_sandbox_options with those two limits and the defaults.
 *  Call it before the first caluna_engine_load_*.
 *  Status: OK; INVALID_ARGUMENT (limits too small, or a script was already loaded);
 *  STALE_HANDLE. */
caluna_status caluna_engine_set_sandbox(caluna_engine *e, uint64_t memory_limit,
                                        int64_t instruction_limit);

/** The sandbox's limits and grants (since ABI 1.8). Zero fields take the default. */
typedef struct caluna_sandbox_options {
    /** sizeof(caluna_sandbox_options): lets later versions grow the struct. */
    uint32_t struct_size;
    /** Bytes of Lua heap plus engine memory made for the script (≥ 1 MiB); 0: 256 MiB. */
    uint64_t memory_limit;
    /** VM instructions in all (≥ 1000); 0: 1e9. */
    int64_t instruction_limit;
    /** Seconds spent running the script, its callbacks and the engine work they ask for,
     *  in all (in (0, 1e6]); checked by a watchdog thread; 0: 60. */
    double time_limit;
    /** Bytes `print` may write to stdout; later output is dropped; 0: 1 MiB. */
    uint64_t output_limit;
    /** NULL-terminated lists of directories (each must exist; resolved when set) whose files
     *  the script (and the path-taking calls above) may read, or write and read. NULL: none.
     *  A path is allowed when it resolves, links and ".." followed, inside one. At most
     *  1024 entries each. caluna_engine_load_file, the host naming its own script, is not
     *  restricted. */
    const char *const *read_dirs;
    const char *const *write_dirs;
} caluna_sandbox_options;

/** Sandboxes this engine's scripts with `options` (see caluna_engine_set_sandbox).
 *  Call it before the first caluna_engine_load_*.
 *  Status: OK; INVALID_ARGUMENT (NULL options, struct_size too small, a limit out of range,
 *  a directory that does not exist, a script already loaded); STALE_HANDLE. */
caluna_status caluna_engine_set_sandbox_options(caluna_engine *e, const caluna_sandbox_options *options);

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

/** Lays out what needs it and draws the whole layer tree into the caller-owned `buffer` (a
 *  host that shows frames every tick wants a render target instead, which redraws only what
 *  changed: see "Render targets and damage").
 *  `width` × `height` must equal caluna_engine_pixel_size; `stride` (bytes per row) must be
 *  at least width × 4; `buffer_size` (bytes) at least stride × height. Rows are written top
 *  to bottom; padding bytes at the end of a row are not touched. Areas no layer covers are
 *  transparent (0, 0, 0, 0). Identical inputs give identical bytes.
 *  Status: OK; INVALID_ARGUMENT (NULL buffer, wrong width/height, stride or buffer too
 *  small, overflow, unknown format, more than 1,000,000 replicated layers — see
 *  "CAReplicatorLayer"); NOT_SUPPORTED (a feature the renderer lacks); OUT_OF_MEMORY (also a
 *  tree too deep for the calling thread's stack); STALE_HANDLE. Since ABI 1.5 any transform renders: perspective layers are
 *  drawn offscreen and warped (see README "perspective rendering"), 3D contexts are
 *  depth-sorted, doubleSided = 0 culls back faces; "sublayerTransform" and "doubleSided" are
 *  ordinary properties (caluna_layer_set with caluna_transform / caluna_bool values). */
caluna_status caluna_render(caluna_engine *e, void *buffer, size_t buffer_size,
                            int32_t width, int32_t height, int32_t stride,
                            caluna_pixel_format format);

/** Renders as caluna_render and writes a PNG file (8-bit RGBA, straight alpha) at the
 *  engine's pixel size. Status: OK; INVALID_ARGUMENT (path NULL or not UTF-8); IO_ERROR
 *  (cannot write); NOT_SUPPORTED; OUT_OF_MEMORY; STALE_HANDLE. */
caluna_status caluna_render_png(caluna_engine *e, const char *path);

/* ---------------------------------------------------------------------------------------- */
/* Render targets and damage (ABI 1.9)                                                      */
/* ---------------------------------------------------------------------------------------- */
/*
 * A render target keeps the last frame it drew. Each caluna_render_target_draw redraws only
 * the pixels that can differ from that frame (the damage: the old and new extents of every
 * layer whose presentation, contents or subtree changed, shadows, borders, masks, 3D and
 * replicas included), converts only those into the target's buffer, and returns them as
 * rectangles: a host uploads or presents just those. A frame where nothing changed writes
 * nothing and returns no rectangle. The bytes are always exactly those caluna_render would
 * write. The whole frame is redrawn on the target's first draw, when `full` is non-zero,
 * after the engine drew into another target (each engine tracks damage for one target at a
 * time), after a failed draw, and where only that is exact (a layer placed by a
 * perspective transform, an emitter without bounds) or cheaper (damage over half the frame).
 * The host must not change the target's buffer between draws (or must pass full = 1).
 * A target is an id like the others (see "Ownership" above): OWNED by the caller,
 * ended with caluna_render_target_destroy or with the engine.
 *
 * Threads: caluna_render and caluna_render_target_draw cut the region they redraw into
 * bands (strips of rows or of columns) drawn at once, one per thread (caluna_engine_options.render_threads;
 * by default one per core). The call returns when every band is done; the bytes are the
 * same for every thread count. Callbacks (draw, tiles, pixel buffer frames) run only on the
 * calling thread, never while workers draw. caluna_stats render_threads and bands_drawn say
 * what the last render used.
 */

/** A render target id (ABI 1.9). 0 means none. */
typedef uint64_t caluna_render_target;

/** A rectangle of pixels, x and y from the top-left corner of the frame. */
typedef struct caluna_pixel_rect {
    int32_t x, y, width, height;
} caluna_pixel_rect;

/** The most damage rectangles one draw reports (more are merged into their bounding box). */
#define CALUNA_MAX_DAMAGE_RECTS 16

/** Makes a render target of `width` × `height` pixels (they must equal
 *  caluna_engine_pixel_size at each draw) in `format`, written to `buffer` (`stride` bytes
 *  per row, at least width × 4; `buffer_size` at least stride × height), which the host
 *  keeps valid and does not write until the target is destroyed. With buffer NULL the
 *  engine owns a buffer (stride 0: width × 4; otherwise at most width × 4 + 4096; charged
 *  to the engine's memory limit), read with caluna_render_target_pixels. Nothing is drawn until the first draw.
 *  Status: OK; INVALID_ARGUMENT (out NULL, unknown format, empty size or more than 16384
 *  per side or 2^27 pixels, stride or buffer too small); OUT_OF_MEMORY; STALE_HANDLE. */
caluna_status caluna_render_target_create(caluna_engine *e, void *buffer, size_t buffer_size,
                                          int32_t width, int32_t height, int32_t stride,
                                          caluna_pixel_format format, caluna_render_target *out);

/** Lays out, commits and redraws the target's damage (everything when `full` is non-zero;
 *  see above), converting those pixels into its buffer. Up to `capacity` damage rectangles
 *  go to `rects` and their number to *count (count may be NULL): they are disjoint or
 *  overlap only where merged, cover every pixel written, and number at most
 *  CALUNA_MAX_DAMAGE_RECTS. With capacity smaller than that, the rectangles past
 *  capacity − 1 are merged into the last one written. rects may be NULL with capacity 0:
 *  *count then gets how many there were. 0 rectangles: nothing changed, nothing written.
 *  Not from inside a callback. On failure the next draw redraws everything.
 *  Status: OK; INVALID_ARGUMENT (negative capacity, rects NULL with capacity > 0, the
 *  engine's pixel size is not the target's, a call from a callback); the statuses of
 *  caluna_render; STALE_HANDLE (engine or target). */
caluna_status caluna_render_target_draw(caluna_engine *e, caluna_render_target target, int32_t full,
                                        caluna_pixel_rect *rects, int32_t capacity, int32_t *count);

/** The target's buffer (the host's, or the engine's own) and its stride in bytes (stride
 *  may be NULL). The engine's buffer is valid until the target is destroyed; it is all
 *  zero before the first draw. Status: OK; INVALID_ARGUMENT (pixels NULL); STALE_HANDLE. */
caluna_status caluna_render_target_pixels(caluna_engine *e, caluna_render_target target,
                                          void **pixels, int32_t *stride);

/** Ends the target: its id becomes stale and the engine's buffer (if any) is freed; a host
 *  buffer is left as it is. Status: OK; STALE_HANDLE (engine, or a destroyed target). */
caluna_status caluna_render_target_destroy(caluna_engine *e, caluna_render_target target);

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

/** A new layer of a Core Animation class (ABI 1.5), OWNED like caluna_layer_create:
 *    "CALayer"           the same as caluna_layer_create;
 *    "CATransformLayer"  a transform layer: it draws only its sublayers, which share its
 *                        superlayer's 3D space (no flattening) and are depth-sorted there;
 *                        its own background, contents, border, shadow, mask and
 *                        masksToBounds are ignored, and its opacity is applied to each
 *                        sublayer separately. Hit testing passes through it.
 *  Status: OK; INVALID_ARGUMENT (out or class_name NULL); NOT_SUPPORTED (a class caluna does
 *  not draw, e.g. "CAShapeLayer" before it lands); STALE_HANDLE (engine). */
caluna_status caluna_layer_create_class(caluna_engine *e, const char *class_name, caluna_layer *out);

/** The layer's class name ("CALayer", "CATransformLayer"), engine-owned until the next call
 *  on the engine (ABI 1.5). Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_layer_class_name(caluna_engine *e, caluna_layer layer, const char **out);

/** One more owned reference to a live layer. Status: OK; STALE_HANDLE (id 0, dead, foreign,
 *  or engine); INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_layer_retain(caluna_engine *e, caluna_layer layer);

/** Drops one owned reference (from create or retain). A layer with no owned reference left
 *  and not in a tree dies; its id becomes stale. Status: OK; INVALID_ARGUMENT (no owned
 *  reference left to release); STALE_HANDLE. */
caluna_status caluna_layer_release(caluna_engine *e, caluna_layer layer);

/** The deepest a layer tree may nest (the root is level 1). Insertions that would go deeper
 *  fail with CALUNA_ERR_TREE. Hit testing, presentation copies and freeing a tree use no
 *  native stack per level; drawing and laying out recurse once per level, and check the
 *  stack first (see "Stack" above): on a thread whose stack is too small for the tree they
 *  fail with CALUNA_ERR_OUT_OF_MEMORY instead of crashing. Drawing needs up to about 6 KiB
 *  of stack per level in a debug build (less in release), so a tree at the limit renders
 *  on an 8 MiB thread (glibc's default). */
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

/** The kinds of caluna_path_element (ABI 1.1; PATH values and layer paths from ABI 1.3). */
typedef enum caluna_path_element_type {
    CALUNA_PATH_MOVE = 0,  /* points[0]: a new subpath starts there */
    CALUNA_PATH_LINE = 1,  /* points[0]: a line to it */
    CALUNA_PATH_QUAD = 2,  /* points[0] control, points[1] end: a quadratic Bézier */
    CALUNA_PATH_CUBIC = 3, /* points[0], points[1] controls, points[2] end: a cubic Bézier */
    CALUNA_PATH_CLOSE = 4  /* no points: a line back to the subpath's start */
} caluna_path_element_type;

/** One element of a path (CGPathElement), in points. Unused points are ignored (zero on
 *  output). */
typedef struct caluna_path_element {
    caluna_path_element_type type;
    struct { double x, y; } points[3];
} caluna_path_element;

typedef char caluna_path_element_layout_check_[(sizeof(caluna_path_element) == 56 && offsetof(caluna_path_element, points) == 8) ? 1 : -1];

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
    CALUNA_TYPE_IMAGE = 9,     /* u.image: an image id (ABI 1.3; "contents") */
    CALUNA_TYPE_PATH = 10,     /* u.path: count path elements, points (ABI 1.3; "shadowPath") */
    CALUNA_TYPE_ARRAY = 11     /* u.array: count caluna_values (ABI 1.7; "colors", "locations",
                                  "lineDashPattern") */
} caluna_value_type;

/** A tagged value. Only the union member named by `type` is meaningful.
 *
 *  IMAGE (ABI 1.3). As input, u.image is a live image id of the same engine (0, dead or
 *  foreign: STALE_HANDLE; use NIL for "no image"); whatever stores the value (a layer's
 *  contents, an animation's values, a tag) holds the image from then on. As output it is
 *  a BORROWED id: valid while something holds the image (see "Images").
 *  PATH (ABI 1.3). As input, u.path.elements points to u.path.count elements (0…2^20;
 *  elements may be NULL when count is 0: an empty path), copied; coordinates must be
 *  finite and within ±1e9 (properties check their own range, ±1e8 points for a layer's).
 *  As output, elements point into an engine-owned buffer valid until the next call on the
 *  engine (like strings).
 *  ARRAY (ABI 1.7). As input, u.array.items points to u.array.count values (0…2^20; items
 *  may be NULL when count is 0), copied; entries cannot be arrays, and a property checks
 *  their type (COLOR entries for "colors", NUMBER for "locations"). As output, items point
 *  into an engine-owned buffer valid until the next call on the engine; arrays of strings
 *  or paths cannot be returned (NOT_SUPPORTED). */
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
        caluna_image image;
        struct { const caluna_path_element *elements; size_t count; } path;
        struct { const struct caluna_value *items; size_t count; } array;
    } u;
} caluna_value;

/* The library reads caluna_value with this exact layout (LP64 and LLP64 with 8-byte doubles). */
typedef char caluna_value_layout_check_[(sizeof(caluna_value) == 136 && offsetof(caluna_value, u) == 8) ? 1 : -1];
typedef char caluna_engine_options_layout_check_[(sizeof(caluna_engine_options) == 40) ? 1 : -1];

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
/** An IMAGE value naming `image` (ABI 1.3). */
static inline caluna_value caluna_image_value(caluna_image image) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_IMAGE;
    v.u.image = image;
    return v;
}
/** A PATH value over `count` elements (ABI 1.3); the elements are borrowed by the value
 *  (caluna_layer_set copies them). */
static inline caluna_value caluna_path_value(const caluna_path_element *elements, size_t count) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_PATH;
    v.u.path.elements = elements;
    v.u.path.count = count;
    return v;
}
/** An ARRAY value over `count` values (ABI 1.7); the items are borrowed by the value
 *  (caluna_layer_set copies them). */
static inline caluna_value caluna_array_value(const caluna_value *items, size_t count) {
    caluna_value v = caluna_nil();
    v.type = CALUNA_TYPE_ARRAY;
    v.u.array.items = items;
    v.u.array.count = count;
    return v;
}

/** Sets a property by Core Animation key path: a key ("position", "backgroundColor",
 *  "frame", "transform", "name" …) or a component of one ("position.x", "bounds.size",
 *  "bounds.size.width", "frame.origin.y"). Components take NUMBER (x, y, width, height),
 *  POINT (origin) or SIZE (size). Nullable properties (backgroundColor, name) take NIL.
 *  Key names and the value rules come from the engine's property table (the same one Lua
 *  uses). Colours take COLOR only (convert names and "#rrggbb" yourself).
 *  From ABI 1.3 the contents and effect keys work too (see "Contents and visual effects"):
 *  "contents" takes an IMAGE (or NIL), "shadowPath" a PATH (or NIL).
 *  Status: OK; INVALID_ARGUMENT (key_path or value NULL, NaN or ∞ anywhere in the value, a
 *  NULL or non-UTF-8 string, an unknown type tag, a value out of the property's range such
 *  as a negative bounds size or a coordinate beyond ±1e8, more than 2^20 path elements);
 *  UNKNOWN_KEY (no such key or component; "mask", which has its own call); TYPE_MISMATCH
 *  (value of the wrong type); NOT_SUPPORTED (a Core Animation key caluna does not do yet,
 *  e.g. "filters"); STALE_HANDLE (layer; an IMAGE value's image). A property change of a
 *  committed layer runs its action (see "Layer actions"); "contents" fades by default. */
caluna_status caluna_layer_set(caluna_engine *e, caluna_layer layer, const char *key_path,
                               const caluna_value *value);

/** Reads a property by key path (same keys as caluna_layer_set) into *out. A STRING result
 *  points into an engine-owned buffer valid until the next call on the engine. A nullable
 *  property that is unset gives NIL. An IMAGE result ("contents", a drawn backing store
 *  included) is a BORROWED image id; a PATH result's elements are engine-owned until the
 *  next call. On failure *out is NIL.
 *  Status: OK; INVALID_ARGUMENT (key_path or out NULL); UNKNOWN_KEY; NOT_SUPPORTED (the key
 *  is not supported yet); STALE_HANDLE. */
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

/* ---------------------------------------------------------------------------------------- */
/* Engine commit                                                                            */
/* ---------------------------------------------------------------------------------------- */

/** Commits what changed at the current time without moving the clock: lays out, stamps
 *  animations added since the last commit (beginTime 0 becomes the layer's time now),
 *  updates and evaluates the presentation tree. caluna_engine_step, caluna_engine_advance
 *  and caluna_render commit by themselves; flush is for reading presentation values
 *  without stepping. Delegate events found by a flush are delivered by the next step.
 *  Status: OK; SCRIPT (a layout callback raised); INVALID_ARGUMENT (NULL engine, called
 *  from inside a callback); STALE_HANDLE. (ABI 1.1) */
caluna_status caluna_engine_flush(caluna_engine *e);

/* ---------------------------------------------------------------------------------------- */
/* Animations (ABI 1.1)                                                                     */
/* ---------------------------------------------------------------------------------------- */
/*
 * Core Animation's explicit animations: create one, set its properties, add it to a layer
 * under a key. Time is Apple's model (DESIGN §4): an animation's local time is
 * (parent time − beginTime) × speed + timeOffset through the layer time hierarchy, then
 * repeatCount/repeatDuration, autoreverses and fillMode. Explicit animations default to
 * linear timing; a duration of 0 means the transaction's animationDuration when the
 * animation is added (0.25 s unless a transaction set it; ABI 1.2), or, in a group, the
 * group's duration.
 *
 * Stamping. An animation added with beginTime 0 starts at the layer's time of the commit
 * that first finds its layer in the engine's tree: the next caluna_engine_step / advance
 * commits BEFORE the clock moves, so an animation added at time 0 and stepped with
 * caluna_engine_step(e, 0.5) is 0.5 s old. caluna_engine_flush and caluna_render commit
 * at the current time.
 *
 * Ids. caluna_animation is a 64-bit id like caluna_layer (engine tag, generation, kind,
 * slot; 0 = none). An id that is dead, foreign, or of another kind (a layer id given as an
 * animation, an animation id given as a layer) is CALUNA_ERR_STALE_HANDLE, never a crash.
 *
 * Ownership.
 *   - caluna_animation_create and caluna_animation_copy return an OWNED reference: the
 *     animation lives at least until you call caluna_animation_release (once per
 *     create/copy/retain). With no owned reference left and nothing else holding it, it
 *     dies and its id becomes stale.
 *   - Ids returned by queries (caluna_layer_animation_for_key, caluna_group_animation_at,
 *     the animation a delegate callback receives) are BORROWED: valid while the layer (or
 *     group) holds that animation — a delegate's animation at least until the callback
 *     returns. caluna_animation_retain keeps one alive.
 *   - caluna_layer_add_animation and caluna_group_add_animation COPY the animation: later
 *     changes to yours do not reach the copy, and you may release yours at once.
 *   - The copy a layer holds ("attached", Core Animation's frozen copy) is READ-ONLY: every
 *     setter on it fails with INVALID_ARGUMENT; reading works (its beginTime shows when it
 *     was stamped). caluna_animation_copy makes an editable copy of it.
 */

/** An animation id. 0 means "no animation". */
typedef uint64_t caluna_animation;

/** Creates an animation of `class_name`: "BasicAnimation", "KeyframeAnimation",
 *  "SpringAnimation" or "AnimationGroup" (Core Animation's names without "CA"), with Core
 *  Animation's defaults. *out is an OWNED reference.
 *  "Transition" (ABI 1.2) makes a CATransition: use it as an action (see "Layer actions")
 *  or add it to a layer yourself; it runs under the key "transition" either way.
 *  Status: OK; INVALID_ARGUMENT (class_name or out NULL, not UTF-8); UNKNOWN_KEY (no such
 *  class); STALE_HANDLE (engine). */
caluna_status caluna_animation_create(caluna_engine *e, const char *class_name, caluna_animation *out);

/** One more owned reference. Status: OK; STALE_HANDLE; INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_animation_retain(caluna_engine *e, caluna_animation anim);

/** Drops one owned reference (from create, copy or retain).
 *  Status: OK; INVALID_ARGUMENT (no owned reference left); STALE_HANDLE. */
caluna_status caluna_animation_release(caluna_engine *e, caluna_animation anim);

/** An editable deep copy (group children included; delegate and tags shared as values),
 *  OWNED. Works on attached copies too. Status: OK; INVALID_ARGUMENT (out NULL);
 *  STALE_HANDLE. */
caluna_status caluna_animation_copy(caluna_engine *e, caluna_animation anim, caluna_animation *out);

/** The class name ("BasicAnimation", …), engine-owned until the next call on the engine.
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_animation_class_name(caluna_engine *e, caluna_animation anim, const char **out);

/** *out = 1 when the animation is a layer's attached (read-only) copy, or a child of one;
 *  0 when it is editable. Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_animation_is_attached(caluna_engine *e, caluna_animation anim, int32_t *out);

/** Sets a property by key (the animation property table the Lua binding uses):
 *
 *  every class
 *    "duration"            NUMBER  seconds of one iteration, ≥ 0, finite; 0 = the transaction's
 *                                  animationDuration when added (default 0.25 s)
 *    "beginTime"           NUMBER  seconds in the layer's time; 0 = when committed (default)
 *    "speed"               NUMBER  default 1 (0 pauses; negative runs backwards)
 *    "timeOffset"          NUMBER  seconds, default 0
 *    "repeatCount"         NUMBER  ≥ 0, fractions allowed, HUGE_VAL = forever; 0 = once
 *    "repeatDuration"      NUMBER  seconds ≥ 0 (wins over repeatCount); HUGE_VAL = forever
 *    "autoreverses"        BOOL    default false
 *    "fillMode"            STRING  "removed" (default), "forwards", "backwards", "both"
 *    "timingFunction"      STRING  "linear", "easeIn", "easeOut", "easeInEaseOut", "default";
 *                                  NIL = none (linear, the default for explicit animations).
 *                                  Custom curves: caluna_animation_set_timing_function.
 *    "removedOnCompletion" BOOL    default true
 *  BasicAnimation, SpringAnimation, KeyframeAnimation
 *    "keyPath"             STRING  a layer key path: "position", "position.x", "opacity",
 *                                  "bounds.size", "transform", "transform.rotation.z",
 *                                  "backgroundColor" …; NIL
 *    "additive"            BOOL    the value is added to the layer's value
 *    "cumulative"          BOOL    each repeat starts where the last ended
 *    "valueFunction"       STRING  "rotateX/Y/Z", "scale", "scaleX/Y/Z", "translate",
 *                                  "translateX/Y/Z", or NIL (needs a transform keyPath)
 *  BasicAnimation, SpringAnimation
 *    "fromValue", "toValue", "byValue"   the keyPath's type (NUMBER for "position.x" or
 *                                  "opacity", POINT for "position", SIZE, RECT, COLOR,
 *                                  TRANSFORM …; NUMBER for a value function); NIL = unset.
 *                                  Apple's from/to/by table decides what runs. {x, y, z}
 *                                  for "scale"/"translate": caluna_animation_set_numbers.
 *  SpringAnimation
 *    "mass" (> 0, default 1), "stiffness" (> 0, default 100), "damping" (≥ 0, default 10),
 *    "initialVelocity" (default 0, fractions of the distance per second)   NUMBER
 *    "settlingDuration"    NUMBER  read-only: seconds the spring needs to settle
 *  KeyframeAnimation
 *    "calculationMode"     STRING  "linear" (default), "discrete", "paced", "cubic",
 *                                  "cubicPaced"
 *    "rotationMode"        STRING  "auto", "autoReverse" or NIL (for path animations)
 *    "values", "keyTimes", "timingFunctions", "tensionValues", "continuityValues",
 *    "biasValues", "path"  arrays: set them with the array calls below; here only NIL,
 *                          which clears them.
 *  AnimationGroup: the common keys; children through caluna_group_add_animation.
 *  Transition (ABI 1.2)
 *    "type"                STRING  "fade" (default), "moveIn", "push", "reveal"
 *    "subtype"             STRING  "fromLeft", "fromRight", "fromTop", "fromBottom" (y down:
 *                                  "fromTop" enters from the top edge), or NIL (= fromLeft)
 *    "startProgress", "endProgress"  NUMBER  the part shown, 0…1 (defaults 0 and 1)
 *    "filter"              NOT_SUPPORTED (no Core Image)
 *
 *  A fromValue/toValue/byValue or keyframe value is checked against the keyPath when the
 *  keyPath is already set, and always when the animation is added to a layer.
 *  Status: OK; INVALID_ARGUMENT (key or value NULL, NaN/∞ (HUGE_VAL is allowed only for
 *  repeatCount/repeatDuration), a value out of range (negative duration, mass 0), an
 *  unknown name for fillMode, timingFunction, calculationMode …, a read-only key, the
 *  animation is attached (read-only)); UNKNOWN_KEY (no such key for this class, also
 *  "delegate"/"animations" which have their own calls; a keyPath that is not a layer key
 *  path); TYPE_MISMATCH (a value of the wrong type; a value not of the keyPath's type; a
 *  non-NIL value for an array key; a PATH for "path", which has its own call);
 *  STALE_HANDLE (also an IMAGE value's image). */
caluna_status caluna_animation_set(caluna_engine *e, caluna_animation anim, const char *key,
                                   const caluna_value *value);

/** Reads a property (same keys as caluna_animation_set) into *out; unset nullable
 *  properties give NIL. "timingFunction" gives a STRING name or NIL (none = linear).
 *  A STRING result is engine-owned until the next call on the engine. On failure *out is NIL.
 *  Status: OK; INVALID_ARGUMENT (key or out NULL); UNKNOWN_KEY; NOT_SUPPORTED (the value is
 *  an array, a path or a custom timing curve: use the matching _get_ call below);
 *  STALE_HANDLE. */
caluna_status caluna_animation_get(caluna_engine *e, caluna_animation anim, const char *key,
                                   caluna_value *out);

/*
 * Arrays. Setters take a pointer and a count in 0…1048576 (2^20); NULL with count 0 clears
 * the property (Core Animation's nil); a non-NULL pointer with count 0 sets an empty array.
 * Getters write at most `capacity` entries to `out` (which may be NULL when capacity is 0)
 * and set *count to the full length (0 when unset), so a first call with capacity 0 sizes
 * the buffer. Common statuses: INVALID_ARGUMENT (count out of range, pointer NULL with a
 * count, capacity negative, count NULL, NaN/∞ entries, the animation is attached);
 * UNKNOWN_KEY (the class has no such property); STALE_HANDLE.
 */

/** Sets an array of numbers: "keyTimes" (one per keyframe, rising from 0 to 1; checked when
 *  the animation is added), "tensionValues", "continuityValues", "biasValues"
 *  (KeyframeAnimation); or {x, y, z} (count 3) as "fromValue"/"toValue"/"byValue" for the
 *  "scale"/"translate" value functions. Status: as above; TYPE_MISMATCH (the key does not
 *  take numbers). */
caluna_status caluna_animation_set_numbers(caluna_engine *e, caluna_animation anim, const char *key,
                                           const double *numbers, int32_t count);

/** Reads an array of numbers (the keys of caluna_animation_set_numbers).
 *  Status: as above; TYPE_MISMATCH (the key does not hold numbers). */
caluna_status caluna_animation_get_numbers(caluna_engine *e, caluna_animation anim, const char *key,
                                           double *out, int32_t capacity, int32_t *count);

/** Sets a KeyframeAnimation's "values": `count` caluna_values of the keyPath's type (POINT
 *  for "position", NUMBER for "position.y" …; NIL entries are refused). The values are
 *  copied (strings too). Status: as above; TYPE_MISMATCH (an entry of the wrong type, when
 *  the keyPath is set); STALE_HANDLE (an IMAGE entry's image). */
caluna_status caluna_animation_set_values(caluna_engine *e, caluna_animation anim,
                                          const caluna_value *values, int32_t count);

/** Reads a KeyframeAnimation's "values". Status: as above; NOT_SUPPORTED (an entry this
 *  call cannot return: a STRING, an array). */
caluna_status caluna_animation_get_values(caluna_engine *e, caluna_animation anim,
                                          caluna_value *out, int32_t capacity, int32_t *count);

/** Sets "timingFunction" to a custom cubic Bézier from (0,0) to (1,1) with control points
 *  (c1x, c1y) and (c2x, c2y) (CAMediaTimingFunction functionWithControlPoints). c1x and c2x
 *  must lie in [0, 1]; all finite. Status: OK; INVALID_ARGUMENT (a bad point, attached);
 *  STALE_HANDLE. */
caluna_status caluna_animation_set_timing_function(caluna_engine *e, caluna_animation anim,
                                                   double c1x, double c1y, double c2x, double c2y);

/** Sets "timingFunction" by name ("linear", "easeIn", "easeOut", "easeInEaseOut",
 *  "default"). Status: OK; INVALID_ARGUMENT (NULL or unknown name, attached); STALE_HANDLE. */
caluna_status caluna_animation_set_timing_function_named(caluna_engine *e, caluna_animation anim,
                                                         const char *name);

/** The control points of "timingFunction" (named ones too); (0, 0, 1, 1) when none is set
 *  (linear). Status: OK; INVALID_ARGUMENT (a NULL pointer); STALE_HANDLE. */
caluna_status caluna_animation_get_timing_function(caluna_engine *e, caluna_animation anim,
                                                   double *c1x, double *c1y, double *c2x, double *c2y);

/** Sets a KeyframeAnimation's "timingFunctions" (one per segment: keyframes − 1; missing
 *  ones are linear, extra ones ignored) from `count` curves given as 4 × count doubles
 *  (c1x, c1y, c2x, c2y for each). Status: as above (a bad control point). */
caluna_status caluna_animation_set_timing_functions(caluna_engine *e, caluna_animation anim,
                                                    const double *control_points, int32_t count);

/** Sets "timingFunctions" by name (`count` names). Status: as above (a NULL or unknown name). */
caluna_status caluna_animation_set_timing_functions_named(caluna_engine *e, caluna_animation anim,
                                                          const char *const *names, int32_t count);

/** Reads "timingFunctions" as 4 doubles per curve: `capacity` and *count count curves, so
 *  `out` needs 4 × capacity doubles. Status: as above. */
caluna_status caluna_animation_get_timing_functions(caluna_engine *e, caluna_animation anim,
                                                    double *out, int32_t capacity, int32_t *count);

/** Sets a KeyframeAnimation's "path" (it overrides "values"; the keyPath must be a POINT
 *  key path such as "position"; each drawn segment is one keyframe interval). Coordinates
 *  must be finite and within ±1e9. Status: as above; INVALID_ARGUMENT (an unknown element
 *  type). */
caluna_status caluna_animation_set_path(caluna_engine *e, caluna_animation anim,
                                        const caluna_path_element *elements, int32_t count);

/** Reads "path" (`capacity` and *count count elements). Status: as above. */
caluna_status caluna_animation_get_path(caluna_engine *e, caluna_animation anim,
                                        caluna_path_element *out, int32_t capacity, int32_t *count);

/** Sets a free-form tag (Core Animation's setValue:forKey: on an animation; copies share
 *  the tags, so a delegate can read what you set before adding). `key` is any UTF-8
 *  string; NIL removes the tag. The value is copied (strings too).
 *  Status: OK; INVALID_ARGUMENT (key or value NULL, NaN/∞, attached); STALE_HANDLE (also an
 *  IMAGE value's image). */
caluna_status caluna_animation_set_tag(caluna_engine *e, caluna_animation anim, const char *key,
                                       const caluna_value *value);

/** Reads a tag into *out: NIL (status OK) when there is none. Tags only — properties are
 *  read with caluna_animation_get. A STRING is engine-owned until the next call.
 *  Status: OK; INVALID_ARGUMENT (key or out NULL); NOT_SUPPORTED (a tag a Lua script set to
 *  a Lua value); STALE_HANDLE. */
caluna_status caluna_animation_get_tag(caluna_engine *e, caluna_animation anim, const char *key,
                                       caluna_value *out);

/** A delegate callback. `anim` is the layer's attached copy (read-only, tags readable;
 *  BORROWED: valid at least until the callback returns), `layer` the layer it is attached
 *  to (borrowed; 0 if it no longer exists), `finished` 1 when the animation ran to its end,
 *  0 when it was removed or replaced or its layer left the tree (always 0 for did_start).
 *  `user` is what you passed. See "Callbacks" below for what a callback may call. */
typedef void (*caluna_animation_callback)(caluna_engine *e, caluna_animation anim, caluna_layer layer,
                                          int32_t finished, void *user);

/** Sets the delegate (CAAnimationDelegate): `did_start` runs when the animation starts
 *  (animationDidStart:), `did_stop` when it stops (animationDidStop:finished:). Either may
 *  be NULL; both NULL removes the delegate. `user` is passed back untouched; caluna never
 *  reads or frees it. Copies (the attached one included) share the delegate. Events are
 *  delivered inside caluna_engine_step / advance, at the exact media time they happen, in
 *  this order within one instant: timers and display links, did_start, did_stop (layer
 *  tree order, then the layer's animation order). A removed animation hears
 *  did_stop(finished = 0) at the next step. A group's children's delegates are not called.
 *  Status: OK; INVALID_ARGUMENT (attached); STALE_HANDLE. */
caluna_status caluna_animation_set_delegate(caluna_engine *e, caluna_animation anim,
                                            caluna_animation_callback did_start,
                                            caluna_animation_callback did_stop, void *user);

/** Appends a COPY of `child` (as it is now) to an AnimationGroup's animations. Children
 *  run in the group's time; a child with duration 0 takes the group's; children's
 *  delegates and removedOnCompletion are ignored (Apple). Groups nest at most 32 deep, and
 *  a group's tree holds at most 100000 animations, nested ones counted (a group added to
 *  itself doubles). Status: OK; TYPE_MISMATCH (`group` is not an AnimationGroup);
 *  INVALID_ARGUMENT (the group is attached, nesting too deep, more than 2^20 children or
 *  100000 animations in all; nothing changes); STALE_HANDLE. */
caluna_status caluna_group_add_animation(caluna_engine *e, caluna_animation group, caluna_animation child);

/** Empties a group's animations (nil). Status: as caluna_group_add_animation. */
caluna_status caluna_group_remove_all_animations(caluna_engine *e, caluna_animation group);

/** The number of a group's animations. Status: OK; INVALID_ARGUMENT (out NULL);
 *  TYPE_MISMATCH (not a group); STALE_HANDLE. */
caluna_status caluna_group_animation_count(caluna_engine *e, caluna_animation group, int32_t *out);

/** The group's child at `index` (BORROWED; the group's own copy: changing it changes the
 *  group, unless the group is attached). Status: OK; INVALID_ARGUMENT (out NULL, index out
 *  of range); TYPE_MISMATCH (not a group); STALE_HANDLE. */
caluna_status caluna_group_animation_at(caluna_engine *e, caluna_animation group, int32_t index,
                                        caluna_animation *out);

/* ---------------------------------------------------------------------------------------- */
/* A layer's animations, presentation and time (ABI 1.1)                                   */
/* ---------------------------------------------------------------------------------------- */

/** addAnimation:forKey: — attaches a read-only COPY of `anim` to the layer under `key`
 *  (NULL: no key; such animations are not listed by key). An animation already under the
 *  same key is removed first (its delegate hears did_stop(finished = 0)). The copy is
 *  checked now: a keyPath that names an animatable property, values of its type, keyTimes
 *  with one entry per keyframe rising from 0 to 1, a path for a point key path …
 *  Status: OK; INVALID_ARGUMENT (no keyPath, a key path that is not animatable, a keyTimes
 *  count or order mismatch, no values, key not UTF-8, a presentation layer); UNKNOWN_KEY
 *  (keyPath names no layer property); TYPE_MISMATCH (a value not of the keyPath's type);
 *  STALE_HANDLE (layer or anim). */
caluna_status caluna_layer_add_animation(caluna_engine *e, caluna_layer layer, caluna_animation anim,
                                         const char *key);

/** removeAnimationForKey: — nothing when there is none (status OK). The layer shows its
 *  model value again; the delegate hears did_stop(finished = 0) at the next step.
 *  Status: OK; INVALID_ARGUMENT (key NULL, a presentation layer); STALE_HANDLE. */
caluna_status caluna_layer_remove_animation(caluna_engine *e, caluna_layer layer, const char *key);

/** removeAllAnimations. Status: OK; INVALID_ARGUMENT (a presentation layer); STALE_HANDLE. */
caluna_status caluna_layer_remove_all_animations(caluna_engine *e, caluna_layer layer);

/** animationForKey: — the attached copy under `key` (BORROWED, read-only).
 *  Status: OK; UNKNOWN_KEY (no animation under that key; *out = 0); INVALID_ARGUMENT (key or
 *  out NULL); STALE_HANDLE. */
caluna_status caluna_layer_animation_for_key(caluna_engine *e, caluna_layer layer, const char *key,
                                             caluna_animation *out);

/** The number of animation keys (animationKeys; animations added without a key are not
 *  counted). Finished animations with removedOnCompletion leave at the step that ends them.
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_layer_animation_key_count(caluna_engine *e, caluna_layer layer, int32_t *out);

/** The key at `index` (in the order the animations apply: the order they were added), a
 *  string owned by the engine until the next call on it.
 *  Status: OK; INVALID_ARGUMENT (out NULL, index out of range); STALE_HANDLE. */
caluna_status caluna_layer_animation_key_at(caluna_engine *e, caluna_layer layer, int32_t index,
                                            const char **out);

/** presentationLayer — the layer as on screen now (committed state with the animations
 *  applied at the current time), BORROWED and read-only (setters fail with
 *  INVALID_ARGUMENT); 0 (status OK) before the layer's first commit in the engine's tree.
 *  Given a presentation layer, itself. Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_layer_presentation(caluna_engine *e, caluna_layer layer, caluna_layer *out);

/** modelLayer — the model layer of a presentation layer; a model layer gives itself
 *  (borrowed). Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_layer_model_layer(caluna_engine *e, caluna_layer layer, caluna_layer *out);

/** Reads a key path (as caluna_layer_get) from the layer's presentation: the animated
 *  value now. Status: as caluna_layer_get; UNKNOWN_KEY also when the layer has no
 *  presentation yet (not committed in the engine's tree: step, flush or render first; the
 *  message says so). */
caluna_status caluna_layer_get_presentation(caluna_engine *e, caluna_layer layer, const char *key_path,
                                            caluna_value *out);

/** convertTime:fromLayer: / toLayer: — converts `t` seconds in `from`'s local time to
 *  `to`'s; 0 for either means media time (the engine clock). A layer's local time is
 *  (parent time − beginTime) × speed + timeOffset, applied from the root down ("beginTime",
 *  "speed", "timeOffset" are layer keys for caluna_layer_set). A paused layer (speed 0) maps
 *  back to its beginTime. Local times are clamped to ±1e15 s (extreme speeds cannot make
 *  them infinite). Status: OK; INVALID_ARGUMENT (t NaN, ∞ or beyond ±1e15, out NULL);
 *  STALE_HANDLE. */
caluna_status caluna_layer_convert_time(caluna_engine *e, caluna_layer from, caluna_layer to, double t,
                                        double *out);

/* ---------------------------------------------------------------------------------------- */
/* Display links and timers (ABI 1.1)                                                       */
/* ---------------------------------------------------------------------------------------- */
/*
 * Frame callbacks on the virtual clock, fired inside caluna_engine_step / advance after the
 * clock moved and before animations are evaluated, in the order they were created. The
 * engine holds each one until it is invalidated (or, for a timer that does not repeat,
 * until it fires); from then on its id is stale (CALUNA_ERR_STALE_HANDLE), and so is every
 * id once the engine is destroyed. There is nothing to release.
 *
 * Callbacks (delegates, display links, timers; from ABI 1.2 also transaction completions,
 * actions, action delegates and release callbacks) run on the thread that is inside the
 * caluna call that runs them — caluna_engine_step / advance for delegates, timers and
 * completions; the property or tree change (or the lookup) for actions — while the engine
 * is inside that call. From a callback you
 * may call caluna functions on the same engine (set layer properties, add or remove
 * animations, read tags and presentation values, create or invalidate timers …) — except
 * caluna_engine_step, caluna_engine_advance, caluna_engine_flush, caluna_transaction_flush,
 * caluna_render, caluna_render_png, caluna_render_target_draw, caluna_engine_load_file, caluna_engine_load_string,
 * caluna_engine_set_sandbox and caluna_engine_destroy, which fail with INVALID_ARGUMENT
 * (the engine is in the middle of a frame; do it after the step returns, which it does
 * normally). A callback must return normally (no longjmp across caluna). Other threads are
 * still refused while a callback runs.
 */

/** A display link id (0 = none). */
typedef uint64_t caluna_display_link;
/** A timer id (0 = none). */
typedef uint64_t caluna_timer;

/** A display link callback, with CADisplayLink's properties: `target_timestamp` is the frame
 *  being prepared (= the media time now), `timestamp` the previous frame (the time the step
 *  started from) and `duration` the frame period (the step's length in seconds; not
 *  multiplied by the frame interval). */
typedef void (*caluna_display_link_callback)(caluna_engine *e, caluna_display_link link, double timestamp,
                                             double target_timestamp, double duration, void *user);

/** A timer callback: `now` is the media time of the frame that fires it. */
typedef void (*caluna_timer_callback)(caluna_engine *e, caluna_timer timer, double now, void *user);

/** CADisplayLink: calls `callback` once for every frame the host steps (every
 *  frame_interval-th frame, or at most preferred_fps times a second), starting with the
 *  next step. `user` is passed back untouched. Status: OK; INVALID_ARGUMENT (callback or
 *  out NULL); STALE_HANDLE (engine). */
caluna_status caluna_display_link_create(caluna_engine *e, caluna_display_link_callback callback, void *user,
                                         caluna_display_link *out);

/** Pauses (non-zero) or resumes (0) the link; a paused link neither fires nor counts frames.
 *  Status: OK; STALE_HANDLE; INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_display_link_set_paused(caluna_engine *e, caluna_display_link link, int32_t paused);

/** preferredFramesPerSecond: 0 (default) = every frame; otherwise the link fires when at
 *  least 1/fps s (within 0.1%) passed since it last fired. Status: OK; INVALID_ARGUMENT
 *  (fps < 0); STALE_HANDLE. */
caluna_status caluna_display_link_set_preferred_fps(caluna_engine *e, caluna_display_link link, int32_t fps);

/** frameInterval: fire every n-th stepped frame (n ≥ 1, default 1; used when preferred fps
 *  is 0). Status: OK; INVALID_ARGUMENT (n < 1); STALE_HANDLE. */
caluna_status caluna_display_link_set_frame_interval(caluna_engine *e, caluna_display_link link,
                                                     int32_t frame_interval);

/** The link's timestamp, targetTimestamp and duration as of its last call (both stamps =
 *  the creation time and duration 0 before its first call). Any pointer may be NULL (not
 *  wanted); all NULL is INVALID_ARGUMENT. Status: OK; INVALID_ARGUMENT; STALE_HANDLE. */
caluna_status caluna_display_link_timestamps(caluna_engine *e, caluna_display_link link, double *timestamp,
                                             double *target_timestamp, double *duration);

/** Stops the link for good; its id becomes stale. Allowed from inside its own callback.
 *  Status: OK; STALE_HANDLE (already invalidated); INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_display_link_invalidate(caluna_engine *e, caluna_display_link link);

/** NSTimer on the virtual clock: first due `interval` seconds from now (finite, ≥ 0, ≤ 1e9;
 *  > 0 when repeating), fires during the first step that reaches its date, at most once per
 *  step (missed dates are coalesced: a 1/60 s timer stepped at 30 Hz fires 30 times a
 *  second); `repeats` non-zero repeats. Status: OK; INVALID_ARGUMENT (bad interval,
 *  callback or out NULL); STALE_HANDLE (engine). */
caluna_status caluna_timer_create(caluna_engine *e, double interval, int32_t repeats,
                                  caluna_timer_callback callback, void *user, caluna_timer *out);

/** The media time the timer fires next. Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE
 *  (invalidated, or fired and not repeating). */
caluna_status caluna_timer_fire_date(caluna_engine *e, caluna_timer timer, double *out);

/** Stops the timer for good; its id becomes stale. Allowed from inside its own callback.
 *  Status: OK; STALE_HANDLE (already invalidated, or fired and not repeating);
 *  INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_timer_invalidate(caluna_engine *e, caluna_timer timer);

/* ---------------------------------------------------------------------------------------- */
/* Timing functions and easing, without an engine (ABI 1.1)                                  */
/* ---------------------------------------------------------------------------------------- */
/* These need no engine: any thread, any time. A failure's message is at
 * caluna_last_error(NULL) on the calling thread. */

/** A cubic Bézier timing function (0,0)–(c1x,c1y)–(c2x,c2y)–(1,1) at time fraction `x`
 *  (clamped to [0, 1]): the curve is solved for x, then y is returned (f(0) = 0, f(1) = 1).
 *  Status: OK; INVALID_ARGUMENT (NaN/∞, c1x or c2x outside [0, 1], out NULL). */
caluna_status caluna_timing_function_evaluate(double c1x, double c1y, double c2x, double c2y, double x,
                                              double *out);

/** A named timing function ("linear", "easeIn" (0.42, 0, 1, 1), "easeOut" (0, 0, 0.58, 1),
 *  "easeInEaseOut" (0.42, 0, 0.58, 1), "default" (0.25, 0.1, 0.25, 1)) at `x`.
 *  Status: OK; INVALID_ARGUMENT (name NULL or unknown, x NaN/∞, out NULL). */
caluna_status caluna_timing_function_named_evaluate(const char *name, double x, double *out);

/** The control points of a named timing function. Status: OK; INVALID_ARGUMENT (name NULL or
 *  unknown, a NULL pointer). */
caluna_status caluna_timing_function_named_points(const char *name, double *c1x, double *c1y,
                                                  double *c2x, double *c2y);

/** Robert Penner's easing function `name` at time fraction `t` (not clamped: the formulas
 *  extrapolate). Names: "linear", "quadraticEaseIn/Out/InOut", "cubic…", "quartic…",
 *  "quintic…", "sine…", "circular…", "exponential…", "elastic…", "back…", "bounce…"
 *  (the book's bounceEaseOut: bounceEaseOut(0.5) = 0.71875), "pennerBounceEaseOut".
 *  Status: OK; INVALID_ARGUMENT (name NULL or unknown, t NaN/∞, out NULL, a result that is
 *  not finite (circular outside [0, 1])). */
caluna_status caluna_easing(const char *name, double t, double *out);

/** The name of easing function `index` (0, 1, … until INVALID_ARGUMENT), a static string.
 *  Status: OK; INVALID_ARGUMENT (index out of range, out NULL). */
caluna_status caluna_easing_name_at(int32_t index, const char **out);

/* ---------------------------------------------------------------------------------------- */
/* Transactions (ABI 1.2)                                                                   */
/* ---------------------------------------------------------------------------------------- */
/*
 * CATransaction's class methods on the engine's transaction stack. Every change to a layer
 * belongs to a transaction: an explicit one (caluna_transaction_begin … _commit, nested up
 * to 256 deep) or the implicit one the engine opens by itself for changes made outside any
 * and commits at its next commit (caluna_engine_step / advance / flush, caluna_render).
 * While an explicit transaction is open the engine defers its commit — animations added
 * are not stamped and the presentation does not show the changes — until the outermost
 * one is committed, as Core Animation does (commit without flush: the next step shows it).
 *
 * Settings. Reading a setting gives the innermost transaction's value, else the nearest
 * outer one's, else the default; setting writes the innermost transaction (the implicit
 * one when none is open), so a nested transaction inherits its outer settings and they
 * come back when it commits. Defaults: animationDuration 0.25 s, disableActions off, no
 * animationTimingFunction (implicit animations use "default" (0.25, 0.1, 0.25, 1)).
 * Actions read them when they run: the default action of a property (see "Layer actions")
 * takes the duration and timing function of the transaction open when the property is
 * set; disableActions on means properties change without any action.
 */

/** +begin: opens an explicit transaction. Status: OK; INVALID_ARGUMENT (256 already open,
 *  NULL engine); STALE_HANDLE. */
caluna_status caluna_transaction_begin(caluna_engine *e);

/** +commit: closes the innermost explicit transaction; its completion stops waiting for
 *  later animations. When the outermost one closes, the engine's next commit shows the
 *  changes. Status: OK; INVALID_ARGUMENT (no explicit transaction is open — the engine stays
 *  usable); STALE_HANDLE. */
caluna_status caluna_transaction_commit(caluna_engine *e);

/** +flush: the engine's commit now, exactly caluna_engine_flush (see there; deferred while
 *  an explicit transaction is open). Refused inside callbacks like caluna_engine_flush.
 *  Status: as caluna_engine_flush. */
caluna_status caluna_transaction_flush(caluna_engine *e);

/** The number of open explicit transactions (0 when none; the implicit one is not
 *  counted). Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_transaction_depth(caluna_engine *e, int32_t *out);

/** +setAnimationDuration: seconds (finite, ≥ 0; with 0 the changes show at once) for the
 *  default actions of properties set from now on in this transaction.
 *  Status: OK; INVALID_ARGUMENT (NaN, ∞, negative); STALE_HANDLE. */
caluna_status caluna_transaction_set_animation_duration(caluna_engine *e, double seconds);

/** +animationDuration in seconds (0.25 unless a transaction set it).
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_transaction_animation_duration(caluna_engine *e, double *out);

/** +setDisableActions: non-zero turns actions off (no implicit animations, no action
 *  callbacks, no delegate lookup) for changes made from now on in this transaction; 0 turns
 *  them back on. Status: OK; STALE_HANDLE; INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_transaction_set_disable_actions(caluna_engine *e, int32_t disable);

/** +disableActions: *out is 1 or 0. Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_transaction_disable_actions(caluna_engine *e, int32_t *out);

/** +setAnimationTimingFunction: with a custom cubic Bézier (rules as
 *  caluna_animation_set_timing_function: c1x, c2x in [0, 1], all finite).
 *  Status: OK; INVALID_ARGUMENT (a bad point); STALE_HANDLE. */
caluna_status caluna_transaction_set_animation_timing_function(caluna_engine *e, double c1x, double c1y,
                                                               double c2x, double c2y);

/** +setAnimationTimingFunction: by name ("linear", "easeIn", "easeOut", "easeInEaseOut",
 *  "default"); NULL is setAnimationTimingFunction:nil — it removes this transaction's
 *  curve, so an outer transaction's (or else "default") applies again.
 *  Status: OK; INVALID_ARGUMENT (unknown name, not UTF-8); STALE_HANDLE. */
caluna_status caluna_transaction_set_animation_timing_function_named(caluna_engine *e, const char *name);

/** The control points of the curve default actions use now: the transaction's
 *  animationTimingFunction, or "default" (0.25, 0.1, 0.25, 1) when none is set (read
 *  caluna_transaction_value("animationTimingFunction") to tell: NIL when none is set).
 *  Status: OK; INVALID_ARGUMENT (a NULL pointer); STALE_HANDLE. */
caluna_status caluna_transaction_animation_timing_function(caluna_engine *e, double *c1x, double *c1y,
                                                           double *c2x, double *c2y);

/** A transaction completion: runs inside caluna_engine_step / advance. */
typedef void (*caluna_completion_callback)(caluna_engine *e, void *user);

/** Frees what a `user` pointer holds; the engine calls it exactly once, when it lets go of
 *  the pointer. It runs at the end of the caluna call during which the engine let go (or
 *  inside caluna_engine_destroy), never in the middle of a change; it may call back into
 *  the engine like any callback (not during destroy: STALE_HANDLE). The message of a
 *  failed call stays what caluna_last_error reports, whatever the release calls. */
typedef void (*caluna_release_callback)(void *user);

/** +setCompletionBlock: `callback(e, user)` runs once every animation added from now on
 *  in this transaction (and transactions nested in it, until another completion is set)
 *  has finished or been removed, and the transaction has committed — inside the
 *  caluna_engine_step / advance that reaches that time, at the exact media time (the step
 *  visits it), after the animation delegates of that instant. With no animation added it
 *  runs in the first step after the commit. Setting another completion (or NULL) does not
 *  cancel this one: it then waits only for the animations already added.
 *  `release` (may be NULL) is called with `user` once the completion has run or the
 *  engine is destroyed first; not when this call fails. NULL callback: no completion for
 *  what follows (user and release are ignored).
 *  Status: OK; STALE_HANDLE; INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_transaction_set_completion(caluna_engine *e, caluna_completion_callback callback,
                                                void *user, caluna_release_callback release);

/** +setValue:forKey: — sets `key` in the innermost transaction (copied; strings too). The
 *  four Core Animation keys keep their meaning: "animationDuration" NUMBER,
 *  "disableActions" BOOL, "animationTimingFunction" STRING name or NIL (custom curves:
 *  caluna_transaction_set_animation_timing_function), "completionBlock" NIL only (set a
 *  callback with caluna_transaction_set_completion). Any other key takes any value; NIL
 *  removes it from the innermost transaction (an outer value shows again). Lua scripts on
 *  the same engine see NUMBER, BOOL and STRING values as numbers, booleans and strings.
 *  Status: OK; INVALID_ARGUMENT (key or value NULL, not UTF-8, NaN/∞, a value out of range
 *  such as a negative duration, an unknown timing function name); TYPE_MISMATCH (a value of
 *  the wrong type for a Core Animation key); STALE_HANDLE (also an IMAGE value's image). */
caluna_status caluna_transaction_set_value(caluna_engine *e, const char *key, const caluna_value *value);

/** +valueForKey: — the innermost value of `key` (NIL when no transaction set it, except the
 *  defaults: "animationDuration" NUMBER 0.25, "disableActions" BOOL 0).
 *  "animationTimingFunction" is a STRING name or NIL; a STRING is engine-owned until the
 *  next call. On failure *out is NIL.
 *  Status: OK; INVALID_ARGUMENT (key or out NULL); NOT_SUPPORTED (a custom timing curve — use
 *  caluna_transaction_animation_timing_function —, a completion, a Lua value a script
 *  set); STALE_HANDLE. */
caluna_status caluna_transaction_value(caluna_engine *e, const char *key, caluna_value *out);

/* ---------------------------------------------------------------------------------------- */
/* Layer actions (ABI 1.2)                                                                  */
/* ---------------------------------------------------------------------------------------- */
/*
 * CAAction. When a property of a committed layer changes (its layer has been in the engine's
 * tree at a commit; scene set-up before the first commit never animates) or an event
 * happens to it — "onOrderIn" / "onOrderOut" when it enters or leaves the engine's tree
 * (or is hidden/shown there), "sublayers" when its sublayers change, "contents" — the
 * layer looks its action up (actionForKey:) and runs it, unless actions are disabled:
 *
 *   1. its action delegate (caluna_layer_set_action_delegate), if any;
 *   2. its actions dictionary (caluna_layer_set_action);
 *   3. its style chain: style.actions, style.style.actions, … (caluna_layer_set_style_action);
 *   4. the default action (caluna_default_action_for_key): for an animatable property a
 *      BasicAnimation of it with the transaction's duration and timing function (else
 *      0.25 s on "default"), starting from the value on screen; a fade "Transition" for
 *      "contents"; nothing for other keys.
 *
 * At each step CALUNA_ACTION_CONTINUE (no entry) goes on to the next, CALUNA_ACTION_NULL
 * (NSNull) stops the search with no action, and anything else is the action. An ANIMATION
 * action runs by adding a copy of the animation to the layer under the event key (a
 * Transition under "transition"); a property animation without a keyPath gets the
 * property's, a BasicAnimation without fromValue starts from the value on screen. A
 * CALLBACK action runs by calling it.
 *
 * Errors. A callback (action or delegate) returns 0 for success; any other value is an
 * error that the call which made the change returns (caluna_layer_set, a tree call …; the
 * change itself stays made): the value itself when it is a caluna_status, else
 * CALUNA_ERR_SCRIPT; the message names the callback and the event. A bad delegate answer
 * (unknown kind, stale animation id, CALLBACK with a NULL callback) is an error the same way.
 * Actions that change properties run their actions in turn, at most 16 deep.
 *
 * Ownership. An ANIMATION entry holds a reference to the animation itself (not a copy):
 * later changes to it show in later runs, and you may release your reference at once. A
 * CALLBACK entry owns its `user`: release(user) (if not NULL) runs exactly once, when the
 * entry is replaced or removed, the actions (or style) cleared, the layer dies, or the
 * engine is destroyed — see caluna_release_callback. A failed call takes nothing over.
 */

/** What an actions entry, a delegate answer or a lookup result is. */
typedef enum caluna_action_kind {
    /** nil: no entry here, the search continues (as a result: no action). */
    CALUNA_ACTION_CONTINUE = 0,
    /** NSNull: the search stops; no action runs. */
    CALUNA_ACTION_NULL = 1,
    /** `animation`: the engine adds a copy of it to the layer when the action runs. */
    CALUNA_ACTION_ANIMATION = 2,
    /** `callback(e, layer, event, user)` runs. */
    CALUNA_ACTION_CALLBACK = 3
} caluna_action_kind;

/** A host action (runActionForKey:object:arguments:): `layer` (borrowed) is the model layer
 *  whose property changed or that the event happened to, `event` the property name or
 *  event key (engine-owned, valid during the call). Return 0, or nonzero for an error. */
typedef int32_t (*caluna_action_callback)(caluna_engine *e, caluna_layer layer, const char *event, void *user);

/** An action. Only the fields its kind names are read: `animation` for ANIMATION;
 *  `callback`, `user` and `release` (may be NULL) for CALLBACK. On output, `release` is
 *  always NULL (the engine keeps ownership of what it holds) and unused fields are 0. */
typedef struct caluna_action {
    caluna_action_kind kind;
    caluna_animation animation;
    caluna_action_callback callback;
    void *user;
    caluna_release_callback release;
} caluna_action;

typedef char caluna_action_layout_check_[(sizeof(caluna_action) == 40 && offsetof(caluna_action, animation) == 8) ? 1 : -1];

/** Sets the layer's actions entry for `key` (a property name or event key, any UTF-8; not
 *  checked against the property table). `action` NULL or CONTINUE removes the entry (its
 *  release runs); kind CALUNA_ACTION_NULL stores NSNull (stops the search: no default animation).
 *  Status: OK; INVALID_ARGUMENT (key NULL or not UTF-8, unknown kind, CALLBACK with a NULL
 *  callback, a presentation layer); STALE_HANDLE (layer, or the action's animation). */
caluna_status caluna_layer_set_action(caluna_engine *e, caluna_layer layer, const char *key,
                                      const caluna_action *action);

/** Reads the layer's actions entry for `key` into *out: CONTINUE when there is none. An
 *  ANIMATION's id is BORROWED (the animation the entry holds; valid while the entry holds
 *  it; changing it changes what the entry runs); a CALLBACK gives callback and user
 *  (release NULL: the entry still owns user). On failure *out is all zero (CONTINUE).
 *  Status: OK; INVALID_ARGUMENT (key or out NULL, not UTF-8); NOT_SUPPORTED (an action a Lua
 *  script set: a function or an object); STALE_HANDLE. */
caluna_status caluna_layer_action(caluna_engine *e, caluna_layer layer, const char *key, caluna_action *out);

/** Removes every actions entry (their releases run). The style chain stays.
 *  Status: OK; INVALID_ARGUMENT (a presentation layer); STALE_HANDLE. */
caluna_status caluna_layer_clear_actions(caluna_engine *e, caluna_layer layer);

/** Sets `key` in the actions of the layer's style at `level`: 0 is style.actions, 1 is
 *  style.style.actions, … up to 31; styles on the way are created as needed. Removing
 *  (NULL or CONTINUE) from a style that does not exist does nothing. A style a Lua script
 *  set (it may be shared) is changed in place.
 *  Status: as caluna_layer_set_action; INVALID_ARGUMENT (level < 0 or > 31). */
caluna_status caluna_layer_set_style_action(caluna_engine *e, caluna_layer layer, int32_t level,
                                            const char *key, const caluna_action *action);

/** Reads the entry for `key` in the style at `level` (CONTINUE when the style or the entry
 *  does not exist). Status: as caluna_layer_action; INVALID_ARGUMENT (level out of 0…31). */
caluna_status caluna_layer_style_action(caluna_engine *e, caluna_layer layer, int32_t level,
                                        const char *key, caluna_action *out);

/** Removes the layer's whole style chain (the releases of its entries run).
 *  Status: OK; INVALID_ARGUMENT (a presentation layer); STALE_HANDLE. */
caluna_status caluna_layer_clear_style(caluna_engine *e, caluna_layer layer);

/** An action delegate (actionForLayer:forKey:). `*out` arrives as CONTINUE (all zero);
 *  leave it for "not mine, continue the search", set kind NULL to stop it, ANIMATION with an
 *  animation id (live when you return; the engine copies it when the action runs and does
 *  not take over your reference: answer with animations you keep, e.g. made once), or
 *  CALLBACK with a callback and user (the engine never releases those: `release` is
 *  ignored). `layer` and `key` are borrowed for the call. Return 0, or nonzero for an error
 *  (see "Errors" above; *out is then ignored). */
typedef int32_t (*caluna_action_delegate_callback)(caluna_engine *e, caluna_layer layer, const char *key,
                                                   void *user, caluna_action *out);

/** Sets (or, with callback NULL, removes) the layer's action delegate; it is asked first,
 *  for every action lookup of the layer. The engine holds it for the layer: `release` (may
 *  be NULL) runs with `user` exactly once when it is replaced or removed, when the layer
 *  dies, or when the engine is destroyed. One delegate slot serves the C delegate and a Lua
 *  script's `layer.delegate` / layoutSublayers: a delegate the layer had before is kept
 *  behind this one (its layout callback still runs, and it answers what this one
 *  continues past) and comes back when this one is removed; a script setting its delegate
 *  afterwards replaces this one (which stays held until removed or its layer dies).
 *  Status: OK; INVALID_ARGUMENT (a presentation layer); STALE_HANDLE. */
caluna_status caluna_layer_set_action_delegate(caluna_engine *e, caluna_layer layer,
                                               caluna_action_delegate_callback callback, void *user,
                                               caluna_release_callback release);

/** actionForKey: — runs the whole lookup for `key` (delegate, actions, style chain,
 *  default; the delegate callback is called) and writes the action that would run:
 *  CONTINUE when none would (a NULL entry, no entry and no default). An ANIMATION's id is
 *  an OWNED reference (release it with caluna_animation_release): the entry's own animation,
 *  the delegate's, or a new default one; a CALLBACK gives callback and user (release NULL).
 *  Whether actions are disabled does not matter here.
 *  Status: OK; INVALID_ARGUMENT (key or out NULL, not UTF-8); NOT_SUPPORTED (an action a Lua
 *  script set); a delegate's error; STALE_HANDLE. */
caluna_status caluna_layer_action_for_key(caluna_engine *e, caluna_layer layer, const char *key,
                                          caluna_action *out);

/** +defaultActionForKey: — ANIMATION with a new OWNED BasicAnimation of `key` for an
 *  animatable property (keyPath `key`, the current transaction's duration and timing
 *  function, else 0.25 s on "default"), a new OWNED fade Transition for "contents", else
 *  CONTINUE. Status: OK; INVALID_ARGUMENT (key or out NULL, not UTF-8); STALE_HANDLE. */
caluna_status caluna_default_action_for_key(caluna_engine *e, const char *key, caluna_action *out);

/* ---------------------------------------------------------------------------------------- */
/* Images (ABI 1.3)                                                                         */
/* ---------------------------------------------------------------------------------------- */
/*
 * A caluna_image is a bitmap of width × height pixels (premultiplied sRGB, 8 bits per
 * channel, no colour management): what a layer's "contents" shows and what a draw callback
 * or a snapshot makes. Images do not change once made — except a layer's drawn backing store,
 * which a display of a dirty rectangle redraws in place. At most 16384 pixels per side and
 * 2^27 pixels in all; neither side 0.
 *
 * Ids. caluna_image is a 64-bit id like caluna_layer (engine tag, generation, kind, slot;
 * 0 = none). An id that is dead, belongs to another engine or names another kind of object
 * is CALUNA_ERR_STALE_HANDLE, never a crash. Images of one engine cannot be used in another.
 *
 * Ownership.
 *   - caluna_image_load_file, caluna_image_load_data, caluna_image_from_pixels and
 *     caluna_layer_snapshot return an OWNED reference: the image lives at least until you
 *     call caluna_image_release (once per load/make/snapshot/retain).
 *   - Image ids read back (an IMAGE value from caluna_layer_get of "contents" — a drawn
 *     backing store too —, caluna_layer_get_presentation, an animation's value or tag) are
 *     BORROWED: valid while something holds the image. caluna_image_retain keeps one.
 *   - Whatever an IMAGE value is stored in holds the image: a layer's contents, an
 *     animation's fromValue/toValue/values, a tag, a transaction value. You may release your
 *     reference right after setting contents. Any number of layers may share one image; it
 *     is decoded and stored once (caluna_engine_stats counts its bytes once).
 *   - When nothing holds an image any more it is freed and its id becomes stale.
 */

/** Decodes a PNG or JPEG file (the format comes from the first bytes, never from the name):
 *  every PNG libpng reads (grey, palette, 1…16 bits, alpha, interlaced) and baseline or
 *  progressive JPEG (decoded opaque). *out is an OWNED reference. Counts in
 *  caluna_stats.images_decoded.
 *  Status: OK; INVALID_ARGUMENT (path or out NULL, path empty or not UTF-8, an image larger
 *  than the limits above — checked from the header before any pixel is allocated); IO_ERROR
 *  (missing or unreadable file, a directory or other non-regular file, empty, larger than
 *  1 GiB, not a PNG or JPEG, corrupt or truncated data); OUT_OF_MEMORY; STALE_HANDLE. */
caluna_status caluna_image_load_file(caluna_engine *e, const char *path, caluna_image *out);

/** Decodes a PNG or JPEG file held in memory: `size` bytes at `data` (1 byte … 1 GiB; the
 *  bytes are read during the call only). *out is an OWNED reference. Counts in
 *  caluna_stats.images_decoded.
 *  Status: OK; INVALID_ARGUMENT (data or out NULL, size 0 or larger than 1 GiB, not a PNG or
 *  JPEG, corrupt or truncated data, an image larger than the limits); OUT_OF_MEMORY;
 *  STALE_HANDLE. */
caluna_status caluna_image_load_data(caluna_engine *e, const void *data, size_t size, caluna_image *out);

/** Copies `width` × `height` pixels in `format` from `pixels`, `stride` bytes per row (rows
 *  top to bottom; ≥ width × 4). The call reads stride × (height − 1) + width × 4 bytes.
 *  STRAIGHT formats are premultiplied (rounded); in PREMULTIPLIED formats a colour channel
 *  above its alpha is clamped to it. *out is an OWNED reference; the caller keeps `pixels`.
 *  Status: OK; INVALID_ARGUMENT (pixels or out NULL, width or height ≤ 0 or beyond the
 *  limits, stride too small, unknown format); OUT_OF_MEMORY; STALE_HANDLE. */
caluna_status caluna_image_from_pixels(caluna_engine *e, int32_t width, int32_t height, int32_t stride,
                                       caluna_pixel_format format, const void *pixels, caluna_image *out);

/** One more owned reference. Status: OK; STALE_HANDLE; INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_image_retain(caluna_engine *e, caluna_image image);

/** Drops one owned reference (from load, from_pixels, snapshot or retain). An image that
 *  nothing else holds (no layer shows it) is freed; its id becomes stale.
 *  Status: OK; INVALID_ARGUMENT (no owned reference left); STALE_HANDLE. */
caluna_status caluna_image_release(caluna_engine *e, caluna_image image);

/** The size in pixels. Status: OK; INVALID_ARGUMENT (a NULL pointer); STALE_HANDLE. */
caluna_status caluna_image_size(caluna_engine *e, caluna_image image, int32_t *width, int32_t *height);

/** The decoded bytes the image holds (its row stride × height; what caluna_stats counts).
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_image_byte_count(caluna_engine *e, caluna_image image, size_t *out);

/** Copies the pixels into the caller-owned `buffer` in `format`, rows top to bottom,
 *  `stride` bytes per row (≥ width × 4); `buffer_size` must be ≥ stride × height. Padding
 *  bytes at the end of a row are not touched. STRAIGHT formats un-premultiply (rounded).
 *  Status: OK; INVALID_ARGUMENT (buffer NULL, stride or buffer too small, unknown format);
 *  STALE_HANDLE. */
caluna_status caluna_image_read_pixels(caluna_engine *e, caluna_image image, void *buffer, size_t buffer_size,
                                       int32_t stride, caluna_pixel_format format);

/** Writes the image as a PNG file (8-bit RGBA, straight alpha).
 *  Status: OK; INVALID_ARGUMENT (path NULL, empty or not UTF-8); IO_ERROR; OUT_OF_MEMORY;
 *  STALE_HANDLE. */
caluna_status caluna_image_write_png(caluna_engine *e, caluna_image image, const char *path);

/* ---------------------------------------------------------------------------------------- */
/* Contents and visual effects (ABI 1.3)                                                    */
/* ---------------------------------------------------------------------------------------- */
/*
 * These layer keys work through caluna_layer_set / caluna_layer_get (and animate where Core
 * Animation animates them; * marks animatable ones):
 *
 *   "contents"*           IMAGE or NIL (default NIL). What the layer shows: an image you made,
 *                         or the backing store its display drew.
 *   "contentsGravity"     STRING "resize" (default), "resizeAspect", "resizeAspectFill",
 *                         "center", "top", "bottom", "left", "right", "topLeft", "topRight",
 *                         "bottomLeft", "bottomRight" ("top" is the top edge on screen, y down)
 *   "contentsScale"       NUMBER pixels per point of the contents, (0, 64], default 1 (also the
 *                         scale of the backing store a display draws)
 *   "contentsRect"*       RECT in unit coordinates of the image, default (0, 0, 1, 1)
 *   "contentsCenter"*     RECT in unit coordinates: the nine-slice stretchable centre,
 *                         default (0, 0, 1, 1)
 *   "minificationFilter", "magnificationFilter"   STRING "linear" (default), "nearest",
 *                         "trilinear"
 *   "minificationFilterBias"  NUMBER, default 0
 *   "opaque"              BOOL, default false (a display starts from black, not transparent)
 *   "needsDisplayOnBoundsChange"  BOOL, default false
 *   "drawsAsynchronously" BOOL, default false (kept; drawing is synchronous)
 *   "cornerRadius"*       NUMBER points ≥ 0, default 0: rounds the background and border (and
 *                         with masksToBounds, everything)
 *   "maskedCorners"       NUMBER 0…15 (CACornerMask bits: 1 minXMinY, 2 maxXMinY, 4 minXMaxY,
 *                         8 maxXMaxY), default 15
 *   "borderWidth"*        NUMBER points ≥ 0, default 0, drawn inside the bounds, above sublayers
 *   "borderColor"*        COLOR or NIL, default opaque black
 *   "shadowOpacity"*      NUMBER, default 0 (no shadow); "shadowColor"* COLOR or NIL (black);
 *   "shadowOffset"*       SIZE points, default (0, −3) (y down: −3 is up);
 *   "shadowRadius"*       NUMBER points 0…1000, default 3 (Gaussian blur; 0 = a hard edge)
 *   "shadowPath"*         PATH or NIL: the shadow's shape (non-zero fill) instead of the
 *                         layer's alpha; see also caluna_layer_set_shadow_path
 *   "shouldRasterize"     BOOL, default false: the layer is cached as a bitmap (see
 *                         caluna_stats raster_cache_hits / _misses)
 *   "rasterizationScale"  NUMBER (0, 64], default 1
 *   "allowsGroupOpacity"  BOOL, default true (false: the book's iOS 6 behaviour)
 *
 * Changing "contents" of a committed layer runs Core Animation's implicit "contents" action,
 * a 0.25 s fade: to see the final pixels at once, disable actions
 * (caluna_transaction_set_disable_actions) or set contents before the first render.
 */

/** Sets shadowPath from `count` path elements (copied; coordinates finite and within ±1e8
 *  points, in the layer's coordinates). `elements` NULL with count 0 sets nil (the shadow
 *  follows the layer's alpha); a non-NULL pointer with count 0 sets an empty path (no
 *  shadow at all, as in Core Animation). Same as caluna_layer_set("shadowPath", PATH/NIL):
 *  a committed layer animates the change unless actions are disabled.
 *  Status: OK; INVALID_ARGUMENT (elements NULL with a count, count > 2^20, a point NaN/∞ or
 *  out of range, an unknown element type, a presentation layer); STALE_HANDLE. */
caluna_status caluna_layer_set_shadow_path(caluna_engine *e, caluna_layer layer,
                                           const caluna_path_element *elements, size_t count);

/** Reads shadowPath: writes at most `capacity` elements to `out` (which may be NULL when
 *  capacity is 0) and sets *count to the full number of elements (0 when nil or empty; tell
 *  them apart with caluna_layer_get("shadowPath"): NIL or PATH). Call once with capacity 0
 *  to size the buffer. Status: OK; INVALID_ARGUMENT (count NULL, out NULL with a
 *  capacity); STALE_HANDLE. */
caluna_status caluna_layer_shadow_path(caluna_engine *e, caluna_layer layer, caluna_path_element *out,
                                       size_t capacity, size_t *count);

/** Sets the layer's mask (CALayer.mask; 0 removes it): the alpha of the mask layer's whole
 *  subtree cuts the layer (its contents, sublayers, border and shadow); colour is ignored.
 *  The mask is laid out in the layer's coordinates like a sublayer but is not one (its
 *  superlayer stays 0). The layer holds its mask: you may release your reference after.
 *  The mask must have no superlayer, mask no other layer, not be the layer or one of its
 *  ancestors, and not be the root layer. Combined with masksToBounds, both apply.
 *  Status: OK; TREE (one of those rules broken, nesting deeper than CALUNA_MAX_TREE_DEPTH);
 *  INVALID_ARGUMENT (a presentation layer); STALE_HANDLE (layer or mask). */
caluna_status caluna_layer_set_mask(caluna_engine *e, caluna_layer layer, caluna_layer mask);

/** The layer's mask (borrowed), or 0 when it has none (status OK).
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_layer_mask(caluna_engine *e, caluna_layer layer, caluna_layer *out);

/* ---------------------------------------------------------------------------------------- */
/* Display and draw callbacks (ABI 1.3)                                                     */
/* ---------------------------------------------------------------------------------------- */
/*
 * A layer draws its content only when asked (the book's chapter 2): caluna_layer_display
 * now, or caluna_layer_set_needs_display and then a display pass — which every
 * caluna_engine_step / advance / flush and caluna_render runs for the marked layers of the
 * engine's tree (a marked layer outside the tree waits until it is in it; no display pass
 * runs while an explicit transaction is open). Drawn content is cached: rendering again does
 * not draw again.
 *
 * A display draws through the layer's draw callback (caluna_layer_set_draw_callback; a Lua
 * script's delegate displayLayer/drawLayer when the layer has one and no C callback) into a
 * new transparent backing store of bounds × contentsScale pixels (rounded up; black first
 * when "opaque"), which then becomes "contents" (an IMAGE whose id is borrowed). A display
 * of a dirty rectangle (set_needs_display_in_rect) redraws only those pixels of the current
 * store, clipped to them. A layer with no way to draw gets contents NIL on display (so do
 * not display a layer whose contents you set yourself). A bounds of less than one pixel
 * gives contents NIL; more than 16384 pixels a side is INVALID_ARGUMENT.
 *
 * A draw callback receives a caluna_context: a Core Graphics context in the layer's points
 * (y down, origin at bounds.origin, scaled by contentsScale, clipped to the bounds or the
 * dirty rectangle). It is valid ONLY during that call; any caluna_context_* call with it
 * afterwards (or from another engine) is CALUNA_ERR_STALE_HANDLE. Draw callbacks run on the
 * thread of the call that displays (caluna_layer_display[_if_needed], or the step, flush or
 * render that runs the display pass) and may call back into the engine like other callbacks
 * (see "Display links and timers": no step, flush or render). A layer cannot display itself
 * from inside its own draw callback (INVALID_ARGUMENT); draw callbacks nest at most 32 deep.
 *
 * Errors. The callback returns 0 for success; any other value is the error of the call that
 * ran the display: the value itself when it is a caluna_status, else CALUNA_ERR_SCRIPT. What
 * it drew before failing still becomes the contents.
 */

/** Marks the whole layer for the next display pass (setNeedsDisplay).
 *  Status: OK; INVALID_ARGUMENT (a presentation layer); STALE_HANDLE. */
caluna_status caluna_layer_set_needs_display(caluna_engine *e, caluna_layer layer);

/** Marks a rectangle of the layer (points in its bounds space; a negative size is
 *  standardised; an empty rect marks nothing) for the next display pass
 *  (setNeedsDisplayInRect:). Marks add up (their union is redrawn).
 *  Status: OK; INVALID_ARGUMENT (NaN/∞, beyond ±1e8, a presentation layer); STALE_HANDLE. */
caluna_status caluna_layer_set_needs_display_in_rect(caluna_engine *e, caluna_layer layer, double x, double y,
                                                     double width, double height);

/** needsDisplay: *out is 1 while the layer is marked and not yet displayed, else 0.
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_layer_needs_display(caluna_engine *e, caluna_layer layer, int32_t *out);

/** display: redraws the whole layer now (in or out of a tree) and clears its mark. A layer
 *  whose contents was shown before runs the "contents" action (see above).
 *  Status: OK; the draw callback's error; INVALID_ARGUMENT (a presentation layer, the layer
 *  is drawing now, a backing store too large); SCRIPT (a Lua delegate raised); OUT_OF_MEMORY;
 *  STALE_HANDLE. */
caluna_status caluna_layer_display(caluna_engine *e, caluna_layer layer);

/** displayIfNeeded: displays the layer now if it is marked (only the marked rectangle when
 *  set_needs_display_in_rect marked it), else does nothing. Status: as caluna_layer_display. */
caluna_status caluna_layer_display_if_needed(caluna_engine *e, caluna_layer layer);

/** A drawing context id (ABI 1.3): valid only inside the draw callback that received it. */
typedef uint64_t caluna_context;

/** A draw callback (a subclass's drawInContext:): draw `layer` (borrowed) into `ctx` with the
 *  caluna_context_* calls. Return 0, or nonzero for an error (see "Errors" above). */
typedef int32_t (*caluna_draw_callback)(caluna_engine *e, caluna_layer layer, caluna_context ctx, void *user);

/** Sets (or, with callback NULL, removes) the layer's draw callback. It does not draw by
 *  itself: call caluna_layer_display or set_needs_display. The callback takes precedence
 *  over a Lua delegate's drawLayer (a Lua displayLayer still comes first, as in Core
 *  Animation). The engine holds `user`: `release` (may be NULL) runs with it exactly once
 *  when the callback is replaced or removed, when the layer dies, or when the engine is
 *  destroyed (see caluna_release_callback); not when this call fails. With callback NULL,
 *  user and release are ignored.
 *  Status: OK; INVALID_ARGUMENT (a presentation layer, NULL engine); STALE_HANDLE. */
caluna_status caluna_layer_set_draw_callback(caluna_engine *e, caluna_layer layer, caluna_draw_callback callback,
                                             void *user, caluna_release_callback release);

/* ---------------------------------------------------------------------------------------- */
/* Drawing contexts (ABI 1.3)                                                               */
/* ---------------------------------------------------------------------------------------- */
/*
 * Core Graphics' CGContext, one call per operation, for use inside a draw callback. Units:
 * points of the layer (y down, origin at bounds.origin, positive angles turn clockwise on
 * screen), angles in radians, colours sRGB 0…1 straight alpha (clamped to 0…1). The current
 * path follows CG: path calls build it in the current user space; fill, stroke, draw_path,
 * the rect and ellipse painting calls, clip and eo_clip consume it; clip_to_rect, gradients,
 * images and text leave it alone. Defaults: fill and stroke colour opaque black, line width
 * 1, cap "butt", join "miter", miter limit 10, no dash, alpha 1, antialiasing on, font
 * "DejaVu Sans" 12.
 *
 * Common statuses of every caluna_context_* call: OK; STALE_HANDLE (ctx outside its
 * callback, 0, foreign or not a context; the engine); INVALID_ARGUMENT (NaN or ∞ anywhere,
 * a coordinate or length beyond ±1e8 points, an angle beyond ±1e6 radians, a negative width
 * or radius, a NULL or non-UTF-8 string, an unknown name, a NULL pointer with a count, a
 * count out of range); OUT_OF_MEMORY. An error leaves the context usable.
 */

/** CGContextSetFillColor (components clamped to 0…1). */
caluna_status caluna_context_set_fill_color(caluna_engine *e, caluna_context ctx, double r, double g, double b, double a);
/** CGContextSetStrokeColor (components clamped to 0…1). */
caluna_status caluna_context_set_stroke_color(caluna_engine *e, caluna_context ctx, double r, double g, double b, double a);
/** CGContextSetAlpha: 0…1, multiplies every later fill, stroke, gradient, image and text. */
caluna_status caluna_context_set_alpha(caluna_engine *e, caluna_context ctx, double alpha);
/** CGContextSetLineWidth: points ≥ 0, applied at stroke time; 0 strokes a one-pixel hairline. */
caluna_status caluna_context_set_line_width(caluna_engine *e, caluna_context ctx, double width);
/** CGContextSetLineCap: "butt", "round" or "square". */
caluna_status caluna_context_set_line_cap(caluna_engine *e, caluna_context ctx, const char *cap);
/** CGContextSetLineJoin: "miter", "round" or "bevel". */
caluna_status caluna_context_set_line_join(caluna_engine *e, caluna_context ctx, const char *join);
/** CGContextSetMiterLimit: > 0. */
caluna_status caluna_context_set_miter_limit(caluna_engine *e, caluna_context ctx, double limit);
/** CGContextSetLineDash: `count` on/off lengths in points (0…1024, each ≥ 0, not all 0),
 *  starting `phase` points into the pattern; count 0 (lengths may be NULL) strokes solid. */
caluna_status caluna_context_set_line_dash(caluna_engine *e, caluna_context ctx, double phase,
                                           const double *lengths, size_t count);
/** CGContextSetShouldAntialias: non-zero on (default), 0 off. */
caluna_status caluna_context_set_should_antialias(caluna_engine *e, caluna_context ctx, int32_t on);
/** CGContextSaveGState: pushes transform, clip, line style, dash, antialiasing, colours, alpha
 *  and font (not the path); at most 4096 deep. */
caluna_status caluna_context_save_gstate(caluna_engine *e, caluna_context ctx);
/** CGContextRestoreGState: INVALID_ARGUMENT without a matching save. */
caluna_status caluna_context_restore_gstate(caluna_engine *e, caluna_context ctx);
/** The backing store's pixels per point (the layer's contentsScale). */
caluna_status caluna_context_contents_scale(caluna_engine *e, caluna_context ctx, double *out);

/** CGContextTranslateCTM (points). A transform that would become degenerate or out of range
 *  is refused (INVALID_ARGUMENT) and leaves the CTM as it was — for every CTM call. */
caluna_status caluna_context_translate(caluna_engine *e, caluna_context ctx, double tx, double ty);
/** CGContextScaleCTM: factors not 0. */
caluna_status caluna_context_scale(caluna_engine *e, caluna_context ctx, double sx, double sy);
/** CGContextRotateCTM: radians, positive turns clockwise on screen. */
caluna_status caluna_context_rotate(caluna_engine *e, caluna_context ctx, double radians);
/** CGContextConcatCTM with the affine transform [a b; c d; tx ty] (CGAffineTransform's fields:
 *  x' = a·x + c·y + tx, y' = b·x + d·y + ty), applied before the current one; invertible. */
caluna_status caluna_context_concat(caluna_engine *e, caluna_context ctx, double a, double b, double c, double d,
                                    double tx, double ty);
/** CGContextGetCTM: out[0…5] = a, b, c, d, tx, ty of the user → layer-point transform
 *  (identity at the start; the pixel scale is not included). */
caluna_status caluna_context_get_ctm(caluna_engine *e, caluna_context ctx, double *out);

/** CGContextBeginPath: discards the current path. */
caluna_status caluna_context_begin_path(caluna_engine *e, caluna_context ctx);
/** CGContextMoveToPoint. */
caluna_status caluna_context_move_to(caluna_engine *e, caluna_context ctx, double x, double y);
/** CGContextAddLineToPoint (INVALID_ARGUMENT without a current point, for every segment call). */
caluna_status caluna_context_add_line_to(caluna_engine *e, caluna_context ctx, double x, double y);
/** CGContextAddCurveToPoint: controls (c1x, c1y), (c2x, c2y), end (x, y). */
caluna_status caluna_context_add_curve_to(caluna_engine *e, caluna_context ctx, double c1x, double c1y,
                                          double c2x, double c2y, double x, double y);
/** CGContextAddQuadCurveToPoint: control (cx, cy), end (x, y). */
caluna_status caluna_context_add_quad_curve_to(caluna_engine *e, caluna_context ctx, double cx, double cy,
                                               double x, double y);
/** An arc of `radius` (≥ 0) around (cx, cy) from start_angle to end_angle (radians from +x);
 *  `clockwise` non-zero turns clockwise on screen (increasing angle, UIBezierPath's meaning).
 *  A line joins the current point to the arc's start if there is one; more than a full turn
 *  draws one circle. */
caluna_status caluna_context_add_arc(caluna_engine *e, caluna_context ctx, double cx, double cy, double radius,
                                     double start_angle, double end_angle, int32_t clockwise);
/** CGContextAddRect: a closed subpath. */
caluna_status caluna_context_add_rect(caluna_engine *e, caluna_context ctx, double x, double y, double width,
                                      double height);
/** CGContextAddEllipseInRect. */
caluna_status caluna_context_add_ellipse_in_rect(caluna_engine *e, caluna_context ctx, double x, double y,
                                                 double width, double height);
/** A rounded rectangle (UIBezierPath roundedRect:cornerRadius:): the radius (≥ 0) is clamped to
 *  half the shorter side. */
caluna_status caluna_context_add_rounded_rect(caluna_engine *e, caluna_context ctx, double x, double y,
                                              double width, double height, double corner_radius);
/** CGContextAddPath: appends `count` elements (0…2^20; checked first, so a bad path adds
 *  nothing; it must start with MOVE unless there is a current point). */
caluna_status caluna_context_add_path(caluna_engine *e, caluna_context ctx, const caluna_path_element *elements,
                                      size_t count);
/** CGContextClosePath (INVALID_ARGUMENT without a current point). */
caluna_status caluna_context_close_path(caluna_engine *e, caluna_context ctx);

/** CGContextFillPath (non-zero winding). */
caluna_status caluna_context_fill_path(caluna_engine *e, caluna_context ctx);
/** CGContextEOFillPath (even-odd). */
caluna_status caluna_context_eo_fill_path(caluna_engine *e, caluna_context ctx);
/** CGContextStrokePath. */
caluna_status caluna_context_stroke_path(caluna_engine *e, caluna_context ctx);
/** CGContextDrawPath: `mode` "fill", "eoFill", "stroke", "fillStroke" or "eoFillStroke". */
caluna_status caluna_context_draw_path(caluna_engine *e, caluna_context ctx, const char *mode);
/** CGContextFillRect. */
caluna_status caluna_context_fill_rect(caluna_engine *e, caluna_context ctx, double x, double y, double width,
                                       double height);
/** CGContextStrokeRect (the line is centred on the edges). */
caluna_status caluna_context_stroke_rect(caluna_engine *e, caluna_context ctx, double x, double y, double width,
                                         double height);
/** CGContextClearRect: the pixels become transparent (inside the clip). */
caluna_status caluna_context_clear_rect(caluna_engine *e, caluna_context ctx, double x, double y, double width,
                                        double height);
/** CGContextFillEllipseInRect. */
caluna_status caluna_context_fill_ellipse_in_rect(caluna_engine *e, caluna_context ctx, double x, double y,
                                                  double width, double height);
/** CGContextStrokeEllipseInRect. */
caluna_status caluna_context_stroke_ellipse_in_rect(caluna_engine *e, caluna_context ctx, double x, double y,
                                                    double width, double height);

/** CGContextClip: intersects the clip with the current path (non-zero), consuming it. */
caluna_status caluna_context_clip(caluna_engine *e, caluna_context ctx);
/** CGContextEOClip (even-odd). */
caluna_status caluna_context_eo_clip(caluna_engine *e, caluna_context ctx);
/** CGContextClipToRect (the current path is kept). */
caluna_status caluna_context_clip_to_rect(caluna_engine *e, caluna_context ctx, double x, double y, double width,
                                          double height);
/** CGContextGetClipBoundingBox in the current user space (zero size when all is clipped). */
caluna_status caluna_context_clip_bounding_box(caluna_engine *e, caluna_context ctx, double *x, double *y,
                                               double *width, double *height);

/** Options of the gradient calls (CGGradientDrawingOptions): extend the first / last
 *  colour beyond the start / end. */
#define CALUNA_GRADIENT_DRAWS_BEFORE_START 1u
#define CALUNA_GRADIENT_DRAWS_AFTER_END 2u

/** CGContextDrawLinearGradient: paints the whole clip with `count` colours (1…1024; `colors`
 *  holds 4 × count doubles r, g, b, a) at `locations` (count numbers in 0…1, or NULL for
 *  evenly spaced) along (start_x, start_y) → (end_x, end_y). `options` is 0 or an OR of
 *  CALUNA_GRADIENT_DRAWS_*; other bits are INVALID_ARGUMENT. One colour paints a solid. */
caluna_status caluna_context_draw_linear_gradient(caluna_engine *e, caluna_context ctx, const double *colors,
                                                  const double *locations, size_t count, double start_x,
                                                  double start_y, double end_x, double end_y, uint32_t options);
/** CGContextDrawRadialGradient: as the linear one, from the start circle to the end circle
 *  (radii ≥ 0). */
caluna_status caluna_context_draw_radial_gradient(caluna_engine *e, caluna_context ctx, const double *colors,
                                                  const double *locations, size_t count, double start_x,
                                                  double start_y, double start_radius, double end_x, double end_y,
                                                  double end_radius, uint32_t options);

/** Draws `image` scaled into the rect, upright (row 0 at the rect's top), bilinear, times the
 *  context alpha (UIImage drawInRect:). An empty rect draws nothing. The image of the store
 *  being drawn into is refused. Also STALE_HANDLE for a bad image id. */
caluna_status caluna_context_draw_image(caluna_engine *e, caluna_context ctx, caluna_image image, double x, double y,
                                        double width, double height);

/** Sets the font: `name` a family ("DejaVu Sans", "monospace") or a pango description whose
 *  family and style count ("DejaVu Serif Bold Italic"), 1…256 bytes; `size` in points
 *  (0, 1000]. A family that is not installed is INVALID_ARGUMENT (no silent fallback). */
caluna_status caluna_context_set_font(caluna_engine *e, caluna_context ctx, const char *name, double size);
/** Draws UTF-8 `text` (at most 65536 bytes; newlines break lines) unwrapped with its top-left
 *  corner (not the baseline) at (x, y), in the fill colour and alpha. */
caluna_status caluna_context_show_text(caluna_engine *e, caluna_context ctx, const char *text, double x, double y);
/** Draws `text` word-wrapped at the rect's width, top-aligned, clipped to the rect;
 *  `alignment` "left" (also for NULL), "center", "right" or "justified". */
caluna_status caluna_context_draw_text(caluna_engine *e, caluna_context ctx, const char *text, double x, double y,
                                       double width, double height, const char *alignment);
/** The size in points the text takes in the current font (line height included), wrapped at
 *  `width` points when width > 0 (≤ 0: unlimited). */
caluna_status caluna_context_text_size(caluna_engine *e, caluna_context ctx, const char *text, double width,
                                       double *out_width, double *out_height);

/** renderInContext: draws `layer` and its sublayers (as the model is now; animations are not
 *  sampled) into `ctx` at its current transform, in the layer's bounds space (its own
 *  transform and position are not applied; its opacity is). A tree that shows the store
 *  being drawn into is refused (INVALID_ARGUMENT). Statuses as for context calls, plus
 *  STALE_HANDLE for the layer and NOT_SUPPORTED for what the renderer cannot draw. */
caluna_status caluna_layer_render_in_context(caluna_engine *e, caluna_layer layer, caluna_context ctx);

/** A new image of the layer drawn as by caluna_layer_render_in_context: bounds × `scale`
 *  pixels (rounded up; scale in (0, 64]). *out is an OWNED reference.
 *  Status: OK; INVALID_ARGUMENT (out NULL, a bad scale, an empty or too large size);
 *  NOT_SUPPORTED; OUT_OF_MEMORY; STALE_HANDLE. */
caluna_status caluna_layer_snapshot(caluna_engine *e, caluna_layer layer, double scale, caluna_image *out);

/* ---------------------------------------------------------------------------------------- */
/* Frame statistics (ABI 1.3)                                                               */
/* ---------------------------------------------------------------------------------------- */

/** What the last frame cost (the book's chapters 12–15 measure these). Counters cover the
 *  last caluna_render / caluna_render_png together with the display work done since the
 *  render before it (draw callbacks, dirty pixels, images decoded); gauges describe the
 *  layer tree now. Set struct_size to sizeof(caluna_stats) before the call: the library
 *  writes only the fields that fit in it, so a host built against an older header keeps
 *  working with a newer library (fields added later go at the end). */
typedef struct caluna_stats {
    /** sizeof(caluna_stats) as the caller compiled it; at least sizeof(size_t). */
    size_t struct_size;
    /** Layers the render looked at (hidden ones included). */
    int64_t layers_visited;
    /** Backgrounds and contents painted (a layer with both counts 2). */
    int64_t layers_drawn;
    /** Offscreen buffers the render composited through (group opacity, masks, shadows,
     *  rasterization, transitions). */
    int64_t offscreen_passes;
    /** Pixels of those offscreen buffers, in all. */
    int64_t offscreen_pixels;
    /** shouldRasterize layers drawn from their cached bitmap / redrawn into it. */
    int64_t raster_cache_hits;
    int64_t raster_cache_misses;
    /** Draw callbacks (C, Lua) and displayLayer calls run. */
    int64_t draw_callbacks;
    /** Backing-store pixels redrawn (a dirty rectangle counts only its own pixels). */
    int64_t dirty_pixels;
    /** Images decoded from PNG/JPEG (files or memory; C and Lua). */
    int64_t images_decoded;
    /** Bytes now held by raster caches, drawn backing stores and other images of the tree
     *  (each image once, however many layers show it; images no layer shows are not
     *  counted). */
    int64_t raster_cache_bytes;
    int64_t backing_store_bytes;
    int64_t image_bytes;
    /** Physics steps run since the previous stats, and the wall-clock microseconds they
     *  took (ABI 1.7; for budgets, never for tests). */
    int64_t physics_steps;
    int64_t physics_step_microseconds;
    /** Text layers laid out again (a move or a fade reuses the layout) (ABI 1.7). */
    int64_t text_layouts;
    /** Tiles tiled layers drew, each through one draw callback (ABI 1.7). */
    int64_t tiles_drawn;
    /** Emitter particles the last render drew (ABI 1.7). */
    int64_t particles_drawn;
    /** Pixels the last render wrote and the rectangles they form: the damage of a render
     *  target, the whole frame (1 rectangle) for caluna_render (ABI 1.9). */
    int64_t damaged_pixels;
    int64_t damage_rects;
    /** 1 when the last render redrew the whole frame (ABI 1.9). */
    int64_t full_redraws;
    /** Shadows whose blurred mask the engine had kept (the same silhouette, blur and
     *  size as before: a later frame, or an identical shape at a whole-pixel offset) /
     *  had to blur and kept (ABI 1.9). */
    int64_t effect_cache_hits;
    int64_t effect_cache_misses;
    /** Threads the last render drew on (1 without workers; 0 when it drew nothing) and the
     *  bands it cut its region into, one per thread (ABI 1.10; see
     *  caluna_engine_options.render_threads). */
    int64_t render_threads;
    int64_t bands_drawn;
} caluna_stats;

typedef char caluna_stats_layout_check_[(sizeof(caluna_stats) == 200 && offsetof(caluna_stats, layers_visited) == 8) ? 1 : -1];

/** All zero with struct_size set: what caluna_engine_stats expects. */
static inline caluna_stats caluna_stats_default(void) {
    caluna_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    return s;
}

/** Fills *out (up to out->struct_size bytes; start from caluna_stats_default()) with the
 *  engine's frame statistics. On failure the fields that fit are 0.
 *  Status: OK; INVALID_ARGUMENT (out NULL, struct_size < sizeof(size_t)); STALE_HANDLE. */
caluna_status caluna_engine_stats(caluna_engine *e, caluna_stats *out);

/* ---------------------------------------------------------------------------------------- */
/* Physics (ABI 1.4)                                                                        */
/* ---------------------------------------------------------------------------------------- */
/*
 * A Chipmunk 7 world (cpSpace) with bodies, shapes, constraints, collision handlers and
 * queries, stepped by the engine's clock, with layers that follow bodies. The Lua side is
 * ca.physics (docs/physics.md); both use the same property tables, so a key or a rule that
 * holds in Lua holds here. A guide is in docs/c-physics.md.
 *
 * Units and axes. A world has the scene's units: points, seconds, radians, any mass unit.
 * Chipmunk is y-up and its angles turn counter-clockwise: the book puts the layers in a
 * geometryFlipped container so both share one space; a caluna_layer_mapping with flip_y
 * places a y-up world in an ordinary (y-down) container instead. A y-down world works too
 * (give gravity a positive y).
 *
 * Stepping. Each caluna_engine_step / advance runs fixed steps of the world's "step" seconds
 * (default 1/120) until the simulation has caught up with the clock — it may run up to one
 * step ahead — then moves bound layers (actions off). The accumulator counts clock ticks:
 * one second is exactly 120 steps however the host splits its frames, and the results are
 * bit-for-bit deterministic. "maxStepsPerFrame" (default 16; 0: no cap) caps the steps of one
 * catch-up (a frame, or an input instant within one); the backlog beyond it is dropped and
 * counted in "droppedSteps", so a long frame (caluna_engine_advance to a far time) costs at
 * most 16 steps instead of spiralling. Worlds step in the order they were made,
 * after timers and display links, before animation events. A world with "paused" true is not
 * stepped by the clock (and does not catch up when resumed); caluna_world_step steps any
 * world by hand, paused or not (the book's variable step, listing 11.3).
 *
 * Ids. caluna_world, caluna_body, caluna_shape, caluna_constraint and caluna_arbiter are
 * 64-bit ids like caluna_layer (engine tag, generation, kind, slot; 0 = none). An id that is
 * 0, dead, of another engine or of another kind is CALUNA_ERR_STALE_HANDLE, never a crash.
 *
 * Ownership.
 *   - The engine holds a world from caluna_world_create until caluna_world_destroy (or the
 *     engine's destruction); there is nothing to release. Its id is stale from then on.
 *   - caluna_body_create and caluna_constraint_create return OWNED references: release them
 *     with caluna_body_release / caluna_constraint_release (once per create/retain). A world
 *     holds the bodies and constraints added to it, a body its shapes, a constraint its two
 *     bodies: create, add, release is the usual pattern.
 *   - Every other id (the static body, shapes from caluna_body_add_*, lists, query results,
 *     an arbiter's shapes and bodies, the body passed to an update callback) is BORROWED:
 *     valid while something holds the object. caluna_*_retain keeps one alive.
 *   - When nothing holds an object any more it dies and its id becomes stale.
 *   - A destroyed world lets go of its bodies: they stay usable outside any world and may
 *     join another. Its static body and the shapes on it become stale with it (as does a
 *     constraint that joins that static body).
 *   - A shape taken off its body (caluna_body_remove_shape), or whose body died, dies unless
 *     you hold a reference: one you hold can still be read, not changed (STALE_HANDLE).
 *   - An arbiter id is valid only inside the collision callback that received it.
 *
 * Callbacks. Collision handlers and update callbacks run inside the step that needs them
 * (caluna_engine_step / advance, caluna_world_step), on the calling thread, and may call back
 * into the engine like the other callbacks (not caluna_engine_step and the other calls listed
 * in "Display links and timers"). `user` is passed back untouched; the engine never frees it.
 * While a world steps:
 *   - adding and removing bodies, shapes and constraints succeeds and takes effect at the end
 *     of the step (queries see it after the step); a body removed during the step joins
 *     another world only after it (INVALID_ARGUMENT before);
 *   - changing a body's "type", "mass", "moment" or "centerOfGravity", a shape's "mass" or
 *     "density", sleeping or waking a body, setting a collision handler, stepping or
 *     destroying the world are INVALID_ARGUMENT (do them after the step).
 * A separate callback also runs outside a step when a removal ends a contact ("isRemoval"
 * is true), inside the call that removed; the same rules hold there, and additions and
 * removals it makes take effect before that call returns.
 *
 * Checks. Debian builds Chipmunk with its assertions on and a failed one aborts the process,
 * so every value is checked first (INVALID_ARGUMENT): numbers must be finite and within
 * ±1e15; masses and moments run from 1e-9 to 1e15 (a moment may also be ∞); polygons have
 * 3 to 256 points and a real area; segments have distinct ends; a constraint needs a dynamic
 * body (with a finite moment for the rotary kinds); a dynamic body needs a mass and a moment
 * (or shapes that give them) when its world steps. A body whose state leaves ±1e15 during a
 * step (a spring too stiff for the step) is stopped and the step reports INVALID_ARGUMENT
 * ("the simulation diverged"); the rest of the step's work is done. Chipmunk's one-time
 * stdout banner never reaches the host's output.
 *
 * Caps. Chipmunk allocates a record for every pair of shapes whose bounding boxes overlap
 * and crashes when memory runs out, so a world refuses, with OUT_OF_MEMORY and nothing
 * changed, what would pass one of its caps (world properties, defaults in docs/physics.md):
 * "maxBodies" (20000), "maxShapes" (40000, its static body's included), "maxConstraints"
 * (40000), and "maxContactPairs" (100000 pairs of shapes that may touch during a step: an
 * added shape, a static body moved, a type change, or a step, which is then not run). A
 * world made in an engine with a sandbox (a memory limit) starts from lower caps (2000,
 * 4000, 4000, 20000; maxStepsPerFrame 1…16), which may be lowered, not raised.
 */

/** A physics world id (ABI 1.4). 0 means "no world". */
typedef uint64_t caluna_world;
/** A body id. */
typedef uint64_t caluna_body;
/** A shape id. */
typedef uint64_t caluna_shape;
/** A constraint id. */
typedef uint64_t caluna_constraint;
/** An arbiter id: a collision in progress, valid only inside the callback that received it. */
typedef uint64_t caluna_arbiter;
/** A collision type: a number below 2^48, or a number caluna_collision_type_named gave. */
typedef uint64_t caluna_collision_type;

/** A vector or point of the world (Chipmunk's cpVect). */
typedef struct caluna_vect {
    double x, y;
} caluna_vect;

/** Options for caluna_world_create; start from caluna_world_options_default(). Each field is
 *  the world property of the same name (see caluna_world_set for ranges). */
typedef struct caluna_world_options {
    /** sizeof(caluna_world_options) as the caller compiled it: at least 72 (LP64). */
    uint32_t struct_size;
    /** Solver iterations per step, 1…10000 (default 10). */
    int32_t iterations;
    /** Acceleration, units/s² (default (0, 0)). */
    double gravity_x, gravity_y;
    /** Fraction of velocity kept per second, 0…1 (default 1: none lost). */
    double damping;
    /** Speed below which a body counts as idle, ≥ 0 (default 0: estimated from gravity). */
    double idle_speed_threshold;
    /** Idle seconds before a group of bodies sleeps: > 0, or INFINITY (default: never). */
    double sleep_time_threshold;
    /** Overlap allowed between shapes, ≥ 0 (default Chipmunk's own, the float 0.1f =
     *  0.100000001490116…, so a port of plain Chipmunk code gives the same numbers). */
    double collision_slop;
    /** Seconds per fixed step, (0, 1] (default 1/120). */
    double step;
    /** Steps at most per catch-up of the engine clock; 0 = no cap (not in a sandbox; default 16). */
    int32_t max_steps_per_frame;
    /** Non-zero: not stepped by the clock (default 0). */
    int32_t paused;
} caluna_world_options;

typedef char caluna_world_options_layout_check_[(sizeof(caluna_world_options) == 72 && offsetof(caluna_world_options, gravity_x) == 8 && offsetof(caluna_world_options, paused) == 68) ? 1 : -1];

/** Chipmunk's defaults with the book's fixed step: struct_size set, no gravity, 10 iterations,
 *  damping 1, idle speed 0, no sleeping, slop 0.1f, step 1/120 s, at most 16 steps per
 *  frame, not paused. */
static inline caluna_world_options caluna_world_options_default(void) {
    caluna_world_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = CALUNA_CAST_(uint32_t, sizeof o);
    o.iterations = 10;
    o.damping = 1;
    o.sleep_time_threshold = INFINITY;
    o.collision_slop = 0.1f;
    o.step = 1.0 / 120;
    o.max_steps_per_frame = 16;
    return o;
}

/* ---- Worlds ---- */

/** Makes a world stepped by the engine's clock (see "Stepping"). `opts` may be NULL (the
 *  defaults). *out is the world's id; the engine holds the world until caluna_world_destroy.
 *  The first world of the process is also where Chipmunk's banner is silenced.
 *  Status: OK; INVALID_ARGUMENT (out NULL, struct_size too small, an option out of range);
 *  STALE_HANDLE (engine). */
caluna_status caluna_world_create(caluna_engine *e, const caluna_world_options *opts, caluna_world *out);

/** Removes everything from the world and frees it; the engine stops stepping it. Its bodies
 *  and constraints survive outside any world (with the references that hold them); its id,
 *  its static body and the static body's shapes become stale.
 *  Status: OK; INVALID_ARGUMENT (inside one of the world's callbacks); STALE_HANDLE. */
caluna_status caluna_world_destroy(caluna_engine *e, caluna_world world);

/** Reads a world property. Keys (type, range, default):
 *    "gravity" POINT (0, 0); "iterations" NUMBER, whole, 1…10000 (10); "damping" NUMBER 0…1
 *    (1); "idleSpeedThreshold" NUMBER ≥ 0 (0: from gravity); "sleepTimeThreshold" NUMBER
 *    > 0 or ∞ (∞: never); "collisionSlop" NUMBER ≥ 0 (0.1); "collisionBias" NUMBER 0…1
 *    (the fraction of overlap left after a second, (1 − 0.1)^60); "collisionPersistence"
 *    NUMBER, whole, 0…1000 (3 steps); "step" NUMBER (0, 1] s (1/120); "maxStepsPerFrame"
 *    NUMBER, whole, 0 (no cap) … 1e9 (16); "paused" BOOL (false); the caps (see "Caps"),
 *    NUMBER, whole, 0…1e9: "maxBodies" (20000), "maxShapes" (40000), "maxConstraints"
 *    (40000), "maxContactPairs" (100000) — in a sandboxed engine at most 2000, 4000, 4000,
 *    20000 and maxStepsPerFrame 1…16; read-only: "time" NUMBER (simulated seconds), "steps"
 *    and "droppedSteps" NUMBER (counts: steps run, steps maxStepsPerFrame dropped).
 *  On failure *out is NIL. Status: OK; INVALID_ARGUMENT (key or out NULL); UNKNOWN_KEY;
 *  STALE_HANDLE. */
caluna_status caluna_world_get(caluna_engine *e, caluna_world world, const char *key, caluna_value *out);

/** Sets a world property (keys as caluna_world_get; NUMBER values may be INFINITY where the
 *  key allows ∞). Status: OK; INVALID_ARGUMENT (key or value NULL, out of range, NaN, a
 *  read-only key); UNKNOWN_KEY; TYPE_MISMATCH; STALE_HANDLE. */
caluna_status caluna_world_set(caluna_engine *e, caluna_world world, const char *key, const caluna_value *value);

/** One step of `dt` seconds now (cpSpaceStep), outside the clock's accumulator; bound layers
 *  follow. Works on paused worlds. Collision and update callbacks run inside it.
 *  Status: OK; INVALID_ARGUMENT (dt not in (0, 10], inside one of the world's callbacks, a
 *  dynamic body without mass or moment, a constraint Chipmunk cannot solve, a diverged
 *  simulation); OUT_OF_MEMORY (more than "maxContactPairs" pairs of shapes could touch: the
 *  step is not run; or a position callback moved a body among too many: its move is
 *  undone); STALE_HANDLE. */
caluna_status caluna_world_step(caluna_engine *e, caluna_world world, double dt);

/** The world's own static body (cpSpaceGetStaticBody; BORROWED, stale once the world is
 *  destroyed): walls and floors are shapes on it. It is always in its world (adding or
 *  removing it is INVALID_ARGUMENT) and its type cannot change.
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_world_static_body(caluna_engine *e, caluna_world world, caluna_body *out);

/** Adds a body with its shapes; the world holds it from now on. Inside a step it takes effect
 *  at the end of the step. Status: OK; INVALID_ARGUMENT (already in this or another world, the
 *  static body of a world, removed from another world during a running step); OUT_OF_MEMORY
 *  ("maxBodies", "maxShapes" or "maxContactPairs" would be passed); STALE_HANDLE. */
caluna_status caluna_world_add_body(caluna_engine *e, caluna_world world, caluna_body body);

/** Removes a body, its shapes and the constraints that use it (the world lets go of them).
 *  Separate callbacks of its contacts run inside this call ("isRemoval" true).
 *  Status: OK; INVALID_ARGUMENT (not in this world, the static body); STALE_HANDLE. */
caluna_status caluna_world_remove_body(caluna_engine *e, caluna_world world, caluna_body body);

/** Adds a constraint; both its bodies must be in this world already. The world holds it.
 *  Status: OK; INVALID_ARGUMENT (already in a world, a body not in this world, no dynamic
 *  body (with a finite moment for the rotary kinds)); OUT_OF_MEMORY ("maxConstraints");
 *  STALE_HANDLE. */
caluna_status caluna_world_add_constraint(caluna_engine *e, caluna_world world, caluna_constraint constraint);

/** Removes a constraint. Status: OK; INVALID_ARGUMENT (not in this world); STALE_HANDLE. */
caluna_status caluna_world_remove_constraint(caluna_engine *e, caluna_world world, caluna_constraint constraint);

/** The world's bodies (not its static body), in the order they were added, BORROWED: the
 *  first min(capacity, total) go to `out` and the total to *count. `out` may be NULL when
 *  capacity is 0 (to ask for the count). On failure *count is 0 and nothing is written.
 *  This is how every list below works. Status: OK; INVALID_ARGUMENT (count NULL, out NULL
 *  with a capacity); STALE_HANDLE. */
caluna_status caluna_world_bodies(caluna_engine *e, caluna_world world, caluna_body *out, size_t capacity,
                                  size_t *count);

/** The world's constraints in the order they were added, BORROWED (a list as caluna_world_bodies). */
caluna_status caluna_world_constraints(caluna_engine *e, caluna_world world, caluna_constraint *out,
                                       size_t capacity, size_t *count);

/* ---- Bodies ---- */

/** The kinds of body: dynamic bodies move under forces and collisions, kinematic ones only by
 *  their velocity, static ones not at all. */
typedef enum caluna_body_type {
    CALUNA_BODY_DYNAMIC = 0,
    CALUNA_BODY_KINEMATIC = 1,
    CALUNA_BODY_STATIC = 2
} caluna_body_type;

/** A new body in no world (cpBodyNew …). For a dynamic body, `mass` is 1e-9…1e15 or 0 for
 *  "from its shapes" (their "mass" or "density"), and `moment` 1e-9…1e30, INFINITY (it never
 *  turns) or 0 for "computed from its shapes with the body's mass spread by area" (a 32 × 32
 *  box of mass 100 gives 17066.67, cpMomentForBox). Kinematic and static bodies take 0 for
 *  both. *out is an OWNED reference. Status: OK; INVALID_ARGUMENT (out NULL, an unknown type,
 *  a mass or moment out of range, negative or NaN, a mass for a kinematic or static body);
 *  STALE_HANDLE (engine). */
caluna_status caluna_body_create(caluna_engine *e, caluna_body_type type, double mass, double moment,
                                 caluna_body *out);

/** One more owned reference to a body. Status: OK; STALE_HANDLE; INVALID_ARGUMENT (too many). */
caluna_status caluna_body_retain(caluna_engine *e, caluna_body body);

/** Drops one owned reference. A body that nothing holds any more dies, its id becomes stale.
 *  Status: OK; INVALID_ARGUMENT (no owned reference left); STALE_HANDLE. */
caluna_status caluna_body_release(caluna_engine *e, caluna_body body);

/** Reads a body property. Keys:
 *    "type" STRING "dynamic", "kinematic" or "static"; "mass" NUMBER and "moment" NUMBER
 *    (dynamic bodies only; see caluna_body_create; a shape's mass or density replaces the
 *    mass); "position" POINT; "angle" NUMBER (radians); "velocity" POINT;
 *    "angularVelocity" NUMBER (radians/s); "force" POINT and "torque" NUMBER (applied during
 *    the next step, reset after each); "centerOfGravity" POINT (body coordinates);
 *    read-only: "kineticEnergy" NUMBER, "sleeping" BOOL.
 *  On failure *out is NIL. Status: OK; INVALID_ARGUMENT (key or out NULL); UNKNOWN_KEY;
 *  STALE_HANDLE. */
caluna_status caluna_body_get(caluna_engine *e, caluna_body body, const char *key, caluna_value *out);

/** Sets a body property (keys as caluna_body_get), e.g.
 *  caluna_body_set(e, body, "velocity", &v) with v = caluna_point(1, 2). Moving a static body
 *  re-indexes its shapes. Status: OK; INVALID_ARGUMENT (key or value NULL, out of range,
 *  NaN, beyond ±1e15, mass ≤ 0, a mass of a body that is not dynamic, a read-only key, a
 *  change forbidden inside a step — see "Callbacks"); OUT_OF_MEMORY (a static body moved, or
 *  a "type" change, would pass the world's "maxContactPairs": nothing changes); UNKNOWN_KEY;
 *  TYPE_MISMATCH; STALE_HANDLE. */
caluna_status caluna_body_set(caluna_engine *e, caluna_body body, const char *key, const caluna_value *value);

/** The world the body is in (BORROWED), or 0 when it is in none (status OK).
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_body_world(caluna_engine *e, caluna_body body, caluna_world *out);

/** Adds force (fx, fy) at a point in world coordinates (cpBodyApplyForceAtWorldPoint) for the
 *  next step: off the centre of gravity it adds torque too. Forces add up; a sum beyond ±1e15
 *  is undone (force and torque reset to 0) and INVALID_ARGUMENT.
 *  Status: OK; INVALID_ARGUMENT (NaN, ∞, beyond ±1e15); STALE_HANDLE. */
caluna_status caluna_body_apply_force_at_world_point(caluna_engine *e, caluna_body body, double fx, double fy,
                                                     double x, double y);
/** The same with the point in body coordinates ((0, 0) is the body's origin). */
caluna_status caluna_body_apply_force_at_local_point(caluna_engine *e, caluna_body body, double fx, double fy,
                                                     double x, double y);
/** Changes the velocity now by impulse (jx, jy) applied at a world point
 *  (cpBodyApplyImpulseAtWorldPoint). A velocity beyond ±1e15 is undone (reset to 0) and
 *  INVALID_ARGUMENT. Status: as caluna_body_apply_force_at_world_point. */
caluna_status caluna_body_apply_impulse_at_world_point(caluna_engine *e, caluna_body body, double jx, double jy,
                                                       double x, double y);
/** The same with the point in body coordinates. */
caluna_status caluna_body_apply_impulse_at_local_point(caluna_engine *e, caluna_body body, double jx, double jy,
                                                       double x, double y);

/** Converts a point from body to world coordinates (cpBodyLocalToWorld).
 *  Status: OK; INVALID_ARGUMENT (out NULL, NaN, ∞, beyond ±1e15); STALE_HANDLE. */
caluna_status caluna_body_local_to_world(caluna_engine *e, caluna_body body, double x, double y, caluna_vect *out);
/** Converts a point from world to body coordinates. Status: as local_to_world. */
caluna_status caluna_body_world_to_local(caluna_engine *e, caluna_body body, double x, double y, caluna_vect *out);
/** The velocity of the body's material at a world point (linear plus angular).
 *  Status: as local_to_world. */
caluna_status caluna_body_velocity_at_world_point(caluna_engine *e, caluna_body body, double x, double y,
                                                  caluna_vect *out);

/** Puts a dynamic body to sleep now (cpBodySleep), with every dynamic body joined to it by a
 *  chain of constraints or of contacts from the last step (Chipmunk sleeps and wakes such a
 *  group whole; those asleep in other groups are woken first); nothing when it sleeps
 *  already. Bodies that touch it later wake it at the next step. Its world must have a finite
 *  "sleepTimeThreshold".
 *  Status: OK; INVALID_ARGUMENT (not dynamic, in no world, no sleep threshold, inside a step,
 *  the group reaches a kinematic body, which keeps it awake); STALE_HANDLE. */
caluna_status caluna_body_sleep(caluna_engine *e, caluna_body body);

/** Wakes a body (and its group) up; nothing for a body in no world.
 *  Status: OK; INVALID_ARGUMENT (inside a step); STALE_HANDLE. */
caluna_status caluna_body_activate(caluna_engine *e, caluna_body body);

/** Replaces a body's velocity integration (cpBodySetVelocityUpdateFunc): called once per step
 *  with the world's gravity, the damping factor for this step and dt. The callback decides
 *  the new velocity; call caluna_body_update_velocity from it for the default integration
 *  (with other arguments to change gravity for this body). `body` is BORROWED. */
typedef void (*caluna_velocity_update_callback)(caluna_engine *e, caluna_body body, double gravity_x,
                                                double gravity_y, double damping, double dt, void *user);
/** Replaces a body's position integration: call caluna_body_update_position for the default. */
typedef void (*caluna_position_update_callback)(caluna_engine *e, caluna_body body, double dt, void *user);

/** Sets (or, with callback NULL, removes: the default integration) the velocity callback.
 *  Status: OK; STALE_HANDLE; INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_body_set_velocity_update(caluna_engine *e, caluna_body body,
                                              caluna_velocity_update_callback callback, void *user);
/** Sets or removes the position callback. Status: as set_velocity_update. */
caluna_status caluna_body_set_position_update(caluna_engine *e, caluna_body body,
                                              caluna_position_update_callback callback, void *user);

/** The default velocity integration (cpBodyUpdateVelocity): v = v·damping + (g + f/m)·dt,
 *  ω likewise; force and torque reset. Nothing for a body that is not dynamic.
 *  Status: OK; INVALID_ARGUMENT (NaN, ∞, damping outside 0…1, dt outside 0…10, a dynamic body
 *  without mass or moment); STALE_HANDLE. */
caluna_status caluna_body_update_velocity(caluna_engine *e, caluna_body body, double gravity_x, double gravity_y,
                                          double damping, double dt);
/** The default position integration (cpBodyUpdatePosition): p += v·dt, angle += ω·dt.
 *  Status: OK; INVALID_ARGUMENT (dt NaN, ∞ or outside 0…10); STALE_HANDLE. */
caluna_status caluna_body_update_position(caluna_engine *e, caluna_body body, double dt);

/** How a bound layer follows its body: position = origin + scale·(x, ±y) (−y with flip_y),
 *  and, when rotates is non-zero, affineTransform = rotation(±angle) (−angle with flip_y).
 *  NULL means the identity mapping (the book's way: the layers in a geometryFlipped
 *  container share the world's coordinates). */
typedef struct caluna_layer_mapping {
    caluna_vect origin;
    /** Points per world unit, (0, 1e6]. */
    double scale;
    int32_t flip_y;
    int32_t rotates;
} caluna_layer_mapping;

typedef char caluna_layer_mapping_layout_check_[(sizeof(caluna_layer_mapping) == 32 && offsetof(caluna_layer_mapping, flip_y) == 24) ? 1 : -1];

/** The identity mapping: origin (0, 0), scale 1, no flip, rotates. A y-up world in a y-down
 *  container `height` points tall: origin (0, height) and flip_y 1. */
static inline caluna_layer_mapping caluna_layer_mapping_identity(void) {
    caluna_layer_mapping m;
    memset(&m, 0, sizeof m);
    m.scale = 1;
    m.rotates = 1;
    return m;
}

/** Makes `layer` follow the body (again, with a new mapping, if it did): now, and after the
 *  steps of every frame and every caluna_world_step, with actions off (nothing animates).
 *  The binding holds the layer weakly. Any number of layers may follow one body.
 *  Status: OK; INVALID_ARGUMENT (a mapping out of range: NaN, scale ≤ 0); STALE_HANDLE
 *  (body or layer). */
caluna_status caluna_body_bind_layer(caluna_engine *e, caluna_body body, caluna_layer layer,
                                     const caluna_layer_mapping *mapping);

/** Stops `layer` (0: every layer) following the body; it stays where it is.
 *  Status: OK; STALE_HANDLE (body, or a non-zero layer); INVALID_ARGUMENT (NULL engine). */
caluna_status caluna_body_unbind_layer(caluna_engine *e, caluna_body body, caluna_layer layer);

/* ---- Shapes ---- */

/* Shapes are made on a body, in its coordinates; in a world they join it too (at the end of
 * the step inside one). *out is BORROWED (the body holds the shape). A body with no moment
 * given gets its moment from its shapes (see caluna_body_create). Common statuses of the
 * four calls: OK; INVALID_ARGUMENT (out NULL, NaN, ∞, beyond ±1e15, a negative radius);
 * OUT_OF_MEMORY (on a body in a world: its "maxShapes" or "maxContactPairs" would be passed);
 * STALE_HANDLE. */

/** A circle of `radius` (> 0) centred at (offset_x, offset_y) (cpCircleShapeNew). */
caluna_status caluna_body_add_circle(caluna_engine *e, caluna_body body, double radius, double offset_x,
                                     double offset_y, caluna_shape *out);
/** A width × height box (both > 0) centred at (center_x, center_y), its corners rounded by
 *  `radius` (≥ 0; cpBoxShapeNew). */
caluna_status caluna_body_add_box(caluna_engine *e, caluna_body body, double width, double height, double radius,
                                  double center_x, double center_y, caluna_shape *out);
/** The convex hull of `count` points (3…256, any winding), rounded by `radius` ≥ 0
 *  (cpPolyShapeNew). INVALID_ARGUMENT also for points NULL with a count, or a degenerate
 *  hull (collinear or coincident points). */
caluna_status caluna_body_add_polygon(caluna_engine *e, caluna_body body, const caluna_vect *points, size_t count,
                                      double radius, caluna_shape *out);
/** A segment from (ax, ay) to (bx, by) (distinct), `radius` thick on each side ≥ 0
 *  (cpSegmentShapeNew): walls and floors. */
caluna_status caluna_body_add_segment(caluna_engine *e, caluna_body body, double ax, double ay, double bx,
                                      double by, double radius, caluna_shape *out);

/** Takes a shape off its body (and out of the world; at the end of the step inside one). The
 *  shape dies unless you hold a reference. Status: OK; INVALID_ARGUMENT (not on this body);
 *  STALE_HANDLE. */
caluna_status caluna_body_remove_shape(caluna_engine *e, caluna_body body, caluna_shape shape);

/** The body's shapes in the order they were made, BORROWED (a list as caluna_world_bodies). */
caluna_status caluna_body_shapes(caluna_engine *e, caluna_body body, caluna_shape *out, size_t capacity,
                                 size_t *count);

/** One more owned reference to a shape. Status: OK; STALE_HANDLE; INVALID_ARGUMENT. */
caluna_status caluna_shape_retain(caluna_engine *e, caluna_shape shape);
/** Drops one owned reference. Status: OK; INVALID_ARGUMENT (none left); STALE_HANDLE. */
caluna_status caluna_shape_release(caluna_engine *e, caluna_shape shape);

/** Reads a shape property. Keys:
 *    "friction" NUMBER ≥ 0 (a contact uses the product of both shapes'); "elasticity" NUMBER
 *    0…10 (the product too: 0.8 × 0.8 = 0.64 for the book's crates); "surfaceVelocity" POINT
 *    (a conveyor belt); "sensor" BOOL (reports collisions, never collides); "collisionType"
 *    NUMBER (whole, 0…2^53) or STRING (a name: "crate"); "mass" and "density" NUMBER ≥ 0
 *    (give the body its mass from its shapes); read-only: "area" NUMBER, "radius" NUMBER,
 *    "type" STRING ("circle", "box", "polygon", "segment"), "boundingBox" RECT (world
 *    coordinates: x, y are the left and bottom edges; as of the last step for a shape in a
 *    world).
 *  On failure *out is NIL. Status: OK; INVALID_ARGUMENT (key or out NULL); UNKNOWN_KEY;
 *  STALE_HANDLE. */
caluna_status caluna_shape_get(caluna_engine *e, caluna_shape shape, const char *key, caluna_value *out);

/** Sets a shape property (keys as caluna_shape_get). Status: OK; INVALID_ARGUMENT (out of
 *  range, read-only, "mass"/"density" inside a step); UNKNOWN_KEY; TYPE_MISMATCH;
 *  STALE_HANDLE (also a shape off its body). */
caluna_status caluna_shape_set(caluna_engine *e, caluna_shape shape, const char *key, const caluna_value *value);

/** The body the shape is on (BORROWED), or 0 when it was taken off or its body died.
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_shape_body(caluna_engine *e, caluna_shape shape, caluna_body *out);

/** Which shapes collide (cpShapeFilter): two shapes in the same non-zero `group` never do;
 *  otherwise each one's `categories` must meet the other's `mask` (bit sets). Queries take a
 *  filter too: a shape is found when the filter's categories meet its mask and its
 *  categories meet the filter's mask (and the groups differ or are 0). */
typedef struct caluna_shape_filter {
    uint64_t group;
    uint32_t categories;
    uint32_t mask;
} caluna_shape_filter;

typedef char caluna_shape_filter_layout_check_[(sizeof(caluna_shape_filter) == 16) ? 1 : -1];

/** Every category, every mask bit, no group (CP_SHAPE_FILTER_ALL): a shape's default. */
static inline caluna_shape_filter caluna_shape_filter_all(void) {
    caluna_shape_filter f;
    f.group = 0;
    f.categories = 0xFFFFFFFFu;
    f.mask = 0xFFFFFFFFu;
    return f;
}

/** The shape's filter. Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_shape_get_filter(caluna_engine *e, caluna_shape shape, caluna_shape_filter *out);
/** Sets the shape's filter. Status: OK; INVALID_ARGUMENT (filter NULL); STALE_HANDLE. */
caluna_status caluna_shape_set_filter(caluna_engine *e, caluna_shape shape, const caluna_shape_filter *filter);

/** The shape's collision type as a number (a named type as the number
 *  caluna_collision_type_named gives its name). Default 0.
 *  Status: OK; INVALID_ARGUMENT (out NULL); STALE_HANDLE. */
caluna_status caluna_shape_collision_type(caluna_engine *e, caluna_shape shape, caluna_collision_type *out);

/** Sets the shape's collision type: a number below 2^48, or one from
 *  caluna_collision_type_named (the shape then has that name, as in Lua).
 *  Status: OK; INVALID_ARGUMENT (any other number); STALE_HANDLE. */
caluna_status caluna_shape_set_collision_type(caluna_engine *e, caluna_shape shape, caluna_collision_type type);

/** The collision type named `name` (1…256 bytes of UTF-8): the same number for the same name
 *  in the whole process, 2^48 or more (clear of plain numbers). Shapes and handlers given it
 *  use the name, which Lua scripts share ("collisionType" reads back as the STRING). No
 *  engine: a failure's message is at caluna_last_error(NULL). Any thread.
 *  Status: OK; INVALID_ARGUMENT (name or out NULL, empty, too long, not UTF-8); OUT_OF_MEMORY
 *  (more than 65536 names). */
caluna_status caluna_collision_type_named(const char *name, caluna_collision_type *out);

/* ---- Constraints ---- */

/** One named parameter of caluna_constraint_create. */
typedef struct caluna_param {
    const char *key;
    caluna_value value;
} caluna_param;

typedef char caluna_param_layout_check_[(sizeof(caluna_param) == 144 && offsetof(caluna_param, value) == 8) ? 1 : -1];

/** A new constraint of `kind` between two different bodies, not yet in a world (add it with
 *  caluna_world_add_constraint once both bodies are in the world). Anchors are POINTs in
 *  each body's coordinates; angles in radians. Kinds and their keys (parameters and
 *  properties; a parameter not given is 0, "ratio" and "ratchet" 1):
 *    "pin"        anchorA, anchorB; distance (from the bodies' positions at creation)
 *    "slide"      anchorA, anchorB, min, max (0 ≤ min ≤ max)
 *    "pivot"      pivot (a world point, parameter only) or anchorA, anchorB
 *    "groove"     grooveA, grooveB (distinct, on body a), anchorB
 *    "dampedSpring"       anchorA, anchorB, restLength ≥ 0, stiffness, damping ≥ 0
 *    "dampedRotarySpring" restAngle, stiffness, damping ≥ 0
 *    "rotaryLimit"        min, max (min ≤ max)
 *    "ratchet"    phase, ratchet (non-zero); angle
 *    "gear"       phase, ratio (non-zero, ±1e-9…±1e9)
 *    "simpleMotor"        rate (radians/s)
 *  Every kind also has maxForce (≥ 0 or INFINITY, default ∞), maxBias (∞), errorBias (0…1,
 *  (1 − 0.1)^60), collideBodies BOOL (true), and read-only "type" STRING and "impulse" NUMBER
 *  (the last step's impulse; divide by the step for a force); these may be parameters too.
 *  `params` holds `count` (0…64) distinct keys; it may be NULL when count is 0. The
 *  constraint holds both bodies. *out is an OWNED reference.
 *  Status: OK; INVALID_ARGUMENT (kind NULL or unknown, out NULL, the same body twice, bodies
 *  of two worlds, a key NULL or repeated, a value out of range, NaN); UNKNOWN_KEY (a key the
 *  kind does not have); TYPE_MISMATCH; STALE_HANDLE (a body, engine). */
caluna_status caluna_constraint_create(caluna_engine *e, const char *kind, caluna_body body_a, caluna_body body_b,
                                       const caluna_param *params, size_t count, caluna_constraint *out);

/** One more owned reference to a constraint. Status: OK; STALE_HANDLE; INVALID_ARGUMENT. */
caluna_status caluna_constraint_retain(caluna_engine *e, caluna_constraint constraint);
/** Drops one owned reference. Status: OK; INVALID_ARGUMENT (none left); STALE_HANDLE. */
caluna_status caluna_constraint_release(caluna_engine *e, caluna_constraint constraint);

/** Reads a property of the constraint's kind (see caluna_constraint_create).
 *  On failure *out is NIL. Status: OK; INVALID_ARGUMENT (key or out NULL); UNKNOWN_KEY;
 *  STALE_HANDLE (also a constraint joining the static body of a destroyed world). */
caluna_status caluna_constraint_get(caluna_engine *e, caluna_constraint constraint, const char *key,
                                    caluna_value *out);
/** Sets a property of the constraint's kind. Status: OK; INVALID_ARGUMENT (out of range,
 *  read-only); UNKNOWN_KEY; TYPE_MISMATCH; STALE_HANDLE. */
caluna_status caluna_constraint_set(caluna_engine *e, caluna_constraint constraint, const char *key,
                                    const caluna_value *value);

/** The constraint's two bodies (BORROWED), a and b as created.
 *  Status: OK; INVALID_ARGUMENT (a pointer NULL); STALE_HANDLE. */
caluna_status caluna_constraint_bodies(caluna_engine *e, caluna_constraint constraint, caluna_body *body_a,
                                       caluna_body *body_b);

/* ---- Collision handlers ---- */

/** A begin or preSolve callback: return 0 to ignore the contact (begin: until the shapes
 *  separate; preSolve: for this step), anything else to process it. */
typedef int32_t (*caluna_collision_filter_callback)(caluna_engine *e, caluna_arbiter arb, void *user);
/** A postSolve or separate callback. */
typedef void (*caluna_collision_callback)(caluna_engine *e, caluna_arbiter arb, void *user);

/** The four phases of a collision handler (cpCollisionHandler); a NULL member keeps
 *  Chipmunk's default for that phase (for a pair handler: the wildcard handlers' phase).
 *    begin       the shapes first touch;
 *    pre_solve   every step they touch, before the solver (set restitution, friction,
 *                surface velocity here);
 *    post_solve  every step they touch, after the solver ("totalImpulse" and
 *                "totalKineticEnergy" are meaningful);
 *    separate    they stopped touching, or one of them left the world ("isRemoval"). */
typedef struct caluna_collision_callbacks {
    caluna_collision_filter_callback begin;
    caluna_collision_filter_callback pre_solve;
    caluna_collision_callback post_solve;
    caluna_collision_callback separate;
} caluna_collision_callbacks;

typedef char caluna_collision_callbacks_layout_check_[(sizeof(caluna_collision_callbacks) == 4 * sizeof(void *)) ? 1 : -1];

/** Sets the handler for collisions between shapes of types `type_a` and `type_b`: its four
 *  phases all become `callbacks`' (NULL: no callbacks, Chipmunk's defaults), each called with
 *  `user`. The pair is unordered: setting (b, a) later changes the same handler, and the
 *  arbiter's shape a keeps the type given first. A pair handler wins over wildcard handlers
 *  for the phases it sets. Status: OK; INVALID_ARGUMENT (a type that is not a collision
 *  type, inside one of the world's callbacks); STALE_HANDLE. */
caluna_status caluna_world_set_collision_handler(caluna_engine *e, caluna_world world, caluna_collision_type type_a,
                                                 caluna_collision_type type_b,
                                                 const caluna_collision_callbacks *callbacks, void *user);

/** Sets the wildcard handler of `type`: collisions of its shapes with any shape, shape a
 *  being the one of `type`. The phases of a pair or default handler that are left NULL run
 *  it. Status: as caluna_world_set_collision_handler. */
caluna_status caluna_world_set_wildcard_handler(caluna_engine *e, caluna_world world, caluna_collision_type type,
                                                const caluna_collision_callbacks *callbacks, void *user);

/** Sets the default handler: it takes every collision without a pair handler. Its phases
 *  left NULL are Chipmunk's defaults, which run the wildcard handlers of the two types; a
 *  phase it sets replaces theirs. Status: as caluna_world_set_collision_handler. */
caluna_status caluna_world_set_default_handler(caluna_engine *e, caluna_world world,
                                               const caluna_collision_callbacks *callbacks, void *user);

/** One contact: the points on shape a's and on shape b's surface (world coordinates) and their
 *  distance (negative when the shapes overlap). */
typedef struct caluna_contact_point {
    caluna_vect point_a;
    caluna_vect point_b;
    double distance;
} caluna_contact_point;

typedef char caluna_contact_point_layout_check_[(sizeof(caluna_contact_point) == 40) ? 1 : -1];

/** The arbiter's two shapes (BORROWED); shape a has the handler's first type.
 *  Every caluna_arbiter_* call: OK; INVALID_ARGUMENT (a pointer NULL); STALE_HANDLE (the
 *  arbiter outside its callback, 0, foreign). */
caluna_status caluna_arbiter_shapes(caluna_engine *e, caluna_arbiter arb, caluna_shape *shape_a,
                                    caluna_shape *shape_b);
/** The bodies of the arbiter's two shapes (BORROWED; the static body for walls). */
caluna_status caluna_arbiter_bodies(caluna_engine *e, caluna_arbiter arb, caluna_body *body_a, caluna_body *body_b);
/** The contact points (0…2; a list as caluna_world_bodies). */
caluna_status caluna_arbiter_contact_points(caluna_engine *e, caluna_arbiter arb, caluna_contact_point *out,
                                            size_t capacity, size_t *count);

/** Reads the arbiter by key: "normal" POINT (from a to b), "count" NUMBER (contact points),
 *  "isFirstContact" BOOL, "isRemoval" BOOL, "totalImpulse" POINT and "totalKineticEnergy"
 *  NUMBER (meaningful in post_solve), "restitution" NUMBER, "friction" NUMBER,
 *  "surfaceVelocity" POINT. On failure *out is NIL. UNKNOWN_KEY for other keys. */
caluna_status caluna_arbiter_get(caluna_engine *e, caluna_arbiter arb, const char *key, caluna_value *out);

/** Changes this contact only (in begin or pre_solve): "restitution" NUMBER 0…10, "friction"
 *  NUMBER ≥ 0, "surfaceVelocity" POINT. INVALID_ARGUMENT for a read-only key or a value out
 *  of range; TYPE_MISMATCH; UNKNOWN_KEY. */
caluna_status caluna_arbiter_set(caluna_engine *e, caluna_arbiter arb, const char *key, const caluna_value *value);

/* ---- Queries ---- */
/*
 * Queries look at the world as of its last step (cpSpace…Query). `filter` may be NULL (every
 * shape). Results that list several shapes are sorted (by distance, or along the segment),
 * ties going to the shape made first, so they never depend on Chipmunk's spatial index.
 * Shape ids in results are BORROWED. Lists work as caluna_world_bodies: the total goes to
 * *count even when `capacity` is smaller. Common statuses: OK; INVALID_ARGUMENT (NaN, ∞,
 * beyond ±1e15, a negative distance or radius, count or out NULL); STALE_HANDLE.
 */

/** A point query result: the nearest point on the shape's surface, its distance (negative
 *  inside the shape) and the gradient of the distance (a unit vector). */
typedef struct caluna_point_hit {
    caluna_shape shape;
    caluna_vect point;
    double distance;
    caluna_vect gradient;
} caluna_point_hit;

/** A segment query result: where the segment hits the shape, the surface normal there, and
 *  alpha, the fraction along the segment (0 at its start, 1 at its end). */
typedef struct caluna_segment_hit {
    caluna_shape shape;
    caluna_vect point;
    caluna_vect normal;
    double alpha;
} caluna_segment_hit;

/** A shape query result: a shape of the world overlapping the query shape, the normal, and
 *  `count` (0…2) contact points. */
typedef struct caluna_shape_contact {
    caluna_shape shape;
    caluna_vect normal;
    int32_t count;
    caluna_contact_point points[2];
} caluna_shape_contact;

typedef char caluna_physics_hits_layout_check_[(sizeof(caluna_point_hit) == 48 && sizeof(caluna_segment_hit) == 48 && sizeof(caluna_shape_contact) == 112 && offsetof(caluna_shape_contact, points) == 32) ? 1 : -1];

/** The nearest shape within `max_distance` (≥ 0, or INFINITY: anywhere) of (x, y)
 *  (cpSpacePointQueryNearest); out->shape is 0 (all zero, status OK) when there is none. */
caluna_status caluna_world_nearest_point(caluna_engine *e, caluna_world world, double x, double y,
                                         double max_distance, const caluna_shape_filter *filter,
                                         caluna_point_hit *out);

/** Every shape within `max_distance` of (x, y), nearest first (cpSpacePointQuery). */
caluna_status caluna_world_point_query(caluna_engine *e, caluna_world world, double x, double y, double max_distance,
                                       const caluna_shape_filter *filter, caluna_point_hit *out, size_t capacity,
                                       size_t *count);

/** The first shape the segment from (ax, ay) to (bx, by), swept with `radius` ≥ 0, hits
 *  (cpSpaceSegmentQueryFirst); out->shape is 0 (all zero, status OK) when it hits nothing. */
caluna_status caluna_world_segment_query_first(caluna_engine *e, caluna_world world, double ax, double ay,
                                               double bx, double by, double radius,
                                               const caluna_shape_filter *filter, caluna_segment_hit *out);

/** Every shape the segment hits, in order along it (cpSpaceSegmentQuery). */
caluna_status caluna_world_segment_query(caluna_engine *e, caluna_world world, double ax, double ay, double bx,
                                         double by, double radius, const caluna_shape_filter *filter,
                                         caluna_segment_hit *out, size_t capacity, size_t *count);

/** Every shape whose bounding box meets the rectangle (x, y are its minimum corner; a negative
 *  size is standardised), in the order they were made (cpSpaceBBQuery). */
caluna_status caluna_world_bb_query(caluna_engine *e, caluna_world world, double x, double y, double width,
                                    double height, const caluna_shape_filter *filter, caluna_shape *out,
                                    size_t capacity, size_t *count);

/** Every shape of the world that overlaps `shape` (which need not be in the world, but must
 *  be on a body), other than itself, with the contacts, in the order they were made
 *  (cpSpaceShapeQuery). STALE_HANDLE also for a shape off its body. */
caluna_status caluna_world_shape_query(caluna_engine *e, caluna_world world, caluna_shape shape,
                                       caluna_shape_contact *out, size_t capacity, size_t *count);

/* ---------------------------------------------------------------------------------------- */
/* Transforms (ABI 1.5)                                                                     */
/* ---------------------------------------------------------------------------------------- */
/*
 * CATransform3D and CGAffineTransform math, without an engine: any thread, any time; a
 * failure's message is at caluna_last_error(NULL) on the calling thread.
 *
 * Layout. A CATransform3D is `double m[16]` in row order m11 m12 m13 m14 m21 … m44 (the
 *         layout of caluna_value's u.transform and of caluna_transform()). A
 *         CGAffineTransform is `double t[6]` = a b c d tx ty.
 * Convention (Core Animation's row vectors). A point is the row [x y z 1] multiplied on the
 *         left: x' = x·m11 + y·m21 + z·m31 + m41, …, w = x·m14 + y·m24 + z·m34 + m44, and
 *         the projected point is (x'/w, y'/w, z'/w); translation sits in m41 m42 m43. For
 *         an affine transform x' = a·x + c·y + tx, y' = b·x + d·y + ty.
 *         _translate/_scale/_rotate(t, …) return op·t: the new operation is applied to
 *         points FIRST, then t (CATransform3DTranslate, CGAffineTransformTranslate …).
 *         _concat(a, b) returns a·b: `a` is applied first (CATransform3DConcat).
 * Units.  Angles in radians; a positive angle about +z turns clockwise on screen (y points
 *         down). Distances in points. Perspective: set m34 = −1/d (d = eye distance, points).
 * Aliasing. Every input is read before `out` is written, so `out` may be the same array as
 *         an input (caluna_transform3d_rotate(m, a, 0, 1, 0, m) rotates m in place).
 * Errors. INVALID_ARGUMENT for a NULL pointer, a NaN/∞ argument or element (the message
 *         names it: "t[11] (m34) must be finite"), or a result that overflows to ∞. On
 *         failure `out` (if not NULL) is zeroed — except for _invert, see there.
 */

/** CATransform3DIdentity (m34 = 0). Status: OK; INVALID_ARGUMENT (out NULL). */
caluna_status caluna_transform3d_identity(double out[16]);

/** CATransform3DMakeTranslation: the identity with m41 m42 m43 = tx ty tz (points). */
caluna_status caluna_transform3d_make_translation(double tx, double ty, double tz, double out[16]);

/** CATransform3DMakeScale: diag(sx, sy, sz, 1). */
caluna_status caluna_transform3d_make_scale(double sx, double sy, double sz, double out[16]);

/** CATransform3DMakeRotation: `angle` radians about the axis (x, y, z), which is normalised;
 *  a zero axis gives the identity. About y, (x, 0, 0) goes to (x·cos, 0, −x·sin): for a
 *  positive angle the right edge moves away from the viewer. */
caluna_status caluna_transform3d_make_rotation(double angle, double x, double y, double z, double out[16]);

/** CATransform3DTranslate(t, tx, ty, tz) = Translation·t (translate first, then t). */
caluna_status caluna_transform3d_translate(const double t[16], double tx, double ty, double tz, double out[16]);

/** CATransform3DScale(t, sx, sy, sz) = Scale·t. */
caluna_status caluna_transform3d_scale(const double t[16], double sx, double sy, double sz, double out[16]);

/** CATransform3DRotate(t, angle, x, y, z) = Rotation·t; a zero axis gives t unchanged. */
caluna_status caluna_transform3d_rotate(const double t[16], double angle, double x, double y, double z,
                                        double out[16]);

/** CATransform3DConcat(a, b) = a·b: a is applied first, then b. */
caluna_status caluna_transform3d_concat(const double a[16], const double b[16], double out[16]);

/** CATransform3DInvert. A singular t (or one whose inverse overflows) fails with
 *  INVALID_ARGUMENT ("t is not invertible") and leaves out = t, as Core Animation returns
 *  its argument unchanged. */
caluna_status caluna_transform3d_invert(const double t[16], double out[16]);

/** CATransform3DIsIdentity (exact comparison): *out is 1 or 0. */
caluna_status caluna_transform3d_is_identity(const double t[16], int32_t *out);

/** CATransform3DEqualToTransform (exact, element by element; 0.0 equals −0.0): *out is 1 or 0. */
caluna_status caluna_transform3d_equal(const double a[16], const double b[16], int32_t *out);

/** CATransform3DIsAffine: 1 when t only maps x/y within the plane (m13 m14 m23 m24 m31 m32
 *  m34 m43 are 0 and m33 = m44 = 1), else 0. */
caluna_status caluna_transform3d_is_affine(const double t[16], int32_t *out);

/** CATransform3DGetAffineTransform: out = {m11, m12, m21, m22, m41, m42} (meaningful when t is
 *  affine; z and perspective are dropped). */
caluna_status caluna_transform3d_get_affine(const double t[16], double out[6]);

/** CATransform3DMakeAffineTransform: a→m11, b→m12, c→m21, d→m22, tx→m41, ty→m42, the rest
 *  identity. */
caluna_status caluna_transform3d_make_affine(const double a[6], double out[16]);

/** The point (x, y, z) through t with the perspective divide: out = {x'/w, y'/w, z'/w} for
 *  the row vector [x y z 1]·t. Status: OK; INVALID_ARGUMENT also when w <= 0 (the point is
 *  at or behind the viewer, e.g. z >= d under m34 = −1/d) — then out is zeroed. */
caluna_status caluna_transform3d_apply(const double t[16], double x, double y, double z, double out[3]);

/** CGAffineTransformIdentity {1, 0, 0, 1, 0, 0}. */
caluna_status caluna_affine_identity(double out[6]);

/** CGAffineTransformMakeTranslation {1, 0, 0, 1, tx, ty}. */
caluna_status caluna_affine_make_translation(double tx, double ty, double out[6]);

/** CGAffineTransformMakeScale {sx, 0, 0, sy, 0, 0}. */
caluna_status caluna_affine_make_scale(double sx, double sy, double out[6]);

/** CGAffineTransformMakeRotation {cos, sin, −sin, cos, 0, 0}: radians, clockwise on screen. */
caluna_status caluna_affine_make_rotation(double angle, double out[6]);

/** CGAffineTransformTranslate(t, tx, ty) = Translation·t (translate first, then t). */
caluna_status caluna_affine_translate(const double t[6], double tx, double ty, double out[6]);

/** CGAffineTransformScale(t, sx, sy) = Scale·t. */
caluna_status caluna_affine_scale(const double t[6], double sx, double sy, double out[6]);

/** CGAffineTransformRotate(t, angle) = Rotation·t. */
caluna_status caluna_affine_rotate(const double t[6], double angle, double out[6]);

/** CGAffineTransformConcat(a, b) = a·b: a is applied first. */
caluna_status caluna_affine_concat(const double a[6], const double b[6], double out[6]);

/** CGAffineTransformInvert: like caluna_transform3d_invert (a singular t fails with
 *  INVALID_ARGUMENT and leaves out = t). */
caluna_status caluna_affine_invert(const double t[6], double out[6]);

/** CGAffineTransformIsIdentity (exact): *out is 1 or 0. */
caluna_status caluna_affine_is_identity(const double t[6], int32_t *out);

/** CGAffineTransformEqualToTransform (exact): *out is 1 or 0. */
caluna_status caluna_affine_equal(const double a[6], const double b[6], int32_t *out);

/** CGPointApplyAffineTransform: out = {a·x + c·y + tx, b·x + d·y + ty}. */
caluna_status caluna_affine_apply_point(const double t[6], double x, double y, double out[2]);

/** CGRectApplyAffineTransform: out = {x, y, width, height} of the axis-aligned bounding box of
 *  the four transformed corners of r = {x, y, width, height} (a negative size is allowed). */
caluna_status caluna_affine_apply_rect(const double t[6], const double r[4], double out[4]);

/* ---------------------------------------------------------------------------------------- */
/* Input events (ABI 1.6)                                                                   */
/* ---------------------------------------------------------------------------------------- */
/*
 * The host feeds input; scenes react through handlers. The model:
 *
 *  - Every event is stamped with a media time (seconds on the engine's virtual clock) and
 *    queued. caluna_engine_step / caluna_engine_advance deliver queued events in time order
 *    (ties: the order they were sent), each AT ITS OWN TIME: the clock stops there, physics
 *    catches up, the handlers run inside the frame's implicit transaction and what they
 *    change is committed at that time. Scripted input therefore gives the same frames
 *    whatever the step size. CALUNA_NOW (or any time already passed) means "at the start of
 *    the next step". Within one instant, input comes before timers and display links.
 *  - Pointer positions are in points in the output's coordinates (the root layer's
 *    superlayer space: y down, origin top left), like a window's.
 *  - Pointer events are hit-tested (CALayer hitTest:) on the presentation tree — where the
 *    layers are seen — unless caluna_set_hit_test_tree selects the model tree. A pointer's
 *    moves, up and cancel go to the layer it went down on (capture, like UIKit's touches),
 *    until caluna_pointer_capture moves or releases it. Moves of a pointer that is not down
 *    (hover) are hit-tested each time.
 *  - Handlers on the hit layer run first, then those of its superlayers in turn (bubbling),
 *    then the handlers on the engine (caluna_on). Handlers of one layer run in the order
 *    they were added. A handler that returns non-zero consumes the event: no later handler
 *    sees it. Key, tilt, resize and custom events go to the engine's handlers only.
 *  - Gestures: after a pointer's own events, the engine sends "tap" (down and up of the
 *    same pointer that never moved more than 10 points) and "pan" (once it moved more than
 *    10 points: phase BEGAN, CHANGED on each move, ENDED on up, CANCELLED on cancel;
 *    translation from the down point, or from caluna_pan_set_translation; velocity from
 *    the last two moves with different times, points per second) from the layer the
 *    pointer went down on, bubbling like pointer events.
 *  - A "resize" event resizes the output when delivered (as caluna_engine_set_size), then
 *    runs its handlers; render into a buffer of the new caluna_engine_pixel_size after it.
 *  - Handlers are callbacks like display links (see "Display links and timers"): they run
 *    inside the step, may call the engine (not step, render, load …), and must return.
 */

/** Event kinds, as delivered in caluna_event.type. Names (for caluna_on / caluna_layer_on
 *  and scripted input) in comments. */
typedef enum caluna_event_type {
    CALUNA_EVENT_POINTER_DOWN = 1,   /* "pointerdown" */
    CALUNA_EVENT_POINTER_MOVE = 2,   /* "pointermove" */
    CALUNA_EVENT_POINTER_UP = 3,     /* "pointerup" */
    CALUNA_EVENT_POINTER_CANCEL = 4, /* "pointercancel" */
    CALUNA_EVENT_KEY_DOWN = 5,       /* "keydown" */
    CALUNA_EVENT_KEY_UP = 6,         /* "keyup" */
    CALUNA_EVENT_TILT = 7,           /* "tilt" */
    CALUNA_EVENT_RESIZE = 8,         /* "resize" */
    CALUNA_EVENT_CUSTOM = 9,         /* handled by its own name */
    CALUNA_EVENT_TAP = 10,           /* "tap" (recognised, never sent) */
    CALUNA_EVENT_PAN = 11            /* "pan" (recognised, never sent) */
} caluna_event_type;

/** A pan's phase (UIGestureRecognizerState). */
typedef enum caluna_pan_phase {
    CALUNA_PAN_NONE = 0, CALUNA_PAN_BEGAN = 1, CALUNA_PAN_CHANGED = 2, CALUNA_PAN_ENDED = 3,
    CALUNA_PAN_CANCELLED = 4
} caluna_pan_phase;

/** Modifier bits (caluna_event.modifiers and the senders' `modifiers`). */
#define CALUNA_MOD_SHIFT   1u
#define CALUNA_MOD_CONTROL 2u
#define CALUNA_MOD_ALT     4u
#define CALUNA_MOD_META    8u

/** Pointer button bits: primary 1, secondary 2, middle 4. */
#define CALUNA_BUTTON_PRIMARY   1
#define CALUNA_BUTTON_SECONDARY 2
#define CALUNA_BUTTON_MIDDLE    4

/** An event's time meaning "now": delivered at the start of the next step. */
#define CALUNA_NOW (-1.0)

/** The event a handler receives; valid only during the callback (copy what you keep).
 *  Fields that do not apply to the kind are 0 / NULL. */
typedef struct caluna_event {
    int32_t type;               /* caluna_event_type */
    int32_t phase;              /* caluna_pan_phase (pan only) */
    double time;                /* media seconds the event happened at */
    int64_t pointer_id;         /* pointer, tap and pan */
    double x, y;                /* pointer position, output coordinates in points */
    int32_t buttons;            /* CALUNA_BUTTON_* bits held */
    uint32_t modifiers;         /* CALUNA_MOD_* bits (pointer and key events) */
    double tilt_x, tilt_y, tilt_z;           /* tilt: the accelerometer vector, in g */
    double width, height, scale;             /* resize: the new output size and scale */
    double translation_x, translation_y;     /* pan: translation in points */
    double velocity_x, velocity_y;           /* pan: velocity in points per second */
    caluna_layer target;        /* the hit layer (model tree), 0 if none */
    caluna_layer current_target;/* the layer whose handler runs, 0 for engine handlers */
    const char *name;           /* the event's name: "tap", "keydown", a custom name … */
    const char *key;            /* key events: the key's name ("a", "Left", "Return") */
    const char *text;           /* key events: the text it types ("" if none) */
    const char *payload_json;   /* custom events: the data as JSON text ("null" if none) */
} caluna_event;

/* The library writes caluna_event with this exact layout (LP64). */
typedef char caluna_event_layout_check_[(sizeof(caluna_event) == 176 && offsetof(caluna_event, target) == 128 && offsetof(caluna_event, payload_json) == 168) ? 1 : -1];

/** A handler id (0 = none). */
typedef uint64_t caluna_handler;

/** A handler: return non-zero to consume the event (no later handler sees it). */
typedef int32_t (*caluna_event_callback)(caluna_engine *e, const caluna_event *event, void *user);

/** Sends a pointer event: type is CALUNA_EVENT_POINTER_DOWN … _CANCEL; (x, y) in points,
 *  output coordinates (finite, |v| ≤ 1e9); buttons CALUNA_BUTTON_* bits (16 bits);
 *  modifiers CALUNA_MOD_* bits; time in media seconds or CALUNA_NOW. Status: OK;
 *  INVALID_ARGUMENT (a type that is not a pointer type, NaN, a negative time other than
 *  CALUNA_NOW, unknown modifier bits, more than 100000 events waiting, or more than 10000
 *  events sent from callbacks during one step). Every caluna_send_* has these bounds. */
caluna_status caluna_send_pointer(caluna_engine *e, int32_t type, int64_t pointer_id, double x, double y,
                                  int32_t buttons, uint32_t modifiers, double time);

/** Sends CALUNA_EVENT_KEY_DOWN or _KEY_UP: key is the key's name (1–64 bytes of UTF-8, e.g.
 *  "a", "Left", "Return", "Escape"), text what it types (NULL or "" for none). */
caluna_status caluna_send_key(caluna_engine *e, int32_t type, const char *key, const char *text,
                              uint32_t modifiers, double time);

/** Sends a tilt (the accelerometer vector in g, as UIAcceleration: x to the right, y up,
 *  z out of the screen). Scenes map it to what they like (listing 11.4: gravity). */
caluna_status caluna_send_tilt(caluna_engine *e, double x, double y, double z, double time);

/** Sends a resize of the output to width × height points at `scale` pixels per point (0
 *  keeps the scale). Checked now as caluna_engine_set_size checks; applied when delivered. */
caluna_status caluna_send_resize(caluna_engine *e, double width, double height, double scale, double time);

/** Sends a named custom event: name is 1–128 bytes, not a built-in name; payload_json is
 *  JSON text (NULL: null), at most 32 levels deep. */
caluna_status caluna_send_custom(caluna_engine *e, const char *name, const char *payload_json, double time);

/** Sends the events one JSON object describes, the scripted-input form shared with
 *  `caluna run --events` and Lua's ca.send: {"type": …, "time": …, …} with the fields of
 *  docs/lua.md ("Events"), including the shorthands "tap" (down + up) and "drag" (down,
 *  evenly spaced moves, up). Nothing is queued when the object is invalid. */
caluna_status caluna_send_json(caluna_engine *e, const char *json);

/** Queues every event of a JSON Lines file (one object per line as caluna_send_json; blank
 *  lines and lines starting with # are skipped); *count (may be NULL) receives how many.
 *  All or nothing: an invalid line fails with its "path:line:" in the message and queues
 *  nothing. Status: OK; IO_ERROR; INVALID_ARGUMENT; UNKNOWN_KEY; TYPE_MISMATCH. */
caluna_status caluna_load_events(caluna_engine *e, const char *path, int32_t *count);

/** How many events wait for delivery. */
caluna_status caluna_pending_event_count(caluna_engine *e, int32_t *out);

/** Adds a handler on the engine for events named `name` (a built-in name or a custom
 *  event's name; a built-in name in the wrong case is UNKNOWN_KEY). */
caluna_status caluna_on(caluna_engine *e, const char *name, caluna_event_callback callback, void *user,
                        caluna_handler *out);

/** Adds a handler on a layer for "pointerdown", "pointermove", "pointerup",
 *  "pointercancel", "tap" or "pan" (others: UNKNOWN_KEY). It runs when the layer or one of
 *  its sublayers is the target. The handler lives as long as the layer. */
caluna_status caluna_layer_on(caluna_engine *e, caluna_layer layer, const char *name,
                              caluna_event_callback callback, void *user, caluna_handler *out);

/** Removes a handler; its id goes stale. Status: OK; STALE_HANDLE. */
caluna_status caluna_off(caluna_engine *e, caluna_handler handler);

/** Selects the tree pointer events are hit-tested in: 1 the presentation tree (default,
 *  where layers are seen), 0 the model tree (where they are going). */
caluna_status caluna_set_hit_test_tree(caluna_engine *e, int32_t presentation);

/** The model layer a pointer at (x, y) would hit now, 0 if none. */
caluna_status caluna_hit_layer(caluna_engine *e, double x, double y, caluna_layer *out);

/** UIPanGestureRecognizer setTranslation: the pan of pointer_id reports (x, y) at its
 *  current position from now on. INVALID_ARGUMENT when that pointer is not panning. */
caluna_status caluna_pan_set_translation(caluna_engine *e, int64_t pointer_id, double x, double y);

/** Sends the rest of pointer_id's events to `layer` until it goes up (0: release it; its
 *  events are hit-tested where they happen). INVALID_ARGUMENT when it is not down. */
caluna_status caluna_pointer_capture(caluna_engine *e, int64_t pointer_id, caluna_layer layer);

/* ---------------------------------------------------------------------------------------- */
/* Specialised layers (ABI 1.7)                                                             */
/* ---------------------------------------------------------------------------------------- */

/** Chapter 6's layer classes, made with caluna_layer_create_class: "CAShapeLayer",
 *  "CATextLayer", "CAGradientLayer", "CAReplicatorLayer", "CAScrollLayer", "CATiledLayer",
 *  "CAEmitterLayer" and caluna's "PixelBufferLayer". Their properties are set and read with
 *  caluna_layer_set / caluna_layer_get like CALayer's (a key of another class is
 *  UNKNOWN_KEY); the calls below are what a property value cannot express. A call of one
 *  class given a layer of another is TYPE_MISMATCH. */

/* ---------------------------------------------------------------------------------------- */
/* Shape layers (ABI 1.7)                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** CAShapeLayer ("CAShapeLayer"): a path filled, then stroked, in the layer's own points,
 *  drawn between its contents and its sublayers, never clipped to its bounds (a layer with
 *  zero bounds draws). Properties by key (caluna_layer_set / caluna_layer_get):
 *    "path"            PATH or NIL (default NIL); ≤ 2^20 elements, points within ±1e8.
 *                      Animatable by an explicit animation only (point by point when both
 *                      paths have the same elements; otherwise it switches at the middle);
 *                      setting it never animates implicitly.
 *    "fillColor"       COLOR or NIL (no fill); default opaque black. Animatable.
 *    "fillRule"        STRING "nonZero" (default) or "evenOdd".
 *    "strokeColor"     COLOR or NIL (default: no stroke). Animatable.
 *    "lineWidth"       NUMBER, points ≥ 0 (default 1; 0 strokes nothing). Animatable.
 *    "lineCap"         STRING "butt" (default), "round", "square" (these two reach lineWidth/2
 *                      past each end).
 *    "lineJoin"        STRING "miter" (default), "round", "bevel".
 *    "miterLimit"      NUMBER ≥ 0 (default 10). Animatable.
 *    "lineDashPattern" ARRAY of NUMBERs or NIL (default; solid): on/off lengths in points,
 *                      each 0…1e8, at most 1024, not all 0; an empty ARRAY is solid too.
 *    "lineDashPhase"   NUMBER, points (default 0). Animatable.
 *    "strokeStart", "strokeEnd"  NUMBER (defaults 0, 1): the stroked part as fractions of
 *                      the arc length of the whole path (all subpaths), clamped to 0…1 when
 *                      drawn; start ≥ end strokes nothing. Dashes stay where they fall on
 *                      the whole path. Animatable.
 *  Bad values: INVALID_ARGUMENT (NaN, negative width, a dash rule, an unknown string),
 *  TYPE_MISMATCH (wrong type, a non-NUMBER dash entry); on a CALayer, UNKNOWN_KEY.
 *
 *  The two calls below make UIBezierPath's arcs and rounded rects as path elements (cubic
 *  Béziers, at most a quarter turn each), written to out[0 … capacity-1]; *count is the
 *  number of elements (write nothing with capacity 0 to ask for it). They need no engine:
 *  errors are at caluna_last_error(NULL). Status: OK; INVALID_ARGUMENT (count NULL, out NULL
 *  with capacity > 0, a negative capacity, NaN or ∞, coordinates beyond ±1e8, a negative
 *  radius, an angle beyond ±1e6 radians, corners > 15). */

/** UIBezierPath addArcWithCenter:radius:startAngle:endAngle:clockwise: — angles in radians
 *  from +x, `clockwise` (nonzero) turns clockwise ON SCREEN (y down; increasing angle). The
 *  end angle moves by whole turns to the requested side of the start; a sweep beyond one
 *  turn draws one circle. Elements: a MOVE to the arc's start, then 0…4 CUBICs (at most 5).
 *  To join the arc to the current point of a path being built (as UIBezierPath does when
 *  they differ), change element 0's type to CALUNA_PATH_LINE. */
caluna_status caluna_path_arc(double cx, double cy, double radius, double start_angle, double end_angle,
                              int32_t clockwise, caluna_path_element *out, int32_t capacity, int32_t *count);

/** UIBezierPath bezierPathWithRoundedRect:byRoundingCorners:cornerRadii: — a closed
 *  subpath, clockwise on screen from the end of the top-left corner. `corners` is a
 *  CACornerMask / UIRectCorner mask: 1 top-left (minXMinY), 2 top-right, 4 bottom-left,
 *  8 bottom-right (15 all, 0 none); those corners are quarter ellipses of radius_width ×
 *  radius_height, each clamped to half the rect's width / height. At most 10 elements
 *  (MOVE, 4 LINEs, up to 4 CUBICs, CLOSE). */
caluna_status caluna_path_rounded_rect(double x, double y, double width, double height,
                                       double radius_width, double radius_height, uint32_t corners,
                                       caluna_path_element *out, int32_t capacity, int32_t *count);

/* ---------------------------------------------------------------------------------------- */
/* Text layers (ABI 1.7)                                                                    */
/* ---------------------------------------------------------------------------------------- */

/*
 * CATextLayer ("CATextLayer"). Its properties go through caluna_layer_set / caluna_layer_get:
 *   "string"          STRING or NIL (default NIL): UTF-8, at most 65536 bytes, no NUL. Reading
 *                     it while an attributed string is set gives the runs' text joined.
 *                     Setting it replaces any attributed string.
 *   "font"            STRING, default "Helvetica": a family or a pango description with a
 *                     style ("DejaVu Sans Bold Oblique"); fontconfig substitutes a missing
 *                     family (Helvetica becomes DejaVu Sans on Debian). 1…256 bytes.
 *   "fontSize"        NUMBER, points, 0…1000, default 36; animatable.
 *   "foregroundColor" COLOR, default opaque white; animatable.
 *   "wrapped"         BOOL, default 0: word-wrap to the bounds width.
 *   "alignmentMode"   STRING "natural" (default), "left", "right", "center", "justified".
 *   "truncationMode"  STRING "none" (default), "start", "middle", "end": an ellipsis where
 *                     a line is cut (unwrapped: each line to the width; wrapped: the last
 *                     line that fits the height).
 *   "allowsFontSubpixelQuantization" BOOL, default 0: stored, no effect.
 * With an attributed string the layer's font, fontSize and foregroundColor are ignored
 * (Apple). The text is drawn into a store of bounds × contentsScale pixels: set
 * "contentsScale" to the render scale for crisp text. The first line is at the top.
 */

/** One run of an attributed string (NSAttributedString), laid out after the previous one.
 *  Unset attributes take Core Text's defaults, never the layer's. */
typedef struct caluna_text_run {
    const char *text;        /* UTF-8, NUL-terminated, required; all runs together at most
                                65536 bytes */
    const char *font;        /* font name as "font" above, or NULL: "Helvetica" */
    double font_size;        /* points, (0, 1000]; 0: 12 (Core Text's default) */
    double color[4];         /* r, g, b, a (sRGB 0…1, straight alpha); read when has_color */
    int32_t has_color;       /* 0: opaque black; 1: color */
    int32_t underline;       /* 0 none; 1 single (kCTUnderlineStyleSingle), in the run's colour */
    int32_t strikethrough;   /* 0 none; 1 single */
    int32_t reserved;        /* must be 0 */
    double kern;             /* extra space after each character, points (±1000) */
} caluna_text_run;

typedef char caluna_text_run_layout_check_[(sizeof(caluna_text_run) == 80 && offsetof(caluna_text_run, color) == 24 &&
                                            offsetof(caluna_text_run, kern) == 72) ? 1 : -1];

/** Sets the layer's string to an attributed string of `count` runs (0…4096), copied.
 *  runs NULL with count 0 clears it (string NIL). Like a "string" change it runs no action.
 *  Status: OK; INVALID_ARGUMENT (count out of range, runs NULL with count > 0, a text NULL,
 *  not UTF-8, containing NUL through its length or too long, a font name of 0 or > 256
 *  bytes, font_size NaN/negative/> 1000, a colour with NaN/∞, kern beyond ±1000 or NaN,
 *  has_color/underline/strikethrough not 0 or 1, reserved not 0); TYPE_MISMATCH (not a
 *  CATextLayer); STALE_HANDLE. Nothing changes on failure. */
caluna_status caluna_text_layer_set_attributed_string(caluna_engine *e, caluna_layer layer,
                                                      const caluna_text_run *runs, int32_t count);

/** The number of runs of the layer's attributed string, or -1 in *out when its string is
 *  plain or NIL; 0 on failure. Status: OK; INVALID_ARGUMENT (out NULL); TYPE_MISMATCH;
 *  STALE_HANDLE. */
caluna_status caluna_text_layer_get_run_count(caluna_engine *e, caluna_layer layer, int32_t *out);

/** Run `index` (0-based) of the attributed string. out->text and out->font (NULL when the
 *  run has none) point into an engine-owned buffer valid until the next call on the
 *  engine; font_size is 0 and has_color 0 for unset attributes. On failure *out is zeroed.
 *  Status: OK; INVALID_ARGUMENT (out NULL, index out of range); TYPE_MISMATCH; STALE_HANDLE. */
caluna_status caluna_text_layer_get_run(caluna_engine *e, caluna_layer layer, int32_t index,
                                        caluna_text_run *out);

/* ---------------------------------------------------------------------------------------- */
/* Gradient and replicator layers (ABI 1.7)                                                 */
/* ---------------------------------------------------------------------------------------- */

/* Everything is a property (caluna_layer_set / caluna_layer_get); no extra calls.
 *
 * "CAGradientLayer": "colors" ARRAY of COLOR (NIL default: nothing drawn; at most 1024),
 *  "locations" ARRAY of NUMBER (NIL default: evenly spaced; a count other than colors'
 *  draws nothing — the book's blank gradient; values beyond 0…1 lie past the start/end
 *  point; unsorted values are sorted), "startPoint" POINT (0.5, 0) and "endPoint" POINT
 *  (0.5, 1) in unit coordinates of the bounds, (0, 0) top-left; "type" STRING "axial"
 *  (default), "radial" (an ellipse centred on startPoint, radii |end − start| per axis in
 *  points) or "conic" (the angle about startPoint from the start→end direction, clockwise on
 *  screen). colors, locations, startPoint and endPoint are animatable. Drawn over the
 *  background, filling the bounds rounded by cornerRadius/maskedCorners.
 *
 * "CAReplicatorLayer": "instanceCount" NUMBER 1 (0…10000, rounded down; more is
 *  INVALID_ARGUMENT), "instanceTransform" TRANSFORM identity (instance k uses its k-th power,
 *  about the bounds centre), "instanceDelay" NUMBER 0 seconds (instance k shows its
 *  sublayers' animations at t − k·delay), "instanceColor" COLOR white (NIL = white),
 *  "instanceRedOffset"/"instanceGreenOffset"/"instanceBlueOffset"/"instanceAlphaOffset"
 *  NUMBER 0 (instance k is multiplied by instanceColor + k·offset, clamped to 0…1),
 *  "preservesDepth" BOOL 0 (1 with 3D content makes caluna_render return NOT_SUPPORTED).
 *  All but preservesDepth are animatable. Hit testing sees only instance 0. Nested
 *  replicators multiply: one render draws at most 1,000,000 replicated layers in all,
 *  counted before any is drawn; past that caluna_render returns INVALID_ARGUMENT. */

/* ---------------------------------------------------------------------------------------- */
/* Scroll layers (ABI 1.7)                                                                  */
/* ---------------------------------------------------------------------------------------- */

/* "CAScrollLayer" has the property "scrollMode" STRING: "both" (default), "vertically",
 * "horizontally" or "none" — the axes scrolling changes. Scrolling only sets bounds.origin:
 * no clamping, no content size, no clipping (set masksToBounds). The change is a bounds
 * change like caluna_layer_set's: it runs the "bounds" action (an implicit animation unless
 * actions are disabled or the layer's actions say otherwise). Coordinates are points. */

/** scrollToPoint: — bounds.origin = (x, y) on the axes scrollMode allows.
 *  Status: OK; TYPE_MISMATCH (not a CAScrollLayer); INVALID_ARGUMENT (NaN/∞, beyond ±1e8,
 *  a presentation layer); STALE_HANDLE. */
caluna_status caluna_scroll_layer_scroll_to_point(caluna_engine *e, caluna_layer scroll_layer,
                                                  double x, double y);

/** scrollToRect: — the smallest scroll that shows the rect (scroll layer coordinates) inside
 *  its bounds; on an axis where the rect is larger than the bounds, its min edge is shown.
 *  Status: as caluna_scroll_layer_scroll_to_point. */
caluna_status caluna_scroll_layer_scroll_to_rect(caluna_engine *e, caluna_layer scroll_layer,
                                                 double x, double y, double width, double height);

/** CALayer scrollPoint: — scrolls the layer's nearest ANCESTOR scroll layer so that (x, y),
 *  in the layer's own coordinates, is at its origin. *out_scrolled (may be NULL) is 1, or 0
 *  when no ancestor is a scroll layer (then nothing happens, as in Core Animation).
 *  Status: OK; INVALID_ARGUMENT (NaN/∞, beyond ±1e8, the point has no image); STALE_HANDLE. */
caluna_status caluna_layer_scroll_point(caluna_engine *e, caluna_layer layer, double x, double y,
                                        int32_t *out_scrolled);

/** CALayer scrollRectToVisible: — like caluna_layer_scroll_point with scrollToRect: (the rect
 *  in the layer's own coordinates, converted to the scroll layer's).
 *  Status: as caluna_layer_scroll_point. */
caluna_status caluna_layer_scroll_rect_to_visible(caluna_engine *e, caluna_layer layer, double x, double y,
                                                  double width, double height, int32_t *out_scrolled);

/** CALayer visibleRect — the part of the layer's bounds not clipped by its nearest ancestor
 *  scroll layer's bounds, in the layer's own coordinates (the bounds when there is none; a
 *  zero-size rect when nothing shows). Model values.
 *  Status: OK; INVALID_ARGUMENT (an out pointer NULL); STALE_HANDLE. */
caluna_status caluna_layer_visible_rect(caluna_engine *e, caluna_layer layer, double *out_x, double *out_y,
                                        double *out_width, double *out_height);

/* ---------------------------------------------------------------------------------------- */
/* Tiled layers (ABI 1.7)                                                                   */
/* ---------------------------------------------------------------------------------------- */

/* A "CATiledLayer" draws its content on demand, at render time, one tile at a time, through
 * its ordinary draw path: the layer's caluna_layer_set_draw_callback (a Lua draw function or
 * delegate drawLayer when it has no C callback). Only the tiles meeting the visible part of
 * the bounds (the bounding box of the render's clip in layer space) are drawn, each once:
 * tiles are cached and reused by later renders. The context's clip bounding box
 * (caluna_context_clip_bounding_box) is the tile in layer points, cut from the layer's
 * origin and clipped to its bounds, and its scale is the tile's (contentsScale × 2^level).
 * caluna_layer_set_needs_display drops every tile, ..._in_rect the tiles it meets; neither
 * draws into "contents". Each tile counts in caluna_stats.tiles_drawn and draw_callbacks.
 * A callback may not step or render the engine (INVALID_ARGUMENT); its error fails the
 * render. Tiles are drawn synchronously, on the rendering thread, in row order.
 * Properties (caluna_layer_set / _get; none animatable):
 *   "tileSize"           SIZE pixels, 1…4096 per side, default 256×256 — pixels, not points:
 *                        with contentsScale 2 a tile covers 128×128 points
 *   "levelsOfDetail"     NUMBER whole, 1…16, default 1: levels at 1×, ½×, ¼× … of contentsScale
 *   "levelsOfDetailBias" NUMBER whole, 0…16, default 0: extra magnified levels at 2×, 4× …
 *                        A render uses the sharpest level needed for its scale, within these.
 *   "fadeDuration"       NUMBER seconds, 0…3600, default 0.25 (+fadeDuration): a new tile
 *                        fades in over this much engine time from the time it was drawn
 *                        (a render at t blends it by (t − drawn) / fadeDuration); 0: at once.
 * A render needing more than 16384 tiles of one layer fails (INVALID_ARGUMENT). */

/* ---------------------------------------------------------------------------------------- */
/* Emitter layers (ABI 1.7)                                                                 */
/* ---------------------------------------------------------------------------------------- */

/** CAEmitterLayer ("CAEmitterLayer"): its own properties are set with caluna_layer_set —
 *  emitterPosition (POINT, (0,0)), emitterZPosition (NUMBER, 0), emitterSize (SIZE, zero),
 *  emitterDepth (NUMBER ≥ 0, 0), emitterShape ("point" | "line" | "rectangle" | "circle" |
 *  "cuboid" | "sphere"), emitterMode ("points" | "outline" | "surface" | "volume", default
 *  "volume"), renderMode ("unordered" (default) | "oldestFirst" | "oldestLast" |
 *  "backToFront" | "additive"), the multipliers of every cell's values birthRate, lifetime
 *  (≥ 0), velocity, scale, spin (all 1), seed (a whole number 0…4294967295, 0) and
 *  preservesDepth (only false; true is NOT_SUPPORTED). Times are the layer's local seconds,
 *  lengths points, angles radians.
 *
 *  Particles are computed in closed form from the seed and the layer's local time: the same
 *  scene at the same time gives the same particles however the clock was stepped there. A
 *  change to the layer or to an installed cell applies to particles born from the time it is
 *  made. At most 10000 live particles per layer are gathered (cells in order, newest first),
 *  and one render draws at most 100000 over all its emitter layers and replicated copies,
 *  in drawing order (layers drawn after that show their newest particles only, or none).
 *
 *  Cells are ids like images: caluna_emitter_cell_create returns an OWNED reference;
 *  a layer or cell that holds a cell keeps it alive too; once neither holds it the id is
 *  STALE_HANDLE. Ids read back (get_cells) are borrowed. */
typedef uint64_t caluna_emitter_cell;

/** A new cell with Apple's defaults (birthRate 0: it emits nothing until set), owned.
 *  Status: OK; INVALID_ARGUMENT (out NULL); OUT_OF_MEMORY. */
caluna_status caluna_emitter_cell_create(caluna_engine *e, caluna_emitter_cell *out);

/** One more owned reference / drops one. Status: OK; STALE_HANDLE; INVALID_ARGUMENT (no
 *  owned reference left to release). */
caluna_status caluna_emitter_cell_retain(caluna_engine *e, caluna_emitter_cell cell);
caluna_status caluna_emitter_cell_release(caluna_engine *e, caluna_emitter_cell cell);

/** Sets or reads one CAEmitterCell value by key: name (STRING or NIL), enabled (BOOL, true),
 *  contents (IMAGE or NIL: a cell without contents draws nothing), contentsRect (RECT, unit),
 *  contentsScale (NUMBER in (0, 64], 1), minificationFilter / magnificationFilter ("linear",
 *  "nearest", "trilinear"), minificationFilterBias, birthRate (per second, ≥ 0, 0), lifetime
 *  and lifetimeRange (s, ≥ 0), velocity (pt/s) and velocityRange (≥ 0), xAcceleration,
 *  yAcceleration, zAcceleration (pt/s²), emissionLongitude, emissionLatitude, emissionRange
 *  (radians, range ≥ 0; 2π = every direction), scale (1), scaleRange (≥ 0), scaleSpeed (/s),
 *  spin (rad/s), spinRange (≥ 0), color (COLOR, white), redRange … alphaRange (≥ 0),
 *  redSpeed … alphaSpeed (/s), beginTime and duration (s; 0 = for ever). A value with mean M
 *  and range R is uniform in [M − R/2, M + R/2]. Numbers are finite and within ±1e8.
 *  Status: OK; UNKNOWN_KEY; NOT_SUPPORTED (speed, timeOffset, repeatCount, repeatDuration,
 *  autoreverses, fillMode, style); TYPE_MISMATCH; INVALID_ARGUMENT (NaN, out of range, NULL);
 *  STALE_HANDLE. */
caluna_status caluna_emitter_cell_set(caluna_engine *e, caluna_emitter_cell cell, const char *key,
                                      const caluna_value *value);
caluna_status caluna_emitter_cell_get(caluna_engine *e, caluna_emitter_cell cell, const char *key,
                                      caluna_value *out);

/** The sub-cells every particle of `cell` emits (count 0: none; at most 10000 cells, 8 levels
 *  of nesting). Status: OK; TREE_ERROR (a cell containing itself); INVALID_ARGUMENT (cells
 *  NULL with count > 0, count out of range, too deep); STALE_HANDLE. */
caluna_status caluna_emitter_cell_set_cells(caluna_engine *e, caluna_emitter_cell cell,
                                            const caluna_emitter_cell *cells, int32_t count);

/** Installs a layer's cells (emitterCells); it emits them from now on. Status: OK;
 *  TYPE_MISMATCH (not a CAEmitterLayer); INVALID_ARGUMENT; STALE_HANDLE. */
caluna_status caluna_emitter_layer_set_cells(caluna_engine *e, caluna_layer layer,
                                             const caluna_emitter_cell *cells, int32_t count);

/** Borrowed ids of the cells (up to `capacity` of them into `out`); *count is how many there
 *  are. Status: OK; INVALID_ARGUMENT (count NULL, out NULL with capacity > 0); TYPE_MISMATCH
 *  (the layer is not a CAEmitterLayer); STALE_HANDLE. */
caluna_status caluna_emitter_cell_get_cells(caluna_engine *e, caluna_emitter_cell cell,
                                            caluna_emitter_cell *out, int32_t capacity, int32_t *count);
caluna_status caluna_emitter_layer_get_cells(caluna_engine *e, caluna_layer layer,
                                             caluna_emitter_cell *out, int32_t capacity, int32_t *count);

/** The live particles the layer shows now (its presentation at the engine's current time),
 *  sub-cells' particles included, invisible (alpha 0) ones too.
 *  Status: OK; INVALID_ARGUMENT (out NULL); TYPE_MISMATCH (not a CAEmitterLayer); STALE_HANDLE. */
caluna_status caluna_emitter_layer_particle_count(caluna_engine *e, caluna_layer layer, int32_t *out);

/* ---------------------------------------------------------------------------------------- */
/* Pixel buffer layers (ABI 1.7)                                                            */
/* ---------------------------------------------------------------------------------------- */

/* A "PixelBufferLayer" is caluna's portable CAEAGLLayer and AVPlayerLayer: its content is a
 * frame of pixels that a frame callback draws at render time (a software renderer, a GL
 * readback) or that the host submits (a video decoder). The frame is drawn exactly as
 * "contents" would be: "contentsGravity" (AVPlayerLayer's videoGravity; set "resizeAspect"
 * for AVPlayerLayer's default), "contentsRect", filters, and around it the background,
 * corners, masks, border, shadow, opacity and 3D transforms of any layer. Its natural size
 * is the frame's pixels / "contentsScale". Properties (none animatable):
 *   "pixelWidth", "pixelHeight" NUMBER whole pixels 0…16384, default 0: the size of the
 *                        buffer a callback draws; 0 = bounds × contentsScale, rounded up
 *   "retainedBacking"    BOOL, default false (kEAGLDrawablePropertyRetainedBacking NO): the
 *                        callback draws a new frame each time the layer is rendered; true:
 *                        only when there is no frame yet, after caluna_layer_set_needs_display,
 *                        or when the buffer size changed. */

/** A frame callback: draw the frame for `time` (the layer's local time in seconds: the
 *  engine's media time through the layer's and its ancestors' beginTime, speed and
 *  timeOffset, so speed 0 pauses and timeOffset seeks) into `pixels`: `width` × `height`
 *  pixels in the format given to caluna_pixel_buffer_layer_set_callback, `stride` bytes per
 *  row (= width × 4), rows top to bottom, all zero (transparent) at the call. The buffer is
 *  valid only during the call. Return CALUNA_OK, or a status that fails the render. The
 *  callback may not step or render the engine. */
typedef int32_t (*caluna_pixel_buffer_callback)(caluna_engine *e, caluna_layer layer, void *pixels,
                                                int32_t width, int32_t height, int32_t stride,
                                                double time, void *user);

/** Sets (or, with callback NULL, removes) the layer's frame callback; it comes before a Lua
 *  drawFrame function. `format` is one of caluna_render's (PREMULTIPLIED formats clamp a
 *  colour channel above its alpha; STRAIGHT ones are premultiplied, rounded). `user` is
 *  held until the callback is replaced or removed, or the layer or engine dies; then
 *  `release` (may be NULL) runs. The callback runs during caluna_render (and snapshots),
 *  once each time the layer is drawn when a frame is due (see "retainedBacking").
 *  Status: OK; INVALID_ARGUMENT (a presentation layer, unknown format); TYPE_MISMATCH (not a
 *  PixelBufferLayer); STALE_HANDLE. */
caluna_status caluna_pixel_buffer_layer_set_callback(caluna_engine *e, caluna_layer layer,
                                                     caluna_pixel_format format,
                                                     caluna_pixel_buffer_callback callback, void *user,
                                                     caluna_release_callback release);

/** Shows a host's frame: copies `width` × `height` pixels in `format`, `stride` bytes per
 *  row (≥ width × 4; the call reads stride × (height − 1) + width × 4 bytes); the caller
 *  keeps `pixels`. The frame stays until the next submit or a frame the callback draws
 *  (without retained backing a callback replaces it at every render).
 *  Status: OK; INVALID_ARGUMENT (pixels NULL, width or height ≤ 0 or beyond 16384 per side
 *  or 2^27 pixels, stride too small, unknown format); TYPE_MISMATCH (not a PixelBufferLayer);
 *  OUT_OF_MEMORY; STALE_HANDLE. */
caluna_status caluna_pixel_buffer_layer_submit(caluna_engine *e, caluna_layer layer, const void *pixels,
                                               int32_t width, int32_t height, int32_t stride,
                                               caluna_pixel_format format);

/** The number of frames the layer's callbacks have drawn (C or Lua) since it was made.
 *  Status: OK; INVALID_ARGUMENT (out NULL); TYPE_MISMATCH (not a PixelBufferLayer); STALE_HANDLE. */
caluna_status caluna_pixel_buffer_layer_frames_drawn(caluna_engine *e, caluna_layer layer, uint64_t *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CALUNA_H */

/* A C host that plays a Lua scene at a fixed frame rate, with input.
 *
 * It loads a scene, optionally queues a JSON Lines events file (caluna_load_events) and
 * taps of its own (caluna_send_pointer down + up at given media times), registers a C
 * handler for "tap" (caluna_on) that prints where the tap was and the name of the layer it
 * hit, then steps the clock by exactly 1/fps per frame — no accumulator, no wall clock: the
 * engine's clock is virtual, and events are delivered at their own times inside each step,
 * so the frames do not depend on how fast this program runs. Frame i shows media time i/fps
 * (frame 0 is a step of 0, which commits the scene), as `caluna run` numbers them.
 *
 * Each frame is rendered into this program's own buffer (caluna_render) and summarised by
 * a checksum; with --out DIR it is also written as DIR/frame_0000.png … (caluna_render_png),
 * with --raw the buffer goes to stdout as raw RGBA (premultiplied: what "over black"
 * looks like once a video encoder drops the alpha) and the log goes to stderr. A video:
 *
 *   ./fixed_rate examples/tap_moving.lua --size 400x300 --fps 60 --frames 480 \
 *       --events examples/tap_moving.jsonl --raw \
 *     | ffmpeg -f rawvideo -pixel_format rgba -video_size 400x300 -framerate 60 -i - \
 *              -pix_fmt yuv420p tap_moving.mp4
 *
 * (the -video_size is the pixel size the log's first line reports: points × --scale).
 *
 *   cc -std=c99 fixed_rate.c $(pkg-config --cflags --libs caluna) -o fixed_rate
 *   ./fixed_rate SCENE.lua [--size WxH] [--scale S] [--fps F] [--frames N]
 *                [--events FILE.jsonl] [--tap X,Y@T]... [--out DIR | --raw]
 *
 * Every status is checked; a failure prints the call, the status name and
 * caluna_last_error, and the program exits with 1 (2 for a usage error).
 */
#include <caluna.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TAPS 32

typedef struct options {
    const char *scene, *events, *out_dir;
    double width, height, scale, fps;
    long frames;
    int raw;
    int tap_count;
    double taps[MAX_TAPS][3]; /* x, y, time */
} options;

/* What the tap handler needs: where to print, and a flag for a failure inside it (a
 * handler cannot return a status; the main loop checks the flag after each step). */
typedef struct host {
    FILE *log;
    int failed;
} host;

static int check(caluna_engine *e, caluna_status s, const char *what) {
    if (s == CALUNA_OK) return 0;
    fprintf(stderr, "fixed_rate: %s: %s: %s\n", what, caluna_status_name(s), caluna_last_error(e));
    return 1;
}

static int usage(const char *argv0) {
    fprintf(stderr,
            "usage: %s SCENE.lua [--size WxH] [--scale S] [--fps F] [--frames N]\n"
            "       [--events FILE.jsonl] [--tap X,Y@T]... [--out DIR | --raw]\n"
            "  --size WxH      output size in points (default 320x480)\n"
            "  --scale S       pixels per point (default 1)\n"
            "  --fps F         frames per second of media time (default 60)\n"
            "  --frames N      frames to render (default 60); frame i is at t = i/F\n"
            "  --events FILE   queue the input events of a JSON Lines file\n"
            "  --tap X,Y@T     tap at (X, Y) points: down at T s, up 0.05 s later (repeatable)\n"
            "  --out DIR       write DIR/frame_0000.png … (DIR must exist)\n"
            "  --raw           write the frames to stdout as raw RGBA (log to stderr)\n",
            argv0);
    return 2;
}

/* A whole-string number. */
static int parse_number(const char *s, double *out) {
    char *end = NULL;
    *out = strtod(s, &end);
    return end != s && *end == '\0';
}

static int parse_args(int argc, char **argv, options *o) {
    memset(o, 0, sizeof *o);
    o->width = 320;
    o->height = 480;
    o->scale = 1;
    o->fps = 60;
    o->frames = 60;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double n = 0;
        if (strcmp(a, "--raw") == 0) { o->raw = 1; continue; }
        if (a[0] != '-') {
            if (o->scene) return 0;
            o->scene = a;
            continue;
        }
        if (v == NULL) return 0;
        i++;
        if (strcmp(a, "--size") == 0) {
            char extra;
            if (sscanf(v, "%lfx%lf%c", &o->width, &o->height, &extra) != 2) return 0;
        } else if (strcmp(a, "--scale") == 0) {
            if (!parse_number(v, &o->scale)) return 0;
        } else if (strcmp(a, "--fps") == 0) {
            if (!parse_number(v, &o->fps) || !(o->fps > 0 && o->fps <= 1000)) return 0;
        } else if (strcmp(a, "--frames") == 0) {
            if (!parse_number(v, &n) || !(n >= 1 && n <= 1000000) || n != (double)(long)n) return 0;
            o->frames = (long)n;
        } else if (strcmp(a, "--events") == 0) {
            o->events = v;
        } else if (strcmp(a, "--out") == 0) {
            o->out_dir = v;
        } else if (strcmp(a, "--tap") == 0) {
            double *t;
            char extra;
            if (o->tap_count == MAX_TAPS) return 0;
            t = o->taps[o->tap_count++];
            if (sscanf(v, "%lf,%lf@%lf%c", &t[0], &t[1], &t[2], &extra) != 3 || !(t[2] >= 0)) return 0;
        } else {
            return 0;
        }
    }
    return o->scene != NULL && !(o->raw && o->out_dir);
}

/* The "tap" handler on the engine: it runs inside caluna_engine_step, at the tap's own
 * media time, after the handlers of the hit layer and its superlayers (a scene's layer
 * handler that returns true consumes the tap, and then this one does not see it). */
static int32_t on_tap(caluna_engine *e, const caluna_event *ev, void *user) {
    host *h = (host *)user;
    caluna_value name = caluna_nil();
    if (ev->target != 0) {
        /* Allowed in a handler: reading properties (not stepping or rendering). The string
         * belongs to the engine until our next call on it, so print it right away. */
        caluna_status s = caluna_layer_get(e, ev->target, "name", &name);
        if (check(e, s, "caluna_layer_get(target, \"name\")")) {
            h->failed = 1;
            return 0;
        }
    }
    fprintf(h->log, "tap t=%.4f at (%.1f, %.1f) on %s%s%s\n", ev->time, ev->x, ev->y,
            name.type == CALUNA_TYPE_STRING ? "\"" : "",
            name.type == CALUNA_TYPE_STRING ? name.u.string : ev->target ? "(unnamed layer)" : "(no layer)",
            name.type == CALUNA_TYPE_STRING ? "\"" : "");
    return 0; /* not consumed: later handlers still see it */
}

/* FNV-1a, 64 bits: a short fingerprint of a frame for the log. */
static unsigned long long fnv1a(const unsigned char *p, size_t n) {
    unsigned long long h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int run(caluna_engine *e, const options *o, host *h) {
    int32_t count = 0, w = 0, ht = 0;
    caluna_handler tap_handler = 0;
    unsigned char *pixels = NULL;
    size_t size = 0;
    int failed = 0;
    char path[4096];

    if (check(e, caluna_engine_load_file(e, o->scene), "caluna_engine_load_file")) return 1;
    if (o->events && check(e, caluna_load_events(e, o->events, &count), "caluna_load_events")) return 1;
    for (int i = 0; i < o->tap_count; i++) {
        const double *t = o->taps[i];
        if (check(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_DOWN, 1, t[0], t[1], CALUNA_BUTTON_PRIMARY, 0, t[2]),
                  "caluna_send_pointer(DOWN)")
            || check(e, caluna_send_pointer(e, CALUNA_EVENT_POINTER_UP, 1, t[0], t[1], 0, 0, t[2] + 0.05),
                     "caluna_send_pointer(UP)"))
            return 1;
    }
    if (check(e, caluna_on(e, "tap", on_tap, h, &tap_handler), "caluna_on(\"tap\")")) return 1;
    if (check(e, caluna_engine_pixel_size(e, &w, &ht), "caluna_engine_pixel_size")) return 1;
    fprintf(h->log, "%s: %dx%d pixels, %ld frames at %g fps, %d scripted events, %d taps\n", o->scene, (int)w,
            (int)ht, o->frames, o->fps, (int)count, o->tap_count);

    for (long frame = 0; frame < o->frames && !failed; frame++) {
        int32_t fw = 0, fh = 0;
        double now = 0;
        /* The fixed step. Frame 0 steps by 0: it commits what the scene built at t = 0. */
        failed = check(e, caluna_engine_step(e, frame == 0 ? 0.0 : 1.0 / o->fps), "caluna_engine_step")
              || h->failed
              || check(e, caluna_engine_media_time(e, &now), "caluna_engine_media_time")
              || check(e, caluna_engine_pixel_size(e, &fw, &fh), "caluna_engine_pixel_size");
        if (failed) break;
        /* A delivered "resize" event changes the pixel size: the buffer follows it. */
        if (fw != w || fh != ht || pixels == NULL) {
            unsigned char *grown;
            if (o->raw && pixels != NULL) {
                fprintf(stderr, "fixed_rate: the output was resized to %dx%d pixels: --raw video needs one size\n",
                        (int)fw, (int)fh);
                failed = 1;
                break;
            }
            w = fw;
            ht = fh;
            size = (size_t)w * (size_t)ht * 4;
            grown = realloc(pixels, size);
            if (grown == NULL) {
                fprintf(stderr, "fixed_rate: out of memory for a %dx%d frame\n", (int)w, (int)ht);
                failed = 1;
                break;
            }
            pixels = grown;
        }
        failed = check(e, caluna_render(e, pixels, size, w, ht, w * 4, CALUNA_RGBA8_PREMULTIPLIED), "caluna_render");
        if (failed) break;
        fprintf(h->log, "frame %04ld t=%.4f %dx%d fnv1a=%016llx\n", frame, now, (int)w, (int)ht, fnv1a(pixels, size));
        if (o->raw && fwrite(pixels, 1, size, stdout) != size) {
            perror("fixed_rate: writing a frame to stdout");
            failed = 1;
        }
        if (o->out_dir) {
            snprintf(path, sizeof path, "%s/frame_%04ld.png", o->out_dir, frame);
            failed = failed || check(e, caluna_render_png(e, path), "caluna_render_png");
        }
    }
    if (!failed && o->raw && fflush(stdout) != 0) {
        perror("fixed_rate: stdout");
        failed = 1;
    }
    free(pixels);
    /* Not needed before caluna_engine_destroy (the engine drops its handlers), but this is
     * how a host stops listening while the engine goes on. */
    if (check(e, caluna_off(e, tap_handler), "caluna_off")) failed = 1;
    return failed;
}

int main(int argc, char **argv) {
    options o;
    host h;
    caluna_engine *e = NULL;
    caluna_engine_options opts = caluna_engine_options_default();

    if (!parse_args(argc, argv, &o)) return usage(argv[0]);
    if (caluna_abi_version() != CALUNA_ABI_VERSION || caluna_abi_minor_version() < CALUNA_ABI_MINOR_VERSION) {
        fprintf(stderr, "fixed_rate: built for caluna ABI %d.%d, the library is %d.%d\n", CALUNA_ABI_VERSION,
                CALUNA_ABI_MINOR_VERSION, caluna_abi_version(), caluna_abi_minor_version());
        return 1;
    }
    h.log = o.raw ? stderr : stdout;
    h.failed = 0;
    opts.width = o.width;
    opts.height = o.height;
    opts.scale = o.scale;
    if (check(NULL, caluna_engine_create(&opts, &e), "caluna_engine_create")) return 1;
    int failed = run(e, &o, &h);
    if (check(NULL, caluna_engine_destroy(e), "caluna_engine_destroy")) failed = 1;
    return failed ? 1 : 0;
}

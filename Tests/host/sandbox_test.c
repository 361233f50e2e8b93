/* The untrusted-script sandbox through the C ABI: hostile scripts (endless
 * loops and the ways to catch the budget error, memory bombs in the Lua heap and
 * in engine memory, C-library time bombs, file access, binary chunks,
 * finalizers) fail with a status in bounded time, and the engine keeps working
 * afterwards; the C calls that name a file keep to the granted directories;
 * caluna_engine_set_sandbox_options checks its arguments. A watchdog (alarm)
 * turns a hang into a failure. */
#define _XOPEN_SOURCE 700
#include "check.h"
#include "child.h"
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------- */
/* Helpers                                                                               */
/* ------------------------------------------------------------------------------------- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static caluna_engine *sandboxed(uint64_t memory, int64_t instructions) {
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT_OK(e, caluna_engine_set_sandbox(e, memory, instructions));
    return e;
}

static caluna_sandbox_options options(uint64_t memory, int64_t instructions, double time_limit) {
    caluna_sandbox_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = (uint32_t)sizeof o;
    o.memory_limit = memory;
    o.instruction_limit = instructions;
    o.time_limit = time_limit;
    return o;
}

static caluna_engine *sandboxed_with(const caluna_sandbox_options *o) {
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT_OK(e, caluna_engine_set_sandbox_options(e, o));
    return e;
}

/* The engine still renders after whatever went wrong. */
static void still_renders(caluna_engine *e, const char *after) {
    int32_t w = 0, h = 0;
    caluna_engine_pixel_size(e, &w, &h);
    size_t size = (size_t)w * (size_t)h * 4;
    unsigned char *buf = malloc(size);
    CHECK(buf != NULL && caluna_render(e, buf, size, w, h, w * 4, CALUNA_RGBA8_STRAIGHT) == CALUNA_OK,
          "the engine still renders after %s", after);
    free(buf);
}

static void message_has(caluna_engine *e, const char *text) {
    CHECK(strstr(caluna_last_error(e), text) != NULL, "message mentions \"%s\": %s", text, caluna_last_error(e));
}

static int exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

static char base[256];      /* a fresh temporary directory */
static char granted[300];   /* base/granted: readable and writable when granted */
static char readonly[300];  /* base/readonly: readable only */
static char scratch[1024];

/* base/…, granted/…: paths in a static buffer (used right away). */
static const char *at(const char *dir, const char *name) {
    snprintf(scratch, sizeof scratch, "%s/%s", dir, name);
    return scratch;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) { fputs(text, f); fclose(f); }
}

/* A status that is not OK and a message that says why: the sandbox refused a path. */
static void refused(caluna_engine *e, caluna_status got, const char *call, const char *path, int line) {
    int ok = got != CALUNA_OK && strstr(caluna_last_error(e), "not allowed in the sandbox") != NULL;
    report(ok, line, "%s refuses %s -> %s: %s", call, path, caluna_status_name(got),
           got == CALUNA_OK ? "" : caluna_last_error(e));
}
#define REFUSED(e, call, path) refused((e), (call), #call, (path), __LINE__)

/* Runs `source` on a fresh engine with a 1e6-instruction budget and a 5 s time limit and
 * checks that it ends with CALUNA_ERR_LIMIT (budget or time), within 10 s. Then the script is
 * finished: a step that reaches its display link, and any later script, fail at once. */
struct escape { const char *name, *source; };

static void budget_escape_child(const void *arg) {
    const char *name = ((const struct escape *)arg)->name;
    const char *source = ((const struct escape *)arg)->source;
    caluna_sandbox_options o = options(64u << 20, 1000000, 5);
    caluna_engine *e = sandboxed_with(&o);
    char what[128];
    snprintf(what, sizeof what, "budget escape '%s'", name);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "ca.displayLink(function() end)\n", "setup"));
    double t0 = now();
    caluna_status st = caluna_engine_load_string(e, source, name);
    double dt = now() - t0;
    CHECK(st == CALUNA_ERR_LIMIT && (strstr(caluna_last_error(e), "instruction budget exhausted") != NULL ||
                                     strstr(caluna_last_error(e), "time limit") != NULL),
          "%s -> %s in %.2f s: %s", name, caluna_status_name(st), dt, caluna_last_error(e));
    CHECK(dt < 10 * slow, "%s ended within 10 s (%.2f s)", name, dt);
    t0 = now();
    st = caluna_engine_step(e, 1.0 / 60);
    dt = now() - t0;
    CHECK(st == CALUNA_ERR_LIMIT && dt < 1 * slow, "%s: a step that reaches the finished script's display link -> %s in %.3f s",
          name, caluna_status_name(st), dt);
    t0 = now();
    st = caluna_engine_load_string(e, "x = 1", "after");
    dt = now() - t0;
    CHECK(st == CALUNA_ERR_LIMIT && dt < 1 * slow, "%s: a later script -> %s in %.3f s", name, caluna_status_name(st), dt);
    still_renders(e, what);
    EXPECT_OK(NULL, caluna_engine_destroy(e));
}

static void budget_escape(const char *name, const char *source) {
    struct escape x = { name, source };
    in_child(name, 30, budget_escape_child, &x);
}

/* ------------------------------------------------------------------------------------- */
/* The first sandbox (caluna_engine_set_sandbox): libraries, budget, memory, callbacks   */
/* ------------------------------------------------------------------------------------- */

static void test_basics(const void *arg) {
    (void)arg;
    caluna_engine *e = sandboxed(16u << 20, 1000000);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "assert(io == nil and os == nil and package == nil and debug == nil)\n"
        "assert(dofile == nil and loadfile == nil)\n"
        "local ca = require 'caluna'\n"
        "ca.root.backgroundColor = 'red'\n", "libs"));
    caluna_layer root = 0;
    caluna_value v;
    EXPECT_OK(e, caluna_root_layer(e, &root));
    EXPECT_OK(e, caluna_layer_get(e, root, "backgroundColor", &v));
    CHECK(v.type == CALUNA_TYPE_COLOR && v.u.color.r == 1 && v.u.color.g == 0, "the sandboxed script drove the engine");
    EXPECT(e, caluna_engine_load_string(e, "require 'os'", "require"), CALUNA_ERR_SCRIPT);
    message_has(e, "not available in the sandbox");
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local f, err = load(string.dump(function() end))\n"
        "assert(f == nil and err:find('binary'), err)\n"
        "assert(load('return 1 + 1')() == 2)\n", "binary chunks"));
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "assert(getmetatable(ca.Layer) == 'caluna: locked', tostring(getmetatable(ca.Layer)))\n"
        "assert(getmetatable(ca.root) == 'caluna: locked', tostring(getmetatable(ca.root)))\n", "locked metatables"));
    EXPECT(e, caluna_engine_load_string(e, "while true do end", "spin"), CALUNA_ERR_LIMIT);
    message_has(e, "instruction budget exhausted");
    still_renders(e, "an endless loop");
    EXPECT(e, caluna_engine_set_sandbox(e, 16u << 20, 1000000), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_engine_destroy(e);

    /* A memory bomb hits the cap; the engine carries on. */
    e = sandboxed(8u << 20, 1000000000);
    EXPECT(e, caluna_engine_load_string(e, "local t = {} for i = 1, 1e8 do t[i] = {i} end", "bomb"), CALUNA_ERR_SCRIPT);
    message_has(e, "not enough memory");
    /* 1 GiB of string: refused (by the cap, or by the sandbox's string limit before it). */
    EXPECT(e, caluna_engine_load_string(e, "local s = string.rep('x', 1 << 30)", "rep"), CALUNA_ERR_SCRIPT);
    CHECK(strstr(caluna_last_error(e), "not enough memory") != NULL || strstr(caluna_last_error(e), "limit") != NULL,
          "the message says why: %s", caluna_last_error(e));
    EXPECT_OK(e, caluna_engine_load_string(e, "collectgarbage() local t = {} for i = 1, 1000 do t[i] = i end", "small"));
    still_renders(e, "a memory bomb");
    caluna_engine_destroy(e);

    /* Limits also hold inside callbacks that the engine runs later. */
    e = sandboxed(8u << 20, 1000000);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local l = ca.Layer{ bounds = {0, 0, 10, 10} }\n"
        "ca.root:addSublayer(l)\n"
        "l.layoutSublayers = function() while true do end end\n", "callback"));
    EXPECT(e, caluna_engine_step(e, 1.0 / 60), CALUNA_ERR_LIMIT);
    message_has(e, "instruction budget exhausted");
    caluna_engine_destroy(e);
    e = sandboxed(8u << 20, 1000000000);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local l = ca.Layer{ bounds = {0, 0, 10, 10} }\n"
        "ca.root:addSublayer(l)\n"
        "l.layoutSublayers = function() local t = {} for i = 1, 1e8 do t[i] = {i} end end\n", "callback"));
    EXPECT(e, caluna_engine_step(e, 1.0 / 60), CALUNA_ERR_SCRIPT);
    message_has(e, "not enough memory");
    caluna_engine_destroy(e);

    /* Bad limits. */
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT(e, caluna_engine_set_sandbox(e, 1000, 1000000), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_sandbox(e, 16u << 20, 10), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_sandbox(e, 16u << 20, -5), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(NULL, caluna_engine_set_sandbox(NULL, 16u << 20, 1000000), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT_OK(e, caluna_engine_load_string(e, "assert(io ~= nil)", "unsandboxed"));
    caluna_engine_destroy(e);
}

/* ------------------------------------------------------------------------------------- */
/* caluna_engine_set_sandbox_options: argument checks                                    */
/* ------------------------------------------------------------------------------------- */

static void test_options_validation(const void *arg) {
    (void)arg;
    caluna_engine *e = NULL;
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    caluna_sandbox_options o = options(0, 0, 0);
    EXPECT(NULL, caluna_engine_set_sandbox_options(NULL, &o), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_sandbox_options(e, NULL), CALUNA_ERR_INVALID_ARGUMENT);
    o.struct_size = 0;
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o.struct_size = 8;
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o = options(1000, 0, 0);                       /* < 1 MiB */
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o = options((1u << 20) - 1, 0, 0);
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o = options(0, 999, 0);                        /* < 1000 instructions */
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o = options(0, -1, 0);
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o = options(0, 0, -1);
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o = options(0, 0, NAN);
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o = options(0, 0, INFINITY);
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o = options(0, 0, 2e6);                        /* beyond 1e6 s */
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);

    /* Directories: missing, a regular file, an empty string. */
    char missing_path[1024];
    snprintf(missing_path, sizeof missing_path, "%s/no-such-directory", base);
    const char *missing[] = { missing_path, NULL };
    o = options(0, 0, 0);
    o.read_dirs = missing;
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o.read_dirs = NULL;
    o.write_dirs = missing;
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    char file_path[1024];
    snprintf(file_path, sizeof file_path, "%s/plain-file", base);
    write_text(file_path, "not a directory\n");
    const char *file[] = { file_path, NULL };
    o.write_dirs = file;
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    o.write_dirs = NULL;
    o.read_dirs = file;
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    const char *empty[] = { "", NULL };
    o.read_dirs = empty;
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    const char *good_then_missing[] = { granted, missing_path, NULL };
    o.read_dirs = good_then_missing;
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);

    /* Nothing of the refused calls took: the engine is not sandboxed yet. */
    EXPECT_OK(e, caluna_engine_load_string(e, "assert(io ~= nil, 'a refused set_sandbox_options sandboxed the engine')", "unsandboxed"));
    caluna_engine_destroy(e);

    /* An empty list is fine; so are all-zero limits (the defaults). */
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    const char *none[] = { NULL };
    o = options(0, 0, 0);
    o.read_dirs = none;
    o.write_dirs = none;
    EXPECT_OK(e, caluna_engine_set_sandbox_options(e, &o));
    EXPECT_OK(e, caluna_engine_load_string(e, "assert(io == nil)", "defaults"));
    /* Too late: a script ran. Both forms are refused. */
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    EXPECT(e, caluna_engine_set_sandbox(e, 16u << 20, 1000000), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_engine_destroy(e);

    /* set_sandbox after an unsandboxed script is refused too (the script could have kept
     * a reference to io). */
    EXPECT_OK(NULL, caluna_engine_create(NULL, &e));
    EXPECT_OK(e, caluna_engine_load_string(e, "keep_io = io", "first"));
    o = options(16u << 20, 1000000, 5);
    EXPECT(e, caluna_engine_set_sandbox_options(e, &o), CALUNA_ERR_INVALID_ARGUMENT);
    caluna_engine_destroy(e);
}

/* ------------------------------------------------------------------------------------- */
/* Files                                                                                 */
/* ------------------------------------------------------------------------------------- */

static void test_files(const void *arg) {
    (void)arg;
    /* Fixtures, written by an unsandboxed engine: a PNG and an events file outside any
     * granted directory, the same inside. */
    caluna_engine *plain = NULL;
    EXPECT_OK(NULL, caluna_engine_create(NULL, &plain));
    EXPECT_OK(plain, caluna_engine_set_size(plain, 16, 16, 1));
    char outside_png[1024], outside_jsonl[1024], inside_png[1024], inside_jsonl[1024], ro_png[1024];
    snprintf(outside_png, sizeof outside_png, "%s/outside.png", base);
    snprintf(outside_jsonl, sizeof outside_jsonl, "%s/outside.jsonl", base);
    snprintf(inside_png, sizeof inside_png, "%s/in.png", granted);
    snprintf(inside_jsonl, sizeof inside_jsonl, "%s/events.jsonl", granted);
    snprintf(ro_png, sizeof ro_png, "%s/ro.png", readonly);
    EXPECT_OK(plain, caluna_render_png(plain, outside_png));
    EXPECT_OK(plain, caluna_render_png(plain, inside_png));
    EXPECT_OK(plain, caluna_render_png(plain, ro_png));
    caluna_engine_destroy(plain);
    write_text(outside_jsonl, "{\"time\": 0, \"type\": \"tap\", \"x\": 1, \"y\": 1}\n");
    write_text(inside_jsonl, "{\"time\": 0, \"type\": \"tap\", \"x\": 1, \"y\": 1}\n");
    /* granted/up -> base, granted/tmp -> /tmp: inside by name, outside once resolved. */
    if (symlink(base, at(granted, "up")) != 0) CHECK(0, "symlink granted/up");
    if (symlink("/tmp", at(granted, "tmp")) != 0) CHECK(0, "symlink granted/tmp");
    char script_path[1024];
    snprintf(script_path, sizeof script_path, "%s/scene.lua", base);
    write_text(script_path, "local ca = require 'caluna'\nca.root.backgroundColor = 'blue'\n");

    const char *read_dirs[] = { readonly, NULL };
    const char *write_dirs[] = { granted, NULL };
    caluna_sandbox_options o = options(64u << 20, 100000000, 10);
    o.read_dirs = read_dirs;
    o.write_dirs = write_dirs;
    caluna_engine *e = sandboxed_with(&o);

    /* The host names its own script: allowed wherever it is. */
    EXPECT_OK(e, caluna_engine_load_file(e, script_path));

    /* caluna_render_png */
    char p[1024];
    const char *escapes[] = { "escape.png", "granted/../escape-dotdot.png", "granted/up/escape-link.png",
                              "readonly/escape-ro.png", "granted-evil/escape.png" };
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", base, escapes[i]);
        REFUSED(e, caluna_render_png(e, p), p);
    }
    REFUSED(e, caluna_render_png(e, "/tmp/caluna-sandbox-test-escape.png"), "/tmp/caluna-sandbox-test-escape.png");
    snprintf(p, sizeof p, "%s/tmp/caluna-sandbox-test-escape.png", granted);
    REFUSED(e, caluna_render_png(e, p), p);
    CHECK(!exists(at(base, "escape.png")) && !exists(at(base, "escape-dotdot.png")) &&
          !exists(at(base, "escape-link.png")) && !exists(at(readonly, "escape-ro.png")) &&
          !exists("/tmp/caluna-sandbox-test-escape.png"), "no refused render_png wrote a file");
    snprintf(p, sizeof p, "%s/ok.png", granted);
    EXPECT_OK(e, caluna_render_png(e, p));
    CHECK(exists(p), "render_png wrote %s inside the granted directory", p);

    /* caluna_image_load_file: outside, through the link, inside a write grant and a read grant. */
    caluna_image img = 0;
    REFUSED(e, caluna_image_load_file(e, outside_png, &img), outside_png);
    CHECK(img == 0, "a refused load gives no image");
    snprintf(p, sizeof p, "%s/up/outside.png", granted);
    REFUSED(e, caluna_image_load_file(e, p, &img), p);
    REFUSED(e, caluna_image_load_file(e, "/etc/passwd", &img), "/etc/passwd");
    EXPECT_OK(e, caluna_image_load_file(e, inside_png, &img));
    caluna_image ro = 0;
    EXPECT_OK(e, caluna_image_load_file(e, ro_png, &ro));
    if (ro) caluna_image_release(e, ro);

    /* caluna_image_write_png */
    if (img) {
        snprintf(p, sizeof p, "%s/escape-write.png", base);
        REFUSED(e, caluna_image_write_png(e, img, p), p);
        CHECK(!exists(p), "the refused write left no file");
        snprintf(p, sizeof p, "%s/escape-ro-write.png", readonly);
        REFUSED(e, caluna_image_write_png(e, img, p), p);
        CHECK(!exists(p), "a read-only grant is not writable");
        snprintf(p, sizeof p, "%s/up/escape-write-link.png", granted);
        REFUSED(e, caluna_image_write_png(e, img, p), p);
        CHECK(!exists(at(base, "escape-write-link.png")), "the refused write through the link left no file");
        snprintf(p, sizeof p, "%s/written.png", granted);
        EXPECT_OK(e, caluna_image_write_png(e, img, p));
        CHECK(exists(p), "image_write_png wrote inside the granted directory");
        caluna_image_release(e, img);
    }

    /* caluna_load_events */
    int32_t count = -1;
    REFUSED(e, caluna_load_events(e, outside_jsonl, &count), outside_jsonl);
    REFUSED(e, caluna_load_events(e, "/etc/passwd", &count), "/etc/passwd");
    CHECK(strstr(caluna_last_error(e), "root:") == NULL, "the refusal does not quote the file: %s", caluna_last_error(e));
    snprintf(p, sizeof p, "%s/up/outside.jsonl", granted);
    REFUSED(e, caluna_load_events(e, p, &count), p);
    EXPECT_OK(e, caluna_load_events(e, inside_jsonl, &count));
    CHECK(count == 2, "load_events read the granted file (a tap: %d events)", count);

    /* The Lua side of the same engine: every call that names a file. */
    char src[4096];
    struct { const char *what, *code; } lua_escapes[] = {
        { "ca.render(path)", "ca.render('%s/escape-lua1.png')" },
        { "ca.render{path}", "ca.render{ path = '%s/escape-lua2.png' }" },
        { "img:write", "ca.render():write('%s/escape-lua3.png')" },
        { "img:writeJPEG", "ca.render():writeJPEG('%s/escape-lua4.jpg', 80)" },
        { "Image.load", "ca.Image.load('%s/outside.png')" },
        { "loadEvents", "ca.loadEvents('%s/outside.jsonl')" },
        { "render with ..", "ca.render('%s/granted/../escape-lua6.png')" },
    };
    for (size_t i = 0; i < sizeof lua_escapes / sizeof lua_escapes[0]; i++) {
        char code[1024];
        snprintf(code, sizeof code, lua_escapes[i].code, base);
        snprintf(src, sizeof src, "local ca = require 'caluna'\n%s\n", code);
        REFUSED(e, caluna_engine_load_string(e, src, lua_escapes[i].what), lua_escapes[i].what);
    }
    /* Read whole, the path normalises into granted/; C stops at the NUL, outside. */
    snprintf(src, sizeof src, "local ca = require 'caluna'\nca.render('%s/escape-lua5.png\\0/../granted/x.png')\n", base);
    REFUSED(e, caluna_engine_load_string(e, src, "NUL in the path"), "a path with a NUL");
    CHECK(!exists(at(base, "escape-lua1.png")) && !exists(at(base, "escape-lua2.png")) &&
          !exists(at(base, "escape-lua3.png")) && !exists(at(base, "escape-lua4.jpg")) &&
          !exists(at(base, "escape-lua5.png")) && !exists(at(base, "escape-lua6.png")),
          "no refused Lua call wrote a file");
    snprintf(src, sizeof src,
        "local ca = require 'caluna'\n"
        "ca.render('%s/lua-ok.png')\n"
        "local img = ca.render()\n"
        "img:write('%s/lua-ok2.png')\n"
        "img:writeJPEG('%s/lua-ok.jpg')\n"
        "assert(ca.Image.load('%s/lua-ok2.png').width == img.width)\n"
        "assert(ca.Image.load('%s/ro.png').width == 16)\n"
        "assert(ca.loadEvents('%s/events.jsonl') == 2)\n",
        granted, granted, granted, granted, readonly, granted);
    EXPECT_OK(e, caluna_engine_load_string(e, src, "inside the granted directories"));
    CHECK(exists(at(granted, "lua-ok.png")) && exists(at(granted, "lua-ok2.png")) && exists(at(granted, "lua-ok.jpg")),
          "the Lua calls wrote inside the granted directory");
    snprintf(src, sizeof src, "local ca = require 'caluna'\nca.render():write('%s/lua-ro.png')\n", readonly);
    REFUSED(e, caluna_engine_load_string(e, src, "write to a read grant"), "a write to a read-only grant");
    still_renders(e, "refused file calls");
    caluna_engine_destroy(e);

    /* A sandbox without grants refuses the C calls everywhere (the granted directories of
     * another engine included), before its first script as after it. */
    o = options(0, 0, 0);
    e = sandboxed_with(&o);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) EXPECT_OK(e, caluna_engine_load_string(e, "x = 1", "first script"));
        snprintf(p, sizeof p, "%s/no-grant-%d.png", granted, pass);
        REFUSED(e, caluna_render_png(e, p), p);
        CHECK(!exists(p), "no file %s", p);
        img = 0;
        REFUSED(e, caluna_image_load_file(e, inside_png, &img), inside_png);
        if (img) caluna_image_release(e, img);
        REFUSED(e, caluna_load_events(e, inside_jsonl, &count), inside_jsonl);
    }
    caluna_engine_destroy(e);
}

/* ------------------------------------------------------------------------------------- */
/* Budget and time                                                                       */
/* ------------------------------------------------------------------------------------- */

static void test_budget_escapes(void) {
    budget_escape("pcall loop", "while true do pcall(function() while true do end end) end");
    budget_escape("xpcall handler",
        "while true do xpcall(function() while true do end end, function() while true do end end) end");
    budget_escape("coroutines",
        "while true do pcall(function()\n"
        "  local co = coroutine.create(function() while true do pcall(function() while true do end end) end end)\n"
        "  while true do coroutine.resume(co) end\n"
        "end) end");
    budget_escape("coroutine.wrap",
        "while true do pcall(coroutine.wrap(function() while true do end end)) end");
    budget_escape("__close",
        "local spin = setmetatable({}, { __close = function() while true do pcall(function() while true do end end) end end })\n"
        "while true do pcall(function() local x <close> = spin; while true do end end) end");
    budget_escape("gsub callback",
        "local s = ('x'):rep(100)\n"
        "while true do pcall(string.gsub, s, 'x', function() while true do end end) end");
    budget_escape("sort comparator",
        "local t = {} for i = 1, 100 do t[i] = -i end\n"
        "while true do pcall(table.sort, t, function() while true do end end) end");
    budget_escape("caluna calls after exhaustion",
        "local ca = require 'caluna'\n"
        "pcall(function() while true do end end)\n"
        "while true do pcall(ca.render); pcall(ca.step, 1 / 60); pcall(coroutine.wrap(function() end)) end");
    /* C-library time bombs: one call, or cheap loops of expensive calls. */
    budget_escape("exponential find", "local r = ('a'):rep(30):find(('a?'):rep(30) .. ('a'):rep(30))");
    budget_escape("lazy find", "local r = ('a'):rep(20000):find('.-.-.-.-b')");
    budget_escape("plain find", "local r = ('a'):rep(15 << 20):find(('a'):rep(1 << 16) .. 'b', 1, true)");
    budget_escape("table.move", "table.move({}, 1, 1 << 40, 2)");
    budget_escape("concat loop", "local s = ('x'):rep(8 << 20) for i = 1, 1e9 do local t = s .. 'y' end");
    budget_escape("unpack loop",
        "local t = {} for i = 1, 1e5 do t[i] = i end for i = 1, 1e9 do local n = select('#', table.unpack(t)) end");
}

/* Time: a budget too large to matter; the time limit (1 s) ends the loop. */
static void test_time_limit(const void *arg) {
    (void)arg;
    caluna_sandbox_options o = options(64u << 20, INT64_C(1000000000000), 1);
    caluna_engine *e = sandboxed_with(&o);
    double t0 = now();
    caluna_status st = caluna_engine_load_string(e, "while true do end", "time");
    double dt = now() - t0;
    CHECK(st == CALUNA_ERR_LIMIT && strstr(caluna_last_error(e), "time limit") != NULL && dt < 5 * slow,
          "the time limit ended an endless loop -> %s in %.2f s: %s", caluna_status_name(st), dt, caluna_last_error(e));
    caluna_engine_destroy(e);
}

/* Time spent in engine work the script asks for counts: ca.step with a physics world again
 * and again; renders of two nested replicators drawing 10^6 layers each, again and again. */
static void test_time_in_engine_work(const void *arg) {
    const char *source = arg;
    caluna_sandbox_options o = options(64u << 20, 0, 1);
    caluna_engine *e = sandboxed_with(&o);
    double t0 = now();
    caluna_status st = caluna_engine_load_string(e, source, "engine work");
    double dt = now() - t0;
    CHECK(st == CALUNA_ERR_LIMIT && dt < 10 * slow, "engine work under a 1 s time limit -> %s in %.2f s: %s",
          caluna_status_name(st), dt, caluna_last_error(e));
    t0 = now();
    caluna_engine_destroy(e);
    CHECK(now() - t0 < 5 * slow, "destroy returned in %.2f s", now() - t0);
}

/* A step whose callback spins (and catches) returns LIMIT; so does the next, at once. */
static void test_callback_budget(const void *arg) {
    (void)arg;
    caluna_sandbox_options o = options(64u << 20, 1000000, 5);
    caluna_engine *e = sandboxed_with(&o);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "ca.displayLink(function() while true do pcall(function() while true do end end) end end)\n", "link"));
    double t0 = now();
    caluna_status st = caluna_engine_step(e, 1.0 / 60);
    double dt = now() - t0;
    CHECK(st == CALUNA_ERR_LIMIT && dt < 10 * slow, "a display link that catches the budget error -> %s in %.2f s",
          caluna_status_name(st), dt);
    t0 = now();
    st = caluna_engine_step(e, 1.0 / 60);
    dt = now() - t0;
    CHECK(st == CALUNA_ERR_LIMIT && dt < 0.5 * slow, "the next step -> %s in %.3f s", caluna_status_name(st), dt);
    still_renders(e, "an exhausted display link");
    t0 = now();
    EXPECT_OK(NULL, caluna_engine_destroy(e));
    CHECK(now() - t0 < 5 * slow, "destroy after exhaustion returned in %.2f s", now() - t0);
}

/* ------------------------------------------------------------------------------------- */
/* Finalizers, metatables, memory                                                        */
/* ------------------------------------------------------------------------------------- */

/* __gc is refused; one left for the end cannot hang destroy. */
static void test_gc(const void *arg) {
    (void)arg;
    caluna_sandbox_options o = options(64u << 20, 1000000, 5);
    caluna_engine *e = sandboxed_with(&o);
    EXPECT(e, caluna_engine_load_string(e,
        "keep = setmetatable({}, { __gc = function() while true do pcall(function() while true do end end) end end })",
        "gc at exit"), CALUNA_ERR_SCRIPT);
    message_has(e, "not allowed in the sandbox");
    caluna_status st = caluna_engine_load_string(e,
        "local mt = { __gc = false }\n"
        "keep2 = setmetatable({}, mt)\n"
        "mt.__gc = function() while true do pcall(function() while true do end end) end end\n", "gc false");
    CHECK(st == CALUNA_ERR_SCRIPT && strstr(caluna_last_error(e), "__gc") != NULL,
          "a metatable with __gc = false is refused too -> %s: %s", caluna_status_name(st), caluna_last_error(e));
    double t0 = now();
    EXPECT_OK(NULL, caluna_engine_destroy(e));
    CHECK(now() - t0 < 5 * slow, "destroy with a finalizer attempt left returned in %.2f s", now() - t0);
}

/* The memory cap after errors raised inside bindings (longjmp through Swift), and engine
 * memory under the same cap. */
static void test_memory(const void *arg) {
    (void)arg;
    caluna_sandbox_options o = options(32u << 20, 0, 10);
    caluna_engine *e = sandboxed_with(&o);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local evil = setmetatable({}, { __index = function() error('raised inside a binding') end })\n"
        "for _, class in ipairs{ 'Layer', 'TextLayer', 'BasicAnimation', 'KeyframeAnimation', 'MediaTimingFunction', 'Transform3D' } do\n"
        "  for _, self in ipairs{ 1, 'x', evil, {} } do\n"
        "    pcall(function() return getmetatable(ca[class]).__call(self) end)\n"
        "    pcall(ca[class], self)\n"
        "  end\n"
        "end\n"
        "local l = ca.Layer()\n"
        "for _, k in ipairs{ 'addSublayer', 'snapshot', 'setValueForKeyPath', 'addAnimation', 'on' } do\n"
        "  local f = l[k]\n"
        "  for _, self in ipairs{ 1, 'x', evil, {} } do pcall(f, self, evil, evil) end\n"
        "end\n", "longjmp"));
    EXPECT(e, caluna_engine_load_string(e, "local t = {} for i = 1, 1e8 do t[i] = i end", "table after longjmp"),
           CALUNA_ERR_SCRIPT);
    message_has(e, "not enough memory");
    EXPECT_OK(e, caluna_engine_load_string(e, "collectgarbage()", "free"));
    still_renders(e, "a longjmp and a memory bomb");
    caluna_engine_destroy(e);
}

/* Engine memory made for the script shares the cap: images, renders, paths. */
static void test_engine_memory(const void *arg) {
    (void)arg;
    caluna_sandbox_options o = options(32u << 20, 0, 20);
    caluna_engine *e = sandboxed_with(&o);
    caluna_status st = caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local bytes = ('\\255'):rep(1 << 22)\n"
        "keep = {}\n"
        "for i = 1, 20 do keep[i] = ca.Image.fromPixels(1024, 1024, bytes) end\n", "images");
    CHECK((st == CALUNA_ERR_SCRIPT || st == CALUNA_ERR_OUT_OF_MEMORY) && strstr(caluna_last_error(e), "memory limit") != NULL,
          "80 MiB of images made by fromPixels under a 32 MiB cap -> %s: %s", caluna_status_name(st), caluna_last_error(e));
    EXPECT_OK(e, caluna_engine_load_string(e, "keep = nil; collectgarbage()", "free"));
    st = caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "ca.setup{ size = {4096, 4096} }\n"
        "keep2 = {}\n"
        "for i = 1, 20 do keep2[i] = ca.render() end\n", "renders");
    CHECK((st == CALUNA_ERR_SCRIPT || st == CALUNA_ERR_OUT_OF_MEMORY) && strstr(caluna_last_error(e), "memory limit") != NULL,
          "renders kept by the script -> %s: %s", caluna_status_name(st), caluna_last_error(e));
    EXPECT_OK(e, caluna_engine_load_string(e,
        "keep2 = nil; collectgarbage(); require('caluna').setup{ size = {320, 480} }", "free"));
    st = caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local p = ca.Path():moveTo(0, 0):curveTo(1, 2, 3, 4, 5, 6)\n"
        "for i = 1, 22 do p:addPath(p) end\n", "path");
    CHECK(st != CALUNA_OK && strstr(caluna_last_error(e), "memory limit") != NULL,
          "a path doubled to 2^23 elements -> %s: %s", caluna_status_name(st), caluna_last_error(e));
    EXPECT_OK(e, caluna_engine_load_string(e, "collectgarbage()", "free"));
    still_renders(e, "engine memory bombs");
    caluna_engine_destroy(e);
}

/* The heap is full when the engine pushes a callback's arguments: a script error, not an
 * abort. */
static void test_full_heap_callbacks(const void *arg) {
    (void)arg;
    caluna_sandbox_options o = options(8u << 20, 100000000, 5);
    caluna_engine *e = sandboxed_with(&o);
    EXPECT_OK(e, caluna_engine_load_string(e,
        "local ca = require 'caluna'\n"
        "local l = ca.Layer{ frame = {0, 0, 10, 10}, backgroundColor = 'red' }\n"
        "ca.root:addSublayer(l)\n"
        "local hog = {}\n"
        "local function fill() while true do hog = { hog } end end\n"
        "ca.displayLink(function() pcall(fill); pcall(fill) end)\n"
        "l:addAnimation(ca.BasicAnimation{ keyPath = 'opacity', fromValue = 0, toValue = 1, duration = 0.01,\n"
        "  delegate = { animationDidStart = function() end, animationDidStop = function() end } }, 'fade')\n"
        "l.draw = function() end\n"
        "ca.on('tick', function() end)\n"
        "ca.send{ type = 'custom', name = 'tick', data = {1, 2, 3}, time = 0.02 }\n", "push"));
    /* Reaching here at all means no abort; a step may succeed or fail with a memory error. */
    for (int i = 0; i < 4; i++) {
        caluna_status st = caluna_engine_step(e, 1.0 / 60);
        CHECK(st == CALUNA_OK || strstr(caluna_last_error(e), "not enough memory") != NULL ||
              strstr(caluna_last_error(e), "memory limit") != NULL,
              "step %d with a full heap -> %s%s%s", i, caluna_status_name(st), st == CALUNA_OK ? "" : ": ",
              st == CALUNA_OK ? "" : caluna_last_error(e));
    }
    caluna_engine_destroy(e);
}

int main(void) {
    const char *vg = getenv("CALUNA_VALGRIND");
    if (vg && strcmp(vg, "1") == 0) slow = 20;
    snprintf(base, sizeof base, "/tmp/caluna-sandbox-test.XXXXXX");
    if (mkdtemp(base) == NULL) { perror("mkdtemp"); return 1; }
    snprintf(granted, sizeof granted, "%s/granted", base);
    snprintf(readonly, sizeof readonly, "%s/readonly", base);
    mkdir(granted, 0700);
    mkdir(readonly, 0700);
    char evil[1024];
    snprintf(evil, sizeof evil, "%s/granted-evil", base);
    mkdir(evil, 0700);

    in_child("basics", 60, test_basics, NULL);
    in_child("options validation", 30, test_options_validation, NULL);
    in_child("files", 60, test_files, NULL);
    test_budget_escapes();
    in_child("time limit", 20, test_time_limit, NULL);
    in_child("time limit: ca.advance with physics", 20, test_time_in_engine_work,
        "local ca = require 'caluna'\n"
        "local w = ca.physics.World{ gravity = {0, 100} }\n"
        "w:addBody{ mass = 1, position = {0, 0} }:addCircle{ radius = 5 }\n"
        "while true do ca.step(1) end\n");   /* 120 steps due each time, 16 run (maxStepsPerFrame) */
    in_child("time limit: nested replicators", 20, test_time_in_engine_work,
        "local ca = require 'caluna'\n"
        "local outer = ca.ReplicatorLayer{ frame = {0, 0, 100, 100}, instanceCount = 1000 }\n"
        "local inner = ca.ReplicatorLayer{ frame = {0, 0, 100, 100}, instanceCount = 999 }\n"
        "inner:addSublayer(ca.Layer{ frame = {0, 0, 1, 1}, backgroundColor = 'red' })\n"
        "outer:addSublayer(inner)\n"
        "ca.root:addSublayer(outer)\n"
        "while true do ca.render() end\n");   /* 10^6 layers a render: the replicator budget's most */
    in_child("callback budget", 30, test_callback_budget, NULL);
    in_child("__gc", 20, test_gc, NULL);
    in_child("memory after longjmp", 60, test_memory, NULL);
    in_child("engine memory", 60, test_engine_memory, NULL);
    in_child("full heap in callbacks", 30, test_full_heap_callbacks, NULL);

    /* Clean up (best effort): the files the tests made. */
    const char *granted_files[] = { "in.png", "events.jsonl", "ok.png", "written.png", "lua-ok.png", "lua-ok2.png",
                                    "lua-ok.jpg", "no-grant-0.png", "no-grant-1.png", "up", "tmp", NULL };
    for (int i = 0; granted_files[i]; i++) unlink(at(granted, granted_files[i]));
    unlink(at(readonly, "ro.png"));
    const char *base_files[] = { "outside.png", "outside.jsonl", "scene.lua", "plain-file", NULL };
    for (int i = 0; base_files[i]; i++) unlink(at(base, base_files[i]));
    rmdir(granted);
    rmdir(readonly);
    rmdir(evil);
    rmdir(base);
    return finish();
}

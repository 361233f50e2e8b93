/* stack_test.c — a host thread with a small stack (256 KiB, caluna's documented
 * minimum) runs scripts and trees that recurse as deep as caluna allows: layout
 * callbacks that lay out again, a layer tree at the depth limit (rendered, hit
 * tested, laid out, freed), callbacks nested through pcall. Each must end with OK
 * or a clear error status, never a crash; each runs in a child process so a crash
 * fails only its group. The same scenes also run on the main thread (8 MiB). */
#define _XOPEN_SOURCE 700
#include "check.h"
#include "child.h"
#include <pthread.h>
#include <stdlib.h>

typedef struct scene {
    const char *name;
    const char *script;
    /* 1: must fail with OUT_OF_MEMORY naming the native stack on a 256 KiB thread;
     * 0: must succeed or fail with a clear error, whichever; the stack may allow it. */
    int must_fail_small;
} scene;

/* A layoutSublayers callback that marks its layer again and lays it out at once:
 * every level is a Lua call inside a Swift binding inside a Lua call. */
static const char layout_recursion[] =
    "local ca = require 'caluna'\n"
    "local l = ca.Layer{ frame = {0, 0, 10, 10} }\n"
    "ca.root:addSublayer(l)\n"
    "local depth = 0\n"
    "l.layoutSublayers = function(self) depth = depth + 1; self:setNeedsLayout(); self:layoutIfNeeded() end\n"
    "l:setNeedsLayout()\n"
    "l:layoutIfNeeded()\n";

/* A chain of layers at the tree-depth limit, drawn, hit tested and laid out. */
static const char deep_tree[] =
    "local ca = require 'caluna'\n"
    "local parent = ca.root\n"
    "for i = 1, 1023 do\n"
    "  local l = ca.Layer{ frame = {0, 0, 64, 64}, backgroundColor = 'red', opacity = 0.99 }\n"
    "  l.layoutSublayers = function() end\n"
    "  l:setNeedsLayout()\n"
    "  parent:addSublayer(l)\n"
    "  parent = l\n"
    "end\n"
    "ca.root:layoutIfNeeded()\n"
    "ca.step(1/60)\n"
    "local hit = ca.root:hitTest{1, 1}\n";

/* Callbacks nested through Lua's own C calls: pcall inside gsub inside sort. */
static const char lua_c_recursion[] =
    "local function dive(n)\n"
    "  if n == 0 then return end\n"
    "  pcall(string.gsub, 'a', 'a', function() table.sort({2, 1}, function(a, b) dive(n - 1); return a < b end) end)\n"
    "end\n"
    "dive(1000)\n";

/* A display link that sets layout callbacks which render nothing but recurse
 * through the engine's own tree walks each frame. */
static const char deep_mask_chain[] =
    "local ca = require 'caluna'\n"
    "local top = ca.Layer{ frame = {0, 0, 64, 64}, backgroundColor = 'blue' }\n"
    "local m = top\n"
    "for i = 1, 1000 do\n"
    "  local k = ca.Layer{ frame = {0, 0, 64, 64}, backgroundColor = 'white' }\n"
    "  m.mask = k\n"
    "  m = k\n"
    "end\n"
    "ca.root:addSublayer(top)\n";

static const scene scenes[] = {
    { "layout recursion", layout_recursion, 1 },
    { "a tree at the depth limit", deep_tree, 0 },
    { "Lua C-call recursion", lua_c_recursion, 0 },
    { "a chain of 1000 masks", deep_mask_chain, 0 },
};
enum { SCENES = sizeof scenes / sizeof scenes[0] };

typedef struct job {
    const scene *sc;
    int small;
} job;

static void *run_scene(void *arg) {
    const job *j = (const job *)arg;
    caluna_engine *e = NULL;
    caluna_engine_options o = caluna_engine_options_default();
    o.width = 64; o.height = 64;
    if (caluna_engine_create(&o, &e) != CALUNA_OK) { CHECK(0, "%s: engine created", j->sc->name); return NULL; }
    caluna_status s = caluna_engine_load_string(e, j->sc->script, "stack");
    const char *msg = caluna_last_error(e);
    if (j->small && j->sc->must_fail_small) {
        CHECK(s == CALUNA_ERR_OUT_OF_MEMORY || s == CALUNA_ERR_SCRIPT, "%s on a 256 KiB thread -> %s", j->sc->name, caluna_status_name(s));
        CHECK(strstr(msg, "native stack") != NULL || strstr(msg, "stack overflow") != NULL,
              "%s: the error names the stack: %.200s", j->sc->name, msg);
    } else {
        CHECK(s == CALUNA_OK || s == CALUNA_ERR_OUT_OF_MEMORY || s == CALUNA_ERR_SCRIPT || s == CALUNA_ERR_TREE,
              "%s (%s stack) loads -> %s %.160s", j->sc->name, j->small ? "256 KiB" : "main", caluna_status_name(s), msg);
    }
    static uint8_t pixels[64 * 64 * 4];
    s = caluna_render(e, pixels, sizeof pixels, 64, 64, 64 * 4, CALUNA_RGBA8_PREMULTIPLIED);
    CHECK(s == CALUNA_OK || s == CALUNA_ERR_OUT_OF_MEMORY || s == CALUNA_ERR_TREE || s == CALUNA_ERR_SCRIPT,
          "%s (%s stack) renders -> %s %.160s", j->sc->name, j->small ? "256 KiB" : "main", caluna_status_name(s), caluna_last_error(e));
    s = caluna_engine_step(e, 1.0 / 60);
    CHECK(s != CALUNA_ERR_INVALID_ARGUMENT, "%s: a step after it -> %s", j->sc->name, caluna_status_name(s));
    caluna_engine_destroy(e);
    CHECK(1, "%s (%s stack): the engine and its tree were freed", j->sc->name, j->small ? "256 KiB" : "main");
    return NULL;
}

static void on_thread(const void *arg) {
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    const char *kib = getenv("STACK_TEST_KIB");   /* for measuring what deep trees need */
    pthread_attr_setstacksize(&attr, (size_t)(kib ? atoi(kib) : 256) * 1024);
    int r = pthread_create(&t, &attr, run_scene, (void *)arg);
    CHECK(r == 0, "a thread with a 256 KiB stack started");
    if (r == 0) pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
}

static void on_main(const void *arg) { run_scene((void *)arg); }

int main(void) {
    job jobs[SCENES * 2];
    /* STACK_TEST_ONLY=i runs job i (scene i/2, even: the small thread) in this process,
     * for a debugger. */
    const char *only = getenv("STACK_TEST_ONLY");
    if (only != NULL) {
        int i = atoi(only);
        if (i < 0 || i >= SCENES * 2) return 2;
        job j = { &scenes[i / 2], i % 2 == 0 };
        if (j.small) on_thread(&j); else on_main(&j);
        return finish();
    }
    char names[SCENES * 2][96];
    for (int i = 0; i < SCENES; i++) {
        jobs[2 * i] = (job){ &scenes[i], 1 };
        jobs[2 * i + 1] = (job){ &scenes[i], 0 };
        snprintf(names[2 * i], sizeof names[0], "%s on a 256 KiB thread", scenes[i].name);
        snprintf(names[2 * i + 1], sizeof names[0], "%s on the main thread", scenes[i].name);
        in_child(names[2 * i], 60, on_thread, &jobs[2 * i]);
        in_child(names[2 * i + 1], 60, on_main, &jobs[2 * i + 1]);
    }
    return finish();
}

/* The C ABI target's callbacks and engine set-up. Every callback checks its `user`, runs a
 * few ops of its own from the input (so callbacks re-enter the engine: the refused calls,
 * changes in the middle of a frame, releases from inside), and answers what the input says.
 *
 * User pointers. A pointer the engine is to own (given with a release callback) is a heap
 * token: the release checks and frees it. So a release that runs twice, or a callback that
 * runs after the release, is a use-after-free AddressSanitizer reports, and a release that
 * never runs is a leak LeakSanitizer reports at the end of the input. */
#include "capi_fuzz.h"

void fz_run_one(void);
const char *fz_path(int i);
const char *fz_base_dir(void);

enum { TOKEN_MAGIC = 0xCA1A7013u };
typedef struct { uint32_t magic; } token;
static token static_user = { TOKEN_MAGIC };   /* for callbacks without a release: never freed */
#define GARBAGE_USER ((void *)(uintptr_t)0x5A5A5A5A5A5A5A5Aull)

unsigned long fz_callbacks;

static void check_user(void *user, const char *who) {
    fz_callbacks++;
    if (user == NULL || user == GARBAGE_USER || user == &static_user) return;
    if (((token *)user)->magic != TOKEN_MAGIC) fz_fail("%s got a user pointer that is not one it was given", who);
}

void *USER(int owned) {
    if (owned) {
        token *t = malloc(sizeof *t);
        if (!t) fz_fail("out of memory");
        t->magic = TOKEN_MAGIC;
        return t;
    }
    uint8_t b = u8();
    return b < 200 ? (void *)&static_user : b < 228 ? NULL : GARBAGE_USER;
}

static void release_token(void *user) {
    if (user == NULL || user == GARBAGE_USER || user == &static_user) fz_fail("a release got a user pointer it does not own");
    check_user(user, "release");
    ((token *)user)->magic = 0;
    free(user);
    run_nested("release");
}
void (*const REL)(void *) = release_token;

caluna_release_callback RELEASE(void) { return u8() < 192 ? release_token : NULL; }

void user_free_if_unowned(void *user, int taken) {
    if (taken || user == NULL || user == GARBAGE_USER || user == &static_user) return;
    ((token *)user)->magic = 0;
    free(user);
}

/* ---- Re-entrancy ---- */

static int depth;

void fz_run_one_prefixed(const char *prefix);

/* `prefix`: the functions the callback mostly calls (NULL: any). */
static void nested(const char *prefix) {
    if (depth >= 2) return;
    int n = u8() % 4;
    depth++;
    for (int i = 0; i < n; i++) prefix ? fz_run_one_prefixed(prefix) : fz_run_one();
    depth--;
}
void run_nested(const char *who) { (void)who; nested(NULL); }

static int32_t answer(void) {
    uint8_t b = u8();
    if (b < 224) return 0;
    return b % 2 ? (int32_t)(b % 12) : (int32_t)u32();
}

/* ---- The callbacks ---- */

static void cb_anim(caluna_engine *e, caluna_animation anim, caluna_layer layer, int32_t finished, void *user) {
    (void)e; (void)anim; (void)layer;
    if (finished != 0 && finished != 1) fz_fail("an animation delegate got finished = %d", finished);
    check_user(user, "animation delegate");
    run_nested("animation delegate");
}
caluna_animation_callback CB_ANIM(void) { return u8() < 200 ? cb_anim : NULL; }

static void cb_link(caluna_engine *e, caluna_display_link link, double ts, double target, double duration, void *user) {
    (void)e; (void)link; (void)ts; (void)target; (void)duration;
    check_user(user, "display link");
    run_nested("display link");
}
caluna_display_link_callback CB_LINK(void) { return u8() < 240 ? cb_link : NULL; }

static void cb_timer(caluna_engine *e, caluna_timer timer, double now, void *user) {
    (void)e; (void)timer; (void)now;
    check_user(user, "timer");
    run_nested("timer");
}
caluna_timer_callback CB_TIMER(void) { return u8() < 240 ? cb_timer : NULL; }

static void cb_completion(caluna_engine *e, void *user) {
    (void)e;
    check_user(user, "completion");
    run_nested("completion");
}
caluna_completion_callback CB_COMPLETION(void) { return u8() < 224 ? cb_completion : NULL; }

static int32_t cb_action(caluna_engine *e, caluna_layer layer, const char *event, void *user) {
    (void)e; (void)layer;
    if (!event) fz_fail("an action got a NULL event");
    (void)strlen(event);
    check_user(user, "action");
    run_nested("action");
    return answer();
}
caluna_action_callback CB_ACTION(void) { return u8() < 224 ? cb_action : NULL; }

static int32_t cb_action_delegate(caluna_engine *e, caluna_layer layer, const char *key, void *user, caluna_action *out) {
    (void)e; (void)layer;
    if (!key || !out) fz_fail("an action delegate got a NULL key or out");
    (void)strlen(key);
    check_user(user, "action delegate");
    if (out->kind != CALUNA_ACTION_CONTINUE) fz_fail("an action delegate's out did not arrive as CONTINUE");
    run_nested("action delegate");
    out->kind = (caluna_action_kind)((int)(u8() % 6) - 1);
    out->animation = ID(K_ANIM);
    out->callback = CB_ACTION();
    out->user = &static_user;
    return answer();
}
caluna_action_delegate_callback CB_ACTION_DELEGATE(void) { return u8() < 224 ? cb_action_delegate : NULL; }

static int32_t cb_draw(caluna_engine *e, caluna_layer layer, caluna_context ctx, void *user) {
    (void)e; (void)layer;
    check_user(user, "draw callback");
    caluna_context outer = P.contexts[0];
    P.contexts[0] = ctx;
    nested("caluna_context_");
    P.contexts[0] = outer;
    P.contexts[1] = ctx;   /* stale from now on */
    return answer();
}
caluna_draw_callback CB_DRAW(void) { return u8() < 224 ? cb_draw : NULL; }

static void cb_velocity(caluna_engine *e, caluna_body body, double gx, double gy, double damping, double dt, void *user) {
    check_user(user, "velocity update");
    if (u8() < 160) caluna_body_update_velocity(e, body, gx, gy, damping, dt);
    else nested("caluna_body_");
}
caluna_velocity_update_callback CB_VELOCITY(void) { return u8() < 224 ? cb_velocity : NULL; }

static void cb_position(caluna_engine *e, caluna_body body, double dt, void *user) {
    check_user(user, "position update");
    if (u8() < 160) caluna_body_update_position(e, body, dt);
    else nested("caluna_body_");
}
caluna_position_update_callback CB_POSITION(void) { return u8() < 224 ? cb_position : NULL; }

static int32_t cb_event(caluna_engine *e, const caluna_event *ev, void *user) {
    (void)e;
    check_user(user, "event handler");
    if (!ev) fz_fail("an event handler got a NULL event");
    /* Every string the event carries must be readable. */
    const char *strings[] = { ev->name, ev->key, ev->text, ev->payload_json };
    for (size_t i = 0; i < LEN(strings); i++) if (strings[i]) (void)strlen(strings[i]);
    run_nested("event handler");
    return (int32_t)(u8() % 2);
}
caluna_event_callback CB_EVENT(void) { return u8() < 240 ? cb_event : NULL; }

static int32_t cb_pixels(caluna_engine *e, caluna_layer layer, void *pixels, int32_t w, int32_t h, int32_t stride,
                         double time, void *user) {
    (void)e; (void)layer; (void)time;
    check_user(user, "pixel buffer callback");
    if (!pixels || w <= 0 || h <= 0 || stride < w * 4) fz_fail("a frame callback got a bad buffer (%d × %d, stride %d)", w, h, stride);
    memset(pixels, u8(), (size_t)stride * (size_t)h);   /* the whole buffer must be ours to write */
    run_nested("pixel buffer callback");
    return answer();
}
caluna_pixel_buffer_callback CB_PIXELS(void) { return u8() < 224 ? cb_pixels : NULL; }

static void arbiter_scope(caluna_arbiter arb, const char *who) {
    caluna_arbiter outer = P.arbiters[0];
    P.arbiters[0] = arb;
    (void)who;
    nested("caluna_arbiter_");
    P.arbiters[0] = outer;
    P.arbiters[1] = arb;
}
static int32_t cb_begin(caluna_engine *e, caluna_arbiter arb, void *user) {
    (void)e; check_user(user, "collision begin"); arbiter_scope(arb, "collision begin"); return u8() % 4 != 0;
}
static int32_t cb_presolve(caluna_engine *e, caluna_arbiter arb, void *user) {
    (void)e; check_user(user, "collision preSolve"); arbiter_scope(arb, "collision preSolve"); return u8() % 4 != 0;
}
static void cb_postsolve(caluna_engine *e, caluna_arbiter arb, void *user) {
    (void)e; check_user(user, "collision postSolve"); arbiter_scope(arb, "collision postSolve");
}
static void cb_separate(caluna_engine *e, caluna_arbiter arb, void *user) {
    (void)e; check_user(user, "collision separate"); arbiter_scope(arb, "collision separate");
}
caluna_collision_callbacks *COLLISION_CALLBACKS(void) {
    static caluna_collision_callbacks c;
    uint8_t b = u8();
    if (b < 16) return NULL;
    c.begin = b & 1 ? cb_begin : NULL;
    c.pre_solve = b & 2 ? cb_presolve : NULL;
    c.post_solve = b & 4 ? cb_postsolve : NULL;
    c.separate = b & 8 ? cb_separate : NULL;
    return &c;
}

/* ---- Engines ---- */

/* The main engine of an input: the root in layers[0], and a sandbox most of the time
 * (grants: granted/ for reading and writing). Limits stay small so a script ends fast. */
void fz_main_init(caluna_engine *e, uint8_t config) {
    fz_check_status(e, caluna_root_layer(e, &P.layers[0]), "caluna_root_layer");
    const char *const granted[] = { fz_path(3), NULL };
    caluna_sandbox_options sb;
    memset(&sb, 0, sizeof sb);
    sb.struct_size = sizeof sb;
    sb.memory_limit = 128u << 20;
    sb.instruction_limit = 1000000;
    sb.time_limit = 1.0;
    sb.output_limit = 64;
    caluna_status s = CALUNA_OK;
    switch (config >> 5) {
    case 0: case 1: case 2: sb.read_dirs = granted; sb.write_dirs = granted; s = caluna_engine_set_sandbox_options(e, &sb); break;
    case 3: sb.read_dirs = granted; s = caluna_engine_set_sandbox_options(e, &sb); break;
    case 4: case 5: s = caluna_engine_set_sandbox_options(e, &sb); break;
    case 6: s = caluna_engine_set_sandbox(e, 128u << 20, 1000000); break;
    default: break;   /* trusted: no sandbox */
    }
    if (s != CALUNA_OK) fz_fail("the sandbox was refused: %s", caluna_last_error(e));
    fz_sandboxed = (config >> 5) != 7;
}

/* A second engine for the whole run, only to give foreign ids of every kind. */
void fz_foreign_init(caluna_engine *o) {
    static const uint8_t px[16] = { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 9 };
    caluna_status s = CALUNA_OK;
    s |= caluna_layer_create(o, &FOREIGN.layers[0]);
    s |= caluna_animation_create(o, "BasicAnimation", &FOREIGN.anims[0]);
    s |= caluna_image_from_pixels(o, 2, 2, 8, CALUNA_RGBA8_STRAIGHT, px, &FOREIGN.images[0]);
    s |= caluna_timer_create(o, 1e6, 0, cb_timer, NULL, &FOREIGN.links[0]);
    s |= caluna_on(o, "tap", cb_event, NULL, &FOREIGN.handlers[0]);
    s |= caluna_world_create(o, NULL, &FOREIGN.worlds[0]);
    s |= caluna_body_create(o, CALUNA_BODY_DYNAMIC, 1, 1, &FOREIGN.bodies[0]);
    s |= caluna_body_add_circle(o, FOREIGN.bodies[0], 1, 0, 0, &FOREIGN.shapes[0]);
    s |= caluna_body_create(o, CALUNA_BODY_DYNAMIC, 1, 1, &FOREIGN.bodies[1]);
    s |= caluna_constraint_create(o, "simpleMotor", FOREIGN.bodies[0], FOREIGN.bodies[1], NULL, 0, &FOREIGN.constraints[0]);
    s |= caluna_emitter_cell_create(o, &FOREIGN.cells[0]);
    int32_t fw = 0, fh = 0;
    s |= caluna_engine_pixel_size(o, &fw, &fh);
    s |= caluna_render_target_create(o, NULL, 0, fw, fh, 0, CALUNA_RGBA8_STRAIGHT, &FOREIGN.targets[0]);
    s |= caluna_image_write_png(o, FOREIGN.images[0], fz_path(0));
    if (s != CALUNA_OK) fz_fail("cannot set up the foreign engine: %s", caluna_last_error(o));
    FOREIGN.contexts[0] = FOREIGN.contexts[1] = FOREIGN.layers[0] ^ 1;
    FOREIGN.arbiters[0] = FOREIGN.arbiters[1] = FOREIGN.bodies[0] ^ 1;
    char secret[200];
    snprintf(secret, sizeof secret, "%s/outside/secret.png", fz_base_dir());
    if (caluna_image_write_png(o, FOREIGN.images[0], secret) != CALUNA_OK) fz_fail("cannot write %s", secret);
}
